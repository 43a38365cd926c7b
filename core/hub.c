/*
 * core/hub.c - the hub driver of Linux 6.1 (drivers/usb/core/hub.c), for
 * root hubs and external hubs alike.  At probe: hub descriptor, device
 * and hub status, port power, and after bPwrOn2PwrGood the port status
 * of every port; then the status-change interrupt URB.  Its completion
 * (interrupt context) queues hub_event, which runs in task context: for
 * each changed port, debounce, reset, GET_DESCRIPTOR(DEVICE, 64) to
 * address 0, a second reset, SET_ADDRESS, then usb_new_device; on
 * disconnect, usb_disconnect.
 *
 * The requests are Linux's, in Linux's order and with its lengths: see
 * tests/data/linux61/usbmon-0u.txt lines 1-243 (root hub bus 1, then
 * ports 1-4), and hub_port_init and usb_new_device in Linux's hub.c.  Hub
 * class facts: USB 2.0 chapter 11 (requests: 11.24).
 */
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "core/hcd.h"

/* bmRequestType of hub class requests (USB 2.0 table 11-15) */
#define USB_RT_HUB	(USB_TYPE_CLASS | USB_RECIP_DEVICE)
#define USB_RT_PORT	(USB_TYPE_CLASS | USB_RECIP_OTHER)

/*
 * Hub and port feature selectors, wPortStatus and wPortChange bits
 * (USB 2.0 tables 11-17, 11-21, 11-22) come from core/hcd.h.
 */
/* wHubChange (USB 2.0 table 11-20) */
#define HUB_CHANGE_LOCAL_POWER		0x0001
#define HUB_CHANGE_OVERCURRENT		0x0002

/* Linux 6.1's timing, in ms (the capture shows the 60 ms root reset). */
#define HUB_DEBOUNCE_TIMEOUT	2000
#define HUB_DEBOUNCE_STEP	25
#define HUB_DEBOUNCE_STABLE	100
#define HUB_ROOT_RESET_TIME	60
#define HUB_SHORT_RESET_TIME	10
#define HUB_LONG_RESET_TIME	200
#define HUB_RESET_TIMEOUT	800
#define USB_STS_TIMEOUT		1000
#define USB_STS_RETRIES		5

#define PORT_RESET_TRIES	5
#define SET_ADDRESS_TRIES	2
#define GET_DESCRIPTOR_TRIES	2
#define GET_MAXPACKET0_TRIES	3
#define PORT_INIT_TRIES		4
#define GET_DESCRIPTOR_BUFSIZE	64

#define USB_DT_HUB_NONVAR_SIZE	7
#define USB_HUB_DESC_SIZE	15	/* sizeof(struct usb_hub_descriptor) */

/* Pipes to address 0 (include/linux/usb.h). */
#define usb_sndaddr0pipe()	((unsigned int)PIPE_CONTROL << 30)
#define usb_rcvaddr0pipe()	(usb_sndaddr0pipe() | USB_DIR_IN)

enum hub_activation_type {
	HUB_INIT,		/* probe: power the ports */
	HUB_INIT2,		/* after power-on-to-good: port status */
	HUB_INIT3,		/* after debounce: status URB, hub_event */
};

struct usb_hub {
	struct usb_device *hdev;	/* referenced */
	struct usb_interface *intf;
	int		 refcount;	/* probe + queued work */
	struct urb	*urb;		/* status change, interrupt IN */
	uint8_t		 buffer[8];	/* its bitmap: bit 0 hub, n port n */
	uint8_t		 descriptor[USB_HUB_DESC_SIZE]; /* USB 2.0 11.23.2.1 */
	int		 nports;
	int		 pwron_ms;	/* power-on to power-good */
	uint32_t	 event_bits;	/* from the status URB */
	uint32_t	 change_bits;	/* ports hub_activate wants looked at */
	int		 nerrors;
	int		 error;
	int		 quiescing;
	int		 disconnected;
	enum hub_activation_type init_next;
	struct sim_timer init_timer;	/* queue_delayed_work(init_work) */
	struct sim_work	 init_work;
	struct sim_work	 events;	/* hub_event */
	struct sim_timer retry_timer;	/* resubmit the URB after errors */
};

static void	 hub_activate(struct usb_hub *, enum hub_activation_type);

static struct usb_hub *
hub_get(struct usb_hub *hub)
{
	hub->refcount++;
	return hub;
}

static void
hub_put(struct usb_hub *hub)
{
	if (--hub->refcount > 0)
		return;
	usb_free_urb(hub->urb);
	usb_put_dev(hub->hdev);
	free(hub);
}

/* ------------------------------------------------------------------------
 * Hub class requests.
 */
static int
set_port_feature(struct usb_device *hdev, int port1, int feature)
{
	return usb_control_msg(hdev, usb_sndctrlpipe(hdev, 0),
	    USB_REQ_SET_FEATURE, USB_RT_PORT, (u16)feature, (u16)port1, NULL, 0,
	    1000);
}

static int
clear_port_feature(struct usb_device *hdev, int port1, int feature)
{
	return usb_control_msg(hdev, usb_sndctrlpipe(hdev, 0),
	    USB_REQ_CLEAR_FEATURE, USB_RT_PORT, (u16)feature, (u16)port1, NULL,
	    0, 1000);
}

static int
clear_hub_feature(struct usb_device *hdev, int feature)
{
	return usb_control_msg(hdev, usb_sndctrlpipe(hdev, 0),
	    USB_REQ_CLEAR_FEATURE, USB_RT_HUB, (u16)feature, 0, NULL, 0, 1000);
}

/* GET_STATUS of the hub (port 0) or a port: 4 bytes, retried. */
static int
hub_status(struct usb_hub *hub, int port1, uint16_t *status,
    uint16_t *change)
{
	uint8_t		 buf[4];
	int		 i, ret = -ETIMEDOUT;

	for (i = 0; i < USB_STS_RETRIES && (ret == -ETIMEDOUT ||
	    ret == -EPIPE); i++) {
		ret = usb_control_msg(hub->hdev, usb_rcvctrlpipe(hub->hdev, 0),
		    USB_REQ_GET_STATUS, USB_DIR_IN | (port1 ? USB_RT_PORT :
		    USB_RT_HUB), 0, (u16)port1, buf, sizeof buf,
		    USB_STS_TIMEOUT);
	}
	if (ret < (int)sizeof buf) {
		if (ret != -ENODEV)
			core_log(hub->hdev, hub->intf, "hub", __func__,
			    "%s failed (err = %d)", port1 ? "get_port_status" :
			    "get_hub_status", ret);
		return ret < 0 ? ret : -EIO;
	}
	*status = get_le16(buf);
	*change = get_le16(buf + 2);
	return 0;
}

/* GET_HUB_DESCRIPTOR with the 15 bytes Linux asks for. */
static int
get_hub_descriptor(struct usb_hub *hub)
{
	int	 i, ret, size;

	for (i = 0; i < 3; i++) {
		ret = usb_control_msg(hub->hdev,
		    usb_rcvctrlpipe(hub->hdev, 0), USB_REQ_GET_DESCRIPTOR,
		    USB_DIR_IN | USB_RT_HUB, USB_DT_HUB << 8, 0,
		    hub->descriptor, sizeof hub->descriptor,
		    USB_CTRL_GET_TIMEOUT);
		if (ret >= USB_DT_HUB_NONVAR_SIZE + 2) {
			/* it must reach DeviceRemovable */
			size = USB_DT_HUB_NONVAR_SIZE + hub->descriptor[2] / 8 +
			    1;
			return ret < size ? -EMSGSIZE : ret;
		}
	}
	return -EINVAL;
}

static void
hub_power_on(struct usb_hub *hub)
{
	int	 port1;

	for (port1 = 1; port1 <= hub->nports; port1++)
		set_port_feature(hub->hdev, port1, USB_PORT_FEAT_POWER);
}

/* ------------------------------------------------------------------------
 * The status-change URB and hub_event scheduling.
 */
static void
kick_hub_wq(struct usb_hub *hub)
{
	struct sim	*s = core_sim();

	if (hub->disconnected || hub->events.queued || s == NULL)
		return;
	hub_get(hub);
	sim_work_queue(s, &hub->events);
}

static void
hub_resubmit_irq_urb(struct usb_hub *hub)
{
	struct sim	*s = core_sim();
	int		 status;

	if (hub->quiescing)
		return;
	status = usb_submit_urb(hub->urb, GFP_ATOMIC);
	if (status != 0 && status != -ENODEV && status != -EPERM &&
	    status != -ESHUTDOWN) {
		core_log(hub->hdev, hub->intf, "hub", __func__,
		    "resubmit --> %d", status);
		if (s != NULL)
			sim_timer_add(s, &hub->retry_timer,
			    s->now_ns + 1000 * SIM_MS);
	}
}

static void
hub_retry_irq_urb(void *arg)
{
	hub_resubmit_irq_urb(arg);
}

/* Completion of the status-change URB, in interrupt context. */
static void
hub_irq(struct urb *urb)
{
	struct usb_hub	*hub = urb->context;
	uint32_t	 bits = 0;
	unsigned int	 i;

	switch (urb->status) {
	case -ENOENT:		/* killed */
	case -ECONNRESET:	/* unlinked */
	case -ESHUTDOWN:	/* the hub or its controller goes away */
		return;
	case 0:			/* a port (or the hub) changed */
		break;
	default:
		/* ten errors in a row make hub_event deal with it */
		if (++hub->nerrors < 10 || hub->error != 0)
			goto resubmit;
		hub->error = urb->status;
		break;
	}
	for (i = 0; i < urb->actual_length && i < 4; i++)
		bits |= (uint32_t)hub->buffer[i] << (i * 8);
	hub->event_bits |= bits;
	hub->nerrors = 0;
	kick_hub_wq(hub);
resubmit:
	hub_resubmit_irq_urb(hub);
}

/* Delayed activation steps: a timer, then task-context work. */
static void
hub_init_timer(void *arg)
{
	struct usb_hub	*hub = arg;

	if (core_sim() != NULL)
		sim_work_queue(core_sim(), &hub->init_work);
}

static void
hub_init_work(void *arg)
{
	struct usb_hub	*hub = arg;

	if (!hub->disconnected)
		hub_activate(hub, hub->init_next);
	hub_put(hub);
}

static void
hub_delay_activate(struct usb_hub *hub, enum hub_activation_type next,
    int ms)
{
	struct sim	*s = core_sim();

	if (s == NULL)
		return;
	hub->init_next = next;
	hub_get(hub);
	sim_timer_add(s, &hub->init_timer, s->now_ns + (uint64_t)ms * SIM_MS);
}

/*
 * Linux's hub_activate for a new hub: power on (INIT), port status and
 * change clearing after the power-good time (INIT2), and after the
 * debounce time the status URB and a first hub_event (INIT3).
 */
static void
hub_activate(struct usb_hub *hub, enum hub_activation_type type)
{
	struct usb_device *hdev = hub->hdev, *udev;
	uint16_t	 portstatus, portchange;
	int		 port1, need_debounce = 0, status;

	if (type == HUB_INIT) {
		hub_power_on(hub);
		hub_delay_activate(hub, HUB_INIT2, hub->pwron_ms);
		return;
	}
	if (type == HUB_INIT2) {
		for (port1 = 1; port1 <= hub->nports; port1++) {
			udev = hdev->children[port1 - 1];
			if (hub_status(hub, port1, &portstatus,
			    &portchange) < 0)
				return;
			/* after initialisation every port starts disabled */
			if (portstatus & USB_PORT_STAT_ENABLE) {
				portstatus &= ~USB_PORT_STAT_ENABLE;
				clear_port_feature(hdev, port1,
				    USB_PORT_FEAT_ENABLE);
			}
			/* clear the change flags; debounce comes later */
			if (portchange & USB_PORT_STAT_C_CONNECTION) {
				need_debounce = 1;
				clear_port_feature(hdev, port1,
				    USB_PORT_FEAT_C_CONNECTION);
			}
			if (portchange & USB_PORT_STAT_C_ENABLE) {
				need_debounce = 1;
				clear_port_feature(hdev, port1,
				    USB_PORT_FEAT_C_ENABLE);
			}
			if (portchange & USB_PORT_STAT_C_RESET) {
				need_debounce = 1;
				clear_port_feature(hdev, port1,
				    USB_PORT_FEAT_C_RESET);
			}
			if (udev == NULL ||
			    udev->state == USB_STATE_NOTATTACHED) {
				if (udev != NULL ||
				    (portstatus & (USB_PORT_STAT_CONNECTION |
				    USB_PORT_STAT_OVERCURRENT)) ||
				    (portchange & (USB_PORT_STAT_C_CONNECTION |
				    USB_PORT_STAT_C_OVERCURRENT)))
					hub->change_bits |= 1u << port1;
			} else {
				/* the power session is gone */
				usb_set_device_state(udev,
				    USB_STATE_NOTATTACHED);
				hub->change_bits |= 1u << port1;
			}
		}
		if (need_debounce) {
			hub_delay_activate(hub, HUB_INIT3,
			    HUB_DEBOUNCE_STABLE);
			return;
		}
	}
	hub->quiescing = 0;
	if ((status = usb_submit_urb(hub->urb, GFP_NOIO)) < 0)
		core_log(hdev, hub->intf, "hub", __func__, "activate --> %d",
		    status);
	kick_hub_wq(hub);
}

/* ------------------------------------------------------------------------
 * Port handling (hub_port_init and friends).
 */
static int
hub_port_disable(struct usb_hub *hub, int port1, int set_state)
{
	struct usb_device *hdev = hub->hdev;
	int		 ret = 0;

	if (!hub->error)
		ret = clear_port_feature(hdev, port1, USB_PORT_FEAT_ENABLE);
	if (hdev->children[port1 - 1] != NULL && set_state)
		usb_set_device_state(hdev->children[port1 - 1],
		    USB_STATE_NOTATTACHED);
	if (ret != 0 && ret != -ENODEV)
		core_log(hdev, NULL, "usb", __func__, "port %d: cannot "
		    "disable (err = %d)", port1, ret);
	return ret;
}

/*
 * Wait for the connection to stay the same for HUB_DEBOUNCE_STABLE ms,
 * polling every HUB_DEBOUNCE_STEP (Linux's hub_port_debounce).  Returns
 * the port status or -errno (-ETIMEDOUT when it never settled).
 */
static int
hub_port_debounce(struct usb_hub *hub, int port1)
{
	uint16_t	 portstatus = 0, portchange;
	unsigned int	 connection = 0xffff;
	int		 ret, total, stable = 0;

	for (total = 0; ; total += HUB_DEBOUNCE_STEP) {
		if ((ret = hub_status(hub, port1, &portstatus,
		    &portchange)) < 0)
			return ret;
		if (!(portchange & USB_PORT_STAT_C_CONNECTION) &&
		    (portstatus & USB_PORT_STAT_CONNECTION) == connection) {
			stable += HUB_DEBOUNCE_STEP;
			if (stable >= HUB_DEBOUNCE_STABLE)
				break;
		} else {
			stable = 0;
			connection = portstatus & USB_PORT_STAT_CONNECTION;
		}
		if (portchange & USB_PORT_STAT_C_CONNECTION)
			clear_port_feature(hub->hdev, port1,
			    USB_PORT_FEAT_C_CONNECTION);
		if (total >= HUB_DEBOUNCE_TIMEOUT)
			break;
		msleep(HUB_DEBOUNCE_STEP);
	}
	if (stable < HUB_DEBOUNCE_STABLE)
		return -ETIMEDOUT;
	return portstatus;
}

static int
hub_port_wait_reset(struct usb_hub *hub, int port1, struct usb_device *udev,
    int delay)
{
	uint16_t	 portstatus = 0, portchange = 0;
	int		 delay_time, ret;

	for (delay_time = 0; delay_time < HUB_RESET_TIMEOUT;
	    delay_time += delay) {
		msleep((unsigned int)delay);
		if ((ret = hub_status(hub, port1, &portstatus,
		    &portchange)) < 0)
			return ret;
		if (!(portstatus & USB_PORT_STAT_RESET) &&
		    (portstatus & USB_PORT_STAT_CONNECTION))
			break;
		/* the long delay after two short ones */
		if (delay_time >= 2 * HUB_SHORT_RESET_TIME)
			delay = HUB_LONG_RESET_TIME;
	}
	if (portstatus & USB_PORT_STAT_RESET)
		return -EBUSY;
	if (!(portstatus & USB_PORT_STAT_CONNECTION))
		return -ENOTCONN;
	if (portchange & USB_PORT_STAT_C_CONNECTION) {
		clear_port_feature(hub->hdev, port1,
		    USB_PORT_FEAT_C_CONNECTION);
		return -EAGAIN;
	}
	if (!(portstatus & USB_PORT_STAT_ENABLE))
		return -EBUSY;
	if (udev == NULL)
		return 0;
	if (portstatus & USB_PORT_STAT_HIGH_SPEED)
		udev->speed = USB_SPEED_HIGH;
	else if (portstatus & USB_PORT_STAT_LOW_SPEED)
		udev->speed = USB_SPEED_LOW;
	else
		udev->speed = USB_SPEED_FULL;
	return 0;
}

/* SET_FEATURE(PORT_RESET), wait, CLEAR_FEATURE(C_PORT_RESET), recovery;
 * the device is back at address 0 in the Default state. */
static int
hub_port_reset(struct usb_hub *hub, int port1, struct usb_device *udev,
    int delay)
{
	int	 i, status = -ENODEV;

	for (i = 0; i < PORT_RESET_TRIES; i++) {
		status = set_port_feature(hub->hdev, port1,
		    USB_PORT_FEAT_RESET);
		if (status == -ENODEV)
			;	/* the hub is gone */
		else if (status != 0)
			core_log(hub->hdev, NULL, "usb", __func__, "port %d: "
			    "cannot reset (err = %d)", port1, status);
		else
			status = hub_port_wait_reset(hub, port1, udev, delay);
		if (status == 0 || status == -ENOTCONN || status == -ENODEV) {
			clear_port_feature(hub->hdev, port1,
			    USB_PORT_FEAT_C_RESET);
			goto done;
		}
		delay = HUB_LONG_RESET_TIME;
	}
	core_log(hub->hdev, NULL, "usb", __func__, "port %d: cannot enable. "
	    "Maybe the USB cable is bad?", port1);
done:
	if (status == 0) {
		msleep(10 + 40);	/* TRSTRCY = 10 ms, plus some extra */
		if (udev != NULL) {
			udev->devnum = 0;
			usb_set_device_state(udev, USB_STATE_DEFAULT);
		}
	} else if (udev != NULL)
		usb_set_device_state(udev, USB_STATE_NOTATTACHED);
	return status;
}

/* SET_ADDRESS, sent to address 0; the device takes devnum afterwards. */
static int
hub_set_address(struct usb_device *udev, int devnum)
{
	int	 retval;

	if (devnum <= 1)
		return -EINVAL;
	if (udev->state == USB_STATE_ADDRESS)
		return 0;
	if (udev->state != USB_STATE_DEFAULT)
		return -EINVAL;
	retval = usb_control_msg(udev, usb_sndaddr0pipe(),
	    USB_REQ_SET_ADDRESS, 0, (u16)devnum, 0, NULL, 0,
	    USB_CTRL_SET_TIMEOUT);
	if (retval == 0) {
		udev->devnum = devnum;
		usb_set_device_state(udev, USB_STATE_ADDRESS);
		usb_ep0_reinit(udev);	/* the HCD's ep0 has the old address */
	}
	return retval;
}

static const char *
speed_string(enum usb_device_speed speed)
{
	switch (speed) {
	case USB_SPEED_LOW:
		return "low-speed";
	case USB_SPEED_FULL:
		return "full-speed";
	case USB_SPEED_HIGH:
		return "high-speed";
	default:
		return "UNKNOWN";
	}
}

/*
 * Linux's hub_port_init, "new scheme": reset, GET_DESCRIPTOR(DEVICE, 64)
 * to address 0, reset again, SET_ADDRESS, 10 ms, ep0 maxpacket.  The
 * full device descriptor (and BOS) follow in usb_new_device.  0 or -errno.
 */
static int
hub_port_init(struct usb_hub *hub, struct usb_device *udev, int port1)
{
	struct usb_device *hdev = hub->hdev;
	struct usb_hcd	*hcd = bus_to_hcd(hdev->bus);
	enum usb_device_speed oldspeed = udev->speed;
	uint8_t		 buf[GET_DESCRIPTOR_BUFSIZE];
	int		 devnum = usb_dev_priv(udev)->devnum_chosen;
	int		 delay, retval, retries, operations, r = 0, i;

	/* root hub ports have a longer reset (USB 2.0 7.1.7.5) */
	delay = hdev->parent == NULL ? HUB_ROOT_RESET_TIME :
	    HUB_SHORT_RESET_TIME;
	if (oldspeed == USB_SPEED_LOW)
		delay = HUB_LONG_RESET_TIME;

	if ((retval = hub_port_reset(hub, port1, udev, delay)) < 0)
		goto fail;
	retval = -ENODEV;
	if (oldspeed != USB_SPEED_UNKNOWN && oldspeed != udev->speed)
		goto fail;
	oldspeed = udev->speed;
	switch (udev->speed) {
	case USB_SPEED_HIGH:		/* fixed at 64 */
	case USB_SPEED_FULL:		/* 8 to 64: a guess, read below */
		udev->ep0.desc.wMaxPacketSize = cpu_to_le16(64);
		break;
	case USB_SPEED_LOW:		/* fixed at 8 */
		udev->ep0.desc.wMaxPacketSize = cpu_to_le16(8);
		break;
	default:
		goto fail;
	}
	core_log(udev, NULL, "usb", __func__, "%s %s USB device number %d "
	    "using %s", udev->config != NULL ? "reset" : "new",
	    speed_string(udev->speed), devnum, hcd != NULL &&
	    hcd->driver != NULL ? hcd->driver->description : "hcd");

	for (retries = 0; retries < GET_DESCRIPTOR_TRIES;
	    retries++, msleep(100)) {
		for (operations = 0; operations < GET_MAXPACKET0_TRIES;
		    operations++) {
			memset(buf, 0, sizeof buf);
			r = usb_control_msg(udev, usb_rcvaddr0pipe(),
			    USB_REQ_GET_DESCRIPTOR, USB_DIR_IN,
			    USB_DT_DEVICE << 8, 0, buf, sizeof buf,
			    USB_CTRL_GET_TIMEOUT);
			switch (buf[7]) {	/* bMaxPacketSize0 */
			case 8:
			case 16:
			case 32:
			case 64:
			case 255:
				if (buf[1] == USB_DT_DEVICE) {
					r = 0;
					break;
				}
				/* FALLTHROUGH */
			default:
				if (r == 0)
					r = -EPROTO;
				break;
			}
			/* some devices time out until a second reset */
			if (r == 0 || (r == -ETIMEDOUT && retries == 0 &&
			    udev->speed > USB_SPEED_FULL))
				break;
		}
		udev->descriptor.bMaxPacketSize0 = buf[7];

		if ((retval = hub_port_reset(hub, port1, udev, delay)) < 0)
			goto fail;
		if (oldspeed != udev->speed) {
			retval = -ENODEV;
			goto fail;
		}
		if (r != 0) {
			if (r != -ENODEV)
				core_log(udev, NULL, "usb", __func__, "device "
				    "descriptor read/64, error %d", r);
			retval = -EMSGSIZE;
			continue;
		}

		for (operations = 0; operations < SET_ADDRESS_TRIES;
		    operations++) {
			if ((retval = hub_set_address(udev, devnum)) >= 0)
				break;
			msleep(200);
		}
		if (retval < 0) {
			if (retval != -ENODEV)
				core_log(udev, NULL, "usb", __func__, "device "
				    "not accepting address %d, error %d",
				    devnum, retval);
			goto fail;
		}
		/* let SET_ADDRESS settle, some devices want it */
		msleep(10);
		break;
	}
	if (retval != 0)
		goto fail;

	i = udev->descriptor.bMaxPacketSize0 == 0xff ? 512 :
	    udev->descriptor.bMaxPacketSize0;
	if ((le16_to_cpu(udev->ep0.desc.wMaxPacketSize) & 0x7ff) != i) {
		if (udev->speed == USB_SPEED_LOW ||
		    !(i == 8 || i == 16 || i == 32 || i == 64)) {
			core_log(udev, NULL, "usb", __func__, "Invalid ep0 "
			    "maxpacket: %d", i);
			retval = -EMSGSIZE;
			goto fail;
		}
		if (udev->speed != USB_SPEED_FULL)
			core_log(udev, NULL, "usb", __func__, "Using ep0 "
			    "maxpacket: %d", i);
		udev->ep0.desc.wMaxPacketSize = cpu_to_le16((u16)i);
		usb_ep0_reinit(udev);
	}
	return 0;
fail:
	hub_port_disable(hub, port1, 0);
	return retval;
}

/*
 * Something changed on port1: the old device (if any) goes, the port is
 * debounced when its connection changed, and a device there is
 * enumerated, with Linux's retries (hub_port_connect).
 */
static void
hub_port_connect(struct usb_hub *hub, int port1, uint16_t portstatus,
    uint16_t portchange)
{
	struct usb_device *hdev = hub->hdev, *udev;
	int		 status = -ENODEV, i;

	if (hdev->children[port1 - 1] != NULL)
		usb_disconnect(&hdev->children[port1 - 1]);

	if (portchange & (USB_PORT_STAT_C_CONNECTION |
	    USB_PORT_STAT_C_ENABLE)) {
		status = hub_port_debounce(hub, port1);
		if (status < 0) {
			if (status != -ENODEV)
				core_log(hdev, NULL, "usb", __func__, "port "
				    "%d: connect-debounce failed", port1);
			portstatus &= ~USB_PORT_STAT_CONNECTION;
		} else
			portstatus = (uint16_t)status;
	}
	if (!(portstatus & USB_PORT_STAT_CONNECTION)) {
		/* maybe switch power back on (e.g. root hub was reset) */
		if (!(portstatus & USB_PORT_STAT_POWER))
			set_port_feature(hdev, port1, USB_PORT_FEAT_POWER);
		if (portstatus & USB_PORT_STAT_ENABLE)
			goto done;
		return;
	}

	for (i = 0; i < PORT_INIT_TRIES; i++) {
		if (hub->disconnected ||
		    hdev->state == USB_STATE_NOTATTACHED) {
			status = -ENOTCONN;
			break;
		}
		if ((udev = usb_alloc_dev(hdev, hdev->bus,
		    (unsigned int)port1)) == NULL) {
			core_log(hdev, NULL, "usb", __func__, "port %d: "
			    "couldn't allocate usb_device", port1);
			goto done;
		}
		usb_set_device_state(udev, USB_STATE_POWERED);
		if (usb_choose_devnum(udev) <= 0) {
			status = -ENOTCONN;	/* don't retry */
			goto loop;
		}
		if ((status = hub_port_init(hub, udev, port1)) < 0)
			goto loop;
		if (hdev->state == USB_STATE_NOTATTACHED)
			status = -ENOTCONN;
		else
			hdev->children[port1 - 1] = udev;
		if (status == 0 && (status = usb_new_device(udev)) != 0)
			hdev->children[port1 - 1] = NULL;
		if (status != 0)
			goto loop_disable;
		return;
loop_disable:
		hub_port_disable(hub, port1, 1);
loop:
		usb_disable_device(udev, 0);
		usb_release_devnum(udev);
		usb_put_dev(udev);
		if (status == -ENOTCONN || status == -ENOTSUP)
			break;
		/* halfway through the tries, power-cycle the port */
		if (i == (PORT_INIT_TRIES - 1) / 2) {
			core_log(hdev, NULL, "usb", __func__, "port %d: "
			    "attempt power cycle", port1);
			clear_port_feature(hdev, port1, USB_PORT_FEAT_POWER);
			msleep((unsigned int)(2 * hub->pwron_ms));
			set_port_feature(hdev, port1, USB_PORT_FEAT_POWER);
			msleep((unsigned int)hub->pwron_ms);
		}
	}
	if (status != -ENOTCONN && status != -ENODEV)
		core_log(hdev, NULL, "usb", __func__, "port %d: unable to "
		    "enumerate USB device", port1);
done:
	hub_port_disable(hub, port1, 1);
}

static void
hub_port_connect_change(struct usb_hub *hub, int port1, uint16_t portstatus,
    uint16_t portchange)
{
	struct usb_device *udev = hub->hdev->children[port1 - 1];

	hub->change_bits &= ~(1u << port1);
	/* still there and enabled, no new connection: nothing to do */
	if ((portstatus & USB_PORT_STAT_CONNECTION) && udev != NULL &&
	    udev->state != USB_STATE_NOTATTACHED &&
	    (portstatus & USB_PORT_STAT_ENABLE) &&
	    !(portchange & USB_PORT_STAT_C_CONNECTION))
		return;
	hub_port_connect(hub, port1, portstatus, portchange);
}

static void
port_event(struct usb_hub *hub, int port1)
{
	struct usb_device *hdev = hub->hdev;
	uint16_t	 portstatus, portchange;
	int		 connect_change;

	connect_change = (hub->change_bits >> port1) & 1;
	hub->event_bits &= ~(1u << port1);
	if (hub_status(hub, port1, &portstatus, &portchange) < 0)
		return;
	if (portchange & USB_PORT_STAT_C_CONNECTION) {
		clear_port_feature(hdev, port1, USB_PORT_FEAT_C_CONNECTION);
		connect_change = 1;
	}
	if (portchange & USB_PORT_STAT_C_ENABLE) {
		clear_port_feature(hdev, port1, USB_PORT_FEAT_C_ENABLE);
		/* EMI can make a hub disable a port: enumerate again */
		if (!(portstatus & USB_PORT_STAT_ENABLE) && !connect_change &&
		    hdev->children[port1 - 1] != NULL) {
			core_log(hdev, NULL, "usb", __func__, "port %d: "
			    "disabled by hub (EMI?), re-enabling...", port1);
			connect_change = 1;
		}
	}
	if (portchange & USB_PORT_STAT_C_OVERCURRENT) {
		core_log(hdev, NULL, "usb", __func__, "port %d: over-current "
		    "change", port1);
		clear_port_feature(hdev, port1, USB_PORT_FEAT_C_OVER_CURRENT);
	}
	if (portchange & USB_PORT_STAT_C_RESET)
		clear_port_feature(hdev, port1, USB_PORT_FEAT_C_RESET);
	if (portchange & USB_PORT_STAT_C_SUSPEND)
		clear_port_feature(hdev, port1, USB_PORT_FEAT_C_SUSPEND);
	if (connect_change)
		hub_port_connect_change(hub, port1, portstatus, portchange);
}

/* Stop everything: children gone, no more status URB. */
static void
hub_quiesce(struct usb_hub *hub)
{
	struct sim	*s = core_sim();
	int		 i;

	hub->quiescing = 1;
	for (i = 0; i < hub->nports && i < USB_MAXCHILDREN; i++) {
		if (hub->hdev->children[i] != NULL)
			usb_disconnect(&hub->hdev->children[i]);
	}
	if (s != NULL)
		sim_timer_del(s, &hub->retry_timer);
	usb_kill_urb(hub->urb);
}

/* The hub's work, in task context: each flagged port, then the hub. */
static void
hub_event(void *arg)
{
	struct usb_hub	*hub = arg;
	struct usb_device *hdev = hub->hdev;
	uint16_t	 hubstatus, hubchange;
	int		 port1;

	if (hub->disconnected)
		goto out;
	if (hdev->state == USB_STATE_NOTATTACHED) {
		hub->error = -ENODEV;
		hub_quiesce(hub);
		goto out;
	}
	if (hub->quiescing)
		goto out;
	if (hub->error != 0) {
		/* Linux resets the hub here; this core has no reset yet */
		core_log(hdev, hub->intf, "hub", __func__, "resetting for "
		    "error %d (not supported, ignored)", hub->error);
		hub->error = 0;
		hub->nerrors = 0;
	}
	for (port1 = 1; port1 <= hub->nports; port1++) {
		if (hub->disconnected || hub->quiescing)
			goto out;
		if (((hub->event_bits | hub->change_bits) >> port1) & 1)
			port_event(hub, port1);
	}
	if (hub->event_bits & 1) {
		hub->event_bits &= ~1u;
		if (hub_status(hub, 0, &hubstatus, &hubchange) == 0) {
			if (hubchange & HUB_CHANGE_LOCAL_POWER)
				clear_hub_feature(hdev, C_HUB_LOCAL_POWER);
			if (hubchange & HUB_CHANGE_OVERCURRENT) {
				core_log(hdev, hub->intf, "hub", __func__,
				    "over-current change");
				msleep(500);	/* cool down */
				clear_hub_feature(hdev, C_HUB_OVER_CURRENT);
				hub_power_on(hub);
			}
		}
	}
out:
	hub_put(hub);
}

/* ------------------------------------------------------------------------
 * Probe and disconnect.
 */
static int
hub_configure(struct usb_hub *hub, const struct usb_endpoint_descriptor *ep)
{
	struct usb_device *hdev = hub->hdev;
	const char	*message = "out of memory";
	unsigned int	 pipe;
	uint8_t		 st[4];
	uint16_t	 hubstatus, hubchange;
	int		 ret, maxp;

	if ((ret = get_hub_descriptor(hub)) < 0) {
		message = "can't read hub descriptor";
		goto fail;
	}
	hub->nports = hub->descriptor[2];
	if (hub->nports > USB_MAXCHILDREN) {
		message = "hub has too many ports!";
		ret = -ENODEV;
		goto fail;
	} else if (hub->nports == 0) {
		message = "hub doesn't have any ports!";
		ret = -ENODEV;
		goto fail;
	}
	core_log(hdev, hub->intf, "hub", __func__, "%d port%s detected",
	    hub->nports, hub->nports == 1 ? "" : "s");
	hdev->maxchild = hub->nports;
	/* bPwrOn2PwrGood in 2 ms units; external hubs get at least 100 */
	hub->pwron_ms = hub->descriptor[5] * 2;
	if (hdev->parent != NULL && hub->pwron_ms < 100)
		hub->pwron_ms = 100;

	ret = usb_control_msg(hdev, usb_rcvctrlpipe(hdev, 0),
	    USB_REQ_GET_STATUS, USB_DIR_IN | USB_RECIP_DEVICE, 0, 0, st, 2,
	    USB_CTRL_GET_TIMEOUT);
	if (ret < 2) {
		message = "can't get hub status";
		ret = ret < 0 ? ret : -EIO;
		goto fail;
	}
	if ((ret = hub_status(hub, 0, &hubstatus, &hubchange)) < 0) {
		message = "can't get hub status";
		goto fail;
	}

	pipe = usb_rcvintpipe(hdev, ep->bEndpointAddress);
	maxp = usb_maxpacket(hdev, pipe);
	if (maxp > (int)sizeof hub->buffer)
		maxp = sizeof hub->buffer;
	if ((hub->urb = usb_alloc_urb(0, GFP_KERNEL)) == NULL) {
		ret = -ENOMEM;
		goto fail;
	}
	usb_fill_int_urb(hub->urb, hdev, pipe, hub->buffer, maxp, hub_irq, hub,
	    ep->bInterval);
	hub_activate(hub, HUB_INIT);
	return 0;
fail:
	core_log(hdev, hub->intf, "hub", __func__, "config failed, %s (err "
	    "%d)", message, ret);
	return ret;
}

/* Linux's hub_descriptor_is_sane: one interrupt IN endpoint. */
static int
hub_descriptor_is_sane(const struct usb_host_interface *alt)
{
	const struct usb_endpoint_descriptor *d;

	if (alt->desc.bInterfaceSubClass != 0 &&
	    alt->desc.bInterfaceSubClass != 1)
		return 0;
	if (alt->desc.bNumEndpoints != 1)
		return 0;
	d = &alt->endpoint[0].desc;
	return (d->bEndpointAddress & USB_DIR_IN) &&
	    (d->bmAttributes & USB_ENDPOINT_XFERTYPE_MASK) ==
	    USB_ENDPOINT_XFER_INT;
}

int
hub_probe(struct usb_interface *intf)
{
	struct usb_device *hdev = interface_to_usbdev(intf);
	struct usb_host_interface *alt = intf->cur_altsetting;
	struct usb_hub	*hub;

	if (!hub_descriptor_is_sane(alt)) {
		core_log(hdev, intf, "hub", __func__, "bad descriptor, "
		    "ignoring hub");
		return -EIO;
	}
	core_log(hdev, intf, "hub", __func__, "USB hub found");
	if ((hub = calloc(1, sizeof *hub)) == NULL)
		return -ENOMEM;
	hub->refcount = 1;
	hub->hdev = usb_get_dev(hdev);
	hub->intf = intf;
	hub->init_timer.fn = hub_init_timer;
	hub->init_timer.arg = hub;
	hub->init_work.fn = hub_init_work;
	hub->init_work.arg = hub;
	hub->events.fn = hub_event;
	hub->events.arg = hub;
	hub->retry_timer.fn = hub_retry_irq_urb;
	hub->retry_timer.arg = hub;
	intf->intfdata = hub;
	usb_dev_priv(hdev)->hub = hub;
	if (hub_configure(hub, &alt->endpoint[0].desc) >= 0)
		return 0;
	hub_disconnect(intf);
	return -ENODEV;
}

void
hub_disconnect(struct usb_interface *intf)
{
	struct usb_hub	*hub = intf->intfdata;
	struct usb_device *hdev = interface_to_usbdev(intf);
	struct sim	*s = core_sim();

	if (hub == NULL)
		return;
	/* no new hub events; children go, the status URB is killed */
	hub->disconnected = 1;
	hub->error = 0;
	hub_quiesce(hub);
	/* what is still scheduled holds references: drop them (the
	 * probe's reference keeps the count above zero) */
	if (s != NULL) {
		if (hub->init_timer.pending) {
			sim_timer_del(s, &hub->init_timer);
			hub->refcount--;
		}
		if (sim_work_cancel(s, &hub->init_work))
			hub->refcount--;
		if (sim_work_cancel(s, &hub->events))
			hub->refcount--;
	}
	hdev->maxchild = 0;
	intf->intfdata = NULL;
	usb_dev_priv(hdev)->hub = NULL;
	hub_put(hub);
}
