/*
 * tests/unit/test-msc.c - decode/dec-msc.c and dec-scsi.c: the CBW, CSW
 * and data phases of the bulk-only transport and the UAS IUs, on bytes
 * from tests/data/linux61/qemu-usb-storage.pcap and qemu-usb-uas.pcap
 * (values checked against tshark 4.0), and hostile ones: every
 * truncation, a wrong bCBWCBLength, huge lengths (ASan catches any
 * over-read: each input is copied to a buffer of exactly its length).
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

/* frame 25: CBW tag 1 INQUIRY, 36 bytes IN */
static const uint8_t cbw_inq[31] = {
	0x55, 0x53, 0x42, 0x43, 0x01, 0x00, 0x00, 0x00, 0x24, 0x00, 0x00,
	0x00, 0x80, 0x00, 0x06, 0x12, 0x00, 0x00, 0x00, 0x24, 0x00
};
/* frame 28: its data */
static const uint8_t inq_data[36] = {
	0x00, 0x00, 0x05, 0x12, 0x1f, 0x00, 0x00, 0x10,
	'Q', 'E', 'M', 'U', ' ', ' ', ' ', ' ',
	'Q', 'E', 'M', 'U', ' ', 'H', 'A', 'R', 'D', 'D', 'I', 'S', 'K',
	' ', ' ', ' ', '2', '.', '5', '+'
};
/* frame 30: CSW tag 1 passed */
static const uint8_t csw_ok[13] = {
	0x55, 0x53, 0x42, 0x53, 0x01, 0x00, 0x00, 0x00, 0, 0, 0, 0, 0x00
};
/* frame 45/48: READ CAPACITY(10) and its data */
static const uint8_t cbw_cap[31] = {
	0x55, 0x53, 0x42, 0x43, 0x05, 0x00, 0x00, 0x00, 0x08, 0x00, 0x00,
	0x00, 0x80, 0x00, 0x0a, 0x25
};
static const uint8_t cap_data[8] = { 0x00, 0x00, 0x3f, 0xff, 0, 0, 2, 0 };
/* frame 35/38: REQUEST SENSE and its data (UNIT ATTENTION 0x29/0x00) */
static const uint8_t cbw_sense[31] = {
	0x55, 0x53, 0x42, 0x43, 0x03, 0x00, 0x00, 0x00, 0x60, 0x00, 0x00,
	0x00, 0x80, 0x00, 0x06, 0x03, 0x00, 0x00, 0x00, 0x60, 0x00
};
static const uint8_t sense_data[18] = {
	0x70, 0x00, 0x06, 0, 0, 0, 0, 0x0a, 0, 0, 0, 0, 0x29, 0x00, 0, 0, 0, 0
};
/* qemu-usb-uas.pcap frame 25: command IU tag 1 INQUIRY */
static const uint8_t uas_cmd[32] = {
	0x01, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00,
	0, 0, 0, 0, 0, 0, 0, 0,
	0x12, 0x00, 0x00, 0x00, 0x24, 0x00
};
/* sense IU tag 1, CHECK CONDITION, 18 bytes of sense */
static const uint8_t uas_sense[34] = {
	0x03, 0x00, 0x00, 0x01, 0x00, 0x00, 0x02, 0x00,
	0, 0, 0, 0, 0, 0, 0x00, 0x12,
	0x70, 0x00, 0x06, 0, 0, 0, 0, 0x0a, 0, 0, 0, 0, 0x29, 0x00, 0, 0, 0, 0
};

static struct dec_node	 nodes[DEC_TREE_NODES];
static char		 arena[DEC_TREE_ARENA];

/* A record of exactly n bytes on the heap, so that ASan sees any read
 * past them. */
static uint8_t *
rec_of(struct urb_rec *r, const uint8_t *p, size_t n, int in, char type)
{
	uint8_t	*q = malloc(n ? n : 1);

	assert_non_null(q);
	if (n)
		memcpy(q, p, n);
	memset(r, 0, sizeof *r);
	r->type = (uint8_t)type;
	r->xfer_type = XFER_BULK;
	r->epnum = in ? 0x81 : 0x02;
	r->data = q;
	r->data_len = (uint32_t)n;
	r->len_urb = (uint32_t)n;
	r->frame = 25;
	return q;
}

struct out {
	char	 sum[512];
	int	 has_sum;
	int	 has_tree;
	size_t	 nodes;
};

static void
run(const struct dec_class_ops *o, const uint8_t *p, size_t n, int in,
    struct dec_cls_state *st, struct out *res)
{
	struct urb_rec	 r;
	struct dec_info	 info;
	struct dec_cls_arg a;
	struct dec_tree	 t;
	struct sbuf	 b;
	uint8_t		*q;

	q = rec_of(&r, p, n, in, in ? 'C' : 'S');
	memset(&info, 0, sizeof info);
	info.flags = DI_CLASS;
	info.cls = 8;
	o->learn(&r, &info, st);
	a.r = &r;
	a.info = &info;
	a.st = st;
	memset(&b, 0, sizeof b);
	memset(res, 0, sizeof *res);
	res->has_sum = o->summary(&a, &b);
	if (b.s != NULL)
		snprintf(res->sum, sizeof res->sum, "%.*s", (int)b.len, b.s);
	sb_free(&b);
	dec_tree_init(&t, nodes, DEC_TREE_NODES, arena, sizeof arena);
	res->has_tree = o->tree(&a, &t);
	res->nodes = t.n;
	free(q);
}

/* The value of the first node named abbrev, or -1. */
static long long
field(const char *abbrev, size_t n)
{
	size_t	 i;

	for (i = 0; i < n; i++)
		if (nodes[i].f != NULL && nodes[i].f->abbrev != NULL &&
		    strcmp(nodes[i].f->abbrev, abbrev) == 0)
			return (long long)nodes[i].value;
	return -1;
}

static const char *
field_str(const char *abbrev, size_t n)
{
	size_t	 i;

	for (i = 0; i < n; i++)
		if (nodes[i].f != NULL && nodes[i].f->abbrev != NULL &&
		    strcmp(nodes[i].f->abbrev, abbrev) == 0)
			return nodes[i].str;
	return NULL;
}

static void
test_bot_inquiry(void **state)
{
	const struct dec_class_ops *o = dec_class_find(8, 6, 0x50);
	struct dec_cls_state st;
	struct out res;

	(void)state;
	memset(&st, 0, sizeof st);
	run(o, cbw_inq, sizeof cbw_inq, 0, &st, &res);
	assert_string_equal(res.sum, "CBW tag 1 INQUIRY, IN 36 bytes");
	assert_int_equal(field("usbms.dCBWTag", res.nodes), 1);
	assert_int_equal(field("usbms.dCBWDataTransferLength", res.nodes),
	    36);
	assert_int_equal(field("usbms.dCBWFlags", res.nodes), 0x80);
	assert_int_equal(field("usbms.dCBWCBLength", res.nodes), 6);
	assert_int_equal(field("scsi_sbc.opcode", res.nodes), 0x12);
	assert_int_equal(field("scsi.cdb.alloclen16", res.nodes), 36);
	assert_int_equal(st.has_cbw, 1);

	run(o, inq_data, sizeof inq_data, 1, &st, &res);
	assert_string_equal(res.sum, "INQUIRY data: QEMU QEMU HARDDISK 2.5+");
	assert_string_equal(field_str("scsi.inquiry.vendor_id", res.nodes),
	    "QEMU    ");
	assert_string_equal(field_str("scsi.inquiry.product_rev", res.nodes),
	    "2.5+");
	assert_int_equal(field("scsi.inquiry.version", res.nodes), 5);
	assert_int_equal(field("scsi.request_frame", res.nodes), 25);

	run(o, csw_ok, sizeof csw_ok, 1, &st, &res);
	assert_string_equal(res.sum, "CSW tag 1 INQUIRY passed");
	assert_int_equal(field("scsi.status", res.nodes), 0);
	assert_int_equal(st.has_cbw, 2);
}

static void
test_bot_capacity_sense(void **state)
{
	const struct dec_class_ops *o = dec_class_find(8, 6, 0x50);
	struct dec_cls_state st;
	struct out res;

	(void)state;
	memset(&st, 0, sizeof st);
	run(o, cbw_cap, sizeof cbw_cap, 0, &st, &res);
	run(o, cap_data, sizeof cap_data, 1, &st, &res);
	assert_string_equal(res.sum,
	    "READ CAPACITY(10) data: 16384 blocks of 512 bytes (8 MiB)");
	assert_int_equal(field("scsi_sbc.returned_lba", res.nodes), 16383);
	assert_int_equal(field("scsi_sbc.blocksize", res.nodes), 512);
	run(o, cbw_sense, sizeof cbw_sense, 0, &st, &res);
	run(o, sense_data, sizeof sense_data, 1, &st, &res);
	assert_string_equal(res.sum, "REQUEST SENSE data: UNIT ATTENTION, "
	    "POWER ON, RESET, OR BUS DEVICE RESET OCCURRED (0x29/0x00)");
	assert_int_equal(field("scsi.sns.key", res.nodes), 6);
	assert_int_equal(field("scsi.sns.ascascq", res.nodes), 0x2900);
	/* data in the wrong direction is not the command's */
	run(o, sense_data, sizeof sense_data, 0, &st, &res);
	assert_int_equal(res.has_tree, 0);
}

static void
test_sense_names(void **state)
{
	static const uint8_t nomed[14] = { 0x70, 0, 0x02, 0, 0, 0, 0, 6,
	    0, 0, 0, 0, 0x3a, 0x00 };
	struct sbuf b;

	(void)state;
	memset(&b, 0, sizeof b);
	dec_scsi_sense_summary(nomed, sizeof nomed, &b);
	assert_string_equal(b.s, "NOT READY, MEDIUM NOT PRESENT (0x3a/0x00)");
	sb_free(&b);
}

static void
test_uas(void **state)
{
	const struct dec_class_ops *o = dec_class_find(8, 6, 0x62);
	struct dec_cls_state st;
	struct out res;

	(void)state;
	assert_non_null(o);
	memset(&st, 0, sizeof st);
	run(o, uas_cmd, sizeof uas_cmd, 0, &st, &res);
	assert_string_equal(res.sum, "Command IU tag 1 INQUIRY");
	assert_int_equal(field("uasp.iu_id", res.nodes), 1);
	assert_int_equal(field("uasp.tag", res.nodes), 1);
	assert_int_equal(field("scsi_sbc.opcode", res.nodes), 0x12);
	run(o, inq_data, sizeof inq_data, 1, &st, &res);
	assert_string_equal(res.sum, "INQUIRY data: QEMU QEMU HARDDISK 2.5+");
	run(o, uas_sense, sizeof uas_sense, 1, &st, &res);
	assert_string_equal(res.sum, "Sense IU tag 1 INQUIRY check condition: "
	    "UNIT ATTENTION, POWER ON, RESET, OR BUS DEVICE RESET OCCURRED "
	    "(0x29/0x00)");
	assert_int_equal(field("uasp.sense.length", res.nodes), 18);
	assert_int_equal(field("scsi.status", res.nodes), 2);
	assert_int_equal(field("scsi.sns.asc", res.nodes), 0x29);
}

/* Every prefix of every input, and corrupted lengths: never a read past
 * the record (ASan), always a result. */
static void
test_hostile(void **state)
{
	static const struct {
		const uint8_t	*p;
		size_t		 n;
		int		 in;
	} in[] = {
		{ cbw_inq, sizeof cbw_inq, 0 }, { inq_data, sizeof inq_data, 1 },
		{ csw_ok, sizeof csw_ok, 1 }, { cbw_cap, sizeof cbw_cap, 0 },
		{ cap_data, sizeof cap_data, 1 },
		{ sense_data, sizeof sense_data, 1 },
		{ uas_cmd, sizeof uas_cmd, 0 },
		{ uas_sense, sizeof uas_sense, 1 },
	};
	const struct dec_class_ops *ops[2] = { dec_class_find(8, 6, 0x50),
	    dec_class_find(8, 6, 0x62) };
	struct dec_cls_state st;
	struct out res;
	uint8_t		 buf[64];
	size_t		 i, k, n, m;

	(void)state;
	for (m = 0; m < 2; m++)
		for (i = 0; i < sizeof in / sizeof in[0]; i++)
			for (n = 0; n <= in[i].n; n++) {
				/* an open command of each kind first */
				memset(&st, 0, sizeof st);
				run(ops[m], m ? uas_cmd : cbw_sense,
				    m ? sizeof uas_cmd : sizeof cbw_sense, 0,
				    &st, &res);
				run(ops[m], in[i].p, n, in[i].in, &st, &res);
			}
	/* bCBWCBLength 0, 17, 31; huge lengths in every length field */
	for (k = 0; k < 3; k++) {
		memcpy(buf, cbw_inq, sizeof cbw_inq);
		buf[14] = k == 0 ? 0 : k == 1 ? 17 : 31;
		memset(&st, 0, sizeof st);
		run(ops[0], buf, sizeof cbw_inq, 0, &st, &res);
		assert_int_equal(res.has_tree, 1);
		run(ops[0], inq_data, sizeof inq_data, 1, &st, &res);
	}
	memcpy(buf, uas_sense, sizeof uas_sense);
	buf[14] = 0xff;
	buf[15] = 0xff;			/* sense length 65535 */
	memset(&st, 0, sizeof st);
	run(ops[1], uas_cmd, sizeof uas_cmd, 0, &st, &res);
	run(ops[1], buf, sizeof uas_sense, 1, &st, &res);
	assert_int_equal(res.has_tree, 1);
	/* VPD page length past the data; sense additional length 255 */
	memcpy(buf, inq_data, sizeof inq_data);
	buf[2] = 0xff;
	buf[3] = 0xff;
	memset(&st, 0, sizeof st);
	run(ops[0], cbw_inq, sizeof cbw_inq, 0, &st, &res);
	st.cbw[16] = 1;			/* EVPD */
	run(ops[0], buf, 8, 1, &st, &res);
	assert_int_equal(res.has_tree, 1);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bot_inquiry),
		cmocka_unit_test(test_bot_capacity_sense),
		cmocka_unit_test(test_sense_names),
		cmocka_unit_test(test_uas),
		cmocka_unit_test(test_hostile),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
