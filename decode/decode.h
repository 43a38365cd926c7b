/*
 * decode/decode.h - the record model and the pure decoders.
 *
 * Every source (capture/) produces struct urb_rec; every sink and front end
 * consumes it.  Decoders here are pure functions: no I/O, no logging, no
 * allocation, no globals.  Anomalies go into the record or the tree as
 * flags, never to stderr.  Wire bytes are read with the explicit-endian
 * accessors below, never by casting structs over them.
 *
 * Facts: struct mon_bin_hdr of Linux's drivers/usb/mon/mon_bin.c (the
 * usbmon header); USB 2.0 chapter 9 (requests 9.4, descriptors 9.6).
 */
#ifndef DECODE_H
#define DECODE_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "ch9.h"

/* Elements of an array (as BSD's sys/param.h nitems). */
#ifndef nitems
#define nitems(a)	(sizeof (a) / sizeof (a)[0])
#endif

/* ------------------------------------------------------------------------
 * Errors: one enum for the whole program.  0 is success, a negative value
 * is -UE_xxx, a positive value is a count.
 */
#define UE_ERRORS							\
	X(UE_NOMEM,	"out of memory")				\
	X(UE_IO,	"I/O error")					\
	X(UE_OPEN,	"cannot open")					\
	X(UE_MAGIC,	"not a capture format urbscope knows")		\
	X(UE_LINKTYPE,	"unsupported link type")			\
	X(UE_TRUNCATED,	"file ends in the middle of a record")		\
	X(UE_BADREC,	"record lengths are inconsistent")		\
	X(UE_SYNTAX,	"line does not parse")				\
	X(UE_SHORT,	"too few bytes")				\
	X(UE_RANGE,	"value out of range")				\
	X(UE_USAGE,	"bad usage")					\
	X(UE_FULL,	"no room left")					\
	X(UE_NOTSUP,	"not supported")

enum ue_code {
	UE_OK = 0,
#define X(name, msg) name,
	UE_ERRORS
#undef X
	UE__COUNT
};

/* Message for an error code; accepts err or -err. */
const char	*ue_strerror(int err);

/* The value of hex digit c, or -1. */
static inline int
dec_hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* ------------------------------------------------------------------------
 * Time stamps: int64 nanoseconds since the epoch, which holds 1677-09-21
 * to 2262-04-11.  A source whose time stamp lies outside stores DEC_TS_BAD
 * (a crafted or corrupt file: a real capture is never there), and every
 * difference of two is taken with dec_ts_sub(), which cannot overflow.
 */
#define DEC_TS_BAD	INT64_MIN

/* sec seconds and nsec nanoseconds (any sign) as a time stamp. */
static inline int64_t
dec_ts_make(int64_t sec, int64_t nsec)
{
	int64_t	 t;

	if (__builtin_mul_overflow(sec, (int64_t)1000000000, &t) ||
	    __builtin_add_overflow(t, nsec, &t))
		return DEC_TS_BAD;
	return t;
}

/* a - b, saturated to +-INT64_MAX; DEC_TS_BAD when either is. */
static inline int64_t
dec_ts_sub(int64_t a, int64_t b)
{
	int64_t	 d;

	if (a == DEC_TS_BAD || b == DEC_TS_BAD)
		return DEC_TS_BAD;
	if (__builtin_sub_overflow(a, b, &d) || d == INT64_MIN)
		return a > b ? INT64_MAX : -INT64_MAX;
	return d;
}

/* ------------------------------------------------------------------------
 * Explicit-endian accessors for unaligned wire bytes.
 */
static inline uint16_t
get_le16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static inline uint32_t
get_le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	    (uint32_t)p[3] << 24;
}

static inline uint64_t
get_le64(const uint8_t *p)
{
	return (uint64_t)get_le32(p) | (uint64_t)get_le32(p + 4) << 32;
}

static inline uint16_t
get_be16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static inline uint32_t
get_be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	    (uint32_t)p[2] << 8 | (uint32_t)p[3];
}

static inline uint64_t
get_be64(const uint8_t *p)
{
	return (uint64_t)get_be32(p) << 32 | (uint64_t)get_be32(p + 4);
}

static inline void
put_le16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

static inline void
put_le32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

static inline void
put_le64(uint8_t *p, uint64_t v)
{
	put_le32(p, (uint32_t)v);
	put_le32(p + 4, (uint32_t)(v >> 32));
}

static inline void
put_be16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static inline void
put_be32(uint8_t *p, uint32_t v)
{
	put_be16(p, (uint16_t)(v >> 16));
	put_be16(p + 2, (uint16_t)v);
}

static inline void
put_be64(uint8_t *p, uint64_t v)
{
	put_be32(p, (uint32_t)(v >> 32));
	put_be32(p + 4, (uint32_t)v);
}

/* The same, in the byte order a file or section declares (be != 0). */
static inline uint16_t
get_bo16(const uint8_t *p, int be)
{
	return be ? get_be16(p) : get_le16(p);
}

static inline uint32_t
get_bo32(const uint8_t *p, int be)
{
	return be ? get_be32(p) : get_le32(p);
}

static inline uint64_t
get_bo64(const uint8_t *p, int be)
{
	return be ? get_be64(p) : get_le64(p);
}

static inline void
put_bo16(uint8_t *p, uint16_t v, int be)
{
	if (be)
		put_be16(p, v);
	else
		put_le16(p, v);
}

static inline void
put_bo32(uint8_t *p, uint32_t v, int be)
{
	if (be)
		put_be32(p, v);
	else
		put_le32(p, v);
}

static inline void
put_bo64(uint8_t *p, uint64_t v, int be)
{
	if (be)
		put_be64(p, v);
	else
		put_le64(p, v);
}

/* Host byte order, for the usbmon header written by this machine. */
static inline int
host_is_le(void)
{
	const uint16_t one = 1;
	uint8_t b;

	memcpy(&b, &one, 1);
	return b == 1;
}

/* ------------------------------------------------------------------------
 * Names from tables: rows { value, "NAME" } ending { 0, NULL }.
 */
struct dec_name {
	uint32_t	 value;
	const char	*name;
};

/* The name of v in table t, or NULL. */
const char	*dec_name_find(const struct dec_name *t, uint32_t v);

/*
 * The name of v in table t, or "UNKNOWN (0x%02x)" written into buf (which
 * must hold 24 bytes).
 */
const char	*dec_name_or(const struct dec_name *t, uint32_t v, char *buf);

/*
 * dec_name_find for a static table t (one that never changes), with the
 * name's length in *len, from a cache; and dec_name_or's text of v in t
 * appended to b by way of it.
 */
const char	*dec_name_cached(const struct dec_name *t, uint32_t v,
		     size_t *len);
struct sbuf;
void		 sb_putname(struct sbuf *b, const struct dec_name *t,
		     uint32_t v);

/* Linux errno names for URB status ("-EPIPE"); NULL if unknown. */
const char	*dec_status_name(int32_t status);

/*
 * The Windows USB stack (dec-win.c): USBD_STATUS and URB_FUNCTION names
 * (NULL if unknown), the Linux status nearest to a USBD_STATUS, and the
 * USBD_STATUS a Linux status is written as.
 */
/* A status code of another OS: its name and the nearest Linux errno (a
 * table ends with a NULL name; dec_code_find returns NULL if absent). */
struct dec_code {
	uint32_t	 code;
	const char	*name;
	int		 err;
};
const struct dec_code *dec_code_find(const struct dec_code *t, uint32_t code);
const char	*dec_usbd_status_name(uint32_t code);
int32_t		 dec_usbd_errno(uint32_t code);
uint32_t	 dec_usbd_from_errno(int32_t status);
const char	*dec_urb_function_name(uint16_t function);

/* dec-darwin.c: macOS IOReturn codes (IOKit/IOReturn.h, and IOUSBFamily's
 * USB ones), by name, and the Linux errno nearest to each. */
const char	*dec_darwin_status_name(uint32_t code);
int32_t		 dec_darwin_errno(uint32_t code);

/* ------------------------------------------------------------------------
 * The URB record: exactly one usbmon event (struct mon_bin_hdr), plus where
 * it came from.  Header fields are in host order whatever the source.
 */
enum {
	XFER_ISO = 0,			/* usbmon numbering, not USB's */
	XFER_INT = 1,
	XFER_CTRL = 2,
	XFER_BULK = 3,
};

#define URB_ISO_MAX	128		/* ndesc's bound, mon_bin.c ISODESC_MAX */
#define URB_HDR48	48
#define URB_HDR64	64
#define URB_EINPROGRESS	(-115)
#define URB_ENOENT	(-2)		/* usb_kill_urb's unlink */
#define URB_ECONNRESET	(-104)		/* usb_unlink_urb's */

/* One ISO frame descriptor (struct mon_bin_isodesc), host order. */
struct urb_iso {
	int32_t		 status;
	uint32_t	 off;
	uint32_t	 len;
	uint32_t	 usbd;		/* USBPcap: the packet's USBD_STATUS */
};

/* urb_rec.flags: anomalies and provenance, never printed to stderr. */
#define REC_F_TRUNC	0x0001	/* data_len < the bytes the URB carried */
#define REC_F_BADLEN	0x0002	/* header lengths disagree with the record */
#define REC_F_SYNTHETIC	0x0004	/* made by urbscope, not seen on the bus */
#define REC_F_TEXT	0x0008	/* from usbmon text: <=32 bytes, <=5 ISO */
#define REC_F_HDR48	0x0010	/* source had the 48-byte header only */
#define REC_F_NOTIME	0x0020	/* timestamp is relative, not wall clock */
#define REC_F_INJECTED	0x0040	/* put in by the capture tool (USBPcap's
				   descriptors of devices already there) */
#define REC_F_STAGE	0x0080	/* USBPcap control stage that is neither
				   the URB's submit nor its completion */
#define REC_F_NOOFFSET	0x0100	/* made in memory (the simulator): no
				   byte offset in any file, offset is 0 */

/* urb_rec.origin: the header the record was read from. */
#define URB_ORIGIN_USBMON	0	/* Linux usbmon (189, 220, text) */
#define URB_ORIGIN_USBPCAP	1	/* Windows USBPcap (249) */
#define URB_ORIGIN_USBLL	2	/* bus-level packets (288, 293-295) */
#define URB_ORIGIN_DARWIN	3	/* macOS XHC interfaces (266) */

/*
 * The macOS pseudo-header (LINKTYPE_USB_DARWIN, 266), kept whole so that
 * a record read from it is written back unchanged and its fields are
 * shown as Wireshark shows them.
 */
#define DARWIN_HDR		32	/* the header without ISO frames */
#define DARWIN_ISO_HDR		20	/* an ISO frame's header, at least */
struct urb_darwin {
	uint16_t	 bcd;		/* bcdVersion */
	uint8_t		 hdr_len;	/* header length */
	uint8_t		 req_type;	/* 0 submit, 1 complete */
	uint32_t	 io_len;
	uint32_t	 io_status;	/* IOReturn */
	uint32_t	 frames;	/* ISO frame count */
	uint32_t	 location;	/* location ID: bus in the top byte */
	uint8_t		 speed;		/* 0 low 1 full 2 high 3 super 4 super+ */
	uint8_t		 ep_type;	/* 0 control 1 iso 2 bulk 3 interrupt */
	uint8_t		 hdr[DARWIN_HDR];	/* the header's first bytes */
};

/*
 * The USBPcap packet header (USBPCAP_BUFFER_PACKET_HEADER and its control
 * and isochronous extensions), kept whole so that a record read from a
 * USBPcap capture is written back unchanged and its fields are shown as
 * Wireshark shows them.
 */
#define USBPCAP_HDR		27	/* the base header */
#define USBPCAP_HDR_CTRL	28	/* + the control stage */
#define USBPCAP_HDR_ISO		39	/* + start frame, packets, errors */
#define USBPCAP_XFER_IRP	0xfe	/* transfer: IRP information only */
#define USBPCAP_XFER_UNKNOWN	0xff
#define USBPCAP_STAGE_SETUP	0
#define USBPCAP_STAGE_DATA	1
#define USBPCAP_STAGE_STATUS	2
#define USBPCAP_STAGE_COMPLETE	3
#define USBPCAP_STAGE_NONE	0xff	/* not a control transfer */
struct urb_win {
	uint16_t	 hdr_len;	/* headerLen */
	uint16_t	 function;	/* URB_FUNCTION_* */
	uint32_t	 usbd_status;	/* USBD_STATUS_* */
	uint16_t	 device;	/* 16 bits, urb_rec.devnum clips it */
	uint8_t		 info;		/* bit 0: PDO to FDO (a completion) */
	uint8_t		 stage;		/* USBPCAP_STAGE_* */
	uint32_t	 data_len;	/* dataLength */
	uint32_t	 iso_start;	/* startFrame */
	uint32_t	 iso_npackets;	/* numberOfPackets */
	uint32_t	 iso_errors;	/* errorCount */
};

/*
 * One bus-level packet (USB 2.0 section 8.3-8.4): its fields as the
 * packet has them, and the transaction it belongs to as the reader put
 * it together (a data or handshake packet carries no address).
 */
#define USBLL_XFER_PACKET	0xfd	/* transfer: a packet with no URB
					   meaning of its own */
#define USBLL_SPEED_ANY		0	/* 288: the link type does not say */
#define USBLL_SPEED_LOW		1	/* 293 */
#define USBLL_SPEED_FULL	2	/* 294 */
#define USBLL_SPEED_HIGH	3	/* 295 */
#define USBLL_CRC_BAD		0	/* Wireshark's crc status values */
#define USBLL_CRC_GOOD		1
#define USBLL_CRC_NONE		3	/* the packet has no such CRC */
struct urb_ll {
	const uint8_t	*raw;		/* the packet, PID first */
	uint32_t	 raw_len;
	uint8_t		 pid;		/* the whole first byte */
	uint8_t		 speed;		/* USBLL_SPEED_* of the link type */
	uint8_t		 addr;		/* of the transaction's token */
	uint8_t		 endp;
	uint8_t		 have_addr;	/* addr/endp known */
	uint8_t		 from_dev;	/* sent by the device */
	uint8_t		 tok;		/* the transaction's token PID */
	uint8_t		 crc5_status;	/* USBLL_CRC_* */
	uint8_t		 crc16_status;
	uint16_t	 frame;		/* SOF frame number */
	uint16_t	 crc5;
	uint16_t	 crc16;
	uint32_t	 split;		/* SPLIT token: bits 8..31 of it */
	uint32_t	 naks;		/* NAK: the how-manieth in a row on
					   this endpoint */
};

struct urb_rec {
	/* usbmon header fields (struct mon_bin_hdr) */
	uint64_t	 id;		/* URB address; same on S and C/E */
	uint8_t		 type;		/* 'S', 'C', 'E' */
	uint8_t		 xfer_type;	/* XFER_* */
	uint8_t		 epnum;		/* bit 7 = IN */
	uint8_t		 devnum;
	uint16_t	 busnum;
	uint8_t		 flag_setup;	/* 0 = setup[] valid */
	uint8_t		 flag_data;	/* 0 = data present */
	int64_t		 ts_sec;	/* as in the header */
	int32_t		 ts_usec;
	int32_t		 status;
	uint32_t	 len_urb;	/* S: buffer length, C: actual */
	uint32_t	 len_cap;	/* header's len_cap: 16*ndesc + data */
	uint8_t		 setup[8];	/* USB wire order, never swapped */
	int32_t		 iso_error_count;
	int32_t		 iso_numdesc;
	int32_t		 interval;
	int32_t		 start_frame;
	uint32_t	 xfer_flags;
	uint32_t	 ndesc;		/* header's ndesc */

	/* derived by the source */
	int64_t		 ts_ns;		/* timestamp in ns (pcapng may be ns) */
	const struct urb_iso *iso;	/* niso descriptors actually present */
	uint32_t	 niso;
	const uint8_t	*data;		/* payload after the ISO descriptors */
	uint32_t	 data_len;	/* bytes at data (after any cut) */
	uint32_t	 flags;		/* REC_F_* */

	/* provenance */
	uint8_t		 origin;	/* URB_ORIGIN_* */
	struct urb_win	 win;		/* URB_ORIGIN_USBPCAP: its header */
	struct urb_ll	 ll;		/* URB_ORIGIN_USBLL: the packet */
	struct urb_darwin mac;		/* URB_ORIGIN_DARWIN: its header */
	uint32_t	 ifindex;	/* pcapng interface, else 0 */
	const char	*ifname;	/* its if_name, or NULL; valid only
					   until the source's next record */
	const char	*comments;	/* pcapng opt_comment strings, each
					   NUL-terminated, one after the
					   other; valid as ifname */
	uint32_t	 ncomments;
	uint64_t	 recno;		/* 1-based record number in the source */
	uint64_t	 frame;		/* the packet's number in the file
					   (Wireshark's frame.number): recno
					   plus the packets skipped before */
	uint64_t	 offset;	/* byte offset of the record in the source
					   (none: REC_F_NOOFFSET) */
	uint32_t	 wire_len;	/* the packet's original length as the
					   file records it (pcap orig_len,
					   Wireshark's frame.len), 0: none */
	uint32_t	 cap_len;	/* the bytes the file kept of it (pcap
					   incl_len, frame.cap_len), 0: none */
};

/* The frame number of r (its record number when the source gave none). */
static inline uint64_t
urb_frame(const struct urb_rec *r)
{
	return r->frame != 0 ? r->frame : r->recno;
}

/* Direction helpers. */
static inline int
urb_is_in(const struct urb_rec *r)
{
	return (r->epnum & 0x80) != 0;
}

/*
 * Bytes the event carried in the kernel before any cut by a snaplen or the
 * text interface: what a complete record's data would be.  0 when the flag
 * says no data by design.
 */
uint32_t	 urb_data_expected(const struct urb_rec *r);

/*
 * Did the transfer fail?  1 for a submit error (E), a completion with an
 * error status other than a deliberate unlink's (-ENOENT, -ECONNRESET),
 * and an isochronous completion with a frame in error; else 0.
 */
int		 urb_failed(const struct urb_rec *r);

/*
 * Decode a usbmon binary header of hdr_len (48 or 64) bytes at p into r;
 * swap when the bytes are in the other byte order (swap != 0).  Leaves the
 * derived and provenance fields alone, except REC_F_HDR48 in flags, set
 * for a 48-byte header (dec_usbmon_body needs it).  Returns 0 or
 * -UE_SHORT.
 */
int		 dec_usbmon_hdr(const uint8_t *p, size_t len, size_t hdr_len,
		     int swap, struct urb_rec *r);

/*
 * Encode r as a 64-byte usbmon header in host order into out[64], with
 * len_cap and ndesc taken from niso and data_len (what actually follows).
 */
void		 enc_usbmon_hdr(const struct urb_rec *r, uint8_t out[64]);

/*
 * What a pcap/pcapng writer puts before the data: the header as
 * enc_usbmon_hdr, then r's niso ISO descriptors, in host order or, when
 * swap, the other one.  out must hold 64 + 16 * URB_ISO_MAX bytes.
 * Returns the bytes written, 64 + 16 * niso.
 */
size_t		 enc_usbmon_prefix(const struct urb_rec *r, int swap,
		     uint8_t *out);

/*
 * Decode what follows the header: ISO descriptors then data.  p/len are the
 * bytes after the header in the record; iso is caller storage for
 * URB_ISO_MAX entries.  Sets r->iso, r->niso, r->data, r->data_len and
 * REC_F_BADLEN/REC_F_TRUNC.  Never reads past len.
 */
void		 dec_usbmon_body(const uint8_t *p, size_t len, int swap,
		     struct urb_iso *iso, struct urb_rec *r);

/*
 * One line of the kernel's usbmon 'u' text interface for r, exactly as
 * drivers/usb/mon/mon_text.c prints it, without the newline:
 * tag, stamp ((ts_sec & 0xfff) * 1000000 + usec), event, address, status or
 * setup words, length, and up to 32 data bytes.  Returns the length
 * written (NUL-terminated), or -UE_FULL when size is too small (256 is
 * enough for every kernel line; 512 for any record, e.g. ISO events with
 * five descriptors of extreme values).
 */
int		 dec_fmt_usbmon(const struct urb_rec *r, char *buf, size_t size);

/*
 * Parse one usbmon text line (the 'u' format, or the old 't' format when
 * the address word has two colons) of n bytes, without its newline, into
 * r.  Data bytes (at most 32) go to data[32], ISO descriptors (at most 5)
 * to iso[5]; r points at them.  The stamp goes to ts_usec/ts_sec as printed
 * (microseconds modulo 4096 s: unwrapping is the caller's).  Sets
 * REC_F_TEXT and REC_F_TRUNC.  When the line has no data part (length 0),
 * flag_data is what the binary interface says there: '<' on IN submits,
 * '>' on OUT completions, 'E' on errors, else 0.  Returns 0, or
 * -UE_SYNTAX with *col set to the 0-based column where parsing failed.
 */
int		 dec_usbmon_text(const char *line, size_t n, struct urb_rec *r,
		     uint8_t data[32], struct urb_iso iso[5], size_t *col);

/* ------------------------------------------------------------------------
 * Driver events (filled by core/; carried through the same pipeline).
 */
enum drv_kind {
	DRV_REGISTER = 1,	/* driver registered */
	DRV_DEREGISTER,
	DRV_MATCH,		/* id table entry tried against an interface */
	DRV_PROBE,		/* probe called; result in .result */
	DRV_DISCONNECT,
	DRV_REGISTER_DEV,	/* minor allocated: .minor, .name, .node */
	DRV_DEREGISTER_DEV,
	DRV_SET_INTFDATA,	/* .ptr */
	DRV_GET_INTFDATA,
	DRV_OPEN,
	DRV_RELEASE,
	DRV_SUBMIT,		/* .urb_id, .ep, .length, .mem_flags, .context */
	DRV_GIVEBACK,		/* .urb_id, .result = status, .length = actual */
	DRV_UNLINK,
	DRV_KILL,
	DRV_RULE,		/* rule violation: .rule, .text */
	DRV_LOG,		/* free text from a driver (dev_info etc.) */
	DRV_BUS,		/* a hardware sniffer's bus event: .text is
				   its message (syslog.msg), .bus_ev what it
				   says (BUS_EV_*) */
};

/*
 * Bus events: what a hardware sniffer says about the bus besides its
 * packets (ataradov/usb-sniffer's software/capture.c writes them as
 * exported-PDU syslog messages: "--- Bus Reset ---", "Detected speed:
 * Full-Speed", "VBUS ON", "Line state: SE0", ...).  0: a message of no
 * known kind.
 */
enum bus_ev {
	BUS_EV_OTHER = 0,
	BUS_EV_START,		/* the capture starts (or the trigger fired) */
	BUS_EV_WAIT,		/* waiting for the trigger */
	BUS_EV_TRIGGER,		/* the trigger input changed */
	BUS_EV_VBUS_ON,
	BUS_EV_VBUS_OFF,
	BUS_EV_RESET,		/* bus reset: every device back at address 0 */
	BUS_EV_SPEED,		/* speed detected: .bus_speed */
	BUS_EV_LINE,		/* line state (SE0, J, K) and how long */
	BUS_EV_KEEPALIVE,	/* a low-speed keep-alive (EOP) */
	BUS_EV_FOLDED,		/* empty frames the sniffer left out */
	BUS_EV_UPDATE,		/* periodic update: nothing happened */
	BUS_EV_OVERFLOW,	/* the sniffer lost data */
	BUS_EV_PHY_ERROR,
	BUS_EV_LIMIT,		/* the capture limit was reached */
	BUS_EV_SUSPEND,		/* the bus suspended (USB 2.0 7.1.7.6) */
	BUS_EV_RESUME,		/* resume signalling (USB 2.0 7.1.7.7) */
};
extern const struct dec_name dec_bus_evs[];	/* "reset", "speed", ... */
extern const struct dec_name dec_bus_speeds[];	/* USBLL_SPEED_*: "low" */

/*
 * A syslog message (RFC 3164 as Wireshark 4.0's packet-syslog.c reads
 * it): "<PRI>" (up to three digits; level PRI & 7, facility PRI >> 3),
 * then the message up to the first NUL.  The message goes to store
 * (size bytes, NUL-terminated; 3 * n + 1 is always enough) with each
 * byte that is not UTF-8 as U+FFFD, as tshark shows it.  *level and
 * *facility are -1 without a PRI or without a message after it (tshark
 * then shows no syslog field).  Returns the message's length, or
 * -UE_FULL.
 */
int		 dec_syslog_parse(const uint8_t *p, size_t n, int *level,
		     int *facility, char *store, size_t size);

/* What a sniffer's message says: BUS_EV_*, and for BUS_EV_SPEED the
 * speed (USBLL_SPEED_*) into *speed (else 0). */
int		 dec_bus_ev(const char *msg, uint8_t *speed);

struct drv_event {
	int64_t		 ts_ns;
	enum drv_kind	 kind;
	uint16_t	 busnum;
	uint8_t		 devnum;
	int16_t		 intf;		/* -1 if none */
	const char	*driver;	/* driver name or NULL */
	const char	*func;		/* driver function it came from */
	int32_t		 result;
	uint64_t	 urb_id;
	uint8_t		 ep;
	uint32_t	 length;
	uint32_t	 entry;		/* DRV_MATCH: index in the id table */
	uint32_t	 mem_flags;
	uint32_t	 context;	/* task / atomic / interrupt */
	uint64_t	 ptr;
	int32_t		 minor;
	const char	*rule;		/* rule id for DRV_RULE */
	const char	*text;		/* human line: names, explanation */
	/* DRV_BUS only */
	int16_t		 syslog_level;	/* syslog PRI's, -1: none */
	int16_t		 syslog_facility;
	uint8_t		 bus_ev;	/* BUS_EV_* */
	uint8_t		 bus_speed;	/* BUS_EV_SPEED: USBLL_SPEED_* */
	uint64_t	 recno;
	uint64_t	 frame;		/* as urb_rec.frame */
};

static inline uint64_t
ev_frame(const struct drv_event *ev)
{
	return ev->frame != 0 ? ev->frame : ev->recno;
}

/*
 * Driver events as one line of text (decode/dec-event.c), the form the
 * pcapng writer stores and Wireshark shows:
 *
 *	urbscope-event KIND KEY=VALUE ...
 *
 * KIND is a name from dec_drv_kinds ("submit") or a decimal number.  Keys,
 * in this order: driver func bus dev intf urb ep len entry mem ctx ptr
 * minor result rule text, and a bus event's level facility bus_ev
 * speed.  A key is written when its value is not the
 * default (intf and minor -1, strings NULL, numbers 0) or when the kind
 * always shows it; a missing key means the default.  Numbers are decimal or 0x
 * hex; mem and ctx may be names (GFP_KERNEL, task).  A value that is
 * empty or holds a space, '"', '\\' or a byte outside 0x21-0x7e is quoted
 * "..." with \\ \" \n \t \xHH escapes.  Unknown keys are skipped.
 */
#define DEC_EVENT_PREFIX	"urbscope-event"

struct sbuf;

/* Names of enum drv_kind: "register", "probe", "submit", ... */
extern const struct dec_name dec_drv_kinds[];
/* Names of mem_flags values (GFP_KERNEL, ...) and of contexts (task). */
extern const struct dec_name dec_gfp_flags[];
extern const struct dec_name dec_drv_contexts[];

/* Append ev's line (no newline) to b. */
void		 dec_event_encode(const struct drv_event *ev, struct sbuf *b);

/*
 * The driver rules checked on events alone (decode/dec-rules.c), for
 * events of a real kernel: give it every event in order; each call
 * returns how many rule events (DRV_RULE, the simulator's ids and
 * wording) it wrote into out (max at most 4), their text valid until
 * the next call; and every usbmon record, in the same order
 * (dec_rules_record: URBs given back, endpoints halted and cleared).
 */
struct dec_rules;
struct dec_rules *dec_rules_new(void);
void		 dec_rules_free(struct dec_rules *r);
void		 dec_rules_record(struct dec_rules *r,
		     const struct urb_rec *rec);
size_t		 dec_rules_check(struct dec_rules *r,
		     const struct drv_event *ev, struct drv_event *out,
		     size_t max);

/*
 * Parse n bytes of a line (no newline) into ev (zeroed first; ts_ns and
 * recno are left 0).  Strings are unescaped into store (size bytes; n + 8
 * is always enough) and ev points at them.  Never reads past n.  Returns
 * 0, or -UE_SYNTAX / -UE_RANGE / -UE_FULL with *col the 0-based column
 * where parsing failed.
 */
int		 dec_event_parse(const char *line, size_t n,
		     struct drv_event *ev, char *store, size_t size,
		     size_t *col);

/* ------------------------------------------------------------------------
 * SETUP packet and chapter 9 (decode/dec-ch9.c).  USB 2.0 section 9.3/9.4.
 */
struct dec_setup {
	uint8_t		 bmRequestType;
	uint8_t		 bRequest;
	uint16_t	 wValue;
	uint16_t	 wIndex;
	uint16_t	 wLength;
};

/* bmRequestType fields */
#define SETUP_DIR_IN(s)		(((s)->bmRequestType & 0x80) != 0)
#define SETUP_TYPE(s)		(((s)->bmRequestType >> 5) & 3)	/* 0 std 1 class 2 vendor */
#define SETUP_RECIP(s)		((s)->bmRequestType & 0x1f)	/* 0 dev 1 intf 2 ep 3 other */

/* Request and descriptor codes: decode/ch9.h. */

/* Decode 8 setup bytes (little-endian on the wire). */
void		 dec_setup(const uint8_t p[8], struct dec_setup *out);

/* Name tables, each citing its spec table. */
extern const struct dec_name dec_std_requests[];	/* USB 2.0 table 9-4 */
extern const struct dec_name dec_hub_requests[];	/* USB 2.0 table 11-16 */
extern const struct dec_name dec_desc_types[];		/* USB 2.0 table 9-5 + class */
extern const struct dec_name dec_features[];		/* USB 2.0 table 9-6 */
extern const struct dec_name dec_hub_features[];	/* USB 2.0 table 11-17 */
extern const struct dec_name dec_classes[];		/* usb.org class codes */
extern const struct dec_name dec_xfer_types[];		/* usbmon numbering */
extern const struct dec_name dec_langids[];		/* common LANGIDs */

/*
 * Name of the request ("GET_DESCRIPTOR", "SET_FEATURE", for class requests
 * of hubs "GET_PORT_STATUS" etc.), or NULL when not a known request.
 * is_hub: the request goes to a hub-class device/interface.
 */
const char	*dec_request_name(const struct dec_setup *s, int is_hub);

/*
 * One-line summary of a SETUP packet into buf: the request name and its
 * decoded arguments, e.g. "GET_DESCRIPTOR DEVICE len 18",
 * "SET_FEATURE PORT_RESET port 1", "SET_CONFIGURATION 1",
 * "CLEAR_FEATURE ENDPOINT_HALT ep 0x81", "GET_DESCRIPTOR STRING 2 lang 0x0409
 * len 255", class/vendor requests as "CLASS req 0x0a intf 0 val 0x0000
 * len 0".  Returns the length written (always NUL-terminated, truncated to
 * size).
 */
int		 dec_setup_summary(const struct dec_setup *s, int is_hub,
		     char *buf, size_t size);

/*
 * The same three (name, summary, tree) when the class of the recipient is
 * known: cls is the USB class code of the interface (or device) the
 * request goes to, -1 when unknown.  Class requests are named and split
 * for hubs (0x09), HID (0x03: GET_REPORT, SET_IDLE, ...) and mass storage
 * (0x08: GET_MAX_LUN, BULK_ONLY_RESET), with the Wireshark field names of
 * that class (usbhub.*, usbhid.*, usbms.*).  The is_hub forms above are
 * these with cls 0x09 or -1.
 */
struct dec_tree;
/* Pseudo classes, above 0xff: vendor requests decoded by product. */
#define DEC_CLS_FTDI	0x10403
/* The pseudo class of a product (usb.product in Wireshark), or -1. */
int		 dec_product_class(uint16_t vid, uint16_t pid);
const char	*dec_request_name_class(const struct dec_setup *s, int cls);
int		 dec_setup_summary_class(const struct dec_setup *s, int cls,
		     char *buf, size_t size);
void		 dec_setup_tree_class(const struct dec_setup *s, int cls,
		     struct dec_tree *t);

/* ------------------------------------------------------------------------
 * The decoded tree (decode/dec-tree.c, dec-desc.c): what -V, JSON and the
 * TUI's details and hex panes show.  Decoders append nodes to a tree the
 * caller owns; they never allocate.
 */
enum dec_kind {
	DK_LABEL,		/* a subtree heading, no value ("DEVICE descriptor") */
	DK_UINT,		/* unsigned, shown in decimal */
	DK_HEX,			/* unsigned, shown as 0x%0*x by width */
	DK_BCD,			/* bcdUSB style: 0x0200 -> "2.00" */
	DK_INT,			/* signed decimal */
	DK_BYTES,		/* off/len bytes shown as hex */
	DK_STRING,		/* text in node->str (UTF-8) */
	DK_BOOL,		/* a bit, shown as set/not set */
	DK_CHAR,		/* one ASCII character ('S') */
	DK_TIME,		/* a duration in ns, shown in seconds */
	DK_MSEC,		/* a duration in ns, shown in milliseconds
				   as Wireshark's FT_DOUBLE in ms (%.15g) */
	DK_CENTI,		/* hundredths, shown 1.00: a version that
				   Wireshark keeps as FT_DOUBLE (usbaudio
				   bcdADC), printed by -T fields as 1 */
};

/* Field metadata, like Wireshark's header-field registration. */
struct dec_field {
	const char		*name;	/* "idVendor", "bmAttributes" */
	const char		*abbrev; /* Wireshark field name or NULL */
	enum dec_kind		 kind;
	uint8_t			 width;	/* bytes: 1, 2, 4, 8 (for HEX padding) */
	const struct dec_name	*names;	/* value names or NULL */
	uint32_t		 mask;	/* for bit fields, else 0 */
};

/*
 * A field of the trees: every one is defined with DEC_FIELD, which puts
 * it in the linker section dec_fields as well, so that the list of the
 * fields urbscope can print (for -T fields to refuse an unknown name) is
 * the fields themselves, never a second list to keep in step.  The
 * sanitizers leave globals of a named section unpadded.
 */
#define DEC_FIELD(var, name, abbrev, kind, width, names, mask)		\
	static const struct dec_field var				\
	    __attribute__((used, section("dec_fields"), aligned(8))) = {	\
		name, abbrev, kind, width, names, mask			\
	}

/* Is abbrev a name -T fields prints (dec_fref_resolve knows it)? */
int		 dec_field_known(const char *abbrev);

/* Which buffer a node's bytes are in. */
enum {
	DB_NONE = 0,
	DB_SETUP = 1,		/* the 8 setup bytes */
	DB_DATA = 2,		/* the record's data */
	DB_RAW = 3,		/* a bus-level record's packet (ll.raw) */
	DB_COPY = 4,		/* bytes of no buffer of the record (a
				   packet reassembled from several), copied
				   into the tree's arena: DK_BYTES nodes
				   only, value is their address */
};

#define DN_BAD		0x01	/* malformed: bad length, cut, ... */
#define DN_CUT		0x02	/* truncated by the capture */
#define DN_PLAIN	0x04	/* str has nothing JSON must escape */

struct dec_node {
	const struct dec_field	*f;	/* NULL for a free label (str) */
	const char		*str;	/* label text or string value */
	uint64_t		 value;
	uint32_t		 off;	/* in buffer 'buf' */
	uint32_t		 len;
	uint8_t			 buf;	/* DB_* */
	uint8_t			 depth;	/* 0 = top */
	uint8_t			 flags;	/* DN_* */
	const char		*note;	/* static text: "bLength too short" */
};

struct dec_tree {
	struct dec_node	*node;		/* caller storage */
	size_t		 max;
	size_t		 n;
	char		*arena;		/* caller storage for strings */
	size_t		 arena_size;
	size_t		 arena_used;
	uint8_t		 depth;		/* depth of the next node */
	int		 overflow;	/* nodes or arena ran out */
	/* for -T fields: every bit of a flags word, clear ones too, and
	 * fields that repeat others (usb.addr); -V and JSON print only the
	 * set bits, and usb.src/usb.dst for the addresses */
	int		 all_bits;
};

/* What one record's tree needs; JSON prints at most DEC_TREE_NODES. */
#define DEC_TREE_NODES	4096
#define DEC_TREE_ARENA	65536

void		 dec_tree_init(struct dec_tree *t, struct dec_node *nodes,
		     size_t max, char *arena, size_t arena_size);
/* Append a node at the current depth; returns it, or NULL when full. */
struct dec_node	*dec_tree_add(struct dec_tree *t, const struct dec_field *f,
		     uint8_t buf, uint32_t off, uint32_t len, uint64_t value);
/* Append a label node and descend one level below it. */
struct dec_node	*dec_tree_push(struct dec_tree *t, const char *label,
		     uint8_t buf, uint32_t off, uint32_t len);
void		 dec_tree_pop(struct dec_tree *t);
/* The bits of raw under mask, shifted down to the mask's lowest bit (a
 * bit field's value as Wireshark shows it). */
static inline uint64_t
dec_mask_value(uint64_t raw, uint64_t mask)
{
	return mask == 0 ? raw : (raw & mask) >> __builtin_ctzll(mask);
}
/* Bit field f of the word raw (len bytes at off of buf, the node just
 * added), one level below the current depth; returns it, or NULL. */
struct dec_node	*dec_tree_add_bits(struct dec_tree *t,
		     const struct dec_field *f, uint8_t buf, uint32_t off,
		     uint32_t len, uint64_t raw);
/* n bytes of the arena and a NUL after them; NULL when full. */
char		*dec_tree_alloc(struct dec_tree *t, size_t n);
/* Copy s (n bytes) into the arena; NULL when full. */
const char	*dec_tree_strdup(struct dec_tree *t, const char *s, size_t n);
/* The strings up to a NULL one, joined in the arena: a label without
 * printf's cost, for the hot paths; NULL when full. */
const char	*dec_tree_cat(struct dec_tree *t, ...)
		     __attribute__((sentinel));
/* printf into the arena; NULL when full. */
const char	*dec_tree_printf(struct dec_tree *t, const char *fmt, ...)
		     __attribute__((format(printf, 2, 3)));

/*
 * Value of a node as text ("0x046d", "2.00", "18", "HID (0x03)") into buf
 * of size bytes; returns buf.
 */
const char	*dec_node_value(const struct dec_node *n, char *buf,
		     size_t size);
/* The same, appended to b (the formatters' fast path). */
void		 dec_node_text(const struct dec_node *n, struct sbuf *b);

/* Setup packet fields as a subtree (bmRequestType bits, bRequest, wValue
 * split by request, wIndex, wLength). */
void		 dec_setup_tree(const struct dec_setup *s, int is_hub,
		     struct dec_tree *t);

/*
 * Descriptors in p[0..len) as a subtree: one or many (a configuration
 * hierarchy, a BOS with its capabilities).  req is the GET_DESCRIPTOR that
 * asked for them (NULL when unknown); it tells string descriptor 0 (LANGIDs)
 * from others and class descriptors (HID report) by recipient.  Bad
 * lengths are flagged DN_BAD, never over-read.  Returns the number of
 * descriptors decoded.
 */
int		 dec_desc_tree(const uint8_t *p, size_t len,
		     const struct dec_setup *req, struct dec_tree *t);

/*
 * One-line summary of descriptors in p[0..len) for the list view:
 * "DEVICE 046d:c52b class 0 mps 64 cfgs 1", "CONFIG 1 intf 2 total 59",
 * "STRING \"USB Keyboard\"", "LANGIDs 0x0409".  wire is the bytes the
 * transfer carried (len, or more when the capture kept only len): a
 * descriptor longer than wire is marked "[cut: wire of bLength bytes]";
 * what the capture lost is the caller's to say.  Returns length written.
 */
int		 dec_desc_summary(const uint8_t *p, size_t len, size_t wire,
		     const struct dec_setup *req, char *buf, size_t size);

/*
 * UTF-16LE (n bytes) to UTF-8 into out of size bytes, replacing invalid
 * code units with U+FFFD and control characters with '.'.  Returns the
 * length written (NUL-terminated).
 */
size_t		 dec_utf16le_to_utf8(const uint8_t *p, size_t n, char *out,
		     size_t size);

/* ------------------------------------------------------------------------
 * Analysis across records (decode/dec-state.c): submit/complete pairing by
 * (bus, URB id) and the per-device state learnt from the capture
 * (descriptors, active configuration, alternate settings, endpoint ->
 * interface -> class).  Feed every record in order to dec_analyze().
 */
struct dec_ctx;

/* What one endpoint is, from the configuration descriptor. */
struct dec_ep {
	int16_t		 intf;		/* interface number, -1 = unknown */
	uint8_t		 alt;
	uint8_t		 cls;		/* interface class, subclass, protocol */
	uint8_t		 subcls;
	uint8_t		 proto;
	uint8_t		 attr;		/* bmAttributes: transfer type */
	uint16_t	 mps;
};

/*
 * One descriptor of a buffer that holds several (a configuration and what
 * follows it): p[0..len) of it is present, len = min(bLength, bytes left),
 * so a descriptor the capture cut short is still seen, as Wireshark shows
 * it, and a read of byte k is in bounds exactly when k < len.
 */
struct dec_dref {
	const uint8_t	*p;
	size_t		 len;
	uint8_t		 bLength;
	uint8_t		 type;		/* bDescriptorType */
};

/*
 * The descriptor at *off of buf[0..n) into d, *off moved past it; 0 at the
 * end, on fewer than 2 bytes left or at a bLength below 2 (nothing after
 * it can be trusted to start a descriptor).
 */
static inline int
dec_desc_next(const uint8_t *buf, size_t n, size_t *off, struct dec_dref *d)
{
	size_t	 left;

	if (*off >= n || n - *off < 2 || buf[*off] < 2)
		return 0;
	left = n - *off;
	d->p = buf + *off;
	d->bLength = d->p[0];
	d->type = d->p[1];
	d->len = d->bLength < left ? d->bLength : left;
	*off += d->len;
	return 1;
}

#define DEC_MAX_CONFIGS	8
#define DEC_MAX_INTFS	32

/*
 * What the class decoders learn across records, one per interface
 * (decode/dec-class.c: dec_class_learn fills it): the mass storage
 * command whose data and status follow.  Plain values, so that the
 * device's copy (dec_ctx_clone) copies it.
 */
struct dec_hid_layout;			/* decode/class.h */
struct dec_cls_state {
	struct dec_hid_layout *hid;	/* HID: the layout of the report
					   descriptor read (malloc) */
	uint8_t		 hid_boot;	/* SET_PROTOCOL(Boot) took effect */
	uint8_t		 has_cbw;	/* a BOT or UAS command: 1 open,
					   2 its status seen */
	uint8_t		 cbw[31];	/* its CBW */
	uint64_t	 cbw_frame;	/* the frame that carried it */
	int64_t		 cbw_ts;	/* and its time (ns) */
	/* Bluetooth: bytes still to come of an HCI packet split over
	 * transfers (events, ACL in, ACL out), and what the last record
	 * with data was (DEC_BT_*) */
	uint32_t	 bt_left[3];
	uint8_t		 bt_part;
	/* the pieces of each one so far, the whole packet once its last
	 * piece came (malloc; shared as hid is, copied before a change) */
	struct dec_bt_frag *bt_frag[3];
	/* the HCI commands sent and the last event's links to them
	 * (malloc; shared and copied as bt_frag) */
	struct dec_bt_cmds *bt_cmds;
};

/*
 * Bluetooth: an HCI packet split over transfers, as Wireshark's hci_usb
 * reassembles it (dec-bt.c): the frame and length of each piece (the
 * first DEC_BT_MAXFRAG of them), its first DEC_BT_MAXPKT bytes
 * (HCI_MAX_FRAME_SIZE, Linux's btusb: an ACL packet longer is decoded on
 * what is kept), the bytes the packet says it has.
 */
/*
 * Bluetooth: the last command of each opcode (at most DEC_BT_CMDS, the
 * oldest forgotten) with the frames and times of its command and of its
 * Command Status, as Wireshark's bthci_cmd keeps them (bthci_cmd_data_t),
 * and what an event's learn found of it for the event's tree (ev_frame:
 * the event's frame, 0 none).
 */
#define DEC_BT_CMDS	16
struct dec_bt_cmd {
	uint16_t	 op;
	uint64_t	 frame;		/* 0: the slot is free */
	int64_t		 ts;
	uint64_t	 pend_frame;	/* its Command Status, 0: none */
	int64_t		 pend_ts;
	uint64_t	 resp_frame;	/* the event of a connection that
					   answered it, 0: none */
};
/*
 * Bluetooth: what Wireshark's bluetooth_data_t keeps of the connections
 * for bthci_acl (packet-bthci_evt.c, packet-bthci_cmd.c), as one pass
 * sees it: per connection handle the remote BD_ADDR, the frames of its
 * Connection Complete and Disconnection Complete and its mode
 * (chandle_to_bdaddr, chandle_sessions, chandle_to_mode); per remote
 * BD_ADDR its role and name (bdaddr_to_role, bdaddr_to_name); the local
 * BD_ADDR and name.  At most DEC_BT_LINKS handles and DEC_BT_DEVS
 * addresses, the oldest forgotten; names of at most DEC_BT_NAME bytes
 * (HCI's 248, Part E 7.3.12).
 */
#define DEC_BT_LINKS	8
#define DEC_BT_DEVS	8
#define DEC_BT_NAME	248
struct dec_bt_link {
	uint64_t	 conn_frame;	/* 0: the slot is free */
	uint64_t	 disc_frame;	/* 0: not disconnected */
	uint64_t	 mode_frame;	/* 0: no mode known */
	uint16_t	 handle;
	int8_t		 mode;
	uint8_t		 addr[6];	/* as the event has it (LSB first) */
};
struct dec_bt_dev {
	uint64_t	 frame;		/* last change, 0: the slot is free */
	uint64_t	 role_frame;	/* 0: no role known */
	uint8_t		 addr[6];
	uint8_t		 role;		/* the remote's: 0 unknown, 1 master,
					   2 slave */
	uint8_t		 has_name;
	char		 name[DEC_BT_NAME + 1];
};
/*
 * Bluetooth: the L2CAP channels Connection Requests opened, as
 * Wireshark's btl2cap keeps them in one pass (cid_to_psm_table): per ACL
 * handle the PSM, the frames of the request and of the Disconnection
 * Request, the local and the remote CID (0: not known yet).  At most
 * DEC_BT_CHANS, the oldest forgotten.
 */
#define DEC_BT_CHANS	16
struct dec_bt_chan {
	uint64_t	 conn_frame;	/* 0: the slot is free */
	uint64_t	 disc_frame;	/* 0: not disconnected */
	uint16_t	 handle;
	uint16_t	 psm;
	uint16_t	 local;
	uint16_t	 remote;
};
struct dec_bt_cmds {
	unsigned int	 refs;
	struct dec_bt_chan chan[DEC_BT_CHANS];
	struct dec_bt_link link[DEC_BT_LINKS];
	struct dec_bt_dev dev[DEC_BT_DEVS];
	uint8_t		 has_local;	/* Read BD_ADDR answered */
	uint8_t		 local[6];
	char		 local_name[DEC_BT_NAME + 1];
	struct dec_bt_cmd c[DEC_BT_CMDS];
	uint64_t	 ev_frame;
	uint64_t	 cmd_frame;	/* bthci_evt.command_in_frame */
	uint64_t	 pend_frame;	/* .pending_in_frame, 0: none */
	int64_t		 d_cmd;		/* ns since the command */
	int64_t		 d_pend;	/* ns since its Command Status */
	uint8_t		 status;	/* the event is that Command Status */
};

#define DEC_BT_MAXFRAG	64
#define DEC_BT_MAXPKT	1028
struct dec_bt_frag {
	unsigned int	 refs;		/* holders beyond the first */
	uint32_t	 total;		/* bytes of the packet, 0: none */
	uint32_t	 got;		/* bytes of its pieces so far */
	uint32_t	 nfrag;		/* its pieces so far */
	uint64_t	 frame[DEC_BT_MAXFRAG];
	uint32_t	 len[DEC_BT_MAXFRAG];
	uint8_t		 b[DEC_BT_MAXPKT];
};

#define DEC_BT_WHOLE	0	/* a packet, or the first piece of one */
#define DEC_BT_MIDDLE	1	/* a piece, more to come */
#define DEC_BT_LAST	2	/* the last piece */
#define DEC_BT_EXCESS	3	/* more bytes than the packet had left */

/* A device as the capture shows it, keyed by (bus, devnum). */
struct dec_dev {
	uint16_t	 busnum;
	uint8_t		 devnum;
	uint8_t		 has_ddesc;
	uint8_t		 ddesc[18];	/* device descriptor */
	uint8_t		 config;	/* active bConfigurationValue, 0 = none */
	uint8_t		 config_seen;	/* a SET_CONFIGURATION was seen */
	/*
	 * Configuration descriptors with what follows them, by index: cfg[i]
	 * holds cfg_len[i] bytes, at least USB_DT_CONFIG_SIZE, at most its
	 * wTotalLength; walk them with dec_desc_next().
	 */
	uint8_t		*cfg[DEC_MAX_CONFIGS];
	uint16_t	 cfg_len[DEC_MAX_CONFIGS];
	uint8_t		 alt[DEC_MAX_INTFS];	/* current alt per interface */
	struct dec_ep	 ep[32];	/* index (epnum & 15) | (IN ? 16 : 0) */
	struct dec_cls_state cls[DEC_MAX_INTFS];	/* by interface number */
	uint8_t		 guess[32];	/* by endpoint index, before any
					   configuration: DEC_GUESS_* */
	uint64_t	 since;		/* record that (re)created this state */
	uint32_t	 generation;	/* bumps on every re-enumeration */
	/*
	 * Device 0 only: the device that answered at the default address
	 * took its address (SET_ADDRESS completed, at record since) and
	 * nothing came to the default address since; no device is there.
	 */
	uint8_t		 addressed;
	/*
	 * The hub (its address) and port this device is plugged into: the
	 * port reset (SET_FEATURE PORT_RESET, USB 2.0 11.24.2.13) last
	 * before its SET_ADDRESS; port 0 = not in the capture.
	 */
	uint8_t		 parent, port;
	/*
	 * It has traffic only a configured device has (an endpoint other
	 * than 0, a hub's port requests): configured, before the capture
	 * when no SET_CONFIGURATION was seen.
	 */
	uint8_t		 in_use;
};

/* dec_info.flags */
#define DI_PAIRED	0x01	/* completion found its submit */
#define DI_ORPHAN	0x02	/* completion without a submit in the capture */
#define DI_RESUBMIT	0x04	/* submit replaced a submit never completed */
#define DI_SETUP	0x08	/* setup holds the control request */
#define DI_CLASS	0x10	/* intf/cls name the owner of the endpoint */
#define DI_HUB		0x20	/* the request goes to a hub */
#define DI_STAGE	0x40	/* a USBPcap control stage of an URB seen
				   before (pair_recno, when known) */
#define DI_GUESSED	0x80	/* the class is guessed from the data (no
				   descriptors in the capture) */
#define DI_DECODE_AS	0x100	/* the class is the user's (--decode-as) */
#define DI_IDS		0x200	/* vid and pid are the device's */
#define DI_DEV_BT	0x400	/* the device descriptor says Bluetooth
				   (0xe0/0x01/0x01 or /0x04): Wireshark's
				   hci_usb takes its class requests to the
				   device (usb.protocol) */

/* dec_dev.guess: what an endpoint's data looked like. */
#define DEC_GUESS_BOT	1	/* CBW/CSW signatures (BOT 5.1, 5.2) */
#define DEC_GUESS_KBD	2	/* boot keyboard reports (HID 1.11 B.1) */
#define DEC_GUESS_HID	0x40	/* + an interface: its input reports'
				   length (the report descriptor's) */

/* What the analysis says about one record. */
struct dec_info {
	uint32_t	 flags;		/* DI_* */
	uint32_t	 pair_len;	/* the submit's len_urb: the length
					   asked for (IN) or to send (OUT) */
	uint64_t	 pair_recno;	/* the submit of a completion, or 0 */
	uint64_t	 pair_frame;	/* its frame number */
	uint64_t	 replaced_recno;	/* DI_RESUBMIT: the submit this
					   one replaced, never completed */
	int64_t		 latency_ns;	/* completion ts - submit ts, -1
					   unpaired, DEC_TS_BAD */
	struct dec_setup setup;		/* the request (a completion's too) */
	int16_t		 intf;		/* owning interface, -1 */
	uint8_t		 cls;		/* its class (0xff vendor) */
	uint8_t		 subcls;
	uint8_t		 proto;
	uint16_t	 real_cls;	/* DI_GUESSED, DI_DECODE_AS: the class
					   the descriptors say, 0xffff none */
	uint16_t	 vid;		/* DI_IDS: the device descriptor's */
	uint16_t	 pid;
	uint32_t	 cfg_len;	/* cfg's bytes (below) */
	/*
	 * What the class decoders learnt of the owning interface, as it
	 * is after this record (NULL if none).  It points into the
	 * analysis, which moves on with the next record: a record kept
	 * for later keeps a copy (dec_rec_copy).  Formatting reads only
	 * the record, this structure, *st and cfg.
	 */
	const struct dec_cls_state *st;
	/*
	 * For a class whose decoder reads the interface's siblings (the
	 * audio and video units a request addresses): the active
	 * configuration's descriptors, cfg_len bytes, else NULL.  Points
	 * into the analysis as st does.  (The structure is 80 bytes, which
	 * gcc clears with five vector stores; a few more and it takes a
	 * rep stos, slow to start, once a record.)
	 */
	const uint8_t	*cfg;
};

/*
 * The class a control request goes to, for the _class decoders: the
 * recipient's interface class, 0x09 for hubs, a product's pseudo class
 * (DEC_CLS_*) for vendor requests it decodes, -1 when unknown.
 */
int		 dec_info_class(const struct dec_info *info);

/*
 * A record kept beyond the source's next one (decode/dec-copy.c): r or ev
 * as the caller's kind says, with copies of the bytes they point to in
 * buf, and info.st a copy of the interface's class state (a record moved
 * by value keeps it: it is in buf).  r.ifname is NULL.  Start from a
 * zeroed one; dec_rec_copy reuses buf, dec_rec_free lets it all go.
 */
struct dec_rec {
	int		 kind;		/* the caller's (CAP_URB, CAP_EVENT) */
	struct urb_rec	 r;
	struct dec_info	 info;
	struct drv_event ev;
	uint8_t		*buf;
	size_t		 bufsize;
	int		 shares;	/* info.st shares what the analysis
					   holds (a HID layout) */
};

/* Copy r with its info (NULL: none), or if r is NULL the event ev, into
 * rec.  0, or -UE_NOMEM (rec is then empty). */
int		 dec_rec_copy(struct dec_rec *rec, int kind,
		     const struct urb_rec *r, const struct dec_info *info,
		     const struct drv_event *ev);
void		 dec_rec_free(struct dec_rec *rec);

/* A fresh context; NULL when out of memory. */
struct dec_ctx	*dec_ctx_new(void);
void		 dec_ctx_free(struct dec_ctx *ctx);
/* A copy of the whole state, to go on from later (NULL: no memory). */
struct dec_ctx	*dec_ctx_clone(const struct dec_ctx *ctx);

/*
 * Pair r with its submit, learn from it, and describe it in *info.  Records
 * must come in capture order.  Returns 0 or -UE_NOMEM.
 */
int		 dec_analyze(struct dec_ctx *ctx, const struct urb_rec *r,
		     struct dec_info *info);

/*
 * Decode As (Wireshark's "Decode As...", urbscope --decode-as): decode an
 * interface's traffic as a class, whatever its descriptors say or when
 * the capture has none.  spec is TARGET=CLASS, TARGET one of BUS.DEV,
 * BUS.DEV.INTF, VID:PID or VID:PID.INTF (numbers of `read`'s address
 * column; VID:PID in hex as lsusb prints them), CLASS a name of
 * dec_class_names() or CLASS[.SUBCLASS[.PROTOCOL]] in hex.  0, or
 * -UE_SYNTAX with err (size bytes) saying why.
 */
int		 dec_ctx_decode_as(struct dec_ctx *ctx, const char *spec,
		     char *err, size_t size);
/* The class names --decode-as takes, "hid, hid-keyboard, ...", and the
 * class, subclass and protocol of one (0, or -1 if it is none). */
const char	*dec_class_names(void);
int		 dec_class_by_name(const char *name, size_t n, uint8_t out[3]);

/* The device state of (bus, devnum), or NULL. */
const struct dec_dev *dec_ctx_device(const struct dec_ctx *ctx,
		     uint16_t busnum, uint8_t devnum);

/* Submits still waiting for their completion: count, and up to max of
 * their frame numbers (urb_frame, lowest first) into frames. */
size_t		 dec_ctx_pending(const struct dec_ctx *ctx, uint64_t *frames,
		     size_t max);

/* ------------------------------------------------------------------------
 * Formatting (decode/dec-fmt.c, dec-record.c): text lines, -V trees, JSON
 * and tshark-style fields, into a growable buffer.
 */
struct sbuf {
	char		*s;
	size_t		 len;
	size_t		 cap;
	int		 oom;		/* an append failed; contents cut */
};

/* Make room for n more bytes (and the NUL); sets oom on failure. */
void		 sb_grow(struct sbuf *b, size_t n);
void		 sb_free(struct sbuf *b);
/* Room for one more element of size sz in the array *pp (n used, *cap
 * allocated, doubled from 16): 0, or -1 without memory (*pp stays). */
int		 dec_grow(void *pp, size_t n, size_t *cap, size_t sz);
/* A copy of n bytes of p (malloc'd, one byte at least), or NULL. */
uint8_t		*dec_memdup(const uint8_t *p, size_t n);

/*
 * Kept strings, one copy of each: names taken from events, whose own
 * strings do not last.  dec_strs_add returns the kept copy of the n bytes
 * at s (NULL for NULL, or out of memory); a zeroed struct is empty.
 */
struct dec_strs {
	char		**s;
	size_t		 n, cap;
};
const char	*dec_strs_add(struct dec_strs *p, const char *s, size_t n);
void		 dec_strs_free(struct dec_strs *p);
void		 sb_printf(struct sbuf *b, const char *fmt, ...)
		     __attribute__((format(printf, 2, 3)));
void		 sb_i64(struct sbuf *b, int64_t v);
/* v right-aligned in width columns */
void		 sb_u64w(struct sbuf *b, uint64_t v, int width);
void		 sb_hex(struct sbuf *b, uint64_t v, int digits);
/* The same after "0x". */
void		 sb_hex0x(struct sbuf *b, uint64_t v, int digits);
/* seconds.micros (or nanos) of a ns count: "12.000251" */
void		 sb_secs(struct sbuf *b, int64_t ns, int decimals);
/* JSON string literal, quoted and escaped */
void		 sb_json_str(struct sbuf *b, const char *s, size_t n);
/* b's text from offset start on, made a JSON string in place. */
void		 sb_json_from(struct sbuf *b, size_t start);
/*
 * Text s with every line longer than width columns (ASCII) broken at
 * blanks: a table row ("  -w FILE       write the capture") goes on under
 * its second column (after three blanks or more), a paragraph at its own
 * indent; a word longer than a line is cut.  Trailing blanks go.
 */
void		 sb_wrap(struct sbuf *b, const char *s, size_t width);
/* Bytes as contiguous lowercase hex ("0a1b"). */
void		 sb_hexbytes(struct sbuf *b, const uint8_t *p, size_t n);
/* The two lowercase hex digits of byte v: sb_hexpairs[2 * v], [2 * v + 1]. */
extern const char sb_hexpairs[513];
/* The two decimal digits of v < 100: sb_decpairs[2 * v], [2 * v + 1]. */
extern const char sb_decpairs[201];

/* The appenders below are inline: formatting is the hot path of read. */
static inline int
sb_reserve(struct sbuf *b, size_t n)
{
	if (b->len + n + 1 > b->cap)
		sb_grow(b, n);
	return !b->oom;
}

/*
 * n bytes from s to d; short pieces without a call to memcpy (gcc makes
 * a loop over the bytes one): two copies of 16, 8 or 4 bytes that overlap
 * in the middle.
 */
static inline void
dec_copy(char *d, const char *s, size_t n)
{
	size_t	 i;

	if (n >= 8 && n <= 16) {
		memcpy(d, s, 8);
		memcpy(d + n - 8, s + n - 8, 8);
	} else if (n > 16 && n <= 32) {
		memcpy(d, s, 16);
		memcpy(d + n - 16, s + n - 16, 16);
	} else if (n >= 4 && n < 8) {
		memcpy(d, s, 4);
		memcpy(d + n - 4, s + n - 4, 4);
	} else if (n < 4) {
		for (i = 0; i < n; i++)
			d[i] = s[i];
	} else
		memcpy(d, s, n);
}

static inline void
sb_putn(struct sbuf *b, const char *s, size_t n)
{
	if (!sb_reserve(b, n))
		return;
	dec_copy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = '\0';
}

static inline void
sb_putc(struct sbuf *b, char c)
{
	if (!sb_reserve(b, 1))
		return;
	b->s[b->len++] = c;
	b->s[b->len] = '\0';
}

static inline void
sb_puts(struct sbuf *b, const char *s)
{
	sb_putn(b, s, strlen(s));
}


/* The decimal digits of v: compares, not a chain of divisions. */
static inline int
dec_ndigits(uint64_t v)
{
	int	 n = 0;

	for (;;) {
		if (v < 10)
			return n + 1;
		if (v < 100)
			return n + 2;
		if (v < 1000)
			return n + 3;
		if (v < 10000)
			return n + 4;
		v /= 10000;
		n += 4;
	}
}

/*
 * The decimal digits of v written backward, ending just before end, two
 * at a time from the last; returns where they start.
 */
static inline char *
dec_digits_back(char *end, uint64_t v)
{
	uint32_t v32;
	unsigned d;

	while (v > UINT32_MAX) {
		d = (unsigned)(v % 100) * 2;
		v /= 100;
		*--end = sb_decpairs[d + 1];
		*--end = sb_decpairs[d];
	}
	/* the rest in 32 bits: a division by 100 is a shorter multiply */
	for (v32 = (uint32_t)v; v32 >= 100; v32 /= 100) {
		d = (v32 % 100) * 2;
		*--end = sb_decpairs[d + 1];
		*--end = sb_decpairs[d];
	}
	if (v32 >= 10) {
		*--end = sb_decpairs[v32 * 2 + 1];
		*--end = sb_decpairs[v32 * 2];
	} else
		*--end = (char)('0' + v32);
	return end;
}

/*
 * v as decimal digits at p, right-aligned in width columns (at least its
 * digits; 0: just the digits), for fixed columns whose room the caller
 * reserved; returns the end.  Two digits at a time, no checks per
 * character.
 */
static inline char *
dec_put_uw(char *p, uint64_t v, int width)
{
	int	 nd = dec_ndigits(v);

	while (width > nd) {
		*p++ = ' ';
		width--;
	}
	(void)dec_digits_back(p + nd, v);
	return p + nd;
}

static inline void
sb_u64(struct sbuf *b, uint64_t v)
{
	int	 n = dec_ndigits(v);

	if (!sb_reserve(b, (size_t)n))
		return;
	b->len += (size_t)n;
	b->s[b->len] = '\0';
	(void)dec_digits_back(b->s + b->len, v);
}

/* How records are printed (tshark's -t r, a, d, dd, e). */
enum dec_time_mode {
	DT_RELATIVE,		/* seconds since the first record */
	DT_ABSOLUTE,		/* date and time of day (UTC) */
	DT_DELTA,		/* seconds since the previous record, shown
				   or not (tshark's frame.time_delta) */
	DT_DELTA_SHOWN,		/* since the previous record shown (tshark's
				   -t dd, frame.time_delta_displayed) */
	DT_EPOCH,		/* seconds since 1970 */
};

struct dec_fmt {
	enum dec_time_mode time_mode;
	/* ASCII only, for a locale that is not UTF-8 (the caller looks
	 * once): "->" for the summaries' arrow */
	int		 ascii;
	int64_t		 t0;		/* ts of the first record */
	int64_t		 tprev;		/* ts of the previous record */
	int		 have_t0;
	int		 shown;		/* -t dd: a record was shown */
	/*
	 * dec_fmt_line_head's text of columns that repeat or count on from
	 * one line to the next, kept with what it says (0: nothing yet; a
	 * zeroed struct is ready).
	 */
	uint64_t	 num_of;	/* the frame number in num */
	uint64_t	 sec_of;	/* 1 + the whole seconds in sec */
	char		 num[8];	/* 7 columns and a blank */
	char		 sec[8];	/* 4 columns and '.' */
	struct {
		uint64_t	 key;	/* bus, device, endpoint; 0: empty */
		uint8_t		 len;
		char		 s[23];	/* "1.3.1     in  " */
	}		 addr[16];
};

/* Times count from ts, unless they already count from an earlier one or
 * ts is DEC_TS_BAD (then from the first good one). */
static inline void
dec_fmt_start(struct dec_fmt *f, int64_t ts)
{
	if (!f->have_t0 && ts != DEC_TS_BAD) {
		f->t0 = f->tprev = ts;
		f->have_t0 = 1;
	}
}

/* A record read and not shown (a filter's): the next -t d counts from
 * it, as tshark's does; -t dd does not. */
static inline void
dec_fmt_skip(struct dec_fmt *f, int64_t ts)
{
	dec_fmt_start(f, ts);
	if (ts != DEC_TS_BAD && f->time_mode != DT_DELTA_SHOWN)
		f->tprev = ts;
}

/*
 * The one-line form of a record: number, time, bus.dev.ep, direction,
 * event, transfer type, status, length, summary.  Appends a newline.
 */
void		 dec_fmt_line(struct dec_fmt *f, const struct urb_rec *r,
		     const struct dec_info *info, struct sbuf *b);

/* The transfer type column: "iso", "int", "ctrl", "bulk", "irp", "pkt". */
const char	*dec_fmt_type_name(const struct urb_rec *r);

/* The columns before the summary (dec_fmt_line without its summary). */
void		 dec_fmt_line_head(struct dec_fmt *f, const struct urb_rec *r,
		     struct sbuf *b);

/* The summary column alone (also used by the TUI), in f's characters. */
void		 dec_fmt_summary(const struct dec_fmt *f,
		     const struct urb_rec *r, const struct dec_info *info,
		     struct sbuf *b);
/*
 * What OUT submit s sends as its summary decodes it (": " and the class
 * decode, else the first bytes), for the row of an end that carries no
 * data; nothing for an IN submit or one without data.
 */
void		 dec_fmt_sent(const struct urb_rec *s,
		     const struct dec_info *info, struct sbuf *b);

/*
 * The whole decoded tree of a record (pseudo-header with Wireshark's field
 * names, pairing, interface, setup, descriptors, class data, payload).
 */
void		 dec_record_tree(const struct urb_rec *r,
		     const struct dec_info *info, struct dec_tree *t);

/* -V: the tree as indented text, then the payload as hex and ASCII. */
void		 dec_fmt_verbose(struct dec_fmt *f, const struct urb_rec *r,
		     const struct dec_info *info, const struct dec_tree *t,
		     struct sbuf *b);
/* -T json: one object per line. */
void		 dec_fmt_json(struct dec_fmt *f, const struct urb_rec *r,
		     const struct dec_info *info, const struct dec_tree *t,
		     struct sbuf *b);
/* Hex and ASCII dump, 16 bytes a line, each line indented. */
void		 dec_fmt_hexdump(const uint8_t *p, size_t n, int indent,
		     struct sbuf *b);

/*
 * A latency, the one form `read` and the TUI show, rounded: "0.251 ms"
 * below a second (to the microsecond), "8.884 s" below 100000 s (to the
 * millisecond), then whole seconds ("123456 s"); a negative one as 0,
 * DEC_TS_BAD as "bad time".  Writes a NUL-terminated string of at most
 * DEC_LATENCY_MAX - 1 characters (11 below 10^9 s) into buf; returns its
 * length.
 */
#define DEC_LATENCY_MAX	24
int		 dec_fmt_latency(int64_t ns, char *buf);

/* The time column of ts_ns per f's mode.  notime: ts_ns is no wall clock
 * (usbmon text), so absolute and epoch times show the relative time; the
 * caller says why. */
void		 dec_fmt_time(struct dec_fmt *f, int64_t ts_ns, int notime,
		     struct sbuf *b);

/*
 * Driver events (decode/dec-event.c).  The summary: kind and its fields,
 * "probe intf 0 -> 0", "submit urb 0x5e0000000100 ep 0x02 len 5
 * GFP_KERNEL task -> 0", "RULE gfp-kernel-in-atomic: TEXT".  The line:
 * number, time, bus.dev, "drv", driver, function, summary, newline.  JSON:
 * one object per line with "event" (the kind name), "driver", "function"
 * and the fields present.  Verbose: a header line and one field a line.
 */
void		 dec_fmt_event_summary(const struct drv_event *ev,
		     struct sbuf *b);
void		 dec_fmt_event_line(struct dec_fmt *f,
		     const struct drv_event *ev, struct sbuf *b);
void		 dec_fmt_event_json(struct dec_fmt *f,
		     const struct drv_event *ev, struct sbuf *b);
void		 dec_fmt_event_verbose(struct dec_fmt *f,
		     const struct drv_event *ev, struct sbuf *b);

/*
 * Class decoders (decode/dec-class.c and one file a class: dec-hid.c,
 * dec-msc.c, ...), chosen by the class of the interface that owns the
 * record (or that a class request goes to).  The summary of class data
 * (bulk, interrupt and isochronous payloads, the data stage of class
 * requests): 1 when it wrote something, 0 when the class knows nothing.
 * The tree: 1 when the class decoded the payload (then no usb.capdata, as
 * Wireshark's subdissectors take the bytes), 0 otherwise.  Learning: what
 * the class keeps from a record (a CBW) into st, its interface's state,
 * from dec_analyze; 1 when the class's decoders also read the active
 * configuration (info->cfg).
 */
int		 dec_class_summary(const struct urb_rec *r,
		     const struct dec_info *info, struct sbuf *b);
int		 dec_class_tree(const struct urb_rec *r,
		     const struct dec_info *info, struct dec_tree *t);
int		 dec_class_learn(const struct urb_rec *r,
		     const struct dec_info *info, struct dec_cls_state *st);
/*
 * The protocol name s[0..n) of a class decoder (usbms, usbhid, ...) as a
 * filter's bare name tests it, or a product's (ftdi-ft): does Wireshark
 * 4.0's dissection of r hold that protocol's item?  1 or 0, or -1 when
 * no class decoder or product is that protocol's (its fields in r's tree
 * say).
 */
int		 dec_class_proto_item(const struct urb_rec *r,
		     const struct dec_info *info, const char *s, size_t n);
/* The protocol name s[0..n) of a class decoder (its static copy), or
 * NULL. */
const char	*dec_class_proto_find(const char *s, size_t n);
/* A HID keyboard's input report (interrupt IN completion) as the boot
 * report's 8 bytes, read by the interface's report descriptor or as a
 * boot report: modifier bits, 0, six key usages (HID 1.11 appendix B).
 * 1, 0 when r is no keyboard's input report, -1 when it is a keyboard's
 * that neither reads (a boot keyboard's report not of 8 bytes, a report
 * ID its descriptor has not, a report cut short). */
int		 dec_hid_keyboard(const struct urb_rec *r,
		     const struct dec_info *info, uint8_t out[8]);
/* The interface (its wIndex, HID 1.11 7.1.1) whose report descriptor
 * r answers, when r is the completion of a GET_DESCRIPTOR(HID_REPORT)
 * with data; else -1.  dec_hid_learn_rdesc keeps its layout in st, the
 * state of that interface, whatever class the capture gives it. */
int		 dec_hid_rdesc_answer(const struct urb_rec *r,
		     const struct dec_info *info);
void		 dec_hid_learn_rdesc(const struct urb_rec *r,
		     struct dec_cls_state *st);
/* HID typed text: the characters of the keys pressed in boot keyboard
 * report cur8 and not in prev8 (NULL: none), US layout, appended to out
 * ("\n" Enter, "\t" Tab, "^C" Ctrl+C, the keys that type no character
 * by name: "<Backspace>", "<Left>", "<F1>"; the lock keys nothing);
 * *caps (NULL: not kept) is the Caps Lock state, toggled by its key.
 * The count of keys pressed. */
int		 dec_hid_keys_text(const uint8_t *prev8, const uint8_t *cur8,
		     int *caps, struct sbuf *out);
/*
 * A keyboard's text, report after report (zeroed, mode set, to start;
 * sb_free its text after): in DEC_KEYS_NAMES as dec_hid_keys_text
 * writes it, in DEC_KEYS_EDIT with the editing keys applied at a cursor
 * as a text editor would (Backspace, Delete, Left, Right, Up, Down,
 * Home, End, Page Up and Down to the ends, Insert toggling overwrite).
 * dec_keys_report takes the next boot report; the keys pressed.
 */
#define DEC_KEYS_NAMES	0
#define DEC_KEYS_EDIT	1
struct dec_keys {
	int		 mode;
	int		 caps;		/* Caps Lock on */
	int		 overwrite;	/* Insert: typing replaces */
	size_t		 cur;		/* DEC_KEYS_EDIT: the cursor in text */
	uint8_t		 prev[8];	/* the last report */
	struct sbuf	 text;
};
int		 dec_keys_report(struct dec_keys *k, const uint8_t cur8[8]);
/* Does a state hold what a copy shares (a release must see it)? */
int		 dec_cls_state_held(const struct dec_cls_state *st);
/* Let go of a reassembled Bluetooth packet (NULL: nothing). */
void		 dec_bt_frag_unref(struct dec_bt_frag *f);
/* A class request to a device that has no interface as recipient: the
 * device's class decoder learns it into st (a Bluetooth controller's HCI
 * command, kept by its HCI interface 0). */
void		 dec_class_learn_dev(const struct urb_rec *r,
		     const struct dec_info *info, struct dec_cls_state *st);
/* A state's copy (sharing what it points to) and its release. */
void		 dec_cls_state_copy(struct dec_cls_state *dst,
		     const struct dec_cls_state *src);
void		 dec_cls_state_free(struct dec_cls_state *st);

/* ------------------------------------------------------------------------
 * Field names (decode/dec-fields.c): what -T fields prints, -Y and the
 * TUI filter test and -G fields lists.  A name is a field of the decoded
 * tree (Wireshark's, usb.idVendor; for a driver event the field JSON
 * gives the same name, usb.device_address), a driver event's own field
 * (driver, rule, ...), event (its kind), a frame.* field or one of JSON's
 * extra members (summary, data, synthetic).  Resolved once, so that a
 * record costs pointer compares, never a strcmp.
 */
enum dec_fref_kind {
	FR_TREE = 1,		/* tree nodes (and event field evf) */
	FR_EVENT,		/* only a driver event's field evf */
	FR_KIND,		/* "event": a driver event's kind name */
	FR_FRAME_NUMBER,	/* frame.number */
	FR_FRAME_EPOCH,		/* frame.time_epoch */
	FR_FRAME_REL,		/* frame.time_relative */
	FR_FRAME_DELTA,		/* frame.time_delta */
	FR_FRAME_OFFSET,	/* frame.offset: the record's byte offset */
	FR_DATA,		/* data: the payload */
	FR_SUMMARY,		/* summary: the one-line summary */
	FR_SYNTHETIC,		/* synthetic: made by urbscope */
	FR_FRAME_LEN,		/* frame.len: the packet's length */
	FR_FRAME_CAPLEN,	/* frame.cap_len: the bytes captured */
	FR_PROTO,		/* a protocol: the prefix name[0..plen) of
				   tree fields (usb, usbms, scsi) */
	FR_FRAME,		/* frame: every record and event */
};

#define DEC_FREF_MAX	8	/* tree fields that share one name */

struct dec_fref {
	uint8_t		 kind;		/* FR_* */
	int8_t		 evf;		/* the event field, -1: none */
	uint8_t		 nref;		/* ref[0..nref), 0: by name */
	uint8_t		 plen;		/* FR_PROTO: the prefix's length */
	const char	*name;		/* the field's own static name (for
					   FR_PROTO a field's, whose first
					   plen bytes are the protocol) */
	const struct dec_field *ref[DEC_FREF_MAX];
};

/* Resolve the name s[0..n) into *fr: 0, or -1 when urbscope has no such
 * field. */
int		 dec_fref_resolve(const char *s, size_t n, struct dec_fref *fr);
/* Is node n of a tree one of fr's fields? */
static inline int
dec_fref_is(const struct dec_fref *fr, const struct dec_node *n)
{
	uint8_t	 i;

	if (n->f == NULL)
		return 0;
	for (i = 0; i < fr->nref; i++) {
		if (n->f == fr->ref[i])
			return 1;
	}
	/* more fields of the name than ref holds: by name */
	return fr->nref == 0 && fr->kind == FR_TREE && n->f->abbrev != NULL &&
	    strcmp(n->f->abbrev, fr->name) == 0;
}
/* The kind of fr's values (DK_*; DK_UINT for frame numbers, DK_TIME for
 * frame times, DK_STRING for event strings, DK_BYTES for data). */
int		 dec_fref_type(const struct dec_fref *fr);
/*
 * A protocol's name (Wireshark's, as a filter tests it): is node n a
 * field of the protocol fr (FR_PROTO)?  A field belongs to the protocol
 * whose name is its abbrev before the first dot, and to the protocol of
 * which it is a sub-protocol by an underscore (scsi_sbc.opcode: scsi).
 */
static inline int
dec_fref_proto_is(const struct dec_fref *fr, const struct dec_node *n)
{
	const char	*a;

	if (n->f == NULL || (a = n->f->abbrev) == NULL)
		return 0;
	return strncmp(a, fr->name, fr->plen) == 0 &&
	    (a[fr->plen] == '.' || a[fr->plen] == '_');
}
/*
 * The value named s[0..n) of fr's fields (their value-name tables, and
 * Wireshark's names where urbscope shows others: URB_BULK), compared
 * without case, a blank the same as '_': 0 and *v, or -1.  *named says
 * whether fr's fields have names at all.
 */
int		 dec_fref_value(const struct dec_fref *fr, const char *s,
		     size_t n, int64_t *v, int *named);
/*
 * The known name nearest to s[0..n) by edit distance (a misspelling's
 * correction), or NULL when none is near.
 */
const char	*dec_field_nearest(const char *s, size_t n, char *buf,
		     size_t size);

/*
 * Every field name once, in the order frame, short filter names, driver
 * events, tree: fn(arg, name, type, description) ("usb.idVendor",
 * "uint16, hex", "idVendor").
 */
void		 dec_fields_each(void (*fn)(void *, const char *,
		     const char *, const char *), void *arg);

/* Where a record sits in its capture: the frame.* fields. */
struct dec_frame {
	uint64_t	 number;	/* frame.number */
	uint64_t	 offset;	/* byte offset in the source */
	int64_t		 ts_ns;		/* DEC_TS_BAD: none */
	int64_t		 t0_ns;		/* the first record's (or BAD) */
	int64_t		 prev_ns;	/* the previous record's (or BAD) */
	uint32_t	 len;		/* frame.len, 0: none */
	uint32_t	 cap_len;	/* frame.cap_len, 0: none */
};

/* -T fields' -E options, as tshark's. */
struct dec_fields_opts {
	char		 sep;		/* separator=: '\t' */
	char		 agg;		/* aggregator=: ',' */
	char		 quote;		/* quote=: 0, '"' or '\'' */
	int		 occurrence;	/* 0 all, 1.. the Nth, -1.. from
					   the last (f 1, l -1) */
};

/*
 * -T fields: the fields refs[0..n) of a record (its tree t, built with
 * all_bits) or of a driver event, tab-separated, repeats joined by ',',
 * then a newline; what the record does not have is empty.  f is for the
 * summary's arrow.
 */
void		 dec_fmt_fields(const struct dec_fmt *f,
		     const struct dec_fields_opts *o,
		     const struct dec_frame *fr, const struct urb_rec *r,
		     const struct dec_info *info, const struct dec_tree *t,
		     const struct dec_fref *refs, size_t n, struct sbuf *b);
void		 dec_fmt_event_fields(const struct dec_fields_opts *o,
		     const struct dec_frame *fr, const struct drv_event *ev,
		     const struct dec_fref *refs, size_t n, struct sbuf *b);

/* Driver event fields by JSON name (dec-event.c): the index of s[0..n)
 * or -1; the name of index i (NULL past the last; *is_str: a string);
 * field i of ev: 0 absent, 1 a number in *num, 2 a string in *str; its
 * text as -T fields prints it; and the value named s[0..n) of a field
 * whose values have names (mem_flags, bus_event) into *v: 0, or -1. */
int		 dec_event_field(const char *s, size_t n);
const char	*dec_event_field_name(int i, int *is_str);
/* A protocol s[0..n) of one kind's own fields (syslog: a bus event's
 * syslog.msg): the first such field's index, or -1; and does event ev
 * hold a field of it (as tshark's frame of a sniffer's message holds its
 * syslog item)? */
int		 dec_event_proto(const char *s, size_t n);
int		 dec_event_proto_is(const struct drv_event *ev, const char *s,
		     size_t n);
int		 dec_event_value(const struct drv_event *ev, int i,
		     int64_t *num, const char **str);
void		 dec_event_value_text(const struct drv_event *ev, int i,
		     struct sbuf *b);
int		 dec_event_value_named(int i, const char *s, size_t n,
		     int64_t *v);

/* ------------------------------------------------------------------------
 * Display filters (decode/dec-filter.c), the language of read -Y and of
 * the TUI: Wireshark's display filters over the names above, with
 * urbscope's short names besides.
 *
 *	usb.src == "1.3.1" && usb.capdata contains 55:53:42:43
 *	type==bulk && status!=0		latency>2ms || !(dir==in)
 *
 * A bare name tests presence; == != < <= > >= (eq ne lt le gt ge),
 * ~= (any_ne), contains; and/&&, or/||, not/!, parentheses; numbers in
 * decimal or 0x hex, 'c' characters, "strings", byte strings 55:53:42:43,
 * times in seconds (frame.time_relative > 1.5).  A field that occurs
 * several times matches when any occurrence does; != when none is equal
 * (Wireshark 4: "all not equal"), ~= when any is not.  A test of a field
 * the item does not have is false, whatever the operator.
 *
 * Short names: dev bus ep type dir ev status len latency driver event
 * urb.  status is a completion's (a submit has none); latency a paired
 * completion's; driver and event a driver event's.
 * Pure: the compiled form lives in a node array the caller gives.
 */
enum dec_ffield {
	DF_DEV = 1, DF_BUS, DF_EP, DF_TYPE, DF_DIR, DF_EV, DF_STATUS, DF_LEN,
	DF_LATENCY, DF_DRIVER, DF_EVENT, DF_URB,
	DF_REF,			/* a dec_fref (fref) */
	DF_HAS,			/* a bare short name: field value present */
};

enum dec_fop {
	DFO_AND = 1, DFO_OR, DFO_NOT, DFO_CMP, DFO_TRUE,
};

enum dec_fcmp {
	DFC_EQ = 1, DFC_NE, DFC_LT, DFC_LE, DFC_GT, DFC_GE,
	DFC_HAS,		/* a bare name: present */
	DFC_CONTAINS,
	DFC_ANY_NE,		/* ~= */
	DFC_MATCHES,		/* a regular expression (re) */
	DFC_RANGE,		/* value <= x <= value2: in {1..5} */
};

#define DEC_FILTER_STR	64
#define DEC_SLICE_MAX	4	/* ranges of one slice: [0:2,4,6-7] */

/* A range of a slice: count bytes from (negative: from the end). */
struct dec_slice {
	int32_t		 from;
	int32_t		 count;		/* INT32_MAX: to the end */
};

struct dec_fnode {
	uint8_t		 op;		/* DFO_* */
	uint8_t		 field;		/* DF_* for DFO_CMP */
	uint8_t		 cmp;		/* DFC_* */
	uint8_t		 vtype;		/* DF_REF: DK_* of the value */
	uint8_t		 neg;		/* DF_REF: the number had a '-' */
	uint16_t	 a, b;		/* operand node indices */
	uint8_t		 nslice;	/* DF_REF: slice[0..nslice) of the
					   value's bytes, 0: all of it */
	uint16_t	 len;		/* bytes in str */
	int64_t		 value;		/* number, ns for times */
	int64_t		 value2;	/* DFC_RANGE: the upper bound */
	char		 str[DEC_FILTER_STR];	/* string, bytes, the
						   pattern of matches */
	void		*re;		/* DFC_MATCHES: its regex_t */
	struct dec_slice slice[DEC_SLICE_MAX];
	struct dec_fref	 fref;		/* DF_REF */
};

struct dec_filter {
	struct dec_fnode *node;		/* caller storage */
	size_t		 max;
	size_t		 n;
	uint16_t	 root;
	int		 need_tree;	/* tests tree fields: dec_fvals.tree */
	int		 need_rec;	/* tests what only the record or event
					   has: dec_fvals r, tree or evp */
	int		 need_frame;	/* tests frame.*: dec_fvals.frame */
	int		 on_events;	/* tests a driver event's own field
					   (event, driver, rule, ...) */
	int		 col;		/* error: 1-based column, else 0 */
	char		 err[128];	/* error: "col 7: unknown field ..." */
};

/* What a filter looks at: one URB record or one driver event. */
struct dec_fvals {
	int		 is_event;
	uint16_t	 busnum;
	uint8_t		 devnum;
	uint8_t		 ep;		/* address, bit 7 = IN */
	uint8_t		 xfer;		/* XFER_* (URBs) */
	uint8_t		 ev;		/* 'S' 'C' 'E' (URBs) */
	int32_t		 status;	/* URBs */
	uint32_t	 len;
	int64_t		 latency_ns;	/* < 0: none */
	const char	*driver;	/* events, NULL if none */
	int		 event;		/* enum drv_kind (events) */
	uint64_t	 urb;		/* URB id, 0 if none */
	int		 has_urb;
	/* for the other names; NULL: the item has none of those fields */
	const struct dec_frame *frame;
	const struct urb_rec *r;
	const struct dec_info *info;	/* r's analysis, or NULL */
	const struct dec_tree *tree;	/* r's, built with all_bits, when
					   the filter's need_tree says */
	const struct drv_event *evp;
};

/*
 * Compile expr into f (f->node/f->max set by the caller; 64 nodes is
 * plenty for a typed filter).  An empty expression matches everything.
 * Returns 0, or -UE_SYNTAX with f->col and f->err set (-UE_NOMEM when a
 * regular expression found no memory).  What the nodes held before is
 * not looked at: free a compiled filter with dec_filter_free before
 * compiling another into its nodes.
 */
int		 dec_filter_compile(struct dec_filter *f, const char *expr);
/* What the compiled f holds besides its nodes (the regular expressions
 * of matches); f then matches everything. */
void		 dec_filter_free(struct dec_filter *f);
/* Does v pass f (compiled without error)? */
int		 dec_filter_match(const struct dec_filter *f,
		     const struct dec_fvals *v);
/* Fill v from a record and its analysis, or from a driver event (frame,
 * r, tree and evp are the caller's to set). */
void		 dec_fvals_urb(const struct urb_rec *r,
		     const struct dec_info *info, struct dec_fvals *v);
void		 dec_fvals_event(const struct drv_event *ev,
		     struct dec_fvals *v);
/* The filter name of a driver event kind ("probe", "submit") or NULL. */
const char	*dec_drv_kind_name(int kind);

/* ------------------------------------------------------------------------
 * dec-usbll.c: bus-level packets (LINKTYPE_USB_2_0 and the speed-specific
 * 293-295), USB 2.0 chapter 8.
 */
#define USBLL_PID_OUT	0xe1
#define USBLL_PID_IN	0x69
#define USBLL_PID_SOF	0xa5
#define USBLL_PID_SETUP	0x2d
#define USBLL_PID_DATA0	0xc3
#define USBLL_PID_DATA1	0x4b
#define USBLL_PID_DATA2	0x87
#define USBLL_PID_MDATA	0x0f
#define USBLL_PID_ACK	0xd2
#define USBLL_PID_NAK	0x5a
#define USBLL_PID_STALL	0x1e
#define USBLL_PID_NYET	0x96
#define USBLL_PID_PRE	0x3c		/* PRE, or ERR at high speed */
#define USBLL_PID_SPLIT	0x78
#define USBLL_PID_PING	0xb4

/* What a PID is: USBLL_K_*. */
#define USBLL_K_BAD	0		/* not a PID (check bits wrong) */
#define USBLL_K_TOKEN	1		/* OUT IN SETUP PING */
#define USBLL_K_SOF	2
#define USBLL_K_DATA	3
#define USBLL_K_HANDSHAKE 4		/* ACK NAK STALL NYET */
#define USBLL_K_SPLIT	5
#define USBLL_K_SPECIAL	6		/* PRE/ERR, reserved */
int		 dec_usbll_kind(uint8_t pid);
const char	*dec_usbll_pid_name(uint8_t pid);
/* USB 2.0 8.3.5: CRC5 of the low nbits of v; CRC16 of p[0..n). */
uint8_t		 dec_usbll_crc5(uint32_t v, unsigned nbits);
uint16_t	 dec_usbll_crc16(const uint8_t *p, size_t n);
/*
 * The fields of the packet in ll->raw (ll->raw_len bytes) into *ll: pid,
 * token address and endpoint, frame number, CRCs and their status, the
 * split token.  0, or -1 when the packet is too short for its PID (the
 * fields it has are set).
 */
int		 dec_usbll_parse(struct urb_ll *ll);
/* Packets built: a token (or SOF, with addr the frame number's low 7 bits
 * and ep the high 4) with its CRC5 into p[3], a data packet of d[0..n)
 * with its CRC16 into p[n + 3]; each returns the bytes written. */
size_t		 enc_usbll_token(uint8_t *p, uint8_t pid, uint8_t addr,
		     uint8_t ep);
size_t		 enc_usbll_data(uint8_t *p, uint8_t pid, const uint8_t *d,
		     size_t n);
/* The usbll subtree of a bus-level record (Wireshark's field names). */
void		 dec_usbll_tree(const struct urb_rec *r, struct dec_tree *t);
/*
 * A capture turned back into a program (decode/dec-export.c): one
 * device's transfers, as the host made them, in C on libusb-1.0 or in
 * Python on pyusb, each answer checked against the recording; or the
 * device's side, as a syzkaller program that emulates it (DEC_EXPORT_SYZ:
 * syz_usb_connect and syz_usb_control_io of syzkaller's
 * sys/linux/vusb.txt).  Records go in with the summary of each
 * submission (its comment); the program comes out of dec_export_finish.
 */
#define DEC_EXPORT_C		0
#define DEC_EXPORT_PYTHON	1
#define DEC_EXPORT_SYZ		2
struct dec_export;
struct dec_export *dec_export_new(int lang, const char *source);
/* The device to export, bus.dev (default: the first that is no hub). */
void		 dec_export_device(struct dec_export *x, int bus, int dev);
/* r with the summary of its line; a completion's submission as the
 * analysis paired them (dec_info.pair_recno, 0: by URB id). */
int		 dec_export_record(struct dec_export *x,
		     const struct urb_rec *r, const char *summary,
		     uint64_t pair_recno);
/* The program into b; -1 with err set (no device, out of memory). */
int		 dec_export_finish(struct dec_export *x, struct sbuf *b,
		     char *err, size_t errlen);
void		 dec_export_free(struct dec_export *x);
/* Or the device that described itself as vid:pid. */
void		 dec_export_vidpid(struct dec_export *x, uint16_t vid,
		     uint16_t pid);

/*
 * The same device's transfers for a replay against a live device
 * (urbscope replay): each in completion order with what replay does
 * with it.  The pointers are into the dec_export, alive as long as it.
 */
#define DEC_STEP_DO		0	/* sent, its answer compared */
#define DEC_STEP_ADDRESS	1	/* SET_ADDRESS: never sent */
#define DEC_STEP_CANCELLED	2	/* -ENOENT, -ECONNRESET, -ESHUTDOWN */
#define DEC_STEP_ISO		3	/* isochronous, its packets not all
					 * in the capture */
#define DEC_STEP_ENUM		4	/* a standard OUT request of the
					 * enumeration: the host's USB core's */
#define DEC_STEP_STATE		5	/* changes the device's state (vendor
					 * OUT, DFU_DNLOAD, SET_FEATURE, a
					 * disk's SCSI WRITE...) */
#define DEC_STEP_CONFIG		6	/* SET_CONFIGURATION */
struct dec_step {
	uint64_t	 recno;		/* of its submission */
	int		 kind;		/* DEC_STEP_* */
	uint8_t		 ep;		/* address, IN bit included */
	uint8_t		 type;		/* XFER_* */
	uint8_t		 ctrl;		/* endpoint 0 */
	uint8_t		 in;		/* data IN (a control's: its setup) */
	uint8_t		 setup[8];
	uint32_t	 len;		/* bytes asked (IN) or sent (OUT) */
	const uint8_t	*out;		/* OUT: nout bytes recorded, zeros */
	uint32_t	 nout;		/* after them */
	const uint8_t	*data;		/* IN: the bytes recorded */
	uint32_t	 ndata;
	uint32_t	 actual;	/* the length recorded */
	int32_t		 status;	/* recorded, Linux's (0, -EPIPE...) */
	const char	*comment;	/* its request, decoded */
	/* isochronous: each packet as asked (iso_s: offset into out or
	 * data, length) and as it came back (iso_c: status, offset into
	 * data, length) */
	const struct urb_iso *iso_s, *iso_c;
	uint32_t	 niso;
};
struct dec_replay {
	uint16_t	 bus;		/* the device in the capture */
	uint8_t		 dev;
	uint16_t	 vid, pid;
	uint8_t		 devdesc[18];	/* its device descriptor */
	uint8_t		 claim[256];	/* the interfaces sent transfers use */
	struct dec_step	*xfer;
	size_t		 nxfer;
};
/* 0, or -1 with err set (no such device, out of memory). */
int		 dec_export_replay(struct dec_export *x,
		     struct dec_replay *rp, char *err, size_t errlen);
void		 dec_replay_free(struct dec_replay *rp);

/* One-line summary of a packet with no URB meaning. */
void		 dec_usbll_summary(const struct urb_rec *r, struct sbuf *b);

/*
 * Folding a bus-level capture's text lines the way Packetry groups them:
 * a run of IN or PING polls the device NAKs (token + NAK, again and again,
 * with the SOFs between) is one line "IN 5.2 polled 4 times, NAKed", and
 * a run of SOFs is one line "4 SOFs 1005-1008".  The packets that carry
 * meaning (data, ACKs, STALLs, URB events, bad CRCs) print as they are.
 * Feed every record that would be printed, in order; dec_fold_record
 * first writes into b what held lines r ends, then returns 1 when it
 * holds r too (print nothing now) or 0 (print r now).  dec_fold_end
 * writes what is still held.
 */
struct dec_fold_sofs {
	uint32_t	 n;
	struct urb_rec	 first;		/* its pointers cleared */
	uint16_t	 from, to;	/* frame numbers */
	uint64_t	 last;		/* packet number of the last */
};

struct dec_fold {
	struct dec_fold_sofs sofs;	/* SOFs not yet in a run */
	int		 have_tok;	/* a token waiting for its answer */
	struct urb_rec	 tok;
	struct dec_info	 tok_info;
	uint32_t	 polls;		/* the run so far (0: none) */
	struct urb_rec	 head;		/* its first token */
	uint32_t	 sofs_in;	/* SOFs between its polls */
	uint64_t	 last;		/* packet number of its last NAK */
	int64_t		 last_ts;
};

void		 dec_fold_init(struct dec_fold *fo);
int		 dec_fold_record(struct dec_fold *fo, struct dec_fmt *f,
		     const struct urb_rec *r, const struct dec_info *info,
		     struct sbuf *b);
void		 dec_fold_end(struct dec_fold *fo, struct dec_fmt *f,
		     struct sbuf *b);
/*
 * What r is to the folding, for a view that folds rows itself (the
 * TUI's T view): DEC_FOLD_SOF, DEC_FOLD_POLL (an IN or PING token) or
 * DEC_FOLD_NAK (the NAK of one), ored with the token's PID << 16, its
 * address << 8 and endpoint (a poll and its NAK have the same low 24
 * bits); 0 for a packet that folds into nothing.
 */
#define DEC_FOLD_SOF	(1u << 24)
#define DEC_FOLD_POLL	(2u << 24)
#define DEC_FOLD_NAK	(3u << 24)
#define DEC_FOLD_KIND(v)	((v) & (3u << 24))
#define DEC_FOLD_KEY(v)		((v) & 0xffffffu)
uint32_t	 dec_fold_role(const struct urb_rec *r);
/* The text of a run of polls ("IN 5.2 polled 4 times, NAKed"), of a
 * token key (DEC_FOLD_KEY). */
void		 dec_fold_polls(struct sbuf *b, uint32_t key, uint32_t polls);
/*
 * The transfers view (decode/dec-xfer.c), as Packetry and hardware
 * analyzers show a capture: each URB is one row at its end (completion or
 * submit error) with the frame numbers of its submit and its end, the
 * length asked for (the submit's) and the length done (the end's), the
 * status and the end's summary (request, result, latency).  Submits are no
 * rows of their own: one never completed is a row when a resubmit replaced
 * it, the others at the end.  The row of an OUT URB's end that carries no
 * data (usbmon's completions) shows what its submit sent, decoded as the
 * submit's line decodes it.  A run of rows on one endpoint one after the
 * other that are truly alike (dec_xfer_alike, then the data bytes, sent
 * and received, compared) is the first row with a count: "(polled 37
 * times, identical, over 1.234 s, last frame 5210)".  Bus packets are no
 * rows.
 *
 * Feed every URB record read, shown (the filter passed it) or not, in
 * order: dec_xfer_record writes into b the rows r ends.  dec_xfer_flush
 * writes the run held (before a driver event's line); dec_xfer_end
 * writes it and the rows of the submits still open, marked with why.
 *
 * As a tree (Packetry's device -> endpoint -> transfer), the rows are
 * kept by endpoint, a run is one of identical rows of its endpoint, and
 * dec_xfer_end writes them all: a line per device (bus.dev, VID:PID),
 * under it a line per endpoint with its count of URBs, under that its
 * rows.
 */
struct dec_xkey {
	uint16_t	 busnum;
	uint8_t		 devnum;
	uint8_t		 epnum;
	uint8_t		 xfer_type;
	char		 type;		/* the end's 'C', 'E'; 'S' a submit
					   never completed */
	int32_t		 status;
	uint32_t	 len;		/* the end's len_urb (a submit's) */
	uint64_t	 fp;		/* dec_xfer_fingerprint */
};

/*
 * The rule by which rows fold, read --transfers's and the TUI's T view's:
 * the same endpoint, end, status and length, and the same fingerprint
 * (the request, asked length, data sent and received).
 */
int		 dec_xfer_alike(const struct dec_xkey *a,
		     const struct dec_xkey *b);

/* A submit not ended yet: its row if shown (len bytes of buf, the row
 * but for the mark), the decode of the data it sends (txt_len bytes
 * after), those bytes (nsent after that).  buf NULL: ended. */
struct dec_xopen {
	uint64_t	 recno;
	struct dec_xkey	 key;
	int64_t		 ts_ns;
	uint64_t	 frame;
	char		*buf;
	size_t		 len;
	size_t		 txt_len;
	uint32_t	 nsent;
	int		 shown;
	uint64_t	 sent;		/* dec_xfer_sent */
};

/* A run of identical rows: the first's text (unended), key and bytes,
 * how many, the times of the first and the last, the frame number of the
 * last. */
struct dec_xrun {
	struct sbuf	 held;
	struct sbuf	 bytes;
	struct dec_xkey	 key;
	const char	*mark;		/* why it never completed, or NULL */
	uint32_t	 n;		/* 0: none held */
	int64_t		 first_ts;
	int64_t		 last_ts;
	uint64_t	 last;
};

/* The tree: an endpoint's rows, kept until the end. */
struct dec_xgroup {
	uint16_t	 busnum;
	uint8_t		 devnum;
	uint8_t		 epnum;
	uint8_t		 xfer_type;
	int		 ids;		/* vid and pid are the device's */
	uint16_t	 vid;
	uint16_t	 pid;
	uint64_t	 urbs;
	struct dec_xrun	 run;
	struct sbuf	 out;
};

struct dec_xfer {
	int		 json;		/* rows as JSON objects */
	int		 tree;		/* grouped by device and endpoint,
					   written at the end (text only) */
	struct dec_xrun	 run;		/* the run held (not the tree) */
	struct dec_xgroup *groups;	/* the tree's endpoints */
	size_t		 ngroups;
	size_t		 capgroups;
	struct dec_xopen *open;		/* by record number */
	size_t		 nopen;
	size_t		 ndead;		/* of them ended (buf NULL) */
	size_t		 capopen;
	struct sbuf	 tmp;
	struct sbuf	 tmpbytes;
};

void		 dec_xfer_init(struct dec_xfer *x, int json, int tree);
/* An URB record read (info from dec_analyze); shown: the filter passed
 * it.  Bus packets ('P') are ignored. */
void		 dec_xfer_record(struct dec_xfer *x, struct dec_fmt *f,
		     const struct urb_rec *r, const struct dec_info *info,
		     int shown, struct sbuf *b);
void		 dec_xfer_flush(struct dec_xfer *x, struct sbuf *b);
/* The run held, then each submit still open, ", MARK" after its summary
 * (text) or "MARK":true (JSON, its spaces '_'). */
void		 dec_xfer_end(struct dec_xfer *x, const char *mark,
		     struct sbuf *b);
void		 dec_xfer_free(struct dec_xfer *x);
/*
 * The 64-bit fingerprint of what a row of URB end r holds beyond its
 * record header (address, type, status, length): the captured data and
 * isochronous frames, the asked length, the request (info may be NULL)
 * and sent, the dec_xfer_sent of its submit (0 when not captured).
 * Equal for the rows a run folds.
 */
uint64_t	 dec_xfer_fingerprint(const struct urb_rec *r,
		     const struct dec_info *info, uint64_t sent);
/* The hash of the data OUT submit s sends, 0 for none (an IN one). */
uint64_t	 dec_xfer_sent(const struct urb_rec *s);

/* The bytes of a DK_BYTES node, or NULL when they are not in r. */
const uint8_t	*dec_node_bytes(const struct urb_rec *r,
		     const struct dec_node *n);

#endif /* DECODE_H */
