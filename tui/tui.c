/*
 * tui/tui.c - `urbscope tui [FILE | sim:SCENARIO | -i usbmonN]`: the
 * ncurses viewer.  One poll() loop over the terminal, tmux-style: keys
 * and mouse go to the screen (prompts, global keys) and then to the
 * focused view; between polls the input is indexed into the view model
 * (tui-model.h) and a new filter run over the index, in slices of a few
 * milliseconds, so the first screen comes at once and keys work while a
 * big file loads or a live source streams.  The panes are redrawn from
 * the model.  The terminal is restored on every way out, signals
 * included.
 */
#include <curses.h>
#include <errno.h>
#include <fcntl.h>
#include <langinfo.h>
#include <locale.h>
#include <poll.h>
#include <pwd.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <wchar.h>

#include "capture/sysfs.h"
#include "tui.h"
#include "tui-correlate.h"
#include "tui-view.h"

#define SLICE_NS	(15 * 1000000LL)	/* indexing between polls */
#define FILTER_SLICE	65536			/* items between clock reads */
#define SEARCH_SLICE	1024			/* lines between clock reads */
#define DRAW_NS		(50 * 1000000LL)	/* redraws while working */
#define LIVE_POLL_MS	20			/* a live source's pace */


static volatile sig_atomic_t tui_quit;

/* The panes Tab cycles through, top to bottom. */
static const struct tui_view_ops *const panes[TUI_NPANES] = {
	&tui_list_view,
	&tui_details_view,
	&tui_hex_view,
};
#define NPANES	TUI_NPANES

static const char *const help_text[] = {
	"urbscope tui - keys",
	"",
	"  j k  Down Up      move the selection (scroll the focused pane)",
	"  PgDn PgUp Space   a page down / up",
	"  g G  Home End     first / last record",
	"  Tab               next pane: timeline, details, hex",
	"  d                 devices (bus, VID:PID, interfaces, endpoints) in "
	    "place of the details; d again to go back",
	"  Enter  p          jump to the other half of the URB (submit <-> "
	    "completion); Enter in the details jumps to the record a line "
	    "names",
	"  :N  Ctrl-G N      go to record N (the No. column); the nearest "
	    "shown when the filter hides it",
	"  [  ]  Backspace   back / forward over jumps (:N, g G, p, Enter, "
	    "search hits), as a browser",
	"  h l  Left Right   fold / unfold in the details (- + Space Enter too);"
	    " what is folded stays so on the next record of its kind",
	"  < >               scroll the summaries left / right (Left Right on "
	    "the timeline); < > at the edges say a line goes on",
	"  t                 time reference: the Time column counts from the "
	    "selected record (*REF*); t on it again clears it",
	"  /                 search text (smart case), payload bytes (55 53",
	"                    42 43, 0x55534243) or a filter (ep==0x81); a",
	"                    long search runs while you look, any key stops it",
	"  n  N              next / previous match",
	"  f                 filter, e.g.  type==bulk && status!=0",
	"                    or Wireshark's  usb.src == \"1.3.1\" and",
	"                    usb.capdata contains 55:53:42:43  (urbscope -G",
	"                    fields lists the names; short ones: dev bus ep",
	"                    type dir ev status len latency driver event urb)",
	"                    == != < <= > >= ~= contains  && || ! and or not",
	"                    empty filter: show everything",
	"  w                 save the records shown (after the filter,",
	"                    driver events too) to a file: pcapng, or pcap",
	"                    or usbmon text by the name's .pcap or .txt",
	"  F                 follow the newest record (on for live input;",
	"                    scrolling up stops it, G or F again resumes)",
	"  T                 transfers view: a submit whose completion "
	    "is in the capture is hidden, the completion's row (with its "
	    "latency) standing for the URB, and a run of identical "
	    "completions on an endpoint is its first row, \"(polled N "
	    "times)\" (\"repeated\" for control and OUT); T again shows "
	    "every record",
	"  mouse             click a line or a pane; the wheel scrolls",
	"  s                 statistics of the records shown: per endpoint "
	    "URBs, bytes, throughput, errors, latency and activity, latency "
	    "histograms, classes, driver events (s again closes it)",
	"  ?                 this help (j k PgDn PgUp g G scroll it, any "
	    "other key closes it)",
	"  q                 quit",
	NULL
};

static void
on_signal(int sig)
{
	(void)sig;
	tui_quit = 1;
}

void
tui_clear(int y, int x, int w)
{
	if (w > 0)
		mvhline(y, x, ' ', w);
}

/*
 * Put (draw) or skip (not) at most w columns of *str from the cursor on;
 * advance *str past them and return the columns used.
 */
static int
put_cols(struct tui_screen *s, const char **strp, int w, int draw)
{
	const char *str = *strp;
	mbstate_t st;
	wchar_t	 wc;
	size_t	 n;
	int	 used = 0, cw;

	memset(&st, 0, sizeof st);
	while (*str != '\0' && used < w) {
		if (!s->utf8 || (unsigned char)*str < 0x80) {
			cw = 1;
			if (draw)
				addch((unsigned char)*str >= 0x20 &&
				    (unsigned char)*str < 0x7f ?
				    (chtype)*str : '?');
			/* one '?' for a whole UTF-8 sequence */
			if ((unsigned char)*str >= 0x80)
				while (((unsigned char)str[1] & 0xc0) == 0x80)
					str++;
			str++;
			used += cw;
			continue;
		}
		n = mbrtowc(&wc, str, MB_CUR_MAX, &st);
		if (n == (size_t)-1 || n == (size_t)-2 || n == 0) {
			memset(&st, 0, sizeof st);
			if (draw)
				addch('?');
			str++;
			used++;
			continue;
		}
		if ((cw = wcwidth(wc)) < 0) {
			if (draw)
				addch('?');
			cw = 1;
		} else if (used + cw > w)
			break;
		else if (draw)
			addnstr(str, (int)n);
		str += n;
		used += cw;
	}
	*strp = str;
	return used;
}

int
tui_put(struct tui_screen *s, int y, int x, const char *str, int w)
{
	move(y, x);
	return put_cols(s, &str, w, 1);
}

int
tui_skip(struct tui_screen *s, const char **str, int w)
{
	return put_cols(s, str, w, 0);
}

void
tui_rule(struct tui_screen *s, int y, int w, const char *title, int focused)
{
	int	 x;

	attrset(A_NORMAL);
	for (x = 0; x < w; x++) {
		if (s->utf8)
			mvaddstr(y, x, "\xe2\x94\x80");	/* U+2500 */
		else
			mvaddch(y, x, '-');
	}
	if (focused)
		attron(A_BOLD | (s->color ? COLOR_PAIR(TC_TITLE) : 0));
	mvaddch(y, 1, ' ');
	x = tui_put(s, y, 2, title, w - 4);
	addch(' ');
	if (focused && x + 4 < w)
		tui_put(s, y, x + 3, "*", 1);
	attrset(A_NORMAL);
}

/* The view of pane i: the Devices view can stand in for the details. */
static const struct tui_view_ops *
pane(const struct tui_screen *s, int i)
{
	return i == 1 && s->devices ? &tui_devices_view : panes[i];
}

/* The help, its long lines wrapped to the terminal's width; when it is
 * taller than the terminal it scrolls, the last row saying how. */
static void
draw_help(struct tui_screen *s)
{
	struct sbuf	 all = { 0 }, b = { 0 };
	const char	*p, *nl;
	char		 more[128];
	size_t		 n = 0, k, rows;
	int		 i, y;

	erase();
	for (i = 0; help_text[i] != NULL; i++) {
		sb_puts(&all, help_text[i]);
		sb_putc(&all, '\n');
	}
	if (all.s != NULL)
		sb_wrap(&b, all.s, (size_t)(COLS > 0 ? COLS : 1));
	for (p = b.s; p != NULL && *p != '\0'; p++)
		n += *p == '\n';
	s->help_lines = n;
	rows = LINES > 1 ? (size_t)LINES : 1;
	if (n > rows)
		rows--;		/* the row saying it scrolls */
	if (s->help_top + rows > n)
		s->help_top = n > rows ? n - rows : 0;
	p = b.s;
	for (k = 0; p != NULL && k < s->help_top; k++)
		p = (nl = strchr(p, '\n')) != NULL ? nl + 1 : NULL;
	for (y = 0; p != NULL && *p != '\0' && (size_t)y < rows; y++) {
		nl = strchr(p, '\n');
		tui_put(s, y, 0, p, nl != NULL ? (int)(nl - p) : COLS);
		p = nl != NULL ? nl + 1 : NULL;
	}
	if (n > rows) {
		snprintf(more, sizeof more, "-- lines %zu-%zu of %zu: j k "
		    "PgDn PgUp scroll, any other key closes --",
		    s->help_top + 1, s->help_top + rows, n);
		attron(A_REVERSE);
		tui_put(s, (int)rows, 0, more, COLS);
		attroff(A_REVERSE);
	}
	sb_free(&all);
	sb_free(&b);
}

static void
draw(struct tui_screen *s)
{
	struct tui_layout l;
	int	 i;

	if (s->help) {
		draw_help(s);
		refresh();
		return;
	}
	if (s->stats) {
		tui_stats_draw(s);
		return;
	}
	tui_layout(LINES, COLS, &l);
	if (s->lines != LINES || s->cols != COLS) {
		s->lines = LINES;
		s->cols = COLS;
		for (i = 0; i < NPANES; i++) {
			if (panes[i]->resize != NULL)
				panes[i]->resize(s, &l.pane[i]);
			if (tui_devices_view.resize != NULL && i == 1)
				tui_devices_view.resize(s, &l.pane[i]);
		}
		clear();
	}
	for (i = 0; i < NPANES; i++) {
		if (i > 0)
			tui_rule(s, l.rule[i], COLS, pane(s, i)->name,
			    s->focus == i);
		pane(s, i)->draw(s, &l.pane[i]);
	}
	tui_status_view.draw(s, &l.status);
	curs_set(s->prompt ? 1 : 0);
	refresh();
}

static void
set_msg(struct tui_screen *s, int err, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void
set_msg(struct tui_screen *s, int err, const char *fmt, ...)
{
	va_list	 ap;

	va_start(ap, fmt);
	vsnprintf(s->msg, sizeof s->msg, fmt, ap);
	va_end(ap);
	s->msg_err = err;
}

/*
 * The 'w' prompt's Enter: save what the view shows.  On an error the
 * prompt stays open to fix the name.
 */
/*
 * The name typed with a leading ~ or ~user expanded as a shell does:
 * 0, or -1 when the user is unknown or the result too long.
 */
static int
expand_tilde(const char *in, char *out, size_t size)
{
	const struct passwd *pw;
	const char	*home, *rest;
	char		 user[256];
	size_t		 n;

	if (in[0] != '~')
		return snprintf(out, size, "%s", in) < (int)size ? 0 : -1;
	rest = in + 1 + strcspn(in + 1, "/");
	n = (size_t)(rest - in - 1);
	if (n == 0) {
		if ((home = getenv("HOME")) == NULL || *home == '\0')
			home = (pw = getpwuid(getuid())) != NULL ?
			    pw->pw_dir : NULL;
	} else {
		if (n >= sizeof user)
			return -1;
		memcpy(user, in + 1, n);
		user[n] = '\0';
		home = (pw = getpwnam(user)) != NULL ? pw->pw_dir : NULL;
	}
	if (home == NULL)
		return -1;
	return snprintf(out, size, "%s%s", home, rest) < (int)size ? 0 : -1;
}

/* Save what the view shows to the name typed (~ expanded); an existing
 * file only when overwrite is set (the y of the question). */
static void
save_shown(struct tui_screen *s, int overwrite)
{
	struct stat	 sb;
	char		 err[600], path[4096];
	uint64_t	 n, dropped;

	if (s->input[0] == '\0') {
		s->prompt = 0;
		s->msg[0] = '\0';
		return;
	}
	if (expand_tilde(s->input, path, sizeof path) != 0) {
		set_msg(s, 1, "%.200s: no such user, or the name is too long",
		    s->input);
		return;
	}
	if (!overwrite && stat(path, &sb) == 0) {
		s->prompt = 'y';	/* asks; y comes back here */
		s->msg[0] = '\0';
		return;
	}
	if (tui_model_save(s->m, path, &n, &dropped, err,
	    sizeof err) < 0) {
		set_msg(s, 1, "%.300s", err);
		return;
	}
	s->prompt = 0;
	if (dropped > 0)
		set_msg(s, 0, "saved %llu records to %.200s (%llu left out: "
		    "the format cannot hold them; use pcapng)",
		    (unsigned long long)n, path,
		    (unsigned long long)dropped);
	else
		set_msg(s, 0, "saved %llu records to %.200s",
		    (unsigned long long)n, path);
}

/*
 * Say where a jump (what: "go to", "back") to record want landed: rc 0
 * on it, 1 on the nearest shown, -2 nowhere (tui_model_goto,
 * tui_model_hist_go).
 */
static void
landed(struct tui_screen *s, const char *what, uint64_t want, int rc)
{
	unsigned long long at = TUI_FRAME(s->m, tui_model_selected(s->m));

	if (rc == -2)
		set_msg(s, 1, "no record is shown: the filter hides them "
		    "all");
	else if (rc == 1)
		set_msg(s, 0, "%s: record %llu is hidden by the filter%s: "
		    "at %llu, the nearest shown", what,
		    (unsigned long long)want, s->m->transfers ? " or a run" :
		    "", at);
	else if (rc == 3)
		set_msg(s, 0, "%s: frame %llu is a packet urbscope skips "
		    "(not USB it reads): at %llu, the next shown", what,
		    (unsigned long long)want, at);
	else
		set_msg(s, 0, "%s: record %llu", what, at);
}

/* Go to the record the ':' prompt names; a typo keeps it open. */
static void
goto_record(struct tui_screen *s)
{
	struct tui_model *m = s->m;
	unsigned long long n;
	const char *p = s->input;
	char	*end;
	int	 rc;

	p += strspn(p, " ");
	if (*p == '#')
		p++;
	if (*p < '0' || *p > '9' ||
	    (n = strtoull(p, &end, 10), end[strspn(end, " ")] != '\0')) {
		set_msg(s, 1, "not a record number: %s", s->input);
		return;
	}
	s->prompt = 0;
	if ((rc = tui_model_goto(m, n)) == 2)
		set_msg(s, 0, "go to: the filter has not come to record %llu "
		    "yet: the selection goes there when it does", n);
	else if (rc != -1)
		landed(s, "go to", n, rc);
	else if (n == 0)
		set_msg(s, 1, "no record 0: records count from 1");
	else if (m->n == 0)
		set_msg(s, 1, "record %llu is past the end: none yet", n);
	else
		set_msg(s, 1, "record %llu is past the end: the last is "
		    "%llu%s", n, TUI_FRAME(m, (uint32_t)m->n - 1), s->live ?
		    " so far" : "");
}

/* Back (dir -1) or forward (1) over the jumps. */
static void
history(struct tui_screen *s, int dir)
{
	struct tui_model *m = s->m;
	size_t	 len;
	int	 rc;

	if ((rc = tui_model_hist_go(m, dir)) == -1) {
		set_msg(s, 1, "no jump to go %s to", dir < 0 ? "back" :
		    "forward");
		return;
	}
	landed(s, dir < 0 ? "back" : "forward", tui_model_frame(m,
	    m->hist[m->hpos]), rc);
	len = strlen(s->msg);
	if (rc == 0)
		snprintf(s->msg + len, sizeof s->msg - len, " (%zu of %zu)",
		    m->hpos + 1, m->nhist);
}

/* t: the selected record becomes the time reference, or stops being. */
static void
time_ref(struct tui_screen *s)
{
	struct tui_model *m = s->m;

	switch (tui_model_time_ref(m)) {
	case 1:
		set_msg(s, 0, "time reference: record %llu (t on it again "
		    "clears it)", TUI_FRAME(m, m->tref));
		break;
	case 0:
		set_msg(s, 0, "time reference cleared");
		break;
	case -1:
		set_msg(s, 1, "no record is selected");
		break;
	case -2:
		set_msg(s, 1, "this record's time stamp is bad");
		break;
	}
}

/* A key while a prompt is open. */
static void
prompt_key(struct tui_screen *s, int key)
{
	struct tui_model *m = s->m;

	if (s->prompt == 'y') {
		/* the file to save to exists: y overwrites it, anything
		 * else goes back to the name */
		s->prompt = 'w';
		if (key == 'y' || key == 'Y')
			save_shown(s, 1);
		else
			set_msg(s, 0, "not overwritten: another name, or Esc");
		return;
	}
	switch (key) {
	case 27:			/* Esc */
	case 'g' & 0x1f:
		s->prompt = 0;
		s->msg[0] = '\0';
		return;
	case KEY_BACKSPACE:
	case 127:
	case '\b':
		if (s->ilen > 0)
			s->input[--s->ilen] = '\0';
		return;
	case 'u' & 0x1f:
		s->ilen = 0;
		s->input[0] = '\0';
		return;
	case '\n':
	case '\r':
	case KEY_ENTER:
		break;
	default:
		if (key >= 0x20 && key < 0x7f &&
		    s->ilen + 1 < sizeof s->input) {
			s->input[s->ilen++] = (char)key;
			s->input[s->ilen] = '\0';
		}
		return;
	}
	if (s->prompt == 'w') {
		save_shown(s, 0);
		return;
	}
	if (s->prompt == ':') {
		goto_record(s);
		return;
	}
	if (s->prompt == 'f') {
		if (tui_model_set_filter(m, s->input) != 0) {
			/* keep the prompt open to fix it */
			set_msg(s, 1, "%s", m->filter.err[0] ? m->filter.err :
			    "out of memory");
			return;
		}
		s->prompt = 0;
		if (m->fpos < m->n)
			s->fcount = 1;	/* said when the filter is through */
		else
			set_msg(s, 0, "%zu of %zu records pass", m->nvis,
			    m->n);
		return;
	}
	s->prompt = 0;
	if (s->input[0] == '\0')
		s->msg[0] = '\0';
	else if (tui_model_search_start(m, s->input, 1) != 0)
		set_msg(s, 1, "not found (%s): %s", tui_model_search_kind(m),
		    m->search);
	else				/* the loop runs it */
		set_msg(s, 0, "search (%s): %s", tui_model_search_kind(m),
		    m->search);
}

static void
open_prompt(struct tui_screen *s, int which)
{
	s->prompt = which;
	if (which == 'f')
		snprintf(s->input, sizeof s->input, "%s", s->m->ftext);
	else
		s->input[0] = '\0';
	s->ilen = strlen(s->input);
	s->msg[0] = '\0';
}

/*
 * The mouse: a click focuses the pane under it and, on the timeline,
 * selects the line; the wheel scrolls the pane under it (three lines).
 */
static void
mouse_key(struct tui_screen *s)
{
	MEVENT	 me;
	struct tui_layout l;
	int	 p, row, i, k;

	if (getmouse(&me) != OK || s->help || s->prompt != 0)
		return;
	tui_layout(LINES, COLS, &l);
	if ((p = tui_layout_hit(&l, me.y, me.x, &row)) < 0)
		return;
	if (me.bstate & (BUTTON4_PRESSED | BUTTON5_PRESSED)) {
		k = me.bstate & BUTTON4_PRESSED ? KEY_UP : KEY_DOWN;
		for (i = 0; i < 3; i++)
			if (pane(s, p)->key != NULL)
				pane(s, p)->key(s, k);
		return;
	}
	if (!(me.bstate & (BUTTON1_PRESSED | BUTTON1_CLICKED)))
		return;
	s->focus = p;
	if (p == 0 && row >= 1)		/* row 0 is the header */
		tui_model_select_row(s->m, (size_t)row - 1);
	else if (p == 1 && !s->devices)	/* details_draw clamps it */
		s->det_cur = s->det_top + (size_t)row;
	else if (p == 1 && s->dev_top + (size_t)row < s->dev_lines) {
		/* as if the cursor had moved there: filter to its item */
		s->dev_cur = s->dev_top + (size_t)row;
		pane(s, p)->key(s, KEY_ENTER);
	}
}

/* A key; returns 1 to quit. */
static int
screen_key(struct tui_screen *s, int k)
{
	struct tui_model *m = s->m;
	int	 rc;

	if (k == KEY_MOUSE) {
		mouse_key(s);
		return 0;
	}
	if (s->help) {
		/* scroll keys scroll it (a tall help), others close it */
		if (s->help_lines <= (size_t)LINES ||
		    !tui_scroll_key(&s->help_top, s->help_lines, LINES, k))
			s->help = 0;
		return 0;
	}
	if (s->stats) {
		(void)tui_stats_key(s, k);
		if (!s->stats)
			s->lines = 0;	/* the panes draw anew */
		return 0;
	}
	if (s->prompt != 0) {
		prompt_key(s, k);
		return 0;
	}
	if (k != KEY_RESIZE)
		s->msg[0] = '\0';
	if (m->sdir != 0 && k != KEY_RESIZE) {
		/* a key stops a search still running, as ^C in less */
		m->sdir = 0;
		set_msg(s, 0, "search stopped");
		if (k == 27 || k == ('g' & 0x1f))
			return 0;
	}
	switch (k) {
	case 'q':
		return 1;
	case '?':
		s->help = 1;
		s->help_top = 0;
		return 0;
	case 's':
		tui_stats_build(s);
		s->stats = 1;
		return 0;
	case '\t':
		s->focus = (s->focus + 1) % NPANES;
		return 0;
	case KEY_BTAB:
		s->focus = (s->focus + NPANES - 1) % NPANES;
		return 0;
	case '\n':
	case '\r':
	case KEY_ENTER:
		/*
		 * In the details or devices pane Enter is theirs (jump to
		 * the record a line names, filter to a device); on the
		 * timeline, and in panes that do not take it, the pair.
		 */
		if (s->focus != 0 && pane(s, s->focus)->key != NULL &&
		    pane(s, s->focus)->key(s, k))
			return 0;
		/* FALLTHROUGH */
	case 'p':
		/* a jump: tui_model_pair puts it on the history */
		if ((rc = tui_model_pair(m)) == -1)
			set_msg(s, 1, "this record has no pair in the capture");
		else if (rc == -2)
			set_msg(s, 1, "the pair is hidden by the filter");
		return 0;
	case '/':
	case 'f':
	case 'w':
	case ':':
		open_prompt(s, k);
		return 0;
	case 'g' & 0x1f:		/* Wireshark's Go to packet */
		open_prompt(s, ':');
		return 0;
	case '[':
	case KEY_BACKSPACE:
	case 127:
	case '\b':
		history(s, -1);
		return 0;
	case ']':
		history(s, 1);
		return 0;
	case 't':
		time_ref(s);
		return 0;
	case 'n':
	case 'N':
		if (m->search[0] == '\0')
			set_msg(s, 1, "no search yet: press /");
		else if (tui_model_search_start(m, NULL,
		    k == 'n' ? 1 : -1) != 0)
			set_msg(s, 1, "not found (%s): %s",
			    tui_model_search_kind(m), m->search);
		else
			set_msg(s, 0, "search (%s): %s",
			    tui_model_search_kind(m), m->search);
		return 0;
	case 'd':
		s->devices = !s->devices;
		return 0;
	case 'F':
		tui_model_set_follow(m, !m->follow);
		set_msg(s, 0, "follow %s", m->follow ? "on" : "off");
		return 0;
	case 'T':
		if (tui_model_set_transfers(m, !m->transfers) != 0)
			set_msg(s, 1, "out of memory");
		else
			set_msg(s, 0, "transfers view %s",
			    m->transfers ? "on" : "off");
		return 0;
	case KEY_RESIZE:
		return 0;
	}
	if (pane(s, s->focus)->key != NULL && pane(s, s->focus)->key(s, k))
		return 0;
	/* the timeline's keys work from every pane */
	if (s->focus != 0)
		tui_list_view.key(s, k);
	return 0;
}

static void
init_colors(struct tui_screen *s)
{
	const char *nc = getenv("NO_COLOR");

	s->color = has_colors() && (nc == NULL || *nc == '\0');
	if (!s->color)
		return;
	start_color();
	use_default_colors();
	init_pair(TC_SUBMIT, COLOR_CYAN, -1);
	init_pair(TC_COMPLETE, -1, -1);
	init_pair(TC_ERROR, COLOR_RED, -1);
	init_pair(TC_EVENT, COLOR_YELLOW, -1);
	init_pair(TC_RULE, COLOR_MAGENTA, -1);
	init_pair(TC_BAR, COLOR_BLACK, COLOR_CYAN);
	init_pair(TC_TITLE, COLOR_GREEN, -1);
}

/* What the loop works on between polls. */
struct loop {
	struct tui_screen *s;
	struct tui_store *st;
	int		 loading;	/* TUI_LOAD_MORE or _AGAIN, 0 = done */
	int64_t		 t0;		/* when indexing began */
	char		 lerr[600];
	/*
	 * URBSCOPE_TUI_BATCH=N (tests): index at most N items a slice and
	 * wait a millisecond between slices, so a small file takes long
	 * enough to load for a test to look at the screen meanwhile.
	 */
	size_t		 batch;
	/* records per second of a live input, over the last seconds */
	struct tui_rate	 rate;
	size_t		 dev_n;		/* items when Devices was built */
	int64_t		 dev_t;
};

/* Index a slice of the input; keep the screen's state in step. */
static void
load_slice(struct loop *lp, int64_t budget)
{
	struct tui_screen *s = lp->s;
	struct tui_model *m = s->m;
	int	 rc;

	if (lp->loading == 0)
		return;
	rc = tui_store_index(lp->st, m, budget, lp->batch, lp->lerr,
	    sizeof lp->lerr);
	if (rc >= 0) {
		lp->loading = rc;
		if (rc == TUI_LOAD_DONE && s->live) {
			s->live = 0;
			set_msg(s, 0, "the input ended after %zu records%s%s",
			    m->n, s->note[0] != '\0' ? "; " : "", s->note);
		} else if (rc == TUI_LOAD_DONE && (m->n >= 100000 ||
		    cap_clock_ns(CLOCK_MONOTONIC) - lp->t0 >= 500000000LL)) {
			/* a big input: what it took */
			set_msg(s, 0, "indexed %zu records in %.2f s "
			    "(index %.1f bytes/record)", m->n,
			    (double)(cap_clock_ns(CLOCK_MONOTONIC) - lp->t0) / 1e9, m->n ?
			    (double)tui_model_bytes(m) / (double)m->n : 0.0);
		}
		return;
	}
	lp->loading = 0;
	s->live = 0;
	s->load_err = lp->lerr;
	set_msg(s, 1, "%.150s", lp->lerr);
}

/* Search a slice of the view; say when nothing matched. */
static void
search_slice(struct loop *lp, int64_t stop)
{
	struct tui_screen *s = lp->s;
	struct tui_model *m = s->m;
	int	 rc;

	while ((rc = tui_model_search_step(m, SEARCH_SLICE)) > 0)
		if (cap_clock_ns(CLOCK_MONOTONIC) >= stop)
			return;
	if (rc < 0)
		set_msg(s, 1, "not found (%s): %s", tui_model_search_kind(m),
		    m->search);
}

/* Filter a slice of the index; say the count when through. */
static void
filter_slice(struct loop *lp, int64_t stop)
{
	struct tui_screen *s = lp->s;
	struct tui_model *m = s->m;

	while (tui_model_filter_step(m, FILTER_SLICE) > 0)
		if (cap_clock_ns(CLOCK_MONOTONIC) >= stop)
			return;
	if (s->fcount) {
		s->fcount = 0;
		set_msg(s, 0, "%zu of %zu records pass", m->nvis, m->n);
	}
}

/* The activity part of the status bar. */
static void
activity(struct loop *lp)
{
	struct tui_screen *s = lp->s;
	struct tui_model *m = s->m;
	struct cap_stats cs;
	uint64_t done, total;
	int64_t	 now = cap_clock_ns(CLOCK_MONOTONIC);
	size_t	 len = 0;

	s->activity[0] = '\0';
	tui_rate_update(&lp->rate, now, m->n);
	if (tui_store_live(lp->st)) {
		tui_store_stats(lp->st, &cs);
		if (s->live)
			len = (size_t)snprintf(s->activity,
			    sizeof s->activity, "LIVE %.0f/s %llu dropped",
			    tui_rate_get(&lp->rate, now),
			    (unsigned long long)cs.dropped);
		else
			len = (size_t)snprintf(s->activity,
			    sizeof s->activity, "ended, %llu dropped",
			    (unsigned long long)cs.dropped);
		/* --drivers: the events the tracer lost, as usbmon's drops */
		if (cs.have_events && len < sizeof s->activity)
			len += (size_t)snprintf(s->activity + len,
			    sizeof s->activity - len, ", %llu events lost",
			    (unsigned long long)cs.ev_dropped);
	} else if (tui_store_progress(lp->st, &done, &total)) {
		if (total > 0)
			len = (size_t)snprintf(s->activity,
			    sizeof s->activity, "indexing %d%%",
			    (int)(done * 100 / total));
		else
			len = (size_t)snprintf(s->activity,
			    sizeof s->activity, "indexing %zu", m->n);
	}
	if (m->sdir != 0 && len < sizeof s->activity)
		len += (size_t)snprintf(s->activity + len,
		    sizeof s->activity - len, "%ssearching %d%%",
		    len ? " " : "", (int)(m->sdone * 100 /
		    (m->nvis ? m->nvis : 1)));
	if (len < sizeof s->activity && m->fpos < m->n)
		snprintf(s->activity + len, sizeof s->activity - len,
		    "%sfiltering %d%%", len ? " " : "",
		    (int)(m->fpos * 100 / (m->n ? m->n : 1)));
	/* the Devices view shows the state so far: rebuild now and then */
	if (s->devices && m->n != lp->dev_n &&
	    now - lp->dev_t >= 500000000LL) {
		s->dev_built = 0;
		lp->dev_n = m->n;
		lp->dev_t = now;
	}
}

static int
run(struct loop *lp)
{
	struct tui_screen *s = lp->s;
	struct tui_model *m = s->m;
	struct sigaction sa;
	struct pollfd	 pfd;
	int64_t		 last = 0, now;
	int		 k, done = 0, dirty = 1, busy, timeout, was;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);

	if (initscr() == NULL)
		return -1;
	cbreak();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	nodelay(stdscr, TRUE);
	set_escdelay(25);
	/* presses, not clicks: no wait to tell a click from a double */
	mouseinterval(0);
	mousemask(BUTTON1_PRESSED | BUTTON1_CLICKED | BUTTON4_PRESSED |
	    BUTTON5_PRESSED, NULL);
	init_colors(s);
	curs_set(0);

	while (!done && !tui_quit) {
		now = cap_clock_ns(CLOCK_MONOTONIC);
		busy = lp->loading == TUI_LOAD_MORE || m->fpos < m->n ||
		    m->sdir != 0;
		if (dirty || (now - last >= DRAW_NS &&
		    (busy || lp->loading != 0))) {
			activity(lp);
			draw(s);
			last = now;
			dirty = 0;
		}
		/* working: only look for keys; a live source: its pace */
		if (busy)
			timeout = lp->batch != 0;
		else if (lp->loading == TUI_LOAD_AGAIN)
			timeout = LIVE_POLL_MS;
		else
			timeout = 500;
		pfd.fd = STDIN_FILENO;
		pfd.events = POLLIN;
		if (poll(&pfd, 1, timeout) < 0 && errno != EINTR)
			break;
		/* the terminal is gone (its window closed, without a
		 * SIGHUP for us): getch would fail at once, forever */
		if (pfd.revents & (POLLHUP | POLLERR | POLLNVAL))
			break;
		while (!done && (k = getch()) != ERR) {
			done = screen_key(s, k);
			dirty = 1;
		}
		if (done)
			break;
		now = cap_clock_ns(CLOCK_MONOTONIC);
		if (m->sdir != 0) {
			search_slice(lp, now + SLICE_NS);
			dirty |= m->sdir == 0;	/* found, or not */
		}
		was = m->fpos < m->n;
		if (was)
			filter_slice(lp, now + SLICE_NS / 2);
		if (was && m->fpos == m->n)
			dirty = 1;	/* the filter is through: show it */
		was = lp->loading;
		load_slice(lp, m->fpos < m->n ? SLICE_NS / 2 : SLICE_NS);
		if (was != 0 && lp->loading == 0)
			dirty = 1;	/* the input is through: show it */
	}
	endwin();
	return 0;
}

/* Standard input from the controlling terminal: 0, or -1 with err set. */
static int
tty_stdin(char *err, size_t errlen)
{
	int	 fd;

	if ((fd = open("/dev/tty", O_RDWR)) < 0) {
		snprintf(err, errlen, "no terminal to read keys from: "
		    "/dev/tty: %s", strerror(errno));
		return -1;
	}
	if (fd != STDIN_FILENO) {
		if (dup2(fd, STDIN_FILENO) < 0) {
			snprintf(err, errlen, "dup2 /dev/tty: %s",
			    strerror(errno));
			close(fd);
			return -1;
		}
		close(fd);
	}
	return 0;
}

int
tui_main(const char *name, int fast, int live, int drivers, char *err,
    size_t errlen)
{
	struct tui_screen s;
	struct tui_model m;
	struct loop	 lp;
	struct tui_store *st = NULL;
	char		 why[512];
	struct cap_stats cs;
	int		 status = 0;

	setlocale(LC_ALL, "");
	if (tui_store_open_traced(name, drivers, &st, why, sizeof why, err,
	    errlen) != 0)
		return -1;
	/* standard input was the capture (copied): the keys come from the
	 * terminal, as less(1) takes them */
	if (!isatty(STDIN_FILENO) && tty_stdin(err, errlen) != 0) {
		tui_store_free(st);
		return -1;
	}
	if (!fast && !live && tui_store_pace(st, err, errlen) < 0) {
		tui_store_free(st);
		return -1;
	}
	tui_model_init(&m, tui_store_fetch, st);
	m.scan = tui_store_scan;
	memset(&s, 0, sizeof s);
	memset(&lp, 0, sizeof lp);
	s.m = &m;
	s.source = name;
	s.det_item = TI_NONE;
	s.utf8 = strcmp(nl_langinfo(CODESET), "UTF-8") == 0;
	m.fmt.ascii = !s.utf8;
	s.nodes = calloc(TUI_TREE_NODES, sizeof *s.nodes);
	s.arena = malloc(TUI_TREE_ARENA);
	m.corr = tui_corr_new();
	if (s.nodes == NULL || s.arena == NULL || m.corr == NULL) {
		snprintf(err, errlen, "out of memory");
		status = -1;
		goto out;
	}
	s.dev_ctx = tui_store_ctx(st);
	s.live = tui_store_live(st);
	s.dev_usbmon = s.live && cap_live_name(name) >= 0;
	if (s.live)
		tui_model_set_follow(&m, 1);
	/* capture --drivers's warning, in one line: why it could not
	 * trace, or what it could not (the events counted: traced) */
	if (why[0] != '\0') {
		tui_store_stats(st, &cs);
		snprintf(s.note, sizeof s.note, "--drivers: %.200s%s", why,
		    cs.have_events ? "" : "; usbmon alone");
	}
	lp.s = &s;
	lp.st = st;
	lp.t0 = cap_clock_ns(CLOCK_MONOTONIC);
	tui_rate_init(&lp.rate, lp.t0, 0);
	lp.loading = TUI_LOAD_MORE;
	if (getenv("URBSCOPE_TUI_BATCH") != NULL)
		lp.batch = strtoul(getenv("URBSCOPE_TUI_BATCH"), NULL, 10);
	/* the first slice before the screen: an input that fails at once
	 * says so on the terminal it was started from */
	load_slice(&lp, SLICE_NS);
	if (s.load_err != NULL && m.n == 0) {
		snprintf(err, errlen, "%s", lp.lerr);
		status = -1;
		goto out;
	}
	if (run(&lp) != 0) {
		snprintf(err, errlen, "cannot start the terminal");
		status = -1;
	}
out:
	free(s.nodes);
	free(s.arena);
	sb_free(&s.det);
	sb_free(&s.devs);
	if (s.dev_mods != NULL) {
		why_modules_free(s.dev_mods);
		free(s.dev_mods);
	}
	sb_free(&s.st_text);
	tui_fold_keep_free(&s.det_keep);
	dec_rec_free(&s.det_rec);
	tui_corr_free(m.corr);
	m.corr = NULL;
	tui_model_free(&m);
	tui_store_free(st);
	return status;
}
