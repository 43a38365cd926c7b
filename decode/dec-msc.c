/*
 * decode/dec-msc.c - mass storage: the bulk-only transport's CBW and CSW
 * with the SCSI command they carry and the data between them, and the
 * information units of USB Attached SCSI.  The SCSI itself is
 * dec-scsi.c's.
 *
 * Facts: USB Mass Storage Class Bulk-Only Transport 1.0 (5.1 CBW, 31 bytes
 * "USBC"; 5.2 CSW, 13 bytes "USBS"), USB Attached SCSI r04 (6.2 IUs:
 * command 0x01, sense 0x03, response 0x04, task management 0x05, read
 * ready 0x06, write ready 0x07) and Linux drivers/usb/storage/uas.c.
 * Field names are Wireshark's (packet-usbms.c usbms.*, packet-usb-uasp.c
 * uasp.*).
 */
#include <string.h>

#include "class.h"

#define F DEC_FIELD

static const struct dec_name csw_status[] = {	/* BOT 5.2 table 5.3 */
	{ 0, "passed" },
	{ 1, "failed" },
	{ 2, "phase error" },
	{ 0, NULL }
};

static const struct dec_name csw_status_ws[] = {	/* Wireshark's */
	{ 0, "Command Passed" },
	{ 1, "Command Failed" },
	{ 2, "Phase Error" },
	{ 0, NULL }
};

F(f_cbw_sig, "Signature", "usbms.dCBWSignature", DK_HEX, 4, NULL, 0);
F(f_cbw_tag, "Tag", "usbms.dCBWTag", DK_HEX, 4, NULL, 0);
F(f_cbw_len, "DataTransferLength", "usbms.dCBWDataTransferLength", DK_UINT,
    4, NULL, 0);
F(f_cbw_flags, "Flags", "usbms.dCBWFlags", DK_HEX, 1, NULL, 0);
F(f_cbw_target, "Target", "usbms.dCBWTarget", DK_HEX, 1, NULL, 0x70);
F(f_cbw_lun, "LUN", "usbms.dCBWLUN", DK_HEX, 1, NULL, 0x0f);
F(f_cbw_cblen, "CDB Length", "usbms.dCBWCBLength", DK_HEX, 1, NULL, 0x1f);
F(f_csw_sig, "Signature", "usbms.dCSWSignature", DK_HEX, 4, NULL, 0);
F(f_maxlun, "Max LUN", "usbms.setup.maxlun", DK_UINT, 1, NULL, 0);
F(f_csw_residue, "DataResidue", "usbms.dCSWDataResidue", DK_UINT, 4, NULL,
    0);
F(f_csw_status, "Status", "usbms.dCSWStatus", DK_HEX, 1, csw_status_ws, 0);

static const struct dec_name uas_ius[] = {	/* UAS r04 table 9 */
	{ 0x01, "Command IU" },
	{ 0x03, "Sense IU" },
	{ 0x04, "Response IU" },
	{ 0x05, "Task Management IU" },
	{ 0x06, "Read Ready IU" },
	{ 0x07, "Write Ready IU" },
	{ 0, NULL }
};

static const struct dec_name uas_resp[] = {	/* UAS r04 table 17 */
	{ 0x00, "Task Management Function Complete" },
	{ 0x02, "Invalid Information Unit" },
	{ 0x04, "Task Management Function Not Supported" },
	{ 0x05, "Task Management Function Failed" },
	{ 0x08, "Task Management Function Succeeded" },
	{ 0x09, "Incorrect Logical Unit Number" },
	{ 0x0a, "Overlapped Tag Attempted" },
	{ 0, NULL }
};

static const struct dec_name uas_tmf[] = {	/* UAS r04 table 14 */
	{ 0x01, "Abort Task" },
	{ 0x02, "Abort Task Set" },
	{ 0x04, "Clear Task Set" },
	{ 0x08, "Logical Unit Reset" },
	{ 0x10, "I_T Nexus Reset" },
	{ 0x40, "Clear ACA" },
	{ 0x80, "Query Task" },
	{ 0x81, "Query Task Set" },
	{ 0x82, "Query Asynchronous Event" },
	{ 0, NULL }
};

F(f_iu_id, "IU ID", "uasp.iu_id", DK_HEX, 1, uas_ius, 0);
F(f_iu_tag, "Tag", "uasp.tag", DK_HEX, 2, NULL, 0);
F(f_iu_prio, "Command Priority", "uasp.command.priority", DK_UINT, 1, NULL,
    0x78);
F(f_iu_attr, "Task Attribute", "uasp.command.task_attr", DK_HEX, 1, NULL,
    0x07);
F(f_iu_addcdb, "Additional CDB Length", "uasp.command.add_cdb_length",
    DK_UINT, 1, NULL, 0xfc);
F(f_iu_lun_mode, "Address Mode", "scsi.lun.address_mode", DK_HEX, 1, NULL,
    0xc0);
F(f_iu_lun, "LUN", "scsi.lun", DK_HEX, 2, NULL, 0x3fff);
F(f_iu_squal, "Status Qualifier", "uasp.sense.status_qualifier", DK_UINT, 2,
    NULL, 0);
F(f_iu_status, "Status", "uasp.sense.status", DK_UINT, 1, NULL, 0);
F(f_iu_slen, "Length", "uasp.sense.length", DK_UINT, 2, NULL, 0);
F(f_iu_addinfo, "Additional Response Info", "uasp.response.add_info",
    DK_HEX, 3, NULL, 0);
F(f_iu_rcode, "Response Code", "uasp.response.code", DK_HEX, 1, uas_resp,
    0);
F(f_iu_tmf, "Task Management Function", "uasp.task_mgmt.function", DK_HEX,
    1, uas_tmf, 0);
F(f_iu_mtag, "Tag of Managed Task", "uasp.task_mgmt.managed_tag", DK_HEX, 2,
    NULL, 0);
F(f_iu_started, "Tag started in", "uasp.tag_started_frame", DK_UINT, 4,
    NULL, 0);
F(f_bad, "Malformed", NULL, DK_LABEL, 0, NULL, 0);

/* The command learnt for an interface, as dec-scsi.c takes it. */
static int
cmd_of(const struct dec_cls_state *st, struct dec_scsi_cmd *cmd)
{
	size_t	 n;

	if (st == NULL || st->has_cbw == 0)
		return 0;
	n = st->cbw[14] & 0x1f;
	cmd->cdb = st->cbw + 15;
	cmd->cdb_len = n > 16 ? 16 : n;
	cmd->lun = st->cbw[13] & 0x0f;
	cmd->devtype = 0;		/* Wireshark's default command set */
	cmd->req_frame = st->cbw_frame;
	return cmd->cdb_len > 0;
}

/* A field of w bytes, little-endian, at at of p[0..n); NULL if cut. */
static struct dec_node *
le(struct dec_tree *t, const struct dec_field *f, const uint8_t *p,
    size_t n, size_t at, size_t w)
{
	uint32_t v;

	if (at + w > n)
		return NULL;
	v = w == 4 ? get_le32(p + at) : w == 2 ? get_le16(p + at) : p[at];
	return dec_tree_add(t, f, DB_DATA, (uint32_t)at, (uint32_t)w, v);
}

static void
bad(struct dec_tree *t, uint32_t off, uint32_t len, int flags,
    const char *note)
{
	struct dec_node *nd;

	if ((nd = dec_tree_add(t, &f_bad, DB_DATA, off, len, 0)) != NULL) {
		nd->flags |= (uint8_t)flags;
		nd->note = note;
	}
}

/* ------------------------------------------------------------------------
 * Bulk-only transport.
 */
static int
is_cbw(const struct urb_rec *r)
{
	return !urb_is_in(r) && r->data_len >= 4 &&
	    get_le32(r->data) == CBW_SIG;
}

static int
is_csw(const struct urb_rec *r)
{
	return urb_is_in(r) && r->data_len >= 4 &&
	    get_le32(r->data) == CSW_SIG;
}

/* Is r the data phase of the command open in st? */
static int
is_bot_data(const struct urb_rec *r, const struct dec_cls_state *st)
{
	if (st == NULL || st->has_cbw != 1 || r->data_len == 0 ||
	    is_cbw(r) || is_csw(r))
		return 0;
	/* bmCBWFlags bit 7: the direction of the data (BOT 5.1) */
	return ((st->cbw[12] & 0x80) != 0) == urb_is_in(r);
}

/* Does the CSW in p (13 bytes) end the command of st? */
static int
csw_tied(const uint8_t *p, const struct dec_cls_state *st)
{
	return st != NULL && st->has_cbw != 0 &&
	    get_le32(p + 4) == get_le32(st->cbw + 4);
}

static void
msc_learn(const struct urb_rec *r, const struct dec_info *info,
    struct dec_cls_state *st)
{
	(void)info;
	if (r->xfer_type != XFER_BULK)
		return;
	/* the OUT data is in the submit (usbmon), or in the record that
	 * carries it whatever its type; a short one opens nothing */
	if (is_cbw(r) && r->data_len >= CBW_LEN) {
		memcpy(st->cbw, r->data, CBW_LEN);
		st->has_cbw = 1;
		st->cbw_frame = urb_frame(r);
		st->cbw_ts = r->ts_ns;
	} else if (is_csw(r) && r->data_len >= CSW_LEN &&
	    csw_tied(r->data, st))
		st->has_cbw = 2;
}

static void
cbw_tree(const struct dec_cls_arg *a, struct dec_tree *t)
{
	const uint8_t	*p = a->r->data;
	size_t		 n = a->r->data_len;
	struct dec_scsi_cmd cmd;
	struct dec_node	*nd;
	uint8_t		 depth = t->depth, cblen;

	dec_tree_push(t, "USB Mass Storage", DB_DATA, 0, (uint32_t)n);
	le(t, &f_cbw_sig, p, n, 0, 4);
	le(t, &f_cbw_tag, p, n, 4, 4);
	le(t, &f_cbw_len, p, n, 8, 4);
	le(t, &f_cbw_flags, p, n, 12, 1);
	nd = le(t, &f_cbw_target, p, n, 13, 1);
	if (nd != NULL) {
		/* Target and LUN share the byte, both shown on it */
		nd->value = (p[13] >> 4) & 7;
		dec_tree_add(t, &f_cbw_lun, DB_DATA, 13, 1, p[13] & 0x0f);
	}
	nd = le(t, &f_cbw_cblen, p, n, 14, 1);
	if (nd != NULL)
		nd->value &= 0x1f;
	if (n < CBW_LEN)
		bad(t, (uint32_t)n, 0, DN_CUT | DN_BAD, "CBW cut short");
	else if (n > CBW_LEN)
		bad(t, CBW_LEN, (uint32_t)(n - CBW_LEN), DN_BAD,
		    "bytes after the 31 of a CBW");
	if (n <= 15) {
		t->depth = depth;
		return;
	}
	cblen = p[14] & 0x1f;
	if (cblen == 0 || cblen > 16)
		bad(t, 14, 1, DN_BAD, "bCBWCBLength out of 1..16");
	t->depth = depth;
	if (cblen > 16)
		cblen = 16;
	if (cblen > n - 15)
		cblen = (uint8_t)(n - 15);
	cmd.cdb = p + 15;
	cmd.cdb_len = cblen;
	cmd.lun = p[13] & 0x0f;
	cmd.devtype = 0;
	cmd.req_frame = 0;
	dec_scsi_cdb_tree(p + 15, cblen, 15, &cmd, t);
}

static int
msc_tree(const struct dec_cls_arg *a, struct dec_tree *t)
{
	const struct urb_rec *r = a->r;
	const uint8_t	*p = r->data;
	size_t		 n = r->data_len;
	struct dec_scsi_cmd cmd;
	uint8_t		 depth = t->depth;

	/*
	 * Get Max LUN's answer (BOT 3.2, class request 0xfe to the
	 * interface): Wireshark's usbms shows its byte, as nothing else.
	 */
	if (r->xfer_type == XFER_CTRL && r->type == 'C' && n >= 1 &&
	    (a->info->flags & DI_SETUP) &&
	    a->info->setup.bmRequestType == 0xa1 &&
	    a->info->setup.bRequest == 0xfe) {
		dec_tree_push(t, "USB Mass Storage", DB_DATA, 0, 1);
		dec_tree_add(t, &f_maxlun, DB_DATA, 0, 1, p[0]);
		t->depth = depth;
		return 1;
	}
	if (r->xfer_type != XFER_BULK || n == 0)
		return 0;
	if (is_cbw(r)) {
		cbw_tree(a, t);
		return 1;
	}
	if (is_csw(r)) {
		dec_tree_push(t, "USB Mass Storage", DB_DATA, 0, (uint32_t)n);
		le(t, &f_csw_sig, p, n, 0, 4);
		le(t, &f_cbw_tag, p, n, 4, 4);
		le(t, &f_csw_residue, p, n, 8, 4);
		le(t, &f_csw_status, p, n, 12, 1);
		if (n != CSW_LEN)
			bad(t, (uint32_t)(n < CSW_LEN ? n : CSW_LEN),
			    (uint32_t)(n < CSW_LEN ? 0 : n - CSW_LEN),
			    n < CSW_LEN ? DN_CUT | DN_BAD : DN_BAD,
			    n < CSW_LEN ? "CSW cut short" :
			    "bytes after the 13 of a CSW");
		t->depth = depth;
		if (n >= CSW_LEN && csw_tied(p, a->st) && cmd_of(a->st, &cmd))
			/* Wireshark: a failed command is CHECK CONDITION */
			dec_scsi_status_tree(&cmd, p[12] == 0 ? 0x00 : 0x02,
			    dec_ts_sub(r->ts_ns, a->st->cbw_ts), t);
		return 1;
	}
	if (is_bot_data(r, a->st) && cmd_of(a->st, &cmd)) {
		dec_tree_push(t, "USB Mass Storage", DB_DATA, 0, 0);
		t->depth = depth;
		dec_scsi_data_tree(p, n, 0, &cmd, urb_is_in(r), t);
		return 1;
	}
	return 0;
}

static int
msc_summary(const struct dec_cls_arg *a, struct sbuf *b)
{
	const struct urb_rec *r = a->r;
	const uint8_t	*p = r->data;
	struct dec_scsi_cmd cmd;
	size_t		 cblen;

	if (r->xfer_type != XFER_BULK)
		return 0;
	if (r->data_len >= CBW_LEN && is_cbw(r)) {
		sb_puts(b, "CBW tag ");
		sb_u64(b, get_le32(p + 4));
		sb_putc(b, ' ');
		cblen = p[14] & 0x1f;
		dec_scsi_cdb_summary(p + 15, cblen > 16 ? 16 : cblen, b);
		if (get_le32(p + 8) == 0)
			sb_puts(b, ", no data");
		else {
			sb_puts(b, (p[12] & 0x80) ? ", IN " : ", OUT ");
			sb_u64(b, get_le32(p + 8));
			sb_puts(b, " bytes");
		}
		if (p[13] != 0) {
			sb_puts(b, ", LUN ");
			sb_u64(b, p[13] & 0x0f);
		}
		return 1;
	}
	if (r->data_len == CSW_LEN && is_csw(r)) {
		sb_puts(b, "CSW tag ");
		sb_u64(b, get_le32(p + 4));
		if (csw_tied(p, a->st) && cmd_of(a->st, &cmd)) {
			sb_putc(b, ' ');
			dec_scsi_put_op(b, cmd.cdb[0]);
			sb_putc(b, ' ');
		} else
			sb_puts(b, " status ");
		sb_putname(b, csw_status, p[12]);
		if (get_le32(p + 8) != 0) {
			sb_puts(b, ", residue ");
			sb_u64(b, get_le32(p + 8));
		}
		return 1;
	}
	if (is_bot_data(r, a->st) && cmd_of(a->st, &cmd)) {
		dec_scsi_data_summary(p, r->data_len, &cmd, urb_is_in(r), b);
		return 1;
	}
	return 0;
}

/* Mass storage, bulk-only transport: protocol 0x50 (MSC overview 3). */
/* What Wireshark's heuristic takes without the descriptors
 * (packet-usb-ms.c dissect_usb_ms_bulk_heur): a CBW or a CSW by its
 * length and signature; the data between them stays usb.capdata. */
static int
msc_heuristic(const struct urb_rec *r)
{
	return (r->data_len == CBW_LEN && is_cbw(r)) ||
	    (r->data_len == CSW_LEN && is_csw(r));
}

const struct dec_class_ops dec_class_msc = {
	.name = "mass storage",
	.wsproto = "usbms",
	.cls = 0x08, .subcls = DEC_CLS_ANY, .proto = 0x50,
	.summary = msc_summary,
	.tree = msc_tree,
	.learn = msc_learn,
	.heuristic = msc_heuristic,
};

/* ------------------------------------------------------------------------
 * USB Attached SCSI.  The pipes are told apart by what they carry: a
 * command IU goes OUT, the status IUs come IN with the tag of the open
 * command; anything else in the direction of its data is data (the pipe
 * usage descriptors would say it too, but records come without them).
 * The command is kept as a CBW would hold it: tag at 4, LUN at 13, CDB
 * length at 14, CDB from 15.
 */
enum { UAS_NONE, UAS_IU, UAS_DATA };

static int
uas_kind(const struct urb_rec *r, const struct dec_cls_state *st)
{
	const uint8_t	*p = r->data;
	size_t		 n = r->data_len;

	if (r->xfer_type != XFER_BULK || n == 0)
		return UAS_NONE;
	if (!urb_is_in(r)) {
		if (n >= 16 && p[1] == 0 && (p[0] == 0x01 || p[0] == 0x05) &&
		    (p[0] != 0x05 || n == 16))
			return UAS_IU;
	} else if (n >= 4 && p[1] == 0 &&
	    ((p[0] == 0x03 && n >= 16) || (p[0] == 0x04 && n == 8) ||
	    ((p[0] == 0x06 || p[0] == 0x07) && n == 4)) &&
	    (st == NULL || st->has_cbw == 0 ||
	    get_be16(p + 2) == get_le32(st->cbw + 4)))
		return UAS_IU;
	if (st != NULL && st->has_cbw == 1)
		return UAS_DATA;
	return UAS_NONE;
}

static void
uas_learn(const struct urb_rec *r, const struct dec_info *info,
    struct dec_cls_state *st)
{
	const uint8_t	*p = r->data;
	size_t		 n = r->data_len, cdb;

	(void)info;
	if (uas_kind(r, st) != UAS_IU)
		return;
	if (p[0] == 0x01 && n > 16) {
		cdb = n - 16 > 16 ? 16 : n - 16;
		memset(st->cbw, 0, sizeof st->cbw);
		st->cbw[4] = p[3];	/* tag, as a CBW's (LE) */
		st->cbw[5] = p[2];
		st->cbw[13] = p[9] & 0x0f;
		st->cbw[14] = (uint8_t)cdb;
		memcpy(st->cbw + 15, p + 16, cdb);
		st->has_cbw = 1;
		st->cbw_frame = urb_frame(r);
		st->cbw_ts = r->ts_ns;
	} else if ((p[0] == 0x03 || p[0] == 0x04) && st->has_cbw != 0 &&
	    get_be16(p + 2) == get_le32(st->cbw + 4))
		st->has_cbw = 2;
}

static void
uas_lun(const uint8_t *p, size_t n, size_t at, struct dec_tree *t)
{
	if (at + 2 > n)
		return;
	dec_tree_push(t, "LUN", DB_DATA, (uint32_t)at, 8);
	dec_tree_add(t, &f_iu_lun_mode, DB_DATA, (uint32_t)at, 1, p[at] >> 6);
	dec_tree_add(t, &f_iu_lun, DB_DATA, (uint32_t)at, 2,
	    get_be16(p + at) & 0x3fff);
	dec_tree_pop(t);
}

static struct dec_node *
be(struct dec_tree *t, const struct dec_field *f, const uint8_t *p,
    size_t n, size_t at, size_t w)
{
	uint32_t v;

	if (at + w > n)
		return NULL;
	v = w == 3 ? (uint32_t)p[at] << 16 | get_be16(p + at + 1) :
	    w == 2 ? get_be16(p + at) : p[at];
	return dec_tree_add(t, f, DB_DATA, (uint32_t)at, (uint32_t)w, v);
}

static int
uas_tree(const struct dec_cls_arg *a, struct dec_tree *t)
{
	const struct urb_rec *r = a->r;
	const uint8_t	*p = r->data;
	size_t		 n = r->data_len, slen;
	struct dec_scsi_cmd cmd, nocmd;
	struct dec_node	*nd;
	int		 tied, kind = uas_kind(r, a->st);
	uint8_t		 depth = t->depth;

	if (kind == UAS_NONE)
		return 0;
	tied = cmd_of(a->st, &cmd);
	memset(&nocmd, 0, sizeof nocmd);
	dec_tree_push(t, "USB Attached SCSI", DB_DATA, 0, (uint32_t)n);
	if (kind == UAS_DATA) {
		if (tied) {
			dec_tree_add(t, &f_iu_tag, DB_NONE, 0, 0,
			    get_le32(a->st->cbw + 4));
			dec_tree_add(t, &f_iu_started, DB_NONE, 0, 0,
			    a->st->cbw_frame);
		}
		t->depth = depth;
		if (tied)
			dec_scsi_data_tree(p, n, 0, &cmd, urb_is_in(r), t);
		return 1;
	}
	be(t, &f_iu_id, p, n, 0, 1);
	be(t, &f_iu_tag, p, n, 2, 2);
	switch (p[0]) {
	case 0x01:
		nd = be(t, &f_iu_prio, p, n, 4, 1);
		if (nd != NULL) {
			nd->value = (p[4] >> 3) & 0x0f;
			dec_tree_add(t, &f_iu_attr, DB_DATA, 4, 1, p[4] & 7);
		}
		nd = be(t, &f_iu_addcdb, p, n, 6, 1);
		if (nd != NULL)
			nd->value >>= 2;
		uas_lun(p, n, 8, t);
		t->depth = depth;
		if (n > 16) {
			cmd.cdb = p + 16;
			cmd.cdb_len = n - 16 > 16 ? 16 : n - 16;
			cmd.lun = get_be16(p + 8) & 0x3fff;
			cmd.devtype = 0;
			cmd.req_frame = 0;
			dec_scsi_cdb_tree(cmd.cdb, cmd.cdb_len, 16, &cmd, t);
		} else
			bad(t, (uint32_t)n, 0, DN_CUT | DN_BAD,
			    "command IU without a CDB");
		return 1;
	case 0x03:
		be(t, &f_iu_squal, p, n, 4, 2);
		be(t, &f_iu_status, p, n, 6, 1);
		nd = be(t, &f_iu_slen, p, n, 14, 2);
		if (tied)
			dec_tree_add(t, &f_iu_started, DB_NONE, 0, 0,
			    a->st->cbw_frame);
		t->depth = depth;
		if (tied)
			dec_scsi_status_tree(&cmd, p[6],
			    dec_ts_sub(r->ts_ns, a->st->cbw_ts), t);
		slen = nd != NULL ? nd->value : 0;
		if (slen > n - 16) {
			bad(t, (uint32_t)n, 0, DN_CUT | DN_BAD,
			    "sense data cut short");
			slen = n - 16;
		}
		if (slen > 0)
			dec_scsi_sense_tree(p + 16, slen, 16, tied ? &cmd :
			    &nocmd, t);
		return 1;
	case 0x04:
		be(t, &f_iu_addinfo, p, n, 4, 3);
		be(t, &f_iu_rcode, p, n, 7, 1);
		break;
	case 0x05:
		be(t, &f_iu_tmf, p, n, 4, 1);
		be(t, &f_iu_mtag, p, n, 6, 2);
		uas_lun(p, n, 8, t);
		break;
	default:			/* read ready, write ready */
		if (tied)
			dec_tree_add(t, &f_iu_started, DB_NONE, 0, 0,
			    a->st->cbw_frame);
		break;
	}
	t->depth = depth;
	return 1;
}

static int
uas_summary(const struct dec_cls_arg *a, struct sbuf *b)
{
	const struct urb_rec *r = a->r;
	const uint8_t	*p = r->data;
	size_t		 n = r->data_len;
	struct dec_scsi_cmd cmd;
	char		 tmp[24];
	int		 tied, kind = uas_kind(r, a->st);

	if (kind == UAS_NONE)
		return 0;
	tied = cmd_of(a->st, &cmd);
	if (kind == UAS_DATA) {
		if (!tied)
			return 0;
		dec_scsi_data_summary(p, n, &cmd, urb_is_in(r), b);
		return 1;
	}
	sb_puts(b, dec_name_or(uas_ius, p[0], tmp));
	sb_puts(b, " tag ");
	sb_u64(b, get_be16(p + 2));
	switch (p[0]) {
	case 0x01:
		sb_putc(b, ' ');
		dec_scsi_cdb_summary(p + 16, n - 16 > 16 ? 16 : n - 16, b);
		break;
	case 0x03:
		if (tied) {
			sb_putc(b, ' ');
			sb_puts(b, dec_scsi_op_name(cmd.cdb[0], tmp));
		}
		sb_puts(b, p[6] == 0 ? " passed" : p[6] == 2 ?
		    " check condition" : " status 0x");
		if (p[6] != 0 && p[6] != 2)
			sb_hex(b, p[6], 2);
		if (get_be16(p + 14) > 0 && n > 16) {
			sb_puts(b, ": ");
			dec_scsi_sense_summary(p + 16, n - 16, b);
		}
		break;
	case 0x04:
		if (n >= 8) {
			sb_putc(b, ' ');
			sb_puts(b, dec_name_or(uas_resp, p[7], tmp));
		}
		break;
	case 0x05:
		sb_putc(b, ' ');
		sb_puts(b, dec_name_or(uas_tmf, p[4], tmp));
		sb_puts(b, " of tag ");
		sb_u64(b, get_be16(p + 6));
		break;
	default:
		if (tied) {
			sb_puts(b, " for ");
			sb_puts(b, dec_scsi_op_name(cmd.cdb[0], tmp));
		}
		break;
	}
	return 1;
}

/* USB Attached SCSI: protocol 0x62 (MSC overview 3, UAS r04). */
const struct dec_class_ops dec_class_uas = {
	.name = "UAS",
	.wsproto = "uasp",
	.cls = 0x08, .subcls = DEC_CLS_ANY, .proto = 0x62,
	.summary = uas_summary,
	.tree = uas_tree,
	.learn = uas_learn,
};
