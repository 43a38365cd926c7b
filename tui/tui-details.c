/*
 * tui/tui-details.c - the details pane: the selected record's decoded tree
 * (what `read -V` prints, from dec_record_tree) or a driver event's
 * fields, one node a line, indented by depth.
 */
#include <curses.h>
#include <stdio.h>
#include <string.h>

#include "tui-view.h"

static void
node_line(const struct urb_rec *r, const struct dec_node *n, struct sbuf *b)
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
		p = n->buf == DB_SETUP ? r->setup : r->data;
		if (n->f->kind == DK_BYTES && (n->len > 16 || n->buf ==
		    DB_NONE || (uint64_t)n->off + n->len > (n->buf ==
		    DB_SETUP ? 8 : r->data_len)))
			sb_printf(b, "%u bytes", n->len);
		else if (n->f->kind == DK_BYTES)
			for (i = 0; i < n->len; i++)
				sb_hex(b, p[n->off + i], 2);
		else
			sb_puts(b, dec_node_value(n, tmp, sizeof tmp));
	}
	if (n->note != NULL)
		sb_printf(b, n->flags & (DN_BAD | DN_CUT) ? " [%s]" : " (%s)",
		    n->note);
	sb_putc(b, '\n');
}

static void
event_lines(const struct drv_event *ev, struct sbuf *b)
{
	const char *k = dec_drv_kind_name((int)ev->kind);

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

void
tui_details_update(struct tui_screen *s)
{
	struct tui_model *m = s->m;
	const struct tui_rec *rec, *sub;
	struct dec_tree	 t;
	struct dec_fmt	 f = { .time_mode = DT_RELATIVE };
	struct sbuf	 line = { 0 };
	uint32_t	 i = tui_model_selected(m), si;
	const char	*p;
	size_t		 k;

	if (i == s->det_item)
		return;
	s->det_item = i;
	s->det.len = 0;
	s->det_top = s->hex_top = 0;
	s->hex_p = NULL;
	s->hex_n = 0;
	if (i == TI_NONE)
		goto count;
	if ((rec = m->fetch(m->fetch_arg, m->item[i].recno)) == NULL ||
	    tui_rec_copy(&s->det_rec, rec->kind, &rec->r, &rec->info,
	    &rec->ev) != 0) {
		sb_puts(&s->det, "(this record cannot be read again)\n");
		goto count;
	}
	rec = &s->det_rec;
	if (rec->kind == CAP_EVENT) {
		event_lines(&rec->ev, &s->det);
		goto count;
	}
	sb_printf(&s->det, "Record %llu at offset %llu\n",
	    (unsigned long long)rec->r.recno,
	    (unsigned long long)rec->r.offset);
	/* The driver call behind the URB (its copy in det_rec stays). */
	if ((si = tui_model_submitter(m, i)) != TI_NONE &&
	    (sub = m->fetch(m->fetch_arg, m->item[si].recno)) != NULL &&
	    sub->kind == CAP_EVENT) {
		f.t0 = f.tprev = sub->ev.ts_ns;
		f.have_t0 = 1;
		dec_fmt_event_line(&f, &sub->ev, &line);
		/* keep the summary: what follows the "drv" column */
		p = line.s != NULL ? strstr(line.s, " drv ") : NULL;
		for (p = p != NULL ? p + 5 : line.s; p != NULL && *p == ' ';
		    p++)
			;
		sb_printf(&s->det, "Submitted by (record %u): %s",
		    m->item[si].recno, p != NULL ? p : "\n");
		sb_free(&line);
	}
	dec_tree_init(&t, s->nodes, TUI_TREE_NODES, s->arena,
	    TUI_TREE_ARENA);
	dec_record_tree(&rec->r, &rec->info, &t);
	for (k = 0; k < t.n; k++)
		node_line(&rec->r, &t.node[k], &s->det);
	if (t.overflow)
		sb_puts(&s->det, "[decode tree cut: too many fields]\n");
	if (rec->r.data_len > 0) {
		s->hex_p = rec->r.data;
		s->hex_n = rec->r.data_len;
	} else if (rec->r.flag_setup == 0 && rec->r.xfer_type == XFER_CTRL) {
		s->hex_p = rec->r.setup;
		s->hex_n = 8;
	}
count:
	s->det_lines = 0;
	for (k = 0; k < s->det.len; k++)
		if (s->det.s[k] == '\n')
			s->det_lines++;
}

void
tui_draw_text(struct tui_screen *s, const struct tui_rect *r,
    const char *text, size_t top)
{
	const char *p, *e;
	char	 line[512];
	size_t	 ln = 0;
	int	 y = 0;

	for (p = text; p != NULL && *p != '\0' && y < r->h; p = e + 1) {
		if ((e = strchr(p, '\n')) == NULL)
			break;
		if (ln++ < top)
			continue;
		snprintf(line, sizeof line, " %.*s", (int)(e - p), p);
		tui_clear(r->y + y, r->x, r->w);
		tui_put(s, r->y + y, r->x, line, r->w);
		y++;
	}
	for (; y < r->h; y++)
		tui_clear(r->y + y, r->x, r->w);
}

static void
details_draw(struct tui_screen *s, const struct tui_rect *r)
{
	tui_details_update(s);
	if (s->det_lines > 0 && s->det_top >= s->det_lines)
		s->det_top = s->det_lines - 1;
	tui_draw_text(s, r, s->det.s, s->det_top);
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

static int
details_key(struct tui_screen *s, int key)
{
	return tui_scroll_key(&s->det_top, s->det_lines, LINES / 3, key);
}

const struct tui_view_ops tui_details_view = {
	.name = "Details",
	.draw = details_draw,
	.key = details_key,
};
