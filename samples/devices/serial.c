/*
 * samples/devices/serial.c - "serial", a high-speed CDC-ACM serial adapter
 * (USB CDC 1.2, PSTN 1.2 Abstract Control Model) whose TX is wired to its
 * RX: what the host writes to bulk OUT 0x02 comes back on bulk IN 0x81
 * through a 4 KiB FIFO (an IN on an empty FIFO and an OUT that does not
 * fit are NAKed).  Interface 0 is the communications interface (class
 * 2/2/1, CDC 5.1) with its header, call management, ACM and union
 * functional descriptors (CDC 5.2.3, PSTN 5.3) and the notification
 * endpoint interrupt IN 0x83; interface 1 the data interface (class 0x0a).
 *
 * Class requests (PSTN 6.3): SET_LINE_CODING and GET_LINE_CODING (7
 * bytes: rate, stop bits, parity, data bits; 9600 8N1 at reset),
 * SET_CONTROL_LINE_STATE (DTR, RTS) and SEND_BREAK.  DTR is looped back
 * to DCD and DSR, so raising or dropping it sends a SERIAL_STATE
 * notification (PSTN 6.5.4) with the new state; a break, seen by the
 * adapter's own receiver, is reported with the break bit set.
 */
#include <string.h>

#include "decode/usbclass.h"
#include "samples/devices/devices.h"

#define SER_FIFO	4096
#define SER_MAXP	512
#define SER_NOTES	4		/* notifications queued */

struct serial {
	uint8_t		 fifo[SER_FIFO];
	size_t		 head, count;
	uint8_t		 coding[7];	/* PSTN table 17 */
	uint8_t		 lines;		/* DTR, RTS */
	uint8_t		 notes[SER_NOTES];	/* UART states to send */
	size_t		 nnotes;
};

/* USB 2.0 9.6.1: the class is the communications device class (CDC 5.1) */
static const uint8_t ser_device[USB_DT_DEVICE_SIZE] = {
	18, USB_DT_DEVICE, 0x00, 0x02,	/* bcdUSB 2.00 */
	0x02, 0x00, 0x00, 64,		/* CDC, ep0 64 */
	0x09, 0x12, 0x08, 0x00,		/* 1209:0008 */
	0x00, 0x01, 1, 2, 3, 1		/* bcdDevice 1.00, strings, 1 cfg */
};

/* USB 2.0 9.6.2 */
static const uint8_t ser_qualifier[10] = {
	10, USB_DT_DEVICE_QUALIFIER, 0x00, 0x02, 0x02, 0x00, 0x00, 64, 1, 0
};

/* USB 2.0 9.6.3, CDC 1.2 5.1, 5.2.3, PSTN 1.2 5.3 */
static const uint8_t ser_config[] = {
	9, USB_DT_CONFIG, 67, 0, 2, 1, 0, 0x80, 50,
	/* communications interface: abstract control model, AT commands */
	9, USB_DT_INTERFACE, 0, 0, 1, 0x02, 0x02, 0x01, 0,
	5, 0x24, 0x00, 0x20, 0x01,	/* header, CDC 1.20 */
	5, 0x24, 0x01, 0x00, 1,		/* call management: none, data 1 */
	4, 0x24, 0x02, 0x06,		/* ACM: line coding/state, break */
	5, 0x24, 0x06, 0, 1,		/* union: master 0, slave 1 */
	/* notifications, 16 bytes, bInterval 8: 2^7 uframes = 16 ms */
	7, USB_DT_ENDPOINT, 0x83, USB_ENDPOINT_XFER_INT, 16, 0, 8,
	/* data interface */
	9, USB_DT_INTERFACE, 1, 0, 2, 0x0a, 0x00, 0x00, 0,
	7, USB_DT_ENDPOINT, 0x81, USB_ENDPOINT_XFER_BULK, 0x00, 0x02, 0,
	7, USB_DT_ENDPOINT, 0x02, USB_ENDPOINT_XFER_BULK, 0x00, 0x02, 0,
};

static const char *const ser_strings[] = {
	"urbscope", "CDC-ACM Serial", "SER-0008", NULL
};

static const struct dm_descriptors ser_desc = {
	.device = ser_device,
	.config = ser_config,
	.config_len = sizeof ser_config,
	.qualifier = ser_qualifier,
	.strings = ser_strings,
};

static void
ser_reset(struct usb_devmodel *dm)
{
	struct serial	*sp = dm->priv;
	static const uint8_t coding[7] = { 0x80, 0x25, 0, 0, 0, 0, 8 };

	sp->head = sp->count = 0;
	memcpy(sp->coding, coding, sizeof sp->coding);	/* 9600 8N1 */
	sp->lines = 0;
	sp->nnotes = 0;
}

static int
ser_init(struct usb_devmodel *dm, const char *args)
{
	(void)args;
	ser_reset(dm);
	return 0;
}

static void
ser_set_config(struct usb_devmodel *dm, int value)
{
	(void)value;
	ser_reset(dm);
}

static void
ser_notify(struct serial *sp, uint8_t state)
{
	if (sp->nnotes < SER_NOTES)
		sp->notes[sp->nnotes++] = state;
}

static int
ser_data_in(struct usb_devmodel *dm, int ep, uint8_t *buf, size_t max)
{
	struct serial	*sp = dm->priv;
	size_t		 n, first;

	if (ep == 0x83) {
		if (sp->nnotes == 0 || max < 10)
			return DM_NAK;
		/* PSTN 6.5.4: the notification's setup-like header */
		buf[0] = 0xa1;
		buf[1] = USB_CDC_NOTIFY_SERIAL_STATE;
		put_le16(buf + 2, 0);
		put_le16(buf + 4, 0);		/* interface 0 */
		put_le16(buf + 6, 2);
		put_le16(buf + 8, sp->notes[0]);
		memmove(sp->notes, sp->notes + 1, --sp->nnotes);
		return 10;
	}
	if (ep != 0x81)
		return DM_STALL;
	if (sp->count == 0)
		return DM_NAK;
	n = sp->count < max ? sp->count : max;
	if (n > SER_MAXP)
		n = SER_MAXP;
	first = SER_FIFO - sp->head < n ? SER_FIFO - sp->head : n;
	memcpy(buf, sp->fifo + sp->head, first);
	memcpy(buf + first, sp->fifo, n - first);
	sp->head = (sp->head + n) % SER_FIFO;
	sp->count -= n;
	return (int)n;
}

static int
ser_data_out(struct usb_devmodel *dm, int ep, const uint8_t *buf,
    size_t len)
{
	struct serial	*sp = dm->priv;
	size_t		 tail, first;

	if (ep != 0x02)
		return DM_STALL;
	if (len > SER_FIFO - sp->count)
		return DM_NAK;
	tail = (sp->head + sp->count) % SER_FIFO;
	first = SER_FIFO - tail < len ? SER_FIFO - tail : len;
	memcpy(sp->fifo + tail, buf, first);
	memcpy(sp->fifo, buf + first, len - first);
	sp->count += len;
	return DM_ACK;
}

static int
ser_control(struct usb_devmodel *dm, const struct usb_ctrlrequest *s,
    uint8_t *data)
{
	struct serial	*sp = dm->priv;
	uint8_t		 state;

	if ((s->bRequestType & (USB_TYPE_MASK | USB_RECIP_MASK)) !=
	    (USB_TYPE_CLASS | USB_RECIP_INTERFACE) || s->wIndex != 0)
		return DM_STALL;
	switch (s->bRequest) {
	case USB_CDC_REQ_SET_LINE_CODING:
		/* stop bits 0-2, parity 0-4, data bits 5-8 or 16 */
		if (s->wLength != 7 || data[4] > 2 || data[5] > 4 ||
		    ((data[6] < 5 || data[6] > 8) && data[6] != 16))
			return DM_STALL;
		memcpy(sp->coding, data, sizeof sp->coding);
		return 0;
	case USB_CDC_REQ_GET_LINE_CODING:
		if (s->wLength < 7)
			return DM_STALL;
		memcpy(data, sp->coding, sizeof sp->coding);
		return 7;
	case USB_CDC_REQ_SET_CONTROL_LINE_STATE:
		state = (uint8_t)(s->wValue &
		    (USB_CDC_CTRL_DTR | USB_CDC_CTRL_RTS));
		/* DTR is wired to DCD and DSR */
		if ((state ^ sp->lines) & USB_CDC_CTRL_DTR)
			ser_notify(sp, (state & USB_CDC_CTRL_DTR) ?
			    USB_CDC_SERIAL_STATE_DCD |
			    USB_CDC_SERIAL_STATE_DSR : 0);
		sp->lines = state;
		return 0;
	case USB_CDC_REQ_SEND_BREAK:
		/* the receiver sees the break (0xffff: until stopped) */
		if (s->wValue != 0)
			ser_notify(sp, USB_CDC_SERIAL_STATE_BREAK |
			    ((sp->lines & USB_CDC_CTRL_DTR) ?
			    USB_CDC_SERIAL_STATE_DCD |
			    USB_CDC_SERIAL_STATE_DSR : 0));
		return 0;
	}
	return DM_STALL;
}

const struct usb_devmodel_ops dm_serial_ops = {
	.name = "serial",
	.priv_size = sizeof(struct serial),
	.desc = &ser_desc,
	.init = ser_init,
	.reset = ser_reset,
	.set_config = ser_set_config,
	.control = ser_control,
	.data_in = ser_data_in,
	.data_out = ser_data_out,
};
