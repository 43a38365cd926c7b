/*
 * decode/dec-desc.c - descriptors as a tree and as a one-line summary:
 * the standard ones of USB 2.0 9.6 and USB 3.2 9.6 (device, configuration
 * with its whole hierarchy, string, interface, endpoint, qualifier,
 * interface association, BOS and its device capabilities, SuperSpeed
 * endpoint companion), the HID class descriptor (HID 1.11 6.2.1) and the
 * hub descriptors (USB 2.0 11.23.2.1, USB 3.2 10.15.2.1).  Other class or
 * unknown descriptors show as type, length and bytes.
 *
 * Decoders are dispatched from a table keyed by bDescriptorType.  Every
 * read is bounded by both the data and the descriptor's bLength; length
 * problems become DN_BAD nodes with a note, data that ends inside a
 * descriptor DN_CUT.  Fields carry Wireshark 4.0's names where tshark shows
 * the same field in the same place (it decodes neither BOS nor hub
 * descriptors, so those have none).
 */
#include <stdarg.h>
#include <stdio.h>

#include "class.h"

#ifndef nitems
#endif

/* ------------------------------------------------------------------------
 * Value names.
 */

static const struct dec_name usb_xfer_types[] = {	/* USB 2.0 table 9-13 */
	{ 0, "Control" },
	{ 1, "Isochronous" },
	{ 2, "Bulk" },
	{ 3, "Interrupt" },
	{ 0, NULL }
};

static const struct dec_name iso_sync_types[] = {
	{ 0, "No Synchronization" },
	{ 1, "Asynchronous" },
	{ 2, "Adaptive" },
	{ 3, "Synchronous" },
	{ 0, NULL }
};

static const struct dec_name iso_usage_types[] = {
	{ 0, "Data" },
	{ 1, "Feedback" },
	{ 2, "Implicit feedback Data" },
	{ 3, "Reserved" },
	{ 0, NULL }
};

static const struct dec_name mps_transactions[] = {	/* bits 12:11 */
	{ 0, "1 per microframe" },
	{ 1, "2 per microframe" },
	{ 2, "3 per microframe" },
	{ 3, "Reserved" },
	{ 0, NULL }
};

static const struct dec_name ep_directions[] = {
	{ 0, "OUT" },
	{ 1, "IN" },
	{ 0, NULL }
};

static const struct dec_name hid_subclasses[] = {	/* HID 1.11 4.2 */
	{ 0, "No Subclass" },
	{ 1, "Boot Interface" },
	{ 0, NULL }
};

static const struct dec_name hid_protocols[] = {	/* HID 1.11 4.3 */
	{ 0, "None" },
	{ 1, "Keyboard" },
	{ 2, "Mouse" },
	{ 0, NULL }
};

/* USB Mass Storage Class Overview 1.4, tables 1 and 2. */
static const struct dec_name msc_subclasses[] = {
	{ 0x00, "SCSI not reported" },
	{ 0x01, "RBC" },
	{ 0x02, "MMC-5 (ATAPI)" },
	{ 0x04, "UFI" },
	{ 0x06, "SCSI transparent" },
	{ 0x07, "LSD FS" },
	{ 0x08, "IEEE 1667" },
	{ 0xff, "Vendor Specific" },
	{ 0, NULL }
};

static const struct dec_name msc_protocols[] = {
	{ 0x00, "CBI with completion interrupt" },
	{ 0x01, "CBI without completion interrupt" },
	{ 0x50, "Bulk-Only" },
	{ 0x62, "UAS" },
	{ 0xff, "Vendor Specific" },
	{ 0, NULL }
};

/* Wireless controllers (usb.org Defined Class Codes, base class E0h, as
 * usb.ids and lsusb name them; Bluetooth Core Vol 4 Part B 2.1). */
static const struct dec_name wireless_subclasses[] = {
	{ 0x01, "Radio Frequency" },
	{ 0x02, "Wireless USB Wire Adapter" },
	{ 0, NULL }
};

static const struct dec_name wireless_protocols[] = {
	{ 0x01, "Bluetooth" },
	{ 0x02, "Ultra WideBand Radio Control" },
	{ 0x03, "RNDIS" },
	{ 0x04, "Bluetooth AMP Controller" },
	{ 0, NULL }
};

static const struct dec_name hub_protocols[] = {	/* USB 2.0 11.23.1 */
	{ 0, "Full speed hub" },
	{ 1, "Hi-speed hub, single TT" },
	{ 2, "Hi-speed hub, multiple TTs" },
	{ 3, "SuperSpeed hub" },
	{ 0, NULL }
};

static const struct dec_name hid_countries[] = {	/* HID 1.11 6.2.1 */
	{ 0, "Not Supported" },
	{ 1, "Arabic" },
	{ 2, "Belgian" },
	{ 3, "Canadian-Bilingual" },
	{ 4, "Canadian-French" },
	{ 5, "Czech Republic" },
	{ 6, "Danish" },
	{ 7, "Finnish" },
	{ 8, "French" },
	{ 9, "German" },
	{ 10, "Greek" },
	{ 11, "Hebrew" },
	{ 12, "Hungary" },
	{ 13, "International (ISO)" },
	{ 14, "Italian" },
	{ 15, "Japan (Katakana)" },
	{ 16, "Korean" },
	{ 17, "Latin American" },
	{ 18, "Netherlands/Dutch" },
	{ 19, "Norwegian" },
	{ 20, "Persian (Farsi)" },
	{ 21, "Poland" },
	{ 22, "Portuguese" },
	{ 23, "Russia" },
	{ 24, "Slovakia" },
	{ 25, "Spanish" },
	{ 26, "Swedish" },
	{ 27, "Swiss/French" },
	{ 28, "Swiss/German" },
	{ 29, "Switzerland" },
	{ 30, "Taiwan" },
	{ 31, "Turkish-Q" },
	{ 32, "UK" },
	{ 33, "US" },
	{ 34, "Yugoslavia" },
	{ 35, "Turkish-F" },
	{ 0, NULL }
};

static const struct dec_name devcap_types[] = {	/* USB 3.2 table 9-14 */
	{ 0x01, "Wireless USB" },
	{ 0x02, "USB 2.0 Extension" },
	{ 0x03, "SuperSpeed USB" },
	{ 0x04, "Container ID" },
	{ 0x05, "Platform" },
	{ 0x06, "Power Delivery" },
	{ 0x07, "Battery Info" },
	{ 0x08, "PD Consumer Port" },
	{ 0x09, "PD Provider Port" },
	{ 0x0a, "SuperSpeed Plus" },
	{ 0x0b, "Precision Time Measurement" },
	{ 0x0c, "Wireless USB Ext" },
	{ 0x0d, "Billboard" },
	{ 0x0e, "Authentication" },
	{ 0x0f, "Billboard Ex" },
	{ 0x10, "Configuration Summary" },
	{ 0x11, "FWStatus" },
	{ 0, NULL }
};

static const struct dec_name ss_speeds[] = {	/* USB 3.2 table 9-15 */
	{ 0, "Low Speed" },
	{ 1, "Full Speed" },
	{ 2, "High Speed" },
	{ 3, "5 Gbps" },
	{ 0, NULL }
};

static const struct dec_name hub_power_modes[] = {	/* USB 2.0 t. 11-13 */
	{ 0, "Ganged" },
	{ 1, "Individual port" },
	{ 2, "None (USB 1.0)" },
	{ 3, "None (USB 1.0)" },
	{ 0, NULL }
};

static const struct dec_name hub_oc_modes[] = {
	{ 0, "Global" },
	{ 1, "Individual port" },
	{ 2, "None" },
	{ 3, "None" },
	{ 0, NULL }
};

static const struct dec_name hub_tt_times[] = {
	{ 0, "8 FS bit times" },
	{ 1, "16 FS bit times" },
	{ 2, "24 FS bit times" },
	{ 3, "32 FS bit times" },
	{ 0, NULL }
};

static const struct dec_name ssp_exponents[] = {	/* USB 3.2 t. 9-19 */
	{ 0, "b/s" },
	{ 1, "Kb/s" },
	{ 2, "Mb/s" },
	{ 3, "Gb/s" },
	{ 0, NULL }
};

static const struct dec_name ssp_link_protocols[] = {
	{ 0, "SuperSpeed" },
	{ 1, "SuperSpeedPlus" },
	{ 0, NULL }
};

/* ------------------------------------------------------------------------
 * Fields.  Width is the number of bytes read and shown.
 */

#define F DEC_FIELD

/* Header: Wireshark names (ws) and none (for what tshark leaves raw). */
F(f_len, "bLength", "usb.bLength", DK_UINT, 1, NULL, 0);
F(f_type, "bDescriptorType", "usb.bDescriptorType", DK_HEX, 1,
    dec_desc_types, 0);
F(f_len_x, "bLength", NULL, DK_UINT, 1, NULL, 0);
F(f_type_x, "bDescriptorType", NULL, DK_HEX, 1, dec_desc_types, 0);
F(f_data, "data", NULL, DK_BYTES, 0, NULL, 0);
F(f_extra, "extra bytes", NULL, DK_BYTES, 0, NULL, 0);
F(f_trailing, "trailing bytes", NULL, DK_BYTES, 0, NULL, 0);

/* Device and device qualifier (USB 2.0 tables 9-8, 9-9). */
F(f_bcdusb, "bcdUSB", "usb.bcdUSB", DK_BCD, 2, NULL, 0);
F(f_dclass, "bDeviceClass", "usb.bDeviceClass", DK_HEX, 1, dec_classes, 0);
F(f_dsubclass, "bDeviceSubClass", "usb.bDeviceSubClass", DK_UINT, 1, NULL,
    0);
F(f_dproto, "bDeviceProtocol", "usb.bDeviceProtocol", DK_UINT, 1, NULL, 0);
F(f_mps0, "bMaxPacketSize0", "usb.bMaxPacketSize0", DK_UINT, 1, NULL, 0);
F(f_vendor, "idVendor", "usb.idVendor", DK_HEX, 2, NULL, 0);
F(f_product, "idProduct", "usb.idProduct", DK_HEX, 2, NULL, 0);
F(f_bcddev, "bcdDevice", "usb.bcdDevice", DK_BCD, 2, NULL, 0);
F(f_imanuf, "iManufacturer", "usb.iManufacturer", DK_UINT, 1, NULL, 0);
F(f_iproduct, "iProduct", "usb.iProduct", DK_UINT, 1, NULL, 0);
F(f_iserial, "iSerialNumber", "usb.iSerialNumber", DK_UINT, 1, NULL, 0);
F(f_nconfigs, "bNumConfigurations", "usb.bNumConfigurations", DK_UINT, 1,
    NULL, 0);
F(f_reserved, "bReserved", NULL, DK_HEX, 1, NULL, 0);

/* Configuration (USB 2.0 table 9-10). */
F(f_total, "wTotalLength", "usb.wTotalLength", DK_UINT, 2, NULL, 0);
F(f_nintfs, "bNumInterfaces", "usb.bNumInterfaces", DK_UINT, 1, NULL, 0);
F(f_cfgval, "bConfigurationValue", "usb.bConfigurationValue", DK_UINT, 1,
    NULL, 0);
F(f_icfg, "iConfiguration", "usb.iConfiguration", DK_UINT, 1, NULL, 0);
F(f_cattr, "bmAttributes", "usb.configuration.bmAttributes", DK_HEX, 1,
    NULL, 0);
F(f_cattr_one, "Must be 1", "usb.configuration.legacy10buspowered",
    DK_BOOL, 1, NULL, 0x80);
F(f_cattr_self, "Self-Powered", "usb.configuration.selfpowered", DK_BOOL,
    1, NULL, 0x40);
F(f_cattr_wake, "Remote Wakeup", "usb.configuration.remotewakeup",
    DK_BOOL, 1, NULL, 0x20);
F(f_maxpower, "bMaxPower", "usb.bMaxPower", DK_UINT, 1, NULL, 0);
F(f_maxpower_ma, "Max power (mA, 2 mA units)", NULL, DK_UINT, 2, NULL, 0);

/* Interface (USB 2.0 table 9-12), per class for the value names. */
F(f_inum, "bInterfaceNumber", "usb.bInterfaceNumber", DK_UINT, 1, NULL, 0);
F(f_ialt, "bAlternateSetting", "usb.bAlternateSetting", DK_UINT, 1, NULL,
    0);
F(f_ineps, "bNumEndpoints", "usb.bNumEndpoints", DK_UINT, 1, NULL, 0);
F(f_iclass, "bInterfaceClass", "usb.bInterfaceClass", DK_HEX, 1,
    dec_classes, 0);
F(f_isub, "bInterfaceSubClass", "usb.bInterfaceSubClass", DK_HEX, 1, NULL,
    0);
F(f_iproto, "bInterfaceProtocol", "usb.bInterfaceProtocol", DK_HEX, 1,
    NULL, 0);
F(f_isub_hid, "bInterfaceSubClass", "usb.bInterfaceSubClass", DK_HEX, 1,
    hid_subclasses, 0);
F(f_iproto_hid, "bInterfaceProtocol", "usb.bInterfaceProtocol", DK_HEX, 1,
    hid_protocols, 0);
F(f_isub_msc, "bInterfaceSubClass", "usb.bInterfaceSubClass", DK_HEX, 1,
    msc_subclasses, 0);
F(f_iproto_msc, "bInterfaceProtocol", "usb.bInterfaceProtocol", DK_HEX, 1,
    msc_protocols, 0);
F(f_isub_wl, "bInterfaceSubClass", "usb.bInterfaceSubClass", DK_HEX, 1,
    wireless_subclasses, 0);
F(f_iproto_wl, "bInterfaceProtocol", "usb.bInterfaceProtocol", DK_HEX, 1,
    wireless_protocols, 0);
F(f_iproto_hub, "bInterfaceProtocol", "usb.bInterfaceProtocol", DK_HEX, 1,
    hub_protocols, 0);
F(f_iintf, "iInterface", "usb.iInterface", DK_UINT, 1, NULL, 0);

/* Endpoint (USB 2.0 table 9-13). */
F(f_epaddr, "bEndpointAddress", "usb.bEndpointAddress", DK_HEX, 1, NULL, 0);
F(f_epdir, "Direction", "usb.bEndpointAddress.direction", DK_UINT, 1,
    ep_directions, 0x80);
F(f_epnum, "Endpoint Number", "usb.bEndpointAddress.number", DK_HEX, 1,
    NULL, 0x0f);
F(f_epattr, "bmAttributes", "usb.bmAttributes", DK_HEX, 1, NULL, 0);
F(f_epxfer, "Transfer type", "usb.bmAttributes.transfer", DK_HEX, 1,
    usb_xfer_types, 0x03);
F(f_epsync, "Synchronisation type", "usb.bmAttributes.sync", DK_HEX, 1,
    iso_sync_types, 0x0c);
F(f_epusage, "Usage type", "usb.bmAttributes.behaviour", DK_HEX, 1,
    iso_usage_types, 0x30);
F(f_mps, "wMaxPacketSize", "usb.wMaxPacketSize", DK_UINT, 2, NULL, 0);
F(f_mps_slots, "Transactions per microframe", "usb.wMaxPacketSize.slots",
    DK_UINT, 2, mps_transactions, 0x1800);
F(f_mps_size, "Maximum Packet Size", "usb.wMaxPacketSize.size", DK_UINT, 2,
    NULL, 0x07ff);
F(f_interval, "bInterval", "usb.bInterval", DK_UINT, 1, NULL, 0);
F(f_refresh, "bRefresh", "usb.audio.bRefresh", DK_UINT, 1, NULL, 0);
F(f_synchaddr, "bSynchAddress", "usb.audio.bSynchAddress", DK_UINT, 1,
    NULL, 0);

/* String (USB 2.0 tables 9-15, 9-16). */
F(f_langid, "wLANGID", "usb.wLANGID", DK_HEX, 2, dec_langids, 0);
F(f_string, "bString", "usb.bString", DK_STRING, 0, NULL, 0);

/* Interface association (USB 2.0 IAD ECN table 9-Z). */
F(f_ia_first, "bFirstInterface", "usb.bFirstInterface", DK_UINT, 1, NULL,
    0);
F(f_ia_count, "bInterfaceCount", "usb.bInterfaceCount", DK_UINT, 1, NULL,
    0);
F(f_ia_class, "bFunctionClass", "usb.bFunctionClass", DK_HEX, 1,
    dec_classes, 0);
F(f_ia_sub, "bFunctionSubClass", "usb.bFunctionSubClass", DK_HEX, 1, NULL,
    0);
F(f_ia_proto, "bFunctionProtocol", "usb.bFunctionProtocol", DK_HEX, 1,
    NULL, 0);
F(f_ia_ifunc, "iFunction", "usb.iFunction", DK_UINT, 1, NULL, 0);

/* SuperSpeed endpoint companion (USB 3.2 table 9-27). */
F(f_ss_burst, "bMaxBurst", "usb.bMaxBurst", DK_UINT, 1, NULL, 0);
F(f_ss_attr, "bmAttributes", "usb.bmAttributes", DK_HEX, 1, NULL, 0);
F(f_ss_streams, "MaxStreams", "usb.bmAttributes.MaxStreams", DK_UINT, 1,
    NULL, 0x1f);
F(f_ss_mult, "Mult", "usb.bmAttributes.Mult", DK_UINT, 1, NULL, 0x03);
F(f_ss_bpi, "wBytesPerInterval", "usb.wBytesPerInterval", DK_UINT, 2, NULL,
    0);

/* HID (HID 1.11 6.2.1). */
F(f_hid_bcd, "bcdHID", "usbhid.descriptor.hid.bcdHID", DK_BCD, 2, NULL, 0);
F(f_hid_country, "bCountryCode", "usbhid.descriptor.hid.bCountryCode",
    DK_HEX, 1, hid_countries, 0);
F(f_hid_num, "bNumDescriptors", "usbhid.descriptor.hid.bNumDescriptors",
    DK_UINT, 1, NULL, 0);
F(f_hid_dtype, "bDescriptorType", "usbhid.descriptor.hid.bDescriptorType",
    DK_HEX, 1, dec_desc_types, 0);
F(f_hid_dlen, "wDescriptorLength",
    "usbhid.descriptor.hid.wDescriptorLength", DK_UINT, 2, NULL, 0);

/* Hub (USB 2.0 table 11-13, USB 3.2 table 10-3). */
F(f_hub_ports, "bNbrPorts", NULL, DK_UINT, 1, NULL, 0);
F(f_hub_chars, "wHubCharacteristics", NULL, DK_HEX, 2, NULL, 0);
F(f_hub_power, "Power switching", NULL, DK_UINT, 2, hub_power_modes,
    0x0003);
F(f_hub_compound, "Compound device", NULL, DK_BOOL, 2, NULL, 0x0004);
F(f_hub_oc, "Over-current protection", NULL, DK_UINT, 2, hub_oc_modes,
    0x0018);
F(f_hub_tt, "TT think time", NULL, DK_UINT, 2, hub_tt_times, 0x0060);
F(f_hub_ind, "Port indicators", NULL, DK_BOOL, 2, NULL, 0x0080);
F(f_hub_pwrgood, "bPwrOn2PwrGood (2 ms units)", NULL, DK_UINT, 1, NULL, 0);
F(f_hub_current, "bHubContrCurrent (mA)", NULL, DK_UINT, 1, NULL, 0);
F(f_hub_removable, "DeviceRemovable", NULL, DK_BYTES, 0, NULL, 0);
F(f_hub_pwrmask, "PortPwrCtrlMask", NULL, DK_BYTES, 0, NULL, 0);
F(f_hub_declat, "bHubHdrDecLat", NULL, DK_UINT, 1, NULL, 0);
F(f_hub_delay, "wHubDelay (ns)", NULL, DK_UINT, 2, NULL, 0);
F(f_hub_removable16, "DeviceRemovable", NULL, DK_HEX, 2, NULL, 0);

/* OTG (OTG 2.0 table 6-1), debug (USB debug device 4.1). */
F(f_otg_attr, "bmAttributes", NULL, DK_HEX, 1, NULL, 0);
F(f_otg_srp, "SRP support", NULL, DK_BOOL, 1, NULL, 0x01);
F(f_otg_hnp, "HNP support", NULL, DK_BOOL, 1, NULL, 0x02);
F(f_otg_adp, "ADP support", NULL, DK_BOOL, 1, NULL, 0x04);
F(f_otg_bcd, "bcdOTG", NULL, DK_BCD, 2, NULL, 0);
F(f_dbg_in, "bDebugInEndpoint", NULL, DK_HEX, 1, NULL, 0);
F(f_dbg_out, "bDebugOutEndpoint", NULL, DK_HEX, 1, NULL, 0);

/* BOS and device capabilities (USB 3.2 9.6.2). */
F(f_bos_total, "wTotalLength", NULL, DK_UINT, 2, NULL, 0);
F(f_bos_ncaps, "bNumDeviceCaps", NULL, DK_UINT, 1, NULL, 0);
F(f_cap_type, "bDevCapabilityType", NULL, DK_HEX, 1, devcap_types, 0);
F(f_u2_attr, "bmAttributes", NULL, DK_HEX, 4, NULL, 0);
F(f_u2_lpm, "LPM", NULL, DK_BOOL, 4, NULL, 0x0002);
F(f_u2_besl, "BESL and alternate HIRD", NULL, DK_BOOL, 4, NULL, 0x0004);
F(f_u2_bbesl_ok, "Baseline BESL valid", NULL, DK_BOOL, 4, NULL, 0x0008);
F(f_u2_dbesl_ok, "Deep BESL valid", NULL, DK_BOOL, 4, NULL, 0x0010);
F(f_u2_bbesl, "Baseline BESL", NULL, DK_UINT, 4, NULL, 0x0f00);
F(f_u2_dbesl, "Deep BESL", NULL, DK_UINT, 4, NULL, 0xf000);
F(f_ss_cattr, "bmAttributes", NULL, DK_HEX, 1, NULL, 0);
F(f_ss_ltm, "LTM capable", NULL, DK_BOOL, 1, NULL, 0x02);
F(f_ss_speeds, "wSpeedsSupported", NULL, DK_HEX, 2, NULL, 0);
F(f_ss_ls, "Low Speed", NULL, DK_BOOL, 2, NULL, 0x0001);
F(f_ss_fs, "Full Speed", NULL, DK_BOOL, 2, NULL, 0x0002);
F(f_ss_hs, "High Speed", NULL, DK_BOOL, 2, NULL, 0x0004);
F(f_ss_5g, "5 Gbps", NULL, DK_BOOL, 2, NULL, 0x0008);
F(f_ss_func, "bFunctionalitySupport", NULL, DK_UINT, 1, ss_speeds, 0);
F(f_ss_u1, "bU1DevExitLat (us)", NULL, DK_UINT, 1, NULL, 0);
F(f_ss_u2, "wU2DevExitLat (us)", NULL, DK_UINT, 2, NULL, 0);
F(f_uuid, "ContainerID", NULL, DK_STRING, 0, NULL, 0);
F(f_platform_uuid, "PlatformCapabilityUUID", NULL, DK_STRING, 0, NULL, 0);
F(f_cap_data, "CapabilityData", NULL, DK_BYTES, 0, NULL, 0);
F(f_ssp_attr, "bmAttributes", NULL, DK_HEX, 4, NULL, 0);
F(f_ssp_ssac, "Sublink Speed Attribute Count - 1", NULL, DK_UINT, 4, NULL,
    0x0000001f);
F(f_ssp_ssic, "Sublink Speed ID Count - 1", NULL, DK_UINT, 4, NULL,
    0x000001e0);
F(f_ssp_func, "wFunctionalitySupport", NULL, DK_HEX, 2, NULL, 0);
F(f_ssp_ssid, "Minimum Sublink Speed ID", NULL, DK_UINT, 2, NULL, 0x000f);
F(f_ssp_rx, "Minimum RX lanes", NULL, DK_UINT, 2, NULL, 0x0f00);
F(f_ssp_tx, "Minimum TX lanes", NULL, DK_UINT, 2, NULL, 0xf000);
F(f_ssp_res16, "wReserved", NULL, DK_HEX, 2, NULL, 0);
F(f_ssp_sublink, "bmSublinkSpeedAttr", NULL, DK_HEX, 4, NULL, 0);
F(f_ssp_sl_id, "SSID", NULL, DK_UINT, 4, NULL, 0x0000000f);
F(f_ssp_sl_lse, "LSE", NULL, DK_UINT, 4, ssp_exponents, 0x00000030);
F(f_ssp_sl_st, "ST", NULL, DK_UINT, 4, NULL, 0x000000c0);
F(f_ssp_sl_lp, "LP", NULL, DK_UINT, 4, ssp_link_protocols, 0x0000c000);
F(f_ssp_sl_lsm, "LSM", NULL, DK_UINT, 4, NULL, 0xffff0000);

/* ------------------------------------------------------------------------
 * Decoding context.
 */

enum { CONT_NONE, CONT_CONFIG, CONT_BOS };

struct desc_ctx {
	struct dec_tree		*t;
	const uint8_t		*data;		/* the whole buffer */
	size_t			 len;
	const struct dec_setup	*req;
	uint8_t			 depth0;	/* depth of the top level */
	int			 ws;		/* use Wireshark's names */
	int			 langids;	/* STRING is the LANGID list */
	int			 hid;		/* 0x21 is HID's (asked for) */
	int			 count;		/* descriptors decoded */

	/* the configuration or BOS being walked */
	int			 cont;		/* CONT_* */
	size_t			 cont_end;	/* offset after wTotalLength */
	int			 cont_whole;	/* wTotalLength bytes present */
	struct dec_node		*cont_count;	/* bNumInterfaces/Caps */
	unsigned		 cont_expect;
	unsigned		 caps;		/* capabilities seen */
	uint8_t			 intf_seen[32];	/* interface numbers seen */

	/* the interface and endpoint being walked */
	int			 level;		/* 1 after intf, 2 after ep */
	int			 intf_class;	/* -1 = none */
	uint8_t			 intf_sub;	/* its subclass, protocol */
	uint8_t			 intf_proto;
	struct dec_node		*intf_neps;	/* its bNumEndpoints */
	unsigned		 intf_expect;
	unsigned		 eps;		/* endpoints seen since */
	int			 ep_xfer;	/* last endpoint's type, -1 */
};

/* A descriptor being decoded: p[0..n) of it is present. */
struct desc {
	const uint8_t		*p;
	size_t			 n;		/* min(bLength, data left) */
	uint32_t		 off;		/* of p in the data */
	struct dec_node		*label;
};

/* One field at a fixed offset; mask != 0: a bit field of the row above. */
struct field_at {
	uint8_t			 at;
	const struct dec_field	*f;
};

typedef void	 desc_fn(struct desc_ctx *, struct desc *);

struct desc_ops {
	uint8_t		 type;
	uint8_t		 size;		/* bLength at least this */
	uint8_t		 fixed;		/* bytes past size are extra */
	uint8_t		 ws;		/* tshark decodes it on its own */
	const char	*label;
	desc_fn		*decode;
};

static void
flag(struct dec_node *n, uint8_t flags, const char *note)
{
	if (n == NULL)
		return;
	/* The first note stays, unless a BAD one comes after a lesser. */
	if (note != NULL && (n->note == NULL ||
	    ((flags & DN_BAD) && !(n->flags & DN_BAD))))
		n->note = note;
	n->flags |= flags;
}

static void
down(struct dec_tree *t)
{
	if (t->depth < UINT8_MAX)
		t->depth++;
}

static uint64_t
read_le(const uint8_t *p, uint8_t width)
{
	switch (width) {
	case 1:
		return p[0];
	case 2:
		return get_le16(p);
	case 4:
		return get_le32(p);
	default:
		return get_le64(p);
	}
}

/* Field f at byte at of d, if all of it is present; else NULL. */
static struct dec_node *
fld(struct desc_ctx *c, struct desc *d, const struct dec_field *f,
    size_t at)
{
	uint8_t w = f->width != 0 ? f->width : 1;

	if (at + w > d->n)
		return NULL;
	return dec_tree_add(c->t, f, DB_DATA, d->off + (uint32_t)at, w,
	    read_le(d->p + at, w));
}

/* Bit field f of the value raw, one level below the node just added. */
static void
bits(struct desc_ctx *c, const struct dec_node *parent,
    const struct dec_field *f)
{
	if (parent != NULL)
		dec_tree_add_bits(c->t, f, parent->buf, parent->off,
		    parent->len, parent->value);
}

/* A value made by the decoder, one level below the node just added. */
static void
derived(struct desc_ctx *c, const struct dec_node *parent,
    const struct dec_field *f, uint64_t v)
{
	if (parent == NULL)
		return;
	down(c->t);
	dec_tree_add(c->t, f, parent->buf, parent->off, parent->len, v);
	dec_tree_pop(c->t);
}

/* Bytes [at, at + len) of d, cut to what is present. */
static struct dec_node *
bytes(struct desc_ctx *c, struct desc *d, const struct dec_field *f,
    size_t at, size_t len)
{
	if (at >= d->n || len == 0)
		return NULL;
	if (at + len > d->n)
		len = d->n - at;
	return dec_tree_add(c->t, f, DB_DATA, d->off + (uint32_t)at,
	    (uint32_t)len, 0);
}

/* Rows of fields; out[i] gets row i's node when out is not NULL. */
static void
fields(struct desc_ctx *c, struct desc *d, const struct field_at *rows,
    size_t nrows, struct dec_node **out)
{
	struct dec_node *parent = NULL, *n;
	size_t	 i;

	for (i = 0; i < nrows; i++) {
		if (rows[i].f->mask != 0) {
			bits(c, parent, rows[i].f);
			n = NULL;
		} else
			n = parent = fld(c, d, rows[i].f, rows[i].at);
		if (out != NULL)
			out[i] = n;
	}
}

/* A UUID (16 bytes in wire order, as lsusb prints them) as a string. */
static void
uuid(struct desc_ctx *c, struct desc *d, const struct dec_field *f,
    size_t at)
{
	const uint8_t	*u = d->p + at;
	struct dec_node	*n;

	if (at + 16 > d->n)
		return;
	n = dec_tree_add(c->t, f, DB_DATA, d->off + (uint32_t)at, 16, 0);
	if (n == NULL)
		return;
	n->str = dec_tree_printf(c->t, "%02x%02x%02x%02x-%02x%02x-%02x%02x-"
	    "%02x%02x-%02x%02x%02x%02x%02x%02x", u[0], u[1], u[2], u[3], u[4],
	    u[5], u[6], u[7], u[8], u[9], u[10], u[11], u[12], u[13], u[14],
	    u[15]);
}

/* ------------------------------------------------------------------------
 * Descriptor decoders: fields after bLength and bDescriptorType.
 */

static void
dec_device(struct desc_ctx *c, struct desc *d)
{
	static const struct field_at rows[] = {
		{ 2, &f_bcdusb }, { 4, &f_dclass }, { 5, &f_dsubclass },
		{ 6, &f_dproto }, { 7, &f_mps0 }, { 8, &f_vendor },
		{ 10, &f_product }, { 12, &f_bcddev }, { 14, &f_imanuf },
		{ 15, &f_iproduct }, { 16, &f_iserial }, { 17, &f_nconfigs },
	};
	struct dec_node *n[nitems(rows)];
	unsigned mps;

	fields(c, d, rows, nitems(rows), n);
	if (d->n < 8)
		return;
	/* USB 2.0 9.6.1; USB 3.x devices give an exponent (9 = 512). */
	mps = d->p[7];
	if (mps != 8 && mps != 16 && mps != 32 && mps != 64 &&
	    !(mps == 9 && get_le16(d->p + 2) >= 0x0300))
		flag(n[4], DN_BAD, "bMaxPacketSize0 not 8, 16, 32 or 64");
}

/* Close the interface being walked: does bNumEndpoints hold? */
static void
intf_end(struct desc_ctx *c)
{
	if (c->intf_neps != NULL && c->cont_whole &&
	    c->eps != c->intf_expect)
		flag(c->intf_neps, DN_BAD, "bNumEndpoints differs from the "
		    "endpoint descriptors that follow");
	c->intf_neps = NULL;
	c->eps = 0;
}

static void
dec_config(struct desc_ctx *c, struct desc *d)
{
	static const struct field_at rows[] = {
		{ 2, &f_total }, { 4, &f_nintfs }, { 5, &f_cfgval },
		{ 6, &f_icfg }, { 7, &f_cattr }, { 7, &f_cattr_one },
		{ 7, &f_cattr_self }, { 7, &f_cattr_wake }, { 8, &f_maxpower },
	};
	struct dec_node	*n[nitems(rows)];
	size_t		 total, end;

	fields(c, d, rows, nitems(rows), n);
	derived(c, n[8], &f_maxpower_ma, d->n > 8 ? (uint64_t)d->p[8] * 2 : 0);
	if (d->n > 7 && !(d->p[7] & 0x80))
		flag(n[4], 0, "bit 7 must be 1 since USB 1.1");
	if (c->cont != CONT_NONE)
		return;			/* a configuration inside one */

	c->cont = CONT_CONFIG;
	c->cont_end = d->off + d->n;
	c->cont_whole = 1;
	if (d->n < 4)
		return;
	total = get_le16(d->p + 2);
	if (total < 9) {
		flag(n[0], DN_BAD, "wTotalLength shorter than the "
		    "configuration descriptor");
		flag(d->label, DN_BAD, "bad wTotalLength");
		return;
	}
	if (total < d->p[0])
		flag(d->label, DN_BAD, "bLength beyond wTotalLength");
	end = d->off + total;
	c->cont_end = end;
	c->cont_count = n[1];
	c->cont_expect = d->n > 4 ? d->p[4] : 0;
	if (end <= c->len)
		return;
	c->cont_whole = 0;
	if (c->req != NULL && c->req->wLength < total)
		flag(n[0], 0, "the rest was not asked for (wLength)");
	else
		flag(n[0], DN_CUT, "wTotalLength beyond the data");
}

static const struct {
	uint8_t			 cls;
	const struct dec_field	*sub;
	const struct dec_field	*proto;
} intf_names[] = {
	{ 0x03, &f_isub_hid, &f_iproto_hid },
	{ 0x08, &f_isub_msc, &f_iproto_msc },
	{ 0x09, &f_isub, &f_iproto_hub },
	{ 0xe0, &f_isub_wl, &f_iproto_wl },
};

static void
dec_interface(struct desc_ctx *c, struct desc *d)
{
	const struct dec_field *sub = &f_isub, *proto = &f_iproto;
	size_t	 i;

	intf_end(c);
	c->intf_class = d->n > 5 ? d->p[5] : -1;
	c->intf_sub = d->n > 6 ? d->p[6] : 0;
	c->intf_proto = d->n > 7 ? d->p[7] : 0;
	c->ep_xfer = -1;
	for (i = 0; i < nitems(intf_names); i++) {
		if (intf_names[i].cls == c->intf_class) {
			sub = intf_names[i].sub;
			proto = intf_names[i].proto;
		}
	}
	fld(c, d, &f_inum, 2);
	if (d->n > 2 && c->cont == CONT_CONFIG)
		c->intf_seen[d->p[2] / 8] |= 1 << (d->p[2] % 8);
	fld(c, d, &f_ialt, 3);
	c->intf_neps = fld(c, d, &f_ineps, 4);
	c->intf_expect = d->n > 4 ? d->p[4] : 0;
	fld(c, d, &f_iclass, 5);
	fld(c, d, sub, 6);
	fld(c, d, proto, 7);
	fld(c, d, &f_iintf, 8);
	if (c->cont != CONT_CONFIG)
		c->intf_neps = NULL;	/* nothing to count */
}

static void
dec_endpoint(struct desc_ctx *c, struct desc *d)
{
	struct dec_node *n;
	int	 xfer;

	n = fld(c, d, &f_epaddr, 2);
	bits(c, n, &f_epdir);
	bits(c, n, &f_epnum);
	xfer = d->n > 3 ? d->p[3] & 3 : -1;
	n = fld(c, d, &f_epattr, 3);
	bits(c, n, &f_epxfer);
	if (xfer == 1) {
		bits(c, n, &f_epsync);
		bits(c, n, &f_epusage);
	}
	n = fld(c, d, &f_mps, 4);
	if (xfer == 1 || xfer == 3)
		bits(c, n, &f_mps_slots);
	bits(c, n, &f_mps_size);
	if (d->n > 5 && ((d->p[5] >> 3) & 3) == 3)
		flag(n, DN_BAD, "reserved transactions per microframe");
	fld(c, d, &f_interval, 6);
	/* Audio 1.0 4.6.1.1: two more bytes. */
	if (c->intf_class == 0x01) {
		fld(c, d, &f_refresh, 7);
		fld(c, d, &f_synchaddr, 8);
	} else if (d->n > 7)
		bytes(c, d, &f_extra, 7, d->n - 7);
	c->ep_xfer = xfer;
	c->eps++;
}

static void
dec_string(struct desc_ctx *c, struct desc *d)
{
	struct dec_node	*n;
	char		 text[512];
	size_t		 i, units;

	if (d->p[0] & 1)
		flag(d->label, DN_BAD, "odd bLength in a string descriptor");
	if (c->langids) {
		for (i = 2; i + 2 <= d->n; i += 2)
			fld(c, d, &f_langid, i);
		return;
	}
	/* A cut half unit is dropped; an odd bLength's last byte is
	 * U+FFFD, as tshark shows it. */
	units = d->n - 2;
	if (d->n < d->p[0])
		units &= ~(size_t)1;
	n = dec_tree_add(c->t, &f_string, DB_DATA, d->off + 2,
	    (uint32_t)units, 0);
	if (n == NULL)
		return;
	i = dec_utf16le_to_utf8(d->p + 2, units, text, sizeof text);
	n->str = dec_tree_strdup(c->t, text, i);
}

static void
dec_qualifier(struct desc_ctx *c, struct desc *d)
{
	static const struct field_at rows[] = {
		{ 2, &f_bcdusb }, { 4, &f_dclass }, { 5, &f_dsubclass },
		{ 6, &f_dproto }, { 7, &f_mps0 }, { 8, &f_nconfigs },
		{ 9, &f_reserved },
	};

	fields(c, d, rows, nitems(rows), NULL);
}

static void
dec_otg(struct desc_ctx *c, struct desc *d)
{
	static const struct field_at rows[] = {
		{ 2, &f_otg_attr }, { 2, &f_otg_srp }, { 2, &f_otg_hnp },
		{ 2, &f_otg_adp }, { 3, &f_otg_bcd },
	};

	fields(c, d, rows, nitems(rows), NULL);
}

static void
dec_debug(struct desc_ctx *c, struct desc *d)
{
	fld(c, d, &f_dbg_in, 2);
	fld(c, d, &f_dbg_out, 3);
}

static void
dec_iad(struct desc_ctx *c, struct desc *d)
{
	static const struct field_at rows[] = {
		{ 2, &f_ia_first }, { 3, &f_ia_count }, { 4, &f_ia_class },
		{ 5, &f_ia_sub }, { 6, &f_ia_proto }, { 7, &f_ia_ifunc },
	};

	intf_end(c);
	c->intf_class = -1;
	c->ep_xfer = -1;
	fields(c, d, rows, nitems(rows), NULL);
}

static void
dec_bos(struct desc_ctx *c, struct desc *d)
{
	struct dec_node *n, *ncaps;
	size_t	 total;

	n = fld(c, d, &f_bos_total, 2);
	ncaps = fld(c, d, &f_bos_ncaps, 4);
	if (c->cont != CONT_NONE)
		return;
	c->cont = CONT_BOS;
	c->cont_end = d->off + d->n;
	c->cont_whole = 1;
	if (d->n < 4)
		return;
	total = get_le16(d->p + 2);
	if (total < 5) {
		flag(n, DN_BAD, "wTotalLength shorter than the BOS descriptor");
		flag(d->label, DN_BAD, "bad wTotalLength");
		return;
	}
	c->cont_end = d->off + total;
	c->cont_count = ncaps;
	c->cont_expect = d->n > 4 ? d->p[4] : 0;
	if (c->cont_end <= c->len)
		return;
	c->cont_whole = 0;
	if (c->req != NULL && c->req->wLength < total)
		flag(n, 0, "the rest was not asked for (wLength)");
	else
		flag(n, DN_CUT, "wTotalLength beyond the data");
}

/* Device capabilities, by bDevCapabilityType (USB 3.2 9.6.2.1-). */
static void
cap_usb2(struct desc_ctx *c, struct desc *d)
{
	static const struct field_at rows[] = {
		{ 3, &f_u2_attr }, { 3, &f_u2_lpm }, { 3, &f_u2_besl },
		{ 3, &f_u2_bbesl_ok }, { 3, &f_u2_dbesl_ok },
		{ 3, &f_u2_bbesl }, { 3, &f_u2_dbesl },
	};

	fields(c, d, rows, nitems(rows), NULL);
}

static void
cap_ss(struct desc_ctx *c, struct desc *d)
{
	static const struct field_at rows[] = {
		{ 3, &f_ss_cattr }, { 3, &f_ss_ltm }, { 4, &f_ss_speeds },
		{ 4, &f_ss_ls }, { 4, &f_ss_fs }, { 4, &f_ss_hs },
		{ 4, &f_ss_5g }, { 6, &f_ss_func }, { 7, &f_ss_u1 },
		{ 8, &f_ss_u2 },
	};

	fields(c, d, rows, nitems(rows), NULL);
}

static void
cap_container(struct desc_ctx *c, struct desc *d)
{
	fld(c, d, &f_reserved, 3);
	uuid(c, d, &f_uuid, 4);
}

static void
cap_platform(struct desc_ctx *c, struct desc *d)
{
	fld(c, d, &f_reserved, 3);
	uuid(c, d, &f_platform_uuid, 4);
	if (d->n > 20)
		bytes(c, d, &f_cap_data, 20, d->n - 20);
}

static void
cap_ssp(struct desc_ctx *c, struct desc *d)
{
	static const struct field_at rows[] = {
		{ 3, &f_reserved }, { 4, &f_ssp_attr }, { 4, &f_ssp_ssac },
		{ 4, &f_ssp_ssic }, { 8, &f_ssp_func }, { 8, &f_ssp_ssid },
		{ 8, &f_ssp_rx }, { 8, &f_ssp_tx }, { 10, &f_ssp_res16 },
	};
	static const struct field_at sublink[] = {
		{ 0, &f_ssp_sublink }, { 0, &f_ssp_sl_id },
		{ 0, &f_ssp_sl_lse }, { 0, &f_ssp_sl_st }, { 0, &f_ssp_sl_lp },
		{ 0, &f_ssp_sl_lsm },
	};
	struct field_at	 row[nitems(sublink)];
	size_t		 i, k, ssac;

	fields(c, d, rows, nitems(rows), NULL);
	if (d->n < 8)
		return;
	ssac = (d->p[4] & 0x1f) + 1;
	if (d->p[0] < 12 + 4 * ssac)
		flag(d->label, DN_BAD, "bLength too short for the sublink "
		    "speed attributes");
	for (i = 0; i < ssac && 12 + 4 * i + 4 <= d->n; i++) {
		for (k = 0; k < nitems(sublink); k++) {
			row[k] = sublink[k];
			row[k].at = (uint8_t)(12 + 4 * i);
		}
		fields(c, d, row, nitems(row), NULL);
	}
}

static const struct {
	uint8_t		 type;
	uint8_t		 size;		/* bLength at least this */
	desc_fn		*decode;
} cap_ops[] = {
	{ 0x02, 7, cap_usb2 },
	{ 0x03, 10, cap_ss },
	{ 0x04, 20, cap_container },
	{ 0x05, 20, cap_platform },
	{ 0x0a, 12, cap_ssp },
};

static void
dec_devcap(struct desc_ctx *c, struct desc *d)
{
	size_t	 i;

	if (c->cont == CONT_BOS)
		c->caps++;
	fld(c, d, &f_cap_type, 2);
	if (d->n < 3)
		return;
	for (i = 0; i < nitems(cap_ops); i++) {
		if (cap_ops[i].type != d->p[2])
			continue;
		if (d->p[0] < cap_ops[i].size)
			flag(d->label, DN_BAD, "bLength shorter than the "
			    "capability");
		cap_ops[i].decode(c, d);
		return;
	}
	if (d->n > 3)
		bytes(c, d, &f_data, 3, d->n - 3);
}

/* Class-specific or unknown: type, length and bytes. */
static void
dec_other(struct desc_ctx *c, struct desc *d)
{
	if (d->n > 2)
		bytes(c, d, &f_data, 2, d->n - 2);
}

static void
dec_hid(struct desc_ctx *c, struct desc *d)
{
	struct dec_node *num;
	size_t	 i, at;

	if (c->intf_class != 0x03 && !c->hid) {
		dec_other(c, d);	/* 0x21 of another class */
		return;
	}
	fld(c, d, &f_hid_bcd, 2);
	fld(c, d, &f_hid_country, 4);
	num = fld(c, d, &f_hid_num, 5);
	if (d->n < 6)
		return;
	if (6 + 3 * (size_t)d->p[5] > d->p[0])
		flag(num, DN_BAD, "more class descriptors than bLength holds");
	for (i = 0; i < d->p[5] && 6 + 3 * i < d->n; i++) {
		at = 6 + 3 * i;
		fld(c, d, &f_hid_dtype, at);
		fld(c, d, &f_hid_dlen, at + 1);
	}
}

static void
dec_hub(struct desc_ctx *c, struct desc *d)
{
	static const struct field_at rows[] = {
		{ 2, &f_hub_ports }, { 3, &f_hub_chars }, { 3, &f_hub_power },
		{ 3, &f_hub_compound }, { 3, &f_hub_oc }, { 3, &f_hub_tt },
		{ 3, &f_hub_ind }, { 5, &f_hub_pwrgood },
		{ 6, &f_hub_current },
	};
	struct dec_node *n;
	size_t	 nb;

	fields(c, d, rows, nitems(rows), NULL);
	if (d->n < 3)
		return;
	/* One bit per port plus reserved bit 0, in whole bytes. */
	nb = (size_t)d->p[2] / 8 + 1;
	bytes(c, d, &f_hub_removable, 7, nb);
	n = bytes(c, d, &f_hub_pwrmask, 7 + nb, nb);
	if (d->p[0] < 7 + 2 * nb) {
		flag(n, DN_BAD, "shorter than bNbrPorts needs");
		flag(d->label, DN_BAD, "bLength too short for bNbrPorts");
	}
}

static void
dec_ss_hub(struct desc_ctx *c, struct desc *d)
{
	static const struct field_at rows[] = {
		{ 2, &f_hub_ports }, { 3, &f_hub_chars }, { 3, &f_hub_power },
		{ 3, &f_hub_compound }, { 3, &f_hub_oc },
		{ 5, &f_hub_pwrgood }, { 6, &f_hub_current },
		{ 7, &f_hub_declat }, { 8, &f_hub_delay },
		{ 10, &f_hub_removable16 },
	};

	fields(c, d, rows, nitems(rows), NULL);
}

static void
dec_ss_comp(struct desc_ctx *c, struct desc *d)
{
	struct dec_node *n;

	if (c->ep_xfer < 0)
		flag(d->label, DN_BAD, "not after an endpoint descriptor");
	fld(c, d, &f_ss_burst, 2);
	n = fld(c, d, &f_ss_attr, 3);
	if (c->ep_xfer == 2)
		bits(c, n, &f_ss_streams);
	else if (c->ep_xfer == 1)
		bits(c, n, &f_ss_mult);
	fld(c, d, &f_ss_bpi, 4);
}

/* USB 2.0 table 9-5 and the class descriptors above, by type. */
static const struct desc_ops desc_ops[] = {
	{ USB_DT_DEVICE, 18, 1, 1, "DEVICE descriptor", dec_device },
	{ USB_DT_CONFIG, 9, 1, 1, "CONFIG descriptor", dec_config },
	{ USB_DT_STRING, 2, 0, 1, "STRING descriptor", dec_string },
	{ USB_DT_INTERFACE, 9, 1, 1, "INTERFACE descriptor", dec_interface },
	{ USB_DT_ENDPOINT, 7, 0, 1, "ENDPOINT descriptor", dec_endpoint },
	{ USB_DT_DEVICE_QUALIFIER, 10, 1, 1, "DEVICE_QUALIFIER descriptor",
	    dec_qualifier },
	{ USB_DT_OTHER_SPEED_CONFIG, 9, 1, 1, "OTHER_SPEED_CONFIG descriptor",
	    dec_config },
	{ USB_DT_OTG, 3, 0, 0, "OTG descriptor", dec_otg },
	{ USB_DT_DEBUG, 4, 1, 0, "DEBUG descriptor", dec_debug },
	{ USB_DT_INTERFACE_ASSOCIATION, 8, 1, 1,
	    "INTERFACE_ASSOCIATION descriptor", dec_iad },
	{ USB_DT_BOS, 5, 1, 0, "BOS descriptor", dec_bos },
	{ USB_DT_DEVICE_CAPABILITY, 3, 0, 0, "DEVICE_CAPABILITY descriptor",
	    dec_devcap },
	{ USB_DT_HID, 6, 0, 1, "HID descriptor", dec_hid },
	{ USB_DT_HUB, 7, 0, 0, "HUB descriptor", dec_hub },
	{ 0x2a, 12, 1, 0, "SS_HUB descriptor", dec_ss_hub },
	{ USB_DT_SS_ENDPOINT_COMP, 6, 1, 1, "SS_ENDPOINT_COMP descriptor",
	    dec_ss_comp },
};

static const struct desc_ops other_ops = {
	0, 2, 0, 0, NULL, dec_other
};

/* A class-specific descriptor of the interface being walked: its class
 * decoder's, else bytes. */
static void
dec_class_desc(struct desc_ctx *c, struct desc *d)
{
	const struct dec_class_ops *o;
	struct dec_cls_desc cd;

	o = dec_class_find(c->intf_class, c->intf_sub, c->intf_proto);
	/* (no heading: the tree is full, the decoder would have no label
	 * to name) */
	if (o != NULL && o->desc != NULL && d->label != NULL) {
		cd.p = d->p;
		cd.n = d->n;
		cd.off = d->off;
		cd.subcls = c->intf_sub;
		cd.proto = c->intf_proto;
		cd.label = d->label;
		if (o->desc(&cd, c->t))
			return;
	}
	dec_other(c, d);
}

static const struct desc_ops class_ops = {
	0, 2, 0, 0, NULL, dec_class_desc
};


static const struct desc_ops *
ops_find(uint8_t type)
{
	size_t	 i;

	for (i = 0; i < nitems(desc_ops); i++) {
		if (desc_ops[i].type == type)
			return &desc_ops[i];
	}
	return &other_ops;
}

/*
 * The decoder of a descriptor of this type here: inside a configuration,
 * after an interface of a class other than HID, the class-specific types
 * (0x21 functional, 0x24 CS_INTERFACE, 0x25 CS_ENDPOINT) are that
 * class's, never HID's (a DFU functional descriptor is no HID
 * descriptor).
 */
static const struct desc_ops *
ops_here(const struct desc_ctx *c, uint8_t type)
{
	if (c->cont == CONT_CONFIG && c->intf_class >= 0 &&
	    ((type == USB_DT_HID && c->intf_class != 0x03) ||
	    type == 0x24 || type == 0x25))
		return &class_ops;
	return ops_find(type);
}

/* The heading of a descriptor: what it is, with its identity. */
static const char *
desc_label(struct desc_ctx *c, const struct desc_ops *ops, const uint8_t *p,
    size_t n)
{
	const char	*s = NULL;
	char		 tmp[24];

	if (p[1] == USB_DT_INTERFACE && n >= 6)
		s = dec_tree_printf(c->t, "INTERFACE %u alt %u: %s", p[2],
		    p[3], dec_name_or(dec_classes, p[5], tmp));
	else if (p[1] == USB_DT_ENDPOINT && n >= 4)
		s = dec_tree_printf(c->t, "ENDPOINT 0x%02x %s %s", p[2],
		    p[2] & 0x80 ? "IN" : "OUT",
		    dec_name_find(usb_xfer_types, p[3] & 3));
	else if (p[1] == USB_DT_DEVICE_CAPABILITY && n >= 3)
		s = dec_tree_printf(c->t, "DEVICE_CAPABILITY: %s",
		    dec_name_or(devcap_types, p[2], tmp));
	else if (ops == &class_ops && p[1] == USB_DT_HID)
		s = dec_tree_printf(c->t, "FUNCTIONAL descriptor (%s class)",
		    dec_name_or(dec_classes, (uint8_t)c->intf_class, tmp));
	else if (ops->label == NULL)
		s = dec_tree_printf(c->t, "%s descriptor",
		    dec_name_or(dec_desc_types, p[1], tmp));
	if (s == NULL)
		s = ops->label != NULL ? ops->label : "descriptor";
	return s;
}

/* Tree level of a descriptor of this type in the walk so far. */
static int
desc_level(struct desc_ctx *c, uint8_t type)
{
	if (c->cont == CONT_BOS)
		return type == USB_DT_BOS ? 0 : 1;
	if (c->cont != CONT_CONFIG)
		return 0;
	switch (type) {
	case USB_DT_INTERFACE:
	case USB_DT_INTERFACE_ASSOCIATION:
		return 1;
	case USB_DT_ENDPOINT:
		return 2;
	default:
		/* libusb's rule: what follows an endpoint is its extra. */
		return c->level + 1;
	}
}

/*
 * The data ends inside what n heads: a cut, unless the request asked for
 * no more (GET_DESCRIPTOR(CONFIG, 9) and the like).
 */
static void
cut(struct desc_ctx *c, struct dec_node *n)
{
	if (c->req != NULL && c->req->wLength <= c->len)
		flag(n, 0, "the rest was not asked for (wLength)");
	else
		flag(n, DN_CUT, "data ends inside the descriptor");
}

/* Bytes that are not a descriptor, from off to the end. */
static void
trailing(struct desc_ctx *c, size_t off, uint8_t flags, const char *note)
{
	struct dec_node *n;

	c->t->depth = c->depth0;
	n = dec_tree_add(c->t, &f_trailing, DB_DATA, (uint32_t)off,
	    (uint32_t)(c->len - off), 0);
	flag(n, flags, note);
}

/* One descriptor at off; returns the bytes it takes. */
static size_t
desc_one(struct desc_ctx *c, size_t off, int want)
{
	const struct desc_ops *ops;
	struct desc	 d;
	struct dec_node	*n;
	const uint8_t	*p = c->data + off;
	size_t		 left = c->len - off, bl;
	int		 level, ws;

	bl = p[0];
	ops = ops_here(c, p[1]);
	ws = c->cont != CONT_NONE ? c->ws : ops->ws;
	level = c->cont == CONT_NONE && (p[1] == USB_DT_CONFIG ||
	    p[1] == USB_DT_OTHER_SPEED_CONFIG || p[1] == USB_DT_BOS) ? 0 :
	    desc_level(c, p[1]);
	if (c->cont == CONT_NONE && level == 0)
		c->ws = ops->ws;

	d.p = p;
	d.n = bl < left ? bl : left;
	d.off = (uint32_t)off;
	c->t->depth = (uint8_t)(c->depth0 + level);
	d.label = dec_tree_push(c->t, desc_label(c, ops, p, d.n), DB_DATA,
	    d.off, (uint32_t)d.n);

	n = dec_tree_add(c->t, ws ? &f_len : &f_len_x, DB_DATA, d.off, 1, bl);
	dec_tree_add(c->t, ws ? &f_type : &f_type_x, DB_DATA, d.off + 1, 1,
	    p[1]);
	if (bl < ops->size) {
		flag(n, DN_BAD, "bLength shorter than the descriptor");
		flag(d.label, DN_BAD, "bLength shorter than the descriptor");
	}
	if (c->cont != CONT_NONE && level > 0 && off + bl > c->cont_end)
		flag(d.label, DN_BAD, "bLength beyond wTotalLength");
	if (want >= 0 && c->count == 0 && p[1] != want)
		flag(d.label, DN_BAD, "not the descriptor type asked for");
	if (bl > left)
		cut(c, d.label);

	ops->decode(c, &d);
	if (ops->fixed && d.n > ops->size)
		bytes(c, &d, &f_extra, ops->size, d.n - ops->size);

	if (c->cont == CONT_CONFIG && level > 0)
		c->level = p[1] == USB_DT_INTERFACE ? 1 :
		    p[1] == USB_DT_ENDPOINT ? 2 :
		    p[1] == USB_DT_INTERFACE_ASSOCIATION ? 0 : c->level;
	c->count++;
	return d.n;
}

/* End of a configuration or BOS: do the counts hold? */
static void
cont_end(struct desc_ctx *c)
{
	unsigned i, nintf;

	intf_end(c);
	if (!c->cont_whole || c->cont_count == NULL)
		return;
	if (c->cont == CONT_CONFIG) {
		for (nintf = 0, i = 0; i < 256; i++)
			nintf += (c->intf_seen[i / 8] >> (i % 8)) & 1;
		if (nintf != c->cont_expect)
			flag(c->cont_count, DN_BAD, "bNumInterfaces differs "
			    "from the interfaces that follow");
	} else if (c->cont == CONT_BOS && c->caps != c->cont_expect)
		flag(c->cont_count, DN_BAD, "bNumDeviceCaps differs from the "
		    "capabilities that follow");
}

/* What GET_DESCRIPTOR (or SET_DESCRIPTOR) asked for, or -1. */
static int
req_type(const struct dec_setup *req, unsigned *index)
{
	*index = 0;
	if (req == NULL || SETUP_TYPE(req) == 2 ||
	    (req->bRequest != USB_REQ_GET_DESCRIPTOR &&
	    req->bRequest != USB_REQ_SET_DESCRIPTOR))
		return -1;
	*index = req->wValue & 0xff;
	return req->wValue >> 8;
}

static int
is_report(int want)
{
	return want == USB_DT_HID_REPORT || want == 0x23;
}

int
dec_desc_tree(const uint8_t *p, size_t len, const struct dec_setup *req,
    struct dec_tree *t)
{
	struct desc_ctx	 c;
	struct dec_node	*n;
	unsigned	 index;
	size_t		 off;
	int		 want, single;

	memset(&c, 0, sizeof c);
	c.t = t;
	c.data = p;
	c.len = len;
	c.req = req;
	c.depth0 = t->depth;
	c.intf_class = -1;
	c.ep_xfer = -1;
	if (len == 0)
		return 0;

	want = req_type(req, &index);
	if (is_report(want)) {
		/* Items, not descriptors: HID's business. */
		dec_hid_rdesc_tree(p, len, want, t);
		t->depth = c.depth0;
		return 1;
	}
	c.langids = want == USB_DT_STRING && index == 0;
	c.hid = want == USB_DT_HID;
	single = want >= 0 && want != USB_DT_CONFIG &&
	    want != USB_DT_OTHER_SPEED_CONFIG && want != USB_DT_BOS;

	for (off = 0; off < len;) {
		if (single && c.count == 1) {
			trailing(&c, off, 0, "bytes after the descriptor");
			break;
		}
		if (c.cont != CONT_NONE && off >= c.cont_end) {
			trailing(&c, off, DN_BAD, "bytes beyond wTotalLength");
			break;
		}
		if (len - off < 2 || p[off] < 2) {
			t->depth = (uint8_t)(c.depth0 +
			    desc_level(&c, USB_DT_DEVICE));
			n = dec_tree_add(t, &f_len, DB_DATA, (uint32_t)off, 1,
			    p[off]);
			if (len - off < 2)
				cut(&c, n);
			else
				flag(n, DN_BAD, "bLength shorter than 2");
			if (len - off > 1)
				trailing(&c, off + 1, DN_BAD,
				    "not decoded after a bad bLength");
			c.count++;
			break;
		}
		off += desc_one(&c, off, want);
	}
	if (c.cont != CONT_NONE)
		cont_end(&c);
	t->depth = c.depth0;
	return c.count;
}

/* ------------------------------------------------------------------------
 * Summaries.
 */

struct sum {
	char	*buf;
	size_t	 size;
	size_t	 len;
};

static void	put(struct sum *, const char *, ...)
		    __attribute__((format(printf, 2, 3)));

static void
put(struct sum *s, const char *fmt, ...)
{
	va_list	 ap;
	int	 n;

	if (s->len >= s->size - 1)
		return;
	va_start(ap, fmt);
	n = vsnprintf(s->buf + s->len, s->size - s->len, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	s->len += (size_t)n;
	if (s->len > s->size - 1)
		s->len = s->size - 1;
}

int
dec_desc_summary(const uint8_t *p, size_t len, size_t wire,
    const struct dec_setup *req, char *buf, size_t size)
{
	struct sum	 s = { buf, size, 0 };
	char		 tmp[24], text[256];
	unsigned	 index, bl, i;
	size_t		 n;
	int		 want;

	if (size == 0)
		return 0;
	buf[0] = '\0';
	want = req_type(req, &index);
	if (is_report(want)) {
		put(&s, "%s %zu bytes", want == 0x23 ? "HID_PHYSICAL" :
		    "HID_REPORT", len);
		return (int)s.len;
	}
	if (len < 2) {
		put(&s, "descriptor cut (%zu byte%s)", len,
		    len == 1 ? "" : "s");
		return (int)s.len;
	}
	bl = p[0];
	if (bl < 2) {
		put(&s, "bad descriptor (bLength %u)", bl);
		return (int)s.len;
	}
	n = bl < len ? bl : len;
	switch (p[1]) {
	case USB_DT_DEVICE:
		if (n >= 18)
			put(&s, "DEVICE %04x:%04x class %u mps %u cfgs %u",
			    get_le16(p + 8), get_le16(p + 10), p[4], p[7],
			    p[17]);
		else if (n >= 8)
			put(&s, "DEVICE mps %u", p[7]);
		else
			put(&s, "DEVICE");
		break;
	case USB_DT_CONFIG:
	case USB_DT_OTHER_SPEED_CONFIG:
		put(&s, "%s", p[1] == USB_DT_CONFIG ? "CONFIG" :
		    "OTHER_SPEED_CONFIG");
		if (n >= 6)
			put(&s, " %u intf %u total %u", p[5], p[4],
			    get_le16(p + 2));
		break;
	case USB_DT_STRING:
		if (want == USB_DT_STRING && index == 0) {
			put(&s, "LANGIDs");
			for (i = 2; i + 2 <= n; i += 2)
				put(&s, " 0x%04x", get_le16(p + i));
			break;
		}
		i = (unsigned)n - 2;
		if (bl > len)
			i &= ~1u;	/* a cut half unit */
		dec_utf16le_to_utf8(p + 2, i, text, sizeof text);
		put(&s, "STRING \"%s\"", text);
		break;
	case USB_DT_INTERFACE:
		put(&s, "INTERFACE");
		if (n >= 6)
			put(&s, " %u alt %u class %s", p[2], p[3],
			    dec_name_or(dec_classes, p[5], tmp));
		break;
	case USB_DT_ENDPOINT:
		put(&s, "ENDPOINT");
		if (n >= 6)
			put(&s, " 0x%02x %s mps %u", p[2],
			    dec_name_find(usb_xfer_types, p[3] & 3),
			    get_le16(p + 4) & 0x7ff);
		break;
	case USB_DT_DEVICE_QUALIFIER:
		put(&s, "DEVICE_QUALIFIER");
		if (n >= 9)
			put(&s, " usb %x.%02x class %u mps %u cfgs %u", p[3],
			    p[2], p[4], p[7], p[8]);
		break;
	case USB_DT_BOS:
		put(&s, "BOS");
		if (n >= 5)
			put(&s, " caps %u total %u", p[4], get_le16(p + 2));
		break;
	case USB_DT_HUB:
	case 0x2a:
		put(&s, "%s", p[1] == USB_DT_HUB ? "HUB" : "SS_HUB");
		if (n >= 3)
			put(&s, " %u ports", p[2]);
		break;
	case USB_DT_HID:
		put(&s, "HID");
		if (n >= 4)
			put(&s, " %x.%02x", p[3], p[2]);
		if (n >= 9 && p[5] >= 1)
			put(&s, " %s %u",
			    p[6] == USB_DT_HID_REPORT ? "report" :
			    dec_name_or(dec_desc_types, p[6], tmp),
			    get_le16(p + 7));
		break;
	default:
		put(&s, "%s len %u", dec_name_or(dec_desc_types, p[1], tmp),
		    bl);
		break;
	}
	if (bl < ops_find(p[1])->size)
		put(&s, " [bLength %u too short]", bl);
	else if (bl > len && bl > wire)
		put(&s, " [cut: %zu of %u bytes]", wire > len ? wire : len, bl);
	return (int)s.len;
}

/* ------------------------------------------------------------------------
 * UTF-16LE to UTF-8.
 */

static size_t
utf8_encode(uint32_t c, char out[4])
{
	if (c < 0x80) {
		out[0] = (char)c;
		return 1;
	}
	if (c < 0x800) {
		out[0] = (char)(0xc0 | c >> 6);
		out[1] = (char)(0x80 | (c & 0x3f));
		return 2;
	}
	if (c < 0x10000) {
		out[0] = (char)(0xe0 | c >> 12);
		out[1] = (char)(0x80 | (c >> 6 & 0x3f));
		out[2] = (char)(0x80 | (c & 0x3f));
		return 3;
	}
	out[0] = (char)(0xf0 | c >> 18);
	out[1] = (char)(0x80 | (c >> 12 & 0x3f));
	out[2] = (char)(0x80 | (c >> 6 & 0x3f));
	out[3] = (char)(0x80 | (c & 0x3f));
	return 4;
}

size_t
dec_utf16le_to_utf8(const uint8_t *p, size_t n, char *out, size_t size)
{
	uint32_t c, u, u2;
	size_t	 i = 0, o = 0, k;
	char	 enc[4];

	if (size == 0)
		return 0;
	while (i < n) {
		if (n - i < 2) {
			c = 0xfffd;		/* half a code unit */
			i = n;
		} else {
			u = get_le16(p + i);
			i += 2;
			if (u >= 0xd800 && u <= 0xdbff && n - i >= 2 &&
			    (u2 = get_le16(p + i)) >= 0xdc00 && u2 <= 0xdfff) {
				c = 0x10000 + ((u - 0xd800) << 10) +
				    (u2 - 0xdc00);
				i += 2;
			} else if (u >= 0xd800 && u <= 0xdfff)
				c = 0xfffd;	/* lone surrogate */
			else if (u < 0x20 || (u >= 0x7f && u < 0xa0))
				c = '.';	/* C0, DEL, C1 */
			else
				c = u;
		}
		k = utf8_encode(c, enc);
		if (o + k > size - 1)
			break;
		memcpy(out + o, enc, k);
		o += k;
	}
	out[o] = '\0';
	return o;
}
