/*
 * tests/unit/test-usbcore.c - the core's device model without a bus:
 * URB allocation at stable addresses, bus addresses (round robin, as
 * Linux's choose_devnum), device names, and configuration descriptor
 * parsing from wire bytes, good and malformed.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "core/core.h"
#include "core/hcd.h"

struct fixture {
	struct sim	*sim;
	struct usb_bus	 bus;
	struct usb_device *rh;
};

static int
setup(void **state)
{
	struct fixture	*f = calloc(1, sizeof *f);

	assert_non_null(f);
	f->sim = sim_new(0, NULL);
	assert_non_null(f->sim);
	f->bus.busnum = 1;
	f->rh = usb_alloc_dev(NULL, &f->bus, 0);
	assert_non_null(f->rh);
	f->rh->devnum = 1;
	f->rh->speed = USB_SPEED_HIGH;
	*state = f;
	return 0;
}

static int
teardown(void **state)
{
	struct fixture	*f = *state;

	usb_put_dev(f->rh);
	usb_core_free(f->sim);
	sim_free(f->sim);
	free(f);
	return 0;
}

/* ------------------------------------------------------------------------
 * URBs at stable addresses.
 */
static void
test_urb_arena(void **state)
{
	struct urb	*a, *b, *c, *iso;

	(void)state;
	a = usb_alloc_urb(0, GFP_KERNEL);
	assert_non_null(a);
	assert_int_equal((uintptr_t)a, URB_ARENA_BASE);
	assert_int_equal(a->kref, 1);
	assert_true(list_empty(&a->urb_list));
	b = usb_alloc_urb(0, GFP_KERNEL);
	assert_int_equal((uintptr_t)b, URB_ARENA_BASE + URB_SLOT_MIN);

	/* last freed, first reused: every usb_control_msg gets one id */
	usb_free_urb(a);
	c = usb_alloc_urb(0, GFP_ATOMIC);
	assert_ptr_equal(c, a);
	assert_null(c->context);	/* zeroed again */

	/* references */
	usb_get_urb(c);
	usb_free_urb(c);
	assert_int_equal(c->kref, 1);
	c->context = &c;		/* still writable: not freed */

	/* ISO descriptors need a bigger slot, from another region */
	iso = usb_alloc_urb(32, GFP_KERNEL);
	assert_non_null(iso);
	assert_true((uintptr_t)iso >= URB_ARENA_BASE + URB_SLOT_MIN * 2);
	iso->iso_frame_desc[31].length = 1024;
	assert_null(usb_alloc_urb(-1, GFP_KERNEL));

	usb_free_urb(iso);
	usb_free_urb(b);
	usb_free_urb(c);
	usb_free_urb(NULL);
}

/* A new machine maps the arena afresh: same addresses, run after run. */
static void
test_urb_arena_again(void **state)
{
	struct sim	*s;
	struct urb	*a;
	int		 run;

	(void)state;
	for (run = 0; run < 2; run++) {
		s = sim_new(0, NULL);
		a = usb_alloc_urb(0, GFP_KERNEL);
		assert_int_equal((uintptr_t)a, URB_ARENA_BASE);
		usb_free_urb(a);
		usb_core_free(s);
		sim_free(s);
	}
}

static void
test_urb_flags_free_buffer(void **state)
{
	struct urb	*u = usb_alloc_urb(0, GFP_KERNEL);
	void		*buf, *buf2;

	(void)state;
	u->transfer_buffer = malloc(64);
	u->transfer_flags = URB_FREE_BUFFER;
	usb_free_urb(u);		/* ASan: the buffer must not leak */
	/* a driver's kmalloc'ed buffer comes from the heap arena: it goes
	 * back there (kfree), not to free() */
	u = usb_alloc_urb(0, GFP_KERNEL);
	u->transfer_buffer = buf = kmalloc(64, GFP_KERNEL);
	assert_true((uintptr_t)buf >= HEAP_ARENA_BASE);
	u->transfer_flags = URB_FREE_BUFFER;
	usb_free_urb(u);
	assert_ptr_equal(buf2 = kmalloc(64, GFP_KERNEL), buf);
	kfree(buf2);
}

/* ------------------------------------------------------------------------
 * Addresses and names.
 */
static void
test_devnum_round_robin(void **state)
{
	struct fixture	*f = *state;
	struct usb_device *d[4];
	int		 i;

	/* the root hub takes 1 (register_root_hub) */
	f->bus.devmap[0] |= 1u << 1;
	f->bus.devnum_next = 2;
	for (i = 0; i < 3; i++) {
		d[i] = usb_alloc_dev(f->rh, &f->bus, (unsigned int)i + 1);
		assert_non_null(d[i]);
		assert_int_equal(d[i]->devnum, 0);	/* until SET_ADDRESS */
		assert_int_equal(usb_choose_devnum(d[i]), i + 2);
	}
	/* a freed address is not reused at once: round robin */
	usb_release_devnum(d[0]);
	d[3] = usb_alloc_dev(f->rh, &f->bus, 4);
	assert_int_equal(usb_choose_devnum(d[3]), 5);
	usb_release_devnum(d[3]);
	/* ... until the counter wraps past 127 */
	f->bus.devnum_next = 127;
	assert_int_equal(usb_choose_devnum(d[3]), 127);
	usb_release_devnum(d[3]);
	assert_int_equal(f->bus.devnum_next, 1);
	assert_int_equal(usb_choose_devnum(d[3]), 2);
	for (i = 0; i < 4; i++) {
		usb_release_devnum(d[i]);
		usb_put_dev(d[i]);
	}
	assert_int_equal(f->bus.devmap[0], 1u << 1);
}

static void
test_devnum_full(void **state)
{
	struct fixture	*f = *state;
	struct usb_device *d;

	memset(f->bus.devmap, 0xff, sizeof f->bus.devmap);
	f->bus.devmap[0] &= (uint8_t)~1u;	/* 0 is never an address */
	d = usb_alloc_dev(f->rh, &f->bus, 1);
	assert_int_equal(usb_choose_devnum(d), -ENOSPC);
	usb_put_dev(d);
}

static void
test_names(void **state)
{
	struct fixture	*f = *state;
	struct usb_device *hub, *leaf, *deep[8];
	int		 i;

	assert_string_equal(f->rh->name, "usb1");
	assert_string_equal(f->rh->devpath, "0");
	assert_int_equal(f->rh->state, USB_STATE_ATTACHED);
	assert_ptr_equal(f->rh->ep_in[0], &f->rh->ep0);
	assert_ptr_equal(f->rh->ep_out[0], &f->rh->ep0);
	assert_true(f->rh->ep0.enabled);

	hub = usb_alloc_dev(f->rh, &f->bus, 3);
	assert_string_equal(hub->name, "1-3");
	assert_string_equal(hub->devpath, "3");
	assert_int_equal(hub->portnum, 3);
	leaf = usb_alloc_dev(hub, &f->bus, 12);
	assert_string_equal(leaf->name, "1-3.12");

	/* a devpath that does not fit is refused, not cut */
	deep[0] = leaf;
	for (i = 1; i < 8 && deep[i - 1] != NULL; i++)
		deep[i] = usb_alloc_dev(deep[i - 1], &f->bus, 15);
	assert_null(deep[i - 1]);
	while (--i > 1)
		usb_put_dev(deep[i - 1]);
	assert_null(usb_alloc_dev(hub, &f->bus, 0));
	assert_null(usb_alloc_dev(hub, &f->bus, USB_MAXCHILDREN + 1));

	/* references */
	usb_get_dev(leaf);
	usb_put_dev(leaf);
	assert_int_equal(leaf->refcount, 1);
	usb_put_dev(leaf);
	usb_put_dev(hub);
}

static void
test_state_notattached_is_final(void **state)
{
	struct fixture	*f = *state;
	struct usb_device *child;

	child = usb_alloc_dev(f->rh, &f->bus, 1);
	f->rh->children[0] = child;
	usb_set_device_state(f->rh, USB_STATE_CONFIGURED);
	usb_set_device_state(child, USB_STATE_ADDRESS);
	usb_set_device_state(f->rh, USB_STATE_NOTATTACHED);
	assert_int_equal(child->state, USB_STATE_NOTATTACHED);
	usb_set_device_state(child, USB_STATE_CONFIGURED);
	assert_int_equal(child->state, USB_STATE_NOTATTACHED);
	f->rh->children[0] = NULL;
	usb_put_dev(child);
}

/* ------------------------------------------------------------------------
 * Configuration descriptors.
 */

/* Room for one configuration, as usb_get_configuration makes it. */
static void
one_config(struct usb_device *udev)
{
	struct usb_device_priv *p = usb_dev_priv(udev);

	udev->config = calloc(1, sizeof *udev->config);
	p->cache = calloc(1, sizeof *p->cache);
	assert_non_null(udev->config);
	assert_non_null(p->cache);
	p->nconfig = 1;
}

static const uint8_t cfg_storage[] = {	/* QEMU usb-storage, lsusb-v.txt */
	0x09, 0x02, 0x20, 0x00, 0x01, 0x01, 0x05, 0xc0, 0x00,
	0x09, 0x04, 0x00, 0x00, 0x02, 0x08, 0x06, 0x50, 0x00,
	0x07, 0x05, 0x81, 0x02, 0x00, 0x02, 0x00,
	0x07, 0x05, 0x02, 0x02, 0x00, 0x02, 0x00,
};

static void
test_config_storage(void **state)
{
	struct fixture	*f = *state;
	struct usb_intf_cache *ic;
	struct usb_host_endpoint *ep;

	one_config(f->rh);
	assert_int_equal(usb_parse_configuration(f->rh, 0, cfg_storage,
	    sizeof cfg_storage), 0);
	assert_int_equal(f->rh->config[0].desc.wTotalLength, 32);
	assert_int_equal(f->rh->config[0].desc.bConfigurationValue, 1);
	assert_int_equal(f->rh->config[0].desc.iConfiguration, 5);
	assert_int_equal(f->rh->config[0].desc.bmAttributes, 0xc0);
	assert_int_equal(f->rh->config[0].desc.bNumInterfaces, 1);
	assert_null(f->rh->config[0].interface[0]);	/* not configured */
	ic = &usb_dev_priv(f->rh)->cache[0].intf[0];
	assert_int_equal(ic->num_altsetting, 1);
	assert_int_equal(ic->altsetting[0].desc.bInterfaceClass, 8);
	assert_int_equal(ic->altsetting[0].desc.bInterfaceProtocol, 0x50);
	assert_int_equal(ic->altsetting[0].desc.bNumEndpoints, 2);
	ep = &ic->altsetting[0].endpoint[0];
	assert_int_equal(ep->desc.bEndpointAddress, 0x81);
	assert_int_equal(ep->desc.wMaxPacketSize, 512);
	assert_int_equal(ep->desc.bmAttributes, USB_ENDPOINT_XFER_BULK);
	assert_true(list_empty(&ep->urb_list));
	assert_false(ep->enabled);
	assert_int_equal(ic->altsetting[0].endpoint[1].desc.bEndpointAddress,
	    0x02);
}

/* Two interfaces, the second with two altsettings, class descriptors
 * between, and an interrupt endpoint with a full-speed bInterval. */
static const uint8_t cfg_alts[] = {
	0x09, 0x02, 0x3c, 0x00, 0x02, 0x01, 0x00, 0x80, 0x32,
	0x09, 0x04, 0x00, 0x00, 0x01, 0x03, 0x01, 0x01, 0x00,
	0x09, 0x21, 0x11, 0x01, 0x00, 0x01, 0x22, 0x3f, 0x00,	/* HID */
	0x07, 0x05, 0x81, 0x03, 0x08, 0x00, 0x20,	/* bInterval 32 */
	0x09, 0x04, 0x01, 0x00, 0x00, 0x01, 0x02, 0x00, 0x04,
	0x09, 0x04, 0x01, 0x01, 0x01, 0x01, 0x02, 0x00, 0x00,
	0x07, 0x05, 0x02, 0x01, 0x00, 0x01, 0x04,	/* ISO OUT */
};

static void
test_config_altsettings(void **state)
{
	struct fixture	*f = *state;
	struct usb_config_cache *cc;

	one_config(f->rh);
	assert_int_equal(usb_parse_configuration(f->rh, 0, cfg_alts,
	    sizeof cfg_alts), 0);
	cc = &usb_dev_priv(f->rh)->cache[0];
	assert_int_equal(f->rh->config[0].desc.bNumInterfaces, 2);
	assert_int_equal(cc->intf[0].num_altsetting, 1);
	assert_int_equal(cc->intf[0].altsetting[0].desc.bNumEndpoints, 1);
	/* HS interrupt: 32 is a full-speed value, fls(32 * 8) = 9 */
	assert_int_equal(cc->intf[0].altsetting[0].endpoint[0].desc.bInterval,
	    9);
	assert_int_equal(cc->intf[1].num_altsetting, 2);
	assert_int_equal(cc->intf[1].altsetting[0].desc.bNumEndpoints, 0);
	assert_int_equal(cc->intf[1].altsetting[0].desc.iInterface, 4);
	assert_int_equal(cc->intf[1].altsetting[1].desc.bAlternateSetting, 1);
	assert_int_equal(cc->intf[1].altsetting[1].endpoint[0].desc.
	    bEndpointAddress, 0x02);
	/* extra: the HID descriptor, up to the endpoint (Linux config.c) */
	assert_int_equal(cc->intf[0].altsetting[0].extralen, 9);
	assert_int_equal(cc->intf[0].altsetting[0].extra[1], 0x21);
	assert_null(cc->intf[1].altsetting[0].extra);
	assert_int_equal(cc->intf[1].altsetting[0].extralen, 0);
}

/* The class descriptors of an interface by type and size. */
static void
test_extra_descriptor(void **state)
{
	static uint8_t extra[] = {
		5, 0x24, 0x00, 0x10, 0x01,	/* CDC header */
		2, 0x24,			/* too short for a union */
		5, 0x24, 0x06, 0, 1,		/* union */
		9, 0x21, 0x11, 0x01, 0, 1, 0x22, 63, 0,
	};
	uint8_t		*d;

	(void)state;
	assert_int_equal(__usb_get_extra_descriptor((char *)extra,
	    sizeof extra, 0x21, (void **)&d, 9), 0);
	assert_ptr_equal(d, extra + 12);
	assert_int_equal(__usb_get_extra_descriptor((char *)extra,
	    sizeof extra, 0x24, (void **)&d, 3), 0);
	assert_ptr_equal(d, extra);
	assert_int_equal(__usb_get_extra_descriptor((char *)extra + 5,
	    sizeof extra - 5, 0x24, (void **)&d, 3), 0);
	assert_ptr_equal(d, extra + 7);
	assert_int_equal(__usb_get_extra_descriptor((char *)extra,
	    sizeof extra, 0x21, (void **)&d, 10), -ENOENT);
	assert_null(d);
	/* a length past the end stops the search */
	assert_int_equal(__usb_get_extra_descriptor((char *)extra,
	    sizeof extra - 1, 0x21, (void **)&d, 9), -ENOENT);
}

/* Lies: a zero bLength, a length past the end, duplicate and address-0
 * endpoints, more endpoints than announced, a duplicate altsetting. */
static void
test_config_malformed(void **state)
{
	struct fixture	*f = *state;
	struct usb_config_cache *cc;
	static const uint8_t zero_len[] = {
		0x09, 0x02, 0x20, 0x00, 0x01, 0x01, 0x00, 0x80, 0x32,
		0x09, 0x04, 0x00, 0x00, 0x02, 0xff, 0x00, 0x00, 0x00,
		0x07, 0x05, 0x81, 0x02, 0x00, 0x02, 0x00,
		0x00, 0x05, 0x02, 0x02, 0x00, 0x02, 0x00,	/* bLength 0 */
	};
	static const uint8_t eps[] = {
		0x09, 0x02, 0x00, 0x00, 0x02, 0x01, 0x00, 0x80, 0x32,
		0x09, 0x04, 0x00, 0x00, 0x02, 0xff, 0x00, 0x00, 0x00,
		0x07, 0x05, 0x81, 0x02, 0x00, 0x02, 0x00,
		0x07, 0x05, 0x81, 0x02, 0x00, 0x02, 0x00,	/* duplicate */
		0x07, 0x05, 0x80, 0x02, 0x00, 0x02, 0x00,	/* address 0 */
		0x05, 0x05, 0x03, 0x02, 0x00,			/* short */
		0x07, 0x05, 0x04, 0x02, 0x00, 0x02, 0x00,
		0x07, 0x05, 0x05, 0x02, 0x00, 0x02, 0x00,	/* surplus */
		0x09, 0x04, 0x00, 0x00, 0x00, 0xff, 0x00, 0x00, 0x00, /* dup */
		0x09, 0x04, 0x07, 0x00, 0x00, 0xff, 0x00, 0x00, 0x00,
		0x09, 0x04, 0x09, 0x00, 0x00, 0xff, 0x00, 0x00, 0x00,
		0x07, 0x05, 0x06, 0x02, 0x00, 0x02,		/* past end */
	};

	one_config(f->rh);
	assert_int_equal(usb_parse_configuration(f->rh, 0, zero_len,
	    sizeof zero_len), 0);
	cc = &usb_dev_priv(f->rh)->cache[0];
	assert_int_equal(cc->intf[0].altsetting[0].desc.bNumEndpoints, 1);

	usb_put_dev(f->rh);
	f->rh = usb_alloc_dev(NULL, &f->bus, 0);
	f->rh->speed = USB_SPEED_HIGH;
	one_config(f->rh);
	assert_int_equal(usb_parse_configuration(f->rh, 0, eps, sizeof eps),
	    0);
	cc = &usb_dev_priv(f->rh)->cache[0];
	/* three interfaces found although two were announced */
	assert_int_equal(f->rh->config[0].desc.bNumInterfaces, 3);
	assert_int_equal(cc->intf[0].num_altsetting, 1);
	assert_int_equal(cc->intf[0].altsetting[0].desc.bNumEndpoints, 2);
	assert_int_equal(cc->intf[0].altsetting[0].endpoint[0].desc.
	    bEndpointAddress, 0x81);
	assert_int_equal(cc->intf[0].altsetting[0].endpoint[1].desc.
	    bEndpointAddress, 0x04);
	assert_int_equal(cc->intf[1].altsetting[0].desc.bInterfaceNumber, 7);
	assert_int_equal(cc->intf[2].altsetting[0].desc.bInterfaceNumber, 9);
	assert_int_equal(cc->intf[2].altsetting[0].desc.bNumEndpoints, 0);
}

static void
test_config_rejects(void **state)
{
	struct fixture	*f = *state;
	static const uint8_t not_config[] = {
		0x12, 0x01, 0x00, 0x02, 0, 0, 0, 64, 0, 0
	};
	static const uint8_t short_hdr[] = { 0x09, 0x02, 0x09, 0x00 };
	static const uint8_t small_len[] = {
		0x04, 0x02, 0x09, 0x00, 0x00, 0x01, 0x00, 0x80, 0x32
	};
	static const uint8_t no_intf[] = {
		0x09, 0x02, 0x09, 0x00, 0x00, 0x01, 0x00, 0x80, 0x32
	};

	one_config(f->rh);
	assert_int_equal(usb_parse_configuration(f->rh, 0, not_config,
	    sizeof not_config), -EINVAL);
	assert_int_equal(usb_parse_configuration(f->rh, 0, short_hdr,
	    sizeof short_hdr), -EINVAL);
	assert_int_equal(usb_parse_configuration(f->rh, 0, small_len,
	    sizeof small_len), -EINVAL);
	assert_int_equal(usb_parse_configuration(f->rh, 0, no_intf,
	    sizeof no_intf), 0);
	assert_int_equal(f->rh->config[0].desc.bNumInterfaces, 0);
}

/* Every prefix of a real configuration parses without reading past it
 * (ASan watches the heap copy). */
static void
test_config_truncated(void **state)
{
	struct fixture	*f = *state;
	uint8_t		*copy;
	size_t		 n;

	for (n = USB_DT_CONFIG_SIZE; n <= sizeof cfg_alts; n++) {
		usb_put_dev(f->rh);
		f->rh = usb_alloc_dev(NULL, &f->bus, 0);
		f->rh->speed = USB_SPEED_HIGH;
		one_config(f->rh);
		copy = malloc(n);
		memcpy(copy, cfg_alts, n);
		assert_int_equal(usb_parse_configuration(f->rh, 0, copy, n),
		    0);
		free(copy);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_urb_arena, setup,
		    teardown),
		cmocka_unit_test(test_urb_arena_again),
		cmocka_unit_test_setup_teardown(test_urb_flags_free_buffer,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_devnum_round_robin, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_devnum_full, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_names, setup, teardown),
		cmocka_unit_test_setup_teardown(test_state_notattached_is_final,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_config_storage, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_config_altsettings, setup,
		    teardown),
		cmocka_unit_test(test_extra_descriptor),
		cmocka_unit_test_setup_teardown(test_config_malformed, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_config_rejects, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_config_truncated, setup,
		    teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
