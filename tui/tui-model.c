/*
 * tui/tui-model.c - the timeline index and what the views do with it:
 * filtering (over the index alone, no re-reading, unless the filter
 * tests Wireshark's names: then each record is re-read through the scan
 * function and decoded), selection, paging, follow, pairing and search:
 * for text or bytes (which re-reads records through the fetch function)
 * or for a filter expression (as filtering).  No curses here:
 * tests/unit/test-tui-model.c drives it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui-correlate.h"
#include "tui-model.h"

void
tui_model_init(struct tui_model *m, tui_fetch_fn fetch, void *arg)
{
	memset(m, 0, sizeof *m);
	m->fetch = fetch;
	m->fetch_arg = arg;
	m->rows = 1;
	m->t0 = DEC_TS_BAD;
	m->fwant = TI_NONE;
	m->tref = TI_NONE;
	m->fsync = 65536;
	m->filter.node = m->fnode;
	m->filter.max = TUI_FILTER_NODES;
	dec_filter_compile(&m->filter, "");
	m->sfilter.node = m->sfnode;
	m->sfilter.max = TUI_FILTER_NODES;
	m->all = 1;
}

void
tui_model_free(struct tui_model *m)
{
	size_t	 i;

	for (i = 0; i < m->ndrivers; i++)
		free(m->drivers[i]);
	free(m->drivers);
	dec_filter_free(&m->filter);
	dec_filter_free(&m->sfilter);
	free(m->item);
	free(m->fp);
	free(m->vis);
	free(m->runs);
	free(m->polls);
	free(m->ids);
	free(m->idhash);
	free(m->evx);
	free(m->gap);
	free(m->tnodes);
	free(m->tarena);
	memset(m, 0, sizeof *m);
}

static int
grow(void *pp, size_t *cap, size_t need, size_t size)
{
	void	*p;
	size_t	 n = *cap ? *cap : 1024;

	if (need <= *cap)
		return 0;
	while (n < need)
		n *= 2;
	if ((p = realloc(*(void **)pp, n * size)) == NULL)
		return -UE_NOMEM;
	*(void **)pp = p;
	*cap = n;
	return 0;
}

static size_t
id_slot(uint64_t id, size_t cap)
{
	id ^= id >> 33;
	id *= 0xff51afd7ed558ccdULL;
	id ^= id >> 33;
	return (size_t)id & (cap - 1);
}

/* The ids[] index of URB id, added when new; -1 when out of memory. */
static long
id_ref(struct tui_model *m, uint64_t id)
{
	uint32_t *nh;
	size_t	 i, j, ncap;

	if (m->idhcap != 0) {
		for (i = id_slot(id, m->idhcap); m->idhash[i] != 0;
		    i = (i + 1) & (m->idhcap - 1)) {
			if (m->ids[m->idhash[i] - 1] == id)
				return (long)m->idhash[i] - 1;
		}
	}
	if ((m->nids + 1) * 2 > m->idhcap) {
		ncap = m->idhcap ? m->idhcap * 2 : 256;
		if ((nh = calloc(ncap, sizeof *nh)) == NULL)
			return -1;
		for (j = 0; j < m->nids; j++) {
			for (i = id_slot(m->ids[j], ncap); nh[i] != 0;
			    i = (i + 1) & (ncap - 1))
				;
			nh[i] = (uint32_t)j + 1;
		}
		free(m->idhash);
		m->idhash = nh;
		m->idhcap = ncap;
	}
	if (grow(&m->ids, &m->idcap, m->nids + 1, sizeof *m->ids) != 0)
		return -1;
	m->ids[m->nids] = id;
	for (i = id_slot(id, m->idhcap); m->idhash[i] != 0;
	    i = (i + 1) & (m->idhcap - 1))
		;
	m->idhash[i] = (uint32_t)++m->nids;
	return (long)m->nids - 1;
}

static int16_t
clamp16(int32_t v)
{
	return (int16_t)(v < INT16_MIN ? INT16_MIN : v > INT16_MAX ?
	    INT16_MAX : v);
}

/* The last gap at or before item i, or NULL. */
static const struct tui_gap *
gap_before(const struct tui_model *m, uint32_t i)
{
	size_t	 lo = 0, hi = m->ngap, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (m->gap[mid].item <= i)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo > 0 ? &m->gap[lo - 1] : NULL;
}

int
tui_model_skipped(struct tui_model *m, uint64_t skipped, int64_t first_ns,
    int64_t last_ns)
{
	struct tui_gap	*g;

	/* times count from the file's first frame */
	if (m->t0 == DEC_TS_BAD)
		m->t0 = first_ns != DEC_TS_BAD ? first_ns : last_ns;
	if (m->ngap > 0 && m->gap[m->ngap - 1].item == m->n)
		g = &m->gap[m->ngap - 1];
	else if (grow(&m->gap, &m->gapcap, m->ngap + 1, sizeof *m->gap) != 0)
		return -UE_NOMEM;
	else
		g = &m->gap[m->ngap++];
	g->item = (uint32_t)m->n;
	g->skipped = skipped;
	g->last_ns = last_ns;
	return 0;
}

uint64_t
tui_model_frame(const struct tui_model *m, uint32_t i)
{
	const struct tui_gap *g = gap_before(m, i);

	return (uint64_t)tui_recno(i) + (g != NULL ? g->skipped : 0);
}

uint32_t
tui_model_frame_item(const struct tui_model *m, uint64_t frame)
{
	size_t	 lo = 0, hi = m->n, mid;

	/* frame numbers grow with the items */
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (tui_model_frame(m, (uint32_t)mid) < frame)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < m->n ? (uint32_t)lo : TI_NONE;
}

int64_t
tui_model_prev_ns(const struct tui_model *m, uint32_t i)
{
	const struct tui_gap *g = gap_before(m, i);

	if (g != NULL && g->item == i && g->last_ns != DEC_TS_BAD)
		return g->last_ns;
	return i > 0 ? m->item[i - 1].ts_ns : m->item[i].ts_ns;
}

/* The item of source record recno: items are the source's records. */
static uint32_t
find_recno(const struct tui_model *m, uint64_t recno)
{
	return recno >= 1 && recno <= m->n ? (uint32_t)(recno - 1) : TI_NONE;
}

static void
fvals(const struct tui_model *m, uint32_t i, struct dec_fvals *v)
{
	const struct tui_item *it = &m->item[i];

	memset(v, 0, sizeof *v);
	v->busnum = it->busnum;
	v->devnum = it->devnum;
	v->ep = it->ep;
	v->len = it->len;
	v->latency_ns = tui_model_latency(m, i);
	if (it->kind & TI_EVENT) {
		v->is_event = 1;
		v->event = it->kind & ~TI_EVENT;
		v->driver = tui_model_driver(m, i);
	} else {
		v->xfer = it->xfer;
		v->ev = it->kind;
		v->status = it->status;
	}
	v->urb = tui_model_urb_id(m, i);
	v->has_urb = v->urb != 0 || !(it->kind & TI_EVENT);
}

/*
 * Does item i pass filter f?  A filter on what only the record has (its
 * tree, an event's fields) re-reads it; an item that cannot be re-read
 * has none of those fields.
 */
static int
matches(struct tui_model *m, const struct dec_filter *f, uint32_t i)
{
	tui_fetch_fn	 fetch = m->scan != NULL ? m->scan : m->fetch;
	const struct dec_rec *rec;
	struct dec_fvals v;
	struct dec_frame fr;
	struct dec_tree	 t;

	fvals(m, i, &v);
	memset(&fr, 0, sizeof fr);
	fr.number = tui_model_frame(m, i);
	fr.ts_ns = m->item[i].ts_ns;
	fr.t0_ns = m->t0;
	fr.prev_ns = tui_model_prev_ns(m, i);
	v.frame = &fr;
	if (!f->need_rec || fetch == NULL ||
	    (rec = fetch(m->fetch_arg, tui_recno(i))) == NULL)
		return dec_filter_match(f, &v);
	if (rec->kind == CAP_EVENT) {
		v.evp = &rec->ev;
		return dec_filter_match(f, &v);
	}
	fr.number = urb_frame(&rec->r);
	fr.offset = rec->r.offset;
	fr.len = rec->r.wire_len;
	fr.cap_len = rec->r.cap_len;
	v.r = &rec->r;
	v.info = &rec->info;
	if (f->need_tree) {
		if (m->tnodes == NULL) {
			m->tnodes = calloc(DEC_TREE_NODES, sizeof *m->tnodes);
			m->tarena = malloc(DEC_TREE_ARENA);
		}
		if (m->tnodes != NULL && m->tarena != NULL) {
			dec_tree_init(&t, m->tnodes, DEC_TREE_NODES,
			    m->tarena, DEC_TREE_ARENA);
			t.all_bits = 1;
			dec_record_tree(&rec->r, &rec->info, &t);
			v.tree = &t;
		}
	}
	return dec_filter_match(f, &v);
}

/* Is there no filter expression (or one that passes everything)? */
static int
no_filter(const struct tui_model *m)
{
	return m->filter.n == 0 ||
	    m->filter.node[m->filter.root].op == DFO_TRUE;
}

/* Is item i shown: the transfers view and the filter pass it?  Not
 * called while m->all. */
static int
passes(struct tui_model *m, uint32_t i)
{
	if (m->transfers && m->item[i].kind == 'S' &&
	    m->item[i].pair != TI_NONE)
		return 0;
	return no_filter(m) || matches(m, &m->filter, i);
}

int
tui_model_record_next(struct tui_model *m, size_t *k, uint32_t *i)
{
	uint32_t j;

	if (!m->transfers) {
		if (*k >= m->nvis)
			return 0;
		*i = tui_model_vis(m, (*k)++);
		return 1;
	}
	while (*k < m->n) {
		j = (uint32_t)(*k)++;
		if (no_filter(m) || matches(m, &m->filter, j)) {
			*i = j;
			return 1;
		}
	}
	return 0;
}

/*
 * Does shown item j's row stand for item i too: the transfers view, two
 * ends of a URB alike on one endpoint (a run's items are all alike: j
 * may be any of them)?
 */
static void
item_key(const struct tui_model *m, uint32_t i, struct dec_xkey *k)
{
	const struct tui_item *it = &m->item[i];

	memset(k, 0, sizeof *k);
	k->busnum = it->busnum;
	k->devnum = it->devnum;
	k->epnum = it->ep;
	k->xfer_type = it->xfer;
	k->type = (char)it->kind;
	k->status = it->status;
	k->len = it->len;
	k->fp = m->fp[i];
}

static int
same_run(const struct tui_model *m, uint32_t j, uint32_t i)
{
	struct dec_xkey	 a, b;

	if (!m->transfers || (m->item[j].kind != 'C' &&
	    m->item[j].kind != 'E'))
		return 0;
	/* read --transfers's rule (which compares the bytes too) */
	item_key(m, j, &a);
	item_key(m, i, &b);
	return dec_xfer_alike(&a, &b);
}

/*
 * Item i's fingerprint (dec_xfer_fingerprint), its pair p's kept: a
 * submit's is what it sends (dec_xfer_sent), which an end's row shows.
 */
static uint64_t
item_fp(const struct tui_model *m, uint32_t p, const struct urb_rec *r,
    const struct dec_info *info)
{
	if (r->type == 'S')
		return dec_xfer_sent(r);
	if (r->type == 'P')
		return dec_fold_role(r);
	return dec_xfer_fingerprint(r, info, p != TI_NONE &&
	    m->item[p].kind == 'S' ? m->fp[p] : 0);
}

/* Keep sel within [top, top + rows). */
static void
fix_scroll(struct tui_model *m)
{
	if (m->nvis == 0) {
		m->sel = m->top = 0;
		return;
	}
	if (m->sel >= m->nvis)
		m->sel = m->nvis - 1;
	if (m->sel < m->top)
		m->top = m->sel;
	if (m->sel >= m->top + m->rows)
		m->top = m->sel - m->rows + 1;
	if (m->top + m->rows > m->nvis)
		m->top = m->nvis > m->rows ? m->nvis - m->rows : 0;
}

static void	 drop_row(struct tui_model *, size_t);

/* The dec_fold_role of row k's first item, 0 when it is no bus packet. */
static uint32_t
row_role(const struct tui_model *m, size_t k)
{
	uint32_t i = m->vis[k];

	return m->item[i].kind == 'P' ? (uint32_t)m->fp[i] : 0;
}

/*
 * The transfers view: bus packet i into the row before it, as read
 * --collapse folds them (decode/dec-usbll.c): a SOF into a row of SOFs; a
 * NAK into the row of the token it answers, which then joins the run of
 * polls of that token before it, with the SOFs between.  Returns 1 when
 * i went into a row.
 */
static int
fold_packet(struct tui_model *m, uint32_t i)
{
	uint32_t role, prev;
	size_t	 k, s;

	if (!m->transfers || m->item[i].kind != 'P' || m->nvis == 0)
		return 0;
	role = (uint32_t)m->fp[i];
	k = m->nvis - 1;
	prev = row_role(m, k);
	if (role == DEC_FOLD_SOF && prev == DEC_FOLD_SOF) {
		m->runs[k]++;
		return 1;
	}
	if (DEC_FOLD_KIND(role) != DEC_FOLD_NAK ||
	    DEC_FOLD_KIND(prev) != DEC_FOLD_POLL || m->runs[k] != 1 ||
	    DEC_FOLD_KEY(prev) != DEC_FOLD_KEY(role))
		return 0;
	m->runs[k]++;
	m->polls[k] = 1;
	s = k;
	if (s > 0 && row_role(m, s - 1) == DEC_FOLD_SOF)
		s--;
	if (s > 0 && row_role(m, s - 1) == prev && m->polls[s - 1] > 0) {
		m->runs[s - 1] += m->runs[k] + (s < k ? m->runs[s] : 0);
		m->polls[s - 1]++;
		drop_row(m, k);
		if (s < k)
			drop_row(m, s);
	}
	return 1;
}

int
tui_model_fold_text(struct tui_model *m, size_t k, struct sbuf *b)
{
	const struct dec_rec *rec;
	uint32_t role, sofs, from, j, end;

	if (m->all || k >= m->nvis || m->runs[k] < 2 ||
	    (role = row_role(m, k)) == 0)
		return 0;
	if (m->polls[k] > 0) {
		dec_fold_polls(b, DEC_FOLD_KEY(role), m->polls[k]);
		if ((sofs = m->runs[k] - 2 * m->polls[k]) > 0)
			sb_printf(b, ", %u SOF%s between", sofs,
			    sofs == 1 ? "" : "s");
		return 1;
	}
	if (role != DEC_FOLD_SOF || m->fetch == NULL)
		return 0;
	/* the frame numbers of the first SOF and of the last */
	if ((rec = m->fetch(m->fetch_arg, tui_recno(m->vis[k]))) == NULL)
		return -1;
	from = rec->r.ll.frame;
	end = k + 1 < m->nvis ? m->vis[k + 1] : (uint32_t)m->fpos;
	for (j = end; j-- > m->vis[k];)
		if (m->item[j].kind == 'P' && m->fp[j] == DEC_FOLD_SOF)
			break;
	if ((rec = m->fetch(m->fetch_arg, tui_recno(j))) == NULL)
		return -1;
	sb_printf(b, "%u SOFs %u-%u", m->runs[k], from, rec->r.ll.frame);
	return 1;
}

/*
 * Item i (the next after fpos) is filtered: show it if it passes.  While
 * a new filter runs the selection waits for the item it was on (fwant),
 * trailing the newest match until then.
 */
static int
filtered(struct tui_model *m, uint32_t i)
{
	m->fpos = (size_t)i + 1;
	if (m->all)
		m->nvis++;
	else {
		if (!passes(m, i))
			return 0;
		if (fold_packet(m, i))
			;
		else if (m->nvis > 0 && same_run(m, m->vis[m->nvis - 1], i))
			m->runs[m->nvis - 1]++;
		else {
			if (grow(&m->vis, &m->viscap, m->nvis + 1,
			    sizeof *m->vis) != 0 || grow(&m->runs,
			    &m->runcap, m->nvis + 1, sizeof *m->runs) != 0 ||
			    grow(&m->polls, &m->pollcap, m->nvis + 1,
			    sizeof *m->polls) != 0)
				return -UE_NOMEM;
			m->runs[m->nvis] = 1;
			m->polls[m->nvis] = 0;
			m->vis[m->nvis++] = i;
		}
	}
	if (m->follow) {
		m->sel = m->nvis - 1;
		fix_scroll(m);
	} else if (m->fwant != TI_NONE) {
		m->sel = m->nvis - 1;
		if (i >= m->fwant) {
			m->fwant = TI_NONE;
			m->top = m->sel > m->rows / 2 ? m->sel - m->rows / 2 :
			    0;
		}
		fix_scroll(m);
	}
	return 0;
}

static int
appended(struct tui_model *m)
{
	/* a filter still working through older items gets to it later */
	if (m->fpos + 1 != m->n)
		return 0;
	return filtered(m, (uint32_t)m->n - 1);
}

int
tui_model_filter_step(struct tui_model *m, size_t max)
{
	while (m->fpos < m->n && max-- > 0)
		if (filtered(m, (uint32_t)m->fpos) != 0)
			return -UE_NOMEM;
	if (m->fpos < m->n)
		return 1;
	if (m->fwant != TI_NONE) {
		/* nothing at or after it passes: stay on the last */
		m->fwant = TI_NONE;
		m->sel = m->nvis ? m->nvis - 1 : 0;
		fix_scroll(m);
	}
	return 0;
}

static size_t	 vis_lower(const struct tui_model *, uint32_t);

/* Take row k out of the view. */
static void
drop_row(struct tui_model *m, size_t k)
{
	memmove(m->vis + k, m->vis + k + 1, (m->nvis - k - 1) *
	    sizeof *m->vis);
	memmove(m->runs + k, m->runs + k + 1, (m->nvis - k - 1) *
	    sizeof *m->runs);
	memmove(m->polls + k, m->polls + k + 1, (m->nvis - k - 1) *
	    sizeof *m->polls);
	m->nvis--;
	if (m->sel > k)
		m->sel--;
	if (m->top > k)
		m->top--;
}

/*
 * The transfers view: submit i, shown while it waited, now completed.
 * The rows either side of it may be one run now (the next URB of a
 * poll was submitted before this one completed).
 */
static void
unshow(struct tui_model *m, uint32_t i)
{
	size_t	 k;

	if (i >= m->fpos || (k = vis_lower(m, i)) >= m->nvis ||
	    tui_model_vis(m, k) != i)
		return;
	drop_row(m, k);
	if (k > 0 && k < m->nvis && same_run(m, m->vis[k - 1], m->vis[k])) {
		m->runs[k - 1] += m->runs[k];
		if (m->sel == k)
			m->sel--;
		drop_row(m, k);
	}
	fix_scroll(m);
}

/* Are the items' fingerprints kept up (tui_model.fp)? */
static int
keep_fp(const struct tui_model *m)
{
	return m->fp != NULL || m->fetch == NULL;
}

/*
 * The fingerprints of the items so far, from their records fetched again
 * (the first time the transfers view is turned on).  One that cannot be
 * read again gets a value of its own, so it joins no run.
 */
static int
make_fp(struct tui_model *m)
{
	tui_fetch_fn	 fetch = m->scan != NULL ? m->scan : m->fetch;
	const struct dec_rec *rec;
	uint32_t	 i;

	if (keep_fp(m))
		return 0;
	if (grow(&m->fp, &m->fpcap, m->n > 0 ? m->n : 1,
	    sizeof *m->fp) != 0)
		return -UE_NOMEM;
	for (i = 0; i < m->n; i++) {
		rec = fetch(m->fetch_arg, tui_recno(i));
		if (rec == NULL)
			m->fp[i] = ~(uint64_t)i;
		else if (rec->kind == CAP_URB)
			m->fp[i] = item_fp(m, m->item[i].pair < i ?
			    m->item[i].pair : TI_NONE, &rec->r, &rec->info);
		else
			m->fp[i] = 0;
	}
	return 0;
}

int
tui_model_add_urb(struct tui_model *m, const struct urb_rec *r,
    const struct dec_info *info)
{
	struct tui_item *it;
	uint32_t p;
	long	 ref;

	if (r->recno != m->n + 1)
		return -UE_RANGE;	/* not the source's next record */
	if (grow(&m->item, &m->cap, m->n + 1, sizeof *m->item) != 0 ||
	    (keep_fp(m) && grow(&m->fp, &m->fpcap, m->n + 1,
	    sizeof *m->fp) != 0) || (ref = id_ref(m, r->id)) < 0)
		return -UE_NOMEM;
	it = &m->item[m->n];
	it->ts_ns = r->ts_ns;
	if (m->t0 == DEC_TS_BAD)
		m->t0 = r->ts_ns;
	it->pair = TI_NONE;
	it->len = r->len_urb;
	it->ref = (uint32_t)ref;
	it->status = clamp16(r->status);
	it->busnum = r->busnum;
	it->devnum = r->devnum;
	it->ep = r->epnum;
	it->kind = r->type;
	it->xfer = r->xfer_type;
	m->n++;
	p = TI_NONE;
	if (info != NULL && (info->flags & DI_PAIRED) &&
	    (p = find_recno(m, info->pair_recno)) != TI_NONE) {
		it->pair = p;
		m->item[p].pair = (uint32_t)m->n - 1;
	}
	if (keep_fp(m))
		m->fp[m->n - 1] = item_fp(m, p, r, info);
	if (p != TI_NONE && m->transfers && m->item[p].kind == 'S')
		unshow(m, p);
	/* a URB once: its submit, or a completion whose submit is not in
	 * the capture */
	if (r->type == 'S' || ((r->type == 'C' || r->type == 'E') &&
	    it->pair == TI_NONE))
		m->nurb++;
	m->nerror += (uint64_t)urb_failed(r);
	return appended(m);
}

int
tui_model_add_event(struct tui_model *m, const struct drv_event *ev)
{
	struct tui_item *it;
	struct tui_evx	*x;
	size_t	 d;
	char	**nd;

	if (ev->recno != m->n + 1)
		return -UE_RANGE;	/* not the source's next record */
	if (grow(&m->item, &m->cap, m->n + 1, sizeof *m->item) != 0 ||
	    (keep_fp(m) && grow(&m->fp, &m->fpcap, m->n + 1,
	    sizeof *m->fp) != 0) ||
	    grow(&m->evx, &m->evxcap, m->nevx + 1, sizeof *m->evx) != 0)
		return -UE_NOMEM;
	if (keep_fp(m))
		m->fp[m->n] = 0;
	x = &m->evx[m->nevx];
	x->urb_id = ev->urb_id;
	x->result = ev->result;
	x->driver = 0;
	if (ev->driver != NULL) {
		for (d = 0; d < m->ndrivers; d++)
			if (strcmp(m->drivers[d], ev->driver) == 0)
				break;
		if (d == m->ndrivers) {
			nd = realloc(m->drivers, (d + 1) * sizeof *nd);
			if (nd == NULL)
				return -UE_NOMEM;
			m->drivers = nd;
			if ((nd[d] = strdup(ev->driver)) == NULL)
				return -UE_NOMEM;
			m->ndrivers++;
		}
		x->driver = (uint32_t)d + 1;
	}
	it = &m->item[m->n];
	it->ts_ns = ev->ts_ns;
	if (m->t0 == DEC_TS_BAD)
		m->t0 = ev->ts_ns;
	it->pair = TI_NONE;
	it->len = ev->length;
	it->ref = (uint32_t)m->nevx++;
	it->status = clamp16(ev->result);
	it->busnum = ev->busnum;
	it->devnum = ev->devnum;
	it->ep = ev->ep;
	it->kind = (uint8_t)(TI_EVENT | (ev->kind & 0x7f));
	it->xfer = 0;
	m->n++;
	m->nevent++;
	if (ev->kind == DRV_RULE)
		m->nerror++;
	if (m->corr != NULL &&
	    tui_corr_feed_event(m->corr, ev, (uint32_t)(m->n - 1)) != 0)
		return -UE_NOMEM;
	return appended(m);
}

size_t
tui_model_bytes(const struct tui_model *m)
{
	return m->n * sizeof *m->item + (m->fp != NULL ? m->n *
	    sizeof *m->fp : 0) +
	    m->nids * sizeof *m->ids + m->idhcap * sizeof *m->idhash +
	    m->nevx * sizeof *m->evx + m->ngap * sizeof *m->gap +
	    (m->all ? 0 : m->nvis * (sizeof *m->vis + sizeof *m->runs));
}

uint32_t
tui_model_selected(const struct tui_model *m)
{
	return m->nvis == 0 ? TI_NONE : tui_model_vis(m, m->sel);
}

#define SUBMITTER_WINDOW	64	/* items searched back from an 'S' */

uint32_t
tui_model_submitter(const struct tui_model *m, uint32_t i)
{
	const struct tui_item *it;
	uint64_t	 id;
	uint32_t	 j, stop;
	int		 refused;

	if (i == TI_NONE || i >= m->n)
		return TI_NONE;
	it = &m->item[i];
	if (it->kind == 'C' || it->kind == 'E') {
		if (it->pair == TI_NONE || it->pair > i)
			return TI_NONE;
		i = it->pair;
		it = &m->item[i];
	}
	if (it->kind != 'S' || it->ref >= m->nids)
		return TI_NONE;
	id = m->ids[it->ref];
	/* An 'S' the HCD refused ends in 'E' (usbmon_urb_submit_error in
	 * drivers/usb/core/hcd.c); a submit refused before it made none. */
	refused = it->pair != TI_NONE && m->item[it->pair].kind == 'E';
	/* The core reports the driver's usb_submit_urb just before the
	 * hooks record its 'S'. */
	stop = i > SUBMITTER_WINDOW ? i - SUBMITTER_WINDOW : 0;
	for (j = i; j-- > stop;) {
		it = &m->item[j];
		if (it->kind == (TI_EVENT | DRV_SUBMIT) &&
		    it->ref < m->nevx && m->evx[it->ref].urb_id == id) {
			/* a failed call is not this 'S' unless the HCD
			 * refused it: the id is another URB's since */
			if ((m->evx[it->ref].result != 0) != refused)
				return TI_NONE;
			return j;
		}
		if (it->kind == 'S' && it->ref < m->nids &&
		    m->ids[it->ref] == id)
			break;		/* an earlier life of the same URB */
	}
	return TI_NONE;
}

int64_t
tui_model_latency(const struct tui_model *m, uint32_t i)
{
	const struct tui_item *it = &m->item[i];

	if ((it->kind != 'C' && it->kind != 'E') || it->pair == TI_NONE ||
	    it->pair > i)
		return -1;
	return dec_ts_sub(it->ts_ns, m->item[it->pair].ts_ns);
}

uint64_t
tui_model_urb_id(const struct tui_model *m, uint32_t i)
{
	const struct tui_item *it = &m->item[i];

	if (it->kind & TI_EVENT)
		return m->evx[it->ref].urb_id;
	return m->ids[it->ref];
}

const char *
tui_model_driver(const struct tui_model *m, uint32_t i)
{
	const struct tui_item *it = &m->item[i];
	uint32_t d;

	if (!(it->kind & TI_EVENT) || (d = m->evx[it->ref].driver) == 0)
		return NULL;
	return m->drivers[d - 1];
}

void
tui_model_set_rows(struct tui_model *m, size_t rows)
{
	m->rows = rows ? rows : 1;
	fix_scroll(m);
}

void
tui_model_move(struct tui_model *m, long delta)
{
	if (m->nvis == 0)
		return;
	if (delta < 0 && (size_t)-delta > m->sel)
		m->sel = 0;
	else if (delta > 0 && (size_t)delta >= m->nvis - m->sel)
		m->sel = m->nvis - 1;
	else
		m->sel = (size_t)((long)m->sel + delta);
	m->follow = m->follow && m->sel == m->nvis - 1;
	m->fwant = TI_NONE;
	fix_scroll(m);
}

void
tui_model_page(struct tui_model *m, int down)
{
	size_t	 step = m->rows > 1 ? m->rows - 1 : 1;

	if (m->nvis == 0)
		return;
	/* like less: the view moves a page, the selection with it */
	if (down) {
		m->top += step;
		if (m->top + m->rows > m->nvis)
			m->top = m->nvis > m->rows ? m->nvis - m->rows : 0;
	} else
		m->top = m->top > step ? m->top - step : 0;
	tui_model_move(m, down ? (long)step : -(long)step);
}

void
tui_model_home(struct tui_model *m)
{
	m->sel = 0;
	m->follow = 0;
	m->fwant = TI_NONE;
	fix_scroll(m);
}

void
tui_model_end(struct tui_model *m)
{
	m->sel = m->nvis ? m->nvis - 1 : 0;
	m->fwant = TI_NONE;
	fix_scroll(m);
}

void
tui_model_set_follow(struct tui_model *m, int on)
{
	m->follow = on;
	if (on)
		tui_model_end(m);
}

/* The first position in vis whose item is i or later (nvis if none). */
static size_t
vis_lower(const struct tui_model *m, uint32_t i)
{
	size_t	 lo = 0, hi = m->nvis, mid;

	if (m->all)
		return i < m->nvis ? i : m->nvis;
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (m->vis[mid] < i)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Select position p of the view (p < nvis). */
static void
select_pos(struct tui_model *m, size_t p)
{
	m->sel = p;
	m->follow = m->follow && m->sel == m->nvis - 1;
	m->fwant = TI_NONE;
	fix_scroll(m);
}

int
tui_model_select_item(struct tui_model *m, uint32_t i)
{
	size_t	 p;

	if (i >= m->n || (p = vis_lower(m, i)) >= m->nvis ||
	    tui_model_vis(m, p) != i)
		return -1;
	select_pos(m, p);
	return 0;
}

int
tui_model_select_near(struct tui_model *m, uint32_t i)
{
	size_t	 p;

	if (m->nvis == 0)
		return -1;
	p = vis_lower(m, i);
	if (p > 0 && (p == m->nvis || tui_model_vis(m, p) != i) &&
	    i < m->fpos && same_run(m, tui_model_vis(m, p - 1), i) &&
	    passes(m, i))
		p--;		/* folded into the run of row p - 1 */
	else if (p == m->nvis || (p > 0 &&
	    i - tui_model_vis(m, p - 1) < tui_model_vis(m, p) - i))
		p--;
	select_pos(m, p);
	return tui_model_vis(m, p) == i ? 0 : 1;
}

int
tui_model_select_row(struct tui_model *m, size_t k)
{
	if (m->top + k >= m->nvis)
		return -1;
	select_pos(m, m->top + k);
	return 0;
}

int
tui_model_pair(struct tui_model *m)
{
	uint32_t i = tui_model_selected(m);

	if (i == TI_NONE || m->item[i].pair == TI_NONE)
		return -1;
	if (tui_model_select_item(m, m->item[i].pair) != 0)
		return -2;
	tui_model_hist_push(m, i);
	return 0;
}

int
tui_model_goto(struct tui_model *m, uint64_t frame)
{
	uint32_t from = tui_model_selected(m), i;
	int	 rc;

	if (frame == 0 || (i = tui_model_frame_item(m, frame)) == TI_NONE)
		return -1;
	if (i >= m->fpos) {
		/* a filter runs and has not come to it: wait for it there,
		 * as a new filter waits for the selection */
		if (m->nvis > 0)
			select_pos(m, m->nvis - 1);
		m->follow = 0;
		m->fwant = i;
		return 2;
	}
	if ((rc = tui_model_select_near(m, i)) < 0)
		return -2;
	tui_model_hist_push(m, from);
	/* a packet the input skipped: the record after it */
	return tui_model_frame(m, i) != frame ? 3 : rc;
}

void
tui_model_hist_push(struct tui_model *m, uint32_t from)
{
	uint32_t to = tui_model_selected(m);

	if (from == TI_NONE || to == TI_NONE || from == to)
		return;
	/* where the last jump went may have moved on since: from is
	 * where back returns */
	if (m->nhist > 0)
		m->nhist = m->hpos;
	m->hist[m->nhist++] = from;
	if (m->nhist == TUI_HIST_MAX) {
		memmove(m->hist, m->hist + 1, (TUI_HIST_MAX - 1) *
		    sizeof *m->hist);
		m->nhist--;
	}
	m->hist[m->nhist++] = to;
	m->hpos = m->nhist - 1;
}

int
tui_model_hist_go(struct tui_model *m, int dir)
{
	uint32_t cur = tui_model_selected(m);

	if (dir < 0 ? m->hpos == 0 : m->hpos + 1 >= m->nhist)
		return -1;
	if (cur != TI_NONE)
		m->hist[m->hpos] = cur;
	if (dir < 0)
		m->hpos--;
	else
		m->hpos++;
	return tui_model_select_near(m, m->hist[m->hpos]) < 0 ? -2 :
	    tui_model_vis(m, m->sel) != m->hist[m->hpos];
}

int
tui_model_time_ref(struct tui_model *m)
{
	uint32_t i = tui_model_selected(m);

	if (i == TI_NONE)
		return -1;
	if (m->tref == i) {
		m->tref = TI_NONE;
		return 0;
	}
	if (m->item[i].ts_ns == DEC_TS_BAD)
		return -2;
	m->tref = i;
	return 1;
}

/* Filter the view again, from the start; the selection goes to item cur
 * if it passes, else the next that does. */
static int
refilter(struct tui_model *m, uint32_t cur)
{
	m->nvis = m->fpos = 0;
	m->sel = m->top = 0;
	m->fwant = cur;
	m->sdir = 0;			/* a search runs over the old view */
	m->all = no_filter(m) && !m->transfers;
	if (m->all) {
		free(m->vis);
		m->vis = NULL;
		m->viscap = 0;
		free(m->runs);
		m->runs = NULL;
		m->runcap = 0;
		free(m->polls);
		m->polls = NULL;
		m->pollcap = 0;
	}
	if (tui_model_filter_step(m, m->fsync) < 0)
		return -UE_NOMEM;
	return 0;
}

int
tui_model_set_filter(struct tui_model *m, const char *expr)
{
	struct dec_fnode save[TUI_FILTER_NODES];
	struct dec_filter old = m->filter;
	uint32_t cur = tui_model_selected(m);

	memcpy(save, m->fnode, sizeof save);
	if (dec_filter_compile(&m->filter, expr) != 0) {
		/* keep the old filter; report the new one's error */
		memcpy(m->fnode, save, sizeof save);
		m->filter.n = old.n;
		m->filter.root = old.root;
		m->filter.need_tree = old.need_tree;
		m->filter.need_rec = old.need_rec;
		return -UE_SYNTAX;
	}
	old.node = save;	/* its regular expressions */
	dec_filter_free(&old);
	snprintf(m->ftext, sizeof m->ftext, "%s", expr);
	return refilter(m, cur);
}

int
tui_model_set_transfers(struct tui_model *m, int on)
{
	if (on && make_fp(m) != 0)
		return -UE_NOMEM;
	m->transfers = on;
	return refilter(m, tui_model_selected(m));
}

static const char *const ev_short[] = {
	[DRV_REGISTER] = "register", [DRV_DEREGISTER] = "deregister",
	[DRV_MATCH] = "match", [DRV_PROBE] = "probe",
	[DRV_DISCONNECT] = "disconn", [DRV_REGISTER_DEV] = "reg_dev",
	[DRV_DEREGISTER_DEV] = "dereg_dev", [DRV_SET_INTFDATA] = "set_data",
	[DRV_GET_INTFDATA] = "get_data", [DRV_OPEN] = "open",
	[DRV_RELEASE] = "release", [DRV_SUBMIT] = "submit",
	[DRV_GIVEBACK] = "giveback", [DRV_UNLINK] = "unlink",
	[DRV_KILL] = "kill", [DRV_RULE] = "RULE", [DRV_LOG] = "log",
	[DRV_BUS] = "bus",
};

static const char *const xfer_short[] = { "iso", "int", "ctrl", "bulk" };

void
tui_model_cols(const struct tui_model *m, uint32_t i, struct tui_cols *c)
{
	const struct tui_item *it = &m->item[i];
	const char *s;
	int64_t	 t, lat;
	int	 k;

	memset(c, 0, sizeof *c);
	snprintf(c->no, sizeof c->no, "%llu",
	    (unsigned long long)tui_model_frame(m, i));
	if (i == m->tref)
		snprintf(c->time, sizeof c->time, "*REF*");	/* Wireshark's */
	else if ((t = dec_ts_sub(it->ts_ns, m->tref != TI_NONE ?
	    m->item[m->tref].ts_ns : m->t0)) == DEC_TS_BAD)
		snprintf(c->time, sizeof c->time, "bad time");
	else
		snprintf(c->time, sizeof c->time, "%s%lld.%06lld",
		    t < 0 ? "-" : "", (long long)(t < 0 ? -t : t) / 1000000000,
		    (long long)((t < 0 ? -t : t) % 1000000000) / 1000);
	if (it->kind & TI_EVENT) {
		/* events name a device (or none), an endpoint only if any */
		if (it->busnum != 0 || it->devnum != 0)
			snprintf(c->addr, sizeof c->addr, it->ep ? "%u.%u.%u" :
			    "%u.%u", it->busnum, it->devnum, it->ep & 0x7f);
		else
			snprintf(c->addr, sizeof c->addr, "-");
		if (it->ep != 0)
			snprintf(c->dir, sizeof c->dir, "%s", it->ep & 0x80 ?
			    "in" : "out");
		k = it->kind & ~TI_EVENT;
		/* a sniffer's bus event is no driver's */
		snprintf(c->ev, sizeof c->ev, k == DRV_BUS ? "bus" : "drv");
		s = k < (int)(sizeof ev_short / sizeof ev_short[0]) &&
		    ev_short[k] != NULL ? ev_short[k] : "event";
		snprintf(c->type, sizeof c->type, "%.7s", s);
		if (it->status != 0)
			snprintf(c->status, sizeof c->status, "%s",
			    dec_status_name(it->status) ? dec_status_name(
			    it->status) : "err");
		if (it->len != 0)
			snprintf(c->len, sizeof c->len, "%u", it->len);
		return;
	}
	snprintf(c->addr, sizeof c->addr, "%u.%u.%u", it->busnum, it->devnum,
	    it->ep & 0x7f);
	snprintf(c->dir, sizeof c->dir, "%s", it->ep & 0x80 ? "in" : "out");
	snprintf(c->ev, sizeof c->ev, "%c", it->kind);
	snprintf(c->type, sizeof c->type, "%s", it->xfer < 4 ?
	    xfer_short[it->xfer] : it->xfer == USBPCAP_XFER_IRP ? "irp" :
	    it->xfer == USBLL_XFER_PACKET ? "pkt" : "?");
	if (it->kind == 'S' || it->kind == 'P')
		snprintf(c->status, sizeof c->status, "-");
	else if (it->status == 0)
		snprintf(c->status, sizeof c->status, "ok");
	else if ((s = dec_status_name(it->status)) != NULL)
		snprintf(c->status, sizeof c->status, "%s", s);
	else
		snprintf(c->status, sizeof c->status, "%d", it->status);
	snprintf(c->len, sizeof c->len, "%u", it->len);
	if ((lat = tui_model_latency(m, i)) >= 0)
		dec_fmt_latency(lat, c->lat);
}

static int
summary_with(struct tui_model *m, tui_fetch_fn fetch, uint32_t i,
    struct sbuf *b)
{
	const struct dec_rec *rec;
	uint32_t	 p;

	if (fetch == NULL ||
	    (rec = fetch(m->fetch_arg, tui_recno(i))) == NULL)
		return -1;
	if (rec->kind == CAP_URB) {
		dec_fmt_summary(&m->fmt, &rec->r, &rec->info, b);
		/* as read --transfers: an OUT end's row, what was sent */
		if (m->transfers && rec->r.type != 'S' &&
		    rec->r.data_len == 0 && !urb_is_in(&rec->r) &&
		    (p = m->item[i].pair) != TI_NONE &&
		    m->item[p].kind == 'S' && m->fp[p] != 0 &&
		    (rec = fetch(m->fetch_arg, tui_recno(p))) != NULL &&
		    rec->kind == CAP_URB)
			dec_fmt_sent(&rec->r, &rec->info, b);
		return 0;
	}
	if (rec->ev.kind == DRV_BUS) {
		dec_fmt_event_summary(&rec->ev, b);
		return 0;
	}
	if (rec->ev.driver != NULL) {
		sb_puts(b, rec->ev.driver);
		sb_putc(b, ' ');
	}
	if (rec->ev.func != NULL) {
		sb_puts(b, rec->ev.func);
		sb_puts(b, "() ");
	}
	if (rec->ev.rule != NULL) {
		sb_puts(b, "[");
		sb_puts(b, rec->ev.rule);
		sb_puts(b, "] ");
	}
	if (rec->ev.text != NULL)
		sb_puts(b, rec->ev.text);
	return 0;
}

int
tui_model_summary(struct tui_model *m, uint32_t i, struct sbuf *b)
{
	return summary_with(m, m->fetch, i, b);
}

static int
line_with(struct tui_model *m, tui_fetch_fn fetch, uint32_t i,
    struct sbuf *b)
{
	struct tui_cols c;

	tui_model_cols(m, i, &c);
	sb_printf(b, "%s %s %s %s %s %s %s %s %s ", c.no, c.time, c.addr,
	    c.dir, c.ev, c.type, c.status, c.len, c.lat);
	return summary_with(m, fetch, i, b);
}

int
tui_model_line(struct tui_model *m, uint32_t i, struct sbuf *b)
{
	return line_with(m, m->fetch, i, b);
}

static int
has_upper(const char *s)
{
	for (; *s != '\0'; s++)
		if (*s >= 'A' && *s <= 'Z')
			return 1;
	return 0;
}

int
tui_search_hex(const char *s, uint8_t *bytes, size_t *nbytes, int *also_text)
{
	size_t	 run, k = 0, groups = 0, j;
	int	 prefix = 0, colon = 0, wide = 0;

	*also_text = 0;
	while (*s == ' ')
		s++;
	if ((s[0] == 'x' || s[0] == 'X') && s[1] == ':')
		prefix = 'x';
	else if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		prefix = '0';
	if (prefix != 0)
		s += 2;
	for (;;) {
		/* spaces always separate; colons only between single bytes,
		 * so "1d6b:0002" stays text */
		while (*s == ' ' || (*s == ':' && prefix != '0')) {
			colon |= *s == ':';
			s++;
		}
		if (*s == '\0')
			break;
		for (run = 0; dec_hexval((unsigned char)s[run]) >= 0; run++)
			;
		if (run == 0 || run % 2 != 0 ||
		    k + run / 2 > TUI_SEARCH_MAXBYTES)
			return 0;
		if (prefix == '0' && groups > 0)
			return 0;	/* 0x wants one unbroken run */
		wide |= run > 2;
		for (j = 0; j < run; j += 2)
			bytes[k++] = (uint8_t)(dec_hexval((unsigned char)s[j]) <<
			    4 | dec_hexval((unsigned char)s[j + 1]));
		s += run;
		groups++;
		if (*s != '\0' && *s != ' ' && *s != ':')
			return 0;
	}
	if (colon && wide)
		return 0;
	/*
	 * One bare group is a word ("ab", "dead"); "0x81" and "0x0409"-like
	 * numbers of the summaries need two bytes to be taken for bytes,
	 * and even then may be meant as text.
	 */
	if (prefix == 'x' ? k < 1 : prefix == '0' ? k < 2 : groups < 2)
		return 0;
	*also_text = prefix == '0';
	*nbytes = k;
	return 1;
}

/* Filter operators: text with one is meant as a filter (a bare word is
 * text, though the filter would take it as a field's presence). */
static int
filter_like(const char *s)
{
	return strpbrk(s, "=<>&|~") != NULL || strstr(s, " contains ") != NULL;
}

/* Work out what the search text asks for (see tui_model_search). */
static void
search_parse(struct tui_model *m)
{
	m->skind = TUI_SEARCH_TEXT;
	m->stext = 0;
	m->snbytes = 0;
	m->serr[0] = '\0';
	if (tui_search_hex(m->search, m->sbytes, &m->snbytes, &m->stext)) {
		m->skind = TUI_SEARCH_BYTES;
		return;
	}
	dec_filter_free(&m->sfilter);
	if (filter_like(m->search) &&
	    dec_filter_compile(&m->sfilter, m->search) == 0) {
		m->skind = TUI_SEARCH_FILTER;
		return;
	}
	if (filter_like(m->search))
		snprintf(m->serr, sizeof m->serr, "%s", m->sfilter.err);
}

const char *
tui_model_search_kind(struct tui_model *m)
{
	switch (m->skind) {
	case TUI_SEARCH_BYTES:
		return m->stext ? "bytes or text" : "bytes";
	case TUI_SEARCH_FILTER:
		return "filter";
	}
	if (m->serr[0] == '\0')
		return "text";
	snprintf(m->sdesc, sizeof m->sdesc, "text, not a filter: %s",
	    m->serr);
	return m->sdesc;
}

int
tui_model_search_start(struct tui_model *m, const char *text, int dir)
{
	if (text != NULL) {
		snprintf(m->search, sizeof m->search, "%s", text);
		search_parse(m);
	}
	m->sdir = 0;
	if (m->search[0] == '\0' || m->nvis == 0)
		return -1;
	m->sdir = dir > 0 ? 1 : -1;
	m->sfrom = m->sel;
	m->sdone = 0;
	return 0;
}

/* Does the payload or the setup of item i hold the search's bytes? */
static int
bytes_hit(struct tui_model *m, tui_fetch_fn fetch, uint32_t i)
{
	const struct dec_rec *rec;
	const struct urb_rec *r;

	if (m->item[i].kind & TI_EVENT)
		return 0;
	if (fetch == NULL ||
	    (rec = fetch(m->fetch_arg, tui_recno(i))) == NULL ||
	    rec->kind != CAP_URB)
		return 0;
	r = &rec->r;
	if (r->flag_setup == 0 && m->snbytes <= sizeof r->setup &&
	    memmem(r->setup, sizeof r->setup, m->sbytes, m->snbytes) != NULL)
		return 1;
	return r->data != NULL && memmem(r->data, r->data_len, m->sbytes,
	    m->snbytes) != NULL;
}

/* Does item i match the search?  b is scratch for the text. */
static int
search_hit(struct tui_model *m, tui_fetch_fn fetch, uint32_t i,
    struct sbuf *b, int icase)
{
	switch (m->skind) {
	case TUI_SEARCH_FILTER:
		return matches(m, &m->sfilter, i);
	case TUI_SEARCH_BYTES:
		if (bytes_hit(m, fetch, i))
			return 1;
		if (!m->stext)
			return 0;
		break;
	}
	b->len = 0;
	if (b->s != NULL)
		b->s[0] = '\0';
	if (line_with(m, fetch, i, b) != 0 || b->s == NULL)
		return 0;
	return icase ? strcasestr(b->s, m->search) != NULL :
	    strstr(b->s, m->search) != NULL;
}

int
tui_model_search_step(struct tui_model *m, size_t max)
{
	struct sbuf b = { 0 };
	tui_fetch_fn fetch = m->scan != NULL ? m->scan : m->fetch;
	size_t	 k, p;
	int	 icase, rc = 1;

	if (m->sdir == 0)
		return -1;
	icase = !has_upper(m->search);
	while (max-- > 0) {
		if (m->sdone >= m->nvis) {
			rc = -1;
			break;
		}
		k = ++m->sdone;
		p = m->sdir > 0 ? (m->sfrom + k) % m->nvis :
		    (m->sfrom + m->nvis - k % m->nvis) % m->nvis;
		if (search_hit(m, fetch, tui_model_vis(m, p), &b, icase)) {
			m->follow = 0;
			select_pos(m, p);
			tui_model_hist_push(m, tui_model_vis(m, m->sfrom));
			rc = 0;
			break;
		}
	}
	if (rc <= 0)
		m->sdir = 0;
	sb_free(&b);
	return rc;
}

int
tui_model_search(struct tui_model *m, const char *text, int dir)
{
	if (tui_model_search_start(m, text, dir) != 0)
		return -1;
	return tui_model_search_step(m, SIZE_MAX);
}
