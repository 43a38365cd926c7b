/*
 * tests/unit/test-bt.c - decode/dec-bt.c's reassembly of HCI packets
 * split over transfers (Wireshark's hci_usb): a copy of the interface's
 * state (a record kept for the TUI) keeps the pieces it saw while the
 * analysis goes on; a packet longer than DEC_BT_MAXPKT keeps its first
 * bytes only; garbage pieces never read past a record (ASan: each
 * record's bytes are a buffer of exactly their length).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "decode/class.h"

static struct dec_node	 nodes[DEC_TREE_NODES];
static char		 arena[DEC_TREE_ARENA];
static size_t		 nnodes;		/* the last tree's */

/* Learn and decode n bytes of p on endpoint ep (0x81 events, 0x82 ACL
 * in) as frame frame; the tree's node count. */
static size_t
piece(struct dec_cls_state *st, int ep, const uint8_t *p, size_t n,
    uint64_t frame)
{
	struct urb_rec	 r;
	struct dec_info	 info;
	struct dec_cls_arg a;
	struct dec_tree	 t;
	uint8_t		*q = malloc(n ? n : 1);

	assert_non_null(q);
	memcpy(q, p, n);
	memset(&r, 0, sizeof r);
	memset(&info, 0, sizeof info);
	r.type = 'C';
	r.xfer_type = ep == 0x81 ? XFER_INT : XFER_BULK;
	r.epnum = (uint8_t)ep;
	r.data = q;
	r.data_len = r.len_urb = (uint32_t)n;
	r.frame = frame;
	r.ts_ns = (int64_t)frame * 1000;
	info.flags = DI_CLASS;
	info.cls = 0xe0;
	dec_class_bt.learn(&r, &info, st);
	a.r = &r;
	a.info = &info;
	a.st = st;
	dec_tree_init(&t, nodes, DEC_TREE_NODES, arena, sizeof arena);
	dec_class_bt.tree(&a, &t);
	free(q);
	nnodes = t.n;
	return t.n;
}

/* The first node named abbrev in the last tree, or NULL. */
static const struct dec_node *
node_of(const char *abbrev)
{
	size_t	 i;

	for (i = 0; i < nnodes; i++)
		if (nodes[i].f != NULL && nodes[i].f->abbrev != NULL &&
		    strcmp(nodes[i].f->abbrev, abbrev) == 0)
			return &nodes[i];
	return NULL;
}

/* Its value, or -1. */
static int64_t
value_of(const char *abbrev)
{
	const struct dec_node *n = node_of(abbrev);

	return n != NULL ? (int64_t)n->value : -1;
}

/* An LE Advertising Report of 29 bytes in pieces of 16 and 13. */
static const uint8_t adv[29] = {
	0x3e, 0x1b, 0x02, 0x01, 0x00, 0x01, 0x01, 0xef, 0xcd, 0xab, 0x89,
	0xc0, 0x0f, 0x02, 0x01, 0x06, 0x0b, 0x09, 'u', 'r', 'b', '-', 's',
	'e', 'n', 's', 'o', 'r', 0xcc
};

static void
test_copy_keeps_pieces(void **state)
{
	struct dec_cls_state st, kept;

	(void)state;
	memset(&st, 0, sizeof st);
	piece(&st, 0x81, adv, 16, 110);
	assert_int_equal(st.bt_part, DEC_BT_WHOLE);
	assert_non_null(st.bt_frag[0]);
	/* a record kept: it shares the pieces so far */
	dec_cls_state_copy(&kept, &st);
	assert_true(dec_cls_state_held(&kept));
	assert_int_equal(st.bt_frag[0]->refs, 1);
	piece(&st, 0x81, adv + 16, 13, 112);
	assert_int_equal(st.bt_part, DEC_BT_LAST);
	/* the analysis changed a copy of its own */
	assert_ptr_not_equal(st.bt_frag[0], kept.bt_frag[0]);
	assert_int_equal(kept.bt_frag[0]->got, 16);
	assert_int_equal(kept.bt_frag[0]->nfrag, 1);
	assert_int_equal(st.bt_frag[0]->got, 29);
	assert_memory_equal(st.bt_frag[0]->b, adv, sizeof adv);
	/* the last piece's tree: the pieces and the whole event */
	assert_int_equal(value_of("hci_usb.msg.fragment.count"), 2);
	assert_int_equal(value_of("hci_usb.msg.reassembled.length"), 29);
	assert_int_equal(value_of("hci_usb.msg.fragment"), 110);
	assert_int_equal(value_of("bthci_evt.rssi") & 0xff, 0xcc);
	dec_cls_state_free(&kept);
	dec_cls_state_free(&st);
}

/* ACL data that says 65535 bytes: the first DEC_BT_MAXPKT are kept, the
 * pieces are counted to the end, nothing is read past a piece. */
static void
test_long_acl(void **state)
{
	struct dec_cls_state st;
	uint8_t		 p[1000];
	size_t		 left = 65535 + 4, n;
	uint64_t	 frame = 1;

	(void)state;
	memset(&st, 0, sizeof st);
	memset(p, 0xa5, sizeof p);
	p[0] = 0x0b;
	p[1] = 0x20;
	p[2] = 0xff;
	p[3] = 0xff;
	while (left > 0) {
		n = left < sizeof p ? left : sizeof p;
		piece(&st, 0x82, p, n, frame++);
		left -= n;
		p[2] = p[3] = 0xa5;
	}
	assert_int_equal(st.bt_part, DEC_BT_LAST);
	assert_int_equal(st.bt_frag[1]->total, 65539);
	assert_int_equal(st.bt_frag[1]->got, 65539);
	/* more pieces than it lists: not shown as reassembled */
	assert_true(st.bt_frag[1]->nfrag > DEC_BT_MAXFRAG);
	assert_int_equal(value_of("hci_usb.msg.fragments"), -1);
	assert_int_equal(value_of("hci_usb.packet.complete"), 0);
	dec_cls_state_free(&st);
}

/* Garbage: every length of every prefix of a few packets, on both
 * streams, one after another. */
static void
test_garbage(void **state)
{
	struct dec_cls_state st;
	uint8_t		 p[64];
	size_t		 i, n;

	(void)state;
	memset(&st, 0, sizeof st);
	for (i = 0; i < sizeof p; i++)
		p[i] = (uint8_t)(i * 37 + 11);
	for (n = 1; n <= sizeof p; n++) {
		p[1] = (uint8_t)n;
		piece(&st, 0x81, p, n, n);
		piece(&st, 0x82, p, n % 7, 100 + n);
		piece(&st, 0x82, adv, n % 30, 200 + n);
	}
	dec_cls_state_free(&st);
}

/* Its string, or NULL. */
static const char *
str_of(const char *abbrev)
{
	const struct dec_node *n = node_of(abbrev);

	return n != NULL ? n->str : NULL;
}

/* The connections bthci_acl shows are bounded: more handles and more
 * advertisers than the state keeps forget the oldest (a closed one
 * first), never the remote of a connection still open; a copy of the state keeps what it saw. */
static void
test_links_bounded(void **state)
{
	struct dec_cls_state st, kept;
	uint8_t		 cc[13] = { 0x03, 0x0b, 0x00, 0x01, 0x00,
	    0x66, 0x55, 0x44, 0x33, 0x22, 0x11, 0x01, 0x00 };
	uint8_t		 dc[6] = { 0x05, 0x04, 0x00, 0x01, 0x00, 0x13 };
	uint8_t		 rep[29], acl[14] = { 0x01, 0x20, 0x0a, 0x00, 0x06,
	    0x00, 0x01, 0x00, 0x0a, 0x01, 0x02, 0x00, 0x02, 0x00 };
	uint64_t	 frame = 1;
	int		 i;

	(void)state;
	memset(&st, 0, sizeof st);
	piece(&st, 0x81, cc, sizeof cc, frame++);
	memcpy(rep, adv, sizeof rep);
	rep[7] = 0x11;			/* the connected device's name */
	memcpy(rep + 6, cc + 5, 6);
	piece(&st, 0x81, rep, sizeof rep, frame++);
	dec_cls_state_copy(&kept, &st);
	for (i = 0; i < 3 * DEC_BT_DEVS; i++) {
		rep[6] = (uint8_t)(0x80 + i);	/* other advertisers */
		rep[20] = (uint8_t)('a' + i);
		piece(&st, 0x81, rep, sizeof rep, frame++);
	}
	for (i = 0; i < 3 * DEC_BT_LINKS; i++) {	/* other handles */
		cc[3] = dc[3] = (uint8_t)(0x10 + i);
		cc[5] = (uint8_t)i;
		piece(&st, 0x81, cc, sizeof cc, frame++);
		piece(&st, 0x81, dc, sizeof dc, frame++);
	}
	piece(&st, 0x82, acl, sizeof acl, frame++);
	assert_int_equal(value_of("bthci_acl.connect_in"), 1);
	assert_string_equal(str_of("bthci_acl.src.bd_addr"),
	    "11:22:33:44:55:66");
	assert_string_equal(str_of("bthci_acl.src.name"), "urb-sensor");
	/* the newest handle is known too, disconnected */
	acl[0] = (uint8_t)(0x10 + 3 * DEC_BT_LINKS - 1);
	piece(&st, 0x82, acl, sizeof acl, frame);
	assert_int_equal(value_of("bthci_acl.connect_in"), -1);
	assert_string_equal(str_of("bthci_acl.src.bd_addr"),
	    "11:22:33:44:55:17");
	/* the copy saw the connection and its name only */
	acl[0] = 0x01;
	piece(&kept, 0x82, acl, sizeof acl, frame);
	assert_int_equal(value_of("bthci_acl.connect_in"), 1);
	assert_string_equal(str_of("bthci_acl.src.name"), "urb-sensor");
	assert_ptr_not_equal(kept.bt_cmds, st.bt_cmds);
	dec_cls_state_free(&kept);
	dec_cls_state_free(&st);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_copy_keeps_pieces),
		cmocka_unit_test(test_long_acl),
		cmocka_unit_test(test_garbage),
		cmocka_unit_test(test_links_bounded),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
