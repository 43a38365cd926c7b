/*
 * tui/tui-store.c - re-reading records for the TUI.  The index keeps no
 * payloads; to show a record the store replays the source: a cursor (an
 * open source and the dec_ctx fed every record before it, so pairing,
 * classes and descriptors come out as in `read`) runs forward and copies a
 * window of up to WIN_ITEMS decoded records, or WIN_BYTES of their
 * payloads, around the one asked for.  Moving forward continues the
 * cursor; going back before it reopens the source (files are reopened,
 * sim: scenarios rerun: both are deterministic).  A replay of 100k records
 * costs what `read` does without printing, some 15 ms.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui-model.h"

#define WIN_ITEMS	2048
#define WIN_BYTES	(16u << 20)

struct tui_store {
	char		*name;
	struct cap_source *src;		/* the cursor, or NULL */
	struct dec_ctx	*ctx;
	struct dec_ctx	*final;		/* the state after the load */
	uint64_t	 next;		/* recno the cursor yields next */
	int		 at_end;
	struct tui_rec	 win[WIN_ITEMS];
	uint64_t	 wfirst;	/* recno of win[0] */
	size_t		 wn;
	size_t		 wbytes;	/* payload bytes in the window */
	uint64_t	 replays;
};

static size_t
align8(size_t n)
{
	return (n + 7) & ~(size_t)7;
}

static size_t
strsz(const char *s)
{
	return s != NULL ? strlen(s) + 1 : 0;
}

static const char *
putstr(uint8_t *buf, size_t *off, const char *s)
{
	char	*d;

	if (s == NULL)
		return NULL;
	d = (char *)buf + *off;
	memcpy(d, s, strlen(s) + 1);
	*off += strlen(s) + 1;
	return d;
}

int
tui_rec_copy(struct tui_rec *rec, int kind, const struct urb_rec *r,
    const struct dec_info *info, const struct drv_event *ev)
{
	size_t	 need, off = 0, niso;
	uint8_t	*nb;

	if (kind == CAP_URB) {
		niso = r->niso > URB_ISO_MAX ? URB_ISO_MAX : r->niso;
		need = align8(niso * sizeof *r->iso) + r->data_len;
	} else {
		niso = 0;
		need = strsz(ev->driver) + strsz(ev->func) + strsz(ev->rule) +
		    strsz(ev->text);
	}
	if (need > rec->bufsize) {
		if ((nb = realloc(rec->buf, need)) == NULL)
			return -UE_NOMEM;
		rec->buf = nb;
		rec->bufsize = need;
	}
	rec->kind = kind;
	if (kind == CAP_URB) {
		rec->r = *r;
		if (info != NULL)
			rec->info = *info;
		else
			memset(&rec->info, 0, sizeof rec->info);
		if (niso > 0) {
			memcpy(rec->buf, r->iso, niso * sizeof *r->iso);
			rec->r.iso = (const struct urb_iso *)(void *)rec->buf;
			rec->r.niso = (uint32_t)niso;
			off = align8(niso * sizeof *r->iso);
		} else
			rec->r.iso = NULL;
		if (r->data_len > 0) {
			memcpy(rec->buf + off, r->data, r->data_len);
			rec->r.data = rec->buf + off;
		} else
			rec->r.data = NULL;
		return 0;
	}
	rec->ev = *ev;
	rec->ev.driver = putstr(rec->buf, &off, ev->driver);
	rec->ev.func = putstr(rec->buf, &off, ev->func);
	rec->ev.rule = putstr(rec->buf, &off, ev->rule);
	rec->ev.text = putstr(rec->buf, &off, ev->text);
	return 0;
}

void
tui_rec_free(struct tui_rec *rec)
{
	free(rec->buf);
	memset(rec, 0, sizeof *rec);
}

int
tui_store_open(const char *name, struct tui_store **out, char *err,
    size_t errlen)
{
	struct tui_store *st;

	if (strcmp(name, "-") == 0) {
		snprintf(err, errlen, "standard input cannot be re-read: "
		    "save it to a file first");
		return -UE_USAGE;
	}
	if ((st = calloc(1, sizeof *st)) == NULL ||
	    (st->name = strdup(name)) == NULL) {
		free(st);
		snprintf(err, errlen, "out of memory");
		return -UE_NOMEM;
	}
	*out = st;
	return 0;
}

/* Drop the window, keeping buffers unless they hold more than the budget. */
static void
win_clear(struct tui_store *st, uint64_t first)
{
	size_t	 i, total = 0;

	for (i = 0; i < WIN_ITEMS; i++)
		total += st->win[i].bufsize;
	if (total > WIN_BYTES)
		for (i = 0; i < WIN_ITEMS; i++)
			tui_rec_free(&st->win[i]);
	st->wn = 0;
	st->wbytes = 0;
	st->wfirst = first;
}

static void
cursor_close(struct tui_store *st)
{
	win_clear(st, 0);
	dec_ctx_free(st->ctx);	/* the window's info.dev pointed here */
	st->ctx = NULL;
	cap_close(st->src);
	st->src = NULL;
}

static int
cursor_open(struct tui_store *st, char *err, size_t errlen)
{
	cursor_close(st);
	if (cap_open(st->name, &st->src, err, errlen) < 0) {
		st->src = NULL;
		return -UE_OPEN;
	}
	if ((st->ctx = dec_ctx_new()) == NULL) {
		snprintf(err, errlen, "out of memory");
		return -UE_NOMEM;
	}
	st->next = 1;
	st->at_end = 0;
	st->replays++;
	return 0;
}

void
tui_store_free(struct tui_store *st)
{
	size_t	 i;

	if (st == NULL)
		return;
	cursor_close(st);
	for (i = 0; i < WIN_ITEMS; i++)
		tui_rec_free(&st->win[i]);
	dec_ctx_free(st->final);
	free(st->name);
	free(st);
}

/*
 * Advance the cursor by one item into r/ev/info.  Returns CAP_URB,
 * CAP_EVENT, CAP_END or a negative error.
 */
static int
cursor_step(struct tui_store *st, struct urb_rec *r, struct drv_event *ev,
    struct dec_info *info)
{
	int	 rc;

	if (st->at_end)
		return CAP_END;
	rc = cap_next(st->src, r, ev);
	if (rc == CAP_URB && dec_analyze(st->ctx, r, info) < 0)
		rc = -UE_NOMEM;
	if (rc <= 0) {
		st->at_end = 1;
		return rc;
	}
	st->next++;
	return rc;
}

/* Put the item the cursor just read into the window. */
static int
win_add(struct tui_store *st, int kind, const struct urb_rec *r,
    const struct drv_event *ev, const struct dec_info *info,
    uint64_t recno)
{
	struct tui_rec *rec;

	if (st->wn == WIN_ITEMS)
		return -UE_FULL;
	if (st->wn == 0)
		st->wfirst = recno;
	rec = &st->win[st->wn];
	if (tui_rec_copy(rec, kind, r, info, ev) != 0)
		return -UE_NOMEM;
	st->wn++;
	st->wbytes += kind == CAP_URB ? r->data_len : 0;
	return 0;
}

int
tui_store_load(struct tui_store *st, struct tui_model *m,
    void (*progress)(void *, uint64_t), void *arg, char *err, size_t errlen)
{
	struct urb_rec	 r;
	struct drv_event ev;
	struct dec_info	 info;
	uint64_t	 recno;
	int		 rc, kind;

	if ((rc = cursor_open(st, err, errlen)) != 0)
		return rc;
	for (;;) {
		recno = st->next;
		kind = rc = cursor_step(st, &r, &ev, &info);
		if (rc == CAP_END) {
			/*
			 * Keep the final device state for the Devices view;
			 * the window's info.dev points into it too, so it
			 * lives as long as the store.
			 */
			st->final = st->ctx;
			st->ctx = NULL;
			cap_close(st->src);
			st->src = NULL;
			return 0;
		}
		if (rc < 0) {
			snprintf(err, errlen, "%s", rc == -UE_NOMEM ?
			    "out of memory" : st->src->err);
			return rc;
		}
		if (kind == CAP_URB)
			rc = tui_model_add_urb(m, &r, &info);
		else
			rc = tui_model_add_event(m, &ev);
		if (rc != 0) {
			snprintf(err, errlen, "out of memory");
			return rc;
		}
		/* the first screen needs no replay */
		if (st->wn < WIN_ITEMS && st->wbytes < WIN_BYTES)
			win_add(st, kind, &r, &ev, &info, recno);
		if (progress != NULL && recno % 4096 == 0)
			progress(arg, recno);
	}
}

const struct tui_rec *
tui_store_fetch(void *arg, uint64_t recno)
{
	struct tui_store *st = arg;
	struct urb_rec	 r;
	struct drv_event ev;
	struct dec_info	 info;
	uint64_t	 start, cur;
	char		 err[600];
	int		 rc, back;

	if (recno == 0)
		return NULL;
	if (st->wn > 0 && recno >= st->wfirst && recno < st->wfirst + st->wn)
		return &st->win[recno - st->wfirst];
	back = st->wn > 0 && recno < st->wfirst;
	if (st->src == NULL || recno < st->next) {
		if (cursor_open(st, err, sizeof err) != 0)
			return NULL;
	}
	/* going back, keep most of the window before the record */
	if (back)
		start = recno > WIN_ITEMS * 3 / 4 ? recno - WIN_ITEMS * 3 / 4 :
		    1;
	else
		start = recno > WIN_ITEMS / 4 ? recno - WIN_ITEMS / 4 : 1;
	if (start < st->next)
		start = st->next;
	win_clear(st, start);
	while (st->wn < WIN_ITEMS) {
		cur = st->next;
		rc = cursor_step(st, &r, &ev, &info);
		if (rc <= 0)
			break;
		if (cur < start)
			continue;
		if (win_add(st, rc, &r, &ev, &info, cur) != 0)
			break;
		if (st->wbytes >= WIN_BYTES) {
			if (recno < st->wfirst + st->wn)
				break;
			win_clear(st, st->next);	/* too big: again */
		}
	}
	if (st->wn > 0 && recno >= st->wfirst && recno < st->wfirst + st->wn)
		return &st->win[recno - st->wfirst];
	return NULL;
}

const struct dec_ctx *
tui_store_ctx(const struct tui_store *st)
{
	return st->final;
}

size_t
tui_store_bytes(const struct tui_store *st)
{
	size_t	 i, n = sizeof *st;

	for (i = 0; i < WIN_ITEMS; i++)
		n += st->win[i].bufsize;
	return n;
}

uint64_t
tui_store_replays(const struct tui_store *st)
{
	return st->replays;
}
