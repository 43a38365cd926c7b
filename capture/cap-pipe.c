/*
 * capture/cap-pipe.c - the record pipeline of every command and of the
 * TUI's loader: a source, then the analysis every record feeds (pairing
 * and device state see all records, whatever is shown), then the filter
 * that says what goes on to a formatter or a sink.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture.h"

int
cap_pipe_init(struct cap_pipe *p, struct cap_source *src, int analyse)
{
	memset(p, 0, sizeof *p);
	p->src = src;
	p->filter.node = p->fnode;
	p->filter.max = CAP_PIPE_FILTER_NODES;
	if (analyse && (p->ctx = dec_ctx_new()) == NULL)
		return -UE_NOMEM;
	return 0;
}

int
cap_pipe_open(struct cap_pipe *p, const char *name, int analyse, char *err,
    size_t errlen)
{
	struct cap_source *src;
	int	 rc;

	memset(p, 0, sizeof *p);
	if ((rc = cap_open(name, &src, err, errlen)) < 0)
		return rc;
	if ((rc = cap_pipe_init(p, src, analyse)) < 0) {
		snprintf(err, errlen, "%s", ue_strerror(rc));
		cap_close(src);
		return rc;
	}
	p->own_src = 1;
	return 0;
}

int
cap_pipe_filter(struct cap_pipe *p, const char *expr, char *err,
    size_t errlen)
{
	int	 rc;

	dec_filter_free(&p->filter);
	if ((rc = dec_filter_compile(&p->filter, expr)) < 0) {
		snprintf(err, errlen, "\"%s\": %s", expr, p->filter.err);
		p->has_filter = 0;
		return rc;
	}
	p->has_filter = expr[0] != '\0';
	p->filter_extra = p->filter.need_tree || p->filter.need_frame;
	if (p->filter.need_frame)
		cap_pipe_times(p);
	if (p->filter.need_tree && p->tnodes == NULL) {
		p->tnodes = calloc(DEC_TREE_NODES, sizeof *p->tnodes);
		p->tarena = malloc(DEC_TREE_ARENA);
		if (p->tnodes == NULL || p->tarena == NULL) {
			snprintf(err, errlen, "%s", ue_strerror(UE_NOMEM));
			p->has_filter = 0;
			return -UE_NOMEM;
		}
	}
	return 0;
}

/*
 * The time stamps of frame.time_relative and frame.time_delta: from the
 * file's first frame and from the frame before, the packets the source
 * skipped included, as Wireshark counts them.
 */
static void
pipe_times(struct cap_pipe *p, int rc)
{
	const struct cap_source *src = p->src;
	int64_t	 ts = rc == CAP_URB ? p->r.ts_ns : p->ev.ts_ns;

	if (p->count == 1)
		p->t0 = p->tcur = DEC_TS_BAD;
	if (src->gap > 0 && src->gap_last_ns != DEC_TS_BAD) {
		if (p->t0 == DEC_TS_BAD)
			p->t0 = src->gap_first_ns != DEC_TS_BAD ?
			    src->gap_first_ns : src->gap_last_ns;
		p->tcur = src->gap_last_ns;
	}
	p->tprev = p->tcur;
	p->tcur = ts;
	/* times count from the first good one */
	if (p->t0 == DEC_TS_BAD)
		p->t0 = p->tprev = ts;
}

int
cap_pipe_next(struct cap_pipe *p)
{
	int	 rc;

	rc = cap_next(p->src, &p->r, &p->ev);
	if (rc == CAP_URB || rc == CAP_EVENT) {
		p->count++;
		if (p->times)
			pipe_times(p, rc);
	}
	if (rc == CAP_URB && p->ctx != NULL &&
	    dec_analyze(p->ctx, &p->r, &p->info) < 0) {
		snprintf(p->src->err, sizeof p->src->err, "%s: record %llu: "
		    "%s", p->src->name, (unsigned long long)p->r.recno,
		    ue_strerror(UE_NOMEM));
		return -UE_NOMEM;
	}
	return rc;
}

/* cap_pipe_shown of a filter on the tree or frame.* (kept apart: the
 * short names' path stays a few instructions). */
static int	shown_extra(struct cap_pipe *, int) __attribute__((noinline));

static int
shown_extra(struct cap_pipe *p, int kind)
{
	struct dec_fvals v;

	if (kind == CAP_EVENT)
		dec_fvals_event(&p->ev, &v);
	else {
		dec_fvals_urb(&p->r, p->ctx != NULL ? &p->info : NULL, &v);
		if (p->filter.need_tree)
			v.tree = cap_pipe_tree(p);
	}
	if (p->filter.need_frame)
		v.frame = cap_pipe_frame(p, kind);
	return dec_filter_match(&p->filter, &v);
}

int
cap_pipe_shown(struct cap_pipe *p, int kind)
{
	struct dec_fvals v;

	if (!p->has_filter)
		return 1;
	if (__builtin_expect(p->filter_extra, 0))
		return shown_extra(p, kind);
	if (kind == CAP_EVENT)
		dec_fvals_event(&p->ev, &v);
	else
		dec_fvals_urb(&p->r, p->ctx != NULL ? &p->info : NULL, &v);
	return dec_filter_match(&p->filter, &v);
}

void
cap_pipe_times(struct cap_pipe *p)
{
	if (p->count == 0)
		p->times = 1;
}

const struct dec_frame *
cap_pipe_frame(struct cap_pipe *p, int kind)
{
	struct dec_frame *fr = &p->frame;

	if (kind == CAP_URB) {
		fr->number = urb_frame(&p->r);
		fr->offset = p->r.offset;
		fr->ts_ns = p->r.ts_ns;
		fr->len = p->r.wire_len;
		fr->cap_len = p->r.cap_len;
	} else {
		fr->number = ev_frame(&p->ev);
		fr->offset = 0;
		fr->ts_ns = p->ev.ts_ns;
		fr->len = fr->cap_len = 0;
	}
	fr->t0_ns = p->t0;
	fr->prev_ns = p->tprev;
	return fr;
}

const struct dec_tree *
cap_pipe_tree(struct cap_pipe *p)
{
	/* built for this record already (by the filter) */
	if (p->tree_recno == p->r.recno && p->tree_recno != 0)
		return &p->tree;
	if (p->tnodes == NULL) {
		p->tnodes = calloc(DEC_TREE_NODES, sizeof *p->tnodes);
		p->tarena = malloc(DEC_TREE_ARENA);
	}
	dec_tree_init(&p->tree, p->tnodes, p->tnodes != NULL &&
	    p->tarena != NULL ? DEC_TREE_NODES : 0, p->tarena,
	    p->tarena != NULL ? DEC_TREE_ARENA : 0);
	p->tree.all_bits = 1;
	dec_record_tree(&p->r, &p->info, &p->tree);
	p->tree_recno = p->r.recno;
	return &p->tree;
}

void
cap_pipe_close(struct cap_pipe *p)
{
	free(p->tnodes);
	free(p->tarena);
	dec_filter_free(&p->filter);
	dec_ctx_free(p->ctx);
	if (p->own_src)
		cap_close(p->src);
	memset(p, 0, sizeof *p);
}
