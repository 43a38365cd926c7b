/*
 * decode/dec-ccid.c - smart card readers (CCID): the class descriptor,
 * the bulk messages (PC_to_RDR commands and their RDR_to_PC answers) and
 * the interrupt notifications.
 *
 * Facts: USB CCID 1.1 (5.1 class descriptor, 6.1 command pipe bulk-out
 * messages, 6.2 response pipe bulk-in messages, 6.3 interrupt-in
 * messages); Linux include/linux/usb/ccid.h.  Field names are Wireshark's
 * (epan/dissectors/packet-usb-ccid.c, usbccid.*), their masks as its
 * field registrations give them; the message payload (abData), which
 * Wireshark hands to its ISO 7816 dissector, is usbccid.abData here.
 */
#include "class.h"

#define F	DEC_FIELD

static const struct dec_name ccid_msgs[] = {	/* CCID 1.1 6.1-6.3 */
	{ 0x50, "RDR_to_PC_NotifySlotChange" },
	{ 0x51, "RDR_to_PC_HardwareError" },
	{ 0x61, "PC_to_RDR_SetParameters" },
	{ 0x62, "PC_to_RDR_IccPowerOn" },
	{ 0x63, "PC_to_RDR_IccPowerOff" },
	{ 0x65, "PC_to_RDR_GetSlotStatus" },
	{ 0x69, "PC_to_RDR_Secure" },
	{ 0x6a, "PC_to_RDR_T0APDU" },
	{ 0x6b, "PC_to_RDR_Escape" },
	{ 0x6c, "PC_to_RDR_GetParameters" },
	{ 0x6d, "PC_to_RDR_ResetParameters" },
	{ 0x6e, "PC_to_RDR_IccClock" },
	{ 0x6f, "PC_to_RDR_XfrBlock" },
	{ 0x71, "PC_to_RDR_Mechanical" },
	{ 0x72, "PC_to_RDR_Abort" },
	{ 0x73, "PC_to_RDR_SetDataRateAndClockFrequency" },
	{ 0x80, "RDR_to_PC_DataBlock" },
	{ 0x81, "RDR_to_PC_SlotStatus" },
	{ 0x82, "RDR_to_PC_Parameters" },
	{ 0x83, "RDR_to_PC_Escape" },
	{ 0x84, "RDR_to_PC_DataRateAndClockFrequency" },
	{ 0, NULL }
};

static const struct dec_name icc_status[] = {	/* 6.2.6 bmICCStatus */
	{ 0, "ICC present and active" },
	{ 1, "ICC present and inactive" },
	{ 2, "no ICC present" },
	{ 0, NULL }
};

static const struct dec_name cmd_status[] = {	/* bmCommandStatus */
	{ 0, "processed without error" },
	{ 1, "failed" },
	{ 2, "time extension requested" },
	{ 0, NULL }
};

static const struct dec_name power_select[] = {	/* 6.1.1 bPowerSelect */
	{ 0, "automatic" },
	{ 1, "5.0 V" },
	{ 2, "3.0 V" },
	{ 3, "1.8 V" },
	{ 0, NULL }
};

/* The class descriptor (5.1). */
F(f_bcd, "bcdCCID", "usbccid.bcdCCID", DK_HEX, 2, NULL, 0);
F(f_maxslot, "bMaxSlotIndex", "usbccid.bMaxSlotIndex", DK_HEX, 1, NULL, 0);
F(f_volt, "bVoltageSupport", "usbccid.bVoltageSupport", DK_HEX, 1, NULL,
    0);
F(f_volt18, "1.8V", "usbccid.bVoltageSupport.18", DK_BOOL, 1, NULL, 0x04);
F(f_volt30, "3.0V", "usbccid.bVoltageSupport.30", DK_BOOL, 1, NULL, 0x02);
F(f_volt50, "5.0V", "usbccid.bVoltageSupport.50", DK_BOOL, 1, NULL, 0x01);
F(f_protos, "dwProtocols", "usbccid.dwProtocols", DK_HEX, 4, NULL, 0);
F(f_proto_t0, "T=0", "usbccid.dwProtocols.t0", DK_BOOL, 4, NULL, 0x1);
F(f_proto_t1, "T=1", "usbccid.dwProtocols.t1", DK_BOOL, 4, NULL, 0x2);
F(f_defclock, "dwDefaultClock", "usbccid.dwDefaultClock", DK_UINT, 4, NULL,
    0);
F(f_maxclock, "dwMaximumClock", "usbccid.dwMaximumClock", DK_UINT, 4, NULL,
    0);
F(f_nclock, "bNumClockSupported", "usbccid.bNumClockSupported", DK_UINT,
    1, NULL, 0);
F(f_rate, "dwDataRate", "usbccid.dwDataRate", DK_UINT, 4, NULL, 0);
F(f_maxrate, "dwMaxDataRate", "usbccid.dwMaxDataRate", DK_UINT, 4, NULL, 0);
F(f_nrates, "bNumDataRatesSupported", "usbccid.bNumDataRatesSupported",
    DK_UINT, 1, NULL, 0);
F(f_ifsd, "dwMaxIFSD", "usbccid.dwMaxIFSD", DK_UINT, 4, NULL, 0);
F(f_synch, "dwSynchProtocols", "usbccid.dwSynchProtocols", DK_HEX, 4, NULL,
    0);
F(f_mech, "dwMechanical", "usbccid.dwMechanical", DK_HEX, 4, NULL, 0);
F(f_feat, "dwFeatures", "usbccid.dwFeatures", DK_HEX, 4, NULL, 0);
/* (Wireshark names both 0x08, automatic voltage selection, and 0x40,
 * automatic parameters negotiation, autoParamNegotiation.) */
#define FEAT(var, abbrev, name, mask)					\
	F(var, name, "usbccid.dwFeatures." abbrev, DK_BOOL, 4, NULL, mask)
FEAT(f_feat_param, "autoParam",
    "Automatic parameter configuration based on ATR", 0x2);
FEAT(f_feat_activ, "autoIccActivation",
    "Automatic activation of ICC on inserting", 0x4);
FEAT(f_feat_volt, "autoParamNegotiation", "Automatic ICC voltage selection",
    0x8);
FEAT(f_feat_clk, "autoIccClk", "Automatic ICC clock frequency change",
    0x10);
FEAT(f_feat_baud, "autoBaudRate", "Automatic baud rate change", 0x20);
FEAT(f_feat_nego, "autoParamNegotiation", "Automatic parameters negotiation",
    0x40);
FEAT(f_feat_pps, "autoPPS", "Automatic PPS", 0x80);
FEAT(f_feat_stop, "stopIccClk", "CCID can set ICC in clock stop mode",
    0x100);
FEAT(f_feat_nad, "nadValNot0accept", "NAD value other than 00 accepted",
    0x200);
FEAT(f_feat_ifsd, "autoIfsd", "Automatic IFSD exchange as first exchange",
    0x400);
FEAT(f_feat_tpdu, "levelExchangeTDPU", "TPDU level exchanges", 0x10000);
FEAT(f_feat_apdu, "levelExchangeShortAPDU", "Short APDU level exchange",
    0x20000);
FEAT(f_feat_xapdu, "levelExchangeShortExtendedAPDU",
    "Short and Extended APDU level exchange", 0x40000);
FEAT(f_feat_wake, "UsbWakeUp", "USB Wake up signaling supported on card "
    "insertion and removal", 0x100000);
F(f_maxmsg, "dwMaxCCIDMessageLength", "usbccid.dwMaxCCIDMessageLength",
    DK_UINT, 4, NULL, 0);
F(f_getresp, "bClassGetResponse", "usbccid.hf_ccid_bClassGetResponse",
    DK_HEX, 1, NULL, 0);
F(f_envelope, "bClassEnvelope", "usbccid.hf_ccid_bClassEnvelope", DK_HEX,
    1, NULL, 0);
F(f_lcd, "wLcdLayout", "usbccid.hf_ccid_wLcdLayout", DK_HEX, 2, NULL, 0);
F(f_lcd_chars, "Characters per line", "usbccid.hf_ccid_wLcdLayout.chars",
    DK_UINT, 1, NULL, 0);
F(f_lcd_lines, "Lines", "usbccid.hf_ccid_wLcdLayout.lines", DK_UINT, 1,
    NULL, 0);
F(f_pin, "bPINSupport", "usbccid.hf_ccid_bPINSupport", DK_HEX, 1, NULL, 0);
F(f_pin_modify, "PIN modification", "usbccid.hf_ccid_bPINSupport.modify",
    DK_BOOL, 1, NULL, 0x2);
F(f_pin_verify, "PIN verification", "usbccid.hf_ccid_bPINSupport.verify",
    DK_BOOL, 1, NULL, 0x1);
F(f_busy, "bMaxCCIDBusySlots", "usbccid.hf_ccid_bMaxCCIDBusySlots",
    DK_HEX, 1, NULL, 0);
F(f_extra, "extra bytes", NULL, DK_BYTES, 0, NULL, 0);

/* The messages' header (6.1, 6.2) and the fields that follow it. */
F(f_type, "bMessageType", "usbccid.bMessageType", DK_HEX, 1, ccid_msgs, 0);
F(f_len, "dwLength", "usbccid.dwLength", DK_UINT, 4, NULL, 0);
F(f_slot, "bSlot", "usbccid.bSlot", DK_UINT, 1, NULL, 0);
F(f_seq, "bSeq", "usbccid.bSeq", DK_UINT, 1, NULL, 0);
F(f_status, "bStatus", "usbccid.bStatus", DK_UINT, 1, NULL, 0);
F(f_status_icc, "bmIccStatus", "usbccid.bStatus.bmIccStatus", DK_UINT, 1,
    icc_status, 0x03);
F(f_status_cmd, "bmCommandStatus", "usbccid.bStatus.bmCommandStatus",
    DK_UINT, 1, cmd_status, 0xc0);
F(f_error, "bError", "usbccid.bError", DK_UINT, 1, NULL, 0);
F(f_rfu, "bRFU", "usbccid.bRFU", DK_HEX, 1, NULL, 0);
F(f_abrfu, "abRFU", "usbccid.abRFU", DK_BYTES, 0, NULL, 0);
/* the reserved bytes of a message's header, a number to Wireshark */
F(f_reserved, "Reserved for Future Use", "usbccid.hf_ccid_Reserved", DK_HEX,
    4, NULL, 0);
F(f_chain, "bChainParameter", "usbccid.bChainParameter", DK_UINT, 1, NULL,
    0);
F(f_power, "bPowerSelect", "usbccid.bPowerSelect", DK_HEX, 1, power_select,
    0);
F(f_clock, "bClockStatus", "usbccid.bClockStatus", DK_HEX, 1, NULL, 0);
F(f_protonum, "bProtocolNum", "usbccid.bProtocolNum", DK_HEX, 1, NULL, 0);
F(f_bwi, "bBWI", "usbccid.bBWI", DK_HEX, 1, NULL, 0);
F(f_level, "wLevelParameter", "usbccid.wLevelParameter", DK_HEX, 2, NULL,
    0);
F(f_data, "abData", "usbccid.abData", DK_BYTES, 0, NULL, 0);
F(f_slots, "bmSlotICCState", "usbccid.hf_ccid_bmSlotICCState", DK_HEX, 1,
    NULL, 0);
F(f_hwerr, "bHardwareErrorCode", "usbccid.hf_ccid_bHardwareErrorCode",
    DK_HEX, 1, NULL, 0);

/* Wireshark's names repeat every four slots (a byte holds four). */
#define SLOTBIT(var, abbrev, name, mask)				\
	F(var, name, "usbccid.hf_ccid_bmSlotICCState." abbrev, DK_BOOL, 1,	\
	    NULL, mask)
SLOTBIT(f_s0c, "slot0Current", "Slot 0 Current Status", 0x01);
SLOTBIT(f_s0x, "slot0Changed", "Slot 0 Status changed", 0x02);
SLOTBIT(f_s1c, "slot1Current", "Slot 1 Current Status", 0x04);
SLOTBIT(f_s1x, "slot1Changed", "Slot 1 Status changed", 0x08);
SLOTBIT(f_s2c, "slot2Current", "Slot 2 Current Status", 0x10);
SLOTBIT(f_s2x, "slot2Changed", "Slot 2 Status changed", 0x20);
SLOTBIT(f_s3c, "slot3Current", "Slot 3 Current Status", 0x40);
SLOTBIT(f_s3x, "slot3Changed", "Slot 3 Status changed", 0x80);

static const struct dec_field *const volt_bits[] = {
	&f_volt18, &f_volt30, &f_volt50, NULL
};
static const struct dec_field *const proto_bits[] = {
	&f_proto_t0, &f_proto_t1, NULL
};
static const struct dec_field *const feat_bits[] = {
	&f_feat_activ, &f_feat_volt, &f_feat_param, &f_feat_clk,
	&f_feat_baud, &f_feat_nego, &f_feat_pps, &f_feat_stop, &f_feat_nad,
	&f_feat_ifsd,
	&f_feat_tpdu, &f_feat_apdu, &f_feat_xapdu, &f_feat_wake, NULL
};
static const struct dec_field *const pin_bits[] = {
	&f_pin_modify, &f_pin_verify, NULL
};
static const struct dec_field *const status_bits[] = {
	&f_status_icc, &f_status_cmd, NULL
};
static const struct dec_field *const slot_bits[] = {
	&f_s0c, &f_s0x, &f_s1c, &f_s1x, &f_s2c, &f_s2x, &f_s3c, &f_s3x, NULL
};

static int
ccid_desc(const struct dec_cls_desc *cd, struct dec_tree *t)
{
	static const struct dec_cur_row desc[] = {
		{ 2, 2, &f_bcd, NULL }, { 4, 1, &f_maxslot, NULL },
		{ 5, 1, &f_volt, volt_bits }, { 6, 4, &f_protos, proto_bits },
		{ 10, 4, &f_defclock, NULL }, { 14, 4, &f_maxclock, NULL },
		{ 18, 1, &f_nclock, NULL }, { 19, 4, &f_rate, NULL },
		{ 23, 4, &f_maxrate, NULL }, { 27, 1, &f_nrates, NULL },
		{ 28, 4, &f_ifsd, NULL }, { 32, 4, &f_synch, NULL },
		{ 36, 4, &f_mech, NULL }, { 40, 4, &f_feat, feat_bits },
		{ 44, 4, &f_maxmsg, NULL }, { 48, 1, &f_getresp, NULL },
		{ 49, 1, &f_envelope, NULL }, { 50, 2, &f_lcd, NULL },
	};
	struct dec_cur	 c = { t, cd->p, cd->n, cd->off, 0 };

	if (cd->p[1] != 0x21)
		return 0;
	cd->label->str = "SMART CARD DEVICE CLASS descriptor";
	dec_cur_rows(&c, desc, sizeof desc / sizeof desc[0]);
	if (c.cut)
		return 1;
	/* wLcdLayout: lines in its high byte, characters in its low */
	t->depth++;
	dec_cur_field(&c, &f_lcd_lines, 51, 1, NULL);
	dec_cur_field(&c, &f_lcd_chars, 50, 1, NULL);
	t->depth--;
	dec_cur_word(&c, &f_pin, pin_bits, 52, 1, NULL);
	dec_cur_field(&c, &f_busy, 53, 1, NULL);
	dec_cur_rest(&c, &f_extra, 54);
	return 1;
}

/* The three bytes after the header, by message type (6.1, 6.2). */
static void
msg_params(struct dec_cur *c, uint8_t type)
{
	static const struct dec_cur_row
	    power_on[] = { { 7, 1, &f_power, NULL },
		{ 8, 2, &f_reserved, NULL } },
	    xfr[] = { { 7, 1, &f_bwi, NULL }, { 8, 2, &f_level, NULL } },
	    set_params[] = { { 7, 1, &f_protonum, NULL },
		{ 8, 2, &f_abrfu, NULL } },
	    rfu[] = { { 7, 3, &f_reserved, NULL } },
	    data_block[] = { { 7, 1, &f_status, status_bits },
		{ 8, 1, &f_error, NULL }, { 9, 1, &f_chain, NULL } },
	    slot_status[] = { { 7, 1, &f_status, status_bits },
		{ 8, 1, &f_error, NULL }, { 9, 1, &f_clock, NULL } },
	    params[] = { { 7, 1, &f_status, status_bits },
		{ 8, 1, &f_error, NULL }, { 9, 1, &f_protonum, NULL } },
	    answer[] = { { 7, 1, &f_status, status_bits },
		{ 8, 1, &f_error, NULL }, { 9, 1, &f_rfu, NULL } };

	switch (type) {
	case 0x62:
		dec_cur_rows(c, power_on, 2);
		break;
	case 0x69:
	case 0x6f:
		dec_cur_rows(c, xfr, 2);
		break;
	case 0x61:
		dec_cur_rows(c, set_params, 2);
		break;
	case 0x80:
		dec_cur_rows(c, data_block, 3);
		break;
	case 0x81:
		dec_cur_rows(c, slot_status, 3);
		break;
	case 0x82:
		dec_cur_rows(c, params, 3);
		break;
	case 0x83:
	case 0x84:
		dec_cur_rows(c, answer, 3);
		break;
	default:
		dec_cur_rows(c, rfu, 1);
		break;
	}
}

static int
ccid_tree(const struct dec_cls_arg *a, struct dec_tree *t)
{
	const struct urb_rec *r = a->r;
	struct dec_cur	 c = { t, r->data, r->data_len, 0, 0 };
	struct dec_node	*n;
	uint32_t	 len;

	if (r->xfer_type == XFER_CTRL || r->data_len == 0)
		return 0;
	dec_tree_push(t, "USB Smart Card", DB_DATA, 0, r->data_len);
	dec_cur_field(&c, &f_type, 0, 1, NULL);
	if (r->xfer_type == XFER_INT) {
		/* 6.3: NotifySlotChange's bitmap, HardwareError's fields */
		if (r->data[0] == 0x51) {
			dec_cur_field(&c, &f_slot, 1, 1, NULL);
			dec_cur_field(&c, &f_seq, 2, 1, NULL);
			dec_cur_field(&c, &f_hwerr, 3, 1, NULL);
		} else if (r->data[0] == 0x50) {
			for (len = 1; len < r->data_len && !c.cut; len++)
				dec_cur_word(&c, &f_slots, slot_bits, len, 1,
				    NULL);
		}
		dec_tree_pop(t);
		return 1;
	}
	dec_cur_field(&c, &f_len, 1, 4, &len);
	dec_cur_field(&c, &f_slot, 5, 1, NULL);
	dec_cur_field(&c, &f_seq, 6, 1, NULL);
	if (!c.cut)
		msg_params(&c, r->data[0]);
	if (!c.cut && r->data_len > 10) {
		n = dec_tree_add(t, &f_data, DB_DATA, 10, r->data_len - 10, 0);
		if (n != NULL && r->data_len - 10 != len &&
		    urb_data_expected(r) <= r->data_len) {
			n->flags |= DN_BAD;
			n->note = "dwLength says otherwise";
		}
	}
	dec_tree_pop(t);
	return 1;
}

static int
ccid_summary(const struct dec_cls_arg *a, struct sbuf *b)
{
	const struct urb_rec *r = a->r;
	const uint8_t	*p = r->data;
	const char	*s;
	char		 tmp[24];
	uint32_t	 len, i;

	if (r->xfer_type == XFER_CTRL)
		return 0;
	sb_puts(b, dec_name_or(ccid_msgs, p[0], tmp));
	if (r->xfer_type == XFER_INT) {
		if (p[0] == 0x50 && r->data_len > 1) {
			/* two bits a slot: present, changed */
			for (i = 0; i < 4 * (r->data_len - 1); i++) {
				if (!((p[1 + i / 4] >> (2 * (i % 4))) & 2))
					continue;
				sb_printf(b, ", slot %u %s", i,
				    (p[1 + i / 4] >> (2 * (i % 4))) & 1 ?
				    "card in" : "card out");
			}
		}
		return 1;
	}
	if (r->data_len < 10)
		return 1;
	len = get_le32(p + 1);
	sb_printf(b, " slot %u seq %u", p[5], p[6]);
	if (p[0] & 0x80) {
		/* an answer: its status */
		sb_puts(b, ": ");
		if ((s = dec_name_find(cmd_status, p[7] >> 6)) != NULL)
			sb_puts(b, s);
		if (p[7] >> 6 == 1)
			sb_printf(b, " (bError 0x%02x)", p[8]);
		if ((s = dec_name_find(icc_status, p[7] & 3)) != NULL) {
			sb_puts(b, ", ");
			sb_puts(b, s);
		}
	}
	if (len > 0) {
		sb_printf(b, ", %u byte%s:", len, len == 1 ? "" : "s");
		for (i = 10; i < r->data_len && i < 10 + 16; i++)
			sb_printf(b, " %02x", p[i]);
		if (r->data_len > 10 + 16)
			sb_puts(b, " ...");
	}
	return 1;
}

/* Smart card (CCID 1.1 4.3: class 0x0b). */
const struct dec_class_ops dec_class_ccid = {
	.name = "smart card",
	.wsproto = "usbccid",
	.cls = 0x0b, .subcls = DEC_CLS_ANY, .proto = DEC_CLS_ANY,
	.summary = ccid_summary,
	.tree = ccid_tree,
	.desc = ccid_desc,
};
