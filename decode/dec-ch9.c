/*
 * decode/dec-ch9.c - SETUP packets: the standard requests of USB 2.0
 * chapter 9 (9.3, 9.4), the hub class requests (11.24.2) and the few HID
 * and mass storage class requests, as a one-line summary and as a tree.
 *
 * Requests are dispatched from tables keyed by bRequest: one for standard
 * requests and one per class, each row giving the summary's arguments and
 * the tree of wValue/wIndex/wLength.  Tree fields carry the names
 * Wireshark 4.0 gives them (tshark -G fields) in the same places, so the
 * JSON output and tshark agree field for field; where tshark shows no
 * field the abbrev is NULL.
 */
#include <stdarg.h>
#include <stdio.h>

#include "decode.h"

/* Class codes with class requests decoded here (usb.org class codes). */
#define CLS_HID		0x03
#define CLS_MSC		0x08
#define CLS_CDC		0x02
#define CLS_HUB		0x09
#define CLS_AUDIO	0x01
#define CLS_VIDEO	0x0e

#define RECIP_DEVICE	0
#define RECIP_INTF	1
#define RECIP_EP	2
#define RECIP_OTHER	3

#define TYPE_STANDARD	0
#define TYPE_CLASS	1
#define TYPE_VENDOR	2

/* Hub features, recipient device (USB 2.0 table 11-17). */
static const struct dec_name hub_only_features[] = {
	{ 0, "C_HUB_LOCAL_POWER" },
	{ 1, "C_HUB_OVER_CURRENT" },
	{ 0, NULL }
};

/* Interface features (USB 3.2 table 9-7). */
static const struct dec_name intf_features[] = {
	{ 0, "FUNCTION_SUSPEND" },
	{ 0, NULL }
};

/* TEST_MODE selectors, high byte of wIndex (USB 2.0 table 9-7). */
static const struct dec_name test_selectors[] = {
	{ 1, "TEST_J" },
	{ 2, "TEST_K" },
	{ 3, "TEST_SE0_NAK" },
	{ 4, "TEST_PACKET" },
	{ 5, "TEST_FORCE_ENABLE" },
	{ 0, NULL }
};

/* HID 1.11 7.2, table of class-specific requests. */
static const struct dec_name hid_requests[] = {
	{ 0x01, "GET_REPORT" },
	{ 0x02, "GET_IDLE" },
	{ 0x03, "GET_PROTOCOL" },
	{ 0x09, "SET_REPORT" },
	{ 0x0a, "SET_IDLE" },
	{ 0x0b, "SET_PROTOCOL" },
	{ 0, NULL }
};

/* HID 1.11 7.2.1, report type in the high byte of wValue. */
static const struct dec_name hid_report_types[] = {
	{ 1, "input" },
	{ 2, "output" },
	{ 3, "feature" },
	{ 0, NULL }
};

/* HID 1.11 7.2.6, SET_PROTOCOL wValue. */
static const struct dec_name hid_protocols[] = {
	{ 0, "boot" },
	{ 1, "report" },
	{ 0, NULL }
};

/* USB Mass Storage Class Overview 1.4, table 3. */
/*
 * FTDI vendor requests (Linux drivers/usb/serial/ftdi_sio.h), decoded for
 * the products Wireshark's ftdi-ft dissector claims.
 */
static const struct dec_name ftdi_requests[] = {
	{ 0x00, "FTDI_RESET" },
	{ 0x01, "FTDI_MODEM_CTRL" },
	{ 0x02, "FTDI_SET_FLOW_CTRL" },
	{ 0x03, "FTDI_SET_BAUD_RATE" },
	{ 0x04, "FTDI_SET_DATA" },
	{ 0x05, "FTDI_GET_MODEM_STATUS" },
	{ 0x06, "FTDI_SET_EVENT_CHAR" },
	{ 0x07, "FTDI_SET_ERROR_CHAR" },
	{ 0x09, "FTDI_SET_LATENCY_TIMER" },
	{ 0x0a, "FTDI_GET_LATENCY_TIMER" },
	{ 0x0b, "FTDI_SET_BITMODE" },
	{ 0x0c, "FTDI_READ_PINS" },
	{ 0x90, "FTDI_READ_EEPROM" },
	{ 0, NULL }
};

static const struct dec_name msc_requests[] = {
	{ 0x00, "ADSC" },
	{ 0xfc, "GET_REQUESTS" },
	{ 0xfd, "PUT_REQUESTS" },
	{ 0xfe, "GET_MAX_LUN" },
	{ 0xff, "BULK_ONLY_RESET" },
	{ 0, NULL }
};

static const struct dec_name cdc_requests[] = {	/* CDC 1.2 6.2, PSTN 6.3 */
	{ 0x00, "SEND_ENCAPSULATED_COMMAND" },
	{ 0x01, "GET_ENCAPSULATED_RESPONSE" },
	{ 0x02, "SET_COMM_FEATURE" },
	{ 0x03, "GET_COMM_FEATURE" },
	{ 0x04, "CLEAR_COMM_FEATURE" },
	{ 0x20, "SET_LINE_CODING" },
	{ 0x21, "GET_LINE_CODING" },
	{ 0x22, "SET_CONTROL_LINE_STATE" },
	{ 0x23, "SEND_BREAK" },
	{ 0x40, "SET_ETHERNET_MULTICAST_FILTERS" },
	{ 0x43, "SET_ETHERNET_PACKET_FILTER" },
	{ 0x44, "GET_ETHERNET_STATISTIC" },
	{ 0x80, "GET_NTB_PARAMETERS" },
	{ 0, NULL }
};

/* UAC 1.0 A.9; UAC 2.0 A.14 reuses 0x01-0x03 for CUR, RANGE and MEM in
 * both directions (audio_aliases). */
static const struct dec_name audio_requests[] = {
	{ 0x01, "SET_CUR" },
	{ 0x02, "SET_MIN" },
	{ 0x03, "SET_MAX" },
	{ 0x04, "SET_RES" },
	{ 0x05, "SET_MEM" },
	{ 0x81, "GET_CUR" },
	{ 0x82, "GET_MIN" },
	{ 0x83, "GET_MAX" },
	{ 0x84, "GET_RES" },
	{ 0x85, "GET_MEM" },
	{ 0xff, "GET_STAT" },
	{ 0, NULL }
};

/* UAC 2.0 requests read from the device (bRequest < 0x80, IN). */
static const struct dec_name audio_aliases[] = {
	{ 0x01, "GET_CUR" },
	{ 0x02, "GET_RANGE" },
	{ 0x03, "GET_MEM" },
	{ 0, NULL }
};

static const struct dec_name video_requests[] = {	/* UVC 1.5 A.8 */
	{ 0x01, "SET_CUR" },
	{ 0x11, "SET_CUR_ALL" },
	{ 0x81, "GET_CUR" },
	{ 0x82, "GET_MIN" },
	{ 0x83, "GET_MAX" },
	{ 0x84, "GET_RES" },
	{ 0x85, "GET_LEN" },
	{ 0x86, "GET_INFO" },
	{ 0x87, "GET_DEF" },
	{ 0x91, "GET_CUR_ALL" },
	{ 0x92, "GET_MIN_ALL" },
	{ 0x93, "GET_MAX_ALL" },
	{ 0x94, "GET_RES_ALL" },
	{ 0x97, "GET_DEF_ALL" },
	{ 0, NULL }
};

/* Hub requests whose name depends on the recipient (Linux hcd.h). */
static const struct {
	uint8_t		 bRequest;
	uint8_t		 recip;
	const char	*name;
} hub_aliases[] = {
	{ 0, RECIP_DEVICE, "GET_HUB_STATUS" },
	{ 0, RECIP_OTHER, "GET_PORT_STATUS" },
	{ 6, RECIP_DEVICE, "GET_HUB_DESCRIPTOR" },
	{ 7, RECIP_DEVICE, "SET_HUB_DESCRIPTOR" },
	{ 0, 0, NULL }
};

static const struct dec_name rt_directions[] = {	/* USB 2.0 table 9-2 */
	{ 0, "Host-to-device" },
	{ 1, "Device-to-host" },
	{ 0, NULL }
};

static const struct dec_name rt_types[] = {
	{ TYPE_STANDARD, "Standard" },
	{ TYPE_CLASS, "Class" },
	{ TYPE_VENDOR, "Vendor" },
	{ 3, "Reserved" },
	{ 0, NULL }
};

static const struct dec_name rt_recipients[] = {
	{ RECIP_DEVICE, "Device" },
	{ RECIP_INTF, "Interface" },
	{ RECIP_EP, "Endpoint" },
	{ RECIP_OTHER, "Other" },
	{ 0, NULL }
};

static const struct dec_name usb_xfer_types[] = {	/* bmAttributes 1:0 */
	{ 0, "control" },
	{ 1, "isochronous" },
	{ 2, "bulk" },
	{ 3, "interrupt" },
	{ 0, NULL }
};

static const struct dec_name ep_directions[] = {
	{ 0, "OUT" },
	{ 1, "IN" },
	{ 0, NULL }
};

#define F DEC_FIELD

/* bmRequestType, and the standard request fields (usb.*). */
F(f_rt, "bmRequestType", "usb.bmRequestType", DK_HEX, 1, NULL, 0);
F(f_rt_dir, "Direction", "usb.bmRequestType.direction", DK_UINT, 1,
    rt_directions, 0x80);
F(f_rt_type, "Type", "usb.bmRequestType.type", DK_HEX, 1, rt_types, 0x60);
F(f_rt_recip, "Recipient", "usb.bmRequestType.recipient", DK_HEX, 1,
    rt_recipients, 0x1f);
F(f_breq_std, "bRequest", "usb.setup.bRequest", DK_UINT, 1,
    dec_std_requests, 0);
F(f_breq, "bRequest", "usb.setup.bRequest", DK_UINT, 1, NULL, 0);
F(f_breq_anon, "bRequest", NULL, DK_UINT, 1, dec_std_requests, 0);
F(f_wvalue, "wValue", "usb.setup.wValue", DK_HEX, 2, NULL, 0);
F(f_windex, "wIndex", "usb.setup.wIndex", DK_UINT, 2, NULL, 0);
F(f_wlength, "wLength", "usb.setup.wLength", DK_UINT, 2, NULL, 0);
F(f_wintf, "wInterface", "usb.setup.wInterface", DK_UINT, 2, NULL, 0);
F(f_wep, "wEndpoint", "usb.setup.wEndpoint", DK_UINT, 2, NULL, 0);
F(f_feature, "wFeatureSelector", "usb.setup.wFeatureSelector", DK_UINT, 2,
    dec_features, 0);
F(f_feature_intf, "wFeatureSelector", "usb.setup.wFeatureSelector",
    DK_UINT, 2, intf_features, 0);
F(f_test_sel, "Test selector", NULL, DK_UINT, 1, test_selectors, 0xff00);
F(f_address, "Device address", "usb.device_address", DK_UINT, 2, NULL, 0);
F(f_desc_index, "Descriptor Index", "usb.DescriptorIndex", DK_HEX, 1,
    NULL, 0);
F(f_desc_type, "bDescriptorType", "usb.bDescriptorType", DK_HEX, 1,
    dec_desc_types, 0);
F(f_langid, "Language Id", "usb.LanguageId", DK_HEX, 2, dec_langids, 0);
F(f_langid_none, "Language Id", "usb.LanguageId", DK_HEX, 2, NULL, 0);
F(f_desc_index_bits, "Descriptor index", NULL, DK_HEX, 1, NULL, 0x00ff);
F(f_desc_type_bits, "Descriptor type", NULL, DK_HEX, 1, dec_desc_types,
    0xff00);
F(f_config, "bConfigurationValue", "usb.bConfigurationValue", DK_UINT, 1,
    NULL, 0);
F(f_alt, "bAlternateSetting", "usb.bAlternateSetting", DK_UINT, 2, NULL,
    0);

/* Hub class requests (usbhub.*). */
F(f_hub_breq, "bRequest", "usbhub.setup.bRequest", DK_HEX, 1,
    dec_hub_requests, 0);
F(f_hub_wvalue, "wValue", "usbhub.setup.wValue", DK_HEX, 2, NULL, 0);
F(f_hub_windex, "wIndex", "usbhub.setup.wIndex", DK_UINT, 2, NULL, 0);
F(f_hub_wlength, "wLength", "usbhub.setup.wLength", DK_UINT, 2, NULL, 0);
F(f_hub_hfeat, "HubFeatureSelector", "usbhub.setup.HubFeatureSelector",
    DK_UINT, 2, hub_only_features, 0);
F(f_hub_pfeat, "PortFeatureSelector", "usbhub.setup.PortFeatureSelector",
    DK_UINT, 2, dec_hub_features, 0);
F(f_hub_port, "Port", "usbhub.setup.Port", DK_UINT, 2, NULL, 0);
F(f_hub_port8, "Port", "usbhub.setup.Port", DK_UINT, 1, NULL, 0x00ff);
F(f_hub_portsel, "PortSelector", "usbhub.setup.PortSelector", DK_UINT, 1,
    NULL, 0xff00);
F(f_hub_dindex, "DescriptorIndex", "usbhub.setup.DescriptorIndex", DK_UINT,
    1, NULL, 0x00ff);
F(f_hub_dtype, "DescriptorType", "usbhub.setup.DescriptorType", DK_UINT, 1,
    dec_desc_types, 0xff00);
F(f_hub_ep, "EP_Num", "usbhub.setup.EP_Num", DK_UINT, 1, NULL, 0x000f);
F(f_hub_dev, "Dev_Addr", "usbhub.setup.Dev_Addr", DK_UINT, 1, NULL, 0x07f0);
F(f_hub_eptype, "EP type", NULL, DK_UINT, 1, usb_xfer_types, 0x1800);
F(f_hub_epdir, "EP direction", NULL, DK_UINT, 1, ep_directions, 0x8000);
F(f_hub_ttflags, "TT_Flags", "usbhub.setup.TT_Flags", DK_UINT, 2, NULL, 0);
F(f_hub_ttport, "TT_Port", "usbhub.setup.TT_Port", DK_UINT, 2, NULL, 0);
F(f_hub_zero, "(zero)", "usbhub.setup.zero", DK_UINT, 2, NULL, 0);
F(f_hub_zero8, "(zero)", "usbhub.setup.zero", DK_UINT, 1, NULL, 0x00ff);

/*
 * The words USB 2.0 11.24.2 (table 11-15) says are zero, by request, as
 * Wireshark's usbhub shows them (packet-usb-hub.c, setup_dissectors): a
 * "(zero)" field under the word, with the word's value.  RESET_TT's
 * wValue and wLength and STOP_TT's wValue are shown as their low byte.
 */
#define HZ_VALUE	0x01
#define HZ_INDEX	0x02
#define HZ_LENGTH	0x04
#define HZ_VALUE8	0x08
#define HZ_LENGTH8	0x20	/* the byte forms: the word << 3 */
static const struct {
	uint8_t		 bmRequestType;
	uint8_t		 bRequest;
	uint8_t		 zero;
} hub_zeros[] = {
	{ 0x20, 1, HZ_INDEX | HZ_LENGTH },	/* ClearHubFeature */
	{ 0x23, 1, HZ_LENGTH },			/* ClearPortFeature */
	{ 0x23, 8, HZ_LENGTH },			/* ClearTTBuffer */
	{ 0xa0, 6, HZ_INDEX },			/* GetHubDescriptor */
	{ 0xa0, 0, HZ_VALUE | HZ_INDEX },	/* GetHubStatus */
	{ 0xa3, 0, HZ_VALUE },			/* GetPortStatus */
	{ 0x23, 9, HZ_VALUE8 | HZ_LENGTH8 },	/* ResetTT */
	{ 0x20, 7, HZ_INDEX },			/* SetHubDescriptor */
	{ 0x20, 3, HZ_INDEX | HZ_LENGTH },	/* SetHubFeature */
	{ 0x23, 3, HZ_LENGTH },			/* SetPortFeature */
	{ 0x23, 11, HZ_VALUE8 | HZ_LENGTH },	/* StopTT */
};

/* HID class requests and the HID report descriptor request (usbhid.*). */
F(f_hid_breq, "bRequest", "usbhid.setup.bRequest", DK_HEX, 1,
    hid_requests, 0);
F(f_hid_wvalue, "wValue", "usbhid.setup.wValue", DK_HEX, 2, NULL, 0);
F(f_hid_windex, "wIndex", "usbhid.setup.wIndex", DK_UINT, 2, NULL, 0);
F(f_hid_wlength, "wLength", "usbhid.setup.wLength", DK_UINT, 2, NULL, 0);
F(f_hid_rid, "ReportID", "usbhid.setup.ReportID", DK_UINT, 1, NULL,
    0x00ff);
F(f_hid_rtype, "ReportType", "usbhid.setup.ReportType", DK_UINT, 1,
    hid_report_types, 0xff00);
F(f_hid_duration, "Duration", "usbhid.setup.Duration", DK_UINT, 1, NULL,
    0xff00);
F(f_hid_protocol, "Protocol", NULL, DK_UINT, 2, hid_protocols, 0);
F(f_hid_dindex, "bDescriptorIndex", "usbhid.descriptor.hid.bDescriptorIndex",
    DK_HEX, 1, NULL, 0);
F(f_hid_dtype, "bDescriptorType", "usbhid.descriptor.hid.bDescriptorType",
    DK_HEX, 1, dec_desc_types, 0);
F(f_hid_dintf, "wInterfaceNumber",
    "usbhid.descriptor.hid.wInterfaceNumber", DK_UINT, 2, NULL, 0);
F(f_hid_dlen, "wDescriptorLength",
    "usbhid.descriptor.hid.wDescriptorLength", DK_UINT, 2, NULL, 0);

/* Mass storage class requests (usbms.*). */
F(f_msc_breq, "bRequest", "usbms.setup.bRequest", DK_HEX, 1, msc_requests,
    0);
F(f_msc_wvalue, "wValue", "usbms.setup.wValue", DK_HEX, 2, NULL, 0);
F(f_msc_windex, "wIndex", "usbms.setup.wIndex", DK_UINT, 2, NULL, 0);
F(f_msc_wlength, "wLength", "usbms.setup.wLength", DK_UINT, 2, NULL, 0);

/* CDC class requests: tshark's usbcom dissector takes the setup bytes. */
F(f_cdc_breq, "Request Code", "usbcom.control.request_code", DK_HEX, 1,
    cdc_requests, 0);
F(f_cdc_wvalue, "Value", "usbcom.control.value", DK_UINT, 2, NULL, 0);
F(f_cdc_windex, "Index", "usbcom.control.index", DK_UINT, 2, NULL, 0);
F(f_cdc_wlength, "Length", "usbcom.control.length", DK_UINT, 2, NULL, 0);

/* Audio class requests: tshark has no dissector for them (usb.*). */
F(f_audio_breq, "bRequest", "usb.setup.bRequest", DK_UINT, 1, NULL, 0);

/* Video class requests: tshark's usbvideo takes the setup bytes after
 * bmRequestType (epan/dissectors/packet-usb-video.c). */
F(f_vid_breq, "bRequest", "usbvideo.setup.bRequest", DK_HEX, 1,
    video_requests, 0);
F(f_vid_sel, "Control Selector", "usbvideo.control.selector", DK_HEX, 1,
    NULL, 0);
F(f_vid_intf, "Interface", "usbvideo.control.interface", DK_HEX, 1, NULL, 0);
F(f_vid_entity, "Entity", "usbvideo.control.entity", DK_HEX, 1, NULL, 0);
F(f_vid_wlength, "wLength", "usbvideo.setup.wLength", DK_UINT, 2, NULL, 0);

/* The four fields every request has, per protocol. */
struct setup_fields {
	const struct dec_field	*bRequest;
	const struct dec_field	*wValue;
	const struct dec_field	*wIndex;
	const struct dec_field	*wLength;
};

static const struct setup_fields std_fields = {
	&f_breq_std, &f_wvalue, &f_windex, &f_wlength
};
static const struct setup_fields raw_fields = {
	&f_breq, &f_wvalue, &f_windex, &f_wlength
};
static const struct setup_fields hub_fields = {
	&f_hub_breq, &f_hub_wvalue, &f_hub_windex, &f_hub_wlength
};
static const struct setup_fields hid_fields = {
	&f_hid_breq, &f_hid_wvalue, &f_hid_windex, &f_hid_wlength
};
F(f_ftdi_breq, "bRequest", "ftdi-ft.bRequest", DK_HEX, 1, ftdi_requests,
    0);
F(f_ftdi_wvalue, "wValue", NULL, DK_HEX, 2, NULL, 0);
F(f_ftdi_windex, "wIndex", NULL, DK_HEX, 2, NULL, 0);
F(f_ftdi_wlength, "wLength", "ftdi-ft.wLength", DK_UINT, 2, NULL, 0);
static const struct setup_fields ftdi_fields = {
	&f_ftdi_breq, &f_ftdi_wvalue, &f_ftdi_windex, &f_ftdi_wlength
};
static const struct setup_fields msc_fields = {
	&f_msc_breq, &f_msc_wvalue, &f_msc_windex, &f_msc_wlength
};
static const struct setup_fields cdc_fields = {
	&f_cdc_breq, &f_cdc_wvalue, &f_cdc_windex, &f_cdc_wlength
};
static const struct setup_fields audio_fields = {
	&f_audio_breq, &f_wvalue, &f_windex, &f_wlength
};
static const struct setup_fields video_fields = {
	&f_vid_breq, &f_wvalue, &f_windex, &f_vid_wlength
};
/* GET_DESCRIPTOR of a HID class descriptor: tshark hands it to usbhid. */
static const struct setup_fields hid_desc_fields = {
	&f_breq_anon, &f_wvalue, &f_windex, &f_wlength
};

/* A bounded string being built: len never exceeds size - 1. */
struct out {
	char		*buf;
	size_t		 size;
	size_t		 len;
};

static void	out_printf(struct out *, const char *, ...)
		    __attribute__((format(printf, 2, 3)));

static void
out_printf(struct out *o, const char *fmt, ...)
{
	va_list	 ap;
	int	 n;

	if (o->size == 0 || o->len >= o->size - 1)
		return;
	va_start(ap, fmt);
	n = vsnprintf(o->buf + o->len, o->size - o->len, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	o->len += (size_t)n;
	if (o->len > o->size - 1)
		o->len = o->size - 1;
}

/* One request: its summary arguments and its wValue..wLength fields. */
struct req_ops {
	uint8_t		 bRequest;
	void		(*args)(const struct dec_setup *, struct out *);
	void		(*tree)(const struct dec_setup *,
			    const struct setup_fields *, int,
			    struct dec_tree *);
};

/* ------------------------------------------------------------------------
 * Summary arguments.
 */

/* The wIndex of a request by recipient; always: also when zero. */
static void
args_recip(const struct dec_setup *s, struct out *o, int always)
{
	switch (SETUP_RECIP(s)) {
	case RECIP_INTF:
		if (s->wIndex <= 0xff)
			out_printf(o, " intf %u", s->wIndex);
		else
			out_printf(o, " idx 0x%04x", s->wIndex);
		break;
	case RECIP_EP:
		if (s->wIndex <= 0xff)
			out_printf(o, " ep 0x%02x", s->wIndex);
		else
			out_printf(o, " idx 0x%04x", s->wIndex);
		break;
	default:
		if (always || s->wIndex != 0)
			out_printf(o, " idx 0x%04x", s->wIndex);
		break;
	}
}

static void
args_none(const struct dec_setup *s, struct out *o)
{
	(void)s;
	(void)o;
}

static void
args_recip_opt(const struct dec_setup *s, struct out *o)
{
	args_recip(s, o, 0);
}

static void
args_value(const struct dec_setup *s, struct out *o)
{
	out_printf(o, " %u", s->wValue);
}

static void
args_len(const struct dec_setup *s, struct out *o)
{
	out_printf(o, " len %u", s->wLength);
}

static void
args_feature(const struct dec_setup *s, struct out *o)
{
	const struct dec_name *names;
	char	 tmp[24];

	names = SETUP_RECIP(s) == RECIP_INTF ? intf_features : dec_features;
	out_printf(o, " %s", dec_name_or(names, s->wValue, tmp));
	if (SETUP_RECIP(s) == RECIP_DEVICE && s->wValue == 2) {
		out_printf(o, " %s",
		    dec_name_or(test_selectors, s->wIndex >> 8, tmp));
		return;
	}
	args_recip(s, o, 0);
}

static void
args_descriptor(const struct dec_setup *s, struct out *o)
{
	unsigned type = s->wValue >> 8, index = s->wValue & 0xff;
	char	 tmp[24];

	out_printf(o, " %s", dec_name_or(dec_desc_types, type, tmp));
	if (index != 0 || type == USB_DT_CONFIG ||
	    type == USB_DT_OTHER_SPEED_CONFIG || type == USB_DT_STRING)
		out_printf(o, " %u", index);
	if (SETUP_RECIP(s) != RECIP_DEVICE)
		args_recip(s, o, 1);
	else if (type == USB_DT_STRING && (index != 0 || s->wIndex != 0))
		out_printf(o, " lang 0x%04x", s->wIndex);
	else if (s->wIndex != 0)
		out_printf(o, " idx 0x%04x", s->wIndex);
	out_printf(o, " len %u", s->wLength);
}

static void
args_intf(const struct dec_setup *s, struct out *o)
{
	out_printf(o, " intf %u", s->wIndex);
}

/* Audio and video control requests (UAC 1.0 5.2.1, UVC 1.5 4.2.1): the
 * interface or endpoint, the entity (wIndex 15:8), the control selector
 * (wValue 15:8) and, for audio, the channel (wValue 7:0). */
static void
args_entity(const struct dec_setup *s, struct out *o, int audio)
{
	if (SETUP_RECIP(s) == RECIP_EP)
		out_printf(o, " ep 0x%02x", s->wIndex & 0xff);
	else
		out_printf(o, " intf %u", s->wIndex & 0xff);
	if (s->wIndex >> 8 != 0)
		out_printf(o, " unit %u", s->wIndex >> 8);
	out_printf(o, " cs 0x%02x", s->wValue >> 8);
	if (audio && (s->wValue & 0xff) != 0)
		out_printf(o, " ch %u", s->wValue & 0xff);
	out_printf(o, " len %u", s->wLength);
}

static void
args_audio(const struct dec_setup *s, struct out *o)
{
	args_entity(s, o, 1);
}

static void
args_video(const struct dec_setup *s, struct out *o)
{
	args_entity(s, o, 0);
}

/* Vendor requests whose meaning we only name: the raw arguments. */
static void
args_raw_vendor(const struct dec_setup *s, struct out *o)
{
	out_printf(o, " val 0x%04x idx 0x%04x", s->wValue, s->wIndex);
	if (s->wLength != 0)
		out_printf(o, " len %u", s->wLength);
}

static void
args_set_interface(const struct dec_setup *s, struct out *o)
{
	out_printf(o, " intf %u alt %u", s->wIndex, s->wValue);
}

static void
args_isoch_delay(const struct dec_setup *s, struct out *o)
{
	out_printf(o, " %u ns", s->wValue);
}

/* Hub: port in wIndex for recipient "other". */
static void
args_hub_port(const struct dec_setup *s, struct out *o)
{
	if (SETUP_RECIP(s) == RECIP_OTHER)
		out_printf(o, " port %u", s->wIndex);
}

static void
args_hub_feature(const struct dec_setup *s, struct out *o)
{
	char	 tmp[24];

	if (SETUP_RECIP(s) != RECIP_OTHER) {
		out_printf(o, " %s",
		    dec_name_or(hub_only_features, s->wValue, tmp));
		return;
	}
	out_printf(o, " %s port %u",
	    dec_name_or(dec_hub_features, s->wValue, tmp), s->wIndex & 0xff);
	if (s->wIndex >> 8)
		out_printf(o, " sel %u", s->wIndex >> 8);
}

static void
args_hub_descriptor(const struct dec_setup *s, struct out *o)
{
	unsigned type = s->wValue >> 8, index = s->wValue & 0xff;
	char	 tmp[24];

	if (type != USB_DT_HUB)
		out_printf(o, " %s", dec_name_or(dec_desc_types, type, tmp));
	if (index != 0)
		out_printf(o, " %u", index);
	out_printf(o, " len %u", s->wLength);
}

/* CLEAR_TT_BUFFER wValue: USB 2.0 figure 11-68 (11.24.2.3). */
static void
args_hub_tt_buffer(const struct dec_setup *s, struct out *o)
{
	char	 tmp[24];

	out_printf(o, " dev %u ep 0x%02x %s port %u", (s->wValue >> 4) & 0x7f,
	    (s->wValue & 0x0f) | (s->wValue & 0x8000 ? 0x80 : 0),
	    dec_name_or(usb_xfer_types, (s->wValue >> 11) & 3, tmp),
	    s->wIndex);
}

static void
args_hub_tt(const struct dec_setup *s, struct out *o)
{
	out_printf(o, " port %u", s->wIndex);
}

static void
args_hub_tt_state(const struct dec_setup *s, struct out *o)
{
	out_printf(o, " port %u len %u", s->wIndex, s->wLength);
}

static void
args_hid_report(const struct dec_setup *s, struct out *o)
{
	char	 tmp[24];

	out_printf(o, " %s id %u intf %u len %u",
	    dec_name_or(hid_report_types, s->wValue >> 8, tmp),
	    s->wValue & 0xff, s->wIndex, s->wLength);
}

static void
args_hid_get_idle(const struct dec_setup *s, struct out *o)
{
	out_printf(o, " id %u intf %u", s->wValue & 0xff, s->wIndex);
}

/* Duration in 4 ms units, 0 = only report changes (HID 1.11 7.2.4). */
static void
args_hid_set_idle(const struct dec_setup *s, struct out *o)
{
	if (s->wValue >> 8)
		out_printf(o, " %u ms", (s->wValue >> 8) * 4);
	else
		out_printf(o, " infinite");
	out_printf(o, " id %u intf %u", s->wValue & 0xff, s->wIndex);
}

static void
args_hid_set_protocol(const struct dec_setup *s, struct out *o)
{
	char	 tmp[24];

	out_printf(o, " %s intf %u", dec_name_or(hid_protocols, s->wValue, tmp),
	    s->wIndex);
}

static void
args_msc_adsc(const struct dec_setup *s, struct out *o)
{
	out_printf(o, " intf %u len %u", s->wIndex, s->wLength);
}

/* SET_CONTROL_LINE_STATE (PSTN 6.3.12): D0 DTR, D1 RTS. */
static void
args_cdc_lines(const struct dec_setup *s, struct out *o)
{
	out_printf(o, " DTR %s RTS %s intf %u", s->wValue & 1 ? "on" : "off",
	    s->wValue & 2 ? "on" : "off", s->wIndex);
}

/* SEND_BREAK (PSTN 6.3.13): wValue ms, 0xffff until a SEND_BREAK 0. */
static void
args_cdc_break(const struct dec_setup *s, struct out *o)
{
	if (s->wValue == 0xffff)
		out_printf(o, " on");
	else if (s->wValue == 0)
		out_printf(o, " off");
	else
		out_printf(o, " %u ms", s->wValue);
	out_printf(o, " intf %u", s->wIndex);
}

/* ------------------------------------------------------------------------
 * Trees of wValue, wIndex and wLength.
 */

static struct dec_node *
add(struct dec_tree *t, const struct dec_field *f, uint32_t off,
    uint32_t len, uint64_t v)
{
	return dec_tree_add(t, f, DB_SETUP, off, len, v);
}

/* A bit field of the node just added, one level below it. */
static void
add_bits(struct dec_tree *t, const struct dec_field *f, uint32_t off,
    uint32_t len, uint32_t raw)
{
	dec_tree_add_bits(t, f, DB_SETUP, off, len, raw);
}

/* A hub request's word just added (HZ_VALUE, _INDEX or _LENGTH, at off):
 * its "(zero)" field when the request has one there. */
static void
hub_zero(const struct dec_setup *s, const struct setup_fields *sf,
    unsigned word, uint32_t off, uint16_t v, struct dec_tree *t)
{
	size_t	 i;

	if (sf != &hub_fields)
		return;
	for (i = 0; i < nitems(hub_zeros); i++) {
		if (hub_zeros[i].bmRequestType != s->bmRequestType ||
		    hub_zeros[i].bRequest != s->bRequest)
			continue;
		if (hub_zeros[i].zero & word)
			add_bits(t, &f_hub_zero, off, 2, v);
		else if (hub_zeros[i].zero & (word << 3))
			add_bits(t, &f_hub_zero8, off, 1, v);
		return;
	}
}

static void
tree_wvalue(const struct dec_setup *s, const struct setup_fields *sf,
    struct dec_tree *t)
{
	add(t, sf->wValue, 2, 2, s->wValue);
	hub_zero(s, sf, HZ_VALUE, 2, s->wValue, t);
}

static void
tree_windex(const struct dec_setup *s, const struct setup_fields *sf,
    struct dec_tree *t)
{
	add(t, sf->wIndex, 4, 2, s->wIndex);
	hub_zero(s, sf, HZ_INDEX, 4, s->wIndex, t);
}

static void
tree_wlength(const struct dec_setup *s, const struct setup_fields *sf,
    struct dec_tree *t)
{
	add(t, sf->wLength, 6, 2, s->wLength);
	hub_zero(s, sf, HZ_LENGTH, 6, s->wLength, t);
}

/* wIndex named for the recipient (wInterface, wEndpoint). */
static void
tree_windex_recip(const struct dec_setup *s, const struct setup_fields *sf,
    struct dec_tree *t)
{
	switch (SETUP_RECIP(s)) {
	case RECIP_INTF:
		add(t, &f_wintf, 4, 2, s->wIndex);
		break;
	case RECIP_EP:
		add(t, &f_wep, 4, 2, s->wIndex);
		break;
	default:
		tree_windex(s, sf, t);
		break;
	}
}

static void
tree_raw(const struct dec_setup *s, const struct setup_fields *sf, int cls,
    struct dec_tree *t)
{
	(void)cls;
	tree_wvalue(s, sf, t);
	tree_windex(s, sf, t);
	tree_wlength(s, sf, t);
}

static void
tree_get_status(const struct dec_setup *s, const struct setup_fields *sf,
    int cls, struct dec_tree *t)
{
	(void)cls;
	tree_wvalue(s, sf, t);
	tree_windex_recip(s, sf, t);
	tree_wlength(s, sf, t);
}

static void
tree_feature(const struct dec_setup *s, const struct setup_fields *sf,
    int cls, struct dec_tree *t)
{
	(void)cls;
	add(t, SETUP_RECIP(s) == RECIP_INTF ? &f_feature_intf : &f_feature, 2,
	    2, s->wValue);
	tree_windex_recip(s, sf, t);
	if (SETUP_RECIP(s) == RECIP_DEVICE && s->wValue == 2)
		add_bits(t, &f_test_sel, 5, 1, s->wIndex);
	tree_wlength(s, sf, t);
}

static void
tree_set_address(const struct dec_setup *s, const struct setup_fields *sf,
    int cls, struct dec_tree *t)
{
	(void)cls;
	add(t, &f_address, 2, 2, s->wValue);
	tree_windex(s, sf, t);
	tree_wlength(s, sf, t);
}

/* wValue with its descriptor type and index, without Wireshark names. */
static void
tree_desc_wvalue(const struct dec_setup *s, const struct setup_fields *sf,
    struct dec_tree *t)
{
	tree_wvalue(s, sf, t);
	add_bits(t, &f_desc_index_bits, 2, 1, s->wValue);
	add_bits(t, &f_desc_type_bits, 3, 1, s->wValue);
}

/*
 * GET_DESCRIPTOR.  To the device it is a standard request; to an
 * interface or endpoint Wireshark treats it as class-specific: the HID
 * class descriptors by usbhid's fields, others as plain wValue/wIndex.
 */
static void
tree_get_descriptor(const struct dec_setup *s, const struct setup_fields *sf,
    int cls, struct dec_tree *t)
{
	if (SETUP_RECIP(s) == RECIP_DEVICE) {
		add(t, &f_desc_index, 2, 1, s->wValue & 0xff);
		add(t, &f_desc_type, 3, 1, s->wValue >> 8);
		add(t, s->wIndex != 0 ? &f_langid : &f_langid_none, 4, 2,
		    s->wIndex);
		tree_wlength(s, sf, t);
	} else if (cls == CLS_HID && SETUP_RECIP(s) == RECIP_INTF) {
		add(t, &f_hid_dindex, 2, 1, s->wValue & 0xff);
		add(t, &f_hid_dtype, 3, 1, s->wValue >> 8);
		add(t, &f_hid_dintf, 4, 2, s->wIndex);
		add(t, &f_hid_dlen, 6, 2, s->wLength);
	} else {
		tree_desc_wvalue(s, &raw_fields, t);
		tree_windex(s, &raw_fields, t);
		tree_wlength(s, &raw_fields, t);
	}
}

static void
tree_set_descriptor(const struct dec_setup *s, const struct setup_fields *sf,
    int cls, struct dec_tree *t)
{
	(void)cls;
	tree_desc_wvalue(s, sf, t);
	tree_windex(s, sf, t);
	tree_wlength(s, sf, t);
}

static void
tree_set_config(const struct dec_setup *s, const struct setup_fields *sf,
    int cls, struct dec_tree *t)
{
	(void)cls;
	add(t, &f_config, 2, 1, s->wValue & 0xff);
	tree_windex(s, sf, t);
	tree_wlength(s, sf, t);
}

static void
tree_set_interface(const struct dec_setup *s, const struct setup_fields *sf,
    int cls, struct dec_tree *t)
{
	(void)cls;
	add(t, &f_alt, 2, 2, s->wValue);
	tree_windex_recip(s, sf, t);
	tree_wlength(s, sf, t);
}

static void
tree_hub_status(const struct dec_setup *s, const struct setup_fields *sf,
    int cls, struct dec_tree *t)
{
	(void)cls;
	tree_wvalue(s, sf, t);
	tree_windex(s, sf, t);
	if (SETUP_RECIP(s) == RECIP_OTHER) {
		if (t->depth < UINT8_MAX)
			t->depth++;
		add(t, &f_hub_port, 4, 2, s->wIndex);
		dec_tree_pop(t);
	}
	tree_wlength(s, sf, t);
}

static void
tree_hub_feature(const struct dec_setup *s, const struct setup_fields *sf,
    int cls, struct dec_tree *t)
{
	(void)cls;
	tree_wvalue(s, sf, t);
	if (t->depth < UINT8_MAX)
		t->depth++;
	add(t, SETUP_RECIP(s) == RECIP_OTHER ? &f_hub_pfeat : &f_hub_hfeat, 2,
	    2, s->wValue);
	dec_tree_pop(t);
	tree_windex(s, sf, t);
	if (SETUP_RECIP(s) == RECIP_OTHER) {
		add_bits(t, &f_hub_port8, 4, 1, s->wIndex);
		add_bits(t, &f_hub_portsel, 5, 1, s->wIndex);
	}
	tree_wlength(s, sf, t);
}

static void
tree_hub_descriptor(const struct dec_setup *s, const struct setup_fields *sf,
    int cls, struct dec_tree *t)
{
	(void)cls;
	tree_wvalue(s, sf, t);
	add_bits(t, &f_hub_dindex, 2, 1, s->wValue);
	add_bits(t, &f_hub_dtype, 3, 1, s->wValue);
	tree_windex(s, sf, t);
	tree_wlength(s, sf, t);
}

static void
tree_hub_tt_buffer(const struct dec_setup *s, const struct setup_fields *sf,
    int cls, struct dec_tree *t)
{
	(void)cls;
	tree_wvalue(s, sf, t);
	add_bits(t, &f_hub_ep, 2, 1, s->wValue);
	add_bits(t, &f_hub_dev, 2, 2, s->wValue);
	add_bits(t, &f_hub_eptype, 3, 1, s->wValue);
	add_bits(t, &f_hub_epdir, 3, 1, s->wValue);
	tree_windex(s, sf, t);
	if (t->depth < UINT8_MAX)
		t->depth++;
	add(t, &f_hub_ttport, 4, 2, s->wIndex);
	dec_tree_pop(t);
	tree_wlength(s, sf, t);
}

static void
tree_hub_tt(const struct dec_setup *s, const struct setup_fields *sf,
    int cls, struct dec_tree *t)
{
	(void)cls;
	tree_wvalue(s, sf, t);
	if (s->bRequest == 10) {	/* GET_TT_STATE: TT_Flags */
		if (t->depth < UINT8_MAX)
			t->depth++;
		add(t, &f_hub_ttflags, 2, 2, s->wValue);
		dec_tree_pop(t);
	}
	tree_windex(s, sf, t);
	if (t->depth < UINT8_MAX)
		t->depth++;
	add(t, &f_hub_ttport, 4, 2, s->wIndex);
	dec_tree_pop(t);
	tree_wlength(s, sf, t);
}

static void
tree_hid_report(const struct dec_setup *s, const struct setup_fields *sf,
    int cls, struct dec_tree *t)
{
	(void)cls;
	tree_wvalue(s, sf, t);
	add_bits(t, &f_hid_rid, 2, 1, s->wValue);
	add_bits(t, &f_hid_rtype, 3, 1, s->wValue);
	tree_windex(s, sf, t);
	tree_wlength(s, sf, t);
}

/* A video request as tshark's usbvideo shows it: the selector, interface
 * and entity bytes, then wLength (wValue's low byte is skipped). */
static void
tree_video(const struct dec_setup *s, const struct setup_fields *sf,
    int cls, struct dec_tree *t)
{
	(void)cls;
	add(t, &f_vid_sel, 3, 1, s->wValue >> 8);
	add(t, &f_vid_intf, 4, 1, s->wIndex & 0xff);
	add(t, &f_vid_entity, 5, 1, s->wIndex >> 8);
	tree_wlength(s, sf, t);
}

static void
tree_hid_idle(const struct dec_setup *s, const struct setup_fields *sf,
    int cls, struct dec_tree *t)
{
	(void)cls;
	tree_wvalue(s, sf, t);
	add_bits(t, &f_hid_rid, 2, 1, s->wValue);
	add_bits(t, &f_hid_duration, 3, 1, s->wValue);
	tree_windex(s, sf, t);
	tree_wlength(s, sf, t);
}

static void
tree_hid_protocol(const struct dec_setup *s, const struct setup_fields *sf,
    int cls, struct dec_tree *t)
{
	(void)cls;
	tree_wvalue(s, sf, t);
	if (s->bRequest == 0x0b) {	/* SET_PROTOCOL */
		if (t->depth < UINT8_MAX)
			t->depth++;
		add(t, &f_hid_protocol, 2, 2, s->wValue);
		dec_tree_pop(t);
	}
	tree_windex(s, sf, t);
	tree_wlength(s, sf, t);
}

/* ------------------------------------------------------------------------
 * Dispatch tables, keyed by bRequest; each ends with a NULL args.
 */

static const struct req_ops std_ops[] = {		/* USB 2.0 9.4 */
	{ USB_REQ_GET_STATUS, args_recip_opt, tree_get_status },
	{ USB_REQ_CLEAR_FEATURE, args_feature, tree_feature },
	{ USB_REQ_SET_FEATURE, args_feature, tree_feature },
	{ USB_REQ_SET_ADDRESS, args_value, tree_set_address },
	{ USB_REQ_GET_DESCRIPTOR, args_descriptor, tree_get_descriptor },
	{ USB_REQ_SET_DESCRIPTOR, args_descriptor, tree_set_descriptor },
	{ USB_REQ_GET_CONFIGURATION, args_none, tree_raw },
	{ USB_REQ_SET_CONFIGURATION, args_value, tree_set_config },
	{ USB_REQ_GET_INTERFACE, args_intf, tree_get_status },
	{ USB_REQ_SET_INTERFACE, args_set_interface, tree_set_interface },
	{ USB_REQ_SYNCH_FRAME, args_recip_opt, tree_get_status },
	{ 48, args_len, tree_raw },				/* SET_SEL */
	{ 49, args_isoch_delay, tree_raw },		/* SET_ISOCH_DELAY */
	{ 0, NULL, NULL }
};

static const struct req_ops hub_ops[] = {		/* USB 2.0 11.24.2 */
	{ 0, args_hub_port, tree_hub_status },
	{ 1, args_hub_feature, tree_hub_feature },
	{ 3, args_hub_feature, tree_hub_feature },
	{ 6, args_hub_descriptor, tree_hub_descriptor },
	{ 7, args_hub_descriptor, tree_hub_descriptor },
	{ 8, args_hub_tt_buffer, tree_hub_tt_buffer },
	{ 9, args_hub_tt, tree_hub_tt },
	{ 10, args_hub_tt_state, tree_hub_tt },
	{ 11, args_hub_tt, tree_hub_tt },
	{ 12, args_value, tree_raw },			/* SET_HUB_DEPTH */
	{ 13, args_hub_port, tree_hub_status },	/* GET_PORT_ERR_COUNT */
	{ 0, NULL, NULL }
};

static const struct req_ops hid_ops[] = {		/* HID 1.11 7.2 */
	{ 0x01, args_hid_report, tree_hid_report },
	{ 0x02, args_hid_get_idle, tree_hid_idle },
	{ 0x03, args_intf, tree_hid_protocol },
	{ 0x09, args_hid_report, tree_hid_report },
	{ 0x0a, args_hid_set_idle, tree_hid_idle },
	{ 0x0b, args_hid_set_protocol, tree_hid_protocol },
	{ 0, NULL, NULL }
};

static const struct req_ops msc_ops[] = {	/* MSC overview 1.4, table 3 */
	{ 0x00, args_msc_adsc, tree_raw },
	{ 0xfc, args_intf, tree_raw },
	{ 0xfd, args_intf, tree_raw },
	{ 0xfe, args_intf, tree_raw },
	{ 0xff, args_intf, tree_raw },
	{ 0, NULL, NULL }
};

static const struct req_ops cdc_ops[] = {	/* CDC 1.2 6.2, PSTN 6.3 */
	{ 0x00, args_msc_adsc, tree_raw },	/* " intf N len L" */
	{ 0x01, args_msc_adsc, tree_raw },
	{ 0x02, args_intf, tree_raw },
	{ 0x03, args_intf, tree_raw },
	{ 0x04, args_intf, tree_raw },
	{ 0x20, args_intf, tree_raw },
	{ 0x21, args_intf, tree_raw },
	{ 0x22, args_cdc_lines, tree_raw },
	{ 0x23, args_cdc_break, tree_raw },
	{ 0x40, args_intf, tree_raw },
	{ 0x43, args_intf, tree_raw },
	{ 0x44, args_intf, tree_raw },
	{ 0x80, args_intf, tree_raw },
	{ 0, NULL, NULL }
};

static const struct req_ops audio_ops[] = {	/* UAC 1.0 A.9, 2.0 A.14 */
	{ 0x01, args_audio, tree_raw },
	{ 0x02, args_audio, tree_raw },
	{ 0x03, args_audio, tree_raw },
	{ 0x04, args_audio, tree_raw },
	{ 0x05, args_audio, tree_raw },
	{ 0x81, args_audio, tree_raw },
	{ 0x82, args_audio, tree_raw },
	{ 0x83, args_audio, tree_raw },
	{ 0x84, args_audio, tree_raw },
	{ 0x85, args_audio, tree_raw },
	{ 0xff, args_audio, tree_raw },
	{ 0, NULL, NULL }
};

/* The requests tshark's usbvideo dissects (its setup_dissectors). */
static const struct req_ops video_ops[] = {	/* UVC 1.5 A.8 */
	{ 0x01, args_video, tree_video },
	{ 0x11, args_video, tree_video },
	{ 0x81, args_video, tree_video },
	{ 0x82, args_video, tree_video },
	{ 0x83, args_video, tree_video },
	{ 0x84, args_video, tree_video },
	{ 0x85, args_video, tree_video },
	{ 0x86, args_video, tree_video },
	{ 0x87, args_video, tree_video },
	{ 0x91, args_video, tree_video },
	{ 0x92, args_video, tree_video },
	{ 0x93, args_video, tree_video },
	{ 0x94, args_video, tree_video },
	{ 0, NULL, NULL }
};

static const struct req_ops ftdi_ops[] = {	/* ftdi_sio.h */
	{ 0x00, args_raw_vendor, tree_raw },
	{ 0x01, args_raw_vendor, tree_raw },
	{ 0x02, args_raw_vendor, tree_raw },
	{ 0x03, args_raw_vendor, tree_raw },
	{ 0x04, args_raw_vendor, tree_raw },
	{ 0x05, args_raw_vendor, tree_raw },
	{ 0x06, args_raw_vendor, tree_raw },
	{ 0x07, args_raw_vendor, tree_raw },
	{ 0x09, args_raw_vendor, tree_raw },
	{ 0x0a, args_raw_vendor, tree_raw },
	{ 0x0b, args_raw_vendor, tree_raw },
	{ 0x0c, args_raw_vendor, tree_raw },
	{ 0x90, args_raw_vendor, tree_raw },
	{ 0, NULL, NULL }
};

/* Class requests by class code, for the recipients each class uses. */
static const struct class_reqs {
	int			 cls;
	uint8_t			 type;		/* TYPE_CLASS or TYPE_VENDOR */
	uint8_t			 recips;	/* 1 << recipient */
	const struct dec_name	*names;
	const struct setup_fields *fields;
	const struct req_ops	*ops;
} class_reqs[] = {
	{ CLS_HUB, TYPE_CLASS, 1 << RECIP_DEVICE | 1 << RECIP_OTHER,
	    dec_hub_requests, &hub_fields, hub_ops },
	{ CLS_HID, TYPE_CLASS, 1 << RECIP_INTF, hid_requests, &hid_fields,
	    hid_ops },
	{ CLS_MSC, TYPE_CLASS, 1 << RECIP_INTF, msc_requests, &msc_fields,
	    msc_ops },
	{ CLS_CDC, TYPE_CLASS, 1 << RECIP_INTF, cdc_requests, &cdc_fields,
	    cdc_ops },
	{ CLS_AUDIO, TYPE_CLASS, 1 << RECIP_INTF | 1 << RECIP_EP,
	    audio_requests, &audio_fields, audio_ops },
	{ CLS_VIDEO, TYPE_CLASS, 1 << RECIP_INTF, video_requests,
	    &video_fields, video_ops },
	{ DEC_CLS_FTDI, TYPE_VENDOR, 1 << RECIP_DEVICE | 1 << RECIP_INTF,
	    ftdi_requests, &ftdi_fields, ftdi_ops },
	{ -1, 0, 0, NULL, NULL, NULL }
};

static const struct class_reqs *
class_find(const struct dec_setup *s, int cls)
{
	const struct class_reqs *c;

	if (SETUP_RECIP(s) > RECIP_OTHER)
		return NULL;
	for (c = class_reqs; c->ops != NULL; c++) {
		if (c->cls == cls && c->type == SETUP_TYPE(s) &&
		    (c->recips & 1 << SETUP_RECIP(s)))
			return c;
	}
	return NULL;
}

static const struct req_ops *
ops_find(const struct req_ops *ops, uint8_t bRequest)
{
	for (; ops->args != NULL; ops++) {
		if (ops->bRequest == bRequest)
			return ops;
	}
	return NULL;
}

/* The request table and fields that apply to s, or NULL for vendor etc. */
static const struct req_ops *
req_table(const struct dec_setup *s, int cls, const struct setup_fields **sf)
{
	const struct class_reqs *c;

	*sf = &raw_fields;
	if (SETUP_TYPE(s) == TYPE_STANDARD) {
		*sf = &std_fields;
		return std_ops;
	}
	if ((c = class_find(s, cls)) == NULL)
		return NULL;
	*sf = c->fields;
	return c->ops;
}

/* ------------------------------------------------------------------------
 * Exported.
 */

/* Products whose vendor requests have a decoder (Wireshark's usb.product
 * table): FTDI's serial converters. */
static const struct {
	uint16_t	 vid, pid;
	int		 cls;
} product_classes[] = {
	{ 0x0403, 0x6001, DEC_CLS_FTDI },	/* FT232R, FT245R */
	{ 0x0403, 0x6010, DEC_CLS_FTDI },	/* FT2232 */
	{ 0x0403, 0x6011, DEC_CLS_FTDI },	/* FT4232 */
	{ 0x0403, 0x6014, DEC_CLS_FTDI },	/* FT232H */
	{ 0x0403, 0x6015, DEC_CLS_FTDI },	/* FT-X */
};

int
dec_product_class(uint16_t vid, uint16_t pid)
{
	size_t	 i;

	for (i = 0; i < sizeof product_classes / sizeof product_classes[0];
	    i++) {
		if (product_classes[i].vid == vid &&
		    product_classes[i].pid == pid)
			return product_classes[i].cls;
	}
	return -1;
}

void
dec_setup(const uint8_t p[8], struct dec_setup *out)
{
	out->bmRequestType = p[0];
	out->bRequest = p[1];
	out->wValue = get_le16(p + 2);
	out->wIndex = get_le16(p + 4);
	out->wLength = get_le16(p + 6);
}

const char *
dec_request_name_class(const struct dec_setup *s, int cls)
{
	const struct class_reqs *c;
	size_t	 i;

	if (SETUP_TYPE(s) == TYPE_STANDARD)
		return dec_name_find(dec_std_requests, s->bRequest);
	if ((c = class_find(s, cls)) == NULL)
		return NULL;
	if (cls == CLS_AUDIO && SETUP_DIR_IN(s) && s->bRequest < 0x80 &&
	    dec_name_find(audio_aliases, s->bRequest) != NULL)
		return dec_name_find(audio_aliases, s->bRequest);
	if (cls == CLS_HUB) {
		for (i = 0; hub_aliases[i].name != NULL; i++) {
			if (hub_aliases[i].bRequest == s->bRequest &&
			    hub_aliases[i].recip == SETUP_RECIP(s))
				return hub_aliases[i].name;
		}
	}
	return dec_name_find(c->names, s->bRequest);
}

const char *
dec_request_name(const struct dec_setup *s, int is_hub)
{
	return dec_request_name_class(s, is_hub ? CLS_HUB : -1);
}

int
dec_setup_summary_class(const struct dec_setup *s, int cls, char *buf,
    size_t size)
{
	static const char *const types[] = {
		"STANDARD", "CLASS", "VENDOR", "RESERVED"
	};
	const struct setup_fields *sf;
	const struct req_ops *ops;
	struct out	 o = { buf, size, 0 };
	const char	*name;

	if (size == 0)
		return 0;
	buf[0] = '\0';
	ops = req_table(s, cls, &sf);
	name = dec_request_name_class(s, cls);
	if (ops != NULL && name != NULL &&
	    (ops = ops_find(ops, s->bRequest)) != NULL) {
		out_printf(&o, "%s", name);
		ops->args(s, &o);
		return (int)o.len;
	}
	/* "CLASS req 0x0a intf 0 val 0x0000 len 0" */
	out_printf(&o, "%s req 0x%02x", types[SETUP_TYPE(s)], s->bRequest);
	args_recip(s, &o, 1);
	out_printf(&o, " val 0x%04x len %u", s->wValue, s->wLength);
	return (int)o.len;
}

int
dec_setup_summary(const struct dec_setup *s, int is_hub, char *buf,
    size_t size)
{
	return dec_setup_summary_class(s, is_hub ? CLS_HUB : -1, buf, size);
}

void
dec_setup_tree_class(const struct dec_setup *s, int cls, struct dec_tree *t)
{
	const struct setup_fields *sf;
	const struct req_ops *ops;

	add(t, &f_rt, 0, 1, s->bmRequestType);
	add_bits(t, &f_rt_dir, 0, 1, s->bmRequestType);
	add_bits(t, &f_rt_type, 0, 1, s->bmRequestType);
	add_bits(t, &f_rt_recip, 0, 1, s->bmRequestType);

	ops = req_table(s, cls, &sf);
	if (ops != NULL)
		ops = ops_find(ops, s->bRequest);
	if (ops == NULL) {
		add(t, sf->bRequest, 1, 1, s->bRequest);
		tree_raw(s, sf, cls, t);
		return;
	}
	if (ops->tree == tree_get_descriptor &&
	    SETUP_RECIP(s) != RECIP_DEVICE)
		sf = cls == CLS_HID && SETUP_RECIP(s) == RECIP_INTF ?
		    &hid_desc_fields : &raw_fields;
	add(t, sf->bRequest, 1, 1, s->bRequest);
	ops->tree(s, sf, cls, t);
}

void
dec_setup_tree(const struct dec_setup *s, int is_hub, struct dec_tree *t)
{
	dec_setup_tree_class(s, is_hub ? CLS_HUB : -1, t);
}
