/*
 * decode/dec-video.c - video devices (USB Video Class 1.0-1.5): the
 * class-specific descriptors of the video control and video streaming
 * interfaces (header, camera and other terminals, selector, processing,
 * extension and encoding units, input header, uncompressed, MJPEG and
 * frame-based formats and frames, color matching, the interrupt endpoint),
 * the class requests' data (probe and commit controls, GET_INFO, GET_LEN,
 * control values, the request error code), the status interrupts, and the
 * payload headers of video streaming isochronous and bulk data.
 *
 * Facts: UVC 1.5 (2.4.2.2 status interrupt, 2.4.3.3 payload header, 3.7
 * VC descriptors, 3.9 VS descriptors, 4.2 and 4.3 requests, 4.3.1.1 probe
 * and commit controls, A.5-A.9 codes), UVC 1.1 (the 26- and 34-byte probe
 * control), the payload specifications for uncompressed, MJPEG and
 * frame-based video; Linux include/uapi/linux/usb/video.h.
 *
 * Field names are Wireshark's (epan/dissectors/packet-usb-video.c,
 * usbvideo.*), laid out as tshark 4.0 fills them.  The payload header,
 * which tshark leaves in the ISO or bulk data, is decoded below that data
 * under names in its style (usbvideo.payload.*).
 */
#include <string.h>

#include "class.h"

#define F	DEC_FIELD

#define CS_INTERFACE	0x24
#define CS_ENDPOINT	0x25
#define SC_CONTROL	0x01
#define SC_STREAMING	0x02

/* VC descriptor subtypes (A.5). */
#define VC_HEADER		0x01
#define VC_INPUT_TERMINAL	0x02
#define VC_OUTPUT_TERMINAL	0x03
#define VC_SELECTOR_UNIT	0x04
#define VC_PROCESSING_UNIT	0x05
#define VC_EXTENSION_UNIT	0x06
#define VC_ENCODING_UNIT	0x07

/* VS descriptor subtypes (A.6). */
#define VS_INPUT_HEADER		0x01
#define VS_FORMAT_UNCOMPRESSED	0x04
#define VS_FRAME_UNCOMPRESSED	0x05
#define VS_FORMAT_MJPEG		0x06
#define VS_FRAME_MJPEG		0x07
#define VS_COLORFORMAT		0x0d
#define VS_FORMAT_FRAME_BASED	0x10
#define VS_FRAME_FRAME_BASED	0x11

#define ITT_CAMERA		0x0201	/* terminal types (B.2) */

/* Requests (A.8) and VS interface controls (A.9.8). */
#define UVC_SET_CUR		0x01
#define UVC_GET_CUR		0x81
#define UVC_GET_MIN		0x82
#define UVC_GET_MAX		0x83
#define UVC_GET_RES		0x84
#define UVC_GET_LEN		0x85
#define UVC_GET_INFO		0x86
#define UVC_GET_DEF		0x87
#define VS_PROBE_CONTROL	0x01
#define VS_COMMIT_CONTROL	0x02
#define VC_REQUEST_ERROR_CODE_CONTROL 0x02

static const struct dec_name vc_subtypes[] = {	/* A.5 */
	{ 0x01, "Header" },
	{ 0x02, "Input Terminal" },
	{ 0x03, "Output Terminal" },
	{ 0x04, "Selector Unit" },
	{ 0x05, "Processing Unit" },
	{ 0x06, "Extension Unit" },
	{ 0x07, "Encoding Unit" },
	{ 0, NULL }
};

static const struct dec_name vs_subtypes[] = {	/* A.6 */
	{ 0x00, "Undefined" },
	{ 0x01, "Input Header" },
	{ 0x02, "Output Header" },
	{ 0x03, "Still Image Frame" },
	{ 0x04, "Format Uncompressed" },
	{ 0x05, "Frame Uncompressed" },
	{ 0x06, "Format MJPEG" },
	{ 0x07, "Frame MJPEG" },
	{ 0x08, "Format MPEG1" },
	{ 0x09, "Format MPEG2-PS" },
	{ 0x0a, "Format MPEG2-TS" },
	{ 0x0b, "Format MPEG4-SL" },
	{ 0x0c, "Format DV" },
	{ 0x0d, "Colorformat" },
	{ 0x0e, "Format Vendor" },
	{ 0x0f, "Frame Vendor" },
	{ 0x10, "Format Frame-Based" },
	{ 0x11, "Frame Frame-Based" },
	{ 0x12, "Format Stream Based" },
	{ 0x13, "Format H.264" },
	{ 0x14, "Frame H.264" },
	{ 0x15, "Format H.264 Simulcast" },
	{ 0x16, "Format VP8" },
	{ 0x17, "Frame VP8" },
	{ 0x18, "Format VP8 Simulcast" },
	{ 0, NULL }
};

/* Control selectors (A.9.1-A.9.8), by the entity they belong to. */
static const struct dec_name vc_controls[] = {		/* A.9.1 */
	{ 0x01, "Video Power Mode" },
	{ 0x02, "Request Error Code" },
	{ 0, NULL }
};

static const struct dec_name su_controls[] = {		/* A.9.3 */
	{ 0x01, "Input Select" },
	{ 0, NULL }
};

static const struct dec_name ct_controls[] = {		/* A.9.4 */
	{ 0x01, "Scanning Mode" },
	{ 0x02, "Auto-Exposure Mode" },
	{ 0x03, "Auto-Exposure Priority" },
	{ 0x04, "Exposure Time (Absolute)" },
	{ 0x05, "Exposure Time (Relative)" },
	{ 0x06, "Focus (Absolute)" },
	{ 0x07, "Focus (Relative)" },
	{ 0x08, "Focus, Auto" },
	{ 0x09, "Iris (Absolute)" },
	{ 0x0a, "Iris (Relative)" },
	{ 0x0b, "Zoom (Absolute)" },
	{ 0x0c, "Zoom (Relative)" },
	{ 0x0d, "PanTilt (Absolute)" },
	{ 0x0e, "PanTilt (Relative)" },
	{ 0x0f, "Roll (Absolute)" },
	{ 0x10, "Roll (Relative)" },
	{ 0x11, "Privacy" },
	{ 0x12, "Focus (Simple)" },
	{ 0x13, "Window" },
	{ 0x14, "Region of Interest" },
	{ 0, NULL }
};

static const struct dec_name pu_controls[] = {		/* A.9.5 */
	{ 0x01, "Backlight Compensation" },
	{ 0x02, "Brightness" },
	{ 0x03, "Contrast" },
	{ 0x04, "Gain" },
	{ 0x05, "Power Line Frequency" },
	{ 0x06, "Hue" },
	{ 0x07, "Saturation" },
	{ 0x08, "Sharpness" },
	{ 0x09, "Gamma" },
	{ 0x0a, "White Balance Temperature" },
	{ 0x0b, "White Balance Temperature Auto" },
	{ 0x0c, "White Balance Component" },
	{ 0x0d, "White Balance Component Auto" },
	{ 0x0e, "Digital Multiplier" },
	{ 0x0f, "Digital Multiplier Limit" },
	{ 0x10, "Hue Auto" },
	{ 0x11, "Video Standard" },
	{ 0x12, "Analog Lock Status" },
	{ 0x13, "Contrast Auto" },
	{ 0, NULL }
};

static const struct dec_name vs_controls[] = {		/* A.9.8 */
	{ 0x01, "Probe" },
	{ 0x02, "Commit" },
	{ 0x03, "Still Probe" },
	{ 0x04, "Still Commit" },
	{ 0x05, "Still Image Trigger" },
	{ 0x06, "Stream Error Code" },
	{ 0x07, "Generate Key Frame" },
	{ 0x08, "Update Frame Segment" },
	{ 0x09, "Synch Delay" },
	{ 0, NULL }
};

static const struct dec_name ep_subtypes[] = {	/* A.7 */
	{ 0x03, "Interrupt" },
	{ 0, NULL }
};

static const struct dec_name terminal_types[] = {	/* B.1-B.4 */
	{ 0x0100, "Vendor Specific" },
	{ 0x0101, "Streaming" },
	{ 0x0200, "Vendor Specific Input" },
	{ 0x0201, "Camera Input" },
	{ 0x0202, "Media Transport Input" },
	{ 0x0300, "Vendor Specific Output" },
	{ 0x0301, "Display Output" },
	{ 0x0302, "Media Transport Output" },
	{ 0x0400, "Vendor Specific External" },
	{ 0x0401, "Composite Connector" },
	{ 0x0402, "SVideo Connector" },
	{ 0x0403, "Component Connector" },
	{ 0, NULL }
};

static const struct dec_name still_methods[] = {	/* 3.9.2.1 */
	{ 0, "None" },
	{ 1, "Uninterrupted streaming" },
	{ 2, "Suspended streaming" },
	{ 3, "Dedicated pipe" },
	{ 0, NULL }
};

static const struct dec_name trigger_usages[] = {
	{ 0, "Initiate still image capture" },
	{ 1, "General purpose button event" },
	{ 0, NULL }
};

static const struct dec_name field_patterns[] = {
	{ 0, "Field 1 only" },
	{ 1, "Field 2 only" },
	{ 2, "Regular pattern of fields 1 and 2" },
	{ 3, "Random pattern of fields 1 and 2" },
	{ 0, NULL }
};

static const struct dec_name copy_protect[] = {
	{ 0, "No restrictions" },
	{ 1, "Restrict duplication" },
	{ 0, NULL }
};

static const struct dec_name color_primaries[] = {	/* 3.9.2.6 */
	{ 0, "Unspecified" },
	{ 1, "BT.709, sRGB" },
	{ 2, "BT.470-2 (M)" },
	{ 3, "BT.470-2 (B,G)" },
	{ 4, "SMPTE 170M" },
	{ 5, "SMPTE 240M" },
	{ 0, NULL }
};

static const struct dec_name transfer_chars[] = {
	{ 0, "Unspecified" },
	{ 1, "BT.709" },
	{ 2, "BT.470-2 (M)" },
	{ 3, "BT.470-2 (B,G)" },
	{ 4, "SMPTE 170M" },
	{ 5, "SMPTE 240M" },
	{ 6, "Linear (V=Lc)" },
	{ 7, "sRGB" },
	{ 0, NULL }
};

static const struct dec_name matrix_coeffs[] = {
	{ 0, "Unspecified" },
	{ 1, "BT.709" },
	{ 2, "FCC" },
	{ 3, "BT.470-2 (B,G)" },
	{ 4, "SMPTE 170M (BT.601)" },
	{ 5, "SMPTE 240M" },
	{ 0, NULL }
};

static const struct dec_name request_errors[] = {	/* 4.2.1.2 */
	{ 0, "No error" },
	{ 1, "Not ready" },
	{ 2, "Wrong state" },
	{ 3, "Insufficient power" },
	{ 4, "Out of range" },
	{ 5, "Invalid unit" },
	{ 6, "Invalid control" },
	{ 7, "Invalid request" },
	{ 8, "Invalid value within range" },
	{ 255, "Unknown" },
	{ 0, NULL }
};

static const struct dec_name status_types[] = {	/* 2.4.2.2 */
	{ 1, "VideoControl Interface" },
	{ 2, "VideoStreaming Interface" },
	{ 0, NULL }
};

static const struct dec_name change_types[] = {
	{ 0, "Value" },
	{ 1, "Info" },
	{ 2, "Failure" },
	{ 3, "Min" },
	{ 4, "Max" },
	{ 0, NULL }
};

static const struct dec_name control_events[] = {
	{ 0, "Control Change" },
	{ 0, NULL }
};

static const struct dec_name ep_directions[] = {
	{ 0, "OUT Endpoint" },
	{ 1, "IN Endpoint" },
	{ 0, NULL }
};

/* ------------------------------------------------------------------------
 * Fields: descriptors.
 */
F(f_vc_subtype, "Subtype", "usbvideo.control.descriptorSubType", DK_UINT, 1,
    vc_subtypes, 0);
F(f_vs_subtype, "Subtype", "usbvideo.streaming.descriptorSubType", DK_UINT,
    1, vs_subtypes, 0);
F(f_ep_subtype, "Subtype", "usbvideo.ep.descriptorSubType", DK_UINT, 1,
    ep_subtypes, 0);
F(f_ep_maxint, "wMaxTransferSize", "usbvideo.ep.maxInterruptSize", DK_UINT,
    2, NULL, 0);
F(f_bcduvc, "bcdUVC", "usbvideo.bcdUVC", DK_HEX, 2, NULL, 0);
F(f_total, "wTotalLength", "usbvideo.totalLength", DK_UINT, 2, NULL, 0);
/* (the header's dwClockFrequency is registered under the probe's name) */
F(f_clock, "dwClockFrequency", "usbvideo.probe.clockFrequency", DK_UINT, 4,
    NULL, 0);
F(f_ncoll, "bInCollection", "usbvideo.numStreamingInterfaces", DK_UINT, 1,
    NULL, 0);
F(f_coll, "baInterfaceNr", "usbvideo.streamingInterfaceNumbers", DK_BYTES,
    0, NULL, 0);
F(f_term_id, "bTerminalID", "usbvideo.terminal.id", DK_UINT, 1, NULL, 0);
F(f_term_type, "wTerminalType", "usbvideo.terminal.type", DK_HEX, 2,
    terminal_types, 0);
F(f_term_assoc, "bAssocTerminal", "usbvideo.terminal.assocTerminal",
    DK_UINT, 1, NULL, 0);
F(f_term_str, "iTerminal", "usbvideo.terminal.name", DK_UINT, 1, NULL, 0);
F(f_source, "bSourceID", "usbvideo.sourceID", DK_UINT, 1, NULL, 0);
F(f_focal_min, "wObjectiveFocalLengthMin",
    "usbvideo.camera.objectiveFocalLengthMin", DK_UINT, 2, NULL, 0);
F(f_focal_max, "wObjectiveFocalLengthMax",
    "usbvideo.camera.objectiveFocalLengthMax", DK_UINT, 2, NULL, 0);
F(f_ocular, "wOcularFocalLength", "usbvideo.camera.ocularFocalLength",
    DK_UINT, 2, NULL, 0);
F(f_ctl_size, "bControlSize", "usbvideo.bmcontrolSize", DK_UINT, 1, NULL, 0);
F(f_controls, "bmControl", "usbvideo.availableControls", DK_HEX, 4, NULL, 0);
F(f_controls_bytes, "bmControl", "usbvideo.availableControls.bytes",
    DK_BYTES, 0, NULL, 0);
F(f_unit_id, "bUnitID", "usbvideo.unit.id", DK_UINT, 1, NULL, 0);
F(f_ninputs, "bNrInPins", "usbvideo.unit.numInputs", DK_UINT, 1, NULL, 0);
F(f_sources, "baSourceID", "usbvideo.unit.sources", DK_BYTES, 0, NULL, 0);
F(f_pu_str, "iProcessing", "usbvideo.processor.name", DK_UINT, 1, NULL, 0);
F(f_pu_mult, "wMaxMultiplier", "usbvideo.processor.maxMultiplier", DK_UINT,
    2, NULL, 0);
F(f_pu_std, "bmVideoStandards", "usbvideo.processor.standards", DK_HEX, 1,
    NULL, 0);
F(f_su_str, "iSelector", "usbvideo.selector.name", DK_UINT, 1, NULL, 0);
F(f_xu_str, "iExtension", "usbvideo.extension.name", DK_UINT, 1, NULL, 0);
F(f_xu_guid, "guid", "usbvideo.extension.guid", DK_STRING, 0, NULL, 0);
F(f_xu_nctl, "bNumControls", "usbvideo.extension.numControls", DK_UINT, 1,
    NULL, 0);
F(f_data, "Descriptor data", "usbvideo.descriptor_data", DK_BYTES, 0, NULL,
    0);

/* bmControls bits: camera terminal (3.7.2.3), processing unit (3.7.2.5),
 * VS input header (3.9.2.1), video standards (3.7.2.5). */
#define BIT(var, pfx, n, name)						\
	F(var, name, "usbvideo." pfx ".D" #n, DK_BOOL, 4, NULL, 1u << n)
BIT(f_ct0, "camera.control", 0, "Scanning Mode");
BIT(f_ct1, "camera.control", 1, "Auto Exposure Mode");
BIT(f_ct2, "camera.control", 2, "Auto Exposure Priority");
BIT(f_ct3, "camera.control", 3, "Exposure Time (Absolute)");
BIT(f_ct4, "camera.control", 4, "Exposure Time (Relative)");
BIT(f_ct5, "camera.control", 5, "Focus (Absolute)");
BIT(f_ct6, "camera.control", 6, "Focus (Relative)");
BIT(f_ct7, "camera.control", 7, "Iris (Absolute)");
BIT(f_ct8, "camera.control", 8, "Iris (Relative)");
BIT(f_ct9, "camera.control", 9, "Zoom (Absolute)");
BIT(f_ct10, "camera.control", 10, "Zoom (Relative)");
BIT(f_ct11, "camera.control", 11, "PanTilt (Absolute)");
BIT(f_ct12, "camera.control", 12, "PanTilt (Relative)");
BIT(f_ct13, "camera.control", 13, "Roll (Absolute)");
BIT(f_ct14, "camera.control", 14, "Roll (Relative)");
BIT(f_ct15, "camera.control", 15, "D15");
BIT(f_ct16, "camera.control", 16, "D16");
BIT(f_ct17, "camera.control", 17, "Auto Focus");
BIT(f_ct18, "camera.control", 18, "Privacy");
BIT(f_ct19, "camera.control", 19, "Focus (Simple)");
BIT(f_ct20, "camera.control", 20, "Window");
BIT(f_ct21, "camera.control", 21, "Region of Interest");
static const struct dec_field *const ct_bits[] = {
	&f_ct0, &f_ct1, &f_ct2, &f_ct3, &f_ct4, &f_ct5, &f_ct6, &f_ct7,
	&f_ct8, &f_ct9, &f_ct10, &f_ct11, &f_ct12, &f_ct13, &f_ct14, &f_ct15,
	&f_ct16, &f_ct17, &f_ct18, &f_ct19, &f_ct20, &f_ct21, NULL
};
BIT(f_pu0, "processor.control", 0, "Brightness");
BIT(f_pu1, "processor.control", 1, "Contrast");
BIT(f_pu2, "processor.control", 2, "Hue");
BIT(f_pu3, "processor.control", 3, "Saturation");
BIT(f_pu4, "processor.control", 4, "Sharpness");
BIT(f_pu5, "processor.control", 5, "Gamma");
BIT(f_pu6, "processor.control", 6, "White Balance Temperature");
BIT(f_pu7, "processor.control", 7, "White Balance Component");
BIT(f_pu8, "processor.control", 8, "Backlight Compensation");
BIT(f_pu9, "processor.control", 9, "Gain");
BIT(f_pu10, "processor.control", 10, "Power Line Frequency");
BIT(f_pu11, "processor.control", 11, "Hue, Auto");
BIT(f_pu12, "processor.control", 12, "White Balance Temperature, Auto");
BIT(f_pu13, "processor.control", 13, "White Balance Component, Auto");
BIT(f_pu14, "processor.control", 14, "Digital Multiplier");
BIT(f_pu15, "processor.control", 15, "Digital Multiplier Limit");
BIT(f_pu16, "processor.control", 16, "Analog Video Standard");
BIT(f_pu17, "processor.control", 17, "Analog Video Lock Status");
BIT(f_pu18, "processor.control", 18, "Contrast, Auto");
static const struct dec_field *const pu_bits[] = {
	&f_pu0, &f_pu1, &f_pu2, &f_pu3, &f_pu4, &f_pu5, &f_pu6, &f_pu7,
	&f_pu8, &f_pu9, &f_pu10, &f_pu11, &f_pu12, &f_pu13, &f_pu14, &f_pu15,
	&f_pu16, &f_pu17, &f_pu18, NULL
};
BIT(f_vs0, "streaming.control", 0, "wKeyFrameRate");
BIT(f_vs1, "streaming.control", 1, "wPFrameRate");
BIT(f_vs2, "streaming.control", 2, "wCompQuality");
BIT(f_vs3, "streaming.control", 3, "wCompWindowSize");
BIT(f_vs4, "streaming.control", 4, "Generate Key Frame");
BIT(f_vs5, "streaming.control", 5, "Update Frame Segment");
static const struct dec_field *const vs_ctl_bits[] = {
	&f_vs0, &f_vs1, &f_vs2, &f_vs3, &f_vs4, &f_vs5, NULL
};
#define BIT1(var, pfx, n, name)						\
	F(var, name, "usbvideo." pfx ".D" #n, DK_BOOL, 1, NULL, 1u << n)
BIT1(f_std0, "processor.standards", 0, "None");
BIT1(f_std1, "processor.standards", 1, "NTSC - 525/60");
BIT1(f_std2, "processor.standards", 2, "PAL - 625/50");
BIT1(f_std3, "processor.standards", 3, "SECAM - 625/50");
BIT1(f_std4, "processor.standards", 4, "NTSC - 625/50");
BIT1(f_std5, "processor.standards", 5, "PAL - 525/60");
static const struct dec_field *const std_bits[] = {
	&f_std0, &f_std1, &f_std2, &f_std3, &f_std4, &f_std5, NULL
};

/* VS input header (3.9.2.1) */
F(f_nformats, "bNumFormats", "usbvideo.streaming.numFormats", DK_UINT, 1,
    NULL, 0);
F(f_epaddr, "bEndpointAddress", "usb.bEndpointAddress", DK_HEX, 1, NULL, 0);
F(f_epdir, "Direction", "usb.bEndpointAddress.direction", DK_UINT, 1,
    ep_directions, 0x80);
F(f_epnum, "Endpoint Number", "usb.bEndpointAddress.number", DK_HEX, 1,
    NULL, 0x0f);
static const struct dec_field *const ep_bits[] = {
	&f_epdir, &f_epnum, NULL
};
F(f_info, "bmInfo", "usbvideo.streaming.info", DK_HEX, 1, NULL, 0);
BIT1(f_info0, "streaming.info", 0, "Dynamic Format Change");
static const struct dec_field *const info_bits[] = { &f_info0, NULL };
F(f_link, "bTerminalLink", "usbvideo.streaming.terminalLink", DK_UINT, 1,
    NULL, 0);
F(f_still, "bStillCaptureMethod", "usbvideo.streaming.stillCaptureMethod",
    DK_UINT, 1, still_methods, 0);
F(f_trig, "HW Triggering", "usbvideo.streaming.triggerSupport", DK_BOOL, 1,
    NULL, 0);
F(f_trig_use, "bTriggerUsage", "usbvideo.streaming.triggerUsage", DK_UINT, 1,
    trigger_usages, 0);

/* Formats and frames (3.9.2.2-3.9.2.6, the payload specifications) */
F(f_fmt_index, "bFormatIndex", "usbvideo.format.index", DK_UINT, 1, NULL, 0);
F(f_fmt_nframes, "bNumFrameDescriptors", "usbvideo.format.numFrameDescriptors",
    DK_UINT, 1, NULL, 0);
F(f_fmt_guid, "guidFormat", "usbvideo.format.guid", DK_STRING, 0, NULL, 0);
F(f_fmt_bpp, "bBitsPerPixel", "usbvideo.format.bitsPerPixel", DK_UINT, 1,
    NULL, 0);
F(f_fmt_defframe, "bDefaultFrameIndex", "usbvideo.format.defaultFrameIndex",
    DK_UINT, 1, NULL, 0);
F(f_fmt_arx, "bAspectRatioX", "usbvideo.format.aspectRatioX", DK_UINT, 1,
    NULL, 0);
F(f_fmt_ary, "bAspectRatioY", "usbvideo.format.aspectRatioY", DK_UINT, 1,
    NULL, 0);
F(f_fmt_il, "bmInterlaceFlags", "usbvideo.format.interlace", DK_HEX, 1, NULL,
    0);
F(f_fmt_il0, "Interlaced stream", "usbvideo.format.interlace.D0", DK_BOOL, 1,
    NULL, 0x01);
F(f_fmt_il1, "Fields per frame", "usbvideo.format.interlace.D1", DK_BOOL, 1,
    NULL, 0x02);
F(f_fmt_il2, "Field 1 first", "usbvideo.format.interlace.D2", DK_BOOL, 1,
    NULL, 0x04);
F(f_fmt_ilpat, "Field pattern", "usbvideo.format.interlace.pattern", DK_UINT,
    1, field_patterns, 0x30);
static const struct dec_field *const il_bits[] = {
	&f_fmt_il0, &f_fmt_il1, &f_fmt_il2, &f_fmt_ilpat, NULL
};
F(f_fmt_copy, "bCopyProtect", "usbvideo.format.copyProtect", DK_UINT, 1,
    copy_protect, 0);
F(f_fmt_var, "Variable size", "usbvideo.format.variableSize", DK_BOOL, 1,
    NULL, 0);
F(f_mjpeg_flags, "bmFlags", "usbvideo.mjpeg.flags", DK_HEX, 1, NULL, 0);
F(f_mjpeg_fixed, "Fixed size samples", "usbvideo.mjpeg.fixed_size", DK_BOOL,
    1, NULL, 0x01);
static const struct dec_field *const mjpeg_bits[] = { &f_mjpeg_fixed, NULL };
F(f_frm_index, "bFrameIndex", "usbvideo.frame.index", DK_UINT, 1, NULL, 0);
F(f_frm_caps, "bmCapabilities", "usbvideo.frame.capabilities", DK_HEX, 1,
    NULL, 0);
F(f_frm_stills, "Still image", "usbvideo.frame.stills", DK_BOOL, 1, NULL,
    0x01);
F(f_frm_fixed, "Fixed frame rate", "usbvideo.frame.fixedRate", DK_BOOL, 1,
    NULL, 0x02);
static const struct dec_field *const caps_bits[] = {
	&f_frm_stills, &f_frm_fixed, NULL
};
F(f_frm_width, "wWidth", "usbvideo.frame.width", DK_UINT, 2, NULL, 0);
F(f_frm_height, "wHeight", "usbvideo.frame.height", DK_UINT, 2, NULL, 0);
F(f_frm_minbr, "dwMinBitRate", "usbvideo.frame.minBitRate", DK_UINT, 4, NULL,
    0);
F(f_frm_maxbr, "dwMaxBitRate", "usbvideo.frame.maxBitRate", DK_UINT, 4, NULL,
    0);
F(f_frm_maxbuf, "dwMaxVideoFrameBufferSize", "usbvideo.frame.maxBuffer",
    DK_UINT, 4, NULL, 0);
F(f_frm_defint, "dwDefaultFrameInterval", "usbvideo.frame.interval.default",
    DK_UINT, 4, NULL, 0);
F(f_frm_inttype, "bFrameIntervalType", "usbvideo.frame.interval.type",
    DK_UINT, 1, NULL, 0);
F(f_frm_bpl, "dwBytesPerLine", "usbvideo.frame.bytesPerLine", DK_UINT, 4,
    NULL, 0);
F(f_frm_minint, "dwMinFrameInterval", "usbvideo.frame.interval.min",
    DK_UINT, 4, NULL, 0);
F(f_frm_maxint, "dwMaxFrameInterval", "usbvideo.frame.interval.max",
    DK_UINT, 4, NULL, 0);
F(f_frm_stepint, "dwFrameIntervalStep", "usbvideo.frame.interval.step",
    DK_UINT, 4, NULL, 0);
F(f_frm_interval, "dwFrameInterval", "usbvideo.frame.interval", DK_UINT, 4,
    NULL, 0);
F(f_color_prim, "bColorPrimaries", "usbvideo.color.primaries", DK_UINT, 1,
    color_primaries, 0);
F(f_color_xfer, "bTransferCharacteristics",
    "usbvideo.color.transferCharacteristics", DK_UINT, 1, transfer_chars, 0);
F(f_color_mat, "bMatrixCoefficients", "usbvideo.color.matrixCoefficients",
    DK_UINT, 1, matrix_coeffs, 0);

/* ------------------------------------------------------------------------
 * Descriptors.
 */

/* A GUID (16 bytes at off, its first three groups little-endian) as
 * tshark prints FT_GUID: "32595559-0000-0010-8000-00aa00389b71". */
static void
guid(struct dec_cur *c, const struct dec_field *f, size_t off)
{
	const uint8_t	*p = c->p + off;
	struct dec_node	*n;

	if (c->cut || off > c->n || c->n - off < 16) {
		dec_cur_field(c, f, off, 16, NULL);
		return;
	}
	n = dec_tree_add(c->t, f, DB_DATA, c->base + (uint32_t)off, 16, 0);
	if (n == NULL)
		return;
	n->str = dec_tree_printf(c->t, "%08x-%04x-%04x-%02x%02x-"
	    "%02x%02x%02x%02x%02x%02x", get_le32(p), get_le16(p + 4),
	    get_le16(p + 6), p[8], p[9], p[10], p[11], p[12], p[13], p[14],
	    p[15]);
	n->flags |= DN_PLAIN;
}

/* A bmControls of size bytes at off (in bounds), read as one
 * little-endian number with its bits: tshark decodes its first four. */
static void
bm_one(struct dec_cur *c, size_t off, uint32_t size,
    const struct dec_field *const *bits)
{
	uint32_t	 v, i;

	for (v = 0, i = size < 4 ? size : 4; i > 0; i--)
		v = v << 8 | c->p[off + i - 1];
	dec_tree_add(c->t, &f_controls, DB_DATA, c->base + (uint32_t)off,
	    size, v);
	/* the bits of the bytes there are (proto_tree_add_bitmask_len) */
	for (; bits != NULL && *bits != NULL; bits++) {
		if (size < 4 && (*bits)->mask >> (8 * size) != 0)
			continue;
		dec_tree_add_bits(c->t, *bits, DB_DATA,
		    c->base + (uint32_t)off, size, v);
	}
}

/* bControlSize at off, then a bmControls of that many bytes. */
static size_t
bm_controls(struct dec_cur *c, size_t off, const struct dec_field *const *bits)
{
	uint32_t	 size;

	if (!dec_cur_field(c, &f_ctl_size, off, 1, &size))
		return off + 1;
	off++;
	if (size == 0)
		return off;
	if (off > c->n || size > c->n - off) {
		dec_cur_field(c, &f_controls, off, size, NULL);
		return off + size;
	}
	bm_one(c, off, size, bits);
	return off + size;
}

static size_t
vc_header(struct dec_cur *c)
{
	uint32_t	 n;

	dec_cur_field(c, &f_bcduvc, 3, 2, NULL);
	dec_cur_field(c, &f_total, 5, 2, NULL);
	dec_cur_field(c, &f_clock, 7, 4, NULL);
	if (!dec_cur_field(c, &f_ncoll, 11, 1, &n))
		return 12;
	if (n > 0)
		dec_cur_field(c, &f_coll, 12, n, NULL);
	return 12 + n;
}

static size_t
vc_terminal(struct dec_cur *c, uint32_t st)
{
	uint32_t	 type;
	size_t		 at = 7;

	dec_cur_field(c, &f_term_id, 3, 1, NULL);
	if (!dec_cur_field(c, &f_term_type, 4, 2, &type))
		return 6;
	dec_cur_field(c, &f_term_assoc, 6, 1, NULL);
	if (st == VC_OUTPUT_TERMINAL)
		dec_cur_field(c, &f_source, at++, 1, NULL);
	dec_cur_field(c, &f_term_str, at++, 1, NULL);
	if (st == VC_INPUT_TERMINAL && type == ITT_CAMERA) {
		dec_cur_field(c, &f_focal_min, at, 2, NULL);
		dec_cur_field(c, &f_focal_max, at + 2, 2, NULL);
		dec_cur_field(c, &f_ocular, at + 4, 2, NULL);
		at = bm_controls(c, at + 6, ct_bits);
	}
	return at;
}

static size_t
vc_unit(struct dec_cur *c, uint32_t st)
{
	uint32_t	 n;
	size_t		 at;

	dec_cur_field(c, &f_unit_id, 3, 1, NULL);
	switch (st) {
	case VC_PROCESSING_UNIT:
		dec_cur_field(c, &f_source, 4, 1, NULL);
		dec_cur_field(c, &f_pu_mult, 5, 2, NULL);
		at = bm_controls(c, 7, pu_bits);
		dec_cur_field(c, &f_pu_str, at++, 1, NULL);
		/* UVC 1.1 added bmVideoStandards */
		if (at < c->n) {
			dec_cur_word(c, &f_pu_std, std_bits, at, 1, NULL);
			at++;
		}
		return at;
	case VC_SELECTOR_UNIT:
		if (!dec_cur_field(c, &f_ninputs, 4, 1, &n))
			return 5;
		if (n > 0)
			dec_cur_field(c, &f_sources, 5, n, NULL);
		dec_cur_field(c, &f_su_str, 5 + n, 1, NULL);
		return 6 + n;
	case VC_EXTENSION_UNIT:
		guid(c, &f_xu_guid, 4);
		dec_cur_field(c, &f_xu_nctl, 20, 1, NULL);
		if (!dec_cur_field(c, &f_ninputs, 21, 1, &n))
			return 22;
		at = 22;
		if (n > 0)
			dec_cur_field(c, &f_sources, at, n, NULL);
		at += n;
		if (!dec_cur_field(c, &f_ctl_size, at, 1, &n))
			return at + 1;
		at++;
		if (n > 4)
			dec_cur_field(c, &f_controls_bytes, at, n, NULL);
		else if (n > 0)
			dec_cur_field(c, &f_controls, at, n, NULL);
		at += n;
		dec_cur_field(c, &f_xu_str, at++, 1, NULL);
		return at;
	default:	/* the encoding unit, and unknown units: tshark's @todo */
		return 4;
	}
}

static size_t
vs_input_header(struct dec_cur *c)
{
	uint32_t	 nfmt, size, trig, i;
	size_t		 at;

	if (!dec_cur_field(c, &f_nformats, 3, 1, &nfmt))
		return 4;
	dec_cur_field(c, &f_total, 4, 2, NULL);
	dec_cur_word(c, &f_epaddr, ep_bits, 6, 1, NULL);
	dec_cur_word(c, &f_info, info_bits, 7, 1, NULL);
	dec_cur_field(c, &f_link, 8, 1, NULL);
	dec_cur_field(c, &f_still, 9, 1, NULL);
	if (c->cut || c->n < 11) {
		dec_cur_field(c, &f_trig, 10, 1, NULL);
		return 11;
	}
	trig = c->p[10];
	dec_tree_add(c->t, &f_trig, DB_DATA, c->base + 10, 1, trig != 0);
	/* without triggering, bTriggerUsage is shown as 0, "not applicable" */
	if (trig != 0)
		dec_cur_field(c, &f_trig_use, 11, 1, NULL);
	else if (c->n >= 12)
		dec_tree_add(c->t, &f_trig_use, DB_DATA, c->base + 11, 1, 0);
	else
		dec_cur_field(c, &f_trig_use, 11, 1, NULL);
	if (!dec_cur_field(c, &f_ctl_size, 12, 1, &size))
		return 13;
	at = 13;
	if (size == 0)
		return at;
	for (i = 0; i < nfmt && !c->cut; i++, at += size) {
		if (at > c->n || size > c->n - at) {
			dec_cur_field(c, &f_controls, at, size, NULL);
			break;
		}
		bm_one(c, at, size, vs_ctl_bits);
	}
	return at;
}

static size_t
vs_format(struct dec_cur *c, uint32_t st)
{
	size_t	 at = 5;

	dec_cur_field(c, &f_fmt_index, 3, 1, NULL);
	dec_cur_field(c, &f_fmt_nframes, 4, 1, NULL);
	if (st == VS_FORMAT_MJPEG) {
		dec_cur_word(c, &f_mjpeg_flags, mjpeg_bits, 5, 1, NULL);
		at = 6;
	} else {
		guid(c, &f_fmt_guid, 5);
		dec_cur_field(c, &f_fmt_bpp, 21, 1, NULL);
		at = 22;
	}
	dec_cur_field(c, &f_fmt_defframe, at, 1, NULL);
	dec_cur_field(c, &f_fmt_arx, at + 1, 1, NULL);
	dec_cur_field(c, &f_fmt_ary, at + 2, 1, NULL);
	dec_cur_word(c, &f_fmt_il, il_bits, at + 3, 1, NULL);
	dec_cur_field(c, &f_fmt_copy, at + 4, 1, NULL);
	at += 5;
	if (st == VS_FORMAT_FRAME_BASED) {
		if (c->cut || at >= c->n)
			dec_cur_field(c, &f_fmt_var, at, 1, NULL);
		else
			dec_tree_add(c->t, &f_fmt_var, DB_DATA,
			    c->base + (uint32_t)at, 1, c->p[at] != 0);
		at++;
	}
	return at;
}

static size_t
vs_frame(struct dec_cur *c, uint32_t st)
{
	uint32_t	 type, i;
	size_t		 at = 17;

	dec_cur_field(c, &f_frm_index, 3, 1, NULL);
	dec_cur_word(c, &f_frm_caps, caps_bits, 4, 1, NULL);
	dec_cur_field(c, &f_frm_width, 5, 2, NULL);
	dec_cur_field(c, &f_frm_height, 7, 2, NULL);
	dec_cur_field(c, &f_frm_minbr, 9, 4, NULL);
	dec_cur_field(c, &f_frm_maxbr, 13, 4, NULL);
	if (st != VS_FRAME_FRAME_BASED) {
		dec_cur_field(c, &f_frm_maxbuf, at, 4, NULL);
		at += 4;
	}
	dec_cur_field(c, &f_frm_defint, at, 4, NULL);
	at += 4;
	if (!dec_cur_field(c, &f_frm_inttype, at++, 1, &type))
		return at;
	if (st == VS_FRAME_FRAME_BASED) {
		dec_cur_field(c, &f_frm_bpl, at, 4, NULL);
		at += 4;
	}
	if (type == 0) {
		dec_cur_field(c, &f_frm_minint, at, 4, NULL);
		dec_cur_field(c, &f_frm_maxint, at + 4, 4, NULL);
		dec_cur_field(c, &f_frm_stepint, at + 8, 4, NULL);
		return at + 12;
	}
	for (i = 0; i < type && !c->cut; i++, at += 4)
		dec_cur_field(c, &f_frm_interval, at, 4, NULL);
	return at;
}

/* The heading: "VC INTERFACE descriptor: Input Terminal (entity 1)". */
static void
label(const struct dec_cls_desc *cd, struct dec_tree *t, const char *kind,
    const struct dec_name *names)
{
	const char	*s, *name;
	char		 tmp[24];

	if (cd->n < 3) {
		cd->label->str = kind;
		return;
	}
	name = dec_name_or(names, cd->p[2], tmp);
	if (cd->p[1] == CS_INTERFACE && cd->subcls == SC_CONTROL &&
	    cd->p[2] >= VC_INPUT_TERMINAL && cd->p[2] <= VC_ENCODING_UNIT &&
	    cd->n >= 4)
		s = dec_tree_printf(t, "%s: %s (entity %u)", kind, name,
		    cd->p[3]);
	else if (cd->p[1] == CS_INTERFACE && cd->subcls == SC_STREAMING &&
	    (cd->p[2] == VS_FRAME_UNCOMPRESSED || cd->p[2] == VS_FRAME_MJPEG ||
	    cd->p[2] == VS_FRAME_FRAME_BASED) && cd->n >= 9)
		s = dec_tree_printf(t, "%s: %s %u: %ux%u", kind, name,
		    cd->p[3], get_le16(cd->p + 5), get_le16(cd->p + 7));
	else if (cd->p[1] == CS_INTERFACE && cd->subcls == SC_STREAMING &&
	    (cd->p[2] == VS_FORMAT_UNCOMPRESSED ||
	    cd->p[2] == VS_FORMAT_MJPEG ||
	    cd->p[2] == VS_FORMAT_FRAME_BASED) && cd->n >= 4)
		s = dec_tree_printf(t, "%s: %s %u", kind, name, cd->p[3]);
	else
		s = dec_tree_printf(t, "%s: %s", kind, name);
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
video_desc(const struct dec_cls_desc *cd, struct dec_tree *t)
{
	struct dec_cur	 c = { t, cd->p, cd->n, cd->off, 0 };
	size_t		 from = t->n;
	uint32_t	 st;
	size_t		 at = 3;

	/* cut before its subtype: the bytes, as any descriptor cut there */
	if (cd->n < 3)
		return 0;
	if (cd->p[1] == CS_ENDPOINT) {
		label(cd, t, "VC ENDPOINT descriptor", ep_subtypes);
		if (!dec_cur_field(&c, &f_ep_subtype, 2, 1, &st))
			return 1;
		if (st == 0x03) {
			dec_cur_field(&c, &f_ep_maxint, 3, 2, NULL);
			at = 5;
		}
	} else if (cd->p[1] == CS_INTERFACE && cd->subcls == SC_CONTROL) {
		label(cd, t, "VC INTERFACE descriptor", vc_subtypes);
		if (!dec_cur_field(&c, &f_vc_subtype, 2, 1, &st))
			return 1;
		if (st == VC_HEADER)
			at = vc_header(&c);
		else if (st == VC_INPUT_TERMINAL || st == VC_OUTPUT_TERMINAL)
			at = vc_terminal(&c, st);
		else
			at = vc_unit(&c, st);
	} else if (cd->p[1] == CS_INTERFACE && cd->subcls == SC_STREAMING) {
		label(cd, t, "VS INTERFACE descriptor", vs_subtypes);
		if (!dec_cur_field(&c, &f_vs_subtype, 2, 1, &st))
			return 1;
		switch (st) {
		case VS_INPUT_HEADER:
			at = vs_input_header(&c);
			break;
		case VS_FORMAT_UNCOMPRESSED:
		case VS_FORMAT_MJPEG:
		case VS_FORMAT_FRAME_BASED:
			at = vs_format(&c, st);
			break;
		case VS_FRAME_UNCOMPRESSED:
		case VS_FRAME_MJPEG:
		case VS_FRAME_FRAME_BASED:
			at = vs_frame(&c, st);
			break;
		case VS_COLORFORMAT:
			dec_cur_field(&c, &f_color_prim, 3, 1, NULL);
			dec_cur_field(&c, &f_color_xfer, 4, 1, NULL);
			dec_cur_field(&c, &f_color_mat, 5, 1, NULL);
			at = 6;
			break;
		}
	} else
		return 0;
	/* what tshark does not know of the descriptor */
	if (!c.cut && at < c.n)
		dec_cur_rest(&c, &f_data, at);
	unbad_cut(cd, t, from);
	return 1;
}

/* ------------------------------------------------------------------------
 * Class requests' data (UVC 1.5 4.2, 4.3): tshark's usbvideo fields.
 */
F(f_rq_sel, "Control Selector", "usbvideo.control.selector", DK_HEX, 1, NULL,
    0);
F(f_rq_intf, "Interface", "usbvideo.control.interface", DK_HEX, 1, NULL, 0);
F(f_rq_entity, "Entity", "usbvideo.control.entity", DK_HEX, 1, NULL, 0);
F(f_info_caps, "Info (Capabilities/State)", "usbvideo.control.info", DK_HEX,
    1, NULL, 0);
BIT1(f_ic0, "control.info", 0, "Supports GET");
BIT1(f_ic1, "control.info", 1, "Supports SET");
BIT1(f_ic2, "control.info", 2, "Disabled due to automatic mode");
BIT1(f_ic3, "control.info", 3, "Autoupdate");
BIT1(f_ic4, "control.info", 4, "Asynchronous");
BIT1(f_ic5, "control.info", 5,
    "Disabled due to incompatibility with Commit state");
F(f_ic6, "Reserved", "usbvideo.control.info.D6", DK_HEX, 1, NULL, 0xc0);
static const struct dec_field *const ic_bits[] = {
	&f_ic0, &f_ic1, &f_ic2, &f_ic3, &f_ic4, &f_ic5, &f_ic6, NULL
};
F(f_ctl_len, "Control Length", "usbvideo.control.len", DK_UINT, 2, NULL, 0);
F(f_val_def, "Default value", "usbvideo.control.value.default", DK_UINT, 4,
    NULL, 0);
F(f_val_min, "Minimum value", "usbvideo.control.value.min", DK_UINT, 4, NULL,
    0);
F(f_val_max, "Maximum value", "usbvideo.control.value.max", DK_UINT, 4, NULL,
    0);
F(f_val_res, "Resolution", "usbvideo.control.value.res", DK_UINT, 4, NULL,
    0);
F(f_val_cur, "Current value", "usbvideo.control.value.cur", DK_UINT, 4, NULL,
    0);
F(f_val_bytes, "Control value", "usbvideo.control_value", DK_BYTES, 0, NULL,
    0);
F(f_ctl_data, "Control data", "usbvideo.control_data", DK_BYTES, 0, NULL, 0);
F(f_val_data, "Value data", "usbvideo.value_data", DK_BYTES, 0, NULL, 0);
F(f_req_error, "bRequestErrorCode", "usbvideo.reqerror.code", DK_UINT, 1,
    request_errors, 0);

/* Probe and commit (4.3.1.1) */
F(f_pr_hint, "bmHint", "usbvideo.probe.hint", DK_HEX, 2, NULL, 0);
#define HINT(var, n, name)						\
	F(var, name, "usbvideo.probe.hint.D" #n, DK_BOOL, 2, NULL, 1u << n)
HINT(f_hint0, 0, "dwFrameInterval");
HINT(f_hint1, 1, "wKeyFrameRate");
HINT(f_hint2, 2, "wPFrameRate");
HINT(f_hint3, 3, "wCompQuality");
HINT(f_hint4, 4, "wCompWindowSize");
static const struct dec_field *const hint_bits[] = {
	&f_hint0, &f_hint1, &f_hint2, &f_hint3, &f_hint4, NULL
};
F(f_pr_keyrate, "wKeyFrameRate", "usbvideo.probe.keyFrameRate", DK_UINT, 2,
    NULL, 0);
F(f_pr_prate, "wPFrameRate", "usbvideo.probe.pFrameRate", DK_UINT, 2, NULL,
    0);
F(f_pr_quality, "wCompQuality", "usbvideo.probe.compQuality", DK_UINT, 2,
    NULL, 0);
F(f_pr_window, "wCompWindow", "usbvideo.probe.compWindow", DK_UINT, 2, NULL,
    0);
F(f_pr_delay, "wDelay", "usbvideo.probe.delay", DK_UINT, 2, NULL, 0);
F(f_pr_maxframe, "dwMaxVideoFrameSize", "usbvideo.probe.maxVideoFrameSize",
    DK_UINT, 4, NULL, 0);
F(f_pr_maxpayload, "dwMaxPayloadTransferSize",
    "usbvideo.probe.maxPayloadTransferSize", DK_UINT, 4, NULL, 0);
F(f_pr_framing, "bmFramingInfo", "usbvideo.probe.framing", DK_HEX, 1, NULL,
    0);
F(f_pr_fr0, "Frame ID required", "usbvideo.probe.framing.D0", DK_BOOL, 1,
    NULL, 0x01);
F(f_pr_fr1, "EOF utilized", "usbvideo.probe.framing.D1", DK_BOOL, 1, NULL,
    0x02);
static const struct dec_field *const framing_bits[] = {
	&f_pr_fr0, &f_pr_fr1, NULL
};
F(f_pr_pref, "bPreferredVersion", "usbvideo.probe.preferredVersion", DK_UINT,
    1, NULL, 0);
F(f_pr_minver, "bMinVersion", "usbvideo.probe.minVersion", DK_UINT, 1, NULL,
    0);
F(f_pr_maxver, "bMaxVersion", "usbvideo.probe.maxVer", DK_UINT, 1, NULL, 0);

/* Status interrupts (2.4.2.2) */
F(f_st_type, "Status Type", "usbvideo.interrupt.statusType", DK_HEX, 1,
    status_types, 0x0f);
F(f_st_orig, "Originator", "usbvideo.interrupt.originator", DK_UINT, 1, NULL,
    0);
F(f_st_event, "Event", "usbvideo.interrupt.controlEvent", DK_HEX, 1,
    control_events, 0);
F(f_st_attr, "Change Type", "usbvideo.interrupt.attribute", DK_HEX, 1,
    change_types, 0);

/* The probe and commit control, 26 bytes (UVC 1.0) or more: tshark reads
 * the UVC 1.1 fields when anything follows the first 26. */
static size_t
probe_tree(struct dec_cur *c)
{
	dec_tree_push(c->t, "Probe/Commit Info", DB_DATA, c->base,
	    (uint32_t)c->n);
	dec_cur_word(c, &f_pr_hint, hint_bits, 0, 2, NULL);
	dec_cur_field(c, &f_fmt_index, 2, 1, NULL);
	dec_cur_field(c, &f_frm_index, 3, 1, NULL);
	dec_cur_field(c, &f_frm_interval, 4, 4, NULL);
	dec_cur_field(c, &f_pr_keyrate, 8, 2, NULL);
	dec_cur_field(c, &f_pr_prate, 10, 2, NULL);
	dec_cur_field(c, &f_pr_quality, 12, 2, NULL);
	dec_cur_field(c, &f_pr_window, 14, 2, NULL);
	dec_cur_field(c, &f_pr_delay, 16, 2, NULL);
	dec_cur_field(c, &f_pr_maxframe, 18, 4, NULL);
	dec_cur_field(c, &f_pr_maxpayload, 22, 4, NULL);
	if (c->cut || c->n <= 26) {
		dec_tree_pop(c->t);
		return 26;
	}
	dec_cur_field(c, &f_clock, 26, 4, NULL);
	dec_cur_word(c, &f_pr_framing, framing_bits, 30, 1, NULL);
	dec_cur_field(c, &f_pr_pref, 31, 1, NULL);
	dec_cur_field(c, &f_pr_minver, 32, 1, NULL);
	dec_cur_field(c, &f_pr_maxver, 33, 1, NULL);
	dec_tree_pop(c->t);
	return 34;
}

/* A control's value, all the bytes from off: a number up to 4 bytes. */
static void
value_tree(struct dec_cur *c, size_t off, const struct dec_field *f)
{
	if (f != NULL && c->n - off <= 4)
		dec_cur_field(c, f, off, c->n - off, NULL);
	else
		dec_cur_rest(c, &f_val_bytes, off);
}

/* The value field of a request or a status's attribute, or NULL. */
static const struct dec_field *
value_field(uint8_t req)
{
	switch (req) {
	case UVC_GET_DEF:
		return &f_val_def;
	case UVC_GET_MIN:
		return &f_val_min;
	case UVC_GET_MAX:
		return &f_val_max;
	case UVC_GET_RES:
		return &f_val_res;
	case UVC_GET_CUR:
	case UVC_SET_CUR:
		return &f_val_cur;
	default:
		return NULL;
	}
}

/* Does tshark's usbvideo take this request (packet-usb-video.c's
 * setup_dissectors)? */
static int
video_request(uint8_t req)
{
	switch (req) {
	case 0x01: case 0x11: case 0x81: case 0x82: case 0x83: case 0x84:
	case 0x85: case 0x86: case 0x87: case 0x91: case 0x92: case 0x93:
	case 0x94:
		return 1;
	default:
		return 0;
	}
}

static int
video_ctrl_tree(const struct dec_cls_arg *a, struct dec_tree *t)
{
	const struct urb_rec *r = a->r;
	const struct dec_setup *s = &a->info->setup;
	struct dec_cur	 c = { t, r->data, r->data_len, 0, 0 };
	uint8_t		 entity = s->wIndex >> 8, sel = s->wValue >> 8;
	size_t		 at = 0;

	if (!(a->info->flags & DI_SETUP) || SETUP_TYPE(s) != 1 ||
	    SETUP_RECIP(s) != 1 || !video_request(s->bRequest))
		return 0;
	if (r->type == 'C') {
		/* generated: what the response answers */
		dec_tree_add(t, &f_rq_intf, DB_NONE, 0, 0, s->wIndex & 0xff);
		dec_tree_add(t, &f_rq_entity, DB_NONE, 0, 0, entity);
		dec_tree_add(t, &f_rq_sel, DB_NONE, 0, 0, sel);
	} else if (s->bRequest != UVC_SET_CUR)
		return r->data_len > 0 ? 0 : 1;
	if (r->data_len == 0 || (r->type == 'C' && r->status != 0))
		return 1;
	/* an OUT request's data is the transfer's fragment to tshark too */
	if (r->type == 'S')
		dec_tree_fragment(r, t);
	if (entity == 0 && a->info->subcls == SC_STREAMING) {
		if (sel == VS_PROBE_CONTROL || sel == VS_COMMIT_CONTROL)
			at = probe_tree(&c);
	} else if (s->bRequest == UVC_GET_INFO) {
		dec_cur_word(&c, &f_info_caps, ic_bits, 0, 1, NULL);
		at = 1;
	} else if (s->bRequest == UVC_GET_LEN) {
		dec_cur_field(&c, &f_ctl_len, 0, 2, NULL);
		at = 2;
	} else if (s->bRequest == UVC_GET_CUR && entity == 0 &&
	    a->info->subcls == SC_CONTROL &&
	    sel == VC_REQUEST_ERROR_CODE_CONTROL) {
		dec_cur_field(&c, &f_req_error, 0, 1, NULL);
		at = 1;
	} else {
		value_tree(&c, 0, value_field(s->bRequest));
		at = c.n;
	}
	if (!c.cut && at < c.n)
		dec_cur_rest(&c, &f_ctl_data, at);
	return 1;
}

/* A status packet on the VC interrupt endpoint (2.4.2.2). */
static int
video_status_tree(const struct dec_cls_arg *a, struct dec_tree *t)
{
	const struct urb_rec *r = a->r;
	struct dec_cur	 c = { t, r->data, r->data_len, 0, 0 };
	uint32_t	 type, attr;

	if (r->type != 'C' || r->data_len == 0 || r->status != 0)
		return 0;
	type = r->data[0];
	dec_tree_add(t, &f_st_type, DB_DATA, 0, 1, type & 0x0f);
	dec_cur_field(&c, &f_st_orig, 1, 1, NULL);
	if ((type & 0x0f) != 1)
		return 1;
	dec_cur_field(&c, &f_st_event, 2, 1, NULL);
	dec_cur_field(&c, &f_rq_sel, 3, 1, NULL);
	if (!dec_cur_field(&c, &f_st_attr, 4, 1, &attr))
		return 1;
	switch (attr) {
	case 2:
		dec_cur_field(&c, &f_req_error, 5, 1, NULL);
		break;
	case 1:
		dec_cur_word(&c, &f_info_caps, ic_bits, 5, 1, NULL);
		break;
	case 0:
	case 3:
	case 4:
		if (c.n > 5)
			value_tree(&c, 5, attr == 0 ? &f_val_cur : attr == 3 ?
			    &f_val_min : &f_val_max);
		break;
	default:
		dec_cur_rest(&c, &f_val_data, 5);
		break;
	}
	return 1;
}

/* ------------------------------------------------------------------------
 * Payload headers (2.4.3.3): every isochronous packet, or bulk transfer,
 * of a video streaming interface starts with one.
 */
F(f_ph_len, "bHeaderLength", "usbvideo.payload.bHeaderLength", DK_UINT, 1,
    NULL, 0);
F(f_ph_info, "bmHeaderInfo", "usbvideo.payload.bmHeaderInfo", DK_HEX, 1,
    NULL, 0);
#define PH(var, abbrev, name, mask)					\
	F(var, name, "usbvideo.payload.bmHeaderInfo." abbrev, DK_BOOL, 1,	\
	    NULL, mask)
PH(f_ph_fid, "fid", "Frame ID", 0x01);
PH(f_ph_eof, "eof", "End of Frame", 0x02);
PH(f_ph_pts, "pts", "Presentation Time", 0x04);
PH(f_ph_scr, "scr", "Source Clock Reference", 0x08);
PH(f_ph_res, "res", "Payload specific", 0x10);
PH(f_ph_sti, "sti", "Still Image", 0x20);
PH(f_ph_err, "err", "Error", 0x40);
PH(f_ph_eoh, "eoh", "End of Header", 0x80);
static const struct dec_field *const ph_bits[] = {
	&f_ph_fid, &f_ph_eof, &f_ph_pts, &f_ph_scr, &f_ph_res, &f_ph_sti,
	&f_ph_err, &f_ph_eoh, NULL
};
F(f_ph_pts_v, "dwPresentationTime", "usbvideo.payload.dwPresentationTime",
    DK_UINT, 4, NULL, 0);
F(f_ph_stc, "SCR source time clock", "usbvideo.payload.scr.stc", DK_UINT, 4,
    NULL, 0);
F(f_ph_sof, "SCR 1 kHz SOF counter", "usbvideo.payload.scr.sof", DK_UINT, 2,
    NULL, 0x07ff);
F(f_ph_data, "Payload data length", "usbvideo.payload.data_len", DK_UINT, 4,
    NULL, 0);

/* One payload, p[0..n) at off of the record's data, ISO packet k (-1:
 * a bulk transfer); 1 if it has a header. */
static int
payload_tree(const uint8_t *p, uint32_t n, uint32_t off, int k,
    struct dec_tree *t)
{
	const char	*s;
	struct dec_cur	 c = { t, p, n, off, 0 };
	uint32_t	 hl, info;
	size_t		 at = 2;

	if (n < 2 || p[0] < 2 || p[0] > n)
		return 0;
	hl = p[0];
	info = p[1];
	c.n = hl;
	s = k < 0 ? NULL : dec_tree_printf(t, "UVC Payload Header (ISO "
	    "packet %d)", k);
	dec_tree_push(t, s != NULL ? s : "UVC Payload Header", DB_DATA, off,
	    hl);
	dec_cur_field(&c, &f_ph_len, 0, 1, NULL);
	dec_cur_word(&c, &f_ph_info, ph_bits, 1, 1, NULL);
	if (info & 0x04) {
		dec_cur_field(&c, &f_ph_pts_v, at, 4, NULL);
		at += 4;
	}
	if (info & 0x08) {
		dec_cur_field(&c, &f_ph_stc, at, 4, NULL);
		if (!c.cut && at + 6 <= c.n)
			dec_tree_add(t, &f_ph_sof, DB_DATA, off + (uint32_t)at +
			    4, 2, get_le16(p + at + 4) & 0x07ff);
		else
			dec_cur_field(&c, &f_ph_sof, at + 4, 2, NULL);
		at += 6;
	}
	dec_tree_add(t, &f_ph_data, DB_DATA, off + hl, n - hl, n - hl);
	dec_tree_pop(t);
	return 1;
}

/* The payloads of a VS record: its ISO packets, or the bulk transfer. */
static int
stream_tree(const struct dec_cls_arg *a, struct dec_tree *t)
{
	const struct urb_rec *r = a->r;
	const struct urb_iso *iso;
	uint32_t	 i;

	if (r->data_len == 0 || r->status != 0 ||
	    (urb_is_in(r) ? r->type != 'C' : r->type != 'S'))
		return 0;
	if (r->xfer_type == XFER_BULK) {
		dec_tree_leftover(r, t);
		t->depth++;
		payload_tree(r->data, r->data_len, 0, -1, t);
		t->depth--;
		return 1;
	}
	/* the packets' bytes are usb.iso.data, in their descriptors */
	dec_tree_push(t, "UVC payloads", DB_NONE, 0, 0);
	for (i = 0; r->xfer_type == XFER_ISO && i < r->niso; i++) {
		iso = &r->iso[i];
		if (iso->status != 0 || iso->off >= r->data_len ||
		    iso->len > r->data_len - iso->off)
			continue;
		payload_tree(r->data + iso->off, iso->len, iso->off, (int)i,
		    t);
	}
	dec_tree_pop(t);
	return 1;
}

static int
video_tree(const struct dec_cls_arg *a, struct dec_tree *t)
{
	switch (a->r->xfer_type) {
	case XFER_CTRL:
		return video_ctrl_tree(a, t);
	case XFER_INT:
		if (a->info->subcls == SC_CONTROL && urb_is_in(a->r))
			return video_status_tree(a, t);
		return 0;
	default:
		if (a->info->subcls == SC_STREAMING)
			return stream_tree(a, t);
		return 0;
	}
}

/* ------------------------------------------------------------------------
 * Summaries.
 */

/* "probe: format 1 frame 2, 30.00 fps, frame 614400 B, payload 3072 B" */
static void
probe_summary(const uint8_t *p, uint32_t n, uint8_t sel, struct sbuf *b)
{
	uint32_t	 iv;

	sb_puts(b, sel == VS_PROBE_CONTROL ? "probe:" : "commit:");
	if (n < 8)
		return;
	sb_printf(b, " format %u frame %u", p[2], p[3]);
	iv = get_le32(p + 4);
	if (iv != 0)
		sb_printf(b, ", %u.%02u fps", 10000000 / iv,
		    (uint32_t)(1000000000ULL / iv % 100));
	if (n >= 26)
		sb_printf(b, ", max frame %u B, max payload %u B",
		    get_le32(p + 18), get_le32(p + 22));
}

/*
 * The name of the control a request addresses (tshark's Info column): by
 * the entity (wIndex 15:8) as the VC interface's descriptors define it,
 * or the interface's own controls; NULL when not known.
 */
static const char *
control_name(const struct dec_cls_arg *a, uint8_t intf, uint8_t id,
    uint8_t sel)
{
	const struct dec_name *names = NULL;
	const uint8_t	*cfg = a->info->cfg;
	struct dec_dref	 r;
	size_t		 len = a->info->cfg_len, off = 0;
	int		 in_vc = 0;

	if (id == 0)
		names = a->info->subcls == SC_STREAMING ? vs_controls :
		    a->info->subcls == SC_CONTROL ? vc_controls : NULL;
	else if (cfg != NULL) {
		while (names == NULL && dec_desc_next(cfg, len, &off, &r)) {
			if (r.type == USB_DT_INTERFACE && r.len >= 7)
				in_vc = r.p[2] == intf &&
				    r.p[5] == 0x0e && r.p[6] == SC_CONTROL;
			else if (!in_vc || r.type != CS_INTERFACE ||
			    r.len < 4 || r.p[3] != id)
				continue;
			else if (r.p[2] == VC_INPUT_TERMINAL && r.len >= 6 &&
			    get_le16(r.p + 4) == ITT_CAMERA)
				names = ct_controls;
			else if (r.p[2] == VC_PROCESSING_UNIT)
				names = pu_controls;
			else if (r.p[2] == VC_SELECTOR_UNIT)
				names = su_controls;
			else if (r.p[2] >= VC_INPUT_TERMINAL)
				break;
		}
	}
	return names != NULL ? dec_name_find(names, sel) : NULL;
}

static int
video_ctrl_summary(const struct dec_cls_arg *a, struct sbuf *b)
{
	const struct urb_rec *r = a->r;
	const struct dec_setup *s = &a->info->setup;
	const uint8_t	*p = r->data;
	uint8_t		 entity = s->wIndex >> 8, sel = s->wValue >> 8;
	const char	*name;
	uint32_t	 v, i;

	if (!(a->info->flags & DI_SETUP) || SETUP_TYPE(s) != 1 ||
	    SETUP_RECIP(s) != 1 || r->data_len == 0 ||
	    (r->type == 'S') == SETUP_DIR_IN(s))
		return 0;
	if ((name = control_name(a, s->wIndex & 0xff, entity, sel)) != NULL &&
	    !(entity == 0 && a->info->subcls == SC_STREAMING &&
	    (sel == VS_PROBE_CONTROL || sel == VS_COMMIT_CONTROL)) &&
	    !(entity == 0 && sel == VC_REQUEST_ERROR_CODE_CONTROL)) {
		sb_puts(b, name);
		sb_puts(b, ": ");
	}
	if (entity == 0 && a->info->subcls == SC_STREAMING &&
	    (sel == VS_PROBE_CONTROL || sel == VS_COMMIT_CONTROL)) {
		probe_summary(p, r->data_len, sel, b);
		return 1;
	}
	if (s->bRequest == UVC_GET_INFO) {
		sb_printf(b, "info 0x%02x:", p[0]);
		if (p[0] & 0x01)
			sb_puts(b, " GET");
		if (p[0] & 0x02)
			sb_puts(b, " SET");
		if (p[0] & 0x04)
			sb_puts(b, " auto-disabled");
		if (p[0] & 0x08)
			sb_puts(b, " autoupdate");
		if (p[0] & 0x10)
			sb_puts(b, " async");
		return 1;
	}
	if (s->bRequest == UVC_GET_LEN && r->data_len >= 2) {
		sb_printf(b, "length %u", get_le16(p));
		return 1;
	}
	if (s->bRequest == UVC_GET_CUR && entity == 0 &&
	    a->info->subcls == SC_CONTROL &&
	    sel == VC_REQUEST_ERROR_CODE_CONTROL) {
		name = dec_name_find(request_errors, p[0]);
		sb_printf(b, "request error: %s", name != NULL ? name :
		    "reserved");
		return 1;
	}
	if (r->data_len > 4)
		return 0;
	for (v = 0, i = r->data_len; i > 0; i--)
		v = v << 8 | p[i - 1];
	sb_printf(b, "value %u", v);
	return 1;
}

static int
stream_summary(const struct dec_cls_arg *a, struct sbuf *b)
{
	const struct urb_rec *r = a->r;
	const uint8_t	*p;
	uint32_t	 i, n = 0, bytes = 0, flags = 0, fid = 0, len;

	if (r->status != 0 || (urb_is_in(r) ? r->type != 'C' : r->type != 'S'))
		return 0;
	for (i = 0; i < (r->xfer_type == XFER_BULK ? 1 : r->niso); i++) {
		if (r->xfer_type == XFER_BULK) {
			p = r->data;
			len = r->data_len;
		} else {
			if (r->iso[i].status != 0 ||
			    r->iso[i].off >= r->data_len ||
			    r->iso[i].len > r->data_len - r->iso[i].off)
				continue;
			p = r->data + r->iso[i].off;
			len = r->iso[i].len;
		}
		if (len < 2 || p[0] < 2 || p[0] > len)
			continue;
		if (n++ == 0)
			fid = p[1] & 0x01;
		bytes += len - p[0];
		flags |= p[1];
	}
	if (n == 0)
		return 0;
	sb_printf(b, "UVC %u payload%s, %u bytes of video, FID %u", n,
	    n == 1 ? "" : "s", bytes, fid);
	if (flags & 0x02)
		sb_puts(b, ", end of frame");
	if (flags & 0x20)
		sb_puts(b, ", still image");
	if (flags & 0x40)
		sb_puts(b, ", error");
	return 1;
}

static int
video_summary(const struct dec_cls_arg *a, struct sbuf *b)
{
	const struct urb_rec *r = a->r;
	const char	*s;
	char		 tmp[24];

	switch (r->xfer_type) {
	case XFER_CTRL:
		return video_ctrl_summary(a, b);
	case XFER_INT:
		if (a->info->subcls != SC_CONTROL || !urb_is_in(r) ||
		    r->type != 'C' || r->data_len < 2)
			return 0;
		s = dec_name_find(status_types, r->data[0] & 0x0f);
		sb_printf(b, "status from %s, entity %u", s != NULL ? s :
		    dec_name_or(status_types, r->data[0] & 0x0f, tmp),
		    r->data[1]);
		if ((r->data[0] & 0x0f) == 1 && r->data_len >= 5) {
			s = control_name(a, (uint8_t)a->info->intf, r->data[1],
			    r->data[3]);
			if (s != NULL)
				sb_printf(b, ": %s", s);
			else
				sb_printf(b, ": control 0x%02x", r->data[3]);
			sb_printf(b, " %s change",
			    dec_name_or(change_types, r->data[4], tmp));
			if (r->data[4] == 0 && r->data_len >= 6 &&
			    r->data_len <= 9) {
				sb_puts(b, " to ");
				sb_u64(b, r->data_len == 6 ? r->data[5] :
				    r->data_len == 7 ? get_le16(r->data + 5) :
				    r->data_len == 8 ? get_le16(r->data + 5) |
				    (uint32_t)r->data[7] << 16 :
				    get_le32(r->data + 5));
			}
		}
		else if ((r->data[0] & 0x0f) == 2 && r->data_len >= 4 &&
		    r->data[2] == 0)
			sb_printf(b, ": button %s", r->data[3] ? "pressed" :
			    "released");
		return 1;
	default:
		if (a->info->subcls == SC_STREAMING && r->data_len > 0)
			return stream_summary(a, b);
		return 0;
	}
}

/* Video (UVC 1.5 A.1-A.3: class 0x0e, any subclass and protocol). */
const struct dec_class_ops dec_class_video = {
	.name = "video",
	.wsproto = "usbvideo",
	.cls = 0x0e, .subcls = DEC_CLS_ANY, .proto = DEC_CLS_ANY,
	.summary = video_summary,
	.tree = video_tree,
	.tree_empty = 1,
	.desc = video_desc,
	.needs_cfg = 1,
	.item = dec_cls_no_item,
};
