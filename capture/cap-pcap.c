/*
 * capture/cap-pcap.c - pcap files of Linux USB captures: the reader (all
 * four magics, link types 189 and 220, files of either byte order) and the
 * writer (link type 220, what libpcap writes for usbmon, optionally in the
 * other byte order to make test files).  Also the parts the pcapng reader
 * shares: link type names and the decoding of one usbmon packet.
 *
 * Facts: LINKTYPE_USB_LINUX (189) and LINKTYPE_USB_LINUX_MMAPPED (220) of
 * the tcpdump.org link-type registry (https://www.tcpdump.org/linktypes.html);
 * record lengths as libpcap's pcap-usb-linux.c writes them; header fields
 * in the file's byte order, as libpcap's swap_linux_usb_header expects;
 * the pcap file format as libpcap's sf-pcap.c reads it.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "capture.h"

#define PCAP_FILE_HDR	24
#define PCAP_REC_HDR	16
#define PCAP_MAGIC_US	0xa1b2c3d4
#define PCAP_MAGIC_NS	0xa1b23c4d
#define PCAP_SNAPLEN	262144		/* libpcap MAXIMUM_SNAPLEN */
#define PCAP_ABSURD	(256U * 1024 * 1024)
#define LT_USB_LINUX	189
#define LT_USB_LINUX_MMAPPED 220
#define LT_USBPCAP	249
#define LT_USB_DARWIN	266

/* pcap/dlt.h and the tcpdump.org link type list, the ones people meet. */
static const struct dec_name cap_linktypes[] = {
	{ 0, "NULL" },
	{ 1, "EN10MB" },
	{ 101, "RAW" },
	{ 105, "IEEE802_11" },
	{ 113, "LINUX_SLL" },
	{ 127, "IEEE802_11_RADIOTAP" },
	{ 186, "USB_FREEBSD" },
	{ 187, "BLUETOOTH_HCI_H4" },
	{ 189, "USB_LINUX" },
	{ 195, "IEEE802_15_4_WITHFCS" },
	{ 201, "BLUETOOTH_HCI_H4_WITH_PHDR" },
	{ 220, "USB_LINUX_MMAPPED" },
	{ 228, "IPV4" },
	{ 229, "IPV6" },
	{ 249, "USBPCAP" },
	{ 254, "BLUETOOTH_LINUX_MONITOR" },
	{ 266, "USB_DARWIN" },
	{ 276, "LINUX_SLL2" },
	{ 278, "OPENVIZSLA" },
	{ 288, "USB_2_0" },
	{ 293, "USB_2_0_LOW_SPEED" },
	{ 294, "USB_2_0_FULL_SPEED" },
	{ 295, "USB_2_0_HIGH_SPEED" },
	{ 0, NULL }
};

const char cap_linktypes_written[] =
    "urbscope writes link types 220 (USB_LINUX_MMAPPED), 249 (USBPCAP), "
    "266 (USB_DARWIN: a macOS capture's records), 288 and 293-295 "
    "(USB_2_0: a bus-level capture's packets)";

const char cap_linktypes_read[] =
    "urbscope reads link types 189 (USB_LINUX), 220 (USB_LINUX_MMAPPED), "
    "249 (USBPCAP), 266 (USB_DARWIN), 288 (USB_2_0) and 293-295 "
    "(USB_2_0_LOW_SPEED, _FULL_SPEED, _HIGH_SPEED)";

const char *
cap_linktype_name(uint32_t linktype)
{
	const struct dec_name	*n;

	/* Not dec_name_find: value 0 ends the scan there but names NULL. */
	for (n = cap_linktypes; n->name != NULL; n++) {
		if (n->value == linktype)
			return n->name;
	}
	return NULL;
}

/*
 * memset(r, 0, sizeof *r) in pieces of 64 bytes: gcc makes a memset of
 * the whole struct (304 bytes) a rep stos, slow to start for every record
 * of a file read; pieces this size are plain vector stores.
 */
static void
rec_clear(struct urb_rec *r)
{
	char	*p = (char *)r;
	size_t	 i;

	for (i = 0; i + 64 <= sizeof *r; i += 64)
		memset(p + i, 0, 64);
	memset(p + i, 0, sizeof *r - i);
}

void
cap_usbmon_packet(const uint8_t *p, uint32_t caplen, uint32_t len,
    size_t hdr_len, int swap, struct urb_iso *iso, struct urb_rec *r)
{
	rec_clear(r);
	(void)dec_usbmon_hdr(p, caplen, hdr_len, swap, r);
	dec_usbmon_body(p + hdr_len, caplen - hdr_len, swap, iso, r);
	if (caplen < len) {
		/* Cut by the snaplen: fewer bytes than len_cap is expected. */
		if (caplen - hdr_len < r->len_cap)
			r->flags &= ~REC_F_BADLEN;
		r->flags |= REC_F_TRUNC;
	}
}

/* The file's magic: 1 and its byte order and resolution, or 0. */
static int
pcap_magic(const uint8_t *p, int *be, int *nsec)
{
	switch (get_le32(p)) {
	case PCAP_MAGIC_US:
		*be = 0;
		*nsec = 0;
		return 1;
	case PCAP_MAGIC_NS:
		*be = 0;
		*nsec = 1;
		return 1;
	}
	switch (get_be32(p)) {
	case PCAP_MAGIC_US:
		*be = 1;
		*nsec = 0;
		return 1;
	case PCAP_MAGIC_NS:
		*be = 1;
		*nsec = 1;
		return 1;
	}
	return 0;
}

/* ------------------------------------------------------------------------
 * Reader.
 */
struct pcap_rd {
	int		 be;		/* the file is big-endian */
	int		 swap;		/* ... not the host's order */
	int		 nsec;		/* timestamps in ns (magic a1b23c4d) */
	uint32_t	 snaplen;
	uint32_t	 limit;		/* largest caplen accepted */
	size_t		 hdr_len;	/* 48 (189), 64 (220), 27 (249) */
	int		 usbpcap;	/* link type 249 */
	int		 darwin;	/* link type 266 */
	struct cap_usbll *ll;		/* link types 288, 293-295 */
	struct urb_iso	 iso[URB_ISO_MAX];
};

static int
pcap_probe(const char *name, const uint8_t *head, size_t n)
{
	int	 be, nsec;

	(void)name;
	if (n < 4 || !pcap_magic(head, &be, &nsec))
		return 0;
	return 100;
}

static int
pcap_open(struct cap_source *src)
{
	struct pcap_rd	*rd = src->priv;
	const uint8_t	*p;
	const char	*lname;
	uint32_t	 lt;
	uint16_t	 major, minor;
	long		 n;

	if ((n = cap_in_peek(&src->in, PCAP_FILE_HDR, &p)) < 0)
		return cap_error(src, (int)n, 0, 0, "read error: %s",
		    cap_in_strerror(&src->in));
	if (n < PCAP_FILE_HDR || !pcap_magic(p, &rd->be, &rd->nsec))
		return cap_error(src, UE_TRUNCATED, 0, 0, "the file ends "
		    "inside the %d-byte pcap file header (%ld bytes)",
		    PCAP_FILE_HDR, n);
	rd->swap = rd->be == host_is_le();
	major = get_bo16(p + 4, rd->be);
	minor = get_bo16(p + 6, rd->be);
	if (major != 2)
		return cap_error(src, UE_NOTSUP, 0, 4, "pcap version %u.%u "
		    "is not supported (only 2.x exists)", major, minor);
	rd->snaplen = get_bo32(p + 16, rd->be);
	/* Upper bits hold the FCS length and flags (LT_LINKTYPE). */
	lt = get_bo32(p + 20, rd->be) & 0xffff;
	src->linktype = lt;
	if (lt == LT_USB_LINUX)
		rd->hdr_len = URB_HDR48;
	else if (lt == LT_USB_LINUX_MMAPPED)
		rd->hdr_len = URB_HDR64;
	else if (lt == LT_USBPCAP) {
		rd->hdr_len = USBPCAP_HDR;
		rd->usbpcap = 1;
	} else if (lt == LT_USB_DARWIN) {
		rd->hdr_len = DARWIN_HDR;
		rd->darwin = 1;
	} else if (cap_usbll_linktype(lt)) {
		rd->hdr_len = 0;
		if ((rd->ll = cap_usbll_new(lt)) == NULL)
			return cap_error(src, UE_NOMEM, 0, 0, "out of memory");
	} else if ((lname = cap_linktype_name(lt)) != NULL)
		return cap_error(src, UE_LINKTYPE, 0, 20, "link type %u (%s) "
		    "is not a USB capture urbscope reads; %s", lt, lname,
		    cap_linktypes_read);
	else
		return cap_error(src, UE_LINKTYPE, 0, 20, "link type %u is "
		    "not a USB capture urbscope reads; %s", lt,
		    cap_linktypes_read);
	/*
	 * Like libpcap, accept records up to the usual maximum even when
	 * the header's snaplen is smaller; beyond the snaplen and that, the
	 * lengths are garbage.
	 */
	rd->limit = rd->snaplen > PCAP_SNAPLEN ? rd->snaplen : PCAP_SNAPLEN;
	if (rd->limit > PCAP_ABSURD)
		rd->limit = PCAP_ABSURD;
	cap_in_skip(&src->in, PCAP_FILE_HDR);
	return 0;
}

static int
pcap_next(struct cap_source *src, struct urb_rec *r, struct drv_event *ev)
{
	struct pcap_rd	*rd = src->priv;
	const uint8_t	*p;
	uint64_t	 off, recno, sec, frac;
	uint32_t	 caplen, len;
	const char	*why;
	long		 n;

	(void)ev;
	off = cap_in_offset(&src->in);
	recno = src->recno + 1;
	if ((n = cap_in_peek(&src->in, PCAP_REC_HDR, &p)) < 0)
		return cap_error(src, (int)n, recno, off, "read error: %s",
		    cap_in_strerror(&src->in));
	if (n == 0)
		return CAP_END;
	if (n < PCAP_REC_HDR)
		return cap_error(src, UE_TRUNCATED, recno, off, "the file "
		    "ends inside the %d-byte record header (%ld bytes)",
		    PCAP_REC_HDR, n);
	sec = get_bo32(p, rd->be);
	frac = get_bo32(p + 4, rd->be);
	caplen = get_bo32(p + 8, rd->be);
	len = get_bo32(p + 12, rd->be);
	if (caplen > rd->limit)
		return cap_error(src, UE_BADREC, recno, off, "captured length "
		    "%" PRIu32 " is larger than the file's snaplen %" PRIu32
		    " allows", caplen, rd->snaplen);
	if (caplen < rd->hdr_len)
		return cap_error(src, UE_BADREC, recno, off, "captured length "
		    "%" PRIu32 " is shorter than the %zu-byte %s header",
		    caplen, rd->hdr_len, rd->usbpcap ? "USBPcap" :
		    rd->darwin ? "macOS USB" : "usbmon");
	if ((n = cap_in_peek(&src->in, PCAP_REC_HDR + caplen, &p)) < 0)
		return cap_error(src, (int)n, recno, off, "read error: %s",
		    cap_in_strerror(&src->in));
	if ((size_t)n < PCAP_REC_HDR + caplen)
		return cap_error(src, UE_TRUNCATED, recno, off, "the file "
		    "ends inside the record (%ld of %" PRIu32 " bytes)",
		    n, PCAP_REC_HDR + caplen);
	cap_in_prefetch(p, PCAP_REC_HDR + caplen);

	if (rd->ll != NULL)
		(void)cap_usbll_packet(rd->ll, p + PCAP_REC_HDR, caplen, r);
	else if (rd->darwin) {
		if (cap_darwin_packet(p + PCAP_REC_HDR, caplen, len, rd->iso,
		    r, &why) < 0)
			return cap_error(src, UE_BADREC, recno, off, "%s",
			    why);
	} else if (!rd->usbpcap)
		cap_usbmon_packet(p + PCAP_REC_HDR, caplen, len, rd->hdr_len,
		    rd->swap, rd->iso, r);
	else if (cap_usbpcap_packet(p + PCAP_REC_HDR, caplen, len, rd->iso,
	    r, &why) < 0)
		return cap_error(src, UE_BADREC, recno, off, "%s", why);
	r->ts_ns = (int64_t)(sec * 1000000000 + (rd->nsec ? frac :
	    frac * 1000));
	if (rd->usbpcap || rd->darwin || rd->ll != NULL) {
		/* usbmon's own stamp, for the fields that show it */
		r->ts_sec = (int64_t)sec;
		r->ts_usec = (int32_t)(rd->nsec ? frac / 1000 : frac);
	}
	r->offset = off;
	r->wire_len = len;
	r->cap_len = caplen;
	cap_in_skip(&src->in, PCAP_REC_HDR + caplen);
	return CAP_URB;
}

/* Everything a record needs is in the file header open read again,
 * except what a bus-level capture's transactions have open. */
static void *
pcap_mark(struct cap_source *src, int *err)
{
	struct pcap_rd	*rd = src->priv;
	void		*m;

	*err = 0;
	if (rd->ll == NULL)
		return NULL;
	if ((m = cap_usbll_clone(rd->ll)) == NULL)
		*err = -UE_NOMEM;
	return m;
}

static int
pcap_seek(struct cap_source *src, const void *state)
{
	struct pcap_rd	*rd = src->priv;
	struct cap_usbll *c;

	if (state == NULL || rd->ll == NULL)
		return 0;
	if ((c = cap_usbll_clone(state)) == NULL)
		return cap_error(src, UE_NOMEM, 0, 0, "out of memory");
	cap_usbll_free(rd->ll);
	rd->ll = c;
	return 0;
}

static void
pcap_close(struct cap_source *src)
{
	struct pcap_rd	*rd = src->priv;

	cap_usbll_free(rd->ll);
	rd->ll = NULL;
}

static void
pcap_mark_free(void *state)
{
	cap_usbll_free(state);
}

const struct cap_source_ops cap_pcap_source = {
	.name = "pcap",
	.desc = "pcap file, link type 189 or 220 (Linux usbmon), 249 "
	    "(USBPcap), 266 (macOS) or 288, 293-295 (bus-level USB 2.0)",
	.probe = pcap_probe,
	.priv_size = sizeof(struct pcap_rd),
	.open = pcap_open,
	.next = pcap_next,
	.close = pcap_close,
	.mark = pcap_mark,
	.seek = pcap_seek,
	.mark_free = pcap_mark_free,
};

/* ------------------------------------------------------------------------
 * Writer.
 */
struct pcap_wr {
	int		 be;
	uint32_t	 lt;		/* 220 or 249 */
	uint32_t	 snaplen;
	int		 nsec;		/* nanosecond timestamps */
	uint8_t		 pre[URB_HDR64 + 16 * URB_ISO_MAX];
};

static int
pcap_wopen(struct cap_sink *sink)
{
	struct pcap_wr	*wr = sink->priv;
	uint8_t		 h[PCAP_FILE_HDR];

	wr->be = host_is_le() ? sink->opts.swap != 0 : sink->opts.swap == 0;
	wr->snaplen = sink->opts.snaplen ? sink->opts.snaplen : PCAP_SNAPLEN;
	wr->lt = sink->opts.linktype ? sink->opts.linktype :
	    LT_USB_LINUX_MMAPPED;
	if (wr->lt != LT_USB_LINUX_MMAPPED && wr->lt != LT_USBPCAP &&
	    wr->lt != LT_USB_DARWIN && !cap_usbll_linktype(wr->lt)) {
		snprintf(sink->err, sizeof sink->err, "%s: %s", sink->path,
		    cap_linktypes_written);
		return -UE_USAGE;
	}
	if (wr->snaplen < URB_HDR64) {
		snprintf(sink->err, sizeof sink->err, "%s: snaplen %" PRIu32
		    " is smaller than the 64-byte usbmon header", sink->path,
		    wr->snaplen);
		return -UE_USAGE;
	}
	/* bus-level packets are nanoseconds apart */
	wr->nsec = cap_usbll_linktype(wr->lt);
	put_bo32(h, wr->nsec ? PCAP_MAGIC_NS : PCAP_MAGIC_US, wr->be);
	put_bo16(h + 4, 2, wr->be);
	put_bo16(h + 6, 4, wr->be);
	put_bo32(h + 8, 0, wr->be);		/* thiszone */
	put_bo32(h + 12, 0, wr->be);	/* sigfigs */
	put_bo32(h + 16, wr->snaplen, wr->be);
	put_bo32(h + 20, wr->lt, wr->be);
	return cap_out_write(&sink->out, h, sizeof h);
}

static int
pcap_write(struct cap_sink *sink, const struct urb_rec *r)
{
	struct pcap_wr	*wr = sink->priv;
	const uint8_t	*data;
	uint8_t		 h[PCAP_REC_HDR];
	uint64_t	 total, orig;
	uint32_t	 caplen, npre;
	int64_t		 sec, ns;
	int		 rc;

	/* the header goes in the file's order: swapped when not the host's */
	npre = cap_packet_layout(wr->lt, r, wr->be == host_is_le(), wr->pre,
	    &data, &total, &orig);
	caplen = total > wr->snaplen ? wr->snaplen : (uint32_t)total;

	/* pcap holds unsigned 32-bit seconds: earlier times (and
	 * DEC_TS_BAD) become the epoch, as pcapng's writer does */
	sec = r->ts_ns < 0 ? 0 : r->ts_ns / 1000000000;
	ns = r->ts_ns < 0 ? 0 : r->ts_ns % 1000000000;
	put_bo32(h, (uint32_t)sec, wr->be);
	put_bo32(h + 4, (uint32_t)(wr->nsec ? ns : ns / 1000), wr->be);
	put_bo32(h + 8, caplen, wr->be);
	put_bo32(h + 12, orig > UINT32_MAX ? UINT32_MAX : (uint32_t)orig, wr->be);
	if ((rc = cap_out_write(&sink->out, h, sizeof h)) != 0)
		return rc;
	if (caplen <= npre)
		return cap_out_write(&sink->out, wr->pre, caplen);
	if ((rc = cap_out_write(&sink->out, wr->pre, npre)) != 0)
		return rc;
	return cap_out_write(&sink->out, data, caplen - npre);
}

const struct cap_sink_ops cap_pcap_sink = {
	.name = "pcap",
	.ext = ".pcap",
	.desc = "pcap, link type 220 (what libpcap writes for usbmon) or "
	    "249 (USBPcap)",
	.priv_size = sizeof(struct pcap_wr),
	.open = pcap_wopen,
	.write = pcap_write,
	.write_event = NULL,
	.close = NULL,
};
