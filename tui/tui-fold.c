/*
 * tui/tui-fold.c - folding the decoded tree in the details pane, without
 * curses.  The pane's text is one line a node of the tree, with other
 * lines before and after it; folding a node hides the nodes below it
 * (those after it that are deeper), so the pane shows fewer lines than
 * its text has.  The pane's cursor and scroll position count the lines
 * shown ("visible" lines); these functions map them to lines of the text
 * and to nodes, and give the bytes the cursor's node was decoded from,
 * which the hex pane highlights.
 */
#include <stddef.h>
#include <stdint.h>

#include "tui-view.h"

int
tui_fold_kids(const struct tui_fold *f, size_t k)
{
	return k + 1 < f->n && f->node[k + 1].depth > f->node[k].depth;
}

/* The node after node k and what it hides when folded. */
static size_t
fold_skip(const struct tui_fold *f, size_t k)
{
	size_t	 j;

	if (!f->folded[k] || !tui_fold_kids(f, k))
		return k + 1;
	for (j = k + 1; j < f->n && f->node[j].depth > f->node[k].depth; j++)
		;
	return j;
}

size_t
tui_fold_next(const struct tui_fold *f, size_t line)
{
	if (line < f->first || line >= f->first + f->n)
		return line + 1;
	return f->first + fold_skip(f, line - f->first);
}

size_t
tui_fold_count(const struct tui_fold *f)
{
	size_t	 line, n = 0;

	for (line = 0; line < f->lines; line = tui_fold_next(f, line))
		n++;
	return n;
}

size_t
tui_fold_line(const struct tui_fold *f, size_t v)
{
	size_t	 line;

	if (v < f->first || f->n == 0)
		return v;
	for (line = f->first; v > f->first && line < f->lines; v--)
		line = tui_fold_next(f, line);
	return line;
}

size_t
tui_fold_visible(const struct tui_fold *f, size_t line)
{
	size_t	 l, v = 0;

	for (l = 0; l < f->lines; l = tui_fold_next(f, l)) {
		if (tui_fold_next(f, l) > line)
			return v;
		v++;
	}
	return v > 0 ? v - 1 : 0;
}

size_t
tui_fold_node(const struct tui_fold *f, size_t v)
{
	size_t	 line = tui_fold_line(f, v);

	if (line < f->first || line >= f->first + f->n)
		return SIZE_MAX;
	return line - f->first;
}

int
tui_fold_set(struct tui_fold *f, size_t v, int how)
{
	size_t	 k = tui_fold_node(f, v);
	uint8_t	 want;

	if (k == SIZE_MAX || !tui_fold_kids(f, k))
		return 0;
	want = how < 0 ? !f->folded[k] : how == 0;
	if (f->folded[k] == want)
		return 0;
	f->folded[k] = want;
	return 1;
}

size_t
tui_fold_parent(const struct tui_fold *f, size_t v)
{
	size_t	 k = tui_fold_node(f, v), j;

	if (k == SIZE_MAX || f->node[k].depth == 0)
		return SIZE_MAX;
	for (j = k; j-- > 0;)
		if (f->node[j].depth < f->node[k].depth)
			return tui_fold_visible(f, f->first + j);
	return SIZE_MAX;
}

int
tui_fold_bytes(const struct tui_fold *f, size_t v, int *buf, uint32_t *off,
    uint32_t *len)
{
	size_t	 k = tui_fold_node(f, v);

	if (k == SIZE_MAX || f->node[k].buf == DB_NONE ||
	    f->node[k].len == 0)
		return 0;
	*buf = f->node[k].buf;
	*off = f->node[k].off;
	*len = f->node[k].len;
	return 1;
}
