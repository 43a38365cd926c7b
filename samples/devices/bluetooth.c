/*
 * samples/devices/bluetooth.c - "bluetooth", a Bluetooth controller on
 * USB (Bluetooth Core 5.3 Vol 4 Part B, the USB transport: class
 * 0xE0/0x01/0x01).  HCI commands come as class requests on ep0 (bRequest
 * 0, Part B 2.2), events go out on interrupt IN 0x81, ACL data on bulk
 * IN 0x82 and bulk OUT 0x02; interface 1 holds the isochronous endpoints
 * 0x83/0x03 for SCO, zero-bandwidth in alt 0 and 9, 17, 25, 33 and 49
 * bytes in alts 1 to 5 (Part B 2.1.1, table 2.1).
 *
 * The controller answers the commands a host's initialisation sends
 * (Vol 4 Part E 7.x): HCI_Reset, Read Local Version Information, Read
 * BD_ADDR, Read Buffer Size, LE Set Scan Parameters, LE Set Scan Enable
 * (two LE Advertising Reports follow an enable), Create Connection
 * (Command Status, then Connection Complete for handle 0x000b) and
 * Disconnect (Command Status, Disconnection Complete); any other command
 * gets a Command Complete with status 0x01, Unknown HCI Command.  On the
 * ACL link the remote side answers L2CAP signalling (Vol 3 Part A 4):
 * an Information Request, a Connection Request (accepted, its channel
 * 0x0041), a Configuration Request, after whose response it sends its own
 * Configuration Request.
 *
 * It answers an L2CAP Echo Request with the same data (4.8, 4.9), as
 * l2ping sees.
 *
 * Setup Synchronous Connection on the ACL link (7.1.26) gets a Command
 * Status and a Synchronous Connection Complete (7.7.35) for SCO handle
 * 0x000c, CVSD; while that link is up and interface 1 is in an alt
 * setting with packets, each isochronous IN packet carries the next
 * wMaxPacketSize bytes of a stream of SCO packets (Part E 5.4.3: the
 * handle with packet status 0, a length of 48, then 48 bytes of voice,
 * a counting pattern), one packet split over as many isochronous packets
 * as it takes (Part B 2.1.1: 51 bytes in three 17-byte packets at alt 2),
 * and the SCO packets the host writes to OUT 0x03 are taken.
 *
 * "plug N bluetooth 16" sends events in pieces of at most 16 bytes, each
 * a transfer of its own, as a controller whose interrupt endpoint has
 * 16-byte packets does (btusb reads one packet a URB), and ACL packets in
 * pieces of at most 64 bytes (a full-speed bulk packet), each a transfer
 * of its own too.
 */
#include <string.h>

#include "decode/usbclass.h"
#include "samples/devices/devices.h"

#define BT_EVQ		16		/* events queued */
#define BT_ACLQ		8		/* ACL packets queued */
#define BT_EVMAX	64		/* interrupt wMaxPacketSize */
#define BT_ACLMAX	128		/* the ACL packets it sends */
#define BT_ACLPIECE	64		/* split: an ACL piece (full-speed
					   bulk wMaxPacketSize) */
#define BT_HANDLE	0x000b		/* the connection's handle */
#define BT_SCID		0x0041		/* its L2CAP channel */
#define BT_ADV_MS	5		/* scan enabled: first report after */
#define BT_SCO_HANDLE	0x000c		/* the SCO link's handle */
#define BT_SCO_LEN	48		/* its packets' voice bytes */

struct bt_pkt {
	uint8_t		 b[BT_ACLMAX];
	uint8_t		 len;
};

struct bluetooth {
	struct bt_pkt	 ev[BT_EVQ];
	size_t		 nev;
	size_t		 ev_off;	/* sent of ev[0] */
	size_t		 acl_off;	/* sent of acl[0] */
	size_t		 split;		/* piece size, 0: whole packets */
	struct bt_pkt	 acl[BT_ACLQ];
	size_t		 nacl;
	int		 scanning;
	unsigned	 adv_sent;
	uint64_t	 scan_ns;	/* when the scan was enabled */
	uint64_t	 now;		/* the last tick's time */
	int		 connected;
	uint8_t		 ident;		/* the next request's identifier */
	uint8_t		 peer[6];
	int		 sco;		/* the SCO link is up */
	uint8_t		 sco_pkt[3 + BT_SCO_LEN];
	size_t		 sco_off;	/* sent of sco_pkt */
	uint8_t		 sco_seq;	/* the voice pattern's next byte */
};

/* Bluetooth Core Vol 4 Part B 2.1: "Wireless Controller, RF, Bluetooth" */
static const uint8_t bt_device[USB_DT_DEVICE_SIZE] = {
	18, USB_DT_DEVICE, 0x00, 0x02,	/* bcdUSB 2.00 */
	0xe0, 0x01, 0x01, 64,		/* Bluetooth, ep0 64 */
	0x09, 0x12, 0x0e, 0x00,		/* 1209:000e */
	0x00, 0x01, 1, 2, 3, 1		/* bcdDevice 1.00, strings, 1 cfg */
};

static const uint8_t bt_qualifier[10] = {
	10, USB_DT_DEVICE_QUALIFIER, 0x00, 0x02, 0xe0, 0x01, 0x01, 64, 1, 0
};

/* Part B 2.1.1, table 2.1 (the endpoints' numbers are the ones
 * Wireshark's hci_usb dispatches on: 1 events, 2 ACL, 3 SCO) */
#define BT_ISOC_ALT(alt, size)					\
	9, USB_DT_INTERFACE, 1, alt, 2, 0xe0, 0x01, 0x01, 0,		\
	7, USB_DT_ENDPOINT, 0x83, USB_ENDPOINT_XFER_ISOC, size, 0, 1,	\
	7, USB_DT_ENDPOINT, 0x03, USB_ENDPOINT_XFER_ISOC, size, 0, 1
static const uint8_t bt_config[] = {
	9, USB_DT_CONFIG, 177, 0, 2, 1, 0, 0xe0, 50,
	9, USB_DT_INTERFACE, 0, 0, 3, 0xe0, 0x01, 0x01, 0,
	7, USB_DT_ENDPOINT, 0x81, USB_ENDPOINT_XFER_INT, BT_EVMAX, 0, 4,
	7, USB_DT_ENDPOINT, 0x82, USB_ENDPOINT_XFER_BULK, 0x00, 0x02, 0,
	7, USB_DT_ENDPOINT, 0x02, USB_ENDPOINT_XFER_BULK, 0x00, 0x02, 0,
	9, USB_DT_INTERFACE, 1, 0, 2, 0xe0, 0x01, 0x01, 0,
	7, USB_DT_ENDPOINT, 0x83, USB_ENDPOINT_XFER_ISOC, 0, 0, 1,
	7, USB_DT_ENDPOINT, 0x03, USB_ENDPOINT_XFER_ISOC, 0, 0, 1,
	BT_ISOC_ALT(1, 9),		/* one 8-bit voice channel */
	BT_ISOC_ALT(2, 17),		/* one 16-bit, or two 8-bit */
	BT_ISOC_ALT(3, 25),		/* three 8-bit */
	BT_ISOC_ALT(4, 33),		/* two 16-bit */
	BT_ISOC_ALT(5, 49),		/* three 16-bit */
};

static const char *const bt_strings[] = {
	"urbscope", "Bluetooth Controller", "BT-000E", NULL
};

static const struct dm_descriptors bt_desc = {
	.device = bt_device,
	.config = bt_config,
	.config_len = sizeof bt_config,
	.qualifier = bt_qualifier,
	.strings = bt_strings,
};

/* Its own address and the peers' (BD_ADDR, least significant first). */
static const uint8_t bt_addr[6] = { 0x56, 0x34, 0x12, 0xdc, 0x1b, 0x00 };
static const uint8_t adv_addr[2][6] = {
	{ 0x01, 0xef, 0xcd, 0xab, 0x89, 0xc0 },
	{ 0x66, 0x55, 0x44, 0x33, 0x22, 0x11 },
};

static void
bt_reset(struct usb_devmodel *dm)
{
	struct bluetooth *bt = dm->priv;
	size_t		 split = bt->split;

	memset(bt, 0, sizeof *bt);
	bt->split = split;
}

static int
bt_init(struct usb_devmodel *dm, const char *args)
{
	struct bluetooth *bt = dm->priv;
	uint64_t	 v;

	if (args != NULL && *args != '\0') {
		if (dm_parse_size(args, &v) != 0 || v == 0 || v > BT_EVMAX)
			return -1;
		bt->split = (size_t)v;
	}
	bt_reset(dm);
	return 0;
}

static void
bt_set_config(struct usb_devmodel *dm, int value)
{
	(void)value;
	bt_reset(dm);
}

/* Queue an event: code, then n parameter bytes (Part E 5.4.4). */
static void
bt_event(struct bluetooth *bt, uint8_t code, const uint8_t *p, size_t n)
{
	struct bt_pkt	*e;

	if (bt->nev == BT_EVQ || n + 2 > BT_EVMAX)
		return;
	e = &bt->ev[bt->nev++];
	e->b[0] = code;
	e->b[1] = (uint8_t)n;
	memcpy(e->b + 2, p, n);
	e->len = (uint8_t)(n + 2);
}

/* Command Complete (Part E 7.7.14): one more command allowed, the
 * opcode, then the command's return parameters. */
static void
bt_complete(struct bluetooth *bt, uint16_t op, const uint8_t *ret, size_t n)
{
	uint8_t	 p[BT_EVMAX];

	p[0] = 1;
	put_le16(p + 1, op);
	memcpy(p + 3, ret, n);
	bt_event(bt, 0x0e, p, n + 3);
}

/* Command Status (7.7.15). */
static void
bt_status(struct bluetooth *bt, uint16_t op, uint8_t status)
{
	uint8_t	 p[4] = { status, 1, (uint8_t)op, (uint8_t)(op >> 8) };

	bt_event(bt, 0x0f, p, sizeof p);
}

/* An LE Advertising Report (7.7.65.2) of one device: flags and a
 * complete local name (Core Supplement Part A 1.3, 1.2). */
static void
bt_adv_report(struct bluetooth *bt, unsigned i)
{
	static const char *const names[2] = { "urb-sensor", "urb-tag" };
	uint8_t	 p[BT_EVMAX];
	size_t	 nl = strlen(names[i]), n = 0;

	p[n++] = 0x02;			/* LE Advertising Report */
	p[n++] = 1;			/* one report */
	p[n++] = i == 0 ? 0x00 : 0x03;	/* ADV_IND, ADV_NONCONN_IND */
	p[n++] = i == 0 ? 0x01 : 0x00;	/* random, public */
	memcpy(p + n, adv_addr[i], 6);
	n += 6;
	p[n++] = (uint8_t)(3 + 2 + nl);
	p[n++] = 2;			/* flags */
	p[n++] = 0x01;
	p[n++] = 0x06;			/* LE General Discoverable, no BR/EDR */
	p[n++] = (uint8_t)(1 + nl);
	p[n++] = 0x09;			/* Complete Local Name */
	memcpy(p + n, names[i], nl);
	n += nl;
	p[n++] = (uint8_t)(i == 0 ? -52 : -71);	/* RSSI, dBm */
	bt_event(bt, 0x3e, p, n);
}

static void
bt_command(struct bluetooth *bt, const uint8_t *c, size_t len,
    uint64_t now)
{
	uint8_t		 r[20];
	uint16_t	 op;

	op = get_le16(c);
	memset(r, 0, sizeof r);
	switch (op) {
	case 0x0c03:			/* Reset (7.3.2) */
		bt->scanning = bt->connected = bt->sco = 0;
		bt_complete(bt, op, r, 1);
		break;
	case 0x1001:			/* Read Local Version Info (7.4.1) */
		r[1] = 0x0c;		/* HCI 5.3 */
		put_le16(r + 2, 0x0100);
		r[4] = 0x0c;		/* LMP 5.3 */
		put_le16(r + 5, 0x0002);	/* Intel Corp. */
		put_le16(r + 7, 0x2212);
		bt_complete(bt, op, r, 9);
		break;
	case 0x1009:			/* Read BD_ADDR (7.4.6) */
		memcpy(r + 1, bt_addr, 6);
		bt_complete(bt, op, r, 7);
		break;
	case 0x1005:			/* Read Buffer Size (7.4.5) */
		put_le16(r + 1, 1021);
		r[3] = 64;
		put_le16(r + 4, 8);
		put_le16(r + 6, 0);
		bt_complete(bt, op, r, 8);
		break;
	case 0x200b:			/* LE Set Scan Parameters (7.8.10) */
		r[0] = len < 3 + 7 ? 0x12 : 0;
		bt_complete(bt, op, r, 1);
		break;
	case 0x200c:			/* LE Set Scan Enable (7.8.11) */
		bt->scanning = len > 3 && c[3] != 0;
		bt->scan_ns = now;
		bt->adv_sent = 0;
		bt_complete(bt, op, r, 1);
		break;
	case 0x0405:			/* Create Connection (7.1.5) */
		if (len < 3 + 6) {
			bt_status(bt, op, 0x12);
			break;
		}
		bt_status(bt, op, 0);
		memcpy(bt->peer, c + 3, 6);
		/* Connection Complete (7.7.3): ACL, no encryption */
		put_le16(r + 1, BT_HANDLE);
		memcpy(r + 3, bt->peer, 6);
		r[9] = 0x01;
		bt_event(bt, 0x03, r, 11);
		bt->connected = 1;
		break;
	case 0x0428:			/* Setup Synchronous Conn. (7.1.26) */
		if (len < 3 + 17 || !bt->connected || bt->sco ||
		    get_le16(c + 3) != BT_HANDLE) {
			bt_status(bt, op, 0x02);  /* Unknown Connection ID */
			break;
		}
		bt_status(bt, op, 0);
		/* Synchronous Connection Complete (7.7.35): SCO, 3.75 ms
		 * interval (6 slots), no retransmission window, 48-byte
		 * packets, CVSD */
		put_le16(r + 1, BT_SCO_HANDLE);
		memcpy(r + 3, bt->peer, 6);
		r[9] = 0x00;
		r[10] = 6;
		put_le16(r + 12, BT_SCO_LEN);
		put_le16(r + 14, BT_SCO_LEN);
		r[16] = 0x02;
		bt_event(bt, 0x2c, r, 17);
		bt->sco = 1;
		bt->sco_off = 0;
		break;
	case 0x0406:			/* Disconnect (7.1.6) */
		if (len < 3 + 3 || (!(bt->connected &&
		    get_le16(c + 3) == BT_HANDLE) && !(bt->sco &&
		    get_le16(c + 3) == BT_SCO_HANDLE))) {
			bt_status(bt, op, 0x02);  /* Unknown Connection ID */
			break;
		}
		bt_status(bt, op, 0);
		/* Disconnection Complete (7.7.5): Connection Terminated
		 * By Local Host */
		memcpy(r + 1, c + 3, 2);
		r[3] = 0x16;
		bt_event(bt, 0x05, r, 4);
		if (get_le16(c + 3) == BT_SCO_HANDLE)
			bt->sco = 0;
		else
			bt->connected = bt->sco = 0;
		break;
	default:
		r[0] = 0x01;		/* Unknown HCI Command */
		bt_complete(bt, op, r, 1);
		break;
	}
}

/* Queue an L2CAP signalling command (Vol 3 Part A 4) on the link. */
static void
bt_signal(struct bluetooth *bt, uint8_t code, uint8_t ident,
    const uint8_t *p, size_t n)
{
	struct bt_pkt	*a;

	if (bt->nacl == BT_ACLQ || n + 12 > BT_ACLMAX)
		return;
	a = &bt->acl[bt->nacl++];
	/* ACL header (Part E 5.4.2): first automatically flushable */
	put_le16(a->b, BT_HANDLE | 0x2000);
	put_le16(a->b + 2, (uint16_t)(n + 8));
	/* basic L2CAP header (Vol 3 Part A 3.1): the signalling channel */
	put_le16(a->b + 4, (uint16_t)(n + 4));
	put_le16(a->b + 6, 0x0001);
	a->b[8] = code;
	a->b[9] = ident;
	put_le16(a->b + 10, (uint16_t)n);
	memcpy(a->b + 12, p, n);
	a->len = (uint8_t)(n + 12);
}

/* The remote side of the signalling channel. */
static void
bt_l2cap(struct bluetooth *bt, const uint8_t *s, size_t len)
{
	uint8_t		 r[16];
	size_t		 n;

	if (len < 4)
		return;
	memset(r, 0, sizeof r);
	switch (s[0]) {
	case 0x0a:			/* Information Request (4.10) */
		if (len < 6)
			return;
		memcpy(r, s + 4, 2);
		if (get_le16(s + 4) == 0x0002) {
			/* extended features: FCS, fixed channels */
			put_le16(r + 2, 0);
			put_le32(r + 4, 0x000000a0);
			bt_signal(bt, 0x0b, s[1], r, 8);
		} else {
			put_le16(r + 2, 1);	/* not supported */
			bt_signal(bt, 0x0b, s[1], r, 4);
		}
		break;
	case 0x02:			/* Connection Request (4.2) */
		if (len < 8)
			return;
		put_le16(r, BT_SCID);
		memcpy(r + 2, s + 6, 2);
		bt_signal(bt, 0x03, s[1], r, 8);	/* successful */
		break;
	case 0x08:			/* Echo Request (4.8): its data back */
		n = get_le16(s + 2);
		if (n > len - 4)
			n = len - 4;
		bt_signal(bt, 0x09, s[1], s + 4, n);
		break;
	case 0x04:			/* Configuration Request (4.4) */
		if (len < 8)
			return;
		/* accept, then ask the same of the other side: its
		 * channel is the one the request came from (our SCID's) */
		r[0] = 0x40;		/* the initiator's CID */
		bt_signal(bt, 0x05, s[1], r, 6);
		memset(r, 0, sizeof r);
		r[0] = 0x40;
		r[4] = 0x01;		/* MTU option, 2 bytes: 1021 */
		r[5] = 2;
		put_le16(r + 6, 1021);
		bt_signal(bt, 0x04, ++bt->ident, r, 8);
		break;
	}
}

/* An isochronous IN packet: the next bytes of the SCO stream, or none
 * without a link or in alt 0. */
static int
bt_sco_in(struct usb_devmodel *dm, uint8_t *buf, size_t max)
{
	struct bluetooth *bt = dm->priv;
	size_t		 n = 0, k, i;

	if (!bt->sco || dm->alt[1] == 0)
		return 0;
	while (n < max) {
		if (bt->sco_off == 0) {
			/* Part E 5.4.3: packet status 0, correctly
			 * received */
			put_le16(bt->sco_pkt, BT_SCO_HANDLE);
			bt->sco_pkt[2] = BT_SCO_LEN;
			for (i = 0; i < BT_SCO_LEN; i++)
				bt->sco_pkt[3 + i] = bt->sco_seq++;
		}
		k = sizeof bt->sco_pkt - bt->sco_off;
		if (k > max - n)
			k = max - n;
		memcpy(buf + n, bt->sco_pkt + bt->sco_off, k);
		n += k;
		bt->sco_off = (bt->sco_off + k) % sizeof bt->sco_pkt;
	}
	return (int)n;
}

static int
bt_data_in(struct usb_devmodel *dm, int ep, uint8_t *buf, size_t max)
{
	struct bluetooth *bt = dm->priv;
	struct bt_pkt	*q;
	size_t		*nq, *off, n;

	if (ep == 0x83)
		return bt_sco_in(dm, buf, max);
	if (ep == 0x81) {
		q = bt->ev;
		nq = &bt->nev;
	} else if (ep == 0x82) {
		q = bt->acl;
		nq = &bt->nacl;
	} else
		return DM_STALL;
	if (*nq == 0)
		return DM_NAK;
	if (bt->split > 0) {
		/* the next piece of the packet, a transfer of its own */
		off = ep == 0x81 ? &bt->ev_off : &bt->acl_off;
		n = q[0].len - *off;
		if (n > (ep == 0x81 ? bt->split : BT_ACLPIECE))
			n = ep == 0x81 ? bt->split : BT_ACLPIECE;
		if (n > max)
			return DM_BABBLE;
		memcpy(buf, q[0].b + *off, n);
		*off += n;
		if (*off < q[0].len)
			return (int)n;
		*off = 0;
		memmove(q, q + 1, --*nq * sizeof *q);
		return (int)n;
	}
	n = q[0].len;
	if (n > max)
		return DM_BABBLE;
	memcpy(buf, q[0].b, n);
	memmove(q, q + 1, --*nq * sizeof *q);
	return (int)n;
}

static int
bt_data_out(struct usb_devmodel *dm, int ep, const uint8_t *buf,
    size_t len)
{
	struct bluetooth *bt = dm->priv;

	if (ep == 0x03)			/* SCO from the host: played */
		return DM_ACK;
	if (ep != 0x02)
		return DM_STALL;
	/* ACL header, then a basic frame on the signalling channel */
	if (len >= 8 && bt->connected &&
	    (get_le16(buf) & 0x0fff) == BT_HANDLE && get_le16(buf + 6) == 1)
		bt_l2cap(bt, buf + 8, len - 8);
	return DM_ACK;
}

static int
bt_control(struct usb_devmodel *dm, const struct usb_ctrlrequest *s,
    uint8_t *data)
{
	struct bluetooth *bt = dm->priv;

	/* Part B 2.2: class request, bRequest 0 (0xe0 on old hosts) */
	if ((s->bRequestType & (USB_DIR_IN | USB_TYPE_MASK)) !=
	    USB_TYPE_CLASS || (s->bRequest != 0 && s->bRequest != 0xe0) ||
	    s->wLength < 3 || data[2] != s->wLength - 3)
		return DM_STALL;
	bt_command(bt, data, s->wLength, bt->now);
	return 0;
}

/* While scanning, a report of each of the two advertisers. */
static void
bt_tick(struct usb_devmodel *dm, uint64_t now_ns)
{
	struct bluetooth *bt = dm->priv;

	bt->now = now_ns;
	if (!bt->scanning || bt->adv_sent >= 2)
		return;
	if (now_ns - bt->scan_ns < (uint64_t)(bt->adv_sent + 1) * BT_ADV_MS *
	    1000000)
		return;
	bt_adv_report(bt, bt->adv_sent++);
}

const struct usb_devmodel_ops dm_bluetooth_ops = {
	.name = "bluetooth",
	.priv_size = sizeof(struct bluetooth),
	.desc = &bt_desc,
	.init = bt_init,
	.reset = bt_reset,
	.set_config = bt_set_config,
	.control = bt_control,
	.data_in = bt_data_in,
	.data_out = bt_data_out,
	.tick = bt_tick,
};
