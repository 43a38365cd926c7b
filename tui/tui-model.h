/*
 * tui/tui-model.h - the TUI's view model, without curses: a compact index
 * of every URB record and driver event of the input (the timeline), the
 * filtered view of it, selection, scrolling, follow, search and pairing;
 * and the record store that re-reads the few records on screen.
 *
 * The index keeps no payloads: 28 bytes per item (struct tui_item) and
 * 8 (the fingerprint of a URB's data and request, for the transfers
 * view's runs) plus the table of distinct URB ids, and 8 bytes per row
 * shown when a filter or the transfers view is on (none without).
 * Records are re-read on demand through the store (tui/tui-store.c),
 * which replays the source from its start into a bounded window of
 * decoded records; tests give the model any fetch function.
 */
#ifndef TUI_MODEL_H
#define TUI_MODEL_H

#include <stddef.h>
#include <stdint.h>

#include "capture/capture.h"

struct tui_corr;

/* tui_item.kind: 'S', 'C', 'E' for URBs, TI_EVENT | drv_kind for events. */
#define TI_EVENT	0x80
#define TI_NONE		UINT32_MAX

/*
 * One timeline item: 28 bytes.  Items are the source's records in order,
 * so item i is record i + 1 (tui_recno) and needs no number of its own.
 */
struct tui_item {
	int64_t		 ts_ns;
	uint32_t	 pair;		/* the other half, or TI_NONE */
	uint32_t	 len;		/* len_urb, or an event's length */
	uint32_t	 ref;		/* URB: ids[]; event: evx[] */
	int16_t		 status;	/* status or result, clamped */
	uint16_t	 busnum;
	uint8_t		 devnum;
	uint8_t		 ep;
	uint8_t		 kind;
	uint8_t		 xfer;
} __attribute__((packed, aligned(4)));	/* 28, not 32 for ts_ns's sake */
_Static_assert(sizeof(struct tui_item) == 28, "tui_item grew");

/* What events need beyond the item (events are few next to URBs). */
struct tui_evx {
	uint64_t	 urb_id;
	uint32_t	 driver;	/* drivers[] index + 1, 0 = none */
	int32_t		 result;	/* the call's return value */
};

/*
 * Where the frame numbers jump: before item `item` the input skipped
 * packets it does not read (an Ethernet interface beside a USB one in a
 * pcapng), `skipped` of them in all since its start, the last at
 * last_ns.  Frame numbers and times count them, as Wireshark's do
 * (tui_model_frame); a file without them has no gaps.
 */
struct tui_gap {
	uint32_t	 item;
	uint64_t	 skipped;
	int64_t		 last_ns;
};

/* A decoded item, owned by whoever fetched it (valid until next fetch). */

/* The source record number of item i. */
static inline uint32_t
tui_recno(uint32_t i)
{
	return i + 1;
}

/* Fetch item recno (1-based in the source); NULL when unavailable. */
typedef const struct dec_rec *(*tui_fetch_fn)(void *arg, uint64_t recno);

#define TUI_FILTER_NODES	64
#define TUI_SEARCH_MAXBYTES	64	/* longest byte string searched */

/* What a search looks for (tui_model.skind). */
enum {
	TUI_SEARCH_TEXT = 0,	/* the line: columns and summary */
	TUI_SEARCH_BYTES,	/* a byte string in the payload or setup */
	TUI_SEARCH_FILTER,	/* the next item a filter expression passes */
};

#define TUI_HIST_MAX	64	/* positions the jump history keeps */

struct tui_model {
	struct tui_item	*item;
	size_t		 n, cap;
	/*
	 * By item: dec_xfer_fingerprint, for the transfers view's runs.
	 * Made when the view is first turned on, from the records fetched
	 * again, and kept up from then on: a timeline never looked at that
	 * way costs nothing.  A model without fetch keeps them from the
	 * start (it could not make them later).
	 */
	uint64_t	*fp;
	size_t		 fpcap;
	uint32_t	*vis;		/* items passing the filter */
	size_t		 nvis, viscap;
	uint32_t	*runs;		/* by vis: items the row stands for */
	size_t		 runcap;
	/*
	 * By vis: the polls a row of bus packets folds (an IN or PING token
	 * and its NAK each, the SOFs between them), 0 for another row; runs
	 * counts them all.  The transfers view folds bus packets as read
	 * --collapse does (dec_fold_role).
	 */
	uint32_t	*polls;
	size_t		 pollcap;
	int		 all;		/* no filter: vis[k] is k, not kept */
	int		 transfers;	/* hide the submits whose completion
					   is in: a transfer is one row, and
					   a run of identical ends too */
	size_t		 sel;		/* position in vis */
	size_t		 top;		/* first row shown */
	size_t		 rows;		/* rows of the list */
	int		 follow;	/* keep the newest item selected */
	size_t		 fpos;		/* items [0, fpos) are filtered */
	uint32_t	 fwant;		/* select it once filtered, TI_NONE */
	size_t		 fsync;		/* items set_filter does at once */

	uint64_t	*ids;		/* distinct URB ids */
	size_t		 nids, idcap;
	uint32_t	*idhash;	/* open addressing: ids[] index + 1 */
	size_t		 idhcap;
	struct tui_evx	*evx;
	size_t		 nevx, evxcap;
	char		**drivers;
	size_t		 ndrivers;

	struct tui_gap	*gap;		/* by item, ascending */
	size_t		 ngap, gapcap;

	uint64_t	 nurb;		/* URBs: submits, unpaired completions */
	uint64_t	 nevent;
	uint64_t	 nerror;	/* urb_failed records, rule breaks */
	int64_t		 t0;		/* the first good time stamp of a
					   frame (skipped or not), or
					   DEC_TS_BAD */

	struct dec_fmt	 fmt;		/* how summaries are written (ascii) */

	struct dec_filter filter;
	struct dec_fnode fnode[TUI_FILTER_NODES];
	char		 ftext[256];	/* the filter, "" = none */
	char		 search[128];	/* the last search */
	int		 skind;		/* TUI_SEARCH_* of it */
	int		 stext;		/* bytes given as 0x...: the text too */
	uint8_t		 sbytes[TUI_SEARCH_MAXBYTES];
	size_t		 snbytes;
	char		 serr[128];	/* why filter-like text is not one */
	char		 sdesc[160];	/* what tui_model_search_kind says */
	struct dec_filter sfilter;
	struct dec_fnode sfnode[TUI_FILTER_NODES];
	/* a filter on Wireshark's names: the record's tree (malloc) */
	struct dec_node	*tnodes;
	char		*tarena;
	int		 sdir;		/* a search runs: 1, -1; 0 = none */
	size_t		 sfrom;		/* the position it started from */
	size_t		 sdone;		/* positions tried */

	/* where jumps went, oldest first: hist[hpos] is where the last
	 * jump or step on the history went (tui_model_hist_*) */
	uint32_t	 hist[TUI_HIST_MAX];
	size_t		 nhist;
	size_t		 hpos;
	uint32_t	 tref;		/* the time reference, TI_NONE */

	tui_fetch_fn	 fetch;
	tui_fetch_fn	 scan;		/* for searches, NULL = fetch */
	void		*fetch_arg;
	struct tui_corr	*corr;		/* fed every event; NULL = none */
};

/* The item shown at position k of the view (k < nvis). */
static inline uint32_t
tui_model_vis(const struct tui_model *m, size_t k)
{
	return m->all ? (uint32_t)k : m->vis[k];
}

/*
 * Row k's text when it is a run of bus packets folded (as read --collapse
 * writes it: "IN 5.2 polled 4 times, NAKed, 3 SOFs between", "3 SOFs
 * 1000-1002"); 0 for another row, -1 when a record cannot be fetched.
 */
int		 tui_model_fold_text(struct tui_model *m, size_t k,
		     struct sbuf *b);

/* The items row k stands for: more than 1 for a run folded. */
static inline uint32_t
tui_model_run(const struct tui_model *m, size_t k)
{
	return m->all ? 1 : m->runs[k];
}

void		 tui_model_init(struct tui_model *m, tui_fetch_fn fetch,
		     void *arg);
void		 tui_model_free(struct tui_model *m);
/*
 * Append the source's next record (its recno must be n + 1) to the
 * timeline.  0, -UE_RANGE for any other record, or -UE_NOMEM.
 */
int		 tui_model_add_urb(struct tui_model *m,
		     const struct urb_rec *r, const struct dec_info *info);
int		 tui_model_add_event(struct tui_model *m,
		     const struct drv_event *ev);
/*
 * Before the next record: the input skipped packets just before it
 * (cap_source.gap), `skipped` in all since its start, the first and the
 * last at first_ns and last_ns.  0 or -UE_NOMEM.
 */
int		 tui_model_skipped(struct tui_model *m, uint64_t skipped,
		     int64_t first_ns, int64_t last_ns);
/* The frame number of item i (frame.number, the No. column): its record
 * number plus the packets skipped before it. */
uint64_t	 tui_model_frame(const struct tui_model *m, uint32_t i);
/* The same for printf's %llu. */
#define TUI_FRAME(m, i)	((unsigned long long)tui_model_frame((m), (i)))
/* The first item whose frame number is frame or more, or TI_NONE. */
uint32_t	 tui_model_frame_item(const struct tui_model *m,
		     uint64_t frame);
/* The time of the frame before item i, skipped or not (frame.time_delta
 * counts from it); item i's own for the first frame. */
int64_t		 tui_model_prev_ns(const struct tui_model *m, uint32_t i);
/* The DRV_SUBMIT event of the driver call that submitted URB item i (its
 * 'S', or the 'S' paired with a 'C'/'E'), or TI_NONE. */
uint32_t	 tui_model_submitter(const struct tui_model *m, uint32_t i);
/* Bytes the index uses (items, fingerprints, ids, events, view), for
 * the status bar. */
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
 * Select the other half of the selected URB (a jump: see
 * tui_model_hist_push).  0, or -1 when it has none, -2 when the filter
 * hides it.
 */
int		 tui_model_pair(struct tui_model *m);
/* Select item i if visible; 0 or -1. */
int		 tui_model_select_item(struct tui_model *m, uint32_t i);
/*
 * Select the shown item nearest to item i (the later one of two as
 * near; the row of its run when i is folded into one): 0 when that is
 * i, 1 when the filter or a run hides i, -1 when nothing is shown.
 */
int		 tui_model_select_near(struct tui_model *m, uint32_t i);
/*
 * Go to the record of frame number frame (a jump), or the shown record
 * nearest to it: 0, 1 when the filter hides it, 3 when the frame is a
 * packet the input skipped (the nearest shown after it is selected), 2
 * when a filter still running has not come to it (the selection goes to
 * the first shown from it on when it does; no jump is remembered), -1
 * when there is no such frame (0, or past the last indexed), -2 when
 * nothing is shown.
 */
int		 tui_model_goto(struct tui_model *m, uint64_t frame);

/*
 * The jump history, as a browser's: after a jump from item from (the
 * selection before it), remember from and the selection now, dropping
 * the positions ahead (those forward would go to).  Nothing when the
 * selection did not move.  The oldest positions go past TUI_HIST_MAX.
 */
void		 tui_model_hist_push(struct tui_model *m, uint32_t from);
/*
 * Go back (dir -1) or forward (1) on the history; the position left is
 * remembered, so the other way returns to it.  0, 1 when the filter
 * hides the position and the nearest shown is selected, -1 when the
 * history has nothing that way, -2 when nothing is shown.
 */
int		 tui_model_hist_go(struct tui_model *m, int dir);

/*
 * Make the selected item the time reference (the time column counts
 * from it), or clear the reference when it is that item: 1 set, 0
 * cleared, -1 when nothing is selected, -2 when its time stamp is bad.
 */
int		 tui_model_time_ref(struct tui_model *m);

/* Select row k of the list (0 = the top one shown); 0 or -1. */
int		 tui_model_select_row(struct tui_model *m, size_t k);

/*
 * Replace the filter.  On a syntax error the old one stays and -UE_SYNTAX
 * is returned with m->filter.err/col set to the problem.  The selection
 * stays on the same item if it passes, else on the next that does.  The
 * first m->fsync items are filtered at once, the rest by
 * tui_model_filter_step; items added meanwhile wait their turn.
 */
int		 tui_model_set_filter(struct tui_model *m, const char *expr);
/*
 * The transfers view on (1) or off: a submit whose completion (or error)
 * is in the timeline is hidden, the completion's row standing for the
 * URB; a submit still waiting stays until its completion comes.  A run
 * of rows one after the other (among those the filter shows) that are
 * identical ends on one endpoint (status, length, fingerprint) is its
 * first row, tui_model_run counting the run; the others are hidden as
 * the filter hides.  The view is filtered again as tui_model_set_filter
 * does.  0 or -UE_NOMEM.
 */
int		 tui_model_set_transfers(struct tui_model *m, int on);
/* Filter up to max more items; 1 while items remain, 0 when done. */
int		 tui_model_filter_step(struct tui_model *m, size_t max);

/*
 * The text of an item as search sees it and the list shows it after the
 * columns: the summary of a URB (dec_fmt_summary) or the event's text.
 * Appends to b; returns -1 when the record cannot be fetched.
 */
int		 tui_model_summary(struct tui_model *m, uint32_t i,
		     struct sbuf *b);
/* The columns of the list for item i, as text. */
struct tui_cols {
	char		 no[24];	/* frame number */
	char		 time[20];	/* seconds since the first item or
					 * the time reference ("*REF*") */
	char		 addr[16];	/* bus.dev.ep */
	char		 dir[4];	/* in, out */
	char		 ev[4];		/* S C E, or "drv" */
	char		 type[8];	/* ctrl bulk int iso, event */
	char		 status[16];	/* ok, -EPIPE, a result */
	char		 len[12];
	char		 lat[DEC_LATENCY_MAX]; /* completions: "0.213 ms" */
};
void		 tui_model_cols(const struct tui_model *m, uint32_t i,
		     struct tui_cols *c);
/* The whole line search matches: columns and summary. */
int		 tui_model_line(struct tui_model *m, uint32_t i,
		     struct sbuf *b);
/*
 * Is text a byte string: two or more hex groups of even length separated
 * by spaces ("55 53 42 43", "5553 4243") or pairs separated by colons
 * ("55:53:42:43"); "x:" and any hex ("x:55534243", "x:55"); or "0x" and
 * an unbroken run of two bytes or more ("0x55534243"), which may also be
 * a number in the text (*also_text set).  Fills bytes (at most
 * TUI_SEARCH_MAXBYTES) and returns 1, else 0.
 */
int		 tui_search_hex(const char *text, uint8_t *bytes,
		     size_t *nbytes, int *also_text);
/*
 * Search (NULL = the last search, with its kind) from the selection
 * forward (dir 1) or backward (dir -1), wrapping.  Byte strings as
 * tui_search_hex says find records whose payload or setup holds them;
 * text that compiles as a filter expression finds the next item it
 * passes (from the index: nothing is re-read); anything else is text,
 * case-insensitive unless it has a capital.  Text with a filter operator
 * (= < > & |) that does not compile is searched as text, with the
 * compiler's error in m->serr.  Selects and returns 0, or -1 when nothing
 * matches.
 */
int		 tui_model_search(struct tui_model *m, const char *text,
		     int dir);
/*
 * The same in steps, for big views: start (-1 when there is nothing to
 * search), then try up to max more positions a step: 1 while positions
 * remain, 0 found (selected), -1 not found.  m->sdir is 0 when no search
 * runs; a new filter stops one.
 */
int		 tui_model_search_start(struct tui_model *m,
		     const char *text, int dir);
int		 tui_model_search_step(struct tui_model *m, size_t max);
/* The kind of the last search, for messages: "text", "bytes", "bytes or
 * text", "filter", or "text, not a filter: col 6: ..." with m->serr. */
const char	*tui_model_search_kind(struct tui_model *m);

/*
 * The records the view stands for, in order: what the filter passes.  The
 * transfers view hides submits and folds runs into rows, but a row stands
 * for all of its records, so those count too.  Start *k at 0; 1 with the
 * next item in *i, 0 at the end.  Call after the filter is through
 * (tui_model_filter_step).
 */
int		 tui_model_record_next(struct tui_model *m, size_t *k,
		     uint32_t *i);

/*
 * Write the records the view stands for (tui_model_record_next, the whole
 * index filtered first), URB records and driver events, to path through a capture sink: the format
 * by its extension, else pcapng; the link type the first record came in.
 * *nsaved and *ndropped (what the format cannot hold: events in a pcap)
 * count items.  0, or a negative error with the message in err (a file
 * cut by a failed write is removed).  tui/tui-save.c.
 */
int		 tui_model_save(struct tui_model *m, const char *path,
		     uint64_t *nsaved, uint64_t *ndropped, char *err,
		     size_t errlen);

/* ------------------------------------------------------------------------
 * The record store (tui/tui-store.c).
 */
struct tui_store;

/*
 * Open name and start reading it (errors such as a missing file come
 * here, with the message in err).  A live source is spooled to a
 * temporary file (removed by tui_store_free) that replays read.
 */
int		 tui_store_open(const char *name, struct tui_store **out,
		     char *err, size_t errlen);
/*
 * The same; a live usbmon source with drivers set has the USB core
 * traced with eBPF as `capture --drivers` has it (cap_bpf_open), or when
 * that cannot be, usbmon alone with why saying in one line why not
 * (why[0] is '\0' otherwise).
 */
int		 tui_store_open_traced(const char *name, int drivers,
		     struct tui_store **out, char *why, size_t whylen,
		     char *err, size_t errlen);
/*
 * Make a sim: source paced in real time (a live source) before the first
 * tui_store_index.  0 when paced, 1 when the input is not a simulation,
 * or a negative error (the spool) with the message in err.
 */
int		 tui_store_pace(struct tui_store *st, char *err,
		     size_t errlen);
void		 tui_store_free(struct tui_store *st);

/* What tui_store_index returns besides errors. */
enum {
	TUI_LOAD_DONE = 0,	/* the input is indexed to its end */
	TUI_LOAD_MORE = 1,	/* the budget ran out: call again soon */
	TUI_LOAD_AGAIN = 2,	/* a live source has nothing new yet */
};
/*
 * Index the input into m for about budget_ns (at least 256 items, at most
 * max if not 0): TUI_LOAD_*, or a negative error with the message in err
 * (what was read before stays in m, and later calls return
 * TUI_LOAD_DONE).
 */
int		 tui_store_index(struct tui_store *st, struct tui_model *m,
		     int64_t budget_ns, size_t max, char *err, size_t errlen);
/*
 * Index the whole input, calling progress(arg, count) every 4096 items.
 * Returns 0, or a negative error with the message in err.
 */
int		 tui_store_load(struct tui_store *st, struct tui_model *m,
		     void (*progress)(void *, uint64_t), void *arg,
		     char *err, size_t errlen);
/*
 * Bytes of the input indexed so far and its size (0 when unknown: not a
 * regular file); returns 1 while indexing goes on, 0 at the end.
 */
int		 tui_store_progress(const struct tui_store *st,
		     uint64_t *done, uint64_t *total);
/* The input is live (usbmon, a paced simulation); its health. */
int		 tui_store_live(const struct tui_store *st);
void		 tui_store_stats(const struct tui_store *st,
		     struct cap_stats *cs);
/*
 * A tui_fetch_fn over the store (arg is the store), and one with a cursor
 * of its own for searches that run on while the screen is redrawn.
 */
const struct dec_rec *tui_store_fetch(void *arg, uint64_t recno);
const struct dec_rec *tui_store_scan(void *arg, uint64_t recno);
/* The device state as far as the input is indexed (the end, after it). */
const struct dec_ctx *tui_store_ctx(const struct tui_store *st);
/* Bytes the window of decoded records holds; replays done so far; the
 * records those replays read (from a checkpoint, not from record 1). */
size_t		 tui_store_bytes(const struct tui_store *st);
uint64_t	 tui_store_replays(const struct tui_store *st);
uint64_t	 tui_store_replayed(const struct tui_store *st);


#endif /* TUI_MODEL_H */
