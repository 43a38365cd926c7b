/*
 * tests/unit/test-ctx.c - the execution context drivers run in (core/ctx.c)
 * and the URB rules (core/urb.c): spinlocks make atomic context, an
 * allocation that may sleep there or in a completion handler is reported
 * and GFP_ATOMIC is not, submitting an URB in flight is reported (-EBUSY
 * modern, -EINVAL 2.6.0), a completion that resubmits after an unlink is
 * reported once, a submit after the driver's disconnect is reported, and
 * the driver events of an URB carry the id of its usbmon records.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "machine.h"

struct tev {
	enum drv_kind	 kind;
	uint64_t	 urb_id;
	uint8_t		 ep;
	uint32_t	 length;
	uint32_t	 mem_flags;
	uint32_t	 context;
	int		 result;
	uint64_t	 seq;
	char		 rule[48];
	char		 driver[32];
	char		 func[32];
	char		 text[160];
};

static struct tev	 evs[512];
static size_t		 nevs;

static void
tev_sink(void *arg, const struct drv_event *ev)
{
	struct machine	*m = arg;
	struct tev	*t;

	if (nevs < sizeof evs / sizeof evs[0]) {
		t = &evs[nevs++];
		memset(t, 0, sizeof *t);
		t->kind = ev->kind;
		t->urb_id = ev->urb_id;
		t->ep = ev->ep;
		t->length = ev->length;
		t->mem_flags = ev->mem_flags;
		t->context = ev->context;
		t->result = ev->result;
		t->seq = m->seq;
		snprintf(t->rule, sizeof t->rule, "%s", ev->rule ? ev->rule :
		    "");
		snprintf(t->driver, sizeof t->driver, "%s", ev->driver ?
		    ev->driver : "");
		snprintf(t->func, sizeof t->func, "%s", ev->func ? ev->func :
		    "");
		snprintf(t->text, sizeof t->text, "%s", ev->text ? ev->text :
		    "");
	}
	machine_event(arg, ev);
}

/* How many events of kind (and rule, if not NULL) since index from. */
static size_t
tev_count(size_t from, enum drv_kind kind, const char *rule)
{
	size_t	 i, n = 0;

	for (i = from; i < nevs; i++) {
		if (evs[i].kind == kind && (rule == NULL ||
		    strcmp(evs[i].rule, rule) == 0))
			n++;
	}
	return n;
}

static struct tev *
tev_last(enum drv_kind kind)
{
	size_t	 i;

	for (i = nevs; i > 0; i--) {
		if (evs[i - 1].kind == kind)
			return &evs[i - 1];
	}
	return NULL;
}

static int
m_setup(void **state)
{
	struct machine	*m = machine_new();

	assert_non_null(m);
	m->sim->sink.event = tev_sink;
	nevs = 0;
	assert_int_equal(machine_plug(m, 1, "loopback"), 0);
	machine_run(m, 3000);
	assert_non_null(machine_device(m, 1));
	assert_int_equal(machine_device(m, 1)->state, USB_STATE_CONFIGURED);
	*state = m;
	return 0;
}

static int
m_teardown(void **state)
{
	machine_free(*state);
	return 0;
}

/* ------------------------------------------------------------------------
 * Spinlocks and allocations.
 */
static void
test_spinlock(void **state)
{
	struct machine	*m = *state;
	spinlock_t	 lock;
	unsigned long	 flags;
	size_t		 from = nevs;
	void		*p;

	spin_lock_init(&lock);
	core_enter_driver("tdrv", "write");
	assert_int_equal(core_ctx_now(), SIM_TASK);
	p = kmalloc(16, GFP_KERNEL);		/* fine in task context */
	kfree(p);
	assert_int_equal(tev_count(from, DRV_RULE, NULL), 0);

	spin_lock_irqsave(&lock, flags);
	assert_int_equal(m->sim->atomic, 1);
	assert_int_equal(core_ctx_now(), CORE_CTX_ATOMIC);
	p = kmalloc(16, GFP_ATOMIC);
	kfree(p);
	assert_int_equal(tev_count(from, DRV_RULE, NULL), 0);
	p = kzalloc(16, GFP_KERNEL);
	kfree(p);
	assert_int_equal(tev_count(from, DRV_RULE, "gfp-kernel-in-atomic"),
	    1);
	assert_string_equal(tev_last(DRV_RULE)->driver, "tdrv");
	assert_string_equal(tev_last(DRV_RULE)->func, "write");
	assert_int_equal(tev_last(DRV_RULE)->context, CORE_CTX_ATOMIC);
	msleep(1);				/* and sleeping is reported */
	assert_int_equal(tev_count(from, DRV_RULE, "sleep-in-atomic"), 1);
	assert_string_equal(tev_last(DRV_RULE)->driver, "tdrv");
	spin_unlock_irqrestore(&lock, flags);
	assert_int_equal(m->sim->atomic, 0);
	assert_int_equal(core_ctx_now(), SIM_TASK);

	spin_unlock(&lock);			/* not held */
	assert_int_equal(tev_count(from, DRV_RULE, "spin-unlock-unlocked"),
	    1);
	assert_int_equal(m->sim->atomic, 0);
	core_leave_driver();
}

static void
test_dev_printk(void **state)
{
	struct machine	*m = *state;
	struct usb_interface *intf = machine_device(m, 1)->actconfig->
	    interface[0];

	core_enter_driver("tdrv", "probe");
	dev_info(intf, "hello %d", 42);
	core_leave_driver();
	assert_int_equal(tev_last(DRV_LOG)->kind, DRV_LOG);
	assert_string_equal(tev_last(DRV_LOG)->driver, "tdrv");
	assert_string_equal(tev_last(DRV_LOG)->text, "tdrv 1-1:1.0: hello 42");
}

/* ------------------------------------------------------------------------
 * URBs of a driver.
 */
struct done {
	int		 count;
	int		 status;
	int		 resubmit;	/* resubmissions left */
	int		 resubmit_rc;
	gfp_t		 alloc;		/* kmalloc with these in complete() */
	char		 driver[32];
	char		 func[32];
};

static void
t_complete(struct urb *urb)
{
	struct done	*d = urb->context;
	const char	*driver, *func;

	d->count++;
	d->status = urb->status;
	core_current_driver(&driver, &func);
	snprintf(d->driver, sizeof d->driver, "%s", driver ? driver : "");
	snprintf(d->func, sizeof d->func, "%s", func ? func : "");
	if (d->alloc != 0)
		kfree(kmalloc(8, d->alloc));
	if (d->resubmit > 0) {
		d->resubmit--;
		d->resubmit_rc = usb_submit_urb(urb, GFP_ATOMIC);
	}
}

static struct urb *
out_urb(struct machine *m, void *buf, int len, struct done *d)
{
	struct usb_device *dev = machine_device(m, 1);
	struct urb	*u = usb_alloc_urb(0, GFP_KERNEL);

	usb_fill_bulk_urb(u, dev, usb_sndbulkpipe(dev, 2), buf, len,
	    t_complete, d);
	return u;
}

static int
submit_as(const char *driver, struct urb *u, gfp_t flags)
{
	int	 rc;

	core_enter_driver(driver, "write");
	rc = usb_submit_urb(u, flags);
	core_leave_driver();
	return rc;
}

/* The index of the record of type for urb u from record from, or -1. */
static long
rec_of(struct machine *m, size_t from, const struct urb *u, uint8_t type)
{
	size_t	 i;

	for (i = from; i < m->nrec; i++) {
		if (m->rec[i].id == (uintptr_t)u && m->rec[i].type == type)
			return (long)i;
	}
	return -1;
}

static void
test_submit_ids(void **state)
{
	struct machine	*m = *state;
	struct done	 d = { 0 };
	uint8_t		 buf[8] = "abcdefg";
	struct urb	*u = out_urb(m, buf, sizeof buf, &d);
	size_t		 from = nevs, rfrom = m->nrec;
	struct tev	*t;
	long		 si, ci;

	assert_int_equal(submit_as("tdrv", u, GFP_KERNEL), 0);
	t = tev_last(DRV_SUBMIT);
	assert_non_null(t);
	assert_int_equal(tev_count(from, DRV_SUBMIT, NULL), 1);
	assert_true((si = rec_of(m, rfrom, u, 'S')) >= 0);
	/* the event's URB id is the usbmon record's */
	assert_int_equal(t->urb_id, m->rec[si].id);
	assert_int_equal(t->urb_id, (uintptr_t)u);
	assert_int_equal(t->ep, 0x02);
	assert_int_equal(t->length, 8);
	assert_int_equal(t->mem_flags, GFP_KERNEL);
	assert_int_equal(t->context, SIM_TASK);
	assert_int_equal(t->result, 0);
	assert_string_equal(t->driver, "tdrv");
	assert_string_equal(t->func, "write");
	assert_true(t->seq > m->rec[si].seq);

	machine_run(m, 10);
	assert_int_equal(d.count, 1);
	assert_int_equal(d.status, 0);
	/* the completion ran in the driver's name, after DRV_GIVEBACK */
	assert_string_equal(d.driver, "tdrv");
	assert_string_equal(d.func, "complete");
	t = tev_last(DRV_GIVEBACK);
	assert_non_null(t);
	assert_true((ci = rec_of(m, rfrom, u, 'C')) >= 0);
	assert_int_equal(t->urb_id, m->rec[ci].id);
	assert_int_equal(t->result, 0);
	assert_int_equal(t->length, 8);
	assert_int_equal(t->context, SIM_IRQ);
	assert_string_equal(t->driver, "tdrv");
	assert_int_equal(tev_count(from, DRV_RULE, NULL), 0);

	/* the core's own URBs make no driver events */
	from = nevs;
	assert_int_equal(usb_control_msg(machine_device(m, 1),
	    usb_rcvctrlpipe(machine_device(m, 1), 0), USB_REQ_GET_STATUS,
	    USB_DIR_IN, 0, 0, buf, 2, 1000), 2);
	assert_int_equal(tev_count(from, DRV_SUBMIT, NULL), 0);
	assert_int_equal(tev_count(from, DRV_GIVEBACK, NULL), 0);
	usb_free_urb(u);
}

static void
test_gfp_in_completion(void **state)
{
	struct machine	*m = *state;
	struct done	 d = { 0 };
	uint8_t		 buf[8] = { 0 };
	struct urb	*u = out_urb(m, buf, sizeof buf, &d);
	size_t		 from = nevs;
	struct tev	*t;

	d.alloc = GFP_ATOMIC;
	assert_int_equal(submit_as("tdrv", u, GFP_KERNEL), 0);
	machine_run(m, 10);
	assert_int_equal(d.count, 1);
	assert_int_equal(tev_count(from, DRV_RULE, NULL), 0);

	d.alloc = GFP_KERNEL;
	assert_int_equal(submit_as("tdrv", u, GFP_KERNEL), 0);
	machine_run(m, 10);
	assert_int_equal(d.count, 2);
	assert_int_equal(tev_count(from, DRV_RULE, "gfp-kernel-in-atomic"),
	    1);
	t = tev_last(DRV_RULE);
	assert_string_equal(t->driver, "tdrv");
	assert_string_equal(t->func, "complete");
	assert_int_equal(t->context, SIM_IRQ);

	/* usb_submit_urb(GFP_KERNEL) from the completion too */
	d.alloc = 0;
	d.resubmit = 1;
	from = nevs;
	assert_int_equal(submit_as("tdrv", u, GFP_KERNEL), 0);
	machine_run(m, 10);
	assert_int_equal(d.resubmit_rc, 0);
	assert_int_equal(tev_count(from, DRV_RULE, NULL), 0);	/* ATOMIC */
	machine_run(m, 10);
	assert_int_equal(d.count, 4);
	usb_free_urb(u);
}

static void
test_submit_active(void **state)
{
	struct machine	*m = *state;
	struct done	 d = { 0 };
	uint8_t		 buf[8] = { 0 };
	struct urb	*u = out_urb(m, buf, sizeof buf, &d);
	size_t		 from = nevs, rfrom = m->nrec;

	assert_int_equal(submit_as("tdrv", u, GFP_KERNEL), 0);
	assert_int_equal(submit_as("tdrv", u, GFP_KERNEL), -EBUSY);
	assert_int_equal(tev_count(from, DRV_RULE, "submit-active-urb"), 1);
	assert_int_equal(tev_last(DRV_SUBMIT)->result, -EBUSY);
	core_set_profile(m->sim, CORE_PROFILE_260);
	assert_int_equal(submit_as("tdrv", u, GFP_KERNEL), -EINVAL);
	assert_int_equal(tev_count(from, DRV_RULE, "submit-active-urb"), 2);
	core_set_profile(m->sim, CORE_PROFILE_MODERN);
	/* one 'S', the refused ones never reached the HCD */
	assert_true(rec_of(m, rfrom, u, 'S') >= 0);
	assert_true(rec_of(m, (size_t)rec_of(m, rfrom, u, 'S') + 1, u, 'S') <
	    0);
	machine_run(m, 10);
	assert_int_equal(d.count, 1);
	usb_free_urb(u);
}

static void
test_resubmit_after_unlink(void **state)
{
	struct machine	*m = *state;
	struct usb_device *dev = machine_device(m, 1);
	struct done	 d = { 0 };
	uint8_t		 buf[64];
	struct urb	*u = usb_alloc_urb(0, GFP_KERNEL);
	size_t		 from = nevs;
	int		 i;

	/* an IN read with nothing to read: it stays queued */
	usb_fill_bulk_urb(u, dev, usb_rcvbulkpipe(dev, 1), buf, sizeof buf,
	    t_complete, &d);
	assert_int_equal(submit_as("tdrv", u, GFP_KERNEL), 0);
	machine_run(m, 5);
	assert_int_equal(d.count, 0);
	d.resubmit = 1;
	core_enter_driver("tdrv", "release");
	assert_int_equal(usb_unlink_urb(u), -EINPROGRESS);
	core_leave_driver();
	assert_int_equal(tev_last(DRV_UNLINK)->result, -EINPROGRESS);
	assert_int_equal(tev_last(DRV_UNLINK)->urb_id, (uintptr_t)u);
	machine_run(m, 5);
	assert_int_equal(d.count, 1);
	assert_int_equal(d.status, -ECONNRESET);
	assert_int_equal(d.resubmit_rc, 0);
	assert_int_equal(tev_count(from, DRV_RULE, "resubmit-on-shutdown"),
	    1);
	assert_string_equal(tev_last(DRV_RULE)->func, "complete");

	/* once per URB */
	d.resubmit = 1;
	assert_int_equal(usb_unlink_urb(u), -EINPROGRESS);
	machine_run(m, 5);
	assert_int_equal(d.count, 2);
	assert_int_equal(tev_count(from, DRV_RULE, "resubmit-on-shutdown"),
	    1);

	/* a handler that always resubmits is cut off after 8 in a row */
	for (i = 3; i <= 9; i++) {
		d.resubmit = 1;
		assert_int_equal(usb_unlink_urb(u), -EINPROGRESS);
		machine_run(m, 5);
		assert_int_equal(d.count, i);
		assert_int_equal(d.resubmit_rc, i <= 8 ? 0 : -ESHUTDOWN);
	}
	assert_int_equal(tev_last(DRV_SUBMIT)->result, -ESHUTDOWN);

	assert_int_equal(submit_as("tdrv", u, GFP_KERNEL), 0);
	core_enter_driver("tdrv", "disconnect");
	usb_kill_urb(u);
	core_leave_driver();
	assert_int_equal(d.status, -ENOENT);
	assert_int_equal(tev_last(DRV_KILL)->urb_id, (uintptr_t)u);
	assert_string_equal(tev_last(DRV_KILL)->func, "disconnect");
	usb_free_urb(u);
}

/* A driver bound to the loopback, unbound by usb_deregister. */
static const struct usb_device_id t_ids[] = {
	{ USB_DEVICE(0xfff0, 0xfff0) },
	{ 0 }
};

static int
t_probe(struct usb_interface *intf, const struct usb_device_id *id)
{
	(void)intf;
	(void)id;
	return 0;
}

static void
t_disconnect(struct usb_interface *intf)
{
	(void)intf;
}

static struct usb_driver t_driver = {
	.name = "tdrv",
	.probe = t_probe,
	.disconnect = t_disconnect,
	.id_table = t_ids,
};

static void
test_submit_after_disconnect(void **state)
{
	struct machine	*m = *state;
	struct usb_interface *intf = machine_device(m, 1)->actconfig->
	    interface[0];
	struct done	 d = { 0 };
	uint8_t		 buf[8] = { 0 };
	struct urb	*u = out_urb(m, buf, sizeof buf, &d);
	size_t		 from;

	assert_int_equal(usb_register(&t_driver), 0);
	assert_ptr_equal(intf->driver, &t_driver);
	from = nevs;
	assert_int_equal(submit_as("tdrv", u, GFP_KERNEL), 0);
	machine_run(m, 10);
	assert_int_equal(tev_count(from, DRV_RULE, NULL), 0);
	usb_deregister(&t_driver);
	assert_null(intf->driver);

	from = nevs;
	(void)submit_as("tdrv", u, GFP_KERNEL);
	assert_int_equal(tev_count(from, DRV_RULE, "submit-after-disconnect"),
	    1);
	machine_run(m, 10);
	usb_free_urb(u);
}

/* The device goes while the driver holds it and an URB of it. */
static void
test_submit_after_unplug(void **state)
{
	struct machine	*m = *state;
	struct usb_device *dev = usb_get_dev(machine_device(m, 1));
	struct done	 d = { 0 };
	uint8_t		 buf[64];
	struct urb	*u = usb_alloc_urb(0, GFP_KERNEL);
	size_t		 from;

	assert_int_equal(usb_register(&t_driver), 0);
	/* a read pending at unplug: the driver's disconnect leaves it in
	 * flight, so its completion (-ESHUTDOWN) runs, and resubmits, after
	 * disconnect returned */
	usb_fill_bulk_urb(u, dev, usb_rcvbulkpipe(dev, 1), buf, sizeof buf,
	    t_complete, &d);
	assert_int_equal(submit_as("tdrv", u, GFP_KERNEL), 0);
	machine_run(m, 5);
	d.resubmit = 1;
	from = nevs;
	machine_unplug(m, 1);
	machine_run(m, 500);
	assert_null(machine_device(m, 1));
	assert_int_equal(d.count, 1);
	assert_int_equal(d.status, -ESHUTDOWN);
	assert_int_not_equal(d.resubmit_rc, 0);
	assert_int_equal(tev_count(from, DRV_RULE, "resubmit-on-shutdown"),
	    1);
	assert_int_equal(tev_count(from, DRV_RULE, "submit-after-disconnect"),
	    1);

	/* the interface is freed now; the driver's release path submits */
	from = nevs;
	assert_int_equal(submit_as("tdrv", u, GFP_KERNEL), -ENODEV);
	assert_int_equal(tev_count(from, DRV_RULE, "submit-after-disconnect"),
	    1);
	assert_int_equal(tev_last(DRV_SUBMIT)->result, -ENODEV);
	usb_free_urb(u);
	usb_deregister(&t_driver);
	usb_put_dev(dev);
}

static void
test_buffer_alloc(void **state)
{
	struct machine	*m = *state;
	struct usb_device *dev = machine_device(m, 1);
	struct done	 d = { 0 };
	uint8_t		 out[5] = "hello";
	struct urb	*u = out_urb(m, out, sizeof out, &d);
	dma_addr_t	 dma;
	uint8_t		*p;

	p = usb_buffer_alloc(dev, 64, GFP_KERNEL, &dma);
	assert_non_null(p);
	assert_int_not_equal(dma, 0);
	assert_int_equal(virt_to_dma(m->dma, p), dma);

	assert_int_equal(submit_as("tdrv", u, GFP_KERNEL), 0);
	machine_run(m, 10);
	assert_int_equal(d.count, 1);
	/* read it back straight into the DMA buffer */
	usb_fill_bulk_urb(u, dev, usb_rcvbulkpipe(dev, 1), p, 64, t_complete,
	    &d);
	u->transfer_dma = dma;
	u->transfer_flags |= URB_NO_TRANSFER_DMA_MAP;
	assert_int_equal(submit_as("tdrv", u, GFP_KERNEL), 0);
	machine_run(m, 10);
	assert_int_equal(d.count, 2);
	assert_int_equal(d.status, 0);
	assert_int_equal(u->actual_length, 5);
	assert_memory_equal(p, "hello", 5);
	usb_buffer_free(dev, 64, p, dma);
	usb_free_urb(u);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
#define M(t)	cmocka_unit_test_setup_teardown(t, m_setup, m_teardown)
		M(test_spinlock),
		M(test_dev_printk),
		M(test_submit_ids),
		M(test_gfp_in_completion),
		M(test_submit_active),
		M(test_resubmit_after_unlink),
		M(test_submit_after_disconnect),
		M(test_submit_after_unplug),
		M(test_buffer_alloc),
#undef M
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
