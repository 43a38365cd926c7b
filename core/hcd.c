/*
 * core/hcd.c - the host controller glue, as Linux's drivers/usb/core/hcd.c:
 * the generic half of every host controller.  It owns
 *
 *   - URB submission below usb_submit_urb: the usbmon 'S' record, DMA
 *     mapping through bounce buffers in DMA memory, the hand-off to the
 *     hc_driver (or the root hub), an 'E' record on failure;
 *   - the endpoint queues (link / check unlink / unlink) and giveback:
 *     status, unmapping, the 'C' record, complete() in interrupt context;
 *   - the root hub: its descriptors (standard requests are answered here,
 *     hub-class requests go to hc_driver.hub_control) and its status URB,
 *     completed when hub_status_data reports port changes;
 *   - bring-up and removal of a controller on the simulated machine.
 *
 * Root hub URBs are given back from a softirq right after they finish, as
 * Linux's HCD_BH does; the driver's URBs from its interrupt handler.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "core/hcd.h"

/* Linux's internal mapping flags (include/linux/usb.h): set while mapped,
 * never seen in a usbmon record (mapped after 'S', unmapped before 'C'). */
#define URB_DMA_MAP_SINGLE	0x00010000
#define URB_SETUP_MAP_SINGLE	0x00100000

/* bmRequestType << 8 of the standard requests (Linux hcd.h). */
#define DeviceRequest		((USB_DIR_IN | USB_TYPE_STANDARD | \
				 USB_RECIP_DEVICE) << 8)
#define DeviceOutRequest	((USB_DIR_OUT | USB_TYPE_STANDARD | \
				 USB_RECIP_DEVICE) << 8)
#define EndpointRequest		((USB_DIR_IN | USB_TYPE_STANDARD | \
				 USB_RECIP_ENDPOINT) << 8)
#define EndpointOutRequest	((USB_DIR_OUT | USB_TYPE_STANDARD | \
				 USB_RECIP_ENDPOINT) << 8)

#define RH_POLL_NS		(250 * SIM_MS)	/* USB 2.0: 256 ms */
#define BOUNCE_HDR		64	/* free-list link and size class */
#define BOUNCE_MIN		64	/* smallest class */
#define BOUNCE_HUGE		0xff	/* class of uncached buffers */

/* ------------------------------------------------------------------------
 * Root hub descriptors (Linux hcd.c usb2_rh_dev_descriptor,
 * hs_rh_config_descriptor).
 */
static const uint8_t usb2_rh_dev_descriptor[18] = {
	0x12,		/* bLength */
	USB_DT_DEVICE,	/* bDescriptorType */
	0x00, 0x02,	/* bcdUSB: 2.0 */
	USB_CLASS_HUB,	/* bDeviceClass */
	0x00,		/* bDeviceSubClass */
	0x00,		/* bDeviceProtocol: usb 2.0 root hub, no TT */
	0x40,		/* bMaxPacketSize0: 64 */
	0x6b, 0x1d,	/* idVendor: Linux Foundation 0x1d6b */
	0x02, 0x00,	/* idProduct: 2.0 root hub 0x0002 */
	0x01, 0x06,	/* bcdDevice: the kernel version, 6.1 */
	0x03,		/* iManufacturer */
	0x02,		/* iProduct */
	0x01,		/* iSerialNumber */
	0x01,		/* bNumConfigurations */
};

static const uint8_t hs_rh_config_descriptor[25] = {
	/* one configuration */
	0x09,		/* bLength */
	USB_DT_CONFIG,	/* bDescriptorType */
	0x19, 0x00,	/* wTotalLength */
	0x01,		/* bNumInterfaces */
	0x01,		/* bConfigurationValue */
	0x00,		/* iConfiguration */
	0xe0,		/* bmAttributes: self-powered, remote wakeup (the
			 * kernel patches the wakeup bit in: PCI EHCI can) */
	0x00,		/* bMaxPower */

	/* interface */
	0x09,		/* bLength */
	USB_DT_INTERFACE, /* bDescriptorType */
	0x00,		/* bInterfaceNumber */
	0x00,		/* bAlternateSetting */
	0x01,		/* bNumEndpoints */
	USB_CLASS_HUB,	/* bInterfaceClass */
	0x00,		/* bInterfaceSubClass */
	0x00,		/* bInterfaceProtocol: single TT or none */
	0x00,		/* iInterface */

	/* one endpoint (status change endpoint) */
	0x07,		/* bLength */
	USB_DT_ENDPOINT, /* bDescriptorType */
	0x81,		/* bEndpointAddress: IN 1 */
	0x03,		/* bmAttributes: interrupt */
	0x04, 0x00,	/* wMaxPacketSize: 1 + (31 ports / 8), Linux's
			 * (USB_MAXCHILDREN + 1 + 7) / 8 */
	0x0c,		/* bInterval: 256 ms (2^11 uframes) */
};

static const uint8_t rh_langids[4] = { 4, USB_DT_STRING, 0x09, 0x04 };

/* ASCII to a string descriptor truncated to len (Linux ascii2desc). */
static unsigned
ascii2desc(const char *s, uint8_t *buf, unsigned len)
{
	unsigned	 n, t = 2 + 2 * (unsigned)strlen(s);

	if (t > 254)
		t = 254;	/* longest possible UTF string descriptor */
	if (len > t)
		len = t;
	t += USB_DT_STRING << 8;	/* now t is the first 16-bit word */
	n = len;
	while (n--) {
		*buf++ = (uint8_t)t;
		if (!n--)
			break;
		*buf++ = (uint8_t)(t >> 8);
		t = (unsigned char)*s++;
	}
	return len;
}

/* String id of the root hub (Linux rh_string): 0 LANGIDs, 1 serial (the
 * bus name), 2 product, 3 manufacturer. */
static unsigned
rh_string(int id, struct usb_hcd *hcd, uint8_t *data, unsigned len)
{
	char	 buf[100];

	switch (id) {
	case 0:
		if (len > 4)
			len = 4;
		memcpy(data, rh_langids, len);
		return len;
	case 1:
		/* the PCI name of a controller in slot 3 + busnum */
		snprintf(buf, sizeof buf, "0000:00:%02x.0",
		    3 + hcd->self.busnum);
		break;
	case 2:
		snprintf(buf, sizeof buf, "%s", hcd->product);
		break;
	default:
		snprintf(buf, sizeof buf, "Linux 6.1.0 %s",
		    hcd->driver->description);
		break;
	}
	return ascii2desc(buf, data, len);
}

/* ------------------------------------------------------------------------
 * Bounce buffers: DMA memory in power-of-two classes, kept on free lists
 * threaded through their headers, so a warm path never allocates.
 */
static int
bounce_class(size_t len)
{
	int	 c;

	for (c = 0; c < HCD_BOUNCE_CLASSES; c++)
		if (len <= (size_t)BOUNCE_MIN << c)
			return c;
	return BOUNCE_HUGE;
}

static void *
bounce_alloc(struct usb_hcd *hcd, size_t len, dma_addr_t *dma)
{
	uint8_t		*blk;
	dma_addr_t	 bdma;
	int		 c = bounce_class(len);

	if (c != BOUNCE_HUGE && hcd->bounce_free[c] != 0) {
		bdma = hcd->bounce_free[c];
		blk = dma_to_virt(hcd->dma, bdma, BOUNCE_HDR);
		hcd->bounce_free[c] = get_le32(blk);
	} else {
		blk = dma_alloc(hcd->dma, BOUNCE_HDR + (c == BOUNCE_HUGE ?
		    len : (size_t)BOUNCE_MIN << c), BOUNCE_HDR, &bdma);
		if (blk == NULL)
			return NULL;
		blk[4] = (uint8_t)c;
	}
	*dma = bdma + BOUNCE_HDR;
	return blk + BOUNCE_HDR;
}

static void
bounce_free(struct usb_hcd *hcd, dma_addr_t dma)
{
	uint8_t		*blk;
	int		 c;

	blk = dma_to_virt(hcd->dma, dma - BOUNCE_HDR, BOUNCE_HDR);
	if (blk == NULL)
		return;
	c = blk[4];
	if (c >= HCD_BOUNCE_CLASSES) {
		dma_free(hcd->dma, blk);
		return;
	}
	put_le32(blk, hcd->bounce_free[c]);
	hcd->bounce_free[c] = dma - BOUNCE_HDR;
}

static void
bounce_drain(struct usb_hcd *hcd)
{
	uint8_t		*blk;
	int		 c;

	for (c = 0; c < HCD_BOUNCE_CLASSES; c++) {
		while (hcd->bounce_free[c] != 0) {
			blk = dma_to_virt(hcd->dma, hcd->bounce_free[c],
			    BOUNCE_HDR);
			hcd->bounce_free[c] = get_le32(blk);
			dma_free(hcd->dma, blk);
		}
	}
}

/*
 * Give the controller DMA addresses for the setup packet and the buffer
 * (Linux map_urb_for_dma): OUT data is copied in now, IN data back at
 * giveback.  URB_NO_TRANSFER_DMA_MAP: transfer_dma is used as it is.
 */
static int
map_urb_for_dma(struct usb_hcd *hcd, struct urb *urb)
{
	uint8_t		*p;

	urb->setup_dma_mapped = 0;
	urb->transfer_dma_mapped = 0;
	if (usb_pipecontrol(urb->pipe) && urb->setup_packet != NULL) {
		if ((p = bounce_alloc(hcd, 8, &urb->setup_dma_mapped)) == NULL)
			return -ENOMEM;
		memcpy(p, urb->setup_packet, 8);
		urb->transfer_flags |= URB_SETUP_MAP_SINGLE;
	}
	if (urb->transfer_buffer_length == 0)
		return 0;
	if (urb->transfer_flags & URB_NO_TRANSFER_DMA_MAP) {
		urb->transfer_dma_mapped = urb->transfer_dma;
		return 0;
	}
	if (urb->transfer_buffer == NULL)
		goto fail;
	p = bounce_alloc(hcd, urb->transfer_buffer_length,
	    &urb->transfer_dma_mapped);
	if (p == NULL)
		goto fail;
	urb->transfer_flags |= URB_DMA_MAP_SINGLE;
	if (!(urb->transfer_flags & URB_DIR_IN))
		memcpy(p, urb->transfer_buffer, urb->transfer_buffer_length);
	return 0;
fail:
	if (urb->transfer_flags & URB_SETUP_MAP_SINGLE) {
		bounce_free(hcd, urb->setup_dma_mapped);
		urb->transfer_flags &= ~URB_SETUP_MAP_SINGLE;
	}
	return urb->transfer_buffer == NULL ? -EFAULT : -ENOMEM;
}

static void
unmap_urb_for_dma(struct usb_hcd *hcd, struct urb *urb)
{
	unsigned int	 n;
	uint8_t		*p;

	if (urb->transfer_flags & URB_SETUP_MAP_SINGLE)
		bounce_free(hcd, urb->setup_dma_mapped);
	if (urb->transfer_flags & URB_DMA_MAP_SINGLE) {
		if (urb->transfer_flags & URB_DIR_IN) {
			/* ISO data lies anywhere in the buffer */
			n = usb_pipeisoc(urb->pipe) ?
			    urb->transfer_buffer_length : urb->actual_length;
			if (n > urb->transfer_buffer_length)
				n = urb->transfer_buffer_length;
			p = dma_to_virt(hcd->dma, urb->transfer_dma_mapped, n);
			if (p != NULL && n != 0)
				memcpy(urb->transfer_buffer, p, n);
		}
		bounce_free(hcd, urb->transfer_dma_mapped);
	}
	urb->transfer_flags &= ~(URB_DMA_MAP_SINGLE | URB_SETUP_MAP_SINGLE);
	urb->setup_dma_mapped = 0;
	urb->transfer_dma_mapped = 0;
}

/* ------------------------------------------------------------------------
 * usbmon hooks, called where Linux's drivers/usb/core/hcd.c calls
 * usbmon_urb_submit, usbmon_urb_submit_error and usbmon_urb_complete.
 */
static void
hcd_mon(struct usb_hcd *hcd, struct urb *urb, int type, int status)
{
	struct urb_rec	 r;
	struct urb_iso	 iso[URB_ISO_MAX];
	struct sim	*s = hcd->sim;

	hcd_mon_build(urb, type, status, s->epoch_ns + s->now_ns, &r, iso);
	r.recno = s->records + 1;
	sim_emit_urb(s, &r);
}

/* ------------------------------------------------------------------------
 * Endpoint queues.
 */
static int
is_root_hub(struct usb_hcd *hcd, struct usb_device *udev)
{
	return udev == hcd->self.root_hub;
}

static int
hcd_rh_running(struct usb_hcd *hcd)
{
	return hcd->state == HC_STATE_RUNNING && hcd->rh_registered;
}


/*
 * Add urb to its endpoint's queue (the HCD calls this first thing in
 * urb_enqueue).  0, -EPERM (being killed), -ENOENT (endpoint disabled),
 * -ESHUTDOWN (controller not running).
 */
int
usb_hcd_link_urb_to_ep(struct usb_hcd *hcd, struct urb *urb)
{
	struct usb_host_endpoint *ep = urb->ep;

	if (urb->reject)
		return -EPERM;
	if (ep == NULL || !ep->enabled)
		return -ENOENT;
	if (!hcd_rh_running(hcd))
		return -ESHUTDOWN;
	if (ep->urb_list.next == NULL)
		INIT_LIST_HEAD(&ep->urb_list);
	urb->unlinked = 0;
	list_add_tail(&urb->urb_list, &ep->urb_list);
	return 0;
}

/*
 * May urb be unlinked with status?  0 (and urb->unlinked = status),
 * -EIDRM (not queued: done or never submitted), -EBUSY (unlinking).
 */
int
usb_hcd_check_unlink_urb(struct usb_hcd *hcd, struct urb *urb, int status)
{
	struct list_head *tmp;

	(void)hcd;
	if (urb->ep == NULL || urb->ep->urb_list.next == NULL)
		return -EIDRM;
	for (tmp = urb->ep->urb_list.next; tmp != &urb->ep->urb_list;
	    tmp = tmp->next)
		if (tmp == &urb->urb_list)
			break;
	if (tmp != &urb->urb_list)
		return -EIDRM;
	/* any status except -EINPROGRESS means something already started
	 * to unlink this URB from the hardware */
	if (urb->unlinked)
		return -EBUSY;
	urb->unlinked = status;
	return 0;
}

void
usb_hcd_unlink_urb_from_ep(struct usb_hcd *hcd, struct urb *urb)
{
	(void)hcd;
	if (urb->urb_list.next != NULL)
		list_del_init(&urb->urb_list);
}

/* ------------------------------------------------------------------------
 * Giveback.
 */
static void
__usb_hcd_giveback_urb(struct usb_hcd *hcd, struct urb *urb)
{
	struct sim	*s = hcd->sim;
	enum sim_ctx	 saved;
	int		 status = urb->unlinked;

	urb->hcpriv = NULL;
	if ((urb->transfer_flags & URB_SHORT_NOT_OK) &&
	    urb->actual_length < urb->transfer_buffer_length && status == 0)
		status = -EREMOTEIO;

	unmap_urb_for_dma(hcd, urb);
	hcd_mon(hcd, urb, 'C', status);
	/* a STALL halts a bulk or interrupt endpoint until the host
	 * clears it (USB 2.0 8.4.5, 9.4.5); ep0's lasts one request */
	if (status == -EPIPE && urb->dev != NULL &&
	    (usb_pipebulk(urb->pipe) || usb_pipeint(urb->pipe)))
		urb->dev->halted[usb_pipeout(urb->pipe) ? 1 : 0] |=
		    1u << usb_pipeendpoint(urb->pipe);

	/* pass ownership to the completion handler */
	urb->status = status;
	saved = s->ctx;
	s->ctx = SIM_IRQ;
	core_urb_giveback(urb, status);	/* complete() in its driver's name */
	s->ctx = saved;

	urb->use_count--;
	usb_free_urb(urb);	/* the reference submit took */
}

/* The root hub's finished URBs, given back from a softirq (HCD_BH). */
static void
hcd_giveback_bh(void *arg)
{
	struct usb_hcd	*hcd = arg;
	struct urb	*urb;

	while (!list_empty(&hcd->giveback_list)) {
		urb = container_of(hcd->giveback_list.next, struct urb,
		    urb_list);
		list_del_init(&urb->urb_list);
		__usb_hcd_giveback_urb(hcd, urb);
	}
}

/*
 * Return an URB to its driver: status (or the unlink status), unmap,
 * usbmon 'C', complete() in interrupt context.  The HCD unlinked it from
 * its endpoint first.
 */
void
usb_hcd_giveback_urb(struct usb_hcd *hcd, struct urb *urb, int status)
{
	if (!urb->unlinked)
		urb->unlinked = status;
	if (!is_root_hub(hcd, urb->dev)) {
		__usb_hcd_giveback_urb(hcd, urb);
		return;
	}
	list_add_tail(&urb->urb_list, &hcd->giveback_list);
	if (!hcd->giveback_timer.pending)
		sim_timer_add(hcd->sim, &hcd->giveback_timer,
		    hcd->sim->now_ns);
}

/* ------------------------------------------------------------------------
 * The root hub.
 */

/* Control requests to the root hub (Linux rh_call_control). */
static int
rh_call_control(struct usb_hcd *hcd, struct urb *urb)
{
	const struct usb_ctrlrequest *cmd;
	const uint8_t	*bufp;
	uint8_t		 tbuf[256], *ubuf;
	u16		 typeReq, wValue, wIndex, wLength;
	unsigned	 len = 0;
	int		 status;

	if (urb->setup_packet == NULL)
		return -ENOEXEC;
	if ((status = usb_hcd_link_urb_to_ep(hcd, urb)) != 0)
		return status;
	urb->hcpriv = hcd;	/* indicate it's queued */

	cmd = (const struct usb_ctrlrequest *)(const void *)urb->setup_packet;
	typeReq = (u16)(cmd->bRequestType << 8 | cmd->bRequest);
	wValue = get_le16(urb->setup_packet + 2);
	wIndex = get_le16(urb->setup_packet + 4);
	wLength = get_le16(urb->setup_packet + 6);
	ubuf = urb->transfer_buffer;
	if (ubuf == NULL && urb->transfer_buffer_length != 0)
		ubuf = dma_to_virt(hcd->dma, urb->transfer_dma,
		    urb->transfer_buffer_length);

	memset(tbuf, 0, sizeof tbuf);
	bufp = tbuf;
	urb->actual_length = 0;
	status = 0;
	if (wLength > urb->transfer_buffer_length ||
	    (wLength != 0 && ubuf == NULL))
		goto error;

	switch (typeReq) {
	/* device requests */
	case DeviceRequest | USB_REQ_GET_STATUS:
		/* self powered; remote wakeup not enabled */
		tbuf[0] = 1 << 0;
		tbuf[1] = 0;
		len = 2;
		break;
	case DeviceOutRequest | USB_REQ_CLEAR_FEATURE:
	case DeviceOutRequest | USB_REQ_SET_FEATURE:
		if (wValue != USB_DEVICE_REMOTE_WAKEUP)
			goto error;
		break;
	case DeviceRequest | USB_REQ_GET_CONFIGURATION:
		tbuf[0] = 1;
		len = 1;
		break;
	case DeviceOutRequest | USB_REQ_SET_CONFIGURATION:
		break;
	case DeviceRequest | USB_REQ_GET_DESCRIPTOR:
		switch (wValue & 0xff00) {
		case USB_DT_DEVICE << 8:
			bufp = usb2_rh_dev_descriptor;
			len = sizeof usb2_rh_dev_descriptor;
			break;
		case USB_DT_CONFIG << 8:
			bufp = hs_rh_config_descriptor;
			len = sizeof hs_rh_config_descriptor;
			break;
		case USB_DT_STRING << 8:
			if ((wValue & 0xff) >= 4)
				goto error;	/* "protocol stall" */
			len = rh_string(wValue & 0xff, hcd, tbuf,
			    wLength < sizeof tbuf ? wLength : sizeof tbuf);
			break;
		case USB_DT_BOS << 8:
			goto nongeneric;
		default:
			goto error;
		}
		break;
	case DeviceRequest | USB_REQ_GET_INTERFACE:
		tbuf[0] = 0;
		len = 1;
		break;
	case DeviceOutRequest | USB_REQ_SET_INTERFACE:
		break;
	case DeviceOutRequest | USB_REQ_SET_ADDRESS:
		/* wValue == urb->dev->devaddr */
		break;
	/* endpoint requests: no endpoint features */
	case EndpointRequest | USB_REQ_GET_STATUS:
		tbuf[0] = 0;
		tbuf[1] = 0;
		len = 2;
		break;
	case EndpointOutRequest | USB_REQ_CLEAR_FEATURE:
	case EndpointOutRequest | USB_REQ_SET_FEATURE:
		break;
	default:
nongeneric:
		/* class requests (and errors): the driver's */
		status = hcd->driver->hub_control(hcd, typeReq, wValue, wIndex,
		    (char *)tbuf, wLength < sizeof tbuf ? wLength :
		    (u16)sizeof tbuf);
		if (status > (int)sizeof tbuf)
			status = (int)sizeof tbuf;
		break;
error:
		/* "protocol stall" on error */
		status = -EPIPE;
	}

	if (status < 0)
		len = 0;
	else if (status > 0) {
		/* hub_control returns the length of data copied */
		len = (unsigned)status;
		status = 0;
	}
	if (len != 0) {
		if (urb->transfer_buffer_length < len)
			len = urb->transfer_buffer_length;
		urb->actual_length = len;
		/* always USB_DIR_IN, toward host */
		memcpy(ubuf, bufp, len);
	}

	/* any errors get returned through the URB completion */
	usb_hcd_unlink_urb_from_ep(hcd, urb);
	usb_hcd_giveback_urb(hcd, urb, status);
	return 0;
}

/* The root hub's status URB waits for a port change (Linux
 * rh_queue_status). */
static int
rh_queue_status(struct usb_hcd *hcd, struct urb *urb)
{
	unsigned	 len = 1 + (unsigned)urb->dev->maxchild / 8;
	int		 rc;

	if (hcd->status_urb != NULL || urb->transfer_buffer_length < len ||
	    urb->transfer_buffer == NULL)
		return -EINVAL;
	if ((rc = usb_hcd_link_urb_to_ep(hcd, urb)) != 0)
		return rc;
	hcd->status_urb = urb;
	urb->hcpriv = hcd;	/* indicate it's queued */
	/* if a status change has already occurred, report it ASAP */
	if (hcd->flags & HCD_FLAG_POLL_PENDING)
		sim_timer_add(hcd->sim, &hcd->rh_timer, hcd->sim->now_ns);
	return 0;
}

static int
rh_urb_enqueue(struct usb_hcd *hcd, struct urb *urb)
{
	unsigned	 type = urb->ep != NULL ? urb->ep->desc.bmAttributes &
	    USB_ENDPOINT_XFERTYPE_MASK : usb_pipetype(urb->pipe) ==
	    PIPE_CONTROL ? USB_ENDPOINT_XFER_CONTROL : USB_ENDPOINT_XFER_INT;

	if (type == USB_ENDPOINT_XFER_INT)
		return rh_queue_status(hcd, urb);
	if (type == USB_ENDPOINT_XFER_CONTROL)
		return rh_call_control(hcd, urb);
	return -EINVAL;
}

static int
usb_rh_urb_dequeue(struct usb_hcd *hcd, struct urb *urb, int status)
{
	int	 rc;

	if ((rc = usb_hcd_check_unlink_urb(hcd, urb, status)) != 0)
		return rc;
	/* control URBs finish on their own; the status URB goes now */
	if (urb == hcd->status_urb) {
		hcd->status_urb = NULL;
		usb_hcd_unlink_urb_from_ep(hcd, urb);
		usb_hcd_giveback_urb(hcd, urb, status);
	}
	return 0;
}

/*
 * Ask the driver for port changes; complete the status URB with the
 * bitmap, or remember that a change waits for one (Linux
 * usb_hcd_poll_rh_status).  Any context.
 */
void
usb_hcd_poll_rh_status(struct usb_hcd *hcd)
{
	struct urb	*urb;
	char		 buffer[6];	/* any root hubs with > 31 ports? */
	int		 length, status;

	/* pollable from the driver's start until removal (rh_pollable) */
	if (!hcd->rh_registered)
		return;
	length = hcd->driver->hub_status_data(hcd, buffer);
	if (length > 0) {
		/* try to complete the status urb */
		if ((urb = hcd->status_urb) != NULL) {
			hcd->flags &= ~HCD_FLAG_POLL_PENDING;
			hcd->status_urb = NULL;
			if (urb->transfer_buffer_length >= (unsigned)length)
				status = 0;
			else {
				status = -EOVERFLOW;
				length = 0;
			}
			urb->actual_length = (unsigned)length;
			memcpy(urb->transfer_buffer, buffer, (size_t)length);
			usb_hcd_unlink_urb_from_ep(hcd, urb);
			usb_hcd_giveback_urb(hcd, urb, status);
		} else
			hcd->flags |= HCD_FLAG_POLL_PENDING;
	}
	/* drivers that cannot interrupt on port changes are polled every
	 * quarter second, on quarter-second boundaries */
	if (hcd->flags & HCD_FLAG_POLL_RH)
		sim_timer_add(hcd->sim, &hcd->rh_timer,
		    (hcd->sim->now_ns / RH_POLL_NS + 1) * RH_POLL_NS);
}

static void
rh_timer_func(void *arg)
{
	usb_hcd_poll_rh_status(arg);
}

/*
 * The root hub device (Linux usb_add_hcd's usb_alloc_dev and
 * register_root_hub): the core's device, at address 1, high speed.  The
 * core's usb_new_device marks the address used and moves it to ADDRESS.
 */
struct usb_device *
usb_hcd_alloc_root_hub(struct usb_hcd *hcd)
{
	struct usb_device *udev;

	if ((udev = usb_alloc_dev(NULL, &hcd->self, 0)) == NULL)
		return NULL;
	udev->devnum = 1;
	udev->speed = USB_SPEED_HIGH;
	udev->ep0.desc.wMaxPacketSize = cpu_to_le16(64);
	udev->descriptor.bMaxPacketSize0 = 64;
	return udev;
}

/* ------------------------------------------------------------------------
 * Submit and unlink.
 */

/* Cache the transfer direction in the flags, as usb_submit_urb does:
 * control transfers go where their data stage goes. */
static void
urb_set_dir(struct urb *urb)
{
	const uint8_t	*s = urb->setup_packet;
	int		 is_out;

	if (usb_pipecontrol(urb->pipe) && s != NULL)
		is_out = !(s[0] & USB_DIR_IN) || get_le16(s + 6) == 0;
	else if (urb->ep != NULL && !usb_pipecontrol(urb->pipe))
		is_out = !(urb->ep->desc.bEndpointAddress & USB_DIR_IN);
	else
		is_out = usb_pipeout(urb->pipe);
	if (is_out)
		urb->transfer_flags &= ~URB_DIR_IN;
	else
		urb->transfer_flags |= URB_DIR_IN;
}

int
usb_hcd_submit_urb(struct urb *urb, gfp_t mem_flags)
{
	struct usb_hcd	*hcd;
	int		 status;

	if (urb == NULL || urb->dev == NULL || urb->dev->bus == NULL ||
	    (hcd = bus_to_hcd(urb->dev->bus)) == NULL)
		return -ENODEV;

	/* the HCD holds a reference until the giveback */
	usb_get_urb(urb);
	urb->use_count++;
	urb_set_dir(urb);
	hcd_mon(hcd, urb, 'S', -EINPROGRESS);

	if (urb->ep == NULL)
		status = -ENOENT;
	else if (is_root_hub(hcd, urb->dev))
		status = rh_urb_enqueue(hcd, urb);
	else if (hcd->state != HC_STATE_RUNNING)
		status = -ESHUTDOWN;
	else if ((status = map_urb_for_dma(hcd, urb)) == 0) {
		status = hcd->driver->urb_enqueue(hcd, urb, mem_flags);
		if (status != 0)
			unmap_urb_for_dma(hcd, urb);
	}

	if (status != 0) {
		hcd_mon(hcd, urb, 'E', status);
		urb->hcpriv = NULL;
		INIT_LIST_HEAD(&urb->urb_list);
		urb->use_count--;
		usb_free_urb(urb);
	}
	return status;
}

static int
unlink1(struct usb_hcd *hcd, struct urb *urb, int status)
{
	if (is_root_hub(hcd, urb->dev))
		return usb_rh_urb_dequeue(hcd, urb, status);
	/* the only reason an HCD might fail this call is if it has not yet
	 * fully queued the urb to begin with: harmless */
	return hcd->driver->urb_dequeue(hcd, urb, status);
}

/*
 * Start unlinking urb with status (-ECONNRESET for usb_unlink_urb,
 * -ENOENT for usb_kill_urb).  -EINPROGRESS when started; -EIDRM when it
 * is not queued; -EBUSY when already being unlinked.
 */
int
usb_hcd_unlink_urb(struct urb *urb, int status)
{
	struct usb_hcd	*hcd;
	int		 retval;

	if (urb->use_count <= 0 || urb->dev == NULL || urb->dev->bus == NULL)
		return -EIDRM;
	hcd = bus_to_hcd(urb->dev->bus);
	retval = unlink1(hcd, urb, status);
	return retval == 0 ? -EINPROGRESS : retval;
}

static int
ep_queue_empty(void *arg)
{
	struct usb_host_endpoint *ep = arg;

	return list_empty(&ep->urb_list);
}

/*
 * Flush the endpoint's URBs (-ESHUTDOWN) and tell the driver to forget it
 * (Linux usb_hcd_flush_endpoint + usb_hcd_disable_endpoint).  In task
 * context it waits until every URB was given back.
 */
void
usb_hcd_disable_endpoint(struct usb_device *udev,
    struct usb_host_endpoint *ep)
{
	struct usb_hcd	*hcd;
	struct list_head *l;
	struct urb	*urb;
	struct sim	*s;
	int		 guard;

	if (ep == NULL || udev == NULL || udev->bus == NULL)
		return;
	hcd = bus_to_hcd(udev->bus);
	s = hcd->sim;
	if (ep->urb_list.next == NULL)
		INIT_LIST_HEAD(&ep->urb_list);

	/* kick the HCD, newest first; the list changes under us */
	for (guard = 0; guard < 100000; guard++) {
		urb = NULL;
		for (l = ep->urb_list.prev; l != &ep->urb_list; l = l->prev) {
			urb = container_of(l, struct urb, urb_list);
			if (!urb->unlinked)
				break;
			urb = NULL;
		}
		if (urb == NULL)
			break;
		usb_get_urb(urb);
		if (unlink1(hcd, urb, -ESHUTDOWN) != 0 && !urb->unlinked)
			urb->unlinked = -ESHUTDOWN;	/* don't spin on it */
		usb_free_urb(urb);
	}

	/* wait until the endpoint queue is completely empty */
	if (!list_empty(&ep->urb_list) && sim_may_sleep(s))
		(void)sim_wait(s, ep_queue_empty, ep, s->now_ns + 1000 *
		    SIM_MS);

	if (hcd->driver->endpoint_disable != NULL &&
	    !is_root_hub(hcd, udev))
		hcd->driver->endpoint_disable(hcd, ep);
}

/* ------------------------------------------------------------------------
 * The controller's life.
 */
static void
hcd_irq(void *arg)
{
	struct usb_hcd	*hcd = arg;

	if (hcd->state == HC_STATE_HALT)
		return;
	(void)hcd->driver->irq(hcd);
}

struct usb_hcd *
usb_create_hcd(struct sim *sim, const struct hc_driver *drv,
    const struct hcd_mmio_ops *mmio, void *hw, const struct sim_hw_ops *hwops,
    struct dma_mem *dma, int busnum)
{
	struct usb_hcd	*hcd;

	if ((hcd = calloc(1, sizeof *hcd + drv->hcd_priv_size)) == NULL)
		return NULL;
	hcd->self.busnum = busnum;
	hcd->self.hcd = hcd;
	hcd->self.devnum_next = 1;
	hcd->driver = drv;
	hcd->sim = sim;
	hcd->mmio = mmio;
	hcd->hw = hw;
	hcd->dma = dma;
	hcd->simhw.ops = hwops;
	hcd->simhw.hw = hw;
	hcd->simhw.irq_handler = hcd_irq;
	hcd->simhw.irq_arg = hcd;
	hcd->state = HC_STATE_HALT;
	hcd->rh_timer.fn = rh_timer_func;
	hcd->rh_timer.arg = hcd;
	hcd->giveback_timer.fn = hcd_giveback_bh;
	hcd->giveback_timer.arg = hcd;
	INIT_LIST_HEAD(&hcd->giveback_list);
	snprintf(hcd->product, sizeof hcd->product, "%s",
	    drv->product_desc != NULL ? drv->product_desc : "USB Host");
	return hcd;
}

/*
 * Reset and start the controller, wire its interrupt line, then register
 * its root hub: usb_new_device enumerates it and the core's hub driver
 * takes over (Linux usb_add_hcd).  Task context.  0 or -errno.
 */
int
usb_add_hcd(struct usb_hcd *hcd)
{
	struct usb_device *rhdev;
	int		 rc;

	if ((rhdev = usb_hcd_alloc_root_hub(hcd)) == NULL)
		return -ENOMEM;
	hcd->self.root_hub = rhdev;
	if ((rc = hcd->driver->reset(hcd)) != 0)
		goto err_reset;
	/* request_irq: the simulator now clocks it and delivers its irq */
	sim_add_hw(hcd->sim, &hcd->simhw);
	/* port changes during start are remembered (rh_pollable) */
	hcd->rh_registered = 1;
	if ((rc = hcd->driver->start(hcd)) != 0)
		goto err_start;
	hcd->state = HC_STATE_RUNNING;

	/* register_root_hub: from here on the core talks to it */
	if ((rc = usb_new_device(rhdev)) != 0)
		goto err_register;
	if (hcd->flags & HCD_FLAG_POLL_RH)
		usb_hcd_poll_rh_status(hcd);
	return 0;

err_register:
	hcd->state = HC_STATE_QUIESCING;
	hcd->rh_registered = 0;
	/* usb_disconnect drops the root hub's last reference */
	usb_disconnect(&rhdev);
	hcd->self.root_hub = NULL;
	hcd->driver->stop(hcd);
	hcd_giveback_bh(hcd);
	goto err_hw;
err_start:
	hcd->rh_registered = 0;
	hcd->driver->stop(hcd);
err_hw:
	sim_remove_hw(hcd->sim, &hcd->simhw);
	sim_timer_del(hcd->sim, &hcd->rh_timer);
	sim_timer_del(hcd->sim, &hcd->giveback_timer);
err_reset:
	hcd->state = HC_STATE_HALT;
	if ((rhdev = hcd->self.root_hub) != NULL) {
		hcd->self.root_hub = NULL;
		usb_put_dev(rhdev);
	}
	return rc;
}

/*
 * Disconnect the root hub (and everything below it: drivers unbind, URBs
 * go back with -ESHUTDOWN), then stop the controller (Linux
 * usb_remove_hcd).  Task context.
 */
void
usb_remove_hcd(struct usb_hcd *hcd)
{
	struct usb_device *rhdev = hcd->self.root_hub;

	if (rhdev == NULL)
		return;
	usb_get_dev(rhdev);
	if (hcd->state == HC_STATE_RUNNING)
		hcd->state = HC_STATE_QUIESCING;
	hcd->rh_registered = 0;
	usb_disconnect(&rhdev);		/* sets rhdev to NULL */

	/* no more root hub status polls */
	hcd->flags &= ~(HCD_FLAG_POLL_RH | HCD_FLAG_POLL_PENDING);
	sim_timer_del(hcd->sim, &hcd->rh_timer);

	hcd->driver->stop(hcd);
	hcd->state = HC_STATE_HALT;
	sim_timer_del(hcd->sim, &hcd->rh_timer);
	sim_remove_hw(hcd->sim, &hcd->simhw);

	/* root hub URBs still waiting for their softirq go now */
	sim_timer_del(hcd->sim, &hcd->giveback_timer);
	hcd_giveback_bh(hcd);

	/* usb_put_invalidate_rhdev */
	rhdev = hcd->self.root_hub;
	hcd->self.root_hub = NULL;
	usb_put_dev(rhdev);
}

void
usb_put_hcd(struct usb_hcd *hcd)
{
	if (hcd == NULL)
		return;
	sim_timer_del(hcd->sim, &hcd->rh_timer);
	sim_timer_del(hcd->sim, &hcd->giveback_timer);
	bounce_drain(hcd);
	free(hcd);
}
