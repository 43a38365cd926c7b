// SPDX-License-Identifier: GPL-2.0
/*
 * urbbuggy - a USB driver with the bugs urbscope's driver rules name, on
 * purpose, for urbscope's tests against a real kernel
 * (tests/kernel/guest-kmod.sh).  It is urbskel.c's bulk driver (ids only
 * through new_id, a character device urbbuggyN, write() sends one bulk OUT
 * URB) with these bugs:
 *
 *  - gfp-kernel-in-atomic: read()'s completion handler resubmits its URB
 *    with GFP_KERNEL, in interrupt context (EHCI gives URBs back from a
 *    tasklet);
 *  - submit-active-urb: read() submits its bulk IN URB and at once submits
 *    the same URB again, while it is in flight: usb_submit_urb returns
 *    -EBUSY (and WARNs once, "URB ... submitted while active");
 *  - minor-leak: disconnect does not call usb_deregister_dev, so the minor
 *    and the class device /sys/class/usbmisc/urbbuggyN outlive the binding;
 *  - intfdata-after-disconnect: disconnect leaves the interface data set
 *    (the driver core clears it after disconnect returns, in
 *    __device_release_driver, so it is the driver's state at that moment
 *    that the rule sees);
 *  - halt-not-cleared: a read or write that ends in a STALL (-EPIPE)
 *    gives the error back and clears nothing, so the endpoint stays
 *    halted and the next read submits to it (and STALLs again), where
 *    urbskel calls usb_clear_halt.
 *
 * On an interface with an interrupt IN endpoint and no bulk pair (QEMU's
 * keyboard, bound through new_id after usbhid is unbound) it polls that
 * endpoint instead, with the bugs a driver that polls can have:
 *
 *  - gfp-kernel-in-atomic, in a task: probe submits the interrupt URB
 *    with GFP_KERNEL while holding a spinlock with interrupts off;
 *  - urbs-in-flight-after-disconnect: the driver says soft_unbind (so
 *    usb_unbind_interface does not flush its endpoints before calling
 *    disconnect, drivers/usb/core/driver.c) and its disconnect does not
 *    kill the interrupt URB: it is still queued when disconnect returns;
 *  - submit-after-disconnect: disconnect leaves a delayed work behind
 *    that submits a control URB (GET_STATUS) on the device 100 ms later;
 *  - resubmit-on-shutdown: the completion handler resubmits whatever the
 *    status, -ENOENT included; module exit poisons the URB
 *    (usb_poison_urb), its completion resubmits it and the core refuses
 *    (-EPERM), once;
 *  - intfdata-after-disconnect, as above.
 *
 * With fail_probe=N its first N probes return -ENODEV at once, as a
 * driver that finds nothing it can drive does: no rule is broken, but
 * `urbscope tui -i usbmonN --drivers` says why the interface has no
 * driver ("driver urbbuggy was tried and its probe returned -ENODEV").
 *
 * What keeps the guest alive all the same:
 *  - the completion resubmits at most URBBUGGY_RESUBMITS times per read()
 *    and never after an error status, so nothing loops.  GFP_KERNEL there
 *    does not sleep in practice: the allocations on the submit path (the
 *    EHCI qTDs from a dma_pool) find memory at once in a guest with memory
 *    to spare, and without CONFIG_DEBUG_ATOMIC_SLEEP (Debian's kernels
 *    have none) nothing complains; might_sleep()'s cond_resched() does not
 *    schedule with a softirq's preempt count;
 *  - disconnect still kills the URBs (after the bugs above, which are what
 *    the rules look at), so no completion runs after it returns;
 *  - the state of each interface is freed only at module exit and holds a
 *    reference to the interface (usb_get_intf): a file opened on the
 *    leaked minor reaches urbbuggy_open, which finds no bound interface
 *    (usb_find_interface matches on the driver) and fails with ENODEV;
 *  - module exit deregisters the leaked minors before the module's code
 *    goes away: the leaked minor's usb_minors[] slot points at our fops,
 *    and an open after the unload would otherwise call freed code.  For
 *    that, an interface is bound at most once per load (a second probe
 *    fails with EBUSY), so interface->minor still names our minor.
 * So `rmmod urbbuggy` is safe, and the test does it last.
 */
#include <linux/bottom_half.h>
#include <linux/kernel.h>
#include <linux/list.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/uaccess.h>
#include <linux/usb.h>
#include <linux/wait.h>
#include <linux/workqueue.h>

#define URBBUGGY_BUF		4096
#define URBBUGGY_TIMEOUT	(5 * HZ)
#define URBBUGGY_RESUBMITS	1	/* by the completion, per read() */
#define URBBUGGY_MINOR_BASE	200

static int fail_probe;
module_param(fail_probe, int, 0644);
MODULE_PARM_DESC(fail_probe, "probes that return -ENODEV first");

/* nothing: ids come through new_id */
static const struct usb_device_id urbbuggy_table[] = {
	{ }
};
MODULE_DEVICE_TABLE(usb, urbbuggy_table);

struct urbbuggy {
	struct usb_device	*udev;
	struct usb_interface	*interface;	/* referenced until exit */
	struct urb		*in_urb;
	struct urb		*out_urb;
	unsigned char		*in_buf;
	unsigned char		*out_buf;
	__u8			 in_ep;
	__u8			 out_ep;
	int			 minor;		/* ours, even after a leak */
	bool			 disconnected;
	int			 resubmits;
	bool			 done;
	wait_queue_head_t	 wait;
	struct mutex		 io_mutex;	/* I/O against disconnect */
	struct list_head	 list;		/* on urbbuggy_all */
	/* polling an interrupt IN endpoint instead (the keyboard) */
	bool			 poll;
	struct urb		*int_urb;
	unsigned char		*int_buf;
	int			 int_resubmits;	/* after an error status */
	struct urb		*ctrl_urb;	/* the work's GET_STATUS */
	struct usb_ctrlrequest	*ctrl_req;
	unsigned char		*ctrl_buf;
	struct delayed_work	 late_submit;
	spinlock_t		 lock;
};

/* every interface probed, freed at module exit */
static LIST_HEAD(urbbuggy_all);
static DEFINE_MUTEX(urbbuggy_all_mutex);

static struct usb_driver urbbuggy_driver;

static void urbbuggy_complete(struct urb *urb)
{
	struct urbbuggy *dev = urb->context;
	int rv;

	if (urb->status == 0 && urb == dev->in_urb &&
	    dev->resubmits < URBBUGGY_RESUBMITS) {
		dev->resubmits++;
		/* BUG gfp-kernel-in-atomic: must be GFP_ATOMIC here */
		rv = usb_submit_urb(urb, GFP_KERNEL);
		dev_info(&dev->udev->dev,
			 "resubmitted from the completion with GFP_KERNEL: %d\n",
			 rv);
		if (rv == 0)
			return;
	}
	dev->done = true;
	wake_up(&dev->wait);
}

/*
 * The interrupt URB's completion: resubmitted whatever its status.  BUG
 * resubmit-on-shutdown: -ENOENT, -ECONNRESET and -ESHUTDOWN mean stop.
 * After an error it tries once (module exit's poison makes that resubmit
 * fail with -EPERM), so nothing loops.
 */
static void urbbuggy_int_complete(struct urb *urb)
{
	struct urbbuggy *dev = urb->context;
	int status = urb->status;	/* the submit sets -EINPROGRESS */
	int rv;

	if (status != 0 && dev->int_resubmits++ > 0)
		return;
	rv = usb_submit_urb(urb, GFP_ATOMIC);
	if (status != 0)
		dev_info(&dev->udev->dev, "interrupt URB status %d, "
			 "resubmitted: %d\n", status, rv);
}

static void urbbuggy_ctrl_complete(struct urb *urb)
{
}

/*
 * BUG submit-after-disconnect: the work disconnect left behind submits a
 * control URB on the device (GET_STATUS, USB 2.0 9.4.5), the interface's
 * driver long gone.  The device is still there, so the core takes it.
 */
static void urbbuggy_late_submit(struct work_struct *work)
{
	struct urbbuggy *dev = container_of(to_delayed_work(work),
					    struct urbbuggy, late_submit);
	int rv;

	dev->ctrl_req->bRequestType = USB_DIR_IN | USB_TYPE_STANDARD |
				      USB_RECIP_DEVICE;
	dev->ctrl_req->bRequest = USB_REQ_GET_STATUS;
	dev->ctrl_req->wValue = 0;
	dev->ctrl_req->wIndex = 0;
	dev->ctrl_req->wLength = cpu_to_le16(2);
	usb_fill_control_urb(dev->ctrl_urb, dev->udev,
			     usb_rcvctrlpipe(dev->udev, 0),
			     (unsigned char *)dev->ctrl_req, dev->ctrl_buf, 2,
			     urbbuggy_ctrl_complete, dev);
	rv = usb_submit_urb(dev->ctrl_urb, GFP_KERNEL);
	dev_info(&dev->udev->dev, "GET_STATUS submitted after disconnect: "
		 "%d\n", rv);
}

/* Wait for the URB chain started on urb; io_mutex held. */
static int urbbuggy_wait(struct urbbuggy *dev, struct urb *urb)
{
	long left;

	left = wait_event_interruptible_timeout(dev->wait, dev->done,
						URBBUGGY_TIMEOUT);
	if (left <= 0) {
		usb_kill_urb(urb);
		return left == 0 ? -ETIMEDOUT : (int)left;
	}
	if (urb->status)
		return urb->status == -EPIPE ? -EPIPE : -EIO;
	return urb->actual_length;
}

static int urbbuggy_open(struct inode *inode, struct file *file)
{
	struct usb_interface *interface;
	struct urbbuggy *dev;

	interface = usb_find_interface(&urbbuggy_driver, iminor(inode));
	if (!interface)
		return -ENODEV;
	dev = usb_get_intfdata(interface);
	if (!dev)
		return -ENODEV;
	file->private_data = dev;
	return 0;
}

static ssize_t urbbuggy_read(struct file *file, char __user *buf,
			     size_t count, loff_t *ppos)
{
	struct urbbuggy *dev = file->private_data;
	size_t len = min_t(size_t, count, URBBUGGY_BUF);
	int rv, again;

	if (len == 0)
		return 0;
	if (mutex_lock_interruptible(&dev->io_mutex))
		return -ERESTARTSYS;
	if (dev->disconnected) {
		rv = -ENODEV;
		goto out_unlock;
	}
	usb_fill_bulk_urb(dev->in_urb, dev->udev,
			  usb_rcvbulkpipe(dev->udev, dev->in_ep),
			  dev->in_buf, len, urbbuggy_complete, dev);
	dev->resubmits = 0;
	dev->done = false;
	/*
	 * Bottom halves off from the first submit to the second: EHCI gives
	 * URBs back from a BH (a tasklet, a BH workqueue from 6.10), so the
	 * completion cannot run in between and the URB is in flight at the
	 * second submit, also on PREEMPT_RT, where the completion's thread
	 * would otherwise preempt this task at once (seen on 6.12-rt: the
	 * second submit found the URB done).  GFP_ATOMIC: nothing may sleep
	 * with bottom halves off.
	 */
	local_bh_disable();
	rv = usb_submit_urb(dev->in_urb, GFP_ATOMIC);
	/* BUG submit-active-urb: the same URB, still in flight */
	again = rv == 0 ? usb_submit_urb(dev->in_urb, GFP_ATOMIC) : 0;
	local_bh_enable();
	if (rv)
		goto out_unlock;
	dev_info(&dev->interface->dev,
		 "submitted the URB in flight again: %d\n", again);
	rv = urbbuggy_wait(dev, dev->in_urb);
	/* the last transfer of the chain's */
	if (rv > 0 && copy_to_user(buf, dev->in_buf, rv))
		rv = -EFAULT;
out_unlock:
	mutex_unlock(&dev->io_mutex);
	return rv;
}

static ssize_t urbbuggy_write(struct file *file, const char __user *buf,
			      size_t count, loff_t *ppos)
{
	struct urbbuggy *dev = file->private_data;
	size_t len = min_t(size_t, count, URBBUGGY_BUF);
	int rv;

	if (len == 0)
		return 0;
	if (mutex_lock_interruptible(&dev->io_mutex))
		return -ERESTARTSYS;
	if (dev->disconnected) {
		rv = -ENODEV;
		goto out_unlock;
	}
	if (copy_from_user(dev->out_buf, buf, len)) {
		rv = -EFAULT;
		goto out_unlock;
	}
	usb_fill_bulk_urb(dev->out_urb, dev->udev,
			  usb_sndbulkpipe(dev->udev, dev->out_ep),
			  dev->out_buf, len, urbbuggy_complete, dev);
	dev->done = false;
	rv = usb_submit_urb(dev->out_urb, GFP_KERNEL);
	if (rv == 0)
		rv = urbbuggy_wait(dev, dev->out_urb);
out_unlock:
	mutex_unlock(&dev->io_mutex);
	return rv;
}

static const struct file_operations urbbuggy_fops = {
	.owner =	THIS_MODULE,
	.read =		urbbuggy_read,
	.write =	urbbuggy_write,
	.open =		urbbuggy_open,
	.llseek =	noop_llseek,
};

static struct usb_class_driver urbbuggy_class = {
	.name =		"urbbuggy%d",
	.fops =		&urbbuggy_fops,
	.minor_base =	URBBUGGY_MINOR_BASE,
};

static void urbbuggy_free(struct urbbuggy *dev)
{
	usb_free_urb(dev->in_urb);
	usb_free_urb(dev->out_urb);
	usb_free_urb(dev->int_urb);
	usb_free_urb(dev->ctrl_urb);
	kfree(dev->in_buf);
	kfree(dev->out_buf);
	kfree(dev->int_buf);
	kfree(dev->ctrl_req);
	kfree(dev->ctrl_buf);
	usb_put_intf(dev->interface);
	usb_put_dev(dev->udev);
	kfree(dev);
}

static int urbbuggy_probe(struct usb_interface *interface,
			  const struct usb_device_id *id)
{
	struct usb_endpoint_descriptor *in, *out, *int_in;
	struct urbbuggy *dev;
	unsigned long flags;
	bool poll;
	int rv;

	if (fail_probe > 0) {
		fail_probe--;
		dev_info(&interface->dev, "probe fails on purpose "
			 "(fail_probe)\n");
		return -ENODEV;
	}
	rv = usb_find_common_endpoints(interface->cur_altsetting, &in, &out,
				       &int_in, NULL);
	poll = in == NULL || out == NULL;
	if (poll && int_in == NULL) {
		dev_err(&interface->dev, "no bulk IN and OUT endpoints, no "
			"interrupt IN endpoint\n");
		return -ENODEV;
	}
	/*
	 * A second binding would register a second minor over the first in
	 * interface->minor, and module exit could no longer free the first.
	 */
	mutex_lock(&urbbuggy_all_mutex);
	list_for_each_entry(dev, &urbbuggy_all, list) {
		if (dev->interface == interface) {
			mutex_unlock(&urbbuggy_all_mutex);
			dev_err(&interface->dev,
				"bound once already (minor %d leaked)\n",
				dev->minor);
			return -EBUSY;
		}
	}
	mutex_unlock(&urbbuggy_all_mutex);
	dev = kzalloc(sizeof(*dev), GFP_KERNEL);
	if (!dev)
		return -ENOMEM;
	mutex_init(&dev->io_mutex);
	init_waitqueue_head(&dev->wait);
	dev->udev = usb_get_dev(interface_to_usbdev(interface));
	dev->interface = usb_get_intf(interface);
	spin_lock_init(&dev->lock);
	INIT_DELAYED_WORK(&dev->late_submit, urbbuggy_late_submit);
	if (poll) {
		dev->poll = true;
		rv = -ENOMEM;
		dev->int_urb = usb_alloc_urb(0, GFP_KERNEL);
		dev->int_buf = kzalloc(usb_endpoint_maxp(int_in), GFP_KERNEL);
		dev->ctrl_urb = usb_alloc_urb(0, GFP_KERNEL);
		dev->ctrl_req = kzalloc(sizeof(*dev->ctrl_req), GFP_KERNEL);
		dev->ctrl_buf = kzalloc(2, GFP_KERNEL);
		if (!dev->int_urb || !dev->int_buf || !dev->ctrl_urb ||
		    !dev->ctrl_req || !dev->ctrl_buf)
			goto out_free;
		usb_fill_int_urb(dev->int_urb, dev->udev,
				 usb_rcvintpipe(dev->udev,
						int_in->bEndpointAddress),
				 dev->int_buf, usb_endpoint_maxp(int_in),
				 urbbuggy_int_complete, dev, int_in->bInterval);
		usb_set_intfdata(interface, dev);
		/*
		 * BUG gfp-kernel-in-atomic: interrupts off, a spinlock held,
		 * and GFP_KERNEL.  It does not sleep here in practice (see
		 * above), and the held lock's preempt count keeps
		 * cond_resched() from scheduling.
		 */
		spin_lock_irqsave(&dev->lock, flags);
		rv = usb_submit_urb(dev->int_urb, GFP_KERNEL);
		spin_unlock_irqrestore(&dev->lock, flags);
		if (rv) {
			dev_err(&interface->dev, "interrupt URB: %d\n", rv);
			usb_set_intfdata(interface, NULL);
			goto out_free;
		}
		mutex_lock(&urbbuggy_all_mutex);
		list_add(&dev->list, &urbbuggy_all);
		mutex_unlock(&urbbuggy_all_mutex);
		dev_info(&interface->dev, "probe: polling interrupt IN 0x%02x, "
			 "submitted with GFP_KERNEL and interrupts off\n",
			 int_in->bEndpointAddress);
		return 0;
	}
	dev->in_ep = in->bEndpointAddress;
	dev->out_ep = out->bEndpointAddress;
	dev->in_urb = usb_alloc_urb(0, GFP_KERNEL);
	dev->out_urb = usb_alloc_urb(0, GFP_KERNEL);
	dev->in_buf = kmalloc(URBBUGGY_BUF, GFP_KERNEL);
	dev->out_buf = kmalloc(URBBUGGY_BUF, GFP_KERNEL);
	if (!dev->in_urb || !dev->out_urb || !dev->in_buf || !dev->out_buf) {
		rv = -ENOMEM;
		goto out_free;
	}

	usb_set_intfdata(interface, dev);
	rv = usb_register_dev(interface, &urbbuggy_class);
	if (rv) {
		dev_err(&interface->dev, "no minor: %d\n", rv);
		usb_set_intfdata(interface, NULL);
		goto out_free;
	}
	dev->minor = interface->minor;
	mutex_lock(&urbbuggy_all_mutex);
	list_add(&dev->list, &urbbuggy_all);
	mutex_unlock(&urbbuggy_all_mutex);
	/* the raw pointer (%px), for the test to compare with the traced
	 * driver_data */
	dev_info(&interface->dev,
		 "probe %04x:%04x bulk in 0x%02x out 0x%02x minor %d "
		 "intfdata %px\n",
		 le16_to_cpu(dev->udev->descriptor.idVendor),
		 le16_to_cpu(dev->udev->descriptor.idProduct), dev->in_ep,
		 dev->out_ep, interface->minor, usb_get_intfdata(interface));
	return 0;

out_free:
	urbbuggy_free(dev);
	return rv;
}

static void urbbuggy_disconnect(struct usb_interface *interface)
{
	struct urbbuggy *dev = usb_get_intfdata(interface);

	if (dev->poll) {
		/*
		 * BUG urbs-in-flight-after-disconnect: soft_unbind, and the
		 * interrupt URB not killed.  BUG submit-after-disconnect:
		 * the work.  BUG intfdata-after-disconnect.
		 */
		dev->disconnected = true;
		schedule_delayed_work(&dev->late_submit, HZ / 10);
		dev_info(&interface->dev, "disconnect, interrupt URB left "
			 "queued\n");
		return;
	}
	/*
	 * BUG minor-leak: no usb_deregister_dev(interface, &urbbuggy_class).
	 * BUG intfdata-after-disconnect: no usb_set_intfdata(interface, NULL).
	 */
	mutex_lock(&dev->io_mutex);
	dev->disconnected = true;
	mutex_unlock(&dev->io_mutex);
	usb_kill_urb(dev->in_urb);
	usb_kill_urb(dev->out_urb);
	dev_info(&interface->dev, "disconnect, minor %d kept\n",
		 interface->minor);
}

static struct usb_driver urbbuggy_driver = {
	.name =		"urbbuggy",
	.probe =	urbbuggy_probe,
	.disconnect =	urbbuggy_disconnect,
	.id_table =	urbbuggy_table,
	.soft_unbind =	1,
};

static int __init urbbuggy_init(void)
{
	return usb_register(&urbbuggy_driver);
}

static void __exit urbbuggy_exit(void)
{
	struct urbbuggy *dev, *next;

	/* disconnects what is still bound: its minor leaks too */
	usb_deregister(&urbbuggy_driver);
	mutex_lock(&urbbuggy_all_mutex);
	list_for_each_entry_safe(dev, next, &urbbuggy_all, list) {
		struct usb_interface *intf = dev->interface;

		if (dev->poll) {
			cancel_delayed_work_sync(&dev->late_submit);
			usb_kill_urb(dev->ctrl_urb);
			/* its completion resubmits it once more: refused */
			usb_poison_urb(dev->int_urb);
			pr_info("urbbuggy: exit: interrupt URB poisoned\n");
			list_del(&dev->list);
			urbbuggy_free(dev);
			continue;
		}
		/*
		 * usb_deregister_dev frees intf->minor: ours, or -1 when a
		 * driver bound after us registered and freed its own.  A
		 * driver bound now with a minor of its own keeps it, and
		 * ours stays taken (the test binds nothing after us).
		 */
		if (intf->minor == -1)
			intf->minor = dev->minor;
		if (intf->minor == dev->minor) {
			pr_info("urbbuggy: exit: deregistering leaked minor %d\n",
				dev->minor);
			usb_deregister_dev(intf, &urbbuggy_class);
		} else {
			pr_warn("urbbuggy: exit: minor %d stays taken\n",
				dev->minor);
		}
		list_del(&dev->list);
		urbbuggy_free(dev);
	}
	mutex_unlock(&urbbuggy_all_mutex);
}

module_init(urbbuggy_init);
module_exit(urbbuggy_exit);

MODULE_DESCRIPTION("urbscope test driver: the bugs its rules name, on purpose");
MODULE_LICENSE("GPL");
