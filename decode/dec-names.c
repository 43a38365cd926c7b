/*
 * decode/dec-names.c - value names: the error messages, URB status names
 * and the chapter 9 / class-code tables every decoder shares.
 *
 * Each table cites where its values come from.  Rows are { value, "NAME" }
 * and end with { 0, NULL }; dec_name_find() and dec_name_or() are the
 * lookups, and sb_putname() their cached form for the summaries.
 */
#include <stdio.h>
#include <string.h>

#include "decode.h"

static const char *const ue_messages[] = {
	[UE_OK] = "success",
#define X(name, msg) [name] = msg,
	UE_ERRORS
#undef X
};

const char *
ue_strerror(int err)
{
	if (err < 0)
		err = -err;
	if (err >= UE__COUNT)
		return "unknown error";
	return ue_messages[err];
}

const char *
dec_name_find(const struct dec_name *t, uint32_t v)
{
	if (t == NULL)
		return NULL;
	for (; t->name != NULL; t++) {
		if (t->value == v)
			return t->name;
	}
	return NULL;
}

const char *
dec_name_or(const struct dec_name *t, uint32_t v, char *buf)
{
	const char *name;

	if ((name = dec_name_find(t, v)) != NULL)
		return name;
	snprintf(buf, 24, "UNKNOWN (0x%02x)", v);
	return buf;
}

/*
 * (table, value) -> name and length, direct-mapped: a summary line looks
 * up the same few names (a class, a SCSI command, a CSW status) every
 * record, and a scan of the table and a strlen cost more than a hash.
 * Tables are static and never change, so an entry never goes stale.
 */
#define NAME_CACHE	256	/* a power of 2 */

static struct name_cache {
	const struct dec_name *t;	/* NULL: empty */
	const char	*name;		/* NULL: v has no name in t */
	uint32_t	 v;
	uint32_t	 len;
	char		 s[32];		/* the name when len < 32, padded */
}		 name_cache[NAME_CACHE];

static struct name_cache *
name_lookup(const struct dec_name *t, uint32_t v)
{
	struct name_cache *c;
	size_t		 h;

	h = (size_t)((((uintptr_t)t >> 3) ^ v) * 0x9e3779b97f4a7c15ULL >>
	    40) & (NAME_CACHE - 1);
	c = &name_cache[h];
	if (c->t != t || c->v != v) {
		c->t = t;
		c->v = v;
		c->name = dec_name_find(t, v);
		c->len = c->name != NULL ? (uint32_t)strlen(c->name) : 0;
		if (c->len < sizeof c->s)
			memcpy(c->s, c->name != NULL ? c->name : "", c->len);
	}
	return c;
}

const char *
dec_name_cached(const struct dec_name *t, uint32_t v, size_t *len)
{
	struct name_cache *c = name_lookup(t, v);

	*len = c->len;
	return c->name;
}

void
sb_putname(struct sbuf *b, const struct dec_name *t, uint32_t v)
{
	struct name_cache *c = name_lookup(t, v);
	char		 tmp[24];

	if (c->name == NULL)
		sb_puts(b, dec_name_or(t, v, tmp));
	else if (c->len >= sizeof c->s)
		sb_putn(b, c->name, c->len);
	else if (sb_reserve(b, sizeof c->s)) {
		/* all of s, one fixed copy: no loop over the bytes */
		memcpy(b->s + b->len, c->s, sizeof c->s);
		b->len += c->len;
		b->s[b->len] = '\0';
	}
}

/*
 * URB status values are raw Linux errno numbers as the generic (x86, arm,
 * ...) architectures define them (include/uapi/asm-generic/errno*.h); the
 * meaning of each for USB is in Documentation/driver-api/usb/error-codes.rst.
 */
static const struct dec_name linux_errnos[] = {
	{ 1, "-EPERM" },		/* submit: ep0 of a suspended device */
	{ 2, "-ENOENT" },		/* killed, synchronously unlinked */
	{ 4, "-EINTR" },
	{ 5, "-EIO" },
	{ 6, "-ENXIO" },
	{ 8, "-ENOEXEC" },		/* control URB without setup */
	{ 11, "-EAGAIN" },		/* ISO start frame too far */
	{ 12, "-ENOMEM" },
	{ 13, "-EACCES" },
	{ 14, "-EFAULT" },
	{ 16, "-EBUSY" },		/* URB already submitted */
	{ 17, "-EEXIST" },
	{ 18, "-EXDEV" },		/* ISO frame partially transferred */
	{ 19, "-ENODEV" },		/* device removed */
	{ 22, "-EINVAL" },
	{ 25, "-ENOTTY" },
	{ 27, "-EFBIG" },		/* ISO: too many frames */
	{ 28, "-ENOSPC" },		/* no bandwidth */
	{ 32, "-EPIPE" },		/* endpoint stalled */
	{ 38, "-ENOSYS" },
	{ 54, "-EXFULL" },		/* no minor left (modern) */
	{ 61, "-ENODATA" },
	{ 62, "-ETIME" },		/* no response in time */
	{ 63, "-ENOSR" },		/* OUT buffer underrun */
	{ 70, "-ECOMM" },		/* IN buffer overrun */
	{ 71, "-EPROTO" },		/* bitstuff, no response, ... */
	{ 75, "-EOVERFLOW" },		/* babble */
	{ 84, "-EILSEQ" },		/* CRC mismatch */
	{ 90, "-EMSGSIZE" },		/* bad maxpacket / length */
	{ 95, "-EOPNOTSUPP" },
	{ 98, "-EADDRINUSE" },		/* minor taken (modern) */
	{ 103, "-ECONNABORTED" },
	{ 104, "-ECONNRESET" },		/* asynchronously unlinked */
	{ 105, "-ENOBUFS" },
	{ 107, "-ENOTCONN" },
	{ 108, "-ESHUTDOWN" },		/* device or HC gone */
	{ 110, "-ETIMEDOUT" },		/* usb_control_msg timeout */
	{ 113, "-EHOSTUNREACH" },	/* device suspended */
	{ 114, "-EALREADY" },
	{ 115, "-EINPROGRESS" },	/* every submit */
	{ 121, "-EREMOTEIO" },		/* short read with URB_SHORT_NOT_OK */
	{ 0, NULL }
};

const char *
dec_status_name(int32_t status)
{
	if (status >= 0)
		return NULL;
	return dec_name_find(linux_errnos, (uint32_t)-(int64_t)status);
}

/* USB 2.0 table 9-4; USB 3.2 table 9-4 adds SET_SEL and SET_ISOCH_DELAY. */
const struct dec_name dec_std_requests[] = {
	{ USB_REQ_GET_STATUS, "GET_STATUS" },
	{ USB_REQ_CLEAR_FEATURE, "CLEAR_FEATURE" },
	{ USB_REQ_SET_FEATURE, "SET_FEATURE" },
	{ USB_REQ_SET_ADDRESS, "SET_ADDRESS" },
	{ USB_REQ_GET_DESCRIPTOR, "GET_DESCRIPTOR" },
	{ USB_REQ_SET_DESCRIPTOR, "SET_DESCRIPTOR" },
	{ USB_REQ_GET_CONFIGURATION, "GET_CONFIGURATION" },
	{ USB_REQ_SET_CONFIGURATION, "SET_CONFIGURATION" },
	{ USB_REQ_GET_INTERFACE, "GET_INTERFACE" },
	{ USB_REQ_SET_INTERFACE, "SET_INTERFACE" },
	{ USB_REQ_SYNCH_FRAME, "SYNCH_FRAME" },
	{ 48, "SET_SEL" },
	{ 49, "SET_ISOCH_DELAY" },
	{ 0, NULL }
};

/*
 * USB 2.0 table 11-16; USB 3.2 table 10-8 adds SET_HUB_DEPTH and
 * GET_PORT_ERR_COUNT.  dec_request_name() qualifies GET_STATUS and the
 * descriptor requests by recipient (GET_PORT_STATUS, GET_HUB_DESCRIPTOR).
 */
const struct dec_name dec_hub_requests[] = {
	{ 0, "GET_STATUS" },
	{ 1, "CLEAR_FEATURE" },
	{ 3, "SET_FEATURE" },
	{ 6, "GET_DESCRIPTOR" },
	{ 7, "SET_DESCRIPTOR" },
	{ 8, "CLEAR_TT_BUFFER" },
	{ 9, "RESET_TT" },
	{ 10, "GET_TT_STATE" },
	{ 11, "STOP_TT" },
	{ 12, "SET_HUB_DEPTH" },
	{ 13, "GET_PORT_ERR_COUNT" },
	{ 0, NULL }
};

/*
 * USB 2.0 table 9-5, USB 3.2 table 9-6; class descriptors from HID 1.11
 * 7.1, the common class specification (CS_*) and USB 2.0 11.23.2.1 (hub).
 */
const struct dec_name dec_desc_types[] = {
	{ USB_DT_DEVICE, "DEVICE" },
	{ USB_DT_CONFIG, "CONFIG" },
	{ USB_DT_STRING, "STRING" },
	{ USB_DT_INTERFACE, "INTERFACE" },
	{ USB_DT_ENDPOINT, "ENDPOINT" },
	{ USB_DT_DEVICE_QUALIFIER, "DEVICE_QUALIFIER" },
	{ USB_DT_OTHER_SPEED_CONFIG, "OTHER_SPEED_CONFIG" },
	{ USB_DT_INTERFACE_POWER, "INTERFACE_POWER" },
	{ USB_DT_OTG, "OTG" },
	{ USB_DT_DEBUG, "DEBUG" },
	{ USB_DT_INTERFACE_ASSOCIATION, "INTERFACE_ASSOCIATION" },
	{ USB_DT_BOS, "BOS" },
	{ USB_DT_DEVICE_CAPABILITY, "DEVICE_CAPABILITY" },
	{ USB_DT_HID, "HID" },
	{ USB_DT_HID_REPORT, "HID_REPORT" },
	{ 0x23, "HID_PHYSICAL" },
	{ USB_DT_CS_INTERFACE, "CS_INTERFACE" },
	{ USB_DT_CS_ENDPOINT, "CS_ENDPOINT" },
	{ USB_DT_HUB, "HUB" },
	{ 0x2a, "SS_HUB" },
	{ USB_DT_SS_ENDPOINT_COMP, "SS_ENDPOINT_COMP" },
	{ 0x31, "SSP_ISOC_ENDPOINT_COMP" },
	{ 0, NULL }
};

/*
 * USB 2.0 table 9-6 (ENDPOINT_HALT is an endpoint feature, the others
 * device features), OTG 2.0 table 6-2, USB 3.2 table 9-7.  Feature 0 of an
 * interface is FUNCTION_SUSPEND (USB 3.2): see dec-ch9.c.
 */
const struct dec_name dec_features[] = {
	{ 0, "ENDPOINT_HALT" },
	{ 1, "DEVICE_REMOTE_WAKEUP" },
	{ 2, "TEST_MODE" },
	{ 3, "B_HNP_ENABLE" },
	{ 4, "A_HNP_SUPPORT" },
	{ 5, "A_ALT_HNP_SUPPORT" },
	{ 48, "U1_ENABLE" },
	{ 49, "U2_ENABLE" },
	{ 50, "LTM_ENABLE" },
	{ 0, NULL }
};

/*
 * USB 2.0 table 11-17, port features (recipient "other"); USB 3.2 table
 * 10-9 adds the SuperSpeed ones.  The two hub features share values 0 and
 * 1 with the port features and live in dec-ch9.c.
 */
const struct dec_name dec_hub_features[] = {
	{ 0, "PORT_CONNECTION" },
	{ 1, "PORT_ENABLE" },
	{ 2, "PORT_SUSPEND" },
	{ 3, "PORT_OVER_CURRENT" },
	{ 4, "PORT_RESET" },
	{ 5, "PORT_LINK_STATE" },
	{ 8, "PORT_POWER" },
	{ 9, "PORT_LOW_SPEED" },
	{ 16, "C_PORT_CONNECTION" },
	{ 17, "C_PORT_ENABLE" },
	{ 18, "C_PORT_SUSPEND" },
	{ 19, "C_PORT_OVER_CURRENT" },
	{ 20, "C_PORT_RESET" },
	{ 21, "PORT_TEST" },
	{ 22, "PORT_INDICATOR" },
	{ 23, "PORT_U1_TIMEOUT" },
	{ 24, "PORT_U2_TIMEOUT" },
	{ 25, "C_PORT_LINK_STATE" },
	{ 26, "C_PORT_CONFIG_ERROR" },
	{ 27, "PORT_REMOTE_WAKE_MASK" },
	{ 28, "BH_PORT_RESET" },
	{ 29, "C_BH_PORT_RESET" },
	{ 30, "FORCE_LINKPM_ACCEPT" },
	{ 0, NULL }
};

/* usb.org "Defined Class Codes" (base class). */
const struct dec_name dec_classes[] = {
	{ 0x00, "Per-interface" },
	{ 0x01, "Audio" },
	{ 0x02, "CDC" },
	{ 0x03, "HID" },
	{ 0x05, "Physical" },
	{ 0x06, "Image" },
	{ 0x07, "Printer" },
	{ 0x08, "Mass Storage" },
	{ 0x09, "Hub" },
	{ 0x0a, "CDC-Data" },
	{ 0x0b, "Smart Card" },
	{ 0x0d, "Content Security" },
	{ 0x0e, "Video" },
	{ 0x0f, "Personal Healthcare" },
	{ 0x10, "Audio/Video" },
	{ 0x11, "Billboard" },
	{ 0x12, "USB-C Bridge" },
	{ 0xdc, "Diagnostic" },
	{ 0xe0, "Wireless" },
	{ 0xef, "Miscellaneous" },
	{ 0xfe, "Application Specific" },
	{ 0xff, "Vendor Specific" },
	{ 0, NULL }
};

/* usbmon numbering (PIPE_* of include/linux/usb.h), not bmAttributes. */
const struct dec_name dec_xfer_types[] = {
	{ XFER_ISO, "isochronous" },
	{ XFER_INT, "interrupt" },
	{ XFER_CTRL, "control" },
	{ XFER_BULK, "bulk" },
	{ USBPCAP_XFER_IRP, "IRP information (USBPcap)" },
	{ USBPCAP_XFER_UNKNOWN, "unknown (USBPcap)" },
	{ USBLL_XFER_PACKET, "bus packet" },
	{ 0, NULL }
};

/* usb.org "Language Identifiers (LANGIDs)" 3/29/00, the common ones. */
const struct dec_name dec_langids[] = {
	{ 0x0404, "Chinese (Taiwan)" },
	{ 0x0407, "German (Standard)" },
	{ 0x0409, "English (United States)" },
	{ 0x040c, "French (Standard)" },
	{ 0x0410, "Italian (Standard)" },
	{ 0x0411, "Japanese" },
	{ 0x0412, "Korean" },
	{ 0x0413, "Dutch (Netherlands)" },
	{ 0x0416, "Portuguese (Brazil)" },
	{ 0x0419, "Russian" },
	{ 0x041d, "Swedish" },
	{ 0x0804, "Chinese (PRC)" },
	{ 0x0809, "English (United Kingdom)" },
	{ 0x0c0a, "Spanish (Modern Sort)" },
	{ 0, NULL }
};
