/*
 * capture/cap-usbll.c - bus-level captures (LINKTYPE_USB_2_0 288, and
 * 293 low, 294 full, 295 high speed) read into the record model: every
 * packet is a record (its fields decoded by decode/dec-usbll.c), and the
 * packets that end a piece of a transfer carry that transfer's URB
 * meaning, so that pairing, device state and every decoder work on a
 * wire-level capture as on usbmon.
 *
 * Transactions (USB 2.0 section 8.5): a token (SETUP, OUT, IN, PING),
 * then a data packet and a handshake, or a handshake only.  Transfers
 * (8.5.3 for control): a SETUP transaction with the 8-byte request, data
 * transactions of the request's direction until wLength bytes or a short
 * packet, a status transaction the other way.  Where the URB meaning goes
 * follows Wireshark's usbll dissector (epan/dissectors/packet-usbll.c),
 * so that the fields of both land on the same frames:
 *   - a control request is a submit ('S') on the DATA0 of its SETUP
 *     transaction, except an OUT request with data, whose submit is the
 *     last packet of its data stage (setup and data together);
 *   - the answer of an IN request is the completion ('C') on the last
 *     data packet of its data stage (the data reassembled); an OUT or
 *     no-data request completes on the device's zero-length status
 *     packet; a STALL completes either with -EPIPE;
 *   - a bulk or interrupt OUT data packet is a submit with its data, the
 *     device's handshake its completion (ACK or NYET: 0, STALL: -EPIPE; a
 *     NAK leaves it open: the host sends the same data again); an IN data
 *     packet is a completion with its data (its submit is the IN token
 *     on the wire, which has no URB of its own).
 * Everything else (SOF, tokens, NAKs, handshakes of control stages) is a
 * packet record ('P', USBLL_XFER_PACKET).  A NAK counts the polls of its
 * endpoint in a row.  Endpoint types and sizes are learned from the
 * configuration descriptors the capture shows (before: bulk, and the
 * speed's largest packet); a mass-storage CBW tells where the data phase
 * after it ends.  A packet whose CRC is wrong is shown but
 * means nothing: the receiver ignores it (USB 2.0 8.3.5).
 *
 * A sniffer's bus events (cap_usbll_bus) come in between: after a bus
 * reset every device is back at address 0 unconfigured (USB 2.0 9.1.1.3,
 * 9.2.6.3), so no transfer goes on and nothing learned of any address
 * holds; a detected speed is the speed of the packets that follow (the
 * size of a packet that ends a transfer; r->ll.speed stays the link
 * type's, which a writer keeps).
 */
#include <stdlib.h>
#include <string.h>

#include "capture.h"

#define LL_MAXLEN	65535		/* wLength's range */
#define LL_XFER_MAX	(1024 * 1024)	/* a bulk transfer put together */

/* What is known of one endpoint (and direction) of one address. */
struct ll_ep {
	uint8_t		 xfer;		/* XFER_*, learned, else 0xff */
	uint16_t	 mps;		/* wMaxPacketSize, 0 until known */
	uint32_t	 naks;		/* NAKs in a row */
	uint64_t	 id;		/* the URB id of the open transfer */
	/* bulk/interrupt OUT: a submit waits for its handshake */
	int		 out_open;
	uint32_t	 out_len;
	/* bulk/interrupt: the full-size packets of a transfer so far */
	uint8_t		*xbuf;
	uint32_t	 xgot, xcap;
	uint32_t	 xpend;		/* OUT: bytes of the packet awaiting
					   its handshake */
	/* control (the OUT slot of the endpoint) */
	int		 stage;		/* LL_ST_* */
	uint8_t		 setup[8];
	uint16_t	 wlen;
	uint8_t		*buf;
	uint32_t	 got;
};

#define LL_ST_IDLE	0
#define LL_ST_DATA	1		/* data stage */
#define LL_ST_STATUS	2		/* status stage, not completed */
#define LL_ST_DONE	3		/* status stage, already completed */

struct cap_usbll {
	uint8_t		 speed;		/* the link type's (r->ll.speed) */
	uint8_t		 bus_speed;	/* a bus event's, else 0 */
	/* the transaction: its token, and whether data came */
	int		 have_tok;
	uint8_t		 tok_pid, tok_addr, tok_endp;
	int		 data_seen;
	struct ll_ep	*ep[128 * 16 * 2];	/* [addr][endp][in] */
	uint32_t	 bot[128][2];	/* [addr][in]: the data phase the
					   last CBW announced, or 0 */
	uint64_t	 seq;
};

struct cap_usbll *
cap_usbll_new(uint32_t linktype)
{
	struct cap_usbll *st;

	if ((st = calloc(1, sizeof *st)) == NULL)
		return NULL;
	switch (linktype) {
	case 293:
		st->speed = USBLL_SPEED_LOW;
		break;
	case 294:
		st->speed = USBLL_SPEED_FULL;
		break;
	case 295:
		st->speed = USBLL_SPEED_HIGH;
		break;
	default:
		st->speed = USBLL_SPEED_ANY;
		break;
	}
	return st;
}

/* Forget every endpoint of every address. */
static void
ep_free_all(struct cap_usbll *st)
{
	size_t	 i;

	for (i = 0; i < nitems(st->ep); i++) {
		if (st->ep[i] != NULL) {
			free(st->ep[i]->buf);
			free(st->ep[i]->xbuf);
			free(st->ep[i]);
			st->ep[i] = NULL;
		}
	}
}

void
cap_usbll_free(struct cap_usbll *st)
{
	if (st == NULL)
		return;
	ep_free_all(st);
	free(st);
}

void
cap_usbll_bus(struct cap_usbll *st, int what, uint8_t speed)
{
	if (what == BUS_EV_SPEED && speed != USBLL_SPEED_ANY)
		st->bus_speed = speed;
	if (what != BUS_EV_RESET)
		return;
	ep_free_all(st);
	memset(st->bot, 0, sizeof st->bot);
	st->have_tok = 0;
	st->data_seen = 0;
}

int
cap_usbll_linktype(uint32_t linktype)
{
	return linktype == 288 || (linktype >= 293 && linktype <= 295);
}

static struct ll_ep *
ep_get(struct cap_usbll *st, uint8_t addr, uint8_t endp, int in)
{
	struct ll_ep	**e = &st->ep[((addr & 0x7f) * 16 + (endp & 0x0f)) *
			    2 + (in != 0)];

	if (*e == NULL && (*e = calloc(1, sizeof **e)) != NULL)
		(*e)->xfer = 0xff;
	return *e;
}

/* The URB id of a bulk or interrupt endpoint's transfers (control
 * transfers count from 1): the token's address, endpoint, direction. */
static uint64_t
ep_id(const struct cap_usbll *st, int in)
{
	return (uint64_t)1 << 40 | (uint64_t)st->tok_addr << 16 |
	    (uint64_t)st->tok_endp << 8 | (in ? 0x80 : 0);
}

/* The largest packet of an endpoint whose descriptor was not seen. */
static uint16_t
ep_mps(const struct cap_usbll *st, const struct ll_ep *e)
{
	uint8_t	 speed = st->bus_speed != 0 ? st->bus_speed : st->speed;

	if (e->mps != 0)
		return e->mps;
	if (speed == USBLL_SPEED_LOW)
		return 8;
	return speed == USBLL_SPEED_HIGH && e->xfer == XFER_BULK ? 512 : 64;
}

/* A descriptor answer tells the endpoints' types and sizes. */
static void
learn(struct cap_usbll *st, uint8_t addr, const uint8_t *setup,
    const uint8_t *p, uint32_t n)
{
	struct ll_ep	*e;
	uint32_t	 i;
	static const uint8_t types[4] = { XFER_CTRL, XFER_ISO, XFER_BULK,
	    XFER_INT };

	if (setup[0] != 0x80 || setup[1] != 6)
		return;			/* not GET_DESCRIPTOR (device) */
	if (setup[3] == 1 && n >= 8) {
		if ((e = ep_get(st, addr, 0, 0)) != NULL)
			e->mps = p[7];
		if ((e = ep_get(st, addr, 0, 1)) != NULL)
			e->mps = p[7];
		return;
	}
	if (setup[3] != 2)
		return;
	for (i = 0; i + 2 <= n && p[i] >= 2; i += p[i]) {
		if (p[i + 1] != 5 || p[i] < 7 || i + 7 > n)
			continue;
		if ((e = ep_get(st, addr, p[i + 2] & 0x0f,
		    p[i + 2] & 0x80)) == NULL)
			continue;
		e->xfer = types[p[i + 3] & 3];
		e->mps = get_le16(p + i + 4) & 0x7ff;
	}
}

/* r becomes an event of endpoint e's transfer. */
static void
as_urb(struct urb_rec *r, uint8_t type, uint8_t xfer, uint8_t epnum,
    uint64_t id)
{
	r->type = type;
	r->xfer_type = xfer;
	r->epnum = epnum;
	r->id = id;
	r->flag_setup = '-';
	r->flag_data = 0;
}

static void
control_data(struct cap_usbll *st, struct ll_ep *e, struct urb_rec *r,
    const uint8_t *d, uint32_t n)
{
	int	 in = (e->setup[0] & 0x80) != 0;

	if (e->buf == NULL && (e->buf = malloc(LL_MAXLEN)) == NULL)
		return;
	if (n > LL_MAXLEN - e->got)
		n = LL_MAXLEN - e->got;
	memcpy(e->buf + e->got, d, n);
	e->got += n;
	if (e->got < e->wlen && n == ep_mps(st, e))
		return;			/* more to come */
	if (in) {
		as_urb(r, 'C', XFER_CTRL, 0x80 | st->tok_endp, e->id);
		r->data = e->buf;
		r->data_len = r->len_urb = r->len_cap = e->got;
		learn(st, st->tok_addr, e->setup, e->buf, e->got);
		e->stage = LL_ST_DONE;
	} else {
		as_urb(r, 'S', XFER_CTRL, st->tok_endp, e->id);
		r->flag_setup = 0;
		memcpy(r->setup, e->setup, 8);
		r->data = e->buf;
		r->data_len = r->len_cap = e->got;
		r->len_urb = e->wlen;
		e->stage = LL_ST_STATUS;
	}
}

static void
on_data(struct cap_usbll *st, struct urb_rec *r, const uint8_t *d,
    uint32_t n)
{
	struct ll_ep	*e, *c;
	int		 in = st->tok_pid == USBLL_PID_IN;

	if (st->tok_pid == USBLL_PID_SETUP) {
		if (n != 8 || (c = ep_get(st, st->tok_addr, st->tok_endp,
		    0)) == NULL)
			return;
		memcpy(c->setup, d, 8);
		c->wlen = get_le16(d + 6);
		c->got = 0;
		c->id = ++st->seq;
		c->stage = c->wlen > 0 ? LL_ST_DATA : LL_ST_STATUS;
		if (c->wlen > 0 && !(d[0] & 0x80))
			return;		/* the submit is the data stage's */
		as_urb(r, 'S', XFER_CTRL, st->tok_endp | (d[0] & 0x80),
		    c->id);
		r->flag_setup = 0;
		memcpy(r->setup, d, 8);
		r->flag_data = (d[0] & 0x80) ? '<' : 0;
		r->len_urb = c->wlen;
		return;
	}
	if (st->tok_pid != USBLL_PID_IN && st->tok_pid != USBLL_PID_OUT)
		return;
	/* a control transfer in progress on this endpoint */
	c = ep_get(st, st->tok_addr, st->tok_endp, 0);
	if (c != NULL && c->stage != LL_ST_IDLE &&
	    (c->xfer == 0xff || c->xfer == XFER_CTRL)) {
		if (c->stage == LL_ST_DATA &&
		    in == ((c->setup[0] & 0x80) != 0)) {
			control_data(st, c, r, d, n);
			return;
		}
		if (c->stage == LL_ST_DATA)
			c->stage = (c->setup[0] & 0x80) ? LL_ST_DONE :
			    LL_ST_STATUS;	/* a data stage cut short */
		if (n == 0 && c->stage == LL_ST_STATUS && in) {
			/* the device's status: the OUT request is done */
			as_urb(r, 'C', XFER_CTRL, st->tok_endp, c->id);
			r->flag_data = '>';
			c->stage = LL_ST_IDLE;
			return;
		}
		if (n == 0) {
			c->stage = LL_ST_IDLE;
			return;		/* the host's status of an IN one */
		}
	}
	if ((e = ep_get(st, st->tok_addr, st->tok_endp, in)) == NULL)
		return;
	if (e->id == 0)
		e->id = ep_id(st, in);
	/*
	 * A bulk transfer is its full-size packets and the short one that
	 * ends it (USB 2.0 5.8.3), put together as Wireshark does: the URB
	 * event is on the last packet, with all the data.  An OUT packet
	 * counts once its handshake accepts it.  (An interrupt or
	 * isochronous packet is a transfer of its own, as for Wireshark.)
	 */
	e->xpend = 0;
	if ((e->xfer == XFER_BULK || e->xfer == 0xff) &&
	    (n == ep_mps(st, e) || e->xgot > 0)) {
		if (e->xgot + n > e->xcap) {
			uint8_t	*nb;
			uint32_t cap = e->xcap ? e->xcap : 4096;

			while (cap < e->xgot + n)
				cap *= 2;
			if ((nb = realloc(e->xbuf, cap)) == NULL)
				return;
			e->xbuf = nb;
			e->xcap = cap;
		}
		memcpy(e->xbuf + e->xgot, d, n);
		if (n == ep_mps(st, e) && e->xgot + n < LL_XFER_MAX &&
		    !(st->bot[st->tok_addr][in] != 0 &&
		    e->xgot + n >= st->bot[st->tok_addr][in])) {
			/* more to come */
			if (in)
				e->xgot += n;
			else
				e->xpend = n;
			return;
		}
		d = e->xbuf;
		n += e->xgot;
		e->xgot = 0;
	}
	st->bot[st->tok_addr][in] = 0;
	if (!in && n == 31 && memcmp(d, "USBC", 4) == 0)
		/* a bulk-only CBW (USB Mass Storage Class Bulk-Only
		 * Transport 5.1): its data phase ends after
		 * dCBWDataTransferLength bytes, even on a full packet */
		st->bot[st->tok_addr][(d[12] & 0x80) != 0] = get_le32(d + 8);
	as_urb(r, in ? 'C' : 'S', e->xfer == 0xff || e->xfer == XFER_CTRL ?
	    XFER_BULK : e->xfer, st->tok_endp | (in ? 0x80 : 0), e->id);
	r->data = d;
	r->data_len = r->len_urb = r->len_cap = n;
	if (!in) {
		if (e->xfer == XFER_ISO)
			r->type = 'C';	/* no handshake will come */
		else {
			e->out_open = 1;
			e->out_len = n;
		}
	}
}

static void
on_handshake(struct cap_usbll *st, struct urb_rec *r)
{
	struct ll_ep	*e, *c;
	int		 in = st->tok_pid == USBLL_PID_IN;
	uint8_t		 pid = r->ll.pid;

	if ((e = ep_get(st, st->tok_addr, st->tok_endp, in)) == NULL)
		return;
	if (pid == USBLL_PID_NAK) {
		r->ll.naks = ++e->naks;
		e->xpend = 0;
		return;
	}
	e->naks = 0;
	if (!in && e->xpend > 0 && (pid == USBLL_PID_ACK ||
	    pid == USBLL_PID_NYET)) {
		e->xgot += e->xpend;	/* a full packet accepted */
		e->xpend = 0;
		return;
	}
	if (pid == USBLL_PID_STALL)
		e->xgot = e->xpend = 0;
	c = ep_get(st, st->tok_addr, st->tok_endp, 0);
	if (pid == USBLL_PID_STALL && c != NULL &&
	    (c->stage == LL_ST_DATA || c->stage == LL_ST_STATUS) &&
	    st->tok_pid != USBLL_PID_SETUP) {
		as_urb(r, 'C', XFER_CTRL, st->tok_endp | (c->setup[0] & 0x80),
		    c->id);
		r->status = -32;	/* -EPIPE */
		c->stage = LL_ST_IDLE;
		return;
	}
	if (c != NULL && c->stage != LL_ST_IDLE)
		return;			/* a control stage's handshake */
	if (!in && e->out_open && st->data_seen) {
		as_urb(r, 'C', e->xfer == 0xff ? XFER_BULK : e->xfer,
		    st->tok_endp, e->id);
		r->len_urb = e->out_len;
		r->flag_data = '>';
		e->out_open = 0;
		if (pid == USBLL_PID_STALL)
			r->status = -32;
		return;
	}
	if (in && pid == USBLL_PID_STALL) {
		if (e->id == 0)
			e->id = ep_id(st, 1);
		as_urb(r, 'C', e->xfer == 0xff ? XFER_BULK : e->xfer,
		    0x80 | st->tok_endp, e->id);
		r->status = -32;
	}
}

int
cap_usbll_packet(struct cap_usbll *st, const uint8_t *p, uint32_t caplen,
    struct urb_rec *r)
{
	struct urb_ll	*ll = &r->ll;
	int		 kind;

	memset(r, 0, sizeof *r);
	r->origin = URB_ORIGIN_USBLL;
	r->type = 'P';
	r->xfer_type = USBLL_XFER_PACKET;
	r->flag_setup = '-';
	r->flag_data = 'Z';
	ll->raw = p;
	ll->raw_len = caplen;
	ll->speed = st->speed;
	(void)dec_usbll_parse(ll);
	if (caplen == 0)
		return 0;
	kind = dec_usbll_kind(p[0]);
	switch (kind) {
	case USBLL_K_TOKEN:
		/* a damaged token addresses nobody (8.3.5: the function
		 * ignores it) */
		st->have_tok = caplen == 3 &&
		    ll->crc5_status == USBLL_CRC_GOOD;
		st->tok_pid = p[0];
		st->tok_addr = ll->addr;
		st->tok_endp = ll->endp;
		st->data_seen = 0;
		break;
	case USBLL_K_DATA:
	case USBLL_K_HANDSHAKE:
		if (!st->have_tok)
			break;
		ll->addr = st->tok_addr;
		ll->endp = st->tok_endp;
		ll->tok = st->tok_pid;
		ll->have_addr = 1;
		if (kind == USBLL_K_DATA) {
			ll->from_dev = st->tok_pid == USBLL_PID_IN;
			st->data_seen = 1;
			if (caplen >= 3 &&
			    ll->crc16_status == USBLL_CRC_GOOD)
				on_data(st, r, p + 1, caplen - 3);
		} else {
			ll->from_dev = st->tok_pid != USBLL_PID_IN ||
			    !st->data_seen;
			on_handshake(st, r);
			st->have_tok = 0;	/* the transaction is over */
		}
		break;
	case USBLL_K_SOF:
	case USBLL_K_SPLIT:
		st->have_tok = 0;
		break;
	default:
		break;
	}
	r->devnum = ll->addr;
	if (r->type == 'P')
		r->epnum = ll->endp | (ll->from_dev ? 0x80 : 0);
	return 0;
}

struct cap_usbll *
cap_usbll_clone(const struct cap_usbll *st)
{
	struct cap_usbll *c;
	const struct ll_ep *e;
	size_t		 i;

	if ((c = malloc(sizeof *c)) == NULL)
		return NULL;
	*c = *st;
	for (i = 0; i < nitems(c->ep); i++) {
		if ((e = st->ep[i]) == NULL)
			continue;
		if ((c->ep[i] = malloc(sizeof *e)) == NULL)
			goto fail;
		*c->ep[i] = *e;
		c->ep[i]->buf = NULL;
		c->ep[i]->xbuf = NULL;
		c->ep[i]->xcap = 0;
		if (e->xgot + e->xpend > 0) {
			if ((c->ep[i]->xbuf = malloc(e->xcap)) == NULL)
				goto fail;
			c->ep[i]->xcap = e->xcap;
			memcpy(c->ep[i]->xbuf, e->xbuf, e->xgot + e->xpend);
		}
		if (e->buf == NULL || e->got == 0)
			continue;	/* allocated again when needed */
		if ((c->ep[i]->buf = malloc(LL_MAXLEN)) == NULL)
			goto fail;
		memcpy(c->ep[i]->buf, e->buf, e->got);
	}
	return c;
fail:
	/* ep[i] is this copy's (or NULL), those after still the original's */
	for (i++; i < nitems(c->ep); i++)
		c->ep[i] = NULL;
	cap_usbll_free(c);
	return NULL;
}
