/*
 * hcd/devmodel.c - the device side of the emulated bus: the registry of
 * device models and the chapter 9 machinery every model shares.
 *
 * dm_transact() is one transaction on the wire as a device sees it: the
 * address filter (no answer for another address), injected faults, the
 * ep0 control pipe (SETUP resets the control stage; data stage in
 * max-packet pieces ending with a short packet; status stage; a protocol
 * STALL lasts until the next SETUP), the standard requests answered from
 * the model's descriptor tables (USB 2.0 9.4), class and vendor requests
 * handed to the model, and data endpoints handed to the model unless
 * halted.  SET_ADDRESS takes effect after its status stage (USB 2.0
 * 9.4.6), as Linux's enumeration (hub.c hub_port_init) relies on.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decode/decode.h"
#include "hcd/devmodel.h"
#include "hcd/machine.h"

#define EP0_MAXP	64		/* high speed */


/* Control transfer stages (usb_devmodel.ctrl_stage). */
enum {
	CS_IDLE = 0,
	CS_DATA_IN,		/* IN data; an OUT is the status stage */
	CS_DATA_OUT,		/* OUT data until wLength */
	CS_STATUS_IN,		/* the host's zero-length IN ends it */
	CS_STALL,		/* protocol stall until the next SETUP */
};

/* An endpoint of the configuration, from its descriptors. */
struct dm_ep {
	uint8_t		 addr;
	uint8_t		 intf;
	uint8_t		 alt;
};

#define DM_MAX_EPS	30

/* The framework's part of a model; the model's priv follows. */
struct dm_impl {
	struct usb_devmodel dm;			/* first: the public part */
	uint32_t	 live;			/* endpoints usable now */
	int		 addr_pending;		/* SET_ADDRESS awaits status */
	int		 nep;
	struct dm_ep	 ep[DM_MAX_EPS];
	uint8_t		 nintf;
	uint8_t		 cfg_value;		/* bConfigurationValue */
	uint8_t		 cfg_attr;		/* bmAttributes */
	uint64_t	 priv[] __attribute__((aligned(16)));
};

/* Bit of an endpoint address in dm_impl.live: OUT n -> n, IN n -> 16+n. */
static uint32_t
ep_bit(int epaddr)
{
	return 1u << ((epaddr & 0xf) + ((epaddr & USB_DIR_IN) ? 16 : 0));
}

/* Bit of an endpoint address in usb_devmodel.halted (eps 0-7). */
static uint16_t
halt_bit(int epaddr)
{
	if ((epaddr & 0xf) > 7)
		return 0;
	return (uint16_t)(1u << ((epaddr & 7) + ((epaddr & USB_DIR_IN) ?
	    0 : 8)));
}

void
dm_halt(struct usb_devmodel *dm, int epaddr, int on)
{
	if (on)
		dm->halted |= halt_bit(epaddr);
	else
		dm->halted &= (uint16_t)~halt_bit(epaddr);
}

/* Recompute the endpoints the current configuration and settings offer. */
static void
dm_update_live(struct dm_impl *d)
{
	int	 i;

	d->live = 0;
	if (d->dm.config == 0)
		return;
	for (i = 0; i < d->nep; i++) {
		if (d->ep[i].intf < sizeof d->dm.alt &&
		    d->dm.alt[d->ep[i].intf] == d->ep[i].alt)
			d->live |= ep_bit(d->ep[i].addr);
	}
}

/* The endpoints and interfaces of the configuration descriptor. */
static void
dm_parse_config(struct dm_impl *d)
{
	const struct dm_descriptors *dd = d->dm.ops->desc;
	const uint8_t	*p = dd->config;
	struct dec_dref	 r;
	size_t		 off = 0, len = dd->config_len;
	uint8_t		 intf = 0, alt = 0;

	if (p == NULL || len < USB_DT_CONFIG_SIZE)
		return;
	d->cfg_value = p[5];
	d->cfg_attr = p[7];
	while (dec_desc_next(p, len, &off, &r) && r.len == r.bLength) {
		if (r.type == USB_DT_INTERFACE && r.len >= 4) {
			intf = r.p[2];
			alt = r.p[3];
			if (intf + 1 > d->nintf)
				d->nintf = (uint8_t)(intf + 1);
		} else if (r.type == USB_DT_ENDPOINT && r.len >= 3 &&
		    d->nep < DM_MAX_EPS) {
			d->ep[d->nep].addr = r.p[2];
			d->ep[d->nep].intf = intf;
			d->ep[d->nep].alt = alt;
			d->nep++;
		}
	}
}

static int
dm_has_ep(const struct dm_impl *d, int epaddr)
{
	int	 i;

	for (i = 0; i < d->nep; i++) {
		if (d->ep[i].addr == epaddr)
			return 1;
	}
	return 0;
}

static int
dm_has_alt(const struct dm_impl *d, int intf, int alt)
{
	const struct dm_descriptors *dd = d->dm.ops->desc;
	struct dec_dref	 r;
	size_t		 off = 0;

	while (dec_desc_next(dd->config, dd->config_len, &off, &r)) {
		if (r.type == USB_DT_INTERFACE && r.len >= 4 &&
		    r.p[2] == intf && r.p[3] == alt)
			return 1;
	}
	return 0;
}

/* ------------------------------------------------------------------------
 * Life cycle.
 */

struct usb_devmodel *
dm_create(const char *name, const char *args)
{
	return dm_create_noted(name, args, NULL, NULL);
}

struct usb_devmodel *
dm_create_noted(const char *name, const char *args,
    void (*fn)(void *arg, const char *text), void *arg)
{
	const struct usb_devmodel_ops *ops;
	struct dm_impl	*d;

	if ((ops = sim_model_find(name)) == NULL)
		return NULL;
	if ((d = calloc(1, sizeof *d + ops->priv_size)) == NULL)
		return NULL;
	d->dm.ops = ops;
	d->dm.priv = d->priv;
	d->dm.fault_ep = -1;
	d->dm.note_fn = fn;
	d->dm.note_arg = arg;
	dm_parse_config(d);
	if (ops->init != NULL && ops->init(&d->dm, args) != 0) {
		free(d);
		return NULL;
	}
	return &d->dm;
}

void
dm_ops_changed(struct usb_devmodel *dm)
{
	struct dm_impl	*d = (struct dm_impl *)dm;

	d->nep = 0;
	d->nintf = 0;
	dm_parse_config(d);
}

void
dm_note(struct usb_devmodel *dm, const char *fmt, ...)
{
	char	 text[512];
	va_list	 ap;

	if (dm->note_fn == NULL)
		return;
	va_start(ap, fmt);
	vsnprintf(text, sizeof text, fmt, ap);
	va_end(ap);
	dm->note_fn(dm->note_arg, text);
}

void
dm_destroy(struct usb_devmodel *dm)
{
	if (dm == NULL)
		return;
	if (dm->ops->destroy != NULL)
		dm->ops->destroy(dm);
	free(dm);
}

void
dm_bus_reset(struct usb_devmodel *dm)
{
	struct dm_impl	*d = (struct dm_impl *)dm;

	dm->address = 0;
	dm->pending_address = 0;
	d->addr_pending = 0;
	dm->config = 0;
	memset(dm->alt, 0, sizeof dm->alt);
	dm->halted = 0;
	dm->ctrl_stage = CS_IDLE;
	dm->ctrl_len = dm->ctrl_pos = 0;
	d->live = 0;
	if (dm->ops->reset != NULL)
		dm->ops->reset(dm);
}

static const struct {
	const char	*name;
	enum dm_fault_kind kind;
} dm_faults[] = {
	{ "stall", DM_FAULT_STALL },
	{ "babble", DM_FAULT_BABBLE },
	{ "xacterr", DM_FAULT_XACTERR },
	{ "disconnect", DM_FAULT_DISCONNECT },
	{ "nak", DM_FAULT_NAK },
	{ "delay", DM_FAULT_DELAY },
};

static const struct {
	const char	*name;
	enum dm_trigger_kind on;
} dm_triggers[] = {
	{ "request", DM_ON_REQUEST },
	{ "scsi", DM_ON_SCSI },
	{ "packet", DM_ON_PACKET },
	{ "bytes", DM_ON_BYTES },
};

/* A number (decimal or 0x hex) in [lo, hi] into *out: 0, or -1. */
static int
dm_number(const char *s, long lo, long hi, long *out)
{
	char	*end;
	long	 v;

	if (*s == '\0' || *s == '-')
		return -1;
	errno = 0;
	v = strtol(s, &end, 0);
	if (errno != 0 || *end != '\0' || v < lo || v > hi)
		return -1;
	*out = v;
	return 0;
}

int
dm_inject_parse(char *const *w, int nw, struct dm_inject_spec *s, char *err,
    size_t errlen)
{
	uint64_t size;
	size_t	 k;
	int	 i, on = nw;
	long	 v;

	memset(s, 0, sizeof *s);
	s->ep = -1;
	s->count = 1;
	s->nth = 1;
	for (i = 0; i < nw; i++)
		if (strcmp(w[i], "on") == 0 && on == nw)
			on = i;
	for (k = 0; k < nitems(dm_faults); k++)
		if (nw > 0 && strcmp(dm_faults[k].name, w[0]) == 0)
			break;
	if (k == nitems(dm_faults)) {
		snprintf(err, errlen, "no fault '%s' (stall, babble, xacterr, "
		    "disconnect, nak, delay)", nw > 0 ? w[0] : "");
		return -1;
	}
	s->kind = dm_faults[k].kind;
	if (on > 3) {
		snprintf(err, errlen, "FAULT [EP] [COUNT] [on TRIGGER], not "
		    "'%s'", w[3]);
		return -1;
	}
	if (on > 1 && dm_number(w[1], 0, 0xff, &v) < 0) {
		snprintf(err, errlen, "'%s' is not an endpoint address", w[1]);
		return -1;
	}
	if (on > 1)
		s->ep = (int)v;
	if (on > 2 && dm_number(w[2], 0, 1000000, &v) < 0) {
		snprintf(err, errlen, "'%s' is not a count", w[2]);
		return -1;
	}
	if (on > 2)
		s->count = (int)v;
	if (on == nw)
		return 0;
	for (k = 0; k < nitems(dm_triggers); k++)
		if (on + 1 < nw && strcmp(dm_triggers[k].name, w[on + 1]) == 0)
			break;
	if (k == nitems(dm_triggers) || on + 2 >= nw || on + 4 < nw ||
	    (dm_triggers[k].on == DM_ON_BYTES && on + 4 != nw)) {
		snprintf(err, errlen, "on request BREQUEST [N], on scsi "
		    "OPCODE|any [N], on packet EP [N] or on bytes EP N");
		return -1;
	}
	s->on = dm_triggers[k].on;
	if (s->on == DM_ON_SCSI && strcmp(w[on + 2], "any") == 0)
		s->value = -1;
	else if (dm_number(w[on + 2], 0, 0xff, &s->value) < 0) {
		snprintf(err, errlen, "'%s' is not a %s", w[on + 2],
		    s->on == DM_ON_REQUEST ? "bRequest" : s->on == DM_ON_SCSI ?
		    "SCSI opcode" : "endpoint address");
		return -1;
	}
	if (s->on == DM_ON_BYTES) {
		if (dm_parse_size(w[on + 3], &size) < 0 || size < 1 ||
		    size > 0x7fffffff) {
			snprintf(err, errlen, "'%s' is not a byte count (1 to "
			    "2G; k, M and G multiply)", w[on + 3]);
			return -1;
		}
		s->nth = (long)size;
	} else if (on + 3 < nw &&
	    dm_number(w[on + 3], 1, 1000000, &s->nth) < 0) {
		snprintf(err, errlen, "'%s' is not a count (1 = the first)",
		    w[on + 3]);
		return -1;
	}
	/* the fault's endpoint: the trigger's when none is named */
	if (s->ep == -1 && (s->on == DM_ON_PACKET || s->on == DM_ON_BYTES))
		s->ep = (int)s->value;
	return 0;
}

void
dm_inject_spec(struct usb_devmodel *dm, const struct dm_inject_spec *s)
{
	dm->armed.on = DM_ON_NOW;
	if (s->on == DM_ON_NOW) {
		dm_inject(dm, s->kind, s->ep, s->count);
		return;
	}
	dm->armed = *s;
	dm->armed_seen = 0;
}

/* Does transaction (pid, epaddr, buf, len) meet the armed trigger? */
static int
dm_triggered(struct usb_devmodel *dm, int pid, int epaddr,
    const uint8_t *buf, size_t len)
{
	const struct dm_inject_spec *s = &dm->armed;
	int	 hit = 0;

	switch (s->on) {
	case DM_ON_NOW:
		return 0;
	case DM_ON_REQUEST:
		hit = pid == DM_PID_SETUP && epaddr == 0 && len == 8 &&
		    buf[1] == s->value;
		break;
	case DM_ON_SCSI:
		/* a CBW: 31 bytes, "USBC", the CDB from byte 15 */
		hit = pid == DM_PID_OUT && epaddr != 0 && len == 31 &&
		    get_le32(buf) == 0x43425355 &&
		    (s->value < 0 || buf[15] == s->value);
		break;
	case DM_ON_PACKET:
		hit = epaddr == s->value;
		break;
	case DM_ON_BYTES:
		/* dm_transact counts the bytes that went through */
		return epaddr == s->value && dm->armed_seen >= s->nth;
	}
	return hit && ++dm->armed_seen == s->nth;
}

void
dm_inject(struct usb_devmodel *dm, enum dm_fault_kind kind, int ep,
    int count)
{
	struct dm_impl	*d = (struct dm_impl *)dm;
	int		 i;

	dm->fault = DM_FAULT_NONE;
	dm->fault_ep = ep;
	dm->fault_count = count;
	switch (kind) {
	case DM_FAULT_NONE:
		break;
	case DM_FAULT_STALL:
		if (ep == 0) {
			dm->fault = kind;	/* the next control request */
			break;
		}
		for (i = 0; i < d->nep; i++) {
			if (ep == -1 || d->ep[i].addr == ep)
				dm_halt(dm, d->ep[i].addr, 1);
		}
		break;
	case DM_FAULT_DISCONNECT:
		if (count <= 0) {
			dm->gone = 1;
			break;
		}
		dm->fault = kind;
		break;
	case DM_FAULT_BABBLE:
	case DM_FAULT_XACTERR:
	case DM_FAULT_NAK:
		dm->fault = kind;
		break;
	case DM_FAULT_DELAY:
		dm->fault = kind;
		dm->fault_until = dm->now_ns + (uint64_t)count * 1000000;
		break;
	}
}

void
dm_tick(struct usb_devmodel *dm, uint64_t now_ns)
{
	dm->now_ns = now_ns;
	if (dm->ops->tick != NULL)
		dm->ops->tick(dm, now_ns);
}

/* ------------------------------------------------------------------------
 * Standard requests (USB 2.0 9.4), answered from the descriptor tables.
 * Each handler returns the data length (IN), 0 (OUT) or DM_STALL.
 */

static int
copy_out(uint8_t *data, const uint8_t *src, size_t n, size_t wlength)
{
	if (src == NULL)
		return DM_STALL;
	if (n > wlength)
		n = wlength;
	memcpy(data, src, n);
	return (int)n;
}

/* A string descriptor from UTF-8 (USB 2.0 9.6.7: UTF-16LE, 126 units). */
static int
string_desc(const char *s, uint8_t *out)
{
	const uint8_t	*p = (const uint8_t *)s;
	uint32_t	 c;
	size_t		 n = 2, k, i;

	while (*p != '\0' && n + 4 <= 254) {
		c = *p;
		k = c < 0x80 ? 0 : c >= 0xf0 ? 3 : c >= 0xe0 ? 2 :
		    c >= 0xc0 ? 1 : 0;
		if (k > 0)
			c &= 0x3fu >> k;
		else if (c >= 0x80)
			c = 0xfffd;	/* a stray continuation byte */
		p++;
		for (i = 0; i < k; i++, p++) {
			if ((*p & 0xc0) != 0x80) {
				c = 0xfffd;
				break;
			}
			c = c << 6 | (*p & 0x3f);
		}
		if (c > 0x10ffff || (c >= 0xd800 && c < 0xe000))
			c = 0xfffd;
		if (c >= 0x10000) {
			c -= 0x10000;
			put_le16(out + n, (uint16_t)(0xd800 | c >> 10));
			put_le16(out + n + 2, (uint16_t)(0xdc00 | (c & 0x3ff)));
			n += 4;
		} else {
			put_le16(out + n, (uint16_t)c);
			n += 2;
		}
	}
	out[0] = (uint8_t)n;
	out[1] = USB_DT_STRING;
	return (int)n;
}

/* A class descriptor (HID 0x21) following interface intf in the config. */
static const uint8_t *
find_class_desc(const struct dm_descriptors *dd, int intf, int type)
{
	struct dec_dref	 r;
	size_t		 off = 0;
	int		 in = 0;

	while (dec_desc_next(dd->config, dd->config_len, &off, &r)) {
		if (r.type == USB_DT_INTERFACE)
			in = r.len >= 3 && r.p[2] == intf;
		else if (in && r.type == type && r.len == r.bLength)
			return r.p;
	}
	return NULL;
}

static int
req_get_descriptor(struct dm_impl *d, const struct usb_ctrlrequest *s,
    uint8_t *data)
{
	const struct dm_descriptors *dd = d->dm.ops->desc;
	const uint8_t	*p;
	uint8_t		 buf[256];
	int		 type = s->wValue >> 8, index = s->wValue & 0xff, n, i;

	if (d->dm.ops->get_descriptor != NULL &&
	    (n = d->dm.ops->get_descriptor(&d->dm, s, data)) != DM_PASS)
		return n;
	switch (type) {
	case USB_DT_DEVICE:
		return copy_out(data, dd->device, USB_DT_DEVICE_SIZE,
		    s->wLength);
	case USB_DT_CONFIG:
		if (index != 0)
			return DM_STALL;
		return copy_out(data, dd->config, dd->config_len, s->wLength);
	case USB_DT_STRING:
		if (index == 0) {
			static const uint8_t langids[] = { 4, USB_DT_STRING,
			    0x09, 0x04 };
			return copy_out(data, langids, sizeof langids,
			    s->wLength);
		}
		if (dd->strings == NULL)
			return DM_STALL;
		for (i = 1; i < index && dd->strings[i - 1] != NULL; i++)
			;
		if (dd->strings[i - 1] == NULL)
			return DM_STALL;
		n = string_desc(dd->strings[index - 1], buf);
		return copy_out(data, buf, (size_t)n, s->wLength);
	case USB_DT_DEVICE_QUALIFIER:
		return copy_out(data, dd->qualifier, 10, s->wLength);
	case USB_DT_BOS:
		return copy_out(data, dd->bos, dd->bos_len, s->wLength);
	case 0x21:	/* HID descriptor, HID 1.11 7.1.1 */
		if ((s->bRequestType & USB_RECIP_MASK) != USB_RECIP_INTERFACE)
			return DM_STALL;
		p = find_class_desc(dd, s->wIndex, type);
		return copy_out(data, p, p != NULL ? p[0] : 0, s->wLength);
	case 0x22:	/* HID report descriptor, HID 1.11 7.1.1 */
		if ((s->bRequestType & USB_RECIP_MASK) !=
		    USB_RECIP_INTERFACE || s->wIndex >= d->nintf)
			return DM_STALL;
		return copy_out(data, dd->hid_report, dd->hid_report_len,
		    s->wLength);
	}
	return DM_STALL;
}

static int
req_set_address(struct dm_impl *d, const struct usb_ctrlrequest *s,
    uint8_t *data)
{
	(void)data;
	if (s->wValue > 127 || s->wIndex != 0 || s->wLength != 0 ||
	    d->dm.config != 0)
		return DM_STALL;
	d->dm.pending_address = (uint8_t)s->wValue;
	d->addr_pending = 1;
	return 0;
}

static int
req_get_configuration(struct dm_impl *d, const struct usb_ctrlrequest *s,
    uint8_t *data)
{
	(void)s;
	data[0] = d->dm.config;
	return s->wLength >= 1 ? 1 : 0;
}

static int
req_set_configuration(struct dm_impl *d, const struct usb_ctrlrequest *s,
    uint8_t *data)
{
	struct usb_devmodel *dm = &d->dm;

	(void)data;
	if (s->wValue != 0 && s->wValue != d->cfg_value)
		return DM_STALL;
	/* Configuring resets halts and settings (USB 2.0 9.1.1.5). */
	dm->config = (uint8_t)s->wValue;
	memset(dm->alt, 0, sizeof dm->alt);
	dm->halted = 0;
	dm_update_live(d);
	if (dm->ops->set_config != NULL)
		dm->ops->set_config(dm, dm->config);
	return 0;
}

static int
req_get_interface(struct dm_impl *d, const struct usb_ctrlrequest *s,
    uint8_t *data)
{
	if (d->dm.config == 0 || s->wIndex >= d->nintf)
		return DM_STALL;
	data[0] = d->dm.alt[s->wIndex];
	return s->wLength >= 1 ? 1 : 0;
}

static int
req_set_interface(struct dm_impl *d, const struct usb_ctrlrequest *s,
    uint8_t *data)
{
	struct usb_devmodel *dm = &d->dm;
	int		 i;

	(void)data;
	if (dm->config == 0 || s->wIndex >= d->nintf ||
	    s->wIndex >= sizeof dm->alt || !dm_has_alt(d, s->wIndex,
	    s->wValue))
		return DM_STALL;
	dm->alt[s->wIndex] = (uint8_t)s->wValue;
	for (i = 0; i < d->nep; i++) {
		if (d->ep[i].intf == s->wIndex)
			dm_halt(dm, d->ep[i].addr, 0);
	}
	dm_update_live(d);
	if (dm->ops->set_interface != NULL)
		dm->ops->set_interface(dm, s->wIndex, s->wValue);
	return 0;
}

static int
req_get_status(struct dm_impl *d, const struct usb_ctrlrequest *s,
    uint8_t *data)
{
	data[0] = data[1] = 0;
	switch (s->bRequestType & USB_RECIP_MASK) {
	case USB_RECIP_DEVICE:
		data[0] = (d->cfg_attr & 0x40) ? 1 : 0;	/* self-powered */
		break;
	case USB_RECIP_INTERFACE:
		if (d->dm.config == 0 || s->wIndex >= d->nintf)
			return DM_STALL;
		break;
	case USB_RECIP_ENDPOINT:
		if ((s->wIndex & 0x7f) != 0 && (d->dm.config == 0 ||
		    !dm_has_ep(d, s->wIndex)))
			return DM_STALL;
		data[0] = (d->dm.halted & halt_bit(s->wIndex)) ? 1 : 0;
		break;
	default:
		return DM_STALL;
	}
	return s->wLength < 2 ? s->wLength : 2;
}

/* CLEAR_FEATURE and SET_FEATURE (USB 2.0 9.4.1, 9.4.9). */
static int
req_feature(struct dm_impl *d, const struct usb_ctrlrequest *s,
    uint8_t *data)
{
	int	 set = s->bRequest == USB_REQ_SET_FEATURE;

	(void)data;
	switch (s->bRequestType & USB_RECIP_MASK) {
	case USB_RECIP_DEVICE:
		/* TEST_MODE is accepted; remote wakeup is not offered. */
		if (set && s->wValue == 2)
			return 0;
		return DM_STALL;
	case USB_RECIP_ENDPOINT:
		if (s->wValue != USB_ENDPOINT_HALT)
			return DM_STALL;
		if ((s->wIndex & 0x7f) == 0)
			return 0;	/* ep0's halt is the protocol stall */
		if (d->dm.config == 0 || !dm_has_ep(d, s->wIndex))
			return DM_STALL;
		dm_halt(&d->dm, s->wIndex, set);
		return 0;
	}
	return DM_STALL;
}

/* The standard requests, USB 2.0 table 9-3. */
static const struct dm_std_req {
	uint8_t		 req;
	uint8_t		 dir;		/* USB_DIR_IN or USB_DIR_OUT */
	int		 (*fn)(struct dm_impl *, const struct usb_ctrlrequest *,
			     uint8_t *);
} dm_std_reqs[] = {
	{ USB_REQ_GET_STATUS, USB_DIR_IN, req_get_status },
	{ USB_REQ_CLEAR_FEATURE, USB_DIR_OUT, req_feature },
	{ USB_REQ_SET_FEATURE, USB_DIR_OUT, req_feature },
	{ USB_REQ_SET_ADDRESS, USB_DIR_OUT, req_set_address },
	{ USB_REQ_GET_DESCRIPTOR, USB_DIR_IN, req_get_descriptor },
	{ USB_REQ_GET_CONFIGURATION, USB_DIR_IN, req_get_configuration },
	{ USB_REQ_SET_CONFIGURATION, USB_DIR_OUT, req_set_configuration },
	{ USB_REQ_GET_INTERFACE, USB_DIR_IN, req_get_interface },
	{ USB_REQ_SET_INTERFACE, USB_DIR_OUT, req_set_interface },
	{ 0, 0, NULL }
};

/* Answer the request in dm->ctrl: length, 0 or DM_STALL. */
static int
dm_request(struct dm_impl *d)
{
	struct usb_devmodel *dm = &d->dm;
	const struct usb_ctrlrequest *s = &dm->ctrl;
	const struct dm_std_req *r;

	if (dm->fault == DM_FAULT_STALL && dm->fault_ep == 0) {
		dm->fault = DM_FAULT_NONE;
		return DM_STALL;
	}
	if ((s->bRequestType & USB_TYPE_MASK) != USB_TYPE_STANDARD) {
		if (dm->ops->control == NULL)
			return DM_STALL;
		return dm->ops->control(dm, s, dm->ctrl_buf);
	}
	for (r = dm_std_reqs; r->fn != NULL; r++) {
		if (r->req == s->bRequest)
			break;
	}
	if (r->fn == NULL || (s->bRequestType & USB_DIR_IN) != r->dir)
		return DM_STALL;
	return r->fn(d, s, dm->ctrl_buf);
}

/* ------------------------------------------------------------------------
 * Transactions.
 */

static int
ep0_setup(struct dm_impl *d, const uint8_t *buf, size_t len)
{
	struct usb_devmodel *dm = &d->dm;
	struct usb_ctrlrequest *s = &dm->ctrl;
	int		 r;

	if (len != 8)
		return DM_XACTERR;	/* a broken SETUP is ignored */
	/* A SETUP always ends what was going on (USB 2.0 8.5.3). */
	d->addr_pending = 0;
	dm->ctrl_len = dm->ctrl_pos = 0;
	s->bRequestType = buf[0];
	s->bRequest = buf[1];
	s->wValue = get_le16(buf + 2);
	s->wIndex = get_le16(buf + 4);
	s->wLength = get_le16(buf + 6);
	if (!(s->bRequestType & USB_DIR_IN) && s->wLength > 0) {
		dm->ctrl_stage = s->wLength <= sizeof dm->ctrl_buf ?
		    CS_DATA_OUT : CS_STALL;
		return DM_ACK;
	}
	if (s->bRequestType & USB_DIR_IN) {
		/* The answer never exceeds the buffer: a short reply. */
		if (s->wLength > sizeof dm->ctrl_buf)
			s->wLength = sizeof dm->ctrl_buf;
		memset(dm->ctrl_buf, 0, s->wLength);
	}
	r = dm_request(d);
	if (r < 0)
		dm->ctrl_stage = CS_STALL;
	else if (s->bRequestType & USB_DIR_IN) {
		dm->ctrl_len = (size_t)r < s->wLength ? (size_t)r : s->wLength;
		dm->ctrl_stage = CS_DATA_IN;
	} else
		dm->ctrl_stage = CS_STATUS_IN;
	return DM_ACK;
}

static int
ep0_in(struct dm_impl *d, uint8_t *buf, size_t len)
{
	struct usb_devmodel *dm = &d->dm;
	size_t		 n;

	switch (dm->ctrl_stage) {
	case CS_DATA_IN:
		n = dm->ctrl_len - dm->ctrl_pos;
		if (n > EP0_MAXP)
			n = EP0_MAXP;
		if (n > len)
			n = len;
		memcpy(buf, dm->ctrl_buf + dm->ctrl_pos, n);
		dm->ctrl_pos += n;
		return (int)n;
	case CS_STATUS_IN:
		dm->ctrl_stage = CS_IDLE;
		if (d->addr_pending) {
			dm->address = dm->pending_address;
			d->addr_pending = 0;
		}
		return 0;
	}
	return DM_STALL;
}

static int
ep0_out(struct dm_impl *d, const uint8_t *buf, size_t len)
{
	struct usb_devmodel *dm = &d->dm;
	size_t		 n;
	int		 r;

	switch (dm->ctrl_stage) {
	case CS_DATA_IN:
		/* The status stage, possibly before all data was read. */
		dm->ctrl_stage = CS_IDLE;
		return DM_ACK;
	case CS_DATA_OUT:
		n = dm->ctrl.wLength - dm->ctrl_pos;
		if (n > len)
			n = len;
		memcpy(dm->ctrl_buf + dm->ctrl_pos, buf, n);
		dm->ctrl_pos += n;
		if (dm->ctrl_pos < dm->ctrl.wLength && len == EP0_MAXP)
			return DM_ACK;
		dm->ctrl_len = dm->ctrl_pos;
		r = dm_request(d);
		dm->ctrl_stage = r < 0 ? CS_STALL : CS_STATUS_IN;
		return DM_ACK;
	case CS_IDLE:
		if (len == 0)
			return DM_ACK;	/* a repeated status stage */
		break;
	}
	return DM_STALL;
}

/* Does an injected fault answer this transaction?  0 when not. */
static int
dm_fault(struct usb_devmodel *dm, int pid, int epaddr)
{
	if (dm->fault_ep != -1 && dm->fault_ep != epaddr)
		return 0;
	switch (dm->fault) {
	case DM_FAULT_XACTERR:
		if (--dm->fault_count <= 0)
			dm->fault = DM_FAULT_NONE;
		return DM_XACTERR;
	case DM_FAULT_BABBLE:
		if (pid != DM_PID_IN)
			return 0;
		dm->fault = DM_FAULT_NONE;
		return DM_BABBLE;
	case DM_FAULT_DISCONNECT:
		if (dm->fault_count-- > 0)
			return 0;
		dm->fault = DM_FAULT_NONE;
		dm->gone = 1;
		return DM_NODEV;
	case DM_FAULT_NAK:
		if (--dm->fault_count <= 0)
			dm->fault = DM_FAULT_NONE;
		return DM_NAK;
	case DM_FAULT_DELAY:
		if (dm->now_ns < dm->fault_until)
			return DM_NAK;
		dm->fault = DM_FAULT_NONE;
		return 0;
	default:
		return 0;
	}
}

int
dm_transact(struct usb_devmodel *dm, int pid, int addr, int ep,
    uint8_t *buf, size_t len)
{
	struct dm_impl	*d = (struct dm_impl *)dm;
	int		 epaddr, r;

	if (dm == NULL || dm->gone)
		return DM_NODEV;
	if (addr != dm->address)
		return DM_XACTERR;	/* not for us: no answer */
	epaddr = ep == 0 ? 0 : pid == DM_PID_IN ? (ep | USB_DIR_IN) : ep;
	/* an armed fault goes off on the transaction that meets its
	 * trigger */
	if (dm->armed.on != DM_ON_NOW &&
	    dm_triggered(dm, pid, epaddr, buf, len)) {
		dm->armed.on = DM_ON_NOW;
		dm_inject(dm, dm->armed.kind, dm->armed.ep,
		    dm->armed.count);
	}
	if (dm->fault != DM_FAULT_NONE && dm->fault != DM_FAULT_STALL &&
	    (r = dm_fault(dm, pid, epaddr)) != 0)
		return r;
	if (ep == 0) {
		switch (pid) {
		case DM_PID_SETUP:
			return ep0_setup(d, buf, len);
		case DM_PID_IN:
			return ep0_in(d, buf, len);
		case DM_PID_OUT:
			return ep0_out(d, buf, len);
		}
		return DM_XACTERR;
	}
	if (pid == DM_PID_SETUP)
		return DM_XACTERR;	/* SETUP is for control endpoints */
	if (!(d->live & ep_bit(epaddr)) || (dm->halted & halt_bit(epaddr)))
		return DM_STALL;
	if (pid == DM_PID_IN)
		r = dm->ops->data_in != NULL ?
		    dm->ops->data_in(dm, epaddr, buf, len) : DM_STALL;
	else
		r = dm->ops->data_out != NULL ?
		    dm->ops->data_out(dm, epaddr, buf, len) : DM_STALL;
	if (r == DM_STALL)
		dm_halt(dm, epaddr, 1);
	else if (dm->armed.on == DM_ON_BYTES && epaddr == dm->armed.value &&
	    (pid == DM_PID_IN ? r > 0 : r == DM_ACK) &&
	    dm->armed_seen < dm->armed.nth)
		dm->armed_seen += pid == DM_PID_IN ? r : (long)len;
	return r;
}

/* ------------------------------------------------------------------------
 * Helpers for models.
 */

int
dm_parse_size(const char *args, uint64_t *out)
{
	uint64_t	 v = 0;
	const char	*p = args;
	int		 shift = 0;

	if (p == NULL || *p < '0' || *p > '9')
		return -1;
	for (; *p >= '0' && *p <= '9'; p++) {
		if (v > UINT64_MAX / 10 - 9)
			return -1;
		v = v * 10 + (uint64_t)(*p - '0');
	}
	switch (*p) {
	case 'k': case 'K':
		shift = 10;
		p++;
		break;
	case 'm': case 'M':
		shift = 20;
		p++;
		break;
	case 'g': case 'G':
		shift = 30;
		p++;
		break;
	}
	/* a suffix must not shift bits out ("99999999999G" is no size) */
	if (*p != '\0' || v > UINT64_MAX >> shift)
		return -1;
	*out = v << shift;
	return 0;
}
