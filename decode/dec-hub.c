/*
 * decode/dec-hub.c - hub class data: the answers of GET_STATUS to a port
 * (wPortStatus, wPortChange) and to the hub (wHubStatus, wHubChange), and
 * the status change bitmap of the hub's interrupt endpoint.  The requests
 * themselves are dec-ch9.c's (usbhub.setup.*), the hub descriptor
 * dec-desc.c's.
 *
 * Facts: USB 2.0 11.24.2.6 (hub status), 11.24.2.7 (port status, tables
 * 11-21 and 11-22), 11.12.4 (status change endpoint), the LPM ECN (L1,
 * bit 5); Linux include/uapi/linux/usb/ch11.h.  Names: Wireshark's
 * (epan/dissectors/packet-usb-hub.c, usbhub.status.port.*,
 * usbhub.change.port.*); Wireshark 4.0 names C_PORT_SUSPEND,
 * C_PORT_OVER_CURRENT and C_PORT_RESET usbhub.status.port.*, and so do we,
 * for -T fields to give what tshark gives.  What it does not decode (the
 * hub's status, L1, the bitmap) has names in its style.
 */
#include "class.h"

#define F DEC_FIELD
F(f_pstat, "Port Status", "usbhub.status.port", DK_HEX, 2, NULL, 0);
F(f_ps_conn, "PORT_CONNECTION", "usbhub.status.port.connection", DK_BOOL, 2,
    NULL, 0x0001);
F(f_ps_en, "PORT_ENABLE", "usbhub.status.port.enable", DK_BOOL, 2, NULL,
    0x0002);
F(f_ps_susp, "PORT_SUSPEND", "usbhub.status.port.suspend", DK_BOOL, 2, NULL,
    0x0004);
F(f_ps_oc, "PORT_OVER_CURRENT", "usbhub.status.port.overcurrent", DK_BOOL,
    2, NULL, 0x0008);
F(f_ps_rst, "PORT_RESET", "usbhub.status.port.reset", DK_BOOL, 2, NULL,
    0x0010);
F(f_ps_pwr, "PORT_POWER", "usbhub.status.port.power", DK_BOOL, 2, NULL,
    0x0100);
F(f_ps_ls, "PORT_LOW_SPEED", "usbhub.status.port.low_speed", DK_BOOL, 2,
    NULL, 0x0200);
F(f_ps_hs, "PORT_HIGH_SPEED", "usbhub.status.port.high_speed", DK_BOOL, 2,
    NULL, 0x0400);
F(f_ps_test, "PORT_TEST", "usbhub.status.port.test", DK_BOOL, 2, NULL,
    0x0800);
F(f_ps_ind, "PORT_INDICATOR", "usbhub.status.port.indicator", DK_BOOL, 2,
    NULL, 0x1000);
F(f_pchg, "Port Change", "usbhub.change.port", DK_HEX, 2, NULL, 0);
F(f_pc_conn, "C_PORT_CONNECTION", "usbhub.change.port.connection", DK_BOOL,
    2, NULL, 0x0001);
F(f_pc_en, "C_PORT_ENABLE", "usbhub.change.port.enable", DK_BOOL, 2, NULL,
    0x0002);
F(f_pc_susp, "C_PORT_SUSPEND", "usbhub.status.port.suspend", DK_BOOL, 2,
    NULL, 0x0004);
F(f_pc_oc, "C_PORT_OVER_CURRENT", "usbhub.status.port.overcurrent", DK_BOOL,
    2, NULL, 0x0008);
F(f_pc_rst, "C_PORT_RESET", "usbhub.status.port.reset", DK_BOOL, 2, NULL,
    0x0010);
F(f_hstat, "Hub Status", "usbhub.status.hub", DK_HEX, 2, NULL, 0);
F(f_hs_lp, "HUB_LOCAL_POWER", "usbhub.status.hub.local_power", DK_BOOL, 2,
    NULL, 0x0001);
F(f_hs_oc, "HUB_OVER_CURRENT", "usbhub.status.hub.overcurrent", DK_BOOL, 2,
    NULL, 0x0002);
F(f_hchg, "Hub Change", "usbhub.change.hub", DK_HEX, 2, NULL, 0);
F(f_hc_lp, "C_HUB_LOCAL_POWER", "usbhub.change.hub.local_power", DK_BOOL, 2,
    NULL, 0x0001);
F(f_hc_oc, "C_HUB_OVER_CURRENT", "usbhub.change.hub.overcurrent", DK_BOOL,
    2, NULL, 0x0002);
F(f_bm_hub, "Hub status changed", "usbhub.change.bitmap.hub", DK_BOOL, 1,
    NULL, 0x01);
F(f_bm_port, "Port status changed", "usbhub.change.bitmap.port", DK_UINT, 1,
    NULL, 0);
/* tshark leaves the bitmap as the USB layer's leftover bytes */
F(f_capdata, "Leftover Capture Data", "usb.capdata", DK_BYTES, 0, NULL, 0);
#undef F

/* The bits of tshark 4.0's usbhub.status.port_tree and change.port_tree
 * (its -T json subtrees): no PORT_L1 (USB 2.0 LPM ECN) among them. */
static const struct dec_field *const pstat_bits[] = {
	&f_ps_conn, &f_ps_en, &f_ps_susp, &f_ps_oc, &f_ps_rst, &f_ps_pwr,
	&f_ps_ls, &f_ps_hs, &f_ps_test, &f_ps_ind, NULL
};
static const struct dec_field *const pchg_bits[] = {
	&f_pc_conn, &f_pc_en, &f_pc_susp, &f_pc_oc, &f_pc_rst, NULL
};
static const struct dec_field *const hstat_bits[] = {
	&f_hs_lp, &f_hs_oc, NULL
};
static const struct dec_field *const hchg_bits[] = {
	&f_hc_lp, &f_hc_oc, NULL
};

#define RECIP_DEVICE	0
#define RECIP_OTHER	3

/* Is r the answer of a hub's GET_STATUS (to the hub or to a port)? */
static int
is_status(const struct dec_cls_arg *a)
{
	const struct dec_setup *s = &a->info->setup;

	return a->r->xfer_type == XFER_CTRL && a->r->type == 'C' &&
	    a->r->status == 0 && a->r->data_len > 0 && s->bRequest == 0 &&
	    SETUP_DIR_IN(s) && (SETUP_RECIP(s) == RECIP_DEVICE ||
	    SETUP_RECIP(s) == RECIP_OTHER);
}

/* A status word at off with its bits; cut when the data ends in it. */
static void
hub_word(struct dec_tree *t, const struct urb_rec *r, uint32_t off,
    const struct dec_field *f, const struct dec_field *const *bits)
{
	struct dec_node	*n;
	uint32_t	 v;

	if (r->data_len < off + 2) {
		if (r->data_len <= off)
			return;
		n = dec_tree_add(t, f, DB_DATA, off, r->data_len - off, 0);
		if (n != NULL) {
			n->flags |= DN_CUT | DN_BAD;
			n->note = "the data ends inside the word";
		}
		return;
	}
	v = get_le16(r->data + off);
	dec_tree_add(t, f, DB_DATA, off, 2, v);
	dec_cls_bits(t, bits, off, 2, v);
}

static int
hub_tree(const struct dec_cls_arg *a, struct dec_tree *t)
{
	const struct urb_rec *r = a->r;
	uint32_t	 i;
	int		 port = SETUP_RECIP(&a->info->setup) == RECIP_OTHER;

	if (r->xfer_type == XFER_CTRL) {
		if (!is_status(a))
			return 0;
		hub_word(t, r, 0, port ? &f_pstat : &f_hstat,
		    port ? pstat_bits : hstat_bits);
		hub_word(t, r, 2, port ? &f_pchg : &f_hchg,
		    port ? pchg_bits : hchg_bits);
		return 1;
	}
	if (r->xfer_type != XFER_INT || !urb_is_in(r) || r->type != 'C' ||
	    r->data_len == 0)
		return 0;
	/* 11.12.4: bit 0 the hub, bit N port N */
	dec_tree_push(t, "Status change bitmap", DB_DATA, 0, r->data_len);
	dec_tree_add(t, &f_bm_hub, DB_DATA, 0, 1, r->data[0] & 1);
	for (i = 1; i < 8u * r->data_len && i < 256; i++) {
		if (r->data[i / 8] & (1 << (i % 8)))
			dec_tree_add(t, &f_bm_port, DB_DATA, i / 8, 1, i);
	}
	dec_tree_pop(t);
	dec_tree_add(t, &f_capdata, DB_DATA, 0, r->data_len, 0);
	return 1;
}

/* "connected, enabled, high-speed, power" from the names of set bits. */
static int
flags(struct sbuf *b, uint16_t v, const char *const *names, int n, int any)
{
	int	 i;

	for (i = 0; i < n; i++) {
		if ((v & (1 << i)) && names[i] != NULL) {
			sb_puts(b, any ? ", " : " ");
			sb_puts(b, names[i]);
			any = 1;
		}
	}
	return any;
}

static int
hub_summary(const struct dec_cls_arg *a, struct sbuf *b)
{
	static const char *const pstat[13] = {
		"connected", "enabled", "suspended", "over-current", "reset",
		"L1", NULL, NULL, "power", "low-speed", "high-speed", "test",
		"indicator"
	};
	static const char *const pchg[6] = {
		"connection", "enable", "suspend", "over-current", "reset", "L1"
	};
	static const char *const hstat[2] = {
		"local power lost", "over-current"
	};
	static const char *const hchg[2] = {
		"local power", "over-current"
	};
	const struct urb_rec *r = a->r;
	uint16_t	 st, ch;
	uint32_t	 i, nports = 0;
	int		 port, any = 0;

	if (r->xfer_type == XFER_CTRL) {
		if (!is_status(a) || r->data_len < 4)
			return 0;
		port = SETUP_RECIP(&a->info->setup) == RECIP_OTHER;
		st = get_le16(r->data);
		ch = get_le16(r->data + 2);
		if (port) {
			sb_puts(b, "port ");
			sb_u64(b, a->info->setup.wIndex & 0xff);
		} else
			sb_puts(b, "hub");
		sb_putc(b, ':');
		if (!flags(b, st, port ? pstat : hstat, port ? 13 : 2, 0))
			sb_puts(b, port ? " not powered" : " ok");
		if (ch != 0) {
			sb_puts(b, "; changed:");
			if (!flags(b, ch, port ? pchg : hchg, port ? 6 : 2, 0)) {
				sb_puts(b, " 0x");
				sb_hex(b, ch, 4);
			}
		}
		return 1;
	}
	if (r->xfer_type != XFER_INT || !urb_is_in(r) || r->type != 'C')
		return 0;
	for (i = 1; i < 8u * r->data_len && i < 256; i++)
		nports += (r->data[i / 8] >> (i % 8)) & 1;
	if (r->data[0] & 1) {
		sb_puts(b, "hub");
		any = 1;
	}
	for (i = 1; i < 8u * r->data_len && i < 256; i++) {
		if (!(r->data[i / 8] & (1 << (i % 8))))
			continue;
		if (any != 2) {
			sb_puts(b, any ? " and " : "");
			sb_puts(b, nports > 1 ? "ports " : "port ");
			any = 2;
		} else
			sb_puts(b, ", ");
		sb_u64(b, i);
	}
	sb_puts(b, any ? " changed" : "no change");
	return 1;
}

/* Hubs (USB 2.0 11.23.1): class 9, every subclass and protocol (single
 * or multiple TT); control requests to a hub come here as (9, 0, 0). */
const struct dec_class_ops dec_class_hub = {
	.name = "hub",
	.wsproto = "usbhub",
	.cls = 0x09, .subcls = DEC_CLS_ANY, .proto = DEC_CLS_ANY,
	.summary = hub_summary,
	.tree = hub_tree,
	.item = dec_cls_no_item,
};
