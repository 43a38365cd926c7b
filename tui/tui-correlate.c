/*
 * tui/tui-correlate.c - the driver events of a timeline read back as
 * bindings and calls (see the header for how calls are rebuilt).
 *
 * Everything is kept as the events arrive, so the answers are those of
 * the input read so far and a paced source needs no second pass.  Events
 * hand us transient strings: the few distinct ones (driver and function
 * names, match reasons, nodes) are kept once in a string table.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui-correlate.h"
#include "tui-model.h"

#define NO_CALL		UINT32_MAX

/* One event: its item and the call it belongs to. */
struct cev {
	uint32_t	 item;
	uint32_t	 call;
};

struct call {
	const char	*driver;
	const char	*func;
	uint32_t	 anchor;	/* item, TI_NONE */
	uint32_t	 first, last;	/* cev[] indices */
	uint32_t	 n;
	int		 closed;	/* the end event came */
};

/* What is known per driver: its running completion, its deregistration. */
struct drvstate {
	const char	*name;
	uint32_t	 complete;	/* calls[] index, NO_CALL */
	int		 deregistering;
};

struct tui_corr {
	struct dec_strs	 str;		/* the string table */

	struct cev	*cev;
	size_t		 ncev, cevcap;
	struct call	*calls;
	size_t		 ncalls, callcap;
	uint32_t	 task;		/* the task-context call running */

	struct drvstate	*drv;
	size_t		 ndrv, drvcap;

	struct tui_corr_dev *devs;
	size_t		 ndevs, devcap;
	/* devs[] index of the latest device at each address seen: a bus
	 * that re-enumerates a device for hours has many devices but at
	 * most 127 addresses */
	uint32_t	*addr;
	size_t		 naddr, addrcap;
};

/* Grow *p (n elements used, *cap allocated) to hold one more. */
static int
grow(void *pp, size_t n, size_t *cap, size_t size)
{
	void	**p = pp, *np;
	size_t	 ncap;

	if (n < *cap)
		return 0;
	ncap = *cap ? *cap * 2 : 16;
	if ((np = realloc(*p, ncap * size)) == NULL)
		return -UE_NOMEM;
	*p = np;
	*cap = ncap;
	return 0;
}

/* Arrays whose capacity is not kept: 4, then doubled at every power of
 * two. */
static int
grow_pow2(const void *cp, size_t n, size_t size, void **out)
{
	void	*np;

	*out = (void *)(uintptr_t)cp;
	if (n != 0 && (n < 4 || (n & (n - 1)) != 0))
		return 0;
	if ((np = realloc(*out, (n ? n * 2 : 4) * size)) == NULL)
		return -UE_NOMEM;
	*out = np;
	return 0;
}

/* The kept copy of s, NULL for NULL or no memory. */
static const char *
intern(struct tui_corr *c, const char *s)
{
	return s != NULL ? dec_strs_add(&c->str, s, strlen(s)) : NULL;
}

struct tui_corr *
tui_corr_new(void)
{
	struct tui_corr *c;

	if ((c = calloc(1, sizeof *c)) == NULL)
		return NULL;
	c->task = NO_CALL;
	return c;
}

void
tui_corr_free(struct tui_corr *c)
{
	size_t	 k, i;

	if (c == NULL)
		return;
	for (k = 0; k < c->ndevs; k++) {
		for (i = 0; i < c->devs[k].nintf; i++)
		{
			free((void *)(uintptr_t)c->devs[k].intf[i].tries);
			free((void *)(uintptr_t)c->devs[k].intf[i].nodeops);
		}
		free((void *)(uintptr_t)c->devs[k].intf);
	}
	dec_strs_free(&c->str);
	free(c->cev);
	free(c->calls);
	free(c->drv);
	free(c->devs);
	free(c->addr);
	free(c);
}

static struct drvstate *
drvstate(struct tui_corr *c, const char *name)
{
	size_t	 k;

	for (k = 0; k < c->ndrv; k++)
		if (c->drv[k].name == name)
			return &c->drv[k];
	if (grow(&c->drv, c->ndrv, &c->drvcap, sizeof *c->drv) != 0)
		return NULL;
	c->drv[c->ndrv] = (struct drvstate){ name, NO_CALL, 0 };
	return &c->drv[c->ndrv++];
}

/* ------------------------------------------------------------------------
 * Devices.
 */
/* The addr[] slot of (bus, dev), or naddr. */
static size_t
addr_slot(const struct tui_corr *c, uint16_t bus, uint8_t dev)
{
	size_t	 k;

	for (k = 0; k < c->naddr; k++)
		if (c->devs[c->addr[k]].busnum == bus &&
		    c->devs[c->addr[k]].devnum == dev)
			break;
	return k;
}

static struct tui_corr_dev *
dev_latest(const struct tui_corr *c, uint16_t bus, uint8_t dev)
{
	size_t	 k = addr_slot(c, bus, dev);

	return k < c->naddr ? &c->devs[c->addr[k]] : NULL;
}

/* The device at (bus, dev); a new one if none, or if fresh and the last
 * one there is gone (the address was given again). */
static struct tui_corr_dev *
dev_get(struct tui_corr *c, uint16_t bus, uint8_t dev, uint32_t item,
    int fresh)
{
	struct tui_corr_dev *d;
	size_t	 k = addr_slot(c, bus, dev);

	if (k < c->naddr && !(fresh && c->devs[c->addr[k]].gone))
		return &c->devs[c->addr[k]];
	if (k == c->naddr &&
	    grow(&c->addr, c->naddr, &c->addrcap, sizeof *c->addr) != 0)
		return NULL;
	if (grow(&c->devs, c->ndevs, &c->devcap, sizeof *c->devs) != 0)
		return NULL;
	if (k == c->naddr)
		c->naddr++;
	c->addr[k] = (uint32_t)c->ndevs;
	d = &c->devs[c->ndevs++];
	memset(d, 0, sizeof *d);
	d->busnum = bus;
	d->devnum = dev;
	d->first_item = item;
	d->gone_item = TI_NONE;
	return d;
}

static struct tui_corr_intf *
intf_get(struct tui_corr_dev *d, int intf)
{
	struct tui_corr_intf *i;
	void	*np;
	size_t	 k;

	for (k = 0; k < d->nintf; k++)
		if (d->intf[k].intf == intf)
			return (struct tui_corr_intf *)(uintptr_t)&d->intf[k];
	if (grow_pow2(d->intf, d->nintf, sizeof *d->intf, &np) != 0)
		return NULL;
	d->intf = np;
	/* kept in interface order: the Devices view lists them so */
	for (k = d->nintf; k > 0 && d->intf[k - 1].intf > intf; k--)
		;
	i = (struct tui_corr_intf *)np + k;
	memmove(i + 1, i, (d->nintf - k) * sizeof *i);
	d->nintf++;
	memset(i, 0, sizeof *i);
	i->intf = (int16_t)intf;
	i->minor = -1;
	i->bind_item = i->unbind_item = TI_NONE;
	return i;
}

const struct tui_corr_dev *
tui_corr_find_dev(const struct tui_corr *c, uint16_t busnum, uint8_t devnum)
{
	return c != NULL ? dev_latest(c, busnum, devnum) : NULL;
}

const struct tui_corr_intf *
tui_corr_find_intf(const struct tui_corr_dev *d, int intf)
{
	size_t	 k;

	for (k = 0; d != NULL && k < d->nintf; k++)
		if (d->intf[k].intf == intf)
			return &d->intf[k];
	return NULL;
}

size_t
tui_corr_ndevs(const struct tui_corr *c)
{
	return c != NULL ? c->ndevs : 0;
}

const struct tui_corr_dev *
tui_corr_dev(const struct tui_corr *c, size_t k)
{
	return c != NULL && k < c->ndevs ? &c->devs[k] : NULL;
}

/* "DRIVER NAME: ..." (the core's texts): NAME, or NULL. */
static const char *
text_intf_name(struct tui_corr *c, const char *text, const char *driver)
{
	const char *p, *e;
	size_t	 n;

	if (text == NULL || driver == NULL)
		return NULL;
	n = strlen(driver);
	if (strncmp(text, driver, n) != 0 || text[n] != ' ')
		return NULL;
	p = text + n + 1;
	if ((e = strstr(p, ": ")) == NULL || e == p || e - p > 24)
		return NULL;
	return dec_strs_add(&c->str, p, (size_t)(e - p));
}

/* A DRV_MATCH: remember the entry's last try on the interface. */
static int
match_event(struct tui_corr *c, struct tui_corr_intf *i,
    const struct drv_event *ev, const char *driver, uint32_t item)
{
	struct tui_corr_try *t = NULL;
	const char *why = ev->text, *p;
	void	*np;
	size_t	 k;

	/* "skeleton 1-2:1.0: entry 0 flags 0x0003: idVendor ..." */
	if (why != NULL && (p = strstr(why, " flags 0x")) != NULL &&
	    (p = strstr(p, ": ")) != NULL)
		why = p + 2;
	for (k = 0; k < i->ntries; k++)
		if (i->tries[k].driver == driver &&
		    i->tries[k].entry == ev->entry)
			t = (struct tui_corr_try *)(uintptr_t)&i->tries[k];
	if (t == NULL) {
		if (grow_pow2(i->tries, i->ntries, sizeof *i->tries, &np) != 0)
			return -UE_NOMEM;
		i->tries = np;
		t = (struct tui_corr_try *)np + i->ntries++;
	}
	t->driver = driver;
	t->entry = ev->entry;
	t->matched = ev->result == 0;
	t->why = intern(c, why);
	t->item = item;
	if (i->name == NULL)
		i->name = text_intf_name(c, ev->text, driver);
	return 0;
}

/* The core's log lines that tell about devices. */
static void
log_event(struct tui_corr *c, const struct drv_event *ev, uint32_t item)
{
	struct tui_corr_dev *d;
	const char *t = ev->text, *p, *q;
	unsigned int vid, pid;
	int	 n;

	if (t == NULL)
		return;
	/* hub_port_init: "usb 1-1: new high-speed USB device number 2
	 * using ehci_hcd", logged before the device has its address */
	if ((p = strstr(t, ": new ")) != NULL &&
	    (q = strstr(p, " USB device number ")) != NULL &&
	    sscanf(q + 19, "%d", &n) == 1 && n > 0 && n < 128) {
		if ((d = dev_get(c, ev->busnum, (uint8_t)n, item, 1)) ==
		    NULL)
			return;
		p += 6;
		if (q - p > 5 && strncmp(q - 6, "-speed", 6) == 0)
			q -= 6;
		d->speed = dec_strs_add(&c->str, p, (size_t)(q - p));
		return;
	}
	if ((p = strstr(t, "New USB device found, idVendor=")) != NULL &&
	    sscanf(p + 31, "%x, idProduct=%x", &vid, &pid) == 2 &&
	    ev->devnum != 0 &&
	    (d = dev_get(c, ev->busnum, ev->devnum, item, 0)) != NULL) {
		d->has_ids = 1;
		d->vid = (uint16_t)vid;
		d->pid = (uint16_t)pid;
		return;
	}
	if ((p = strstr(t, "USB disconnect, device number ")) != NULL &&
	    sscanf(p + 30, "%d", &n) == 1 && n > 0 && n < 128 &&
	    (d = dev_latest(c, ev->busnum, (uint8_t)n)) != NULL &&
	    !d->gone) {
		d->gone = 1;
		d->gone_item = item;
	}
}

/* What the event says of its device and interface. */
static int
device_event(struct tui_corr *c, const struct drv_event *ev,
    const char *driver, uint32_t item)
{
	struct tui_corr_dev *d = NULL;
	struct tui_corr_intf *i = NULL;
	struct drvstate	*ds;
	const char	*p, *e;

	if (ev->kind == DRV_LOG)
		log_event(c, ev, item);
	if ((ev->kind == DRV_REGISTER || ev->kind == DRV_DEREGISTER) &&
	    driver != NULL && (ds = drvstate(c, driver)) != NULL)
		ds->deregistering = ev->kind == DRV_DEREGISTER;
	if (ev->busnum == 0 || ev->devnum == 0)
		return 0;
	if ((d = dev_get(c, ev->busnum, ev->devnum, item, 0)) == NULL)
		return -UE_NOMEM;
	if (ev->intf < 0)
		return 0;
	if ((i = intf_get(d, ev->intf)) == NULL)
		return -UE_NOMEM;
	switch (ev->kind) {
	case DRV_MATCH:
		if (driver != NULL)
			return match_event(c, i, ev, driver, item);
		break;
	case DRV_PROBE:
		if (i->name == NULL)
			i->name = text_intf_name(c, ev->text, driver);
		if (ev->result != 0) {
			i->probe_err = ev->result;
			i->probe_err_driver = driver;
			i->probe_err_item = item;
			break;
		}
		i->state = TCS_BOUND;
		i->driver = driver;
		i->why = TCW_NONE;
		i->bind_item = item;
		i->unbind_item = TI_NONE;
		break;
	case DRV_DISCONNECT:
		if (i->state != TCS_BOUND)
			break;
		i->state = TCS_UNBOUND;
		i->unbind_item = item;
		ds = driver != NULL ? drvstate(c, driver) : NULL;
		i->why = d->gone ? TCW_UNPLUG : ds != NULL &&
		    ds->deregistering ? TCW_DEREGISTER : TCW_DISCONNECT;
		break;
	case DRV_REGISTER_DEV:
		if (ev->result != 0 || ev->minor < 0)
			break;
		i->minor = ev->minor;
		i->minor_live = 1;
		/* "... -> minor=192 node=/dev/usb/skel0 ret=0" */
		i->node = NULL;
		if (ev->text != NULL &&
		    (p = strstr(ev->text, " node=")) != NULL) {
			p += 6;
			e = p + strcspn(p, " ");
			if (e > p && !(e - p == 1 && *p == '-'))
				i->node = dec_strs_add(&c->str, p, (size_t)(e - p));
		}
		break;
	case DRV_DEREGISTER_DEV:
		i->minor_live = 0;
		break;
	case DRV_SET_INTFDATA:
		i->intfdata_now = ev->ptr;
		if (ev->ptr != 0)
			i->intfdata = ev->ptr;
		break;
	default:
		break;
	}
	return 0;
}

/* ------------------------------------------------------------------------
 * Calls.
 */

/* The event that ends a task-context call of func, or 0. */
static enum drv_kind
end_kind(const char *func)
{
	if (strcmp(func, "probe") == 0)
		return DRV_PROBE;
	if (strcmp(func, "open") == 0)
		return DRV_OPEN;
	if (strcmp(func, "release") == 0)
		return DRV_RELEASE;
	if (strcmp(func, "disconnect") == 0)
		return DRV_DISCONNECT;
	return 0;
}

static uint32_t
call_new(struct tui_corr *c, const char *driver, const char *func)
{
	struct call	*k;

	if (grow(&c->calls, c->ncalls, &c->callcap, sizeof *c->calls) != 0)
		return NO_CALL;
	k = &c->calls[c->ncalls];
	memset(k, 0, sizeof *k);
	k->driver = driver;
	k->func = func;
	k->anchor = TI_NONE;
	k->first = (uint32_t)(c->ncev - 1);
	return (uint32_t)c->ncalls++;
}

/* A call of a file operation starts: remember it on the interface. */
static int
nodeop_call(struct tui_corr *c, const struct drv_event *ev, const char *func,
    uint32_t item)
{
	static const char *const ops[] = {
		"open", "read", "write", "ioctl", "release",
	};
	struct tui_corr_dev *d;
	struct tui_corr_intf *i;
	uint32_t *op;
	void	*np;
	size_t	 k;

	for (k = 0; k < sizeof ops / sizeof ops[0]; k++)
		if (strcmp(func, ops[k]) == 0)
			break;
	if (k == sizeof ops / sizeof ops[0] || ev->busnum == 0 ||
	    ev->devnum == 0 || ev->intf < 0 ||
	    (d = dev_latest(c, ev->busnum, ev->devnum)) == NULL ||
	    (i = intf_get(d, ev->intf)) == NULL)
		return 0;
	if (grow_pow2(i->nodeops, i->nnodeops, sizeof *i->nodeops, &np) != 0)
		return -UE_NOMEM;
	i->nodeops = np;
	op = (uint32_t *)np + i->nnodeops++;
	*op = item;
	return 0;
}

/* Put the last event (cev[ncev - 1]) in a call. */
static int
call_event(struct tui_corr *c, const struct drv_event *ev,
    const char *driver, const char *func)
{
	struct cev	*e = &c->cev[c->ncev - 1];
	struct drvstate	*ds;
	struct call	*k;
	uint32_t	 n = NO_CALL;

	if (driver == NULL || func == NULL || ev->kind == DRV_MATCH ||
	    ev->kind == DRV_REGISTER || ev->kind == DRV_DEREGISTER)
		return 0;
	if ((ds = drvstate(c, driver)) == NULL)
		return -UE_NOMEM;
	if (ev->kind == DRV_GIVEBACK) {
		/* the completion handler runs after this event */
		if ((n = call_new(c, driver, intern(c, "complete"))) ==
		    NO_CALL)
			return -UE_NOMEM;
		c->calls[n].anchor = e->item;
		ds->complete = n;
	} else if (strcmp(func, "complete") == 0) {
		if ((n = ds->complete) == NO_CALL &&
		    (n = ds->complete = call_new(c, driver, func)) == NO_CALL)
			return -UE_NOMEM;
	} else {
		n = c->task;
		/* after the end event, only the core's verdicts on the call
		 * (rules, logs) still belong to it */
		if (n == NO_CALL || c->calls[n].driver != driver ||
		    c->calls[n].func != func || (c->calls[n].closed &&
		    ev->kind != DRV_RULE && ev->kind != DRV_LOG)) {
			if ((n = call_new(c, driver, func)) == NO_CALL ||
			    nodeop_call(c, ev, func, e->item) != 0)
				return -UE_NOMEM;
			c->task = n;
		}
		if (ev->kind == end_kind(func) && !c->calls[n].closed) {
			c->calls[n].anchor = e->item;
			c->calls[n].closed = 1;
		}
	}
	k = &c->calls[n];
	e->call = n;
	k->last = (uint32_t)(c->ncev - 1);
	k->n++;
	return 0;
}

int
tui_corr_feed_event(struct tui_corr *c, const struct drv_event *ev,
    uint32_t item)
{
	const char	*driver, *func;
	int		 rc;

	if (grow(&c->cev, c->ncev, &c->cevcap, sizeof *c->cev) != 0)
		return -UE_NOMEM;
	c->cev[c->ncev++] = (struct cev){ item, NO_CALL };
	driver = intern(c, ev->driver);
	func = intern(c, ev->func);
	if ((ev->driver != NULL && driver == NULL) ||
	    (ev->func != NULL && func == NULL))
		return -UE_NOMEM;
	if ((rc = device_event(c, ev, driver, item)) != 0)
		return rc;
	return call_event(c, ev, driver, func);
}

/* The cev[] index of item, or -1. */
static long
cev_find(const struct tui_corr *c, uint32_t item)
{
	size_t	 lo = 0, hi = c->ncev, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (c->cev[mid].item < item)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < c->ncev && c->cev[lo].item == item ? (long)lo : -1;
}

int
tui_corr_call_of(const struct tui_corr *c, uint32_t item,
    struct tui_corr_call *out)
{
	const struct call *k;
	long	 e;

	if (c == NULL || (e = cev_find(c, item)) < 0 ||
	    c->cev[e].call == NO_CALL)
		return -1;
	k = &c->calls[c->cev[e].call];
	out->driver = k->driver;
	out->func = k->func;
	out->anchor = k->anchor;
	out->first = c->cev[k->first].item;
	out->last = c->cev[k->last].item;
	out->n = k->n;
	return 0;
}

size_t
tui_corr_call_items(const struct tui_corr *c, uint32_t item, uint32_t *out,
    size_t max)
{
	const struct call *k;
	uint32_t n;
	size_t	 i, got = 0;
	long	 e;

	if (c == NULL || (e = cev_find(c, item)) < 0 ||
	    (n = c->cev[e].call) == NO_CALL)
		return 0;
	k = &c->calls[n];
	for (i = k->first; i <= k->last && got < k->n; i++)
		if (c->cev[i].call == n) {
			if (got < max)
				out[got] = c->cev[i].item;
			got++;
		}
	return got;
}
