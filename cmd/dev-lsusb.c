/*
 * cmd/dev-lsusb.c - a device's descriptors as `lsusb -v` lays them out
 * (same headings, field names, number formats and columns), decoded by
 * decode/dec-desc.c; and what lsusb asks the device after them.
 */
#include <libusb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decode/decode.h"
#include "decode/usbids.h"
#include "devices.h"
#include "cmd.h"

/* ------------------------------------------------------------------------
 * The descriptor tree as lsusb -v lays it out.
 */

enum lsfmt {
	LF_SKIP,		/* not shown */
	LF_DEC,			/* %u */
	LF_HEX2,		/* 0x%02x */
	LF_HEX4,		/* 0x%04x */
	LF_BCD,			/* %x.%02x */
	LF_STR,			/* %u and the string */
	LF_NAMED,		/* %u and the name from the field's table */
	LF_CLASS,		/* %u and the class name */
	LF_VID,			/* 0x%04x and the usb.ids vendor */
	LF_PID,			/* 0x%04x and the usb.ids product */
	LF_EPADDR,		/* 0x%02x  EP n IN */
	LF_EPATTR,		/* %u, then transfer, synch and usage types */
	LF_MPS,			/* 0x%04x  1x N bytes */
	LF_MAXPOWER,		/* NmA */
	LF_BYTES,		/* 0x%02x per byte */
	LF_CFG_ONE,		/* bmAttributes bit 7 */
	LF_CFG_SELF,		/* bit 6 */
	LF_FLAG,		/* a line with the lsusb name when set */
	LF_HUB_POWER,		/* wHubCharacteristics bits */
	LF_HUB_OC,
	LF_HUB_TT,
};

/* Our field (by descriptor type and decoder name) to lsusb's. */
struct lsrow {
	uint8_t		 type;		/* bDescriptorType; 0 any */
	const char	*name;		/* dec-desc.c's field name */
	const char	*ls;		/* lsusb's, NULL = the same */
	enum lsfmt	 fmt;
	uint8_t		 width;		/* name + value; 0 = 25 */
	const char	*suffix;	/* after the value */
};

/* From usbutils 014 lsusb.c (dump_device, dump_config, ...). */
/* Most rows: lsusb's usual column, no unit. */
#define R(type, name, ls, fmt)	{ type, name, ls, fmt, 0, NULL }

static const struct lsrow lsrows[] = {
	R(0, "bLength", NULL, LF_DEC),
	R(0, "bDescriptorType", NULL, LF_DEC),
	R(USB_DT_DEVICE, "bcdUSB", NULL, LF_BCD),
	R(USB_DT_DEVICE, "bDeviceClass", NULL, LF_CLASS),
	R(USB_DT_DEVICE, "bDeviceSubClass", NULL, LF_DEC),
	R(USB_DT_DEVICE, "bDeviceProtocol", NULL, LF_DEC),
	R(USB_DT_DEVICE, "bMaxPacketSize0", NULL, LF_DEC),
	R(USB_DT_DEVICE, "idVendor", NULL, LF_VID),
	R(USB_DT_DEVICE, "idProduct", NULL, LF_PID),
	R(USB_DT_DEVICE, "bcdDevice", NULL, LF_BCD),
	R(USB_DT_DEVICE, "iManufacturer", NULL, LF_STR),
	R(USB_DT_DEVICE, "iProduct", NULL, LF_STR),
	R(USB_DT_DEVICE, "iSerialNumber", "iSerial", LF_STR),
	R(USB_DT_DEVICE, "bNumConfigurations", NULL, LF_DEC),
	R(USB_DT_CONFIG, "wTotalLength", NULL, LF_HEX4),
	R(USB_DT_CONFIG, "bNumInterfaces", NULL, LF_DEC),
	R(USB_DT_CONFIG, "bConfigurationValue", NULL, LF_DEC),
	R(USB_DT_CONFIG, "iConfiguration", NULL, LF_STR),
	R(USB_DT_CONFIG, "bmAttributes", NULL, LF_HEX2),
	R(USB_DT_CONFIG, "Must be 1", "(Missing must-be-set bit!)", LF_CFG_ONE),
	R(USB_DT_CONFIG, "Self-Powered", "Self Powered", LF_CFG_SELF),
	R(USB_DT_CONFIG, "Remote Wakeup", NULL, LF_FLAG),
	R(USB_DT_CONFIG, "bMaxPower", "MaxPower", LF_MAXPOWER),
	R(USB_DT_CONFIG, "Max power (mA, 2 mA units)", NULL, LF_SKIP),
	R(USB_DT_INTERFACE, "bInterfaceNumber", NULL, LF_DEC),
	R(USB_DT_INTERFACE, "bAlternateSetting", NULL, LF_DEC),
	R(USB_DT_INTERFACE, "bNumEndpoints", NULL, LF_DEC),
	R(USB_DT_INTERFACE, "bInterfaceClass", NULL, LF_CLASS),
	R(USB_DT_INTERFACE, "bInterfaceSubClass", NULL, LF_NAMED),
	R(USB_DT_INTERFACE, "bInterfaceProtocol", NULL, LF_NAMED),
	R(USB_DT_INTERFACE, "iInterface", NULL, LF_STR),
	R(USB_DT_ENDPOINT, "bEndpointAddress", NULL, LF_EPADDR),
	R(USB_DT_ENDPOINT, "bmAttributes", NULL, LF_EPATTR),
	R(USB_DT_ENDPOINT, "wMaxPacketSize", NULL, LF_MPS),
	R(USB_DT_ENDPOINT, "bInterval", NULL, LF_DEC),
	R(USB_DT_ENDPOINT, "bRefresh", NULL, LF_DEC),
	R(USB_DT_ENDPOINT, "bSynchAddress", NULL, LF_DEC),
	R(USB_DT_DEVICE_QUALIFIER, "bcdUSB", NULL, LF_BCD),
	R(USB_DT_DEVICE_QUALIFIER, "bDeviceClass", NULL, LF_CLASS),
	R(USB_DT_DEVICE_QUALIFIER, "bDeviceSubClass", NULL, LF_DEC),
	R(USB_DT_DEVICE_QUALIFIER, "bDeviceProtocol", NULL, LF_DEC),
	R(USB_DT_DEVICE_QUALIFIER, "bMaxPacketSize0", NULL, LF_DEC),
	R(USB_DT_DEVICE_QUALIFIER, "bNumConfigurations", NULL, LF_DEC),
	R(USB_DT_DEVICE_QUALIFIER, "bReserved", NULL, LF_SKIP),
	R(USB_DT_INTERFACE_ASSOCIATION, "bFirstInterface", NULL, LF_DEC),
	R(USB_DT_INTERFACE_ASSOCIATION, "bInterfaceCount", NULL, LF_DEC),
	R(USB_DT_INTERFACE_ASSOCIATION, "bFunctionClass", NULL, LF_CLASS),
	R(USB_DT_INTERFACE_ASSOCIATION, "bFunctionSubClass", NULL, LF_DEC),
	R(USB_DT_INTERFACE_ASSOCIATION, "bFunctionProtocol", NULL, LF_DEC),
	R(USB_DT_INTERFACE_ASSOCIATION, "iFunction", NULL, LF_STR),
	R(USB_DT_BOS, "wTotalLength", NULL, LF_HEX4),
	R(USB_DT_BOS, "bNumDeviceCaps", NULL, LF_DEC),
	R(USB_DT_DEVICE_CAPABILITY, "bDevCapabilityType", NULL, LF_DEC),
	R(USB_DT_DEVICE_CAPABILITY, "bFunctionalitySupport", NULL, LF_DEC),
	R(USB_DT_DEVICE_CAPABILITY, "bReserved", NULL, LF_SKIP),
	{ USB_DT_DEVICE_CAPABILITY, "bU1DevExitLat (us)", "bU1DevExitLat",
	    LF_DEC, 0, "micro seconds" },
	{ USB_DT_DEVICE_CAPABILITY, "wU2DevExitLat (us)", "bU2DevExitLat",
	    LF_DEC, 0, "micro seconds" },
	R(USB_DT_HID, "bcdHID", NULL, LF_BCD),
	R(USB_DT_HID, "bCountryCode", NULL, LF_NAMED),
	R(USB_DT_HID, "bNumDescriptors", NULL, LF_DEC),
	R(USB_DT_HID, "wDescriptorLength", NULL, LF_DEC),
	{ USB_DT_HUB, "bLength", NULL, LF_DEC, 23, NULL },
	{ USB_DT_HUB, "bDescriptorType", NULL, LF_DEC, 23, NULL },
	{ USB_DT_HUB, "bNbrPorts", "nNbrPorts", LF_DEC, 23, NULL },
	R(USB_DT_HUB, "wHubCharacteristics", "wHubCharacteristic", LF_HEX4),
	R(USB_DT_HUB, "Power switching", NULL, LF_HUB_POWER),
	R(USB_DT_HUB, "Compound device", NULL, LF_FLAG),
	R(USB_DT_HUB, "Over-current protection", NULL, LF_HUB_OC),
	R(USB_DT_HUB, "TT think time", NULL, LF_HUB_TT),
	R(USB_DT_HUB, "Port indicators", NULL, LF_FLAG),
	{ USB_DT_HUB, "bPwrOn2PwrGood (2 ms units)", "bPwrOn2PwrGood", LF_DEC,
	    23, "* 2 milli seconds" },
	{ USB_DT_HUB, "bHubContrCurrent (mA)", "bHubContrCurrent", LF_DEC,
	    23, "milli Ampere" },
	R(USB_DT_HUB, "DeviceRemovable", NULL, LF_BYTES),
	R(USB_DT_HUB, "PortPwrCtrlMask", NULL, LF_BYTES),
	R(USB_DT_SS_ENDPOINT_COMP, "bLength", NULL, LF_SKIP),
	R(USB_DT_SS_ENDPOINT_COMP, "bDescriptorType", NULL, LF_SKIP),
	R(USB_DT_SS_ENDPOINT_COMP, "bMaxBurst", NULL, LF_DEC),
	R(USB_DT_SS_ENDPOINT_COMP, "MaxStreams", NULL, LF_DEC),
	R(USB_DT_SS_ENDPOINT_COMP, "Mult", NULL, LF_DEC),
	R(USB_DT_SS_ENDPOINT_COMP, "wBytesPerInterval", NULL, LF_DEC),
};
#undef R

static const char *const ls_xfer[] = {
	"Control", "Isochronous", "Bulk", "Interrupt"
};
static const char *const ls_sync[] = {
	"None", "Asynchronous", "Adaptive", "Synchronous"
};
static const char *const ls_usage[] = {
	"Data", "Feedback", "Implicit feedback Data", "(reserved)"
};
static const char *const ls_mult[] = { "1x", "2x", "3x", "(?\?)" };

/* USB Attached SCSI 1.0 table 13 (lsusb's dump_pipe_desc). */
static const struct dec_name uas_pipes[] = {
	{ 1, "Command pipe" },
	{ 2, "Status pipe" },
	{ 3, "Data-in pipe" },
	{ 4, "Data-out pipe" },
	{ 0, NULL }
};

/* lsusb's names of device capabilities (USB 3.2 table 9-14). */
static const struct dec_name ls_caps[] = {
	{ 0x02, "USB 2.0 Extension" },
	{ 0x03, "SuperSpeed USB" },
	{ 0x04, "Container ID" },
	{ 0x05, "Platform" },
	{ 0x0a, "SuperSpeedPlus USB" },
	{ 0, NULL }
};

/* Headings by descriptor type: indent of the heading. */
static const struct {
	uint8_t		 type;
	int		 indent;
	const char	*text;
} lsheads[] = {
	{ USB_DT_DEVICE, 0, "Device Descriptor:" },
	{ USB_DT_CONFIG, 2, "Configuration Descriptor:" },
	{ USB_DT_INTERFACE, 4, "Interface Descriptor:" },
	{ USB_DT_ENDPOINT, 6, "Endpoint Descriptor:" },
	{ USB_DT_DEVICE_QUALIFIER, 0,
	    "Device Qualifier (for other device speed):" },
	{ USB_DT_OTHER_SPEED_CONFIG, 2,
	    "Other Speed Configuration Descriptor:" },
	{ USB_DT_INTERFACE_ASSOCIATION, 4, "Interface Association:" },
	{ USB_DT_BOS, 0, "Binary Object Store Descriptor:" },
	{ USB_DT_DEVICE_CAPABILITY, 2, "Device Capability:" },
	{ USB_DT_HID, 8, "HID Device Descriptor:" },
	{ USB_DT_HUB, 0, "Hub Descriptor:" },
};

/* Where the walk is, for the descriptors that depend on it. */
struct lswalk {
	struct dv	*d;
	const uint8_t	*data;	/* the bytes the tree points into */
	size_t		 len;
	uint8_t		 type;	/* descriptor being shown */
	uint32_t	 doff;	/* its offset in data */
	int		 indent; /* of its fields; -1 = fields hidden */
	int		 after;	/* 2, 4, 5: config, interface, ep */
	uint8_t		 icls, isub, iproto; /* the interface's class */
	int		 hid_report; /* a report line owed: 0, else -1 */
};

/* name then value, right-aligned at width (lsusb's columns). */
static void
ls_line(int indent, const char *name, int width, const char *value,
    const char *text)
{
	int	 pad;

	if (width == 0)
		width = 25;
	pad = width - (int)strlen(name) - (int)strlen(value);
	if (pad < 1)
		pad = 1;
	printf("%*s%s%*s%s%s%s\n", indent, "", name, pad, "", value,
	    text != NULL && *text != '\0' ? " " : "",
	    text != NULL ? text : "");
}

static const struct lsrow *
ls_row(uint8_t type, const char *name)
{
	const struct lsrow *any = NULL;
	size_t	 i;

	for (i = 0; i < sizeof lsrows / sizeof lsrows[0]; i++) {
		if (strcmp(lsrows[i].name, name) != 0)
			continue;
		if (lsrows[i].type == type)
			return &lsrows[i];
		if (lsrows[i].type == 0)
			any = &lsrows[i];
	}
	return any;
}

/* What a descriptor owes after its fields (the HID report line). */
static void
ls_flush(struct lswalk *w)
{
	if (w->hid_report >= 0) {
		printf("%*sReport Descriptors: \n%*s** UNAVAILABLE **\n",
		    9, "", 11, "");
		w->hid_report = -1;
	}
}

static void
ls_bytes(int indent, const uint8_t *p, size_t n, const char *label)
{
	size_t	 i;

	printf("%*s%s", indent, "", label);
	for (i = 0; i < n; i++)
		printf(" %02x", p[i]);
	printf("\n");
}

/* A descriptor starts: its heading, and how its fields show. */
static void
ls_head(struct lswalk *w, const struct dec_node *n)
{
	const uint8_t	*p;
	size_t		 i, left;
	const char	*pipe, *cap;

	ls_flush(w);
	w->indent = -1;
	if (n->off + 2 > w->len || n->len < 2) {
		w->type = 0;
		return;
	}
	p = w->data + n->off;
	left = n->len;
	w->type = p[1];
	w->doff = n->off;

	switch (w->type) {
	case USB_DT_CONFIG:
		w->after = 2;
		break;
	case USB_DT_INTERFACE:
		w->after = 4;
		if (left >= 8) {
			w->icls = p[5];
			w->isub = p[6];
			w->iproto = p[7];
		}
		break;
	case USB_DT_ENDPOINT:
		w->after = 5;
		break;
	case USB_DT_HID:
		/* HID's only inside a HID interface; elsewhere unknown. */
		if (w->after != 4 || w->icls != 0x03)
			goto other;
		break;
	case USB_DT_CS_INTERFACE:
		/* UAS pipe usage after a mass storage endpoint. */
		if (w->after == 5 && w->icls == 0x08 && left >= 3) {
			pipe = dec_name_find(uas_pipes, p[2]);
			printf("%*s%s (0x%02x)\n", 8, "",
			    pipe != NULL ? pipe : "Reserved", p[2]);
			return;
		}
		goto other;
	case USB_DT_SS_ENDPOINT_COMP:
		/* The companion's fields sit under the endpoint's. */
		w->indent = 8;
		return;
	default:
		break;
	}
	for (i = 0; i < sizeof lsheads / sizeof lsheads[0]; i++) {
		if (lsheads[i].type != w->type)
			continue;
		if (w->type == USB_DT_DEVICE_CAPABILITY && left >= 3 &&
		    (cap = dec_name_find(ls_caps, p[2])) != NULL)
			printf("%*s%s Device Capability:", lsheads[i].indent,
			    "", cap);
		else
			printf("%*s%s", lsheads[i].indent, "",
			    lsheads[i].text);
		/* Our checks: "data ends inside the descriptor" and such. */
		if (n->note != NULL)
			printf("  [%s]", n->note);
		printf("\n");
		w->indent = lsheads[i].indent + 2;
		return;
	}
other:
	/* lsusb shows what it does not know as bytes, where it stands. */
	ls_bytes(w->after == 5 ? 8 : w->after == 4 ? 6 : w->after == 2 ? 4 :
	    0, p, left, "** UNRECOGNIZED: ");
	w->type = 0;
}

static void
ls_field(struct lswalk *w, const struct dec_node *n)
{
	const struct lsrow *row;
	const char	*text = NULL, *name;
	char		 val[64], tbuf[256], sbuf[256], nbuf[400];
	const uint8_t	*p;
	uint64_t	 v = n->value;
	size_t		 i, k;
	int		 indent = w->indent, width;

	if (indent < 0 || n->f == NULL)
		return;
	row = ls_row(w->type, n->f->name);
	if (row == NULL) {
		/* Not a field lsusb shows: ours, in the same columns. */
		if (n->f->mask != 0)
			return;
		ls_line(indent, n->f->name, 0,
		    dec_node_value(n, val, sizeof val), n->note);
		return;
	}
	name = row->ls != NULL ? row->ls : row->name;
	width = row->width;
	val[0] = '\0';
	switch (row->fmt) {
	case LF_SKIP:
		return;
	case LF_DEC:
		snprintf(val, sizeof val, "%llu", (unsigned long long)v);
		break;
	case LF_HEX2:
		snprintf(val, sizeof val, "0x%02llx", (unsigned long long)v);
		break;
	case LF_HEX4:
		snprintf(val, sizeof val, "0x%04llx", (unsigned long long)v);
		break;
	case LF_BCD:
		snprintf(val, sizeof val, "%x.%02x", (unsigned)(v >> 8) & 0xff,
		    (unsigned)v & 0xff);
		break;
	case LF_STR:
		snprintf(val, sizeof val, "%llu", (unsigned long long)v);
		text = dv_string(w->d, (uint8_t)v, sbuf, sizeof sbuf);
		break;
	case LF_NAMED:
		snprintf(val, sizeof val, "%llu", (unsigned long long)v);
		if (n->f->names != NULL)
			text = dec_name_find(n->f->names, (uint32_t)v);
		break;
	case LF_CLASS:
		snprintf(val, sizeof val, "%llu", (unsigned long long)v);
		text = dec_name_find(dec_classes, (uint32_t)v);
		break;
	case LF_VID:
		snprintf(val, sizeof val, "0x%04llx", (unsigned long long)v);
		text = usbids_vendor((uint16_t)v);
		break;
	case LF_PID:
		snprintf(val, sizeof val, "0x%04llx", (unsigned long long)v);
		text = usbids_product(w->d->vid, (uint16_t)v);
		break;
	case LF_EPADDR:
		snprintf(val, sizeof val, "0x%02llx", (unsigned long long)v);
		snprintf(tbuf, sizeof tbuf, " EP %u %s", (unsigned)v & 0x0f,
		    v & 0x80 ? "IN" : "OUT");
		text = tbuf;
		break;
	case LF_EPATTR:
		snprintf(val, sizeof val, "%llu", (unsigned long long)v);
		ls_line(indent, name, width, val, n->note);
		/* These three are left-aligned in lsusb. */
		printf("%*s%-25s%s\n", indent + 2, "", "Transfer Type",
		    ls_xfer[v & 3]);
		printf("%*s%-25s%s\n", indent + 2, "", "Synch Type",
		    ls_sync[(v >> 2) & 3]);
		printf("%*s%-25s%s\n", indent + 2, "", "Usage Type",
		    ls_usage[(v >> 4) & 3]);
		return;
	case LF_MPS:
		snprintf(val, sizeof val, "0x%04llx", (unsigned long long)v);
		snprintf(tbuf, sizeof tbuf, " %s %u bytes",
		    ls_mult[(v >> 11) & 3], (unsigned)v & 0x7ff);
		text = tbuf;
		break;
	case LF_MAXPOWER:
		/* USB 3.2 9.6.3: 8 mA units at SuperSpeed, else 2 mA. */
		snprintf(val, sizeof val, "%llumA", (unsigned long long)v *
		    (w->d->desclen >= 4 && get_le16(w->d->desc + 2) >= 0x0300 &&
		    atoi(w->d->speed) >= 5000 ? 8 : 2));
		/* lsusb: "%5umA", the number in the usual column. */
		width = 27;
		break;
	case LF_BYTES:
		p = w->data + n->off;
		k = 0;
		for (i = 0; i < n->len && n->off + i < w->len &&
		    k + 6 < sizeof tbuf; i++)
			k += (size_t)snprintf(tbuf + k, sizeof tbuf - k,
			    " 0x%02x", p[i]);
		tbuf[k] = '\0';
		printf("%*s%-18s%s%s%s\n", indent, "", name, tbuf,
		    n->note != NULL ? "  " : "",
		    n->note != NULL ? n->note : "");
		return;
	case LF_CFG_ONE:
		if (v == 0)
			printf("%*s%s\n", indent + 2, "", name);
		return;
	case LF_CFG_SELF:
		printf("%*s%s\n", indent + 2, "", v ? name : "(Bus Powered)");
		return;
	case LF_FLAG:
		if (v != 0)
			printf("%*s%s\n", indent + 2, "", name);
		return;
	case LF_HUB_POWER:
		printf("%*s%s\n", indent + 2, "", v == 0 ?
		    "Ganged power switching" : v == 1 ?
		    "Per-port power switching" :
		    "No power switching (usb 1.0)");
		return;
	case LF_HUB_OC:
		printf("%*s%s\n", indent + 2, "", v == 0 ?
		    "Ganged overcurrent protection" : v == 1 ?
		    "Per-port overcurrent protection" :
		    "No overcurrent protection");
		return;
	case LF_HUB_TT:
		/* Only high-speed hubs have transaction translators. */
		if (w->d->desclen >= 7 && (w->d->desc[6] == 1 ||
		    w->d->desc[6] == 2))
			printf("%*sTT think time %u FS bits\n", indent + 2, "",
			    ((unsigned)v + 1) * 8);
		return;
	}
	if (w->type == USB_DT_HID &&
	    strcmp(n->f->name, "bDescriptorType") == 0 &&
	    n->off != w->doff + 1) {
		/* HID's class descriptor list, not the header. */
		text = v == 0x22 ? "Report" : v == 0x23 ? "Physical" : NULL;
		if (v == 0x22)
			w->hid_report = 0;
	}
	/* Units after the number, which alone sits in the column. */
	if (row->suffix != NULL)
		text = row->suffix;
	if (n->note != NULL) {
		/* Our checks: bad lengths and the like. */
		snprintf(nbuf, sizeof nbuf, "%.256s%s[%s]", text != NULL ?
		    text : "", text != NULL ? "  " : "", n->note);
		text = nbuf;
	}
	ls_line(indent, name, width, val, text);
}

/* Decode p[0..len) with dec-desc.c and show it as lsusb -v does. */
static void
ls_tree(struct dv *d, const uint8_t *p, size_t len, int after)
{
	static struct dec_node	 nodes[DEC_TREE_NODES];
	static char		 arena[DEC_TREE_ARENA];
	struct dec_tree		 t;
	struct lswalk		 w;
	size_t			 i;

	dec_tree_init(&t, nodes, DEC_TREE_NODES, arena, sizeof arena);
	dec_desc_tree(p, len, NULL, &t);
	memset(&w, 0, sizeof w);
	w.d = d;
	w.data = p;
	w.len = len;
	w.after = after;
	w.indent = -1;
	w.hid_report = -1;
	for (i = 0; i < t.n; i++) {
		if (t.node[i].f == NULL)
			ls_head(&w, &t.node[i]);
		else
			ls_field(&w, &t.node[i]);
	}
	ls_flush(&w);
	if (t.overflow)
		printf("  (descriptors too large to show whole)\n");
}

/* The sysfs or rebuilt bytes: the device, then each configuration. */
void
ls_descriptors(struct dv *d)
{
	const uint8_t	*p = d->desc;
	size_t		 off, total, n = d->desclen;

	if (n < 2 || p[0] < 2) {
		printf("Device Descriptor:\n  (not available)\n");
		return;
	}
	off = p[0] < n ? p[0] : n;
	ls_tree(d, p, off, 0);
	while (off + 4 <= n) {
		/* Each configuration is wTotalLength bytes. */
		total = p[off + 1] == USB_DT_CONFIG ?
		    get_le16(p + off + 2) : p[off];
		if (total < 2)
			total = n - off;
		if (total > n - off)
			total = n - off;
		ls_tree(d, p + off, total, 0);
		off += total;
	}
	if (off < n)
		ls_bytes(0, p + off, n - off, "** UNRECOGNIZED: ");
}

/* USB 2.0 11.24.2.7: wPortStatus and wPortChange, as lsusb prints them. */
static void
ls_port_status(unsigned port, const uint8_t s[4])
{
	printf("   Port %u: %02x%02x.%02x%02x", port, s[3], s[2], s[1], s[0]);
	printf("%s%s%s%s%s", s[2] & 0x10 ? " C_RESET" : "",
	    s[2] & 0x08 ? " C_OC" : "", s[2] & 0x04 ? " C_SUSPEND" : "",
	    s[2] & 0x02 ? " C_ENABLE" : "", s[2] & 0x01 ? " C_CONNECT" : "");
	printf("%s%s%s%s%s%s%s%s%s%s\n", s[1] & 0x10 ? " indicator" : "",
	    s[1] & 0x08 ? " test" : "", s[1] & 0x04 ? " highspeed" : "",
	    s[1] & 0x02 ? " lowspeed" : "", s[1] & 0x01 ? " power" : "",
	    s[0] & 0x10 ? " RESET" : "", s[0] & 0x08 ? " oc" : "",
	    s[0] & 0x04 ? " suspend" : "", s[0] & 0x02 ? " enable" : "",
	    s[0] & 0x01 ? " connect" : "");
}

/*
 * What lsusb asks the device after the descriptors: the hub descriptor
 * and port status of a hub, the BOS of USB 2.01+, the qualifier of a USB
 * 2.00 device, the device status.  Needs an open handle.
 */
void
ls_requests(struct dv *d)
{
	uint8_t	 buf[512], st[4];
	uint16_t bcd;
	int	 n, i;

	if (d->h == NULL || d->desclen < 18)
		return;
	bcd = get_le16(d->desc + 2);
	if (d->desc[4] == LIBUSB_CLASS_HUB && bcd < 0x0300) {
		n = dv_ctrl_in(d, LIBUSB_REQUEST_TYPE_CLASS,
		    LIBUSB_REQUEST_GET_DESCRIPTOR, LIBUSB_DT_HUB << 8, 0, buf,
		    7 + 2 * 32);
		if (n >= 7 && buf[0] >= 7) {
			/* Root hubs pad the reply to wLength with zeroes. */
			ls_tree(d, buf, (size_t)(n < buf[0] ? n : buf[0]), 0);
			printf(" Hub Port Status:\n");
			for (i = 0; i < buf[2]; i++) {
				if (dv_ctrl_in(d, LIBUSB_REQUEST_TYPE_CLASS |
				    LIBUSB_RECIPIENT_OTHER,
				    LIBUSB_REQUEST_GET_STATUS, 0,
				    (uint16_t)(i + 1), st, 4) != 4)
					break;
				ls_port_status((unsigned)i + 1, st);
			}
		}
	}
	if (bcd >= 0x0201) {
		n = dv_ctrl_in(d, 0, LIBUSB_REQUEST_GET_DESCRIPTOR,
		    LIBUSB_DT_BOS << 8, 0, buf, 5);
		if (n == 5 && buf[1] == LIBUSB_DT_BOS) {
			n = dv_ctrl_in(d, 0, LIBUSB_REQUEST_GET_DESCRIPTOR,
			    LIBUSB_DT_BOS << 8, 0, buf, (uint16_t)(get_le16(
			    buf + 2) < sizeof buf ? get_le16(buf + 2) :
			    sizeof buf));
			if (n >= 5)
				ls_tree(d, buf, (size_t)n, 0);
		}
	}
	if (bcd == 0x0200) {
		/* Full-speed-only devices stall it: nothing to say then. */
		n = dv_ctrl_in(d, 0, LIBUSB_REQUEST_GET_DESCRIPTOR,
		    USB_DT_DEVICE_QUALIFIER << 8, 0, buf, 10);
		if (n == 10 && buf[0] == 10 &&
		    buf[1] == USB_DT_DEVICE_QUALIFIER)
			ls_tree(d, buf, 10, 0);
	}
	n = dv_ctrl_in(d, 0, LIBUSB_REQUEST_GET_STATUS, 0, 0, st, 2);
	if (n == 2) {
		printf("Device Status:     0x%02x%02x\n", st[1], st[0]);
		printf("  %s\n", st[0] & 1 ? "Self Powered" : "(Bus Powered)");
		if (bcd < 0x0300 && (st[0] & 2))
			printf("  Remote Wakeup Enabled\n");
		if (st[0] & 8)
			printf("  Debug Mode\n");
	}
}
