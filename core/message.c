/*
 * core/message.c - synchronous messages on top of the asynchronous URB
 * path (drivers/usb/core/message.c of Linux 6.1): usb_control_msg,
 * usb_bulk_msg, descriptors and strings, clear_halt, set_interface and
 * the core's set_configuration.
 *
 * "Synchronous" means: allocate an URB, submit it, run the simulated
 * machine (sim_wait) until its completion ran or the timeout passed; on
 * timeout the URB is killed and -ETIMEDOUT returned.  Task context only.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "core/hcd.h"

#define USB_MAXCONFIG		8
#define MAX_USB_STRING_SIZE	(127 * 3 + 1)	/* UTF-8 of 126 units */

struct api_context {
	int		 done;
	int		 status;
};

/* Completion of the synchronous calls, in interrupt context. */
static void
api_blocking_completion(struct urb *urb)
{
	struct api_context *ctx = urb->context;

	if (ctx == NULL)
		return;		/* the waiter gave up (see start_wait_urb) */
	ctx->status = urb->status;
	ctx->done = 1;
}

static int
api_done(void *arg)
{
	return ((struct api_context *)arg)->done;
}

/*
 * Submit urb and wait for it (timeout in ms, 0 = forever).  Consumes the
 * caller's reference.  Returns the completion status, -ETIMEDOUT, or the
 * submit error; *actual_length gets the bytes transferred.
 */
static int
start_wait_urb(struct urb *urb, int timeout, int *actual_length)
{
	struct sim	*s = core_sim();
	struct api_context ctx;
	uint64_t	 deadline = 0;
	int		 retval;

	memset(&ctx, 0, sizeof ctx);
	urb->context = &ctx;
	urb->actual_length = 0;
	if (s == NULL || !core_may_sleep("usb_start_wait_urb")) {
		retval = -EWOULDBLOCK;
		goto out;
	}
	if ((retval = usb_submit_urb(urb, GFP_NOIO)) != 0)
		goto out;
	if (timeout > 0)
		deadline = s->now_ns + (uint64_t)timeout * SIM_MS;
	(void)sim_wait(s, api_done, &ctx, deadline);
	if (!ctx.done) {
		usb_kill_urb(urb);
		if (!ctx.done) {
			/* the machine cannot finish it: let it go */
			urb->context = NULL;
			retval = -ETIMEDOUT;
			goto out;
		}
		retval = ctx.status == -ENOENT ? -ETIMEDOUT : ctx.status;
	} else
		retval = ctx.status;
out:
	if (actual_length != NULL)
		*actual_length = (int)urb->actual_length;
	usb_free_urb(urb);
	return retval;
}

/*
 * A control transfer on ep0 of dev.  Returns the bytes transferred or a
 * negative errno (the statuses of Linux's
 * Documentation/driver-api/usb/error-codes.rst; -ETIMEDOUT after timeout
 * ms).
 */
int
usb_control_msg(struct usb_device *dev, unsigned int pipe, u8 request,
    u8 requesttype, u16 value, u16 index, void *data, u16 size, int timeout)
{
	struct usb_ctrlrequest *dr;
	struct urb	*urb;
	int		 ret, length;

	if (dev == NULL)
		return -ENODEV;
	if ((dr = malloc(sizeof *dr)) == NULL)
		return -ENOMEM;
	dr->bRequestType = requesttype;
	dr->bRequest = request;
	dr->wValue = cpu_to_le16(value);
	dr->wIndex = cpu_to_le16(index);
	dr->wLength = cpu_to_le16(size);
	if ((urb = usb_alloc_urb(0, GFP_NOIO)) == NULL) {
		free(dr);
		return -ENOMEM;
	}
	usb_fill_control_urb(urb, dev, pipe, (unsigned char *)dr, data, size,
	    api_blocking_completion, NULL);
	/* keep the URB (and so dr) alive if it could not be finished */
	usb_get_urb(urb);
	ret = start_wait_urb(urb, timeout, &length);
	if (urb->use_count == 0) {
		usb_free_urb(urb);
		free(dr);
	}
	return ret < 0 ? ret : length;
}

/* An OUT control request with size bytes copied from data (which may sit
 * on the stack): 0 or -errno. */
int
usb_control_msg_send(struct usb_device *dev, u8 endpoint, u8 request,
    u8 requesttype, u16 value, u16 index, const void *data, u16 size,
    int timeout)
{
	void	*buf = NULL;
	int	 ret;

	if (size > 0) {
		if ((buf = malloc(size)) == NULL)
			return -ENOMEM;
		memcpy(buf, data, size);
	}
	ret = usb_control_msg(dev, usb_sndctrlpipe(dev, endpoint), request,
	    requesttype, value, index, buf, size, timeout);
	free(buf);
	return ret < 0 ? ret : 0;
}

/*
 * A bulk transfer; an interrupt endpoint gets an interrupt URB with the
 * endpoint's interval, as Linux does.  0 or -errno; *actual_length set.
 */
int
usb_bulk_msg(struct usb_device *dev, unsigned int pipe, void *data, int len,
    int *actual_length, int timeout)
{
	struct usb_host_endpoint *ep;
	struct urb	*urb;

	if (dev == NULL || (ep = usb_pipe_endpoint(dev, pipe)) == NULL ||
	    len < 0)
		return -EINVAL;
	if ((urb = usb_alloc_urb(0, GFP_KERNEL)) == NULL)
		return -ENOMEM;
	if ((ep->desc.bmAttributes & USB_ENDPOINT_XFERTYPE_MASK) ==
	    USB_ENDPOINT_XFER_INT) {
		pipe = (pipe & ~(3u << 30)) | ((unsigned int)PIPE_INTERRUPT <<
		    30);
		usb_fill_int_urb(urb, dev, pipe, data, len,
		    api_blocking_completion, NULL, ep->desc.bInterval);
	} else
		usb_fill_bulk_urb(urb, dev, pipe, data, len,
		    api_blocking_completion, NULL);
	return start_wait_urb(urb, timeout, actual_length);
}

int
usb_interrupt_msg(struct usb_device *dev, unsigned int pipe, void *data,
    int len, int *actual_length, int timeout)
{
	return usb_bulk_msg(dev, pipe, data, len, actual_length, timeout);
}

/*
 * GET_DESCRIPTOR(type, index) of size bytes into buf, up to three tries
 * on errors and empty answers.  Bytes read or -errno (-ENODATA when the
 * answer is of another type).
 */
int
usb_get_descriptor(struct usb_device *dev, unsigned char type,
    unsigned char index, void *buf, int size)
{
	int	 i, result = -EINVAL;

	if (size <= 0 || size > 0xffff)
		return -EINVAL;
	memset(buf, 0, (size_t)size);
	for (i = 0; i < 3; i++) {
		result = usb_control_msg(dev, usb_rcvctrlpipe(dev, 0),
		    USB_REQ_GET_DESCRIPTOR, USB_DIR_IN, (u16)((type << 8) +
		    index), 0, buf, (u16)size, USB_CTRL_GET_TIMEOUT);
		if (result <= 0 && result != -ETIMEDOUT)
			continue;
		if (result > 1 && ((uint8_t *)buf)[1] != type) {
			result = -ENODATA;
			continue;
		}
		break;
	}
	return result;
}

/* The device descriptor, field by field from the wire bytes. */
static void
parse_device_descriptor(const uint8_t *b, struct usb_device_descriptor *d)
{
	d->bLength = b[0];
	d->bDescriptorType = b[1];
	d->bcdUSB = get_le16(b + 2);
	d->bDeviceClass = b[4];
	d->bDeviceSubClass = b[5];
	d->bDeviceProtocol = b[6];
	d->bMaxPacketSize0 = b[7];
	d->idVendor = get_le16(b + 8);
	d->idProduct = get_le16(b + 10);
	d->bcdDevice = get_le16(b + 12);
	d->iManufacturer = b[14];
	d->iProduct = b[15];
	d->iSerialNumber = b[16];
	d->bNumConfigurations = b[17];
}

/* GET_DESCRIPTOR(DEVICE, size) into udev->descriptor: bytes or -errno. */
int
usb_get_device_descriptor(struct usb_device *udev, unsigned int size)
{
	uint8_t	 buf[USB_DT_DEVICE_SIZE];
	int	 ret;

	if (size > sizeof buf)
		return -EINVAL;
	ret = usb_get_descriptor(udev, USB_DT_DEVICE, 0, buf, (int)size);
	if (ret >= 0 && size == sizeof buf)
		parse_device_descriptor(buf, &udev->descriptor);
	return ret;
}

/* BOS header (5) then the whole set, kept raw.  0 or -errno. */
int
usb_get_bos_descriptor(struct usb_device *udev)
{
	struct usb_device_priv *p = usb_dev_priv(udev);
	uint8_t		 hdr[5], *buf;
	int		 ret, total;

	ret = usb_get_descriptor(udev, USB_DT_BOS, 0, hdr, sizeof hdr);
	if (ret < (int)sizeof hdr || hdr[0] < sizeof hdr) {
		core_log(udev, NULL, "usb", __func__, "unable to get BOS "
		    "descriptor or descriptor too short");
		return ret < 0 ? ret : -ENOMSG;
	}
	total = get_le16(hdr + 2);
	if (total < (int)sizeof hdr)
		return -EINVAL;
	if ((buf = malloc((size_t)total)) == NULL)
		return -ENOMEM;
	ret = usb_get_descriptor(udev, USB_DT_BOS, 0, buf, total);
	if (ret < total) {
		core_log(udev, NULL, "usb", __func__, "unable to get BOS "
		    "descriptor set");
		free(buf);
		return ret < 0 ? ret : -ENOMSG;
	}
	free(p->bos);
	p->bos = buf;
	p->bos_len = (size_t)total;
	return 0;
}

/*
 * Every configuration: its 9-byte header for wTotalLength, then the whole
 * of it, parsed (Linux's usb_get_configuration).  0 or -errno.
 */
int
usb_get_configuration(struct usb_device *udev)
{
	struct usb_device_priv *p = usb_dev_priv(udev);
	uint8_t		 hdr[USB_DT_CONFIG_SIZE], *big;
	int		 ncfg, cfgno, result, length;

	ncfg = udev->descriptor.bNumConfigurations;
	if (ncfg > USB_MAXCONFIG) {
		core_log(udev, NULL, "usb", __func__, "too many "
		    "configurations: %d, using maximum allowed: %d", ncfg,
		    USB_MAXCONFIG);
		udev->descriptor.bNumConfigurations = ncfg = USB_MAXCONFIG;
	}
	if (ncfg < 1) {
		core_log(udev, NULL, "usb", __func__, "no configurations");
		return -EINVAL;
	}
	udev->config = calloc((size_t)ncfg, sizeof *udev->config);
	p->cache = calloc((size_t)ncfg, sizeof *p->cache);
	if (udev->config == NULL || p->cache == NULL)
		return -ENOMEM;
	p->nconfig = ncfg;

	for (cfgno = 0; cfgno < ncfg; cfgno++) {
		result = usb_get_descriptor(udev, USB_DT_CONFIG, (u8)cfgno,
		    hdr, USB_DT_CONFIG_SIZE);
		if (result < 0) {
			core_log(udev, NULL, "usb", __func__, "unable to read "
			    "config index %d descriptor/start: %d", cfgno,
			    result);
			if (result != -EPIPE)
				return result;
			core_log(udev, NULL, "usb", __func__, "chopping to %d "
			    "config(s)", cfgno);
			udev->descriptor.bNumConfigurations = (u8)cfgno;
			p->nconfig = cfgno;
			break;
		} else if (result < 4) {
			core_log(udev, NULL, "usb", __func__, "config index %d "
			    "descriptor too short (expected %d, got %d)", cfgno,
			    USB_DT_CONFIG_SIZE, result);
			return -EINVAL;
		}
		length = get_le16(hdr + 2);
		if (length < USB_DT_CONFIG_SIZE)
			length = USB_DT_CONFIG_SIZE;
		if ((big = malloc((size_t)length)) == NULL)
			return -ENOMEM;
		result = usb_get_descriptor(udev, USB_DT_CONFIG, (u8)cfgno, big,
		    length);
		if (result < 0) {
			core_log(udev, NULL, "usb", __func__, "unable to read "
			    "config index %d descriptor/all", cfgno);
			free(big);
			return result;
		}
		if (result < length) {
			core_log(udev, NULL, "usb", __func__, "config index %d "
			    "descriptor too short (expected %d, got %d)", cfgno,
			    length, result);
			length = result;
		}
		udev->config[cfgno].raw = big;
		udev->config[cfgno].rawlen = (size_t)length;
		if ((result = usb_parse_configuration(udev, cfgno, big,
		    (size_t)length)) < 0)
			return result;
	}
	return 0;
}

/* GET_DESCRIPTOR(STRING) with Linux's retries on empty or stalled reads. */
static int
usb_get_string(struct usb_device *dev, unsigned short langid,
    unsigned char index, uint8_t *buf, int size)
{
	int	 i, result = -EINVAL;

	if (size <= 0)
		return -EINVAL;
	for (i = 0; i < 3; i++) {
		result = usb_control_msg(dev, usb_rcvctrlpipe(dev, 0),
		    USB_REQ_GET_DESCRIPTOR, USB_DIR_IN, (u16)((USB_DT_STRING <<
		    8) + index), langid, buf, (u16)size, USB_CTRL_GET_TIMEOUT);
		if (result == 0 || result == -EPIPE)
			continue;
		if (result > 1 && buf[1] != USB_DT_STRING) {
			result = -ENODATA;
			continue;
		}
		break;
	}
	return result;
}

/* Read string index with wLength 255 (then 2 + bLength for devices that
 * refuse that); bytes of the descriptor (even, >= 2) or -errno. */
static int
usb_string_sub(struct usb_device *dev, unsigned int langid,
    unsigned int index, uint8_t *buf)
{
	int	 rc;

	rc = usb_get_string(dev, (unsigned short)langid, (unsigned char)index,
	    buf, 255);
	if (rc < 2) {
		rc = usb_get_string(dev, (unsigned short)langid,
		    (unsigned char)index, buf, 2);
		if (rc == 2)
			rc = usb_get_string(dev, (unsigned short)langid,
			    (unsigned char)index, buf, buf[0]);
	}
	if (rc >= 2) {
		if (buf[0] < rc)
			rc = buf[0];	/* junk after the descriptor */
		rc -= rc & 1;
	}
	if (rc < 2)
		rc = rc < 0 ? rc : -EINVAL;
	return rc;
}

/* The first LANGID of string 0, read once per device. */
static int
usb_get_langid(struct usb_device *dev, uint8_t *tbuf)
{
	struct usb_device_priv *p = usb_dev_priv(dev);
	int		 err;

	if (p->have_langid)
		return 0;
	if (p->string_langid < 0)
		return -EPIPE;
	err = usb_string_sub(dev, 0, 0, tbuf);
	if (err == -ENODATA || (err > 0 && err < 4)) {
		p->string_langid = 0x0409;
		p->have_langid = 1;
		core_log(dev, NULL, "usb", "usb_string", "language id "
		    "specifier not provided by device, defaulting to English");
		return 0;
	}
	if (err < 0) {
		core_log(dev, NULL, "usb", "usb_string", "string descriptor 0 "
		    "read error: %d", err);
		p->string_langid = -1;
		return -EPIPE;
	}
	p->string_langid = get_le16(tbuf + 2);
	p->have_langid = 1;
	return 0;
}

/* UTF-16LE code units to UTF-8 (Linux utf16s_to_utf8s); unpaired
 * surrogates become U+FFFD.  Returns the bytes written (< size). */
static size_t
utf16le_to_utf8(const uint8_t *in, size_t units, char *out, size_t size)
{
	size_t		 i, o = 0, need;
	uint32_t	 c, c2;

	for (i = 0; i < units; i++) {
		c = get_le16(in + 2 * i);
		if (c >= 0xd800 && c <= 0xdbff && i + 1 < units &&
		    (c2 = get_le16(in + 2 * (i + 1))) >= 0xdc00 &&
		    c2 <= 0xdfff) {
			c = 0x10000 + ((c - 0xd800) << 10) + (c2 - 0xdc00);
			i++;
		} else if (c >= 0xd800 && c <= 0xdfff)
			c = 0xfffd;
		need = c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4;
		if (o + need >= size)
			break;
		switch (need) {
		case 1:
			out[o++] = (char)c;
			break;
		case 2:
			out[o++] = (char)(0xc0 | c >> 6);
			out[o++] = (char)(0x80 | (c & 0x3f));
			break;
		case 3:
			out[o++] = (char)(0xe0 | c >> 12);
			out[o++] = (char)(0x80 | ((c >> 6) & 0x3f));
			out[o++] = (char)(0x80 | (c & 0x3f));
			break;
		default:
			out[o++] = (char)(0xf0 | c >> 18);
			out[o++] = (char)(0x80 | ((c >> 12) & 0x3f));
			out[o++] = (char)(0x80 | ((c >> 6) & 0x3f));
			out[o++] = (char)(0x80 | (c & 0x3f));
			break;
		}
	}
	out[o] = '\0';
	return o;
}

/*
 * String index of dev in the device's first language, as NUL-terminated
 * UTF-8 into buf.  Returns its length or -errno.
 */
int
usb_string(struct usb_device *dev, int index, char *buf, size_t size)
{
	uint8_t	*tbuf;
	int	 err;

	if (dev == NULL || buf == NULL || size == 0)
		return -EINVAL;
	buf[0] = '\0';
	if (index <= 0 || index >= 256)
		return -EINVAL;
	if ((tbuf = malloc(256)) == NULL)
		return -ENOMEM;
	if ((err = usb_get_langid(dev, tbuf)) < 0)
		goto out;
	err = usb_string_sub(dev,
	    (unsigned int)usb_dev_priv(dev)->string_langid,
	    (unsigned int)index, tbuf);
	if (err < 0)
		goto out;
	err = (int)utf16le_to_utf8(tbuf + 2, (size_t)(err - 2) / 2, buf, size);
out:
	free(tbuf);
	return err;
}

/* A string read for keeps (udev->product etc.), or NULL. */
char *
usb_cache_string(struct usb_device *udev, int index)
{
	char	 buf[MAX_USB_STRING_SIZE];
	int	 len;

	if (index <= 0)
		return NULL;
	if ((len = usb_string(udev, index, buf, sizeof buf)) <= 0)
		return NULL;
	return strdup(buf);
}

/*
 * CLEAR_FEATURE(ENDPOINT_HALT) for the pipe's endpoint, then its data
 * toggle back to DATA0 (usb_reset_endpoint).  0 or -errno.
 */
int
usb_clear_halt(struct usb_device *dev, unsigned int pipe)
{
	struct usb_host_endpoint *ep;
	unsigned int	 endp = usb_pipeendpoint(pipe);
	int		 result;

	if (usb_pipein(pipe))
		endp |= USB_DIR_IN;
	result = usb_control_msg_send(dev, 0, USB_REQ_CLEAR_FEATURE,
	    USB_RECIP_ENDPOINT, USB_ENDPOINT_HALT, (u16)endp, NULL, 0,
	    USB_CTRL_SET_TIMEOUT);
	if (result != 0)
		return result;	/* don't un-halt except on success */
	dev->toggle[usb_pipeout(pipe) ? 1 : 0] &= ~(1 << (endp & 0x0f));
	dev->halted[usb_pipeout(pipe) ? 1 : 0] &= ~(1u << (endp & 0x0f));
	/*
	 * The HCD keeps the toggle in its queue head (EHCI's dt bit): an
	 * idle endpoint drops it, so the next transfer starts at DATA0.
	 */
	ep = usb_pipe_endpoint(dev, pipe);
	if (ep != NULL && ep->enabled && list_empty(&ep->urb_list) &&
	    (endp & 0x0f) != 0) {
		usb_hcd_disable_endpoint(dev, ep);
		ep->enabled = 1;
	}
	return 0;
}

/*
 * SET_INTERFACE(ifnum, alternate) and the core's switch: the old
 * altsetting's URBs are flushed and its endpoints leave the maps, the new
 * one's are enabled with fresh toggles.  A device that stalls the request
 * on an interface with one altsetting is handled by clearing halts
 * (USB 2.0 9.4.10).  0 or -errno.
 */
int
usb_set_interface(struct usb_device *dev, int ifnum, int alternate)
{
	struct usb_interface *iface;
	struct usb_host_interface *alt;
	unsigned int	 i, epaddr, pipe;
	int		 ret, manual = 0;

	if (dev == NULL || ifnum < 0 || alternate < 0)
		return -EINVAL;
	if (dev->state == USB_STATE_NOTATTACHED)
		return -ENODEV;
	if ((iface = usb_ifnum_to_if(dev, (unsigned int)ifnum)) == NULL)
		return -EINVAL;
	if ((alt = usb_altnum_to_altsetting(iface,
	    (unsigned int)alternate)) == NULL) {
		core_log(dev, NULL, "usb", __func__, "selecting invalid "
		    "altsetting %d", alternate);
		return -EINVAL;
	}
	ret = usb_control_msg_send(dev, 0, USB_REQ_SET_INTERFACE,
	    USB_RECIP_INTERFACE, (u16)alternate, (u16)ifnum, NULL, 0, 5000);
	if (ret == -EPIPE && iface->num_altsetting == 1)
		manual = 1;
	else if (ret != 0)
		return ret;

	usb_disable_interface(dev, iface, 1);
	iface->cur_altsetting = alt;
	/* the interface's endpoints start unhalted (USB 2.0 9.4.10) */
	for (i = 0; i < alt->desc.bNumEndpoints; i++) {
		epaddr = alt->endpoint[i].desc.bEndpointAddress;
		dev->halted[(epaddr & USB_DIR_IN) ? 0 : 1] &=
		    ~(1u << (epaddr & USB_ENDPOINT_NUMBER_MASK));
	}
	if (manual) {
		for (i = 0; i < alt->desc.bNumEndpoints; i++) {
			epaddr = alt->endpoint[i].desc.bEndpointAddress;
			pipe = __create_pipe(dev, epaddr &
			    USB_ENDPOINT_NUMBER_MASK) | (epaddr & USB_DIR_IN);
			usb_clear_halt(dev, pipe);
		}
	}
	usb_enable_interface(dev, iface);
	if (alt->string == NULL && alt->desc.iInterface != 0)
		alt->string = usb_cache_string(dev, alt->desc.iInterface);
	return 0;
}

/* The interfaces of configuration idx, made fresh (Linux makes new
 * struct usb_interface objects at every SET_CONFIGURATION). */
static int
make_interfaces(struct usb_device *dev, int idx)
{
	struct usb_host_config *cp = &dev->config[idx];
	struct usb_intf_cache *ic;
	struct usb_interface_priv *ip;
	struct usb_interface *intf;
	struct usb_host_interface *alt;
	int		 i;

	for (i = 0; i < cp->desc.bNumInterfaces; i++) {
		ic = &usb_dev_priv(dev)->cache[idx].intf[i];
		/* the core's part after it; free(intf) frees both */
		if ((ip = calloc(1, sizeof *ip)) == NULL)
			goto fail;
		intf = &ip->intf;
		intf->altsetting = ic->altsetting;
		intf->num_altsetting = ic->num_altsetting;
		/* no altsetting 0?  the first one, as Linux */
		if ((alt = usb_altnum_to_altsetting(intf, 0)) == NULL)
			alt = &intf->altsetting[0];
		intf->cur_altsetting = alt;
		intf->minor = -1;
		intf->usbdev = dev;
		snprintf(intf->name, sizeof intf->name, "%d-%s:%d.%d",
		    dev->bus->busnum, dev->devpath,
		    cp->desc.bConfigurationValue, alt->desc.bInterfaceNumber);
		cp->interface[i] = intf;
	}
	return 0;
fail:
	while (--i >= 0) {
		free(cp->interface[i]);
		cp->interface[i] = NULL;
	}
	return -ENOMEM;
}

int
usb_set_configuration(struct usb_device *dev, int configuration)
{
	struct usb_device_priv *p = usb_dev_priv(dev);
	struct usb_host_config *cp = NULL;
	int		 i, idx = -1, ret;

	if (dev->state == USB_STATE_NOTATTACHED)
		return -ENODEV;
	for (i = 0; i < p->nconfig; i++) {
		if (dev->config[i].desc.bConfigurationValue == configuration) {
			cp = &dev->config[i];
			idx = i;
			break;
		}
	}
	if (cp == NULL && configuration != 0)
		return -EINVAL;

	/* the old configuration goes: drivers unbound, endpoints flushed */
	if (dev->state != USB_STATE_ADDRESS)
		usb_disable_device(dev, 1);
	if (cp != NULL) {
		if ((ret = make_interfaces(dev, idx)) != 0)
			return ret;
		for (i = 0; i < cp->desc.bNumInterfaces; i++)
			usb_enable_interface(dev, cp->interface[i]);
	}

	ret = usb_control_msg_send(dev, 0, USB_REQ_SET_CONFIGURATION, 0,
	    (u16)configuration, 0, NULL, 0, USB_CTRL_SET_TIMEOUT);
	if (ret != 0 && cp != NULL) {
		for (i = 0; i < cp->desc.bNumInterfaces; i++) {
			usb_disable_interface(dev, cp->interface[i], 1);
			free(cp->interface[i]);
			cp->interface[i] = NULL;
		}
		cp = NULL;
	}
	dev->actconfig = cp;
	if (ret == 0)
		dev->halted[0] = dev->halted[1] = 0;	/* USB 2.0 9.1.1.5 */
	if (cp == NULL) {
		if (dev->state != USB_STATE_NOTATTACHED)
			usb_set_device_state(dev, USB_STATE_ADDRESS);
		return ret;
	}
	usb_set_device_state(dev, USB_STATE_CONFIGURED);
	if (cp->string == NULL)
		cp->string = usb_cache_string(dev, cp->desc.iConfiguration);
	usb_probe_interfaces(dev);
	return 0;
}
