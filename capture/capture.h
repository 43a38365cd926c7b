/*
 * capture/capture.h - sources and sinks of records.
 *
 * A source turns a file, a stream or (later) a live bus or the simulator
 * into URB records and driver events; a sink writes them out.  Each is a
 * const ops table; a registry picks the source that claims a name or a
 * file's first bytes, and the sink for a format name or file extension.
 *
 * Sources read through struct cap_in, a buffered reader that works on
 * files, pipes and standard input alike and keeps the byte offset of every
 * record so errors can say where they are.  Memory does not grow with the
 * input's size.
 */
#ifndef CAPTURE_H
#define CAPTURE_H

#include <stdio.h>
#include <time.h>

#include "../decode/decode.h"

/* ------------------------------------------------------------------------
 * Clocks: live sources, pacing and progress lines.
 */
static inline int64_t
cap_clock_ns(clockid_t clock)
{
	struct timespec	 ts;

	clock_gettime(clock, &ts);
	return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* Seconds on the monotonic clock, for progress lines. */
static inline double
cap_clock_s(void)
{
	return (double)cap_clock_ns(CLOCK_MONOTONIC) / 1e9;
}

/* ------------------------------------------------------------------------
 * Buffered input (capture/cap-in.c).
 */
struct cap_in {
	int		 fd;
	int		 own_fd;	/* close fd on cap_in_close */
	uint8_t		*buf;
	size_t		 size;		/* allocated */
	size_t		 pos;		/* next unread byte in buf */
	size_t		 end;		/* bytes valid in buf */
	uint64_t	 base;		/* input offset of buf[0] */
	int		 eof;
	int		 err;		/* errno of a failed read, or 0 */
	/* a gzip or zstd file: buf holds the decompressed bytes, and
	 * offsets are in that (cap-in.c); NULL for any other input */
	struct cap_gz	*gz;
	/* a large uncompressed regular file, once seeked, is mapped
	 * whole: buf is the mapping, end its size, and nothing is read or
	 * copied; the pages of buf[0..dropped) were read and given back;
	 * spare is the buffer read before (cap-in.c) */
	int		 mapped;
	size_t		 dropped;
	uint8_t		*spare;
	int		 shrank;	/* the file got shorter under us */
};

/*
 * Open path ("-" = standard input).  Returns 0 or -UE_OPEN (errno kept).
 * A regular file of 1 MiB or more is mapped (mmap(2)) on its first seek
 * (cap_in_seek), with the size it has then: bytes appended later are not
 * seen, and a file truncated while it is read raises SIGBUS
 * (cap_in_sigbus() makes that a message).  Read forward only, it is read.
 * A gzip file (magic 1f 8b, as Wireshark's .pcap.gz and .pcapng.gz) or a
 * Zstandard one (28 b5 2f fd, .zst) is read decompressed, transparently;
 * it cannot seek.
 */
int		 cap_in_open(struct cap_in *in, const char *path);
void		 cap_in_close(struct cap_in *in);
/* What a read error was, as text: strerror(err), or that the file shrank. */
const char	*cap_in_strerror(const struct cap_in *in);
/*
 * Make n bytes available at *p without consuming them.  Returns the number
 * available (n, or fewer at end of input), or -UE_IO.  Grows the buffer
 * when n is larger than it (records can be large).
 */
long		 cap_in_peek_more(struct cap_in *in, size_t n, const uint8_t **p);
/* A mapping's pages this far behind the reader are kept (cap-in.c). */
#define CAP_MAP_KEEP	(1024 * 1024)

/* cap_in_peek_more when it has anything to do: inline, as a reader peeks
 * twice a record, mostly at bytes that are there. */
static inline long
cap_in_peek(struct cap_in *in, size_t n, const uint8_t **p)
{
	if (in->end - in->pos >= n &&
	    (!in->mapped || in->pos - in->dropped < 2 * CAP_MAP_KEEP)) {
		*p = in->buf + in->pos;
		return (long)n;
	}
	return cap_in_peek_more(in, n, p);
}
/*
 * Ask the cache for the bytes CAP_AHEAD past the record of n bytes at p,
 * as many as it holds (up to 512: a decoder reads the start of a
 * payload): the records that follow are there by the time they are read.
 * Without it, reading a mapped file, the first load of every record
 * waited for memory (perf: half of pcap_next's samples), which the
 * hardware's own prefetch did not hide; read FILE of the bench capture
 * took ~10% less time with it, the text form and the quiet one alike.  A
 * prefetch never faults, past the end of the input either.
 */
#define CAP_AHEAD	2048
#define CAP_LINE	64

static inline void
cap_in_prefetch(const uint8_t *p, size_t n)
{
	uintptr_t a = (uintptr_t)p + CAP_AHEAD;
	uintptr_t e = a + (n < 512 ? n : 512);

	for (; a < e; a += CAP_LINE)
		__builtin_prefetch((const void *)a);
}
/* Read on from offset off of a regular file: 0, or -UE_IO. */
int		 cap_in_seek(struct cap_in *in, uint64_t off);
/* Consume n bytes (n must not exceed what the last peek returned). */
void		 cap_in_skip(struct cap_in *in, size_t n);
/*
 * Install a SIGBUS handler that says a mapped input shrank while it was
 * read and exits with status 2, instead of dying with a core (the
 * commands call it once; a library user may keep its own handler).
 */
void		 cap_in_sigbus(void);
/* Input offset of the next unread byte. */
static inline uint64_t
cap_in_offset(const struct cap_in *in)
{
	return in->base + in->pos;
}

/* ------------------------------------------------------------------------
 * Sources.
 */
struct cap_source;

/* What cap_next returns besides errors. */
enum {
	CAP_END = 0,
	CAP_URB = 1,		/* *r filled */
	CAP_EVENT = 2,		/* *ev filled */
	/*
	 * A live source (usbmonN, a paced simulation) had nothing new within
	 * its poll interval (at most 100 ms): call again.  File sources never
	 * return it.
	 */
	CAP_AGAIN = 3,
};

/* Health of a live source, for status bars and summaries. */
struct cap_stats {
	uint64_t	 received;	/* records delivered */
	uint64_t	 dropped;	/* lost by the kernel, accumulated */
	const char	*method;	/* "mmap ring", "GETX", "read", "text" */
	uint64_t	 ring_bytes;	/* the mmap ring's size, or 0 */
	/* a source that traces drivers (capture --drivers): the events it
	 * traced and those lost (ring buffer full, calls missed) */
	int		 have_events;
	uint64_t	 ev_received;
	uint64_t	 ev_dropped;
};

struct cap_source_ops {
	const char	*name;		/* "pcap", "pcapng", "usbmon-text" ... */
	const char	*desc;		/* one line for --help */
	/*
	 * Does this backend claim the source?  name is what the user typed,
	 * head/n the first bytes of the input (n may be 0 for a name that
	 * is not a file, e.g. "sim:x").  Returns a score, 0 = not mine;
	 * the highest score wins.  Required.
	 */
	int		 (*probe)(const char *name, const uint8_t *head,
			     size_t n);
	/* Size of the private data that follows the common struct. */
	size_t		 priv_size;
	/*
	 * Read the file header.  src->in is open at offset 0.  Returns 0,
	 * or a negative error with src->err set.  Required.
	 */
	int		 (*open)(struct cap_source *src);
	/*
	 * The next record: CAP_URB with *r filled (data pointers valid until
	 * the next call), CAP_EVENT with *ev filled, CAP_END, or a negative
	 * error with src->err set (the source stays usable only for close).
	 * Required.
	 */
	int		 (*next)(struct cap_source *src, struct urb_rec *r,
			     struct drv_event *ev);
	/* Free private resources.  Optional. */
	void		 (*close)(struct cap_source *src);
	/* Live health (drops polled and accumulated).  Optional. */
	int		 (*stats)(struct cap_source *src, struct cap_stats *st);
	/*
	 * Coming back to a place between two records (cap_mark, cap_seek):
	 * mark copies what the backend needs beyond the file header it read
	 * at open (NULL and *err 0 when it needs nothing), seek puts a
	 * freshly opened source's state back, mark_free drops a copy.
	 * Optional: a backend without seek cannot be marked.
	 */
	void		*(*mark)(struct cap_source *src, int *err);
	int		 (*seek)(struct cap_source *src, const void *state);
	void		 (*mark_free)(void *state);
};

struct cap_source {
	const struct cap_source_ops *ops;
	const char	*name;		/* as opened */
	struct cap_in	 in;
	uint32_t	 linktype;	/* for pcap/pcapng, else 0 */
	uint64_t	 recno;		/* records returned so far */
	uint64_t	 skipped;	/* packets passed over (foreign
					   interfaces): frame numbers count
					   them, as Wireshark's do */
	/*
	 * The packets passed over just before the record cap_next returned
	 * (or before the end it returned): how many, and the times of the
	 * first and the last (DEC_TS_BAD when a packet has none).
	 * frame.time_relative counts from the file's first frame and
	 * frame.time_delta from the frame before, skipped or not, as
	 * Wireshark's do.
	 */
	uint64_t	 gap;
	int64_t		 gap_first_ns;
	int64_t		 gap_last_ns;
	char		 err[512];	/* last error, with record and offset */
	char		 note[600];	/* what was skipped, said at the end */
	int		 live;		/* may return CAP_AGAIN; cannot rewind */
	void		*priv;		/* priv_size bytes after this struct */
};

/*
 * A place between two records of a file, to come back to without reading
 * it again from the start (the TUI's checkpoints).
 */
struct cap_mark {
	uint64_t	 offset;	/* of the next record in the input */
	uint64_t	 recno;		/* records returned before it */
	uint64_t	 skipped;	/* packets passed over before it */
	const struct cap_source_ops *ops;
	void		*state;		/* the backend's, or NULL */
};

/* Where src is now: 0, or -UE_NOTSUP (a pipe, a live source, a backend
 * without seek) or -UE_NOMEM. */
int		 cap_mark(struct cap_source *src, struct cap_mark *m);
/* Go back (or forth) to m in src, a source of the same file opened
 * afresh and not yet read: 0, or a negative error with src->err set. */
int		 cap_seek(struct cap_source *src, const struct cap_mark *m);
void		 cap_mark_free(struct cap_mark *m);

/* All sources, NULL-terminated. */
extern const struct cap_source_ops *const cap_sources[];

/*
 * Open a source by name: a file path, "-" for standard input, later
 * "usbmonN" or "sim:NAME".  The backend is chosen by content, not by
 * extension.  On failure returns a negative error and writes a message
 * naming the input into err.
 */
int		 cap_open(const char *name, struct cap_source **out,
		     char *err, size_t errlen);
/* See cap_source_ops.next.  After an error, src->err says what and where. */
int		 cap_next(struct cap_source *src, struct urb_rec *r,
		     struct drv_event *ev);
void		 cap_close(struct cap_source *src);
/* Fill *st (zeroes and method NULL when the source has no stats op). */
void		 cap_stats(struct cap_source *src, struct cap_stats *st);
/*
 * Add a source a layer above supplies (the simulator's "sim:" names,
 * hcd/sim-source.c) to the registry: 0, or -UE_FULL past
 * CAP_MAX_EXTRA_SOURCES.  Registering the same ops twice is a no-op.
 */
#define CAP_MAX_EXTRA_SOURCES	4
int		 cap_source_register(const struct cap_source_ops *ops);

/* A backend passed over a packet of time ts_ns (DEC_TS_BAD: none) that
 * is a frame of the file but no record: it counts in frame numbers and
 * times (cap_source.skipped, .gap). */
void		 cap_skip(struct cap_source *src, int64_t ts_ns);
/*
 * Format a source error into src->err: "FILE: record N at offset O: what"
 * and return -code.  For backends.
 */
int		 cap_error(struct cap_source *src, int code, uint64_t recno,
		     uint64_t offset, const char *fmt, ...)
		     __attribute__((format(printf, 5, 6)));

/*
 * For the pcap and pcapng readers (capture/cap-pcap.c): the name of a
 * link type ("EN10MB", "USBPCAP") or NULL; the sentence saying which link
 * types urbscope reads; and one packet of link type 189 (hdr_len 48) or
 * 220 (64) of caplen bytes, originally len, decoded into r (zeroed first)
 * with iso as storage for URB_ISO_MAX descriptors.  A body cut short by
 * the snaplen (caplen < len) is REC_F_TRUNC, not REC_F_BADLEN.  caplen
 * must be at least hdr_len.
 */
const char	*cap_linktype_name(uint32_t linktype);
extern const char cap_linktypes_read[];
extern const char cap_linktypes_written[];
void		 cap_usbmon_packet(const uint8_t *p, uint32_t caplen,
		     uint32_t len, size_t hdr_len, int swap,
		     struct urb_iso *iso, struct urb_rec *r);

/*
 * LINKTYPE_USBPCAP (249) packets (capture/cap-usbpcap.c).  One packet of
 * caplen bytes, originally len, into r (zeroed first; iso is storage for
 * URB_ISO_MAX packets): 0, or -UE_BADREC with *why saying what is wrong.
 * enc_usbpcap_prefix writes what goes before r->data in a USBPcap packet
 * (the header, and a setup stage's SETUP packet) into out, which must hold
 * USBPCAP_HDR_ISO + 12 * URB_ISO_MAX bytes, and returns its length; a
 * record read from USBPcap comes out as it was read.
 * cap_usbpcap_expressible: has r a USBPcap packet (a usbmon record has
 * one unless its transfer type is none of the four)?  What a USBPcap
 * record becomes in usbmon is cap_sink_write's choice.
 */
int		 cap_usbpcap_packet(const uint8_t *p, uint32_t caplen,
		     uint32_t len, struct urb_iso *iso, struct urb_rec *r,
		     const char **why);
size_t		 enc_usbpcap_prefix(const struct urb_rec *r, uint8_t *out);

/*
 * LINKTYPE_USB_DARWIN (266) packets (capture/cap-darwin.c), as
 * cap_usbpcap_packet: one packet into r (iso holds URB_ISO_MAX frames).
 * enc_darwin_prefix writes what goes before r->data in the packet (the
 * header as read, and a control submit's SETUP packet) into out, which
 * must hold DARWIN_HDR + 8 bytes, and returns its length.  A record
 * written as 266 must have been read from 266 (a header longer than 32
 * bytes loses its extra bytes).
 */
int		 cap_darwin_packet(const uint8_t *p, uint32_t caplen,
		     uint32_t len, struct urb_iso *iso, struct urb_rec *r,
		     const char **why);
size_t		 enc_darwin_prefix(const struct urb_rec *r, uint8_t *out);

/*
 * Bus-level packets of LINKTYPE_USB_2_0 (288) and 293-295
 * (capture/cap-usbll.c): a reader keeps one cap_usbll, which puts
 * packets together into transactions and transfers.  cap_usbll_packet
 * reads one packet of caplen bytes at p into r (zeroed first; r points
 * into p and into st until the next call).  cap_usbll_linktype: is it one
 * of these link types?
 */
struct cap_usbll;
struct cap_usbll *cap_usbll_new(uint32_t linktype);
/*
 * What a pcap or pcapng writer puts in a packet of link type lt for r:
 * the prefix written into pre (URB_HDR64 + 16 * URB_ISO_MAX bytes; swap:
 * the other byte order for usbmon's header), its length, the bytes after
 * it, and the packet's captured and original lengths.  Returns npre.
 */
uint32_t	 cap_packet_layout(uint32_t lt, const struct urb_rec *r,
		     int swap, uint8_t *pre, const uint8_t **data,
		     uint64_t *total, uint64_t *orig);
void		 cap_usbll_free(struct cap_usbll *st);
struct cap_usbll *cap_usbll_clone(const struct cap_usbll *st);	/* marks */
int		 cap_usbll_linktype(uint32_t linktype);
int		 cap_usbll_packet(struct cap_usbll *st, const uint8_t *p,
		     uint32_t caplen, struct urb_rec *r);
/*
 * A sniffer's bus event (what, BUS_EV_*) for the packets after it: a
 * bus reset ends every transfer and forgets every address's endpoints
 * (USB 2.0 9.1.1.3: the devices are back at the default address, not
 * configured); a detected speed (USBLL_SPEED_*) sizes the packets of
 * endpoints whose descriptors were not seen.  Others change nothing.
 */
void		 cap_usbll_bus(struct cap_usbll *st, int what, uint8_t speed);
int		 cap_usbpcap_expressible(const struct urb_rec *r);

/*
 * Writing USBPcap records as usbmon (a sink of link type 220 or text, and
 * read -T usbmon): cap_usbmon_skip says whether r has no usbmon event of
 * its own and counts it by kind; records of usbmon origin always pass.
 */
struct cap_as_usbmon {
	uint64_t	 drop_irp;	/* IRPs with no transfer */
	uint64_t	 drop_stage;	/* OUT data stages */
	uint64_t	 drop_status;	/* status stages after an IN data one */
	uint64_t	 drop_packet;	/* bus packets with no URB event */
	uint16_t	 drop_function;	/* URB function of the first IRP */
	uint64_t	 data_done;	/* IRP id an IN data stage completed */
	uint16_t	 data_done_bus;
};
void		 cap_usbmon_init(struct cap_as_usbmon *u);
int		 cap_usbmon_skip(struct cap_as_usbmon *u,
		     const struct urb_rec *r);

/*
 * The usbmon text stamp is microseconds modulo 4096 s.  Unwrapping it
 * (capture/cap-text.c, for the text reader and the live text fallback):
 * a drop of more than half the period is a wrap; a jump forward by more
 * than half right after a wrap is an event of the previous period printed
 * late (another CPU).  Start zeroed; returns the unwrapped microseconds.
 */
struct cap_unwrap {
	uint64_t	 wraps;		/* stamp wraps seen */
	uint32_t	 prev;		/* stamp of the previous event */
	int		 have_prev;
};
uint64_t	 cap_text_unwrap(struct cap_unwrap *u, uint32_t stamp);

/* ------------------------------------------------------------------------
 * Live capture from usbmon (capture/cap-live.c).  The source "usbmonN" or
 * "/dev/usbmonN" (N = 0: every bus) reads the kernel's mmap ring, else
 * MON_IOCX_GETX, else read(), else the debugfs text file.  Before the
 * first record from the bus it returns, marked REC_F_SYNTHETIC, one
 * GET_DESCRIPTOR(DEVICE) and one GET_DESCRIPTOR(CONFIGURATION) S/C pair
 * per configuration of every device present, made from sysfs.  The pure
 * parts below are exported for the unit tests.
 */

/* The bus number a live name designates, or -1 when it is not one. */
int		 cap_live_name(const char *name);
/*
 * Where /dev and /sys are: "" (the default), or a fake tree for tests.
 * NULL goes back to the default; the environment variable
 * URBSCOPE_SYSROOT, when set, is the default.
 */
void		 cap_live_set_root(const char *root);
const char	*cap_live_root(void);
/*
 * The size of the kernel's mmap ring to ask for, in bytes (tcpdump's and
 * dumpcap's -B): 0 (the default) asks for the largest the kernel takes.
 * A size the kernel refuses falls back to the largest it takes below.
 */
#define CAP_RING_MIN	8192			/* mon_bin.c's BUFF_MIN */
#define CAP_RING_MAX	(64 * 1024 * 1024)	/* its BUFF_MAX since 2025 */
void		 cap_live_set_ring(size_t bytes);

/*
 * Walking one MON_IOCX_MFETCH batch of the mmap ring: off[0..n) are the
 * offsets the kernel gave.  cap_ring_next fills *r with the next event
 * that is not a filler ('@') and returns 1, or returns 0 when the batch
 * is done.  consumed counts every offset looked at, fillers included:
 * the nflush of the next MFETCH.  A record that would run past the end
 * of the ring (the kernel never writes one while mapped) is cut there
 * and flagged REC_F_BADLEN, an offset outside the ring is skipped and
 * counted in bad.  Data pointers point into the ring.
 */
struct cap_ring {
	const uint8_t	*base;
	size_t		 size;
	const uint32_t	*off;
	uint32_t	 n;
	uint32_t	 i;		/* next offset to look at */
	uint32_t	 consumed;
	uint64_t	 held;		/* bytes of the consumed records */
	uint64_t	 fillers;
	uint64_t	 bad;
};
int		 cap_ring_next(struct cap_ring *w, struct urb_iso *iso,
		     struct urb_rec *r);
/* Where the kernel puts the event after one at off (64-byte aligned). */
uint32_t	 cap_ring_advance(uint32_t off, uint32_t len_cap, size_t size);

/*
 * Drop accounting: MON_IOCG_STATS returns the drops since its previous
 * call and resets them, so they are polled at least every second and
 * added up.
 */
struct cap_live_acc {
	uint64_t	 dropped;	/* since the capture started */
	uint32_t	 queued;	/* in the ring at the last poll */
	uint64_t	 polls;
	double		 last;		/* monotonic seconds of the last poll */
};
#define CAP_LIVE_STATS_EVERY	1.0	/* seconds */
int		 cap_live_stats_due(const struct cap_live_acc *a, double now);
void		 cap_live_stats_add(struct cap_live_acc *a, uint32_t queued,
		     uint32_t dropped, double now);

/*
 * The message for a live source that cannot be opened, with the fix:
 * bus N (0 = all), dev_err the errno of opening /dev/usbmonN, text_err
 * that of the debugfs text file (0 when not tried).  Looks under
 * cap_live_root() to tell "not loaded" from "no such bus".
 */
void		 cap_live_diagnose(unsigned bus, int dev_err, int text_err,
		     char *msg, size_t len);

/*
 * The synthetic records for one device from its sysfs "descriptors"
 * bytes (desc/len): GET_DESCRIPTOR(DEVICE, 18) then, per configuration,
 * GET_DESCRIPTOR(CONFIGURATION i, wTotalLength), each an 'S' and a 'C'
 * with the data.  URB ids are CAP_SYNTH_ID(bus, dev, n), n = 0 for the
 * device descriptor, i + 1 for configuration i.  Writes at most max
 * records into out (data pointing into desc); returns how many.
 */
#define CAP_SYNTH_ID_BASE	0x7379736673000000ULL	/* "sysfs" */
#define CAP_SYNTH_ID(bus, dev, n)					\
	(CAP_SYNTH_ID_BASE | ((uint64_t)((bus) & 0xff) << 16) |		\
	((uint64_t)((dev) & 0xff) << 8) | ((n) & 0xff))
#define CAP_SYNTH_COMMENT	"synthetic: descriptors read from sysfs at " \
	"capture start, not seen on the bus"
size_t		 cap_live_synth(unsigned bus, unsigned devnum,
		     const uint8_t *desc, size_t len, int64_t ts_ns,
		     struct urb_rec *out, size_t max);

/* ------------------------------------------------------------------------
 * The USB core traced with eBPF next to usbmon (capture/cap-bpf.c,
 * `capture --drivers`): usb_submit_urb, __usb_hcd_giveback_urb,
 * usb_kill_urb, usb_unlink_urb, usb_probe_interface and
 * usb_unbind_interface as driver events (DRV_SUBMIT ... DRV_DISCONNECT,
 * URB ids the URBs' addresses as usbmon's), merged in time order with the
 * records of live, the usbmon source of bus (0: all).  On success *out is
 * one source that owns live.  Otherwise returns a negative error, live is
 * untouched, and why says in one line what is missing (root, BTF,
 * lockdown, usbcore, or eBPF support in this build).
 */
int		 cap_bpf_open(struct cap_source *live, int bus,
		     struct cap_source **out, char *why, size_t len);
/*
 * What the tracer saw so far: events read, events lost (no room in the
 * ring buffer), and calls the kernel did not run a program for (a probe
 * hit while another BPF program ran on its CPU: bpf_prog_info's
 * recursion_misses).  0, or -1 when src is not a cap_bpf_open source.
 */
struct cap_bpf_stats {
	uint64_t	 events;
	uint64_t	 lost;
	uint64_t	 missed;
};
int		 cap_bpf_stats(struct cap_source *src, struct cap_bpf_stats *st);

/* ------------------------------------------------------------------------
 * Buffered output (capture/cap-out.c): detects short writes and ENOSPC.
 */
struct cap_out {
	int		 fd;
	int		 own_fd;
	uint8_t		*buf;
	size_t		 size;
	size_t		 used;
	int		 err;		/* errno of the first failed write */
	uint64_t	 written;	/* bytes handed to the kernel */
};

int		 cap_out_open(struct cap_out *out, const char *path);
int		 cap_out_write(struct cap_out *out, const void *p, size_t n);
int		 cap_out_flush(struct cap_out *out);
/* Flush and close; returns 0 or -UE_IO with out->err set. */
int		 cap_out_close(struct cap_out *out);

/* ------------------------------------------------------------------------
 * Sinks.
 */
struct cap_sink;

struct cap_sink_opts {
	int		 swap;		/* write the other byte order (tests) */
	uint32_t	 snaplen;	/* 0 = unlimited (262144 in headers) */
	const char	*if_name;	/* pcapng if_name, default "usbmon0" */
	int		 tsresol;	/* pcapng if_tsresol: 6 (us) or 9 (ns) */
	uint32_t	 linktype;	/* pcap/pcapng: 0 or 220 usbmon, 249
					   USBPcap, 288, 293-295 bus-level */
};

struct cap_sink_ops {
	const char	*name;		/* "pcap", "pcapng", "usbmon" */
	const char	*ext;		/* ".pcap" ... for guessing by name */
	const char	*desc;
	size_t		 priv_size;
	/* Write the file header.  Returns 0 or negative with sink->err set. */
	int		 (*open)(struct cap_sink *sink);
	/* Write one URB record.  Required. */
	int		 (*write)(struct cap_sink *sink,
			     const struct urb_rec *r);
	/* Write one driver event.  Optional: NULL drops events. */
	int		 (*write_event)(struct cap_sink *sink,
			     const struct drv_event *ev);
	/* Write trailers (statistics), flush.  Optional. */
	int		 (*close)(struct cap_sink *sink);
};

struct cap_sink {
	const struct cap_sink_ops *ops;
	const char	*path;
	struct cap_out	 out;
	struct cap_sink_opts opts;
	uint64_t	 count;		/* records written */
	uint64_t	 dropped;	/* records the format cannot express */
	struct cap_as_usbmon as_usbmon;	/* what of USBPcap was not usbmon */
	/* set by cap_sink_set_stats; pcapng writes them in an ISB */
	int		 have_stats;
	struct cap_stats stats;
	int64_t		 stats_start_ns, stats_end_ns;
	char		 err[512];
	void		*priv;
};

extern const struct cap_sink_ops *const cap_sinks[];

/*
 * The link type that keeps records like r as they came (a USBPcap, macOS
 * or bus-level capture is written as one, byte for byte), for
 * cap_sink_opts.linktype; 0 for usbmon's (220).
 */
uint32_t	 cap_linktype_of(const struct urb_rec *r);

/*
 * Open a sink writing path ("-" = standard output) in format ("pcap",
 * "pcapng", "usbmon"; NULL = guess from the extension, default pcapng).
 * opts may be NULL.  On failure writes a message into err.
 */
int		 cap_sink_open(const char *path, const char *format,
		     const struct cap_sink_opts *opts, struct cap_sink **out,
		     char *err, size_t errlen);
/* Write r, or count it in sink->dropped when the sink's link type cannot
 * express it (an IRP information packet of USBPcap as usbmon). */
int		 cap_sink_write(struct cap_sink *sink, const struct urb_rec *r);
/* Close sink and remove its file (a regular file only: never standard
 * output, a FIFO or a device): a write failed and what is there is cut
 * anywhere. */
void		 cap_sink_abort(struct cap_sink *sink);
int		 cap_sink_write_event(struct cap_sink *sink,
		     const struct drv_event *ev);
/*
 * A running kernel's gfp_t (cap-gfp.c): the __GFP_ flag of each bit, from
 * 6.1's layout (cap_gfp_init) or from the kernel's BTF enum, whose
 * enumerators (___GFP_IO_BIT = 6, ...) cap_gfp_learn takes one at a time
 * (1 if it was one of them).  cap_gfp_to_sim gives the simulator's
 * mem_flags (core/usb.h: 0x10 may sleep, 0x20 high, 0x40 IO, 0x80 FS),
 * cap_gfp_name what the kernel's %pGg prints ("GFP_NOIO|__GFP_NOWARN").
 */
#define CAP_GFP_BITS	32
#define CAP_GFP_COMP	6
struct cap_gfp {
	char		 name[CAP_GFP_BITS][24];	/* "IO"; "" none */
	int		 learnt;	/* from the kernel's enum */
	/* derived from name[] (cap-gfp.c): the flags' masks, the
	 * composite names (GFP_KERNEL, ...) in the kernel's order */
	uint32_t	 direct, kswapd, high, io, fs;
	struct {
		const char	*name;
		uint32_t	 mask;
		uint32_t	 also;	/* taken too when set */
	}		 comp[CAP_GFP_COMP];
};
void		 cap_gfp_init(struct cap_gfp *g);
int		 cap_gfp_learn(struct cap_gfp *g, const char *enumerator,
		     long long val);
uint32_t	 cap_gfp_to_sim(const struct cap_gfp *g, uint32_t gfp);
void		 cap_gfp_name(const struct cap_gfp *g, uint32_t gfp, char *buf,
		     size_t len);

/*
 * The comment a pcapng writer puts on the 'S' record of the URB a
 * DRV_SUBMIT event submitted ("skel skel_write usb_submit_urb
 * GFP_KERNEL"), in buf (CAP_SUBMIT_COMMENT_MAX bytes are enough).  The
 * simulator gives its records the same, so what it shows is what its
 * file reads back as.
 */
#define CAP_SUBMIT_COMMENT_MAX	200
void		 cap_submit_comment(const struct drv_event *ev, char *buf,
		     size_t len);
/*
 * A live capture's figures for the file's trailer (pcapng: an interface
 * statistics block with isb_ifrecv, isb_ifdrop, start and end times),
 * written at close.  Later calls replace earlier ones.
 */
void		 cap_sink_set_stats(struct cap_sink *sink,
		     const struct cap_stats *st, int64_t start_ns,
		     int64_t end_ns);
/* Finish and free; returns 0 or a negative error (message in err). */
int		 cap_sink_close(struct cap_sink *sink, char *err, size_t errlen);

/* ------------------------------------------------------------------------
 * The record pipeline (cap-pipe.c): source -> analysis -> filter, then a
 * formatter or a sink of the caller's.  Every command and the TUI's loader
 * read through it, so pairing and device state see every record and a
 * filter means the same everywhere.
 */
#define CAP_PIPE_FILTER_NODES	64

struct cap_pipe {
	struct cap_source *src;
	struct dec_ctx	*ctx;		/* NULL: no analysis (convert) */
	struct dec_filter filter;
	struct dec_fnode fnode[CAP_PIPE_FILTER_NODES];
	int		 has_filter;
	int		 filter_extra;	/* it needs r's tree or frame */
	int		 own_src;	/* cap_pipe_close closes src */
	/* the record cap_pipe_next returned, valid until the next call */
	struct urb_rec	 r;
	struct dec_info	 info;		/* r's analysis (zero without) */
	struct drv_event ev;
	struct dec_frame frame;		/* its frame.* (cap_pipe_frame) */
	uint64_t	 count;		/* URB records and events read */
	int		 times;		/* keep the next three (frame.*) */
	int64_t		 t0;		/* the first good time stamp */
	int64_t		 tcur;		/* the record's time stamp */
	int64_t		 tprev;		/* the one before's */
	/* r's tree (all_bits), for a filter that tests tree fields */
	struct dec_tree	 tree;
	struct dec_node	*tnodes;
	char		*tarena;
	uint64_t	 tree_recno;	/* the record tree is of, 0: none */
};

/* A pipe over src (still the caller's), with the analysis or not. */
int		 cap_pipe_init(struct cap_pipe *p, struct cap_source *src,
		     int analyse);
/* The same over cap_open(name), closed with the pipe; err says why not. */
int		 cap_pipe_open(struct cap_pipe *p, const char *name,
		     int analyse, char *err, size_t errlen);
/* The filter of cap_pipe_shown ("" = all); -UE_SYNTAX with err set. */
int		 cap_pipe_filter(struct cap_pipe *p, const char *expr,
		     char *err, size_t errlen);
/*
 * Read and analyse the next record: CAP_URB (p->r, p->info), CAP_EVENT
 * (p->ev), CAP_AGAIN, CAP_END, or a negative error with p->src->err set.
 */
int		 cap_pipe_next(struct cap_pipe *p);
/* Does the filter pass the record just read (kind CAP_URB/CAP_EVENT)?
 * A filter on tree fields builds r's tree into p->tree (cap_pipe_tree). */
int		 cap_pipe_shown(struct cap_pipe *p, int kind);
/* The frame.* fields of the record (CAP_URB) or event (CAP_EVENT) just
 * read (frame.time_relative and
 * frame.time_delta when cap_pipe_times was called before the first). */
const struct dec_frame *cap_pipe_frame(struct cap_pipe *p, int kind);
void		 cap_pipe_times(struct cap_pipe *p);
/* The tree of the URB record just read, built with all_bits (-T fields
 * and the filter share it); out of memory, an empty tree. */
const struct dec_tree *cap_pipe_tree(struct cap_pipe *p);
void		 cap_pipe_close(struct cap_pipe *p);

#endif /* CAPTURE_H */
