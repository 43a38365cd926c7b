/*
 * decode/dec-dfu.c - device firmware upgrade (DFU 1.1): the functional
 * descriptor of a DFU interface and the answers of its class requests
 * (DFU_GETSTATUS, DFU_GETSTATE), with the DNLOAD/UPLOAD blocks named.
 *
 * Facts: USB DFU 1.1 (4.1.3 and 4.2.4 functional descriptor, 6.1
 * requests, 6.1.2 DFU_GETSTATUS, 6.1.5 states, 6.1.2 status codes).  Field
 * names are Wireshark's (epan/dissectors/packet-usb-dfu.c, usbdfu.*).
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

F(f_attr, "bmAttributes", "usbdfu.descriptor.bmAttributes", DK_HEX, 1,
    NULL, 0);
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

F(f_status, "bStatus", "usbdfu.status", DK_HEX, 1, dfu_status, 0);
F(f_poll, "bwPollTimeout", "usbdfu.poll_timeout", DK_UINT, 3, NULL, 0);
F(f_state, "bState", "usbdfu.state", DK_UINT, 1, dfu_states, 0);
F(f_istring, "iString", "usbdfu.iString", DK_INT, 1, NULL, 0);
F(f_data, "Data", "usbdfu.data", DK_BYTES, 0, NULL, 0);

static const struct dec_field *const attr_bits[] = {
	&f_attr_rsv, &f_attr_detach, &f_attr_manif, &f_attr_up, &f_attr_down,
	NULL
};

static int
dfu_desc(const struct dec_cls_desc *cd, struct dec_tree *t)
{
	struct dec_cur	 c = { t, cd->p, cd->n, cd->off, 0 };

	if (cd->p[1] != 0x21)
		return 0;
	cd->label->str = "DFU FUNCTIONAL descriptor";
	dec_cur_word(&c, &f_attr, attr_bits, 2, 1, NULL);
	dec_cur_field(&c, &f_detach, 3, 2, NULL);
	dec_cur_field(&c, &f_xfer, 5, 2, NULL);
	/* (DFU 1.0 descriptors end here, at bLength 7) */
	if (cd->n > 7 || cd->p[0] > 7)
		dec_cur_field(&c, &f_version, 7, 2, NULL);
	return 1;
}

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

static int
dfu_tree(const struct dec_cls_arg *a, struct dec_tree *t)
{
	const struct urb_rec *r = a->r;
	struct dec_cur	 c = { t, r->data, r->data_len, 0, 0 };
	int		 req = dfu_request(a);

	if (req < 0 || r->data_len == 0)
		return 0;
	dec_tree_push(t, "USB DFU", DB_DATA, 0, r->data_len);
	switch (req) {
	case 3:			/* DFU_GETSTATUS: 6 bytes */
		dec_cur_field(&c, &f_status, 0, 1, NULL);
		dec_cur_field(&c, &f_poll, 1, 3, NULL);
		dec_cur_field(&c, &f_state, 4, 1, NULL);
		dec_cur_field(&c, &f_istring, 5, 1, NULL);
		break;
	case 5:			/* DFU_GETSTATE: 1 byte */
		dec_cur_field(&c, &f_state, 0, 1, NULL);
		break;
	default:		/* a DNLOAD or UPLOAD block, or else */
		dec_cur_rest(&c, &f_data, 0);
		break;
	}
	dec_tree_pop(t);
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
	.desc = dfu_desc,
};
