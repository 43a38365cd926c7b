/*
 * tests/unit/test-devmodel.c - hcd/devmodel.c and the models of
 * samples/devices/, driven transaction by transaction as a host would:
 * chapter 9 enumeration of every model (DEVICE with wLength 64 at address
 * 0, SET_ADDRESS taking effect after the status stage, CONFIG 9 then
 * whole, strings, qualifier, BOS and unknown requests stalling, protocol
 * stall cleared by SETUP, configuration and interface, GET_STATUS, halt
 * and clear), the loopback round trip and its NAKs, the keyboard's HID
 * requests and typed reports, the disk's BOT/SCSI commands (INQUIRY, READ
 * CAPACITY, WRITE then READ back, sense data, bad CBW and reset recovery,
 * phase errors, a file image), and injected faults.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "capture/capture.h"
#include "hcd/devmodel.h"
#include "samples/devices/devices.h"
#include "samples/samples.h"


/* Standard and class request types. */
#define RT_DEV_IN	(USB_DIR_IN | USB_TYPE_STANDARD | USB_RECIP_DEVICE)
#define RT_DEV_OUT	(USB_DIR_OUT | USB_TYPE_STANDARD | USB_RECIP_DEVICE)
#define RT_INTF_IN	(USB_DIR_IN | USB_TYPE_STANDARD | USB_RECIP_INTERFACE)
#define RT_INTF_OUT	(USB_DIR_OUT | USB_TYPE_STANDARD | \
			 USB_RECIP_INTERFACE)
#define RT_EP_IN	(USB_DIR_IN | USB_TYPE_STANDARD | USB_RECIP_ENDPOINT)
#define RT_EP_OUT	(USB_DIR_OUT | USB_TYPE_STANDARD | USB_RECIP_ENDPOINT)
#define RT_CLASS_IN	(USB_DIR_IN | USB_TYPE_CLASS | USB_RECIP_INTERFACE)
#define RT_CLASS_OUT	(USB_DIR_OUT | USB_TYPE_CLASS | USB_RECIP_INTERFACE)

/*
 * A control transfer as the host runs it: SETUP, the data stage in 64-byte
 * packets (IN ends on a short packet), the status stage the other way.
 * Returns the data length, or the DM_* code of the stage that failed.
 */
static int
ctrl(struct usb_devmodel *dm, int addr, uint8_t rt, uint8_t req,
    uint16_t val, uint16_t idx, uint16_t len, uint8_t *data)
{
	uint8_t	 setup[8], zero[1];
	int	 r, got = 0, n;

	setup[0] = rt;
	setup[1] = req;
	put_le16(setup + 2, val);
	put_le16(setup + 4, idx);
	put_le16(setup + 6, len);
	r = dm_transact(dm, DM_PID_SETUP, addr, 0, setup, 8);
	if (r != DM_ACK)
		return r;
	if (rt & USB_DIR_IN) {
		while (got < len) {
			r = dm_transact(dm, DM_PID_IN, addr, 0, data + got, 64);
			if (r < 0)
				return r;
			assert_true(r <= 64);
			got += r;
			if (r < 64)
				break;
		}
		r = dm_transact(dm, DM_PID_OUT, addr, 0, zero, 0);
		return r < 0 ? r : got;
	}
	for (got = 0; got < len; got += n) {
		n = len - got < 64 ? len - got : 64;
		r = dm_transact(dm, DM_PID_OUT, addr, 0, data + got,
		    (size_t)n);
		if (r < 0)
			return r;
	}
	r = dm_transact(dm, DM_PID_IN, addr, 0, zero, 0);
	return r < 0 ? r : 0;
}

/* Enumerate as Linux does: DEVICE 64 at 0, SET_ADDRESS, configure. */
static struct usb_devmodel *
enumerated(const char *name, const char *args, int addr)
{
	struct usb_devmodel *dm;
	uint8_t		 buf[4096];

	dm = dm_create(name, args);
	assert_non_null(dm);
	dm_bus_reset(dm);
	assert_int_equal(ctrl(dm, 0, RT_DEV_IN, USB_REQ_GET_DESCRIPTOR,
	    USB_DT_DEVICE << 8, 0, 64, buf), 18);
	assert_int_equal(ctrl(dm, 0, RT_DEV_OUT, USB_REQ_SET_ADDRESS,
	    (uint16_t)addr, 0, 0, NULL), 0);
	assert_int_equal(ctrl(dm, addr, RT_DEV_OUT,
	    USB_REQ_SET_CONFIGURATION, 1, 0, 0, NULL), 0);
	return dm;
}

/* ------------------------------------------------------------------------
 * The framework: chapter 9 for every model.
 */

static void
test_registry(void **state)
{
	static const char *const names[] = { "loopback", "keyboard", "disk",
	    "gamepad", "serial", "speaker", "bluetooth", "replay" };
	size_t		 i;

	(void)state;
	for (i = 0; i < nitems(names); i++) {
		assert_non_null(sample_catalog.models[i]);
		assert_string_equal(sample_catalog.models[i]->name, names[i]);
	}
	assert_null(sample_catalog.models[nitems(names)]);
	assert_null(dm_create("no-such-model", NULL));
	assert_null(dm_create("loopback", "12 bananas"));
	assert_null(dm_create("disk", "/nonexistent/image"));
	/* a replay needs a capture that holds a device's descriptors */
	assert_null(dm_create("replay", NULL));
	assert_null(dm_create("replay", "/nonexistent/capture.pcap"));
	assert_null(dm_create("replay", "samples/usbmon-text.txt 9.9"));
}

/* Model sizes: digits with an optional K/M/G, nothing that overflows. */
static void
test_parse_size(void **state)
{
	uint64_t	 v;

	(void)state;
	assert_int_equal(dm_parse_size("65536", &v), 0);
	assert_int_equal(v, 65536);
	assert_int_equal(dm_parse_size("4K", &v), 0);
	assert_int_equal(v, 4096);
	assert_int_equal(dm_parse_size("1m", &v), 0);
	assert_int_equal(v, 1u << 20);
	assert_int_equal(dm_parse_size("2G", &v), 0);
	assert_int_equal(v, 2ull << 30);
	assert_int_equal(dm_parse_size("17179869183G", &v), 0);
	assert_int_equal(v, 17179869183ull << 30);
	v = 7;
	assert_int_equal(dm_parse_size("17179869184G", &v), -1);
	assert_int_equal(dm_parse_size("99999999999999999999", &v), -1);
	assert_int_equal(dm_parse_size("4KB", &v), -1);
	assert_int_equal(dm_parse_size("K", &v), -1);
	assert_int_equal(dm_parse_size("/tmp/disk.img", &v), -1);
	assert_int_equal(dm_parse_size("", &v), -1);
	assert_int_equal(v, 7);
}

/* UTF-16LE string descriptor holds exactly the ASCII text s. */
static void
check_string(const uint8_t *d, int n, const char *s)
{
	size_t	 i, len = strlen(s);

	assert_int_equal(n, 2 + 2 * (int)len);
	assert_int_equal(d[0], n);
	assert_int_equal(d[1], USB_DT_STRING);
	for (i = 0; i < len; i++)
		assert_int_equal(get_le16(d + 2 + 2 * i), (uint8_t)s[i]);
}

static void
enumerate_model(const char *name, uint16_t vid, uint16_t pid,
    const char *product, uint8_t epaddr)
{
	struct usb_devmodel *dm;
	uint8_t		 buf[4096], zero[1];
	int		 n, total;

	dm = dm_create(name, NULL);
	assert_non_null(dm);
	dm_bus_reset(dm);

	/* Linux's first request: DEVICE with wLength 64 at address 0. */
	n = ctrl(dm, 0, RT_DEV_IN, USB_REQ_GET_DESCRIPTOR,
	    USB_DT_DEVICE << 8, 0, 64, buf);
	assert_int_equal(n, 18);
	assert_int_equal(buf[0], 18);
	assert_int_equal(buf[1], USB_DT_DEVICE);
	assert_int_equal(get_le16(buf + 2), 0x0200);
	assert_int_equal(buf[7], 64);
	assert_int_equal(get_le16(buf + 8), vid);
	assert_int_equal(get_le16(buf + 10), pid);
	assert_int_equal(buf[17], 1);
	/* ... and 8 bytes of it for the old scheme. */
	assert_int_equal(ctrl(dm, 0, RT_DEV_IN, USB_REQ_GET_DESCRIPTOR,
	    USB_DT_DEVICE << 8, 0, 8, buf), 8);

	/* SET_ADDRESS: the address changes after the status stage. */
	put_le16(buf, 0);
	buf[0] = RT_DEV_OUT;
	buf[1] = USB_REQ_SET_ADDRESS;
	put_le16(buf + 2, 9);
	put_le16(buf + 4, 0);
	put_le16(buf + 6, 0);
	assert_int_equal(dm_transact(dm, DM_PID_SETUP, 0, 0, buf, 8), DM_ACK);
	assert_int_equal(dm->address, 0);
	assert_int_equal(dm_transact(dm, DM_PID_IN, 9, 0, zero, 0),
	    DM_XACTERR);
	assert_int_equal(dm_transact(dm, DM_PID_IN, 0, 0, zero, 0), 0);
	assert_int_equal(dm->address, 9);
	assert_int_equal(ctrl(dm, 0, RT_DEV_IN, USB_REQ_GET_DESCRIPTOR,
	    USB_DT_DEVICE << 8, 0, 18, buf), DM_XACTERR);
	assert_int_equal(ctrl(dm, 9, RT_DEV_IN, USB_REQ_GET_DESCRIPTOR,
	    USB_DT_DEVICE << 8, 0, 18, buf), 18);

	/* CONFIG: 9 bytes, then wTotalLength; longer asks get the whole. */
	assert_int_equal(ctrl(dm, 9, RT_DEV_IN, USB_REQ_GET_DESCRIPTOR,
	    USB_DT_CONFIG << 8, 0, 9, buf), 9);
	assert_int_equal(buf[1], USB_DT_CONFIG);
	total = get_le16(buf + 2);
	assert_int_equal(ctrl(dm, 9, RT_DEV_IN, USB_REQ_GET_DESCRIPTOR,
	    USB_DT_CONFIG << 8, 0, (uint16_t)total, buf), total);
	assert_int_equal(buf[9 + 1], USB_DT_INTERFACE);
	assert_int_equal(ctrl(dm, 9, RT_DEV_IN, USB_REQ_GET_DESCRIPTOR,
	    USB_DT_CONFIG << 8, 0, 255, buf), total);
	assert_int_equal(ctrl(dm, 9, RT_DEV_IN, USB_REQ_GET_DESCRIPTOR,
	    USB_DT_CONFIG << 8 | 1, 0, 255, buf), DM_STALL);

	/* Strings: LANGIDs, then UTF-16LE; past the last one: STALL. */
	n = ctrl(dm, 9, RT_DEV_IN, USB_REQ_GET_DESCRIPTOR,
	    USB_DT_STRING << 8, 0, 255, buf);
	assert_int_equal(n, 4);
	assert_int_equal(get_le16(buf + 2), 0x0409);
	n = ctrl(dm, 9, RT_DEV_IN, USB_REQ_GET_DESCRIPTOR,
	    USB_DT_STRING << 8 | 1, 0x0409, 255, buf);
	check_string(buf, n, "urbscope");
	n = ctrl(dm, 9, RT_DEV_IN, USB_REQ_GET_DESCRIPTOR,
	    USB_DT_STRING << 8 | 2, 0x0409, 255, buf);
	check_string(buf, n, product);
	n = ctrl(dm, 9, RT_DEV_IN, USB_REQ_GET_DESCRIPTOR,
	    USB_DT_STRING << 8 | 3, 0x0409, 255, buf);
	assert_true(n > 2);
	/* A short read of a string gives its first bytes. */
	assert_int_equal(ctrl(dm, 9, RT_DEV_IN, USB_REQ_GET_DESCRIPTOR,
	    USB_DT_STRING << 8 | 1, 0x0409, 2, buf), 2);
	assert_int_equal(buf[0], 18);
	assert_int_equal(ctrl(dm, 9, RT_DEV_IN, USB_REQ_GET_DESCRIPTOR,
	    USB_DT_STRING << 8 | 4, 0x0409, 255, buf), DM_STALL);

	/* Qualifier yes, BOS no; an unknown request stalls, and the next
	 * SETUP clears the protocol stall. */
	assert_int_equal(ctrl(dm, 9, RT_DEV_IN, USB_REQ_GET_DESCRIPTOR,
	    USB_DT_DEVICE_QUALIFIER << 8, 0, 10, buf), 10);
	assert_int_equal(buf[1], USB_DT_DEVICE_QUALIFIER);
	assert_int_equal(ctrl(dm, 9, RT_DEV_IN, USB_REQ_GET_DESCRIPTOR,
	    USB_DT_BOS << 8, 0, 5, buf), DM_STALL);
	assert_int_equal(dm_transact(dm, DM_PID_IN, 9, 0, buf, 64), DM_STALL);
	assert_int_equal(ctrl(dm, 9, RT_DEV_IN, 0x42, 0, 0, 4, buf),
	    DM_STALL);
	assert_int_equal(ctrl(dm, 9, RT_DEV_OUT, USB_REQ_SET_DESCRIPTOR,
	    0, 0, 0, NULL), DM_STALL);
	assert_int_equal(ctrl(dm, 9, RT_DEV_IN, USB_REQ_GET_STATUS, 0, 0, 2,
	    buf), 2);

	/* Not configured: data endpoints stall. */
	assert_int_equal(dm_transact(dm, epaddr & USB_DIR_IN ? DM_PID_IN :
	    DM_PID_OUT, 9, epaddr & 0xf, buf, 512), DM_STALL);
	assert_int_equal(ctrl(dm, 9, RT_DEV_IN, USB_REQ_GET_CONFIGURATION, 0,
	    0, 1, buf), 1);
	assert_int_equal(buf[0], 0);
	assert_int_equal(ctrl(dm, 9, RT_DEV_OUT, USB_REQ_SET_CONFIGURATION,
	    2, 0, 0, NULL), DM_STALL);
	assert_int_equal(ctrl(dm, 9, RT_DEV_OUT, USB_REQ_SET_CONFIGURATION,
	    1, 0, 0, NULL), 0);
	assert_int_equal(ctrl(dm, 9, RT_DEV_IN, USB_REQ_GET_CONFIGURATION, 0,
	    0, 1, buf), 1);
	assert_int_equal(buf[0], 1);
	assert_int_equal(dm->config, 1);

	/* Interfaces: alt 0 only. */
	assert_int_equal(ctrl(dm, 9, RT_INTF_IN, USB_REQ_GET_INTERFACE, 0, 0,
	    1, buf), 1);
	assert_int_equal(buf[0], 0);
	assert_int_equal(ctrl(dm, 9, RT_INTF_OUT, USB_REQ_SET_INTERFACE, 1,
	    0, 0, NULL), DM_STALL);
	assert_int_equal(ctrl(dm, 9, RT_INTF_OUT, USB_REQ_SET_INTERFACE, 0,
	    0, 0, NULL), 0);
	assert_int_equal(ctrl(dm, 9, RT_INTF_IN, USB_REQ_GET_INTERFACE, 0, 5,
	    1, buf), DM_STALL);

	/* Halt: SET_FEATURE, GET_STATUS says so, traffic stalls, CLEAR. */
	assert_int_equal(ctrl(dm, 9, RT_EP_IN, USB_REQ_GET_STATUS, 0, epaddr,
	    2, buf), 2);
	assert_int_equal(buf[0], 0);
	assert_int_equal(ctrl(dm, 9, RT_EP_OUT, USB_REQ_SET_FEATURE,
	    USB_ENDPOINT_HALT, epaddr, 0, NULL), 0);
	assert_int_equal(ctrl(dm, 9, RT_EP_IN, USB_REQ_GET_STATUS, 0, epaddr,
	    2, buf), 2);
	assert_int_equal(buf[0], 1);
	assert_int_equal(dm_transact(dm, epaddr & USB_DIR_IN ? DM_PID_IN :
	    DM_PID_OUT, 9, epaddr & 0xf, buf, 8), DM_STALL);
	assert_int_equal(ctrl(dm, 9, RT_EP_OUT, USB_REQ_CLEAR_FEATURE,
	    USB_ENDPOINT_HALT, epaddr, 0, NULL), 0);
	assert_int_equal(ctrl(dm, 9, RT_EP_IN, USB_REQ_GET_STATUS, 0, epaddr,
	    2, buf), 2);
	assert_int_equal(buf[0], 0);
	assert_int_equal(ctrl(dm, 9, RT_EP_IN, USB_REQ_GET_STATUS, 0, 0x8f,
	    2, buf), DM_STALL);
	assert_int_equal(ctrl(dm, 9, RT_DEV_OUT, USB_REQ_SET_FEATURE,
	    USB_DEVICE_REMOTE_WAKEUP, 0, 0, NULL), DM_STALL);

	/* Bus reset: back to address 0, unconfigured. */
	dm_bus_reset(dm);
	assert_int_equal(dm->address, 0);
	assert_int_equal(dm->config, 0);
	assert_int_equal(ctrl(dm, 0, RT_DEV_IN, USB_REQ_GET_DESCRIPTOR,
	    USB_DT_DEVICE << 8, 0, 64, buf), 18);
	dm_destroy(dm);
}

static void
test_enumerate_loopback(void **state)
{
	(void)state;
	enumerate_model("loopback", 0xfff0, 0xfff0, "Bulk Loopback", 0x81);
}

static void
test_enumerate_keyboard(void **state)
{
	(void)state;
	enumerate_model("keyboard", 0x1209, 0x0001, "Boot Keyboard", 0x81);
}

static void
test_enumerate_disk(void **state)
{
	(void)state;
	enumerate_model("disk", 0x1209, 0x0002, "Simulated Disk", 0x02);
}

/* A long control read in 64-byte pieces, and SETUP resetting the stage. */
static void
test_control_stages(void **state)
{
	struct usb_devmodel *dm = enumerated("keyboard", NULL, 3);
	uint8_t		 buf[256], setup[8] = { RT_DEV_IN,
	    USB_REQ_GET_DESCRIPTOR, 0, USB_DT_CONFIG, 0, 0, 34, 0 };

	(void)state;
	/* Abandon a transfer after its first packet: a new SETUP wins. */
	assert_int_equal(dm_transact(dm, DM_PID_SETUP, 3, 0, setup, 8),
	    DM_ACK);
	assert_int_equal(dm_transact(dm, DM_PID_IN, 3, 0, buf, 8), 8);
	assert_int_equal(ctrl(dm, 3, RT_DEV_IN, USB_REQ_GET_DESCRIPTOR,
	    USB_DT_DEVICE << 8, 0, 18, buf), 18);
	assert_int_equal(buf[1], USB_DT_DEVICE);
	/* A SETUP that is not 8 bytes gets no answer. */
	assert_int_equal(dm_transact(dm, DM_PID_SETUP, 3, 0, setup, 7),
	    DM_XACTERR);
	/* SETUP to a data endpoint: no answer either. */
	assert_int_equal(dm_transact(dm, DM_PID_SETUP, 3, 1, setup, 8),
	    DM_XACTERR);
	dm_destroy(dm);
}

/* ------------------------------------------------------------------------
 * Loopback.
 */

static void
test_loopback_roundtrip(void **state)
{
	struct usb_devmodel *dm = enumerated("loopback", "4K", 2);
	uint8_t		 out[4096], in[4096 + 512];
	size_t		 i, got;
	int		 r;

	(void)state;
	for (i = 0; i < sizeof out; i++)
		out[i] = (uint8_t)(i * 7 + 3);
	assert_int_equal(dm_transact(dm, DM_PID_IN, 2, 1, in, 512), DM_NAK);
	/* Fill the 4 KiB FIFO; the next packet is NAKed. */
	for (i = 0; i < sizeof out; i += 512)
		assert_int_equal(dm_transact(dm, DM_PID_OUT, 2, 2, out + i,
		    512), DM_ACK);
	assert_int_equal(dm_transact(dm, DM_PID_OUT, 2, 2, out, 1), DM_NAK);
	/* Read it back with short rooms and whole packets. */
	assert_int_equal(dm_transact(dm, DM_PID_IN, 2, 1, in, 100), 100);
	for (got = 100; got < sizeof out; got += (size_t)r) {
		r = dm_transact(dm, DM_PID_IN, 2, 1, in + got, 512);
		assert_true(r > 0 && r <= 512);
	}
	assert_int_equal(got, sizeof out);
	assert_memory_equal(in, out, sizeof out);
	assert_int_equal(dm_transact(dm, DM_PID_IN, 2, 1, in, 512), DM_NAK);
	/* Wrap around the ring: 3 KiB in, 3 KiB out, twice. */
	for (r = 0; r < 2; r++) {
		for (i = 0; i < 3072; i += 512)
			assert_int_equal(dm_transact(dm, DM_PID_OUT, 2, 2,
			    out + i, 512), DM_ACK);
		for (i = 0; i < 3072; i += 512)
			assert_int_equal(dm_transact(dm, DM_PID_IN, 2, 1,
			    in + i, 512), 512);
		assert_memory_equal(in, out, 3072);
	}
	/* Wrong direction or endpoint: STALL. */
	assert_int_equal(dm_transact(dm, DM_PID_OUT, 2, 1, out, 8), DM_STALL);
	assert_int_equal(dm_transact(dm, DM_PID_IN, 2, 3, in, 8), DM_STALL);
	dm_destroy(dm);
}

/* ------------------------------------------------------------------------
 * Keyboard.
 */

static void
test_keyboard_hid(void **state)
{
	struct usb_devmodel *dm = enumerated("keyboard", NULL, 4);
	uint8_t		 buf[256], led = 0x02;

	(void)state;
	/* HID and report descriptors, asked of the interface. */
	assert_int_equal(ctrl(dm, 4, RT_INTF_IN, USB_REQ_GET_DESCRIPTOR,
	    0x21 << 8, 0, 9, buf), 9);
	assert_int_equal(buf[1], 0x21);
	assert_int_equal(get_le16(buf + 7), 63);
	assert_int_equal(ctrl(dm, 4, RT_INTF_IN, USB_REQ_GET_DESCRIPTOR,
	    0x22 << 8, 0, 255, buf), 63);
	assert_int_equal(buf[0], 0x05);
	assert_int_equal(buf[3], 0x06);		/* Usage (Keyboard) */
	assert_int_equal(buf[62], 0xc0);
	assert_int_equal(ctrl(dm, 4, RT_INTF_IN, USB_REQ_GET_DESCRIPTOR,
	    0x22 << 8, 1, 255, buf), DM_STALL);
	assert_int_equal(ctrl(dm, 4, RT_DEV_IN, USB_REQ_GET_DESCRIPTOR,
	    0x22 << 8, 0, 255, buf), DM_STALL);

	/* Class requests of HID 1.11 7.2. */
	assert_int_equal(ctrl(dm, 4, RT_CLASS_OUT, 0x0a, 0, 0, 0, NULL), 0);
	assert_int_equal(ctrl(dm, 4, RT_CLASS_IN, 0x02, 0, 0, 1, buf), 1);
	assert_int_equal(buf[0], 0);
	assert_int_equal(ctrl(dm, 4, RT_CLASS_OUT, 0x0b, 0, 0, 0, NULL), 0);
	assert_int_equal(ctrl(dm, 4, RT_CLASS_IN, 0x03, 0, 0, 1, buf), 1);
	assert_int_equal(buf[0], 0);
	assert_int_equal(ctrl(dm, 4, RT_CLASS_OUT, 0x09, 0x0200, 0, 1, &led),
	    0);
	assert_int_equal(ctrl(dm, 4, RT_CLASS_IN, 0x01, 0x0200, 0, 1, buf),
	    1);
	assert_int_equal(buf[0], 0x02);
	memset(buf, 0xaa, 8);
	assert_int_equal(ctrl(dm, 4, RT_CLASS_IN, 0x01, 0x0100, 0, 8, buf),
	    8);
	assert_int_equal(buf[2], 0);
	assert_int_equal(ctrl(dm, 4, RT_CLASS_OUT, 0x0b, 7, 0, 0, NULL),
	    DM_STALL);
	assert_int_equal(ctrl(dm, 4, RT_CLASS_IN, 0x33, 0, 0, 1, buf),
	    DM_STALL);
	/* Nothing typed: NAK. */
	assert_int_equal(dm_transact(dm, DM_PID_IN, 4, 1, buf, 8), DM_NAK);
	dm_destroy(dm);
}

/* The game pad: its report descriptor, reports with IDs (HID 1.11 7.2). */
static void
test_gamepad_hid(void **state)
{
	struct usb_devmodel *dm = enumerated("gamepad", NULL, 5);
	uint8_t		 buf[256], leds[2] = { 2, 0x05 }, set[3] = { 3, 8, 9 };
	uint64_t	 ms;

	(void)state;
	assert_int_equal(ctrl(dm, 5, RT_INTF_IN, USB_REQ_GET_DESCRIPTOR,
	    0x21 << 8, 0, 9, buf), 9);
	assert_int_equal(get_le16(buf + 7), 125);
	assert_int_equal(ctrl(dm, 5, RT_INTF_IN, USB_REQ_GET_DESCRIPTOR,
	    0x22 << 8, 0, 255, buf), 125);
	assert_int_equal(buf[3], 0x05);		/* Usage (Game Pad) */
	assert_int_equal(buf[6], 0x85);		/* Report ID */
	assert_int_equal(buf[124], 0xc0);
	/* SET_IDLE of all reports, GET_IDLE of one */
	assert_int_equal(ctrl(dm, 5, RT_CLASS_OUT, 0x0a, 0x0200, 0, 0, NULL),
	    0);
	assert_int_equal(ctrl(dm, 5, RT_CLASS_IN, 0x02, 0x0004, 0, 1, buf),
	    1);
	assert_int_equal(buf[0], 2);
	/* no boot protocol: GET/SET_PROTOCOL stall */
	assert_int_equal(ctrl(dm, 5, RT_CLASS_IN, 0x03, 0, 0, 1, buf),
	    DM_STALL);
	assert_int_equal(ctrl(dm, 5, RT_CLASS_OUT, 0x0b, 0, 0, 0, NULL),
	    DM_STALL);
	/* reports by type and ID, the ID first */
	assert_int_equal(ctrl(dm, 5, RT_CLASS_IN, 0x01, 0x0303, 0, 3, buf),
	    3);
	assert_int_equal(buf[0], 3);
	assert_int_equal(buf[1], 16);
	assert_int_equal(ctrl(dm, 5, RT_CLASS_OUT, 0x09, 0x0303, 0, 3, set),
	    0);
	assert_int_equal(ctrl(dm, 5, RT_CLASS_IN, 0x01, 0x0303, 0, 3, buf),
	    3);
	assert_int_equal(buf[2], 9);
	assert_int_equal(ctrl(dm, 5, RT_CLASS_OUT, 0x09, 0x0202, 0, 2, leds),
	    0);
	assert_int_equal(ctrl(dm, 5, RT_CLASS_IN, 0x01, 0x0202, 0, 2, buf),
	    2);
	assert_int_equal(buf[1], 0x05);
	assert_int_equal(ctrl(dm, 5, RT_CLASS_IN, 0x01, 0x0101, 0, 8, buf),
	    5);
	assert_int_equal(buf[4], 0x08);		/* the hat's null state */
	assert_int_equal(ctrl(dm, 5, RT_CLASS_IN, 0x01, 0x0105, 0, 8, buf),
	    DM_STALL);
	/* the script: nothing before its start, then an ID 1 report */
	assert_int_equal(dm_transact(dm, DM_PID_IN, 5, 1, buf, 8), DM_NAK);
	for (ms = 1; ms <= 30; ms++)
		dm->ops->tick(dm, ms * SIM_MS);
	assert_int_equal(dm_transact(dm, DM_PID_IN, 5, 1, buf, 8), 5);
	assert_int_equal(buf[0], 1);
	assert_int_equal(dm_transact(dm, DM_PID_IN, 5, 1, buf, 8), DM_NAK);
	/* the output report on the interrupt OUT pipe */
	assert_int_equal(dm_transact(dm, DM_PID_OUT, 5, 2, leds, 2), DM_ACK);
	dm_destroy(dm);
}

/* The CDC-ACM adapter: line coding, control lines, SERIAL_STATE, echo. */
static void
test_serial_acm(void **state)
{
	struct usb_devmodel *dm = enumerated("serial", NULL, 6);
	uint8_t		 buf[512], abc[3] = { 'a', 'b', 'c' };
	uint8_t		 coding[7] = { 0x00, 0xc2, 0x01, 0, 0, 2, 7 };
	uint8_t		 bad[7] = { 0x00, 0xc2, 0x01, 0, 3, 0, 8 };

	(void)state;
	assert_int_equal(ctrl(dm, 6, RT_CLASS_IN, 0x21, 0, 0, 7, buf), 7);
	assert_int_equal(get_le32(buf), 9600);
	assert_int_equal(buf[6], 8);
	assert_int_equal(ctrl(dm, 6, RT_CLASS_OUT, 0x20, 0, 0, 7, coding), 0);
	assert_int_equal(ctrl(dm, 6, RT_CLASS_IN, 0x21, 0, 0, 7, buf), 7);
	assert_memory_equal(buf, coding, 7);
	assert_int_equal(ctrl(dm, 6, RT_CLASS_OUT, 0x20, 0, 0, 7, bad),
	    DM_STALL);
	/* no notification before DTR; DTR up: DCD and DSR (PSTN 6.5.4) */
	assert_int_equal(dm_transact(dm, DM_PID_IN, 6, 3, buf, 16), DM_NAK);
	assert_int_equal(ctrl(dm, 6, RT_CLASS_OUT, 0x22, 3, 0, 0, NULL), 0);
	assert_int_equal(dm_transact(dm, DM_PID_IN, 6, 3, buf, 16), 10);
	assert_int_equal(buf[0], 0xa1);
	assert_int_equal(buf[1], 0x20);
	assert_int_equal(get_le16(buf + 6), 2);
	assert_int_equal(buf[8], 0x03);
	/* RTS alone changes nothing the adapter reports; a break does */
	assert_int_equal(ctrl(dm, 6, RT_CLASS_OUT, 0x22, 1, 0, 0, NULL), 0);
	assert_int_equal(dm_transact(dm, DM_PID_IN, 6, 3, buf, 16), DM_NAK);
	assert_int_equal(ctrl(dm, 6, RT_CLASS_OUT, 0x23, 10, 0, 0, NULL), 0);
	assert_int_equal(dm_transact(dm, DM_PID_IN, 6, 3, buf, 16), 10);
	assert_int_equal(buf[8], 0x07);
	/* TX wired to RX */
	assert_int_equal(dm_transact(dm, DM_PID_IN, 6, 1, buf, 512), DM_NAK);
	assert_int_equal(dm_transact(dm, DM_PID_OUT, 6, 2, abc, 3), DM_ACK);
	assert_int_equal(dm_transact(dm, DM_PID_IN, 6, 1, buf, 512), 3);
	assert_memory_equal(buf, abc, 3);
	assert_int_equal(ctrl(dm, 6, RT_CLASS_IN, 0x33, 0, 0, 1, buf),
	    DM_STALL);
	dm_destroy(dm);
}

/* The Bluetooth controller (Core 5.3 Vol 4 Part B 2.2, Part E 7): an
 * HCI command as a class request, its event on interrupt IN 1; ACL with
 * L2CAP signalling on bulk 2. */
static void
test_bluetooth_hci(void **state)
{
	struct usb_devmodel *dm = enumerated("bluetooth", NULL, 9);
	uint8_t		 ev[64], cmd[16];
	static const uint8_t local_name[3] = { 0x14, 0x0c, 0x00 },
	    disc[6] = { 0x06, 0x04, 0x03, 0x0b, 0x00, 0x13 },
	    create[16] = { 0x05, 0x04, 0x0d, 0x66, 0x55, 0x44, 0x33, 0x22,
		0x11, 0x18, 0xcc, 0x01, 0x00, 0x00, 0x00, 0x01 },
	    info[14] = { 0x0b, 0x20, 0x0a, 0x00, 0x06, 0x00, 0x01, 0x00,
		0x0a, 0x07, 0x02, 0x00, 0x02, 0x00 };

	(void)state;
	/* nothing to say yet: NAK */
	assert_int_equal(dm_transact(dm, DM_PID_IN, 9, 1, ev, 64), DM_NAK);
	/* a command it does not know: Command Complete, Unknown HCI
	 * Command (0x01) */
	memcpy(cmd, local_name, sizeof local_name);
	assert_int_equal(ctrl(dm, 9, USB_TYPE_CLASS, 0, 0, 0, 3, cmd), 0);
	assert_int_equal(dm_transact(dm, DM_PID_IN, 9, 1, ev, 64), 6);
	assert_memory_equal(ev, "\x0e\x04\x01\x14\x0c\x01", 6);
	/* a parameter length that is not wLength's: STALL */
	cmd[2] = 1;
	assert_int_equal(ctrl(dm, 9, USB_TYPE_CLASS, 0, 0, 0, 3, cmd),
	    DM_STALL);
	/* Disconnect without a connection: Unknown Connection ID */
	memcpy(cmd, disc, sizeof disc);
	assert_int_equal(ctrl(dm, 9, USB_TYPE_CLASS, 0, 0, 0, 6, cmd), 0);
	assert_int_equal(dm_transact(dm, DM_PID_IN, 9, 1, ev, 64), 6);
	assert_memory_equal(ev, "\x0f\x04\x02\x01\x06\x04", 6);
	/* Create Connection: Command Status, then Connection Complete */
	memcpy(cmd, create, sizeof create);
	assert_int_equal(ctrl(dm, 9, USB_TYPE_CLASS, 0, 0, 0, 16, cmd), 0);
	assert_int_equal(dm_transact(dm, DM_PID_IN, 9, 1, ev, 64), 6);
	assert_memory_equal(ev, "\x0f\x04\x00\x01\x05\x04", 6);
	assert_int_equal(dm_transact(dm, DM_PID_IN, 9, 1, ev, 64), 13);
	assert_int_equal(ev[0], 0x03);
	assert_int_equal(get_le16(ev + 3), 0x000b);
	assert_memory_equal(ev + 5, create + 3, 6);
	/* L2CAP Information Request (extended features): its response
	 * with the same identifier, on the same handle */
	memcpy(cmd, info, sizeof info);
	assert_int_equal(dm_transact(dm, DM_PID_OUT, 9, 2, cmd, 14), DM_ACK);
	assert_int_equal(dm_transact(dm, DM_PID_IN, 9, 2, ev, 64), 20);
	assert_int_equal(get_le16(ev) & 0x0fff, 0x000b);
	assert_int_equal(get_le16(ev + 6), 0x0001);
	assert_int_equal(ev[8], 0x0b);
	assert_int_equal(ev[9], 0x07);
	assert_int_equal(get_le32(ev + 16), 0x000000a0);
	assert_int_equal(dm_transact(dm, DM_PID_IN, 9, 2, ev, 64), DM_NAK);
	dm_destroy(dm);
}

/* The Bluetooth controller's SCO link (Part E 7.1.26, 7.7.35; Part B
 * 2.1.1): Setup Synchronous Connection on the ACL link, then SCO
 * packets in wMaxPacketSize pieces on isochronous IN 3 of interface 1's
 * alt setting, none in alt 0. */
static void
test_bluetooth_sco(void **state)
{
	struct usb_devmodel *dm = enumerated("bluetooth", NULL, 9);
	uint8_t		 ev[64], cmd[20], in[64];
	static const uint8_t create[16] = { 0x05, 0x04, 0x0d, 0x66, 0x55,
		0x44, 0x33, 0x22, 0x11, 0x18, 0xcc, 0x01, 0x00, 0x00, 0x00,
		0x01 },
	    sync[20] = { 0x28, 0x04, 0x11, 0x0b, 0x00, 0x40, 0x1f, 0x00,
		0x00, 0x40, 0x1f, 0x00, 0x00, 0x07, 0x00, 0x60, 0x00, 0x00,
		0x07, 0x00 };
	int		 i;

	(void)state;
	/* no ACL link yet: Unknown Connection ID */
	memcpy(cmd, sync, sizeof sync);
	assert_int_equal(ctrl(dm, 9, USB_TYPE_CLASS, 0, 0, 0, 20, cmd), 0);
	assert_int_equal(dm_transact(dm, DM_PID_IN, 9, 1, ev, 64), 6);
	assert_memory_equal(ev, "\x0f\x04\x02\x01\x28\x04", 6);
	memcpy(cmd, create, sizeof create);
	assert_int_equal(ctrl(dm, 9, USB_TYPE_CLASS, 0, 0, 0, 16, cmd), 0);
	assert_int_equal(dm_transact(dm, DM_PID_IN, 9, 1, ev, 64), 6);
	assert_int_equal(dm_transact(dm, DM_PID_IN, 9, 1, ev, 64), 13);
	memcpy(cmd, sync, sizeof sync);
	assert_int_equal(ctrl(dm, 9, USB_TYPE_CLASS, 0, 0, 0, 20, cmd), 0);
	assert_int_equal(dm_transact(dm, DM_PID_IN, 9, 1, ev, 64), 6);
	assert_memory_equal(ev, "\x0f\x04\x00\x01\x28\x04", 6);
	/* Synchronous Connection Complete: handle 0x000c, the peer, SCO,
	 * 48-byte packets, CVSD */
	assert_int_equal(dm_transact(dm, DM_PID_IN, 9, 1, ev, 64), 19);
	assert_int_equal(ev[0], 0x2c);
	assert_int_equal(ev[2], 0x00);
	assert_int_equal(get_le16(ev + 3), 0x000c);
	assert_memory_equal(ev + 5, create + 3, 6);
	assert_int_equal(ev[11], 0x00);
	assert_int_equal(get_le16(ev + 14), 48);
	assert_int_equal(ev[18], 0x02);
	/* alt 0: no bandwidth, nothing */
	assert_int_equal(dm_transact(dm, DM_PID_IN, 9, 3, in, 17), 0);
	assert_int_equal(ctrl(dm, 9, RT_INTF_OUT, USB_REQ_SET_INTERFACE, 2,
	    1, 0, NULL), 0);
	/* alt 2: an SCO packet (header, 48 bytes) in three 17-byte
	 * packets, the next one right after */
	assert_int_equal(dm_transact(dm, DM_PID_IN, 9, 3, in, 17), 17);
	assert_memory_equal(in, "\x0c\x00\x30\x00\x01", 5);
	assert_int_equal(dm_transact(dm, DM_PID_IN, 9, 3, in, 17), 17);
	assert_int_equal(in[0], 14);
	assert_int_equal(dm_transact(dm, DM_PID_IN, 9, 3, in, 17), 17);
	assert_int_equal(in[16], 47);
	assert_int_equal(dm_transact(dm, DM_PID_IN, 9, 3, in, 17), 17);
	assert_memory_equal(in, "\x0c\x00\x30\x30", 4);
	/* the host's SCO is taken */
	for (i = 0; i < 17; i++)
		in[i] = (uint8_t)i;
	assert_int_equal(dm_transact(dm, DM_PID_OUT, 9, 3, in, 17), DM_ACK);
	assert_int_equal(ctrl(dm, 9, RT_INTF_OUT, USB_REQ_SET_INTERFACE, 0,
	    1, 0, NULL), 0);
	assert_int_equal(dm_transact(dm, DM_PID_IN, 9, 3, in, 17), 0);
	dm_destroy(dm);
}

/* The UAC 2.0 speaker: clock and feature unit requests (UAC 2.0 5.2). */
static void
test_speaker_uac2(void **state)
{
	struct usb_devmodel *dm = enumerated("speaker", NULL, 7);
	uint8_t		 buf[64], rate[4] = { 0x44, 0xac, 0, 0 };
	uint8_t		 vol[2] = { 0x00, 0xf6 }, loud[2] = { 0, 1 };

	(void)state;
	/* clock 16: validity, the frequency's RANGE (count, then all) */
	assert_int_equal(ctrl(dm, 7, RT_CLASS_IN, 0x01, 0x0200, 0x1000, 1,
	    buf), 1);
	assert_int_equal(buf[0], 1);
	assert_int_equal(ctrl(dm, 7, RT_CLASS_IN, 0x02, 0x0100, 0x1000, 2,
	    buf), 2);
	assert_int_equal(get_le16(buf), 2);
	assert_int_equal(ctrl(dm, 7, RT_CLASS_IN, 0x02, 0x0100, 0x1000, 26,
	    buf), 26);
	assert_int_equal(get_le32(buf + 14), 48000);
	assert_int_equal(ctrl(dm, 7, RT_CLASS_OUT, 0x01, 0x0100, 0x1000, 4,
	    rate), 0);
	assert_int_equal(ctrl(dm, 7, RT_CLASS_IN, 0x01, 0x0100, 0x1000, 4,
	    buf), 4);
	assert_int_equal(get_le32(buf), 44100);
	/* feature unit 2: mute, volume CUR and RANGE of channel 1 */
	assert_int_equal(ctrl(dm, 7, RT_CLASS_IN, 0x01, 0x0100, 0x0200, 1,
	    buf), 1);
	assert_int_equal(buf[0], 0);
	assert_int_equal(ctrl(dm, 7, RT_CLASS_IN, 0x02, 0x0201, 0x0200, 8,
	    buf), 8);
	assert_int_equal((int16_t)get_le16(buf + 2), -60 * 256);
	assert_int_equal(ctrl(dm, 7, RT_CLASS_OUT, 0x01, 0x0201, 0x0200, 2,
	    vol), 0);
	assert_int_equal(ctrl(dm, 7, RT_CLASS_IN, 0x01, 0x0201, 0x0200, 2,
	    buf), 2);
	assert_int_equal((int16_t)get_le16(buf), -10 * 256);
	assert_int_equal(ctrl(dm, 7, RT_CLASS_OUT, 0x01, 0x0201, 0x0200, 2,
	    loud), DM_STALL);
	/* no such entity; no volume on the master channel */
	assert_int_equal(ctrl(dm, 7, RT_CLASS_IN, 0x01, 0x0100, 0x0900, 1,
	    buf), DM_STALL);
	assert_int_equal(ctrl(dm, 7, RT_CLASS_IN, 0x01, 0x0200, 0x0200, 2,
	    buf), DM_STALL);
	/* the streaming endpoint is there in alt 1 only */
	assert_int_equal(dm_transact(dm, DM_PID_OUT, 7, 1, buf, 4),
	    DM_STALL);
	assert_int_equal(ctrl(dm, 7, RT_INTF_OUT, USB_REQ_SET_INTERFACE, 1, 1,
	    0, NULL), 0);
	assert_int_equal(dm_transact(dm, DM_PID_OUT, 7, 1, buf, 4), DM_ACK);
	dm_destroy(dm);
}

/* Ticks the model up to t ms (one per ms) and polls once. */
static int
kb_poll_at(struct usb_devmodel *dm, uint64_t *now_ms, uint64_t t,
    uint8_t *report)
{
	for (; *now_ms <= t; (*now_ms)++)
		dm->ops->tick(dm, *now_ms * SIM_MS);
	return dm_transact(dm, DM_PID_IN, dm->address, 1, report, 8);
}

static void
test_keyboard_typing(void **state)
{
	static const uint8_t expect[][3] = {
		{ 0x00, 0x0b },		/* h */
		{ 0x00, 0x00 },
		{ 0x02, 0x0c },		/* I: shift + i */
		{ 0x00, 0x00 },
		{ 0x00, 0x1e },		/* 1 */
		{ 0x00, 0x00 },
	};
	struct usb_devmodel *dm;
	uint8_t		 report[8];
	uint64_t	 now = 0, t;
	size_t		 i;
	int		 r;

	(void)state;
	dm = dm_create("keyboard", "hI\x01" "1");	/* \x01 is skipped */
	assert_non_null(dm);
	dm_bus_reset(dm);
	dm->ops->tick(dm, 0);
	assert_int_equal(ctrl(dm, 0, RT_DEV_OUT, USB_REQ_SET_CONFIGURATION,
	    1, 0, 0, NULL), 0);
	/* Not before the typing starts (20 ms after configuration). */
	assert_int_equal(kb_poll_at(dm, &now, 10, report), DM_NAK);
	for (i = 0, t = 10; i < nitems(expect); i++) {
		/* Poll every 8 ms, as bInterval 7 says, until a report. */
		do {
			t += 8;
			assert_true(t < 1000);
			r = kb_poll_at(dm, &now, t, report);
		} while (r == DM_NAK);
		assert_int_equal(r, 8);
		assert_int_equal(report[0], expect[i][0]);
		assert_int_equal(report[1], 0);
		assert_int_equal(report[2], expect[i][1]);
		assert_int_equal(report[3], 0);
	}
	assert_int_equal(kb_poll_at(dm, &now, 2000, report), DM_NAK);

	/* With an idle rate the last report repeats (SET_IDLE 4 ms). */
	assert_int_equal(ctrl(dm, 0, RT_CLASS_OUT, 0x0a, 1 << 8, 0, 0, NULL),
	    0);
	assert_int_equal(kb_poll_at(dm, &now, 2010, report), 8);
	assert_int_equal(kb_poll_at(dm, &now, 2010, report), DM_NAK);
	assert_int_equal(kb_poll_at(dm, &now, 2015, report), 8);
	dm_destroy(dm);
}

/* ------------------------------------------------------------------------
 * Disk: Bulk-Only Transport.
 */

#define DISK_ADDR	5

static void
cbw(uint8_t *p, uint32_t tag, uint32_t len, int in, const uint8_t *cdb,
    int cdblen)
{
	memset(p, 0, 31);
	put_le32(p, 0x43425355);
	put_le32(p + 4, tag);
	put_le32(p + 8, len);
	p[12] = in ? 0x80 : 0;
	p[13] = 0;
	p[14] = (uint8_t)cdblen;
	memcpy(p + 15, cdb, (size_t)cdblen);
}

/* Bulk OUT of len bytes in 512-byte packets: DM_ACK or the failure. */
static int
bulk_out(struct usb_devmodel *dm, const uint8_t *p, size_t len)
{
	uint8_t	 pkt[512];
	size_t	 off, n;
	int	 r;

	for (off = 0; off < len; off += n) {
		n = len - off < 512 ? len - off : 512;
		memcpy(pkt, p + off, n);
		if ((r = dm_transact(dm, DM_PID_OUT, DISK_ADDR, 2, pkt, n)) !=
		    DM_ACK)
			return r;
	}
	return DM_ACK;
}

/* Bulk IN up to len bytes, ending at a short packet: bytes or failure. */
static int
bulk_in(struct usb_devmodel *dm, uint8_t *p, size_t len)
{
	uint8_t	 pkt[512];
	size_t	 got = 0;
	int	 r;

	while (got < len) {
		r = dm_transact(dm, DM_PID_IN, DISK_ADDR, 1, pkt, 512);
		if (r < 0)
			return got > 0 ? (int)got : r;
		assert_true(got + (size_t)r <= len);
		memcpy(p + got, pkt, (size_t)r);
		got += (size_t)r;
		if (r < 512)
			break;
	}
	return (int)got;
}

/* Read the CSW; returns its status, *residue its residue. */
static int
csw(struct usb_devmodel *dm, uint32_t tag, uint32_t *residue)
{
	uint8_t	 p[512];

	assert_int_equal(dm_transact(dm, DM_PID_IN, DISK_ADDR, 1, p, 512), 13);
	assert_int_equal(get_le32(p), 0x53425355);
	assert_int_equal(get_le32(p + 4), tag);
	if (residue != NULL)
		*residue = get_le32(p + 8);
	return p[12];
}

/* A whole command with an IN data phase; returns the CSW status. */
static int
scsi_in(struct usb_devmodel *dm, uint32_t tag, const uint8_t *cdb,
    int cdblen, uint8_t *data, uint32_t len, int *got)
{
	uint8_t	 c[31];

	cbw(c, tag, len, 1, cdb, cdblen);
	assert_int_equal(bulk_out(dm, c, 31), DM_ACK);
	*got = len > 0 ? bulk_in(dm, data, len) : 0;
	return csw(dm, tag, NULL);
}

static int
clear_halt(struct usb_devmodel *dm, int ep)
{
	return ctrl(dm, DISK_ADDR, RT_EP_OUT, USB_REQ_CLEAR_FEATURE,
	    USB_ENDPOINT_HALT, (uint16_t)ep, 0, NULL);
}

static void
test_disk_commands(void **state)
{
	static const uint8_t tur[6] = { 0x00 };
	static const uint8_t inquiry[6] = { 0x12, 0, 0, 0, 36, 0 };
	static const uint8_t capacity[10] = { 0x25 };
	static const uint8_t sense[6] = { 0x03, 0, 0, 0, 18, 0 };
	static const uint8_t modesense[6] = { 0x1a, 0, 0x3f, 0, 192, 0 };
	static const uint8_t bogus[6] = { 0xc7 };
	struct usb_devmodel *dm = enumerated("disk", "1M", DISK_ADDR);
	uint8_t		 buf[8192], c[31];
	int		 got;

	(void)state;
	/* GET_MAX_LUN: one LUN. */
	buf[0] = 0xff;
	assert_int_equal(ctrl(dm, DISK_ADDR, RT_CLASS_IN, 0xfe, 0, 0, 1, buf),
	    1);
	assert_int_equal(buf[0], 0);

	assert_int_equal(scsi_in(dm, 1, inquiry, 6, buf, 36, &got), 0);
	assert_int_equal(got, 36);
	assert_int_equal(buf[0] & 0x1f, 0);
	assert_memory_equal(buf + 8, "urbscope", 8);

	/* TEST UNIT READY: no data phase. */
	cbw(c, 2, 0, 0, tur, 6);
	assert_int_equal(bulk_out(dm, c, 31), DM_ACK);
	assert_int_equal(csw(dm, 2, NULL), 0);

	assert_int_equal(scsi_in(dm, 3, capacity, 10, buf, 8, &got), 0);
	assert_int_equal(got, 8);
	assert_int_equal(get_be32(buf), 2047);		/* 1 MiB / 512 - 1 */
	assert_int_equal(get_be32(buf + 4), 512);

	assert_int_equal(scsi_in(dm, 4, modesense, 6, buf, 192, &got), 0);
	assert_int_equal(got, 24);			/* header + caching */
	assert_int_equal(buf[0], got - 1);
	assert_int_equal(buf[2] & 0x80, 0);		/* not protected */
	assert_int_equal(buf[4], 0x08);
	assert_int_equal(buf[5], 0x12);

	/* An unknown command fails with ILLEGAL REQUEST, INVALID OPCODE. */
	cbw(c, 5, 0, 0, bogus, 6);
	assert_int_equal(bulk_out(dm, c, 31), DM_ACK);
	assert_int_equal(csw(dm, 5, NULL), 1);
	assert_int_equal(scsi_in(dm, 6, sense, 6, buf, 18, &got), 0);
	assert_int_equal(got, 18);
	assert_int_equal(buf[0], 0x70);
	assert_int_equal(buf[2] & 0xf, 0x5);
	assert_int_equal(buf[12], 0x20);
	/* Reading the sense cleared it. */
	assert_int_equal(scsi_in(dm, 7, sense, 6, buf, 18, &got), 0);
	assert_int_equal(buf[2] & 0xf, 0);
	dm_destroy(dm);
}

/* The lines a model said (dm_note). */
static char	 noted[4096];

static void
note(void *arg, const char *text)
{
	(void)arg;
	if (strlen(noted) + strlen(text) + 2 < sizeof noted) {
		strcat(noted, text);
		strcat(noted, "\n");
	}
}

/*
 * The isochronous packets of a capture's records on endpoint ep, read
 * here as the test's own reference: of the IN completions ('C') or the
 * OUT submissions ('S'), each packet's bytes at its descriptor's offset,
 * concatenated into pk, their lengths into len.  The number of packets.
 */
static size_t
iso_packets(const char *file, int ep, uint8_t *pk, size_t pkmax,
    uint32_t *len, size_t lmax)
{
	struct cap_source *src;
	struct urb_rec	 r;
	struct drv_event ev;
	char		 err[256];
	size_t		 n = 0, at = 0;
	uint32_t	 i;
	int		 rc;

	assert_int_equal(cap_open(file, &src, err, sizeof err), 0);
	while ((rc = cap_next(src, &r, &ev)) > 0) {
		if (rc != CAP_URB || r.xfer_type != XFER_ISO ||
		    r.epnum != ep || r.type != ((ep & USB_DIR_IN) ? 'C' : 'S'))
			continue;
		for (i = 0; i < r.niso && n < lmax; i++) {
			assert_true(r.iso[i].len == 0 ||
			    r.iso[i].off + r.iso[i].len <= r.data_len);
			assert_true(at + r.iso[i].len <= pkmax);
			memcpy(pk + at, r.data + r.iso[i].off, r.iso[i].len);
			at += r.iso[i].len;
			len[n++] = r.iso[i].len;
		}
	}
	cap_close(src);
	return n;
}

/* A capture's device replayed (args as the model takes them), at address
 * 5, configured; with alt >= 0, interface 1 in that alternate setting
 * (where a camera or a sound card streams). */
static struct usb_devmodel *
replayed(const char *args, int alt)
{
	struct usb_devmodel *dm;

	noted[0] = '\0';
	dm = dm_create_noted("replay", args, note, NULL);
	assert_non_null(dm);
	dm_bus_reset(dm);
	assert_int_equal(ctrl(dm, 0, RT_DEV_OUT, USB_REQ_SET_ADDRESS, 5, 0, 0,
	    NULL), 0);
	assert_int_equal(ctrl(dm, 5, RT_DEV_OUT, USB_REQ_SET_CONFIGURATION, 1,
	    0, 0, NULL), 0);
	if (alt >= 0)
		assert_int_equal(ctrl(dm, 5, RT_INTF_OUT,
		    USB_REQ_SET_INTERFACE, (uint16_t)alt, 1, 0, NULL), 0);
	return dm;
}

/*
 * What a replay does where the host diverges: by default it carries on (a
 * request never recorded accepted when it brings no data, OUT data that
 * differs accepted, an IN beyond the recording NAKed); with "strict" each
 * is STALLed.  Either way each is said, and a request never recorded that
 * asks for data is STALLed.  The words after FILE are read from the end.
 */
static void
test_replay_strict(void **state)
{
	static const char *const kbd[2] = { "samples/hid-keyboard.pcap",
	    "samples/hid-keyboard.pcap 1.2 strict" };
	static const char *const midi[2] = { "samples/uac2-headset.pcap 1.2",
	    "samples/uac2-headset.pcap strict" };
	static const uint8_t note_on[8] = { 0x09, 0x90, 0x3c, 0x01 };
	struct usb_devmodel *dm;
	uint8_t		 buf[64];
	char		 want[200];
	int		 strict, n, r;

	(void)state;
	assert_null(dm_create("replay", "samples/hid-keyboard.pcap 9.9 "
	    "strict"));
	for (strict = 0; strict < 2; strict++) {
		dm = replayed(kbd[strict], -1);
		assert_int_equal(ctrl(dm, 5, 0x40, 0x42, 0, 0, 0, NULL),
		    strict ? DM_STALL : 0);
		snprintf(want, sizeof want, "replay: request 40 42 0000 0000 "
		    "0000 not in the recording: %s\n", strict ? "STALLed" :
		    "accepted");
		assert_non_null(strstr(noted, want));
		assert_int_equal(ctrl(dm, 5, 0xc0, 0x42, 0, 0, 4, buf),
		    DM_STALL);
		/* the 12 reports recorded, their time long come */
		dm_tick(dm, 1000000000000ull);
		for (n = 0; (r = dm_transact(dm, DM_PID_IN, 5, 1, buf, 8)) >= 0;
		    n++)
			assert_int_equal(r, 8);
		assert_int_equal(n, 12);
		assert_int_equal(r, strict ? DM_STALL : DM_NAK);
		snprintf(want, sizeof want, "replay: IN 0x81: the host reads on "
		    "after the last of the 12 transfers recorded: %s\n",
		    strict ? "STALLed" : "NAKed");
		assert_non_null(strstr(noted, want));
		dm_destroy(dm);

		/* USB-MIDI OUT (interface 2's bulk 0x02): a note other
		 * than the recorded one */
		dm = replayed(midi[strict], -1);
		memcpy(buf, note_on, 8);
		assert_int_equal(dm_transact(dm, DM_PID_OUT, 5, 2, buf, 8),
		    strict ? DM_STALL : DM_ACK);
		snprintf(want, sizeof want, "OUT 0x02: data differs from "
		    "record 130's from byte 0 on%s\n", strict ? ": STALLed" :
		    "");
		assert_non_null(strstr(noted, want));
		dm_destroy(dm);
	}
}

/*
 * The n packets of want (their lengths in len) read from dm's IN 0x81 as
 * a host controller reads them, one a transaction; a packet that carried
 * nothing (with or without an error recorded, as -EXDEV) may come as no
 * data.  uvc: each is a UVC payload (UVC 1.5 2.4.3.3), a 12-byte header;
 * the payloads with End of Frame counted.
 */
static int
read_packets(struct usb_devmodel *dm, const uint8_t *want,
    const uint32_t *len, size_t n, int uvc)
{
	uint8_t		 buf[1024];
	size_t		 i, at;
	int		 got, eof = 0;

	for (i = at = 0; i < n; at += len[i++]) {
		got = dm_transact(dm, DM_PID_IN, 5, 1, buf, sizeof buf);
		if (len[i] == 0 && got == DM_NAK)
			continue;
		assert_int_equal(got, len[i]);
		assert_memory_equal(buf, want + at, len[i]);
		if (uvc && got > 0) {
			assert_int_equal(buf[0], 12);
			eof += (buf[1] & 0x02) != 0;
		}
	}
	return eof;
}

/*
 * Isochronous endpoints replayed packet by packet: samples/uvc-webcam's
 * video IN (1024-byte packets, each a UVC payload, a frame's end where it
 * was), iso.pcap's audio IN of uneven packets, then zero-length packets
 * and a note past the recording; uac2-headset's audio OUT compared, the
 * first packet that differs said once.
 */
static void
test_replay_iso(void **state)
{
	static uint8_t	 want[1 << 20], buf[1024];
	uint32_t	 len[4096];
	struct usb_devmodel *dm;
	const char	*p;
	size_t		 n, i, at;
	int		 eof;

	(void)state;
	/* video: alternate setting 1 of interface 1 streams on 0x81 */
	n = iso_packets("samples/uvc-webcam.pcapng", 0x81, want, sizeof want,
	    len, 4096);
	assert_int_equal(n, 6 * 8);
	dm = replayed("samples/uvc-webcam.pcapng", 1);
	eof = read_packets(dm, want, len, n, 1);
	assert_int_equal(eof, 2);	/* the two frames recorded */
	assert_int_equal(dm_transact(dm, DM_PID_IN, 5, 1, buf, sizeof buf),
	    DM_NAK);
	assert_int_equal(dm_transact(dm, DM_PID_IN, 5, 1, buf, sizeof buf),
	    DM_NAK);
	assert_non_null(strstr(noted, "replay: IN 0x81: the host reads on "
	    "after the last of the 48 isochronous packets recorded: "
	    "zero-length packets\n"));
	dm_destroy(dm);

	/* audio IN whose packets differ in length */
	n = iso_packets("samples/iso.pcap", 0x81, want, sizeof want, len,
	    4096);
	assert_true(n > 8);
	for (i = 1; i < n && len[i] == len[0]; i++)
		;
	assert_true(i < n);
	dm = replayed("samples/iso.pcap", 1);
	(void)read_packets(dm, want, len, n, 0);
	assert_int_equal(dm_transact(dm, DM_PID_IN, 5, 1, buf, sizeof buf),
	    DM_NAK);
	dm_destroy(dm);

	/* audio OUT: the recorded packets pass unsaid, then one differs */
	n = iso_packets("samples/uac2-headset.pcap", 0x01, want, sizeof want,
	    len, 4096);
	assert_int_equal(n, 6 * 8);
	dm = replayed("samples/uac2-headset.pcap", 1);
	for (i = at = 0; i < 40; at += len[i++])
		assert_int_equal(dm_transact(dm, DM_PID_OUT, 5, 1, want + at,
		    len[i]), DM_ACK);
	assert_null(strstr(noted, "differs"));
	memcpy(buf, want + at, len[40]);
	buf[7] ^= 0xff;
	assert_int_equal(dm_transact(dm, DM_PID_OUT, 5, 1, buf, len[40]),
	    DM_ACK);
	buf[9] ^= 0xff;
	for (i = 41; i <= n; i++)
		assert_int_equal(dm_transact(dm, DM_PID_OUT, 5, 1, buf, len[40]),
		    DM_ACK);
	assert_non_null(strstr(noted, "replay: OUT 0x01: isochronous packet "
	    "41 (384 bytes) differs from record "));
	for (i = 0, p = noted; (p = strstr(p, "differs")) != NULL; p++)
		i++;
	assert_int_equal(i, 1);
	assert_non_null(strstr(noted, "replay: OUT 0x01: more sent than the "
	    "48 isochronous packets recorded: accepted\n"));
	dm_destroy(dm);
}

/*
 * A disk replayed from samples/mass-storage.pcapng (the simulator's disk
 * as capgen recorded it), answered by SCSI content: the host's own tags,
 * the recorded answers by CDB (TEST UNIT READY fails first, as recorded),
 * the blocks as the capture last saw them, zeros and a note for one it
 * never saw, a
 * data phase shorter than asked ended by a zero-length packet, a command
 * never recorded STALLed and failed with ILLEGAL REQUEST, a CBW that is
 * none STALLing both pipes until reset recovery.
 */
static void
test_replay_disk(void **state)
{
	static const uint8_t inquiry[6] = { 0x12, 0, 0, 0, 36, 0 };
	static const uint8_t tur[6] = { 0x00 };
	static const uint8_t sense[6] = { 0x03, 0, 0, 0, 96, 0 };
	static const uint8_t rd100[10] = { 0x28, 0, 0, 0, 0, 100, 0, 0, 1, 0 };
	static const uint8_t rd5000[10] = { 0x28, 0, 0, 0, 0x13, 0x88, 0, 0, 1,
	    0 };
	static const uint8_t wr5000[10] = { 0x2a, 0, 0, 0, 0x13, 0x88, 0, 0, 1,
	    0 };
	static const uint8_t luns[12] = { 0xa0, 0, 0, 0, 0, 0, 0, 0, 0, 16 };
	struct usb_devmodel *dm;
	uint8_t		 buf[8192], c[31], blk[512];
	uint32_t	 residue;
	int		 got, i;

	(void)state;
	noted[0] = '\0';
	dm = dm_create_noted("replay", "samples/mass-storage.pcapng", note,
	    NULL);
	assert_non_null(dm);
	assert_non_null(strstr(noted, "replay: mass storage: 13 SCSI commands "
	    "recorded, 65 blocks of 512 bytes\n"));
	dm_bus_reset(dm);
	assert_int_equal(ctrl(dm, 0, RT_DEV_OUT, USB_REQ_SET_ADDRESS,
	    DISK_ADDR, 0, 0, NULL), 0);
	assert_int_equal(ctrl(dm, DISK_ADDR, RT_DEV_OUT,
	    USB_REQ_SET_CONFIGURATION, 1, 0, 0, NULL), 0);

	assert_int_equal(scsi_in(dm, 0xabc0, inquiry, 6, buf, 36, &got), 0);
	assert_int_equal(got, 36);
	assert_memory_equal(buf + 8, "urbscopeSynthetic Disk  ", 24);
	/* TEST UNIT READY fails once (its recorded UNIT ATTENTION) */
	cbw(c, 0xabc1, 0, 0, tur, 6);
	assert_int_equal(bulk_out(dm, c, 31), DM_ACK);
	assert_int_equal(csw(dm, 0xabc1, NULL), 1);
	assert_int_equal(scsi_in(dm, 0xabc2, sense, 6, buf, 96, &got), 0);
	assert_int_equal(buf[2] & 0xf, 0x6);
	cbw(c, 0xabc3, 0, 0, tur, 6);
	assert_int_equal(bulk_out(dm, c, 31), DM_ACK);
	assert_int_equal(csw(dm, 0xabc3, NULL), 0);

	/* the block the capture wrote, asked in 1024 bytes: 512, then a
	 * zero-length packet, residue 512 */
	cbw(c, 0xabc4, 1024, 1, rd100, 10);
	assert_int_equal(bulk_out(dm, c, 31), DM_ACK);
	assert_int_equal(bulk_in(dm, buf, 1024), 512);
	/* the last data the capture saw there: its READ after its WRITE */
	assert_memory_equal(buf, "urbscope READ  lba 0x00000064", 29);
	assert_int_equal(csw(dm, 0xabc4, &residue), 0);
	assert_int_equal(residue, 512);
	/* one it never saw: zeros, said; written, then read back */
	assert_int_equal(scsi_in(dm, 0xabc5, rd5000, 10, buf, 512, &got), 0);
	assert_int_equal(got, 512);
	for (i = 0; i < 512; i++)
		assert_int_equal(buf[i], 0);
	assert_non_null(strstr(noted, "replay: SCSI 28 00 00 00 13 88 00 00 "
	    "01 00 (lba 5000, 1 blocks): 1 of them not in the recording: "
	    "zeros\n"));
	for (i = 0; i < 512; i++)
		blk[i] = (uint8_t)(i * 3);
	cbw(c, 0xabc6, 512, 0, wr5000, 10);
	assert_int_equal(bulk_out(dm, c, 31), DM_ACK);
	assert_int_equal(bulk_out(dm, blk, 512), DM_ACK);
	assert_int_equal(csw(dm, 0xabc6, &residue), 0);
	assert_int_equal(residue, 0);
	assert_int_equal(scsi_in(dm, 0xabc7, rd5000, 10, buf, 512, &got), 0);
	assert_memory_equal(buf, blk, 512);

	/* never recorded: the data phase STALLed, CHECK CONDITION, our
	 * sense */
	cbw(c, 0xabc8, 16, 1, luns, 12);
	assert_int_equal(bulk_out(dm, c, 31), DM_ACK);
	assert_int_equal(dm_transact(dm, DM_PID_IN, DISK_ADDR, 1, buf, 512),
	    DM_STALL);
	assert_int_equal(clear_halt(dm, 0x81), 0);
	assert_int_equal(csw(dm, 0xabc8, &residue), 1);
	assert_int_equal(residue, 16);
	assert_int_equal(scsi_in(dm, 0xabc9, sense, 6, buf, 96, &got), 0);
	assert_int_equal(got, 18);
	assert_int_equal(buf[2] & 0xf, 0x5);
	assert_int_equal(buf[12], 0x20);

	/* no CBW: both pipes STALLed until reset recovery (BOT 5.3.4) */
	memset(c, 0x55, sizeof c);
	assert_int_equal(bulk_out(dm, c, 31), DM_STALL);
	assert_int_equal(dm_transact(dm, DM_PID_IN, DISK_ADDR, 1, buf, 512),
	    DM_STALL);
	assert_int_equal(ctrl(dm, DISK_ADDR, RT_CLASS_OUT, 0xff, 0, 0, 0,
	    NULL), 0);
	assert_int_equal(clear_halt(dm, 0x81), 0);
	assert_int_equal(clear_halt(dm, 0x02), 0);
	assert_int_equal(scsi_in(dm, 0xabca, rd100, 10, buf, 512, &got), 0);
	assert_int_equal(got, 512);
	dm_destroy(dm);
}

static void
test_disk_write_read(void **state)
{
	uint8_t		 wr[10] = { 0x2a, 0, 0, 0, 0, 100, 0, 0, 8, 0 };
	uint8_t		 rd[10] = { 0x28, 0, 0, 0, 0, 100, 0, 0, 8, 0 };
	uint8_t		 bad[10] = { 0x28, 0, 0, 0, 0x07, 0xff, 0, 0, 2, 0 };
	static const uint8_t sense[6] = { 0x03, 0, 0, 0, 18, 0 };
	struct usb_devmodel *dm = enumerated("disk", NULL, DISK_ADDR);
	uint8_t		 out[4096], in[4096], c[31];
	uint32_t	 residue;
	size_t		 i;
	int		 got;

	(void)state;
	for (i = 0; i < sizeof out; i++)
		out[i] = (uint8_t)(i ^ (i >> 8) ^ 0x5a);
	/* WRITE(10) 8 blocks at LBA 100, then READ(10) them back. */
	cbw(c, 10, sizeof out, 0, wr, 10);
	assert_int_equal(bulk_out(dm, c, 31), DM_ACK);
	assert_int_equal(bulk_out(dm, out, sizeof out), DM_ACK);
	assert_int_equal(csw(dm, 10, &residue), 0);
	assert_int_equal(residue, 0);
	assert_int_equal(scsi_in(dm, 11, rd, 10, in, sizeof in, &got), 0);
	assert_int_equal(got, sizeof in);
	assert_memory_equal(in, out, sizeof out);
	/* Neighbouring blocks are still zero. */
	rd[5] = 99;
	rd[8] = 1;
	assert_int_equal(scsi_in(dm, 12, rd, 10, in, 512, &got), 0);
	for (i = 0; i < 512; i++)
		assert_int_equal(in[i], 0);

	/* Past the end (LBA 2047 + 2 blocks): the host expected data, the
	 * device has none: STALL, then a failed CSW with all residue. */
	cbw(c, 13, 1024, 1, bad, 10);
	assert_int_equal(bulk_out(dm, c, 31), DM_ACK);
	assert_int_equal(dm_transact(dm, DM_PID_IN, DISK_ADDR, 1, in, 512),
	    DM_STALL);
	assert_int_equal(clear_halt(dm, 0x81), 0);
	assert_int_equal(csw(dm, 13, &residue), 1);
	assert_int_equal(residue, 1024);
	assert_int_equal(scsi_in(dm, 14, sense, 6, in, 18, &got), 0);
	assert_int_equal(in[2] & 0xf, 0x5);
	assert_int_equal(in[12], 0x21);		/* LBA out of range */

	/* The host asks more than the device has (case 5): a short last
	 * packet ends the data, the residue says how much was missing. */
	rd[5] = 100;
	rd[8] = 1;
	cbw(c, 15, 700, 1, rd, 10);
	assert_int_equal(bulk_out(dm, c, 31), DM_ACK);
	assert_int_equal(bulk_in(dm, in, 700), 512);
	assert_int_equal(dm_transact(dm, DM_PID_IN, DISK_ADDR, 1, in, 512),
	    DM_STALL);
	assert_int_equal(clear_halt(dm, 0x81), 0);
	assert_int_equal(csw(dm, 15, &residue), 0);
	assert_int_equal(residue, 700 - 512);
	dm_destroy(dm);
}

static void
test_disk_bad_cbw(void **state)
{
	static const uint8_t tur[6] = { 0x00 };
	static const uint8_t inquiry[6] = { 0x12, 0, 0, 0, 36, 0 };
	struct usb_devmodel *dm = enumerated("disk", "64K", DISK_ADDR);
	uint8_t		 c[31], buf[512];
	uint32_t	 residue;

	(void)state;
	/* Not valid (signature): both pipes stall until reset recovery. */
	cbw(c, 20, 0, 0, tur, 6);
	c[0] = 'X';
	assert_int_equal(bulk_out(dm, c, 31), DM_STALL);
	assert_int_equal(dm_transact(dm, DM_PID_IN, DISK_ADDR, 1, buf, 512),
	    DM_STALL);
	/* Clearing the halts alone is not enough. */
	assert_int_equal(clear_halt(dm, 0x81), 0);
	assert_int_equal(clear_halt(dm, 0x02), 0);
	cbw(c, 21, 0, 0, tur, 6);
	assert_int_equal(bulk_out(dm, c, 31), DM_STALL);
	/* Reset recovery: the class reset, then both CLEAR_FEATUREs. */
	assert_int_equal(ctrl(dm, DISK_ADDR, RT_CLASS_OUT, 0xff, 0, 0, 0,
	    NULL), 0);
	assert_int_equal(clear_halt(dm, 0x81), 0);
	assert_int_equal(clear_halt(dm, 0x02), 0);
	assert_int_equal(bulk_out(dm, c, 31), DM_ACK);
	assert_int_equal(csw(dm, 21, NULL), 0);

	/* Not meaningful (CB length 0) and the wrong length: same. */
	cbw(c, 22, 0, 0, tur, 6);
	c[14] = 0;
	assert_int_equal(bulk_out(dm, c, 31), DM_STALL);
	assert_int_equal(ctrl(dm, DISK_ADDR, RT_CLASS_OUT, 0xff, 0, 0, 0,
	    NULL), 0);
	assert_int_equal(clear_halt(dm, 0x81), 0);
	assert_int_equal(clear_halt(dm, 0x02), 0);
	cbw(c, 23, 0, 0, tur, 6);
	assert_int_equal(bulk_out(dm, c, 30), DM_STALL);
	assert_int_equal(ctrl(dm, DISK_ADDR, RT_CLASS_OUT, 0xff, 0, 0, 0,
	    NULL), 0);
	assert_int_equal(clear_halt(dm, 0x81), 0);
	assert_int_equal(clear_halt(dm, 0x02), 0);

	/* Valid but the direction is wrong (case 10: Ho <> Di): the OUT
	 * pipe stalls and the CSW says phase error. */
	cbw(c, 24, 36, 0, inquiry, 6);
	assert_int_equal(bulk_out(dm, c, 31), DM_ACK);
	assert_int_equal(bulk_out(dm, buf, 36), DM_STALL);
	assert_int_equal(clear_halt(dm, 0x02), 0);
	assert_int_equal(csw(dm, 24, NULL), 2);
	/* The host expects less than the device has (case 7). */
	cbw(c, 25, 8, 1, inquiry, 6);
	assert_int_equal(bulk_out(dm, c, 31), DM_ACK);
	assert_int_equal(bulk_in(dm, buf, 8), 8);
	assert_int_equal(csw(dm, 25, &residue), 2);
	/* The device wants data, the host expects none (case 2). */
	cbw(c, 26, 0, 1, inquiry, 6);
	assert_int_equal(bulk_out(dm, c, 31), DM_ACK);
	assert_int_equal(csw(dm, 26, NULL), 2);
	/* A CBW where the CSW was due: the model stalls the OUT pipe and
	 * the framework keeps it halted until CLEAR_FEATURE. */
	cbw(c, 27, 0, 0, tur, 6);
	assert_int_equal(bulk_out(dm, c, 31), DM_ACK);
	assert_int_equal(bulk_out(dm, c, 31), DM_STALL);
	assert_int_equal(ctrl(dm, DISK_ADDR, RT_EP_IN, USB_REQ_GET_STATUS, 0,
	    0x02, 2, buf), 2);
	assert_int_equal(buf[0], 1);
	assert_int_equal(csw(dm, 27, NULL), 0);
	assert_int_equal(bulk_out(dm, c, 31), DM_STALL);
	assert_int_equal(clear_halt(dm, 0x02), 0);
	/* And a good command after all that. */
	cbw(c, 28, 0, 0, tur, 6);
	assert_int_equal(bulk_out(dm, c, 31), DM_ACK);
	assert_int_equal(csw(dm, 28, NULL), 0);
	/* A bus reset forgets a half-done command. */
	cbw(c, 29, 36, 1, inquiry, 6);
	assert_int_equal(bulk_out(dm, c, 31), DM_ACK);
	dm_bus_reset(dm);
	assert_int_equal(ctrl(dm, 0, RT_DEV_OUT, USB_REQ_SET_ADDRESS,
	    DISK_ADDR, 0, 0, NULL), 0);
	assert_int_equal(ctrl(dm, DISK_ADDR, RT_DEV_OUT,
	    USB_REQ_SET_CONFIGURATION, 1, 0, 0, NULL), 0);
	assert_int_equal(dm_transact(dm, DM_PID_IN, DISK_ADDR, 1, buf, 512),
	    DM_NAK);
	dm_destroy(dm);
}

static void
test_disk_file(void **state)
{
	uint8_t		 wr[10] = { 0x2a, 0, 0, 0, 0, 3, 0, 0, 1, 0 };
	static const uint8_t capacity[10] = { 0x25 };
	struct usb_devmodel *dm;
	char		 path[] = "/tmp/urbscope-disk-XXXXXX";
	uint8_t		 blk[512], c[31], buf[512];
	int		 fd, got;

	(void)state;
	fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(ftruncate(fd, 16 * 512), 0);
	dm = enumerated("disk", path, DISK_ADDR);
	assert_int_equal(scsi_in(dm, 1, capacity, 10, buf, 8, &got), 0);
	assert_int_equal(get_be32(buf), 15);
	memset(blk, 0xc3, sizeof blk);
	cbw(c, 2, 512, 0, wr, 10);
	assert_int_equal(bulk_out(dm, c, 31), DM_ACK);
	assert_int_equal(bulk_out(dm, blk, 512), DM_ACK);
	assert_int_equal(csw(dm, 2, NULL), 0);
	dm_destroy(dm);
	/* It is in the file. */
	assert_int_equal(pread(fd, buf, 512, 3 * 512), 512);
	assert_memory_equal(buf, blk, 512);
	close(fd);
	unlink(path);
}

/* ------------------------------------------------------------------------
 * Injected faults.
 */

static void
test_inject(void **state)
{
	struct usb_devmodel *dm = enumerated("loopback", NULL, 6);
	uint8_t		 buf[512];

	(void)state;
	memset(buf, 1, sizeof buf);
	/* No response for N transactions on that endpoint. */
	dm_inject(dm, DM_FAULT_XACTERR, 0x02, 2);
	assert_int_equal(dm_transact(dm, DM_PID_IN, 6, 1, buf, 512), DM_NAK);
	assert_int_equal(dm_transact(dm, DM_PID_OUT, 6, 2, buf, 64),
	    DM_XACTERR);
	assert_int_equal(dm_transact(dm, DM_PID_OUT, 6, 2, buf, 64),
	    DM_XACTERR);
	assert_int_equal(dm_transact(dm, DM_PID_OUT, 6, 2, buf, 64), DM_ACK);

	/* Babble on the next IN. */
	dm_inject(dm, DM_FAULT_BABBLE, -1, 0);
	assert_int_equal(dm_transact(dm, DM_PID_OUT, 6, 2, buf, 64), DM_ACK);
	assert_int_equal(dm_transact(dm, DM_PID_IN, 6, 1, buf, 512),
	    DM_BABBLE);
	assert_int_equal(dm_transact(dm, DM_PID_IN, 6, 1, buf, 512), 128);

	/* STALL until CLEAR_FEATURE(ENDPOINT_HALT). */
	dm_inject(dm, DM_FAULT_STALL, 0x81, 0);
	assert_int_equal(dm_transact(dm, DM_PID_IN, 6, 1, buf, 512),
	    DM_STALL);
	assert_int_equal(dm_transact(dm, DM_PID_IN, 6, 1, buf, 512),
	    DM_STALL);
	assert_int_equal(dm_transact(dm, DM_PID_OUT, 6, 2, buf, 8), DM_ACK);
	assert_int_equal(ctrl(dm, 6, RT_EP_OUT, USB_REQ_CLEAR_FEATURE,
	    USB_ENDPOINT_HALT, 0x81, 0, NULL), 0);
	assert_int_equal(dm_transact(dm, DM_PID_IN, 6, 1, buf, 512), 8);

	/* STALL on ep0: the next request only. */
	dm_inject(dm, DM_FAULT_STALL, 0, 0);
	assert_int_equal(ctrl(dm, 6, RT_DEV_IN, USB_REQ_GET_CONFIGURATION, 0,
	    0, 1, buf), DM_STALL);
	assert_int_equal(ctrl(dm, 6, RT_DEV_IN, USB_REQ_GET_CONFIGURATION, 0,
	    0, 1, buf), 1);

	/* Disconnect after one more transaction: then nobody is there. */
	dm_inject(dm, DM_FAULT_DISCONNECT, -1, 1);
	assert_int_equal(dm_transact(dm, DM_PID_OUT, 6, 2, buf, 8), DM_ACK);
	assert_false(dm->gone);
	assert_int_equal(dm_transact(dm, DM_PID_OUT, 6, 2, buf, 8),
	    DM_NODEV);
	assert_true(dm->gone);
	assert_int_equal(ctrl(dm, 6, RT_DEV_IN, USB_REQ_GET_CONFIGURATION, 0,
	    0, 1, buf), DM_NODEV);
	dm_destroy(dm);
}

/* inject's words (dm_inject_parse), then faults armed on triggers. */
#define WORDS(w)	((char *const *)(w))	/* string literals */
static void
test_inject_triggers(void **state)
{
	struct usb_devmodel *dm = enumerated("loopback", NULL, 6);
	struct dm_inject_spec s;
	uint8_t		 buf[512], cbw[31];
	char		 err[160];
	const char	*w1[] = { "stall", "0x02", "1", "on", "scsi", "0x28", "2" };
	const char	*w2[] = { "xacterr", "on", "packet", "0x81", "3" };
	const char	*w3[] = { "nak", "0x81", "2" };
	const char	*w4[] = { "stall", "on", "scsi" };
	const char	*w5[] = { "stall", "on", "tuesday", "1" };
	const char	*w6[] = { "melt" };
	const char	*w7[] = { "babble", "on", "request", "0x06" };
	const char	*w8[] = { "delay", "0x81", "5" };
	const char	*w9[] = { "xacterr", "on", "bytes", "0x81", "20" };
	const char	*w10[] = { "stall", "on", "bytes", "0x81" };
	const char	*w11[] = { "stall", "on", "bytes", "0x81", "lots" };

	(void)state;
	assert_int_equal(dm_inject_parse(WORDS(w1), 7, &s, err, sizeof err), 0);
	assert_int_equal(s.kind, DM_FAULT_STALL);
	assert_int_equal(s.ep, 0x02);
	assert_int_equal(s.count, 1);
	assert_int_equal(s.on, DM_ON_SCSI);
	assert_int_equal(s.value, 0x28);
	assert_int_equal(s.nth, 2);
	/* on packet: the fault on the trigger's endpoint */
	assert_int_equal(dm_inject_parse(WORDS(w2), 5, &s, err, sizeof err), 0);
	assert_int_equal(s.ep, 0x81);
	assert_int_equal(s.nth, 3);
	assert_int_equal(dm_inject_parse(WORDS(w3), 3, &s, err, sizeof err), 0);
	assert_int_equal(s.on, DM_ON_NOW);
	assert_int_equal(s.count, 2);
	assert_int_equal(dm_inject_parse(WORDS(w4), 3, &s, err, sizeof err), -1);
	assert_non_null(strstr(err, "on scsi OPCODE|any"));
	assert_int_equal(dm_inject_parse(WORDS(w5), 4, &s, err, sizeof err), -1);
	assert_int_equal(dm_inject_parse(WORDS(w6), 1, &s, err, sizeof err), -1);
	assert_non_null(strstr(err, "no fault 'melt'"));

	/* the third transaction on 0x81 gets no answer; the two before it
	 * (data, then a NAK: nothing left) and the one after go on */
	assert_int_equal(dm_inject_parse(WORDS(w2), 5, &s, err, sizeof err), 0);
	s.count = 1;
	dm_inject_spec(dm, &s);
	memset(buf, 1, sizeof buf);
	assert_int_equal(dm_transact(dm, DM_PID_OUT, 6, 2, buf, 8), DM_ACK);
	assert_int_equal(dm_transact(dm, DM_PID_IN, 6, 1, buf, 512), 8);
	assert_int_equal(dm_transact(dm, DM_PID_IN, 6, 1, buf, 512), DM_NAK);
	assert_int_equal(dm_transact(dm, DM_PID_IN, 6, 1, buf, 512),
	    DM_XACTERR);
	assert_int_equal(dm->armed.on, DM_ON_NOW);
	assert_int_equal(dm_transact(dm, DM_PID_OUT, 6, 2, buf, 8), DM_ACK);
	assert_int_equal(dm_transact(dm, DM_PID_IN, 6, 1, buf, 512), 8);

	/* the second CBW with READ(10) STALLs its pipe; a WRITE(10)'s and
	 * the first READ(10)'s go on */
	assert_int_equal(dm_inject_parse(WORDS(w1), 7, &s, err, sizeof err), 0);
	dm_inject_spec(dm, &s);
	memset(cbw, 0, sizeof cbw);
	put_le32(cbw, 0x43425355);
	cbw[15] = 0x2a;
	assert_int_equal(dm_transact(dm, DM_PID_OUT, 6, 2, cbw, 31), DM_ACK);
	assert_int_equal(dm_transact(dm, DM_PID_IN, 6, 1, buf, 512), 31);
	cbw[15] = 0x28;
	assert_int_equal(dm_transact(dm, DM_PID_OUT, 6, 2, cbw, 31), DM_ACK);
	assert_int_equal(dm_transact(dm, DM_PID_IN, 6, 1, buf, 512), 31);
	assert_int_equal(dm_transact(dm, DM_PID_OUT, 6, 2, cbw, 31),
	    DM_STALL);
	assert_int_equal(ctrl(dm, 6, RT_EP_OUT, USB_REQ_CLEAR_FEATURE,
	    USB_ENDPOINT_HALT, 0x02, 0, NULL), 0);
	assert_int_equal(dm_transact(dm, DM_PID_OUT, 6, 2, cbw, 31), DM_ACK);

	/* a delay: NAKed until 5 ms of dm_tick's time have passed */
	dm_tick(dm, 1000000000);
	assert_int_equal(dm_inject_parse(WORDS(w8), 3, &s, err, sizeof err),
	    0);
	dm_inject_spec(dm, &s);
	assert_int_equal(dm_transact(dm, DM_PID_OUT, 6, 2, buf, 8), DM_ACK);
	assert_int_equal(dm_transact(dm, DM_PID_IN, 6, 1, buf, 512), DM_NAK);
	dm_tick(dm, 1004000000);
	assert_int_equal(dm_transact(dm, DM_PID_IN, 6, 1, buf, 512), DM_NAK);
	dm_tick(dm, 1005000000);
	/* what the loopback holds: the CBW before and these 8 bytes */
	assert_int_equal(dm_transact(dm, DM_PID_IN, 6, 1, buf, 512), 39);

	/* a request's SETUP: babble on the next IN after GET_DESCRIPTOR */
	assert_int_equal(dm_inject_parse(WORDS(w7), 4, &s, err, sizeof err), 0);
	dm_inject_spec(dm, &s);
	assert_int_equal(ctrl(dm, 6, RT_DEV_IN, USB_REQ_GET_CONFIGURATION, 0,
	    0, 1, buf), 1);
	assert_int_equal(ctrl(dm, 6, RT_DEV_IN, USB_REQ_GET_DESCRIPTOR,
	    USB_DT_DEVICE << 8, 0, 18, buf), DM_BABBLE);

	/* on bytes: the first IN on 0x81 after 20 bytes came out of it;
	 * OUT bytes and NAKs do not count */
	assert_int_equal(dm_inject_parse(WORDS(w9), 5, &s, err, sizeof err), 0);
	assert_int_equal(s.on, DM_ON_BYTES);
	assert_int_equal(s.ep, 0x81);
	assert_int_equal(s.nth, 20);
	dm_inject_spec(dm, &s);
	assert_int_equal(dm_transact(dm, DM_PID_IN, 6, 1, buf, 512), DM_NAK);
	assert_int_equal(dm_transact(dm, DM_PID_OUT, 6, 2, buf, 48), DM_ACK);
	assert_int_equal(dm_transact(dm, DM_PID_IN, 6, 1, buf, 12), 12);
	assert_int_equal(dm_transact(dm, DM_PID_IN, 6, 1, buf, 12), 12);
	assert_int_equal(dm_transact(dm, DM_PID_IN, 6, 1, buf, 12),
	    DM_XACTERR);
	assert_int_equal(dm->armed.on, DM_ON_NOW);
	assert_int_equal(dm_transact(dm, DM_PID_IN, 6, 1, buf, 12), 12);
	assert_int_equal(dm_inject_parse(WORDS(w10), 4, &s, err, sizeof err),
	    -1);
	assert_non_null(strstr(err, "on bytes EP N"));
	assert_int_equal(dm_inject_parse(WORDS(w11), 5, &s, err, sizeof err),
	    -1);
	assert_non_null(strstr(err, "'lots' is not a byte count"));
	/* 64K: k, M and G multiply */
	w11[4] = "64K";
	assert_int_equal(dm_inject_parse(WORDS(w11), 5, &s, err, sizeof err), 0);
	assert_int_equal(s.nth, 65536);
	dm_destroy(dm);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_registry),
		cmocka_unit_test(test_parse_size),
		cmocka_unit_test(test_enumerate_loopback),
		cmocka_unit_test(test_enumerate_keyboard),
		cmocka_unit_test(test_enumerate_disk),
		cmocka_unit_test(test_control_stages),
		cmocka_unit_test(test_loopback_roundtrip),
		cmocka_unit_test(test_keyboard_hid),
		cmocka_unit_test(test_gamepad_hid),
		cmocka_unit_test(test_serial_acm),
		cmocka_unit_test(test_speaker_uac2),
		cmocka_unit_test(test_bluetooth_hci),
		cmocka_unit_test(test_bluetooth_sco),
		cmocka_unit_test(test_keyboard_typing),
		cmocka_unit_test(test_disk_commands),
		cmocka_unit_test(test_disk_write_read),
		cmocka_unit_test(test_replay_disk),
		cmocka_unit_test(test_replay_iso),
		cmocka_unit_test(test_replay_strict),
		cmocka_unit_test(test_disk_bad_cbw),
		cmocka_unit_test(test_disk_file),
		cmocka_unit_test(test_inject),
		cmocka_unit_test(test_inject_triggers),
	};

	sim_register(&sample_catalog);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
