/*
 * tests/unit/test-usbmon.c - decode/dec-usbmon.c: the binary header in
 * both byte orders and both sizes, ISO descriptors and data, the encoder,
 * and the kernel text line both ways (every line shape of the 'u' format
 * of Documentation/usb/usbmon.rst, the old 't' format, errors with their
 * column, and every line of a real capture re-printed byte for byte).
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

#define CAPDIR	"tests/data/linux61/"

/* ------------------------------------------------------------------------
 * Headers built byte by byte, independently of the encoder under test.
 */
static void
put(uint8_t *p, uint64_t v, int size, int be)
{
	int	 i;

	for (i = 0; i < size; i++)
		p[be ? size - 1 - i : i] = (uint8_t)(v >> (8 * i));
}

struct hv {
	uint64_t	 id;
	uint8_t		 type, xfer, ep, dev;
	uint16_t	 bus;
	uint8_t		 fsetup, fdata;
	int64_t		 sec;
	int32_t		 usec, status;
	uint32_t	 len_urb, len_cap;
	uint8_t		 setup[8];	/* or error_count, numdesc for ISO */
	int32_t		 ecount, numdesc;
	int32_t		 interval, start_frame;
	uint32_t	 xflags, ndesc;
};

static void
mkhdr(uint8_t *h, const struct hv *v, int be)
{
	memset(h, 0xee, 64);
	put(h, v->id, 8, be);
	h[8] = v->type;
	h[9] = v->xfer;
	h[10] = v->ep;
	h[11] = v->dev;
	put(h + 12, v->bus, 2, be);
	h[14] = v->fsetup;
	h[15] = v->fdata;
	put(h + 16, (uint64_t)v->sec, 8, be);
	put(h + 24, (uint32_t)v->usec, 4, be);
	put(h + 28, (uint32_t)v->status, 4, be);
	put(h + 32, v->len_urb, 4, be);
	put(h + 36, v->len_cap, 4, be);
	if (v->xfer == XFER_ISO) {
		put(h + 40, (uint32_t)v->ecount, 4, be);
		put(h + 44, (uint32_t)v->numdesc, 4, be);
	} else
		memcpy(h + 40, v->setup, 8);
	put(h + 48, (uint32_t)v->interval, 4, be);
	put(h + 52, (uint32_t)v->start_frame, 4, be);
	put(h + 56, v->xflags, 4, be);
	put(h + 60, v->ndesc, 4, be);
}

/* swap argument for bytes written in order be */
static int
swap_for(int be)
{
	return be == host_is_le();
}

static const struct hv ctrl_s = {
	.id = 0xffff8e141fced600ULL, .type = 'S', .xfer = XFER_CTRL,
	.ep = 0x80, .dev = 1, .bus = 1, .fsetup = 0, .fdata = '<',
	.sec = 0x6b10ac08, .usec = 0x0c6475, .status = -115, .len_urb = 18,
	.len_cap = 0,
	.setup = { 0x80, 0x06, 0x00, 0x01, 0x00, 0x00, 0x12, 0x00 },
	.interval = 0x11223344, .start_frame = -5, .xflags = 0x200,
	.ndesc = 0,
};

static void
test_hdr64_both_orders(void **state)
{
	struct urb_rec	 r;
	uint8_t		 h[64];
	int		 be;

	(void)state;
	for (be = 0; be < 2; be++) {
		mkhdr(h, &ctrl_s, be);
		memset(&r, 0, sizeof r);
		r.flags = REC_F_HDR48;
		assert_int_equal(dec_usbmon_hdr(h, 64, 64, swap_for(be), &r),
		    0);
		assert_int_equal(r.id, 0xffff8e141fced600ULL);
		assert_int_equal(r.type, 'S');
		assert_int_equal(r.xfer_type, XFER_CTRL);
		assert_int_equal(r.epnum, 0x80);
		assert_true(urb_is_in(&r));
		assert_int_equal(r.devnum, 1);
		assert_int_equal(r.busnum, 1);
		assert_int_equal(r.flag_setup, 0);
		assert_int_equal(r.flag_data, '<');
		assert_int_equal(r.ts_sec, 0x6b10ac08);
		assert_int_equal(r.ts_usec, 0x0c6475);
		assert_int_equal(r.status, -115);
		assert_int_equal(r.len_urb, 18);
		assert_int_equal(r.len_cap, 0);
		/* setup bytes are wire order in both files */
		assert_memory_equal(r.setup, ctrl_s.setup, 8);
		assert_int_equal(r.interval, 0x11223344);
		assert_int_equal(r.start_frame, -5);
		assert_int_equal(r.xfer_flags, 0x200);
		assert_int_equal(r.ndesc, 0);
		assert_int_equal(r.iso_numdesc, 0);
		assert_int_equal(r.flags & REC_F_HDR48, 0);
	}
}

static void
test_hdr48(void **state)
{
	struct urb_rec	 r;
	uint8_t		 h[64];
	int		 be;

	(void)state;
	for (be = 0; be < 2; be++) {
		mkhdr(h, &ctrl_s, be);
		memset(&r, 0, sizeof r);
		r.interval = 99;
		assert_int_equal(dec_usbmon_hdr(h, 48, 48, swap_for(be), &r),
		    0);
		assert_int_equal(r.id, ctrl_s.id);
		assert_int_equal(r.ts_usec, ctrl_s.usec);
		assert_int_equal(r.len_urb, 18);
		/* bytes 48-63 do not exist in the 48-byte header */
		assert_int_equal(r.interval, 0);
		assert_int_equal(r.start_frame, 0);
		assert_int_equal(r.xfer_flags, 0);
		assert_int_equal(r.ndesc, 0);
		assert_int_equal(r.flags & REC_F_HDR48, REC_F_HDR48);
	}
}

static void
test_hdr_short(void **state)
{
	struct urb_rec	 r;
	uint8_t		 h[64];

	(void)state;
	mkhdr(h, &ctrl_s, 0);
	assert_int_equal(dec_usbmon_hdr(h, 47, 48, 0, &r), -UE_SHORT);
	assert_int_equal(dec_usbmon_hdr(h, 63, 64, 0, &r), -UE_SHORT);
	assert_int_equal(dec_usbmon_hdr(h, 64, 50, 0, &r), -UE_USAGE);
}

static const struct hv iso_c = {
	.id = 0xffff9a0c4b001000ULL, .type = 'C', .xfer = XFER_ISO,
	.ep = 0x83, .dev = 6, .bus = 2, .fsetup = '-', .fdata = 0,
	.sec = 1000, .usec = 5, .status = 0, .len_urb = 8,
	.len_cap = 2 * 16 + 12, .ecount = 1, .numdesc = 2, .interval = 1,
	.start_frame = 5123, .ndesc = 2,
};

/* An exact-size copy, so ASan sees any read past the end. */
static uint8_t *
exact(const uint8_t *p, size_t n)
{
	uint8_t	*q = malloc(n ? n : 1);

	assert_non_null(q);
	memcpy(q, p, n);
	return q;
}

static void
mkiso(uint8_t *d, int32_t st, uint32_t off, uint32_t len, int be)
{
	put(d, (uint32_t)st, 4, be);
	put(d + 4, off, 4, be);
	put(d + 8, len, 4, be);
	put(d + 12, 0, 4, be);
}

static void
test_body_iso64(void **state)
{
	struct urb_iso	 iso[URB_ISO_MAX];
	struct urb_rec	 r;
	uint8_t		 b[64 + 32 + 12], *body;
	int		 be, i;

	(void)state;
	for (be = 0; be < 2; be++) {
		mkhdr(b, &iso_c, be);
		mkiso(b + 64, 0, 0, 4, be);
		mkiso(b + 80, -18, 8, 4, be);
		for (i = 0; i < 12; i++)
			b[96 + i] = (uint8_t)(0xa0 + i);
		memset(&r, 0, sizeof r);
		assert_int_equal(dec_usbmon_hdr(b, sizeof b, 64, swap_for(be),
		    &r), 0);
		assert_int_equal(r.iso_error_count, 1);
		assert_int_equal(r.iso_numdesc, 2);
		body = exact(b + 64, 44);
		dec_usbmon_body(body, 44, swap_for(be), iso, &r);
		assert_int_equal(r.niso, 2);
		assert_ptr_equal(r.iso, iso);
		assert_int_equal(iso[0].status, 0);
		assert_int_equal(iso[0].off, 0);
		assert_int_equal(iso[0].len, 4);
		assert_int_equal(iso[1].status, -18);
		assert_int_equal(iso[1].off, 8);
		assert_int_equal(iso[1].len, 4);
		assert_ptr_equal(r.data, body + 32);
		assert_int_equal(r.data_len, 12);
		assert_int_equal(r.data[0], 0xa0);
		assert_int_equal(r.data[11], 0xab);
		/* IN completion: up to the end of the furthest frame */
		assert_int_equal(urb_data_expected(&r), 12);
		assert_int_equal(r.flags & (REC_F_BADLEN | REC_F_TRUNC), 0);
		free(body);
	}
}

static void
test_body_iso48(void **state)
{
	struct urb_iso	 iso[URB_ISO_MAX];
	struct urb_rec	 r;
	struct hv	 v = iso_c;
	uint8_t		 b[64 + 32 + 12], *body;

	(void)state;
	/* 48-byte header: numdesc says how many descriptors come first */
	mkhdr(b, &v, 0);
	mkiso(b + 48, 0, 0, 4, 0);
	mkiso(b + 64, 0, 8, 4, 0);
	memset(b + 80, 0x55, 12);
	memset(&r, 0, sizeof r);
	assert_int_equal(dec_usbmon_hdr(b, 48, 48, swap_for(0), &r), 0);
	body = exact(b + 48, 44);
	dec_usbmon_body(body, 44, swap_for(0), iso, &r);
	assert_int_equal(r.niso, 2);
	assert_int_equal(iso[1].off, 8);
	assert_int_equal(r.data_len, 12);
	assert_int_equal(r.flags & (REC_F_BADLEN | REC_F_TRUNC), 0);
	free(body);

	/* numdesc < 0: no descriptors */
	v.numdesc = -1;
	v.len_cap = 12;
	mkhdr(b, &v, 0);
	memset(&r, 0, sizeof r);
	dec_usbmon_hdr(b, 48, 48, swap_for(0), &r);
	body = exact(b + 48, 12);
	dec_usbmon_body(body, 12, swap_for(0), iso, &r);
	assert_int_equal(r.niso, 0);
	assert_int_equal(r.data_len, 12);
	free(body);

	/* numdesc huge: at most 128, and never more than the bytes hold */
	v.numdesc = 100000;
	v.len_cap = 44;
	mkhdr(b, &v, 0);
	memset(&r, 0, sizeof r);
	dec_usbmon_hdr(b, 48, 48, swap_for(0), &r);
	body = exact(b + 48, 44);
	dec_usbmon_body(body, 44, swap_for(0), iso, &r);
	assert_int_equal(r.niso, 2);		/* 44 / 16 */
	assert_int_equal(r.data_len, 12);
	assert_int_equal(r.flags & REC_F_TRUNC, REC_F_TRUNC);
	assert_int_equal(r.flags & REC_F_BADLEN, REC_F_BADLEN);
	free(body);
}

static void
test_body_cut_and_lies(void **state)
{
	struct urb_iso	 iso[URB_ISO_MAX];
	struct urb_rec	 r;
	struct hv	 v = iso_c;
	uint8_t		 b[64 + 32 + 12], *body;

	(void)state;
	/* descriptors cut in the middle of the second one */
	mkhdr(b, &v, 1);
	mkiso(b + 64, 0, 0, 4, 1);
	mkiso(b + 80, 0, 8, 4, 1);
	memset(&r, 0, sizeof r);
	dec_usbmon_hdr(b, 64, 64, swap_for(1), &r);
	body = exact(b + 64, 20);
	dec_usbmon_body(body, 20, swap_for(1), iso, &r);
	assert_int_equal(r.niso, 1);
	assert_int_equal(r.data_len, 4);	/* half a descriptor, as data */
	assert_int_equal(r.flags & REC_F_TRUNC, REC_F_TRUNC);
	assert_int_equal(r.flags & REC_F_BADLEN, REC_F_BADLEN);
	free(body);

	/* QEMU's pcaps: len_cap counts the 64-byte header too */
	v = ctrl_s;
	v.type = 'C';
	v.fsetup = '-';
	v.fdata = 0;
	v.status = 0;
	v.len_cap = 64 + 18;
	mkhdr(b, &v, 0);
	memset(&r, 0, sizeof r);
	dec_usbmon_hdr(b, 64, 64, swap_for(0), &r);
	body = exact(b + 64, 18);
	dec_usbmon_body(body, 18, swap_for(0), iso, &r);
	assert_int_equal(r.data_len, 18);
	assert_int_equal(r.niso, 0);
	assert_int_equal(r.flags & REC_F_BADLEN, REC_F_BADLEN);
	assert_int_equal(r.flags & REC_F_TRUNC, 0);
	free(body);

	/* ndesc on a bulk event: not the kernel's; ignored, flagged */
	v.xfer = XFER_BULK;
	v.len_cap = 18;
	v.ndesc = 1;
	mkhdr(b, &v, 0);
	memset(&r, 0, sizeof r);
	dec_usbmon_hdr(b, 64, 64, swap_for(0), &r);
	body = exact(b + 64, 18);
	dec_usbmon_body(body, 18, swap_for(0), iso, &r);
	assert_int_equal(r.niso, 0);
	assert_int_equal(r.data_len, 18);
	assert_int_equal(r.flags & REC_F_BADLEN, REC_F_BADLEN);
	free(body);

	/* 100 bytes transferred, 32 captured: truncated, lengths agree */
	v.ndesc = 0;
	v.len_urb = 100;
	v.len_cap = 32;
	mkhdr(b, &v, 0);
	memset(&r, 0, sizeof r);
	dec_usbmon_hdr(b, 64, 64, swap_for(0), &r);
	body = exact(b + 64, 32);
	dec_usbmon_body(body, 32, swap_for(0), iso, &r);
	assert_int_equal(r.data_len, 32);
	assert_int_equal(r.flags & REC_F_TRUNC, REC_F_TRUNC);
	assert_int_equal(r.flags & REC_F_BADLEN, 0);
	free(body);

	/* nothing after the header at all */
	memset(&r, 0, sizeof r);
	dec_usbmon_hdr(b, 64, 64, swap_for(0), &r);
	dec_usbmon_body(b + 64, 0, swap_for(0), iso, &r);
	assert_int_equal(r.data_len, 0);
	assert_int_equal(r.flags & (REC_F_TRUNC | REC_F_BADLEN),
	    REC_F_TRUNC | REC_F_BADLEN);
}

static void
test_data_expected(void **state)
{
	struct urb_iso	 iso[3] = { { 0, 0, 10, 0 }, { 0, 100, 0, 0 },
	    { 0, 20, 5, 0 } };
	struct urb_rec	 r;

	(void)state;
	memset(&r, 0, sizeof r);
	r.type = 'S';
	r.xfer_type = XFER_BULK;
	r.len_urb = 512;
	assert_int_equal(urb_data_expected(&r), 512);
	r.flag_data = '<';
	assert_int_equal(urb_data_expected(&r), 0);
	r.flag_data = '>';
	assert_int_equal(urb_data_expected(&r), 0);
	r.flag_data = 0;
	r.type = 'E';
	assert_int_equal(urb_data_expected(&r), 0);

	/* ISO IN completion: empty frames do not count (frame 1) */
	r.type = 'C';
	r.xfer_type = XFER_ISO;
	r.epnum = 0x81;
	r.len_urb = 15;
	r.iso = iso;
	r.niso = 3;
	assert_int_equal(urb_data_expected(&r), 25);
	/* the text interface prints the buffer length there */
	r.flags = REC_F_TEXT;
	assert_int_equal(urb_data_expected(&r), 15);
	/* ISO OUT completion carries nothing */
	r.flags = 0;
	r.epnum = 0x01;
	r.flag_data = '>';
	assert_int_equal(urb_data_expected(&r), 0);
}

static void
rec_equal(const struct urb_rec *a, const struct urb_rec *b)
{
	assert_int_equal(a->id, b->id);
	assert_int_equal(a->type, b->type);
	assert_int_equal(a->xfer_type, b->xfer_type);
	assert_int_equal(a->epnum, b->epnum);
	assert_int_equal(a->devnum, b->devnum);
	assert_int_equal(a->busnum, b->busnum);
	assert_int_equal(a->flag_setup, b->flag_setup);
	assert_int_equal(a->flag_data, b->flag_data);
	assert_int_equal(a->ts_sec, b->ts_sec);
	assert_int_equal(a->ts_usec, b->ts_usec);
	assert_int_equal(a->status, b->status);
	assert_int_equal(a->len_urb, b->len_urb);
	assert_int_equal(a->iso_error_count, b->iso_error_count);
	assert_int_equal(a->iso_numdesc, b->iso_numdesc);
	assert_int_equal(a->interval, b->interval);
	assert_int_equal(a->start_frame, b->start_frame);
	assert_int_equal(a->xfer_flags, b->xfer_flags);
	if (a->xfer_type != XFER_ISO)
		assert_memory_equal(a->setup, b->setup, 8);
}

static void
test_enc_roundtrip(void **state)
{
	struct urb_iso	 iso[2] = { { 0, 0, 4, 0 }, { -18, 8, 4, 0 } }, got[128];
	uint8_t		 data[12] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12 };
	uint8_t		 out[64 + 16 * URB_ISO_MAX];
	struct urb_rec	 r, d;
	size_t		 n;
	int		 swap;

	(void)state;
	memset(&r, 0, sizeof r);
	r.id = 0xffff8e1402e1b780ULL;
	r.type = 'C';
	r.xfer_type = XFER_ISO;
	r.epnum = 0x83;
	r.devnum = 6;
	r.busnum = 2;
	r.flag_setup = '-';
	r.ts_sec = 1700000000;
	r.ts_usec = 999999;
	r.status = 0;
	r.len_urb = 8;
	r.len_cap = 12345;	/* stale: the encoder recomputes it */
	r.iso_error_count = 1;
	r.iso_numdesc = 2;
	r.interval = 1;
	r.start_frame = 5123;
	r.xfer_flags = 0x202;
	r.iso = iso;
	r.niso = 2;
	r.data = data;
	r.data_len = 12;

	enc_usbmon_hdr(&r, out);
	memset(&d, 0, sizeof d);
	assert_int_equal(dec_usbmon_hdr(out, 64, 64, 0, &d), 0);
	rec_equal(&r, &d);
	assert_int_equal(d.len_cap, 2 * 16 + 12);
	assert_int_equal(d.ndesc, 2);

	for (swap = 0; swap < 2; swap++) {
		n = enc_usbmon_prefix(&r, swap, out);
		assert_int_equal(n, 64 + 32);
		memset(&d, 0, sizeof d);
		assert_int_equal(dec_usbmon_hdr(out, n, 64, swap, &d), 0);
		rec_equal(&r, &d);
		dec_usbmon_body(out + 64, 32, swap, got, &d);
		assert_int_equal(d.niso, 2);
		assert_int_equal(got[1].status, -18);
		assert_int_equal(got[1].off, 8);
		assert_int_equal(got[1].len, 4);
	}
	/* the other order really is the other order */
	enc_usbmon_prefix(&r, 0, out);
	assert_int_equal(get_le16(out + 12) == 2, host_is_le());
	enc_usbmon_prefix(&r, 1, out);
	assert_int_equal(get_be16(out + 12) == 2, host_is_le());

	/* lost descriptors (text: 5 of 10): numdesc says what follows */
	r.iso_numdesc = 10;
	enc_usbmon_hdr(&r, out);
	memset(&d, 0, sizeof d);
	dec_usbmon_hdr(out, 64, 64, 0, &d);
	assert_int_equal(d.iso_numdesc, 2);
	/* more than 128 with 128 present is the kernel's own case */
	r.iso_numdesc = 300;
	r.niso = 0;
	enc_usbmon_hdr(&r, out);
	dec_usbmon_hdr(out, 64, 64, 0, &d);
	assert_int_equal(d.iso_numdesc, 0);
}

/* ------------------------------------------------------------------------
 * Text.
 */
static int
parse(const char *line, struct urb_rec *r, uint8_t data[32],
    struct urb_iso iso[5], size_t *col)
{
	return dec_usbmon_text(line, strlen(line), r, data, iso, col);
}

static void
roundtrip(const char *line)
{
	struct urb_rec	 r;
	struct urb_iso	 iso[5];
	uint8_t		 data[32];
	char		 buf[512];
	size_t		 col = 0;

	if (parse(line, &r, data, iso, &col) != 0)
		fail_msg("\"%s\" does not parse at column %zu", line, col);
	assert_int_equal(dec_fmt_usbmon(&r, buf, sizeof buf),
	    (int)strlen(line));
	assert_string_equal(buf, line);
}

/*
 * Lines written to the 'u' grammar of Documentation/usb/usbmon.rst (a
 * GET_DESCRIPTOR and its answer, interrupt IN, a bulk-only CBW, ISO, a
 * submit error), then one of each other shape.
 */
static const char *const spec_lines[] = {
	"ffff9a0c41e2d840 2793381011 S Ci:2:004:0 s 80 06 0100 0000 0012 18 <",
	"ffff9a0c41e2d840 2793381205 C Ci:2:004:0 0 18 = 12010002 00000040 "
	    "6d042bc5 00010102 0001",
	"ffff9a0c4a37e0c0 2793500012 S Ii:2:004:1 -115:8 8 <",
	"ffff9a0c4a37e0c0 2793531987 C Ii:2:004:1 0:8 8 = 00000400 00000000",
	"ffff9a0c4a37f000 2793600100 S Bo:2:005:2 -115 31 = 55534243 01000000 "
	    "00020000 80000a28 00000000 10000001 00000000 000000",
	"ffff9a0c4a37f000 2793600190 C Bo:2:005:2 0 31 >",
	"ffff9a0c4b001000 2793700000 S Zi:2:006:3 -115:1:5123 2 0:0:192 "
	    "0:192:192 384 <",
	"ffff9a0c4b002000 2793800000 E Bi:2:007:1 -19 0",
	"ffff9a0c4b001000 2793701000 C Zi:2:006:3 0:1:5123:1 2 0:0:192 "
	    "-18:192:100 384 = 00010203 04050607",
	"ffff9a0c4b003000 0 S Zo:2:006:4 -115:1:5200 7 0:0:8 0:8:8 0:16:8 "
	    "0:24:8 0:32:8 56 = 00000000 11111111 22222222 33333333 44444444 "
	    "55555555 66666666 77777777",
	"ffff9a0c4a37f000 2793600300 C Bi:2:005:1 0 4096 = 00010203 04050607 "
	    "08090a0b 0c0d0e0f 10111213 14151617 18191a1b 1c1d1e1f",
	"ffff9a0c4a37f000 2793600301 S Bo:2:005:2 -115 512 Z",
	"ffff9a0c4a37f000 2793600302 S Bo:2:005:2 -115 512 D",
	"ffff9a0c4a37f000 2793600303 S Co:1:002:0 Z __ __ ____ ____ ____ 0",
	"ffff8e141fced600 4106619 S Co:1:001:0 s 00 09 0001 0000 0000 0",
	"ffff8e141fced600 4106885 C Co:1:001:0 0 0",
	"ffff8e1402e1b780 4111727 S Co:1:001:0 s 23 03 0008 0001 0000 0",
	"c1e2d840 4095999999 C Ii:1:001:1 -2:12 0",
	"ffff9a0c4b002000 2793800000 E Ii:65535:127:15 -108 0",
	"ffff9a0c4a37f000 1 C Bi:2:005:1 0 3 = 010203",
};

static void
test_text_roundtrip(void **state)
{
	size_t	 i;

	(void)state;
	for (i = 0; i < sizeof spec_lines / sizeof spec_lines[0]; i++)
		roundtrip(spec_lines[i]);
}

static void
test_text_fields(void **state)
{
	struct urb_rec	 r;
	struct urb_iso	 iso[5];
	uint8_t		 data[32];
	size_t		 col;

	(void)state;
	/* control S with setup */
	assert_int_equal(parse(spec_lines[0], &r, data, iso, &col), 0);
	assert_int_equal(r.id, 0xffff9a0c41e2d840ULL);
	assert_int_equal(r.ts_sec, 2793);
	assert_int_equal(r.ts_usec, 381011);
	assert_int_equal(r.type, 'S');
	assert_int_equal(r.xfer_type, XFER_CTRL);
	assert_int_equal(r.epnum, 0x80);
	assert_int_equal(r.busnum, 2);
	assert_int_equal(r.devnum, 4);
	assert_int_equal(r.flag_setup, 0);
	assert_int_equal(r.status, -115);
	assert_memory_equal(r.setup, "\x80\x06\x00\x01\x00\x00\x12\x00", 8);
	assert_int_equal(r.len_urb, 18);
	assert_int_equal(r.flag_data, '<');
	assert_int_equal(r.data_len, 0);
	assert_int_equal(r.flags & REC_F_TEXT, REC_F_TEXT);
	assert_int_equal(r.flags & REC_F_TRUNC, 0);

	/* control C with 18 bytes: all of them */
	assert_int_equal(parse(spec_lines[1], &r, data, iso, &col), 0);
	assert_int_equal(r.flag_setup, '-');
	assert_int_equal(r.status, 0);
	assert_int_equal(r.flag_data, 0);
	assert_int_equal(r.data_len, 18);
	assert_ptr_equal(r.data, data);
	assert_memory_equal(data, "\x12\x01\x00\x02\x00\x00\x00\x40\x6d\x04"
	    "\x2b\xc5\x00\x01\x01\x02\x00\x01", 18);
	assert_int_equal(r.len_cap, 18);
	assert_int_equal(r.flags & REC_F_TRUNC, 0);

	/* interrupt: status:interval */
	assert_int_equal(parse(spec_lines[2], &r, data, iso, &col), 0);
	assert_int_equal(r.xfer_type, XFER_INT);
	assert_int_equal(r.status, -115);
	assert_int_equal(r.interval, 8);
	assert_int_equal(r.epnum, 0x81);

	/* bulk OUT with 31 bytes: 4-byte words, short last word */
	assert_int_equal(parse(spec_lines[4], &r, data, iso, &col), 0);
	assert_int_equal(r.xfer_type, XFER_BULK);
	assert_int_equal(r.epnum, 0x02);
	assert_int_equal(r.data_len, 31);
	assert_memory_equal(data, "USBC", 4);
	assert_int_equal(data[30], 0);
	assert_int_equal(data[15], 0x28);

	/* OUT completion: '>' */
	assert_int_equal(parse(spec_lines[5], &r, data, iso, &col), 0);
	assert_int_equal(r.flag_data, '>');
	assert_int_equal(r.len_urb, 31);
	assert_int_equal(urb_data_expected(&r), 0);

	/* ISO S with descriptors */
	assert_int_equal(parse(spec_lines[6], &r, data, iso, &col), 0);
	assert_int_equal(r.xfer_type, XFER_ISO);
	assert_int_equal(r.interval, 1);
	assert_int_equal(r.start_frame, 5123);
	assert_int_equal(r.iso_numdesc, 2);
	assert_int_equal(r.niso, 2);
	assert_ptr_equal(r.iso, iso);
	assert_int_equal(iso[1].off, 192);
	assert_int_equal(iso[1].len, 192);
	assert_int_equal(r.len_urb, 384);

	/* E: status only, then 0 */
	assert_int_equal(parse(spec_lines[7], &r, data, iso, &col), 0);
	assert_int_equal(r.type, 'E');
	assert_int_equal(r.status, -19);
	assert_int_equal(r.flag_data, 'E');
	assert_int_equal(r.flag_setup, '-');

	/* ISO C: error count, status -18 in a descriptor */
	assert_int_equal(parse(spec_lines[8], &r, data, iso, &col), 0);
	assert_int_equal(r.iso_error_count, 1);
	assert_int_equal(iso[1].status, -18);
	assert_int_equal(r.data_len, 8);
	assert_int_equal(r.flags & REC_F_TRUNC, REC_F_TRUNC);

	/* 7 descriptors: 5 printed; text records are cut */
	assert_int_equal(parse(spec_lines[9], &r, data, iso, &col), 0);
	assert_int_equal(r.iso_numdesc, 7);
	assert_int_equal(r.niso, 5);
	assert_int_equal(r.data_len, 32);
	assert_int_equal(r.flags & REC_F_TRUNC, REC_F_TRUNC);

	/* 4096 bytes: at most 32 printed */
	assert_int_equal(parse(spec_lines[10], &r, data, iso, &col), 0);
	assert_int_equal(r.len_urb, 4096);
	assert_int_equal(r.data_len, 32);
	assert_int_equal(data[31], 0x1f);
	assert_int_equal(r.flags & REC_F_TRUNC, REC_F_TRUNC);

	/* Z and D */
	assert_int_equal(parse(spec_lines[11], &r, data, iso, &col), 0);
	assert_int_equal(r.flag_data, 'Z');
	assert_int_equal(parse(spec_lines[12], &r, data, iso, &col), 0);
	assert_int_equal(r.flag_data, 'D');
	/* no setup packet */
	assert_int_equal(parse(spec_lines[13], &r, data, iso, &col), 0);
	assert_int_equal(r.flag_setup, 'Z');
	assert_int_equal(r.len_urb, 0);

	/* 8-digit tag, largest stamp */
	assert_int_equal(parse(spec_lines[17], &r, data, iso, &col), 0);
	assert_int_equal(r.id, 0xc1e2d840);
	assert_int_equal(r.ts_sec, 4095);
	assert_int_equal(r.ts_usec, 999999);
	assert_int_equal(r.status, -2);
	assert_int_equal(r.interval, 12);
}

static void
test_text_old_t(void **state)
{
	struct urb_rec	 r;
	struct urb_iso	 iso[5];
	uint8_t		 data[32];
	size_t		 col;

	(void)state;
	/* 't': no bus, dev %03u, ep %02u; statset for every type */
	assert_int_equal(parse("c1e2d840 3575914555 S Ci:001:00 s a3 00 0000 "
	    "0003 0004 4 <", &r, data, iso, &col), 0);
	assert_int_equal(r.id, 0xc1e2d840);
	assert_int_equal(r.busnum, 0);
	assert_int_equal(r.devnum, 1);
	assert_int_equal(r.epnum, 0x80);
	assert_int_equal(r.flag_setup, 0);
	assert_int_equal(r.setup[0], 0xa3);
	assert_int_equal(get_le16(r.setup + 4), 3);
	assert_int_equal(r.len_urb, 4);

	assert_int_equal(parse("d5ce8f80 3575914687 S Ii:002:01 -115 2 <", &r,
	    data, iso, &col), 0);
	assert_int_equal(r.xfer_type, XFER_INT);
	assert_int_equal(r.status, -115);
	assert_int_equal(r.interval, 0);
	assert_int_equal(r.devnum, 2);
	assert_int_equal(r.epnum, 0x81);

	assert_int_equal(parse("d5ce8f80 3575914700 C Bi:003:12 0 6 = "
	    "01020304 0506", &r, data, iso, &col), 0);
	assert_int_equal(r.epnum, 0x8c);
	assert_int_equal(r.data_len, 6);
	assert_int_equal(data[5], 6);

	/* CRLF and trailing blanks are accepted */
	assert_int_equal(parse("c1e2d840 35 C Ci:001:00 0 0  \r", &r, data,
	    iso, &col), 0);
}

static void
bad(const char *line, size_t want_col)
{
	struct urb_rec	 r;
	struct urb_iso	 iso[5];
	uint8_t		 data[32];
	size_t		 col = 9999;

	if (parse(line, &r, data, iso, &col) != -UE_SYNTAX)
		fail_msg("\"%s\" parses", line);
	if (col != want_col)
		fail_msg("\"%s\": column %zu, expected %zu", line, col,
		    want_col);
}

static void
test_text_errors(void **state)
{
	(void)state;
	bad("", 0);
	bad("hello world", 0);
	bad("ffff9a0c41e2d840", 16);
	bad("11112222333344445 1 S Ci:1:001:0 0 0", 0);	/* 17 digits */
	bad("ffff 2793381011 X Ci:2:004:0 0 0", 16);
	bad("ffff 2793381011 S Qi:2:004:0 0 0", 18);
	bad("ffff 2793381011 S Cx:2:004:0 0 0", 19);
	bad("ffff 2793381011 S Ci:2 0 0", 18);		/* 1 colon */
	bad("ffff 2793381011 S Ci:2:4:0:1 0 0", 18);		/* 4 colons */
	bad("ffff 2793381011 S Ci:2:004:200 0 0", 27);		/* ep > 127 */
	bad("ffff 4294967296 S Ci:2:004:0 0 0", 5);		/* > u32 */
	bad("ffff 1 S Ci:2:004:0 s 80 06 0100 0000 0012", 42);	/* no len */
	bad("ffff 1 S Ci:2:004:0 s 80 6 0100 0000 0012 18 <", 25);
	bad("ffff 1 S Ii:2:004:1 -115 8 <", 24);	/* no interval */
	bad("ffff 1 C Bi:2:004:1 0 18", 24);		/* no data part */
	bad("ffff 1 C Bi:2:004:1 0 4 = 0102030", 26);	/* odd digits */
	bad("ffff 1 C Bi:2:004:1 0 4 = 0102 0304", 31);	/* short word */
	bad("ffff 1 C Bi:2:004:1 0 4 = 0102030405", 26);	/* 10 digits */
	bad("ffff 1 C Bi:2:004:1 0 40 = 00000000 00000000 00000000 00000000 "
	    "00000000 00000000 00000000 00000000 00", 99);	/* 33 bytes */
	bad("ffff 1 C Bi:2:004:1 0 4 = 0102zz", 30);
	bad("ffff 1 C Bi:2:004:1 0 4 <<", 24);
	bad("ffff 1 C Bi:2:004:1 0 0 junk", 24);
	bad("ffff 1 S Zi:2:006:3 -115:1:5123 3 0:0:192 0:192:192 384 <", 55);
	bad("ffff 1 S Co:1:002:0 Z __ __ ___ ____ ____ 0", 28);
	bad("ffff 1 C Bi:2:004:1 -2147483649 0", 20);
}

static void
test_fmt_limits(void **state)
{
	struct urb_iso	 iso[5];
	struct urb_rec	 r;
	uint8_t		 data[32];
	char		 buf[512];
	int		 i, n;

	(void)state;
	memset(&r, 0, sizeof r);
	memset(data, 0xff, sizeof data);
	r.id = UINT64_MAX;
	r.type = 'C';
	r.xfer_type = XFER_ISO;
	r.epnum = 0xff;
	r.devnum = 255;
	r.busnum = 65535;
	r.ts_sec = -1;
	r.ts_usec = 999999;
	r.status = INT32_MIN;
	r.interval = INT32_MIN;
	r.start_frame = INT32_MIN;
	r.iso_error_count = INT32_MIN;
	r.iso_numdesc = INT32_MAX;
	for (i = 0; i < 5; i++) {
		iso[i].status = INT32_MIN;
		iso[i].off = UINT32_MAX;
		iso[i].len = UINT32_MAX;
	}
	r.iso = iso;
	r.niso = 5;
	r.len_urb = INT32_MAX;
	r.data = data;
	r.data_len = 32;
	n = dec_fmt_usbmon(&r, buf, sizeof buf);
	assert_true(n > 256);
	assert_int_equal((size_t)n, strlen(buf));
	assert_int_equal(memcmp(buf, "ffffffffffffffff 4095999999 C Zi:65535:"
	    "255:127 -2147483648:", 58), 0);
	/* too small: -UE_FULL, never past size, NUL-terminated */
	memset(buf, 'x', sizeof buf);
	assert_int_equal(dec_fmt_usbmon(&r, buf, 40), -UE_FULL);
	assert_int_equal(buf[39], '\0');
	assert_int_equal(buf[40], 'x');
	assert_int_equal(dec_fmt_usbmon(&r, buf, 0), -UE_FULL);
	assert_int_equal(buf[0], 'f');

	/* data shorter than min(length, 32): what there is, no more */
	memset(&r, 0, sizeof r);
	r.id = 1;
	r.type = 'C';
	r.xfer_type = XFER_BULK;
	r.epnum = 0x81;
	r.flag_setup = '-';
	r.len_urb = 100;
	r.data = data;
	r.data_len = 5;
	assert_true(dec_fmt_usbmon(&r, buf, sizeof buf) > 0);
	assert_string_equal(buf, "1 0 C Bi:0:000:1 0 100 = ffffffff ff");
}

/* Every line the kernel printed in a real session reprints itself. */
static void
test_text_real_capture(void **state)
{
	struct urb_rec	 r;
	struct urb_iso	 iso[5];
	uint8_t		 data[32];
	char		 line[1024], out[512];
	size_t		 n, col, lines = 0;
	FILE		*f;

	(void)state;
	assert_non_null(f = fopen(CAPDIR "usbmon-0u.txt", "r"));
	while (fgets(line, sizeof line, f) != NULL) {
		n = strlen(line);
		assert_true(n > 0 && line[n - 1] == '\n');
		line[--n] = '\0';
		lines++;
		if (dec_usbmon_text(line, n, &r, data, iso, &col) != 0)
			fail_msg("line %zu column %zu: %s", lines, col, line);
		assert_true(dec_fmt_usbmon(&r, out, sizeof out) > 0);
		if (strcmp(out, line) != 0)
			fail_msg("line %zu:\n  read    %s\n  printed %s", lines,
			    line, out);
	}
	fclose(f);
	assert_int_equal(lines, 1666);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hdr64_both_orders),
		cmocka_unit_test(test_hdr48),
		cmocka_unit_test(test_hdr_short),
		cmocka_unit_test(test_body_iso64),
		cmocka_unit_test(test_body_iso48),
		cmocka_unit_test(test_body_cut_and_lies),
		cmocka_unit_test(test_data_expected),
		cmocka_unit_test(test_enc_roundtrip),
		cmocka_unit_test(test_text_roundtrip),
		cmocka_unit_test(test_text_fields),
		cmocka_unit_test(test_text_old_t),
		cmocka_unit_test(test_text_errors),
		cmocka_unit_test(test_fmt_limits),
		cmocka_unit_test(test_text_real_capture),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
