/*
 * tui/tui-details.c - the details pane: the selected record's decoded tree
 * (what `read -V` prints, from dec_record_tree) or a driver event's
 * fields, one node a line, indented by depth; then what the driver events
 * correlate with it (tui-correlate.h): for a driver event, the call it
 * happened in with every event of that call and the URB records of each
 * submit (a probe's register_dev, set_intfdata and submits; a write()'s
 * submits; a completion handler's resubmit); for a URB, the driver call
 * that submitted it and the completion handler that got it back.
 *
 * The pane has a cursor; a line that names another record carries its
 * item after a 0x1f byte, and Enter on it selects that record.  The
 * tree folds (tui-fold.c): a node with children shows an open or closed
 * marker, Left/Right (h/l, -/+) close and open it, Space and Enter
 * (on a line naming no record) toggle it.  The folds last while the
 * record stays selected, and are kept for the next record of its kind
 * (transfer type, and submit or completion): fold the setup of one
 * control transfer and the next opens with its setup folded.
 * The hex pane highlights the bytes of the cursor's node.
 */
#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui-correlate.h"
#include "tui-view.h"

#define TARGET_SEP	'\x1f'
#define CALL_MAX	64		/* events of a call listed */
#define URB_WINDOW	64		/* items between an event and its URB */

/* End the line: a jump target when item is not TI_NONE. */
static void
line_end(struct sbuf *b, uint32_t item)
{
	if (item != TI_NONE)
		sb_printf(b, "%c%u", TARGET_SEP, item);
	sb_putc(b, '\n');
}

/* The fields whose value is a frame number: Enter on them goes there. */
static const char *const frame_refs[] = {
	"usb.request_in", "usb.response_in", "scsi.request_frame",
	"scsi.response_frame", "uasp.tag_started_frame", NULL
};

/* The item node n names when it is a frame reference, else TI_NONE. */
static uint32_t
node_target(const struct tui_model *m, const struct dec_node *n)
{
	uint32_t i;
	size_t	 k;

	if (n->f == NULL || n->f->abbrev == NULL || n->value == 0)
		return TI_NONE;
	for (k = 0; frame_refs[k] != NULL; k++)
		if (strcmp(n->f->abbrev, frame_refs[k]) == 0)
			break;
	if (frame_refs[k] == NULL ||
	    (i = tui_model_frame_item(m, n->value)) == TI_NONE ||
	    tui_model_frame(m, i) != n->value)
		return TI_NONE;
	return i;
}

static void
node_line(const struct tui_model *m, const struct urb_rec *r,
    const struct dec_node *n, struct sbuf *b)
{
	const uint8_t *p;
	char	 tmp[256];
	uint32_t i;
	int	 k;

	for (k = 0; k < n->depth; k++)
		sb_puts(b, "  ");
	if (n->f == NULL || n->f->kind == DK_LABEL)
		sb_puts(b, n->str != NULL ? n->str : n->f != NULL ?
		    n->f->name : "");
	else {
		sb_puts(b, n->f->name);
		sb_puts(b, ": ");
		p = n->f->kind == DK_BYTES ? dec_node_bytes(r, n) : NULL;
		if (n->f->kind == DK_BYTES && (n->len > 16 || p == NULL))
			sb_printf(b, "%u bytes", n->len);
		else if (n->f->kind == DK_BYTES)
			for (i = 0; i < n->len; i++)
				sb_hex(b, p[i], 2);
		else
			sb_puts(b, dec_node_value(n, tmp, sizeof tmp));
	}
	if (n->note != NULL)
		sb_printf(b, n->flags & (DN_BAD | DN_CUT) ? " [%s]" : " (%s)",
		    n->note);
	line_end(b, node_target(m, n));
}

static void
event_lines(const struct drv_event *ev, struct sbuf *b)
{
	const char *k = dec_drv_kind_name((int)ev->kind);
	struct dec_fmt f;

	if (ev->kind == DRV_BUS) {
		/* a sniffer's: its message and what it says, as read -V */
		dec_fmt_start(&f, ev->ts_ns);
		dec_fmt_event_verbose(&f, ev, b);
		return;
	}
	sb_printf(b, "Driver event: %s\n", k != NULL ? k : "unknown");
	sb_printf(b, "  Bus: %u\n  Device: %u\n", ev->busnum, ev->devnum);
	if (ev->intf >= 0)
		sb_printf(b, "  Interface: %d\n", ev->intf);
	if (ev->driver != NULL)
		sb_printf(b, "  Driver: %s\n", ev->driver);
	if (ev->func != NULL)
		sb_printf(b, "  Function: %s\n", ev->func);
	sb_printf(b, "  Result: %d\n", ev->result);
	if (ev->urb_id != 0)
		sb_printf(b, "  URB id: 0x%016llx\n",
		    (unsigned long long)ev->urb_id);
	if (ev->ep != 0 || ev->length != 0)
		sb_printf(b, "  Endpoint: 0x%02x\n  Length: %u\n", ev->ep,
		    ev->length);
	if (ev->kind == DRV_SUBMIT)
		sb_printf(b, "  mem_flags: 0x%x\n  Context: %u\n",
		    ev->mem_flags, ev->context);
	if (ev->minor >= 0 && ev->kind == DRV_REGISTER_DEV)
		sb_printf(b, "  Minor: %d\n", ev->minor);
	if (ev->ptr != 0)
		sb_printf(b, "  Pointer: 0x%llx\n",
		    (unsigned long long)ev->ptr);
	if (ev->rule != NULL)
		sb_printf(b, "  Rule: %s\n", ev->rule);
	if (ev->text != NULL)
		sb_printf(b, "  %s\n", ev->text);
}

/* The 'S' of the URB a DRV_SUBMIT event at item i reported (the core
 * reports the submit just before the hooks record the 'S'), or TI_NONE. */
static uint32_t
submit_record(const struct tui_model *m, uint32_t i)
{
	uint64_t id = tui_model_urb_id(m, i);
	uint32_t j, end;

	if (id == 0)
		return TI_NONE;
	end = m->n - i > URB_WINDOW ? i + URB_WINDOW : (uint32_t)m->n;
	for (j = i + 1; j < end; j++) {
		if (m->item[j].kind == 'S' && tui_model_urb_id(m, j) == id)
			return tui_model_submitter(m, j) == i ? j : TI_NONE;
		if (m->item[j].kind == (TI_EVENT | DRV_SUBMIT) &&
		    tui_model_urb_id(m, j) == id)
			break;
	}
	return TI_NONE;
}

/* The completion ('C' or 'E') a DRV_GIVEBACK at item i reports (the
 * hooks record it just before the core's giveback), or TI_NONE. */
static uint32_t
giveback_record(const struct tui_model *m, uint32_t i)
{
	uint64_t id = tui_model_urb_id(m, i);
	uint32_t j, stop = i > URB_WINDOW ? i - URB_WINDOW : 0;

	for (j = i; id != 0 && j-- > stop;)
		if ((m->item[j].kind == 'C' || m->item[j].kind == 'E') &&
		    tui_model_urb_id(m, j) == id)
			return j;
	return TI_NONE;
}

/* The DRV_GIVEBACK event after completion item c, or TI_NONE. */
static uint32_t
giveback_event(const struct tui_model *m, uint32_t c)
{
	uint64_t id = tui_model_urb_id(m, c);
	uint32_t j, end;

	end = m->n - c > URB_WINDOW ? c + URB_WINDOW : (uint32_t)m->n;
	for (j = c + 1; id != 0 && j < end; j++) {
		if (m->item[j].kind == (TI_EVENT | DRV_GIVEBACK) &&
		    tui_model_urb_id(m, j) == id)
			return j;
		if (m->item[j].kind == 'S' && tui_model_urb_id(m, j) == id)
			break;
	}
	return TI_NONE;
}

/* "S #340, C #345 ok 5 bytes, 0.125 ms" of the URB submitted at item i. */
static void
urb_records(const struct tui_model *m, uint32_t i, const char *ind,
    struct sbuf *b)
{
	struct tui_cols c;
	uint32_t sj, cj;

	if ((sj = submit_record(m, i)) == TI_NONE)
		return;
	sb_printf(b, "%s  URB S record %llu", ind, TUI_FRAME(m, sj));
	line_end(b, sj);
	if ((cj = m->item[sj].pair) == TI_NONE) {
		sb_printf(b, "%s  (no completion in the capture)", ind);
		line_end(b, TI_NONE);
		return;
	}
	tui_model_cols(m, cj, &c);
	sb_printf(b, "%s  URB %s record %llu: %s, %s bytes%s%s", ind,
	    m->item[cj].kind == 'E' ? "E" : "C", TUI_FRAME(m, cj), c.status,
	    c.len, c.lat[0] ? ", " : "", c.lat);
	line_end(b, cj);
}

/* The name of a call: "skeleton probe()". */
static void
call_name(const struct tui_corr_call *k, struct sbuf *b)
{
	if (strcmp(k->func, "complete") == 0)
		sb_printf(b, "the completion handler of %s", k->driver);
	else
		sb_printf(b, "%s %s()", k->driver, k->func);
}

/* Every event of the call event item i is in, each submit with its URB
 * records. */
static void
call_lines(struct tui_model *m, uint32_t i, struct sbuf *b)
{
	struct tui_corr_call k;
	struct sbuf	 t = { 0 };
	uint32_t	*items;
	size_t		 n, j, mark, skip;

	if (tui_corr_call_of(m->corr, i, &k) != 0 ||
	    (items = calloc(CALL_MAX, sizeof *items)) == NULL)
		return;
	n = tui_corr_call_items(m->corr, i, items, CALL_MAX);
	line_end(b, TI_NONE);
	if (n == 1 && items[0] == i) {
		if (k.anchor == i && strcmp(k.func, "complete") == 0)
			sb_puts(b, "Its completion handler raised no event "
			    "(no resubmit)");
		else {
			sb_puts(b, "Nothing else happened inside ");
			call_name(&k, b);
		}
		line_end(b, TI_NONE);
		free(items);
		return;
	}
	if (k.anchor == i && strcmp(k.func, "complete") == 0)
		sb_puts(b, "What its completion handler did");
	else if (k.anchor == i)
		sb_puts(b, "What happened inside the call");
	else {
		sb_puts(b, "Inside ");
		call_name(&k, b);
	}
	sb_printf(b, " (%zu event%s):", n, n == 1 ? "" : "s");
	line_end(b, TI_NONE);
	for (j = 0; j < n && j < CALL_MAX; j++) {
		mark = b->len;
		t.len = 0;
		if (tui_model_summary(m, items[j], &t) != 0)
			sb_puts(&t, "(cannot be read again)");
		/* the call's name is said once, above */
		sb_printf(b, "%s %s() ", k.driver, k.func);
		skip = t.len >= b->len - mark &&
		    memcmp(t.s, b->s + mark, b->len - mark) == 0 ?
		    b->len - mark : 0;
		b->len = mark;
		sb_printf(b, "%c record %llu: %.*s", items[j] == i ? '*' : ' ',
		    TUI_FRAME(m, items[j]), (int)(t.len - skip), t.s != NULL ?
		    t.s + skip : "");
		line_end(b, items[j]);
		if (m->item[items[j]].kind == (TI_EVENT | DRV_SUBMIT) &&
		    items[j] != i)
			urb_records(m, items[j], "   ", b);
	}
	if (n > CALL_MAX) {
		sb_printf(b, "  ... %zu more", n - CALL_MAX);
		line_end(b, TI_NONE);
	}
	sb_free(&t);
	free(items);
}

/* A URB record: the giveback of its completion and what the handler
 * did with it (resubmitted it, submitted others). */
static void
completion_lines(struct tui_model *m, uint32_t i, struct sbuf *b)
{
	uint32_t c = m->item[i].kind == 'S' ? m->item[i].pair : i, g;

	if (c == TI_NONE || (m->item[c].kind != 'C' &&
	    m->item[c].kind != 'E') ||
	    (g = giveback_event(m, c)) == TI_NONE)
		return;
	line_end(b, TI_NONE);
	sb_printf(b, "Given back to its driver at record %llu",
	    TUI_FRAME(m, g));
	line_end(b, g);
	call_lines(m, g, b);
}

/* The node of the interface event i is about and every file operation
 * the driver did on it. */
static void
node_lines(struct tui_model *m, uint32_t i, const struct drv_event *ev,
    struct sbuf *b)
{
	const struct tui_corr_intf *ci;
	struct tui_corr_call k;
	size_t	 j;
	int	 intf = ev->intf;

	if (intf < 0 || (ci = tui_corr_find_intf(tui_corr_find_dev(m->corr,
	    ev->busnum, ev->devnum), intf)) == NULL || ci->nnodeops == 0)
		return;
	line_end(b, TI_NONE);
	sb_printf(b, "File operations on %s (minor %d) of interface %d:",
	    ci->node != NULL ? ci->node : "its node", ci->minor, intf);
	line_end(b, TI_NONE);
	for (j = 0; j < ci->nnodeops && j < CALL_MAX; j++) {
		if (tui_corr_call_of(m->corr, ci->nodeops[j], &k) != 0)
			continue;
		sb_printf(b, "%c record %llu: %s() (%zu event%s)",
		    k.first <= i && i <= k.last ? '*' : ' ',
		    TUI_FRAME(m, ci->nodeops[j]),
		    k.func, k.n, k.n == 1 ? "" : "s");
		line_end(b, ci->nodeops[j]);
	}
	if (ci->nnodeops > CALL_MAX) {
		sb_printf(b, "  ... %zu more", ci->nnodeops - CALL_MAX);
		line_end(b, TI_NONE);
	}
}

/* What the correlation says of driver event i. */
static void
event_correlation(struct tui_model *m, uint32_t i, const struct drv_event *ev,
    struct sbuf *b)
{
	struct tui_corr_call k;
	uint32_t cj, sj, sub;

	switch (m->item[i].kind & ~TI_EVENT) {
	case DRV_SUBMIT:
		if (submit_record(m, i) != TI_NONE) {
			line_end(b, TI_NONE);
			sb_puts(b, "Its URB:");
			line_end(b, TI_NONE);
			urb_records(m, i, "", b);
		}
		break;
	case DRV_GIVEBACK:
		if ((cj = giveback_record(m, i)) == TI_NONE)
			break;
		line_end(b, TI_NONE);
		sb_printf(b, "Gives back %s record %llu",
		    m->item[cj].kind == 'E' ? "E" : "C", TUI_FRAME(m, cj));
		line_end(b, cj);
		if ((sj = m->item[cj].pair) != TI_NONE && sj < cj) {
			sb_printf(b, "  of the URB submitted at S record %llu",
			    TUI_FRAME(m, sj));
			line_end(b, sj);
			if ((sub = tui_model_submitter(m, sj)) != TI_NONE) {
				sb_printf(b, "  by record %llu",
				    TUI_FRAME(m, sub));
				if (tui_corr_call_of(m->corr, sub, &k) == 0) {
					sb_puts(b, " in ");
					call_name(&k, b);
				}
				line_end(b, sub);
			}
		}
		break;
	case DRV_OPEN:
	case DRV_RELEASE:
	case DRV_REGISTER_DEV:
	case DRV_DEREGISTER_DEV:
		node_lines(m, i, ev, b);
		break;
	}
	call_lines(m, i, b);
}

void
tui_details_update(struct tui_screen *s)
{
	struct tui_model *m = s->m;
	const struct dec_rec *rec, *sub;
	struct dec_tree	 t;
	struct dec_fmt	 f = { .time_mode = DT_RELATIVE };
	struct sbuf	 line = { 0 };
	uint32_t	 i = tui_model_selected(m), si;
	const char	*p;
	size_t		 k;

	if (i == s->det_item)
		return;
	/* the tree in s->nodes is still the old record's */
	tui_fold_save(&s->det_keep, s->det_kind, &s->det_fold);
	s->det_kind[0] = '\0';
	s->det_item = i;
	s->det_cur = 0;
	s->det.len = 0;
	if (s->det.s != NULL)
		s->det.s[0] = '\0';	/* the text drawn when nothing is */
	s->det_top = s->hex_top = 0;
	s->hex_seen = SIZE_MAX;
	s->hex_setup = s->hex_p = NULL;
	s->hex_n = 0;
	memset(&s->det_fold, 0, sizeof s->det_fold);
	s->det_fold.node = s->nodes;
	s->det_fold.folded = s->det_folded;
	if (i == TI_NONE)
		goto count;
	if ((rec = m->fetch(m->fetch_arg, tui_recno(i))) == NULL ||
	    dec_rec_copy(&s->det_rec, rec->kind, rec->kind == CAP_URB ?
	    &rec->r : NULL, &rec->info, &rec->ev) != 0) {
		sb_puts(&s->det, "(this record cannot be read again)\n");
		goto count;
	}
	rec = &s->det_rec;
	if (rec->kind == CAP_EVENT) {
		event_lines(&rec->ev, &s->det);
		event_correlation(m, i, &rec->ev, &s->det);
		goto count;
	}
	sb_printf(&s->det, "Record %llu", TUI_FRAME(m, i));
	if (!(rec->r.flags & REC_F_NOOFFSET))
		sb_printf(&s->det, " at offset %llu",
		    (unsigned long long)rec->r.offset);
	sb_putc(&s->det, '\n');
	/* The driver call behind the URB (its copy in det_rec stays). */
	if ((si = tui_model_submitter(m, i)) != TI_NONE &&
	    (sub = m->fetch(m->fetch_arg, tui_recno(si))) != NULL &&
	    sub->kind == CAP_EVENT) {
		dec_fmt_start(&f, sub->ev.ts_ns);
		dec_fmt_event_line(&f, &sub->ev, &line);
		/* keep the summary: what follows the "drv" column */
		p = line.s != NULL ? strstr(line.s, " drv ") : NULL;
		for (p = p != NULL ? p + 5 : line.s; p != NULL && *p == ' ';
		    p++)
			;
		sb_printf(&s->det, "Submitted by (record %llu): %.*s",
		    TUI_FRAME(m, si), p != NULL ? (int)strcspn(p, "\n") : 0,
		    p != NULL ? p : "");
		line_end(&s->det, si);
		sb_free(&line);
	}
	dec_tree_init(&t, s->nodes, TUI_TREE_NODES, s->arena,
	    TUI_TREE_ARENA);
	dec_record_tree(&rec->r, &rec->info, &t);
	for (k = 0; k < s->det.len; k++)
		if (s->det.s[k] == '\n')
			s->det_fold.first++;
	s->det_fold.n = t.n;
	memset(s->det_folded, 0, sizeof s->det_folded);
	snprintf(s->det_kind, sizeof s->det_kind, "%u %c", m->item[i].xfer,
	    m->item[i].kind);
	tui_fold_load(&s->det_keep, s->det_kind, &s->det_fold);
	for (k = 0; k < t.n; k++)
		node_line(m, &rec->r, &t.node[k], &s->det);
	if (t.overflow)
		sb_puts(&s->det, "[decode tree cut: too many fields]\n");
	/* where the submit's completion is (Wireshark's usb.response_in,
	 * which one pass over the records cannot know) */
	if (m->item[i].kind == 'S' && (si = m->item[i].pair) != TI_NONE) {
		sb_printf(&s->det, "Response in: %llu", TUI_FRAME(m, si));
		line_end(&s->det, si);
	}
	completion_lines(m, i, &s->det);
	s->hex_buf = DB_DATA;
	if (rec->r.origin == URB_ORIGIN_USBLL && rec->r.ll.raw_len > 0) {
		/* the packet as on the wire (a transfer's data, put
		 * together, is in the tree) */
		s->hex_p = rec->r.ll.raw;
		s->hex_n = rec->r.ll.raw_len;
		s->hex_buf = DB_RAW;
	} else if (rec->r.data_len > 0) {
		s->hex_p = rec->r.data;
		s->hex_n = rec->r.data_len;
	}
	if (rec->r.flag_setup == 0 && rec->r.xfer_type == XFER_CTRL)
		s->hex_setup = rec->r.setup;
count:
	s->det_fold.lines = 0;
	for (k = 0; k < s->det.len; k++)
		if (s->det.s[k] == '\n')
			s->det_fold.lines++;
	s->det_lines = tui_fold_count(&s->det_fold);
}

/*
 * Line ln of the text into buf for the screen: the cursor mark, then
 * for a node of the tree its indent, its fold marker (open, closed, or
 * a blank for a leaf) and the rest; a line ends at its jump target.
 */
static void
screen_line(struct tui_screen *s, const struct tui_fold *f, size_t ln,
    const char *p, size_t n, int cur, char *buf, size_t size)
{
	const char *mark = " ";
	size_t	 k, ind = 0;

	if (f != NULL && ln >= f->first && ln < f->first + f->n) {
		k = ln - f->first;
		ind = (size_t)f->node[k].depth * 2;
		if (ind > n)
			ind = n;
		if (tui_fold_kids(f, k) && f->folded[k])
			mark = s->utf8 ? "\xe2\x96\xb8" : "+";	/* U+25B8 */
		else if (tui_fold_kids(f, k))
			mark = s->utf8 ? "\xe2\x96\xbe" : "-";	/* U+25BE */
		snprintf(buf, size, "%c%.*s%s %.*s", cur ? '>' : ' ',
		    (int)ind, p, mark, (int)(n - ind), p + ind);
		return;
	}
	snprintf(buf, size, "%c%.*s", cur ? '>' : ' ', (int)n, p);
}

/* The lines of text from visible line top into r, the cursor line
 * (cur, or SIZE_MAX for none) marked; f folds the tree, NULL for text
 * with no tree. */
static void
draw_lines(struct tui_screen *s, const struct tui_rect *r, const char *text,
    const struct tui_fold *f, size_t top, size_t cur)
{
	const char *p, *e, *sep;
	char	 line[512];
	size_t	 ln = 0, want, v = top;
	int	 y = 0;

	want = f != NULL ? tui_fold_line(f, top) : top;
	for (p = text; p != NULL && *p != '\0' && y < r->h; p = e + 1) {
		if ((e = strchr(p, '\n')) == NULL)
			break;
		if (ln++ != want)
			continue;
		want = f != NULL ? tui_fold_next(f, ln - 1) : ln;
		if ((sep = memchr(p, TARGET_SEP, (size_t)(e - p))) == NULL)
			sep = e;
		screen_line(s, f, ln - 1, p, (size_t)(sep - p), v == cur,
		    line, sizeof line);
		tui_clear(r->y + y, r->x, r->w);
		if (v == cur)
			attron(A_REVERSE);
		tui_put(s, r->y + y, r->x, line, r->w);
		if (v == cur)
			attroff(A_REVERSE);
		v++;
		y++;
	}
	for (; y < r->h; y++)
		tui_clear(r->y + y, r->x, r->w);
}

static void
details_draw(struct tui_screen *s, const struct tui_rect *r)
{
	tui_details_update(s);
	if (s->det_lines > 0 && s->det_cur >= s->det_lines)
		s->det_cur = s->det_lines - 1;
	if (s->det_cur < s->det_top)
		s->det_top = s->det_cur;
	if (r->h > 0 && s->det_cur >= s->det_top + (size_t)r->h)
		s->det_top = s->det_cur - (size_t)r->h + 1;
	draw_lines(s, r, s->det.s, &s->det_fold, s->det_top, s->focus == 1 ?
	    s->det_cur : SIZE_MAX);
}

int
tui_scroll_key(size_t *top, size_t lines, int page, int key)
{
	size_t	 step = 1;

	switch (key) {
	case KEY_NPAGE:
	case ' ':
		step = page > 1 ? (size_t)page - 1 : 1;
		/* FALLTHROUGH */
	case KEY_DOWN:
	case 'j':
		*top = *top + step < lines ? *top + step : lines ? lines - 1 :
		    0;
		return 1;
	case KEY_PPAGE:
		step = page > 1 ? (size_t)page - 1 : 1;
		/* FALLTHROUGH */
	case KEY_UP:
	case 'k':
		*top = *top > step ? *top - step : 0;
		return 1;
	case KEY_HOME:
	case 'g':
		*top = 0;
		return 1;
	case KEY_END:
	case 'G':
		*top = lines ? lines - 1 : 0;
		return 1;
	}
	return 0;
}

/* The jump target of line k of the details, or TI_NONE. */
static uint32_t
line_target(const struct tui_screen *s, size_t k)
{
	const char *p = s->det.s, *e, *sep;

	for (; p != NULL && k > 0; k--)
		if ((p = strchr(p, '\n')) != NULL)
			p++;
	if (p == NULL || (e = strchr(p, '\n')) == NULL ||
	    (sep = memchr(p, TARGET_SEP, (size_t)(e - p))) == NULL)
		return TI_NONE;
	return (uint32_t)strtoul(sep + 1, NULL, 10);
}

/* Fold (how 0), unfold (1) or toggle (-1) the cursor's node; 1 if it
 * has children. */
static int
details_fold(struct tui_screen *s, int how)
{
	size_t	 k = tui_fold_node(&s->det_fold, s->det_cur);

	if (k == SIZE_MAX || !tui_fold_kids(&s->det_fold, k))
		return 0;
	if (tui_fold_set(&s->det_fold, s->det_cur, how))
		s->det_lines = tui_fold_count(&s->det_fold);
	return 1;
}

/* Select the record the cursor's line names; on a node of the tree
 * naming none, fold or unfold it. */
static void
details_jump(struct tui_screen *s)
{
	uint32_t i = line_target(s, tui_fold_line(&s->det_fold,
	    s->det_cur)), from = tui_model_selected(s->m);

	if (i == TI_NONE && details_fold(s, -1))
		return;
	if (i == TI_NONE || i >= s->m->n) {
		snprintf(s->msg, sizeof s->msg, "this line names no record");
		s->msg_err = 1;
	} else if (tui_model_select_item(s->m, i) != 0) {
		snprintf(s->msg, sizeof s->msg, "record %llu is hidden by "
		    "the filter", TUI_FRAME(s->m, i));
		s->msg_err = 1;
	} else
		tui_model_hist_push(s->m, from);
}

static int
details_key(struct tui_screen *s, int key)
{
	size_t	 v;

	/* keys typed ahead of a redraw act on the record now selected */
	tui_details_update(s);
	switch (key) {
	case '\n':
	case '\r':
	case KEY_ENTER:
		details_jump(s);
		return 1;
	case KEY_LEFT:
	case 'h':
		/* on a leaf or a closed node, go up to the parent */
		if (tui_fold_set(&s->det_fold, s->det_cur, 0))
			s->det_lines = tui_fold_count(&s->det_fold);
		else if ((v = tui_fold_parent(&s->det_fold, s->det_cur)) !=
		    SIZE_MAX)
			s->det_cur = v;
		return 1;
	case '-':
		details_fold(s, 0);
		return 1;
	case KEY_RIGHT:
	case 'l':
	case '+':
		details_fold(s, 1);
		return 1;
	case ' ':
		details_fold(s, -1);
		return 1;
	}
	return tui_scroll_key(&s->det_cur, s->det_lines, LINES / 3, key);
}

const struct tui_view_ops tui_details_view = {
	.name = "Details",
	.draw = details_draw,
	.key = details_key,
};
