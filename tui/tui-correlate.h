/*
 * tui/tui-correlate.h - what the driver events of a timeline say: which
 * driver is bound to each interface (minor, node, intfdata), why no driver
 * took an interface (each id table entry tried and the first field that
 * failed), and which URBs and node operations each driver call caused.
 * Fed by the model as items are indexed; read by the Devices and Details
 * views.  No curses here: tested by tests/unit/test-tui-correlate.c.
 *
 * Calls.  Events carry the driver and the function they happened in but
 * no call boundaries, so calls are rebuilt from the order of events, as
 * core/ emits them: probe, open, release and disconnect report their
 * result just after the driver's function returned (the event ends the
 * call); a giveback is reported just before the completion handler runs
 * (the event starts the call, which takes the driver's later events in
 * "complete"); read, write and ioctl report nothing of their own (the
 * call is the run of the driver's events in that function).  Task-context
 * calls do not nest in the simulator, completions never nest in each
 * other, and a completion may run in the middle of a task call.
 */
#ifndef TUI_CORRELATE_H
#define TUI_CORRELATE_H

#include <stddef.h>
#include <stdint.h>

#include "decode/decode.h"

struct tui_corr;

struct tui_corr	*tui_corr_new(void);
void		 tui_corr_free(struct tui_corr *c);
/*
 * Every driver event, in source order, with its index in the model's
 * item[] (tui_model_add_event calls it).  0 or -UE_NOMEM.
 */
int		 tui_corr_feed_event(struct tui_corr *c,
		     const struct drv_event *ev, uint32_t item);

/* ------------------------------------------------------------------------
 * Devices and interfaces.  Strings stay valid as long as c.
 */

/* One id table entry tried on an interface (the last try of it). */
struct tui_corr_try {
	const char	*driver;
	uint32_t	 entry;		/* index in the id table */
	int		 matched;
	const char	*why;		/* "idVendor 0x1209 != 0xfff0" */
	uint32_t	 item;		/* the DRV_MATCH event */
};

enum tui_corr_state {
	TCS_NONE,		/* no driver ever bound */
	TCS_BOUND,		/* bound at the end of the input */
	TCS_UNBOUND,		/* was bound; see why */
};

enum tui_corr_why {
	TCW_NONE,
	TCW_UNPLUG,		/* the device went away */
	TCW_DEREGISTER,		/* usb_deregister of the driver */
	TCW_DISCONNECT,		/* unbound otherwise (configuration, release) */
};

struct tui_corr_intf {
	int16_t		 intf;		/* bInterfaceNumber */
	const char	*name;		/* "1-1:1.0", or NULL */
	enum tui_corr_state state;
	const char	*driver;	/* bound, or last bound; NULL = never */
	enum tui_corr_why why;		/* TCS_UNBOUND: what ended it */
	int32_t		 minor;		/* last usb_register_dev, -1 */
	const char	*node;		/* its node, NULL */
	int		 minor_live;	/* not deregistered yet */
	uint64_t	 intfdata;	/* the last non-NULL pointer set */
	uint64_t	 intfdata_now;	/* the pointer now (0 after clear) */
	uint32_t	 bind_item;	/* the DRV_PROBE that bound, TI_NONE */
	uint32_t	 unbind_item;	/* the DRV_DISCONNECT, TI_NONE */
	int32_t		 probe_err;	/* last failed probe's result, 0 */
	const char	*probe_err_driver;
	uint32_t	 probe_err_item; /* that DRV_PROBE */
	const struct tui_corr_try *tries;
	size_t		 ntries;
	/* the driver's file operations on the interface's node: the first
	 * event of each open, read, write, ioctl and release call */
	const uint32_t	*nodeops;
	size_t		 nnodeops;
};

struct tui_corr_dev {
	uint16_t	 busnum;
	uint8_t		 devnum;
	int		 gone;		/* "USB disconnect" seen */
	const char	*speed;		/* "high", "full", ... or NULL */
	int		 has_ids;	/* vid/pid from the core's log */
	uint16_t	 vid, pid;
	uint32_t	 first_item;	/* first event about it */
	uint32_t	 gone_item;	/* the disconnect log, TI_NONE */
	const struct tui_corr_intf *intf;
	size_t		 nintf;
};

/* Devices in the order their first event came (an address used again
 * after an unplug is a new device). */
size_t		 tui_corr_ndevs(const struct tui_corr *c);
const struct tui_corr_dev *tui_corr_dev(const struct tui_corr *c,
		     size_t k);
/* The latest device at (bus, devnum), or NULL. */
const struct tui_corr_dev *tui_corr_find_dev(const struct tui_corr *c,
		     uint16_t busnum, uint8_t devnum);
/* Its interface number intf, or NULL. */
const struct tui_corr_intf *tui_corr_find_intf(const struct tui_corr_dev *d,
		     int intf);

/* ------------------------------------------------------------------------
 * Driver calls.
 */
struct tui_corr_call {
	const char	*driver;
	const char	*func;		/* "probe", "write", "complete" */
	uint32_t	 anchor;	/* the event naming the call: DRV_PROBE
					 * etc. after it, DRV_GIVEBACK before
					 * it; TI_NONE for read/write/ioctl */
	uint32_t	 first, last;	/* items of its first and last event */
	size_t		 n;		/* events in it, anchor included */
};

/*
 * The call event item happened in (or anchors).  0, or -1 when the event
 * is in no call (registration, matching, the core's own events).
 */
int		 tui_corr_call_of(const struct tui_corr *c, uint32_t item,
		     struct tui_corr_call *out);
/*
 * The items of the events of that call in order, anchor included, at
 * most max of them; returns how many the call has (may exceed max).
 */
size_t		 tui_corr_call_items(const struct tui_corr *c, uint32_t item,
		     uint32_t *out, size_t max);

#endif /* TUI_CORRELATE_H */
