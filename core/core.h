/*
 * core/core.h - private to core/: the core's state per simulated machine,
 * the per-device bookkeeping drivers do not see, and the calls between
 * urb.c, message.c, usb.c and hub.c.
 *
 * The state hangs off sim->core and is made on first use; usb_core_free()
 * (core/usb.h) releases it.  One machine runs at a time in a process: the
 * kernel API reaches it through sim_current, and its URB arena sits at a
 * fixed address (a second live machine's URBs would come from the heap).
 */
#ifndef CORE_CORE_H
#define CORE_CORE_H

#include <stddef.h>
#include <stdint.h>

#include "core/usb.h"
#include "core/sim.h"
#include "core/vfs.h"

/*
 * URB arena (urb.c): URBs live at fixed virtual addresses so that their
 * usbmon ids are the same run after run.  Slots come in power-of-two
 * size classes from URB_SLOT_MIN bytes; a freed slot is reused first
 * (LIFO, like a kernel slab).
 */
#define URB_ARENA_BASE	0x5e0000000000ULL
#define HEAP_ARENA_BASE	0x5f0000000000ULL	/* kmalloc: stable pointers */
#define URB_ARENA_SIZE	(256ULL << 20)
#define URB_SLOT_MIN	256
#define URB_NCLASSES	13		/* 256 B .. 1 MiB */

#define CORE_MAX_FRAMES	16		/* nested driver calls kept */

struct urb_info;
struct usb_minor;
struct vfs_file;

struct usb_core {
	struct sim	*sim;

	/* urb.c: two arenas of the same kind, URBs and kmalloc'ed memory,
	 * so that neither URB ids nor the pointers drivers keep (intfdata)
	 * change from run to run */
	struct core_arena {
		void		*a;	/* NULL: memory comes from calloc */
		int		 tried;	/* mapping was attempted */
		uint64_t	 base;	/* its fixed address (usb_core_get) */
	}		 arena, heap;
	long		 urbs_live;	/* allocated and not yet freed */
	int		 arena_warned;

	/* driver.c: registered drivers in registration order, configured
	 * devices in configuration order, the driver call stack */
	struct core_ptrs {
		void		**v;
		int		  n, cap;
	}		 drivers;	/* struct usb_driver * */
	struct core_ptrs devices;	/* struct usb_device * */
	struct core_frame {
		const char	*driver;
		const char	*func;
		/* a file operation's: the minor's interface (bus 0: none) */
		uint16_t	 busnum;
		uint8_t		 devnum;
		int16_t		 intf;
	}		 frames[CORE_MAX_FRAMES];
	int		 nframes;	/* may exceed CORE_MAX_FRAMES */

	/* urb.c: the drivers' URBs (owner, rule state), by address */
	struct urb_info	*urb_info[64];
	struct urb	*completing;	/* whose complete() runs now */
	int		 completing_status;

	/* file.c: the profile, minors of USB_MAJOR, open files */
	int		 profile;	/* CORE_PROFILE_* (core/vfs.h) */
	struct usb_minor *minors;	/* MAX_USB_MINORS, made on first use */
	struct vfs_file	*files;		/* VFS_MAX_FILES, made on first use */
};

/* The core state of s, made on first use; NULL only when out of memory. */
struct usb_core	*usb_core_get(struct sim *s);
/* urb.c: release the arenas (called by usb_core_free). */
void		 urb_arena_free(struct usb_core *c);
/* urb.c: zeroed memory at a stable address (kmalloc), NULL if the heap
 * arena cannot serve it; core_heap_free() returns 1 if p was its (c may
 * be NULL: memory of a machine gone stays where it is). */
void		*core_heap_alloc(struct usb_core *c, size_t size);
int		 core_heap_free(struct usb_core *c, const void *p);
/* driver.c: release the registry (called by usb_core_free). */
void		 driver_core_free(struct usb_core *c);
/* urb.c, file.c: release their parts (called by usb_core_free). */
void		 urb_info_free(struct usb_core *c);
void		 file_core_free(struct usb_core *c);

/*
 * urb.c: hcd.c's giveback calls this instead of urb->complete(urb), in
 * SIM_IRQ context: a DRV_GIVEBACK event for a driver's URB, then
 * complete() inside a core_enter_driver frame of the driver that
 * submitted it ("complete").
 */
void		 core_urb_giveback(struct urb *urb, int status);

/* file.c: the profile of the running machine (CORE_PROFILE_MODERN when
 * none runs). */
int		 core_profile(void);
/* file.c: usb.c is about to free intf (after its driver's disconnect
 * returned).  A minor it leaked (no
 * usb_deregister_dev) stays taken, as in the kernel, but no longer
 * counts as intf's. */
void		 file_intf_gone(struct usb_interface *intf);
/* urb.c: the same for drivers' URBs: submitting one of intf's later is
 * "submit-after-disconnect". */
void		 urb_intf_gone(struct usb_interface *intf);

/* ctx.c: drv_event.context values beyond enum sim_ctx: task context
 * holding an emulated spinlock. */
#define CORE_CTX_ATOMIC	3
/* The current context as drv_event.context has it. */
uint32_t	 core_ctx_now(void);
/* "GFP_KERNEL", "GFP_ATOMIC", "GFP_NOIO" or "0x..." (static storage). */
const char	*core_gfp_name(gfp_t flags);
/*
 * May an allocation with mem_flags happen now?  Anything but GFP_ATOMIC
 * may sleep, so outside task context or under an emulated spinlock it
 * reports "gfp-kernel-in-atomic" naming what (the call) and the driver
 * function, and returns 0.
 */
int		 core_check_gfp(gfp_t mem_flags, const char *what,
		     struct usb_device *udev, struct usb_interface *intf);

/*
 * An interface number's alternate settings as parsed from a configuration
 * (Linux's usb_interface_cache); the usb_interface objects themselves are
 * made at SET_CONFIGURATION.
 */
struct usb_intf_cache {
	struct usb_host_interface *altsetting;
	unsigned	 num_altsetting;
};

struct usb_config_cache {
	struct usb_intf_cache intf[32];	/* desc.bNumInterfaces of them */
};

struct usb_hub;

/* The core's view of a device; udev is what drivers see. */
struct usb_device_priv {
	struct usb_device udev;
	int		 devnum_chosen;	/* address reserved in bus->devmap */
	int		 string_langid;	/* -1: strings are unreadable */
	int		 have_langid;
	struct usb_config_cache *cache;	/* parallel to udev.config */
	int		 nconfig;	/* entries of config/cache allocated */
	uint8_t		*bos;		/* BOS descriptor, or NULL */
	size_t		 bos_len;
	struct usb_hub	*hub;		/* the hub driver's state, if bound */
};

static inline struct usb_device_priv *
usb_dev_priv(struct usb_device *udev)
{
	return container_of(udev, struct usb_device_priv, udev);
}

/* Linux's intf->condition (include/linux/usb.h). */
enum usb_interface_condition {
	USB_INTERFACE_UNBOUND = 0,
	USB_INTERFACE_BINDING,
	USB_INTERFACE_BOUND,
	USB_INTERFACE_UNBINDING,
};

/*
 * The core's view of an interface (message.c allocates it); intf comes
 * first, so free(intf) frees it.
 */
struct usb_interface_priv {
	struct usb_interface intf;
	enum usb_interface_condition condition;
	const char	*gone;		/* driver whose disconnect returned,
					 * until another binds; else NULL */
};

static inline struct usb_interface_priv *
usb_intf_priv(struct usb_interface *intf)
{
	return container_of(intf, struct usb_interface_priv, intf);
}

/* The running machine, or NULL. */
static inline struct sim *
core_sim(void)
{
	return sim_current;
}

/*
 * May the caller sleep (run the machine)?  Task context without emulated
 * spinlocks.  If not, reports a rule event naming what tried and returns
 * 0.
 */
int		 core_may_sleep(const char *what);

/*
 * Events (event.c).  core_event_init clears ev and fills the time, kind,
 * bus, device (udev, or intf's device when udev is NULL; with neither,
 * the file's of an innermost core_enter_file() frame), interface number
 * (intf's, or with no intf on the file's device, the file's),
 * execution context, and driver and function from the innermost
 * core_enter_driver() frame (NULL outside drivers); the caller adds the
 * rest and emits it with core_event_emit.
 */
void		 core_event_init(struct drv_event *ev, enum drv_kind kind,
		     struct usb_device *udev, struct usb_interface *intf);
void		 core_event_emit(const struct drv_event *ev);
/* A DRV_RULE event: rule is the short id ("minor-leak"), the text one
 * line.  driver/func NULL: those of the innermost driver frame. */
void		 core_rule(struct usb_device *udev, struct usb_interface *intf,
		     const char *driver, const char *func, const char *rule,
		     const char *fmt, ...) __attribute__((format(printf, 6, 7)));
/*
 * Calls into drivers.  The core brackets every call of a driver callback
 * (probe, disconnect, fops->open, a completion handler ...) with
 * core_enter_driver(driver name, callback name) and core_leave_driver(),
 * so events raised inside name the driver; frames nest (probe ->
 * usb_control_msg -> completion).  core_current_driver returns the depth
 * and sets *driver and *func (either pointer may be NULL) from the
 * innermost frame.
 */
void		 core_enter_driver(const char *driver, const char *func);
/* The same for a file operation on a minor of interface busnum.devnum
 * intf: events raised inside with no device of their own (a spinlock's
 * rule, a log line) are that interface's, as the call's others are. */
void		 core_enter_file(const char *driver, const char *func,
		     uint16_t busnum, uint8_t devnum, int intf);
void		 core_leave_driver(void);
int		 core_current_driver(const char **driver, const char **func);

/* A driver event of kind DRV_LOG at the current time (dmesg's lines). */
void		 core_log(struct usb_device *udev, struct usb_interface *intf,
		     const char *driver, const char *func, const char *fmt, ...)
		     __attribute__((format(printf, 5, 6)));
/* Virtual time of events, on the records' clock (epoch + now). */
int64_t		 core_now_ns(void);

/* message.c */
int		 usb_get_device_descriptor(struct usb_device *udev,
		     unsigned int size);
int		 usb_get_configuration(struct usb_device *udev);
int		 usb_get_bos_descriptor(struct usb_device *udev);
char		*usb_cache_string(struct usb_device *udev, int index);
/* SET_CONFIGURATION(configuration) with the core's bookkeeping: old
 * interfaces unbound, new ones made, strings read, interfaces probed.
 * 0 unconfigures.  0 or -errno. */
int		 usb_set_configuration(struct usb_device *udev,
		     int configuration);
int		 usb_control_msg_send(struct usb_device *dev, u8 endpoint,
		     u8 request, u8 requesttype, u16 value, u16 index,
		     const void *data, u16 size, int timeout);

/* usb.c: configuration parsing (wire bytes in, host structs out). */
int		 usb_parse_configuration(struct usb_device *udev, int cfgidx,
		     const uint8_t *buf, size_t len);
/* Endpoints and interfaces (Linux message.c helpers, in usb.c). */
void		 usb_enable_endpoint(struct usb_device *udev,
		     struct usb_host_endpoint *ep);
void		 usb_disable_endpoint(struct usb_device *udev,
		     unsigned int epaddr, int reset_hardware);
void		 usb_enable_interface(struct usb_device *udev,
		     struct usb_interface *intf);
void		 usb_disable_interface(struct usb_device *udev,
		     struct usb_interface *intf, int reset_hardware);
void		 usb_ep0_reinit(struct usb_device *udev);
/* Unconfigure: unbind and free the interfaces, flush every endpoint
 * (ep0 too unless skip_ep0). */
void		 usb_disable_device(struct usb_device *udev, int skip_ep0);
struct usb_interface *usb_ifnum_to_if(const struct usb_device *udev,
		     unsigned int ifnum);
struct usb_host_interface *usb_altnum_to_altsetting(
		     const struct usb_interface *intf, unsigned int altnum);
/* Reserve the next free address (round robin from bus->devnum_next, as
 * hub.c choose_devnum); the device keeps devnum 0 until SET_ADDRESS.
 * Returns the address or -ENOSPC. */
int		 usb_choose_devnum(struct usb_device *udev);
void		 usb_release_devnum(struct usb_device *udev);

/*
 * Interfaces meet drivers (driver.c).  usb_probe_interfaces registers the
 * interfaces of the active configuration in order (interface string,
 * then the built-in hub driver, then registered drivers in registration
 * order); usb_disconnect_interfaces unbinds them in order (disconnect(),
 * the driver-side rules, then the interface's endpoints flushed).  Task
 * context.
 */
void		 usb_probe_interfaces(struct usb_device *udev);
void		 usb_disconnect_interfaces(struct usb_device *udev);

/*
 * file.c: non-zero while intf holds a minor of USB_MAJOR (registered by
 * usb_register_dev and not yet given back).  For the driver rules
 * "probe-error-leftovers" and "minor-leak".
 */
int		 core_intf_has_minor(struct usb_interface *intf);

/* hub.c: the hub driver. */
int		 hub_probe(struct usb_interface *intf);
void		 hub_disconnect(struct usb_interface *intf);

#endif /* CORE_CORE_H */
