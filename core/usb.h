/*
 * core/usb.h - the USB driver API of Linux 2.5/2.6, for drivers that run
 * in urbscope's instrumented userspace USB core.  Names, fields and
 * semantics are the kernel's (include/linux/usb.h, drivers/usb/core/), so a
 * driver ports by copy.  Host byte order is little-endian here, as on the
 * machines the tool runs on; descriptor structs are filled field by field
 * by the core, never cast over wire bytes.
 *
 * Everything runs on the simulator's one thread (core/sim.h): "sleeping"
 * calls run the simulated machine until they may return; completion
 * handlers run in interrupt context.
 */
#ifndef CORE_USB_H
#define CORE_USB_H

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "decode/ch9.h"

typedef uint8_t		u8;
typedef uint16_t	u16;
typedef uint32_t	u32;
typedef uint64_t	u64;
typedef uint8_t		__u8;
typedef uint16_t	__u16;
typedef uint32_t	__u32;
typedef uint16_t	__le16;
typedef uint32_t	dma_addr_t;	/* the simulated machine's 32-bit DMA */
typedef unsigned int	gfp_t;

#define le16_to_cpu(x)	((u16)(x))
#define cpu_to_le16(x)	((__le16)(x))

/* Jiffies per second: timeouts of the synchronous calls are in ms, so
 * HZ * 10 is ten seconds, as with 2.6.0's CONFIG_HZ=1000. */
#define HZ		1000

/* mem_flags; the values only have to differ. */
#define GFP_ATOMIC	0x20u
#define GFP_NOIO	0x10u
#define GFP_KERNEL	0xd0u

/* Linux's private status codes missing from userspace errno.h. */
#ifndef EPROBE_DEFER
#define EPROBE_DEFER	517
#endif

/* ------------------------------------------------------------------------
 * Chapter 9 (USB 2.0 section 9.6), host-order copies of the descriptors.
 */
#define USB_DIR_OUT			0
#define USB_DIR_IN			0x80
#define USB_TYPE_MASK			(0x03 << 5)
#define USB_TYPE_STANDARD		(0x00 << 5)
#define USB_TYPE_CLASS			(0x01 << 5)
#define USB_TYPE_VENDOR			(0x02 << 5)
#define USB_RECIP_MASK			0x1f
#define USB_RECIP_DEVICE		0x00
#define USB_RECIP_INTERFACE		0x01
#define USB_RECIP_ENDPOINT		0x02
#define USB_RECIP_OTHER			0x03

/* USB_REQ_* and USB_DT_* codes and sizes: decode/ch9.h */

#define USB_ENDPOINT_NUMBER_MASK	0x0f
#define USB_ENDPOINT_DIR_MASK		0x80
#define USB_ENDPOINT_XFERTYPE_MASK	0x03
#define USB_ENDPOINT_XFER_CONTROL	0
#define USB_ENDPOINT_XFER_ISOC		1
#define USB_ENDPOINT_XFER_BULK		2
#define USB_ENDPOINT_XFER_INT		3

#define USB_ENDPOINT_HALT		0
#define USB_DEVICE_REMOTE_WAKEUP	1

#define USB_CLASS_PER_INTERFACE		0x00
#define USB_CLASS_HID			0x03
#define USB_CLASS_MASS_STORAGE		0x08
#define USB_CLASS_HUB			0x09
#define USB_CLASS_VENDOR_SPEC		0xff

struct usb_ctrlrequest {
	u8		 bRequestType;
	u8		 bRequest;
	__le16		 wValue;
	__le16		 wIndex;
	__le16		 wLength;
} __attribute__((packed));

struct usb_device_descriptor {
	u8		 bLength;
	u8		 bDescriptorType;
	__le16		 bcdUSB;
	u8		 bDeviceClass;
	u8		 bDeviceSubClass;
	u8		 bDeviceProtocol;
	u8		 bMaxPacketSize0;
	__le16		 idVendor;
	__le16		 idProduct;
	__le16		 bcdDevice;
	u8		 iManufacturer;
	u8		 iProduct;
	u8		 iSerialNumber;
	u8		 bNumConfigurations;
};

struct usb_config_descriptor {
	u8		 bLength;
	u8		 bDescriptorType;
	__le16		 wTotalLength;
	u8		 bNumInterfaces;
	u8		 bConfigurationValue;
	u8		 iConfiguration;
	u8		 bmAttributes;
	u8		 bMaxPower;
};

struct usb_interface_descriptor {
	u8		 bLength;
	u8		 bDescriptorType;
	u8		 bInterfaceNumber;
	u8		 bAlternateSetting;
	u8		 bNumEndpoints;
	u8		 bInterfaceClass;
	u8		 bInterfaceSubClass;
	u8		 bInterfaceProtocol;
	u8		 iInterface;
};

struct usb_endpoint_descriptor {
	u8		 bLength;
	u8		 bDescriptorType;
	u8		 bEndpointAddress;
	u8		 bmAttributes;
	__le16		 wMaxPacketSize;
	u8		 bInterval;
};

/* ------------------------------------------------------------------------
 * Devices, configurations, interfaces, endpoints (include/linux/usb.h).
 */
enum usb_device_speed {
	USB_SPEED_UNKNOWN = 0,
	USB_SPEED_LOW,
	USB_SPEED_FULL,
	USB_SPEED_HIGH,
};

enum usb_device_state {			/* Linux's numbering, ch9.h */
	USB_STATE_NOTATTACHED = 0,
	USB_STATE_ATTACHED,
	USB_STATE_POWERED,
	USB_STATE_RECONNECTING,
	USB_STATE_UNAUTHENTICATED,
	USB_STATE_DEFAULT,
	USB_STATE_ADDRESS,
	USB_STATE_CONFIGURED,
	USB_STATE_SUSPENDED,
};

struct sim;
struct urb;
struct usb_bus;
struct usb_driver;

/* A list head, as the kernel's (used for URB queues). */
struct list_head {
	struct list_head *next, *prev;
};

struct usb_host_endpoint {
	struct usb_endpoint_descriptor desc;
	struct list_head urb_list;	/* URBs queued, owned by the HCD glue */
	void		*hcpriv;	/* the HCD's per-endpoint state (QH) */
	int		 enabled;
};

struct usb_host_interface {
	struct usb_interface_descriptor desc;
	struct usb_host_endpoint *endpoint;	/* desc.bNumEndpoints of them */
	char		*string;		/* iInterface, or NULL */
	/* the class-specific descriptors between the interface descriptor
	 * and its first endpoint (HID, CDC functional, audio), pointing
	 * into the configuration's raw bytes, as in Linux */
	unsigned char	*extra;
	int		 extralen;
};

struct usb_interface {
	struct usb_host_interface *altsetting;	/* all alternate settings */
	unsigned	 num_altsetting;
	struct usb_host_interface *cur_altsetting;
	struct usb_driver *driver;		/* bound driver, or NULL */
	int		 minor;			/* from usb_register_dev, or -1 */
	void		*intfdata;		/* usb_set_intfdata() */
	struct usb_device *usbdev;		/* interface_to_usbdev() */
	char		 name[32];		/* "1-1:1.0" */
};

struct usb_host_config {
	struct usb_config_descriptor desc;
	char		*string;		/* iConfiguration, or NULL */
	struct usb_interface *interface[32];	/* desc.bNumInterfaces */
	uint8_t		*raw;			/* the whole descriptor */
	size_t		 rawlen;
};

#define USB_MAXCHILDREN	15

struct usb_device {
	int		 devnum;		/* address on the bus, 1..127 */
	char		 devpath[16];		/* "1", "1.2" */
	enum usb_device_state state;
	enum usb_device_speed speed;
	struct usb_bus	*bus;
	struct usb_device *parent;		/* NULL for a root hub */
	int		 portnum;		/* port on the parent hub */
	struct usb_device *children[USB_MAXCHILDREN];
	int		 maxchild;		/* ports, for hubs */
	struct usb_host_endpoint ep0;
	struct usb_host_endpoint *ep_in[16];	/* of the active altsettings */
	struct usb_host_endpoint *ep_out[16];
	struct usb_device_descriptor descriptor;
	struct usb_host_config *config;		/* descriptor.bNumConfigurations */
	struct usb_host_config *actconfig;	/* NULL = not configured */
	char		*product;		/* strings read at enumeration */
	char		*manufacturer;
	char		*serial;
	int		 refcount;		/* usb_get_dev / usb_put_dev */
	void		*hcpriv;		/* the HCD's per-device state */
	int		 toggle[2];		/* data toggles, bit per endpoint */
	/* endpoint halts seen by the host, bit per endpoint, [0] IN, [1]
	 * OUT: set by an URB given back -EPIPE, cleared by usb_clear_halt,
	 * SET_CONFIGURATION and SET_INTERFACE (2.6.0's usb_device.halted) */
	unsigned int	 halted[2];
	char		 name[16];		/* "1-1" */
};

/* ------------------------------------------------------------------------
 * Pipes, encoded as include/linux/usb.h encodes them.
 */
#define PIPE_ISOCHRONOUS	0
#define PIPE_INTERRUPT		1
#define PIPE_CONTROL		2
#define PIPE_BULK		3

#define usb_pipein(pipe)	((pipe) & USB_DIR_IN)
#define usb_pipeout(pipe)	(!usb_pipein(pipe))
#define usb_pipedevice(pipe)	(((pipe) >> 8) & 0x7f)
#define usb_pipeendpoint(pipe)	(((pipe) >> 15) & 0xf)
#define usb_pipetype(pipe)	(((pipe) >> 30) & 3)
#define usb_pipeisoc(pipe)	(usb_pipetype(pipe) == PIPE_ISOCHRONOUS)
#define usb_pipeint(pipe)	(usb_pipetype(pipe) == PIPE_INTERRUPT)
#define usb_pipecontrol(pipe)	(usb_pipetype(pipe) == PIPE_CONTROL)
#define usb_pipebulk(pipe)	(usb_pipetype(pipe) == PIPE_BULK)

static inline unsigned int
__create_pipe(const struct usb_device *dev, unsigned int endpoint)
{
	return ((unsigned int)dev->devnum << 8) | (endpoint << 15);
}

/* unsigned: 3 << 30 does not fit an int */
#define __pipe_type(t)		((unsigned int)(t) << 30)
#define usb_sndctrlpipe(dev, ep)  (__pipe_type(PIPE_CONTROL) | \
				   __create_pipe(dev, ep))
#define usb_rcvctrlpipe(dev, ep)  (__pipe_type(PIPE_CONTROL) | \
				   __create_pipe(dev, ep) | USB_DIR_IN)
#define usb_sndbulkpipe(dev, ep)  (__pipe_type(PIPE_BULK) | \
				   __create_pipe(dev, ep))
#define usb_rcvbulkpipe(dev, ep)  (__pipe_type(PIPE_BULK) | \
				   __create_pipe(dev, ep) | USB_DIR_IN)
#define usb_sndintpipe(dev, ep)   (__pipe_type(PIPE_INTERRUPT) | \
				   __create_pipe(dev, ep))
#define usb_rcvintpipe(dev, ep)   (__pipe_type(PIPE_INTERRUPT) | \
				   __create_pipe(dev, ep) | USB_DIR_IN)
#define usb_sndisocpipe(dev, ep)  (__pipe_type(PIPE_ISOCHRONOUS) | \
				   __create_pipe(dev, ep))
#define usb_rcvisocpipe(dev, ep)  (__pipe_type(PIPE_ISOCHRONOUS) | \
				   __create_pipe(dev, ep) | USB_DIR_IN)

/* The endpoint a pipe names on dev, or NULL. */
struct usb_host_endpoint *usb_pipe_endpoint(struct usb_device *dev,
		     unsigned int pipe);
/* wMaxPacketSize of the pipe's endpoint (0 if none). */
int		 usb_maxpacket(struct usb_device *dev, unsigned int pipe);

/* ------------------------------------------------------------------------
 * URBs (Documentation/driver-api/usb/URB.rst).
 */
#define URB_SHORT_NOT_OK	0x0001
#define URB_ISO_ASAP		0x0002
#define URB_NO_TRANSFER_DMA_MAP	0x0004
#define URB_ZERO_PACKET		0x0040
#define URB_NO_INTERRUPT	0x0080
#define URB_FREE_BUFFER		0x0100
#define URB_DIR_IN		0x0200

struct usb_iso_packet_descriptor {
	unsigned int	 offset;
	unsigned int	 length;
	unsigned int	 actual_length;
	int		 status;
};

typedef void (*usb_complete_t)(struct urb *);

struct urb {
	/* private to the core and the HCD */
	int		 kref;
	int		 use_count;	/* in flight */
	int		 reject;	/* being killed */
	int		 unlinked;	/* unlink status, 0 = not */
	void		*hcpriv;	/* non-NULL while queued to the HCD */
	struct list_head urb_list;	/* on ep->urb_list */
	dma_addr_t	 transfer_dma_mapped; /* bounce buffer, HCD glue */
	dma_addr_t	 setup_dma_mapped;

	/* public, as in the kernel */
	struct usb_device *dev;
	struct usb_host_endpoint *ep;
	unsigned int	 pipe;
	int		 status;
	unsigned int	 transfer_flags;
	void		*transfer_buffer;
	dma_addr_t	 transfer_dma;	/* with URB_NO_TRANSFER_DMA_MAP */
	unsigned int	 transfer_buffer_length;
	unsigned int	 actual_length;
	unsigned char	*setup_packet;
	dma_addr_t	 setup_dma;
	int		 start_frame;
	int		 number_of_packets;
	int		 interval;
	int		 error_count;
	void		*context;
	usb_complete_t	 complete;
	struct usb_anchor *anchor;	/* anchored on, or NULL */
	struct list_head anchor_list;
	struct usb_iso_packet_descriptor iso_frame_desc[];
};

/* URBs live at stable addresses: the address is the usbmon id. */
struct urb	*usb_alloc_urb(int iso_packets, gfp_t mem_flags);
void		 usb_free_urb(struct urb *urb);
struct urb	*usb_get_urb(struct urb *urb);
void		 usb_init_urb(struct urb *urb);

static inline void
usb_fill_control_urb(struct urb *urb, struct usb_device *dev,
    unsigned int pipe, unsigned char *setup_packet, void *transfer_buffer,
    int buffer_length, usb_complete_t complete_fn, void *context)
{
	urb->dev = dev;
	urb->pipe = pipe;
	urb->setup_packet = setup_packet;
	urb->transfer_buffer = transfer_buffer;
	urb->transfer_buffer_length = (unsigned int)buffer_length;
	urb->complete = complete_fn;
	urb->context = context;
}

static inline void
usb_fill_bulk_urb(struct urb *urb, struct usb_device *dev, unsigned int pipe,
    void *transfer_buffer, int buffer_length, usb_complete_t complete_fn,
    void *context)
{
	urb->dev = dev;
	urb->pipe = pipe;
	urb->transfer_buffer = transfer_buffer;
	urb->transfer_buffer_length = (unsigned int)buffer_length;
	urb->complete = complete_fn;
	urb->context = context;
}

/* As in Linux: HS interval is an exponent, 1 << (interval - 1) uframes. */
static inline void
usb_fill_int_urb(struct urb *urb, struct usb_device *dev, unsigned int pipe,
    void *transfer_buffer, int buffer_length, usb_complete_t complete_fn,
    void *context, int interval)
{
	urb->dev = dev;
	urb->pipe = pipe;
	urb->transfer_buffer = transfer_buffer;
	urb->transfer_buffer_length = (unsigned int)buffer_length;
	urb->complete = complete_fn;
	urb->context = context;
	if (dev->speed == USB_SPEED_HIGH) {
		if (interval < 1)
			interval = 1;
		if (interval > 16)
			interval = 16;
		urb->interval = 1 << (interval - 1);
	} else
		urb->interval = interval;
	urb->start_frame = -1;
}

/*
 * Submit with the checks of Linux's usb_submit_urb, in order.  Returns 0
 * (the completion handler will run exactly once) or a negative errno (it
 * will not).
 */
int		 usb_submit_urb(struct urb *urb, gfp_t mem_flags);
/* Asynchronous cancel: -EINPROGRESS, completion sees -ECONNRESET. */
int		 usb_unlink_urb(struct urb *urb);
/* Synchronous cancel: returns after the completion (-ENOENT) has run. */
void		 usb_kill_urb(struct urb *urb);

/*
 * Anchors (core/anchor.c, 2.6.23+): a driver's set of URBs to
 * kill, poison or wait for together.  Giveback takes a URB off its anchor
 * before the completion runs.
 */
struct usb_anchor {
	struct list_head urb_list;
	int		 poisoned;
};

static inline void
init_usb_anchor(struct usb_anchor *anchor)
{
	anchor->urb_list.next = anchor->urb_list.prev = &anchor->urb_list;
	anchor->poisoned = 0;
}

void		 usb_anchor_urb(struct urb *urb, struct usb_anchor *anchor);
void		 usb_unanchor_urb(struct urb *urb);
void		 usb_kill_anchored_urbs(struct usb_anchor *anchor);
void		 usb_poison_anchored_urbs(struct usb_anchor *anchor);
void		 usb_unpoison_anchored_urbs(struct usb_anchor *anchor);
void		 usb_unlink_anchored_urbs(struct usb_anchor *anchor);
void		 usb_scuttle_anchored_urbs(struct usb_anchor *anchor);
struct urb	*usb_get_from_anchor(struct usb_anchor *anchor);
int		 usb_anchor_empty(struct usb_anchor *anchor);
/* Non-zero if the anchor emptied within timeout ms (task context). */
int		 usb_wait_anchor_empty_timeout(struct usb_anchor *anchor,
		     unsigned int timeout);
/* Kill and keep refusing submissions (-EPERM) until unpoisoned. */
void		 usb_poison_urb(struct urb *urb);
void		 usb_unpoison_urb(struct urb *urb);

/* ------------------------------------------------------------------------
 * Synchronous helpers (core/message.c): task context only; they run the
 * simulated machine until the transfer ends or the timeout (ms, 0 = none)
 * passes (-ETIMEDOUT, the URB is killed).
 */
#define USB_CTRL_GET_TIMEOUT	5000
#define USB_CTRL_SET_TIMEOUT	5000

int		 usb_control_msg(struct usb_device *dev, unsigned int pipe,
		     u8 request, u8 requesttype, u16 value, u16 index,
		     void *data, u16 size, int timeout);
int		 usb_bulk_msg(struct usb_device *dev, unsigned int pipe,
		     void *data, int len, int *actual_length, int timeout);
int		 usb_interrupt_msg(struct usb_device *dev, unsigned int pipe,
		     void *data, int len, int *actual_length, int timeout);
int		 usb_get_descriptor(struct usb_device *dev, unsigned char type,
		     unsigned char index, void *buf, int size);
int		 usb_string(struct usb_device *dev, int index, char *buf,
		     size_t size);
int		 usb_clear_halt(struct usb_device *dev, unsigned int pipe);
/*
 * The first descriptor of type in buffer (size bytes of whole
 * descriptors, an interface's extra) that is minsize bytes long at least:
 * *ptr points at it and 0 is returned, or -ENOENT (Linux usb.c).
 */
int		 __usb_get_extra_descriptor(char *buffer, unsigned size,
		     unsigned char type, void **ptr, size_t minsize);
#define usb_get_extra_descriptor(ifpoint, type, ptr)			\
	__usb_get_extra_descriptor((char *)(ifpoint)->extra,		\
	    (unsigned)(ifpoint)->extralen, (type), (void **)(ptr),	\
	    sizeof(**(ptr)))
int		 usb_set_interface(struct usb_device *dev, int ifnum,
		     int alternate);

/* ------------------------------------------------------------------------
 * Reference counts and small accessors.
 */
struct usb_device *usb_get_dev(struct usb_device *dev);
void		 usb_put_dev(struct usb_device *dev);

/* ------------------------------------------------------------------------
 * Device life cycle (core/usb.c, core/hub.c), for the HCD glue and the
 * hub driver, as drivers/usb/core/hub.c exports them; drivers never call
 * these.  Task context.
 */
/* A new device behind parent's port1 (parent NULL: a root hub, port1
 * 0): state ATTACHED, devnum 0, ep0 enabled, refcount 1. */
struct usb_device *usb_alloc_dev(struct usb_device *parent,
		     struct usb_bus *bus, unsigned int port1);
/* Enumerate an addressed device: descriptors (DEVICE 18, BOS, CONFIGs,
 * strings), SET_CONFIGURATION, interfaces, hub driver.  0 or -errno. */
int		 usb_new_device(struct usb_device *udev);
/* Unplug: children first, pending URBs get -ESHUTDOWN, interfaces go,
 * the address is freed, *pdev set to NULL, the reference dropped. */
void		 usb_disconnect(struct usb_device **pdev);
void		 usb_set_device_state(struct usb_device *udev,
		     enum usb_device_state new_state);
/* Free the core's state of a machine (URB arena, ...) before sim_free;
 * every URB must have been freed. */
void		 usb_core_free(struct sim *s);


/* ------------------------------------------------------------------------
 * Drivers (core/driver.c): registration, id matching, probe/disconnect,
 * interface data (the 2.5 API of https://lwn.net/Articles/39249/).
 */
#define USB_DEVICE_ID_MATCH_VENDOR		0x0001
#define USB_DEVICE_ID_MATCH_PRODUCT		0x0002
#define USB_DEVICE_ID_MATCH_DEV_LO		0x0004
#define USB_DEVICE_ID_MATCH_DEV_HI		0x0008
#define USB_DEVICE_ID_MATCH_DEV_CLASS		0x0010
#define USB_DEVICE_ID_MATCH_DEV_SUBCLASS	0x0020
#define USB_DEVICE_ID_MATCH_DEV_PROTOCOL	0x0040
#define USB_DEVICE_ID_MATCH_INT_CLASS		0x0080
#define USB_DEVICE_ID_MATCH_INT_SUBCLASS	0x0100
#define USB_DEVICE_ID_MATCH_INT_PROTOCOL	0x0200
#define USB_DEVICE_ID_MATCH_INT_NUMBER		0x0400

#define USB_DEVICE_ID_MATCH_DEVICE					\
	(USB_DEVICE_ID_MATCH_VENDOR | USB_DEVICE_ID_MATCH_PRODUCT)
#define USB_DEVICE_ID_MATCH_DEV_RANGE					\
	(USB_DEVICE_ID_MATCH_DEV_LO | USB_DEVICE_ID_MATCH_DEV_HI)
#define USB_DEVICE_ID_MATCH_DEVICE_AND_VERSION				\
	(USB_DEVICE_ID_MATCH_DEVICE | USB_DEVICE_ID_MATCH_DEV_RANGE)
#define USB_DEVICE_ID_MATCH_DEV_INFO					\
	(USB_DEVICE_ID_MATCH_DEV_CLASS | USB_DEVICE_ID_MATCH_DEV_SUBCLASS | \
	USB_DEVICE_ID_MATCH_DEV_PROTOCOL)
#define USB_DEVICE_ID_MATCH_INT_INFO					\
	(USB_DEVICE_ID_MATCH_INT_CLASS | USB_DEVICE_ID_MATCH_INT_SUBCLASS | \
	USB_DEVICE_ID_MATCH_INT_PROTOCOL)

typedef unsigned long kernel_ulong_t;

/* linux/mod_devicetable.h field order. */
struct usb_device_id {
	u16		 match_flags;
	u16		 idVendor;
	u16		 idProduct;
	u16		 bcdDevice_lo;
	u16		 bcdDevice_hi;
	u8		 bDeviceClass;
	u8		 bDeviceSubClass;
	u8		 bDeviceProtocol;
	u8		 bInterfaceClass;
	u8		 bInterfaceSubClass;
	u8		 bInterfaceProtocol;
	u8		 bInterfaceNumber;
	kernel_ulong_t	 driver_info;
};

#define USB_DEVICE(vend, prod)						\
	.match_flags = USB_DEVICE_ID_MATCH_DEVICE,			\
	.idVendor = (vend), .idProduct = (prod)
#define USB_DEVICE_VER(vend, prod, lo, hi)				\
	.match_flags = USB_DEVICE_ID_MATCH_DEVICE_AND_VERSION,		\
	.idVendor = (vend), .idProduct = (prod),			\
	.bcdDevice_lo = (lo), .bcdDevice_hi = (hi)
#define USB_DEVICE_INFO(cl, sc, pr)					\
	.match_flags = USB_DEVICE_ID_MATCH_DEV_INFO,			\
	.bDeviceClass = (cl), .bDeviceSubClass = (sc),			\
	.bDeviceProtocol = (pr)
#define USB_INTERFACE_INFO(cl, sc, pr)					\
	.match_flags = USB_DEVICE_ID_MATCH_INT_INFO,			\
	.bInterfaceClass = (cl), .bInterfaceSubClass = (sc),		\
	.bInterfaceProtocol = (pr)
#define USB_DEVICE_AND_INTERFACE_INFO(vend, prod, cl, sc, pr)		\
	.match_flags = USB_DEVICE_ID_MATCH_INT_INFO |			\
	    USB_DEVICE_ID_MATCH_DEVICE,					\
	.idVendor = (vend), .idProduct = (prod),			\
	.bInterfaceClass = (cl), .bInterfaceSubClass = (sc),		\
	.bInterfaceProtocol = (pr)

struct module;
#define THIS_MODULE	((struct module *)0)

struct usb_driver {
	struct module	*owner;
	const char	*name;
	int		 (*probe)(struct usb_interface *intf,
			     const struct usb_device_id *id);
	void		 (*disconnect)(struct usb_interface *intf);
	int		 (*ioctl)(struct usb_interface *intf, unsigned int code,
			     void *buf);
	const struct usb_device_id *id_table;
};

/* Register: probes every unbound interface of every device.  0/-errno. */
int		 usb_register(struct usb_driver *driver);
/* Deregister: disconnects every interface it holds. */
void		 usb_deregister(struct usb_driver *driver);
/* The first entry of id's table matching intf, or NULL (usb_match_id). */
const struct usb_device_id *usb_match_id(struct usb_interface *intf,
		     const struct usb_device_id *id);
struct usb_interface *usb_find_interface(struct usb_driver *drv, int minor);
int		 usb_driver_claim_interface(struct usb_driver *driver,
		     struct usb_interface *intf, void *priv);
void		 usb_driver_release_interface(struct usb_driver *driver,
		     struct usb_interface *intf);
/* logged (DRV_SET_INTFDATA / DRV_GET_INTFDATA) and checked */
void		 usb_set_intfdata(struct usb_interface *intf, void *data);
void		*usb_get_intfdata(struct usb_interface *intf);

/* ------------------------------------------------------------------------
 * Minors and device nodes (core/file.c): usb_register_dev hands out minors
 * of USB_MAJOR; a virtual devfs/sysfs holds /dev/NAME and
 * /sys/class/usb/NAME/dev = "180:MINOR".  Two behaviour profiles:
 * 2.6.0 (full table: -EINVAL; mode honoured) and modern (-EXFULL; a second
 * registration of an interface: -EADDRINUSE).
 */
#define USB_MAJOR		180
#define MAX_USB_MINORS		256
#define MINOR(dev)		((int)((dev) & 0xff))

typedef ssize_t		ssize_t_k;	/* loff_t comes from sys/types.h */

struct inode {
	unsigned int	 i_rdev;	/* USB_MAJOR << 8 | minor */
};

struct file {
	const struct file_operations *f_op;
	void		*private_data;
	loff_t		 f_pos;
	unsigned int	 f_flags;
};

struct file_operations {
	struct module	*owner;
	int		 (*open)(struct inode *inode, struct file *file);
	int		 (*release)(struct inode *inode, struct file *file);
	ssize_t_k	 (*read)(struct file *file, char *buf, size_t count,
			     loff_t *ppos);
	ssize_t_k	 (*write)(struct file *file, const char *buf,
			     size_t count, loff_t *ppos);
	int		 (*ioctl)(struct inode *inode, struct file *file,
			     unsigned int cmd, unsigned long arg);
};

static inline unsigned int
iminor(const struct inode *inode)
{
	return MINOR(inode->i_rdev);
}

/* The article's struct usb_class_driver. */
struct usb_class_driver {
	const char	*name;		/* "usb/skel%d" */
	const struct file_operations *fops;
	unsigned int	 mode;		/* devfs permissions (2.6.0) */
	int		 minor_base;
};

int		 usb_register_dev(struct usb_interface *intf,
		     struct usb_class_driver *class_driver);
void		 usb_deregister_dev(struct usb_interface *intf,
		     struct usb_class_driver *class_driver);

/* "Kernel" copies between the driver and the (simulated) user. */
unsigned long	 copy_to_user(void *to, const void *from, unsigned long n);
unsigned long	 copy_from_user(void *to, const void *from, unsigned long n);

/* ------------------------------------------------------------------------
 * Context, locks, memory (core/ctx.c): completion handlers run in
 * interrupt context; an emulated spinlock puts its holder in atomic
 * context; sleeping or GFP_KERNEL there is a rule violation.
 */
typedef struct {
	int		 locked;
	const char	*name;
} spinlock_t;

#define SPIN_LOCK_UNLOCKED	{ 0, NULL }
void		 spin_lock_init(spinlock_t *lock);
void		 spin_lock(spinlock_t *lock);
void		 spin_unlock(spinlock_t *lock);
#define spin_lock_irqsave(lock, flags)	do { (flags) = 0; spin_lock(lock); } while (0)
#define spin_unlock_irqrestore(lock, flags) do { (void)(flags); spin_unlock(lock); } while (0)

/* kmalloc/kfree: checks mem_flags against the context. */
void		*kmalloc(size_t size, gfp_t flags);
void		*kzalloc(size_t size, gfp_t flags);
void		 kfree(const void *p);
/* DMA-able buffers (2.6.0 usb_buffer_alloc, modern usb_alloc_coherent). */
void		*usb_buffer_alloc(struct usb_device *dev, size_t size,
		     gfp_t mem_flags, dma_addr_t *dma);
void		 usb_buffer_free(struct usb_device *dev, size_t size,
		     void *addr, dma_addr_t dma);
#define usb_alloc_coherent	usb_buffer_alloc
#define usb_free_coherent	usb_buffer_free

/* dev_info/dev_err: a DRV_LOG event from the driver. */
void		 dev_printk(const char *level, struct usb_interface *intf,
		     const char *fmt, ...) __attribute__((format(printf, 3, 4)));
#define dev_info(intf, ...)	dev_printk("info", (intf), __VA_ARGS__)
#define dev_err(intf, ...)	dev_printk("err", (intf), __VA_ARGS__)
#define dev_warn(intf, ...)	dev_printk("warn", (intf), __VA_ARGS__)

static inline struct usb_device *
interface_to_usbdev(struct usb_interface *intf)
{
	return intf->usbdev;
}

/* Interrupt context?  True inside completion handlers and timers. */
int		 in_interrupt(void);

/* Sleep in task context: runs the simulated machine for ms. */
void		 msleep(unsigned int ms);

/* List helpers (kernel names). */
static inline void
INIT_LIST_HEAD(struct list_head *h)
{
	h->next = h->prev = h;
}

static inline void
list_add_tail(struct list_head *n, struct list_head *h)
{
	n->prev = h->prev;
	n->next = h;
	h->prev->next = n;
	h->prev = n;
}

static inline void
list_add(struct list_head *n, struct list_head *h)
{
	n->next = h->next;
	n->prev = h;
	h->next->prev = n;
	h->next = n;
}

static inline void
list_del_init(struct list_head *n)
{
	n->prev->next = n->next;
	n->next->prev = n->prev;
	INIT_LIST_HEAD(n);
}

static inline int
list_empty(const struct list_head *h)
{
	return h->next == h;
}

/* Move all of list onto the tail of head, leaving list empty. */
static inline void
list_splice_tail_init(struct list_head *list, struct list_head *head)
{
	if (list_empty(list))
		return;
	list->next->prev = head->prev;
	head->prev->next = list->next;
	list->prev->next = head;
	head->prev = list->prev;
	INIT_LIST_HEAD(list);
}

#define container_of(ptr, type, member)					\
	((type *)(void *)((char *)(ptr) - offsetof(type, member)))

/* ------------------------------------------------------------------------
 * Semaphores and completions (2.6.0 asm/semaphore.h, linux/completion.h;
 * core/sync.c).  One thread runs everything: down() on a held semaphore
 * and wait_for_completion() run the simulated machine until they may go
 * on; both may sleep, so they are task-context only (a rule event
 * otherwise, and they return at once).
 */
struct semaphore {
	int		 count;
};

void		 sema_init(struct semaphore *sem, int val);
#define init_MUTEX(sem)		sema_init((sem), 1)
#define init_MUTEX_LOCKED(sem)	sema_init((sem), 0)
#define DECLARE_MUTEX(name)	struct semaphore name = { 1 }
void		 down(struct semaphore *sem);
/* 0, or -EINTR when it could never be taken (nothing left to run). */
int		 down_interruptible(struct semaphore *sem);
void		 up(struct semaphore *sem);

struct completion {
	unsigned int	 done;
};

void		 init_completion(struct completion *x);
void		 complete(struct completion *x);
void		 wait_for_completion(struct completion *x);

/* atomic_t: one thread, so plain ints with the kernel's names. */
typedef struct {
	int		 counter;
} atomic_t;

#define atomic_read(v)		((v)->counter)
#define atomic_set(v, i)	((v)->counter = (i))

#endif /* CORE_USB_H */
