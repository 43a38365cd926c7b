/*
 * decode/stats.h - statistics of a capture (decode/dec-stats.c): what a
 * driver developer asks of it every day, per device and endpoint (URBs,
 * bytes each way, throughput, errors by status, latency percentiles and
 * histogram, activity over time), tshark's tables (-z conv,usb,
 * -z endpoints,usb, -z io,stat), the classes the traffic belongs to, a
 * summary of every mass storage LUN (commands, blocks and bytes read and
 * written, LBA ranges, failures, sense keys) and the driver events; as
 * text, JSON and SVG charts.
 *
 * The caller feeds the records and events the analysis (dec_analyze) has
 * seen, in capture order; nothing is read back from the source.  Memory:
 * a few words a completion (the latencies and the activity, which need
 * the whole capture for percentiles and for bins that span it).
 */
#ifndef DECODE_STATS_H
#define DECODE_STATS_H

#include "decode.h"

/* A completion's time and its bytes, for the activity over time. */
struct dec_stats_pt {
	int64_t		 ts_ns;
	uint32_t	 bytes;
};

#define DEC_STATS_NSTATUS	8	/* error statuses kept by name */

/* One endpoint of one device, one direction (control: both). */
struct dec_stats_ep {
	uint16_t	 busnum;
	uint8_t		 devnum;
	uint8_t		 epnum;		/* bit 7 IN; control: 0 */
	uint8_t		 xfer;		/* XFER_* of its first record */
	int16_t		 intf;		/* owning interface, -1 unknown */
	int16_t		 cls;		/* its class, -1 unknown */
	uint64_t	 submits;
	uint64_t	 completions;
	uint64_t	 submit_errors;	/* 'E' records */
	uint64_t	 bytes_in;	/* transferred: completions' length */
	uint64_t	 bytes_out;
	uint64_t	 failed;	/* completions urb_failed() says */
	uint64_t	 cancelled;	/* -ENOENT, -ECONNRESET */
	uint64_t	 iso_frames;
	uint64_t	 iso_frame_errors;
	struct {
		int32_t	 status;
		uint64_t n;
	}		 st[DEC_STATS_NSTATUS];
	size_t		 nst;
	uint64_t	 st_other;	/* errors beyond the table */
	int64_t		 first_ns;	/* DEC_TS_BAD: no good time yet */
	int64_t		 last_ns;
	int64_t		*lat;		/* paired completions' latencies */
	size_t		 nlat;
	size_t		 latcap;
	struct dec_stats_pt *pts;	/* completions with a good time */
	size_t		 npts;
	size_t		 ptcap;
	uint64_t	 sub_len;	/* frame.len of its submits (host to
					   it, tshark's usb.dst) */
	uint64_t	 end_len;	/* of its completions and submit
					   errors (to the host) */
	int		 sorted;	/* lat is sorted */
	uint32_t	 seq;		/* first seen: its index as added */
	uint32_t	 next;		/* hash chain: index + 1, 0 = end */
};

/* tshark's USB address (usb.src, usb.dst: bus.device.endpoint number):
 * the endpoints of that number, both ways, summed when printed. */
struct dec_stats_addr {
	uint16_t	 busnum;
	uint8_t		 devnum;
	uint8_t		 ep;		/* without the direction bit */
	uint64_t	 tx_frames;	/* from this address to the host */
	uint64_t	 tx_bytes;	/* frame.len */
	uint64_t	 rx_frames;	/* from the host to it */
	uint64_t	 rx_bytes;
	int64_t		 first_ns;
	int64_t		 last_ns;
	uint32_t	 seq;		/* its first endpoint's */
};

/* A frame of tshark's io,stat: its time and frame.len. */
struct dec_stats_frame {
	int64_t		 ts_ns;
	uint32_t	 len;
};

/* Records and bytes of one class (or kind of control request). */
struct dec_stats_cls {
	char		 name[64];
	uint64_t	 records;
	uint64_t	 bytes;		/* captured payload */
};

/* Reads or writes of a mass storage LUN. */
struct dec_stats_rw {
	uint64_t	 commands;
	uint64_t	 blocks;	/* as the CDBs ask */
	uint64_t	 bytes;		/* moved: dCBWDataTransferLength less
					   dCSWDataResidue, when a CSW came */
	uint64_t	 lba_min;
	uint64_t	 lba_max;	/* last block touched */
};

/* A mass storage (bulk-only) LUN: its commands (CBWs) and statuses. */
struct dec_stats_msc {
	uint16_t	 busnum;
	uint8_t		 devnum;
	uint8_t		 lun;
	uint64_t	 commands;
	uint64_t	 statuses;	/* CSWs that ended one */
	uint64_t	 failed;	/* bCSWStatus 1 */
	uint64_t	 phase_errors;	/* bCSWStatus 2 */
	uint64_t	 ops[256];	/* by operation code */
	struct dec_stats_rw rd;
	struct dec_stats_rw wr;
	uint64_t	 sense[16];	/* REQUEST SENSE answers by key */
};

#define DEC_STATS_NMSC		16
#define DEC_STATS_NCLS		40
#define DEC_STATS_NRULES	32
#define DEC_STATS_HASH		1024

struct dec_stats {
	struct dec_stats_ep *eps;
	size_t		 neps;
	size_t		 epcap;
	uint32_t	 ephash[DEC_STATS_HASH];
	struct dec_stats_frame *frames;
	size_t		 nframes;
	size_t		 framecap;
	struct dec_stats_msc msc[DEC_STATS_NMSC];
	size_t		 nmsc;
	struct dec_stats_cls cls[DEC_STATS_NCLS];
	size_t		 ncls;
	uint64_t	 records;	/* URB records */
	uint64_t	 packets;	/* wire-level packets ('P') */
	uint64_t	 submits;
	uint64_t	 completions;
	uint64_t	 submit_errors;
	uint64_t	 failed;
	uint64_t	 cancelled;
	uint64_t	 iso_frame_errors;
	uint64_t	 unpaired;	/* completions without their submit */
	uint64_t	 events;	/* driver events */
	uint64_t	 kinds[32];	/* events by enum drv_kind */
	uint64_t	 bus_events;	/* a sniffer's (DRV_BUS), apart */
	uint64_t	 bus_kinds[32];	/* ... by enum bus_ev */
	struct {
		char	 id[40];
		uint64_t n;
	}		 rules[DEC_STATS_NRULES];
	size_t		 nrules;
	int64_t		 t0;		/* first and last good time of */
	int64_t		 t1;		/* the file's frames */
	int		 oom;		/* something was not counted */
};

void	 dec_stats_init(struct dec_stats *s);
void	 dec_stats_free(struct dec_stats *s);
/* An URB record, its analysis, and its frame.len (0: unknown). */
void	 dec_stats_add(struct dec_stats *s, const struct urb_rec *r,
	     const struct dec_info *info, uint32_t frame_len);
void	 dec_stats_event(struct dec_stats *s, const struct drv_event *ev);
/* A frame of the file that is not counted (a packet the source skipped,
 * a record the filter hides): times still run from the file's first
 * frame to its last, as tshark's (io,stat's intervals, the duration). */
void	 dec_stats_time(struct dec_stats *s, int64_t ts_ns);

/* What to print: the report's sections, or tshark's tables (-z). */
#define DS_OVERVIEW	0x01	/* totals */
#define DS_ENDPOINTS	0x02	/* per endpoint: URBs, bytes, latency */
#define DS_LATENCY	0x04	/* histograms */
#define DS_ERRORS	0x08
#define DS_CLASSES	0x10
#define DS_EVENTS	0x20
#define DS_MSC		0x40	/* mass storage LUNs */
#define DS_REPORT	0x7f	/* all of the above */
#define DS_CONV		0x100	/* -z conv,usb */
#define DS_ADDRS	0x200	/* -z endpoints,usb */
#define DS_IO		0x400	/* -z io,stat,INTERVAL */

struct dec_stats_opts {
	unsigned	 what;		/* DS_* */
	int64_t		 io_ns;		/* io,stat interval; 0: 1 s */
	int		 utf8;		/* block characters, else ASCII */
	int		 bins;		/* activity columns; 0: 32 */
};

/*
 * The io,stat intervals of s at interval io_ns (0: 1 s) from the first
 * frame to the last: 0 without frames.  More than DEC_STATS_IO_MAX (a
 * table of 100,000 rows already outgrows any reading, and each row costs
 * 16 bytes) is refused by the printers.
 */
#define DEC_STATS_IO_MAX	100000
uint64_t dec_stats_io_count(const struct dec_stats *s, int64_t io_ns);

/* Latency percentile p (0..100, nearest rank) of e, or -1 without any. */
int64_t	 dec_stats_pct(struct dec_stats_ep *e, int p);
/* e's name as tshark's addresses and -Y usb.src spell it: "1.3.2". */
void	 dec_stats_ep_name(const struct dec_stats_ep *e, char *buf,
	     size_t len);

void	 dec_stats_text(struct dec_stats *s, const struct dec_stats_opts *o,
	     struct sbuf *b);
void	 dec_stats_json(struct dec_stats *s, const struct dec_stats_opts *o,
	     struct sbuf *b);
/* Throughput over time and the latency histogram of every endpoint, a
 * panel each, as one SVG document. */
void	 dec_stats_svg(struct dec_stats *s, const struct dec_stats_opts *o,
	     struct sbuf *b);

#endif /* DECODE_STATS_H */
