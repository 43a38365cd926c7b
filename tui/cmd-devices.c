/*
 * tui/cmd-devices.c - `urbscope devices [-v] [-s [[bus]:][devnum]]
 * [-d vendor:[product]]`: the attached USB devices, as lsusb lists them,
 * through libusb-1.0, with the port path, the speed and the kernel driver
 * bound to each interface (sysfs).  Each device takes two lines:
 *
 *	Bus 001 Device 003: ID 0627:0001 Adomax Technology Co., Ltd QEMU ...
 *	    port 1-2, 480M, if 0 usbhid
 *
 * the second with the kernel's name of the port (bus-port.port...; usbN
 * for a root hub), the speed in Mb/s, and each interface of the active
 * configuration with its driver ("-" when none is bound).
 *
 * With -v the descriptors follow, decoded by decode/dec-desc.c and laid
 * out as `lsusb -v` lays them out: the same headings, field names, number
 * formats and columns, so that the two can be compared field by field
 * (tests/e2e/devices.sh does it on the QEMU guest's lsusb -v).  The raw
 * descriptors are the sysfs "descriptors" file (the bytes the kernel read
 * at enumeration) or, without it, rebuilt from libusb's parsed form.  When
 * the device can be opened (root, or a udev rule), the string descriptors,
 * the device qualifier, the hub descriptor with its port status and the
 * device status are read from the device, as lsusb does.
 *
 * --sysfs ROOT lists the devices of a sysfs tree instead of libusb's
 * (another machine's dump, a test fixture): no device is opened.
 */
#include <getopt.h>
#include <libusb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture/sysfs.h"
#include "decode/decode.h"
#include "decode/usbids.h"
#include "tui.h"

#define DEV_TREE_NODES	4096
#define DEV_TREE_ARENA	65536
#define DEV_CTRL_MS	1000

/* One device, from libusb or from sysfs. */
struct dv {
	unsigned	 bus, devnum;
	char		 port[64];	/* "1-1.4", "usb1" */
	char		 speed[24];	/* "480M" */
	uint16_t	 vid, pid;
	const uint8_t	*desc;		/* device + configurations */
	size_t		 desclen;
	uint8_t		*owned;		/* desc when rebuilt */
	const struct sysfs_usb_dev *sys; /* its sysfs entry, or NULL */
	libusb_device	*ld;		/* NULL with --sysfs */
	libusb_device_handle *h;	/* open for -v, else NULL */
	int		 langid;	/* -1 unknown, 0 none */
};

struct devopts {
	int		 verbose;
	int		 bus, devnum;		/* -s; -1 = any */
	int		 vid, pid;		/* -d; -1 = any */
	const char	*sysfs;			/* --sysfs ROOT */
};

static void
devices_usage(FILE *f)
{
	fprintf(f,
	    "usage: urbscope devices [-v] [-s [[bus]:][devnum]] "
	    "[-d vendor:[product]]\n"
	    "List the attached USB devices, as lsusb does, with each one's\n"
	    "port, speed and the kernel driver of each interface:\n"
	    "  Bus 001 Device 003: ID 0627:0001 VENDOR PRODUCT\n"
	    "      port 1-2, 480M, if 0 usbhid\n"
	    "  -v        the descriptors too, decoded, laid out as lsusb -v;\n"
	    "            strings, device qualifier, hub and device status are\n"
	    "            read from the device when it can be opened (root)\n"
	    "  -s [[bus]:][devnum]  only this bus and/or device number\n"
	    "  -d vendor:[product]  only this vendor (and product), in hex\n"
	    "  --sysfs ROOT  the devices of the sysfs tree at ROOT (as\n"
	    "            ROOT/bus/usb/devices) instead of the live ones\n"
	    "Names come from usb.ids ($URBSCOPE_USB_IDS, else hwdata's).\n");
}

/* ------------------------------------------------------------------------
 * Options.
 */

/* A number in base of at most max, the whole string; -1 otherwise. */
static long
num(const char *s, size_t n, int base, long max)
{
	char	 buf[16], *end;
	long	 v;

	if (n == 0 || n >= sizeof buf)
		return -1;
	memcpy(buf, s, n);
	buf[n] = '\0';
	if (buf[0] == '-' || buf[0] == '+')
		return -1;
	v = strtol(buf, &end, base);
	if (*end != '\0' || v < 0 || v > max)
		return -1;
	return v;
}

/* -s [[bus]:][devnum], decimal, as lsusb. */
static int
parse_slot(const char *arg, struct devopts *o)
{
	const char *colon = strchr(arg, ':');

	if (colon == NULL) {
		o->devnum = (int)num(arg, strlen(arg), 10, 127);
		return o->devnum < 0 ? -1 : 0;
	}
	if (colon > arg && (o->bus = (int)num(arg, (size_t)(colon - arg), 10,
	    65535)) < 0)
		return -1;
	if (colon[1] != '\0' && (o->devnum = (int)num(colon + 1,
	    strlen(colon + 1), 10, 127)) < 0)
		return -1;
	return 0;
}

/* -d vendor:[product], hex, as lsusb. */
static int
parse_id(const char *arg, struct devopts *o)
{
	const char *colon = strchr(arg, ':');

	if (colon == NULL || colon == arg)
		return -1;
	if ((o->vid = (int)num(arg, (size_t)(colon - arg), 16, 0xffff)) < 0)
		return -1;
	if (colon[1] != '\0' && (o->pid = (int)num(colon + 1,
	    strlen(colon + 1), 16, 0xffff)) < 0)
		return -1;
	return 0;
}

static int
dv_match(const struct dv *d, const struct devopts *o)
{
	return (o->bus < 0 || (unsigned)o->bus == d->bus) &&
	    (o->devnum < 0 || (unsigned)o->devnum == d->devnum) &&
	    (o->vid < 0 || o->vid == d->vid) &&
	    (o->pid < 0 || o->pid == d->pid);
}

static int
dv_cmp(const void *a, const void *b)
{
	const struct dv *x = a, *y = b;

	if (x->bus != y->bus)
		return x->bus < y->bus ? -1 : 1;
	return x->devnum < y->devnum ? -1 : x->devnum > y->devnum;
}

/* ------------------------------------------------------------------------
 * Devices from sysfs and from libusb.
 */

static void
speed_from_sysfs(struct dv *d, const struct sysfs_usb_dev *s)
{
	if (s->speed_str[0] != '\0')
		snprintf(d->speed, sizeof d->speed, "%sM", s->speed_str);
}

static void
dv_from_sysfs(struct dv *d, const struct sysfs_usb_dev *s)
{
	memset(d, 0, sizeof *d);
	d->bus = s->busnum;
	d->devnum = s->devnum;
	snprintf(d->port, sizeof d->port, "%.60s", s->name);
	speed_from_sysfs(d, s);
	d->vid = s->vid;
	d->pid = s->pid;
	d->desc = s->desc;
	d->desclen = s->desclen;
	d->sys = s;
	d->langid = -1;
	/* The descriptor has the ids when sysfs lacks them (old dumps). */
	if (d->vid == 0 && d->pid == 0 && d->desclen >= 12) {
		d->vid = get_le16(d->desc + 8);
		d->pid = get_le16(d->desc + 10);
	}
}

/* Append n bytes to a growing buffer; 0 or -1 (out of memory). */
static int
put_bytes(uint8_t **buf, size_t *len, size_t *cap, const void *p, size_t n)
{
	uint8_t	*nb;
	size_t	 ncap;

	if (*len + n > *cap) {
		ncap = *cap == 0 ? 256 : *cap;
		while (ncap < *len + n)
			ncap *= 2;
		if ((nb = realloc(*buf, ncap)) == NULL)
			return -1;
		*buf = nb;
		*cap = ncap;
	}
	memcpy(*buf + *len, p, n);
	*len += n;
	return 0;
}

/*
 * Rebuild the raw descriptors from libusb's parsed form, when sysfs has
 * none: the device descriptor, then each configuration as the device sends
 * it (the configuration, then per interface and alternate setting the
 * interface, its extra bytes, each endpoint and its extra bytes).
 */
static int
dv_rebuild(struct dv *d, const struct libusb_device_descriptor *dd)
{
	struct libusb_config_descriptor *cfg;
	const struct libusb_interface_descriptor *alt;
	const struct libusb_endpoint_descriptor *ep;
	uint8_t	*buf = NULL, b[18];
	size_t	 len = 0, cap = 0;
	int	 c, i, a, e, bad = 0;

	b[0] = dd->bLength;
	b[1] = dd->bDescriptorType;
	put_le16(b + 2, dd->bcdUSB);
	b[4] = dd->bDeviceClass;
	b[5] = dd->bDeviceSubClass;
	b[6] = dd->bDeviceProtocol;
	b[7] = dd->bMaxPacketSize0;
	put_le16(b + 8, dd->idVendor);
	put_le16(b + 10, dd->idProduct);
	put_le16(b + 12, dd->bcdDevice);
	b[14] = dd->iManufacturer;
	b[15] = dd->iProduct;
	b[16] = dd->iSerialNumber;
	b[17] = dd->bNumConfigurations;
	bad |= put_bytes(&buf, &len, &cap, b, 18);
	for (c = 0; c < dd->bNumConfigurations; c++) {
		if (libusb_get_config_descriptor(d->ld, (uint8_t)c, &cfg) != 0)
			continue;
		b[0] = cfg->bLength;
		b[1] = cfg->bDescriptorType;
		put_le16(b + 2, cfg->wTotalLength);
		b[4] = cfg->bNumInterfaces;
		b[5] = cfg->bConfigurationValue;
		b[6] = cfg->iConfiguration;
		b[7] = cfg->bmAttributes;
		b[8] = cfg->MaxPower;
		bad |= put_bytes(&buf, &len, &cap, b, 9);
		bad |= put_bytes(&buf, &len, &cap, cfg->extra,
		    (size_t)cfg->extra_length);
		for (i = 0; i < cfg->bNumInterfaces; i++) {
			for (a = 0; a < cfg->interface[i].num_altsetting;
			    a++) {
				alt = &cfg->interface[i].altsetting[a];
				b[0] = alt->bLength;
				b[1] = alt->bDescriptorType;
				b[2] = alt->bInterfaceNumber;
				b[3] = alt->bAlternateSetting;
				b[4] = alt->bNumEndpoints;
				b[5] = alt->bInterfaceClass;
				b[6] = alt->bInterfaceSubClass;
				b[7] = alt->bInterfaceProtocol;
				b[8] = alt->iInterface;
				bad |= put_bytes(&buf, &len, &cap, b, 9);
				bad |= put_bytes(&buf, &len, &cap, alt->extra,
				    (size_t)alt->extra_length);
				for (e = 0; e < alt->bNumEndpoints; e++) {
					ep = &alt->endpoint[e];
					b[0] = ep->bLength;
					b[1] = ep->bDescriptorType;
					b[2] = ep->bEndpointAddress;
					b[3] = ep->bmAttributes;
					put_le16(b + 4, ep->wMaxPacketSize);
					b[6] = ep->bInterval;
					/* Audio 1.0 endpoints have 9 bytes. */
					b[7] = ep->bRefresh;
					b[8] = ep->bSynchAddress;
					bad |= put_bytes(&buf, &len, &cap, b,
					    ep->bLength >= 9 ? 9 : 7);
					bad |= put_bytes(&buf, &len, &cap,
					    ep->extra,
					    (size_t)ep->extra_length);
				}
			}
		}
		libusb_free_config_descriptor(cfg);
	}
	if (bad) {
		free(buf);
		return -1;
	}
	d->owned = buf;
	d->desc = buf;
	d->desclen = len;
	return 0;
}

static const char *
libusb_speed_str(int speed)
{
	switch (speed) {
	case LIBUSB_SPEED_LOW:
		return "1.5M";
	case LIBUSB_SPEED_FULL:
		return "12M";
	case LIBUSB_SPEED_HIGH:
		return "480M";
	case LIBUSB_SPEED_SUPER:
		return "5000M";
	case LIBUSB_SPEED_SUPER_PLUS:
		return "10000M";
	default:
		return "";
	}
}

static int
dv_from_libusb(struct dv *d, libusb_device *ld,
    const struct sysfs_usb_dev *sys, size_t nsys)
{
	struct libusb_device_descriptor dd;
	uint8_t	 ports[8];
	size_t	 i;
	int	 n, k, off;

	memset(d, 0, sizeof *d);
	d->ld = ld;
	d->langid = -1;
	d->bus = libusb_get_bus_number(ld);
	d->devnum = libusb_get_device_address(ld);
	n = libusb_get_port_numbers(ld, ports, sizeof ports);
	if (n <= 0)
		snprintf(d->port, sizeof d->port, "usb%u", d->bus);
	else {
		off = snprintf(d->port, sizeof d->port, "%u-%u", d->bus,
		    ports[0]);
		for (k = 1; k < n && off > 0 && (size_t)off < sizeof d->port;
		    k++)
			off += snprintf(d->port + off, sizeof d->port -
			    (size_t)off, ".%u", ports[k]);
	}
	snprintf(d->speed, sizeof d->speed, "%s",
	    libusb_speed_str(libusb_get_device_speed(ld)));
	if (libusb_get_device_descriptor(ld, &dd) != 0)
		return -1;
	d->vid = dd.idVendor;
	d->pid = dd.idProduct;
	for (i = 0; i < nsys; i++) {
		if (sys[i].busnum == d->bus && sys[i].devnum == d->devnum) {
			d->sys = &sys[i];
			break;
		}
	}
	if (d->sys != NULL && d->sys->desclen >= 18) {
		d->desc = d->sys->desc;
		d->desclen = d->sys->desclen;
		if (d->speed[0] == '\0')
			speed_from_sysfs(d, d->sys);
		return 0;
	}
	return dv_rebuild(d, &dd);
}

static void
dv_free(struct dv *d)
{
	if (d->h != NULL)
		libusb_close(d->h);
	free(d->owned);
}

/* ------------------------------------------------------------------------
 * Strings and requests to the device (open handle only).
 */

/* String idx as UTF-8 into buf, or NULL: from the device, else sysfs. */
static const char *
dv_string(struct dv *d, uint8_t idx, char *buf, size_t size)
{
	uint8_t	 s[255];
	int	 n;

	if (idx == 0)
		return NULL;
	if (d->h != NULL) {
		if (d->langid < 0) {
			n = libusb_get_string_descriptor(d->h, 0, 0, s,
			    sizeof s);
			d->langid = n >= 4 && s[1] == LIBUSB_DT_STRING ?
			    get_le16(s + 2) : 0;
		}
		if (d->langid > 0) {
			n = libusb_get_string_descriptor(d->h, idx,
			    (uint16_t)d->langid, s, sizeof s);
			if (n >= 2 && s[1] == LIBUSB_DT_STRING) {
				if (s[0] < n)
					n = s[0];
				dec_utf16le_to_utf8(s + 2, (size_t)n - 2, buf,
				    size);
				return buf;
			}
		}
	}
	/* sysfs has the three strings of the device descriptor. */
	if (d->sys == NULL || d->desclen < 18)
		return NULL;
	if (idx == d->desc[14] && d->sys->manufacturer[0] != '\0')
		return d->sys->manufacturer;
	if (idx == d->desc[15] && d->sys->product[0] != '\0')
		return d->sys->product;
	if (idx == d->desc[16] && d->sys->serial[0] != '\0')
		return d->sys->serial;
	return NULL;
}

/* A control IN request; bytes returned, or a negative libusb error. */
static int
dv_ctrl_in(struct dv *d, uint8_t rtype, uint8_t req, uint16_t val,
    uint16_t idx, uint8_t *buf, uint16_t len)
{
	if (d->h == NULL)
		return LIBUSB_ERROR_NO_DEVICE;
	return libusb_control_transfer(d->h, (uint8_t)(LIBUSB_ENDPOINT_IN |
	    rtype), req, val, idx, buf, len, DEV_CTRL_MS);
}

/* ------------------------------------------------------------------------
 * The descriptor tree as lsusb -v lays it out.
 */

enum lsfmt {
	LF_SKIP,		/* not shown */
	LF_DEC,			/* %u */
	LF_HEX2,		/* 0x%02x */
	LF_HEX4,		/* 0x%04x */
	LF_BCD,			/* %x.%02x */
	LF_STR,			/* %u and the string */
	LF_NAMED,		/* %u and the name from the field's table */
	LF_CLASS,		/* %u and the class name */
	LF_VID,			/* 0x%04x and the usb.ids vendor */
	LF_PID,			/* 0x%04x and the usb.ids product */
	LF_EPADDR,		/* 0x%02x  EP n IN */
	LF_EPATTR,		/* %u, then transfer, synch and usage types */
	LF_MPS,			/* 0x%04x  1x N bytes */
	LF_MAXPOWER,		/* NmA */
	LF_BYTES,		/* 0x%02x per byte */
	LF_CFG_ONE,		/* bmAttributes bit 7 */
	LF_CFG_SELF,		/* bit 6 */
	LF_FLAG,		/* a line with the lsusb name when set */
	LF_HUB_POWER,		/* wHubCharacteristics bits */
	LF_HUB_OC,
	LF_HUB_TT,
};

/* Our field (by descriptor type and decoder name) to lsusb's. */
struct lsrow {
	uint8_t		 type;		/* bDescriptorType; 0 any */
	const char	*name;		/* dec-desc.c's field name */
	const char	*ls;		/* lsusb's, NULL = the same */
	enum lsfmt	 fmt;
	uint8_t		 width;		/* name + value; 0 = 25 */
	const char	*suffix;	/* after the value */
};

/* From usbutils 014 lsusb.c (dump_device, dump_config, ...). */
/* Most rows: lsusb's usual column, no unit. */
#define R(type, name, ls, fmt)	{ type, name, ls, fmt, 0, NULL }

static const struct lsrow lsrows[] = {
	R(0, "bLength", NULL, LF_DEC),
	R(0, "bDescriptorType", NULL, LF_DEC),
	R(USB_DT_DEVICE, "bcdUSB", NULL, LF_BCD),
	R(USB_DT_DEVICE, "bDeviceClass", NULL, LF_CLASS),
	R(USB_DT_DEVICE, "bDeviceSubClass", NULL, LF_DEC),
	R(USB_DT_DEVICE, "bDeviceProtocol", NULL, LF_DEC),
	R(USB_DT_DEVICE, "bMaxPacketSize0", NULL, LF_DEC),
	R(USB_DT_DEVICE, "idVendor", NULL, LF_VID),
	R(USB_DT_DEVICE, "idProduct", NULL, LF_PID),
	R(USB_DT_DEVICE, "bcdDevice", NULL, LF_BCD),
	R(USB_DT_DEVICE, "iManufacturer", NULL, LF_STR),
	R(USB_DT_DEVICE, "iProduct", NULL, LF_STR),
	R(USB_DT_DEVICE, "iSerialNumber", "iSerial", LF_STR),
	R(USB_DT_DEVICE, "bNumConfigurations", NULL, LF_DEC),
	R(USB_DT_CONFIG, "wTotalLength", NULL, LF_HEX4),
	R(USB_DT_CONFIG, "bNumInterfaces", NULL, LF_DEC),
	R(USB_DT_CONFIG, "bConfigurationValue", NULL, LF_DEC),
	R(USB_DT_CONFIG, "iConfiguration", NULL, LF_STR),
	R(USB_DT_CONFIG, "bmAttributes", NULL, LF_HEX2),
	R(USB_DT_CONFIG, "Must be 1", "(Missing must-be-set bit!)", LF_CFG_ONE),
	R(USB_DT_CONFIG, "Self-Powered", "Self Powered", LF_CFG_SELF),
	R(USB_DT_CONFIG, "Remote Wakeup", NULL, LF_FLAG),
	R(USB_DT_CONFIG, "bMaxPower", "MaxPower", LF_MAXPOWER),
	R(USB_DT_CONFIG, "Max power (mA, 2 mA units)", NULL, LF_SKIP),
	R(USB_DT_INTERFACE, "bInterfaceNumber", NULL, LF_DEC),
	R(USB_DT_INTERFACE, "bAlternateSetting", NULL, LF_DEC),
	R(USB_DT_INTERFACE, "bNumEndpoints", NULL, LF_DEC),
	R(USB_DT_INTERFACE, "bInterfaceClass", NULL, LF_CLASS),
	R(USB_DT_INTERFACE, "bInterfaceSubClass", NULL, LF_NAMED),
	R(USB_DT_INTERFACE, "bInterfaceProtocol", NULL, LF_NAMED),
	R(USB_DT_INTERFACE, "iInterface", NULL, LF_STR),
	R(USB_DT_ENDPOINT, "bEndpointAddress", NULL, LF_EPADDR),
	R(USB_DT_ENDPOINT, "bmAttributes", NULL, LF_EPATTR),
	R(USB_DT_ENDPOINT, "wMaxPacketSize", NULL, LF_MPS),
	R(USB_DT_ENDPOINT, "bInterval", NULL, LF_DEC),
	R(USB_DT_ENDPOINT, "bRefresh", NULL, LF_DEC),
	R(USB_DT_ENDPOINT, "bSynchAddress", NULL, LF_DEC),
	R(USB_DT_DEVICE_QUALIFIER, "bcdUSB", NULL, LF_BCD),
	R(USB_DT_DEVICE_QUALIFIER, "bDeviceClass", NULL, LF_CLASS),
	R(USB_DT_DEVICE_QUALIFIER, "bDeviceSubClass", NULL, LF_DEC),
	R(USB_DT_DEVICE_QUALIFIER, "bDeviceProtocol", NULL, LF_DEC),
	R(USB_DT_DEVICE_QUALIFIER, "bMaxPacketSize0", NULL, LF_DEC),
	R(USB_DT_DEVICE_QUALIFIER, "bNumConfigurations", NULL, LF_DEC),
	R(USB_DT_DEVICE_QUALIFIER, "bReserved", NULL, LF_SKIP),
	R(USB_DT_INTERFACE_ASSOCIATION, "bFirstInterface", NULL, LF_DEC),
	R(USB_DT_INTERFACE_ASSOCIATION, "bInterfaceCount", NULL, LF_DEC),
	R(USB_DT_INTERFACE_ASSOCIATION, "bFunctionClass", NULL, LF_CLASS),
	R(USB_DT_INTERFACE_ASSOCIATION, "bFunctionSubClass", NULL, LF_DEC),
	R(USB_DT_INTERFACE_ASSOCIATION, "bFunctionProtocol", NULL, LF_DEC),
	R(USB_DT_INTERFACE_ASSOCIATION, "iFunction", NULL, LF_STR),
	R(USB_DT_BOS, "wTotalLength", NULL, LF_HEX4),
	R(USB_DT_BOS, "bNumDeviceCaps", NULL, LF_DEC),
	R(USB_DT_DEVICE_CAPABILITY, "bDevCapabilityType", NULL, LF_DEC),
	R(USB_DT_DEVICE_CAPABILITY, "bFunctionalitySupport", NULL, LF_DEC),
	R(USB_DT_DEVICE_CAPABILITY, "bReserved", NULL, LF_SKIP),
	{ USB_DT_DEVICE_CAPABILITY, "bU1DevExitLat (us)", "bU1DevExitLat",
	    LF_DEC, 0, "micro seconds" },
	{ USB_DT_DEVICE_CAPABILITY, "wU2DevExitLat (us)", "bU2DevExitLat",
	    LF_DEC, 0, "micro seconds" },
	R(USB_DT_HID, "bcdHID", NULL, LF_BCD),
	R(USB_DT_HID, "bCountryCode", NULL, LF_NAMED),
	R(USB_DT_HID, "bNumDescriptors", NULL, LF_DEC),
	R(USB_DT_HID, "wDescriptorLength", NULL, LF_DEC),
	{ USB_DT_HUB, "bLength", NULL, LF_DEC, 23, NULL },
	{ USB_DT_HUB, "bDescriptorType", NULL, LF_DEC, 23, NULL },
	{ USB_DT_HUB, "bNbrPorts", "nNbrPorts", LF_DEC, 23, NULL },
	R(USB_DT_HUB, "wHubCharacteristics", "wHubCharacteristic", LF_HEX4),
	R(USB_DT_HUB, "Power switching", NULL, LF_HUB_POWER),
	R(USB_DT_HUB, "Compound device", NULL, LF_FLAG),
	R(USB_DT_HUB, "Over-current protection", NULL, LF_HUB_OC),
	R(USB_DT_HUB, "TT think time", NULL, LF_HUB_TT),
	R(USB_DT_HUB, "Port indicators", NULL, LF_FLAG),
	{ USB_DT_HUB, "bPwrOn2PwrGood (2 ms units)", "bPwrOn2PwrGood", LF_DEC,
	    23, "* 2 milli seconds" },
	{ USB_DT_HUB, "bHubContrCurrent (mA)", "bHubContrCurrent", LF_DEC,
	    23, "milli Ampere" },
	R(USB_DT_HUB, "DeviceRemovable", NULL, LF_BYTES),
	R(USB_DT_HUB, "PortPwrCtrlMask", NULL, LF_BYTES),
	R(USB_DT_SS_ENDPOINT_COMP, "bLength", NULL, LF_SKIP),
	R(USB_DT_SS_ENDPOINT_COMP, "bDescriptorType", NULL, LF_SKIP),
	R(USB_DT_SS_ENDPOINT_COMP, "bMaxBurst", NULL, LF_DEC),
	R(USB_DT_SS_ENDPOINT_COMP, "MaxStreams", NULL, LF_DEC),
	R(USB_DT_SS_ENDPOINT_COMP, "Mult", NULL, LF_DEC),
	R(USB_DT_SS_ENDPOINT_COMP, "wBytesPerInterval", NULL, LF_DEC),
};
#undef R

static const char *const ls_xfer[] = {
	"Control", "Isochronous", "Bulk", "Interrupt"
};
static const char *const ls_sync[] = {
	"None", "Asynchronous", "Adaptive", "Synchronous"
};
static const char *const ls_usage[] = {
	"Data", "Feedback", "Implicit feedback Data", "(reserved)"
};
static const char *const ls_mult[] = { "1x", "2x", "3x", "(?\?)" };

/* USB Attached SCSI 1.0 table 13 (lsusb's dump_pipe_desc). */
static const struct dec_name uas_pipes[] = {
	{ 1, "Command pipe" },
	{ 2, "Status pipe" },
	{ 3, "Data-in pipe" },
	{ 4, "Data-out pipe" },
	{ 0, NULL }
};

/* lsusb's names of device capabilities (USB 3.2 table 9-14). */
static const struct dec_name ls_caps[] = {
	{ 0x02, "USB 2.0 Extension" },
	{ 0x03, "SuperSpeed USB" },
	{ 0x04, "Container ID" },
	{ 0x05, "Platform" },
	{ 0x0a, "SuperSpeedPlus USB" },
	{ 0, NULL }
};

/* Headings by descriptor type: indent of the heading. */
static const struct {
	uint8_t		 type;
	int		 indent;
	const char	*text;
} lsheads[] = {
	{ USB_DT_DEVICE, 0, "Device Descriptor:" },
	{ USB_DT_CONFIG, 2, "Configuration Descriptor:" },
	{ USB_DT_INTERFACE, 4, "Interface Descriptor:" },
	{ USB_DT_ENDPOINT, 6, "Endpoint Descriptor:" },
	{ USB_DT_DEVICE_QUALIFIER, 0,
	    "Device Qualifier (for other device speed):" },
	{ USB_DT_OTHER_SPEED_CONFIG, 2,
	    "Other Speed Configuration Descriptor:" },
	{ USB_DT_INTERFACE_ASSOCIATION, 4, "Interface Association:" },
	{ USB_DT_BOS, 0, "Binary Object Store Descriptor:" },
	{ USB_DT_DEVICE_CAPABILITY, 2, "Device Capability:" },
	{ USB_DT_HID, 8, "HID Device Descriptor:" },
	{ USB_DT_HUB, 0, "Hub Descriptor:" },
};

/* Where the walk is, for the descriptors that depend on it. */
struct lswalk {
	struct dv	*d;
	const uint8_t	*data;	/* the bytes the tree points into */
	size_t		 len;
	uint8_t		 type;	/* descriptor being shown */
	uint32_t	 doff;	/* its offset in data */
	int		 indent; /* of its fields; -1 = fields hidden */
	int		 after;	/* 2, 4, 5: config, interface, ep */
	uint8_t		 icls, isub, iproto; /* the interface's class */
	int		 hid_report; /* a report line owed: 0, else -1 */
};

/* name then value, right-aligned at width (lsusb's columns). */
static void
ls_line(int indent, const char *name, int width, const char *value,
    const char *text)
{
	int	 pad;

	if (width == 0)
		width = 25;
	pad = width - (int)strlen(name) - (int)strlen(value);
	if (pad < 1)
		pad = 1;
	printf("%*s%s%*s%s%s%s\n", indent, "", name, pad, "", value,
	    text != NULL && *text != '\0' ? " " : "",
	    text != NULL ? text : "");
}

static const struct lsrow *
ls_row(uint8_t type, const char *name)
{
	const struct lsrow *any = NULL;
	size_t	 i;

	for (i = 0; i < sizeof lsrows / sizeof lsrows[0]; i++) {
		if (strcmp(lsrows[i].name, name) != 0)
			continue;
		if (lsrows[i].type == type)
			return &lsrows[i];
		if (lsrows[i].type == 0)
			any = &lsrows[i];
	}
	return any;
}

/* What a descriptor owes after its fields (the HID report line). */
static void
ls_flush(struct lswalk *w)
{
	if (w->hid_report >= 0) {
		printf("%*sReport Descriptors: \n%*s** UNAVAILABLE **\n",
		    9, "", 11, "");
		w->hid_report = -1;
	}
}

static void
ls_bytes(int indent, const uint8_t *p, size_t n, const char *label)
{
	size_t	 i;

	printf("%*s%s", indent, "", label);
	for (i = 0; i < n; i++)
		printf(" %02x", p[i]);
	printf("\n");
}

/* A descriptor starts: its heading, and how its fields show. */
static void
ls_head(struct lswalk *w, const struct dec_node *n)
{
	const uint8_t	*p;
	size_t		 i, left;
	const char	*pipe, *cap;

	ls_flush(w);
	w->indent = -1;
	if (n->off + 2 > w->len || n->len < 2) {
		w->type = 0;
		return;
	}
	p = w->data + n->off;
	left = n->len;
	w->type = p[1];
	w->doff = n->off;

	switch (w->type) {
	case USB_DT_CONFIG:
		w->after = 2;
		break;
	case USB_DT_INTERFACE:
		w->after = 4;
		if (left >= 8) {
			w->icls = p[5];
			w->isub = p[6];
			w->iproto = p[7];
		}
		break;
	case USB_DT_ENDPOINT:
		w->after = 5;
		break;
	case USB_DT_HID:
		/* HID's only inside a HID interface; elsewhere unknown. */
		if (w->after != 4 || w->icls != 0x03)
			goto other;
		break;
	case USB_DT_CS_INTERFACE:
		/* UAS pipe usage after a mass storage endpoint. */
		if (w->after == 5 && w->icls == 0x08 && left >= 3) {
			pipe = dec_name_find(uas_pipes, p[2]);
			printf("%*s%s (0x%02x)\n", 8, "",
			    pipe != NULL ? pipe : "Reserved", p[2]);
			return;
		}
		goto other;
	case USB_DT_SS_ENDPOINT_COMP:
		/* The companion's fields sit under the endpoint's. */
		w->indent = 8;
		return;
	default:
		break;
	}
	for (i = 0; i < sizeof lsheads / sizeof lsheads[0]; i++) {
		if (lsheads[i].type != w->type)
			continue;
		if (w->type == USB_DT_DEVICE_CAPABILITY && left >= 3 &&
		    (cap = dec_name_find(ls_caps, p[2])) != NULL)
			printf("%*s%s Device Capability:", lsheads[i].indent,
			    "", cap);
		else
			printf("%*s%s", lsheads[i].indent, "",
			    lsheads[i].text);
		/* Our checks: "data ends inside the descriptor" and such. */
		if (n->note != NULL)
			printf("  [%s]", n->note);
		printf("\n");
		w->indent = lsheads[i].indent + 2;
		return;
	}
other:
	/* lsusb shows what it does not know as bytes, where it stands. */
	ls_bytes(w->after == 5 ? 8 : w->after == 4 ? 6 : w->after == 2 ? 4 :
	    0, p, left, "** UNRECOGNIZED: ");
	w->type = 0;
}

static void
ls_field(struct lswalk *w, const struct dec_node *n)
{
	const struct lsrow *row;
	const char	*text = NULL, *name;
	char		 val[64], tbuf[256], sbuf[256], nbuf[400];
	const uint8_t	*p;
	uint64_t	 v = n->value;
	size_t		 i, k;
	int		 indent = w->indent, width;

	if (indent < 0 || n->f == NULL)
		return;
	row = ls_row(w->type, n->f->name);
	if (row == NULL) {
		/* Not a field lsusb shows: ours, in the same columns. */
		if (n->f->mask != 0)
			return;
		ls_line(indent, n->f->name, 0,
		    dec_node_value(n, val, sizeof val), n->note);
		return;
	}
	name = row->ls != NULL ? row->ls : row->name;
	width = row->width;
	val[0] = '\0';
	switch (row->fmt) {
	case LF_SKIP:
		return;
	case LF_DEC:
		snprintf(val, sizeof val, "%llu", (unsigned long long)v);
		break;
	case LF_HEX2:
		snprintf(val, sizeof val, "0x%02llx", (unsigned long long)v);
		break;
	case LF_HEX4:
		snprintf(val, sizeof val, "0x%04llx", (unsigned long long)v);
		break;
	case LF_BCD:
		snprintf(val, sizeof val, "%x.%02x", (unsigned)(v >> 8) & 0xff,
		    (unsigned)v & 0xff);
		break;
	case LF_STR:
		snprintf(val, sizeof val, "%llu", (unsigned long long)v);
		text = dv_string(w->d, (uint8_t)v, sbuf, sizeof sbuf);
		break;
	case LF_NAMED:
		snprintf(val, sizeof val, "%llu", (unsigned long long)v);
		if (n->f->names != NULL)
			text = dec_name_find(n->f->names, (uint32_t)v);
		break;
	case LF_CLASS:
		snprintf(val, sizeof val, "%llu", (unsigned long long)v);
		text = dec_name_find(dec_classes, (uint32_t)v);
		break;
	case LF_VID:
		snprintf(val, sizeof val, "0x%04llx", (unsigned long long)v);
		text = usbids_vendor((uint16_t)v);
		break;
	case LF_PID:
		snprintf(val, sizeof val, "0x%04llx", (unsigned long long)v);
		text = usbids_product(w->d->vid, (uint16_t)v);
		break;
	case LF_EPADDR:
		snprintf(val, sizeof val, "0x%02llx", (unsigned long long)v);
		snprintf(tbuf, sizeof tbuf, " EP %u %s", (unsigned)v & 0x0f,
		    v & 0x80 ? "IN" : "OUT");
		text = tbuf;
		break;
	case LF_EPATTR:
		snprintf(val, sizeof val, "%llu", (unsigned long long)v);
		ls_line(indent, name, width, val, n->note);
		/* These three are left-aligned in lsusb. */
		printf("%*s%-25s%s\n", indent + 2, "", "Transfer Type",
		    ls_xfer[v & 3]);
		printf("%*s%-25s%s\n", indent + 2, "", "Synch Type",
		    ls_sync[(v >> 2) & 3]);
		printf("%*s%-25s%s\n", indent + 2, "", "Usage Type",
		    ls_usage[(v >> 4) & 3]);
		return;
	case LF_MPS:
		snprintf(val, sizeof val, "0x%04llx", (unsigned long long)v);
		snprintf(tbuf, sizeof tbuf, " %s %u bytes",
		    ls_mult[(v >> 11) & 3], (unsigned)v & 0x7ff);
		text = tbuf;
		break;
	case LF_MAXPOWER:
		/* USB 3.2 9.6.3: 8 mA units at SuperSpeed, else 2 mA. */
		snprintf(val, sizeof val, "%llumA", (unsigned long long)v *
		    (w->d->desclen >= 4 && get_le16(w->d->desc + 2) >= 0x0300 &&
		    atoi(w->d->speed) >= 5000 ? 8 : 2));
		/* lsusb: "%5umA", the number in the usual column. */
		width = 27;
		break;
	case LF_BYTES:
		p = w->data + n->off;
		k = 0;
		for (i = 0; i < n->len && n->off + i < w->len &&
		    k + 6 < sizeof tbuf; i++)
			k += (size_t)snprintf(tbuf + k, sizeof tbuf - k,
			    " 0x%02x", p[i]);
		tbuf[k] = '\0';
		printf("%*s%-18s%s%s%s\n", indent, "", name, tbuf,
		    n->note != NULL ? "  " : "",
		    n->note != NULL ? n->note : "");
		return;
	case LF_CFG_ONE:
		if (v == 0)
			printf("%*s%s\n", indent + 2, "", name);
		return;
	case LF_CFG_SELF:
		printf("%*s%s\n", indent + 2, "", v ? name : "(Bus Powered)");
		return;
	case LF_FLAG:
		if (v != 0)
			printf("%*s%s\n", indent + 2, "", name);
		return;
	case LF_HUB_POWER:
		printf("%*s%s\n", indent + 2, "", v == 0 ?
		    "Ganged power switching" : v == 1 ?
		    "Per-port power switching" :
		    "No power switching (usb 1.0)");
		return;
	case LF_HUB_OC:
		printf("%*s%s\n", indent + 2, "", v == 0 ?
		    "Ganged overcurrent protection" : v == 1 ?
		    "Per-port overcurrent protection" :
		    "No overcurrent protection");
		return;
	case LF_HUB_TT:
		/* Only high-speed hubs have transaction translators. */
		if (w->d->desclen >= 7 && (w->d->desc[6] == 1 ||
		    w->d->desc[6] == 2))
			printf("%*sTT think time %u FS bits\n", indent + 2, "",
			    ((unsigned)v + 1) * 8);
		return;
	}
	if (w->type == USB_DT_HID &&
	    strcmp(n->f->name, "bDescriptorType") == 0 &&
	    n->off != w->doff + 1) {
		/* HID's class descriptor list, not the header. */
		text = v == 0x22 ? "Report" : v == 0x23 ? "Physical" : NULL;
		if (v == 0x22)
			w->hid_report = 0;
	}
	/* Units after the number, which alone sits in the column. */
	if (row->suffix != NULL)
		text = row->suffix;
	if (n->note != NULL) {
		/* Our checks: bad lengths and the like. */
		snprintf(nbuf, sizeof nbuf, "%.256s%s[%s]", text != NULL ?
		    text : "", text != NULL ? "  " : "", n->note);
		text = nbuf;
	}
	ls_line(indent, name, width, val, text);
}

/* Decode p[0..len) with dec-desc.c and show it as lsusb -v does. */
static void
ls_tree(struct dv *d, const uint8_t *p, size_t len, int after)
{
	static struct dec_node	 nodes[DEV_TREE_NODES];
	static char		 arena[DEV_TREE_ARENA];
	struct dec_tree		 t;
	struct lswalk		 w;
	size_t			 i;

	dec_tree_init(&t, nodes, DEV_TREE_NODES, arena, sizeof arena);
	dec_desc_tree(p, len, NULL, &t);
	memset(&w, 0, sizeof w);
	w.d = d;
	w.data = p;
	w.len = len;
	w.after = after;
	w.indent = -1;
	w.hid_report = -1;
	for (i = 0; i < t.n; i++) {
		if (t.node[i].f == NULL)
			ls_head(&w, &t.node[i]);
		else
			ls_field(&w, &t.node[i]);
	}
	ls_flush(&w);
	if (t.overflow)
		printf("  (descriptors too large to show whole)\n");
}

/* The sysfs or rebuilt bytes: the device, then each configuration. */
static void
ls_descriptors(struct dv *d)
{
	const uint8_t	*p = d->desc;
	size_t		 off, total, n = d->desclen;

	if (n < 2 || p[0] < 2) {
		printf("Device Descriptor:\n  (not available)\n");
		return;
	}
	off = p[0] < n ? p[0] : n;
	ls_tree(d, p, off, 0);
	while (off + 4 <= n) {
		/* Each configuration is wTotalLength bytes. */
		total = p[off + 1] == USB_DT_CONFIG ?
		    get_le16(p + off + 2) : p[off];
		if (total < 2)
			total = n - off;
		if (total > n - off)
			total = n - off;
		ls_tree(d, p + off, total, 0);
		off += total;
	}
	if (off < n)
		ls_bytes(0, p + off, n - off, "** UNRECOGNIZED: ");
}

/* USB 2.0 11.24.2.7: wPortStatus and wPortChange, as lsusb prints them. */
static void
ls_port_status(unsigned port, const uint8_t s[4])
{
	printf("   Port %u: %02x%02x.%02x%02x", port, s[3], s[2], s[1], s[0]);
	printf("%s%s%s%s%s", s[2] & 0x10 ? " C_RESET" : "",
	    s[2] & 0x08 ? " C_OC" : "", s[2] & 0x04 ? " C_SUSPEND" : "",
	    s[2] & 0x02 ? " C_ENABLE" : "", s[2] & 0x01 ? " C_CONNECT" : "");
	printf("%s%s%s%s%s%s%s%s%s%s\n", s[1] & 0x10 ? " indicator" : "",
	    s[1] & 0x08 ? " test" : "", s[1] & 0x04 ? " highspeed" : "",
	    s[1] & 0x02 ? " lowspeed" : "", s[1] & 0x01 ? " power" : "",
	    s[0] & 0x10 ? " RESET" : "", s[0] & 0x08 ? " oc" : "",
	    s[0] & 0x04 ? " suspend" : "", s[0] & 0x02 ? " enable" : "",
	    s[0] & 0x01 ? " connect" : "");
}

/*
 * What lsusb asks the device after the descriptors: the hub descriptor
 * and port status of a hub, the BOS of USB 2.01+, the qualifier of a USB
 * 2.00 device, the device status.  Needs an open handle.
 */
static void
ls_requests(struct dv *d)
{
	uint8_t	 buf[512], st[4];
	uint16_t bcd;
	int	 n, i;

	if (d->h == NULL || d->desclen < 18)
		return;
	bcd = get_le16(d->desc + 2);
	if (d->desc[4] == LIBUSB_CLASS_HUB && bcd < 0x0300) {
		n = dv_ctrl_in(d, LIBUSB_REQUEST_TYPE_CLASS,
		    LIBUSB_REQUEST_GET_DESCRIPTOR, LIBUSB_DT_HUB << 8, 0, buf,
		    7 + 2 * 32);
		if (n >= 7 && buf[0] >= 7) {
			/* Root hubs pad the reply to wLength with zeroes. */
			ls_tree(d, buf, (size_t)(n < buf[0] ? n : buf[0]), 0);
			printf(" Hub Port Status:\n");
			for (i = 0; i < buf[2]; i++) {
				if (dv_ctrl_in(d, LIBUSB_REQUEST_TYPE_CLASS |
				    LIBUSB_RECIPIENT_OTHER,
				    LIBUSB_REQUEST_GET_STATUS, 0,
				    (uint16_t)(i + 1), st, 4) != 4)
					break;
				ls_port_status((unsigned)i + 1, st);
			}
		}
	}
	if (bcd >= 0x0201) {
		n = dv_ctrl_in(d, 0, LIBUSB_REQUEST_GET_DESCRIPTOR,
		    LIBUSB_DT_BOS << 8, 0, buf, 5);
		if (n == 5 && buf[1] == LIBUSB_DT_BOS) {
			n = dv_ctrl_in(d, 0, LIBUSB_REQUEST_GET_DESCRIPTOR,
			    LIBUSB_DT_BOS << 8, 0, buf, (uint16_t)(get_le16(
			    buf + 2) < sizeof buf ? get_le16(buf + 2) :
			    sizeof buf));
			if (n >= 5)
				ls_tree(d, buf, (size_t)n, 0);
		}
	}
	if (bcd == 0x0200) {
		/* Full-speed-only devices stall it: nothing to say then. */
		n = dv_ctrl_in(d, 0, LIBUSB_REQUEST_GET_DESCRIPTOR,
		    USB_DT_DEVICE_QUALIFIER << 8, 0, buf, 10);
		if (n == 10 && buf[0] == 10 &&
		    buf[1] == USB_DT_DEVICE_QUALIFIER)
			ls_tree(d, buf, 10, 0);
	}
	n = dv_ctrl_in(d, 0, LIBUSB_REQUEST_GET_STATUS, 0, 0, st, 2);
	if (n == 2) {
		printf("Device Status:     0x%02x%02x\n", st[1], st[0]);
		printf("  %s\n", st[0] & 1 ? "Self Powered" : "(Bus Powered)");
		if (bcd < 0x0300 && (st[0] & 2))
			printf("  Remote Wakeup Enabled\n");
		if (st[0] & 8)
			printf("  Debug Mode\n");
	}
}

/* ------------------------------------------------------------------------
 * The listing.
 */

static void
dv_header(struct dv *d)
{
	const struct sysfs_usb_intf *in;
	const char	*vendor, *product;
	char		 pbuf[256], vbuf[256];
	size_t		 i;

	vendor = usbids_vendor(d->vid);
	product = NULL;
	if (d->desclen >= 18) {
		if (vendor == NULL)
			vendor = dv_string(d, d->desc[14], vbuf, sizeof vbuf);
		product = dv_string(d, d->desc[15], pbuf, sizeof pbuf);
	}
	if (product == NULL)
		product = usbids_product(d->vid, d->pid);
	printf("Bus %03u Device %03u: ID %04x:%04x%s%s%s%s\n", d->bus,
	    d->devnum, d->vid, d->pid, vendor != NULL ? " " : "",
	    vendor != NULL ? vendor : "", product != NULL ? " " : "",
	    product != NULL ? product : "");

	printf("    port %s%s, %s", d->port,
	    strncmp(d->port, "usb", 3) == 0 ? " (root hub)" : "",
	    d->speed[0] != '\0' ? d->speed : "speed unknown");
	if (d->sys == NULL)
		printf(", drivers unknown (no sysfs)");
	else if (d->sys->config == 0 && d->sys->nintf == 0)
		printf(", unconfigured");
	for (i = 0; d->sys != NULL && i < d->sys->nintf; i++) {
		in = &d->sys->intf[i];
		printf(", if %u", in->num);
		if (in->alt != 0)
			printf(" alt %u", in->alt);
		printf(" %s", in->driver[0] != '\0' ? in->driver : "-");
	}
	printf("\n");
}

static int
devices_list(struct dv *dv, size_t n, const struct devopts *o)
{
	size_t	 i, shown = 0, denied = 0;
	int	 rc, first_err = 0;

	for (i = 0; i < n; i++) {
		if (!dv_match(&dv[i], o))
			continue;
		if (o->verbose && dv[i].ld != NULL) {
			rc = libusb_open(dv[i].ld, &dv[i].h);
			if (rc != 0) {
				dv[i].h = NULL;
				if (denied++ == 0)
					first_err = rc;
			}
		}
		if (o->verbose)
			printf("\n");
		dv_header(&dv[i]);
		if (o->verbose) {
			ls_descriptors(&dv[i]);
			ls_requests(&dv[i]);
		}
		shown++;
	}
	fflush(stdout);
	if (denied > 0)
		tui_warnx("devices: %zu device%s could not be opened (%s): "
		    "only the strings sysfs has are shown, and no device "
		    "qualifier, hub or device status; run as root", denied,
		    denied == 1 ? "" : "s", libusb_strerror(first_err));
	if (shown == 0 && n > 0) {
		tui_warnx("devices: no device matches");
		return EXIT_INPUT;
	}
	return 0;
}

int
tui_cmd_devices(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "sysfs", required_argument, NULL, 'S' },
		{ "verbose", no_argument, NULL, 'v' },
		{ NULL, 0, NULL, 0 }
	};
	struct devopts		 o = { 0, -1, -1, -1, -1, NULL };
	struct sysfs_usb_dev	*sys = NULL;
	struct dv		*dv = NULL;
	libusb_context		*ctx = NULL;
	libusb_device		**list = NULL;
	ssize_t			 nl;
	size_t			 nsys = 0, n = 0, i;
	char			 err[4200];
	int			 ch, rc, status = 0;

	while ((ch = getopt_long(argc, argv, "d:hs:v", longopts,
	    NULL)) != -1) {
		switch (ch) {
		case 'd':
			if (parse_id(optarg, &o) != 0) {
				tui_warnx("devices: -d %s: want "
				    "vendor:[product] in hex, e.g. 0627:0001",
				    optarg);
				return EXIT_USAGE;
			}
			break;
		case 's':
			if (parse_slot(optarg, &o) != 0) {
				tui_warnx("devices: -s %s: want [[bus]:]"
				    "[devnum] in decimal, e.g. 1:3", optarg);
				return EXIT_USAGE;
			}
			break;
		case 'S':
			o.sysfs = optarg;
			break;
		case 'v':
			o.verbose = 1;
			break;
		case 'h':
			devices_usage(stdout);
			return 0;
		default:
			devices_usage(stderr);
			return EXIT_USAGE;
		}
	}
	if (optind != argc) {
		tui_warnx("devices: unexpected argument '%s'", argv[optind]);
		devices_usage(stderr);
		return EXIT_USAGE;
	}

	if (sysfs_usb_scan(o.sysfs, &sys, &nsys, err, sizeof err) != 0) {
		if (o.sysfs != NULL) {
			tui_warnx("devices: %s", err);
			return EXIT_INPUT;
		}
		/* Live: libusb may still work; drivers will be unknown. */
		sys = NULL;
		nsys = 0;
	}

	if (o.sysfs != NULL) {
		if (nsys > 0 && (dv = calloc(nsys, sizeof *dv)) == NULL)
			goto nomem;
		for (i = 0; i < nsys; i++)
			dv_from_sysfs(&dv[n++], &sys[i]);
	} else {
		if ((rc = libusb_init(&ctx)) != 0) {
			tui_warnx("devices: cannot initialise libusb: %s "
			    "(is usbfs at /dev/bus/usb?)", libusb_strerror(rc));
			sysfs_usb_free(sys, nsys);
			return EXIT_INPUT;
		}
		nl = libusb_get_device_list(ctx, &list);
		if (nl < 0) {
			tui_warnx("devices: cannot list the USB devices: %s",
			    libusb_strerror((int)nl));
			status = EXIT_INPUT;
			goto out;
		}
		if (nl > 0 && (dv = calloc((size_t)nl, sizeof *dv)) == NULL)
			goto nomem;
		for (i = 0; i < (size_t)nl; i++) {
			if (dv_from_libusb(&dv[n], list[i], sys, nsys) == 0)
				n++;
			else
				dv_free(&dv[n]);
		}
	}
	if (n == 0) {
		tui_warnx("no USB devices found");
		goto out;
	}
	qsort(dv, n, sizeof *dv, dv_cmp);
	status = devices_list(dv, n, &o);
	goto out;

nomem:
	tui_warnx("devices: out of memory");
	status = EXIT_INPUT;
out:
	for (i = 0; i < n; i++)
		dv_free(&dv[i]);
	free(dv);
	if (list != NULL)
		libusb_free_device_list(list, 1);
	if (ctx != NULL)
		libusb_exit(ctx);
	sysfs_usb_free(sys, nsys);
	return status;
}
