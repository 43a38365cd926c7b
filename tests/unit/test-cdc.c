/*
 * tests/unit/test-cdc.c - decode/dec-cdc.c and dec-hub.c: CDC functional
 * descriptors from the CDC-ACM configuration of samples/usb-fs-acm.pcapng
 * (tests/tools/capgen.c) and from bytes laid out by ECM 1.2 5.4 and NCM
 * 1.0 5.2.1; line coding (PSTN 6.3.10), notifications (PSTN 6.5.4, CDC
 * 6.3.3); hub port and hub status from tests/data/linux61/qemu-usb-hub.pcap
 * (record numbers cited); every truncation, in heap buffers of the exact
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

/* usb-fs-acm.pcapng: GET_DESCRIPTOR(CONFIG) answer, 75 bytes. */
#define ACM_CFG	"09024b000201008032080b000202020100090400000102020100" \
		"05240010010524010001042402020524060001070582030800100904" \
		"0100020a0000000705810240000007050102400000"
/* A configuration with an ECM interface: Header, Union, Ethernet
 * Networking (iMACAddress 3, statistics 0x0000000f, 1514, 0x8003, 2),
 * NCM (1.00, 0x13) and a country selection. */
#define ECM_CFG	"090237000101008032" "090400000102060000" \
		"0524000012" "0524060001" \
		"0d240f030f000000ea05038002" "06241a000113" \
		"0824070109040904"

struct tree {
	struct dec_node	 node[512];
	char		 arena[8192];
	struct dec_tree	 t;
};

static int
setup_tree(void **state)
{
	*state = calloc(1, sizeof (struct tree));
	return *state == NULL ? -1 : 0;
}

static int
teardown_tree(void **state)
{
	free(*state);
	return 0;
}

static struct dec_tree *
tree_new(struct tree *tr)
{
	dec_tree_init(&tr->t, tr->node, 512, tr->arena, sizeof tr->arena);
	tr->t.all_bits = 1;
	return &tr->t;
}

static size_t
unhex(const char *s, uint8_t *out, size_t max)
{
	size_t	 n = 0;
	unsigned v;

	while (s[0] != '\0' && s[1] != '\0' && n < max) {
		sscanf(s, "%2x", &v);
		out[n++] = (uint8_t)v;
		s += 2;
	}
	return n;
}

/* The k-th node (0 = first) whose field is abbrev, or NULL. */
static const struct dec_node *
find(const struct dec_tree *t, const char *abbrev, int k)
{
	size_t	 i;

	for (i = 0; i < t->n; i++) {
		if (t->node[i].f != NULL && t->node[i].f->abbrev != NULL &&
		    strcmp(t->node[i].f->abbrev, abbrev) == 0 && k-- == 0)
			return &t->node[i];
	}
	return NULL;
}

static const struct dec_node *
find_label(const struct dec_tree *t, const char *label)
{
	size_t	 i;

	for (i = 0; i < t->n; i++) {
		if (t->node[i].f == NULL && t->node[i].str != NULL &&
		    strcmp(t->node[i].str, label) == 0)
			return &t->node[i];
	}
	return NULL;
}

static uint64_t
val(const struct dec_tree *t, const char *abbrev, int k)
{
	const struct dec_node *n = find(t, abbrev, k);

	assert_non_null(n);
	return n->value;
}

/* Every node on the data lies inside its k bytes. */
static void
in_bounds(const struct dec_tree *t, size_t k)
{
	size_t	 j;

	for (j = 0; j < t->n; j++) {
		if (t->node[j].buf == DB_DATA)
			assert_true(t->node[j].off + t->node[j].len <= k);
	}
}

static void
test_acm_descriptors(void **state)
{
	struct dec_tree	*t = tree_new(*state);
	uint8_t		 b[128];
	size_t		 n = unhex(ACM_CFG, b, sizeof b);

	assert_int_equal(n, 75);
	dec_desc_tree(b, n, NULL, t);
	assert_non_null(find_label(t, "CS_INTERFACE descriptor: Header"));
	assert_non_null(find_label(t,
	    "CS_INTERFACE descriptor: Call Management"));
	assert_non_null(find_label(t,
	    "CS_INTERFACE descriptor: Abstract Control Management"));
	assert_non_null(find_label(t, "CS_INTERFACE descriptor: Union"));
	assert_int_equal(val(t, "usbcom.descriptor.subtype", 0), 0x00);
	assert_int_equal(val(t, "usbcom.descriptor.cdc", 0), 0x0110);
	assert_int_equal(val(t, "usbcom.descriptor.subtype", 1), 0x01);
	assert_int_equal(val(t, "usbcom.descriptor.cm.data_interface", 0), 1);
	assert_int_equal(val(t, "usbcom.descriptor.capabilities", 1), 0x02);
	assert_int_equal(val(t,
	    "usbcom.descriptor.acm.capabilities.line_and_state", 0), 1);
	assert_int_equal(val(t,
	    "usbcom.descriptor.acm.capabilities.send_break", 0), 0);
	assert_int_equal(val(t, "usbcom.descriptor.control_interface", 0), 0);
	assert_int_equal(val(t, "usbcom.descriptor.subordinate_interface", 0),
	    1);
	assert_null(find(t, "usbcom.descriptor.subordinate_interface", 1));
	assert_null(find(t, "usbcom.descriptor.payload", 0));
}

static void
test_ecm_descriptors(void **state)
{
	struct dec_tree	*t = tree_new(*state);
	uint8_t		 b[128];
	size_t		 n = unhex(ECM_CFG, b, sizeof b);

	assert_int_equal(n, 0x37);
	dec_desc_tree(b, n, NULL, t);
	assert_non_null(find_label(t,
	    "CS_INTERFACE descriptor: Ethernet Networking"));
	assert_int_equal(val(t, "usbcom.descriptor.cdc", 0), 0x1200);
	assert_int_equal(val(t, "usbcom.descriptor.ecm.mac_address", 0), 3);
	assert_int_equal(val(t, "usbcom.descriptor.ecm.eth_stats", 0), 0x0f);
	assert_int_equal(val(t, "usbcom.descriptor.ecm.eth_stats.xmit_ok", 0),
	    1);
	assert_int_equal(val(t,
	    "usbcom.descriptor.ecm.eth_stats.rcv_no_buffer", 0), 0);
	assert_int_equal(val(t, "usbcom.descriptor.ecm.max_segment_size", 0),
	    1514);
	assert_int_equal(val(t,
	    "usbcom.descriptor.ecm.nb_mc_filters.mc_address_filtering", 0), 1);
	assert_int_equal(val(t,
	    "usbcom.descriptor.ecm.nb_mc_filters.nb_filters_supported", 0), 3);
	assert_int_equal(val(t, "usbcom.descriptor.ecm.nb_power_filters", 0),
	    2);
	/* NCM and Country Selection: tshark's payload, decoded below it */
	assert_int_equal(val(t, "usbcom.descriptor.ncm.version", 0), 0x0100);
	assert_int_equal(val(t, "usbcom.descriptor.ncm.network_capabilities",
	    0), 0x13);
	assert_non_null(find(t, "usbcom.descriptor.payload", 1));
	assert_int_equal(val(t, "usbcom.descriptor.country.code", 1), 0x0409);
}

/* Every cut of the two configurations: no over-read, cut fields flagged. */
static void
test_descriptor_truncations(void **state)
{
	static const char *const cfgs[] = { ACM_CFG, ECM_CFG };
	struct dec_tree	*t;
	uint8_t		 b[128], *p;
	size_t		 n, k, i;

	for (i = 0; i < 2; i++) {
		n = unhex(cfgs[i], b, sizeof b);
		for (k = 0; k <= n; k++) {
			assert_non_null(p = malloc(k ? k : 1));
			memcpy(p, b, k);
			t = tree_new(*state);
			dec_desc_tree(p, k, NULL, t);
			in_bounds(t, k);
			free(p);
		}
	}
	/* the ECM descriptor cut inside wMaxSegmentSize */
	n = unhex(ECM_CFG, b, sizeof b);
	t = tree_new(*state);
	assert_non_null(p = malloc(18 + 10 + 9));
	memcpy(p, b, 18 + 10 + 9);
	dec_desc_tree(p, 18 + 10 + 9, NULL, t);
	assert_true(find(t, "usbcom.descriptor.ecm.max_segment_size",
	    0)->flags & DN_CUT);
	assert_null(find(t, "usbcom.descriptor.ecm.nb_power_filters", 0));
	free(p);
}

/* A record of the CDC-ACM's interface 0 (class 2, subclass 2, proto 1). */
static void
cdc_rec(struct urb_rec *r, struct dec_info *info, const uint8_t *setup,
    int type, int xfer, const uint8_t *data, uint32_t len)
{
	memset(r, 0, sizeof *r);
	memset(info, 0, sizeof *info);
	r->type = (uint8_t)type;
	r->xfer_type = (uint8_t)xfer;
	r->epnum = xfer == XFER_INT ? 0x82 : setup != NULL &&
	    (setup[0] & 0x80) ? 0x80 : 0;
	r->data = data;
	r->data_len = len;
	r->len_urb = len;
	info->flags = DI_CLASS;
	info->intf = 0;
	info->cls = 0x02;
	info->subcls = 0x02;
	info->proto = 0x01;
	if (setup != NULL) {
		memcpy(r->setup, setup, 8);
		dec_setup(setup, &info->setup);
		info->flags |= DI_SETUP;
	}
}

static void
summary(const struct urb_rec *r, const struct dec_info *info, char *out,
    size_t size)
{
	struct sbuf	 b = { NULL, 0, 0, 0 };

	out[0] = '\0';
	if (dec_class_summary(r, info, &b) && b.s != NULL)
		snprintf(out, size, "%s", b.s);
	sb_free(&b);
}

static void
test_line_coding(void **state)
{
	/* usb-fs-acm.pcapng record 90: SET_LINE_CODING 115200 8N1 */
	static const uint8_t set[8] = { 0x21, 0x20, 0, 0, 0, 0, 7, 0 };
	static const uint8_t get[8] = { 0xa1, 0x21, 0, 0, 0, 0, 7, 0 };
	static const uint8_t lc[7] = { 0x00, 0xc2, 0x01, 0x00, 0, 0, 8 };
	static const uint8_t lc2[7] = { 0x80, 0x25, 0, 0, 2, 2, 7 };
	struct dec_tree	*t = tree_new(*state);
	struct urb_rec	 r;
	struct dec_info	 info;
	char		 s[128];
	uint8_t		*p;
	uint32_t	 k;

	cdc_rec(&r, &info, set, 'S', XFER_CTRL, lc, 7);
	summary(&r, &info, s, sizeof s);
	assert_string_equal(s, "115200 8N1");
	assert_int_equal(dec_class_tree(&r, &info, t), 1);
	assert_non_null(find(t, "usbcom.control.payload", 0));
	assert_null(find(t, "usbcom.control.response_code", 0));
	assert_int_equal(val(t, "usbcom.line_coding.dte_rate", 0), 115200);
	assert_int_equal(val(t, "usbcom.line_coding.data_bits", 0), 8);
	/* the name of the request and its setup fields */
	dec_setup_summary_class(&info.setup, 0x02, s, sizeof s);
	assert_string_equal(s, "SET_LINE_CODING intf 0");

	/* GET_LINE_CODING: the answer is on the completion */
	t = tree_new(*state);
	cdc_rec(&r, &info, get, 'C', XFER_CTRL, lc2, 7);
	summary(&r, &info, s, sizeof s);
	assert_string_equal(s, "9600 7E2");
	assert_int_equal(dec_class_tree(&r, &info, t), 1);
	assert_int_equal(val(t, "usbcom.control.response_code", 0), 0x21);
	assert_int_equal(val(t, "usbcom.line_coding.char_format", 0), 2);
	assert_int_equal(val(t, "usbcom.line_coding.parity_type", 0), 2);
	/* its submit has no data to decode */
	cdc_rec(&r, &info, get, 'S', XFER_CTRL, lc2, 7);
	assert_int_equal(dec_class_tree(&r, &info, tree_new(*state)), 0);

	/* every cut */
	for (k = 1; k <= 7; k++) {
		assert_non_null(p = malloc(k));
		memcpy(p, lc2, k);
		t = tree_new(*state);
		cdc_rec(&r, &info, get, 'C', XFER_CTRL, p, k);
		summary(&r, &info, s, sizeof s);
		assert_int_equal(dec_class_tree(&r, &info, t), 1);
		if (k < 4)
			assert_true(find(t, "usbcom.line_coding.dte_rate",
			    0)->flags & DN_CUT);
		else if (k < 7)
			assert_true(find(t, k == 4 ?
			    "usbcom.line_coding.char_format" : k == 5 ?
			    "usbcom.line_coding.parity_type" :
			    "usbcom.line_coding.data_bits", 0)->flags & DN_CUT);
		free(p);
	}
}

static void
test_control_lines(void **state)
{
	static const uint8_t lines[8] = { 0x21, 0x22, 1, 0, 0, 0, 0, 0 };
	static const uint8_t brk[8] = { 0x21, 0x23, 0xf4, 0x01, 2, 0, 0, 0 };
	struct dec_setup s;
	char		 out[96];

	(void)state;
	dec_setup(lines, &s);
	dec_setup_summary_class(&s, 0x02, out, sizeof out);
	assert_string_equal(out, "SET_CONTROL_LINE_STATE DTR on RTS off intf 0");
	dec_setup(brk, &s);
	dec_setup_summary_class(&s, 0x02, out, sizeof out);
	assert_string_equal(out, "SEND_BREAK 500 ms intf 2");
}

static void
test_notifications(void **state)
{
	/* PSTN 6.5.4: SERIAL_STATE, DCD and DSR, ring */
	static const uint8_t ss[10] = { 0xa1, 0x20, 0, 0, 0, 0, 2, 0,
	    0x0b, 0x00 };
	/* CDC 6.3.1: NETWORK_CONNECTION connected, interface 1 */
	static const uint8_t nc[8] = { 0xa1, 0x00, 1, 0, 1, 0, 0, 0 };
	/* CDC 6.3.3: CONNECTION_SPEED_CHANGE, 100 Mb/s both ways */
	static const uint8_t cs[16] = { 0xa1, 0x2a, 0, 0, 0, 0, 8, 0,
	    0x00, 0xe1, 0xf5, 0x05, 0x00, 0xe1, 0xf5, 0x05 };
	static const uint8_t *const all[3] = { ss, nc, cs };
	static const uint32_t lens[3] = { 10, 8, 16 };
	struct dec_tree	*t = tree_new(*state);
	struct urb_rec	 r;
	struct dec_info	 info;
	char		 s[128];
	uint8_t		*p;
	uint32_t	 i, k;

	cdc_rec(&r, &info, NULL, 'C', XFER_INT, ss, 10);
	summary(&r, &info, s, sizeof s);
	assert_string_equal(s, "SERIAL_STATE intf 0: DCD, DSR, ring");
	assert_int_equal(dec_class_tree(&r, &info, t), 1);
	assert_int_equal(val(t, "usbcom.interrupt.request_type", 0), 0xa1);
	assert_int_equal(val(t, "usbcom.interrupt.notification_code", 0),
	    0x20);
	/* tshark 4.0 leaves all after bNotification as payload */
	assert_null(find(t, "usbcom.interrupt.value", 0));
	assert_int_equal(find(t, "usbcom.interrupt.payload", 0)->len, 8);
	assert_int_equal(val(t, "usbcom.serial_state", 0), 0x0b);
	assert_int_equal(val(t, "usbcom.serial_state.ring", 0), 1);
	assert_int_equal(val(t, "usbcom.serial_state.break", 0), 0);

	t = tree_new(*state);
	cdc_rec(&r, &info, NULL, 'C', XFER_INT, nc, 8);
	summary(&r, &info, s, sizeof s);
	assert_string_equal(s, "NETWORK_CONNECTION intf 1: connected");
	dec_class_tree(&r, &info, t);
	assert_int_equal(val(t, "usbcom.interrupt.value", 0), 1);
	assert_int_equal(val(t, "usbcom.interrupt.index", 0), 1);
	assert_null(find(t, "usbcom.interrupt.payload", 0));

	t = tree_new(*state);
	cdc_rec(&r, &info, NULL, 'C', XFER_INT, cs, 16);
	summary(&r, &info, s, sizeof s);
	assert_string_equal(s, "CONNECTION_SPEED_CHANGE intf 0: down "
	    "100000000 up 100000000 bit/s");
	dec_class_tree(&r, &info, t);
	assert_int_equal(val(t,
	    "usbcom.interrupt.conn_speed_change.ul_bitrate", 0), 100000000);

	/* every cut of each */
	for (i = 0; i < 3; i++) {
		for (k = 1; k < lens[i]; k++) {
			assert_non_null(p = malloc(k));
			memcpy(p, all[i], k);
			t = tree_new(*state);
			cdc_rec(&r, &info, NULL, 'C', XFER_INT, p, k);
			summary(&r, &info, s, sizeof s);
			assert_int_equal(dec_class_tree(&r, &info, t), 1);
			in_bounds(t, k);
			free(p);
		}
	}
}

static void
test_cdc_data(void **state)
{
	static const uint8_t at[6] = { 'A', 'T', '\r', '\n', 0x01, '"' };
	struct urb_rec	 r;
	struct dec_info	 info;
	char		 s[128];

	(void)state;
	cdc_rec(&r, &info, NULL, 'S', XFER_BULK, at, 6);
	info.cls = 0x0a;
	info.subcls = 0;
	info.proto = 0;
	summary(&r, &info, s, sizeof s);
	assert_string_equal(s, "\"AT\\r\\n\\x01\\\"\"");
}

/* A hub's record: GET_STATUS to port (or to the hub when port is 0). */
static void
hub_rec(struct urb_rec *r, struct dec_info *info, int port,
    const uint8_t *data, uint32_t len)
{
	uint8_t	 setup[8] = { 0xa3, 0x00, 0, 0, 0, 0, 4, 0 };

	if (port == 0)
		setup[0] = 0xa0;
	setup[4] = (uint8_t)port;
	memset(r, 0, sizeof *r);
	memset(info, 0, sizeof *info);
	r->type = 'C';
	r->xfer_type = XFER_CTRL;
	r->epnum = 0x80;
	r->data = data;
	r->data_len = len;
	r->len_urb = len;
	memcpy(r->setup, setup, 8);
	dec_setup(setup, &info->setup);
	info->flags = DI_SETUP | DI_HUB;
	info->intf = -1;
}

static void
test_hub_status(void **state)
{
	/* qemu-usb-hub.pcap record 68: port 1 0x0103, change 0x0012 */
	static const uint8_t ps[4] = { 0x03, 0x01, 0x12, 0x00 };
	/* record 26: GET_HUB_STATUS, all clear */
	static const uint8_t hs[4] = { 0, 0, 0, 0 };
	/* a high-speed device just connected, port 2 */
	static const uint8_t hs2[4] = { 0x03, 0x05, 0x01, 0x00 };
	struct dec_tree	*t = tree_new(*state);
	struct urb_rec	 r;
	struct dec_info	 info;
	char		 s[128];
	uint8_t		*p;
	uint32_t	 k;

	hub_rec(&r, &info, 1, ps, 4);
	summary(&r, &info, s, sizeof s);
	assert_string_equal(s, "port 1: connected, enabled, power; changed: "
	    "enable, reset");
	assert_int_equal(dec_class_tree(&r, &info, t), 1);
	assert_int_equal(val(t, "usbhub.status.port", 0), 0x0103);
	assert_int_equal(val(t, "usbhub.status.port.enable", 0), 1);
	assert_int_equal(val(t, "usbhub.change.port", 0), 0x0012);
	assert_int_equal(val(t, "usbhub.change.port.enable", 0), 1);
	/* tshark 4.0's names: C_PORT_RESET is a second
	 * usbhub.status.port.reset */
	assert_int_equal(val(t, "usbhub.status.port.reset", 0), 0);
	assert_int_equal(val(t, "usbhub.status.port.reset", 1), 1);

	hub_rec(&r, &info, 2, hs2, 4);
	summary(&r, &info, s, sizeof s);
	assert_string_equal(s, "port 2: connected, enabled, power, "
	    "high-speed; changed: connection");

	t = tree_new(*state);
	hub_rec(&r, &info, 0, hs, 4);
	summary(&r, &info, s, sizeof s);
	assert_string_equal(s, "hub: ok");
	assert_int_equal(dec_class_tree(&r, &info, t), 1);
	assert_int_equal(val(t, "usbhub.status.hub", 0), 0);
	assert_null(find(t, "usbhub.status.port", 0));

	for (k = 1; k < 4; k++) {
		assert_non_null(p = malloc(k));
		memcpy(p, ps, k);
		t = tree_new(*state);
		hub_rec(&r, &info, 1, p, k);
		summary(&r, &info, s, sizeof s);
		assert_int_equal(dec_class_tree(&r, &info, t), 1);
		if (k == 1)
			assert_true(find(t, "usbhub.status.port",
			    0)->flags & DN_CUT);
		else if (k == 2)
			assert_null(find(t, "usbhub.change.port", 0));
		else
			assert_true(find(t, "usbhub.change.port",
			    0)->flags & DN_CUT);
		free(p);
	}
}

static void
test_hub_bitmap(void **state)
{
	/* qemu-usb-hub.pcap record 66: port 1 changed */
	static const uint8_t one[2] = { 0x02, 0x00 };
	static const uint8_t many[2] = { 0x0b, 0x01 };
	struct dec_tree	*t = tree_new(*state);
	struct urb_rec	 r;
	struct dec_info	 info;
	char		 s[128];

	memset(&r, 0, sizeof r);
	memset(&info, 0, sizeof info);
	r.type = 'C';
	r.xfer_type = XFER_INT;
	r.epnum = 0x81;
	r.data = one;
	r.data_len = 2;
	info.flags = DI_CLASS;
	info.intf = 0;
	info.cls = 0x09;
	summary(&r, &info, s, sizeof s);
	assert_string_equal(s, "port 1 changed");
	assert_int_equal(dec_class_tree(&r, &info, t), 1);
	assert_int_equal(val(t, "usbhub.change.bitmap.port", 0), 1);
	assert_null(find(t, "usbhub.change.bitmap.port", 1));
	/* tshark shows the bytes as leftover data: so do we */
	assert_non_null(find(t, "usb.capdata", 0));
	r.data = many;
	summary(&r, &info, s, sizeof s);
	assert_string_equal(s, "hub and ports 1, 3, 8 changed");
}

#define T(f)	cmocka_unit_test_setup_teardown(f, setup_tree, teardown_tree)

int
main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_acm_descriptors),
		T(test_ecm_descriptors),
		T(test_descriptor_truncations),
		T(test_line_coding),
		T(test_control_lines),
		T(test_notifications),
		T(test_cdc_data),
		T(test_hub_status),
		T(test_hub_bitmap),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
