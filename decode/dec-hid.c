/*
 * decode/dec-hid.c - HID: report descriptors (their items as a tree, and
 * the layout of the reports they describe), the reports themselves
 * (interrupt data, GET_REPORT answers, SET_REPORT data) decoded by the
 * layout learnt for the interface, boot protocol reports when no layout
 * is known, and the text a keyboard types.
 *
 * Facts: HID 1.11 (5.8 report format, 6.2.2 report descriptor items,
 * 7.2 class requests, appendix B boot reports), HID Usage Tables 1.12
 * (names in dec-hid-usages.c).
 *
 * The fields are Wireshark's (epan/dissectors/packet-usb-hid.c, as
 * tshark 4.0 fills them): the items' usbhid.item.*, the reports'
 * usbhid.data.*.  Where tshark 4.0 reads a descriptor against HID 1.11,
 * urbscope follows HID 1.11 and the hosts (Linux drivers/hid/hid-core.c):
 * a 2-byte Usage is little-endian (tshark reads it big-endian), 0xFE
 * starts a long item (tshark never sees one), an item without data is
 * 0 (tshark throws), a Logical Maximum after a non-negative Logical
 * Minimum is unsigned ("25 ff" is 255, as Linux reads it; tshark's -1
 * makes every key of such a keyboard "No controls asserted"), Push and
 * Pop work, Feature items are laid out, and a Report Count beyond the
 * usages repeats the last usage (HID 1.11 6.2.2.8; tshark pads).  The
 * usbhid.data.array.usage value, a boolean in Wireshark, is kept as
 * tshark computes it, so that -T fields agree.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "class.h"

/* ------------------------------------------------------------------------
 * Fields.
 */
#define F DEC_FIELD

static const struct dec_name bsize_names[] = {
	{ 0, "0 bytes" }, { 1, "1 byte" }, { 2, "2 bytes" }, { 3, "4 bytes" },
	{ 0, NULL }
};
static const struct dec_name btype_names[] = {
	{ 0, "Main" }, { 1, "Global" }, { 2, "Local" }, { 3, "Long item" },
	{ 0, NULL }
};
/* HID 1.11 6.2.2.4, 6.2.2.7, 6.2.2.8: the tags of each item type. */
static const struct dec_name main_tags[] = {
	{ 8, "Input" }, { 9, "Output" }, { 10, "Collection" },
	{ 11, "Feature" }, { 12, "End Collection" }, { 0, NULL }
};
static const struct dec_name global_tags[] = {
	{ 0, "Usage Page" }, { 1, "Logical Minimum" },
	{ 2, "Logical Maximum" }, { 3, "Physical Minimum" },
	{ 4, "Physical Maximum" }, { 5, "Unit Exponent" }, { 6, "Unit" },
	{ 7, "Report Size" }, { 8, "Report ID" }, { 9, "Report Count" },
	{ 10, "Push" }, { 11, "Pop" }, { 12, "[Reserved]" },
	{ 13, "[Reserved]" }, { 14, "[Reserved]" }, { 15, "[Reserved]" },
	{ 0, NULL }
};
static const struct dec_name local_tags[] = {
	{ 0, "Usage" }, { 1, "Usage Minimum" }, { 2, "Usage Maximum" },
	{ 3, "Designator Index" }, { 4, "Designator Minimum" },
	{ 5, "Designator Maximum" }, { 7, "String Index" },
	{ 8, "String Minimum" }, { 9, "String Maximum" }, { 10, "Delimiter" },
	{ 11, "[Reserved]" }, { 12, "[Reserved]" }, { 13, "[Reserved]" },
	{ 14, "[Reserved]" }, { 15, "[Reserved]" }, { 0, NULL }
};
static const struct dec_name long_tags[] = {
	{ 15, "Long item" }, { 0, NULL }
};
static const struct dec_name *const tag_names[4] = {
	main_tags, global_tags, local_tags, long_tags
};
/* HID 1.11 6.2.2.6 */
static const struct dec_name coll_types[] = {
	{ 0, "Physical" }, { 1, "Application" }, { 2, "Logical" },
	{ 3, "Report" }, { 4, "Named array" }, { 5, "Usage switch" },
	{ 6, "Usage modifier" }, { 0, NULL }
};
/* HID 1.11 6.2.2.7, Unit: the system nibble, then exponents. */
static const struct dec_name unit_systems[] = {
	{ 0, "None" }, { 1, "SI Linear" }, { 2, "SI Rotation" },
	{ 3, "English Linear" }, { 4, "English Rotation" },
	{ 0xf, "Vendor-defined" }, { 0, NULL }
};
static const struct dec_name unit_exps[] = {
	{ 0x0, "n^0" }, { 0x1, "n^1" }, { 0x2, "n^2" }, { 0x3, "n^3" },
	{ 0x4, "n^4" }, { 0x5, "n^5" }, { 0x6, "n^6" }, { 0x7, "n^7" },
	{ 0x8, "n^-8" }, { 0x9, "n^-7" }, { 0xa, "n^-6" }, { 0xb, "n^-5" },
	{ 0xc, "n^-4" }, { 0xd, "n^-3" }, { 0xe, "n^-2" }, { 0xf, "n^-1" },
	{ 0, NULL }
};
/* The main item data bits' two meanings (HID 1.11 6.2.2.5). */
#define TF(name, f, t) \
	static const struct dec_name name[] = { { 0, f }, { 1, t }, \
	    { 0, NULL } }
TF(tf_const, "Data", "Constant");
TF(tf_var, "Array", "Variable");
TF(tf_rel, "Absolute", "Relative");
TF(tf_wrap, "No Wrap", "Wrap");
TF(tf_linear, "Linear", "Non Linear");
TF(tf_pref, "Preferred State", "No Preferred");
TF(tf_null, "No Null position", "Null state");
TF(tf_vol, "Non Volatile", "Volatile");
TF(tf_buf, "Bit Field", "Buffered Bytes");
TF(tf_updown, "UP", "DOWN");

F(f_rdesc_bytes, "HID physical descriptor", NULL, DK_BYTES, 0, NULL, 0);

/* The item header (HID 1.11 6.2.2.2). */
F(f_bsize, "bSize", "usbhid.item.bSize", DK_UINT, 1, bsize_names, 0x03);
F(f_btype, "bType", "usbhid.item.bType", DK_UINT, 1, btype_names, 0x0c);
F(f_btag_main, "bTag", "usbhid.item.bTag", DK_HEX, 1, main_tags, 0xf0);
F(f_btag_global, "bTag", "usbhid.item.bTag", DK_HEX, 1, global_tags,
    0xf0);
F(f_btag_local, "bTag", "usbhid.item.bTag", DK_HEX, 1, local_tags, 0xf0);
F(f_btag_long, "bTag", "usbhid.item.bTag", DK_HEX, 1, long_tags, 0xf0);
static const struct dec_field *const btag_fields[4] = {
	&f_btag_main, &f_btag_global, &f_btag_local, &f_btag_long
};
/* A long item (HID 1.11 6.2.2.3). */
F(f_datasize, "bDataSize", "usbhid.item.bDataSize", DK_UINT, 1, NULL, 0);
F(f_longtag, "bTag", "usbhid.item.bLongItemTag", DK_HEX, 1, NULL, 0);
F(f_item_data, "Item data", "usbhid.item.data", DK_BYTES, 0, NULL, 0);
/* tshark's text for the data of an item of no bytes */
F(f_item_none, "Item data", "usbhid.item.data", DK_STRING, 0, NULL, 0);

/* Main items. */
F(f_m_const, "Data/constant", "usbhid.item.main.readonly", DK_BOOL, 2,
    tf_const, 0x001);
F(f_m_var, "Data type", "usbhid.item.main.variable", DK_BOOL, 2, tf_var,
    0x002);
F(f_m_rel, "Coordinates", "usbhid.item.main.relative", DK_BOOL, 2, tf_rel,
    0x004);
F(f_m_wrap, "Min/max wraparound", "usbhid.item.main.wrap", DK_BOOL, 2,
    tf_wrap, 0x008);
F(f_m_linear, "Physical relationship to data",
    "usbhid.item.main.nonlinear", DK_BOOL, 2, tf_linear, 0x010);
F(f_m_pref, "Preferred state", "usbhid.item.main.no_preferred_state",
    DK_BOOL, 2, tf_pref, 0x020);
F(f_m_null, "Has null position", "usbhid.item.main.nullstate", DK_BOOL, 2,
    tf_null, 0x040);
F(f_m_vol, "(Non)-volatile", "usbhid.item.main.volatile", DK_BOOL, 2,
    tf_vol, 0x080);
F(f_m_res, "[Reserved]", "usbhid.item.main.reserved", DK_BOOL, 2, NULL,
    0x080);
F(f_m_buf, "Bits or bytes", "usbhid.item.main.buffered_bytes", DK_BOOL, 2,
    tf_buf, 0x100);
F(f_colltype, "Collection type", "usbhid.item.main.colltype", DK_HEX, 1,
    coll_types, 0);
F(f_colltype_x, "Collection type", "usbhid.item.main.colltype", DK_HEX, 1,
    NULL, 0);

/* Global items. */
F(f_page, "Usage Page", "usbhid.item.global.usage", DK_HEX, 1,
    dec_hid_pages, 0);
F(f_page_x, "Usage Page", "usbhid.item.global.usage", DK_HEX, 1, NULL, 0);
F(f_lmin, "Logical minimum", "usbhid.item.global.log_min", DK_INT, 4, NULL,
    0);
F(f_lmax, "Logical maximum", "usbhid.item.global.log_max", DK_INT, 4, NULL,
    0);
F(f_pmin, "Physical minimum", "usbhid.item.global.phy_min", DK_INT, 4,
    NULL, 0);
F(f_pmax, "Physical maximum", "usbhid.item.global.phy_max", DK_INT, 4,
    NULL, 0);
F(f_uexp, "Unit exponent", "usbhid.item.global.unit_exp", DK_UINT, 1, NULL,
    0);
F(f_unit_sys, "System", "usbhid.item.global.unit.system", DK_HEX, 4,
    unit_systems, 0x0000000f);
F(f_unit_len, "Length", "usbhid.item.global.unit.length", DK_HEX, 4,
    unit_exps, 0x000000f0);
F(f_unit_mass, "Mass", "usbhid.item.global.unit.mass", DK_HEX, 4,
    unit_exps, 0x00000f00);
F(f_unit_time, "Time", "usbhid.item.global.unit.time", DK_HEX, 4,
    unit_exps, 0x0000f000);
F(f_unit_temp, "Temperature", "usbhid.item.global.unit.temperature",
    DK_HEX, 4, unit_exps, 0x000f0000);
F(f_unit_cur, "Current", "usbhid.item.global.unit.current", DK_HEX, 4,
    unit_exps, 0x00f00000);
F(f_unit_lum, "Luminous intensity", "usbhid.item.global.unit.brightness",
    DK_HEX, 4, unit_exps, 0x0f000000);
static const struct dec_field *const unit_fields[7] = {
	&f_unit_sys, &f_unit_len, &f_unit_mass, &f_unit_time, &f_unit_temp,
	&f_unit_cur, &f_unit_lum
};
F(f_rsize, "Report size", "usbhid.item.global.report_size", DK_UINT, 1,
    NULL, 0);
F(f_rid, "Report ID", "usbhid.item.global.report_id", DK_HEX, 1, NULL, 0);
F(f_rcount, "Report count", "usbhid.item.global.report_count", DK_UINT, 1,
    NULL, 0);
F(f_push, "Push", "usbhid.item.global.push", DK_HEX, 1, NULL, 0);
F(f_pop, "Pop", "usbhid.item.global.pop", DK_HEX, 1, NULL, 0);

/* Local items. */
F(f_usage, "Usage", "usbhid.item.local.usage", DK_HEX, 1, NULL, 0);
F(f_umin, "Usage minimum", "usbhid.item.local.usage_min", DK_HEX, 1, NULL,
    0);
F(f_umax, "Usage maximum", "usbhid.item.local.usage_max", DK_HEX, 1, NULL,
    0);
F(f_dindex, "Designator index", "usbhid.item.local.desig_index", DK_HEX, 1,
    NULL, 0);
F(f_dmin, "Designator minimum", "usbhid.item.local.desig_min", DK_HEX, 1,
    NULL, 0);
F(f_dmax, "Designator maximum", "usbhid.item.local.desig_max", DK_HEX, 1,
    NULL, 0);
F(f_sindex, "String index", "usbhid.item.local.string_index", DK_HEX, 1,
    NULL, 0);
F(f_smin, "String minimum", "usbhid.item.local.string_min", DK_HEX, 1,
    NULL, 0);
F(f_smax, "String maximum", "usbhid.item.local.string_max", DK_HEX, 1,
    NULL, 0);
F(f_delim, "Delimiter", "usbhid.item.local.delimiter", DK_HEX, 1, NULL, 0);
/* by tag; NULL: no field of its own (item data) */
static const struct dec_field *const local_fields[16] = {
	&f_usage, &f_umin, &f_umax, &f_dindex, &f_dmin, &f_dmax, NULL,
	&f_sindex, &f_smin, &f_smax, &f_delim
};

/* Reports (usbhid.data: what Wireshark's dissect_usb_hid_data shows). */
F(f_data, "HID Data", "usbhid.data", DK_BYTES, 0, NULL, 0);
F(f_data_rid, "Report ID", "usbhid.data.report_id", DK_HEX, 1, NULL, 0);
F(f_pad, "Padding", "usbhid.data.padding", DK_BYTES, 0, NULL, 0);
F(f_pad_s, "Padding", "usbhid.data.padding", DK_STRING, 0, NULL, 0);
F(f_vendor, "Vendor Data", "usbhid.data.vendor", DK_BYTES, 0, NULL, 0);
F(f_vendor_s, "Vendor Data", "usbhid.data.vendor", DK_STRING, 0, NULL, 0);
F(f_array, "Array", "usbhid.data.array", DK_BYTES, 0, NULL, 0);
F(f_array_s, "Array", "usbhid.data.array", DK_STRING, 0, NULL, 0);
F(f_array_usage, "Usage", "usbhid.data.array.usage", DK_UINT, 1, NULL, 0);
F(f_key, "Key", "usbhid.data.key.variable", DK_BOOL, 0, tf_updown, 0);
F(f_button, "Button", "usbhid.data.button", DK_BOOL, 0, tf_updown, 0);
/* a control of a page Wireshark has no field for: its usage, value in
 * the note */
F(f_ctl_usage, "Usage", "usbhid.item.local.usage", DK_HEX, 1, NULL, 0);
F(f_ax_x, "X Axis", "usbhid.data.axis.x", DK_INT, 4, NULL, 0);
F(f_ax_y, "Y Axis", "usbhid.data.axis.y", DK_INT, 4, NULL, 0);
F(f_ax_z, "Z Axis", "usbhid.data.axis.z", DK_INT, 4, NULL, 0);
F(f_ax_rx, "Rx Axis", "usbhid.data.axis.rx", DK_INT, 4, NULL, 0);
F(f_ax_ry, "Ry Axis", "usbhid.data.axis.ry", DK_INT, 4, NULL, 0);
F(f_ax_rz, "Rz Axis", "usbhid.data.axis.rz", DK_INT, 4, NULL, 0);
F(f_ax_slider, "Slider Axis", "usbhid.data.axis.slider", DK_INT, 4, NULL,
    0);
F(f_ax_vx, "Vx Axis", "usbhid.data.axis.vx", DK_INT, 4, NULL, 0);
F(f_ax_vy, "Vy Axis", "usbhid.data.axis.vy", DK_INT, 4, NULL, 0);
F(f_ax_vz, "Vz Axis", "usbhid.data.axis.vz", DK_INT, 4, NULL, 0);
F(f_ax_vbrx, "Vbrx Axis", "usbhid.data.axis.vbrx", DK_INT, 4, NULL, 0);
F(f_ax_vbry, "Vbry Axis", "usbhid.data.axis.vbry", DK_INT, 4, NULL, 0);
F(f_ax_vbrz, "Vbrz Axis", "usbhid.data.axis.vbrz", DK_INT, 4, NULL, 0);
F(f_ax_vno, "Vno Axis", "usbhid.data.axis.vno", DK_INT, 4, NULL, 0);

/* Generic Desktop usages 0x30-0x36 and 0x40-0x46: Wireshark's axes. */
static const struct dec_field *
axis_field(uint32_t id)
{
	static const struct dec_field *const lo[7] = {
		&f_ax_x, &f_ax_y, &f_ax_z, &f_ax_rx, &f_ax_ry, &f_ax_rz,
		&f_ax_slider
	};
	static const struct dec_field *const hi[7] = {
		&f_ax_vx, &f_ax_vy, &f_ax_vz, &f_ax_vbrx, &f_ax_vbry,
		&f_ax_vbrz, &f_ax_vno
	};

	if (id >= 0x30 && id <= 0x36)
		return lo[id - 0x30];
	if (id >= 0x40 && id <= 0x46)
		return hi[id - 0x40];
	return NULL;
}

/* Boot protocol reports (HID 1.11 appendix B), when no report
 * descriptor is known. */
F(f_bk_rgui, "Modifier: RIGHT GUI",
    "usbhid.boot_report.keyboard.modifier.right_gui", DK_BOOL, 1, NULL,
    0x80);
F(f_bk_ralt, "Modifier: RIGHT ALT",
    "usbhid.boot_report.keyboard.modifier.right_alt", DK_BOOL, 1, NULL,
    0x40);
F(f_bk_rshift, "Modifier: RIGHT SHIFT",
    "usbhid.boot_report.keyboard.modifier.right_shift", DK_BOOL, 1, NULL,
    0x20);
F(f_bk_rctrl, "Modifier: RIGHT CTRL",
    "usbhid.boot_report.keyboard.modifier.right_ctrl", DK_BOOL, 1, NULL,
    0x10);
F(f_bk_lgui, "Modifier: LEFT GUI",
    "usbhid.boot_report.keyboard.modifier.left_gui", DK_BOOL, 1, NULL,
    0x08);
F(f_bk_lalt, "Modifier: LEFT ALT",
    "usbhid.boot_report.keyboard.modifier.left_alt", DK_BOOL, 1, NULL,
    0x04);
F(f_bk_lshift, "Modifier: LEFT SHIFT",
    "usbhid.boot_report.keyboard.modifier.left_shift", DK_BOOL, 1, NULL,
    0x02);
F(f_bk_lctrl, "Modifier: LEFT CTRL",
    "usbhid.boot_report.keyboard.modifier.left_ctrl", DK_BOOL, 1, NULL,
    0x01);
static const struct dec_field *const bk_mods[8] = {
	&f_bk_rgui, &f_bk_ralt, &f_bk_rshift, &f_bk_rctrl, &f_bk_lgui,
	&f_bk_lalt, &f_bk_lshift, &f_bk_lctrl
};
F(f_bk_res, "Reserved", "usbhid.boot_report.keyboard.reserved", DK_HEX, 1,
    NULL, 0);
F(f_bk_key1, "Keycode 1", "usbhid.boot_report.keyboard.keycode_1", DK_HEX,
    1, NULL, 0);
F(f_bk_key2, "Keycode 2", "usbhid.boot_report.keyboard.keycode_2", DK_HEX,
    1, NULL, 0);
F(f_bk_key3, "Keycode 3", "usbhid.boot_report.keyboard.keycode_3", DK_HEX,
    1, NULL, 0);
F(f_bk_key4, "Keycode 4", "usbhid.boot_report.keyboard.keycode_4", DK_HEX,
    1, NULL, 0);
F(f_bk_key5, "Keycode 5", "usbhid.boot_report.keyboard.keycode_5", DK_HEX,
    1, NULL, 0);
F(f_bk_key6, "Keycode 6", "usbhid.boot_report.keyboard.keycode_6", DK_HEX,
    1, NULL, 0);
static const struct dec_field *const bk_keys[6] = {
	&f_bk_key1, &f_bk_key2, &f_bk_key3, &f_bk_key4, &f_bk_key5,
	&f_bk_key6
};
F(f_bl_const, "Constants", "usbhid.boot_report.keyboard.leds.constants",
    DK_HEX, 1, NULL, 0xe0);
F(f_bl_kana, "KANA", "usbhid.boot_report.keyboard.leds.kana", DK_BOOL, 1,
    NULL, 0x10);
F(f_bl_compose, "COMPOSE", "usbhid.boot_report.keyboard.leds.compose",
    DK_BOOL, 1, NULL, 0x08);
F(f_bl_scroll, "SCROLL LOCK", "usbhid.boot_report.keyboard.leds.scroll_lock",
    DK_BOOL, 1, NULL, 0x04);
F(f_bl_caps, "CAPS LOCK", "usbhid.boot_report.keyboard.leds.caps_lock",
    DK_BOOL, 1, NULL, 0x02);
F(f_bl_num, "NUM LOCK", "usbhid.boot_report.keyboard.leds.num_lock",
    DK_BOOL, 1, NULL, 0x01);
static const struct dec_field *const bl_leds[6] = {
	&f_bl_const, &f_bl_kana, &f_bl_compose, &f_bl_scroll, &f_bl_caps,
	&f_bl_num
};
F(f_bm_b8, "Button 8", "usbhid.boot_report.mouse.button.8", DK_BOOL, 1,
    NULL, 0x80);
F(f_bm_b7, "Button 7", "usbhid.boot_report.mouse.button.7", DK_BOOL, 1,
    NULL, 0x40);
F(f_bm_b6, "Button 6", "usbhid.boot_report.mouse.button.6", DK_BOOL, 1,
    NULL, 0x20);
F(f_bm_b5, "Button 5", "usbhid.boot_report.mouse.button.5", DK_BOOL, 1,
    NULL, 0x10);
F(f_bm_b4, "Button 4", "usbhid.boot_report.mouse.button.4", DK_BOOL, 1,
    NULL, 0x08);
F(f_bm_mid, "Button Middle", "usbhid.boot_report.mouse.button.middle",
    DK_BOOL, 1, NULL, 0x04);
F(f_bm_right, "Button Right", "usbhid.boot_report.mouse.button.right",
    DK_BOOL, 1, NULL, 0x02);
F(f_bm_left, "Button Left", "usbhid.boot_report.mouse.button.left",
    DK_BOOL, 1, NULL, 0x01);
static const struct dec_field *const bm_buttons[8] = {
	&f_bm_b8, &f_bm_b7, &f_bm_b6, &f_bm_b5, &f_bm_b4, &f_bm_mid,
	&f_bm_right, &f_bm_left
};
F(f_bm_x, "X Displacement", "usbhid.boot_report.mouse.x_displacement",
    DK_INT, 1, NULL, 0);
F(f_bm_y, "Y Displacement", "usbhid.boot_report.mouse.y_displacement",
    DK_INT, 1, NULL, 0);
F(f_bm_wheel, "Vertical Scroll Wheel",
    "usbhid.boot_report.mouse.scroll_wheel.vertical", DK_INT, 1, NULL, 0);
F(f_bm_pan, "Horizontal Scroll Wheel",
    "usbhid.boot_report.mouse.scroll_wheel.horizontal", DK_INT, 1, NULL,
    0);

#undef F

/* ------------------------------------------------------------------------
 * Items (HID 1.11 6.2.2.2, 6.2.2.3).
 */
struct item {
	uint32_t	 off;		/* of its prefix */
	uint32_t	 n;		/* bytes present, prefix included */
	uint32_t	 doff;		/* of its data */
	uint32_t	 dsize;		/* data bytes it claims */
	uint32_t	 dn;		/* data bytes present */
	uint8_t		 prefix;
	uint8_t		 type;		/* 0 main 1 global 2 local 3 reserved */
	uint8_t		 tag;
	uint8_t		 is_long;	/* 0xFE: bDataSize, bLongItemTag */
	uint8_t		 ltag;
	uint8_t		 cut;		/* the data ends inside it */
	uint32_t	 u;		/* short item: its data, unsigned */
	int32_t		 s;		/* and signed (by its size) */
};

/* The item at *off of p[0..len), *off moved past it; 0 at the end. */
static int
item_next(const uint8_t *p, size_t len, size_t *off, struct item *it)
{
	size_t	 o = *off, left, want, hdr;
	uint32_t i;

	if (o >= len)
		return 0;
	left = len - o;
	memset(it, 0, sizeof *it);
	it->off = (uint32_t)o;
	it->prefix = p[o];
	it->type = (p[o] >> 2) & 3;
	it->tag = p[o] >> 4;
	if (p[o] == 0xfe) {
		it->is_long = 1;
		hdr = 3;
		it->dsize = left > 1 ? p[o + 1] : 0;
		it->ltag = left > 2 ? p[o + 2] : 0;
		want = left > 1 ? hdr + it->dsize : hdr;
	} else {
		hdr = 1;
		it->dsize = (p[o] & 3) == 3 ? 4 : p[o] & 3;
		want = hdr + it->dsize;
	}
	it->n = (uint32_t)(want < left ? want : left);
	it->cut = want > left;
	it->doff = (uint32_t)(o + (hdr < left ? hdr : left));
	it->dn = it->n > hdr ? it->n - (uint32_t)hdr : 0;
	if (!it->is_long) {
		for (i = 0; i < it->dn; i++)
			it->u |= (uint32_t)p[it->doff + i] << (8 * i);
		if (it->dn == 1)
			it->s = (int8_t)it->u;
		else if (it->dn == 2)
			it->s = (int16_t)it->u;
		else
			it->s = (int32_t)it->u;
		if (it->cut)		/* a cut value means nothing */
			it->u = 0, it->s = 0;
	}
	*off = o + it->n;
	return 1;
}

/* Unit Exponent (HID 1.11 6.2.2.7): a 4-bit signed nibble, or, as hosts
 * take a bigger value, signed by its size. */
static int32_t
unit_exponent(const struct item *it)
{
	if (it->u <= 15)
		return it->u >= 8 ? (int32_t)it->u - 16 : (int32_t)it->u;
	return it->s;
}

/* ------------------------------------------------------------------------
 * The items tree, nested by collection as tshark nests it: each item a
 * subtree (its name and value), its header's bit fields in "Header",
 * the items of a collection under the collection, End Collection last.
 */
#define NEST_MAX	24	/* collections shown nested */

struct rtree {
	struct dec_tree	*t;
	const uint8_t	*p;
	uint32_t	 page;		/* the Usage Page in effect */
	uint32_t	 pages[8];	/* pushed pages */
	unsigned	 npush;
	size_t		 open[NEST_MAX];	/* label nodes of the open
						   collections (index + 1) */
	unsigned	 nest;		/* collections open */
	char		 name[96];
};

static struct dec_node *
dnode(struct rtree *rt, const struct dec_field *f, const struct item *it,
    uint64_t v)
{
	return dec_tree_add(rt->t, f, DB_DATA, it->doff, it->dn, v);
}

static void
bits_of(struct rtree *rt, const struct dec_field *f, uint32_t off,
    uint32_t len, uint32_t raw)
{
	dec_tree_add(rt->t, f, DB_DATA, off, len,
	    dec_mask_value(raw, f->mask));
}

/* The name of an item, as tshark's heading of its subtree has it. */
static const char *
item_label(struct rtree *rt, const struct item *it)
{
	const char	*n, *s;
	char		 u[80];
	uint32_t	 v = it->u;

	if (it->is_long)
		return "Long item";
	n = dec_name_find(tag_names[it->type], it->tag);
	if (n == NULL || (it->type == 3 && it->tag == 15))
		return dec_tree_printf(rt->t, "Unknown/%u tag%s", it->tag,
		    it->type == 3 ? "" : " (Unknown)");
	switch (it->type) {
	case 0:
		switch (it->tag) {
		case 8: case 9: case 11:
			return dec_tree_printf(rt->t, "%s (%s,%s,%s%s%s%s%s%s%s)",
			    n, v & 1 ? "Const" : "Data", v & 2 ? "Var" :
			    "Array", v & 4 ? "Rel" : "Abs",
			    v & 8 ? ",Wrap" : "", v & 0x10 ? ",NonLinear" : "",
			    v & 0x20 ? ",NoPref" : "", v & 0x40 ? ",Null" : "",
			    it->tag != 8 && (v & 0x80) ? ",Volatile" : "",
			    v & 0x100 ? ",BuffBytes" : "");
		case 10:
			if ((s = dec_name_find(coll_types, v)) == NULL)
				s = v < 0x80 ? "[Reserved]" : v <= 0xff ?
				    "[Vendor-defined]" : "Unknown";
			return dec_tree_printf(rt->t, "%s (%s)", n, s);
		}
		return n;
	case 1:
		switch (it->tag) {
		case 0:
			return dec_tree_printf(rt->t, "%s (%s)", n,
			    dec_hid_page_name(v));
		case 1: case 2: case 3: case 4:
			return dec_tree_printf(rt->t, "%s (%d)", n, it->s);
		case 5:
			return dec_tree_printf(rt->t, "%s (%d)", n,
			    unit_exponent(it));
		case 6:
			return dec_tree_printf(rt->t, "%s (0x%02x)", n,
			    v & 0xff);
		case 7: case 9:
			return dec_tree_printf(rt->t, "%s (%u)", n, v);
		case 8:
			return dec_tree_printf(rt->t, "%s (0x%02x)", n, v);
		case 10: case 11:
			if (it->dsize == 0)
				return n;
			return dec_tree_printf(rt->t, "%s (%u)", n, v);
		}
		return dec_tree_printf(rt->t, "%s (Unknown)", n);
	case 2:
		if (it->tag == 0) {
			if (it->dsize == 4)
				dec_hid_usage_name(v >> 16, v & 0xffff, u,
				    sizeof u);
			else
				dec_hid_usage_name(rt->page, v, u, sizeof u);
			return dec_tree_printf(rt->t, "%s (%s)", n, u);
		}
		if (local_fields[it->tag] == NULL)
			return dec_tree_printf(rt->t, "%s (Unknown)", n);
		return dec_tree_printf(rt->t, "%s (0x%02x)", n, v);
	}
	return n;
}

/* The value of a short item, by its type and tag. */
static void
item_value(struct rtree *rt, const struct item *it)
{
	struct dec_tree	*t = rt->t;
	struct dec_node	*n;
	const char	*s;
	char		 u[80];
	uint32_t	 v = it->u, page;
	unsigned	 i;

	switch (it->type) {
	case 0:
		switch (it->tag) {
		case 8: case 9: case 11:
			bits_of(rt, &f_m_const, it->doff, it->dn, v);
			bits_of(rt, &f_m_var, it->doff, it->dn, v);
			bits_of(rt, &f_m_rel, it->doff, it->dn, v);
			bits_of(rt, &f_m_wrap, it->doff, it->dn, v);
			bits_of(rt, &f_m_linear, it->doff, it->dn, v);
			bits_of(rt, &f_m_pref, it->doff, it->dn, v);
			bits_of(rt, &f_m_null, it->doff, it->dn, v);
			bits_of(rt, it->tag == 8 ? &f_m_res : &f_m_vol,
			    it->doff, it->dn, v);
			if (it->dsize > 1)
				bits_of(rt, &f_m_buf, it->doff, it->dn, v);
			else if ((n = dec_tree_add(t, &f_m_buf, DB_DATA,
			    it->doff, 0, 0)) != NULL)
				n->note = "default, no second byte present";
			return;
		case 10:
			s = dec_name_find(coll_types, v);
			n = dnode(rt, s != NULL ? &f_colltype : &f_colltype_x,
			    it, v);
			if (n != NULL && s == NULL)
				n->note = v < 0x80 ? "Reserved" : v <= 0xff ?
				    "Vendor-defined" : "Unknown";
			return;
		case 12:
			return;		/* no data */
		}
		break;
	case 1:
		switch (it->tag) {
		case 0:
			rt->page = v;
			if (dec_name_find(dec_hid_pages, v) != NULL)
				dnode(rt, &f_page, it, v);
			else if ((n = dnode(rt, &f_page_x, it, v)) != NULL)
				n->note = dec_hid_page_name(v);
			return;
		case 1: case 2: case 3: case 4:
			dnode(rt, it->tag == 1 ? &f_lmin : it->tag == 2 ?
			    &f_lmax : it->tag == 3 ? &f_pmin : &f_pmax, it,
			    (uint64_t)(int64_t)it->s);
			return;
		case 5:
			if ((n = dnode(rt, &f_uexp, it, v)) != NULL)
				n->note = dec_tree_printf(t, "10^%d",
				    unit_exponent(it));
			return;
		case 6:
			for (i = 0; i < 7; i++)
				bits_of(rt, unit_fields[i], it->doff, it->dn,
				    v);
			return;
		case 7:
			dnode(rt, &f_rsize, it, v);
			return;
		case 8:
			dnode(rt, &f_rid, it, v);
			return;
		case 9:
			dnode(rt, &f_rcount, it, v);
			return;
		case 10:
			if (rt->npush < 8)
				rt->pages[rt->npush] = rt->page;
			rt->npush++;
			if (it->dsize > 0)
				dnode(rt, &f_push, it, v);
			return;
		case 11:
			if (rt->npush > 0 && --rt->npush < 8)
				rt->page = rt->pages[rt->npush];
			if (it->dsize > 0)
				dnode(rt, &f_pop, it, v);
			return;
		}
		break;
	case 2:
		if (local_fields[it->tag] == NULL)
			break;
		n = dnode(rt, local_fields[it->tag], it, v);
		if (n == NULL || it->tag > 2)
			return;
		page = it->dsize == 4 ? v >> 16 : rt->page;
		dec_hid_usage_name(page, it->dsize == 4 ? v & 0xffff : v, u,
		    sizeof u);
		n->note = dec_tree_strdup(t, u, strlen(u));
		return;
	}
	/* the tags HID 1.11 does not define: their data as bytes */
	if (it->dn > 0)
		dnode(rt, &f_item_data, it, 0);
	else if ((n = dnode(rt, &f_item_none, it, 0)) != NULL)
		n->str = "<MISSING>";
}

void
dec_hid_rdesc_tree(const uint8_t *p, size_t len, int want,
    struct dec_tree *t)
{
	struct rtree	 rt;
	struct item	 it;
	struct dec_node	*lab, *n;
	uint8_t		 depth = t->depth, d;
	size_t		 off = 0, i;

	if (want == 0x23) {
		/* physical descriptors: sets of designators, not items
		 * (HID 1.11 6.2.3); their bytes */
		dec_tree_push(t, "HID_PHYSICAL descriptor", DB_DATA, 0,
		    (uint32_t)len);
		dec_tree_add(t, &f_rdesc_bytes, DB_DATA, 0, (uint32_t)len, 0);
		t->depth = depth;
		return;
	}
	memset(&rt, 0, sizeof rt);
	rt.t = t;
	rt.p = p;
	dec_tree_push(t, "HID_REPORT descriptor", DB_DATA, 0, (uint32_t)len);
	while (item_next(p, len, &off, &it)) {
		d = t->depth;
		lab = dec_tree_push(t, item_label(&rt, &it), DB_DATA, it.off,
		    it.n);
		dec_tree_push(t, "Header", DB_DATA, it.off, 1);
		bits_of(&rt, &f_bsize, it.off, 1, it.prefix);
		bits_of(&rt, &f_btype, it.off, 1, it.prefix);
		bits_of(&rt, btag_fields[it.type], it.off, 1, it.prefix);
		dec_tree_pop(t);
		if (it.is_long) {
			if (it.n > 1)
				dec_tree_add(t, &f_datasize, DB_DATA,
				    it.off + 1, 1, it.dsize);
			if (it.n > 2)
				dec_tree_add(t, &f_longtag, DB_DATA,
				    it.off + 2, 1, it.ltag);
			if (it.dn > 0)
				dec_tree_add(t, &f_item_data, DB_DATA,
				    it.doff, it.dn, 0);
		} else if (!it.cut)
			item_value(&rt, &it);
		else if (it.dn > 0)
			dec_tree_add(t, &f_item_data, DB_DATA, it.doff, it.dn,
			    0);
		if (it.cut && lab != NULL) {
			lab->flags |= DN_CUT;
			lab->note = dec_tree_printf(t, "cut short: %u of %u "
			    "data bytes", it.dn, it.dsize);
		}
		t->depth = d;
		if (it.is_long || it.cut || it.type != 0)
			continue;
		if (it.tag == 10) {
			/* the items up to its End Collection go under it */
			if (rt.nest < NEST_MAX) {
				rt.open[rt.nest] = lab != NULL ?
				    (size_t)(lab - t->node) + 1 : 0;
				t->depth = (uint8_t)(d + 1);
			} else if (lab != NULL) {
				lab->flags |= DN_BAD;
				lab->note = "collections nested too deep to "
				    "show nested";
			}
			rt.nest++;
		} else if (it.tag == 12) {
			if (rt.nest == 0) {
				if (lab != NULL) {
					lab->flags |= DN_BAD;
					lab->note = "closes no collection";
				}
				continue;
			}
			if (--rt.nest < NEST_MAX && t->depth > depth + 1)
				t->depth--;
		}
	}
	for (i = 0; i < rt.nest && i < NEST_MAX; i++) {
		if (rt.open[i] == 0)
			continue;
		n = &t->node[rt.open[i] - 1];
		n->flags |= DN_BAD;
		n->note = "no End Collection";
	}
	t->depth = depth;
}

/* ------------------------------------------------------------------------
 * The layout (HID 1.11 6.2.2, 8.4; Linux hid-core.c reads it alike).
 */
struct globals {
	uint32_t	 page;
	int32_t		 lmin;
	uint32_t	 lmax_u;	/* Logical Maximum, unsigned */
	int32_t		 lmax_s;	/* and signed, by its size */
	int32_t		 pmin, pmax;
	uint32_t	 unit;
	int32_t		 unit_exp;
	uint32_t	 size, id, count;
};

#define PUSH_MAX	8
#define BITS_MAX	((uint64_t)1 << 40)	/* a report's sane bound */

struct report_len {
	uint8_t		 kind, id;
	uint64_t	 bits;
};

static struct report_len *
report_of(struct report_len *r, unsigned *n, uint8_t kind, uint8_t id)
{
	unsigned i;

	for (i = 0; i < *n; i++)
		if (r[i].kind == kind && r[i].id == id)
			return &r[i];
	if (*n >= DEC_HID_MAX_REPORTS)
		return NULL;
	r[*n].kind = kind;
	r[*n].id = id;
	r[*n].bits = 0;
	return &r[(*n)++];
}

static void
usage_add(struct dec_hid_layout *l, uint32_t min, uint32_t max)
{
	if (l->nusages >= DEC_HID_MAX_USAGES) {
		l->truncated = 1;
		return;
	}
	l->u[l->nusages].min = min;
	l->u[l->nusages].max = max;
	l->nusages++;
}

void
dec_hid_layout_unref(struct dec_hid_layout *l)
{
	/* the holder that sees no other frees it */
	if (l != NULL && l->refs-- == 0)
		free(l);
}

int
dec_hid_layout_parse(const uint8_t *p, size_t len, struct dec_hid_layout *l)
{
	struct globals	 g, stack[PUSH_MAX];
	struct report_len reps[DEC_HID_MAX_REPORTS];
	struct report_len *rp;
	struct dec_hid_field *f;
	struct item	 it;
	unsigned	 nrep = 0, npush = 0, nest = 0, delim = 0, in_set = 0;
	uint32_t	 umin = 0, v, apps[NEST_MAX];
	uint16_t	 ufirst = 0;
	size_t		 off = 0;
	int		 have_min = 0;

	memset(l, 0, sizeof *l);
	memset(&g, 0, sizeof g);
	while (item_next(p, len, &off, &it)) {
		if (it.cut) {
			l->incomplete = 1;
			break;
		}
		if (it.is_long || it.type == 3)
			continue;	/* no long item tags are defined */
		v = it.u;
		switch (it.type) {
		case 0:
			switch (it.tag) {
			case DEC_HID_INPUT:
			case DEC_HID_OUTPUT:
			case DEC_HID_FEATURE:
				if (l->nfields >= DEC_HID_MAX_FIELDS) {
					l->truncated = 1;
					break;
				}
				rp = report_of(reps, &nrep, it.tag,
				    (uint8_t)g.id);
				if (rp == NULL) {
					l->truncated = 1;
					break;
				}
				f = &l->f[l->nfields++];
				f->kind = it.tag;
				f->report_id = (uint8_t)g.id;
				f->flags = (uint16_t)(v & 0x1ff);
				f->size = g.size;
				f->count = g.count;
				f->bit_off = rp->bits;
				rp->bits += (uint64_t)g.size * g.count;
				if (rp->bits > BITS_MAX) {
					rp->bits = BITS_MAX;
					l->bad = 1;
				}
				f->lmin = g.lmin;
				f->lmax_signed = g.lmax_s;
				f->lmax = g.lmin >= 0 ? (int32_t)(g.lmax_u >
				    INT32_MAX ? INT32_MAX : g.lmax_u) :
				    g.lmax_s;
				f->pmin = g.pmin;
				f->pmax = g.pmax;
				f->unit = g.unit;
				f->unit_exp = g.unit_exp;
				f->page = g.page;
				f->app = nest > 0 && nest <= NEST_MAX ?
				    apps[nest - 1] : 0;
				f->u_first = ufirst;
				f->u_n = (uint16_t)(l->nusages - ufirst);
				ufirst = l->nusages;
				break;
			case 10:
				/* its usage says what the collection is */
				if (nest < NEST_MAX)
					apps[nest] = nest > 0 ?
					    apps[nest - 1] : 0;
				if (nest < NEST_MAX && v == 1 &&
				    l->nusages > ufirst) {
					apps[nest] = l->u[ufirst].min;
					if (l->app == 0)
						l->app = apps[nest];
				}
				nest++;
				l->nusages = ufirst;
				break;
			case 12:
				if (nest > 0)
					nest--;
				else
					l->bad = 1;
				l->nusages = ufirst;
				break;
			default:
				l->nusages = ufirst;
				break;
			}
			have_min = 0;
			delim = in_set = 0;
			break;
		case 1:
			switch (it.tag) {
			case 0:
				g.page = v;
				break;
			case 1:
				g.lmin = it.s;
				break;
			case 2:
				g.lmax_u = v;
				g.lmax_s = it.s;
				break;
			case 3:
				g.pmin = it.s;
				break;
			case 4:
				g.pmax = it.s;
				break;
			case 5:
				g.unit_exp = unit_exponent(&it);
				break;
			case 6:
				g.unit = v;
				break;
			case 7:
				g.size = v;
				break;
			case 8:
				g.id = v;
				if (v == 0 || v > 0xff)
					l->bad = 1;
				l->uses_ids = 1;
				break;
			case 9:
				g.count = v;
				break;
			case 10:
				if (npush < PUSH_MAX)
					stack[npush++] = g;
				else
					l->bad = 1;
				break;
			case 11:
				if (npush > 0)
					g = stack[--npush];
				else
					l->bad = 1;
				break;
			}
			break;
		case 2:
			/* within a delimited set only the first usage
			 * counts (HID 1.11 6.2.2.8) */
			if (it.tag == 10) {
				in_set = v == 1;
				delim = 0;
				break;
			}
			if (it.tag > 2)
				break;
			if (in_set && !(it.tag == 2 && have_min) &&
			    delim++ > 0)
				break;
			/* 1 or 2 bytes: an ID on the current page */
			if (it.dsize <= 2)
				v = g.page << 16 | (v & 0xffff);
			if (it.tag == 0)
				usage_add(l, v, v);
			else if (it.tag == 1) {
				umin = v;
				have_min = 1;
			} else if (have_min) {
				/* on the page of its minimum */
				if (it.dsize <= 2)
					v = (umin & 0xffff0000) |
					    (it.u & 0xffff);
				if (v >= umin)
					usage_add(l, umin, v);
				else
					l->bad = 1;
				have_min = 0;
			} else
				l->bad = 1;
			break;
		}
	}
	if (nest > 0)
		l->incomplete = 1;
	return l->nfields;
}

uint64_t
dec_hid_field_nusages(const struct dec_hid_layout *l,
    const struct dec_hid_field *f)
{
	uint64_t n = 0;
	unsigned i;

	for (i = f->u_first; i < (unsigned)f->u_first + f->u_n &&
	    i < l->nusages; i++)
		n += (uint64_t)l->u[i].max - l->u[i].min + 1;
	return n;
}

uint32_t
dec_hid_field_usage(const struct dec_hid_layout *l,
    const struct dec_hid_field *f, uint64_t k)
{
	uint64_t w;
	unsigned i;

	for (i = f->u_first; i < (unsigned)f->u_first + f->u_n &&
	    i < l->nusages; i++) {
		w = (uint64_t)l->u[i].max - l->u[i].min + 1;
		if (k < w)
			return l->u[i].min + (uint32_t)k;
		k -= w;
	}
	return 0;
}

/* The usage of control i of a variable field: past the usages, the last
 * one (HID 1.11 6.2.2.8). */
static uint32_t
var_usage(const struct dec_hid_layout *l, const struct dec_hid_field *f,
    uint64_t i, uint64_t nu)
{
	return dec_hid_field_usage(l, f, i < nu ? i : nu - 1);
}

uint32_t
dec_hid_bits(const uint8_t *p, size_t len, uint64_t bit, uint32_t n)
{
	uint64_t v = 0, byte = bit / 8;
	unsigned sh = (unsigned)(bit % 8), got = 0, i;

	if (n == 0 || n > 32 || byte >= len)
		return 0;
	for (i = 0; i < 5 && byte + i < len && got < n + sh; i++) {
		v |= (uint64_t)p[byte + i] << (8 * i);
		got += 8;
	}
	v >>= sh;
	return (uint32_t)(n == 32 ? v : v & ((1ULL << n) - 1));
}

/* A control's logical value: signed when the Logical Minimum is. */
static int32_t
logical(const struct dec_hid_field *f, uint32_t raw)
{
	if (f->lmin < 0 && f->size > 0 && f->size < 32 &&
	    (raw >> (f->size - 1)) & 1)
		return (int32_t)(raw | ~((1U << f->size) - 1));
	return (int32_t)raw;
}

/* ------------------------------------------------------------------------
 * Reports by their layout.
 */
struct rep {
	const struct dec_hid_layout *l;
	const uint8_t	*p;		/* the report, its ID byte included */
	size_t		 len;
	uint8_t		 kind;
	uint8_t		 id;
	uint64_t	 base;		/* bits before the fields (the ID) */
};

/* The report's fields, one after the other; NULL after the last. */
static const struct dec_hid_field *
rep_next(const struct rep *r, unsigned *i)
{
	const struct dec_hid_field *f;

	while (*i < r->l->nfields) {
		f = &r->l->f[(*i)++];
		if (f->kind == r->kind && (!r->l->uses_ids ||
		    f->report_id == r->id))
			return f;
	}
	return NULL;
}

/* Are n bits at bit (from the report's start) in it? */
static int
rep_has(const struct rep *r, uint64_t bit, uint64_t n)
{
	return bit + n >= bit && bit + n <= (uint64_t)r->len * 8;
}

static uint32_t
nbytes(uint64_t bit, uint64_t n)
{
	uint64_t b = (bit % 8 + n + 7) / 8;

	return b > UINT32_MAX ? UINT32_MAX : (uint32_t)b;
}

/* Bits as bytes the way Wireshark's bit items hold them: the value,
 * least significant byte first; the record's bytes when aligned. */
static void
bits_node(struct dec_tree *t, const struct rep *r,
    const struct dec_field *fb, const struct dec_field *fs, uint64_t bit,
    uint64_t n)
{
	struct dec_node	*nd;
	char		 s[2 * 64 + 1];
	uint64_t	 k, nb = (n + 7) / 8;
	uint32_t	 b;
	static const char hx[] = "0123456789abcdef";

	if (bit % 8 == 0 && n % 8 == 0) {
		dec_tree_add(t, fb, DB_DATA, (uint32_t)(bit / 8),
		    (uint32_t)(n / 8), 0);
		return;
	}
	nd = dec_tree_add(t, fs, DB_DATA, (uint32_t)(bit / 8), nbytes(bit, n),
	    0);
	if (nd == NULL)
		return;
	if (nb > 64) {
		nd->note = "more than 64 bytes, not shown";
		return;
	}
	for (k = 0; k < nb; k++) {
		b = dec_hid_bits(r->p, r->len, bit + 8 * k,
		    n - 8 * k >= 8 ? 8 : (uint32_t)(n - 8 * k));
		s[2 * k] = hx[b >> 4];
		s[2 * k + 1] = hx[b & 15];
	}
	nd->str = dec_tree_strdup(t, s, (size_t)(2 * nb));
	nd->flags |= DN_PLAIN;
}

static void
ctl_node(struct dec_tree *t, const struct rep *r,
    const struct dec_hid_field *f, uint64_t bit, uint32_t usage)
{
	const struct dec_field *af;
	struct dec_node	*n;
	uint32_t	 page = usage >> 16, id = usage & 0xffff, raw;
	int32_t		 v;
	char		 name[80], key[24];
	uint32_t	 off = (uint32_t)(bit / 8), len = nbytes(bit, f->size);

	if ((page & 0xff00) == 0xff00) {
		bits_node(t, r, &f_vendor, &f_vendor_s, bit, f->size);
		return;
	}
	raw = dec_hid_bits(r->p, r->len, bit, f->size);
	v = logical(f, raw);
	if (f->size <= 32 && page == 0x01 && (af = axis_field(id)) != NULL) {
		dec_tree_add(t, af, DB_DATA, off, len, (uint64_t)(int64_t)v);
		return;
	}
	if (f->size <= 32 && (page == 0x07 || page == 0x09)) {
		n = dec_tree_add(t, page == 0x07 ? &f_key : &f_button, DB_DATA,
		    off, len, v != 0);
		if (n == NULL)
			return;
		if (page == 0x07)
			n->note = dec_tree_printf(t, "%s, 0x%02x",
			    dec_hid_key_name(id, key, sizeof key), id);
		else
			n->note = dec_tree_printf(t, "%s", dec_hid_usage_name(
			    page, id, name, sizeof name));
		return;
	}
	n = dec_tree_add(t, &f_ctl_usage, DB_DATA, off, len, id);
	if (n == NULL)
		return;
	dec_hid_usage_name(page, id, name, sizeof name);
	if (f->size <= 32)
		n->note = dec_tree_printf(t, "%s: %d", name, v);
	else
		n->note = dec_tree_strdup(t, name, strlen(name));
}

static void
array_node(struct dec_tree *t, const struct rep *r,
    const struct dec_hid_field *f, uint64_t bit, uint64_t nu)
{
	struct dec_node	*n;
	uint32_t	 raw, usage = 0, j;
	int32_t		 v;
	int		 ws, in;
	char		 name[80];

	bits_node(t, r, &f_array, &f_array_s, bit, (uint64_t)f->size *
	    f->count);
	t->depth++;
	for (j = 0; j < f->count && !t->overflow; j++, bit += f->size) {
		raw = dec_hid_bits(r->p, r->len, bit, f->size);
		v = logical(f, raw);
		in = f->size <= 32 && v >= f->lmin && v <= f->lmax &&
		    (uint64_t)((int64_t)v - f->lmin) < nu;
		ws = f->size <= 32 && v >= f->lmin && v <= f->lmax_signed &&
		    (uint64_t)((int64_t)v - f->lmin) < nu;
		if (in || ws)
			usage = dec_hid_field_usage(r->l, f,
			    (uint64_t)((int64_t)v - f->lmin));
		/* tshark's boolean: the usage when its range takes the
		 * value, else the value */
		n = dec_tree_add(t, &f_array_usage, DB_DATA,
		    (uint32_t)(bit / 8), nbytes(bit, f->size),
		    ws ? usage != 0 : v != 0);
		if (n == NULL)
			continue;
		if (in)
			n->note = dec_tree_printf(t, "%s (0x%04x, 0x%04x)",
			    dec_hid_usage_name(usage >> 16, usage & 0xffff,
			    name, sizeof name), usage >> 16, usage & 0xffff);
		else
			n->note = "No controls asserted";
	}
	t->depth--;
}

/* The report's fields under usbhid.data. */
static void
rep_tree(struct dec_tree *t, struct rep *r, uint32_t want)
{
	const struct dec_hid_field *f;
	struct dec_node	*top;
	uint64_t	 bit, nu, i, need = 0;
	unsigned	 k = 0, seen = 0;
	int		 stop = 0;

	top = dec_tree_add(t, &f_data, DB_DATA, 0, (uint32_t)r->len, 0);
	t->depth++;
	if (r->l->uses_ids) {
		r->id = r->p[0];
		r->base = 8;
		dec_tree_add(t, &f_data_rid, DB_DATA, 0, 1, r->id);
	}
	while (!stop && (f = rep_next(r, &k)) != NULL) {
		seen++;
		bit = r->base + f->bit_off;
		nu = dec_hid_field_nusages(r->l, f);
		need = bit + (uint64_t)f->size * f->count;
		if (nu == 0) {
			/* no usages: padding (HID 1.11 6.2.2.9) */
			if (!rep_has(r, bit, (uint64_t)f->size * f->count))
				stop = 1;
			else if (f->size * (uint64_t)f->count > 0)
				bits_node(t, r, &f_pad, &f_pad_s, bit,
				    (uint64_t)f->size * f->count);
		} else if (!(f->flags & DEC_HID_VARIABLE)) {
			if (!rep_has(r, bit, (uint64_t)f->size * f->count))
				stop = 1;
			else if (f->count > 0)
				array_node(t, r, f, bit, nu);
		} else {
			for (i = 0; i < f->count; i++, bit += f->size) {
				if (!rep_has(r, bit, f->size)) {
					stop = 1;
					break;
				}
				ctl_node(t, r, f, bit, var_usage(r->l, f, i,
				    nu));
				if (t->overflow)
					break;
			}
		}
		if (t->overflow)
			break;
	}
	t->depth--;
	if (top == NULL)
		return;
	if (seen == 0) {
		if (!r->l->incomplete)
			top->flags |= DN_BAD;
		top->note = r->l->uses_ids ? dec_tree_printf(t, "report ID %u "
		    "is not in the report descriptor%s", r->id,
		    r->l->incomplete ? " (cut short)" : "") :
		    r->l->incomplete ? "not in the report descriptor (cut "
		    "short)" : "the report descriptor has no such report";
	} else if (stop) {
		top->flags |= want > r->len ? DN_CUT : DN_BAD;
		top->note = dec_tree_printf(t, "report shorter than its "
		    "layout (%zu bytes, %llu bits needed)", r->len,
		    (unsigned long long)need);
	} else if (r->l->truncated) {
		top->note = "layout truncated: the descriptor has more "
		    "fields than urbscope keeps";
	}
}

/* ------------------------------------------------------------------------
 * Boot protocol reports (HID 1.11 appendix B).
 */
static void
boot_bits(struct dec_tree *t, const struct dec_field *const *fs, unsigned n,
    uint32_t off, uint8_t v)
{
	unsigned i;

	for (i = 0; i < n; i++)
		dec_tree_add(t, fs[i], DB_DATA, off, 1,
		    dec_mask_value(v, fs[i]->mask));
}

static void
boot_kbd_tree(struct dec_tree *t, const uint8_t *p, size_t len)
{
	struct dec_node	*n;
	char		 key[24];
	size_t		 i;

	boot_bits(t, bk_mods, 8, 0, p[0]);
	if (len > 1)
		dec_tree_add(t, &f_bk_res, DB_DATA, 1, 1, p[1]);
	for (i = 2; i < len && i < 8; i++) {
		n = dec_tree_add(t, bk_keys[i - 2], DB_DATA, (uint32_t)i, 1,
		    p[i]);
		if (n != NULL && p[i] != 0)
			n->note = dec_tree_printf(t, "%s",
			    dec_hid_key_name(p[i], key, sizeof key));
	}
}

/* A signed byte as a DK_INT node holds it. */
static uint64_t
sext8(uint8_t v)
{
	return (uint64_t)(int64_t)(int8_t)v;
}

static void
boot_mouse_tree(struct dec_tree *t, const uint8_t *p, size_t len)
{
	boot_bits(t, bm_buttons, 8, 0, p[0]);
	if (len > 1)
		dec_tree_add(t, &f_bm_x, DB_DATA, 1, 1, sext8(p[1]));
	if (len > 2)
		dec_tree_add(t, &f_bm_y, DB_DATA, 2, 1, sext8(p[2]));
	if (len > 3)
		dec_tree_add(t, &f_bm_wheel, DB_DATA, 3, 1, sext8(p[3]));
	if (len > 4)
		dec_tree_add(t, &f_bm_pan, DB_DATA, 4, 1, sext8(p[4]));
}

/* ------------------------------------------------------------------------
 * What a record is, for the tree and the summary.
 */
enum { BOOT_NONE, BOOT_KBD, BOOT_MOUSE };

struct what {
	uint8_t		 kind;		/* DEC_HID_INPUT, ... */
	uint8_t		 boot;		/* BOOT_* when the boot protocol
					   reads it */
	uint8_t		 have;		/* a layout is in l */
	uint8_t		 id;		/* GET/SET_REPORT's report ID */
	uint8_t		 sure;		/* boot: the report is in the boot
					   layout, not guessed to be */
	uint32_t	 want;		/* bytes the record carried */
};

/* 0 when the record carries no report. */
static int
classify(const struct dec_cls_arg *a, const struct dec_hid_layout **l,
    struct what *w)
{
	const struct urb_rec *r = a->r;
	const struct dec_info *info = a->info;
	const struct dec_setup *s = &info->setup;
	const struct dec_cls_state *st = a->st;
	uint8_t	 type;
	int	 boot;

	memset(w, 0, sizeof *w);
	if (r->data_len == 0)
		return 0;
	w->want = urb_data_expected(r);
	if (r->xfer_type == XFER_CTRL) {
		if (!(info->flags & DI_SETUP) || SETUP_TYPE(s) != 1)
			return 0;
		type = (uint8_t)(s->wValue >> 8);
		if (type < 1 || type > 3)
			return 0;
		if (s->bRequest == 0x01 && SETUP_DIR_IN(s) && r->type == 'C' &&
		    r->status == 0)
			;		/* GET_REPORT's answer */
		else if (s->bRequest == 0x09 && !SETUP_DIR_IN(s) &&
		    r->type != 'C')
			;		/* SET_REPORT's data */
		else
			return 0;
		w->kind = type == 1 ? DEC_HID_INPUT : type == 2 ?
		    DEC_HID_OUTPUT : DEC_HID_FEATURE;
		w->id = (uint8_t)s->wValue;
	} else if (r->xfer_type == XFER_INT)
		w->kind = urb_is_in(r) ? DEC_HID_INPUT : DEC_HID_OUTPUT;
	else
		return 0;
	*l = NULL;
	boot = info->subcls == 1 && (info->proto == 1 || info->proto == 2);
	/*
	 * The interface's layout, unless the boot protocol reads it: the
	 * host chose it (SET_PROTOCOL), the user did (--decode-as
	 * hid-keyboard), the guess is a boot keyboard's by the reports'
	 * shape (the layout at hand may be another interface's), or a
	 * boot device's descriptor is cut short.
	 */
	if (st != NULL && st->hid != NULL && !st->hid_boot &&
	    !(boot && (info->flags & (DI_DECODE_AS | DI_GUESSED))) &&
	    !(boot && st->hid->incomplete)) {
		*l = st->hid;
		w->have = 1;
	}
	else if (info->subcls == 1 && info->proto == 1 &&
	    w->kind != DEC_HID_FEATURE)
		w->boot = BOOT_KBD;
	else if (info->subcls == 1 && info->proto == 2 &&
	    w->kind == DEC_HID_INPUT)
		w->boot = BOOT_MOUSE;
	/* the boot layout is known to be the report's, not taken for it
	 * (a mouse in the report protocol, the default, seldom sends it:
	 * HID 1.11 7.2.6) */
	w->sure = w->boot != BOOT_NONE && ((st != NULL && st->hid_boot) ||
	    (info->flags & (DI_DECODE_AS | DI_GUESSED)) ||
	    w->boot == BOOT_KBD);
	return 1;
}

/*
 * What a record carries (classify), and with a layout the report to read
 * by it in *rr: 0 when the record carries no report.
 */
static int
record_report(const struct dec_cls_arg *a, struct what *w, struct rep *rr)
{
	const struct dec_hid_layout *l;

	memset(rr, 0, sizeof *rr);
	if (!classify(a, &l, w))
		return 0;
	rr->l = l;
	rr->p = a->r->data;
	rr->len = a->r->data_len;
	rr->kind = w->kind;
	rr->id = w->id;
	return 1;
}

static int
hid_tree(const struct dec_cls_arg *a, struct dec_tree *t)
{
	struct what	 w;
	struct rep	 rr;
	struct dec_node	*n;
	const uint8_t	*p = a->r->data;
	size_t		 len = a->r->data_len;

	if (!record_report(a, &w, &rr))
		return 0;
	if (a->r->xfer_type == XFER_CTRL && w.boot == BOOT_NONE && !w.have)
		return 0;	/* the bytes only, as tshark has them */
	/* SET_REPORT's data stays the control transfer's fragment too, as
	 * Wireshark's HID dissector leaves it */
	if (a->r->xfer_type == XFER_CTRL && a->r->type == 'S')
		dec_tree_fragment(a->r, t);
	if (w.have) {
		rep_tree(t, &rr, w.want);
		return 1;
	}
	n = dec_tree_add(t, &f_data, DB_DATA, 0, (uint32_t)len, 0);
	if (n != NULL && w.boot != BOOT_NONE && !w.sure)
		n->note = "read as a boot report (guessed: no report "
		    "descriptor and no SET_PROTOCOL(Boot) in the capture)";
	t->depth++;
	if (w.boot == BOOT_KBD && w.kind == DEC_HID_INPUT)
		boot_kbd_tree(t, p, len);
	else if (w.boot == BOOT_KBD)
		boot_bits(t, bl_leds, 6, 0, p[0]);
	else if (w.boot == BOOT_MOUSE)
		boot_mouse_tree(t, p, len);
	t->depth--;
	return 1;
}

/* ------------------------------------------------------------------------
 * Summaries: keys pressed by name, a pointer's buttons and axes, LEDs,
 * else the usages whose controls are not zero.
 */
#define SUM_MAX		120	/* columns of a summary before "..." */

static const char *const mod_names[8] = {
	"LCtrl", "LShift", "LAlt", "LGUI", "RCtrl", "RShift", "RAlt", "RGUI"
};

static void
sum_word(struct sbuf *b, size_t start, int *clip, const char *s)
{
	if (*clip)
		return;
	if (b->len - start + strlen(s) + 1 > SUM_MAX) {
		sb_puts(b, " ...");
		*clip = 1;
		return;
	}
	if (b->len > start)
		sb_putc(b, ' ');
	sb_puts(b, s);
}

static void
boot_kbd_summary(const uint8_t *p, size_t len, struct sbuf *b)
{
	char	 key[24];
	size_t	 i;
	int	 any = 0;

	sb_puts(b, "keys");
	for (i = 0; i < 8; i++) {
		if (p[0] & (1 << i)) {
			sb_putc(b, ' ');
			sb_puts(b, mod_names[i]);
			any = 1;
		}
	}
	for (i = 2; i < len && i < 8; i++) {
		if (p[i] == 0)
			continue;
		sb_putc(b, ' ');
		sb_puts(b, dec_hid_key_name(p[i], key, sizeof key));
		any = 1;
	}
	if (!any)
		sb_puts(b, " released");
}

/* LED usages 1-5 (HID Usage Tables 11), the boot report's bits. */
static const char *const led_words[5] = {
	"NumLock", "CapsLock", "ScrollLock", "Compose", "Kana"
};

static void
boot_leds_summary(uint8_t v, struct sbuf *b)
{
	int	 i, any = 0;

	sb_puts(b, "LEDs");
	for (i = 0; i < 5; i++) {
		if (v & (1 << i)) {
			sb_putc(b, ' ');
			sb_puts(b, led_words[i]);
			any = 1;
		}
	}
	if (!any)
		sb_puts(b, " none");
}

static void
boot_mouse_summary(const uint8_t *p, size_t len, struct sbuf *b)
{
	int	 i, any = 0;

	sb_puts(b, "buttons ");
	for (i = 0; i < 8; i++) {
		if (p[0] & (1 << i)) {
			if (any)
				sb_putc(b, '+');
			sb_u64(b, (uint64_t)i + 1);
			any = 1;
		}
	}
	if (!any)
		sb_puts(b, "none");
	if (len > 1) {
		sb_puts(b, " x ");
		sb_i64(b, (int8_t)p[1]);
	}
	if (len > 2) {
		sb_puts(b, " y ");
		sb_i64(b, (int8_t)p[2]);
	}
	if (len > 3) {
		sb_puts(b, " wheel ");
		sb_i64(b, (int8_t)p[3]);
	}
}

/* The lower-case word of a pointer's axis, or NULL. */
static const char *
axis_word(uint32_t usage)
{
	switch (usage) {
	case 0x00010030: return "x";
	case 0x00010031: return "y";
	case 0x00010032: return "z";
	case 0x00010033: return "rx";
	case 0x00010034: return "ry";
	case 0x00010035: return "rz";
	case 0x00010036: return "slider";
	case 0x00010037: return "dial";
	case 0x00010038: return "wheel";
	case 0x000c0238: return "hwheel";	/* AC Pan */
	case 0x000d0030: return "pressure";	/* Tip Pressure */
	}
	return NULL;
}

/* What a report is about, from its fields' usages. */
enum { SUM_GENERIC, SUM_KBD, SUM_POINTER, SUM_LEDS };

static int
rep_sort(const struct rep *r)
{
	const struct dec_hid_field *f;
	unsigned k = 0;
	uint32_t u;
	uint64_t nu;
	int	 kbd = 0, ptr = 0, leds = 0, other = 0;

	while ((f = rep_next(r, &k)) != NULL) {
		if ((nu = dec_hid_field_nusages(r->l, f)) == 0)
			continue;
		u = dec_hid_field_usage(r->l, f, 0);
		switch (u >> 16) {
		case 0x07:
			kbd = 1;
			break;
		case 0x08:
			leds = 1;
			break;
		case 0x09:
			ptr |= 1;
			break;
		case 0x01:
			if (axis_word(u) != NULL)
				ptr |= 2;
			else
				other = 1;
			break;
		default:
			other = 1;
		}
	}
	if (kbd)
		return SUM_KBD;
	if (leds && !ptr && !other)
		return SUM_LEDS;
	if (ptr & 2)
		return SUM_POINTER;
	return SUM_GENERIC;
}

/* Each control of the report with data, with its usage and value: f(usage,
 * value, is_array_element, arg); stops at the first control past the data.
 * A control in its null state has none. */
typedef void	 ctl_fn(uint32_t, int32_t, int, void *);

static void
rep_walk(const struct rep *r, ctl_fn *fn, void *arg)
{
	const struct dec_hid_field *f;
	unsigned k = 0;
	uint64_t bit, nu, i;
	uint32_t raw;
	int32_t	 v;

	while ((f = rep_next(r, &k)) != NULL) {
		bit = r->base + f->bit_off;
		if ((nu = dec_hid_field_nusages(r->l, f)) == 0 ||
		    f->size > 32 || f->size == 0)
			continue;
		for (i = 0; i < f->count; i++, bit += f->size) {
			if (!rep_has(r, bit, f->size))
				return;
			raw = dec_hid_bits(r->p, r->len, bit, f->size);
			v = logical(f, raw);
			/* out of range with a null state: no data (HID
			 * 1.11 6.2.2.5), a hat switch at rest, say */
			if ((f->flags & DEC_HID_VARIABLE) &&
			    (f->flags & DEC_HID_NULLSTATE) &&
			    (v < f->lmin || v > f->lmax))
				continue;
			if (f->flags & DEC_HID_VARIABLE)
				fn(var_usage(r->l, f, i, nu), v, 0, arg);
			else if (v >= f->lmin && v <= f->lmax &&
			    (uint64_t)((int64_t)v - f->lmin) < nu)
				fn(dec_hid_field_usage(r->l, f,
				    (uint64_t)((int64_t)v - f->lmin)), 1, 1,
				    arg);
		}
	}
}

struct sum {
	struct sbuf	*b;
	size_t		 start;
	int		 clip;
	int		 any;
	int		 sort;
	uint32_t	 buttons;	/* bits of buttons 1..32 down */
	int		 nbuttons;	/* buttons in the report */
	char		 axes[96];	/* " x 1 y 2" */
	size_t		 naxes;
};

static void
sum_ctl(uint32_t usage, int32_t v, int arr, void *arg)
{
	struct sum	*s = arg;
	uint32_t	 page = usage >> 16, id = usage & 0xffff;
	const char	*w;
	char		 name[96];
	int		 n;

	switch (s->sort) {
	case SUM_KBD:
		if (page != 0x07 || v == 0 || id == 0)
			return;
		sum_word(s->b, s->start, &s->clip, dec_hid_key_name(id, name,
		    sizeof name));
		s->any = 1;
		return;
	case SUM_LEDS:
		if (page != 0x08 || v == 0)
			return;
		sum_word(s->b, s->start, &s->clip, id >= 1 && id <= 5 ?
		    led_words[id - 1] : dec_hid_usage_name(page, id, name,
		    sizeof name));
		s->any = 1;
		return;
	case SUM_POINTER:
		if (page == 0x09 && !arr) {
			s->nbuttons++;
			if (v != 0 && id >= 1 && id <= 32)
				s->buttons |= 1U << (id - 1);
			return;
		}
		if ((w = axis_word(usage)) != NULL && !arr &&
		    s->naxes < sizeof s->axes - 24) {
			n = snprintf(s->axes + s->naxes, sizeof s->axes -
			    s->naxes, " %s %d", w, v);
			if (n > 0)
				s->naxes += (size_t)n;
			return;
		}
		break;
	}
	/* the usage=value pairs of the controls not at zero (an array's
	 * usage 0 means none) */
	if (v == 0 || (arr && id == 0) ||
	    (page == 0x09 && s->sort == SUM_POINTER))
		return;
	dec_hid_usage_name(page, id, name, sizeof name);
	if (!arr) {
		n = (int)strlen(name);
		snprintf(name + n, sizeof name - (size_t)n, "=%d", v);
	}
	sum_word(s->b, s->start, &s->clip, name);
	s->any = 1;
}

/* 0 when the layout has no such report. */
static int
rep_summary(struct rep *r, struct sbuf *b)
{
	struct sum	 s;
	char		 other[SUM_MAX + 8];
	size_t		 start, n;
	unsigned	 k = 0;
	int		 i, first = 1;

	if (r->l->uses_ids) {
		r->id = r->p[0];
		r->base = 8;
	}
	if (rep_next(r, &k) == NULL)
		return 0;
	if (r->l->uses_ids) {
		sb_puts(b, "report ");
		sb_u64(b, r->id);
		sb_puts(b, ": ");
	}
	memset(&s, 0, sizeof s);
	s.b = b;
	s.sort = rep_sort(r);
	start = b->len;
	if (s.sort == SUM_KBD)
		sb_puts(b, "keys");
	else if (s.sort == SUM_LEDS)
		sb_puts(b, "LEDs");
	s.start = s.sort == SUM_KBD || s.sort == SUM_LEDS ? start : b->len;
	rep_walk(r, sum_ctl, &s);
	if (s.sort == SUM_POINTER) {
		/* the other controls (a hat switch, say) after the buttons
		 * and axes, a space apart */
		n = b->len - s.start < sizeof other ? b->len - s.start : 0;
		if (n > 0 && b->s != NULL)
			memcpy(other, b->s + s.start, n);
		other[n] = '\0';
		if (b->s != NULL && b->len > s.start) {
			b->len = s.start;
			b->s[b->len] = '\0';
		}
		sb_puts(b, "buttons ");
		for (i = 0; i < 32; i++) {
			if (s.buttons & (1U << i)) {
				if (!first)
					sb_putc(b, '+');
				sb_u64(b, (uint64_t)i + 1);
				first = 0;
			}
		}
		if (first)
			sb_puts(b, s.nbuttons > 0 ? "none" : "-");
		sb_puts(b, s.axes);
		if (n > 0) {
			sb_putc(b, ' ');
			sb_puts(b, other);
		}
		return 1;
	}
	if (!s.any)
		sb_puts(b, s.sort == SUM_KBD ? " released" :
		    s.sort == SUM_LEDS ? " none" : "all controls 0");
	return 1;
}

static int
hid_summary(const struct dec_cls_arg *a, struct sbuf *b)
{
	struct what	 w;
	struct rep	 rr;
	const uint8_t	*p = a->r->data;
	size_t		 len = a->r->data_len;

	if (!record_report(a, &w, &rr))
		return 0;
	if (w.have)
		return rep_summary(&rr, b);
	switch (w.boot) {
	case BOOT_KBD:
		if (w.kind == DEC_HID_INPUT && len >= 3)
			boot_kbd_summary(p, len, b);
		else if (w.kind == DEC_HID_OUTPUT)
			boot_leds_summary(p[0], b);
		else
			return 0;
		return 1;
	case BOOT_MOUSE:
		if (len < 3)
			return 0;
		if (!w.sure)
			sb_puts(b, "[guessed] ");
		boot_mouse_summary(p, len, b);
		return 1;
	}
	return 0;
}

/* ------------------------------------------------------------------------
 * A keyboard's state from its input report, as the boot report has it.
 */
struct kbd {
	uint8_t		*out;
	int		 nkeys;
};

static void
kbd_ctl(uint32_t usage, int32_t v, int arr, void *arg)
{
	struct kbd	*k = arg;
	uint32_t	 id = usage & 0xffff;

	(void)arr;
	if ((usage >> 16) != 0x07 || v == 0 || id == 0)
		return;
	if (id >= 0xe0 && id <= 0xe7)
		k->out[0] |= (uint8_t)(1 << (id - 0xe0));
	else if (k->nkeys < 6 && id <= 0xff)
		k->out[2 + k->nkeys++] = (uint8_t)id;
}

/* Has the layout an input report of keys (the Keyboard page)? */
static int
layout_has_keys(const struct dec_hid_layout *l)
{
	unsigned i;

	for (i = 0; i < l->nfields; i++)
		if (l->f[i].kind == DEC_HID_INPUT &&
		    dec_hid_field_nusages(l, &l->f[i]) > 0 &&
		    dec_hid_field_usage(l, &l->f[i], 0) >> 16 == 0x07)
			return 1;
	return 0;
}

/* The bits the report's fields need, its ID byte included. */
static uint64_t
rep_bits(const struct rep *r)
{
	const struct dec_hid_field *f;
	uint64_t end, bits = 0;
	unsigned k = 0;

	while ((f = rep_next(r, &k)) != NULL) {
		end = r->base + f->bit_off + (uint64_t)f->size * f->count;
		if (end > bits)
			bits = end;
	}
	return bits;
}

int
dec_hid_keyboard(const struct urb_rec *r, const struct dec_info *info,
    uint8_t out[8])
{
	struct dec_cls_arg a;
	struct what	 w;
	struct rep	 rr;
	struct kbd	 k;
	unsigned	 i = 0;

	memset(out, 0, 8);
	if (r->xfer_type != XFER_INT || !urb_is_in(r) || r->type != 'C' ||
	    r->status != 0 || !(info->flags & DI_CLASS) || info->cls != 0x03 ||
	    info->st == NULL)
		return 0;
	a.r = r;
	a.info = info;
	a.st = info->st;
	if (!record_report(&a, &w, &rr) || w.kind != DEC_HID_INPUT)
		return 0;
	if (!w.have) {
		if (w.boot != BOOT_KBD)
			return 0;
		/* the boot report is 8 bytes (HID 1.11 B.1): another
		 * length is another layout */
		if (r->data_len != 8)
			return -1;
		memcpy(out, r->data, 8);
		out[1] = 0;
		return 1;
	}
	if (rr.l->uses_ids) {
		rr.id = rr.p[0];
		rr.base = 8;
	}
	if (rep_next(&rr, &i) == NULL)
		/* a report the descriptor has not: a keyboard's (by its
		 * descriptor) sent what nothing here reads */
		return layout_has_keys(rr.l) ? -1 : 0;
	if (rep_sort(&rr) != SUM_KBD)
		return 0;
	if ((uint64_t)rr.len * 8 < rep_bits(&rr))
		return -1;		/* cut short */
	k.out = out;
	k.nkeys = 0;
	rep_walk(&rr, kbd_ctl, &k);
	return 1;
}

/* ------------------------------------------------------------------------
 * Typed text, US layout (HID Usage Tables 10: usages 0x04-0x38).
 */
static const char plain_chars[] =
    "abcdefghijklmnopqrstuvwxyz1234567890\n\x1b\b\t -=[]\\#;'`,./";
static const char shift_chars[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZ!@#$%^&*()\n\x1b\b\t _+{}|~:\"~<>?";
static const char keypad_chars[] = "/*-+\n1234567890.";

/* A key pressed: its usage, the character it types (0: none, a key
 * written by name) and whether Ctrl is held. */
typedef void	 key_fn(uint8_t, char, int, void *);

/* The keys pressed in cur8 and not in prev8 (NULL: none), each to fn;
 * Caps Lock toggles *caps.  The count. */
static int
keys_pressed(const uint8_t *prev8, const uint8_t *cur8, int *caps,
    key_fn *fn, void *arg)
{
	static const uint8_t none[8];
	uint8_t	 k, mods;
	int	 i, j, n = 0, shift, ctrl;
	char	 c;

	if (cur8 == NULL)
		return 0;
	if (prev8 == NULL)
		prev8 = none;
	mods = cur8[0];
	shift = (mods & 0x22) != 0;
	ctrl = (mods & 0x11) != 0;
	/* all slots ErrorRollOver: too many keys, the state is unknown */
	if (cur8[2] == 0x01)
		return 0;
	for (i = 2; i < 8; i++) {
		k = cur8[i];
		if (k < 0x04)
			continue;
		for (j = 2; j < 8 && prev8[j] != k; j++)
			;
		if (j < 8)
			continue;	/* held, not newly pressed */
		/* the lock keys and the modifiers as keys type nothing */
		if (k == 0x39 || k == 0x47 || k == 0x53 ||
		    (k >= 0xe0 && k <= 0xe7)) {
			if (k == 0x39 && caps != NULL)
				*caps = !*caps;	/* Caps Lock toggles */
			continue;
		}
		c = 0;
		if (k <= 0x1d)		/* letters: Shift undoes Caps Lock */
			c = shift != (caps != NULL && *caps) ?
			    shift_chars[k - 0x04] : plain_chars[k - 0x04];
		else if (k <= 0x38)
			c = shift ? shift_chars[k - 0x04] :
			    plain_chars[k - 0x04];
		else if (k >= 0x54 && k <= 0x63)
			c = keypad_chars[k - 0x54];
		else if (k == 0x64)
			c = shift ? '|' : '\\';
		if (c == '\x1b' || c == '\b')
			c = 0;		/* Esc, Backspace: by name */
		fn(k, c, ctrl, arg);
		n++;
	}
	return n;
}

/* What a key writes into out: its character, ^C for Ctrl and a letter,
 * else its name, <Left>. */
static void
key_put(uint8_t k, char c, int ctrl, struct sbuf *out)
{
	char	 name[24];

	if (ctrl && k <= 0x1d) {
		sb_putc(out, '^');
		sb_putc(out, (char)('A' + k - 0x04));
	} else if (c != 0)
		sb_putc(out, c);
	else {
		sb_putc(out, '<');
		sb_puts(out, dec_hid_key_name(k, name, sizeof name));
		sb_putc(out, '>');
	}
}

static void
key_append(uint8_t k, char c, int ctrl, void *arg)
{
	key_put(k, c, ctrl, arg);
}

int
dec_hid_keys_text(const uint8_t *prev8, const uint8_t *cur8, int *caps,
    struct sbuf *out)
{
	return keys_pressed(prev8, cur8, caps, key_append, out);
}

/*
 * DEC_KEYS_EDIT: the keys applied to the text as a text editor would,
 * at a cursor: a character goes in (or over the one at the cursor after
 * Insert), Backspace and Delete take one out, Left and Right move by a
 * character, Home and End to the line's ends, Up and Down a line at the
 * same column (or its end), Page Up and Page Down to the text's ends;
 * other keys that type nothing go in by name.
 */
static void
ed_insert(struct dec_keys *k, const char *s, size_t n)
{
	struct sbuf *t = &k->text;

	if (k->overwrite && n == 1 && s[0] != '\n' && k->cur < t->len &&
	    t->s[k->cur] != '\n') {
		t->s[k->cur++] = s[0];
		return;
	}
	sb_grow(t, n);
	if (t->oom)
		return;
	memmove(t->s + k->cur + n, t->s + k->cur, t->len - k->cur);
	memcpy(t->s + k->cur, s, n);
	t->len += n;
	t->s[t->len] = '\0';
	k->cur += n;
}

static void
ed_delete(struct dec_keys *k, size_t at)
{
	struct sbuf *t = &k->text;

	if (at >= t->len)
		return;
	memmove(t->s + at, t->s + at + 1, t->len - at - 1);
	t->s[--t->len] = '\0';
}

static size_t
ed_bol(const struct sbuf *t, size_t at)
{
	while (at > 0 && t->s[at - 1] != '\n')
		at--;
	return at;
}

static size_t
ed_eol(const struct sbuf *t, size_t at)
{
	while (at < t->len && t->s[at] != '\n')
		at++;
	return at;
}

static void
key_edit(uint8_t u, char c, int ctrl, void *arg)
{
	struct dec_keys	*k = arg;
	struct sbuf	*t = &k->text, one = { 0 };
	size_t		 bol, col, at;

	bol = ed_bol(t, k->cur);
	col = k->cur - bol;
	switch (c != 0 ? 0 : u) {
	case 0x2a:				/* Backspace */
		if (k->cur > 0)
			ed_delete(k, --k->cur);
		return;
	case 0x4c:				/* Delete */
		ed_delete(k, k->cur);
		return;
	case 0x50:				/* Left */
		if (k->cur > 0)
			k->cur--;
		return;
	case 0x4f:				/* Right */
		if (k->cur < t->len)
			k->cur++;
		return;
	case 0x4a:				/* Home */
		k->cur = bol;
		return;
	case 0x4d:				/* End */
		k->cur = ed_eol(t, k->cur);
		return;
	case 0x52:				/* Up */
		if (bol == 0)
			return;
		at = ed_bol(t, bol - 1);
		k->cur = at + col < bol - 1 ? at + col : bol - 1;
		return;
	case 0x51:				/* Down */
		at = ed_eol(t, k->cur);
		if (at == t->len)
			return;
		bol = at + 1;
		at = ed_eol(t, bol);
		k->cur = bol + col < at ? bol + col : at;
		return;
	case 0x4b:				/* Page Up */
		k->cur = 0;
		return;
	case 0x4e:				/* Page Down */
		k->cur = t->len;
		return;
	case 0x49:				/* Insert */
		k->overwrite = !k->overwrite;
		return;
	}
	key_put(u, c, ctrl, &one);
	if (one.oom)
		t->oom = 1;
	else if (one.len > 0)
		ed_insert(k, one.s, one.len);
	sb_free(&one);
}

int
dec_keys_report(struct dec_keys *k, const uint8_t cur8[8])
{
	int	 n;

	if (k->mode == DEC_KEYS_EDIT)
		n = keys_pressed(k->prev, cur8, &k->caps, key_edit, k);
	else
		n = keys_pressed(k->prev, cur8, &k->caps, key_append,
		    &k->text);
	memcpy(k->prev, cur8, sizeof k->prev);
	return n;
}

/* ------------------------------------------------------------------------
 * Learning: the report descriptor of GET_DESCRIPTOR(HID_REPORT) (HID 1.11
 * 7.1.1: bmRequestType 0x81, wValue 0x22nn, wIndex the interface), and
 * SET_PROTOCOL (7.2.6: 0 Boot, 1 Report).
 */
int
dec_hid_rdesc_answer(const struct urb_rec *r, const struct dec_info *info)
{
	const struct dec_setup *s = &info->setup;

	if (r->xfer_type != XFER_CTRL || r->type != 'C' || r->status != 0 ||
	    !(info->flags & DI_SETUP) || r->data_len == 0)
		return -1;
	if (s->bmRequestType != 0x81 || s->bRequest != 0x06 ||
	    (s->wValue >> 8) != 0x22)
		return -1;
	return s->wIndex & 0xff;
}

void
dec_hid_learn_rdesc(const struct urb_rec *r, struct dec_cls_state *st)
{
	struct dec_hid_layout *l;

	/* laid out once here, not on every report */
	if ((l = malloc(sizeof *l)) == NULL)
		return;		/* the old one stays */
	if (dec_hid_layout_parse(r->data, r->data_len, l) <= 0) {
		free(l);
		l = NULL;	/* no report to read by it */
	}
	dec_hid_layout_unref(st->hid);
	st->hid = l;
	st->hid_boot = 0;
}

static void
hid_learn(const struct urb_rec *r, const struct dec_info *info,
    struct dec_cls_state *st)
{
	const struct dec_setup *s = &info->setup;

	if (r->xfer_type != XFER_CTRL || r->type != 'C' || r->status != 0 ||
	    !(info->flags & DI_SETUP))
		return;
	/* (GET_DESCRIPTOR(HID_REPORT) is dec_analyze's: by its wIndex) */
	if (s->bmRequestType == 0x21 && s->bRequest == 0x0b)
		st->hid_boot = s->wValue == 0;
}

int
dec_hid_layout_fits(const struct dec_hid_layout *l, const uint8_t *p,
    size_t len)
{
	const struct dec_hid_field *f;
	uint64_t bits = 0, end;
	unsigned i;
	int	 any = 0;

	if (l == NULL || len == 0 || (l->uses_ids && len < 2))
		return 0;
	for (i = 0; i < l->nfields; i++) {
		f = &l->f[i];
		if (f->kind != DEC_HID_INPUT ||
		    (l->uses_ids && f->report_id != p[0]))
			continue;
		end = f->bit_off + (uint64_t)f->size * f->count;
		if (end > bits)
			bits = end;
		any = 1;
	}
	return any && (bits + 7) / 8 + (l->uses_ids ? 1 : 0) == len;
}

/* Every HID interface (HID 1.11 4.2, 4.3): the boot keyboard (subclass
 * 1, protocol 1) and mouse (protocol 2) are read by the boot protocol
 * until a report descriptor is known. */
/*
 * Wireshark 4.0's usbhid item: only on a report descriptor (the "HID
 * Report" of packet-usb-hid.c's dissect_usb_hid_get_report_descriptor,
 * on GET_DESCRIPTOR(HID_REPORT)'s data); class requests and reports put
 * their usbhid.* fields in the USB tree.
 */
static int
hid_item(const struct urb_rec *r, const struct dec_info *info, int mine)
{
	(void)mine;
	return r->xfer_type == XFER_CTRL && r->data_len > 0 &&
	    (info->flags & DI_SETUP) && SETUP_TYPE(&info->setup) == 0 &&
	    info->setup.bRequest == USB_REQ_GET_DESCRIPTOR &&
	    (info->setup.wValue >> 8) == USB_DT_HID_REPORT;
}

const struct dec_class_ops dec_class_hid = {
	.name = "HID",
	.wsproto = "usbhid",
	.cls = 0x03, .subcls = DEC_CLS_ANY, .proto = DEC_CLS_ANY,
	.summary = hid_summary,
	.tree = hid_tree,
	.learn = hid_learn,
	.item = hid_item,
};
