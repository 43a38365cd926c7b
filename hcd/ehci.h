/*
 * hcd/ehci.h - private to the EHCI driver (ehci-*.c), shaped like Linux's
 * drivers/usb/host/ehci.h: register offsets and bits, the hardware data
 * structures the controller reads from DMA memory (qTD, QH, iTD), and the
 * driver's state, struct ehci_hcd, which follows struct usb_hcd.
 *
 * Citations are to the EHCI specification r1.0 (section numbers) and to
 * Linux's drivers/usb/host/ehci*.c and include/linux/usb/ehci_def.h.
 *
 * Hardware structures live in DMA memory and are read by the controller
 * as little-endian 32-bit words; the driver's own fields follow the
 * hardware part in the same block, as in Linux.
 */
#ifndef EHCI_H
#define EHCI_H

#include <stdint.h>

#include "core/hcd.h"

/* ------------------------------------------------------------------------
 * Byte order of the controller's view: little-endian (EHCI 3: "all data
 * structures are little endian").
 */
typedef uint32_t hc32;

static inline hc32
cpu_to_hc32(uint32_t v)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	return __builtin_bswap32(v);
#else
	return v;
#endif
}

static inline uint32_t
hc32_to_cpu(hc32 v)
{
	return cpu_to_hc32(v);
}

/* ------------------------------------------------------------------------
 * Capability registers (EHCI 2.2), from the MMIO base.
 */
#define EHCI_CAPLENGTH		0x00	/* 7:0 CAPLENGTH, 31:16 HCIVERSION */
#define HC_LENGTH(p)		((p) & 0xff)
#define HC_VERSION(p)		(((p) >> 16) & 0xffff)
#define EHCI_HCSPARAMS		0x04	/* EHCI 2.2.3 */
#define HCS_DEBUG_PORT(p)	(((p) >> 20) & 0xf)
#define HCS_INDICATOR(p)	((p) & (1 << 16))
#define HCS_N_CC(p)		(((p) >> 12) & 0xf)	/* companions */
#define HCS_N_PCC(p)		(((p) >> 8) & 0xf)	/* ports per CC */
#define HCS_PORTROUTED(p)	((p) & (1 << 7))
#define HCS_PPC(p)		((p) & (1 << 4))	/* port power ctl */
#define HCS_N_PORTS(p)		((p) & 0xf)
#define EHCI_HCCPARAMS		0x08	/* EHCI 2.2.4 */
#define HCC_EXT_CAPS(p)		(((p) >> 8) & 0xff)
#define HCC_ISOC_CACHE(p)	((p) & (1 << 7))
#define HCC_ISOC_THRES(p)	(((p) >> 4) & 0x7)
#define HCC_CANPARK(p)		((p) & (1 << 2))
#define HCC_PGM_FRAMELISTLEN(p)	((p) & (1 << 1))
#define HCC_64BIT_ADDR(p)	((p) & 1)

/* Operational registers (EHCI 2.3), from CAPLENGTH. */
#define EHCI_USBCMD		0x00	/* EHCI 2.3.1 */
#define CMD_PARK		(1 << 11)
#define CMD_PARK_CNT(c)		(((c) >> 8) & 3)
#define CMD_LRESET		(1 << 7)	/* light reset */
#define CMD_IAAD		(1 << 6)	/* "doorbell" */
#define CMD_ASE			(1 << 5)	/* async schedule enable */
#define CMD_PSE			(1 << 4)	/* periodic schedule enable */
#define CMD_RESET		(1 << 1)
#define CMD_RUN			(1 << 0)
#define CMD_ITC(uf)		((uint32_t)(uf) << 16)	/* irq threshold */
#define EHCI_USBSTS		0x04	/* EHCI 2.3.2 */
#define STS_ASS			(1 << 15)	/* async schedule status */
#define STS_PSS			(1 << 14)	/* periodic schedule status */
#define STS_RECL		(1 << 13)	/* reclamation */
#define STS_HALT		(1 << 12)
#define STS_IAA			(1 << 5)	/* async advance */
#define STS_FATAL		(1 << 4)	/* host system error */
#define STS_FLR			(1 << 3)	/* frame list rolled over */
#define STS_PCD			(1 << 2)	/* port change detect */
#define STS_ERR			(1 << 1)	/* "error" completion */
#define STS_INT			(1 << 0)	/* "normal" completion */
#define EHCI_USBINTR		0x08	/* EHCI 2.3.3 */
#define INTR_MASK		(STS_IAA | STS_FATAL | STS_PCD | STS_ERR | \
				 STS_INT)
#define EHCI_FRINDEX		0x0c	/* EHCI 2.3.4: 13:0, uframes */
#define EHCI_CTRLDSSEGMENT	0x10	/* EHCI 2.3.5 */
#define EHCI_PERIODICLISTBASE	0x14	/* EHCI 2.3.6: 4 KiB aligned */
#define EHCI_ASYNCLISTADDR	0x18	/* EHCI 2.3.7: 32-byte aligned */
#define EHCI_CONFIGFLAG		0x40	/* EHCI 2.3.8 */
#define FLAG_CF			(1 << 0)	/* ports routed to EHCI */
#define EHCI_PORTSC(n)		(0x44 + 4 * (n))	/* n from 0 */

/* PORTSC (EHCI 2.3.9; notes 6.3) */
#define PORT_WKOC_E		(1 << 22)
#define PORT_WKDISC_E		(1 << 21)
#define PORT_WKCONN_E		(1 << 20)
#define PORT_TEST(x)		(((x) & 0xf) << 16)
#define PORT_LED_MASK		(3 << 14)
#define PORT_OWNER		(1 << 13)	/* companion owns the port */
#define PORT_POWER		(1 << 12)
#define PORT_USB11(x)		(((x) & (3 << 10)) == (1 << 10)) /* K */
#define PORT_LINE(x)		(((x) >> 10) & 3)
#define PORT_RESET		(1 << 8)
#define PORT_SUSPEND		(1 << 7)
#define PORT_RESUME		(1 << 6)
#define PORT_OCC		(1 << 5)	/* over current change */
#define PORT_OC			(1 << 4)
#define PORT_PEC		(1 << 3)	/* port enable change */
#define PORT_PE			(1 << 2)
#define PORT_CSC		(1 << 1)	/* connect status change */
#define PORT_CONNECT		(1 << 0)
#define PORT_RWC_BITS		(PORT_CSC | PORT_PEC | PORT_OCC)

#define EHCI_MAX_PORTS		15

/* ------------------------------------------------------------------------
 * Link pointers (EHCI 3.1; notes 6.4): 31:5 address, 2:1 type, 0 T.
 */
#define EHCI_LIST_END		cpu_to_hc32(1)
#define Q_TYPE_ITD		(0 << 1)
#define Q_TYPE_QH		(1 << 1)
#define Q_TYPE_SITD		(2 << 1)
#define Q_TYPE_FSTN		(3 << 1)
#define Q_NEXT_TYPE(x)		(hc32_to_cpu(x) & (3 << 1))
#define QH_NEXT(dma)		cpu_to_hc32(((uint32_t)(dma) & ~0x1fu) | \
				    Q_TYPE_QH)
#define ITD_NEXT(dma)		cpu_to_hc32(((uint32_t)(dma) & ~0x1fu) | \
				    Q_TYPE_ITD)
#define QTD_NEXT(dma)		cpu_to_hc32((uint32_t)(dma))

/* ------------------------------------------------------------------------
 * Queue element transfer descriptor (EHCI 3.5; notes 6.5).  32-byte
 * aligned; the controller reads the first 32 bytes (52 with the 64-bit
 * buffer dwords of appendix B).
 */
struct ehci_qtd {
	hc32		 hw_next;	/* EHCI 3.5.1: next qTD, T bit 0 */
	hc32		 hw_alt_next;	/* EHCI 3.5.2: taken on a short IN */
	hc32		 hw_token;	/* EHCI 3.5.3 */
#define QTD_TOGGLE		(1u << 31)	/* data toggle */
#define QTD_LENGTH(tok)		(((tok) >> 16) & 0x7fff) /* bytes left */
#define QTD_IOC			(1u << 15)	/* interrupt on complete */
#define QTD_CPAGE(tok)		(((tok) >> 12) & 0x7)
#define QTD_CERR(tok)		(((tok) >> 10) & 0x3)	/* error counter */
#define QTD_PID(tok)		(((tok) >> 8) & 0x3)
#define PID_CODE_OUT		0
#define PID_CODE_IN		1
#define PID_CODE_SETUP		2
#define QTD_STS_ACTIVE		(1u << 7)
#define QTD_STS_HALT		(1u << 6)	/* halted on error */
#define QTD_STS_DBE		(1u << 5)	/* data buffer error */
#define QTD_STS_BABBLE		(1u << 4)	/* device was babbling */
#define QTD_STS_XACT		(1u << 3)	/* transaction error */
#define QTD_STS_MMF		(1u << 2)	/* missed micro-frame */
#define QTD_STS_STS		(1u << 1)	/* split transaction state */
#define QTD_STS_PING		(1u << 0)	/* issue PING? */
#define IS_SHORT_READ(tok)	(QTD_LENGTH(tok) != 0 && \
				    QTD_PID(tok) == PID_CODE_IN)
	hc32		 hw_buf[5];	/* EHCI 3.5.4: page, offset 11:0 */
	hc32		 hw_buf_hi[5];	/* appendix B: upper 32 bits */

	/* the driver's part */
	dma_addr_t	 qtd_dma;
	struct list_head qtd_list;	/* on the QH's (or a new URB's) list */
	struct urb	*urb;
	size_t		 length;	/* bytes this qTD was filled with */
} __attribute__((aligned(32)));

/* EHCI 3.5: one qTD moves at most 5 pages (20 KiB when page aligned). */
#define EHCI_QTD_MAX		(5 * 4096)

/* ------------------------------------------------------------------------
 * Queue head, the controller's part (EHCI 3.6; notes 6.6).  32-byte
 * aligned; the overlay area mirrors a qTD.
 */
struct ehci_qh_hw {
	hc32		 hw_next;	/* EHCI 3.6.1: horizontal link */
	hc32		 hw_info1;	/* EHCI 3.6.2: characteristics */
#define QH_CONTROL_EP		(1u << 27)	/* FS/LS control via TT */
#define QH_HEAD			(1u << 15)	/* head of reclamation list */
#define QH_TOGGLE_CTL		(1u << 14)	/* DTC: toggle from qTD */
#define QH_HIGH_SPEED		(2u << 12)	/* EPS */
#define QH_LOW_SPEED		(1u << 12)
#define QH_FULL_SPEED		(0u << 12)
#define QH_INACTIVATE		(1u << 7)
#define QH_RL(n)		((uint32_t)(n) << 28)	/* NAK reload */
#define QH_MAXP(n)		((uint32_t)(n) << 16)	/* 26:16 */
#define QH_MAXP_GET(i)		(((i) >> 16) & 0x7ff)
#define QH_ENDPT(n)		((uint32_t)(n) << 8)	/* 11:8 */
#define QH_ADDR_MASK		0x7fu			/* 6:0 */
	hc32		 hw_info2;	/* EHCI 3.6.2: endpoint capabilities */
#define QH_SMASK		0x000000ffu	/* uframe S-mask */
#define QH_CMASK		0x0000ff00u	/* uframe C-mask (split) */
#define QH_HUBADDR		0x007f0000u
#define QH_HUBPORT		0x3f800000u
#define QH_MULT(n)		((uint32_t)(n) << 30)	/* per uframe */
	hc32		 hw_current;	/* EHCI 3.6.3: qTD being processed */

	/* qTD overlay (EHCI 3.6.3) */
	hc32		 hw_qtd_next;
	hc32		 hw_alt_next;	/* 4:1 NakCnt */
	hc32		 hw_token;
	hc32		 hw_buf[5];
	hc32		 hw_buf_hi[5];
} __attribute__((aligned(32)));

/* qh->qh_state */
enum {
	QH_STATE_LINKED = 1,		/* in the schedule */
	QH_STATE_UNLINK,		/* unlinked, waiting for the HC */
	QH_STATE_IDLE,			/* not in any schedule */
	QH_STATE_UNLINK_WAIT,		/* queued for an IAA cycle */
	QH_STATE_COMPLETING,		/* qh_completions is running */
};

/* qh->unlink_reason */
#define QH_UNLINK_HALTED	0x01	/* halted on error */
#define QH_UNLINK_SHORT_READ	0x02	/* short read stopped it */
#define QH_UNLINK_DUMMY_OVERLAY	0x04	/* the HC overlaid the dummy */
#define QH_UNLINK_SHUTDOWN	0x08	/* the HC stopped */
#define QH_UNLINK_QUEUE_EMPTY	0x10	/* nothing left to do */
#define QH_UNLINK_REQUESTED	0x20	/* an URB was dequeued */

/* Software retries of transaction errors per qTD (notes 6.12). */
#define QH_XACTERR_MAX		32

/* Periodic scheduling of an endpoint (Linux struct ehci_per_sched). */
struct ehci_per_sched {
	struct usb_device *udev;
	unsigned	 period;	/* frames; 0 = every microframe */
	unsigned	 phase;		/* frame of the first slot */
	unsigned	 bw_uperiod;	/* uframes, <= EHCI_BANDWIDTH_SIZE */
	unsigned	 bw_phase;	/* uframe of the first slot */
	unsigned	 usecs;		/* bus time per transaction */
	uint8_t		 smask;
};

/* The driver's queue head: software state beside ehci_qh_hw. */
struct ehci_qh {
	struct ehci_qh_hw *hw;		/* in DMA memory */
	dma_addr_t	 qh_dma;
	union ehci_shadow {
		struct ehci_qh	*qh;
		struct ehci_itd	*itd;
		void		*ptr;
	}		 qh_next;	/* next QH in the async ring / periodic
					 * tree, as hw_next */
	struct list_head qtd_list;	/* qTDs of queued URBs, dummy last */
	struct list_head intr_node;	/* on ehci->intr_qh_list */
	struct list_head unlink_node;	/* on an unlink list */
	struct list_head all_node;	/* on ehci->qh_all */
	struct ehci_qtd	*dummy;		/* HCD-owned, inactive, at the end */
	struct usb_host_endpoint *ep;	/* NULL once endpoint_disable ran */
	struct ehci_per_sched ps;	/* periodic QHs */
	unsigned	 unlink_cycle;
	uint8_t		 qh_state;
	uint8_t		 xacterrs;	/* software retries of this qTD */
	uint8_t		 unlink_reason;
	uint8_t		 is_out;
	uint8_t		 is_intr;
	uint8_t		 dequeue_during_giveback;
	uint8_t		 should_be_inactive;
	uint8_t		 orphan;	/* endpoint gone: free when idle */
};

/* ------------------------------------------------------------------------
 * Isochronous transfer descriptor (EHCI 3.3; notes 6.9): high speed ISO,
 * one frame, eight microframe transactions.
 */
struct ehci_itd {
	hc32		 hw_next;		/* EHCI 3.3.1 */
	hc32		 hw_transaction[8];	/* EHCI 3.3.2 */
#define EHCI_ISOC_ACTIVE	(1u << 31)	/* activate transfer slot */
#define EHCI_ISOC_BUF_ERR	(1u << 30)	/* data buffer error */
#define EHCI_ISOC_BABBLE	(1u << 29)	/* babble detected */
#define EHCI_ISOC_XACTERR	(1u << 28)	/* XactErr */
#define EHCI_ITD_LENGTH(tok)	(((tok) >> 16) & 0x0fff)
#define EHCI_ITD_IOC		(1u << 15)	/* interrupt on complete */
#define EHCI_ITD_PG(n)		((uint32_t)(n) << 12)	/* page select */
#define ISO_ERRS		(EHCI_ISOC_BUF_ERR | EHCI_ISOC_BABBLE | \
				 EHCI_ISOC_XACTERR)
	hc32		 hw_bufp[7];		/* EHCI 3.3.3 */
	/* bufp[0] 11:8 endpoint, 6:0 device address; bufp[1] 11 direction
	 * (1 = IN), 10:0 max packet; bufp[2] 1:0 Mult */
#define ITD_BUF0(ep, addr)	(((uint32_t)(ep) << 8) | (addr))
#define ITD_BUF1(in, maxp)	(((in) ? 1u << 11 : 0) | (maxp))
#define ITD_BUF2(mult)		((uint32_t)(mult))
	hc32		 hw_bufp_hi[7];		/* appendix B */

	/* the driver's part */
	dma_addr_t	 itd_dma;
	union ehci_shadow itd_next;		/* as hw_next */
	struct urb	*urb;
	struct ehci_iso_stream *stream;
	struct list_head itd_list;		/* on stream->td_list */
	unsigned	 frame;			/* where it is scheduled */
	unsigned	 pg;			/* buffer page in use */
	int		 index[8];		/* iso packet per uframe, -1 */
} __attribute__((aligned(32)));

/* Per-endpoint state of a high speed ISO endpoint (ep->hcpriv). */
struct ehci_iso_stream {
	struct usb_host_endpoint *ep;
	struct list_head td_list;	/* queued iTDs, in time order */
	unsigned	 interval;	/* uframes, power of two */
	unsigned	 next_uframe;	/* where the next packet goes */
	int		 active;	/* next_uframe is valid */
	unsigned	 maxp;		/* bytes per transaction */
	uint32_t	 buf0, buf1, buf2;
	int		 is_in;
};

/* ------------------------------------------------------------------------
 * A DMA pool (ehci-mem.c): fixed-size blocks carved from pages of DMA
 * memory, none crossing a 4 KiB boundary; allocation and release are
 * O(1), so the hot path never reaches the general allocator.
 */
struct ehci_pool {
	struct dma_mem	*dma;
	size_t		 size;		/* block size, multiple of 32 */
	void		*free;		/* free blocks, linked through them */
	void		**pages;	/* what to give back */
	size_t		 npages, maxpages;
	size_t		 in_use;
};

/* ------------------------------------------------------------------------
 * Deferred driver work on the virtual clock (Linux's ehci-timer.c events).
 */
enum ehci_hrtimer_event {
	EHCI_HRTIMER_POLL_ASS,		/* poll for async schedule status */
	EHCI_HRTIMER_POLL_PSS,		/* poll for periodic schedule status */
	EHCI_HRTIMER_UNLINK_INTR,	/* wait for interrupt QH unlinks */
	EHCI_HRTIMER_ASYNC_UNLINKS,	/* unlink empty async QHs */
	EHCI_HRTIMER_IAA_WATCHDOG,	/* handle lost IAA interrupts */
	EHCI_HRTIMER_DISABLE_PERIODIC,	/* wait to turn off the schedule */
	EHCI_HRTIMER_DISABLE_ASYNC,	/* wait to turn off the schedule */
	EHCI_HRTIMER_IO_WATCHDOG,	/* ISO: scan without interrupts */
	EHCI_HRTIMER_NUM_EVENTS
};

struct ehci_hcd;

struct ehci_timer {
	struct sim_timer t;
	struct ehci_hcd	*ehci;
	int		 event;
};

/* ehci->rh_state */
enum {
	EHCI_RH_HALTED = 0,
	EHCI_RH_SUSPENDED,
	EHCI_RH_RUNNING,
	EHCI_RH_STOPPING,
};

#define EHCI_PERIODIC_SIZE	1024	/* frame list entries */
#define EHCI_BANDWIDTH_SIZE	64	/* uframes tracked for bandwidth */
#define EHCI_BANDWIDTH_FRAMES	(EHCI_BANDWIDTH_SIZE >> 3)
#define EHCI_UFRAME_USECS	100	/* 80% of 125 us: USB 2.0 5.7.4 */

/* The driver's state: hcd_priv of struct usb_hcd. */
struct ehci_hcd {
	struct usb_hcd	*hcd;
	uint32_t	 regs;		/* operational registers: CAPLENGTH */
	uint32_t	 hcs_params;
	uint32_t	 hcc_params;
	uint32_t	 command;	/* USBCMD as we want it */
	int		 rh_state;
	int		 scanning, need_rescan;

	struct ehci_pool qh_pool, qtd_pool, itd_pool;
	struct list_head qh_all;	/* every QH, for teardown */

	/* async schedule (EHCI 4.8) */
	struct ehci_qh	*async;		/* permanent dummy head, H = 1 */
	struct ehci_qh	*qh_scan_next;
	struct list_head async_unlink;	/* waiting for an IAA cycle */
	struct list_head async_iaa;	/* in the current IAA cycle */
	struct list_head async_idle;	/* done, to complete */
	unsigned	 async_unlink_cycle;
	unsigned	 async_count;	/* QHs linked, ASE wanted if > 0 */
	int		 iaa_in_progress;
	int		 async_unlinking;
	int		 ass_poll_count, pss_poll_count;

	/* periodic schedule (EHCI 4.6, 4.7) */
	hc32		*periodic;	/* the frame list, in DMA memory */
	dma_addr_t	 periodic_dma;
	unsigned	 periodic_size;
	union ehci_shadow *pshadow;	/* host-side mirror of the lists */
	struct list_head intr_qh_list;
	struct list_head intr_unlink;
	unsigned	 intr_unlink_cycle;
	int		 intr_unlinking;
	unsigned	 last_iso_frame;	/* scan_isoc resumes here */
	unsigned	 intr_count;	/* interrupt QHs linked */
	unsigned	 isoc_count;	/* iTDs linked */
	unsigned	 periodic_count;/* PSE wanted if > 0 */
	uint16_t	 bandwidth[EHCI_BANDWIDTH_SIZE];	/* usecs */

	/* root hub (ehci-hub.c) */
	uint64_t	 reset_done[EHCI_MAX_PORTS];	/* ns, 0 = none */

	/* deferred work */
	struct ehci_timer timer[EHCI_HRTIMER_NUM_EVENTS];
	unsigned	 enabled_events;

	/* counters, for tests and the curious */
	struct {
		unsigned long	 normal, error, iaa, lost_iaa;
		unsigned long	 complete, unlink;
	}		 stats;
};

static inline struct ehci_hcd *
hcd_to_ehci(struct usb_hcd *hcd)
{
	return hcd_priv(hcd);
}

static inline struct usb_hcd *
ehci_to_hcd(struct ehci_hcd *ehci)
{
	return ehci->hcd;
}

static inline uint32_t
ehci_readl(struct ehci_hcd *ehci, uint32_t off)
{
	return hcd_readl(ehci->hcd, ehci->regs + off);
}

static inline void
ehci_writel(struct ehci_hcd *ehci, uint32_t off, uint32_t val)
{
	hcd_writel(ehci->hcd, ehci->regs + off, val);
}

/* Data toggles the 2.6 way: udev->toggle[out] bit ep.  A clear bit tells
 * qh_update to restart the QH's toggle at DATA0 (usb_clear_halt). */
#define usb_gettoggle(dev, ep, out)	(((dev)->toggle[out] >> (ep)) & 1)
#define usb_settoggle(dev, ep, out, bit)				\
	((dev)->toggle[out] = ((dev)->toggle[out] & ~(1 << (ep))) |	\
	    ((bit) << (ep)))

/* ------------------------------------------------------------------------
 * Between the EHCI files.
 */
/* ehci-mem.c */
int		 ehci_pool_init(struct ehci_pool *p, struct dma_mem *dma,
		     size_t size);
void		 ehci_pool_destroy(struct ehci_pool *p);
void		*ehci_pool_alloc(struct ehci_pool *p, dma_addr_t *dma);
void		 ehci_pool_free(struct ehci_pool *p, void *v);
int		 ehci_mem_init(struct ehci_hcd *ehci);
void		 ehci_mem_cleanup(struct ehci_hcd *ehci);
struct ehci_qtd	*ehci_qtd_alloc(struct ehci_hcd *ehci);
void		 ehci_qtd_free(struct ehci_hcd *ehci, struct ehci_qtd *qtd);
void		 ehci_qtd_init(struct ehci_qtd *qtd, dma_addr_t dma);
struct ehci_qh	*ehci_qh_alloc(struct ehci_hcd *ehci);
void		 ehci_qh_free(struct ehci_hcd *ehci, struct ehci_qh *qh);
struct ehci_itd	*ehci_itd_alloc(struct ehci_hcd *ehci);
void		 ehci_itd_free(struct ehci_hcd *ehci, struct ehci_itd *itd);

/* ehci-hcd.c */
void		 ehci_log(struct ehci_hcd *ehci, const char *fmt, ...)
		     __attribute__((format(printf, 2, 3)));
void		 ehci_enable_event(struct ehci_hcd *ehci, int event,
		     int resched);
int		 ehci_handshake(struct ehci_hcd *ehci, uint32_t off,
		     uint32_t mask, uint32_t done, unsigned usec);
void		 ehci_set_command_bit(struct ehci_hcd *ehci, uint32_t bit);
void		 ehci_clear_command_bit(struct ehci_hcd *ehci, uint32_t bit);
void		 ehci_work(struct ehci_hcd *ehci);
uint64_t	 ehci_now(struct ehci_hcd *ehci);

/* ehci-q.c */
size_t		 ehci_qtd_fill(struct ehci_qtd *qtd, dma_addr_t buf,
		     size_t len, uint32_t token, unsigned maxpacket);
int		 ehci_qh_urb_transaction(struct ehci_hcd *ehci,
		     struct urb *urb, struct list_head *head);
void		 ehci_qtd_list_free(struct ehci_hcd *ehci,
		     struct list_head *head);
int		 ehci_qtd_copy_status(struct urb *urb, size_t length,
		     uint32_t token);
struct ehci_qh	*ehci_qh_make(struct ehci_hcd *ehci, struct urb *urb);
struct ehci_qh	*ehci_qh_append_tds(struct ehci_hcd *ehci, struct urb *urb,
		     struct list_head *qtd_list, void **ptr);
void		 ehci_qh_refresh(struct ehci_hcd *ehci, struct ehci_qh *qh);
unsigned	 ehci_qh_completions(struct ehci_hcd *ehci,
		     struct ehci_qh *qh);
void		 ehci_qh_destroy(struct ehci_hcd *ehci, struct ehci_qh *qh);
int		 ehci_submit_async(struct ehci_hcd *ehci, struct urb *urb,
		     struct list_head *qtd_list);
void		 ehci_start_unlink_async(struct ehci_hcd *ehci,
		     struct ehci_qh *qh);
void		 ehci_end_iaa_cycle(struct ehci_hcd *ehci);
void		 ehci_end_unlink_async(struct ehci_hcd *ehci);
void		 ehci_unlink_empty_async(struct ehci_hcd *ehci);
void		 ehci_scan_async(struct ehci_hcd *ehci);
void		 ehci_poll_ASS(struct ehci_hcd *ehci);
void		 ehci_iaa_watchdog(struct ehci_hcd *ehci);

/* ehci-sched.c */
int		 ehci_intr_submit(struct ehci_hcd *ehci, struct urb *urb,
		     struct list_head *qtd_list);
int		 ehci_itd_submit(struct ehci_hcd *ehci, struct urb *urb);
void		 ehci_start_unlink_intr(struct ehci_hcd *ehci,
		     struct ehci_qh *qh);
void		 ehci_end_unlink_intr_all(struct ehci_hcd *ehci);
void		 ehci_scan_intr(struct ehci_hcd *ehci);
void		 ehci_scan_isoc(struct ehci_hcd *ehci);
void		 ehci_poll_PSS(struct ehci_hcd *ehci);
void		 ehci_release_intr_bandwidth(struct ehci_hcd *ehci,
		     struct ehci_qh *qh);
void		 ehci_iso_stream_free(struct ehci_hcd *ehci,
		     struct ehci_iso_stream *stream);
void		 ehci_isoc_shutdown(struct ehci_hcd *ehci);

/* ehci-hub.c */
int		 ehci_hub_status_data(struct usb_hcd *hcd, char *buf);
int		 ehci_hub_control(struct usb_hcd *hcd, u16 typeReq, u16 wValue,
		     u16 wIndex, char *buf, u16 wLength);

/* The EHCI driver (hcd/ehci-hcd.c). */
extern const struct hc_driver ehci_hc_driver;

#endif /* EHCI_H */
