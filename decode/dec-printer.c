/*
 * decode/dec-printer.c - printers: the IEEE 1284 device ID a printer
 * answers GET_DEVICE_ID with, and GET_PORT_STATUS's bits.
 *
 * Facts: USB Printing Devices 1.1 (4.2.1 GET_DEVICE_ID: a two-byte
 * big-endian length, itself included, then the ID string; 4.2.2
 * GET_PORT_STATUS); IEEE 1284 device ID keys (MFG, MDL, CMD); Linux
 * drivers/usb/class/usblp.c.  Field names are Wireshark's
 * (epan/dissectors/packet-usb-printer.c, usbprinter.*); it has none for
 * the port status, whose usbprinter.port_status.* are urbscope's.
 */
#include <string.h>

#include "class.h"

#define F	DEC_FIELD

F(f_idlen, "Device ID length", "usbprinter.device_id_len", DK_UINT, 2,
    NULL, 0);
F(f_id, "Device ID", "usbprinter.device_id", DK_STRING, 0, NULL, 0);
F(f_port, "Port status", "usbprinter.port_status", DK_HEX, 1, NULL, 0);
F(f_port_paper, "Paper Empty", "usbprinter.port_status.paper_empty",
    DK_BOOL, 1, NULL, 0x20);
F(f_port_sel, "Select", "usbprinter.port_status.select", DK_BOOL, 1, NULL,
    0x10);
F(f_port_err, "Not Error", "usbprinter.port_status.not_error", DK_BOOL, 1,
    NULL, 0x08);

static const struct dec_field *const port_bits[] = {
	&f_port_paper, &f_port_sel, &f_port_err, NULL
};

#define GET_DEVICE_ID	0x00
#define GET_PORT_STATUS	0x01

/* A GET_DEVICE_ID or GET_PORT_STATUS answer of this record, or -1. */
static int
printer_request(const struct dec_cls_arg *a)
{
	const struct dec_info *info = a->info;

	if (a->r->xfer_type != XFER_CTRL || a->r->type != 'C' ||
	    !(info->flags & DI_SETUP) || SETUP_TYPE(&info->setup) != 1 ||
	    !SETUP_DIR_IN(&info->setup) || info->setup.bRequest > 1)
		return -1;
	return info->setup.bRequest;
}

/* The ID's bytes as present: after the length, up to it. */
static size_t
id_len(const struct urb_rec *r)
{
	size_t	 n;

	if (r->data_len < 2)
		return 0;
	n = get_be16(r->data);
	n = n < 2 ? 0 : n - 2;
	return n < r->data_len - 2 ? n : r->data_len - 2;
}

static int
printer_tree(const struct dec_cls_arg *a, struct dec_tree *t)
{
	const struct urb_rec *r = a->r;
	struct dec_cur	 c = { t, r->data, r->data_len, 0, 0 };
	struct dec_node	*n;
	char		 s[512];
	size_t		 len, i;
	int		 req = printer_request(a);

	if (req < 0 || r->data_len == 0)
		return 0;
	if (req == GET_PORT_STATUS) {
		dec_cur_word(&c, &f_port, port_bits, 0, 1, NULL);
		return 1;
	}
	n = dec_tree_add(t, &f_idlen, DB_DATA, 0, r->data_len < 2 ?
	    r->data_len : 2, r->data_len < 2 ? 0 : get_be16(r->data));
	if (r->data_len < 2) {
		if (n != NULL) {
			n->flags |= DN_CUT;
			n->note = "the bytes end inside the field";
		}
		return 1;
	}
	len = id_len(r);
	for (i = 0; i < len && i < sizeof s - 1; i++)
		s[i] = r->data[2 + i] >= 0x20 && r->data[2 + i] < 0x7f ?
		    (char)r->data[2 + i] : '.';
	n = dec_tree_add(t, &f_id, DB_DATA, 2, (uint32_t)len, 0);
	if (n != NULL)
		n->str = dec_tree_strdup(t, s, i);
	return 1;
}

/* "GET_DEVICE_ID: HP LaserJet 1020" from the MFG and MDL keys, else the
 * start of the ID. */
static int
printer_summary(const struct dec_cls_arg *a, struct sbuf *b)
{
	static const char *const keys[][2] = {
		{ "MFG:", "MANUFACTURER:" }, { "MDL:", "MODEL:" }
	};
	const struct urb_rec *r = a->r;
	const char	*id = (const char *)r->data + 2, *p, *end;
	size_t		 len, k, j, kl;
	int		 req = printer_request(a), any = 0;

	if (req < 0)
		return 0;
	if (req == GET_PORT_STATUS) {
		sb_printf(b, "GET_PORT_STATUS: %s%s%s",
		    r->data[0] & 0x20 ? "paper empty, " : "",
		    r->data[0] & 0x10 ? "selected" : "not selected",
		    r->data[0] & 0x08 ? "" : ", error");
		return 1;
	}
	len = id_len(r);
	sb_puts(b, "GET_DEVICE_ID:");
	for (k = 0; k < 2; k++) {
		for (j = 0; j < 2; j++) {
			kl = strlen(keys[k][j]);
			for (p = id; p + kl <= id + len; p++) {
				if ((p == id || p[-1] == ';') &&
				    memcmp(p, keys[k][j], kl) == 0)
					break;
			}
			if (p + kl > id + len)
				continue;
			p += kl;
			for (end = p; end < id + len && *end != ';'; end++)
				;
			sb_putc(b, ' ');
			for (; p < end; p++)
				sb_putc(b, *p >= 0x20 && *p < 0x7f ? *p : '.');
			any = 1;
			break;
		}
	}
	if (!any)
		sb_printf(b, " %zu bytes", len);
	return 1;
}

/* Printer (Printing Devices 1.1 4.3: class 7, subclass 1). */
const struct dec_class_ops dec_class_printer = {
	.name = "printer",
	.cls = 0x07, .subcls = 0x01, .proto = DEC_CLS_ANY,
	.summary = printer_summary,
	.tree = printer_tree,
};
