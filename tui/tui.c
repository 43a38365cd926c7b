/*
 * tui/tui.c - `urbscope tui [FILE | sim:SCENARIO]`: the ncurses viewer.
 * Loads the input into the view model's index (tui-model.h), then runs one
 * poll() loop over the terminal: keys go to the screen (prompts, global
 * keys) and then to the focused view; every pass redraws the panes from
 * the model.  The terminal is restored on every way out, signals
 * included.
 */
#include <curses.h>
#include <errno.h>
#include <langinfo.h>
#include <locale.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <wchar.h>

#include "tui.h"
#include "tui-view.h"

static volatile sig_atomic_t tui_quit;

/* The panes Tab cycles through, top to bottom. */
static const struct tui_view_ops *const panes[] = {
	&tui_list_view,
	&tui_details_view,
	&tui_hex_view,
};
#define NPANES	(int)(sizeof panes / sizeof panes[0])

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
	    "completion)",
	"  /                 search the lines for text (smart case)",
	"  n  N              next / previous match",
	"  f                 filter, e.g.  type==bulk && status!=0",
	"                    fields: dev bus ep type dir ev status len latency",
	"                    driver event urb;  == != < <= > >=  && || ! ( )",
	"                    empty filter: show everything",
	"  F                 follow the newest record",
	"  ?                 this help (any key closes it)",
	"  q                 quit",
	NULL
};

static void
on_signal(int sig)
{
	(void)sig;
	tui_quit = 1;
}

static void
tui_usage(FILE *f)
{
	fprintf(f, "usage: urbscope tui [FILE | sim:SCENARIO]\n"
	    "The interactive viewer: a timeline of URB records and driver\n"
	    "events, the selected record decoded and in hex, filters and\n"
	    "search.  Press ? inside for the keys.\n");
}

void
tui_clear(int y, int x, int w)
{
	if (w > 0)
		mvhline(y, x, ' ', w);
}

int
tui_put(struct tui_screen *s, int y, int x, const char *str, int w)
{
	mbstate_t st;
	wchar_t	 wc;
	size_t	 n;
	int	 used = 0, cw;

	memset(&st, 0, sizeof st);
	move(y, x);
	while (*str != '\0' && used < w) {
		if (!s->utf8 || (unsigned char)*str < 0x80) {
			cw = 1;
			addch((unsigned char)*str >= 0x20 &&
			    (unsigned char)*str < 0x7f ? (chtype)*str : '?');
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
			addch('?');
			str++;
			used++;
			continue;
		}
		if ((cw = wcwidth(wc)) < 0) {
			addch('?');
			cw = 1;
		} else if (used + cw > w)
			break;
		else
			addnstr(str, (int)n);
		str += n;
		used += cw;
	}
	return used;
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

/* Where everything goes for the current terminal size. */
struct layout {
	struct tui_rect	 pane[NPANES];
	int		 rule[NPANES];	/* row of the rule above a pane */
	struct tui_rect	 status;
};

static void
layout(struct layout *l)
{
	int	 h = LINES, w = COLS, avail, list, hex, det;

	memset(l, 0, sizeof *l);
	avail = h - 2 - 2;		/* status + prompt, two rules */
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
	l->pane[0] = (struct tui_rect){ 0, 0, list, w };
	l->rule[1] = list;
	l->pane[1] = (struct tui_rect){ list + 1, 0, det, w };
	l->rule[2] = list + 1 + det;
	l->pane[2] = (struct tui_rect){ list + 2 + det, 0, hex, w };
	l->status = (struct tui_rect){ h - 2, 0, 2, w };
}

static void
draw_help(struct tui_screen *s)
{
	int	 y;

	erase();
	for (y = 0; help_text[y] != NULL && y < LINES; y++)
		tui_put(s, y, 0, help_text[y], COLS);
}

static void
draw(struct tui_screen *s)
{
	struct layout l;
	int	 i;

	if (s->help) {
		draw_help(s);
		refresh();
		return;
	}
	layout(&l);
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

/* A key while a prompt is open. */
static void
prompt_key(struct tui_screen *s, int key)
{
	struct tui_model *m = s->m;

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
	if (s->prompt == 'f') {
		if (tui_model_set_filter(m, s->input) != 0) {
			/* keep the prompt open to fix it */
			set_msg(s, 1, "%s", m->filter.err[0] ? m->filter.err :
			    "out of memory");
			return;
		}
		s->prompt = 0;
		set_msg(s, 0, "%zu of %zu records pass", m->nvis, m->n);
		return;
	}
	s->prompt = 0;
	if (s->input[0] == '\0')
		s->msg[0] = '\0';
	else if (tui_model_search(m, s->input, 1) != 0)
		set_msg(s, 1, "not found: %s", s->input);
	else
		s->msg[0] = '\0';
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

/* A key; returns 1 to quit. */
static int
screen_key(struct tui_screen *s, int k)
{
	struct tui_model *m = s->m;
	int	 rc;

	if (s->help) {
		s->help = 0;
		return 0;
	}
	if (s->prompt != 0) {
		prompt_key(s, k);
		return 0;
	}
	if (k != KEY_RESIZE)
		s->msg[0] = '\0';
	switch (k) {
	case 'q':
		return 1;
	case '?':
		s->help = 1;
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
	case 'p':
		if ((rc = tui_model_pair(m)) == -1)
			set_msg(s, 1, "this record has no pair in the capture");
		else if (rc == -2)
			set_msg(s, 1, "the pair is hidden by the filter");
		return 0;
	case '/':
	case 'f':
		open_prompt(s, k);
		return 0;
	case 'n':
	case 'N':
		if (m->search[0] == '\0')
			set_msg(s, 1, "no search yet: press /");
		else if (tui_model_search(m, NULL, k == 'n' ? 1 : -1) != 0)
			set_msg(s, 1, "not found: %s", m->search);
		return 0;
	case 'd':
		s->devices = !s->devices;
		return 0;
	case 'F':
		tui_model_set_follow(m, !m->follow);
		set_msg(s, 0, "follow %s", m->follow ? "on" : "off");
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
progress(void *arg, uint64_t n)
{
	fprintf(stderr, "\rurbscope: indexing %s: %llu records",
	    (const char *)arg, (unsigned long long)n);
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

static int
run(struct tui_screen *s)
{
	struct sigaction sa;
	struct pollfd	 pfd;
	int		 k, done = 0;

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
	init_colors(s);
	curs_set(0);

	while (!done && !tui_quit) {
		draw(s);
		pfd.fd = STDIN_FILENO;
		pfd.events = POLLIN;
		if (poll(&pfd, 1, 500) < 0 && errno != EINTR)
			break;
		while (!done && (k = getch()) != ERR)
			done = screen_key(s, k);
	}
	endwin();
	return 0;
}

int
tui_cmd_tui(int argc, char **argv)
{
	struct tui_screen s;
	struct tui_model m;
	struct tui_store *st = NULL;
	const char	*name = "sim:demo";
	char		 err[600], lerr[600];
	int		 rc, status = 0;

	if (argc > 1 && (strcmp(argv[1], "-h") == 0 ||
	    strcmp(argv[1], "--help") == 0)) {
		tui_usage(stdout);
		return 0;
	}
	if (argc > 2 || (argc == 2 && argv[1][0] == '-' &&
	    argv[1][1] != '\0')) {
		tui_usage(stderr);
		return EXIT_USAGE;
	}
	if (argc == 2)
		name = argv[1];
	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
		tui_warnx("tui: needs a terminal (use 'urbscope read' in "
		    "pipes)");
		return EXIT_USAGE;
	}
	setlocale(LC_ALL, "");
	if (tui_store_open(name, &st, err, sizeof err) != 0) {
		tui_warnx("tui: %s", err);
		return EXIT_INPUT;
	}
	tui_model_init(&m, tui_store_fetch, st);
	memset(&s, 0, sizeof s);
	s.m = &m;
	s.source = name;
	s.det_item = TI_NONE;
	s.utf8 = strcmp(nl_langinfo(CODESET), "UTF-8") == 0;
	s.nodes = calloc(TUI_TREE_NODES, sizeof *s.nodes);
	s.arena = malloc(TUI_TREE_ARENA);
	if (s.nodes == NULL || s.arena == NULL) {
		tui_warnx("out of memory");
		status = EXIT_INPUT;
		goto out;
	}
	rc = tui_store_load(st, &m, isatty(STDERR_FILENO) ? progress : NULL,
	    (void *)(uintptr_t)name, lerr, sizeof lerr);
	if (m.n >= 4096 && isatty(STDERR_FILENO))
		fputc('\n', stderr);
	if (rc != 0) {
		if (m.n == 0) {
			tui_warnx("%s", lerr);
			status = EXIT_INPUT;
			goto out;
		}
		s.load_err = lerr;
		snprintf(s.msg, sizeof s.msg, "%.150s", lerr);
		s.msg_err = 1;
	}
	s.dev_ctx = tui_store_ctx(st);
	if (run(&s) != 0) {
		tui_warnx("tui: cannot start the terminal");
		status = EXIT_INPUT;
	}
out:
	free(s.nodes);
	free(s.arena);
	sb_free(&s.det);
	sb_free(&s.devs);
	tui_rec_free(&s.det_rec);
	tui_model_free(&m);
	tui_store_free(st);
	return status;
}
