/*
 * tests/unit/test-enum.c - enumeration on the simulated machine against
 * Linux 6.1: the root hub's bring-up and each device's enumeration must
 * send the requests of the real capture, request for request (devnum,
 * bmRequestType, bRequest, wValue, wIndex, wLength); devices are device 0
 * until SET_ADDRESS; every URB completes exactly once; an unplug gives
 * -ESHUTDOWN to what was pending and removes the device; the same run
 * gives the same records byte for byte.
 *
 * The expected sequences come from one generator, itself checked against
 * tests/data/linux61/usbmon-0u.txt (the root hub, lines 1-54; usb-storage
 * on port 1 and usb-kbd on port 2, lines 56-233).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "machine.h"

#define CAPTURE	"tests/data/linux61/usbmon-0u.txt"

/* One control request as usbmon shows it. */
struct req {
	int		 dev;
	uint8_t		 bm;
	uint8_t		 req;
	uint16_t	 val;
	uint16_t	 idx;
	uint16_t	 len;
};

struct reqs {
	struct req	 r[1024];
	size_t		 n;
};

/* What the enumeration of a device depends on: its descriptors. */
struct params {
	uint16_t	 bcdUSB;
	uint16_t	 bos_total;
	uint8_t		 iManufacturer, iProduct, iSerial;
	uint8_t		 nconfig;
	uint16_t	 total[8];	/* wTotalLength per configuration */
	uint8_t		 cfgval;	/* of the first configuration */
	uint8_t		 iConfiguration;
	uint8_t		 nintf;
	uint8_t		 iInterface[32];
};

static void
add(struct reqs *q, int dev, uint8_t bm, uint8_t req, uint16_t val,
    uint16_t idx, uint16_t len)
{
	assert_true(q->n < sizeof q->r / sizeof q->r[0]);
	q->r[q->n++] = (struct req){ dev, bm, req, val, idx, len };
}

static void
add_string(struct reqs *q, int dev, int *langid, uint8_t index)
{
	if (index == 0)
		return;
	if (!*langid) {
		add(q, dev, 0x80, 6, 0x0300, 0, 255);
		*langid = 1;
	}
	add(q, dev, 0x80, 6, (uint16_t)(0x0300 | index), 0x0409, 255);
}

/*
 * Linux 6.1 from the full device descriptor on (hub_port_init's tail,
 * usb_new_device, the generic driver's SET_CONFIGURATION, the interface
 * strings); class drivers' requests are not part of it.
 */
static void
expect_new_device(struct reqs *q, int dev, const struct params *p)
{
	int	 langid = 0, i;

	add(q, dev, 0x80, 6, 0x0100, 0, 18);
	if (p->bcdUSB >= 0x0201) {
		add(q, dev, 0x80, 6, 0x0f00, 0, 5);
		add(q, dev, 0x80, 6, 0x0f00, 0, p->bos_total);
	}
	for (i = 0; i < p->nconfig; i++) {
		add(q, dev, 0x80, 6, (uint16_t)(0x0200 | i), 0, 9);
		add(q, dev, 0x80, 6, (uint16_t)(0x0200 | i), 0, p->total[i]);
	}
	add_string(q, dev, &langid, p->iProduct);
	add_string(q, dev, &langid, p->iManufacturer);
	add_string(q, dev, &langid, p->iSerial);
	add(q, dev, 0x00, 9, p->cfgval, 0, 0);
	add_string(q, dev, &langid, p->iConfiguration);
	for (i = 0; i < p->nintf; i++)
		add_string(q, dev, &langid, p->iInterface[i]);
}

/* The root hub: register_root_hub, then hub_configure and
 * hub_activate; connected: bit per port with a device. */
static void
expect_root_hub(struct reqs *q, const struct params *rh, int nports,
    unsigned int connected)
{
	int	 port;

	expect_new_device(q, 1, rh);
	add(q, 1, 0xa0, 6, 0x2900, 0, 15);	/* GET_HUB_DESCRIPTOR */
	add(q, 1, 0x80, 0, 0, 0, 2);		/* GET_STATUS */
	add(q, 1, 0xa0, 0, 0, 0, 4);		/* GET_HUB_STATUS */
	for (port = 1; port <= nports; port++)	/* PORT_POWER */
		add(q, 1, 0x23, 3, 8, (uint16_t)port, 0);
	for (port = 1; port <= nports; port++) {
		add(q, 1, 0xa3, 0, 0, (uint16_t)port, 4);
		if (connected & (1u << port))	/* C_PORT_CONNECTION */
			add(q, 1, 0x23, 1, 16, (uint16_t)port, 0);
	}
}

static void
expect_port_reset(struct reqs *q, int port)
{
	add(q, 1, 0x23, 3, 4, (uint16_t)port, 0);	/* PORT_RESET */
	add(q, 1, 0xa3, 0, 0, (uint16_t)port, 4);	/* after 60 ms */
	add(q, 1, 0x23, 1, 20, (uint16_t)port, 0);	/* C_PORT_RESET */
}

/* hub_event for a port hub_activate flagged: no debounce (its change was
 * cleared at activation), then hub_port_init and usb_new_device. */
static void
expect_port(struct reqs *q, int port, int dev, const struct params *p)
{
	add(q, 1, 0xa3, 0, 0, (uint16_t)port, 4);
	expect_port_reset(q, port);
	add(q, 0, 0x80, 6, 0x0100, 0, 64);
	expect_port_reset(q, port);
	add(q, 0, 0x00, 5, (uint16_t)dev, 0, 0);
	expect_new_device(q, dev, p);
}

/* The descriptors of a device the core enumerated. */
static struct params
params_of(const struct usb_device *udev)
{
	struct params	 p;
	struct usb_host_config *c = udev->actconfig;
	int		 i;

	memset(&p, 0, sizeof p);
	p.bcdUSB = udev->descriptor.bcdUSB;
	p.iManufacturer = udev->descriptor.iManufacturer;
	p.iProduct = udev->descriptor.iProduct;
	p.iSerial = udev->descriptor.iSerialNumber;
	p.nconfig = udev->descriptor.bNumConfigurations;
	for (i = 0; i < p.nconfig && i < 8; i++)
		p.total[i] = udev->config[i].desc.wTotalLength;
	assert_non_null(c);
	p.cfgval = c->desc.bConfigurationValue;
	p.iConfiguration = c->desc.iConfiguration;
	p.nintf = c->desc.bNumInterfaces;
	for (i = 0; i < p.nintf; i++)
		p.iInterface[i] = c->interface[i]->cur_altsetting->
		    desc.iInterface;
	return p;
}

/* The root hub of Linux 6.1 and QEMU's devices, from the capture's own
 * descriptors (usbmon-0u.txt lines 2, 6, 120, 122, 218, 220). */
static const struct params linux_rh = {
	.bcdUSB = 0x0200, .iManufacturer = 3, .iProduct = 2, .iSerial = 1,
	.nconfig = 1, .total = { 25 }, .cfgval = 1, .nintf = 1,
};
static const struct params qemu_storage = {
	.bcdUSB = 0x0200, .iManufacturer = 1, .iProduct = 2, .iSerial = 3,
	.nconfig = 1, .total = { 32 }, .cfgval = 1, .iConfiguration = 5,
	.nintf = 1,
};
static const struct params qemu_kbd = {
	.bcdUSB = 0x0200, .iManufacturer = 1, .iProduct = 4, .iSerial = 11,
	.nconfig = 1, .total = { 34 }, .cfgval = 1, .iConfiguration = 8,
	.nintf = 1,
};

static void
assert_reqs_equal(const struct reqs *want, const struct req *got,
    size_t ngot, size_t *at)
{
	size_t		 i;
	const struct req *w, *g;

	for (i = 0; i < want->n; i++) {
		if (*at + i >= ngot)
			fail_msg("request %zu missing: want dev %d %02x %02x "
			    "%04x %04x %u", *at + i, want->r[i].dev,
			    want->r[i].bm, want->r[i].req, want->r[i].val,
			    want->r[i].idx, want->r[i].len);
		w = &want->r[i];
		g = &got[*at + i];
		if (w->dev != g->dev || w->bm != g->bm || w->req != g->req ||
		    w->val != g->val || w->idx != g->idx || w->len != g->len)
			fail_msg("request %zu: want dev %d %02x %02x %04x %04x "
			    "%u, got dev %d %02x %02x %04x %04x %u", *at + i,
			    w->dev, w->bm, w->req, w->val, w->idx, w->len,
			    g->dev, g->bm, g->req, g->val, g->idx, g->len);
	}
	*at += want->n;
}

/* ------------------------------------------------------------------------
 * The generator against the real capture.
 */

/* Bus 1's control submits of the capture, in order; *intr_at: how many
 * came before the root hub's interrupt URB. */
static size_t
capture_requests(struct req *out, size_t max, size_t *intr_at)
{
	FILE		*fp;
	char		 line[512], ev, t, d, s;
	int		 bus, dev, ep, n;
	unsigned int	 bm, req, val, idx, len;
	size_t		 count = 0;

	*intr_at = 0;
	assert_non_null(fp = fopen(CAPTURE, "r"));
	while (count < max && fgets(line, sizeof line, fp) != NULL) {
		n = sscanf(line, "%*s %*s %c %c%c:%d:%d:%d %c %x %x %x %x %x",
		    &ev, &t, &d, &bus, &dev, &ep, &s, &bm, &req, &val, &idx,
		    &len);
		if (n < 6 || ev != 'S' || bus != 1)
			continue;
		if (t == 'I' && dev == 1 && *intr_at == 0)
			*intr_at = count;
		if (t != 'C' || n != 12 || s != 's')
			continue;
		out[count++] = (struct req){ dev, (uint8_t)bm, (uint8_t)req,
		    (uint16_t)val, (uint16_t)idx, (uint16_t)len };
	}
	fclose(fp);
	return count;
}

static void
test_generator_is_linux(void **state)
{
	static struct req cap[4096];
	static struct reqs want;
	size_t		 n, at = 0, intr_at;

	(void)state;
	n = capture_requests(cap, 4096, &intr_at);
	assert_true(n > 0);
	want.n = 0;
	expect_root_hub(&want, &linux_rh, 6, 0x1e);
	assert_int_equal(intr_at, want.n);	/* then the status URB */
	assert_reqs_equal(&want, cap, n, &at);
	want.n = 0;
	expect_port(&want, 1, 2, &qemu_storage);
	expect_port(&want, 2, 3, &qemu_kbd);
	assert_reqs_equal(&want, cap, n, &at);
	/* what follows is usbhid's: the serial again, then SET_IDLE */
	assert_int_equal(cap[at].dev, 3);
	assert_int_equal(cap[at + 1].bm, 0x21);
	assert_int_equal(cap[at + 1].req, 0x0a);
}

/* ------------------------------------------------------------------------
 * The machine.
 */

/* Bus 1's control submits of a run; *intr_at as above. */
static size_t
run_requests(const struct machine *m, struct req *out, size_t max,
    size_t *intr_at)
{
	const struct mrec *x;
	size_t		 i, count = 0;

	*intr_at = 0;
	for (i = 0; i < m->nrec && count < max; i++) {
		x = &m->rec[i];
		if (x->type != 'S')
			continue;
		if (x->xfer_type == XFER_INT && x->devnum == 1 &&
		    *intr_at == 0)
			*intr_at = count;
		if (x->xfer_type != XFER_CTRL)
			continue;
		assert_int_equal(x->flag_setup, 0);
		out[count++] = (struct req){ x->devnum, x->setup[0],
		    x->setup[1], get_le16(x->setup + 2),
		    get_le16(x->setup + 4), get_le16(x->setup + 6) };
	}
	return count;
}

/* Every 'S' is followed by exactly one 'C' or 'E' of the same id before
 * that id is submitted again; returns the URBs still pending. */
static size_t
check_pairs(const struct machine *m)
{
	struct pend {
		uint64_t	 id;
		int		 busy;
	} *p = calloc(m->nrec + 1, sizeof *p);
	size_t		 np = 0, i, j, busy = 0;

	assert_non_null(p);
	for (i = 0; i < m->nrec; i++) {
		for (j = 0; j < np && p[j].id != m->rec[i].id; j++)
			;
		if (j == np)
			p[np++].id = m->rec[i].id;
		if (m->rec[i].type == 'S') {
			if (p[j].busy)
				fail_msg("record %zu: URB %#llx submitted "
				    "while in flight", i,
				    (unsigned long long)m->rec[i].id);
			p[j].busy = 1;
		} else {
			if (!p[j].busy)
				fail_msg("record %zu: URB %#llx completed "
				    "twice or never submitted", i,
				    (unsigned long long)m->rec[i].id);
			p[j].busy = 0;
		}
	}
	for (j = 0; j < np; j++)
		busy += p[j].busy;
	free(p);
	return busy;
}

static struct machine *
four_devices(void)
{
	struct machine	*m = machine_new();

	assert_non_null(m);
	/* the capture's topology: four devices on ports 1-4 */
	assert_int_equal(machine_plug(m, 1, "disk"), 0);
	assert_int_equal(machine_plug(m, 2, "keyboard"), 0);
	assert_int_equal(machine_plug(m, 3, "loopback"), 0);
	assert_int_equal(machine_plug(m, 4, "keyboard"), 0);
	machine_run(m, 3000);
	return m;
}

static void
test_enumeration_is_linux(void **state)
{
	static struct req got[4096];
	static struct reqs want;
	struct machine	*m = four_devices();
	struct usb_device *rh = m->hcd->self.root_hub, *d;
	size_t		 n, at = 0, intr_at;
	int		 port;

	(void)state;
	n = run_requests(m, got, 4096, &intr_at);
	want.n = 0;
	expect_root_hub(&want, &linux_rh, EMU_EHCI_PORTS, 0x1e);
	assert_int_equal(intr_at, want.n);
	assert_reqs_equal(&want, got, n, &at);
	for (port = 1; port <= 4; port++) {
		d = machine_device(m, port);
		assert_non_null(d);
		assert_int_equal(d->devnum, port + 1);
		assert_int_equal(d->state, USB_STATE_CONFIGURED);
		want.n = 0;
		expect_port(&want, port, port + 1, (struct params[]){
		    params_of(d) });
		assert_reqs_equal(&want, got, n, &at);
	}
	assert_int_equal(at, n);		/* and nothing else */

	/* the root hub: Linux's descriptors and its hub driver */
	assert_int_equal(rh->devnum, 1);
	assert_int_equal(rh->maxchild, EMU_EHCI_PORTS);
	assert_string_equal(rh->product, "EHCI Host Controller");
	assert_non_null(usb_dev_priv(rh)->hub);
	assert_int_equal(m->hcd->self.devnum_next, 6);
	assert_int_equal(m->hcd->self.devmap[0], 0x3e);	/* 1-5 */

	/* what the core learnt */
	d = machine_device(m, 2);
	assert_string_equal(d->name, "1-2");
	assert_string_equal(d->product, "Boot Keyboard");
	assert_string_equal(d->manufacturer, "urbscope");
	assert_string_equal(d->serial, "KB-0001");
	assert_int_equal(d->descriptor.idVendor, 0x1209);
	assert_string_equal(d->actconfig->interface[0]->name, "1-2:1.0");
	assert_ptr_equal(d->actconfig->interface[0]->usbdev, d);
	assert_int_equal(d->actconfig->interface[0]->minor, -1);
	assert_non_null(d->ep_in[1]);
	assert_int_equal(d->ep_in[1]->desc.bmAttributes,
	    USB_ENDPOINT_XFER_INT);
	assert_null(d->ep_out[1]);
	d = machine_device(m, 1);
	assert_non_null(d->ep_in[1]);
	assert_non_null(d->ep_out[2]);
	assert_int_equal(le16_to_cpu(d->ep_out[2]->desc.wMaxPacketSize), 512);

	/* only the hub's status URB is still out */
	assert_int_equal(check_pairs(m), 1);
	machine_free(m);
}

/* SET_ADDRESS and everything before it go to device 0; the device keeps
 * devnum 0 until the SET_ADDRESS completed. */
static void
test_address_zero(void **state)
{
	struct machine	*m = four_devices();
	size_t		 i, setaddr = 0;
	int		 addr0 = 0;

	(void)state;
	for (i = 0; i < m->nrec; i++) {
		if (m->rec[i].type != 'S' || m->rec[i].xfer_type != XFER_CTRL)
			continue;
		if (m->rec[i].devnum == 0) {
			addr0++;
			if (m->rec[i].setup[1] == USB_REQ_SET_ADDRESS) {
				setaddr++;
				/* the C of SET_ADDRESS is device 0 too */
				assert_int_equal(m->rec[i + 1].type, 'C');
				assert_int_equal(m->rec[i + 1].devnum, 0);
				assert_int_equal(m->rec[i + 1].status, 0);
				/* the next request is the new address's */
				assert_int_equal(m->rec[i + 2].devnum,
				    m->rec[i].setup[2]);
			} else
				assert_int_equal(m->rec[i].setup[1],
				    USB_REQ_GET_DESCRIPTOR);
		}
	}
	assert_int_equal(setaddr, 4);
	assert_int_equal(addr0, 8);
	machine_free(m);
}

/*
 * The same machine twice, one after the other (sim_current is the one
 * running machine): the same records, byte for byte - URB ids, time
 * stamps, data - through enumeration and an unplug.
 */
static void
test_deterministic(void **state)
{
	struct machine	*a;
	uint8_t		*first;
	size_t		 n, nrec;

	(void)state;
	a = four_devices();
	machine_unplug(a, 2);
	machine_run(a, 500);
	n = a->nbytes;
	nrec = a->nrec;
	first = malloc(n);
	memcpy(first, a->bytes, n);
	/* the first URB of the run is the first slot of the arena */
	assert_int_equal((uintptr_t)a->rec[0].id, URB_ARENA_BASE);
	machine_free(a);

	a = four_devices();
	machine_unplug(a, 2);
	machine_run(a, 500);
	assert_int_equal(a->nrec, nrec);
	assert_int_equal(a->nbytes, n);
	assert_memory_equal(a->bytes, first, n);
	free(first);
	machine_free(a);
}

struct pending {
	int		 count;
	int		 status;
};

static void
pending_complete(struct urb *urb)
{
	struct pending	*p = urb->context;

	p->count++;
	p->status = urb->status;
}

/*
 * Unplug with URBs queued.  What the hub driver finds still queued when it
 * disconnects the device comes back -ESHUTDOWN: the keyboard's two
 * interrupt URBs (polled every 8 ms, the second behind the first).  The
 * loopback's bulk IN is retried by the controller all the time, so it
 * may meet the missing device first and end with a transmission error
 * (-EPROTO after three XactErr, as on real EHCI) - or be flushed too.
 * Either way each completes exactly once, and the devices and their
 * addresses are gone.
 */
static void
test_unplug(void **state)
{
	struct machine	*m = four_devices();
	struct usb_device *kbd = machine_device(m, 2), *lb = machine_device(m,
	    3);
	struct pending	 pk[2], pl = { 0, 0 };
	uint8_t		 kbuf[2][8], lbuf[512];
	struct urb	*uk[2], *ul = usb_alloc_urb(0, GFP_KERNEL);
	size_t		 from, i, noticed = 0, flushed = 0;
	int		 k;

	(void)state;
	memset(pk, 0, sizeof pk);
	for (k = 0; k < 2; k++) {
		uk[k] = usb_alloc_urb(0, GFP_KERNEL);
		usb_fill_int_urb(uk[k], kbd, usb_rcvintpipe(kbd, 1), kbuf[k],
		    sizeof kbuf[k], pending_complete, &pk[k],
		    kbd->ep_in[1]->desc.bInterval);
		assert_int_equal(usb_submit_urb(uk[k], GFP_KERNEL), 0);
	}
	usb_fill_bulk_urb(ul, lb, usb_rcvbulkpipe(lb, 1), lbuf, sizeof lbuf,
	    pending_complete, &pl);
	assert_int_equal(usb_submit_urb(ul, GFP_KERNEL), 0);
	machine_run(m, 100);
	assert_int_equal(pk[0].count + pk[1].count + pl.count, 0);

	from = m->nrec;
	machine_unplug(m, 2);
	machine_unplug(m, 3);
	machine_run(m, 1000);
	for (k = 0; k < 2; k++) {
		assert_int_equal(pk[k].count, 1);
		assert_int_equal(pk[k].status, -ESHUTDOWN);
	}
	assert_int_equal(pl.count, 1);
	assert_true(pl.status == -ESHUTDOWN || pl.status == -EPROTO);
	assert_null(machine_device(m, 2));
	assert_null(machine_device(m, 3));
	assert_non_null(machine_device(m, 1));
	assert_int_equal(m->hcd->self.devmap[0], 0x26);	/* 1, 2, 5 */

	/* the keyboard's URBs went after the hub driver read the port's
	 * disconnect (status 0x0100, change 0x0001) */
	for (i = from; i < m->nrec; i++) {
		if (m->rec[i].type == 'S' && m->rec[i].devnum == 1 &&
		    m->rec[i].setup[0] == 0xa3 && m->rec[i].setup[4] == 2 &&
		    i + 1 < m->nrec && m->rec[i + 1].id == m->rec[i].id &&
		    m->rec[i + 1].data_len == 4 &&
		    get_le16(m->rec[i + 1].data) == 0x0100 &&
		    get_le16(m->rec[i + 1].data + 2) == 0x0001 && noticed == 0)
			noticed = i + 1;
		if (m->rec[i].type == 'C' && m->rec[i].devnum == 3 &&
		    m->rec[i].status == -ESHUTDOWN) {
			assert_true(noticed != 0 && i > noticed);
			flushed++;
		}
	}
	assert_int_equal(flushed, 2);
	for (k = 0; k < 2; k++)
		usb_free_urb(uk[k]);
	usb_free_urb(ul);
	assert_int_equal(check_pairs(m), 1);

	/* a new keyboard there gets the next address, round robin */
	assert_int_equal(machine_plug(m, 2, "keyboard"), 0);
	machine_run(m, 1000);
	assert_non_null(machine_device(m, 2));
	assert_int_equal(machine_device(m, 2)->devnum, 6);
	assert_int_equal(machine_device(m, 2)->state, USB_STATE_CONFIGURED);
	machine_free(m);
}

/*
 * usb_disconnect's order (Linux's hub.c): the device is marked gone with
 * everything below it, the children are disconnected first, then the
 * device's own URBs are flushed.  A device behind the keyboard stands in
 * for a hub's child (the emulator has no external hubs).
 */
static void
test_disconnect_children_first(void **state)
{
	struct machine	*m = four_devices();
	struct usb_device *kbd = machine_device(m, 2), *gc;
	struct pending	 pk = { 0, 0 };
	uint8_t		 buf[8];
	struct urb	*u = usb_alloc_urb(0, GFP_KERNEL);
	uint64_t	 parent, child, flushed = 0;
	size_t		 i;

	(void)state;
	gc = usb_alloc_dev(kbd, &m->hcd->self, 1);
	assert_non_null(gc);
	assert_string_equal(gc->name, "1-2.1");
	gc->devnum = 9;
	usb_set_device_state(gc, USB_STATE_ADDRESS);
	kbd->children[0] = gc;
	usb_get_dev(gc);		/* to look at it afterwards */

	usb_fill_int_urb(u, kbd, usb_rcvintpipe(kbd, 1), buf, sizeof buf,
	    pending_complete, &pk, 7);
	assert_int_equal(usb_submit_urb(u, GFP_KERNEL), 0);
	machine_run(m, 20);
	machine_unplug(m, 2);
	machine_run(m, 500);

	assert_int_equal(pk.count, 1);
	assert_int_equal(pk.status, -ESHUTDOWN);
	assert_int_equal(gc->state, USB_STATE_NOTATTACHED);
	assert_int_equal(gc->refcount, 1);	/* only ours is left */
	parent = machine_logged(m, "usb 1-2: USB disconnect, device number 3");
	child = machine_logged(m, "usb 1-2.1: USB disconnect, device number 9");
	for (i = 0; i < m->nrec; i++) {
		if (m->rec[i].type == 'C' && m->rec[i].status == -ESHUTDOWN &&
		    m->rec[i].devnum == 3)
			flushed = m->rec[i].seq;
	}
	assert_true(parent != 0 && child != 0 && flushed != 0);
	assert_true(parent < child);
	assert_true(child < flushed);
	usb_put_dev(gc);
	usb_free_urb(u);
	machine_free(m);
}

/* A replug is debounced: after C_PORT_CONNECTION, GET_PORT_STATUS every
 * 25 ms until the connection was stable for 100 ms (5 reads), then the
 * reset; as usbmon-0u.txt lines 1521-1541. */
static void
test_replug_debounce(void **state)
{
	static struct req got[4096];
	struct machine	*m = machine_new();
	size_t		 n, i, intr_at, from;
	int		 polls = 0;

	(void)state;
	machine_run(m, 1000);
	from = m->nrec;
	assert_int_equal(machine_plug(m, 3, "loopback"), 0);
	machine_run(m, 1000);
	assert_non_null(machine_device(m, 3));
	assert_int_equal(machine_device(m, 3)->devnum, 2);
	n = run_requests(m, got, 4096, &intr_at);
	for (i = 0; i < n && !(got[i].bm == 0x23 && got[i].req == 1 &&
	    got[i].val == 16 && got[i].idx == 3); i++)
		;
	assert_true(i < n);		/* C_PORT_CONNECTION cleared */
	assert_int_equal(got[i - 1].bm, 0xa3);	/* after GET_PORT_STATUS */
	for (i++; i < n && got[i].bm == 0xa3 && got[i].idx == 3; i++)
		polls++;
	assert_int_equal(polls, 5);
	assert_int_equal(got[i].bm, 0x23);	/* SET_FEATURE(PORT_RESET) */
	assert_int_equal(got[i].req, 3);
	assert_int_equal(got[i].val, 4);
	(void)from;
	machine_free(m);
}

/* A device that never answers: Linux's retries, then the port is
 * disabled and nothing is left behind (ASan checks the leaks). */
static void
test_dead_device(void **state)
{
	struct machine	*m = machine_new();
	struct usb_devmodel *dm = dm_create("loopback", NULL);
	size_t		 i, get64 = 0, setaddr = 0;

	(void)state;
	assert_non_null(dm);
	dm_inject(dm, DM_FAULT_XACTERR, -1, 1 << 30);
	assert_int_equal(emu_ehci_attach(m->emu, 1, dm), 0);
	machine_run(m, 20000);
	assert_null(machine_device(m, 1));
	for (i = 0; i < m->nrec; i++) {
		if (m->rec[i].type != 'S' || m->rec[i].devnum != 0)
			continue;
		if (m->rec[i].setup[1] == USB_REQ_GET_DESCRIPTOR)
			get64++;
		if (m->rec[i].setup[1] == USB_REQ_SET_ADDRESS)
			setaddr++;
	}
	/* 4 tries of hub_port_connect x 2 of hub_port_init x 3 reads */
	assert_int_equal(get64, 4 * 2 * 3);
	assert_int_equal(setaddr, 0);
	/* the addresses tried were given back */
	assert_int_equal(m->hcd->self.devmap[0], 0x02);
	assert_int_equal(check_pairs(m), 1);
	machine_free(m);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_generator_is_linux),
		cmocka_unit_test(test_enumeration_is_linux),
		cmocka_unit_test(test_address_zero),
		cmocka_unit_test(test_deterministic),
		cmocka_unit_test(test_unplug),
		cmocka_unit_test(test_disconnect_children_first),
		cmocka_unit_test(test_replug_debounce),
		cmocka_unit_test(test_dead_device),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
