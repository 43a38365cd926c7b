/*
 * capture/cap-darwin.c - packets of LINKTYPE_USB_DARWIN (266), the format
 * of the XHC20 and similar interfaces macOS offers to packet capture, read
 * into the record model and written back from it.
 *
 * Facts: the pseudo-header as Wireshark reads it
 * (epan/dissectors/packet-usb.c dissect_darwin_buffer_packet_header and
 * dissect_darwin_usb_iso_transfer), little-endian: bcdVersion u16 @0,
 * header length u8 @2, request type u8 @3 (0 submit, 1 complete), I/O
 * length u32 @4, I/O status (IOReturn) u32 @8, ISO frame count u32 @12,
 * I/O id u64 @16, location id u32 @24 (the bus in its top byte), speed u8
 * @28, device address u8 @29, endpoint address u8 @30, endpoint type u8
 * @31 (0 control, 1 isochronous, 2 bulk, 3 interrupt).  The data follow
 * the header; a control submit starts with its SETUP packet.  An
 * isochronous transfer has one frame after another after the header, each
 * a header (length u32 @0, at least 20; frame length u32 @4; status u32
 * @8; frame number u64 @12; a completion's timestamp u64 @20) and, on a
 * completion, the frame's data, padded to 4 bytes.
 *
 * The mapping onto a record: the I/O id is the URB id, the request type
 * submit or complete; a completion's status is the Linux errno nearest
 * to its IOReturn (the header keeps the macOS code); the endpoint type in
 * usbmon's numbering.
 */
#include <string.h>

#include "capture.h"

int
cap_darwin_packet(const uint8_t *p, uint32_t caplen, uint32_t len,
    struct urb_iso *iso, struct urb_rec *r, const char **why)
{
	static const uint8_t xfer[4] = { XFER_CTRL, XFER_ISO, XFER_BULK,
	    XFER_INT };
	struct urb_darwin *m = &r->mac;
	uint32_t	 off, fh, fl, n;

	memset(r, 0, sizeof *r);
	r->origin = URB_ORIGIN_DARWIN;
	if (caplen < DARWIN_HDR) {
		*why = "shorter than the 32-byte macOS USB header";
		return -UE_BADREC;
	}
	memcpy(m->hdr, p, DARWIN_HDR);
	m->bcd = get_le16(p);
	m->hdr_len = p[2];
	if (m->hdr_len < DARWIN_HDR || m->hdr_len > caplen) {
		*why = m->hdr_len < DARWIN_HDR ? "macOS header length is "
		    "shorter than its 32 bytes" : "macOS header length runs "
		    "past the captured bytes";
		return -UE_BADREC;
	}
	m->req_type = p[3];
	m->io_len = get_le32(p + 4);
	m->io_status = get_le32(p + 8);
	m->frames = get_le32(p + 12);
	r->id = get_le64(p + 16);
	m->location = get_le32(p + 24);
	m->speed = p[28];
	r->devnum = p[29];
	r->epnum = p[30];
	m->ep_type = p[31];
	r->busnum = (uint16_t)(m->location >> 24);
	r->xfer_type = m->ep_type < 4 ? xfer[m->ep_type] : 0xff;
	r->type = m->req_type == 0 ? 'S' : 'C';
	r->status = r->type == 'C' ? dec_darwin_errno(m->io_status) : 0;
	r->flag_setup = '-';
	r->data = p + m->hdr_len;
	r->data_len = caplen - m->hdr_len;
	r->len_urb = m->io_len;
	r->len_cap = len > m->hdr_len ? len - m->hdr_len : 0;
	if (caplen < len)
		r->flags |= REC_F_TRUNC;

	if (r->xfer_type == XFER_CTRL && r->type == 'S') {
		if (r->data_len < 8) {
			r->flags |= REC_F_BADLEN;
			return 0;
		}
		memcpy(r->setup, r->data, 8);
		r->flag_setup = 0;
		r->data += 8;
		r->data_len -= 8;
		r->len_cap = r->len_cap >= 8 ? r->len_cap - 8 : 0;
		r->len_urb = get_le16(r->setup + 6);
	} else if (r->xfer_type == XFER_ISO) {
		/* the frames: their data, on a completion, between headers */
		for (off = 0, n = 0; n < m->frames && n < URB_ISO_MAX &&
		    r->data_len - off > 8; n++) {
			fh = get_le32(r->data + off);
			fl = get_le32(r->data + off + 4);
			if (fh < DARWIN_ISO_HDR || fh > r->data_len - off)
				break;
			iso[n].len = fl;
			iso[n].usbd = get_le32(r->data + off + 8);
			iso[n].status = r->type == 'C' ?
			    dec_darwin_errno(iso[n].usbd) : 0;
			iso[n].off = off + fh;
			off += fh;
			if (r->type == 'C') {
				if (fl > r->data_len - off) {
					r->flags |= REC_F_TRUNC;
					iso[n].len = r->data_len - off;
					off = r->data_len;
				} else
					off += fl;
			}
			off = (off + 3) & ~3u;
			if (off > r->data_len)
				off = r->data_len;
		}
		if (n < m->frames && n < URB_ISO_MAX)
			r->flags |= REC_F_BADLEN;
		r->iso = iso;
		r->niso = n;
		r->ndesc = n;
		r->iso_numdesc = (int32_t)m->frames;
		/* the data are the frames, headers and all: no IN submit
		 * without them, and nothing cut */
		r->len_cap = r->data_len;
	}
	if (r->data_len == 0 && r->type == 'S' && urb_is_in(r))
		r->flag_data = '<';
	else if (r->data_len == 0 && r->type == 'C' && !urb_is_in(r))
		r->flag_data = '>';
	return 0;
}

size_t
enc_darwin_prefix(const struct urb_rec *r, uint8_t *out)
{
	memcpy(out, r->mac.hdr, DARWIN_HDR);
	out[2] = DARWIN_HDR;		/* what is written of a longer one */
	if (r->xfer_type == XFER_CTRL && r->type == 'S' &&
	    r->flag_setup == 0) {
		memcpy(out + DARWIN_HDR, r->setup, 8);
		return DARWIN_HDR + 8;
	}
	return DARWIN_HDR;
}
