/*
 * hcd/usbip.c - device models served over USB/IP (hcd/usbip.h).
 *
 * Each CMD_SUBMIT is an URB; it is carried out as a host controller
 * would, in transactions on the model (dm_transact): a control transfer
 * as its SETUP, data and status stages, a bulk or interrupt transfer as
 * packets of the endpoint's wMaxPacketSize until a short one or the
 * length, an isochronous one as one transaction a packet, a packet an
 * interval of the wall clock (its URB done when its last is).  A NAK leaves
 * the URB queued (and the later URBs of its endpoint behind it) until the
 * next run; a STALL ends it with -EPIPE, babble with -EOVERFLOW, three
 * transaction errors in a row with -EPROTO (EHCI's CERR of 3), as Linux's
 * host controller drivers report them (Documentation/driver-api/usb/
 * error-codes.rst).  The RET_SUBMIT then goes back with the data.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hcd/usbip.h"

#define IP_MAX_URBS	4096		/* queued on one device */
#define IP_XACT_RETRIES	3		/* EHCI qTD CERR */
#define IP_SPEED_HIGH	3		/* enum usb_device_speed */
#define URB_SHORT_NOT_OK 0x0001		/* include/linux/usb.h */
#define URB_ZERO_PACKET	0x0040

struct ip_iso {
	uint32_t	 offset;
	uint32_t	 length;
	uint32_t	 actual;
	int32_t		 status;
};

struct ip_urb {
	struct usbip_cmd c;
	uint8_t		*buf;		/* c.length bytes */
	uint32_t	 actual;
	int		 stage;		/* control: IP_SETUP, _DATA, _STATUS */
	int		 errs;		/* transaction errors in a row */
	struct ip_iso	*iso;		/* c.npackets of them */
	int32_t		 iso_at;
	int32_t		 iso_errs;
};

enum { IP_SETUP, IP_DATA, IP_STATUS };

struct usbip_dev {
	struct usb_devmodel *dm;
	int		 busnum;
	int		 devnum;
	char		 busid[USBIP_BUSID_SIZE];
	uint16_t	 maxp[32];	/* by endpoint: OUT n at n, IN at 16+n */
	uint8_t		 type[32];	/* bmAttributes & 3 */
	struct ip_urb	**q;
	size_t		 nq, capq;
	uint64_t	 tick_ns;	/* the model's next tick */
	uint64_t	 now_ns;	/* usbip_dev_run's */
	uint64_t	 iso_next[32];	/* by endpoint: its next packet's slot */
	usbip_rec_fn	*rec;		/* usbip_dev_record */
	void		*rec_arg;
	struct urb_iso	 iso[USBIP_MAX_ISO];	/* a record's descriptors */
};

static int
ep_index(int epaddr)
{
	return (epaddr & 0xf) + ((epaddr & USB_DIR_IN) ? 16 : 0);
}

/* The endpoints' packet sizes and types, from the configuration's
 * endpoint descriptors (USB 2.0 9.6.6), every alternate setting. */
static void
dev_endpoints(struct usbip_dev *d)
{
	const struct dm_descriptors *dd = d->dm->ops->desc;
	const uint8_t	*p = dd->config;
	size_t		 off, len = dd->config_len;
	int		 i;

	d->maxp[0] = d->maxp[16] = dd->device[7];
	for (off = 0; off + 2 <= len && p[off] >= 2; off += p[off]) {
		if (p[off + 1] != USB_DT_ENDPOINT || p[off] < 7 ||
		    off + 7 > len)
			continue;
		i = ep_index(p[off + 2]);
		d->maxp[i] = get_le16(p + off + 4) & 0x7ff;
		d->type[i] = p[off + 3] & 3;
	}
}

struct usbip_dev *
usbip_dev_new(struct usb_devmodel *dm, int busnum, int devnum, int port)
{
	struct usbip_dev *d;

	if (dm == NULL || (d = calloc(1, sizeof *d)) == NULL)
		return NULL;
	d->dm = dm;
	d->busnum = busnum;
	d->devnum = devnum;
	snprintf(d->busid, sizeof d->busid, "%d-%d", busnum, port);
	dev_endpoints(d);
	return d;
}

static void
urb_free(struct ip_urb *u)
{
	if (u == NULL)
		return;
	free(u->buf);
	free(u->iso);
	free(u);
}

void
usbip_dev_reset(struct usbip_dev *d)
{
	size_t	 i;

	for (i = 0; i < d->nq; i++)
		urb_free(d->q[i]);
	d->nq = 0;
}

void
usbip_dev_free(struct usbip_dev *d)
{
	if (d == NULL)
		return;
	usbip_dev_reset(d);
	free(d->q);
	dm_destroy(d->dm);
	free(d);
}

const char *
usbip_dev_busid(const struct usbip_dev *d)
{
	return d->busid;
}

uint32_t
usbip_dev_devid(const struct usbip_dev *d)
{
	return (uint32_t)d->busnum << 16 | (uint32_t)d->devnum;
}

struct usb_devmodel *
usbip_dev_model(const struct usbip_dev *d)
{
	return d->dm;
}

void
usbip_dev_record(struct usbip_dev *d, usbip_rec_fn *fn, void *arg)
{
	d->rec = fn;
	d->rec_arg = arg;
}

/* usbmon's transfer types (XFER_*) by USB's (bmAttributes & 3) */
static const uint8_t xfer_of_usb[4] = { XFER_CTRL, XFER_ISO, XFER_BULK,
	XFER_INT };

/* u as an 'S' or 'C' record of usbmon's, handed to the recorder. */
static void
record(struct usbip_dev *d, const struct ip_urb *u, int type, int32_t status)
{
	struct urb_rec	 r;
	int		 in = u->c.direction == USBIP_DIR_IN;
	int		 epaddr = (int)u->c.ep | (in ? USB_DIR_IN : 0);
	int32_t		 i, n = u->iso != NULL ? u->c.npackets : 0;

	if (d->rec == NULL)
		return;
	memset(&r, 0, sizeof r);
	r.id = u->c.seqnum;
	r.type = (uint8_t)type;
	r.xfer_type = u->c.ep == 0 ? XFER_CTRL :
	    xfer_of_usb[d->type[ep_index(epaddr)]];
	r.epnum = (uint8_t)epaddr;
	r.devnum = (uint8_t)d->devnum;
	r.busnum = (uint16_t)d->busnum;
	r.flag_setup = type == 'S' && u->c.ep == 0 ? 0 : '-';
	if (r.flag_setup == 0)
		memcpy(r.setup, u->c.setup, 8);
	r.status = type == 'S' ? -EINPROGRESS : status;
	r.len_urb = type == 'S' ? u->c.length : u->actual;
	r.interval = u->c.interval;
	r.start_frame = u->c.start_frame;
	r.xfer_flags = u->c.flags;
	/* the data that went: OUT at submission, IN at completion */
	if (type == 'S' ? !in : in) {
		r.data = u->buf;
		r.data_len = type == 'S' ? u->c.length : u->actual;
		/* an isochronous IN's: to the end of the last packet's
		 * data (mon_bin_collate_isodesc, drivers/usb/mon/mon_bin.c) */
		if (type == 'C' && n > 0)
			r.data_len = 0;
		for (i = 0; type == 'C' && i < n; i++)
			if (u->iso[i].actual > 0 && u->iso[i].offset +
			    u->iso[i].actual > r.data_len)
				r.data_len = u->iso[i].offset +
				    u->iso[i].actual;
	}
	r.flag_data = r.data_len > 0 ? 0 : type == 'S' ? (in ? '<' : 0) :
	    (in ? 0 : '>');
	for (i = 0; i < n; i++) {
		d->iso[i].status = type == 'S' ? -EXDEV : u->iso[i].status;
		d->iso[i].off = u->iso[i].offset;
		d->iso[i].len = type == 'S' ? u->iso[i].length :
		    u->iso[i].actual;
		d->iso[i].usbd = 0;
	}
	r.iso = n > 0 ? d->iso : NULL;
	r.niso = r.ndesc = (uint32_t)n;
	r.iso_numdesc = n;
	r.len_cap = (uint32_t)n * 16 + r.data_len;
	d->rec(d->rec_arg, &r);
}

int
usbip_dev_gone(const struct usbip_dev *d)
{
	return d->dm->gone;
}

/* ------------------------------------------------------------------------
 * Messages.
 */

int
usbip_parse_cmd(const uint8_t *b, struct usbip_cmd *c)
{
	memset(c, 0, sizeof *c);
	c->command = get_be32(b);
	c->seqnum = get_be32(b + 4);
	c->devid = get_be32(b + 8);
	c->direction = get_be32(b + 12);
	c->ep = get_be32(b + 16);
	switch (c->command) {
	case USBIP_CMD_SUBMIT:
		c->flags = get_be32(b + 20);
		c->length = get_be32(b + 24);
		c->start_frame = (int32_t)get_be32(b + 28);
		c->npackets = (int32_t)get_be32(b + 32);
		c->interval = (int32_t)get_be32(b + 36);
		memcpy(c->setup, b + 40, 8);
		break;
	case USBIP_CMD_UNLINK:
		c->unlink_seqnum = get_be32(b + 20);
		break;
	default:
		return -1;
	}
	if (c->direction > USBIP_DIR_IN || c->ep > 15)
		return -1;
	return 0;
}

int64_t
usbip_cmd_extra(const struct usbip_cmd *c)
{
	int64_t	 n = 0;

	if (c->command != USBIP_CMD_SUBMIT)
		return 0;
	if (c->length > USBIP_MAX_LEN || c->npackets > USBIP_MAX_ISO)
		return -1;
	if (c->direction == USBIP_DIR_OUT)
		n += c->length;
	if (c->npackets > 0)
		n += (int64_t)c->npackets * USBIP_ISO_DESC;
	return n;
}

size_t
usbip_dev_info(const struct usbip_dev *d, uint8_t *out, int intfs)
{
	const struct dm_descriptors *dd = d->dm->ops->desc;
	const uint8_t	*p = dd->config;
	size_t		 off, n = USBIP_DEV_SIZE;
	int		 nintf = 0;

	memset(out, 0, USBIP_DEV_SIZE);
	snprintf((char *)out, 256, "/sys/devices/platform/urbscope/usb%d/%s",
	    d->busnum, d->busid);
	memcpy(out + 256, d->busid, strlen(d->busid));
	put_be32(out + 288, (uint32_t)d->busnum);
	put_be32(out + 292, (uint32_t)d->devnum);
	put_be32(out + 296, IP_SPEED_HIGH);
	put_be16(out + 300, get_le16(dd->device + 8));	/* idVendor */
	put_be16(out + 302, get_le16(dd->device + 10));	/* idProduct */
	put_be16(out + 304, get_le16(dd->device + 12));	/* bcdDevice */
	out[306] = dd->device[4];			/* class triple */
	out[307] = dd->device[5];
	out[308] = dd->device[6];
	out[309] = d->dm->config;
	out[310] = dd->device[17];			/* configurations */
	out[311] = dd->config_len >= 5 ? dd->config[4] : 0;
	if (!intfs)
		return n;
	/* each interface's first (alternate setting 0) descriptor */
	for (off = 0; off + 2 <= dd->config_len && p[off] >= 2;
	    off += p[off]) {
		if (p[off + 1] != USB_DT_INTERFACE || p[off] < 9 ||
		    off + 9 > dd->config_len || p[off + 3] != 0 ||
		    nintf == 32 || nintf == out[311])
			continue;
		out[n] = p[off + 5];
		out[n + 1] = p[off + 6];
		out[n + 2] = p[off + 7];
		out[n + 3] = 0;
		n += USBIP_INTF_SIZE;
		nintf++;
	}
	/* as many as the count says, whatever the descriptors hold */
	for (; nintf < out[311] && nintf < 32; nintf++) {
		memset(out + n, 0, USBIP_INTF_SIZE);
		n += USBIP_INTF_SIZE;
	}
	return n;
}

static void
put_basic(uint8_t *h, uint32_t command, uint32_t seqnum)
{
	memset(h, 0, USBIP_HDR);
	put_be32(h, command);
	put_be32(h + 4, seqnum);
}

/* The RET_SUBMIT of u, with its IN data and iso descriptors, onto out. */
static void
ret_submit(const struct ip_urb *u, int32_t status, struct sbuf *out)
{
	uint8_t		 h[USBIP_HDR], desc[USBIP_ISO_DESC];
	uint32_t	 actual = u->actual, errs = 0;
	int32_t		 i;

	put_basic(h, USBIP_RET_SUBMIT, u->c.seqnum);
	if (u->iso != NULL) {
		/* an isochronous IN's data goes packed, each packet's
		 * actual bytes after the other (stub_send_ret_submit) */
		actual = 0;
		for (i = 0; i < u->c.npackets; i++) {
			if (u->c.direction == USBIP_DIR_IN)
				actual += u->iso[i].actual;
			errs += u->iso[i].status != 0;
		}
		if (u->c.direction == USBIP_DIR_OUT)
			actual = u->actual;
	}
	put_be32(h + 20, (uint32_t)status);
	put_be32(h + 24, actual);
	put_be32(h + 28, (uint32_t)u->c.start_frame);
	put_be32(h + 32, u->iso != NULL ? (uint32_t)u->c.npackets : 0);
	put_be32(h + 36, errs);
	sb_putn(out, (const char *)h, sizeof h);
	if (u->c.direction == USBIP_DIR_IN) {
		if (u->iso == NULL)
			sb_putn(out, (const char *)u->buf, u->actual);
		else
			for (i = 0; i < u->c.npackets; i++)
				sb_putn(out, (const char *)u->buf +
				    u->iso[i].offset, u->iso[i].actual);
	}
	for (i = 0; u->iso != NULL && i < u->c.npackets; i++) {
		put_be32(desc, u->iso[i].offset);
		put_be32(desc + 4, u->iso[i].length);
		put_be32(desc + 8, u->iso[i].actual);
		put_be32(desc + 12, (uint32_t)u->iso[i].status);
		sb_putn(out, (const char *)desc, sizeof desc);
	}
}

int
usbip_dev_submit(struct usbip_dev *d, const struct usbip_cmd *c,
    const uint8_t *extra)
{
	struct ip_urb	*u;
	const uint8_t	*p = extra;
	int32_t		 i;
	uint64_t	 end;

	if (d->nq >= IP_MAX_URBS || usbip_cmd_extra(c) < 0 ||
	    (u = calloc(1, sizeof *u)) == NULL)
		return -1;
	u->c = *c;
	if ((u->buf = calloc(1, c->length > 0 ? c->length : 1)) == NULL)
		goto fail;
	if (c->direction == USBIP_DIR_OUT) {
		memcpy(u->buf, p, c->length);
		p += c->length;
	}
	if (c->npackets > 0) {
		if ((u->iso = calloc((size_t)c->npackets, sizeof *u->iso)) ==
		    NULL)
			goto fail;
		for (i = 0; i < c->npackets; i++, p += USBIP_ISO_DESC) {
			u->iso[i].offset = get_be32(p);
			u->iso[i].length = get_be32(p + 4);
			end = (uint64_t)u->iso[i].offset + u->iso[i].length;
			if (end > c->length)
				goto fail;	/* outside the buffer */
		}
	}
	if (dec_grow(&d->q, d->nq, &d->capq, sizeof *d->q) != 0)
		goto fail;
	d->q[d->nq++] = u;
	record(d, u, 'S', 0);
	return 0;
fail:
	urb_free(u);
	return -1;
}

void
usbip_dev_unlink(struct usbip_dev *d, const struct usbip_cmd *c,
    struct sbuf *out)
{
	uint8_t		 h[USBIP_HDR];
	int32_t		 status = 0;
	size_t		 i;

	for (i = 0; i < d->nq; i++) {
		if (d->q[i]->c.seqnum != c->unlink_seqnum)
			continue;
		record(d, d->q[i], 'C', -ECONNRESET);
		urb_free(d->q[i]);
		memmove(d->q + i, d->q + i + 1, (d->nq - i - 1) *
		    sizeof *d->q);
		d->nq--;
		status = -ECONNRESET;
		break;
	}
	put_basic(h, USBIP_RET_UNLINK, c->seqnum);
	put_be32(h + 20, (uint32_t)status);
	sb_putn(out, (const char *)h, sizeof h);
}

/* ------------------------------------------------------------------------
 * URBs as transactions.
 */

/* Run: 1 done (*status set), 0 waiting for a NAKed transaction. */
#define IP_DONE		1
#define IP_WAIT		0

/*
 * A transaction that did not go on (r): IP_WAIT on a NAK, IP_DONE with
 * the URB's status, or -1 to try it again (a transaction error, the third
 * not yet).  A positive r is more data than asked: babble.
 */
static int
xact_end(struct ip_urb *u, int r, int32_t *status)
{
	if (r > 0)
		r = DM_BABBLE;
	switch (r) {
	case DM_NAK:
		return IP_WAIT;
	case DM_STALL:
		*status = -EPIPE;
		return IP_DONE;
	case DM_BABBLE:
		*status = -EOVERFLOW;
		return IP_DONE;
	case DM_NODEV:
		*status = -ENODEV;
		return IP_DONE;
	case DM_XACTERR:
		if (++u->errs >= IP_XACT_RETRIES) {
			*status = -EPROTO;
			return IP_DONE;
		}
		return -1;		/* try again now */
	}
	*status = -EPROTO;		/* an answer that makes no sense */
	return IP_DONE;
}

static int
run_control(struct usbip_dev *d, struct ip_urb *u, int32_t *status)
{
	struct usb_devmodel *dm = d->dm;
	uint8_t		 setup[8], zero[1];
	int		 in = (u->c.setup[0] & USB_DIR_IN) != 0;
	uint32_t	 want = get_le16(u->c.setup + 6), room;
	size_t		 mp = d->maxp[0] > 0 ? d->maxp[0] : 64;
	int		 r, w;

	if (want > u->c.length)
		want = u->c.length;
	for (;;) {
		switch (u->stage) {
		case IP_SETUP:
			memcpy(setup, u->c.setup, 8);
			r = dm_transact(dm, DM_PID_SETUP, dm->address, 0,
			    setup, 8);
			if (r == DM_ACK) {
				u->stage = want > 0 ? IP_DATA : IP_STATUS;
				u->errs = 0;
				continue;
			}
			break;
		case IP_DATA:
			room = want - u->actual;
			if (room > mp)
				room = (uint32_t)mp;
			r = dm_transact(dm, in ? DM_PID_IN : DM_PID_OUT,
			    dm->address, 0, u->buf + u->actual, room);
			if (r >= 0 && in && (uint32_t)r <= room) {
				u->actual += (uint32_t)r;
				u->errs = 0;
				if ((size_t)r < mp || u->actual >= want)
					u->stage = IP_STATUS;
				continue;
			}
			if (r == DM_ACK) {
				u->actual += room;
				u->errs = 0;
				if (u->actual >= want)
					u->stage = IP_STATUS;
				continue;
			}
			break;
		case IP_STATUS:
			/* the other direction, no data */
			r = dm_transact(dm, in ? DM_PID_OUT : DM_PID_IN,
			    dm->address, 0, zero, 0);
			if (r == DM_ACK || r == 0) {
				*status = (u->c.flags & URB_SHORT_NOT_OK) &&
				    in && u->actual < want ? -EREMOTEIO : 0;
				return IP_DONE;
			}
			break;
		default:
			*status = -EPROTO;
			return IP_DONE;
		}
		if ((w = xact_end(u, r, status)) >= 0)
			return w;
	}
}

static int
run_bulk(struct usbip_dev *d, struct ip_urb *u, int32_t *status)
{
	struct usb_devmodel *dm = d->dm;
	int		 in = u->c.direction == USBIP_DIR_IN;
	int		 epaddr = (int)u->c.ep | (in ? USB_DIR_IN : 0);
	size_t		 mp = d->maxp[ep_index(epaddr)];
	uint32_t	 room;
	int		 r, w, zlp;

	if (mp == 0)
		mp = 512;
	for (;;) {
		room = u->c.length - u->actual;
		/* an OUT ends with a zero-length packet when asked and the
		 * length is a multiple of the packet size, or is zero */
		zlp = !in && room == 0 && u->stage == IP_SETUP &&
		    (u->c.length == 0 || ((u->c.flags & URB_ZERO_PACKET) &&
		    u->c.length % mp == 0));
		if (room == 0 && !zlp) {
			*status = 0;
			return IP_DONE;
		}
		if (room > mp)
			room = (uint32_t)mp;
		r = dm_transact(dm, in ? DM_PID_IN : DM_PID_OUT, dm->address,
		    (int)u->c.ep, u->buf + u->actual, room);
		if (in && r >= 0 && (uint32_t)r <= room) {
			u->actual += (uint32_t)r;
			u->errs = 0;
			if ((size_t)r < mp) {
				*status = (u->c.flags & URB_SHORT_NOT_OK) &&
				    u->actual < u->c.length ? -EREMOTEIO : 0;
				return IP_DONE;
			}
			continue;
		}
		if (!in && r == DM_ACK) {
			u->actual += room;
			u->errs = 0;
			if (zlp)
				u->stage = IP_STATUS;	/* sent */
			continue;
		}
		if ((w = xact_end(u, r, status)) >= 0)
			return w;
	}
}

/*
 * Isochronous: a transaction a packet, no handshake (a NAK is no data),
 * one packet an interval as a host controller's schedule takes them
 * (USB 2.0 5.6; the URB's interval in microframes, the devices served
 * being high speed): an URB of N packets is done N intervals after it
 * starts, so that a driver streaming through it (snd-usb-audio) runs at
 * the endpoint's real pace, not as fast as the server answers.
 */
#define ISO_UFRAME_NS	125000
#define ISO_LATE_NS	10000000	/* an endpoint idle longer restarts */

static int
run_iso(struct usbip_dev *d, struct ip_urb *u, int32_t *status)
{
	struct usb_devmodel *dm = d->dm;
	int		 in = u->c.direction == USBIP_DIR_IN;
	uint64_t	*next, step;
	struct ip_iso	*pk;
	int		 r;

	next = &d->iso_next[ep_index((int)u->c.ep | (in ? USB_DIR_IN : 0))];
	step = (uint64_t)(u->c.interval > 0 && u->c.interval <= 1024 ?
	    u->c.interval : 1) * ISO_UFRAME_NS;
	if (*next + ISO_LATE_NS < d->now_ns)
		*next = d->now_ns;
	for (; u->iso_at < u->c.npackets && *next <= d->now_ns;
	    u->iso_at++, *next += step) {
		pk = &u->iso[u->iso_at];
		r = dm_transact(dm, in ? DM_PID_IN : DM_PID_OUT, dm->address,
		    (int)u->c.ep, u->buf + pk->offset, pk->length);
		if (in && r >= 0 && (uint32_t)r <= pk->length)
			pk->actual = (uint32_t)r;
		else if (!in && r == DM_ACK)
			pk->actual = pk->length;
		else if (r == DM_NAK)
			pk->actual = 0;
		else
			pk->status = r == DM_BABBLE || r > 0 ? -EOVERFLOW :
			    r == DM_NODEV ? -ENODEV : -EPROTO;
		u->actual += pk->actual;
	}
	if (u->iso_at < u->c.npackets)
		return IP_WAIT;
	*status = 0;
	return IP_DONE;
}

static int
run_urb(struct usbip_dev *d, struct ip_urb *u, int32_t *status)
{
	int	 epaddr;

	if (d->dm->gone) {
		*status = -ENODEV;
		return IP_DONE;
	}
	if (u->c.ep == 0)
		return run_control(d, u, status);
	epaddr = (int)u->c.ep | (u->c.direction == USBIP_DIR_IN ?
	    USB_DIR_IN : 0);
	if (u->iso != NULL ||
	    d->type[ep_index(epaddr)] == USB_ENDPOINT_XFER_ISOC)
		return u->iso != NULL ? run_iso(d, u, status) :
		    (*status = -EINVAL, IP_DONE);
	return run_bulk(d, u, status);
}

size_t
usbip_dev_run(struct usbip_dev *d, uint64_t now_ns, struct sbuf *out)
{
	struct usb_devmodel *dm = d->dm;
	struct ip_urb	*u;
	uint32_t	 blocked = 0, bit;
	int32_t		 status;
	size_t		 i, k;
	int		 epaddr;

	d->now_ns = now_ns;
	if (d->tick_ns == 0)
		d->tick_ns = now_ns;
	/* the model's ticks, a millisecond apart, ten at most a run */
	for (k = 0; k < 10 && d->tick_ns <= now_ns; k++) {
		dm_tick(dm, d->tick_ns);
		d->tick_ns += 1000000;
	}
	if (d->tick_ns <= now_ns)
		d->tick_ns = now_ns + 1000000;
	for (i = 0; i < d->nq; ) {
		u = d->q[i];
		epaddr = (int)u->c.ep | (u->c.direction == USBIP_DIR_IN &&
		    u->c.ep != 0 ? USB_DIR_IN : 0);
		bit = 1u << ep_index(epaddr);
		/* an endpoint's URBs go in the order submitted */
		if ((blocked & bit) || run_urb(d, u, &status) == IP_WAIT) {
			blocked |= bit;
			i++;
			continue;
		}
		ret_submit(u, status, out);
		record(d, u, 'C', status);
		urb_free(u);
		memmove(d->q + i, d->q + i + 1, (d->nq - i - 1) *
		    sizeof *d->q);
		d->nq--;
	}
	return d->nq;
}
