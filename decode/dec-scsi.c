/*
 * decode/dec-scsi.c - SCSI inside USB mass storage: the CDB of a command
 * and the data it moves, as trees under Wireshark's scsi.* / scsi_sbc.*
 * names (epan/dissectors/packet-scsi.c, packet-scsi-sbc.c), and their
 * one-line summaries.  Shared by the bulk-only transport and UAS
 * (dec-msc.c).
 *
 * Facts: SPC-4 (6.6 INQUIRY, 6.29 REQUEST SENSE, 4.5 sense data, table 27
 * sense keys, annex D ASC/ASCQ; 6.11 MODE SENSE and 7.5.5 its header),
 * SBC-3 (5.10 READ(10), 5.16 READ CAPACITY(10), 5.16 READ CAPACITY(16),
 * 5.22 SYNCHRONIZE CACHE(10)), MMC-5 5.22 READ FORMAT CAPACITIES.
 *
 * Every read is bounded by n: a field the capture cut short is left out
 * and the tree says where it stopped.
 */
#include <stdio.h>
#include <string.h>

#include "class.h"

#define F DEC_FIELD

static const struct dec_name scsi_ops[] = {	/* SPC-4/SBC-3 opcodes */
	{ 0x00, "TEST UNIT READY" },
	{ 0x03, "REQUEST SENSE" },
	{ 0x04, "FORMAT UNIT" },
	{ 0x08, "READ(6)" },
	{ 0x0a, "WRITE(6)" },
	{ 0x12, "INQUIRY" },
	{ 0x15, "MODE SELECT(6)" },
	{ 0x1a, "MODE SENSE(6)" },
	{ 0x1b, "START STOP UNIT" },
	{ 0x1d, "SEND DIAGNOSTIC" },
	{ 0x1e, "PREVENT ALLOW MEDIUM REMOVAL" },
	{ 0x23, "READ FORMAT CAPACITIES" },
	{ 0x25, "READ CAPACITY(10)" },
	{ 0x28, "READ(10)" },
	{ 0x2a, "WRITE(10)" },
	{ 0x2f, "VERIFY(10)" },
	{ 0x35, "SYNCHRONIZE CACHE(10)" },
	{ 0x42, "UNMAP" },
	{ 0x46, "GET CONFIGURATION" },
	{ 0x4a, "GET EVENT STATUS NOTIFICATION" },
	{ 0x51, "READ DISC INFORMATION" },
	{ 0x55, "MODE SELECT(10)" },
	{ 0x5a, "MODE SENSE(10)" },
	{ 0x88, "READ(16)" },
	{ 0x8a, "WRITE(16)" },
	{ 0x91, "SYNCHRONIZE CACHE(16)" },
	{ 0x93, "WRITE SAME(16)" },
	{ 0x9e, "SERVICE ACTION IN(16)" },
	{ 0xa0, "REPORT LUNS" },
	{ 0xa3, "MAINTENANCE IN" },
	{ 0xa8, "READ(12)" },
	{ 0xaa, "WRITE(12)" },
	{ 0, NULL }
};

static const struct dec_name sense_keys[] = {	/* SPC-4 table 27 */
	{ 0x0, "NO SENSE" },
	{ 0x1, "RECOVERED ERROR" },
	{ 0x2, "NOT READY" },
	{ 0x3, "MEDIUM ERROR" },
	{ 0x4, "HARDWARE ERROR" },
	{ 0x5, "ILLEGAL REQUEST" },
	{ 0x6, "UNIT ATTENTION" },
	{ 0x7, "DATA PROTECT" },
	{ 0x8, "BLANK CHECK" },
	{ 0x9, "VENDOR SPECIFIC" },
	{ 0xa, "COPY ABORTED" },
	{ 0xb, "ABORTED COMMAND" },
	{ 0xd, "VOLUME OVERFLOW" },
	{ 0xe, "MISCOMPARE" },
	{ 0, NULL }
};

/* ASC << 8 | ASCQ, the common ones of SPC-4 annex D. */
static const struct dec_name sense_ascq[] = {
	{ 0x0000, "NO ADDITIONAL SENSE INFORMATION" },
	{ 0x0400, "LOGICAL UNIT NOT READY, CAUSE NOT REPORTABLE" },
	{ 0x0401, "LOGICAL UNIT IS IN PROCESS OF BECOMING READY" },
	{ 0x0402, "LOGICAL UNIT NOT READY, INITIALIZING COMMAND REQUIRED" },
	{ 0x0403, "LOGICAL UNIT NOT READY, MANUAL INTERVENTION REQUIRED" },
	{ 0x0404, "LOGICAL UNIT NOT READY, FORMAT IN PROGRESS" },
	{ 0x0c00, "WRITE ERROR" },
	{ 0x0c02, "WRITE ERROR - AUTO REALLOCATION FAILED" },
	{ 0x1000, "ID CRC OR ECC ERROR" },
	{ 0x1100, "UNRECOVERED READ ERROR" },
	{ 0x1400, "RECORDED ENTITY NOT FOUND" },
	{ 0x1401, "RECORD NOT FOUND" },
	{ 0x1500, "RANDOM POSITIONING ERROR" },
	{ 0x1a00, "PARAMETER LIST LENGTH ERROR" },
	{ 0x2000, "INVALID COMMAND OPERATION CODE" },
	{ 0x2100, "LOGICAL BLOCK ADDRESS OUT OF RANGE" },
	{ 0x2400, "INVALID FIELD IN CDB" },
	{ 0x2500, "LOGICAL UNIT NOT SUPPORTED" },
	{ 0x2600, "INVALID FIELD IN PARAMETER LIST" },
	{ 0x2700, "WRITE PROTECTED" },
	{ 0x2800, "NOT READY TO READY CHANGE, MEDIUM MAY HAVE CHANGED" },
	{ 0x2900, "POWER ON, RESET, OR BUS DEVICE RESET OCCURRED" },
	{ 0x2901, "POWER ON OCCURRED" },
	{ 0x2902, "SCSI BUS RESET OCCURRED" },
	{ 0x2903, "BUS DEVICE RESET FUNCTION OCCURRED" },
	{ 0x2a01, "MODE PARAMETERS CHANGED" },
	{ 0x2a09, "CAPACITY DATA HAS CHANGED" },
	{ 0x2c00, "COMMAND SEQUENCE ERROR" },
	{ 0x3000, "INCOMPATIBLE MEDIUM INSTALLED" },
	{ 0x3001, "CANNOT READ MEDIUM - UNKNOWN FORMAT" },
	{ 0x3100, "MEDIUM FORMAT CORRUPTED" },
	{ 0x3a00, "MEDIUM NOT PRESENT" },
	{ 0x3a01, "MEDIUM NOT PRESENT - TRAY CLOSED" },
	{ 0x3a02, "MEDIUM NOT PRESENT - TRAY OPEN" },
	{ 0x3e00, "LOGICAL UNIT HAS NOT SELF-CONFIGURED YET" },
	{ 0x3f01, "MICROCODE HAS BEEN CHANGED" },
	{ 0x4400, "INTERNAL TARGET FAILURE" },
	{ 0x4700, "SCSI PARITY ERROR" },
	{ 0x4b00, "DATA PHASE ERROR" },
	{ 0x4e00, "OVERLAPPED COMMANDS ATTEMPTED" },
	{ 0x5300, "MEDIA LOAD OR EJECT FAILED" },
	{ 0x5302, "MEDIUM REMOVAL PREVENTED" },
	{ 0x5d00, "FAILURE PREDICTION THRESHOLD EXCEEDED" },
	{ 0x6400, "ILLEGAL MODE FOR THIS TRACK" },
	{ 0, NULL }
};

static const struct dec_name devtypes[] = {	/* SPC-4 table 138 */
	{ 0x00, "Direct Access Device" },
	{ 0x01, "Sequential Access Device" },
	{ 0x05, "CD-ROM/DVD Device" },
	{ 0x07, "Optical Memory Device" },
	{ 0x08, "Medium Changer Device" },
	{ 0x0c, "Storage Array Controller Device" },
	{ 0x0d, "Enclosure Services Device" },
	{ 0x0e, "Simplified Direct Access Device" },
	{ 0x1f, "Unknown or no device type" },
	{ 0, NULL }
};

static const struct dec_name scsi_status[] = {	/* SAM-5 table 33 */
	{ 0x00, "Good" },
	{ 0x02, "Check Condition" },
	{ 0x04, "Condition Met" },
	{ 0x08, "Busy" },
	{ 0x18, "Reservation Conflict" },
	{ 0x28, "Task Set Full" },
	{ 0x30, "ACA Active" },
	{ 0x40, "Task Aborted" },
	{ 0, NULL }
};

/* Common to every SCSI layer (generated: no bytes of their own). */
F(f_lun, "LUN", "scsi.lun", DK_HEX, 2, NULL, 0);
F(f_cmdset, "Command Set", "scsi.inquiry.devtype", DK_HEX, 1, devtypes, 0);
F(f_opcode, "Opcode", "scsi_sbc.opcode", DK_HEX, 1, scsi_ops, 0);
F(f_reqframe, "Request in", "scsi.request_frame", DK_UINT, 4, NULL, 0);
F(f_time, "Time from request", "scsi.time", DK_TIME, 8, NULL, 0);
F(f_status, "Status", "scsi.status", DK_HEX, 1, scsi_status, 0);

/* The CDB (SPC-4 4.2.5 control byte). */
F(f_ctl, "Control", "scsi.cdb.control", DK_HEX, 1, NULL, 0);
F(f_ctl_vs, "Vendor specific", "scsi.cdb.control.vendorspecific", DK_HEX, 1,
    NULL, 0xc0);
F(f_ctl_rsv, "Reserved", "scsi.cdb.control.reserved", DK_HEX, 1, NULL, 0x38);
F(f_ctl_naca, "NACA", "scsi.cdb.control.naca", DK_BOOL, 1, NULL, 0x04);
F(f_ctl_obs1, "Obsolete", "scsi.cdb.control.obs1", DK_HEX, 1, NULL, 0x02);
F(f_ctl_obs2, "Obsolete", "scsi.cdb.control.obs2", DK_HEX, 1, NULL, 0x01);
F(f_ictl, "Control", "scsi.cdb.inq.control", DK_HEX, 1, NULL, 0);
F(f_ictl_vs, "Vendor specific", "scsi.inquiry.control.vendorspecific",
    DK_HEX, 1, NULL, 0xc0);
F(f_ictl_rsv, "Reserved", "scsi.inquiry.control.reserved", DK_HEX, 1, NULL,
    0x38);
F(f_ictl_naca, "NACA", "scsi.inquiry.control.naca", DK_BOOL, 1, NULL, 0x04);
F(f_ictl_obs1, "Obsolete", "scsi.inquiry.control.obs1", DK_HEX, 1, NULL,
    0x02);
F(f_ictl_obs2, "Obsolete", "scsi.inquiry.control.obs2", DK_HEX, 1, NULL,
    0x01);
F(f_alloc8, "Allocation Length", "scsi.cdb.alloclen", DK_UINT, 1, NULL, 0);
F(f_alloc16, "Allocation Length", "scsi.cdb.alloclen16", DK_UINT, 2, NULL,
    0);
F(f_alloc32, "Allocation Length", "scsi.cdb.alloclen32", DK_UINT, 4, NULL,
    0);
F(f_inq_flags, "Flags (CMDT, EVPD)", "scsi.inquiry.flags", DK_HEX, 1, NULL,
    0);
F(f_inq_page, "Page Code", "scsi.inquiry.evpd.pagecode", DK_HEX, 1, NULL, 0);
F(f_mode_flags, "Flags (DBD, LLBAA)", "scsi.mode.flags", DK_HEX, 1, NULL, 0);
F(f_mode_pc, "Page Control", "scsi.mode.pc", DK_UINT, 1, NULL, 0xc0);
F(f_mode_page, "Page Code", "scsi.mode.spc.pagecode", DK_HEX, 1, NULL, 0x3f);
F(f_mode_sbcpage, "Page Code", "scsi.mode.sbc.pagecode", DK_HEX, 1, NULL,
    0x3f);
F(f_sbc_alloc32, "Allocation Length", "scsi_sbc.alloclen32", DK_UINT, 4,
    NULL, 0);
F(f_rw_flags, "Flags", "scsi_sbc.read.flags", DK_HEX, 1, NULL, 0);
F(f_rdprotect, "RDPROTECT", "scsi_sbc.rdprotect", DK_HEX, 1, NULL, 0xe0);
F(f_wrprotect, "WRPROTECT", "scsi_sbc.wrprotect", DK_HEX, 1, NULL, 0xe0);
F(f_dpo, "DPO", "scsi_sbc.dpo", DK_BOOL, 1, NULL, 0x10);
F(f_fua, "FUA", "scsi_sbc.fua", DK_BOOL, 1, NULL, 0x08);
F(f_fua_nv, "FUA_NV", "scsi_sbc.fua_nv", DK_BOOL, 1, NULL, 0x02);
F(f_lba6, "Logical Block Address (LBA)", "scsi_sbc.rdwr6.lba", DK_UINT, 4,
    NULL, 0);
F(f_len6, "Transfer Length", "scsi_sbc.rdwr6.xferlen", DK_UINT, 1, NULL, 0);
F(f_lba10, "Logical Block Address (LBA)", "scsi_sbc.rdwr10.lba", DK_UINT, 4,
    NULL, 0);
F(f_len10, "Transfer Length", "scsi_sbc.rdwr10.xferlen", DK_UINT, 2, NULL,
    0);
F(f_group, "Group", "scsi_sbc.group", DK_HEX, 1, NULL, 0);
F(f_lba12, "Logical Block Address (LBA)", "scsi_sbc.rdwr12.lba", DK_UINT, 4,
    NULL, 0);
F(f_len12, "Transfer Length", "scsi_sbc.rdwr12.xferlen", DK_UINT, 4, NULL,
    0);
F(f_lba16, "Logical Block Address (LBA)", "scsi_sbc.rdwr16.lba", DK_UINT, 8,
    NULL, 0);
F(f_len16, "Transfer Length", "scsi_sbc.rdwr12.xferlen", DK_UINT, 4, NULL,
    0);
F(f_sync_flags, "Flags", "scsi_sbc.synccache.flags", DK_HEX, 1, NULL, 0);
F(f_sync_nv, "SYNC_NV", "scsi_sbc.synccache.sync_nv", DK_BOOL, 1, NULL,
    0x04);
F(f_sync_immed, "IMMED", "scsi_sbc.synccache.immediate", DK_BOOL, 1, NULL,
    0x02);
F(f_sa, "Service Action", "scsi_sbc.sa", DK_HEX, 1, NULL, 0x1f);
F(f_select_report, "Select Report", "scsi.spc.select_report", DK_HEX, 1,
    NULL, 0);
F(f_prevent, "Prevent", "scsi.prevent_allow.prevent", DK_UINT, 1, NULL,
    0x03);
F(f_ss_immed, "IMMED", "scsi_sbc.ssu_immed", DK_BOOL, 1, NULL, 0x01);
F(f_ss_pwr, "Power Conditions", "scsi_sbc.ssu_pwr", DK_HEX, 1, NULL, 0xf0);
F(f_ss_loej, "LOEJ", "scsi_sbc.ssu_loej", DK_BOOL, 1, NULL, 0x02);
F(f_ss_start, "START", "scsi_sbc.ssu_start", DK_BOOL, 1, NULL, 0x01);
F(f_cut, "Cut short", NULL, DK_LABEL, 0, NULL, 0);

/* INQUIRY data (SPC-4 6.6.2). */
F(f_periph, "Peripheral", "scsi.inquiry.peripheral", DK_HEX, 1, NULL, 0);
F(f_qual, "Qualifier", "scsi.inquiry.qualifier", DK_HEX, 1, NULL, 0xe0);
F(f_devtype, "Device Type", "scsi.inquiry.devtype", DK_HEX, 1, devtypes,
    0x1f);
F(f_rmbflags, "Inquiry RMB Flags", "scsi.inquiry.rmbflags", DK_HEX, 1, NULL,
    0);
F(f_removable, "Removable", "scsi.inquiry.removable", DK_BOOL, 1, NULL,
    0x80);
F(f_version, "Version", "scsi.inquiry.version", DK_HEX, 1, NULL, 0);
F(f_acaflags, "Inquiry ACA Flags", "scsi.inquiry.acaflags", DK_HEX, 1, NULL,
    0);
F(f_normaca, "NormACA", "scsi.inquiry.normaca", DK_BOOL, 1, NULL, 0x20);
F(f_hisup, "HiSup", "scsi.inquiry.hisup", DK_BOOL, 1, NULL, 0x10);
F(f_rdf, "Response Data Format", "scsi.inquiry.rdf", DK_UINT, 1, NULL, 0x0f);
F(f_addlen, "Additional Length", "scsi.inquiry.add_len", DK_UINT, 1, NULL,
    0);
F(f_sccsflags, "Inquiry SCCS Flags", "scsi.inquiry.sccsflags", DK_HEX, 1,
    NULL, 0);
F(f_sccs, "SCCS", "scsi.inquiry.sccs", DK_BOOL, 1, NULL, 0x80);
F(f_acc, "ACC", "scsi.inquiry.acc", DK_BOOL, 1, NULL, 0x40);
F(f_tpgs, "TPGS", "scsi.inquiry.tpgs", DK_UINT, 1, NULL, 0x30);
F(f_tpc, "3PC", "scsi.inquiry.tpc", DK_BOOL, 1, NULL, 0x08);
F(f_protect, "Protect", "scsi.inquiry.protect", DK_BOOL, 1, NULL, 0x01);
F(f_bqueflags, "Inquiry BQue Flags", "scsi.inquiry.bqueflags", DK_HEX, 1,
    NULL, 0);
F(f_bque, "BQue", "scsi.inquiry.bque", DK_BOOL, 1, NULL, 0x80);
F(f_encserv, "EncServ", "scsi.inquiry.encserv", DK_BOOL, 1, NULL, 0x40);
F(f_multip, "MultiP", "scsi.inquiry.multip", DK_BOOL, 1, NULL, 0x10);
F(f_mchngr, "MChngr", "scsi.inquiry.mchngr", DK_BOOL, 1, NULL, 0x08);
F(f_reladr, "Inquiry RelAdr Flags", "scsi.inquiry.reladrflags", DK_HEX, 1,
    NULL, 0);
F(f_linked, "Linked", "scsi.inquiry.linked", DK_BOOL, 1, NULL, 0x08);
F(f_cmdque, "CmdQue", "scsi.inquiry.cmdque", DK_BOOL, 1, NULL, 0x02);
F(f_vendor, "Vendor Id", "scsi.inquiry.vendor_id", DK_STRING, 8, NULL, 0);
F(f_product, "Product Id", "scsi.inquiry.product_id", DK_STRING, 16, NULL,
    0);
F(f_rev, "Product Revision Level", "scsi.inquiry.product_rev", DK_STRING, 4,
    NULL, 0);
F(f_vpd_page, "Page Code", "scsi.inquiry.evpd.pagecode", DK_HEX, 1, NULL, 0);
F(f_vpd_len, "Page Length", "scsi.inquiry.evpd.pagelength", DK_UINT, 2,
    NULL, 0);
F(f_vpd_sup, "Supported Page", "scsi.inquiry.evpd.supported_page", DK_HEX,
    1, NULL, 0);

/* READ CAPACITY data (SBC-3 5.16.2, 5.17.2). */
F(f_ret_lba, "LBA", "scsi_sbc.returned_lba", DK_UINT, 4, NULL, 0);
F(f_blocksize, "Block size in bytes", "scsi_sbc.blocksize", DK_UINT, 4,
    NULL, 0);
F(f_ret_lba64, "LBA", "scsi_sbc.lba64_add", DK_UINT, 8, NULL, 0);

/* Sense data, fixed format (SPC-4 4.5.3). */
F(f_errtype, "SNS Error Type", "scsi.sns.errtype", DK_HEX, 1, NULL, 0x7f);
F(f_valid, "Valid", "scsi.sns.valid", DK_UINT, 1, NULL, 0);
F(f_filemark, "Filemark", "scsi.sns.filemark", DK_BOOL, 1, NULL, 0x80);
F(f_eom, "EOM", "scsi.sns.eom", DK_BOOL, 1, NULL, 0x40);
F(f_ili, "ILI", "scsi.sns.ili", DK_BOOL, 1, NULL, 0x20);
F(f_key, "Sense Key", "scsi.sns.key", DK_HEX, 1, sense_keys, 0x0f);
F(f_info, "Sense Info", "scsi.sns.info", DK_HEX, 4, NULL, 0);
F(f_snsaddlen, "Additional Sense Length", "scsi.sns.addlen", DK_UINT, 1,
    NULL, 0);
F(f_csi, "Command-Specific Information",
    "scsi.sns.command_specific_information", DK_BYTES, 4, NULL, 0);
F(f_ascascq, "Additional Sense Code+Qualifier", "scsi.sns.ascascq", DK_HEX,
    2, sense_ascq, 0);
F(f_asc, "Additional Sense Code", "scsi.sns.asc", DK_HEX, 1, NULL, 0);
F(f_ascq, "Additional Sense Code Qualifier", "scsi.sns.ascq", DK_HEX, 1,
    NULL, 0);
F(f_fru, "Field Replaceable Unit Code", "scsi.sns.fru", DK_HEX, 1, NULL, 0);
F(f_sksv, "SKSV", "scsi.sns.sksv", DK_BOOL, 1, NULL, 0x80);
F(f_sks, "Sense Key Specific", "scsi.sns.sks_info", DK_HEX, 3, NULL,
    0x7fffff);

/* MODE SENSE header (SPC-4 7.5.5) and its block descriptor. */
F(f_mdl, "Mode Data Length", "scsi.cdb.mode.mode_data_length", DK_UINT, 1,
    NULL, 0);
F(f_mdl16, "Mode Data Length", "scsi.cdb.mode.mode_data_length", DK_UINT,
    2, NULL, 0);
F(f_medium, "Medium Type", "scsi.cdb.mode.medium_type", DK_HEX, 1, NULL, 0);
F(f_devspec, "Device-Specific Parameter",
    "scsi.cdb.mode.device_specific_parameter", DK_HEX, 1, NULL, 0);
F(f_bdl, "Block Descriptor Length", "scsi.cdb.mode.block_descriptor_length",
    DK_UINT, 1, NULL, 0);
F(f_bdl16, "Block Descriptor Length",
    "scsi.cdb.mode.block_descriptor_length", DK_UINT, 2, NULL, 0);
F(f_bd_blocks, "No. of Blocks", "scsi.blockdescs.no_of_blocks", DK_UINT, 4,
    NULL, 0);
F(f_bd_len, "Block Length", "scsi.blockdescs.block_length", DK_UINT, 3,
    NULL, 0);

/* READ FORMAT CAPACITIES (MMC-5 6.24) and REPORT LUNS (SPC-4 6.33). */
F(f_fc_listlen, "Capacity List Length", NULL, DK_UINT, 1, NULL, 0);
F(f_fc_blocks, "Number of Blocks", NULL, DK_UINT, 4, NULL, 0);
F(f_fc_type, "Descriptor Type", NULL, DK_UINT, 1, NULL, 0x03);
F(f_fc_blen, "Block Length", NULL, DK_UINT, 3, NULL, 0);
F(f_luns_len, "LUN List Length", "scsi.reportluns.lun_list_length", DK_UINT,
    4, NULL, 0);
F(f_payload, "Data", NULL, DK_BYTES, 0, NULL, 0);

/* Where the bytes are and where the tree goes. */
struct sc {
	struct dec_tree	*t;
	const uint8_t	*p;
	size_t		 n;
	uint32_t	 base;	/* p[0] at this offset of DB_DATA */
	int		 cut;	/* a field ran past n */
};

static uint64_t
get_be(const uint8_t *p, size_t w)
{
	uint64_t v = 0;
	size_t	 i;

	for (i = 0; i < w; i++)
		v = v << 8 | p[i];
	return v;
}

/* Field f of w bytes (big-endian, SCSI's order) at at; NULL if cut. */
static struct dec_node *
be(struct sc *c, const struct dec_field *f, size_t at, size_t w)
{
	if (at > c->n || w > c->n - at) {
		c->cut = 1;
		return NULL;
	}
	return dec_tree_add(c->t, f, DB_DATA, c->base + (uint32_t)at,
	    (uint32_t)w, get_be(c->p + at, w));
}

/* A bit field of the node just added, one level below it. */
static void
bits(struct sc *c, const struct dec_node *parent, const struct dec_field *f)
{
	if (parent != NULL)
		dec_tree_add_bits(c->t, f, parent->buf, parent->off,
		    parent->len, parent->value);
}

/* A bit field on its own line, over byte at. */
static void
bitfld(struct sc *c, const struct dec_field *f, size_t at)
{
	if (at >= c->n) {
		c->cut = 1;
		return;
	}
	dec_tree_add(c->t, f, DB_DATA, c->base + (uint32_t)at, 1,
	    dec_mask_value(c->p[at], f->mask));
}

/* A text field of w bytes at at (Wireshark keeps the padding). */
static void
text(struct sc *c, const struct dec_field *f, size_t at, size_t w)
{
	struct dec_node *nd;
	char	 s[32];
	size_t	 i;

	if (at >= c->n) {
		c->cut = 1;
		return;
	}
	if (w > c->n - at) {
		w = c->n - at;
		c->cut = 1;
	}
	if (w >= sizeof s)
		w = sizeof s - 1;
	for (i = 0; i < w; i++)
		s[i] = c->p[at + i] >= 0x20 && c->p[at + i] < 0x7f ?
		    (char)c->p[at + i] : '.';
	nd = dec_tree_add(c->t, f, DB_DATA, c->base + (uint32_t)at,
	    (uint32_t)w, 0);
	if (nd != NULL)
		nd->str = dec_tree_strdup(c->t, s, w);
}

static void
cut_note(struct sc *c)
{
	struct dec_node *nd;

	if (!c->cut)
		return;
	nd = dec_tree_add(c->t, &f_cut, DB_DATA, c->base + (uint32_t)c->n, 0,
	    0);
	if (nd != NULL) {
		nd->flags |= DN_CUT | DN_BAD;
		nd->note = "SCSI data cut short";
	}
}

const char *
dec_scsi_op_name(uint8_t op, char *tmp)
{
	return dec_name_or(scsi_ops, op, tmp);
}

void
dec_scsi_put_op(struct sbuf *b, uint8_t op)
{
	sb_putname(b, scsi_ops, op);
}

const char *
dec_scsi_sense_key_name(uint8_t key, char *tmp)
{
	return dec_name_or(sense_keys, key & 0x0f, tmp);
}

/* The name of a command the way Wireshark's layer titles say it. */
static const char *
op_title(uint8_t op, char *tmp)
{
	return dec_scsi_op_name(op, tmp);
}

/* LUN, command set, opcode as the generated fields every layer has. */
static void
common(struct sc *c, const struct dec_scsi_cmd *cmd, int with_op)
{
	dec_tree_add(c->t, &f_lun, DB_NONE, 0, 0, cmd->lun);
	dec_tree_add(c->t, &f_cmdset, DB_NONE, 0, 0, cmd->devtype);
	if (with_op)
		dec_tree_add(c->t, &f_opcode, DB_NONE, 0, 0, cmd->cdb[0]);
	if (cmd->req_frame != 0)
		dec_tree_add(c->t, &f_reqframe, DB_NONE, 0, 0, cmd->req_frame);
}

static void
control(struct sc *c, size_t at, int inq)
{
	struct dec_node *nd;

	nd = be(c, inq ? &f_ictl : &f_ctl, at, 1);
	bits(c, nd, inq ? &f_ictl_vs : &f_ctl_vs);
	bits(c, nd, inq ? &f_ictl_rsv : &f_ctl_rsv);
	bits(c, nd, inq ? &f_ictl_naca : &f_ctl_naca);
	bits(c, nd, inq ? &f_ictl_obs1 : &f_ctl_obs1);
	bits(c, nd, inq ? &f_ictl_obs2 : &f_ctl_obs2);
}

static void
rwflags(struct sc *c, int write)
{
	struct dec_node *nd;

	nd = be(c, &f_rw_flags, 1, 1);
	bits(c, nd, write ? &f_wrprotect : &f_rdprotect);
	bits(c, nd, &f_dpo);
	bits(c, nd, &f_fua);
	bits(c, nd, &f_fua_nv);
}

/*
 * Is a mode page SPC-4's (7.5.1 table 305) rather than the command set's?
 * Wireshark names the page code field after the standard that defines it.
 */
static int
spc_page(uint8_t pc)
{
	static const uint8_t spc[] = { 0x02, 0x0a, 0x15, 0x16, 0x18, 0x19,
	    0x1a, 0x1c, 0x3f };
	size_t	 i;

	for (i = 0; i < sizeof spc; i++)
		if (spc[i] == pc)
			return 1;
	return 0;
}

void
dec_scsi_cdb_tree(const uint8_t *cdb, size_t n, uint32_t off,
    const struct dec_scsi_cmd *cmd, struct dec_tree *t)
{
	struct sc	 c = { t, cdb, n, off, 0 };
	struct dec_node	*nd;
	char		 tmp[24];
	uint8_t		 op, depth = t->depth;

	if (n == 0)
		return;
	op = cdb[0];
	dec_tree_push(t, dec_tree_cat(t, "SCSI CDB ", op_title(op, tmp),
	    (char *)NULL), DB_DATA, off, (uint32_t)n);
	dec_tree_add(t, &f_lun, DB_NONE, 0, 0, cmd->lun);
	dec_tree_add(t, &f_cmdset, DB_NONE, 0, 0, cmd->devtype);
	be(&c, &f_opcode, 0, 1);
	switch (op) {
	case 0x00:			/* TEST UNIT READY */
	case 0x25:			/* READ CAPACITY(10) */
		control(&c, op == 0x00 ? 5 : 9, 0);
		break;
	case 0x03:			/* REQUEST SENSE */
		be(&c, &f_alloc8, 4, 1);
		control(&c, 5, 0);
		break;
	case 0x12:			/* INQUIRY */
		nd = be(&c, &f_inq_flags, 1, 1);
		if (nd != NULL && (nd->value & 1))
			be(&c, &f_inq_page, 2, 1);
		be(&c, &f_alloc16, 3, 2);
		control(&c, 5, 1);
		break;
	case 0x1a:			/* MODE SENSE(6) */
	case 0x5a:			/* MODE SENSE(10) */
		be(&c, &f_mode_flags, 1, 1);
		bitfld(&c, &f_mode_pc, 2);
		bitfld(&c, n > 2 && spc_page(cdb[2] & 0x3f) ? &f_mode_page :
		    &f_mode_sbcpage, 2);
		if (op == 0x1a) {
			be(&c, &f_alloc8, 4, 1);
			control(&c, 5, 0);
		} else {
			be(&c, &f_alloc16, 7, 2);
			control(&c, 9, 0);
		}
		break;
	case 0x1b:			/* START STOP UNIT */
		bitfld(&c, &f_ss_immed, 1);
		bitfld(&c, &f_ss_pwr, 4);
		bitfld(&c, &f_ss_loej, 4);
		bitfld(&c, &f_ss_start, 4);
		control(&c, 5, 0);
		break;
	case 0x1e:			/* PREVENT ALLOW MEDIUM REMOVAL */
		bitfld(&c, &f_prevent, 4);
		control(&c, 5, 0);
		break;
	case 0x08:			/* READ(6) */
	case 0x0a:			/* WRITE(6) */
		if (n >= 4)
			dec_tree_add(t, &f_lba6, DB_DATA, off + 1, 3,
			    get_be(cdb + 1, 3) & 0x1fffff);
		else
			c.cut = 1;
		be(&c, &f_len6, 4, 1);
		control(&c, 5, 0);
		break;
	case 0x28:			/* READ(10) */
	case 0x2a:			/* WRITE(10) */
	case 0x2f:			/* VERIFY(10) */
		rwflags(&c, op != 0x28);
		be(&c, &f_lba10, 2, 4);
		bitfld(&c, &f_group, 6);
		be(&c, &f_len10, 7, 2);
		control(&c, 9, 0);
		break;
	case 0x35:			/* SYNCHRONIZE CACHE(10) */
		nd = be(&c, &f_sync_flags, 1, 1);
		bits(&c, nd, &f_sync_nv);
		bits(&c, nd, &f_sync_immed);
		be(&c, &f_lba10, 2, 4);
		bitfld(&c, &f_group, 6);
		be(&c, &f_len10, 7, 2);
		control(&c, 9, 0);
		break;
	case 0xa8:			/* READ(12) */
	case 0xaa:			/* WRITE(12) */
		rwflags(&c, op == 0xaa);
		be(&c, &f_lba12, 2, 4);
		be(&c, &f_len12, 6, 4);
		bitfld(&c, &f_group, 10);
		control(&c, 11, 0);
		break;
	case 0x88:			/* READ(16) */
	case 0x8a:			/* WRITE(16) */
		rwflags(&c, op == 0x8a);
		be(&c, &f_lba16, 2, 8);
		be(&c, &f_len16, 10, 4);
		bitfld(&c, &f_group, 14);
		control(&c, 15, 0);
		break;
	case 0x9e:			/* SERVICE ACTION IN(16) */
		bitfld(&c, &f_sa, 1);
		be(&c, &f_sbc_alloc32, 10, 4);
		control(&c, 15, 0);
		break;
	case 0xa0:			/* REPORT LUNS */
		be(&c, &f_select_report, 2, 1);
		be(&c, &f_alloc32, 6, 4);
		control(&c, 11, 0);
		break;
	case 0xa3:			/* MAINTENANCE IN */
		be(&c, &f_alloc32, 6, 4);
		control(&c, 11, 0);
		break;
	case 0x23:			/* READ FORMAT CAPACITIES */
	case 0x46:			/* GET CONFIGURATION */
		be(&c, &f_alloc16, 7, 2);
		control(&c, 9, 0);
		break;
	default:
		break;
	}
	cut_note(&c);
	t->depth = depth;
}

/* The SCSI layer of a status: which command it ends, how. */
void
dec_scsi_status_tree(const struct dec_scsi_cmd *cmd, int status,
    int64_t dt_ns, struct dec_tree *t)
{
	struct sc	 c = { t, NULL, 0, 0, 0 };
	char		 tmp[24];
	uint8_t		 depth = t->depth;

	dec_tree_push(t, dec_tree_cat(t, "SCSI Response (",
	    op_title(cmd->cdb[0], tmp), ")", (char *)NULL), DB_NONE, 0, 0);
	common(&c, cmd, 1);
	if (dt_ns >= 0)
		dec_tree_add(t, &f_time, DB_NONE, 0, 0, (uint64_t)dt_ns);
	dec_tree_add(t, &f_status, DB_NONE, 0, 0, (uint64_t)status);
	t->depth = depth;
}

static void
inquiry_tree(struct sc *c, const struct dec_scsi_cmd *cmd)
{
	struct dec_node *nd;
	size_t	 i, len;

	if (cmd->cdb_len > 1 && (cmd->cdb[1] & 1)) {
		/* a VPD page (SPC-4 7.8): its header, then the list of
		 * supported pages; other pages' bodies stay bytes.  One
		 * cut short by the allocation length is bytes too, as
		 * Wireshark leaves it. */
		if (c->n < 4 || c->n < 4 + (size_t)get_be16(c->p + 2)) {
			dec_tree_add(c->t, &f_payload, DB_DATA, c->base,
			    (uint32_t)c->n, 0);
			return;
		}
		nd = be(c, &f_qual, 0, 1);
		if (nd != NULL) {
			nd->value >>= 5;
			bitfld(c, &f_devtype, 0);
		}
		be(c, &f_vpd_page, 1, 1);
		nd = be(c, &f_vpd_len, 2, 2);
		if (nd != NULL && c->p[1] == 0x00) {
			len = nd->value;
			for (i = 0; i < len && 4 + i < c->n; i++)
				be(c, &f_vpd_sup, 4 + i, 1);
		}
		return;
	}
	nd = be(c, &f_periph, 0, 1);
	bits(c, nd, &f_qual);
	bits(c, nd, &f_devtype);
	nd = be(c, &f_rmbflags, 1, 1);
	bits(c, nd, &f_removable);
	be(c, &f_version, 2, 1);
	nd = be(c, &f_acaflags, 3, 1);
	bits(c, nd, &f_normaca);
	bits(c, nd, &f_hisup);
	bits(c, nd, &f_rdf);
	be(c, &f_addlen, 4, 1);
	nd = be(c, &f_sccsflags, 5, 1);
	bits(c, nd, &f_sccs);
	bits(c, nd, &f_acc);
	bits(c, nd, &f_tpgs);
	bits(c, nd, &f_tpc);
	bits(c, nd, &f_protect);
	nd = be(c, &f_bqueflags, 6, 1);
	bits(c, nd, &f_bque);
	bits(c, nd, &f_encserv);
	bits(c, nd, &f_multip);
	bits(c, nd, &f_mchngr);
	nd = be(c, &f_reladr, 7, 1);
	bits(c, nd, &f_linked);
	bits(c, nd, &f_cmdque);
	text(c, &f_vendor, 8, 8);
	text(c, &f_product, 16, 16);
	text(c, &f_rev, 32, 4);
}

static void
sense_tree(struct sc *c)
{
	struct dec_node *nd;

	nd = be(c, &f_errtype, 0, 1);
	if (nd != NULL) {
		nd->value &= 0x7f;
		/* (Wireshark 4.0 shows "Valid" as the byte's low 7 bits) */
		dec_tree_add(c->t, &f_valid, DB_DATA, c->base, 1,
		    c->p[0] & 0x7f);
	}
	bitfld(c, &f_filemark, 2);
	bitfld(c, &f_eom, 2);
	bitfld(c, &f_ili, 2);
	bitfld(c, &f_key, 2);
	be(c, &f_info, 3, 4);
	be(c, &f_snsaddlen, 7, 1);
	be(c, &f_csi, 8, 4);
	be(c, &f_ascascq, 12, 2);
	be(c, &f_asc, 12, 1);
	be(c, &f_ascq, 13, 1);
	be(c, &f_fru, 14, 1);
	bitfld(c, &f_sksv, 15);
	nd = be(c, &f_sks, 15, 3);
	if (nd != NULL)
		nd->value &= 0x7fffff;
}

void
dec_scsi_sense_tree(const uint8_t *p, size_t n, uint32_t off,
    const struct dec_scsi_cmd *cmd, struct dec_tree *t)
{
	struct sc	 c = { t, p, n, off, 0 };
	uint8_t		 depth = t->depth;

	dec_tree_push(t, "SCSI: SNS Info", DB_DATA, off, (uint32_t)n);
	dec_tree_add(t, &f_lun, DB_NONE, 0, 0, cmd->lun);
	sense_tree(&c);
	cut_note(&c);
	t->depth = depth;
}

static void
mode_tree(struct sc *c, int ten)
{
	struct dec_node *nd;
	size_t	 h = ten ? 8 : 4;

	if (ten) {
		be(c, &f_mdl16, 0, 2);
		be(c, &f_medium, 2, 1);
		be(c, &f_devspec, 3, 1);
		nd = be(c, &f_bdl16, 6, 2);
	} else {
		be(c, &f_mdl, 0, 1);
		be(c, &f_medium, 1, 1);
		be(c, &f_devspec, 2, 1);
		nd = be(c, &f_bdl, 3, 1);
	}
	/* one short block descriptor (SBC-3 6.4.2); the pages after it
	 * stay bytes */
	if (nd != NULL && nd->value >= 8) {
		be(c, &f_bd_blocks, h, 4);
		be(c, &f_bd_len, h + 5, 3);
	}
}

void
dec_scsi_data_tree(const uint8_t *p, size_t n, uint32_t off,
    const struct dec_scsi_cmd *cmd, int in, struct dec_tree *t)
{
	struct sc	 c = { t, p, n, off, 0 };
	char		 tmp[24];
	size_t		 i;
	uint8_t		 op = cmd->cdb[0], depth = t->depth;

	dec_tree_push(t, dec_tree_cat(t, "SCSI Payload (",
	    op_title(op, tmp), in ? " Response Data)" : " Request Data)",
	    (char *)NULL), DB_DATA, off,
	    (uint32_t)n);
	common(&c, cmd, 1);
	switch (in ? op : -1) {
	case 0x12:
		inquiry_tree(&c, cmd);
		break;
	case 0x03:
		sense_tree(&c);
		break;
	case 0x25:
		be(&c, &f_ret_lba, 0, 4);
		be(&c, &f_blocksize, 4, 4);
		break;
	case 0x9e:
		if (cmd->cdb_len > 1 && (cmd->cdb[1] & 0x1f) == 0x10) {
			be(&c, &f_ret_lba64, 0, 8);
			be(&c, &f_blocksize, 8, 4);
		}
		break;
	case 0x1a:
	case 0x5a:
		mode_tree(&c, op == 0x5a);
		break;
	case 0x23:
		be(&c, &f_fc_listlen, 3, 1);
		for (i = 4; i + 8 <= n && i < 4 + 8 * 8; i += 8) {
			be(&c, &f_fc_blocks, i, 4);
			bitfld(&c, &f_fc_type, i + 4);
			be(&c, &f_fc_blen, i + 5, 3);
		}
		break;
	case 0xa0:
		be(&c, &f_luns_len, 0, 4);
		break;
	default:
		if (n > 0)
			dec_tree_add(t, &f_payload, DB_DATA, off,
			    (uint32_t)n, 0);
		break;
	}
	cut_note(&c);
	t->depth = depth;
}

int
dec_scsi_rw_args(const uint8_t *cdb, size_t n, uint64_t *lba,
    uint32_t *blocks)
{
	switch (n > 0 ? cdb[0] : -1) {
	case 0x08:
	case 0x0a:
		if (n < 5)
			return 0;
		*lba = get_be(cdb + 1, 3) & 0x1fffff;
		*blocks = cdb[4] != 0 ? cdb[4] : 256;	/* SBC-3 5.6 */
		return 1;
	case 0x28:
	case 0x2a:
	case 0x2f:
		if (n < 9)
			return 0;
		*lba = get_be(cdb + 2, 4);
		*blocks = (uint32_t)get_be(cdb + 7, 2);
		return 1;
	case 0xa8:
	case 0xaa:
		if (n < 10)
			return 0;
		*lba = get_be(cdb + 2, 4);
		*blocks = (uint32_t)get_be(cdb + 6, 4);
		return 1;
	case 0x88:
	case 0x8a:
		if (n < 14)
			return 0;
		*lba = get_be(cdb + 2, 8);
		*blocks = (uint32_t)get_be(cdb + 10, 4);
		return 1;
	}
	return 0;
}

void
dec_scsi_cdb_summary(const uint8_t *cdb, size_t n, struct sbuf *b)
{
	uint64_t	 lba;
	uint32_t	 blocks;

	if (n == 0)
		return;
	dec_scsi_put_op(b, cdb[0]);
	if (dec_scsi_rw_args(cdb, n, &lba, &blocks)) {
		sb_puts(b, " lba ");
		sb_u64(b, lba);
		sb_puts(b, " blocks ");
		sb_u64(b, blocks);
	} else if (cdb[0] == 0x12 && n >= 3 && (cdb[1] & 1)) {
		sb_puts(b, " VPD page 0x");
		sb_hex(b, cdb[2], 2);
	} else if ((cdb[0] == 0x1a || cdb[0] == 0x5a) && n >= 3) {
		sb_puts(b, " page 0x");
		sb_hex(b, cdb[2] & 0x3f, 2);
	} else if (cdb[0] == 0x1e && n >= 5)
		sb_puts(b, (cdb[4] & 1) ? " prevent" : " allow");
	else if (cdb[0] == 0x1b && n >= 5)
		sb_puts(b, (cdb[4] & 2) ? ((cdb[4] & 1) ? " load" : " eject") :
		    ((cdb[4] & 1) ? " start" : " stop"));
}

/* "NOT READY, MEDIUM NOT PRESENT (0x3a/0x00)" from fixed sense data. */
void
dec_scsi_sense_summary(const uint8_t *p, size_t n, struct sbuf *b)
{
	const char	*s;
	char		 tmp[24];

	if (n < 3) {
		sb_puts(b, "sense data cut short");
		return;
	}
	if ((p[0] & 0x7f) != 0x70 && (p[0] & 0x7f) != 0x71) {
		sb_puts(b, "sense response code 0x");
		sb_hex(b, p[0] & 0x7f, 2);
		return;
	}
	sb_puts(b, dec_name_or(sense_keys, p[2] & 0x0f, tmp));
	if (n < 14)
		return;
	sb_puts(b, ", ");
	if ((s = dec_name_find(sense_ascq, (uint32_t)p[12] << 8 | p[13])) !=
	    NULL)
		sb_puts(b, s);
	else
		sb_puts(b, "ASC/ASCQ");
	sb_puts(b, " (0x");
	sb_hex(b, p[12], 2);
	sb_puts(b, "/0x");
	sb_hex(b, p[13], 2);
	sb_putc(b, ')');
}

/* Trailing blanks of a padded INQUIRY string left out. */
static void
put_text(struct sbuf *b, const uint8_t *p, size_t n)
{
	size_t	 i;

	while (n > 0 && (p[n - 1] == ' ' || p[n - 1] == 0))
		n--;
	for (i = 0; i < n; i++)
		sb_putc(b, p[i] >= 0x20 && p[i] < 0x7f ? (char)p[i] : '.');
}

/* Bytes as "64 MiB" (binary units, whole when exact). */
static void
put_size(struct sbuf *b, uint64_t bytes)
{
	static const char *const unit[] = { "bytes", "KiB", "MiB", "GiB",
	    "TiB", "PiB", "EiB" };
	int	 u = 0;

	while (u < 6 && bytes >= 1024 &&
	    (bytes % 1024 == 0 || bytes >= 10240)) {
		bytes /= 1024;
		u++;
	}
	sb_u64(b, bytes);
	sb_putc(b, ' ');
	sb_puts(b, unit[u]);
}

static void
capacity(struct sbuf *b, uint64_t last, uint32_t bl)
{
	sb_u64(b, last + 1);
	sb_puts(b, " blocks of ");
	sb_u64(b, bl);
	sb_puts(b, " bytes (");
	/* (last + 1) * bl fits: last < 2^64 only in hostile data, and
	 * then the product is just shown wrapped in a summary) */
	put_size(b, (last + 1) * bl);
	sb_putc(b, ')');
}

void
dec_scsi_data_summary(const uint8_t *p, size_t n,
    const struct dec_scsi_cmd *cmd, int in, struct sbuf *b)
{
	char		 tmp[24];
	uint64_t	 lba;
	uint32_t	 blocks, bs;
	uint8_t		 op = cmd->cdb[0];

	if (dec_scsi_rw_args(cmd->cdb, cmd->cdb_len, &lba, &blocks)) {
		/* the command's numbers: the block size is the device's,
		 * and a capture may keep only the first bytes */
		sb_u64(b, blocks);
		if (blocks == 1)
			sb_puts(b, " block of data for ");
		else
			sb_puts(b, " blocks of data for ");
		dec_scsi_put_op(b, op);
		sb_puts(b, " lba ");
		sb_u64(b, lba);
		return;
	}
	dec_scsi_put_op(b, op);
	sb_puts(b, " data: ");
	switch (in ? op : -1) {
	case 0x12:
		if (cmd->cdb_len > 1 && (cmd->cdb[1] & 1)) {
			if (n < 2)
				break;
			sb_puts(b, "VPD page 0x");
			sb_hex(b, p[1], 2);
			return;
		}
		if (n < 36)
			break;
		put_text(b, p + 8, 8);
		sb_putc(b, ' ');
		put_text(b, p + 16, 16);
		sb_putc(b, ' ');
		put_text(b, p + 32, 4);
		if (p[1] & 0x80)
			sb_puts(b, ", removable");
		if ((p[0] & 0x1f) != 0) {
			sb_puts(b, ", ");
			sb_puts(b, dec_name_or(devtypes, p[0] & 0x1f, tmp));
		}
		return;
	case 0x03:
		dec_scsi_sense_summary(p, n, b);
		return;
	case 0x25:
		if (n < 8)
			break;
		capacity(b, get_be32(p), get_be32(p + 4));
		return;
	case 0x9e:
		if (cmd->cdb_len < 2 || (cmd->cdb[1] & 0x1f) != 0x10 ||
		    n < 12)
			break;
		capacity(b, get_be(p, 8), get_be32(p + 8));
		return;
	case 0x1a:
		if (n < 4)
			break;
		sb_puts(b, "mode data length ");
		sb_u64(b, p[0]);
		if (p[2] & 0x80)
			sb_puts(b, ", write protected");
		return;
	case 0x5a:
		if (n < 8)
			break;
		sb_puts(b, "mode data length ");
		sb_u64(b, get_be16(p));
		if (p[3] & 0x80)
			sb_puts(b, ", write protected");
		return;
	case 0x23:
		if (n < 12)
			break;
		bs = (uint32_t)get_be(p + 9, 3);
		capacity(b, (uint64_t)get_be32(p + 4) - 1, bs);
		sb_puts(b, (p[8] & 3) == 2 ? ", formatted" :
		    (p[8] & 3) == 3 ? ", no medium" : ", unformatted");
		return;
	case 0xa0:
		if (n < 4)
			break;
		sb_u64(b, get_be32(p) / 8);
		sb_puts(b, get_be32(p) / 8 == 1 ? " LUN" : " LUNs");
		return;
	}
	sb_u64(b, n);
	sb_puts(b, " bytes");
}
