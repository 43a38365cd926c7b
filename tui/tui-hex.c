/*
 * tui/tui-hex.c - the hex pane: the selected record's setup bytes and
 * payload as offset, 16 bytes in hex (8 on narrow terminals) and ASCII.
 * The setup bytes of a control submit come first, on a row of their own
 * named "setup" when a payload follows (alone, they are at offset 0).
 * The bytes come from tui_details_update; those the details cursor's
 * node was decoded from are shown in reverse video (so without colours
 * too), and the pane scrolls to them when the cursor moves.
 */
#include <curses.h>
#include <stdio.h>
#include <string.h>

#include "tui-view.h"

#define HEX_PREFIX	7		/* " 0000  " or " setup " */

/* A run of bytes shown: the setup or the payload. */
struct hex_seg {
	int		 buf;		/* DB_* */
	const uint8_t	*p;
	size_t		 n;
	size_t		 row;		/* its first row */
};

static size_t
hex_per_line(int w)
{
	return w >= 76 ? 16 : 8;
}

/* The runs of bytes shown and the rows they take; returns how many. */
static size_t
hex_segs(const struct tui_screen *s, size_t per, struct hex_seg seg[2],
    size_t *rows)
{
	size_t	 n = 0;

	*rows = 0;
	if (s->hex_setup != NULL) {
		seg[n] = (struct hex_seg){ DB_SETUP, s->hex_setup, 8, *rows };
		*rows += (8 + per - 1) / per;
		n++;
	}
	if (s->hex_p != NULL && s->hex_n > 0) {
		seg[n] = (struct hex_seg){ s->hex_buf, s->hex_p, s->hex_n,
		    *rows };
		*rows += (s->hex_n + per - 1) / per;
		n++;
	}
	return n;
}

/* The bytes to highlight, [*off, *end) of the run of buffer *buf: those
 * of the details cursor's node while the details or hex pane has the
 * focus.  0 when none. */
static int
hex_mark(const struct tui_screen *s, int *buf, size_t *off, size_t *end)
{
	uint32_t o, l;

	if ((s->focus != 1 && s->focus != 2) || s->devices ||
	    !tui_fold_bytes(&s->det_fold, s->det_cur, buf, &o, &l))
		return 0;
	*off = o;
	*end = (size_t)o + l;
	return 1;
}

/* Scroll so the highlighted bytes show, once each time the cursor moves
 * (the pane scrolls freely afterwards). */
static void
hex_follow(struct tui_screen *s, const struct tui_rect *r, size_t per,
    const struct hex_seg *seg, size_t nseg)
{
	size_t	 i, off, end, first, last;
	int	 buf;

	if (s->hex_seen == s->det_cur || r->h <= 0 ||
	    !hex_mark(s, &buf, &off, &end))
		return;
	s->hex_seen = s->det_cur;
	for (i = 0; i < nseg; i++) {
		if (seg[i].buf != buf || off >= seg[i].n)
			continue;
		if (end > seg[i].n)
			end = seg[i].n;
		first = seg[i].row + off / per;
		last = seg[i].row + (end - 1) / per;
		if (first < s->hex_top)
			s->hex_top = first;
		else if (last >= s->hex_top + (size_t)r->h)
			s->hex_top = last - first + 1 > (size_t)r->h ? first :
			    last - (size_t)r->h + 1;
	}
}

/* Put the highlight on the bytes [off, end) of the row showing bytes
 * from o of its run on screen row y. */
static void
hex_paint(const struct tui_rect *r, int y, size_t per, size_t o, size_t n,
    size_t off, size_t end)
{
	size_t	 a, b;
	int	 x, w;

	a = off > o ? off : o;
	b = end < o + per ? end : o + per;
	if (b > n)
		b = n;
	if (a >= b)
		return;
	/* the hex digits (with the blanks between them) */
	x = HEX_PREFIX + 3 * (int)(a - o);
	w = 3 * (int)(b - a) - 1;
	if (x < r->w)
		mvchgat(r->y + y, r->x + x, x + w > r->w ? r->w - x : w,
		    A_REVERSE, 0, NULL);
	/* the characters */
	x = HEX_PREFIX + 3 * (int)per + 1 + (int)(a - o);
	w = (int)(b - a);
	if (x < r->w)
		mvchgat(r->y + y, r->x + x, x + w > r->w ? r->w - x : w,
		    A_REVERSE, 0, NULL);
}

static void
hex_draw(struct tui_screen *s, const struct tui_rect *r)
{
	struct hex_seg seg[2];
	char	 line[128];
	size_t	 per = hex_per_line(r->w), off, j, rows, nseg, i, hoff, hend;
	int	 y, o, hbuf, mark;

	tui_details_update(s);
	nseg = hex_segs(s, per, seg, &rows);
	if (rows > 0 && s->hex_top >= rows)
		s->hex_top = rows - 1;
	hex_follow(s, r, per, seg, nseg);
	mark = hex_mark(s, &hbuf, &hoff, &hend);
	for (y = 0; y < r->h; y++) {
		tui_clear(r->y + y, r->x, r->w);
		if (nseg == 0) {
			if (y == 0)
				tui_put(s, r->y, r->x, " (no data)", r->w);
			continue;
		}
		for (i = nseg; i-- > 0;)
			if (seg[i].row <= s->hex_top + (size_t)y)
				break;
		off = (s->hex_top + (size_t)y - seg[i].row) * per;
		if (off >= seg[i].n)
			continue;
		if (seg[i].buf == DB_SETUP && nseg > 1)
			o = snprintf(line, sizeof line, " setup ");
		else
			o = snprintf(line, sizeof line, " %04zx  ", off);
		for (j = 0; j < per; j++) {
			if (off + j < seg[i].n)
				o += snprintf(line + o, sizeof line - (size_t)o,
				    "%02x ", seg[i].p[off + j]);
			else
				o += snprintf(line + o, sizeof line - (size_t)o,
				    "   ");
		}
		line[o++] = ' ';
		for (j = 0; j < per && off + j < seg[i].n; j++)
			line[o++] = seg[i].p[off + j] >= 0x20 &&
			    seg[i].p[off + j] < 0x7f ?
			    (char)seg[i].p[off + j] : '.';
		line[o] = '\0';
		tui_put(s, r->y + y, r->x, line, r->w);
		if (mark && hbuf == seg[i].buf)
			hex_paint(r, y, per, off, seg[i].n, hoff, hend);
	}
}

static int
hex_key(struct tui_screen *s, int key)
{
	struct hex_seg seg[2];
	size_t	 rows;

	hex_segs(s, hex_per_line(COLS), seg, &rows);
	return tui_scroll_key(&s->hex_top, rows, 4, key);
}

const struct tui_view_ops tui_hex_view = {
	.name = "Hex",
	.draw = hex_draw,
	.key = hex_key,
};
