/*
 * decode/dec-hid.c - HID: report descriptors and the reports they lay
 * out; boot keyboard reports.
 *
 * Facts: HID 1.11 (6.2.2 report descriptor items, appendix B boot
 * reports), HID Usage Tables 1.12 (chapter 10, keyboard page).
 */
#include "class.h"

DEC_FIELD(f_hid_report, "HID report descriptor", NULL, DK_BYTES, 0, NULL,
    0);

void
dec_hid_rdesc_tree(const uint8_t *p, size_t len, int want,
    struct dec_tree *t)
{
	uint8_t	 depth = t->depth;

	(void)p;
	dec_tree_push(t, want == 0x23 ? "HID_PHYSICAL descriptor" :
	    "HID_REPORT descriptor", DB_DATA, 0, (uint32_t)len);
	dec_tree_add(t, &f_hid_report, DB_DATA, 0, (uint32_t)len, 0);
	t->depth = depth;
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
hid_kbd_summary(const struct dec_cls_arg *a, struct sbuf *b)
{
	const struct urb_rec *r = a->r;
	const uint8_t	*p = r->data;
	const char	*name;
	int		 i, any = 0;

	if (r->xfer_type == XFER_CTRL)
		return 0;
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

/* HID boot keyboard: subclass 1, protocol 1 (HID 1.11 4.2, 4.3). */
const struct dec_class_ops dec_class_hid = {
	.name = "HID",
	.cls = 0x03, .subcls = 0x01, .proto = 0x01,
	.summary = hid_kbd_summary,
};
