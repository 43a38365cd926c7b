/*
 * tui/tui-model.h - the TUI's view model, without curses: a compact index
 * of every URB record and driver event of the input (the timeline), the
 * filtered view of it, selection, scrolling, follow, search and pairing;
 * and the record store that re-reads the few records on screen.
 *
 * The index keeps no payloads: 32 bytes per item (struct tui_item) plus the
 * table of distinct URB ids.  Records are re-read on demand through the
 * store (tui/tui-store.c), which replays the source from its start into a
 * bounded window of decoded records; tests give the model any fetch
 * function.
 */
#ifndef TUI_MODEL_H
#define TUI_MODEL_H

#include <stddef.h>
#include <stdint.h>

#include "capture/capture.h"

/* tui_item.kind: 'S', 'C', 'E' for URBs, TI_EVENT | drv_kind for events. */
#define TI_EVENT	0x80
#define TI_NONE		UINT32_MAX

/* One timeline item: 32 bytes. */
struct tui_item {
	int64_t		 ts_ns;
	uint32_t	 recno;		/* 1-based, in the source */
	uint32_t	 pair;		/* the other half, or TI_NONE */
	uint32_t	 len;		/* len_urb, or an event's length */
	uint32_t	 ref;		/* URB: ids[]; event: evx[] */
	int16_t		 status;	/* status or result, clamped */
	uint16_t	 busnum;
	uint8_t		 devnum;
	uint8_t		 ep;
	uint8_t		 kind;
	uint8_t		 xfer;
};

/* What events need beyond the item (events are few next to URBs). */
struct tui_evx {
	uint64_t	 urb_id;
	uint32_t	 driver;	/* drivers[] index + 1, 0 = none */
};

/* A decoded item, owned by whoever fetched it (valid until next fetch). */
struct tui_rec {
	int		 kind;		/* CAP_URB or CAP_EVENT */
	struct urb_rec	 r;
	struct dec_info	 info;
	struct drv_event ev;
	uint8_t		*buf;		/* payload, ISO, strings */
	size_t		 bufsize;
};

/* Fetch item recno (1-based in the source); NULL when unavailable. */
typedef const struct tui_rec *(*tui_fetch_fn)(void *arg, uint64_t recno);

#define TUI_FILTER_NODES	64

struct tui_model {
	struct tui_item	*item;
	size_t		 n, cap;
	uint32_t	*vis;		/* items passing the filter */
	size_t		 nvis, viscap;
	size_t		 sel;		/* position in vis */
	size_t		 top;		/* first row shown */
	size_t		 rows;		/* rows of the list */
	int		 follow;	/* keep the newest item selected */

	uint64_t	*ids;		/* distinct URB ids */
	size_t		 nids, idcap;
	uint32_t	*idhash;	/* open addressing: ids[] index + 1 */
	size_t		 idhcap;
	struct tui_evx	*evx;
	size_t		 nevx, evxcap;
	char		**drivers;
	size_t		 ndrivers;

	uint64_t	 nurb, nevent, nerror;

	struct dec_filter filter;
	struct dec_fnode fnode[TUI_FILTER_NODES];
	char		 ftext[256];	/* the filter, "" = none */
	char		 search[128];	/* the last search */

	tui_fetch_fn	 fetch;
	void		*fetch_arg;
};

void		 tui_model_init(struct tui_model *m, tui_fetch_fn fetch,
		     void *arg);
void		 tui_model_free(struct tui_model *m);
/* Append to the timeline (in source order).  0 or -UE_NOMEM. */
int		 tui_model_add_urb(struct tui_model *m,
		     const struct urb_rec *r, const struct dec_info *info);
int		 tui_model_add_event(struct tui_model *m,
		     const struct drv_event *ev);
/* The DRV_SUBMIT event of the driver call that submitted URB item i (its
 * 'S', or the 'S' paired with a 'C'/'E'), or TI_NONE. */
uint32_t	 tui_model_submitter(const struct tui_model *m, uint32_t i);
/* Bytes the index uses (items, ids, events, view), for the status bar. */
size_t		 tui_model_bytes(const struct tui_model *m);

/* The selected item's index in item[], or TI_NONE when the view is empty. */
uint32_t	 tui_model_selected(const struct tui_model *m);
/* Latency of a completion item in ns, or -1. */
int64_t		 tui_model_latency(const struct tui_model *m,
		     uint32_t i);
/* URB id of an item (0 when none); the driver name of an event or NULL. */
uint64_t	 tui_model_urb_id(const struct tui_model *m, uint32_t i);
const char	*tui_model_driver(const struct tui_model *m, uint32_t i);

/* Navigation; all keep the selection on screen (rows set by the view). */
void		 tui_model_set_rows(struct tui_model *m, size_t rows);
void		 tui_model_move(struct tui_model *m, long delta);
void		 tui_model_page(struct tui_model *m, int down);
void		 tui_model_home(struct tui_model *m);
void		 tui_model_end(struct tui_model *m);
void		 tui_model_set_follow(struct tui_model *m, int on);
/*
 * Select the other half of the selected URB.  0, or -1 when it has none,
 * -2 when the filter hides it.
 */
int		 tui_model_pair(struct tui_model *m);
/* Select item i if visible; 0 or -1. */
int		 tui_model_select_item(struct tui_model *m, uint32_t i);

/*
 * Replace the filter.  On a syntax error the old one stays and -UE_SYNTAX
 * is returned with m->filter.err/col set to the problem.  The selection
 * stays on the same item if it passes, else on the next that does.
 */
int		 tui_model_set_filter(struct tui_model *m, const char *expr);

/*
 * The text of an item as search sees it and the list shows it after the
 * columns: the summary of a URB (dec_fmt_summary) or the event's text.
 * Appends to b; returns -1 when the record cannot be fetched.
 */
int		 tui_model_summary(struct tui_model *m, uint32_t i,
		     struct sbuf *b);
/* The columns of the list for item i, as text. */
struct tui_cols {
	char		 no[12];	/* record number */
	char		 time[20];	/* seconds since the first item */
	char		 addr[16];	/* bus.dev.ep */
	char		 dir[4];	/* in, out */
	char		 ev[4];		/* S C E, or "drv" */
	char		 type[8];	/* ctrl bulk int iso, event */
	char		 status[16];	/* ok, -EPIPE, a result */
	char		 len[12];
	char		 lat[24];	/* completions: 0.213ms */
};
void		 tui_model_cols(const struct tui_model *m, uint32_t i,
		     struct tui_cols *c);
/* The whole line search matches: columns and summary. */
int		 tui_model_line(struct tui_model *m, uint32_t i,
		     struct sbuf *b);
/*
 * Search for text (NULL = the last search) from the selection forward
 * (dir 1) or backward (dir -1), wrapping.  Case-insensitive unless text
 * has a capital.  Selects and returns 0, or -1 when nothing matches.
 */
int		 tui_model_search(struct tui_model *m, const char *text,
		     int dir);

/* ------------------------------------------------------------------------
 * The record store (tui/tui-store.c).
 */
struct tui_store;

/* Open name for re-reading; the input is read once by tui_store_load. */
int		 tui_store_open(const char *name, struct tui_store **out,
		     char *err, size_t errlen);
void		 tui_store_free(struct tui_store *st);
/*
 * Read the whole input into m, calling progress(arg, count) every 4096
 * items.  Returns 0, or a negative error with the message in err (what
 * was read before the error stays in m).
 */
int		 tui_store_load(struct tui_store *st, struct tui_model *m,
		     void (*progress)(void *, uint64_t), void *arg,
		     char *err, size_t errlen);
/* A tui_fetch_fn over the store (arg is the store). */
const struct tui_rec *tui_store_fetch(void *arg, uint64_t recno);
/* The device state at the end of the input (after a full load), or NULL. */
const struct dec_ctx *tui_store_ctx(const struct tui_store *st);
/* Bytes the window of decoded records holds; replays done so far. */
size_t		 tui_store_bytes(const struct tui_store *st);
uint64_t	 tui_store_replays(const struct tui_store *st);

/* Copy a record or event into rec, its bytes into rec->buf (grown). */
int		 tui_rec_copy(struct tui_rec *rec, int kind,
		     const struct urb_rec *r, const struct dec_info *info,
		     const struct drv_event *ev);
void		 tui_rec_free(struct tui_rec *rec);

#endif /* TUI_MODEL_H */
