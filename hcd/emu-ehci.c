/*
 * hcd/emu-ehci.c - the emulated EHCI controller behind the EHCI driver.
 *
 * What a driver sees: capability, operational and port registers with
 * their reset values and side effects (EHCI 2.2, 2.3), an interrupt line
 * (USBSTS & USBINTR), and a controller that walks the periodic and async
 * schedules it finds in DMA memory once per microframe of the simulator's
 * clock, executing one USB transaction at a time against the device model
 * in the port whose address matches.  The walker follows QEMU's
 * hw/usb/hcd-ehci.c state machine (WAITLISTHEAD, FETCHQH, ADVANCEQUEUE,
 * FETCHQTD, EXECUTE, WRITEBACK, HORIZONTALQH) but moves data one packet at
 * a time, as the wire does: max packet size, data toggles, a bandwidth
 * budget per microframe, NAK counters, CERR countdown, short packets and
 * alternate next pointers (EHCI 3.5, 3.6, 4.9, 4.10).
 *
 * No state is cached across microframes: every pass re-reads the QHs and
 * qTDs, so a QH the driver unlinked is never touched after the IAA
 * doorbell of the next microframe.  High-speed devices only: no split
 * transactions (siTDs and FSTNs are skipped), no companion controllers
 * (PORTSC.PO stays 0), one 1024-entry frame list.
 */
#include <stdlib.h>
#include <string.h>

#include "hcd/emu-ehci.h"

/* ------------------------------------------------------------------------
 * Registers.  Offsets are from the start of the MMIO window.
 */

/* Capability registers, EHCI 2.2. */
#define CAP_BASE		0x00	/* EHCI 2.2.1, 2.2.3: length, version */
#define  CAP_LENGTH		0x20	/* operational registers follow */
#define  CAP_HCIVERSION		0x0100
#define CAP_HCSPARAMS		0x04	/* EHCI 2.2.4 */
#define  HCS_N_PORTS(n)		((uint32_t)(n) & 0xf)
#define  HCS_PPC		(1u << 4)	/* port power control */
#define CAP_HCCPARAMS		0x08	/* EHCI 2.2.5 */
#define  HCC_IST_FRAME		(1u << 7)	/* a whole frame is cached */
#define CAP_HCSP_PORTROUTE	0x0c	/* EHCI 2.2.6; no companions: 0 */

/* Operational registers, EHCI 2.3. */
#define OP(x)			(CAP_LENGTH + (x))
#define OP_USBCMD		OP(0x00)	/* EHCI 2.3.1 */
#define  CMD_RS			(1u << 0)	/* run/stop */
#define  CMD_HCRESET		(1u << 1)	/* self-clearing */
#define  CMD_PSE		(1u << 4)	/* periodic schedule enable */
#define  CMD_ASE		(1u << 5)	/* async schedule enable */
#define  CMD_IAAD		(1u << 6)	/* interrupt on async advance */
#define  CMD_ITC_MASK		(0xffu << 16)	/* interrupt threshold */
#define  CMD_ITC(c)		(((c) >> 16) & 0xff)
#define  CMD_RESET		0x00080000u	/* ITC 8, everything off */
/* Frame list size is fixed at 1024, no light reset, no park mode. */
#define  CMD_WRITABLE		(CMD_RS | CMD_PSE | CMD_ASE | CMD_IAAD | \
				 CMD_ITC_MASK)
#define OP_USBSTS		OP(0x04)	/* EHCI 2.3.2 */
#define  STS_INT		(1u << 0)	/* IOC or short packet */
#define  STS_ERR		(1u << 1)	/* transaction error */
#define  STS_PCD		(1u << 2)	/* port change detect */
#define  STS_FLR		(1u << 3)	/* frame list rollover */
#define  STS_HSE		(1u << 4)	/* host system error */
#define  STS_IAA		(1u << 5)	/* interrupt on async advance */
#define  STS_RWC		0x3fu
#define  STS_COALESCED		(STS_INT | STS_ERR)	/* wait for ITC */
#define  STS_HALT		(1u << 12)	/* HCHalted */
#define  STS_REC		(1u << 13)	/* reclamation */
#define  STS_PSS		(1u << 14)	/* periodic schedule status */
#define  STS_ASS		(1u << 15)	/* async schedule status */
#define OP_USBINTR		OP(0x08)	/* EHCI 2.3.3 */
#define  INTR_MASK		0x3fu
#define OP_FRINDEX		OP(0x0c)	/* EHCI 2.3.4 */
#define  FRINDEX_MASK		0x3fffu
#define OP_CTRLDSSEGMENT	OP(0x10)	/* EHCI 2.3.5; 32-bit only: 0 */
#define OP_PERIODICLISTBASE	OP(0x14)	/* EHCI 2.3.6 */
#define OP_ASYNCLISTADDR	OP(0x18)	/* EHCI 2.3.7 */
#define OP_CONFIGFLAG		OP(0x40)	/* EHCI 2.3.8 */
#define OP_PORTSC(n)		OP(0x44 + 4 * (n))	/* EHCI 2.3.9, n >= 0 */

/* PORTSC, EHCI 2.3.9. */
#define PORT_CCS		(1u << 0)	/* current connect status */
#define PORT_CSC		(1u << 1)	/* connect change, R/WC */
#define PORT_PE			(1u << 2)	/* enabled (SW: clear only) */
#define PORT_PEC		(1u << 3)	/* enable change, R/WC */
#define PORT_OCA		(1u << 4)	/* over-current active */
#define PORT_OCC		(1u << 5)	/* over-current change, R/WC */
#define PORT_FPR		(1u << 6)	/* force port resume */
#define PORT_SUSP		(1u << 7)	/* suspend */
#define PORT_PR			(1u << 8)	/* port reset */
#define PORT_LS_J		(2u << 10)	/* line status: J state */
#define PORT_PP			(1u << 12)	/* port power */
#define PORT_PO			(1u << 13)	/* owner: companion (never) */
#define PORT_PIC		(3u << 14)	/* indicator control */
#define PORT_PTC		(0xfu << 16)	/* test control */
#define PORT_WKCONN		(1u << 20)	/* wake on connect */
#define PORT_WKDISC		(1u << 21)	/* wake on disconnect */
#define PORT_WKOC		(1u << 22)	/* wake on over-current */
#define PORT_RWC		(PORT_CSC | PORT_PEC | PORT_OCC)
#define PORT_WRITABLE		(PORT_FPR | PORT_SUSP | PORT_PR | PORT_PP | \
				 PORT_PIC | PORT_PTC | PORT_WKCONN | \
				 PORT_WKDISC | PORT_WKOC)

/* ------------------------------------------------------------------------
 * Data structures in DMA memory, EHCI 3.
 */

/* Link pointers, EHCI 3.1 (frame list, QH horizontal, iTD next). */
#define LINK_T			(1u << 0)	/* terminate */
#define LINK_TYPE(l)		(((l) >> 1) & 3)
#define  TYPE_ITD		0
#define  TYPE_QH		1
#define  TYPE_SITD		2
#define  TYPE_FSTN		3
#define LINK_ADDR(l)		((l) & ~0x1fu)

/* Isochronous transfer descriptor (iTD), EHCI 3.3. */
#define ITD_NEXT		0x00	/* EHCI 3.3.1 */
#define ITD_XACT(n)		(0x04 + 4 * (n))	/* EHCI 3.3.2 */
#define  ITX_OFF(x)		((x) & 0xfff)
#define  ITX_PG(x)		(((x) >> 12) & 7)
#define  ITX_IOC		(1u << 15)
#define  ITX_LEN(x)		(((x) >> 16) & 0xfff)
#define  ITX_LEN_MASK		(0xfffu << 16)
#define  ITX_XACTERR		(1u << 28)
#define  ITX_BABBLE		(1u << 29)
#define  ITX_DBE		(1u << 30)
#define  ITX_ACTIVE		(1u << 31)
#define ITD_BUF(n)		(0x24 + 4 * (n))	/* EHCI 3.3.3 */
#define  ITB_ADDR(b0)		((b0) & 0x7f)
#define  ITB_EP(b0)		(((b0) >> 8) & 0xf)
#define  ITB_MAXP(b1)		((b1) & 0x7ff)
#define  ITB_IN			(1u << 11)	/* in buffer pointer 1 */
#define  ITB_MULT(b2)		((b2) & 3)
#define ITD_SIZE		0x40

/* Queue element transfer descriptor (qTD), EHCI 3.5. */
#define QTD_NEXT		0x00	/* EHCI 3.5.1 */
#define QTD_ALTNEXT		0x04	/* EHCI 3.5.2 */
#define QTD_TOKEN		0x08	/* EHCI 3.5.3 */
#define  TOK_PING		(1u << 0)	/* HS OUT: do PING */
#define  TOK_XACT		(1u << 3)	/* transaction error */
#define  TOK_BABBLE		(1u << 4)
#define  TOK_DBE		(1u << 5)	/* data buffer error */
#define  TOK_HALTED		(1u << 6)
#define  TOK_ACTIVE		(1u << 7)
#define  TOK_PID(t)		(((t) >> 8) & 3)
#define   PID_OUT		0
#define   PID_IN		1
#define   PID_SETUP		2
#define  TOK_CERR(t)		(((t) >> 10) & 3)
#define  TOK_CERR_MASK		(3u << 10)
#define  TOK_CPAGE(t)		(((t) >> 12) & 7)
#define  TOK_CPAGE_MASK		(7u << 12)
#define  TOK_IOC		(1u << 15)
#define  TOK_BYTES(t)		(((t) >> 16) & 0x7fff)
#define  TOK_BYTES_MASK		(0x7fffu << 16)
#define  TOK_DT			(1u << 31)	/* data toggle */
#define QTD_BUF(n)		(0x0c + 4 * (n))	/* EHCI 3.5.4 */
#define  BUF_OFF(b)		((b) & 0xfff)	/* current offset, ptr 0 */
#define  BUF_PAGE(b)		((b) & ~0xfffu)
#define QTD_SIZE		0x20

/* Queue head, EHCI 3.6. */
#define QH_LINK			0x00	/* EHCI 3.6.1 horizontal link */
#define QH_INFO1		0x04	/* EHCI 3.6.2 characteristics */
#define  QH_ADDR(i)		((i) & 0x7f)
#define  QH_EP(i)		(((i) >> 8) & 0xf)
#define  QH_DTC			(1u << 14)	/* toggle from the qTD */
#define  QH_HEAD		(1u << 15)	/* H: head of reclamation */
#define  QH_MAXP(i)		(((i) >> 16) & 0x7ff)
#define  QH_RL(i)		((i) >> 28)	/* NAK count reload */
#define QH_INFO2		0x08	/* EHCI 3.6.2 capabilities */
#define  QH_SMASK(i)		((i) & 0xff)
#define  QH_MULT(i)		((i) >> 30)
#define QH_CUR			0x0c	/* EHCI 3.6.3 current qTD */
#define QH_OV			0x10	/* EHCI 3.6.3 overlay: a qTD's layout */
#define  OV_NAKCNT(a)		(((a) >> 1) & 0xf)	/* in QTD_ALTNEXT */
#define  OV_NAKCNT_MASK		(0xfu << 1)
#define  OV_CPROG_MASK		0xffu		/* in QTD_BUF(1) */
#define  OV_FTAG_MASK		0xfffu		/* in QTD_BUF(2): S-bytes */
#define QH_SIZE			0x30

/* ------------------------------------------------------------------------
 * Timing: one microframe of bus time, USB 2.0 5.8.4 table 5-10: 60000
 * bits, and 55 bytes of protocol overhead per high-speed bulk
 * transaction, so at most 13 packets of 512 bytes fit.
 */
#define UFRAME_BYTES		7500
#define XACT_OVERHEAD		55
#define MAX_PACKET		1024	/* the largest the walker moves */
#define MAX_VISITS		4096	/* QH visits per async pass */
#define MAX_WALK		256	/* periodic elements per microframe */
#define PERIODIC_LINGER		8192	/* uframes: a full frame list */
#define PEEK_FRAMES		32	/* frames busy() looks ahead */

struct emu_port {
	uint32_t	 portsc;
	struct usb_devmodel *dm;	/* plugged in, or NULL */
};

struct emu_ehci {
	struct sim	*sim;
	struct dma_mem	*dma;
	int		 nports;

	uint32_t	 usbcmd;
	uint32_t	 usbsts;
	uint32_t	 usbintr;
	uint32_t	 frindex;
	uint32_t	 periodic;	/* PERIODICLISTBASE */
	uint32_t	 async;		/* ASYNCLISTADDR */
	uint32_t	 configflag;
	struct emu_port	 port[EMU_EHCI_PORTS];

	uint32_t	 sts_pending;	/* INT/ERR waiting for ITC */
	uint64_t	 next_commit;	/* uframe they may be committed */
	uint64_t	 uframes;	/* microframes clocked */
	uint64_t	 last_ms;	/* last device tick */
	int		 budget;	/* bus bytes left this microframe */
	int		 async_work;	/* last pass saw active qTDs */
	int		 nak_reload;	/* reload NakCnt in the next pass */
	uint64_t	 periodic_seen;	/* uframe active periodic work seen */

	void		 (*xlog)(void *, const struct emu_xact *);
	void		*xlog_arg;
	uint8_t		 xbuf[3 * MAX_PACKET];	/* bounce buffer */
};

/* What a QH visit did. */
enum {
	V_IDLE,			/* nothing to execute */
	V_DONE,			/* executed a transaction */
	V_NOBUDGET,		/* the microframe is full */
};

/* ------------------------------------------------------------------------
 * Interrupts.
 */

/* Set status bits: INT and ERR wait for the ITC, the others are at once. */
static void
ehci_raise(struct emu_ehci *e, uint32_t bits)
{
	e->sts_pending |= bits & STS_COALESCED;
	e->usbsts |= bits & ~STS_COALESCED;
}

/* Commit coalesced status no more often than every ITC microframes. */
static void
ehci_commit_irq(struct emu_ehci *e)
{
	uint32_t	 itc;

	if (e->sts_pending == 0 || e->uframes < e->next_commit)
		return;
	itc = CMD_ITC(e->usbcmd);
	e->usbsts |= e->sts_pending;
	e->sts_pending = 0;
	e->next_commit = e->uframes + (itc == 0 ? 1 : itc);
}

/* A DMA access fell outside memory: the controller stops (EHCI 4.15.2.4). */
static void
ehci_host_error(struct emu_ehci *e)
{
	e->usbsts |= STS_HSE | STS_HALT;
	e->usbcmd &= ~CMD_RS;
}

/* ------------------------------------------------------------------------
 * Ports.
 */

static int
port_present(const struct emu_port *p)
{
	return p->dm != NULL && !p->dm->gone;
}

/* The port's device went away (unplugged or a DISCONNECT fault). */
static void
port_disconnect(struct emu_ehci *e, struct emu_port *p)
{
	if (!(p->portsc & PORT_CCS))
		return;
	p->portsc &= ~(PORT_CCS | PORT_PE | PORT_SUSP | PORT_FPR);
	p->portsc |= PORT_CSC;
	ehci_raise(e, STS_PCD);
}

/* A device appears on a powered port: connect change. */
static void
port_connect(struct emu_ehci *e, struct emu_port *p)
{
	if (!(p->portsc & PORT_PP) || !port_present(p) ||
	    (p->portsc & PORT_CCS))
		return;
	dm_bus_reset(p->dm);		/* it just powered up */
	p->portsc |= PORT_CCS | PORT_CSC;
	ehci_raise(e, STS_PCD);
}

/* Line status (EHCI 2.3.9 bits 11:10): J while connected and disabled. */
static uint32_t
port_read(const struct emu_port *p)
{
	uint32_t	 v = p->portsc;

	if ((v & (PORT_CCS | PORT_PE)) == PORT_CCS)
		v |= PORT_LS_J;
	return v;
}

static void
port_write(struct emu_ehci *e, struct emu_port *p, uint32_t val)
{
	uint32_t	 old = p->portsc, v;

	v = old & ~(val & PORT_RWC);
	if (!(val & PORT_PE))
		v &= ~PORT_PE;		/* software may only clear PE */
	v = (v & ~PORT_WRITABLE) | (val & PORT_WRITABLE);
	v |= old & PORT_SUSP;		/* only resume ends suspend */
	if (!(v & PORT_PP))
		v &= ~(PORT_PR | PORT_SUSP | PORT_FPR);
	p->portsc = v;

	if ((old ^ v) & PORT_PP) {
		if (v & PORT_PP)
			port_connect(e, p);
		else
			p->portsc &= ~(PORT_CCS | PORT_PE | PORT_SUSP |
			    PORT_PR);
		return;
	}
	if (!(v & PORT_PP))
		return;
	if ((v & PORT_PR) && !(old & PORT_PR))
		p->portsc &= ~(PORT_PE | PORT_SUSP);	/* reset begins */
	if (!(v & PORT_PR) && (old & PORT_PR) && (v & PORT_CCS)) {
		/*
		 * End of reset: the device is reset and, high speed, the
		 * port is enabled.  The EHCI finishes at once (software
		 * may poll PR for up to 2 ms).  No PEC: reset completion
		 * is reported by software (EHCI 2.3.9).
		 */
		dm_bus_reset(p->dm);
		p->portsc |= PORT_PE;
	}
	/* Resume: the falling edge of FPR ends suspend. */
	if (!(v & PORT_FPR) && (old & PORT_FPR))
		p->portsc &= ~PORT_SUSP;
}

/* The enabled port whose device answers to addr, or NULL. */
static struct emu_port *
port_of_addr(struct emu_ehci *e, int addr)
{
	struct emu_port	*p;
	int		 i;

	for (i = 0; i < e->nports; i++) {
		p = &e->port[i];
		if ((p->portsc & (PORT_CCS | PORT_PE | PORT_SUSP)) ==
		    (PORT_CCS | PORT_PE) && p->dm->address == addr)
			return p;
	}
	return NULL;
}

/* Once per microframe: device ticks each millisecond, vanished devices. */
static void
ports_clock(struct emu_ehci *e)
{
	struct emu_port	*p;
	uint64_t	 ms = e->sim->now_ns / SIM_MS;
	int		 i, tick = ms != e->last_ms;

	e->last_ms = ms;
	for (i = 0; i < e->nports; i++) {
		p = &e->port[i];
		if (p->dm == NULL)
			continue;
		if (p->dm->gone) {
			port_disconnect(e, p);
			continue;
		}
		if (tick && (p->portsc & PORT_CCS))
			dm_tick(p->dm, e->sim->now_ns);
	}
}

/* ------------------------------------------------------------------------
 * Reset and registers.
 */

static void
ehci_reset(struct emu_ehci *e)
{
	int	 i;

	e->usbcmd = CMD_RESET;
	e->usbsts = STS_HALT;
	e->usbintr = 0;
	e->frindex = 0;
	e->periodic = 0;
	e->async = 0;
	e->configflag = 0;
	e->sts_pending = 0;
	e->next_commit = 0;
	e->async_work = 0;
	e->nak_reload = 0;
	/* PPC: ports come up unpowered (EHCI 2.3.9 default 0x2000 less PO,
	 * there being no companion). */
	for (i = 0; i < e->nports; i++)
		e->port[i].portsc = 0;
}

static void
ehci_write_cmd(struct emu_ehci *e, uint32_t val)
{
	if (val & CMD_HCRESET) {
		ehci_reset(e);
		return;
	}
	e->usbcmd = val & CMD_WRITABLE;
	if ((val & CMD_PSE) && !(e->usbsts & STS_PSS))
		e->periodic_seen = e->uframes - PERIODIC_LINGER;
	if (val & CMD_RS)
		e->usbsts &= ~STS_HALT;
	else
		e->usbsts |= STS_HALT;
	/* The schedule status follows its enable bit (EHCI 2.3.2). */
	e->usbsts &= ~(STS_PSS | STS_ASS);
	if (val & CMD_PSE)
		e->usbsts |= STS_PSS;
	if (val & CMD_ASE)
		e->usbsts |= STS_ASS;
}

static uint32_t
ehci_readl(void *hw, uint32_t off)
{
	struct emu_ehci	*e = hw;
	uint32_t	 n;

	switch (off) {
	case CAP_BASE:
		return CAP_LENGTH | (uint32_t)CAP_HCIVERSION << 16;
	case CAP_HCSPARAMS:
		return HCS_N_PORTS(e->nports) | HCS_PPC;
	case CAP_HCCPARAMS:
		return HCC_IST_FRAME;
	case OP_USBCMD:
		return e->usbcmd;
	case OP_USBSTS:
		return e->usbsts;
	case OP_USBINTR:
		return e->usbintr;
	case OP_FRINDEX:
		return e->frindex;
	case OP_PERIODICLISTBASE:
		return e->periodic;
	case OP_ASYNCLISTADDR:
		return e->async;
	case OP_CONFIGFLAG:
		return e->configflag;
	}
	if (off >= OP_PORTSC(0) && (off & 3) == 0) {
		n = (off - OP_PORTSC(0)) / 4;
		if (n < (uint32_t)e->nports)
			return port_read(&e->port[n]);
	}
	return 0;
}

static void
ehci_writel(void *hw, uint32_t off, uint32_t val)
{
	struct emu_ehci	*e = hw;
	uint32_t	 n;

	switch (off) {
	case OP_USBCMD:
		ehci_write_cmd(e, val);
		return;
	case OP_USBSTS:
		e->usbsts &= ~(val & STS_RWC);
		return;
	case OP_USBINTR:
		e->usbintr = val & INTR_MASK;
		return;
	case OP_FRINDEX:
		/* Writable only while halted (EHCI 2.3.4). */
		if (e->usbsts & STS_HALT)
			e->frindex = val & FRINDEX_MASK;
		return;
	case OP_PERIODICLISTBASE:
		e->periodic = val & ~0xfffu;
		return;
	case OP_ASYNCLISTADDR:
		e->async = LINK_ADDR(val);
		return;
	case OP_CONFIGFLAG:
		e->configflag = val & 1;
		return;
	}
	if (off >= OP_PORTSC(0) && (off & 3) == 0) {
		n = (off - OP_PORTSC(0)) / 4;
		if (n < (uint32_t)e->nports)
			port_write(e, &e->port[n], val);
	}
}

const struct hcd_mmio_ops emu_ehci_mmio = {
	.readl = ehci_readl,
	.writel = ehci_writel,
};

/* ------------------------------------------------------------------------
 * Transactions.
 */

/* One transaction on the bus, logged; a vanished device is a disconnect. */
static int
bus_xact(struct emu_ehci *e, int pid, int addr, int ep, int dt,
    uint8_t *buf, size_t len)
{
	struct emu_port	*p;
	struct emu_xact	 x;
	int		 r;

	if ((p = port_of_addr(e, addr)) == NULL)
		r = DM_XACTERR;		/* nobody answers */
	else {
		r = dm_transact(p->dm, pid, addr, ep, buf, len);
		if (p->dm->gone)
			port_disconnect(e, p);
	}
	if (e->xlog != NULL) {
		x.ts_ns = e->sim->now_ns;
		x.pid = (uint8_t)pid;
		x.addr = (uint8_t)addr;
		x.ep = (uint8_t)ep;
		x.data_pid = 0;
		if (pid != DM_PID_IN || r >= 0)
			x.data_pid = dt ? 0x4b : 0xc3;
		x.result = r;
		x.len = (uint16_t)len;
		x.data = buf;
		e->xlog(e->xlog_arg, &x);
	}
	return r;
}

/* Retire the overlay's qTD: write token and buffer pointer 0 back
 * (EHCI 4.10.5) and raise what it asks for. */
static void
qh_retire(struct emu_ehci *e, uint8_t *qh, uint32_t tok, uint32_t sts)
{
	uint8_t		*ov = qh + QH_OV, *qtd;

	tok &= ~TOK_ACTIVE;
	put_le32(ov + QTD_TOKEN, tok);
	qtd = dma_to_virt(e->dma, get_le32(qh + QH_CUR), QTD_SIZE);
	if (qtd == NULL) {
		ehci_host_error(e);
		return;
	}
	put_le32(qtd + QTD_TOKEN, tok);
	put_le32(qtd + QTD_BUF(0), get_le32(ov + QTD_BUF(0)));
	if (tok & TOK_IOC)
		sts |= STS_INT;
	ehci_raise(e, sts);
}

/*
 * Execute one transaction of the QH's overlay (EHCI 4.10.3, 4.10.4) and
 * update it: bytes, current page and offset, toggle, CERR, status bits;
 * retire the qTD when it is done or halted.
 */
static int
qh_execute(struct emu_ehci *e, uint8_t *qh, uint32_t info1, int periodic)
{
	static const int pids[] = { DM_PID_OUT, DM_PID_IN, DM_PID_SETUP };
	uint8_t		*ov = qh + QH_OV, *buf, *p1 = NULL, *p2 = NULL;
	uint32_t	 tok = get_le32(ov + QTD_TOKEN), buf0, off, cpage;
	uint32_t	 total = TOK_BYTES(tok), maxp = QH_MAXP(info1);
	uint32_t	 len, s1, room, cost, n, cerr;
	int		 pid, r, in;

	if (TOK_PID(tok) > PID_SETUP || (maxp == 0 && total != 0)) {
		qh_retire(e, qh, tok | TOK_HALTED | TOK_XACT, STS_ERR);
		return V_DONE;
	}
	pid = pids[TOK_PID(tok)];
	in = pid == DM_PID_IN;
	if (maxp > MAX_PACKET)
		maxp = MAX_PACKET;
	len = total < maxp ? total : maxp;
	cost = XACT_OVERHEAD + len;
	if (!periodic && (int)cost > e->budget)
		return V_NOBUDGET;
	e->budget -= (int)cost;

	/* The packet's bytes: at most two pages of the five (EHCI 3.5.4). */
	buf0 = get_le32(ov + QTD_BUF(0));
	off = BUF_OFF(buf0);
	cpage = TOK_CPAGE(tok);
	s1 = len;
	if (len > 0) {
		if (cpage > 4)
			goto buffer_error;
		s1 = 4096 - off < len ? 4096 - off : len;
		p1 = dma_to_virt(e->dma,
		    BUF_PAGE(get_le32(ov + QTD_BUF(cpage))) + off, s1);
		if (s1 < len) {
			if (cpage == 4)
				goto buffer_error;
			p2 = dma_to_virt(e->dma,
			    BUF_PAGE(get_le32(ov + QTD_BUF(cpage + 1))),
			    len - s1);
		}
		if (p1 == NULL || (s1 < len && p2 == NULL)) {
			ehci_host_error(e);
			return V_DONE;
		}
	}

	/* IN offers a whole max packet: more than asked for is babble. */
	room = in ? maxp : len;
	if (s1 == len && len == room && p1 != NULL)
		buf = p1;		/* straight into DMA memory */
	else {
		buf = e->xbuf;
		if (!in && len > 0) {
			memcpy(buf, p1, s1);
			if (s1 < len)
				memcpy(buf + s1, p2, len - s1);
		}
	}
	r = bus_xact(e, pid, QH_ADDR(info1), QH_EP(info1),
	    (tok & TOK_DT) != 0, buf, room);

	if (r >= 0 && (!in || (uint32_t)r <= total)) {
		n = in ? (uint32_t)r : len;
		if (in && buf != p1 && n > 0) {
			memcpy(p1, buf, n < s1 ? n : s1);
			if (n > s1)
				memcpy(p2, buf + s1, n - s1);
		}
		if (in)
			e->budget += (int)(len - n);
		total -= n;
		off += n;
		cpage += off >> 12;
		off &= 0xfff;
		tok = (tok & ~(TOK_BYTES_MASK | TOK_CPAGE_MASK)) ^ TOK_DT;
		tok |= total << 16 | (cpage & 7) << 12;
		put_le32(ov + QTD_BUF(0), BUF_PAGE(buf0) | off);
		if (total == 0 || (in && n < maxp)) {
			/* Done, or a short packet (EHCI 4.10.3: USBINT). */
			qh_retire(e, qh, tok, total != 0 ? STS_INT : 0);
			return V_DONE;
		}
		put_le32(ov + QTD_TOKEN, tok);
		return V_DONE;
	}
	if (in)
		e->budget += (int)len;
	if (r == DM_NAK) {
		/* Retry later; the async walker counts NAKs (EHCI 4.9). */
		if (!periodic && QH_RL(info1) != 0) {
			n = get_le32(ov + QTD_ALTNEXT);
			if (OV_NAKCNT(n) > 0)
				n -= 1u << 1;
			put_le32(ov + QTD_ALTNEXT, n);
		}
		return V_DONE;
	}
	if (r == DM_STALL) {
		/* Halted with CERR left: a STALL (EHCI 4.15.1.1.3). */
		qh_retire(e, qh, tok | TOK_HALTED, STS_ERR);
		return V_DONE;
	}
	if (r == DM_BABBLE || r >= 0) {
		/* More data than the qTD has room for (EHCI 4.15.1.1.4). */
		qh_retire(e, qh, tok | TOK_HALTED | TOK_BABBLE, STS_ERR);
		return V_DONE;
	}
	/* No response: count down CERR, halt at 0 (EHCI 4.15.1.1.1). */
	tok |= TOK_XACT;
	cerr = TOK_CERR(tok);
	if (cerr > 0) {
		cerr--;
		tok = (tok & ~TOK_CERR_MASK) | cerr << 10;
		if (cerr == 0) {
			qh_retire(e, qh, tok | TOK_HALTED, STS_ERR);
			return V_DONE;
		}
	}
	put_le32(ov + QTD_TOKEN, tok);
	return V_DONE;

buffer_error:
	qh_retire(e, qh, tok | TOK_HALTED | TOK_DBE, STS_ERR);
	return V_DONE;
}

/*
 * Load the next qTD into an idle QH's overlay (EHCI 4.10.2): the
 * alternate next one after a short packet, else the next one.  Returns 0
 * when an active qTD was loaded.
 */
static int
qh_advance(struct emu_ehci *e, uint8_t *qh, uint32_t info1, uint32_t tok)
{
	uint8_t		*ov = qh + QH_OV, *qtd;
	uint32_t	 alt = get_le32(ov + QTD_ALTNEXT);
	uint32_t	 next = get_le32(ov + QTD_NEXT), a, qtok, dt;

	if (TOK_BYTES(tok) != 0 && !(alt & LINK_T))
		a = LINK_ADDR(alt);
	else if (!(next & LINK_T))
		a = LINK_ADDR(next);
	else
		return -1;
	if ((qtd = dma_to_virt(e->dma, a, QTD_SIZE)) == NULL) {
		ehci_host_error(e);
		return -1;
	}
	qtok = get_le32(qtd + QTD_TOKEN);
	if (!(qtok & TOK_ACTIVE))
		return -1;
	/* The toggle stays in the QH unless DTC; the ping state stays. */
	dt = (info1 & QH_DTC) ? qtok & TOK_DT : tok & TOK_DT;
	put_le32(qh + QH_CUR, a);
	put_le32(ov + QTD_NEXT, get_le32(qtd + QTD_NEXT));
	put_le32(ov + QTD_ALTNEXT, (get_le32(qtd + QTD_ALTNEXT) &
	    ~OV_NAKCNT_MASK) | QH_RL(info1) << 1);
	put_le32(ov + QTD_TOKEN, (qtok & ~(TOK_DT | TOK_PING)) | dt |
	    (tok & TOK_PING));
	put_le32(ov + QTD_BUF(0), get_le32(qtd + QTD_BUF(0)));
	put_le32(ov + QTD_BUF(1), get_le32(qtd + QTD_BUF(1)) &
	    ~OV_CPROG_MASK);
	put_le32(ov + QTD_BUF(2), get_le32(qtd + QTD_BUF(2)) &
	    ~OV_FTAG_MASK);
	put_le32(ov + QTD_BUF(3), get_le32(qtd + QTD_BUF(3)));
	put_le32(ov + QTD_BUF(4), get_le32(qtd + QTD_BUF(4)));
	return 0;
}

/* Does the QH have an active qTD (in the overlay or next in line)? */
static int
qh_has_work(struct emu_ehci *e, const uint8_t *qh)
{
	const uint8_t	*ov = qh + QH_OV, *qtd;
	uint32_t	 tok = get_le32(ov + QTD_TOKEN), a;
	uint32_t	 alt = get_le32(ov + QTD_ALTNEXT);

	if (tok & TOK_HALTED)
		return 0;
	if (tok & TOK_ACTIVE)
		return 1;
	if (TOK_BYTES(tok) != 0 && !(alt & LINK_T))
		a = alt;
	else
		a = get_le32(ov + QTD_NEXT);
	if (a & LINK_T)
		return 0;
	qtd = dma_to_virt(e->dma, LINK_ADDR(a), QTD_SIZE);
	return qtd != NULL && (get_le32(qtd + QTD_TOKEN) & TOK_ACTIVE);
}

/*
 * Visit one QH: FETCHQH, ADVANCEQUEUE / FETCHQTD, EXECUTE, WRITEBACK.
 * One transaction per visit (Mult for periodic QHs is the caller's).
 */
static int
qh_visit(struct emu_ehci *e, uint8_t *qh, int periodic, int reload)
{
	uint8_t		*ov = qh + QH_OV;
	uint32_t	 info1 = get_le32(qh + QH_INFO1);
	uint32_t	 tok = get_le32(ov + QTD_TOKEN), alt;

	if (tok & TOK_HALTED)
		return V_IDLE;
	if (!(tok & TOK_ACTIVE)) {
		if (qh_advance(e, qh, info1, tok) != 0)
			return V_IDLE;
	} else if (!periodic && QH_RL(info1) != 0 && reload) {
		alt = get_le32(ov + QTD_ALTNEXT) & ~OV_NAKCNT_MASK;
		put_le32(ov + QTD_ALTNEXT, alt | QH_RL(info1) << 1);
	}
	if (periodic)
		e->periodic_seen = e->uframes;
	else {
		e->async_work = 1;
		/* NakCnt ran out: skip until it is reloaded (EHCI 4.9). */
		if (QH_RL(info1) != 0 &&
		    OV_NAKCNT(get_le32(ov + QTD_ALTNEXT)) == 0)
			return V_IDLE;
	}
	return qh_execute(e, qh, info1, periodic);
}

/* ------------------------------------------------------------------------
 * The async schedule (EHCI 4.8, 4.10).
 */

/* WAITLISTHEAD: the QH with H set, from ASYNCLISTADDR; 0 on error. */
static uint32_t
async_head(struct emu_ehci *e)
{
	uint8_t		*qh;
	uint32_t	 a = e->async, link;
	int		 i;

	for (i = 0; i < MAX_WALK; i++) {
		if ((qh = dma_to_virt(e->dma, a, QH_SIZE)) == NULL) {
			ehci_host_error(e);
			return 0;
		}
		if (get_le32(qh + QH_INFO1) & QH_HEAD)
			return a;
		link = get_le32(qh + QH_LINK);
		if ((link & LINK_T) || LINK_TYPE(link) != TYPE_QH)
			break;
		a = LINK_ADDR(link);
		if (a == e->async)
			break;
	}
	return e->async;	/* no head: treat the start as one */
}

/*
 * One microframe of the async schedule: laps around the ring from the
 * head, one transaction per QH per visit, until a lap executes nothing
 * (the H-bit reclamation rule) or the bus time is used up.
 */
static void
async_pass(struct emu_ehci *e)
{
	uint8_t		*qh;
	uint32_t	 head, a, link;
	int		 visits, rec = 1, started = 0, reload, v;

	if ((head = async_head(e)) == 0)
		return;
	reload = e->nak_reload;
	e->nak_reload = 0;
	e->async_work = 0;
	a = head;
	for (visits = 0; visits < MAX_VISITS; visits++) {
		if (a == head) {
			if (started) {
				if (!rec) {
					/* An empty lap: NakCnt reloads. */
					e->nak_reload = 1;
					break;
				}
				reload = 0;
			}
			started = 1;
			rec = 0;
		}
		if ((qh = dma_to_virt(e->dma, a, QH_SIZE)) == NULL) {
			ehci_host_error(e);
			break;
		}
		v = qh_visit(e, qh, 0, reload);
		if (v == V_NOBUDGET || !(e->usbcmd & CMD_RS)) {
			e->async_work = 1;
			break;
		}
		if (v == V_DONE)
			rec = 1;
		link = get_le32(qh + QH_LINK);
		if ((link & LINK_T) || LINK_TYPE(link) != TYPE_QH)
			a = head;	/* a broken ring ends the lap */
		else
			a = LINK_ADDR(link);
	}
	e->usbsts = (e->usbsts & ~STS_REC) | (rec ? STS_REC : 0);
}

/* Is there anything for the async schedule?  One lap, nothing executed. */
static int
async_peek(struct emu_ehci *e)
{
	uint8_t		*qh;
	uint32_t	 head, a, link;
	int		 i;

	if (e->async == 0)
		return 0;
	head = a = e->async;
	for (i = 0; i < MAX_WALK; i++) {
		if ((qh = dma_to_virt(e->dma, a, QH_SIZE)) == NULL)
			return 1;	/* let uframe() report the error */
		if (qh_has_work(e, qh))
			return 1;
		link = get_le32(qh + QH_LINK);
		if ((link & LINK_T) || LINK_TYPE(link) != TYPE_QH)
			return 0;
		if ((a = LINK_ADDR(link)) == head)
			return 0;
	}
	return 0;
}

/* ------------------------------------------------------------------------
 * The periodic schedule (EHCI 4.6, 4.7, 4.12).
 */

/* The microframe's slot of a high-speed isochronous iTD (EHCI 4.7.1). */
static void
itd_execute(struct emu_ehci *e, uint8_t *itd, int uf)
{
	uint32_t	 x = get_le32(itd + ITD_XACT(uf));
	uint32_t	 b0 = get_le32(itd + ITD_BUF(0));
	uint32_t	 b1 = get_le32(itd + ITD_BUF(1));
	uint32_t	 b2 = get_le32(itd + ITD_BUF(2));
	uint32_t	 maxp = ITB_MAXP(b1), mult = ITB_MULT(b2);
	uint32_t	 len = ITX_LEN(x), done = 0, n, pg, a, s1;
	uint8_t		*p1, *p2 = NULL;
	int		 in = (b1 & ITB_IN) != 0, r, i;

	if (!(x & ITX_ACTIVE))
		return;
	e->periodic_seen = e->uframes;
	x &= ~(ITX_DBE | ITX_BABBLE | ITX_XACTERR);
	pg = ITX_PG(x);
	if (maxp > MAX_PACKET)
		maxp = MAX_PACKET;
	if (mult == 0 || len > maxp * mult || pg > 6) {
		x |= ITX_XACTERR;
		goto out;
	}
	/* The slot's buffer, possibly crossing into the next page. */
	a = BUF_PAGE(get_le32(itd + ITD_BUF(pg))) + ITX_OFF(x);
	s1 = 4096 - ITX_OFF(x) < len ? 4096 - ITX_OFF(x) : len;
	p1 = dma_to_virt(e->dma, a, s1);
	if (s1 < len && (pg == 6 || (p2 = dma_to_virt(e->dma,
	    BUF_PAGE(get_le32(itd + ITD_BUF(pg + 1))), len - s1)) == NULL)) {
		x |= ITX_DBE;
		goto out;
	}
	if (p1 == NULL) {
		ehci_host_error(e);
		return;
	}
	if (!in) {
		memcpy(e->xbuf, p1, s1);
		if (s1 < len)
			memcpy(e->xbuf + s1, p2, len - s1);
	}
	/* Up to Mult packets; isochronous has no handshake and no retry. */
	for (i = 0; i < (int)mult && (done < len || (len == 0 && i == 0));
	    i++) {
		n = len - done < maxp ? len - done : maxp;
		e->budget -= (int)(XACT_OVERHEAD + n);
		r = bus_xact(e, in ? DM_PID_IN : DM_PID_OUT, ITB_ADDR(b0),
		    ITB_EP(b0), 0, e->xbuf + done, in ? maxp : n);
		if (in && r == DM_NAK)
			r = 0;		/* no data: a zero-length packet */
		if (r == DM_BABBLE || (in && r >= 0 && (uint32_t)r > n)) {
			x |= ITX_BABBLE;
			break;
		}
		if (r < 0) {
			x |= ITX_XACTERR;
			break;
		}
		if (in) {
			done += (uint32_t)r;
			if ((uint32_t)r < maxp)
				break;
		} else
			done += n;
	}
	if (in) {
		memcpy(p1, e->xbuf, done < s1 ? done : s1);
		if (done > s1)
			memcpy(p2, e->xbuf + s1, done - s1);
		x = (x & ~ITX_LEN_MASK) | done << 16;
	}
out:
	x &= ~ITX_ACTIVE;
	put_le32(itd + ITD_XACT(uf), x);
	if (x & ITX_IOC)
		ehci_raise(e, STS_INT);
	if (x & (ITX_DBE | ITX_BABBLE | ITX_XACTERR))
		ehci_raise(e, STS_ERR);
}

/* Walk this microframe's frame list entry: iTDs, then interrupt QHs. */
static void
periodic_pass(struct emu_ehci *e)
{
	uint8_t		*p;
	uint32_t	 link, mult;
	int		 uf = (int)(e->frindex & 7), i, n;

	link = dma_read32(e->dma, e->periodic + ((e->frindex & 0x1ff8) >> 1));
	for (n = 0; n < MAX_WALK && !(link & LINK_T); n++) {
		p = dma_to_virt(e->dma, LINK_ADDR(link),
		    LINK_TYPE(link) == TYPE_ITD ? ITD_SIZE : QH_SIZE);
		if (p == NULL) {
			ehci_host_error(e);
			return;
		}
		switch (LINK_TYPE(link)) {
		case TYPE_ITD:
			itd_execute(e, p, uf);
			break;
		case TYPE_QH:
			if (!(QH_SMASK(get_le32(p + QH_INFO2)) & (1u << uf)))
				break;
			/* High-bandwidth: up to Mult packets (EHCI 4.12.3). */
			mult = QH_MULT(get_le32(p + QH_INFO2));
			for (i = 0; i < (int)(mult == 0 ? 1 : mult); i++) {
				if (qh_visit(e, p, 1, 0) != V_DONE ||
				    !(get_le32(p + QH_OV + QTD_TOKEN) &
				    TOK_ACTIVE))
					break;
			}
			break;
		default:
			/* siTD, FSTN: full/low speed, not emulated. */
			break;
		}
		if (!(e->usbcmd & CMD_RS))
			return;
		link = get_le32(p);	/* next link is dword 0 of each */
	}
}

/* Anything active in the next frames' periodic lists? */
static int
periodic_peek(struct emu_ehci *e)
{
	const uint8_t	*p;
	uint32_t	 link, fr, x;
	int		 f, n, i;

	fr = (e->frindex >> 3) & 0x3ff;
	for (f = 0; f < PEEK_FRAMES; f++) {
		link = dma_read32(e->dma, e->periodic +
		    4 * ((fr + (uint32_t)f) & 0x3ff));
		for (n = 0; n < MAX_WALK / 8 && !(link & LINK_T); n++) {
			if ((p = dma_to_virt(e->dma, LINK_ADDR(link),
			    QH_SIZE)) == NULL)
				return 1;
			if (LINK_TYPE(link) == TYPE_QH &&
			    QH_SMASK(get_le32(p + QH_INFO2)) != 0 &&
			    qh_has_work(e, p))
				return 1;
			if (LINK_TYPE(link) == TYPE_ITD &&
			    dma_to_virt(e->dma, LINK_ADDR(link), ITD_SIZE)) {
				for (i = 0; i < 8; i++) {
					x = get_le32(p + ITD_XACT(i));
					if (x & ITX_ACTIVE)
						return 1;
				}
			}
			link = get_le32(p);
		}
	}
	return 0;
}

/* ------------------------------------------------------------------------
 * The simulator's view: clock, busy, interrupt line.
 */

static void
ehci_uframe(void *hw)
{
	struct emu_ehci	*e = hw;

	e->uframes++;
	ports_clock(e);
	if (e->usbcmd & CMD_RS) {
		e->budget = UFRAME_BYTES;
		if ((e->usbcmd & CMD_PSE) && e->periodic != 0)
			periodic_pass(e);
		if ((e->usbcmd & (CMD_ASE | CMD_RS)) == (CMD_ASE | CMD_RS) &&
		    e->async != 0)
			async_pass(e);
		/* Doorbell: the async schedule has advanced (EHCI 4.8.2). */
		if (e->usbcmd & CMD_IAAD) {
			e->usbcmd &= ~CMD_IAAD;
			ehci_raise(e, STS_IAA);
		}
		if (e->usbcmd & CMD_RS) {
			e->frindex = (e->frindex + 1) & FRINDEX_MASK;
			if ((e->frindex & 0x1fff) == 0)
				ehci_raise(e, STS_FLR);
		}
	}
	ehci_commit_irq(e);
}

static int
ehci_busy(void *hw)
{
	struct emu_ehci	*e = hw;

	if (e->sts_pending != 0)
		return 1;
	if (!(e->usbcmd & CMD_RS))
		return 0;
	if (e->usbcmd & CMD_IAAD)
		return 1;
	if ((e->usbcmd & CMD_ASE) && (e->async_work || async_peek(e)))
		return 1;
	if ((e->usbcmd & CMD_PSE) && e->periodic != 0 &&
	    (e->uframes - e->periodic_seen < PERIODIC_LINGER ||
	    periodic_peek(e)))
		return 1;
	return 0;
}

static int
ehci_irq_pending(void *hw)
{
	struct emu_ehci	*e = hw;

	return (e->usbsts & e->usbintr & INTR_MASK) != 0;
}

const struct sim_hw_ops emu_ehci_hw = {
	.name = "emu-ehci",
	.uframe = ehci_uframe,
	.busy = ehci_busy,
	.irq_pending = ehci_irq_pending,
};

/* ------------------------------------------------------------------------
 * Life cycle and plugging.
 */

struct emu_ehci *
emu_ehci_new(struct sim *sim, struct dma_mem *dma, int nports)
{
	struct emu_ehci	*e;

	if (nports < 1 || nports > EMU_EHCI_PORTS)
		return NULL;
	if ((e = calloc(1, sizeof *e)) == NULL)
		return NULL;
	e->sim = sim;
	e->dma = dma;
	e->nports = nports;
	e->last_ms = sim->now_ns / SIM_MS;
	e->periodic_seen = e->uframes - PERIODIC_LINGER;
	ehci_reset(e);
	return e;
}

void
emu_ehci_free(struct emu_ehci *e)
{
	int	 i;

	if (e == NULL)
		return;
	for (i = 0; i < e->nports; i++)
		dm_destroy(e->port[i].dm);
	free(e);
}

int
emu_ehci_attach(struct emu_ehci *e, int port, struct usb_devmodel *dm)
{
	struct emu_port	*p;

	if (port < 1 || port > e->nports || dm == NULL)
		return -EINVAL;
	p = &e->port[port - 1];
	if (p->dm != NULL)
		return -EBUSY;
	p->dm = dm;
	dm->gone = 0;
	port_connect(e, p);
	return 0;
}

struct usb_devmodel *
emu_ehci_detach(struct emu_ehci *e, int port)
{
	struct emu_port	*p;
	struct usb_devmodel *dm;

	if (port < 1 || port > e->nports)
		return NULL;
	p = &e->port[port - 1];
	dm = p->dm;
	port_disconnect(e, p);
	p->dm = NULL;
	return dm;
}

struct usb_devmodel *
emu_ehci_port_device(struct emu_ehci *e, int port)
{
	if (port < 1 || port > e->nports)
		return NULL;
	return e->port[port - 1].dm;
}

void
emu_ehci_set_xact_log(struct emu_ehci *e,
    void (*fn)(void *, const struct emu_xact *), void *arg)
{
	e->xlog = fn;
	e->xlog_arg = arg;
}
