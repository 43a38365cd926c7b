/*
 * capture/cap-usbmon.c - the usbmon binary stream as a file: what
 * `cat /dev/usbmonN > file` saves, that is what read() on the device
 * returns, event after event: a 48-byte header then len_cap bytes (ISO
 * descriptors, then data), with no file header.  The byte order is the
 * capturing host's; it is found, like the format itself, by which order
 * makes the first headers plausible.
 *
 * Facts: Linux's drivers/usb/mon/mon_bin.c (struct mon_bin_hdr, mon_bin_read).
 */
#include <string.h>

#include "capture.h"

#define UM_ABSURD	(256U * 1024 * 1024)
#define UM_PROBE_HDRS	4		/* headers looked at to decide */

struct um_rd {
	int		 be;		/* the stream is big-endian */
	int		 swap;
	struct urb_iso	 iso[URB_ISO_MAX];
};

static uint16_t
rd16(const uint8_t *p, int be)
{
	return be ? get_be16(p) : get_le16(p);
}

static uint32_t
rd32(const uint8_t *p, int be)
{
	return be ? get_be32(p) : get_le32(p);
}

/*
 * Could the 48 bytes at p be a usbmon header in this byte order?  The
 * fields with few legal values decide: event type, transfer type, the
 * flags, microseconds, bus number and a sane len_cap.
 */
static int
um_plausible(const uint8_t *p, int be, uint32_t *len_cap)
{
	if (p[8] != 'S' && p[8] != 'C' && p[8] != 'E')
		return 0;
	if (p[9] > XFER_BULK || (p[10] & 0x70) != 0)
		return 0;
	if (p[14] != 0 && p[14] != '-' && p[14] != 'Z')
		return 0;
	if (p[15] != 0 && strchr("-Z<>DE", p[15]) == NULL)
		return 0;
	if (rd16(p + 12, be) > 255 || rd32(p + 24, be) >= 1000000)
		return 0;
	*len_cap = rd32(p + 36, be);
	return *len_cap <= UM_ABSURD;
}

/* How many headers in a row are plausible in this byte order. */
static int
um_run(const uint8_t *head, size_t n, int be)
{
	uint64_t	 off = 0;
	uint32_t	 cap;
	int		 count = 0;

	while (count < UM_PROBE_HDRS && off + URB_HDR48 <= n) {
		if (!um_plausible(head + off, be, &cap))
			break;
		count++;
		off += URB_HDR48 + (uint64_t)cap;
	}
	return count;
}

/* The stream's byte order (1 = big-endian), or -1 when neither fits. */
static int
um_order(const uint8_t *head, size_t n)
{
	int	 le, be;

	le = um_run(head, n, 0);
	be = um_run(head, n, 1);
	if (le == 0 && be == 0)
		return -1;
	if (le == be)
		return !host_is_le();
	return be > le;
}

static int
um_probe(const char *name, const uint8_t *head, size_t n)
{
	int	 order;

	(void)name;
	if (n < URB_HDR48 || (order = um_order(head, n)) < 0)
		return 0;
	/* Below pcap/pcapng (magic numbers), above text at two headers. */
	return 30 + 10 * um_run(head, n, order);
}

static int
um_open(struct cap_source *src)
{
	struct um_rd	*rd = src->priv;
	const uint8_t	*p;
	long		 n;
	int		 order;

	if ((n = cap_in_peek(&src->in, 512, &p)) < 0)
		return cap_error(src, (int)n, 0, 0, "read error: %s",
		    strerror(src->in.err));
	if ((order = um_order(p, (size_t)n)) < 0)
		return cap_error(src, UE_MAGIC, 0, 0, "not a usbmon binary "
		    "stream");
	rd->be = order;
	rd->swap = rd->be == host_is_le();
	return 0;
}

static int
um_next(struct cap_source *src, struct urb_rec *r, struct drv_event *ev)
{
	struct um_rd	*rd = src->priv;
	const uint8_t	*p;
	uint64_t	 off, recno;
	uint32_t	 cap;
	long		 n;

	(void)ev;
	off = cap_in_offset(&src->in);
	recno = src->recno + 1;
	if ((n = cap_in_peek(&src->in, URB_HDR48, &p)) < 0)
		return cap_error(src, (int)n, recno, off, "read error: %s",
		    strerror(src->in.err));
	if (n == 0)
		return CAP_END;
	if (n < URB_HDR48)
		return cap_error(src, UE_TRUNCATED, recno, off, "the file "
		    "ends inside a %d-byte event header (%ld bytes)",
		    URB_HDR48, n);
	/* Few checks, but enough to stop at once when the stream is lost. */
	cap = rd32(p + 36, rd->be);
	if ((p[8] != 'S' && p[8] != 'C' && p[8] != 'E') ||
	    p[9] > XFER_BULK || rd32(p + 24, rd->be) >= 1000000)
		return cap_error(src, UE_BADREC, recno, off, "not a usbmon "
		    "event header (type 0x%02x, transfer type %u): the "
		    "stream is damaged here", p[8], p[9]);
	if (cap > UM_ABSURD)
		return cap_error(src, UE_BADREC, recno, off, "len_cap %u is "
		    "larger than any event", cap);
	if ((n = cap_in_peek(&src->in, URB_HDR48 + (size_t)cap, &p)) < 0)
		return cap_error(src, (int)n, recno, off, "read error: %s",
		    strerror(src->in.err));
	if ((size_t)n < URB_HDR48 + (size_t)cap)
		return cap_error(src, UE_TRUNCATED, recno, off, "the file "
		    "ends inside the event (%ld of %zu bytes)", n,
		    URB_HDR48 + (size_t)cap);

	memset(r, 0, sizeof *r);
	(void)dec_usbmon_hdr(p, URB_HDR48, URB_HDR48, rd->swap, r);
	dec_usbmon_body(p + URB_HDR48, cap, rd->swap, rd->iso, r);
	r->ts_ns = dec_ts_make(r->ts_sec, (int64_t)r->ts_usec * 1000);
	r->offset = off;
	cap_in_skip(&src->in, URB_HDR48 + (size_t)cap);
	return CAP_URB;
}

/* Everything a record needs is in the file header open read again. */
static int
um_seek(struct cap_source *src, const void *state)
{
	(void)src;
	(void)state;
	return 0;
}

const struct cap_source_ops cap_usbmon_source = {
	.name = "usbmon-bin",
	.desc = "usbmon binary stream (cat /dev/usbmonN > file)",
	.probe = um_probe,
	.priv_size = sizeof(struct um_rd),
	.open = um_open,
	.next = um_next,
	.close = NULL,
	.seek = um_seek,
};
