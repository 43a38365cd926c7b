/*
 * tui/tui-util.c - the TUI's layout (no curses, so tests can check where
 * a click lands) and the live rate's sliding window.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tui.h"
#include "tui-view.h"

void
tui_layout(int lines, int cols, struct tui_layout *l)
{
	int	 avail, list, hex, det;

	memset(l, 0, sizeof *l);
	avail = lines - 2 - 2;		/* status + prompt, two rules */
	if (avail < 3)
		avail = 3;
	list = avail * 45 / 100;
	if (list < 2)
		list = 2;
	hex = (avail - list) / 3;
	if (hex > 6)
		hex = 6;
	if (hex < 1)
		hex = 1;
	det = avail - list - hex;
	if (det < 1)
		det = 1;
	l->pane[0] = (struct tui_rect){ 0, 0, list, cols };
	l->rule[1] = list;
	l->pane[1] = (struct tui_rect){ list + 1, 0, det, cols };
	l->rule[2] = list + 1 + det;
	l->pane[2] = (struct tui_rect){ list + 2 + det, 0, hex, cols };
	l->status = (struct tui_rect){ lines - 2, 0, 2, cols };
}

int
tui_layout_hit(const struct tui_layout *l, int y, int x, int *row)
{
	const struct tui_rect *r;
	int	 i;

	for (i = 0; i < TUI_NPANES; i++) {
		r = &l->pane[i];
		if (y >= r->y && y < r->y + r->h && x >= r->x &&
		    x < r->x + r->w) {
			*row = y - r->y;
			return i;
		}
	}
	return -1;
}

void
tui_rate_init(struct tui_rate *r, int64_t now, uint64_t total)
{
	memset(r, 0, sizeof *r);
	r->start = now;
	r->cur = now / TUI_RATE_BUCKET_NS;
	r->total = total;
}

/* Empty the buckets the window left behind up to now's. */
static void
rate_slide(struct tui_rate *r, int64_t now)
{
	int64_t	 k = now / TUI_RATE_BUCKET_NS;
	int	 i;

	for (i = 0; r->cur < k && i < TUI_RATE_BUCKETS; i++)
		r->n[++r->cur % TUI_RATE_BUCKETS] = 0;
	if (r->cur < k)
		r->cur = k;	/* a long pause: every bucket is empty */
}

void
tui_rate_update(struct tui_rate *r, int64_t now, uint64_t total)
{
	rate_slide(r, now);
	if (total > r->total)
		r->n[r->cur % TUI_RATE_BUCKETS] += total - r->total;
	r->total = total;
}

double
tui_rate_get(struct tui_rate *r, int64_t now)
{
	int64_t	 from, span;
	uint64_t sum = 0;
	int	 i;

	rate_slide(r, now);
	for (i = 0; i < TUI_RATE_BUCKETS; i++)
		sum += r->n[i];
	/* the window: its oldest bucket's start, or when counting began */
	from = (r->cur - TUI_RATE_BUCKETS + 1) * TUI_RATE_BUCKET_NS;
	if (from < r->start)
		from = r->start;
	span = now - from;
	if (span < 1000000000LL)
		span = 1000000000LL;	/* the first second: per second */
	return (double)sum * 1e9 / (double)span;
}
