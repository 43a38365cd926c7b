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

#include "../decode/decode.h"

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
};

/* Open path ("-" = standard input).  Returns 0 or -UE_OPEN (errno kept). */
int		 cap_in_open(struct cap_in *in, const char *path);
void		 cap_in_close(struct cap_in *in);
/*
 * Make n bytes available at *p without consuming them.  Returns the number
 * available (n, or fewer at end of input), or -UE_IO.  Grows the buffer
 * when n is larger than it (records can be large).
 */
long		 cap_in_peek(struct cap_in *in, size_t n, const uint8_t **p);
/* Consume n bytes (n must not exceed what the last peek returned). */
void		 cap_in_skip(struct cap_in *in, size_t n);
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
};

struct cap_source {
	const struct cap_source_ops *ops;
	const char	*name;		/* as opened */
	struct cap_in	 in;
	uint32_t	 linktype;	/* for pcap/pcapng, else 0 */
	uint64_t	 recno;		/* records returned so far */
	char		 err[512];	/* last error, with record and offset */
	void		*priv;		/* priv_size bytes after this struct */
};

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
void		 cap_usbmon_packet(const uint8_t *p, uint32_t caplen,
		     uint32_t len, size_t hdr_len, int swap,
		     struct urb_iso *iso, struct urb_rec *r);

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
	char		 err[512];
	void		*priv;
};

extern const struct cap_sink_ops *const cap_sinks[];

/*
 * Open a sink writing path ("-" = standard output) in format ("pcap",
 * "pcapng", "usbmon"; NULL = guess from the extension, default pcapng).
 * opts may be NULL.  On failure writes a message into err.
 */
int		 cap_sink_open(const char *path, const char *format,
		     const struct cap_sink_opts *opts, struct cap_sink **out,
		     char *err, size_t errlen);
int		 cap_sink_write(struct cap_sink *sink, const struct urb_rec *r);
int		 cap_sink_write_event(struct cap_sink *sink,
		     const struct drv_event *ev);
/* Finish and free; returns 0 or a negative error (message in err). */
int		 cap_sink_close(struct cap_sink *sink, char *err, size_t errlen);

#endif /* CAPTURE_H */
