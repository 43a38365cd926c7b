/*
 * decode/dec-record.c - the decoded tree of one record: the usbmon
 * pseudo-header with Wireshark's field names (epan/dissectors/packet-usb.c),
 * pairing and owning interface, the SETUP packet, and the data stage as
 * descriptors or raw capture data.  -V, JSON, -T fields and the TUI's
 * details pane all print this one tree.
 */
#include "class.h"

static const struct dec_name urb_types[] = {	/* mon_bin_hdr type */
	{ 'S', "URB_SUBMIT" },
	{ 'C', "URB_COMPLETE" },
	{ 'E', "URB_ERROR" },
	{ 0, NULL }
};

static const struct dec_name data_flags[] = {	/* mon_bin_hdr flag_data */
	{ 0, "present" },
	{ '<', "not present (IN submit)" },
	{ '>', "not present (OUT complete)" },
	{ 'Z', "no transfer buffer" },
	{ 'D', "not capturable (DMA/SG)" },
	{ 'E', "error event" },
	{ 0, NULL }
};

static const struct dec_name setup_flags[] = {	/* mon_bin_hdr flag_setup */
	{ 0, "relevant" },
	{ '-', "not relevant" },
	{ 'Z', "no setup packet" },
	{ 0, NULL }
};

static const struct dec_name directions[] = {
	{ 0, "OUT" },
	{ 1, "IN" },
	{ 0, NULL }
};

#define F DEC_FIELD

F(f_urb_id, "URB id", "usb.urb_id", DK_HEX, 8, NULL, 0);
F(f_urb_type, "URB type", "usb.urb_type", DK_CHAR, 1, urb_types, 0);
F(f_xfer, "URB transfer type", "usb.transfer_type", DK_HEX, 1,
    dec_xfer_types, 0);
F(f_ep, "Endpoint", "usb.endpoint_address", DK_HEX, 1, NULL, 0);
F(f_ep_dir, "Direction", "usb.endpoint_address.direction", DK_UINT, 1,
    directions, 0x80);
F(f_ep_num, "Endpoint number", "usb.endpoint_address.number", DK_UINT, 1,
    NULL, 0x0f);
F(f_dev, "Device", "usb.device_address", DK_UINT, 1, NULL, 0);
F(f_bus, "URB bus id", "usb.bus_id", DK_UINT, 2, NULL, 0);
F(f_setup_flag, "Device setup request", "usb.setup_flag", DK_CHAR, 1,
    setup_flags, 0);
F(f_data_flag, "Data", "usb.data_flag", DK_CHAR, 1, data_flags, 0);
F(f_ts_sec, "URB sec", "usb.urb_ts_sec", DK_UINT, 8, NULL, 0);
F(f_ts_usec, "URB usec", "usb.urb_ts_usec", DK_UINT, 4, NULL, 0);
F(f_status, "URB status", "usb.urb_status", DK_INT, 4, NULL, 0);
F(f_urb_len, "URB length", "usb.urb_len", DK_UINT, 4, NULL, 0);
F(f_data_len, "Data length", "usb.data_len", DK_UINT, 4, NULL, 0);
F(f_interval, "Interval", "usb.interval", DK_UINT, 4, NULL, 0);
F(f_start_frame, "Start frame", "usb.start_frame", DK_UINT, 4, NULL, 0);
F(f_xflags, "Transfer flags", "usb.copy_of_transfer_flags", DK_HEX, 4,
    NULL, 0);
/* urb->transfer_flags bits (include/linux/usb.h URB_*) */
F(f_xf_short, "Short not OK", "usb.transfer_flags.short_not_ok", DK_BOOL, 4,
    NULL, 0x1);
F(f_xf_asap, "ISO ASAP", "usb.transfer_flags.iso_asap", DK_BOOL, 4, NULL,
    0x2);
F(f_xf_nodma, "No transfer DMA map", "usb.transfer_flags.no_transfer_dma_map",
    DK_BOOL, 4, NULL, 0x4);
F(f_xf_nofsbr, "No FSBR", "usb.transfer_flags.no_fsbr", DK_BOOL, 4, NULL,
    0x20);
F(f_xf_zero, "Zero Packet", "usb.transfer_flags.zero_packet", DK_BOOL, 4,
    NULL, 0x40);
F(f_xf_noint, "No Interrupt", "usb.transfer_flags.no_interrupt", DK_BOOL, 4,
    NULL, 0x80);
F(f_xf_free, "Free Buffer", "usb.transfer_flags.free_buffer", DK_BOOL, 4,
    NULL, 0x100);
F(f_xf_dirin, "Dir IN", "usb.transfer_flags.dir_in", DK_BOOL, 4, NULL,
    0x200);
F(f_xf_single, "DMA Map Single", "usb.transfer_flags.dma_map_single",
    DK_BOOL, 4, NULL, 0x10000);
F(f_xf_page, "DMA Map Page", "usb.transfer_flags.dma_map_page", DK_BOOL, 4,
    NULL, 0x20000);
F(f_xf_sg, "DMA Map SG", "usb.transfer_flags.dma_map_sg", DK_BOOL, 4, NULL,
    0x40000);
F(f_xf_local, "Map Local", "usb.transfer_flags.map_local", DK_BOOL, 4, NULL,
    0x80000);
F(f_xf_ssingle, "Setup Map Single", "usb.transfer_flags.setup_map_single",
    DK_BOOL, 4, NULL, 0x100000);
F(f_xf_slocal, "Setup Map Local", "usb.transfer_flags.setup_map_local",
    DK_BOOL, 4, NULL, 0x200000);
F(f_xf_sgcomb, "DMA S-G Combined", "usb.transfer_flags.dma_sg_combined",
    DK_BOOL, 4, NULL, 0x400000);
F(f_xf_align, "Aligned Temp Buffer", "usb.transfer_flags.aligned_temp_buffer",
    DK_BOOL, 4, NULL, 0x800000);
static const struct dec_field *const xflag_bits[] = {
	&f_xf_short, &f_xf_asap, &f_xf_nodma, &f_xf_nofsbr, &f_xf_zero,
	&f_xf_noint, &f_xf_free, &f_xf_dirin, &f_xf_single, &f_xf_page,
	&f_xf_sg, &f_xf_local, &f_xf_ssingle, &f_xf_slocal, &f_xf_sgcomb,
	&f_xf_align
};
/* Wireshark's addresses: "host" or "bus.device.endpoint" */
F(f_src, "Source", "usb.src", DK_STRING, 0, NULL, 0);
/* pcapng opt_comment, under Wireshark's name (epan/dissectors/
 * packet-frame.c hf_comments_text) */
F(f_comment, "Comment", "frame.comment", DK_STRING, 0, NULL, 0);
F(f_dst, "Destination", "usb.dst", DK_STRING, 0, NULL, 0);
F(f_addr, "Source or Destination", "usb.addr", DK_STRING, 0, NULL, 0);
F(f_iso_err, "ISO error count", "usb.iso.error_count", DK_UINT, 4, NULL,
    0);
F(f_iso_numdesc, "Number of ISO descriptors", "usb.iso.numdesc", DK_UINT,
    4, NULL, 0);
F(f_iso_status, "Status", "usb.iso.iso_status", DK_INT, 4, NULL, 0);
F(f_iso_off, "Offset", "usb.iso.iso_off", DK_UINT, 4, NULL, 0);
F(f_iso_len, "Length", "usb.iso.iso_len", DK_UINT, 4, NULL, 0);
F(f_intf_class, "bInterfaceClass", "usb.bInterfaceClass", DK_HEX, 1,
    dec_classes, 0);
F(f_intf_num, "Interface", NULL, DK_UINT, 1, NULL, 0);
F(f_request_in, "Request in", "usb.request_in", DK_UINT, 8, NULL, 0);
F(f_time, "Time from request", "usb.time", DK_TIME, 8, NULL, 0);
F(f_capdata, "Leftover Capture Data", "usb.capdata", DK_BYTES, 0, NULL, 0);
F(f_fragment, "Data Fragment", "usb.data_fragment", DK_BYTES, 0, NULL, 0);
F(f_ctl_response, "CONTROL response data", "usb.control.Response", DK_BYTES,
    0, NULL, 0);
F(f_wstatus, "wStatus", "usb.setup.wStatus", DK_HEX, 2, NULL, 0);
F(f_answer_cfg, "bConfigurationValue", "usb.bConfigurationValue", DK_UINT,
    1, NULL, 0);
F(f_answer_alt, "bAlternateSetting", "usb.bAlternateSetting", DK_UINT, 1,
    NULL, 0);
F(f_captured, "Captured", NULL, DK_UINT, 4, NULL, 0);

/* USBPcap's header: dissect_usbpcap_buffer_packet_header, packet-usb.c */
static const struct dec_name irp_dirs[] = {
	{ 0, "FDO -> PDO" },
	{ 1, "PDO -> FDO" },
	{ 0, NULL }
};

static const struct dec_name ctrl_stages[] = {
	{ USBPCAP_STAGE_SETUP, "Setup" },
	{ USBPCAP_STAGE_DATA, "Data" },
	{ USBPCAP_STAGE_STATUS, "Status" },
	{ USBPCAP_STAGE_COMPLETE, "Complete" },
	{ 0, NULL }
};

F(f_win_hlen, "USBPcap pseudoheader length", "usb.usbpcap_header_len",
    DK_UINT, 2, NULL, 0);
F(f_win_irp, "IRP ID", "usb.irp_id", DK_HEX, 8, NULL, 0);
F(f_win_status, "IRP USBD_STATUS", "usb.usbd_status", DK_HEX, 4, NULL, 0);
F(f_win_func, "URB Function", "usb.function", DK_HEX, 2, NULL, 0);
F(f_win_info, "IRP information", "usb.irp_info", DK_HEX, 1, NULL, 0);
F(f_win_info_res, "Reserved", "usb.irp_info.reserved", DK_HEX, 1, NULL,
    0xfe);
F(f_win_info_dir, "Direction", "usb.irp_info.direction", DK_HEX, 1,
    irp_dirs, 0x01);
F(f_win_dev, "Device", "usb.device_address", DK_UINT, 2, NULL, 0);
F(f_win_dlen, "Packet Data Length", "usb.data_len", DK_UINT, 4, NULL, 0);
F(f_win_stage, "Control transfer stage", "usb.control_stage", DK_UINT, 1,
    ctrl_stages, 0);
F(f_win_errno, "URB status (the Linux equivalent)", NULL, DK_INT, 4, NULL,
    0);

/* macOS (LINKTYPE_USB_DARWIN): packet-usb.c's hf_usb_darwin_* */
static const struct dec_name darwin_req[] = {
	{ 0, "SUBMIT" }, { 1, "COMPLETE" }, { 0, NULL }
};
static const struct dec_name darwin_speeds[] = {
	{ 0, "Low" }, { 1, "Full" }, { 2, "High" }, { 3, "Super" },
	{ 4, "Super+" }, { 0, NULL }
};
static const struct dec_name darwin_ep_types[] = {
	{ 0, "Control" }, { 1, "Isochronous" }, { 2, "Bulk" },
	{ 3, "Interrupt" }, { 0, NULL }
};
F(f_mac_bcd, "Darwin header bcdVersion", "usb.darwin.bcdVersion", DK_HEX,
    2, NULL, 0);
F(f_mac_hlen, "Darwin header length", "usb.darwin.header_len", DK_UINT, 1,
    NULL, 0);
F(f_mac_req, "Request type", "usb.darwin.request_type", DK_UINT, 1,
    darwin_req, 0);
F(f_mac_len, "I/O length [bytes]", "usb.darwin.io_len", DK_UINT, 4, NULL,
    0);
F(f_mac_status, "Request status", "usb.darwin.io_status", DK_HEX, 4, NULL,
    0);
F(f_mac_frames, "Isochronous transfer number of frames",
    "usb.darwin.io_frame_count", DK_UINT, 4, NULL, 0);
F(f_mac_id, "I/O ID", "usb.darwin.io_id", DK_HEX, 8, NULL, 0);
F(f_mac_loc, "Device location ID", "usb.darwin.location_id", DK_HEX, 4,
    NULL, 0);
F(f_mac_speed, "Device speed", "usb.darwin_device_speed", DK_UINT, 1,
    darwin_speeds, 0);
F(f_mac_dev, "Device address", "usb.darwin.device_address", DK_UINT, 1,
    NULL, 0);
F(f_mac_ep, "Endpoint address", "usb.darwin.endpoint_address", DK_HEX, 1,
    NULL, 0);
F(f_mac_eptype, "Endpoint transfer type", "usb.darwin.endpoint_type",
    DK_UINT, 1, darwin_ep_types, 0);
F(f_mac_iso_frame, "Frame Number", "usb.darwin.iso.frame_number", DK_HEX,
    8, NULL, 0);
F(f_mac_iso_ts, "Time Stamp", "usb.darwin.iso.timestamp", DK_HEX, 8, NULL,
    0);
F(f_mac_iso_status, "Frame status", "usb.darwin.iso.status", DK_HEX, 4,
    NULL, 0);
F(f_iso_data, "ISO Data", "usb.iso.data", DK_BYTES, 0, NULL, 0);
F(f_win_iso_frame, "Isochronous transfer start frame", "usb.win32.iso_frame",
    DK_UINT, 4, NULL, 0);
F(f_win_iso_n, "Isochronous transfer number of packets",
    "usb.win32.iso_num_packets", DK_UINT, 4, NULL, 0);
F(f_win_iso_err, "Isochronous transfer error count",
    "usb.win32.iso_error_count", DK_UINT, 4, NULL, 0);
F(f_win_iso_off, "ISO Data offset", "usb.win32.iso_offset", DK_HEX, 4, NULL,
    0);
F(f_win_iso_len, "ISO Data length", "usb.win32.iso_data_len", DK_HEX, 4,
    NULL, 0);
F(f_win_iso_st, "ISO USBD status", "usb.win32.iso_status", DK_HEX, 4, NULL,
    0);

static void
add(struct dec_tree *t, const struct dec_field *f, uint64_t v)
{
	dec_tree_add(t, f, DB_NONE, 0, 0, v);
}

static void
add_str(struct dec_tree *t, const struct dec_field *f, const char *str)
{
	struct dec_node	*n = dec_tree_add(t, f, DB_NONE, 0, 0, 0);

	if (n != NULL) {
		n->str = str;
		n->flags |= DN_PLAIN;	/* digits, dots, "host" */
	}
}

/*
 * usb.src, usb.dst and usb.addr (both; for -T fields only, JSON and -V
 * have them as usb.src and usb.dst) as Wireshark's usb_set_addr sets
 * them: a submit goes from the host to bus.device.endpoint (the number,
 * without the direction bit), anything else comes back.
 */
static void
add_addresses(const struct urb_rec *r, struct dec_tree *t)
{
	char		 buf[32], *p = buf;
	const char	*dev;
	unsigned	 v[3], i;

	v[0] = r->busnum;
	v[1] = r->origin == URB_ORIGIN_USBPCAP ? r->win.device : r->devnum;
	v[2] = r->epnum & 0x7f;
	for (i = 0; i < 3; i++) {
		if (i > 0)
			*p++ = '.';
		if (v[i] >= 10000)
			*p++ = (char)('0' + v[i] / 10000 % 10);
		if (v[i] >= 1000)
			*p++ = (char)('0' + v[i] / 1000 % 10);
		if (v[i] >= 100)
			*p++ = (char)('0' + v[i] / 100 % 10);
		if (v[i] >= 10)
			*p++ = (char)('0' + v[i] / 10 % 10);
		*p++ = (char)('0' + v[i] % 10);
	}
	if ((dev = dec_tree_strdup(t, buf, (size_t)(p - buf))) == NULL)
		return;
	add_str(t, &f_src, r->type == 'S' ? "host" : dev);
	add_str(t, &f_dst, r->type == 'S' ? dev : "host");
	if (t->all_bits) {
		/* the same two again: only -T fields asks for them */
		add_str(t, &f_addr, r->type == 'S' ? "host" : dev);
		add_str(t, &f_addr, r->type == 'S' ? dev : "host");
	}
}

/* usb.endpoint_address and its two bit fields */
static void
add_endpoint(struct dec_tree *t, uint8_t ep)
{
	add(t, &f_ep, ep);
	t->depth++;
	add(t, &f_ep_dir, ep >> 7);
	add(t, &f_ep_num, ep & 0x0f);
	t->depth--;
}

/*
 * The status of a Windows or macOS completion as Linux would say it (not
 * in Wireshark's tree; the filter's "status" is this one).
 */
static void
add_linux_status(const struct urb_rec *r, struct dec_tree *t)
{
	struct dec_node	*n;

	if (r->type != 'C')
		return;
	n = dec_tree_add(t, &f_win_errno, DB_NONE, 0, 0,
	    (uint64_t)(int64_t)r->status);
	if (n != NULL)
		n->note = dec_status_name(r->status);
}

static void	 iso_rest(const struct urb_rec *, const struct dec_info *,
		    struct dec_tree *);

/* Packet i's bytes as usb.iso.data, when the record holds all of them. */
static void
iso_data(const struct urb_rec *r, uint32_t i, struct dec_tree *t)
{
	const struct urb_iso *p = &r->iso[i];

	if (p->len > 0 && p->off <= r->data_len &&
	    p->len <= r->data_len - p->off)
		dec_tree_add(t, &f_iso_data, DB_DATA, p->off, p->len, 0);
}

static void
win_header_tree(const struct urb_rec *r, struct dec_tree *t)
{
	const struct urb_win *w = &r->win;
	struct dec_node	*n;
	uint32_t	 i;

	dec_tree_push(t, "USB URB", DB_NONE, 0, 0);
	add(t, &f_win_hlen, w->hdr_len);
	add(t, &f_win_irp, r->id);
	n = dec_tree_add(t, &f_win_status, DB_NONE, 0, 0, w->usbd_status);
	if (n != NULL)
		n->note = dec_usbd_status_name(w->usbd_status);
	n = dec_tree_add(t, &f_win_func, DB_NONE, 0, 0, w->function);
	if (n != NULL)
		n->note = dec_urb_function_name(w->function);
	add(t, &f_win_info, w->info);
	t->depth++;
	add(t, &f_win_info_res, w->info >> 1);
	add(t, &f_win_info_dir, w->info & 1);
	t->depth--;
	add(t, &f_bus, r->busnum);
	add(t, &f_win_dev, w->device);
	add_endpoint(t, r->epnum);
	add(t, &f_xfer, r->xfer_type);
	add(t, &f_win_dlen, w->data_len);
	if (w->stage != USBPCAP_STAGE_NONE)
		add(t, &f_win_stage, w->stage);
	if (r->xfer_type == XFER_ISO && w->hdr_len >= USBPCAP_HDR_ISO) {
		add(t, &f_win_iso_frame, w->iso_start);
		add(t, &f_win_iso_n, w->iso_npackets);
		add(t, &f_win_iso_err, w->iso_errors);
	}
	add_linux_status(r, t);
	for (i = 0; i < r->niso; i++) {
		dec_tree_push(t, dec_tree_printf(t, "USB isochronous packet "
		    "%u", i), DB_NONE, 0, 0);
		add(t, &f_win_iso_off, r->iso[i].off);
		add(t, &f_win_iso_len, r->iso[i].len);
		n = dec_tree_add(t, &f_win_iso_st, DB_NONE, 0, 0,
		    r->iso[i].usbd);
		if (n != NULL)
			n->note = dec_usbd_status_name(r->iso[i].usbd);
		/* the lengths are an IN completion's alone (Wireshark's
		 * dissect_usbpcap_iso_packets: "relevant") */
		if (r->type == 'C' && urb_is_in(r))
			iso_data(r, i, t);
		dec_tree_pop(t);
	}
	/* last: the details pane shows the header fields first */
	add_addresses(r, t);
	dec_tree_pop(t);
}

static void
darwin_header_tree(const struct urb_rec *r, struct dec_tree *t)
{
	const struct urb_darwin *m = &r->mac;
	const uint8_t	*d;
	struct dec_node	*n;
	uint32_t	 i, fh, fl, off;

	dec_tree_push(t, "USB URB", DB_NONE, 0, 0);
	add(t, &f_mac_bcd, m->bcd);
	add(t, &f_mac_hlen, m->hdr_len);
	add(t, &f_mac_req, m->req_type);
	add(t, &f_mac_len, m->io_len);
	n = dec_tree_add(t, &f_mac_status, DB_NONE, 0, 0, m->io_status);
	if (n != NULL)
		n->note = dec_darwin_status_name(m->io_status);
	add(t, &f_mac_frames, m->frames);
	add(t, &f_mac_id, r->id);
	add(t, &f_mac_loc, m->location);
	add(t, &f_mac_speed, m->speed);
	add(t, &f_mac_dev, r->devnum);
	add(t, &f_mac_ep, r->epnum);
	/* (Wireshark's bitmask here is headed by the number field) */
	add(t, &f_ep_num, r->epnum & 0x0f);
	t->depth++;
	add(t, &f_ep_dir, r->epnum >> 7);
	add(t, &f_ep_num, r->epnum & 0x0f);
	t->depth--;
	add(t, &f_mac_eptype, m->ep_type);
	add_linux_status(r, t);
	/* the frames, walked as the reader did (dissect_darwin_usb_iso_
	 * transfer's fields): each header, then a completion's data */
	for (i = 0, off = 0; i < r->niso && r->data_len - off > 8; i++) {
		d = r->data + off;
		fh = get_le32(d);
		fl = r->iso[i].len;
		if (fh < DARWIN_ISO_HDR || fh > r->data_len - off)
			break;
		dec_tree_push(t, dec_tree_printf(t, "Frame %u", i), DB_NONE,
		    0, 0);
		add(t, &f_mac_iso_frame, get_le64(d + 12));
		add(t, &f_iso_len, get_le32(d + 4));
		if (r->type == 'C') {
			if (fh >= DARWIN_ISO_HDR + 8)
				add(t, &f_mac_iso_ts, get_le64(d + 20));
			n = dec_tree_add(t, &f_mac_iso_status, DB_NONE, 0, 0,
			    r->iso[i].usbd);
			if (n != NULL)
				n->note = dec_darwin_status_name(
				    r->iso[i].usbd);
			if (fl > 0)
				dec_tree_add(t, &f_iso_data, DB_DATA,
				    r->iso[i].off, fl, 0);
			off += fl;
		}
		dec_tree_pop(t);
		off = (off + fh + 3) & ~3u;
		if (off > r->data_len)
			break;
	}
	add_addresses(r, t);
	dec_tree_pop(t);
}

static void
header_tree(const struct urb_rec *r, struct dec_tree *t)
{
	struct dec_node	*n;
	uint32_t	 i;

	dec_tree_push(t, "USB URB", DB_NONE, 0, 0);
	add(t, &f_urb_id, r->id);
	add(t, &f_urb_type, r->type);
	add(t, &f_xfer, r->xfer_type);
	add_endpoint(t, r->epnum);
	add(t, &f_dev, r->devnum);
	add(t, &f_bus, r->busnum);
	add(t, &f_setup_flag, r->flag_setup);
	add(t, &f_data_flag, r->flag_data);
	add(t, &f_ts_sec, (uint64_t)r->ts_sec);
	add(t, &f_ts_usec, (uint64_t)(uint32_t)r->ts_usec);
	n = dec_tree_add(t, &f_status, DB_NONE, 0, 0,
	    (uint64_t)(int64_t)r->status);
	if (n != NULL)
		n->note = dec_status_name(r->status);
	add(t, &f_urb_len, r->len_urb);
	add(t, &f_data_len, r->len_cap);
	/* interval and start_frame are the 64-byte header's (LINKTYPE 220);
	 * tshark shows neither from the 48-byte one (189) */
	if ((r->xfer_type == XFER_INT || r->xfer_type == XFER_ISO) &&
	    !(r->flags & REC_F_HDR48))
		add(t, &f_interval, (uint64_t)(uint32_t)r->interval);
	if (r->xfer_type == XFER_ISO) {
		if (!(r->flags & REC_F_HDR48))
			add(t, &f_start_frame,
			    (uint64_t)(uint32_t)r->start_frame);
		add(t, &f_iso_err, (uint64_t)(uint32_t)r->iso_error_count);
		add(t, &f_iso_numdesc, (uint64_t)(uint32_t)r->iso_numdesc);
	}
	if (!(r->flags & (REC_F_HDR48 | REC_F_TEXT))) {
		add(t, &f_xflags, r->xfer_flags);
		t->depth++;
		for (i = 0; i < nitems(xflag_bits); i++) {
			if (t->all_bits || (r->xfer_flags &
			    xflag_bits[i]->mask))
				add(t, xflag_bits[i],
				    (r->xfer_flags & xflag_bits[i]->mask) != 0);
		}
		t->depth--;
	}
	for (i = 0; i < r->niso; i++) {
		dec_tree_push(t, dec_tree_printf(t, "ISO descriptor %u", i),
		    DB_NONE, 0, 0);
		add(t, &f_iso_status,
		    (uint64_t)(int64_t)r->iso[i].status);
		add(t, &f_iso_off, r->iso[i].off);
		add(t, &f_iso_len, r->iso[i].len);
		/* a submit's packets, and a completion's that went well
		 * (dissect_linux_usb_iso_transfer) */
		if (r->type == 'S' || r->iso[i].status == 0)
			iso_data(r, i, t);
		dec_tree_pop(t);
	}
	/* last: the details pane shows the header fields first */
	add_addresses(r, t);
	dec_tree_pop(t);
}

/* Is the data stage of this control completion a descriptor? */
static int
is_descriptor_answer(const struct urb_rec *r, const struct dec_info *info)
{
	const struct dec_setup *s = &info->setup;

	return r->type == 'C' && (info->flags & DI_SETUP) &&
	    SETUP_DIR_IN(s) && s->bRequest == USB_REQ_GET_DESCRIPTOR &&
	    SETUP_TYPE(s) != 2 && r->data_len > 0;
}

/*
 * The answers of GET_STATUS, GET_CONFIGURATION and GET_INTERFACE (USB 2.0
 * 9.4.5, 9.4.2, 9.4.4) as Wireshark shows them: the value the request
 * asked for, nothing after it.
 */
static int
std_answer_tree(const struct urb_rec *r, const struct dec_info *info,
    struct dec_tree *t)
{
	const struct dec_setup *s = &info->setup;

	if (r->xfer_type != XFER_CTRL || r->type != 'C' || r->status != 0 ||
	    !(info->flags & DI_SETUP) || SETUP_TYPE(s) != 0 ||
	    !SETUP_DIR_IN(s))
		return 0;
	switch (s->bRequest) {
	case USB_REQ_GET_STATUS:
		if (r->data_len < 2)
			return 0;
		dec_tree_add(t, &f_wstatus, DB_DATA, 0, 2, get_le16(r->data));
		return 1;
	case USB_REQ_GET_CONFIGURATION:
		dec_tree_add(t, &f_answer_cfg, DB_DATA, 0, 1, r->data[0]);
		return 1;
	case USB_REQ_GET_INTERFACE:
		dec_tree_add(t, &f_answer_alt, DB_DATA, 0, 1, r->data[0]);
		return 1;
	}
	return 0;
}

/*
 * The interface that owns the record and its class, as Wireshark shows
 * it (0xffff when the capture did not say), then the class urbscope
 * decodes it as when that is a guess or the user's.
 */
static void
intf_tree(const struct dec_info *info, struct dec_tree *t)
{
	const char *label;
	char	 tmp[24];

	dec_tree_push(t, "Interface", DB_NONE, 0, 0);
	if ((info->flags & DI_CLASS) &&
	    !(info->flags & (DI_GUESSED | DI_DECODE_AS))) {
		add(t, &f_intf_num, (uint64_t)info->intf);
		add(t, &f_intf_class, info->cls);
	} else if (info->flags & (DI_GUESSED | DI_DECODE_AS)) {
		if (info->real_cls != 0xffff)
			add(t, &f_intf_num, (uint64_t)info->intf);
		add(t, &f_intf_class, info->real_cls);
		label = dec_tree_printf(t, "decoded as %s (%02x.%02x.%02x), "
		    "%s", dec_name_or(dec_classes, info->cls, tmp), info->cls,
		    info->subcls, info->proto, (info->flags & DI_GUESSED) ?
		    "guessed from the data" : "--decode-as");
		if (label != NULL) {
			dec_tree_push(t, label, DB_NONE, 0, 0);
			dec_tree_pop(t);
		}
	} else
		add(t, &f_intf_class, 0xffff);
	dec_tree_pop(t);
}

/*
 * Requests the class of their recipient decodes: class and vendor ones,
 * and GET_DESCRIPTOR of a class descriptor (HID report) sent to an
 * interface or endpoint (packet-usb.c try_dissect_next_protocol).
 */
static int
is_class_request(const struct dec_info *info)
{
	const struct dec_setup *s = &info->setup;

	if (!(info->flags & DI_SETUP))
		return 0;
	return SETUP_TYPE(s) != 0 ||
	    (s->bRequest == USB_REQ_GET_DESCRIPTOR && SETUP_RECIP(s) != 0);
}

/* A CDC class request to a communications interface: packet-usb-com.c
 * gives it the interface's subclass (dissect_usb_com_control). */
static void
cdc_request(const struct dec_info *info, struct dec_tree *t)
{
	if (dec_info_class(info) == 0x02 && SETUP_TYPE(&info->setup) == 1 &&
	    info->intf >= 0)
		dec_cdc_subclass(info, t);
}

void
dec_record_tree(const struct urb_rec *r, const struct dec_info *info,
    struct dec_tree *t)
{
	struct dec_setup s;
	struct dec_node	*n;
	const char	*c;
	uint32_t	 want, k;
	size_t		 i;
	int		 split_out = 0, status_stage = 0;

	/* the capture's comments on the packet, first as in Wireshark */
	if (r->ncomments > 0 && r->comments != NULL) {
		dec_tree_push(t, "Packet comments", DB_NONE, 0, 0);
		for (k = 0, c = r->comments; k < r->ncomments;
		    k++, c += strlen(c) + 1)
			if ((n = dec_tree_add(t, &f_comment, DB_NONE, 0, 0,
			    0)) != NULL)
				n->str = c;
		dec_tree_pop(t);
	}

	/*
	 * USBPcap's split control transfers, as Wireshark shows them: the
	 * setup stage of an OUT request whose data comes in a stage of its
	 * own is a standard setup (no class yet), the data stage repeats
	 * the setup, the status stage belongs to no class.
	 */
	if (r->origin == URB_ORIGIN_USBPCAP && r->xfer_type == XFER_CTRL) {
		split_out = r->win.stage == USBPCAP_STAGE_SETUP &&
		    r->flag_setup == 0 && !(r->setup[0] & 0x80) &&
		    get_le16(r->setup + 6) > 0 && r->len_cap == 0;
		status_stage = r->win.stage == USBPCAP_STAGE_STATUS;
	}

	if (r->origin == URB_ORIGIN_USBLL) {
		/* Wireshark's usbll, then the URB it hands to usb: only
		 * its addresses */
		dec_usbll_tree(r, t);
		/* a handshake or an empty status packet ends a transfer
		 * without bytes for the decoders (Wireshark hands only
		 * data to usb) */
		if (r->xfer_type == USBLL_XFER_PACKET ||
		    dec_usbll_kind(r->ll.pid) != USBLL_K_DATA ||
		    r->ll.raw_len <= 3)
			return;
		dec_tree_push(t, "USB URB", DB_NONE, 0, 0);
		add_addresses(r, t);
		dec_tree_pop(t);
	} else if (r->origin == URB_ORIGIN_USBPCAP)
		win_header_tree(r, t);
	else if (r->origin == URB_ORIGIN_DARWIN)
		darwin_header_tree(r, t);
	else
		header_tree(r, t);

	if (r->xfer_type > XFER_BULK || (r->xfer_type == XFER_ISO &&
	    r->origin == URB_ORIGIN_USBPCAP)) {
		/* USBPcap's IRP information: no endpoint of an interface;
		 * Wireshark gives USBPcap's ISO packets no class either */
	} else if (r->xfer_type != XFER_CTRL) {
		/* Unknown (Wireshark's 0xffff) until the enumeration tells. */
		intf_tree(info, t);
	} else if (r->xfer_type == XFER_CTRL && is_class_request(info) &&
	    !split_out && !status_stage &&
	    !(dec_info_class(info) > 0xff &&
	    (r->type == 'S' || r->data_len > 0))) {
		/*
		 * (Wireshark's product dissectors, such as ftdi-ft, take
		 * submits and completions with data: no class on those.)
		 */
		/*
		 * A class or vendor request goes to the class of its
		 * recipient (Wireshark's try_dissect_next_protocol, in
		 * epan/dissectors/packet-usb.c), which says "unknown"
		 * (0xffff) when the recipient is the device or "other".
		 */
		intf_tree(info, t);
	}
	if (info->flags & DI_PAIRED) {
		add(t, &f_request_in, info->pair_frame != 0 ?
		    info->pair_frame : info->pair_recno);
		if (info->latency_ns != DEC_TS_BAD)
			add(t, &f_time, (uint64_t)info->latency_ns);
	}

	if (r->type == 'S' && r->xfer_type == XFER_CTRL &&
	    r->flag_setup == 0) {
		dec_setup(r->setup, &s);
		dec_tree_push(t, "URB setup", DB_SETUP, 0, 8);
		dec_setup_tree_class(&s, split_out ? -1 : dec_info_class(info),
		    t);
		dec_tree_pop(t);
		if (!split_out)
			cdc_request(info, t);
	} else if (r->type == 'S' && (info->flags & DI_STAGE) &&
	    (info->flags & DI_SETUP)) {
		/* the setup of this data stage, from its setup stage */
		dec_tree_push(t, "URB setup (of the setup stage)", DB_NONE, 0,
		    0);
		dec_setup_tree_class(&info->setup, dec_info_class(info), t);
		dec_tree_pop(t);
		cdc_request(info, t);
	}

	if (r->data_len == 0) {
		dec_class_tree(r, info, t);
		return;
	}
	if (r->origin == URB_ORIGIN_DARWIN && r->xfer_type == XFER_ISO)
		return;		/* the frames have their data */
	want = urb_data_expected(r);
	if (want > r->data_len) {
		n = dec_tree_add(t, &f_captured, DB_DATA, 0, r->data_len,
		    r->data_len);
		if (n != NULL) {
			n->note = dec_tree_printf(t, "captured %u of %u bytes",
			    r->data_len, want);
			n->flags |= DN_CUT;
		}
	}
	if (r->xfer_type == XFER_ISO) {
		iso_rest(r, info, t);
		return;
	}
	if (is_descriptor_answer(r, info) && r->status == 0) {
		dec_desc_tree(r->data, r->data_len, &info->setup, t);
		return;
	}
	/* Wireshark tries its usb.bulk heuristics (AT commands) before
	 * the endpoint's class dissector, and its usb.control ones on the
	 * answer to a class or vendor request it saw (try_dissect_next_
	 * protocol from dissect_usb_setup_response) */
	if ((r->xfer_type == XFER_BULK || (r->xfer_type == XFER_CTRL &&
	    r->type == 'C' && (info->flags & DI_SETUP) &&
	    SETUP_TYPE(&info->setup) != 0)) && dec_at_heuristic(r->data,
	    r->data_len)) {
		dec_at_tree(r, t);
		return;
	}
	if (r->xfer_type == XFER_CTRL && r->type == 'S') {
		/* OUT data: the class's fields, and usb.data_fragment
		 * whoever read them (dissect_usb_setup_request) */
		i = t->n;
		dec_class_tree(r, info, t);
		while (i < t->n && t->node[i].f != &f_fragment)
			i++;
		if (i == t->n)
			dec_tree_fragment(r, t);
		return;
	}
	if (dec_class_tree(r, info, t) || std_answer_tree(r, info, t))
		return;
	if (r->xfer_type == XFER_CTRL && r->type == 'C' &&
	    !((info->flags & DI_SETUP) && SETUP_TYPE(&info->setup) == 0)) {
		/*
		 * The answer to a class or vendor request (or to one not
		 * seen) that no class took is usb.control.Response; a
		 * product's dissector (ftdi-ft) takes all of its answers
		 * (dissect_usb_setup_response in packet-usb.c).
		 */
		if (dec_info_class(info) <= 0xff)
			dec_tree_ctl_response(r, t);
		return;
	}
	/* a product's dissector (ftdi-ft) takes its bulk data too; its
	 * fields are not urbscope's */
	if (r->xfer_type == XFER_BULK && (info->flags & DI_IDS) &&
	    dec_product_class(info->vid, info->pid) > 0xff)
		return;
	dec_tree_leftover(r, t);
}

/*
 * An isochronous URB's data beside its packets' usb.iso.data: the class's
 * fields, and as usb.capdata what lies past the last packet of a usbmon
 * record (Wireshark's dissect_usb_payload from the end of the last
 * descriptor's data); USBPcap's packets take all of it.
 */
static void
iso_rest(const struct urb_rec *r, const struct dec_info *info,
    struct dec_tree *t)
{
	uint32_t	 end = 0;

	if (r->niso > 0 && (end = r->iso[r->niso - 1].off) <= r->data_len)
		end += r->iso[r->niso - 1].len <= r->data_len - end ?
		    r->iso[r->niso - 1].len : r->data_len - end;
	dec_class_tree(r, info, t);
	if (r->origin == URB_ORIGIN_USBMON && end < r->data_len)
		dec_tree_add(t, &f_capdata, DB_DATA, end, r->data_len - end,
		    0);
}

void
dec_tree_leftover(const struct urb_rec *r, struct dec_tree *t)
{
	/* the data stage of a control transfer is a fragment to
	 * Wireshark, other data is left over (packet-usb.c) */
	if (r->xfer_type == XFER_CTRL && r->type == 'S')
		dec_tree_fragment(r, t);
	else
		dec_tree_add(t, &f_capdata, DB_DATA, 0, r->data_len, 0);
}

void
dec_tree_fragment(const struct urb_rec *r, struct dec_tree *t)
{
	dec_tree_add(t, &f_fragment, DB_DATA, 0, r->data_len, 0);
}

void
dec_tree_ctl_response(const struct urb_rec *r, struct dec_tree *t)
{
	dec_tree_add(t, &f_ctl_response, DB_DATA, 0, r->data_len, 0);
}
