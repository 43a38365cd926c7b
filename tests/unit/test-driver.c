/*
 * tests/unit/test-driver.c - the driver model of core/driver.c: id
 * matching flag by flag (as Linux's usb_match_one_id) on fake interfaces,
 * then on a simulated machine with a loopback device (0xfff0:0xfff0,
 * bcdDevice 1.00, interface 0 class ff/00/00, bulk 0x81 and 0x02): probe
 * order and its error handling, late registration, deregistration and
 * unplug, claim/release, intfdata events, and each driver-side rule
 * firing in a constructed case and silent in a clean one.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <limits.h>
#include <cmocka.h>

#include "machine.h"

/* ------------------------------------------------------------------------
 * Matching on a fake interface.
 */
struct fakeif {
	struct usb_device dev;
	struct usb_host_interface alt;
	struct usb_interface_priv ip;
};

static struct usb_interface *
fakeif_init(struct fakeif *f, uint8_t devclass)
{
	memset(f, 0, sizeof *f);
	f->dev.descriptor.idVendor = 0x1209;
	f->dev.descriptor.idProduct = 0x0001;
	f->dev.descriptor.bcdDevice = 0x0150;
	f->dev.descriptor.bDeviceClass = devclass;
	f->dev.descriptor.bDeviceSubClass = 0x02;
	f->dev.descriptor.bDeviceProtocol = 0x03;
	f->alt.desc.bInterfaceNumber = 1;
	f->alt.desc.bInterfaceClass = 0x03;
	f->alt.desc.bInterfaceSubClass = 0x01;
	f->alt.desc.bInterfaceProtocol = 0x02;
	f->ip.intf.altsetting = &f->alt;
	f->ip.intf.num_altsetting = 1;
	f->ip.intf.cur_altsetting = &f->alt;
	f->ip.intf.usbdev = &f->dev;
	f->ip.intf.minor = -1;
	return &f->ip.intf;
}

#define M(f)	USB_DEVICE_ID_MATCH_##f

/* One entry (plus driver_info 1 so that it is never the terminator). */
static const struct {
	const char	*what;
	struct usb_device_id id;
	int		 match;
} match_cases[] = {
	{ "vendor =", { .match_flags = M(VENDOR), .idVendor = 0x1209 }, 1 },
	{ "vendor !=", { .match_flags = M(VENDOR), .idVendor = 0x1208 }, 0 },
	{ "product =", { .match_flags = M(PRODUCT), .idProduct = 1 }, 1 },
	{ "product !=", { .match_flags = M(PRODUCT), .idProduct = 2 }, 0 },
	{ "USB_DEVICE", { USB_DEVICE(0x1209, 0x0001) }, 1 },
	{ "USB_DEVICE product !=", { USB_DEVICE(0x1209, 0x0002) }, 0 },
	{ "lo = bcd", { .match_flags = M(DEV_LO), .bcdDevice_lo = 0x0150 },
	    1 },
	{ "lo < bcd", { .match_flags = M(DEV_LO), .bcdDevice_lo = 0x0149 },
	    1 },
	{ "lo > bcd", { .match_flags = M(DEV_LO), .bcdDevice_lo = 0x0151 },
	    0 },
	{ "hi = bcd", { .match_flags = M(DEV_HI), .bcdDevice_hi = 0x0150 },
	    1 },
	{ "hi > bcd", { .match_flags = M(DEV_HI), .bcdDevice_hi = 0x0151 },
	    1 },
	{ "hi < bcd", { .match_flags = M(DEV_HI), .bcdDevice_hi = 0x0149 },
	    0 },
	{ "lo unflagged", { .match_flags = M(DEV_HI), .bcdDevice_lo = 0xffff,
	    .bcdDevice_hi = 0xffff }, 1 },
	{ "USB_DEVICE_VER in", { USB_DEVICE_VER(0x1209, 1, 0x0100,
	    0x0200) }, 1 },
	{ "USB_DEVICE_VER out", { USB_DEVICE_VER(0x1209, 1, 0x0151,
	    0x0200) }, 0 },
	{ "dev class =", { .match_flags = M(DEV_CLASS), .bDeviceClass = 0 },
	    1 },
	{ "dev class !=", { .match_flags = M(DEV_CLASS), .bDeviceClass = 9 },
	    0 },
	{ "dev subclass !=", { .match_flags = M(DEV_SUBCLASS),
	    .bDeviceSubClass = 3 }, 0 },
	{ "dev protocol !=", { .match_flags = M(DEV_PROTOCOL),
	    .bDeviceProtocol = 2 }, 0 },
	{ "USB_DEVICE_INFO", { USB_DEVICE_INFO(0, 2, 3) }, 1 },
	{ "int class =", { .match_flags = M(INT_CLASS), .bInterfaceClass = 3 },
	    1 },
	{ "int class !=", { .match_flags = M(INT_CLASS),
	    .bInterfaceClass = 8 }, 0 },
	{ "int subclass !=", { .match_flags = M(INT_SUBCLASS),
	    .bInterfaceSubClass = 0 }, 0 },
	{ "int protocol !=", { .match_flags = M(INT_PROTOCOL),
	    .bInterfaceProtocol = 1 }, 0 },
	{ "USB_INTERFACE_INFO", { USB_INTERFACE_INFO(3, 1, 2) }, 1 },
	{ "int number =", { .match_flags = M(INT_NUMBER),
	    .bInterfaceNumber = 1 }, 1 },
	{ "int number !=", { .match_flags = M(INT_NUMBER),
	    .bInterfaceNumber = 0 }, 0 },
	{ "AND_INTERFACE", { USB_DEVICE_AND_INTERFACE_INFO(0x1209, 1, 3, 1,
	    2) }, 1 },
	{ "no flags", { .match_flags = 0, .idVendor = 0x9999 }, 1 },
};

static void
test_match_flags(void **state)
{
	struct fakeif	 f;
	struct usb_interface *intf = fakeif_init(&f, 0);
	struct usb_device_id tbl[2];
	size_t		 i;

	(void)state;
	for (i = 0; i < sizeof match_cases / sizeof match_cases[0]; i++) {
		memset(tbl, 0, sizeof tbl);
		tbl[0] = match_cases[i].id;
		tbl[0].driver_info = 1;
		if ((usb_match_id(intf, tbl) != NULL) != match_cases[i].match)
			fail_msg("case \"%s\": expected %s",
			    match_cases[i].what,
			    match_cases[i].match ? "a match" : "no match");
	}
}

static void
test_match_first_and_terminator(void **state)
{
	struct fakeif	 f;
	struct usb_interface *intf = fakeif_init(&f, 0);
	const struct usb_device_id first[] = {
		{ USB_DEVICE(0x1209, 0x0002) },
		{ USB_INTERFACE_INFO(3, 1, 2), .driver_info = 11 },
		{ USB_DEVICE(0x1209, 0x0001), .driver_info = 12 },
		{ 0 }
	};
	/* 2.6.0: idProduct alone does not keep an entry from ending it */
	const struct usb_device_id early_end[] = {
		{ .match_flags = M(PRODUCT), .idProduct = 1 },
		{ USB_DEVICE(0x1209, 0x0001) },
		{ 0 }
	};
	/* only driver_info set: matches anything and is no terminator */
	const struct usb_device_id any[] = {
		{ .driver_info = 42 },
		{ 0 }
	};
	const struct usb_device_id *id;

	(void)state;
	id = usb_match_id(intf, first);
	assert_ptr_equal(id, &first[1]);
	assert_int_equal(id->driver_info, 11);
	assert_null(usb_match_id(intf, early_end));
	assert_ptr_equal(usb_match_id(intf, any), &any[0]);
	assert_null(usb_match_id(intf, &first[3]));
	assert_null(usb_match_id(NULL, first));
	assert_null(usb_match_id(intf, NULL));
}

static void
test_match_vendor_specific_class(void **state)
{
	struct fakeif	 f;
	struct usb_interface *intf = fakeif_init(&f, USB_CLASS_VENDOR_SPEC);
	const struct usb_device_id intonly[] = {
		{ USB_INTERFACE_INFO(3, 1, 2) }, { 0 }
	};
	const struct usb_device_id intnum[] = {
		{ .match_flags = M(INT_NUMBER), .bInterfaceNumber = 1,
		    .driver_info = 1 }, { 0 }
	};
	const struct usb_device_id withvendor[] = {
		{ .match_flags = M(VENDOR) | M(INT_CLASS), .idVendor = 0x1209,
		    .bInterfaceClass = 3 }, { 0 }
	};
	const struct usb_device_id devclass[] = {
		{ .match_flags = M(DEV_CLASS), .bDeviceClass = 0xff }, { 0 }
	};

	(void)state;
	assert_null(usb_match_id(intf, intonly));
	assert_null(usb_match_id(intf, intnum));
	assert_non_null(usb_match_id(intf, withvendor));
	assert_non_null(usb_match_id(intf, devclass));
	/* the same entries on a per-interface class device */
	f.dev.descriptor.bDeviceClass = 0;
	assert_non_null(usb_match_id(intf, intonly));
	assert_non_null(usb_match_id(intf, intnum));
}

/* Matches against cur_altsetting, not altsetting[0]. */
static void
test_match_cur_altsetting(void **state)
{
	struct fakeif	 f;
	struct usb_interface *intf = fakeif_init(&f, 0);
	struct usb_host_interface alt1;
	const struct usb_device_id tbl[] = {
		{ USB_INTERFACE_INFO(0xfe, 1, 2) }, { 0 }
	};

	(void)state;
	assert_null(usb_match_id(intf, tbl));
	alt1 = f.alt;
	alt1.desc.bInterfaceClass = 0xfe;
	intf->cur_altsetting = &alt1;
	assert_non_null(usb_match_id(intf, tbl));
}

/* ------------------------------------------------------------------------
 * The machine: every driver event kept.
 */
#define MAXEV	4096

struct ev {
	enum drv_kind	 kind;
	char		 driver[32];
	char		 func[32];
	char		 rule[48];
	char		 text[200];
	int32_t		 result;
	uint32_t	 length;
	uint32_t	 entry;
	uint64_t	 ptr;
	int16_t		 intf;
};

static struct ev	 evs[MAXEV];
static size_t		 nev;

static void
copy_str(char *dst, size_t n, const char *src)
{
	snprintf(dst, n, "%s", src != NULL ? src : "");
}

static void
record_event(void *arg, const struct drv_event *ev)
{
	struct ev	*e;

	if (nev < MAXEV) {
		e = &evs[nev++];
		e->kind = ev->kind;
		copy_str(e->driver, sizeof e->driver, ev->driver);
		copy_str(e->func, sizeof e->func, ev->func);
		copy_str(e->rule, sizeof e->rule, ev->rule);
		copy_str(e->text, sizeof e->text, ev->text);
		e->result = ev->result;
		e->length = ev->length;
		e->entry = ev->entry;
		e->ptr = ev->ptr;
		e->intf = ev->intf;
	}
	machine_event(arg, ev);
}

/* Index of the first event at or after from of kind (and driver, if not
 * NULL), or -1. */
static int
find_ev(size_t from, enum drv_kind kind, const char *driver)
{
	size_t	 i;

	for (i = from; i < nev; i++) {
		if (evs[i].kind == kind && (driver == NULL ||
		    strcmp(evs[i].driver, driver) == 0))
			return (int)i;
	}
	return -1;
}

static size_t
count_ev(enum drv_kind kind, const char *driver)
{
	size_t	 i, n = 0;

	for (i = 0; i < nev; i++) {
		if (evs[i].kind == kind && (driver == NULL ||
		    strcmp(evs[i].driver, driver) == 0))
			n++;
	}
	return n;
}

static int
rule_fired(const char *rule)
{
	size_t	 i;

	for (i = 0; i < nev; i++) {
		if (evs[i].kind == DRV_RULE && strcmp(evs[i].rule, rule) == 0)
			return (int)i;
	}
	return -1;
}

static size_t
count_rules(void)
{
	return count_ev(DRV_RULE, NULL);
}

static int
logged(const char *text)
{
	size_t	 i;

	for (i = 0; i < nev; i++) {
		if (evs[i].kind == DRV_LOG && strstr(evs[i].text, text) != NULL)
			return 1;
	}
	return 0;
}

static struct machine *
machine_up(void)
{
	struct machine	*m = machine_new();

	assert_non_null(m);
	m->sim->sink.event = record_event;
	nev = 0;
	return m;
}

/* Plug a loopback into port 1 and run until it is configured. */
static struct usb_interface *
plug_loopback(struct machine *m)
{
	struct usb_device *udev;

	assert_int_equal(machine_plug(m, 1, "loopback"), 0);
	machine_run(m, 1000);
	udev = machine_device(m, 1);
	assert_non_null(udev);
	assert_int_equal(udev->state, USB_STATE_CONFIGURED);
	assert_non_null(udev->actconfig);
	return udev->actconfig->interface[0];
}

/* ------------------------------------------------------------------------
 * Sample drivers, their behaviour picked per test.
 */
struct behave {
	int		 probe_ret;
	int		 set_data;	/* intfdata = &token */
	int		 leave_data;	/* disconnect keeps it */
	int		 minor;		/* as from usb_register_dev */
	int		 keep_minor;	/* and disconnect forgets it */
	int		 submit;	/* probe queues a bulk IN URB */
	int		 kill;		/* disconnect kills it */
	int		 nprobe, ndisconnect;
	void		*seen_data;	/* intfdata at probe entry */
	struct urb	*urb;
	int		 urb_status;
	int		 urb_done;
	int		 read_in_complete;	/* complete() reads it */
	void		*complete_data;
	struct usb_interface *intf;
	uint8_t		 buf[512];
};

static struct behave	 bh[4];
static int		 token;
static const char	*order[16];
static int		 norder;

static void
bulk_done(struct urb *urb)
{
	struct behave	*b = urb->context;

	b->urb_status = urb->status;
	b->urb_done++;
	if (b->read_in_complete)
		b->complete_data = usb_get_intfdata(b->intf);
}

static int
generic_probe(struct behave *b, const char *name,
    struct usb_interface *intf)
{
	struct usb_device *udev = interface_to_usbdev(intf);

	b->nprobe++;
	b->intf = intf;
	if (norder < 16)
		order[norder++] = name;
	b->seen_data = usb_get_intfdata(intf);
	if (b->set_data)
		usb_set_intfdata(intf, &token);
	if (b->minor)
		intf->minor = b->minor;
	if (b->submit) {
		b->urb = usb_alloc_urb(0, GFP_KERNEL);
		assert_non_null(b->urb);
		usb_fill_bulk_urb(b->urb, udev, usb_rcvbulkpipe(udev, 1),
		    b->buf, sizeof b->buf, bulk_done, b);
		assert_int_equal(usb_submit_urb(b->urb, GFP_KERNEL), 0);
	}
	return b->probe_ret;
}

static void
generic_disconnect(struct behave *b, struct usb_interface *intf)
{
	b->ndisconnect++;
	assert_ptr_equal(usb_get_intfdata(intf), b->set_data ? &token : NULL);
	if (!b->leave_data)
		usb_set_intfdata(intf, NULL);
	if (b->minor && !b->keep_minor)
		intf->minor = -1;
	if (b->urb != NULL && b->kill)
		usb_kill_urb(b->urb);
}

#define DRIVER(n)							\
static int								\
probe##n(struct usb_interface *intf, const struct usb_device_id *id)	\
{									\
	(void)id;							\
	return generic_probe(&bh[n], "drv" #n, intf);			\
}									\
static void								\
disconnect##n(struct usb_interface *intf)				\
{									\
	generic_disconnect(&bh[n], intf);				\
}
DRIVER(0)
DRIVER(1)
DRIVER(2)
DRIVER(3)

/* Entry 0 fails on idProduct, entry 1 matches the loopback. */
static const struct usb_device_id lb_ids[] = {
	{ USB_DEVICE(0xfff0, 0x1234) },
	{ USB_DEVICE(0xfff0, 0xfff0), .driver_info = 7 },
	{ 0 }
};
static const struct usb_device_id hub_ids[] = {
	{ USB_INTERFACE_INFO(USB_CLASS_HUB, 0, 0) },
	{ 0 }
};
static const struct usb_device_id hid_ids[] = {
	{ USB_INTERFACE_INFO(USB_CLASS_HID, 1, 1) },
	{ 0 }
};

static struct usb_driver drv[4] = {
	{ .name = "drv0", .probe = probe0, .disconnect = disconnect0,
	    .id_table = lb_ids },
	{ .name = "drv1", .probe = probe1, .disconnect = disconnect1,
	    .id_table = lb_ids },
	{ .name = "drv2", .probe = probe2, .disconnect = disconnect2,
	    .id_table = lb_ids },
	{ .name = "drv3", .probe = probe3, .disconnect = disconnect3,
	    .id_table = lb_ids },
};

static int
setup(void **state)
{
	(void)state;
	memset(bh, 0, sizeof bh);
	norder = 0;
	nev = 0;
	return 0;
}

static void
teardown_machine(struct machine *m)
{
	int	 i;

	machine_unplug(m, 1);
	machine_run(m, 500);
	for (i = 0; i < 4; i++) {
		usb_deregister(&drv[i]);
		if (bh[i].urb != NULL)
			usb_free_urb(bh[i].urb);
	}
	machine_free(m);
}

/* ------------------------------------------------------------------------
 * Probe flow.
 */
static void
test_probe_order_and_errors(void **state)
{
	struct machine	*m = machine_up();
	struct usb_interface *intf;
	int		 i, p;

	(void)state;
	bh[0].probe_ret = -ENODEV;
	bh[1].probe_ret = -ENXIO;
	bh[2].probe_ret = -EINVAL;
	bh[2].set_data = 1;		/* and leaves it: a rule */
	bh[3].set_data = 1;
	for (i = 0; i < 4; i++)
		assert_int_equal(usb_register(&drv[i]), 0);
	assert_int_equal(usb_register(&drv[0]), -EBUSY);
	assert_int_equal(count_ev(DRV_REGISTER, NULL), 4);
	assert_int_equal(count_ev(DRV_MATCH, NULL), 0);

	intf = plug_loopback(m);
	assert_string_equal(intf->name, "1-1:1.0");
	assert_int_equal(norder, 4);
	assert_string_equal(order[0], "drv0");
	assert_string_equal(order[3], "drv3");
	assert_ptr_equal(intf->driver, &drv[3]);
	assert_ptr_equal(intf->intfdata, &token);
	/* the core cleared drv2's leftover before drv3's probe */
	assert_null(bh[3].seen_data);

	/* per driver: entry 0 fails, entry 1 matches, then probe */
	p = find_ev(0, DRV_MATCH, "drv0");
	assert_true(p >= 0);
	assert_int_equal(evs[p].entry, 0);
	assert_int_equal(evs[p].length, 0);
	assert_int_equal(evs[p].result, -ENODEV);
	assert_non_null(strstr(evs[p].text, "idProduct 0xfff0 != 0x1234"));
	assert_non_null(strstr(evs[p].text, "flags 0x0003"));
	assert_int_equal(evs[p + 1].kind, DRV_MATCH);
	assert_int_equal(evs[p + 1].entry, 1);
	assert_int_equal(evs[p + 1].length, 0);	/* an entry, no length */
	assert_int_equal(evs[p + 1].result, 0);
	assert_int_equal(evs[p + 1].ptr, 7);
	assert_non_null(strstr(evs[p + 1].text, "matched"));
	p = find_ev(0, DRV_PROBE, "drv0");
	assert_int_equal(evs[p].result, -ENODEV);
	assert_string_equal(evs[p].func, "probe");
	assert_int_equal(evs[find_ev(0, DRV_PROBE, "drv1")].result, -ENXIO);
	assert_int_equal(evs[find_ev(0, DRV_PROBE, "drv2")].result, -EINVAL);
	assert_int_equal(evs[find_ev(0, DRV_PROBE, "drv3")].result, 0);
	assert_int_equal(count_ev(DRV_MATCH, NULL), 8);

	/* only the "other" error is reported */
	assert_true(logged("probe of 1-1:1.0 failed with error -22"));
	assert_false(logged("failed with error -19"));
	assert_false(logged("failed with error -6"));
	/* drv2 left intfdata set: the one rule */
	p = rule_fired("probe-error-leftovers");
	assert_true(p >= 0);
	assert_string_equal(evs[p].driver, "drv2");
	assert_string_equal(evs[p].func, "probe");
	assert_int_equal(count_rules(), 1);

	/* intfdata events carry the pointer and name the driver */
	p = find_ev(0, DRV_SET_INTFDATA, "drv3");
	assert_true(p >= 0);
	assert_int_equal(evs[p].ptr, (uint64_t)(uintptr_t)&token);
	assert_string_equal(evs[p].func, "probe");
	assert_int_equal(evs[p].intf, 0);
	p = find_ev(0, DRV_GET_INTFDATA, "drv3");
	assert_int_equal(evs[p].ptr, 0);

	teardown_machine(m);
	assert_int_equal(bh[3].ndisconnect, 1);
	assert_int_equal(bh[0].ndisconnect, 0);
}

/* The root hub's interface belongs to the built-in hub driver. */
static void
test_hub_interfaces_taken(void **state)
{
	struct machine	*m = machine_up();
	struct usb_device *rh = m->hcd->self.root_hub;

	(void)state;
	drv[0].id_table = hub_ids;
	assert_int_equal(usb_register(&drv[0]), 0);
	drv[0].id_table = lb_ids;
	assert_int_equal(bh[0].nprobe, 0);
	assert_int_equal(count_ev(DRV_MATCH, NULL), 0);
	assert_non_null(rh->actconfig->interface[0]->driver);
	assert_string_equal(rh->actconfig->interface[0]->driver->name, "hub");
	usb_deregister(&drv[0]);
	machine_free(m);
}

/* A driver whose table never matches is never probed. */
static void
test_no_match_no_probe(void **state)
{
	struct machine	*m = machine_up();
	struct usb_interface *intf;

	(void)state;
	drv[0].id_table = hid_ids;
	assert_int_equal(usb_register(&drv[0]), 0);
	intf = plug_loopback(m);
	drv[0].id_table = lb_ids;
	assert_int_equal(bh[0].nprobe, 0);
	assert_null(intf->driver);
	assert_int_equal(count_ev(DRV_MATCH, "drv0"), 1);
	assert_non_null(strstr(evs[find_ev(0, DRV_MATCH, "drv0")].text,
	    "bInterfaceClass 0xff != 0x03"));
	assert_int_equal(find_ev(0, DRV_PROBE, NULL), -1);
	teardown_machine(m);
}

static void
test_late_registration(void **state)
{
	struct machine	*m = machine_up();
	struct usb_interface *intf;
	int		 r;

	(void)state;
	intf = plug_loopback(m);
	assert_null(intf->driver);
	bh[1].set_data = 1;
	assert_int_equal(usb_register(&drv[1]), 0);
	r = find_ev(0, DRV_REGISTER, "drv1");
	assert_true(r >= 0);
	assert_true(find_ev(0, DRV_PROBE, "drv1") > r);
	assert_int_equal(bh[1].nprobe, 1);
	assert_ptr_equal(intf->driver, &drv[1]);
	/* a second driver finds nothing unbound */
	assert_int_equal(usb_register(&drv[2]), 0);
	assert_int_equal(bh[2].nprobe, 0);
	assert_int_equal(count_rules(), 0);
	teardown_machine(m);
	assert_int_equal(count_rules(), 0);
}

static void
test_deregister_disconnects(void **state)
{
	struct machine	*m = machine_up();
	struct usb_interface *intf;
	int		 d, dr;

	(void)state;
	bh[0].set_data = 1;
	assert_int_equal(usb_register(&drv[0]), 0);
	intf = plug_loopback(m);
	assert_ptr_equal(intf->driver, &drv[0]);
	usb_deregister(&drv[0]);
	d = find_ev(0, DRV_DISCONNECT, "drv0");
	dr = find_ev(0, DRV_DEREGISTER, "drv0");
	assert_true(d >= 0 && dr > d);
	assert_int_equal(bh[0].ndisconnect, 1);
	assert_null(intf->driver);
	assert_null(intf->intfdata);
	assert_int_equal(count_rules(), 0);
	/* a clean driver that disconnected: reading is flagged */
	(void)usb_get_intfdata(intf);
	d = rule_fired("intfdata-read-after-disconnect");
	assert_true(d >= 0);
	assert_non_null(strstr(evs[d].text, "drv0"));
	/* deregistered: a new registration of another driver binds */
	assert_int_equal(usb_register(&drv[1]), 0);
	assert_ptr_equal(intf->driver, &drv[1]);
	nev = 0;
	(void)usb_get_intfdata(intf);
	assert_int_equal(count_rules(), 0);
	teardown_machine(m);
	assert_int_equal(bh[1].ndisconnect, 1);
}

static void
test_unplug_disconnects(void **state)
{
	struct machine	*m = machine_up();

	(void)state;
	bh[0].set_data = 1;
	bh[0].minor = 5;
	assert_int_equal(usb_register(&drv[0]), 0);
	(void)plug_loopback(m);
	assert_non_null(usb_find_interface(&drv[0], 5));
	assert_null(usb_find_interface(&drv[0], 6));
	assert_null(usb_find_interface(&drv[1], 5));
	machine_unplug(m, 1);
	machine_run(m, 500);
	assert_null(machine_device(m, 1));
	assert_int_equal(bh[0].ndisconnect, 1);
	assert_true(find_ev(0, DRV_DISCONNECT, "drv0") >= 0);
	assert_null(usb_find_interface(&drv[0], 5));
	assert_int_equal(count_rules(), 0);
	usb_deregister(&drv[0]);
	machine_free(m);
}

static void
test_claim_release(void **state)
{
	struct machine	*m = machine_up();
	struct usb_interface *intf;
	int		 x;

	(void)state;
	intf = plug_loopback(m);
	assert_int_equal(usb_driver_claim_interface(&drv[1], intf, &x), 0);
	assert_ptr_equal(intf->driver, &drv[1]);
	assert_ptr_equal(intf->intfdata, &x);
	assert_int_equal(bh[1].nprobe, 0);	/* claim does not probe */
	assert_int_equal(usb_driver_claim_interface(&drv[2], intf, NULL),
	    -EBUSY);
	assert_int_equal(usb_driver_claim_interface(&drv[2], NULL, NULL),
	    -ENODEV);
	/* release by another driver does nothing */
	usb_driver_release_interface(&drv[2], intf);
	assert_ptr_equal(intf->driver, &drv[1]);
	bh[1].leave_data = 0;
	bh[1].set_data = 0;
	intf->intfdata = NULL;
	usb_driver_release_interface(&drv[1], intf);
	assert_null(intf->driver);
	assert_int_equal(bh[1].ndisconnect, 1);
	assert_int_equal(count_rules(), 0);
	teardown_machine(m);
}

/* ------------------------------------------------------------------------
 * Driver-side rules.
 */
static void
test_rule_intfdata_after_disconnect(void **state)
{
	struct machine	*m = machine_up();
	struct usb_interface *intf;
	int		 r;

	(void)state;
	bh[0].set_data = 1;
	bh[0].leave_data = 1;
	assert_int_equal(usb_register(&drv[0]), 0);
	intf = plug_loopback(m);
	usb_deregister(&drv[0]);
	r = rule_fired("intfdata-after-disconnect");
	assert_true(r >= 0);
	assert_string_equal(evs[r].driver, "drv0");
	assert_string_equal(evs[r].func, "disconnect");
	assert_int_equal(count_rules(), 1);
	/* the core cleared it anyway, as usb_unbind_interface does */
	assert_null(intf->intfdata);
	teardown_machine(m);
}

static void
test_rule_minor(void **state)
{
	struct machine	*m = machine_up();
	struct usb_interface *intf;
	int		 r;

	(void)state;
	/* probe error with a minor still held */
	bh[0].minor = 3;
	bh[0].probe_ret = -EIO;
	assert_int_equal(usb_register(&drv[0]), 0);
	intf = plug_loopback(m);
	r = rule_fired("probe-error-leftovers");
	assert_true(r >= 0);
	assert_non_null(strstr(evs[r].text, "minor"));
	assert_true(logged("probe of 1-1:1.0 failed with error -5"));
	intf->minor = -1;
	usb_deregister(&drv[0]);

	/* minor kept past disconnect */
	nev = 0;
	bh[1].minor = 4;
	bh[1].keep_minor = 1;
	assert_int_equal(usb_register(&drv[1]), 0);
	assert_ptr_equal(intf->driver, &drv[1]);
	usb_deregister(&drv[1]);
	r = rule_fired("minor-leak");
	assert_true(r >= 0);
	assert_string_equal(evs[r].driver, "drv1");
	assert_int_equal(count_rules(), 1);
	intf->minor = -1;

	/* clean: minor given back in disconnect */
	nev = 0;
	bh[2].minor = 4;
	assert_int_equal(usb_register(&drv[2]), 0);
	usb_deregister(&drv[2]);
	assert_int_equal(bh[2].ndisconnect, 1);
	assert_int_equal(count_rules(), 0);
	teardown_machine(m);
}

static void
test_rule_urbs_in_flight(void **state)
{
	struct machine	*m = machine_up();
	int		 r;

	(void)state;
	/* a bulk IN on an empty loopback FIFO stays queued (NAKed) */
	bh[0].submit = 1;
	assert_int_equal(usb_register(&drv[0]), 0);
	(void)plug_loopback(m);
	machine_run(m, 10);
	assert_int_equal(bh[0].urb_done, 0);
	usb_deregister(&drv[0]);
	r = rule_fired("urbs-in-flight-after-disconnect");
	assert_true(r >= 0);
	assert_non_null(strstr(evs[r].text, "1 URB still queued"));
	assert_int_equal(count_rules(), 1);
	/* then the core flushed it */
	assert_int_equal(bh[0].urb_done, 1);
	assert_int_equal(bh[0].urb_status, -ESHUTDOWN);

	/* clean: killed in disconnect */
	nev = 0;
	bh[1].submit = 1;
	bh[1].kill = 1;
	assert_int_equal(usb_register(&drv[1]), 0);
	machine_run(m, 10);
	assert_int_equal(bh[1].urb_done, 0);
	usb_deregister(&drv[1]);
	assert_int_equal(bh[1].urb_done, 1);
	assert_int_equal(bh[1].urb_status, -ENOENT);
	assert_int_equal(count_rules(), 0);
	teardown_machine(m);
}

/* The completion of a URB left in flight runs after disconnect: its
 * usb_get_intfdata is flagged and sees the core's NULL. */
static void
test_rule_read_after_disconnect_in_completion(void **state)
{
	struct machine	*m = machine_up();
	int		 r;

	(void)state;
	bh[0].submit = 1;
	bh[0].set_data = 1;
	bh[0].read_in_complete = 1;
	bh[0].complete_data = &token;
	assert_int_equal(usb_register(&drv[0]), 0);
	(void)plug_loopback(m);
	machine_run(m, 10);
	usb_deregister(&drv[0]);
	assert_int_equal(bh[0].urb_done, 1);
	assert_null(bh[0].complete_data);
	r = rule_fired("urbs-in-flight-after-disconnect");
	assert_true(r >= 0);
	assert_true(rule_fired("intfdata-read-after-disconnect") > r);
	assert_int_equal(count_rules(), 2);
	teardown_machine(m);
}

/* ------------------------------------------------------------------------
 * The driver call stack.
 */
static void
test_driver_frames(void **state)
{
	struct machine	*m = machine_up();
	const char	*d, *f;

	(void)state;
	assert_int_equal(core_current_driver(&d, &f), 0);
	assert_null(d);
	core_enter_driver("skel", "skel_write");
	core_enter_driver("skel", "skel_write_bulk_callback");
	assert_int_equal(core_current_driver(&d, &f), 2);
	assert_string_equal(f, "skel_write_bulk_callback");
	core_rule(NULL, NULL, NULL, NULL, "test-rule", "x %d", 1);
	assert_string_equal(evs[nev - 1].func, "skel_write_bulk_callback");
	assert_string_equal(evs[nev - 1].driver, "skel");
	assert_string_equal(evs[nev - 1].text, "x 1");
	core_leave_driver();
	assert_int_equal(core_current_driver(NULL, &f), 1);
	assert_string_equal(f, "skel_write");
	core_leave_driver();
	core_leave_driver();		/* one too many: harmless */
	assert_int_equal(core_current_driver(&d, &f), 0);
	assert_null(f);
	machine_free(m);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_match_flags),
		cmocka_unit_test(test_match_first_and_terminator),
		cmocka_unit_test(test_match_vendor_specific_class),
		cmocka_unit_test(test_match_cur_altsetting),
		cmocka_unit_test_setup(test_probe_order_and_errors, setup),
		cmocka_unit_test_setup(test_hub_interfaces_taken, setup),
		cmocka_unit_test_setup(test_no_match_no_probe, setup),
		cmocka_unit_test_setup(test_late_registration, setup),
		cmocka_unit_test_setup(test_deregister_disconnects, setup),
		cmocka_unit_test_setup(test_unplug_disconnects, setup),
		cmocka_unit_test_setup(test_claim_release, setup),
		cmocka_unit_test_setup(test_rule_intfdata_after_disconnect,
		    setup),
		cmocka_unit_test_setup(test_rule_minor, setup),
		cmocka_unit_test_setup(test_rule_urbs_in_flight, setup),
		cmocka_unit_test_setup(
		    test_rule_read_after_disconnect_in_completion, setup),
		cmocka_unit_test_setup(test_driver_frames, setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
