/*
 * capture/cap-live.c - live capture from the kernel's usbmon: the source
 * "usbmonN" (or "/dev/usbmonN"; N = 0 captures every bus).
 *
 * The best interface the kernel offers is used, and named in the stats:
 * the mmap ring ("mmap ring": ring size set to the largest the kernel
 * takes before mapping it read-only, MON_IOCX_MFETCH batches that flush
 * what the previous batch handed out, fillers skipped), else
 * MON_IOCX_GETX one event at a time ("GETX"), else read() with the 48-byte
 * header ("read"), else the debugfs text file ("text": at most 32 data
 * bytes an event).  The device is opened non-blocking and polled with a
 * 100 ms timeout, so next() returns CAP_AGAIN when nothing came and the
 * caller can look at its signals, redraw, or stop.  For tests, the
 * environment variable URBSCOPE_USBMON_METHOD (mmap, getx, read, text)
 * skips the better interfaces.  MON_IOCG_STATS resets
 * the kernel's drop count on every call: it is polled every second and
 * added up here.
 *
 * Before the first event from the bus, the source returns synthetic
 * GET_DESCRIPTOR records (REC_F_SYNTHETIC) for every device present, from
 * the descriptors sysfs keeps, so that class decoding works on a capture
 * started after enumeration; see cap_live_synth.
 *
 * Facts: Linux's Documentation/usb/usbmon.rst and drivers/usb/mon/mon_bin.c
 * (the binary interface, its ioctls, the mmap ring, drops); libpcap's
 * pcap-usb-linux.c (what libpcap does with them).
 */
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "capture.h"
#include "sysfs.h"

/* drivers/usb/mon/mon_bin.c: the ioctls and their arguments. */
struct mon_bin_stats {
	uint32_t	 queued;
	uint32_t	 dropped;
};

struct mon_bin_get {
	void		*hdr;
	void		*data;
	size_t		 alloc;
};

struct mon_bin_mfetch {
	uint32_t	*offvec;
	uint32_t	 nfetch;	/* in: max; out: fetched */
	uint32_t	 nflush;	/* in: to discard; out: discarded */
};

#define MON_IOC_MAGIC		0x92
#define MON_IOCQ_URB_LEN	_IO(MON_IOC_MAGIC, 1)
#define MON_IOCG_STATS		_IOR(MON_IOC_MAGIC, 3, struct mon_bin_stats)
#define MON_IOCT_RING_SIZE	_IO(MON_IOC_MAGIC, 4)
#define MON_IOCQ_RING_SIZE	_IO(MON_IOC_MAGIC, 5)
#define MON_IOCX_MFETCH		_IOWR(MON_IOC_MAGIC, 7, struct mon_bin_mfetch)
#define MON_IOCH_MFLUSH		_IO(MON_IOC_MAGIC, 8)
#define MON_IOCX_GETX		_IOW(MON_IOC_MAGIC, 10, struct mon_bin_get)

/* BUFF_MAX since Linux's "usb: mon: Increase BUFF_MAX to 64 MiB to
 * support multi-MB URBs" (2025; in 6.12's stable series), 1200 KiB
 * before */
#define RING_BIG	CAP_RING_MAX
#define RING_MAX	1228800
#define RING_MIN	CAP_RING_MIN
#define RING_ALIGN	64		/* PKT_ALIGN */
#define LIVE_VEC	128		/* offsets per MFETCH */
#define LIVE_POLL_MS	100
#define TEXT_NAP_MAX_MS	8		/* the text file's longest nap */
#define LIVE_EVENT_MAX	(RING_MAX / 5)	/* the kernel's per-event data cap */
#define LIVE_TEXT_LINE	4096
#define LIVE_SYNTH_MAX	(2 * 9)		/* device + 8 configurations */

enum live_method {
	LM_MMAP,
	LM_GETX,
	LM_READ,
	LM_TEXT,
};

static const char *const live_method_names[] = {
	"mmap ring", "GETX", "read", "text"
};

struct live_src {
	int		 fd;
	enum live_method method;
	unsigned	 bus;
	int		 regular;	/* a plain file (tests): EOF ends */

	/* mmap */
	uint8_t		*ring;
	size_t		 ring_size;
	uint32_t	 offvec[LIVE_VEC];
	struct cap_ring	 walk;

	/* GETX, read(), text */
	uint8_t		*buf;
	size_t		 bufsize;
	size_t		 buflen;	/* text: bytes buffered */
	size_t		 bufpos;	/* text: next line starts here */

	/* text: stamp unwrapping onto the wall clock */
	uint8_t		 tdata[32];
	struct urb_iso	 tiso[5];
	struct cap_unwrap unwrap;
	int64_t		 tbase_ns;	/* wall clock of stamp 0 */
	long		 tnap_ms;	/* next nap when the file is empty */

	struct cap_live_acc acc;
	uint64_t	 received;

	/* synthetic records, returned first */
	struct sysfs_usb_dev *devs;
	size_t		 ndevs;
	struct urb_rec	*synth;
	size_t		 nsynth, synth_next;

	struct urb_iso	 iso[URB_ISO_MAX];
};

static const char *live_root_set;
static size_t	 live_ring_want;	/* -B; 0: RING_BIG */

void
cap_live_set_ring(size_t bytes)
{
	live_ring_want = bytes;
}

void
cap_live_set_root(const char *root)
{
	live_root_set = root;
}

const char *
cap_live_root(void)
{
	const char	*e;

	if (live_root_set != NULL)
		return live_root_set;
	if ((e = getenv("URBSCOPE_SYSROOT")) != NULL)
		return e;
	return "";
}

static int
live_exists(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static int
live_exists(const char *fmt, ...)
{
	char		 path[512];
	struct stat	 sb;
	va_list		 ap;

	va_start(ap, fmt);
	vsnprintf(path, sizeof path, fmt, ap);
	va_end(ap);
	return stat(path, &sb) == 0;
}

int
cap_live_name(const char *name)
{
	const char	*p = name;
	struct stat	 sb;
	unsigned long	 n;
	char		*end;

	if (strncmp(p, "/dev/", 5) == 0)
		p += 5;
	if (strncmp(p, "usbmon", 6) != 0 || p[6] < '0' || p[6] > '9')
		return -1;
	errno = 0;
	n = strtoul(p + 6, &end, 10);
	if (*end != '\0' || errno != 0 || n > 255)
		return -1;
	/* "usbmon1" in the current directory is a file to read */
	if (stat(name, &sb) == 0 && S_ISREG(sb.st_mode) && p == name)
		return -1;
	return (int)n;
}

/* ------------------------------------------------------------------------
 * The pure parts: ring walking, drop accounting, messages, synthetic
 * records.
 */
uint32_t
cap_ring_advance(uint32_t off, uint32_t len_cap, size_t size)
{
	uint64_t	 next;

	next = (uint64_t)off + ((URB_HDR64 + (uint64_t)len_cap +
	    RING_ALIGN - 1) & ~(uint64_t)(RING_ALIGN - 1));
	return size == 0 ? 0 : (uint32_t)(next % size);
}

int
cap_ring_next(struct cap_ring *w, struct urb_iso *iso, struct urb_rec *r)
{
	const uint8_t	*p;
	uint64_t	 len, room;
	uint32_t	 off;

	while (w->i < w->n) {
		off = w->off[w->i++];
		w->consumed++;
		if ((uint64_t)off + URB_HDR64 > w->size) {
			w->bad++;
			continue;
		}
		p = w->base + off;
		if (p[8] == '@') {
			w->fillers++;
			continue;
		}
		/* the header is in host order: the kernel's */
		len = URB_HDR64 + (uint64_t)get_bo32(p + 36, !host_is_le());
		w->held += len;
		room = w->size - off;
		if (len > room) {
			cap_usbmon_packet(p, (uint32_t)room, (uint32_t)room,
			    URB_HDR64, 0, iso, r);
			r->flags |= REC_F_BADLEN;
		} else
			cap_usbmon_packet(p, (uint32_t)len, (uint32_t)len,
			    URB_HDR64, 0, iso, r);
		r->ts_ns = dec_ts_make(r->ts_sec, (int64_t)r->ts_usec * 1000);
		r->offset = off;
		return 1;
	}
	return 0;
}

int
cap_live_stats_due(const struct cap_live_acc *a, double now)
{
	return a->polls == 0 || now - a->last >= CAP_LIVE_STATS_EVERY;
}

void
cap_live_stats_add(struct cap_live_acc *a, uint32_t queued,
    uint32_t dropped, double now)
{
	a->dropped += dropped;
	a->queued = queued;
	a->polls++;
	a->last = now;
}

/* The buses sysfs knows, "1, 2", into buf; how many. */
static int
live_buses(const char *root, char *buf, size_t len)
{
	char		 path[512];
	DIR		*d;
	struct dirent	*de;
	unsigned	 bus, seen[256];
	int		 n = 0, i, j;
	size_t		 off = 0;

	buf[0] = '\0';
	snprintf(path, sizeof path, "%s/sys/bus/usb/devices", root);
	if ((d = opendir(path)) == NULL)
		return 0;
	while ((de = readdir(d)) != NULL && n < 256) {
		if (sscanf(de->d_name, "usb%u", &bus) == 1 && bus < 256)
			seen[n++] = bus;
	}
	closedir(d);
	for (i = 1; i < n; i++) {
		for (j = i; j > 0 && seen[j - 1] > seen[j]; j--) {
			bus = seen[j];
			seen[j] = seen[j - 1];
			seen[j - 1] = bus;
		}
	}
	for (i = 0; i < n && off < len; i++)
		off += (size_t)snprintf(buf + off, len - off, "%s%u",
		    i ? ", " : "", seen[i]);
	return n;
}

void
cap_live_diagnose(unsigned bus, int dev_err, int text_err, char *msg,
    size_t len)
{
	const char	*root = cap_live_root();
	char		 buses[256];
	int		 loaded, nbus;

	if (dev_err == EACCES || dev_err == EPERM || text_err == EACCES ||
	    text_err == EPERM) {
		snprintf(msg, len, "usbmon%u: permission denied: run as "
		    "root, or give group access with a udev rule: "
		    "SUBSYSTEM==\"usbmon\", GROUP=\"wireshark\", "
		    "MODE=\"0640\"", bus);
		return;
	}
	if (dev_err != ENOENT && dev_err != ENODEV && dev_err != ENXIO) {
		snprintf(msg, len, "%s/dev/usbmon%u: %s", root, bus,
		    strerror(dev_err));
		return;
	}
	loaded = live_exists("%s/dev/usbmon0", root) ||
	    live_exists("%s/sys/module/usbmon", root) ||
	    live_exists("%s/sys/kernel/debug/usb/usbmon", root);
	if (!loaded) {
		snprintf(msg, len, "usbmon%u: usbmon is not loaded: run "
		    "'modprobe usbmon' as root", bus);
		return;
	}
	nbus = live_buses(root, buses, sizeof buses);
	if (bus != 0 && !live_exists("%s/sys/bus/usb/devices/usb%u", root,
	    bus)) {
		if (nbus == 0)
			snprintf(msg, len, "usbmon%u: there is no USB bus %u: "
			    "this machine has no USB bus", bus, bus);
		else
			snprintf(msg, len, "usbmon%u: there is no USB bus %u; "
			    "the buses are %s (usbmon0 captures them all)",
			    bus, bus, buses);
		return;
	}
	if (!live_exists("%s/sys/kernel/debug/usb", root))
		snprintf(msg, len, "usbmon%u: %s/dev/usbmon%u is missing "
		    "(is devtmpfs mounted on /dev?) and the text interface "
		    "needs debugfs: mount -t debugfs none /sys/kernel/debug",
		    bus, root, bus);
	else
		snprintf(msg, len, "usbmon%u: neither %s/dev/usbmon%u nor "
		    "%s/sys/kernel/debug/usb/usbmon/%uu can be opened (%s): "
		    "is devtmpfs mounted on /dev?", bus, root, bus, root, bus,
		    strerror(text_err ? text_err : dev_err));
}

size_t
cap_live_synth(unsigned bus, unsigned devnum, const uint8_t *desc,
    size_t len, int64_t ts_ns, struct urb_rec *out, size_t max)
{
	struct urb_rec	*r;
	size_t		 n = 0, off, clen;
	unsigned	 i, ncfg;
	uint16_t	 total;

	if (len < 18 || desc[1] != 1)
		return 0;
	ncfg = desc[17];
	for (i = 0, off = 18; i <= ncfg && n + 2 <= max; i++) {
		if (i == 0) {
			clen = 18;
			total = 18;
		} else {
			if (len - off < 9 || desc[off + 1] != 2)
				break;
			total = get_le16(desc + off + 2);
			clen = total < len - off ? total : len - off;
			if (clen < 9)
				break;
		}
		/* 'S': the request, IN, no data yet */
		r = &out[n++];
		memset(r, 0, sizeof *r);
		r->id = CAP_SYNTH_ID(bus, devnum, i);
		r->type = 'S';
		r->xfer_type = XFER_CTRL;
		r->epnum = 0x80;
		r->devnum = (uint8_t)devnum;
		r->busnum = (uint16_t)bus;
		r->flag_setup = 0;
		r->flag_data = '<';
		r->status = -115;		/* -EINPROGRESS */
		r->len_urb = total;
		r->setup[0] = 0x80;
		r->setup[1] = 6;		/* GET_DESCRIPTOR */
		r->setup[2] = i == 0 ? 0 : (uint8_t)(i - 1);
		r->setup[3] = i == 0 ? 1 : 2;	/* DEVICE, CONFIGURATION */
		put_le16(r->setup + 6, total);
		r->xfer_flags = 0x200;		/* URB_DIR_IN */
		r->ts_ns = ts_ns;
		r->ts_sec = ts_ns / 1000000000;
		r->ts_usec = (int32_t)(ts_ns % 1000000000 / 1000);
		r->flags = REC_F_SYNTHETIC;
		/* the comment a pcapng file written from it gives it */
		r->comments = CAP_SYNTH_COMMENT;
		r->ncomments = 1;
		/* 'C': the descriptor as the device gave it at enumeration */
		out[n] = *r;
		r = &out[n++];
		r->type = 'C';
		r->flag_setup = '-';
		r->flag_data = 0;
		r->status = 0;
		r->len_urb = (uint32_t)clen;
		r->len_cap = (uint32_t)clen;
		memset(r->setup, 0, sizeof r->setup);
		r->data = i == 0 ? desc : desc + off;
		r->data_len = (uint32_t)clen;
		if (i > 0)
			off += clen;
	}
	return n;
}

/* ------------------------------------------------------------------------
 * The source.
 */
static int
live_probe(const char *name, const uint8_t *head, size_t n)
{
	(void)head;
	if (n != 0 || cap_live_name(name) < 0)
		return 0;
	return 200;
}

/* The synthetic records of the devices on this bus (all for bus 0). */
static void
live_synth_build(struct live_src *ls)
{
	char		 root[512], err[256];
	size_t		 i, n = 0;
	int64_t		 now;

	snprintf(root, sizeof root, "%s/sys", cap_live_root());
	if (sysfs_usb_scan(root, &ls->devs, &ls->ndevs, err, sizeof err) != 0)
		return;	/* no sysfs: no synthetic records, nothing else */
	if (ls->ndevs == 0)
		return;
	if ((ls->synth = calloc(ls->ndevs * LIVE_SYNTH_MAX,
	    sizeof *ls->synth)) == NULL)
		return;
	now = cap_clock_ns(CLOCK_REALTIME);
	for (i = 0; i < ls->ndevs; i++) {
		if (ls->bus != 0 && ls->devs[i].busnum != ls->bus)
			continue;
		n += cap_live_synth(ls->devs[i].busnum, ls->devs[i].devnum,
		    ls->devs[i].desc, ls->devs[i].desclen, now,
		    ls->synth + n, LIVE_SYNTH_MAX);
	}
	ls->nsynth = n;
}

/* The ring, as large as the kernel takes, mapped read-only. */
static int
live_try_mmap(struct live_src *ls)
{
	struct mon_bin_mfetch	 mf;
	long			 size, want;
	void			*p;

	/* the largest the kernel takes unless told (-B): bursts wait
	 * there, not lost; refused, the largest it takes below */
	want = live_ring_want != 0 ? (long)live_ring_want : RING_BIG;
	if (ioctl(ls->fd, MON_IOCT_RING_SIZE, want) != 0) {
		if (errno == ENOTTY)
			return -1;
		for (size = want < RING_MAX ? want : RING_MAX;
		    size >= RING_MIN; size /= 2)
			if (ioctl(ls->fd, MON_IOCT_RING_SIZE, size) == 0)
				break;
	}
	if ((size = ioctl(ls->fd, MON_IOCQ_RING_SIZE)) <= 0)
		return -1;
	/* populated now: a page first touched under load is a fault the
	 * reader takes while the ring fills (16384 of them in 64 MiB) */
	p = mmap(NULL, (size_t)size, PROT_READ, MAP_SHARED | MAP_POPULATE,
	    ls->fd, 0);
	if (p == MAP_FAILED)
		return -1;
	/* does MFETCH work?  nfetch 0 takes and discards nothing */
	memset(&mf, 0, sizeof mf);
	mf.offvec = ls->offvec;
	if (ioctl(ls->fd, MON_IOCX_MFETCH, &mf) == -1 && errno != EAGAIN &&
	    errno != EINTR) {
		munmap(p, (size_t)size);
		return -1;
	}
	ls->ring = p;
	ls->ring_size = (size_t)size;
	ls->walk.base = ls->ring;
	ls->walk.size = ls->ring_size;
	ls->walk.off = ls->offvec;
	return 0;
}

static int
live_open_text(struct cap_source *src, struct live_src *ls)
{
	char		 path[512];
	struct stat	 sb;

	snprintf(path, sizeof path, "%s/sys/kernel/debug/usb/usbmon/%uu",
	    cap_live_root(), ls->bus);
	if ((ls->fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)) == -1)
		return -errno;
	ls->method = LM_TEXT;
	ls->regular = fstat(ls->fd, &sb) == 0 && S_ISREG(sb.st_mode) &&
	    sb.st_size > 0;
	ls->bufsize = LIVE_TEXT_LINE;
	if ((ls->buf = malloc(ls->bufsize)) == NULL)
		return cap_error(src, UE_NOMEM, 0, 0, "%s", ue_strerror(
		    UE_NOMEM));
	return 0;
}

static int
live_open(struct cap_source *src)
{
	struct live_src	*ls = src->priv;
	struct stat	 sb;
	const char	*force;
	char		 path[512], msg[400];
	int		 dev_err, text_err = 0, rc;

	ls->fd = -1;
	ls->bus = (unsigned)cap_live_name(src->name);
	src->live = 1;
	snprintf(path, sizeof path, "%s/dev/usbmon%u", cap_live_root(),
	    ls->bus);
	if ((ls->fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)) == -1) {
		dev_err = errno;
		if (dev_err == ENOENT || dev_err == ENODEV || dev_err == ENXIO) {
			if ((rc = live_open_text(src, ls)) == 0)
				goto synth;
			if (rc == -UE_NOMEM)
				return rc;
			text_err = -rc;
		}
		cap_live_diagnose(ls->bus, dev_err, text_err, msg, sizeof msg);
		snprintf(src->err, sizeof src->err, "%s", msg);
		return -UE_OPEN;
	}
	ls->regular = fstat(ls->fd, &sb) == 0 && S_ISREG(sb.st_mode);

	/* tests make the kernel run prove each fallback */
	force = getenv("URBSCOPE_USBMON_METHOD");
	if (force != NULL && strcmp(force, "text") == 0) {
		close(ls->fd);
		if ((rc = live_open_text(src, ls)) == 0)
			goto synth;
		if (rc == -UE_NOMEM)
			return rc;
		cap_live_diagnose(ls->bus, ENOENT, -rc, msg, sizeof msg);
		snprintf(src->err, sizeof src->err, "%s", msg);
		return -UE_OPEN;
	}
	if (!ls->regular && (force == NULL || strcmp(force, "mmap") == 0) &&
	    live_try_mmap(ls) == 0)
		ls->method = LM_MMAP;
	else {
		/* GETX asks for the 64-byte header; read() gets 48 */
		ls->method = !ls->regular && (force == NULL ||
		    strcmp(force, "read") != 0) &&
		    ioctl(ls->fd, MON_IOCQ_URB_LEN) >= 0 ? LM_GETX : LM_READ;
		/* a ring made larger by live_try_mmap keeps more an event */
		rc = ioctl(ls->fd, MON_IOCQ_RING_SIZE);
		ls->bufsize = URB_HDR64 + (rc / 5 > LIVE_EVENT_MAX ? rc / 5 :
		    LIVE_EVENT_MAX);
		if ((ls->buf = malloc(ls->bufsize)) == NULL)
			return cap_error(src, UE_NOMEM, 0, 0, "%s",
			    ue_strerror(UE_NOMEM));
	}
synth:
	live_synth_build(ls);
	return 0;
}

static void
live_poll_stats(struct live_src *ls, int force)
{
	struct mon_bin_stats	 st;
	double			 now = cap_clock_s();

	if (ls->method == LM_TEXT || ls->regular)
		return;
	if (!force && !cap_live_stats_due(&ls->acc, now))
		return;
	if (ioctl(ls->fd, MON_IOCG_STATS, &st) == 0)
		cap_live_stats_add(&ls->acc, st.queued, st.dropped, now);
	else
		ls->acc.last = now;	/* not again before a second */
}

/* Wait up to LIVE_POLL_MS for the device: 1 readable, 0 not yet. */
static int
live_wait(struct live_src *ls)
{
	struct pollfd	 pfd;
	int		 rc;

	pfd.fd = ls->fd;
	pfd.events = POLLIN;
	pfd.revents = 0;
	rc = poll(&pfd, 1, LIVE_POLL_MS);
	return rc > 0 && (pfd.revents & (POLLIN | POLLERR | POLLHUP)) != 0;
}

static int
live_fail(struct cap_source *src, const char *what)
{
	return cap_error(src, UE_IO, 0, 0, "%s (%s): %s", what,
	    live_method_names[((struct live_src *)src->priv)->method],
	    strerror(errno));
}

static int
live_next_mmap(struct cap_source *src, struct urb_rec *r)
{
	struct live_src		*ls = src->priv;
	struct mon_bin_mfetch	 mf;
	int			 waited = 0;

	for (;;) {
		/*
		 * What the caller is done with goes back to the kernel once
		 * it is worth the call (1/16 of the ring), not only with the
		 * next batch: a batch held whole keeps the ring full while
		 * it is written out, and what comes meanwhile is dropped.
		 * (libpcap frees each packet after its callback: dumpcap
		 * dispatches one at a time.)
		 */
		if (ls->walk.consumed > 0 && ls->walk.i < ls->walk.n &&
		    ls->walk.held >= ls->ring_size / 16 &&
		    ioctl(ls->fd, MON_IOCH_MFLUSH, ls->walk.consumed) >= 0) {
			ls->walk.consumed = 0;
			ls->walk.held = 0;
		}
		if (cap_ring_next(&ls->walk, ls->iso, r) == 1)
			return CAP_URB;
		mf.offvec = ls->offvec;
		mf.nfetch = LIVE_VEC;
		mf.nflush = ls->walk.consumed;
		if (ioctl(ls->fd, MON_IOCX_MFETCH, &mf) == 0) {
			ls->walk.consumed = 0;
			ls->walk.held = 0;
			ls->walk.i = 0;
			ls->walk.n = mf.nfetch < LIVE_VEC ? mf.nfetch :
			    LIVE_VEC;
			if (ls->walk.n > 0)
				continue;
			if (waited || !live_wait(ls))
				return CAP_AGAIN;
			waited = 1;
			continue;
		}
		if (errno != EAGAIN && errno != EINTR)
			return live_fail(src, "MON_IOCX_MFETCH");
		/* the flush runs before the wait: what was seen is gone */
		ls->walk.consumed = ls->walk.i = ls->walk.n = 0;
		ls->walk.held = 0;
		if (errno == EINTR || waited || !live_wait(ls))
			return CAP_AGAIN;
		waited = 1;
	}
}

static int
live_next_getx(struct cap_source *src, struct urb_rec *r)
{
	struct live_src		*ls = src->priv;
	struct mon_bin_get	 g;
	uint32_t		 cap;
	int			 waited = 0;

	for (;;) {
		g.hdr = ls->buf;
		g.data = ls->buf + URB_HDR64;
		g.alloc = ls->bufsize - URB_HDR64;
		if (ioctl(ls->fd, MON_IOCX_GETX, &g) == 0)
			break;
		if (errno == ENOTTY || errno == EINVAL) {
			/* no GETX (before 2.6.31): read() from now on */
			ls->method = LM_READ;
			return CAP_AGAIN;
		}
		if (errno != EAGAIN && errno != EINTR)
			return live_fail(src, "MON_IOCX_GETX");
		if (errno == EINTR || waited || !live_wait(ls))
			return CAP_AGAIN;
		waited = 1;
	}
	cap = get_bo32(ls->buf + 36, !host_is_le());
	if (cap > g.alloc)
		cap = (uint32_t)g.alloc;
	cap_usbmon_packet(ls->buf, URB_HDR64 + cap, URB_HDR64 + cap,
	    URB_HDR64, 0, ls->iso, r);
	r->ts_ns = dec_ts_make(r->ts_sec, (int64_t)r->ts_usec * 1000);
	return CAP_URB;
}

/* read() exactly n bytes of one event (the rest of it never blocks). */
static ssize_t
live_read_full(struct live_src *ls, uint8_t *p, size_t n)
{
	size_t	 got = 0;
	ssize_t	 w;

	while (got < n) {
		w = read(ls->fd, p + got, n - got);
		if (w == -1 && errno == EINTR)
			continue;
		if (w == -1 && errno == EAGAIN && got > 0) {
			(void)live_wait(ls);
			continue;
		}
		if (w <= 0)
			return got > 0 ? (ssize_t)got : w;
		got += (size_t)w;
	}
	return (ssize_t)got;
}

static int
live_next_read(struct cap_source *src, struct urb_rec *r)
{
	struct live_src	*ls = src->priv;
	uint32_t	 cap;
	ssize_t		 n;

	/*
	 * A header, then the event's len_cap bytes: a short buffer gets the
	 * rest of the event on the next read(), and a read never spans two
	 * events (mon_bin.c mon_bin_read), so this also reads a saved stream.
	 */
	n = live_read_full(ls, ls->buf, URB_HDR48);
	if (n == -1 && errno == EAGAIN) {
		if (!live_wait(ls))
			return CAP_AGAIN;
		n = live_read_full(ls, ls->buf, URB_HDR48);
		if (n == -1 && (errno == EAGAIN || errno == EINTR))
			return CAP_AGAIN;
	}
	if (n == -1 && errno == EINTR)
		return CAP_AGAIN;
	if (n == -1)
		return live_fail(src, "read");
	if (n == 0)
		return ls->regular ? CAP_END : CAP_AGAIN;
	if (n < URB_HDR48)
		return cap_error(src, UE_TRUNCATED, src->recno + 1, 0, "an "
		    "event header of %zd bytes", n);
	cap = get_bo32(ls->buf + 36, !host_is_le());
	if (cap > ls->bufsize - URB_HDR48)
		return cap_error(src, UE_BADREC, src->recno + 1, 0, "len_cap "
		    "%" PRIu32 " is larger than any event", cap);
	n = live_read_full(ls, ls->buf + URB_HDR48, cap);
	if (n < 0)
		return live_fail(src, "read");
	cap_usbmon_packet(ls->buf, URB_HDR48 + (uint32_t)n, URB_HDR48 + cap,
	    URB_HDR48, 0, ls->iso, r);
	r->ts_ns = dec_ts_make(r->ts_sec, (int64_t)r->ts_usec * 1000);
	return CAP_URB;
}

/* One text line into r; 1 done, 0 no line yet, <0 error. */
static int
live_text_line(struct cap_source *src, struct urb_rec *r)
{
	struct live_src	*ls = src->priv;
	char		*line, *nl;
	size_t		 len, col;
	uint32_t	 stamp;
	uint64_t	 us;

	for (;;) {
		line = (char *)ls->buf + ls->bufpos;
		nl = memchr(line, '\n', ls->buflen - ls->bufpos);
		if (nl == NULL)
			return 0;
		len = (size_t)(nl - line);
		ls->bufpos += len + 1;
		if (len > 0 && line[len - 1] == '\r')
			len--;
		if (len > 0)
			break;
	}
	if (dec_usbmon_text(line, len, r, ls->tdata, ls->tiso, &col) != 0)
		return cap_error(src, UE_SYNTAX, src->recno + 1, 0, "the "
		    "kernel's text line does not parse at column %zu", col + 1);
	/*
	 * The stamp is microseconds modulo 4096 s of a monotonic clock:
	 * unwrap it as the text reader does and put the first event at
	 * the wall-clock time it was read.
	 */
	stamp = (uint32_t)(r->ts_sec * 1000000 + r->ts_usec);
	if (!ls->unwrap.have_prev)
		ls->tbase_ns = cap_clock_ns(CLOCK_REALTIME) -
		    (int64_t)stamp * 1000;
	us = cap_text_unwrap(&ls->unwrap, stamp);
	r->ts_ns = ls->tbase_ns + (int64_t)(us * 1000);
	r->ts_sec = r->ts_ns / 1000000000;
	r->ts_usec = (int32_t)(r->ts_ns % 1000000000 / 1000);
	return 1;
}

static int
live_next_text(struct cap_source *src, struct urb_rec *r)
{
	struct live_src	*ls = src->priv;
	struct timespec	 nap;
	ssize_t		 n;
	int		 rc;

	for (;;) {
		if ((rc = live_text_line(src, r)) != 0)
			return rc < 0 ? rc : CAP_URB;
		/* keep the partial line, make room after it */
		if (ls->bufpos > 0) {
			memmove(ls->buf, ls->buf + ls->bufpos,
			    ls->buflen - ls->bufpos);
			ls->buflen -= ls->bufpos;
			ls->bufpos = 0;
		}
		if (ls->buflen == ls->bufsize)
			return cap_error(src, UE_SYNTAX, src->recno + 1, 0,
			    "a text line longer than %zu bytes", ls->bufsize);
		n = read(ls->fd, ls->buf + ls->buflen, ls->bufsize -
		    ls->buflen);
		if (n > 0) {
			ls->buflen += (size_t)n;
			ls->tnap_ms = 1;
			continue;
		}
		if (n == 0 && ls->regular)
			return CAP_END;
		if (n == -1 && errno != EAGAIN && errno != EINTR)
			return live_fail(src, "read");
		/*
		 * The text file cannot be polled: nap, then say so.  The
		 * kernel keeps few events a text reader (mon_text.c's
		 * EVENT_MAX) and drops the rest unsaid, so naps start short
		 * after traffic and grow while the bus is quiet, to
		 * TEXT_NAP_MAX_MS: a burst after a quiet spell (a 4 KiB dd
		 * is a hundred events) must not outrun a long nap.
		 */
		if (ls->tnap_ms < 1)
			ls->tnap_ms = 1;
		nap.tv_sec = 0;
		nap.tv_nsec = ls->tnap_ms * 1000000L;
		nanosleep(&nap, NULL);
		if (ls->tnap_ms < TEXT_NAP_MAX_MS)
			ls->tnap_ms *= 2;
		return CAP_AGAIN;
	}
}

static int
live_next(struct cap_source *src, struct urb_rec *r, struct drv_event *ev)
{
	struct live_src	*ls = src->priv;
	int		 rc;

	(void)ev;
	if (ls->synth_next < ls->nsynth) {
		*r = ls->synth[ls->synth_next++];
		return CAP_URB;
	}
	/* in the middle of an mmap batch no clock is read: it ends soon */
	if (ls->method != LM_MMAP || ls->walk.i >= ls->walk.n)
		live_poll_stats(ls, 0);
	switch (ls->method) {
	case LM_MMAP:
		rc = live_next_mmap(src, r);
		break;
	case LM_GETX:
		rc = live_next_getx(src, r);
		break;
	case LM_READ:
		rc = live_next_read(src, r);
		break;
	default:
		rc = live_next_text(src, r);
		break;
	}
	if (rc == CAP_URB)
		ls->received++;
	return rc;
}

static int
live_stats(struct cap_source *src, struct cap_stats *st)
{
	struct live_src	*ls = src->priv;

	live_poll_stats(ls, 1);
	st->received = ls->received;
	st->dropped = ls->acc.dropped;
	st->method = live_method_names[ls->method];
	st->ring_bytes = ls->ring_size;
	return 0;
}

static void
live_close(struct cap_source *src)
{
	struct live_src		*ls = src->priv;

	if (ls->ring != NULL) {
		/* closing frees the reader's ring: no MFLUSH needed */
		munmap(ls->ring, ls->ring_size);
		ls->ring = NULL;
	}
	if (ls->fd != -1)
		close(ls->fd);
	ls->fd = -1;
	free(ls->buf);
	ls->buf = NULL;
	free(ls->synth);
	ls->synth = NULL;
	sysfs_usb_free(ls->devs, ls->ndevs);
	ls->devs = NULL;
	ls->ndevs = 0;
}

const struct cap_source_ops cap_live_source = {
	.name = "usbmon-live",
	.desc = "live capture: usbmonN or /dev/usbmonN (0 = every bus)",
	.probe = live_probe,
	.priv_size = sizeof(struct live_src),
	.open = live_open,
	.next = live_next,
	.close = live_close,
	.stats = live_stats,
};
