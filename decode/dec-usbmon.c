/*
 * decode/dec-usbmon.c - one usbmon event in each of its spellings: the
 * binary header (48 or 64 bytes, either byte order), the ISO descriptors
 * and data that follow it, and the kernel's 'u' text line, both printed
 * (byte for byte what drivers/usb/mon/mon_text.c prints) and parsed (the
 * 'u' format and the old 't' one).
 *
 * Facts: Linux's Documentation/usb/usbmon.rst (text format, binary
 * header); drivers/usb/mon/mon_bin.c (struct mon_bin_hdr, struct
 * mon_bin_isodesc, mon_bin_read for 48-byte reads); libpcap's
 * swap_linux_usb_header (byte order: header fields are swapped, setup
 * bytes and data never).
 */
#include <inttypes.h>

#include "decode.h"

#define TEXT_DATA_MAX	32	/* mon_text.c DATA_MAX */
#define TEXT_ISO_MAX	5	/* mon_text.c ISODESC_MAX */
#define ISO_DESC_LEN	16	/* struct mon_bin_isodesc */

/* Is a header with swap set in big-endian order? */
static int
wire_be(int swap)
{
	return host_is_le() ? swap != 0 : swap == 0;
}

/*
 * How many ISO descriptors precede the data: ndesc of a 64-byte header,
 * or for the 48-byte one (which has no ndesc) what the kernel puts there,
 * min(max(numdesc, 0), 128) (mon_bin.c mon_bin_event).
 */
static uint32_t
iso_wanted(const struct urb_rec *r)
{
	if (r->xfer_type != XFER_ISO)
		return 0;
	if (r->flags & REC_F_HDR48) {
		if (r->iso_numdesc <= 0)
			return 0;
		if (r->iso_numdesc > URB_ISO_MAX)
			return URB_ISO_MAX;
		return (uint32_t)r->iso_numdesc;
	}
	return r->ndesc > URB_ISO_MAX ? URB_ISO_MAX : r->ndesc;
}

int
urb_failed(const struct urb_rec *r)
{
	uint32_t	 i;

	if (r->type == 'E')
		return 1;
	if (r->type != 'C')
		return 0;
	if (r->status != 0)
		return r->status != URB_ENOENT && r->status != URB_ECONNRESET;
	if (r->xfer_type == XFER_ISO && r->iso != NULL) {
		for (i = 0; i < r->niso; i++)
			if (r->iso[i].status != 0)
				return 1;
	}
	return 0;
}

uint32_t
urb_data_expected(const struct urb_rec *r)
{
	uint64_t	 end, max;
	uint32_t	 i;

	if (r->type == 'E' || r->flag_data != 0)
		return 0;
	if (r->origin == URB_ORIGIN_USBPCAP || r->origin == URB_ORIGIN_DARWIN)
		return r->len_cap;	/* what its header says, less a SETUP */
	/*
	 * An ISO IN completion carries the buffer up to the end of the
	 * furthest non-empty frame (mon_bin_collate_isodesc); the text
	 * interface prints transfer_buffer_length there instead.
	 */
	if (r->xfer_type == XFER_ISO && r->type == 'C' && urb_is_in(r) &&
	    (r->flags & REC_F_TEXT) == 0) {
		max = 0;
		for (i = 0; i < r->niso; i++) {
			if (r->iso[i].len == 0)
				continue;
			end = (uint64_t)r->iso[i].off + r->iso[i].len;
			if (end > max)
				max = end;
		}
		return max > UINT32_MAX ? UINT32_MAX : (uint32_t)max;
	}
	return r->len_urb;
}

int
dec_usbmon_hdr(const uint8_t *p, size_t len, size_t hdr_len, int swap,
    struct urb_rec *r)
{
	int	 be;

	if (hdr_len != URB_HDR48 && hdr_len != URB_HDR64)
		return -UE_USAGE;
	if (len < hdr_len)
		return -UE_SHORT;
	be = wire_be(swap);

	r->id = get_bo64(p, be);
	r->type = p[8];
	r->xfer_type = p[9];
	r->epnum = p[10];
	r->devnum = p[11];
	r->busnum = get_bo16(p + 12, be);
	r->flag_setup = p[14];
	r->flag_data = p[15];
	r->ts_sec = (int64_t)get_bo64(p + 16, be);
	r->ts_usec = (int32_t)get_bo32(p + 24, be);
	r->status = (int32_t)get_bo32(p + 28, be);
	r->len_urb = get_bo32(p + 32, be);
	r->len_cap = get_bo32(p + 36, be);
	/* Setup bytes are USB wire order: never swapped (as in libpcap). */
	memcpy(r->setup, p + 40, sizeof r->setup);
	if (r->xfer_type == XFER_ISO) {
		r->iso_error_count = (int32_t)get_bo32(p + 40, be);
		r->iso_numdesc = (int32_t)get_bo32(p + 44, be);
	} else {
		r->iso_error_count = 0;
		r->iso_numdesc = 0;
	}
	if (hdr_len == URB_HDR64) {
		r->interval = (int32_t)get_bo32(p + 48, be);
		r->start_frame = (int32_t)get_bo32(p + 52, be);
		r->xfer_flags = get_bo32(p + 56, be);
		r->ndesc = get_bo32(p + 60, be);
		r->flags &= ~REC_F_HDR48;
	} else {
		r->interval = 0;
		r->start_frame = 0;
		r->xfer_flags = 0;
		r->ndesc = 0;
		r->flags |= REC_F_HDR48;
	}
	return 0;
}

/*
 * The ISO numdesc written for r.  When descriptors were lost on the way
 * (text import: at most 5), numdesc says how many follow, because
 * Wireshark 4.0 parses numdesc descriptors and would run into the data.
 */
static int32_t
enc_numdesc(const struct urb_rec *r)
{
	int32_t	 want;

	want = r->iso_numdesc < 0 ? 0 : r->iso_numdesc;
	if (want > URB_ISO_MAX)
		want = URB_ISO_MAX;
	if (r->niso < (uint32_t)want)
		return (int32_t)r->niso;
	return r->iso_numdesc;
}

static void
enc_hdr(const struct urb_rec *r, int be, uint8_t out[64])
{
	uint32_t	 niso;

	niso = r->niso > URB_ISO_MAX ? URB_ISO_MAX : r->niso;
	memset(out, 0, URB_HDR64);
	put_bo64(out, r->id, be);
	out[8] = r->type;
	out[9] = r->xfer_type;
	out[10] = r->epnum;
	out[11] = r->devnum;
	put_bo16(out + 12, r->busnum, be);
	out[14] = r->flag_setup;
	out[15] = r->flag_data;
	put_bo64(out + 16, (uint64_t)r->ts_sec, be);
	put_bo32(out + 24, (uint32_t)r->ts_usec, be);
	put_bo32(out + 28, (uint32_t)r->status, be);
	put_bo32(out + 32, r->len_urb, be);
	put_bo32(out + 36, ISO_DESC_LEN * niso + r->data_len, be);
	if (r->xfer_type == XFER_ISO) {
		put_bo32(out + 40, (uint32_t)r->iso_error_count, be);
		put_bo32(out + 44, (uint32_t)enc_numdesc(r), be);
	} else
		memcpy(out + 40, r->setup, sizeof r->setup);
	put_bo32(out + 48, (uint32_t)r->interval, be);
	put_bo32(out + 52, (uint32_t)r->start_frame, be);
	put_bo32(out + 56, r->xfer_flags, be);
	put_bo32(out + 60, niso, be);
}

void
enc_usbmon_hdr(const struct urb_rec *r, uint8_t out[64])
{
	enc_hdr(r, wire_be(0), out);
}

size_t
enc_usbmon_prefix(const struct urb_rec *r, int swap, uint8_t *out)
{
	uint8_t		*p;
	uint32_t	 i, niso;
	int		 be;

	be = wire_be(swap);
	enc_hdr(r, be, out);
	niso = r->niso > URB_ISO_MAX ? URB_ISO_MAX : r->niso;
	p = out + URB_HDR64;
	for (i = 0; i < niso; i++, p += ISO_DESC_LEN) {
		put_bo32(p, (uint32_t)r->iso[i].status, be);
		put_bo32(p + 4, r->iso[i].off, be);
		put_bo32(p + 8, r->iso[i].len, be);
		put_bo32(p + 12, 0, be);
	}
	return URB_HDR64 + ISO_DESC_LEN * niso;
}

void
dec_usbmon_body(const uint8_t *p, size_t len, int swap, struct urb_iso *iso,
    struct urb_rec *r)
{
	uint32_t	 want, n, i;
	size_t		 off;
	int		 be;

	be = wire_be(swap);
	r->flags &= ~(REC_F_BADLEN | REC_F_TRUNC);

	/* ndesc is only the kernel's to set on ISO events (mon_bin_event). */
	if (r->xfer_type != XFER_ISO && r->ndesc != 0)
		r->flags |= REC_F_BADLEN;
	want = iso_wanted(r);
	n = want;
	if (n > len / ISO_DESC_LEN)
		n = (uint32_t)(len / ISO_DESC_LEN);
	for (i = 0; i < n; i++) {
		iso[i].status = (int32_t)get_bo32(p + ISO_DESC_LEN * i, be);
		iso[i].off = get_bo32(p + ISO_DESC_LEN * i + 4, be);
		iso[i].len = get_bo32(p + ISO_DESC_LEN * i + 8, be);
		iso[i].usbd = 0;
	}
	r->iso = iso;
	r->niso = n;
	off = (size_t)ISO_DESC_LEN * n;
	r->data = off == 0 ? p : p + off;
	r->data_len = (uint32_t)(len - off);

	if (len != r->len_cap || r->len_cap < ISO_DESC_LEN * want)
		r->flags |= REC_F_BADLEN;
	if (n < want || r->data_len < urb_data_expected(r))
		r->flags |= REC_F_TRUNC;
}

/* ------------------------------------------------------------------------
 * The text line, printed.  A small bounded writer: no printf on the path
 * that `urbscope read -T usbmon` takes for every record.
 */
struct lbuf {
	char	*s;
	size_t	 len;
	size_t	 size;
	int	 full;
};

static void
lb_putc(struct lbuf *b, char c)
{
	if (b->len + 1 >= b->size) {
		b->full = 1;
		return;
	}
	b->s[b->len++] = c;
}

static void
lb_u64(struct lbuf *b, uint64_t v)
{
	char	 t[20];
	int	 n = 0;

	do
		t[n++] = (char)('0' + v % 10);
	while ((v /= 10) != 0);
	while (n > 0)
		lb_putc(b, t[--n]);
}

static void
lb_i64(struct lbuf *b, int64_t v)
{
	if (v < 0) {
		lb_putc(b, '-');
		lb_u64(b, -(uint64_t)v);
	} else
		lb_u64(b, (uint64_t)v);
}

/* %0*u */
static void
lb_u64z(struct lbuf *b, uint64_t v, int width)
{
	uint64_t	 t;
	int		 digits = 1;

	for (t = v; t >= 10; t /= 10)
		digits++;
	for (; digits < width; digits++)
		lb_putc(b, '0');
	lb_u64(b, v);
}

/* %0*x with exactly digits digits. */
static void
lb_hex(struct lbuf *b, uint64_t v, int digits)
{
	static const char hex[] = "0123456789abcdef";

	while (digits-- > 0)
		lb_putc(b, hex[(v >> (4 * digits)) & 0xf]);
}

/* %lx */
static void
lb_xlong(struct lbuf *b, uint64_t v)
{
	int	 digits = 1;

	while (digits < 16 && (v >> (4 * digits)) != 0)
		digits++;
	lb_hex(b, v, digits);
}

static char
text_utype(uint8_t xfer_type)
{
	switch (xfer_type) {
	case XFER_ISO:
		return 'Z';
	case XFER_INT:
		return 'I';
	case XFER_CTRL:
		return 'C';
	default:
		return 'B';	/* mon_text.c: "default: PIPE_BULK" */
	}
}

/* mon_text_read_statset */
static void
fmt_statset(struct lbuf *b, const struct urb_rec *r)
{
	const uint8_t	*s = r->setup;
	int		 ctrl_s;

	ctrl_s = r->type == 'S' && r->xfer_type == XFER_CTRL;
	if (ctrl_s && r->flag_setup == 0) {
		lb_putc(b, ' ');
		lb_putc(b, 's');
		lb_putc(b, ' ');
		lb_hex(b, s[0], 2);
		lb_putc(b, ' ');
		lb_hex(b, s[1], 2);
		lb_putc(b, ' ');
		lb_hex(b, get_le16(s + 2), 4);
		lb_putc(b, ' ');
		lb_hex(b, get_le16(s + 4), 4);
		lb_putc(b, ' ');
		lb_hex(b, get_le16(s + 6), 4);
	} else if (ctrl_s && r->flag_setup != '-') {
		lb_putc(b, ' ');
		lb_putc(b, (char)r->flag_setup);
		lb_putc(b, ' ');
		lb_putc(b, '_');
		lb_putc(b, '_');
		lb_putc(b, ' ');
		lb_putc(b, '_');
		lb_putc(b, '_');
		lb_putc(b, ' ');
		lb_putc(b, '_');
		lb_putc(b, '_');
		lb_putc(b, '_');
		lb_putc(b, '_');
		lb_putc(b, ' ');
		lb_putc(b, '_');
		lb_putc(b, '_');
		lb_putc(b, '_');
		lb_putc(b, '_');
		lb_putc(b, ' ');
		lb_putc(b, '_');
		lb_putc(b, '_');
		lb_putc(b, '_');
		lb_putc(b, '_');
	} else {
		lb_putc(b, ' ');
		lb_i64(b, r->status);
	}
}

/* mon_text_read_isostat and mon_text_read_isodesc */
static void
fmt_iso(struct lbuf *b, const struct urb_rec *r)
{
	uint32_t	 i, n;

	lb_putc(b, ' ');
	lb_i64(b, r->status);
	lb_putc(b, ':');
	lb_i64(b, r->interval);
	lb_putc(b, ':');
	lb_i64(b, r->start_frame);
	if (r->type != 'S') {
		lb_putc(b, ':');
		lb_i64(b, r->iso_error_count);
	}
	lb_putc(b, ' ');
	lb_i64(b, r->iso_numdesc);
	n = r->iso_numdesc < 0 ? 0 : (uint32_t)r->iso_numdesc;
	if (n > TEXT_ISO_MAX)
		n = TEXT_ISO_MAX;
	if (n > r->niso)
		n = r->niso;
	for (i = 0; i < n; i++) {
		lb_putc(b, ' ');
		lb_i64(b, r->iso[i].status);
		lb_putc(b, ':');
		lb_u64(b, r->iso[i].off);
		lb_putc(b, ':');
		lb_u64(b, r->iso[i].len);
	}
}

int
dec_fmt_usbmon(const struct urb_rec *r, char *buf, size_t size)
{
	struct lbuf	 b;
	uint32_t	 stamp, i, n;
	int32_t		 length;

	if (size == 0)
		return -UE_FULL;
	b.s = buf;
	b.len = 0;
	b.size = size;
	b.full = 0;

	/* mon_text_read_head_u: "%lx %u %c %c%c:%d:%03u:%u" */
	lb_xlong(&b, r->id);
	lb_putc(&b, ' ');
	stamp = (uint32_t)((uint64_t)r->ts_sec & 0xfff) * 1000000u +
	    (uint32_t)r->ts_usec;
	lb_u64(&b, stamp);
	lb_putc(&b, ' ');
	lb_putc(&b, (char)r->type);
	lb_putc(&b, ' ');
	lb_putc(&b, text_utype(r->xfer_type));
	lb_putc(&b, urb_is_in(r) ? 'i' : 'o');
	lb_putc(&b, ':');
	lb_u64(&b, r->busnum);
	lb_putc(&b, ':');
	lb_u64z(&b, r->devnum, 3);
	lb_putc(&b, ':');
	lb_u64(&b, r->epnum & 0x7f);

	if (r->type == 'E')
		fmt_statset(&b, r);	/* setup flag is '-' on E */
	else if (r->xfer_type == XFER_ISO)
		fmt_iso(&b, r);
	else if (r->xfer_type == XFER_INT) {
		lb_putc(&b, ' ');
		lb_i64(&b, r->status);
		lb_putc(&b, ':');
		lb_i64(&b, r->interval);
	} else
		fmt_statset(&b, r);

	/* The kernel's length is an int. */
	length = (int32_t)r->len_urb;
	lb_putc(&b, ' ');
	lb_i64(&b, length);

	/* mon_text_read_data */
	if (length > 0) {
		lb_putc(&b, ' ');
		if (r->flag_data == 0) {
			lb_putc(&b, '=');
			n = (uint32_t)length;
			if (n > TEXT_DATA_MAX)
				n = TEXT_DATA_MAX;
			if (n > r->data_len)
				n = r->data_len;
			for (i = 0; i < n; i++) {
				if (i % 4 == 0)
					lb_putc(&b, ' ');
				lb_hex(&b, r->data[i], 2);
			}
		} else
			lb_putc(&b, (char)r->flag_data);
	}

	buf[b.len] = '\0';
	if (b.full)
		return -UE_FULL;
	return (int)b.len;
}

/* ------------------------------------------------------------------------
 * The text line, parsed.  Words are separated by spaces (runs of spaces
 * and tabs are accepted); trailing blanks and a CR are ignored.
 */
struct tp {
	const char	*s;
	size_t		 n;
	size_t		 pos;
};

static int
tp_blank(int c)
{
	return c == ' ' || c == '\t';
}

static int
tp_end(const struct tp *t)
{
	return t->pos >= t->n;
}

static int
tp_peek(const struct tp *t)
{
	return t->pos < t->n ? (unsigned char)t->s[t->pos] : -1;
}

/* At the end of a word: end of line or a blank follows. */
static int
tp_wordend(const struct tp *t)
{
	return tp_end(t) || tp_blank(t->s[t->pos]);
}

/* One or more blanks, and something after them. */
static int
tp_sep(struct tp *t)
{
	if (tp_end(t) || !tp_blank(t->s[t->pos]))
		return -1;
	while (!tp_end(t) && tp_blank(t->s[t->pos]))
		t->pos++;
	return tp_end(t) ? -1 : 0;
}

static int
tp_char(struct tp *t, char c)
{
	if (tp_peek(t) != (unsigned char)c)
		return -1;
	t->pos++;
	return 0;
}

/* min..max hex digits; on failure the column is their start. */
static int
tp_hex(struct tp *t, int min, int max, uint64_t *v)
{
	size_t	 start = t->pos;
	int	 d, n = 0;

	*v = 0;
	while (n < max && !tp_end(t) && (d = dec_hexval(t->s[t->pos])) >= 0) {
		*v = *v << 4 | (uint64_t)d;
		t->pos++;
		n++;
	}
	if (n < min || (!tp_end(t) && dec_hexval(t->s[t->pos]) >= 0)) {
		t->pos = start;
		return -1;
	}
	return 0;
}

/* A decimal number up to max; on failure the column is its start. */
static int
tp_udec(struct tp *t, uint64_t max, uint64_t *v)
{
	size_t	 start = t->pos;
	int	 n = 0;
	int	 c;

	*v = 0;
	while ((c = tp_peek(t)) >= '0' && c <= '9') {
		if (*v > (max - (uint64_t)(c - '0')) / 10) {
			t->pos = start;
			return -1;
		}
		*v = *v * 10 + (uint64_t)(c - '0');
		t->pos++;
		n++;
	}
	return n > 0 ? 0 : -1;
}

static int
tp_i32(struct tp *t, int32_t *v)
{
	uint64_t	 u;
	int		 neg = 0;

	if (tp_peek(t) == '-') {
		neg = 1;
		t->pos++;
	}
	if (tp_udec(t, neg ? (uint64_t)INT32_MAX + 1 : INT32_MAX, &u) != 0) {
		t->pos -= (size_t)neg;
		return -1;
	}
	*v = neg ? (int32_t)(-(int64_t)u) : (int32_t)u;
	return 0;
}

static int
tp_u32(struct tp *t, uint32_t *v)
{
	uint64_t	 u;

	if (tp_udec(t, UINT32_MAX, &u) != 0)
		return -1;
	*v = (uint32_t)u;
	return 0;
}

/* A status word of mon_text_read_statset: "s" + setup, a flag + filler,
 * or a number. */
static int
tp_statset(struct tp *t, struct urb_rec *r)
{
	static const char *const filler[] = { "__", "__", "____", "____",
	    "____" };
	uint64_t	 v[5];
	size_t		 i, l;
	int		 c;

	c = tp_peek(t);
	if (c < 0)
		return -1;
	if (c == '-' || (c >= '0' && c <= '9')) {
		r->flag_setup = '-';
		return tp_i32(t, &r->status);
	}
	t->pos++;
	if (!tp_wordend(t)) {
		t->pos--;
		return -1;
	}
	r->status = URB_EINPROGRESS;	/* only submits carry setup */
	if (c == 's') {
		r->flag_setup = 0;
		for (i = 0; i < 5; i++) {
			if (tp_sep(t) != 0 ||
			    tp_hex(t, i < 2 ? 2 : 4, i < 2 ? 2 : 4, &v[i]) != 0)
				return -1;
		}
		r->setup[0] = (uint8_t)v[0];
		r->setup[1] = (uint8_t)v[1];
		put_le16(r->setup + 2, (uint16_t)v[2]);
		put_le16(r->setup + 4, (uint16_t)v[3]);
		put_le16(r->setup + 6, (uint16_t)v[4]);
		return 0;
	}
	r->flag_setup = (uint8_t)c;
	for (i = 0; i < 5; i++) {
		if (tp_sep(t) != 0)
			return -1;
		l = strlen(filler[i]);
		if (t->n - t->pos < l || memcmp(t->s + t->pos, filler[i], l))
			return -1;
		t->pos += l;
		if (!tp_wordend(t))
			return -1;
	}
	return 0;
}

/* "status:interval:start_frame[:error_count] numdesc st:off:len..." */
static int
tp_iso(struct tp *t, struct urb_rec *r, struct urb_iso iso[5])
{
	uint32_t	 i, n;

	if (tp_i32(t, &r->status) != 0 || tp_char(t, ':') != 0 ||
	    tp_i32(t, &r->interval) != 0 || tp_char(t, ':') != 0 ||
	    tp_i32(t, &r->start_frame) != 0)
		return -1;
	if (tp_peek(t) == ':') {
		t->pos++;
		if (tp_i32(t, &r->iso_error_count) != 0)
			return -1;
	}
	if (!tp_wordend(t) || tp_sep(t) != 0 ||
	    tp_i32(t, &r->iso_numdesc) != 0 || !tp_wordend(t))
		return -1;
	n = r->iso_numdesc < 0 ? 0 : (uint32_t)r->iso_numdesc;
	r->ndesc = n > URB_ISO_MAX ? URB_ISO_MAX : n;
	if (n > TEXT_ISO_MAX)
		n = TEXT_ISO_MAX;
	for (i = 0; i < n; i++) {
		if (tp_sep(t) != 0 || tp_i32(t, &iso[i].status) != 0 ||
		    tp_char(t, ':') != 0 || tp_u32(t, &iso[i].off) != 0 ||
		    tp_char(t, ':') != 0 || tp_u32(t, &iso[i].len) != 0 ||
		    !tp_wordend(t))
			return -1;
	}
	r->niso = n;
	return 0;
}

/* "= 12010002 00000040 ..." (at most 32 bytes) or a flag character. */
static int
tp_data(struct tp *t, struct urb_rec *r, uint8_t data[32])
{
	size_t	 start, digits, i;
	int	 c, last = 0;

	c = tp_peek(t);
	if (c < 0)
		return -1;
	t->pos++;
	if (!tp_wordend(t)) {
		t->pos--;
		return -1;
	}
	if (c != '=') {
		r->flag_data = (uint8_t)c;
		return 0;
	}
	r->flag_data = 0;
	while (!tp_end(t)) {
		if (tp_sep(t) != 0)
			break;		/* trailing blanks, cut by the caller */
		start = t->pos;
		if (last)
			return -1;	/* only the last word may be short */
		while (!tp_wordend(t) && dec_hexval(t->s[t->pos]) >= 0)
			t->pos++;
		digits = t->pos - start;
		if (!tp_wordend(t))
			return -1;
		if (digits == 0 || digits % 2 != 0 || digits > 8 ||
		    r->data_len + digits / 2 > TEXT_DATA_MAX) {
			t->pos = start;
			return -1;
		}
		for (i = 0; i < digits; i += 2)
			data[r->data_len++] = (uint8_t)(dec_hexval(t->s[start + i])
			    << 4 | dec_hexval(t->s[start + i + 1]));
		last = digits < 8;
	}
	return 0;
}

int
dec_usbmon_text(const char *line, size_t n, struct urb_rec *r,
    uint8_t data[32], struct urb_iso iso[5], size_t *col)
{
	struct tp	 t;
	uint64_t	 v, stamp;
	size_t		 i, colons;
	int		 c, told;

	memset(r, 0, sizeof *r);
	r->iso = iso;
	r->data = data;
	r->flags = REC_F_TEXT;
	while (n > 0 && (tp_blank(line[n - 1]) || line[n - 1] == '\r'))
		n--;
	t.s = line;
	t.n = n;
	t.pos = 0;

	/* tag: the URB pointer, %lx */
	if (tp_hex(&t, 1, 16, &r->id) != 0 || !tp_wordend(&t))
		goto bad;
	if (tp_sep(&t) != 0 || tp_udec(&t, UINT32_MAX, &stamp) != 0 ||
	    !tp_wordend(&t))
		goto bad;
	r->ts_sec = (int64_t)(stamp / 1000000);
	r->ts_usec = (int32_t)(stamp % 1000000);
	r->ts_ns = (int64_t)stamp * 1000;

	if (tp_sep(&t) != 0)
		goto bad;
	c = tp_peek(&t);
	if (c != 'S' && c != 'C' && c != 'E')
		goto bad;
	r->type = (uint8_t)c;
	t.pos++;
	if (!tp_wordend(&t) || tp_sep(&t) != 0)
		goto bad;

	/* address: 'u' Ci:1:001:0, 't' Ci:001:00 */
	colons = 0;
	for (i = t.pos; i < t.n && !tp_blank(t.s[i]); i++)
		colons += t.s[i] == ':';
	if (colons != 2 && colons != 3)
		goto bad;
	told = colons == 2;
	switch (tp_peek(&t)) {
	case 'C':
		r->xfer_type = XFER_CTRL;
		break;
	case 'Z':
		r->xfer_type = XFER_ISO;
		break;
	case 'I':
		r->xfer_type = XFER_INT;
		break;
	case 'B':
		r->xfer_type = XFER_BULK;
		break;
	default:
		goto bad;
	}
	t.pos++;
	c = tp_peek(&t);
	if (c != 'i' && c != 'o')
		goto bad;
	t.pos++;
	if (tp_char(&t, ':') != 0)
		goto bad;
	if (!told) {
		if (tp_udec(&t, UINT16_MAX, &v) != 0 || tp_char(&t, ':') != 0)
			goto bad;
		r->busnum = (uint16_t)v;
	}
	if (tp_udec(&t, UINT8_MAX, &v) != 0 || tp_char(&t, ':') != 0)
		goto bad;
	r->devnum = (uint8_t)v;
	if (tp_udec(&t, 0x7f, &v) != 0 || !tp_wordend(&t))
		goto bad;
	r->epnum = (uint8_t)v | (c == 'i' ? 0x80 : 0);
	r->flag_setup = '-';

	/* status, setup, interval, ISO descriptors */
	if (tp_sep(&t) != 0)
		goto bad;
	if (told || r->type == 'E') {
		if (tp_statset(&t, r) != 0)
			goto bad;
	} else if (r->xfer_type == XFER_ISO) {
		if (tp_iso(&t, r, iso) != 0)
			goto bad;
	} else if (r->xfer_type == XFER_INT) {
		if (tp_i32(&t, &r->status) != 0 || tp_char(&t, ':') != 0 ||
		    tp_i32(&t, &r->interval) != 0)
			goto bad;
	} else if (tp_statset(&t, r) != 0)
		goto bad;
	if (!tp_wordend(&t))
		goto bad;

	/* length, then data or a flag when length > 0 */
	if (tp_sep(&t) != 0 || tp_u32(&t, &r->len_urb) != 0 ||
	    r->len_urb > INT32_MAX || !tp_wordend(&t))
		goto bad;
	if (r->len_urb > 0) {
		if (tp_sep(&t) != 0 || tp_data(&t, r, data) != 0)
			goto bad;
	} else {
		/* The binary interface's flags for no data (mon_bin.c). */
		if (r->type == 'E')
			r->flag_data = 'E';
		else if (urb_is_in(r) && r->type == 'S')
			r->flag_data = '<';
		else if (!urb_is_in(r) && r->type == 'C')
			r->flag_data = '>';
	}
	while (!tp_end(&t) && tp_blank(t.s[t.pos]))
		t.pos++;
	if (!tp_end(&t))
		goto bad;

	r->len_cap = ISO_DESC_LEN * r->niso + r->data_len;
	if (r->niso < iso_wanted(r) || r->data_len < urb_data_expected(r))
		r->flags |= REC_F_TRUNC;
	return 0;

bad:
	*col = t.pos;
	return -UE_SYNTAX;
}
