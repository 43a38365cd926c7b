/*
 * tui/tui-view.h - the screen of the TUI (tui/tui.c owns it) and the views
 * drawn on it.  A view is a const ops table over the view model
 * (tui-model.h); only the views and tui.c include curses.
 */
#ifndef TUI_VIEW_H
#define TUI_VIEW_H

#include "tui-model.h"

struct why_modules;

struct tui_screen;

/* A rectangle of the terminal. */
struct tui_rect {
	int		 y, x, h, w;
};

struct tui_view_ops {
	const char	*name;		/* pane title */
	/* Draw into the view's rectangle.  Required. */
	void		 (*draw)(struct tui_screen *s,
			     const struct tui_rect *r);
	/* A key while the view has the focus: 1 if used, 0 if not.
	 * Optional. */
	int		 (*key)(struct tui_screen *s, int key);
	/* The rectangle changed (terminal resize).  Optional. */
	void		 (*resize)(struct tui_screen *s,
			     const struct tui_rect *r);
};

extern const struct tui_view_ops tui_list_view;
extern const struct tui_view_ops tui_details_view;
extern const struct tui_view_ops tui_hex_view;
extern const struct tui_view_ops tui_status_view;
extern const struct tui_view_ops tui_devices_view;

/* Colour pairs and what they mark. */
enum {
	TC_SUBMIT = 1,
	TC_COMPLETE,
	TC_ERROR,
	TC_EVENT,
	TC_RULE,
	TC_BAR,
	TC_TITLE,
};

/*
 * Where the panes go for a terminal size (tui/tui-util.c, no curses):
 * the timeline, the details (or devices) and the hex pane top to bottom,
 * a rule above the last two, the status bar and prompt rows at the foot.
 */
#define TUI_NPANES	3
struct tui_layout {
	struct tui_rect	 pane[TUI_NPANES];
	int		 rule[TUI_NPANES];	/* row of the rule above */
	struct tui_rect	 status;
};
void		 tui_layout(int lines, int cols, struct tui_layout *l);
/*
 * The pane under row y, column x (a mouse click) with the row inside it
 * in *row, or -1 on a rule, the status rows or outside.
 */
int		 tui_layout_hit(const struct tui_layout *l, int y, int x,
		     int *row);

/*
 * A live input's records per second over a sliding window (tui/tui-util.c,
 * no curses): the records counted in buckets of TUI_RATE_BUCKET_NS, the
 * last TUI_RATE_BUCKETS of them, so a burst shows at once and a pause
 * brings the rate to 0 within the window (2 s).
 */
#define TUI_RATE_BUCKETS	8
#define TUI_RATE_BUCKET_NS	250000000LL
struct tui_rate {
	uint64_t	 n[TUI_RATE_BUCKETS];	/* records, bucket cur % 8 */
	int64_t		 cur;		/* the newest bucket: time / size */
	int64_t		 start;		/* when counting began */
	uint64_t	 total;		/* records seen at the last update */
};
/* Count from now, total records seen so far not counted. */
void		 tui_rate_init(struct tui_rate *r, int64_t now,
		     uint64_t total);
/* total records have been seen by now (monotonic ns). */
void		 tui_rate_update(struct tui_rate *r, int64_t now,
		     uint64_t total);
/* Records per second in the window that ends now (over at least 1 s). */
double		 tui_rate_get(struct tui_rate *r, int64_t now);

#define TUI_TREE_NODES	4096
#define TUI_TREE_ARENA	65536

/*
 * The decoded tree in the details pane's text (tui/tui-fold.c, no
 * curses): its nodes are lines first to first + n - 1 of a text of
 * lines lines; folded[k] hides the nodes under node k.  The pane's
 * cursor counts visible lines, those no fold hides.
 */
struct tui_fold {
	const struct dec_node *node;
	size_t		 n;
	size_t		 first;
	size_t		 lines;
	uint8_t		*folded;
};
/* 1 if node k has children (the node after it is deeper). */
int		 tui_fold_kids(const struct tui_fold *f, size_t k);
/* The visible line after text line line (lines when none). */
size_t		 tui_fold_next(const struct tui_fold *f, size_t line);
/* The number of visible lines. */
size_t		 tui_fold_count(const struct tui_fold *f);
/* The text line of visible line v (lines or more past the end). */
size_t		 tui_fold_line(const struct tui_fold *f, size_t v);
/* The visible line showing text line line, or the fold hiding it. */
size_t		 tui_fold_visible(const struct tui_fold *f, size_t line);
/* The node of visible line v, or SIZE_MAX when it is no node. */
size_t		 tui_fold_node(const struct tui_fold *f, size_t v);
/* Fold (how 0), unfold (1) or toggle (-1) the node of visible line v;
 * 1 if that changed anything, 0 (a leaf, no node, already so) if not. */
int		 tui_fold_set(struct tui_fold *f, size_t v, int how);
/* The visible line of the parent of the node at v, or SIZE_MAX. */
size_t		 tui_fold_parent(const struct tui_fold *f, size_t v);
/* The bytes the node at v was decoded from: 1 and *buf (DB_SETUP or
 * DB_DATA), *off, *len; 0 when it has none. */
int		 tui_fold_bytes(const struct tui_fold *f, size_t v, int *buf,
		     uint32_t *off, uint32_t *len);

/*
 * Folds kept from record to record (tui/tui-fold.c, no curses): for each
 * kind of record (a name the caller gives, such as the transfer type and
 * S or C), the nodes last folded on a record of that kind, each by its
 * path: the names of the nodes from the top of the tree down to it.
 */
#define TUI_FOLD_KINDS	16
struct tui_fold_keep {
	char		 kind[TUI_FOLD_KINDS][16];	/* "" = free */
	struct sbuf	 paths[TUI_FOLD_KINDS];	/* a line each */
	unsigned	 next;		/* the slot a new kind takes */
};
/* Keep the folds of f as those of kind: the nodes folded in f, and
 * those kept before that f has no node for. */
void		 tui_fold_save(struct tui_fold_keep *k, const char *kind,
		     const struct tui_fold *f);
/* Fold the nodes of f (with children) kept folded for kind. */
void		 tui_fold_load(const struct tui_fold_keep *k,
		     const char *kind, struct tui_fold *f);
void		 tui_fold_keep_free(struct tui_fold_keep *k);

struct tui_screen {
	struct tui_model *m;
	const char	*source;	/* as the user named it */
	const char	*load_err;	/* why loading stopped, NULL */
	int		 live;		/* the input still grows (follow) */
	char		 activity[96];	/* "indexing 45%", "LIVE 120/s" */
	int		 color;		/* colours (not NO_COLOR) */
	int		 utf8;		/* the locale is UTF-8 */
	int		 focus;		/* index into the panes */
	int		 help;		/* the help screen is up */
	size_t		 help_top;	/* its first line shown */
	size_t		 help_lines;	/* its lines, wrapped, last drawn */
	int		 lines, cols;	/* the size last drawn at */

	/* the timeline's summaries scrolled left by list_hscroll columns
	 * ('<' '>'); the summary column's width and its longest line on
	 * screen, as last drawn */
	int		 list_hscroll;
	int		 list_sumw;
	int		 list_maxw;

	/* the selected record's details, rebuilt when it changes */
	uint32_t	 det_item;	/* TI_NONE = none built */
	struct sbuf	 det;		/* lines, '\n'-separated */
	size_t		 det_lines;	/* visible: not hidden by a fold */
	size_t		 det_top;	/* visible lines from here on */
	size_t		 det_cur;	/* cursor (visible line) */
	struct tui_fold	 det_fold;	/* the tree in det */
	uint8_t		 det_folded[TUI_TREE_NODES];
	char		 det_kind[16];	/* its kind for det_keep, "" none */
	struct tui_fold_keep det_keep;
	const uint8_t	*hex_setup;	/* the 8 setup bytes, NULL */
	const uint8_t	*hex_p;		/* hex pane bytes (det_rec) */
	size_t		 hex_n;
	int		 hex_buf;	/* DB_DATA, or DB_RAW: a bus packet */
	size_t		 hex_top;	/* first line shown */
	size_t		 hex_seen;	/* det_cur last scrolled to */
	struct dec_rec	 det_rec;	/* a copy: fetches move on */
	struct dec_node	*nodes;
	char		*arena;

	/* the Devices view, shown instead of the details ('d') */
	int		 devices;
	const struct dec_ctx *dev_ctx;	/* state at the end */
	int		 dev_built;
	/* live from usbmon on this machine: each device's interfaces as
	 * sysfs has them, with why its driver bound or none did (read at
	 * each build; the module aliases once, NULL until then) */
	int		 dev_usbmon;
	struct why_modules *dev_mods;
	struct sbuf	 devs;		/* lines, '\n'-separated */
	size_t		 dev_lines;
	size_t		 dev_top;
	size_t		 dev_cur;	/* cursor line (filters) */
	char		 dev_cur_filter[256]; /* its item, across rebuilds */

	/* the statistics screen ('s', tui-stats.c) */
	int		 stats;
	struct sbuf	 st_text;	/* lines, '\n'-separated */
	size_t		 st_lines;
	size_t		 st_top;
	size_t		 st_left;	/* columns scrolled sideways */

	/* the prompt: '/' search, 'f' filter, 'w' save, ':' go to; 0 when
	 * closed */
	int		 prompt;
	char		 input[256];
	size_t		 ilen;
	char		 msg[320];	/* under the prompt or bar */
	/* under the bar when there is no message: why tui -i --drivers
	 * captures usbmon alone, or "" */
	char		 note[300];
	int		 msg_err;
	int		 fcount;	/* say the filter's count when done */
};

/* Put s on row y from column x, at most w columns, never wrapping;
 * non-printable and (outside UTF-8) non-ASCII characters become '?'.
 * Returns the columns used. */
int		 tui_put(struct tui_screen *s, int y, int x, const char *str,
		     int w);
/* Skip at most w columns of *str as tui_put counts them: *str moves
 * past them; returns the columns skipped (w = INT_MAX: the width). */
int		 tui_skip(struct tui_screen *s, const char **str, int w);
/* Fill from column x to x + w - 1 of row y with blanks. */
void		 tui_clear(int y, int x, int w);
/* A horizontal rule with a title, in UTF-8 or ASCII. */
void		 tui_rule(struct tui_screen *s, int y, int w,
		     const char *title, int focused);
/* Scroll *top over lines with the usual keys (page: rows of a page);
 * 1 if the key was one of them. */
int		 tui_scroll_key(size_t *top, size_t lines, int page,
		     int key);
/* The statistics screen: built from the records shown, drawn, keys. */
void		 tui_stats_build(struct tui_screen *s);
void		 tui_stats_draw(struct tui_screen *s);
int		 tui_stats_key(struct tui_screen *s, int key);
/* Build s->det and the hex bytes for the selected item if it changed. */
void		 tui_details_update(struct tui_screen *s);

#endif /* TUI_VIEW_H */
