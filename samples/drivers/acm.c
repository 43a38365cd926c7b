/*
 * CDC-ACM serial driver for urbscope's simulated USB core.
 *
 * Binds to communications interfaces of the abstract control model
 * (class 2, subclass 2, protocol 1: USB CDC 1.2 4.3, PSTN 1.2), finds its
 * data interface through the union functional descriptor (CDC 5.2.3.2)
 * and claims it, as Linux's cdc-acm (drivers/usb/class/cdc-acm.c) does.
 * The requests are cdc-acm's: at probe SET_LINE_CODING 9600 8N1
 * (acm_probe); at open the notification URB, the read URB,
 * SET_CONTROL_LINE_STATE with DTR and RTS (acm_port_dtr_rts), and the
 * termios of "stty 115200" (SET_LINE_CODING, acm_tty_set_termios), read
 * back with GET_LINE_CODING; at close a break (SEND_BREAK, as
 * tcsendbreak would) and DTR and RTS dropped (hang up on close).  Writes
 * go to bulk OUT, what bulk IN brings is kept for read(), and SERIAL_STATE
 * notifications (PSTN 6.5.4) are logged ("serial state: DCD DSR").
 *
 * The node is /dev/usb/ttyACMn, minor base 166 (the major Linux gives
 * ttyACM, as a reminder; here it is a minor of the USB major).
 */

#include <string.h>
#include <sys/stat.h>

#include "decode/usbclass.h"
#include "core/usb.h"
#include "samples/drivers/drivers.h"

#define ACM_MINOR_BASE		166
#define ACM_READ_SIZE		512		/* the bulk IN URB */
#define ACM_CTRL_SIZE		16		/* the notification URB */
#define ACM_BUFSIZE		1024		/* bytes kept for read() */
#define ACM_BREAK_MS		20

/* CDC 1.2 table 12, 13 */

static struct usb_device_id acm_id_table [] = {
	{ USB_INTERFACE_INFO(2, 2, 1) },	/* CDC ACM, AT commands */
	{ }					/* Terminating entry */
};

struct acm {
	struct usb_device *	udev;
	struct usb_interface *	control;
	struct usb_interface *	data;
	int			ctrl_ifnum;
	struct urb *		ctrlurb;	/* notifications */
	struct urb *		readurb;
	unsigned char *		ctrl_buf;
	unsigned char *		read_buf;
	unsigned char		line[7];	/* PSTN table 17 */
	int			bulk_out;
	char			rx[ACM_BUFSIZE];
	size_t			nrx;
	int			open;
	int			present;
	spinlock_t		lock;		/* rx[], from irq */
};

static struct usb_driver *acm_drv(void);

/* The slave (data) interface of the union functional descriptor among
 * the interface's class descriptors (cdc_parse_cdc_header); -1 if none. */
static int acm_union_slave(struct usb_host_interface *alt)
{
	char *buf = (char *)alt->extra;
	unsigned len = (unsigned)alt->extralen;
	unsigned char *d;

	while (__usb_get_extra_descriptor(buf, len, USB_DT_CS_INTERFACE,
	    (void **)&d, 3) == 0) {
		if (d[2] == USB_CDC_UNION_TYPE && d[0] >= 5)
			return d[4];
		len -= (unsigned)((char *)d + d[0] - buf);
		buf = (char *)d + d[0];
	}
	return -1;
}

static int acm_ctrl_msg(struct acm *acm, int request, int value, void *buf,
			int len)
{
	int in = request == USB_CDC_REQ_GET_LINE_CODING;

	return usb_control_msg(acm->udev, in ? usb_rcvctrlpipe(acm->udev, 0) :
	    usb_sndctrlpipe(acm->udev, 0), (u8)request,
	    (in ? USB_DIR_IN : USB_DIR_OUT) | USB_TYPE_CLASS |
	    USB_RECIP_INTERFACE, (u16)value, (u16)acm->ctrl_ifnum, buf,
	    (u16)len, USB_CTRL_SET_TIMEOUT);
}

static int acm_set_line(struct acm *acm, unsigned int rate)
{
	acm->line[0] = (unsigned char)rate;
	acm->line[1] = (unsigned char)(rate >> 8);
	acm->line[2] = (unsigned char)(rate >> 16);
	acm->line[3] = (unsigned char)(rate >> 24);
	acm->line[4] = 0;		/* 1 stop bit */
	acm->line[5] = 0;		/* no parity */
	acm->line[6] = 8;
	return acm_ctrl_msg(acm, USB_CDC_REQ_SET_LINE_CODING, 0, acm->line, 7);
}

/* A completion's status: 1 data came, 0 an error (resubmit), -1 the URB
 * was killed or the device is gone (do not). */
static int acm_urb_status(struct urb *urb)
{
	switch (urb->status) {
	case 0:
		return 1;
	case -ECONNRESET:
	case -ENOENT:
	case -ESHUTDOWN:
		return -1;
	}
	return 0;
}

static void acm_ctrl_irq(struct urb *urb)
{
	struct acm *acm = urb->context;
	unsigned char *b = acm->ctrl_buf;
	int retval, st;

	if ((st = acm_urb_status(urb)) < 0)
		return;
	if (st == 0)
		goto resubmit;
	if (urb->actual_length >= 10 && b[1] == USB_CDC_NOTIFY_SERIAL_STATE)
		dev_info(acm->control, "serial state:%s%s%s%s",
		    (b[8] & 0x01) ? " DCD" : "", (b[8] & 0x02) ? " DSR" : "",
		    (b[8] & 0x04) ? " break" : "", (b[8] & 0x07) ? "" : " none");
	else
		dev_warn(acm->control, "notification 0x%02x, %u bytes",
		    urb->actual_length > 1 ? b[1] : 0, urb->actual_length);
resubmit:
	retval = usb_submit_urb(urb, GFP_ATOMIC);
	if (retval)
		dev_err(acm->control, "%s - usb_submit_urb failed: %d",
		    __func__, retval);
}

static void acm_read_bulk(struct urb *urb)
{
	struct acm *acm = urb->context;
	unsigned long flags;
	size_t n;
	int retval, st;

	if ((st = acm_urb_status(urb)) < 0)
		return;
	if (st == 0)
		goto resubmit;
	spin_lock_irqsave(&acm->lock, flags);
	n = urb->actual_length;
	if (n > sizeof acm->rx - acm->nrx)
		n = sizeof acm->rx - acm->nrx;
	memcpy(acm->rx + acm->nrx, acm->read_buf, n);
	acm->nrx += n;
	spin_unlock_irqrestore(&acm->lock, flags);
resubmit:
	retval = usb_submit_urb(urb, GFP_ATOMIC);
	if (retval)
		dev_err(acm->control, "%s - usb_submit_urb failed: %d",
		    __func__, retval);
}

static void acm_free(struct acm *acm)
{
	usb_free_urb(acm->ctrlurb);
	usb_free_urb(acm->readurb);
	kfree(acm->ctrl_buf);
	kfree(acm->read_buf);
	kfree(acm);
}

static int acm_open(struct inode *inode, struct file *file)
{
	struct usb_interface *interface;
	struct acm *acm;
	int retval;

	interface = usb_find_interface(acm_drv(), iminor(inode));
	if (!interface)
		return -ENODEV;
	acm = usb_get_intfdata(interface);
	if (!acm || !acm->present)
		return -ENODEV;
	if (acm->open)
		return -EBUSY;
	retval = usb_submit_urb(acm->ctrlurb, GFP_KERNEL);
	if (retval)
		return retval;
	retval = usb_submit_urb(acm->readurb, GFP_KERNEL);
	if (retval)
		goto fail;
	retval = acm_ctrl_msg(acm, USB_CDC_REQ_SET_CONTROL_LINE_STATE,
	    USB_CDC_CTRL_DTR | USB_CDC_CTRL_RTS, NULL, 0);
	if (retval < 0)
		goto fail;
	retval = acm_set_line(acm, 115200);
	if (retval < 0)
		goto fail;
	retval = acm_ctrl_msg(acm, USB_CDC_REQ_GET_LINE_CODING, 0, acm->line,
	    7);
	if (retval == 7)
		dev_info(acm->control, "line coding %u %u%c%u",
		    acm->line[0] | acm->line[1] << 8 | acm->line[2] << 16 |
		    (unsigned)acm->line[3] << 24, acm->line[6],
		    "NOEMS"[acm->line[5] < 5 ? acm->line[5] : 0],
		    acm->line[4] == 0 ? 1 : 2);
	acm->open = 1;
	file->private_data = acm;
	return 0;
fail:
	usb_kill_urb(acm->readurb);
	usb_kill_urb(acm->ctrlurb);
	return retval < 0 ? retval : -EIO;
}

static int acm_release(struct inode *inode, struct file *file)
{
	struct acm *acm = file->private_data;

	(void)inode;
	if (acm == NULL)
		return -ENODEV;
	acm->open = 0;
	if (acm->present) {
		acm_ctrl_msg(acm, USB_CDC_REQ_SEND_BREAK, ACM_BREAK_MS, NULL,
		    0);
		msleep(2 * ACM_BREAK_MS);	/* the break's notification */
		acm_ctrl_msg(acm, USB_CDC_REQ_SET_CONTROL_LINE_STATE, 0, NULL,
		    0);
		msleep(2 * ACM_BREAK_MS);
		usb_kill_urb(acm->readurb);
		usb_kill_urb(acm->ctrlurb);
	} else
		acm_free(acm);
	return 0;
}

static ssize_t acm_read(struct file *file, char *buffer, size_t count,
			loff_t *ppos)
{
	struct acm *acm = file->private_data;
	unsigned long flags;
	char tmp[ACM_BUFSIZE];
	size_t n;

	(void)ppos;
	spin_lock_irqsave(&acm->lock, flags);
	n = count < acm->nrx ? count : acm->nrx;
	memcpy(tmp, acm->rx, n);
	memmove(acm->rx, acm->rx + n, acm->nrx - n);
	acm->nrx -= n;
	spin_unlock_irqrestore(&acm->lock, flags);
	if (copy_to_user(buffer, tmp, (unsigned long)n))
		return -EFAULT;
	return (ssize_t)n;
}

static ssize_t acm_write(struct file *file, const char *buffer, size_t count,
			 loff_t *ppos)
{
	struct acm *acm = file->private_data;
	char tmp[ACM_READ_SIZE];
	int retval, n;

	(void)ppos;
	if (!acm->present)
		return -ENODEV;
	if (count > sizeof tmp)
		count = sizeof tmp;
	if (copy_from_user(tmp, buffer, (unsigned long)count))
		return -EFAULT;
	retval = usb_bulk_msg(acm->udev, usb_sndbulkpipe(acm->udev,
	    acm->bulk_out), tmp, (int)count, &n, 5000);
	return retval < 0 ? retval : n;
}

static struct file_operations acm_fops = {
	.owner =	THIS_MODULE,
	.open =		acm_open,
	.release =	acm_release,
	.read =		acm_read,
	.write =	acm_write,
};

static struct usb_class_driver acm_class = {
	.name =		"usb/ttyACM%d",
	.fops =		&acm_fops,
	.mode =		S_IFCHR | S_IRUSR | S_IWUSR,
	.minor_base =	ACM_MINOR_BASE,
};

static int acm_probe(struct usb_interface *intf,
		     const struct usb_device_id *id)
{
	struct usb_device *dev = interface_to_usbdev(intf);
	struct usb_host_interface *c = intf->cur_altsetting, *d;
	struct usb_endpoint_descriptor *ep, *epctrl = NULL, *epread = NULL;
	struct usb_interface *data;
	struct acm *acm;
	int i, slave, retval;

	(void)id;
	slave = acm_union_slave(c);
	data = NULL;
	for (i = 0; slave >= 0 && i < dev->actconfig->desc.bNumInterfaces;
	    i++) {
		if (dev->actconfig->interface[i] != NULL && dev->actconfig->
		    interface[i]->altsetting[0].desc.bInterfaceNumber == slave)
			data = dev->actconfig->interface[i];
	}
	if (data == NULL) {
		dev_err(intf, "no union descriptor, no data interface");
		return -ENODEV;
	}
	d = data->cur_altsetting;
	for (i = 0; i < c->desc.bNumEndpoints; i++) {
		ep = &c->endpoint[i].desc;
		if ((ep->bEndpointAddress & USB_DIR_IN) &&
		    (ep->bmAttributes & 3) == USB_ENDPOINT_XFER_INT)
			epctrl = ep;
	}
	acm = kzalloc(sizeof *acm, GFP_KERNEL);
	if (!acm)
		return -ENOMEM;
	acm->bulk_out = -1;
	for (i = 0; i < d->desc.bNumEndpoints; i++) {
		ep = &d->endpoint[i].desc;
		if ((ep->bmAttributes & 3) != USB_ENDPOINT_XFER_BULK)
			continue;
		if (ep->bEndpointAddress & USB_DIR_IN)
			epread = ep;
		else
			acm->bulk_out = ep->bEndpointAddress;
	}
	if (!epctrl || !epread || acm->bulk_out < 0) {
		dev_err(intf, "missing endpoints");
		kfree(acm);
		return -ENODEV;
	}
	acm->udev = dev;
	acm->control = intf;
	acm->data = data;
	acm->ctrl_ifnum = c->desc.bInterfaceNumber;
	spin_lock_init(&acm->lock);
	acm->ctrlurb = usb_alloc_urb(0, GFP_KERNEL);
	acm->readurb = usb_alloc_urb(0, GFP_KERNEL);
	acm->ctrl_buf = kmalloc(ACM_CTRL_SIZE, GFP_KERNEL);
	acm->read_buf = kmalloc(ACM_READ_SIZE, GFP_KERNEL);
	if (!acm->ctrlurb || !acm->readurb || !acm->ctrl_buf ||
	    !acm->read_buf) {
		retval = -ENOMEM;
		goto fail;
	}
	usb_fill_int_urb(acm->ctrlurb, dev,
			 usb_rcvintpipe(dev, epctrl->bEndpointAddress),
			 acm->ctrl_buf, ACM_CTRL_SIZE, acm_ctrl_irq, acm,
			 epctrl->bInterval);
	usb_fill_bulk_urb(acm->readurb, dev,
			  usb_rcvbulkpipe(dev, epread->bEndpointAddress),
			  acm->read_buf, ACM_READ_SIZE, acm_read_bulk, acm);

	retval = usb_driver_claim_interface(acm_drv(), data, acm);
	if (retval) {
		dev_err(intf, "data interface %d is taken", slave);
		goto fail;
	}
	/* acm_probe: 9600 8N1 until the tty says otherwise */
	retval = acm_set_line(acm, 9600);
	if (retval < 0)
		dev_warn(intf, "SET_LINE_CODING failed: %d", retval);
	usb_set_intfdata(intf, acm);
	retval = usb_register_dev(intf, &acm_class);
	if (retval) {
		dev_err(intf, "Not able to get a minor for this device.");
		usb_set_intfdata(intf, NULL);
		usb_set_intfdata(data, NULL);
		usb_driver_release_interface(acm_drv(), data);
		goto fail;
	}
	acm->present = 1;
	dev_info(intf, "ttyACM%d: USB ACM device",
		 intf->minor - ACM_MINOR_BASE);
	return 0;
fail:
	acm_free(acm);
	return retval;
}

static void acm_disconnect(struct usb_interface *intf)
{
	struct acm *acm = usb_get_intfdata(intf);
	int minor;

	if (!acm)
		return;
	minor = acm->control->minor;
	/* both interfaces come here; the control one does the work */
	usb_set_intfdata(acm->control, NULL);
	usb_set_intfdata(acm->data, NULL);
	usb_kill_urb(acm->ctrlurb);
	usb_kill_urb(acm->readurb);
	usb_deregister_dev(acm->control, &acm_class);
	if (intf == acm->control)
		usb_driver_release_interface(acm_drv(), acm->data);
	else
		usb_driver_release_interface(acm_drv(), acm->control);
	acm->present = 0;
	dev_info(acm->control, "ttyACM%d disconnected",
		 minor - ACM_MINOR_BASE);
	if (!acm->open)
		acm_free(acm);
}

struct usb_driver acm_driver = {
	.owner =	THIS_MODULE,
	.name =		"cdc_acm",
	.probe =	acm_probe,
	.disconnect =	acm_disconnect,
	.id_table =	acm_id_table,
};

static struct usb_driver *acm_drv(void)
{
	return &acm_driver;
}
