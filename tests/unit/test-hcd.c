/*
 * tests/unit/test-hcd.c - the host controller glue (core/hcd.c,
 * core/hcd-mon.c) with a fake hc_driver: the usbmon records of submit,
 * completion and submit errors for control IN/OUT, bulk, interrupt and
 * ISO URBs (flags, lengths, setup bytes, captured data), the bounce
 * buffers between URB and DMA memory, and the root hub's own answers
 * (descriptors of Linux 6.1's EHCI root hub, strings, hub-class requests
 * passed to the driver).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core/usb.h"
#include "core/hcd.h"

#define EPOCH	(1700000000ULL * 1000000000ULL + 123456789ULL)

/* A record as the sink saw it, data copied. */
struct rec {
	struct urb_rec	 r;
	uint8_t		 data[4096];
	struct urb_iso	 iso[8];
};

struct fixture {
	struct sim	*sim;
	struct dma_mem	*dma;
	struct usb_hcd	*hcd;
	struct usb_device *udev;
	struct usb_host_endpoint ep0, bulk_in, bulk_out, int_in;
	struct rec	 rec[32];
	int		 nrec;
	struct urb	*queued;	/* what the fake driver holds */
	int		 enqueue_error;
	int		 completions;
	int		 last_status;
	enum sim_ctx	 complete_ctx;
	u16		 hub_req;	/* last hub_control typeReq */
};

static struct fixture *fx;

static void
sink_urb(void *arg, const struct urb_rec *r)
{
	struct fixture	*f = arg;
	struct rec	*x;

	assert_true(f->nrec < 32);
	x = &f->rec[f->nrec++];
	x->r = *r;
	assert_true(r->data_len <= sizeof x->data);
	if (r->data != NULL)
		memcpy(x->data, r->data, r->data_len);
	assert_true(r->niso <= 8);
	if (r->niso != 0)
		memcpy(x->iso, r->iso, r->niso * sizeof *r->iso);
	x->r.data = r->data != NULL ? x->data : NULL;
	x->r.iso = x->iso;
}

/* ------------------------------------------------------------------------
 * A fake controller driver: it queues one URB and lets the test finish
 * it.
 */
static int
fake_enqueue(struct usb_hcd *hcd, struct urb *urb, gfp_t mem_flags)
{
	int	 rc;

	(void)mem_flags;
	if (fx->enqueue_error != 0)
		return fx->enqueue_error;
	if ((rc = usb_hcd_link_urb_to_ep(hcd, urb)) != 0)
		return rc;
	urb->hcpriv = hcd;
	fx->queued = urb;
	return 0;
}

static int
fake_dequeue(struct usb_hcd *hcd, struct urb *urb, int status)
{
	int	 rc;

	if ((rc = usb_hcd_check_unlink_urb(hcd, urb, status)) != 0)
		return rc;
	usb_hcd_unlink_urb_from_ep(hcd, urb);
	fx->queued = NULL;
	usb_hcd_giveback_urb(hcd, urb, -EINPROGRESS);
	return 0;
}

static int
fake_hub_status_data(struct usb_hcd *hcd, char *buf)
{
	(void)hcd;
	buf[0] = 1 << 3;	/* port 3 changed */
	return 1;
}

static int
fake_hub_control(struct usb_hcd *hcd, u16 typeReq, u16 wValue, u16 wIndex,
    char *buf, u16 wLength)
{
	(void)hcd;
	(void)wValue;
	(void)wLength;
	fx->hub_req = typeReq;
	if (typeReq == GetPortStatus && wIndex == 2) {
		put_le32((uint8_t *)buf, 0x00010501);
		return 4;
	}
	return typeReq == SetPortFeature ? 0 : -EPIPE;
}

static const struct hc_driver fake_driver = {
	.description = "fake_hcd",
	.product_desc = "Fake Host Controller",
	.urb_enqueue = fake_enqueue,
	.urb_dequeue = fake_dequeue,
	.hub_status_data = fake_hub_status_data,
	.hub_control = fake_hub_control,
};

/* The fake controller finishes its URB: IN data written to DMA. */
static void
fake_finish(struct fixture *f, const void *in, unsigned actual, int status)
{
	struct urb	*urb = f->queued;
	uint8_t		*p;

	assert_non_null(urb);
	if (in != NULL) {
		p = dma_to_virt(f->dma, urb->transfer_dma_mapped, actual);
		assert_non_null(p);
		memcpy(p, in, actual);
	}
	urb->actual_length = actual;
	f->queued = NULL;
	usb_hcd_unlink_urb_from_ep(f->hcd, urb);
	usb_hcd_giveback_urb(f->hcd, urb, status);
}

static void
ep_init(struct usb_host_endpoint *ep, uint8_t addr, uint8_t type,
    uint16_t maxp, uint8_t interval)
{
	memset(ep, 0, sizeof *ep);
	ep->desc.bLength = USB_DT_ENDPOINT_SIZE;
	ep->desc.bDescriptorType = USB_DT_ENDPOINT;
	ep->desc.bEndpointAddress = addr;
	ep->desc.bmAttributes = type;
	ep->desc.wMaxPacketSize = maxp;
	ep->desc.bInterval = interval;
	INIT_LIST_HEAD(&ep->urb_list);
	ep->enabled = 1;
}

static int
setup(void **state)
{
	struct fixture	*f = calloc(1, sizeof *f);
	struct sim_sink	 sink = { sink_urb, NULL, NULL };

	assert_non_null(f);
	sink.arg = f;
	fx = f;
	f->sim = sim_new(EPOCH, &sink);
	f->sim->now_ns = 2500 * SIM_MS + 1999;	/* ns below a us are cut */
	f->dma = dma_mem_new(2u << 20);
	f->hcd = usb_create_hcd(f->sim, &fake_driver, NULL, NULL, NULL,
	    f->dma, 3);
	assert_non_null(f->hcd);
	/* usb_add_hcd without reset/start/registration */
	f->hcd->self.root_hub = usb_hcd_alloc_root_hub(f->hcd);
	assert_non_null(f->hcd->self.root_hub);
	f->hcd->state = HC_STATE_RUNNING;
	f->hcd->rh_registered = 1;

	f->udev = usb_alloc_dev(f->hcd->self.root_hub, &f->hcd->self, 2);
	assert_non_null(f->udev);
	f->udev->devnum = 7;
	f->udev->speed = USB_SPEED_HIGH;
	f->udev->state = USB_STATE_CONFIGURED;
	ep_init(&f->bulk_in, 0x81, USB_ENDPOINT_XFER_BULK, 512, 0);
	ep_init(&f->bulk_out, 0x02, USB_ENDPOINT_XFER_BULK, 512, 0);
	ep_init(&f->int_in, 0x83, USB_ENDPOINT_XFER_INT, 8, 4);
	*state = f;
	return 0;
}

static int
teardown(void **state)
{
	struct fixture	*f = *state;

	usb_put_dev(f->udev);
	usb_put_dev(f->hcd->self.root_hub);
	usb_put_hcd(f->hcd);
	dma_mem_free(f->dma);
	usb_core_free(f->sim);
	sim_free(f->sim);
	free(f);
	return 0;
}

static void
complete_fn(struct urb *urb)
{
	fx->completions++;
	fx->last_status = urb->status;
	fx->complete_ctx = fx->sim->ctx;
}

static struct urb *
mkurb(struct fixture *f, struct usb_device *udev, unsigned int pipe,
    struct usb_host_endpoint *ep, void *buf, unsigned len)
{
	struct urb	*urb = usb_alloc_urb(0, GFP_KERNEL);

	assert_non_null(urb);
	urb->dev = udev;
	urb->pipe = pipe;
	urb->ep = ep;
	urb->transfer_buffer = buf;
	urb->transfer_buffer_length = len;
	urb->complete = complete_fn;
	urb->context = f;
	return urb;
}

/* Header fields every record of urb shares. */
static void
check_common(const struct urb_rec *r, const struct urb *urb, int type,
    int xfer, int epnum, int devnum)
{
	assert_int_equal(r->id, (uint64_t)(uintptr_t)urb);
	assert_int_equal(r->type, type);
	assert_int_equal(r->xfer_type, xfer);
	assert_int_equal(r->epnum, epnum);
	assert_int_equal(r->devnum, devnum);
	assert_int_equal(r->busnum, 3);
	/* EPOCH + 2.5 s + 1999 ns: microseconds only */
	assert_int_equal(r->ts_sec, 1700000002);
	assert_int_equal(r->ts_usec, 623458);
	assert_int_equal(r->ts_ns, 1700000002LL * 1000000000 + 623458000);
	assert_int_equal(r->len_cap, r->data_len + 16 * r->niso);
}

/* ------------------------------------------------------------------------
 * Control transfers.
 */
static void
test_control_in(void **state)
{
	struct fixture	*f = *state;
	uint8_t		 setup_pkt[8] = { 0x80, 6, 0, 1, 0, 0, 18, 0 };
	uint8_t		 buf[18], dev[18];
	struct urb	*urb;
	struct urb_rec	*s, *c;
	unsigned	 i;

	for (i = 0; i < sizeof dev; i++)
		dev[i] = (uint8_t)(0xa0 + i);
	memset(buf, 0, sizeof buf);
	ep_init(&f->ep0, 0, USB_ENDPOINT_XFER_CONTROL, 64, 0);
	urb = mkurb(f, f->udev, usb_rcvctrlpipe(f->udev, 0), &f->ep0, buf,
	    18);
	urb->setup_packet = setup_pkt;
	assert_int_equal(usb_hcd_submit_urb(urb, GFP_KERNEL), 0);
	assert_int_equal(f->nrec, 1);
	assert_int_equal(urb->use_count, 1);

	s = &f->rec[0].r;
	check_common(s, urb, 'S', XFER_CTRL, 0x80, 7);
	assert_int_equal(s->flag_setup, 0);
	assert_memory_equal(s->setup, setup_pkt, 8);
	assert_int_equal(s->flag_data, '<');
	assert_int_equal(s->status, -115);
	assert_int_equal(s->len_urb, 18);
	assert_int_equal(s->data_len, 0);
	assert_int_equal(s->xfer_flags, URB_DIR_IN);
	assert_int_equal(s->interval, 0);

	/* the setup packet went through DMA memory */
	assert_memory_equal(dma_to_virt(f->dma, urb->setup_dma_mapped, 8),
	    setup_pkt, 8);

	fake_finish(f, dev, 18, 0);
	assert_int_equal(f->completions, 1);
	assert_int_equal(f->last_status, 0);
	assert_int_equal(f->complete_ctx, SIM_IRQ);
	assert_int_equal(f->sim->ctx, SIM_TASK);
	assert_memory_equal(buf, dev, 18);	/* copied back */
	assert_null(urb->hcpriv);
	assert_int_equal(urb->use_count, 0);

	assert_int_equal(f->nrec, 2);
	c = &f->rec[1].r;
	check_common(c, urb, 'C', XFER_CTRL, 0x80, 7);
	assert_int_equal(c->flag_setup, '-');
	assert_int_equal(c->flag_data, 0);
	assert_int_equal(c->status, 0);
	assert_int_equal(c->len_urb, 18);
	assert_int_equal(c->data_len, 18);
	assert_memory_equal(f->rec[1].data, dev, 18);
	/* the mapping flags never show */
	assert_int_equal(c->xfer_flags, URB_DIR_IN);
	assert_int_equal(urb->transfer_flags, URB_DIR_IN);
	usb_free_urb(urb);
}

static void
test_control_out(void **state)
{
	struct fixture	*f = *state;
	uint8_t		 setup_pkt[8] = { 0x21, 9, 0, 2, 0, 0, 1, 0 };
	uint8_t		 buf[1] = { 0x55 };
	uint8_t		 nodata[8] = { 0x00, 5, 9, 0, 0, 0, 0, 0 };
	struct urb	*urb;
	struct urb_rec	*s, *c;

	ep_init(&f->ep0, 0, USB_ENDPOINT_XFER_CONTROL, 64, 0);
	/* SET_REPORT with one byte: data on S, '>' on C */
	urb = mkurb(f, f->udev, usb_sndctrlpipe(f->udev, 0), &f->ep0, buf,
	    1);
	urb->setup_packet = setup_pkt;
	assert_int_equal(usb_hcd_submit_urb(urb, GFP_KERNEL), 0);
	assert_int_equal(*(uint8_t *)dma_to_virt(f->dma,
	    f->queued->transfer_dma_mapped, 1), 0x55);	/* copied in */
	s = &f->rec[0].r;
	check_common(s, urb, 'S', XFER_CTRL, 0x00, 7);
	assert_int_equal(s->flag_setup, 0);
	assert_memory_equal(s->setup, setup_pkt, 8);
	assert_int_equal(s->flag_data, 0);
	assert_int_equal(s->len_urb, 1);
	assert_int_equal(s->data_len, 1);
	assert_int_equal(f->rec[0].data[0], 0x55);
	assert_int_equal(s->xfer_flags, 0);
	fake_finish(f, NULL, 1, 0);
	c = &f->rec[1].r;
	check_common(c, urb, 'C', XFER_CTRL, 0x00, 7);
	assert_int_equal(c->flag_data, '>');
	assert_int_equal(c->len_urb, 1);
	assert_int_equal(c->data_len, 0);
	assert_null(c->data);

	/* no data stage; an IN control pipe with wLength 0 is OUT too */
	f->nrec = 0;
	urb->pipe = usb_rcvctrlpipe(f->udev, 0);
	urb->setup_packet = nodata;
	urb->transfer_buffer_length = 0;
	assert_int_equal(usb_hcd_submit_urb(urb, GFP_KERNEL), 0);
	s = &f->rec[0].r;
	assert_int_equal(s->epnum, 0x00);
	assert_int_equal(s->flag_data, 0);
	assert_int_equal(s->len_urb, 0);
	assert_int_equal(s->data_len, 0);
	fake_finish(f, NULL, 0, -EPIPE);
	c = &f->rec[1].r;
	assert_int_equal(c->status, -EPIPE);
	assert_int_equal(c->flag_data, '>');
	assert_int_equal(f->last_status, -EPIPE);
	usb_free_urb(urb);
}

/* ------------------------------------------------------------------------
 * Bulk and interrupt.
 */
static void
test_bulk(void **state)
{
	struct fixture	*f = *state;
	static uint8_t	 out[3000], in[4096];
	struct urb	*urb;
	struct urb_rec	*s, *c;
	unsigned	 i;

	for (i = 0; i < sizeof out; i++)
		out[i] = (uint8_t)(i * 7);
	urb = mkurb(f, f->udev, usb_sndbulkpipe(f->udev, 2), &f->bulk_out,
	    out, sizeof out);
	urb->transfer_flags = URB_ZERO_PACKET;
	assert_int_equal(usb_hcd_submit_urb(urb, GFP_KERNEL), 0);
	assert_memory_equal(dma_to_virt(f->dma,
	    f->queued->transfer_dma_mapped, sizeof out), out, sizeof out);
	s = &f->rec[0].r;
	check_common(s, urb, 'S', XFER_BULK, 0x02, 7);
	assert_int_equal(s->flag_setup, '-');
	assert_int_equal(s->flag_data, 0);
	assert_int_equal(s->len_urb, 3000);
	assert_int_equal(s->data_len, 3000);
	assert_ptr_equal(s->data, f->rec[0].data);
	assert_int_equal(s->xfer_flags, URB_ZERO_PACKET);
	fake_finish(f, NULL, 3000, 0);
	c = &f->rec[1].r;
	check_common(c, urb, 'C', XFER_BULK, 0x02, 7);
	assert_int_equal(c->flag_data, '>');
	assert_int_equal(c->len_urb, 3000);
	assert_int_equal(c->data_len, 0);
	usb_free_urb(urb);

	/* bulk IN, short with URB_SHORT_NOT_OK: -EREMOTEIO, data kept */
	f->nrec = 0;
	memset(in, 0, sizeof in);
	urb = mkurb(f, f->udev, usb_rcvbulkpipe(f->udev, 1), &f->bulk_in,
	    in, sizeof in);
	urb->transfer_flags = URB_SHORT_NOT_OK;
	assert_int_equal(usb_hcd_submit_urb(urb, GFP_KERNEL), 0);
	s = &f->rec[0].r;
	check_common(s, urb, 'S', XFER_BULK, 0x81, 7);
	assert_int_equal(s->flag_data, '<');
	assert_int_equal(s->len_urb, 4096);
	assert_int_equal(s->data_len, 0);
	assert_int_equal(s->xfer_flags, URB_SHORT_NOT_OK | URB_DIR_IN);
	fake_finish(f, out, 100, 0);
	c = &f->rec[1].r;
	assert_int_equal(c->status, -EREMOTEIO);
	assert_int_equal(c->flag_data, 0);
	assert_int_equal(c->len_urb, 100);
	assert_int_equal(c->data_len, 100);
	assert_memory_equal(f->rec[1].data, out, 100);
	assert_memory_equal(in, out, 100);
	assert_int_equal(f->last_status, -EREMOTEIO);
	usb_free_urb(urb);
}

static void
test_no_transfer_dma_map(void **state)
{
	struct fixture	*f = *state;
	struct urb	*urb;
	dma_addr_t	 dma;
	uint8_t		*buf;

	/* a buffer in DMA memory already (usb_alloc_coherent): used as it
	 * is, no bounce, no copies */
	buf = dma_alloc(f->dma, 1024, 64, &dma);
	assert_non_null(buf);
	memset(buf, 0x11, 1024);
	urb = mkurb(f, f->udev, usb_rcvbulkpipe(f->udev, 1), &f->bulk_in,
	    buf, 1024);
	urb->transfer_dma = dma;
	urb->transfer_flags = URB_NO_TRANSFER_DMA_MAP;
	assert_int_equal(usb_hcd_submit_urb(urb, GFP_KERNEL), 0);
	assert_int_equal(f->queued->transfer_dma_mapped, dma);
	assert_int_equal(f->rec[0].r.xfer_flags, URB_NO_TRANSFER_DMA_MAP |
	    URB_DIR_IN);
	memset(buf, 0x22, 512);		/* the "controller" writes */
	fake_finish(f, NULL, 512, 0);
	assert_int_equal(buf[0], 0x22);
	assert_int_equal(buf[600], 0x11);
	assert_int_equal(f->rec[1].r.data_len, 512);
	assert_int_equal(f->rec[1].data[511], 0x22);
	usb_free_urb(urb);
	dma_free(f->dma, buf);
}

static void
test_interrupt(void **state)
{
	struct fixture	*f = *state;
	uint8_t		 buf[8], report[8] = { 0, 0, 4, 0, 0, 0, 0, 0 };
	struct urb	*urb;
	struct urb_rec	*s, *c;

	urb = mkurb(f, f->udev, usb_rcvintpipe(f->udev, 3), &f->int_in, buf,
	    8);
	usb_fill_int_urb(urb, f->udev, usb_rcvintpipe(f->udev, 3), buf, 8,
	    complete_fn, f, 4);
	urb->ep = &f->int_in;
	assert_int_equal(usb_hcd_submit_urb(urb, GFP_ATOMIC), 0);
	s = &f->rec[0].r;
	check_common(s, urb, 'S', XFER_INT, 0x83, 7);
	assert_int_equal(s->interval, 8);	/* 2^(4-1) uframes */
	assert_int_equal(s->flag_data, '<');
	assert_int_equal(s->flag_setup, '-');
	assert_int_equal(s->start_frame, 0);	/* only ISO has it */
	fake_finish(f, report, 8, 0);
	c = &f->rec[1].r;
	check_common(c, urb, 'C', XFER_INT, 0x83, 7);
	assert_int_equal(c->interval, 8);
	assert_int_equal(c->data_len, 8);
	assert_memory_equal(f->rec[1].data, report, 8);
	assert_memory_equal(buf, report, 8);

	/* asynchronous unlink: -ECONNRESET through the driver */
	f->nrec = 0;
	urb->actual_length = 0;		/* usb_submit_urb's job */
	assert_int_equal(usb_hcd_submit_urb(urb, GFP_ATOMIC), 0);
	assert_int_equal(usb_hcd_unlink_urb(urb, -ECONNRESET), -EINPROGRESS);
	assert_int_equal(f->last_status, -ECONNRESET);
	assert_int_equal(f->rec[1].r.type, 'C');
	assert_int_equal(f->rec[1].r.status, -ECONNRESET);
	assert_int_equal(f->rec[1].r.data_len, 0);
	/* done: nothing left to unlink */
	assert_int_equal(usb_hcd_unlink_urb(urb, -ENOENT), -EIDRM);
	usb_free_urb(urb);
}

/* ------------------------------------------------------------------------
 * Errors.
 */
static void
test_submit_errors(void **state)
{
	struct fixture	*f = *state;
	uint8_t		 buf[64];
	struct urb	*urb;
	struct urb_rec	*e;

	urb = mkurb(f, f->udev, usb_rcvbulkpipe(f->udev, 1), &f->bulk_in, buf,
	    64);
	f->enqueue_error = -ENOSPC;
	assert_int_equal(usb_hcd_submit_urb(urb, GFP_KERNEL), -ENOSPC);
	assert_int_equal(f->nrec, 2);
	assert_int_equal(f->rec[0].r.type, 'S');
	e = &f->rec[1].r;
	check_common(e, urb, 'E', XFER_BULK, 0x81, 7);
	assert_int_equal(e->status, -ENOSPC);
	assert_int_equal(e->flag_setup, '-');
	assert_int_equal(e->flag_data, 'E');
	assert_int_equal(e->len_urb, 0);
	assert_int_equal(e->len_cap, 0);
	assert_int_equal(e->xfer_flags, 0);
	/* no completion, nothing held */
	assert_int_equal(f->completions, 0);
	assert_int_equal(urb->use_count, 0);
	assert_null(urb->hcpriv);

	/* a disabled endpoint: -ENOENT from the driver's link */
	f->enqueue_error = 0;
	f->nrec = 0;
	f->bulk_in.enabled = 0;
	assert_int_equal(usb_hcd_submit_urb(urb, GFP_KERNEL), -ENOENT);
	assert_int_equal(f->rec[1].r.type, 'E');
	assert_int_equal(f->rec[1].r.status, -ENOENT);
	f->bulk_in.enabled = 1;

	/* being killed: -EPERM */
	f->nrec = 0;
	urb->reject = 1;
	assert_int_equal(usb_hcd_submit_urb(urb, GFP_KERNEL), -EPERM);
	assert_int_equal(f->rec[1].r.status, -EPERM);
	urb->reject = 0;

	/* the controller stopped: -ESHUTDOWN */
	f->nrec = 0;
	f->hcd->state = HC_STATE_HALT;
	assert_int_equal(usb_hcd_submit_urb(urb, GFP_KERNEL), -ESHUTDOWN);
	assert_int_equal(f->rec[1].r.type, 'E');
	assert_int_equal(f->rec[1].r.status, -ESHUTDOWN);
	f->hcd->state = HC_STATE_RUNNING;
	assert_int_equal(f->completions, 0);
	usb_free_urb(urb);
}

static void
test_iso_record(void **state)
{
	struct fixture	*f = *state;
	struct urb	*urb = usb_alloc_urb(3, GFP_KERNEL);
	struct usb_host_endpoint iso;
	struct urb_rec	 r;
	struct urb_iso	 desc[URB_ISO_MAX];
	static uint8_t	 buf[3072];
	int		 i;

	ep_init(&iso, 0x85, USB_ENDPOINT_XFER_ISOC, 1024, 1);
	urb->dev = f->udev;
	urb->pipe = usb_rcvisocpipe(f->udev, 5);
	urb->ep = &iso;
	urb->transfer_buffer = buf;
	urb->transfer_buffer_length = sizeof buf;
	urb->transfer_flags = URB_ISO_ASAP | URB_DIR_IN;
	urb->number_of_packets = 3;
	urb->interval = 1;
	urb->start_frame = 1234;
	urb->error_count = 1;
	for (i = 0; i < 3; i++) {
		urb->iso_frame_desc[i].offset = (unsigned)i * 1024;
		urb->iso_frame_desc[i].length = 1024;
		urb->iso_frame_desc[i].status = -EXDEV;
	}
	/* S of an IN: descriptors with requested lengths, no data */
	hcd_mon_build(urb, 'S', -EINPROGRESS, EPOCH, &r, desc);
	assert_int_equal(r.xfer_type, XFER_ISO);
	assert_int_equal(r.epnum, 0x85);
	assert_int_equal(r.ndesc, 3);
	assert_int_equal(r.niso, 3);
	assert_int_equal(r.iso_numdesc, 3);
	assert_int_equal(r.iso_error_count, 1);
	assert_int_equal(r.start_frame, 1234);
	assert_int_equal(r.interval, 1);
	assert_int_equal(r.data_len, 0);
	assert_int_equal(r.len_cap, 48);
	assert_int_equal(r.flag_data, '<');
	assert_int_equal(desc[1].off, 1024);
	assert_int_equal(desc[1].len, 1024);
	assert_int_equal(desc[1].status, -EXDEV);

	/* C of an IN: actual lengths; data up to the furthest frame */
	urb->iso_frame_desc[0].actual_length = 1024;
	urb->iso_frame_desc[1].actual_length = 100;
	urb->iso_frame_desc[2].actual_length = 0;
	urb->iso_frame_desc[0].status = 0;
	urb->iso_frame_desc[1].status = 0;
	urb->actual_length = 1124;
	hcd_mon_build(urb, 'C', 0, EPOCH, &r, desc);
	assert_int_equal(r.len_urb, 1124);
	assert_int_equal(r.data_len, 1024 + 100);
	assert_int_equal(r.len_cap, 48 + 1124);
	assert_int_equal(r.flag_data, 0);
	assert_int_equal(desc[1].len, 100);
	assert_int_equal(desc[2].status, -EXDEV);

	/* no transfer buffer: 'Z', nothing captured */
	urb->transfer_buffer = NULL;
	hcd_mon_build(urb, 'C', 0, EPOCH, &r, desc);
	assert_int_equal(r.flag_data, 'Z');
	assert_int_equal(r.data_len, 0);
	assert_int_equal(r.len_cap, 48);
	usb_free_urb(urb);
}

/* ------------------------------------------------------------------------
 * The root hub.
 */
static int
urb_done(void *arg)
{
	return ((struct urb *)arg)->use_count == 0;
}

/* A control request to the root hub; returns the status. */
static int
rh_request(struct fixture *f, uint8_t type, uint8_t req, uint16_t value,
    uint16_t index, uint8_t *buf, uint16_t len, unsigned *actual)
{
	struct usb_device *rh = f->hcd->self.root_hub;
	uint8_t		 s[8];
	struct urb	*urb;
	int		 st;

	s[0] = type;
	s[1] = req;
	put_le16(s + 2, value);
	put_le16(s + 4, index);
	put_le16(s + 6, len);
	urb = mkurb(f, rh, (type & USB_DIR_IN) ? usb_rcvctrlpipe(rh, 0) :
	    usb_sndctrlpipe(rh, 0), &rh->ep0, buf, len);
	urb->setup_packet = s;
	f->completions = 0;
	assert_int_equal(usb_hcd_submit_urb(urb, GFP_KERNEL), 0);
	/* given back from a softirq, as HCD_BH does */
	assert_int_equal(f->completions, 0);
	assert_int_equal(sim_wait(f->sim, urb_done, urb, 0), 0);
	assert_int_equal(f->completions, 1);
	assert_int_equal(f->complete_ctx, SIM_IRQ);
	*actual = urb->actual_length;
	st = urb->status;
	usb_free_urb(urb);
	return st;
}

static void
test_root_hub_descriptors(void **state)
{
	struct fixture	*f = *state;
	/* Linux 6.1's EHCI root hub, as the real capture shows it */
	static const uint8_t dev[18] = {
		0x12, 0x01, 0x00, 0x02, 0x09, 0x00, 0x00, 0x40, 0x6b, 0x1d,
		0x02, 0x00, 0x01, 0x06, 0x03, 0x02, 0x01, 0x01 };
	static const uint8_t cfg[25] = {
		0x09, 0x02, 0x19, 0x00, 0x01, 0x01, 0x00, 0xe0, 0x00,
		0x09, 0x04, 0x00, 0x00, 0x01, 0x09, 0x00, 0x00, 0x00,
		0x07, 0x05, 0x81, 0x03, 0x04, 0x00, 0x0c };
	uint8_t		 buf[255];
	unsigned	 n;

	assert_int_equal(f->hcd->self.root_hub->devnum, 1);
	assert_int_equal(f->hcd->self.root_hub->speed, USB_SPEED_HIGH);
	assert_string_equal(f->hcd->self.root_hub->devpath, "0");
	assert_string_equal(f->hcd->self.root_hub->name, "usb3");

	assert_int_equal(rh_request(f, 0x80, 6, 0x0100, 0, buf, 18, &n), 0);
	assert_int_equal(n, 18);
	assert_memory_equal(buf, dev, 18);
	assert_int_equal(f->rec[0].r.devnum, 1);
	assert_int_equal(f->rec[1].r.type, 'C');
	assert_memory_equal(f->rec[1].data, dev, 18);

	assert_int_equal(rh_request(f, 0x80, 6, 0x0200, 0, buf, 9, &n), 0);
	assert_int_equal(n, 9);
	assert_int_equal(rh_request(f, 0x80, 6, 0x0200, 0, buf, 255, &n), 0);
	assert_int_equal(n, 25);
	assert_memory_equal(buf, cfg, 25);

	/* strings: LANGIDs, then UTF-16LE of serial, product, maker */
	assert_int_equal(rh_request(f, 0x80, 6, 0x0300, 0, buf, 255, &n), 0);
	assert_int_equal(n, 4);
	assert_int_equal(get_le16(buf + 2), 0x0409);
	assert_int_equal(rh_request(f, 0x80, 6, 0x0302, 0x409, buf, 255, &n),
	    0);
	assert_int_equal(n, 2 + 2 * strlen("Fake Host Controller"));
	assert_int_equal(buf[0], n);
	assert_int_equal(buf[1], USB_DT_STRING);
	assert_int_equal(buf[2], 'F');
	assert_int_equal(buf[3], 0);
	assert_int_equal(rh_request(f, 0x80, 6, 0x0301, 0x409, buf, 255, &n),
	    0);
	assert_int_equal(n, 2 + 2 * strlen("0000:00:06.0"));
	assert_int_equal(buf[2 + 2 * 8], '0');
	assert_int_equal(buf[2 + 2 * 9], '6');
	assert_int_equal(rh_request(f, 0x80, 6, 0x0303, 0x409, buf, 255, &n),
	    0);
	assert_int_equal(n, 2 + 2 * strlen("Linux 6.1.0 fake_hcd"));
	/* truncated to wLength, bLength still whole */
	assert_int_equal(rh_request(f, 0x80, 6, 0x0303, 0x409, buf, 2, &n),
	    0);
	assert_int_equal(n, 2);
	assert_int_equal(buf[0], 2 + 2 * strlen("Linux 6.1.0 fake_hcd"));
	/* unknown string and descriptor type: protocol stall */
	assert_int_equal(rh_request(f, 0x80, 6, 0x0304, 0x409, buf, 255, &n),
	    -EPIPE);
	assert_int_equal(rh_request(f, 0x80, 6, 0x0600, 0, buf, 10, &n),
	    -EPIPE);
	/* GET_STATUS: self powered */
	assert_int_equal(rh_request(f, 0x80, 0, 0, 0, buf, 2, &n), 0);
	assert_int_equal(n, 2);
	assert_int_equal(get_le16(buf), 1);
	/* SET_CONFIGURATION and SET_ADDRESS: accepted, no data */
	assert_int_equal(rh_request(f, 0x00, 9, 1, 0, NULL, 0, &n), 0);
	assert_int_equal(rh_request(f, 0x00, 5, 1, 0, NULL, 0, &n), 0);
	assert_int_equal(n, 0);
}

static void
test_root_hub_class_and_status(void **state)
{
	struct fixture	*f = *state;
	struct usb_device *rh = f->hcd->self.root_hub;
	struct usb_host_endpoint status_ep;
	uint8_t		 buf[4], bitmap[4];
	struct urb	*urb;
	unsigned	 n;

	/* hub-class requests go to the driver */
	assert_int_equal(rh_request(f, 0xa3, 0, 0, 2, buf, 4, &n), 0);
	assert_int_equal(f->hub_req, GetPortStatus);
	assert_int_equal(n, 4);
	assert_int_equal(get_le32(buf), 0x00010501);
	assert_int_equal(rh_request(f, 0x23, 3, 4, 1, NULL, 0, &n), 0);
	assert_int_equal(f->hub_req, SetPortFeature);
	assert_int_equal(rh_request(f, 0x23, 1, 4, 1, NULL, 0, &n), -EPIPE);

	/* the status URB completes when the driver reports a change */
	ep_init(&status_ep, 0x81, USB_ENDPOINT_XFER_INT, 4, 12);
	urb = mkurb(f, rh, usb_rcvintpipe(rh, 1), &status_ep, bitmap, 4);
	urb->interval = 2048;
	f->completions = 0;
	f->nrec = 0;
	assert_int_equal(usb_hcd_submit_urb(urb, GFP_KERNEL), 0);
	assert_ptr_equal(f->hcd->status_urb, urb);
	assert_int_equal(f->rec[0].r.interval, 2048);
	usb_hcd_poll_rh_status(f->hcd);
	assert_null(f->hcd->status_urb);
	assert_int_equal(sim_wait(f->sim, urb_done, urb, 0), 0);
	assert_int_equal(f->completions, 1);
	assert_int_equal(f->last_status, 0);
	assert_int_equal(urb->actual_length, 1);
	assert_int_equal(bitmap[0], 1 << 3);

	/* a change with nobody listening waits for the next status URB */
	usb_hcd_poll_rh_status(f->hcd);
	assert_true(f->hcd->flags & HCD_FLAG_POLL_PENDING);
	assert_int_equal(usb_hcd_submit_urb(urb, GFP_KERNEL), 0);
	assert_int_equal(sim_wait(f->sim, urb_done, urb, 0), 0);
	assert_int_equal(f->completions, 2);
	assert_false(f->hcd->flags & HCD_FLAG_POLL_PENDING);

	/* killing the status URB gives it back with the unlink status */
	assert_int_equal(usb_hcd_submit_urb(urb, GFP_KERNEL), 0);
	assert_int_equal(usb_hcd_unlink_urb(urb, -ENOENT), -EINPROGRESS);
	assert_int_equal(sim_wait(f->sim, urb_done, urb, 0), 0);
	assert_int_equal(f->last_status, -ENOENT);
	usb_free_urb(urb);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_control_in, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_control_out, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_bulk, setup, teardown),
		cmocka_unit_test_setup_teardown(test_no_transfer_dma_map, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_interrupt, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_submit_errors, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_iso_record, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_root_hub_descriptors,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_root_hub_class_and_status,
		    setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
