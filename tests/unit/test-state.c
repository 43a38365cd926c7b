/*
 * tests/unit/test-state.c - submit/complete pairing, device state, the
 * text buffer and the one-line formatter.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <cmocka.h>

#include "decode/decode.h"

static uint64_t recno;

static struct urb_rec
mk(uint8_t type, uint64_t id, uint8_t xfer, uint8_t ep, uint8_t dev,
    int64_t ts_us)
{
	struct urb_rec r;

	memset(&r, 0, sizeof r);
	r.type = type;
	r.id = id;
	r.xfer_type = xfer;
	r.epnum = ep;
	r.devnum = dev;
	r.busnum = 1;
	r.flag_setup = '-';
	r.flag_data = type == 'S' ? ((ep & 0x80) ? '<' : 0) :
	    ((ep & 0x80) ? 0 : '>');
	r.status = type == 'S' ? URB_EINPROGRESS : 0;
	r.ts_ns = ts_us * 1000;
	r.ts_sec = ts_us / 1000000;
	r.ts_usec = (int32_t)(ts_us % 1000000);
	r.recno = ++recno;
	return r;
}

/* A control transfer S + C through ctx: setup, answer data. */
static void
control(struct dec_ctx *ctx, uint8_t dev, const uint8_t setup[8],
    const uint8_t *data, uint32_t n, int32_t status, struct dec_info *ci)
{
	struct urb_rec	 r;
	struct dec_info	 info;

	r = mk('S', 0xffff888000001000ULL, XFER_CTRL, setup[0] & 0x80, dev,
	    (int64_t)recno * 100);
	r.flag_setup = 0;
	memcpy(r.setup, setup, 8);
	r.len_urb = get_le16(setup + 6);
	if (!(setup[0] & 0x80) && n > 0) {
		r.data = data;
		r.data_len = n;
		r.flag_data = 0;
	}
	assert_int_equal(dec_analyze(ctx, &r, &info), 0);
	assert_true(info.flags & DI_SETUP);
	r = mk('C', 0xffff888000001000ULL, XFER_CTRL, setup[0] & 0x80, dev,
	    (int64_t)recno * 100 + 50);
	r.status = status;
	if (setup[0] & 0x80) {
		r.data = data;
		r.data_len = n;
		r.len_urb = n;
	}
	assert_int_equal(dec_analyze(ctx, &r, ci), 0);
	assert_true(ci->flags & DI_PAIRED);
}

static void
test_pair_basic(void **state)
{
	struct dec_ctx	*ctx = dec_ctx_new();
	struct urb_rec	 s, c;
	struct dec_info	 i;

	(void)state;
	assert_non_null(ctx);
	s = mk('S', 0x1234, XFER_BULK, 0x81, 2, 1000);
	s.len_urb = 512;
	assert_int_equal(dec_analyze(ctx, &s, &i), 0);
	assert_int_equal(i.flags & (DI_PAIRED | DI_ORPHAN), 0);
	assert_int_equal(i.latency_ns, -1);
	c = mk('C', 0x1234, XFER_BULK, 0x81, 2, 1251);
	assert_int_equal(dec_analyze(ctx, &c, &i), 0);
	assert_true(i.flags & DI_PAIRED);
	assert_int_equal(i.pair_recno, s.recno);
	assert_int_equal(i.pair_len, 512);	/* what the submit asked */
	assert_int_equal(i.latency_ns, 251000);
	/* the same completion again has nothing to pair with */
	c = mk('C', 0x1234, XFER_BULK, 0x81, 2, 1300);
	assert_int_equal(dec_analyze(ctx, &c, &i), 0);
	assert_true(i.flags & DI_ORPHAN);
	dec_ctx_free(ctx);
}

static void
test_pair_reuse_and_error(void **state)
{
	struct dec_ctx	*ctx = dec_ctx_new();
	struct urb_rec	 r;
	struct dec_info	 i;
	uint64_t	 s1, s2;
	int		 k;

	(void)state;
	/* interrupt URB resubmitted from its completion: same id */
	for (k = 0; k < 3; k++) {
		r = mk('S', 0xabc, XFER_INT, 0x81, 3, 100 * k);
		s1 = r.recno;
		dec_analyze(ctx, &r, &i);
		r = mk('C', 0xabc, XFER_INT, 0x81, 3, 100 * k + 8);
		dec_analyze(ctx, &r, &i);
		assert_true(i.flags & DI_PAIRED);
		assert_int_equal(i.pair_recno, s1);
		assert_int_equal(i.latency_ns, 8000);
	}
	/* an E event ends the URB; a later C is an orphan */
	r = mk('S', 0xdef, XFER_BULK, 0x02, 3, 1000);
	s2 = r.recno;
	dec_analyze(ctx, &r, &i);
	r = mk('E', 0xdef, XFER_BULK, 0x02, 3, 1001);
	r.status = -19;
	dec_analyze(ctx, &r, &i);
	assert_true(i.flags & DI_PAIRED);
	assert_int_equal(i.pair_recno, s2);
	r = mk('C', 0xdef, XFER_BULK, 0x02, 3, 1002);
	dec_analyze(ctx, &r, &i);
	assert_true(i.flags & DI_ORPHAN);
	/* the same id on another bus is another URB */
	r = mk('S', 0x777, XFER_BULK, 0x02, 3, 2000);
	s2 = r.recno;
	dec_analyze(ctx, &r, &i);
	r = mk('C', 0x777, XFER_BULK, 0x02, 3, 2001);
	r.busnum = 2;
	dec_analyze(ctx, &r, &i);
	assert_true(i.flags & DI_ORPHAN);
	/* a second submit of an id never completed: the first's record */
	r = mk('S', 0x777, XFER_BULK, 0x02, 3, 2002);
	dec_analyze(ctx, &r, &i);
	assert_true(i.flags & DI_RESUBMIT);
	assert_int_equal(i.replaced_recno, s2);
	dec_ctx_free(ctx);
}

/* Many URBs in flight, completed in a scrambled order. */
static void
test_pair_many(void **state)
{
	struct dec_ctx	*ctx = dec_ctx_new();
	struct urb_rec	 r;
	struct dec_info	 i;
	uint64_t	 first[5], sub[5000];
	size_t		 n, k, j;

	(void)state;
	for (k = 0; k < 5000; k++) {
		/* ids that collide in the low bits */
		r = mk('S', 0xffff000000000000ULL + k * 4096, XFER_BULK, 0x81,
		    4, (int64_t)k);
		sub[k] = r.recno;
		assert_int_equal(dec_analyze(ctx, &r, &i), 0);
	}
	assert_int_equal(dec_ctx_pending(ctx, first, 5), 5000);
	for (k = 0; k < 5; k++)
		assert_int_equal(first[k], sub[k]);
	for (j = 0; j < 5000; j++) {
		k = (j * 7919) % 5000;
		r = mk('C', 0xffff000000000000ULL + k * 4096, XFER_BULK,
		    0x81, 4, 10000);
		assert_int_equal(dec_analyze(ctx, &r, &i), 0);
		assert_true(i.flags & DI_PAIRED);
		assert_int_equal(i.pair_recno, sub[k]);
	}
	n = dec_ctx_pending(ctx, first, 5);
	assert_int_equal(n, 0);
	dec_ctx_free(ctx);
}

/* A bulk-only disk: device 18 bytes and its configuration (lsusb-v). */
static const uint8_t disk_dev[18] = {
	0x12, 0x01, 0x00, 0x02, 0x00, 0x00, 0x00, 0x40, 0x27, 0x06,
	0x01, 0x00, 0x00, 0x00, 0x01, 0x02, 0x03, 0x01
};
static const uint8_t disk_cfg[32] = {
	0x09, 0x02, 0x20, 0x00, 0x01, 0x01, 0x00, 0xc0, 0x32,
	0x09, 0x04, 0x00, 0x00, 0x02, 0x08, 0x06, 0x50, 0x00,
	0x07, 0x05, 0x81, 0x02, 0x00, 0x02, 0x00,
	0x07, 0x05, 0x02, 0x02, 0x00, 0x02, 0x00
};

static void
enumerate_disk(struct dec_ctx *ctx, uint8_t addr)
{
	static const uint8_t get_dev64[8] = { 0x80, 6, 0, 1, 0, 0, 64, 0 };
	static const uint8_t get_dev18[8] = { 0x80, 6, 0, 1, 0, 0, 18, 0 };
	static const uint8_t get_cfg[8] = { 0x80, 6, 0, 2, 0, 0, 0xff, 0 };
	static const uint8_t set_cfg[8] = { 0x00, 9, 1, 0, 0, 0, 0, 0 };
	uint8_t		 set_addr[8] = { 0x00, 5, 0, 0, 0, 0, 0, 0 };
	struct dec_info	 i;

	set_addr[2] = addr;
	control(ctx, 0, get_dev64, disk_dev, 18, 0, &i);
	control(ctx, 0, set_addr, NULL, 0, 0, &i);
	control(ctx, addr, get_dev18, disk_dev, 18, 0, &i);
	control(ctx, addr, get_cfg, disk_cfg, sizeof disk_cfg, 0, &i);
	control(ctx, addr, set_cfg, NULL, 0, 0, &i);
}

static void
test_state_enumeration(void **state)
{
	struct dec_ctx	*ctx = dec_ctx_new();
	const struct dec_dev *d;
	struct urb_rec	 r;
	struct dec_info	 i;
	uint32_t	 gen;

	(void)state;
	/* traffic before enumeration has no owner */
	r = mk('S', 0x99, XFER_BULK, 0x81, 5, 1);
	dec_analyze(ctx, &r, &i);
	assert_false(i.flags & DI_CLASS);

	enumerate_disk(ctx, 5);
	d = dec_ctx_device(ctx, 1, 5);
	assert_non_null(d);
	assert_true(d->has_ddesc);
	assert_int_equal(get_le16(d->ddesc + 8), 0x0627);
	assert_int_equal(d->config, 1);
	gen = d->generation;

	r = mk('S', 0x100, XFER_BULK, 0x81, 5, 5000);
	dec_analyze(ctx, &r, &i);
	assert_true(i.flags & DI_CLASS);
	assert_int_equal(i.intf, 0);
	assert_int_equal(i.cls, 0x08);
	assert_int_equal(i.subcls, 0x06);
	assert_int_equal(i.proto, 0x50);
	r = mk('S', 0x101, XFER_BULK, 0x02, 5, 5001);
	dec_analyze(ctx, &r, &i);
	assert_true(i.flags & DI_CLASS);
	/* an endpoint the configuration does not have */
	r = mk('S', 0x102, XFER_BULK, 0x83, 5, 5002);
	dec_analyze(ctx, &r, &i);
	assert_false(i.flags & DI_CLASS);

	/* unplug, replug: a new device gets address 5 again */
	enumerate_disk(ctx, 5);
	d = dec_ctx_device(ctx, 1, 5);
	assert_int_equal(d->generation, gen + 1);
	assert_int_equal(d->config, 1);
	dec_ctx_free(ctx);
}

/* The device at the default address moves to its address: nothing is
 * left at 0 until the next device answers there. */
static void
test_state_default_address(void **state)
{
	static const uint8_t get_dev64[8] = { 0x80, 6, 0, 1, 0, 0, 64, 0 };
	struct dec_ctx	*ctx = dec_ctx_new();
	const struct dec_dev *d0;
	struct urb_rec	 r;
	struct dec_info	 i;

	(void)state;
	r = mk('S', 0x200, XFER_CTRL, 0x80, 0, 1);
	r.flag_setup = 0;
	memcpy(r.setup, get_dev64, 8);
	dec_analyze(ctx, &r, &i);
	d0 = dec_ctx_device(ctx, 1, 0);
	assert_non_null(d0);
	assert_false(d0->addressed);
	enumerate_disk(ctx, 5);
	d0 = dec_ctx_device(ctx, 1, 0);
	assert_non_null(d0);
	assert_true(d0->addressed);
	assert_false(d0->has_ddesc);
	assert_true(dec_ctx_device(ctx, 1, 5)->has_ddesc);
	/* the next device's first request: someone is at 0 again */
	r = mk('S', 0x201, XFER_CTRL, 0x80, 0, 9000);
	r.flag_setup = 0;
	memcpy(r.setup, get_dev64, 8);
	dec_analyze(ctx, &r, &i);
	assert_false(dec_ctx_device(ctx, 1, 0)->addressed);
	dec_ctx_free(ctx);
}

/* The port a hub reset before a SET_ADDRESS is where that device is. */
static void
test_state_topology(void **state)
{
	/* SET_FEATURE(PORT_RESET) port 3, to the hub (class, other) */
	static const uint8_t reset3[8] = { 0x23, 3, 4, 0, 3, 0, 0, 0 };
	struct dec_ctx	*ctx = dec_ctx_new();
	struct dec_info	 i;

	(void)state;
	enumerate_disk(ctx, 4);		/* no reset seen: port unknown */
	assert_int_equal(dec_ctx_device(ctx, 1, 4)->port, 0);
	control(ctx, 1, reset3, NULL, 0, 0, &i);
	enumerate_disk(ctx, 5);
	assert_int_equal(dec_ctx_device(ctx, 1, 5)->parent, 1);
	assert_int_equal(dec_ctx_device(ctx, 1, 5)->port, 3);
	/* the reset is used once: the next device's port is unknown */
	enumerate_disk(ctx, 6);
	assert_int_equal(dec_ctx_device(ctx, 1, 6)->port, 0);
	/* a failed reset says nothing */
	control(ctx, 1, reset3, NULL, 0, -32, &i);
	enumerate_disk(ctx, 7);
	assert_int_equal(dec_ctx_device(ctx, 1, 7)->port, 0);
	dec_ctx_free(ctx);
}

static void
test_state_reset_forgets(void **state)
{
	static const uint8_t set_addr[8] = { 0x00, 5, 7, 0, 0, 0, 0, 0 };
	struct dec_ctx	*ctx = dec_ctx_new();
	struct urb_rec	 r;
	struct dec_info	 i;

	(void)state;
	enumerate_disk(ctx, 7);
	/* SET_ADDRESS 7 alone: whatever was at 7 is gone */
	control(ctx, 0, set_addr, NULL, 0, 0, &i);
	r = mk('S', 0x100, XFER_BULK, 0x81, 7, 9000);
	dec_analyze(ctx, &r, &i);
	assert_false(i.flags & DI_CLASS);
	assert_false(dec_ctx_device(ctx, 1, 7)->has_ddesc);
	dec_ctx_free(ctx);
}

/* Interface class 0 takes the device's class; alternate settings. */
static void
test_state_alt_settings(void **state)
{
	static const uint8_t dev[18] = {
		0x12, 0x01, 0x00, 0x02, 0xff, 0x00, 0x00, 0x40, 0x34, 0x12,
		0x78, 0x56, 0x00, 0x01, 0, 0, 0, 1
	};
	static const uint8_t cfg[43] = {
		0x09, 0x02, 43, 0x00, 0x01, 0x01, 0x00, 0x80, 0x32,
		/* interface 0 alt 0: class 0 -> device class 0xff */
		0x09, 0x04, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00,
		0x07, 0x05, 0x81, 0x03, 0x08, 0x00, 0x04,
		/* interface 1 alt 0: no endpoints; alt 1: ISO IN 0x82 */
		0x09, 0x04, 0x01, 0x00, 0x00, 0x0e, 0x02, 0x00, 0x00,
		0x09, 0x04, 0x01, 0x01, 0x01, 0x0e, 0x02, 0x00, 0x00,
	};
	static const uint8_t ep82[7] = { 0x07, 0x05, 0x82, 0x05, 0x00, 0x04,
	    0x01 };
	static const uint8_t get_dev[8] = { 0x80, 6, 0, 1, 0, 0, 18, 0 };
	static const uint8_t get_cfg[8] = { 0x80, 6, 0, 2, 0, 0, 50, 0 };
	static const uint8_t set_cfg[8] = { 0x00, 9, 1, 0, 0, 0, 0, 0 };
	static const uint8_t set_alt[8] = { 0x01, 11, 1, 0, 1, 0, 0, 0 };
	uint8_t		 full[50];
	struct dec_ctx	*ctx = dec_ctx_new();
	struct urb_rec	 r;
	struct dec_info	 i;

	(void)state;
	memcpy(full, cfg, sizeof cfg);
	memcpy(full + 43, ep82, 7);
	full[2] = 50;
	control(ctx, 3, get_dev, dev, 18, 0, &i);
	control(ctx, 3, get_cfg, full, 50, 0, &i);
	control(ctx, 3, set_cfg, NULL, 0, 0, &i);
	r = mk('S', 0x1, XFER_INT, 0x81, 3, 100000);
	dec_analyze(ctx, &r, &i);
	assert_true(i.flags & DI_CLASS);
	assert_int_equal(i.cls, 0xff);
	/* 0x82 exists only in alt 1: known from the alt that has it */
	r = mk('S', 0x2, XFER_ISO, 0x82, 3, 100001);
	dec_analyze(ctx, &r, &i);
	assert_true(i.flags & DI_CLASS);
	assert_int_equal(i.intf, 1);
	assert_int_equal(i.cls, 0x0e);
	control(ctx, 3, set_alt, NULL, 0, 0, &i);
	assert_int_equal(dec_ctx_device(ctx, 1, 3)->alt[1], 1);
	assert_int_equal(dec_ctx_device(ctx, 1, 3)->ep[16 | 2].alt, 1);
	dec_ctx_free(ctx);
}

static void
test_hub_request(void **state)
{
	static const uint8_t port_status[8] = { 0xa3, 0, 0, 0, 1, 0, 4, 0 };
	static const uint8_t ps[4] = { 0x01, 0x05, 0x01, 0x00 };
	struct dec_ctx	*ctx = dec_ctx_new();
	struct dec_info	 i;

	(void)state;
	control(ctx, 1, port_status, ps, 4, 0, &i);
	assert_true(i.flags & DI_HUB);
	assert_int_equal(i.setup.bmRequestType, 0xa3);
	assert_int_equal(i.setup.wIndex, 1);
	dec_ctx_free(ctx);
}

static void
test_sbuf_numbers(void **state)
{
	struct sbuf	 b = { 0 };

	(void)state;
	sb_u64(&b, 0);
	sb_putc(&b, ' ');
	sb_u64(&b, 18446744073709551615ULL);
	sb_putc(&b, ' ');
	sb_i64(&b, -115);
	sb_putc(&b, ' ');
	sb_u64w(&b, 42, 5);
	sb_putc(&b, ' ');
	sb_hex(&b, 0x81, 2);
	sb_putc(&b, ' ');
	sb_hex(&b, 0x5, 4);
	sb_putc(&b, ' ');
	sb_secs(&b, 1700000000123456789LL, 6);
	sb_putc(&b, ' ');
	sb_secs(&b, 5000, 9);
	sb_putc(&b, ' ');
	sb_json_str(&b, "a\"b\\c\n", 6);
	assert_string_equal(b.s, "0 18446744073709551615 -115    42 81 0005 "
	    "1700000000.123456 0.000005000 \"a\\\"b\\\\c\\u000a\"");
	sb_free(&b);
}

static void
test_line_bulk(void **state)
{
	struct dec_ctx	*ctx = dec_ctx_new();
	struct dec_fmt	 f = { .time_mode = DT_RELATIVE };
	struct sbuf	 b = { 0 };
	struct urb_rec	 r;
	struct dec_info	 i;
	static const uint8_t csw[13] = { 'U', 'S', 'B', 'S', 7, 0, 0, 0,
	    0, 0, 0, 0, 0 };

	(void)state;
	recno = 0;
	r = mk('S', 0x55, XFER_BULK, 0x81, 2, 1000000);
	r.len_urb = 13;
	dec_analyze(ctx, &r, &i);
	dec_fmt_line(&f, &r, &i, &b);
	r = mk('C', 0x55, XFER_BULK, 0x81, 2, 1000251);
	r.len_urb = 13;
	r.data = csw;
	r.data_len = 13;
	dec_analyze(ctx, &r, &i);
	dec_fmt_line(&f, &r, &i, &b);
	assert_string_equal(b.s,
	    "      1    0.000000 1.2.1     in  S bulk -               13  "
	    "IN request 13\n"
	    "      2    0.000251 1.2.1     in  C bulk ok              13  "
	    "[guessed Mass Storage] 13 bytes, 0.251 ms: CSW tag 7 status "
	    "passed\n");
	sb_free(&b);
	dec_ctx_free(ctx);
}

/*
 * Latencies, rounded (8.883724 s is 8.884 s, not 8.883 s) and always
 * with their unit, as the summary and the TUI's column show them.
 */
static void
test_latency_format(void **state)
{
	static const struct {
		int64_t		 ns;
		const char	*text;
	} t[] = {
		{ 0, "0.000 ms" },
		{ -5, "0.000 ms" },
		{ 251000, "0.251 ms" },
		{ 251499, "0.251 ms" },
		{ 251500, "0.252 ms" },
		{ 999999499, "999.999 ms" },
		{ 999999500, "1.000 s" },
		{ 8883724000LL, "8.884 s" },
		{ 16333185000000LL, "16333.185 s" },
		{ 99999999499999LL, "99999.999 s" },
		{ 99999999500000LL, "100000 s" },
		{ INT64_MAX, "9223372037 s" },
		{ DEC_TS_BAD, "bad time" },
	};
	struct dec_ctx	*ctx = dec_ctx_new();
	struct dec_fmt	 f = { .time_mode = DT_RELATIVE };
	struct sbuf	 b = { 0 };
	struct urb_rec	 r;
	struct dec_info	 i;
	char		 buf[DEC_LATENCY_MAX];
	size_t		 k;

	(void)state;
	for (k = 0; k < sizeof t / sizeof t[0]; k++) {
		assert_int_equal(dec_fmt_latency(t[k].ns, buf),
		    strlen(t[k].text));
		assert_string_equal(buf, t[k].text);
	}
	recno = 0;
	r = mk('S', 0x55, XFER_BULK, 0x81, 2, 1000000);
	dec_analyze(ctx, &r, &i);
	r = mk('C', 0x55, XFER_BULK, 0x81, 2, 9883724);
	dec_analyze(ctx, &r, &i);
	dec_fmt_summary(&f, &r, &i, &b);
	assert_string_equal(b.s, "0 bytes, 8.884 s");
	/* outside UTF-8 (the caller's choice), arrows are ASCII */
	r = mk('S', 0x57, XFER_CTRL, 0x80, 2, 10000000);
	memcpy(r.setup, "\x80\x06\x00\x01\x00\x00\x12\x00", 8);
	r.flag_setup = 0;
	dec_analyze(ctx, &r, &i);
	r = mk('C', 0x57, XFER_CTRL, 0x80, 2, 10000251);
	r.status = -32;
	dec_analyze(ctx, &r, &i);
	f.ascii = 1;
	b.len = 0;
	dec_fmt_summary(&f, &r, &i, &b);
	assert_string_equal(b.s, "GET_DESCRIPTOR DEVICE len 18 -> -EPIPE "
	    "after 0.251 ms");
	sb_free(&b);
	dec_ctx_free(ctx);
}

/*
 * A descriptor the capture cut (usbmon text keeps 32 bytes) is said cut
 * once, by the capture's note; one the transfer itself cut (wLength 8 of
 * an 18-byte DEVICE) keeps its own note.
 */
static void
test_cut_said_once(void **state)
{
	static const uint8_t str_setup[8] = { 0x80, 6, 2, 3, 9, 4, 255, 0 };
	static const uint8_t dev_setup[8] = { 0x80, 6, 0, 1, 0, 0, 8, 0 };
	static const uint8_t dev[8] = { 18, 1, 0, 2, 0, 0, 0, 64 };
	struct dec_ctx	*ctx = dec_ctx_new();
	struct dec_fmt	 f = { .time_mode = DT_RELATIVE };
	struct sbuf	 b = { 0 };
	struct urb_rec	 r;
	struct dec_info	 i;
	uint8_t		 str[32];
	size_t		 k;

	(void)state;
	str[0] = 42;
	str[1] = 3;
	for (k = 2; k < sizeof str; k += 2) {
		str[k] = 'A';
		str[k + 1] = 0;
	}
	recno = 0;
	r = mk('S', 0x60, XFER_CTRL, 0x80, 2, 1000);
	r.flag_setup = 0;
	memcpy(r.setup, str_setup, 8);
	r.len_urb = 255;
	dec_analyze(ctx, &r, &i);
	r = mk('C', 0x60, XFER_CTRL, 0x80, 2, 1100);
	r.len_urb = 42;
	r.data = str;
	r.data_len = sizeof str;
	dec_analyze(ctx, &r, &i);
	dec_fmt_summary(&f, &r, &i, &b);
	assert_string_equal(b.s, "GET_DESCRIPTOR STRING 2 lang 0x0409 len 255 "
	    "\xe2\x86\x92 42 bytes, 0.100 ms: STRING \"AAAAAAAAAAAAAAA\" "
	    "(captured 32 of 42 bytes)");
	r = mk('S', 0x61, XFER_CTRL, 0x80, 2, 2000);
	r.flag_setup = 0;
	memcpy(r.setup, dev_setup, 8);
	r.len_urb = 8;
	dec_analyze(ctx, &r, &i);
	r = mk('C', 0x61, XFER_CTRL, 0x80, 2, 2100);
	r.len_urb = 8;
	r.data = dev;
	r.data_len = sizeof dev;
	dec_analyze(ctx, &r, &i);
	b.len = 0;
	dec_fmt_summary(&f, &r, &i, &b);
	assert_string_equal(b.s, "GET_DESCRIPTOR DEVICE len 8 \xe2\x86\x92 8 "
	    "bytes, 0.100 ms: DEVICE mps 64 [cut: 8 of 18 bytes]");
	sb_free(&b);
	dec_ctx_free(ctx);
}

/* Help text wrapped at blanks: table rows under their second column,
 * paragraphs at their indent, usage groups whole, long words cut. */
static void
test_wrap(void **state)
{
	struct sbuf	 b = { 0 };

	(void)state;
	sb_wrap(&b, "  d        devices in place of the details\n"
	    "short\n"
	    "a paragraph of words.  Two spaces do not make a column\n"
	    "  -x  y    one two three four five six\n"
	    "usage: cmd FILE [-a A] [-b B] [-c C]\n"
	    "abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGH   \n", 30);
	assert_string_equal(b.s,
	    "  d        devices in place of\n"
	    "           the details\n"
	    "short\n"
	    "a paragraph of words.  Two\n"
	    "spaces do not make a column\n"
	    "  -x  y    one two three four\n"
	    "           five six\n"
	    "usage: cmd FILE [-a A] [-b B]\n"
	    "[-c C]\n"
	    "abcdefghijklmnopqrstuvwxyz0123\n"
	    "456789ABCDEFGH\n");
	sb_free(&b);
}

/*
 * No descriptors in the capture: BOT is guessed by its signatures, a boot
 * keyboard by its reports' shape, per endpoint and marked so; other data
 * is not guessed at.  --decode-as overrides both ways and says so; bad
 * specs are refused with a reason.
 */
static void
test_guess_and_decode_as(void **state)
{
	static const uint8_t keys[8] = { 0x02, 0, 0x0b, 0, 0, 0, 0, 0 };
	static const uint8_t notkeys[8] = { 0, 0, 0x0b, 0, 0x0c, 0, 0, 0 };
	static const char *const bad[] = {
		"1.3", "=hid", "1.3=", "1.300=hid", "1.3.40=hid", "1.3=zz",
		"1.3=100", "1.3=3.1.1.1", "x:1=hid", "12345:1=hid",
		"1..3=hid", "1.3=hid ",
	};
	struct dec_ctx	*ctx = dec_ctx_new();
	struct urb_rec	 r;
	struct dec_info	 i;
	char		 err[256];
	size_t		 k;

	(void)state;
	r = mk('C', 0x60, XFER_INT, 0x81, 3, 10);
	r.data = notkeys;		/* a zero between keys: no keyboard */
	r.data_len = 8;
	dec_analyze(ctx, &r, &i);
	assert_false(i.flags & DI_CLASS);
	r.data = keys;
	dec_analyze(ctx, &r, &i);
	assert_true(i.flags & DI_GUESSED);
	assert_int_equal(i.cls, 0x03);
	assert_int_equal(i.real_cls, 0xffff);
	r.data = notkeys;		/* the endpoint stays a keyboard */
	dec_analyze(ctx, &r, &i);
	assert_true(i.flags & DI_GUESSED);
	dec_ctx_free(ctx);

	/* the user's class wins over a guess, for the device named */
	ctx = dec_ctx_new();
	assert_int_equal(dec_ctx_decode_as(ctx, "1.3=0a", err, sizeof err),
	    0);
	r = mk('C', 0x61, XFER_INT, 0x81, 3, 20);
	r.data = keys;
	r.data_len = 8;
	dec_analyze(ctx, &r, &i);
	assert_true(i.flags & DI_DECODE_AS);
	assert_false(i.flags & DI_GUESSED);
	assert_int_equal(i.cls, 0x0a);
	assert_int_equal(i.intf, 0);
	r = mk('C', 0x62, XFER_INT, 0x81, 4, 30);	/* another device */
	r.data = keys;
	r.data_len = 8;
	dec_analyze(ctx, &r, &i);
	assert_true(i.flags & DI_GUESSED);
	for (k = 0; k < sizeof bad / sizeof bad[0]; k++) {
		err[0] = '\0';
		if (dec_ctx_decode_as(ctx, bad[k], err, sizeof err) !=
		    -UE_SYNTAX)
			print_error("accepted '%s'\n", bad[k]);
		assert_int_equal(dec_ctx_decode_as(ctx, bad[k], err,
		    sizeof err), -UE_SYNTAX);
		assert_true(strlen(err) > 0);
	}
	dec_ctx_free(ctx);

	/* by VID:PID and interface, over what the descriptors say */
	ctx = dec_ctx_new();
	assert_int_equal(dec_ctx_decode_as(ctx, "0627:0001.0=hid-keyboard",
	    err, sizeof err), 0);
	enumerate_disk(ctx, 5);
	r = mk('C', 0x63, XFER_BULK, 0x81, 5, 40);
	r.data = keys;
	r.data_len = 8;
	dec_analyze(ctx, &r, &i);
	assert_true(i.flags & DI_DECODE_AS);
	assert_int_equal(i.real_cls, 0x08);
	assert_int_equal(i.cls, 0x03);
	assert_int_equal(i.proto, 0x01);
	dec_ctx_free(ctx);
}

/*
 * A configuration answer that is not one: wTotalLength 2 cannot hold the
 * 9-byte configuration descriptor, so nothing is learnt from it, and the
 * SET_CONFIGURATION and traffic after it read nothing past what was kept
 * (ASan stops this test if they do).
 */
static void
test_state_config_too_short(void **state)
{
	static const uint8_t get_cfg[8] = { 0x80, 6, 0, 2, 0, 0, 0xff, 0 };
	static const uint8_t set_cfg[8] = { 0x00, 9, 1, 0, 0, 0, 0, 0 };
	static const uint8_t bad[9] = { 9, 2, 2, 0, 1, 1, 0, 0x80, 50 };
	struct dec_ctx	*ctx = dec_ctx_new();
	const struct dec_dev *d;
	struct urb_rec	 r;
	struct dec_info	 i;

	(void)state;
	control(ctx, 4, get_cfg, bad, sizeof bad, 0, &i);
	d = dec_ctx_device(ctx, 1, 4);
	assert_null(d->cfg[0]);
	control(ctx, 4, set_cfg, NULL, 0, 0, &i);
	r = mk('S', 0x100, XFER_BULK, 0x81, 4, 9000);
	assert_int_equal(dec_analyze(ctx, &r, &i), 0);
	assert_false(i.flags & DI_CLASS);
	dec_ctx_free(ctx);
}

/*
 * Descriptors are walked within the bytes kept and each one's bLength: an
 * endpoint cut by the capture still names its interface, one whose
 * bLength runs past wTotalLength is seen only as far as wTotalLength.
 */
static void
test_state_config_cut(void **state)
{
	static const uint8_t get_cfg[8] = { 0x80, 6, 0, 2, 0, 0, 0xff, 0 };
	static const uint8_t set_cfg[8] = { 0x00, 9, 1, 0, 0, 0, 0, 0 };
	/* config (wTotalLength 21), interface 0 class 0xff, endpoint 0x81
	 * cut after 3 bytes; then bytes beyond wTotalLength */
	static const uint8_t cfg[27] = {
		9, 2, 21, 0, 1, 1, 0, 0x80, 50,
		9, 4, 0, 0, 1, 0xff, 0, 0, 0,
		7, 5, 0x81, 2, 0, 2, 0, 7, 5, };
	struct dec_ctx	*ctx = dec_ctx_new();
	const struct dec_dev *d;
	struct urb_rec	 r;
	struct dec_info	 i;
	struct dec_dref	 dr;
	size_t		 off = 0, n = 0;

	(void)state;
	control(ctx, 4, get_cfg, cfg, sizeof cfg, 0, &i);
	d = dec_ctx_device(ctx, 1, 4);
	assert_int_equal(d->cfg_len[0], 21);
	while (dec_desc_next(d->cfg[0], d->cfg_len[0], &off, &dr)) {
		assert_true(dr.len <= dr.bLength);
		assert_true(dr.p + dr.len <= d->cfg[0] + d->cfg_len[0]);
		n++;
	}
	assert_int_equal(n, 3);
	assert_int_equal(dr.len, 3);		/* the cut endpoint */
	assert_int_equal(off, 21);
	control(ctx, 4, set_cfg, NULL, 0, 0, &i);
	r = mk('S', 0x100, XFER_BULK, 0x81, 4, 9000);
	dec_analyze(ctx, &r, &i);
	assert_true(i.flags & DI_CLASS);
	assert_int_equal(i.cls, 0xff);
	dec_ctx_free(ctx);
}

/* A bLength of 0 or 1 ends the walk: it cannot step to a next one. */
static void
test_desc_next_stops(void **state)
{
	static const uint8_t b[] = { 9, 4, 0, 0, 0, 0, 0, 0, 0, 1, 5, 7, 5 };
	struct dec_dref	 dr;
	size_t		 off = 0;

	(void)state;
	assert_int_equal(dec_desc_next(b, sizeof b, &off, &dr), 1);
	assert_int_equal(dr.type, USB_DT_INTERFACE);
	assert_int_equal(dec_desc_next(b, sizeof b, &off, &dr), 0);
	assert_int_equal(off, 9);
	off = 0;
	assert_int_equal(dec_desc_next(b, 1, &off, &dr), 0);
}

/* Time differences never overflow; a time that does not fit is shown. */
static void
test_time_overflow(void **state)
{
	struct dec_ctx	*ctx = dec_ctx_new();
	struct dec_fmt	 f = { .time_mode = DT_RELATIVE };
	struct sbuf	 b = { 0 };
	struct urb_rec	 r;
	struct dec_info	 i;

	(void)state;
	assert_int_equal(dec_ts_make(1, -1), 999999999);
	assert_int_equal(dec_ts_make(INT64_MAX / 1000000000 + 1, 0),
	    DEC_TS_BAD);
	assert_int_equal(dec_ts_make(INT64_MIN / 1000000000, -1000000000),
	    DEC_TS_BAD);
	assert_int_equal(dec_ts_sub(INT64_MIN + 1, 1700000000000000000LL),
	    -INT64_MAX);
	assert_int_equal(dec_ts_sub(INT64_MAX, -5), INT64_MAX);
	assert_int_equal(dec_ts_sub(DEC_TS_BAD, 0), DEC_TS_BAD);
	assert_int_equal(dec_ts_sub(7, 5), 2);

	recno = 0;
	r = mk('S', 0x55, XFER_BULK, 0x81, 2, 0);
	r.ts_ns = 1700000000000000000LL;
	dec_analyze(ctx, &r, &i);
	dec_fmt_start(&f, r.ts_ns);
	dec_fmt_line(&f, &r, &i, &b);
	r = mk('C', 0x55, XFER_BULK, 0x81, 2, 0);
	r.ts_ns = DEC_TS_BAD;
	dec_analyze(ctx, &r, &i);
	assert_int_equal(i.latency_ns, DEC_TS_BAD);
	dec_fmt_line(&f, &r, &i, &b);
	r = mk('S', 0x56, XFER_BULK, 0x81, 2, 0);
	r.ts_ns = INT64_MIN + 1;		/* far before the first */
	dec_analyze(ctx, &r, &i);
	dec_fmt_line(&f, &r, &i, &b);
	assert_string_equal(b.s,
	    "      1    0.000000 1.2.1     in  S bulk -                0  "
	    "IN request 0\n"
	    "      2    bad time 1.2.1     in  C bulk ok               0  "
	    "0 bytes, bad time\n"
	    "      3 -9223372036.854775 1.2.1     in  S bulk -                0  "
	    "IN request 0\n");
	sb_free(&b);
	dec_ctx_free(ctx);
}

/*
 * The output fast paths (eight bytes a step, pair tables) against plain
 * byte-at-a-time versions written here: JSON escaping with a special
 * byte at every place of a word, the hex dump's ASCII column and hex of
 * every byte value, numbers at their widths' edges.
 */
static size_t
json_len_plain(const char *s, size_t n)
{
	size_t	 i, e = 2;

	for (i = 0; i < n; i++) {
		if (s[i] == '"' || s[i] == '\\')
			e += 2;
		else if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f)
			e += 6;
		else
			e++;
	}
	return e;
}

static void
test_sbuf_fast_paths(void **state)
{
	static const char specials[] = "\"\\\x01\x1f\x7f";
	static const char others[] = "a \x80\xff\x20\x7e~";
	struct sbuf	 b = { 0 };
	uint8_t		 all[256];
	char		 s[40], want[200], *line;
	size_t		 n, pos, k, i, j;
	unsigned	 seed = 1;

	(void)state;
	for (n = 0; n < 33; n++) {
		for (pos = 0; pos <= n; pos++) {
			for (k = 0; k < sizeof specials - 1 + 1; k++) {
				for (i = 0; i < n; i++) {
					seed = seed * 1103515245 + 12345;
					s[i] = others[(seed >> 16) %
					    (sizeof others - 1)];
				}
				if (pos < n && k < sizeof specials - 1)
					s[pos] = specials[k];
				b.len = 0;
				sb_putc(&b, 'x');
				sb_putn(&b, s, n);
				sb_json_from(&b, 1);
				assert_int_equal(b.len - 1,
				    json_len_plain(s, n));
				assert_int_equal(b.s[1], '"');
				assert_int_equal(b.s[b.len - 1], '"');
			}
		}
	}
	for (i = 0; i < 256; i++)
		all[i] = (uint8_t)i;
	b.len = 0;
	dec_fmt_hexdump(all, sizeof all, 4, &b);
	line = b.s;
	for (i = 0; i < 256; i += 16) {
		k = (size_t)snprintf(want, sizeof want, "    %04zx  ", i);
		for (j = 0; j < 16; j++)
			k += (size_t)snprintf(want + k, sizeof want - k,
			    j == 7 ? "%02zx  " : "%02zx ", i + j);
		want[k++] = ' ';
		for (j = 0; j < 16; j++)
			want[k++] = i + j >= 0x20 && i + j < 0x7f ?
			    (char)(i + j) : '.';
		want[k++] = '\n';
		want[k] = '\0';
		assert_memory_equal(line, want, k);
		line += k;
	}
	assert_int_equal(*line, '\0');
	b.len = 0;
	sb_u64(&b, 9);
	sb_putc(&b, ' ');
	sb_u64(&b, 10);
	sb_putc(&b, ' ');
	sb_u64(&b, 99999);
	sb_putc(&b, ' ');
	sb_hex(&b, 0, 1);
	sb_putc(&b, ' ');
	sb_hex(&b, 0x123, 2);
	sb_putc(&b, ' ');
	sb_hex(&b, UINT64_MAX, 40);
	assert_string_equal(b.s, "9 10 99999 0 123 "
	    "0000000000000000ffffffffffffffff");
	sb_free(&b);
}

/* sb_hexbytes and sb_hex against a digit-at-a-time reference, at every
 * length around the 16-byte and 4-byte steps and every byte value. */
static void
test_hex_paths(void **state)
{
	static const char hx[] = "0123456789abcdef";
	uint8_t		 p[300];
	char		 want[2 * sizeof p + 1];
	struct sbuf	 b = { 0 };
	uint64_t	 v;
	size_t		 n, i;
	int		 k;

	(void)state;
	for (i = 0; i < sizeof p; i++)
		p[i] = (uint8_t)(i * 7 + 3);
	for (n = 0; n < 50; n++) {
		for (i = 0; i < n; i++) {
			want[2 * i] = hx[p[i] >> 4];
			want[2 * i + 1] = hx[p[i] & 15];
		}
		want[2 * n] = '\0';
		b.len = 0;
		sb_hexbytes(&b, p, n);
		assert_string_equal(b.s != NULL ? b.s : "", want);
	}
	b.len = 0;
	sb_hexbytes(&b, p, sizeof p);
	for (i = 0; i < sizeof p; i++)
		assert_true(b.s[2 * i] == hx[p[i] >> 4] &&
		    b.s[2 * i + 1] == hx[p[i] & 15]);
	for (k = 0; k < 64; k++) {
		v = (uint64_t)0x8f1e2d3c4b5a6978ULL >> k;
		b.len = 0;
		sb_hex(&b, v, 1);
		snprintf(want, sizeof want, "%llx", (unsigned long long)v);
		assert_string_equal(b.s, want);
		b.len = 0;
		sb_hex(&b, v, 17);
		snprintf(want, sizeof want, "%017llx", (unsigned long long)v);
		assert_string_equal(b.s, want);
		assert_int_equal(b.len, 17);
	}
	sb_free(&b);
}

/* -V's hex dump: offsets widen past 64 KiB, every line alike. */
static void
test_hexdump_offsets(void **state)
{
	static uint8_t	 big[0x10011];
	struct sbuf	 b = { 0 };
	const char	*last;

	(void)state;
	dec_fmt_hexdump(big, 20, 2, &b);
	assert_string_equal(b.s,
	    "  0000  00 00 00 00 00 00 00 00  00 00 00 00 00 00 00 00  "
	    "................\n"
	    "  0010  00 00 00 00                                       "
	    "....\n");
	b.len = 0;
	dec_fmt_hexdump(big, sizeof big, 0, &b);
	assert_memory_equal(b.s, "00000  00 ", 10);
	last = strrchr(b.s, '\n');
	while (last > b.s && last[-1] != '\n')
		last--;
	assert_memory_equal(last, "10010  00 ", 10);
	sb_free(&b);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_guess_and_decode_as),
		cmocka_unit_test(test_pair_basic),
		cmocka_unit_test(test_pair_reuse_and_error),
		cmocka_unit_test(test_pair_many),
		cmocka_unit_test(test_state_enumeration),
		cmocka_unit_test(test_state_default_address),
		cmocka_unit_test(test_state_topology),
		cmocka_unit_test(test_state_reset_forgets),
		cmocka_unit_test(test_state_alt_settings),
		cmocka_unit_test(test_hub_request),
		cmocka_unit_test(test_sbuf_numbers),
		cmocka_unit_test(test_line_bulk),
		cmocka_unit_test(test_state_config_too_short),
		cmocka_unit_test(test_state_config_cut),
		cmocka_unit_test(test_desc_next_stops),
		cmocka_unit_test(test_time_overflow),
		cmocka_unit_test(test_latency_format),
		cmocka_unit_test(test_wrap),
		cmocka_unit_test(test_cut_said_once),
		cmocka_unit_test(test_hexdump_offsets),
		cmocka_unit_test(test_hex_paths),
		cmocka_unit_test(test_sbuf_fast_paths),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
