/*
 * tui/tui-status.c - the status bar (position, what runs: indexing or
 * filtering progress, a live input's records/s and drops; the filter,
 * the time reference, the transfers view, follow, source, counts) and,
 * on the row below, the prompt with its error or a message, else why
 * `tui -i --drivers` captures usbmon alone, else the key hints.
 */
#include <curses.h>
#include <stdio.h>
#include <string.h>

#include "tui-view.h"

static void
status_draw(struct tui_screen *s, const struct tui_rect *r)
{
	struct tui_model *m = s->m;
	char	 buf[512], pos[48], ref[32] = "";

	if (m->nvis > 0)
		snprintf(pos, sizeof pos, "%zu/%zu", m->sel + 1, m->nvis);
	else
		snprintf(pos, sizeof pos, "0/0");
	if (m->tref != TI_NONE)
		snprintf(ref, sizeof ref, " | ref: #%llu",
		    TUI_FRAME(m, m->tref));
	snprintf(buf, sizeof buf, " %s%s%s%s%s%s%s%s%s | %s | %llu URBs "
	    "%llu events %llu errors", pos, s->activity[0] ? " | " : "",
	    s->activity, m->ftext[0] ? " | filter: " : "", m->ftext, ref,
	    m->transfers ? " | TRANSFERS" : "",
	    m->follow ? " | FOLLOW" : "", s->load_err ? " | input cut" : "",
	    s->source, (unsigned long long)m->nurb,
	    (unsigned long long)m->nevent, (unsigned long long)m->nerror);
	attrset(s->color ? COLOR_PAIR(TC_BAR) : A_REVERSE);
	tui_clear(r->y, r->x, r->w);
	tui_put(s, r->y, r->x, buf, r->w);
	attrset(A_NORMAL);

	tui_clear(r->y + 1, r->x, r->w);
	if (s->prompt != 0) {
		/* the prompt on the bar's row, its error under it */
		if (s->prompt == 'y')
			snprintf(buf, sizeof buf, "%s exists: overwrite it? "
			    "(y/n)", s->input);
		else
			snprintf(buf, sizeof buf, "%s %s", s->prompt == 'f' ?
			    "filter:" : s->prompt == 'w' ?
			    "save shown records to:" : s->prompt == ':' ?
			    "go to record:" : "search /", s->input);
		tui_clear(r->y, r->x, r->w);
		tui_put(s, r->y, r->x, buf, r->w);
		if (s->msg[0] != '\0') {
			if (s->msg_err)
				attrset(s->color ? COLOR_PAIR(TC_ERROR) :
				    A_BOLD);
			tui_put(s, r->y + 1, r->x, s->msg, r->w);
			attrset(A_NORMAL);
		}
		move(r->y, r->x + (int)strlen(buf) < r->w ?
		    r->x + (int)strlen(buf) : r->w - 1);
		return;
	}
	if (s->msg[0] != '\0') {
		if (s->msg_err)
			attrset(s->color ? COLOR_PAIR(TC_ERROR) : A_BOLD);
		tui_put(s, r->y + 1, r->x, s->msg, r->w);
		attrset(A_NORMAL);
	} else if (s->note[0] != '\0') {
		attrset(s->color ? COLOR_PAIR(TC_ERROR) : A_BOLD);
		tui_put(s, r->y + 1, r->x, s->note, r->w);
		attrset(A_NORMAL);
	} else
		tui_put(s, r->y + 1, r->x, " q quit  ? help  / search  "
		    "f filter  T transfers  s stats  w save  d devices  "
		    "Tab pane  Enter pair  n/N next  F follow", r->w);
}

const struct tui_view_ops tui_status_view = {
	.name = "Status",
	.draw = status_draw,
};
