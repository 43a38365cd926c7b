/*
 * tests/unit/test-tui-fold.c - folding the details pane's decoded tree
 * without curses (tui/tui-fold.c): which lines show with nodes folded,
 * mapping visible lines to text lines and nodes and back, going up to a
 * parent, and the bytes of the cursor's node the hex pane highlights;
 * folds kept from one record to the next of its kind, by the nodes'
 * paths.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "decode/decode.h"
#include "tui/tui-view.h"

/*
 * The text: line 0 "Record", then the tree on lines 1-8, then two
 * lines after it (the driver call that got the URB back).
 *
 *   1 USB URB            node 0  depth 0
 *   2   URB id           node 1  depth 1
 *   3   Endpoint         node 2  depth 1
 *   4     Direction      node 3  depth 2
 *   5 URB setup          node 4  depth 0  setup 0..8
 *   6   bmRequestType    node 5  depth 1  setup 0..1
 *   7     Direction      node 6  depth 2  setup 0..1
 *   8   bRequest         node 7  depth 1  setup 1..2
 */
static struct dec_node nodes[8];
static uint8_t folded[8];

static void
mk(struct tui_fold *f)
{
	static const uint8_t depth[8] = { 0, 1, 1, 2, 0, 1, 2, 1 };
	size_t	 k;

	memset(nodes, 0, sizeof nodes);
	memset(folded, 0, sizeof folded);
	for (k = 0; k < 8; k++)
		nodes[k].depth = depth[k];
	nodes[4].buf = DB_SETUP;
	nodes[4].len = 8;
	nodes[5].buf = nodes[6].buf = nodes[7].buf = DB_SETUP;
	nodes[5].len = nodes[6].len = nodes[7].len = 1;
	nodes[7].off = 1;
	f->node = nodes;
	f->n = 8;
	f->first = 1;
	f->lines = 11;
	f->folded = folded;
}

/* The text lines shown, in order, into out; returns how many. */
static size_t
shown(const struct tui_fold *f, size_t *out)
{
	size_t	 line, n = 0;

	for (line = 0; line < f->lines; line = tui_fold_next(f, line))
		out[n++] = line;
	return n;
}

static void
test_all_open(void **state)
{
	struct tui_fold f;
	size_t	 v, out[16];

	(void)state;
	mk(&f);
	assert_int_equal(tui_fold_count(&f), 11);
	assert_int_equal(shown(&f, out), 11);
	for (v = 0; v < 11; v++) {
		assert_int_equal(tui_fold_line(&f, v), v);
		assert_int_equal(tui_fold_visible(&f, v), v);
	}
	assert_int_equal(tui_fold_node(&f, 0), SIZE_MAX);
	assert_int_equal(tui_fold_node(&f, 1), 0);
	assert_int_equal(tui_fold_node(&f, 8), 7);
	assert_int_equal(tui_fold_node(&f, 9), SIZE_MAX);
	assert_true(tui_fold_kids(&f, 0));
	assert_false(tui_fold_kids(&f, 1));
	assert_true(tui_fold_kids(&f, 2));
	assert_false(tui_fold_kids(&f, 3));
	assert_true(tui_fold_kids(&f, 5));
	assert_false(tui_fold_kids(&f, 7));	/* the last node */
}

static void
test_fold(void **state)
{
	struct tui_fold f;
	size_t	 out[16];
	static const size_t want[] = { 0, 1, 5, 6, 7, 8, 9, 10 };

	(void)state;
	mk(&f);
	/* a leaf and a line outside the tree do not fold */
	assert_int_equal(tui_fold_set(&f, 2, 0), 0);
	assert_int_equal(tui_fold_set(&f, 0, 0), 0);
	assert_int_equal(tui_fold_set(&f, 10, -1), 0);
	/* folding "USB URB" hides its three lines */
	assert_int_equal(tui_fold_set(&f, 1, 0), 1);
	assert_int_equal(tui_fold_set(&f, 1, 0), 0);	/* already */
	assert_int_equal(tui_fold_count(&f), 8);
	assert_int_equal(shown(&f, out), 8);
	assert_memory_equal(out, want, sizeof want);
	assert_int_equal(tui_fold_line(&f, 2), 5);	/* URB setup */
	assert_int_equal(tui_fold_node(&f, 2), 4);
	assert_int_equal(tui_fold_line(&f, 7), 10);
	/* a hidden line is shown by the fold over it */
	assert_int_equal(tui_fold_visible(&f, 3), 1);
	assert_int_equal(tui_fold_visible(&f, 4), 1);
	assert_int_equal(tui_fold_visible(&f, 5), 2);
	/* toggling opens it again */
	assert_int_equal(tui_fold_set(&f, 1, -1), 1);
	assert_int_equal(tui_fold_count(&f), 11);
}

static void
test_nested(void **state)
{
	struct tui_fold f;
	size_t	 out[16];
	static const size_t inner[] = { 0, 1, 2, 3, 5, 6, 8, 9, 10 };
	static const size_t outer[] = { 0, 1, 5, 9, 10 };

	(void)state;
	mk(&f);
	/* Endpoint (line 3) and bmRequestType (line 6, visible 5 after the
	 * first fold) */
	assert_int_equal(tui_fold_set(&f, 3, 0), 1);
	assert_int_equal(tui_fold_line(&f, 5), 6);
	assert_int_equal(tui_fold_set(&f, 5, 0), 1);
	assert_int_equal(shown(&f, out), 9);
	assert_memory_equal(out, inner, sizeof inner);
	/* the outer folds hide the inner ones, which stay folded */
	assert_int_equal(tui_fold_set(&f, 1, 0), 1);
	assert_int_equal(tui_fold_set(&f, 2, 0), 1);
	assert_int_equal(shown(&f, out), 5);
	assert_memory_equal(out, outer, sizeof outer);
	assert_int_equal(tui_fold_set(&f, 2, 1), 1);
	assert_int_equal(tui_fold_set(&f, 1, 1), 1);
	assert_int_equal(shown(&f, out), 9);
	assert_memory_equal(out, inner, sizeof inner);
}

static void
test_parent(void **state)
{
	struct tui_fold f;

	(void)state;
	mk(&f);
	assert_int_equal(tui_fold_parent(&f, 0), SIZE_MAX);	/* no node */
	assert_int_equal(tui_fold_parent(&f, 1), SIZE_MAX);	/* top */
	assert_int_equal(tui_fold_parent(&f, 4), 3);
	assert_int_equal(tui_fold_parent(&f, 3), 1);
	assert_int_equal(tui_fold_parent(&f, 8), 5);
	/* with USB URB folded, URB setup's children move up three lines */
	tui_fold_set(&f, 1, 0);
	assert_int_equal(tui_fold_parent(&f, 5), 2);
	assert_int_equal(tui_fold_parent(&f, 4), 3);
}

static void
test_bytes(void **state)
{
	struct tui_fold f;
	uint32_t off, len;
	int	 buf;

	(void)state;
	mk(&f);
	assert_int_equal(tui_fold_bytes(&f, 0, &buf, &off, &len), 0);
	assert_int_equal(tui_fold_bytes(&f, 2, &buf, &off, &len), 0);
	assert_int_equal(tui_fold_bytes(&f, 5, &buf, &off, &len), 1);
	assert_int_equal(buf, DB_SETUP);
	assert_int_equal(off, 0);
	assert_int_equal(len, 8);
	assert_int_equal(tui_fold_bytes(&f, 8, &buf, &off, &len), 1);
	assert_int_equal(off, 1);
	assert_int_equal(len, 1);
	/* the cursor counts visible lines: folded, bRequest is line 5 */
	tui_fold_set(&f, 1, 0);
	assert_int_equal(tui_fold_bytes(&f, 5, &buf, &off, &len), 1);
	assert_int_equal(off, 1);
	assert_int_equal(tui_fold_bytes(&f, 9, &buf, &off, &len), 0);
}

static void
test_no_tree(void **state)
{
	struct tui_fold f;
	uint32_t off, len;
	int	 buf;

	(void)state;
	memset(&f, 0, sizeof f);
	f.lines = 4;
	assert_int_equal(tui_fold_count(&f), 4);
	assert_int_equal(tui_fold_line(&f, 3), 3);
	assert_int_equal(tui_fold_node(&f, 0), SIZE_MAX);
	assert_int_equal(tui_fold_set(&f, 0, -1), 0);
	assert_int_equal(tui_fold_bytes(&f, 0, &buf, &off, &len), 0);
	f.lines = 0;
	assert_int_equal(tui_fold_count(&f), 0);
}

/* mk's tree with its names, as the details pane shows them. */
static void
mk_named(struct tui_fold *f)
{
	static const char *const name[8] = { "USB URB", "URB id", "Endpoint",
	    "Direction", "URB setup", "bmRequestType", "Direction",
	    "bRequest" };
	size_t	 k;

	mk(f);
	for (k = 0; k < 8; k++)
		nodes[k].str = name[k];
}

/* The nodes folded, as a string of 0 and 1. */
static const char *
folds(const struct tui_fold *f)
{
	static char buf[16];
	size_t	 k;

	for (k = 0; k < f->n && k + 1 < sizeof buf; k++)
		buf[k] = f->folded[k] ? '1' : '0';
	buf[k] = '\0';
	return buf;
}

static void
test_keep(void **state)
{
	struct tui_fold_keep keep;
	struct tui_fold f;
	char	 kind[16];
	int	 i;

	(void)state;
	memset(&keep, 0, sizeof keep);
	mk_named(&f);
	folded[2] = folded[4] = 1;		/* Endpoint, URB setup */
	tui_fold_save(&keep, "2 S", &f);
	mk_named(&f);
	tui_fold_load(&keep, "2 C", &f);	/* another kind */
	assert_string_equal(folds(&f), "00000000");
	tui_fold_load(&keep, "2 S", &f);
	assert_string_equal(folds(&f), "00101000");
	/* a record of the kind without a setup: Endpoint opened there,
	 * the setup's fold kept for the next that has one */
	mk_named(&f);
	f.n = 4;
	tui_fold_save(&keep, "2 S", &f);
	mk_named(&f);
	tui_fold_load(&keep, "2 S", &f);
	assert_string_equal(folds(&f), "00001000");
	/* the same name elsewhere in the tree is another node */
	mk_named(&f);
	folded[5] = 1;
	tui_fold_save(&keep, "2 S", &f);
	mk_named(&f);
	tui_fold_load(&keep, "2 S", &f);
	assert_string_equal(folds(&f), "00000100");
	/* a leaf is never folded; nothing folded on a new kind keeps none */
	mk_named(&f);
	tui_fold_save(&keep, "3 S", &f);
	assert_int_equal(keep.next, 1);
	tui_fold_save(&keep, "", &f);
	assert_int_equal(keep.next, 1);
	/* past TUI_FOLD_KINDS kinds the oldest goes */
	for (i = 0; i < TUI_FOLD_KINDS; i++) {
		mk_named(&f);
		folded[0] = 1;
		snprintf(kind, sizeof kind, "k%d", i);
		tui_fold_save(&keep, kind, &f);
	}
	mk_named(&f);
	tui_fold_load(&keep, "2 S", &f);
	assert_string_equal(folds(&f), "00000000");
	tui_fold_load(&keep, "k15", &f);
	assert_string_equal(folds(&f), "10000000");
	tui_fold_keep_free(&keep);
	assert_int_equal(keep.next, 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_all_open),
		cmocka_unit_test(test_fold),
		cmocka_unit_test(test_nested),
		cmocka_unit_test(test_parent),
		cmocka_unit_test(test_bytes),
		cmocka_unit_test(test_no_tree),
		cmocka_unit_test(test_keep),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
