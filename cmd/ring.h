/*
 * cmd/ring.h - where `urbscope capture -w` writes (ring.c): one file, or
 * tcpdump's series of files (-C MB) and ring of N files (-C MB -W N).
 * Every file starts with the synthetic records (the descriptors read
 * from sysfs), so each decodes on its own.  After a failed write a
 * regular file is cut back to its last whole record.
 */
#ifndef RING_H
#define RING_H

#include "capture/capture.h"

#define RING_BOUNDS	4096	/* record ends kept to cut a file back */

struct ring {
	/* set by the caller before ring_open */
	const char	*outpath;	/* "-" = standard output */
	const char	*format;	/* NULL: from the name */
	const char	*ifname;	/* the pcapng interface's name */
	uint32_t	 snaplen;
	uint64_t	 file_size;	/* -C, bytes; 0 = one file */
	unsigned	 nfiles;	/* -W; 0 = no limit */
	struct cap_source *src;		/* its statistics go in each file */
	int64_t		 start_ns;

	struct cap_sink	*sink;		/* the file being written */
	unsigned	 fileno;
	char		 path[4096];	/* its name */
	struct urb_rec	*synth;		/* copies, data too */
	size_t		 nsynth;
	uint64_t	 bounds[RING_BOUNDS];	/* where whole records end */
	size_t		 nbounds;
};

/* What ring_write and ring_flush return. */
enum ring_status {
	RING_OK = 0,
	RING_EWRITE,	/* writing failed: ring_error() says why */
	RING_EFILE,	/* opening or closing a file of the ring (said) */
};

/* The first file; -1 after saying why. */
int	ring_open(struct ring *rg);
/* Keep a synthetic record for the files to come; -1: out of memory. */
int	ring_keep_synth(struct ring *rg, const struct urb_rec *r);
/* A record, and the next file when this one is full. */
enum ring_status ring_write(struct ring *rg, const struct urb_rec *r);
/* A driver event (formats without events drop it). */
enum ring_status ring_write_event(struct ring *rg, const struct drv_event *ev);
/* What is buffered, to the file (an idle source: pipes, tail -f). */
enum ring_status ring_flush(struct ring *rg);
/* The errno of a failed write, and its message. */
int	ring_errno(const struct ring *rg);
const char *ring_error(const struct ring *rg);
/*
 * After a failed write: cut a regular file back to the last record that
 * reached it whole, so what is there reads to its end.  Returns how many
 * records the file keeps, or -1 when it is not a regular file.
 */
int64_t	ring_cut_back(struct ring *rg);
/* Finish the file (statistics, trailer): 0, or -1 after saying why.
 * broken: the output failed; keep what is whole, write nothing more. */
int	ring_close(struct ring *rg, int broken);
void	ring_free(struct ring *rg);

#endif /* RING_H */
