/*
 * tui/tui-fold.c - folding the decoded tree in the details pane, without
 * curses.  The pane's text is one line a node of the tree, with other
 * lines before and after it; folding a node hides the nodes below it
 * (those after it that are deeper), so the pane shows fewer lines than
 * its text has.  The pane's cursor and scroll position count the lines
 * shown ("visible" lines); these functions map them to lines of the text
 * and to nodes, and give the bytes the cursor's node was decoded from,
 * which the hex pane highlights.  What is folded on one record is kept
 * for the next of its kind, by the nodes' paths (names from the top).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

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

#define PATH_DEPTH	32

/* The path of each node in turn: the names from the top down, '/'
 * between them; end[d] is where the name at depth d ends. */
struct walk {
	struct sbuf	 path;
	size_t		 end[PATH_DEPTH];
};

/* The path of node k of f; call for k = 0, 1, ... in order. */
static const char *
walk_path(struct walk *w, const struct tui_fold *f, size_t k)
{
	const struct dec_node *n = &f->node[k];
	const char *name;
	size_t	 d = n->depth < PATH_DEPTH ? n->depth : PATH_DEPTH - 1;

	/* the line the details pane shows, before any value */
	if (n->f == NULL || n->f->kind == DK_LABEL)
		name = n->str != NULL ? n->str : n->f != NULL ? n->f->name :
		    "";
	else
		name = n->f->name;
	w->path.len = d > 0 ? w->end[d - 1] : 0;
	if (d > 0)
		sb_putc(&w->path, '/');
	sb_putn(&w->path, name, strcspn(name, "\n"));
	w->end[d] = w->path.len;
	return w->path.s != NULL ? w->path.s : "";
}

/* Is line (n bytes, no newline) one of the lines of b? */
static int
has_line(const struct sbuf *b, const char *line, size_t n)
{
	const char *p, *e;

	for (p = b->s; p != NULL && *p != '\0'; p = e + 1) {
		if ((e = strchr(p, '\n')) == NULL)
			break;
		if ((size_t)(e - p) == n && memcmp(p, line, n) == 0)
			return 1;
	}
	return 0;
}

/* The slot of kind, or -1. */
static int
keep_slot(const struct tui_fold_keep *k, const char *kind)
{
	int	 i;

	for (i = 0; i < TUI_FOLD_KINDS; i++)
		if (k->kind[i][0] != '\0' && strcmp(k->kind[i], kind) == 0)
			return i;
	return -1;
}

void
tui_fold_save(struct tui_fold_keep *k, const char *kind,
    const struct tui_fold *f)
{
	struct walk	 w;
	struct sbuf	 all = { 0 }, keep = { 0 }, *old;
	const char	*p, *e;
	size_t		 j;
	int		 slot;

	if (f->n == 0 || *kind == '\0')
		return;
	memset(&w, 0, sizeof w);
	for (j = 0; j < f->n; j++) {
		p = walk_path(&w, f, j);
		if (!tui_fold_kids(f, j))
			continue;
		sb_printf(&all, "%s\n", p);
		if (f->folded[j])
			sb_printf(&keep, "%s\n", p);
	}
	sb_free(&w.path);
	if ((slot = keep_slot(k, kind)) < 0 && keep.len == 0)
		goto out;
	if (slot < 0) {
		/* a new kind takes the oldest slot */
		slot = (int)(k->next++ % TUI_FOLD_KINDS);
		sb_free(&k->paths[slot]);
		snprintf(k->kind[slot], sizeof k->kind[slot], "%s", kind);
	}
	old = &k->paths[slot];
	for (p = old->s; p != NULL && (e = strchr(p, '\n')) != NULL;
	    p = e + 1)
		if (!has_line(&all, p, (size_t)(e - p)))
			sb_putn(&keep, p, (size_t)(e - p + 1));
	sb_free(old);
	*old = keep;
	keep.s = NULL;
out:
	sb_free(&keep);
	sb_free(&all);
}

void
tui_fold_load(const struct tui_fold_keep *k, const char *kind,
    struct tui_fold *f)
{
	struct walk	 w;
	const char	*p;
	size_t		 j;
	int		 slot;

	if ((slot = keep_slot(k, kind)) < 0 || k->paths[slot].len == 0)
		return;
	memset(&w, 0, sizeof w);
	for (j = 0; j < f->n; j++) {
		p = walk_path(&w, f, j);
		if (tui_fold_kids(f, j) &&
		    has_line(&k->paths[slot], p, strlen(p)))
			f->folded[j] = 1;
	}
	sb_free(&w.path);
}

void
tui_fold_keep_free(struct tui_fold_keep *k)
{
	int	 i;

	for (i = 0; i < TUI_FOLD_KINDS; i++)
		sb_free(&k->paths[i]);
	memset(k, 0, sizeof *k);
}
