/*
 * tests/unit/test-capture.c - capture/: the buffered input and output,
 * the registry, and every reader and writer.  Round trips through pcap
 * and pcapng in both byte orders (plus hand-made 189, nanosecond and
 * multi-section files), the real captures of a Linux 6.1 session (the
 * binary stream against the kernel's own text lines, QEMU's pcaps against
 * libpcap), files cut at every byte, and files that lie.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>
#include <pcap/pcap.h>

#include "capture/capture.h"

#define CAPDIR	"tests/data/linux61/"

/* ------------------------------------------------------------------------
 * Files.
 */
struct tfile {
	char	 path[64];
};

static void
tfile_make(struct tfile *t, const char *suffix)
{
	int	 fd;

	snprintf(t->path, sizeof t->path, "/tmp/urbscope-captest-XXXXXX%s",
	    suffix);
	fd = mkstemps(t->path, (int)strlen(suffix));
	assert_true(fd >= 0);
	close(fd);
}

static void
write_file(const char *path, const void *p, size_t n)
{
	FILE	*f;

	assert_non_null(f = fopen(path, "wb"));
	if (n > 0)
		assert_int_equal(fwrite(p, 1, n, f), n);
	assert_int_equal(fclose(f), 0);
}

static uint8_t *
read_file(const char *path, size_t *n)
{
	uint8_t	*p;
	FILE	*f;
	long	 len;

	if ((f = fopen(path, "rb")) == NULL)
		return NULL;
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	len = ftell(f);
	rewind(f);
	assert_non_null(p = malloc((size_t)len + 1));
	assert_int_equal(fread(p, 1, (size_t)len, f), (size_t)len);
	fclose(f);
	*n = (size_t)len;
	return p;
}

/* A growable byte buffer with a byte order, to build files by hand. */
struct bb {
	uint8_t	*p;
	size_t	 n;
	size_t	 cap;
	int	 be;
};

static void
bb_bytes(struct bb *b, const void *p, size_t n)
{
	if (b->n + n > b->cap) {
		b->cap = (b->n + n) * 2 + 64;
		assert_non_null(b->p = realloc(b->p, b->cap));
	}
	if (n > 0)
		memcpy(b->p + b->n, p, n);
	b->n += n;
}

static void
bb_uint(struct bb *b, uint64_t v, int size)
{
	uint8_t	 t[8];
	int	 i;

	for (i = 0; i < size; i++)
		t[b->be ? size - 1 - i : i] = (uint8_t)(v >> (8 * i));
	bb_bytes(b, t, (size_t)size);
}

static void
bb_pad4(struct bb *b)
{
	static const uint8_t zero[4];

	bb_bytes(b, zero, (4 - b->n % 4) % 4);
}

/* Patch a u32 at off in the buffer's order. */
static void
bb_put32(struct bb *b, size_t off, uint32_t v)
{
	size_t	 save = b->n;

	b->n = off;
	bb_uint(b, v, 4);
	b->n = save;
}

/* ------------------------------------------------------------------------
 * Records.
 */
static uint8_t d_desc[18] = { 0x12, 0x01, 0x00, 0x02, 0x09, 0x00, 0x00,
	0x40, 0x6b, 0x1d, 0x02, 0x00, 0x01, 0x06, 0x03, 0x02, 0x01, 0x01 };
static uint8_t d_cbw[31] = { 'U', 'S', 'B', 'C', 1, 0, 0, 0, 0, 2, 0, 0,
	0x80, 0, 10, 0x28 };
static uint8_t d_kbd[8] = { 0, 0, 4, 0, 0, 0, 0, 0 };
static uint8_t d_iso[20];
static uint8_t d_iso_out[16];
static uint8_t d_bulk[100];
static struct urb_iso iso3[3] = { { 0, 0, 8, 0 }, { -18, 8, 0, 0 },
	{ 0, 12, 8, 0 } };
static struct urb_iso iso2[2] = { { 0, 0, 8, 0 }, { -18, 8, 8, 0 } };

#define NRECS	11

static void
make_recs(struct urb_rec *r)
{
	int	 i;

	for (i = 0; i < 20; i++)
		d_iso[i] = (uint8_t)(0xa0 + i);
	for (i = 0; i < 16; i++)
		d_iso_out[i] = (uint8_t)(0x30 + i);
	for (i = 0; i < 100; i++)
		d_bulk[i] = (uint8_t)(i * 7);

	memset(r, 0, NRECS * sizeof *r);
	for (i = 0; i < NRECS; i++) {
		r[i].id = 0xffff8e1402e1b000ULL + 0x40 * (uint64_t)(i / 2);
		r[i].busnum = 1;
		r[i].devnum = 3;
		r[i].flag_setup = '-';
		r[i].ts_sec = 1700000000 + i;
		r[i].ts_usec = 1000 * i + 7;
		r[i].ts_ns = r[i].ts_sec * 1000000000LL + r[i].ts_usec * 1000LL;
		r[i].iso = NULL;
		r[i].data = NULL;
	}
	/* control IN: GET_DESCRIPTOR(Device) and its answer */
	r[0].type = 'S';
	r[0].xfer_type = XFER_CTRL;
	r[0].epnum = 0x80;
	r[0].flag_setup = 0;
	r[0].flag_data = '<';
	r[0].status = -115;
	r[0].len_urb = 18;
	memcpy(r[0].setup, "\x80\x06\x00\x01\x00\x00\x12\x00", 8);
	r[1].type = 'C';
	r[1].xfer_type = XFER_CTRL;
	r[1].epnum = 0x80;
	r[1].len_urb = 18;
	r[1].data = d_desc;
	r[1].data_len = 18;
	/* bulk OUT: a CBW, then '>' */
	r[2].type = 'S';
	r[2].xfer_type = XFER_BULK;
	r[2].epnum = 0x02;
	r[2].status = -115;
	r[2].len_urb = 31;
	r[2].data = d_cbw;
	r[2].data_len = 31;
	r[2].xfer_flags = 0x0;
	r[3].type = 'C';
	r[3].xfer_type = XFER_BULK;
	r[3].epnum = 0x02;
	r[3].flag_data = '>';
	r[3].len_urb = 31;
	/* interrupt IN */
	r[4].type = 'S';
	r[4].xfer_type = XFER_INT;
	r[4].epnum = 0x81;
	r[4].flag_data = '<';
	r[4].status = -115;
	r[4].len_urb = 8;
	r[4].interval = 8;
	r[4].xfer_flags = 0x200;
	r[5].type = 'C';
	r[5].xfer_type = XFER_INT;
	r[5].epnum = 0x81;
	r[5].len_urb = 8;
	r[5].interval = 8;
	r[5].data = d_kbd;
	r[5].data_len = 8;
	r[5].xfer_flags = 0x200;
	/* ISO IN completion: sparse frames */
	r[6].type = 'C';
	r[6].xfer_type = XFER_ISO;
	r[6].epnum = 0x83;
	r[6].len_urb = 16;
	r[6].iso_error_count = 1;
	r[6].iso_numdesc = 3;
	r[6].interval = 1;
	r[6].start_frame = 5123;
	r[6].iso = iso3;
	r[6].niso = 3;
	r[6].data = d_iso;
	r[6].data_len = 20;
	/* submit error */
	r[7].type = 'E';
	r[7].xfer_type = XFER_BULK;
	r[7].epnum = 0x81;
	r[7].flag_data = 'E';
	r[7].status = -19;
	/* bulk IN of 100 bytes */
	r[8].type = 'C';
	r[8].xfer_type = XFER_BULK;
	r[8].epnum = 0x81;
	r[8].len_urb = 100;
	r[8].data = d_bulk;
	r[8].data_len = 100;
	/* ISO OUT submit with data */
	r[9].type = 'S';
	r[9].xfer_type = XFER_ISO;
	r[9].epnum = 0x04;
	r[9].status = -115;
	r[9].len_urb = 16;
	r[9].iso_numdesc = 2;
	r[9].interval = 1;
	r[9].start_frame = 7;
	r[9].iso = iso2;
	r[9].niso = 2;
	r[9].data = d_iso_out;
	r[9].data_len = 16;
	/* 100 bytes moved, 32 captured */
	r[10].type = 'C';
	r[10].xfer_type = XFER_BULK;
	r[10].epnum = 0x81;
	r[10].len_urb = 100;
	r[10].data = d_bulk;
	r[10].data_len = 32;
	r[10].flags = REC_F_TRUNC;
	for (i = 0; i < NRECS; i++)
		r[i].len_cap = 16 * r[i].niso + r[i].data_len;
}

/* What came back equals what went in. */
static void
rec_same(const struct urb_rec *a, const struct urb_rec *b, int hdr48)
{
	uint32_t	 i;

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
	assert_int_equal(a->len_cap, b->len_cap);
	if (a->xfer_type == XFER_ISO) {
		assert_int_equal(a->iso_error_count, b->iso_error_count);
		assert_int_equal(a->iso_numdesc, b->iso_numdesc);
	} else
		assert_memory_equal(a->setup, b->setup, 8);
	if (!hdr48) {
		assert_int_equal(a->interval, b->interval);
		assert_int_equal(a->start_frame, b->start_frame);
		assert_int_equal(a->xfer_flags, b->xfer_flags);
	}
	assert_int_equal(a->niso, b->niso);
	for (i = 0; i < a->niso; i++) {
		assert_int_equal(a->iso[i].status, b->iso[i].status);
		assert_int_equal(a->iso[i].off, b->iso[i].off);
		assert_int_equal(a->iso[i].len, b->iso[i].len);
	}
	assert_int_equal(a->data_len, b->data_len);
	if (a->data_len > 0)
		assert_memory_equal(a->data, b->data, a->data_len);
	assert_int_equal(a->flags & (REC_F_TRUNC | REC_F_BADLEN),
	    b->flags & (REC_F_TRUNC | REC_F_BADLEN));
}

static void
write_recs(const char *path, const char *format,
    const struct cap_sink_opts *o, const struct urb_rec *r, size_t n)
{
	struct cap_sink	*s;
	char		 err[512];
	size_t		 i;

	if (cap_sink_open(path, format, o, &s, err, sizeof err) != 0)
		fail_msg("%s", err);
	for (i = 0; i < n; i++)
		assert_int_equal(cap_sink_write(s, &r[i]), 0);
	assert_int_equal(s->count, n);
	if (cap_sink_close(s, err, sizeof err) != 0)
		fail_msg("%s", err);
}

static struct cap_source *
open_ok(const char *path)
{
	struct cap_source	*src;
	char			 err[512];

	if (cap_open(path, &src, err, sizeof err) != 0)
		fail_msg("%s", err);
	return src;
}

/* Open must fail with code; its message must contain each string. */
static void
open_fails(const char *path, int code, ...)
{
	struct cap_source	*src = NULL;
	const char		*want;
	char			 err[512];
	va_list			 ap;

	assert_int_equal(cap_open(path, &src, err, sizeof err), code);
	assert_null(src);
	va_start(ap, code);
	while ((want = va_arg(ap, const char *)) != NULL) {
		if (strstr(err, want) == NULL)
			fail_msg("\"%s\" not in \"%s\"", want, err);
	}
	va_end(ap);
}

/* Read path and compare with r[0..n) (ts_ns too when ts). */
static void
read_same(const char *path, const char *backend, const struct urb_rec *r,
    size_t n, int hdr48)
{
	struct cap_source	*src;
	struct drv_event	 ev;
	struct urb_rec		 got;
	size_t			 i;

	src = open_ok(path);
	assert_string_equal(src->ops->name, backend);
	for (i = 0; i < n; i++) {
		if (cap_next(src, &got, &ev) != CAP_URB)
			fail_msg("record %zu: %s", i + 1, src->err);
		rec_same(&r[i], &got, hdr48);
		assert_int_equal(got.ts_ns, r[i].ts_ns);
		assert_int_equal(got.recno, i + 1);
		assert_int_equal(!!(got.flags & REC_F_HDR48), hdr48);
	}
	assert_int_equal(cap_next(src, &got, &ev), CAP_END);
	assert_int_equal(cap_next(src, &got, &ev), CAP_END);
	cap_close(src);
}

/* ------------------------------------------------------------------------
 * Round trips.
 */
static void
test_pcap_roundtrip(void **state)
{
	struct urb_rec		 r[NRECS];
	struct cap_sink_opts	 o;
	struct tfile		 t;
	uint8_t			*f;
	size_t			 n;
	int			 swap;

	(void)state;
	make_recs(r);
	tfile_make(&t, ".pcap");
	for (swap = 0; swap < 2; swap++) {
		memset(&o, 0, sizeof o);
		o.swap = swap;
		write_recs(t.path, NULL, &o, r, NRECS);
		f = read_file(t.path, &n);
		/* magic in the requested order, version 2.4, link type 220 */
		if (swap == !host_is_le()) {
			assert_int_equal(get_le32(f), 0xa1b2c3d4);
			assert_int_equal(get_le32(f + 16), 262144);
			assert_int_equal(get_le32(f + 20), 220);
			/* record 2: caplen 64 + 18, len the same */
			assert_int_equal(get_le32(f + 24 + 16 + 64 + 8), 82);
			assert_int_equal(get_le32(f + 24 + 16 + 64 + 12), 82);
		} else {
			assert_int_equal(get_be32(f), 0xa1b2c3d4);
			assert_int_equal(get_be16(f + 4), 2);
			assert_int_equal(get_be16(f + 6), 4);
			assert_int_equal(get_be32(f + 20), 220);
		}
		free(f);
		read_same(t.path, "pcap", r, NRECS, 0);
	}
	unlink(t.path);
}

static void
test_pcap_lengths(void **state)
{
	struct urb_rec		 r[NRECS];
	struct cap_sink_opts	 o;
	struct tfile		 t;
	uint8_t			*f, *p;
	size_t			 n, i;
	uint32_t		 caplen, len;

	(void)state;
	make_recs(r);
	tfile_make(&t, ".pcap");
	memset(&o, 0, sizeof o);
	o.swap = !host_is_le();		/* little-endian file */
	write_recs(t.path, "pcap", &o, r, NRECS);
	f = read_file(t.path, &n);
	p = f + 24;
	for (i = 0; i < NRECS; i++) {
		caplen = get_le32(p + 8);
		len = get_le32(p + 12);
		/* caplen = 64 + 16 niso + data; len also counts what's cut */
		assert_int_equal(caplen, 64 + 16 * r[i].niso + r[i].data_len);
		assert_int_equal(len, 64 + 16 * r[i].niso +
		    (i == 10 ? 100 : r[i].data_len));
		/* len_cap = what follows the header */
		assert_int_equal(get_le32(p + 16 + 36), caplen - 64);
		assert_int_equal(get_le32(p + 16 + 60), r[i].niso);
		assert_int_equal(get_le32(p), r[i].ts_sec);
		assert_int_equal(get_le32(p + 4), r[i].ts_usec);
		p += 16 + caplen;
	}
	assert_ptr_equal(p, f + n);
	free(f);

	/* a snaplen cuts records; the cut is TRUNC, not BADLEN */
	o.snaplen = 64 + 20;
	write_recs(t.path, "pcap", &o, r, NRECS);
	{
		struct cap_source	*src = open_ok(t.path);
		struct drv_event	 ev;
		struct urb_rec		 got;

		for (i = 0; i < NRECS; i++) {
			assert_int_equal(cap_next(src, &got, &ev), CAP_URB);
			if (16 * r[i].niso + r[i].data_len > 20) {
				assert_int_equal(got.flags & (REC_F_TRUNC |
				    REC_F_BADLEN), REC_F_TRUNC);
				assert_true(16 * got.niso + got.data_len ==
				    20);
			} else
				rec_same(&r[i], &got, 0);
		}
		cap_close(src);
	}
	o.snaplen = 63;
	{
		struct cap_sink	*s;
		char		 err[512];

		assert_int_equal(cap_sink_open(t.path, "pcap", &o, &s, err,
		    sizeof err), -UE_USAGE);
		assert_non_null(strstr(err, "snaplen 63"));
	}
	unlink(t.path);
}

/* Link type 189 files, as made by libpcap without mmap: built by hand. */
static void
test_pcap_189(void **state)
{
	struct urb_rec	 r[NRECS];
	struct bb	 b;
	struct tfile	 t;
	uint8_t		 pre[64 + 16 * URB_ISO_MAX];
	size_t		 i, npre;
	int		 be;

	(void)state;
	make_recs(r);
	tfile_make(&t, ".pcap");
	for (be = 0; be < 2; be++) {
		memset(&b, 0, sizeof b);
		b.be = be;
		bb_uint(&b, 0xa1b2c3d4, 4);
		bb_uint(&b, 2, 2);
		bb_uint(&b, 4, 2);
		bb_uint(&b, 0, 4);
		bb_uint(&b, 0, 4);
		bb_uint(&b, 65535, 4);
		bb_uint(&b, 189, 4);
		for (i = 0; i < NRECS; i++) {
			npre = enc_usbmon_prefix(&r[i], be == host_is_le(),
			    pre);
			bb_uint(&b, (uint64_t)r[i].ts_sec, 4);
			bb_uint(&b, (uint64_t)r[i].ts_usec, 4);
			bb_uint(&b, 48 + npre - 64 + r[i].data_len, 4);
			bb_uint(&b, 48 + npre - 64 + r[i].data_len, 4);
			bb_bytes(&b, pre, 48);	/* no bytes 48-63 */
			bb_bytes(&b, pre + 64, npre - 64);
			bb_bytes(&b, r[i].data, r[i].data_len);
		}
		write_file(t.path, b.p, b.n);
		free(b.p);
		/* TRUNC of record 10 comes from len_urb > data here */
		read_same(t.path, "pcap", r, NRECS, 1);
	}
	unlink(t.path);
}

/* Nanosecond pcap (magic a1b23c4d), both orders. */
static void
test_pcap_ns(void **state)
{
	struct cap_source	*src;
	struct drv_event	 ev;
	struct urb_rec		 r[NRECS], got;
	struct bb		 b;
	struct tfile		 t;
	uint8_t			 pre[64 + 16 * URB_ISO_MAX];
	size_t			 npre;
	int			 be;

	(void)state;
	make_recs(r);
	tfile_make(&t, ".pcap");
	for (be = 0; be < 2; be++) {
		memset(&b, 0, sizeof b);
		b.be = be;
		bb_uint(&b, 0xa1b23c4d, 4);
		bb_uint(&b, 2, 2);
		bb_uint(&b, 4, 2);
		bb_uint(&b, 0, 8);
		bb_uint(&b, 262144, 4);
		bb_uint(&b, 220, 4);
		npre = enc_usbmon_prefix(&r[1], be == host_is_le(), pre);
		bb_uint(&b, 1700000123, 4);
		bb_uint(&b, 999999999, 4);
		bb_uint(&b, npre + 18, 4);
		bb_uint(&b, npre + 18, 4);
		bb_bytes(&b, pre, npre);
		bb_bytes(&b, d_desc, 18);
		write_file(t.path, b.p, b.n);
		free(b.p);
		src = open_ok(t.path);
		assert_int_equal(cap_next(src, &got, &ev), CAP_URB);
		assert_int_equal(got.ts_ns, 1700000123999999999LL);
		rec_same(&r[1], &got, 0);
		assert_int_equal(cap_next(src, &got, &ev), CAP_END);
		cap_close(src);
	}
	unlink(t.path);
}

static void
test_pcapng_roundtrip(void **state)
{
	struct cap_source	*src;
	struct cap_sink_opts	 o;
	struct drv_event	 ev;
	struct urb_rec		 r[NRECS], got;
	struct tfile		 t, t2;
	uint8_t			*f, *f2;
	size_t			 n, n2, i;
	int			 swap;

	(void)state;
	make_recs(r);
	tfile_make(&t, ".pcapng");
	tfile_make(&t2, ".pcapng");
	for (swap = 0; swap < 2; swap++) {
		memset(&o, 0, sizeof o);
		o.swap = swap;
		write_recs(t.path, NULL, &o, r, NRECS);
		f = read_file(t.path, &n);
		assert_int_equal(get_le32(f), 0x0a0d0d0a);
		if (swap)
			assert_int_equal(get_le32(f + 8) == 0x1a2b3c4d,
			    !host_is_le());
		else
			assert_int_equal(get_le32(f + 8) == 0x1a2b3c4d,
			    host_is_le());
		assert_non_null(memmem(f, n, "usbmon0", 7));
		free(f);
		read_same(t.path, "pcapng", r, NRECS, 0);
	}

	/* nanoseconds, another name */
	for (i = 0; i < NRECS; i++)
		r[i].ts_ns += 123;	/* not a whole microsecond */
	memset(&o, 0, sizeof o);
	o.tsresol = 9;
	o.if_name = "usbmon3";
	write_recs(t.path, "pcapng", &o, r, NRECS);
	f = read_file(t.path, &n);
	assert_non_null(memmem(f, n, "usbmon3", 7));
	read_same(t.path, "pcapng", r, NRECS, 0);

	/* two sections of different byte order in one file */
	o.swap = 1;
	o.tsresol = 0;
	for (i = 0; i < NRECS; i++)
		r[i].ts_ns -= 123;
	write_recs(t2.path, "pcapng", &o, r, NRECS);
	f2 = read_file(t2.path, &n2);
	assert_non_null(f = realloc(f, n + n2));
	memcpy(f + n, f2, n2);
	write_file(t.path, f, n + n2);
	src = open_ok(t.path);
	for (i = 0; i < 2 * NRECS; i++) {
		if (cap_next(src, &got, &ev) != CAP_URB)
			fail_msg("record %zu: %s", i + 1, src->err);
		rec_same(&r[i % NRECS], &got, 0);
		assert_int_equal(got.ts_ns, r[i % NRECS].ts_ns +
		    (i < NRECS ? 123 : 0));
		assert_int_equal(got.ifindex, i < NRECS ? 0 : 1);
		assert_int_equal(got.recno, i + 1);
	}
	assert_int_equal(cap_next(src, &got, &ev), CAP_END);
	cap_close(src);
	free(f);
	free(f2);
	unlink(t.path);
	unlink(t2.path);
}

/* Blocks the writer never makes: built by hand. */
static void
ng_block(struct bb *b, uint32_t type, const struct bb *body)
{
	bb_uint(b, type, 4);
	bb_uint(b, 12 + ((body->n + 3) & ~(size_t)3), 4);
	bb_bytes(b, body->p, body->n);
	bb_pad4(b);
	bb_uint(b, 12 + ((body->n + 3) & ~(size_t)3), 4);
}

static void
ng_shb(struct bb *b)
{
	struct bb	 body = { .be = b->be };

	bb_uint(&body, 0x1a2b3c4d, 4);
	bb_uint(&body, 1, 2);
	bb_uint(&body, 0, 2);
	bb_uint(&body, UINT64_MAX, 8);
	ng_block(b, 0x0a0d0d0a, &body);
	free(body.p);
}

static void
ng_opt(struct bb *b, uint16_t code, const void *v, uint16_t len)
{
	bb_uint(b, code, 2);
	bb_uint(b, len, 2);
	bb_bytes(b, v, len);
	bb_pad4(b);
}

static void
ng_idb(struct bb *b, uint16_t lt, const char *name, int tsresol,
    int64_t tsoffset)
{
	struct bb	 body = { .be = b->be };
	struct bb	 off = { .be = b->be };
	uint8_t		 res = (uint8_t)tsresol;

	bb_uint(&body, lt, 2);
	bb_uint(&body, 0, 2);
	bb_uint(&body, 0, 4);
	if (name != NULL)
		ng_opt(&body, 2, name, (uint16_t)strlen(name));
	if (tsresol >= 0)
		ng_opt(&body, 9, &res, 1);
	if (tsoffset != 0) {
		bb_uint(&off, (uint64_t)tsoffset, 8);
		ng_opt(&body, 14, off.p, 8);
	}
	ng_opt(&body, 0, NULL, 0);
	ng_block(b, 1, &body);
	free(body.p);
	free(off.p);
}

/* type 6 EPB or 2 obsolete PB of record r */
static void
ng_pkt(struct bb *b, uint32_t type, uint32_t ifid, uint64_t ts,
    const struct urb_rec *r)
{
	struct bb	 body = { .be = b->be };
	uint8_t		 pre[64 + 16 * URB_ISO_MAX];
	size_t		 npre;

	npre = enc_usbmon_prefix(r, b->be == host_is_le(), pre);
	if (type == 2) {
		bb_uint(&body, ifid, 2);
		bb_uint(&body, 0, 2);
	} else
		bb_uint(&body, ifid, 4);
	bb_uint(&body, ts >> 32, 4);
	bb_uint(&body, ts & 0xffffffff, 4);
	bb_uint(&body, npre + r->data_len, 4);
	bb_uint(&body, npre + r->data_len, 4);
	bb_bytes(&body, pre, npre);
	bb_bytes(&body, r->data, r->data_len);
	bb_pad4(&body);
	ng_opt(&body, 1, "hi", 2);	/* opt_comment */
	ng_opt(&body, 0, NULL, 0);
	ng_block(b, type, &body);
	free(body.p);
}

static void
test_pcapng_blocks(void **state)
{
	struct cap_source	*src;
	struct drv_event	 ev;
	struct urb_rec		 r[NRECS], got;
	struct bb		 b, body;
	struct tfile		 t;
	uint8_t			 pre[64 + 16 * URB_ISO_MAX];
	size_t			 npre;
	int			 be;

	(void)state;
	make_recs(r);
	tfile_make(&t, ".pcapng");
	for (be = 0; be < 2; be++) {
		memset(&b, 0, sizeof b);
		b.be = be;
		ng_shb(&b);
		/* 2^-20 s units, 10 s offset; then a 10^-3 interface */
		ng_idb(&b, 220, "usbmon1", 0x80 | 20, 10);
		ng_idb(&b, 189, NULL, 3, 0);
		memset(&body, 0, sizeof body);
		body.be = be;
		bb_uint(&body, 0, 4);
		ng_block(&b, 4, &body);			/* NRB */
		ng_block(&b, 0x40000bad, &body);	/* custom */
		ng_block(&b, 0x0a, &body);		/* DSB */
		bb_uint(&body, 0, 4);
		bb_uint(&body, 0, 4);
		ng_block(&b, 5, &body);			/* ISB */
		free(body.p);
		ng_pkt(&b, 6, 0, 3ULL * 1048576 + 524288, &r[1]);
		ng_pkt(&b, 2, 0, 1048576, &r[6]);
		/* SPB on interface 0: time from the usbmon header */
		memset(&body, 0, sizeof body);
		body.be = be;
		npre = enc_usbmon_prefix(&r[5], be == host_is_le(), pre);
		bb_uint(&body, npre + r[5].data_len, 4);
		bb_bytes(&body, pre, npre);
		bb_bytes(&body, r[5].data, r[5].data_len);
		ng_block(&b, 3, &body);
		free(body.p);
		/* interface 1: 189, milliseconds */
		{
			struct bb	 p = { .be = be };

			npre = enc_usbmon_prefix(&r[8], be == host_is_le(),
			    pre);
			bb_uint(&p, 1, 4);
			bb_uint(&p, 0, 4);
			bb_uint(&p, 1700000000123ULL & 0xffffffff, 4);
			bb_uint(&p, 48 + r[8].data_len, 4);
			bb_uint(&p, 48 + r[8].data_len, 4);
			bb_bytes(&p, pre, 48);
			bb_bytes(&p, r[8].data, r[8].data_len);
			bb_pad4(&p);
			/* high word of 1700000000123 is 395 */
			bb_put32(&p, 4, (uint32_t)(1700000000123ULL >> 32));
			ng_block(&b, 6, &p);
			free(p.p);
		}
		write_file(t.path, b.p, b.n);
		free(b.p);

		src = open_ok(t.path);
		assert_int_equal(cap_next(src, &got, &ev), CAP_URB);
		rec_same(&r[1], &got, 0);
		assert_int_equal(got.ts_ns, 13500000000LL);
		assert_int_equal(got.ifindex, 0);
		assert_int_equal(cap_next(src, &got, &ev), CAP_URB);
		rec_same(&r[6], &got, 0);
		assert_int_equal(got.ts_ns, 11000000000LL);
		assert_int_equal(cap_next(src, &got, &ev), CAP_URB);
		rec_same(&r[5], &got, 0);
		assert_int_equal(got.ts_ns, r[5].ts_ns);
		assert_int_equal(cap_next(src, &got, &ev), CAP_URB);
		rec_same(&r[8], &got, 1);
		assert_int_equal(got.ts_ns, 1700000000123000000LL);
		assert_int_equal(got.ifindex, 1);
		assert_int_equal(src->linktype, 189);
		assert_int_equal(cap_next(src, &got, &ev), CAP_END);
		cap_close(src);
	}
	unlink(t.path);
}

/* A file larger than the input buffer, and one record larger too. */
static void
test_big(void **state)
{
	struct cap_source	*src;
	struct cap_sink_opts	 o;
	struct drv_event	 ev;
	struct urb_rec		*r, got;
	struct tfile		 t;
	uint8_t			*big;
	size_t			 i, n = 6000;
	int			 fd, saved;

	(void)state;
	assert_non_null(r = calloc(n, sizeof *r));
	assert_non_null(big = malloc(3 << 20));
	for (i = 0; i < (3 << 20); i++)
		big[i] = (uint8_t)(i * 131 + (i >> 9));
	for (i = 0; i < n; i++) {
		r[i].id = i;
		r[i].type = 'C';
		r[i].xfer_type = XFER_BULK;
		r[i].epnum = 0x81;
		r[i].flag_setup = '-';
		r[i].ts_sec = (int64_t)i;
		r[i].ts_ns = (int64_t)i * 1000000000;
		r[i].data = big + i * 7;
		r[i].data_len = (uint32_t)(i % 997);
		if (i == 3000)
			r[i].data_len = (3 << 20) - 3000 * 7;
		r[i].len_urb = r[i].data_len;
		r[i].len_cap = r[i].data_len;
	}
	tfile_make(&t, ".pcapng");
	memset(&o, 0, sizeof o);
	o.snaplen = 4 << 20;
	write_recs(t.path, "pcapng", &o, r, n);
	read_same(t.path, "pcapng", r, n, 0);
	write_recs(t.path, "pcap", &o, r, n);
	read_same(t.path, "pcap", r, n, 0);

	/* the same through standard input */
	assert_true((fd = open(t.path, O_RDONLY)) >= 0);
	assert_true((saved = dup(STDIN_FILENO)) >= 0);
	assert_int_equal(dup2(fd, STDIN_FILENO), STDIN_FILENO);
	close(fd);
	src = open_ok("-");
	for (i = 0; i < n; i++) {
		assert_int_equal(cap_next(src, &got, &ev), CAP_URB);
		assert_int_equal(got.data_len, r[i].data_len);
		assert_int_equal(got.offset == 0, 0);
	}
	assert_int_equal(cap_next(src, &got, &ev), CAP_END);
	cap_close(src);
	assert_int_equal(dup2(saved, STDIN_FILENO), STDIN_FILENO);
	close(saved);

	unlink(t.path);
	free(big);
	free(r);
}

/* ------------------------------------------------------------------------
 * Real captures (tests/data/linux61/README.md).
 */

/*
 * The binary stream and the text file hold the same 1666 events.  Printed
 * as text, the binary records equal the kernel's lines except for two
 * columns, for two reasons:
 *  - the stamp: the binary header has CLOCK_REALTIME seconds, the text
 *    line CLOCK_MONOTONIC microseconds modulo 4096 s (mon_text.c
 *    mon_get_timestamp);
 *  - the interval of interrupt events ("-115:8"): read() on /dev/usbmon0
 *    returns the 48-byte header, which has no interval field (it is at
 *    byte 48 of the 64-byte one), so the binary records print ":0".
 * Everything else (tags, addresses, setup, status, lengths, data words
 * and flags) is byte for byte the same.
 */
static void
test_usbmon_bin_vs_text(void **state)
{
	struct cap_source	*bin, *txt;
	struct drv_event	 ev;
	struct urb_rec		 rb, rt;
	char			 lb[512], lt[512], *sb, *st;
	int			 rcb, rct, ints = 0;
	uint64_t		 n = 0, off = 0;

	(void)state;
	bin = open_ok(CAPDIR "usbmon0.bin");
	txt = open_ok(CAPDIR "usbmon-0u.txt");
	assert_string_equal(bin->ops->name, "usbmon-bin");
	assert_string_equal(txt->ops->name, "usbmon-text");
	for (;;) {
		rcb = cap_next(bin, &rb, &ev);
		rct = cap_next(txt, &rt, &ev);
		if (rcb != CAP_URB || rct != CAP_URB)
			break;
		n++;
		assert_int_equal(rb.recno, n);
		assert_int_equal(rb.offset, off);
		off += 48 + rb.len_cap;
		assert_int_equal(rb.flags & (REC_F_HDR48 | REC_F_BADLEN),
		    REC_F_HDR48);
		assert_int_equal(rb.ts_ns, rb.ts_sec * 1000000000LL +
		    rb.ts_usec * 1000LL);
		assert_true(dec_fmt_usbmon(&rb, lb, sizeof lb) > 0);
		assert_true(dec_fmt_usbmon(&rt, lt, sizeof lt) > 0);
		/* drop the stamp column */
		sb = strchr(strchr(lb, ' ') + 1, ' ');
		st = strchr(strchr(lt, ' ') + 1, ' ');
		assert_int_equal(strncmp(lb, lt, (size_t)(strchr(lb, ' ') -
		    lb)), 0);
		if (rb.xfer_type == XFER_INT) {
			/* the interval: see above */
			assert_int_equal(rb.interval, 0);
			assert_true(rt.interval > 0);
			rt.interval = 0;
			assert_true(dec_fmt_usbmon(&rt, lt, sizeof lt) > 0);
			st = strchr(strchr(lt, ' ') + 1, ' ');
			ints++;
		}
		if (strcmp(sb, st) != 0)
			fail_msg("record %" PRIu64 ":\n  binary %s\n  text   "
			    "%s", n, lb, lt);
		/* the binary data is whole where the text has 32 bytes */
		assert_true(rb.data_len >= rt.data_len);
		if (rt.data_len > 0)
			assert_memory_equal(rb.data, rt.data, rt.data_len);
	}
	assert_int_equal(rcb, CAP_END);
	assert_int_equal(rct, CAP_END);
	assert_int_equal(n, 1666);
	assert_int_equal(ints, 136);
	cap_close(bin);
	cap_close(txt);
}

static void
test_usbmon_text_source(void **state)
{
	struct cap_source	*src;
	struct drv_event	 ev;
	struct urb_rec		 r;
	int64_t			 first = -1;
	uint64_t		 n = 0;

	(void)state;
	src = open_ok(CAPDIR "usbmon-0u.txt");
	while (cap_next(src, &r, &ev) == CAP_URB) {
		if (first < 0)
			first = r.ts_ns;
		assert_int_equal(r.flags & (REC_F_TEXT | REC_F_NOTIME),
		    REC_F_TEXT | REC_F_NOTIME);
		n++;
	}
	assert_int_equal(n, 1666);
	assert_int_equal(first, 4097656000LL);
	assert_string_equal(src->err, "");
	cap_close(src);
}

/* Features of text files the kernel never writes: CRLF, blank lines, the
 * 4096 s wrap, a late event across it, and a bad line at the end. */
static void
test_text_file(void **state)
{
	static const char text[] =
	    "\n"
	    "ffff 4095999000 S Ci:1:001:0 s 80 06 0100 0000 0012 18 <\r\n"
	    "  \r\n"
	    "ffff 1000 C Ci:1:001:0 0 0\r\n"
	    "ffff 4095999500 C Ci:1:001:0 0 0\n"
	    "ffff 2000 S Ci:1:001:0 s 80 06 0100 0000 0012 18 <\n"
	    "ffff 4000 S Ci:001:00 s 80 06 0100 0000 0012 18 <\n"
	    "garbage\tline\n"
	    "ffff 5000 S Ci:1:001:0 s 80 06 0100 0000 0012 18 <\n";
	static const int64_t ts[] = { 4095999000000LL, 4096001000000LL,
	    4095999500000LL, 4096002000000LL, 4096004000000LL };
	struct cap_source	*src;
	struct drv_event	 ev;
	struct urb_rec		 r;
	struct tfile		 t;
	char			 want[512];
	size_t			 i;

	(void)state;
	tfile_make(&t, ".txt");
	write_file(t.path, text, sizeof text - 1);
	src = open_ok(t.path);
	assert_string_equal(src->ops->name, "usbmon-text");
	for (i = 0; i < 5; i++) {
		assert_int_equal(cap_next(src, &r, &ev), CAP_URB);
		assert_int_equal(r.ts_ns, ts[i]);
		assert_int_equal(r.ts_sec * 1000000000LL + r.ts_usec * 1000LL,
		    ts[i]);
	}
	assert_int_equal(r.busnum, 0);		/* the 't' line */
	assert_int_equal(cap_next(src, &r, &ev), -UE_SYNTAX);
	snprintf(want, sizeof want, "%s: line 8 (record 6) at offset %zu, "
	    "column 1: not a usbmon text line: \"garbage?line\"", t.path,
	    (size_t)(strstr(text, "garbage") - text));
	assert_string_equal(src->err, want);
	cap_close(src);

	/* the last line needs no newline */
	write_file(t.path, "ffff 1 C Ci:1:001:0 0 0", 23);
	src = open_ok(t.path);
	assert_int_equal(cap_next(src, &r, &ev), CAP_URB);
	assert_int_equal(cap_next(src, &r, &ev), CAP_END);
	cap_close(src);
	unlink(t.path);
}

static void
test_text_sink(void **state)
{
	struct urb_rec	 r[NRECS];
	struct tfile	 t;
	char		 want[8192], line[512];
	uint8_t		*f;
	size_t		 n, i, w = 0;

	(void)state;
	make_recs(r);
	for (i = 0; i < NRECS; i++) {
		n = (size_t)dec_fmt_usbmon(&r[i], line, sizeof line);
		memcpy(want + w, line, n);
		w += n;
		want[w++] = '\n';
	}
	tfile_make(&t, ".mon");
	write_recs(t.path, NULL, NULL, r, NRECS);
	f = read_file(t.path, &n);
	assert_int_equal(n, w);
	assert_memory_equal(f, want, w);
	free(f);
	unlink(t.path);
}

/* QEMU's pcaps read by us equal what libpcap returns, record by record. */
static void
test_qemu_pcaps_vs_libpcap(void **state)
{
	static const char *const names[] = { "hub", "kbd", "serial",
	    "storage", "tablet", "uas" };
	struct cap_source	*src;
	struct pcap_pkthdr	*h;
	struct drv_event	 ev;
	struct urb_rec		 r, lr;
	const u_char		*pkt;
	char			 path[256], perr[PCAP_ERRBUF_SIZE];
	uint8_t			*file;
	size_t			 i, flen, k;
	pcap_t			*pc;
	int			 rc;

	(void)state;
	for (i = 0; i < sizeof names / sizeof names[0]; i++) {
		snprintf(path, sizeof path, CAPDIR "qemu-usb-%s.pcap",
		    names[i]);
		assert_non_null(file = read_file(path, &flen));
		assert_non_null(pc = pcap_open_offline(path, perr));
		src = open_ok(path);
		assert_int_equal(src->linktype, 220);
		k = 0;
		while ((rc = pcap_next_ex(pc, &h, &pkt)) == 1) {
			k++;
			if (cap_next(src, &r, &ev) != CAP_URB)
				fail_msg("%s record %zu: %s", path, k,
				    src->err);
			/* caplen, len (from where we say the record is) */
			assert_int_equal(64 + 16 * r.niso + r.data_len,
			    h->caplen);
			assert_true(r.offset + 16 <= flen);
			assert_int_equal(get_le32(file + r.offset + 8),
			    h->caplen);
			assert_int_equal(get_le32(file + r.offset + 12),
			    h->len);
			assert_true(r.offset + 16 + h->caplen <= flen);
			assert_memory_equal(file + r.offset + 16, pkt,
			    h->caplen);
			assert_int_equal(r.ts_ns, h->ts.tv_sec * 1000000000LL +
			    h->ts.tv_usec * 1000LL);
			/* the bytes: header fields, then data */
			memset(&lr, 0, sizeof lr);
			assert_int_equal(dec_usbmon_hdr(pkt, h->caplen, 64, 0,
			    &lr), 0);
			assert_int_equal(r.id, lr.id);
			assert_int_equal(r.type, lr.type);
			assert_int_equal(r.epnum, lr.epnum);
			assert_int_equal(r.len_urb, lr.len_urb);
			assert_int_equal(r.len_cap, lr.len_cap);
			assert_int_equal(r.ts_sec, lr.ts_sec);
			assert_memory_equal(r.setup, lr.setup, 8);
			if (r.data_len > 0)
				assert_memory_equal(r.data, pkt + 64 +
				    16 * r.niso, r.data_len);
			/* QEMU counts the header in len_cap */
			if (r.len_cap != 16 * r.niso + r.data_len &&
			    h->caplen == h->len)
				assert_int_equal(r.flags & REC_F_BADLEN,
				    REC_F_BADLEN);
		}
		assert_int_equal(rc, PCAP_ERROR_BREAK);
		assert_true(k > 0);
		assert_int_equal(cap_next(src, &r, &ev), CAP_END);
		cap_close(src);
		pcap_close(pc);
		free(file);
	}
}

/* usbmon0.bin to pcap and pcapng, both orders, and back. */
static void
test_convert_real(void **state)
{
	static const char *const fmts[] = { "pcap", "pcapng" };
	struct cap_source	*in, *back;
	struct cap_sink		*s;
	struct cap_sink_opts	 o;
	struct drv_event	 ev;
	struct urb_rec		 a, b;
	struct tfile		 t;
	char			 err[512];
	size_t			 f;
	int			 swap, n;

	(void)state;
	tfile_make(&t, ".out");
	for (f = 0; f < 2; f++) {
		for (swap = 0; swap < 2; swap++) {
			memset(&o, 0, sizeof o);
			o.swap = swap;
			in = open_ok(CAPDIR "usbmon0.bin");
			assert_int_equal(cap_sink_open(t.path, fmts[f], &o,
			    &s, err, sizeof err), 0);
			while (cap_next(in, &a, &ev) == CAP_URB)
				assert_int_equal(cap_sink_write(s, &a), 0);
			assert_int_equal(cap_sink_close(s, err, sizeof err),
			    0);
			cap_close(in);

			in = open_ok(CAPDIR "usbmon0.bin");
			back = open_ok(t.path);
			assert_string_equal(back->ops->name, fmts[f]);
			n = 0;
			while (cap_next(in, &a, &ev) == CAP_URB) {
				assert_int_equal(cap_next(back, &b, &ev),
				    CAP_URB);
				rec_same(&a, &b, 1);
				assert_int_equal(a.ts_ns, b.ts_ns);
				n++;
			}
			assert_int_equal(cap_next(back, &b, &ev), CAP_END);
			assert_int_equal(n, 1666);
			cap_close(in);
			cap_close(back);
		}
	}
	unlink(t.path);
}

/* ------------------------------------------------------------------------
 * Cut files.
 */

/*
 * Cut data at every byte k.  Below open_min bytes cap_open must fail;
 * above, every record that ends by k (recend[]) is returned, in order,
 * with its data at skip + 16 niso bytes into the record, then CAP_END when
 * k is a block boundary (bounds[]) and -UE_TRUNCATED naming the next
 * record anywhere else.
 */
static void
cut_everywhere(const uint8_t *data, size_t size, size_t open_min,
    const size_t *bounds, size_t nbounds, const size_t *recend, size_t nrec,
    const uint64_t *ids, size_t skip)
{
	struct cap_source	*src;
	struct drv_event	 ev;
	struct urb_rec		 r;
	struct tfile		 t;
	char			 err[512];
	size_t			 k, i, fit;
	int			 rc, bound;

	tfile_make(&t, ".cut");
	for (k = 0; k <= size; k++) {
		write_file(t.path, data, k);
		rc = cap_open(t.path, &src, err, sizeof err);
		if (k < open_min) {
			if (rc == 0)
				fail_msg("cut at %zu: opens", k);
			assert_non_null(strstr(err, t.path));
			continue;
		}
		if (rc != 0)
			fail_msg("cut at %zu: %s", k, err);
		for (fit = 0; fit < nrec && recend[fit] <= k; fit++)
			;
		bound = 0;
		for (i = 0; i < nbounds; i++)
			bound |= bounds[i] == k;
		for (i = 0; i < fit; i++) {
			rc = cap_next(src, &r, &ev);
			if (rc != CAP_URB)
				fail_msg("cut at %zu, record %zu: %d %s", k,
				    i + 1, rc, src->err);
			assert_int_equal(r.id, ids[i]);
			/* the data is the record's own bytes */
			assert_true(r.offset + skip + 16 * r.niso +
			    r.data_len <= k);
			if (r.data_len > 0)
				assert_memory_equal(r.data, data + r.offset +
				    skip + 16 * r.niso, r.data_len);
		}
		rc = cap_next(src, &r, &ev);
		if (bound)
			assert_int_equal(rc, CAP_END);
		else {
			if (rc != -UE_TRUNCATED)
				fail_msg("cut at %zu: %d %s", k, rc, src->err);
			snprintf(err, sizeof err, "record %zu at offset ",
			    fit + 1);
			if (strstr(src->err, err) == NULL)
				fail_msg("cut at %zu: \"%s\"", k, src->err);
		}
		cap_close(src);
	}
	unlink(t.path);
}

static void
test_cut_pcap(void **state)
{
	struct urb_rec		 r[NRECS];
	struct tfile		 t;
	size_t			 n, off, i, bounds[NRECS + 1], ends[NRECS];
	uint64_t		 ids[NRECS];
	uint8_t			*f;

	(void)state;
	make_recs(r);
	tfile_make(&t, ".pcap");
	write_recs(t.path, "pcap", NULL, r, NRECS);
	f = read_file(t.path, &n);
	off = 24;
	bounds[0] = 24;
	for (i = 0; i < NRECS; i++) {
		off += 16 + get_le32(f + off + 8) * (host_is_le() ? 1 : 0) +
		    get_be32(f + off + 8) * (host_is_le() ? 0 : 1);
		ends[i] = bounds[i + 1] = off;
		ids[i] = r[i].id;
	}
	assert_int_equal(off, n);
	cut_everywhere(f, n, 24, bounds, NRECS + 1, ends, NRECS, ids, 16 + 64);
	free(f);
	unlink(t.path);
}

static void
test_cut_pcapng(void **state)
{
	struct urb_rec		 r[NRECS];
	struct cap_sink_opts	 o;
	struct tfile		 t;
	size_t			 n, off, i, nb = 0, bounds[NRECS + 2];
	size_t			 ends[NRECS];
	uint64_t		 ids[NRECS];
	uint8_t			*f;

	(void)state;
	make_recs(r);
	tfile_make(&t, ".pcapng");
	memset(&o, 0, sizeof o);
	o.swap = host_is_le();		/* a big-endian file */
	write_recs(t.path, "pcapng", &o, r, NRECS);
	f = read_file(t.path, &n);
	for (off = 0; off < n; off += get_be32(f + off + 4))
		bounds[nb++] = off + get_be32(f + off + 4);
	assert_int_equal(off, n);
	assert_int_equal(nb, NRECS + 2);	/* SHB, IDB, EPBs */
	for (i = 0; i < NRECS; i++) {
		ends[i] = bounds[i + 2];
		ids[i] = r[i].id;
	}
	/* the SHB must be whole to open */
	cut_everywhere(f, n, bounds[0], bounds, nb, ends, NRECS, ids, 28 + 64);
	free(f);
	unlink(t.path);
}

static void
test_cut_usbmon_bin(void **state)
{
	size_t		 n, off = 0, i, bounds[12], ends[12];
	uint64_t	 ids[12];
	uint8_t		*f;

	(void)state;
	f = read_file(CAPDIR "usbmon0.bin", &n);
	for (i = 0; i < 12; i++) {
		ids[i] = get_le64(f + off);
		off += 48 + get_le32(f + off + 36);
		ends[i] = bounds[i] = off;
	}
	/* 48 bytes are needed to tell it is usbmon */
	cut_everywhere(f, off, 48, bounds, 12, ends, 12, ids, 48);
	free(f);
}

/* ------------------------------------------------------------------------
 * Bad input.
 */
static void
test_wrong_magic(void **state)
{
	static const uint8_t elf[64] = { 0x7f, 'E', 'L', 'F', 2, 1, 1 };
	struct tfile	 t;
	char		 want[512];

	(void)state;
	tfile_make(&t, ".bin");
	write_file(t.path, elf, sizeof elf);
	snprintf(want, sizeof want, "%s: not a capture format urbscope knows "
	    "(first bytes 7f 45 4c 46); it reads pcap, pcapng, usbmon binary "
	    "and usbmon text", t.path);
	open_fails(t.path, -UE_MAGIC, want, NULL);
	write_file(t.path, "", 0);
	open_fails(t.path, -UE_MAGIC, t.path, "empty", NULL);
	write_file(t.path, "\xd4\xc3", 2);
	open_fails(t.path, -UE_MAGIC, "(first bytes d4 c3)", NULL);
	unlink(t.path);
	open_fails("/nonexistent/x.pcap", -UE_OPEN, "/nonexistent/x.pcap: ",
	    strerror(ENOENT), NULL);
}

static void
pcap_header(struct bb *b, uint32_t snaplen, uint32_t lt)
{
	bb_uint(b, 0xa1b2c3d4, 4);
	bb_uint(b, 2, 2);
	bb_uint(b, 4, 2);
	bb_uint(b, 0, 8);
	bb_uint(b, snaplen, 4);
	bb_uint(b, lt, 4);
}

static void
test_foreign_linktype(void **state)
{
	struct cap_source	*src;
	struct drv_event	 ev;
	struct urb_rec		 r[NRECS], got;
	struct bb		 b;
	struct tfile		 t;

	(void)state;
	make_recs(r);
	tfile_make(&t, ".pcap");
	memset(&b, 0, sizeof b);
	pcap_header(&b, 65535, 1);
	write_file(t.path, b.p, b.n);
	open_fails(t.path, -UE_LINKTYPE, t.path, "link type 1 (EN10MB)",
	    cap_linktypes_read, NULL);
	b.n = 0;
	pcap_header(&b, 65535, 278);
	write_file(t.path, b.p, b.n);
	open_fails(t.path, -UE_LINKTYPE, "link type 278 (OPENVIZSLA)",
	    "288 (USB_2_0)", NULL);
	b.n = 0;
	pcap_header(&b, 65535, 12345);
	write_file(t.path, b.p, b.n);
	open_fails(t.path, -UE_LINKTYPE, "link type 12345 is not", "189",
	    "220", NULL);

	/* pcapng: packets on a foreign interface are skipped, counted and
	 * numbered; a file of nothing else is an error */
	b.n = 0;
	ng_shb(&b);
	ng_idb(&b, 220, "usbmon0", -1, 0);
	ng_idb(&b, 1, "eth0", -1, 0);
	ng_pkt(&b, 6, 0, 5, &r[1]);
	ng_pkt(&b, 6, 1, 6, &r[1]);
	ng_pkt(&b, 6, 0, 7, &r[2]);
	write_file(t.path, b.p, b.n);
	src = open_ok(t.path);
	assert_int_equal(cap_next(src, &got, &ev), CAP_URB);
	assert_int_equal(got.recno, 1);
	assert_int_equal(got.frame, 1);
	assert_int_equal(src->gap, 0);
	assert_int_equal(cap_next(src, &got, &ev), CAP_URB);
	assert_int_equal(got.recno, 2);
	/* Wireshark's frame number counts the skipped packet, and its
	 * frame.time_delta counts from it */
	assert_int_equal(got.frame, 3);
	assert_int_equal(src->gap, 1);
	assert_int_equal(src->gap_first_ns, 6000);
	assert_int_equal(src->gap_last_ns, 6000);
	assert_int_equal(cap_next(src, &got, &ev), CAP_END);
	assert_non_null(strstr(src->note, "1 packet skipped"));
	assert_non_null(strstr(src->note, "interface 1 (eth0) of link "
	    "type 1 (EN10MB)"));
	cap_close(src);
	b.n = 0;
	ng_shb(&b);
	ng_idb(&b, 1, "eth0", -1, 0);
	ng_pkt(&b, 6, 0, 6, &r[1]);
	write_file(t.path, b.p, b.n);
	src = open_ok(t.path);
	assert_int_equal(cap_next(src, &got, &ev), -UE_LINKTYPE);
	assert_non_null(strstr(src->err, t.path));
	assert_non_null(strstr(src->err, "without a USB packet"));
	assert_non_null(strstr(src->err, "interface 0 (eth0) of link "
	    "type 1 (EN10MB)"));
	assert_non_null(strstr(src->err, cap_linktypes_read));
	cap_close(src);
	free(b.p);
	unlink(t.path);
}

/* Read a hand-made file: the first record's rc and message. */
static void
first_fails(const char *path, int code, const char *want)
{
	struct cap_source	*src;
	struct drv_event	 ev;
	struct urb_rec		 r;

	src = open_ok(path);
	assert_int_equal(cap_next(src, &r, &ev), code);
	if (strstr(src->err, want) == NULL)
		fail_msg("\"%s\" not in \"%s\"", want, src->err);
	cap_close(src);
}

static void
test_lying_lengths(void **state)
{
	struct cap_source	*src;
	struct drv_event	 ev;
	struct urb_rec		 r[NRECS], got;
	struct bb		 b, body;
	struct tfile		 t;
	uint8_t			 pre[64 + 16 * URB_ISO_MAX];
	size_t			 npre, at;

	(void)state;
	make_recs(r);
	tfile_make(&t, ".x");
	npre = enc_usbmon_prefix(&r[1], 0, pre);

	/* pcap caplen shorter than the usbmon header */
	memset(&b, 0, sizeof b);
	b.be = !host_is_le();
	pcap_header(&b, 262144, 220);
	bb_uint(&b, 1, 4);
	bb_uint(&b, 2, 4);
	bb_uint(&b, 40, 4);
	bb_uint(&b, 40, 4);
	bb_bytes(&b, pre, 40);
	write_file(t.path, b.p, b.n);
	first_fails(t.path, -UE_BADREC, "record 1 at offset 24: captured "
	    "length 40 is shorter than the 64-byte usbmon header");

	/* pcap caplen beyond any snaplen */
	b.n = 24;
	bb_uint(&b, 1, 4);
	bb_uint(&b, 2, 4);
	bb_uint(&b, 300000, 4);
	bb_uint(&b, 300000, 4);
	write_file(t.path, b.p, b.n);
	first_fails(t.path, -UE_BADREC, "captured length 300000 is larger "
	    "than the file's snaplen 262144");

	/* len_cap claims 1000 bytes, 18 follow, nothing was cut */
	b.n = 24;
	bb_uint(&b, 1, 4);
	bb_uint(&b, 2, 4);
	bb_uint(&b, npre + 18, 4);
	bb_uint(&b, npre + 18, 4);
	at = b.n;
	bb_bytes(&b, pre, npre);
	bb_put32(&b, at + 36, 1000);
	bb_bytes(&b, d_desc, 18);
	write_file(t.path, b.p, b.n);
	src = open_ok(t.path);
	assert_int_equal(cap_next(src, &got, &ev), CAP_URB);
	assert_int_equal(got.len_cap, 1000);
	assert_int_equal(got.data_len, 18);
	assert_int_equal(got.flags & REC_F_BADLEN, REC_F_BADLEN);
	assert_int_equal(cap_next(src, &got, &ev), CAP_END);
	cap_close(src);

	/* pcapng: trailer differs */
	b.n = 0;
	ng_shb(&b);
	ng_idb(&b, 220, NULL, -1, 0);
	at = b.n;
	ng_pkt(&b, 6, 0, 5, &r[1]);
	bb_put32(&b, b.n - 4, 12);
	write_file(t.path, b.p, b.n);
	first_fails(t.path, -UE_BADREC, "differs from its trailer");

	/* pcapng: block length not a multiple of 4 */
	bb_put32(&b, at + 4, 13);
	write_file(t.path, b.p, b.n);
	first_fails(t.path, -UE_BADREC, "not a multiple of 4");

	/* pcapng: EPB caplen larger than the block */
	b.n = at;
	ng_pkt(&b, 6, 0, 5, &r[1]);
	bb_put32(&b, at + 20, 4000);
	write_file(t.path, b.p, b.n);
	first_fails(t.path, -UE_BADREC, "captured length 4000 does not fit");

	/* pcapng: a packet on an interface never described */
	b.n = at;
	ng_pkt(&b, 6, 7, 5, &r[1]);
	write_file(t.path, b.p, b.n);
	first_fails(t.path, -UE_BADREC, "packet on interface 7, but section "
	    "1 describes 1 interfaces");

	/* pcapng: an IDB option that runs past its block */
	b.n = 0;
	ng_shb(&b);
	memset(&body, 0, sizeof body);
	body.be = b.be;
	bb_uint(&body, 220, 2);
	bb_uint(&body, 0, 2);
	bb_uint(&body, 0, 4);
	bb_uint(&body, 2, 2);
	bb_uint(&body, 200, 2);
	bb_uint(&body, 0, 4);
	ng_block(&b, 1, &body);
	free(body.p);
	write_file(t.path, b.p, b.n);
	first_fails(t.path, -UE_BADREC, "option 2 of interface 0 (200 "
	    "bytes) runs past the end of its block");

	/* pcapng: a bad byte-order magic in a second section */
	b.n = 0;
	ng_shb(&b);
	ng_idb(&b, 220, NULL, -1, 0);
	at = b.n;
	ng_shb(&b);
	b.p[at + 8] ^= 0xff;
	write_file(t.path, b.p, b.n);
	first_fails(t.path, -UE_BADREC, "bad byte-order magic");

	/* usbmon binary: a stream that goes astray */
	b.n = 0;
	npre = enc_usbmon_prefix(&r[1], 0, pre);
	bb_bytes(&b, pre, 48);
	bb_put32(&b, 36, 18);
	bb_bytes(&b, d_desc, 18);
	bb_bytes(&b, "garbage garbage garbage garbage garbage garbage!",
	    48);
	write_file(t.path, b.p, b.n);
	src = open_ok(t.path);
	assert_string_equal(src->ops->name, "usbmon-bin");
	assert_int_equal(cap_next(src, &got, &ev), CAP_URB);
	assert_int_equal(cap_next(src, &got, &ev), -UE_BADREC);
	assert_non_null(strstr(src->err, "record 2 at offset 66: not a "
	    "usbmon event header"));
	cap_close(src);

	free(b.p);
	unlink(t.path);
}

/* ------------------------------------------------------------------------
 * Sinks and buffered I/O.
 */
static void
test_sink_choice(void **state)
{
	static const struct {
		const char	*path;
		const char	*format;
		const char	*want;
	} cases[] = {
		{ "a.pcap", NULL, "pcap" },
		{ "a.PCAPNG", NULL, "pcapng" },
		{ "a.txt", NULL, "usbmon" },
		{ "a.mon", NULL, "usbmon" },
		{ "a.usbmon", NULL, "usbmon" },
		{ "a", NULL, "pcapng" },
		{ "dir.pcap/a", NULL, "pcapng" },
		{ "a.pcap", "usbmon", "usbmon" },
	};
	struct cap_sink	*s;
	char		 err[512], path[128];
	size_t		 i;

	(void)state;
	assert_int_equal(mkdir("/tmp/urbscope-captest-sinks", 0700) == 0 ||
	    errno == EEXIST, 1);
	mkdir("/tmp/urbscope-captest-sinks/dir.pcap", 0700);
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		snprintf(path, sizeof path, "/tmp/urbscope-captest-sinks/%s",
		    cases[i].path);
		if (cap_sink_open(path, cases[i].format, NULL, &s, err,
		    sizeof err) != 0)
			fail_msg("%s", err);
		assert_string_equal(s->ops->name, cases[i].want);
		assert_int_equal(cap_sink_close(s, err, sizeof err), 0);
		unlink(path);
	}
	rmdir("/tmp/urbscope-captest-sinks/dir.pcap");
	rmdir("/tmp/urbscope-captest-sinks");
	assert_int_equal(cap_sink_open("x", "json", NULL, &s, err,
	    sizeof err), -UE_USAGE);
	assert_string_equal(err, "unknown output format \"json\"; urbscope "
	    "writes pcapng, pcap, usbmon");
	assert_int_equal(cap_sink_open("/nonexistent/x.pcap", NULL, NULL, &s,
	    err, sizeof err), -UE_OPEN);
	assert_non_null(strstr(err, "/nonexistent/x.pcap: cannot create"));
}

static void
test_sink_enospc(void **state)
{
	struct urb_rec	 r[NRECS];
	struct cap_sink	*s;
	char		 err[512];
	int		 i, rc = 0;

	(void)state;
	if (access("/dev/full", W_OK) != 0)
		skip();
	make_recs(r);
	assert_int_equal(cap_sink_open("/dev/full", "pcap", NULL, &s, err,
	    sizeof err), 0);
	/* enough to overflow the output buffer at least once */
	for (i = 0; i < 20000 && rc == 0; i++)
		rc = cap_sink_write(s, &r[i % NRECS]);
	assert_int_equal(rc, -UE_IO);
	assert_non_null(strstr(s->err, strerror(ENOSPC)));
	assert_non_null(strstr(s->err, "/dev/full: write failed"));
	assert_int_equal(cap_sink_close(s, err, sizeof err), -UE_IO);
	assert_non_null(strstr(err, strerror(ENOSPC)));

	/* small output: the failure shows at close */
	assert_int_equal(cap_sink_open("/dev/full", "usbmon", NULL, &s, err,
	    sizeof err), 0);
	assert_int_equal(cap_sink_write(s, &r[0]), 0);
	assert_int_equal(cap_sink_close(s, err, sizeof err), -UE_IO);
	assert_non_null(strstr(err, strerror(ENOSPC)));
}

static void
test_cap_in(void **state)
{
	struct cap_in	 in;
	struct tfile	 t;
	const uint8_t	*p;
	uint8_t		*d;
	size_t		 i, n = (1 << 20) + 12345;
	pid_t		 pid;
	int		 fds[2], saved;

	(void)state;
	assert_non_null(d = malloc(n));
	for (i = 0; i < n; i++)
		d[i] = (uint8_t)(i ^ (i >> 8));
	tfile_make(&t, ".in");
	write_file(t.path, d, n);
	/* through a pipe: read() into the 1 MiB buffer, which the file
	 * overflows */
	assert_int_equal(pipe(fds), 0);
	if ((pid = fork()) == 0) {
		close(fds[0]);
		(void)!write(fds[1], d, n);
		_exit(0);
	}
	close(fds[1]);
	assert_int_equal((saved = dup(STDIN_FILENO)) >= 0, 1);
	assert_int_equal(dup2(fds[0], STDIN_FILENO), STDIN_FILENO);
	close(fds[0]);
	assert_int_equal(cap_in_open(&in, "-"), 0);
	assert_int_equal(in.mapped, 0);
	assert_int_equal(cap_in_peek(&in, 10, &p), 10);
	assert_memory_equal(p, d, 10);
	assert_int_equal(cap_in_peek(&in, (1 << 20) - 5, &p), (1 << 20) - 5);
	cap_in_skip(&in, (1 << 20) - 5);
	/* across the end of the first buffer */
	assert_int_equal(cap_in_peek(&in, 100, &p), 100);
	assert_memory_equal(p, d + (1 << 20) - 5, 100);
	assert_int_equal(cap_in_offset(&in), (1 << 20) - 5);
	cap_in_skip(&in, 100);
	/* more than the buffer holds, to the end */
	assert_int_equal(cap_in_peek(&in, n, &p), (long)(n - (1 << 20) - 95));
	assert_memory_equal(p, d + (1 << 20) + 95, n - (1 << 20) - 95);
	cap_in_close(&in);
	assert_int_equal(dup2(saved, STDIN_FILENO), STDIN_FILENO);
	close(saved);
	assert_int_equal(waitpid(pid, NULL, 0), pid);

	/* the regular file of more than 1 MiB is read while read forward
	 * only, then mapped whole on the first seek; a piece taken before
	 * the seek stays readable */
	assert_int_equal(cap_in_open(&in, t.path), 0);
	assert_int_equal(in.mapped, 0);
	assert_int_equal(cap_in_peek(&in, n + 100, &p), (long)n);
	assert_memory_equal(p, d, n);
	cap_in_skip(&in, n);
	assert_int_equal(cap_in_peek(&in, 1, &p), 0);
	assert_int_equal(cap_in_offset(&in), n);
	assert_int_equal(cap_in_seek(&in, 0), 0);
	assert_int_equal(in.mapped, 1);
	assert_int_equal(cap_in_peek(&in, 8, &p), 8);
	assert_memory_equal(p, d, 8);
	/* and seeks within the mapping */
	assert_int_equal(cap_in_seek(&in, 777777), 0);
	assert_int_equal(cap_in_offset(&in), 777777);
	assert_int_equal(cap_in_peek(&in, 8, &p), 8);
	assert_memory_equal(p, d + 777777, 8);
	assert_int_equal(cap_in_seek(&in, n + 1), -UE_IO);
	cap_in_close(&in);
	/* read forward, a file cut short under the reader is an error that
	 * says so, not a quiet end */
	assert_int_equal(cap_in_open(&in, t.path), 0);
	assert_int_equal(cap_in_peek(&in, 100, &p), 100);
	cap_in_skip(&in, (size_t)(in.end - in.pos));
	assert_int_equal(truncate(t.path, 1000), 0);
	assert_int_equal(cap_in_peek(&in, 1, &p), -UE_IO);
	assert_non_null(strstr(cap_in_strerror(&in), "shrank"));
	cap_in_close(&in);

	assert_int_equal(cap_in_open(&in, "/nonexistent"), -UE_OPEN);
	assert_int_equal(errno, ENOENT);
	/* a directory opens but cannot be read */
	assert_int_equal(cap_in_open(&in, "/tmp"), 0);
	assert_int_equal(cap_in_peek(&in, 1, &p), -UE_IO);
	assert_int_equal(in.err, EISDIR);
	cap_in_close(&in);
	unlink(t.path);
	free(d);
}

/* ------------------------------------------------------------------------
 * A kernel's gfp_t (cap-gfp.c).
 */
static const char *
gfp_name(const struct cap_gfp *g, uint32_t v)
{
	static char	 buf[160];

	cap_gfp_name(g, v, buf, sizeof buf);
	return buf;
}

static void
test_gfp(void **state)
{
	/* 6.12's enum, as its BTF has it (bpftool btf dump) */
	static const char *const e612[] = {
		"DMA", "HIGHMEM", "DMA32", "MOVABLE", "RECLAIMABLE", "HIGH",
		"IO", "FS", "ZERO", "UNUSED", "DIRECT_RECLAIM",
		"KSWAPD_RECLAIM", "WRITE", "NOWARN", "RETRY_MAYFAIL", "NOFAIL",
		"NORETRY", "MEMALLOC", "COMP", "NOMEMALLOC", "HARDWALL",
		"THISNODE", "ACCOUNT", "ZEROTAGS", "NO_OBJ_EXT", "LAST"
	};
	struct cap_gfp	 g;
	char		 name[48], small[12];
	size_t		 i;

	(void)state;
	/* 6.1's layout */
	cap_gfp_init(&g);
	assert_string_equal(gfp_name(&g, 0xcc0), "GFP_KERNEL");
	assert_string_equal(gfp_name(&g, 0xa20), "GFP_ATOMIC");
	assert_string_equal(gfp_name(&g, 0x820), "GFP_ATOMIC");
	assert_string_equal(gfp_name(&g, 0xc00), "GFP_NOIO");
	assert_string_equal(gfp_name(&g, 0xc40), "GFP_NOFS");
	assert_string_equal(gfp_name(&g, 0x800), "GFP_NOWAIT");
	assert_string_equal(gfp_name(&g, 0x2800), "GFP_NOWAIT|__GFP_NOWARN");
	assert_string_equal(gfp_name(&g, 0x400cc0), "GFP_KERNEL_ACCOUNT");
	assert_string_equal(gfp_name(&g, 0xdc0), "GFP_KERNEL|__GFP_ZERO");
	assert_string_equal(gfp_name(&g, 0x2cc0 | 0x20),
	    "GFP_KERNEL|__GFP_HIGH|__GFP_NOWARN");
	assert_string_equal(gfp_name(&g, 0), "0");
	assert_string_equal(gfp_name(&g, 0x80000400),
	    "__GFP_DIRECT_RECLAIM|0x80000000");
	assert_int_equal(cap_gfp_to_sim(&g, 0xcc0), 0xd0);
	assert_int_equal(cap_gfp_to_sim(&g, 0x2cc0), 0xd0);
	assert_int_equal(cap_gfp_to_sim(&g, 0xa20), 0x20);
	assert_int_equal(cap_gfp_to_sim(&g, 0x820), 0x20);
	assert_int_equal(cap_gfp_to_sim(&g, 0xc00), 0x10);
	assert_int_equal(cap_gfp_to_sim(&g, 0xc40), 0x50);
	assert_int_equal(cap_gfp_to_sim(&g, 0x2800), 0);
	/* a name cut to the buffer, never past it */
	cap_gfp_name(&g, 0x2cc0 | 0x100, small, sizeof small);
	assert_int_equal(strlen(small), sizeof small - 1);

	/* 6.12's enum: GFP_NOWAIT carries __GFP_NOWARN, bit 9 is free */
	assert_int_equal(g.learnt, 0);
	for (i = 0; i < sizeof e612 / sizeof e612[0]; i++) {
		snprintf(name, sizeof name, "___GFP_%s_BIT", e612[i]);
		assert_int_equal(cap_gfp_learn(&g, name, (long long)i),
		    strcmp(e612[i], "LAST") != 0);
	}
	assert_int_equal(g.learnt, 1);
	assert_string_equal(gfp_name(&g, 0x2800), "GFP_NOWAIT");
	assert_string_equal(gfp_name(&g, 0x820), "GFP_ATOMIC");
	assert_string_equal(gfp_name(&g, 0xa20), "GFP_ATOMIC|0x200");
	assert_string_equal(gfp_name(&g, 0x1000cc0),
	    "GFP_KERNEL|__GFP_NO_OBJ_EXT");
	/* not gfp enumerators */
	assert_int_equal(cap_gfp_learn(&g, "FORTIFY_FUNC_UNKNOWN", 16), 0);
	assert_int_equal(cap_gfp_learn(&g, "___GFP_IO_BIT", 40), 0);
	assert_int_equal(cap_gfp_learn(&g, "___GFP_IO_BIT", -1), 0);
	assert_int_equal(cap_gfp_learn(&g, "___GFP__BIT", 3), 0);

	/* a kernel whose bits moved: names and mem_flags follow them */
	cap_gfp_init(&g);
	assert_int_equal(cap_gfp_learn(&g, "___GFP_DIRECT_RECLAIM_BIT", 3), 1);
	assert_int_equal(cap_gfp_learn(&g, "___GFP_KSWAPD_RECLAIM_BIT", 4), 1);
	assert_int_equal(cap_gfp_learn(&g, "___GFP_IO_BIT", 5), 1);
	assert_int_equal(cap_gfp_learn(&g, "___GFP_FS_BIT", 6), 1);
	assert_int_equal(cap_gfp_learn(&g, "___GFP_HIGH_BIT", 7), 1);
	assert_int_equal(cap_gfp_learn(&g, "___GFP_NOWARN_BIT", 8), 1);
	assert_string_equal(gfp_name(&g, 0x78), "GFP_KERNEL");
	assert_int_equal(cap_gfp_to_sim(&g, 0x78), 0xd0);
	assert_string_equal(gfp_name(&g, 0x90), "GFP_ATOMIC");
	assert_int_equal(cap_gfp_to_sim(&g, 0x90), 0x20);
	assert_string_equal(gfp_name(&g, 0x110), "GFP_NOWAIT");
	assert_string_equal(gfp_name(&g, 0xcc0),
	    "__GFP_FS|__GFP_HIGH|0x400|0x800");
	assert_int_equal(cap_gfp_to_sim(&g, 0xcc0), 0xa0);
}

/* ------------------------------------------------------------------------
 * Bus-level packets (cap-usbll.c, dec-usbll.c).
 */

/* A token of pid to addr.ep with its CRC5, into p[3]. */
static void
ll_tok(uint8_t *p, uint8_t pid, unsigned addr, unsigned ep)
{
	uint32_t	 v = addr | ep << 7;

	v |= (uint32_t)dec_usbll_crc5(v, 11) << 11;
	p[0] = pid;
	put_le16(p + 1, (uint16_t)v);
}

/* A data packet of pid with d[0..n) and its CRC16, into p; its length. */
static uint32_t
ll_dat(uint8_t *p, uint8_t pid, const uint8_t *d, uint32_t n)
{
	p[0] = pid;
	memcpy(p + 1, d, n);
	put_le16(p + 1 + n, dec_usbll_crc16(p + 1, n));
	return n + 3;
}

static void
test_usbll(void **state)
{
	static const uint8_t setup[8] = { 0x80, 6, 0, 1, 0, 0, 18, 0 };
	static const uint8_t sof339[3] = { 0xa5, 0x53, 0xc1 };
	uint8_t			 tok[3], dat[3 + 64], ack = USBLL_PID_ACK;
	uint8_t			 desc[18];
	struct cap_usbll	*st, *c;
	struct urb_rec		 r;
	uint32_t		 n, i;

	(void)state;
	/* the values Wireshark's usbll shows for these packets */
	assert_int_equal(dec_usbll_crc5(0, 11), 0x02);
	assert_int_equal(dec_usbll_crc5(339, 11), 0x18);
	assert_int_equal(dec_usbll_crc16(setup, 0), 0x0000);
	assert_int_equal(dec_usbll_crc16((const uint8_t *)
	    "\x80\x06\x00\x01\x00\x00\x40\x00", 8), 0x94dd);
	assert_int_equal(dec_usbll_kind(0x2e), USBLL_K_BAD);
	assert_int_equal(dec_usbll_kind(USBLL_PID_NYET), USBLL_K_HANDSHAKE);
	assert_null(dec_usbll_pid_name(0x2e));
	assert_string_equal(dec_usbll_pid_name(0x3c), "PRE/ERR");

	assert_non_null(st = cap_usbll_new(294));
	cap_usbll_packet(st, sof339, 3, &r);
	assert_int_equal(r.type, 'P');
	assert_int_equal(r.ll.frame, 339);
	assert_int_equal(r.ll.crc5_status, USBLL_CRC_GOOD);
	/* setup: the submit on the DATA0 */
	ll_tok(tok, USBLL_PID_SETUP, 7, 0);
	cap_usbll_packet(st, tok, 3, &r);
	assert_int_equal(r.type, 'P');
	assert_int_equal(r.ll.addr, 7);
	n = ll_dat(dat, USBLL_PID_DATA0, setup, 8);
	cap_usbll_packet(st, dat, n, &r);
	assert_int_equal(r.type, 'S');
	assert_int_equal(r.xfer_type, XFER_CTRL);
	assert_int_equal(r.devnum, 7);
	assert_int_equal(r.flag_setup, 0);
	assert_memory_equal(r.setup, setup, 8);
	cap_usbll_packet(st, &ack, 1, &r);
	assert_int_equal(r.type, 'P');
	assert_int_equal(r.ll.from_dev, 1);
	/* a mark taken in the data stage continues as the original */
	assert_non_null(c = cap_usbll_clone(st));
	for (i = 0; i < sizeof desc; i++)
		desc[i] = (uint8_t)i;
	ll_tok(tok, USBLL_PID_IN, 7, 0);
	n = ll_dat(dat, USBLL_PID_DATA1, desc, sizeof desc);
	for (i = 0; i < 2; i++) {
		cap_usbll_packet(i == 0 ? st : c, tok, 3, &r);
		cap_usbll_packet(i == 0 ? st : c, dat, n, &r);
		assert_int_equal(r.type, 'C');
		assert_int_equal(r.status, 0);
		assert_int_equal(r.data_len, sizeof desc);
		assert_memory_equal(r.data, desc, sizeof desc);
		assert_int_equal(r.epnum, 0x80);
	}
	cap_usbll_free(c);
	/* a wrong CRC16: shown, and nothing on the URB side */
	ll_tok(tok, USBLL_PID_OUT, 7, 1);
	cap_usbll_packet(st, tok, 3, &r);
	n = ll_dat(dat, USBLL_PID_DATA0, desc, 4);
	dat[2] ^= 1;
	cap_usbll_packet(st, dat, n, &r);
	assert_int_equal(r.ll.crc16_status, USBLL_CRC_BAD);
	assert_int_equal(r.type, 'P');
	/* packets too short for their PID, and none at all */
	cap_usbll_packet(st, tok, 2, &r);
	assert_int_equal(r.type, 'P');
	assert_int_equal(r.ll.crc5_status, USBLL_CRC_NONE);
	cap_usbll_packet(st, dat, 2, &r);
	assert_int_equal(r.type, 'P');
	cap_usbll_packet(st, dat, 0, &r);
	assert_int_equal(r.type, 'P');
	cap_usbll_free(st);
}

/*
 * Folding (dec_fold_*): SOFs in a row are one line, NAKed polls of one
 * endpoint with the SOFs between them one line, the rest as it is.
 */
static void
test_usbll_fold(void **state)
{
	struct {
		uint8_t	 pid;
		unsigned a, e;		/* SOF: a is the frame number */
		int	 held;		/* dec_fold_record's answer */
	} seq[] = {
		{ USBLL_PID_SOF, 1, 0, 1 }, { USBLL_PID_SOF, 2, 0, 1 },
		{ USBLL_PID_SOF, 3, 0, 1 },
		{ USBLL_PID_IN, 7, 1, 1 }, { USBLL_PID_NAK, 0, 0, 1 },
		{ USBLL_PID_SOF, 4, 0, 1 },
		{ USBLL_PID_IN, 7, 1, 1 }, { USBLL_PID_NAK, 0, 0, 1 },
		{ USBLL_PID_IN, 7, 1, 1 }, { USBLL_PID_NAK, 0, 0, 1 },
		{ USBLL_PID_IN, 7, 2, 1 }, { USBLL_PID_DATA0, 0, 0, 0 },
		{ USBLL_PID_IN, 7, 1, 1 }, { USBLL_PID_SOF, 5, 0, 1 },
	};
	struct cap_usbll *st;
	struct dec_fold	 fo;
	struct dec_fmt	 f;
	struct dec_info	 info;
	struct urb_rec	 r;
	struct sbuf	 b;
	uint8_t		 p[8];
	uint32_t	 n;
	size_t		 i;

	(void)state;
	memset(&f, 0, sizeof f);
	memset(&info, 0, sizeof info);
	memset(&b, 0, sizeof b);
	f.time_mode = DT_RELATIVE;
	dec_fold_init(&fo);
	assert_non_null(st = cap_usbll_new(294));
	for (i = 0; i < sizeof seq / sizeof seq[0]; i++) {
		if (seq[i].pid == USBLL_PID_SOF) {
			ll_tok(p, USBLL_PID_SOF, seq[i].a & 0x7f,
			    seq[i].a >> 7);
			n = 3;
		} else if (seq[i].pid == USBLL_PID_DATA0)
			n = ll_dat(p, USBLL_PID_DATA0, (const uint8_t *)"ab",
			    2);
		else if (seq[i].pid == USBLL_PID_NAK) {
			p[0] = USBLL_PID_NAK;
			n = 1;
		} else {
			ll_tok(p, seq[i].pid, seq[i].a, seq[i].e);
			n = 3;
		}
		cap_usbll_packet(st, p, n, &r);
		r.recno = r.frame = i + 1;
		r.ts_ns = (int64_t)i * 1000000;
		dec_fmt_start(&f, r.ts_ns);
		assert_int_equal(dec_fold_record(&fo, &f, &r, &info, &b),
		    seq[i].held);
	}
	dec_fold_end(&fo, &f, &b);
	sb_putc(&b, '\0');
	assert_non_null(strstr(b.s, "3 SOFs 1-3 (packets 1-3)\n"));
	assert_non_null(strstr(b.s, "IN 7.1 polled 3 times, NAKed "
	    "(packets 4-10 in 6.000 ms, 1 SOF between)\n"));
	assert_non_null(strstr(b.s, "  IN 7.2\n"));
	/* a token nobody answered, then one SOF: each its own line */
	assert_non_null(strstr(b.s, "  IN 7.1\n"));
	assert_non_null(strstr(b.s, "  SOF 5\n"));
	assert_int_equal(strstr(b.s, "IN 7.2") < strstr(b.s, "  IN 7.1\n"),
	    1);
	sb_free(&b);
	cap_usbll_free(st);
}

/* macOS records (cap-darwin.c): a header and what can be wrong with it */
static void
test_darwin(void **state)
{
	struct urb_iso	 iso[URB_ISO_MAX];
	struct urb_rec	 r;
	const char	*why;
	uint8_t		 p[DARWIN_HDR + 80];

	(void)state;
	memset(p, 0, sizeof p);
	put_le16(p, 0x0100);
	p[2] = DARWIN_HDR;
	p[3] = 1;			/* complete */
	put_le32(p + 8, 0xe000404f);	/* kIOUSBPipeStalled */
	put_le64(p + 16, 0x1234);
	put_le32(p + 24, 0x14200000);
	p[29] = 7;
	p[30] = 0x81;
	p[31] = 2;			/* bulk */
	assert_int_equal(cap_darwin_packet(p, DARWIN_HDR, DARWIN_HDR, iso,
	    &r, &why), 0);
	assert_int_equal(r.origin, URB_ORIGIN_DARWIN);
	assert_int_equal(r.type, 'C');
	assert_int_equal(r.xfer_type, XFER_BULK);
	assert_int_equal(r.busnum, 0x14);
	assert_int_equal(r.devnum, 7);
	assert_int_equal(r.status, -EPIPE);
	assert_string_equal(dec_darwin_status_name(0xe000404f),
	    "kIOUSBPipeStalled");
	assert_int_equal(dec_darwin_errno(0x12345678), -EIO);
	/* too short, header lengths that lie */
	assert_int_equal(cap_darwin_packet(p, 31, 31, iso, &r, &why),
	    -UE_BADREC);
	p[2] = 16;
	assert_int_equal(cap_darwin_packet(p, DARWIN_HDR, DARWIN_HDR, iso,
	    &r, &why), -UE_BADREC);
	p[2] = 200;
	assert_int_equal(cap_darwin_packet(p, DARWIN_HDR, DARWIN_HDR, iso,
	    &r, &why), -UE_BADREC);
	assert_non_null(strstr(why, "past the captured"));
	p[2] = DARWIN_HDR;
	/* a control submit without its SETUP packet */
	p[3] = 0;
	p[31] = 0;
	assert_int_equal(cap_darwin_packet(p, DARWIN_HDR + 4, DARWIN_HDR + 4,
	    iso, &r, &why), 0);
	assert_true(r.flags & REC_F_BADLEN);
	/* ISO frames: one good, then a header that claims too little */
	p[3] = 1;
	p[31] = 1;
	put_le32(p + 12, 3);
	put_le32(p + DARWIN_HDR, 20);
	put_le32(p + DARWIN_HDR + 4, 8);
	put_le32(p + DARWIN_HDR + 28, 4);	/* fh < 20 */
	assert_int_equal(cap_darwin_packet(p, DARWIN_HDR + 60,
	    DARWIN_HDR + 60, iso, &r, &why), 0);
	assert_int_equal(r.niso, 1);
	assert_int_equal(iso[0].off, 20);
	assert_int_equal(iso[0].len, 8);
	assert_true(r.flags & REC_F_BADLEN);
	/* a frame whose data run past the record */
	put_le32(p + DARWIN_HDR + 4, 500);
	put_le32(p + 12, 1);
	assert_int_equal(cap_darwin_packet(p, DARWIN_HDR + 40,
	    DARWIN_HDR + 40, iso, &r, &why), 0);
	assert_int_equal(r.niso, 1);
	assert_int_equal(iso[0].len, 20);
	assert_true(r.flags & REC_F_TRUNC);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cap_in),
		cmocka_unit_test(test_gfp),
		cmocka_unit_test(test_pcap_roundtrip),
		cmocka_unit_test(test_pcap_lengths),
		cmocka_unit_test(test_pcap_189),
		cmocka_unit_test(test_pcap_ns),
		cmocka_unit_test(test_pcapng_roundtrip),
		cmocka_unit_test(test_pcapng_blocks),
		cmocka_unit_test(test_big),
		cmocka_unit_test(test_usbmon_bin_vs_text),
		cmocka_unit_test(test_usbmon_text_source),
		cmocka_unit_test(test_text_file),
		cmocka_unit_test(test_text_sink),
		cmocka_unit_test(test_qemu_pcaps_vs_libpcap),
		cmocka_unit_test(test_convert_real),
		cmocka_unit_test(test_cut_pcap),
		cmocka_unit_test(test_cut_pcapng),
		cmocka_unit_test(test_cut_usbmon_bin),
		cmocka_unit_test(test_wrong_magic),
		cmocka_unit_test(test_foreign_linktype),
		cmocka_unit_test(test_usbll),
		cmocka_unit_test(test_usbll_fold),
		cmocka_unit_test(test_darwin),
		cmocka_unit_test(test_lying_lengths),
		cmocka_unit_test(test_sink_choice),
		cmocka_unit_test(test_sink_enospc),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
