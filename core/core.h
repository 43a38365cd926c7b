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

/*
 * URB arena (urb.c): URBs live at fixed virtual addresses so that their
 * usbmon ids are the same run after run.  Slots come in power-of-two
 * size classes from URB_SLOT_MIN bytes; a freed slot is reused first
 * (LIFO, like a kernel slab).
 */
#define URB_ARENA_BASE	0x5e0000000000ULL
#define URB_ARENA_SIZE	(256ULL << 20)
#define URB_SLOT_MIN	256
#define URB_NCLASSES	13		/* 256 B .. 1 MiB */

struct usb_core {
	struct sim	*sim;

	/* urb.c */
	void		*arena;		/* NULL: URBs come from calloc */
	int		 arena_tried;	/* arena_map() ran */
	void		*urb_free[URB_NCLASSES];
	long		 urbs_live;	/* allocated and not yet freed */
	int		 arena_warned;
};

/* The core state of s, made on first use; NULL only when out of memory. */
struct usb_core	*usb_core_get(struct sim *s);
/* urb.c: release the arena (called by usb_core_free). */
void		 urb_arena_free(struct usb_core *c);

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
/* Reserve the next free address (round robin from bus->devnum_next,
 * spec 8.5); the device keeps devnum 0 until SET_ADDRESS.  Returns the
 * address or -ENOSPC. */
int		 usb_choose_devnum(struct usb_device *udev);
void		 usb_release_devnum(struct usb_device *udev);

/*
 * Interfaces meet drivers here.  Issue 4 adds driver registration and
 * matching; until then the only driver is the hub driver, bound to hub
 * interfaces.  usb_probe_interfaces registers the interfaces of the
 * active configuration in order (interface string, then bind);
 * usb_disconnect_interfaces unbinds them (endpoints flushed first, then
 * the driver's disconnect).
 */
void		 usb_probe_interfaces(struct usb_device *udev);
void		 usb_disconnect_interfaces(struct usb_device *udev);

/* hub.c: the hub driver. */
int		 hub_probe(struct usb_interface *intf);
void		 hub_disconnect(struct usb_interface *intf);

#endif /* CORE_CORE_H */
