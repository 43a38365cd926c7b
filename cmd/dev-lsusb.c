/*
 * cmd/dev-lsusb.c - a device's descriptors as `lsusb -v` lays them out
 * (same headings, field names, number formats and columns), decoded by
 * decode/dec-desc.c and, for the class-specific descriptors of audio, CDC
 * and CCID interfaces, by the class decoders it calls (dec-audio.c,
 * dec-cdc.c, dec-ccid.c); and what lsusb asks the device after them.
 */
#include <ctype.h>
#include <libusb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decode/decode.h"
#include "decode/usbids.h"
#include "devices.h"
#include "cmd.h"

/* ------------------------------------------------------------------------
 * The descriptor tree as lsusb -v lays it out.
 */

enum lsfmt {
	LF_SKIP,		/* not shown */
	LF_DEC,			/* %u */
	LF_HEX2,		/* 0x%02x */
	LF_HEX4,		/* 0x%04x */
	LF_BCD,			/* %x.%02x */
	LF_STR,			/* %u and the string */
	LF_NAMED,		/* %u and the name from the field's table */
	LF_CLASS,		/* %u and the class name */
	LF_VID,			/* 0x%04x and the usb.ids vendor */
	LF_PID,			/* 0x%04x and the usb.ids product */
	LF_EPADDR,		/* 0x%02x  EP n IN */
	LF_EPATTR,		/* %u, then transfer, synch and usage types */
	LF_MPS,			/* 0x%04x  1x N bytes */
	LF_MAXPOWER,		/* NmA */
	LF_BYTES,		/* 0x%02x per byte */
	LF_CFG_ONE,		/* bmAttributes bit 7 */
	LF_CFG_SELF,		/* bit 6 */
	LF_FLAG,		/* a line with the lsusb name when set */
	LF_HUB_POWER,		/* wHubCharacteristics bits */
	LF_HUB_OC,
	LF_HUB_TT,
	LF_HEX8,		/* 0x%08x */
	LF_HEXNAMED,		/* 0x%04x and the name from the field's table */
	LF_INDEXED,		/* name(i) %u: the i-th of the descriptor */
	LF_SUBTYPE,		/* %u (HEADER) */
	LF_CHCFG,		/* 0x%04x, then the channels, one a line */
	LF_FU_CTLS,		/* bmaControls(i) of each channel */
	LF_FMT_TYPE,		/* %u (FORMAT_TYPE_I) */
	LF_FREQ_TYPE,		/* %u Discrete / Continuous */
	LF_FREQ,		/* tSamFreq[ i] %u */
	LF_CDC_CAPS,		/* 0x%02x, then its bits, one a line */
	LF_CDC_SLAVES,		/* every subordinate interface on one line */
	LF_CCID_BCD,		/* %x.%02x and the version warning */
	LF_CCID_VOLT,		/* %u  5.0V 3.0V 1.8V */
	LF_CCID_PROTO,		/* %u  T=0 T=1 */
	LF_CCID_FEAT,		/* %08X, then the features, one a line */
	LF_CCID_ECHO,		/* echo, or %02X */
	LF_CCID_LCD,		/* none, or N cols N lines */
	LF_CCID_PIN,		/* %u  verification modification */
	LF_DFU_ATTR,		/* %u, then a line for each of bits 3..0 */
	LF_CCID_SYNC,		/* %08X  2-wire 3-wire I2C */
	LF_CCID_MECH,		/* %08X  accept eject capture lock */
	LF_INDEXED2,		/* name(%2u) %u */
	LF_BYTES_IDX,		/* name(%2u) %u for each byte */
	LF_GUID,		/* {guid}, after the name's column */
	LF_UVC_CLOCK,		/* %5u.%06uMHz */
	LF_UVC_CTLSIZE,		/* %u, wider in a camera terminal */
	LF_UVC_CONTROLS,	/* bmControls by where they are */
	LF_UVC_STDS,		/* 0x%02x, then the video standards */
	LF_UVC_MJPEG,		/* %u, then Fixed-size samples */
	LF_UVC_INTERLACE,	/* 0x%02x, then the four interlace lines */
	LF_UVC_FRAMECAPS,	/* 0x%02x, then still image and frame rate */
	LF_UVC_COLOR,		/* %u (name), from lsusb's tables */
	LF_CHCFG2,		/* 0x%08x, then the UAC 2 channels */
	LF_CLKATTR,		/* %u Internal fixed clock (UAC 2) */
	LF_FORMATS,		/* 0x%08x, then the Type I formats */
	LF_VT,			/* 0x%04x and the video terminal's name */
};

/* Our field (by descriptor type and decoder name) to lsusb's. */
struct lsrow {
	uint8_t		 type;		/* bDescriptorType; 0 any */
	const char	*name;		/* dec-desc.c's field name */
	const char	*ls;		/* lsusb's, NULL = the same */
	enum lsfmt	 fmt;
	uint8_t		 width;		/* name + value; 0 = 25 */
	const char	*suffix;	/* after the value */
	/* lsusb's words for the controls the value has (desc-dump.c's
	 * desc_bmcontrol_dump): a NULL-terminated list, a bit each
	 * (wbits 1) or two (wbits 2: read-only, read/write) */
	const char *const *words;
	uint8_t		 wbits;
};

/* From usbutils 014 lsusb.c (dump_device, dump_config, ...). */
/* Most rows: lsusb's usual column, no unit. */
#define R(type, name, ls, fmt)	{ type, name, ls, fmt, 0, NULL, NULL, 0 }

static const struct lsrow lsrows[] = {
	R(0, "bLength", NULL, LF_DEC),
	R(0, "bDescriptorType", NULL, LF_DEC),
	R(USB_DT_DEVICE, "bcdUSB", NULL, LF_BCD),
	R(USB_DT_DEVICE, "bDeviceClass", NULL, LF_CLASS),
	R(USB_DT_DEVICE, "bDeviceSubClass", NULL, LF_DEC),
	R(USB_DT_DEVICE, "bDeviceProtocol", NULL, LF_DEC),
	R(USB_DT_DEVICE, "bMaxPacketSize0", NULL, LF_DEC),
	R(USB_DT_DEVICE, "idVendor", NULL, LF_VID),
	R(USB_DT_DEVICE, "idProduct", NULL, LF_PID),
	R(USB_DT_DEVICE, "bcdDevice", NULL, LF_BCD),
	R(USB_DT_DEVICE, "iManufacturer", NULL, LF_STR),
	R(USB_DT_DEVICE, "iProduct", NULL, LF_STR),
	R(USB_DT_DEVICE, "iSerialNumber", "iSerial", LF_STR),
	R(USB_DT_DEVICE, "bNumConfigurations", NULL, LF_DEC),
	R(USB_DT_CONFIG, "wTotalLength", NULL, LF_HEX4),
	R(USB_DT_CONFIG, "bNumInterfaces", NULL, LF_DEC),
	R(USB_DT_CONFIG, "bConfigurationValue", NULL, LF_DEC),
	R(USB_DT_CONFIG, "iConfiguration", NULL, LF_STR),
	R(USB_DT_CONFIG, "bmAttributes", NULL, LF_HEX2),
	R(USB_DT_CONFIG, "Must be 1", "(Missing must-be-set bit!)", LF_CFG_ONE),
	R(USB_DT_CONFIG, "Self-Powered", "Self Powered", LF_CFG_SELF),
	R(USB_DT_CONFIG, "Remote Wakeup", NULL, LF_FLAG),
	R(USB_DT_CONFIG, "bMaxPower", "MaxPower", LF_MAXPOWER),
	R(USB_DT_CONFIG, "Max power (mA, 2 mA units)", NULL, LF_SKIP),
	R(USB_DT_INTERFACE, "bInterfaceNumber", NULL, LF_DEC),
	R(USB_DT_INTERFACE, "bAlternateSetting", NULL, LF_DEC),
	R(USB_DT_INTERFACE, "bNumEndpoints", NULL, LF_DEC),
	R(USB_DT_INTERFACE, "bInterfaceClass", NULL, LF_CLASS),
	R(USB_DT_INTERFACE, "bInterfaceSubClass", NULL, LF_NAMED),
	R(USB_DT_INTERFACE, "bInterfaceProtocol", NULL, LF_NAMED),
	R(USB_DT_INTERFACE, "iInterface", NULL, LF_STR),
	R(USB_DT_ENDPOINT, "bEndpointAddress", NULL, LF_EPADDR),
	R(USB_DT_ENDPOINT, "bmAttributes", NULL, LF_EPATTR),
	R(USB_DT_ENDPOINT, "wMaxPacketSize", NULL, LF_MPS),
	R(USB_DT_ENDPOINT, "bInterval", NULL, LF_DEC),
	R(USB_DT_ENDPOINT, "bRefresh", NULL, LF_DEC),
	R(USB_DT_ENDPOINT, "bSynchAddress", NULL, LF_DEC),
	R(USB_DT_DEVICE_QUALIFIER, "bcdUSB", NULL, LF_BCD),
	R(USB_DT_DEVICE_QUALIFIER, "bDeviceClass", NULL, LF_CLASS),
	R(USB_DT_DEVICE_QUALIFIER, "bDeviceSubClass", NULL, LF_DEC),
	R(USB_DT_DEVICE_QUALIFIER, "bDeviceProtocol", NULL, LF_DEC),
	R(USB_DT_DEVICE_QUALIFIER, "bMaxPacketSize0", NULL, LF_DEC),
	R(USB_DT_DEVICE_QUALIFIER, "bNumConfigurations", NULL, LF_DEC),
	R(USB_DT_DEVICE_QUALIFIER, "bReserved", NULL, LF_SKIP),
	R(USB_DT_INTERFACE_ASSOCIATION, "bFirstInterface", NULL, LF_DEC),
	R(USB_DT_INTERFACE_ASSOCIATION, "bInterfaceCount", NULL, LF_DEC),
	R(USB_DT_INTERFACE_ASSOCIATION, "bFunctionClass", NULL, LF_CLASS),
	R(USB_DT_INTERFACE_ASSOCIATION, "bFunctionSubClass", NULL, LF_DEC),
	R(USB_DT_INTERFACE_ASSOCIATION, "bFunctionProtocol", NULL, LF_DEC),
	R(USB_DT_INTERFACE_ASSOCIATION, "iFunction", NULL, LF_STR),
	R(USB_DT_BOS, "wTotalLength", NULL, LF_HEX4),
	R(USB_DT_BOS, "bNumDeviceCaps", NULL, LF_DEC),
	R(USB_DT_DEVICE_CAPABILITY, "bDevCapabilityType", NULL, LF_DEC),
	R(USB_DT_DEVICE_CAPABILITY, "bFunctionalitySupport", NULL, LF_DEC),
	R(USB_DT_DEVICE_CAPABILITY, "bReserved", NULL, LF_SKIP),
	{ USB_DT_DEVICE_CAPABILITY, "bU1DevExitLat (us)", "bU1DevExitLat",
	    LF_DEC, 0, "micro seconds", NULL, 0 },
	{ USB_DT_DEVICE_CAPABILITY, "wU2DevExitLat (us)", "bU2DevExitLat",
	    LF_DEC, 0, "micro seconds", NULL, 0 },
	R(USB_DT_HID, "bcdHID", NULL, LF_BCD),
	R(USB_DT_HID, "bCountryCode", NULL, LF_NAMED),
	R(USB_DT_HID, "bNumDescriptors", NULL, LF_DEC),
	R(USB_DT_HID, "wDescriptorLength", NULL, LF_DEC),
	{ USB_DT_HUB, "bLength", NULL, LF_DEC, 23, NULL, NULL, 0 },
	{ USB_DT_HUB, "bDescriptorType", NULL, LF_DEC, 23, NULL, NULL, 0 },
	{ USB_DT_HUB, "bNbrPorts", "nNbrPorts", LF_DEC, 23, NULL, NULL, 0 },
	R(USB_DT_HUB, "wHubCharacteristics", "wHubCharacteristic", LF_HEX4),
	R(USB_DT_HUB, "Power switching", NULL, LF_HUB_POWER),
	R(USB_DT_HUB, "Compound device", NULL, LF_FLAG),
	R(USB_DT_HUB, "Over-current protection", NULL, LF_HUB_OC),
	R(USB_DT_HUB, "TT think time", NULL, LF_HUB_TT),
	R(USB_DT_HUB, "Port indicators", NULL, LF_FLAG),
	{ USB_DT_HUB, "bPwrOn2PwrGood (2 ms units)", "bPwrOn2PwrGood", LF_DEC,
	    23, "* 2 milli seconds", NULL, 0 },
	{ USB_DT_HUB, "bHubContrCurrent (mA)", "bHubContrCurrent", LF_DEC,
	    23, "milli Ampere", NULL, 0 },
	R(USB_DT_HUB, "DeviceRemovable", NULL, LF_BYTES),
	R(USB_DT_HUB, "PortPwrCtrlMask", NULL, LF_BYTES),
	R(USB_DT_SS_ENDPOINT_COMP, "bLength", NULL, LF_SKIP),
	R(USB_DT_SS_ENDPOINT_COMP, "bDescriptorType", NULL, LF_SKIP),
	R(USB_DT_SS_ENDPOINT_COMP, "bMaxBurst", NULL, LF_DEC),
	R(USB_DT_SS_ENDPOINT_COMP, "MaxStreams", NULL, LF_DEC),
	R(USB_DT_SS_ENDPOINT_COMP, "Mult", NULL, LF_DEC),
	R(USB_DT_SS_ENDPOINT_COMP, "wBytesPerInterval", NULL, LF_DEC),
};
#undef R

static const char *const ls_xfer[] = {
	"Control", "Isochronous", "Bulk", "Interrupt"
};
static const char *const ls_sync[] = {
	"None", "Asynchronous", "Adaptive", "Synchronous"
};
static const char *const ls_usage[] = {
	"Data", "Feedback", "Implicit feedback Data", "(reserved)"
};
static const char *const ls_mult[] = { "1x", "2x", "3x", "(?\?)" };

/* USB Attached SCSI 1.0 table 13 (lsusb's dump_pipe_desc). */
static const struct dec_name uas_pipes[] = {
	{ 1, "Command pipe" },
	{ 2, "Status pipe" },
	{ 3, "Data-in pipe" },
	{ 4, "Data-out pipe" },
	{ 0, NULL }
};

/* lsusb's names of device capabilities (USB 3.2 table 9-14). */
static const struct dec_name ls_caps[] = {
	{ 0x02, "USB 2.0 Extension" },
	{ 0x03, "SuperSpeed USB" },
	{ 0x04, "Container ID" },
	{ 0x05, "Platform" },
	{ 0x0a, "SuperSpeedPlus USB" },
	{ 0, NULL }
};

/* Headings by descriptor type: indent of the heading. */
static const struct {
	uint8_t		 type;
	int		 indent;
	const char	*text;
} lsheads[] = {
	{ USB_DT_DEVICE, 0, "Device Descriptor:" },
	{ USB_DT_CONFIG, 2, "Configuration Descriptor:" },
	{ USB_DT_INTERFACE, 4, "Interface Descriptor:" },
	{ USB_DT_ENDPOINT, 6, "Endpoint Descriptor:" },
	{ USB_DT_DEVICE_QUALIFIER, 0,
	    "Device Qualifier (for other device speed):" },
	{ USB_DT_OTHER_SPEED_CONFIG, 2,
	    "Other Speed Configuration Descriptor:" },
	{ USB_DT_INTERFACE_ASSOCIATION, 4, "Interface Association:" },
	{ USB_DT_BOS, 0, "Binary Object Store Descriptor:" },
	{ USB_DT_DEVICE_CAPABILITY, 2, "Device Capability:" },
	{ USB_DT_HID, 8, "HID Device Descriptor:" },
	{ USB_DT_HUB, 0, "Hub Descriptor:" },
};

/*
 * lsusb's names of audio subtypes.  AudioControl's by UAC version (UAC
 * 1.0 A.5, UAC 2.0 A.9, UAC 3.0 A.22), chosen by bInterfaceProtocol;
 * where that is no version, UAC 1.0's, as the kernel's snd-usb-audio
 * assumes (lsusb takes UAC 3.0's numbers there).  AudioStreaming's (A.6)
 * and its endpoint's (A.8).
 */
static const char *const ls_ac_subtypes[][3] = {
	[0x01] = { "HEADER", "HEADER", "HEADER" },
	[0x02] = { "INPUT_TERMINAL", "INPUT_TERMINAL", "INPUT_TERMINAL" },
	[0x03] = { "OUTPUT_TERMINAL", "OUTPUT_TERMINAL", "OUTPUT_TERMINAL" },
	[0x04] = { "MIXER_UNIT", "MIXER_UNIT", "EXTENDED_TERMINAL" },
	[0x05] = { "SELECTOR_UNIT", "SELECTOR_UNIT", "MIXER_UNIT" },
	[0x06] = { "FEATURE_UNIT", "FEATURE_UNIT", "SELECTOR_UNIT" },
	[0x07] = { "PROCESSING_UNIT", "EFFECT_UNIT", "FEATURE_UNIT" },
	[0x08] = { "EXTENSION_UNIT", "PROCESSING_UNIT", "EFFECT_UNIT" },
	[0x09] = { NULL, "EXTENSION_UNIT", "PROCESSING_UNIT" },
	[0x0a] = { NULL, "CLOCK_SOURCE", "EXTENSION_UNIT" },
	[0x0b] = { NULL, "CLOCK_SELECTOR", "CLOCK_SOURCE" },
	[0x0c] = { NULL, "CLOCK_MULTIPLIER", "CLOCK_SELECTOR" },
	[0x0d] = { NULL, "SAMPLING_RATE_CONVERTER", "CLOCK_MULTIPLIER" },
	[0x0e] = { NULL, NULL, "SAMPLING_RATE_CONVERTER" },
	[0x0f] = { NULL, NULL, "CONNECTORS" },
	[0x10] = { NULL, NULL, "POWER_DOMAIN" },
};
static const struct dec_name ls_as_subtypes[] = {
	{ 0x01, "AS_GENERAL" },
	{ 0x02, "FORMAT_TYPE" },
	{ 0x03, "FORMAT_SPECIFIC" },
	{ 0, NULL }
};
static const struct dec_name ls_asep_subtypes[] = {
	{ 0x01, "EP_GENERAL" },
	{ 0, NULL }
};
/* dump_midistreaming_interface and _endpoint (MIDI 1.0 A.1, A.2) */
static const struct dec_name ls_ms_subtypes[] = {
	{ 0x01, "HEADER" },
	{ 0x02, "MIDI_IN_JACK" },
	{ 0x03, "MIDI_OUT_JACK" },
	{ 0x04, "ELEMENT" },
	{ 0, NULL }
};
static const struct dec_name ls_msep_subtypes[] = {
	{ 0x01, "GENERAL" },
	{ 0, NULL }
};
static const struct dec_name ls_format_types[] = {	/* Formats 1.0 A.2 */
	{ 0x01, "FORMAT_TYPE_I" },
	{ 0x02, "FORMAT_TYPE_II" },
	{ 0x03, "FORMAT_TYPE_III" },
	{ 0, NULL }
};

/* UVC 1.5 A.5, A.6, A.7, lsusb's words. */
static const struct dec_name ls_vc_subtypes[] = {
	{ 0x01, "HEADER" },
	{ 0x02, "INPUT_TERMINAL" },
	{ 0x03, "OUTPUT_TERMINAL" },
	{ 0x04, "SELECTOR_UNIT" },
	{ 0x05, "PROCESSING_UNIT" },
	{ 0x06, "EXTENSION_UNIT" },
	{ 0x07, "ENCODING UNIT" },
	{ 0, NULL }
};
static const struct dec_name ls_vcep_subtypes[] = {
	{ 0x03, "EP_INTERRUPT" },
	{ 0, NULL }
};
static const struct dec_name ls_vs_subtypes[] = {
	{ 0x01, "INPUT_HEADER" },
	{ 0x02, "OUTPUT_HEADER" },
	{ 0x03, "STILL_IMAGE_FRAME" },
	{ 0x04, "FORMAT_UNCOMPRESSED" },
	{ 0x05, "FRAME_UNCOMPRESSED" },
	{ 0x06, "FORMAT_MJPEG" },
	{ 0x07, "FRAME_MJPEG" },
	{ 0x0a, "FORMAT_MPEG2TS" },
	{ 0x0d, "COLORFORMAT" },
	{ 0x10, "FORMAT_FRAME_BASED" },
	{ 0x11, "FRAME_FRAME_BASED" },
	{ 0x12, "FORMAT_STREAM_BASED" },
	{ 0, NULL }
};

/*
 * UAC 2.0's words as usbutils' desc-defs.c has them: the controls of
 * each descriptor (two bits each, UAC 2.0 4.7.2), the channels of a
 * cluster (4.1), a clock source's type (4.7.2.1), the Type I formats
 * (Audio Data Formats 2.0 A.2.1).
 */
static const char *const ls_uac2_hdr_ctls[] = { "Latency control", NULL };
static const char *const ls_uac_fu_ctls[] = {
	"Mute", "Volume", "Bass", "Mid", "Treble", "Graphic Equalizer",
	"Automatic Gain", "Delay", "Bass Boost", "Loudness", "Input gain",
	"Input gain pad", "Phase inverter", NULL
};
static const char *const ls_uac2_it_ctls[] = {
	"Copy Protect", "Connector", "Overload", "Cluster", "Underflow",
	"Overflow", NULL
};
static const char *const ls_uac2_ot_ctls[] = {
	"Copy Protect", "Connector", "Overload", "Underflow", "Overflow", NULL
};
static const char *const ls_uac2_clksrc_ctls[] = {
	"Clock Frequency", "Clock Validity", NULL
};
static const char *const ls_uac2_clksel_ctls[] = { "Clock Selector", NULL };
static const char *const ls_uac2_su_ctls[] = { "Selector", NULL };
static const char *const ls_uac2_as_ctls[] = {
	"Active Alternate Setting", "Valid Alternate Setting", NULL
};
static const char *const ls_uac2_ep_ctls[] = {
	"Pitch", "Data Overrun", "Data Underrun", NULL
};
static const char *const ls_uac2_channels[] = {
	"Front Left (FL)", "Front Right (FR)", "Front Center (FC)",
	"Low Frequency Effects (LFE)", "Back Left (BL)", "Back Right (BR)",
	"Front Left of Center (FLC)", "Front Right of Center (FRC)",
	"Back Center (BC)", "Side Left (SL)", "Side Right (SR)",
	"Top Center (TC)", "Top Front Left (TFL)", "Top Front Center (TFC)",
	"Top Front Right (TFR)", "Top Back Left (TBL)", "Top Back Center (TBC)",
	"Top Back Right (TBR)", "Top Front Left of Center (TFLC)",
	"Top Front Right of Center (TFRC)", "Left Low Frequency Effects (LLFE)",
	"Right Low Frequency Effects (RLFE)", "Top Side Left (TSL)",
	"Top Side Right (TSR)", "Bottom Center (BC)",
	"Back Left of Center (BLC)", "Back Right of Center (BRC)"
};
static const char *const ls_uac2_clk_types[] = {
	"External", "Internal fixed", "Internal variable",
	"Internal programmable"
};
static const char *const ls_uac2_formats[] = {
	"PCM", "PCM8", "IEEE_FLOAT", "ALAW", "MULAW"
};

/*
 * Class-specific descriptors, by the interface's class and subclass and
 * the descriptor's type and subtype (ANY: every one): lsusb.c's
 * dump_audiocontrol_interface, dump_audiostreaming_interface,
 * dump_audiostreaming_endpoint, dump_midistreaming_interface and
 * _endpoint, dump_comm_descriptor, dump_ccid_device,
 * dump_dfu_interface and the video ones.
 * lsusb shows no bLength and bDescriptorType of a CDC descriptor (bare).
 */
#define ANY	0x100
static const struct lsclshead {
	uint8_t		 cls;
	uint16_t	 sub;
	uint8_t		 type;
	uint16_t	 subtype;
	int		 indent;
	int		 bare;
	uint8_t		 width;	/* of its fields but where a row says; 0 = 25 */
	const struct dec_name *subtypes; /* bDescriptorSubtype's words */
	const char	*text;
} lsclsheads[] = {
	/* (its subtypes' words by UAC version: ls_ac_subtypes) */
	{ 0x01, 0x01, 0x24, ANY, 6, 0, 0, NULL,
	    "AudioControl Interface Descriptor:" },
	{ 0x01, 0x02, 0x24, ANY, 6, 0, 0, ls_as_subtypes,
	    "AudioStreaming Interface Descriptor:" },
	{ 0x01, 0x02, 0x25, ANY, 8, 0, 0, ls_asep_subtypes,
	    "AudioStreaming Endpoint Descriptor:" },
	{ 0x01, 0x03, 0x24, ANY, 6, 0, 0, ls_ms_subtypes,
	    "MIDIStreaming Interface Descriptor:" },
	{ 0x01, 0x03, 0x25, ANY, 8, 0, 0, ls_msep_subtypes,
	    "MIDIStreaming Endpoint Descriptor:" },
	{ 0x02, ANY, 0x24, 0x00, 6, 1, 0, NULL, "CDC Header:" },
	{ 0x02, ANY, 0x24, 0x01, 6, 1, 0, NULL, "CDC Call Management:" },
	{ 0x02, ANY, 0x24, 0x02, 6, 1, 0, NULL, "CDC ACM:" },
	{ 0x02, ANY, 0x24, 0x06, 6, 1, 0, NULL, "CDC Union:" },
	{ 0x02, ANY, 0x24, 0x0f, 6, 1, 0, NULL, "CDC Ethernet:" },
	{ 0x0b, ANY, 0x21, ANY, 6, 0, 0, NULL,
	    "ChipCard Interface Descriptor:" },
	/* lsusb.c's dump_dfu_interface (DFU 1.1 4.1.3) */
	{ 0xfe, 0x01, 0x21, ANY, 6, 0, 37, NULL,
	    "Device Firmware Upgrade Interface Descriptor:" },
	/* dump_videocontrol_interface, dump_videocontrol_interrupt_endpoint,
	 * dump_videostreaming_interface (UVC 1.5 3.7, 3.8, 3.9) */
	{ 0x0e, 0x01, 0x24, ANY, 6, 0, 0, ls_vc_subtypes,
	    "VideoControl Interface Descriptor:" },
	{ 0x0e, 0x01, 0x25, ANY, 8, 0, 0, ls_vcep_subtypes,
	    "VideoControl Endpoint Descriptor:" },
	{ 0x0e, 0x02, 0x24, ANY, 6, 0, 37, ls_vs_subtypes,
	    "VideoStreaming Interface Descriptor:" },
};

/*
 * Their fields, by our decoders' Wireshark field names (dec-audio.c,
 * dec-cdc.c, dec-ccid.c) to lsusb's.  A field not here shows under the
 * last part of its Wireshark name (usbaudio.ac_if_input.bTerminalID:
 * bTerminalID), which is the class specification's name, as lsusb's.
 */
#define R(abbrev, ls, fmt)	{ 0, abbrev, ls, fmt, 0, NULL, NULL, 0 }
static const struct lsrow lsclsrows[] = {
	R("usbaudio.ac_if_subtype", "bDescriptorSubtype", LF_SUBTYPE),
	R("usbaudio.as_if_subtype", "bDescriptorSubtype", LF_SUBTYPE),
	R("usbaudio.as_ep_subtype", "bDescriptorSubtype", LF_SUBTYPE),
	R("usbaudio.ac_if_hdr.bcdADC", "bcdADC", LF_BCD),
	R("usbaudio.ac_if_hdr.wTotalLength", "wTotalLength", LF_HEX4),
	R("usbaudio.ac_if_hdr.baInterfaceNr", "baInterfaceNr", LF_INDEXED),
	R("usbaudio.ac_if_input.wTerminalType", "wTerminalType", LF_HEXNAMED),
	R("usbaudio.ac_if_output.wTerminalType", "wTerminalType",
	    LF_HEXNAMED),
	R("usbaudio.ac_if_input.wChannelConfig", "wChannelConfig", LF_CHCFG),
	R("usbaudio.ac_if_mu.wChannelConfig", "wChannelConfig", LF_CHCFG),
	R("usbaudio.ac_if_mu.baSourceID", "baSourceID", LF_INDEXED),
	R("usbaudio.ac_if_su.baSourceIDs", NULL, LF_SKIP),
	R("usbaudio.ac_if_su.baSourceID", "baSourceID", LF_INDEXED),
	R("usbaudio.ac_if_fu.bmaControls", "bmaControls", LF_FU_CTLS),
	R("usbaudio.ac_if_fu.bmaControl", NULL, LF_SKIP),
	R("usbaudio.ac_if_fu.bmaControls_v2", NULL, LF_SKIP),
	{ 0, "usbaudio.ac_if_fu.bmaControl_v2", "bmaControls", LF_INDEXED, 29,
	    NULL, ls_uac_fu_ctls, 2 },
	R("usbaudio.ac_if_hdr.bCategory", "bCategory", LF_DEC),
	R("usbvideo.terminal.type", "wTerminalType", LF_VT),
	{ 0, "usbaudio.ac_if_hdr.bmControls", "bmControls", LF_HEX2, 0, NULL,
	    ls_uac2_hdr_ctls, 2 },
	{ 0, "usbaudio.ac_if_input.bmControls", "bmControls", LF_HEX4, 0, NULL,
	    ls_uac2_it_ctls, 2 },
	{ 0, "usbaudio.ac_if_output.bmControls", "bmControls", LF_HEX4, 0,
	    NULL, ls_uac2_ot_ctls, 2 },
	{ 0, "usbaudio.ac_if_input.bmChannelConfig", "bmChannelConfig",
	    LF_CHCFG2, 29, NULL, NULL, 0 },
	{ 0, "usbaudio.as_if_gen.bmChannelConfig", "bmChannelConfig",
	    LF_CHCFG2, 29, NULL, NULL, 0 },
	R("usbaudio.ac_if_clksrc.bmAttributes", "bmAttributes", LF_CLKATTR),
	{ 0, "usbaudio.ac_if_clksrc.bmControls", "bmControls", LF_HEX2, 0,
	    NULL, ls_uac2_clksrc_ctls, 2 },
	{ 0, "usbaudio.ac_if_clksel.bmControls", "bmControls", LF_HEX2, 0,
	    NULL, ls_uac2_clksel_ctls, 2 },
	{ 0, "usbaudio.ac_if_su.bmControls", "bmControls", LF_HEX2, 0, NULL,
	    ls_uac2_su_ctls, 2 },
	{ 0, "usbaudio.as_if_gen.bmControls", "bmControls", LF_HEX2, 0, NULL,
	    ls_uac2_as_ctls, 2 },
	{ 0, "usbaudio.as_if_gen.bmFormats", "bmFormats", LF_FORMATS, 29,
	    NULL, NULL, 0 },
	{ 0, "usbaudio.as_ep_gen.bmControls", "bmControls", LF_HEX2, 0, NULL,
	    ls_uac2_ep_ctls, 2 },
	R("usbaudio.ac_if_pu.baSourceID", "baSourceID", LF_INDEXED),
	R("usbaudio.ac_if_xu.baSourceID", "baSourceID", LF_INDEXED),
	R("usbaudio.ac_if_clksel.baCSourceID", "baCSourceID", LF_INDEXED),
	{ 0, "usbaudio.as_if_gen.bDelay", "bDelay", LF_DEC, 0, "frames", NULL, 0 },
	R("usbaudio.as_if_gen.wFormatTag", "wFormatTag", LF_HEXNAMED),
	R("usbaudio.as_if_ft.bFormatType", "bFormatType", LF_FMT_TYPE),
	R("usbaudio.as_if_ft.bSamFreqType", "bSamFreqType", LF_FREQ_TYPE),
	R("usbaudio.as_if_ft.tSamFreq", "tSamFreq", LF_FREQ),
	R("usbaudio.as_ep_gen.bmAttributes", "bmAttributes", LF_HEX2),
	R("usbaudio.as_ep_gen.wLockDelay", "wLockDelay", LF_HEX4),
	R("usbaudio.ms_if_subtype", "bDescriptorSubtype", LF_SUBTYPE),
	R("usbaudio.ms_if_hdr.bcdADC", "bcdADC", LF_BCD),
	R("usbaudio.ms_if_hdr.wTotalLength", "wTotalLength", LF_HEX4),
	R("usbaudio.ms_if_midi_out.baSourceID", "baSourceID", LF_INDEXED2),
	R("usbaudio.ms_if_midi_out.BaSourcePin", "BaSourcePin", LF_INDEXED2),
	R("usbaudio.ms_ep_subtype", "bDescriptorSubtype", LF_SUBTYPE),
	R("usbaudio.ms_ep_gen.baAssocJackID", "baAssocJackID", LF_INDEXED2),
	R("usbcom.descriptor.subtype", NULL, LF_SKIP),
	R("usbcom.descriptor.cdc", "bcdCDC", LF_BCD),
	R("usbcom.descriptor.capabilities", "bmCapabilities", LF_CDC_CAPS),
	R("usbcom.descriptor.cm.data_interface", "bDataInterface", LF_DEC),
	R("usbcom.descriptor.control_interface", "bMasterInterface", LF_DEC),
	R("usbcom.descriptor.subordinate_interface", "bSlaveInterface",
	    LF_CDC_SLAVES),
	{ 0, "usbcom.descriptor.ecm.mac_address", "iMacAddress", LF_STR, 34,
	    NULL, NULL, 0 },
	{ 0, "usbcom.descriptor.ecm.eth_stats", "bmEthernetStatistics",
	    LF_HEX8, 34, NULL, NULL, 0 },
	{ 0, "usbcom.descriptor.ecm.max_segment_size", "wMaxSegmentSize",
	    LF_DEC, 34, NULL, NULL, 0 },
	{ 0, "usbcom.descriptor.ecm.nb_mc_filters", "wNumberMCFilters",
	    LF_HEX4, 34, NULL, NULL, 0 },
	{ 0, "usbcom.descriptor.ecm.nb_power_filters", "bNumberPowerFilters",
	    LF_DEC, 34, NULL, NULL, 0 },
	R("usbccid.bcdCCID", "bcdCCID", LF_CCID_BCD),
	R("usbccid.bMaxSlotIndex", "nMaxSlotIndex", LF_DEC),
	R("usbccid.bVoltageSupport", "bVoltageSupport", LF_CCID_VOLT),
	R("usbccid.dwProtocols", "dwProtocols", LF_CCID_PROTO),
	/* sic: lsusb's spelling */
	R("usbccid.dwMaximumClock", "dwMaxiumumClock", LF_DEC),
	{ 0, "usbccid.dwDataRate", "dwDataRate", LF_DEC, 0, "bps", NULL, 0 },
	{ 0, "usbccid.dwMaxDataRate", "dwMaxDataRate", LF_DEC, 0, "bps", NULL, 0 },
	R("usbccid.bNumDataRatesSupported", "bNumDataRatesSupp.", LF_DEC),
	R("usbccid.dwSynchProtocols", "dwSyncProtocols", LF_CCID_SYNC),
	R("usbccid.dwMechanical", "dwMechanical", LF_CCID_MECH),
	R("usbccid.dwFeatures", "dwFeatures", LF_CCID_FEAT),
	R("usbccid.dwMaxCCIDMessageLength", "dwMaxCCIDMsgLen", LF_DEC),
	R("usbccid.hf_ccid_bClassGetResponse", "bClassGetResponse",
	    LF_CCID_ECHO),
	R("usbccid.hf_ccid_bClassEnvelope", "bClassEnvelope", LF_CCID_ECHO),
	R("usbccid.hf_ccid_wLcdLayout", "wlcdLayout", LF_CCID_LCD),
	R("usbccid.hf_ccid_wLcdLayout.chars", NULL, LF_SKIP),
	R("usbccid.hf_ccid_wLcdLayout.lines", NULL, LF_SKIP),
	R("usbccid.hf_ccid_bPINSupport", "bPINSupport", LF_CCID_PIN),
	R("usbccid.hf_ccid_bMaxCCIDBusySlots", "bMaxCCIDBusySlots", LF_DEC),
	R("usbvideo.control.descriptorSubType", "bDescriptorSubtype",
	    LF_SUBTYPE),
	R("usbvideo.streaming.descriptorSubType", "bDescriptorSubtype",
	    LF_SUBTYPE),
	R("usbvideo.ep.descriptorSubType", "bDescriptorSubtype", LF_SUBTYPE),
	R("usbvideo.bcdUVC", "bcdUVC", LF_BCD),
	R("usbvideo.totalLength", "wTotalLength", LF_HEX4),
	R("usbvideo.probe.clockFrequency", "dwClockFrequency", LF_UVC_CLOCK),
	R("usbvideo.streamingInterfaceNumbers", "baInterfaceNr",
	    LF_BYTES_IDX),
	{ 0, "usbvideo.camera.objectiveFocalLengthMin",
	    "wObjectiveFocalLengthMin", LF_DEC, 31, NULL, NULL, 0 },
	{ 0, "usbvideo.camera.objectiveFocalLengthMax",
	    "wObjectiveFocalLengthMax", LF_DEC, 31, NULL, NULL, 0 },
	{ 0, "usbvideo.camera.ocularFocalLength", "wOcularFocalLength",
	    LF_DEC, 31, NULL, NULL, 0 },
	R("usbvideo.bmcontrolSize", "bControlSize", LF_UVC_CTLSIZE),
	R("usbvideo.availableControls", "bmControls", LF_UVC_CONTROLS),
	R("usbvideo.availableControls.bytes", "bmControls", LF_UVC_CONTROLS),
	R("usbvideo.unit.sources", "baSourceID", LF_BYTES_IDX),
	R("usbvideo.extension.guid", "guidExtensionCode", LF_GUID),
	R("usbvideo.processor.standards", "bmVideoStandards", LF_UVC_STDS),
	R("usbvideo.streaming.info", "bmInfo", LF_DEC),
	R("usb.bEndpointAddress", "bEndpointAddress", LF_EPADDR),
	R("usbvideo.streaming.stillCaptureMethod", "bStillCaptureMethod",
	    LF_DEC),
	R("usbvideo.streaming.triggerSupport", "bTriggerSupport", LF_DEC),
	R("usbvideo.streaming.triggerUsage", "bTriggerUsage", LF_DEC),
	R("usbvideo.mjpeg.flags", "bFlags", LF_UVC_MJPEG),
	R("usbvideo.format.guid", "guidFormat", LF_GUID),
	R("usbvideo.format.interlace", "bmInterlaceFlags", LF_UVC_INTERLACE),
	R("usbvideo.format.copyProtect", "bCopyProtect", LF_DEC),
	/* sic: one column short in lsusb */
	{ 0, "usbvideo.format.variableSize", "bVariableSize", LF_DEC, 35,
	    NULL, NULL, 0 },
	R("usbvideo.frame.capabilities", "bmCapabilities", LF_UVC_FRAMECAPS),
	R("usbvideo.frame.interval", "dwFrameInterval", LF_INDEXED2),
	R("usbvideo.color.primaries", "bColorPrimaries", LF_UVC_COLOR),
	R("usbvideo.color.transferCharacteristics",
	    "bTransferCharacteristics", LF_UVC_COLOR),
	R("usbvideo.color.matrixCoefficients", "bMatrixCoefficients",
	    LF_UVC_COLOR),
	/* (Wireshark 4.0 has the bits alone: the first one stands for
	 * the byte) */
	{ 0, "usbdfu.descriptor.bmAttributes.reserved", "bmAttributes",
	    LF_DFU_ATTR, 37, NULL, NULL, 0 },
	{ 0, "usbdfu.descriptor.wDetachTimeOut", "wDetachTimeout", LF_DEC, 37,
	    "milliseconds", NULL, 0 },
	{ 0, "usbdfu.descriptor.wTransferSize", "wTransferSize", LF_DEC, 37,
	    "bytes", NULL, 0 },
	/* lsusb: "%x.%02x" after the 32-column name, not right-aligned */
	{ 0, "usbdfu.descriptor.bcdDFUVersion", "bcdDFUVersion", LF_BCD, 36,
	    NULL, NULL, 0 },
};
#undef R

/* UVC 1.5 table 3-6 (camera) and 3-8 (processing unit) bmControls, and
 * bmVideoStandards, lsusb's words; UVC 1.1 has the first 19 and 18. */
static const char *const ls_uvc_camctls[] = {
	"Scanning Mode", "Auto-Exposure Mode", "Auto-Exposure Priority",
	"Exposure Time (Absolute)", "Exposure Time (Relative)",
	"Focus (Absolute)", "Focus (Relative)", "Iris (Absolute)",
	"Iris (Relative)", "Zoom (Absolute)", "Zoom (Relative)",
	"PanTilt (Absolute)", "PanTilt (Relative)", "Roll (Absolute)",
	"Roll (Relative)", "Reserved", "Reserved", "Focus, Auto", "Privacy",
	"Focus, Simple", "Window", "Region of Interest"
};
static const char *const ls_uvc_puctls[] = {
	"Brightness", "Contrast", "Hue", "Saturation", "Sharpness", "Gamma",
	"White Balance Temperature", "White Balance Component",
	"Backlight Compensation", "Gain", "Power Line Frequency", "Hue, Auto",
	"White Balance Temperature, Auto", "White Balance Component, Auto",
	"Digital Multiplier", "Digital Multiplier Limit",
	"Analog Video Standard", "Analog Video Lock Status", "Contrast, Auto"
};
static const char *const ls_uvc_stds[] = {
	"None", "NTSC - 525/60", "PAL - 625/50", "SECAM - 625/50",
	"NTSC - 625/50", "PAL - 525/60"
};
static const char *const ls_uvc_patterns[] = {
	"Field 1 only", "Field 2 only", "Regular pattern of fields 1 and 2",
	"Random pattern of fields 1 and 2"
};

/* UVC 1.5 table 3-19, the color matching descriptor, lsusb's words. */
static const char *const ls_uvc_prims[] = {
	"Unspecified", "BT.709,sRGB", "BT.470-2 (M)", "BT.470-2 (B,G)",
	"SMPTE 170M", "SMPTE 240M"
};
static const char *const ls_uvc_xfers[] = {
	"Unspecified", "BT.709", "BT.470-2 (M)", "BT.470-2 (B,G)",
	"SMPTE 170M", "SMPTE 240M", "Linear", "sRGB"
};
static const char *const ls_uvc_matrices[] = {
	"Unspecified", "BT.709", "FCC", "BT.470-2 (B,G)",
	"SMPTE 170M (BT.601)", "SMPTE 240M"
};

/* wChannelConfig bits (UAC 1.0 3.7.2.3), lsusb's words. */
static const char *const ls_channels[] = {
	"Left Front (L)", "Right Front (R)", "Center Front (C)",
	"Low Frequency Enhancement (LFE)", "Left Surround (LS)",
	"Right Surround (RS)", "Left of Center (LC)", "Right of Center (RC)",
	"Surround (S)", "Side Left (SL)", "Side Right (SR)", "Top (T)"
};

/* Feature unit bmaControls bits (UAC 1.0 table 4-7). */
static const char *const ls_fu_controls[] = {
	"Mute Control", "Volume Control", "Bass Control", "Mid Control",
	"Treble Control", "Graphic Equalizer Control", "Automatic Gain Control",
	"Delay Control", "Bass Boost Control", "Loudness Control"
};

/* Video terminal types (UVC 1.5 B.1-B.4) in usb.ids' words (its VT
 * lines), which lsusb prints (names_videoterminal). */
static const struct dec_name ls_video_terms[] = {
	{ 0x0100, "USB Vendor Specific" },
	{ 0x0101, "USB Streaming" },
	{ 0x0200, "Input Vendor Specific" },
	{ 0x0201, "Camera Sensor" },
	{ 0x0202, "Sequential Media" },
	{ 0x0300, "Output Vendor Specific" },
	{ 0x0301, "Generic Display" },
	{ 0x0302, "Sequential Media" },
	{ 0x0400, "External Vendor Specific" },
	{ 0x0401, "Composite Video" },
	{ 0x0402, "S-Video" },
	{ 0x0403, "Component Video" },
	{ 0, NULL }
};

/* CDC 1.2 tables 4 and 5 (call management, ACM), lsusb's words. */
static const char *const ls_cm_caps[] = {
	"call management", "use DataInterface"
};
static const char *const ls_acm_caps[] = {
	"get/set/notify Comm Features", "line coding and serial state",
	"sends break", "connection notifications"
};

/* CCID 1.1 table 5.1-1 dwSynchProtocols and dwMechanical, lsusb's words. */
static const char *const ls_ccid_sync[] = { "2-wire", "3-wire", "I2C" };
static const char *const ls_ccid_mech[] = {
	"accept", "eject", "capture", "lock"
};

/* CCID 1.1 table 5.1-1 dwFeatures, lsusb's words and order. */
static const struct {
	uint32_t	 bit;
	int		 group;	/* of a group, only the first set shows */
	const char	*text;
} ls_ccid_features[] = {
	{ 0x00000002, 0, "Auto configuration based on ATR" },
	{ 0x00000004, 0, "Auto activation on insert" },
	{ 0x00000008, 0, "Auto voltage selection" },
	{ 0x00000010, 0, "Auto clock change" },
	{ 0x00000020, 0, "Auto baud rate change" },
	{ 0x00000040, 1, "Auto parameter negotiation made by CCID" },
	{ 0x00000080, 1, "Auto PPS made by CCID" },
	{ 0x00000100, 0, "CCID can set ICC in clock stop mode" },
	{ 0x00000200, 0, "NAD value other than 0x00 accepted" },
	{ 0x00000400, 0, "Auto IFSD exchange" },
	{ 0x00010000, 2, "TPDU level exchange" },
	{ 0x00020000, 2, "Short APDU level exchange" },
	{ 0x00040000, 2, "Short and extended APDU level exchange" },
};

/* Where the walk is, for the descriptors that depend on it. */
struct lswalk {
	struct dv	*d;
	const uint8_t	*data;	/* the bytes the tree points into */
	size_t		 len;
	uint8_t		 type;	/* descriptor being shown */
	uint32_t	 doff;	/* its offset in data */
	int		 indent; /* of its fields; -1 = fields hidden */
	int		 after;	/* 2, 4, 5: config, interface, ep */
	uint8_t		 icls, isub, iproto; /* the interface's class */
	int		 hid_report; /* a report line owed: 0, else -1 */
	int		 cls;	/* a class-specific descriptor lsusb knows */
	int		 bare;	/* without bLength and bDescriptorType */
	uint8_t		 width;	/* of its fields, 0 = 25 */
	const struct dec_name *subtypes; /* its subtypes' words */
	int		 uac;	/* else AudioControl's: 0, 1, 2 = UAC 1, 2, 3 */
	uint32_t	 dlen;	/* its length */
	uint8_t		 dsub;	/* its bDescriptorSubtype */
	/* the indexed fields of this descriptor so far, and how many of
	 * each (MIDI's baSourceID and BaSourcePin alternate) */
	struct {
		const char	*name;
		unsigned	 n;
	}		 seen[4];
	size_t		 nseen;
};

/* name then value, right-aligned at width (lsusb's columns). */
static void
ls_line(int indent, const char *name, int width, const char *value,
    const char *text)
{
	int	 pad;

	if (width == 0)
		width = 25;
	pad = width - (int)strlen(name) - (int)strlen(value);
	if (pad < 1)
		pad = 1;
	printf("%*s%s%*s%s%s%s\n", indent, "", name, pad, "", value,
	    text != NULL && *text != '\0' ? " " : "",
	    text != NULL ? text : "");
}

static const struct lsrow *
ls_row(uint8_t type, const char *name)
{
	const struct lsrow *any = NULL;
	size_t	 i;

	for (i = 0; i < sizeof lsrows / sizeof lsrows[0]; i++) {
		if (strcmp(lsrows[i].name, name) != 0)
			continue;
		if (lsrows[i].type == type)
			return &lsrows[i];
		if (lsrows[i].type == 0)
			any = &lsrows[i];
	}
	return any;
}

/* What a descriptor owes after its fields (the HID report line). */
static void
ls_flush(struct lswalk *w)
{
	if (w->hid_report >= 0) {
		printf("%*sReport Descriptors: \n%*s** UNAVAILABLE **\n",
		    9, "", 11, "");
		w->hid_report = -1;
	}
}

/* A line for each bit of v set that words[0..n) has a word for. */
static void
ls_bits(int indent, uint64_t v, const char *const *words, size_t n)
{
	size_t	 i;

	for (i = 0; i < n && i < 64; i++) {
		if (v & (1ULL << i))
			printf("%*s%s\n", indent, "", words[i]);
	}
}

/* The controls v has, lsusb's way (desc-dump.c desc_bmcontrol_dump). */
static void
ls_controls(int indent, uint64_t v, const char *const *words, int wbits)
{
	static const char *const setting[] = {
		"read-only", "ILLEGAL VALUE (0b10)", "read/write"
	};
	unsigned	 i, c;

	for (i = 0; words[i] != NULL && i * wbits < 64; i++) {
		c = (unsigned)(v >> (i * wbits)) & (wbits == 2 ? 3 : 1);
		if (c == 0)
			continue;
		if (wbits == 2)
			printf("%*s%s Control (%s)\n", indent, "", words[i],
			    setting[c - 1]);
		else
			printf("%*s%s Control\n", indent, "", words[i]);
	}
}

static void
ls_bytes(int indent, const uint8_t *p, size_t n, const char *label)
{
	size_t	 i;

	printf("%*s%s", indent, "", label);
	for (i = 0; i < n; i++)
		printf(" %02x", p[i]);
	printf("\n");
}

/*
 * A class-specific descriptor lsusb knows (lsclsheads): its heading, and
 * its fields then show by lsclsrows.  0 when lsusb would not know it.
 */
static int
ls_cls_head(struct lswalk *w, const struct dec_node *n, const uint8_t *p,
    size_t left)
{
	const struct lsclshead *h;
	size_t	 i;

	/* Interface descriptors follow an interface, endpoint ones an
	 * endpoint (lsusb's dump_altsetting and dump_endpoint). */
	if (left < 3 || w->after != (p[1] == 0x25 ? 5 : 4))
		return 0;
	for (i = 0; i < nitems(lsclsheads); i++) {
		h = &lsclsheads[i];
		if (h->cls != w->icls || h->type != p[1] ||
		    (h->sub != ANY && h->sub != w->isub) ||
		    (h->subtype != ANY && h->subtype != p[2]))
			continue;
		printf("%*s%s", h->indent, "", h->text);
		if (n->note != NULL)
			printf("  [%s]", n->note);
		printf("\n");
		w->indent = h->indent + 2;
		w->cls = 1;
		w->bare = h->bare;
		w->dsub = p[2];
		w->width = h->width;
		w->subtypes = h->subtypes;
		w->uac = -1;
		if (h->cls == 0x01 && h->sub == 0x01)
			w->uac = w->iproto == 0x20 ? 1 : w->iproto == 0x30 ? 2 :
			    0;
		return 1;
	}
	return 0;
}

/*
 * How a field of a class-specific descriptor shows: its lsclsrows row, or
 * one made in *tmp from its Wireshark name's last part and its kind.
 * NULL: not shown (bits of a field, which lsusb words in its own way).
 */
static const struct lsrow *
ls_cls_row(const struct dec_field *f, struct lsrow *tmp)
{
	const char	*name, *dot;
	size_t		 i;

	if (f->abbrev != NULL) {
		for (i = 0; i < nitems(lsclsrows); i++) {
			if (strcmp(lsclsrows[i].name, f->abbrev) == 0)
				return &lsclsrows[i];
		}
	}
	if (f->mask != 0)
		return NULL;
	/* A specification's name (bTerminalID) as is, else the last part
	 * of the Wireshark name, which is one there. */
	name = f->name;
	if (!islower((unsigned char)name[0]) || strchr(name, ' ') != NULL) {
		name = f->abbrev != NULL ? f->abbrev : f->name;
		if ((dot = strrchr(name, '.')) != NULL)
			name = dot + 1;
	}
	memset(tmp, 0, sizeof *tmp);
	tmp->name = tmp->ls = name;
	if (f->kind == DK_BYTES)
		tmp->fmt = LF_BYTES;
	else if (name[0] == 'i' && f->width == 1)
		tmp->fmt = LF_STR;
	else if (f->kind != DK_HEX || (f->width == 1 &&
	    strncmp(name, "bm", 2) != 0))
		tmp->fmt = f->names != NULL ? LF_NAMED : LF_DEC;
	else
		tmp->fmt = f->width == 1 ? LF_HEX2 : f->width == 2 ?
		    (f->names != NULL ? LF_HEXNAMED : LF_HEX4) : LF_HEX8;
	return tmp;
}

/* A descriptor starts: its heading, and how its fields show. */
static void
ls_head(struct lswalk *w, const struct dec_node *n)
{
	const uint8_t	*p;
	size_t		 i, left;
	const char	*pipe, *cap;

	ls_flush(w);
	w->indent = -1;
	w->cls = w->bare = 0;
	w->nseen = 0;
	if (n->off + 2 > w->len || n->len < 2) {
		w->type = 0;
		return;
	}
	p = w->data + n->off;
	left = n->len;
	w->type = p[1];
	w->doff = n->off;
	w->dlen = n->len;

	switch (w->type) {
	case USB_DT_CONFIG:
		w->after = 2;
		break;
	case USB_DT_INTERFACE:
		w->after = 4;
		if (left >= 8) {
			w->icls = p[5];
			w->isub = p[6];
			w->iproto = p[7];
		}
		break;
	case USB_DT_ENDPOINT:
		w->after = 5;
		break;
	case USB_DT_HID:
		/* HID's only inside a HID interface; else the class's. */
		if (w->after == 4 && w->icls == 0x03)
			break;
		if (ls_cls_head(w, n, p, left))
			return;
		goto other;
	case USB_DT_CS_INTERFACE:
		/* UAS pipe usage after a mass storage endpoint. */
		if (w->after == 5 && w->icls == 0x08 && left >= 3) {
			pipe = dec_name_find(uas_pipes, p[2]);
			printf("%*s%s (0x%02x)\n", 8, "",
			    pipe != NULL ? pipe : "Reserved", p[2]);
			return;
		}
		if (ls_cls_head(w, n, p, left))
			return;
		goto other;
	case USB_DT_CS_ENDPOINT:
		if (ls_cls_head(w, n, p, left))
			return;
		goto other;
	case USB_DT_SS_ENDPOINT_COMP:
		/* The companion's fields sit under the endpoint's. */
		w->indent = 8;
		return;
	default:
		break;
	}
	for (i = 0; i < sizeof lsheads / sizeof lsheads[0]; i++) {
		if (lsheads[i].type != w->type)
			continue;
		if (w->type == USB_DT_DEVICE_CAPABILITY && left >= 3 &&
		    (cap = dec_name_find(ls_caps, p[2])) != NULL)
			printf("%*s%s Device Capability:", lsheads[i].indent,
			    "", cap);
		else
			printf("%*s%s", lsheads[i].indent, "",
			    lsheads[i].text);
		/* Our checks: "data ends inside the descriptor" and such. */
		if (n->note != NULL)
			printf("  [%s]", n->note);
		printf("\n");
		w->indent = lsheads[i].indent + 2;
		return;
	}
other:
	/* lsusb shows what it does not know as bytes, where it stands. */
	ls_bytes(w->after == 5 ? 8 : w->after == 4 ? 6 : w->after == 2 ? 4 :
	    0, p, left, "** UNRECOGNIZED: ");
	w->type = 0;
}

static void
ls_field(struct lswalk *w, const struct dec_node *n)
{
	const struct lsrow *row;
	struct lsrow	 tmp;
	const char	*text = NULL, *name;
	char		 val[64], tbuf[256], sbuf[256], nbuf[400], ibuf[64];
	const uint8_t	*p;
	uint64_t	 v = n->value;
	size_t		 i, k;
	int		 indent = w->indent, width;

	if (indent < 0 || n->f == NULL)
		return;
	if (w->cls && (strcmp(n->f->name, "bLength") == 0 ||
	    strcmp(n->f->name, "bDescriptorType") == 0)) {
		if (w->bare)
			return;
		row = ls_row(0, n->f->name);
	} else if (w->cls) {
		if ((row = ls_cls_row(n->f, &tmp)) == NULL)
			return;
	} else
		row = ls_row(w->type, n->f->name);
	if (row == NULL) {
		/* Not a field lsusb shows: ours, in the same columns. */
		if (n->f->mask != 0)
			return;
		ls_line(indent, n->f->name, 0,
		    dec_node_value(n, val, sizeof val), n->note);
		return;
	}
	name = row->ls != NULL ? row->ls : row->name;
	width = row->width;
	if (w->cls && width == 0)
		width = w->width;
	val[0] = '\0';
	p = w->data + n->off;
	if (row->fmt == LF_DFU_ATTR && n->off < w->len)
		v = *p;				/* the byte, not a bit */
	/* Binary-coded decimal as sent: the tree may hold it converted. */
	if ((row->fmt == LF_BCD || row->fmt == LF_CCID_BCD) && n->len == 2 &&
	    n->off + 2 <= w->len)
		v = get_le16(p);
	if (row->fmt == LF_INDEXED || row->fmt == LF_INDEXED2 ||
	    row->fmt == LF_FREQ || (row->fmt == LF_UVC_CONTROLS &&
	    w->isub == 2)) {
		/* The i-th of the same field in this descriptor. */
		for (k = 0; k < w->nseen && w->seen[k].name != row->name; k++)
			;
		if (k == w->nseen && k < nitems(w->seen)) {
			w->seen[k].name = row->name;
			w->seen[k].n = 0;
			w->nseen++;
		}
		if (k == nitems(w->seen))
			k--;		/* more kinds than lsusb has */
		snprintf(ibuf, sizeof ibuf, row->fmt == LF_FREQ ? "%.40s[%2u]" :
		    row->fmt == LF_INDEXED ? "%.40s(%u)" : "%.40s(%2u)",
		    row->fmt == LF_UVC_CONTROLS ? "bmaControls" : name,
		    w->seen[k].n++);
		name = ibuf;
	}
	switch (row->fmt) {
	case LF_SKIP:
		return;
	case LF_DEC:
		snprintf(val, sizeof val, "%llu", (unsigned long long)v);
		break;
	case LF_HEX2:
		snprintf(val, sizeof val, "0x%02llx", (unsigned long long)v);
		break;
	case LF_HEX4:
		snprintf(val, sizeof val, "0x%04llx", (unsigned long long)v);
		break;
	case LF_BCD:
		snprintf(val, sizeof val, "%x.%02x", (unsigned)(v >> 8) & 0xff,
		    (unsigned)v & 0xff);
		break;
	case LF_STR:
		snprintf(val, sizeof val, "%llu", (unsigned long long)v);
		text = dv_string(w->d, (uint8_t)v, sbuf, sizeof sbuf);
		break;
	case LF_NAMED:
		snprintf(val, sizeof val, "%llu", (unsigned long long)v);
		if (n->f->names != NULL)
			text = dec_name_find(n->f->names, (uint32_t)v);
		break;
	case LF_CLASS:
		snprintf(val, sizeof val, "%llu", (unsigned long long)v);
		text = dec_name_find(dec_classes, (uint32_t)v);
		break;
	case LF_VID:
		snprintf(val, sizeof val, "0x%04llx", (unsigned long long)v);
		text = usbids_vendor((uint16_t)v);
		break;
	case LF_PID:
		snprintf(val, sizeof val, "0x%04llx", (unsigned long long)v);
		text = usbids_product(w->d->vid, (uint16_t)v);
		break;
	case LF_EPADDR:
		snprintf(val, sizeof val, "0x%02llx", (unsigned long long)v);
		snprintf(tbuf, sizeof tbuf, " EP %u %s", (unsigned)v & 0x0f,
		    v & 0x80 ? "IN" : "OUT");
		text = tbuf;
		break;
	case LF_EPATTR:
		snprintf(val, sizeof val, "%llu", (unsigned long long)v);
		ls_line(indent, name, width, val, n->note);
		/* These three are left-aligned in lsusb. */
		printf("%*s%-25s%s\n", indent + 2, "", "Transfer Type",
		    ls_xfer[v & 3]);
		printf("%*s%-25s%s\n", indent + 2, "", "Synch Type",
		    ls_sync[(v >> 2) & 3]);
		printf("%*s%-25s%s\n", indent + 2, "", "Usage Type",
		    ls_usage[(v >> 4) & 3]);
		return;
	case LF_MPS:
		snprintf(val, sizeof val, "0x%04llx", (unsigned long long)v);
		snprintf(tbuf, sizeof tbuf, " %s %u bytes",
		    ls_mult[(v >> 11) & 3], (unsigned)v & 0x7ff);
		text = tbuf;
		break;
	case LF_MAXPOWER:
		/* USB 3.2 9.6.3: 8 mA units at SuperSpeed, else 2 mA. */
		snprintf(val, sizeof val, "%llumA", (unsigned long long)v *
		    (w->d->desclen >= 4 && get_le16(w->d->desc + 2) >= 0x0300 &&
		    atoi(w->d->speed) >= 5000 ? 8 : 2));
		/* lsusb: "%5umA", the number in the usual column. */
		width = 27;
		break;
	case LF_BYTES:
		k = 0;
		for (i = 0; i < n->len && n->off + i < w->len &&
		    k + 6 < sizeof tbuf; i++)
			k += (size_t)snprintf(tbuf + k, sizeof tbuf - k,
			    " 0x%02x", p[i]);
		tbuf[k] = '\0';
		printf("%*s%-18s%s%s%s\n", indent, "", name, tbuf,
		    n->note != NULL ? "  " : "",
		    n->note != NULL ? n->note : "");
		return;
	case LF_CFG_ONE:
		if (v == 0)
			printf("%*s%s\n", indent + 2, "", name);
		return;
	case LF_CFG_SELF:
		printf("%*s%s\n", indent + 2, "", v ? name : "(Bus Powered)");
		return;
	case LF_FLAG:
		if (v != 0)
			printf("%*s%s\n", indent + 2, "", name);
		return;
	case LF_HUB_POWER:
		printf("%*s%s\n", indent + 2, "", v == 0 ?
		    "Ganged power switching" : v == 1 ?
		    "Per-port power switching" :
		    "No power switching (usb 1.0)");
		return;
	case LF_HUB_OC:
		printf("%*s%s\n", indent + 2, "", v == 0 ?
		    "Ganged overcurrent protection" : v == 1 ?
		    "Per-port overcurrent protection" :
		    "No overcurrent protection");
		return;
	case LF_HEX8:
		snprintf(val, sizeof val, "0x%08llx", (unsigned long long)v);
		break;
	case LF_VT:
		snprintf(val, sizeof val, "0x%04llx", (unsigned long long)v);
		text = dec_name_find(ls_video_terms, (uint32_t)v);
		break;
	case LF_HEXNAMED:
		snprintf(val, sizeof val, "0x%04llx", (unsigned long long)v);
		if (n->f->names != NULL)
			text = dec_name_find(n->f->names, (uint32_t)v);
		break;
	case LF_INDEXED:
	case LF_INDEXED2:
	case LF_FREQ:
		if (n->f->kind == DK_HEX)
			snprintf(val, sizeof val, "0x%0*llx",
			    n->f->width > 0 ? n->f->width * 2 : 2,
			    (unsigned long long)v);
		else
			snprintf(val, sizeof val, "%llu",
			    (unsigned long long)v);
		break;
	case LF_CCID_ECHO:
		if (v == 0xff)
			snprintf(val, sizeof val, "echo");
		else
			snprintf(val, sizeof val, "%02llX",
			    (unsigned long long)v);
		break;
	case LF_CCID_LCD:
		if (v == 0)
			snprintf(val, sizeof val, "none");
		else
			snprintf(val, sizeof val, "%u cols %u lines",
			    (unsigned)v & 0xff, (unsigned)(v >> 8) & 0xff);
		break;
	case LF_SUBTYPE:
		snprintf(val, sizeof val, "%llu", (unsigned long long)v);
		if (w->uac >= 0)
			text = v < nitems(ls_ac_subtypes) ?
			    ls_ac_subtypes[v][w->uac] : NULL;
		else
			text = w->subtypes != NULL ?
			    dec_name_find(w->subtypes, (uint32_t)v) : NULL;
		snprintf(tbuf, sizeof tbuf, "(%s)", text != NULL ? text :
		    "unknown");
		text = tbuf;
		break;
	case LF_FMT_TYPE:
		snprintf(val, sizeof val, "%llu", (unsigned long long)v);
		text = dec_name_find(ls_format_types, (uint32_t)v);
		snprintf(tbuf, sizeof tbuf, "(%s)", text != NULL ? text :
		    "unknown");
		text = tbuf;
		break;
	case LF_FREQ_TYPE:
		snprintf(val, sizeof val, "%llu", (unsigned long long)v);
		text = v == 0 ? "Continuous" : "Discrete";
		break;
	case LF_CHCFG:
		snprintf(val, sizeof val, "0x%04llx", (unsigned long long)v);
		ls_line(indent, name, width, val, n->note);
		ls_bits(indent + 2, v, ls_channels, nitems(ls_channels));
		return;
	case LF_CHCFG2:
	case LF_FORMATS:
		snprintf(val, sizeof val, "0x%08llx", (unsigned long long)v);
		ls_line(indent, name, width, val, n->note);
		if (row->fmt == LF_CHCFG2)
			ls_bits(indent + 2, v, ls_uac2_channels,
			    nitems(ls_uac2_channels));
		else
			ls_bits(indent + 2, v, ls_uac2_formats,
			    nitems(ls_uac2_formats));
		return;
	case LF_CLKATTR:
		/* desc-defs.c desc_snowflake_dump_uac2_clk_src_bmattr */
		snprintf(val, sizeof val, "%llu", (unsigned long long)v);
		snprintf(tbuf, sizeof tbuf, "%s clock %s",
		    ls_uac2_clk_types[v & 3], (v & 4) ?
		    "(synchronized to SOF)" : "");
		text = tbuf;
		break;
	case LF_FU_CTLS:
		/* bControlSize bytes a channel (UAC 1.0 table 4-7). */
		k = n->off > w->doff + 5 ? w->data[w->doff + 5] : 0;
		for (i = 0; k > 0 && k <= 4 && (i + 1) * k <= n->len &&
		    n->off + (i + 1) * k <= w->len; i++) {
			v = k == 1 ? p[i] : k == 2 ? get_le16(p + i * k) :
			    k == 4 ? get_le32(p + i * k) :
			    (uint64_t)get_le16(p + i * k) | (uint64_t)p[i * k +
			    2] << 16;
			snprintf(ibuf, sizeof ibuf, "%.40s(%u)", name,
			    (unsigned)i);
			snprintf(val, sizeof val, "0x%0*llx", (int)k * 2,
			    (unsigned long long)v);
			ls_line(indent, ibuf, width, val, NULL);
			ls_bits(indent + 2, v, ls_fu_controls,
			    nitems(ls_fu_controls));
		}
		return;
	case LF_CDC_CAPS:
		snprintf(val, sizeof val, "0x%02llx", (unsigned long long)v);
		ls_line(indent, name, width, val, n->note);
		/* Call management from bit 0 up, ACM from bit 3 down. */
		if (w->dlen >= 3 && w->data[w->doff + 2] == 0x01)
			ls_bits(indent + 2, v, ls_cm_caps, nitems(ls_cm_caps));
		else if (w->dlen >= 3 && w->data[w->doff + 2] == 0x02) {
			for (i = nitems(ls_acm_caps); i-- > 0;) {
				if (v & (1U << i))
					printf("%*s%s\n", indent + 2, "",
					    ls_acm_caps[i]);
			}
		}
		return;
	case LF_CDC_SLAVES:
		/* All of them on the first one's line. */
		if (n->off != w->doff + 4)
			return;
		printf("%*s%-24s", indent, "", name);
		for (i = n->off; i < w->doff + w->dlen && i < w->len; i++)
			printf("%u ", w->data[i]);
		printf("\n");
		return;
	case LF_CCID_BCD:
		snprintf(val, sizeof val, "%x.%02x", (unsigned)(v >> 8) & 0xff,
		    (unsigned)v & 0xff);
		if (v != 0x0100)
			text = " (Warning: Only accurate for version 1.0)";
		break;
	case LF_CCID_VOLT:
		snprintf(val, sizeof val, "%llu", (unsigned long long)v);
		snprintf(tbuf, sizeof tbuf, " %s%s%s", v & 1 ? "5.0V " : "",
		    v & 2 ? "3.0V " : "", v & 4 ? "1.8V " : "");
		text = tbuf;
		break;
	case LF_CCID_PROTO:
		snprintf(val, sizeof val, "%llu", (unsigned long long)v);
		snprintf(tbuf, sizeof tbuf, "%s%s%s", v & 1 ? " T=0" : "",
		    v & 2 ? " T=1" : "", v & ~3ULL ?
		    " (Invalid values detected)" : "");
		text = tbuf;
		break;
	case LF_CCID_PIN:
		snprintf(val, sizeof val, "%llu", (unsigned long long)v);
		snprintf(tbuf, sizeof tbuf, "%s%s", v & 1 ? " verification" :
		    "", v & 2 ? " modification" : "");
		text = tbuf;
		break;
	case LF_CCID_FEAT: {
		int	 done = 0;	/* groups shown, a bit each */

		snprintf(val, sizeof val, "%08llX", (unsigned long long)v);
		ls_line(indent, name, width, val, n->note);
		for (i = 0; i < nitems(ls_ccid_features); i++) {
			if (!(v & ls_ccid_features[i].bit) ||
			    (done & (1 << ls_ccid_features[i].group)))
				continue;
			if (ls_ccid_features[i].group != 0)
				done |= 1 << ls_ccid_features[i].group;
			printf("%*s%s\n", indent + 2, "",
			    ls_ccid_features[i].text);
		}
		return;
	}
	case LF_CCID_SYNC:
	case LF_CCID_MECH: {
		const char *const *words = row->fmt == LF_CCID_SYNC ?
		    ls_ccid_sync : ls_ccid_mech;
		size_t	 nwords = row->fmt == LF_CCID_SYNC ?
		    nitems(ls_ccid_sync) : nitems(ls_ccid_mech);

		snprintf(val, sizeof val, "%08llX", (unsigned long long)v);
		k = 0;
		tbuf[0] = '\0';
		for (i = 0; i < nwords; i++) {
			if (v & (1U << i))
				k += (size_t)snprintf(tbuf + k, sizeof tbuf - k,
				    " %s", words[i]);
		}
		text = tbuf;
		break;
	}
	case LF_BYTES_IDX:
		/* lsusb's UVC selector unit says baSource. */
		if (w->isub == 1 && w->dsub == 4)
			name = "baSource";
		for (i = 0; i < n->len && n->off + i < w->len; i++) {
			snprintf(ibuf, sizeof ibuf, "%.40s(%2u)", name,
			    (unsigned)i);
			snprintf(val, sizeof val, "%u", p[i]);
			ls_line(indent, ibuf, width, val, NULL);
		}
		return;
	case LF_GUID:
		printf("%*s%-*s{%s}\n", indent, "", (width ? width : 25) + 1,
		    name, n->str != NULL ? n->str : "");
		return;
	case LF_UVC_CLOCK:
		/* lsusb: "%5u.%06uMHz" after a 20-column name */
		printf("%*s%-20s%5u.%06uMHz\n", indent, "", name,
		    (unsigned)(v / 1000000), (unsigned)(v % 1000000));
		return;
	case LF_UVC_CTLSIZE:
		snprintf(val, sizeof val, "%llu", (unsigned long long)v);
		if (w->isub == 1 && w->dsub == 2)
			width = 31;
		break;
	case LF_UVC_CONTROLS:
		if (w->isub == 2) {
			/* lsusb shows each format's first byte */
			snprintf(val, sizeof val, "%u", n->len > 0 &&
			    n->off < w->len ? p[0] : 0);
			break;
		}
		if (w->dsub == 6) {
			/* an extension unit's, byte by byte */
			for (i = 0; i < n->len && n->off + i < w->len; i++) {
				snprintf(ibuf, sizeof ibuf, "%.40s(%2u)", name,
				    (unsigned)i);
				snprintf(val, sizeof val, "0x%02x", p[i]);
				ls_line(indent, ibuf, width, val, NULL);
			}
			return;
		}
		/* at most 3 bytes of it, as lsusb reads it */
		v &= 0xffffff;
		snprintf(val, sizeof val, "0x%08llx", (unsigned long long)v);
		if (w->dsub == 2)
			width = 31;
		ls_line(indent, name, width, val, n->note);
		if (w->dsub == 2)
			ls_bits(indent + 2, v, ls_uvc_camctls,
			    w->iproto == 1 ? 22 : 19);
		else if (w->dsub == 5)
			ls_bits(indent + 2, v, ls_uvc_puctls,
			    w->iproto == 1 ? 19 : 18);
		return;
	case LF_UVC_STDS:
		snprintf(val, sizeof val, "0x%02llx", (unsigned long long)v);
		ls_line(indent, name, width, val, n->note);
		ls_bits(indent + 2, v, ls_uvc_stds, nitems(ls_uvc_stds));
		return;
	case LF_UVC_MJPEG:
		snprintf(val, sizeof val, "%llu", (unsigned long long)v);
		ls_line(indent, name, width, val, n->note);
		printf("%*sFixed-size samples: %s\n", indent + 2, "", v & 1 ?
		    "Yes" : "No");
		return;
	case LF_UVC_INTERLACE:
		snprintf(val, sizeof val, "0x%02llx", (unsigned long long)v);
		ls_line(indent, name, width, val, n->note);
		printf("%*sInterlaced stream or variable: %s\n", indent + 2,
		    "", v & 1 ? "Yes" : "No");
		/* sic: lsusb reads D1 one way for MJPEG, the other else */
		printf("%*sFields per frame: %u fields\n", indent + 2, "",
		    (w->dsub == 6) == ((v & 2) != 0) ? 2 : 1);
		printf("%*sField 1 first: %s\n", indent + 2, "", v & 4 ?
		    "Yes" : "No");
		printf("%*sField pattern: %s\n", indent + 2, "",
		    ls_uvc_patterns[(v >> 4) & 3]);
		return;
	case LF_UVC_FRAMECAPS:
		snprintf(val, sizeof val, "0x%02llx", (unsigned long long)v);
		ls_line(indent, name, width, val, n->note);
		printf("%*sStill image %ssupported\n", indent + 2, "", v & 1 ?
		    "" : "un");
		if (v & 2)
			printf("%*sFixed frame-rate\n", indent + 2, "");
		return;
	case LF_UVC_COLOR: {
		const char *const *words = ls_uvc_prims;
		size_t	 nwords = nitems(ls_uvc_prims);

		if (strcmp(name, "bTransferCharacteristics") == 0) {
			words = ls_uvc_xfers;
			nwords = nitems(ls_uvc_xfers);
		} else if (strcmp(name, "bMatrixCoefficients") == 0) {
			words = ls_uvc_matrices;
			nwords = nitems(ls_uvc_matrices);
		}
		snprintf(val, sizeof val, "%llu", (unsigned long long)v);
		snprintf(tbuf, sizeof tbuf, "(%s)", v < nwords ? words[v] :
		    "Unknown");
		text = tbuf;
		break;
	}
	case LF_DFU_ATTR:
		snprintf(val, sizeof val, "%llu", (unsigned long long)v);
		ls_line(indent, name, width, val, n->note);
		if (v & 0xf0)
			printf("%*s(unknown attributes!)\n", indent + 2, "");
		printf("%*sWill %sDetach\n", indent + 2, "", v & 0x08 ? "" :
		    "Not ");
		printf("%*sManifestation %s\n", indent + 2, "", v & 0x04 ?
		    "Tolerant" : "Intolerant");
		printf("%*sUpload %s\n", indent + 2, "", v & 0x02 ?
		    "Supported" : "Unsupported");
		printf("%*sDownload %s\n", indent + 2, "", v & 0x01 ?
		    "Supported" : "Unsupported");
		return;
	case LF_HUB_TT:
		/* Only high-speed hubs have transaction translators. */
		if (w->d->desclen >= 7 && (w->d->desc[6] == 1 ||
		    w->d->desc[6] == 2))
			printf("%*sTT think time %u FS bits\n", indent + 2, "",
			    ((unsigned)v + 1) * 8);
		return;
	}
	if (w->type == USB_DT_HID && !w->cls &&
	    strcmp(n->f->name, "bDescriptorType") == 0 &&
	    n->off != w->doff + 1) {
		/* HID's class descriptor list, not the header. */
		text = v == 0x22 ? "Report" : v == 0x23 ? "Physical" : NULL;
		if (v == 0x22)
			w->hid_report = 0;
	}
	/* Units after the number, which alone sits in the column. */
	if (row->suffix != NULL)
		text = row->suffix;
	if (n->note != NULL) {
		/* Our checks: bad lengths and the like. */
		snprintf(nbuf, sizeof nbuf, "%.256s%s[%s]", text != NULL ?
		    text : "", text != NULL ? "  " : "", n->note);
		text = nbuf;
	}
	ls_line(indent, name, width, val, text);
	if (row->words != NULL)
		ls_controls(indent + 2, v, row->words, row->wbits);
}

/* Decode p[0..len) with dec-desc.c and show it as lsusb -v does. */
static void
ls_tree(struct dv *d, const uint8_t *p, size_t len, int after)
{
	static struct dec_node	 nodes[DEC_TREE_NODES];
	static char		 arena[DEC_TREE_ARENA];
	struct dec_tree		 t;
	struct lswalk		 w;
	size_t			 i;

	dec_tree_init(&t, nodes, DEC_TREE_NODES, arena, sizeof arena);
	dec_desc_tree(p, len, NULL, &t);
	memset(&w, 0, sizeof w);
	w.d = d;
	w.data = p;
	w.len = len;
	w.after = after;
	w.indent = -1;
	w.hid_report = -1;
	for (i = 0; i < t.n; i++) {
		/* (a descriptor's heading may be a Wireshark node:
		 * usbdfu.descriptor) */
		if (t.node[i].f == NULL || t.node[i].f->kind == DK_LABEL)
			ls_head(&w, &t.node[i]);
		else
			ls_field(&w, &t.node[i]);
	}
	ls_flush(&w);
	if (t.overflow)
		printf("  (descriptors too large to show whole)\n");
}

/* The sysfs or rebuilt bytes: the device, then each configuration. */
void
ls_descriptors(struct dv *d)
{
	const uint8_t	*p = d->desc;
	size_t		 off, total, n = d->desclen;

	if (n < 2 || p[0] < 2) {
		printf("Device Descriptor:\n  (not available)\n");
		return;
	}
	off = p[0] < n ? p[0] : n;
	ls_tree(d, p, off, 0);
	while (off + 4 <= n) {
		/* Each configuration is wTotalLength bytes. */
		total = p[off + 1] == USB_DT_CONFIG ?
		    get_le16(p + off + 2) : p[off];
		if (total < 2)
			total = n - off;
		if (total > n - off)
			total = n - off;
		ls_tree(d, p + off, total, 0);
		off += total;
	}
	if (off < n)
		ls_bytes(0, p + off, n - off, "** UNRECOGNIZED: ");
}

/* USB 2.0 11.24.2.7: wPortStatus and wPortChange, as lsusb prints them. */
static void
ls_port_status(unsigned port, const uint8_t s[4])
{
	printf("   Port %u: %02x%02x.%02x%02x", port, s[3], s[2], s[1], s[0]);
	printf("%s%s%s%s%s", s[2] & 0x10 ? " C_RESET" : "",
	    s[2] & 0x08 ? " C_OC" : "", s[2] & 0x04 ? " C_SUSPEND" : "",
	    s[2] & 0x02 ? " C_ENABLE" : "", s[2] & 0x01 ? " C_CONNECT" : "");
	printf("%s%s%s%s%s%s%s%s%s%s\n", s[1] & 0x10 ? " indicator" : "",
	    s[1] & 0x08 ? " test" : "", s[1] & 0x04 ? " highspeed" : "",
	    s[1] & 0x02 ? " lowspeed" : "", s[1] & 0x01 ? " power" : "",
	    s[0] & 0x10 ? " RESET" : "", s[0] & 0x08 ? " oc" : "",
	    s[0] & 0x04 ? " suspend" : "", s[0] & 0x02 ? " enable" : "",
	    s[0] & 0x01 ? " connect" : "");
}

/*
 * What lsusb asks the device after the descriptors: the hub descriptor
 * and port status of a hub, the BOS of USB 2.01+, the qualifier of a USB
 * 2.00 device, the device status.  Needs an open handle.
 */
void
ls_requests(struct dv *d)
{
	uint8_t	 buf[512], st[4];
	uint16_t bcd;
	int	 n, i;

	if (d->h == NULL || d->desclen < 18)
		return;
	bcd = get_le16(d->desc + 2);
	if (d->desc[4] == LIBUSB_CLASS_HUB && bcd < 0x0300) {
		n = dv_ctrl_in(d, LIBUSB_REQUEST_TYPE_CLASS,
		    LIBUSB_REQUEST_GET_DESCRIPTOR, LIBUSB_DT_HUB << 8, 0, buf,
		    7 + 2 * 32);
		if (n >= 7 && buf[0] >= 7) {
			/* Root hubs pad the reply to wLength with zeroes. */
			ls_tree(d, buf, (size_t)(n < buf[0] ? n : buf[0]), 0);
			printf(" Hub Port Status:\n");
			for (i = 0; i < buf[2]; i++) {
				if (dv_ctrl_in(d, LIBUSB_REQUEST_TYPE_CLASS |
				    LIBUSB_RECIPIENT_OTHER,
				    LIBUSB_REQUEST_GET_STATUS, 0,
				    (uint16_t)(i + 1), st, 4) != 4)
					break;
				ls_port_status((unsigned)i + 1, st);
			}
		}
	}
	if (bcd >= 0x0201) {
		n = dv_ctrl_in(d, 0, LIBUSB_REQUEST_GET_DESCRIPTOR,
		    LIBUSB_DT_BOS << 8, 0, buf, 5);
		if (n == 5 && buf[1] == LIBUSB_DT_BOS) {
			n = dv_ctrl_in(d, 0, LIBUSB_REQUEST_GET_DESCRIPTOR,
			    LIBUSB_DT_BOS << 8, 0, buf, (uint16_t)(get_le16(
			    buf + 2) < sizeof buf ? get_le16(buf + 2) :
			    sizeof buf));
			if (n >= 5)
				ls_tree(d, buf, (size_t)n, 0);
		}
	}
	if (bcd == 0x0200) {
		/* Full-speed-only devices stall it: nothing to say then. */
		n = dv_ctrl_in(d, 0, LIBUSB_REQUEST_GET_DESCRIPTOR,
		    USB_DT_DEVICE_QUALIFIER << 8, 0, buf, 10);
		if (n == 10 && buf[0] == 10 &&
		    buf[1] == USB_DT_DEVICE_QUALIFIER)
			ls_tree(d, buf, 10, 0);
	}
	n = dv_ctrl_in(d, 0, LIBUSB_REQUEST_GET_STATUS, 0, 0, st, 2);
	if (n == 2) {
		printf("Device Status:     0x%02x%02x\n", st[1], st[0]);
		printf("  %s\n", st[0] & 1 ? "Self Powered" : "(Bus Powered)");
		if (bcd < 0x0300 && (st[0] & 2))
			printf("  Remote Wakeup Enabled\n");
		if (st[0] & 8)
			printf("  Debug Mode\n");
	}
}
