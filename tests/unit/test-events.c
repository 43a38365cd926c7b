/*
 * tests/unit/test-events.c - driver events through the pipeline: the
 * "urbscope-event" line (every kind, awkward strings, every prefix of a
 * line parsed from an exact-size buffer so ASan sees any over-read), the
 * pcapng writer and reader (events on a second, link type 252 interface,
 * read back equal and in order, in both byte orders), the comment on the
 * EPB of a submitted URB, URB-only files without any trace of events,
 * malformed exported-PDU packets that must fail cleanly, and the
 * simulator source putting each submit event before its 'S' record.
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
#include "samples/samples.h"

#define EPOCH	(1700000000LL * 1000000000LL)

static void
tmpname(char *path, size_t size)
{
	int	 fd;

	snprintf(path, size, "/tmp/urbscope-evtest-XXXXXX.pcapng");
	assert_true((fd = mkstemps(path, 7)) >= 0);
	close(fd);
}

static uint8_t *
slurp(const char *path, size_t *n)
{
	FILE	*f;
	uint8_t	*p;
	long	 len;

	assert_non_null(f = fopen(path, "rb"));
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	len = ftell(f);
	rewind(f);
	assert_non_null(p = malloc((size_t)len + 1));
	assert_int_equal(fread(p, 1, (size_t)len, f), (size_t)len);
	fclose(f);
	*n = (size_t)len;
	return p;
}

static void
spit(const char *path, const uint8_t *p, size_t n)
{
	FILE	*f;

	assert_non_null(f = fopen(path, "wb"));
	assert_int_equal(fwrite(p, 1, n, f), n);
	assert_int_equal(fclose(f), 0);
}

/* One event of each kind, with the fields the core fills for it. */
static size_t
make_events(struct drv_event *ev, size_t max)
{
	static const char *const texts[] = {
		NULL, "", "plain", "two words", "quote \" and \\ back",
		"tab\tnewline\nend", "caf\xc3\xa9 \x01\x7f", "k=v =",
	};
	size_t	 n = 0;
	int	 k;

	for (k = DRV_REGISTER; k <= DRV_LOG && n < max; k++, n++) {
		memset(&ev[n], 0, sizeof ev[n]);
		ev[n].ts_ns = EPOCH + 1000000LL * k + 7;
		ev[n].kind = (enum drv_kind)k;
		ev[n].busnum = 1;
		ev[n].devnum = (uint8_t)(k + 1);
		ev[n].intf = k % 3 == 0 ? -1 : (int16_t)(k % 4);
		ev[n].driver = k % 5 == 0 ? NULL : "usb-skeleton";
		ev[n].func = k % 7 == 0 ? NULL : "skel_write";
		ev[n].result = k % 2 ? 0 : -19 - k;
		ev[n].urb_id = 0x5e0000000100ULL + (uint64_t)k;
		ev[n].ep = k % 2 ? 0x02 : 0x81;
		/* a match has an id table entry, no length */
		ev[n].length = k == DRV_MATCH ? 0 : (uint32_t)k * 5;
		ev[n].entry = k == DRV_MATCH ? 2 : 0;
		ev[n].mem_flags = k % 3 == 0 ? 0xd0 : k % 3 == 1 ? 0x20 : 0x7;
		ev[n].context = (uint32_t)(k % 5);
		ev[n].ptr = k % 2 ? 0 : 0xffff888012345678ULL;
		ev[n].minor = k % 4 == 0 ? -1 : 192 + k;
		ev[n].rule = k == DRV_RULE ? "gfp-kernel-in-atomic" : NULL;
		ev[n].text = texts[(size_t)k %
		    (sizeof texts / sizeof texts[0])];
	}
	/* a kind urbscope does not know and the extremes of every field */
	if (n < max) {
		memset(&ev[n], 0, sizeof ev[n]);
		ev[n].ts_ns = EPOCH + 999000000000LL;
		ev[n].kind = (enum drv_kind)77;
		ev[n].busnum = 65535;
		ev[n].devnum = 255;
		ev[n].intf = -32768;
		ev[n].result = INT32_MIN;
		ev[n].urb_id = UINT64_MAX;
		ev[n].ep = 0xff;
		ev[n].length = UINT32_MAX;
		ev[n].entry = UINT32_MAX;
		ev[n].mem_flags = UINT32_MAX;
		ev[n].context = UINT32_MAX;
		ev[n].ptr = UINT64_MAX;
		ev[n].minor = INT32_MAX;
		ev[n].text = "";
		n++;
	}
	return n;
}

static void
assert_str_eq(const char *a, const char *b)
{
	if (a == NULL || b == NULL) {
		assert_true(a == b);
		return;
	}
	assert_string_equal(a, b);
}

static void
assert_event_eq(const struct drv_event *a, const struct drv_event *b,
    int ts)
{
	if (ts)
		assert_int_equal(a->ts_ns, b->ts_ns);
	assert_int_equal(a->kind, b->kind);
	assert_int_equal(a->busnum, b->busnum);
	assert_int_equal(a->devnum, b->devnum);
	assert_int_equal(a->intf, b->intf);
	assert_str_eq(a->driver, b->driver);
	assert_str_eq(a->func, b->func);
	assert_int_equal(a->result, b->result);
	assert_int_equal(a->urb_id, b->urb_id);
	assert_int_equal(a->ep, b->ep);
	assert_int_equal(a->length, b->length);
	assert_int_equal(a->entry, b->entry);
	assert_int_equal(a->mem_flags, b->mem_flags);
	assert_int_equal(a->context, b->context);
	assert_int_equal(a->ptr, b->ptr);
	assert_int_equal(a->minor, b->minor);
	assert_str_eq(a->rule, b->rule);
	assert_str_eq(a->text, b->text);
}

/* ------------------------------------------------------------------------
 * The line.
 */
static void
test_line_roundtrip(void **state)
{
	struct drv_event ev[32], back;
	struct sbuf	 b = { 0 };
	char		*copy, store[1024];
	size_t		 n, i, col;

	(void)state;
	n = make_events(ev, 32);
	for (i = 0; i < n; i++) {
		b.len = 0;
		dec_event_encode(&ev[i], &b);
		assert_false(b.oom);
		/* one line of printable ASCII */
		assert_null(memchr(b.s, '\n', b.len));
		assert_int_equal(strncmp(b.s, "urbscope-event ", 15), 0);
		/* exact size: an over-read is an ASan report */
		assert_non_null(copy = malloc(b.len));
		memcpy(copy, b.s, b.len);
		if (dec_event_parse(copy, b.len, &back, store, b.len + 8,
		    &col) != 0)
			fail_msg("%s: column %zu", b.s, col);
		assert_event_eq(&ev[i], &back, 0);
		free(copy);
	}
	sb_free(&b);
}

/*
 * A match's id table entry is its own field ("entry", JSON "entry"), not
 * a length: the summary says it once (in the core's text), -Y len== does
 * not see it; a line of urbscope 0.1.0 (the entry in len=) reads the
 * same.
 */
static void
test_match_entry(void **state)
{
	static const char old[] = "urbscope-event match driver=buggy "
	    "func=match bus=1 dev=3 intf=0 len=1 result=0 "
	    "text=\"buggy 1-2:1.0: entry 1 flags 0x0380: matched\"";
	struct drv_event ev;
	struct dec_fmt	 f;
	struct sbuf	 b = { 0 };
	char		 store[256];
	size_t		 col;

	(void)state;
	assert_int_equal(dec_event_parse(old, sizeof old - 1, &ev, store,
	    sizeof store, &col), 0);
	assert_int_equal(ev.entry, 1);
	assert_int_equal(ev.length, 0);
	dec_event_encode(&ev, &b);
	assert_non_null(strstr(b.s, " entry=1 "));
	assert_null(strstr(b.s, " len="));
	b.len = 0;
	memset(&f, 0, sizeof f);
	dec_fmt_event_json(&f, &ev, &b);
	assert_non_null(strstr(b.s, "\"entry\":1,"));
	assert_null(strstr(b.s, "\"length\""));
	b.len = 0;
	dec_fmt_event_summary(&ev, &b);
	assert_string_equal(b.s, "match intf 0 buggy 1-2:1.0: entry 1 flags "
	    "0x0380: matched -> 0");
	sb_free(&b);
}

/* The human-readable forms of the lines the brief promises. */
static void
test_line_text(void **state)
{
	struct drv_event ev;
	struct sbuf	 b = { 0 };

	(void)state;
	memset(&ev, 0, sizeof ev);
	ev.kind = DRV_SUBMIT;
	ev.busnum = 1;
	ev.devnum = 2;
	ev.intf = 0;
	ev.minor = -1;
	ev.driver = "usb-skeleton";
	ev.func = "skel_write";
	ev.urb_id = 0x5e0000000100ULL;
	ev.ep = 0x02;
	ev.length = 5;
	ev.mem_flags = 0xd0;
	dec_event_encode(&ev, &b);
	assert_string_equal(b.s, "urbscope-event submit driver=usb-skeleton "
	    "func=skel_write bus=1 dev=2 intf=0 urb=0x5e0000000100 ep=0x02 "
	    "len=5 mem=GFP_KERNEL ctx=task result=0");
	b.len = 0;
	dec_fmt_event_summary(&ev, &b);
	assert_string_equal(b.s, "submit intf 0 urb 0x5e0000000100 ep 0x02 "
	    "len 5 GFP_KERNEL task -> 0");

	memset(&ev, 0, sizeof ev);
	ev.kind = DRV_PROBE;
	ev.intf = 0;
	ev.minor = -1;
	b.len = 0;
	dec_fmt_event_summary(&ev, &b);
	assert_string_equal(b.s, "probe intf 0 -> 0");

	ev.kind = DRV_REGISTER_DEV;
	ev.minor = 192;
	ev.text = "/dev/usb/skel0";
	b.len = 0;
	dec_fmt_event_summary(&ev, &b);
	assert_string_equal(b.s, "register_dev intf 0 minor 192 "
	    "/dev/usb/skel0 -> 0");

	memset(&ev, 0, sizeof ev);
	ev.kind = DRV_RULE;
	ev.rule = "gfp-kernel-in-atomic";
	ev.text = "usb_submit_urb(GFP_KERNEL) in completion handler "
	    "skel_write_bulk_callback";
	b.len = 0;
	dec_fmt_event_summary(&ev, &b);
	assert_string_equal(b.s, "RULE gfp-kernel-in-atomic: "
	    "usb_submit_urb(GFP_KERNEL) in completion handler "
	    "skel_write_bulk_callback");
	sb_free(&b);
}

/* Every prefix of every line: parsed or refused, never over-read. */
static void
test_line_cut(void **state)
{
	struct drv_event ev[32], back;
	struct sbuf	 b = { 0 };
	char		*copy, store[1024];
	size_t		 n, i, k, col;
	int		 rc;

	(void)state;
	n = make_events(ev, 32);
	for (i = 0; i < n; i++) {
		b.len = 0;
		dec_event_encode(&ev[i], &b);
		for (k = 0; k < b.len; k++) {
			assert_non_null(copy = malloc(k + 1));
			memcpy(copy, b.s, k);
			rc = dec_event_parse(copy, k, &back, store, k + 8,
			    &col);
			assert_true(rc == 0 || rc == -UE_SYNTAX ||
			    rc == -UE_RANGE);
			if (rc != 0)
				assert_true(col <= k);
			free(copy);
		}
	}
	sb_free(&b);
}

static void
test_line_bad(void **state)
{
	static const struct {
		const char	*line;
		int		 rc;
	} bad[] = {
		{ "", -UE_SYNTAX },
		{ "urbscope-event", -UE_SYNTAX },
		{ "urbscope-events probe", -UE_SYNTAX },
		{ "urbscope-event  probe", -UE_SYNTAX },
		{ "urbscope-event frob", -UE_SYNTAX },
		{ "urbscope-event probe ", -UE_SYNTAX },
		{ "urbscope-event probe dev", -UE_SYNTAX },
		{ "urbscope-event probe =1", -UE_SYNTAX },
		{ "urbscope-event probe dev=", -UE_SYNTAX },
		{ "urbscope-event probe dev=256", -UE_RANGE },
		{ "urbscope-event probe dev=-1", -UE_RANGE },
		{ "urbscope-event probe intf=-32769", -UE_RANGE },
		{ "urbscope-event probe result=2147483648", -UE_RANGE },
		{ "urbscope-event probe urb=0x10000000000000000", -UE_RANGE },
		{ "urbscope-event probe dev=1x", -UE_SYNTAX },
		{ "urbscope-event probe dev=0x", -UE_SYNTAX },
		{ "urbscope-event probe mem=GFP_NOPE", -UE_SYNTAX },
		{ "urbscope-event probe text=\"open", -UE_SYNTAX },
		{ "urbscope-event probe text=\"a\\", -UE_SYNTAX },
		{ "urbscope-event probe text=\"\\q\"", -UE_SYNTAX },
		{ "urbscope-event probe text=\"\\x0\"", -UE_SYNTAX },
		{ "urbscope-event probe text=\"\\x00\"", -UE_SYNTAX },
		{ "urbscope-event probe text=\"a\"b", -UE_SYNTAX },
		{ "urbscope-event probe dev=\"1\"", -UE_SYNTAX },
		{ NULL, 0 }
	};
	struct drv_event ev;
	char		 store[256], *copy;
	size_t		 i, n, col;

	(void)state;
	for (i = 0; bad[i].line != NULL; i++) {
		n = strlen(bad[i].line);
		assert_non_null(copy = malloc(n + 1));
		memcpy(copy, bad[i].line, n);
		if (dec_event_parse(copy, n, &ev, store, sizeof store,
		    &col) != bad[i].rc)
			fail_msg("'%s' does not give %d", bad[i].line,
			    bad[i].rc);
		assert_true(col <= n);
		free(copy);
	}
	/* unknown keys are skipped, quoted or not; a number kind is kept */
	n = strlen("urbscope-event 99 future=1 later=\"a b\" dev=3");
	assert_int_equal(dec_event_parse("urbscope-event 99 future=1 "
	    "later=\"a b\" dev=3", n, &ev, store, sizeof store, &col), 0);
	assert_int_equal(ev.kind, 99);
	assert_int_equal(ev.devnum, 3);
	assert_int_equal(ev.intf, -1);
	/* a store too small is -UE_FULL, not an overflow */
	n = strlen("urbscope-event log text=\"0123456789\"");
	assert_int_equal(dec_event_parse("urbscope-event log "
	    "text=\"0123456789\"", n, &ev, store, 8, &col), -UE_FULL);
}

/* ------------------------------------------------------------------------
 * pcapng.
 */
static void
make_urb(struct urb_rec *r, uint64_t id, uint8_t type, int64_t ts,
    const uint8_t *data, uint32_t len)
{
	memset(r, 0, sizeof *r);
	r->id = id;
	r->type = type;
	r->xfer_type = XFER_BULK;
	r->epnum = 0x02;
	r->devnum = 2;
	r->busnum = 1;
	r->flag_setup = '-';
	r->flag_data = data != NULL ? 0 : '>';
	r->ts_ns = ts;
	r->ts_sec = ts / 1000000000;
	r->ts_usec = (int32_t)(ts % 1000000000 / 1000);
	r->len_urb = len;
	r->data = data;
	r->data_len = data != NULL ? len : 0;
	r->status = type == 'S' ? URB_EINPROGRESS : 0;
}

static void
roundtrip(int swap)
{
	static const uint8_t hello[5] = "hello";
	struct cap_sink_opts opts = { .swap = swap, .tsresol = 9 };
	struct drv_event ev[32], got;
	struct urb_rec	 urbs[32], r;
	struct cap_sink	*sink;
	struct cap_source *src;
	char		 path[64], err[512];
	size_t		 n, i, nu = 0, ne = 0;
	int		 rc;

	tmpname(path, sizeof path);
	n = make_events(ev, 32);
	assert_int_equal(cap_sink_open(path, "pcapng", &opts, &sink, err,
	    sizeof err), 0);
	/* URB, event, URB, event, ... */
	for (i = 0; i < n; i++) {
		make_urb(&urbs[i], 0x1000 + i, i % 2 ? 'C' : 'S',
		    ev[i].ts_ns - 1, hello, 5);
		assert_int_equal(cap_sink_write(sink, &urbs[i]), 0);
		assert_int_equal(cap_sink_write_event(sink, &ev[i]), 0);
	}
	assert_int_equal(cap_sink_close(sink, err, sizeof err), 0);

	assert_int_equal(cap_open(path, &src, err, sizeof err), 0);
	while ((rc = cap_next(src, &r, &got)) > 0) {
		if (rc == CAP_URB) {
			assert_int_equal(nu, ne);
			assert_int_equal(r.id, urbs[nu].id);
			assert_int_equal(r.ts_ns, urbs[nu].ts_ns);
			assert_int_equal(r.recno, 2 * nu + 1);
			nu++;
		} else {
			assert_int_equal(rc, CAP_EVENT);
			assert_int_equal(ne + 1, nu);
			assert_event_eq(&ev[ne], &got, 1);
			assert_int_equal(got.recno, 2 * ne + 2);
			ne++;
		}
	}
	if (rc < 0)
		fail_msg("%s", src->err);
	assert_int_equal(nu, n);
	assert_int_equal(ne, n);
	cap_close(src);
	unlink(path);
}

static void
test_pcapng_roundtrip(void **state)
{
	(void)state;
	roundtrip(0);
	roundtrip(1);
}

/* Walk a little-endian file's blocks: type, interface, options. */
struct blk {
	uint32_t	 type;
	uint32_t	 ifid;
	const uint8_t	*opt;		/* EPB options */
	uint32_t	 optlen;
	uint32_t	 linktype;	/* IDB */
};

static size_t
blocks(const uint8_t *p, size_t n, struct blk *b, size_t max)
{
	size_t	 off = 0, k = 0;
	uint32_t len, cap;

	while (off + 12 <= n && k < max) {
		b[k].type = get_le32(p + off);
		len = get_le32(p + off + 4);
		assert_true(len >= 12 && off + len <= n);
		assert_int_equal(get_le32(p + off + len - 4), len);
		b[k].opt = NULL;
		b[k].optlen = 0;
		if (b[k].type == 1)
			b[k].linktype = get_le16(p + off + 8);
		if (b[k].type == 6) {
			b[k].ifid = get_le32(p + off + 8);
			cap = get_le32(p + off + 20);
			b[k].opt = p + off + 28 + ((cap + 3) & ~3U);
			b[k].optlen = (uint32_t)(p + off + len - 4 - b[k].opt);
		}
		off += len;
		k++;
	}
	assert_int_equal(off, n);
	return k;
}

static void
test_comment(void **state)
{
	static const uint8_t hello[5] = "hello";
	struct cap_sink_opts opts = { .swap = !host_is_le() };
	struct drv_event ev;
	struct urb_rec	 r;
	struct cap_sink	*sink;
	struct blk	 b[16];
	uint8_t		*file;
	char		 path[64], err[512];
	const char	*want = "usb-skeleton skel_write usb_submit_urb "
	    "GFP_KERNEL";
	size_t		 n, nb;

	(void)state;
	tmpname(path, sizeof path);
	memset(&ev, 0, sizeof ev);
	ev.kind = DRV_SUBMIT;
	ev.driver = "usb-skeleton";
	ev.func = "skel_write";
	ev.urb_id = 0xabc;
	ev.mem_flags = 0xd0;
	ev.intf = ev.minor = -1;
	ev.ts_ns = EPOCH;
	assert_int_equal(cap_sink_open(path, "pcapng", &opts, &sink, err,
	    sizeof err), 0);
	make_urb(&r, 0x999, 'S', EPOCH, hello, 5);	/* not that URB */
	assert_int_equal(cap_sink_write(sink, &r), 0);
	assert_int_equal(cap_sink_write_event(sink, &ev), 0);
	make_urb(&r, 0xabc, 'S', EPOCH, hello, 5);	/* its submit */
	assert_int_equal(cap_sink_write(sink, &r), 0);
	make_urb(&r, 0xabc, 'C', EPOCH + 1000, NULL, 5);
	assert_int_equal(cap_sink_write(sink, &r), 0);
	make_urb(&r, 0xabc, 'S', EPOCH + 2000, hello, 5); /* used up */
	assert_int_equal(cap_sink_write(sink, &r), 0);
	assert_int_equal(cap_sink_close(sink, err, sizeof err), 0);

	file = slurp(path, &n);
	nb = blocks(file, n, b, 16);
	assert_int_equal(nb, 8);	/* SHB IDB EPB IDB EPB EPB EPB EPB */
	assert_int_equal(b[1].linktype, 220);
	assert_int_equal(b[3].type, 1);
	assert_int_equal(b[3].linktype, 252);
	assert_int_equal(b[2].optlen, 0);
	assert_int_equal(b[4].ifid, 1);
	assert_int_equal(b[5].ifid, 0);
	assert_int_equal(b[5].optlen, 4 + ((strlen(want) + 3) & ~3U) + 4);
	assert_int_equal(get_le16(b[5].opt), 1);
	assert_int_equal(get_le16(b[5].opt + 2), strlen(want));
	assert_memory_equal(b[5].opt + 4, want, strlen(want));
	assert_int_equal(b[6].optlen, 0);
	assert_int_equal(b[7].optlen, 0);
	free(file);

	/* and it still reads: 4 URBs, 1 event */
	{
		struct cap_source *src;
		struct drv_event got;
		int	 rc, nu = 0, ne = 0;

		assert_int_equal(cap_open(path, &src, err, sizeof err), 0);
		while ((rc = cap_next(src, &r, &got)) > 0)
			rc == CAP_URB ? nu++ : ne++;
		assert_int_equal(rc, 0);
		assert_int_equal(nu, 4);
		assert_int_equal(ne, 1);
		cap_close(src);
	}
	unlink(path);
}

/* Without events: one interface, no options on packets. */
static void
test_no_events(void **state)
{
	static const uint8_t hello[5] = "hello";
	struct cap_sink_opts opts = { .swap = !host_is_le() };
	struct urb_rec	 r;
	struct cap_sink	*sink;
	struct blk	 b[16];
	uint8_t		*file;
	char		 path[64], err[512];
	size_t		 n, nb, i;

	(void)state;
	tmpname(path, sizeof path);
	assert_int_equal(cap_sink_open(path, "pcapng", &opts, &sink, err,
	    sizeof err), 0);
	for (i = 0; i < 6; i++) {
		make_urb(&r, 0x100 + i / 2, i % 2 ? 'C' : 'S',
		    EPOCH + (int64_t)i * 1000, hello, 5);
		assert_int_equal(cap_sink_write(sink, &r), 0);
	}
	assert_int_equal(cap_sink_close(sink, err, sizeof err), 0);
	file = slurp(path, &n);
	nb = blocks(file, n, b, 16);
	assert_int_equal(nb, 8);
	assert_int_equal(b[1].type, 1);
	for (i = 2; i < nb; i++) {
		assert_int_equal(b[i].type, 6);
		assert_int_equal(b[i].ifid, 0);
		assert_int_equal(b[i].optlen, 0);
	}
	free(file);
	unlink(path);
}

/* ------------------------------------------------------------------------
 * Malformed exported-PDU packets.
 */
struct bb {
	uint8_t	 p[4096];
	size_t	 n;
};

static void
bb_put(struct bb *b, const void *p, size_t n)
{
	assert_true(b->n + n <= sizeof b->p);
	memcpy(b->p + b->n, p, n);
	b->n += n;
}

static void
bb_le32(struct bb *b, uint32_t v)
{
	uint8_t	 t[4];

	put_le32(t, v);
	bb_put(b, t, 4);
}

/* SHB, IDB 252, one EPB of caplen bytes of pkt (claiming len). */
static void
make_file(const char *path, const uint8_t *pkt, uint32_t caplen,
    uint32_t len)
{
	static const uint8_t zero[4];
	struct bb	 b = { .n = 0 };
	uint32_t	 blen = 32 + ((caplen + 3) & ~3U);

	bb_le32(&b, 0x0a0d0d0a);
	bb_le32(&b, 28);
	bb_le32(&b, 0x1a2b3c4d);
	bb_le32(&b, 1);			/* version 1.0 */
	bb_le32(&b, 0xffffffff);
	bb_le32(&b, 0xffffffff);
	bb_le32(&b, 28);
	bb_le32(&b, 1);
	bb_le32(&b, 20);
	bb_le32(&b, 252);
	bb_le32(&b, 0);
	bb_le32(&b, 20);
	bb_le32(&b, 6);
	bb_le32(&b, blen);
	bb_le32(&b, 0);
	bb_le32(&b, 0);
	bb_le32(&b, 0);
	bb_le32(&b, caplen);
	bb_le32(&b, len);
	bb_put(&b, pkt, caplen);
	bb_put(&b, zero, ((caplen + 3) & ~3U) - caplen);
	bb_le32(&b, blen);
	spit(path, b.p, b.n);
}

/* The tags and line as the writer makes them. */
static size_t
make_pdu(uint8_t *p, const char *line)
{
	size_t	 n = 0;

	put_be16(p, 12);
	put_be16(p + 2, 16);
	memcpy(p + 4, "data-text-lines\0", 16);
	n = 20;
	put_be16(p + n, 0);
	put_be16(p + n + 2, 0);
	n += 4;
	memcpy(p + n, line, strlen(line));
	return n + strlen(line);
}

static int
read_one(const char *path, struct drv_event *ev, char *err, size_t errlen)
{
	struct cap_source *src;
	struct urb_rec	 r;
	int		 rc;

	assert_int_equal(cap_open(path, &src, err, errlen), 0);
	rc = cap_next(src, &r, ev);
	if (rc < 0)
		snprintf(err, errlen, "%s", src->err);
	cap_close(src);
	return rc;
}

static void
test_malformed(void **state)
{
	struct drv_event ev;
	uint8_t		 pkt[512];
	char		 path[64], err[600];
	size_t		 n, k;
	int		 rc;

	(void)state;
	tmpname(path, sizeof path);

	/* good one first */
	n = make_pdu(pkt, "urbscope-event probe bus=1 dev=2 intf=0 result=0\n");
	make_file(path, pkt, (uint32_t)n, (uint32_t)n);
	assert_int_equal(read_one(path, &ev, err, sizeof err), CAP_EVENT);
	assert_int_equal(ev.kind, DRV_PROBE);
	assert_int_equal(ev.devnum, 2);

	/* every cut of the packet: an error or (with the line cut after a
	 * whole field) an event, never a crash or an over-read */
	for (k = 0; k < n; k++) {
		make_file(path, pkt, (uint32_t)k, (uint32_t)k);
		rc = read_one(path, &ev, err, sizeof err);
		assert_true(rc == CAP_EVENT || rc < 0);
		if (k < 24)
			assert_true(rc < 0);
	}

	/* cut by a snaplen */
	make_file(path, pkt, (uint32_t)n - 4, (uint32_t)n);
	assert_int_equal(read_one(path, &ev, err, sizeof err), -UE_BADREC);
	assert_non_null(strstr(err, "cut"));

	/* a tag longer than the packet */
	put_be16(pkt + 2, 400);
	make_file(path, pkt, (uint32_t)n, (uint32_t)n);
	assert_int_equal(read_one(path, &ev, err, sizeof err), -UE_BADREC);
	assert_non_null(strstr(err, "runs past"));

	/* no end tag */
	put_be16(pkt, 12);
	put_be16(pkt + 2, 4);
	memset(pkt + 4, 'x', 4);
	put_be16(pkt + 8, 33);
	put_be16(pkt + 10, 0);
	make_file(path, pkt, 12, 12);
	assert_int_equal(read_one(path, &ev, err, sizeof err), -UE_BADREC);
	assert_non_null(strstr(err, "inside its tags"));

	/* an exported PDU that is not ours */
	n = make_pdu(pkt, "GET / HTTP/1.1\r\n");
	make_file(path, pkt, (uint32_t)n, (uint32_t)n);
	assert_int_equal(read_one(path, &ev, err, sizeof err),
	    -UE_LINKTYPE);
	assert_non_null(strstr(err, "neither urbscope driver events nor "
	    "syslog bus events"));

	/* ours, but a bad line */
	n = make_pdu(pkt, "urbscope-event probe dev=300");
	make_file(path, pkt, (uint32_t)n, (uint32_t)n);
	assert_int_equal(read_one(path, &ev, err, sizeof err), -UE_RANGE);
	assert_non_null(strstr(err, "column 25"));
	n = make_pdu(pkt, "urbscope-event log text=\"no end");
	make_file(path, pkt, (uint32_t)n, (uint32_t)n);
	assert_int_equal(read_one(path, &ev, err, sizeof err), -UE_SYNTAX);
	unlink(path);
}

/*
 * The simulator source: events and records in one sequence, each
 * DRV_SUBMIT before the 'S' record of its URB (the core reports it after).
 * Skipped while no scenario loads a driver.
 */
static void
test_sim_order(void **state)
{
	struct cap_source *src;
	struct drv_event ev;
	struct urb_rec	 r;
	char		 err[512];
	uint64_t	 pend_id = 0, n = 0, before = 0;
	int64_t		 pend_ts = 0;
	int		 rc, pending = 0;

	(void)state;
	if (cap_open("sim:skeleton", &src, err, sizeof err) != 0)
		skip();
	while ((rc = cap_next(src, &r, &ev)) > 0) {
		assert_int_equal(rc == CAP_URB ? r.recno : ev.recno, ++n);
		if (rc == CAP_EVENT && ev.kind == DRV_SUBMIT && ev.result == 0) {
			pending = 1;
			pend_id = ev.urb_id;
			pend_ts = ev.ts_ns;
		} else if (rc == CAP_URB && pending && r.type == 'S' &&
		    r.id == pend_id) {
			assert_int_equal(r.ts_ns, pend_ts);
			before++;
			pending = 0;
		}
		if (rc == CAP_EVENT && ev.text != NULL)
			assert_true(strlen(ev.text) < 4096);	/* copied */
	}
	if (rc < 0)
		fail_msg("%s", src->err);
	cap_close(src);
	assert_true(before > 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_line_roundtrip),
		cmocka_unit_test(test_match_entry),
		cmocka_unit_test(test_line_text),
		cmocka_unit_test(test_line_cut),
		cmocka_unit_test(test_line_bad),
		cmocka_unit_test(test_pcapng_roundtrip),
		cmocka_unit_test(test_comment),
		cmocka_unit_test(test_no_events),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_sim_order),
	};

	sim_register(&sample_catalog);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
