/*
 * decode/dec-audio.c - audio devices, USB Audio Class 1 and 2: the
 * class-specific descriptors of the audio control, audio streaming and
 * MIDI streaming interfaces (terminals, units, clock entities, formats),
 * the class requests' data (sampling frequency, volume, mute: SET_CUR,
 * GET_CUR, GET_MIN/MAX/RES, UAC 2 RANGE) and USB-MIDI event packets.
 *
 * Facts: USB Audio 1.0 (4.3.2 AC descriptors, 4.5.2 and 4.6.1.2 AS
 * descriptors, 5.2 requests, A.10 control selectors), Audio Data Formats
 * 1.0 (2.2.5 Type I format descriptor), Terminal Types 1.0; USB Audio 2.0
 * (4.7 AC descriptors, 4.9 AS descriptors, 5.2 requests and their
 * layout-1/2/3 parameter blocks, A.17 selectors); USB MIDI 1.0 (6.1.2
 * MS descriptors, 4 event packets); Linux include/uapi/linux/usb/audio.h
 * and include/linux/usb/audio-v2.h.
 *
 * Field names are Wireshark's (epan/dissectors/packet-usb-audio.c,
 * usbaudio.*) with tshark 4.0's layout: the version comes from the
 * interface protocol (0x20: UAC 2, 0x30: UAC 3, whose descriptors
 * tshark leaves whole) and, in the AC header, from bcdADC; a mixer unit
 * is read with UAC 1's layout in both versions; the units tshark leaves
 * undecoded (effect, processing, extension, clock multiplier, sample
 * rate converter) are decoded below their bytes under names in its style
 * (usbaudio.ac_if_pu.*, usbaudio.ac_if_xu.*), as are the class requests,
 * whose data tshark leaves as usb.data_fragment or usb.capdata
 * (usbaudio.request.*).
 */
#include <string.h>

#include "class.h"

#define F	DEC_FIELD

#define UAC_CS_INTERFACE	0x24
#define UAC_CS_ENDPOINT		0x25

#define SC_CONTROL		0x01	/* interface subclasses (A.2) */
#define SC_STREAMING		0x02
#define SC_MIDI			0x03

static const struct dec_name ac1_subtypes[] = {	/* UAC 1.0 A.5 */
	{ 0x01, "Header Descriptor" },
	{ 0x02, "Input terminal descriptor" },
	{ 0x03, "Output terminal descriptor" },
	{ 0x04, "Mixer unit descriptor" },
	{ 0x05, "Selector unit descriptor" },
	{ 0x06, "Feature unit descriptor" },
	{ 0x07, "Processing unit descriptor" },
	{ 0x08, "Extension unit descriptor" },
	{ 0, NULL }
};

static const struct dec_name ac_subtypes[] = {	/* UAC 2.0 A.9 */
	{ 0x01, "Header Descriptor" },
	{ 0x02, "Input terminal descriptor" },
	{ 0x03, "Output terminal descriptor" },
	{ 0x04, "Mixer unit descriptor" },
	{ 0x05, "Selector unit descriptor" },
	{ 0x06, "Feature unit descriptor" },
	{ 0x07, "Effect unit descriptor" },
	{ 0x08, "Processing unit descriptor" },
	{ 0x09, "Extension unit descriptor" },
	{ 0x0a, "Clock source descriptor" },
	{ 0x0b, "Clock selector descriptor" },
	{ 0x0c, "Clock multiplier descriptor" },
	{ 0x0d, "Sample rate converter descriptor" },
	{ 0, NULL }
};

/* UAC 1.0 numbers its units differently: 0x07 processing, 0x08
 * extension (UAC 1.0 A.5); tshark names them by UAC 2 (0x07 effect,
 * 0x08 processing, 0x09 extension), urbscope by the version. */
#define AC1_PROCESSING		0x07
#define AC1_EXTENSION		0x08
#define AC2_PROCESSING		0x08
#define AC2_EXTENSION		0x09

static const struct dec_name as_subtypes[] = {	/* UAC 2.0 A.10 */
	{ 0x01, "General AS Descriptor" },
	{ 0x02, "Format type descriptor" },
	{ 0x03, "Encoder descriptor" },
	{ 0, NULL }
};

static const struct dec_name ep_subtypes[] = {
	{ 0x01, "General Descriptor" },
	{ 0, NULL }
};

static const struct dec_name ms_subtypes[] = {	/* MIDI 1.0 A.1 */
	{ 0x01, "Header Descriptor" },
	{ 0x02, "MIDI IN Jack descriptor" },
	{ 0x03, "MIDI OUT Jack descriptor" },
	{ 0x04, "MIDI Element descriptor" },
	{ 0, NULL }
};

static const struct dec_name jack_types[] = {
	{ 0x01, "Embedded" },
	{ 0x02, "External" },
	{ 0, NULL }
};

static const struct dec_name categories[] = {	/* UAC 2.0 A.7 */
	{ 0x00, "Undefined" },
	{ 0x01, "Desktop speaker" },
	{ 0x02, "Home theater" },
	{ 0x03, "Microphone" },
	{ 0x04, "Headset" },
	{ 0x05, "Telephone" },
	{ 0x06, "Converter" },
	{ 0x07, "Voice/Sound recorder" },
	{ 0x08, "I/O box" },
	{ 0x09, "Musical instrument" },
	{ 0x0a, "Pro-audio" },
	{ 0x0b, "Audio/Video" },
	{ 0x0c, "Control panel" },
	{ 0xff, "Other" },
	{ 0, NULL }
};

static const struct dec_name caps[] = {		/* UAC 2.0 4.7.2 */
	{ 0, "Not present" },
	{ 1, "Present, read-only" },
	{ 2, "Value not allowed" },
	{ 3, "Host programmable" },
	{ 0, NULL }
};

static const struct dec_name clock_types[] = {	/* UAC 2.0 4.7.2.1 */
	{ 0, "External clock" },
	{ 1, "Internal fixed clock" },
	{ 2, "Internal variable clock" },
	{ 3, "Internal programmable clock" },
	{ 0, NULL }
};

static const struct dec_name clock_sync[] = {
	{ 0, "Free running" },
	{ 1, "Synchronized to the Start of Frame" },
	{ 0, NULL }
};

static const struct dec_name lock_units[] = {	/* UAC 1.0 4.6.1.2 */
	{ 0, "Undefined" },
	{ 1, "Milliseconds" },
	{ 2, "Decoded PCM samples" },
	{ 0, NULL }
};

static const struct dec_name terminal_types[] = {	/* Terminal Types 1.0 */
	{ 0x0100, "USB Undefined" },
	{ 0x0101, "USB Streaming" },
	{ 0x01ff, "USB vendor specific" },
	{ 0x0200, "Input Undefined" },
	{ 0x0201, "Microphone" },
	{ 0x0202, "Desktop Microphone" },
	{ 0x0203, "Personal microphone" },
	{ 0x0204, "Omni-directional microphone" },
	{ 0x0205, "Microphone array" },
	{ 0x0206, "Processing microphone array" },
	{ 0x0300, "Output Undefined" },
	{ 0x0301, "Speaker" },
	{ 0x0302, "Headphones" },
	{ 0x0303, "Head Mounted Display Audio" },
	{ 0x0304, "Desktop speaker" },
	{ 0x0305, "Room speaker" },
	{ 0x0306, "Communication speaker" },
	{ 0x0307, "Low frequency effects speaker" },
	{ 0x0400, "Bi-directional Undefined" },
	{ 0x0401, "Handset" },
	{ 0x0402, "Headset" },
	{ 0x0403, "Speakerphone, no echo reduction" },
	{ 0x0404, "Echo-suppressing speakerphone" },
	{ 0x0405, "Echo-canceling speakerphone" },
	{ 0x0500, "Telephony Undefined" },
	{ 0x0501, "Phone line" },
	{ 0x0502, "Telephone" },
	{ 0x0503, "Down Line Phone" },
	{ 0x0600, "External Undefined" },
	{ 0x0601, "Analog connector" },
	{ 0x0602, "Digital audio interface" },
	{ 0x0603, "Line connector" },
	{ 0x0604, "Legacy audio connector" },
	{ 0x0605, "S/PDIF interface" },
	{ 0x0606, "1394 DA stream" },
	{ 0x0607, "1394 DV stream soundtrack" },
	{ 0x0700, "Embedded Undefined" },
	{ 0x0701, "Level Calibration Noise Source" },
	{ 0x0702, "Equalization Noise" },
	{ 0x0703, "CD player" },
	{ 0x0704, "DAT" },
	{ 0x0705, "DCC" },
	{ 0x0706, "MiniDisk" },
	{ 0x0707, "Analog Tape" },
	{ 0x0708, "Phonograph" },
	{ 0x0709, "VCR Audio" },
	{ 0x070a, "Video Disc Audio" },
	{ 0x070b, "DVD Audio" },
	{ 0x070c, "TV Tuner Audio" },
	{ 0x070d, "Satellite Receiver Audio" },
	{ 0x070e, "Cable Tuner Audio" },
	{ 0x070f, "DSS Audio" },
	{ 0x0710, "Radio Receiver" },
	{ 0x0711, "Radio Transmitter" },
	{ 0x0712, "Multi-track Recorder" },
	{ 0x0713, "Synthesizer" },
	{ 0, NULL }
};

static const struct dec_name format_tags[] = {	/* Formats 1.0 A.1 */
	{ 0x0000, "Type I Undefined" },
	{ 0x0001, "PCM" },
	{ 0x0002, "PCM8" },
	{ 0x0003, "IEEE Float" },
	{ 0x0004, "ALAW" },
	{ 0x0005, "MULAW" },
	{ 0x1000, "Type II Undefined" },
	{ 0x1001, "MPEG" },
	{ 0x1002, "AC-3" },
	{ 0x2000, "Type III Undefined" },
	{ 0x2001, "IEC1937 AC-3" },
	{ 0x2002, "IEC1937 MPEG-1 Layer1" },
	{ 0x2003, "IEC1937 MPEG-1 Layer2/3 or IEC1937 MPEG-2 NOEXT" },
	{ 0x2004, "IEC1937 MPEG-2 EXT" },
	{ 0x2005, "IEC1937 MPEG-2 Layer1 LS" },
	{ 0x2006, "IEC1937 MPEG-2 Layer2/3 LS" },
	{ 0, NULL }
};

static const struct dec_name midi_codes[] = {	/* MIDI 1.0 table 4-1 */
	{ 0x0, "Miscellaneous (Reserved)" },
	{ 0x1, "Cable events (Reserved)" },
	{ 0x2, "Two-byte System Common message" },
	{ 0x3, "Three-byte System Common message" },
	{ 0x4, "SysEx starts or continues" },
	{ 0x5, "SysEx ends with following single byte/Single-byte System "
	    "Common Message" },
	{ 0x6, "SysEx ends with following two bytes" },
	{ 0x7, "SysEx ends with following three bytes" },
	{ 0x8, "Note-off" },
	{ 0x9, "Note-on" },
	{ 0xa, "Poly-KeyPress" },
	{ 0xb, "Control Change" },
	{ 0xc, "Program Change" },
	{ 0xd, "Channel Pressure" },
	{ 0xe, "PitchBend Change" },
	{ 0xf, "Single Byte" },
	{ 0, NULL }
};

/* ------------------------------------------------------------------------
 * Fields.  Audio control interface descriptors.
 */
F(f_ac_subtype, "Subtype", "usbaudio.ac_if_subtype", DK_HEX, 1, ac_subtypes,
    0);
F(f_ac1_subtype, "Subtype", "usbaudio.ac_if_subtype", DK_HEX, 1,
    ac1_subtypes, 0);
F(f_hdr_ver, "Version", "usbaudio.ac_if_hdr.bcdADC", DK_CENTI, 2, NULL, 0);
F(f_hdr_total, "Total length", "usbaudio.ac_if_hdr.wTotalLength", DK_UINT, 2,
    NULL, 0);
F(f_hdr_coll, "Total number of interfaces",
    "usbaudio.ac_if_hdr.bInCollection", DK_UINT, 1, NULL, 0);
F(f_hdr_intf, "Interface number", "usbaudio.ac_if_hdr.baInterfaceNr",
    DK_UINT, 1, NULL, 0);
F(f_hdr_cat, "Category", "usbaudio.ac_if_hdr.bCategory", DK_HEX, 1,
    categories, 0);
F(f_hdr_ctl, "Controls", "usbaudio.ac_if_hdr.bmControls", DK_HEX, 1, NULL,
    0);
F(f_hdr_ctl_lat, "Latency Control", "usbaudio.ac_if_hdr.bmControls.latency",
    DK_HEX, 1, caps, 0x03);
F(f_hdr_ctl_rsv, "Reserved", "usbaudio.ac_if_hdr.bmControls.rsv", DK_HEX, 1,
    NULL, 0xfc);
static const struct dec_field *const hdr_ctl_bits[] = {
	&f_hdr_ctl_lat, &f_hdr_ctl_rsv, NULL
};

/* Input terminal */
F(f_it_id, "Terminal ID", "usbaudio.ac_if_input.bTerminalID", DK_UINT, 1,
    NULL, 0);
F(f_it_type, "Terminal Type", "usbaudio.ac_if_input.wTerminalType", DK_HEX,
    2, terminal_types, 0);
F(f_it_assoc, "Assoc Terminal", "usbaudio.ac_if_input.bAssocTerminal",
    DK_UINT, 1, NULL, 0);
F(f_it_clk, "Connected Clock Entity", "usbaudio.ac_if_input.bCSourceID",
    DK_UINT, 1, NULL, 0);
F(f_it_nch, "Number Channels", "usbaudio.ac_if_input.bNrChannels", DK_UINT,
    1, NULL, 0);
F(f_it_wcc, "Channel Config", "usbaudio.ac_if_input.wChannelConfig", DK_HEX,
    2, NULL, 0);
F(f_it_bcc, "Channel Config", "usbaudio.ac_if_input.bmChannelConfig",
    DK_HEX, 4, NULL, 0);
F(f_it_names, "Channel Names", "usbaudio.ac_if_input.iChannelNames", DK_UINT,
    1, NULL, 0);
F(f_it_ctl, "Controls", "usbaudio.ac_if_input.bmControls", DK_HEX, 2, NULL,
    0);
F(f_it_ctl_copy, "Copy Protect Control",
    "usbaudio.ac_if_input.bmControls.copy", DK_HEX, 2, caps, 0x0003);
F(f_it_ctl_conn, "Connector Control",
    "usbaudio.ac_if_input.bmControls.connector", DK_HEX, 2, caps, 0x000c);
F(f_it_ctl_ovl, "Overload Control", "usbaudio.ac_if_input.bmControls.overload",
    DK_HEX, 2, caps, 0x0030);
F(f_it_ctl_clu, "Cluster Control", "usbaudio.ac_if_input.bmControls.cluster",
    DK_HEX, 2, caps, 0x00c0);
F(f_it_ctl_und, "Underflow Control",
    "usbaudio.ac_if_input.bmControls.underflow", DK_HEX, 2, caps, 0x0300);
F(f_it_ctl_ovf, "Overflow Control", "usbaudio.ac_if_input.bmControls.overflow",
    DK_HEX, 2, caps, 0x0c00);
F(f_it_ctl_rsv, "Reserved", "usbaudio.ac_if_input.bmControls.rsv", DK_HEX, 2,
    NULL, 0xf000);
F(f_it_str, "String descriptor index", "usbaudio.ac_if_input.iTerminal",
    DK_UINT, 1, NULL, 0);

/* wChannelConfig (UAC 1.0 3.7.2.3) of an input terminal or a mixer. */
#define WCC(pfx, var, bit, name)					\
	F(var, name, "usbaudio." pfx ".wChannelConfig.d" #bit, DK_BOOL, 2,	\
	    NULL, 1u << bit)
#define WCC_SET(pfx, v)							\
	WCC(pfx, v##0, 0, "Left Front");				\
	WCC(pfx, v##1, 1, "Right Front");				\
	WCC(pfx, v##2, 2, "Center Front");				\
	WCC(pfx, v##3, 3, "Low Frequency Enhancement");			\
	WCC(pfx, v##4, 4, "Left Surround");				\
	WCC(pfx, v##5, 5, "Right Surround");				\
	WCC(pfx, v##6, 6, "Left of Center");				\
	WCC(pfx, v##7, 7, "Right of Center");				\
	WCC(pfx, v##8, 8, "Surround");					\
	WCC(pfx, v##9, 9, "Side Left");					\
	WCC(pfx, v##10, 10, "Side Right");				\
	WCC(pfx, v##11, 11, "Top");					\
	F(v##rsv, "Reserved", "usbaudio." pfx ".wChannelConfig.rsv", DK_HEX,	\
	    2, NULL, 0xf000);						\
	static const struct dec_field *const v##bits[] = {		\
		&v##0, &v##1, &v##2, &v##3, &v##4, &v##5, &v##6, &v##7,	\
		&v##8, &v##9, &v##10, &v##11, &v##rsv, NULL		\
	}
WCC_SET("ac_if_input", f_it_wcc_);
WCC_SET("ac_if_mu", f_mu_wcc_);

/* bmChannelConfig (UAC 2.0 4.1) of an input terminal or AS interface. */
#define BCC(pfx, var, bit, name)					\
	F(var, name, "usbaudio." pfx ".bmChannelConfig.d" #bit, DK_BOOL, 4,	\
	    NULL, 1u << bit)
#define BCC_SET(pfx, v)							\
	BCC(pfx, v##0, 0, "Front Left");				\
	BCC(pfx, v##1, 1, "Front Right");				\
	BCC(pfx, v##2, 2, "Front Center");				\
	BCC(pfx, v##3, 3, "Low Frequency Effects");			\
	BCC(pfx, v##4, 4, "Back Left");					\
	BCC(pfx, v##5, 5, "Back Right");				\
	BCC(pfx, v##6, 6, "Front Left of Center");			\
	BCC(pfx, v##7, 7, "Front Right of Center");			\
	BCC(pfx, v##8, 8, "Back Center");				\
	BCC(pfx, v##9, 9, "Side Left");					\
	BCC(pfx, v##10, 10, "Side Right");				\
	BCC(pfx, v##11, 11, "Top Center");				\
	BCC(pfx, v##12, 12, "Top Front Left");				\
	BCC(pfx, v##13, 13, "Top Front Center");			\
	BCC(pfx, v##14, 14, "Top Front Right");				\
	BCC(pfx, v##15, 15, "Top Back Left");				\
	BCC(pfx, v##16, 16, "Top Back Center");				\
	BCC(pfx, v##17, 17, "Top Back Right");				\
	BCC(pfx, v##18, 18, "Top Front Left of Center");		\
	BCC(pfx, v##19, 19, "Top Front Right of Center");		\
	BCC(pfx, v##20, 20, "Left Low Frequency Effects");		\
	BCC(pfx, v##21, 21, "Right Low Frequency Effects");		\
	BCC(pfx, v##22, 22, "Top Side Left");				\
	BCC(pfx, v##23, 23, "Top Side Right");				\
	BCC(pfx, v##24, 24, "Bottom Center");				\
	BCC(pfx, v##25, 25, "Back Left of Center");			\
	BCC(pfx, v##26, 26, "Back Right of Center");			\
	/* (a boolean over four bits in Wireshark: shown 0 or 1) */	\
	F(v##rsv, "Reserved", "usbaudio." pfx ".bmChannelConfig.rsv",	\
	    DK_BOOL, 4, NULL, 0x78000000);				\
	BCC(pfx, v##31, 31, "Raw Data");				\
	static const struct dec_field *const v##bits[] = {		\
		&v##0, &v##1, &v##2, &v##3, &v##4, &v##5, &v##6, &v##7,	\
		&v##8, &v##9, &v##10, &v##11, &v##12, &v##13, &v##14,	\
		&v##15, &v##16, &v##17, &v##18, &v##19, &v##20, &v##21,	\
		&v##22, &v##23, &v##24, &v##25, &v##26, &v##rsv, &v##31,	\
		NULL							\
	}
BCC_SET("ac_if_input", f_it_bcc_);
BCC_SET("as_if_gen", f_as_bcc_);

static const struct dec_field *const it_ctl_bits[] = {
	&f_it_ctl_copy, &f_it_ctl_conn, &f_it_ctl_ovl, &f_it_ctl_clu,
	&f_it_ctl_und, &f_it_ctl_ovf, &f_it_ctl_rsv, NULL
};

/* Output terminal */
F(f_ot_id, "Terminal ID", "usbaudio.ac_if_output.bTerminalID", DK_UINT, 1,
    NULL, 0);
F(f_ot_type, "Terminal Type", "usbaudio.ac_if_output.wTerminalType", DK_HEX,
    2, terminal_types, 0);
F(f_ot_assoc, "Assoc Terminal", "usbaudio.ac_if_output.bAssocTerminal",
    DK_UINT, 1, NULL, 0);
F(f_ot_src, "Source ID", "usbaudio.ac_if_output.bSourceID", DK_UINT, 1, NULL,
    0);
F(f_ot_clk, "Connected Clock Entity", "usbaudio.ac_if_output.bCSourceID",
    DK_UINT, 1, NULL, 0);
F(f_ot_ctl, "Controls", "usbaudio.ac_if_output.bmControls", DK_HEX, 2, NULL,
    0);
F(f_ot_ctl_copy, "Copy Protect Control",
    "usbaudio.ac_if_output.bmControls.copy", DK_HEX, 2, caps, 0x0003);
F(f_ot_ctl_conn, "Connector Control",
    "usbaudio.ac_if_output.bmControls.connector", DK_HEX, 2, caps, 0x000c);
F(f_ot_ctl_ovl, "Overload Control",
    "usbaudio.ac_if_output.bmControls.overload", DK_HEX, 2, caps, 0x0030);
F(f_ot_ctl_und, "Underflow Control",
    "usbaudio.ac_if_output.bmControls.underflow", DK_HEX, 2, caps, 0x00c0);
F(f_ot_ctl_ovf, "Overflow Control",
    "usbaudio.ac_if_output.bmControls.overflow", DK_HEX, 2, caps, 0x0300);
F(f_ot_ctl_rsv, "Reserved", "usbaudio.ac_if_output.bmControls.rsv", DK_HEX,
    2, NULL, 0xfc00);
F(f_ot_str, "String descriptor index", "usbaudio.ac_if_output.iTerminal",
    DK_UINT, 1, NULL, 0);
static const struct dec_field *const ot_ctl_bits[] = {
	&f_ot_ctl_copy, &f_ot_ctl_conn, &f_ot_ctl_ovl, &f_ot_ctl_und,
	&f_ot_ctl_ovf, &f_ot_ctl_rsv, NULL
};

/* Feature unit */
F(f_fu_id, "Unit ID", "usbaudio.ac_if_fu.bUnitID", DK_UINT, 1, NULL, 0);
F(f_fu_src, "Source ID", "usbaudio.ac_if_fu.bSourceID", DK_UINT, 1, NULL, 0);
F(f_fu_size, "Control Size", "usbaudio.ac_if_fu.bControlSize", DK_UINT, 1,
    NULL, 0);
F(f_fu_ctls, "Controls", "usbaudio.ac_if_fu.bmaControls", DK_BYTES, 0, NULL,
    0);
F(f_fu_ctl, "Control", "usbaudio.ac_if_fu.bmaControl", DK_HEX, 1, NULL, 0);
#define FU1(var, bit, name, mask)					\
	F(var, name, "usbaudio.ac_if_fu.bmaControls.d" #bit, DK_BOOL, 1,	\
	    NULL, mask)
FU1(f_fu_d0, 0, "Mute", 0x01);
FU1(f_fu_d1, 1, "Volume", 0x02);
FU1(f_fu_d2, 2, "Bass", 0x04);
FU1(f_fu_d3, 3, "Mid", 0x08);
FU1(f_fu_d4, 4, "Treble", 0x10);
FU1(f_fu_d5, 5, "Graphic Equalizer", 0x20);
FU1(f_fu_d6, 6, "Automatic Gain", 0x40);
FU1(f_fu_d7, 7, "Delay", 0x80);
FU1(f_fu_d8, 8, "Bass Boost", 0x01);
FU1(f_fu_d9, 9, "Loudness", 0x02);
F(f_fu_rsv, "Reserved", "usbaudio.ac_if_fu.bmaControls.rsv", DK_HEX, 1,
    NULL, 0xfc);
static const struct dec_field *const fu_bits0[] = {
	&f_fu_d0, &f_fu_d1, &f_fu_d2, &f_fu_d3, &f_fu_d4, &f_fu_d5, &f_fu_d6,
	&f_fu_d7, NULL
};
static const struct dec_field *const fu_bits1[] = {
	&f_fu_d8, &f_fu_d9, &f_fu_rsv, NULL
};
F(f_fu_ctls2, "Controls", "usbaudio.ac_if_fu.bmaControls_v2", DK_BYTES, 0,
    NULL, 0);
F(f_fu_ctl2, "Control", "usbaudio.ac_if_fu.bmaControl_v2", DK_HEX, 4, NULL,
    0);
#define FU2(var, abbrev, name, mask)					\
	F(var, name, "usbaudio.ac_if_fu." abbrev, DK_HEX, 4, caps, mask)
FU2(f_fu2_d0, "bmaControls_v2.d0", "Mute", 0x3);
FU2(f_fu2_d1, "bmaControls_v2.d1", "Volume", 0xc);
FU2(f_fu2_d2, "bmaControls_v2.d2", "Bass", 0x30);
FU2(f_fu2_d3, "bmaControls_v2.d3", "Mid", 0xc0);
FU2(f_fu2_d4, "bmaControls_v2.d4", "Treble", 0x300);
FU2(f_fu2_d5, "bmaControls_v2.d5", "Graphic Equalizer", 0xc00);
FU2(f_fu2_d6, "bmaControls_v2.d6", "Automatic Gain", 0x3000);
/* (sic: Wireshark's name for bit pair 7) */
FU2(f_fu2_d7, "bmaControl_v2s.d7", "Delay", 0xc000);
FU2(f_fu2_d8, "bmaControls_v2.d8", "Bass Boost", 0x30000);
FU2(f_fu2_d9, "bmaControls_v2.d9", "Loudness", 0xc0000);
FU2(f_fu2_d10, "bmaControls_v2.d10", "Input Gain", 0x300000);
FU2(f_fu2_d11, "bmaControls_v2.d11", "Input Gain Pad", 0xc00000);
FU2(f_fu2_d12, "bmaControls_v2.d12", "Phase Inverter", 0x3000000);
FU2(f_fu2_d13, "bmaControls_v2.d13", "Underflow", 0xc000000);
FU2(f_fu2_d14, "bmaControls_v2.d14", "Overflow", 0x30000000);
F(f_fu2_rsv, "Reserved", "usbaudio.ac_if_fu.bmaControls_v2.rsv", DK_HEX, 4,
    NULL, 0xc0000000);
static const struct dec_field *const fu2_bits[] = {
	&f_fu2_d0, &f_fu2_d1, &f_fu2_d2, &f_fu2_d3, &f_fu2_d4, &f_fu2_d5,
	&f_fu2_d6, &f_fu2_d7, &f_fu2_d8, &f_fu2_d9, &f_fu2_d10, &f_fu2_d11,
	&f_fu2_d12, &f_fu2_d13, &f_fu2_d14, &f_fu2_rsv, NULL
};
F(f_fu_str, "Feature", "usbaudio.ac_if_fu.iFeature", DK_UINT, 1, NULL, 0);

/* Selector unit */
F(f_su_id, "Unit ID", "usbaudio.ac_if_su.bUnitID", DK_UINT, 1, NULL, 0);
F(f_su_npins, "Input Pins", "usbaudio.ac_if_su.bNrInPins", DK_UINT, 1, NULL,
    0);
F(f_su_srcs, "Source IDs", "usbaudio.ac_if_su.baSourceIDs", DK_BYTES, 0,
    NULL, 0);
F(f_su_src, "Source ID", "usbaudio.ac_if_su.baSourceID", DK_UINT, 1, NULL,
    0);
F(f_su_ctl, "Controls", "usbaudio.ac_if_su.bmControls", DK_HEX, 1, NULL, 0);
F(f_su_ctl_d0, "Selector Control", "usbaudio.ac_if_su.bmControls.d0", DK_HEX,
    1, caps, 0x03);
F(f_su_ctl_rsv, "Reserved", "usbaudio.ac_if_su.bmControls.rsv", DK_HEX, 1,
    NULL, 0xfc);
static const struct dec_field *const su_ctl_bits[] = {
	&f_su_ctl_d0, &f_su_ctl_rsv, NULL
};
F(f_su_str, "Selector Index", "usbaudio.ac_if_su.iSelector", DK_UINT, 1,
    NULL, 0);

/* Mixer unit */
F(f_mu_id, "Unit ID", "usbaudio.ac_if_mu.bUnitID", DK_UINT, 1, NULL, 0);
F(f_mu_npins, "Number In Pins", "usbaudio.ac_if_mu.bNrInPins", DK_UINT, 1,
    NULL, 0);
F(f_mu_src, "Source ID", "usbaudio.ac_if_mu.baSourceID", DK_UINT, 1, NULL,
    0);
F(f_mu_nch, "Number Channels", "usbaudio.ac_if_mu.bNrChannels", DK_UINT, 1,
    NULL, 0);
F(f_mu_wcc, "Channel Config", "usbaudio.ac_if_mu.wChannelConfig", DK_HEX, 2,
    NULL, 0);
F(f_mu_names, "Channel Names", "usbaudio.ac_if_mu.iChannelNames", DK_UINT, 1,
    NULL, 0);
F(f_mu_ctl, "Controls", "usbaudio.ac_if_mu.bmControls", DK_HEX, 1, NULL, 0);
F(f_mu_str, "Mixer", "usbaudio.ac_if_mu.iMixer", DK_UINT, 1, NULL, 0);

/* Clock source and selector (UAC 2.0 4.7.2.1, 4.7.2.2) */
F(f_cs_id, "Clock Source Entity", "usbaudio.ac_if_clksrc.bClockID", DK_UINT,
    1, NULL, 0);
F(f_cs_attr, "Attributes", "usbaudio.ac_if_clksrc.bmAttributes", DK_HEX, 1,
    NULL, 0);
F(f_cs_attr_type, "Type", "usbaudio.ac_if_clksrc.bmAttributes.type", DK_HEX,
    1, clock_types, 0x03);
F(f_cs_attr_sync, "Synchronization", "usbaudio.ac_if_clksrc.bmAttributes.d2",
    DK_HEX, 1, clock_sync, 0x04);
F(f_cs_attr_rsv, "Reserved", "usbaudio.ac_if_clksrc.bmAttributes.rsv",
    DK_HEX, 1, NULL, 0xf8);
F(f_cs_ctl, "Controls", "usbaudio.ac_if_clksrc.bmControls", DK_HEX, 1, NULL,
    0);
F(f_cs_ctl_freq, "Clock Frequency Control",
    "usbaudio.ac_if_clksrc.bmControls.freq", DK_HEX, 1, caps, 0x03);
F(f_cs_ctl_valid, "Clock Validity Control",
    "usbaudio.ac_if_clksrc.bmControls.validity", DK_HEX, 1, caps, 0x0c);
F(f_cs_ctl_rsv, "Reserved", "usbaudio.ac_if_clksrc.bmControls.rsv", DK_HEX,
    1, NULL, 0xf0);
F(f_cs_assoc, "Terminal", "usbaudio.ac_if_clksrc.bAssocTerminal", DK_UINT, 1,
    NULL, 0);
F(f_cs_str, "String descriptor index", "usbaudio.ac_if_clksrc.iClockSource",
    DK_UINT, 1, NULL, 0);
static const struct dec_field *const cs_attr_bits[] = {
	&f_cs_attr_type, &f_cs_attr_sync, &f_cs_attr_rsv, NULL
};
static const struct dec_field *const cs_ctl_bits[] = {
	&f_cs_ctl_freq, &f_cs_ctl_valid, &f_cs_ctl_rsv, NULL
};
F(f_cx_id, "Clock Selector Entity", "usbaudio.ac_if_clksel.bClockID",
    DK_UINT, 1, NULL, 0);
F(f_cx_npins, "Number of Input Pins", "usbaudio.ac_if_clksel.bNrInPins",
    DK_UINT, 1, NULL, 0);
F(f_cx_src, "Connected Clock Entity", "usbaudio.ac_if_clksel.baCSourceID",
    DK_UINT, 1, NULL, 0);
F(f_cx_ctl, "Controls", "usbaudio.ac_if_clksel.bmControls", DK_HEX, 1, NULL,
    0);
F(f_cx_ctl_sel, "Clock Selector Control",
    "usbaudio.ac_if_clksel.bmControls.clksel", DK_HEX, 1, caps, 0x03);
F(f_cx_ctl_rsv, "Reserved", "usbaudio.ac_if_clksel.bmControls.rsv", DK_HEX,
    1, NULL, 0xfc);
F(f_cx_str, "String descriptor index",
    "usbaudio.ac_if_clksel.iClockSelector", DK_UINT, 1, NULL, 0);
static const struct dec_field *const cx_ctl_bits[] = {
	&f_cx_ctl_sel, &f_cx_ctl_rsv, NULL
};

/* Processing and extension units: not in tshark (names in its style). */
F(f_pu_id, "Unit ID", "usbaudio.ac_if_pu.bUnitID", DK_UINT, 1, NULL, 0);
F(f_pu_type, "Process Type", "usbaudio.ac_if_pu.wProcessType", DK_HEX, 2,
    NULL, 0);
F(f_pu_npins, "Number In Pins", "usbaudio.ac_if_pu.bNrInPins", DK_UINT, 1,
    NULL, 0);
F(f_pu_src, "Source ID", "usbaudio.ac_if_pu.baSourceID", DK_UINT, 1, NULL,
    0);
F(f_pu_nch, "Number Channels", "usbaudio.ac_if_pu.bNrChannels", DK_UINT, 1,
    NULL, 0);
F(f_pu_rest, "Parameters", "usbaudio.ac_if_pu.data", DK_BYTES, 0, NULL, 0);
F(f_xu_id, "Unit ID", "usbaudio.ac_if_xu.bUnitID", DK_UINT, 1, NULL, 0);
F(f_xu_code, "Extension Code", "usbaudio.ac_if_xu.wExtensionCode", DK_HEX, 2,
    NULL, 0);
F(f_xu_npins, "Number In Pins", "usbaudio.ac_if_xu.bNrInPins", DK_UINT, 1,
    NULL, 0);
F(f_xu_src, "Source ID", "usbaudio.ac_if_xu.baSourceID", DK_UINT, 1, NULL,
    0);
F(f_xu_nch, "Number Channels", "usbaudio.ac_if_xu.bNrChannels", DK_UINT, 1,
    NULL, 0);
F(f_xu_rest, "Parameters", "usbaudio.ac_if_xu.data", DK_BYTES, 0, NULL, 0);

/* Audio streaming interface descriptors */
F(f_as_subtype, "Subtype", "usbaudio.as_if_subtype", DK_HEX, 1, as_subtypes,
    0);
F(f_as_link, "Connected Terminal ID", "usbaudio.as_if_gen.bTerminalLink",
    DK_UINT, 1, NULL, 0);
F(f_as_delay, "Interface delay in frames", "usbaudio.as_if_gen.bDelay",
    DK_UINT, 1, NULL, 0);
F(f_as_tag, "Format", "usbaudio.as_if_gen.wFormatTag", DK_HEX, 2,
    format_tags, 0);
F(f_as_ctl, "Controls", "usbaudio.as_if_gen.bmControls", DK_HEX, 1, NULL, 0);
F(f_as_ctl_act, "Active Alternate Setting Control",
    "usbaudio.as_if_gen.bmControls.active", DK_HEX, 1, caps, 0x03);
F(f_as_ctl_val, "Valid Alternate Settings Control",
    "usbaudio.as_if_gen.bmControls.valid", DK_HEX, 1, caps, 0x0c);
F(f_as_ctl_rsv, "Reserved", "usbaudio.as_if_gen.bmControls.rsv", DK_HEX, 1,
    NULL, 0xf0);
static const struct dec_field *const as_ctl_bits[] = {
	&f_as_ctl_act, &f_as_ctl_val, &f_as_ctl_rsv, NULL
};
F(f_as_ftype, "Format Type", "usbaudio.as_if_gen.bFormatType", DK_UINT, 1,
    NULL, 0);
F(f_as_fmts, "Formats", "usbaudio.as_if_gen.bmFormats", DK_HEX, 4, NULL, 0);
#define FMT(var, bit, name)						\
	F(var, name, "usbaudio.as_if_gen.bmFormats.d" #bit, DK_BOOL, 4, NULL,	\
	    1u << bit)
/* Type I (Formats 2.0 A.2.1) */
FMT(f_fi_d0, 0, "PCM");
FMT(f_fi_d1, 1, "PCM8");
FMT(f_fi_d2, 2, "IEEE Float");
FMT(f_fi_d3, 3, "ALAW");
FMT(f_fi_d4, 4, "MULAW");
F(f_fi_rsv, "Reserved", "usbaudio.as_if_gen.bmFormats.rsv", DK_HEX, 4, NULL,
    0x7fffffe0);
FMT(f_fi_d31, 31, "Type I Raw Data");
static const struct dec_field *const fmt1_bits[] = {
	&f_fi_d0, &f_fi_d1, &f_fi_d2, &f_fi_d3, &f_fi_d4, &f_fi_rsv,
	&f_fi_d31, NULL
};
/* Type II (A.2.2): Wireshark registers its MPEG, AC-3, WMA and raw data
 * bits under the same names as type I's first bits */
FMT(f_fii_d0, 0, "MPEG");
FMT(f_fii_d1, 1, "AC-3");
FMT(f_fii_d2, 2, "WMA");
FMT(f_fii_d3, 3, "DTS");
F(f_fii_rsv, "Reserved", "usbaudio.as_if_gen.bmFormats.rsv", DK_HEX, 4,
    NULL, 0x7ffffff0);
FMT(f_fii_d31, 31, "Type II Raw Data");
static const struct dec_field *const fmt2_bits[] = {
	&f_fii_d0, &f_fii_d1, &f_fii_d2, &f_fii_d3, &f_fii_rsv, &f_fii_d31,
	NULL
};
F(f_as_nch, "Number of channels", "usbaudio.as_if_gen.bNrChannels", DK_UINT,
    1, NULL, 0);
F(f_as_bcc, "Channel Config", "usbaudio.as_if_gen.bmChannelConfig", DK_HEX,
    4, NULL, 0);
F(f_as_names, "String descriptor index", "usbaudio.as_if_gen.iChannelNames",
    DK_UINT, 1, NULL, 0);

/* Format type descriptor (Formats 1.0 2.2.5, 2.0 2.3.1.6) */
F(f_ft_type, "FormatType", "usbaudio.as_if_ft.bFormatType", DK_UINT, 1,
    NULL, 0);
F(f_ft_maxrate, "Max Bit Rate", "usbaudio.as_if_ft.wMaxBitRate", DK_UINT, 2,
    NULL, 0);
F(f_ft_nch, "Number Channels", "usbaudio.as_if_ft.bNrChannels", DK_UINT, 1,
    NULL, 0);
F(f_ft_subframe, "Subframe Size", "usbaudio.as_if_ft.bSubframeSize", DK_UINT,
    1, NULL, 0);
F(f_ft_subslot, "Subslot Size", "usbaudio.as_if_ft.bSubslotSize", DK_UINT, 1,
    NULL, 0);
F(f_ft_bits, "Bit Resolution", "usbaudio.as_if_ft.bBitResolution", DK_UINT,
    1, NULL, 0);
F(f_ft_spf, "Samples Per Frame", "usbaudio.as_if_ft.wSamplesPerFrame",
    DK_UINT, 2, NULL, 0);
F(f_ft_nfreq, "Samples Frequence Type", "usbaudio.as_if_ft.bSamFreqType",
    DK_UINT, 1, NULL, 0);
F(f_ft_lower, "Lower Samples Frequence", "usbaudio.as_if_ft.tLowerSamFreq",
    DK_UINT, 3, NULL, 0);
F(f_ft_upper, "Upper Samples Frequence", "usbaudio.as_if_ft.tUpperSamFreq",
    DK_UINT, 3, NULL, 0);
F(f_ft_freq, "Samples Frequence", "usbaudio.as_if_ft.tSamFreq", DK_UINT, 3,
    NULL, 0);

/* AS isochronous endpoint (UAC 1.0 4.6.1.2, 2.0 4.10.1.2) */
F(f_ep_subtype, "Subtype", "usbaudio.as_ep_subtype", DK_HEX, 1, ep_subtypes,
    0);
F(f_ep_attr, "Attributes", "usbaudio.as_ep_gen.bmAttributes", DK_HEX, 1,
    NULL, 0);
F(f_ep_attr_d0, "Sampling Frequency Control",
    "usbaudio.as_ep_gen.bmAttributes.d0", DK_BOOL, 1, NULL, 0x01);
F(f_ep_attr_d1, "Pitch Control", "usbaudio.as_ep_gen.bmAttributes.d1",
    DK_BOOL, 1, NULL, 0x02);
F(f_ep_attr_rsv, "Reserved", "usbaudio.as_ep_gen.bmAttributes.rsv", DK_HEX,
    1, NULL, 0x7c);
F(f_ep_attr_d7, "MaxPacketsOnly", "usbaudio.as_ep_gen.bmAttributes.d7",
    DK_BOOL, 1, NULL, 0x80);
static const struct dec_field *const ep_attr1_bits[] = {
	&f_ep_attr_d0, &f_ep_attr_d1, &f_ep_attr_rsv, &f_ep_attr_d7, NULL
};
static const struct dec_field *const ep_attr2_bits[] = {
	&f_ep_attr_d7, NULL
};
F(f_ep_ctl, "Controls", "usbaudio.as_ep_gen.bmControls", DK_HEX, 1, NULL, 0);
F(f_ep_ctl_pitch, "Pitch Control", "usbaudio.as_ep_gen.bmControls.pitch",
    DK_HEX, 1, caps, 0x03);
F(f_ep_ctl_over, "Data Overrun Control",
    "usbaudio.as_ep_gen.bmControls.overrun", DK_HEX, 1, caps, 0x0c);
F(f_ep_ctl_under, "Data Underrun Control",
    "usbaudio.as_ep_gen.bmControls.underrun", DK_HEX, 1, caps, 0x30);
F(f_ep_ctl_rsv, "Reserved", "usbaudio.as_ep_gen.bmControls.bmControls.rsv",
    DK_HEX, 1, NULL, 0xc0);
static const struct dec_field *const ep_ctl_bits[] = {
	&f_ep_ctl_pitch, &f_ep_ctl_over, &f_ep_ctl_under, &f_ep_ctl_rsv, NULL
};
F(f_ep_lunits, "Lock Delay Units", "usbaudio.as_ep_gen.bLockDelayUnits",
    DK_UINT, 1, lock_units, 0);
F(f_ep_ldelay, "Lock Delay", "usbaudio.as_ep_gen.wLockDelay", DK_UINT, 2,
    NULL, 0);

/* MIDI streaming (MIDI 1.0 6.1.2, 6.2.2) */
F(f_ms_subtype, "Subtype", "usbaudio.ms_if_subtype", DK_HEX, 1, ms_subtypes,
    0);
F(f_ms_ver, "Version", "usbaudio.ms_if_hdr.bcdADC", DK_CENTI, 2, NULL, 0);
F(f_ms_total, "Total length", "usbaudio.ms_if_hdr.wTotalLength", DK_UINT, 2,
    NULL, 0);
F(f_mi_type, "Jack Type", "usbaudio.ms_if_midi_in.bJackType", DK_HEX, 1,
    jack_types, 0);
F(f_mi_id, "Jack ID", "usbaudio.ms_if_midi_in.bJackID", DK_UINT, 1, NULL, 0);
F(f_mi_str, "String descriptor index", "usbaudio.ms_if_midi_in.iJack",
    DK_UINT, 1, NULL, 0);
F(f_mo_type, "Jack Type", "usbaudio.ms_if_midi_out.bJackType", DK_HEX, 1,
    jack_types, 0);
F(f_mo_id, "Jack ID", "usbaudio.ms_if_midi_out.bJackID", DK_UINT, 1, NULL,
    0);
F(f_mo_npins, "Number of Input Pins", "usbaudio.ms_if_midi_out.bNrInputPins",
    DK_UINT, 1, NULL, 0);
F(f_mo_src, "Connected MIDI Entity", "usbaudio.ms_if_midi_out.baSourceID",
    DK_UINT, 1, NULL, 0);
F(f_mo_pin, "Entity Output Pin", "usbaudio.ms_if_midi_out.BaSourcePin",
    DK_UINT, 1, NULL, 0);
F(f_mo_str, "String descriptor index", "usbaudio.ms_if_midi_out.iJack",
    DK_UINT, 1, NULL, 0);
F(f_mse_subtype, "Subtype", "usbaudio.ms_ep_subtype", DK_HEX, 1, ep_subtypes,
    0);
F(f_mse_njacks, "Number of Embedded MIDI Jacks",
    "usbaudio.ms_ep_gen.bNumEmbMIDIJack", DK_UINT, 1, NULL, 0);
F(f_mse_jack, "Associated Embedded Jack ID",
    "usbaudio.ms_ep_gen.baAssocJackID", DK_UINT, 1, NULL, 0);

/* USB-MIDI event packets (MIDI 1.0 4) */
F(f_midi_cable, "Cable Number", "usbaudio.midi.cable_number", DK_HEX, 1,
    NULL, 0xf0);
F(f_midi_code, "Code Index", "usbaudio.midi.code_index", DK_HEX, 1,
    midi_codes, 0x0f);
F(f_midi_event, "MIDI Event", "usbaudio.midi.event", DK_BYTES, 0, NULL, 0);
F(f_midi_pad, "Padding", "usbaudio.midi.padding", DK_BYTES, 0, NULL, 0);

/* What tshark leaves undecoded in a descriptor (usbaudio.undecoded, an
 * expert item without a value) */
F(f_undecoded, "Not dissected yet", NULL, DK_BYTES, 0, NULL, 0);
F(f_bad_fu, "Descriptor size is not 7+(ch+1)*n where n=bControlSize", NULL,
    DK_BYTES, 0, NULL, 0);

/* ------------------------------------------------------------------------
 * Descriptors.
 */

/* The class version an interface follows: 1, 2 or 3 (0x30, UAC 3). */
static int
uac_version(uint8_t proto)
{
	if (proto == 0x20)
		return 2;
	if (proto == 0x30)
		return 3;
	return 1;
}

/* BCD 0x0100 as hundredths: 100. */
static uint32_t
bcd_centi(uint32_t v)
{
	return ((v >> 12 & 0xf) * 10 + (v >> 8 & 0xf)) * 100 +
	    (v >> 4 & 0xf) * 10 + (v & 0xf);
}

/* The AC header (UAC 1.0 4.3.2, 2.0 4.7.2); at returns the end. */
static void
ac_header(struct dec_cur *c, size_t *at)
{
	uint32_t	 v, k, i;

	if (*at + 2 > c->n) {
		dec_cur_field(c, &f_hdr_ver, *at, 2, NULL);
		return;
	}
	v = get_le16(c->p + *at);
	dec_tree_add(c->t, &f_hdr_ver, DB_DATA, c->base + (uint32_t)*at, 2,
	    bcd_centi(v));
	*at += 2;
	switch (bcd_centi(v) / 100) {
	case 1:
		dec_cur_field(c, &f_hdr_total, *at, 2, NULL);
		if (!dec_cur_field(c, &f_hdr_coll, *at + 2, 1, &k))
			return;
		*at += 3;
		for (i = 0; i < k && !c->cut; i++, (*at)++)
			dec_cur_field(c, &f_hdr_intf, *at, 1, NULL);
		break;
	case 2:
		dec_cur_field(c, &f_hdr_cat, *at, 1, NULL);
		dec_cur_field(c, &f_hdr_total, *at + 1, 2, NULL);
		dec_cur_word(c, &f_hdr_ctl, hdr_ctl_bits, *at + 3, 1, NULL);
		*at += 4;
		break;
	}
}

/* n one-byte fields f from *at on. */
static void
byte_list(struct dec_cur *c, const struct dec_field *f, size_t *at,
    uint32_t n)
{
	uint32_t i;

	for (i = 0; i < n && !c->cut; i++, (*at)++)
		dec_cur_field(c, f, *at, 1, NULL);
}

/* Input terminal (UAC 1.0 4.3.2.1, 2.0 4.7.2.4). */
static void
ac_input(struct dec_cur *c, int ver, size_t *at)
{
	dec_cur_field(c, &f_it_id, 3, 1, NULL);
	dec_cur_field(c, &f_it_type, 4, 2, NULL);
	dec_cur_field(c, &f_it_assoc, 6, 1, NULL);
	*at = 7;
	if (ver == 2)
		dec_cur_field(c, &f_it_clk, (*at)++, 1, NULL);
	dec_cur_field(c, &f_it_nch, (*at)++, 1, NULL);
	if (ver == 1) {
		dec_cur_word(c, &f_it_wcc, f_it_wcc_bits, *at, 2, NULL);
		*at += 2;
	} else {
		dec_cur_word(c, &f_it_bcc, f_it_bcc_bits, *at, 4, NULL);
		*at += 4;
	}
	dec_cur_field(c, &f_it_names, (*at)++, 1, NULL);
	if (ver == 2) {
		dec_cur_word(c, &f_it_ctl, it_ctl_bits, *at, 2, NULL);
		*at += 2;
	}
	dec_cur_field(c, &f_it_str, (*at)++, 1, NULL);
}

/* Output terminal (UAC 1.0 4.3.2.2, 2.0 4.7.2.5). */
static void
ac_output(struct dec_cur *c, int ver, size_t *at)
{
	dec_cur_field(c, &f_ot_id, 3, 1, NULL);
	dec_cur_field(c, &f_ot_type, 4, 2, NULL);
	dec_cur_field(c, &f_ot_assoc, 6, 1, NULL);
	dec_cur_field(c, &f_ot_src, 7, 1, NULL);
	*at = 8;
	if (ver == 2) {
		dec_cur_field(c, &f_ot_clk, 8, 1, NULL);
		dec_cur_word(c, &f_ot_ctl, ot_ctl_bits, 9, 2, NULL);
		*at = 11;
	}
	dec_cur_field(c, &f_ot_str, (*at)++, 1, NULL);
}

/* Mixer unit (UAC 1.0 4.3.2.3), in UAC 1's layout whatever the version,
 * as tshark reads it. */
static void
ac_mixer(struct dec_cur *c, size_t *at)
{
	uint32_t n;

	dec_cur_field(c, &f_mu_id, 3, 1, NULL);
	if (!dec_cur_field(c, &f_mu_npins, 4, 1, &n))
		return;
	*at = 5;
	byte_list(c, &f_mu_src, at, n);
	dec_cur_field(c, &f_mu_nch, (*at)++, 1, NULL);
	dec_cur_word(c, &f_mu_wcc, f_mu_wcc_bits, *at, 2, NULL);
	*at += 2;
	dec_cur_field(c, &f_mu_names, (*at)++, 1, NULL);
	dec_cur_field(c, &f_mu_ctl, (*at)++, 1, NULL);
	dec_cur_field(c, &f_mu_str, (*at)++, 1, NULL);
}

/* Selector unit (UAC 1.0 4.3.2.4, 2.0 4.7.2.6). */
static void
ac_selector(struct dec_cur *c, int ver, size_t *at)
{
	uint32_t n;

	dec_cur_field(c, &f_su_id, 3, 1, NULL);
	if (!dec_cur_field(c, &f_su_npins, 4, 1, &n))
		return;
	*at = 5;
	if (dec_cur_field(c, &f_su_srcs, 5, n, NULL) || n == 0) {
		c->t->depth++;
		byte_list(c, &f_su_src, at, n);
		c->t->depth--;
	}
	if (ver == 2) {
		dec_cur_word(c, &f_su_ctl, su_ctl_bits, *at, 1, NULL);
		(*at)++;
	}
	dec_cur_field(c, &f_su_str, (*at)++, 1, NULL);
}

/* Feature unit (UAC 1.0 4.3.2.5, 2.0 4.7.2.8): a bmaControls word per
 * channel, the master channel first; bLength must fit them exactly. */
static void
ac_feature(struct dec_cur *c, int ver, uint8_t bl, size_t *at)
{
	struct dec_node	*n;
	uint32_t	 cs = 4, ch, i;

	dec_cur_field(c, &f_fu_id, 3, 1, NULL);
	dec_cur_field(c, &f_fu_src, 4, 1, NULL);
	*at = 5;
	if (ver == 1) {
		if (!dec_cur_field(c, &f_fu_size, 5, 1, &cs))
			return;
		*at = 6;
		if (cs == 0 || bl < 7 || (bl - 7) % cs != 0 ||
		    (bl - 7) / cs < 1) {
			if (*at < c->n) {
				n = dec_tree_add(c->t, &f_bad_fu, DB_DATA,
				    c->base + 6, (uint32_t)(c->n - 6), 0);
				if (n != NULL)
					n->flags |= DN_BAD;
			}
			*at = c->n;
			return;
		}
		ch = (bl - 7) / cs;
	} else {
		if (bl < 10 || (bl - 6) % 4 != 0) {
			if (*at < c->n) {
				n = dec_tree_add(c->t, &f_bad_fu, DB_DATA,
				    c->base + 5, (uint32_t)(c->n - 5), 0);
				if (n != NULL)
					n->flags |= DN_BAD;
			}
			*at = c->n;
			return;
		}
		ch = (bl - 6) / 4;
	}
	/* ch words of cs bytes: the master channel and ch - 1 more */
	if (!dec_cur_field(c, ver == 1 ? &f_fu_ctls : &f_fu_ctls2, *at,
	    ch * cs, NULL))
		return;
	c->t->depth++;
	for (i = 0; i < ch && !c->cut; i++, *at += cs) {
		if (ver == 2) {
			dec_cur_word(c, &f_fu_ctl2, fu2_bits, *at, 4, NULL);
			continue;
		}
		dec_cur_word(c, &f_fu_ctl, fu_bits0, *at, 1, NULL);
		if (cs > 1)
			dec_cur_word(c, &f_fu_ctl, fu_bits1, *at + 1, 1, NULL);
	}
	c->t->depth--;
	dec_cur_field(c, &f_fu_str, (*at)++, 1, NULL);
}

/* Processing or extension unit, up to its channel count (UAC 1.0
 * 4.3.2.6-7, 2.0 4.7.2.11-12); the rest as bytes. */
static void
ac_unit(struct dec_cur *c, int xu, size_t *at)
{
	uint32_t n;

	dec_cur_field(c, xu ? &f_xu_id : &f_pu_id, 3, 1, NULL);
	dec_cur_field(c, xu ? &f_xu_code : &f_pu_type, 4, 2, NULL);
	if (!dec_cur_field(c, xu ? &f_xu_npins : &f_pu_npins, 6, 1, &n))
		return;
	*at = 7;
	byte_list(c, xu ? &f_xu_src : &f_pu_src, at, n);
	dec_cur_field(c, xu ? &f_xu_nch : &f_pu_nch, (*at)++, 1, NULL);
	if (!c->cut)
		dec_cur_rest(c, xu ? &f_xu_rest : &f_pu_rest, *at);
	*at = c->n;
}

/* Clock source and clock selector (UAC 2.0 4.7.2.1, 4.7.2.2). */
static void
ac_clock_source(struct dec_cur *c, size_t *at)
{
	dec_cur_field(c, &f_cs_id, 3, 1, NULL);
	dec_cur_word(c, &f_cs_attr, cs_attr_bits, 4, 1, NULL);
	dec_cur_word(c, &f_cs_ctl, cs_ctl_bits, 5, 1, NULL);
	dec_cur_field(c, &f_cs_assoc, 6, 1, NULL);
	dec_cur_field(c, &f_cs_str, 7, 1, NULL);
	*at = 8;
}

static void
ac_clock_selector(struct dec_cur *c, size_t *at)
{
	uint32_t n;

	dec_cur_field(c, &f_cx_id, 3, 1, NULL);
	if (!dec_cur_field(c, &f_cx_npins, 4, 1, &n))
		return;
	*at = 5;
	byte_list(c, &f_cx_src, at, n);
	dec_cur_word(c, &f_cx_ctl, cx_ctl_bits, *at, 1, NULL);
	(*at)++;
	dec_cur_field(c, &f_cx_str, (*at)++, 1, NULL);
}

/* AS general (UAC 1.0 4.5.2, 2.0 4.9.2). */
static void
as_general(struct dec_cur *c, int ver, size_t *at)
{
	const struct dec_field *const *bits;
	uint32_t	 ft;

	dec_cur_field(c, &f_as_link, 3, 1, NULL);
	if (ver == 1) {
		dec_cur_field(c, &f_as_delay, 4, 1, NULL);
		dec_cur_field(c, &f_as_tag, 5, 2, NULL);
		*at = 7;
		return;
	}
	dec_cur_word(c, &f_as_ctl, as_ctl_bits, 4, 1, NULL);
	if (!dec_cur_field(c, &f_as_ftype, 5, 1, &ft))
		return;
	bits = ft == 1 ? fmt1_bits : ft == 2 ? fmt2_bits : NULL;
	if (bits != NULL)
		dec_cur_word(c, &f_as_fmts, bits, 6, 4, NULL);
	else
		dec_cur_field(c, &f_as_fmts, 6, 4, NULL);
	dec_cur_field(c, &f_as_nch, 10, 1, NULL);
	dec_cur_word(c, &f_as_bcc, f_as_bcc_bits, 11, 4, NULL);
	dec_cur_field(c, &f_as_names, 15, 1, NULL);
	*at = 16;
}

/* Format type (Formats 1.0 2.2.5, 2.3.1, 2.4.1; 2.0 2.3.1.6). */
static void
as_format(struct dec_cur *c, int ver, size_t *at)
{
	uint32_t	 ft, nf;

	if (!dec_cur_field(c, &f_ft_type, 3, 1, &ft))
		return;
	*at = 4;
	if (ver == 2) {
		if (ft == 1) {
			dec_cur_field(c, &f_ft_subslot, 4, 1, NULL);
			dec_cur_field(c, &f_ft_bits, 5, 1, NULL);
			*at = 6;
		}
		return;
	}
	switch (ft) {
	case 1:
	case 3:
		dec_cur_field(c, &f_ft_nch, 4, 1, NULL);
		dec_cur_field(c, &f_ft_subframe, 5, 1, NULL);
		dec_cur_field(c, &f_ft_bits, 6, 1, NULL);
		*at = 7;
		break;
	case 2:
		dec_cur_field(c, &f_ft_maxrate, 4, 2, NULL);
		dec_cur_field(c, &f_ft_spf, 6, 2, NULL);
		*at = 8;
		break;
	default:
		return;
	}
	if (!dec_cur_field(c, &f_ft_nfreq, *at, 1, &nf))
		return;
	(*at)++;
	if (nf == 0) {
		dec_cur_field(c, &f_ft_lower, *at, 3, NULL);
		dec_cur_field(c, &f_ft_upper, *at + 3, 3, NULL);
		*at += 6;
		return;
	}
	for (; nf > 0 && !c->cut; nf--, *at += 3)
		dec_cur_field(c, &f_ft_freq, *at, 3, NULL);
}

/* AS isochronous endpoint, general (UAC 1.0 4.6.1.2, 2.0 4.10.1.2). */
static void
as_endpoint(struct dec_cur *c, int ver, size_t *at)
{
	*at = 3;
	if (ver == 1)
		dec_cur_word(c, &f_ep_attr, ep_attr1_bits, (*at)++, 1, NULL);
	else {
		dec_cur_word(c, &f_ep_attr, ep_attr2_bits, (*at)++, 1, NULL);
		dec_cur_word(c, &f_ep_ctl, ep_ctl_bits, (*at)++, 1, NULL);
	}
	dec_cur_field(c, &f_ep_lunits, *at, 1, NULL);
	dec_cur_field(c, &f_ep_ldelay, *at + 1, 2, NULL);
	*at += 3;
}

/* MIDI streaming interface descriptors (MIDI 1.0 6.1.2). */
static void
ms_interface(struct dec_cur *c, uint32_t st, size_t *at)
{
	uint32_t	 n;

	switch (st) {
	case 0x01:
		if (c->n >= 5)
			dec_tree_add(c->t, &f_ms_ver, DB_DATA, c->base + 3, 2,
			    bcd_centi(get_le16(c->p + 3)));
		else
			dec_cur_field(c, &f_ms_ver, 3, 2, NULL);
		dec_cur_field(c, &f_ms_total, 5, 2, NULL);
		*at = 7;
		break;
	case 0x02:
		dec_cur_field(c, &f_mi_type, 3, 1, NULL);
		dec_cur_field(c, &f_mi_id, 4, 1, NULL);
		dec_cur_field(c, &f_mi_str, 5, 1, NULL);
		*at = 6;
		break;
	case 0x03:
		dec_cur_field(c, &f_mo_type, 3, 1, NULL);
		dec_cur_field(c, &f_mo_id, 4, 1, NULL);
		if (!dec_cur_field(c, &f_mo_npins, 5, 1, &n))
			return;
		for (*at = 6; n > 0 && !c->cut; n--, *at += 2) {
			dec_cur_field(c, &f_mo_src, *at, 1, NULL);
			dec_cur_field(c, &f_mo_pin, *at + 1, 1, NULL);
		}
		dec_cur_field(c, &f_mo_str, (*at)++, 1, NULL);
		break;
	}
}

/* The heading of a descriptor: its kind, and its subtype's name. */
static void
label(const struct dec_cls_desc *cd, struct dec_tree *t, const char *kind,
    const struct dec_name *names)
{
	const char	*name = NULL, *s;

	if (cd->n >= 3 && names != NULL)
		name = dec_name_find(names, cd->p[2]);
	if (name != NULL)
		s = dec_tree_printf(t, "Class-specific %s Descriptor: %s", kind,
		    name);
	else
		s = dec_tree_printf(t, "Class-specific %s Descriptor", kind);
	if (s != NULL)
		cd->label->str = s;
}

/* A descriptor the data ends inside (fewer bytes than its bLength) is
 * not malformed, and dec-desc.c flags its heading as cut unless the
 * request asked for no more: its fields carry no flag of their own. */
static void
unbad_cut(const struct dec_cls_desc *cd, struct dec_tree *t, size_t from)
{
	size_t	 i;

	if (cd->n >= cd->p[0])
		return;
	for (i = from; i < t->n; i++)
		if (t->node[i].flags & DN_CUT)
			t->node[i].flags &= (uint8_t)~(DN_BAD | DN_CUT);
}

static int
audio_desc(const struct dec_cls_desc *cd, struct dec_tree *t)
{
	struct dec_cur	 c = { t, cd->p, cd->n, cd->off, 0 };
	size_t		 from = t->n;
	int		 ver = uac_version(cd->proto);
	size_t		 at = 3;
	uint32_t	 st;

	/* cut before its subtype: the bytes, as any descriptor cut there */
	if (cd->n < 3)
		return 0;
	if (cd->p[1] == UAC_CS_INTERFACE && cd->subcls == SC_CONTROL) {
		label(cd, t, "Audio Control Interface", ver == 1 ?
		    ac1_subtypes : ac_subtypes);
		if (!dec_cur_field(&c, ver == 1 ? &f_ac1_subtype :
		    &f_ac_subtype, 2, 1, &st))
			return 1;
		if (st == 0x01)
			ac_header(&c, &at);
		else if (ver == 3)
			;	/* tshark leaves UAC 3 descriptors whole */
		else if (st == 0x02)
			ac_input(&c, ver, &at);
		else if (st == 0x03)
			ac_output(&c, ver, &at);
		else if (st == 0x04)
			ac_mixer(&c, &at);
		else if (st == 0x05)
			ac_selector(&c, ver, &at);
		else if (st == 0x06)
			ac_feature(&c, ver, cd->p[0], &at);
		else if (st == (ver == 1 ? AC1_PROCESSING : AC2_PROCESSING))
			ac_unit(&c, 0, &at);
		else if (st == (ver == 1 ? AC1_EXTENSION : AC2_EXTENSION))
			ac_unit(&c, 1, &at);
		else if (st == 0x0a && ver == 2)
			ac_clock_source(&c, &at);
		else if (st == 0x0b && ver == 2)
			ac_clock_selector(&c, &at);
	} else if (cd->p[1] == UAC_CS_INTERFACE && cd->subcls == SC_STREAMING) {
		label(cd, t, "Audio Streaming Interface", as_subtypes);
		if (!dec_cur_field(&c, &f_as_subtype, 2, 1, &st))
			return 1;
		if (st == 0x01 && ver != 3)
			as_general(&c, ver, &at);
		else if (st == 0x02 && ver != 3)
			as_format(&c, ver, &at);
	} else if (cd->p[1] == UAC_CS_ENDPOINT && cd->subcls == SC_STREAMING) {
		label(cd, t, "Audio Streaming Endpoint", NULL);
		if (!dec_cur_field(&c, &f_ep_subtype, 2, 1, &st))
			return 1;
		if (st == 0x01 && ver != 3)
			as_endpoint(&c, ver, &at);
	} else if (cd->p[1] == UAC_CS_INTERFACE && cd->subcls == SC_MIDI) {
		label(cd, t, "MIDI Streaming Interface", ms_subtypes);
		if (!dec_cur_field(&c, &f_ms_subtype, 2, 1, &st))
			return 1;
		ms_interface(&c, st, &at);
	} else if (cd->p[1] == UAC_CS_ENDPOINT && cd->subcls == SC_MIDI) {
		label(cd, t, "MIDI Streaming Endpoint", NULL);
		if (!dec_cur_field(&c, &f_mse_subtype, 2, 1, &st))
			return 1;
		if (st == 0x01 && dec_cur_field(&c, &f_mse_njacks, 3, 1, &st)) {
			at = 4;
			byte_list(&c, &f_mse_jack, &at, st);
		}
	} else
		return 0;
	if (!c.cut && at < c.n)
		dec_cur_rest(&c, &f_undecoded, at);
	unbad_cut(cd, t, from);
	return 1;
}

/* ------------------------------------------------------------------------
 * Class requests (UAC 1.0 5.2, 2.0 5.2): what their data means, by the
 * entity they address (wIndex 15:8, found in the AC interface's
 * descriptors) or the endpoint, and the control selector (wValue 15:8).
 */

F(f_rq_freq, "Sampling Frequency", "usbaudio.request.sampling_freq",
    DK_UINT, 4, NULL, 0);
F(f_rq_pitch, "Pitch Control", "usbaudio.request.pitch", DK_UINT, 1, NULL,
    0);
F(f_rq_mute, "Mute", "usbaudio.request.mute", DK_UINT, 1, NULL, 0);
F(f_rq_volume, "Volume (1/256 dB)", "usbaudio.request.volume", DK_INT, 2,
    NULL, 0);
F(f_rq_valid, "Clock Valid", "usbaudio.request.clock_valid", DK_UINT, 1,
    NULL, 0);
F(f_rq_nsub, "wNumSubRanges", "usbaudio.request.wNumSubRanges", DK_UINT, 2,
    NULL, 0);
F(f_rq_min, "Minimum", "usbaudio.request.range.min", DK_INT, 4, NULL, 0);
F(f_rq_max, "Maximum", "usbaudio.request.range.max", DK_INT, 4, NULL, 0);
F(f_rq_res, "Resolution", "usbaudio.request.range.res", DK_INT, 4, NULL, 0);
F(f_rq_vmin, "Minimum (1/256 dB)", "usbaudio.request.range.min", DK_INT, 2,
    NULL, 0);
F(f_rq_vmax, "Maximum (1/256 dB)", "usbaudio.request.range.max", DK_INT, 2,
    NULL, 0);
F(f_rq_vres, "Resolution (1/256 dB)", "usbaudio.request.range.res", DK_INT,
    2, NULL, 0);


/* What a request's data is. */
enum uac_ctl {
	CTL_OTHER,
	CTL_FREQ,			/* Hz: 3 bytes (UAC 1), 4 (UAC 2) */
	CTL_PITCH,
	CTL_MUTE,
	CTL_VOLUME,			/* 1/256 dB, signed */
	CTL_VALID,
};

/* The request's meaning, from the setup and the descriptors: its class
 * version in *ver. */
static enum uac_ctl
audio_control(const struct dec_cls_arg *a, int *ver)
{
	const struct dec_setup *s = &a->info->setup;
	const uint8_t	*cfg = a->info->cfg;
	struct dec_dref	 r;
	size_t		 len = a->info->cfg_len, off = 0;
	uint8_t		 cs = s->wValue >> 8, id = s->wIndex >> 8;
	int		 in_ac = 0, st = -1;

	*ver = uac_version(a->info->proto);
	if (SETUP_RECIP(s) == 2)		/* endpoint: UAC 1.0 5.2.3.2 */
		return cs == 1 ? CTL_FREQ : cs == 2 ? CTL_PITCH : CTL_OTHER;
	if (SETUP_RECIP(s) != 1 || id == 0 || cfg == NULL)
		return CTL_OTHER;
	/* the entity id in the AC interface the request goes to */
	while (dec_desc_next(cfg, len, &off, &r)) {
		if (r.type == USB_DT_INTERFACE && r.len >= 8) {
			in_ac = r.p[2] == (s->wIndex & 0xff) &&
			    r.p[5] == 0x01 && r.p[6] == SC_CONTROL;
			if (in_ac)
				*ver = uac_version(r.p[7]);
		} else if (in_ac && r.type == UAC_CS_INTERFACE && r.len >= 4 &&
		    r.p[2] >= 0x02 && r.p[3] == id) {
			st = r.p[2];
			break;
		}
	}
	if (st == 0x06)			/* feature unit: UAC 1.0 A.10.2 */
		return cs == 1 ? CTL_MUTE : cs == 2 ? CTL_VOLUME : CTL_OTHER;
	if (st == 0x0a && *ver == 2)	/* clock source: UAC 2.0 A.17.1 */
		return cs == 1 ? CTL_FREQ : cs == 2 ? CTL_VALID : CTL_OTHER;
	return CTL_OTHER;
}

/* Is this record a control transfer's data: an OUT request's on its
 * submit, an IN request's answer? */
static int
ctrl_data(const struct urb_rec *r, const struct dec_info *info)
{
	if (r->data_len == 0 || (r->status != 0 && r->type != 'S') ||
	    !(info->flags & DI_SETUP) || SETUP_TYPE(&info->setup) != 1)
		return 0;
	if (SETUP_DIR_IN(&info->setup))
		return r->type == 'C';
	return r->type == 'S';
}

/* A signed field of size bytes (2 or 4) at off, kept sign-extended as
 * DK_INT nodes are. */
static void
signed_field(struct dec_cur *c, const struct dec_field *f, size_t off,
    size_t size)
{
	int64_t		 v;

	if (c->cut || off > c->n || size > c->n - off) {
		dec_cur_field(c, f, off, size, NULL);
		return;
	}
	v = size == 2 ? (int16_t)get_le16(c->p + off) :
	    (int32_t)get_le32(c->p + off);
	dec_tree_add(c->t, f, DB_DATA, c->base + (uint32_t)off, (uint32_t)size,
	    (uint64_t)v);
}

/* A UAC 2 RANGE answer (5.2.1): wNumSubRanges, then (MIN, MAX, RES)
 * triples of size bytes. */
static void
range_tree(struct dec_cur *c, enum uac_ctl ctl)
{
	uint32_t	 n, i, size = ctl == CTL_VOLUME ? 2 : 4;
	size_t		 at = 2;

	if (!dec_cur_field(c, &f_rq_nsub, 0, 2, &n))
		return;
	/* (a first GET RANGE often asks for the count alone) */
	for (i = 0; i < n && !c->cut && at < c->n; i++, at += 3 * size) {
		signed_field(c, size == 2 ? &f_rq_vmin : &f_rq_min, at, size);
		signed_field(c, size == 2 ? &f_rq_vmax : &f_rq_max, at + size,
		    size);
		signed_field(c, size == 2 ? &f_rq_vres : &f_rq_res,
		    at + 2 * size, size);
	}
}

static int
audio_ctrl_tree(const struct dec_cls_arg *a, struct dec_tree *t)
{
	const struct urb_rec *r = a->r;
	struct dec_cur	 c = { t, r->data, r->data_len, 0, 0 };
	enum uac_ctl	 ctl;
	int		 ver;

	if (!ctrl_data(r, a->info))
		return 0;
	ctl = audio_control(a, &ver);
	if (r->type == 'C')
		dec_tree_ctl_response(r, t);	/* as tshark shows it */
	else
		dec_tree_fragment(r, t);
	if (ctl == CTL_OTHER)
		return 1;
	t->depth++;
	if (ver == 2 && a->info->setup.bRequest == 0x02)
		range_tree(&c, ctl);
	else if (ctl == CTL_FREQ)
		dec_cur_field(&c, &f_rq_freq, 0, ver == 2 ? 4 : 3, NULL);
	else if (ctl == CTL_PITCH)
		dec_cur_field(&c, &f_rq_pitch, 0, 1, NULL);
	else if (ctl == CTL_MUTE)
		dec_cur_field(&c, &f_rq_mute, 0, 1, NULL);
	else if (ctl == CTL_VOLUME)
		signed_field(&c, &f_rq_volume, 0, 2);
	else if (ctl == CTL_VALID)
		dec_cur_field(&c, &f_rq_valid, 0, 1, NULL);
	t->depth--;
	return 1;
}

/* "-12.50 dB" from 1/256 dB; 0x8000 is silence (UAC 1.0 5.2.2.4.3.2). */
static void
db_summary(int16_t v, struct sbuf *b)
{
	int32_t	 x = v;

	if (v == INT16_MIN) {
		sb_puts(b, "-inf dB");
		return;
	}
	if (x < 0) {
		sb_putc(b, '-');
		x = -x;
	}
	sb_u64(b, (uint64_t)(x / 256));
	sb_putc(b, '.');
	sb_putc(b, (char)('0' + x % 256 * 100 / 256 / 10));
	sb_putc(b, (char)('0' + x % 256 * 100 / 256 % 10));
	sb_puts(b, " dB");
}

/* The channel number of a feature unit control (wValue 7:0): 0 is the
 * master channel, 0xff all of them (UAC 1.0 5.2.2.4.1). */
static void
channel(uint8_t cn, struct sbuf *b)
{
	if (cn == 0)
		sb_puts(b, " master");
	else if (cn == 0xff)
		sb_puts(b, " all channels");
	else
		sb_printf(b, " ch %u", cn);
}

static int
audio_ctrl_summary(const struct dec_cls_arg *a, struct sbuf *b)
{
	const struct urb_rec *r = a->r;
	const uint8_t	*p = r->data;
	enum uac_ctl	 ctl;
	uint32_t	 n, i;
	int		 ver;

	if (!ctrl_data(r, a->info) ||
	    (ctl = audio_control(a, &ver)) == CTL_OTHER)
		return 0;
	if (ver == 2 && a->info->setup.bRequest == 0x02) {
		if (r->data_len < 2)
			return 0;
		n = get_le16(p);
		sb_puts(b, ctl == CTL_FREQ ? "sampling frequency" :
		    ctl == CTL_VOLUME ? "volume" : "control");
		sb_printf(b, ", %u range%s%s", n, n == 1 ? "" : "s",
		    r->data_len > 2 ? ":" : "");
		for (i = 0; i < n && i < 4; i++) {
			if (ctl == CTL_VOLUME && 2 + 6 * (i + 1) <= r->data_len) {
				sb_putc(b, ' ');
				db_summary((int16_t)get_le16(p + 2 + 6 * i), b);
				sb_puts(b, "..");
				db_summary((int16_t)get_le16(p + 4 + 6 * i), b);
			} else if (ctl != CTL_VOLUME &&
			    2 + 12 * (i + 1) <= r->data_len) {
				sb_putc(b, ' ');
				sb_u64(b, get_le32(p + 2 + 12 * i));
				sb_puts(b, "..");
				sb_u64(b, get_le32(p + 6 + 12 * i));
			}
		}
		if (n > 4)
			sb_puts(b, " ...");
		return 1;
	}
	switch (ctl) {
	case CTL_FREQ:
		if (r->data_len < 3)
			return 0;
		sb_puts(b, "sampling frequency ");
		sb_u64(b, ver == 2 && r->data_len >= 4 ? get_le32(p) :
		    (uint32_t)p[0] | (uint32_t)p[1] << 8 |
		    (uint32_t)p[2] << 16);
		sb_puts(b, " Hz");
		break;
	case CTL_PITCH:
		sb_puts(b, p[0] ? "pitch control on" : "pitch control off");
		break;
	case CTL_MUTE:
		sb_puts(b, p[0] ? "mute on" : "mute off");
		channel(a->info->setup.wValue & 0xff, b);
		break;
	case CTL_VOLUME:
		if (r->data_len < 2)
			return 0;
		sb_puts(b, "volume");
		channel(a->info->setup.wValue & 0xff, b);
		sb_putc(b, ' ');
		db_summary((int16_t)get_le16(p), b);
		break;
	case CTL_VALID:
		sb_puts(b, p[0] ? "clock valid" : "clock not valid");
		break;
	default:
		return 0;
	}
	return 1;
}

/* ------------------------------------------------------------------------
 * USB-MIDI event packets on a MIDI streaming interface's bulk endpoints
 * (MIDI 1.0 4): 4 bytes each, cable number and code index first.
 */

/* The MIDI bytes a code index number carries (MIDI 1.0 table 4-1). */
static uint32_t
midi_size(uint8_t cin)
{
	static const uint8_t sizes[16] = {
		3, 3, 2, 3, 3, 1, 2, 3, 3, 3, 3, 3, 2, 2, 3, 1
	};

	return sizes[cin & 0x0f];
}

static int
midi_tree(const struct dec_cls_arg *a, struct dec_tree *t)
{
	const struct urb_rec *r = a->r;
	const char	*s;
	uint32_t	 off, n;

	for (off = 0; off + 4 <= r->data_len; off += 4) {
		s = dec_tree_printf(t, "USB Midi Event Packet: %s",
		    dec_name_find(midi_codes, r->data[off] & 0x0f));
		dec_tree_push(t, s != NULL ? s : "USB Midi Event Packet",
		    DB_DATA, off, 4);
		dec_tree_add(t, &f_midi_cable, DB_DATA, off, 1,
		    r->data[off] >> 4);
		dec_tree_add(t, &f_midi_code, DB_DATA, off, 1,
		    r->data[off] & 0x0f);
		n = midi_size(r->data[off]);
		dec_tree_add(t, &f_midi_event, DB_DATA, off + 1, n, 0);
		if (n < 3)
			dec_tree_add(t, &f_midi_pad, DB_DATA, off + 1 + n,
			    3 - n, 0);
		dec_tree_pop(t);
	}
	return 1;
}

static int
midi_summary(const struct dec_cls_arg *a, struct sbuf *b)
{
	const struct urb_rec *r = a->r;
	uint32_t	 off, i, n;

	sb_puts(b, "USB-MIDI");
	for (off = 0; off + 4 <= r->data_len && off < 16; off += 4) {
		sb_printf(b, "%s cable %u %s:", off == 0 ? "" : ";",
		    r->data[off] >> 4,
		    dec_name_find(midi_codes, r->data[off] & 0x0f));
		n = midi_size(r->data[off]);
		for (i = 0; i < n; i++)
			sb_printf(b, " %02x", r->data[off + 1 + i]);
	}
	if (r->data_len > 16)
		sb_puts(b, " ...");
	return 1;
}

static int
audio_tree(const struct dec_cls_arg *a, struct dec_tree *t)
{
	if (a->r->xfer_type == XFER_CTRL)
		return audio_ctrl_tree(a, t);
	if (a->r->xfer_type == XFER_BULK && a->info->subcls == SC_MIDI &&
	    a->r->data_len > 0)
		return midi_tree(a, t);
	return 0;
}

static int
audio_summary(const struct dec_cls_arg *a, struct sbuf *b)
{
	if (a->r->xfer_type == XFER_CTRL)
		return audio_ctrl_summary(a, b);
	if (a->r->xfer_type == XFER_BULK && a->info->subcls == SC_MIDI &&
	    a->r->data_len >= 4)
		return midi_summary(a, b);
	return 0;
}

/* Wireshark 4.0's usbaudio item: a USB-MIDI event packet's
 * (packet-usb-audio.c's bulk dissector); the control requests and the
 * streams' data hold none. */
static int
audio_item(const struct urb_rec *r, const struct dec_info *info, int mine)
{
	return mine && r->xfer_type == XFER_BULK && info->subcls == SC_MIDI &&
	    r->data_len > 0;
}

/* Audio (UAC 1.0 4.2, 2.0 A.1: class 0x01, any subclass and protocol). */
const struct dec_class_ops dec_class_audio = {
	.name = "audio",
	.wsproto = "usbaudio",
	.cls = 0x01, .subcls = DEC_CLS_ANY, .proto = DEC_CLS_ANY,
	.summary = audio_summary,
	.tree = audio_tree,
	.desc = audio_desc,
	.needs_cfg = 1,
	.item = audio_item,
};
