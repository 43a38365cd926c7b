/*
 * HID game pad driver for urbscope's simulated USB core.
 *
 * Binds to HID interfaces without the boot protocol (class 3, subclass 0,
 * protocol 0) that have an interrupt IN endpoint, and asks what Linux's
 * usbhid asks at probe (drivers/hid/usbhid/hid-core.c usbhid_parse,
 * usbhid_start): SET_IDLE(0) for all reports, then the report descriptor
 * with GET_DESCRIPTOR(HID report, wLength from the HID descriptor, HID
 * 1.11 7.1.1).  Then, as a game pad's driver would at open, it reads the
 * feature report (GET_REPORT), lights player LED 1 (SET_REPORT, output)
 * and polls the interrupt IN endpoint with one URB resubmitted from its
 * completion.  The reports are those of the "gamepad" device model (IDs
 * 1 to 4, samples/devices/gamepad.c): a real driver learns the layout
 * from the descriptor; this one checks the descriptor's length and
 * report IDs and logs each report by its fields ("pad: buttons 1 x 0 y 0
 * hat centred", "volume: up").
 */

#include <stdio.h>
#include <string.h>

#include "decode/usbclass.h"
#include "core/usb.h"
#include "samples/drivers/drivers.h"

#define GP_REPORT_MAX		8		/* the endpoint's size */
#define GP_DESC_MAX		512

static struct usb_device_id gamepad_id_table [] = {
	{ USB_INTERFACE_INFO(3, 0, 0) },	/* HID, no boot protocol */
	{ }					/* Terminating entry */
};

struct gamepad {
	struct usb_device *	udev;
	struct usb_interface *	interface;
	struct urb *		irq;
	unsigned char *		report;
	int			ifnum;
};

static const char *const gamepad_hat[9] = {
	"N", "NE", "E", "SE", "S", "SW", "W", "NW", "centred"
};

/* HID 1.11 6.2.1: the HID descriptor with one class descriptor */
struct hid_descriptor {
	unsigned char bLength;
	unsigned char bDescriptorType;
	unsigned char bcdHID[2];
	unsigned char bCountryCode;
	unsigned char bNumDescriptors;
	unsigned char bClassDescriptorType;
	unsigned char wDescriptorLength[2];
};

/* wDescriptorLength of the report descriptor in the interface's HID
 * descriptor, as usbhid_parse finds it; 0 if none. */
static int gamepad_report_len(struct usb_host_interface *interface)
{
	struct hid_descriptor *hdesc;

	if (usb_get_extra_descriptor(interface, USB_DT_HID, &hdesc) != 0 ||
	    hdesc->bNumDescriptors < 1 ||
	    hdesc->bClassDescriptorType != USB_DT_HID_REPORT)
		return 0;
	return hdesc->wDescriptorLength[0] | hdesc->wDescriptorLength[1] << 8;
}

static void gamepad_log(struct gamepad *gp, const unsigned char *r, int len)
{
	char buttons[32];
	size_t n = 0;
	int i;

	if (len == 5 && r[0] == 1) {
		for (i = 0; i < 8; i++)
			if (r[1] & (1 << i))
				n += (size_t)snprintf(buttons + n,
				    sizeof buttons - n, " %d", i + 1);
		dev_info(gp->interface, "pad: buttons%s x %d y %d hat %s",
		    n > 0 ? buttons : " none", (signed char)r[2],
		    (signed char)r[3], gamepad_hat[(r[4] & 0x0f) > 8 ? 8 :
		    r[4] & 0x0f]);
	} else if (len == 2 && r[0] == 4)
		dev_info(gp->interface, "volume:%s%s%s%s",
		    (r[1] & 1) ? " up" : "", (r[1] & 2) ? " down" : "",
		    (r[1] & 4) ? " mute" : "", (r[1] & 7) ? "" : " released");
	else
		dev_warn(gp->interface, "report of %d bytes, ID %d", len,
		    len > 0 ? r[0] : -1);
}

static void gamepad_irq(struct urb *urb)
{
	struct gamepad *gp = urb->context;
	int retval;

	switch (urb->status) {
	case 0:
		gamepad_log(gp, gp->report, (int)urb->actual_length);
		break;
	case -ECONNRESET:
	case -ENOENT:
	case -ESHUTDOWN:
		return;
	default:
		dev_warn(gp->interface, "%s - nonzero urb status received: %d",
		    __func__, urb->status);
		break;
	}
	retval = usb_submit_urb(urb, GFP_ATOMIC);
	if (retval)
		dev_err(gp->interface, "%s - usb_submit_urb failed with result %d",
		    __func__, retval);
}

static void gamepad_free(struct gamepad *gp)
{
	if (gp->irq)
		usb_free_urb(gp->irq);
	kfree(gp->report);
	kfree(gp);
}

static int gamepad_probe(struct usb_interface *iface,
			 const struct usb_device_id *id)
{
	struct usb_device *dev = interface_to_usbdev(iface);
	struct usb_host_interface *interface = iface->cur_altsetting;
	struct usb_endpoint_descriptor *endpoint = NULL;
	struct gamepad *gp;
	unsigned char *buf;
	int i, len, retval;

	(void)id;
	for (i = 0; i < interface->desc.bNumEndpoints; i++) {
		struct usb_endpoint_descriptor *d = &interface->endpoint[i].desc;

		if ((d->bEndpointAddress & USB_DIR_IN) &&
		    (d->bmAttributes & USB_ENDPOINT_XFERTYPE_MASK) ==
		    USB_ENDPOINT_XFER_INT) {
			endpoint = d;
			break;
		}
	}
	if (!endpoint)
		return -ENODEV;
	gp = kzalloc(sizeof *gp, GFP_KERNEL);
	if (!gp)
		return -ENOMEM;
	gp->udev = dev;
	gp->interface = iface;
	gp->ifnum = interface->desc.bInterfaceNumber;

	/* usbhid_parse: no idle repeats, then the report descriptor */
	retval = usb_control_msg(dev, usb_sndctrlpipe(dev, 0),
				 HID_REQ_SET_IDLE,
				 USB_TYPE_CLASS | USB_RECIP_INTERFACE,
				 0, (u16)gp->ifnum, NULL, 0, USB_CTRL_SET_TIMEOUT);
	if (retval < 0)
		dev_warn(iface, "SET_IDLE failed: %d", retval);
	len = gamepad_report_len(interface);
	if (len <= 0 || len > GP_DESC_MAX) {
		dev_err(iface, "no report descriptor length");
		retval = -ENODEV;
		goto fail;
	}
	buf = kmalloc((size_t)len, GFP_KERNEL);
	if (!buf) {
		retval = -ENOMEM;
		goto fail;
	}
	retval = usb_control_msg(dev, usb_rcvctrlpipe(dev, 0),
				 USB_REQ_GET_DESCRIPTOR,
				 USB_DIR_IN | USB_RECIP_INTERFACE,
				 USB_DT_HID_REPORT << 8, (u16)gp->ifnum, buf,
				 (u16)len, USB_CTRL_GET_TIMEOUT);
	/* the layout logged below has report IDs (item 0x85) */
	if (retval != len || memchr(buf, 0x85, (size_t)len) == NULL) {
		dev_err(iface, "report descriptor: %d of %d bytes, no IDs",
		    retval, len);
		kfree(buf);
		retval = -ENODEV;
		goto fail;
	}
	kfree(buf);
	dev_info(iface, "report descriptor of %d bytes", len);

	gp->report = kmalloc(GP_REPORT_MAX, GFP_KERNEL);
	gp->irq = usb_alloc_urb(0, GFP_KERNEL);
	if (!gp->report || !gp->irq) {
		retval = -ENOMEM;
		goto fail;
	}

	/* the feature report: dead zone and sensitivity */
	retval = usb_control_msg(dev, usb_rcvctrlpipe(dev, 0),
				 HID_REQ_GET_REPORT,
				 USB_DIR_IN | USB_TYPE_CLASS | USB_RECIP_INTERFACE,
				 HID_RT_FEATURE << 8 | 3, (u16)gp->ifnum,
				 gp->report, 3, USB_CTRL_GET_TIMEOUT);
	if (retval == 3)
		dev_info(iface, "dead zone %u sensitivity %u", gp->report[1],
		    gp->report[2]);
	/* player 1's LED, on the control pipe as usbhid without an OUT
	 * pipe would (it has one: the device takes both) */
	gp->report[0] = 2;
	gp->report[1] = 0x01;
	retval = usb_control_msg(dev, usb_sndctrlpipe(dev, 0),
				 HID_REQ_SET_REPORT,
				 USB_TYPE_CLASS | USB_RECIP_INTERFACE,
				 HID_RT_OUTPUT << 8 | 2, (u16)gp->ifnum,
				 gp->report, 2, USB_CTRL_SET_TIMEOUT);
	if (retval < 0)
		dev_warn(iface, "SET_REPORT(LEDs) failed: %d", retval);

	usb_fill_int_urb(gp->irq, dev,
			 usb_rcvintpipe(dev, endpoint->bEndpointAddress),
			 gp->report, GP_REPORT_MAX, gamepad_irq, gp,
			 endpoint->bInterval);
	usb_set_intfdata(iface, gp);
	retval = usb_submit_urb(gp->irq, GFP_KERNEL);
	if (retval) {
		dev_err(iface, "usb_submit_urb failed: %d", retval);
		usb_set_intfdata(iface, NULL);
		goto fail;
	}
	dev_info(iface, "HID game pad attached");
	return 0;

fail:
	gamepad_free(gp);
	return retval;
}

static void gamepad_disconnect(struct usb_interface *intf)
{
	struct gamepad *gp = usb_get_intfdata(intf);

	usb_set_intfdata(intf, NULL);
	if (!gp)
		return;
	usb_kill_urb(gp->irq);
	gamepad_free(gp);
	dev_info(intf, "HID game pad disconnected");
}

struct usb_driver gamepad_driver = {
	.owner =	THIS_MODULE,
	.name =		"gamepad",
	.probe =	gamepad_probe,
	.disconnect =	gamepad_disconnect,
	.id_table =	gamepad_id_table,
};
