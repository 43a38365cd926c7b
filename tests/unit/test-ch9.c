/*
 * tests/unit/test-ch9.c - decode/dec-ch9.c, dec-names.c and dec-tree.c:
 * every standard request's summary, hub, HID and mass storage class
 * requests, the SETUP tree's fields and Wireshark names (checked against
 * tshark 4.0 on tests/data/linux61/usbmon0.bin), the name
 * tables and their fallback, URB status names, error messages, and the
 * tree's storage, arena and value formatting.
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


static void
setup_of(const char *hex, struct dec_setup *s)
{
	uint8_t	 b[8];
	size_t	 i;

	assert_int_equal(strlen(hex), 16);
	for (i = 0; i < 8; i++) {
		unsigned v;

		assert_int_equal(sscanf(hex + 2 * i, "%2x", &v), 1);
		b[i] = (uint8_t)v;
	}
	dec_setup(b, s);
}

/* ------------------------------------------------------------------------
 * dec_setup
 */

static void
test_setup_fields(void **state)
{
	static const uint8_t b[8] = { 0x80, 0x06, 0x02, 0x03, 0x09, 0x04,
	    0xff, 0x00 };
	struct dec_setup s;

	(void)state;
	dec_setup(b, &s);
	assert_int_equal(s.bmRequestType, 0x80);
	assert_int_equal(s.bRequest, 6);
	assert_int_equal(s.wValue, 0x0302);
	assert_int_equal(s.wIndex, 0x0409);
	assert_int_equal(s.wLength, 255);
	assert_true(SETUP_DIR_IN(&s));
	assert_int_equal(SETUP_TYPE(&s), 0);
	assert_int_equal(SETUP_RECIP(&s), 0);

	setup_of("a3000000020004ff", &s);
	assert_true(SETUP_DIR_IN(&s));
	assert_int_equal(SETUP_TYPE(&s), 1);
	assert_int_equal(SETUP_RECIP(&s), 3);
	assert_int_equal(s.wIndex, 2);
	assert_int_equal(s.wLength, 0xff04);
}

/* ------------------------------------------------------------------------
 * Summaries: setup bytes, the class (-1 unknown), the expected line.
 */

struct sum_case {
	const char	*setup;
	int		 cls;
	const char	*want;
};

static void
check_summaries(const struct sum_case *c, size_t n)
{
	struct dec_setup s;
	char	 buf[160];
	size_t	 i;
	int	 len;

	for (i = 0; i < n; i++) {
		setup_of(c[i].setup, &s);
		memset(buf, 'x', sizeof buf);
		len = dec_setup_summary_class(&s, c[i].cls, buf, sizeof buf);
		if (strcmp(buf, c[i].want) != 0)
			print_error("setup %s class %d\n", c[i].setup,
			    c[i].cls);
		assert_string_equal(buf, c[i].want);
		assert_int_equal(len, strlen(c[i].want));
	}
}

static void
test_summary_standard(void **state)
{
	/* Every request of USB 2.0 table 9-4, most from usbmon0.bin. */
	static const struct sum_case c[] = {
		{ "8000000000000200", -1, "GET_STATUS" },
		{ "8100000001000200", -1, "GET_STATUS intf 1" },
		{ "8200000081000200", -1, "GET_STATUS ep 0x81" },
		{ "0201000081000000", -1,
		    "CLEAR_FEATURE ENDPOINT_HALT ep 0x81" },
		{ "0001010000000000", -1,
		    "CLEAR_FEATURE DEVICE_REMOTE_WAKEUP" },
		{ "0101000002000000", -1,
		    "CLEAR_FEATURE FUNCTION_SUSPEND intf 2" },
		{ "0003010000000000", -1, "SET_FEATURE DEVICE_REMOTE_WAKEUP" },
		{ "0003020000040000", -1, "SET_FEATURE TEST_MODE TEST_PACKET" },
		{ "0203000002000000", -1, "SET_FEATURE ENDPOINT_HALT ep 0x02" },
		{ "0005020000000000", -1, "SET_ADDRESS 2" },
		{ "8006000100001200", -1, "GET_DESCRIPTOR DEVICE len 18" },
		{ "8006000100004000", -1, "GET_DESCRIPTOR DEVICE len 64" },
		{ "8006000200000900", -1, "GET_DESCRIPTOR CONFIG 0 len 9" },
		{ "8006000300000400", -1, "GET_DESCRIPTOR STRING 0 len 4" },
		{ "800602030904ff00", -1,
		    "GET_DESCRIPTOR STRING 2 lang 0x0409 len 255" },
		{ "8006000600000a00", -1,
		    "GET_DESCRIPTOR DEVICE_QUALIFIER len 10" },
		{ "8006000700000900", -1,
		    "GET_DESCRIPTOR OTHER_SPEED_CONFIG 0 len 9" },
		{ "8006000a00000400", -1, "GET_DESCRIPTOR DEBUG len 4" },
		{ "8006000f00000500", -1, "GET_DESCRIPTOR BOS len 5" },
		{ "8106002200003f00", 3,
		    "GET_DESCRIPTOR HID_REPORT intf 0 len 63" },
		{ "8106002200004a00", -1,
		    "GET_DESCRIPTOR HID_REPORT intf 0 len 74" },
		{ "8006004200000400", -1,
		    "GET_DESCRIPTOR UNKNOWN (0x42) len 4" },
		{ "0007000100001200", -1, "SET_DESCRIPTOR DEVICE len 18" },
		{ "8008000000000100", -1, "GET_CONFIGURATION" },
		{ "0009010000000000", -1, "SET_CONFIGURATION 1" },
		{ "0009000000000000", -1, "SET_CONFIGURATION 0" },
		{ "810a000001000100", -1, "GET_INTERFACE intf 1" },
		{ "010b020001000000", -1, "SET_INTERFACE intf 1 alt 2" },
		{ "820c000083000200", -1, "SYNCH_FRAME ep 0x83" },
		{ "0030000000000600", -1, "SET_SEL len 6" },
		{ "0031280000000000", -1, "SET_ISOCH_DELAY 40 ns" },
		/* Not a request: the generic form. */
		{ "0063000000000000", -1,
		    "STANDARD req 0x63 idx 0x0000 val 0x0000 len 0" },
		{ "8142000001000000", -1,
		    "STANDARD req 0x42 intf 1 val 0x0000 len 0" },
		{ "e000000000000000", -1,
		    "RESERVED req 0x00 idx 0x0000 val 0x0000 len 0" },
	};

	(void)state;
	check_summaries(c, nitems(c));
}

static void
test_summary_hub(void **state)
{
	/* USB 2.0 table 11-16; the first eleven from usbmon0.bin. */
	static const struct sum_case c[] = {
		{ "a000000000000400", 9, "GET_HUB_STATUS" },
		{ "a300000001000400", 9, "GET_PORT_STATUS port 1" },
		{ "2303080001000000", 9, "SET_FEATURE PORT_POWER port 1" },
		{ "2303040001000000", 9, "SET_FEATURE PORT_RESET port 1" },
		{ "2301100002000000", 9,
		    "CLEAR_FEATURE C_PORT_CONNECTION port 2" },
		{ "2301140001000000", 9, "CLEAR_FEATURE C_PORT_RESET port 1" },
		{ "2301110001000000", 9, "CLEAR_FEATURE C_PORT_ENABLE port 1" },
		{ "2303020001000000", 9, "SET_FEATURE PORT_SUSPEND port 1" },
		{ "2301120001000000", 9,
		    "CLEAR_FEATURE C_PORT_SUSPEND port 1" },
		{ "a006002900000f00", 9, "GET_HUB_DESCRIPTOR len 15" },
		{ "a006002900000d00", 9, "GET_HUB_DESCRIPTOR len 13" },
		{ "a006002a00000c00", 9, "GET_HUB_DESCRIPTOR SS_HUB len 12" },
		{ "2007002900000900", 9, "SET_HUB_DESCRIPTOR len 9" },
		{ "2001010000000000", 9, "CLEAR_FEATURE C_HUB_OVER_CURRENT" },
		{ "2001000000000000", 9, "CLEAR_FEATURE C_HUB_LOCAL_POWER" },
		{ "2303150003010000", 9, "SET_FEATURE PORT_TEST port 3 sel 1" },
		{ "2303160002020000", 9,
		    "SET_FEATURE PORT_INDICATOR port 2 sel 2" },
		{ "2303630001000000", 9, "SET_FEATURE UNKNOWN (0x63) port 1" },
		{ "2308219001000000", 9,
		    "CLEAR_TT_BUFFER dev 2 ep 0x81 bulk port 1" },
		{ "2309000001000000", 9, "RESET_TT port 1" },
		{ "a30a000001000001", 9, "GET_TT_STATE port 1 len 256" },
		{ "230b000001000000", 9, "STOP_TT port 1" },
		{ "200c010000000000", 9, "SET_HUB_DEPTH 1" },
		{ "a30d000002000200", 9, "GET_PORT_ERR_COUNT port 2" },
		{ "a342000001000000", 9,
		    "CLASS req 0x42 idx 0x0001 val 0x0000 len 0" },
		/* Standard requests to a hub stay standard. */
		{ "8006000100001200", 9, "GET_DESCRIPTOR DEVICE len 18" },
		{ "8000000000000200", 9, "GET_STATUS" },
		/* A hub request when nobody says it is a hub. */
		{ "a300000001000400", -1,
		    "CLASS req 0x00 idx 0x0001 val 0x0000 len 4" },
		/* Hub requests go to the device or a port, not interfaces. */
		{ "a100000000000400", 9,
		    "CLASS req 0x00 intf 0 val 0x0000 len 4" },
	};
	struct dec_setup s;
	char	 buf[80];

	(void)state;
	check_summaries(c, nitems(c));
	/* The is_hub forms are the class forms with 0x09 or -1. */
	setup_of("a300000001000400", &s);
	dec_setup_summary(&s, 1, buf, sizeof buf);
	assert_string_equal(buf, "GET_PORT_STATUS port 1");
	dec_setup_summary(&s, 0, buf, sizeof buf);
	assert_string_equal(buf, "CLASS req 0x00 idx 0x0001 val 0x0000 len 4");
}

static void
test_summary_class_vendor(void **state)
{
	static const struct sum_case c[] = {
		/* HID 1.11 7.2; SET_IDLE and SET_REPORT from usbmon0.bin */
		{ "a101000100000800", 3, "GET_REPORT input id 0 intf 0 len 8" },
		{ "a101020302000400", 3,
		    "GET_REPORT feature id 2 intf 2 len 4" },
		{ "a102000000000100", 3, "GET_IDLE id 0 intf 0" },
		{ "a103000000000100", 3, "GET_PROTOCOL intf 0" },
		{ "2109000200000100", 3,
		    "SET_REPORT output id 0 intf 0 len 1" },
		{ "210a000000000000", 3, "SET_IDLE infinite id 0 intf 0" },
		{ "210a007d01000000", 3, "SET_IDLE 500 ms id 0 intf 1" },
		{ "210b000000000000", 3, "SET_PROTOCOL boot intf 0" },
		{ "210b010000000000", 3, "SET_PROTOCOL report intf 0" },
		{ "2142000000000000", 3,
		    "CLASS req 0x42 intf 0 val 0x0000 len 0" },
		/* HID requests are for interfaces only */
		{ "210a000000000000", -1,
		    "CLASS req 0x0a intf 0 val 0x0000 len 0" },
		{ "200a000000000000", 3,
		    "CLASS req 0x0a idx 0x0000 val 0x0000 len 0" },
		/* Mass storage overview table 3; GET_MAX_LUN is real */
		{ "a1fe000000000100", 8, "GET_MAX_LUN intf 0" },
		{ "21ff000000000000", 8, "BULK_ONLY_RESET intf 0" },
		{ "2100000000000c00", 8, "ADSC intf 0 len 12" },
		{ "a1fe000000000100", 3,
		    "CLASS req 0xfe intf 0 val 0x0000 len 1" },
		/* Vendor requests (FTDI, usbmon0.bin), to an endpoint */
		{ "c005000000000200", 0xff,
		    "VENDOR req 0x05 idx 0x0000 val 0x0000 len 2" },
		{ "4002111300040000", -1,
		    "VENDOR req 0x02 idx 0x0400 val 0x1311 len 0" },
		{ "c20a000081000100", -1,
		    "VENDOR req 0x0a ep 0x81 val 0x0000 len 1" },
		{ "c10a000003010100", -1,
		    "VENDOR req 0x0a idx 0x0103 val 0x0000 len 1" },
	};

	(void)state;
	check_summaries(c, nitems(c));
}

static void
test_summary_bounds(void **state)
{
	struct dec_setup s;
	char	 buf[16];
	int	 len;

	(void)state;
	setup_of("800602030904ff00", &s);
	memset(buf, 'x', sizeof buf);
	len = dec_setup_summary(&s, 0, buf, 10);
	assert_int_equal(len, 9);
	assert_string_equal(buf, "GET_DESCR");
	assert_int_equal(buf[10], 'x');		/* nothing past size */

	len = dec_setup_summary(&s, 0, buf, 1);
	assert_int_equal(len, 0);
	assert_string_equal(buf, "");

	buf[0] = 'x';
	len = dec_setup_summary(&s, 0, buf, 0);
	assert_int_equal(len, 0);
	assert_int_equal(buf[0], 'x');

	/* The generic form cut too. */
	setup_of("c005341200000800", &s);
	len = dec_setup_summary(&s, 0, buf, sizeof buf);
	assert_int_equal(len, 15);
	assert_string_equal(buf, "VENDOR req 0x05");
}

static void
test_request_name(void **state)
{
	struct dec_setup s;

	(void)state;
	setup_of("8006000100001200", &s);
	assert_string_equal(dec_request_name(&s, 0), "GET_DESCRIPTOR");
	assert_string_equal(dec_request_name(&s, 1), "GET_DESCRIPTOR");
	setup_of("820c000083000200", &s);
	assert_string_equal(dec_request_name(&s, 0), "SYNCH_FRAME");
	setup_of("0063000000000000", &s);
	assert_null(dec_request_name(&s, 0));

	setup_of("a300000001000400", &s);
	assert_string_equal(dec_request_name(&s, 1), "GET_PORT_STATUS");
	assert_null(dec_request_name(&s, 0));
	setup_of("a000000000000400", &s);
	assert_string_equal(dec_request_name(&s, 1), "GET_HUB_STATUS");
	setup_of("a006002900000f00", &s);
	assert_string_equal(dec_request_name(&s, 1), "GET_HUB_DESCRIPTOR");
	setup_of("2303040001000000", &s);
	assert_string_equal(dec_request_name(&s, 1), "SET_FEATURE");
	setup_of("2308219001000000", &s);
	assert_string_equal(dec_request_name(&s, 1), "CLEAR_TT_BUFFER");

	setup_of("210a000000000000", &s);
	assert_string_equal(dec_request_name_class(&s, 3), "SET_IDLE");
	assert_null(dec_request_name_class(&s, 8));
	assert_null(dec_request_name_class(&s, -1));
	setup_of("a1fe000000000100", &s);
	assert_string_equal(dec_request_name_class(&s, 8), "GET_MAX_LUN");

	setup_of("c005000000000200", &s);
	assert_null(dec_request_name(&s, 1));
	assert_null(dec_request_name_class(&s, 0xff));
}

/* ------------------------------------------------------------------------
 * SETUP trees.
 */

struct tree {
	struct dec_node	 node[64];
	char		 arena[256];
	struct dec_tree	 t;
};

static struct dec_tree *
tree_of(struct tree *tr, const char *hex, int cls)
{
	struct dec_setup s;

	setup_of(hex, &s);
	dec_tree_init(&tr->t, tr->node, nitems(tr->node), tr->arena,
	    sizeof tr->arena);
	dec_setup_tree_class(&s, cls, &tr->t);
	assert_false(tr->t.overflow);
	assert_int_equal(tr->t.depth, 0);
	return &tr->t;
}

/* The node with this Wireshark name, or failure. */
static const struct dec_node *
field(const struct dec_tree *t, const char *abbrev)
{
	size_t	 i;

	for (i = 0; i < t->n; i++) {
		if (t->node[i].f != NULL && t->node[i].f->abbrev != NULL &&
		    strcmp(t->node[i].f->abbrev, abbrev) == 0)
			return &t->node[i];
	}
	print_error("no field %s\n", abbrev);
	fail();
	return NULL;
}

static int
has_field(const struct dec_tree *t, const char *abbrev)
{
	size_t	 i;

	for (i = 0; i < t->n; i++) {
		if (t->node[i].f != NULL && t->node[i].f->abbrev != NULL &&
		    strcmp(t->node[i].f->abbrev, abbrev) == 0)
			return 1;
	}
	return 0;
}

/* The node with this field name (for fields tshark has no name for). */
static const struct dec_node *
named(const struct dec_tree *t, const char *name)
{
	size_t	 i;

	for (i = 0; i < t->n; i++) {
		if (t->node[i].f != NULL &&
		    strcmp(t->node[i].f->name, name) == 0)
			return &t->node[i];
	}
	print_error("no node %s\n", name);
	fail();
	return NULL;
}

static void
check_field(const struct dec_tree *t, const char *abbrev, uint64_t value,
    uint32_t off, uint32_t len, uint8_t depth)
{
	const struct dec_node *n = field(t, abbrev);

	assert_int_equal(n->value, value);
	assert_int_equal(n->buf, DB_SETUP);
	assert_int_equal(n->off, off);
	assert_int_equal(n->len, len);
	assert_int_equal(n->depth, depth);
	assert_int_equal(n->flags, 0);
}

static void
test_tree_get_descriptor(void **state)
{
	struct tree	 tr;
	struct dec_tree	*t;
	char		 v[64];

	(void)state;
	/* usbmon0.bin record 9: tshark shows exactly these fields. */
	t = tree_of(&tr, "800602030904ff00", -1);
	assert_int_equal(t->n, 9);
	check_field(t, "usb.bmRequestType", 0x80, 0, 1, 0);
	check_field(t, "usb.bmRequestType.direction", 1, 0, 1, 1);
	check_field(t, "usb.bmRequestType.type", 0, 0, 1, 1);
	check_field(t, "usb.bmRequestType.recipient", 0, 0, 1, 1);
	check_field(t, "usb.setup.bRequest", 6, 1, 1, 0);
	check_field(t, "usb.DescriptorIndex", 2, 2, 1, 0);
	check_field(t, "usb.bDescriptorType", 3, 3, 1, 0);
	check_field(t, "usb.LanguageId", 0x0409, 4, 2, 0);
	check_field(t, "usb.setup.wLength", 255, 6, 2, 0);
	assert_false(has_field(t, "usb.setup.wValue"));
	assert_false(has_field(t, "usb.setup.wIndex"));

	assert_string_equal(dec_node_value(field(t, "usb.setup.bRequest"), v,
	    sizeof v), "GET_DESCRIPTOR (6)");
	assert_string_equal(dec_node_value(field(t, "usb.bDescriptorType"),
	    v, sizeof v), "STRING (0x03)");
	assert_string_equal(dec_node_value(field(t, "usb.LanguageId"), v,
	    sizeof v), "English (United States) (0x0409)");
	assert_string_equal(dec_node_value(field(t,
	    "usb.bmRequestType.direction"), v, sizeof v),
	    "Device-to-host (1)");

	/* No language: no name for 0. */
	t = tree_of(&tr, "8006000100001200", -1);
	assert_string_equal(dec_node_value(field(t, "usb.LanguageId"), v,
	    sizeof v), "0x0000");

	/* HID report descriptor of a HID interface: usbhid's fields. */
	t = tree_of(&tr, "8106002200003f00", 3);
	check_field(t, "usbhid.descriptor.hid.bDescriptorIndex", 0, 2, 1, 0);
	check_field(t, "usbhid.descriptor.hid.bDescriptorType", 0x22, 3, 1,
	    0);
	check_field(t, "usbhid.descriptor.hid.wInterfaceNumber", 0, 4, 2, 0);
	check_field(t, "usbhid.descriptor.hid.wDescriptorLength", 63, 6, 2,
	    0);
	assert_false(has_field(t, "usb.setup.bRequest"));
	assert_false(has_field(t, "usb.setup.wLength"));
	assert_int_equal(named(t, "bRequest")->value, 6);

	/* The same when the class is unknown: plain, as tshark shows it. */
	t = tree_of(&tr, "8106002200003f00", -1);
	check_field(t, "usb.setup.bRequest", 6, 1, 1, 0);
	check_field(t, "usb.setup.wValue", 0x2200, 2, 2, 0);
	check_field(t, "usb.setup.wIndex", 0, 4, 2, 0);
	check_field(t, "usb.setup.wLength", 63, 6, 2, 0);
	assert_int_equal(named(t, "Descriptor type")->value, 0x22);
	assert_int_equal(named(t, "Descriptor type")->depth, 1);
	assert_false(has_field(t, "usb.DescriptorIndex"));
}

static void
test_tree_standard(void **state)
{
	struct tree	 tr;
	struct dec_tree	*t;
	char		 v[64];

	(void)state;
	t = tree_of(&tr, "0201000081000000", -1);
	check_field(t, "usb.bmRequestType.recipient", 2, 0, 1, 1);
	check_field(t, "usb.setup.wFeatureSelector", 0, 2, 2, 0);
	check_field(t, "usb.setup.wEndpoint", 0x81, 4, 2, 0);
	check_field(t, "usb.setup.wLength", 0, 6, 2, 0);
	assert_string_equal(dec_node_value(field(t,
	    "usb.setup.wFeatureSelector"), v, sizeof v), "ENDPOINT_HALT (0)");

	t = tree_of(&tr, "0003020000040000", -1);
	check_field(t, "usb.setup.wFeatureSelector", 2, 2, 2, 0);
	check_field(t, "usb.setup.wIndex", 0x0400, 4, 2, 0);
	assert_int_equal(named(t, "Test selector")->value, 4);
	assert_int_equal(named(t, "Test selector")->depth, 1);

	t = tree_of(&tr, "0005020000000000", -1);
	check_field(t, "usb.device_address", 2, 2, 2, 0);
	check_field(t, "usb.setup.wIndex", 0, 4, 2, 0);
	assert_false(has_field(t, "usb.setup.wValue"));

	t = tree_of(&tr, "0009010000000000", -1);
	check_field(t, "usb.bConfigurationValue", 1, 2, 1, 0);

	t = tree_of(&tr, "010b020001000000", -1);
	check_field(t, "usb.bAlternateSetting", 2, 2, 2, 0);
	check_field(t, "usb.setup.wInterface", 1, 4, 2, 0);

	t = tree_of(&tr, "8100000001000200", -1);
	check_field(t, "usb.setup.wValue", 0, 2, 2, 0);
	check_field(t, "usb.setup.wInterface", 1, 4, 2, 0);
	check_field(t, "usb.setup.wLength", 2, 6, 2, 0);

	t = tree_of(&tr, "820c000083000200", -1);
	check_field(t, "usb.setup.wEndpoint", 0x83, 4, 2, 0);

	/* Vendor: raw fields, no names. */
	t = tree_of(&tr, "c005341200000800", -1);
	check_field(t, "usb.bmRequestType.type", 2, 0, 1, 1);
	check_field(t, "usb.setup.bRequest", 5, 1, 1, 0);
	check_field(t, "usb.setup.wValue", 0x1234, 2, 2, 0);
	check_field(t, "usb.setup.wLength", 8, 6, 2, 0);
	assert_string_equal(dec_node_value(field(t, "usb.setup.bRequest"), v,
	    sizeof v), "5");
	assert_string_equal(dec_node_value(field(t,
	    "usb.bmRequestType.type"), v, sizeof v), "Vendor (0x02)");

	/* Unknown standard request: names fall back. */
	t = tree_of(&tr, "0063000000000000", -1);
	assert_string_equal(dec_node_value(field(t, "usb.setup.bRequest"), v,
	    sizeof v), "UNKNOWN (99)");
}

static void
test_tree_hub(void **state)
{
	struct tree	 tr;
	struct dec_tree	*t;
	struct dec_setup s;
	char		 v[64];

	(void)state;
	t = tree_of(&tr, "2303040001000000", 9);
	check_field(t, "usbhub.setup.bRequest", 3, 1, 1, 0);
	check_field(t, "usbhub.setup.wValue", 4, 2, 2, 0);
	check_field(t, "usbhub.setup.PortFeatureSelector", 4, 2, 2, 1);
	check_field(t, "usbhub.setup.wIndex", 1, 4, 2, 0);
	check_field(t, "usbhub.setup.Port", 1, 4, 1, 1);
	check_field(t, "usbhub.setup.PortSelector", 0, 5, 1, 1);
	check_field(t, "usbhub.setup.wLength", 0, 6, 2, 0);
	assert_false(has_field(t, "usb.setup.bRequest"));
	assert_string_equal(dec_node_value(field(t,
	    "usbhub.setup.PortFeatureSelector"), v, sizeof v),
	    "PORT_RESET (4)");
	assert_string_equal(dec_node_value(field(t, "usbhub.setup.bRequest"),
	    v, sizeof v), "SET_FEATURE (0x03)");

	t = tree_of(&tr, "2001010000000000", 9);
	check_field(t, "usbhub.setup.HubFeatureSelector", 1, 2, 2, 1);
	assert_false(has_field(t, "usbhub.setup.Port"));

	t = tree_of(&tr, "a300000002000400", 9);
	check_field(t, "usbhub.setup.Port", 2, 4, 2, 1);
	check_field(t, "usbhub.setup.wLength", 4, 6, 2, 0);

	t = tree_of(&tr, "a006002900000f00", 9);
	check_field(t, "usbhub.setup.DescriptorIndex", 0, 2, 1, 1);
	check_field(t, "usbhub.setup.DescriptorType", 0x29, 3, 1, 1);

	t = tree_of(&tr, "2308219001000000", 9);
	check_field(t, "usbhub.setup.EP_Num", 1, 2, 1, 1);
	check_field(t, "usbhub.setup.Dev_Addr", 2, 2, 2, 1);
	check_field(t, "usbhub.setup.TT_Port", 1, 4, 2, 1);
	assert_int_equal(named(t, "EP type")->value, 2);
	assert_int_equal(named(t, "EP direction")->value, 1);

	t = tree_of(&tr, "a30a000001000001", 9);
	check_field(t, "usbhub.setup.TT_Flags", 0, 2, 2, 1);
	check_field(t, "usbhub.setup.TT_Port", 1, 4, 2, 1);

	/* Without the hub: the plain class form. */
	t = tree_of(&tr, "2303040001000000", -1);
	check_field(t, "usb.setup.bRequest", 3, 1, 1, 0);
	assert_false(has_field(t, "usbhub.setup.bRequest"));
	t = tree_of(&tr, "2303040001000000", 0);
	assert_false(has_field(t, "usbhub.setup.bRequest"));

	/* The is_hub form. */
	setup_of("2303040001000000", &s);
	dec_tree_init(&tr.t, tr.node, nitems(tr.node), NULL, 0);
	dec_setup_tree(&s, 1, &tr.t);
	check_field(&tr.t, "usbhub.setup.PortFeatureSelector", 4, 2, 2, 1);
	dec_tree_init(&tr.t, tr.node, nitems(tr.node), NULL, 0);
	dec_setup_tree(&s, 0, &tr.t);
	assert_false(has_field(&tr.t, "usbhub.setup.PortFeatureSelector"));
}

static void
test_tree_hid_msc(void **state)
{
	struct tree	 tr;
	struct dec_tree	*t;
	char		 v[64];

	(void)state;
	t = tree_of(&tr, "2109000200000100", 3);
	check_field(t, "usbhid.setup.bRequest", 9, 1, 1, 0);
	check_field(t, "usbhid.setup.wValue", 0x0200, 2, 2, 0);
	check_field(t, "usbhid.setup.ReportID", 0, 2, 1, 1);
	check_field(t, "usbhid.setup.ReportType", 2, 3, 1, 1);
	check_field(t, "usbhid.setup.wIndex", 0, 4, 2, 0);
	check_field(t, "usbhid.setup.wLength", 1, 6, 2, 0);
	assert_string_equal(dec_node_value(field(t,
	    "usbhid.setup.ReportType"), v, sizeof v), "output (2)");

	t = tree_of(&tr, "210a007d01000000", 3);
	check_field(t, "usbhid.setup.Duration", 125, 3, 1, 1);
	check_field(t, "usbhid.setup.wIndex", 1, 4, 2, 0);

	t = tree_of(&tr, "210b010000000000", 3);
	assert_int_equal(named(t, "Protocol")->value, 1);

	t = tree_of(&tr, "a1fe000000000100", 8);
	check_field(t, "usbms.setup.bRequest", 0xfe, 1, 1, 0);
	check_field(t, "usbms.setup.wValue", 0, 2, 2, 0);
	check_field(t, "usbms.setup.wIndex", 0, 4, 2, 0);
	check_field(t, "usbms.setup.wLength", 1, 6, 2, 0);
	assert_string_equal(dec_node_value(field(t, "usbms.setup.bRequest"),
	    v, sizeof v), "GET_MAX_LUN (0xfe)");
}

static void
test_tree_full(void **state)
{
	struct dec_node	 node[5];
	struct dec_tree	 t;
	struct dec_setup s;
	size_t		 max;

	(void)state;
	/* Every prefix of the storage space: never past it, depth back. */
	setup_of("2303040001000000", &s);
	for (max = 0; max <= nitems(node); max++) {
		dec_tree_init(&t, max ? node : NULL, max, NULL, 0);
		dec_setup_tree_class(&s, 9, &t);
		assert_int_equal(t.n, max);
		assert_true(t.overflow);
		assert_int_equal(t.depth, 0);
	}
}

/* ------------------------------------------------------------------------
 * Names.
 */

static void
test_names(void **state)
{
	static const struct dec_name t[] = {
		{ 0, "ZERO" },
		{ 7, "SEVEN" },
		{ 0xffffffff, "MAX" },
		{ 0, NULL }
	};
	char	 buf[24];

	(void)state;
	assert_string_equal(dec_name_find(t, 0), "ZERO");
	assert_string_equal(dec_name_find(t, 7), "SEVEN");
	assert_string_equal(dec_name_find(t, 0xffffffff), "MAX");
	assert_null(dec_name_find(t, 1));
	assert_null(dec_name_find(NULL, 1));
	assert_string_equal(dec_name_or(t, 7, buf), "SEVEN");
	assert_string_equal(dec_name_or(t, 0x42, buf), "UNKNOWN (0x42)");
	assert_string_equal(dec_name_or(NULL, 0x42, buf), "UNKNOWN (0x42)");
	assert_string_equal(dec_name_or(t, 0x12345678, buf),
	    "UNKNOWN (0x12345678)");

	assert_string_equal(dec_name_find(dec_std_requests, 6),
	    "GET_DESCRIPTOR");
	assert_string_equal(dec_name_find(dec_std_requests, 0), "GET_STATUS");
	assert_null(dec_name_find(dec_std_requests, 2));
	assert_null(dec_name_find(dec_std_requests, 4));
	assert_string_equal(dec_name_find(dec_hub_requests, 11), "STOP_TT");
	assert_string_equal(dec_name_find(dec_desc_types, 0x29), "HUB");
	assert_string_equal(dec_name_find(dec_desc_types, 0x0f), "BOS");
	assert_string_equal(dec_name_find(dec_features, 2), "TEST_MODE");
	assert_string_equal(dec_name_find(dec_hub_features, 0),
	    "PORT_CONNECTION");
	assert_string_equal(dec_name_find(dec_hub_features, 22),
	    "PORT_INDICATOR");
	assert_string_equal(dec_name_find(dec_classes, 0x03), "HID");
	assert_string_equal(dec_name_find(dec_classes, 0xef),
	    "Miscellaneous");
	assert_null(dec_name_find(dec_classes, 0x04));
	assert_string_equal(dec_name_find(dec_xfer_types, XFER_ISO),
	    "isochronous");
	assert_string_equal(dec_name_find(dec_xfer_types, XFER_BULK), "bulk");
	assert_string_equal(dec_name_find(dec_langids, 0x0409),
	    "English (United States)");
	assert_string_equal(dec_name_find(dec_langids, 0x0407),
	    "German (Standard)");
}

/* Tables are sorted where it helps the reader and never repeat a value. */
static void
test_names_unique(void **state)
{
	static const struct dec_name *const tables[] = {
		dec_std_requests, dec_hub_requests, dec_desc_types,
		dec_features, dec_hub_features, dec_classes, dec_xfer_types,
		dec_langids,
	};
	const struct dec_name *a, *b;
	size_t	 i;

	(void)state;
	for (i = 0; i < nitems(tables); i++) {
		for (a = tables[i]; a->name != NULL; a++) {
			assert_true(strlen(a->name) > 0);
			for (b = a + 1; b->name != NULL; b++)
				assert_int_not_equal(a->value, b->value);
		}
	}
}

static void
test_status_names(void **state)
{
	(void)state;
	assert_string_equal(dec_status_name(-32), "-EPIPE");
	assert_string_equal(dec_status_name(-71), "-EPROTO");
	assert_string_equal(dec_status_name(-84), "-EILSEQ");
	assert_string_equal(dec_status_name(-62), "-ETIME");
	assert_string_equal(dec_status_name(-75), "-EOVERFLOW");
	assert_string_equal(dec_status_name(-121), "-EREMOTEIO");
	assert_string_equal(dec_status_name(-19), "-ENODEV");
	assert_string_equal(dec_status_name(-18), "-EXDEV");
	assert_string_equal(dec_status_name(-70), "-ECOMM");
	assert_string_equal(dec_status_name(-63), "-ENOSR");
	assert_string_equal(dec_status_name(-110), "-ETIMEDOUT");
	assert_string_equal(dec_status_name(-108), "-ESHUTDOWN");
	assert_string_equal(dec_status_name(-104), "-ECONNRESET");
	assert_string_equal(dec_status_name(-2), "-ENOENT");
	assert_string_equal(dec_status_name(URB_EINPROGRESS), "-EINPROGRESS");
	assert_string_equal(dec_status_name(-22), "-EINVAL");
	assert_string_equal(dec_status_name(-90), "-EMSGSIZE");
	assert_string_equal(dec_status_name(-28), "-ENOSPC");
	assert_string_equal(dec_status_name(-1), "-EPERM");
	assert_string_equal(dec_status_name(-16), "-EBUSY");
	assert_string_equal(dec_status_name(-113), "-EHOSTUNREACH");
	assert_string_equal(dec_status_name(-8), "-ENOEXEC");
	assert_string_equal(dec_status_name(-11), "-EAGAIN");
	assert_string_equal(dec_status_name(-12), "-ENOMEM");
	assert_string_equal(dec_status_name(-5), "-EIO");
	assert_null(dec_status_name(0));
	assert_null(dec_status_name(32));
	assert_null(dec_status_name(-9999));
	assert_null(dec_status_name(INT32_MIN));
}

static void
test_strerror(void **state)
{
	(void)state;
	assert_string_equal(ue_strerror(0), "success");
	assert_string_equal(ue_strerror(UE_NOMEM), "out of memory");
	assert_string_equal(ue_strerror(-UE_NOMEM), "out of memory");
	assert_string_equal(ue_strerror(-UE_SHORT), "too few bytes");
	assert_string_equal(ue_strerror(-UE_NOTSUP), "not supported");
	assert_string_equal(ue_strerror(UE__COUNT), "unknown error");
	assert_string_equal(ue_strerror(-1000), "unknown error");
	assert_string_equal(ue_strerror(INT32_MAX), "unknown error");
}

/* ------------------------------------------------------------------------
 * The tree: storage, arena, values.
 */

static void
test_tree_storage(void **state)
{
	static const struct dec_field f = { "x", "usb.x", DK_UINT, 1, NULL, 0 };
	struct dec_node	 node[3], *n;
	struct dec_tree	 t;
	char		 arena[12];
	const char	*s;

	(void)state;
	dec_tree_init(&t, node, nitems(node), arena, sizeof arena);
	assert_int_equal(t.n, 0);
	assert_int_equal(t.depth, 0);
	assert_false(t.overflow);

	n = dec_tree_push(&t, "top", DB_DATA, 3, 4);
	assert_non_null(n);
	assert_null(n->f);
	assert_string_equal(n->str, "top");
	assert_int_equal(n->depth, 0);
	assert_int_equal(n->off, 3);
	assert_int_equal(n->len, 4);
	assert_int_equal(n->buf, DB_DATA);
	assert_int_equal(t.depth, 1);
	n = dec_tree_add(&t, &f, DB_SETUP, 1, 2, 77);
	assert_ptr_equal(n->f, &f);
	assert_int_equal(n->value, 77);
	assert_int_equal(n->depth, 1);
	assert_int_equal(n->flags, 0);
	assert_null(n->note);
	assert_null(n->str);
	dec_tree_pop(&t);
	assert_int_equal(t.depth, 0);
	dec_tree_pop(&t);			/* never below 0 */
	assert_int_equal(t.depth, 0);
	assert_non_null(dec_tree_add(&t, &f, DB_NONE, 0, 0, 1));
	assert_false(t.overflow);
	/* Full: NULL, overflow, and push still descends so pop balances. */
	assert_null(dec_tree_push(&t, "lost", DB_NONE, 0, 0));
	assert_true(t.overflow);
	assert_int_equal(t.depth, 1);
	dec_tree_pop(&t);
	assert_int_equal(t.n, 3);

	/* Arena: strdup and printf NUL-terminate, refuse what won't fit. */
	t.overflow = 0;
	s = dec_tree_strdup(&t, "abcdef", 3);
	assert_string_equal(s, "abc");
	assert_int_equal(t.arena_used, 4);
	s = dec_tree_printf(&t, "%d-%s", 42, "xy");
	assert_string_equal(s, "42-xy");
	assert_int_equal(t.arena_used, 10);
	assert_false(t.overflow);
	assert_null(dec_tree_printf(&t, "%s", "toolong"));
	assert_true(t.overflow);
	assert_int_equal(t.arena_used, 10);
	assert_null(dec_tree_strdup(&t, "ab", 2));
	s = dec_tree_strdup(&t, "a", 1);	/* exactly fits */
	assert_string_equal(s, "a");
	assert_int_equal(t.arena_used, 12);
	assert_null(dec_tree_strdup(&t, "", 0));
	assert_null(dec_tree_printf(&t, "%s", ""));

	dec_tree_init(&t, node, nitems(node), NULL, 0);
	assert_null(dec_tree_strdup(&t, "a", 1));
	assert_null(dec_tree_printf(&t, "a"));
	assert_true(t.overflow);
}

static const char *
value_of(const struct dec_field *f, uint64_t v, const char *str)
{
	static char	 buf[64];
	struct dec_node	 n;

	memset(&n, 0, sizeof n);
	n.f = f;
	n.value = v;
	n.str = str;
	n.len = 3;
	return dec_node_value(&n, buf, sizeof buf);
}

static void
test_node_value(void **state)
{
	static const struct dec_name yesno[] = {
		{ 0, "no" }, { 1, "yes" }, { 0, NULL }
	};
	static const struct dec_field hex2 = { "v", NULL, DK_HEX, 2, NULL, 0 };
	static const struct dec_field hex1 = { "v", NULL, DK_HEX, 1, NULL, 0 };
	static const struct dec_field hex0 = { "v", NULL, DK_HEX, 0, NULL, 0 };
	static const struct dec_field hex4 = { "v", NULL, DK_HEX, 4, NULL, 0 };
	static const struct dec_field bcd = { "v", NULL, DK_BCD, 2, NULL, 0 };
	static const struct dec_field uint = { "v", NULL, DK_UINT, 2, NULL,
	    0 };
	static const struct dec_field int1 = { "v", NULL, DK_INT, 1, NULL, 0 };
	static const struct dec_field int4 = { "v", NULL, DK_INT, 4, NULL, 0 };
	static const struct dec_field cls = { "v", NULL, DK_HEX, 1,
	    dec_classes, 0 };
	static const struct dec_field dec = { "v", NULL, DK_UINT, 1, yesno,
	    0 };
	static const struct dec_field bit = { "v", NULL, DK_BOOL, 1, NULL,
	    0x20 };
	static const struct dec_field str = { "v", NULL, DK_STRING, 0, NULL,
	    0 };
	static const struct dec_field bytes = { "v", NULL, DK_BYTES, 0, NULL,
	    0 };
	static const struct dec_field chr = { "v", NULL, DK_CHAR, 1, NULL, 0 };
	static const struct dec_field tim = { "v", NULL, DK_TIME, 8, NULL, 0 };
	static const struct dec_field lbl = { "v", NULL, DK_LABEL, 0, NULL, 0 };
	struct dec_node	 n;
	char		 small[5];

	(void)state;
	assert_string_equal(value_of(&hex2, 0x046d, NULL), "0x046d");
	assert_string_equal(value_of(&hex1, 0x3, NULL), "0x03");
	assert_string_equal(value_of(&hex0, 0x3, NULL), "0x03");
	assert_string_equal(value_of(&hex4, 0x3, NULL), "0x00000003");
	assert_string_equal(value_of(&bcd, 0x0200, NULL), "2.00");
	assert_string_equal(value_of(&bcd, 0x0111, NULL), "1.11");
	assert_string_equal(value_of(&bcd, 0x0001, NULL), "0.01");
	assert_string_equal(value_of(&bcd, 0x1000, NULL), "10.00");
	assert_string_equal(value_of(&uint, 65535, NULL), "65535");
	assert_string_equal(value_of(&int1, 0xff, NULL), "-1");
	assert_string_equal(value_of(&int4, (uint64_t)(int64_t)-115, NULL),
	    "-115");
	assert_string_equal(value_of(&cls, 0x03, NULL), "HID (0x03)");
	assert_string_equal(value_of(&cls, 0x42, NULL), "UNKNOWN (0x42)");
	assert_string_equal(value_of(&dec, 1, NULL), "yes (1)");
	assert_string_equal(value_of(&bit, 1, NULL), "set");
	assert_string_equal(value_of(&bit, 0, NULL), "not set");
	assert_string_equal(value_of(&str, 0, "QEMU"), "\"QEMU\"");
	assert_string_equal(value_of(&str, 0, NULL), "\"\"");
	assert_string_equal(value_of(&bytes, 0, NULL), "3 bytes");
	assert_string_equal(value_of(&bytes, 0, "00ff"), "00ff");
	assert_string_equal(value_of(&chr, 'S', NULL), "'S'");
	assert_string_equal(value_of(&chr, 0, NULL), "0x00");
	assert_string_equal(value_of(&tim, 1500000000, NULL),
	    "1.500000000 s");
	assert_string_equal(value_of(&lbl, 0, "heading"), "heading");
	assert_string_equal(value_of(NULL, 0, "free label"), "free label");
	assert_string_equal(value_of(NULL, 0, NULL), "");

	/* Cut to the buffer, always terminated; size 0 writes nothing. */
	memset(&n, 0, sizeof n);
	n.f = &cls;
	n.value = 3;
	assert_string_equal(dec_node_value(&n, small, sizeof small), "HID ");
	small[0] = 'x';
	dec_node_value(&n, small, 0);
	assert_int_equal(small[0], 'x');
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_setup_fields),
		cmocka_unit_test(test_summary_standard),
		cmocka_unit_test(test_summary_hub),
		cmocka_unit_test(test_summary_class_vendor),
		cmocka_unit_test(test_summary_bounds),
		cmocka_unit_test(test_request_name),
		cmocka_unit_test(test_tree_get_descriptor),
		cmocka_unit_test(test_tree_standard),
		cmocka_unit_test(test_tree_hub),
		cmocka_unit_test(test_tree_hid_msc),
		cmocka_unit_test(test_tree_full),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_names_unique),
		cmocka_unit_test(test_status_names),
		cmocka_unit_test(test_strerror),
		cmocka_unit_test(test_tree_storage),
		cmocka_unit_test(test_node_value),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
