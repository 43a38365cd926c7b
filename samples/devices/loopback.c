/*
 * samples/devices/loopback.c - "loopback", a vendor-specific high-speed
 * device that returns on bulk IN 0x81 what was written to bulk OUT 0x02,
 * through a FIFO (16 KiB, or the size given as args: "4K", "65536").  An
 * OUT packet that does not fit and an IN on an empty FIFO are NAKed.
 * This is the device the usb-skeleton sample driver talks to; its IDs
 * (0xfff0:0xfff0) are the skeleton's USB_SKEL_VENDOR_ID/PRODUCT_ID.
 */
#include <stdlib.h>
#include <string.h>

#include "samples/devices/devices.h"

#define LB_FIFO_DEFAULT	(16 * 1024)
#define LB_FIFO_MAX	(16 * 1024 * 1024)
#define LB_MAXP		512

struct loopback {
	uint8_t		*fifo;
	size_t		 size;
	size_t		 head;		/* next byte to read */
	size_t		 count;		/* bytes held */
};

/* USB 2.0 9.6.1 */
static const uint8_t lb_device[USB_DT_DEVICE_SIZE] = {
	18, USB_DT_DEVICE, 0x00, 0x02,	/* bcdUSB 2.00 */
	0x00, 0x00, 0x00, 64,		/* per interface, ep0 64 */
	0xf0, 0xff, 0xf0, 0xff,		/* 0xfff0:0xfff0 */
	0x00, 0x01, 1, 2, 3, 1		/* bcdDevice 1.00, strings, 1 cfg */
};

/* USB 2.0 9.6.2 */
static const uint8_t lb_qualifier[10] = {
	10, USB_DT_DEVICE_QUALIFIER, 0x00, 0x02, 0x00, 0x00, 0x00, 64, 1, 0
};

/* USB 2.0 9.6.3, 9.6.5, 9.6.6 */
static const uint8_t lb_config[] = {
	9, USB_DT_CONFIG, 32, 0, 1, 1, 0, 0x80, 50,	/* bus powered 100mA */
	9, USB_DT_INTERFACE, 0, 0, 2, 0xff, 0x00, 0x00, 0,
	7, USB_DT_ENDPOINT, 0x81, USB_ENDPOINT_XFER_BULK, 0x00, 0x02, 0,
	7, USB_DT_ENDPOINT, 0x02, USB_ENDPOINT_XFER_BULK, 0x00, 0x02, 0,
};

static const char *const lb_strings[] = {
	"urbscope", "Bulk Loopback", "LB-0001", NULL
};

static const struct dm_descriptors lb_desc = {
	.device = lb_device,
	.config = lb_config,
	.config_len = sizeof lb_config,
	.qualifier = lb_qualifier,
	.strings = lb_strings,
};

static int
lb_init(struct usb_devmodel *dm, const char *args)
{
	struct loopback	*lb = dm->priv;
	uint64_t	 size = LB_FIFO_DEFAULT;

	if (args != NULL && *args != '\0' &&
	    (dm_parse_size(args, &size) != 0 || size < LB_MAXP ||
	    size > LB_FIFO_MAX))
		return -1;
	if ((lb->fifo = malloc((size_t)size)) == NULL)
		return -1;
	lb->size = (size_t)size;
	return 0;
}

static void
lb_destroy(struct usb_devmodel *dm)
{
	struct loopback	*lb = dm->priv;

	free(lb->fifo);
}

/* Bus reset and SET_CONFIGURATION empty the FIFO. */
static void
lb_reset(struct usb_devmodel *dm)
{
	struct loopback	*lb = dm->priv;

	lb->head = lb->count = 0;
}

static void
lb_set_config(struct usb_devmodel *dm, int value)
{
	(void)value;
	lb_reset(dm);
}

static int
lb_data_in(struct usb_devmodel *dm, int ep, uint8_t *buf, size_t max)
{
	struct loopback	*lb = dm->priv;
	size_t		 n, first;

	if (ep != 0x81)
		return DM_STALL;
	if (lb->count == 0)
		return DM_NAK;
	n = lb->count < max ? lb->count : max;
	if (n > LB_MAXP)
		n = LB_MAXP;
	first = lb->size - lb->head < n ? lb->size - lb->head : n;
	memcpy(buf, lb->fifo + lb->head, first);
	memcpy(buf + first, lb->fifo, n - first);
	lb->head = (lb->head + n) % lb->size;
	lb->count -= n;
	return (int)n;
}

static int
lb_data_out(struct usb_devmodel *dm, int ep, const uint8_t *buf,
    size_t len)
{
	struct loopback	*lb = dm->priv;
	size_t		 tail, first;

	if (ep != 0x02)
		return DM_STALL;
	if (len > lb->size - lb->count)
		return DM_NAK;
	tail = (lb->head + lb->count) % lb->size;
	first = lb->size - tail < len ? lb->size - tail : len;
	memcpy(lb->fifo + tail, buf, first);
	memcpy(lb->fifo, buf + first, len - first);
	lb->count += len;
	return DM_ACK;
}

const struct usb_devmodel_ops dm_loopback_ops = {
	.name = "loopback",
	.priv_size = sizeof(struct loopback),
	.desc = &lb_desc,
	.init = lb_init,
	.destroy = lb_destroy,
	.reset = lb_reset,
	.set_config = lb_set_config,
	.data_in = lb_data_in,
	.data_out = lb_data_out,
};
