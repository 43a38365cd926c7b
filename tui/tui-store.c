/*
 * tui/tui-store.c - reading the input for the TUI, a slice at a time, and
 * re-reading records.
 *
 * The loader reads the input once, in slices of a few milliseconds
 * between the TUI's input polls, into the model's index.  A live source
 * (usbmon, a paced simulation) says CAP_AGAIN when it has nothing new;
 * what it delivers is also spooled to a temporary pcapng file, since a
 * live source cannot be replayed.
 *
 * The index keeps no payloads; to show a record the store replays the
 * input (the file, or the spool): a cursor (an open source and the
 * dec_ctx fed every record before it, so pairing, classes and descriptors
 * come out as in `read`) runs forward and copies a window of up to
 * WIN_ITEMS decoded records, or WIN_BYTES of their payloads, around the
 * one asked for.  Moving forward continues the cursor; going back before
 * it reopens the input (files are reopened, sim: scenarios rerun: both
 * are deterministic).  A replay of 100k records costs what `read` does
 * without printing, some 15 ms.  The loader fills the window as it reads
 * when the window ends where it reads, so the first screen (and, on a
 * live source, the newest records) need no replay.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "hcd/machine.h"
#include "tui-model.h"

#define WIN_ITEMS	2048
#define WIN_BYTES	(16u << 20)

/* A replay of the input and the window of records it copied. */
struct cursor {
	struct cap_pipe	 pipe;		/* pipe.src NULL when closed */
	uint64_t	 next;		/* recno the cursor yields next */
	uint64_t	 read;		/* records it read, all replays */
	int		 at_end;
	struct dec_rec	 win[WIN_ITEMS];
	uint64_t	 wfirst;	/* recno of win[0] */
	size_t		 wn;
	size_t		 wbytes;	/* payload bytes in the window */
};

#define TUI_CKPT_EVERY	4096	/* records between checkpoints */

struct ckpt {
	struct cap_mark	 mark;		/* mark.recno records before it */
	struct dec_ctx	*ctx;		/* the analysis there */
};

struct tui_store {
	char		*name;		/* as the user named it */
	char		*rname;		/* what replays read: name, or spool */

	/* the loader */
	struct cap_pipe	 lpipe;		/* lpipe.src NULL once at the end */
	struct dec_ctx	*lctx;		/* its analysis, kept after the end */
	uint64_t	 lnext;		/* recno the loader reads next */
	uint64_t	 size;		/* bytes of a regular file, else 0 */
	uint64_t	 offset;	/* bytes the loader has read */
	int		 live;		/* the loader's source is live */
	struct cap_stats stats;		/* the source's, kept at its end */
	struct cap_sink	*spool;		/* what a live source delivered */
	char		*spool_path;

	/* what the screen shows, and what searches run through */
	struct cursor	 view;
	struct cursor	 scan;
	uint64_t	 replays;

	/*
	 * Checkpoints the loader leaves every TUI_CKPT_EVERY records of a
	 * file: where the source was and the analysis then, so a replay
	 * starts at the nearest one before the record wanted instead of
	 * at record 1.  None for a live input or a format without seek.
	 */
	struct ckpt	*ck;
	size_t		 nck, capck;
	int		 ck_off;
};

/* Spool what the live loader delivers: replays read the spool. */
static int
spool_open(struct tui_store *st, char *err, size_t errlen)
{
	struct cap_sink_opts opts;
	const char	*dir;
	char		 path[512];
	int		 fd;

	if ((dir = getenv("TMPDIR")) == NULL || *dir == '\0')
		dir = "/tmp";
	snprintf(path, sizeof path, "%s/urbscope-spool-XXXXXX", dir);
	if ((fd = mkstemp(path)) < 0) {
		snprintf(err, errlen, "cannot create a spool file in %s: %s",
		    dir, strerror(errno));
		return -UE_OPEN;
	}
	close(fd);
	if ((st->spool_path = strdup(path)) == NULL) {
		unlink(path);
		snprintf(err, errlen, "out of memory");
		return -UE_NOMEM;
	}
	memset(&opts, 0, sizeof opts);
	opts.tsresol = 9;
	opts.if_name = st->name;
	if (cap_sink_open(path, "pcapng", &opts, &st->spool, err,
	    errlen) < 0) {
		st->spool = NULL;
		return -UE_OPEN;
	}
	free(st->rname);
	st->rname = st->spool_path;
	return 0;
}

/*
 * Standard input, a pipe, copied to a temporary file (removed with the
 * store) that the loader and replays read: the TUI reads its input again
 * and again, which a pipe cannot do.
 */
static int
stdin_copy(struct tui_store *st, char *err, size_t errlen)
{
	const char	*dir;
	char		 path[512], buf[65536];
	ssize_t		 n, w, off;
	int		 fd;

	if (isatty(STDIN_FILENO)) {
		snprintf(err, errlen, "standard input is the terminal: pipe "
		    "a capture in (... | urbscope tui -) or name a file");
		return -UE_USAGE;
	}
	if ((dir = getenv("TMPDIR")) == NULL || *dir == '\0')
		dir = "/tmp";
	snprintf(path, sizeof path, "%s/urbscope-stdin-XXXXXX", dir);
	if ((fd = mkstemp(path)) < 0) {
		snprintf(err, errlen, "standard input cannot be re-read and "
		    "no copy of it can be made in %s: %s", dir,
		    strerror(errno));
		return -UE_OPEN;
	}
	if ((st->spool_path = strdup(path)) == NULL) {
		close(fd);
		unlink(path);
		snprintf(err, errlen, "out of memory");
		return -UE_NOMEM;
	}
	free(st->rname);
	st->rname = st->spool_path;
	while ((n = read(STDIN_FILENO, buf, sizeof buf)) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			snprintf(err, errlen, "standard input: %s",
			    strerror(errno));
			close(fd);
			return -UE_IO;
		}
		for (off = 0; off < n; off += w)
			if ((w = write(fd, buf + off, (size_t)(n - off))) <
			    0 && errno != EINTR) {
				snprintf(err, errlen, "copying standard "
				    "input to %s: %s", path, strerror(errno));
				close(fd);
				return -UE_IO;
			} else if (w < 0)
				w = 0;
	}
	if (close(fd) != 0) {
		snprintf(err, errlen, "copying standard input to %s: %s",
		    path, strerror(errno));
		return -UE_IO;
	}
	return 0;
}

int
tui_store_open(const char *name, struct tui_store **out, char *err,
    size_t errlen)
{
	return tui_store_open_traced(name, 0, out, NULL, 0, err, errlen);
}

/* The usbmon source of name, with the USB core traced as `capture
 * --drivers` traces it when drivers is set and BPF can be used. */
static int
store_pipe_open(struct tui_store *st, const char *name, int drivers,
    char *why, size_t whylen, char *err, size_t errlen)
{
	struct cap_source *src, *traced;
	int		 bus, rc;

	if (!drivers || (bus = cap_live_name(name)) < 0)
		return cap_pipe_open(&st->lpipe, name, 1, err, errlen);
	if ((rc = cap_open(name, &src, err, errlen)) < 0)
		return rc;
	if (cap_bpf_open(src, bus, &traced, why, whylen) == 0)
		src = traced;
	if ((rc = cap_pipe_init(&st->lpipe, src, 1)) < 0) {
		snprintf(err, errlen, "%s", ue_strerror(rc));
		cap_close(src);
		return rc;
	}
	st->lpipe.own_src = 1;
	return 0;
}

int
tui_store_open_traced(const char *name, int drivers, struct tui_store **out,
    char *why, size_t whylen, char *err, size_t errlen)
{
	struct tui_store *st;
	struct stat	 sb;
	int		 rc;

	if (why != NULL && whylen > 0)
		why[0] = '\0';

	if ((st = calloc(1, sizeof *st)) == NULL ||
	    (st->name = strdup(name)) == NULL ||
	    (st->rname = strdup(name)) == NULL) {
		if (st != NULL) {
			free(st->name);
			free(st->rname);
		}
		free(st);
		snprintf(err, errlen, "out of memory");
		return -UE_NOMEM;
	}
	if (strcmp(name, "-") == 0 && (rc = stdin_copy(st, err,
	    errlen)) < 0) {
		tui_store_free(st);
		return rc;
	}
	if ((rc = store_pipe_open(st, st->rname, drivers, why, whylen, err,
	    errlen)) < 0) {
		tui_store_free(st);
		return rc;
	}
	/* the store owns the analysis: the devices pane reads it after the
	 * loader's source is closed */
	st->lctx = st->lpipe.ctx;
	st->lnext = 1;
	if (st->lpipe.src->in.fd >= 0 && fstat(st->lpipe.src->in.fd, &sb) == 0 &&
	    S_ISREG(sb.st_mode))
		st->size = (uint64_t)sb.st_size;
	if (st->lpipe.src->live && (rc = spool_open(st, err, errlen)) != 0) {
		tui_store_free(st);
		return rc;
	}
	st->live = st->lpipe.src->live;
	*out = st;
	return 0;
}

int
tui_store_pace(struct tui_store *st, char *err, size_t errlen)
{
	if (st->lpipe.src == NULL || st->lnext != 1 || st->live ||
	    sim_source_pace(st->lpipe.src) != 0)
		return 1;
	st->live = 1;
	return spool_open(st, err, errlen);
}

/* Drop the window, keeping buffers unless they hold more than the budget. */
static void
win_clear(struct cursor *c, uint64_t first)
{
	size_t	 i, total = 0;

	for (i = 0; i < WIN_ITEMS; i++)
		total += c->win[i].bufsize;
	if (total > WIN_BYTES)
		for (i = 0; i < WIN_ITEMS; i++)
			dec_rec_free(&c->win[i]);
	c->wn = 0;
	c->wbytes = 0;
	c->wfirst = first;
}

static void
cursor_close(struct cursor *c)
{
	win_clear(c, 0);
	if (c->pipe.src != NULL)
		cap_pipe_close(&c->pipe);
}

static int
cursor_open(struct tui_store *st, struct cursor *c, char *err,
    size_t errlen)
{
	int	 rc;

	cursor_close(c);
	if ((rc = cap_pipe_open(&c->pipe, st->rname, 1, err, errlen)) < 0)
		return rc;
	c->next = 1;
	c->at_end = 0;
	st->replays++;
	return 0;
}

/* A checkpoint before the loader's next record, when one is due. */
static void
ckpt_add(struct tui_store *st)
{
	struct cap_pipe	*p = &st->lpipe;
	struct ckpt	*ck, *nk;
	size_t		 cap;

	if (st->ck_off || st->spool != NULL || p->src->recno == 0 ||
	    p->src->recno % TUI_CKPT_EVERY != 0 || (st->nck > 0 &&
	    st->ck[st->nck - 1].mark.recno == p->src->recno))
		return;
	if (st->nck == st->capck) {
		cap = st->capck ? st->capck * 2 : 64;
		if ((nk = realloc(st->ck, cap * sizeof *nk)) == NULL) {
			st->ck_off = 1;
			return;
		}
		st->ck = nk;
		st->capck = cap;
	}
	ck = &st->ck[st->nck];
	if (cap_mark(p->src, &ck->mark) != 0) {
		st->ck_off = 1;		/* a pipe, a format without seek */
		return;
	}
	if ((ck->ctx = dec_ctx_clone(p->ctx)) == NULL) {
		cap_mark_free(&ck->mark);
		st->ck_off = 1;
		return;
	}
	st->nck++;
}

/* The last checkpoint whose next record is at most recno, or NULL. */
static const struct ckpt *
ckpt_before(const struct tui_store *st, uint64_t recno)
{
	size_t	 lo = 0, hi = st->nck;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (st->ck[mid].mark.recno + 1 <= recno)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo > 0 ? &st->ck[lo - 1] : NULL;
}

static void
ckpt_free(struct tui_store *st)
{
	size_t	 i;

	for (i = 0; i < st->nck; i++) {
		cap_mark_free(&st->ck[i].mark);
		dec_ctx_free(st->ck[i].ctx);
	}
	free(st->ck);
	st->ck = NULL;
	st->nck = st->capck = 0;
}

/* Close the loader's pipe; its analysis stays the store's (lctx). */
static void
load_close(struct tui_store *st)
{
	if (st->lpipe.src == NULL)
		return;
	st->lpipe.ctx = NULL;
	cap_pipe_close(&st->lpipe);
}

/* Put a freshly opened cursor at checkpoint ck. */
static int
cursor_seek(struct cursor *c, const struct ckpt *ck)
{
	struct dec_ctx	*ctx;

	if ((ctx = dec_ctx_clone(ck->ctx)) == NULL ||
	    cap_seek(c->pipe.src, &ck->mark) != 0) {
		dec_ctx_free(ctx);
		cursor_close(c);
		return -1;
	}
	dec_ctx_free(c->pipe.ctx);
	c->pipe.ctx = ctx;
	c->next = ck->mark.recno + 1;
	return 0;
}

void
tui_store_free(struct tui_store *st)
{
	size_t	 i;

	if (st == NULL)
		return;
	cursor_close(&st->view);
	cursor_close(&st->scan);
	for (i = 0; i < WIN_ITEMS; i++) {
		dec_rec_free(&st->view.win[i]);
		dec_rec_free(&st->scan.win[i]);
	}
	load_close(st);
	ckpt_free(st);
	dec_ctx_free(st->lctx);
	if (st->spool != NULL)
		cap_sink_close(st->spool, NULL, 0);
	if (st->spool_path != NULL)
		unlink(st->spool_path);
	if (st->rname != st->spool_path)
		free(st->rname);
	free(st->spool_path);
	free(st->name);
	free(st);
}

/*
 * Advance the cursor by one item (in c->pipe).  Returns CAP_URB,
 * CAP_EVENT, CAP_END or a negative error.
 */
static int
cursor_step(struct cursor *c)
{
	int	 rc;

	if (c->at_end)
		return CAP_END;
	rc = cap_pipe_next(&c->pipe);
	if (rc <= 0) {
		c->at_end = 1;
		return rc;
	}
	c->next++;
	c->read++;
	return rc;
}

/* Put the item the cursor just read into the window. */
static int
win_add(struct cursor *c, int kind, const struct urb_rec *r,
    const struct drv_event *ev, const struct dec_info *info,
    uint64_t recno)
{
	struct dec_rec *rec;

	if (c->wn == WIN_ITEMS)
		return -UE_FULL;
	if (c->wn == 0)
		c->wfirst = recno;
	rec = &c->win[c->wn];
	if (dec_rec_copy(rec, kind, kind == CAP_URB ? r : NULL, info, ev) !=
	    0)
		return -UE_NOMEM;
	c->wn++;
	c->wbytes += kind == CAP_URB ? r->data_len : 0;
	return 0;
}

/*
 * The window ends where the loader reads: keep it going.  A live source
 * slides it (the newest records are the ones on screen); a file keeps its
 * first screen.
 */
static void
win_follow(struct tui_store *st, int kind, const struct urb_rec *r,
    const struct drv_event *ev, const struct dec_info *info,
    uint64_t recno)
{
	struct cursor	*c = &st->view;
	struct dec_rec	 tmp;
	size_t		 i, half = WIN_ITEMS / 2;

	if (c->wn > 0 && c->wfirst + c->wn != recno)
		return;
	if (c->wn == WIN_ITEMS || c->wbytes >= WIN_BYTES) {
		if (!st->live || c->wn < half)
			return;
		for (i = 0; i + half < c->wn; i++) {
			tmp = c->win[i];
			c->win[i] = c->win[i + half];
			c->win[i + half] = tmp;
		}
		c->wn -= half;
		c->wfirst += half;
		c->wbytes = 0;
		for (i = 0; i < c->wn; i++)
			if (c->win[i].kind == CAP_URB)
				c->wbytes += c->win[i].r.data_len;
	}
	win_add(c, kind, r, ev, info, recno);
}

/* The loader reached the end or an error: close its source. */
static void
load_end(struct tui_store *st)
{
	char	 err[600];

	cap_stats(st->lpipe.src, &st->stats);	/* method: a literal */
	load_close(st);
	if (st->spool != NULL) {
		cap_sink_close(st->spool, err, sizeof err);
		st->spool = NULL;
	}
}

int
tui_store_index(struct tui_store *st, struct tui_model *m, int64_t budget_ns,
    size_t max, char *err, size_t errlen)
{
	struct cap_pipe	*p = &st->lpipe;
	int64_t		 stop;
	uint64_t	 recno;
	unsigned	 k;
	int		 rc;

	if (st->lpipe.src == NULL)
		return TUI_LOAD_DONE;
	stop = cap_clock_ns(CLOCK_MONOTONIC) + budget_ns;
	for (k = 1;; k++) {
		recno = st->lnext;
		ckpt_add(st);
		rc = cap_pipe_next(p);
		if (rc == CAP_AGAIN)
			break;
		if (rc == CAP_END) {
			load_end(st);
			return TUI_LOAD_DONE;
		}
		if (rc < 0) {
			snprintf(err, errlen, "%s", p->src->err);
			load_end(st);
			return rc;
		}
		st->lnext++;
		if (st->spool != NULL && (rc == CAP_URB ?
		    cap_sink_write(st->spool, &p->r) :
		    cap_sink_write_event(st->spool, &p->ev)) < 0) {
			snprintf(err, errlen, "spool %s: %s", st->spool_path,
			    st->spool->err);
			load_end(st);
			return -UE_IO;
		}
		win_follow(st, rc, &p->r, &p->ev, &p->info, recno);
		if ((p->src->gap > 0 && tui_model_skipped(m, p->src->skipped,
		    p->src->gap_first_ns, p->src->gap_last_ns) != 0) ||
		    (rc == CAP_URB ? tui_model_add_urb(m, &p->r, &p->info) :
		    tui_model_add_event(m, &p->ev)) != 0) {
			snprintf(err, errlen, "out of memory");
			load_end(st);
			return -UE_NOMEM;
		}
		if ((k % 256 == 0 && cap_clock_ns(CLOCK_MONOTONIC) >= stop) || k == max)
			break;
	}
	st->offset = cap_in_offset(&st->lpipe.src->in);
	/* replays of the spool must see every record indexed */
	if (st->spool != NULL && cap_out_flush(&st->spool->out) != 0) {
		snprintf(err, errlen, "spool %s: %s", st->spool_path,
		    strerror(st->spool->out.err));
		load_end(st);
		return -UE_IO;
	}
	return rc == CAP_AGAIN ? TUI_LOAD_AGAIN : TUI_LOAD_MORE;
}

int
tui_store_load(struct tui_store *st, struct tui_model *m,
    void (*progress)(void *, uint64_t), void *arg, char *err, size_t errlen)
{
	uint64_t	 last = 0;
	int		 rc;

	while ((rc = tui_store_index(st, m, 50 * 1000000LL, 0, err,
	    errlen)) > 0) {
		if (progress != NULL && m->n / 4096 != last / 4096)
			progress(arg, m->n);
		last = m->n;
	}
	return rc;
}

int
tui_store_progress(const struct tui_store *st, uint64_t *done,
    uint64_t *total)
{
	*done = st->offset;
	*total = st->size;
	return st->lpipe.src != NULL;
}

int
tui_store_live(const struct tui_store *st)
{
	return st->live;
}

void
tui_store_stats(const struct tui_store *st, struct cap_stats *cs)
{
	if (st->lpipe.src != NULL)
		cap_stats(st->lpipe.src, cs);
	else
		*cs = st->stats;
}

/* Record recno through cursor c: from its window, else by replaying. */
static const struct dec_rec *
cursor_fetch(struct tui_store *st, struct cursor *c, uint64_t recno)
{
	struct cap_pipe	*p = &c->pipe;
	const struct ckpt *ck;
	uint64_t	 start, cur;
	char		 err[600];
	int		 rc, back;

	if (recno == 0)
		return NULL;
	if (c->wn > 0 && recno >= c->wfirst && recno < c->wfirst + c->wn)
		return &c->win[recno - c->wfirst];
	back = c->wn > 0 && recno < c->wfirst;
	/* going back, keep most of the window before the record */
	if (back)
		start = recno > WIN_ITEMS * 3 / 4 ? recno - WIN_ITEMS * 3 / 4 :
		    1;
	else
		start = recno > WIN_ITEMS / 4 ? recno - WIN_ITEMS / 4 : 1;
	/* a live input's spool grows past the end the cursor met */
	ck = ckpt_before(st, start);
	if (p->src == NULL || recno < c->next ||
	    (st->live && c->at_end && recno >= c->next) ||
	    (ck != NULL && ck->mark.recno + 1 > c->next)) {
		if (cursor_open(st, c, err, sizeof err) != 0)
			return NULL;
		/* from the nearest checkpoint, not from record 1 */
		if (ck != NULL && cursor_seek(c, ck) != 0)
			return NULL;
	}
	if (start < c->next)
		start = c->next;
	win_clear(c, start);
	while (c->wn < WIN_ITEMS) {
		cur = c->next;
		rc = cursor_step(c);
		if (rc <= 0)
			break;
		if (cur < start)
			continue;
		if (win_add(c, rc, &p->r, &p->ev, &p->info, cur) != 0)
			break;
		if (c->wbytes >= WIN_BYTES) {
			if (recno < c->wfirst + c->wn)
				break;
			win_clear(c, c->next);	/* too big: again */
		}
	}
	if (c->wn > 0 && recno >= c->wfirst && recno < c->wfirst + c->wn)
		return &c->win[recno - c->wfirst];
	return NULL;
}

const struct dec_rec *
tui_store_fetch(void *arg, uint64_t recno)
{
	struct tui_store *st = arg;

	return cursor_fetch(st, &st->view, recno);
}

/*
 * A search reads on through the input while the screen shows records
 * elsewhere: with one cursor each draw would restart the replay.
 */
const struct dec_rec *
tui_store_scan(void *arg, uint64_t recno)
{
	struct tui_store *st = arg;

	return cursor_fetch(st, &st->scan, recno);
}

const struct dec_ctx *
tui_store_ctx(const struct tui_store *st)
{
	return st->lctx;
}

size_t
tui_store_bytes(const struct tui_store *st)
{
	size_t	 i, n = sizeof *st;

	for (i = 0; i < WIN_ITEMS; i++)
		n += st->view.win[i].bufsize + st->scan.win[i].bufsize;
	return n;
}

uint64_t
tui_store_replays(const struct tui_store *st)
{
	return st->replays;
}

uint64_t
tui_store_replayed(const struct tui_store *st)
{
	return st->view.read + st->scan.read;
}
