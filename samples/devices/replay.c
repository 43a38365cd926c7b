/*
 * samples/devices/replay.c - "replay", a device that answers as a
 * recorded one did: args "FILE [BUS.DEV] [strict]" name a capture urbscope
 * reads (pcap, pcapng, usbmon text, USBPcap...) and the device in it
 * (default: the first that answered GET_DESCRIPTOR(DEVICE) and is no
 * hub).
 *
 * Its descriptors are the ones recorded, and every GET_DESCRIPTOR the
 * recording holds is answered with the bytes recorded (the longest answer
 * to the same type, index and wIndex, cut to what is asked); class and
 * vendor requests likewise, matched by their setup packet but wLength,
 * with the recorded STALLs.  IN data comes per endpoint in recorded order,
 * each recorded transfer ending with a short packet as it did, then NAKs
 * (an interrupt endpoint's no sooner after SET_CONFIGURATION than it came
 * in the recording: a keyboard types at the pace it was recorded);
 * OUT data is compared with what was recorded.  Isochronous endpoints
 * go packet by packet: IN packets in recorded order, each with its
 * recorded length and error, OUT packets compared.  Where the host diverges
 * (a request the recording lacks, other OUT data, more transfers than
 * recorded) the model says so through dm_note, naming the record it
 * expected, and carries on: a request the recording lacks is STALLed when
 * it asks for data and accepted when it brings none, other OUT data is
 * accepted, an IN beyond the recording NAKed.  With "strict" it STALLs
 * each of them instead (isochronous endpoints, which have no handshake,
 * carry on).  A Bulk-Only mass-storage interface is answered by SCSI
 * content instead (replay-msc.c), as a disk answers what it never saw.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture/capture.h"
#include "samples/devices/replay.h"

#define RP_PENDING	256		/* submissions awaiting completion */
#define RP_NOTES	20		/* divergences said, then one more */

struct rp_ctrl {
	uint8_t		 setup[8];
	int32_t		 status;
	uint8_t		*data;
	uint32_t	 len;
	uint64_t	 recno;
};

struct rp_item {
	uint8_t		*data;
	uint32_t	 len;
	uint32_t	 asked;		/* the URB's length */
	int32_t		 status;
	uint64_t	 recno;
	int64_t		 ts_ns;		/* its completion, recorded */
};

struct rp_queue {
	struct rp_item	*it;		/* isochronous: one a packet */
	size_t		 n, cap, at;
	uint32_t	 pos;
	int		 zlp;		/* a zero-length packet owed */
	int		 said;		/* "beyond the recording" said */
	int		 iso;		/* an isochronous endpoint's */
	int		 differs;	/* an isochronous OUT's difference said */
};

struct rp_pending {
	uint64_t	 id;
	uint8_t		 setup[8];
	uint8_t		 ep;
	uint8_t		*data;		/* OUT */
	uint32_t	 len;
	uint32_t	 asked;
	uint64_t	 recno;
};

struct replay {
	struct usb_devmodel_ops ops;	/* ours: desc below */
	struct dm_descriptors desc;
	uint8_t		 device[USB_DT_DEVICE_SIZE];
	uint8_t		*config;
	size_t		 config_len;
	struct rp_ctrl	*ctrl;
	size_t		 nctrl, capctrl;
	struct rp_queue	 in[16], out[16];
	int		 notes;
	int64_t		 config_ns;	/* SET_CONFIGURATION's, recorded */
	uint64_t	 now_ns;	/* the last tick */
	uint64_t	 t0_ns;		/* SET_CONFIGURATION's, now */
	uint8_t		 intr[16];	/* IN endpoints that are interrupt */
	struct rp_msc	*msc;		/* a Bulk-Only interface's SCSI */
	int		 strict;	/* a divergence STALLed */
};

/* A divergence said (RP_NOTES of them, then that there are more). */
void
rp_note(struct usb_devmodel *dm, const char *fmt, ...)
{
	struct replay	*rp = dm->priv;
	char		 text[400];
	va_list		 ap;

	if (rp->notes > RP_NOTES)
		return;
	if (rp->notes++ == RP_NOTES) {
		dm_note(dm, "replay: more divergences, not said");
		return;
	}
	va_start(ap, fmt);
	vsnprintf(text, sizeof text, fmt, ap);
	va_end(ap);
	dm_note(dm, "replay: %s", text);
}

static void
queue_free(struct rp_queue *q)
{
	size_t	 i;

	for (i = 0; i < q->n; i++)
		free(q->it[i].data);
	free(q->it);
	memset(q, 0, sizeof *q);
}

static void
rp_destroy(struct usb_devmodel *dm)
{
	struct replay	*rp = dm->priv;
	size_t		 i, k;

	for (i = 0; i < rp->nctrl; i++)
		free(rp->ctrl[i].data);
	free(rp->ctrl);
	for (k = 0; k < 16; k++) {
		queue_free(&rp->in[k]);
		queue_free(&rp->out[k]);
	}
	free(rp->config);
	rp_msc_free(rp->msc);
	rp->msc = NULL;
}

static int
queue_add(struct rp_queue *q, const struct rp_pending *s,
    const struct urb_rec *c, int in)
{
	struct rp_item	*it;

	if (dec_grow(&q->it, q->n, &q->cap, sizeof *q->it) != 0)
		return -1;
	it = &q->it[q->n];
	it->len = in ? c->data_len : s->len;
	it->data = dec_memdup(in ? c->data : s->data, it->len);
	it->asked = s->asked;
	it->status = c->status;
	it->recno = s->recno;
	it->ts_ns = c->ts_ns;
	if (it->data == NULL)
		return -1;
	q->n++;
	return 0;
}

/*
 * An isochronous URB's packets onto q, one item each (USB 2.0 5.6: each
 * is what one (micro)frame carried): data at each descriptor's offset, as
 * usbmon and USBPcap keep it, cut where the capture's bytes end; an IN's
 * actual lengths and statuses from its completion, an OUT's lengths from
 * its submission.
 */
static int
iso_add(struct rp_queue *q, const struct urb_rec *r, const uint8_t *data,
    uint32_t data_len, uint64_t recno, int in)
{
	struct rp_item	*it;
	uint32_t	 i, off, n;

	q->iso = 1;
	for (i = 0; i < r->niso; i++) {
		off = r->iso[i].off < data_len ? r->iso[i].off : data_len;
		n = r->iso[i].len < data_len - off ? r->iso[i].len :
		    data_len - off;
		if (dec_grow(&q->it, q->n, &q->cap, sizeof *q->it) != 0)
			return -1;
		it = &q->it[q->n];
		it->len = n;
		it->asked = r->iso[i].len;
		it->status = in ? r->iso[i].status : 0;
		it->recno = recno;
		it->ts_ns = r->ts_ns;
		if ((it->data = dec_memdup(data + off, n)) == NULL)
			return -1;
		q->n++;
	}
	return 0;
}

/* A control transfer done: its answer kept, the descriptors taken. */
static int
ctrl_add(struct replay *rp, const struct rp_pending *s,
    const struct urb_rec *c)
{
	struct rp_ctrl	*k;
	int		 in = (s->setup[0] & USB_DIR_IN) != 0;
	uint32_t	 n = in ? c->data_len : 0;

	if (s->setup[0] == 0 && s->setup[1] == USB_REQ_SET_CONFIGURATION &&
	    c->status == 0 && rp->config_ns == 0)
		rp->config_ns = c->ts_ns;
	if (in && c->status == 0 && s->setup[0] == 0x80 && s->setup[1] ==
	    USB_REQ_GET_DESCRIPTOR) {
		if (s->setup[3] == USB_DT_DEVICE && n >= USB_DT_DEVICE_SIZE)
			memcpy(rp->device, c->data, USB_DT_DEVICE_SIZE);
		if (s->setup[3] == USB_DT_CONFIG && s->setup[2] == 0 &&
		    n > rp->config_len) {
			free(rp->config);
			if ((rp->config = dec_memdup(c->data, n)) == NULL)
				return -1;
			rp->config_len = n;
		}
	}
	if (dec_grow(&rp->ctrl, rp->nctrl, &rp->capctrl, sizeof *rp->ctrl))
		return -1;
	k = &rp->ctrl[rp->nctrl];
	memcpy(k->setup, s->setup, 8);
	k->status = c->status;
	k->len = n;
	k->recno = s->recno;
	if ((k->data = dec_memdup(c->data, n)) == NULL)
		return -1;
	rp->nctrl++;
	return 0;
}

/* The device of the capture: bus.dev in *bus, *dev (0: choose). */
static int
rp_read(struct usb_devmodel *dm, const char *file, int *bus, int *dev)
{
	struct replay	*rp = dm->priv;
	struct rp_pending pend[RP_PENDING], *s;
	struct cap_source *src;
	struct urb_rec	 r;
	struct drv_event ev;
	char		 err[512];
	uint64_t	 recno = 0;
	size_t		 np = 0, i;
	int		 rc, ok = 1, in;

	if (cap_open(file, &src, err, sizeof err) != 0) {
		dm_note(dm, "replay: %s", err);
		return -1;
	}
	while ((rc = cap_next(src, &r, &ev)) > 0) {
		if (rc != CAP_URB)
			continue;
		recno++;
		if (*dev != 0 && (r.busnum != *bus || r.devnum != *dev))
			continue;
		in = (r.epnum & USB_DIR_IN) != 0;
		if (r.type == 'S') {
			if (np == RP_PENDING) {
				free(pend[0].data);
				memmove(pend, pend + 1, --np * sizeof *pend);
			}
			s = &pend[np];
			memset(s, 0, sizeof *s);
			s->id = r.id;
			s->ep = r.epnum;
			s->recno = recno;
			s->asked = r.len_urb;
			if (r.flag_setup == 0)
				memcpy(s->setup, r.setup, 8);
			if (!in && (s->data = dec_memdup(r.data, r.data_len)) ==
			    NULL) {
				ok = 0;
				break;
			}
			s->len = in ? 0 : r.data_len;
			np++;
			/* an isochronous OUT's packets as the host sent them */
			if (r.xfer_type == XFER_ISO && !in && *dev != 0 &&
			    iso_add(&rp->out[r.epnum & 0x0f], &r, r.data,
			    r.data_len, recno, 0) != 0) {
				ok = 0;
				break;
			}
			continue;
		}
		for (i = 0; i < np && pend[i].id != r.id; i++)
			;
		if (i == np)
			continue;	/* its submission not recorded */
		s = &pend[i];
		if (*dev == 0) {
			/* the first device to describe itself, no hub */
			if ((s->ep & 0x0f) != 0 || s->setup[0] != 0x80 ||
			    s->setup[1] != USB_REQ_GET_DESCRIPTOR ||
			    s->setup[3] != USB_DT_DEVICE ||
			    r.data_len < USB_DT_DEVICE_SIZE ||
			    r.data[4] == USB_CLASS_HUB) {
				free(s->data);
				*s = pend[--np];
				continue;
			}
			*bus = r.busnum;
			*dev = r.devnum;
		}
		if ((s->ep & 0x0f) == 0)
			ok = ctrl_add(rp, s, &r) == 0;
		else if (r.xfer_type != XFER_ISO)
			ok = queue_add(in ? &rp->in[s->ep & 0x0f] :
			    &rp->out[s->ep & 0x0f], s, &r, in) == 0;
		else if (in)
			ok = iso_add(&rp->in[s->ep & 0x0f], &r, r.data,
			    r.data_len, s->recno, 1) == 0;
		/* what a Bulk-Only interface's commands are made of */
		if (ok && r.xfer_type == XFER_BULK)
			ok = rp_msc_record(rp->msc, in, in ? r.data : s->data,
			    in ? r.data_len : s->len, in ? r.len_urb :
			    s->asked, r.status, s->recno) == 0;
		free(s->data);
		*s = pend[--np];
		if (!ok)
			break;
	}
	for (i = 0; i < np; i++)
		free(pend[i].data);
	if (rc < 0)
		dm_note(dm, "replay: %s: %s", file, src->err);
	cap_close(src);
	if (rc < 0 || !ok)
		return -1;
	if (rp->device[0] != USB_DT_DEVICE_SIZE || rp->config_len <
	    USB_DT_CONFIG_SIZE) {
		dm_note(dm, "replay: %s: device %d.%d's device and "
		    "configuration descriptors are not in it", file, *bus,
		    *dev);
		return -1;
	}
	return 0;
}

static int
rp_init(struct usb_devmodel *dm, const char *args)
{
	struct replay	*rp = dm->priv;
	char		 file[1024];
	const char	*sp;
	const uint8_t	*p;
	int		 bus = 0, dev = 0, bot = 0, bulk[2] = { 0, 0 };
	size_t		 n, k, off;
	char		 tok[16], c;

	if (args == NULL || *args == '\0')
		return -1;
	/* FILE [BUS.DEV] [strict], from the end: a file name may hold
	 * spaces */
	n = strlen(args);
	if (n > 7 && strcmp(args + n - 7, " strict") == 0) {
		rp->strict = 1;
		n -= 7;
	}
	for (sp = args + n; sp > args && sp[-1] != ' '; sp--)
		;
	k = (size_t)(args + n - sp);
	if (sp > args && k < sizeof tok) {
		memcpy(tok, sp, k);
		tok[k] = '\0';
		if (sscanf(tok, "%d.%d%c", &bus, &dev, &c) == 2)
			n = (size_t)(sp - 1 - args);
		else
			bus = dev = 0;
	}
	if (n == 0 || n >= sizeof file || bus < 0 || dev < 0 || dev > 127)
		return -1;
	memcpy(file, args, n);
	file[n] = '\0';
	if ((rp->msc = rp_msc_new()) == NULL ||
	    rp_read(dm, file, &bus, &dev) != 0) {
		rp_destroy(dm);
		return -1;
	}
	/* our own ops, our own descriptors */
	rp->ops = *dm->ops;
	rp->desc.device = rp->device;
	rp->desc.config = rp->config;
	rp->desc.config_len = rp->config_len;
	rp->ops.desc = &rp->desc;
	dm->ops = &rp->ops;
	dm_ops_changed(dm);
	/* the interrupt IN endpoints, paced as recorded; the first
	 * Bulk-Only interface's pipes (USB MSC BOT 1.0 4.3), by SCSI */
	for (off = 0; off + 7 <= rp->config_len && rp->config[off] >= 2;
	    off += rp->config[off]) {
		p = rp->config + off;
		if (p[1] == USB_DT_INTERFACE && p[0] >= 9)
			bot = p[5] == USB_CLASS_MASS_STORAGE && p[7] == 0x50;
		if (p[1] != USB_DT_ENDPOINT)
			continue;
		if ((p[2] & USB_DIR_IN) && (p[3] & 3) == USB_ENDPOINT_XFER_INT)
			rp->intr[p[2] & 0x0f] = 1;
		if (bot && (p[3] & 3) == USB_ENDPOINT_XFER_BULK)
			bulk[(p[2] & USB_DIR_IN) ? 0 : 1] = p[2];
		if (bot && bulk[0] != 0 && bulk[1] != 0 &&
		    !rp_msc_started(rp->msc, bulk[0])) {
			rp_msc_start(rp->msc, bulk[0], bulk[1]);
			/* answered by SCSI content: the queues go */
			queue_free(&rp->in[bulk[0] & 0x0f]);
			queue_free(&rp->out[bulk[1] & 0x0f]);
		}
	}
	rp_msc_done(rp->msc, dm);
	dm_note(dm, "replay: %s device %d.%d, %04x:%04x: %zu control "
	    "answers recorded", file, bus, dev, get_le16(rp->device + 8),
	    get_le16(rp->device + 10), rp->nctrl);
	return 0;
}

/* The recorded answer to setup s: the longest whose setup is the same
 * but wLength; NULL when none. */
static const struct rp_ctrl *
ctrl_find(const struct replay *rp, const struct usb_ctrlrequest *s)
{
	const struct rp_ctrl *k, *best = NULL;
	size_t		 i;

	for (i = 0; i < rp->nctrl; i++) {
		k = &rp->ctrl[i];
		if (k->setup[0] != s->bRequestType ||
		    k->setup[1] != s->bRequest ||
		    get_le16(k->setup + 2) != s->wValue ||
		    get_le16(k->setup + 4) != s->wIndex)
			continue;
		if (best == NULL || (best->status != 0 && k->status == 0) ||
		    (k->status == best->status && k->len > best->len))
			best = k;
	}
	return best;
}

static int
rp_answer(struct usb_devmodel *dm, const struct usb_ctrlrequest *s,
    uint8_t *data, int pass)
{
	struct replay	*rp = dm->priv;
	const struct rp_ctrl *k = ctrl_find(rp, s);
	uint32_t	 n;
	int		 stall;

	if (k == NULL) {
		if (pass)
			return DM_PASS;
		stall = rp->strict || (s->bRequestType & USB_DIR_IN);
		rp_note(dm, "request %02x %02x %04x %04x %04x not in the "
		    "recording: %s", s->bRequestType, s->bRequest, s->wValue,
		    s->wIndex, s->wLength, stall ? "STALLed" : "accepted");
		return stall ? DM_STALL : 0;
	}
	if (k->status != 0)
		return DM_STALL;
	n = k->len < s->wLength ? k->len : s->wLength;
	if (n > 0)
		memcpy(data, k->data, n);
	return (int)n;
}

static int
rp_get_descriptor(struct usb_devmodel *dm, const struct usb_ctrlrequest *s,
    uint8_t *data)
{
	return rp_answer(dm, s, data, 1);
}

static int
rp_control(struct usb_devmodel *dm, const struct usb_ctrlrequest *s,
    uint8_t *data)
{
	struct replay	*rp = dm->priv;

	/* Bulk-Only Mass Storage Reset (BOT 3.1) */
	if (s->bRequestType == 0x21 && s->bRequest == 0xff)
		rp_msc_reset(rp->msc);
	return rp_answer(dm, s, data, 0);
}

/* How long after `from` a recorded time `t` is, in ns: 0 when before.
 * Both come from the capture, any value (saturated, never overflows). */
static uint64_t
ns_after(int64_t t, int64_t from)
{
	if (t <= from)
		return 0;
	return (uint64_t)t - (uint64_t)from;
}

/*
 * An isochronous IN packet: the next recorded, whatever the time (the
 * host asks once a service interval).  A packet recorded with an error is
 * answered as the wire gave it: -EXDEV (missed) and what else carried
 * nothing as no data, -EOVERFLOW as babble, -EPROTO, -EILSEQ and -ETIME
 * as no answer (Documentation/driver-api/usb/error-codes.rst).  After the
 * last, zero-length packets.
 */
static int
iso_in(struct usb_devmodel *dm, struct rp_queue *q, int ep, uint8_t *buf,
    size_t max)
{
	struct rp_item	*it;
	size_t		 n;

	if (q->at >= q->n) {
		if (!q->said)
			rp_note(dm, "IN 0x%02x: the host reads on after the "
			    "last of the %zu isochronous packets recorded: "
			    "zero-length packets", ep, q->n);
		q->said = 1;
		return DM_NAK;
	}
	it = &q->it[q->at++];
	switch (it->status) {
	case 0:
		break;
	case -75:			/* -EOVERFLOW */
		return DM_BABBLE;
	case -71:			/* -EPROTO */
	case -84:			/* -EILSEQ */
	case -62:			/* -ETIME */
		return DM_XACTERR;
	default:
		return DM_NAK;
	}
	n = it->len < max ? it->len : max;
	memcpy(buf, it->data, n);
	return (int)n;
}

/* An isochronous OUT packet, compared with the next recorded; the first
 * that differs said (a stream's later ones would only repeat it). */
static int
iso_out(struct usb_devmodel *dm, struct rp_queue *q, int ep,
    const uint8_t *buf, size_t len)
{
	struct rp_item	*it;

	if (q->at >= q->n) {
		if (!q->said)
			rp_note(dm, "OUT 0x%02x: more sent than the %zu "
			    "isochronous packets recorded: accepted", ep,
			    q->n);
		q->said = 1;
		return DM_ACK;
	}
	it = &q->it[q->at++];
	if (!q->differs && (len != it->len || (len > 0 &&
	    memcmp(it->data, buf, len) != 0))) {
		rp_note(dm, "OUT 0x%02x: isochronous packet %zu (%zu bytes) "
		    "differs from record %llu's (%u bytes); later "
		    "differences not said", ep, q->at, len,
		    (unsigned long long)it->recno, it->len);
		q->differs = 1;
	}
	return DM_ACK;
}

static int
rp_data_in(struct usb_devmodel *dm, int ep, uint8_t *buf, size_t max)
{
	struct replay	*rp = dm->priv;
	struct rp_queue	*q = &rp->in[ep & 0x0f];
	struct rp_item	*it;
	size_t		 n;

	if (rp_msc_started(rp->msc, ep))
		return rp_msc_in(rp->msc, buf, max);
	if (q->iso)
		return iso_in(dm, q, ep, buf, max);
	if (q->zlp) {
		q->zlp = 0;
		return 0;
	}
	/* an interrupt endpoint's data no sooner than it came */
	if (q->at < q->n && rp->intr[ep & 0x0f] && rp->config_ns != 0 &&
	    ns_after(q->it[q->at].ts_ns, rp->config_ns) >
	    rp->now_ns - rp->t0_ns)
		return DM_NAK;
	if (q->at >= q->n) {
		if (!q->said && (q->n > 0 || rp->strict))
			rp_note(dm, "IN 0x%02x: the host reads on after the "
			    "last of the %zu transfers recorded: %s", ep,
			    q->n, rp->strict ? "STALLed" : "NAKed");
		q->said = 1;
		return rp->strict ? DM_STALL : DM_NAK;
	}
	it = &q->it[q->at];
	if (it->status == -32) {	/* -EPIPE: the device STALLed */
		q->at++;
		return DM_STALL;
	}
	n = it->len - q->pos;
	if (n > max)
		n = max;
	memcpy(buf, it->data + q->pos, n);
	q->pos += (uint32_t)n;
	if (q->pos >= it->len) {
		/* a transfer that ended short on a packet boundary ended
		 * with a zero-length packet */
		q->zlp = n == max && it->len < it->asked;
		q->at++;
		q->pos = 0;
	}
	return (int)n;
}

static int
rp_data_out(struct usb_devmodel *dm, int ep, const uint8_t *buf, size_t len)
{
	struct replay	*rp = dm->priv;
	struct rp_queue	*q = &rp->out[ep & 0x0f];
	struct rp_item	*it;

	if (rp_msc_started(rp->msc, ep))
		return rp_msc_out(rp->msc, dm, buf, len);
	if (q->iso)
		return iso_out(dm, q, ep, buf, len);
	if (q->at >= q->n) {
		if (!q->said)
			rp_note(dm, "OUT 0x%02x: more sent than the %zu "
			    "transfers recorded: %s", ep, q->n, rp->strict ?
			    "STALLed" : "accepted");
		q->said = 1;
		return rp->strict ? DM_STALL : DM_ACK;
	}
	it = &q->it[q->at];
	if (it->status == -32) {
		q->at++;
		return DM_STALL;
	}
	if (q->pos + len > it->len ||
	    memcmp(it->data + q->pos, buf, len) != 0) {
		rp_note(dm, "OUT 0x%02x: data differs from record %llu's "
		    "from byte %u on%s", ep, (unsigned long long)it->recno,
		    q->pos, rp->strict ? ": STALLed" : "");
		if (rp->strict) {
			q->at++;
			q->pos = 0;
			return DM_STALL;
		}
	}
	q->pos += (uint32_t)len;
	if (q->pos >= it->len || len == 0) {
		q->at++;
		q->pos = 0;
	}
	return DM_ACK;
}

static void
rp_tick(struct usb_devmodel *dm, uint64_t now_ns)
{
	struct replay	*rp = dm->priv;

	rp->now_ns = now_ns;
}

static void
rp_reset(struct usb_devmodel *dm)
{
	struct replay	*rp = dm->priv;

	rp_msc_reset(rp->msc);
}

static void
rp_set_config(struct usb_devmodel *dm, int value)
{
	struct replay	*rp = dm->priv;

	(void)value;
	rp->t0_ns = rp->now_ns;
}

/* Placeholders: replaced by the recording's in rp_init. */
static const uint8_t rp_none_device[USB_DT_DEVICE_SIZE] = { 18, 1 };
static const struct dm_descriptors rp_none = {
	.device = rp_none_device,
};

const struct usb_devmodel_ops dm_replay_ops = {
	.name = "replay",
	.priv_size = sizeof(struct replay),
	.desc = &rp_none,
	.init = rp_init,
	.destroy = rp_destroy,
	.reset = rp_reset,
	.control = rp_control,
	.data_in = rp_data_in,
	.data_out = rp_data_out,
	.get_descriptor = rp_get_descriptor,
	.tick = rp_tick,
	.set_config = rp_set_config,
};
