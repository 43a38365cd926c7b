/*
 * tests/unit/test-emu-ehci.c - hcd/emu-ehci.c seen from the driver's side:
 * only register reads and writes, QHs and qTDs written into DMA memory as
 * a driver would, and the microframe clock.  Registers: reset values,
 * R/WC bits, HCRESET, HCHalted against RS, PORTSC power/reset/enable and
 * connect changes, FRINDEX and frame list rollover, the IAA doorbell.
 * Transfers through the async schedule against the real device models: a
 * control transfer with its toggles, bulk across page boundaries with the
 * toggle in the QH and the bandwidth per microframe, a short read taking
 * the alternate next qTD, STALL, babble, transaction errors counting CERR
 * down, NAK retries throttled by the NAK counter, IOC with ITC coalescing,
 * a device vanishing mid-transfer; the periodic schedule: an interrupt QH
 * polled in its S-mask microframe, an iTD slot.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "hcd/emu-ehci.h"
#include "samples/samples.h"

/* Register offsets from the MMIO base (CAPLENGTH 0x20). */
#define R_CAPBASE	0x00
#define R_HCSPARAMS	0x04
#define R_HCCPARAMS	0x08
#define R_USBCMD	0x20
#define R_USBSTS	0x24
#define R_USBINTR	0x28
#define R_FRINDEX	0x2c
#define R_PERIODIC	0x34
#define R_ASYNC		0x38
#define R_CONFIGFLAG	0x60
#define R_PORTSC(n)	(0x64 + 4 * ((n) - 1))

#define CMD_RS		0x01
#define CMD_HCRESET	0x02
#define CMD_PSE		0x10
#define CMD_ASE		0x20
#define CMD_IAAD	0x40
#define STS_INT		0x01
#define STS_ERR		0x02
#define STS_PCD		0x04
#define STS_FLR		0x08
#define STS_IAA		0x20
#define STS_HALT	0x1000
#define STS_PSS		0x4000
#define STS_ASS		0x8000
#define PORT_CCS	0x001
#define PORT_CSC	0x002
#define PORT_PE		0x004
#define PORT_PEC	0x008
#define PORT_PR		0x100
#define PORT_PP		0x1000

#define T_ACTIVE	0x80u
#define T_HALTED	0x40u
#define T_BABBLE	0x10u
#define T_XACT		0x08u
#define T_IOC		0x8000u
#define T_DT		0x80000000u
#define T_BYTES(t)	(((t) >> 16) & 0x7fff)
#define T_CERR(t)	(((t) >> 10) & 3)
#define PID_OUT		0
#define PID_IN		1
#define PID_SETUP	2

#define MAXLOG		8192

struct fx {
	struct sim	*sim;
	struct dma_mem	*dma;
	struct emu_ehci	*e;
	struct usb_devmodel *dm[EMU_EHCI_PORTS + 1];
	uint32_t	 head;		/* the dummy head QH */
	uint8_t		*headp;
	int		 nlog;
	struct emu_xact	 log[MAXLOG];
	uint32_t	 logfr[MAXLOG];	/* FRINDEX when it happened */
};

struct tqh {
	uint32_t	 dma;
	uint8_t		*p;
};

struct tqtd {
	uint32_t	 dma;
	uint8_t		*p;
};

static uint32_t
rd(struct fx *f, uint32_t off)
{
	return emu_ehci_mmio.readl(f->e, off);
}

static void
wr(struct fx *f, uint32_t off, uint32_t v)
{
	emu_ehci_mmio.writel(f->e, off, v);
}

static void
xlog(void *arg, const struct emu_xact *x)
{
	struct fx	*f = arg;

	if (f->nlog < MAXLOG) {
		f->logfr[f->nlog] = rd(f, R_FRINDEX);
		f->log[f->nlog++] = *x;
	}
}

/* Clock n microframes, as the simulator does. */
static void
step(struct fx *f, int n)
{
	while (n-- > 0) {
		f->sim->now_ns += SIM_UFRAME_NS;
		emu_ehci_hw.uframe(f->e);
	}
}

static int
setup(void **state)
{
	struct fx	*f = calloc(1, sizeof *f);

	assert_non_null(f);
	f->sim = sim_new(0, NULL);
	f->dma = dma_mem_new(4 * 1024 * 1024);
	f->e = emu_ehci_new(f->sim, f->dma, 4);
	assert_non_null(f->sim);
	assert_non_null(f->dma);
	assert_non_null(f->e);
	emu_ehci_set_xact_log(f->e, xlog, f);
	*state = f;
	return 0;
}

static int
teardown(void **state)
{
	struct fx	*f = *state;

	emu_ehci_free(f->e);	/* destroys the models still plugged */
	dma_mem_free(f->dma);
	sim_free(f->sim);
	free(f);
	return 0;
}

/* ------------------------------------------------------------------------
 * Building schedules, as a driver does.
 */

static struct tqh
mk_qh(struct fx *f, int addr, int ep, int maxp, int dtc, int rl)
{
	struct tqh	 q;

	q.p = dma_alloc(f->dma, 48, 32, &q.dma);
	assert_non_null(q.p);
	put_le32(q.p + 0x00, 1);			/* T */
	put_le32(q.p + 0x04, (uint32_t)addr | (uint32_t)ep << 8 |
	    2u << 12 | (dtc ? 1u << 14 : 0) | (uint32_t)maxp << 16 |
	    (uint32_t)rl << 28);
	put_le32(q.p + 0x08, 1u << 30);			/* Mult 1 */
	put_le32(q.p + 0x10, 1);			/* overlay next: T */
	put_le32(q.p + 0x14, 1);			/* alt next: T */
	return q;
}

/* Start the controller with an async ring of one dummy head QH. */
static void
start(struct fx *f)
{
	struct tqh	 h = mk_qh(f, 0, 0, 64, 0, 0);

	f->head = h.dma;
	f->headp = h.p;
	put_le32(h.p + 0x00, h.dma | 2);		/* itself, Typ QH */
	put_le32(h.p + 0x04, get_le32(h.p + 0x04) | 1u << 15);	/* H */
	put_le32(h.p + 0x18, T_HALTED);
	wr(f, R_ASYNC, h.dma);
	wr(f, R_CONFIGFLAG, 1);
	wr(f, R_USBCMD, 0x00010000 | CMD_RS | CMD_ASE);	/* ITC 1 */
}

/* Splice a QH right after the head (as Linux's qh_link_async). */
static void
link_qh(struct fx *f, struct tqh q)
{
	put_le32(q.p, get_le32(f->headp));
	put_le32(f->headp, q.dma | 2);
}

static struct tqtd
mk_qtd(struct fx *f, int pid, int dt, uint32_t buf, uint32_t len, int ioc)
{
	struct tqtd	 t;
	int		 i;

	t.p = dma_alloc(f->dma, 32, 32, &t.dma);
	assert_non_null(t.p);
	put_le32(t.p + 0x00, 1);
	put_le32(t.p + 0x04, 1);
	put_le32(t.p + 0x08, T_ACTIVE | 3u << 10 | (uint32_t)pid << 8 |
	    len << 16 | (ioc ? T_IOC : 0) | (dt ? T_DT : 0));
	put_le32(t.p + 0x0c, buf);
	for (i = 1; i < 5; i++)
		put_le32(t.p + 0x0c + 4 * i, (buf & ~0xfffu) + 4096u * i);
	return t;
}

static void
chain(struct tqtd a, struct tqtd b)
{
	put_le32(a.p, b.dma);
}

static void
alt(struct tqtd a, struct tqtd b)
{
	put_le32(a.p + 4, b.dma);
}

/* Point an idle QH's overlay at its first qTD (Linux qh_update). */
static void
qh_start(struct tqh q, struct tqtd first)
{
	put_le32(q.p + 0x10, first.dma);
	put_le32(q.p + 0x14, 1);
	put_le32(q.p + 0x18, get_le32(q.p + 0x18) & T_DT);
}

static uint32_t
tok(struct tqtd t)
{
	return get_le32(t.p + 8);
}

/* Run until the qTD is no longer active; returns the microframes. */
static int
run_until_done(struct fx *f, struct tqtd t, int max)
{
	int	 n;

	for (n = 0; n < max && (tok(t) & T_ACTIVE); n++)
		step(f, 1);
	assert_false(tok(t) & T_ACTIVE);
	return n;
}

/* Run until the qTD is done or its QH halted. */
static void
run_qh(struct fx *f, struct tqh q, struct tqtd t, int max)
{
	int	 n;

	for (n = 0; n < max && (tok(t) & T_ACTIVE) &&
	    !(get_le32(q.p + 0x18) & T_HALTED); n++)
		step(f, 1);
}

/* Plug a model into a port, power it, reset it: an enabled port. */
static struct usb_devmodel *
plug(struct fx *f, int port, const char *model, const char *args)
{
	struct usb_devmodel *dm = dm_create(model, args);

	assert_non_null(dm);
	assert_int_equal(emu_ehci_attach(f->e, port, dm), 0);
	wr(f, R_PORTSC(port), PORT_PP);
	wr(f, R_PORTSC(port), PORT_PP | PORT_PR | PORT_CSC);
	wr(f, R_PORTSC(port), PORT_PP);
	assert_int_equal(rd(f, R_PORTSC(port)) & (PORT_CCS | PORT_PE |
	    PORT_CSC), PORT_CCS | PORT_PE);
	wr(f, R_USBSTS, STS_PCD);
	f->dm[port] = dm;
	return dm;
}

/* DMA memory for a buffer, page aligned; the host pointer in *p. */
static uint32_t
mk_buf(struct fx *f, size_t len, uint8_t **p)
{
	uint32_t	 d;

	*p = dma_alloc(f->dma, len, 4096, &d);
	assert_non_null(*p);
	return d;
}

/*
 * A control transfer through the qh (DTC): SETUP, one data qTD, status
 * with IOC.  Returns the data qTD's token; the status token in *stok, all
 * three (SETUP, data, status) in toks[] unless NULL.
 */
static uint32_t
control3(struct fx *f, struct tqh q, uint8_t rt, uint8_t req,
    uint16_t val, uint16_t idx, uint16_t len, uint8_t *data,
    uint32_t *stok, uint32_t *toks)
{
	struct tqtd	 s, d, st;
	uint8_t		*sp, *dp;
	uint32_t	 sdma, ddma, t;
	int		 in = (rt & 0x80) != 0;

	sdma = mk_buf(f, 8, &sp);
	ddma = mk_buf(f, len > 0 ? len : 1, &dp);
	sp[0] = rt;
	sp[1] = req;
	put_le16(sp + 2, val);
	put_le16(sp + 4, idx);
	put_le16(sp + 6, len);
	if (!in && len > 0)
		memcpy(dp, data, len);
	s = mk_qtd(f, PID_SETUP, 0, sdma, 8, 0);
	if (len > 0) {
		d = mk_qtd(f, in ? PID_IN : PID_OUT, 1, ddma, len, 0);
		st = mk_qtd(f, in ? PID_OUT : PID_IN, 1, 0, 0, 1);
		chain(s, d);
		chain(d, st);
	} else {
		d = s;
		st = mk_qtd(f, PID_IN, 1, 0, 0, 1);
		chain(s, st);
	}
	qh_start(q, s);
	run_qh(f, q, st, 100);
	t = tok(d);
	if (in && len > 0 && !(t & T_ACTIVE))
		memcpy(data, dp, len - T_BYTES(t));
	if (stok != NULL)
		*stok = tok(st);
	if (toks != NULL) {
		toks[0] = tok(s);
		toks[1] = t;
		toks[2] = tok(st);
	}
	return t;
}

static uint32_t
control(struct fx *f, struct tqh q, uint8_t rt, uint8_t req, uint16_t val,
    uint16_t idx, uint16_t len, uint8_t *data, uint32_t *stok)
{
	return control3(f, q, rt, req, val, idx, len, data, stok, NULL);
}

/* SET_ADDRESS and SET_CONFIGURATION through the ep0 QH. */
static void
configure(struct fx *f, struct tqh *ep0, int addr)
{
	uint32_t	 st;

	control(f, *ep0, 0x00, USB_REQ_SET_ADDRESS, (uint16_t)addr, 0, 0,
	    NULL, &st);
	assert_int_equal(st & (T_ACTIVE | T_HALTED), 0);
	put_le32(ep0->p + 4, (get_le32(ep0->p + 4) & ~0x7fu) |
	    (uint32_t)addr);
	control(f, *ep0, 0x00, USB_REQ_SET_CONFIGURATION, 1, 0, 0, NULL, &st);
	assert_int_equal(st & (T_ACTIVE | T_HALTED), 0);
}

/* ------------------------------------------------------------------------
 * Registers.
 */

static void
test_caps_and_reset_values(void **state)
{
	struct fx	*f = *state;
	int		 i;

	assert_int_equal(rd(f, R_CAPBASE), 0x01000020);
	assert_int_equal(rd(f, R_HCSPARAMS) & 0xf, 4);
	assert_int_equal(rd(f, R_HCSPARAMS) & 0x10, 0x10);	/* PPC */
	assert_int_equal(rd(f, R_HCSPARAMS) & 0xff00, 0);	/* no CC */
	assert_int_equal(rd(f, R_HCCPARAMS) & 0x7, 0);	/* 32-bit, 1024 */
	assert_int_equal(rd(f, R_USBCMD), 0x00080000);
	assert_int_equal(rd(f, R_USBSTS), STS_HALT);
	assert_int_equal(rd(f, R_USBINTR), 0);
	assert_int_equal(rd(f, R_FRINDEX), 0);
	assert_int_equal(rd(f, R_CONFIGFLAG), 0);
	for (i = 1; i <= 4; i++)
		assert_int_equal(rd(f, R_PORTSC(i)), 0);	/* unpowered */
	assert_int_equal(rd(f, R_PORTSC(5)), 0);	/* no such port */
	/* Capability registers are read-only. */
	wr(f, R_CAPBASE, 0);
	assert_int_equal(rd(f, R_CAPBASE), 0x01000020);
	assert_false(emu_ehci_hw.busy(f->e));
	assert_false(emu_ehci_hw.irq_pending(f->e));
	assert_null(emu_ehci_new(f->sim, f->dma, 0));
	assert_null(emu_ehci_new(f->sim, f->dma, EMU_EHCI_PORTS + 1));
}

static void
test_run_stop_frindex(void **state)
{
	struct fx	*f = *state;

	/* FRINDEX is writable while halted and stands still. */
	wr(f, R_FRINDEX, 0x1ffe);
	step(f, 5);
	assert_int_equal(rd(f, R_FRINDEX), 0x1ffe);
	wr(f, R_USBCMD, 0x00080000 | CMD_RS);
	assert_int_equal(rd(f, R_USBSTS) & STS_HALT, 0);
	wr(f, R_FRINDEX, 0);		/* ignored while running */
	step(f, 1);
	assert_int_equal(rd(f, R_FRINDEX), 0x1fff);
	assert_int_equal(rd(f, R_USBSTS) & STS_FLR, 0);
	step(f, 1);
	/* The frame list (1024 frames) rolled over. */
	assert_int_equal(rd(f, R_FRINDEX), 0x2000);
	assert_int_equal(rd(f, R_USBSTS) & STS_FLR, STS_FLR);
	step(f, 0x2000);
	assert_int_equal(rd(f, R_FRINDEX), 0);
	/* RS off: halted at once, FRINDEX stops. */
	wr(f, R_USBCMD, 0x00080000);
	assert_int_equal(rd(f, R_USBSTS) & STS_HALT, STS_HALT);
	step(f, 3);
	assert_int_equal(rd(f, R_FRINDEX), 0);
	/* Schedule status bits follow their enables. */
	wr(f, R_USBCMD, 0x00080000 | CMD_PSE | CMD_ASE);
	assert_int_equal(rd(f, R_USBSTS) & (STS_PSS | STS_ASS),
	    STS_PSS | STS_ASS);
	wr(f, R_USBCMD, 0x00080000 | CMD_PSE);
	assert_int_equal(rd(f, R_USBSTS) & (STS_PSS | STS_ASS), STS_PSS);
	/* Frame list size and park bits are not writable. */
	wr(f, R_USBCMD, 0x00080000 | 0x0b0c);
	assert_int_equal(rd(f, R_USBCMD), 0x00080000);
}

static void
test_usbsts_rwc_and_irq(void **state)
{
	struct fx	*f = *state;

	wr(f, R_USBCMD, 0x00080000 | CMD_RS);
	step(f, 0x2000);			/* FLR */
	assert_true(rd(f, R_USBSTS) & STS_FLR);
	assert_false(emu_ehci_hw.irq_pending(f->e));	/* not enabled */
	wr(f, R_USBINTR, 0xffffffff);
	assert_int_equal(rd(f, R_USBINTR), 0x3f);
	assert_true(emu_ehci_hw.irq_pending(f->e));
	/* Writing 0 leaves it, writing 1 clears it; HCHalted is RO. */
	wr(f, R_USBSTS, 0);
	assert_true(rd(f, R_USBSTS) & STS_FLR);
	wr(f, R_USBSTS, STS_FLR | STS_HALT | STS_PSS);
	assert_int_equal(rd(f, R_USBSTS), 0);
	assert_false(emu_ehci_hw.irq_pending(f->e));
}

static void
test_hcreset(void **state)
{
	struct fx	*f = *state;

	start(f);
	wr(f, R_USBINTR, 0x3f);
	wr(f, R_PERIODIC, 0x10003000);
	wr(f, R_PORTSC(1), PORT_PP);
	step(f, 10);
	wr(f, R_USBCMD, 0);
	wr(f, R_USBCMD, CMD_HCRESET);
	assert_int_equal(rd(f, R_USBCMD), 0x00080000);	/* self-clearing */
	assert_int_equal(rd(f, R_USBSTS), STS_HALT);
	assert_int_equal(rd(f, R_USBINTR), 0);
	assert_int_equal(rd(f, R_FRINDEX), 0);
	assert_int_equal(rd(f, R_PERIODIC), 0);
	assert_int_equal(rd(f, R_ASYNC), 0);
	assert_int_equal(rd(f, R_CONFIGFLAG), 0);
	assert_int_equal(rd(f, R_PORTSC(1)), 0);
}

static void
test_portsc_sequence(void **state)
{
	struct fx	*f = *state;
	struct usb_devmodel *dm = dm_create("loopback", NULL);
	uint32_t	 v;

	start(f);
	wr(f, R_USBINTR, 0x3f);
	/* Attach to an unpowered port: nothing to see. */
	assert_int_equal(emu_ehci_attach(f->e, 2, dm), 0);
	assert_int_equal(emu_ehci_attach(f->e, 2, dm), -EBUSY);
	assert_int_equal(emu_ehci_attach(f->e, 9, dm), -EINVAL);
	assert_int_equal(rd(f, R_PORTSC(2)), 0);
	assert_int_equal(rd(f, R_USBSTS) & STS_PCD, 0);
	/* Power: connect, connect change, PCD interrupt; line state J. */
	wr(f, R_PORTSC(2), PORT_PP);
	v = rd(f, R_PORTSC(2));
	assert_int_equal(v & (PORT_CCS | PORT_CSC | PORT_PE | PORT_PP),
	    PORT_CCS | PORT_CSC | PORT_PP);
	assert_int_equal(v & 0xc00, 0x800);
	assert_true(rd(f, R_USBSTS) & STS_PCD);
	assert_true(emu_ehci_hw.irq_pending(f->e));
	wr(f, R_USBSTS, STS_PCD);
	/* Writing PE=1 does not enable; writing CSC=0 keeps CSC. */
	wr(f, R_PORTSC(2), PORT_PP | PORT_PE);
	assert_int_equal(rd(f, R_PORTSC(2)) & (PORT_PE | PORT_CSC), PORT_CSC);
	wr(f, R_PORTSC(2), PORT_PP | PORT_CSC);
	assert_int_equal(rd(f, R_PORTSC(2)) & PORT_CSC, 0);
	/* Give the device an address, to see the reset take it away. */
	dm->address = 7;
	/* Reset: PR=1, disabled while in reset; PR=0 ends it, enabled. */
	wr(f, R_PORTSC(2), PORT_PP | PORT_PR);
	v = rd(f, R_PORTSC(2));
	assert_int_equal(v & (PORT_PR | PORT_PE), PORT_PR);
	assert_int_equal(dm->address, 7);
	wr(f, R_PORTSC(2), PORT_PP);
	v = rd(f, R_PORTSC(2));
	assert_int_equal(v & (PORT_CCS | PORT_PE | PORT_PR | PORT_PEC |
	    PORT_CSC), PORT_CCS | PORT_PE);
	assert_int_equal(v & 0xc00, 0);		/* no line state once enabled */
	assert_int_equal(dm->address, 0);
	assert_int_equal(rd(f, R_USBSTS) & STS_PCD, 0);
	/* Read-modify-write keeps PE; writing it 0 disables the port. */
	wr(f, R_PORTSC(2), rd(f, R_PORTSC(2)) & ~(PORT_CSC | PORT_PEC));
	assert_true(rd(f, R_PORTSC(2)) & PORT_PE);
	wr(f, R_PORTSC(2), PORT_PP);
	assert_int_equal(rd(f, R_PORTSC(2)) & PORT_PE, 0);
	wr(f, R_PORTSC(2), PORT_PP | PORT_PR);
	wr(f, R_PORTSC(2), PORT_PP);
	/* Detach: CCS and PE drop, CSC, PCD. */
	assert_ptr_equal(emu_ehci_detach(f->e, 2), dm);
	v = rd(f, R_PORTSC(2));
	assert_int_equal(v & (PORT_CCS | PORT_CSC | PORT_PE), PORT_CSC);
	assert_true(rd(f, R_USBSTS) & STS_PCD);
	assert_null(emu_ehci_detach(f->e, 2));
	/* Reset of an empty port enables nothing. */
	wr(f, R_PORTSC(2), PORT_PP | PORT_CSC | PORT_PR);
	wr(f, R_PORTSC(2), PORT_PP);
	assert_int_equal(rd(f, R_PORTSC(2)), PORT_PP);
	/* Power off with a device: gone from view; on again: connect. */
	assert_int_equal(emu_ehci_attach(f->e, 2, dm), 0);
	assert_true(rd(f, R_PORTSC(2)) & PORT_CCS);
	wr(f, R_PORTSC(2), PORT_CSC);
	assert_int_equal(rd(f, R_PORTSC(2)), 0);
	wr(f, R_PORTSC(2), PORT_PP);
	assert_int_equal(rd(f, R_PORTSC(2)) & (PORT_CCS | PORT_CSC),
	    PORT_CCS | PORT_CSC);
}

static void
test_iaa_doorbell(void **state)
{
	struct fx	*f = *state;

	start(f);
	wr(f, R_USBINTR, STS_IAA);
	assert_false(emu_ehci_hw.busy(f->e));
	wr(f, R_USBCMD, rd(f, R_USBCMD) | CMD_IAAD);
	assert_true(rd(f, R_USBCMD) & CMD_IAAD);
	assert_true(emu_ehci_hw.busy(f->e));	/* it must be clocked */
	assert_false(emu_ehci_hw.irq_pending(f->e));
	step(f, 1);
	assert_int_equal(rd(f, R_USBCMD) & CMD_IAAD, 0);
	assert_true(rd(f, R_USBSTS) & STS_IAA);
	assert_true(emu_ehci_hw.irq_pending(f->e));
	wr(f, R_USBSTS, STS_IAA);
	assert_false(emu_ehci_hw.irq_pending(f->e));
	assert_false(emu_ehci_hw.busy(f->e));
}

/* ------------------------------------------------------------------------
 * Async transfers.
 */

static void
test_control_transfer(void **state)
{
	struct fx	*f = *state;
	struct tqh	 ep0;
	uint8_t		 buf[64];
	uint32_t	 t, st;
	int		 i;

	start(f);
	wr(f, R_USBINTR, 0x3f);
	plug(f, 1, "loopback", NULL);
	ep0 = mk_qh(f, 0, 0, 64, 1, 4);
	link_qh(f, ep0);
	assert_false(emu_ehci_hw.busy(f->e));	/* an idle QH */
	/* GET_DESCRIPTOR(DEVICE, 64) at address 0: 18 bytes, short. */
	t = control(f, ep0, 0x80, USB_REQ_GET_DESCRIPTOR, USB_DT_DEVICE << 8,
	    0, 64, buf, &st);
	assert_int_equal(t & (T_ACTIVE | T_HALTED | T_XACT), 0);
	assert_int_equal(T_BYTES(t), 64 - 18);
	assert_int_equal(T_CERR(t), 3);
	assert_int_equal(t & T_DT, 0);		/* DATA1 sent, toggled */
	assert_int_equal(st & (T_ACTIVE | T_HALTED), 0);
	assert_int_equal(buf[0], 18);
	assert_int_equal(buf[1], USB_DT_DEVICE);
	assert_int_equal(get_le16(buf + 8), 0xfff0);
	/* On the wire: SETUP DATA0, IN DATA1 (18), OUT DATA1 (0). */
	assert_int_equal(f->nlog, 3);
	assert_int_equal(f->log[0].pid, DM_PID_SETUP);
	assert_int_equal(f->log[0].data_pid, 0xc3);
	assert_int_equal(f->log[0].len, 8);
	assert_int_equal(f->log[0].result, DM_ACK);
	assert_int_equal(f->log[1].pid, DM_PID_IN);
	assert_int_equal(f->log[1].data_pid, 0x4b);
	assert_int_equal(f->log[1].result, 18);
	assert_int_equal(f->log[2].pid, DM_PID_OUT);
	assert_int_equal(f->log[2].data_pid, 0x4b);
	assert_int_equal(f->log[2].len, 0);
	for (i = 0; i < 3; i++) {
		assert_int_equal(f->log[i].addr, 0);
		assert_int_equal(f->log[i].ep, 0);
	}
	/* IOC on the status qTD: USBINT; the overlay is idle. */
	assert_true(rd(f, R_USBSTS) & STS_INT);
	assert_int_equal(rd(f, R_USBSTS) & STS_ERR, 0);
	assert_int_equal(get_le32(ep0.p + 0x18) & (T_ACTIVE | T_HALTED), 0);
	/* Idle once a pass has found nothing to do. */
	step(f, 1);
	assert_false(emu_ehci_hw.busy(f->e));

	/* SET_ADDRESS, then the old address no longer answers: three
	 * transaction errors count CERR down and halt (USBERRINT). */
	wr(f, R_USBSTS, 0x3f);
	control(f, ep0, 0x00, USB_REQ_SET_ADDRESS, 5, 0, 0, NULL, &st);
	assert_int_equal(st & (T_ACTIVE | T_HALTED), 0);
	assert_int_equal(f->dm[1]->address, 5);
	f->nlog = 0;
	t = control(f, ep0, 0x80, USB_REQ_GET_DESCRIPTOR, USB_DT_DEVICE << 8,
	    0, 18, buf, &st);
	(void)t;
	assert_int_equal(f->nlog, 3);
	for (i = 0; i < 3; i++)
		assert_int_equal(f->log[i].result, DM_XACTERR);
	assert_int_equal(st & T_ACTIVE, T_ACTIVE);	/* never reached */
	t = get_le32(ep0.p + 0x18);
	assert_int_equal(t & (T_ACTIVE | T_HALTED | T_XACT),
	    T_HALTED | T_XACT);
	assert_int_equal(T_CERR(t), 0);
	assert_true(rd(f, R_USBSTS) & STS_ERR);
	/* The halted QH is skipped: nothing more on the bus. */
	step(f, 10);
	assert_int_equal(f->nlog, 3);
}

static void
test_xacterr_retry(void **state)
{
	struct fx	*f = *state;
	struct tqh	 ep0;
	uint8_t		 buf[64];
	uint32_t	 st, toks[3];

	start(f);
	plug(f, 1, "keyboard", NULL);
	ep0 = mk_qh(f, 0, 0, 64, 1, 4);
	link_qh(f, ep0);
	/* Two lost packets: retried, CERR 3 -> 1, XactErr noted. */
	dm_inject(f->dm[1], DM_FAULT_XACTERR, -1, 2);
	control3(f, ep0, 0x80, USB_REQ_GET_DESCRIPTOR, USB_DT_DEVICE << 8,
	    0, 18, buf, &st, toks);
	assert_int_equal(st & (T_ACTIVE | T_HALTED), 0);
	assert_int_equal(buf[1], USB_DT_DEVICE);
	assert_int_equal(f->log[0].result, DM_XACTERR);
	assert_int_equal(f->log[1].result, DM_XACTERR);
	assert_int_equal(f->log[2].result, DM_ACK);
	assert_int_equal(f->log[2].pid, DM_PID_SETUP);
	/* The SETUP qTD carries the history; the others are clean. */
	assert_int_equal(toks[0] & (T_ACTIVE | T_HALTED | T_XACT), T_XACT);
	assert_int_equal(T_CERR(toks[0]), 1);
	assert_int_equal(toks[1] & (T_XACT | T_HALTED), 0);
	assert_int_equal(T_CERR(toks[1]), 3);
	assert_int_equal(rd(f, R_USBSTS) & STS_ERR, 0);
}

/* CERR 0 means no limit: retried until the device answers. */
static void
test_xacterr_unlimited(void **state)
{
	struct fx	*f = *state;
	struct tqh	 ep0;
	struct tqtd	 s, d;
	uint8_t		*sp;
	uint32_t	 sdma;
	int		 i, n = 0;

	start(f);
	plug(f, 1, "keyboard", NULL);
	ep0 = mk_qh(f, 0, 0, 64, 1, 4);
	link_qh(f, ep0);
	dm_inject(f->dm[1], DM_FAULT_XACTERR, -1, 10);
	sdma = mk_buf(f, 8, &sp);
	sp[0] = 0x80;
	sp[1] = USB_REQ_GET_CONFIGURATION;
	sp[6] = 1;
	s = mk_qtd(f, PID_SETUP, 0, sdma, 8, 0);
	put_le32(s.p + 8, get_le32(s.p + 8) & ~(3u << 10));	/* CERR 0 */
	d = mk_qtd(f, PID_IN, 1, sdma, 1, 0);
	chain(s, d);
	qh_start(ep0, s);
	run_until_done(f, s, 10);
	assert_int_equal(tok(s) & (T_HALTED | T_XACT), T_XACT);
	assert_int_equal(T_CERR(tok(s)), 0);
	for (i = 0; i < f->nlog; i++)
		n += f->log[i].pid == DM_PID_SETUP;
	assert_int_equal(n, 11);
	run_until_done(f, d, 10);
	assert_int_equal(f->log[f->nlog - 1].result, 1);
	assert_int_equal(sp[0], 0);		/* not configured */
}

static void
test_bulk_pages_and_bandwidth(void **state)
{
	struct fx	*f = *state;
	struct tqh	 ep0, out, in;
	struct tqtd	 to, ti;
	uint8_t		*ob, *ib;
	uint32_t	 od, id;
	size_t		 i, len = 17 * 512;
	uint64_t	 frame;
	int		 n, maxn, nuf;

	start(f);
	plug(f, 1, "loopback", NULL);
	ep0 = mk_qh(f, 0, 0, 64, 1, 4);
	link_qh(f, ep0);
	configure(f, &ep0, 3);
	out = mk_qh(f, 3, 2, 512, 0, 4);
	in = mk_qh(f, 3, 1, 512, 0, 4);
	link_qh(f, out);
	link_qh(f, in);

	/* 17 packets from 0xe00 into a page: three pages touched. */
	od = mk_buf(f, 5 * 4096, &ob) + 0xe00;
	ob += 0xe00;
	for (i = 0; i < len; i++)
		ob[i] = (uint8_t)(i * 13 + (i >> 9));
	to = mk_qtd(f, PID_OUT, 0, od, (uint32_t)len, 1);
	qh_start(out, to);
	f->nlog = 0;
	nuf = run_until_done(f, to, 10);
	assert_int_equal(tok(to) & (T_HALTED | T_XACT), 0);
	assert_int_equal(T_BYTES(tok(to)), 0);
	/* Written back: C_Page and the offset where the data ended. */
	assert_int_equal((tok(to) >> 12) & 7, (0xe00 + len) >> 12);
	assert_int_equal(get_le32(to.p + 0x0c), od + len -
	    ((0xe00 + len) & ~0xfffu));
	/* The toggle lives in the QH: 17 packets from DATA0 -> DATA1. */
	assert_int_equal(get_le32(out.p + 0x18) & T_DT, T_DT);
	assert_int_equal(f->log[0].data_pid, 0xc3);
	assert_int_equal(f->log[1].data_pid, 0x4b);
	assert_int_equal(f->log[16].data_pid, 0xc3);
	/* At most 13 packets of 512 in a microframe (USB 2.0 5.8.4). */
	assert_int_equal(nuf, 2);
	for (i = 0, maxn = 0, n = 0, frame = f->log[0].ts_ns;
	    i < (size_t)f->nlog; i++) {
		if (f->log[i].ts_ns != frame) {
			frame = f->log[i].ts_ns;
			n = 0;
		}
		if (++n > maxn)
			maxn = n;
	}
	assert_int_equal(maxn, 13);

	/* Read it back into a buffer starting at 0x100 of its page. */
	id = mk_buf(f, 5 * 4096, &ib) + 0x100;
	ib += 0x100;
	ti = mk_qtd(f, PID_IN, 0, id, (uint32_t)len, 1);
	qh_start(in, ti);
	run_until_done(f, ti, 10);
	assert_int_equal(tok(ti) & (T_HALTED | T_XACT), 0);
	assert_int_equal(T_BYTES(tok(ti)), 0);
	assert_memory_equal(ib, ob, len);
	assert_int_equal(get_le32(in.p + 0x18) & T_DT, T_DT);
	/* Next transfer continues the toggle from the QH. */
	to = mk_qtd(f, PID_OUT, 0, od, 512, 1);
	qh_start(out, to);
	f->nlog = 0;
	run_until_done(f, to, 10);
	assert_int_equal(f->log[0].data_pid, 0x4b);
}

static void
test_short_read_alt_next(void **state)
{
	struct fx	*f = *state;
	struct tqh	 ep0, out, in;
	struct tqtd	 to, a, b, c;
	uint8_t		*ob, *ib, extra[50];
	uint32_t	 od, id;

	start(f);
	wr(f, R_USBINTR, 0x3f);
	plug(f, 1, "loopback", NULL);
	ep0 = mk_qh(f, 0, 0, 64, 1, 4);
	link_qh(f, ep0);
	configure(f, &ep0, 4);
	out = mk_qh(f, 4, 2, 512, 0, 4);
	in = mk_qh(f, 4, 1, 512, 0, 4);
	link_qh(f, out);
	link_qh(f, in);
	od = mk_buf(f, 4096, &ob);
	memset(ob, 0x77, 100);
	to = mk_qtd(f, PID_OUT, 0, od, 100, 0);
	qh_start(out, to);
	run_until_done(f, to, 10);

	/* A asks 1024 and gets 100: short; alt-next C, not next B. */
	id = mk_buf(f, 3 * 4096, &ib);
	a = mk_qtd(f, PID_IN, 0, id, 1024, 0);
	b = mk_qtd(f, PID_IN, 0, id + 4096, 512, 1);
	c = mk_qtd(f, PID_IN, 0, id + 8192, 512, 1);
	chain(a, b);
	alt(a, c);
	wr(f, R_USBSTS, 0x3f);
	qh_start(in, a);
	run_until_done(f, a, 10);
	assert_int_equal(tok(a) & (T_HALTED | T_XACT), 0);
	assert_int_equal(T_BYTES(tok(a)), 1024 - 100);
	assert_int_equal(ib[99], 0x77);
	/* A short packet raises USBINT even without IOC. */
	step(f, 1);
	assert_true(rd(f, R_USBSTS) & STS_INT);
	/* C is the current qTD, NAKing; B untouched. */
	step(f, 3);
	assert_int_equal(get_le32(in.p + 0x0c), c.dma);
	assert_true(tok(b) & T_ACTIVE);
	assert_true(tok(c) & T_ACTIVE);
	assert_true(emu_ehci_hw.busy(f->e));
	/* Data arrives: C completes with it, B is still waiting. */
	memset(extra, 0x42, sizeof extra);
	assert_int_equal(dm_transact(f->dm[1], DM_PID_OUT, 4, 2, extra,
	    sizeof extra), DM_ACK);
	run_until_done(f, c, 10);
	assert_int_equal(T_BYTES(tok(c)), 512 - 50);
	assert_int_equal(ib[8192 + 49], 0x42);
	assert_true(tok(b) & T_ACTIVE);
	/* C's next is T: the queue is idle, B is never run. */
	step(f, 5);
	assert_true(tok(b) & T_ACTIVE);
	assert_false(emu_ehci_hw.busy(f->e));
}

static void
test_stall_and_babble(void **state)
{
	struct fx	*f = *state;
	struct tqh	 ep0, out, in;
	struct tqtd	 to, ti, t2;
	uint8_t		*ob, *ib;
	uint32_t	 od, id, t;

	start(f);
	wr(f, R_USBINTR, 0x3f);
	plug(f, 1, "loopback", NULL);
	ep0 = mk_qh(f, 0, 0, 64, 1, 4);
	link_qh(f, ep0);
	configure(f, &ep0, 2);
	out = mk_qh(f, 2, 2, 512, 0, 4);
	in = mk_qh(f, 2, 1, 512, 0, 4);
	link_qh(f, out);
	link_qh(f, in);
	od = mk_buf(f, 4096, &ob);
	id = mk_buf(f, 4096, &ib);

	/* STALL: halted, CERR untouched (-EPIPE), USBERRINT; the queue
	 * stops at it. */
	wr(f, R_USBSTS, 0x3f);
	dm_inject(f->dm[1], DM_FAULT_STALL, 0x81, 0);
	ti = mk_qtd(f, PID_IN, 0, id, 512, 0);
	t2 = mk_qtd(f, PID_IN, 0, id, 512, 0);
	chain(ti, t2);
	qh_start(in, ti);
	run_until_done(f, ti, 10);
	t = tok(ti);
	assert_int_equal(t & (T_HALTED | T_BABBLE | T_XACT), T_HALTED);
	assert_int_equal(T_CERR(t), 3);
	assert_true(rd(f, R_USBSTS) & STS_ERR);
	assert_true(emu_ehci_hw.irq_pending(f->e));
	step(f, 5);
	assert_true(tok(t2) & T_ACTIVE);
	assert_true(get_le32(in.p + 0x18) & T_HALTED);

	/* Babble: the device sends 100 bytes into a 10-byte qTD. */
	control(f, ep0, 0x02, USB_REQ_CLEAR_FEATURE, USB_ENDPOINT_HALT,
	    0x81, 0, NULL, &t);
	assert_int_equal(t & (T_ACTIVE | T_HALTED), 0);
	memset(ob, 1, 100);
	to = mk_qtd(f, PID_OUT, 0, od, 100, 0);
	qh_start(out, to);
	run_until_done(f, to, 10);
	wr(f, R_USBSTS, 0x3f);
	put_le32(in.p + 0x18, 0);		/* the driver restarts it */
	ti = mk_qtd(f, PID_IN, 0, id, 10, 0);
	qh_start(in, ti);
	run_until_done(f, ti, 10);
	t = tok(ti);
	assert_int_equal(t & (T_HALTED | T_BABBLE), T_HALTED | T_BABBLE);
	assert_true(rd(f, R_USBSTS) & STS_ERR);

	/* Injected babble on an IN that would fit. */
	wr(f, R_USBSTS, 0x3f);
	put_le32(in.p + 0x18, 0);
	dm_inject(f->dm[1], DM_FAULT_BABBLE, 0x81, 0);
	ti = mk_qtd(f, PID_IN, 0, id, 512, 0);
	qh_start(in, ti);
	run_until_done(f, ti, 10);
	assert_int_equal(tok(ti) & (T_HALTED | T_BABBLE),
	    T_HALTED | T_BABBLE);
	assert_int_equal(T_BYTES(tok(ti)), 512);
}

static void
test_nak_throttle(void **state)
{
	struct fx	*f = *state;
	struct tqh	 ep0, in;
	struct tqtd	 ti;
	uint8_t		*ib, data[20];
	uint32_t	 id;
	int		 i, naks;

	start(f);
	plug(f, 1, "loopback", NULL);
	ep0 = mk_qh(f, 0, 0, 64, 1, 4);
	link_qh(f, ep0);
	configure(f, &ep0, 2);
	in = mk_qh(f, 2, 1, 512, 0, 4);		/* RL 4 */
	link_qh(f, in);
	id = mk_buf(f, 4096, &ib);
	ti = mk_qtd(f, PID_IN, 0, id, 512, 1);
	qh_start(in, ti);
	/* Empty FIFO: RL NAKs per microframe, then the QH waits. */
	for (i = 0; i < 5; i++) {
		f->nlog = 0;
		step(f, 1);
		assert_int_equal(f->nlog, 4);
		for (naks = 0; naks < f->nlog; naks++)
			assert_int_equal(f->log[naks].result, DM_NAK);
	}
	assert_true(tok(ti) & T_ACTIVE);
	assert_true(emu_ehci_hw.busy(f->e));
	memset(data, 9, sizeof data);
	assert_int_equal(dm_transact(f->dm[1], DM_PID_OUT, 2, 2, data,
	    sizeof data), DM_ACK);
	assert_int_equal(run_until_done(f, ti, 5), 1);
	assert_int_equal(T_BYTES(tok(ti)), 512 - 20);
	assert_int_equal(ib[19], 9);
}

/* IOC interrupts come no more often than every ITC microframes. */
static void
itc_run(struct fx *f, uint32_t itc, int *first_gap)
{
	struct tqh	 ep0, in;
	struct tqtd	 t[40];
	uint8_t		*ib, byte = 1;
	uint32_t	 id;
	int		 i, last = -1, seen = 0, mingap = 1000;

	start(f);
	plug(f, 1, "loopback", NULL);
	ep0 = mk_qh(f, 0, 0, 64, 1, 4);
	link_qh(f, ep0);
	configure(f, &ep0, 2);
	wr(f, R_USBCMD, (itc << 16) | CMD_RS | CMD_ASE);
	in = mk_qh(f, 2, 1, 512, 0, 4);
	link_qh(f, in);
	id = mk_buf(f, 4096, &ib);
	for (i = 0; i < 40; i++) {
		t[i] = mk_qtd(f, PID_IN, 0, id + (uint32_t)i, 1, 1);
		if (i > 0)
			chain(t[i - 1], t[i]);
	}
	qh_start(in, t[0]);
	step(f, 2);
	wr(f, R_USBSTS, 0x3f);
	/* One byte a microframe: one IOC completion a microframe. */
	for (i = 0; i < 40; i++) {
		assert_int_equal(dm_transact(f->dm[1], DM_PID_OUT, 2, 2,
		    &byte, 1), DM_ACK);
		step(f, 1);
		assert_false(tok(t[i]) & T_ACTIVE);
		if (rd(f, R_USBSTS) & STS_INT) {
			if (last >= 0 && i - last < mingap)
				mingap = i - last;
			last = i;
			seen++;
			wr(f, R_USBSTS, STS_INT);
		}
	}
	assert_true(seen > 0);
	*first_gap = mingap;
}

static void
test_itc_coalescing(void **state)
{
	struct fx	*f = *state;
	int		 gap, i;

	itc_run(f, 8, &gap);
	assert_int_equal(gap, 8);
	/* What is still coalesced keeps the machine clocking, and comes
	 * out within ITC microframes. */
	for (i = 0; i < 8 && !(rd(f, R_USBSTS) & STS_INT); i++) {
		assert_true(emu_ehci_hw.busy(f->e));
		step(f, 1);
	}
	assert_true(rd(f, R_USBSTS) & STS_INT);
	assert_false(emu_ehci_hw.busy(f->e));
}

static void
test_itc_one(void **state)
{
	struct fx	*f = *state;
	int		 gap;

	itc_run(f, 1, &gap);
	assert_int_equal(gap, 1);
}

static void
test_disconnect_mid_transfer(void **state)
{
	struct fx	*f = *state;
	struct tqh	 ep0, out;
	struct tqtd	 to;
	uint8_t		*ob;
	uint32_t	 od, t, v;

	start(f);
	wr(f, R_USBINTR, 0x3f);
	plug(f, 3, "loopback", NULL);
	ep0 = mk_qh(f, 0, 0, 64, 1, 4);
	link_qh(f, ep0);
	configure(f, &ep0, 6);
	out = mk_qh(f, 6, 2, 512, 0, 4);
	link_qh(f, out);
	od = mk_buf(f, 4096, &ob);
	wr(f, R_USBSTS, 0x3f);
	dm_inject(f->dm[3], DM_FAULT_DISCONNECT, 0x02, 3);
	to = mk_qtd(f, PID_OUT, 0, od, 4096, 1);
	qh_start(out, to);
	run_until_done(f, to, 10);
	t = tok(to);
	/* Three packets went, then nobody answered: CERR ran out. */
	assert_int_equal(t & (T_HALTED | T_XACT), T_HALTED | T_XACT);
	assert_int_equal(T_CERR(t), 0);
	assert_int_equal(T_BYTES(t), 4096 - 3 * 512);
	v = rd(f, R_PORTSC(3));
	assert_int_equal(v & (PORT_CCS | PORT_CSC | PORT_PE), PORT_CSC);
	assert_true(rd(f, R_USBSTS) & STS_PCD);
	assert_true(rd(f, R_USBSTS) & STS_ERR);
	/* The model stays with the port until it is unplugged. */
	assert_ptr_equal(emu_ehci_detach(f->e, 3), f->dm[3]);
	dm_destroy(f->dm[3]);
}

/* ------------------------------------------------------------------------
 * Periodic schedule.
 */

static void
test_interrupt_smask(void **state)
{
	struct fx	*f = *state;
	struct tqh	 ep0, intr;
	struct tqtd	 ti;
	uint8_t		*fl, *ib;
	uint32_t	 fld, id;
	int		 i, polls = 0;

	start(f);
	wr(f, R_USBINTR, 0x3f);
	plug(f, 2, "keyboard", "a");
	ep0 = mk_qh(f, 0, 0, 64, 1, 4);
	link_qh(f, ep0);
	configure(f, &ep0, 3);

	/* Every frame's list holds one interrupt QH: S-mask uframe 3. */
	fld = mk_buf(f, 4096, &fl);
	intr = mk_qh(f, 3, 1, 8, 0, 0);
	put_le32(intr.p + 0x08, 1u << 30 | 1u << 3);
	for (i = 0; i < 1024; i++)
		put_le32(fl + 4 * i, intr.dma | 2);
	id = mk_buf(f, 4096, &ib);
	ti = mk_qtd(f, PID_IN, 0, id, 8, 1);
	qh_start(intr, ti);
	wr(f, R_PERIODIC, fld);
	wr(f, R_USBCMD, rd(f, R_USBCMD) | CMD_PSE);
	assert_true(emu_ehci_hw.busy(f->e));
	f->nlog = 0;
	run_until_done(f, ti, 8 * 200);
	assert_int_equal(tok(ti) & (T_HALTED | T_XACT), 0);
	assert_int_equal(T_BYTES(tok(ti)), 0);
	assert_int_equal(ib[2], 0x04);			/* 'a' pressed */
	for (i = 0; i < f->nlog; i++) {
		if (f->log[i].ep != 1)
			continue;
		assert_int_equal(f->logfr[i] & 7, 3);
		polls++;
	}
	/* Once a frame: NAKs until the press ~20 ms after configuration. */
	assert_true(polls >= 10 && polls <= 40);
	step(f, 1);
	assert_true(rd(f, R_USBSTS) & STS_INT);
	assert_int_equal(get_le32(intr.p + 0x18) & T_DT, T_DT);

	/* Re-arm: the release report comes next, with DATA1. */
	f->nlog = 0;
	ti = mk_qtd(f, PID_IN, 0, id, 8, 1);
	qh_start(intr, ti);
	run_until_done(f, ti, 8 * 200);
	assert_int_equal(ib[2], 0);
	assert_int_equal(f->log[f->nlog - 1].data_pid, 0x4b);
	/* Nothing active any more: after a while, not busy. */
	step(f, 8192 + 8);
	assert_false(emu_ehci_hw.busy(f->e));
}

static void
test_itd_slot(void **state)
{
	struct fx	*f = *state;
	uint8_t		*fl, *itd, *b;
	uint32_t	 fld, itdd, bd, x;

	start(f);
	wr(f, R_USBINTR, 0x3f);
	/* An iTD in frame 0: slot 2 active, to address 9 (nobody). */
	fld = mk_buf(f, 4096, &fl);
	for (x = 0; x < 1024; x++)
		put_le32(fl + 4 * x, 1);
	itd = dma_alloc(f->dma, 64, 32, &itdd);
	bd = mk_buf(f, 4096, &b);
	put_le32(itd + 0x00, 1);
	put_le32(itd + 0x04 + 4 * 2, 1u << 31 | 100u << 16 | 1u << 15 | 0x10);
	put_le32(itd + 0x24, bd | 1u << 8 | 9);		/* ep 1, addr 9 */
	put_le32(itd + 0x28, 1u << 11 | 512);		/* IN, maxp 512 */
	put_le32(itd + 0x2c, 1);			/* Mult 1 */
	put_le32(fl, itdd);				/* Typ iTD */
	wr(f, R_PERIODIC, fld);
	wr(f, R_USBCMD, rd(f, R_USBCMD) | CMD_PSE);
	assert_true(emu_ehci_hw.busy(f->e));
	step(f, 2);
	assert_true(get_le32(itd + 0x0c) & (1u << 31));	/* not yet */
	step(f, 1);
	x = get_le32(itd + 0x0c);
	assert_int_equal(x & (1u << 31), 0);
	assert_int_equal(x & (1u << 28), 1u << 28);	/* XactErr */
	step(f, 1);
	assert_int_equal(rd(f, R_USBSTS) & (STS_INT | STS_ERR),
	    STS_INT | STS_ERR);
}

/* A bad pointer in the schedule is a host system error: halt. */
static void
test_host_system_error(void **state)
{
	struct fx	*f = *state;

	start(f);
	wr(f, R_USBINTR, 0x3f);
	put_le32(f->headp, 0x00001002);		/* outside DMA memory */
	step(f, 1);
	assert_true(rd(f, R_USBSTS) & 0x10);	/* HSE */
	assert_true(rd(f, R_USBSTS) & STS_HALT);
	assert_int_equal(rd(f, R_USBCMD) & CMD_RS, 0);
	assert_true(emu_ehci_hw.irq_pending(f->e));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_caps_and_reset_values,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_run_stop_frindex,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_usbsts_rwc_and_irq,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_hcreset, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_portsc_sequence, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_iaa_doorbell, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_control_transfer, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_xacterr_retry, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_xacterr_unlimited, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_bulk_pages_and_bandwidth,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_short_read_alt_next,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_stall_and_babble, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_nak_throttle, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_itc_coalescing, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_itc_one, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_disconnect_mid_transfer,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_interrupt_smask, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_itd_slot, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_host_system_error,
		    setup, teardown),
	};

	sim_register(&sample_catalog);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
