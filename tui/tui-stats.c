/*
 * tui/tui-stats.c - the statistics screen ('s'): what `urbscope stats`
 * prints (decode/dec-stats.c), of the records the filter shows (the
 * transfers view's rows stand for all their records), over the
 * whole screen: per endpoint URBs, bytes, throughput, errors, latency
 * with its activity strip, the latency histograms, errors by status,
 * classes and driver events.  j k PgUp PgDn g G scroll, h l Left Right
 * scroll sideways (the endpoint table is wider than a terminal), s q Esc
 * close.
 */
#include <curses.h>
#include <string.h>

#include "decode/stats.h"
#include "tui.h"
#include "tui-model.h"
#include "tui-view.h"

#define HSTEP	8

void
tui_stats_build(struct tui_screen *s)
{
	struct tui_model	*m = s->m;
	struct dec_stats	 st;
	struct dec_stats_opts	 o;
	const struct dec_rec	*rec;
	size_t			 k, nrec = 0;
	uint32_t		 i;
	const char		*p;

	dec_stats_init(&st);
	/* times run from the file's first frame to its last, as in
	 * `urbscope stats` */
	if (m->n > 0) {
		dec_stats_time(&st, m->t0);
		dec_stats_time(&st, m->item[m->n - 1].ts_ns);
	}
	while (tui_model_filter_step(m, 65536) > 0)
		;
	for (k = 0; tui_model_record_next(m, &k, &i); ) {
		if ((rec = m->fetch(m->fetch_arg, tui_recno(i))) == NULL)
			continue;
		nrec++;
		if (rec->kind == CAP_URB)
			dec_stats_add(&st, &rec->r, &rec->info,
			    rec->r.wire_len);
		else if (rec->kind == CAP_EVENT)
			dec_stats_event(&st, &rec->ev);
	}
	memset(&o, 0, sizeof o);
	o.what = DS_REPORT;
	o.utf8 = s->utf8;
	o.bins = 24;
	s->st_text.len = 0;
	if (s->st_text.s != NULL)
		s->st_text.s[0] = '\0';
	sb_printf(&s->st_text, "Statistics of the %zu records shown%s%s "
	    "(s or q closes; h l scroll sideways)\n\n", nrec,
	    m->ftext[0] != '\0' ? " by the filter " : "", m->ftext);
	dec_stats_text(&st, &o, &s->st_text);
	dec_stats_free(&st);
	s->st_lines = 0;
	for (p = s->st_text.s; p != NULL && *p != '\0'; p++)
		s->st_lines += *p == '\n';
	s->st_top = 0;
	s->st_left = 0;
}

/* Skip n columns of str (a UTF-8 sequence is one column here). */
static const char *
skip_cols(const char *str, const char *end, size_t n)
{
	while (n > 0 && str < end) {
		str++;
		while (str < end && ((unsigned char)*str & 0xc0) == 0x80)
			str++;
		n--;
	}
	return str;
}

void
tui_stats_draw(struct tui_screen *s)
{
	char		 line[1024];
	const char	*p, *nl, *from;
	size_t		 i, n;
	int		 y;

	erase();
	p = s->st_text.s;
	for (i = 0; p != NULL && *p != '\0' && i < s->st_top; i++) {
		if ((nl = strchr(p, '\n')) == NULL)
			p = NULL;
		else
			p = nl + 1;
	}
	for (y = 0; p != NULL && *p != '\0' && y < LINES; y++) {
		nl = strchr(p, '\n');
		if (nl == NULL)
			nl = p + strlen(p);
		from = skip_cols(p, nl, s->st_left);
		n = (size_t)(nl - from) < sizeof line - 1 ?
		    (size_t)(nl - from) : sizeof line - 1;
		memcpy(line, from, n);
		line[n] = '\0';
		tui_put(s, y, 0, line, COLS);
		p = *nl != '\0' ? nl + 1 : NULL;
	}
	refresh();
}

int
tui_stats_key(struct tui_screen *s, int k)
{
	switch (k) {
	case 's':
	case 'q':
	case 27:
		s->stats = 0;
		return 1;
	case KEY_LEFT:
	case 'h':
		s->st_left = s->st_left > HSTEP ? s->st_left - HSTEP : 0;
		return 0;
	case KEY_RIGHT:
	case 'l':
		if (s->st_left < 512)
			s->st_left += HSTEP;
		return 0;
	}
	(void)tui_scroll_key(&s->st_top, s->st_lines, LINES, k);
	/* the last screen is full, not one line at the top */
	if (LINES > 0 && s->st_top + (size_t)LINES > s->st_lines)
		s->st_top = s->st_lines > (size_t)LINES ?
		    s->st_lines - (size_t)LINES : 0;
	return 0;
}
