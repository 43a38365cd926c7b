/*
 * tui/tui-hex.c - the hex pane: the selected record's payload (or its
 * setup bytes when it has none) as offset, 16 bytes in hex (8 on narrow
 * terminals) and ASCII.  The bytes come from tui_details_update.
 */
#include <curses.h>
#include <stdio.h>
#include <string.h>

#include "tui-view.h"

static size_t
hex_per_line(int w)
{
	return w >= 76 ? 16 : 8;
}

static void
hex_draw(struct tui_screen *s, const struct tui_rect *r)
{
	char	 line[128];
	size_t	 per = hex_per_line(r->w), off, j, n;
	int	 y, o;

	tui_details_update(s);
	n = (s->hex_n + per - 1) / per;
	if (n > 0 && s->hex_top >= n)
		s->hex_top = n - 1;
	for (y = 0; y < r->h; y++) {
		tui_clear(r->y + y, r->x, r->w);
		off = (s->hex_top + (size_t)y) * per;
		if (s->hex_p == NULL || off >= s->hex_n) {
			if (y == 0 && s->hex_p == NULL)
				tui_put(s, r->y, r->x, " (no data)", r->w);
			continue;
		}
		o = snprintf(line, sizeof line, " %04zx  ", off);
		for (j = 0; j < per; j++) {
			if (off + j < s->hex_n)
				o += snprintf(line + o, sizeof line - (size_t)o,
				    "%02x ", s->hex_p[off + j]);
			else
				o += snprintf(line + o, sizeof line - (size_t)o,
				    "   ");
		}
		line[o++] = ' ';
		for (j = 0; j < per && off + j < s->hex_n; j++)
			line[o++] = s->hex_p[off + j] >= 0x20 &&
			    s->hex_p[off + j] < 0x7f ? (char)s->hex_p[off + j] :
			    '.';
		line[o] = '\0';
		tui_put(s, r->y + y, r->x, line, r->w);
	}
}

static int
hex_key(struct tui_screen *s, int key)
{
	size_t	 per = hex_per_line(COLS);

	return tui_scroll_key(&s->hex_top, (s->hex_n + per - 1) / per, 4, key);
}

const struct tui_view_ops tui_hex_view = {
	.name = "Hex",
	.draw = hex_draw,
	.key = hex_key,
};
