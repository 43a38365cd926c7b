/*
 * tests/unit/tree.h - looking into a decoded tree (decode/dec-tree.c) from
 * the decoders' unit tests: headings by their text, nodes by their flags.
 * Included after cmocka.h; everything is static inline (and may go unused).
 */
#ifndef TESTS_TREE_H
#define TESTS_TREE_H

#include <string.h>

#include "decode/decode.h"

/* The k-th (0 = first) heading that starts with prefix; fails the test
 * when there is none. */
static inline const struct dec_node *
label(const struct dec_tree *t, const char *prefix, int k)
{
	size_t	 i;

	for (i = 0; i < t->n; i++) {
		if (t->node[i].f == NULL && t->node[i].str != NULL &&
		    strncmp(t->node[i].str, prefix, strlen(prefix)) == 0 &&
		    k-- == 0)
			return &t->node[i];
	}
	print_error("no label %s\n", prefix);
	fail();
	return NULL;
}

/* The nodes with any of flags (DN_*). */
static inline int
flagged(const struct dec_tree *t, uint8_t flags)
{
	size_t	 i;
	int	 k = 0;

	for (i = 0; i < t->n; i++)
		if (t->node[i].flags & flags)
			k++;
	return k;
}

#endif /* TESTS_TREE_H */
