/*
 * A deliberately buggy driver for the loopback device (fff0:fff0).
 *
 * It makes, on purpose, the classic mistakes of 2.5/2.6 USB drivers, so
 * that urbscope's rule checks have something to catch.  Every mistake is
 * marked "BUG:" with the rule it breaks.  Load it before usb-skeleton and
 * it binds the loopback instead (the core offers an interface to drivers
 * in the order they were registered).
 *
 * The mistakes are kept memory-safe for the simulator: disconnect does
 * not free the driver state, the late completion that still uses it does,
 * with the URB, when its resubmission finally fails (so a file held open
 * across an unplug would still see freed memory - do not do that, and do
 * not copy this driver).
 */

#include <string.h>
#include <sys/stat.h>

#include "core/usb.h"
#include "samples/drivers/drivers.h"

#define BUGGY_VENDOR_ID		0xfff0
#define BUGGY_PRODUCT_ID	0xfff0
#define BUGGY_MINOR_BASE	200
#define BUGGY_BUFSIZE		512
#define BUGGY_RETRIES		3	/* resubmits after errors, at most */

static struct usb_device_id buggy_table [] = {
	{ USB_DEVICE(BUGGY_VENDOR_ID, BUGGY_PRODUCT_ID) },
	{ USB_INTERFACE_INFO(3, 1, 1) },	/* "maybe later": see probe */
	{ }
};

struct buggy {
	struct usb_device *	udev;
	struct usb_interface *	interface;
	__u8			in_ep, out_ep;
	struct urb *		read_urb;	/* always in flight */
	unsigned char *		read_buf;
	unsigned char		last[BUGGY_BUFSIZE];	/* what read() returns */
	size_t			nlast;
	int			errors;
	spinlock_t		lock;
};

static int buggy_open(struct inode *inode, struct file *file)
{
	struct usb_interface *interface;

	interface = usb_find_interface(&buggy_driver, iminor(inode));
	if (!interface)
		return -ENODEV;
	file->private_data = usb_get_intfdata(interface);
	if (!file->private_data)
		return -ENODEV;
	return 0;
}

static int buggy_release(struct inode *inode, struct file *file)
{
	struct buggy *dev = file->private_data;

	(void)inode;
	/*
	 * BUG (spin-unlock-unlocked): "make sure the lock is free when the
	 * file goes" - unlocking a spinlock nobody holds corrupts it.
	 */
	spin_unlock(&dev->lock);
	return 0;
}

/* Takes dev->lock itself. */
static size_t buggy_pending(struct buggy *dev)
{
	unsigned long flags;
	size_t n;

	spin_lock_irqsave(&dev->lock, flags);
	n = dev->nlast;
	spin_unlock_irqrestore(&dev->lock, flags);
	return n;
}

static ssize_t buggy_read(struct file *file, char *buffer, size_t count,
			  loff_t *ppos)
{
	struct buggy *dev = file->private_data;
	unsigned long flags;
	size_t n;

	(void)ppos;
	spin_lock_irqsave(&dev->lock, flags);
	/*
	 * BUG (spin-lock-recursion): buggy_pending() takes dev->lock, which
	 * we hold; spinlocks do not nest - on a real machine this spins
	 * for ever.
	 */
	n = buggy_pending(dev);
	if (n > count)
		n = count;
	spin_unlock_irqrestore(&dev->lock, flags);
	if (copy_to_user(buffer, dev->last, (unsigned long)n))
		return -EFAULT;
	dev->nlast = 0;
	return (ssize_t)n;
}

static void buggy_write_callback(struct urb *urb)
{
	/*
	 * BUG (sleep-in-atomic): completion handlers run in interrupt
	 * context and must never sleep; "give the device time" with
	 * msleep() here is a scheduling-while-atomic oops in the kernel.
	 */
	msleep(1);
	usb_buffer_free(urb->dev, BUGGY_BUFSIZE, urb->transfer_buffer,
			urb->transfer_dma);
	usb_free_urb(urb);
}

static ssize_t buggy_write(struct file *file, const char *buffer,
			   size_t count, loff_t *ppos)
{
	struct buggy *dev = file->private_data;
	unsigned long flags;
	struct urb *urb;
	void *buf;
	int retval;

	(void)ppos;
	if (count > BUGGY_BUFSIZE)
		count = BUGGY_BUFSIZE;
	urb = usb_alloc_urb(0, GFP_KERNEL);
	if (!urb)
		return -ENOMEM;
	buf = usb_buffer_alloc(dev->udev, BUGGY_BUFSIZE, GFP_KERNEL,
			       &urb->transfer_dma);
	if (!buf) {
		usb_free_urb(urb);
		return -ENOMEM;
	}
	if (copy_from_user(buf, buffer, (unsigned long)count)) {
		usb_buffer_free(dev->udev, BUGGY_BUFSIZE, buf,
				urb->transfer_dma);
		usb_free_urb(urb);
		return -EFAULT;
	}
	usb_fill_bulk_urb(urb, dev->udev,
			  usb_sndbulkpipe(dev->udev, dev->out_ep),
			  buf, (int)count, buggy_write_callback, dev);
	urb->transfer_flags |= URB_NO_TRANSFER_DMA_MAP;

	spin_lock_irqsave(&dev->lock, flags);
	/*
	 * BUG (GFP_KERNEL in atomic context): a spinlock is held, so the
	 * submission must not sleep; it has to be GFP_ATOMIC (case (b) of
	 * the mem_flags rules in usb_submit_urb's comment, Linux's
	 * drivers/usb/core/urb.c).
	 */
	retval = usb_submit_urb(urb, GFP_KERNEL);
	spin_unlock_irqrestore(&dev->lock, flags);
	if (retval) {
		usb_buffer_free(dev->udev, BUGGY_BUFSIZE, buf,
				urb->transfer_dma);
		usb_free_urb(urb);
		return retval;
	}
	return (ssize_t)count;
}

static struct file_operations buggy_fops = {
	.owner =	THIS_MODULE,
	.open =		buggy_open,
	.release =	buggy_release,
	.read =		buggy_read,
	.write =	buggy_write,
};

static struct usb_class_driver buggy_class = {
	.name =		"usb/buggy%d",
	.fops =		&buggy_fops,
	.mode =		S_IFCHR | S_IRUSR | S_IWUSR,
	.minor_base =	BUGGY_MINOR_BASE,
};

static void buggy_read_callback(struct urb *urb)
{
	struct buggy *dev = urb->context;
	unsigned char *copy;
	int retval;

	/*
	 * BUG (intfdata read after disconnect): the interface may be gone
	 * already - this completion can run after disconnect() returned,
	 * because disconnect never killed the URB.
	 */
	if (usb_get_intfdata(dev->interface) != dev)
		dev_warn(dev->interface, "%s - intfdata changed under us",
			 __func__);

	if (urb->status == 0) {
		/*
		 * BUG (GFP_KERNEL in a completion handler): interrupt
		 * context may not sleep; kmalloc needs GFP_ATOMIC here.
		 */
		copy = kmalloc(urb->actual_length + 1, GFP_KERNEL);
		if (copy) {
			memcpy(copy, urb->transfer_buffer, urb->actual_length);
			memcpy(dev->last, copy, urb->actual_length);
			dev->nlast = urb->actual_length;
			kfree(copy);
		}
	} else {
		/*
		 * BUG (resubmit on -ESHUTDOWN / -ENOENT / -ECONNRESET): the
		 * device is gone or the URB was killed; a driver must stop
		 * here.  This one retries a few times regardless.
		 */
		if (++dev->errors > BUGGY_RETRIES)
			goto give_up;
	}

	/*
	 * BUG (GFP_KERNEL in a completion handler): resubmission from a
	 * completion must use GFP_ATOMIC (case (a) of usb_submit_urb's
	 * mem_flags rules).
	 */
	retval = usb_submit_urb(urb, GFP_KERNEL);
	if (retval == 0)
		return;
give_up:
	usb_buffer_free(urb->dev, BUGGY_BUFSIZE, dev->read_buf,
			urb->transfer_dma);
	dev->read_buf = NULL;
	dev->read_urb = NULL;
	usb_free_urb(urb);
	kfree(dev);
}

static int buggy_probe(struct usb_interface *interface,
		       const struct usb_device_id *id)
{
	struct usb_device *udev = interface_to_usbdev(interface);
	struct usb_host_interface *iface_desc = interface->cur_altsetting;
	struct usb_endpoint_descriptor *endpoint;
	struct buggy *dev;
	int i, retval;

	if (id->match_flags & USB_DEVICE_ID_MATCH_INT_CLASS) {
		/*
		 * BUG (probe-error-leftovers): a keyboard matched the table,
		 * the driver stores its state, then decides it does not want
		 * the device after all - and fails without clearing the
		 * intfdata it set (2.6.0's core did not clear it either):
		 * it now points at freed memory.
		 */
		dev = kzalloc(sizeof(*dev), GFP_KERNEL);
		usb_set_intfdata(interface, dev);
		kfree(dev);
		return -ENODEV;
	}
	dev = kzalloc(sizeof(*dev), GFP_KERNEL);
	if (!dev)
		return -ENOMEM;
	dev->udev = udev;
	dev->interface = interface;
	spin_lock_init(&dev->lock);

	for (i = 0; i < iface_desc->desc.bNumEndpoints; i++) {
		endpoint = &iface_desc->endpoint[i].desc;
		if ((endpoint->bmAttributes & USB_ENDPOINT_XFERTYPE_MASK) !=
		    USB_ENDPOINT_XFER_BULK)
			continue;
		if (endpoint->bEndpointAddress & USB_DIR_IN)
			dev->in_ep = endpoint->bEndpointAddress;
		else
			dev->out_ep = endpoint->bEndpointAddress;
	}
	retval = -ENODEV;
	if (!dev->in_ep || !dev->out_ep)
		goto error_free;

	retval = -ENOMEM;
	dev->read_urb = usb_alloc_urb(0, GFP_KERNEL);
	if (!dev->read_urb)
		goto error_free;
	dev->read_buf = usb_buffer_alloc(udev, BUGGY_BUFSIZE, GFP_KERNEL,
					 &dev->read_urb->transfer_dma);
	if (!dev->read_buf) {
		usb_free_urb(dev->read_urb);
		goto error_free;
	}
	usb_fill_bulk_urb(dev->read_urb, udev,
			  usb_rcvbulkpipe(udev, dev->in_ep), dev->read_buf,
			  BUGGY_BUFSIZE, buggy_read_callback, dev);
	dev->read_urb->transfer_flags |= URB_NO_TRANSFER_DMA_MAP;

	usb_set_intfdata(interface, dev);
	retval = usb_register_dev(interface, &buggy_class);
	if (retval) {
		usb_set_intfdata(interface, NULL);
		goto error;
	}

	retval = usb_submit_urb(dev->read_urb, GFP_KERNEL);
	if (retval) {
		usb_deregister_dev(interface, &buggy_class);
		usb_set_intfdata(interface, NULL);
		goto error;
	}

	/*
	 * BUG (resubmitting an active URB): "make sure the read is
	 * queued" - but it is queued already; the core refuses with
	 * -EBUSY (2.6.0: -EINVAL) and warns "URB submitted while active".
	 */
	retval = usb_submit_urb(dev->read_urb, GFP_KERNEL);
	if (retval)
		dev_warn(interface, "second submit of the read urb: %d",
			 retval);

	dev_info(interface, "buggy device now attached to buggy%d",
		 interface->minor - BUGGY_MINOR_BASE);
	return 0;

error:
	usb_buffer_free(udev, BUGGY_BUFSIZE, dev->read_buf,
			dev->read_urb->transfer_dma);
	usb_free_urb(dev->read_urb);
error_free:
	kfree(dev);
	return retval;
}

static void buggy_disconnect(struct usb_interface *interface)
{
	struct buggy *dev = usb_get_intfdata(interface);

	/*
	 * BUG (minor-leak): no usb_deregister_dev(interface, &buggy_class);
	 * the minor and /dev/usb/buggyN stay behind, pointing at this
	 * driver's fops.
	 *
	 * BUG (intfdata-after-disconnect): no usb_set_intfdata(interface,
	 * NULL); the pointer outlives the binding.
	 *
	 * BUG (urbs-in-flight-after-disconnect): no usb_kill_urb(
	 * dev->read_urb); its completion runs after we return - and reads
	 * intfdata, and resubmits.
	 */
	dev_info(interface, "buggy device buggy%d disconnected (or so it "
		 "thinks)", interface->minor - BUGGY_MINOR_BASE);
	(void)dev;
}

struct usb_driver buggy_driver = {
	.owner =	THIS_MODULE,
	.name =		"buggy",
	.probe =	buggy_probe,
	.disconnect =	buggy_disconnect,
	.id_table =	buggy_table,
};
