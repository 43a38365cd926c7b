/*
 * tests/unit/test-tui-correlate.c - the correlation of driver events,
 * fed hand-built sequences shaped as core/ emits them: a bind with its
 * minor, node and intfdata; an interface no driver took, with each id
 * table entry's reason; unplug and deregistration; a write() and a probe
 * with the URBs they submitted; a completion handler's resubmit; the
 * file operations on a node; and the simulator's buggy scenario as the
 * core reports it.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "capture/capture.h"
#include "decode/decode.h"
#include "samples/samples.h"
#include "tui/tui-correlate.h"
#include "tui/tui-model.h"

/* Feed one event as item *item (then advanced by 1 + skip, the URB
 * records that would sit between events in a timeline). */
static void
feed(struct tui_corr *c, uint32_t *item, enum drv_kind kind, uint8_t dev,
    int intf, const char *driver, const char *func, const char *text)
{
	struct drv_event ev;
	char	 copy[256];

	memset(&ev, 0, sizeof ev);
	ev.kind = kind;
	ev.busnum = kind == DRV_REGISTER || kind == DRV_DEREGISTER ? 0 : 1;
	ev.devnum = dev;
	ev.intf = (int16_t)intf;
	ev.minor = -1;
	ev.driver = driver;
	ev.func = func;
	/* the model hands transient strings: make sure none is kept */
	if (text != NULL) {
		snprintf(copy, sizeof copy, "%s", text);
		ev.text = copy;
	}
	assert_int_equal(tui_corr_feed_event(c, &ev, *item), 0);
	memset(copy, 'x', sizeof copy - 1);
	*item += 1;
}

static void
feed_ev(struct tui_corr *c, uint32_t *item, struct drv_event *ev)
{
	assert_int_equal(tui_corr_feed_event(c, ev, *item), 0);
	*item += 1;
}

static struct drv_event
mk(enum drv_kind kind, uint8_t dev, int intf, const char *driver,
    const char *func)
{
	struct drv_event ev;

	memset(&ev, 0, sizeof ev);
	ev.kind = kind;
	ev.busnum = 1;
	ev.devnum = dev;
	ev.intf = (int16_t)intf;
	ev.minor = -1;
	ev.driver = driver;
	ev.func = func;
	return ev;
}

/*
 * The demo's story: device 2 (a loopback) bound to skeleton, opened,
 * written, unplugged; device 3 (storage) that no driver takes.
 */
static void
demo(struct tui_corr *c, uint32_t *it, uint32_t mark[8])
{
	struct drv_event ev;

	feed(c, it, DRV_REGISTER, 0, -1, "skeleton", "usb_register",
	    "usbcore: registered new interface driver skeleton");
	feed(c, it, DRV_LOG, 0, -1, "usb", "hub_port_init", "usb 1-1: new "
	    "high-speed USB device number 2 using ehci_hcd");
	feed(c, it, DRV_LOG, 2, -1, "usb", "usb_new_device", "usb 1-1: New "
	    "USB device found, idVendor=fff0, idProduct=fff1, bcdDevice= "
	    "1.00");
	ev = mk(DRV_MATCH, 2, 0, "skeleton", "match");
	ev.text = "skeleton 1-1:1.0: entry 0 flags 0x0003: matched";
	feed_ev(c, it, &ev);
	ev = mk(DRV_SET_INTFDATA, 2, 0, "skeleton", "probe");
	ev.ptr = 0x5f0000000100;
	mark[0] = *it;
	feed_ev(c, it, &ev);
	ev = mk(DRV_REGISTER_DEV, 2, 0, "skeleton", "probe");
	ev.minor = 192;
	ev.text = "register_dev intf=1-1:1.0 base=192 dyn=0 -> minor=192 "
	    "node=/dev/usb/skel0 ret=0";
	feed_ev(c, it, &ev);
	ev = mk(DRV_PROBE, 2, 0, "skeleton", "probe");
	ev.minor = 192;
	ev.text = "skeleton 1-1:1.0: probe returned 0";
	mark[1] = *it;
	feed_ev(c, it, &ev);
	/* open(), then write() submits, a URB record, read() submits */
	ev = mk(DRV_GET_INTFDATA, 2, 0, "skeleton", "open");
	feed_ev(c, it, &ev);
	ev = mk(DRV_OPEN, 2, 0, "skeleton", "open");
	ev.minor = 192;
	mark[2] = *it;
	feed_ev(c, it, &ev);
	ev = mk(DRV_SUBMIT, 2, 0, "skeleton", "write");
	ev.urb_id = 0x200;
	ev.ep = 0x02;
	mark[3] = *it;
	feed_ev(c, it, &ev);
	*it += 1;			/* its 'S' */
	ev = mk(DRV_SUBMIT, 2, 0, "skeleton", "read");
	ev.urb_id = 0x300;
	ev.ep = 0x81;
	mark[4] = *it;
	feed_ev(c, it, &ev);
	*it += 2;			/* its 'S' and 'C' */
	/* the read's completion resubmits */
	ev = mk(DRV_GIVEBACK, 2, 0, "skeleton", "complete");
	ev.urb_id = 0x300;
	mark[5] = *it;
	feed_ev(c, it, &ev);
	ev = mk(DRV_SUBMIT, 2, 0, "skeleton", "complete");
	ev.urb_id = 0x300;
	mark[6] = *it;
	feed_ev(c, it, &ev);
	/* device 3: skeleton's only entry fails on idVendor */
	feed(c, it, DRV_LOG, 0, -1, "usb", "hub_port_init", "usb 1-2: new "
	    "full-speed USB device number 3 using ehci_hcd");
	ev = mk(DRV_MATCH, 3, 0, "skeleton", "match");
	ev.entry = 0;
	ev.result = -19;
	ev.text = "skeleton 1-2:1.0: entry 0 flags 0x0003: idVendor 0x1209 "
	    "!= 0xfff0";
	feed_ev(c, it, &ev);
	/* unplug of device 2 */
	feed(c, it, DRV_LOG, 2, -1, "usb", "usb_disconnect", "usb 1-1: USB "
	    "disconnect, device number 2");
	ev = mk(DRV_SET_INTFDATA, 2, 0, "skeleton", "disconnect");
	feed_ev(c, it, &ev);
	ev = mk(DRV_DEREGISTER_DEV, 2, 0, "skeleton", "disconnect");
	ev.minor = 192;
	feed_ev(c, it, &ev);
	ev = mk(DRV_DISCONNECT, 2, 0, "skeleton", "disconnect");
	mark[7] = *it;
	feed_ev(c, it, &ev);
}

static void
test_bind_and_unplug(void **state)
{
	struct tui_corr	*c = tui_corr_new();
	const struct tui_corr_dev *d;
	const struct tui_corr_intf *i;
	uint32_t	 it = 10, mark[8];

	(void)state;
	assert_non_null(c);
	demo(c, &it, mark);
	assert_int_equal(tui_corr_ndevs(c), 2);
	d = tui_corr_dev(c, 0);
	assert_int_equal(d->busnum, 1);
	assert_int_equal(d->devnum, 2);
	assert_string_equal(d->speed, "high");
	assert_true(d->has_ids);
	assert_int_equal(d->vid, 0xfff0);
	assert_int_equal(d->pid, 0xfff1);
	assert_true(d->gone);
	assert_int_equal(d->nintf, 1);
	i = tui_corr_find_intf(d, 0);
	assert_non_null(i);
	assert_string_equal(i->name, "1-1:1.0");
	/* the final state: unbound by the unplug, its history kept */
	assert_int_equal(i->state, TCS_UNBOUND);
	assert_int_equal(i->why, TCW_UNPLUG);
	assert_string_equal(i->driver, "skeleton");
	assert_int_equal(i->minor, 192);
	assert_string_equal(i->node, "/dev/usb/skel0");
	assert_false(i->minor_live);
	assert_int_equal(i->intfdata, 0x5f0000000100);
	assert_int_equal(i->intfdata_now, 0);
	assert_int_equal(i->bind_item, mark[1]);
	assert_int_equal(i->unbind_item, mark[7]);
	/* the node's file operations: open, write, read */
	assert_int_equal(i->nnodeops, 3);
	assert_int_equal(i->nodeops[0], mark[2] - 1);
	assert_int_equal(i->nodeops[1], mark[3]);
	assert_int_equal(i->nodeops[2], mark[4]);
	tui_corr_free(c);
}

static void
test_bound_at_end(void **state)
{
	struct tui_corr	*c = tui_corr_new();
	const struct tui_corr_intf *i;
	struct drv_event ev;
	uint32_t	 it = 0;

	(void)state;
	ev = mk(DRV_MATCH, 4, 1, "usbkbd", "match");
	ev.text = "usbkbd 1-3:1.1: entry 0 flags 0x0380: matched";
	feed_ev(c, &it, &ev);
	ev = mk(DRV_SET_INTFDATA, 4, 1, "usbkbd", "probe");
	ev.ptr = 0x1234;
	feed_ev(c, &it, &ev);
	ev = mk(DRV_PROBE, 4, 1, "usbkbd", "probe");
	feed_ev(c, &it, &ev);
	i = tui_corr_find_intf(tui_corr_find_dev(c, 1, 4), 1);
	assert_non_null(i);
	assert_int_equal(i->state, TCS_BOUND);
	assert_string_equal(i->driver, "usbkbd");
	assert_int_equal(i->intfdata_now, 0x1234);
	assert_int_equal(i->minor, -1);
	assert_null(i->node);
	assert_null(tui_corr_find_dev(c, 1, 5));
	assert_null(tui_corr_find_intf(tui_corr_find_dev(c, 1, 4), 0));
	tui_corr_free(c);
}

static void
test_no_match_reasons(void **state)
{
	struct tui_corr	*c = tui_corr_new();
	const struct tui_corr_intf *i;
	struct drv_event ev;
	uint32_t	 it = 0, mark[8];

	(void)state;
	demo(c, &it, mark);
	/* a driver registered later tries its two entries, both fail; and
	 * skeleton's entry is tried again: one line per entry, the last */
	feed(c, &it, DRV_REGISTER, 0, -1, "buggy", "usb_register", NULL);
	ev = mk(DRV_MATCH, 3, 0, "buggy", "match");
	ev.result = -19;
	ev.text = "buggy 1-2:1.0: entry 0 flags 0x0003: idVendor 0x1209 != "
	    "0xfff0";
	feed_ev(c, &it, &ev);
	ev.entry = 1;
	ev.text = "buggy 1-2:1.0: entry 1 flags 0x0380: bInterfaceClass "
	    "0x08 != 0x03";
	feed_ev(c, &it, &ev);
	ev = mk(DRV_MATCH, 3, 0, "skeleton", "match");
	ev.result = -19;
	ev.text = "skeleton 1-2:1.0: entry 0 flags 0x0003: idVendor 0x1209 "
	    "!= 0xfff0";
	feed_ev(c, &it, &ev);

	i = tui_corr_find_intf(tui_corr_find_dev(c, 1, 3), 0);
	assert_non_null(i);
	assert_int_equal(i->state, TCS_NONE);
	assert_null(i->driver);
	assert_int_equal(i->ntries, 3);
	assert_string_equal(i->tries[0].driver, "skeleton");
	assert_int_equal(i->tries[0].entry, 0);
	assert_false(i->tries[0].matched);
	assert_string_equal(i->tries[0].why, "idVendor 0x1209 != 0xfff0");
	assert_int_equal(i->tries[0].item, it - 1);
	assert_string_equal(i->tries[1].driver, "buggy");
	assert_string_equal(i->tries[2].driver, "buggy");
	assert_int_equal(i->tries[2].entry, 1);
	assert_string_equal(i->tries[2].why, "bInterfaceClass 0x08 != 0x03");
	assert_string_equal(tui_corr_find_dev(c, 1, 3)->speed, "full");
	tui_corr_free(c);
}

static void
test_deregister_and_readdress(void **state)
{
	struct tui_corr	*c = tui_corr_new();
	const struct tui_corr_intf *i;
	struct drv_event ev;
	uint32_t	 it = 0;

	(void)state;
	ev = mk(DRV_PROBE, 5, 0, "skeleton", "probe");
	feed_ev(c, &it, &ev);
	feed(c, &it, DRV_DEREGISTER, 0, -1, "skeleton", "usb_deregister",
	    NULL);
	ev = mk(DRV_DISCONNECT, 5, 0, "skeleton", "disconnect");
	feed_ev(c, &it, &ev);
	i = tui_corr_find_intf(tui_corr_find_dev(c, 1, 5), 0);
	assert_int_equal(i->state, TCS_UNBOUND);
	assert_int_equal(i->why, TCW_DEREGISTER);
	/* a failed probe binds nothing but is remembered */
	ev = mk(DRV_PROBE, 5, 1, "buggy", "probe");
	ev.result = -12;
	feed_ev(c, &it, &ev);
	i = tui_corr_find_intf(tui_corr_find_dev(c, 1, 5), 1);
	assert_int_equal(i->state, TCS_NONE);
	assert_int_equal(i->probe_err, -12);
	assert_string_equal(i->probe_err_driver, "buggy");
	/* the Devices pane's why names it while nothing bound since */
	assert_int_equal(i->probe_err_item, it - 1);
	/* unplugged, then the address given to a new device */
	feed(c, &it, DRV_LOG, 5, -1, "usb", "usb_disconnect", "usb 1-4: USB "
	    "disconnect, device number 5");
	feed(c, &it, DRV_LOG, 0, -1, "usb", "hub_port_init", "usb 1-4: new "
	    "low-speed USB device number 5 using ehci_hcd");
	assert_int_equal(tui_corr_ndevs(c), 2);
	assert_true(tui_corr_dev(c, 0)->gone);
	assert_false(tui_corr_dev(c, 1)->gone);
	assert_ptr_equal(tui_corr_find_dev(c, 1, 5), tui_corr_dev(c, 1));
	assert_string_equal(tui_corr_find_dev(c, 1, 5)->speed, "low");
	assert_int_equal(tui_corr_find_dev(c, 1, 5)->nintf, 0);
	/* each address keeps its own latest device: 6 and 5 again */
	feed(c, &it, DRV_LOG, 0, -1, "usb", "hub_port_init", "usb 1-5: new "
	    "high-speed USB device number 6 using ehci_hcd");
	feed(c, &it, DRV_LOG, 5, -1, "usb", "usb_disconnect", "usb 1-4: USB "
	    "disconnect, device number 5");
	feed(c, &it, DRV_LOG, 0, -1, "usb", "hub_port_init", "usb 1-4: new "
	    "full-speed USB device number 5 using ehci_hcd");
	assert_int_equal(tui_corr_ndevs(c), 4);
	assert_ptr_equal(tui_corr_find_dev(c, 1, 6), tui_corr_dev(c, 2));
	assert_ptr_equal(tui_corr_find_dev(c, 1, 5), tui_corr_dev(c, 3));
	assert_string_equal(tui_corr_find_dev(c, 1, 5)->speed, "full");
	assert_true(tui_corr_dev(c, 1)->gone);
	assert_null(tui_corr_find_dev(c, 2, 5));
	tui_corr_free(c);
}

static void
test_calls(void **state)
{
	struct tui_corr	*c = tui_corr_new();
	struct tui_corr_call k;
	uint32_t	 it = 100, mark[8], items[16];
	size_t		 n;

	(void)state;
	demo(c, &it, mark);
	/* probe: set_intfdata, register_dev, then the PROBE that ends it */
	assert_int_equal(tui_corr_call_of(c, mark[1], &k), 0);
	assert_string_equal(k.driver, "skeleton");
	assert_string_equal(k.func, "probe");
	assert_int_equal(k.anchor, mark[1]);
	assert_int_equal(k.first, mark[0]);
	assert_int_equal(k.n, 3);
	n = tui_corr_call_items(c, mark[1], items, 16);
	assert_int_equal(n, 3);
	assert_int_equal(items[0], mark[0]);
	assert_int_equal(items[1], mark[0] + 1);
	assert_int_equal(items[2], mark[1]);
	/* the same call from one of its events */
	assert_int_equal(tui_corr_call_of(c, mark[0], &k), 0);
	assert_int_equal(k.anchor, mark[1]);
	/* open: get_intfdata and the OPEN */
	assert_int_equal(tui_corr_call_of(c, mark[2], &k), 0);
	assert_string_equal(k.func, "open");
	assert_int_equal(k.n, 2);
	/* write(): its submit alone, no end event */
	assert_int_equal(tui_corr_call_of(c, mark[3], &k), 0);
	assert_string_equal(k.func, "write");
	assert_int_equal(k.anchor, TI_NONE);
	assert_int_equal(k.n, 1);
	assert_int_equal(tui_corr_call_items(c, mark[3], items, 16), 1);
	assert_int_equal(items[0], mark[3]);
	/* read() is another call */
	assert_int_equal(tui_corr_call_of(c, mark[4], &k), 0);
	assert_string_equal(k.func, "read");
	/* the giveback starts its handler's call: the resubmit */
	assert_int_equal(tui_corr_call_of(c, mark[5], &k), 0);
	assert_string_equal(k.func, "complete");
	assert_int_equal(k.anchor, mark[5]);
	assert_int_equal(tui_corr_call_items(c, mark[5], items, 16), 2);
	assert_int_equal(items[1], mark[6]);
	/* disconnect: set_intfdata(NULL), deregister_dev, DISCONNECT */
	assert_int_equal(tui_corr_call_of(c, mark[7], &k), 0);
	assert_string_equal(k.func, "disconnect");
	assert_int_equal(k.n, 3);
	/* what is in no call: registration, matching, the core's logs
	 * have a call of their own only when they name a function */
	assert_int_equal(tui_corr_call_of(c, 100, &k), -1);
	assert_int_equal(tui_corr_call_of(c, mark[0] - 1, &k), -1);
	assert_int_equal(tui_corr_call_of(c, 99999, &k), -1);
	/* max bounds what is copied, not the count */
	assert_int_equal(tui_corr_call_items(c, mark[1], items, 1), 3);
	tui_corr_free(c);
}

/* A completion during a task call belongs to neither the task call nor
 * breaks it; a rule after a probe's end is the probe's. */
static void
test_nesting(void **state)
{
	struct tui_corr	*c = tui_corr_new();
	struct tui_corr_call k;
	struct drv_event ev;
	uint32_t	 it = 0, items[16];

	(void)state;
	ev = mk(DRV_SUBMIT, 2, 0, "usbkbd", "probe");
	ev.urb_id = 1;
	feed_ev(c, &it, &ev);			/* 0 */
	ev = mk(DRV_GIVEBACK, 2, 0, "usbkbd", "complete");
	feed_ev(c, &it, &ev);			/* 1 */
	ev = mk(DRV_SUBMIT, 2, 0, "usbkbd", "probe");
	feed_ev(c, &it, &ev);			/* 2 */
	ev = mk(DRV_PROBE, 2, 0, "usbkbd", "probe");
	ev.result = -5;
	feed_ev(c, &it, &ev);			/* 3 */
	ev = mk(DRV_RULE, 2, 0, "usbkbd", "probe");
	ev.rule = "probe-error-leftovers";
	feed_ev(c, &it, &ev);			/* 4 */
	assert_int_equal(tui_corr_call_of(c, 3, &k), 0);
	assert_int_equal(k.n, 4);
	assert_int_equal(tui_corr_call_items(c, 3, items, 16), 4);
	assert_int_equal(items[0], 0);
	assert_int_equal(items[1], 2);
	assert_int_equal(items[2], 3);
	assert_int_equal(items[3], 4);
	assert_int_equal(tui_corr_call_of(c, 1, &k), 0);
	assert_int_equal(k.n, 1);
	/* a second probe of the same driver is a new call */
	ev = mk(DRV_SET_INTFDATA, 2, 1, "usbkbd", "probe");
	feed_ev(c, &it, &ev);			/* 5 */
	assert_int_equal(tui_corr_call_of(c, 5, &k), 0);
	assert_int_equal(k.n, 1);
	assert_int_equal(k.anchor, TI_NONE);
	tui_corr_free(c);
}

/*
 * The buggy scenario, as the core emits it: open, write, read and close
 * of /dev/usb/buggy0 are four file operations on its interface, though
 * read's only event is a spinlock rule the driver broke (no device of
 * its own) and write's first one a GFP rule naming only the device.
 */
static void
test_sim_nodeops(void **state)
{
	struct tui_corr	*c = tui_corr_new();
	const struct tui_corr_dev *d;
	const struct tui_corr_intf *i;
	struct cap_source *src;
	struct drv_event ev;
	struct urb_rec	 r;
	char		 err[512];
	size_t		 k, n;
	int		 rc, found = 0;

	(void)state;
	assert_non_null(c);
	if (cap_open("sim:buggy", &src, err, sizeof err) != 0)
		fail_msg("%s", err);
	while ((rc = cap_next(src, &r, &ev)) > 0)
		if (rc == CAP_EVENT)
			assert_int_equal(tui_corr_feed_event(c, &ev,
			    (uint32_t)ev.recno - 1), 0);
	if (rc < 0)
		fail_msg("%s", src->err);
	for (k = 0; k < tui_corr_ndevs(c); k++) {
		d = tui_corr_dev(c, k);
		for (n = 0; n < d->nintf; n++) {
			i = &d->intf[n];
			if (i->node == NULL ||
			    strcmp(i->node, "/dev/usb/buggy0") != 0)
				continue;
			assert_int_equal(i->nnodeops, 4);
			found++;
		}
	}
	assert_int_equal(found, 1);
	cap_close(src);
	tui_corr_free(c);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bind_and_unplug),
		cmocka_unit_test(test_bound_at_end),
		cmocka_unit_test(test_no_match_reasons),
		cmocka_unit_test(test_deregister_and_readdress),
		cmocka_unit_test(test_calls),
		cmocka_unit_test(test_nesting),
		cmocka_unit_test(test_sim_nodeops),
	};

	sim_register(&sample_catalog);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
