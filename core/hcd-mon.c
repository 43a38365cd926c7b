/*
 * core/hcd-mon.c - the usbmon record of an URB event, built the way the
 * kernel's drivers/usb/mon/mon_bin.c builds it (mon_bin_event for 'S' and
 * 'C', mon_bin_error for 'E').  A pure function: the glue (hcd.c) stamps
 * the time and hands the record to the simulator's sink, which copies
 * what it keeps.
 *
 * Departures from mon_bin, both about the reader rather than the event:
 * data is not cut to a fifth of a reader's ring (sinks apply their own
 * snaplen), and nothing is ever dropped for lack of ring space.
 */
#include <string.h>

#include "core/hcd.h"

/* usb_endpoint_type -> usbmon xfer_type (mon_bin.c xfer_to_pipe). */
static const uint8_t xfer_to_pipe[4] = {
	[USB_ENDPOINT_XFER_CONTROL] = XFER_CTRL,
	[USB_ENDPOINT_XFER_ISOC] = XFER_ISO,
	[USB_ENDPOINT_XFER_BULK] = XFER_BULK,
	[USB_ENDPOINT_XFER_INT] = XFER_INT,
};

/* The pipe's type and endpoint, from the endpoint when the URB has one
 * (as the kernel does), else from the pipe. */
static int
mon_xfer_type(const struct urb *urb)
{
	if (urb->ep != NULL)
		return xfer_to_pipe[urb->ep->desc.bmAttributes &
		    USB_ENDPOINT_XFERTYPE_MASK];
	return (int)usb_pipetype(urb->pipe);	/* same numbering */
}

static int
mon_ep_num(const struct urb *urb)
{
	if (urb->ep != NULL)
		return urb->ep->desc.bEndpointAddress &
		    USB_ENDPOINT_NUMBER_MASK;
	return (int)usb_pipeendpoint(urb->pipe);
}

/* mon_bin_collate_isodesc: how far into the buffer ISO IN data reaches. */
static unsigned int
mon_collate_isodesc(const struct urb *urb, unsigned int ndesc)
{
	const struct usb_iso_packet_descriptor *fp = urb->iso_frame_desc;
	unsigned int	 length = 0;

	while (ndesc-- != 0) {
		if (fp->actual_length != 0 &&
		    fp->offset + fp->actual_length > length)
			length = fp->offset + fp->actual_length;
		fp++;
	}
	return length;
}

void
hcd_mon_build(const struct urb *urb, int type, int status, uint64_t ts_ns,
    struct urb_rec *r, struct urb_iso *iso)
{
	const struct usb_iso_packet_descriptor *fp;
	unsigned int	 urb_length, length, ndesc = 0, i;
	int		 xfer, is_in;

	memset(r, 0, sizeof *r);
	xfer = mon_xfer_type(urb);
	/* usb_urb_dir_in: the direction submit cached in the flags, which
	 * for ep0 says where the data stage goes */
	is_in = (urb->transfer_flags & URB_DIR_IN) != 0;

	r->id = (uint64_t)(uintptr_t)urb;
	r->type = (uint8_t)type;
	r->xfer_type = (uint8_t)xfer;
	r->epnum = (uint8_t)((is_in ? USB_DIR_IN : 0) | mon_ep_num(urb));
	r->devnum = (uint8_t)urb->dev->devnum;
	r->busnum = (uint16_t)(urb->dev->bus != NULL ?
	    urb->dev->bus->busnum : 0);
	/* only microseconds exist in usbmon */
	r->ts_sec = (int64_t)(ts_ns / 1000000000ULL);
	r->ts_usec = (int32_t)(ts_ns % 1000000000ULL / 1000);
	r->ts_ns = r->ts_sec * 1000000000LL + (int64_t)r->ts_usec * 1000;
	r->status = status;
	r->iso = iso;

	if (type == 'E') {
		/* mon_bin_error: the header only */
		r->flag_setup = '-';
		r->flag_data = 'E';
		return;
	}

	/* the maximum allowable length */
	urb_length = type == 'S' ? urb->transfer_buffer_length :
	    urb->actual_length;
	length = urb_length;
	if (xfer == XFER_ISO) {
		if (urb->number_of_packets < 0)
			ndesc = 0;
		else if (urb->number_of_packets >= URB_ISO_MAX)
			ndesc = URB_ISO_MAX;
		else
			ndesc = (unsigned int)urb->number_of_packets;
		if (type == 'C' && is_in)
			length = mon_collate_isodesc(urb, ndesc);
	}
	/* not an issue unless there's a subtle bug in an HCD somewhere */
	if (length >= urb->transfer_buffer_length)
		length = urb->transfer_buffer_length;

	if (is_in) {
		if (type == 'S') {
			length = 0;
			r->flag_data = '<';
		}
	} else if (type == 'C') {
		length = 0;
		r->flag_data = '>';
	}

	r->len_urb = urb_length;
	r->xfer_flags = urb->transfer_flags;
	if (xfer == XFER_INT)
		r->interval = urb->interval;
	else if (xfer == XFER_ISO) {
		r->interval = urb->interval;
		r->start_frame = urb->start_frame;
		r->iso_error_count = urb->error_count;
		r->iso_numdesc = urb->number_of_packets;
	}

	if (xfer == XFER_CTRL && type == 'S') {
		/* mon_bin_get_setup */
		if (urb->setup_packet == NULL)
			r->flag_setup = 'Z';
		else {
			r->flag_setup = 0;
			memcpy(r->setup, urb->setup_packet, 8);
		}
	} else
		r->flag_setup = '-';

	if (ndesc != 0) {
		r->ndesc = ndesc;
		fp = urb->iso_frame_desc;
		for (i = 0; i < ndesc; i++, fp++) {
			iso[i].status = fp->status;
			iso[i].off = fp->offset;
			iso[i].len = type == 'S' ? fp->length :
			    fp->actual_length;
		}
		r->niso = ndesc;
	}

	if (length != 0) {
		/* mon_bin_get_data: flag 0 = data present; no buffer to
		 * copy from is 'Z' and nothing captured */
		r->flag_data = 0;
		if (urb->transfer_buffer == NULL)
			r->flag_data = 'Z';
		else {
			r->data = urb->transfer_buffer;
			r->data_len = length;
		}
	}
	r->len_cap = 16 * ndesc + r->data_len;
}
