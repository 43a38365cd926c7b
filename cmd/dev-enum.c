/*
 * cmd/dev-enum.c - the devices of `urbscope devices`: from libusb-1.0
 * (bus, address, port path, speed; the descriptors from sysfs, or
 * rebuilt from libusb's parsed form) or from a sysfs tree alone, and the
 * strings and requests asked of an open device.
 */
#include <libusb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decode/decode.h"
#include "devices.h"
#include "cmd.h"

#define DEV_CTRL_MS	1000	/* a control request to the device */

/* ------------------------------------------------------------------------
 * Devices from sysfs and from libusb.
 */

static void
speed_from_sysfs(struct dv *d, const struct sysfs_usb_dev *s)
{
	if (s->speed_str[0] != '\0')
		snprintf(d->speed, sizeof d->speed, "%sM", s->speed_str);
}

void
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

int
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

void
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
const char *
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
int
dv_ctrl_in(struct dv *d, uint8_t rtype, uint8_t req, uint16_t val,
    uint16_t idx, uint8_t *buf, uint16_t len)
{
	if (d->h == NULL)
		return LIBUSB_ERROR_NO_DEVICE;
	return libusb_control_transfer(d->h, (uint8_t)(LIBUSB_ENDPOINT_IN |
	    rtype), req, val, idx, buf, len, DEV_CTRL_MS);
}
