/*
 * decode/dec-stats.c - statistics of a capture: counted as the records go
 * by (dec_stats_add, dec_stats_event), printed at the end as a report,
 * tshark's tables, JSON or SVG charts.
 *
 * What counts as what:
 *  - an URB's bytes are its completion's actual length (usbmon's length
 *    on a 'C' record, the kernel's urb->actual_length), in the
 *    endpoint's direction (a control transfer's: the request's);
 *  - an error is a completion urb_failed() says failed, by status; the
 *    deliberate unlinks and kills (-ENOENT from usb_kill_urb, -ECONNRESET
 *    from usb_unlink_urb; Linux Documentation/driver-api/usb/error-codes
 *    .rst) are counted apart as cancelled, and isochronous frames in
 *    error are counted frame by frame (an ISO URB completes with status 0
 *    whatever its frames did);
 *  - latency is completion time minus submit time of a paired URB;
 *    percentiles are nearest-rank;
 *  - tshark's tables count frames and frame.len, every frame between the
 *    host and the address usb.src or usb.dst names (a submit goes from
 *    the host, anything else to it), as packet-usb.c does.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "class.h"
#include "stats.h"

#define HASH(b, d, e)	((((uint32_t)(b) * 131u + (d)) * 257u + (e)) % \
			    DEC_STATS_HASH)

void
dec_stats_init(struct dec_stats *s)
{
	memset(s, 0, sizeof *s);
	s->t0 = s->t1 = DEC_TS_BAD;
}

void
dec_stats_free(struct dec_stats *s)
{
	size_t	 i;

	for (i = 0; i < s->neps; i++) {
		free(s->eps[i].lat);
		free(s->eps[i].pts);
	}
	free(s->eps);
	free(s->frames);
	dec_stats_init(s);
}

static struct dec_stats_ep *
ep_get(struct dec_stats *s, uint16_t bus, uint8_t dev, uint8_t ep)
{
	struct dec_stats_ep	*e;
	uint32_t		 h = HASH(bus, dev, ep), i;

	for (i = s->ephash[h]; i != 0; i = s->eps[i - 1].next) {
		e = &s->eps[i - 1];
		if (e->busnum == bus && e->devnum == dev && e->epnum == ep)
			return e;
	}
	if (dec_grow(&s->eps, s->neps, &s->epcap, sizeof *s->eps) != 0) {
		s->oom = 1;
		return NULL;
	}
	e = &s->eps[s->neps++];
	memset(e, 0, sizeof *e);
	e->busnum = bus;
	e->devnum = dev;
	e->epnum = ep;
	e->intf = -1;
	e->cls = -1;
	e->first_ns = e->last_ns = DEC_TS_BAD;
	e->seq = (uint32_t)(s->neps - 1);
	e->next = s->ephash[h];
	s->ephash[h] = (uint32_t)s->neps;
	return e;
}

static void
span(int64_t *first, int64_t *last, int64_t ts)
{
	if (ts == DEC_TS_BAD)
		return;
	if (*first == DEC_TS_BAD || ts < *first)
		*first = ts;
	if (*last == DEC_TS_BAD || ts > *last)
		*last = ts;
}

void
dec_stats_time(struct dec_stats *s, int64_t ts_ns)
{
	span(&s->t0, &s->t1, ts_ns);
}

/* The class a record belongs to, for the hierarchy. */
static const char *
cls_of(const struct urb_rec *r, const struct dec_info *info, char *buf,
    size_t len)
{
	static const char *const kinds[] = { "standard", "class", "vendor",
	    "reserved" };
	const char	*n;

	if (r->type == 'P')
		return "wire-level packets";
	if ((info->flags & DI_SETUP) != 0 && r->xfer_type == XFER_CTRL) {
		if (SETUP_TYPE(&info->setup) == 0)
			return "control: standard requests (chapter 9)";
		if ((info->flags & DI_CLASS) != 0 && (n = dec_name_find(
		    dec_classes, info->cls)) != NULL) {
			snprintf(buf, len, "control: %s %s requests", n,
			    kinds[SETUP_TYPE(&info->setup)]);
			return buf;
		}
		snprintf(buf, len, "control: %s requests",
		    kinds[SETUP_TYPE(&info->setup)]);
		return buf;
	}
	if (r->xfer_type == XFER_CTRL)
		return "control";
	if ((info->flags & DI_CLASS) != 0) {
		if ((n = dec_name_find(dec_classes, info->cls)) != NULL)
			snprintf(buf, len, "%s%s", n,
			    (info->flags & DI_GUESSED) != 0 ? " (guessed)" :
			    "");
		else
			snprintf(buf, len, "class 0x%02x", info->cls);
		return buf;
	}
	return "unknown class";
}

static void
cls_add(struct dec_stats *s, const char *name, uint32_t bytes)
{
	size_t	 i;

	for (i = 0; i < s->ncls; i++) {
		if (strcmp(s->cls[i].name, name) == 0)
			break;
	}
	if (i == s->ncls) {
		if (s->ncls == DEC_STATS_NCLS)
			i = s->ncls - 1;	/* the last one takes the rest */
		else {
			snprintf(s->cls[i].name, sizeof s->cls[i].name, "%s",
			    name);
			s->ncls++;
		}
	}
	s->cls[i].records++;
	s->cls[i].bytes += bytes;
}

static void
ep_status(struct dec_stats_ep *e, int32_t status)
{
	size_t	 i;

	for (i = 0; i < e->nst; i++) {
		if (e->st[i].status == status) {
			e->st[i].n++;
			return;
		}
	}
	if (e->nst == DEC_STATS_NSTATUS) {
		e->st_other++;
		return;
	}
	e->st[e->nst].status = status;
	e->st[e->nst++].n = 1;
}

static void
ep_complete(struct dec_stats *s, struct dec_stats_ep *e,
    const struct urb_rec *r, const struct dec_info *info)
{
	uint32_t	 i, bad = 0;

	e->completions++;
	s->completions++;
	if ((r->epnum & 0x80) != 0)
		e->bytes_in += r->len_urb;
	else
		e->bytes_out += r->len_urb;
	if (r->status == -2 || r->status == -104) {	/* ENOENT, ECONNRESET */
		e->cancelled++;
		s->cancelled++;
	} else if (r->status != 0 && urb_failed(r)) {
		ep_status(e, r->status);
		e->failed++;
		s->failed++;
	}
	if (r->xfer_type == XFER_ISO) {
		e->iso_frames += r->niso;
		for (i = 0; i < r->niso; i++)
			bad += r->iso[i].status != 0;
		if (r->niso == 0 && r->iso_error_count > 0)
			bad = (uint32_t)r->iso_error_count;
		e->iso_frame_errors += bad;
		s->iso_frame_errors += bad;
		if (bad != 0 && r->status == 0) {
			e->failed++;
			s->failed++;
		}
	}
	if ((info->flags & DI_PAIRED) == 0)
		s->unpaired++;
	else if (info->latency_ns >= 0 && info->latency_ns != DEC_TS_BAD) {
		if (dec_grow(&e->lat, e->nlat, &e->latcap, sizeof *e->lat) != 0)
			s->oom = 1;
		else {
			e->lat[e->nlat++] = info->latency_ns;
			e->sorted = 0;
		}
	}
	if (r->ts_ns != DEC_TS_BAD) {
		if (dec_grow(&e->pts, e->npts, &e->ptcap, sizeof *e->pts) != 0)
			s->oom = 1;
		else {
			e->pts[e->npts].ts_ns = r->ts_ns;
			e->pts[e->npts++].bytes = r->len_urb;
		}
	}
}

static struct dec_stats_msc *
msc_get(struct dec_stats *s, uint16_t bus, uint8_t dev, uint8_t lun)
{
	struct dec_stats_msc	*m;
	size_t			 i;

	for (i = 0; i < s->nmsc; i++) {
		m = &s->msc[i];
		if (m->busnum == bus && m->devnum == dev && m->lun == lun)
			return m;
	}
	if (s->nmsc == DEC_STATS_NMSC)
		return NULL;
	m = &s->msc[s->nmsc++];
	memset(m, 0, sizeof *m);
	m->busnum = bus;
	m->devnum = dev;
	m->lun = lun;
	m->rd.lba_min = m->wr.lba_min = UINT64_MAX;
	return m;
}

/*
 * Bulk-only mass storage: a command counts when its CBW goes out (the
 * class state has just learnt it, dec-msc.c), its status and the bytes it
 * moved when the CSW that ends it comes back, and a REQUEST SENSE answer
 * counts its sense key.  UAS is not summed up here.
 */
static void
msc_add(struct dec_stats *s, const struct urb_rec *r,
    const struct dec_info *info)
{
	const struct dec_cls_state *st = info->st;
	struct dec_stats_msc	*m;
	struct dec_stats_rw	*rw;
	const uint8_t		*cdb;
	uint64_t		 lba, want, resid;
	uint32_t		 blocks;
	size_t			 n;
	int			 isrw;

	if (st == NULL || r->xfer_type != XFER_BULK || r->data_len < 4 ||
	    st->has_cbw == 0 || (m = msc_get(s, r->busnum, r->devnum,
	    st->cbw[13] & 0x0f)) == NULL)
		return;
	cdb = st->cbw + 15;
	n = st->cbw[14] & 0x1f;
	if (n > 16)
		n = 16;
	/* READ and WRITE (6, 10, 12, 16), not VERIFY: bit 1 of the
	 * opcode tells them apart (SBC-3 table 16) */
	isrw = n > 0 && cdb[0] != 0x2f &&
	    dec_scsi_rw_args(cdb, n, &lba, &blocks);
	rw = isrw && (cdb[0] & 0x02) == 0 ? &m->rd : &m->wr;
	if (!urb_is_in(r)) {
		if (get_le32(r->data) != CBW_SIG || st->has_cbw != 1 ||
		    st->cbw_frame != urb_frame(r))
			return;
		m->commands++;
		if (n > 0)
			m->ops[cdb[0]]++;
		if (!isrw)
			return;
		rw->commands++;
		rw->blocks += blocks;
		if (lba < rw->lba_min)
			rw->lba_min = lba;
		if (blocks > 0 && lba + blocks - 1 > rw->lba_max)
			rw->lba_max = lba + blocks - 1;
		return;
	}
	if (r->type != 'C')
		return;
	if (get_le32(r->data) != CSW_SIG) {
		/* a data phase: a REQUEST SENSE answer's key (SPC-4 4.5) */
		if (st->has_cbw == 1 && n > 0 && cdb[0] == 0x03 &&
		    r->data_len >= 3 && ((r->data[0] & 0x7f) == 0x70 ||
		    (r->data[0] & 0x7f) == 0x71))
			m->sense[r->data[2] & 0x0f]++;
		return;
	}
	if (r->data_len < CSW_LEN || st->has_cbw != 2 ||
	    get_le32(r->data + 4) != get_le32(st->cbw + 4))
		return;
	m->statuses++;
	if (r->data[12] == 1)
		m->failed++;
	else if (r->data[12] == 2)
		m->phase_errors++;
	if (isrw) {
		want = get_le32(st->cbw + 8);
		resid = get_le32(r->data + 8);
		rw->bytes += resid < want ? want - resid : 0;
	}
}

void
dec_stats_add(struct dec_stats *s, const struct urb_rec *r,
    const struct dec_info *info, uint32_t frame_len)
{
	struct dec_stats_ep	*e;
	char			 buf[64];
	uint8_t			 ep;

	span(&s->t0, &s->t1, r->ts_ns);
	cls_add(s, cls_of(r, info, buf, sizeof buf), r->data_len);
	/* every record is a frame of the file: io,stat counts them all */
	if (r->ts_ns != DEC_TS_BAD) {
		if (dec_grow(&s->frames, s->nframes, &s->framecap,
		    sizeof *s->frames) != 0)
			s->oom = 1;
		else {
			s->frames[s->nframes].ts_ns = r->ts_ns;
			s->frames[s->nframes++].len = frame_len;
		}
	}
	/*
	 * A wire-level capture's packets: the SOFs, tokens and handshakes
	 * are counted as such; the packets that end a piece of a transfer
	 * carry its submit or completion (capture/cap-usbll.c) and count
	 * for their endpoint as usbmon's records do.
	 */
	if (r->type == 'P') {
		s->packets++;
		return;
	}
	s->records++;

	/* one row for a control endpoint, whichever way its requests go */
	ep = r->xfer_type == XFER_CTRL ? r->epnum & 0x7f : r->epnum;
	if ((e = ep_get(s, r->busnum, r->devnum, ep)) == NULL)
		return;
	if (e->submits + e->completions + e->submit_errors == 0)
		e->xfer = r->xfer_type;
	if ((info->flags & DI_CLASS) != 0 && e->intf < 0) {
		e->intf = info->intf;
		e->cls = info->cls;
	}
	span(&e->first_ns, &e->last_ns, r->ts_ns);
	/* tshark's frames: a submit from the host, the rest to it */
	if (r->type == 'S')
		e->sub_len += frame_len;
	else
		e->end_len += frame_len;
	if ((info->flags & DI_CLASS) != 0 && info->cls == 0x08)
		msc_add(s, r, info);
	switch (r->type) {
	case 'S':
		e->submits++;
		s->submits++;
		break;
	case 'E':
		e->submit_errors++;
		s->submit_errors++;
		ep_status(e, r->status);
		e->failed++;
		s->failed++;
		break;
	case 'C':
		ep_complete(s, e, r, info);
		break;
	}
}

void
dec_stats_event(struct dec_stats *s, const struct drv_event *ev)
{
	size_t	 i;

	span(&s->t0, &s->t1, ev->ts_ns);
	if (ev->kind == DRV_BUS) {
		s->bus_events++;
		if (ev->bus_ev < sizeof s->bus_kinds / sizeof s->bus_kinds[0])
			s->bus_kinds[ev->bus_ev]++;
		return;
	}
	s->events++;
	if ((unsigned)ev->kind < sizeof s->kinds / sizeof s->kinds[0])
		s->kinds[ev->kind]++;
	if (ev->kind != DRV_RULE || ev->rule == NULL)
		return;
	for (i = 0; i < s->nrules; i++) {
		if (strcmp(s->rules[i].id, ev->rule) == 0)
			break;
	}
	if (i == s->nrules) {
		if (s->nrules == DEC_STATS_NRULES)
			return;
		snprintf(s->rules[i].id, sizeof s->rules[i].id, "%s",
		    ev->rule);
		s->nrules++;
	}
	s->rules[i].n++;
}

static int
cmp_i64(const void *a, const void *b)
{
	int64_t	 x = *(const int64_t *)a, y = *(const int64_t *)b;

	return x < y ? -1 : x > y;
}

int64_t
dec_stats_pct(struct dec_stats_ep *e, int p)
{
	size_t	 rank;

	if (e->nlat == 0)
		return -1;
	if (!e->sorted) {
		qsort(e->lat, e->nlat, sizeof *e->lat, cmp_i64);
		e->sorted = 1;
	}
	/* nearest rank: the smallest value with p% of them at or below */
	rank = (size_t)(((uint64_t)e->nlat * (uint64_t)p + 99) / 100);
	if (rank == 0)
		rank = 1;
	return e->lat[rank - 1];
}

void
dec_stats_ep_name(const struct dec_stats_ep *e, char *buf, size_t len)
{
	snprintf(buf, len, "%u.%u.%u", e->busnum, e->devnum,
	    e->epnum & 0x7f);
}

/* ------------------------------------------------------------------------
 * Shared by the printers.
 */

/* Latency histogram bounds: 1-2-5 steps from 10 us to 10 s, then more. */
static const int64_t lat_bounds[] = {
	10000, 20000, 50000, 100000, 200000, 500000,
	1000000, 2000000, 5000000, 10000000, 20000000, 50000000,
	100000000, 200000000, 500000000,
	1000000000, 2000000000, 5000000000, 10000000000,
};
#define NLATB	(sizeof lat_bounds / sizeof lat_bounds[0] + 1)

static void
lat_hist(const struct dec_stats_ep *e, uint64_t *h)
{
	size_t	 i, j;

	memset(h, 0, NLATB * sizeof *h);
	for (i = 0; i < e->nlat; i++) {
		for (j = 0; j < NLATB - 1 && e->lat[i] >= lat_bounds[j]; j++)
			continue;
		h[j]++;
	}
}

/* "10 us", "1.5 ms", "2 s": a bucket's bound. */
static void
fmt_bound(char *buf, size_t len, int64_t ns)
{
	if (ns >= 1000000000)
		snprintf(buf, len, "%lld s", (long long)(ns / 1000000000));
	else if (ns >= 1000000)
		snprintf(buf, len, "%lld ms", (long long)(ns / 1000000));
	else
		snprintf(buf, len, "%lld us", (long long)(ns / 1000));
}

/* A duration for people: "850 ns", "12.5 us", "3.214 ms", "2.004 s". */
static void
fmt_dur(char *buf, size_t len, int64_t ns)
{
	if (ns < 0)
		snprintf(buf, len, "-");
	else if (ns < 1000)
		snprintf(buf, len, "%lld ns", (long long)ns);
	else if (ns < 1000000)
		snprintf(buf, len, "%.1f us", (double)ns / 1e3);
	else if (ns < 1000000000)
		snprintf(buf, len, "%.3f ms", (double)ns / 1e6);
	else
		snprintf(buf, len, "%.3f s", (double)ns / 1e9);
}

/* Bytes a second, SI prefixes as Wireshark's. */
static void
fmt_rate(char *buf, size_t len, double bps)
{
	if (bps >= 1e6)
		snprintf(buf, len, "%.1f MB/s", bps / 1e6);
	else if (bps >= 1e3)
		snprintf(buf, len, "%.1f kB/s", bps / 1e3);
	else
		snprintf(buf, len, "%.0f B/s", bps);
}

static uint64_t
ep_bytes(const struct dec_stats_ep *e)
{
	return e->bytes_in + e->bytes_out;
}

/* Bytes a second over the endpoint's time span, or -1 without one. */
static double
ep_rate(const struct dec_stats_ep *e)
{
	if (e->first_ns == DEC_TS_BAD || e->last_ns <= e->first_ns)
		return -1;
	return (double)ep_bytes(e) * 1e9 / (double)(e->last_ns - e->first_ns);
}

static const char *
ep_dir(const struct dec_stats_ep *e)
{
	if (e->xfer == XFER_CTRL)
		return "-";
	return (e->epnum & 0x80) != 0 ? "IN" : "OUT";
}

static const char *
xfer_name(uint8_t x)
{
	static const char *const n[] = { "iso", "interrupt", "control",
	    "bulk" };

	return x < 4 ? n[x] : "?";
}

static const char *
status_name(int32_t st, char *buf, size_t len)
{
	const char *n = dec_status_name(st);

	if (n != NULL)
		return n;
	snprintf(buf, len, "%d", st);
	return buf;
}

/*
 * The activity of e in nbins columns over the capture's span: each bin's
 * bytes (its completions when e moved no bytes at all), into v; the
 * largest into *max.
 */
static void
ep_bins(const struct dec_stats *s, const struct dec_stats_ep *e,
    uint64_t *v, int nbins, uint64_t *max)
{
	int64_t		 d = s->t1 - s->t0;
	size_t		 i;
	int		 k, counts = ep_bytes(e) == 0;

	memset(v, 0, (size_t)nbins * sizeof *v);
	*max = 0;
	for (i = 0; i < e->npts; i++) {
		k = d <= 0 ? 0 : (int)((double)(e->pts[i].ts_ns - s->t0) /
		    (double)d * nbins);
		if (k < 0)
			k = 0;
		if (k >= nbins)
			k = nbins - 1;
		v[k] += counts ? 1 : e->pts[i].bytes;
	}
	for (k = 0; k < nbins; k++) {
		if (v[k] > *max)
			*max = v[k];
	}
}

/* One character of a strip: a block of 8 heights, or ASCII. */
static void
strip_cell(struct sbuf *b, uint64_t v, uint64_t max, int utf8)
{
	static const char *const blocks[] = { "\u2581", "\u2582", "\u2583",
	    "\u2584", "\u2585", "\u2586", "\u2587", "\u2588" };
	static const char ascii[] = ".:-=+*#@";
	int	 lvl;

	if (v == 0 || max == 0) {
		sb_printf(b, " ");
		return;
	}
	lvl = (int)((v * 8 - 1) / max);
	if (lvl > 7)
		lvl = 7;
	if (utf8)
		sb_printf(b, "%s", blocks[lvl]);
	else
		sb_printf(b, "%c", ascii[lvl]);
}

static int
cmp_ep(const void *a, const void *b)
{
	const struct dec_stats_ep *x = a, *y = b;

	if (x->busnum != y->busnum)
		return x->busnum < y->busnum ? -1 : 1;
	if (x->devnum != y->devnum)
		return x->devnum < y->devnum ? -1 : 1;
	if ((x->epnum & 0x7f) != (y->epnum & 0x7f))
		return (x->epnum & 0x7f) < (y->epnum & 0x7f) ? -1 : 1;
	return x->epnum < y->epnum ? -1 : x->epnum > y->epnum;
}

/* Endpoints in bus, device, endpoint order (the hash is rebuilt). */
static void
sort_eps(struct dec_stats *s)
{
	size_t		 i;
	uint32_t	 h;

	if (s->neps == 0)
		return;		/* qsort wants an array, even of none */
	qsort(s->eps, s->neps, sizeof *s->eps, cmp_ep);
	memset(s->ephash, 0, sizeof s->ephash);
	for (i = 0; i < s->neps; i++) {
		h = HASH(s->eps[i].busnum, s->eps[i].devnum, s->eps[i].epnum);
		s->eps[i].next = s->ephash[h];
		s->ephash[h] = (uint32_t)(i + 1);
	}
}

static int
cmp_addr(const void *a, const void *b)
{
	const struct dec_stats_addr *x = a, *y = b;
	uint64_t fx = x->tx_frames + x->rx_frames, fy = y->tx_frames +
	    y->rx_frames;

	if (fx != fy)
		return fx > fy ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;	/* first seen first */
}

/*
 * tshark's addresses (bus.dev.ep, both directions of an endpoint number
 * together), most frames first as tshark sorts them, into *n; free it.
 * The endpoints in their order have an address's next to each other.
 */
static struct dec_stats_addr *
sorted_addrs(struct dec_stats *s, size_t *n)
{
	struct dec_stats_addr	*v, *a = NULL;
	const struct dec_stats_ep *e;
	size_t			 i;

	*n = 0;
	sort_eps(s);
	if ((v = calloc(s->neps + 1, sizeof *v)) == NULL)
		return NULL;
	for (i = 0; i < s->neps; i++) {
		e = &s->eps[i];
		if (a == NULL || a->busnum != e->busnum ||
		    a->devnum != e->devnum || a->ep != (e->epnum & 0x7f)) {
			a = &v[(*n)++];
			a->busnum = e->busnum;
			a->devnum = e->devnum;
			a->ep = e->epnum & 0x7f;
			a->first_ns = a->last_ns = DEC_TS_BAD;
			a->seq = e->seq;
		}
		a->rx_frames += e->submits;
		a->rx_bytes += e->sub_len;
		a->tx_frames += e->completions + e->submit_errors;
		a->tx_bytes += e->end_len;
		span(&a->first_ns, &a->last_ns, e->first_ns);
		span(&a->first_ns, &a->last_ns, e->last_ns);
		if (e->seq < a->seq)
			a->seq = e->seq;
	}
	qsort(v, *n, sizeof *v, cmp_addr);
	return v;
}

uint64_t
dec_stats_io_count(const struct dec_stats *s, int64_t io_ns)
{
	if (io_ns <= 0)
		io_ns = 1000000000;
	if (s->nframes == 0 || s->t1 == DEC_TS_BAD)
		return 0;
	return (uint64_t)(s->t1 - s->t0) / (uint64_t)io_ns + 1;
}

/* The io,stat rows: frames and bytes of each interval from the first
 * frame; NULL (with *n 0) when there are none or too many. */
static uint64_t *
io_rows(const struct dec_stats *s, int64_t io_ns, size_t *n)
{
	uint64_t	*v;
	uint64_t	 k;
	size_t		 i;

	*n = 0;
	if (io_ns <= 0 || (k = dec_stats_io_count(s, io_ns)) == 0 ||
	    k > DEC_STATS_IO_MAX)
		return NULL;
	if ((v = calloc(k * 2, sizeof *v)) == NULL)
		return NULL;
	for (i = 0; i < s->nframes; i++) {
		uint64_t j = (uint64_t)(s->frames[i].ts_ns - s->t0) /
		    (uint64_t)io_ns;

		v[2 * j]++;
		v[2 * j + 1] += s->frames[i].len;
	}
	*n = (size_t)k;
	return v;
}

static int64_t
opt_io(const struct dec_stats_opts *o)
{
	return o->io_ns > 0 ? o->io_ns : 1000000000;
}

static int
opt_bins(const struct dec_stats_opts *o)
{
	return o->bins > 0 && o->bins <= 512 ? o->bins : 32;
}

/* ------------------------------------------------------------------------
 * Text.
 */

static void
text_overview(struct dec_stats *s, struct sbuf *b)
{
	char	 d[32];

	sb_printf(b, "URBs: %llu submits, %llu completions, %llu submit "
	    "errors", (unsigned long long)s->submits,
	    (unsigned long long)s->completions,
	    (unsigned long long)s->submit_errors);
	if (s->packets != 0)
		sb_printf(b, "; %llu wire-level packets",
		    (unsigned long long)s->packets);
	sb_printf(b, "\nDriver events: %llu\n", (unsigned long long)s->events);
	if (s->bus_events != 0)
		sb_printf(b, "Bus events: %llu (the sniffer's)\n",
		    (unsigned long long)s->bus_events);
	if (s->t0 != DEC_TS_BAD) {
		fmt_dur(d, sizeof d, s->t1 - s->t0);
		sb_printf(b, "Duration: %s\n", d);
	}
	sb_printf(b, "Errors: %llu failed, %llu cancelled (unlink/kill), "
	    "%llu isochronous frames in error\n",
	    (unsigned long long)s->failed, (unsigned long long)s->cancelled,
	    (unsigned long long)s->iso_frame_errors);
	if (s->oom)
		sb_printf(b, "(out of memory: some records were not "
		    "counted)\n");
}

static void
text_endpoints(struct dec_stats *s, const struct dec_stats_opts *o,
    struct sbuf *b)
{
	uint64_t	*bins;
	uint64_t	 max;
	char		 nm[24], r[24], l[4][24];
	size_t		 i;
	int		 k, nb = opt_bins(o);

	sb_printf(b, "\nEndpoints (bytes: completions' actual length; "
	    "latency: submit to completion)\n");
	sb_printf(b, "%-10s %-9s %-3s %4s %8s %10s %11s %6s %10s %10s %10s "
	    "%10s  %s\n", "ENDPOINT", "TYPE", "DIR", "INTF", "URBS", "BYTES",
	    "RATE", "ERRORS", "LAT MIN", "MEDIAN", "P99", "MAX", "ACTIVITY");
	if ((bins = calloc((size_t)nb, sizeof *bins)) == NULL)
		return;
	for (i = 0; i < s->neps; i++) {
		struct dec_stats_ep *e = &s->eps[i];
		double rate = ep_rate(e);

		dec_stats_ep_name(e, nm, sizeof nm);
		if (rate < 0)
			snprintf(r, sizeof r, "-");
		else
			fmt_rate(r, sizeof r, rate);
		fmt_dur(l[0], sizeof l[0], dec_stats_pct(e, 0));
		fmt_dur(l[1], sizeof l[1], dec_stats_pct(e, 50));
		fmt_dur(l[2], sizeof l[2], dec_stats_pct(e, 99));
		fmt_dur(l[3], sizeof l[3], dec_stats_pct(e, 100));
		sb_printf(b, "%-10s %-9s %-3s ", nm, xfer_name(e->xfer),
		    ep_dir(e));
		if (e->intf >= 0)
			sb_printf(b, "%4d ", e->intf);
		else
			sb_printf(b, "%4s ", "-");
		sb_printf(b, "%8llu %10llu %11s %6llu %10s %10s %10s %10s  ",
		    (unsigned long long)(e->completions + e->submit_errors),
		    (unsigned long long)ep_bytes(e), r,
		    (unsigned long long)e->failed, l[0], l[1], l[2], l[3]);
		ep_bins(s, e, bins, nb, &max);
		for (k = 0; k < nb; k++)
			strip_cell(b, bins[k], max, o->utf8);
		sb_printf(b, "\n");
	}
	free(bins);
}

static void
text_latency(struct dec_stats *s, const struct dec_stats_opts *o,
    struct sbuf *b)
{
	uint64_t	 h[NLATB], max;
	char		 nm[24], lo[24], hi[24];
	size_t		 i, j, first, last;
	int		 k, w;

	sb_printf(b, "\nLatency histograms\n");
	for (i = 0; i < s->neps; i++) {
		struct dec_stats_ep *e = &s->eps[i];

		if (e->nlat == 0)
			continue;
		lat_hist(e, h);
		first = NLATB;
		last = 0;
		max = 0;
		for (j = 0; j < NLATB; j++) {
			if (h[j] == 0)
				continue;
			if (first == NLATB)
				first = j;
			last = j;
			if (h[j] > max)
				max = h[j];
		}
		dec_stats_ep_name(e, nm, sizeof nm);
		sb_printf(b, "%s %s %s, %zu URBs:\n", nm, xfer_name(e->xfer),
		    ep_dir(e), e->nlat);
		for (j = first; j <= last; j++) {
			if (j == 0)
				snprintf(lo, sizeof lo, "0");
			else
				fmt_bound(lo, sizeof lo, lat_bounds[j - 1]);
			if (j == NLATB - 1)
				snprintf(hi, sizeof hi, "...");
			else
				fmt_bound(hi, sizeof hi, lat_bounds[j]);
			sb_printf(b, "  %6s - %-6s %8llu |", lo, hi,
			    (unsigned long long)h[j]);
			w = (int)((h[j] * 40 + max - 1) / max);
			for (k = 0; k < w; k++)
				sb_printf(b, "%s", o->utf8 ? "\u2588" : "#");
			sb_printf(b, "\n");
		}
	}
}

static void
text_errors(struct dec_stats *s, struct sbuf *b)
{
	char		 nm[24], sn[24];
	const char	*sep;
	size_t		 i, j;
	int		 any = 0;

	sb_printf(b, "\nErrors\n");
	for (i = 0; i < s->neps; i++) {
		struct dec_stats_ep *e = &s->eps[i];

		if (e->failed == 0 && e->cancelled == 0 &&
		    e->iso_frame_errors == 0)
			continue;
		any = 1;
		dec_stats_ep_name(e, nm, sizeof nm);
		sb_printf(b, "%-10s %-9s %-3s", nm, xfer_name(e->xfer),
		    ep_dir(e));
		for (j = 0; j < e->nst; j++)
			sb_printf(b, " %s x%llu", status_name(e->st[j].status,
			    sn, sizeof sn), (unsigned long long)e->st[j].n);
		if (e->st_other != 0)
			sb_printf(b, " other x%llu",
			    (unsigned long long)e->st_other);
		/* "; " only between the parts: statuses, cancels, frames */
		sep = e->nst != 0 || e->st_other != 0 ? "; " : " ";
		if (e->cancelled != 0) {
			sb_printf(b, "%scancelled (unlink/kill) x%llu", sep,
			    (unsigned long long)e->cancelled);
			sep = "; ";
		}
		if (e->iso_frame_errors != 0)
			sb_printf(b, "%s%llu of %llu isochronous frames in "
			    "error", sep,
			    (unsigned long long)e->iso_frame_errors,
			    (unsigned long long)e->iso_frames);
		sb_printf(b, "\n");
	}
	if (!any)
		sb_printf(b, "none\n");
}

static void
text_classes(struct dec_stats *s, struct sbuf *b)
{
	size_t	 i;

	sb_printf(b, "\nClasses\n%-48s %10s %12s\n", "CLASS", "RECORDS",
	    "BYTES");
	for (i = 0; i < s->ncls; i++)
		sb_printf(b, "%-48s %10llu %12llu\n", s->cls[i].name,
		    (unsigned long long)s->cls[i].records,
		    (unsigned long long)s->cls[i].bytes);
}

static void
text_events(struct dec_stats *s, struct sbuf *b)
{
	const char	*n;
	size_t		 i;

	if (s->bus_events != 0) {
		sb_printf(b, "\nBus events\n");
		for (i = 0; i < sizeof s->bus_kinds / sizeof s->bus_kinds[0];
		    i++) {
			if (s->bus_kinds[i] == 0)
				continue;
			n = dec_name_find(dec_bus_evs, (uint32_t)i);
			sb_printf(b, "  %-16s %8llu\n", n != NULL ? n : "other",
			    (unsigned long long)s->bus_kinds[i]);
		}
	}
	if (s->events == 0)
		return;
	sb_printf(b, "\nDriver events\n");
	for (i = 0; i < sizeof s->kinds / sizeof s->kinds[0]; i++) {
		if (s->kinds[i] == 0)
			continue;
		n = dec_drv_kind_name((int)i);
		sb_printf(b, "  %-16s %8llu\n", n != NULL ? n : "?",
		    (unsigned long long)s->kinds[i]);
	}
	for (i = 0; i < s->nrules; i++)
		sb_printf(b, "  rule %-32s %8llu\n", s->rules[i].id,
		    (unsigned long long)s->rules[i].n);
}

static void
text_rw(struct sbuf *b, const char *what, const struct dec_stats_rw *rw)
{
	if (rw->commands == 0)
		return;
	sb_printf(b, "  %s: %llu commands, %llu blocks, %llu bytes, LBA "
	    "%llu-%llu\n", what, (unsigned long long)rw->commands,
	    (unsigned long long)rw->blocks, (unsigned long long)rw->bytes,
	    (unsigned long long)rw->lba_min,
	    (unsigned long long)rw->lba_max);
}

static void
text_msc(struct dec_stats *s, struct sbuf *b)
{
	const struct dec_stats_msc *m;
	char		 tmp[24];
	size_t		 i;
	int		 op, k, first;

	if (s->nmsc == 0)
		return;
	sb_printf(b, "\nMass storage (bulk-only)\n");
	for (i = 0; i < s->nmsc; i++) {
		m = &s->msc[i];
		sb_printf(b, "%u.%u LUN %u: %llu commands (%llu ended by a "
		    "CSW), %llu failed, %llu phase errors\n", m->busnum,
		    m->devnum, m->lun, (unsigned long long)m->commands,
		    (unsigned long long)m->statuses,
		    (unsigned long long)m->failed,
		    (unsigned long long)m->phase_errors);
		text_rw(b, "read", &m->rd);
		text_rw(b, "written", &m->wr);
		sb_printf(b, "  commands:");
		for (op = 0; op < 256; op++) {
			if (m->ops[op] != 0)
				sb_printf(b, " %s x%llu",
				    dec_scsi_op_name((uint8_t)op, tmp),
				    (unsigned long long)m->ops[op]);
		}
		sb_printf(b, "\n");
		for (k = 0, first = 1; k < 16; k++) {
			if (m->sense[k] == 0)
				continue;
			sb_printf(b, "%s %s x%llu", first ? "  sense keys:" :
			    ",", dec_scsi_sense_key_name((uint8_t)k, tmp),
			    (unsigned long long)m->sense[k]);
			first = 0;
		}
		if (!first)
			sb_printf(b, "\n");
	}
}

static void
addr_name(const struct dec_stats_addr *a, char *buf, size_t len)
{
	snprintf(buf, len, "%u.%u.%u", a->busnum, a->devnum, a->ep);
}

static void
text_conv(struct dec_stats *s, struct sbuf *b)
{
	struct dec_stats_addr *v;
	char		 nm[24];
	size_t		 i, n;

	if ((v = sorted_addrs(s, &n)) == NULL)
		return;
	sb_printf(b, "USB Conversations (A = host; bytes: frame.len)\n");
	sb_printf(b, "%-10s %-10s %10s %12s %10s %12s %10s %12s %14s %12s\n",
	    "A", "B", "B->A", "BYTES", "A->B", "BYTES", "TOTAL", "BYTES",
	    "REL START", "DURATION");
	for (i = 0; i < n; i++) {
		const struct dec_stats_addr *a = &v[i];

		addr_name(a, nm, sizeof nm);
		sb_printf(b, "%-10s %-10s %10llu %12llu %10llu %12llu %10llu "
		    "%12llu ", "host", nm, (unsigned long long)a->tx_frames,
		    (unsigned long long)a->tx_bytes,
		    (unsigned long long)a->rx_frames,
		    (unsigned long long)a->rx_bytes,
		    (unsigned long long)(a->tx_frames + a->rx_frames),
		    (unsigned long long)(a->tx_bytes + a->rx_bytes));
		if (a->first_ns != DEC_TS_BAD) {
			sb_printf(b, "%14.9f %12.4f\n",
			    (double)(a->first_ns - s->t0) / 1e9,
			    (double)(a->last_ns - a->first_ns) / 1e9);
		} else
			sb_printf(b, "%14s %12s\n", "-", "-");
	}
	free(v);
}

static void
text_addrs(struct dec_stats *s, struct sbuf *b)
{
	struct dec_stats_addr *v;
	uint64_t	 f = 0, by = 0, tf = 0, tb = 0;
	char		 nm[24];
	size_t		 i, n;

	if ((v = sorted_addrs(s, &n)) == NULL)
		return;
	for (i = 0; i < n; i++) {
		f += v[i].tx_frames + v[i].rx_frames;
		by += v[i].tx_bytes + v[i].rx_bytes;
		tf += v[i].rx_frames;
		tb += v[i].rx_bytes;
	}
	sb_printf(b, "USB Endpoints (bytes: frame.len)\n");
	sb_printf(b, "%-10s %10s %12s %10s %12s %10s %12s\n", "ADDRESS",
	    "PACKETS", "BYTES", "TX PACKETS", "TX BYTES", "RX PACKETS",
	    "RX BYTES");
	if (n != 0)
		sb_printf(b, "%-10s %10llu %12llu %10llu %12llu %10llu "
		    "%12llu\n", "host", (unsigned long long)f,
		    (unsigned long long)by, (unsigned long long)tf,
		    (unsigned long long)tb, (unsigned long long)(f - tf),
		    (unsigned long long)(by - tb));
	for (i = 0; i < n; i++) {
		const struct dec_stats_addr *a = &v[i];

		addr_name(a, nm, sizeof nm);
		sb_printf(b, "%-10s %10llu %12llu %10llu %12llu %10llu "
		    "%12llu\n", nm,
		    (unsigned long long)(a->tx_frames + a->rx_frames),
		    (unsigned long long)(a->tx_bytes + a->rx_bytes),
		    (unsigned long long)a->tx_frames,
		    (unsigned long long)a->tx_bytes,
		    (unsigned long long)a->rx_frames,
		    (unsigned long long)a->rx_bytes);
	}
	free(v);
}

static void
text_io(struct dec_stats *s, const struct dec_stats_opts *o, struct sbuf *b)
{
	uint64_t	*v;
	int64_t		 io = opt_io(o);
	size_t		 n, i;

	sb_printf(b, "IO Statistics (interval %.6f s; bytes: frame.len)\n",
	    (double)io / 1e9);
	if ((v = io_rows(s, io, &n)) == NULL) {
		sb_printf(b, s->nframes == 0 ? "no frames with a time\n" :
		    "more than %d intervals: choose a longer one\n",
		    DEC_STATS_IO_MAX);
		return;
	}
	sb_printf(b, "%14s %14s %10s %12s\n", "START", "END", "FRAMES",
	    "BYTES");
	for (i = 0; i < n; i++) {
		sb_printf(b, "%14.6f ", (double)i * (double)io / 1e9);
		if (i + 1 == n)
			sb_printf(b, "%14.6f ", (double)(s->t1 - s->t0) / 1e9);
		else
			sb_printf(b, "%14.6f ", (double)(i + 1) *
			    (double)io / 1e9);
		sb_printf(b, "%10llu %12llu\n", (unsigned long long)v[2 * i],
		    (unsigned long long)v[2 * i + 1]);
	}
	free(v);
}

void
dec_stats_text(struct dec_stats *s, const struct dec_stats_opts *o,
    struct sbuf *b)
{
	int	 sep = 0;

	sort_eps(s);
	if (o->what & DS_OVERVIEW)
		text_overview(s, b);
	if (o->what & DS_ENDPOINTS)
		text_endpoints(s, o, b);
	if (o->what & DS_LATENCY)
		text_latency(s, o, b);
	if (o->what & DS_ERRORS)
		text_errors(s, b);
	if (o->what & DS_CLASSES)
		text_classes(s, b);
	if (o->what & DS_MSC)
		text_msc(s, b);
	if (o->what & DS_EVENTS)
		text_events(s, b);
	sep = (o->what & DS_REPORT) != 0;
	if (o->what & DS_CONV) {
		sb_printf(b, "%s", sep ? "\n" : "");
		text_conv(s, b);
		sep = 1;
	}
	if (o->what & DS_ADDRS) {
		sb_printf(b, "%s", sep ? "\n" : "");
		text_addrs(s, b);
		sep = 1;
	}
	if (o->what & DS_IO) {
		sb_printf(b, "%s", sep ? "\n" : "");
		text_io(s, o, b);
	}
}

/* ------------------------------------------------------------------------
 * JSON: one object, every number exact.
 */

static void
json_ep(struct dec_stats *s, struct dec_stats_ep *e,
    const struct dec_stats_opts *o, struct sbuf *b)
{
	uint64_t	 h[NLATB], *bins, max;
	char		 nm[24], sn[24];
	size_t		 j;
	double		 rate = ep_rate(e);
	int		 k, nb = opt_bins(o), first = 1;

	dec_stats_ep_name(e, nm, sizeof nm);
	sb_printf(b, "{\"endpoint\":\"%s\",\"epnum\":\"0x%02x\","
	    "\"type\":\"%s\",\"direction\":\"%s\"", nm, e->epnum,
	    xfer_name(e->xfer), e->xfer == XFER_CTRL ? "both" :
	    (e->epnum & 0x80) != 0 ? "in" : "out");
	if (e->intf >= 0)
		sb_printf(b, ",\"interface\":%d", e->intf);
	if (e->cls >= 0)
		sb_printf(b, ",\"class\":%d", e->cls);
	sb_printf(b, ",\"submits\":%llu,\"completions\":%llu,"
	    "\"submit_errors\":%llu,\"bytes_in\":%llu,\"bytes_out\":%llu",
	    (unsigned long long)e->submits,
	    (unsigned long long)e->completions,
	    (unsigned long long)e->submit_errors,
	    (unsigned long long)e->bytes_in,
	    (unsigned long long)e->bytes_out);
	if (rate >= 0)
		sb_printf(b, ",\"bytes_per_s\":%.3f", rate);
	sb_printf(b, ",\"failed\":%llu,\"cancelled\":%llu,\"errors\":{",
	    (unsigned long long)e->failed, (unsigned long long)e->cancelled);
	for (j = 0; j < e->nst; j++)
		sb_printf(b, "%s\"%s\":%llu", j ? "," : "",
		    status_name(e->st[j].status, sn, sizeof sn),
		    (unsigned long long)e->st[j].n);
	if (e->st_other != 0)
		sb_printf(b, "%s\"other\":%llu", e->nst ? "," : "",
		    (unsigned long long)e->st_other);
	sb_printf(b, "},\"iso_frames\":%llu,\"iso_frame_errors\":%llu",
	    (unsigned long long)e->iso_frames,
	    (unsigned long long)e->iso_frame_errors);
	if (e->first_ns != DEC_TS_BAD)
		sb_printf(b, ",\"first\":%.9f,\"last\":%.9f",
		    (double)(e->first_ns - s->t0) / 1e9,
		    (double)(e->last_ns - s->t0) / 1e9);
	if (e->nlat != 0) {
		sb_printf(b, ",\"latency_ns\":{\"count\":%zu,\"min\":%lld,"
		    "\"median\":%lld,\"p99\":%lld,\"max\":%lld,"
		    "\"histogram\":[", e->nlat,
		    (long long)dec_stats_pct(e, 0),
		    (long long)dec_stats_pct(e, 50),
		    (long long)dec_stats_pct(e, 99),
		    (long long)dec_stats_pct(e, 100));
		lat_hist(e, h);
		for (j = 0; j < NLATB; j++) {
			if (h[j] == 0)
				continue;
			sb_printf(b, "%s{\"below_ns\":", first ? "" : ",");
			first = 0;
			if (j == NLATB - 1)
				sb_printf(b, "null");
			else
				sb_printf(b, "%lld", (long long)lat_bounds[j]);
			sb_printf(b, ",\"count\":%llu}",
			    (unsigned long long)h[j]);
		}
		sb_printf(b, "]}");
	}
	if ((bins = calloc((size_t)nb, sizeof *bins)) != NULL) {
		ep_bins(s, e, bins, nb, &max);
		sb_printf(b, ",\"activity\":{\"unit\":\"%s\",\"bins\":[",
		    ep_bytes(e) == 0 ? "completions" : "bytes");
		for (k = 0; k < nb; k++)
			sb_printf(b, "%s%llu", k ? "," : "",
			    (unsigned long long)bins[k]);
		sb_printf(b, "]}");
		free(bins);
	}
	sb_printf(b, "}");
}

static void
json_rw(struct sbuf *b, const char *what, const struct dec_stats_rw *rw)
{
	sb_printf(b, ",\"%s\":{\"commands\":%llu,\"blocks\":%llu,"
	    "\"bytes\":%llu", what, (unsigned long long)rw->commands,
	    (unsigned long long)rw->blocks, (unsigned long long)rw->bytes);
	if (rw->commands != 0)
		sb_printf(b, ",\"lba_min\":%llu,\"lba_max\":%llu",
		    (unsigned long long)rw->lba_min,
		    (unsigned long long)rw->lba_max);
	sb_printf(b, "}");
}

static void
json_msc(const struct dec_stats_msc *m, struct sbuf *b)
{
	const char	*n;
	char		 tmp[24];
	int		 op, k, first = 1;

	sb_printf(b, "{\"device\":\"%u.%u\",\"lun\":%u,\"commands\":%llu,"
	    "\"statuses\":%llu,\"failed\":%llu,\"phase_errors\":%llu,"
	    "\"opcodes\":{", m->busnum, m->devnum, m->lun,
	    (unsigned long long)m->commands,
	    (unsigned long long)m->statuses,
	    (unsigned long long)m->failed,
	    (unsigned long long)m->phase_errors);
	for (op = 0; op < 256; op++) {
		if (m->ops[op] == 0)
			continue;
		sb_printf(b, "%s\"0x%02x\":%llu", first ? "" : ",", op,
		    (unsigned long long)m->ops[op]);
		first = 0;
	}
	sb_printf(b, "}");
	json_rw(b, "read", &m->rd);
	json_rw(b, "written", &m->wr);
	sb_printf(b, ",\"sense_keys\":{");
	for (k = 0, first = 1; k < 16; k++) {
		if (m->sense[k] == 0)
			continue;
		n = dec_scsi_sense_key_name((uint8_t)k, tmp);
		sb_printf(b, "%s", first ? "" : ",");
		sb_json_str(b, n, strlen(n));
		sb_printf(b, ":%llu", (unsigned long long)m->sense[k]);
		first = 0;
	}
	sb_printf(b, "}}");
}

void
dec_stats_json(struct dec_stats *s, const struct dec_stats_opts *o,
    struct sbuf *b)
{
	struct dec_stats_addr *v;
	const char	*n;
	uint64_t	*io;
	char		 nm[24];
	size_t		 i, nio, naddr;
	int		 first;

	sort_eps(s);
	sb_printf(b, "{\"submits\":%llu,\"completions\":%llu,"
	    "\"submit_errors\":%llu,\"packets\":%llu,\"events\":%llu,"
	    "\"failed\":%llu,\"cancelled\":%llu,\"iso_frame_errors\":%llu,"
	    "\"unpaired\":%llu",
	    (unsigned long long)s->submits,
	    (unsigned long long)s->completions,
	    (unsigned long long)s->submit_errors,
	    (unsigned long long)s->packets, (unsigned long long)s->events,
	    (unsigned long long)s->failed, (unsigned long long)s->cancelled,
	    (unsigned long long)s->iso_frame_errors,
	    (unsigned long long)s->unpaired);
	if (s->t0 != DEC_TS_BAD)
		sb_printf(b, ",\"duration\":%.9f", (double)(s->t1 - s->t0) /
		    1e9);
	if (s->oom)
		sb_printf(b, ",\"incomplete\":true");
	sb_printf(b, ",\"endpoints\":[");
	for (i = 0; i < s->neps; i++) {
		sb_printf(b, "%s", i ? "," : "");
		json_ep(s, &s->eps[i], o, b);
	}
	sb_printf(b, "],\"classes\":[");
	for (i = 0; i < s->ncls; i++) {
		sb_printf(b, "%s{\"class\":", i ? "," : "");
		sb_json_str(b, s->cls[i].name, strlen(s->cls[i].name));
		sb_printf(b, ",\"records\":%llu,\"bytes\":%llu}",
		    (unsigned long long)s->cls[i].records,
		    (unsigned long long)s->cls[i].bytes);
	}
	sb_printf(b, "],\"mass_storage\":[");
	for (i = 0; i < s->nmsc; i++) {
		sb_printf(b, "%s", i ? "," : "");
		json_msc(&s->msc[i], b);
	}
	sb_printf(b, "],\"events_by_kind\":{");
	first = 1;
	for (i = 0; i < sizeof s->kinds / sizeof s->kinds[0]; i++) {
		if (s->kinds[i] == 0 || (n = dec_drv_kind_name((int)i)) ==
		    NULL)
			continue;
		sb_printf(b, "%s\"%s\":%llu", first ? "" : ",", n,
		    (unsigned long long)s->kinds[i]);
		first = 0;
	}
	sb_printf(b, "},\"bus_events\":%llu,\"bus_events_by_kind\":{",
	    (unsigned long long)s->bus_events);
	first = 1;
	for (i = 0; i < sizeof s->bus_kinds / sizeof s->bus_kinds[0]; i++) {
		if (s->bus_kinds[i] == 0)
			continue;
		n = dec_name_find(dec_bus_evs, (uint32_t)i);
		sb_printf(b, "%s\"%s\":%llu", first ? "" : ",",
		    n != NULL ? n : "other", (unsigned long long)s->bus_kinds[i]);
		first = 0;
	}
	sb_printf(b, "},\"rules\":{");
	for (i = 0; i < s->nrules; i++) {
		sb_printf(b, "%s", i ? "," : "");
		sb_json_str(b, s->rules[i].id, strlen(s->rules[i].id));
		sb_printf(b, ":%llu", (unsigned long long)s->rules[i].n);
	}
	sb_printf(b, "},\"conversations\":[");
	if ((v = sorted_addrs(s, &naddr)) != NULL) {
		for (i = 0; i < naddr; i++) {
			addr_name(&v[i], nm, sizeof nm);
			sb_printf(b, "%s{\"a\":\"host\",\"b\":\"%s\","
			    "\"frames_b_to_a\":%llu,\"bytes_b_to_a\":%llu,"
			    "\"frames_a_to_b\":%llu,\"bytes_a_to_b\":%llu}",
			    i ? "," : "", nm,
			    (unsigned long long)v[i].tx_frames,
			    (unsigned long long)v[i].tx_bytes,
			    (unsigned long long)v[i].rx_frames,
			    (unsigned long long)v[i].rx_bytes);
		}
		free(v);
	}
	sb_printf(b, "],\"io\":{\"interval\":%.9f,\"rows\":[",
	    (double)opt_io(o) / 1e9);
	if ((io = io_rows(s, opt_io(o), &nio)) != NULL) {
		for (i = 0; i < nio; i++)
			sb_printf(b, "%s{\"frames\":%llu,\"bytes\":%llu}",
			    i ? "," : "", (unsigned long long)io[2 * i],
			    (unsigned long long)io[2 * i + 1]);
		free(io);
	}
	sb_printf(b, "]}}\n");
}

/* ------------------------------------------------------------------------
 * SVG: a row an endpoint, its throughput over time on the left and its
 * latency histogram on the right, for a bug report.  Both read as charts:
 * the throughput's axes have ticks labelled in time and in bytes a second
 * (URBs a second for an endpoint without data), the histogram's bars
 * stand between ticks labelled with the buckets' bounds and carry their
 * counts.
 */
#define SVG_W		960
#define SVG_ROW		150
#define SVG_TOP		40
#define SVG_PLOT_X	70
#define SVG_PLOT_W	490
#define SVG_HIST_X	620
#define SVG_HIST_W	320
#define SVG_PLOT_H	80
#define SVG_NBINS	64
#define SVG_GREY	"#555"

/* The least of 1, 2 or 5 times a power of ten that is >= v (v > 0). */
static double
nice_step(double v)
{
	double	 p = 1e-9;

	while (p * 10 <= v)
		p *= 10;
	if (p >= v)
		return p;
	if (2 * p >= v)
		return 2 * p;
	if (5 * p >= v)
		return 5 * p;
	return 10 * p;
}

/* Units of a tick, largest first, ending with the scale 1. */
struct svg_unit {
	double		 scale;
	const char	*name;
};

static const struct svg_unit svg_time_units[] = {
	{ 1e9, "s" }, { 1e6, "ms" }, { 1e3, "us" }, { 1, "ns" }
};
static const struct svg_unit svg_rate_units[] = {
	{ 1e6, "MB/s" }, { 1e3, "kB/s" }, { 1, "B/s" }
};

/* v in the largest unit that ref reaches: "500 ms", "1.5 s", "2 kB/s". */
static void
fmt_unit(char *buf, size_t len, double v, double ref,
    const struct svg_unit *u)
{
	while (u->scale > 1 && ref < u->scale)
		u++;
	snprintf(buf, len, "%g %s", v / u->scale, u->name);
}

/* A tick mark from (x, y) down (vertical) or left, and its label. */
static void
svg_tick(struct sbuf *b, double x, double y, int vertical, const char *lab)
{
	double	 x1 = vertical ? x : x - 4, y2 = vertical ? y + 4 : y;

	sb_printf(b, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
	    "y2=\"%.1f\" stroke=\"#888\"/><text x=\"%.1f\" y=\"%.1f\" "
	    "fill=\"" SVG_GREY "\" text-anchor=\"%s\">%s</text>\n",
	    x1, y, x, y2, vertical ? x : x - 6, vertical ? y + 14 : y + 4,
	    vertical ? "middle" : "end", lab);
}

/* The throughput of e over the capture, in a frame at top y. */
static void
svg_throughput(struct sbuf *b, const struct dec_stats *s,
    const struct dec_stats_ep *e, uint64_t *bins, int y)
{
	double		 d = (double)(s->t1 - s->t0), per, top, step, t, x;
	double		 bw = (double)SVG_PLOT_W / SVG_NBINS, bh;
	uint64_t	 max;
	char		 lab[32];
	int		 k, urbs = ep_bytes(e) == 0;

	sb_printf(b, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" "
	    "fill=\"none\" stroke=\"#888\"/>\n", SVG_PLOT_X, y, SVG_PLOT_W,
	    SVG_PLOT_H);
	ep_bins(s, e, bins, SVG_NBINS, &max);
	if (max == 0 || s->t0 == DEC_TS_BAD || d <= 0)
		return;
	/* a bin's value a second; the axis ends at a round rate */
	per = d / SVG_NBINS / 1e9;
	top = nice_step((double)max / per);
	for (k = 0; k < SVG_NBINS; k++) {
		if (bins[k] == 0)
			continue;
		bh = (double)bins[k] / per * SVG_PLOT_H / top;
		sb_printf(b, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
		    "height=\"%.1f\" fill=\"#3a7bd5\"/>\n", SVG_PLOT_X + k * bw,
		    y + SVG_PLOT_H - bh, bw * 0.9, bh);
	}
	for (k = 0; k <= 2; k++) {
		if (urbs)
			snprintf(lab, sizeof lab, "%g/s", top * k / 2);
		else
			fmt_unit(lab, sizeof lab, top * k / 2, top * k / 2,
			    svg_rate_units);
		svg_tick(b, SVG_PLOT_X, y + SVG_PLOT_H - SVG_PLOT_H * k / 2.0,
		    0, lab);
	}
	sb_printf(b, "<text x=\"%d\" y=\"%d\" fill=\"" SVG_GREY "\">%s a "
	    "second</text>\n", SVG_PLOT_X + 4, y + 12, urbs ? "URBs" :
	    "bytes");
	step = nice_step(d / 8);
	for (k = 0; (t = k * step) <= d; k++) {
		x = SVG_PLOT_X + t / d * SVG_PLOT_W;
		if (k == 0)
			snprintf(lab, sizeof lab, "0");
		else
			fmt_unit(lab, sizeof lab, t, d, svg_time_units);
		svg_tick(b, x, y + SVG_PLOT_H, 1, lab);
	}
}

/* e's latency histogram, its counts on the bars, in a frame at top y. */
static void
svg_latency(struct sbuf *b, const struct dec_stats_ep *e, int y)
{
	uint64_t	 h[NLATB], max = 0;
	double		 bw = (double)SVG_HIST_W / NLATB, bh, x;
	char		 lab[32];
	size_t		 j;

	sb_printf(b, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" "
	    "fill=\"none\" stroke=\"#888\"/>\n", SVG_HIST_X, y, SVG_HIST_W,
	    SVG_PLOT_H);
	if (e->nlat == 0)
		return;
	lat_hist(e, h);
	for (j = 0; j < NLATB; j++)
		if (h[j] > max)
			max = h[j];
	for (j = 0; j < NLATB; j++) {
		if (h[j] == 0)
			continue;
		/* room above the highest bar for its count */
		bh = (double)h[j] * (SVG_PLOT_H - 14) / (double)max;
		x = SVG_HIST_X + (double)j * bw;
		sb_printf(b, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
		    "height=\"%.1f\" fill=\"#d5823a\"/><text x=\"%.1f\" "
		    "y=\"%.1f\" font-size=\"9\" text-anchor=\"middle\" "
		    "class=\"count\">%llu</text>\n", x + bw * 0.05,
		    y + SVG_PLOT_H - bh, bw * 0.9, bh, x + bw / 2,
		    y + SVG_PLOT_H - bh - 3, (unsigned long long)h[j]);
	}
	/* a tick between every two buckets, a label every decade */
	for (j = 0; j + 1 < NLATB; j++) {
		x = SVG_HIST_X + (double)(j + 1) * bw;
		if (j % 3 != 0) {
			sb_printf(b, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" "
			    "y2=\"%d\" stroke=\"#888\"/>\n", x,
			    y + SVG_PLOT_H, x, y + SVG_PLOT_H + 2);
			continue;
		}
		fmt_bound(lab, sizeof lab, lat_bounds[j]);
		svg_tick(b, x, y + SVG_PLOT_H, 1, lab);
	}
	sb_printf(b, "<text x=\"%d\" y=\"%d\" fill=\"" SVG_GREY "\" "
	    "text-anchor=\"end\">latency: URBs by bucket</text>\n",
	    SVG_HIST_X + SVG_HIST_W, y + SVG_PLOT_H + 28);
}

void
dec_stats_svg(struct dec_stats *s, const struct dec_stats_opts *o,
    struct sbuf *b)
{
	uint64_t	*bins;
	char		 nm[24], lab[32], rate[24];
	size_t		 i;
	int		 y;

	(void)o;
	sort_eps(s);
	if ((bins = calloc(SVG_NBINS, sizeof *bins)) == NULL)
		return;
	sb_printf(b, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
	    "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
	    "height=\"%zu\" font-family=\"monospace\" font-size=\"11\">\n"
	    "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n",
	    SVG_W, (size_t)SVG_TOP + s->neps * SVG_ROW + 10);
	fmt_dur(lab, sizeof lab, s->t0 == DEC_TS_BAD ? -1 : s->t1 - s->t0);
	sb_printf(b, "<text x=\"10\" y=\"20\" font-size=\"14\">urbscope "
	    "stats: %zu endpoints, %s; throughput over the capture (left), "
	    "latency histogram (right)</text>\n", s->neps, lab);
	for (i = 0; i < s->neps; i++) {
		struct dec_stats_ep *e = &s->eps[i];
		double r = ep_rate(e);

		y = SVG_TOP + (int)i * SVG_ROW;
		dec_stats_ep_name(e, nm, sizeof nm);
		if (r < 0)
			snprintf(rate, sizeof rate, "-");
		else
			fmt_rate(rate, sizeof rate, r);
		sb_printf(b, "<text x=\"10\" y=\"%d\">%s %s %s: %llu URBs, "
		    "%llu bytes, %s, %llu errors</text>\n", y + 12, nm,
		    xfer_name(e->xfer), ep_dir(e),
		    (unsigned long long)(e->completions + e->submit_errors),
		    (unsigned long long)ep_bytes(e), rate,
		    (unsigned long long)e->failed);
		svg_throughput(b, s, e, bins, y + 24);
		svg_latency(b, e, y + 24);
	}
	sb_printf(b, "</svg>\n");
	free(bins);
}
