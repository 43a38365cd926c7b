/*
 * decode/dec-fmt.c - formatters: the one-line form of a record, -V, JSON
 * lines and tshark-style -T fields.  Formatters only turn decoded structs
 * and trees into text; they decide nothing about the bytes.
 */
#include <time.h>

#include "decode.h"

static const char *const xfer_short[4] = { "iso", "int", "ctrl", "bulk" };

/* Timestamp column per the time mode. */
void
dec_fmt_time(struct dec_fmt *f, int64_t ts_ns, int notime, struct sbuf *b)
{
	struct tm tm;
	time_t	 secs;
	int64_t	 ns = ts_ns, frac;

	if (ts_ns == DEC_TS_BAD) {
		/* t0 and tprev stay: the next delta is from a real time */
		sb_puts(b, "   bad time");
		return;
	}
	dec_fmt_start(f, ts_ns);
	switch (f->time_mode) {
	case DT_RELATIVE:
		ns = dec_ts_sub(ns, f->t0);
		break;
	case DT_DELTA:
		ns = dec_ts_sub(ns, f->tprev);
		break;
	case DT_DELTA_SHOWN:
		/* the first one shown: 0, as tshark's -t dd */
		ns = f->shown ? dec_ts_sub(ns, f->tprev) : 0;
		f->shown = 1;
		break;
	case DT_ABSOLUTE:
		if (notime) {
			/* no wall clock: no date, but the time since t0 */
			ns = dec_ts_sub(ns, f->t0);
			break;
		}
		/* floor division: 1969 has positive microseconds too */
		secs = (time_t)(ns / 1000000000);
		if ((frac = ns % 1000000000) < 0) {
			secs--;
			frac += 1000000000;
		}
		gmtime_r(&secs, &tm);
		sb_printf(b, "%04d-%02d-%02d %02d:%02d:%02d.%06ld",
		    tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour,
		    tm.tm_min, tm.tm_sec, (long)(frac / 1000));
		f->tprev = ts_ns;
		return;
	case DT_EPOCH:
		if (notime)
			ns = dec_ts_sub(ns, f->t0);
		break;
	}
	f->tprev = ts_ns;
	if (ns >= 0 && ns < 10000 * 1000000000LL) {
		/* pad to 11 columns: "   0.000251" */
		if (ns < 10 * 1000000000LL)
			sb_puts(b, "   ");
		else if (ns < 100 * 1000000000LL)
			sb_puts(b, "  ");
		else if (ns < 1000 * 1000000000LL)
			sb_puts(b, " ");
	}
	sb_secs(b, ns, 6);
}

static void
fmt_time(struct dec_fmt *f, const struct urb_rec *r, struct sbuf *b)
{
	dec_fmt_time(f, r->ts_ns, (r->flags & REC_F_NOTIME) != 0, b);
}

/*
 * Raw writers for the fixed columns of a line (with dec_put_uw): the
 * caller reserved room.
 */
/* Exactly 6 digits of v < 1000000 (the microseconds column), in pairs:
 * two divisions of v side by side, not six in a chain. */
static char *
put_uz6(char *p, uint32_t v)
{
	uint32_t hi = v / 10000, mid = v / 100;

	memcpy(p, sb_decpairs + 2 * hi, 2);
	memcpy(p + 2, sb_decpairs + 2 * (mid - 100 * hi), 2);
	memcpy(p + 4, sb_decpairs + 2 * (v - 100 * mid), 2);
	return p + 6;
}

/*
 * v right-aligned in 7 columns (the length column): 8 blanks, then the
 * digits from the last, over them.  No count of the digits first, and no
 * loop over the padding, whose length changes from line to line.
 */
static char *
put_u7(char *p, uint32_t v)
{
	if (v >= 10000000)
		return dec_put_uw(p, v, 7);
	memcpy(p, "        ", 8);
	(void)dec_digits_back(p + 7, v);
	return p + 7;
}

/* Exactly 3 digits of v < 1000: a digit and a pair. */
static char *
put_uz3(char *p, uint32_t v)
{
	p[0] = (char)('0' + v / 100);
	memcpy(p + 1, sb_decpairs + 2 * (v % 100), 2);
	return p + 3;
}

static char *
put_pad(char *p, const char *start, int width)
{
	while (p - start < width)
		*p++ = ' ';
	return p;
}

int
dec_fmt_latency(int64_t ns, char *buf)
{
	uint64_t v, u = ns < 0 ? 0 : (uint64_t)ns;
	char	*p = buf;

	if (ns == DEC_TS_BAD) {
		memcpy(buf, "bad time", 9);
		return 8;
	}
	/* rounded, to the microsecond, the millisecond, the second */
	if ((v = (u + 500) / 1000) < 1000000) {
		p = dec_put_uw(p, v / 1000, 0);
		*p++ = '.';
		p = put_uz3(p, (uint32_t)(v % 1000));
		memcpy(p, " ms", 4);
		return (int)(p - buf) + 3;
	}
	if ((v = (u + 500000) / 1000000) < 100000000) {
		p = dec_put_uw(p, v / 1000, 0);
		*p++ = '.';
		p = put_uz3(p, (uint32_t)(v % 1000));
	} else
		p = dec_put_uw(p, (u + 500000000) / 1000000000, 0);
	memcpy(p, " s", 3);
	return (int)(p - buf) + 2;
}

static void
fmt_latency(int64_t ns, struct sbuf *b)
{
	/* straight into b: dec_fmt_latency ends it with a NUL */
	if (!sb_reserve(b, DEC_LATENCY_MAX))
		return;
	b->len += (size_t)dec_fmt_latency(ns, b->s + b->len);
}

static void
fmt_errno(int32_t status, struct sbuf *b)
{
	const char *name;

	if (status == 0)
		sb_puts(b, "ok");
	else if ((name = dec_status_name(status)) != NULL)
		sb_puts(b, name);
	else
		sb_i64(b, status);
}

/* r's status; a Windows or macOS one by its own name after the nearest
 * errno. */
/*
 * An ISO completion's frames that failed: " (2 failed: -EXDEV)", the
 * first one's status (a submit's frames hold -EXDEV until they are done:
 * nothing to say there).
 */
static void
fmt_iso_failed(const struct urb_rec *r, struct sbuf *b)
{
	uint32_t i, n = 0;
	int32_t	 first = 0;

	if (r->type != 'C')
		return;
	for (i = 0; i < r->niso; i++) {
		if (r->iso[i].status != 0 && n++ == 0)
			first = r->iso[i].status;
	}
	if (n == 0)
		return;
	sb_puts(b, " (");
	sb_u64(b, n);
	sb_puts(b, " failed: ");
	fmt_errno(first, b);
	sb_putc(b, ')');
}

static void
fmt_status(const struct urb_rec *r, struct sbuf *b)
{
	const char *name;

	fmt_errno(r->status, b);
	if (r->origin == URB_ORIGIN_DARWIN && r->mac.io_status != 0) {
		sb_puts(b, " (");
		if ((name = dec_darwin_status_name(r->mac.io_status)) != NULL)
			sb_puts(b, name);
		else {
			sb_puts(b, "IOReturn 0x");
			sb_hex(b, r->mac.io_status, 8);
		}
		sb_putc(b, ')');
		return;
	}
	if (r->origin != URB_ORIGIN_USBPCAP || r->win.usbd_status == 0)
		return;
	sb_puts(b, " (");
	if ((name = dec_usbd_status_name(r->win.usbd_status)) != NULL)
		sb_puts(b, name);
	else {
		sb_puts(b, "USBD_STATUS 0x");
		sb_hex(b, r->win.usbd_status, 8);
	}
	sb_putc(b, ')');
}

/* " -> ", or U+2192 RIGHTWARDS ARROW where the terminal shows it. */
static const char *
arrow(const struct dec_fmt *f)
{
	return f->ascii ? " -> " : " \xe2\x86\x92 ";
}

/* A USBPcap IRP that is no transfer: ABORT_PIPE, RESET_PIPE ... */
static void
fmt_irp(const struct dec_fmt *f, const struct urb_rec *r,
    const struct dec_info *info, struct sbuf *b)
{
	const char *name;

	if ((name = dec_urb_function_name(r->win.function)) != NULL)
		sb_puts(b, name + (sizeof "URB_FUNCTION_" - 1));
	else {
		sb_puts(b, "URB function 0x");
		sb_hex(b, r->win.function, 4);
	}
	if (r->epnum != 0xff) {
		sb_puts(b, " ep 0x");
		sb_hex(b, r->epnum, 2);
	}
	if (r->type == 'S')
		return;
	sb_puts(b, arrow(f));
	fmt_status(r, b);
	if (info->flags & DI_PAIRED) {
		sb_puts(b, ", ");
		fmt_latency(info->latency_ns, b);
	}
}

/* "55 53 42 43 ..." : the first bytes of the data. */
static void
fmt_preview(const uint8_t *p, uint32_t n, struct sbuf *b)
{
	static const char hx[] = "0123456789abcdef";
	uint32_t i, max = n < 16 ? n : 16;

	if (!sb_reserve(b, 3 * max + 4))
		return;
	for (i = 0; i < max; i++) {
		if (i > 0)
			b->s[b->len++] = ' ';
		b->s[b->len++] = hx[p[i] >> 4];
		b->s[b->len++] = hx[p[i] & 15];
	}
	b->s[b->len] = '\0';
	if (n > max)
		sb_puts(b, " ...");
}

static void
fmt_cut(const struct urb_rec *r, struct sbuf *b)
{
	uint32_t want = urb_data_expected(r);

	if (want > r->data_len) {
		sb_puts(b, " (captured ");
		sb_u64(b, r->data_len);
		sb_puts(b, " of ");
		sb_u64(b, want);
		sb_puts(b, " bytes)");
	}
}

/* Data of a record: class decode if any, else the first bytes. */
static void
fmt_data(const struct urb_rec *r, const struct dec_info *info,
    struct sbuf *b)
{
	if (r->data_len == 0)
		return;
	if (r->origin == URB_ORIGIN_DARWIN && r->xfer_type == XFER_ISO &&
	    r->niso > 0) {
		/* the frames' headers and data, one after the other */
		sb_puts(b, ": frame 0: ");
		fmt_preview(r->data + r->iso[0].off, r->iso[0].off >
		    r->data_len ? 0 : r->iso[0].len < r->data_len -
		    r->iso[0].off ? r->iso[0].len : r->data_len -
		    r->iso[0].off, b);
		return;
	}
	sb_puts(b, ": ");
	if (!dec_class_summary(r, info, b))
		fmt_preview(r->data, r->data_len, b);
}

static void
fmt_control(const struct dec_fmt *f, const struct urb_rec *r,
    const struct dec_info *info, struct sbuf *b)
{
	char	 tmp[160];
	size_t	 mark;

	dec_setup_summary_class(&info->setup, dec_info_class(info), tmp,
	    sizeof tmp);
	sb_puts(b, tmp);
	if (r->type == 'S') {
		if (!urb_is_in(r))
			fmt_data(r, info, b);
		return;
	}
	sb_puts(b, arrow(f));
	if (r->type == 'E') {
		sb_puts(b, "submit failed ");
		fmt_status(r, b);
		return;
	}
	if (r->status != 0) {
		fmt_status(r, b);
		sb_puts(b, " after ");
	} else if (SETUP_DIR_IN(&info->setup)) {
		sb_u64(b, r->len_urb);
		sb_puts(b, r->len_urb == 1 ? " byte, " : " bytes, ");
	} else
		sb_puts(b, "ok, ");
	fmt_latency(info->latency_ns, b);
	if (r->data_len == 0)
		return;
	if (!SETUP_DIR_IN(&info->setup)) {
		/* an OUT completion with the data (macOS) */
		fmt_data(r, info, b);
		return;
	}
	if (SETUP_TYPE(&info->setup) != 2 &&
	    info->setup.bRequest == USB_REQ_GET_DESCRIPTOR && r->status == 0) {
		sb_puts(b, ": ");
		mark = b->len;
		/* a cut capture is said once, by fmt_cut */
		dec_desc_summary(r->data, r->data_len, r->len_urb,
		    &info->setup, tmp, sizeof tmp);
		sb_puts(b, tmp);
		if (b->len == mark)
			fmt_preview(r->data, r->data_len, b);
		return;
	}
	fmt_data(r, info, b);
}

/* "[intf 0 Mass Storage] ", "[guessed HID] " */
static void
class_tag(struct sbuf *b, const struct dec_info *info)
{
	const char *cname;

	if (info->flags & DI_GUESSED)
		sb_puts(b, "[guessed ");
	else {
		sb_puts(b, "[intf ");
		sb_u64(b, (uint64_t)info->intf);
		sb_putc(b, ' ');
	}
	if ((cname = dec_name_find(dec_classes, info->cls)) != NULL)
		sb_puts(b, cname);
	else {
		sb_puts(b, "class 0x");
		sb_hex(b, info->cls, 2);
	}
	sb_puts(b, "] ");
}

/*
 * class_tag from a few kept texts, direct-mapped by interface and class:
 * the same one or two start most lines of a capture.
 */
static void
put_class_tag(struct sbuf *b, const struct dec_info *info)
{
	static struct {
		uint32_t	 key;	/* 0: empty */
		uint32_t	 len;
		char		 s[56];
	}		 tags[8];
	uint32_t	 key;
	size_t		 h, mark;

	key = 1u << 31 | ((info->flags & DI_GUESSED) ? 1u << 30 : 0) |
	    (uint32_t)(uint16_t)info->intf << 8 | info->cls;
	h = ((size_t)(uint16_t)info->intf * 3 + info->cls) & 7;
	if (tags[h].key == key) {
		if (!sb_reserve(b, sizeof tags[h].s))
			return;
		memcpy(b->s + b->len, tags[h].s, sizeof tags[h].s);
		b->len += tags[h].len;
		b->s[b->len] = '\0';
		return;
	}
	mark = b->len;
	class_tag(b, info);
	if (!b->oom && b->len - mark < sizeof tags[h].s) {
		memcpy(tags[h].s, b->s + mark, b->len - mark);
		tags[h].len = (uint32_t)(b->len - mark);
		tags[h].key = key;
	}
}

void
dec_fmt_summary(const struct dec_fmt *f, const struct urb_rec *r,
    const struct dec_info *info, struct sbuf *b)
{
	if (r->flags & REC_F_SYNTHETIC)
		sb_puts(b, "[synthetic, from sysfs] ");
	if (r->flags & REC_F_INJECTED)
		sb_puts(b, "[USBPcap: device already connected] ");
	if (r->flags & REC_F_STAGE)
		sb_puts(b, r->win.stage == USBPCAP_STAGE_DATA ?
		    "[data stage] " : "[status stage] ");
	if (r->origin == URB_ORIGIN_USBPCAP && r->xfer_type > XFER_BULK) {
		fmt_irp(f, r, info, b);
		return;
	}
	if (r->origin == URB_ORIGIN_USBLL &&
	    r->xfer_type == USBLL_XFER_PACKET) {
		dec_usbll_summary(r, b);
		return;
	}
	if (r->xfer_type == XFER_CTRL && (info->flags & DI_SETUP)) {
		fmt_control(f, r, info, b);
		fmt_cut(r, b);
		return;
	}
	if (info->flags & DI_CLASS)
		put_class_tag(b, info);
	if (r->xfer_type == XFER_ISO) {
		sb_u64(b, r->niso);
		sb_puts(b, r->niso == 1 ? " frame" : " frames");
		fmt_iso_failed(r, b);
		sb_puts(b, ", ");
	}
	switch (r->type) {
	case 'S':
		if (urb_is_in(r) && r->origin == URB_ORIGIN_USBPCAP)
			sb_puts(b, "IN request");	/* length not recorded */
		else if (urb_is_in(r)) {
			sb_puts(b, "IN request ");
			sb_u64(b, r->len_urb);
		} else {
			sb_puts(b, "OUT ");
			sb_u64(b, r->len_urb);
			sb_puts(b, r->len_urb == 1 ? " byte" : " bytes");
			fmt_data(r, info, b);
		}
		break;
	case 'E':
		sb_puts(b, "submit failed ");
		fmt_status(r, b);
		break;
	default:
		if (r->status != 0) {
			fmt_status(r, b);
			sb_putc(b, ' ');
		}
		sb_u64(b, r->len_urb);
		sb_puts(b, r->len_urb == 1 ? " byte" : " bytes");
		if (!urb_is_in(r))
			sb_puts(b, " sent");
		if (info->flags & DI_PAIRED) {
			sb_puts(b, ", ");
			fmt_latency(info->latency_ns, b);
		} else if (info->flags & DI_ORPHAN)
			sb_puts(b, ", submit not captured");
		/* IN data, or OUT data a completion carries (macOS) */
		fmt_data(r, info, b);
		break;
	}
	fmt_cut(r, b);
}

void
dec_fmt_sent(const struct urb_rec *s, const struct dec_info *info,
    struct sbuf *b)
{
	if (s->type == 'S' && !urb_is_in(s))
		fmt_data(s, info, b);
}

const char *
dec_fmt_type_name(const struct urb_rec *r)
{
	return r->xfer_type < 4 ? xfer_short[r->xfer_type] :
	    r->xfer_type == USBPCAP_XFER_IRP ? "irp" :
	    r->xfer_type == USBLL_XFER_PACKET ? "pkt" : "?";
}

void
dec_fmt_line(struct dec_fmt *f, const struct urb_rec *r,
    const struct dec_info *info, struct sbuf *b)
{
	dec_fmt_line_head(f, r, b);
	dec_fmt_summary(f, r, info, b);
	sb_putc(b, '\n');
}

/*
 * The frame number in 7 columns.  Numbers mostly count up by one: nine
 * times in ten that is the previous line's text with its last digit
 * counted on, cheaper than converting.  The text is copied out before the
 * digit is stored: a load of 8 bytes right after a store of one into them
 * would wait for the store to reach the cache.
 */
static char *
put_frame(struct dec_fmt *f, char *p, uint64_t v)
{
	if (v == 0 || v >= 10000000)
		return dec_put_uw(p, v, 7);
	if (f->num_of != 0 && v == f->num_of + 1 && f->num[6] != '9') {
		memcpy(p, f->num, 8);
		p[6] = ++f->num[6];
	} else {
		(void)dec_put_uw(f->num, v, 7);
		f->num[7] = ' ';
		memcpy(p, f->num, 8);
	}
	f->num_of = v;
	return p + 7;
}

/*
 * "bus.dev.ep" padded to 9 columns and the direction: the same few
 * endpoints fill a capture, so their text is kept, direct-mapped.
 */
static char *
put_addr(struct dec_fmt *f, char *p, const struct urb_rec *r)
{
	uint64_t key;
	char	*d, *start;
	size_t	 h;

	key = (uint64_t)1 << 32 | (uint64_t)r->busnum << 16 |
	    (uint64_t)r->devnum << 8 | r->epnum;
	h = (r->devnum * 5u + r->epnum * 3u + (r->epnum >> 7) + r->busnum) &
	    (sizeof f->addr / sizeof f->addr[0] - 1);
	if (f->addr[h].key != key) {
		d = start = f->addr[h].s;
		d = dec_put_uw(d, r->busnum, 0);
		*d++ = '.';
		d = dec_put_uw(d, r->devnum, 0);
		*d++ = '.';
		d = dec_put_uw(d, r->epnum & 0x0f, 0);
		d = put_pad(d, start, 9);
		memcpy(d, urb_is_in(r) ? " in  " : " out ", 5);
		d += 5;
		f->addr[h].len = (uint8_t)(d - start);
		f->addr[h].key = key;
	}
	memcpy(p, f->addr[h].s, sizeof f->addr[h].s);
	return p + f->addr[h].len;
}

/* The type column, padded to 5 and 8 bytes long: one 8-byte copy. */
static const char *
type_col(const struct urb_rec *r)
{
	static const char cols[][8] = {
		"iso    ", "int    ", "ctrl   ", "bulk   ", "irp    ",
		"pkt    ", "?      "
	};

	return cols[r->xfer_type < 4 ? r->xfer_type :
	    r->xfer_type == USBPCAP_XFER_IRP ? 4 :
	    r->xfer_type == USBLL_XFER_PACKET ? 5 : 6];
}

void
dec_fmt_line_head(struct dec_fmt *f, const struct urb_rec *r,
    struct sbuf *b)
{
	const char	*st;
	char		*p, *start;
	int64_t		 ns;
	uint64_t	 s;
	size_t		 n;

	/* number, time, address, direction, event, type, status, length */
	if (!sb_reserve(b, 160))
		return;
	p = b->s + b->len;
	p = put_frame(f, p, urb_frame(r));
	*p++ = ' ';
	if (f->time_mode == DT_RELATIVE && f->have_t0 &&
	    (ns = dec_ts_sub(r->ts_ns, f->t0)) >= 0 &&
	    ns < 10000 * 1000000000LL) {
		f->tprev = r->ts_ns;
		/* the whole seconds change seldom: their text is kept */
		s = (uint64_t)ns / 1000000000;
		if (f->sec_of != s + 1) {
			(void)dec_put_uw(f->sec, s, 4);
			f->sec[4] = '.';
			f->sec_of = s + 1;
		}
		memcpy(p, f->sec, 8);
		p = put_uz6(p + 5, (uint32_t)((uint64_t)ns - s * 1000000000) /
		    1000);
	} else {
		b->len = (size_t)(p - b->s);
		fmt_time(f, r, b);
		if (!sb_reserve(b, 128))
			return;
		p = b->s + b->len;
	}
	*p++ = ' ';
	p = put_addr(f, p, r);
	*p++ = (char)r->type;
	*p++ = ' ';
	memcpy(p, type_col(r), 8);
	p += 5;
	if (r->type == 'S' || r->type == 'P') {
		memcpy(p, "-               ", 16);
		p += 11;
	} else if (r->status == 0) {
		memcpy(p, "ok              ", 16);
		p += 11;
	} else {
		start = p;
		if ((st = dec_status_name(r->status)) == NULL)
			st = "?";
		n = strlen(st);
		if (n > 16)
			n = 16;
		memcpy(p, st, n);
		p += n;
		if (*st == '?')
			p = dec_put_uw(p - 1, (uint64_t)-(int64_t)r->status, 0);
		p = put_pad(p, start, 11);
	}
	p = put_u7(p, r->len_urb);
	*p++ = ' ';
	*p++ = ' ';
	b->len = (size_t)(p - b->s);
}

/*
 * n spaces at d, eight at a time: up to 7 more are written past d + n
 * (the caller reserved them, and overwrites them next).  Short indents
 * are the common case, and memset's rep stos is slow to start.
 */
static void
put_spaces(char *d, size_t n)
{
	size_t	 k;

	for (k = 0; k < n; k += 8)
		memcpy(d + k, "        ", 8);
}

/*
 * Eight bytes of q as the hexdump's ASCII column: printable ones (0x20 to
 * 0x7e) as themselves, the others as '.'.  SWAR: per byte, bit 7 of
 * (low seven bits + 0x60) says >= 0x20, of (low seven bits + 1) says
 * >= 0x7f; no sum carries into the next byte.
 */
static void
put_ascii8(char *d, const uint8_t *q)
{
	const uint64_t	 ones = 0x0101010101010101ULL;
	const uint64_t	 high = 0x8080808080808080ULL;
	uint64_t	 w, low, ok, m;

	memcpy(&w, q, 8);
	low = w & ~high;
	ok = ~w & (low + 0x60 * ones) & ~(low + 0x01 * ones) & high;
	m = (ok >> 7) * 0xff;
	w = (w & m) | ('.' * ones & ~m);
	memcpy(d, &w, 8);
}

void
dec_fmt_hexdump(const uint8_t *p, size_t n, int indent, struct sbuf *b)
{
	static const char hx[] = "0123456789abcdef";
	static char	 hex3[256][4];	/* "xx  " of every byte, built once */
	const uint8_t *q;
	size_t	 off, i, line;
	char	*d;
	int	 k, digits = 4;

	if (hex3[0][0] == '\0') {
		for (i = 0; i < 256; i++) {
			memcpy(hex3[i], sb_hexpairs + 2 * i, 2);
			hex3[i][2] = hex3[i][3] = ' ';
		}
	}
	if (indent < 0)
		indent = 0;
	/* offsets in four hex digits, more past 64 KiB */
	while (digits < 16 && n > 16 && ((n - 1) >> (4 * digits)) != 0)
		digits++;
	/* indent, offset, two spaces, 16 bytes in hex, ASCII, newline */
	line = (size_t)indent + (size_t)digits + 2 + 16 * 3 + 1 + 1 + 16 + 1;
	/* put_spaces may write 7 spaces past the indent */
	if (n == 0 || !sb_reserve(b, (n + 15) / 16 * line + 8))
		return;
	d = b->s + b->len;
	for (off = 0; off < n; off += 16) {
		q = p + off;
		put_spaces(d, (size_t)indent);
		d += indent;
		/* the offset, two digits from a byte of it at a time */
		for (k = digits; k >= 2; k -= 2)
			memcpy(d + k - 2, sb_hexpairs + 2 *
			    ((off >> (4 * (digits - k))) & 0xff), 2);
		if (k == 1)
			d[0] = hx[(off >> (4 * (digits - 1))) & 15];
		d += digits;
		*d++ = ' ';
		*d++ = ' ';
		if (n - off >= 16) {
			/* a whole line: no test a byte; each store writes
			 * "xx " and a fourth byte the next one overwrites */
			for (i = 0; i < 16; i++) {
				memcpy(d, hex3[q[i]], 4);
				d += 3;
				if (i == 7)
					*d++ = ' ';
			}
			*d++ = ' ';
			put_ascii8(d, q);
			put_ascii8(d + 8, q + 8);
			d += 16;
		} else {
			for (i = 0; i < 16; i++) {
				if (off + i < n)
					memcpy(d, sb_hexpairs + 2 * q[i], 2);
				else
					memset(d, ' ', 2);
				d[2] = ' ';
				d += 3;
				if (i == 7)
					*d++ = ' ';
			}
			*d++ = ' ';
			for (i = 0; off + i < n; i++)
				*d++ = q[i] >= 0x20 && q[i] < 0x7f ?
				    (char)q[i] : '.';
		}
		*d++ = '\n';
	}
	b->len = (size_t)(d - b->s);
	b->s[b->len] = '\0';
}

/* Raw value of a node the way tshark -T fields prints it. */
static void
node_raw(const struct urb_rec *r, const struct dec_node *n, struct sbuf *b)
{
	const uint8_t *p;
	uint64_t v;

	if (n->f == NULL) {
		if (n->str != NULL)
			sb_puts(b, n->str);
		return;
	}
	switch (n->f->kind) {
	case DK_HEX:
		/* tshark prints the field's width: 0xffff in a u8 is 0xff */
		v = n->f->width > 0 && n->f->width < 8 ?
		    n->value & ((1ULL << (8 * n->f->width)) - 1) : n->value;
		sb_hex0x(b, v, n->f->width ? n->f->width * 2 : 2);
		break;
	case DK_BCD:
		sb_hex0x(b, n->value, 4);
		break;
	case DK_INT:
		sb_i64(b, (int64_t)n->value);
		break;
	case DK_CENTI:
		/* a double as tshark prints it: 1, 1.5, 1.01 */
		sb_u64(b, n->value / 100);
		if (n->value % 100 != 0) {
			sb_putc(b, '.');
			sb_putc(b, (char)('0' + n->value / 10 % 10));
			if (n->value % 10 != 0)
				sb_putc(b, (char)('0' + n->value % 10));
		}
		break;
	case DK_CHAR:
		sb_putc(b, '\'');
		if (n->value >= 0x20 && n->value < 0x7f)
			sb_putc(b, (char)n->value);
		else {
			sb_puts(b, "\\x");
			sb_hex(b, n->value, 2);
		}
		sb_putc(b, '\'');
		break;
	case DK_TIME:
		sb_secs(b, (int64_t)n->value, 9);
		break;
	case DK_MSEC:
		sb_printf(b, "%.15g", (double)(int64_t)n->value / 1e6);
		break;
	case DK_BYTES:
		if ((p = dec_node_bytes(r, n)) != NULL)
			sb_hexbytes(b, p, n->len);
		break;
	case DK_STRING:
		if (n->str != NULL)
			sb_puts(b, n->str);
		break;
	case DK_LABEL:
		/* a protocol (a name without a dot: bthci_cmd) prints its
		 * heading as tshark prints an FT_PROTOCOL, else its name;
		 * a field without a value (FT_NONE) prints 1 */
		if (n->f->abbrev == NULL)
			break;
		if (strchr(n->f->abbrev, '.') == NULL)
			sb_puts(b, n->str != NULL ? n->str : n->f->abbrev);
		else
			sb_putc(b, '1');
		break;
	default:
		sb_u64(b, n->value);
		break;
	}
}

/*
 * strlen of a static string (a field's name), remembered by its address
 * in a small direct-mapped cache: the same few hundred names come back
 * every record.
 */
static size_t
static_len(const char *s)
{
	static struct {
		const char	*p;
		size_t		 len;
	}		 cache[1024];
	size_t		 h;

	h = (size_t)(((uintptr_t)s * 0x9e3779b97f4a7c15ULL) >> 54) & 1023;
	if (cache[h].p != s) {
		cache[h].p = s;
		cache[h].len = strlen(s);
	}
	return cache[h].len;
}

void
dec_fmt_verbose(struct dec_fmt *f, const struct urb_rec *r,
    const struct dec_info *info, const struct dec_tree *t, struct sbuf *b)
{
	const struct dec_node *n;
	size_t	 i, w, k;
	char	*d;

	sb_puts(b, "Record ");
	sb_u64(b, urb_frame(r));
	if (!(r->flags & REC_F_NOOFFSET)) {
		sb_puts(b, " at offset ");
		sb_u64(b, r->offset);
	}
	sb_puts(b, ", time ");
	fmt_time(f, r, b);
	sb_puts(b, ": ");
	dec_fmt_summary(f, r, info, b);
	sb_putc(b, '\n');
	for (i = 0; i < t->n; i++) {
		n = &t->node[i];
		w = 4 * ((size_t)n->depth + 1);
		if (n->f == NULL || n->f->kind == DK_LABEL) {
			if (!sb_reserve(b, w + 8))
				return;
			put_spaces(b->s + b->len, w);
			b->len += w;
			sb_puts(b, n->str != NULL ? n->str :
			    n->f != NULL ? n->f->name : "");
		} else {
			/* indent, name and ": " in one reservation */
			k = static_len(n->f->name);
			if (!sb_reserve(b, w + 8 + k + 2))
				return;
			d = b->s + b->len;
			put_spaces(d, w);
			dec_copy(d + w, n->f->name, k);
			memcpy(d + w + k, ": ", 2);
			b->len += w + k + 2;
			if (n->f->kind == DK_BYTES && n->len > 16) {
				sb_u64(b, n->len);
				sb_puts(b, " bytes");
			} else if (n->f->kind == DK_BYTES)
				node_raw(r, n, b);
			else
				dec_node_text(n, b);
		}
		if (n->note != NULL) {
			sb_puts(b, n->flags & (DN_BAD | DN_CUT) ? " [" : " (");
			sb_puts(b, n->note);
			sb_puts(b, n->flags & (DN_BAD | DN_CUT) ? "]" : ")");
		}
		sb_putc(b, '\n');
	}
	if (t->overflow)
		sb_puts(b, "    [decode tree cut: too many fields]\n");
	if (r->flag_setup == 0 && r->xfer_type == XFER_CTRL &&
	    r->type == 'S') {
		sb_puts(b, "    Setup bytes:\n");
		dec_fmt_hexdump(r->setup, 8, 8, b);
	}
	if (r->data_len > 0) {
		sb_puts(b, "    Data (");
		sb_u64(b, r->data_len);
		sb_puts(b, r->data_len == 1 ? " byte):\n" : " bytes):\n");
		dec_fmt_hexdump(r->data, r->data_len, 8, b);
	}
	sb_putc(b, '\n');
}

static void
json_value(const struct urb_rec *r, const struct dec_node *n, struct sbuf *b)
{
	size_t	 start = b->len;

	switch (n->f->kind) {
	case DK_UINT:
	case DK_INT:
		node_raw(r, n, b);
		return;
	case DK_HEX:
	case DK_BCD:
	case DK_BYTES:
	case DK_TIME:
	case DK_MSEC:
	case DK_CENTI:
		/* digits, '.', 'x' and '-' only: nothing to escape */
		sb_putc(b, '"');
		node_raw(r, n, b);
		sb_putc(b, '"');
		return;
	case DK_CHAR:
		sb_putc(b, (char)n->value);
		break;
	case DK_STRING:
		if (n->flags & DN_PLAIN) {
			sb_putc(b, '"');
			sb_puts(b, n->str);
			sb_putc(b, '"');
			return;
		}
		node_raw(r, n, b);
		break;
	default:
		node_raw(r, n, b);
		break;
	}
	sb_json_from(b, start);
}

/* The Wireshark name a node is printed under in JSON, or NULL. */
static const char *
json_abbrev(const struct dec_node *n)
{
	if (n->f == NULL || n->f->kind == DK_LABEL)
		return NULL;
	return n->f->abbrev;
}

#define JSON_NONE	UINT16_MAX
#define JSON_NAMES	1024	/* distinct names (fields have ~300) */
#define JSON_PTRS	4096	/* name pointers seen, a power of 2 */

/*
 * Field names, interned: each abbrev pointer met maps to a small id that
 * equal strings share (two fields may carry one Wireshark name), and the
 * name's length.  Field names are static strings, so the tables fill
 * once and then cost a pointer hash a node.
 */
static struct {
	const char	*p;
	uint16_t	 id;
}		 json_ptrs[JSON_PTRS];
static size_t	 json_nptrs;
static const char *json_names[JSON_NAMES];
static uint16_t	 json_lens[JSON_NAMES];
static size_t	 json_nnames;

/* The id of name ab, or JSON_NONE when the tables are full. */
static uint16_t
json_name_id(const char *ab)
{
	size_t	 h, k;

	h = (size_t)(((uintptr_t)ab * 0x9e3779b97f4a7c15ULL) >> 52) &
	    (JSON_PTRS - 1);
	while (json_ptrs[h].p != NULL) {
		if (json_ptrs[h].p == ab)
			return json_ptrs[h].id;
		h = (h + 1) & (JSON_PTRS - 1);
	}
	if (json_nptrs >= JSON_PTRS / 2)
		return JSON_NONE;
	for (k = 0; k < json_nnames; k++) {
		if (strcmp(json_names[k], ab) == 0)
			break;
	}
	if (k == json_nnames) {
		if (json_nnames == JSON_NAMES)
			return JSON_NONE;
		json_names[k] = ab;
		json_lens[k] = (uint16_t)strlen(ab);
		json_nnames++;
	}
	json_ptrs[h].p = ab;
	json_ptrs[h].id = (uint16_t)k;
	json_nptrs++;
	return (uint16_t)k;
}

void
dec_fmt_json(struct dec_fmt *f, const struct urb_rec *r,
    const struct dec_info *info, const struct dec_tree *t, struct sbuf *b)
{
	static uint32_t	 stamp[JSON_NAMES];	/* gen: seen in this record */
	static uint16_t	 first[JSON_NAMES];	/* its first node, if so */
	static uint32_t	 gen;
	static const struct dec_fmt utf8 = { .ascii = 0 };
	uint16_t	 lead[DEC_TREE_NODES];	/* first node of my name */
	uint16_t	 count[DEC_TREE_NODES];	/* nodes of the name (leaders) */
	uint16_t	 alen[DEC_TREE_NODES];	/* the name's length */
	const char	*ab;
	char		*d;
	size_t		 i, j, k, n, start;
	uint16_t	 id;
	int		 whole = 0;

	(void)f;
	sb_puts(b, "{\"frame.number\":");
	sb_u64(b, urb_frame(r));
	if (!(r->flags & REC_F_NOOFFSET)) {
		sb_puts(b, ",\"frame.offset\":");
		sb_u64(b, r->offset);
	}
	if (r->ts_ns != DEC_TS_BAD) {
		sb_puts(b, ",\"frame.time_epoch\":\"");
		sb_secs(b, r->ts_ns, 9);
		sb_putc(b, '"');
	}
	if (r->flags & REC_F_SYNTHETIC)
		sb_puts(b, ",\"synthetic\":true");
	sb_puts(b, ",\"summary\":");
	start = b->len;
	/* JSON is UTF-8 (RFC 8259) whatever the locale: the same bytes
	 * for every reader */
	dec_fmt_summary(&utf8, r, info, b);
	sb_json_from(b, start);

	/*
	 * Every field with a Wireshark name, in the order of its first
	 * occurrence; a name that repeats becomes an array.  Each name's
	 * first node leads its group, found by the name's interned id, so a
	 * record costs its nodes, not their square.
	 */
	n = t->n < DEC_TREE_NODES ? t->n : DEC_TREE_NODES;
	if (++gen == 0) {
		memset(stamp, 0, sizeof stamp);
		gen = 1;
	}
	for (i = 0; i < n; i++) {
		lead[i] = JSON_NONE;
		if ((ab = json_abbrev(&t->node[i])) == NULL)
			continue;
		if ((id = json_name_id(ab)) == JSON_NONE) {
			/* not interned (cannot happen with static fields):
			 * a group of its own */
			lead[i] = (uint16_t)i;
			count[i] = 1;
			alen[i] = (uint16_t)strlen(ab);
			continue;
		}
		alen[i] = json_lens[id];
		if (stamp[id] != gen) {
			stamp[id] = gen;
			first[id] = (uint16_t)i;
			lead[i] = (uint16_t)i;
			count[i] = 1;
		} else {
			lead[i] = first[id];
			count[first[id]]++;
		}
	}
	for (i = 0; i < n; i++) {
		if (lead[i] != i)
			continue;	/* unnamed, or in its leader's array */
		/* ,"name": in one reservation */
		if (!sb_reserve(b, (size_t)alen[i] + 4))
			return;
		d = b->s + b->len;
		d[0] = ',';
		d[1] = '"';
		dec_copy(d + 2, t->node[i].f->abbrev, alen[i]);
		d[alen[i] + 2] = '"';
		d[alen[i] + 3] = ':';
		b->len += (size_t)alen[i] + 4;
		if (count[i] == 1 && t->node[i].f->kind == DK_BYTES &&
		    t->node[i].buf == DB_DATA && t->node[i].off == 0 &&
		    t->node[i].len == r->data_len &&
		    strcmp(t->node[i].f->abbrev, "usb.capdata") == 0)
			whole = 1;
		if (count[i] == 1) {
			json_value(r, &t->node[i], b);
			continue;
		}
		sb_putc(b, '[');
		for (k = 0, j = i; j < n; j++) {
			if (lead[j] != i)
				continue;
			if (k++ > 0)
				sb_putc(b, ',');
			json_value(r, &t->node[j], b);
		}
		sb_putc(b, ']');
	}
	/* the payload, unless usb.capdata above was all of it */
	if (r->data_len > 0 && !whole) {
		sb_puts(b, ",\"data\":\"");
		sb_hexbytes(b, r->data, r->data_len);
		sb_putc(b, '"');
	}
	sb_puts(b, "}\n");
}

/* A frame.* field, the same for records and events; 0 when fr is none. */
static int
frame_field(const struct dec_frame *fr, const struct dec_fref *ref,
    struct sbuf *b)
{
	switch (ref->kind) {
	case FR_FRAME_NUMBER:
		sb_u64(b, fr->number);
		return 1;
	case FR_FRAME_OFFSET:
		sb_u64(b, fr->offset);
		return 1;
	case FR_FRAME_EPOCH:
		if (fr->ts_ns != DEC_TS_BAD)
			sb_secs(b, fr->ts_ns, 9);
		return 1;
	case FR_FRAME_REL:
		if (fr->ts_ns != DEC_TS_BAD && fr->t0_ns != DEC_TS_BAD)
			sb_secs(b, dec_ts_sub(fr->ts_ns, fr->t0_ns), 9);
		return 1;
	case FR_FRAME_DELTA:
		if (fr->ts_ns != DEC_TS_BAD && fr->prev_ns != DEC_TS_BAD)
			sb_secs(b, dec_ts_sub(fr->ts_ns, fr->prev_ns), 9);
		return 1;
	case FR_FRAME_LEN:
		if (fr->len != 0)
			sb_u64(b, fr->len);
		return 1;
	case FR_FRAME_CAPLEN:
		if (fr->len != 0)
			sb_u64(b, fr->cap_len);
		return 1;
	}
	return 0;
}

/*
 * Field i of -T fields begins at start of b: its separator before it,
 * its quotes around it (tshark quotes no empty field).
 */
static void
field_begin(const struct dec_fields_opts *o, size_t i, struct sbuf *b)
{
	if (i > 0)
		sb_putc(b, o->sep);
}

static void
field_end(const struct dec_fields_opts *o, size_t start, struct sbuf *b)
{
	if (o->quote == 0 || b->len == start || !sb_reserve(b, 2))
		return;
	memmove(b->s + start + 1, b->s + start, b->len - start);
	b->s[start] = o->quote;
	b->len++;
	b->s[b->len++] = o->quote;
	b->s[b->len] = '\0';
}

/* The occurrences of ref in t that -E occurrence picks, joined by the
 * aggregator. */
static void
field_tree(const struct dec_fields_opts *o, const struct urb_rec *r,
    const struct dec_tree *t, const struct dec_fref *ref, struct sbuf *b)
{
	size_t	 j, k, total = 0;
	long	 want = o->occurrence;

	if (want < 0) {
		for (j = 0; j < t->n; j++)
			total += dec_fref_is(ref, &t->node[j]);
		want += (long)total + 1;
		if (want <= 0)
			return;
	}
	for (k = 0, j = 0; j < t->n; j++) {
		if (!dec_fref_is(ref, &t->node[j]))
			continue;
		k++;
		if (want != 0 && (long)k != want)
			continue;
		if (want == 0 && k > 1)
			sb_putc(b, o->agg);
		node_raw(r, &t->node[j], b);
	}
}

void
dec_fmt_fields(const struct dec_fmt *f, const struct dec_fields_opts *o,
    const struct dec_frame *fr, const struct urb_rec *r,
    const struct dec_info *info, const struct dec_tree *t,
    const struct dec_fref *refs, size_t n, struct sbuf *b)
{
	static const struct dec_fields_opts plain = { '\t', ',', 0, 0 };
	const struct dec_fref *ref;
	size_t	 i, start;

	if (o == NULL)
		o = &plain;
	for (i = 0; i < n; i++) {
		ref = &refs[i];
		field_begin(o, i, b);
		start = b->len;
		if (frame_field(fr, ref, b)) {
			field_end(o, start, b);
			continue;
		}
		switch (ref->kind) {
		case FR_TREE:
			field_tree(o, r, t, ref, b);
			break;
		case FR_DATA:
			sb_hexbytes(b, r->data, r->data_len);
			break;
		case FR_SUMMARY:
			dec_fmt_summary(f, r, info, b);
			break;
		case FR_SYNTHETIC:
			if (r->flags & REC_F_SYNTHETIC)
				sb_puts(b, "true");
			break;
		}
		field_end(o, start, b);
	}
	sb_putc(b, '\n');
}

void
dec_fmt_event_fields(const struct dec_fields_opts *o,
    const struct dec_frame *fr, const struct drv_event *ev,
    const struct dec_fref *refs, size_t n, struct sbuf *b)
{
	static const struct dec_fields_opts plain = { '\t', ',', 0, 0 };
	const struct dec_fref *ref;
	const char	*name;
	size_t		 i, start;
	char		 tmp[24];

	if (o == NULL)
		o = &plain;
	for (i = 0; i < n; i++) {
		ref = &refs[i];
		field_begin(o, i, b);
		start = b->len;
		if (frame_field(fr, ref, b)) {
			field_end(o, start, b);
			continue;
		}
		if (ref->kind == FR_KIND) {
			name = dec_name_or(dec_drv_kinds, ev->kind, tmp);
			sb_puts(b, name);
		} else if (ref->kind == FR_SUMMARY)
			dec_fmt_event_summary(ev, b);
		else if (ref->evf >= 0)
			dec_event_value_text(ev, ref->evf, b);
		field_end(o, start, b);
	}
	sb_putc(b, '\n');
}
