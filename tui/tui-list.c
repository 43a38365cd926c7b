/*
 * tui/tui-list.c - the timeline: one line per item that passes the
 * filter, columns fitted to the width (the summary takes what is left;
 * latency, time and type give way on narrow terminals), coloured by kind.
 * The summaries scroll left and right together, as in less -S; a '<'
 * starts those scrolled, a '>' ends those cut.
 */
#include <curses.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "tui-view.h"

static int
color_of(const struct tui_model *m, uint32_t i)
{
	const struct tui_item *it = &m->item[i];

	if (it->kind == (TI_EVENT | DRV_RULE))
		return TC_RULE;
	if (it->kind & TI_EVENT)
		return TC_EVENT;
	if (it->kind == 'E' || (it->kind == 'C' && it->status != 0))
		return TC_ERROR;
	return it->kind == 'S' ? TC_SUBMIT : TC_COMPLETE;
}

struct layout {
	int	 no, time, addr, dir, ev, type, status, len, lat;
};

static void
fit(int w, struct layout *l)
{
	l->no = 7;
	l->time = 11;
	l->addr = 8;
	l->dir = 3;
	l->ev = 3;
	l->type = 8;
	l->status = 10;
	l->len = 7;
	l->lat = 11;	/* "99999.999 s": dec_fmt_latency */
	/* narrow terminals: the summary keeps at least 20 columns */
	if (w < 120)
		l->lat = 0;
	if (w < 100) {
		l->no = 6;
		l->time = 10;
		l->ev = 2;
		l->type = 5;
		l->status = 8;
		l->len = 6;
	}
	if (w < 70)
		l->time = 0;
	if (w < 56)
		l->type = 0;
}

/* The columns of a line (or of the header) as text. */
static void
fmt_cols(char *line, size_t size, const struct layout *l,
    const struct tui_cols *c)
{
	snprintf(line, size, "%*s %-*.*s%s%-*s %-*s %-*s %-*.*s%s%-*s %*s "
	    "%*.*s%s", l->no, c->no, l->time, l->time, c->time,
	    l->time ? " " : "", l->addr, c->addr, l->dir, c->dir, l->ev, c->ev,
	    l->type, l->type, c->type, l->type ? " " : "", l->status,
	    c->status, l->len, c->len, l->lat, l->lat ? DEC_LATENCY_MAX : 0,
	    c->lat, l->lat ? " " : "");
}

static void
header(struct tui_screen *s, int y, int w, const struct layout *l)
{
	struct tui_cols titles = {
		.no = "No.", .time = "Time", .addr = "Address", .dir = "Dir",
		.ev = "Ev", .type = "Type", .status = "Status", .len = "Len",
		.lat = "Latency",
	};
	char	 buf[512], sum[32] = "Summary";
	int	 x;

	/* times count from the reference */
	if (s->m->tref != TI_NONE)
		snprintf(titles.time, sizeof titles.time, "ref #%llu",
		    TUI_FRAME(s->m, s->m->tref));
	if (s->list_hscroll > 0)
		snprintf(sum, sizeof sum, "Summary +%d", s->list_hscroll);
	fmt_cols(buf, sizeof buf, l, &titles);
	attrset(A_BOLD | (s->color ? COLOR_PAIR(TC_TITLE) : 0));
	tui_clear(y, 0, w);
	x = tui_put(s, y, 0, buf, w);
	if (x < w)
		tui_put(s, y, x, sum, w - x);
	attrset(A_NORMAL);
}

/*
 * The summary str at row y from column x, w columns: scrolled by
 * s->list_hscroll with a '<' first, a '>' last when it goes on.
 * Returns its width unscrolled.
 */
static int
summary(struct tui_screen *s, int y, int x, int w, const char *str)
{
	const char *p = str, *q;
	int	 len;

	len = tui_skip(s, &p, INT_MAX);
	p = str;
	if (w < 2) {
		tui_put(s, y, x, str, w);
		return len;
	}
	if (s->list_hscroll > 0) {
		tui_skip(s, &p, s->list_hscroll);
		tui_put(s, y, x++, "<", 1);
		w--;
	}
	q = p;
	tui_skip(s, &q, w);
	if (*q == '\0')
		tui_put(s, y, x, p, w);
	else
		tui_put(s, y, x + tui_put(s, y, x, p, w - 1), ">", 1);
	return len;
}

static void
list_draw(struct tui_screen *s, const struct tui_rect *r)
{
	struct tui_model *m = s->m;
	struct tui_cols c;
	struct layout l;
	struct sbuf b = { 0 };
	char	 line[512];
	size_t	 k;
	uint32_t i;
	int	 y, x, color, fold;
	attr_t	 a;

	fit(r->w, &l);
	header(s, r->y, r->w, &l);
	s->list_maxw = 0;
	for (y = 1; y < r->h; y++) {
		k = m->top + (size_t)y - 1;
		if (k >= m->nvis) {
			tui_clear(r->y + y, r->x, r->w);
			if (k == 0 && y == 1)
				tui_put(s, r->y + y, r->x, m->n == 0 ?
				    "  (no records)" : "  (nothing passes "
				    "the filter)", r->w);
			continue;
		}
		i = tui_model_vis(m, k);
		tui_model_cols(m, i, &c);
		b.len = 0;
		/* bus packets folded as read --collapse writes them */
		if ((fold = tui_model_fold_text(m, k, &b)) > 0)
			;
		else if (tui_model_summary(m, i, &b) != 0 || b.s == NULL)
			sb_puts(&b, "(record unavailable)");
		/* as read --transfers: an IN endpoint's URBs poll */
		if (fold <= 0 && tui_model_run(m, k) > 1)
			sb_printf(&b, " (%s %u times)",
			    (m->item[i].ep & 0x80) && m->item[i].xfer !=
			    XFER_CTRL ? "polled" : "repeated",
			    tui_model_run(m, k));
		a = k == m->sel ? A_REVERSE : A_NORMAL;
		color = color_of(m, i);
		if (s->color)
			a |= COLOR_PAIR(color);
		else if (color == TC_ERROR || color == TC_RULE)
			a |= A_BOLD;
		attrset(a);
		/* in the line's attributes: the selection's bar is full width */
		tui_clear(r->y + y, r->x, r->w);
		fmt_cols(line, sizeof line, &l, &c);
		x = tui_put(s, r->y + y, r->x, line, r->w);
		s->list_sumw = r->w - x;
		if (x < r->w && b.s != NULL &&
		    (x = summary(s, r->y + y, r->x + x, r->w - x, b.s)) >
		    s->list_maxw)
			s->list_maxw = x;
		attrset(A_NORMAL);
	}
	sb_free(&b);
}

/* The model pages by the rows under the header. */
static void
list_resize(struct tui_screen *s, const struct tui_rect *r)
{
	tui_model_set_rows(s->m, (size_t)(r->h > 1 ? r->h - 1 : 1));
}

/*
 * Scroll the summaries half their width left (dir -1) or right (1), not
 * past the end of the longest on screen.
 */
static void
hscroll(struct tui_screen *s, int dir)
{
	int	 step = s->list_sumw / 2 > 8 ? s->list_sumw / 2 : 8, max;

	/* scrolled, a line shows list_sumw - 1 columns after the '<' */
	max = s->list_maxw > s->list_sumw ? s->list_maxw - s->list_sumw + 1 :
	    0;
	if (dir < 0)
		s->list_hscroll = s->list_hscroll > step ?
		    s->list_hscroll - step : 0;
	else if (s->list_hscroll < max)
		s->list_hscroll = s->list_hscroll + step < max ?
		    s->list_hscroll + step : max;
	else if (max == 0) {
		snprintf(s->msg, sizeof s->msg, "the summaries shown fit: "
		    "nothing to scroll");
		s->msg_err = 0;
	}
}

static int
list_key(struct tui_screen *s, int key)
{
	struct tui_model *m = s->m;
	uint32_t from = tui_model_selected(m);

	switch (key) {
	case KEY_UP:
	case 'k':
		tui_model_move(m, -1);
		break;
	case KEY_DOWN:
	case 'j':
		tui_model_move(m, 1);
		break;
	case KEY_PPAGE:
	case 'b' & 0x1f:
		tui_model_page(m, 0);
		break;
	case KEY_NPAGE:
	case 'f' & 0x1f:
	case ' ':
		tui_model_page(m, 1);
		break;
	case KEY_HOME:
	case 'g':
		tui_model_home(m);
		tui_model_hist_push(m, from);
		break;
	case KEY_END:
	case 'G':
		/* on an input that still grows, the end is a moving one */
		if (s->live)
			tui_model_set_follow(m, 1);
		else
			tui_model_end(m);
		tui_model_hist_push(m, from);
		break;
	case KEY_LEFT:
	case KEY_RIGHT:
		/* the details pane folds with them */
		if (s->focus != 0)
			return 0;
		hscroll(s, key == KEY_LEFT ? -1 : 1);
		break;
	case '<':
	case '>':
		hscroll(s, key == '<' ? -1 : 1);
		break;
	default:
		return 0;
	}
	return 1;
}

const struct tui_view_ops tui_list_view = {
	.name = "Timeline",
	.draw = list_draw,
	.key = list_key,
	.resize = list_resize,
};
