/*
 * tests/unit/test-ehci.c - the EHCI driver end to end on the emulated
 * controller, without the core's hub driver: bring-up as notes 6.10 says,
 * a loopback device on port 1 found and reset through hub_control,
 * addressed and configured with control URBs, bulk OUT then IN through it
 * (short reads, multi-qTD transfers, ZLPs), an unlink through the IAA
 * doorbell, a STALL, and shutdown giving back what is left.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core/usb.h"
#include "hcd/ehci.h"
#include "hcd/emu-ehci.h"
#include "samples/samples.h"

#define EPOCH	(1700000000ULL * 1000000000ULL)

struct fixture {
	struct sim	*sim;
	struct dma_mem	*dma;
	struct emu_ehci	*emu;
	struct usb_hcd	*hcd;
	struct usb_devmodel *dm;
	struct usb_device *udev;
	struct usb_host_endpoint bulk_in, bulk_out;
	unsigned long	 nsubmit, ncomplete, nerror;
	int		 logs;
};

struct done {
	int		 done;
	int		 status;
	unsigned	 actual;
	enum sim_ctx	 ctx;
};

static void
sink_urb(void *arg, const struct urb_rec *r)
{
	struct fixture	*f = arg;

	if (r->type == 'S')
		f->nsubmit++;
	else if (r->type == 'C')
		f->ncomplete++;
	else
		f->nerror++;
}

static void
sink_event(void *arg, const struct drv_event *ev)
{
	struct fixture	*f = arg;

	if (ev->kind == DRV_LOG)
		f->logs++;
	if (getenv("EHCI_LOG") != NULL && ev->text != NULL)
		fprintf(stderr, "%10.6f %s\n", (double)((uint64_t)ev->ts_ns -
		    EPOCH) / 1e9, ev->text);
}

static void
complete_fn(struct urb *urb)
{
	struct done	*d = urb->context;

	d->done = 1;
	d->status = urb->status;
	d->actual = urb->actual_length;
	d->ctx = sim_current->ctx;
}

static int
is_done(void *arg)
{
	return ((struct done *)arg)->done;
}

static uint32_t
opreg(struct fixture *f, uint32_t off)
{
	return emu_ehci_mmio.readl(f->emu,
	    HC_LENGTH(emu_ehci_mmio.readl(f->emu, EHCI_CAPLENGTH)) + off);
}

static void
run_ms(struct fixture *f, unsigned ms)
{
	(void)sim_wait(f->sim, NULL, NULL, f->sim->now_ns + ms * SIM_MS);
}

static uint32_t
port_status(struct fixture *f, int port)
{
	uint8_t		 buf[4];

	assert_int_equal(ehci_hc_driver.hub_control(f->hcd, GetPortStatus, 0,
	    (u16)port, (char *)buf, 4), 4);
	return get_le32(buf);
}

static void
ep_init(struct usb_host_endpoint *ep, uint8_t addr, uint8_t type,
    uint16_t maxp)
{
	memset(ep, 0, sizeof *ep);
	ep->desc.bLength = USB_DT_ENDPOINT_SIZE;
	ep->desc.bDescriptorType = USB_DT_ENDPOINT;
	ep->desc.bEndpointAddress = addr;
	ep->desc.bmAttributes = type;
	ep->desc.wMaxPacketSize = maxp;
	INIT_LIST_HEAD(&ep->urb_list);
	ep->enabled = 1;
}

/* Submit through the glue and run the machine until the completion. */
static int
xfer(struct fixture *f, struct urb *urb, unsigned *actual)
{
	struct done	 d;
	int		 rc;

	memset(&d, 0, sizeof d);
	urb->context = &d;
	urb->complete = complete_fn;
	urb->actual_length = 0;
	urb->status = -EINPROGRESS;
	if ((rc = usb_hcd_submit_urb(urb, GFP_KERNEL)) != 0)
		return rc;
	assert_int_equal(sim_wait(f->sim, is_done, &d,
	    f->sim->now_ns + 2000 * SIM_MS), 0);
	assert_int_equal(d.ctx, SIM_IRQ);
	if (actual != NULL)
		*actual = d.actual;
	return d.status;
}

static int
control(struct fixture *f, uint8_t type, uint8_t req, uint16_t value,
    uint16_t index, void *buf, uint16_t len, unsigned *actual)
{
	struct urb	*urb = usb_alloc_urb(0, GFP_KERNEL);
	uint8_t		 s[8];
	int		 st;

	s[0] = type;
	s[1] = req;
	put_le16(s + 2, value);
	put_le16(s + 4, index);
	put_le16(s + 6, len);
	urb->dev = f->udev;
	urb->pipe = (type & USB_DIR_IN) ? usb_rcvctrlpipe(f->udev, 0) :
	    usb_sndctrlpipe(f->udev, 0);
	urb->ep = &f->udev->ep0;
	urb->setup_packet = s;
	urb->transfer_buffer = buf;
	urb->transfer_buffer_length = len;
	st = xfer(f, urb, actual);
	usb_free_urb(urb);
	return st;
}

static int
bulk(struct fixture *f, int in, void *buf, unsigned len, unsigned flags,
    unsigned *actual)
{
	struct urb	*urb = usb_alloc_urb(0, GFP_KERNEL);
	int		 st;

	urb->dev = f->udev;
	urb->pipe = in ? usb_rcvbulkpipe(f->udev, 1) :
	    usb_sndbulkpipe(f->udev, 2);
	urb->ep = in ? &f->bulk_in : &f->bulk_out;
	urb->transfer_buffer = buf;
	urb->transfer_buffer_length = len;
	urb->transfer_flags = flags;
	st = xfer(f, urb, actual);
	usb_free_urb(urb);
	return st;
}

/* Bring-up, attach, reset through hub_control, address, configure. */
static struct fixture *
bringup(const char *lbargs)
{
	struct fixture	*f = calloc(1, sizeof *f);
	struct sim_sink	 sink = { sink_urb, sink_event, NULL };
	struct ehci_hcd	*ehci;
	uint8_t		 buf[64], bitmap[2];
	uint32_t	 ps;
	unsigned	 n;

	assert_non_null(f);
	sink.arg = f;
	f->sim = sim_new(EPOCH, &sink);
	f->dma = dma_mem_new(16u << 20);
	f->emu = emu_ehci_new(f->sim, f->dma, EMU_EHCI_PORTS);
	assert_non_null(f->emu);
	f->hcd = usb_create_hcd(f->sim, &ehci_hc_driver, &emu_ehci_mmio,
	    f->emu, &emu_ehci_hw, f->dma, 1);
	assert_non_null(f->hcd);

	/* usb_add_hcd, less the core's root hub registration */
	f->hcd->self.root_hub = usb_hcd_alloc_root_hub(f->hcd);
	assert_int_equal(ehci_hc_driver.reset(f->hcd), 0);
	sim_add_hw(f->sim, &f->hcd->simhw);
	f->hcd->rh_registered = 1;
	assert_int_equal(ehci_hc_driver.start(f->hcd), 0);
	f->hcd->state = HC_STATE_RUNNING;
	ehci = hcd_to_ehci(f->hcd);

	/* notes 6.10: running, ports routed to us, the schedules' bases,
	 * the five interrupts */
	assert_true(opreg(f, EHCI_USBCMD) & CMD_RUN);
	assert_false(opreg(f, EHCI_USBSTS) & STS_HALT);
	assert_int_equal(opreg(f, EHCI_CONFIGFLAG) & FLAG_CF, FLAG_CF);
	assert_int_equal(opreg(f, EHCI_USBINTR), INTR_MASK);
	assert_int_equal(opreg(f, EHCI_ASYNCLISTADDR), ehci->async->qh_dma);
	assert_int_equal(opreg(f, EHCI_PERIODICLISTBASE),
	    ehci->periodic_dma);
	assert_int_equal(ehci->periodic_dma & 0xfff, 0);
	assert_int_equal(HCS_N_PORTS(ehci->hcs_params), EMU_EHCI_PORTS);

	/* the hub descriptor */
	assert_int_equal(ehci_hc_driver.hub_control(f->hcd, GetHubDescriptor,
	    USB_DT_HUB << 8, 0, (char *)buf, 15), 15);
	assert_int_equal(buf[1], USB_DT_HUB);
	assert_int_equal(buf[2], EMU_EHCI_PORTS);
	assert_int_equal(buf[5], 10);

	/* power, plug in: a connect change on port 1 only */
	for (n = 1; n <= EMU_EHCI_PORTS; n++)
		assert_int_equal(ehci_hc_driver.hub_control(f->hcd,
		    SetPortFeature, USB_PORT_FEAT_POWER, (u16)n, NULL, 0), 0);
	assert_int_equal(ehci_hc_driver.hub_status_data(f->hcd,
	    (char *)bitmap), 0);
	f->dm = dm_create("loopback", lbargs);
	assert_non_null(f->dm);
	assert_int_equal(emu_ehci_attach(f->emu, 1, f->dm), 0);
	run_ms(f, 2);
	assert_int_equal(ehci_hc_driver.hub_status_data(f->hcd,
	    (char *)bitmap), 1);
	assert_int_equal(bitmap[0], 1 << 1);
	ps = port_status(f, 1);
	assert_int_equal(ps & 0xffff, USB_PORT_STAT_CONNECTION |
	    USB_PORT_STAT_POWER | USB_PORT_STAT_HIGH_SPEED);
	assert_int_equal(ps >> 16, USB_PORT_STAT_C_CONNECTION);
	assert_int_equal(port_status(f, 2) & USB_PORT_STAT_CONNECTION, 0);
	assert_int_equal(ehci_hc_driver.hub_control(f->hcd, ClearPortFeature,
	    USB_PORT_FEAT_C_CONNECTION, 1, NULL, 0), 0);
	assert_int_equal(port_status(f, 1) >> 16, 0);

	/* reset: in reset until 50 ms have passed and GetPortStatus ends
	 * it; then enabled, with C_RESET */
	assert_int_equal(ehci_hc_driver.hub_control(f->hcd, SetPortFeature,
	    USB_PORT_FEAT_RESET, 1, NULL, 0), 0);
	ps = port_status(f, 1);
	assert_true(ps & USB_PORT_STAT_RESET);
	assert_false(ps & USB_PORT_STAT_ENABLE);
	assert_int_equal(ps >> 16, 0);
	run_ms(f, 20);
	assert_true(port_status(f, 1) & USB_PORT_STAT_RESET);
	run_ms(f, 31);
	ps = port_status(f, 1);
	assert_false(ps & USB_PORT_STAT_RESET);
	assert_true(ps & USB_PORT_STAT_ENABLE);
	assert_true(ps & USB_PORT_STAT_HIGH_SPEED);
	assert_int_equal(ps >> 16, USB_PORT_STAT_C_RESET);
	assert_int_equal(ehci_hc_driver.hub_control(f->hcd, ClearPortFeature,
	    USB_PORT_FEAT_C_RESET, 1, NULL, 0), 0);
	assert_int_equal(port_status(f, 1) >> 16, 0);
	run_ms(f, 10);

	/* the device, at address 0 */
	f->udev = usb_alloc_dev(f->hcd->self.root_hub, &f->hcd->self, 1);
	f->udev->devnum = 0;
	f->udev->speed = USB_SPEED_HIGH;
	f->udev->state = USB_STATE_DEFAULT;

	/* Linux's first read: 64 bytes asked, 18 come (short, fine) */
	memset(buf, 0, sizeof buf);
	assert_int_equal(control(f, 0x80, USB_REQ_GET_DESCRIPTOR, 0x0100, 0,
	    buf, 64, &n), 0);
	assert_int_equal(n, 18);
	assert_int_equal(buf[0], 18);
	assert_int_equal(buf[7], 64);

	/* SET_ADDRESS 2 (no data stage), then the descriptor at 2 */
	assert_int_equal(control(f, 0x00, USB_REQ_SET_ADDRESS, 2, 0, NULL, 0,
	    &n), 0);
	assert_int_equal(n, 0);
	run_ms(f, 2);
	f->udev->devnum = 2;
	f->udev->state = USB_STATE_ADDRESS;
	memset(buf, 0, sizeof buf);
	assert_int_equal(control(f, 0x80, USB_REQ_GET_DESCRIPTOR, 0x0100, 0,
	    buf, 18, &n), 0);
	assert_int_equal(n, 18);
	assert_int_equal(get_le16(buf + 8), 0xfff0);	/* idVendor */
	assert_int_equal(get_le16(buf + 10), 0xfff0);
	/* the configuration, 9 bytes then whole */
	assert_int_equal(control(f, 0x80, USB_REQ_GET_DESCRIPTOR, 0x0200, 0,
	    buf, 9, &n), 0);
	assert_int_equal(n, 9);
	assert_int_equal(get_le16(buf + 2), 32);
	assert_int_equal(control(f, 0x80, USB_REQ_GET_DESCRIPTOR, 0x0200, 0,
	    buf, 32, &n), 0);
	assert_int_equal(n, 32);
	assert_int_equal(buf[18 + 2], 0x81);
	assert_int_equal(buf[25 + 2], 0x02);
	assert_int_equal(control(f, 0x00, USB_REQ_SET_CONFIGURATION, 1, 0,
	    NULL, 0, &n), 0);
	f->udev->state = USB_STATE_CONFIGURED;
	ep_init(&f->bulk_in, 0x81, USB_ENDPOINT_XFER_BULK, 512);
	ep_init(&f->bulk_out, 0x02, USB_ENDPOINT_XFER_BULK, 512);
	return f;
}

static void
shutdown(struct fixture *f)
{
	struct usb_device *rh = f->hcd->self.root_hub;

	usb_hcd_disable_endpoint(f->udev, &f->bulk_in);
	usb_hcd_disable_endpoint(f->udev, &f->bulk_out);
	usb_hcd_disable_endpoint(f->udev, &f->udev->ep0);
	f->hcd->state = HC_STATE_QUIESCING;
	f->hcd->rh_registered = 0;
	ehci_hc_driver.stop(f->hcd);
	sim_remove_hw(f->sim, &f->hcd->simhw);
	/* every submitted URB was given back (or refused) */
	assert_int_equal(f->nsubmit, f->ncomplete + f->nerror);
	usb_put_dev(f->udev);
	f->hcd->self.root_hub = NULL;
	usb_put_dev(rh);
	usb_put_hcd(f->hcd);
	dm_destroy(emu_ehci_detach(f->emu, 1));
	emu_ehci_free(f->emu);
	dma_mem_free(f->dma);
	usb_core_free(f->sim);
	sim_free(f->sim);
	free(f);
}

static void
fill(uint8_t *p, unsigned n, unsigned seed)
{
	unsigned	 i;

	for (i = 0; i < n; i++)
		p[i] = (uint8_t)((i * 31 + seed) ^ (i >> 8));
}

/* ------------------------------------------------------------------------
 */
static void
test_enumerate_and_bulk(void **state)
{
	struct fixture	*f = bringup(NULL);
	static uint8_t	 out[10000], in[16384];
	unsigned	 n;

	(void)state;
	/* OUT 10000: an unaligned bounce buffer, two pages, 20 packets */
	fill(out, sizeof out, 1);
	assert_int_equal(bulk(f, 0, out, sizeof out, 0, &n), 0);
	assert_int_equal(n, sizeof out);
	/* IN 16384: the device has 10000, the last packet is short */
	memset(in, 0, sizeof in);
	assert_int_equal(bulk(f, 1, in, sizeof in, 0, &n), 0);
	assert_int_equal(n, sizeof out);
	assert_memory_equal(in, out, sizeof out);

	/* again, exact sizes, to see the QHs reused */
	fill(out, 4096, 2);
	assert_int_equal(bulk(f, 0, out, 4096, 0, &n), 0);
	assert_int_equal(bulk(f, 1, in, 4096, 0, &n), 0);
	assert_int_equal(n, 4096);
	assert_memory_equal(in, out, 4096);

	/* a short read with URB_SHORT_NOT_OK is an error */
	assert_int_equal(bulk(f, 0, out, 1000, 0, &n), 0);
	assert_int_equal(bulk(f, 1, in, 4096, URB_SHORT_NOT_OK, &n),
	    -EREMOTEIO);
	assert_int_equal(n, 1000);
	assert_memory_equal(in, out, 1000);

	/* ... and the queue goes on after the cleanup */
	fill(out, 512, 3);
	assert_int_equal(bulk(f, 0, out, 512, URB_ZERO_PACKET, &n), 0);
	assert_int_equal(n, 512);
	assert_int_equal(bulk(f, 1, in, 512, 0, &n), 0);
	assert_int_equal(n, 512);
	assert_memory_equal(in, out, 512);
	assert_int_equal(f->nerror, 0);
	shutdown(f);
}

static void
test_big_transfers(void **state)
{
	struct fixture	*f = bringup("65536");
	static uint8_t	 out[60000], in[60000];
	unsigned long	 iaa;
	unsigned	 n;

	(void)state;
	/* three qTDs each way (20 KiB + 20 KiB + rest) */
	fill(out, sizeof out, 9);
	assert_int_equal(bulk(f, 0, out, sizeof out, 0, &n), 0);
	assert_int_equal(n, sizeof out);
	memset(in, 0, sizeof in);
	assert_int_equal(bulk(f, 1, in, sizeof in, 0, &n), 0);
	assert_int_equal(n, sizeof in);
	assert_memory_equal(in, out, sizeof out);

	/* a short read in the first qTD of three stops the queue (the
	 * magic dummy); the QH is unlinked, cleaned and used again */
	iaa = hcd_to_ehci(f->hcd)->stats.iaa;
	assert_int_equal(bulk(f, 0, out, 3000, 0, &n), 0);
	assert_int_equal(bulk(f, 1, in, sizeof in, 0, &n), 0);
	assert_int_equal(n, 3000);
	run_ms(f, 1);
	assert_int_equal(hcd_to_ehci(f->hcd)->stats.iaa, iaa + 1);
	assert_int_equal(bulk(f, 0, out + 100, 700, 0, &n), 0);
	assert_int_equal(bulk(f, 1, in, sizeof in, 0, &n), 0);
	assert_int_equal(n, 700);
	assert_memory_equal(in, out + 100, 700);
	shutdown(f);
}

static void
test_unlink_and_stall(void **state)
{
	struct fixture	*f = bringup(NULL);
	struct urb	*urb = usb_alloc_urb(0, GFP_KERNEL);
	struct ehci_hcd	*ehci = hcd_to_ehci(f->hcd);
	static uint8_t	 in[512], out[512];
	struct done	 d;
	unsigned	 n, iaa;

	(void)state;
	/* an IN on an empty FIFO NAKs forever: unlink it through the
	 * IAA doorbell */
	memset(&d, 0, sizeof d);
	urb->dev = f->udev;
	urb->pipe = usb_rcvbulkpipe(f->udev, 1);
	urb->ep = &f->bulk_in;
	urb->transfer_buffer = in;
	urb->transfer_buffer_length = sizeof in;
	urb->complete = complete_fn;
	urb->context = &d;
	assert_int_equal(usb_hcd_submit_urb(urb, GFP_KERNEL), 0);
	run_ms(f, 5);
	assert_false(d.done);
	iaa = (unsigned)ehci->stats.iaa;
	assert_int_equal(usb_hcd_unlink_urb(urb, -ECONNRESET), -EINPROGRESS);
	assert_int_equal(usb_hcd_unlink_urb(urb, -ENOENT), -EBUSY);
	assert_int_equal(sim_wait(f->sim, is_done, &d, f->sim->now_ns +
	    100 * SIM_MS), 0);
	assert_int_equal(d.status, -ECONNRESET);
	assert_int_equal(d.actual, 0);
	assert_int_equal(ehci->stats.iaa, iaa + 1);
	assert_int_equal(ehci->stats.lost_iaa, 0);
	usb_free_urb(urb);

	/* the endpoint still works */
	fill(out, sizeof out, 5);
	assert_int_equal(bulk(f, 0, out, sizeof out, 0, &n), 0);
	assert_int_equal(bulk(f, 1, in, sizeof in, 0, &n), 0);
	assert_int_equal(n, sizeof out);
	assert_memory_equal(in, out, sizeof out);

	/* a STALL: -EPIPE */
	dm_inject(f->dm, DM_FAULT_STALL, 0x81, 1);
	assert_int_equal(bulk(f, 1, in, sizeof in, 0, &n), -EPIPE);
	/* an unsupported request stalls ep0; the next SETUP clears it */
	assert_int_equal(control(f, 0xc0, 0x77, 0, 0, in, 8, &n), -EPIPE);
	assert_int_equal(control(f, 0x80, USB_REQ_GET_DESCRIPTOR, 0x0100, 0,
	    in, 18, &n), 0);
	assert_int_equal(n, 18);
	shutdown(f);
}

/* Interrupt IN through the periodic schedule (the emulator sees only
 * tokens: the loopback's 0x81 serves as an interrupt endpoint). */
static void
test_interrupt_periodic(void **state)
{
	struct fixture	*f = bringup(NULL);
	struct ehci_hcd	*ehci = hcd_to_ehci(f->hcd);
	struct usb_host_endpoint int_in;
	struct urb	*urb = usb_alloc_urb(0, GFP_KERNEL);
	static uint8_t	 out[1000], in[512];
	struct ehci_qh	*qh;
	struct done	 d;
	unsigned	 n, i, linked;
	uint64_t	 t0;
	int		 st;

	(void)state;
	ep_init(&int_in, 0x81, USB_ENDPOINT_XFER_INT, 512);
	int_in.desc.bInterval = 4;	/* 2^3 = 8 uframes: every frame */
	fill(out, sizeof out, 7);
	assert_int_equal(bulk(f, 0, out, sizeof out, 0, &n), 0);

	usb_fill_int_urb(urb, f->udev, usb_rcvintpipe(f->udev, 1), in,
	    sizeof in, complete_fn, NULL, 4);
	urb->ep = &int_in;
	assert_int_equal(urb->interval, 8);
	t0 = f->sim->now_ns;
	assert_int_equal(xfer(f, urb, &n), 0);
	assert_int_equal(n, 512);
	assert_memory_equal(in, out, 512);
	/* one frame period, plus the interrupt threshold */
	assert_true(f->sim->now_ns - t0 <= 3 * SIM_MS);

	/* the QH: scheduled in every frame with one S-mask bit */
	qh = int_in.hcpriv;
	assert_non_null(qh);
	assert_int_equal(qh->ps.period, 1);
	assert_int_equal(__builtin_popcount(hc32_to_cpu(qh->hw->hw_info2) &
	    QH_SMASK), 1);
	for (i = 0, linked = 0; i < ehci->periodic_size; i++)
		if (ehci->periodic[i] == QH_NEXT(qh->qh_dma))
			linked++;
	/* linked while busy or still being unlinked after going empty */
	assert_true(linked == ehci->periodic_size || linked == 0);

	/* the short rest, then the queue is empty: the device NAKs */
	assert_int_equal(xfer(f, urb, &n), 0);
	assert_int_equal(n, sizeof out - 512);
	assert_memory_equal(in, out + 512, sizeof out - 512);
	run_ms(f, 5);
	assert_int_equal(qh->qh_state, QH_STATE_IDLE);
	for (i = 0; i < ehci->periodic_size; i++)
		assert_int_equal(ehci->periodic[i], EHCI_LIST_END);

	/* a NAKing interrupt URB unlinks with -ENOENT */
	memset(&d, 0, sizeof d);
	urb->context = &d;
	st = usb_hcd_submit_urb(urb, GFP_KERNEL);
	assert_int_equal(st, 0);
	run_ms(f, 4);
	assert_int_equal(qh->qh_state, QH_STATE_LINKED);
	assert_int_equal(usb_hcd_unlink_urb(urb, -ENOENT), -EINPROGRESS);
	run_ms(f, 4);
	assert_true(d.done);
	assert_int_equal(d.status, -ENOENT);
	assert_int_equal(urb->use_count, 0);

	/* the bandwidth it holds goes with the endpoint */
	usb_hcd_disable_endpoint(f->udev, &int_in);
	assert_null(int_in.hcpriv);
	for (i = 0; i < EHCI_BANDWIDTH_SIZE; i++)
		assert_int_equal(ehci->bandwidth[i], 0);
	usb_free_urb(urb);
	shutdown(f);
}

/* High speed ISO through iTDs: OUT on 0x02, then IN on 0x81 declared
 * isochronous on the host side, one packet per microframe. */
static void
test_isochronous(void **state)
{
	struct fixture	*f = bringup(NULL);
	struct ehci_hcd	*ehci = hcd_to_ehci(f->hcd);
	struct usb_host_endpoint iso_in, iso_out;
	struct urb	*urb = usb_alloc_urb(12, GFP_KERNEL);
	static uint8_t	 out[12 * 512], in[12 * 512];
	unsigned	 n, i;
	int		 start;

	(void)state;
	ep_init(&iso_out, 0x02, USB_ENDPOINT_XFER_ISOC, 512);
	ep_init(&iso_in, 0x81, USB_ENDPOINT_XFER_ISOC, 512);
	fill(out, sizeof out, 11);

	/* 12 packets, one per microframe: two iTDs (8 + 4 slots) */
	urb->dev = f->udev;
	urb->pipe = usb_sndisocpipe(f->udev, 2);
	urb->ep = &iso_out;
	urb->transfer_buffer = out;
	urb->transfer_buffer_length = sizeof out;
	urb->transfer_flags = URB_ISO_ASAP;
	urb->number_of_packets = 12;
	urb->interval = 1;
	for (i = 0; i < 12; i++) {
		urb->iso_frame_desc[i].offset = i * 512;
		urb->iso_frame_desc[i].length = 512;
	}
	assert_int_equal(xfer(f, urb, &n), 0);
	assert_int_equal(n, sizeof out);
	assert_int_equal(urb->error_count, 0);
	start = urb->start_frame;
	assert_true(start >= 0 && start < 8192);
	for (i = 0; i < 12; i++) {
		assert_int_equal(urb->iso_frame_desc[i].status, 0);
		assert_int_equal(urb->iso_frame_desc[i].actual_length, 512);
	}

	/* read it back */
	memset(in, 0, sizeof in);
	urb->pipe = usb_rcvisocpipe(f->udev, 1);
	urb->ep = &iso_in;
	urb->transfer_buffer = in;
	assert_int_equal(xfer(f, urb, &n), 0);
	assert_int_equal(n, sizeof in);
	assert_memory_equal(in, out, sizeof out);
	for (i = 0; i < 12; i++)
		assert_int_equal(urb->iso_frame_desc[i].actual_length, 512);
	/* the iTDs left the frame list */
	run_ms(f, 2);
	assert_int_equal(ehci->isoc_count, 0);
	for (i = 0; i < ehci->periodic_size; i++)
		assert_int_equal(ehci->periodic[i], EHCI_LIST_END);
	usb_hcd_disable_endpoint(f->udev, &iso_in);
	usb_hcd_disable_endpoint(f->udev, &iso_out);
	assert_null(iso_in.hcpriv);
	usb_free_urb(urb);
	shutdown(f);
}

static void
test_shutdown_gives_back(void **state)
{
	struct fixture	*f = bringup(NULL);
	struct urb	*urb = usb_alloc_urb(0, GFP_KERNEL);
	static uint8_t	 in[512];
	struct done	 d;

	(void)state;
	memset(&d, 0, sizeof d);
	urb->dev = f->udev;
	urb->pipe = usb_rcvbulkpipe(f->udev, 1);
	urb->ep = &f->bulk_in;
	urb->transfer_buffer = in;
	urb->transfer_buffer_length = sizeof in;
	urb->complete = complete_fn;
	urb->context = &d;
	assert_int_equal(usb_hcd_submit_urb(urb, GFP_KERNEL), 0);
	run_ms(f, 3);
	assert_false(d.done);
	/* the controller goes away with the URB queued */
	f->hcd->state = HC_STATE_QUIESCING;
	ehci_hc_driver.stop(f->hcd);
	assert_true(d.done);
	assert_int_equal(d.status, -ESHUTDOWN);
	assert_int_equal(urb->use_count, 0);
	usb_free_urb(urb);
	/* stopping twice is harmless */
	shutdown(f);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_enumerate_and_bulk),
		cmocka_unit_test(test_big_transfers),
		cmocka_unit_test(test_unlink_and_stall),
		cmocka_unit_test(test_interrupt_periodic),
		cmocka_unit_test(test_isochronous),
		cmocka_unit_test(test_shutdown_gives_back),
	};

	sim_register(&sample_catalog);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
