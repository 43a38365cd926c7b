/*
 * tests/unit/test-anchor.c - URB anchors and poisoning (core/anchor.c) on
 * the simulated machine: bulk IN URBs to a loopback device with nothing
 * to send stay in flight until killed.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "machine.h"

static int	 ncompleted;
static int	 last_status;

static void
count_complete(struct urb *urb)
{
	ncompleted++;
	last_status = urb->status;
}

static uint8_t	 bufs[4][512];

static struct urb *
in_urb(struct usb_device *dev, int i)
{
	struct urb	*urb = usb_alloc_urb(0, GFP_KERNEL);

	assert_non_null(urb);
	usb_fill_bulk_urb(urb, dev, usb_rcvbulkpipe(dev, 1), bufs[i], 512,
	    count_complete, NULL);
	return urb;
}

static int
m_setup(void **state)
{
	struct machine	*m = machine_new();

	assert_non_null(m);
	assert_int_equal(machine_plug(m, 1, "loopback"), 0);
	machine_run(m, 3000);
	assert_non_null(machine_device(m, 1));
	ncompleted = 0;
	last_status = 0;
	*state = m;
	return 0;
}

static int
m_teardown(void **state)
{
	machine_free(*state);
	return 0;
}

static void
test_kill_anchored(void **state)
{
	struct machine	*m = *state;
	struct usb_device *dev = machine_device(m, 1);
	struct usb_anchor anchor;
	struct urb	*u[3];
	int		 i;

	init_usb_anchor(&anchor);
	assert_true(usb_anchor_empty(&anchor));
	for (i = 0; i < 3; i++) {
		u[i] = in_urb(dev, i);
		usb_anchor_urb(u[i], &anchor);
		assert_int_equal(usb_submit_urb(u[i], GFP_KERNEL), 0);
	}
	machine_run(m, 10);
	assert_int_equal(ncompleted, 0);	/* nothing to read: in flight */
	assert_false(usb_anchor_empty(&anchor));
	usb_kill_anchored_urbs(&anchor);
	assert_int_equal(ncompleted, 3);
	assert_int_equal(last_status, -ENOENT);
	assert_true(usb_anchor_empty(&anchor));
	for (i = 0; i < 3; i++) {
		assert_null(u[i]->anchor);
		usb_free_urb(u[i]);
	}
}

static void
test_poison(void **state)
{
	struct machine	*m = *state;
	struct usb_device *dev = machine_device(m, 1);
	struct usb_anchor anchor;
	struct urb	*u = in_urb(dev, 0);

	init_usb_anchor(&anchor);
	usb_anchor_urb(u, &anchor);
	assert_int_equal(usb_submit_urb(u, GFP_KERNEL), 0);
	usb_poison_anchored_urbs(&anchor);
	assert_int_equal(ncompleted, 1);
	assert_int_equal(last_status, -ENOENT);
	/* giveback unanchored it, still poisoned (as in Linux) */
	assert_null(u->anchor);
	assert_int_equal(usb_submit_urb(u, GFP_KERNEL), -EPERM);
	usb_unpoison_urb(u);
	/* anchored again on the poisoned anchor: refused until unpoisoned */
	usb_anchor_urb(u, &anchor);
	assert_int_equal(usb_submit_urb(u, GFP_KERNEL), -EPERM);
	usb_unpoison_anchored_urbs(&anchor);
	assert_int_equal(usb_submit_urb(u, GFP_KERNEL), 0);
	usb_kill_anchored_urbs(&anchor);
	assert_int_equal(ncompleted, 2);
	/* a single poisoned URB */
	usb_poison_urb(u);
	assert_int_equal(usb_submit_urb(u, GFP_KERNEL), -EPERM);
	usb_unpoison_urb(u);
	assert_int_equal(usb_submit_urb(u, GFP_KERNEL), 0);
	usb_kill_urb(u);
	usb_free_urb(u);
}

static void
test_wait_get_scuttle(void **state)
{
	struct machine	*m = *state;
	struct usb_device *dev = machine_device(m, 1);
	struct usb_anchor anchor;
	struct urb	*out, *in, *a, *b, *got;
	uint64_t	 t0;
	static uint8_t	 data[64];

	init_usb_anchor(&anchor);
	/* an OUT to the loopback completes: the anchor empties */
	out = usb_alloc_urb(0, GFP_KERNEL);
	usb_fill_bulk_urb(out, dev, usb_sndbulkpipe(dev, 2), data,
	    sizeof data, count_complete, NULL);
	usb_anchor_urb(out, &anchor);
	assert_int_equal(usb_submit_urb(out, GFP_KERNEL), 0);
	assert_int_not_equal(usb_wait_anchor_empty_timeout(&anchor, 1000), 0);
	assert_int_equal(last_status, 0);
	/* an IN with nothing left to read never completes: timeout */
	in = in_urb(dev, 1);
	usb_anchor_urb(in, &anchor);
	/* first read the 64 bytes back, then the next IN stays pending */
	assert_int_equal(usb_submit_urb(in, GFP_KERNEL), 0);
	assert_int_not_equal(usb_wait_anchor_empty_timeout(&anchor, 1000), 0);
	usb_anchor_urb(in, &anchor);
	assert_int_equal(usb_submit_urb(in, GFP_KERNEL), 0);
	t0 = m->sim->now_ns;
	assert_int_equal(usb_wait_anchor_empty_timeout(&anchor, 50), 0);
	assert_true(m->sim->now_ns - t0 >= 50 * SIM_MS);
	usb_kill_anchored_urbs(&anchor);
	/* get_from_anchor takes the oldest; scuttle drops without killing */
	a = in_urb(dev, 2);
	b = in_urb(dev, 3);
	usb_anchor_urb(a, &anchor);
	usb_anchor_urb(b, &anchor);
	got = usb_get_from_anchor(&anchor);
	assert_ptr_equal(got, a);
	assert_null(a->anchor);
	usb_free_urb(got);			/* the reference it gave us */
	usb_scuttle_anchored_urbs(&anchor);
	assert_true(usb_anchor_empty(&anchor));
	assert_null(b->anchor);
	usb_free_urb(a);
	usb_free_urb(b);
	usb_free_urb(in);
	usb_free_urb(out);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_kill_anchored, m_setup,
		    m_teardown),
		cmocka_unit_test_setup_teardown(test_poison, m_setup,
		    m_teardown),
		cmocka_unit_test_setup_teardown(test_wait_get_scuttle,
		    m_setup, m_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
