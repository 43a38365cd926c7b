/*
 * decode/dec-usbll.c - bus-level USB 2.0 packets, as hardware sniffers
 * capture them (LINKTYPE_USB_2_0 288 and its speed-specific forms 293 low,
 * 294 full and 295 high speed of the tcpdump.org link-type registry: one
 * packet per record, from the PID to the CRC, without SYNC and EOP).
 *
 * Facts: USB 2.0 section 8.3 (PID check bits, the address and endpoint
 * fields, the frame number, CRC5 over 11 bits and CRC16 over the data,
 * both sent low bit first and inverted), 8.4 (token, SOF, data and
 * handshake packets) and 8.4.2 / 11.15 (the split token: hub address, SC,
 * port, S, E or U, ET, CRC5 over 19 bits).  The field names and values
 * are Wireshark's (epan/dissectors/packet-usbll.c: usbll.pid,
 * usbll.device_addr, usbll.endp, usbll.frame_num, usbll.crc5,
 * usbll.crc5.status, usbll.data, usbll.crc16, usbll.crc16.status,
 * usbll.split_*, usbll.src, usbll.dst, usbll.addr).
 */
#include <stdio.h>
#include <string.h>

#include "decode.h"

static const struct dec_name pid_names[] = {
	{ USBLL_PID_OUT, "OUT" },
	{ USBLL_PID_IN, "IN" },
	{ USBLL_PID_SOF, "SOF" },
	{ USBLL_PID_SETUP, "SETUP" },
	{ USBLL_PID_DATA0, "DATA0" },
	{ USBLL_PID_DATA1, "DATA1" },
	{ USBLL_PID_DATA2, "DATA2" },
	{ USBLL_PID_MDATA, "MDATA" },
	{ USBLL_PID_ACK, "ACK" },
	{ USBLL_PID_NAK, "NAK" },
	{ USBLL_PID_STALL, "STALL" },
	{ USBLL_PID_NYET, "NYET" },
	{ USBLL_PID_PRE, "PRE/ERR" },
	{ USBLL_PID_SPLIT, "SPLIT" },
	{ USBLL_PID_PING, "PING" },
	{ 0xf0, "Reserved" },
	{ 0, NULL }
};

static const struct dec_name crc_status[] = {
	{ USBLL_CRC_BAD, "Bad" },
	{ USBLL_CRC_GOOD, "Good" },
	{ USBLL_CRC_NONE, "Not present" },
	{ 0, NULL }
};

static const struct dec_name split_sc[] = {
	{ 0, "Start" }, { 1, "Complete" }, { 0, NULL }
};
static const struct dec_name split_s[] = {
	{ 0, "Full" }, { 1, "Low" }, { 0, NULL }
};
static const struct dec_name split_se[] = {
	{ 0, "High-speed data is the middle of the fullspeed data payload" },
	{ 1, "High-speed data is the beginning of the full-speed data "
	    "payload" },
	{ 2, "High-speed data is the end of the full-speed data payload" },
	{ 3, "High-speed data is all of the full-speed data payload" },
	{ 0, NULL }
};
static const struct dec_name split_et[] = {
	{ 0, "Control" }, { 1, "Isochronous" }, { 2, "Bulk" },
	{ 3, "Interrupt" }, { 0, NULL }
};

#define F DEC_FIELD

F(f_pid, "PID", "usbll.pid", DK_HEX, 1, pid_names, 0);
F(f_addr, "Address", "usbll.device_addr", DK_UINT, 2, NULL, 0);
F(f_endp, "Endpoint", "usbll.endp", DK_UINT, 2, NULL, 0);
F(f_frame, "Frame Number", "usbll.frame_num", DK_UINT, 2, NULL, 0);
F(f_crc5, "CRC5", "usbll.crc5", DK_HEX, 2, NULL, 0);
F(f_crc5_st, "CRC5 Status", "usbll.crc5.status", DK_UINT, 1, crc_status,
    0);
F(f_data, "Data", "usbll.data", DK_BYTES, 0, NULL, 0);
F(f_crc16, "CRC", "usbll.crc16", DK_HEX, 2, NULL, 0);
F(f_crc16_st, "CRC Status", "usbll.crc16.status", DK_UINT, 1, crc_status,
    0);
F(f_hub, "Hub Address", "usbll.split_hub_addr", DK_UINT, 3, NULL, 0);
F(f_sc, "SC", "usbll.split_sc", DK_UINT, 3, split_sc, 0);
F(f_port, "Port", "usbll.split_port", DK_UINT, 3, NULL, 0);
F(f_s, "Speed", "usbll.split_s", DK_UINT, 3, split_s, 0);
F(f_e, "E", "usbll.split_e", DK_UINT, 3, NULL, 0);
F(f_u, "U", "usbll.split_u", DK_UINT, 3, NULL, 0);
F(f_se, "Start and End", "usbll.split_se", DK_UINT, 3, split_se, 0);
F(f_et, "Endpoint Type", "usbll.split_et", DK_UINT, 3, split_et, 0);
F(f_scrc5, "CRC5", "usbll.split_crc5", DK_HEX, 3, NULL, 0);
F(f_scrc5_st, "CRC5 Status", "usbll.split_crc5.status", DK_UINT, 1,
    crc_status, 0);
F(f_src, "Source", "usbll.src", DK_STRING, 0, NULL, 0);
F(f_dst, "Destination", "usbll.dst", DK_STRING, 0, NULL, 0);
F(f_both, "Source or Destination", "usbll.addr", DK_STRING, 0, NULL, 0);

int
dec_usbll_kind(uint8_t pid)
{
	if ((pid >> 4) != (~pid & 0x0f))
		return USBLL_K_BAD;
	switch (pid) {
	case USBLL_PID_OUT:
	case USBLL_PID_IN:
	case USBLL_PID_SETUP:
	case USBLL_PID_PING:
		return USBLL_K_TOKEN;
	case USBLL_PID_SOF:
		return USBLL_K_SOF;
	case USBLL_PID_DATA0:
	case USBLL_PID_DATA1:
	case USBLL_PID_DATA2:
	case USBLL_PID_MDATA:
		return USBLL_K_DATA;
	case USBLL_PID_ACK:
	case USBLL_PID_NAK:
	case USBLL_PID_STALL:
	case USBLL_PID_NYET:
		return USBLL_K_HANDSHAKE;
	case USBLL_PID_SPLIT:
		return USBLL_K_SPLIT;
	default:
		return USBLL_K_SPECIAL;
	}
}

const char *
dec_usbll_pid_name(uint8_t pid)
{
	if (dec_usbll_kind(pid) == USBLL_K_BAD)
		return NULL;
	return dec_name_find(pid_names, pid);
}

uint8_t
dec_usbll_crc5(uint32_t v, unsigned nbits)
{
	unsigned	 i;
	uint8_t		 crc = 0x1f;

	/* x^5 + x^2 + 1, low bit first: 0x05 reflected is 0x14 */
	for (i = 0; i < nbits; i++) {
		if ((crc ^ (v >> i)) & 1)
			crc = (uint8_t)((crc >> 1) ^ 0x14);
		else
			crc >>= 1;
	}
	return (uint8_t)(~crc & 0x1f);
}

uint16_t
dec_usbll_crc16(const uint8_t *p, size_t n)
{
	uint16_t	 crc = 0xffff;
	size_t		 i;
	int		 k;

	/* x^16 + x^15 + x^2 + 1, low bit first: 0x8005 reflected */
	for (i = 0; i < n; i++) {
		crc ^= p[i];
		for (k = 0; k < 8; k++)
			crc = (crc & 1) ? (uint16_t)((crc >> 1) ^ 0xa001) :
			    (uint16_t)(crc >> 1);
	}
	return (uint16_t)~crc;
}

size_t
enc_usbll_token(uint8_t *p, uint8_t pid, uint8_t addr, uint8_t ep)
{
	uint32_t	 v = (uint32_t)(addr & 0x7f) | (uint32_t)(ep & 0x0f) << 7;

	v |= (uint32_t)dec_usbll_crc5(v, 11) << 11;
	p[0] = pid;
	put_le16(p + 1, (uint16_t)v);
	return 3;
}

size_t
enc_usbll_data(uint8_t *p, uint8_t pid, const uint8_t *d, size_t n)
{
	p[0] = pid;
	if (n > 0)
		memmove(p + 1, d, n);
	put_le16(p + 1 + n, dec_usbll_crc16(p + 1, n));
	return n + 3;
}

int
dec_usbll_parse(struct urb_ll *ll)
{
	const uint8_t	*p = ll->raw;
	uint32_t	 n = ll->raw_len, v;

	ll->crc5_status = ll->crc16_status = USBLL_CRC_NONE;
	if (n == 0)
		return -1;
	ll->pid = p[0];
	switch (dec_usbll_kind(p[0])) {
	case USBLL_K_TOKEN:
	case USBLL_K_SOF:
		if (n < 3)
			return -1;
		v = get_le16(p + 1);
		if (p[0] == USBLL_PID_SOF)
			ll->frame = v & 0x7ff;
		else {
			ll->addr = v & 0x7f;
			ll->endp = (v >> 7) & 0x0f;
			ll->have_addr = 1;
		}
		ll->crc5 = (uint16_t)(v >> 11);
		ll->crc5_status = dec_usbll_crc5(v, 11) == ll->crc5 ?
		    USBLL_CRC_GOOD : USBLL_CRC_BAD;
		return n == 3 ? 0 : -1;
	case USBLL_K_DATA:
		if (n < 3)
			return -1;
		ll->crc16 = get_le16(p + n - 2);
		ll->crc16_status = dec_usbll_crc16(p + 1, n - 3) ==
		    ll->crc16 ? USBLL_CRC_GOOD : USBLL_CRC_BAD;
		return 0;
	case USBLL_K_SPLIT:
		if (n < 4)
			return -1;
		ll->split = (uint32_t)p[1] | (uint32_t)p[2] << 8 |
		    (uint32_t)p[3] << 16;
		ll->crc5 = (uint16_t)(ll->split >> 19);
		ll->crc5_status = dec_usbll_crc5(ll->split, 19) == ll->crc5 ?
		    USBLL_CRC_GOOD : USBLL_CRC_BAD;
		return n == 4 ? 0 : -1;
	case USBLL_K_HANDSHAKE:
	case USBLL_K_SPECIAL:
		return n == 1 ? 0 : -1;
	default:
		return -1;
	}
}

const uint8_t *
dec_node_bytes(const struct urb_rec *r, const struct dec_node *n)
{
	const uint8_t	*p;
	uint32_t	 len;

	switch (n->buf) {
	case DB_SETUP:
		p = r->setup;
		len = 8;
		break;
	case DB_DATA:
		p = r->data;
		len = r->data_len;
		break;
	case DB_RAW:
		p = r->ll.raw;
		len = r->ll.raw_len;
		break;
	case DB_COPY:
		return (const uint8_t *)(uintptr_t)n->value;
	default:
		return NULL;
	}
	if (p == NULL || (uint64_t)n->off + n->len > len)
		return NULL;
	return p + n->off;
}

static void
add(struct dec_tree *t, const struct dec_field *f, uint64_t v)
{
	dec_tree_add(t, f, DB_NONE, 0, 0, v);
}

/* "host", "broadcast" or "addr.endp", as Wireshark's usbll addresses */
static void
add_ends(const struct urb_rec *r, struct dec_tree *t)
{
	const struct urb_ll *ll = &r->ll;
	const char	*dev, *src, *dst;
	struct dec_node	*n;
	const struct dec_field *fs[4] = { &f_src, &f_both, &f_dst, &f_both };
	const char	*vs[4];
	int		 i;

	if (ll->pid == USBLL_PID_SOF)
		dev = "broadcast";
	else if (ll->pid == USBLL_PID_SPLIT && ll->raw_len >= 4)
		dev = dec_tree_printf(t, "%u:%u", ll->split & 0x7f,
		    (ll->split >> 8) & 0x7f);	/* hub:port */
	else if (ll->have_addr)
		dev = dec_tree_printf(t, "%u.%u", ll->addr, ll->endp);
	else
		return;		/* a packet outside any transaction */
	if (dev == NULL)
		return;
	src = ll->from_dev ? dev : "host";
	dst = ll->from_dev ? "host" : dev;
	vs[0] = vs[1] = src;
	vs[2] = vs[3] = dst;
	for (i = 0; i < 4; i++) {
		if (fs[i] == &f_both && !t->all_bits)
			continue;	/* usbll.addr: -T fields only */
		if ((n = dec_tree_add(t, fs[i], DB_NONE, 0, 0, 0)) != NULL) {
			n->str = vs[i];
			n->flags |= DN_PLAIN;
		}
	}
}

/* A CRC and its status, marked when wrong. */
static void
add_crc(struct dec_tree *t, const struct dec_field *f,
    const struct dec_field *fst, uint16_t crc, uint8_t status)
{
	struct dec_node	*n = dec_tree_add(t, f, DB_NONE, 0, 0, crc);

	if (n != NULL && status == USBLL_CRC_BAD) {
		n->note = "wrong CRC";
		n->flags |= DN_BAD;
	}
	add(t, fst, status);
}

void
dec_usbll_tree(const struct urb_rec *r, struct dec_tree *t)
{
	const struct urb_ll *ll = &r->ll;
	struct dec_node	*n;
	uint32_t	 s = ll->split, et;

	dec_tree_push(t, "USB Link Layer", DB_NONE, 0, 0);
	if (ll->raw_len == 0) {
		dec_tree_pop(t);
		return;
	}
	n = dec_tree_add(t, &f_pid, DB_NONE, 0, 0, ll->pid);
	if (n != NULL && dec_usbll_kind(ll->pid) == USBLL_K_BAD) {
		n->note = "invalid PID: check bits wrong";
		n->flags |= DN_BAD;
	}
	switch (dec_usbll_kind(ll->pid)) {
	case USBLL_K_TOKEN:
	case USBLL_K_SOF:
		if (ll->raw_len < 3)
			break;
		if (ll->pid == USBLL_PID_SOF)
			add(t, &f_frame, ll->frame);
		else {
			add(t, &f_addr, ll->addr);
			add(t, &f_endp, ll->endp);
		}
		add_crc(t, &f_crc5, &f_crc5_st, ll->crc5, ll->crc5_status);
		break;
	case USBLL_K_DATA:
		if (ll->raw_len < 3)
			break;
		if (ll->raw_len > 3)
			dec_tree_add(t, &f_data, DB_RAW, 1, ll->raw_len - 3, 0);
		add_crc(t, &f_crc16, &f_crc16_st, ll->crc16, ll->crc16_status);
		break;
	case USBLL_K_SPLIT:
		if (ll->raw_len < 4)
			break;
		et = (s >> 17) & 3;
		add(t, &f_hub, s & 0x7f);
		add(t, &f_sc, (s >> 7) & 1);
		add(t, &f_port, (s >> 8) & 0x7f);
		if ((s >> 7) & 1) {		/* CSPLIT */
			add(t, &f_s, (s >> 15) & 1);
			add(t, &f_u, (s >> 16) & 1);
		} else if (et == 1)		/* SSPLIT, isochronous */
			add(t, &f_se, (s >> 15) & 3);
		else {
			add(t, &f_s, (s >> 15) & 1);
			add(t, &f_e, (s >> 16) & 1);
		}
		add(t, &f_et, et);
		add_crc(t, &f_scrc5, &f_scrc5_st, ll->crc5, ll->crc5_status);
		break;
	}
	add_ends(r, t);
	dec_tree_pop(t);
}

/* Is the packet the wrong length for its PID? */
static int
usbll_bad_len(const struct urb_ll *ll)
{
	switch (dec_usbll_kind(ll->pid)) {
	case USBLL_K_TOKEN:
	case USBLL_K_SOF:
		return ll->raw_len != 3;
	case USBLL_K_DATA:
		return ll->raw_len < 3;
	case USBLL_K_SPLIT:
		return ll->raw_len != 4;
	default:
		return ll->raw_len != 1;
	}
}

void
dec_usbll_summary(const struct urb_rec *r, struct sbuf *b)
{
	const struct urb_ll *ll = &r->ll;
	const char	*name = dec_usbll_pid_name(ll->pid);
	uint32_t	 s = ll->split;

	if (ll->raw_len == 0) {
		sb_puts(b, "empty packet");
		return;
	}
	if (name == NULL) {
		sb_puts(b, "invalid PID 0x");
		sb_hex(b, ll->pid, 2);
		return;
	}
	switch (dec_usbll_kind(ll->pid)) {
	case USBLL_K_SOF:
		sb_puts(b, "SOF ");
		sb_u64(b, ll->frame);
		break;
	case USBLL_K_TOKEN:
		sb_puts(b, name);
		sb_putc(b, ' ');
		sb_u64(b, ll->addr);
		sb_putc(b, '.');
		sb_u64(b, ll->endp);
		break;
	case USBLL_K_DATA:
		sb_puts(b, name);
		sb_putc(b, ' ');
		sb_u64(b, ll->raw_len >= 3 ? ll->raw_len - 3 : 0);
		sb_puts(b, ll->raw_len == 4 ? " byte" : " bytes");
		break;
	case USBLL_K_SPLIT:
		sb_puts(b, (s >> 7) & 1 ? "CSPLIT" : "SSPLIT");
		sb_puts(b, " hub ");
		sb_u64(b, s & 0x7f);
		sb_puts(b, " port ");
		sb_u64(b, (s >> 8) & 0x7f);
		sb_putc(b, ' ');
		sb_puts(b, dec_name_find(split_et, (s >> 17) & 3));
		break;
	default:
		sb_puts(b, name);
		if (ll->pid == USBLL_PID_NAK && ll->have_addr) {
			sb_puts(b, ", ");
			sb_u64(b, ll->addr);
			sb_putc(b, '.');
			sb_u64(b, ll->endp);
			sb_puts(b, ll->tok == USBLL_PID_IN ? " polled " :
			    " refused ");
			sb_u64(b, ll->naks);
			sb_puts(b, ll->naks == 1 ? " time" : " times");
		}
		break;
	}
	if (ll->crc5_status == USBLL_CRC_BAD)
		sb_puts(b, " [bad CRC5]");
	if (ll->crc16_status == USBLL_CRC_BAD)
		sb_puts(b, " [bad CRC16]");
	if (usbll_bad_len(ll))
		sb_puts(b, " [wrong length]");
}

/* ------------------------------------------------------------------------
 * Folding polls and SOFs into one line (dec_fold_*).
 */

static int
fold_packet(const struct urb_rec *r, int kind)
{
	return r->origin == URB_ORIGIN_USBLL &&
	    r->xfer_type == USBLL_XFER_PACKET && r->ll.raw_len > 0 &&
	    dec_usbll_pid_name(r->ll.pid) != NULL &&
	    dec_usbll_kind(r->ll.pid) == kind && !usbll_bad_len(&r->ll) &&
	    r->ll.crc5_status != USBLL_CRC_BAD &&
	    r->ll.crc16_status != USBLL_CRC_BAD;
}

/* An IN or PING token, which a NAK can answer with "nothing yet". */
static int
fold_poll_token(const struct urb_rec *r)
{
	return fold_packet(r, USBLL_K_TOKEN) &&
	    (r->ll.pid == USBLL_PID_IN || r->ll.pid == USBLL_PID_PING);
}

/* Is r the NAK of the token t? */
static int
fold_nak_of(const struct urb_rec *r, const struct urb_rec *t)
{
	return fold_packet(r, USBLL_K_HANDSHAKE) &&
	    r->ll.pid == USBLL_PID_NAK && r->ll.have_addr &&
	    r->ll.tok == t->ll.pid && r->ll.addr == t->ll.addr &&
	    r->ll.endp == t->ll.endp;
}

uint32_t
dec_fold_role(const struct urb_rec *r)
{
	const struct urb_ll *ll = &r->ll;

	if (fold_packet(r, USBLL_K_SOF))
		return DEC_FOLD_SOF;
	if (fold_poll_token(r))
		return DEC_FOLD_POLL | (uint32_t)ll->pid << 16 |
		    (uint32_t)ll->addr << 8 | ll->endp;
	/* fold_nak_of's NAK, of whichever poll */
	if (fold_packet(r, USBLL_K_HANDSHAKE) && ll->pid == USBLL_PID_NAK &&
	    ll->have_addr && (ll->tok == USBLL_PID_IN ||
	    ll->tok == USBLL_PID_PING))
		return DEC_FOLD_NAK | (uint32_t)ll->tok << 16 |
		    (uint32_t)ll->addr << 8 | ll->endp;
	return 0;
}

void
dec_fold_polls(struct sbuf *b, uint32_t key, uint32_t polls)
{
	const char *name = dec_usbll_pid_name((uint8_t)(key >> 16));

	sb_printf(b, "%s %u.%u polled %u time%s, NAKed", name != NULL ?
	    name : "?", (key >> 8) & 0xff, key & 0xff, polls,
	    polls == 1 ? "" : "s");
}

/* A copy of r kept past the source's next record: no pointers into it. */
static void
fold_keep(struct urb_rec *to, const struct urb_rec *r)
{
	*to = *r;
	to->data = NULL;
	to->data_len = 0;
	to->iso = NULL;
	to->niso = 0;
	to->ll.raw = NULL;
	to->ifname = NULL;
}

void
dec_fold_init(struct dec_fold *fo)
{
	memset(fo, 0, sizeof *fo);
}

static void
fold_put_sofs(struct dec_fold *fo, struct dec_fmt *f, struct sbuf *b)
{
	struct dec_fold_sofs *s = &fo->sofs;
	struct dec_info	 none;

	if (s->n == 1) {
		memset(&none, 0, sizeof none);
		dec_fmt_line(f, &s->first, &none, b);
	} else if (s->n > 1) {
		dec_fmt_line_head(f, &s->first, b);
		sb_printf(b, "%u SOFs %u-%u (packets %llu-%llu)\n", s->n,
		    s->from, s->to, (unsigned long long)urb_frame(&s->first),
		    (unsigned long long)s->last);
	}
	s->n = 0;
}

static void
fold_put_run(struct dec_fold *fo, struct dec_fmt *f, struct sbuf *b)
{
	const struct urb_rec *h = &fo->head;
	int64_t		 ns;

	if (fo->polls == 0)
		return;
	dec_fmt_line_head(f, h, b);
	dec_fold_polls(b, DEC_FOLD_KEY(dec_fold_role(h)), fo->polls);
	sb_printf(b, " (packets %llu-%llu", (unsigned long long)urb_frame(h),
	    (unsigned long long)fo->last);
	if ((ns = dec_ts_sub(fo->last_ts, h->ts_ns)) > 0 && fo->polls > 1)
		sb_printf(b, " in %.3f ms", (double)ns / 1e6);
	if (fo->sofs_in > 0)
		sb_printf(b, ", %u SOF%s between", fo->sofs_in,
		    fo->sofs_in == 1 ? "" : "s");
	sb_puts(b, ")\n");
	fo->polls = 0;
	fo->sofs_in = 0;
}

/* Everything held, in the order it came: the run, the SOFs after it (or
 * before the token), the token. */
static void
fold_flush(struct dec_fold *fo, struct dec_fmt *f, struct sbuf *b)
{
	fold_put_run(fo, f, b);
	fold_put_sofs(fo, f, b);
	if (fo->have_tok) {
		dec_fmt_line(f, &fo->tok, &fo->tok_info, b);
		fo->have_tok = 0;
	}
}

int
dec_fold_record(struct dec_fold *fo, struct dec_fmt *f,
    const struct urb_rec *r, const struct dec_info *info, struct sbuf *b)
{
	struct dec_fold_sofs *s = &fo->sofs;

	if (fold_packet(r, USBLL_K_SOF)) {
		if (fo->have_tok)		/* a token nobody answered */
			fold_flush(fo, f, b);
		if (s->n++ == 0) {
			fold_keep(&s->first, r);
			s->from = r->ll.frame;
		}
		s->to = r->ll.frame;
		s->last = urb_frame(r);
		return 1;
	}
	if (fold_poll_token(r)) {
		if (fo->have_tok || (fo->polls > 0 &&
		    (r->ll.pid != fo->head.ll.pid ||
		    r->ll.addr != fo->head.ll.addr ||
		    r->ll.endp != fo->head.ll.endp)))
			fold_flush(fo, f, b);
		fold_keep(&fo->tok, r);
		fo->tok_info = *info;
		fo->have_tok = 1;
		return 1;
	}
	if (fo->have_tok && fold_nak_of(r, &fo->tok)) {
		if (fo->polls == 0) {
			/* SOFs before the first poll keep their own line */
			fold_put_sofs(fo, f, b);
			fo->head = fo->tok;
		} else {
			fo->sofs_in += s->n;
			s->n = 0;
		}
		fo->polls++;
		fo->last = urb_frame(r);
		fo->last_ts = r->ts_ns;
		fo->have_tok = 0;
		return 1;
	}
	fold_flush(fo, f, b);
	return 0;
}

void
dec_fold_end(struct dec_fold *fo, struct dec_fmt *f, struct sbuf *b)
{
	fold_flush(fo, f, b);
}
