/*
 * core/driver.c - interfaces meet drivers: the registry of USB interface
 * drivers, id matching, probe and disconnect, interface data, claim and
 * release, and the checks of what a driver leaves behind (Linux's
 * drivers/usb/core/driver.c: usb_match_id, usb_probe_interface,
 * usb_unbind_interface, usb_driver_claim_interface, usb_register_driver;
 * Documentation/driver-api/usb/callbacks.rst; the 2.5 API as Greg
 * Kroah-Hartman described it in "Changes to the USB driver API for the
 * 2.5 series kernel", https://lwn.net/Articles/39249/).
 *
 * Every step is an event: DRV_REGISTER/DRV_DEREGISTER, one DRV_MATCH per
 * id table entry tried, DRV_PROBE and DRV_DISCONNECT with the driver's
 * result, DRV_SET_INTFDATA/DRV_GET_INTFDATA with the pointer, and DRV_RULE
 * when a driver breaks one of these rules:
 *
 *   intfdata-after-disconnect: intfdata still set when disconnect
 *	returned (a stale pointer for the next open())
 *   intfdata-read-after-disconnect: usb_get_intfdata after the driver's
 *	disconnect returned (open() racing disconnect)
 *   probe-error-leftovers: probe failed but left intfdata or a minor
 *	behind (2.6.0's core did not clear intfdata)
 *   minor-leak: usb_register_dev not undone by the end of disconnect
 *	(usb_deregister does not give minors back)
 *   urbs-in-flight-after-disconnect: URBs of the interface's endpoints
 *	still queued when disconnect returned (their completions run after
 *	the driver let go)
 *
 * DRV_MATCH fields: .entry = entry index in the id table, .result = 0 if
 * the entry matched else -ENODEV, .ptr = the entry's driver_info, .text =
 * "entry N flags 0xFFFF: matched" or the first field that failed.
 *
 * The built-in hub driver (hub.c) is tried first on every interface, as
 * usbcore registers it before any other driver; it is entered as driver
 * "hub" but raises no register/match/probe/disconnect events, so the
 * enumeration logs stay Linux's.  Claim and release have the modern
 * semantics (usb_driver_claim_interface: -EBUSY; release is a full
 * unbind).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "core/hcd.h"

/* The hub driver as the registry sees it: bound interfaces point here. */
static struct usb_driver hub_driver = {
	.name = "hub",
};

/* ------------------------------------------------------------------------
 * The registry and the list of configured devices.
 */
static struct usb_core *
driver_core(void)
{
	return usb_core_get(core_sim());
}

void
driver_core_free(struct usb_core *c)
{
	free(c->drivers.v);
	free(c->devices.v);
	memset(&c->drivers, 0, sizeof c->drivers);
	memset(&c->devices, 0, sizeof c->devices);
}

static int
ptrs_find(const struct core_ptrs *a, const void *p)
{
	int	 i;

	for (i = 0; i < a->n; i++) {
		if (a->v[i] == p)
			return i;
	}
	return -1;
}

static int
ptrs_add(struct core_ptrs *a, void *p)
{
	void	**nv;
	int	  ncap;

	if (a->n == a->cap) {
		ncap = a->cap ? a->cap * 2 : 8;
		if ((nv = realloc(a->v, (size_t)ncap * sizeof *nv)) == NULL)
			return -ENOMEM;
		a->v = nv;
		a->cap = ncap;
	}
	a->v[a->n++] = p;
	return 0;
}

/* Remove p, keeping the order of the rest. */
static void
ptrs_remove(struct core_ptrs *a, const void *p)
{
	int	 i;

	if ((i = ptrs_find(a, p)) < 0)
		return;
	memmove(&a->v[i], &a->v[i + 1], (size_t)(a->n - i - 1) *
	    sizeof *a->v);
	a->n--;
}

/* ------------------------------------------------------------------------
 * Matching: 2.6.0's usb_match_id plus the modern vendor-class rule and
 * bInterfaceNumber (usb_match_one_id_intf).
 */

/* 2.6.0's terminator: idVendor, bDeviceClass, bInterfaceClass and
 * driver_info all 0 (an entry with only driver_info matches anything). */
static int
id_is_terminator(const struct usb_device_id *id)
{
	return id->idVendor == 0 && id->bDeviceClass == 0 &&
	    id->bInterfaceClass == 0 && id->driver_info == 0;
}

/*
 * Does entry id match intf?  If not and why is not NULL, the first field
 * that failed goes there ("idVendor 0x1209 != 0xfff0": the device's
 * value, then the entry's).
 */
static int
match_one_id(struct usb_interface *intf, const struct usb_device_id *id,
    char *why, size_t len)
{
	const struct usb_device_descriptor *dd = &intf->usbdev->descriptor;
	const struct usb_interface_descriptor *ifd =
	    &intf->cur_altsetting->desc;
	char		 dummy[96];

	if (why == NULL) {
		why = dummy;
		len = sizeof dummy;
	}
#define MATCH_EQ(flag, field, dev, fmt)					\
	if ((id->match_flags & (flag)) && (id->field) != (dev)) {	\
		snprintf(why, len, #field " " fmt " != " fmt,		\
		    (unsigned)(dev), (unsigned)(id->field));		\
		return 0;						\
	}
	MATCH_EQ(USB_DEVICE_ID_MATCH_VENDOR, idVendor, le16_to_cpu(
	    dd->idVendor), "0x%04x");
	MATCH_EQ(USB_DEVICE_ID_MATCH_PRODUCT, idProduct, le16_to_cpu(
	    dd->idProduct), "0x%04x");
	if ((id->match_flags & USB_DEVICE_ID_MATCH_DEV_LO) &&
	    id->bcdDevice_lo > le16_to_cpu(dd->bcdDevice)) {
		snprintf(why, len, "bcdDevice 0x%04x < bcdDevice_lo 0x%04x",
		    le16_to_cpu(dd->bcdDevice), id->bcdDevice_lo);
		return 0;
	}
	if ((id->match_flags & USB_DEVICE_ID_MATCH_DEV_HI) &&
	    id->bcdDevice_hi < le16_to_cpu(dd->bcdDevice)) {
		snprintf(why, len, "bcdDevice 0x%04x > bcdDevice_hi 0x%04x",
		    le16_to_cpu(dd->bcdDevice), id->bcdDevice_hi);
		return 0;
	}
	MATCH_EQ(USB_DEVICE_ID_MATCH_DEV_CLASS, bDeviceClass,
	    dd->bDeviceClass, "0x%02x");
	MATCH_EQ(USB_DEVICE_ID_MATCH_DEV_SUBCLASS, bDeviceSubClass,
	    dd->bDeviceSubClass, "0x%02x");
	MATCH_EQ(USB_DEVICE_ID_MATCH_DEV_PROTOCOL, bDeviceProtocol,
	    dd->bDeviceProtocol, "0x%02x");
	/* as usb_match_one_id_intf: interface codes of a vendor-specific
	 * device mean nothing unless the entry names the vendor */
	if (dd->bDeviceClass == USB_CLASS_VENDOR_SPEC &&
	    !(id->match_flags & USB_DEVICE_ID_MATCH_VENDOR) &&
	    (id->match_flags & (USB_DEVICE_ID_MATCH_INT_INFO |
	    USB_DEVICE_ID_MATCH_INT_NUMBER))) {
		snprintf(why, len, "bDeviceClass 0xff (vendor specific) "
		    "and interface fields without idVendor");
		return 0;
	}
	MATCH_EQ(USB_DEVICE_ID_MATCH_INT_CLASS, bInterfaceClass,
	    ifd->bInterfaceClass, "0x%02x");
	MATCH_EQ(USB_DEVICE_ID_MATCH_INT_SUBCLASS, bInterfaceSubClass,
	    ifd->bInterfaceSubClass, "0x%02x");
	MATCH_EQ(USB_DEVICE_ID_MATCH_INT_PROTOCOL, bInterfaceProtocol,
	    ifd->bInterfaceProtocol, "0x%02x");
	MATCH_EQ(USB_DEVICE_ID_MATCH_INT_NUMBER, bInterfaceNumber,
	    ifd->bInterfaceNumber, "%u");
#undef MATCH_EQ
	return 1;
}

const struct usb_device_id *
usb_match_id(struct usb_interface *intf, const struct usb_device_id *id)
{
	if (intf == NULL || id == NULL || intf->usbdev == NULL ||
	    intf->cur_altsetting == NULL)
		return NULL;
	for (; !id_is_terminator(id); id++) {
		if (match_one_id(intf, id, NULL, 0))
			return id;
	}
	return NULL;
}

/* usb_match_id with one DRV_MATCH event per entry tried. */
static const struct usb_device_id *
match_id_logged(struct usb_interface *intf, struct usb_driver *drv)
{
	const struct usb_device_id *id;
	struct drv_event ev;
	char		 why[96], text[256];
	int		 n, ok;

	if ((id = drv->id_table) == NULL)
		return NULL;
	for (n = 0; !id_is_terminator(id); id++, n++) {
		ok = match_one_id(intf, id, why, sizeof why);
		snprintf(text, sizeof text, "%s %s: entry %d flags 0x%04x: %s",
		    drv->name, intf->name, n, id->match_flags,
		    ok ? "matched" : why);
		core_event_init(&ev, DRV_MATCH, NULL, intf);
		ev.driver = drv->name;
		ev.func = "match";
		ev.entry = (uint32_t)n;
		ev.result = ok ? 0 : -ENODEV;
		ev.ptr = (uint64_t)id->driver_info;
		ev.text = text;
		core_event_emit(&ev);
		if (ok)
			return id;
	}
	return NULL;
}

/* ------------------------------------------------------------------------
 * Probe and unbind.
 */
static void
result_event(enum drv_kind kind, struct usb_interface *intf,
    struct usb_driver *drv, const char *func, int result)
{
	struct drv_event ev;
	char		 text[160];

	if (kind == DRV_PROBE)
		snprintf(text, sizeof text, "%s %s: probe returned %d",
		    drv->name, intf->name, result);
	else
		snprintf(text, sizeof text, "%s %s: disconnect returned",
		    drv->name, intf->name);
	core_event_init(&ev, kind, NULL, intf);
	ev.driver = drv->name;
	ev.func = func;
	ev.result = result;
	ev.minor = intf->minor;
	ev.text = text;
	core_event_emit(&ev);
}

/* The driver core's warning, worded as dd.c words it. */
static void
probe_failed_log(struct usb_interface *intf, struct usb_driver *drv, int err)
{
	struct drv_event ev;
	char		 text[160];

	snprintf(text, sizeof text, "%s: probe of %s failed with error %d",
	    drv->name, intf->name, err);
	core_event_init(&ev, DRV_LOG, NULL, intf);
	ev.driver = drv->name;
	ev.func = "probe";
	ev.result = err;
	ev.text = text;
	core_event_emit(&ev);
}

static int
intf_has_minor(struct usb_interface *intf)
{
	return intf->minor >= 0 || core_intf_has_minor(intf);
}

/*
 * Offer intf to drv, as usb_probe_interface does: match, then probe in
 * task context.  Returns 0 when bound, -ENODEV when no entry matched,
 * else probe's error (the core has cleared intfdata and unbound).
 */
static int
driver_probe_intf(struct usb_driver *drv, struct usb_interface *intf)
{
	struct usb_interface_priv *ip = usb_intf_priv(intf);
	struct usb_device *udev = intf->usbdev;
	const struct usb_device_id *id;
	int		 err;

	if (drv->probe == NULL || (id = match_id_logged(intf, drv)) == NULL)
		return -ENODEV;
	ip->condition = USB_INTERFACE_BINDING;
	ip->gone = NULL;
	intf->driver = drv;
	core_enter_driver(drv->name, "probe");
	err = drv->probe(intf, id);
	core_leave_driver();
	result_event(DRV_PROBE, intf, drv, "probe", err);
	if (err == 0) {
		ip->condition = USB_INTERFACE_BOUND;
		return 0;
	}
	if (intf->intfdata != NULL || intf_has_minor(intf))
		core_rule(udev, intf, drv->name, "probe",
		    "probe-error-leftovers", "%s %s: probe failed with %d but "
		    "left %s%s%s behind", drv->name, intf->name, err,
		    intf->intfdata != NULL ? "intfdata set" : "",
		    intf->intfdata != NULL && intf_has_minor(intf) ?
		    " and " : "",
		    intf_has_minor(intf) ? "a minor registered" : "");
	/* -ENODEV/-ENXIO reject the match quietly; the rest is reported
	 * and swallowed (drivers/base/dd.c) */
	if (err != -ENODEV && err != -ENXIO)
		probe_failed_log(intf, drv, err);
	intf->intfdata = NULL;		/* modern: the core clears it */
	intf->driver = NULL;
	ip->condition = USB_INTERFACE_UNBOUND;
	return err;
}

static int
is_hub_interface(const struct usb_device *udev,
    const struct usb_interface *intf)
{
	return udev->descriptor.bDeviceClass == USB_CLASS_HUB ||
	    intf->cur_altsetting->desc.bInterfaceClass == USB_CLASS_HUB;
}

/* The hub driver first, then registered drivers in order. */
static void
bind_interface(struct usb_device *udev, struct usb_interface *intf)
{
	struct usb_core	*c = driver_core();
	struct usb_host_config *cp = udev->actconfig;
	int		 i, err;

	if (usb_dev_priv(udev)->hub == NULL && is_hub_interface(udev, intf)) {
		core_enter_driver(hub_driver.name, "probe");
		err = hub_probe(intf);
		core_leave_driver();
		if (err == 0) {
			intf->driver = &hub_driver;
			usb_intf_priv(intf)->condition = USB_INTERFACE_BOUND;
			return;
		}
	}
	for (i = 0; c != NULL && i < c->drivers.n; i++) {
		if (driver_probe_intf(c->drivers.v[i], intf) == 0)
			return;
		/* probe may have unplugged or reconfigured the device */
		if (udev->actconfig != cp || intf->driver != NULL)
			return;
	}
}

/* Walk the interface's current endpoints: URBs still queued. */
static int
intf_urbs_queued(struct usb_interface *intf)
{
	struct usb_host_interface *alt = intf->cur_altsetting;
	struct list_head *l;
	unsigned int	 i;
	int		 n = 0;

	for (i = 0; i < alt->desc.bNumEndpoints; i++) {
		for (l = alt->endpoint[i].urb_list.next;
		    l != NULL && l != &alt->endpoint[i].urb_list; l = l->next)
			n++;
	}
	return n;
}

/*
 * Unbind intf from its driver: disconnect() in task context, the rules
 * on what it left, the core clears intfdata (usb_unbind_interface), then the
 * interface's endpoints are flushed with -ESHUTDOWN.  Flushing after
 * disconnect is 2.6.0's unbind order (modern Linux flushes before); it
 * is what lets "urbs-in-flight-after-disconnect" see what a driver
 * failed to kill.  Unplug and SET_CONFIGURATION come here too.
 */
static void
unbind_interface(struct usb_interface *intf)
{
	struct usb_interface_priv *ip = usb_intf_priv(intf);
	struct usb_device *udev = intf->usbdev;
	struct usb_driver *drv = intf->driver;
	int		 n;

	if (drv == NULL || ip->condition == USB_INTERFACE_UNBINDING)
		return;
	if (drv == &hub_driver) {
		/* the hub's own order: its URBs go first */
		usb_disable_interface(udev, intf, 0);
		core_enter_driver(hub_driver.name, "disconnect");
		hub_disconnect(intf);
		core_leave_driver();
		intf->driver = NULL;
		ip->condition = USB_INTERFACE_UNBOUND;
		return;
	}
	ip->condition = USB_INTERFACE_UNBINDING;
	if (drv->disconnect != NULL) {
		core_enter_driver(drv->name, "disconnect");
		drv->disconnect(intf);
		core_leave_driver();
	}
	result_event(DRV_DISCONNECT, intf, drv, "disconnect", 0);
	if (intf->intfdata != NULL)
		core_rule(udev, intf, drv->name, "disconnect",
		    "intfdata-after-disconnect", "%s %s: intfdata %p still "
		    "set when disconnect returned", drv->name, intf->name,
		    intf->intfdata);
	if (intf_has_minor(intf))
		core_rule(udev, intf, drv->name, "disconnect", "minor-leak",
		    "%s %s: minor %d still registered when disconnect "
		    "returned (no usb_deregister_dev)", drv->name, intf->name,
		    intf->minor);
	if ((n = intf_urbs_queued(intf)) > 0)
		core_rule(udev, intf, drv->name, "disconnect",
		    "urbs-in-flight-after-disconnect", "%s %s: %d URB%s still "
		    "queued when disconnect returned", drv->name, intf->name,
		    n, n == 1 ? "" : "s");
	intf->intfdata = NULL;
	intf->driver = NULL;
	ip->gone = drv->name;
	ip->condition = USB_INTERFACE_UNBOUND;
	/* the completions of what it left run now, after it let go: their
	 * usb_get_intfdata is a read after disconnect */
	usb_disable_interface(udev, intf, 0);
	usb_enable_interface(udev, intf);
}

/* ------------------------------------------------------------------------
 * The hooks of usb.c and message.c.
 */
void
usb_probe_interfaces(struct usb_device *udev)
{
	struct usb_core	*c = driver_core();
	struct usb_host_config *cp = udev->actconfig;
	struct usb_host_interface *alt;
	struct usb_interface *intf;
	int		 i;

	if (cp == NULL)
		return;
	if (c != NULL && ptrs_find(&c->devices, udev) < 0)
		(void)ptrs_add(&c->devices, udev);
	usb_get_dev(udev);
	for (i = 0; i < cp->desc.bNumInterfaces; i++) {
		if ((intf = cp->interface[i]) == NULL)
			continue;
		alt = intf->cur_altsetting;
		/* device_add: the interface's sysfs files, its string */
		if (alt->string == NULL && alt->desc.iInterface != 0)
			alt->string = usb_cache_string(udev,
			    alt->desc.iInterface);
		core_log(udev, NULL, "usb", __func__, "adding %s (config #%d, "
		    "interface %d) class %02x/%02x/%02x", intf->name,
		    cp->desc.bConfigurationValue, alt->desc.bInterfaceNumber,
		    alt->desc.bInterfaceClass, alt->desc.bInterfaceSubClass,
		    alt->desc.bInterfaceProtocol);
		if (intf->driver == NULL)	/* claimed by a sibling? */
			bind_interface(udev, intf);
		/* probe may have unplugged or reconfigured the device */
		if (udev->actconfig != cp)
			break;
	}
	usb_put_dev(udev);
}

void
usb_disconnect_interfaces(struct usb_device *udev)
{
	struct usb_core	*c = driver_core();
	struct usb_host_config *cp = udev->actconfig;
	int		 i;

	for (i = 0; cp != NULL && i < cp->desc.bNumInterfaces; i++) {
		if (cp->interface[i] != NULL)
			unbind_interface(cp->interface[i]);
	}
	if (c != NULL)
		ptrs_remove(&c->devices, udev);
}

/* ------------------------------------------------------------------------
 * Registration (usb_register_driver, usb_deregister).
 */
static void
registry_event(enum drv_kind kind, struct usb_driver *drv, const char *text)
{
	struct drv_event ev;

	core_event_init(&ev, kind, NULL, NULL);
	ev.driver = drv->name;
	ev.func = kind == DRV_REGISTER ? "usb_register" : "usb_deregister";
	ev.text = text;
	core_event_emit(&ev);
}

int
usb_register(struct usb_driver *driver)
{
	struct usb_core	*c = driver_core();
	struct usb_device *udev;
	struct usb_host_config *cp;
	char		 text[160];
	int		 d, i;

	if (c == NULL)
		return -ENODEV;		/* no USB: Linux's "nousb" */
	if (driver == NULL || driver->name == NULL)
		return -EINVAL;
	if (ptrs_find(&c->drivers, driver) >= 0)
		return -EBUSY;
	if (ptrs_add(&c->drivers, driver) != 0)
		return -ENOMEM;
	snprintf(text, sizeof text, "usbcore: registered new interface "
	    "driver %s", driver->name);
	registry_event(DRV_REGISTER, driver, text);

	/* driver_attach: every unbound interface of every configured
	 * device, in the order they appeared */
	for (d = 0; d < c->devices.n; d++) {
		udev = usb_get_dev(c->devices.v[d]);
		cp = udev->actconfig;
		for (i = 0; cp != NULL && i < cp->desc.bNumInterfaces; i++) {
			if (cp->interface[i] == NULL ||
			    cp->interface[i]->driver != NULL)
				continue;
			(void)driver_probe_intf(driver, cp->interface[i]);
			if (udev->actconfig != cp)
				break;
		}
		usb_put_dev(udev);
		/* a probe that unplugged a device shifted the list */
		if (d < c->devices.n && c->devices.v[d] != udev)
			d--;
	}
	return 0;
}

void
usb_deregister(struct usb_driver *driver)
{
	struct usb_core	*c = driver_core();
	struct usb_device *udev;
	struct usb_host_config *cp;
	char		 text[160];
	int		 d, i;

	if (c == NULL || driver == NULL || ptrs_find(&c->drivers, driver) < 0)
		return;
	for (d = 0; d < c->devices.n; d++) {
		udev = usb_get_dev(c->devices.v[d]);
		cp = udev->actconfig;
		for (i = 0; cp != NULL && i < cp->desc.bNumInterfaces; i++) {
			if (cp->interface[i] != NULL &&
			    cp->interface[i]->driver == driver)
				unbind_interface(cp->interface[i]);
		}
		usb_put_dev(udev);
		if (d < c->devices.n && c->devices.v[d] != udev)
			d--;
	}
	ptrs_remove(&c->drivers, driver);
	/* minors are not given back here, as in Linux's usb_deregister */
	snprintf(text, sizeof text, "usbcore: deregistering interface "
	    "driver %s", driver->name);
	registry_event(DRV_DEREGISTER, driver, text);
}

/* ------------------------------------------------------------------------
 * Interfaces of a driver, claim and release, intfdata.
 */
struct usb_interface *
usb_find_interface(struct usb_driver *drv, int minor)
{
	struct usb_core	*c = driver_core();
	struct usb_device *udev;
	struct usb_host_config *cp;
	struct usb_interface *intf;
	int		 d, i;

	for (d = 0; c != NULL && d < c->devices.n; d++) {
		udev = c->devices.v[d];
		cp = udev->actconfig;
		for (i = 0; cp != NULL && i < cp->desc.bNumInterfaces; i++) {
			intf = cp->interface[i];
			if (intf != NULL && intf->driver == drv &&
			    intf->minor == minor)
				return intf;
		}
	}
	return NULL;
}

/* Modern semantics: -EBUSY if bound, no probe call, intfdata = priv. */
int
usb_driver_claim_interface(struct usb_driver *driver,
    struct usb_interface *intf, void *priv)
{
	struct usb_interface_priv *ip;

	if (intf == NULL || driver == NULL)
		return -ENODEV;
	if (intf->driver != NULL)
		return -EBUSY;
	ip = usb_intf_priv(intf);
	intf->driver = driver;
	ip->gone = NULL;
	usb_set_intfdata(intf, priv);
	ip->condition = USB_INTERFACE_BOUND;
	return 0;
}

/* Modern semantics: the full unbind (disconnect() is called); refused
 * unless bound, so from inside its own disconnect it does nothing. */
void
usb_driver_release_interface(struct usb_driver *driver,
    struct usb_interface *intf)
{
	if (intf == NULL || intf->driver == NULL || intf->driver != driver ||
	    usb_intf_priv(intf)->condition != USB_INTERFACE_BOUND)
		return;
	unbind_interface(intf);
}

static void
intfdata_event(enum drv_kind kind, struct usb_interface *intf, void *data)
{
	struct drv_event ev;
	char		 text[160];

	core_event_init(&ev, kind, NULL, intf);
	snprintf(text, sizeof text, "%s %s: usb_%s_intfdata %p",
	    ev.driver != NULL ? ev.driver : "usbcore", intf->name,
	    kind == DRV_SET_INTFDATA ? "set" : "get", data);
	ev.ptr = (uint64_t)(uintptr_t)data;
	ev.minor = intf->minor;
	ev.text = text;
	core_event_emit(&ev);
}

void
usb_set_intfdata(struct usb_interface *intf, void *data)
{
	if (intf == NULL)
		return;
	intfdata_event(DRV_SET_INTFDATA, intf, data);
	intf->intfdata = data;
}

void *
usb_get_intfdata(struct usb_interface *intf)
{
	struct usb_interface_priv *ip;

	if (intf == NULL)
		return NULL;
	ip = usb_intf_priv(intf);
	if (ip->condition == USB_INTERFACE_UNBOUND && ip->gone != NULL)
		core_rule(NULL, intf, NULL, NULL,
		    "intfdata-read-after-disconnect", "%s: usb_get_intfdata "
		    "after %s's disconnect returned", intf->name, ip->gone);
	intfdata_event(DRV_GET_INTFDATA, intf, intf->intfdata);
	return intf->intfdata;
}
