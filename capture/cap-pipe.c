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

	if ((rc = dec_filter_compile(&p->filter, expr)) < 0) {
		snprintf(err, errlen, "\"%s\": %s", expr, p->filter.err);
		p->has_filter = 0;
		return rc;
	}
	p->has_filter = expr[0] != '\0';
	return 0;
}

int
cap_pipe_next(struct cap_pipe *p)
{
	int	 rc;

	rc = cap_next(p->src, &p->r, &p->ev);
	if (rc == CAP_URB || rc == CAP_EVENT)
		p->count++;
	if (rc == CAP_URB && p->ctx != NULL &&
	    dec_analyze(p->ctx, &p->r, &p->info) < 0) {
		snprintf(p->src->err, sizeof p->src->err, "%s: record %llu: "
		    "%s", p->src->name, (unsigned long long)p->r.recno,
		    ue_strerror(UE_NOMEM));
		return -UE_NOMEM;
	}
	return rc;
}

int
cap_pipe_shown(struct cap_pipe *p, int kind)
{
	struct dec_fvals v;

	if (!p->has_filter)
		return 1;
	if (kind == CAP_EVENT)
		dec_fvals_event(&p->ev, &v);
	else
		dec_fvals_urb(&p->r, p->ctx != NULL ? &p->info : NULL, &v);
	return dec_filter_match(&p->filter, &v);
}

void
cap_pipe_close(struct cap_pipe *p)
{
	dec_ctx_free(p->ctx);
	if (p->own_src)
		cap_close(p->src);
	memset(p, 0, sizeof *p);
}
