/*
 * decode/dec-cdc.c - communications devices: the functional descriptors
 * of a communications interface, the data of its class requests (line
 * coding), its notifications, and the byte stream of a data interface.
 *
 * Facts: CDC 1.2 (5.2.3 functional descriptors, 6.3 notifications), PSTN
 * 1.2 (5.3 ACM and call management descriptors, 6.3.10 line coding, 6.5
 * notifications), ECM 1.2 (5.4 Ethernet networking descriptor), NCM 1.0
 * (5.2.1); Linux include/uapi/linux/usb/cdc.h, drivers/usb/class/cdc-acm.c.
 * Field names are Wireshark's (epan/dissectors/packet-usb-com.c, usbcom.*)
 * where it has them; what it leaves as bytes (Country Selection, NCM,
 * MDLM, the line coding, the serial state) is decoded below those bytes
 * under names in its style.
 */
#include <string.h>

#include "class.h"

static const struct dec_name cdc_subtypes[] = {	/* CDC 1.2 table 13 */
	{ 0x00, "Header Functional Descriptor" },
	{ 0x01, "Call Management Functional Descriptor" },
	{ 0x02, "Abstract Control Management Functional Descriptor" },
	{ 0x03, "Direct Line Management Functional Descriptor" },
	{ 0x04, "Telephone Ringer Functional Descriptor" },
	{ 0x05, "Telephone Call and Line State Reporting Capabilities "
	    "Functional Descriptor" },
	{ 0x06, "Union Functional Descriptor" },
	{ 0x07, "Country Selection Functional Descriptor" },
	{ 0x08, "Telephone Operational Modes Functional Descriptor" },
	{ 0x09, "USB Terminal Functional Descriptor" },
	{ 0x0a, "Network Channel Terminal Descriptor" },
	{ 0x0b, "Protocol Unit Functional Descriptor" },
	{ 0x0c, "Extension Unit Functional Descriptor" },
	{ 0x0d, "Multi-Channel Management Functional Descriptor" },
	{ 0x0e, "CAPI Control Management Functional Descriptor" },
	{ 0x0f, "Ethernet Networking Functional Descriptor" },
	{ 0x10, "ATM Networking Functional Descriptor" },
	{ 0x11, "Wireless Handset Control Model Functional Descriptor" },
	{ 0x12, "Mobile Direct Line Model Functional Descriptor" },
	{ 0x13, "MDLM Detail Functional Descriptor" },
	{ 0x14, "Device Management Model Functional Descriptor" },
	{ 0x15, "OBEX Functional Descriptor" },
	{ 0x16, "Command Set Functional Descriptor" },
	{ 0x17, "Command Set Detail Functional Descriptor" },
	{ 0x18, "Telephone Control Model Functional Descriptor" },
	{ 0x19, "OBEX Service Identifier Functional Descriptor" },
	{ 0x1a, "NCM Functional Descriptor" },
	{ 0x1b, "MBIM Functional Descriptor" },
	{ 0x1c, "MBIM Extended Functional Descriptor" },
	{ 0, NULL }
};

static const struct dec_name cdc_notifs[] = {	/* PSTN 6.5, CDC 6.3 */
	{ 0x00, "NETWORK_CONNECTION" },
	{ 0x01, "RESPONSE_AVAILABLE" },
	{ 0x08, "AUX_JACK_HOOK_STATE" },
	{ 0x09, "RING_DETECT" },
	{ 0x20, "SERIAL_STATE" },
	{ 0x28, "CALL_STATE_CHANGE" },
	{ 0x29, "LINE_STATE_CHANGE" },
	{ 0x2a, "CONNECTION_SPEED_CHANGE" },
	{ 0, NULL }
};

static const struct dec_name nw_conn[] = {	/* CDC 1.2 6.3.1 */
	{ 0, "Disconnect" },
	{ 1, "Connected" },
	{ 0, NULL }
};

static const struct dec_name stop_bits[] = {	/* PSTN table 17 */
	{ 0, "1 stop bit" },
	{ 1, "1.5 stop bits" },
	{ 2, "2 stop bits" },
	{ 0, NULL }
};

static const struct dec_name parities[] = {
	{ 0, "None" },
	{ 1, "Odd" },
	{ 2, "Even" },
	{ 3, "Mark" },
	{ 4, "Space" },
	{ 0, NULL }
};

#define F DEC_FIELD
/* Descriptors (usbcom.descriptor.*) */
F(f_subtype, "Descriptor Subtype", "usbcom.descriptor.subtype", DK_HEX, 1,
    cdc_subtypes, 0);
F(f_cdc, "CDC", "usbcom.descriptor.cdc", DK_HEX, 2, NULL, 0);
F(f_dpayload, "Payload", "usbcom.descriptor.payload", DK_BYTES, 0, NULL, 0);
F(f_caps, "bmCapabilities", "usbcom.descriptor.capabilities", DK_HEX, 1,
    NULL, 0);
F(f_cm_res, "Reserved", "usbcom.descriptor.cm.capabilities.reserved",
    DK_HEX, 1, NULL, 0xfc);
F(f_cm_data, "Call Management over Data Class Interface",
    "usbcom.descriptor.cm.capabilities."
    "call_management_over_data_class_interface", DK_BOOL, 1, NULL, 0x02);
F(f_cm_cm, "Call Management",
    "usbcom.descriptor.cm.capabilities.call_management", DK_BOOL, 1, NULL,
    0x01);
F(f_cm_intf, "Data Interface", "usbcom.descriptor.cm.data_interface",
    DK_HEX, 1, NULL, 0);
F(f_acm_res, "Reserved", "usbcom.descriptor.acm.capabilities.reserved",
    DK_HEX, 1, NULL, 0xf0);
F(f_acm_nc, "Network_Connection",
    "usbcom.descriptor.acm.capabilities.network_connection", DK_BOOL, 1,
    NULL, 0x08);
F(f_acm_brk, "Send_Break", "usbcom.descriptor.acm.capabilities.send_break",
    DK_BOOL, 1, NULL, 0x04);
F(f_acm_line, "Line Requests and State Notification",
    "usbcom.descriptor.acm.capabilities.line_and_state", DK_BOOL, 1, NULL,
    0x02);
F(f_acm_feat, "Comm Features Combinations",
    "usbcom.descriptor.acm.capabilities.comm_features", DK_BOOL, 1, NULL,
    0x01);
F(f_ctl_intf, "Control Interface", "usbcom.descriptor.control_interface",
    DK_HEX, 1, NULL, 0);
F(f_sub_intf, "Subordinate Interface",
    "usbcom.descriptor.subordinate_interface", DK_HEX, 1, NULL, 0);
F(f_ecm_mac, "MAC Address", "usbcom.descriptor.ecm.mac_address", DK_HEX, 1,
    NULL, 0);
F(f_ecm_stats, "Ethernet Statistics", "usbcom.descriptor.ecm.eth_stats",
    DK_HEX, 4, NULL, 0);
F(f_ecm_mss, "Max Segment Size", "usbcom.descriptor.ecm.max_segment_size",
    DK_UINT, 2, NULL, 0);
F(f_ecm_mc, "Number MC Filters", "usbcom.descriptor.ecm.nb_mc_filters",
    DK_HEX, 2, NULL, 0);
F(f_ecm_mc_imp, "Multicast Address Filtering",
    "usbcom.descriptor.ecm.nb_mc_filters.mc_address_filtering", DK_BOOL, 2,
    NULL, 0x8000);
F(f_ecm_mc_n, "Number of Multicast Address Filters Supported",
    "usbcom.descriptor.ecm.nb_mc_filters.nb_filters_supported", DK_UINT, 2,
    NULL, 0x7fff);
F(f_ecm_pf, "Number Power Filters", "usbcom.descriptor.ecm.nb_power_filters",
    DK_UINT, 1, NULL, 0);
/* what tshark leaves in the payload */
F(f_cs_date, "iCountryCodeRelDate",
    "usbcom.descriptor.country.release_date", DK_UINT, 1, NULL, 0);
F(f_cs_code, "wCountryCode", "usbcom.descriptor.country.code", DK_HEX, 2,
    NULL, 0);
F(f_ncm_ver, "bcdNcmVersion", "usbcom.descriptor.ncm.version", DK_BCD, 2,
    NULL, 0);
F(f_ncm_caps, "bmNetworkCapabilities",
    "usbcom.descriptor.ncm.network_capabilities", DK_HEX, 1, NULL, 0);
F(f_mdlm_ver, "bcdVersion", "usbcom.descriptor.mdlm.version", DK_BCD, 2,
    NULL, 0);
F(f_mdlm_guid, "bGUID", "usbcom.descriptor.mdlm.guid", DK_BYTES, 0, NULL,
    0);

/* The statistics bits of ECM 1.2 table 4, in Wireshark's order. */
#define ST(var, name, abbrev, mask)					\
	F(var, name, "usbcom.descriptor.ecm.eth_stats." abbrev, DK_BOOL, 4,	\
	    NULL, mask)
F(f_st_res, "Reserved", "usbcom.descriptor.ecm.eth_stats.reserved", DK_HEX,
    4, NULL, 0xe0000000);
ST(f_st28, "XMIT Late Collisions", "xmit_late_collisions", 0x10000000);
ST(f_st27, "XMIT TImes CRS Lost", "xmit_times_crs_lost", 0x08000000);
ST(f_st26, "XMIT Heartbeat Failure", "xmit_heartbeat_failure", 0x04000000);
ST(f_st25, "XMIT Underrun", "xmit_underrun", 0x02000000);
ST(f_st24, "RCV Overrun", "rcv_overrun", 0x01000000);
ST(f_st23, "XMIT Max Collisions", "xmit_max_collisions", 0x00800000);
ST(f_st22, "XMIT Deferred", "xmit_deferred", 0x00400000);
ST(f_st21, "XMIT More Collisions", "xmit_more_collisions", 0x00200000);
ST(f_st20, "XMIT One Collision", "xmit_one_collision", 0x00100000);
ST(f_st19, "RCV Error Alignment", "rcv_error_alignment", 0x00080000);
ST(f_st18, "Transmit Queue Length", "transmit_queue_length", 0x00040000);
ST(f_st17, "RCV CRC Error", "rcv_crc_error", 0x00020000);
ST(f_st16, "Broadcast Frames RCV", "broadcast_frames_rcv", 0x00010000);
ST(f_st15, "Broadcast Bytes RCV", "broadcast_bytes_rcv", 0x00008000);
ST(f_st14, "Multicast Frames RCV", "multicast_frames_rcv", 0x00004000);
ST(f_st13, "Multicast Bytes RCV", "multicast_bytes_rcv", 0x00002000);
ST(f_st12, "Directed Frames RCV", "directed_frames_rcv", 0x00001000);
ST(f_st11, "Directed Bytes RCV", "directed_bytes_rcv", 0x00000800);
ST(f_st10, "Broadcast Frames XMIT", "broadcast_frames_xmit", 0x00000400);
ST(f_st09, "Broadcast Bytes XMIT", "broadcast_bytes_xmit", 0x00000200);
ST(f_st08, "Multicast Frames XMIT", "multicast_frames_xmit", 0x00000100);
ST(f_st07, "Multicast Bytes XMIT", "multicast_bytes_xmit", 0x00000080);
ST(f_st06, "Directed Frames XMIT", "directed_frames_xmit", 0x00000040);
ST(f_st05, "Directed Bytes XMIT", "directed_bytes_xmit", 0x00000020);
ST(f_st04, "RCV No Buffer", "rcv_no_buffer", 0x00000010);
ST(f_st03, "RCV Error", "rcv_error", 0x00000008);
ST(f_st02, "XMIT Error", "xmit_error", 0x00000004);
ST(f_st01, "RCV OK", "rvc_ok", 0x00000002);
ST(f_st00, "XMIT OK", "xmit_ok", 0x00000001);

static const struct dec_field *const eth_stats[] = {
	&f_st_res, &f_st28, &f_st27, &f_st26, &f_st25, &f_st24, &f_st23,
	&f_st22, &f_st21, &f_st20, &f_st19, &f_st18, &f_st17, &f_st16,
	&f_st15, &f_st14, &f_st13, &f_st12, &f_st11, &f_st10, &f_st09,
	&f_st08, &f_st07, &f_st06, &f_st05, &f_st04, &f_st03, &f_st02,
	&f_st01, &f_st00, NULL
};
static const struct dec_field *const cm_bits[] = {
	&f_cm_res, &f_cm_data, &f_cm_cm, NULL
};
static const struct dec_field *const acm_bits[] = {
	&f_acm_res, &f_acm_nc, &f_acm_brk, &f_acm_line, &f_acm_feat, NULL
};
static const struct dec_field *const mc_bits[] = {
	&f_ecm_mc_imp, &f_ecm_mc_n, NULL
};

/* Communications interface subclasses (CDC 1.2 table 4). */
static const struct dec_name cdc_subclasses[] = {
	{ 0x00, "RESERVED" },
	{ 0x01, "Direct Line Control Model" },
	{ 0x02, "Abstract Control Model" },
	{ 0x03, "Telephone Control Model" },
	{ 0x04, "Multi-Channel Control Model" },
	{ 0x05, "CAPI Control Model" },
	{ 0x06, "Ethernet Networking Control Model" },
	{ 0x07, "ATM Networking Control Model" },
	{ 0x08, "Wireless Handset Control Model" },
	{ 0x09, "Device Management" },
	{ 0x0a, "Mobile Direct Line Model" },
	{ 0x0b, "OBEX" },
	{ 0x0c, "Ethernet Emulation Model" },
	{ 0x0d, "Network Control Model" },
	{ 0x0e, "Mobile Broadband Interface Model" },
	{ 0, NULL }
};

/* Requests (usbcom.control.*) */
F(f_csubclass, "Subclass", "usbcom.control.subclass", DK_HEX, 1,
    cdc_subclasses, 0);
F(f_resp, "Response Code", "usbcom.control.response_code", DK_HEX, 1, NULL,
    0);
F(f_cpayload, "Payload", "usbcom.control.payload", DK_BYTES, 0, NULL, 0);
F(f_lc_rate, "dwDTERate", "usbcom.line_coding.dte_rate", DK_UINT, 4, NULL,
    0);
F(f_lc_stop, "bCharFormat", "usbcom.line_coding.char_format", DK_UINT, 1,
    stop_bits, 0);
F(f_lc_par, "bParityType", "usbcom.line_coding.parity_type", DK_UINT, 1,
    parities, 0);
F(f_lc_bits, "bDataBits", "usbcom.line_coding.data_bits", DK_UINT, 1, NULL,
    0);

/* Notifications (usbcom.interrupt.*) */
F(f_n_rt, "Request Type", "usbcom.interrupt.request_type", DK_HEX, 1, NULL,
    0);
F(f_n_code, "Notification Code", "usbcom.interrupt.notification_code",
    DK_HEX, 1, cdc_notifs, 0);
F(f_n_value, "Value", "usbcom.interrupt.value", DK_HEX, 2, NULL, 0);
F(f_n_value_nc, "Value", "usbcom.interrupt.value", DK_HEX, 2, nw_conn, 0);
F(f_n_index, "Index", "usbcom.interrupt.index", DK_UINT, 2, NULL, 0);
F(f_n_length, "Length", "usbcom.interrupt.length", DK_UINT, 2, NULL, 0);
F(f_n_dl, "DL Bitrate", "usbcom.interrupt.conn_speed_change.dl_bitrate",
    DK_UINT, 4, NULL, 0);
F(f_n_ul, "UL Bitrate", "usbcom.interrupt.conn_speed_change.ul_bitrate",
    DK_UINT, 4, NULL, 0);
F(f_n_payload, "Payload", "usbcom.interrupt.payload", DK_BYTES, 0, NULL, 0);
F(f_ss, "UART State", "usbcom.serial_state", DK_HEX, 2, NULL, 0);
F(f_ss_dcd, "bRxCarrier (DCD)", "usbcom.serial_state.dcd", DK_BOOL, 2, NULL,
    0x0001);
F(f_ss_dsr, "bTxCarrier (DSR)", "usbcom.serial_state.dsr", DK_BOOL, 2, NULL,
    0x0002);
F(f_ss_brk, "bBreak", "usbcom.serial_state.break", DK_BOOL, 2, NULL,
    0x0004);
F(f_ss_ring, "bRingSignal", "usbcom.serial_state.ring", DK_BOOL, 2, NULL,
    0x0008);
F(f_ss_fram, "bFraming", "usbcom.serial_state.framing", DK_BOOL, 2, NULL,
    0x0010);
F(f_ss_par, "bParity", "usbcom.serial_state.parity", DK_BOOL, 2, NULL,
    0x0020);
F(f_ss_over, "bOverRun", "usbcom.serial_state.overrun", DK_BOOL, 2, NULL,
    0x0040);
static const struct dec_field *const ss_bits[] = {
	&f_ss_dcd, &f_ss_dsr, &f_ss_brk, &f_ss_ring, &f_ss_fram, &f_ss_par,
	&f_ss_over, NULL
};
#undef F

/* What tshark leaves in usbcom.descriptor.payload, below it. */
static void
desc_payload(struct dec_cur *c, uint8_t subtype)
{
	size_t	 i;

	if (!dec_cur_rest(c, &f_dpayload, 3))
		return;
	c->t->depth++;
	switch (subtype) {
	case 0x07:			/* Country Selection, CDC 5.2.3.9 */
		dec_cur_field(c, &f_cs_date, 3, 1, NULL);
		for (i = 4; i + 2 <= c->n; i += 2)
			dec_cur_field(c, &f_cs_code, i, 2, NULL);
		break;
	case 0x12:			/* MDLM, WMC 1.1 6.7.2.3 */
		if (dec_cur_field(c, &f_mdlm_ver, 3, 2, NULL))
			dec_cur_field(c, &f_mdlm_guid, 5, 16, NULL);
		break;
	case 0x1a:			/* NCM 1.0 5.2.1 */
		if (dec_cur_field(c, &f_ncm_ver, 3, 2, NULL))
			dec_cur_field(c, &f_ncm_caps, 5, 1, NULL);
		break;
	}
	c->t->depth--;
}

/* A CS_INTERFACE or CS_ENDPOINT descriptor after a communications
 * interface, as Wireshark's dissect_usb_com_descriptor lays it out. */
static int
cdc_desc(const struct dec_cls_desc *d, struct dec_tree *t)
{
	struct dec_cur	 c = { t, d->p, d->n, d->off, 0 };
	const char	*name, *s;
	uint32_t	 st;
	size_t		 i, len;

	if (d->n < 2 || (d->p[1] != 0x24 && d->p[1] != 0x25))
		return 0;
	if (d->p[1] == 0x25) {
		d->label->str = "CS_ENDPOINT descriptor";
		dec_cur_rest(&c, &f_dpayload, 2);
		return 1;
	}
	if (!dec_cur_field(&c, &f_subtype, 2, 1, &st)) {
		d->label->str = "CS_INTERFACE descriptor";
		return 1;
	}
	if ((name = dec_name_find(cdc_subtypes, st)) != NULL) {
		/* "Union Functional Descriptor" -> "Union" */
		len = strlen(name);
		if (len > 22 && strcmp(name + len - 22,
		    " Functional Descriptor") == 0)
			len -= 22;
		s = dec_tree_printf(t, "CS_INTERFACE descriptor: %.*s",
		    (int)len, name);
	} else
		s = dec_tree_printf(t, "CS_INTERFACE descriptor: subtype "
		    "0x%02x", st);
	if (s != NULL)
		d->label->str = s;
	switch (st) {
	case 0x00:			/* Header, CDC 5.2.3.1 */
		dec_cur_field(&c, &f_cdc, 3, 2, NULL);
		dec_cur_rest(&c, &f_dpayload, 5);
		break;
	case 0x01:			/* Call Management, PSTN 5.3.1 */
		dec_cur_word(&c, &f_caps, cm_bits, 3, 1, NULL);
		dec_cur_field(&c, &f_cm_intf, 4, 1, NULL);
		dec_cur_rest(&c, &f_dpayload, 5);
		break;
	case 0x02:			/* ACM, PSTN 5.3.2 */
		dec_cur_word(&c, &f_caps, acm_bits, 3, 1, NULL);
		dec_cur_rest(&c, &f_dpayload, 4);
		break;
	case 0x06:			/* Union, CDC 5.2.3.2 */
		dec_cur_field(&c, &f_ctl_intf, 3, 1, NULL);
		for (i = 4; i < c.n; i++)
			dec_cur_field(&c, &f_sub_intf, i, 1, NULL);
		break;
	case 0x0f:			/* Ethernet Networking, ECM 5.4 */
		dec_cur_field(&c, &f_ecm_mac, 3, 1, NULL);
		dec_cur_word(&c, &f_ecm_stats, eth_stats, 4, 4, NULL);
		dec_cur_field(&c, &f_ecm_mss, 8, 2, NULL);
		dec_cur_word(&c, &f_ecm_mc, mc_bits, 10, 2, NULL);
		dec_cur_field(&c, &f_ecm_pf, 12, 1, NULL);
		dec_cur_rest(&c, &f_dpayload, 13);
		break;
	default:
		desc_payload(&c, (uint8_t)st);
		break;
	}
	return 1;
}

/* ------------------------------------------------------------------------
 * Class requests' data and notifications.
 */

#define REQ_SET_LINE_CODING	0x20
#define REQ_GET_LINE_CODING	0x21

void
dec_cdc_subclass(const struct dec_info *info, struct dec_tree *t)
{
	dec_tree_add(t, &f_csubclass, DB_NONE, 0, 0, info->subcls);
}

/* The line coding of PSTN 6.3.10 (7 bytes) below the payload. */
static void
line_coding(struct dec_cur *c)
{
	c->t->depth++;
	if (dec_cur_field(c, &f_lc_rate, 0, 4, NULL) &&
	    dec_cur_field(c, &f_lc_stop, 4, 1, NULL) &&
	    dec_cur_field(c, &f_lc_par, 5, 1, NULL))
		dec_cur_field(c, &f_lc_bits, 6, 1, NULL);
	c->t->depth--;
}

/* Is this record a control transfer's data that the class dissector
 * sees: an OUT request's on its submit, an IN request's answer? */
static int
ctrl_data(const struct urb_rec *r, const struct dec_info *info)
{
	if (r->data_len == 0 || (r->status != 0 && r->type != 'S'))
		return 0;
	if (SETUP_DIR_IN(&info->setup))
		return r->type == 'C';
	return r->type == 'S';
}

static int
cdc_ctrl_tree(const struct dec_cls_arg *a, struct dec_tree *t)
{
	const struct urb_rec *r = a->r;
	struct dec_cur	 c = { t, r->data, r->data_len, 0, 0 };
	uint8_t		 req = a->info->setup.bRequest;

	if (!ctrl_data(r, a->info))
		return 0;
	if (r->type == 'C') {
		dec_cdc_subclass(a->info, t);
		dec_tree_add(t, &f_resp, DB_NONE, 0, 0, req);
	}
	dec_cur_rest(&c, &f_cpayload, 0);
	if (req == REQ_SET_LINE_CODING || req == REQ_GET_LINE_CODING)
		line_coding(&c);
	return 1;
}

/* A notification (CDC 6.3): the 8 bytes of a setup packet's layout, then
 * its data; tshark splits the three it knows, the rest is payload. */
static int
cdc_notif_tree(const struct dec_cls_arg *a, struct dec_tree *t)
{
	const struct urb_rec *r = a->r;
	struct dec_cur	 c = { t, r->data, r->data_len, 0, 0 };
	uint32_t	 code, v;

	if (r->type != 'C' || r->data_len == 0)
		return 0;
	dec_cur_field(&c, &f_n_rt, 0, 1, NULL);
	if (!dec_cur_field(&c, &f_n_code, 1, 1, &code))
		return 1;
	switch (code) {
	case 0x00:
	case 0x01:
	case 0x2a:
		dec_cur_field(&c, code == 0 ? &f_n_value_nc : &f_n_value, 2,
		    2, NULL);
		dec_cur_field(&c, &f_n_index, 4, 2, NULL);
		dec_cur_field(&c, &f_n_length, 6, 2, NULL);
		if (code == 0x2a) {
			dec_cur_field(&c, &f_n_dl, 8, 4, NULL);
			dec_cur_field(&c, &f_n_ul, 12, 4, NULL);
			dec_cur_rest(&c, &f_n_payload, 16);
		} else
			dec_cur_rest(&c, &f_n_payload, 8);
		break;
	default:
		if (!dec_cur_rest(&c, &f_n_payload, 2))
			break;
		if (code == 0x20 && r->data_len >= 10) {
			/* PSTN 6.5.4: the UART state bitmap after the
			 * header */
			t->depth++;
			v = get_le16(r->data + 8);
			dec_cur_word(&c, &f_ss, ss_bits, 8, 2, &v);
			t->depth--;
		}
		break;
	}
	return 1;
}

static int
cdc_tree(const struct dec_cls_arg *a, struct dec_tree *t)
{
	if (a->r->xfer_type == XFER_CTRL)
		return cdc_ctrl_tree(a, t);
	if (a->r->xfer_type == XFER_INT && urb_is_in(a->r))
		return cdc_notif_tree(a, t);
	return 0;
}

/* "115200 8N1" (PSTN 6.3.10) */
static void
line_coding_summary(const uint8_t *p, size_t n, struct sbuf *b)
{
	static const char par[] = "NOEMS";

	sb_u64(b, get_le32(p));
	if (n < 7)
		return;
	sb_putc(b, ' ');
	sb_u64(b, p[6]);
	sb_putc(b, p[5] < 5 ? par[p[5]] : '?');
	sb_puts(b, p[4] == 0 ? "1" : p[4] == 1 ? "1.5" : p[4] == 2 ? "2" :
	    "?");
}

static int
cdc_summary(const struct dec_cls_arg *a, struct sbuf *b)
{
	static const char *const ss_names[] = {
		"DCD", "DSR", "break", "ring", "framing error",
		"parity error", "overrun"
	};
	const struct urb_rec *r = a->r;
	const uint8_t	*p = r->data;
	char		 tmp[24];
	uint16_t	 v;
	int		 i, any = 0;

	if (r->xfer_type == XFER_CTRL) {
		if (!ctrl_data(r, a->info) || r->data_len < 4 ||
		    (a->info->setup.bRequest != REQ_SET_LINE_CODING &&
		    a->info->setup.bRequest != REQ_GET_LINE_CODING))
			return 0;
		line_coding_summary(p, r->data_len, b);
		return 1;
	}
	if (r->xfer_type != XFER_INT || !urb_is_in(r) || r->data_len < 8)
		return 0;
	sb_puts(b, dec_name_or(cdc_notifs, p[1], tmp));
	sb_puts(b, " intf ");
	sb_u64(b, get_le16(p + 4));
	switch (p[1]) {
	case 0x00:
		sb_puts(b, get_le16(p + 2) ? ": connected" :
		    ": disconnected");
		break;
	case 0x20:
		if (r->data_len < 10)
			break;
		v = get_le16(p + 8);
		sb_putc(b, ':');
		for (i = 0; i < 7; i++) {
			if (v & (1 << i)) {
				sb_puts(b, any ? ", " : " ");
				sb_puts(b, ss_names[i]);
				any = 1;
			}
		}
		if (!any)
			sb_puts(b, " no lines");
		break;
	case 0x2a:
		if (r->data_len < 16)
			break;
		sb_puts(b, ": down ");
		sb_u64(b, get_le32(p + 8));
		sb_puts(b, " up ");
		sb_u64(b, get_le32(p + 12));
		sb_puts(b, " bit/s");
		break;
	}
	return 1;
}

/* Communications interface, any model (CDC 1.2 4.2). */
const struct dec_class_ops dec_class_cdc = {
	.name = "CDC",
	.wsproto = "usbcom",
	.cls = 0x02, .subcls = DEC_CLS_ANY, .proto = DEC_CLS_ANY,
	.summary = cdc_summary,
	.tree = cdc_tree,
	.desc = cdc_desc,
};

/* ------------------------------------------------------------------------
 * The data interface (CDC 1.2 4.5): a byte stream, shown as text.
 */

#define STREAM_MAX	48		/* bytes quoted in a summary */

static int
cdc_data_summary(const struct dec_cls_arg *a, struct sbuf *b)
{
	const struct urb_rec *r = a->r;
	size_t		 i, n;
	uint8_t		 ch;

	if (r->xfer_type != XFER_BULK)
		return 0;
	n = r->data_len < STREAM_MAX ? r->data_len : STREAM_MAX;
	sb_putc(b, '"');
	for (i = 0; i < n; i++) {
		ch = r->data[i];
		switch (ch) {
		case '\r':
			sb_puts(b, "\\r");
			break;
		case '\n':
			sb_puts(b, "\\n");
			break;
		case '\t':
			sb_puts(b, "\\t");
			break;
		case '"':
		case '\\':
			sb_putc(b, '\\');
			sb_putc(b, (char)ch);
			break;
		default:
			if (ch >= 0x20 && ch < 0x7f)
				sb_putc(b, (char)ch);
			else {
				sb_puts(b, "\\x");
				sb_hex(b, ch, 2);
			}
			break;
		}
	}
	sb_putc(b, '"');
	if (n < r->data_len)
		sb_puts(b, "...");
	return 1;
}

/*
 * Bulk data Wireshark 4.0 reads as an Ethernet frame without FCS (its
 * dissect_usb_com_bulk, for every data interface but an NCM/MBIM one,
 * protocols 1 and 2): the header's addresses and type (IEEE 802.3 3.1.1),
 * when there is a whole header; shorter data stays usb.capdata.
 */
DEC_FIELD(f_eth_dst, "Destination", "eth.dst", DK_STRING, 6, NULL, 0);
DEC_FIELD(f_eth_src, "Source", "eth.src", DK_STRING, 6, NULL, 0);
DEC_FIELD(f_eth_type, "Type", "eth.type", DK_HEX, 2, NULL, 0);
DEC_FIELD(f_eth_len, "Length", "eth.len", DK_UINT, 2, NULL, 0);

#define ETH_HLEN	14

static void
eth_addr(struct dec_tree *t, const struct dec_field *f, const uint8_t *a,
    uint32_t off)
{
	struct dec_node	*n;

	n = dec_tree_add(t, f, DB_DATA, off, 6, 0);
	if (n != NULL) {
		n->str = dec_tree_printf(t, "%02x:%02x:%02x:%02x:%02x:%02x",
		    a[0], a[1], a[2], a[3], a[4], a[5]);
		n->flags |= DN_PLAIN;
	}
}

static int
cdc_data_tree(const struct dec_cls_arg *a, struct dec_tree *t)
{
	const struct urb_rec *r = a->r;

	uint16_t	 type;

	/* (Wireshark's usbll hands a data interface's bytes to no class) */
	if (r->xfer_type != XFER_BULK || r->data_len < ETH_HLEN ||
	    r->origin == URB_ORIGIN_USBLL ||
	    a->info->proto == 0x01 || a->info->proto == 0x02)
		return 0;
	dec_tree_push(t, "Ethernet II", DB_NONE, 0, 0);
	eth_addr(t, &f_eth_dst, r->data, 0);
	eth_addr(t, &f_eth_src, r->data + 6, 6);
	/* a type, or an IEEE 802.3 length (3.2.6); 0 is a type to
	 * Wireshark's packet-eth.c */
	type = get_be16(r->data + 12);
	dec_tree_add(t, type != 0 && type <= 1500 ? &f_eth_len : &f_eth_type,
	    DB_DATA, 12, 2, type);
	dec_tree_pop(t);
	return 1;
}

const struct dec_class_ops dec_class_cdc_data = {
	.name = "CDC data",
	.cls = 0x0a, .subcls = DEC_CLS_ANY, .proto = DEC_CLS_ANY,
	.summary = cdc_data_summary,
	.tree = cdc_data_tree,
};
