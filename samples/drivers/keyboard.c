/*
 * HID boot keyboard driver for urbscope's simulated USB core.
 *
 * Binds to any boot-protocol keyboard interface (class 3, subclass 1,
 * protocol 1), puts it in the boot protocol with no idle repeat (HID 1.11
 * 7.2.4, 7.2.6), and polls its interrupt IN endpoint with one URB that
 * the completion handler resubmits.  Key presses and releases are decoded
 * from the 8-byte boot report (HID 1.11 appendix B.1) and logged
 * ("key down: h"); the typed characters can also be read from
 * /dev/usb/kbdN.  Modelled on drivers/usb/input/usbkbd.c of 2.6.0, minus
 * the input layer (there is none here).
 *
 * Minor base 96: the range 2.6.0's hiddev used (HIDDEV_MINOR_BASE), the
 * USB major's slot for HID class nodes; the skeleton has 192.
 */

#include <string.h>
#include <sys/stat.h>

#include "decode/usbclass.h"
#include "core/usb.h"
#include "samples/drivers/drivers.h"

#define USB_KBD_MINOR_BASE	96
#define USB_KBD_REPORT		8		/* boot report size */
#define USB_KBD_BUFSIZE		64		/* characters kept for read() */

#define KBD_MOD_SHIFT		0x22		/* left or right shift */

static struct usb_device_id usb_kbd_id_table [] = {
	{ USB_INTERFACE_INFO(3, 1, 1) },	/* HID, boot, keyboard */
	{ }					/* Terminating entry */
};

struct usb_kbd {
	struct usb_device *	udev;
	struct usb_interface *	interface;
	int			minor;
	struct urb *		irq;		/* the interrupt IN urb */
	unsigned char *		new;		/* the report just received */
	dma_addr_t		new_dma;
	unsigned char		old[USB_KBD_REPORT];	/* the one before */
	char			typed[USB_KBD_BUFSIZE];	/* for read() */
	size_t			ntyped;
	int			open;
	int			present;	/* not disconnected yet */
	spinlock_t		lock;		/* typed[], from irq */
};

/*
 * HID Usage Tables 10 (keyboard page) to names: usages 0x04-0x38, with
 * the shifted character second.
 */
static const char *const usb_kbd_names[][2] = {
	[0x04] = { "a", "A" }, [0x05] = { "b", "B" }, [0x06] = { "c", "C" },
	[0x07] = { "d", "D" }, [0x08] = { "e", "E" }, [0x09] = { "f", "F" },
	[0x0a] = { "g", "G" }, [0x0b] = { "h", "H" }, [0x0c] = { "i", "I" },
	[0x0d] = { "j", "J" }, [0x0e] = { "k", "K" }, [0x0f] = { "l", "L" },
	[0x10] = { "m", "M" }, [0x11] = { "n", "N" }, [0x12] = { "o", "O" },
	[0x13] = { "p", "P" }, [0x14] = { "q", "Q" }, [0x15] = { "r", "R" },
	[0x16] = { "s", "S" }, [0x17] = { "t", "T" }, [0x18] = { "u", "U" },
	[0x19] = { "v", "V" }, [0x1a] = { "w", "W" }, [0x1b] = { "x", "X" },
	[0x1c] = { "y", "Y" }, [0x1d] = { "z", "Z" },
	[0x1e] = { "1", "!" }, [0x1f] = { "2", "@" }, [0x20] = { "3", "#" },
	[0x21] = { "4", "$" }, [0x22] = { "5", "%" }, [0x23] = { "6", "^" },
	[0x24] = { "7", "&" }, [0x25] = { "8", "*" }, [0x26] = { "9", "(" },
	[0x27] = { "0", ")" },
	[0x28] = { "enter", "enter" }, [0x29] = { "esc", "esc" },
	[0x2a] = { "backspace", "backspace" }, [0x2b] = { "tab", "tab" },
	[0x2c] = { "space", "space" }, [0x2d] = { "-", "_" },
	[0x2e] = { "=", "+" }, [0x2f] = { "[", "{" }, [0x30] = { "]", "}" },
	[0x31] = { "\\", "|" }, [0x33] = { ";", ":" }, [0x34] = { "'", "\"" },
	[0x35] = { "`", "~" }, [0x36] = { ",", "<" }, [0x37] = { ".", ">" },
	[0x38] = { "/", "?" },
};

static const char *usb_kbd_name(unsigned char usage, int shift)
{
	if (usage < sizeof usb_kbd_names / sizeof usb_kbd_names[0] &&
	    usb_kbd_names[usage][0] != NULL)
		return usb_kbd_names[usage][shift ? 1 : 0];
	return NULL;
}

/* The character a key stands for in read()'s text, or 0. */
static char usb_kbd_char(unsigned char usage, int shift)
{
	const char *name = usb_kbd_name(usage, shift);

	if (usage == 0x28)
		return '\n';
	if (usage == 0x2b)
		return '\t';
	if (usage == 0x2c)
		return ' ';
	if (name == NULL || name[1] != '\0')
		return 0;
	return name[0];
}

static int usb_kbd_has(const unsigned char *report, unsigned char usage)
{
	int i;

	for (i = 2; i < USB_KBD_REPORT; i++)
		if (report[i] == usage)
			return 1;
	return 0;
}

/* Compare the new report with the old one, as usbkbd.c's usb_kbd_irq. */
static void usb_kbd_report(struct usb_kbd *kbd)
{
	int shift = (kbd->new[0] & KBD_MOD_SHIFT) != 0;
	const char *name;
	unsigned long flags;
	char c;
	int i;

	for (i = 2; i < USB_KBD_REPORT; i++) {
		if (kbd->old[i] > 3 && !usb_kbd_has(kbd->new, kbd->old[i])) {
			name = usb_kbd_name(kbd->old[i], shift);
			if (name)
				dev_info(kbd->interface, "key up: %s", name);
			else
				dev_info(kbd->interface,
				    "key up: unknown usage 0x%02x", kbd->old[i]);
		}
		if (kbd->new[i] > 3 && !usb_kbd_has(kbd->old, kbd->new[i])) {
			name = usb_kbd_name(kbd->new[i], shift);
			if (name)
				dev_info(kbd->interface, "key down: %s", name);
			else
				dev_info(kbd->interface,
				    "key down: unknown usage 0x%02x", kbd->new[i]);
			c = usb_kbd_char(kbd->new[i], shift);
			spin_lock_irqsave(&kbd->lock, flags);
			if (c && kbd->ntyped < sizeof kbd->typed)
				kbd->typed[kbd->ntyped++] = c;
			spin_unlock_irqrestore(&kbd->lock, flags);
		}
	}
	memcpy(kbd->old, kbd->new, USB_KBD_REPORT);
}

static void usb_kbd_irq(struct urb *urb)
{
	struct usb_kbd *kbd = urb->context;
	int retval;

	switch (urb->status) {
	case 0:			/* success */
		break;
	case -ECONNRESET:	/* unlink */
	case -ENOENT:		/* killed */
	case -ESHUTDOWN:	/* device or controller gone */
		return;		/* not resubmitted */
	default:		/* error: try again */
		dev_warn(kbd->interface, "%s - nonzero urb status received: %d",
		    __func__, urb->status);
		goto resubmit;
	}

	if (urb->actual_length >= USB_KBD_REPORT)
		usb_kbd_report(kbd);

resubmit:
	/* interrupt context: GFP_ATOMIC */
	retval = usb_submit_urb(urb, GFP_ATOMIC);
	if (retval)
		dev_err(kbd->interface, "%s - usb_submit_urb failed with result %d",
		    __func__, retval);
}

static void usb_kbd_free(struct usb_kbd *kbd);

static int usb_kbd_open(struct inode *inode, struct file *file)
{
	struct usb_interface *interface;
	struct usb_kbd *kbd;

	interface = usb_find_interface(&kbd_driver, iminor(inode));
	if (!interface)
		return -ENODEV;
	kbd = usb_get_intfdata(interface);
	if (!kbd)
		return -ENODEV;
	kbd->open++;
	file->private_data = kbd;
	return 0;
}

static int usb_kbd_release(struct inode *inode, struct file *file)
{
	struct usb_kbd *kbd = file->private_data;

	(void)inode;
	if (kbd == NULL)
		return -ENODEV;
	/* the last close after an unplug frees what disconnect left */
	if (--kbd->open == 0 && !kbd->present)
		usb_kbd_free(kbd);
	return 0;
}

/* The characters typed so far (and not read yet); 0 when none. */
static ssize_t usb_kbd_read(struct file *file, char *buffer, size_t count,
			    loff_t *ppos)
{
	struct usb_kbd *kbd = file->private_data;
	unsigned long flags;
	char tmp[USB_KBD_BUFSIZE];
	size_t n;

	(void)ppos;
	spin_lock_irqsave(&kbd->lock, flags);
	n = count < kbd->ntyped ? count : kbd->ntyped;
	memcpy(tmp, kbd->typed, n);
	memmove(kbd->typed, kbd->typed + n, kbd->ntyped - n);
	kbd->ntyped -= n;
	spin_unlock_irqrestore(&kbd->lock, flags);

	if (copy_to_user(buffer, tmp, (unsigned long)n))
		return -EFAULT;
	return (ssize_t)n;
}

static struct file_operations usb_kbd_fops = {
	.owner =	THIS_MODULE,
	.open =		usb_kbd_open,
	.release =	usb_kbd_release,
	.read =		usb_kbd_read,
};

static struct usb_class_driver usb_kbd_class = {
	.name =		"usb/kbd%d",
	.fops =		&usb_kbd_fops,
	.mode =		S_IFCHR | S_IRUSR | S_IRGRP,
	.minor_base =	USB_KBD_MINOR_BASE,
};

/* The URB and its DMA buffer belong with the device: freed at disconnect. */
static void usb_kbd_free_io(struct usb_kbd *kbd)
{
	if (kbd->irq)
		usb_free_urb(kbd->irq);
	kbd->irq = NULL;
	if (kbd->new)
		usb_buffer_free(kbd->udev, USB_KBD_REPORT, kbd->new,
				kbd->new_dma);
	kbd->new = NULL;
}

static void usb_kbd_free(struct usb_kbd *kbd)
{
	usb_kbd_free_io(kbd);
	kfree(kbd);
}

static int usb_kbd_probe(struct usb_interface *iface,
			 const struct usb_device_id *id)
{
	struct usb_device *dev = interface_to_usbdev(iface);
	struct usb_host_interface *interface;
	struct usb_endpoint_descriptor *endpoint = NULL;
	struct usb_kbd *kbd;
	unsigned int pipe;
	int i, maxp, retval;
	int ifnum;

	(void)id;
	interface = iface->cur_altsetting;
	ifnum = interface->desc.bInterfaceNumber;

	/* the first interrupt IN endpoint */
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

	pipe = usb_rcvintpipe(dev, endpoint->bEndpointAddress);
	maxp = usb_maxpacket(dev, pipe);

	kbd = kzalloc(sizeof(struct usb_kbd), GFP_KERNEL);
	if (!kbd)
		return -ENOMEM;
	kbd->udev = dev;
	kbd->interface = iface;
	kbd->minor = -1;
	spin_lock_init(&kbd->lock);

	/* HID 1.11 7.2.4: no repeats, reports only when something changes */
	retval = usb_control_msg(dev, usb_sndctrlpipe(dev, 0),
				 HID_REQ_SET_IDLE,
				 USB_TYPE_CLASS | USB_RECIP_INTERFACE,
				 0, (u16)ifnum, NULL, 0, USB_CTRL_SET_TIMEOUT);
	if (retval < 0)
		dev_warn(iface, "SET_IDLE failed: %d", retval);

	/* HID 1.11 7.2.6: the boot protocol, the report layout we decode */
	retval = usb_control_msg(dev, usb_sndctrlpipe(dev, 0),
				 HID_REQ_SET_PROTOCOL,
				 USB_TYPE_CLASS | USB_RECIP_INTERFACE,
				 0, (u16)ifnum, NULL, 0, USB_CTRL_SET_TIMEOUT);
	if (retval < 0) {
		dev_err(iface, "SET_PROTOCOL(boot) failed: %d", retval);
		goto fail;
	}

	kbd->irq = usb_alloc_urb(0, GFP_KERNEL);
	if (!kbd->irq) {
		retval = -ENOMEM;
		goto fail;
	}
	kbd->new = usb_buffer_alloc(dev, USB_KBD_REPORT, GFP_KERNEL,
				    &kbd->new_dma);
	if (!kbd->new) {
		retval = -ENOMEM;
		goto fail;
	}

	usb_fill_int_urb(kbd->irq, dev, pipe, kbd->new,
			 (maxp > USB_KBD_REPORT ? USB_KBD_REPORT : maxp),
			 usb_kbd_irq, kbd, endpoint->bInterval);
	kbd->irq->transfer_dma = kbd->new_dma;
	kbd->irq->transfer_flags |= URB_NO_TRANSFER_DMA_MAP;

	usb_set_intfdata(iface, kbd);
	retval = usb_register_dev(iface, &usb_kbd_class);
	if (retval) {
		dev_err(iface, "Not able to get a minor for this device.");
		usb_set_intfdata(iface, NULL);
		goto fail;
	}
	kbd->minor = iface->minor;
	kbd->present = 1;

	/* probe may sleep: GFP_KERNEL */
	retval = usb_submit_urb(kbd->irq, GFP_KERNEL);
	if (retval) {
		dev_err(iface, "usb_submit_urb failed: %d", retval);
		usb_deregister_dev(iface, &usb_kbd_class);
		usb_set_intfdata(iface, NULL);
		goto fail;
	}

	dev_info(iface, "USB HID boot keyboard now attached to kbd%d",
		 kbd->minor - USB_KBD_MINOR_BASE);
	return 0;

fail:
	usb_kbd_free(kbd);
	return retval;
}

static void usb_kbd_disconnect(struct usb_interface *intf)
{
	struct usb_kbd *kbd = usb_get_intfdata(intf);

	usb_set_intfdata(intf, NULL);
	if (!kbd)
		return;
	usb_kill_urb(kbd->irq);
	usb_deregister_dev(intf, &usb_kbd_class);
	usb_kbd_free_io(kbd);
	kbd->present = 0;
	dev_info(intf, "USB HID boot keyboard kbd%d now disconnected",
		 kbd->minor - USB_KBD_MINOR_BASE);
	if (!kbd->open)
		usb_kbd_free(kbd);
}

struct usb_driver kbd_driver = {
	.owner =	THIS_MODULE,
	.name =		"usbkbd",
	.probe =	usb_kbd_probe,
	.disconnect =	usb_kbd_disconnect,
	.id_table =	usb_kbd_id_table,
};
