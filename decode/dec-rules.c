/*
 * decode/dec-rules.c - the driver rules checked on a stream of driver
 * events alone, for events that come from outside the simulator (a real
 * kernel's USB core traced with eBPF): the simulator's rule ids and
 * wording (core/urb.c usb_submit_urb, core/driver.c's unbind, core/ctx.c),
 * from what the events say.
 *
 * What the events give, and so what the checks know:
 *  - submit: the URB (its address, the usbmon id), the device, the
 *    driver (the module of the calling function), mem_flags, the context
 *    and the return value;
 *  - giveback: the URB and its status; a submit of that URB from the
 *    same completion handler comes next, in interrupt context;
 *  - probe (with its result), disconnect (after the driver's disconnect
 *    returned: the interface's driver_data then, in ptr), usb_register_dev
 *    (the minor), usb_deregister_dev, usb_set_intfdata.
 *  - the usbmon records: an URB's C or E ends its flight; a bulk or
 *    interrupt URB's C with -EPIPE halts its endpoint (a STALL, USB 2.0
 *    8.4.5), until the host sends CLEAR_FEATURE(ENDPOINT_HALT) for it
 *    (usb_clear_halt), SET_CONFIGURATION or SET_INTERFACE (USB 2.0
 *    9.1.1.5, 9.4.10; a SET_INTERFACE clears the whole device's here).
 * A URB is the driver's whose function submitted it: "still queued when
 * disconnect returned" counts the driver's URBs on that device not given
 * back.  Linux's usb_unbind_interface flushes the endpoints before the
 * driver's disconnect unless the driver sets soft_unbind, so on a real
 * kernel these are a soft_unbind driver's URBs, or URBs submitted during
 * disconnect; nothing kills them after (the simulator's
 * usb_disable_interface does).
 *
 * Facts: Linux drivers/usb/core/urb.c (usb_submit_urb, -EBUSY for an URB
 * in flight, -ENODEV after disconnect), drivers/usb/core/driver.c
 * (usb_probe_interface, usb_unbind_interface), drivers/usb/core/file.c
 * (usb_register_dev), include/linux/gfp_types.h (__GFP_DIRECT_RECLAIM).
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decode.h"

#define RULES_TEXT	200

/* An URB submitted and not given back, or given back last with status. */
struct rule_urb {
	uint64_t	 id;
	uint16_t	 busnum;
	uint8_t		 devnum;
	uint8_t		 inflight;
	uint8_t		 reported;	/* resubmit-on-shutdown said */
	int32_t		 status;	/* of its last giveback */
	const char	*driver;	/* interned */
};

/* An endpoint halted: a STALL the host has not cleared yet. */
struct rule_halt {
	uint16_t	 busnum;
	uint8_t		 devnum;
	uint8_t		 ep;		/* its address, bit 7 = IN */
};

/* An interface a driver was bound to. */
struct rule_intf {
	uint16_t	 busnum;
	uint8_t		 devnum;
	int16_t		 intf;
	const char	*driver;	/* bound now, or NULL */
	const char	*gone;		/* whose disconnect returned, or NULL */
	int32_t		 minor;		/* registered, or -1 */
	uint64_t	 intfdata;
};

struct dec_rules {
	struct rule_urb	*urbs;
	size_t		 nurbs, curbs;
	struct rule_intf *intfs;
	size_t		 nintfs, cintfs;
	struct rule_halt *halts;
	size_t		 nhalts, chalts;
	struct dec_strs	 names;		/* the drivers' names */
	/* the texts of the rules the last call returned */
	char		 text[4][RULES_TEXT];
};

struct dec_rules *
dec_rules_new(void)
{
	return calloc(1, sizeof(struct dec_rules));
}

void
dec_rules_free(struct dec_rules *r)
{
	if (r == NULL)
		return;
	dec_strs_free(&r->names);
	free(r->urbs);
	free(r->intfs);
	free(r->halts);
	free(r);
}

/* The one copy of a driver's name (events' strings do not last). */
static const char *
intern(struct dec_rules *r, const char *s)
{
	return s != NULL ? dec_strs_add(&r->names, s, strlen(s)) : NULL;
}

static struct rule_urb *
urb_find(struct dec_rules *r, uint64_t id)
{
	size_t	 i;

	for (i = 0; i < r->nurbs; i++) {
		if (r->urbs[i].id == id)
			return &r->urbs[i];
	}
	return NULL;
}

static struct rule_urb *
urb_get(struct dec_rules *r, uint64_t id)
{
	struct rule_urb *u;

	if ((u = urb_find(r, id)) != NULL)
		return u;
	if (dec_grow(&r->urbs, r->nurbs, &r->curbs, sizeof *r->urbs) < 0)
		return NULL;
	u = &r->urbs[r->nurbs++];
	memset(u, 0, sizeof *u);
	u->id = id;
	return u;
}

static struct rule_intf *
intf_get(struct dec_rules *r, const struct drv_event *ev)
{
	struct rule_intf *in;
	size_t	 i;

	for (i = 0; i < r->nintfs; i++) {
		in = &r->intfs[i];
		if (in->busnum == ev->busnum && in->devnum == ev->devnum &&
		    in->intf == ev->intf)
			return in;
	}
	if (dec_grow(&r->intfs, r->nintfs, &r->cintfs, sizeof *r->intfs) < 0)
		return NULL;
	in = &r->intfs[r->nintfs++];
	memset(in, 0, sizeof *in);
	in->busnum = ev->busnum;
	in->devnum = ev->devnum;
	in->intf = ev->intf;
	in->minor = -1;
	return in;
}

/*
 * May these mem_flags sleep?  The events' values are the simulator's
 * (GFP_KERNEL 0xd0, GFP_NOIO 0x10, GFP_ATOMIC 0x20: core/usb.h), which a
 * real kernel's source translates its own into (capture/cap-gfp.c): 0x10
 * is 2.6's __GFP_WAIT, today's __GFP_DIRECT_RECLAIM, whatever else is
 * set (gfpflags_allow_blocking, include/linux/gfp.h).
 */
static int
gfp_may_sleep(uint32_t mem)
{
	return (mem & 0x10) != 0;
}

/* Appends a rule event like ev (its device, interface, driver). */
static void
rule(struct dec_rules *r, const struct drv_event *ev, const char *driver,
    const char *func, const char *id, struct drv_event *out, size_t max,
    size_t *n, const char *fmt, ...) __attribute__((format(printf, 9, 10)));

static void
rule(struct dec_rules *r, const struct drv_event *ev, const char *driver,
    const char *func, const char *id, struct drv_event *out, size_t max,
    size_t *n, const char *fmt, ...)
{
	struct drv_event *o;
	va_list		 ap;

	if (*n >= max || *n >= nitems(r->text))
		return;
	o = &out[*n];
	memset(o, 0, sizeof *o);
	o->ts_ns = ev->ts_ns;
	o->kind = DRV_RULE;
	o->busnum = ev->busnum;
	o->devnum = ev->devnum;
	o->intf = ev->intf;
	o->minor = -1;
	o->driver = driver;
	o->func = func;
	o->urb_id = ev->urb_id;
	o->context = ev->context;
	o->rule = id;
	va_start(ap, fmt);
	vsnprintf(r->text[*n], sizeof r->text[*n], fmt, ap);
	va_end(ap);
	o->text = r->text[*n];
	(*n)++;
}

/* The interface an event of driver d on ev's device was bound to, after
 * its disconnect returned; NULL if none. */
static const struct rule_intf *
gone_intf(const struct dec_rules *r, const struct drv_event *ev,
    const char *d)
{
	const struct rule_intf *in;
	size_t	 i;

	for (i = 0; d != NULL && i < r->nintfs; i++) {
		in = &r->intfs[i];
		if (in->busnum == ev->busnum && in->devnum == ev->devnum &&
		    in->driver == NULL && in->gone == d)
			return in;
	}
	return NULL;
}

static struct rule_halt *
halt_find(struct dec_rules *r, uint16_t busnum, uint8_t devnum, uint8_t ep)
{
	size_t	 i;

	for (i = 0; i < r->nhalts; i++) {
		if (r->halts[i].busnum == busnum &&
		    r->halts[i].devnum == devnum && r->halts[i].ep == ep)
			return &r->halts[i];
	}
	return NULL;
}

/* The halts of busnum.devnum cleared: ep's, or every one (ep 0). */
static void
halt_clear(struct dec_rules *r, uint16_t busnum, uint8_t devnum, uint8_t ep)
{
	size_t	 i = 0;

	while (i < r->nhalts) {
		if (r->halts[i].busnum == busnum &&
		    r->halts[i].devnum == devnum &&
		    (ep == 0 || r->halts[i].ep == ep))
			r->halts[i] = r->halts[--r->nhalts];
		else
			i++;
	}
}

static void
on_submit(struct dec_rules *r, const struct drv_event *ev,
    struct drv_event *out, size_t max, size_t *n)
{
	const struct rule_intf *in;
	struct rule_urb	*u;
	const char	*d = intern(r, ev->driver), *ctx, *mem;

	if (ev->context != 0 && gfp_may_sleep(ev->mem_flags)) {
		/* core/ctx.c's words for the contexts */
		ctx = ev->context == 1 ? "interrupt" : ev->context == 2 ?
		    "timer" : "atomic (spinlock held)";
		rule(r, ev, d, ev->func, "gfp-kernel-in-atomic", out, max, n,
		    "usb_submit_urb with %s in %s context, where only "
		    "GFP_ATOMIC may be used", (mem = dec_name_find(
		    dec_gfp_flags, ev->mem_flags)) != NULL ? mem :
		    "mem_flags that may sleep", ctx);
	}
	u = urb_find(r, ev->urb_id);
	if ((u != NULL && u->inflight) || ev->result == -16 /* EBUSY */)
		rule(r, ev, d, ev->func, "submit-active-urb", out, max, n,
		    "usb_submit_urb of URB 0x%" PRIx64 " while it is still "
		    "in flight", ev->urb_id);
	if ((in = gone_intf(r, ev, d)) != NULL)
		rule(r, ev, d, ev->func, "submit-after-disconnect", out, max,
		    n, "usb_submit_urb on interface %d of %u.%u after %s's "
		    "disconnect returned", in->intf, ev->busnum, ev->devnum,
		    in->gone);
	if (ev->result == 0 && (ev->ep & 0x0f) != 0 &&
	    halt_find(r, ev->busnum, ev->devnum, ev->ep) != NULL)
		rule(r, ev, d, ev->func, "halt-not-cleared", out, max, n,
		    "usb_submit_urb on endpoint 0x%02x, halted (an URB given "
		    "back -EPIPE) and not cleared by usb_clear_halt", ev->ep);
	if (u != NULL && !u->inflight && !u->reported && ev->context != 0 &&
	    (u->status == -108 || u->status == -2 || u->status == -104)) {
		/* from its completion handler: -ESHUTDOWN, -ENOENT,
		 * -ECONNRESET say stop */
		rule(r, ev, d, ev->func, "resubmit-on-shutdown", out, max, n,
		    "completion handler resubmits URB 0x%" PRIx64 " after "
		    "status %d", ev->urb_id, u->status);
		u->reported = 1;
	}
	if (ev->result != 0 || (u = urb_get(r, ev->urb_id)) == NULL)
		return;
	u->busnum = ev->busnum;
	u->devnum = ev->devnum;
	u->driver = d;
	u->inflight = 1;
}

static void
on_disconnect(struct dec_rules *r, const struct drv_event *ev,
    struct drv_event *out, size_t max, size_t *n)
{
	struct rule_intf *in;
	const char	*d = intern(r, ev->driver);
	size_t		 i;
	int		 k = 0;

	if ((in = intf_get(r, ev)) == NULL)
		return;
	if (d == NULL)
		d = in->driver;
	if (ev->ptr != 0)
		in->intfdata = ev->ptr;
	if (in->intfdata != 0)
		rule(r, ev, d, "disconnect", "intfdata-after-disconnect", out,
		    max, n, "%s %u.%u interface %d: intfdata 0x%" PRIx64
		    " still set when disconnect returned", d != NULL ? d : "?",
		    ev->busnum, ev->devnum, ev->intf, in->intfdata);
	if (in->minor >= 0)
		rule(r, ev, d, "disconnect", "minor-leak", out, max, n,
		    "%s %u.%u interface %d: minor %d still registered when "
		    "disconnect returned (no usb_deregister_dev)",
		    d != NULL ? d : "?", ev->busnum, ev->devnum, ev->intf,
		    in->minor);
	for (i = 0; d != NULL && i < r->nurbs; i++) {
		if (r->urbs[i].inflight && r->urbs[i].driver == d &&
		    r->urbs[i].busnum == ev->busnum &&
		    r->urbs[i].devnum == ev->devnum)
			k++;
	}
	if (k > 0)
		rule(r, ev, d, "disconnect", "urbs-in-flight-after-disconnect",
		    out, max, n, "%s %u.%u interface %d: %d URB%s still queued "
		    "when disconnect returned", d, ev->busnum, ev->devnum,
		    ev->intf, k, k == 1 ? "" : "s");
	in->driver = NULL;
	in->gone = d;
	in->minor = -1;
	in->intfdata = 0;
}

/*
 * A usbmon record.  An URB's C or E: no longer in flight, whether or not
 * its giveback event came (a tracer may miss one; usbmon_urb_complete
 * runs in the same __usb_hcd_giveback_urb, before the completion
 * handler, so a resubmit from it comes after).  A STALL of a bulk or
 * interrupt endpoint halts it; the S of a control request that clears
 * halts clears them (the submit's S: usb_clear_halt waits for its C
 * before it returns to the driver).
 */
void
dec_rules_record(struct dec_rules *r, const struct urb_rec *rec)
{
	struct rule_urb	*u;
	struct rule_halt *h;
	const uint8_t	*s = rec->setup;

	if (rec->type == 'C' || rec->type == 'E') {
		if ((u = urb_find(r, rec->id)) != NULL)
			u->inflight = 0;
		if (rec->type == 'C' && rec->status == -32 /* EPIPE */ &&
		    (rec->xfer_type == XFER_BULK ||
		    rec->xfer_type == XFER_INT) && (rec->epnum & 0x0f) != 0 &&
		    halt_find(r, rec->busnum, rec->devnum, rec->epnum) ==
		    NULL && dec_grow(&r->halts, r->nhalts, &r->chalts,
		    sizeof *r->halts) == 0) {
			h = &r->halts[r->nhalts++];
			h->busnum = rec->busnum;
			h->devnum = rec->devnum;
			h->ep = rec->epnum;
		}
		return;
	}
	if (rec->type != 'S' || rec->xfer_type != XFER_CTRL ||
	    rec->flag_setup != 0 || r->nhalts == 0)
		return;
	/* USB 2.0 9.4.1 CLEAR_FEATURE(ENDPOINT_HALT), 9.4.7, 9.4.10 */
	if (s[0] == 0x02 && s[1] == 1 && s[2] == 0 && s[3] == 0 &&
	    (s[4] & 0x0f) != 0)
		halt_clear(r, rec->busnum, rec->devnum, s[4] & 0x8f);
	else if ((s[0] == 0x00 && s[1] == 9) || (s[0] == 0x01 && s[1] == 11))
		halt_clear(r, rec->busnum, rec->devnum, 0);
}

size_t
dec_rules_check(struct dec_rules *r, const struct drv_event *ev,
    struct drv_event *out, size_t max)
{
	struct rule_intf *in;
	struct rule_urb	*u;
	size_t		 n = 0;

	switch (ev->kind) {
	case DRV_SUBMIT:
		on_submit(r, ev, out, max, &n);
		break;
	case DRV_GIVEBACK:
		if ((u = urb_find(r, ev->urb_id)) != NULL) {
			u->inflight = 0;
			u->status = ev->result;
		}
		break;
	case DRV_PROBE:
		if (ev->result != 0 || (in = intf_get(r, ev)) == NULL)
			break;
		in->driver = intern(r, ev->driver);
		in->gone = NULL;
		break;
	case DRV_DISCONNECT:
		on_disconnect(r, ev, out, max, &n);
		break;
	case DRV_REGISTER_DEV:
		if (ev->result == 0 && ev->minor >= 0 &&
		    (in = intf_get(r, ev)) != NULL)
			in->minor = ev->minor;
		break;
	case DRV_DEREGISTER_DEV:
		if ((in = intf_get(r, ev)) != NULL)
			in->minor = -1;
		break;
	case DRV_SET_INTFDATA:
		if ((in = intf_get(r, ev)) != NULL)
			in->intfdata = ev->ptr;
		break;
	default:
		break;
	}
	return n;
}
