/*
 * USB Audio Class 2.0 playback driver for urbscope's simulated USB core.
 *
 * Binds to UAC 2.0 audio control interfaces (class 1, subclass 1,
 * protocol 0x20), finds the clock source and the feature unit in the
 * class-specific descriptors (UAC 2.0 4.7.2.1, 4.7.2.8) and claims the
 * streaming interface that follows, then asks what Linux's snd-usb-audio
 * asks (sound/usb/clock.c, format.c, mixer.c): the streaming interface
 * to alt 0, the clock's validity (CUR), its sampling frequencies (RANGE,
 * first the 2-byte count, then all of it), the mute (CUR), and each
 * channel's volume range and value (RANGE, CUR), and sets the volume to
 * -10 dB (CUR).  Opening /dev/usb/pcmN starts playback as a PCM's
 * prepare and trigger do (sound/usb/pcm.c, endpoint.c): alt 1, the rate
 * (SET CUR, read back with GET CUR), two isochronous OUT URBs of 8
 * one-millisecond packets (48 kHz, 2 channels, 16 bits: 192 bytes) of a
 * square wave, resubmitted from their completions; closing stops it (the
 * URBs killed, alt 0).
 */

#include <string.h>
#include <sys/stat.h>

#include "decode/usbclass.h"
#include "core/usb.h"
#include "samples/drivers/drivers.h"

#define UAC2_MINOR_BASE		224
#define UAC2_URBS		2
#define UAC2_PACKETS		8
#define UAC2_RATE		48000
#define UAC2_FRAME_BYTES	4		/* 2 channels of 16 bits */
#define UAC2_PACKET		(UAC2_RATE / 1000 * UAC2_FRAME_BYTES)

static struct usb_device_id uac2_id_table [] = {
	{ USB_INTERFACE_INFO(1, 1, 0x20) },	/* audio control, UAC 2.0 */
	{ }					/* Terminating entry */
};

struct uac2 {
	struct usb_device *	udev;
	struct usb_interface *	control;
	struct usb_interface *	stream;
	int			ctrl_ifnum;
	int			as_ifnum;
	int			clock_id;
	int			fu_id;
	int			ep;		/* iso OUT of alt 1 */
	int			interval;
	struct urb *		urbs[UAC2_URBS];
	unsigned char *		bufs[UAC2_URBS];
	int			running;
	int			open;
	int			present;
	unsigned long		packets;
};

static struct usb_driver *uac2_drv(void);

/* The ID of the first unit of subtype among the audio control
 * interface's class descriptors (snd_usb_find_csint_desc); -1 if none. */
static int uac2_entity(struct usb_host_interface *alt, int subtype)
{
	char *buf = (char *)alt->extra;
	unsigned len = (unsigned)alt->extralen;
	unsigned char *d;

	while (__usb_get_extra_descriptor(buf, len, USB_DT_CS_INTERFACE,
	    (void **)&d, 4) == 0) {
		if (d[2] == subtype)
			return d[3];
		len -= (unsigned)((char *)d + d[0] - buf);
		buf = (char *)d + d[0];
	}
	return -1;
}

/* The entities, and the first streaming interface after the control
 * one (the interface association's). */
static void uac2_parse(struct uac2 *ua)
{
	struct usb_host_config *config = ua->udev->actconfig;
	struct usb_interface_descriptor *d;
	int i;

	ua->clock_id = uac2_entity(ua->control->cur_altsetting,
	    UAC2_CLOCK_SOURCE);
	ua->fu_id = uac2_entity(ua->control->cur_altsetting,
	    UAC_FEATURE_UNIT);
	ua->as_ifnum = -1;
	for (i = 0; i < config->desc.bNumInterfaces; i++) {
		if (config->interface[i] == NULL)
			continue;
		d = &config->interface[i]->altsetting[0].desc;
		if (d->bInterfaceNumber > ua->ctrl_ifnum &&
		    d->bInterfaceClass == 1 && d->bInterfaceSubClass == 2) {
			ua->as_ifnum = d->bInterfaceNumber;
			ua->stream = config->interface[i];
			break;
		}
	}
}

/* A class request to an entity (UAC 2.0 5.2.2): length or -errno. */
static int uac2_req(struct uac2 *ua, int in, int req, int cs, int cn,
		    int entity, void *buf, int len)
{
	return usb_control_msg(ua->udev, in ? usb_rcvctrlpipe(ua->udev, 0) :
	    usb_sndctrlpipe(ua->udev, 0), (u8)req,
	    (in ? USB_DIR_IN : USB_DIR_OUT) | USB_TYPE_CLASS |
	    USB_RECIP_INTERFACE, (u16)(cs << 8 | cn),
	    (u16)(entity << 8 | ua->ctrl_ifnum), buf, (u16)len,
	    USB_CTRL_GET_TIMEOUT);
}

static int le16s(const unsigned char *p)
{
	return (int16_t)(p[0] | p[1] << 8);
}

static unsigned int le32(const unsigned char *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (unsigned int)p[3] << 24;
}

/* The mixer and the clock, as snd-usb-audio reads them at probe. */
static void uac2_controls(struct uac2 *ua)
{
	unsigned char b[64];
	int n, ch, i;

	if (uac2_req(ua, 1, UAC2_CS_CUR, UAC2_CS_CONTROL_CLOCK_VALID, 0,
	    ua->clock_id, b, 1) == 1)
		dev_info(ua->control, "clock %d %s", ua->clock_id,
		    b[0] ? "valid" : "not valid");
	if (uac2_req(ua, 1, UAC2_CS_RANGE, UAC2_CS_CONTROL_SAM_FREQ, 0,
	    ua->clock_id, b, 2) == 2) {
		n = b[0] | b[1] << 8;
		if (n > 5)
			n = 5;
		if (uac2_req(ua, 1, UAC2_CS_RANGE, UAC2_CS_CONTROL_SAM_FREQ, 0,
		    ua->clock_id, b, 2 + 12 * n) == 2 + 12 * n)
			for (i = 0; i < n; i++)
				dev_info(ua->control, "rate %u..%u Hz",
				    le32(b + 2 + 12 * i),
				    le32(b + 6 + 12 * i));
	}
	if (uac2_req(ua, 1, UAC2_CS_CUR, UAC_FU_MUTE, 0, ua->fu_id, b, 1) == 1)
		dev_info(ua->control, "mute %s", b[0] ? "on" : "off");
	for (ch = 1; ch <= 2; ch++) {
		if (uac2_req(ua, 1, UAC2_CS_RANGE, UAC_FU_VOLUME, ch, ua->fu_id,
		    b, 8) == 8 && uac2_req(ua, 1, UAC2_CS_CUR, UAC_FU_VOLUME,
		    ch, ua->fu_id, b + 8, 2) == 2)
			dev_info(ua->control, "volume ch %d %d/256 dB "
			    "(%d..%d)", ch, le16s(b + 8), le16s(b + 2),
			    le16s(b + 4));
		b[0] = 0x00;
		b[1] = 0xf6;		/* -10 dB */
		uac2_req(ua, 0, UAC2_CS_CUR, UAC_FU_VOLUME, ch, ua->fu_id, b,
		    2);
	}
}

static void uac2_fill(struct uac2 *ua, int i)
{
	unsigned char *p = ua->bufs[i];
	int k, v;

	/* a 1 kHz square wave: 24 frames high, 24 low a millisecond */
	for (k = 0; k < UAC2_PACKETS * UAC2_PACKET / UAC2_FRAME_BYTES; k++) {
		v = (k % 48) < 24 ? 0x1000 : -0x1000;
		p[4 * k] = p[4 * k + 2] = (unsigned char)v;
		p[4 * k + 1] = p[4 * k + 3] = (unsigned char)(v >> 8);
	}
}

static void uac2_complete(struct urb *urb)
{
	struct uac2 *ua = urb->context;
	int retval;

	if (urb->status != 0 || !ua->running)
		return;
	ua->packets += (unsigned long)urb->number_of_packets;
	retval = usb_submit_urb(urb, GFP_ATOMIC);
	if (retval)
		dev_err(ua->control, "%s - usb_submit_urb failed: %d",
		    __func__, retval);
}

static void uac2_stop(struct uac2 *ua)
{
	int i;

	ua->running = 0;
	for (i = 0; i < UAC2_URBS; i++)
		usb_kill_urb(ua->urbs[i]);
}

static int uac2_open(struct inode *inode, struct file *file)
{
	struct usb_interface *interface;
	struct uac2 *ua;
	unsigned char b[4];
	int i, k, retval;

	interface = usb_find_interface(uac2_drv(), iminor(inode));
	if (!interface)
		return -ENODEV;
	ua = usb_get_intfdata(interface);
	if (!ua || !ua->present)
		return -ENODEV;
	if (ua->open)
		return -EBUSY;
	retval = usb_set_interface(ua->udev, ua->as_ifnum, 1);
	if (retval)
		return retval;
	b[0] = (unsigned char)UAC2_RATE;
	b[1] = (unsigned char)(UAC2_RATE >> 8);
	b[2] = (unsigned char)(UAC2_RATE >> 16);
	b[3] = 0;
	retval = uac2_req(ua, 0, UAC2_CS_CUR, UAC2_CS_CONTROL_SAM_FREQ, 0,
	    ua->clock_id, b, 4);
	if (retval < 0)
		goto fail;
	if (uac2_req(ua, 1, UAC2_CS_CUR, UAC2_CS_CONTROL_SAM_FREQ, 0,
	    ua->clock_id, b, 4) == 4)
		dev_info(ua->control, "playing at %u Hz", le32(b));
	ua->running = 1;
	ua->packets = 0;
	for (i = 0; i < UAC2_URBS; i++) {
		struct urb *urb = ua->urbs[i];

		uac2_fill(ua, i);
		urb->dev = ua->udev;
		urb->pipe = usb_sndisocpipe(ua->udev, ua->ep);
		urb->transfer_flags = URB_ISO_ASAP;
		urb->transfer_buffer = ua->bufs[i];
		urb->transfer_buffer_length = UAC2_PACKETS * UAC2_PACKET;
		urb->number_of_packets = UAC2_PACKETS;
		urb->interval = ua->interval;
		urb->complete = uac2_complete;
		urb->context = ua;
		for (k = 0; k < UAC2_PACKETS; k++) {
			urb->iso_frame_desc[k].offset = k * UAC2_PACKET;
			urb->iso_frame_desc[k].length = UAC2_PACKET;
		}
		retval = usb_submit_urb(urb, GFP_KERNEL);
		if (retval) {
			uac2_stop(ua);
			goto fail;
		}
	}
	ua->open = 1;
	file->private_data = ua;
	return 0;
fail:
	usb_set_interface(ua->udev, ua->as_ifnum, 0);
	return retval;
}

static int uac2_release(struct inode *inode, struct file *file)
{
	struct uac2 *ua = file->private_data;

	(void)inode;
	if (ua == NULL)
		return -ENODEV;
	ua->open = 0;
	if (!ua->present) {
		kfree(ua);
		return 0;
	}
	uac2_stop(ua);
	dev_info(ua->control, "stopped after %lu packets", ua->packets);
	usb_set_interface(ua->udev, ua->as_ifnum, 0);
	return 0;
}

static struct file_operations uac2_fops = {
	.owner =	THIS_MODULE,
	.open =		uac2_open,
	.release =	uac2_release,
};

static struct usb_class_driver uac2_class = {
	.name =		"usb/pcm%d",
	.fops =		&uac2_fops,
	.mode =		S_IFCHR | S_IWUSR,
	.minor_base =	UAC2_MINOR_BASE,
};

static void uac2_free_io(struct uac2 *ua)
{
	int i;

	for (i = 0; i < UAC2_URBS; i++) {
		usb_free_urb(ua->urbs[i]);
		kfree(ua->bufs[i]);
		ua->urbs[i] = NULL;
		ua->bufs[i] = NULL;
	}
}

static int uac2_probe(struct usb_interface *intf,
		      const struct usb_device_id *id)
{
	struct usb_device *dev = interface_to_usbdev(intf);
	struct usb_host_interface *alt;
	struct uac2 *ua;
	unsigned i;
	int retval;

	(void)id;
	ua = kzalloc(sizeof *ua, GFP_KERNEL);
	if (!ua)
		return -ENOMEM;
	ua->udev = dev;
	ua->control = intf;
	ua->ctrl_ifnum = intf->cur_altsetting->desc.bInterfaceNumber;
	uac2_parse(ua);
	retval = -ENODEV;
	if (ua->clock_id < 0 || ua->fu_id < 0 || ua->stream == NULL) {
		dev_err(intf, "no clock, feature unit or streaming interface");
		goto fail;
	}
	ua->ep = -1;
	for (i = 0; i < ua->stream->num_altsetting; i++) {
		alt = &ua->stream->altsetting[i];
		if (alt->desc.bAlternateSetting == 1 &&
		    alt->desc.bNumEndpoints >= 1 &&
		    (alt->endpoint[0].desc.bmAttributes & 3) ==
		    USB_ENDPOINT_XFER_ISOC &&
		    !(alt->endpoint[0].desc.bEndpointAddress & USB_DIR_IN)) {
			ua->ep = alt->endpoint[0].desc.bEndpointAddress;
			ua->interval = 1 << (alt->endpoint[0].desc.bInterval - 1);
		}
	}
	if (ua->ep < 0) {
		dev_err(intf, "no isochronous OUT endpoint in alt 1");
		goto fail;
	}
	retval = -ENOMEM;
	for (i = 0; i < UAC2_URBS; i++) {
		ua->urbs[i] = usb_alloc_urb(UAC2_PACKETS, GFP_KERNEL);
		ua->bufs[i] = kmalloc(UAC2_PACKETS * UAC2_PACKET, GFP_KERNEL);
		if (!ua->urbs[i] || !ua->bufs[i])
			goto fail;
	}
	retval = usb_driver_claim_interface(uac2_drv(), ua->stream, ua);
	if (retval)
		goto fail;
	usb_set_interface(dev, ua->as_ifnum, 0);
	uac2_controls(ua);
	usb_set_intfdata(intf, ua);
	retval = usb_register_dev(intf, &uac2_class);
	if (retval) {
		usb_set_intfdata(intf, NULL);
		usb_set_intfdata(ua->stream, NULL);
		usb_driver_release_interface(uac2_drv(), ua->stream);
		goto fail;
	}
	ua->present = 1;
	dev_info(intf, "pcm%d: UAC 2.0 playback, clock %d, feature unit %d",
		 intf->minor - UAC2_MINOR_BASE, ua->clock_id, ua->fu_id);
	return 0;
fail:
	uac2_free_io(ua);
	kfree(ua);
	return retval;
}

static void uac2_disconnect(struct usb_interface *intf)
{
	struct uac2 *ua = usb_get_intfdata(intf);

	if (!ua)
		return;
	usb_set_intfdata(ua->control, NULL);
	usb_set_intfdata(ua->stream, NULL);
	uac2_stop(ua);
	usb_deregister_dev(ua->control, &uac2_class);
	if (intf == ua->control)
		usb_driver_release_interface(uac2_drv(), ua->stream);
	else
		usb_driver_release_interface(uac2_drv(), ua->control);
	uac2_free_io(ua);
	ua->present = 0;
	dev_info(ua->control, "UAC 2.0 device disconnected");
	if (!ua->open)
		kfree(ua);
}

struct usb_driver uac2_driver = {
	.owner =	THIS_MODULE,
	.name =		"snd-usb-audio",
	.probe =	uac2_probe,
	.disconnect =	uac2_disconnect,
	.id_table =	uac2_id_table,
};

static struct usb_driver *uac2_drv(void)
{
	return &uac2_driver;
}
