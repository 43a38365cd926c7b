/*
 * core/usb.c - USB devices in the core: allocation and references, bus
 * addresses, configuration descriptor parsing (drivers/usb/core/config.c),
 * endpoint and interface enabling (the interface hooks are in driver.c),
 * usb_new_device's enumeration and usb_disconnect (drivers/usb/core/hub.c,
 * usb.c, message.c of Linux 6.1).
 *
 * Descriptors are read from wire bytes field by field; lengths a device
 * lies about are clamped or skipped as Linux does, never trusted.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "core/hcd.h"

#define USB_MAXCONFIG		8	/* Linux's limit on configurations */
#define USB_MAXINTERFACES	32
#define USB_MAXALTSETTING	128
#define USB_MAXENDPOINTS	30

/* ------------------------------------------------------------------------
 * The core's state per machine, events.
 */
struct usb_core *
usb_core_get(struct sim *s)
{
	struct usb_core	*c;

	if (s == NULL)
		return NULL;
	if (s->core != NULL)
		return s->core;
	if ((c = calloc(1, sizeof *c)) == NULL)
		return NULL;
	c->sim = s;
	c->arena.base = URB_ARENA_BASE;
	c->heap.base = HEAP_ARENA_BASE;
	s->core = c;
	return c;
}

void
usb_core_free(struct sim *s)
{
	struct usb_core	*c;

	if (s == NULL || (c = s->core) == NULL)
		return;
	if (c->urbs_live != 0) {
		/* unmapping would turn their later usb_free_urb into a crash */
		fprintf(stderr, "urbscope: %ld URBs still allocated at exit; "
		    "keeping the URB arena\n", c->urbs_live);
	} else
		urb_arena_free(c);
	driver_core_free(c);
	urb_info_free(c);
	file_core_free(c);
	free(c);
	s->core = NULL;
}

int
core_may_sleep(const char *what)
{
	struct sim	*s = core_sim();

	if (s == NULL)
		return 0;
	if (sim_may_sleep(s))
		return 1;
	/* the one "sleep-in-atomic" check: urb.c, message.c, sync.c */
	core_rule(NULL, NULL, NULL, NULL, "sleep-in-atomic", "%s called in "
	    "%s context, where it must not sleep", what, s->ctx == SIM_IRQ ?
	    "interrupt" : s->ctx == SIM_SOFTIRQ ? "timer" : "atomic");
	return 0;
}

/* ------------------------------------------------------------------------
 * Devices: allocation, references, state, addresses.
 */
struct usb_device *
usb_alloc_dev(struct usb_device *parent, struct usb_bus *bus,
    unsigned int port1)
{
	struct usb_device_priv *p;
	struct usb_device *dev;
	int		 n;

	if (bus == NULL || (parent != NULL &&
	    (port1 < 1 || port1 > USB_MAXCHILDREN)))
		return NULL;
	if ((p = calloc(1, sizeof *p)) == NULL)
		return NULL;
	dev = &p->udev;
	dev->state = USB_STATE_ATTACHED;
	dev->speed = USB_SPEED_UNKNOWN;
	dev->bus = bus;
	dev->parent = parent;
	dev->refcount = 1;

	/* ep0 exists from the start; its wMaxPacketSize is set by speed */
	dev->ep0.desc.bLength = USB_DT_ENDPOINT_SIZE;
	dev->ep0.desc.bDescriptorType = USB_DT_ENDPOINT;
	dev->ep0.desc.bmAttributes = USB_ENDPOINT_XFER_CONTROL;
	dev->ep0.desc.wMaxPacketSize = cpu_to_le16(64);
	INIT_LIST_HEAD(&dev->ep0.urb_list);
	usb_enable_endpoint(dev, &dev->ep0);

	/* Linux's names: root hub "usb1" with devpath "0", then "1-2.3". */
	if (parent == NULL) {
		dev->devpath[0] = '0';
		dev->devpath[1] = '\0';
		n = snprintf(dev->name, sizeof dev->name, "usb%d",
		    bus->busnum);
	} else {
		dev->portnum = (int)port1;
		if (parent->parent == NULL)
			n = snprintf(dev->devpath, sizeof dev->devpath, "%u",
			    port1);
		else
			n = snprintf(dev->devpath, sizeof dev->devpath,
			    "%s.%u", parent->devpath, port1);
		if (n < 0 || (size_t)n >= sizeof dev->devpath)
			goto toodeep;
		n = snprintf(dev->name, sizeof dev->name, "%d-%s",
		    bus->busnum, dev->devpath);
	}
	if (n < 0 || (size_t)n >= sizeof dev->name)
		goto toodeep;
	return dev;
toodeep:
	free(p);
	return NULL;
}

struct usb_device *
usb_get_dev(struct usb_device *dev)
{
	if (dev != NULL)
		dev->refcount++;
	return dev;
}

static void
free_altsettings(struct usb_intf_cache *ic)
{
	unsigned	 a;

	for (a = 0; a < ic->num_altsetting; a++) {
		free(ic->altsetting[a].endpoint);
		free(ic->altsetting[a].string);
	}
	free(ic->altsetting);
	ic->altsetting = NULL;
	ic->num_altsetting = 0;
}

static void
destroy_configuration(struct usb_device *dev)
{
	struct usb_device_priv *p = usb_dev_priv(dev);
	struct usb_host_config *cfg;
	int		 c, i;

	for (c = 0; c < p->nconfig; c++) {
		cfg = &dev->config[c];
		for (i = 0; i < USB_MAXINTERFACES; i++) {
			free(cfg->interface[i]);
			free_altsettings(&p->cache[c].intf[i]);
		}
		free(cfg->string);
		free(cfg->raw);
	}
	free(dev->config);
	free(p->cache);
	dev->config = NULL;
	dev->actconfig = NULL;
	p->cache = NULL;
	p->nconfig = 0;
}

void
usb_put_dev(struct usb_device *dev)
{
	struct usb_device_priv *p;

	if (dev == NULL || --dev->refcount > 0)
		return;
	p = usb_dev_priv(dev);
	destroy_configuration(dev);
	free(dev->product);
	free(dev->manufacturer);
	free(dev->serial);
	free(p->bos);
	free(p);
}

static void
mark_notattached(struct usb_device *udev)
{
	int	 i;

	for (i = 0; i < USB_MAXCHILDREN; i++) {
		if (udev->children[i] != NULL)
			mark_notattached(udev->children[i]);
	}
	udev->state = USB_STATE_NOTATTACHED;
}

/* Linux's usb_set_device_state: NOTATTACHED is final and spreads to the
 * children, so their submissions fail at once. */
void
usb_set_device_state(struct usb_device *udev, enum usb_device_state new_state)
{
	if (udev->state == USB_STATE_NOTATTACHED)
		return;
	if (new_state == USB_STATE_NOTATTACHED)
		mark_notattached(udev);
	else
		udev->state = new_state;
}

static int
devmap_test(const struct usb_bus *bus, int n)
{
	return (bus->devmap[n / 8] >> (n % 8)) & 1;
}

static void
devmap_set(struct usb_bus *bus, int n, int on)
{
	if (on)
		bus->devmap[n / 8] |= (uint8_t)(1u << (n % 8));
	else
		bus->devmap[n / 8] &= (uint8_t)~(1u << (n % 8));
}

static int
devmap_next_zero(const struct usb_bus *bus, int from)
{
	int	 n;

	for (n = from; n < 128; n++) {
		if (!devmap_test(bus, n))
			return n;
	}
	return 128;
}

/* drivers/usb/core/hub.c choose_devnum. */
int
usb_choose_devnum(struct usb_device *udev)
{
	struct usb_bus	*bus = udev->bus;
	int		 devnum;

	devnum = devmap_next_zero(bus, bus->devnum_next < 1 ? 1 :
	    bus->devnum_next);
	if (devnum >= 128)
		devnum = devmap_next_zero(bus, 1);
	bus->devnum_next = devnum >= 127 ? 1 : devnum + 1;
	if (devnum >= 128)
		return -ENOSPC;
	devmap_set(bus, devnum, 1);
	usb_dev_priv(udev)->devnum_chosen = devnum;
	return devnum;
}

void
usb_release_devnum(struct usb_device *udev)
{
	struct usb_device_priv *p = usb_dev_priv(udev);

	if (p->devnum_chosen > 0 && p->devnum_chosen < 128)
		devmap_set(udev->bus, p->devnum_chosen, 0);
	p->devnum_chosen = 0;
}

/* ------------------------------------------------------------------------
 * Endpoints and interfaces (Linux message.c): the ep_in/ep_out maps hold
 * ep0 and the endpoints of the current altsettings of the active
 * configuration, each enabled.
 */
void
usb_enable_endpoint(struct usb_device *udev, struct usb_host_endpoint *ep)
{
	int	 epnum = ep->desc.bEndpointAddress & USB_ENDPOINT_NUMBER_MASK;
	int	 is_control = (ep->desc.bmAttributes &
	    USB_ENDPOINT_XFERTYPE_MASK) == USB_ENDPOINT_XFER_CONTROL;
	int	 is_out = !(ep->desc.bEndpointAddress & USB_DIR_IN);

	if (is_out || is_control)
		udev->ep_out[epnum] = ep;
	if (!is_out || is_control)
		udev->ep_in[epnum] = ep;
	ep->enabled = 1;
}

/*
 * Flush the endpoint's URBs (-ESHUTDOWN) and let the HCD drop its state
 * (the QH).  With reset_hardware the endpoint also leaves the maps (ep0
 * stays).  The HCD glue has one call for flush and disable, so a soft
 * unbind loses the queue head too; the next URB makes a new one.
 */
void
usb_disable_endpoint(struct usb_device *udev, unsigned int epaddr,
    int reset_hardware)
{
	unsigned int	 epnum = epaddr & USB_ENDPOINT_NUMBER_MASK;
	struct usb_host_endpoint **map, *ep;
	int		 was_enabled;

	map = (epaddr & USB_DIR_IN) ? udev->ep_in : udev->ep_out;
	if ((ep = map[epnum]) == NULL)
		return;
	if (reset_hardware && epnum != 0)
		map[epnum] = NULL;
	was_enabled = ep->enabled;
	ep->enabled = 0;
	/* ep0 sits in both maps: tell the HCD once */
	if (was_enabled || !list_empty(&ep->urb_list) || ep->hcpriv != NULL)
		usb_hcd_disable_endpoint(udev, ep);
}

void
usb_enable_interface(struct usb_device *udev, struct usb_interface *intf)
{
	struct usb_host_interface *alt = intf->cur_altsetting;
	unsigned int	 i;

	for (i = 0; i < alt->desc.bNumEndpoints; i++)
		usb_enable_endpoint(udev, &alt->endpoint[i]);
}

void
usb_disable_interface(struct usb_device *udev, struct usb_interface *intf,
    int reset_hardware)
{
	struct usb_host_interface *alt = intf->cur_altsetting;
	unsigned int	 i;

	for (i = 0; i < alt->desc.bNumEndpoints; i++)
		usb_disable_endpoint(udev,
		    alt->endpoint[i].desc.bEndpointAddress, reset_hardware);
}

/* After SET_ADDRESS or a new ep0 maxpacket: the HCD's ep0 state goes. */
void
usb_ep0_reinit(struct usb_device *udev)
{
	usb_disable_endpoint(udev, 0 | USB_DIR_IN, 1);
	usb_disable_endpoint(udev, 0 | USB_DIR_OUT, 1);
	usb_enable_endpoint(udev, &udev->ep0);
}

void
usb_disable_device(struct usb_device *udev, int skip_ep0)
{
	struct usb_host_config *cp = udev->actconfig;
	int		 i;

	if (cp != NULL) {
		usb_disconnect_interfaces(udev);
		for (i = 0; i < cp->desc.bNumInterfaces; i++) {
			if (cp->interface[i] != NULL)
				usb_disable_interface(udev, cp->interface[i],
				    1);
			file_intf_gone(cp->interface[i]);
			urb_intf_gone(cp->interface[i]);
			free(cp->interface[i]);
			cp->interface[i] = NULL;
		}
		udev->actconfig = NULL;
		if (udev->state == USB_STATE_CONFIGURED)
			usb_set_device_state(udev, USB_STATE_ADDRESS);
	}
	for (i = skip_ep0 ? 1 : 0; i < 16; i++) {
		usb_disable_endpoint(udev, (unsigned int)i, 1);
		usb_disable_endpoint(udev, (unsigned int)i | USB_DIR_IN, 1);
	}
}

struct usb_interface *
usb_ifnum_to_if(const struct usb_device *udev, unsigned int ifnum)
{
	struct usb_host_config *cp = udev->actconfig;
	int		 i;

	if (cp == NULL)
		return NULL;
	for (i = 0; i < cp->desc.bNumInterfaces; i++) {
		if (cp->interface[i] != NULL &&
		    cp->interface[i]->altsetting[0].desc.bInterfaceNumber ==
		    ifnum)
			return cp->interface[i];
	}
	return NULL;
}

struct usb_host_interface *
usb_altnum_to_altsetting(const struct usb_interface *intf,
    unsigned int altnum)
{
	unsigned int	 i;

	for (i = 0; i < intf->num_altsetting; i++) {
		if (intf->altsetting[i].desc.bAlternateSetting == altnum)
			return &intf->altsetting[i];
	}
	return NULL;
}

/* ------------------------------------------------------------------------
 * Configuration descriptors (Linux config.c usb_parse_configuration).
 */

/* Is the endpoint address already in this altsetting? */
static int
ep_duplicate(const struct usb_host_interface *alt, uint8_t addr)
{
	unsigned int	 i;

	for (i = 0; i < alt->desc.bNumEndpoints; i++) {
		if (alt->endpoint[i].desc.bEndpointAddress == addr)
			return 1;
	}
	return 0;
}

/*
 * One endpoint descriptor p[0..blen) into alt (room for maxep).  Linux's
 * usb_parse_endpoint: short, address-0, surplus and duplicate endpoints
 * are skipped; a periodic bInterval out of range gets Linux's default.
 */
static void
parse_endpoint(struct usb_device *udev, int cfgval, struct usb_host_interface
    *alt, unsigned int maxep, const uint8_t *p, size_t blen)
{
	struct usb_host_endpoint *ep;
	struct usb_endpoint_descriptor *d;
	int		 lo = 0, hi = 255, def = 0, type, n;
	uint8_t		 addr;

	if (blen < USB_DT_ENDPOINT_SIZE) {
		core_log(udev, NULL, "usb", __func__, "config %d interface %d "
		    "altsetting %d has an invalid endpoint descriptor of "
		    "length %zu, skipping", cfgval, alt->desc.bInterfaceNumber,
		    alt->desc.bAlternateSetting, blen);
		return;
	}
	addr = p[2];
	if ((addr & ~USB_ENDPOINT_DIR_MASK) == 0) {
		core_log(udev, NULL, "usb", __func__, "config %d interface %d "
		    "altsetting %d has an invalid endpoint with address 0, "
		    "skipping", cfgval, alt->desc.bInterfaceNumber,
		    alt->desc.bAlternateSetting);
		return;
	}
	if ((addr & 0x70) != 0) {
		core_log(udev, NULL, "usb", __func__, "config %d interface %d "
		    "altsetting %d has an invalid endpoint with address "
		    "0x%02x, skipping", cfgval, alt->desc.bInterfaceNumber,
		    alt->desc.bAlternateSetting, addr);
		return;
	}
	if (alt->desc.bNumEndpoints >= maxep)
		return;		/* more than bNumEndpoints said */
	if (ep_duplicate(alt, addr)) {
		core_log(udev, NULL, "usb", __func__, "config %d interface %d "
		    "altsetting %d has a duplicate endpoint 0x%02x, skipping",
		    cfgval, alt->desc.bInterfaceNumber,
		    alt->desc.bAlternateSetting, addr);
		return;
	}
	ep = &alt->endpoint[alt->desc.bNumEndpoints++];
	d = &ep->desc;
	d->bLength = p[0];
	d->bDescriptorType = p[1];
	d->bEndpointAddress = addr;
	d->bmAttributes = p[3];
	d->wMaxPacketSize = get_le16(p + 4);
	d->bInterval = p[6];
	INIT_LIST_HEAD(&ep->urb_list);

	type = d->bmAttributes & USB_ENDPOINT_XFERTYPE_MASK;
	if (type == USB_ENDPOINT_XFER_INT) {
		lo = 1;
		if (udev->speed == USB_SPEED_HIGH) {
			/* full-speed values in high-speed descriptors */
			for (n = 0; (d->bInterval * 8) >> n != 0; n++)
				;
			def = n == 0 ? 7 : n;
			hi = 16;
		} else
			def = 10;
	} else if (type == USB_ENDPOINT_XFER_ISOC) {
		lo = 1;
		hi = 16;
		def = udev->speed == USB_SPEED_HIGH ? 7 : 4;
	}
	if (d->bInterval < lo || d->bInterval > hi) {
		core_log(udev, NULL, "usb", __func__, "config %d interface %d "
		    "altsetting %d endpoint 0x%02x has an invalid bInterval "
		    "%d, changing to %d", cfgval, alt->desc.bInterfaceNumber,
		    alt->desc.bAlternateSetting, addr, d->bInterval, def);
		d->bInterval = (u8)def;
	}
	if ((le16_to_cpu(d->wMaxPacketSize) & 0x7ff) == 0 &&
	    !(type == USB_ENDPOINT_XFER_ISOC && alt->desc.bAlternateSetting ==
	    0))
		core_log(udev, NULL, "usb", __func__, "config %d interface %d "
		    "altsetting %d endpoint 0x%02x has invalid "
		    "wMaxPacketSize 0",
		    cfgval, alt->desc.bInterfaceNumber,
		    alt->desc.bAlternateSetting, addr);
}

int
__usb_get_extra_descriptor(char *buffer, unsigned size, unsigned char type,
    void **ptr, size_t minsize)
{
	unsigned char	*p = (unsigned char *)buffer;

	*ptr = NULL;
	while (p != NULL && size >= 2) {
		if (p[0] < 2 || p[0] > size)
			break;		/* a bad descriptor ends the search */
		if (p[1] == type && p[0] >= minsize) {
			*ptr = p;
			return 0;
		}
		size -= p[0];
		p += p[0];
	}
	return -ENOENT;
}

/*
 * The interface block starting at p (an interface descriptor of blen >=
 * 9) up to the next interface descriptor, within buf..end.  Returns the
 * bytes it covers.
 */
static size_t
parse_interface(struct usb_device *udev, int cfgval, struct usb_intf_cache
    *ic, const uint8_t *p, const uint8_t *end)
{
	struct usb_host_interface *alt;
	const uint8_t	*q;
	unsigned int	 a, nep;
	size_t		 blen;

	/* the block: this descriptor and all until the next interface */
	for (q = p + p[0]; end - q >= 2 && q[0] >= 2 && q[0] <= end - q &&
	    q[1] != USB_DT_INTERFACE; q += q[0])
		;
	for (a = 0; a < ic->num_altsetting; a++) {
		if (ic->altsetting[a].desc.bAlternateSetting == p[3]) {
			core_log(udev, NULL, "usb", __func__, "duplicate "
			    "descriptor for config %d interface %d altsetting "
			    "%d, skipping", cfgval, p[2], p[3]);
			return (size_t)(q - p);
		}
	}
	alt = &ic->altsetting[ic->num_altsetting];
	alt->desc.bLength = p[0];
	alt->desc.bDescriptorType = p[1];
	alt->desc.bInterfaceNumber = p[2];
	alt->desc.bAlternateSetting = p[3];
	alt->desc.bNumEndpoints = 0;	/* counts the endpoints kept */
	alt->desc.bInterfaceClass = p[5];
	alt->desc.bInterfaceSubClass = p[6];
	alt->desc.bInterfaceProtocol = p[7];
	alt->desc.iInterface = p[8];
	nep = p[4];
	if (nep > USB_MAXENDPOINTS) {
		core_log(udev, NULL, "usb", __func__, "too many endpoints for "
		    "config %d interface %d altsetting %d: %u, using maximum "
		    "allowed: %d", cfgval, p[2], p[3], nep, USB_MAXENDPOINTS);
		nep = USB_MAXENDPOINTS;
	}
	if ((alt->endpoint = calloc(nep ? nep : 1, sizeof *alt->endpoint)) ==
	    NULL)
		return (size_t)(end - p);
	ic->num_altsetting++;
	/* extra: up to the first endpoint (Linux config.c
	 * find_next_descriptor) */
	for (q = p + p[0]; end - q >= 2 && q[0] >= 2 && q[0] <= end - q &&
	    q[1] != USB_DT_INTERFACE && q[1] != USB_DT_ENDPOINT; q += q[0])
		;
	if (q - p > p[0]) {
		alt->extra = (unsigned char *)p + p[0];
		alt->extralen = (int)(q - p - p[0]);
	}
	for (q = p + p[0]; end - q >= 2; q += blen) {
		blen = q[0];
		if (blen < 2 || blen > (size_t)(end - q) ||
		    q[1] == USB_DT_INTERFACE)
			break;
		if (q[1] == USB_DT_ENDPOINT)
			parse_endpoint(udev, cfgval, alt, nep, q, blen);
	}
	if (alt->desc.bNumEndpoints != p[4])
		core_log(udev, NULL, "usb", __func__, "config %d interface %d "
		    "altsetting %d has %d endpoint descriptors, different from "
		    "the interface descriptor's value: %d", cfgval, p[2], p[3],
		    alt->desc.bNumEndpoints, p[4]);
	return (size_t)(q - p);
}

static int
cache_has_alt0(const struct usb_intf_cache *ic)
{
	unsigned int	 a;

	for (a = 0; a < ic->num_altsetting; a++) {
		if (ic->altsetting[a].desc.bAlternateSetting == 0)
			return 1;
	}
	return 0;
}

int
usb_parse_configuration(struct usb_device *udev, int cfgidx,
    const uint8_t *buf, size_t len)
{
	struct usb_device_priv *priv = usb_dev_priv(udev);
	struct usb_host_config *config = &udev->config[cfgidx];
	struct usb_config_cache *cache = &priv->cache[cfgidx];
	struct usb_config_descriptor *d = &config->desc;
	const uint8_t	*p, *end;
	uint8_t		 inums[USB_MAXINTERFACES];
	unsigned int	 nalts[USB_MAXINTERFACES];
	unsigned int	 nintf, n = 0, i;
	size_t		 blen;
	int		 cfgval;

	if (len < USB_DT_CONFIG_SIZE || buf[1] != USB_DT_CONFIG ||
	    buf[0] < USB_DT_CONFIG_SIZE) {
		core_log(udev, NULL, "usb", __func__, "invalid descriptor for "
		    "config index %d: type = 0x%x, length = %d", cfgidx,
		    len >= 2 ? buf[1] : 0, len >= 1 ? buf[0] : 0);
		return -EINVAL;
	}
	d->bLength = buf[0];
	d->bDescriptorType = buf[1];
	d->wTotalLength = get_le16(buf + 2);
	d->bNumInterfaces = buf[4];
	d->bConfigurationValue = buf[5];
	d->iConfiguration = buf[6];
	d->bmAttributes = buf[7];
	d->bMaxPower = buf[8];
	cfgval = d->bConfigurationValue;
	nintf = d->bNumInterfaces;
	if (nintf > USB_MAXINTERFACES) {
		core_log(udev, NULL, "usb", __func__, "config %d has too many "
		    "interfaces: %u, using maximum allowed: %d", cfgval, nintf,
		    USB_MAXINTERFACES);
		nintf = USB_MAXINTERFACES;
	}

	/* Pass 1: which interfaces, how many altsettings each. */
	end = buf + len;
	for (p = buf + buf[0]; end - p >= 2; p += blen) {
		blen = p[0];
		if (blen < 2 || blen > (size_t)(end - p)) {
			core_log(udev, NULL, "usb", __func__, "config %d has "
			    "an invalid descriptor of length %zu, skipping "
			    "remainder of the config", cfgval, blen);
			break;
		}
		if (p[1] != USB_DT_INTERFACE)
			continue;
		if (blen < USB_DT_INTERFACE_SIZE) {
			core_log(udev, NULL, "usb", __func__, "config %d has "
			    "an invalid interface descriptor of length %zu, "
			    "skipping", cfgval, blen);
			continue;
		}
		if (p[2] >= d->bNumInterfaces)
			core_log(udev, NULL, "usb", __func__, "config %d has "
			    "an invalid interface number: %d but max is %d",
			    cfgval, p[2], d->bNumInterfaces - 1);
		for (i = 0; i < n && inums[i] != p[2]; i++)
			;
		if (i < n) {
			if (nalts[i] < USB_MAXALTSETTING)
				nalts[i]++;
		} else if (n < USB_MAXINTERFACES) {
			inums[n] = p[2];
			nalts[n++] = 1;
		}
	}
	end = p < end ? p : end;	/* what follows a bad length is gone */
	if (n != nintf)
		core_log(udev, NULL, "usb", __func__, "config %d has %u "
		    "interface%s, different from the descriptor's value: %u",
		    cfgval, n, n == 1 ? "" : "s", nintf);
	d->bNumInterfaces = (u8)n;

	for (i = 0; i < n; i++) {
		cache->intf[i].altsetting = calloc(nalts[i],
		    sizeof *cache->intf[i].altsetting);
		if (cache->intf[i].altsetting == NULL)
			return -ENOMEM;
	}

	/* Pass 2: each interface block into its cache. */
	for (p = buf + buf[0]; end - p >= 2; p += blen) {
		blen = p[0];
		if (blen < 2 || blen > (size_t)(end - p))
			break;
		if (p[1] != USB_DT_INTERFACE || blen < USB_DT_INTERFACE_SIZE)
			continue;
		for (i = 0; i < n && inums[i] != p[2]; i++)
			;
		if (i == n || cache->intf[i].num_altsetting >= nalts[i])
			continue;
		blen = parse_interface(udev, cfgval, &cache->intf[i], p, end);
	}
	for (i = 0; i < n; i++) {
		if (!cache_has_alt0(&cache->intf[i]))
			core_log(udev, NULL, "usb", __func__, "config %d "
			    "interface %d has no altsetting 0", cfgval,
			    inums[i]);
	}
	return 0;
}

/* ------------------------------------------------------------------------
 * Enumeration and removal.
 */
static void
announce_device(struct usb_device *udev)
{
	const struct usb_device_descriptor *d = &udev->descriptor;

	core_log(udev, NULL, "usb", "usb_new_device", "New USB device found, "
	    "idVendor=%04x, idProduct=%04x, bcdDevice=%2x.%02x",
	    d->idVendor, d->idProduct, d->bcdDevice >> 8,
	    d->bcdDevice & 0xff);
	core_log(udev, NULL, "usb", "usb_new_device", "New USB device "
	    "strings: Mfr=%d, Product=%d, SerialNumber=%d", d->iManufacturer,
	    d->iProduct, d->iSerialNumber);
	if (udev->product != NULL)
		core_log(udev, NULL, "usb", "usb_new_device", "Product: %s",
		    udev->product);
	if (udev->manufacturer != NULL)
		core_log(udev, NULL, "usb", "usb_new_device",
		    "Manufacturer: %s", udev->manufacturer);
	if (udev->serial != NULL)
		core_log(udev, NULL, "usb", "usb_new_device",
		    "SerialNumber: %s", udev->serial);
}

/* The generic device driver's choice: the first configuration (2.6.0). */
static int
choose_configuration(struct usb_device *udev)
{
	if (udev->config == NULL || usb_dev_priv(udev)->nconfig < 1)
		return -1;
	return udev->config[0].desc.bConfigurationValue;
}

/*
 * Linux 6.1's order (hub_port_init's tail, then usb_new_device and the
 * generic driver): DEVICE 18, BOS 5 + full if bcdUSB >= 0x0201, CONFIG
 * 9 + full per configuration, STRING 0 (through the first usb_string),
 * iProduct, iManufacturer, iSerialNumber with wLength 255,
 * SET_CONFIGURATION, iConfiguration, then per interface iInterface and
 * the driver.
 */
int
usb_new_device(struct usb_device *udev)
{
	struct usb_device_priv *p = usb_dev_priv(udev);
	int		 err, c;

	if (udev->parent == NULL) {
		/* register_root_hub: the root hub has its address already */
		if (udev->devnum > 0 && udev->devnum < 128) {
			devmap_set(udev->bus, udev->devnum, 1);
			p->devnum_chosen = udev->devnum;
			if (udev->bus->devnum_next <= udev->devnum)
				udev->bus->devnum_next = udev->devnum + 1;
		}
		if (udev->state < USB_STATE_ADDRESS)
			usb_set_device_state(udev, USB_STATE_ADDRESS);
	}

	err = usb_get_device_descriptor(udev, USB_DT_DEVICE_SIZE);
	if (err < USB_DT_DEVICE_SIZE) {
		core_log(udev, NULL, "usb", __func__, "device descriptor "
		    "read/all, error %d", err);
		if (err >= 0)
			err = -ENOMSG;
		goto fail;
	}
	if (udev->descriptor.bcdUSB >= 0x0201)
		(void)usb_get_bos_descriptor(udev);
	if ((err = usb_get_configuration(udev)) < 0) {
		core_log(udev, NULL, "usb", __func__, "can't read "
		    "configurations, error %d", err);
		goto fail;
	}
	udev->product = usb_cache_string(udev, udev->descriptor.iProduct);
	udev->manufacturer = usb_cache_string(udev,
	    udev->descriptor.iManufacturer);
	udev->serial = usb_cache_string(udev, udev->descriptor.iSerialNumber);
	announce_device(udev);

	if ((c = choose_configuration(udev)) >= 0 &&
	    udev->state != USB_STATE_NOTATTACHED) {
		err = usb_set_configuration(udev, c);
		if (err != 0)
			core_log(udev, NULL, "usb", __func__, "can't set "
			    "config #%d, error %d", c, err);
	}
	return 0;
fail:
	usb_set_device_state(udev, USB_STATE_NOTATTACHED);
	return err;
}

void
usb_disconnect(struct usb_device **pdev)
{
	struct usb_device *udev = *pdev;
	int		 i;

	if (udev == NULL)
		return;
	/* from here on every submission for it (and below it) fails */
	usb_set_device_state(udev, USB_STATE_NOTATTACHED);
	core_log(udev, NULL, "usb", __func__, "USB disconnect, device number "
	    "%d", udev->devnum);
	for (i = 0; i < USB_MAXCHILDREN; i++) {
		if (udev->children[i] != NULL)
			usb_disconnect(&udev->children[i]);
	}
	usb_disable_device(udev, 0);
	usb_release_devnum(udev);
	*pdev = NULL;
	usb_put_dev(udev);
}
