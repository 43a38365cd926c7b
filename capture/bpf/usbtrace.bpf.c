// SPDX-License-Identifier: GPL-2.0
/*
 * capture/bpf/usbtrace.bpf.c - the USB core seen from inside the kernel,
 * for `urbscope capture --drivers` (capture/cap-bpf.c loads it).
 *
 * kprobes on usbcore's entry points (drivers/usb/core/urb.c:
 * usb_submit_urb, usb_kill_urb, usb_unlink_urb, usb_poison_urb;
 * driver.c: usb_register_driver, usb_deregister, usb_device_match with
 * usb_match_id's return, usb_probe_interface, usb_unbind_interface;
 * file.c: usb_register_dev, usb_deregister_dev, usb_open; message.c:
 * usb_enable_interface and
 * usb_set_interface, where an unbind's disconnect has returned) and
 * fentry/fexit on hcd.c's __usb_hcd_giveback_urb put one struct ut_record
 * per call in a ring buffer.  The giveback is a BPF trampoline, not a kprobe: it runs in
 * softirqs, often while a kprobe handler of this file is active on the
 * CPU, and the kprobe layer silently skips a kprobe hit inside another
 * (kprobe_running(), kernel/kprobes.c); a trampoline skips only a
 * recursion of its own program, which bpf_prog_info counts.  Calls whose
 * result matters (submit, unlink, probe, usb_register_dev, usb_open,
 * usb_device_match) are kept at entry in a hash map and reported by their
 * kretprobe; the time stamp is the entry's.  An unbind is kept likewise and reported when the
 * driver's disconnect has returned, stamped then (unbind_send).
 *
 * usbcore is a module in distribution kernels (CONFIG_USB=m), so its
 * types live in /sys/kernel/btf/usbcore, not in vmlinux.  The few fields
 * read are declared here with preserve_access_index: libbpf relocates
 * each access against the running kernel's vmlinux and module BTF
 * (CO-RE, https://docs.kernel.org/bpf/libbpf/program_types.html and
 * libbpf's "BPF CO-RE reference guide").
 */
#include <linux/types.h>
#include <linux/bpf.h>
#include <linux/ptrace.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>

#include "usbtrace.h"

char LICENSE[] SEC("license") = "GPL";

/* include/linux/device.h, include/linux/device/driver.h */
struct device;

struct device_driver {
	const char *name;
	int (*probe)(struct device *dev);
} __attribute__((preserve_access_index));

struct kobject {
	const char *name;
} __attribute__((preserve_access_index));

struct device {
	struct kobject kobj;
	struct device *parent;
	void *driver_data;
	struct device_driver *driver;
} __attribute__((preserve_access_index));

/* include/linux/usb.h */
struct usb_bus {
	int busnum;
} __attribute__((preserve_access_index));

struct usb_device {
	int devnum;
	struct usb_bus *bus;
	struct device dev;
} __attribute__((preserve_access_index));

/* include/uapi/linux/usb/ch9.h */
struct usb_interface_descriptor {
	__u8 bInterfaceNumber;
} __attribute__((preserve_access_index));

struct usb_host_interface {
	struct usb_interface_descriptor desc;
} __attribute__((preserve_access_index));

struct usb_interface {
	struct usb_host_interface *cur_altsetting;
	int minor;
	struct device dev;
	struct device *usb_dev;		/* the usbmisc class device */
} __attribute__((preserve_access_index));

struct usb_class_driver {
	int minor_base;
} __attribute__((preserve_access_index));

/* include/linux/mod_devicetable.h */
struct usb_device_id {
	__u16 match_flags;
	unsigned long driver_info;
} __attribute__((preserve_access_index));

/* include/linux/usb.h: 6.8 and after, and the stable kernels that took
 * that change (6.1.188, 6.6.157), embed the struct device_driver ... */
struct usb_driver {
	const char *name;
	const struct usb_device_id *id_table;
	struct device_driver driver;
} __attribute__((preserve_access_index));

/* ... older ones wrap it (struct usbdrv_wrap drvwrap): a CO-RE flavour,
 * the part after the ___ ignored when matching the kernel's types */
struct usbdrv_wrap {
	struct device_driver driver;
} __attribute__((preserve_access_index));

struct usb_driver___drvwrap {
	const struct usb_device_id *id_table;
	struct usbdrv_wrap drvwrap;
} __attribute__((preserve_access_index));

/* include/linux/fs.h, include/linux/module.h */
struct module {
	char name[56];
} __attribute__((preserve_access_index));

struct file_operations {
	struct module *owner;
} __attribute__((preserve_access_index));

struct inode {
	__u32 i_rdev;
} __attribute__((preserve_access_index));

struct file {
	const struct file_operations *f_op;
} __attribute__((preserve_access_index));

struct urb {
	struct usb_device *dev;
	unsigned int pipe;
	int unlinked;
	int status;
	unsigned int transfer_flags;
	__u32 transfer_buffer_length;
	__u32 actual_length;
	void *complete;
} __attribute__((preserve_access_index));

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 4 << 20);
} events SEC(".maps");

/* Records the ring buffer had no room for, per CPU. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} lost SEC(".maps");

/*
 * PREEMPT_RT (set by cap-bpf.c before load, from the running kernel's
 * version string): completions run in preemptible threads there
 * (softirqs and the BH workqueue are threads, kernel/softirq.c), so a
 * giveback's depth belongs to its task, not to its CPU, and a spinlock_t
 * taken with spin_lock_irqsave leaves interrupts on (it is an rtmutex,
 * kernel/locking/spinlock_rt.c).  libbpf's kconfig extern
 * (CONFIG_PREEMPT_RT __kconfig) would need /boot/config-* or
 * /proc/config.gz, which many systems lack.
 */
const volatile __u32 preempt_rt = 0;

/* __usb_hcd_giveback_urb calls in progress on this CPU. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u32);
} gb_depth SEC(".maps");

/* ... or, on PREEMPT_RT, in this thread (by thread id). */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1024);
	__type(key, __u32);
	__type(value, __u32);
} gb_task_depth SEC(".maps");

/* Calls between their kprobe and kretprobe, by pending_key(). */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 4096);
	__type(key, __u64);
	__type(value, struct ut_record);
} pending SEC(".maps");

/*
 * A scratch record per CPU (too big for the 512-byte stack) for the
 * kprobes, which never nest (bpf_prog_active) and run with preemption
 * off.  The giveback's trampoline, which can run in a softirq inside one
 * of them and is preemptible on PREEMPT_RT, writes its record straight
 * into the ring buffer instead.
 */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct ut_record);
} scratch SEC(".maps");

static __always_inline void
count_lost(void)
{
	__u32	 zero = 0;
	__u64	*n = bpf_map_lookup_elem(&lost, &zero);

	if (n != NULL)
		(*n)++;
}

/* The giveback depth's counter: this CPU's, or on PREEMPT_RT this
 * thread's (made when CREATE, at a giveback's entry). */
static __always_inline __u32 *
gb_depth_slot(int create)
{
	__u32	 zero = 0, tid;
	__u32	*d;

	if (!preempt_rt)
		return bpf_map_lookup_elem(&gb_depth, &zero);
	tid = (__u32)bpf_get_current_pid_tgid();
	d = bpf_map_lookup_elem(&gb_task_depth, &tid);
	if (d == NULL && create) {
		bpf_map_update_elem(&gb_task_depth, &tid, &zero, BPF_NOEXIST);
		d = bpf_map_lookup_elem(&gb_task_depth, &tid);
	}
	return d;
}

static __always_inline __u32
irq_depth(void)
{
	__u32	*d = gb_depth_slot(0);

	return d != NULL ? *d : 0;
}

/*
 * The key of a call in flight: the thread in task context; in a completion
 * handler (which runs with bottom halves off, so it stays on its CPU and
 * nests only by giveback depth) the CPU and depth; on PREEMPT_RT, where a
 * completion's thread can be preempted by another's on the same CPU, the
 * thread and depth (bits 40-47).  The function's kind in bits 56-59 keeps
 * nested calls of different functions apart.
 */
static __always_inline __u64
pending_key(__u32 kind)
{
	__u32	 depth = irq_depth();

	if (depth > 0 && preempt_rt)
		return (1ULL << 63) | ((__u64)kind << 56) |
		    ((__u64)(depth & 0xff) << 40) |
		    (__u32)bpf_get_current_pid_tgid();
	if (depth > 0)
		return (1ULL << 63) | ((__u64)kind << 56) |
		    ((__u64)bpf_get_smp_processor_id() << 16) | depth;
	return ((__u64)kind << 56) | bpf_get_current_pid_tgid();
}

static __always_inline void
record_init(struct ut_record *u, __u32 kind)
{
	__builtin_memset(u, 0, sizeof *u);
	u->ts_ns = bpf_ktime_get_ns();
	u->kind = kind;
	u->intf = -1;
	u->minor = -1;
	u->pid = (__u32)bpf_get_current_pid_tgid();
	u->cpu = bpf_get_smp_processor_id();
	u->context = irq_depth() > 0 ? UT_CTX_IRQ : UT_CTX_TASK;
	bpf_get_current_comm(u->comm, sizeof u->comm);
}

static __always_inline struct ut_record *
record_start(__u32 kind)
{
	__u32			 zero = 0;
	struct ut_record	*u = bpf_map_lookup_elem(&scratch, &zero);

	if (u != NULL)
		record_init(u, kind);
	return u;
}

/*
 * Records go into the ring without waking its reader: cap-bpf.c drains
 * it as it reads usbmon, never sleeping on it.  A wakeup is an irq_work,
 * raised by a self-IPI (arm64, x86's APIC) that the CPU takes as soon as
 * a kretprobe's handler runs with interrupts on; softirqs run on that
 * interrupt's exit, and a root hub's giveback, raised during the
 * usb_submit_urb just returning (rh_call_control), then hits its kprobe
 * inside this kretprobe's handler: skipped by the kprobe layer
 * (kprobe_running), on every root hub URB where the giveback is traced by
 * kprobes.
 */
#define UT_RB_FLAGS	BPF_RB_NO_WAKEUP

static __always_inline void
record_send(const struct ut_record *u)
{
	if (bpf_ringbuf_output(&events, (void *)u, sizeof *u, UT_RB_FLAGS) !=
	    0)
		count_lost();
}

static __always_inline void
record_urb(struct ut_record *u, struct urb *urb)
{
	struct usb_device	*udev = BPF_CORE_READ(urb, dev);

	u->urb = (__u64)urb;
	u->pipe = BPF_CORE_READ(urb, pipe);
	u->xfer_flags = BPF_CORE_READ(urb, transfer_flags);
	u->complete = (__u64)BPF_CORE_READ(urb, complete);
	if (udev != NULL) {
		u->devnum = (__u8)BPF_CORE_READ(udev, devnum);
		u->busnum = (__u16)BPF_CORE_READ(udev, bus, busnum);
	}
}

/*
 * A task with interrupts off (spin_lock_irqsave, local_irq_disable) is
 * atomic: the probed function's flags are in the kprobe's registers (the
 * int3 frame, or what ftrace_regs_caller saved for a kprobe on ftrace),
 * X86_EFLAGS_IF (<asm/processor-flags.h>) clear; on arm64 PSTATE's I bit
 * (PSR_I_BIT, arch/arm64/include/uapi/asm/ptrace.h) set: IRQs masked
 * (Debian's arm64 kernels do not mask by priority, pseudo-NMI off).
 * Other architectures: task or irq only.
 *
 * On PREEMPT_RT spin_lock_irqsave on a spinlock_t leaves interrupts on:
 * it takes an rtmutex and enters an RCU read-side section
 * (__rt_spin_lock in kernel/locking/spinlock_rt.c; rwlock_t and
 * local_lock_t likewise), where the task must not sleep.  So a task is
 * atomic there too when its task_struct's rcu_read_lock_nesting
 * (CONFIG_PREEMPT_RCU, which RT selects) is above the one this program
 * runs in: trace_call_bpf (kernel/trace/bpf_trace.c) holds
 * rcu_read_lock() around every kprobe program.  migration_disabled alone
 * is not used: a migrate_disable()d task may sleep.
 */
struct task_struct {
	int rcu_read_lock_nesting;
} __attribute__((preserve_access_index));

static __always_inline void
context_of(struct pt_regs *ctx, struct ut_record *u)
{
	struct task_struct	*t;

	if (u->context != UT_CTX_TASK)
		return;
#if defined(__TARGET_ARCH_x86)
	if (!(ctx->eflags & X86_EFLAGS_IF)) {
		u->context = UT_CTX_ATOMIC;
		return;
	}
#elif defined(__TARGET_ARCH_arm64)
	if (((const struct user_pt_regs *)ctx)->pstate & PSR_I_BIT) {
		u->context = UT_CTX_ATOMIC;
		return;
	}
#else
	(void)ctx;
#endif
	if (!preempt_rt ||
	    !bpf_core_field_exists(struct task_struct, rcu_read_lock_nesting))
		return;
	t = (struct task_struct *)bpf_get_current_task();
	if (BPF_CORE_READ(t, rcu_read_lock_nesting) > 1)
		u->context = UT_CTX_ATOMIC;
}

/*
 * The caller: on x86_64 the return address is at the stack pointer at
 * entry, but a kretprobe on the same function has replaced it with its
 * trampoline (arch_rethook_trampoline) when both are attached.  The
 * unwinder gives the real one back (unwind_recover_rethook in
 * arch/x86/kernel/unwind_orc.c), so the first frames of the kernel stack
 * go along and user space picks the first outside the traced function.
 * On arm64 (and the other register-link machines) the return address is
 * in the link register at entry, x30 (PT_REGS_RET).
 */
static __always_inline __u64
return_address(struct pt_regs *ctx)
{
	__u64	 ra = 0;

#if defined(__TARGET_ARCH_x86)
	bpf_probe_read_kernel(&ra, sizeof ra, (void *)PT_REGS_SP(ctx));
#else
	ra = PT_REGS_RET(ctx);
#endif
	return ra;
}

static __always_inline void
caller_of(struct pt_regs *ctx, struct ut_record *u)
{
	u->caller = return_address(ctx);
	bpf_get_stack(ctx, u->stack, sizeof u->stack, 0);
	context_of(ctx, u);
}

static __always_inline void
pending_put(__u32 kind, const struct ut_record *u)
{
	__u64	 key = pending_key(kind);

	if (bpf_map_update_elem(&pending, &key, u, BPF_ANY) != 0)
		count_lost();
}

/* The interface's driver_data (usb_get_intfdata) and minor now. */
static __always_inline void
record_intf_now(struct ut_record *u)
{
	struct usb_interface	*intf = (void *)u->intf_addr;

	if (intf == NULL)
		return;
	u->ptr = (__u64)BPF_CORE_READ(intf, dev.driver_data);
	u->minor = BPF_CORE_READ(intf, minor);
}

/* A record put aside under key, sent and forgotten. */
static __always_inline void
pending_send(__u64 key, const struct ut_record *u)
{
	record_send(u);
	bpf_map_delete_elem(&pending, &key);
}

/*
 * The return of a call whose entry put a record aside: its result, with
 * (intf_now) the interface's driver_data and minor as they are now, sent.
 */
static __always_inline void
pending_done(__u32 kind, long ret, int intf_now)
{
	__u64			 key = pending_key(kind);
	struct ut_record	*u = bpf_map_lookup_elem(&pending, &key);

	if (u == NULL)
		return;
	u->result = (__s32)ret;
	if (intf_now)
		record_intf_now(u);
	pending_send(key, u);
}

SEC("kprobe/usb_submit_urb")
int BPF_KPROBE(submit_entry, struct urb *urb, unsigned int mem_flags)
{
	struct ut_record	*u = record_start(UT_SUBMIT);

	if (u == NULL)
		return 0;
	record_urb(u, urb);
	u->length = BPF_CORE_READ(urb, transfer_buffer_length);
	u->mem_flags = mem_flags;
	caller_of(ctx, u);
	pending_put(UT_SUBMIT, u);
	return 0;
}

SEC("kretprobe/usb_submit_urb")
int BPF_KRETPROBE(submit_return, long ret)
{
	pending_done(UT_SUBMIT, ret, 0);
	return 0;
}

SEC("kprobe/usb_unlink_urb")
int BPF_KPROBE(unlink_entry, struct urb *urb)
{
	struct ut_record	*u = record_start(UT_UNLINK);

	if (u == NULL)
		return 0;
	record_urb(u, urb);
	caller_of(ctx, u);
	pending_put(UT_UNLINK, u);
	return 0;
}

SEC("kretprobe/usb_unlink_urb")
int BPF_KRETPROBE(unlink_return, long ret)
{
	pending_done(UT_UNLINK, ret, 0);
	return 0;
}

/* A call on an URB reported at entry: a kill, a poison. */
static __always_inline int
urb_call(struct pt_regs *ctx, __u32 kind, struct urb *urb)
{
	struct ut_record	*u = record_start(kind);

	if (u == NULL)
		return 0;
	record_urb(u, urb);
	caller_of(ctx, u);
	record_send(u);
	return 0;
}

SEC("kprobe/usb_kill_urb")
int BPF_KPROBE(kill_entry, struct urb *urb)
{
	return urb_call(ctx, UT_KILL, urb);
}

/*
 * drivers/usb/core/hcd.c: static void __usb_hcd_giveback_urb(struct urb
 * *urb) takes the status from urb->unlinked (-EREMOTEIO for a short
 * URB_SHORT_NOT_OK transfer), stores it in urb->status and calls
 * urb->complete(urb).
 */
#define URB_SHORT_NOT_OK	0x0001	/* include/linux/usb.h */
static __always_inline int
giveback_enter(struct urb *urb)
{
	struct ut_record	*u;
	__u32			*d;

	u = bpf_ringbuf_reserve(&events, sizeof *u, 0);
	if (u == NULL)
		count_lost();
	else {
		record_init(u, UT_GIVEBACK);
		/* Linux 6.1 gives back in the HCD's interrupt or, for HCD_BH
		 * controllers (EHCI, xHCI) and root hubs, a tasklet
		 * (usb_hcd_giveback_urb, usb_giveback_urb_bh), 6.10 and
		 * after a BH workqueue: interrupt context either way,
		 * whatever task the CPU was running (a thread of its own on
		 * PREEMPT_RT, still "irq" here: what a completion may do) */
		u->context = UT_CTX_IRQ;
		record_urb(u, urb);
		u->result = BPF_CORE_READ(urb, unlinked);
		u->length = BPF_CORE_READ(urb, actual_length);
		if ((u->xfer_flags & URB_SHORT_NOT_OK) && u->result == 0 &&
		    u->length < BPF_CORE_READ(urb, transfer_buffer_length))
			u->result = -121;	/* -EREMOTEIO */
		bpf_ringbuf_submit(u, UT_RB_FLAGS);
	}
	if ((d = gb_depth_slot(1)) != NULL)
		(*d)++;
	return 0;
}

static __always_inline int
giveback_exit(void)
{
	__u32	*d = gb_depth_slot(0);
	__u32	 tid;

	if (d == NULL || *d == 0)
		return 0;
	if (--(*d) == 0 && preempt_rt) {
		tid = (__u32)bpf_get_current_pid_tgid();
		bpf_map_delete_elem(&gb_task_depth, &tid);
	}
	return 0;
}

SEC("fentry/__usb_hcd_giveback_urb")
int BPF_PROG(giveback_entry, struct urb *urb)
{
	return giveback_enter(urb);
}

SEC("fexit/__usb_hcd_giveback_urb")
int BPF_PROG(giveback_return, struct urb *urb)
{
	return giveback_exit();
}

/*
 * The same as a kprobe and kretprobe pair, where fentry and fexit cannot
 * be attached (arm64 before 6.2 has no
 * DYNAMIC_FTRACE_WITH_DIRECT_CALLS, -ENOTSUPP): cap-bpf.c attaches these
 * then.  A kprobe hit while another kprobe's handler runs on the CPU is
 * skipped by the kprobe layer (kprobe_running, kernel/kprobes.c) and
 * counted in its nmissed, which cap-bpf.c adds to the calls missed.
 */
SEC("kprobe/__usb_hcd_giveback_urb")
int BPF_KPROBE(giveback_kprobe, struct urb *urb)
{
	return giveback_enter(urb);
}

SEC("kretprobe/__usb_hcd_giveback_urb")
int BPF_KRETPROBE(giveback_kretprobe)
{
	return giveback_exit();
}

/* The interface and driver of a struct device on the usb bus. */
static __always_inline void
record_intf(struct ut_record *u, struct device *dev)
{
	struct usb_interface	*intf;
	struct usb_device	*udev;
	struct device		*parent;
	const char		*name;

	/* to_usb_interface(): container_of(dev, struct usb_interface, dev) */
	intf = (void *)((char *)dev - bpf_core_field_offset(struct
	    usb_interface, dev));
	u->intf_addr = (__u64)intf;
	u->minor = BPF_CORE_READ(intf, minor);
	u->intf = BPF_CORE_READ(intf, cur_altsetting, desc.bInterfaceNumber);
	/* interface_to_usbdev(): the parent device */
	parent = BPF_CORE_READ(dev, parent);
	if (parent != NULL) {
		udev = (void *)((char *)parent - bpf_core_field_offset(struct
		    usb_device, dev));
		u->devnum = (__u8)BPF_CORE_READ(udev, devnum);
		u->busnum = (__u16)BPF_CORE_READ(udev, bus, busnum);
	}
	/* dev_name(): the kobject's name once the device is added */
	name = BPF_CORE_READ(dev, kobj.name);
	if (name != NULL)
		bpf_probe_read_kernel_str(u->devname, sizeof u->devname, name);
	name = BPF_CORE_READ(dev, driver, name);
	if (name != NULL)
		bpf_probe_read_kernel_str(u->driver, sizeof u->driver, name);
}

SEC("kprobe/usb_probe_interface")
int BPF_KPROBE(probe_entry, struct device *dev)
{
	struct ut_record	*u = record_start(UT_PROBE);

	if (u == NULL)
		return 0;
	record_intf(u, dev);
	caller_of(ctx, u);
	pending_put(UT_PROBE, u);
	return 0;
}

SEC("kretprobe/usb_probe_interface")
int BPF_KRETPROBE(probe_return, long ret)
{
	pending_done(UT_PROBE, ret, 1);
	return 0;
}

/*
 * usb_unbind_interface calls in progress per thread: a hub's disconnect
 * unbinds its children's interfaces inside its own, so the pending
 * records of one thread are a stack, the depth in bits 40-47 of the key.
 */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1024);
	__type(key, __u32);
	__type(value, __u32);
} unbinding SEC(".maps");

static __always_inline __u32
unbind_depth(void)
{
	__u32	 tid = (__u32)bpf_get_current_pid_tgid();
	__u32	*d = bpf_map_lookup_elem(&unbinding, &tid);

	return d != NULL ? *d : 0;
}

static __always_inline void
unbind_set_depth(__u32 depth)
{
	__u32	 tid = (__u32)bpf_get_current_pid_tgid();

	if (depth == 0)
		bpf_map_delete_elem(&unbinding, &tid);
	else
		bpf_map_update_elem(&unbinding, &tid, &depth, BPF_ANY);
}

/* An unbind runs in a task: the thread id, and the depth where
 * pending_key has the process's. */
static __always_inline __u64
unbind_key(__u32 depth)
{
	return ((__u64)UT_DISCONNECT << 56) | ((__u64)(depth & 0xff) << 40) |
	    (__u32)bpf_get_current_pid_tgid();
}

/*
 * The disconnect event, when the driver's disconnect has returned: stamped
 * then, with the interface's driver_data and minor of that moment (what
 * the driver left), before usb_unbind_interface kills the endpoints' URBs.
 */
static __always_inline void
unbind_send(__u32 depth)
{
	__u64			 key = unbind_key(depth);
	struct ut_record	*u = bpf_map_lookup_elem(&pending, &key);

	if (u == NULL)
		return;
	u->ts_ns = bpf_ktime_get_ns();
	record_intf_now(u);
	pending_send(key, u);
}

SEC("kprobe/usb_unbind_interface")
int BPF_KPROBE(unbind_entry, struct device *dev)
{
	struct ut_record	*u = record_start(UT_DISCONNECT);
	__u32			 depth = unbind_depth();
	__u64			 key = unbind_key(depth);

	if (u == NULL)
		return 0;
	record_intf(u, dev);
	caller_of(ctx, u);
	u->ptr_entry = (__u64)BPF_CORE_READ(dev, driver_data);
	if (bpf_map_update_elem(&pending, &key, u, BPF_ANY) != 0) {
		count_lost();
		return 0;
	}
	unbind_set_depth(depth + 1);
	return 0;
}

/*
 * drivers/usb/core/driver.c (6.1): usb_unbind_interface first calls
 * usb_disable_interface(udev, intf, false), which flushes the endpoints
 * (the driver's URBs still queued are given back there, before its
 * disconnect), then driver->disconnect(intf), then puts the interface
 * back in altsetting 0: usb_enable_interface(udev, intf, false) when it is
 * there already, else usb_set_interface.  The first of those called from
 * usb_unbind_interface itself (its text is unbind_lo..unbind_hi, from
 * /proc/kallsyms: a driver's disconnect may call usb_set_interface too)
 * is where the disconnect has returned; the kretprobe catches the rest.
 */
const volatile __u64 unbind_lo = 0, unbind_hi = 0;

static __always_inline int
from_unbind(struct pt_regs *ctx)
{
	__u64	 ra;

	if (unbind_hi == 0)
		return 0;
	ra = return_address(ctx);
	return ra >= unbind_lo && ra < unbind_hi;
}

SEC("kprobe/usb_enable_interface")
int BPF_KPROBE(enable_entry, void *udev, struct usb_interface *intf)
{
	__u32			 depth = unbind_depth();
	__u64			 key;
	struct ut_record	*u;

	if (depth == 0 || !from_unbind(ctx))
		return 0;
	key = unbind_key(depth - 1);
	u = bpf_map_lookup_elem(&pending, &key);
	if (u != NULL && u->intf_addr == (__u64)intf)
		unbind_send(depth - 1);
	return 0;
}

SEC("kprobe/usb_set_interface")
int BPF_KPROBE(set_interface_entry)
{
	__u32	 depth = unbind_depth();

	if (depth > 0 && from_unbind(ctx))
		unbind_send(depth - 1);
	return 0;
}

SEC("kretprobe/usb_unbind_interface")
int BPF_KRETPROBE(unbind_return, long ret)
{
	__u32	 depth = unbind_depth();

	if (depth == 0)
		return 0;
	/* unbind_lo/hi unknown, or neither call made */
	unbind_send(depth - 1);
	unbind_set_depth(depth - 1);
	return 0;
}

/* drivers/usb/core/file.c */
static __always_inline struct device *
intf_dev(struct usb_interface *intf)
{
	return (void *)((char *)intf + bpf_core_field_offset(struct
	    usb_interface, dev));
}

SEC("kprobe/usb_register_dev")
int BPF_KPROBE(register_dev_entry, struct usb_interface *intf,
    struct usb_class_driver *class_driver)
{
	struct ut_record	*u = record_start(UT_REGISTER_DEV);

	if (u == NULL)
		return 0;
	record_intf(u, intf_dev(intf));
	caller_of(ctx, u);
	u->length = (__u32)BPF_CORE_READ(class_driver, minor_base);
	pending_put(UT_REGISTER_DEV, u);
	return 0;
}

/*
 * intf->minor: the minor given, or -1; intf->usb_dev the class device
 * made for it, named from class_driver->name ("urbskel%d"), the node's
 * name under /dev.
 */
SEC("kretprobe/usb_register_dev")
int BPF_KRETPROBE(register_dev_return, long ret)
{
	__u64			 key = pending_key(UT_REGISTER_DEV);
	struct ut_record	*u = bpf_map_lookup_elem(&pending, &key);
	struct usb_interface	*intf;
	const char		*name;

	if (u == NULL)
		return 0;
	u->result = (__s32)ret;
	record_intf_now(u);
	intf = (void *)u->intf_addr;
	name = BPF_CORE_READ(intf, usb_dev, kobj.name);
	if (ret == 0 && name != NULL)
		bpf_probe_read_kernel_str(u->node, sizeof u->node, name);
	pending_send(key, u);
	return 0;
}

SEC("kprobe/usb_deregister_dev")
int BPF_KPROBE(deregister_dev_entry, struct usb_interface *intf)
{
	struct ut_record	*u = record_start(UT_DEREGISTER_DEV);

	if (u == NULL)
		return 0;
	record_intf(u, intf_dev(intf));
	caller_of(ctx, u);
	record_send(u);
	return 0;
}

/*
 * drivers/usb/core/urb.c: usb_poison_urb kills the URB and makes its
 * later submits fail; the simulator has no poison, so it is a kill
 * (DRV_KILL) whose text names it.
 */
SEC("kprobe/usb_poison_urb")
int BPF_KPROBE(poison_entry, struct urb *urb)
{
	return urb_call(ctx, UT_POISON, urb);
}

/*
 * drivers/usb/core/driver.c: usb_register_driver (usb_register) and
 * usb_deregister, at entry: the driver's matches and probes on the
 * interfaces there are (driver_attach) come inside the first, its
 * disconnects inside the second.
 */
static __always_inline int
driver_event(struct pt_regs *ctx, __u32 kind, struct usb_driver *drv)
{
	struct ut_record	*u = record_start(kind);
	const char		*name;

	if (u == NULL)
		return 0;
	name = BPF_CORE_READ(drv, name);
	if (name != NULL)
		bpf_probe_read_kernel_str(u->driver, sizeof u->driver, name);
	caller_of(ctx, u);
	record_send(u);
	return 0;
}

SEC("kprobe/usb_register_driver")
int BPF_KPROBE(register_entry, struct usb_driver *drv)
{
	return driver_event(ctx, UT_REGISTER, drv);
}

SEC("kprobe/usb_deregister")
int BPF_KPROBE(deregister_entry, struct usb_driver *drv)
{
	return driver_event(ctx, UT_DEREGISTER, drv);
}

/*
 * drivers/usb/core/driver.c: static int usb_device_match(struct device
 * *dev, struct device_driver *drv), the bus's match: 1 when drv takes
 * dev.  On an interface it tries usb_match_id(intf, id_table), then the
 * dynamic ids (new_id).  A device driver (is_usb_device_driver: its
 * probe is usb_probe_device, whose address is probe_device) never
 * matches an interface and is left out; devices are told from
 * interfaces by their names in user space.
 */
const volatile __u64 probe_device = 0;

SEC("kprobe/usb_device_match")
int BPF_KPROBE(match_entry, struct device *dev, struct device_driver *drv)
{
	struct ut_record	*u;
	struct usb_driver	*udrv;
	struct usb_driver___drvwrap *odrv;
	const char		*name;

	if (probe_device != 0 && (__u64)BPF_CORE_READ(drv, probe) ==
	    probe_device)
		return 0;
	if ((u = record_start(UT_MATCH)) == NULL)
		return 0;
	record_intf(u, dev);
	__builtin_memset(u->driver, 0, sizeof u->driver);
	name = BPF_CORE_READ(drv, name);
	if (name != NULL)
		bpf_probe_read_kernel_str(u->driver, sizeof u->driver, name);
	/* to_usb_driver(drv): the id table, in either layout */
	if (bpf_core_field_exists(struct usb_driver, driver)) {
		udrv = (void *)((char *)drv - bpf_core_field_offset(struct
		    usb_driver, driver));
		u->complete = (__u64)BPF_CORE_READ(udrv, id_table);
	} else if (bpf_core_field_exists(struct usb_driver___drvwrap,
	    drvwrap)) {
		odrv = (void *)((char *)drv - bpf_core_field_offset(struct
		    usb_driver___drvwrap, drvwrap.driver));
		u->complete = (__u64)BPF_CORE_READ(odrv, id_table);
	}
	pending_put(UT_MATCH, u);
	return 0;
}

/* The static table's entry that matched, inside usb_device_match. */
SEC("kretprobe/usb_match_id")
int BPF_KRETPROBE(match_id_return, long ret)
{
	__u64			 key = pending_key(UT_MATCH);
	__u64			 size = bpf_core_type_size(struct usb_device_id);
	struct ut_record	*u = bpf_map_lookup_elem(&pending, &key);
	struct usb_device_id	*id = (void *)ret;

	if (u == NULL || ret == 0 || u->complete == 0 || u->length != 0 ||
	    size == 0 || (__u64)ret < u->complete ||
	    (__u64)ret >= u->complete + 4096 * size)
		return 0;
	u->length = ((__u64)ret - u->complete) / size + 1;
	u->ptr = BPF_CORE_READ(id, driver_info);
	u->mem_flags = BPF_CORE_READ(id, match_flags);
	return 0;
}

SEC("kretprobe/usb_device_match")
int BPF_KRETPROBE(match_return, long ret)
{
	pending_done(UT_MATCH, ret, 0);
	return 0;
}

/*
 * drivers/usb/core/file.c: static int usb_open(struct inode *inode,
 * struct file *file), the open of every node of the USB major: it
 * replaces file->f_op with the minor's driver's and calls its open.  The
 * minor is iminor(inode) (MINORMASK: 20 bits), the driver the module
 * owning the new file operations.
 */
SEC("kprobe/usb_open")
int BPF_KPROBE(open_entry, struct inode *inode, struct file *file)
{
	struct ut_record	*u = record_start(UT_OPEN);

	if (u == NULL)
		return 0;
	u->minor = BPF_CORE_READ(inode, i_rdev) & ((1U << 20) - 1);
	u->intf_addr = (__u64)file;
	pending_put(UT_OPEN, u);
	return 0;
}

SEC("kretprobe/usb_open")
int BPF_KRETPROBE(open_return, long ret)
{
	__u64			 key = pending_key(UT_OPEN);
	struct ut_record	*u = bpf_map_lookup_elem(&pending, &key);
	struct file		*file;
	struct module		*mod;

	if (u == NULL)
		return 0;
	u->result = (__s32)ret;
	file = (void *)u->intf_addr;
	u->intf_addr = 0;
	mod = BPF_CORE_READ(file, f_op, owner);
	if (mod != NULL)
		bpf_probe_read_kernel_str(u->driver, sizeof u->driver,
		    (char *)mod + bpf_core_field_offset(struct module, name));
	pending_send(key, u);
	return 0;
}
