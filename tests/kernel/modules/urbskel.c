// SPDX-License-Identifier: GPL-2.0
/*
 * urbskel - a well-behaved USB driver in the manner of Linux's
 * drivers/usb/usb-skeleton.c, for urbscope's tests against a real kernel
 * (tests/kernel/guest-kmod.sh): the driver urbscope's rules must find
 * nothing wrong with.
 *
 * Its id table matches nothing, so it binds only where the user adds an id
 * through /sys/bus/usb/drivers/urbskel/new_id.  Probe takes the first bulk
 * IN and bulk OUT endpoints of the interface and registers a character
 * device urbskelN (class usbmisc); write() sends its bytes in one bulk OUT
 * URB, read() receives at most URBSKEL_BUF bytes in one bulk IN URB, both
 * submitted with GFP_KERNEL from process context and waited for.  On a
 * mass-storage interface a CBW written, then the data and the CSW read,
 * make one SCSI command.  A transfer that ends in a STALL (-EPIPE) has
 * its endpoint's halt cleared (usb_clear_halt) before the error goes
 * back to the caller.  Disconnect deregisters the minor, clears the
 * interface data and kills the URBs before it returns; the state lives
 * until the last open file is closed (a kref, as in usb-skeleton.c).
 */
#include <linux/completion.h>
#include <linux/kernel.h>
#include <linux/kref.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/usb.h>

#define URBSKEL_BUF		4096
#define URBSKEL_TIMEOUT		(5 * HZ)
/* without CONFIG_USB_DYNAMIC_MINORS, usb-skeleton.c's own base */
#define URBSKEL_MINOR_BASE	192

/* nothing: ids come through new_id */
static const struct usb_device_id urbskel_table[] = {
	{ }
};
MODULE_DEVICE_TABLE(usb, urbskel_table);

struct urbskel {
	struct usb_device	*udev;
	struct usb_interface	*interface;	/* NULL after disconnect */
	struct urb		*in_urb;
	struct urb		*out_urb;
	unsigned char		*in_buf;
	unsigned char		*out_buf;
	__u8			 in_ep;
	__u8			 out_ep;
	struct completion	 done;
	struct kref		 kref;
	struct mutex		 io_mutex;	/* I/O against disconnect */
};

static struct usb_driver urbskel_driver;

static void urbskel_delete(struct kref *kref)
{
	struct urbskel *dev = container_of(kref, struct urbskel, kref);

	usb_free_urb(dev->in_urb);
	usb_free_urb(dev->out_urb);
	kfree(dev->in_buf);
	kfree(dev->out_buf);
	usb_put_dev(dev->udev);
	kfree(dev);
}

static void urbskel_complete(struct urb *urb)
{
	struct urbskel *dev = urb->context;

	/* interrupt context: nothing here may sleep or submit */
	if (urb->status && urb->status != -ENOENT &&
	    urb->status != -ECONNRESET && urb->status != -ESHUTDOWN)
		dev_dbg(&dev->udev->dev, "urb status %d\n", urb->status);
	complete(&dev->done);
}

/*
 * Submit urb (filled by the caller) and wait for it; called with io_mutex
 * held, in process context.  Returns the bytes transferred or an error.
 */
static int urbskel_transfer(struct urbskel *dev, struct urb *urb)
{
	long left;
	int rv;

	reinit_completion(&dev->done);
	rv = usb_submit_urb(urb, GFP_KERNEL);
	if (rv) {
		dev_err(&dev->interface->dev, "submit failed: %d\n", rv);
		return rv;
	}
	left = wait_for_completion_interruptible_timeout(&dev->done,
							 URBSKEL_TIMEOUT);
	if (left <= 0) {
		usb_kill_urb(urb);
		return left == 0 ? -ETIMEDOUT : (int)left;
	}
	if (urb->status == -EPIPE) {
		/*
		 * A STALL halts the endpoint until the host clears it
		 * (USB 2.0 8.4.5, 9.4.5): cleared here, in process context,
		 * so the next transfer reaches the device; the caller still
		 * hears of the error.
		 */
		rv = usb_clear_halt(dev->udev, urb->pipe);
		dev_info(&dev->interface->dev, "endpoint 0x%02x stalled, "
			 "usb_clear_halt: %d\n", usb_pipeendpoint(urb->pipe) |
			 (usb_pipein(urb->pipe) ? USB_DIR_IN : 0), rv);
		return -EPIPE;
	}
	if (urb->status)
		return -EIO;
	return urb->actual_length;
}

static int urbskel_open(struct inode *inode, struct file *file)
{
	struct usb_interface *interface;
	struct urbskel *dev;

	interface = usb_find_interface(&urbskel_driver, iminor(inode));
	if (!interface)
		return -ENODEV;
	dev = usb_get_intfdata(interface);
	if (!dev)
		return -ENODEV;
	kref_get(&dev->kref);
	file->private_data = dev;
	return 0;
}

static int urbskel_release(struct inode *inode, struct file *file)
{
	struct urbskel *dev = file->private_data;

	kref_put(&dev->kref, urbskel_delete);
	return 0;
}

static ssize_t urbskel_read(struct file *file, char __user *buf, size_t count,
			    loff_t *ppos)
{
	struct urbskel *dev = file->private_data;
	size_t len = min_t(size_t, count, URBSKEL_BUF);
	int rv;

	if (len == 0)
		return 0;
	if (mutex_lock_interruptible(&dev->io_mutex))
		return -ERESTARTSYS;
	if (!dev->interface) {
		rv = -ENODEV;
		goto out_unlock;
	}
	usb_fill_bulk_urb(dev->in_urb, dev->udev,
			  usb_rcvbulkpipe(dev->udev, dev->in_ep),
			  dev->in_buf, len, urbskel_complete, dev);
	rv = urbskel_transfer(dev, dev->in_urb);
	if (rv > 0 && copy_to_user(buf, dev->in_buf, rv))
		rv = -EFAULT;
out_unlock:
	mutex_unlock(&dev->io_mutex);
	return rv;
}

static ssize_t urbskel_write(struct file *file, const char __user *buf,
			     size_t count, loff_t *ppos)
{
	struct urbskel *dev = file->private_data;
	size_t len = min_t(size_t, count, URBSKEL_BUF);
	int rv;

	if (len == 0)
		return 0;
	if (mutex_lock_interruptible(&dev->io_mutex))
		return -ERESTARTSYS;
	if (!dev->interface) {
		rv = -ENODEV;
		goto out_unlock;
	}
	if (copy_from_user(dev->out_buf, buf, len)) {
		rv = -EFAULT;
		goto out_unlock;
	}
	usb_fill_bulk_urb(dev->out_urb, dev->udev,
			  usb_sndbulkpipe(dev->udev, dev->out_ep),
			  dev->out_buf, len, urbskel_complete, dev);
	rv = urbskel_transfer(dev, dev->out_urb);
out_unlock:
	mutex_unlock(&dev->io_mutex);
	return rv;
}

static const struct file_operations urbskel_fops = {
	.owner =	THIS_MODULE,
	.read =		urbskel_read,
	.write =	urbskel_write,
	.open =		urbskel_open,
	.release =	urbskel_release,
	.llseek =	noop_llseek,
};

static struct usb_class_driver urbskel_class = {
	.name =		"urbskel%d",
	.fops =		&urbskel_fops,
	.minor_base =	URBSKEL_MINOR_BASE,
};

static int urbskel_probe(struct usb_interface *interface,
			 const struct usb_device_id *id)
{
	struct usb_endpoint_descriptor *in, *out;
	struct urbskel *dev;
	int rv;

	rv = usb_find_common_endpoints(interface->cur_altsetting, &in, &out,
				       NULL, NULL);
	if (rv) {
		dev_err(&interface->dev, "no bulk IN and OUT endpoints\n");
		return rv;
	}
	dev = kzalloc(sizeof(*dev), GFP_KERNEL);
	if (!dev)
		return -ENOMEM;
	kref_init(&dev->kref);
	mutex_init(&dev->io_mutex);
	init_completion(&dev->done);
	dev->udev = usb_get_dev(interface_to_usbdev(interface));
	dev->interface = interface;
	dev->in_ep = in->bEndpointAddress;
	dev->out_ep = out->bEndpointAddress;
	dev->in_urb = usb_alloc_urb(0, GFP_KERNEL);
	dev->out_urb = usb_alloc_urb(0, GFP_KERNEL);
	dev->in_buf = kmalloc(URBSKEL_BUF, GFP_KERNEL);
	dev->out_buf = kmalloc(URBSKEL_BUF, GFP_KERNEL);
	if (!dev->in_urb || !dev->out_urb || !dev->in_buf || !dev->out_buf) {
		rv = -ENOMEM;
		goto out_put;
	}

	usb_set_intfdata(interface, dev);
	rv = usb_register_dev(interface, &urbskel_class);
	if (rv) {
		dev_err(&interface->dev, "no minor: %d\n", rv);
		usb_set_intfdata(interface, NULL);
		goto out_put;
	}
	/* the raw pointer (%px), for the test to compare with the traced
	 * driver_data */
	dev_info(&interface->dev,
		 "probe %04x:%04x bulk in 0x%02x out 0x%02x minor %d "
		 "intfdata %px\n",
		 le16_to_cpu(dev->udev->descriptor.idVendor),
		 le16_to_cpu(dev->udev->descriptor.idProduct), dev->in_ep,
		 dev->out_ep, interface->minor, usb_get_intfdata(interface));
	return 0;

out_put:
	kref_put(&dev->kref, urbskel_delete);
	return rv;
}

static void urbskel_disconnect(struct usb_interface *interface)
{
	struct urbskel *dev = usb_get_intfdata(interface);
	int minor = interface->minor;

	usb_deregister_dev(interface, &urbskel_class);
	usb_set_intfdata(interface, NULL);

	/* no more I/O: readers and writers see ENODEV from here on */
	mutex_lock(&dev->io_mutex);
	dev->interface = NULL;
	mutex_unlock(&dev->io_mutex);
	usb_kill_urb(dev->in_urb);
	usb_kill_urb(dev->out_urb);

	kref_put(&dev->kref, urbskel_delete);
	dev_info(&interface->dev, "disconnect, minor %d freed\n", minor);
}

static struct usb_driver urbskel_driver = {
	.name =		"urbskel",
	.probe =	urbskel_probe,
	.disconnect =	urbskel_disconnect,
	.id_table =	urbskel_table,
};

module_usb_driver(urbskel_driver);

MODULE_DESCRIPTION("urbscope test driver: a well-behaved bulk driver");
MODULE_LICENSE("GPL");
