/*
 * decode/dec-record.c - the decoded tree of one record: the usbmon
 * pseudo-header with Wireshark's field names (epan/dissectors/packet-usb.c),
 * pairing and owning interface, the SETUP packet, and the data stage as
 * descriptors or raw capture data.  -V, JSON, -T fields and the TUI's
 * details pane all print this one tree.
 */
#include "decode.h"

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

#define F(var, name, abbrev, kind, width, names, mask)			\
	static const struct dec_field var = {				\
		name, abbrev, kind, width, names, mask			\
	}

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
F(f_captured, "Captured", NULL, DK_UINT, 4, NULL, 0);

static void
add(struct dec_tree *t, const struct dec_field *f, uint64_t v)
{
	dec_tree_add(t, f, DB_NONE, 0, 0, v);
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
	add(t, &f_ep, r->epnum);
	t->depth++;
	add(t, &f_ep_dir, r->epnum >> 7);
	add(t, &f_ep_num, r->epnum & 0x0f);
	t->depth--;
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
	if (r->xfer_type == XFER_INT || r->xfer_type == XFER_ISO)
		add(t, &f_interval, (uint64_t)(uint32_t)r->interval);
	if (r->xfer_type == XFER_ISO) {
		add(t, &f_start_frame, (uint64_t)(uint32_t)r->start_frame);
		add(t, &f_iso_err, (uint64_t)(uint32_t)r->iso_error_count);
		add(t, &f_iso_numdesc, (uint64_t)(uint32_t)r->iso_numdesc);
	}
	if (!(r->flags & (REC_F_HDR48 | REC_F_TEXT)))
		add(t, &f_xflags, r->xfer_flags);
	for (i = 0; i < r->niso; i++) {
		dec_tree_push(t, dec_tree_printf(t, "ISO descriptor %u", i),
		    DB_NONE, 0, 0);
		add(t, &f_iso_status,
		    (uint64_t)(int64_t)r->iso[i].status);
		add(t, &f_iso_off, r->iso[i].off);
		add(t, &f_iso_len, r->iso[i].len);
		dec_tree_pop(t);
	}
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

void
dec_record_tree(const struct urb_rec *r, const struct dec_info *info,
    struct dec_tree *t)
{
	struct dec_setup s;
	struct dec_node	*n;
	uint32_t	 want;

	header_tree(r, t);

	if (r->xfer_type != XFER_CTRL) {
		/* Unknown (Wireshark's 0xffff) until the enumeration tells. */
		dec_tree_push(t, "Interface", DB_NONE, 0, 0);
		if (info->flags & DI_CLASS) {
			add(t, &f_intf_num, (uint64_t)info->intf);
			add(t, &f_intf_class, info->cls);
		} else
			add(t, &f_intf_class, 0xffff);
		dec_tree_pop(t);
	} else if (r->xfer_type == XFER_CTRL && is_class_request(info) &&
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
		dec_tree_push(t, "Interface", DB_NONE, 0, 0);
		if (info->flags & DI_CLASS) {
			add(t, &f_intf_num, (uint64_t)info->intf);
			add(t, &f_intf_class, info->cls);
		} else
			add(t, &f_intf_class, 0xffff);
		dec_tree_pop(t);
	}
	if (info->flags & DI_PAIRED) {
		add(t, &f_request_in, info->pair_recno);
		if (info->latency_ns != DEC_TS_BAD)
			add(t, &f_time, (uint64_t)info->latency_ns);
	}

	if (r->type == 'S' && r->xfer_type == XFER_CTRL &&
	    r->flag_setup == 0) {
		dec_setup(r->setup, &s);
		dec_tree_push(t, "URB setup", DB_SETUP, 0, 8);
		dec_setup_tree_class(&s, dec_info_class(info), t);
		dec_tree_pop(t);
	}

	if (r->data_len == 0)
		return;
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
	if (is_descriptor_answer(r, info) && r->status == 0) {
		dec_desc_tree(r->data, r->data_len, &info->setup, t);
		return;
	}
	dec_tree_add(t, &f_capdata, DB_DATA, 0, r->data_len, 0);
}
