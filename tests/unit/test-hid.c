/*
 * tests/unit/test-hid.c - decode/dec-hid.c: the report descriptors of the
 * real QEMU keyboard and tablet (tests/data/linux61, usbmon0.bin record
 * 240 and qemu-usb-tablet.pcap frame 28) as layouts and as items trees
 * with Wireshark's field values; their reports decoded and summed up;
 * boot protocol reports; the descriptor learnt from a real capture; the
 * text a keyboard types; hostile descriptors (every truncation, long
 * items, bad sizes, absurd report sizes and counts, random bytes), in
 * heap buffers of the exact size so that ASan catches any over-read.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "capture/capture.h"
#include "decode/class.h"
#include "decode/decode.h"
#include "tests/unit/tree.h"

/* usbmon0.bin record 240: the QEMU keyboard's report descriptor. */
#define KBD_REPORT	"05010906a10175019508050719e029e71500250181029501" \
			"7508810195057501050819012905910295017503910195" \
			"067508150025ff0507190029ff8100c0"
/* qemu-usb-tablet.pcap frame 28: the QEMU tablet's, 74 bytes. */
#define TABLET_REPORT	"05010902a1010901a10005091901290315002501950375" \
			"018102950175058101050109300931150026ff7f350046ff" \
			"7f751095028102050109381581257f350045007508950181" \
			"06c0c0"
/*
 * A composite keyboard laid out by HID 1.11 appendix E.6 and the HID
 * Usage Tables 15: report 1 a boot-like keyboard, report 2 a Consumer
 * Control with a 16-bit array (2-byte Logical Maximum and Usage Maximum),
 * a Push/Pop around a vendor feature, an extended (4-byte) usage, and a
 * delimited set of which only the first usage counts.
 */
#define COMPOSITE	"05010906a1018501" "050719e029e7150025017501950881" \
			"02" "95017508810395067508150026ff0019002aff0081" \
			"00c0" "050c0901a1018502" "150026ff03" "19002aff03" \
			"75109501" "8100" "a4" "0600ff" "0901" "7508" "9502" \
			"b102" "b4" "0b38020c00" "a901" "0930" "0931" "a900" \
			"150025017501" "95028102" "c0"

struct tree {
	struct dec_node	 node[1024];
	char		 arena[32768];
	struct dec_tree	 t;
};

static struct tree	 tr;

static uint8_t *
unhex(const char *hex, size_t *len)
{
	uint8_t	*p;
	size_t	 i, n = strlen(hex);
	unsigned v;

	assert_int_equal(n % 2, 0);
	*len = n / 2;
	p = malloc(*len > 0 ? *len : 1);
	assert_non_null(p);
	for (i = 0; i < *len; i++) {
		assert_int_equal(sscanf(hex + 2 * i, "%2x", &v), 1);
		p[i] = (uint8_t)v;
	}
	return p;
}

static struct dec_tree *
tree_init(void)
{
	dec_tree_init(&tr.t, tr.node, nitems(tr.node), tr.arena,
	    sizeof tr.arena);
	return &tr.t;
}

/* Every node inside the bytes, depths stepping down by one at most,
 * every value printable. */
static void
check_bounds(const struct dec_tree *t, size_t len)
{
	const struct dec_node *n;
	char	 buf[256];
	size_t	 i;

	for (i = 0; i < t->n; i++) {
		n = &t->node[i];
		assert_int_equal(n->buf, DB_DATA);
		if ((uint64_t)n->off + n->len > len)
			print_error("node %zu (%s) at %u+%u of %zu\n", i,
			    n->f != NULL ? n->f->name : n->str, n->off, n->len,
			    len);
		assert_true((uint64_t)n->off + n->len <= len);
		if (i > 0)
			assert_true(n->depth <= t->node[i - 1].depth + 1);
		if (n->note != NULL)
			assert_true(strlen(n->note) > 0);
		(void)dec_node_value(n, buf, sizeof buf);
	}
}

static const struct dec_node *
nth(const struct dec_tree *t, const char *abbrev, int k)
{
	size_t	 i;

	for (i = 0; i < t->n; i++) {
		if (t->node[i].f != NULL && t->node[i].f->abbrev != NULL &&
		    strcmp(t->node[i].f->abbrev, abbrev) == 0 && k-- == 0)
			return &t->node[i];
	}
	print_error("no field %s #%d\n", abbrev, k);
	fail();
	return NULL;
}

static int
count_abbrev(const struct dec_tree *t, const char *abbrev)
{
	size_t	 i;
	int	 k = 0;

	for (i = 0; i < t->n; i++)
		if (t->node[i].f != NULL && t->node[i].f->abbrev != NULL &&
		    strcmp(t->node[i].f->abbrev, abbrev) == 0)
			k++;
	return k;
}

/* The values of every node of one field, as -T fields prints them. */
static const char *
values(const struct dec_tree *t, const char *abbrev)
{
	static char	 out[2048];
	char		 buf[128];
	size_t		 i, o = 0;

	out[0] = '\0';
	for (i = 0; i < t->n; i++) {
		if (t->node[i].f == NULL || t->node[i].f->abbrev == NULL ||
		    strcmp(t->node[i].f->abbrev, abbrev) != 0)
			continue;
		dec_node_value(&t->node[i], buf, sizeof buf);
		o += (size_t)snprintf(out + o, sizeof out - o, "%s%s",
		    o > 0 ? "," : "", buf);
		assert_true(o < sizeof out);
	}
	return out;
}

static void
parse_hex(const char *hex, struct dec_hid_layout *l)
{
	uint8_t	*p;
	size_t	 n;

	p = unhex(hex, &n);
	dec_hid_layout_parse(p, n, l);
	free(p);
}

static void
rdesc_tree_hex(const char *hex)
{
	uint8_t	*p;
	size_t	 n;

	p = unhex(hex, &n);
	tree_init();
	dec_hid_rdesc_tree(p, n, 0x22, &tr.t);
	assert_false(tr.t.overflow);
	assert_int_equal(tr.t.depth, 0);
	check_bounds(&tr.t, n);
	free(p);
}

/* ------------------------------------------------------------------------
 * Layouts.
 */
static void
test_layout_keyboard(void **state)
{
	static struct dec_hid_layout l;
	const struct dec_hid_field *f;

	(void)state;
	parse_hex(KBD_REPORT, &l);
	assert_int_equal(l.nfields, 5);
	assert_false(l.uses_ids);
	assert_false(l.truncated);
	assert_false(l.bad);
	assert_false(l.incomplete);
	assert_int_equal(l.app, 0x00010006);	/* Generic Desktop Keyboard */

	/* the modifiers: 8 variable bits, LeftControl to Right GUI */
	f = &l.f[0];
	assert_int_equal(f->kind, DEC_HID_INPUT);
	assert_int_equal(f->bit_off, 0);
	assert_int_equal(f->size, 1);
	assert_int_equal(f->count, 8);
	assert_true(f->flags & DEC_HID_VARIABLE);
	assert_int_equal(f->lmin, 0);
	assert_int_equal(f->lmax, 1);
	assert_int_equal(dec_hid_field_nusages(&l, f), 8);
	assert_int_equal(dec_hid_field_usage(&l, f, 0), 0x000700e0);
	assert_int_equal(dec_hid_field_usage(&l, f, 7), 0x000700e7);
	assert_int_equal(f->app, 0x00010006);
	/* the reserved byte: constant, no usages */
	f = &l.f[1];
	assert_int_equal(f->bit_off, 8);
	assert_int_equal(f->size * f->count, 8);
	assert_true(f->flags & DEC_HID_CONSTANT);
	assert_int_equal(dec_hid_field_nusages(&l, f), 0);
	/* the LEDs, an output report of their own */
	f = &l.f[2];
	assert_int_equal(f->kind, DEC_HID_OUTPUT);
	assert_int_equal(f->bit_off, 0);
	assert_int_equal(f->count, 5);
	assert_int_equal(dec_hid_field_usage(&l, f, 1), 0x00080002);
	f = &l.f[3];
	assert_int_equal(f->kind, DEC_HID_OUTPUT);
	assert_int_equal(f->bit_off, 5);
	assert_int_equal(f->size, 3);
	/* the six keys: an array of 0..255, "25 ff" read as hosts read it */
	f = &l.f[4];
	assert_int_equal(f->kind, DEC_HID_INPUT);
	assert_int_equal(f->bit_off, 16);
	assert_int_equal(f->size, 8);
	assert_int_equal(f->count, 6);
	assert_false(f->flags & DEC_HID_VARIABLE);
	assert_int_equal(f->lmin, 0);
	assert_int_equal(f->lmax, 255);
	assert_int_equal(f->lmax_signed, -1);
	assert_int_equal(dec_hid_field_nusages(&l, f), 256);
	assert_int_equal(dec_hid_field_usage(&l, f, 0x0b), 0x0007000b);
	assert_int_equal(f->page, 0x07);
}

static void
test_layout_tablet(void **state)
{
	static struct dec_hid_layout l;
	const struct dec_hid_field *f;

	(void)state;
	parse_hex(TABLET_REPORT, &l);
	assert_int_equal(l.nfields, 4);
	assert_false(l.bad || l.truncated || l.incomplete || l.uses_ids);
	assert_int_equal(l.app, 0x00010002);	/* Generic Desktop Mouse */
	f = &l.f[0];			/* buttons 1-3 */
	assert_int_equal(f->bit_off, 0);
	assert_int_equal(f->count, 3);
	assert_int_equal(dec_hid_field_usage(&l, f, 2), 0x00090003);
	f = &l.f[1];			/* padding to the byte */
	assert_int_equal(f->bit_off, 3);
	assert_int_equal(f->size, 5);
	f = &l.f[2];			/* X, Y: 16 bits, 0..32767 */
	assert_int_equal(f->bit_off, 8);
	assert_int_equal(f->size, 16);
	assert_int_equal(f->count, 2);
	assert_int_equal(f->lmax, 32767);
	assert_int_equal(f->pmax, 32767);
	assert_int_equal(dec_hid_field_usage(&l, f, 0), 0x00010030);
	assert_int_equal(dec_hid_field_usage(&l, f, 1), 0x00010031);
	f = &l.f[3];			/* the wheel: relative, signed */
	assert_int_equal(f->bit_off, 40);
	assert_int_equal(f->lmin, -127);
	assert_int_equal(f->lmax, 127);
	assert_true(f->flags & DEC_HID_RELATIVE);
	assert_int_equal(dec_hid_field_usage(&l, f, 0), 0x00010038);
	assert_int_equal(f->app, 0x00010002);
}

static void
test_layout_composite(void **state)
{
	static struct dec_hid_layout l;
	const struct dec_hid_field *f;
	unsigned i, n2 = 0;

	(void)state;
	parse_hex(COMPOSITE, &l);
	assert_true(l.uses_ids);
	assert_false(l.bad || l.truncated || l.incomplete);
	for (i = 0; i < l.nfields; i++) {
		f = &l.f[i];
		if (f->report_id == 2 && f->kind == DEC_HID_INPUT)
			n2++;
	}
	assert_int_equal(n2, 2);
	/* report 1: modifiers, reserved, keys, its bits from 0 */
	assert_int_equal(l.f[0].report_id, 1);
	assert_int_equal(l.f[0].bit_off, 0);
	assert_int_equal(l.f[2].bit_off, 16);
	assert_int_equal(l.f[2].lmax, 255);
	/* report 2: the consumer array, 16 bits of 0..0x3ff, from 0 */
	f = &l.f[3];
	assert_int_equal(f->report_id, 2);
	assert_int_equal(f->bit_off, 0);
	assert_int_equal(f->size, 16);
	assert_int_equal(f->lmax, 0x3ff);
	assert_int_equal(dec_hid_field_nusages(&l, f), 0x400);
	assert_int_equal(dec_hid_field_usage(&l, f, 0xe9), 0x000c00e9);
	assert_int_equal(f->app, 0x000c0001);
	/* the vendor feature, inside Push/Pop */
	f = &l.f[4];
	assert_int_equal(f->kind, DEC_HID_FEATURE);
	assert_int_equal(f->report_id, 2);
	assert_int_equal(f->size, 8);
	assert_int_equal(f->count, 2);
	assert_int_equal(f->page, 0xff00);
	assert_int_equal(dec_hid_field_usage(&l, f, 0), 0xff000001);
	/* after Pop: the extended usage AC Pan, then of the delimited
	 * set X/Y only X, on the popped page (Consumer) */
	f = &l.f[5];
	assert_int_equal(f->kind, DEC_HID_INPUT);
	assert_int_equal(f->report_id, 2);
	assert_int_equal(f->bit_off, 16);
	assert_int_equal(f->size, 1);
	assert_int_equal(f->count, 2);
	assert_int_equal(f->page, 0x0c);
	assert_int_equal(dec_hid_field_nusages(&l, f), 2);
	assert_int_equal(dec_hid_field_usage(&l, f, 0), 0x000c0238);
	assert_int_equal(dec_hid_field_usage(&l, f, 1), 0x000c0030);
	assert_int_equal(f->lmax, 1);
}

/* ------------------------------------------------------------------------
 * The items tree: tshark 4.0's values for the same bytes (tshark -r
 * qemu-usb-kbd.pcap -T fields -e usbhid.item... frame 28).
 */
static void
test_items_keyboard(void **state)
{
	struct dec_tree	*t = &tr.t;
	const struct dec_node *n;

	(void)state;
	rdesc_tree_hex(KBD_REPORT);
	assert_int_equal(flagged(t, DN_BAD | DN_CUT), 0);
	assert_string_equal(values(t, "usbhid.item.bSize"),
	    "1 byte (1),1 byte (1),1 byte (1),1 byte (1),1 byte (1),"
	    "1 byte (1),1 byte (1),1 byte (1),1 byte (1),1 byte (1),"
	    "1 byte (1),1 byte (1),1 byte (1),1 byte (1),1 byte (1),"
	    "1 byte (1),1 byte (1),1 byte (1),1 byte (1),1 byte (1),"
	    "1 byte (1),1 byte (1),1 byte (1),1 byte (1),1 byte (1),"
	    "1 byte (1),1 byte (1),1 byte (1),1 byte (1),1 byte (1),"
	    "1 byte (1),0 bytes (0)");
	assert_int_equal(count_abbrev(t, "usbhid.item.bTag"), 32);
	assert_int_equal(nth(t, "usbhid.item.bTag", 2)->value, 0x0a);
	assert_int_equal(nth(t, "usbhid.item.bTag", 31)->value, 0x0c);
	assert_int_equal(nth(t, "usbhid.item.bType", 1)->value, 2);
	/* three inputs and two outputs: tshark's readonly 0,1,0,1,0 */
	assert_string_equal(values(t, "usbhid.item.main.readonly"),
	    "Data (0),Constant (1),Data (0),Constant (1),Data (0)");
	assert_string_equal(values(t, "usbhid.item.main.variable"),
	    "Variable (1),Array (0),Variable (1),Array (0),Array (0)");
	assert_int_equal(count_abbrev(t, "usbhid.item.main.reserved"), 3);
	assert_int_equal(count_abbrev(t, "usbhid.item.main.volatile"), 2);
	assert_int_equal(count_abbrev(t, "usbhid.item.main.buffered_bytes"),
	    5);
	n = nth(t, "usbhid.item.main.buffered_bytes", 0);
	assert_int_equal(n->value, 0);
	assert_int_equal(n->len, 0);	/* no second byte */
	assert_string_equal(values(t, "usbhid.item.global.usage"),
	    "Generic Desktop Controls (0x01),Keyboard/Keypad (0x07),"
	    "LED (0x08),Keyboard/Keypad (0x07)");
	assert_string_equal(values(t, "usbhid.item.global.log_max"), "1,-1");
	assert_string_equal(values(t, "usbhid.item.global.report_size"),
	    "1,8,1,3,8");
	assert_string_equal(values(t, "usbhid.item.global.report_count"),
	    "8,1,5,1,6");
	assert_string_equal(values(t, "usbhid.item.local.usage_min"),
	    "0xe0,0x01,0x00");
	assert_string_equal(values(t, "usbhid.item.local.usage_max"),
	    "0xe7,0x05,0xff");
	n = nth(t, "usbhid.item.local.usage", 0);
	assert_string_equal(n->note, "Keyboard");
	assert_string_equal(nth(t, "usbhid.item.local.usage_min", 0)->note,
	    "Keyboard LeftControl");
	assert_string_equal(label(t, "Input", 0)->str,
	    "Input (Data,Var,Abs)");
	assert_string_equal(label(t, "Input", 1)->str,
	    "Input (Const,Array,Abs)");
	assert_string_equal(label(t, "Output", 0)->str,
	    "Output (Data,Var,Abs)");
	assert_string_equal(label(t, "Logical Maximum", 1)->str,
	    "Logical Maximum (-1)");
	assert_string_equal(label(t, "Usage Page", 2)->str,
	    "Usage Page (LED)");
}

static void
test_items_tablet(void **state)
{
	struct dec_tree	*t = &tr.t;

	(void)state;
	rdesc_tree_hex(TABLET_REPORT);
	assert_int_equal(flagged(t, DN_BAD | DN_CUT), 0);
	/* two collections, the physical inside the application */
	assert_int_equal(label(t, "Collection (Application)", 0)->depth, 1);
	assert_int_equal(label(t, "Collection (Physical)", 0)->depth, 2);
	assert_int_equal(label(t, "End Collection", 0)->depth, 3);
	assert_int_equal(label(t, "End Collection", 1)->depth, 2);
	assert_string_equal(values(t, "usbhid.item.main.colltype"),
	    "Application (0x01),Physical (0x00)");
	assert_string_equal(values(t, "usbhid.item.global.log_min"),
	    "0,0,-127");
	assert_string_equal(values(t, "usbhid.item.global.log_max"),
	    "1,32767,127");
	assert_string_equal(values(t, "usbhid.item.global.phy_min"), "0,0");
	assert_string_equal(values(t, "usbhid.item.global.phy_max"),
	    "32767,0");
	assert_string_equal(values(t, "usbhid.item.main.relative"),
	    "Absolute (0),Absolute (0),Absolute (0),Relative (1)");
	assert_string_equal(nth(t, "usbhid.item.local.usage", 2)->note, "X");
	assert_string_equal(nth(t, "usbhid.item.local.usage", 4)->note,
	    "Wheel");
	assert_string_equal(label(t, "Usage Page", 1)->str,
	    "Usage Page (Button)");
	assert_string_equal(label(t, "Input", 3)->str, "Input (Data,Var,Rel)");
}

static void
test_items_odd(void **state)
{
	struct dec_tree	*t = &tr.t;
	const struct dec_node *n;

	(void)state;
	/* 2-byte usage little-endian, 4-byte extended, 2-byte page;
	 * units; unit exponent -1; report ID; Push/Pop without data */
	rdesc_tree_hex("0601ff" "0a3412" "0b38020c00" "6612f1" "550f"
	    "8502" "a4" "b4" "0504" "c0");
	assert_string_equal(values(t, "usbhid.item.local.usage"),
	    "0x1234,0xc0238");
	assert_string_equal(nth(t, "usbhid.item.local.usage", 1)->note,
	    "AC Pan");
	assert_string_equal(nth(t, "usbhid.item.global.usage", 0)->note,
	    "Vendor");
	assert_int_equal(nth(t, "usbhid.item.global.usage", 0)->value,
	    0xff01);
	assert_int_equal(nth(t, "usbhid.item.global.unit.system", 0)->value,
	    2);
	assert_int_equal(nth(t, "usbhid.item.global.unit.length", 0)->value,
	    1);
	assert_int_equal(nth(t, "usbhid.item.global.unit.time", 0)->value,
	    0xf);
	assert_int_equal(nth(t, "usbhid.item.global.unit_exp", 0)->value, 15);
	assert_string_equal(label(t, "Unit Exponent", 0)->str,
	    "Unit Exponent (-1)");
	assert_int_equal(nth(t, "usbhid.item.global.report_id", 0)->value, 2);
	assert_int_equal(count_abbrev(t, "usbhid.item.global.push"), 0);
	assert_string_equal(label(t, "Push", 0)->str, "Push");
	/* the page popped: Sport Controls pushed... */
	assert_string_equal(label(t, "Usage Page (Sport", 0)->str,
	    "Usage Page (Sport Controls)");
	/* an End Collection that closes nothing */
	n = label(t, "End Collection", 0);
	assert_true(n->flags & DN_BAD);
	assert_string_equal(n->note, "closes no collection");

	/* A long item (HID 1.11 6.2.2.3): bDataSize, bLongItemTag, data;
	 * then a collection left open and a reserved type. */
	rdesc_tree_hex("fe03a1010203" "a101" "0c" "c105" "a102");
	assert_int_equal(nth(t, "usbhid.item.bDataSize", 0)->value, 3);
	assert_int_equal(nth(t, "usbhid.item.bLongItemTag", 0)->value, 0xa1);
	n = nth(t, "usbhid.item.data", 0);
	assert_int_equal(n->off, 3);
	assert_int_equal(n->len, 3);
	assert_string_equal(label(t, "Long item", 0)->str, "Long item");
	assert_int_equal(label(t, "Collection (Application)", 0)->flags, 0);
	n = label(t, "Collection (Logical)", 0);
	assert_true(n->flags & DN_BAD);
	assert_string_equal(n->note, "no End Collection");
	/* reserved type 3: tshark's "Unknown/0 tag", data as bytes */
	assert_string_equal(label(t, "Unknown/0 tag", 0)->str,
	    "Unknown/0 tag");
	assert_string_equal(nth(t, "usbhid.item.data", 1)->str, "<MISSING>");
	/* End Collection with a data byte: inside its collection */
	assert_int_equal(label(t, "End Collection", 0)->depth, 2);

	/* An item whose data the buffer cuts: its header and what is
	 * there, flagged. */
	rdesc_tree_hex("0501" "27ffff");
	n = label(t, "Logical Maximum", 0);
	assert_true(n->flags & DN_CUT);
	assert_string_equal(n->note, "cut short: 2 of 4 data bytes");
	assert_int_equal(count_abbrev(t, "usbhid.item.global.log_max"), 0);
	assert_int_equal(nth(t, "usbhid.item.data", 0)->len, 2);
	/* a long item cut inside its header */
	rdesc_tree_hex("fe");
	assert_true(label(t, "Long item", 0)->flags & DN_CUT);
	rdesc_tree_hex("fe05");
	assert_int_equal(nth(t, "usbhid.item.bDataSize", 0)->value, 5);
	assert_true(label(t, "Long item", 0)->flags & DN_CUT);

	/* Items of no data are 0 (HID 1.11 6.2.2.4, 6.2.2.7) */
	rdesc_tree_hex("14" "80" "a0" "c0");
	assert_int_equal(nth(t, "usbhid.item.global.log_min", 0)->len, 0);
	assert_int_equal(nth(t, "usbhid.item.global.log_min", 0)->value, 0);
	assert_string_equal(label(t, "Collection", 0)->str,
	    "Collection (Physical)");
	assert_int_equal(flagged(t, DN_BAD | DN_CUT), 0);

	/* The physical descriptor stays bytes. */
	tree_init();
	dec_hid_rdesc_tree((const uint8_t *)"\x00\x01\x02", 3, 0x23, &tr.t);
	assert_string_equal(tr.t.node[0].str, "HID_PHYSICAL descriptor");
	assert_int_equal(tr.t.n, 2);
}

/* Collections nested deeper than the tree shows: balanced, flagged. */
static void
test_items_deep(void **state)
{
	struct dec_tree	*t = &tr.t;
	char	 hex[2 * 200 + 1];
	size_t	 i;

	(void)state;
	for (i = 0; i < 50; i++)
		memcpy(hex + 4 * i, "a100", 4);
	for (i = 0; i < 50; i++)
		memcpy(hex + 200 + 2 * i, "c0", 2);
	hex[300] = '\0';
	rdesc_tree_hex(hex);
	assert_int_equal(count_abbrev(t, "usbhid.item.bTag"), 100);
	assert_int_equal(flagged(t, DN_BAD), 50 - 24);
	for (i = 0; i < t->n; i++)
		assert_true(t->node[i].depth <= 24 + 3);
}

/* ------------------------------------------------------------------------
 * Reports.
 */
static struct dec_dev	 dev;
static char		 sum[512];

/* The interface 0 of dev, of this class and protocol, has this report
 * descriptor (NULL: none). */
static void
intf(const char *rdesc_hex, uint8_t subcls, uint8_t proto,
    struct dec_info *info)
{
	uint8_t	*p;
	size_t	 n;

	dec_cls_state_free(&dev.cls[0]);
	if (rdesc_hex != NULL) {
		p = unhex(rdesc_hex, &n);
		assert_non_null(dev.cls[0].hid = malloc(sizeof
		    *dev.cls[0].hid));
		if (dec_hid_layout_parse(p, n, dev.cls[0].hid) <= 0) {
			free(dev.cls[0].hid);
			dev.cls[0].hid = NULL;
		}
		free(p);
	}
	memset(info, 0, sizeof *info);
	info->flags = DI_CLASS;
	info->intf = 0;
	info->cls = 0x03;
	info->subcls = subcls;
	info->proto = proto;
	info->st = &dev.cls[0];
}

/* An interrupt completion of hex on ep, through the class decoders:
 * the tree in tr, the summary in sum (or ""). */
static void
report(const struct dec_info *info, uint8_t ep, const char *hex)
{
	struct urb_rec	 r;
	struct sbuf	 b = { 0 };
	uint8_t		*p;
	size_t		 n;

	p = unhex(hex, &n);
	memset(&r, 0, sizeof r);
	r.type = ep & 0x80 ? 'C' : 'S';
	r.xfer_type = XFER_INT;
	r.epnum = ep;
	r.data = p;
	r.data_len = (uint32_t)n;
	r.len_urb = (uint32_t)n;
	tree_init();
	assert_int_equal(dec_class_tree(&r, info, &tr.t), 1);
	assert_int_equal(tr.t.depth, 0);
	check_bounds(&tr.t, n);
	if (dec_class_summary(&r, info, &b)) {
		snprintf(sum, sizeof sum, "%s", b.s);
		assert_true(strlen(sum) < 160);
	} else
		sum[0] = '\0';
	sb_free(&b);
	free(p);
}

static void
test_reports_keyboard(void **state)
{
	struct dec_tree	*t = &tr.t;
	struct dec_info	 info;
	const struct dec_node *n;

	(void)state;
	intf(KBD_REPORT, 1, 1, &info);
	/* LeftShift and h: tshark's fields of such a report */
	report(&info, 0x81, "02000b0000000000");
	assert_string_equal(sum, "keys LShift h");
	n = nth(t, "usbhid.data", 0);
	assert_int_equal(n->len, 8);
	assert_int_equal(flagged(t, DN_BAD | DN_CUT), 0);
	assert_int_equal(count_abbrev(t, "usbhid.data.key.variable"), 8);
	assert_int_equal(nth(t, "usbhid.data.key.variable", 0)->value, 0);
	assert_int_equal(nth(t, "usbhid.data.key.variable", 1)->value, 1);
	assert_string_equal(nth(t, "usbhid.data.key.variable", 1)->note,
	    "LShift, 0xe1");
	n = nth(t, "usbhid.data.padding", 0);
	assert_int_equal(n->off, 1);
	assert_int_equal(n->len, 1);
	n = nth(t, "usbhid.data.array", 0);
	assert_int_equal(n->off, 2);
	assert_int_equal(n->len, 6);
	/* tshark reads "25 ff" as -1: out of range, the value's boolean
	 * (1,0,0,0,0,0 on qemu-usb-kbd.pcap); the name as hosts read it */
	assert_int_equal(count_abbrev(t, "usbhid.data.array.usage"), 6);
	n = nth(t, "usbhid.data.array.usage", 0);
	assert_int_equal(n->value, 1);
	assert_string_equal(n->note, "Keyboard h and H (0x0007, 0x000b)");
	n = nth(t, "usbhid.data.array.usage", 1);
	assert_int_equal(n->value, 0);
	assert_string_equal(n->note,
	    "Reserved (no event indicated) (0x0007, 0x0000)");
	assert_int_equal(n->depth, nth(t, "usbhid.data.array", 0)->depth + 1);

	report(&info, 0x81, "0000000000000000");
	assert_string_equal(sum, "keys released");
	report(&info, 0x81, "1100040516000000");
	assert_string_equal(sum, "keys LCtrl RCtrl a b s");
	report(&info, 0x81, "0000010101010101");
	assert_string_equal(sum, "keys ErrorRollOver ErrorRollOver "
	    "ErrorRollOver ErrorRollOver ErrorRollOver ErrorRollOver");
	/* a short report: the fields that fit, flagged */
	report(&info, 0x81, "0200");
	assert_int_equal(count_abbrev(t, "usbhid.data.key.variable"), 8);
	assert_int_equal(count_abbrev(t, "usbhid.data.array"), 0);
	n = nth(t, "usbhid.data", 0);
	assert_true(n->flags & DN_BAD);
	assert_string_equal(sum, "keys LShift");
	/* the LEDs of an interrupt OUT: the page Wireshark names no
	 * field for, by usage */
	report(&info, 0x02, "02");
	assert_string_equal(sum, "LEDs CapsLock");
	assert_int_equal(count_abbrev(t, "usbhid.item.local.usage"), 5);
	assert_string_equal(nth(t, "usbhid.item.local.usage", 1)->note,
	    "Caps Lock: 1");
	assert_int_equal(nth(t, "usbhid.item.local.usage", 1)->value, 2);
	report(&info, 0x02, "00");
	assert_string_equal(sum, "LEDs none");
	dec_cls_state_free(&dev.cls[0]);
}

static void
test_reports_tablet(void **state)
{
	struct dec_tree	*t = &tr.t;
	struct dec_info	 info;
	const struct dec_node *n;

	(void)state;
	intf(TABLET_REPORT, 0, 0, &info);
	/* qemu-usb-tablet.pcap frame 45 */
	report(&info, 0x81, "000020002000");
	assert_string_equal(sum, "buttons none x 8192 y 8192 wheel 0");
	assert_string_equal(values(t, "usbhid.data.button"),
	    "UP (0),UP (0),UP (0)");
	assert_int_equal(nth(t, "usbhid.data.axis.x", 0)->value, 8192);
	assert_int_equal(nth(t, "usbhid.data.axis.y", 0)->value, 8192);
	n = nth(t, "usbhid.data.axis.y", 0);
	assert_int_equal(n->off, 3);
	assert_int_equal(n->len, 2);
	n = nth(t, "usbhid.item.local.usage", 0);
	assert_int_equal(n->value, 0x38);
	assert_string_equal(n->note, "Wheel: 0");
	/* 5 bits of padding at bit 3: as tshark, the bits' value */
	report(&info, 0x81, "ff0040002000");
	assert_string_equal(nth(t, "usbhid.data.padding", 0)->str, "1f");
	assert_string_equal(sum, "buttons 1+2+3 x 16384 y 8192 wheel 0");
	report(&info, 0x81, "0100400020ff");
	assert_string_equal(sum, "buttons 1 x 16384 y 8192 wheel -1");
	assert_int_equal((int64_t)nth(t, "usbhid.data.axis.x", 0)->value,
	    16384);
	assert_string_equal(nth(t, "usbhid.item.local.usage", 0)->note,
	    "Wheel: -1");
	/* unsigned 16 bits: 0xffff is 65535, as tshark has it */
	report(&info, 0x81, "00ffffffff00");
	assert_int_equal(nth(t, "usbhid.data.axis.x", 0)->value, 65535);
	/* a longer report: the layout's fields, nothing more */
	report(&info, 0x81, "00000000000000aabb");
	assert_int_equal(count_abbrev(t, "usbhid.data.axis.x"), 1);
	assert_int_equal(flagged(t, DN_BAD | DN_CUT), 0);
	dec_cls_state_free(&dev.cls[0]);
}

static void
test_reports_ids(void **state)
{
	struct dec_tree	*t = &tr.t;
	struct dec_info	 info;

	(void)state;
	intf(COMPOSITE, 1, 1, &info);
	report(&info, 0x81, "010200040000000000");
	assert_string_equal(sum, "report 1: keys LShift a");
	assert_int_equal(nth(t, "usbhid.data.report_id", 0)->value, 1);
	assert_int_equal(nth(t, "usbhid.data.report_id", 0)->off, 0);
	/* report 2: Volume Increment (0xe9) in the array, AC Pan */
	report(&info, 0x81, "02e90001");
	assert_string_equal(sum, "report 2: Volume Increment AC Pan=1");
	assert_string_equal(nth(t, "usbhid.data.array.usage", 0)->note,
	    "Volume Increment (0x000c, 0x00e9)");
	report(&info, 0x81, "02000000");
	assert_string_equal(sum, "report 2: all controls 0");
	/* a report the descriptor does not have */
	report(&info, 0x81, "07aabb");
	assert_true(nth(t, "usbhid.data", 0)->flags & DN_BAD);
	assert_string_equal(nth(t, "usbhid.data", 0)->note,
	    "report ID 7 is not in the report descriptor");
	assert_string_equal(sum, "");
	dec_cls_state_free(&dev.cls[0]);
}

/* GET_REPORT answers and SET_REPORT data (HID 1.11 7.2.1, 7.2.2). */
static void
test_reports_control(void **state)
{
	struct dec_tree	*t = &tr.t;
	struct dec_info	 info;
	struct urb_rec	 r;
	struct sbuf	 b = { 0 };
	static const uint8_t led[1] = { 0x01 }, feat[3] = { 0x02, 0x11,
	    0x22 };

	(void)state;
	intf(KBD_REPORT, 1, 1, &info);
	info.flags |= DI_SETUP;
	/* SET_REPORT(Output, 0): the submit carries the LEDs */
	info.setup.bmRequestType = 0x21;
	info.setup.bRequest = 0x09;
	info.setup.wValue = 0x0200;
	info.setup.wLength = 1;
	memset(&r, 0, sizeof r);
	r.type = 'S';
	r.xfer_type = XFER_CTRL;
	r.data = led;
	r.data_len = 1;
	r.len_urb = 1;
	tree_init();
	assert_int_equal(dec_class_tree(&r, &info, t), 1);
	assert_int_equal(count_abbrev(t, "usbhid.data"), 1);
	assert_int_equal(dec_class_summary(&r, &info, &b), 1);
	assert_string_equal(b.s, "LEDs NumLock");
	b.len = 0;
	/* GET_REPORT(Feature, 2) of the composite: its vendor bytes */
	intf(COMPOSITE, 1, 1, &info);
	info.flags |= DI_SETUP;
	info.setup.bmRequestType = 0xa1;
	info.setup.bRequest = 0x01;
	info.setup.wValue = 0x0302;
	r.type = 'C';
	r.epnum = 0x80;
	r.data = feat;
	r.data_len = 3;
	r.len_urb = 3;
	tree_init();
	assert_int_equal(dec_class_tree(&r, &info, t), 1);
	assert_int_equal(count_abbrev(t, "usbhid.data.vendor"), 2);
	assert_int_equal(nth(t, "usbhid.data.vendor", 1)->off, 2);
	assert_int_equal(dec_class_summary(&r, &info, &b), 1);
	assert_string_equal(b.s, "report 2: Vendor=17 Vendor=34");
	/* not a report: GET_IDLE's answer */
	info.setup.bRequest = 0x02;
	tree_init();
	assert_int_equal(dec_class_tree(&r, &info, t), 0);
	sb_free(&b);
	dec_cls_state_free(&dev.cls[0]);
}

/* Boot protocol reports (HID 1.11 B.1, B.2) when no descriptor is
 * known, or after SET_PROTOCOL(Boot). */
static void
test_reports_boot(void **state)
{
	struct dec_tree	*t = &tr.t;
	struct dec_info	 info;

	(void)state;
	intf(NULL, 1, 1, &info);
	report(&info, 0x81, "2000130000000000");
	assert_string_equal(sum, "keys RShift p");
	assert_int_equal(nth(t, "usbhid.boot_report.keyboard.modifier."
	    "right_shift", 0)->value, 1);
	assert_int_equal(nth(t, "usbhid.boot_report.keyboard.keycode_1",
	    0)->value, 0x13);
	assert_string_equal(nth(t, "usbhid.boot_report.keyboard.keycode_1",
	    0)->note, "p");
	report(&info, 0x02, "03");
	assert_string_equal(sum, "LEDs NumLock CapsLock");
	assert_int_equal(nth(t, "usbhid.boot_report.keyboard.leds.caps_lock",
	    0)->value, 1);
	/* a boot mouse without a descriptor nor SET_PROTOCOL(Boot): the
	 * boot layout is a guess (the report protocol is the default) */
	intf(NULL, 1, 2, &info);
	report(&info, 0x81, "03fd0501");
	assert_string_equal(sum, "[guessed] buttons 1+2 x -3 y 5 wheel 1");
	assert_non_null(nth(t, "usbhid.data", 0)->note);
	dev.cls[0].hid_boot = 1;
	report(&info, 0x81, "03fd0501");
	assert_string_equal(sum, "buttons 1+2 x -3 y 5 wheel 1");
	assert_null(nth(t, "usbhid.data", 0)->note);
	assert_int_equal((int64_t)nth(t, "usbhid.boot_report.mouse."
	    "x_displacement", 0)->value, -3);
	assert_int_equal(nth(t, "usbhid.boot_report.mouse.button.right",
	    0)->value, 1);
	/* no descriptor, no boot protocol: the bytes, no summary */
	intf(NULL, 0, 0, &info);
	report(&info, 0x81, "0102");
	assert_int_equal(t->n, 1);
	assert_string_equal(t->node[0].f->abbrev, "usbhid.data");
	assert_string_equal(sum, "");
	/* SET_PROTOCOL(Boot) seen: boot reports despite the descriptor */
	intf(TABLET_REPORT, 1, 2, &info);
	dev.cls[0].hid_boot = 1;
	report(&info, 0x81, "01020304");
	assert_string_equal(sum, "buttons 1 x 2 y 3 wheel 4");
	dec_cls_state_free(&dev.cls[0]);
}

/* --decode-as hid-keyboard or hid-mouse: the boot layout wins over the
 * layout of the descriptor read (a wrong one), and is no guess. */
static void
test_reports_decode_as(void **state)
{
	struct dec_tree	*t = &tr.t;
	struct dec_info	 info;
	uint8_t		 out[8];
	struct urb_rec	 r;
	static const uint8_t keys[8] = { 0x02, 0, 0x0b, 0x0c };

	(void)state;
	/* the keyboard's interface with the tablet's descriptor */
	intf(TABLET_REPORT, 1, 1, &info);
	report(&info, 0x81, "02000b0c00000000");
	assert_string_equal(sum, "buttons 2 x 2816 y 12 wheel 0");
	info.flags |= DI_DECODE_AS;
	report(&info, 0x81, "02000b0c00000000");
	assert_string_equal(sum, "keys LShift h i");
	assert_int_equal(count_abbrev(t, "usbhid.data.axis.x"), 0);
	memset(&r, 0, sizeof r);
	r.type = 'C';
	r.xfer_type = XFER_INT;
	r.epnum = 0x81;
	r.data = keys;
	r.data_len = r.len_urb = 8;
	assert_int_equal(dec_hid_keyboard(&r, &info, out), 1);
	assert_memory_equal(out, keys, 8);
	/* a mouse the user names: the boot layout, not [guessed] */
	intf(KBD_REPORT, 1, 2, &info);
	info.flags |= DI_DECODE_AS;
	report(&info, 0x81, "01fe03");
	assert_string_equal(sum, "buttons 1 x -2 y 3");
	/* a boot keyboard guessed by its reports' shape: the layout of
	 * interface 0 at hand may be another interface's */
	intf(TABLET_REPORT, 1, 1, &info);
	info.flags |= DI_GUESSED;
	report(&info, 0x81, "00000b0000000000");
	assert_string_equal(sum, "keys h");
	dec_cls_state_free(&dev.cls[0]);
}

/* Which reports -T keys reads: a boot keyboard's of 8 bytes, by the
 * layout its keyboard reports; the others a keyboard sent are -1. */
static void
test_keyboard_reports(void **state)
{
	struct dec_info	 info;
	struct urb_rec	 r;
	uint8_t		 out[8], *p;
	size_t		 n;

	(void)state;
	memset(&r, 0, sizeof r);
	r.type = 'C';
	r.xfer_type = XFER_INT;
	r.epnum = 0x81;
	intf(NULL, 1, 1, &info);
	info.flags |= DI_GUESSED;
	p = unhex("03e900", &n);	/* a media key's, report ID 3 */
	r.data = p;
	r.data_len = r.len_urb = (uint32_t)n;
	assert_int_equal(dec_hid_keyboard(&r, &info, out), -1);
	free(p);
	/* by a descriptor with report IDs: report 1 the keys, report 2
	 * consumer controls (not a keyboard's: 0), report 9 unknown */
	intf(COMPOSITE, 0, 0, &info);
	p = unhex("0102000b00000000000000", &n);
	r.data = p;
	r.data_len = r.len_urb = 10;
	assert_int_equal(dec_hid_keyboard(&r, &info, out), 1);
	assert_int_equal(out[0], 0x02);
	assert_int_equal(out[2], 0x0b);
	r.data_len = 5;			/* cut short */
	assert_int_equal(dec_hid_keyboard(&r, &info, out), -1);
	p[0] = 2;
	r.data_len = 3;
	assert_int_equal(dec_hid_keyboard(&r, &info, out), 0);
	p[0] = 9;
	assert_int_equal(dec_hid_keyboard(&r, &info, out), -1);
	free(p);
	/* a consumer control's unknown report is no keyboard's */
	intf("050c0901a1018502150026ff0319002aff03751095018100c0", 0, 0,
	    &info);
	p = unhex("090000", &n);
	r.data = p;
	r.data_len = r.len_urb = (uint32_t)n;
	assert_int_equal(dec_hid_keyboard(&r, &info, out), 0);
	free(p);
	dec_cls_state_free(&dev.cls[0]);
}

/* The length of a layout's input reports, by report ID. */
static void
test_layout_fits(void **state)
{
	static struct dec_hid_layout l;
	static const uint8_t k8[8], r1[10] = { 1 }, r2[4] = { 2 },
	    r3[4] = { 3 };

	(void)state;
	parse_hex(KBD_REPORT, &l);
	assert_true(dec_hid_layout_fits(&l, k8, 8));
	assert_false(dec_hid_layout_fits(&l, k8, 7));
	assert_false(dec_hid_layout_fits(&l, k8, 0));
	parse_hex(COMPOSITE, &l);
	assert_true(dec_hid_layout_fits(&l, r1, 9));
	assert_false(dec_hid_layout_fits(&l, r1, 10));
	/* report 2: a 16-bit usage and 2 bits */
	assert_true(dec_hid_layout_fits(&l, r2, 4));
	assert_false(dec_hid_layout_fits(&l, r2, 3));
	assert_false(dec_hid_layout_fits(&l, r3, 4));
	assert_false(dec_hid_layout_fits(NULL, k8, 8));
}

/* ------------------------------------------------------------------------
 * Learning, from the real captures: GET_DESCRIPTOR(HID_REPORT)'s answer
 * reaches the HID decoder with its interface, which keeps the bytes;
 * the reports after it are read by them.
 */
static void
learn_from(const char *path, const char *rdesc_hex, uint8_t devnum,
    uint64_t frame, const char *want)
{
	struct cap_source *src;
	struct dec_ctx	*ctx = dec_ctx_new();
	const struct dec_dev *d;
	struct drv_event ev;
	struct urb_rec	 r;
	struct dec_info	 info;
	struct sbuf	 b = { 0 };
	char		 err[256];
	struct dec_hid_layout l;
	uint8_t		*p;
	size_t		 n;
	int		 got = 0;

	assert_non_null(ctx);
	if (cap_open(path, &src, err, sizeof err) != 0)
		fail_msg("%s", err);
	while (cap_next(src, &r, &ev) == CAP_URB) {
		assert_int_equal(dec_analyze(ctx, &r, &info), 0);
		if (urb_frame(&r) != frame)
			continue;
		assert_int_equal(dec_class_summary(&r, &info, &b), 1);
		assert_string_equal(b.s, want);
		got = 1;
	}
	assert_true(got);
	d = dec_ctx_device(ctx, 0, devnum);
	assert_non_null(d);
	/* the layout kept is the descriptor's */
	p = unhex(rdesc_hex, &n);
	assert_non_null(d->cls[0].hid);
	assert_true(dec_hid_layout_parse(p, n, &l) > 0);
	assert_int_equal(d->cls[0].hid->nfields, l.nfields);
	assert_memory_equal(d->cls[0].hid->f, l.f,
	    l.nfields * sizeof l.f[0]);
	free(p);
	sb_free(&b);
	cap_close(src);
	dec_ctx_free(ctx);
}

/* One record through ctx: the summary of its class data into sum. */
static void
analyze(struct dec_ctx *ctx, struct dec_info *info, uint64_t id, char type,
    uint8_t xfer, uint8_t ep, const uint8_t *setup, const char *hex)
{
	static uint64_t	 recno;
	struct urb_rec	 r;
	struct sbuf	 b = { 0 };
	uint8_t		*p = NULL;
	size_t		 n = 0;

	memset(&r, 0, sizeof r);
	r.recno = ++recno;
	r.id = id;
	r.type = type;
	r.xfer_type = xfer;
	r.epnum = ep;
	r.devnum = 7;
	r.busnum = 1;
	r.flag_setup = '-';
	if (setup != NULL) {
		r.flag_setup = 0;
		memcpy(r.setup, setup, 8);
	}
	if (hex != NULL) {
		p = unhex(hex, &n);
		r.data = p;
		r.data_len = r.len_urb = (uint32_t)n;
	}
	assert_int_equal(dec_analyze(ctx, &r, info), 0);
	sum[0] = '\0';
	if (dec_class_summary(&r, info, &b))
		snprintf(sum, sizeof sum, "%s", b.s);
	sb_free(&b);
	free(p);
}

/*
 * A composite device's report descriptors, read in a capture that holds
 * no configuration (it started after the enumeration, as usbhid was
 * bound): each layout goes to the interface its request's wIndex names,
 * the second (interface 0's) not replacing the first; an interrupt
 * endpoint is then guessed to be the interface whose input reports have
 * its reports' length.
 */
static void
test_learn_by_windex(void **state)
{
	static const uint8_t get1[8] = { 0x81, 0x06, 0x00, 0x22, 1, 0, 25,
					 0 };
	static const uint8_t get0[8] = { 0x81, 0x06, 0x00, 0x22, 0, 0, 63,
					 0 };
	static const char cc[] = "050c0901a101150026ff0319002aff0375109501"
	    "8100c0";
	struct dec_ctx	*ctx = dec_ctx_new();
	const struct dec_dev *d;
	struct dec_info	 info;

	(void)state;
	assert_non_null(ctx);
	analyze(ctx, &info, 1, 'S', XFER_CTRL, 0x80, get1, NULL);
	analyze(ctx, &info, 1, 'C', XFER_CTRL, 0x80, NULL, cc);
	analyze(ctx, &info, 2, 'S', XFER_CTRL, 0x80, get0, NULL);
	analyze(ctx, &info, 2, 'C', XFER_CTRL, 0x80, NULL, KBD_REPORT);
	d = dec_ctx_device(ctx, 1, 7);
	assert_non_null(d);
	assert_non_null(d->cls[0].hid);
	assert_non_null(d->cls[1].hid);
	assert_int_equal(d->cls[0].hid->nfields, 5);
	assert_int_equal(d->cls[1].hid->nfields, 1);
	assert_int_equal(d->cls[1].hid->app, 0x000c0001);
	/* the consumer control's endpoint first, then the keyboard's */
	analyze(ctx, &info, 3, 'C', XFER_INT, 0x82, NULL, "e900");
	assert_true(info.flags & DI_GUESSED);
	assert_int_equal(info.intf, 1);
	assert_string_equal(sum, "Volume Increment");
	analyze(ctx, &info, 4, 'C', XFER_INT, 0x81, NULL, "00000b0c00000000");
	assert_true(info.flags & DI_GUESSED);
	assert_int_equal(info.intf, 0);
	assert_string_equal(sum, "keys h i");
	/* a report of a length no layout has: not guessed from them */
	analyze(ctx, &info, 5, 'C', XFER_INT, 0x83, NULL, "0102030405");
	assert_false(info.flags & DI_CLASS);
	dec_ctx_free(ctx);
}

static void
test_learn(void **state)
{
	(void)state;
	learn_from("tests/data/linux61/qemu-usb-kbd.pcap", KBD_REPORT, 3, 45,
	    "keys u");
	learn_from("tests/data/linux61/qemu-usb-tablet.pcap", TABLET_REPORT,
	    4, 47, "buttons none x 16384 y 16384 wheel 0");
}

/* ------------------------------------------------------------------------
 * Typed text.
 */
static void
test_keys_text(void **state)
{
	/* "Hello, World!" and Enter, each key pressed and released */
	static const uint8_t seq[][8] = {
		{ 0x02, 0, 0x0b }, { 0 },		/* H */
		{ 0, 0, 0x08 }, { 0 },			/* e */
		{ 0, 0, 0x0f }, { 0 },			/* l */
		{ 0, 0, 0x0f }, { 0 },			/* l */
		{ 0, 0, 0x12 }, { 0 },			/* o */
		{ 0, 0, 0x36 }, { 0 },			/* , */
		{ 0, 0, 0x2c }, { 0 },			/* space */
		{ 0x20, 0, 0x1a }, { 0x20 }, { 0 },	/* W, shift held */
		{ 0, 0, 0x12 },				/* o, r rolled: */
		{ 0, 0, 0x12, 0x15 }, { 0, 0, 0x15 }, { 0 },
		{ 0, 0, 0x0f }, { 0 },			/* l */
		{ 0, 0, 0x07 }, { 0 },			/* d */
		{ 0x02, 0, 0x1e }, { 0 },		/* ! */
		{ 0, 0, 0x28 }, { 0 },			/* Enter */
	};
	struct sbuf	 b = { 0 };
	size_t		 i;
	int		 n = 0;

	(void)state;
	for (i = 0; i < nitems(seq); i++)
		n += dec_hid_keys_text(i > 0 ? seq[i - 1] : NULL, seq[i],
		    NULL, &b);
	assert_string_equal(b.s, "Hello, World!\n");
	assert_int_equal(n, 14);
	b.len = 0;
	/* Backspace, Tab, keypad digits, Ctrl+C, symbols with shift */
	{
		static const uint8_t a[8] = { 0, 0, 0x2a, 0x2b, 0x59, 0x62 };
		static const uint8_t c[8] = { 0x01, 0, 0x06 };
		static const uint8_t s[8] = { 0x20, 0, 0x2d, 0x34, 0x38 };
		static const uint8_t roll[8] = { 0, 0, 1, 1, 1, 1, 1, 1 };

		assert_int_equal(dec_hid_keys_text(NULL, a, NULL, &b), 4);
		assert_int_equal(dec_hid_keys_text(a, c, NULL, &b), 1);
		assert_int_equal(dec_hid_keys_text(NULL, s, NULL, &b), 3);
		/* held keys type nothing again */
		assert_int_equal(dec_hid_keys_text(s, s, NULL, &b), 0);
		assert_int_equal(dec_hid_keys_text(NULL, roll, NULL, &b), 0);
		assert_int_equal(dec_hid_keys_text(NULL, NULL, NULL, &b), 0);
	}
	assert_string_equal(b.s, "<Backspace>\t10^C_\"?");
	/* the keys that type no character, by name; the lock keys and
	 * modifier usages in the key array type nothing */
	b.len = 0;
	{
		static const uint8_t e[8] = { 0, 0, 0x50, 0x4f, 0x52, 0x51 };
		static const uint8_t f[8] = { 0, 0, 0x4a, 0x4d, 0x4c, 0x49 };
		static const uint8_t g[8] = { 0, 0, 0x4b, 0x4e, 0x29, 0x3a };
		static const uint8_t h[8] = { 0, 0, 0x53, 0x47, 0xe1, 0x04 };

		assert_int_equal(dec_hid_keys_text(NULL, e, NULL, &b), 4);
		assert_int_equal(dec_hid_keys_text(NULL, f, NULL, &b), 4);
		assert_int_equal(dec_hid_keys_text(NULL, g, NULL, &b), 4);
		assert_int_equal(dec_hid_keys_text(NULL, h, NULL, &b), 1);
	}
	assert_string_equal(b.s, "<Left><Right><Up><Down><Home><End>"
	    "<Delete><Insert><PageUp><PageDown><Esc><F1>a");
	/* Caps Lock, when kept: letters upper case, Shift lower, digits
	 * as they were; pressed again, off */
	b.len = 0;
	{
		static const uint8_t seq2[][8] = {
			{ 0, 0, 0x39 }, { 0 },		/* Caps Lock on */
			{ 0, 0, 0x04 }, { 0 },		/* A */
			{ 0x02, 0, 0x05 }, { 0 },	/* Shift: b */
			{ 0, 0, 0x1e }, { 0 },		/* 1 */
			{ 0, 0, 0x39 }, { 0 },		/* off */
			{ 0, 0, 0x06 }, { 0 },		/* c */
		};
		int	 caps = 0;

		for (i = 0; i < nitems(seq2); i++)
			(void)dec_hid_keys_text(i > 0 ? seq2[i - 1] : NULL,
			    seq2[i], &caps, &b);
		assert_string_equal(b.s, "Ab1c");
		assert_int_equal(caps, 0);
	}
	sb_free(&b);
}

/* Keys, one pressed and let go after another, through a dec_keys. */
static const char *
typed(int mode, const uint8_t (*seq)[2], size_t n)
{
	static char	 out[256];
	struct dec_keys	 k;
	uint8_t		 rep[8];
	size_t		 i;

	memset(&k, 0, sizeof k);
	k.mode = mode;
	for (i = 0; i < n; i++) {
		memset(rep, 0, sizeof rep);
		rep[0] = seq[i][0];
		rep[2] = seq[i][1];
		assert_int_equal(dec_keys_report(&k, rep), 1);
		memset(rep, 0, sizeof rep);
		assert_int_equal(dec_keys_report(&k, rep), 0);
	}
	snprintf(out, sizeof out, "%s", k.text.s != NULL ? k.text.s : "");
	assert_true(k.cur <= k.text.len);
	sb_free(&k.text);
	return out;
}

static void
test_keys_edit(void **state)
{
	/* capgen hid-ctf's: "flag{usb_kyes}", mended, Enter, "tset",
	 * three Backspaces, "est" */
	static const uint8_t ctf[][2] = {
		{ 0, 0x09 }, { 0, 0x0f }, { 0, 0x04 }, { 0, 0x0a },
		{ 0x02, 0x2f }, { 0, 0x18 }, { 0, 0x16 }, { 0, 0x05 },
		{ 0x20, 0x2d }, { 0, 0x0e }, { 0, 0x1c }, { 0, 0x08 },
		{ 0, 0x16 }, { 0x02, 0x30 },
		{ 0, 0x50 }, { 0, 0x50 }, { 0, 0x50 }, { 0, 0x50 },
		{ 0, 0x4c }, { 0, 0x4f }, { 0, 0x1c }, { 0, 0x4d },
		{ 0, 0x28 },
		{ 0, 0x17 }, { 0, 0x16 }, { 0, 0x08 }, { 0, 0x17 },
		{ 0, 0x2a }, { 0, 0x2a }, { 0, 0x2a },
		{ 0, 0x08 }, { 0, 0x16 }, { 0, 0x17 },
	};
	/* "ab" Enter "cdef", Up (to column 2 of "ab": its end), "X",
	 * Down (column 3 of "cdef"), "Y", Home, Insert, "Z" over "c",
	 * Page Up, Delete ("a"), Left at the start, Page Down, Backspace
	 * ("f"), F5 by name; then the keys at the ends of the text */
	static const uint8_t ed[][2] = {
		{ 0, 0x04 }, { 0, 0x05 }, { 0, 0x28 }, { 0, 0x06 },
		{ 0, 0x07 }, { 0, 0x08 }, { 0, 0x09 }, { 0, 0x52 },
		{ 0x02, 0x1b }, { 0, 0x51 }, { 0x02, 0x1c }, { 0, 0x4a },
		{ 0, 0x49 }, { 0x02, 0x1d }, { 0, 0x4b }, { 0, 0x4c },
		{ 0, 0x50 }, { 0, 0x4e }, { 0, 0x2a }, { 0, 0x3e },
	};
	static const uint8_t bs[][2] = {
		{ 0, 0x04 }, { 0, 0x2a }, { 0, 0x2a }, { 0, 0x50 },
		{ 0, 0x4c }, { 0, 0x51 }, { 0, 0x52 }, { 0, 0x05 },
	};

	(void)state;
	assert_string_equal(typed(DEC_KEYS_EDIT, ctf, nitems(ctf)),
	    "flag{usb_keys}\ntest");
	assert_string_equal(typed(DEC_KEYS_NAMES, ctf, nitems(ctf)),
	    "flag{usb_kyes}<Left><Left><Left><Left><Delete><Right>y<End>\n"
	    "tset<Backspace><Backspace><Backspace>est");
	assert_string_equal(typed(DEC_KEYS_EDIT, ed, nitems(ed)),
	    "bX\nZdeY<F5>");
	assert_string_equal(typed(DEC_KEYS_EDIT, bs, nitems(bs)), "b");
}

/* ------------------------------------------------------------------------
 * Hostile descriptors and reports: no over-read, no hang, bounded.
 */
static void
layout_and_tree(const uint8_t *p, size_t n)
{
	static struct dec_hid_layout l;
	struct dec_info	 info;
	struct urb_rec	 r;
	struct sbuf	 b = { 0 };
	static uint8_t	 rep[64];
	uint8_t		*q;
	size_t		 k;

	dec_hid_layout_parse(p, n, &l);
	assert_true(l.nfields <= DEC_HID_MAX_FIELDS);
	assert_true(l.nusages <= DEC_HID_MAX_USAGES);
	tree_init();
	dec_hid_rdesc_tree(p, n, 0x22, &tr.t);
	assert_int_equal(tr.t.depth, 0);
	check_bounds(&tr.t, n);
	/* and reports of every length up to 12 by it, in exact buffers */
	memset(&info, 0, sizeof info);
	dec_cls_state_free(&dev.cls[0]);
	if (l.nfields > 0) {
		dev.cls[0].hid = malloc(sizeof l);
		assert_non_null(dev.cls[0].hid);
		memcpy(dev.cls[0].hid, &l, sizeof l);
	}
	info.flags = DI_CLASS;
	info.cls = 3;
	info.subcls = 1;
	info.proto = (uint8_t)(n % 3);
	info.st = &dev.cls[0];
	for (k = 1; k <= 12; k++) {
		q = malloc(k);
		assert_non_null(q);
		memcpy(q, rep, k);
		memset(&r, 0, sizeof r);
		r.type = 'C';
		r.xfer_type = XFER_INT;
		r.epnum = k % 2 ? 0x81 : 0x01;
		r.data = q;
		r.data_len = (uint32_t)k;
		r.len_urb = (uint32_t)k;
		tree_init();
		(void)dec_class_tree(&r, &info, &tr.t);
		check_bounds(&tr.t, k);
		b.len = 0;
		(void)dec_class_summary(&r, &info, &b);
		free(q);
		rep[k % sizeof rep] = (uint8_t)(rep[k % sizeof rep] * 7 + 0x5b);
	}
	sb_free(&b);
	dec_cls_state_free(&dev.cls[0]);
}

static void
test_truncations(void **state)
{
	const char *const descs[] = { KBD_REPORT, TABLET_REPORT, COMPOSITE };
	uint8_t	*p, *q;
	size_t	 n, k, i;

	(void)state;
	for (i = 0; i < nitems(descs); i++) {
		p = unhex(descs[i], &n);
		for (k = 0; k <= n; k++) {
			q = malloc(k > 0 ? k : 1);
			assert_non_null(q);
			memcpy(q, p, k);
			layout_and_tree(q, k);
			free(q);
		}
		free(p);
	}
}

static void
test_absurd(void **state)
{
	struct dec_tree	*t = &tr.t;
	static struct dec_hid_layout l;
	struct dec_info	 info;

	(void)state;
	/* Report Size and Count of 2^32-1: the layout bounds the bits */
	parse_hex("0501" "0930" "1500" "27ffffffff" "77ffffffff" "97ffffffff"
	    "8102" "0931" "7508" "9501" "8102", &l);
	assert_int_equal(l.nfields, 2);
	assert_true(l.bad);
	assert_true(l.f[1].bit_off <= (uint64_t)1 << 40);
	layout_and_tree((const uint8_t *)"\x05\x01\x09\x30\x15\x00\x27\xff"
	    "\xff\xff\xff\x77\xff\xff\xff\xff\x97\xff\xff\xff\xff\x81\x02", 23);
	/* a 40-bit control: no value, its usage shown */
	intf("0501" "0930" "7528" "9501" "8102", 0, 0, &info);
	report(&info, 0x81, "0102030405");
	assert_int_equal(count_abbrev(t, "usbhid.item.local.usage"), 1);
	assert_string_equal(nth(t, "usbhid.item.local.usage", 0)->note, "X");
	/* a 1-bit array of 100000 entries in a short report */
	intf("0509" "1901" "2903" "7501" "97a0860100" "8100", 0, 0, &info);
	report(&info, 0x81, "ff");
	assert_true(nth(t, "usbhid.data", 0)->flags & DN_BAD);
	/* more fields than kept: truncated, noted */
	{
		char	 hex[2 * 3 * 200 + 64];
		size_t	 i;

		strcpy(hex, "05097501950119012901");
		for (i = 0; i < 200; i++)
			strcat(hex, "8102");
		parse_hex(hex, &l);
		assert_int_equal(l.nfields, DEC_HID_MAX_FIELDS);
		assert_true(l.truncated);
		intf(hex, 0, 0, &info);
		report(&info, 0x81, "ffffffffffffffffffffffffffffffffffff");
		assert_string_equal(nth(t, "usbhid.data", 0)->note,
		    "layout truncated: the descriptor has more fields than "
		    "urbscope keeps");
	}
	/* Push without Pop, Pop without Push, 9 Pushes */
	parse_hex("b4" "a4a4a4a4a4a4a4a4a4" "0501" "c0", &l);
	assert_true(l.bad);
	dec_cls_state_free(&dev.cls[0]);
}

/* Random descriptors (a fixed seed): whatever they are, no over-read. */
static void
test_random(void **state)
{
	uint32_t x = 0x2545f491;
	uint8_t	*p;
	size_t	 n, i, k;

	(void)state;
	for (k = 0; k < 300; k++) {
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		n = x % 96;
		p = malloc(n > 0 ? n : 1);
		assert_non_null(p);
		for (i = 0; i < n; i++) {
			x ^= x << 13;
			x ^= x >> 17;
			x ^= x << 5;
			/* mostly items HID devices use, some noise */
			p[i] = x % 4 == 0 ? (uint8_t)(x >> 8) : (uint8_t)
			    "\x05\x09\x19\x29\x15\x25\x75\x95\x81\x91\xb1\xa1"
			    "\xc0\x85\xa4\xb4\x01\x02\x08\x03"[(x >> 8) % 20];
		}
		layout_and_tree(p, n);
		free(p);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_layout_keyboard),
		cmocka_unit_test(test_layout_tablet),
		cmocka_unit_test(test_layout_composite),
		cmocka_unit_test(test_items_keyboard),
		cmocka_unit_test(test_items_tablet),
		cmocka_unit_test(test_items_odd),
		cmocka_unit_test(test_items_deep),
		cmocka_unit_test(test_reports_keyboard),
		cmocka_unit_test(test_reports_tablet),
		cmocka_unit_test(test_reports_ids),
		cmocka_unit_test(test_reports_control),
		cmocka_unit_test(test_reports_boot),
		cmocka_unit_test(test_learn),
		cmocka_unit_test(test_learn_by_windex),
		cmocka_unit_test(test_keys_text),
		cmocka_unit_test(test_keys_edit),
		cmocka_unit_test(test_reports_decode_as),
		cmocka_unit_test(test_keyboard_reports),
		cmocka_unit_test(test_layout_fits),
		cmocka_unit_test(test_truncations),
		cmocka_unit_test(test_absurd),
		cmocka_unit_test(test_random),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
