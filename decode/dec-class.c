/*
 * decode/dec-class.c - one-line summaries of class data, dispatched by
 * interface class: mass storage bulk-only transport (CBW/CSW with the SCSI
 * command) and HID boot keyboard reports.
 *
 * Facts: USB Mass Storage Class Bulk-Only Transport 1.0 (CBW 31 bytes
 * "USBC", CSW 13 bytes "USBS"), SCSI SPC/SBC opcodes, HID 1.11 appendix B
 * (boot keyboard report) and HID Usage Tables 1.12 chapter 10 (keyboard
 * page).
 */
#include "decode.h"

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
msc_summary(const struct urb_rec *r, struct sbuf *b)
{
	const uint8_t	*p = r->data;
	char		 tmp[24];
	uint8_t		 op;

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

/* Keyboard page usages 0x04-0x38 (HID Usage Tables 10). */
static const char kbd_chars[] =
    "abcdefghijklmnopqrstuvwxyz1234567890";
static const struct dec_name kbd_keys[] = {
	{ 0x28, "Enter" },
	{ 0x29, "Esc" },
	{ 0x2a, "Backspace" },
	{ 0x2b, "Tab" },
	{ 0x2c, "Space" },
	{ 0x2d, "-" },
	{ 0x2e, "=" },
	{ 0x2f, "[" },
	{ 0x30, "]" },
	{ 0x31, "\\" },
	{ 0x33, ";" },
	{ 0x34, "'" },
	{ 0x35, "`" },
	{ 0x36, "," },
	{ 0x37, "." },
	{ 0x38, "/" },
	{ 0x39, "CapsLock" },
	{ 0x4f, "Right" },
	{ 0x50, "Left" },
	{ 0x51, "Down" },
	{ 0x52, "Up" },
	{ 0x53, "NumLock" },
	{ 0, NULL }
};

static const char *const kbd_mods[8] = {
	"LCtrl", "LShift", "LAlt", "LGUI", "RCtrl", "RShift", "RAlt", "RGUI"
};

/* The boot keyboard report (HID 1.11 B.1): modifiers, reserved, 6 keys. */
static int
hid_kbd_summary(const struct urb_rec *r, struct sbuf *b)
{
	const uint8_t	*p = r->data;
	const char	*name;
	int		 i, any = 0;

	if (r->data_len != 8 || !urb_is_in(r))
		return 0;
	sb_puts(b, "keys");
	for (i = 0; i < 8; i++) {
		if (p[0] & (1 << i)) {
			sb_putc(b, ' ');
			sb_puts(b, kbd_mods[i]);
			any = 1;
		}
	}
	for (i = 2; i < 8; i++) {
		if (p[i] == 0)
			continue;
		sb_putc(b, ' ');
		any = 1;
		if (p[i] >= 0x04 && p[i] <= 0x27)
			sb_putc(b, kbd_chars[p[i] - 0x04]);
		else if ((name = dec_name_find(kbd_keys, p[i])) != NULL)
			sb_puts(b, name);
		else {
			sb_puts(b, "0x");
			sb_hex(b, p[i], 2);
		}
	}
	if (!any)
		sb_puts(b, " released");
	return 1;
}

/* Class decoders by (class, subclass, protocol); 0x100 = any. */
static const struct {
	uint16_t	 cls, subcls, proto;
	int		 (*summary)(const struct urb_rec *, struct sbuf *);
} class_decoders[] = {
	/* HID boot keyboard: subclass 1, protocol 1 (HID 1.11 4.2, 4.3) */
	{ 0x03, 0x01, 0x01, hid_kbd_summary },
	/* Mass storage, bulk-only transport: protocol 0x50 (MSC overview 3) */
	{ 0x08, 0x100, 0x50, msc_summary },
};

int
dec_class_summary(uint8_t cls, uint8_t subcls, uint8_t proto,
    const struct urb_rec *r, struct sbuf *b)
{
	size_t	 i;

	if (r->data_len == 0 || r->xfer_type == XFER_CTRL)
		return 0;
	for (i = 0; i < sizeof class_decoders / sizeof class_decoders[0];
	    i++) {
		if (class_decoders[i].cls == cls &&
		    (class_decoders[i].subcls == 0x100 ||
		    class_decoders[i].subcls == subcls) &&
		    (class_decoders[i].proto == 0x100 ||
		    class_decoders[i].proto == proto))
			return class_decoders[i].summary(r, b);
	}
	return 0;
}
