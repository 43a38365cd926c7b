/*
 * decode/dec-msc.c - mass storage: the bulk-only transport's CBW and CSW
 * with the SCSI command they carry.
 *
 * Facts: USB Mass Storage Class Bulk-Only Transport 1.0 (CBW 31 bytes
 * "USBC", CSW 13 bytes "USBS"), SCSI SPC-4/SBC-3 opcodes.
 */
#include "class.h"

#define CBW_SIG		0x43425355	/* "USBC", BOT 5.1 */
#define CSW_SIG		0x53425355	/* "USBS", BOT 5.2 */

static const struct dec_name scsi_ops[] = {	/* SPC-4/SBC-3 opcodes */
	{ 0x00, "TEST UNIT READY" },
	{ 0x03, "REQUEST SENSE" },
	{ 0x12, "INQUIRY" },
	{ 0x1a, "MODE SENSE(6)" },
	{ 0x1b, "START STOP UNIT" },
	{ 0x1e, "PREVENT ALLOW MEDIUM REMOVAL" },
	{ 0x23, "READ FORMAT CAPACITIES" },
	{ 0x25, "READ CAPACITY(10)" },
	{ 0x28, "READ(10)" },
	{ 0x2a, "WRITE(10)" },
	{ 0x2f, "VERIFY(10)" },
	{ 0x35, "SYNCHRONIZE CACHE(10)" },
	{ 0x5a, "MODE SENSE(10)" },
	{ 0x88, "READ(16)" },
	{ 0x8a, "WRITE(16)" },
	{ 0x9e, "SERVICE ACTION IN(16)" },
	{ 0xa0, "REPORT LUNS" },
	{ 0, NULL }
};

static const struct dec_name csw_status[] = {	/* BOT 5.2 table 5.3 */
	{ 0, "passed" },
	{ 1, "failed" },
	{ 2, "phase error" },
	{ 0, NULL }
};

static int
msc_summary(const struct dec_cls_arg *a, struct sbuf *b)
{
	const struct urb_rec *r = a->r;
	const uint8_t	*p = r->data;
	char		 tmp[24];
	uint8_t		 op;

	if (r->xfer_type == XFER_CTRL)
		return 0;
	if (r->data_len >= 31 && get_le32(p) == CBW_SIG) {
		op = p[15];
		sb_puts(b, "CBW tag ");
		sb_u64(b, get_le32(p + 4));
		sb_putc(b, ' ');
		sb_puts(b, dec_name_or(scsi_ops, op, tmp));
		if ((op == 0x28 || op == 0x2a || op == 0x2f) &&
		    p[14] >= 10) {
			sb_puts(b, " lba ");
			sb_u64(b, get_be32(p + 17));
			sb_puts(b, " blocks ");
			sb_u64(b, get_be16(p + 22));
		}
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
	if (r->data_len == 13 && get_le32(p) == CSW_SIG) {
		sb_puts(b, "CSW tag ");
		sb_u64(b, get_le32(p + 4));
		sb_puts(b, " status ");
		sb_puts(b, dec_name_or(csw_status, p[12], tmp));
		if (get_le32(p + 8) != 0) {
			sb_puts(b, ", residue ");
			sb_u64(b, get_le32(p + 8));
		}
		return 1;
	}
	return 0;
}

/* Mass storage, bulk-only transport: protocol 0x50 (MSC overview 3). */
const struct dec_class_ops dec_class_msc = {
	.name = "mass storage",
	.cls = 0x08, .subcls = DEC_CLS_ANY, .proto = 0x50,
	.summary = msc_summary,
};
