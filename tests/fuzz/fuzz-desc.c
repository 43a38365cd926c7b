/*
 * tests/fuzz/fuzz-desc.c - descriptor decoding of a GET_DESCRIPTOR answer:
 * the first 8 bytes are the request (what it asked for decides how the
 * answer is read: LANGIDs, HID report, a configuration hierarchy), the
 * rest the answer; decoded as a tree, as a summary and as an answer to no
 * known request, and the request itself under every class decoder.
 */
#include <stdlib.h>

#include "decode/decode.h"
#include "tests/fuzz/fuzz.h"


static const int classes[] = { -1, 0x01, 0x02, 0x03, 0x07, 0x08, 0x09,
	0x0a, 0x0b, 0x0e, 0xfe, 0xff };

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct dec_node nodes[DEC_TREE_NODES];
	static char	 arena[DEC_TREE_ARENA];
	static struct sbuf text;
	struct dec_setup req;
	struct dec_tree	 tree;
	char		 buf[512], val[128];
	size_t		 i, k;

	if (size < 8)
		return 0;
	dec_setup(data, &req);
	for (k = 0; k < 2; k++) {
		dec_tree_init(&tree, nodes, DEC_TREE_NODES, arena, DEC_TREE_ARENA);
		(void)dec_desc_tree(data + 8, size - 8, k ? NULL : &req,
		    &tree);
		/* one buffer for every node's text (dec_node_value's own
		 * costs a malloc a node, which under ASan made this target
		 * run at 1,000 inputs/s); dec_node_value for the first */
		for (i = 0; i < tree.n; i++) {
			text.len = 0;
			dec_node_text(&tree.node[i], &text);
		}
		if (tree.n > 0)
			(void)dec_node_value(&tree.node[0], val, sizeof val);
		(void)dec_desc_summary(data + 8, size - 8, size - 8 + k,
		    k ? NULL : &req, buf, sizeof buf);
	}
	for (k = 0; k < sizeof classes / sizeof classes[0]; k++) {
		dec_tree_init(&tree, nodes, DEC_TREE_NODES, arena, DEC_TREE_ARENA);
		dec_setup_tree_class(&req, classes[k], &tree);
		(void)dec_setup_summary_class(&req, classes[k], buf,
		    sizeof buf);
		(void)dec_request_name_class(&req, classes[k]);
	}
	(void)dec_setup_summary(&req, 1, buf, sizeof buf);
	return 0;
}
