/*
 * capture/cap-pcapng.c - pcapng files of Linux USB captures.  The reader
 * walks blocks: a section header (SHB) sets the byte order of everything
 * up to the next one, interface descriptions (IDB) give link type, name
 * and timestamp resolution, and enhanced, simple and obsolete packet
 * blocks carry the usbmon packets; other blocks (name resolution,
 * statistics, secrets, custom) are skipped.  Every length is checked
 * before it is used.  The writer emits one section, one link type 220
 * interface and enhanced packet blocks; records marked REC_F_SYNTHETIC
 * carry a comment saying so (for Wireshark; reading marks them by their
 * URB id, in cap_next, as for every format), and a live capture ends with
 * an interface statistics block holding the kernel's drops.
 *
 * Driver events go to a second interface of link type 252
 * (LINKTYPE_WIRESHARK_UPPER_PDU), written when the first event comes, so
 * files without events are as before.  Each packet is an exported PDU:
 * big-endian TLVs {u16 tag, u16 length, value padded to 4} - tag 12, the
 * dissector name "data-text-lines"; tag 33, the protocol column
 * "urbscope"; tag 0, the end - then one "urbscope-event ..." line
 * (decode/decode.h) that Wireshark shows as the field `text` and this
 * reader parses back.  An 'S' record of a URB a DRV_SUBMIT event named
 * gets an opt_comment saying which driver call submitted it.  Tag numbers
 * are Wireshark 4.0's epan/exported_pdu.h, checked with tshark 4.0.17.
 *
 * Hardware sniffers (ataradov/usb-sniffer) store their bus events the
 * same way: exported PDUs of dissector "syslog" whose payload is the
 * message ("--- Bus Reset ---").  They are read as bus events (DRV_BUS,
 * decode/dec-busev.c), a bus reset and a detected speed go to the
 * bus-level packets' transaction state (capture/cap-usbll.c), and the
 * writer stores a bus event as such a PDU again, on the events'
 * interface.
 *
 * Facts: the usbmon header is in the section's byte order (libpcap's
 * swap_linux_usb_header, Wireshark's pcap_byteswap_linux_usb_pseudoheader);
 * the pcapng draft (draft-ietf-opsawg-pcapng) sections 4.1-4.4 and 4.6 for
 * the layouts.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "capture.h"

#define NG_SHB		0x0a0d0d0a	/* the same in both byte orders */
#define NG_IDB		1
#define NG_PB		2		/* obsolete packet block */
#define NG_SPB		3
#define NG_ISB		5
#define NG_EPB		6
#define NG_BOM		0x1a2b3c4d
#define NG_ABSURD	(256U * 1024 * 1024)
#define NG_MAX_IFS	65536
#define NG_SNAPLEN	262144

#define OPT_END		0
#define OPT_COMMENT	1
#define OPT_SHB_USERAPPL 4
#define OPT_IF_NAME	2
#define OPT_IF_TSRESOL	9
#define OPT_IF_TSOFFSET	14
#define OPT_ISB_STARTTIME 2
#define OPT_ISB_ENDTIME	3
#define OPT_ISB_IFRECV	4
#define OPT_ISB_IFDROP	5

#define LT_UPPER_PDU	252		/* LINKTYPE_WIRESHARK_UPPER_PDU */
#define EXP_PDU_END	0		/* end of the tags */
#define EXP_PDU_DISSECTOR 12		/* EXP_PDU_TAG_DISSECTOR_NAME */
#define EXP_PDU_COL_PROT 33		/* EXP_PDU_TAG_COL_PROT_TEXT */
#define EV_DISSECTOR	"data-text-lines"
#define BUS_DISSECTOR	"syslog"
#define EV_PROTO	"urbscope"
#define EV_IF_NAME	"urbscope-events"

#define PAD4(n)		(((n) + 3) & ~(uint32_t)3)

static const uint64_t ng_pow10[] = {
	1ULL, 10ULL, 100ULL, 1000ULL, 10000ULL, 100000ULL, 1000000ULL,
	10000000ULL, 100000000ULL, 1000000000ULL, 10000000000ULL,
	100000000000ULL, 1000000000000ULL, 10000000000000ULL,
	100000000000000ULL, 1000000000000000ULL, 10000000000000000ULL,
	100000000000000000ULL, 1000000000000000000ULL,
	10000000000000000000ULL
};

/* ------------------------------------------------------------------------
 * Reader.
 */
struct ng_if {
	uint32_t	 linktype;
	uint32_t	 snaplen;
	uint8_t		 tsresol;	/* if_tsresol byte; 6 when absent */
	int64_t		 tsoffset;	/* if_tsoffset, seconds */
	char		 name[48];	/* if_name, printable, or "" */
};

struct ng_rd {
	int		 be;		/* this section is big-endian */
	int		 swap;		/* ... not the host's order */
	uint64_t	 section;	/* 1-based */
	struct ng_if	*ifs;		/* this section's interfaces */
	uint32_t	 nifs;
	uint32_t	 capifs;
	uint32_t	 ifbase;	/* global index of ifs[0] */
	struct urb_iso	 iso[URB_ISO_MAX];
	struct cap_usbll *ll;		/* bus-level interfaces' transactions */
	uint8_t		 ll_speed;	/* a bus event's speed before ll */
	char		*evstore;	/* strings of the last event */
	size_t		 evsize;
	char		*cmt;		/* the last packet's comments */
	size_t		 cmtsize;
	/* packets of interfaces that are not USB urbscope reads: skipped,
	 * counted, the first one described for the message at the end */
	uint64_t	 nskip;
	uint64_t	 nread;		/* records returned */
	char		 skip_what[256];
};

/* Describe interface ifid for messages: " (name)" and its link type. */
static void
ng_if_desc(const struct ng_if *ifp, uint32_t ifid, char *buf, size_t n)
{
	const char	*lname = cap_linktype_name(ifp->linktype);

	snprintf(buf, n, "interface %" PRIu32 "%s%s%s of link type %" PRIu32
	    "%s%s%s", ifid, ifp->name[0] ? " (" : "", ifp->name,
	    ifp->name[0] ? ")" : "", ifp->linktype, lname ? " (" : "",
	    lname ? lname : "", lname ? ")" : "");
}

/* A packet urbscope does not read: counted, the first one described. */
static void
ng_skip(struct cap_source *src, const struct ng_if *ifp, uint32_t ifid,
    int64_t ts_ns, const char *why)
{
	struct ng_rd	*rd = src->priv;
	char		 d[180];

	cap_skip(src, ts_ns);
	if (rd->nskip++ == 0) {
		ng_if_desc(ifp, ifid, d, sizeof d);
		snprintf(rd->skip_what, sizeof rd->skip_what, "%s%s", d, why);
	}
	/* (record numbers count what is read, which the TUI's index needs
	 * without gaps; frame numbers count this packet too, as
	 * Wireshark's do) */
}

/* At the end of the file: say what was skipped; an error if that was
 * everything. */
static int
ng_end(struct cap_source *src)
{
	struct ng_rd	*rd = src->priv;

	if (rd->nskip == 0)
		return CAP_END;
	if (rd->nread == 0)
		return cap_error(src, UE_LINKTYPE, 0, cap_in_offset(&src->in),
		    "the file ends without a USB packet urbscope reads: %"
		    PRIu64 " packet%s skipped, the first "
		    "on %s; %s", rd->nskip, rd->nskip == 1 ? "" : "s",
		    rd->skip_what, cap_linktypes_read);
	snprintf(src->note, sizeof src->note, "%s: %" PRIu64 " packet%s "
	    "skipped (not USB that urbscope reads), the first on %s",
	    src->name, rd->nskip, rd->nskip == 1 ? "" : "s", rd->skip_what);
	return CAP_END;
}

/*
 * A timestamp in if_tsresol units as ns since the epoch, or DEC_TS_BAD
 * when it lies beyond what int64 ns hold (the year 2262).
 */
static int64_t
ng_ts_ns(const struct ng_if *ifp, uint64_t ts)
{
	uint64_t	 sec, frac;
	int64_t		 t;
	unsigned int	 n;

	if (ifp->tsresol & 0x80) {
		/* 2^-n seconds */
		n = ifp->tsresol & 0x7f;
		sec = n < 64 ? ts >> n : 0;
		frac = n < 64 ? ts & ((1ULL << n) - 1) : ts;
		if (n > 30) {
			frac = n - 30 < 64 ? frac >> (n - 30) : 0;
			n = 30;
		}
		frac = (frac * 1000000000) >> n;
	} else {
		n = ifp->tsresol;
		if (n <= 9) {
			sec = ts / ng_pow10[n];
			frac = ts % ng_pow10[n] * ng_pow10[9 - n];
		} else {
			ts /= ng_pow10[n - 9];	/* n checked at the IDB */
			sec = ts / 1000000000;
			frac = ts % 1000000000;
		}
	}
	if (sec > INT64_MAX ||
	    (t = dec_ts_make((int64_t)sec, (int64_t)frac)) == DEC_TS_BAD)
		return DEC_TS_BAD;
	return dec_ts_make(ifp->tsoffset, t);	/* if_tsoffset seconds */
}

static int
ng_probe(const char *name, const uint8_t *head, size_t n)
{
	(void)name;
	/*
	 * A file of fewer than 12 bytes that starts with the SHB's block
	 * type is a pcapng cut inside its section header: the reader says
	 * "truncated" (ng_block) rather than the registry "not a format".
	 */
	if (n >= 4 && n < 12 && get_le32(head) == NG_SHB)
		return 100;
	if (n < 12 || get_le32(head) != NG_SHB)
		return 0;
	if (get_le32(head + 8) != NG_BOM && get_be32(head + 8) != NG_BOM)
		return 0;
	return 100;
}

static const char *
ng_block_name(uint32_t type)
{
	switch (type) {
	case NG_SHB:
		return "section header";
	case NG_IDB:
		return "interface description";
	case NG_PB:
		return "packet";
	case NG_SPB:
		return "simple packet";
	case NG_ISB:
		return "interface statistics";
	case NG_EPB:
		return "enhanced packet";
	default:
		return "a";
	}
}

/*
 * The whole block at the current offset into *p: 1, 0 at the end of the
 * input, or a negative error.  Sets the byte order when it is an SHB.
 */
static int
ng_block(struct cap_source *src, const uint8_t **p, uint32_t *type,
    uint32_t *blen)
{
	struct ng_rd	*rd = src->priv;
	uint64_t	 off, recno;
	uint32_t	 trailer;
	long		 n;
	int		 be = rd->be;

	off = cap_in_offset(&src->in);
	recno = src->recno + 1;
	if ((n = cap_in_peek(&src->in, 12, p)) < 0)
		return cap_error(src, (int)n, recno, off, "read error: %s",
		    cap_in_strerror(&src->in));
	if (n == 0)
		return 0;
	if (n < 4 || (n < 8 && get_le32(*p) != NG_SHB))
		return cap_error(src, UE_TRUNCATED, recno, off, "the file "
		    "ends inside a block header (%ld bytes)", n);
	if (get_le32(*p) == NG_SHB) {
		*type = NG_SHB;
		/* A section header is no record: its offset only. */
		if (n < 12)
			return cap_error(src, UE_TRUNCATED, 0, off, "the "
			    "file ends inside the section header block (%ld "
			    "of at least 28 bytes)", n);
		if (get_le32(*p + 8) == NG_BOM)
			be = 0;
		else if (get_be32(*p + 8) == NG_BOM)
			be = 1;
		else
			return cap_error(src, UE_BADREC, recno, off, "section "
			    "header with a bad byte-order magic 0x%08" PRIx32,
			    get_le32(*p + 8));
	} else
		*type = get_bo32(*p, be);
	*blen = get_bo32(*p + 4, be);
	if (*blen < 12 || *blen % 4 != 0)
		return cap_error(src, UE_BADREC, recno, off, "%s block of "
		    "type 0x%08" PRIx32 " has length %" PRIu32 ", not a "
		    "multiple of 4 of at least 12", ng_block_name(*type),
		    *type, *blen);
	if (*blen > NG_ABSURD)
		return cap_error(src, UE_BADREC, recno, off, "%s block of "
		    "%" PRIu32 " bytes is larger than any capture holds",
		    ng_block_name(*type), *blen);
	if ((n = cap_in_peek(&src->in, *blen, p)) < 0)
		return cap_error(src, (int)n, recno, off, "read error: %s",
		    cap_in_strerror(&src->in));
	if ((size_t)n < *blen)
		return cap_error(src, UE_TRUNCATED, *type == NG_SHB ? 0 :
		    recno, off, "the file "
		    "ends inside %s%s block (%ld of %" PRIu32 " bytes)",
		    *type == NG_SHB || *type == NG_IDB || *type == NG_PB ||
		    *type == NG_SPB || *type == NG_ISB || *type == NG_EPB ?
		    "the " : "", ng_block_name(*type), n, *blen);
	cap_in_prefetch(*p, *blen);
	trailer = get_bo32(*p + *blen - 4, be);
	if (trailer != *blen)
		return cap_error(src, UE_BADREC, recno, off, "%s block "
		    "length %" PRIu32 " differs from its trailer's %" PRIu32,
		    ng_block_name(*type), *blen, trailer);
	if (*type == NG_SHB) {
		rd->be = be;
		rd->swap = be == host_is_le();
	}
	return 1;
}

static int
ng_shb(struct cap_source *src, const uint8_t *p, uint32_t blen)
{
	struct ng_rd	*rd = src->priv;
	uint64_t	 off;
	uint16_t	 major, minor;

	off = cap_in_offset(&src->in);
	if (blen < 28)
		return cap_error(src, UE_BADREC, src->recno + 1, off,
		    "section header of %" PRIu32 " bytes is shorter than 28",
		    blen);
	major = get_bo16(p + 12, rd->be);
	minor = get_bo16(p + 14, rd->be);
	if (major != 1)
		return cap_error(src, UE_NOTSUP, src->recno + 1, off,
		    "pcapng version %u.%u is not supported (only 1.x is)",
		    major, minor);
	rd->ifbase += rd->nifs;
	rd->nifs = 0;
	rd->section++;
	return 0;
}

static int
ng_idb(struct cap_source *src, const uint8_t *p, uint32_t blen)
{
	struct ng_rd	*rd = src->priv;
	struct ng_if	*ifp, *nifs;
	const uint8_t	*o;
	uint64_t	 off, recno;
	uint32_t	 left, cap, olen, i, k;
	uint16_t	 code;

	off = cap_in_offset(&src->in);
	recno = src->recno + 1;
	if (blen < 20)
		return cap_error(src, UE_BADREC, recno, off, "interface "
		    "description of %" PRIu32 " bytes is shorter than 20",
		    blen);
	if (rd->nifs == NG_MAX_IFS)
		return cap_error(src, UE_BADREC, recno, off, "more than %d "
		    "interfaces in one section", NG_MAX_IFS);
	if (rd->nifs == rd->capifs) {
		cap = rd->capifs ? rd->capifs * 2 : 4;
		if ((nifs = reallocarray(rd->ifs, cap, sizeof *nifs)) == NULL)
			return cap_error(src, UE_NOMEM, recno, off, "%s",
			    ue_strerror(UE_NOMEM));
		rd->ifs = nifs;
		rd->capifs = cap;
	}
	ifp = &rd->ifs[rd->nifs];
	memset(ifp, 0, sizeof *ifp);
	ifp->linktype = get_bo16(p + 8, rd->be);
	/* the file's USB link type before its first packet (a sniffer's
	 * file starts with bus events): what convert writes */
	if (src->linktype == 0 && (ifp->linktype == 189 ||
	    ifp->linktype == 220 || ifp->linktype == 249 ||
	    ifp->linktype == 266 || cap_usbll_linktype(ifp->linktype)))
		src->linktype = ifp->linktype;
	ifp->snaplen = get_bo32(p + 12, rd->be);
	ifp->tsresol = 6;

	o = p + 16;
	left = blen - 20;
	while (left >= 4) {
		code = get_bo16(o, rd->be);
		olen = get_bo16(o + 2, rd->be);
		if (code == OPT_END)
			break;
		if (PAD4(olen) > left - 4)
			return cap_error(src, UE_BADREC, recno, off, "option "
			    "%u of interface %" PRIu32 " (%" PRIu32 " bytes) "
			    "runs past the end of its block", code, rd->nifs,
			    olen);
		switch (code) {
		case OPT_IF_NAME:
			for (i = k = 0; i < olen && o[4 + i] != '\0' &&
			    k + 1 < sizeof ifp->name; i++) {
				ifp->name[k++] = o[4 + i] >= 0x20 &&
				    o[4 + i] < 0x7f ? (char)o[4 + i] : '?';
			}
			ifp->name[k] = '\0';
			break;
		case OPT_IF_TSRESOL:
			if (olen < 1)
				break;
			ifp->tsresol = o[4];
			if ((ifp->tsresol & 0x80) == 0 &&
			    ifp->tsresol > 9 + 19)
				return cap_error(src, UE_BADREC, recno, off,
				    "if_tsresol 10^-%u of interface %" PRIu32
				    " is out of range", ifp->tsresol,
				    rd->nifs);
			break;
		case OPT_IF_TSOFFSET:
			if (olen >= 8)
				ifp->tsoffset = (int64_t)get_bo64(o + 4, rd->be);
			break;
		}
		o += 4 + PAD4(olen);
		left -= 4 + PAD4(olen);
	}
	rd->nifs++;
	return 0;
}

static int
ng_open(struct cap_source *src)
{
	const uint8_t	*p;
	uint32_t	 type, blen;
	int		 rc;

	if ((rc = ng_block(src, &p, &type, &blen)) < 0)
		return rc;
	if (rc == 0 || type != NG_SHB)
		return cap_error(src, UE_MAGIC, 0, 0, "not a pcapng file");
	if ((rc = ng_shb(src, p, blen)) < 0)
		return rc;
	cap_in_skip(&src->in, blen);
	return 0;
}

/* Room for n bytes of strings in rd->evstore: 0 or -UE_NOMEM. */
static int
ng_evstore(struct ng_rd *rd, size_t n)
{
	char	*ns;

	if (rd->evsize >= n)
		return 0;
	if ((ns = realloc(rd->evstore, n)) == NULL)
		return -UE_NOMEM;
	rd->evstore = ns;
	rd->evsize = n;
	return 0;
}

/* A sniffer's syslog message of n bytes at p into ev, a bus event. */
static int
ng_bus_event(struct cap_source *src, const uint8_t *p, size_t n,
    uint64_t recno, uint64_t off, struct drv_event *ev)
{
	struct ng_rd	*rd = src->priv;
	int		 level, facility, rc;

	if (ng_evstore(rd, 3 * n + 1) < 0)
		return cap_error(src, UE_NOMEM, recno, off, "%s",
		    ue_strerror(UE_NOMEM));
	if ((rc = dec_syslog_parse(p, n, &level, &facility, rd->evstore,
	    rd->evsize)) < 0)
		return cap_error(src, rc, recno, off, "bus event: %s",
		    ue_strerror(rc));
	memset(ev, 0, sizeof *ev);
	ev->kind = DRV_BUS;
	ev->intf = -1;
	ev->minor = -1;
	ev->text = rd->evstore;
	ev->syslog_level = (int16_t)level;
	ev->syslog_facility = (int16_t)facility;
	ev->bus_ev = (uint8_t)dec_bus_ev(ev->text, &ev->bus_speed);
	/* what the packets after it are put together by */
	if (ev->bus_ev == BUS_EV_SPEED && rd->ll == NULL)
		rd->ll_speed = ev->bus_speed;
	else if (rd->ll != NULL)
		cap_usbll_bus(rd->ll, ev->bus_ev, ev->bus_speed);
	return CAP_EVENT;
}

/*
 * An exported-PDU packet of caplen bytes at pkt into ev: the tags, then
 * our line or a sniffer's syslog message.  Returns CAP_EVENT or an error
 * (-UE_LINKTYPE: a PDU of another kind).
 */
static int
ng_event(struct cap_source *src, const uint8_t *pkt, uint32_t caplen,
    uint32_t len, uint32_t ifid, uint64_t recno, uint64_t off,
    struct drv_event *ev)
{
	struct ng_rd	*rd = src->priv;
	const uint8_t	*p = pkt, *dis = NULL;
	const char	*line;
	uint32_t	 left = caplen;
	uint16_t	 tag, tlen, dlen = 0;
	size_t		 n, col;
	int		 rc;

	if (caplen < len)
		return cap_error(src, UE_BADREC, recno, off, "driver event "
		    "on interface %" PRIu32 " cut to %" PRIu32 " of %" PRIu32
		    " bytes", ifid, caplen, len);
	for (;;) {
		if (left < 4)
			return cap_error(src, UE_BADREC, recno, off, "exported "
			    "PDU on interface %" PRIu32 " ends inside its "
			    "tags", ifid);
		tag = get_be16(p);
		tlen = get_be16(p + 2);
		if (tlen > left - 4)
			return cap_error(src, UE_BADREC, recno, off, "exported "
			    "PDU tag %u (%u bytes) runs past the end of the "
			    "packet", tag, tlen);
		if (tag == EXP_PDU_DISSECTOR) {
			dis = p + 4;
			dlen = tlen;
		}
		p += 4 + tlen;
		left -= 4 + (uint32_t)tlen;
		if (tag == EXP_PDU_END)
			break;
	}
	/* the name is padded with NULs, or not */
	while (dlen > 0 && dis[dlen - 1] == '\0')
		dlen--;
	if (dlen == sizeof BUS_DISSECTOR - 1 &&
	    memcmp(dis, BUS_DISSECTOR, dlen) == 0)
		return ng_bus_event(src, p, left, recno, off, ev);
	line = (const char *)p;
	n = left;
	while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r' ||
	    line[n - 1] == '\0'))
		n--;
	if (n < sizeof DEC_EVENT_PREFIX - 1 || memcmp(line, DEC_EVENT_PREFIX,
	    sizeof DEC_EVENT_PREFIX - 1) != 0)
		return cap_error(src, UE_LINKTYPE, recno, off, "exported PDU "
		    "on interface %" PRIu32 " is not an urbscope driver event; "
		    "%s", ifid, cap_linktypes_read);
	if (ng_evstore(rd, n + 8) < 0)
		return cap_error(src, UE_NOMEM, recno, off, "%s",
		    ue_strerror(UE_NOMEM));
	if ((rc = dec_event_parse(line, n, ev, rd->evstore, rd->evsize,
	    &col)) < 0)
		return cap_error(src, rc, recno, off, "driver event line: %s "
		    "at column %zu", ue_strerror(rc), col);
	return CAP_EVENT;
}

/*
 * The opt_comment options of a packet block (draft-ietf-opsawg-pcapng
 * 4.3, options as 3.5: {u16 code, u16 length, value padded to 4}), into
 * rd->cmt one after the other, NUL-terminated, control characters as '.'
 * (they go to terminals).  Options cut short end the list: the packet is
 * still good.
 */
static void
ng_comments(struct ng_rd *rd, const uint8_t *o, size_t n, struct urb_rec *r)
{
	size_t		 used = 0, adv, i, need;
	uint16_t	 code, len;
	char		*nc;

	r->comments = NULL;
	r->ncomments = 0;
	while (n >= 4) {
		code = get_bo16(o, rd->be);
		len = get_bo16(o + 2, rd->be);
		if (code == OPT_END || (size_t)len > n - 4)
			break;
		if (code == OPT_COMMENT) {
			need = used + len + 1;
			if (need > rd->cmtsize) {
				if ((nc = realloc(rd->cmt, need)) == NULL)
					break;
				rd->cmt = nc;
				rd->cmtsize = need;
			}
			for (i = 0; i < len; i++)
				rd->cmt[used + i] = o[4 + i] < 0x20 ||
				    o[4 + i] == 0x7f ? '.' : (char)o[4 + i];
			rd->cmt[used + len] = '\0';
			used += (size_t)len + 1;
			r->ncomments++;
		}
		adv = 4 + (size_t)PAD4(len);
		if (adv >= n)
			break;
		o += adv;
		n -= adv;
	}
	if (r->ncomments > 0)
		r->comments = rd->cmt;
}

static int
ng_next(struct cap_source *src, struct urb_rec *r, struct drv_event *ev)
{
	struct ng_rd	*rd = src->priv;
	struct ng_if	*ifp;
	const uint8_t	*p, *pkt, *opts;
	const char	*why;
	uint64_t	 off, recno, ts = 0;
	uint32_t	 type, blen, ifid, caplen, len, nopts;
	size_t		 hdr_len;
	int		 rc;

	for (;;) {
		off = cap_in_offset(&src->in);
		recno = src->recno + 1;
		if ((rc = ng_block(src, &p, &type, &blen)) <= 0)
			return rc == 0 ? ng_end(src) : rc;
		switch (type) {
		case NG_SHB:
			if ((rc = ng_shb(src, p, blen)) < 0)
				return rc;
			cap_in_skip(&src->in, blen);
			continue;
		case NG_IDB:
			if ((rc = ng_idb(src, p, blen)) < 0)
				return rc;
			cap_in_skip(&src->in, blen);
			continue;
		case NG_EPB:
			if (blen < 32)
				goto short_block;
			ifid = get_bo32(p + 8, rd->be);
			ts = (uint64_t)get_bo32(p + 12, rd->be) << 32 |
			    get_bo32(p + 16, rd->be);
			caplen = get_bo32(p + 20, rd->be);
			len = get_bo32(p + 24, rd->be);
			pkt = p + 28;
			if (caplen > blen - 32)
				goto long_packet;
			/* options after the padded packet, before the
			 * block's closing length */
			nopts = PAD4(caplen) <= blen - 32 ?
			    blen - 32 - PAD4(caplen) : 0;
			opts = pkt + PAD4(caplen);
			break;
		case NG_PB:
			if (blen < 32)
				goto short_block;
			ifid = get_bo16(p + 8, rd->be);
			ts = (uint64_t)get_bo32(p + 12, rd->be) << 32 |
			    get_bo32(p + 16, rd->be);
			caplen = get_bo32(p + 20, rd->be);
			len = get_bo32(p + 24, rd->be);
			pkt = p + 28;
			if (caplen > blen - 32)
				goto long_packet;
			/* options after the padded packet, before the
			 * block's closing length */
			nopts = PAD4(caplen) <= blen - 32 ?
			    blen - 32 - PAD4(caplen) : 0;
			opts = pkt + PAD4(caplen);
			break;
		case NG_SPB:
			if (blen < 16)
				goto short_block;
			ifid = 0;
			len = get_bo32(p + 8, rd->be);
			caplen = len < blen - 16 ? len : blen - 16;
			nopts = 0;		/* a simple block has none */
			opts = NULL;
			if (rd->nifs > 0 && rd->ifs[0].snaplen != 0 &&
			    caplen > rd->ifs[0].snaplen)
				caplen = rd->ifs[0].snaplen;
			pkt = p + 12;
			break;
		default:
			cap_in_skip(&src->in, blen);
			continue;
		}

		if (ifid >= rd->nifs)
			return cap_error(src, UE_BADREC, recno, off, "packet "
			    "on interface %" PRIu32 ", but section %" PRIu64
			    " describes %" PRIu32 " interfaces", ifid,
			    rd->section, rd->nifs);
		ifp = &rd->ifs[ifid];
		if (ifp->linktype == LT_UPPER_PDU) {
			if ((rc = ng_event(src, pkt, caplen, len, ifid, recno,
			    off, ev)) == -UE_LINKTYPE) {
				/* exported PDUs of another program */
				ng_skip(src, ifp, ifid, type == NG_SPB ?
				    DEC_TS_BAD : ng_ts_ns(ifp, ts), ", "
				    "exported PDUs that are neither urbscope "
				    "driver events nor syslog bus events");
				cap_in_skip(&src->in, blen);
				continue;
			}
			if (rc < 0)
				return rc;
			ev->ts_ns = type == NG_SPB ? 0 : ng_ts_ns(ifp, ts);
			cap_in_skip(&src->in, blen);
			rd->nread++;
			return CAP_EVENT;
		}
		if (cap_usbll_linktype(ifp->linktype)) {
			if (rd->ll == NULL) {
				if ((rd->ll = cap_usbll_new(ifp->linktype)) ==
				    NULL)
					return cap_error(src, UE_NOMEM, recno,
					    off, "%s", ue_strerror(UE_NOMEM));
				if (rd->ll_speed != 0)
					cap_usbll_bus(rd->ll, BUS_EV_SPEED,
					    rd->ll_speed);
			}
			(void)cap_usbll_packet(rd->ll, pkt, caplen, r);
			r->ts_ns = type == NG_SPB ? 0 : ng_ts_ns(ifp, ts);
			r->ts_sec = r->ts_ns / 1000000000;
			r->ts_usec = (int32_t)(r->ts_ns % 1000000000 / 1000);
			goto got;
		}
		if (ifp->linktype == 189)
			hdr_len = URB_HDR48;
		else if (ifp->linktype == 220)
			hdr_len = URB_HDR64;
		else if (ifp->linktype == 249)
			hdr_len = USBPCAP_HDR;
		else if (ifp->linktype == 266)
			hdr_len = DARWIN_HDR;
		else {
			ng_skip(src, ifp, ifid, type == NG_SPB ?
			    DEC_TS_BAD : ng_ts_ns(ifp, ts), "");
			cap_in_skip(&src->in, blen);
			continue;
		}
		if (caplen < hdr_len)
			return cap_error(src, UE_BADREC, recno, off, "captured "
			    "length %" PRIu32 " is shorter than the %zu-byte "
			    "%s header", caplen, hdr_len, ifp->linktype == 249 ?
			    "USBPcap" : ifp->linktype == 266 ? "macOS USB" :
			    "usbmon");

		if (ifp->linktype == 266) {
			if (cap_darwin_packet(pkt, caplen, len, rd->iso, r,
			    &why) < 0)
				return cap_error(src, UE_BADREC, recno, off,
				    "%s", why);
		} else if (ifp->linktype != 249)
			cap_usbmon_packet(pkt, caplen, len, hdr_len, rd->swap,
			    rd->iso, r);
		else if (cap_usbpcap_packet(pkt, caplen, len, rd->iso, r,
		    &why) < 0)
			return cap_error(src, UE_BADREC, recno, off, "%s", why);
		if ((ifp->linktype == 249 || ifp->linktype == 266) &&
		    type != NG_SPB) {
			r->ts_ns = ng_ts_ns(ifp, ts);
			r->ts_sec = r->ts_ns / 1000000000;
			r->ts_usec = (int32_t)(r->ts_ns % 1000000000 / 1000);
		} else if (type == NG_SPB)
			r->ts_ns = dec_ts_make(r->ts_sec,
			    (int64_t)r->ts_usec * 1000);
		else
			r->ts_ns = ng_ts_ns(ifp, ts);
got:
		r->wire_len = len;
		r->cap_len = caplen;
		ng_comments(rd, opts, nopts, r);
		r->ifindex = rd->ifbase + ifid;
		r->ifname = ifp->name[0] != '\0' ? ifp->name : NULL;
		r->offset = off;
		src->linktype = ifp->linktype;
		cap_in_skip(&src->in, blen);
		rd->nread++;
		return CAP_URB;
	}

short_block:
	return cap_error(src, UE_BADREC, recno, off, "%s block of %" PRIu32
	    " bytes is too short for its fields", ng_block_name(type), blen);
long_packet:
	return cap_error(src, UE_BADREC, recno, off, "captured length %"
	    PRIu32 " does not fit in the %" PRIu32 "-byte %s block", caplen,
	    blen, ng_block_name(type));
}

static void
ng_close(struct cap_source *src)
{
	struct ng_rd	*rd = src->priv;

	free(rd->ifs);
	rd->ifs = NULL;
	free(rd->evstore);
	rd->evstore = NULL;
	free(rd->cmt);
	rd->cmt = NULL;
	rd->cmtsize = 0;
	cap_usbll_free(rd->ll);
	rd->ll = NULL;
}

/* What a place in the file needs beyond its start: the section's byte
 * order and the interfaces described so far. */
struct ng_mark {
	struct cap_usbll *ll;		/* bus-level transactions open */
	uint8_t		 ll_speed;
	int		 be, swap;
	uint64_t	 section;
	uint32_t	 nifs, ifbase;
	struct ng_if	 ifs[];
};

static void *
ng_mark(struct cap_source *src, int *err)
{
	struct ng_rd	*rd = src->priv;
	struct ng_mark	*m;

	if ((m = malloc(sizeof *m + rd->nifs * sizeof m->ifs[0])) == NULL) {
		*err = -UE_NOMEM;
		return NULL;
	}
	m->ll = NULL;
	if (rd->ll != NULL && (m->ll = cap_usbll_clone(rd->ll)) == NULL) {
		free(m);
		*err = -UE_NOMEM;
		return NULL;
	}
	m->ll_speed = rd->ll_speed;
	m->be = rd->be;
	m->swap = rd->swap;
	m->section = rd->section;
	m->nifs = rd->nifs;
	m->ifbase = rd->ifbase;
	if (rd->nifs > 0)
		memcpy(m->ifs, rd->ifs, rd->nifs * sizeof m->ifs[0]);
	return m;
}

static int
ng_seek(struct cap_source *src, const void *state)
{
	struct ng_rd	*rd = src->priv;
	const struct ng_mark *m = state;
	struct ng_if	*ifs = NULL;

	if (m->nifs > 0 && (ifs = malloc(m->nifs * sizeof *ifs)) == NULL)
		return cap_error(src, UE_NOMEM, src->recno + 1,
		    cap_in_offset(&src->in), "%s", ue_strerror(UE_NOMEM));
	if (m->nifs > 0)
		memcpy(ifs, m->ifs, m->nifs * sizeof *ifs);
	if (m->ll != NULL) {
		cap_usbll_free(rd->ll);
		if ((rd->ll = cap_usbll_clone(m->ll)) == NULL) {
			free(ifs);
			return cap_error(src, UE_NOMEM, src->recno + 1,
			    cap_in_offset(&src->in), "%s",
			    ue_strerror(UE_NOMEM));
		}
	}
	free(rd->ifs);
	rd->ifs = ifs;
	rd->nifs = rd->capifs = m->nifs;
	rd->ll_speed = m->ll_speed;
	rd->be = m->be;
	rd->swap = m->swap;
	rd->section = m->section;
	rd->ifbase = m->ifbase;
	return 0;
}

static void
ng_mark_free(void *state)
{
	struct ng_mark	*m = state;

	cap_usbll_free(m->ll);
	free(m);
}

const struct cap_source_ops cap_pcapng_source = {
	.name = "pcapng",
	.desc = "pcapng file, interfaces of link type 189, 220, 249, 266, "
	    "288 or 293-295 (and 252 for urbscope driver events and "
	    "sniffers' syslog bus events)",
	.probe = ng_probe,
	.priv_size = sizeof(struct ng_rd),
	.open = ng_open,
	.next = ng_next,
	.close = ng_close,
	.mark = ng_mark,
	.seek = ng_seek,
	.mark_free = ng_mark_free,
};

/* ------------------------------------------------------------------------
 * Writer.
 */
#define NG_CMTS		64		/* submits awaiting their 'S' */
#define NG_CMT_MAX	CAP_SUBMIT_COMMENT_MAX

/* The driver call that submitted a URB, for the comment on its 'S'. */
struct ng_cmt {
	uint64_t	 urb_id;
	int		 used;
	char		 text[NG_CMT_MAX];
};

#define NG_OUT_IFS	64		/* URB interfaces kept apart; more share 0 */

struct ng_wr {
	int		 be;
	uint32_t	 snaplen;
	uint64_t	 tsdiv;		/* ns per if_tsresol unit */
	uint8_t		 resol;
	int		 ev_if;		/* the event interface is written */
	uint32_t	 ev_id;		/* ... its interface id */
	/*
	 * URB interfaces: output interface out_id[k] holds the records of
	 * input interface in_if[k] (the first one met gets interface 0,
	 * written at open), so several usbmon interfaces stay several.
	 */
	uint32_t	 in_if[NG_OUT_IFS];
	uint32_t	 out_id[NG_OUT_IFS];
	uint32_t	 nurb_if;	/* URB interfaces in the tables */
	uint32_t	 nifs;		/* interfaces written, all kinds */
	uint16_t	 urb_lt;	/* their link type */
	struct sbuf	 line;
	struct ng_cmt	 cmt[NG_CMTS];
	size_t		 cmt_next;	/* round robin when all are used */
	uint8_t		 pre[URB_HDR64 + 16 * URB_ISO_MAX];
};

/* An option: code, length, value padded to 4.  Returns bytes written. */
static size_t
ng_opt(uint8_t *p, uint16_t code, const void *v, uint16_t len, int be)
{
	put_bo16(p, code, be);
	put_bo16(p + 2, len, be);
	memset(p + 4, 0, PAD4(len));
	if (len > 0)
		memcpy(p + 4, v, len);
	return 4 + PAD4(len);
}

/* An interface description: link type, snaplen, if_name, if_tsresol. */
static int
ng_write_idb(struct cap_sink *sink, uint16_t linktype, uint32_t snaplen,
    const char *name)
{
	struct ng_wr	*wr = sink->priv;
	uint8_t		 b[16 + 4 + 256 + 8 + 4 + 4];
	size_t		 n, namelen;

	namelen = strlen(name);
	if (namelen > 255)
		namelen = 255;
	put_bo32(b, NG_IDB, wr->be);
	put_bo16(b + 8, linktype, wr->be);
	put_bo16(b + 10, 0, wr->be);
	put_bo32(b + 12, snaplen, wr->be);
	n = 16;
	n += ng_opt(b + n, OPT_IF_NAME, name, (uint16_t)namelen, wr->be);
	n += ng_opt(b + n, OPT_IF_TSRESOL, &wr->resol, 1, wr->be);
	n += ng_opt(b + n, OPT_END, NULL, 0, wr->be);
	put_bo32(b + 4, (uint32_t)n + 4, wr->be);
	put_bo32(b + n, (uint32_t)n + 4, wr->be);
	return cap_out_write(&sink->out, b, n + 4);
}

static int
ng_wopen(struct cap_sink *sink)
{
	static const char appl[] = "urbscope";
	struct ng_wr	*wr = sink->priv;
	uint8_t		 b[512];
	size_t		 n;
	uint8_t		 resol;
	int		 rc;

	wr->be = host_is_le() ? sink->opts.swap != 0 : sink->opts.swap == 0;
	wr->snaplen = sink->opts.snaplen ? sink->opts.snaplen : NG_SNAPLEN;
	if (wr->snaplen < URB_HDR64) {
		snprintf(sink->err, sizeof sink->err, "%s: snaplen %" PRIu32
		    " is smaller than the 64-byte usbmon header", sink->path,
		    wr->snaplen);
		return -UE_USAGE;
	}
	/* bus-level packets are nanoseconds apart */
	resol = sink->opts.tsresol ? (uint8_t)sink->opts.tsresol :
	    cap_usbll_linktype(sink->opts.linktype) ? 9 : 6;
	if (sink->opts.tsresol < 0 || resol > 9) {
		snprintf(sink->err, sizeof sink->err, "%s: timestamp "
		    "resolution 10^-%d is not one of 10^-1 .. 10^-9",
		    sink->path, sink->opts.tsresol);
		return -UE_USAGE;
	}
	wr->tsdiv = ng_pow10[9 - resol];
	wr->resol = resol;

	/* Section header: version 1.0, section length unknown. */
	put_bo32(b, NG_SHB, wr->be);
	put_bo32(b + 8, NG_BOM, wr->be);
	put_bo16(b + 12, 1, wr->be);
	put_bo16(b + 14, 0, wr->be);
	memset(b + 16, 0xff, 8);
	n = 24;
	n += ng_opt(b + n, OPT_SHB_USERAPPL, appl, sizeof appl - 1, wr->be);
	n += ng_opt(b + n, OPT_END, NULL, 0, wr->be);
	put_bo32(b + 4, (uint32_t)n + 4, wr->be);
	put_bo32(b + n, (uint32_t)n + 4, wr->be);
	if ((rc = cap_out_write(&sink->out, b, n + 4)) != 0)
		return rc;

	/* The first interface of URBs. */
	wr->nifs = 1;
	if (sink->opts.linktype == 249) {
		wr->urb_lt = 249;
		return ng_write_idb(sink, 249, wr->snaplen,
		    sink->opts.if_name ? sink->opts.if_name : "USBPcap1");
	}
	if (cap_usbll_linktype(sink->opts.linktype) ||
	    sink->opts.linktype == 266) {
		wr->urb_lt = sink->opts.linktype;
		return ng_write_idb(sink, (uint16_t)wr->urb_lt, wr->snaplen,
		    sink->opts.if_name ? sink->opts.if_name :
		    sink->opts.linktype == 266 ? "XHC20" : "usb");
	}
	if (sink->opts.linktype != 0 && sink->opts.linktype != 220) {
		snprintf(sink->err, sizeof sink->err, "%s: %s", sink->path,
		    cap_linktypes_written);
		return -UE_USAGE;
	}
	wr->urb_lt = 220;
	return ng_write_idb(sink, 220, wr->snaplen, sink->opts.if_name ?
	    sink->opts.if_name : "usbmon0");
}

/*
 * The output interface of r's input interface: 0 for the first met, a new
 * one (its IDB written now, with the input's if_name) for each other.
 * Returns the id, or a negative error.
 */
static long
ng_urb_if(struct cap_sink *sink, const struct urb_rec *r)
{
	struct ng_wr	*wr = sink->priv;
	char		 name[32];
	uint32_t	 k;
	int		 rc;

	for (k = 0; k < wr->nurb_if; k++) {
		if (wr->in_if[k] == r->ifindex)
			return wr->out_id[k];
	}
	if (wr->nurb_if == 0) {
		wr->in_if[0] = r->ifindex;
		wr->out_id[0] = 0;
		wr->nurb_if = 1;
		return 0;
	}
	if (wr->nurb_if == NG_OUT_IFS)
		return 0;
	if (r->ifname == NULL)
		snprintf(name, sizeof name, "usbmon%u", r->busnum);
	if ((rc = ng_write_idb(sink, wr->urb_lt, wr->snaplen,
	    r->ifname != NULL ? r->ifname : name)) != 0)
		return rc;
	wr->in_if[wr->nurb_if] = r->ifindex;
	wr->out_id[wr->nurb_if++] = wr->nifs;
	return wr->nifs++;
}

/* The comment waiting for r, taken off the table; NULL if none. */
static const char *
ng_cmt_take(struct ng_wr *wr, const struct urb_rec *r)
{
	size_t	 i;

	if (r->type != 'S')
		return NULL;
	for (i = 0; i < NG_CMTS; i++) {
		if (wr->cmt[i].used && wr->cmt[i].urb_id == r->id) {
			wr->cmt[i].used = 0;
			return wr->cmt[i].text;
		}
	}
	return NULL;
}

static int
ng_write(struct cap_sink *sink, const struct urb_rec *r)
{
	static const uint8_t zero[4];
	struct ng_wr	*wr = sink->priv;
	const char	*cmt;
	const uint8_t	*data;
	uint8_t		 h[28], t[4], o[4 + NG_CMT_MAX + 4 + 4];
	uint64_t	 total, orig, ts;
	uint32_t	 caplen, npre, blen;
	size_t		 olen = 0;
	long		 ifid;
	int		 rc;

	if ((ifid = ng_urb_if(sink, r)) < 0)
		return (int)ifid;
	cmt = ng_cmt_take(wr, r);
	if (cmt == NULL && (r->flags & REC_F_SYNTHETIC))
		cmt = CAP_SYNTH_COMMENT;
	if (cmt != NULL) {
		olen = ng_opt(o, OPT_COMMENT, cmt, (uint16_t)strlen(cmt),
		    wr->be);
		olen += ng_opt(o + olen, OPT_END, NULL, 0, wr->be);
	}

	/* the header goes in the file's order: swapped when not the host's
	 * (USBPcap's is little-endian always) */
	npre = cap_packet_layout(sink->opts.linktype, r, wr->be ==
	    host_is_le(), wr->pre, &data, &total, &orig);
	caplen = total > wr->snaplen ? wr->snaplen : (uint32_t)total;
	blen = 32 + PAD4(caplen) + (uint32_t)olen;
	ts = r->ts_ns < 0 ? 0 : (uint64_t)r->ts_ns / wr->tsdiv;

	put_bo32(h, NG_EPB, wr->be);
	put_bo32(h + 4, blen, wr->be);
	put_bo32(h + 8, (uint32_t)ifid, wr->be);
	put_bo32(h + 12, (uint32_t)(ts >> 32), wr->be);
	put_bo32(h + 16, (uint32_t)ts, wr->be);
	put_bo32(h + 20, caplen, wr->be);
	put_bo32(h + 24, orig > UINT32_MAX ? UINT32_MAX : (uint32_t)orig, wr->be);
	put_bo32(t, blen, wr->be);
	if ((rc = cap_out_write(&sink->out, h, sizeof h)) != 0)
		return rc;
	if (caplen <= npre)
		rc = cap_out_write(&sink->out, wr->pre, caplen);
	else if ((rc = cap_out_write(&sink->out, wr->pre, npre)) == 0)
		rc = cap_out_write(&sink->out, data, caplen - npre);
	if (rc != 0)
		return rc;
	if ((rc = cap_out_write(&sink->out, zero, PAD4(caplen) - caplen)) != 0)
		return rc;
	if (olen > 0 && (rc = cap_out_write(&sink->out, o, olen)) != 0)
		return rc;
	return cap_out_write(&sink->out, t, sizeof t);
}

void
cap_submit_comment(const struct drv_event *ev, char *buf, size_t len)
{
	const char	*mem;

	mem = dec_name_find(dec_gfp_flags, ev->mem_flags);
	if (mem != NULL)
		snprintf(buf, len, "%s %s usb_submit_urb %s",
		    ev->driver != NULL ? ev->driver : "-",
		    ev->func != NULL ? ev->func : "-", mem);
	else
		snprintf(buf, len, "%s %s usb_submit_urb mem_flags 0x%" PRIx32,
		    ev->driver != NULL ? ev->driver : "-",
		    ev->func != NULL ? ev->func : "-", ev->mem_flags);
}

/* Remember which driver call submitted ev->urb_id. */
static void
ng_cmt_put(struct ng_wr *wr, const struct drv_event *ev)
{
	struct ng_cmt	*c = NULL;
	size_t		 i;

	for (i = 0; i < NG_CMTS && c == NULL; i++) {
		if (wr->cmt[i].used && wr->cmt[i].urb_id == ev->urb_id)
			c = &wr->cmt[i];
	}
	for (i = 0; i < NG_CMTS && c == NULL; i++) {
		if (!wr->cmt[i].used)
			c = &wr->cmt[i];
	}
	if (c == NULL) {
		c = &wr->cmt[wr->cmt_next];
		wr->cmt_next = (wr->cmt_next + 1) % NG_CMTS;
	}
	c->used = 1;
	c->urb_id = ev->urb_id;
	cap_submit_comment(ev, c->text, sizeof c->text);
}

/* An exported-PDU tag of a string at p, padded to 4: bytes written. */
static size_t
ng_pdu_tag(uint8_t *p, uint16_t tag, const char *s)
{
	size_t	 n = strlen(s);

	put_be16(p, tag);
	put_be16(p + 2, (uint16_t)PAD4(n));
	memset(p + 4, 0, PAD4(n));
	memcpy(p + 4, s, n);
	return 4 + PAD4(n);
}

static int
ng_write_event(struct cap_sink *sink, const struct drv_event *ev)
{
	static const uint8_t zero[4];
	struct ng_wr	*wr = sink->priv;
	uint8_t		 h[28], tags[48], t[4];
	uint64_t	 ts, caplen;
	uint32_t	 blen;
	size_t		 n;
	int		 rc;

	if (!wr->ev_if) {
		/* an interface of its own, for driver events */
		if ((rc = ng_write_idb(sink, LT_UPPER_PDU, 0,
		    EV_IF_NAME)) != 0)
			return rc;
		wr->ev_if = 1;
		wr->ev_id = wr->nifs++;
	}
	if (ev->kind == DRV_SUBMIT)
		ng_cmt_put(wr, ev);

	/* exported-PDU tags are big-endian whatever the section's order;
	 * a bus event is the sniffer's syslog message again */
	wr->line.len = 0;
	if (ev->kind == DRV_BUS) {
		n = ng_pdu_tag(tags, EXP_PDU_DISSECTOR, BUS_DISSECTOR);
		if (ev->syslog_level >= 0 && ev->syslog_facility >= 0)
			sb_printf(&wr->line, "<%d>", ev->syslog_facility * 8 +
			    (ev->syslog_level & 7));
		if (ev->text != NULL)
			sb_puts(&wr->line, ev->text);
	} else {
		n = ng_pdu_tag(tags, EXP_PDU_DISSECTOR, EV_DISSECTOR);
		n += ng_pdu_tag(tags + n, EXP_PDU_COL_PROT, EV_PROTO);
		dec_event_encode(ev, &wr->line);
	}
	put_be16(tags + n, EXP_PDU_END);
	put_be16(tags + n + 2, 0);
	n += 4;

	if (wr->line.oom)
		return -UE_NOMEM;
	caplen = n + wr->line.len;
	if (caplen > NG_ABSURD / 2) {
		snprintf(sink->err, sizeof sink->err, "%s: a driver event of "
		    "%zu bytes is too long", sink->path, wr->line.len);
		return -UE_RANGE;
	}
	blen = 32 + PAD4((uint32_t)caplen);
	ts = ev->ts_ns < 0 ? 0 : (uint64_t)ev->ts_ns / wr->tsdiv;
	put_bo32(h, NG_EPB, wr->be);
	put_bo32(h + 4, blen, wr->be);
	put_bo32(h + 8, wr->ev_id, wr->be);
	put_bo32(h + 12, (uint32_t)(ts >> 32), wr->be);
	put_bo32(h + 16, (uint32_t)ts, wr->be);
	put_bo32(h + 20, (uint32_t)caplen, wr->be);
	put_bo32(h + 24, (uint32_t)caplen, wr->be);
	put_bo32(t, blen, wr->be);
	if ((rc = cap_out_write(&sink->out, h, sizeof h)) != 0 ||
	    (rc = cap_out_write(&sink->out, tags, n)) != 0 ||
	    (wr->line.len > 0 && (rc = cap_out_write(&sink->out, wr->line.s,
	    wr->line.len)) != 0) ||
	    (rc = cap_out_write(&sink->out, zero, PAD4((uint32_t)caplen) -
	    (uint32_t)caplen)) != 0)
		return rc;
	return cap_out_write(&sink->out, t, sizeof t);
}

/* A timestamp option: tsresol units, high word then low word. */
static size_t
ng_opt_ts(uint8_t *p, uint16_t code, int64_t ns, const struct ng_wr *wr)
{
	uint8_t		 v[8];
	uint64_t	 ts;

	ts = ns < 0 ? 0 : (uint64_t)ns / wr->tsdiv;
	put_bo32(v, (uint32_t)(ts >> 32), wr->be);
	put_bo32(v + 4, (uint32_t)ts, wr->be);
	return ng_opt(p, code, v, 8, wr->be);
}

static size_t
ng_opt_u64(uint8_t *p, uint16_t code, uint64_t val, int be)
{
	uint8_t		 v[8];

	put_bo64(v, val, be);
	return ng_opt(p, code, v, 8, be);
}

/*
 * An interface statistics block: at the end of a live capture, what the
 * source received and what was lost (isb_ifdrop), with the capture's
 * start and end and a comment on how, for interface id.
 */
static int
ng_isb_one(struct cap_sink *sink, uint32_t id, uint64_t recv, uint64_t drop,
    const char *cmt)
{
	struct ng_wr	*wr = sink->priv;
	uint8_t		 b[256];
	uint64_t	 ts;
	size_t		 n;

	ts = sink->stats_end_ns < 0 ? 0 : (uint64_t)sink->stats_end_ns /
	    wr->tsdiv;
	put_bo32(b, NG_ISB, wr->be);
	put_bo32(b + 8, id, wr->be);
	put_bo32(b + 12, (uint32_t)(ts >> 32), wr->be);
	put_bo32(b + 16, (uint32_t)ts, wr->be);
	n = 20;
	if (cmt != NULL)
		n += ng_opt(b + n, OPT_COMMENT, cmt, (uint16_t)strlen(cmt),
		    wr->be);
	n += ng_opt_ts(b + n, OPT_ISB_STARTTIME, sink->stats_start_ns, wr);
	n += ng_opt_ts(b + n, OPT_ISB_ENDTIME, sink->stats_end_ns, wr);
	n += ng_opt_u64(b + n, OPT_ISB_IFRECV, recv, wr->be);
	n += ng_opt_u64(b + n, OPT_ISB_IFDROP, drop, wr->be);
	n += ng_opt(b + n, OPT_END, NULL, 0, wr->be);
	put_bo32(b + 4, (uint32_t)n + 4, wr->be);
	put_bo32(b + n, (uint32_t)n + 4, wr->be);
	return cap_out_write(&sink->out, b, n + 4);
}

/*
 * The statistics of a live capture: the bus's interface (the kernel's
 * drops, accumulated from MON_IOCG_STATS, and how usbmon was read) and,
 * when drivers were traced into this file, the driver events' interface
 * (events traced; lost ones and missed calls as drops).
 */
static int
ng_isb(struct cap_sink *sink)
{
	struct ng_wr	*wr = sink->priv;
	const struct cap_stats *st = &sink->stats;
	char		 cmt[96];
	int		 rc;

	if (st->method != NULL)
		snprintf(cmt, sizeof cmt, "usbmon read through: %s",
		    st->method);
	if ((rc = ng_isb_one(sink, 0, st->received, st->dropped,
	    st->method != NULL ? cmt : NULL)) != 0 || !st->have_events ||
	    !wr->ev_if)
		return rc;
	return ng_isb_one(sink, (uint32_t)wr->ev_id, st->ev_received,
	    st->ev_dropped, "driver events traced with eBPF: drops are "
	    "events lost (ring buffer full) and calls missed");
}

static int
ng_wclose(struct cap_sink *sink)
{
	struct ng_wr	*wr = sink->priv;
	int		 rc = 0;

	if (sink->have_stats)
		rc = ng_isb(sink);
	sb_free(&wr->line);
	return rc;
}

const struct cap_sink_ops cap_pcapng_sink = {
	.name = "pcapng",
	.ext = ".pcapng",
	.desc = "pcapng, one link type 220 interface (the default), and "
	    "one of type 252 for driver and bus events",
	.priv_size = sizeof(struct ng_wr),
	.open = ng_wopen,
	.write = ng_write,
	.write_event = ng_write_event,
	.close = ng_wclose,
};
