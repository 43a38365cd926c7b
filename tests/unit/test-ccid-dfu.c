/*
 * tests/unit/test-ccid-dfu.c - decode/dec-ccid.c: the smart card class
 * descriptor inside a configuration, bulk messages and interrupt
 * notifications, from bytes laid out by CCID 1.1 (5.1, 6.1, 6.2, 6.3);
 * decode/dec-dfu.c: DFU_GETSTATUS and DFU_GETSTATE answers and DNLOAD
 * blocks (DFU 1.1 6.1); decode/dec-printer.c: the IEEE 1284 device ID
 * (Printing Devices 1.1 4.2.1); every truncation, in heap buffers of the exact
 * size so that ASan catches any over-read.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "decode/decode.h"

/* A configuration: interface 0 of class 0x0b, its 54-byte CCID class
 * descriptor (CCID 1.1, 5.1: bcdCCID 1.10, one slot, 5.0 V, T=0 and T=1,
 * 3.58 MHz, 9600 bps, IFSD 254, features 0x000400fe, 271-byte messages,
 * LCD 2 lines of 16, PIN verify and modify) and three endpoints. */
#define CCID_CFG							\
	"09025d000101008032" "0904000003" "0b0000" "00"			\
	"36211001" "00" "01" "03000000" "fc0d0000" "fc0d0000" "00"	\
	"80250000" "80250000" "00" "fe000000" "00000000" "00000000"	\
	"fe000400" "0f010000" "ff" "ff" "1002" "03" "01"		\
	"07050102400000" "07058202400000" "07058303080010"
/* PC_to_RDR_XfrBlock, slot 0 seq 7, a SELECT APDU of 5 bytes. */
#define XFR	"6f05000000" "0007" "00" "0000" "00a4040000"
/* RDR_to_PC_SlotStatus: failed (bError 0xfe, ICC mute), no ICC. */
#define SLOT	"81" "00000000" "00" "00" "42" "fe" "00"

struct tree {
	struct dec_node	 node[512];
	char		 arena[8192];
	struct dec_tree	 t;
};

static struct dec_tree *
tree_new(struct tree *tr)
{
	dec_tree_init(&tr->t, tr->node, 512, tr->arena, sizeof tr->arena);
	tr->t.all_bits = 1;
	return &tr->t;
}

static uint8_t *
unhex(const char *s, size_t *n)
{
	uint8_t	*p = malloc(strlen(s) / 2 + 1);
	unsigned v;

	assert_non_null(p);
	for (*n = 0; s[0] != '\0' && s[1] != '\0'; s += 2) {
		sscanf(s, "%2x", &v);
		p[(*n)++] = (uint8_t)v;
	}
	return p;
}

static const struct dec_node *
find(const struct dec_tree *t, const char *abbrev)
{
	size_t	 i;

	for (i = 0; i < t->n; i++) {
		if (t->node[i].f != NULL && t->node[i].f->abbrev != NULL &&
		    strcmp(t->node[i].f->abbrev, abbrev) == 0)
			return &t->node[i];
	}
	return NULL;
}

static uint64_t
val(const struct dec_tree *t, const char *abbrev)
{
	const struct dec_node *n = find(t, abbrev);

	if (n == NULL)
		print_error("no %s\n", abbrev);
	assert_non_null(n);
	return n->value;
}

static void
in_bounds(const struct dec_tree *t, size_t k)
{
	size_t	 j;

	for (j = 0; j < t->n; j++)
		if (t->node[j].buf == DB_DATA)
			assert_true(t->node[j].off + t->node[j].len <= k);
}

static void
test_descriptor(void **state)
{
	struct dec_tree	*t;
	uint8_t		*p, *q;
	size_t		 n, k, i;

	p = unhex(CCID_CFG, &n);
	assert_int_equal(n, 0x5d);
	t = tree_new(*state);
	dec_desc_tree(p, n, NULL, t);
	assert_false(t->overflow);
	in_bounds(t, n);
	for (i = 0; i < t->n; i++)
		if (t->node[i].f == NULL && t->node[i].str != NULL)
			assert_null(strstr(t->node[i].str, "HID"));
	assert_int_equal(val(t, "usbccid.bcdCCID"), 0x0110);
	assert_int_equal(val(t, "usbccid.bVoltageSupport.50"), 1);
	assert_int_equal(val(t, "usbccid.bVoltageSupport.18"), 0);
	assert_int_equal(val(t, "usbccid.dwProtocols.t1"), 1);
	assert_int_equal(val(t, "usbccid.dwDefaultClock"), 3580);
	assert_int_equal(val(t, "usbccid.dwDataRate"), 9600);
	assert_int_equal(val(t, "usbccid.dwMaxIFSD"), 254);
	assert_int_equal(val(t, "usbccid.dwFeatures"), 0x000400fe);
	assert_int_equal(val(t, "usbccid.dwFeatures.autoPPS"), 1);
	assert_int_equal(val(t, "usbccid.dwFeatures.levelExchangeTDPU"), 0);
	assert_int_equal(val(t,
	    "usbccid.dwFeatures.levelExchangeShortExtendedAPDU"), 1);
	assert_int_equal(val(t, "usbccid.dwMaxCCIDMessageLength"), 271);
	assert_int_equal(val(t, "usbccid.hf_ccid_wLcdLayout.lines"), 2);
	assert_int_equal(val(t, "usbccid.hf_ccid_wLcdLayout.chars"), 16);
	assert_int_equal(val(t, "usbccid.hf_ccid_bPINSupport.modify"), 1);
	assert_int_equal(val(t, "usbccid.hf_ccid_bMaxCCIDBusySlots"), 1);
	/* the endpoints after it are still the configuration's */
	assert_int_equal(val(t, "usb.bEndpointAddress"), 0x01);

	/* every cut of the configuration */
	for (k = 0; k < n; k++) {
		q = malloc(k + 1);
		assert_non_null(q);
		memcpy(q, p, k);
		t = tree_new(*state);
		dec_desc_tree(q, k, NULL, t);
		in_bounds(t, k);
		free(q);
	}
	free(p);
}

static void
rec(struct urb_rec *r, struct dec_info *info, int xfer, uint8_t ep,
    const uint8_t *data, uint32_t len)
{
	memset(r, 0, sizeof *r);
	memset(info, 0, sizeof *info);
	r->type = (ep & 0x80) ? 'C' : 'S';
	r->xfer_type = (uint8_t)xfer;
	r->epnum = ep;
	r->data = data;
	r->data_len = len;
	r->len_urb = len;
	info->flags = DI_CLASS;
	info->intf = 0;
	info->cls = 0x0b;
}

/* The completion of a control request to an interface of class csp
 * (0xCCSSPP). */
static void
ctrl(struct urb_rec *r, struct dec_info *info, uint32_t csp,
    const uint8_t setup[8], const uint8_t *data, uint32_t len)
{
	rec(r, info, XFER_CTRL, 0x80, data, len);
	info->cls = (uint8_t)(csp >> 16);
	info->subcls = (uint8_t)(csp >> 8);
	info->proto = (uint8_t)csp;
	info->flags |= DI_SETUP;
	dec_setup(setup, &info->setup);
}

static const char *
summary(const struct urb_rec *r, const struct dec_info *info)
{
	static char	 out[256];
	struct sbuf	 b = { NULL, 0, 0, 0 };

	out[0] = '\0';
	if (dec_class_summary(r, info, &b) && b.s != NULL)
		snprintf(out, sizeof out, "%s", b.s);
	sb_free(&b);
	return out;
}

static void
test_messages(void **state)
{
	static const uint8_t notify[2] = { 0x50, 0x03 };
	struct dec_tree	*t;
	struct urb_rec	 r;
	struct dec_info	 info;
	uint8_t		*p, *q;
	size_t		 n, k;

	p = unhex(XFR, &n);
	rec(&r, &info, XFER_BULK, 0x01, p, (uint32_t)n);
	t = tree_new(*state);
	assert_int_equal(dec_class_tree(&r, &info, t), 1);
	assert_int_equal(val(t, "usbccid.bMessageType"), 0x6f);
	assert_int_equal(val(t, "usbccid.dwLength"), 5);
	assert_int_equal(val(t, "usbccid.bSeq"), 7);
	assert_int_equal(find(t, "usbccid.abData")->off, 10);
	assert_int_equal(find(t, "usbccid.abData")->len, 5);
	assert_false(find(t, "usbccid.abData")->flags & DN_BAD);
	assert_string_equal(summary(&r, &info),
	    "PC_to_RDR_XfrBlock slot 0 seq 7, 5 bytes: 00 a4 04 00 00");
	for (k = 0; k < n; k++) {
		q = malloc(k + 1);
		memcpy(q, p, k);
		rec(&r, &info, XFER_BULK, 0x01, q, (uint32_t)k);
		t = tree_new(*state);
		dec_class_tree(&r, &info, t);
		in_bounds(t, k);
		if (k > 0)
			summary(&r, &info);
		free(q);
	}
	free(p);

	p = unhex(SLOT, &n);
	rec(&r, &info, XFER_BULK, 0x82, p, (uint32_t)n);
	t = tree_new(*state);
	assert_int_equal(dec_class_tree(&r, &info, t), 1);
	assert_int_equal(val(t, "usbccid.bStatus.bmCommandStatus"), 1);
	assert_int_equal(val(t, "usbccid.bStatus.bmIccStatus"), 2);
	assert_int_equal(val(t, "usbccid.bError"), 0xfe);
	assert_string_equal(summary(&r, &info), "RDR_to_PC_SlotStatus slot 0 "
	    "seq 0: failed (bError 0xfe), no ICC present");
	free(p);

	rec(&r, &info, XFER_INT, 0x83, notify, 2);
	t = tree_new(*state);
	assert_int_equal(dec_class_tree(&r, &info, t), 1);
	assert_int_equal(val(t, "usbccid.hf_ccid_bmSlotICCState.slot0Changed"),
	    1);
	assert_string_equal(summary(&r, &info),
	    "RDR_to_PC_NotifySlotChange, slot 0 card in");
}

static void
test_dfu(void **state)
{
	/* DFU_GETSTATUS: OK, poll 0x000100 = 256 ms, dfuDnloadIdle */
	static const uint8_t status[6] = { 0x00, 0x00, 0x01, 0x00, 5, 0 };
	static const uint8_t get_status[8] = { 0xa1, 3, 0, 0, 0, 0, 6, 0 };
	static const uint8_t get_state[8] = { 0xa1, 5, 0, 0, 0, 0, 1, 0 };
	static const uint8_t dnload[8] = { 0x21, 1, 7, 0, 0, 0, 4, 0 };
	static const uint8_t block[4] = { 1, 2, 3, 4 };
	static const uint8_t err = 10;
	struct dec_tree	*t;
	struct urb_rec	 r;
	struct dec_info	 info;
	size_t		 k;

	ctrl(&r, &info, 0xfe0102, get_status, status, 6);
	/* a device tshark does not take as DFU: the answer is only
	 * usb.control.Response */
	t = tree_new(*state);
	assert_int_equal(dec_class_tree(&r, &info, t), 1);
	assert_null(find(t, "usbdfu.status"));
	assert_int_equal(find(t, "usb.control.Response")->len, 6);
	/* the Black Magic Debug Probe in DFU mode (packet-usb-dfu.c's
	 * usb.product entry 1d50:6017) is */
	info.flags |= DI_IDS;
	info.vid = 0x1d50;
	info.pid = 0x6017;
	info.pair_frame = 41;
	t = tree_new(*state);
	assert_int_equal(dec_class_tree(&r, &info, t), 1);
	assert_null(find(t, "usb.control.Response"));
	assert_int_equal(val(t, "usbdfu.response"), 3);
	assert_int_equal(val(t, "usbdfu.command_frame"), 41);
	assert_int_equal(val(t, "usbdfu.status"), 0);
	assert_int_equal(val(t, "usbdfu.poll_timeout"), 256);
	assert_int_equal(val(t, "usbdfu.state"), 5);
	assert_string_equal(summary(&r, &info),
	    "DFU_GETSTATUS: OK, dfuDownloadIdle, poll 256 ms");
	for (k = 0; k < 6; k++) {
		r.data_len = (uint32_t)k;
		t = tree_new(*state);
		dec_class_tree(&r, &info, t);
		in_bounds(t, k);
		summary(&r, &info);
	}

	dec_setup(get_state, &info.setup);
	r.data = &err;
	r.data_len = 1;
	assert_string_equal(summary(&r, &info), "DFU_GETSTATE: dfuError");

	dec_setup(dnload, &info.setup);
	r.type = 'S';
	r.epnum = 0;
	r.data = block;
	r.data_len = 4;
	assert_string_equal(summary(&r, &info), "DFU_DNLOAD block 7, 4 bytes");
	r.flag_setup = 0;
	t = tree_new(*state);
	assert_int_equal(dec_class_tree(&r, &info, t), 1);
	assert_int_equal(val(t, "usbdfu.command"), 1);
	assert_int_equal(val(t, "usbdfu.block_number"), 7);
	assert_int_equal(val(t, "usbdfu.length"), 4);
	assert_int_equal(find(t, "usbdfu.data")->len, 4);
	assert_int_equal(find(t, "usb.data_fragment")->len, 4);
	/* the empty DNLOAD that ends a download: no Data */
	r.data_len = 0;
	t = tree_new(*state);
	assert_int_equal(dec_class_tree(&r, &info, t), 1);
	assert_null(find(t, "usbdfu.data"));
	r.data_len = 4;

	/* a standard request to the interface is not DFU's */
	info.setup.bmRequestType = 0x81;
	assert_int_equal(dec_class_tree(&r, &info, tree_new(*state)), 0);
}

static void
test_printer(void **state)
{
	static const uint8_t get_id[8] = { 0xa1, 0, 0, 0, 0, 0, 0xff, 0x03 };
	static const char id[] = "\x00\x30" "MFG:Hewlett-Packard;CMD:PJL;"
	    "MDL:LaserJet 1020;";
	struct dec_tree	*t;
	struct urb_rec	 r;
	struct dec_info	 info;
	const struct dec_node *n;
	uint8_t		*q;
	size_t		 k;

	ctrl(&r, &info, 0x070102, get_id, (const uint8_t *)id, sizeof id - 1);
	t = tree_new(*state);
	assert_int_equal(dec_class_tree(&r, &info, t), 1);
	assert_int_equal(val(t, "usbprinter.device_id_len"), 0x30);
	n = find(t, "usbprinter.device_id");
	assert_string_equal(n->str,
	    "MFG:Hewlett-Packard;CMD:PJL;MDL:LaserJet 1020;");
	assert_string_equal(summary(&r, &info),
	    "GET_DEVICE_ID: Hewlett-Packard LaserJet 1020");
	for (k = 0; k < sizeof id - 1; k++) {
		q = malloc(k + 1);
		memcpy(q, id, k);
		r.data = q;
		r.data_len = (uint32_t)k;
		t = tree_new(*state);
		dec_class_tree(&r, &info, t);
		in_bounds(t, k);
		if (k > 0)
			summary(&r, &info);
		free(q);
	}
}

#define T(f)	cmocka_unit_test_setup_teardown(f, setup, teardown)

static int
setup(void **state)
{
	*state = calloc(1, sizeof (struct tree));
	return *state == NULL ? -1 : 0;
}

static int
teardown(void **state)
{
	free(*state);
	return 0;
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_descriptor),
		T(test_messages),
		T(test_dfu),
		T(test_printer),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
