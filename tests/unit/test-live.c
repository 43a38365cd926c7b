/*
 * tests/unit/test-live.c - capture/cap-live.c without a kernel: walking an
 * mmap ring laid out in memory as the kernel lays it (fillers, wrap),
 * drop accounting, the messages a user meets (on fake /dev and /sys
 * trees), the synthetic GET_DESCRIPTOR records, and the source itself on a
 * fake tree whose /dev/usbmon0 is a saved read() stream and whose debugfs
 * holds a saved text file.  Also the pcapng trailer of a live capture.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "capture/capture.h"

#define CAPDIR	"tests/data/linux61/"

/* ------------------------------------------------------------------------
 * Fake trees.
 */
static void
mkdirs(const char *fmt, ...)
{
	char	 path[512], *p;
	va_list	 ap;

	va_start(ap, fmt);
	vsnprintf(path, sizeof path, fmt, ap);
	va_end(ap);
	for (p = path + 1; *p != '\0'; p++) {
		if (*p == '/') {
			*p = '\0';
			mkdir(path, 0755);
			*p = '/';
		}
	}
	mkdir(path, 0755);
}

static void
put_file(const void *data, size_t n, const char *fmt, ...)
{
	char	 path[512];
	va_list	 ap;
	FILE	*f;

	va_start(ap, fmt);
	vsnprintf(path, sizeof path, fmt, ap);
	va_end(ap);
	assert_non_null(f = fopen(path, "wb"));
	if (n > 0)
		assert_int_equal(fwrite(data, 1, n, f), n);
	assert_int_equal(fclose(f), 0);
}

static uint8_t *
slurp(const char *path, size_t *n)
{
	FILE	*f;
	uint8_t	*p;
	long	 len;

	assert_non_null(f = fopen(path, "rb"));
	fseek(f, 0, SEEK_END);
	len = ftell(f);
	fseek(f, 0, SEEK_SET);
	assert_non_null(p = malloc((size_t)len + 1));
	assert_int_equal(fread(p, 1, (size_t)len, f), (size_t)len);
	fclose(f);
	*n = (size_t)len;
	return p;
}

static char *
fake_root(void)
{
	char	*d;

	d = strdup("/tmp/urbscope-livetest-XXXXXX");
	assert_non_null(d);
	assert_non_null(mkdtemp(d));
	return d;
}

static void
rm_root(char *d)
{
	char	 cmd[600];

	snprintf(cmd, sizeof cmd, "rm -rf '%s'", d);
	assert_int_equal(system(cmd), 0);
	free(d);
	cap_live_set_root(NULL);
}

/* The QEMU keyboard of the Linux 6.1 capture (sysfs-usb-initial.txt). */
static const uint8_t kbd_desc[] = {
	0x12, 0x01, 0x00, 0x02, 0x00, 0x00, 0x00, 0x40, 0x27, 0x06, 0x01,
	0x00, 0x00, 0x00, 0x01, 0x04, 0x0b, 0x01,
	0x09, 0x02, 0x22, 0x00, 0x01, 0x01, 0x08, 0xa0, 0x32,
	0x09, 0x04, 0x00, 0x00, 0x01, 0x03, 0x01, 0x01, 0x00,
	0x09, 0x21, 0x11, 0x01, 0x00, 0x01, 0x22, 0x3f, 0x00,
	0x07, 0x05, 0x81, 0x03, 0x08, 0x00, 0x07
};

/* A device in ROOT/sys/bus/usb/devices/NAME as sysfs shows it. */
static void
fake_device(const char *root, const char *name, unsigned bus, unsigned dev,
    const uint8_t *desc, size_t len)
{
	char	 num[16];

	mkdirs("%s/sys/bus/usb/devices/%s", root, name);
	snprintf(num, sizeof num, "%u\n", bus);
	put_file(num, strlen(num), "%s/sys/bus/usb/devices/%s/busnum", root,
	    name);
	snprintf(num, sizeof num, "%u\n", dev);
	put_file(num, strlen(num), "%s/sys/bus/usb/devices/%s/devnum", root,
	    name);
	put_file("0627\n", 5, "%s/sys/bus/usb/devices/%s/idVendor", root,
	    name);
	put_file("0001\n", 5, "%s/sys/bus/usb/devices/%s/idProduct", root,
	    name);
	put_file(desc, len, "%s/sys/bus/usb/devices/%s/descriptors", root,
	    name);
}

/* ------------------------------------------------------------------------
 * The ring.
 */
#define RING	4096

/* Put an event at off as the kernel does; returns the next offset. */
static uint32_t
ring_put(uint8_t *ring, uint32_t off, uint64_t id, uint8_t type,
    uint32_t len_cap, uint8_t fill)
{
	struct urb_rec	 r;
	uint8_t		 hdr[64];

	memset(&r, 0, sizeof r);
	r.id = id;
	r.type = type;
	r.xfer_type = XFER_BULK;
	r.epnum = 0x81;
	r.devnum = 3;
	r.busnum = 1;
	r.flag_setup = '-';
	r.ts_sec = 1700000000;
	r.ts_usec = 123456;
	r.len_urb = len_cap;
	enc_usbmon_hdr(&r, hdr);
	put_bo32(hdr + 36, len_cap, !host_is_le());
	memcpy(ring + off, hdr, 64);
	memset(ring + off + 64, fill, len_cap);
	return cap_ring_advance(off, len_cap, RING);
}

/* A filler from off to the end of the ring. */
static void
ring_filler(uint8_t *ring, uint32_t off)
{
	memset(ring + off, 0, 64);
	ring[off + 8] = '@';
	put_bo32(ring + off + 36, RING - off - 64, !host_is_le());
}

static void
test_ring_advance(void **state)
{
	(void)state;
	assert_int_equal(cap_ring_advance(0, 0, RING), 64);
	assert_int_equal(cap_ring_advance(0, 1, RING), 128);
	assert_int_equal(cap_ring_advance(64, 64, RING), 192);
	assert_int_equal(cap_ring_advance(RING - 64, 0, RING), 0);
	assert_int_equal(cap_ring_advance(RING - 128, 10, RING), 0);
}

static void
test_ring_walk(void **state)
{
	static uint8_t	 ring[RING];
	struct urb_iso	 iso[URB_ISO_MAX];
	struct urb_rec	 r;
	struct cap_ring	 w;
	uint32_t	 off[16], o = 2048, sizes[] = { 10, 0, 300, 1000, 1500 };
	uint32_t	 n = 0, i;

	(void)state;
	/*
	 * From the middle of the ring: the fifth event does not fit
	 * before the end, so a filler covers the rest and it starts at 0.
	 */
	memset(ring, 0xee, sizeof ring);
	for (i = 0; i < 5; i++) {
		if (o + 64 + sizes[i] > RING) {
			ring_filler(ring, o);
			off[n++] = o;
			o = 0;
		}
		off[n++] = o;
		o = ring_put(ring, o, 0x1000 + i, i % 2 ? 'C' : 'S', sizes[i],
		    (uint8_t)i);
	}
	assert_int_equal(n, 6);
	assert_int_equal(off[4], 3712);
	assert_int_equal(off[5], 0);

	memset(&w, 0, sizeof w);
	w.base = ring;
	w.size = RING;
	w.off = off;
	w.n = n;
	for (i = 0; i < 5; i++) {
		assert_int_equal(cap_ring_next(&w, iso, &r), 1);
		assert_int_equal(r.id, 0x1000 + i);
		assert_int_equal(r.type, i % 2 ? 'C' : 'S');
		assert_int_equal(r.busnum, 1);
		assert_int_equal(r.devnum, 3);
		assert_int_equal(r.data_len, sizes[i]);
		assert_int_equal(r.flags & (REC_F_BADLEN | REC_F_TRUNC), 0);
		assert_true(r.ts_ns == 1700000000123456000LL);
		if (sizes[i] > 0) {
			assert_int_equal(r.data[0], i);
			assert_int_equal(r.data[sizes[i] - 1], i);
		}
	}
	assert_int_equal(cap_ring_next(&w, iso, &r), 0);
	/* everything looked at, the filler too, goes to the next flush */
	assert_int_equal(w.consumed, 6);
	assert_int_equal(w.fillers, 1);
	assert_int_equal(w.bad, 0);
	assert_int_equal(cap_ring_next(&w, iso, &r), 0);
}

static void
test_ring_damage(void **state)
{
	static uint8_t	 ring[RING];
	struct urb_iso	 iso[URB_ISO_MAX];
	struct urb_rec	 r;
	struct cap_ring	 w;
	uint32_t	 off[3];

	(void)state;
	memset(ring, 0, sizeof ring);
	/* an offset outside the ring, one that runs past its end */
	off[0] = RING;
	off[1] = RING - 128;
	ring_put(ring, 0, 1, 'S', 8, 0x11);
	memmove(ring + RING - 128, ring, 64 + 8);
	put_bo32(ring + RING - 128 + 36, 1000, !host_is_le());
	off[2] = RING - 32;
	memset(&w, 0, sizeof w);
	w.base = ring;
	w.size = RING;
	w.off = off;
	w.n = 3;
	assert_int_equal(cap_ring_next(&w, iso, &r), 1);
	assert_true(r.flags & REC_F_BADLEN);
	assert_true(r.data_len <= 64);
	assert_int_equal(cap_ring_next(&w, iso, &r), 0);
	assert_int_equal(w.bad, 2);
	assert_int_equal(w.consumed, 3);
}

/* ------------------------------------------------------------------------
 * Drops.
 */
static void
test_stats_accumulate(void **state)
{
	struct cap_live_acc a;

	(void)state;
	memset(&a, 0, sizeof a);
	assert_true(cap_live_stats_due(&a, 100.0));
	/* the kernel resets its count at every call: we add */
	cap_live_stats_add(&a, 10, 3, 100.0);
	assert_false(cap_live_stats_due(&a, 100.5));
	assert_true(cap_live_stats_due(&a, 101.0));
	cap_live_stats_add(&a, 0, 2, 101.0);
	cap_live_stats_add(&a, 4, 0, 102.2);
	assert_int_equal(a.dropped, 5);
	assert_int_equal(a.queued, 4);
	assert_int_equal(a.polls, 3);
}

/* ------------------------------------------------------------------------
 * Messages.
 */
static void
diag(unsigned bus, int dev_err, int text_err, char *msg, size_t len)
{
	cap_live_diagnose(bus, dev_err, text_err, msg, len);
}

static void
test_diagnose(void **state)
{
	char	*root, msg[512];

	(void)state;
	root = fake_root();
	cap_live_set_root(root);

	diag(0, ENOENT, ENOENT, msg, sizeof msg);
	assert_non_null(strstr(msg, "usbmon is not loaded"));
	assert_non_null(strstr(msg, "modprobe usbmon"));

	diag(0, EACCES, 0, msg, sizeof msg);
	assert_non_null(strstr(msg, "permission denied"));
	assert_non_null(strstr(msg, "SUBSYSTEM==\"usbmon\", GROUP=\"wireshark\""
	    ", MODE=\"0640\""));

	/* loaded, buses 1 and 2: bus 5 does not exist */
	mkdirs("%s/sys/module/usbmon", root);
	mkdirs("%s/sys/bus/usb/devices/usb2", root);
	mkdirs("%s/sys/bus/usb/devices/usb1", root);
	mkdirs("%s/sys/bus/usb/devices/1-1", root);
	diag(5, ENOENT, ENOENT, msg, sizeof msg);
	assert_non_null(strstr(msg, "no USB bus 5; the buses are 1, 2"));

	/* the bus exists, no device node, no debugfs */
	diag(1, ENOENT, ENOENT, msg, sizeof msg);
	assert_non_null(strstr(msg, "mount -t debugfs none /sys/kernel/debug"));

	/* debugfs there but the text file missing too */
	mkdirs("%s/sys/kernel/debug/usb", root);
	diag(1, ENOENT, ENOENT, msg, sizeof msg);
	assert_non_null(strstr(msg, "devtmpfs"));

	diag(1, EIO, 0, msg, sizeof msg);
	assert_non_null(strstr(msg, strerror(EIO)));
	rm_root(root);

	/* loaded without any bus */
	root = fake_root();
	cap_live_set_root(root);
	mkdirs("%s/sys/module/usbmon", root);
	diag(3, ENOENT, ENOENT, msg, sizeof msg);
	assert_non_null(strstr(msg, "no USB bus 3: this machine has no USB "
	    "bus"));
	rm_root(root);
}

static void
test_live_name(void **state)
{
	char	*root, cwd[512];

	(void)state;
	assert_int_equal(cap_live_name("usbmon0"), 0);
	assert_int_equal(cap_live_name("usbmon12"), 12);
	assert_int_equal(cap_live_name("/dev/usbmon3"), 3);
	assert_int_equal(cap_live_name("usbmon"), -1);
	assert_int_equal(cap_live_name("usbmonx"), -1);
	assert_int_equal(cap_live_name("usbmon1a"), -1);
	assert_int_equal(cap_live_name("usbmon256"), -1);
	assert_int_equal(cap_live_name("eth0"), -1);
	assert_int_equal(cap_live_name("x/usbmon1"), -1);
	/* a file of that name in the current directory is read as a file */
	root = fake_root();
	assert_non_null(getcwd(cwd, sizeof cwd));
	assert_int_equal(chdir(root), 0);
	put_file("x", 1, "usbmon4");
	assert_int_equal(cap_live_name("usbmon4"), -1);
	assert_int_equal(cap_live_name("usbmon5"), 5);
	assert_int_equal(chdir(cwd), 0);
	rm_root(root);
}

/* ------------------------------------------------------------------------
 * Synthetic records.
 */
static void
test_synth_keyboard(void **state)
{
	struct urb_rec	 r[8];
	size_t		 n;

	(void)state;
	n = cap_live_synth(1, 3, kbd_desc, sizeof kbd_desc, 5000000123LL, r,
	    8);
	assert_int_equal(n, 4);
	/* GET_DESCRIPTOR(DEVICE, 18) */
	assert_int_equal(r[0].type, 'S');
	assert_int_equal(r[0].xfer_type, XFER_CTRL);
	assert_int_equal(r[0].epnum, 0x80);
	assert_int_equal(r[0].busnum, 1);
	assert_int_equal(r[0].devnum, 3);
	assert_int_equal(r[0].flag_setup, 0);
	assert_int_equal(r[0].flag_data, '<');
	assert_int_equal(r[0].status, -115);
	assert_memory_equal(r[0].setup, "\x80\x06\x00\x01\x00\x00\x12\x00", 8);
	assert_int_equal(r[0].data_len, 0);
	assert_true(r[0].flags & REC_F_SYNTHETIC);
	assert_true(r[0].id == CAP_SYNTH_ID(1, 3, 0));
	assert_true(r[0].id == 0x7379736673010300ULL);
	assert_true(r[0].ts_ns == 5000000123LL);
	assert_int_equal(r[0].ts_sec, 5);
	assert_int_equal(r[0].ts_usec, 0);
	assert_int_equal(r[1].type, 'C');
	assert_true(r[1].id == r[0].id);
	assert_int_equal(r[1].status, 0);
	assert_int_equal(r[1].flag_data, 0);
	assert_int_equal(r[1].len_urb, 18);
	assert_int_equal(r[1].data_len, 18);
	assert_memory_equal(r[1].data, kbd_desc, 18);
	/* GET_DESCRIPTOR(CONFIGURATION 0, wTotalLength 34) */
	assert_memory_equal(r[2].setup, "\x80\x06\x00\x02\x00\x00\x22\x00", 8);
	assert_true(r[2].id == CAP_SYNTH_ID(1, 3, 1));
	assert_int_equal(r[3].data_len, 34);
	assert_ptr_equal(r[3].data, kbd_desc + 18);
	assert_true(r[3].flags & REC_F_SYNTHETIC);

	/* room for one pair only */
	assert_int_equal(cap_live_synth(1, 3, kbd_desc, sizeof kbd_desc, 0, r,
	    3), 2);
}

static void
test_synth_odd(void **state)
{
	uint8_t		 two[18 + 9 + 9], cut[18 + 20];
	struct urb_rec	 r[8];

	(void)state;
	/* two configurations of 9 bytes each */
	memcpy(two, kbd_desc, 18);
	two[17] = 2;
	memcpy(two + 18, "\x09\x02\x09\x00\x00\x01\x00\x80\x32", 9);
	memcpy(two + 27, "\x09\x02\x09\x00\x00\x02\x00\x80\x32", 9);
	assert_int_equal(cap_live_synth(2, 7, two, sizeof two, 0, r, 8), 6);
	assert_int_equal(r[4].setup[2], 1);	/* configuration index 1 */
	assert_ptr_equal(r[5].data, two + 27);
	/* a configuration cut short: what is there is returned */
	memcpy(cut, kbd_desc, 18 + 20);
	assert_int_equal(cap_live_synth(1, 3, cut, sizeof cut, 0, r, 8), 4);
	assert_int_equal(r[3].data_len, 20);
	assert_int_equal(r[2].len_urb, 34);
	/* not a device descriptor, or too short: nothing */
	assert_int_equal(cap_live_synth(1, 3, kbd_desc + 18, 34, 0, r, 8), 0);
	assert_int_equal(cap_live_synth(1, 3, kbd_desc, 17, 0, r, 8), 0);
}

/* ------------------------------------------------------------------------
 * The source on fake trees.
 */
static void
test_source_read_fallback(void **state)
{
	struct cap_source *src, *file;
	struct urb_rec	 r, f;
	struct drv_event ev;
	struct cap_stats st;
	char		*root, err[600];
	uint8_t		*bin;
	size_t		 n;
	int		 rc, nsynth = 0, nlive = 0;

	(void)state;
	root = fake_root();
	cap_live_set_root(root);
	mkdirs("%s/dev", root);
	bin = slurp(CAPDIR "usbmon0.bin", &n);
	put_file(bin, n, "%s/dev/usbmon0", root);
	free(bin);
	fake_device(root, "1-2", 1, 3, kbd_desc, sizeof kbd_desc);

	/* a regular /dev/usbmon0 has no ioctls: read() is used */
	assert_int_equal(cap_open("usbmon0", &src, err, sizeof err), 0);
	assert_int_equal(src->live, 1);
	assert_int_equal(cap_open(CAPDIR "usbmon0.bin", &file, err,
	    sizeof err), 0);
	while ((rc = cap_next(src, &r, &ev)) != CAP_END) {
		assert_int_equal(rc, CAP_URB);
		if (r.flags & REC_F_SYNTHETIC) {
			assert_int_equal(nlive, 0);
			nsynth++;
			continue;
		}
		nlive++;
		assert_int_equal(cap_next(file, &f, &ev), CAP_URB);
		assert_true(r.id == f.id);
		assert_int_equal(r.type, f.type);
		assert_int_equal(r.status, f.status);
		assert_int_equal(r.len_urb, f.len_urb);
		assert_int_equal(r.data_len, f.data_len);
		if (r.data_len > 0)
			assert_memory_equal(r.data, f.data, r.data_len);
		assert_true(r.ts_ns == f.ts_ns);
	}
	assert_int_equal(cap_next(file, &f, &ev), CAP_END);
	assert_int_equal(nsynth, 4);
	assert_true(nlive > 1000);
	cap_stats(src, &st);
	assert_string_equal(st.method, "read");
	assert_int_equal(st.received, nlive);
	assert_int_equal(st.dropped, 0);
	cap_close(file);
	cap_close(src);

	/* usbmon2: bus 2 has no device, so no synthetic records */
	put_file("", 0, "%s/dev/usbmon2", root);
	assert_int_equal(cap_open("/dev/usbmon2", &src, err, sizeof err), 0);
	assert_int_equal(cap_next(src, &r, &ev), CAP_END);
	cap_close(src);
	rm_root(root);
}

static void
test_source_text_fallback(void **state)
{
	struct cap_source *src;
	struct urb_rec	 r;
	struct drv_event ev;
	struct cap_stats st;
	char		*root, err[600];
	uint8_t		*txt;
	size_t		 n;
	int		 rc, count = 0;
	int64_t		 prev = 0;

	(void)state;
	root = fake_root();
	cap_live_set_root(root);
	mkdirs("%s/sys/kernel/debug/usb/usbmon", root);
	txt = slurp(CAPDIR "usbmon-0u.txt", &n);
	put_file(txt, n, "%s/sys/kernel/debug/usb/usbmon/0u", root);
	free(txt);
	assert_int_equal(cap_open("usbmon0", &src, err, sizeof err), 0);
	while ((rc = cap_next(src, &r, &ev)) != CAP_END) {
		assert_int_equal(rc, CAP_URB);
		assert_true(r.flags & REC_F_TEXT);
		assert_true(r.ts_ns >= prev);
		prev = r.ts_ns;
		count++;
	}
	assert_int_equal(count, 1666);
	cap_stats(src, &st);
	assert_string_equal(st.method, "text");
	cap_close(src);

	/* neither the device nor the text file: the message says why */
	assert_true(cap_open("usbmon4", &src, err, sizeof err) < 0);
	assert_non_null(strstr(err, "usbmon4"));
	rm_root(root);
}

/* ------------------------------------------------------------------------
 * The pcapng trailer and the synthetic mark.
 */
/*
 * The ISBs of the pcapng at path: how many, and the ifrecv and ifdrop of
 * the one for interface id (UINT64_MAX each when there is none).
 */
static int
isb_of(const char *path, uint32_t id, uint64_t *recv, uint64_t *drop)
{
	uint8_t		*p;
	size_t		 n, off, i;
	uint32_t	 blen;
	uint16_t	 code, olen;
	int		 count = 0;

	*recv = *drop = UINT64_MAX;
	p = slurp(path, &n);
	for (off = 0; off + 12 <= n; off += blen) {
		blen = get_bo32(p + off + 4, !host_is_le());
		assert_true(blen >= 12 && off + blen <= n);
		if (get_bo32(p + off, !host_is_le()) != 5)
			continue;
		count++;
		if (get_bo32(p + off + 8, !host_is_le()) != id)
			continue;
		for (i = off + 20; i + 4 <= off + blen - 4; i += 4 +
		    ((olen + 3) & ~3U)) {
			code = get_bo16(p + i, !host_is_le());
			olen = get_bo16(p + i + 2, !host_is_le());
			if (code == 0)
				break;
			if (code == 4)
				*recv = get_bo64(p + i + 4, !host_is_le());
			if (code == 5)
				*drop = get_bo64(p + i + 4, !host_is_le());
		}
	}
	free(p);
	return count;
}

static void
test_pcapng_isb(void **state)
{
	struct cap_sink	*sink;
	struct cap_source *src;
	struct cap_stats st = { .received = 1000, .dropped = 7,
	    .method = "mmap ring" };
	struct urb_rec	 r[4], back;
	struct drv_event ev;
	char		 path[] = "/tmp/urbscope-livetest-XXXXXX.pcapng", err[600];
	uint8_t		*p;
	size_t		 n, off, i;
	uint64_t	 recv, drop;
	uint32_t	 blen;
	int		 fd, found = 0;

	(void)state;
	assert_true((fd = mkstemps(path, 7)) >= 0);
	close(fd);
	assert_int_equal(cap_live_synth(1, 3, kbd_desc, sizeof kbd_desc,
	    1700000000000000000LL, r, 4), 4);
	assert_int_equal(cap_sink_open(path, NULL, NULL, &sink, err,
	    sizeof err), 0);
	for (i = 0; i < 4; i++)
		assert_int_equal(cap_sink_write(sink, &r[i]), 0);
	cap_sink_set_stats(sink, &st, 1700000000000000000LL,
	    1700000005000000000LL);
	assert_int_equal(cap_sink_close(sink, err, sizeof err), 0);

	/* the records read back marked synthetic */
	assert_int_equal(cap_open(path, &src, err, sizeof err), 0);
	for (i = 0; i < 4; i++) {
		assert_int_equal(cap_next(src, &back, &ev), CAP_URB);
		assert_true(back.flags & REC_F_SYNTHETIC);
		assert_true(back.id == r[i].id);
	}
	assert_int_equal(cap_next(src, &back, &ev), CAP_END);
	cap_close(src);

	/* the last block is the one ISB, with isb_ifrecv 1000 and
	 * isb_ifdrop 7 and how usbmon was read */
	assert_int_equal(isb_of(path, 0, &recv, &drop), 1);
	assert_true(recv == 1000);
	assert_true(drop == 7);
	p = slurp(path, &n);
	for (off = 0; off + 12 <= n; off += blen) {
		blen = get_bo32(p + off + 4, !host_is_le());
		if (get_bo32(p + off, !host_is_le()) != 5)
			continue;
		found = 1;
		assert_int_equal(off + blen, n);
		assert_non_null(memmem(p + off, blen, "mmap ring", 9));
	}
	assert_true(found);
	free(p);
	unlink(path);
}

/* A capture that traced drivers: the events' interface has an ISB of its
 * own, with the events traced and those lost; none without events. */
static void
test_pcapng_isb_events(void **state)
{
	struct cap_sink	*sink;
	struct cap_stats st = { .received = 4, .dropped = 0,
	    .method = "mmap ring", .have_events = 1, .ev_received = 9,
	    .ev_dropped = 2 };
	struct urb_rec	 r[4];
	struct drv_event ev;
	char		 path[] = "/tmp/urbscope-livetest-XXXXXX.pcapng", err[600];
	uint64_t	 recv, drop;
	size_t		 i;
	int		 fd, k;

	(void)state;
	assert_int_equal(cap_live_synth(1, 3, kbd_desc, sizeof kbd_desc,
	    1700000000000000000LL, r, 4), 4);
	memset(&ev, 0, sizeof ev);
	ev.kind = DRV_PROBE;
	ev.ts_ns = 1700000001000000000LL;
	ev.intf = 0;
	ev.minor = -1;
	ev.driver = "usbhid";
	for (k = 0; k < 2; k++) {
		/* k 0: no event written; k 1: one */
		assert_true((fd = mkstemps(path, 7)) >= 0);
		close(fd);
		assert_int_equal(cap_sink_open(path, NULL, NULL, &sink, err,
		    sizeof err), 0);
		for (i = 0; i < 4; i++)
			assert_int_equal(cap_sink_write(sink, &r[i]), 0);
		if (k == 1)
			assert_int_equal(cap_sink_write_event(sink, &ev), 0);
		cap_sink_set_stats(sink, &st, 1700000000000000000LL,
		    1700000005000000000LL);
		assert_int_equal(cap_sink_close(sink, err, sizeof err), 0);
		assert_int_equal(isb_of(path, 0, &recv, &drop), k + 1);
		assert_true(recv == 4 && drop == 0);
		(void)isb_of(path, 1, &recv, &drop);
		if (k == 0)
			assert_true(recv == UINT64_MAX);
		else
			assert_true(recv == 9 && drop == 2);
		unlink(path);
		memcpy(path + strlen(path) - 13, "XXXXXX", 6);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ring_advance),
		cmocka_unit_test(test_ring_walk),
		cmocka_unit_test(test_ring_damage),
		cmocka_unit_test(test_stats_accumulate),
		cmocka_unit_test(test_diagnose),
		cmocka_unit_test(test_live_name),
		cmocka_unit_test(test_synth_keyboard),
		cmocka_unit_test(test_synth_odd),
		cmocka_unit_test(test_source_read_fallback),
		cmocka_unit_test(test_source_text_fallback),
		cmocka_unit_test(test_pcapng_isb),
		cmocka_unit_test(test_pcapng_isb_events),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
