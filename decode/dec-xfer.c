/*
 * decode/dec-xfer.c - the transfers view: an URB as one row at its end,
 * a run of identical rows as the first with a count (decode.h says what
 * a row holds and when rows are written).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decode.h"

/*
 * A 64-bit fingerprint of n bytes of p, from h, eight bytes a step (the
 * data of every row goes through it): a multiply and a shift per word,
 * FNV-1a's prime on the bytes left.
 */
static uint64_t
xfer_hash(uint64_t h, const uint8_t *p, size_t n)
{
	uint64_t w;

	for (; n >= 8; p += 8, n -= 8) {
		memcpy(&w, p, 8);
		h = (h ^ w) * 0x9e3779b97f4a7c15ULL;
		h ^= h >> 32;
	}
	while (n-- > 0) {
		h ^= *p++;
		h *= 0x100000001b3ULL;
	}
	return h;
}

/* n bytes of s in width columns (or more), left-aligned or right. */
static void
xfer_col(struct sbuf *b, const char *s, size_t n, size_t width, int right)
{
	static const char blanks[] = "                    ";
	size_t	 pad = n < width ? width - n : 0;

	if (pad > sizeof blanks - 1)
		pad = sizeof blanks - 1;
	if (right)
		sb_putn(b, blanks, pad);
	sb_putn(b, s, n);
	if (!right)
		sb_putn(b, blanks, pad);
}

/* The hash of r's captured data and isochronous frames. */
static uint64_t
xfer_data_hash(const struct urb_rec *r)
{
	uint8_t	 b[8];
	uint64_t h;
	uint32_t i;

	h = xfer_hash(0xcbf29ce484222325ULL, r->data, r->data_len);
	for (i = 0; i < r->niso; i++) {
		put_le32(b, (uint32_t)r->iso[i].status);
		put_le32(b + 4, r->iso[i].len);
		h = xfer_hash(h, b, sizeof b);
	}
	return h;
}

uint64_t
dec_xfer_fingerprint(const struct urb_rec *r, const struct dec_info *info,
    uint64_t sent)
{
	uint8_t	 b[28];
	uint32_t flags = info != NULL ? info->flags : 0;

	memset(b, 0, sizeof b);
	b[0] = (flags & DI_PAIRED ? 1 : 0) | (flags & DI_ORPHAN ? 2 : 0) |
	    (flags & DI_SETUP ? 4 : 0);
	put_le32(b + 1, flags & DI_PAIRED ? info->pair_len : UINT32_MAX);
	if (flags & DI_SETUP) {
		b[5] = info->setup.bmRequestType;
		b[6] = info->setup.bRequest;
		put_le16(b + 7, info->setup.wValue);
		put_le16(b + 9, info->setup.wIndex);
		put_le16(b + 11, info->setup.wLength);
	}
	put_le32(b + 13, r->data_len);
	put_le64(b + 20, sent);
	return xfer_hash(xfer_data_hash(r), b, sizeof b);
}

uint64_t
dec_xfer_sent(const struct urb_rec *s)
{
	if (s->type != 'S' || urb_is_in(s) || s->data_len == 0)
		return 0;
	/* never 0 for data: 0 is none */
	return xfer_hash(0xcbf29ce484222325ULL, s->data, s->data_len) | 1;
}

int
dec_xfer_alike(const struct dec_xkey *a, const struct dec_xkey *b)
{
	return a->busnum == b->busnum && a->devnum == b->devnum &&
	    a->epnum == b->epnum && a->xfer_type == b->xfer_type &&
	    a->type == b->type && a->status == b->status &&
	    a->len == b->len && a->fp == b->fp;
}

/*
 * r's key; open: r is a submit not ended (yet); sent: its submit's
 * dec_xfer_sent.  The bytes the run compares into t: r's data, its
 * isochronous frames' status and length, then the n bytes sent.
 */
static void
xfer_key(struct dec_xkey *k, struct sbuf *t, const struct urb_rec *r,
    const struct dec_info *info, int open, uint64_t sent,
    const uint8_t *data, uint32_t n)
{
	uint8_t	 b[8];
	uint32_t i;

	memset(k, 0, sizeof *k);
	k->busnum = r->busnum;
	k->devnum = r->devnum;
	k->epnum = r->epnum;
	k->xfer_type = r->xfer_type;
	k->type = open ? 'S' : r->type;
	k->status = open ? 0 : r->status;
	k->len = r->len_urb;
	k->fp = dec_xfer_fingerprint(r, info, sent);
	t->len = 0;
	sb_putn(t, (const char *)r->data, r->data_len);
	for (i = 0; i < r->niso; i++) {
		put_le32(b, (uint32_t)r->iso[i].status);
		put_le32(b + 4, r->iso[i].len);
		sb_putn(t, (const char *)b, sizeof b);
	}
	if (n > 0)
		sb_putn(t, (const char *)data, n);
}

/* The decode of what was sent (n bytes of sent) after the summary of
 * end r, when r carries no data of its own. */
static void
xfer_sent(const struct urb_rec *r, const char *sent, size_t n,
    struct sbuf *b)
{
	if (n > 0 && r->type != 'S' && r->data_len == 0 && !urb_is_in(r))
		sb_putn(b, sent, n);
}

/* A frame number, or "-" (text) / null (JSON) for none. */
static void
xfer_num(const struct dec_xfer *x, struct sbuf *b, int have, uint64_t v,
    int width)
{
	if (have && x->json)
		sb_u64(b, v);
	else if (have)
		sb_u64w(b, v, width);
	else if (x->json)
		sb_puts(b, "null");
	else
		xfer_col(b, "-", 1, (size_t)width, 1);
}

/*
 * The row of r into b, without its end: r's own if it ended the URB,
 * else (open) the row of the submit r, to be marked later.  sent: the
 * decode of what its submit sent (n bytes), for an OUT end without data.
 */
static void
xfer_row(struct dec_xfer *x, struct dec_fmt *f, const struct urb_rec *r,
    const struct dec_info *info, int open, const char *sent, size_t n,
    struct sbuf *b)
{
	const char	*st = "-", *unknown = x->json ? "null" : "?";
	char		 asked[24], buf[40], *p;
	int		 paired = !open && (info->flags & DI_PAIRED);
	size_t		 mark;

	b->len = 0;
	if (r->origin == URB_ORIGIN_USBPCAP && urb_is_in(r) &&
	    r->xfer_type != XFER_CTRL)
		/* USBPcap records no IN length on the submit */
		p = stpcpy(asked, unknown);
	else if (open || paired)
		p = dec_put_uw(asked, open ? r->len_urb : info->pair_len, 0);
	else
		p = stpcpy(asked, unknown);
	*p = '\0';
	if (x->json) {
		sb_puts(b, "{\"frame.submit\":");
		xfer_num(x, b, open || paired, open ? urb_frame(r) :
		    info->pair_frame != 0 ? info->pair_frame :
		    info->pair_recno, 0);
		sb_puts(b, ",\"frame.end\":");
		xfer_num(x, b, !open, urb_frame(r), 0);
		sb_puts(b, ",\"time\":\"");
		mark = b->len;
		dec_fmt_time(f, r->ts_ns, (r->flags & REC_F_NOTIME) != 0, b);
		while (mark < b->len && b->s[mark] == ' ')
			memmove(b->s + mark, b->s + mark + 1, --b->len - mark);
		sb_printf(b, "\",\"usb.bus_id\":%u,\"usb.device_address\":%u,"
		    "\"usb.endpoint_address\":\"0x%02x\",\"dir\":\"%s\","
		    "\"type\":\"%s\",\"status\":", r->busnum, r->devnum,
		    r->epnum, urb_is_in(r) ? "in" : "out",
		    dec_fmt_type_name(r));
		if (open)
			sb_puts(b, "null");
		else
			sb_i64(b, r->status);
		sb_printf(b, ",\"asked\":%s,\"length\":", asked);
		xfer_num(x, b, !open && r->type != 'E', r->len_urb, 0);
		sb_puts(b, ",\"latency_ns\":");
		if (paired && info->latency_ns >= 0)
			sb_i64(b, info->latency_ns);
		else
			sb_puts(b, "null");
		sb_puts(b, ",\"summary\":");
		mark = b->len;
		dec_fmt_summary(f, r, info, b);
		xfer_sent(r, sent, n, b);
		sb_json_from(b, mark);
		return;
	}
	/* frames, time, address, direction, type, status, lengths */
	xfer_num(x, b, open || paired, open ? urb_frame(r) :
	    info->pair_frame != 0 ? info->pair_frame : info->pair_recno, 7);
	sb_putc(b, ' ');
	xfer_num(x, b, !open, urb_frame(r), 7);
	sb_putc(b, ' ');
	dec_fmt_time(f, r->ts_ns, (r->flags & REC_F_NOTIME) != 0, b);
	sb_putc(b, ' ');
	p = dec_put_uw(buf, r->busnum, 0);
	*p++ = '.';
	p = dec_put_uw(p, r->devnum, 0);
	*p++ = '.';
	p = dec_put_uw(p, r->epnum & 0x0f, 0);
	xfer_col(b, buf, (size_t)(p - buf), 9, 0);
	sb_puts(b, urb_is_in(r) ? " in  " : " out ");
	st = dec_fmt_type_name(r);
	xfer_col(b, st, strlen(st), 5, 0);
	st = "-";
	if (!open && r->status == 0)
		st = "ok";
	else if (!open && (st = dec_status_name(r->status)) == NULL) {
		buf[0] = '-';
		*dec_put_uw(buf + 1, (uint64_t)-(int64_t)r->status, 0) = '\0';
		st = r->status < 0 ? buf : buf + 1;
	}
	xfer_col(b, st, strnlen(st, 16), 11, 0);
	sb_putc(b, ' ');
	p = stpcpy(buf, asked);
	*p++ = '/';
	if (open || r->type == 'E')
		*p++ = '-';
	else
		p = dec_put_uw(p, r->len_urb, 0);
	xfer_col(b, buf, (size_t)(p - buf), 11, 1);
	sb_putn(b, "  ", 2);
	dec_fmt_summary(f, r, info, b);
	xfer_sent(r, sent, n, b);
}

/* Write run u into b (a tree's rows indented). */
static void
xfer_run_put(struct dec_xfer *x, struct dec_xrun *u, struct sbuf *b)
{
	char	 over[DEC_LATENCY_MAX];
	int64_t	 ns;
	int	 polled;

	if (u->n == 0)
		return;
	if (x->tree)
		sb_putn(b, "    ", 4);
	sb_putn(b, u->held.s, u->held.len);
	ns = dec_ts_sub(u->last_ts, u->first_ts);
	if (x->json) {
		if (u->n > 1)
			sb_printf(b, ",\"repeats\":%u,\"last_frame\":%llu,"
			    "\"over_ns\":%lld", u->n,
			    (unsigned long long)u->last, (long long)ns);
		if (u->mark != NULL) {
			sb_puts(b, ",\"incomplete\":");
			sb_json_str(b, u->mark, strlen(u->mark));
		}
		sb_puts(b, "}\n");
		u->n = 0;
		return;
	}
	if (u->mark != NULL) {
		sb_puts(b, ", ");
		sb_puts(b, u->mark);
	}
	if (u->n > 1) {
		/* an IN endpoint's URBs poll the device; others repeat */
		polled = (u->key.epnum & 0x80) &&
		    u->key.xfer_type != XFER_CTRL && u->mark == NULL;
		over[dec_fmt_latency(ns, over)] = '\0';
		sb_printf(b, " (%s %u times, identical, over %s, last frame "
		    "%llu)", polled ? "polled" : "repeated", u->n, over,
		    (unsigned long long)u->last);
	}
	sb_putc(b, '\n');
	u->n = 0;
}

void
dec_xfer_flush(struct dec_xfer *x, struct sbuf *b)
{
	if (!x->tree)
		xfer_run_put(x, &x->run, b);
}

/* The tree's group of r's endpoint (made if new), or NULL without
 * memory (b's oom then says so). */
static struct dec_xgroup *
xfer_group(struct dec_xfer *x, uint16_t busnum, uint8_t devnum,
    uint8_t epnum, uint8_t xfer_type, struct sbuf *b)
{
	struct dec_xgroup *g;
	size_t		 i;

	if (xfer_type == XFER_CTRL)
		epnum &= 0x7f;		/* one endpoint, both ways */
	for (i = x->ngroups; i-- > 0;) {
		g = &x->groups[i];
		if (g->busnum == busnum && g->devnum == devnum &&
		    g->epnum == epnum && g->xfer_type == xfer_type)
			return g;
	}
	if (dec_grow(&x->groups, x->ngroups, &x->capgroups,
	    sizeof *x->groups) != 0) {
		b->oom = 1;
		return NULL;
	}
	g = &x->groups[x->ngroups++];
	memset(g, 0, sizeof *g);
	g->busnum = busnum;
	g->devnum = devnum;
	g->epnum = epnum;
	g->xfer_type = xfer_type;
	return g;
}

/* A row (text in x->tmp, key k, bytes in x->tmpbytes) into its run, or a
 * new run. */
static void
xfer_add(struct dec_xfer *x, const struct dec_xkey *k, const char *mark,
    int64_t ts, uint64_t frame, struct sbuf *b)
{
	struct dec_xgroup *g = NULL;
	struct dec_xrun	*u = &x->run;
	struct sbuf	 t;

	if (x->tree) {
		if ((g = xfer_group(x, k->busnum, k->devnum, k->epnum,
		    k->xfer_type, b)) == NULL)
			return;
		g->urbs++;
		u = &g->run;
		b = &g->out;
	}
	if (u->n > 0 && u->mark == mark && dec_xfer_alike(&u->key, k) &&
	    u->bytes.len == x->tmpbytes.len && (u->bytes.len == 0 ||
	    memcmp(u->bytes.s, x->tmpbytes.s, u->bytes.len) == 0)) {
		u->n++;
		u->last_ts = ts;
		u->last = frame;
		return;
	}
	xfer_run_put(x, u, b);
	t = u->held;
	u->held = x->tmp;
	x->tmp = t;
	t = u->bytes;
	u->bytes = x->tmpbytes;
	x->tmpbytes = t;
	u->key = *k;
	u->mark = mark;
	u->n = 1;
	u->first_ts = u->last_ts = ts;
	u->last = frame;
}

static int
xfer_group_cmp(const void *a, const void *b)
{
	const struct dec_xgroup *g = a, *h = b;
	uint32_t ka, kb;

	ka = (uint32_t)g->busnum << 16 | (uint32_t)g->devnum << 8 |
	    (g->epnum & 0x0fU) << 1 | (g->epnum >> 7);
	kb = (uint32_t)h->busnum << 16 | (uint32_t)h->devnum << 8 |
	    (h->epnum & 0x0fU) << 1 | (h->epnum >> 7);
	if (ka != kb)
		return ka < kb ? -1 : 1;
	return (int)g->xfer_type - (int)h->xfer_type;
}

/* The tree: devices, their endpoints, their rows. */
static void
xfer_tree_put(struct dec_xfer *x, struct sbuf *b)
{
	struct dec_xgroup *g, *d = NULL;
	uint8_t		 t;
	size_t		 i;

	if (x->ngroups > 1)
		qsort(x->groups, x->ngroups, sizeof *x->groups,
		    xfer_group_cmp);
	for (i = 0; i < x->ngroups; i++) {
		g = &x->groups[i];
		xfer_run_put(x, &g->run, &g->out);
		if (d == NULL || d->busnum != g->busnum ||
		    d->devnum != g->devnum) {
			d = g;
			sb_printf(b, "%sdevice %u.%u", i > 0 ? "\n" : "",
			    g->busnum, g->devnum);
			/* the ids are the device's: any endpoint's say */
			for (; g < x->groups + x->ngroups &&
			    g->busnum == d->busnum && g->devnum == d->devnum;
			    g++) {
				if (g->ids) {
					sb_printf(b, " %04x:%04x", g->vid,
					    g->pid);
					break;
				}
			}
			sb_putc(b, '\n');
			g = &x->groups[i];
		}
		t = g->xfer_type;
		sb_printf(b, "  endpoint %u.%u.%u %s%s: %llu URB%s\n",
		    g->busnum, g->devnum, g->epnum & 0x0f,
		    t == XFER_CTRL ? "" : g->epnum & 0x80 ? "in " : "out ",
		    t < 4 ? dec_name_find(dec_xfer_types, t) :
		    t == USBPCAP_XFER_IRP ?
		    "IRPs without transfer" : "other",
		    (unsigned long long)g->urbs, g->urbs == 1 ? "" : "s");
		sb_putn(b, g->out.s, g->out.len);
	}
}

/*
 * The open submits are in record order; one that ended keeps its place
 * without its buffer (buf NULL) until they are half the array, so that
 * ending the oldest of many costs no move of the others.
 */

/* The open submit of record recno, or NULL. */
static struct dec_xopen *
xfer_open_find(struct dec_xfer *x, uint64_t recno)
{
	size_t	 lo = 0, hi = x->nopen, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (x->open[mid].recno == recno)
			return x->open[mid].buf != NULL ? &x->open[mid] : NULL;
		if (x->open[mid].recno < recno)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

static void
xfer_open_del(struct dec_xfer *x, struct dec_xopen *o)
{
	size_t	 i, n = 0;

	free(o->buf);
	o->buf = NULL;
	if (++x->ndead < 32 || 2 * x->ndead < x->nopen)
		return;
	for (i = 0; i < x->nopen; i++) {
		if (x->open[i].buf != NULL)
			x->open[n++] = x->open[i];
	}
	x->nopen = n;
	x->ndead = 0;
}

/*
 * The submit r kept until it ends: its row if shown (the first len bytes
 * of x->tmp), the decode of what it sends (the rest of x->tmp) and those
 * bytes.  Lost without memory (b's oom then says so).
 */
static void
xfer_open_add(struct dec_xfer *x, const struct urb_rec *r,
    const struct dec_info *info, int shown, size_t len, struct sbuf *b)
{
	struct dec_xopen *o;
	uint32_t	 n = urb_is_in(r) ? 0 : r->data_len;

	if (dec_grow(&x->open, x->nopen, &x->capopen, sizeof *x->open) != 0) {
		b->oom = 1;
		return;
	}
	/* records come in order, but a recno may repeat (stdin, merges) */
	if (x->nopen > 0 && x->open[x->nopen - 1].recno >= r->recno)
		return;
	o = &x->open[x->nopen];
	if ((o->buf = malloc(x->tmp.len + n + 1)) == NULL) {
		b->oom = 1;
		return;
	}
	memcpy(o->buf, x->tmp.s, x->tmp.len);
	if (n > 0)
		memcpy(o->buf + x->tmp.len, r->data, n);
	o->len = len;
	o->txt_len = x->tmp.len - len;
	o->nsent = n;
	o->shown = shown;
	o->sent = dec_xfer_sent(r);
	o->recno = r->recno;
	o->ts_ns = r->ts_ns;
	o->frame = urb_frame(r);
	xfer_key(&o->key, &x->tmpbytes, r, info, 1, 0, NULL, 0);
	x->nopen++;
}

/* The open submit o as a row, marked (o stays). */
static void
xfer_open_row(struct dec_xfer *x, struct dec_xopen *o, const char *mark,
    struct sbuf *b)
{
	x->tmp.len = 0;
	sb_putn(&x->tmp, o->buf, o->len);
	/* its bytes: the data it sends, as its key was made from */
	x->tmpbytes.len = 0;
	sb_putn(&x->tmpbytes, o->buf + o->len + o->txt_len, o->nsent);
	xfer_add(x, &o->key, mark, o->ts_ns, o->frame, b);
}

void
dec_xfer_init(struct dec_xfer *x, int json, int tree)
{
	memset(x, 0, sizeof *x);
	x->json = json;
	x->tree = tree;
}

void
dec_xfer_record(struct dec_xfer *x, struct dec_fmt *f,
    const struct urb_rec *r, const struct dec_info *info, int shown,
    struct sbuf *b)
{
	struct dec_xgroup *g;
	struct dec_xopen *o = NULL;
	struct dec_xkey	 k;
	size_t		 len;

	if (r->type == 'P')
		return;
	if (r->type == 'S') {
		if ((info->flags & DI_RESUBMIT) &&
		    (o = xfer_open_find(x, info->replaced_recno)) != NULL) {
			if (o->shown)
				xfer_open_row(x, o,
				    "resubmitted before it completed", b);
			xfer_open_del(x, o);
		}
		/* a USBPcap stage goes on with the URB: its row is later */
		if ((info->flags & DI_STAGE) &&
		    (o = xfer_open_find(x, info->pair_recno)) != NULL)
			xfer_open_del(x, o);
		/* kept if shown, or for the data it sends to its end's row */
		x->tmp.len = 0;
		if (shown)
			xfer_row(x, f, r, info, 1, NULL, 0, &x->tmp);
		len = x->tmp.len;
		dec_fmt_sent(r, info, &x->tmp);
		if (shown || x->tmp.len > len)
			xfer_open_add(x, r, info, shown, len, b);
		return;
	}
	if (info->flags & (DI_PAIRED | DI_STAGE))
		o = xfer_open_find(x, info->pair_recno);
	if (shown) {
		if (x->tree && (info->flags & DI_IDS) &&
		    (g = xfer_group(x, r->busnum, r->devnum, r->epnum,
		    r->xfer_type, b)) != NULL) {
			g->ids = 1;
			g->vid = info->vid;
			g->pid = info->pid;
		}
		if (o != NULL) {
			xfer_row(x, f, r, info, 0, o->buf + o->len, o->txt_len,
			    &x->tmp);
			xfer_key(&k, &x->tmpbytes, r, info, 0, o->sent,
			    (const uint8_t *)o->buf + o->len + o->txt_len,
			    o->nsent);
		} else {
			xfer_row(x, f, r, info, 0, NULL, 0, &x->tmp);
			xfer_key(&k, &x->tmpbytes, r, info, 0, 0, NULL, 0);
		}
		xfer_add(x, &k, NULL, r->ts_ns, urb_frame(r), b);
	}
	if (o != NULL)
		xfer_open_del(x, o);
}

void
dec_xfer_end(struct dec_xfer *x, const char *mark, struct sbuf *b)
{
	size_t	 i;

	for (i = 0; i < x->nopen; i++) {
		if (x->open[i].buf == NULL)
			continue;
		if (x->open[i].shown)
			xfer_open_row(x, &x->open[i], mark, b);
		free(x->open[i].buf);
	}
	x->nopen = x->ndead = 0;
	if (x->tree)
		xfer_tree_put(x, b);
	else
		dec_xfer_flush(x, b);
}

void
dec_xfer_free(struct dec_xfer *x)
{
	size_t	 i;

	for (i = 0; i < x->nopen; i++)
		free(x->open[i].buf);
	free(x->open);
	for (i = 0; i < x->ngroups; i++) {
		sb_free(&x->groups[i].run.held);
		sb_free(&x->groups[i].run.bytes);
		sb_free(&x->groups[i].out);
	}
	free(x->groups);
	sb_free(&x->run.held);
	sb_free(&x->run.bytes);
	sb_free(&x->tmp);
	sb_free(&x->tmpbytes);
	memset(x, 0, sizeof *x);
}
