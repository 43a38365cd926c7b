/*
 * capture/bpf/usbtrace.h - the record usbtrace.bpf.c puts in its ring
 * buffer and capture/cap-bpf.c reads: one layout for both sides (types
 * from <linux/types.h>, fixed sizes, no padding holes).
 */
#ifndef USBTRACE_H
#define USBTRACE_H

#include <linux/types.h>

/* What a record reports: the kernel function that was entered. */
enum ut_kind {
	UT_SUBMIT = 1,		/* usb_submit_urb, at its return */
	UT_GIVEBACK,		/* __usb_hcd_giveback_urb, at entry */
	UT_KILL,		/* usb_kill_urb */
	UT_UNLINK,		/* usb_unlink_urb, at its return */
	UT_PROBE,		/* usb_probe_interface, at its return */
	UT_DISCONNECT,		/* usb_unbind_interface: the driver's
				   disconnect returned */
	UT_REGISTER_DEV,	/* usb_register_dev, at its return */
	UT_DEREGISTER_DEV,	/* usb_deregister_dev */
	UT_POISON,		/* usb_poison_urb */
	UT_REGISTER,		/* usb_register_driver: driver */
	UT_DEREGISTER,		/* usb_deregister: driver */
	UT_OPEN,		/* usb_open, at its return: minor, driver
				   the module of the file's new f_op */
	UT_MATCH,		/* usb_device_match on an interface, at its
				   return: driver the one tried, result 1
				   matched or 0; length the matching static
				   id table entry + 1 (0: none, or a
				   dynamic id), ptr its driver_info,
				   mem_flags its match_flags */
};

#define UT_CTX_TASK	0	/* dec_drv_contexts: "task" */
#define UT_CTX_IRQ	1	/* inside __usb_hcd_giveback_urb: "irq" */
#define UT_CTX_ATOMIC	3	/* a task with interrupts off: "atomic" */

#define UT_COMM_LEN	16
#define UT_NAME_LEN	32
#define UT_STACK	4

struct ut_record {
	__u64	ts_ns;		/* bpf_ktime_get_ns(): CLOCK_MONOTONIC */
	__u64	urb;		/* struct urb *, the usbmon id */
	__u64	caller;		/* return address of the traced call */
	__u64	stack[UT_STACK];	/* the kernel stack from the probe */
	__u64	complete;	/* urb->complete */
	__u64	ptr;		/* probe, disconnect: intf->dev.driver_data */
	__u64	ptr_entry;	/* disconnect: the same at usb_unbind_interface's
				   entry, before the driver's disconnect */
	__u64	intf_addr;	/* struct usb_interface * */
	__u32	kind;		/* enum ut_kind */
	__s32	result;		/* return value, or urb->status */
	__u32	pipe;		/* urb->pipe */
	__u32	length;		/* transfer_buffer_length / actual_length;
				   usb_register_dev: the class driver's
				   minor_base */
	__u32	mem_flags;	/* gfp_t of usb_submit_urb */
	__u32	xfer_flags;	/* urb->transfer_flags */
	__u32	pid;
	__u16	busnum;
	__u8	devnum;
	__u8	context;	/* UT_CTX_* */
	__s16	intf;		/* bInterfaceNumber, -1 if none */
	__u16	pad;
	__u32	cpu;
	__s32	minor;		/* intf->minor, -1 if none */
	__u32	pad2;
	char	comm[UT_COMM_LEN];
	char	driver[UT_NAME_LEN];	/* dev->driver->name */
	char	devname[UT_NAME_LEN];	/* dev_name(dev): "1-1:1.0" */
	char	node[UT_NAME_LEN];	/* usb_register_dev: the class
					   device's name, "urbskel0" */
};

#endif /* USBTRACE_H */
