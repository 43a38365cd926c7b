/*
 * tests/unit/test-desc.c - decode/dec-desc.c: every descriptor type from
 * real bytes (tests/data/linux61/usbmon0.bin, record numbers cited; the
 * same devices as tests/fixtures/sysfs/lsusb-v.txt) or, for what QEMU's
 * devices do not have (BOS, SuperSpeed), from bytes laid out by the USB
 * specifications; the configuration hierarchy; every truncation point and
 * every bad bLength of a configuration, in heap buffers of the exact size
 * so that ASan catches any over-read; summaries; UTF-16 conversion.
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
#include "tests/unit/tree.h"


/* usbmon0.bin record 120: the BOT disk's device descriptor. */
#define DISK_DEV	"1201000200000040f4460100000001020301"
/* record 124: its configuration, 32 bytes. */
#define DISK_CFG	"09022000010105c0000904000002080650000705810200" \
			"020007050202000200"
/* record 218: the keyboard's device descriptor. */
#define KBD_DEV		"120100020000004027060100000001040b01"
/* record 222: its configuration, 34 bytes, with the HID descriptor. */
#define KBD_CFG		"09022200010108a032090400000103010100092111010001" \
			"223f0007058103080007"
/* record 240: its HID report descriptor, 63 bytes. */
#define KBD_REPORT	"05010906a10175019508050719e029e71500250181029501" \
			"7508810195057501050819012905910295017503910195" \
			"067508150025ff0507190029ff8100c0"
/* record 370: the UAS disk's configuration: pipe usage after endpoints. */
#define UAS_CFG		"09023e00010104c00009040000040806620007050102000200" \
			"04240100070582020002000424020007058302000200042403" \
			"000705040200020004240400"
/* record 290: the FTDI serial adapter's configuration (vendor class). */
#define FTDI_CFG	"09022000010100a0320904000002ffffff0007058102400000" \
			"07050202400000"
/* record 830: the disk's device qualifier. */
#define DISK_QUAL	"0a060002000000080100"
/* record 8: LANGIDs; record 10: iProduct of the EHCI root hub. */
#define LANGIDS		"04030904"
#define EHCI_PRODUCT	"2a034500480043004900200048006f0073007400200043006f" \
			"006e00740072006f006c006c0065007200"
/* record 18: the EHCI root hub's hub descriptor, asked with wLength 15. */
#define EHCI_HUB	"0929060a000a0000ff000000000000"
/* record 748: QEMU's 8-port hub: one byte short of USB 2.0 11.23.2.1. */
#define QEMU_HUB	"0a29080a0001000000ff"

/*
 * A SuperSpeed configuration laid out by USB 3.2 9.6: a BOT interface with
 * two bulk endpoints and their companions (MaxStreams 0, 4), an interface
 * association, and an audio streaming interface whose alternate setting 1
 * has a class descriptor and an isochronous 9-byte audio endpoint with a
 * companion (Mult 2).
 */
#define SS_CFG		"09025c000201008070" "090400000208065000" \
			"07058102000400" "06300f000000" \
			"07050202000400" "06300f040000" \
			"080b010101020000" \
			"090401000001020000" "090401010101020000" \
			"07240101010100" \
			"090583050004040000" "06300002000c"

/*
 * A BOS laid out by USB 3.2 9.6.2, as a USB 3.0 disk has it: USB 2.0
 * extension with LPM, SuperSpeed (FS, HS, 5 Gbps; U1 10 us, U2 2047 us).
 */
#define BOS22		"050f160002" "07100202000000" \
			"0a1003000e00010aff07"
/* The same with a container ID. */
#define BOS42		"050f2a0003" "07100202000000" \
			"0a1003000e00010aff07" \
			"141004000011223344556677" "8899aabbccddeeff"

struct tree {
	struct dec_node	 node[512];
	char		 arena[8192];
	struct dec_tree	 t;
};

/* Bytes of a hex string, in a heap buffer of exactly that size. */
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

static struct dec_setup
req_of(const char *hex)
{
	struct dec_setup s;
	uint8_t	*p;
	size_t	 n;

	p = unhex(hex, &n);
	assert_int_equal(n, 8);
	dec_setup(p, &s);
	free(p);
	return s;
}

static struct dec_tree *
tree_init(struct tree *tr)
{
	dec_tree_init(&tr->t, tr->node, nitems(tr->node), tr->arena,
	    sizeof tr->arena);
	return &tr->t;
}

/*
 * What every tree must hold: nodes point inside the data (the formatters
 * read the bytes of DK_BYTES nodes through off/len), depths never jump
 * down by more than one, bit fields sit on their parent's bytes.
 */
static void
check_bounds(const struct dec_tree *t, size_t len, uint8_t depth0)
{
	const struct dec_node *n;
	size_t	 i;

	for (i = 0; i < t->n; i++) {
		n = &t->node[i];
		assert_int_equal(n->buf, DB_DATA);
		if ((uint64_t)n->off + n->len > len)
			print_error("node %zu (%s) at %u+%u of %zu\n", i,
			    n->f != NULL ? n->f->name : n->str, n->off, n->len,
			    len);
		assert_true((uint64_t)n->off + n->len <= len);
		assert_true(n->depth >= depth0);
		if (i > 0)
			assert_true(n->depth <= t->node[i - 1].depth + 1);
		else
			assert_int_equal(n->depth, depth0);
		if (n->note != NULL)
			assert_true(strlen(n->note) > 0);
	}
}

/* Decode hex (as answer to req, or NULL) into tr; returns the count. */
static int
decode(struct tree *tr, const char *hex, const char *req)
{
	struct dec_setup s;
	uint8_t	*p;
	size_t	 n;
	int	 count;

	if (req != NULL)
		s = req_of(req);
	p = unhex(hex, &n);
	tree_init(tr);
	count = dec_desc_tree(p, n, req != NULL ? &s : NULL, &tr->t);
	free(p);
	assert_false(tr->t.overflow);
	assert_int_equal(tr->t.depth, 0);
	check_bounds(&tr->t, n, 0);
	return count;
}

static const char *
summary(const char *hex, const char *req)
{
	static char	 buf[128];
	struct dec_setup s;
	uint8_t		*p;
	size_t		 n;
	int		 len;

	if (req != NULL)
		s = req_of(req);
	p = unhex(hex, &n);
	len = dec_desc_summary(p, n, n, req != NULL ? &s : NULL, buf,
	    sizeof buf);
	free(p);
	assert_int_equal(len, strlen(buf));
	return buf;
}

/* The nth (0-based) node with this Wireshark name, or NULL. */
static const struct dec_node *
nth(const struct dec_tree *t, const char *abbrev, int k)
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
field(const struct dec_tree *t, const char *abbrev)
{
	const struct dec_node *n = nth(t, abbrev, 0);

	if (n == NULL) {
		print_error("no field %s\n", abbrev);
		fail();
	}
	return n;
}

static int
count_abbrev(const struct dec_tree *t, const char *abbrev)
{
	int	 k = 0;

	while (nth(t, abbrev, k) != NULL)
		k++;
	return k;
}

/* The nth node with this field name (fields tshark has no name for). */
static const struct dec_node *
named(const struct dec_tree *t, const char *name, int k)
{
	size_t	 i;

	for (i = 0; i < t->n; i++) {
		if (t->node[i].f != NULL &&
		    strcmp(t->node[i].f->name, name) == 0 && k-- == 0)
			return &t->node[i];
	}
	print_error("no node %s\n", name);
	fail();
	return NULL;
}

static void
check(const struct dec_tree *t, const char *abbrev, uint64_t value,
    uint32_t off, uint32_t len)
{
	const struct dec_node *n = field(t, abbrev);

	if (n->value != value)
		print_error("%s\n", abbrev);
	assert_int_equal(n->value, value);
	assert_int_equal(n->buf, DB_DATA);
	assert_int_equal(n->off, off);
	assert_int_equal(n->len, len);
}

static const char *
value(const struct dec_node *n)
{
	static char buf[128];

	return dec_node_value(n, buf, sizeof buf);
}

static int	 decode_bytes(struct tree *, const uint8_t *, size_t,
		    const struct dec_setup *);

/* ------------------------------------------------------------------------
 * Device, configuration hierarchies.
 */

static void
test_device(void **state)
{
	struct tree	*tr = *state;
	struct dec_tree	*t = &tr->t;

	assert_int_equal(decode(tr, DISK_DEV, "8006000100001200"), 1);
	assert_string_equal(t->node[0].str, "DEVICE descriptor");
	assert_int_equal(t->node[0].depth, 0);
	assert_int_equal(t->node[0].off, 0);
	assert_int_equal(t->node[0].len, 18);
	check(t, "usb.bLength", 18, 0, 1);
	check(t, "usb.bDescriptorType", 1, 1, 1);
	check(t, "usb.bcdUSB", 0x0200, 2, 2);
	check(t, "usb.bDeviceClass", 0, 4, 1);
	check(t, "usb.bDeviceSubClass", 0, 5, 1);
	check(t, "usb.bDeviceProtocol", 0, 6, 1);
	check(t, "usb.bMaxPacketSize0", 64, 7, 1);
	check(t, "usb.idVendor", 0x46f4, 8, 2);
	check(t, "usb.idProduct", 0x0001, 10, 2);
	check(t, "usb.bcdDevice", 0x0000, 12, 2);
	check(t, "usb.iManufacturer", 1, 14, 1);
	check(t, "usb.iProduct", 2, 15, 1);
	check(t, "usb.iSerialNumber", 3, 16, 1);
	check(t, "usb.bNumConfigurations", 1, 17, 1);
	assert_int_equal(field(t, "usb.idVendor")->depth, 1);
	assert_string_equal(value(field(t, "usb.idVendor")), "0x46f4");
	assert_string_equal(value(field(t, "usb.bcdUSB")), "2.00");
	assert_string_equal(value(field(t, "usb.bDeviceClass")),
	    "Per-interface (0x00)");
	assert_string_equal(value(field(t, "usb.bDescriptorType")),
	    "DEVICE (0x01)");
	assert_int_equal(flagged(t, DN_BAD | DN_CUT), 0);
	assert_string_equal(summary(DISK_DEV, "8006000100001200"),
	    "DEVICE 46f4:0001 class 0 mps 64 cfgs 1");

	decode(tr, KBD_DEV, NULL);
	check(t, "usb.idVendor", 0x0627, 8, 2);
	check(t, "usb.iProduct", 4, 15, 1);
	check(t, "usb.iSerialNumber", 11, 16, 1);
	/* The EHCI root hub (record 2). */
	assert_string_equal(summary("12010002090000406b1d0200010603020101",
	    NULL), "DEVICE 1d6b:0002 class 9 mps 64 cfgs 1");
}

static void
test_device_short(void **state)
{
	struct tree	*tr = *state;
	struct dec_tree	*t = &tr->t;

	/* Linux's first read asks 64; an 8-byte ep0 answers 8. */
	assert_int_equal(decode(tr, "1201000200000008", "8006000100004000"),
	    1);
	assert_true(t->node[0].flags & DN_CUT);
	assert_false(t->node[0].flags & DN_BAD);
	check(t, "usb.bMaxPacketSize0", 8, 7, 1);
	assert_null(nth(t, "usb.idVendor", 0));
	assert_string_equal(summary("1201000200000008", "8006000100004000"),
	    "DEVICE mps 8 [cut: 8 of 18 bytes]");

	/* The old scheme asks for 8: nothing is wrong. */
	decode(tr, "1201000200000008", "8006000100000800");
	assert_int_equal(flagged(t, DN_BAD | DN_CUT), 0);
	assert_non_null(t->node[0].note);

	/* bMaxPacketSize0 7 is not a USB 2.0 value. */
	decode(tr, "120100020000000746f40100000001020301", NULL);
	assert_true(field(t, "usb.bMaxPacketSize0")->flags & DN_BAD);
	/* 9 is 512 for USB 3. */
	decode(tr, "120100030000000946f40100000001020301", NULL);
	assert_int_equal(flagged(t, DN_BAD | DN_CUT), 0);

	/* A configuration where the device was asked for. */
	decode(tr, DISK_CFG, "8006000100001200");
	assert_true(t->node[0].flags & DN_BAD);
	/* Bytes after the one descriptor asked for: shown, not bad. */
	assert_int_equal(decode(tr, DISK_DEV "0000", "8006000100004000"), 1);
	assert_int_equal(flagged(t, DN_BAD | DN_CUT), 0);
	assert_string_equal(named(t, "trailing bytes", 0)->note,
	    "bytes after the descriptor");
	assert_int_equal(named(t, "trailing bytes", 0)->off, 18);
	assert_int_equal(named(t, "trailing bytes", 0)->len, 2);
}

static void
test_config_disk(void **state)
{
	struct tree	*tr = *state;
	struct dec_tree	*t = &tr->t;
	const struct dec_node *n;

	assert_int_equal(decode(tr, DISK_CFG, "8006000200002000"), 4);
	assert_int_equal(flagged(t, DN_BAD | DN_CUT), 0);
	assert_string_equal(t->node[0].str, "CONFIG descriptor");
	check(t, "usb.wTotalLength", 32, 2, 2);
	check(t, "usb.bNumInterfaces", 1, 4, 1);
	check(t, "usb.bConfigurationValue", 1, 5, 1);
	check(t, "usb.iConfiguration", 5, 6, 1);
	check(t, "usb.configuration.bmAttributes", 0xc0, 7, 1);
	check(t, "usb.configuration.legacy10buspowered", 1, 7, 1);
	check(t, "usb.configuration.selfpowered", 1, 7, 1);
	check(t, "usb.configuration.remotewakeup", 0, 7, 1);
	check(t, "usb.bMaxPower", 0, 8, 1);
	assert_int_equal(field(t, "usb.configuration.selfpowered")->depth, 2);
	assert_string_equal(value(field(t, "usb.configuration.selfpowered")),
	    "set");

	n = label(t, "INTERFACE", 0);
	assert_string_equal(n->str, "INTERFACE 0 alt 0: Mass Storage");
	assert_int_equal(n->depth, 1);
	assert_int_equal(n->off, 9);
	assert_int_equal(n->len, 9);
	check(t, "usb.bInterfaceClass", 8, 14, 1);
	check(t, "usb.bInterfaceSubClass", 6, 15, 1);
	check(t, "usb.bInterfaceProtocol", 0x50, 16, 1);
	assert_string_equal(value(field(t, "usb.bInterfaceProtocol")),
	    "Bulk-Only (0x50)");
	assert_int_equal(field(t, "usb.bInterfaceClass")->depth, 2);

	n = label(t, "ENDPOINT", 0);
	assert_string_equal(n->str, "ENDPOINT 0x81 IN Bulk");
	assert_int_equal(n->depth, 2);
	assert_string_equal(label(t, "ENDPOINT", 1)->str,
	    "ENDPOINT 0x02 OUT Bulk");
	assert_int_equal(count_abbrev(t, "usb.bEndpointAddress"), 2);
	assert_int_equal(nth(t, "usb.bEndpointAddress", 0)->value, 0x81);
	assert_int_equal(nth(t, "usb.bEndpointAddress.direction", 0)->value,
	    1);
	assert_int_equal(nth(t, "usb.bEndpointAddress.number", 0)->value, 1);
	assert_int_equal(nth(t, "usb.bEndpointAddress", 1)->value, 0x02);
	assert_int_equal(nth(t, "usb.bEndpointAddress.direction", 1)->value,
	    0);
	assert_int_equal(nth(t, "usb.bmAttributes.transfer", 1)->value, 2);
	assert_int_equal(nth(t, "usb.wMaxPacketSize", 1)->value, 512);
	assert_int_equal(nth(t, "usb.wMaxPacketSize.size", 1)->value, 512);
	assert_int_equal(nth(t, "usb.wMaxPacketSize", 1)->depth, 3);
	/* Bulk: no transactions per microframe, no ISO bits (as tshark). */
	assert_int_equal(count_abbrev(t, "usb.wMaxPacketSize.slots"), 0);
	assert_int_equal(count_abbrev(t, "usb.bmAttributes.sync"), 0);
	assert_int_equal(count_abbrev(t, "usb.bLength"), 4);
	assert_string_equal(summary(DISK_CFG, "8006000200002000"),
	    "CONFIG 1 intf 1 total 32");
}

static void
test_config_keyboard(void **state)
{
	struct tree	*tr = *state;
	struct dec_tree	*t = &tr->t;
	const struct dec_node *n;

	assert_int_equal(decode(tr, KBD_CFG, "8006000200002200"), 4);
	assert_int_equal(flagged(t, DN_BAD | DN_CUT), 0);
	check(t, "usb.bMaxPower", 50, 8, 1);
	assert_int_equal(named(t, "Max power (mA, 2 mA units)", 0)->value,
	    100);
	assert_string_equal(label(t, "INTERFACE", 0)->str,
	    "INTERFACE 0 alt 0: HID");
	assert_string_equal(value(field(t, "usb.bInterfaceSubClass")),
	    "Boot Interface (0x01)");
	assert_string_equal(value(field(t, "usb.bInterfaceProtocol")),
	    "Keyboard (0x01)");

	n = label(t, "HID descriptor", 0);
	assert_int_equal(n->depth, 2);
	assert_int_equal(n->off, 18);
	check(t, "usbhid.descriptor.hid.bcdHID", 0x0111, 20, 2);
	check(t, "usbhid.descriptor.hid.bCountryCode", 0, 22, 1);
	check(t, "usbhid.descriptor.hid.bNumDescriptors", 1, 23, 1);
	check(t, "usbhid.descriptor.hid.bDescriptorType", 0x22, 24, 1);
	check(t, "usbhid.descriptor.hid.wDescriptorLength", 63, 25, 2);
	assert_string_equal(value(field(t, "usbhid.descriptor.hid.bcdHID")),
	    "1.11");
	assert_int_equal(nth(t, "usb.bLength", 2)->depth, 3);

	n = label(t, "ENDPOINT", 0);
	assert_string_equal(n->str, "ENDPOINT 0x81 IN Interrupt");
	assert_int_equal(n->depth, 2);
	check(t, "usb.bmAttributes.transfer", 3, 30, 1);
	check(t, "usb.wMaxPacketSize", 8, 31, 2);
	check(t, "usb.wMaxPacketSize.slots", 0, 31, 2);
	check(t, "usb.wMaxPacketSize.size", 8, 31, 2);
	check(t, "usb.bInterval", 7, 33, 1);
	assert_string_equal(summary(KBD_CFG, "8006000200002200"),
	    "CONFIG 1 intf 1 total 34");
}

static void
test_config_uas_ftdi(void **state)
{
	struct tree	*tr = *state;
	struct dec_tree	*t = &tr->t;
	const struct dec_node *n;
	int	 i;

	/* UAS: each pipe usage descriptor nests under its endpoint. */
	assert_int_equal(decode(tr, UAS_CFG, "8006000200003e00"), 10);
	assert_int_equal(flagged(t, DN_BAD | DN_CUT), 0);
	check(t, "usb.bNumEndpoints", 4, 13, 1);
	assert_int_equal(count_abbrev(t, "usb.bEndpointAddress"), 4);
	for (i = 0; i < 4; i++) {
		n = label(t, "CS_INTERFACE descriptor", i);
		assert_int_equal(n->depth, 3);
		assert_int_equal(n->len, 4);
		assert_int_equal(n->off, 25 + 11 * i);
		assert_int_equal(label(t, "ENDPOINT", i)->depth, 2);
	}
	n = named(t, "data", 3);
	assert_int_equal(n->off, 60);
	assert_int_equal(n->len, 2);
	assert_int_equal(n->f->kind, DK_BYTES);
	assert_int_equal(nth(t, "usb.bDescriptorType", 9)->value, 0x24);
	assert_string_equal(value(field(t, "usb.bInterfaceProtocol")),
	    "UAS (0x62)");

	/* FTDI: vendor class, full-speed bulk. */
	assert_int_equal(decode(tr, FTDI_CFG, NULL), 4);
	assert_int_equal(flagged(t, DN_BAD | DN_CUT), 0);
	assert_string_equal(label(t, "INTERFACE", 0)->str,
	    "INTERFACE 0 alt 0: Vendor Specific");
	assert_int_equal(nth(t, "usb.wMaxPacketSize", 0)->value, 64);
	assert_string_equal(value(field(t, "usb.bInterfaceSubClass")),
	    "0xff");
}

static void
test_config_superspeed(void **state)
{
	struct tree	*tr = *state;
	struct dec_tree	*t = &tr->t;
	const struct dec_node *n;
	uint8_t		*p;
	size_t		 len;

	p = unhex(SS_CFG, &len);
	assert_int_equal(len, 92);
	free(p);
	assert_int_equal(decode(tr, SS_CFG, NULL), 12);
	assert_int_equal(flagged(t, DN_BAD | DN_CUT), 0);
	check(t, "usb.bNumInterfaces", 2, 4, 1);

	/* Bulk endpoints of 1024 bytes and their companions. */
	assert_int_equal(nth(t, "usb.wMaxPacketSize.size", 0)->value, 1024);
	n = label(t, "SS_ENDPOINT_COMP", 0);
	assert_int_equal(n->depth, 3);
	assert_int_equal(nth(t, "usb.bMaxBurst", 0)->value, 15);
	assert_int_equal(nth(t, "usb.bmAttributes.MaxStreams", 0)->value, 0);
	assert_int_equal(nth(t, "usb.bmAttributes.MaxStreams", 1)->value, 4);
	assert_int_equal(nth(t, "usb.wBytesPerInterval", 0)->value, 0);

	/* The interface association and the audio interface after it. */
	n = label(t, "INTERFACE_ASSOCIATION", 0);
	assert_int_equal(n->depth, 1);
	check(t, "usb.bFirstInterface", 1, 46, 1);
	check(t, "usb.bInterfaceCount", 1, 47, 1);
	check(t, "usb.bFunctionClass", 1, 48, 1);
	check(t, "usb.bFunctionSubClass", 2, 49, 1);
	assert_int_equal(label(t, "INTERFACE 1 alt 1: Audio", 0)->off, 61);
	n = label(t, "Class-specific Audio Streaming Interface Descriptor", 0);
	assert_int_equal(n->depth, 2);

	/* The isochronous audio endpoint: 9 bytes, ISO bits, companion. */
	n = label(t, "ENDPOINT", 2);
	assert_string_equal(n->str, "ENDPOINT 0x83 IN Isochronous");
	assert_int_equal(n->len, 9);
	assert_int_equal(field(t, "usb.bmAttributes.sync")->value, 1);
	assert_int_equal(field(t, "usb.bmAttributes.behaviour")->value, 0);
	assert_string_equal(value(field(t, "usb.bmAttributes.sync")),
	    "Asynchronous (0x01)");
	assert_int_equal(nth(t, "usb.wMaxPacketSize.slots", 0)->value, 0);
	n = nth(t, "usb.bInterval", 2);
	assert_int_equal(n->value, 4);
	assert_int_equal(n->off, 83);
	check(t, "usb.audio.bRefresh", 0, 84, 1);
	check(t, "usb.audio.bSynchAddress", 0, 85, 1);
	check(t, "usb.bmAttributes.Mult", 2, 89, 1);
	n = nth(t, "usb.wBytesPerInterval", 2);
	assert_int_equal(n->value, 3072);
	assert_int_equal(n->off, 90);
}

static void
test_endpoint_bits(void **state)
{
	struct tree	*tr = *state;
	struct dec_tree	*t = &tr->t;

	/* High-bandwidth isochronous: 3 x 1024 (USB 2.0 5.6.3). */
	decode(tr, "07058115001401", "8006000500000700");
	check(t, "usb.wMaxPacketSize", 0x1400, 4, 2);
	check(t, "usb.wMaxPacketSize.slots", 2, 4, 2);
	check(t, "usb.wMaxPacketSize.size", 1024, 4, 2);
	assert_string_equal(value(field(t, "usb.wMaxPacketSize.slots")),
	    "3 per microframe (2)");
	check(t, "usb.bmAttributes.behaviour", 1, 3, 1);
	assert_int_equal(flagged(t, DN_BAD | DN_CUT), 0);
	/* Reserved transactions value 3. */
	decode(tr, "07058101001801", NULL);
	assert_true(field(t, "usb.wMaxPacketSize")->flags & DN_BAD);
	/* A companion with no endpoint before it. */
	decode(tr, "063000000000", NULL);
	assert_true(t->node[0].flags & DN_BAD);
	assert_int_equal(count_abbrev(t, "usb.bmAttributes.MaxStreams"), 0);
	/* An endpoint descriptor a byte longer than 7 outside audio. */
	decode(tr, "08058102000200ab", NULL);
	assert_int_equal(named(t, "extra bytes", 0)->off, 7);
	assert_int_equal(count_abbrev(t, "usb.audio.bRefresh"), 0);
}

/* ------------------------------------------------------------------------
 * Strings.
 */

static void
test_strings(void **state)
{
	struct tree	*tr = *state;
	struct dec_tree	*t = &tr->t;

	assert_int_equal(decode(tr, LANGIDS, "800600030000ff00"), 1);
	check(t, "usb.wLANGID", 0x0409, 2, 2);
	assert_string_equal(value(field(t, "usb.wLANGID")),
	    "English (United States) (0x0409)");
	assert_int_equal(count_abbrev(t, "usb.bString"), 0);
	assert_string_equal(summary(LANGIDS, "800600030000ff00"),
	    "LANGIDs 0x0409");
	decode(tr, "060309040704", "800600030000ff00");
	assert_int_equal(count_abbrev(t, "usb.wLANGID"), 2);
	assert_int_equal(nth(t, "usb.wLANGID", 1)->value, 0x0407);
	assert_string_equal(summary("060309040704", "800600030000ff00"),
	    "LANGIDs 0x0409 0x0407");

	assert_int_equal(decode(tr, EHCI_PRODUCT, "800602030904ff00"), 1);
	check(t, "usb.bLength", 42, 0, 1);
	check(t, "usb.bString", 0, 2, 40);
	assert_string_equal(field(t, "usb.bString")->str,
	    "EHCI Host Controller");
	assert_string_equal(value(field(t, "usb.bString")),
	    "\"EHCI Host Controller\"");
	assert_int_equal(flagged(t, DN_BAD | DN_CUT), 0);
	assert_string_equal(summary(EHCI_PRODUCT, "800602030904ff00"),
	    "STRING \"EHCI Host Controller\"");
	/* Record 128; and without the request it is still text. */
	assert_string_equal(summary("2603510045004d00550020005500530042002000"
	    "480041005200440044005200490056004500", NULL),
	    "STRING \"QEMU USB HARDDRIVE\"");

	/* An empty string. */
	decode(tr, "0203", "800601030904ff00");
	assert_string_equal(field(t, "usb.bString")->str, "");

	/* An odd bLength: the last byte is half a unit (tshark: U+FFFD). */
	decode(tr, "070341004200ff", "800602030904ff00");
	assert_true(t->node[0].flags & DN_BAD);
	assert_string_equal(field(t, "usb.bString")->str, "AB\xef\xbf\xbd");

	/* Cut by the data inside a unit: the half unit is dropped. */
	decode(tr, "0a034100420043", "800602030904ff00");
	assert_true(t->node[0].flags & DN_CUT);
	assert_string_equal(field(t, "usb.bString")->str, "AB");
	assert_string_equal(summary("0a034100420043", "800602030904ff00"),
	    "STRING \"AB\" [cut: 7 of 10 bytes]");
}

#define FFFD	"\xef\xbf\xbd"

static void
test_utf16(void **state)
{
	static const struct {
		const char	*hex;
		const char	*utf8;
	} c[] = {
		{ "", "" },
		{ "41004200", "AB" },
		{ "e900", "\xc3\xa9" },				/* e acute */
		{ "2d4e", "\xe4\xb8\xad" },			/* U+4E2D */
		{ "3dd800de", "\xf0\x9f\x98\x80" },		/* U+1F600 */
		{ "ffdbffdf", "\xf4\x8f\xbf\xbf" },		/* U+10FFFF */
		/* U+FFFD for every unit that is not part of a pair */
		{ "41003dd8", "A" FFFD },		/* high at end */
		{ "3dd84100", FFFD "A" },		/* high, no low */
		{ "00de4100", FFFD "A" },		/* lone low */
		{ "3dd83dd800de", FFFD "\xf0\x9f\x98\x80" },	/* hi hi lo */
		{ "00dc3dd8", FFFD FFFD },		/* reversed */
		{ "3dd8ffdb00dc", FFFD "\xf4\x8f\xb0\x80" },	/* U+10FC00 */
		{ "0a0009001f007f0085004100", ".....A" },	/* C0 C1 DEL */
		{ "a000", "\xc2\xa0" },				/* NBSP kept */
		{ "000041", ".\xef\xbf\xbd" },			/* odd */
		{ "fffe", "\xef\xbb\xbf" },			/* U+FEFF */
	};
	char	 out[32];
	uint8_t	*p;
	size_t	 i, n, len;

	(void)state;
	for (i = 0; i < nitems(c); i++) {
		p = unhex(c[i].hex, &n);
		memset(out, 'x', sizeof out);
		len = dec_utf16le_to_utf8(p, n, out, sizeof out);
		free(p);
		if (strcmp(out, c[i].utf8) != 0)
			print_error("case %zu: %s\n", i, c[i].hex);
		assert_string_equal(out, c[i].utf8);
		assert_int_equal(len, strlen(c[i].utf8));
	}

	/* A small buffer never gets half a character. */
	p = unhex("e900e900", &n);
	memset(out, 'x', sizeof out);
	assert_int_equal(dec_utf16le_to_utf8(p, n, out, 4), 2);
	assert_string_equal(out, "\xc3\xa9");
	assert_int_equal(dec_utf16le_to_utf8(p, n, out, 5), 4);
	assert_int_equal(dec_utf16le_to_utf8(p, n, out, 2), 0);
	assert_string_equal(out, "");
	out[0] = 'x';
	assert_int_equal(dec_utf16le_to_utf8(p, n, out, 0), 0);
	assert_int_equal(out[0], 'x');
	free(p);
}

/* ------------------------------------------------------------------------
 * Qualifier, hubs, HID, BOS, others.
 */

static void
test_qualifier(void **state)
{
	struct tree	*tr = *state;
	struct dec_tree	*t = &tr->t;

	assert_int_equal(decode(tr, DISK_QUAL, "8006000600000a00"), 1);
	assert_string_equal(t->node[0].str, "DEVICE_QUALIFIER descriptor");
	check(t, "usb.bcdUSB", 0x0200, 2, 2);
	check(t, "usb.bDeviceClass", 0, 4, 1);
	check(t, "usb.bMaxPacketSize0", 8, 7, 1);
	check(t, "usb.bNumConfigurations", 1, 8, 1);
	assert_int_equal(count_abbrev(t, "usb.idVendor"), 0);
	assert_int_equal(flagged(t, DN_BAD | DN_CUT), 0);
	assert_string_equal(summary(DISK_QUAL, "8006000600000a00"),
	    "DEVICE_QUALIFIER usb 2.00 class 0 mps 8 cfgs 1");

	/* OTHER_SPEED_CONFIGURATION has the configuration's layout. */
	assert_int_equal(decode(tr, "09072000010100a032", "8006000700000900"),
	    1);
	assert_string_equal(t->node[0].str, "OTHER_SPEED_CONFIG descriptor");
	check(t, "usb.wTotalLength", 32, 2, 2);
	assert_int_equal(flagged(t, DN_BAD | DN_CUT), 0);
	assert_string_equal(summary("09072000010100a032", NULL),
	    "OTHER_SPEED_CONFIG 1 intf 1 total 32");
}

static void
test_hub(void **state)
{
	struct tree	*tr = *state;
	struct dec_tree	*t = &tr->t;
	const struct dec_node *n;

	assert_int_equal(decode(tr, EHCI_HUB, "a006002900000f00"), 1);
	assert_string_equal(t->node[0].str, "HUB descriptor");
	assert_int_equal(named(t, "bNbrPorts", 0)->value, 6);
	assert_int_equal(named(t, "wHubCharacteristics", 0)->value, 0x000a);
	assert_string_equal(value(named(t, "Power switching", 0)),
	    "None (USB 1.0) (2)");
	assert_string_equal(value(named(t, "Over-current protection", 0)),
	    "Individual port (1)");
	assert_int_equal(named(t, "Compound device", 0)->value, 0);
	assert_int_equal(named(t, "bPwrOn2PwrGood (2 ms units)", 0)->value,
	    10);
	n = named(t, "DeviceRemovable", 0);
	assert_int_equal(n->off, 7);
	assert_int_equal(n->len, 1);
	n = named(t, "PortPwrCtrlMask", 0);
	assert_int_equal(n->off, 8);
	assert_int_equal(n->len, 1);
	/* Linux's root hub answers wLength bytes: the rest is trailing. */
	n = named(t, "trailing bytes", 0);
	assert_int_equal(n->off, 9);
	assert_int_equal(n->len, 6);
	assert_int_equal(flagged(t, DN_BAD | DN_CUT), 0);
	/* tshark does not decode hub descriptors: no Wireshark names. */
	assert_int_equal(count_abbrev(t, "usb.bLength"), 0);
	assert_string_equal(summary(EHCI_HUB, "a006002900000f00"),
	    "HUB 6 ports");

	/* QEMU's hub: 8 ports need 2 + 2 bytes of bitmaps, it has 3. */
	decode(tr, QEMU_HUB, "a006002900000d00");
	assert_true(t->node[0].flags & DN_BAD);
	n = named(t, "PortPwrCtrlMask", 0);
	assert_true(n->flags & DN_BAD);
	assert_int_equal(n->len, 1);
	assert_int_equal(named(t, "DeviceRemovable", 0)->len, 2);

	/* Every cut of a hub descriptor: nothing points past the data. */
	decode(tr, "0929060a00", "a006002900000f00");
	assert_true(t->node[0].flags & DN_CUT);
	assert_int_equal(count_abbrev(t, "usb.bLength"), 0);
	decode(tr, "0929060a000a0000", "a006002900000f00");
	assert_int_equal(named(t, "DeviceRemovable", 0)->len, 1);
	{
		uint8_t	*p;
		size_t	 len, cut;

		p = unhex(QEMU_HUB, &len);
		for (cut = 0; cut <= len; cut++)
			decode_bytes(tr, p, cut, NULL);
		free(p);
	}

	/* A SuperSpeed hub (USB 3.2 table 10-3). */
	assert_int_equal(decode(tr, "0c2a04090014000080000000",
	    "a006002a00000c00"), 1);
	assert_string_equal(t->node[0].str, "SS_HUB descriptor");
	assert_int_equal(named(t, "bNbrPorts", 0)->value, 4);
	assert_int_equal(named(t, "wHubDelay (ns)", 0)->value, 128);
	assert_int_equal(named(t, "DeviceRemovable", 0)->off, 10);
	assert_int_equal(flagged(t, DN_BAD | DN_CUT), 0);
	assert_string_equal(summary("0c2a04090014000080000000", NULL),
	    "SS_HUB 4 ports");
}

static void
test_hid(void **state)
{
	struct tree	*tr = *state;
	struct dec_tree	*t = &tr->t;
	const struct dec_node *n;

	/* The report descriptor is items, not descriptors (HID 1.11
	 * 6.2.2), each a subtree with its header's bit fields, nested by
	 * collection as tshark nests them (tests/unit/test-hid.c has the
	 * rest). */
	assert_int_equal(decode(tr, KBD_REPORT, "8106002200003f00"), 1);
	assert_string_equal(t->node[0].str, "HID_REPORT descriptor");
	assert_int_equal(t->node[0].len, 63);
	assert_string_equal(t->node[1].str,
	    "Usage Page (Generic Desktop Controls)");
	assert_int_equal(t->node[1].depth, 1);
	assert_string_equal(t->node[2].str, "Header");
	check(t, "usbhid.item.bSize", 1, 0, 1);
	check(t, "usbhid.item.global.usage", 0x01, 1, 1);
	check(t, "usbhid.item.local.usage", 0x06, 3, 1);
	check(t, "usbhid.item.main.colltype", 0x01, 5, 1);
	/* 32 items, the 29 after the collection's under it */
	assert_int_equal(count_abbrev(t, "usbhid.item.bTag"), 32);
	assert_int_equal(label(t, "Collection (Application)", 0)->depth, 1);
	assert_int_equal(label(t, "Report Size (1)", 0)->depth, 2);
	n = label(t, "End Collection", 0);
	assert_int_equal(n->depth, 2);
	assert_int_equal(n->off, 62);
	/* "25 ff" after "15 00": a signed -1, as the item says */
	assert_int_equal((int64_t)nth(t, "usbhid.item.global.log_max",
	    1)->value, -1);
	assert_int_equal(flagged(t, DN_BAD | DN_CUT), 0);
	assert_string_equal(summary(KBD_REPORT, "8106002200003f00"),
	    "HID_REPORT 63 bytes");

	/* The HID descriptor asked for on its own (HID 1.11 7.1.1). */
	assert_int_equal(decode(tr, "092111010001223f00", "8106002100000900"),
	    1);
	check(t, "usbhid.descriptor.hid.wDescriptorLength", 63, 7, 2);
	assert_string_equal(summary("092111010001223f00", "8106002100000900"),
	    "HID 1.11 report 63");

	/* Two class descriptors announced, room for one. */
	decode(tr, "092111010002223f00", "8106002100000900");
	assert_true(field(t, "usbhid.descriptor.hid.bNumDescriptors")->flags &
	    DN_BAD);
	assert_int_equal(count_abbrev(t,
	    "usbhid.descriptor.hid.bDescriptorType"), 1);
	/* Two, with room: a report and a physical descriptor. */
	decode(tr, "0c2111010002223f00231000", "8106002100000c00");
	assert_int_equal(flagged(t, DN_BAD | DN_CUT), 0);
	assert_int_equal(count_abbrev(t,
	    "usbhid.descriptor.hid.wDescriptorLength"), 2);
	assert_int_equal(nth(t, "usbhid.descriptor.hid.bDescriptorType",
	    1)->value, 0x23);
	assert_int_equal(nth(t, "usbhid.descriptor.hid.wDescriptorLength",
	    1)->value, 16);

	/* 0x21 of another class (DFU 1.1 4.1.3 functional) is DFU's. */
	assert_int_equal(decode(tr, "09021b000101008000" "0904000000fe010100"
	    "09210bff0000040101", NULL), 3);
	assert_int_equal(flagged(t, DN_BAD | DN_CUT), 0);
	assert_int_equal(count_abbrev(t, "usbhid.descriptor.hid.bcdHID"), 0);
	/* Wireshark's usbdfu.descriptor node, its bits beside bLength */
	assert_string_equal(field(t, "usbdfu.descriptor")->str,
	    "DFU Descriptor: DFU FUNCTIONAL");
	assert_int_equal(field(t,
	    "usbdfu.descriptor.bmAttributes.CanUpload")->depth,
	    field(t, "usbdfu.descriptor.wTransferSize")->depth);
	check(t, "usbdfu.descriptor.wDetachTimeOut", 0x00ff, 21, 2);
	check(t, "usbdfu.descriptor.wTransferSize", 0x0400, 23, 2);
	check(t, "usbdfu.descriptor.bcdDFUVersion", 0x0101, 25, 2);
	assert_int_equal(field(t,
	    "usbdfu.descriptor.bmAttributes.WillDetach")->value, 1);
	assert_int_equal(field(t,
	    "usbdfu.descriptor.bmAttributes.ManifestationTolerant")->value, 0);
	assert_int_equal(field(t, "usbdfu.descriptor.wTransferSize")->depth,
	    3);
	/* a class with no decoder (here IrDA, 0xfe/2) keeps the bytes,
	 * and neither is labelled a HID descriptor */
	assert_int_equal(decode(tr, "09021b000101008000" "0904000000fe020000"
	    "09210bff0000040101", NULL), 3);
	n = named(t, "data", 0);
	assert_int_equal(n->off, 20);
	assert_int_equal(n->len, 7);
	assert_int_equal(n->depth, 3);
	assert_string_equal(label(t, "FUNCTIONAL", 0)->str,
	    "FUNCTIONAL descriptor (Application Specific class)");
	for (size_t i = 0; i < t->n; i++)
		if (t->node[i].f == NULL && t->node[i].str != NULL)
			assert_null(strstr(t->node[i].str, "HID"));
}

static void
test_bos(void **state)
{
	struct tree	*tr = *state;
	struct dec_tree	*t = &tr->t;
	const struct dec_node *n;

	assert_int_equal(decode(tr, BOS22, "8006000f00001600"), 3);
	assert_int_equal(flagged(t, DN_BAD | DN_CUT), 0);
	assert_string_equal(t->node[0].str, "BOS descriptor");
	assert_int_equal(named(t, "wTotalLength", 0)->value, 22);
	assert_int_equal(named(t, "bNumDeviceCaps", 0)->value, 2);
	n = label(t, "DEVICE_CAPABILITY", 0);
	assert_string_equal(n->str, "DEVICE_CAPABILITY: USB 2.0 Extension");
	assert_int_equal(n->depth, 1);
	assert_int_equal(n->off, 5);
	assert_int_equal(named(t, "bmAttributes", 0)->value, 2);
	assert_int_equal(named(t, "bmAttributes", 0)->len, 4);
	assert_int_equal(named(t, "LPM", 0)->value, 1);
	assert_string_equal(value(named(t, "LPM", 0)), "set");
	assert_string_equal(label(t, "DEVICE_CAPABILITY", 1)->str,
	    "DEVICE_CAPABILITY: SuperSpeed USB");
	assert_int_equal(named(t, "wSpeedsSupported", 0)->value, 0x000e);
	assert_int_equal(named(t, "Low Speed", 0)->value, 0);
	assert_int_equal(named(t, "Full Speed", 0)->value, 1);
	assert_int_equal(named(t, "5 Gbps", 0)->value, 1);
	assert_string_equal(value(named(t, "bFunctionalitySupport", 0)),
	    "Full Speed (1)");
	assert_int_equal(named(t, "bU1DevExitLat (us)", 0)->value, 10);
	assert_int_equal(named(t, "wU2DevExitLat (us)", 0)->value, 2047);
	/* tshark 4.0 leaves BOS raw: no Wireshark names. */
	assert_int_equal(count_abbrev(t, "usb.bLength"), 0);
	assert_string_equal(summary(BOS22, "8006000f00001600"),
	    "BOS caps 2 total 22");

	/* Linux reads the 5-byte header first. */
	decode(tr, "050f160002", "8006000f00000500");
	assert_int_equal(flagged(t, DN_BAD | DN_CUT), 0);
	assert_non_null(named(t, "wTotalLength", 0)->note);
	decode(tr, "050f160002", NULL);
	assert_true(named(t, "wTotalLength", 0)->flags & DN_CUT);

	assert_int_equal(decode(tr, BOS42, "8006000f00002a00"), 4);
	assert_int_equal(flagged(t, DN_BAD | DN_CUT), 0);
	assert_string_equal(named(t, "ContainerID", 0)->str,
	    "00112233-4455-6677-8899-aabbccddeeff");
	assert_int_equal(named(t, "ContainerID", 0)->off, 26);
	assert_int_equal(named(t, "ContainerID", 0)->len, 16);

	/* A platform capability: Microsoft OS 2.0 descriptors. */
	assert_int_equal(decode(tr, "050f210001" "1c100500"
	    "df60ddd88945c74c9cd2659d9e648a9f" "00000306b2000100", NULL), 2);
	assert_int_equal(flagged(t, DN_BAD | DN_CUT), 0);
	assert_string_equal(label(t, "DEVICE_CAPABILITY", 0)->str,
	    "DEVICE_CAPABILITY: Platform");
	assert_string_equal(named(t, "PlatformCapabilityUUID", 0)->str,
	    "df60ddd8-8945-c74c-9cd2-659d9e648a9f");
	assert_int_equal(named(t, "CapabilityData", 0)->off, 25);
	assert_int_equal(named(t, "CapabilityData", 0)->len, 8);

	/* bNumDeviceCaps 3, two follow. */
	decode(tr, "050f160003" "07100202000000" "0a1003000e00010aff07",
	    NULL);
	assert_true(named(t, "bNumDeviceCaps", 0)->flags & DN_BAD);
	/* A capability cut short of its layout. */
	decode(tr, "050f0e0001" "09100300000e00010a", NULL);
	assert_true(label(t, "DEVICE_CAPABILITY", 0)->flags & DN_BAD);
	/* wTotalLength shorter than the header. */
	decode(tr, "050f040000", NULL);
	assert_true(named(t, "wTotalLength", 0)->flags & DN_BAD);
}

static void
test_bos_ssp(void **state)
{
	struct tree	*tr = *state;
	struct dec_tree	*t = &tr->t;

	/* SuperSpeedPlus (USB 3.2 table 9-19): two sublink attributes,
	 * 10 Gb/s symmetric SSP. */
	assert_int_equal(decode(tr, "050f190001" "14100a00" "01000000"
	    "0011" "0000" "30400a00" "b0400a00", NULL), 2);
	assert_int_equal(flagged(t, DN_BAD | DN_CUT), 0);
	assert_int_equal(named(t, "Sublink Speed Attribute Count - 1",
	    0)->value, 1);
	assert_int_equal(named(t, "Minimum RX lanes", 0)->value, 1);
	assert_int_equal(named(t, "bmSublinkSpeedAttr", 1)->off, 21);
	assert_int_equal(named(t, "LSM", 1)->value, 10);
	assert_string_equal(value(named(t, "LSE", 0)), "Gb/s (3)");
	assert_string_equal(value(named(t, "LP", 0)), "SuperSpeedPlus (1)");
	assert_int_equal(named(t, "ST", 1)->value, 2);
	/* Two attributes announced, room for one. */
	decode(tr, "050f150001" "10100a00" "01000000" "0011" "0000"
	    "30400a00", NULL);
	assert_true(label(t, "DEVICE_CAPABILITY", 0)->flags & DN_BAD);
	assert_int_equal(count_abbrev(t, "usb.bLength"), 0);
}

static void
test_other_types(void **state)
{
	struct tree	*tr = *state;
	struct dec_tree	*t = &tr->t;

	/* Unknown type: type, length, bytes. */
	assert_int_equal(decode(tr, "0442abcd", NULL), 1);
	assert_string_equal(t->node[0].str, "UNKNOWN (0x42) descriptor");
	assert_int_equal(named(t, "data", 0)->off, 2);
	assert_int_equal(named(t, "data", 0)->len, 2);
	assert_string_equal(summary("0442abcd", NULL), "UNKNOWN (0x42) len 4");
	/* Debug (record 743 asks for it; QEMU stalls) and OTG. */
	decode(tr, "040a8102", "8006000a00000400");
	assert_int_equal(named(t, "bDebugInEndpoint", 0)->value, 0x81);
	assert_int_equal(named(t, "bDebugOutEndpoint", 0)->value, 0x02);
	decode(tr, "0509030002", NULL);
	assert_int_equal(named(t, "HNP support", 0)->value, 1);
	assert_int_equal(named(t, "bcdOTG", 0)->value, 0x0200);
	/* Interface and endpoint on their own. */
	decode(tr, "090400000103010100", "8006000400000900");
	assert_string_equal(t->node[0].str, "INTERFACE 0 alt 0: HID");
	assert_int_equal(flagged(t, DN_BAD | DN_CUT), 0);
	assert_string_equal(summary("090400000103010100", NULL),
	    "INTERFACE 0 alt 0 class HID");
	assert_string_equal(summary("07058103080007", NULL),
	    "ENDPOINT 0x81 Interrupt mps 8");
	assert_string_equal(summary("080b000202060000", NULL),
	    "INTERFACE_ASSOCIATION len 8");
	/* Nothing to decode. */
	tree_init(tr);
	assert_int_equal(dec_desc_tree((const uint8_t *)"", 0, NULL, t), 0);
	assert_int_equal(t->n, 0);
	assert_string_equal(summary("", NULL), "descriptor cut (0 bytes)");
	assert_string_equal(summary("12", NULL), "descriptor cut (1 byte)");
	assert_string_equal(summary("0001", NULL),
	    "bad descriptor (bLength 0)");
	assert_string_equal(summary("0402", NULL),
	    "CONFIG [bLength 4 too short]");
}

/* ------------------------------------------------------------------------
 * Lengths: every cut, every bad bLength, wTotalLength and the counts.
 */

static int
decode_bytes(struct tree *tr, const uint8_t *src, size_t len,
    const struct dec_setup *req)
{
	uint8_t	*p;
	int	 count;

	p = malloc(len > 0 ? len : 1);
	assert_non_null(p);
	memcpy(p, src, len);
	tree_init(tr);
	count = dec_desc_tree(p, len, req, &tr->t);
	free(p);
	assert_int_equal(tr->t.depth, 0);
	assert_false(tr->t.overflow);
	check_bounds(&tr->t, len, 0);
	return count;
}

static void
test_config_cuts(void **state)
{
	struct tree	*tr = *state;
	struct dec_tree	*t = &tr->t;
	struct dec_setup asked_all, asked_cut;
	const char	*cfgs[] = { KBD_CFG, UAS_CFG, SS_CFG };
	uint8_t		*full;
	size_t		 i, len, cut;
	char		 sum[128];

	asked_all = req_of("800600020000ff00");
	for (i = 0; i < nitems(cfgs); i++) {
		full = unhex(cfgs[i], &len);
		for (cut = 0; cut < len; cut++) {
			decode_bytes(tr, full, cut, NULL);
			if (cut == 0) {
				assert_int_equal(t->n, 0);
				continue;
			}
			if (flagged(t, DN_CUT) == 0 || flagged(t, DN_BAD) != 0)
				print_error("cfg %zu cut at %zu\n", i, cut);
			assert_true(flagged(t, DN_CUT) > 0);
			assert_int_equal(flagged(t, DN_BAD), 0);

			/* The device sent less than asked: same. */
			decode_bytes(tr, full, cut, &asked_all);
			assert_true(flagged(t, DN_CUT) > 0);
			assert_int_equal(flagged(t, DN_BAD), 0);

			/* The host asked for cut bytes: nothing wrong. */
			asked_cut = asked_all;
			asked_cut.wLength = (uint16_t)cut;
			decode_bytes(tr, full, cut, &asked_cut);
			assert_int_equal(flagged(t, DN_BAD | DN_CUT), 0);

			dec_desc_summary(full, cut, cut, &asked_all, sum,
			    sizeof sum);
		}
		/* Whole: nothing flagged. */
		assert_true(decode_bytes(tr, full, len, NULL) > 1);
		assert_int_equal(flagged(t, DN_BAD | DN_CUT), 0);
		free(full);
	}
}

/* Every cut of every blob above, with and without its request. */
static void
test_all_cuts(void **state)
{
	static const struct {
		const char	*hex;
		const char	*req;
	} blobs[] = {
		{ DISK_DEV, "8006000100001200" }, { KBD_DEV, NULL },
		{ DISK_CFG, "8006000200002000" }, { FTDI_CFG, NULL },
		{ KBD_REPORT, "8106002200003f00" }, { DISK_QUAL, NULL },
		{ LANGIDS, "800600030000ff00" }, { EHCI_PRODUCT, NULL },
		{ EHCI_HUB, "a006002900000f00" }, { QEMU_HUB, NULL },
		{ BOS22, "8006000f00001600" }, { BOS42, NULL },
		{ "050f190001" "14100a00" "01000000" "0011" "0000" "30400a00"
		    "b0400a00", NULL },
		{ "0c2a04090014000080000000", "a006002a00000c00" },
		{ "0c2111010002223f00231000", "8106002100000c00" },
		{ "0509030002", NULL }, { "040a8102", NULL },
		{ "09021b000101008000" "0904000000fe010100"
		    "09210bff0000040101", NULL },
	};
	struct tree	*tr = *state;
	struct dec_setup s;
	uint8_t		*p;
	size_t		 i, len, cut;
	char		 sum[64];

	for (i = 0; i < nitems(blobs); i++) {
		if (blobs[i].req != NULL)
			s = req_of(blobs[i].req);
		p = unhex(blobs[i].hex, &len);
		for (cut = 0; cut <= len; cut++) {
			decode_bytes(tr, p, cut, NULL);
			if (blobs[i].req != NULL)
				decode_bytes(tr, p, cut, &s);
			dec_desc_summary(p, cut, cut, blobs[i].req != NULL ?
			    &s : NULL, sum, sizeof sum);
			assert_true(strlen(sum) < sizeof sum);
		}
		free(p);
	}
}

static void
test_config_bad_lengths(void **state)
{
	struct tree	*tr = *state;
	struct dec_tree	*t = &tr->t;
	static const struct {
		size_t	 off;		/* of a descriptor in KBD_CFG */
		unsigned size;		/* its fixed size */
	} at[] = { { 0, 9 }, { 9, 9 }, { 18, 6 }, { 27, 7 } };
	uint8_t	*cfg;
	size_t	 i, len;
	unsigned bl;
	char	 sum[128];

	cfg = unhex(KBD_CFG, &len);
	for (i = 0; i < nitems(at); i++) {
		for (bl = 0; bl < 256; bl++) {
			uint8_t	*p = unhex(KBD_CFG, &len);

			p[at[i].off] = (uint8_t)bl;
			decode_bytes(tr, p, len, NULL);
			dec_desc_summary(p + at[i].off, len - at[i].off,
			    len - at[i].off, NULL, sum, sizeof sum);
			if ((bl < at[i].size || at[i].off + bl > len) &&
			    flagged(t, DN_BAD) == 0)
				print_error("off %zu bLength %u\n", at[i].off,
				    bl);
			if (bl < at[i].size || at[i].off + bl > len)
				assert_true(flagged(t, DN_BAD) > 0);
			if (bl == cfg[at[i].off])
				assert_int_equal(flagged(t, DN_BAD | DN_CUT),
				    0);
			free(p);
		}
	}
	free(cfg);
}

static void
test_config_totals(void **state)
{
	struct tree	*tr = *state;
	struct dec_tree	*t = &tr->t;
	const struct dec_node *n;

	/* wTotalLength 30 of 34 bytes: the endpoint crosses it. */
	decode(tr, "09021e00010108a032090400000103010100092111010001223f00"
	    "07058103080007", NULL);
	n = label(t, "ENDPOINT", 0);
	assert_true(n->flags & DN_BAD);
	assert_string_equal(n->note, "bLength beyond wTotalLength");
	assert_int_equal(flagged(t, DN_CUT), 0);
	/* wTotalLength 27: the endpoint is beyond it. */
	decode(tr, "09021b00010108a032090400000103010100092111010001223f00"
	    "07058103080007", NULL);
	n = named(t, "trailing bytes", 0);
	assert_true(n->flags & DN_BAD);
	assert_int_equal(n->off, 27);
	assert_int_equal(n->len, 7);
	assert_int_equal(count_abbrev(t, "usb.bEndpointAddress"), 0);
	/* wTotalLength 8: shorter than the configuration itself. */
	decode(tr, "09020800010108a032", NULL);
	assert_true(field(t, "usb.wTotalLength")->flags & DN_BAD);
	/* wTotalLength 40 and 34 bytes: cut. */
	decode(tr, "09022800010108a032090400000103010100092111010001223f00"
	    "07058103080007", NULL);
	assert_true(field(t, "usb.wTotalLength")->flags & DN_CUT);
	assert_int_equal(flagged(t, DN_BAD), 0);
	/* The first read: 9 of them, as asked. */
	decode(tr, "09022200010108a032", "8006000200000900");
	assert_int_equal(flagged(t, DN_BAD | DN_CUT), 0);
	assert_non_null(field(t, "usb.wTotalLength")->note);
	assert_string_equal(summary("09022200010108a032", "8006000200000900"),
	    "CONFIG 1 intf 1 total 34");
	/* bNumInterfaces 2, one follows. */
	decode(tr, "09022200020108a032090400000103010100092111010001223f00"
	    "07058103080007", NULL);
	assert_true(field(t, "usb.bNumInterfaces")->flags & DN_BAD);
	/* bNumEndpoints 2, one follows. */
	decode(tr, "09022200010108a032090400000203010100092111010001223f00"
	    "07058103080007", NULL);
	assert_true(field(t, "usb.bNumEndpoints")->flags & DN_BAD);
	/* The counts are not judged on a cut configuration. */
	decode(tr, "09022200020108a032090400000203010100", NULL);
	assert_int_equal(flagged(t, DN_BAD), 0);
	/* A zero bLength inside stops the walk. */
	decode(tr, "09021400010108a032000400000103010100" "0000", NULL);
	assert_true(field(t, "usb.bLength")->flags == 0);
	assert_true(nth(t, "usb.bLength", 1)->flags & DN_BAD);
	assert_true(named(t, "trailing bytes", 0)->flags & DN_BAD);
	/* A configuration bLength beyond its wTotalLength. */
	decode(tr, "0c020a00010108a032000000", NULL);
	assert_true(t->node[0].flags & DN_BAD);
}

static void
test_tree_limits(void **state)
{
	struct tree	*tr = *state;
	struct dec_node	 few[7];
	struct dec_tree	 t;
	uint8_t		*p;
	size_t		 len, max;

	(void)tr;
	p = unhex(UAS_CFG, &len);
	/* Every size of node storage: never past it, depth restored. */
	for (max = 0; max <= nitems(few); max++) {
		dec_tree_init(&t, max ? few : NULL, max, NULL, 0);
		assert_int_equal(dec_desc_tree(p, len, NULL, &t), 10);
		assert_int_equal(t.n, max);
		assert_true(t.overflow);
		assert_int_equal(t.depth, 0);
	}
	/* A subtree under the caller's own heading. */
	tree_init(tr);
	dec_tree_push(&tr->t, "Data", DB_DATA, 0, (uint32_t)len);
	dec_tree_push(&tr->t, "Descriptors", DB_DATA, 0, (uint32_t)len);
	dec_desc_tree(p, len, NULL, &tr->t);
	assert_int_equal(tr->t.depth, 2);
	assert_int_equal(tr->t.node[2].depth, 2);
	assert_string_equal(tr->t.node[2].str, "CONFIG descriptor");
	assert_int_equal(label(&tr->t, "ENDPOINT", 0)->depth, 4);
	free(p);
}

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

#define T(f)	cmocka_unit_test_setup_teardown(f, setup_tree, teardown_tree)

int
main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_device),
		T(test_device_short),
		T(test_config_disk),
		T(test_config_keyboard),
		T(test_config_uas_ftdi),
		T(test_config_superspeed),
		T(test_endpoint_bits),
		T(test_strings),
		T(test_utf16),
		T(test_qualifier),
		T(test_hub),
		T(test_hid),
		T(test_bos),
		T(test_bos_ssp),
		T(test_other_types),
		T(test_config_cuts),
		T(test_all_cuts),
		T(test_config_bad_lengths),
		T(test_config_totals),
		T(test_tree_limits),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
