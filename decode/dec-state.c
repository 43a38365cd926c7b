/*
 * decode/dec-state.c - analysis across records: submit/complete pairing
 * and per-device state learnt from the capture.
 *
 * Pairing: a submit is keyed by (bus, URB id; the id is the kernel's URB
 * address, Documentation/usb/usbmon.rst) until the next completion or
 * error event with the same key ends it; ids are reused as soon as a URB
 * completes (drivers resubmit from the completion handler), completions
 * at the start of a capture have no submit, submits at its end have no
 * completion.
 *
 * Device state follows what Wireshark does (epan/dissectors/packet-usb.c,
 * try_dissect_next_protocol) and what Linux does on the wire (hub.c
 * hub_port_init: device 0 until SET_ADDRESS): GET_DESCRIPTOR answers
 * teach the device and configuration descriptors, SET_CONFIGURATION and
 * SET_INTERFACE choose what is active, a successful SET_ADDRESS (sent to
 * device 0) or a device descriptor that changes starts a new device under
 * that number, and leaves device 0 empty until the next device answers
 * there.  The port a hub reset last before a SET_ADDRESS is where that
 * device is plugged in (hub.c hub_port_init): the topology, when the
 * capture has the hubs' requests (usbmon has the root hub's too).
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "class.h"

/* A submit waiting for its completion. */
struct pending {
	uint64_t	 id;
	uint64_t	 recno;
	uint64_t	 frame;
	int64_t		 ts_ns;
	uint32_t	 len;		/* its len_urb */
	uint16_t	 busnum;
	uint8_t		 used;
	uint8_t		 has_setup;
	uint8_t		 setup[8];
};

struct dec_bus {
	uint16_t	 busnum;
	struct dec_dev	*dev[256];
	/* the port reset last (a hub's SET_FEATURE PORT_RESET) and its
	 * hub, for the SET_ADDRESS that follows it; port 0 = none */
	uint8_t		 reset_hub, reset_port;
};

#define HUB_PORT_RESET	4	/* USB 2.0 table 11-17: PORT_RESET */

/* One --decode-as. */
struct decode_as {
	uint8_t		 by_id;		/* VID:PID, else BUS.DEV */
	uint16_t	 a;		/* bus or idVendor */
	uint16_t	 b;		/* device or idProduct */
	int16_t		 intf;		/* -1: every interface */
	uint8_t		 c[3];		/* class, subclass, protocol */
};

#define DEC_MAX_DECODE_AS	16

struct dec_ctx {
	struct decode_as das[DEC_MAX_DECODE_AS];
	size_t		 ndas;
	struct pending	*pend;		/* open addressing, linear probing */
	size_t		 pend_cap;	/* power of two */
	size_t		 pend_n;
	struct dec_bus	**bus;		/* in order of appearance: few */
	size_t		 nbus;
	size_t		 last;		/* the bus found last */
};

static uint64_t
pend_hash(uint64_t id, uint16_t busnum)
{
	uint64_t	 x = id ^ ((uint64_t)busnum << 48);

	/* splitmix64 finaliser */
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ULL;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebULL;
	x ^= x >> 31;
	return x;
}

struct dec_ctx *
dec_ctx_new(void)
{
	struct dec_ctx	*ctx;

	if ((ctx = calloc(1, sizeof *ctx)) == NULL)
		return NULL;
	ctx->pend_cap = 64;	/* grows by doubling at half full */
	if ((ctx->pend = calloc(ctx->pend_cap, sizeof *ctx->pend)) == NULL) {
		free(ctx);
		return NULL;
	}
	return ctx;
}

static void
dev_free(struct dec_dev *d)
{
	size_t	 i;

	if (d == NULL)
		return;
	for (i = 0; i < DEC_MAX_CONFIGS; i++)
		free(d->cfg[i]);
	for (i = 0; i < DEC_MAX_INTFS; i++)
		dec_cls_state_free(&d->cls[i]);
	free(d);
}

void
dec_ctx_free(struct dec_ctx *ctx)
{
	size_t	 b, d;

	if (ctx == NULL)
		return;
	for (b = 0; b < ctx->nbus; b++) {
		for (d = 0; d < 256; d++)
			dev_free(ctx->bus[b]->dev[d]);
		free(ctx->bus[b]);
	}
	free(ctx->bus);
	free(ctx->pend);
	free(ctx);
}

/* Slot of (id, bus), or the empty slot where it would go. */
static size_t
pend_slot(const struct dec_ctx *ctx, uint64_t id, uint16_t busnum)
{
	size_t	 mask = ctx->pend_cap - 1;
	size_t	 i = (size_t)pend_hash(id, busnum) & mask;

	while (ctx->pend[i].used &&
	    (ctx->pend[i].id != id || ctx->pend[i].busnum != busnum))
		i = (i + 1) & mask;
	return i;
}

/* The open submit of (id, bus), or NULL. */
static struct pending *
pend_find(const struct dec_ctx *ctx, uint64_t id, uint16_t busnum)
{
	size_t	 i = pend_slot(ctx, id, busnum);

	return ctx->pend[i].used ? &ctx->pend[i] : NULL;
}

struct dec_ctx *
dec_ctx_clone(const struct dec_ctx *ctx)
{
	struct dec_ctx	*c;
	struct dec_dev	*d;
	const struct dec_dev *od;
	size_t		 b, k, i;

	if ((c = calloc(1, sizeof *c)) == NULL)
		return NULL;
	memcpy(c->das, ctx->das, sizeof c->das);
	c->ndas = ctx->ndas;
	/* the open submits, in a table sized to them */
	for (c->pend_cap = 16; c->pend_cap < 2 * (ctx->pend_n + 1);)
		c->pend_cap *= 2;
	if ((c->pend = calloc(c->pend_cap, sizeof *c->pend)) == NULL)
		goto fail;
	for (i = 0; i < ctx->pend_cap; i++)
		if (ctx->pend[i].used) {
			c->pend[pend_slot(c, ctx->pend[i].id,
			    ctx->pend[i].busnum)] = ctx->pend[i];
			c->pend_n++;
		}
	if (ctx->nbus > 0 &&
	    (c->bus = calloc(ctx->nbus, sizeof *c->bus)) == NULL)
		goto fail;
	for (b = 0; b < ctx->nbus; b++) {
		if ((c->bus[b] = calloc(1, sizeof *c->bus[b])) == NULL)
			goto fail;
		c->nbus = b + 1;
		c->bus[b]->busnum = ctx->bus[b]->busnum;
		for (k = 0; k < 256; k++) {
			if ((od = ctx->bus[b]->dev[k]) == NULL)
				continue;
			if ((d = malloc(sizeof *d)) == NULL)
				goto fail;
			*d = *od;
			c->bus[b]->dev[k] = d;
			for (i = 0; i < DEC_MAX_CONFIGS; i++)
				d->cfg[i] = NULL;
			for (i = 0; i < DEC_MAX_INTFS; i++)
				dec_cls_state_copy(&d->cls[i], &od->cls[i]);
			for (i = 0; i < DEC_MAX_CONFIGS; i++) {
				if (od->cfg[i] == NULL)
					continue;
				if ((d->cfg[i] = malloc(od->cfg_len[i])) ==
				    NULL)
					goto fail;
				memcpy(d->cfg[i], od->cfg[i], od->cfg_len[i]);
			}
		}
	}
	return c;
fail:
	dec_ctx_free(c);
	return NULL;
}

static int
pend_grow(struct dec_ctx *ctx)
{
	struct pending	*old = ctx->pend;
	size_t		 oldcap = ctx->pend_cap, i;

	ctx->pend = calloc(oldcap * 2, sizeof *ctx->pend);
	if (ctx->pend == NULL) {
		ctx->pend = old;
		return -UE_NOMEM;
	}
	ctx->pend_cap = oldcap * 2;
	for (i = 0; i < oldcap; i++) {
		if (old[i].used)
			ctx->pend[pend_slot(ctx, old[i].id, old[i].busnum)] =
			    old[i];
	}
	free(old);
	return 0;
}

/* Remove slot i, shifting the probe chain back (no tombstones). */
static void
pend_remove(struct dec_ctx *ctx, size_t i)
{
	size_t	 mask = ctx->pend_cap - 1, j = i, k;

	ctx->pend[i].used = 0;
	for (;;) {
		j = (j + 1) & mask;
		if (!ctx->pend[j].used)
			break;
		k = (size_t)pend_hash(ctx->pend[j].id, ctx->pend[j].busnum) &
		    mask;
		/* Leave j where it is if its home lies cyclically in (i, j]. */
		if (i <= j ? (i < k && k <= j) : (i < k || k <= j))
			continue;
		ctx->pend[i] = ctx->pend[j];
		ctx->pend[j].used = 0;
		i = j;
	}
	ctx->pend_n--;
}

size_t
dec_ctx_pending(const struct dec_ctx *ctx, uint64_t *frames, size_t max)
{
	size_t	 i, n = 0, k;
	uint64_t v;

	/* Keep the max lowest frame numbers, by insertion. */
	for (i = 0; i < ctx->pend_cap; i++) {
		if (!ctx->pend[i].used)
			continue;
		v = ctx->pend[i].frame;
		if (n < max)
			frames[n++] = v;
		else if (max > 0 && v < frames[max - 1])
			frames[max - 1] = v;
		else
			continue;
		for (k = (n < max ? n : max) - 1; k > 0 &&
		    frames[k] < frames[k - 1]; k--) {
			v = frames[k];
			frames[k] = frames[k - 1];
			frames[k - 1] = v;
		}
	}
	return ctx->pend_n;
}

static struct dec_bus *
bus_find(struct dec_ctx *ctx, uint16_t busnum)
{
	size_t	 n;

	for (n = 0; n < ctx->nbus; n++)
		if (ctx->bus[n]->busnum == busnum)
			return ctx->bus[n];
	return NULL;
}

static struct dec_dev *
dev_get(struct dec_ctx *ctx, uint16_t busnum, uint8_t devnum, int create)
{
	struct dec_bus	**nb, *bus;
	struct dec_dev	*d;
	size_t		 n;

	/* a capture holds a few buses, numbered anywhere in 0..65535 */
	if (ctx->last < ctx->nbus && ctx->bus[ctx->last]->busnum == busnum)
		bus = ctx->bus[ctx->last];
	else {
		for (n = 0; n < ctx->nbus; n++)
			if (ctx->bus[n]->busnum == busnum)
				break;
		if (n == ctx->nbus) {
			if (!create)
				return NULL;
			if ((nb = reallocarray(ctx->bus, n + 1,
			    sizeof *nb)) == NULL)
				return NULL;
			ctx->bus = nb;
			if ((nb[n] = calloc(1, sizeof *nb[n])) == NULL)
				return NULL;
			nb[n]->busnum = busnum;
			ctx->nbus = n + 1;
		}
		ctx->last = n;
		bus = ctx->bus[n];
	}
	d = bus->dev[devnum];
	if (d == NULL && create) {
		if ((d = calloc(1, sizeof *d)) == NULL)
			return NULL;
		d->busnum = busnum;
		d->devnum = devnum;
		for (n = 0; n < 32; n++)
			d->ep[n].intf = -1;
		bus->dev[devnum] = d;
	}
	return d;
}

const struct dec_dev *
dec_ctx_device(const struct dec_ctx *ctx, uint16_t busnum, uint8_t devnum)
{
	return dev_get((struct dec_ctx *)ctx, busnum, devnum, 0);
}

/* Forget everything about a device: a new one took its number. */
static void
dev_reset(struct dec_dev *d, uint64_t recno)
{
	uint32_t gen = d->generation + 1;
	uint16_t busnum = d->busnum;
	uint8_t	 devnum = d->devnum;
	size_t	 i;

	for (i = 0; i < DEC_MAX_CONFIGS; i++)
		free(d->cfg[i]);
	for (i = 0; i < DEC_MAX_INTFS; i++)
		dec_cls_state_free(&d->cls[i]);
	memset(d, 0, sizeof *d);
	d->busnum = busnum;
	d->devnum = devnum;
	d->generation = gen;
	d->since = recno;
	for (i = 0; i < 32; i++)
		d->ep[i].intf = -1;
}

static int
ep_index(uint8_t epaddr)
{
	return (epaddr & 0x0f) | ((epaddr & 0x80) ? 16 : 0);
}

/* The configuration descriptor that is (or is assumed) active. */
static const uint8_t *
dev_active_cfg(const struct dec_dev *d, size_t *len)
{
	size_t	 i;

	for (i = 0; i < DEC_MAX_CONFIGS; i++) {
		if (d->cfg[i] == NULL || d->cfg_len[i] < USB_DT_CONFIG_SIZE)
			continue;
		/* Before any SET_CONFIGURATION, assume the first one. */
		if (!d->config_seen || d->cfg[i][5] == d->config) {
			*len = d->cfg_len[i];
			return d->cfg[i];
		}
	}
	return NULL;
}

/*
 * Rebuild the endpoint map from the active configuration: endpoints of the
 * selected alternate settings, and, where an endpoint only appears in
 * another alternate setting, the first one that has it.  A capture may cut
 * the last descriptor (usbmon text keeps 32 bytes): what is there is used,
 * as Wireshark does.
 */
static void
dev_map_endpoints(struct dec_dev *d)
{
	const uint8_t	*p;
	struct dec_dref	 r;
	size_t		 len, off, pass;
	int		 intf, alt, sel, cls, sub, proto;
	struct dec_ep	*e;

	for (off = 0; off < 32; off++)
		d->ep[off].intf = -1;
	if ((p = dev_active_cfg(d, &len)) == NULL)
		return;
	for (pass = 0; pass < 2; pass++) {
		intf = -1;
		alt = sel = cls = sub = proto = 0;
		for (off = 0; dec_desc_next(p, len, &off, &r);) {
			if (r.type == USB_DT_INTERFACE &&
			    r.bLength >= USB_DT_INTERFACE_SIZE && r.len >= 8) {
				intf = r.p[2];
				alt = r.p[3];
				cls = r.p[5];
				sub = r.p[6];
				proto = r.p[7];
				if (cls == 0 && d->has_ddesc) {
					/* Wireshark: 0 = the device's class */
					cls = d->ddesc[4];
					sub = d->ddesc[5];
					proto = d->ddesc[6];
				}
				sel = intf < DEC_MAX_INTFS ?
				    d->alt[intf] == alt : alt == 0;
				continue;
			}
			if (r.type != USB_DT_ENDPOINT ||
			    r.bLength < USB_DT_ENDPOINT_SIZE || intf < 0 ||
			    r.len < 3)
				continue;
			e = &d->ep[ep_index(r.p[2])];
			if (pass == 0 ? e->intf != -1 : !sel)
				continue;
			e->intf = (int16_t)intf;
			e->alt = (uint8_t)alt;
			e->cls = (uint8_t)cls;
			e->subcls = (uint8_t)sub;
			e->proto = (uint8_t)proto;
			e->attr = r.len >= 4 ? r.p[3] : 0;
			e->mps = r.len >= 6 ? get_le16(r.p + 4) : 0;
		}
	}
}

/* Class of interface number intf in the active configuration, or -1. */
static int
dev_intf_class(const struct dec_dev *d, int intf, uint8_t out[3])
{
	const uint8_t	*p;
	struct dec_dref	 r;
	size_t		 len, off;

	if ((p = dev_active_cfg(d, &len)) == NULL)
		return -1;
	for (off = 0; dec_desc_next(p, len, &off, &r);) {
		if (r.type != USB_DT_INTERFACE ||
		    r.len < USB_DT_INTERFACE_SIZE || r.p[2] != intf)
			continue;
		out[0] = r.p[5];
		out[1] = r.p[6];
		out[2] = r.p[7];
		if (out[0] == 0 && d->has_ddesc)
			memcpy(out, d->ddesc + 4, 3);
		return 0;
	}
	return -1;
}

/*
 * Device d's first device descriptor, at its address: on xHCI the
 * controller addresses the device (Address Device, no SET_ADDRESS in
 * usbmon) after hub_port_init's read of it at the default address
 * (drivers/usb/core/hub.c), so the device there with the same descriptor
 * has taken d's address, on the port reset last.
 */
static void
took_address(struct dec_ctx *ctx, struct dec_dev *d, const struct urb_rec *r)
{
	struct dec_dev	*z;
	struct dec_bus	*b;

	if ((z = dev_get(ctx, d->busnum, 0, 0)) == NULL || z->addressed ||
	    !z->has_ddesc || memcmp(z->ddesc, r->data, 18) != 0)
		return;
	dev_reset(z, r->recno);
	z->addressed = 1;
	if ((b = bus_find(ctx, d->busnum)) != NULL && b->reset_port != 0 &&
	    b->reset_hub != d->devnum) {
		d->parent = b->reset_hub;
		d->port = b->reset_port;
		b->reset_port = 0;
	}
}

/* Learn from a successful control transfer's completion. */
static void
learn_control(struct dec_ctx *ctx, struct dec_dev *d,
    const struct urb_rec *r, const struct dec_setup *s)
{
	struct dec_bus	*b;
	struct dec_dev	*nd;
	uint8_t		*copy;
	size_t		 idx, n;

	/* Linux resets a port, then addresses the device on it (hub.c
	 * hub_port_init, one port of a bus at a time): the topology. */
	if (SETUP_TYPE(s) == 1 && SETUP_RECIP(s) == 3 &&
	    s->bRequest == USB_REQ_SET_FEATURE &&
	    s->wValue == HUB_PORT_RESET) {
		if ((b = bus_find(ctx, d->busnum)) != NULL) {
			b->reset_hub = d->devnum;
			b->reset_port = (uint8_t)s->wIndex;
		}
		return;
	}
	if (SETUP_TYPE(s) != 0)
		return;
	switch (s->bRequest) {
	case USB_REQ_GET_DESCRIPTOR:
		if (!SETUP_DIR_IN(s) || SETUP_RECIP(s) != 0)
			return;
		if (s->wValue >> 8 == USB_DT_DEVICE && r->data_len >= 18 &&
		    r->data[1] == USB_DT_DEVICE) {
			if (d->has_ddesc && memcmp(d->ddesc, r->data, 18) != 0)
				dev_reset(d, r->recno);
			if (d->devnum != 0 && !d->has_ddesc)
				took_address(ctx, d, r);
			memcpy(d->ddesc, r->data, 18);
			d->has_ddesc = 1;
			return;
		}
		if ((s->wValue >> 8) != USB_DT_CONFIG ||
		    r->data_len < USB_DT_CONFIG_SIZE ||
		    r->data[1] != USB_DT_CONFIG)
			return;
		/*
		 * Keep what the answer holds up to wTotalLength, and only
		 * a longer copy than the one kept (the 9-byte first read,
		 * then the whole); a wTotalLength that cannot even hold
		 * the configuration descriptor is no configuration.
		 */
		idx = s->wValue & 0xff;
		n = r->data_len;
		if (n > get_le16(r->data + 2))
			n = get_le16(r->data + 2);
		if (idx >= DEC_MAX_CONFIGS || n < USB_DT_CONFIG_SIZE ||
		    n <= d->cfg_len[idx] || (copy = malloc(n)) == NULL)
			return;
		memcpy(copy, r->data, n);
		free(d->cfg[idx]);
		d->cfg[idx] = copy;
		d->cfg_len[idx] = (uint16_t)n;
		dev_map_endpoints(d);
		return;
	case USB_REQ_SET_CONFIGURATION:
		d->config = (uint8_t)s->wValue;
		d->config_seen = 1;
		memset(d->alt, 0, sizeof d->alt);
		dev_map_endpoints(d);
		return;
	case USB_REQ_SET_INTERFACE:
		if (SETUP_RECIP(s) == 1 && s->wIndex < DEC_MAX_INTFS) {
			d->alt[s->wIndex] = (uint8_t)s->wValue;
			dev_map_endpoints(d);
		}
		return;
	case USB_REQ_SET_ADDRESS:
		/* A new device takes the address (Linux labels it 0 until
		 * SET_ADDRESS has completed: hub.c hub_port_init). */
		if (s->wValue == 0 || s->wValue > 127)
			return;
		nd = dev_get(ctx, r->busnum, (uint8_t)s->wValue, 1);
		if (nd != NULL && nd != d)
			dev_reset(nd, r->recno);
		if (nd != NULL && nd != d &&
		    (b = bus_find(ctx, r->busnum)) != NULL &&
		    b->reset_port != 0 && b->reset_hub != nd->devnum) {
			nd->parent = b->reset_hub;
			nd->port = b->reset_port;
			b->reset_port = 0;
		}
		/* It has left the default address, whose state was its
		 * own: the next device there starts afresh. */
		if (d->devnum == 0 && nd != d) {
			dev_reset(d, r->recno);
			d->addressed = 1;
		}
		return;
	}
}

static void
fill_class(struct dec_info *info, const struct dec_ep *e)
{
	info->intf = e->intf;
	info->cls = e->cls;
	info->subcls = e->subcls;
	info->proto = e->proto;
	info->flags |= DI_CLASS;
}

/* Interface and class that own this record's traffic. */
static void
find_owner(const struct dec_dev *d, const struct urb_rec *r,
    struct dec_info *info)
{
	const struct dec_setup *s = &info->setup;
	const struct dec_ep *e;
	uint8_t		 c[3];

	if (r->xfer_type != XFER_CTRL) {
		e = &d->ep[ep_index(r->epnum)];
		if (e->intf >= 0)
			fill_class(info, e);
		return;
	}
	if (!(info->flags & DI_SETUP))
		return;
	switch (SETUP_RECIP(s)) {
	case 1:
		if (dev_intf_class(d, s->wIndex & 0xff, c) == 0) {
			info->intf = s->wIndex & 0xff;
			info->cls = c[0];
			info->subcls = c[1];
			info->proto = c[2];
			info->flags |= DI_CLASS;
		}
		break;
	case 2:
		e = &d->ep[ep_index((uint8_t)s->wIndex)];
		if (e->intf >= 0)
			fill_class(info, e);
		break;
	}
}

/* The --decode-as that covers interface intf (-1: unknown) of d. */
static const struct decode_as *
das_find(const struct dec_ctx *ctx, const struct dec_dev *d, int intf)
{
	const struct decode_as *da;
	size_t	 i;

	for (i = 0; i < ctx->ndas; i++) {
		da = &ctx->das[i];
		if (da->by_id ? !d->has_ddesc ||
		    get_le16(d->ddesc + 8) != da->a ||
		    get_le16(d->ddesc + 10) != da->b :
		    d->busnum != da->a || d->devnum != da->b)
			continue;
		if (da->intf >= 0 && intf >= 0 && da->intf != intf)
			continue;
		return da;
	}
	return NULL;
}

/* The user's class over what the descriptors say (or do not). */
static void
decode_as(const struct dec_ctx *ctx, const struct dec_dev *d,
    const struct urb_rec *r, struct dec_info *info)
{
	const struct decode_as *da;
	int	 intf = -1;

	if (ctx->ndas == 0)
		return;
	if (info->flags & DI_CLASS)
		intf = info->intf;
	else if (r->xfer_type == XFER_CTRL) {
		/* class requests to an interface (or its endpoint) only */
		if (!(info->flags & DI_SETUP) ||
		    SETUP_TYPE(&info->setup) != 1 ||
		    SETUP_RECIP(&info->setup) != 1)
			return;
		intf = info->setup.wIndex & 0xff;
	} else if (r->xfer_type > XFER_BULK)
		return;
	if ((da = das_find(ctx, d, intf)) == NULL)
		return;
	info->real_cls = (info->flags & DI_CLASS) ? info->cls : 0xffff;
	info->intf = (int16_t)(intf >= 0 ? intf : da->intf >= 0 ? da->intf :
	    0);
	info->cls = da->c[0];
	info->subcls = da->c[1];
	info->proto = da->c[2];
	info->flags |= DI_CLASS | DI_DECODE_AS;
}

/* Eight bytes that a boot keyboard would send with a key down: keys
 * packed first, then zeros (HID 1.11 B.1; 0x01 is ErrorRollOver). */
static int
looks_like_keys(const uint8_t *p)
{
	int	 i, any = p[0] != 0, zero = 0;

	if (p[1] != 0)
		return 0;
	for (i = 2; i < 8; i++) {
		if (p[i] == 0)
			zero = 1;
		else if (zero || (p[i] != 0x01 && (p[i] < 0x04 ||
		    p[i] > 0xe7)))
			return 0;
		else
			any = 1;
	}
	return any;
}

/*
 * The one interface of d whose report descriptor (learnt by the
 * request's wIndex) has an input report of r's length, or -1 (none, or
 * more than one).
 */
static int
hid_fit(const struct dec_dev *d, const struct urb_rec *r)
{
	int	 k, found = -1;

	for (k = 0; k < DEC_MAX_INTFS; k++) {
		if (d->cls[k].hid == NULL ||
		    !dec_hid_layout_fits(d->cls[k].hid, r->data, r->data_len))
			continue;
		if (found >= 0)
			return -1;
		found = k;
	}
	return found;
}

/*
 * With no configuration in the capture (it started after enumeration),
 * the class an endpoint's data looks like: the HID interface whose
 * report descriptor (read in the capture) has reports of its length,
 * BOT by its CBW and CSW signatures, a boot keyboard by its reports'
 * shape; kept per endpoint from the first record that shows it, and
 * marked as guessed.
 */
static void
guess_class(struct dec_dev *d, const struct urb_rec *r,
    struct dec_info *info)
{
	size_t	 len;
	int	 i, k;

	if ((info->flags & DI_CLASS) || r->xfer_type == XFER_CTRL ||
	    r->xfer_type > XFER_BULK || dev_active_cfg(d, &len) != NULL)
		return;
	i = ep_index(r->epnum);
	if (d->guess[i] == 0 && r->xfer_type == XFER_INT && urb_is_in(r) &&
	    (k = hid_fit(d, r)) >= 0)
		d->guess[i] = (uint8_t)(DEC_GUESS_HID + k);
	else if (d->guess[i] == 0 && r->xfer_type == XFER_BULK &&
	    ((r->data_len == 31 && get_le32(r->data) == 0x43425355) ||
	    (r->data_len == 13 && get_le32(r->data) == 0x53425355)))
		d->guess[i] = DEC_GUESS_BOT;
	else if (d->guess[i] == 0 && r->xfer_type == XFER_INT &&
	    urb_is_in(r) && r->data_len == 8 && looks_like_keys(r->data))
		d->guess[i] = DEC_GUESS_KBD;
	switch (d->guess[i]) {
	case DEC_GUESS_BOT:
		info->cls = 0x08;
		info->subcls = 0x06;
		info->proto = 0x50;
		break;
	case DEC_GUESS_KBD:
		info->cls = 0x03;
		info->subcls = 0x01;
		info->proto = 0x01;
		break;
	default:
		if (d->guess[i] < DEC_GUESS_HID)
			return;
		info->cls = 0x03;
		info->subcls = 0x00;
		info->proto = 0x00;
		info->intf = (int16_t)(d->guess[i] - DEC_GUESS_HID);
		info->real_cls = 0xffff;
		info->flags |= DI_CLASS | DI_GUESSED;
		return;
	}
	info->intf = 0;
	info->real_cls = 0xffff;
	info->flags |= DI_CLASS | DI_GUESSED;
}

/* Up to max numbers in s, the k-th in bases[k] and followed by seps[k]
 * when another comes; how many, or -1 when s is not that. */
static int
parse_nums(const char *s, const int *bases, const char *seps,
    unsigned long *v, int max)
{
	char	*end;
	int	 k;

	for (k = 0; k < max; k++) {
		if (!isxdigit((unsigned char)*s))
			return -1;
		v[k] = strtoul(s, &end, bases[k]);
		if (end == s)
			return -1;
		if (*end == '\0')
			return k + 1;
		if (k + 1 == max || *end != seps[k])
			return -1;
		s = end + 1;
	}
	return -1;
}

int
dec_ctx_decode_as(struct dec_ctx *ctx, const char *spec, char *err,
    size_t size)
{
	static const int dec[3] = { 10, 10, 10 }, ids[3] = { 16, 16, 10 },
			 hex[3] = { 16, 16, 16 };
	struct decode_as da;
	const char	*eq, *cls;
	char		 tgt[32];
	unsigned long	 v[3];
	int		 n, i;

	memset(&da, 0, sizeof da);
	da.intf = -1;
	if ((eq = strchr(spec, '=')) == NULL || eq == spec ||
	    eq[1] == '\0') {
		snprintf(err, size, "'%s': not TARGET=CLASS", spec);
		return -UE_SYNTAX;
	}
	if (ctx->ndas == DEC_MAX_DECODE_AS) {
		snprintf(err, size, "more than %d --decode-as",
		    DEC_MAX_DECODE_AS);
		return -UE_SYNTAX;
	}
	/* the target: BUS.DEV[.INTF] or VID:PID[.INTF] */
	n = -1;
	if ((size_t)(eq - spec) < sizeof tgt) {
		memcpy(tgt, spec, (size_t)(eq - spec));
		tgt[eq - spec] = '\0';
		da.by_id = strchr(tgt, ':') != NULL;
		n = parse_nums(tgt, da.by_id ? ids : dec,
		    da.by_id ? ":." : "..", v, 3);
	}
	if (n < 2 || v[0] > 0xffff || v[1] > 0xffff ||
	    (!da.by_id && v[1] > 127) || (n == 3 && v[2] >= DEC_MAX_INTFS)) {
		snprintf(err, size, "'%.*s': the target is BUS.DEV[.INTF] "
		    "or VID:PID[.INTF] (hex)", (int)(eq - spec), spec);
		return -UE_SYNTAX;
	}
	da.a = (uint16_t)v[0];
	da.b = (uint16_t)v[1];
	if (n == 3)
		da.intf = (int16_t)v[2];
	/* the class: a name or CLASS[.SUBCLASS[.PROTOCOL]] */
	cls = eq + 1;
	if (dec_class_by_name(cls, strlen(cls), da.c) != 0) {
		n = parse_nums(cls, hex, "..", v, 3);
		for (i = 0; i < n; i++)
			if (v[i] > 0xff)
				n = -1;
		if (n < 1) {
			snprintf(err, size, "'%s': unknown class (one of %s, "
			    "or CLASS[.SUBCLASS[.PROTOCOL]] in hex)", cls,
			    dec_class_names());
			return -UE_SYNTAX;
		}
		for (i = 0; i < n; i++)
			da.c[i] = (uint8_t)v[i];
	}
	ctx->das[ctx->ndas++] = da;
	return 0;
}

int
dec_analyze(struct dec_ctx *ctx, const struct urb_rec *r,
    struct dec_info *info)
{
	struct pending	*p;
	struct dec_dev	*d;
	size_t		 i, n;
	int		 k;

	memset(info, 0, sizeof *info);
	info->intf = -1;
	info->latency_ns = -1;
	if (r->type == 'P')
		return 0;	/* a bus packet that is no URB's event */

	if ((r->flags & REC_F_STAGE) &&
	    (p = pend_find(ctx, r->id, r->busnum)) != NULL) {
		/*
		 * A USBPcap data stage of the control transfer still open
		 * (it carries its OUT data), or its status stage when no
		 * data stage completed it: the stage belongs to the URB.
		 */
		info->flags |= DI_STAGE;
		info->pair_recno = p->recno;
		info->pair_frame = p->frame;
		info->pair_len = p->len;
		if (p->has_setup) {
			dec_setup(p->setup, &info->setup);
			info->flags |= DI_SETUP;
		}
		if (r->type == 'S') {
			/* Wireshark times the status stage from here */
			p->recno = r->recno;
			p->frame = urb_frame(r);
			p->ts_ns = r->ts_ns;
		} else {
			info->flags |= DI_PAIRED;
			info->latency_ns = dec_ts_sub(r->ts_ns, p->ts_ns);
			/* an IN data stage is followed by the status one */
			if (r->win.stage != USBPCAP_STAGE_DATA)
				pend_remove(ctx, (size_t)(p - ctx->pend));
		}
	} else if (r->flags & REC_F_STAGE) {
		/* a stage of a transfer whose setup is not in the capture */
		info->flags |= DI_STAGE | (r->type == 'C' ? DI_ORPHAN : 0);
	} else if (r->type == 'S') {
		if (ctx->pend_n + 1 > ctx->pend_cap / 2 &&
		    pend_grow(ctx) != 0)
			return -UE_NOMEM;
		i = pend_slot(ctx, r->id, r->busnum);
		p = &ctx->pend[i];
		if (p->used) {
			info->flags |= DI_RESUBMIT;
			info->replaced_recno = p->recno;
		} else
			ctx->pend_n++;
		p->used = 1;
		p->id = r->id;
		p->busnum = r->busnum;
		p->recno = r->recno;
		p->frame = urb_frame(r);
		p->ts_ns = r->ts_ns;
		p->len = r->len_urb;
		p->has_setup = r->xfer_type == XFER_CTRL &&
		    r->flag_setup == 0;
		if (p->has_setup) {
			memcpy(p->setup, r->setup, 8);
			dec_setup(r->setup, &info->setup);
			info->flags |= DI_SETUP;
		}
	} else {
		i = pend_slot(ctx, r->id, r->busnum);
		p = &ctx->pend[i];
		if (p->used) {
			info->flags |= DI_PAIRED;
			info->pair_recno = p->recno;
			info->pair_frame = p->frame;
			info->pair_len = p->len;
			info->latency_ns = dec_ts_sub(r->ts_ns, p->ts_ns);
			if (p->has_setup) {
				dec_setup(p->setup, &info->setup);
				info->flags |= DI_SETUP;
			}
			pend_remove(ctx, i);
		} else if (r->origin != URB_ORIGIN_USBLL)
			info->flags |= DI_ORPHAN;	/* (on the bus, the
							   IN token asked) */
	}

	d = dev_get(ctx, r->busnum, r->devnum, 1);
	if (d == NULL)
		return -UE_NOMEM;
	d->addressed = 0;	/* (set again by its SET_ADDRESS) */
	if (r->type == 'C' && r->status == 0 && (info->flags & DI_SETUP)) {
		learn_control(ctx, d, r, &info->setup);
		/* a report descriptor goes to the interface its request
		 * names, whatever the capture says (or not) of it */
		if ((k = dec_hid_rdesc_answer(r, info)) >= 0 &&
		    k < DEC_MAX_INTFS)
			dec_hid_learn_rdesc(r, &d->cls[k]);
	}
	if (r->xfer_type != XFER_CTRL || ((info->flags & DI_SETUP) &&
	    SETUP_TYPE(&info->setup) == 1 && SETUP_RECIP(&info->setup) == 3))
		d->in_use = 1;
	find_owner(d, r, info);
	decode_as(ctx, d, r, info);
	guess_class(d, r, info);
	if ((d->has_ddesc && d->ddesc[4] == 9) ||
	    ((info->flags & DI_CLASS) && info->cls == 9) ||
	    ((info->flags & DI_SETUP) && SETUP_TYPE(&info->setup) == 1 &&
	    SETUP_RECIP(&info->setup) == 3))
		info->flags |= DI_HUB;
	if (d->has_ddesc) {
		info->flags |= DI_IDS;
		info->vid = get_le16(d->ddesc + 8);
		info->pid = get_le16(d->ddesc + 10);
		if (d->ddesc[4] == 0xe0 && d->ddesc[5] == 0x01 &&
		    (d->ddesc[6] == 0x01 || d->ddesc[6] == 0x04))
			info->flags |= DI_DEV_BT;
	}
	if ((info->flags & DI_CLASS) && info->intf >= 0 &&
	    info->intf < DEC_MAX_INTFS) {
		info->st = &d->cls[info->intf];
		if (dec_class_learn(r, info, &d->cls[info->intf]) &&
		    (info->cfg = dev_active_cfg(d, &n)) != NULL)
			info->cfg_len = (uint32_t)n;	/* a wTotalLength */
	} else if ((info->flags & (DI_DEV_BT | DI_SETUP)) ==
	    (DI_DEV_BT | DI_SETUP) && SETUP_TYPE(&info->setup) == 1 &&
	    SETUP_RECIP(&info->setup) == 0)
		dec_class_learn_dev(r, info, &d->cls[0]);
	return 0;
}

int
dec_info_class(const struct dec_info *info)
{
	if ((info->flags & DI_SETUP) && SETUP_TYPE(&info->setup) == 2 &&
	    (info->flags & DI_IDS))
		return dec_product_class(info->vid, info->pid);
	if (info->flags & DI_HUB)
		return 0x09;
	return (info->flags & DI_CLASS) ? (int)info->cls : -1;
}
