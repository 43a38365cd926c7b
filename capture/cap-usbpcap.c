/*
 * capture/cap-usbpcap.c - packets of LINKTYPE_USBPCAP (249), the format of
 * USBPcap on Windows, read into the record model and written from it.
 *
 * Facts: USBPcap's capture format (https://desowin.org/usbpcap/
 * captureformat.html): USBPCAP_BUFFER_PACKET_HEADER, packed and
 * little-endian: headerLen u16 @0, irpId u64 @2, status (USBD_STATUS) u32
 * @10, function (URB_FUNCTION_*) u16 @14, info u8 @16 (bit 0 set from PDO
 * to FDO, i.e. on the way back from the host controller), bus u16 @17,
 * device u16 @19, endpoint u8 @21, transfer u8 @22 (0 isochronous, 1
 * interrupt, 2 control, 3 bulk: usbmon's numbering; 0xfe IRP information,
 * 0xff unknown), dataLength u32 @23.  Control transfers add the stage u8
 * @27 (0 setup, 1 data, 2 status, 3 complete); isochronous ones add
 * startFrame, numberOfPackets and errorCount (u32 each) and then
 * numberOfPackets entries of offset, length and status (u32 each).  The
 * data, dataLength bytes, follows headerLen; a setup stage's data starts
 * with the 8-byte SETUP packet.  Wireshark's reading of the same is
 * dissect_usbpcap_buffer_packet_header in epan/dissectors/packet-usb.c.
 *
 * The mapping onto a record: irpId is the URB id; FDO to PDO is a submit
 * ('S'), PDO to FDO a completion ('C') whose status is the Linux errno
 * nearest to its USBD_STATUS (the header keeps the Windows code); the
 * descriptors USBPcap puts at the start of a capture for devices already
 * connected (irpId 0) are REC_F_INJECTED; the data and status stages
 * USBPcap 1.5 writes for a control transfer (setup, data, status instead
 * of setup and complete) are REC_F_STAGE: the analysis ties them to the
 * setup as Wireshark does (an IN data stage answers the setup, the status
 * stage ends the transfer).
 */
#include <string.h>

#include "capture.h"

int
cap_usbpcap_packet(const uint8_t *p, uint32_t caplen, uint32_t len,
    struct urb_iso *iso, struct urb_rec *r, const char **why)
{
	struct urb_win	*w = &r->win;
	uint32_t	 i, n, left;
	const uint8_t	*q;

	memset(r, 0, sizeof *r);
	r->origin = URB_ORIGIN_USBPCAP;
	if (caplen < USBPCAP_HDR) {
		*why = "shorter than the 27-byte USBPcap header";
		return -UE_BADREC;
	}
	w->hdr_len = get_le16(p);
	if (w->hdr_len < USBPCAP_HDR) {
		*why = "USBPcap headerLen is shorter than the 27-byte base "
		    "header";
		return -UE_BADREC;
	}
	if (w->hdr_len > caplen) {
		*why = "USBPcap headerLen runs past the captured bytes";
		return -UE_BADREC;
	}
	r->id = get_le64(p + 2);
	w->usbd_status = get_le32(p + 10);
	w->function = get_le16(p + 14);
	w->info = p[16];
	r->busnum = get_le16(p + 17);
	w->device = get_le16(p + 19);
	r->devnum = w->device > 0xff ? 0xff : (uint8_t)w->device;
	r->epnum = p[21];
	r->xfer_type = p[22];
	w->data_len = get_le32(p + 23);
	w->stage = USBPCAP_STAGE_NONE;
	r->type = (w->info & 1) ? 'C' : 'S';
	/* a status means something on the way back only */
	r->status = r->type == 'C' ? dec_usbd_errno(w->usbd_status) : 0;
	r->flag_setup = '-';

	r->data = p + w->hdr_len;
	r->data_len = caplen - w->hdr_len;
	if (r->data_len > w->data_len)
		r->data_len = w->data_len;	/* padding after the data */
	if ((uint64_t)w->hdr_len + w->data_len > len)
		r->flags |= REC_F_BADLEN;
	else if (r->data_len < w->data_len)
		r->flags |= REC_F_TRUNC;
	r->len_urb = r->len_cap = w->data_len;

	if (r->xfer_type == XFER_CTRL && w->hdr_len >= USBPCAP_HDR_CTRL) {
		w->stage = p[27];
		if (w->stage == USBPCAP_STAGE_SETUP && r->type == 'S' &&
		    r->data_len >= 8) {
			memcpy(r->setup, r->data, 8);
			r->flag_setup = 0;
			r->data += 8;
			r->data_len -= 8;
			r->len_cap = w->data_len - 8;
			/* the length asked: wLength, as usbmon's submit */
			r->len_urb = get_le16(r->setup + 6);
			if (!(r->setup[0] & 0x80))
				r->len_urb = r->len_cap;
		} else if (w->stage == USBPCAP_STAGE_SETUP)
			r->flags |= REC_F_BADLEN;
		else if (w->stage == USBPCAP_STAGE_DATA ||
		    w->stage == USBPCAP_STAGE_STATUS)
			r->flags |= REC_F_STAGE;
	} else if (r->xfer_type == XFER_ISO &&
	    w->hdr_len >= USBPCAP_HDR_ISO) {
		w->iso_start = get_le32(p + 27);
		w->iso_npackets = get_le32(p + 31);
		w->iso_errors = get_le32(p + 35);
		r->start_frame = (int32_t)w->iso_start;
		r->iso_numdesc = (int32_t)w->iso_npackets;
		r->iso_error_count = (int32_t)w->iso_errors;
		left = (w->hdr_len - USBPCAP_HDR_ISO) / 12;
		n = w->iso_npackets < left ? w->iso_npackets : left;
		if (n < w->iso_npackets)
			r->flags |= REC_F_BADLEN;
		if (n > URB_ISO_MAX)
			n = URB_ISO_MAX;
		for (i = 0; i < n; i++) {
			q = p + USBPCAP_HDR_ISO + 12 * i;
			iso[i].off = get_le32(q);
			iso[i].len = get_le32(q + 4);
			iso[i].usbd = get_le32(q + 8);
			iso[i].status = r->type == 'C' ?
			    dec_usbd_errno(iso[i].usbd) : 0;
		}
		r->iso = iso;
		r->niso = n;
		r->ndesc = n;
	}
	/* usbmon's flags for the same event (mon_bin_event): no data on
	 * an IN submit or an OUT completion */
	if (r->len_cap == 0 && r->type == 'S' && urb_is_in(r))
		r->flag_data = '<';
	else if (r->len_cap == 0 && r->type == 'C' && !urb_is_in(r))
		r->flag_data = '>';
	if (r->id == 0)
		r->flags |= REC_F_INJECTED;
	return 0;
}

/* The USBD_STATUS of r as written: its own, else the nearest to errno. */
static uint32_t
win_status(const struct urb_rec *r)
{
	if (r->origin == URB_ORIGIN_USBPCAP)
		return r->win.usbd_status;
	return r->type == 'S' ? 0 : dec_usbd_from_errno(r->status);
}

/* The URB function of a usbmon record: what Windows' usbccgp and WinUSB
 * put in the URB for the same transfer. */
static uint16_t
win_function(const struct urb_rec *r)
{
	if (r->origin == URB_ORIGIN_USBPCAP)
		return r->win.function;
	switch (r->xfer_type) {
	case XFER_ISO:
		return 0x000a;		/* ISOCH_TRANSFER */
	case XFER_INT:
	case XFER_BULK:
		return 0x0009;		/* BULK_OR_INTERRUPT_TRANSFER */
	}
	return 0x0008;			/* CONTROL_TRANSFER */
}

size_t
enc_usbpcap_prefix(const struct urb_rec *r, uint8_t *out)
{
	uint32_t	 i, n, dlen, exp;
	size_t		 hlen = USBPCAP_HDR;
	uint8_t		 stage, *q;
	int		 setup;

	stage = USBPCAP_STAGE_NONE;
	setup = 0;
	if (r->origin == URB_ORIGIN_USBPCAP) {
		stage = r->win.stage;
		setup = r->flag_setup == 0;
	} else if (r->xfer_type == XFER_CTRL) {
		setup = r->type == 'S' && r->flag_setup == 0;
		stage = setup ? USBPCAP_STAGE_SETUP : USBPCAP_STAGE_COMPLETE;
	}
	n = r->xfer_type == XFER_ISO ? r->niso : 0;
	if (r->xfer_type == XFER_CTRL && stage != USBPCAP_STAGE_NONE)
		hlen = USBPCAP_HDR_CTRL;
	else if (r->xfer_type == XFER_ISO)
		hlen = USBPCAP_HDR_ISO + 12 * (size_t)n;

	/* the URB's bytes: the original length even where a snaplen cut */
	exp = r->origin == URB_ORIGIN_USBPCAP ? r->len_cap :
	    urb_data_expected(r);
	if (exp < r->data_len)
		exp = r->data_len;
	dlen = exp + (setup ? 8 : 0);

	put_le16(out, (uint16_t)hlen);
	put_le64(out + 2, r->id);
	put_le32(out + 10, win_status(r));
	put_le16(out + 14, win_function(r));
	out[16] = r->origin == URB_ORIGIN_USBPCAP ? r->win.info :
	    r->type != 'S';
	put_le16(out + 17, r->busnum);
	put_le16(out + 19, r->origin == URB_ORIGIN_USBPCAP ? r->win.device :
	    r->devnum);
	out[21] = r->epnum;
	out[22] = r->xfer_type;
	put_le32(out + 23, dlen);
	if (hlen == USBPCAP_HDR_CTRL)
		out[27] = stage;
	else if (r->xfer_type == XFER_ISO) {
		put_le32(out + 27, (uint32_t)r->start_frame);
		put_le32(out + 31, r->origin == URB_ORIGIN_USBPCAP ?
		    r->win.iso_npackets : n);
		put_le32(out + 35, (uint32_t)r->iso_error_count);
		for (i = 0; i < n; i++) {
			q = out + USBPCAP_HDR_ISO + 12 * i;
			put_le32(q, r->iso[i].off);
			put_le32(q + 4, r->iso[i].len);
			put_le32(q + 8, r->origin == URB_ORIGIN_USBPCAP ?
			    r->iso[i].usbd : r->type == 'S' ? 0 :
			    dec_usbd_from_errno(r->iso[i].status));
		}
	}
	if (setup) {
		memcpy(out + hlen, r->setup, 8);
		hlen += 8;
	}
	return hlen;
}

int
cap_usbpcap_expressible(const struct urb_rec *r)
{
	if (r->origin == URB_ORIGIN_USBLL && r->type == 'P')
		return 0;
	return r->origin == URB_ORIGIN_USBPCAP || r->xfer_type <= XFER_BULK;
}

void
cap_usbmon_init(struct cap_as_usbmon *u)
{
	memset(u, 0, sizeof *u);
	u->data_done = UINT64_MAX;
}

/*
 * A USBPcap record as usbmon: an IRP with no transfer has no event; of a
 * control transfer's stages, the setup is the submit, and the completion
 * is the IN data stage, else the status stage.  An OUT data stage's bytes
 * have no place (usbmon's submit carries them, and it is out already).
 */
int
cap_usbmon_skip(struct cap_as_usbmon *u, const struct urb_rec *r)
{
	if (r->origin == URB_ORIGIN_USBLL) {
		/* the packets that carry no URB's event */
		if (r->type != 'P')
			return 0;
		u->drop_packet++;
		return 1;
	}
	if (r->origin != URB_ORIGIN_USBPCAP)
		return 0;
	if (r->xfer_type > XFER_BULK) {
		if (u->drop_irp++ == 0)
			u->drop_function = r->win.function;
		return 1;
	}
	if (!(r->flags & REC_F_STAGE))
		return 0;
	if (r->type == 'S') {
		u->drop_stage++;
		return 1;
	}
	if (r->win.stage == USBPCAP_STAGE_DATA) {
		u->data_done = r->id;
		u->data_done_bus = r->busnum;
		return 0;
	}
	/* the status stage: the completion, unless a data stage was */
	if (u->data_done == r->id && u->data_done_bus == r->busnum) {
		u->data_done = UINT64_MAX;
		u->drop_status++;
		return 1;
	}
	return 0;
}

