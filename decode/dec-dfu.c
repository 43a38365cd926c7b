/*
 * decode/dec-dfu.c - device firmware upgrade (DFU 1.1): the functional
 * descriptor of a DFU interface and the answers of its class requests
 * (DFU_GETSTATUS, DFU_GETSTATE), with the DNLOAD/UPLOAD blocks named.
 *
 * Facts: USB DFU 1.1 (4.1.3 and 4.2.4 functional descriptor, 6.1
 * requests, 6.1.2 DFU_GETSTATUS, 6.1.5 states, 6.1.2 status codes).  Field
 * names and layout are Wireshark's (epan/dissectors/packet-usb-dfu.c,
 * usbdfu.*): the descriptor node, the command of a request's setup and
 * the generated response, interface and command frame of its answer.
 */
#include "class.h"

#define F	DEC_FIELD

static const struct dec_name dfu_requests[] = {	/* DFU 1.1 table 3.2 */
	{ 0, "DFU_DETACH" },
	{ 1, "DFU_DNLOAD" },
	{ 2, "DFU_UPLOAD" },
	{ 3, "DFU_GETSTATUS" },
	{ 4, "DFU_CLRSTATUS" },
	{ 5, "DFU_GETSTATE" },
	{ 6, "DFU_ABORT" },
	{ 0, NULL }
};

static const struct dec_name dfu_states[] = {	/* DFU 1.1 6.1.2 */
	{ 0, "appIdle" },
	{ 1, "appDetach" },
	{ 2, "dfuIdle" },
	{ 3, "dfuDownloadSync" },
	{ 4, "dfuDownloadBusy" },
	{ 5, "dfuDownloadIdle" },
	{ 6, "dfuManifestSync" },
	{ 7, "dfuManifest" },
	{ 8, "dfuManifestWaitReset" },
	{ 9, "dfuUploadIdle" },
	{ 10, "dfuError" },
	{ 0, NULL }
};

static const struct dec_name dfu_status[] = {	/* DFU 1.1 6.1.2 */
	{ 0x00, "OK" },
	{ 0x01, "errTarget" },
	{ 0x02, "errFile" },
	{ 0x03, "errWrite" },
	{ 0x04, "errErase" },
	{ 0x05, "errCheckErased" },
	{ 0x06, "errProg" },
	{ 0x07, "errVerify" },
	{ 0x08, "errAddress" },
	{ 0x09, "errNotDone" },
	{ 0x0a, "errFirmware" },
	{ 0x0b, "errVendor" },
	{ 0x0c, "errUsbr" },
	{ 0x0d, "errPOR" },
	{ 0x0e, "errUnknown" },
	{ 0x0f, "errStalledPkt" },
	{ 0, NULL }
};

/* The functional descriptor: Wireshark's node over all of it, its bits
 * straight under the node (no bmAttributes field of its own). */
F(f_desc, "DFU Descriptor", "usbdfu.descriptor", DK_LABEL, 0, NULL, 0);
F(f_attr_rsv, "Reserved", "usbdfu.descriptor.bmAttributes.reserved",
    DK_HEX, 1, NULL, 0xf0);
F(f_attr_detach, "Will Detach", "usbdfu.descriptor.bmAttributes.WillDetach",
    DK_BOOL, 1, NULL, 0x08);
F(f_attr_manif, "Manifestation Tolerant",
    "usbdfu.descriptor.bmAttributes.ManifestationTolerant", DK_BOOL, 1, NULL,
    0x04);
F(f_attr_up, "Can Upload", "usbdfu.descriptor.bmAttributes.CanUpload",
    DK_BOOL, 1, NULL, 0x02);
F(f_attr_down, "Can Download", "usbdfu.descriptor.bmAttributes.CanDownload",
    DK_BOOL, 1, NULL, 0x01);
F(f_detach, "wDetachTimeOut", "usbdfu.descriptor.wDetachTimeOut", DK_UINT,
    2, NULL, 0);
F(f_xfer, "wTransferSize", "usbdfu.descriptor.wTransferSize", DK_UINT, 2,
    NULL, 0);
F(f_version, "bcdDFUVersion", "usbdfu.descriptor.bcdDFUVersion", DK_HEX, 2,
    NULL, 0);

/* The request (setup) and its answer, as packet-usb-dfu.c shows them. */
F(f_proto, "USB Device Firmware Upgrade", "usbdfu", DK_LABEL, 0, NULL, 0);
F(f_command, "Command", "usbdfu.command", DK_UINT, 1, dfu_requests, 0);
F(f_response, "Response", "usbdfu.response", DK_UINT, 1, dfu_requests, 0);
F(f_cmd_frame, "Command Frame", "usbdfu.command_frame", DK_UINT, 4, NULL,
    0);
F(f_unused, "Unused", "usbdfu.unused", DK_HEX, 2, NULL, 0);
F(f_intf, "Interface", "usbdfu.interface", DK_UINT, 2, NULL, 0);
F(f_length, "Length", "usbdfu.length", DK_UINT, 2, NULL, 0);
F(f_block, "Block Number", "usbdfu.block_number", DK_UINT, 2, NULL, 0);
F(f_timeout, "Timeout", "usbdfu.timeout", DK_UINT, 2, NULL, 0);
F(f_status, "Status", "usbdfu.status", DK_HEX, 1, dfu_status, 0);
F(f_poll, "Poll Timeout", "usbdfu.poll_timeout", DK_UINT, 3, NULL, 0);
F(f_state, "State", "usbdfu.state", DK_UINT, 1, dfu_states, 0);
F(f_istring, "iString", "usbdfu.iString", DK_INT, 1, NULL, 0);
F(f_data, "Data", "usbdfu.data", DK_LABEL, 0, NULL, 0);

static const struct dec_field *const attr_bits[] = {
	&f_attr_rsv, &f_attr_detach, &f_attr_manif, &f_attr_up, &f_attr_down,
	NULL
};

static int
dfu_desc(const struct dec_cls_desc *cd, struct dec_tree *t)
{
	struct dec_cur	 c = { t, cd->p, cd->n, cd->off, 0 };
	const struct dec_field *const *f;

	if (cd->p[1] != 0x21)
		return 0;
	/* usbdfu.descriptor "DFU Descriptor: DFU FUNCTIONAL" */
	cd->label->f = &f_desc;
	cd->label->str = "DFU Descriptor: DFU FUNCTIONAL";
	if (cd->n < 3) {
		dec_cur_field(&c, &f_attr_rsv, 2, 1, NULL);	/* cut */
		return 1;
	}
	for (f = attr_bits; *f != NULL; f++)	/* bmAttributes' bits */
		dec_tree_add(t, *f, DB_DATA, cd->off + 2, 1,
		    dec_mask_value(cd->p[2], (*f)->mask));
	dec_cur_field(&c, &f_detach, 3, 2, NULL);
	dec_cur_field(&c, &f_xfer, 5, 2, NULL);
	/* (DFU 1.0 descriptors end at bLength 7: no bcdDFUVersion) */
	if (cd->p[0] > 7)
		dec_cur_field(&c, &f_version, 7, 2, NULL);
	return 1;
}

/*
 * Products whose class requests Wireshark's usb_dfu dissector takes (its
 * "usb.product" entries in packet-usb-dfu.c): devices in DFU mode.  Its
 * "usb.control" entries are keyed by class, subclass and protocol, which
 * tshark 4.0 does not look up for a control request: other devices'
 * requests stay undecoded there.
 */
static const struct {
	uint16_t	 vid, pid;
} dfu_products[] = {
	{ 0x05ac, 0x1227 },	/* Apple Mobile Device (DFU Mode) */
	{ 0x1d50, 0x1db5 },	/* IDBG in DFU mode */
	{ 0x1d50, 0x6001 },	/* Ubertooth Zero DFU */
	{ 0x1d50, 0x6003 },	/* Ubertooth One DFU */
	{ 0x1d50, 0x600f },	/* Paparazzi Lisa/M (DFU) */
	{ 0x1d50, 0x6011 },	/* LeoLipo (DFU) */
	{ 0x1d50, 0x6017 },	/* Black Magic Debug Probe (DFU) */
	{ 0x1d50, 0x6044 },	/* Open Source USB CANBUS converter (DFU) */
	{ 0x1d50, 0x6064 },	/* CPC FPGA (DFU) */
	{ 0x1d50, 0x6069 },	/* xser (DFU mode) */
	{ 0x1d50, 0x6082 },	/* Facecandy USB DFU loader */
	{ 0x1d50, 0x6084 },	/* arcin arcade controller (DFU loader) */
};

/* A DFU class request of this record, or -1. */
static int
dfu_request(const struct dec_cls_arg *a)
{
	const struct dec_info *info = a->info;

	if (a->r->xfer_type != XFER_CTRL || !(info->flags & DI_SETUP) ||
	    SETUP_TYPE(&info->setup) != 1)
		return -1;
	return info->setup.bRequest;
}

/* Does Wireshark decode this device's requests as DFU? */
static int
dfu_product(const struct dec_info *info)
{
	size_t	 i;

	if (!(info->flags & DI_IDS))
		return 0;
	for (i = 0; i < sizeof dfu_products / sizeof dfu_products[0]; i++) {
		if (dfu_products[i].vid == info->vid &&
		    dfu_products[i].pid == info->pid)
			return 1;
	}
	return 0;
}

/* The setup of a request: the command, its wValue, interface, length and
 * a DNLOAD's block. */
static void
dfu_setup_tree(const struct dec_cls_arg *a, int req, struct dec_tree *t)
{
	const struct dec_setup *s = &a->info->setup;
	const struct urb_rec *r = a->r;
	const struct dec_field *v;

	dec_tree_add(t, &f_command, DB_SETUP, 1, 1, (uint64_t)req);
	v = req == 0 ? &f_timeout : req == 1 || req == 2 ? &f_block :
	    &f_unused;
	dec_tree_add(t, v, DB_SETUP, 2, 2, s->wValue);
	dec_tree_add(t, &f_intf, DB_SETUP, 4, 2, s->wIndex);
	dec_tree_add(t, &f_length, DB_SETUP, 6, 2, s->wLength);
	/* (an empty DNLOAD, the one that ends a download, has no Data:
	 * tshark 4.0 stops there as at a malformed packet) */
	if (req == 1 && r->data_len > 0)
		dec_tree_add(t, &f_data, DB_DATA, 0, r->data_len, 0);
}

/* The answer: the command it answers, and what GETSTATUS, GETSTATE and
 * UPLOAD return (DFU 1.1 6.1.2, 6.1.5, 6.2). */
static void
dfu_answer_tree(const struct dec_cls_arg *a, int req, struct dec_tree *t)
{
	const struct urb_rec *r = a->r;
	const struct dec_info *info = a->info;
	struct dec_cur	 c = { t, r->data, r->data_len, 0, 0 };

	dec_tree_add(t, &f_response, DB_NONE, 0, 0, (uint64_t)req);
	dec_tree_add(t, &f_intf, DB_NONE, 0, 0, info->setup.wIndex);
	dec_tree_add(t, &f_cmd_frame, DB_NONE, 0, 0, info->pair_frame != 0 ?
	    info->pair_frame : info->pair_recno);
	switch (req) {
	case 2:			/* DFU_UPLOAD: a block */
		dec_tree_add(t, &f_block, DB_NONE, 0, 0, info->setup.wValue);
		if (r->data_len > 0)
			dec_tree_add(t, &f_data, DB_DATA, 0, r->data_len, 0);
		break;
	case 3:			/* DFU_GETSTATUS: 6 bytes */
		dec_cur_field(&c, &f_status, 0, 1, NULL);
		dec_cur_field(&c, &f_poll, 1, 3, NULL);
		dec_cur_field(&c, &f_state, 4, 1, NULL);
		dec_cur_field(&c, &f_istring, 5, 1, NULL);
		break;
	case 5:			/* DFU_GETSTATE: 1 byte */
		dec_cur_field(&c, &f_state, 0, 1, NULL);
		break;
	}
}

/* The protocol's node (usbdfu), its fields one level below. */
static void
dfu_push(struct dec_tree *t)
{
	dec_tree_add(t, &f_proto, DB_NONE, 0, 0, 0);
	t->depth++;
}

static int
dfu_tree(const struct dec_cls_arg *a, struct dec_tree *t)
{
	const struct urb_rec *r = a->r;
	int		 req = dfu_request(a);

	if (req < 0)
		return 0;
	if (!dfu_product(a->info)) {
		/* no dissector takes it: an answer's data is
		 * usb.control.Response, a setup's a fragment */
		if (r->data_len == 0)
			return 0;
		if (r->type == 'C')
			dec_tree_ctl_response(r, t);
		else
			dec_tree_fragment(r, t);
		return 1;
	}
	if (r->type == 'S' && r->flag_setup == 0) {
		/* the setup's data stage is also a fragment to tshark */
		if (r->data_len > 0)
			dec_tree_fragment(r, t);
		dfu_push(t);
		dfu_setup_tree(a, req, t);
	} else if (r->type == 'C') {
		dfu_push(t);
		dfu_answer_tree(a, req, t);
	} else
		return 0;
	t->depth--;
	return 1;
}

static int
dfu_summary(const struct dec_cls_arg *a, struct sbuf *b)
{
	const struct urb_rec *r = a->r;
	const uint8_t	*p = r->data;
	char		 tmp[24];
	int		 req = dfu_request(a);

	if (req < 0)
		return 0;
	sb_puts(b, dec_name_or(dfu_requests, (uint8_t)req, tmp));
	if (req == 3 && r->data_len >= 6) {
		sb_printf(b, ": %s, %s, poll %u ms",
		    dec_name_or(dfu_status, p[0], tmp),
		    dec_name_find(dfu_states, p[4]) != NULL ?
		    dec_name_find(dfu_states, p[4]) : "state ?",
		    p[1] | p[2] << 8 | (uint32_t)p[3] << 16);
	} else if (req == 5 && r->data_len >= 1)
		sb_printf(b, ": %s", dec_name_or(dfu_states, p[0], tmp));
	else if (req == 1 || req == 2)
		sb_printf(b, " block %u, %u bytes", a->info->setup.wValue,
		    r->data_len);
	return 1;
}

/* DFU (DFU 1.1 4.2.3: class 0xfe, subclass 1; protocol 1 run-time, 2 DFU
 * mode). */
const struct dec_class_ops dec_class_dfu = {
	.name = "DFU",
	.cls = 0xfe, .subcls = 0x01, .proto = DEC_CLS_ANY,
	.summary = dfu_summary,
	.tree = dfu_tree,
	.tree_empty = 1,
	.desc = dfu_desc,
};
