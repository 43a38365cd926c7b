/*
 * tests/unit/test-urb.c - usb_submit_urb's checks in the order of Linux's
 * (drivers/usb/core/urb.c) with their error codes (on a fake device: none
 * of them reaches the HCD), then unlink, kill, interval clamping and the
 * synchronous helpers on a simulated machine with a loopback device and a
 * keyboard.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <limits.h>
#include <cmocka.h>

#include "machine.h"

/* ------------------------------------------------------------------------
 * The checks, one by one, each with all earlier ones satisfied.
 */
struct fake {
	struct sim	*sim;
	struct usb_bus	 bus;
	struct usb_device *dev;
	struct usb_host_endpoint bulk_in, bulk_out, intr, iso, zero;
	struct urb	*urb;
	uint8_t		 buf[64];
	struct usb_ctrlrequest setup;
};

static void
fake_complete(struct urb *urb)
{
	(void)urb;
	fail_msg("the completion of a refused URB must not run");
}

static void
fake_ep(struct fake *f, struct usb_host_endpoint *ep, uint8_t addr,
    uint8_t type, uint16_t maxp, uint8_t interval)
{
	ep->desc.bLength = USB_DT_ENDPOINT_SIZE;
	ep->desc.bDescriptorType = USB_DT_ENDPOINT;
	ep->desc.bEndpointAddress = addr;
	ep->desc.bmAttributes = type;
	ep->desc.wMaxPacketSize = maxp;
	ep->desc.bInterval = interval;
	INIT_LIST_HEAD(&ep->urb_list);
	usb_enable_endpoint(f->dev, ep);
}

static int
fake_setup(void **state)
{
	struct fake	*f = calloc(1, sizeof *f);

	assert_non_null(f);
	f->sim = sim_new(0, NULL);
	f->bus.busnum = 1;
	f->dev = usb_alloc_dev(NULL, &f->bus, 0);
	f->dev->devnum = 5;
	f->dev->speed = USB_SPEED_HIGH;
	f->dev->state = USB_STATE_CONFIGURED;
	fake_ep(f, &f->bulk_in, 0x81, USB_ENDPOINT_XFER_BULK, 512, 0);
	fake_ep(f, &f->bulk_out, 0x02, USB_ENDPOINT_XFER_BULK, 512, 0);
	fake_ep(f, &f->intr, 0x83, USB_ENDPOINT_XFER_INT, 8, 4);
	fake_ep(f, &f->iso, 0x04, USB_ENDPOINT_XFER_ISOC, 0x0800 | 1024, 1);
	fake_ep(f, &f->zero, 0x85, USB_ENDPOINT_XFER_BULK, 0, 0);
	f->urb = usb_alloc_urb(4, GFP_KERNEL);
	*state = f;
	return 0;
}

static int
fake_teardown(void **state)
{
	struct fake	*f = *state;

	usb_free_urb(f->urb);
	usb_put_dev(f->dev);
	usb_core_free(f->sim);
	sim_free(f->sim);
	free(f);
	return 0;
}

static void
fill_bulk(struct fake *f, unsigned int pipe)
{
	usb_fill_bulk_urb(f->urb, f->dev, pipe, f->buf, sizeof f->buf,
	    fake_complete, f);
}

static void
test_check_1_urb_and_complete(void **state)
{
	struct fake	*f = *state;

	assert_int_equal(usb_submit_urb(NULL, GFP_KERNEL), -EINVAL);
	fill_bulk(f, usb_rcvbulkpipe(f->dev, 1));
	f->urb->complete = NULL;
	/* check 1 comes before check 2: an active URB without complete */
	f->urb->hcpriv = f;
	assert_int_equal(usb_submit_urb(f->urb, GFP_KERNEL), -EINVAL);
}

static void
test_check_2_active(void **state)
{
	struct fake	*f = *state;

	fill_bulk(f, usb_rcvbulkpipe(f->dev, 1));
	f->urb->hcpriv = f;		/* queued at the HCD */
	f->urb->dev = NULL;		/* check 2 before check 3 */
	assert_int_equal(usb_submit_urb(f->urb, GFP_KERNEL), -EBUSY);
	f->urb->hcpriv = NULL;
}

static void
test_check_3_device(void **state)
{
	struct fake	*f = *state;

	fill_bulk(f, usb_rcvbulkpipe(f->dev, 7));	/* no such endpoint */
	f->urb->dev = NULL;
	assert_int_equal(usb_submit_urb(f->urb, GFP_KERNEL), -ENODEV);
	f->urb->dev = f->dev;
	f->dev->state = USB_STATE_ATTACHED;	/* < UNAUTHENTICATED */
	assert_int_equal(usb_submit_urb(f->urb, GFP_KERNEL), -ENODEV);
	f->dev->state = USB_STATE_NOTATTACHED;
	assert_int_equal(usb_submit_urb(f->urb, GFP_KERNEL), -ENODEV);
	f->dev->state = USB_STATE_CONFIGURED;
}

static void
test_check_5_endpoint(void **state)
{
	struct fake	*f = *state;

	fill_bulk(f, usb_rcvbulkpipe(f->dev, 7));
	f->urb->status = 1234;
	f->urb->actual_length = 99;
	assert_int_equal(usb_submit_urb(f->urb, GFP_KERNEL), -ENOENT);
	/* nothing was touched before the endpoint was found */
	assert_null(f->urb->ep);
	assert_int_equal(f->urb->status, 1234);
	/* direction matters: ep 1 exists IN only */
	fill_bulk(f, usb_sndbulkpipe(f->dev, 1));
	assert_int_equal(usb_submit_urb(f->urb, GFP_KERNEL), -ENOENT);
}

static void
test_check_6_setup(void **state)
{
	struct fake	*f = *state;

	usb_fill_control_urb(f->urb, f->dev, usb_rcvctrlpipe(f->dev, 0), NULL,
	    f->buf, 18, fake_complete, f);
	f->urb->actual_length = 99;
	assert_int_equal(usb_submit_urb(f->urb, GFP_KERNEL), -ENOEXEC);
	/* the endpoint, status and length were set before this check */
	assert_ptr_equal(f->urb->ep, &f->dev->ep0);
	assert_int_equal(f->urb->status, -EINPROGRESS);
	assert_int_equal(f->urb->actual_length, 0);
}

static void
test_check_8_configured(void **state)
{
	struct fake	*f = *state;

	f->dev->state = USB_STATE_ADDRESS;
	fill_bulk(f, usb_rcvbulkpipe(f->dev, 1));
	assert_int_equal(usb_submit_urb(f->urb, GFP_KERNEL), -ENODEV);
	/* the direction was cached first */
	assert_true(f->urb->transfer_flags & URB_DIR_IN);
	fill_bulk(f, usb_sndbulkpipe(f->dev, 2));
	assert_int_equal(usb_submit_urb(f->urb, GFP_KERNEL), -ENODEV);
	assert_false(f->urb->transfer_flags & URB_DIR_IN);
	/* control transfers are fine in the Address state: they get to
	 * check 6 (and would go on to the HCD with a setup packet) */
	usb_fill_control_urb(f->urb, f->dev, usb_rcvctrlpipe(f->dev, 0), NULL,
	    f->buf, 18, fake_complete, f);
	assert_int_equal(usb_submit_urb(f->urb, GFP_KERNEL), -ENOEXEC);
	f->dev->state = USB_STATE_CONFIGURED;
}

static void
test_check_9_maxpacket(void **state)
{
	struct fake	*f = *state;

	fill_bulk(f, usb_rcvbulkpipe(f->dev, 5));
	assert_int_equal(usb_submit_urb(f->urb, GFP_KERNEL), -EMSGSIZE);
	assert_int_equal(usb_maxpacket(f->dev, usb_rcvbulkpipe(f->dev, 5)),
	    0);
	assert_int_equal(usb_maxpacket(f->dev, usb_rcvbulkpipe(f->dev, 1)),
	    512);
	assert_int_equal(usb_maxpacket(f->dev, usb_rcvbulkpipe(f->dev, 9)),
	    0);
}

static void
test_check_10_iso(void **state)
{
	struct fake	*f = *state;
	struct urb	*u = f->urb;
	int		 i;

	usb_fill_bulk_urb(u, f->dev, usb_sndisocpipe(f->dev, 4), f->buf,
	    sizeof f->buf, fake_complete, f);
	u->number_of_packets = 0;
	u->interval = 1;
	assert_int_equal(usb_submit_urb(u, GFP_KERNEL), -EINVAL);
	/* high bandwidth: 2 x 1024 per microframe is allowed, not more */
	u->number_of_packets = 4;
	for (i = 0; i < 4; i++) {
		u->iso_frame_desc[i].offset = (unsigned int)i * 16;
		u->iso_frame_desc[i].length = 16;
		u->iso_frame_desc[i].status = 5;
		u->iso_frame_desc[i].actual_length = 7;
	}
	u->iso_frame_desc[2].length = 2049;
	assert_int_equal(usb_submit_urb(u, GFP_KERNEL), -EMSGSIZE);
	u->iso_frame_desc[2].length = 2048;
	/* all packets pass; each is marked not done, then the interval
	 * check (14) refuses */
	u->interval = 0;
	assert_int_equal(usb_submit_urb(u, GFP_KERNEL), -EINVAL);
	for (i = 0; i < 4; i++) {
		assert_int_equal(u->iso_frame_desc[i].status, -EXDEV);
		assert_int_equal(u->iso_frame_desc[i].actual_length, 0);
	}
}

static void
test_check_12_length(void **state)
{
	struct fake	*f = *state;

	fill_bulk(f, usb_rcvbulkpipe(f->dev, 1));
	f->urb->transfer_buffer_length = (unsigned int)INT_MAX + 1u;
	assert_int_equal(usb_submit_urb(f->urb, GFP_KERNEL), -EMSGSIZE);
}

static void
test_check_14_interval(void **state)
{
	struct fake	*f = *state;

	usb_fill_int_urb(f->urb, f->dev, usb_rcvintpipe(f->dev, 3), f->buf, 8,
	    fake_complete, f, 4);
	assert_int_equal(f->urb->interval, 8);	/* 2^(4-1) microframes */
	f->urb->interval = 0;
	assert_int_equal(usb_submit_urb(f->urb, GFP_KERNEL), -EINVAL);
	f->urb->interval = -3;
	assert_int_equal(usb_submit_urb(f->urb, GFP_KERNEL), -EINVAL);
	/* full speed: interrupt intervals are frames, at most 255 */
	f->dev->speed = USB_SPEED_FULL;
	f->urb->interval = 256;
	assert_int_equal(usb_submit_urb(f->urb, GFP_KERNEL), -EINVAL);
	/* an unknown speed cannot schedule anything */
	f->dev->speed = USB_SPEED_UNKNOWN;
	f->urb->interval = 1;
	assert_int_equal(usb_submit_urb(f->urb, GFP_KERNEL), -EINVAL);
	f->dev->speed = USB_SPEED_HIGH;
}

/* Unlink and kill of an URB that was never submitted. */
static void
test_cancel_idle(void **state)
{
	struct fake	*f = *state;

	assert_int_equal(usb_unlink_urb(NULL), -EINVAL);
	fill_bulk(f, usb_rcvbulkpipe(f->dev, 1));
	f->urb->dev = NULL;
	assert_int_equal(usb_unlink_urb(f->urb), -ENODEV);
	f->urb->dev = f->dev;
	f->urb->ep = NULL;
	assert_int_equal(usb_unlink_urb(f->urb), -EIDRM);
	usb_kill_urb(f->urb);		/* returns at once */
	usb_kill_urb(NULL);
	assert_int_equal(f->urb->reject, 0);
}

static void
test_context(void **state)
{
	struct fake	*f = *state;

	assert_false(in_interrupt());
	f->sim->ctx = SIM_IRQ;
	assert_true(in_interrupt());
	f->sim->ctx = SIM_SOFTIRQ;
	assert_true(in_interrupt());
	f->sim->ctx = SIM_TASK;
	msleep(20);
	assert_int_equal(f->sim->now_ns, 20 * SIM_MS);
}

/* ------------------------------------------------------------------------
 * On a machine: loopback on port 1, keyboard on port 2.
 */
struct done {
	int		 count;
	int		 status;
	int		 irq;		/* ran in interrupt context */
	int		 resubmit;	/* resubmit from the completion ... */
	int		 resubmit_rc;	/* ... and what it returned */
	unsigned int	 actual;
};

static void
done_complete(struct urb *urb)
{
	struct done	*d = urb->context;

	d->count++;
	d->status = urb->status;
	d->actual = urb->actual_length;
	d->irq = in_interrupt();
	if (d->resubmit) {
		d->resubmit = 0;
		d->resubmit_rc = usb_submit_urb(urb, GFP_ATOMIC);
	}
}

static int
m_setup(void **state)
{
	struct machine	*m = machine_new();

	assert_non_null(m);
	assert_int_equal(machine_plug(m, 1, "loopback"), 0);
	assert_int_equal(machine_plug(m, 2, "keyboard"), 0);
	machine_run(m, 3000);
	assert_non_null(machine_device(m, 1));
	assert_int_equal(machine_device(m, 1)->state, USB_STATE_CONFIGURED);
	assert_non_null(machine_device(m, 2));
	*state = m;
	return 0;
}

static int
m_teardown(void **state)
{
	machine_free(*state);
	return 0;
}

/* The records of URB id, from record index from on. */
static size_t
count_records(struct machine *m, size_t from, const struct urb *u,
    uint8_t type, int status)
{
	size_t	 i, n = 0;

	for (i = from; i < m->nrec; i++) {
		if (m->rec[i].id == (uintptr_t)u && m->rec[i].type == type &&
		    (type == 'S' || m->rec[i].status == status))
			n++;
	}
	return n;
}

static void
test_unlink(void **state)
{
	struct machine	*m = *state;
	struct usb_device *dev = machine_device(m, 1);
	struct done	 d = { 0 };
	uint8_t		 buf[512];
	struct urb	*u = usb_alloc_urb(0, GFP_KERNEL);
	size_t		 from = m->nrec;

	usb_fill_bulk_urb(u, dev, usb_rcvbulkpipe(dev, 1), buf, sizeof buf,
	    done_complete, &d);
	assert_int_equal(usb_submit_urb(u, GFP_KERNEL), 0);
	assert_int_equal(usb_submit_urb(u, GFP_KERNEL), -EBUSY);
	machine_run(m, 10);		/* the loopback NAKs: still queued */
	assert_int_equal(d.count, 0);
	assert_int_equal(usb_unlink_urb(u), -EINPROGRESS);
	assert_int_equal(usb_unlink_urb(u), -EBUSY);
	machine_run(m, 10);
	assert_int_equal(d.count, 1);
	assert_int_equal(d.status, -ECONNRESET);
	assert_true(d.irq);
	assert_int_equal(usb_unlink_urb(u), -EIDRM);
	assert_int_equal(count_records(m, from, u, 'S', 0), 1);
	assert_int_equal(count_records(m, from, u, 'C', -ECONNRESET), 1);
	usb_free_urb(u);
}

static void
test_kill(void **state)
{
	struct machine	*m = *state;
	struct usb_device *dev = machine_device(m, 1);
	struct done	 d = { 0 };
	uint8_t		 buf[512];
	struct urb	*u = usb_alloc_urb(0, GFP_KERNEL);
	size_t		 from = m->nrec;

	usb_fill_bulk_urb(u, dev, usb_rcvbulkpipe(dev, 1), buf, sizeof buf,
	    done_complete, &d);
	assert_int_equal(usb_submit_urb(u, GFP_KERNEL), 0);
	machine_run(m, 5);
	/* the completion tries to resubmit: refused while being killed */
	d.resubmit = 1;
	usb_kill_urb(u);
	assert_int_equal(d.count, 1);
	assert_int_equal(d.status, -ENOENT);
	assert_int_equal(d.resubmit_rc, -EPERM);
	assert_int_equal(u->use_count, 0);
	assert_int_equal(u->reject, 0);
	assert_int_equal(count_records(m, from, u, 'C', -ENOENT), 1);
	/* after the kill it can be used again */
	assert_int_equal(usb_submit_urb(u, GFP_KERNEL), 0);
	usb_kill_urb(u);
	assert_int_equal(d.count, 2);
	usb_kill_urb(u);		/* idle: nothing happens */
	assert_int_equal(d.count, 2);
	usb_free_urb(u);
}

static void
test_interval_clamp(void **state)
{
	struct machine	*m = *state;
	struct usb_device *kbd = machine_device(m, 2);
	struct done	 d = { 0 };
	uint8_t		 buf[8];
	struct urb	*u = usb_alloc_urb(0, GFP_KERNEL);

	/* bInterval 7 of a high-speed keyboard: 64 microframes */
	usb_fill_int_urb(u, kbd, usb_rcvintpipe(kbd, 1), buf, sizeof buf,
	    done_complete, &d, 7);
	assert_int_equal(u->interval, 64);
	u->interval = 100;		/* rounded down to a power of two */
	assert_int_equal(usb_submit_urb(u, GFP_KERNEL), 0);
	assert_int_equal(u->interval, 64);
	usb_kill_urb(u);
	u->interval = 10000;		/* at most 1024 frames */
	assert_int_equal(usb_submit_urb(u, GFP_KERNEL), 0);
	assert_int_equal(u->interval, 8192);
	usb_kill_urb(u);
	assert_int_equal(d.count, 2);
	usb_free_urb(u);
}

static void
test_bulk_msg(void **state)
{
	struct machine	*m = *state;
	struct usb_device *dev = machine_device(m, 1);
	uint8_t		 out[700], in[1024];
	int		 actual = -1, i;
	size_t		 from;

	for (i = 0; i < (int)sizeof out; i++)
		out[i] = (uint8_t)(i * 7);
	assert_int_equal(usb_bulk_msg(dev, usb_sndbulkpipe(dev, 2), out,
	    sizeof out, &actual, 1000), 0);
	assert_int_equal(actual, sizeof out);
	/* the loopback returns at most 512 bytes a packet: short read */
	memset(in, 0, sizeof in);
	assert_int_equal(usb_bulk_msg(dev, usb_rcvbulkpipe(dev, 1), in,
	    512, &actual, 1000), 0);
	assert_int_equal(actual, 512);
	assert_int_equal(usb_bulk_msg(dev, usb_rcvbulkpipe(dev, 1), in + 512,
	    512, &actual, 1000), 0);
	assert_int_equal(actual, sizeof out - 512);
	assert_memory_equal(in, out, sizeof out);

	/* nothing left: the 50 ms timeout kills the URB (-ENOENT in the
	 * record) and the caller sees -ETIMEDOUT */
	from = m->nrec;
	assert_int_equal(usb_bulk_msg(dev, usb_rcvbulkpipe(dev, 1), in, 512,
	    &actual, 50), -ETIMEDOUT);
	assert_int_equal(actual, 0);
	assert_int_equal(m->rec[m->nrec - 1].type, 'C');
	assert_int_equal(m->rec[m->nrec - 1].status, -ENOENT);
	assert_true(m->rec[m->nrec - 1].ts_ns - m->rec[from].ts_ns >=
	    50 * (int64_t)SIM_MS);

	assert_int_equal(usb_bulk_msg(dev, usb_rcvbulkpipe(dev, 9), in, 512,
	    &actual, 50), -EINVAL);
	assert_int_equal(usb_bulk_msg(dev, usb_rcvbulkpipe(dev, 1), in, -1,
	    &actual, 50), -EINVAL);
}

static void
test_control_msg(void **state)
{
	struct machine	*m = *state;
	struct usb_device *dev = machine_device(m, 1);
	uint8_t		 st[2];
	char		 s[64];

	assert_int_equal(usb_control_msg(dev, usb_rcvctrlpipe(dev, 0),
	    USB_REQ_GET_STATUS, USB_DIR_IN, 0, 0, st, 2,
	    USB_CTRL_GET_TIMEOUT), 2);
	assert_int_equal(usb_string(dev, 2, s, sizeof s), 13);
	assert_string_equal(s, "Bulk Loopback");
	assert_int_equal(usb_string(dev, 2, s, 5), 4);	/* cut, terminated */
	assert_string_equal(s, "Bulk");
	assert_int_equal(usb_string(dev, 0, s, sizeof s), -EINVAL);
	/* a vendor request the model does not know: STALL */
	assert_int_equal(usb_control_msg(dev, usb_sndctrlpipe(dev, 0), 0x42,
	    USB_TYPE_VENDOR, 0, 0, NULL, 0, USB_CTRL_SET_TIMEOUT), -EPIPE);
	assert_int_equal(usb_clear_halt(dev, usb_rcvbulkpipe(dev, 1)), 0);
	assert_int_equal(usb_set_interface(dev, 0, 0), 0);
	assert_non_null(dev->ep_in[1]);
	assert_true(dev->ep_in[1]->enabled);
	assert_int_equal(usb_set_interface(dev, 0, 3), -EINVAL);
	assert_int_equal(usb_set_interface(dev, 4, 0), -EINVAL);
}

/* A halted endpoint: -EPIPE until usb_clear_halt, which sends
 * CLEAR_FEATURE(ENDPOINT_HALT) and starts the pipe over at DATA0. */
static void
test_stall_clear_halt(void **state)
{
	struct machine	*m = *state;
	struct usb_device *dev = machine_device(m, 1);
	struct usb_devmodel *dm = emu_ehci_port_device(m->emu, 1);
	uint8_t		 out[100], in[100];
	const struct mrec *x = NULL;
	int		 actual, i;
	size_t		 k;

	assert_non_null(dm);
	dm_inject(dm, DM_FAULT_STALL, 0x81, 0);
	assert_int_equal(usb_bulk_msg(dev, usb_rcvbulkpipe(dev, 1), in,
	    sizeof in, &actual, 1000), -EPIPE);
	assert_int_equal(usb_bulk_msg(dev, usb_rcvbulkpipe(dev, 1), in,
	    sizeof in, &actual, 1000), -EPIPE);
	assert_int_equal(usb_clear_halt(dev, usb_rcvbulkpipe(dev, 1)), 0);
	for (k = m->nrec; k-- > 0; ) {
		x = &m->rec[k];
		if (x->type == 'S' && x->xfer_type == XFER_CTRL)
			break;
	}
	assert_non_null(x);
	assert_int_equal(x->setup[0], USB_RECIP_ENDPOINT);
	assert_int_equal(x->setup[1], USB_REQ_CLEAR_FEATURE);
	assert_int_equal(get_le16(x->setup + 2), USB_ENDPOINT_HALT);
	assert_int_equal(get_le16(x->setup + 4), 0x81);
	/* odd and even packet counts both ways: the toggles stay in step */
	for (i = 0; i < 3; i++) {
		memset(out, 'a' + i, sizeof out);
		assert_int_equal(usb_bulk_msg(dev, usb_sndbulkpipe(dev, 2),
		    out, sizeof out, &actual, 1000), 0);
		memset(in, 0, sizeof in);
		assert_int_equal(usb_bulk_msg(dev, usb_rcvbulkpipe(dev, 1), in,
		    sizeof in, &actual, 1000), 0);
		assert_int_equal(actual, sizeof in);
		assert_memory_equal(in, out, sizeof out);
	}
}

/*
 * bConfigurationValue 1 -> 0 -> 1, as the capture's phase 5 does to the
 * keyboard: the interrupt URB queued on the old configuration comes back
 * -ESHUTDOWN (usbmon-0u.txt line 1413), the endpoints leave the maps,
 * and new interfaces are made.
 */
static void
test_set_configuration(void **state)
{
	struct machine	*m = *state;
	struct usb_device *kbd = machine_device(m, 2);
	struct done	 d = { 0 };
	uint8_t		 buf[8];
	struct urb	*u = usb_alloc_urb(0, GFP_KERNEL);
	size_t		 from = m->nrec, i, n = 0;
	uint16_t	 values[2];

	usb_fill_int_urb(u, kbd, usb_rcvintpipe(kbd, 1), buf, sizeof buf,
	    done_complete, &d, 7);
	assert_int_equal(usb_submit_urb(u, GFP_KERNEL), 0);
	machine_run(m, 20);
	assert_int_equal(d.count, 0);

	assert_int_equal(usb_set_configuration(kbd, 0), 0);
	assert_int_equal(d.count, 1);
	assert_int_equal(d.status, -ESHUTDOWN);
	assert_null(kbd->actconfig);
	assert_int_equal(kbd->state, USB_STATE_ADDRESS);
	assert_null(kbd->ep_in[1]);
	assert_ptr_equal(kbd->ep_in[0], &kbd->ep0);
	assert_int_equal(usb_submit_urb(u, GFP_KERNEL), -ENOENT);
	assert_int_equal(usb_set_interface(kbd, 0, 0), -EINVAL);

	assert_int_equal(usb_set_configuration(kbd, 7), -EINVAL);
	assert_int_equal(usb_set_configuration(kbd, 1), 0);
	assert_int_equal(kbd->state, USB_STATE_CONFIGURED);
	assert_non_null(kbd->actconfig);
	assert_string_equal(kbd->actconfig->interface[0]->name, "1-2:1.0");
	assert_non_null(kbd->ep_in[1]);
	assert_true(kbd->ep_in[1]->enabled);
	for (i = from; i < m->nrec; i++) {
		if (m->rec[i].type == 'S' && m->rec[i].xfer_type == XFER_CTRL &&
		    m->rec[i].setup[1] == USB_REQ_SET_CONFIGURATION && n < 2)
			values[n++] = get_le16(m->rec[i].setup + 2);
	}
	assert_int_equal(n, 2);
	assert_int_equal(values[0], 0);
	assert_int_equal(values[1], 1);

	/* the URB works on the new configuration */
	assert_int_equal(usb_submit_urb(u, GFP_KERNEL), 0);
	usb_kill_urb(u);
	assert_int_equal(d.status, -ENOENT);
	usb_free_urb(u);
}

/* A completion handler that sleeps is reported, and does not sleep. */
static void
sleepy_complete(struct urb *urb)
{
	struct done	*d = urb->context;

	msleep(100);
	d->count++;
}

static void
test_sleep_in_irq(void **state)
{
	struct machine	*m = *state;
	struct usb_device *dev = machine_device(m, 1);
	struct done	 d = { 0 };
	uint8_t		 st[2];
	struct urb	*u = usb_alloc_urb(0, GFP_KERNEL);
	struct usb_ctrlrequest setup = {
		.bRequestType = USB_DIR_IN, .bRequest = USB_REQ_GET_STATUS,
		.wLength = 2,
	};
	size_t		 rules = m->nrules;

	usb_fill_control_urb(u, dev, usb_rcvctrlpipe(dev, 0),
	    (unsigned char *)&setup, st, 2, sleepy_complete, &d);
	assert_int_equal(usb_submit_urb(u, GFP_KERNEL), 0);
	machine_run(m, 5);
	assert_int_equal(d.count, 1);
	assert_int_equal(m->nrules, rules + 1);
	assert_string_equal(m->last_rule, "sleep-in-atomic");
	usb_free_urb(u);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
#define F(t)	cmocka_unit_test_setup_teardown(t, fake_setup, fake_teardown)
		F(test_check_1_urb_and_complete),
		F(test_check_2_active),
		F(test_check_3_device),
		F(test_check_5_endpoint),
		F(test_check_6_setup),
		F(test_check_8_configured),
		F(test_check_9_maxpacket),
		F(test_check_10_iso),
		F(test_check_12_length),
		F(test_check_14_interval),
		F(test_cancel_idle),
		F(test_context),
#undef F
#define M(t)	cmocka_unit_test_setup_teardown(t, m_setup, m_teardown)
		M(test_unlink),
		M(test_kill),
		M(test_interval_clamp),
		M(test_bulk_msg),
		M(test_control_msg),
		M(test_stall_clear_halt),
		M(test_set_configuration),
		M(test_sleep_in_irq),
#undef M
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
