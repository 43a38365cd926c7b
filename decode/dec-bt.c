/*
 * decode/dec-bt.c - Bluetooth controllers on USB (class 0xE0/0x01/0x01,
 * Bluetooth Core 5.3 Vol 4 Part B): HCI commands in the class requests
 * on ep0, events on the interrupt endpoint, ACL data with its L2CAP on
 * the bulk endpoints, SCO on the isochronous ones (Vol 4 Part E 5.4: the
 * packets' formats; 7: the commands and events; Vol 3 Part A: L2CAP).
 * SCO in isochronous transfers is only named in the summary: Wireshark
 * 4.0 hands isochronous data to no dissector, so its fields are usb.iso.*
 * there, not bthci_sco.* (bthci_sco.* is decoded where hci_usb would be
 * called: endpoint 3 of another transfer type).
 *
 * A packet split over transfers (events longer than the interrupt
 * endpoint's packet, as btusb reads them; ACL data longer than a bulk
 * transfer) is reassembled per endpoint and direction as Wireshark's
 * hci_usb does in one pass (tshark without -2): the pieces before the
 * last are unknown fragments; the last one is "complete", lists the
 * pieces (hci_usb.msg.*) and carries the whole packet's decode, whose
 * bytes are no buffer of its record (DB_COPY).
 *
 * Field names and layouts are Wireshark's: epan/dissectors/
 * packet-hci_usb.c (hci_usb.*, which hands a packet on by endpoint
 * number: 0 commands, 1 events, 2 ACL, 3 SCO), packet-bthci_cmd.c
 * (bthci_cmd.*), packet-bthci_evt.c (bthci_evt.*), packet-bthci_acl.c,
 * packet-bthci_sco.c, packet-btl2cap.c (btl2cap.*) and the advertising
 * data of packet-btcommon.c (btcommon.eir_ad.*).  What Wireshark learns
 * across packets is kept as its one pass has it: the command an event
 * answers (bthci_evt.command_in_frame), and of each connection handle the
 * frame that connected it, both ends' addresses, names and roles and its
 * mode (bthci_acl.connect_in, .src.*, .dst.*, .mode: bluetooth_data_t's
 * tables, filled by packet-bthci_evt.c and packet-bthci_cmd.c).
 * bthci_acl.disconnect_in is never shown: one pass sees an ACL packet of
 * a connection only before its Disconnection Complete.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "class.h"

#define F	DEC_FIELD

/* Vol 4 Part E 5.4.1: the opcode group fields. */
static const struct dec_name bt_ogfs[] = {
	{ 0x01, "Link Control Commands" },
	{ 0x02, "Link Policy Commands" },
	{ 0x03, "Host Controller & Baseband Commands" },
	{ 0x04, "Informational Parameters" },
	{ 0x05, "Status Parameters" },
	{ 0x06, "Testing Commands" },
	{ 0x08, "LE Controller Commands" },
	{ 0x3f, "Vendor-Specific Commands" },
	{ 0, NULL }
};

/* Vol 4 Part E 7.1-7.8: the commands (Wireshark's names). */
static const struct dec_name bt_cmds[] = {
	{ 0x0401, "Inquiry" },
	{ 0x0402, "Inquiry Cancel" },
	{ 0x0405, "Create Connection" },
	{ 0x0406, "Disconnect" },
	{ 0x0408, "Create Connection Cancel" },
	{ 0x0409, "Accept Connection Request" },
	{ 0x040a, "Reject Connection Request" },
	{ 0x0419, "Remote Name Request" },
	{ 0x0428, "Setup Synchronous Connection" },
	{ 0x0c01, "Set Event Mask" },
	{ 0x0c03, "Reset" },
	{ 0x0c05, "Set Event Filter" },
	{ 0x0c13, "Change Local Name" },
	{ 0x0c14, "Read Local Name" },
	{ 0x0c1a, "Write Scan Enable" },
	{ 0x0c24, "Write Class of Device" },
	{ 0x1001, "Read Local Version Information" },
	{ 0x1002, "Read Local Supported Commands" },
	{ 0x1003, "Read Local Supported Features" },
	{ 0x1005, "Read Buffer Size" },
	{ 0x1009, "Read BD ADDR" },
	{ 0x2001, "LE Set Event Mask" },
	{ 0x2002, "LE Read Buffer Size" },
	{ 0x2003, "LE Read Local Supported Features" },
	{ 0x2005, "LE Set Random Address" },
	{ 0x2006, "LE Set Advertising Parameters" },
	{ 0x2008, "LE Set Advertising Data" },
	{ 0x200a, "LE Set Advertise Enable" },
	{ 0x200b, "LE Set Scan Parameters" },
	{ 0x200c, "LE Set Scan Enable" },
	{ 0x200d, "LE Create Connection" },
	{ 0, NULL }
};

/* Vol 4 Part E 7.7: the events. */
static const struct dec_name bt_events[] = {
	{ 0x01, "Inquiry Complete" },
	{ 0x02, "Inquiry Result" },
	{ 0x03, "Connect Complete" },
	{ 0x04, "Connect Request" },
	{ 0x05, "Disconnect Complete" },
	{ 0x07, "Remote Name Request Complete" },
	{ 0x0e, "Command Complete" },
	{ 0x0f, "Command Status" },
	{ 0x10, "Hardware Error" },
	{ 0x13, "Number of Completed Packets" },
	{ 0x2c, "Synchronous Connection Complete" },
	{ 0x3e, "LE Meta" },
	{ 0xff, "Vendor-Specific" },
	{ 0, NULL }
};

/* Vol 1 Part F 1.3: the error codes, a command's status. */
static const struct dec_name bt_status[] = {
	{ 0x00, "Success" },
	{ 0x01, "Unknown HCI Command" },
	{ 0x02, "Unknown Connection Identifier" },
	{ 0x03, "Hardware Failure" },
	{ 0x04, "Page Timeout" },
	{ 0x05, "Authentication Failure" },
	{ 0x08, "Connection Timeout" },
	{ 0x0c, "Command Disallowed" },
	{ 0x12, "Invalid HCI Command Parameters" },
	{ 0x13, "Remote User Terminated Connection" },
	{ 0x16, "Connection Terminated by Local Host" },
	{ 0, NULL }
};

/* Assigned Numbers 2.1: HCI and LMP versions. */
static const struct dec_name bt_versions[] = {
	{ 0x00, "1.0b" }, { 0x01, "1.1" }, { 0x02, "1.2" },
	{ 0x03, "2.0 + EDR" }, { 0x04, "2.1 + EDR" }, { 0x05, "3.0 + HS" },
	{ 0x06, "4.0" }, { 0x07, "4.1" }, { 0x08, "4.2" }, { 0x09, "5.0" },
	{ 0x0a, "5.1" }, { 0x0b, "5.2" }, { 0x0c, "5.3" }, { 0x0d, "5.4" },
	{ 0, NULL }
};

/* Assigned Numbers: company identifiers (a few). */
static const struct dec_name bt_companies[] = {
	{ 0x0000, "Ericsson Technology Licensing" },
	{ 0x0002, "Intel Corp." },
	{ 0x000a, "Qualcomm Technologies International, Ltd. (QTIL)" },
	{ 0x000f, "Broadcom Corporation" },
	{ 0x001d, "Qualcomm" },
	{ 0x005d, "Realtek Semiconductor Corporation" },
	{ 0x0046, "MediaTek, Inc." },
	{ 0, NULL }
};

static const struct dec_name le_subevents[] = {	/* 7.7.65 */
	{ 0x01, "LE Connection Complete" },
	{ 0x02, "LE Advertising Report" },
	{ 0x03, "LE Connection Update Complete" },
	{ 0, NULL }
};

static const struct dec_name le_adv_types[] = {	/* 7.7.65.2 */
	{ 0x00, "Connectable Undirected Advertising" },
	{ 0x01, "Connectable Directed Advertising" },
	{ 0x02, "Scannable Undirected Advertising" },
	{ 0x03, "Non-Connectable Undirected Advertising" },
	{ 0x04, "Scan Response" },
	{ 0, NULL }
};

static const struct dec_name le_addr_types[] = {
	{ 0x00, "Public Device Address" },
	{ 0x01, "Random Device Address" },
	{ 0, NULL }
};

static const struct dec_name link_types[] = {	/* 7.7.3 */
	{ 0x00, "SCO connection (Voice Channels)" },
	{ 0x01, "ACL connection (Data Channels)" },
	{ 0, NULL }
};

static const struct dec_name sync_link_types[] = {	/* 7.7.35 */
	{ 0x00, "SCO connection" },
	{ 0x02, "eSCO connection" },
	{ 0, NULL }
};

static const struct dec_name air_modes[] = {	/* 7.7.35 */
	{ 0x00, "\xc2\xb5-law log" },
	{ 0x01, "A-law log" },
	{ 0x02, "CVSD" },
	{ 0x03, "Transparent Data" },
	{ 0, NULL }
};

/* Voice setting (Part E 6.12) and retransmission effort (7.1.26). */
static const struct dec_name voice_codings[] = {
	{ 0, "Linear" }, { 1, "\xc2\xb5-law" }, { 2, "A-law" }, { 0, NULL }
};
static const struct dec_name voice_formats[] = {
	{ 0, "1's complement" }, { 1, "2's complement" },
	{ 2, "Sign-Magnitude" }, { 3, "Unsigned" }, { 0, NULL }
};
static const struct dec_name voice_sizes[] = {
	{ 0, "8 bit (only for Linear PCM)" },
	{ 1, "16 bit (only for Linear PCM)" }, { 0, NULL }
};
static const struct dec_name air_codings[] = {
	{ 0, "CVSD" }, { 1, "\xc2\xb5-law" }, { 2, "A-law" },
	{ 3, "Transparent Data" }, { 0, NULL }
};
static const struct dec_name rtx_efforts[] = {
	{ 0x00, "No Retransmission" },
	{ 0x01, "At least one retransmission, optimize for power "
	    "consumption" },
	{ 0x02, "At least one retransmission, optimize for link quality" },
	{ 0xff, "Don't Care" },
	{ 0, NULL }
};

static const struct dec_name enc_modes[] = {
	{ 0x00, "Encryption Disabled" },
	{ 0x01, "Encryption only for point-to-point packets" },
	{ 0x02, "Encryption for both point-to-point and broadcast packets" },
	{ 0, NULL }
};

static const struct dec_name scan_types[] = {	/* 7.8.10 */
	{ 0x00, "Passive" },
	{ 0x01, "Active" },
	{ 0, NULL }
};

static const struct dec_name enables[] = {
	{ 0x00, "false" },
	{ 0x01, "true" },
	{ 0, NULL }
};

static const struct dec_name page_scan_rep[] = {	/* 7.1.5 */
	{ 0x00, "R0" }, { 0x01, "R1" }, { 0x02, "R2" },
	{ 0, NULL }
};

static const struct dec_name pb_flags[] = {	/* Part E 5.4.2 */
	{ 0, "First Non-automatically Flushable Packet" },
	{ 1, "Continuing Fragment" },
	{ 2, "First Automatically Flushable Packet" },
	{ 0, NULL }
};

static const struct dec_name bc_flags[] = {
	{ 0, "Point-To-Point" },
	{ 1, "Active Broadcast" },
	{ 0, NULL }
};

/* packet-bluetooth.h's roles (bthci_acl.src.role) and Part E 7.7.20's
 * modes (bthci_acl.mode; -1 none known) */
static const struct dec_name acl_roles[] = {
	{ 0, "Unknown" }, { 1, "Master" }, { 2, "Slave" }, { 0, NULL }
};
static const struct dec_name acl_modes[] = {
	{ 0, "Active Mode" }, { 1, "Hold Mode" }, { 2, "Sniff Mode" },
	{ 3, "Park Mode" }, { 0xffffffff, "Unknown" }, { 0, NULL }
};
static const struct dec_name hci_usb_requests[] = {
	{ 0x00, "Primary Controller Function" },
	{ 0x2b, "AMP Controller Function" },
	{ 0xe0, "Primary Controller Function (Historical)" },
	{ 0, NULL }
};

/* L2CAP (Vol 3 Part A 2.1, 4, 5). */
static const struct dec_name l2_cids[] = {
	{ 0x0000, "Null identifier" },
	{ 0x0001, "L2CAP Signaling Channel" },
	{ 0x0002, "Connectionless Channel" },
	{ 0x0003, "AMP Manager Protocol" },
	{ 0x0004, "Attribute Protocol" },
	{ 0x0005, "Low Energy L2CAP Signaling Channel" },
	{ 0x0006, "Security Manager Protocol" },
	{ 0, NULL }
};

static const struct dec_name l2_codes[] = {
	{ 0x01, "Command Reject" },
	{ 0x02, "Connection Request" },
	{ 0x03, "Connection Response" },
	{ 0x04, "Configure Request" },
	{ 0x05, "Configure Response" },
	{ 0x06, "Disconnection Request" },
	{ 0x07, "Disconnection Response" },
	{ 0x08, "Echo Request" },
	{ 0x09, "Echo Response" },
	{ 0x0a, "Information Request" },
	{ 0x0b, "Information Response" },
	{ 0, NULL }
};

static const struct dec_name l2_psms[] = {	/* Assigned Numbers */
	{ 0x0001, "SDP" },
	{ 0x0003, "RFCOMM" },
	{ 0x000f, "BNEP" },
	{ 0x0011, "HID_CONTROL" },
	{ 0x0013, "HID_INTERRUPT" },
	{ 0x0017, "AVCTP" },
	{ 0x0019, "AVDTP" },
	{ 0x001f, "ATT" },
	{ 0, NULL }
};

static const struct dec_name l2_info_types[] = {	/* 4.10 */
	{ 0x0001, "Connectionless MTU" },
	{ 0x0002, "Extended Features Mask" },
	{ 0x0003, "Fixed Channels Supported" },
	{ 0, NULL }
};

static const struct dec_name l2_info_results[] = {	/* 4.11 */
	{ 0x0000, "Success" },
	{ 0x0001, "Not Supported" },
	{ 0, NULL }
};

static const struct dec_name l2_conn_results[] = {	/* 4.3 */
	{ 0x0000, "Successful" },
	{ 0x0001, "Connection pending" },
	{ 0x0002, "Connection Refused - PSM not supported" },
	{ 0x0003, "Connection refused - security block" },
	{ 0x0004, "Connection refused - no resources available" },
	{ 0, NULL }
};

static const struct dec_name l2_conn_status[] = {
	{ 0x0000, "No further information available" },
	{ 0x0001, "Authentication pending" },
	{ 0x0002, "Authorization pending" },
	{ 0, NULL }
};

static const struct dec_name l2_conf_results[] = {	/* 4.5 */
	{ 0x0000, "Success" },
	{ 0x0001, "Failure - unacceptable parameters" },
	{ 0x0002, "Failure - rejected (no reason provided)" },
	{ 0x0003, "Failure - unknown options" },
	{ 0x0004, "Pending" },
	{ 0, NULL }
};

static const struct dec_name l2_option_types[] = {	/* 5 */
	{ 0x01, "Maximum Transmission Unit" },
	{ 0x02, "Flush Timeout" },
	{ 0x03, "Quality of Service" },
	{ 0x04, "Retransmission and Flow Control" },
	{ 0x05, "FCS" },
	{ 0, NULL }
};

static const struct dec_name ad_types[] = {	/* CSS Part A 1 */
	{ 0x01, "Flags" },
	{ 0x02, "16-bit Service Class UUIDs (incomplete)" },
	{ 0x03, "16-bit Service Class UUIDs" },
	{ 0x08, "Device Name (shortened)" },
	{ 0x09, "Device Name" },
	{ 0x0a, "Tx Power Level" },
	{ 0x16, "Service Data - 16 bit UUID" },
	{ 0xff, "Manufacturer Specific" },
	{ 0, NULL }
};

/* The protocols, as nodes that a filter can test (-Y bthci_cmd). */
F(f_bluetooth, "Bluetooth", "bluetooth", DK_LABEL, 0, NULL, 0);
F(f_hci_usb, "Bluetooth HCI USB Transport", "hci_usb", DK_LABEL, 0, NULL, 0);
F(f_cmd, "Bluetooth HCI Command", "bthci_cmd", DK_LABEL, 0, NULL, 0);
F(f_evt, "Bluetooth HCI Event", "bthci_evt", DK_LABEL, 0, NULL, 0);
F(f_acl, "Bluetooth HCI ACL Packet", "bthci_acl", DK_LABEL, 0, NULL, 0);
F(f_sco, "Bluetooth HCI SCO Packet", "bthci_sco", DK_LABEL, 0, NULL, 0);
F(f_l2cap, "Bluetooth L2CAP Protocol", "btl2cap", DK_LABEL, 0, NULL, 0);
F(f_malformed, "Malformed Packet: HCI_USB", "_ws.malformed", DK_LABEL, 0,
    NULL, 0);

/* hci_usb: the request's fields after bmRequestType, what it carries */
F(f_usb_req, "bRequest", "hci_usb.setup.bRequest", DK_UINT, 1,
    hci_usb_requests, 0);
F(f_usb_value, "wValue", "hci_usb.setup.wValue", DK_HEX, 2, NULL, 0);
F(f_usb_adapter, "Adapter ID", "hci_usb.setup.adapter_id", DK_UINT, 2,
    NULL, 0);
F(f_usb_length, "wLength", "hci_usb.setup.wLength", DK_UINT, 2, NULL, 0);
F(f_usb_complete, "Packet Complete", "hci_usb.packet.complete", DK_LABEL,
    0, NULL, 0);
F(f_usb_unknown, "Unknown Packet Fragment",
    "hci_usb.packet.unknown_fragment", DK_LABEL, 0, NULL, 0);
F(f_usb_data, "Unknown Data", "hci_usb.data", DK_LABEL, 0, NULL, 0);
/* the pieces of a reassembled packet (epan/reassemble.c's fragment
 * items: Wireshark's hci_usb names the length "MP2T") */
F(f_usb_frags, "Message fragments", "hci_usb.msg.fragments", DK_LABEL, 0,
    NULL, 0);
F(f_usb_frag, "Frame", "hci_usb.msg.fragment", DK_UINT, 4, NULL, 0);
F(f_usb_fcount, "Message fragment count", "hci_usb.msg.fragment.count",
    DK_UINT, 4, NULL, 0);
F(f_usb_rlen, "Reassembled MP2T length", "hci_usb.msg.reassembled.length",
    DK_UINT, 4, NULL, 0);

/* Commands (Part E 5.4.1) and their parameters. */
F(f_cmd_op, "Command Opcode", "bthci_cmd.opcode", DK_HEX, 2, bt_cmds, 0);
F(f_cmd_ogf, "Opcode Group Field", "bthci_cmd.opcode.ogf", DK_HEX, 2,
    bt_ogfs, 0xfc00);
F(f_cmd_ocf, "Opcode Command Field", "bthci_cmd.opcode.ocf", DK_HEX, 2,
    NULL, 0x03ff);
F(f_cmd_plen, "Parameter Total Length", "bthci_cmd.param_length", DK_UINT,
    1, NULL, 0);
F(f_cmd_params, "Command Parameters", "bthci_cmd.params", DK_BYTES, 0,
    NULL, 0);
F(f_cmd_bdaddr, "BD_ADDR", "bthci_cmd.bd_addr", DK_STRING, 6, NULL, 0);
F(f_cmd_ptype, "Packet Type", "bthci_cmd.packet_type", DK_HEX, 2, NULL, 0);
#define PTYPE(var, abbrev, name, mask)					\
	F(var, name, "bthci_cmd.packet_type." abbrev, DK_BOOL, 2, NULL, mask)
PTYPE(f_pt_dh5, "dh5", "DH5", 0x8000);
PTYPE(f_pt_dm5, "dm5", "DM5", 0x4000);
PTYPE(f_pt_3dh5, "3dh5", "3-DH5", 0x2000);
PTYPE(f_pt_2dh5, "2dh5", "2-DH5", 0x1000);
PTYPE(f_pt_dh3, "dh3", "DH3", 0x0800);
PTYPE(f_pt_dm3, "dm3", "DM3", 0x0400);
PTYPE(f_pt_3dh3, "3dh3", "3-DH3", 0x0200);
PTYPE(f_pt_2dh3, "2dh3", "2-DH3", 0x0100);
F(f_pt_res57, "Reserved", "bthci_cmd.packet_type.reserved.5_7", DK_HEX, 2,
    NULL, 0x00e0);
PTYPE(f_pt_dh1, "dh1", "DH1", 0x0010);
PTYPE(f_pt_dm1, "dm1", "DM1", 0x0008);
PTYPE(f_pt_3dh1, "3dh1", "3-DH1", 0x0004);
PTYPE(f_pt_2dh1, "2dh1", "2-DH1", 0x0002);
PTYPE(f_pt_res0, "reserved.0", "Reserved", 0x0001);
F(f_cmd_psrm, "Page Scan Repetition Mode",
    "bthci_cmd.page_scan_repetition_mode", DK_HEX, 1, page_scan_rep, 0);
F(f_cmd_psm, "Page Scan Mode", "bthci_cmd.page_scan_mode", DK_HEX, 1, NULL,
    0);
F(f_cmd_clock, "Clock Offset", "bthci_cmd.clock_offset", DK_HEX, 2, NULL,
    0x7fff);
F(f_cmd_clock_ok, "Clock_Offset_Valid_Flag", "bthci_cmd.clock_offset_valid",
    DK_UINT, 2, NULL, 0x8000);
F(f_cmd_role, "Allow Role Switch", "bthci_cmd.allow_role_switch", DK_HEX,
    1, NULL, 0);
F(f_cmd_handle, "Connection Handle", "bthci_cmd.connection_handle", DK_HEX,
    2, NULL, 0);
F(f_cmd_reason, "Reason", "bthci_cmd.reason", DK_HEX, 1, bt_status, 0);
/* Setup Synchronous Connection (7.1.26) */
F(f_cmd_txbw, "Tx Bandwidth (bytes/s)", "bthci_cmd.tx_bandwidth", DK_UINT,
    4, NULL, 0);
F(f_cmd_rxbw, "Rx Bandwidth (bytes/s)", "bthci_cmd.rx_bandwidth", DK_UINT,
    4, NULL, 0);
F(f_cmd_latency, "Max. Latency (ms)", "bthci_cmd.max_latency_ms", DK_UINT,
    2, NULL, 0);
F(f_vs_unused, "Unused bits", "bthci_cmd.voice.unused", DK_HEX, 2, NULL,
    0xfc00);
F(f_vs_coding, "Input Coding", "bthci_cmd.voice.input_coding", DK_UINT, 2,
    voice_codings, 0x0300);
F(f_vs_format, "Input Data Format", "bthci_cmd.voice.input_data_format",
    DK_UINT, 2, voice_formats, 0x00c0);
F(f_vs_size, "Input Sample Size", "bthci_cmd.voice.input_sample_size",
    DK_UINT, 2, voice_sizes, 0x0020);
F(f_vs_pcm, "Linear PCM Bit Position",
    "bthci_cmd.voice.linear_pcm_bit_pos", DK_UINT, 2, NULL, 0x001c);
F(f_vs_air, "Air Coding Format", "bthci_cmd.voice.air_coding_format",
    DK_UINT, 2, air_codings, 0x0003);
F(f_cmd_rtx, "Retransmission Effort", "bthci_cmd.retransmission_effort",
    DK_UINT, 1, rtx_efforts, 0);
F(f_cmd_sco_pt, "Packet Type", "bthci_cmd.sco_packet_type", DK_HEX, 2,
    NULL, 0);
#define SCOPT(var, abbrev, name, mask)					\
	F(var, name, "bthci_cmd.sco_packet_type." abbrev, DK_BOOL, 2, NULL, \
	    mask)
F(f_spt_res, "Reserved", "bthci_cmd.sco_packet_type.reserved", DK_HEX, 2,
    NULL, 0xfc00);
SCOPT(f_spt_3ev5, "3ev5", "3-EV5 may NOT be used", 0x0200);
SCOPT(f_spt_2ev5, "2ev5", "2-EV5 may NOT be used", 0x0100);
SCOPT(f_spt_3ev3, "3ev3", "3-EV3 may NOT be used", 0x0080);
SCOPT(f_spt_2ev3, "2ev3", "2-EV3 may NOT be used", 0x0040);
SCOPT(f_spt_ev5, "ev5", "EV5 may be used", 0x0020);
SCOPT(f_spt_ev4, "ev4", "EV4 may be used", 0x0010);
SCOPT(f_spt_ev3, "ev3", "EV3 may be used", 0x0008);
SCOPT(f_spt_hv3, "hv3", "HV3 may be used", 0x0004);
SCOPT(f_spt_hv2, "hv2", "HV2 may be used", 0x0002);
SCOPT(f_spt_hv1, "hv1", "HV1 may be used", 0x0001);
F(f_cmd_scan_type, "Scan Type", "bthci_cmd.le_scan_type", DK_HEX, 1,
    scan_types, 0);
F(f_cmd_scan_int, "Scan Interval", "bthci_cmd.le_scan_interval", DK_UINT,
    2, NULL, 0);
F(f_cmd_scan_win, "Scan Window", "bthci_cmd.le_scan_window", DK_UINT, 2,
    NULL, 0);
F(f_cmd_own_addr, "Own Address Type", "bthci_cmd.le_own_address_type",
    DK_HEX, 1, le_addr_types, 0);
F(f_cmd_scan_filter, "Scan Filter Policy", "bthci_cmd.le_scan_filter_policy",
    DK_HEX, 1, NULL, 0);
F(f_cmd_scan_on, "Scan Enable", "bthci_cmd.le_scan_enable", DK_HEX, 1,
    enables, 0);
F(f_cmd_dups, "Filter Duplicates", "bthci_cmd.le_filter_duplicates",
    DK_HEX, 1, enables, 0);

/* Events (Part E 5.4.4) and their parameters. */
F(f_evt_code, "Event Code", "bthci_evt.code", DK_HEX, 1, bt_events, 0);
F(f_evt_plen, "Parameter Total Length", "bthci_evt.param_length", DK_UINT,
    1, NULL, 0);
F(f_evt_ncmd, "Number of Allowed Command Packets",
    "bthci_evt.num_command_packets", DK_UINT, 1, NULL, 0);
F(f_evt_op, "Command Opcode", "bthci_evt.opcode", DK_HEX, 2, bt_cmds, 0);
F(f_evt_ogf, "Opcode Group Field", "bthci_evt.opcode.ogf", DK_HEX, 2,
    bt_ogfs, 0xfc00);
F(f_evt_ocf, "Opcode Command Field", "bthci_evt.opcode.ocf", DK_HEX, 2,
    NULL, 0x03ff);
F(f_evt_status, "Status", "bthci_evt.status", DK_HEX, 1, bt_status, 0);
F(f_evt_params, "Event Parameter", "bthci_evt.params", DK_BYTES, 0, NULL,
    0);
/* (Wireshark registers the HCI revision under the version's name.) */
F(f_evt_hci_ver, "HCI Version", "bthci_evt.hci_vers_nr", DK_HEX, 1,
    bt_versions, 0);
F(f_evt_hci_rev, "HCI Revision", "bthci_evt.hci_vers_nr", DK_UINT, 2, NULL,
    0);
F(f_evt_lmp_ver, "LMP Version", "bthci_evt.lmp_vers_nr", DK_HEX, 1,
    bt_versions, 0);
F(f_evt_comp, "Manufacturer Name", "bthci_evt.comp_id", DK_HEX, 2,
    bt_companies, 0);
F(f_evt_lmp_sub, "LMP Subversion", "bthci_evt.lmp_sub_vers_nr", DK_UINT, 2,
    NULL, 0);
F(f_evt_bdaddr, "BD_ADDR", "bthci_evt.bd_addr", DK_STRING, 6, NULL, 0);
F(f_evt_acl_len, "Host ACL Data Packet Length (bytes)",
    "bthci_evt.max_data_length_acl", DK_UINT, 2, NULL, 0);
F(f_evt_sco_len, "Host SCO Data Packet Length (bytes)",
    "bthci_evt.max_data_length_sco", DK_UINT, 1, NULL, 0);
F(f_evt_acl_num, "Host Total Num ACL Data Packets",
    "bthci_evt.max_data_num_acl", DK_UINT, 2, NULL, 0);
F(f_evt_sco_num, "Host Total Num SCO Data Packets",
    "bthci_evt.max_data_num_sco", DK_UINT, 2, NULL, 0);
F(f_evt_handle, "Connection Handle", "bthci_evt.connection_handle", DK_HEX,
    2, NULL, 0);
F(f_evt_link, "Link Type", "bthci_evt.link_type", DK_HEX, 1, link_types,
    0);
F(f_evt_enc, "Encryption Mode", "bthci_evt.encryption_mode", DK_HEX, 1,
    enc_modes, 0);
F(f_evt_reason, "Reason", "bthci_evt.reason", DK_HEX, 1, bt_status, 0);
/* Synchronous Connection Complete (7.7.35) */
F(f_evt_slink, "Link Type", "bthci_evt.sync_link_type", DK_HEX, 1,
    sync_link_types, 0);
F(f_evt_stx_int, "Transmit Interval", "bthci_evt.sync_tx_interval",
    DK_UINT, 1, NULL, 0);
F(f_evt_srtx_win, "Retransmit Window", "bthci_evt.sync_rtx_window",
    DK_UINT, 1, NULL, 0);
F(f_evt_srx_len, "Rx Packet Length", "bthci_evt.sync_rx_pkt_len", DK_UINT,
    2, NULL, 0);
F(f_evt_stx_len, "Tx Packet Length", "bthci_evt.sync_tx_pkt_len", DK_UINT,
    2, NULL, 0);
F(f_evt_air, "Air Mode", "bthci_evt.air_mode", DK_UINT, 1, air_modes, 0);
F(f_evt_sub, "Sub Event", "bthci_evt.le_meta_subevent", DK_HEX, 1,
    le_subevents, 0);
F(f_evt_nrep, "Num Reports", "bthci_evt.le_num_reports", DK_UINT, 1, NULL,
    0);
F(f_evt_adv_type, "Event Type", "bthci_evt.le_advts_event_type", DK_HEX, 1,
    le_adv_types, 0);
F(f_evt_peer_type, "Peer Address Type", "bthci_evt.le_peer_address_type",
    DK_HEX, 1, le_addr_types, 0);
F(f_evt_dlen, "Data Length", "bthci_evt.data_length", DK_UINT, 1, NULL, 0);
F(f_evt_rssi, "RSSI", "bthci_evt.rssi", DK_INT, 1, NULL, 0);
/* what Wireshark's bthci_evt links an event to (bthci_cmd_data_t) */
F(f_evt_cmd_in, "Command in frame", "bthci_evt.command_in_frame", DK_UINT,
    4, NULL, 0);
F(f_evt_pend_in, "Pending in frame", "bthci_evt.pending_in_frame", DK_UINT,
    4, NULL, 0);
F(f_evt_d_resp, "Command-Response Delta",
    "bthci_evt.command_response_delta", DK_MSEC, 8, NULL, 0);
F(f_evt_d_pend, "Command-Pending Delta", "bthci_evt.command_pending_delta",
    DK_MSEC, 8, NULL, 0);
F(f_evt_d_pend_resp, "Pending-Response Delta",
    "bthci_evt.pending_response_delta", DK_MSEC, 8, NULL, 0);

/* Advertising data (Core Specification Supplement Part A 1). */
F(f_ad, "Advertising Data", "btcommon.eir_ad.advertising_data", DK_LABEL,
    0, NULL, 0);
F(f_ad_entry, "Entry", "btcommon.eir_ad.entry", DK_LABEL, 0, NULL, 0);
F(f_ad_len, "Length", "btcommon.eir_ad.entry.length", DK_UINT, 1, NULL, 0);
F(f_ad_type, "Type", "btcommon.eir_ad.entry.type", DK_HEX, 1, ad_types, 0);
F(f_ad_name, "Device Name", "btcommon.eir_ad.entry.device_name", DK_STRING,
    0, NULL, 0);
F(f_ad_data, "Data", "btcommon.eir_ad.entry.data", DK_BYTES, 0, NULL, 0);
#define ADFLAG(var, abbrev, name, mask)					\
	F(var, name, "btcommon.eir_ad.entry.flags." abbrev, DK_HEX, 1, NULL, \
	    mask)
ADFLAG(f_adf_res, "reserved", "Reserved", 0xe0);
ADFLAG(f_adf_host, "le_bredr_support_host",
    "Simultaneous LE and BR/EDR to Same Device Capable (Host)", 0x10);
ADFLAG(f_adf_ctrl, "le_bredr_support_controller",
    "Simultaneous LE and BR/EDR to Same Device Capable (Controller)", 0x08);
ADFLAG(f_adf_nobredr, "bredr_not_supported", "BR/EDR Not Supported", 0x04);
ADFLAG(f_adf_general, "le_general_discoverable_mode",
    "LE General Discoverable Mode", 0x02);
ADFLAG(f_adf_limited, "le_limited_discoverable_mode",
    "LE Limited Discoverable Mode", 0x01);

/* ACL and SCO data (Part E 5.4.2, 5.4.3). */
F(f_acl_handle, "Connection Handle", "bthci_acl.chandle", DK_HEX, 2, NULL,
    0x0fff);
F(f_acl_pb, "PB Flag", "bthci_acl.pb_flag", DK_UINT, 2, pb_flags, 0x3000);
F(f_acl_bc, "BC Flag", "bthci_acl.bc_flag", DK_UINT, 2, bc_flags, 0xc000);
F(f_acl_len, "Data Total Length", "bthci_acl.length", DK_UINT, 2, NULL, 0);
F(f_acl_data, "Data", "bthci_acl.data", DK_LABEL, 0, NULL, 0);
/* what bthci_acl shows of the connection (packet-bthci_acl.c) */
F(f_acl_conn_in, "Connect in frame", "bthci_acl.connect_in", DK_UINT, 4,
    NULL, 0);
F(f_acl_src_addr, "Source BD_ADDR", "bthci_acl.src.bd_addr", DK_STRING, 6,
    NULL, 0);
F(f_acl_src_name, "Source Device Name", "bthci_acl.src.name", DK_STRING, 0,
    NULL, 0);
F(f_acl_src_role, "Source Role", "bthci_acl.src.role", DK_UINT, 4,
    acl_roles, 0);
F(f_acl_dst_addr, "Destination BD_ADDR", "bthci_acl.dst.bd_addr", DK_STRING,
    6, NULL, 0);
F(f_acl_dst_name, "Destination Device Name", "bthci_acl.dst.name",
    DK_STRING, 0, NULL, 0);
F(f_acl_dst_role, "Destination Role", "bthci_acl.dst.role", DK_UINT, 4,
    acl_roles, 0);
F(f_acl_role_in, "Last Role Change in Frame",
    "bthci_acl.last_change_in_frame.role", DK_UINT, 4, NULL, 0);
F(f_acl_mode, "Current Mode", "bthci_acl.mode", DK_INT, 4, acl_modes, 0);
F(f_acl_mode_in, "Last Mode Change in Frame",
    "bthci_acl.last_change_in_frame.mode", DK_UINT, 4, NULL, 0);
F(f_sco_handle, "Connection Handle", "bthci_sco.chandle", DK_HEX, 2, NULL,
    0x0fff);
F(f_sco_status, "Packet Status", "bthci_sco.packet_status", DK_UINT, 2,
    NULL, 0x3000);
F(f_sco_res, "Reserved", "bthci_sco.reserved", DK_UINT, 2, NULL, 0xc000);
F(f_sco_len, "Data Total Length", "bthci_sco.length", DK_UINT, 1, NULL, 0);
F(f_sco_data, "Data", "bthci_sco.data", DK_LABEL, 0, NULL, 0);

/* L2CAP: the basic header (Vol 3 Part A 3.1) and signalling (4). */
F(f_l2_len, "Length", "btl2cap.length", DK_UINT, 2, NULL, 0);
/* CIDs from 0x0040 on: Wireshark's "Dynamically Allocated Channel" */
F(f_l2_cid_dyn, "CID (Dynamically Allocated Channel)", "btl2cap.cid", DK_HEX,
    2, NULL, 0);
F(f_l2_cid, "CID", "btl2cap.cid", DK_HEX, 2, l2_cids, 0);
F(f_l2_payload, "Payload", "btl2cap.payload", DK_BYTES, 0, NULL, 0);
F(f_l2_command, "Command", "btl2cap.command", DK_LABEL, 0, NULL, 0);
F(f_l2_code, "Command Code", "btl2cap.cmd_code", DK_HEX, 1, l2_codes, 0);
F(f_l2_ident, "Command Identifier", "btl2cap.cmd_ident", DK_HEX, 1, NULL,
    0);
F(f_l2_clen, "Command Length", "btl2cap.cmd_length", DK_UINT, 2, NULL, 0);
F(f_l2_cdata, "Command Data", "btl2cap.cmd_data", DK_BYTES, 0, NULL, 0);
F(f_l2_data, "Data", "btl2cap.data", DK_BYTES, 0, NULL, 0);	/* echo */
/* a PSM from 0x1000 on (BTL2CAP_DYNAMIC_PSM_START) */
F(f_l2_psm_dyn, "Dynamic PSM", "btl2cap.psm", DK_HEX, 2, NULL, 0);
F(f_l2_psm, "PSM", "btl2cap.psm", DK_HEX, 2, l2_psms, 0);
F(f_l2_conn_in, "Connect in frame", "btl2cap.connect_in", DK_UINT, 4, NULL,
    0);
F(f_l2_disc_in, "Disconnect in frame", "btl2cap.disconnect_in", DK_UINT, 4,
    NULL, 0);
F(f_l2_malformed, "Malformed Packet: BT L2CAP", "_ws.malformed", DK_LABEL,
    0, NULL, 0);
F(f_l2_scid, "Source CID", "btl2cap.scid", DK_HEX, 2, NULL, 0);
F(f_l2_dcid, "Destination CID", "btl2cap.dcid", DK_HEX, 2, NULL, 0);
F(f_l2_result, "Result", "btl2cap.result", DK_HEX, 2, l2_conn_results, 0);
F(f_l2_status, "Status", "btl2cap.status", DK_HEX, 2, l2_conn_status, 0);
F(f_l2_flags_res, "Reserved", "btl2cap.flags.reserved", DK_HEX, 2, NULL,
    0xfffe);
F(f_l2_flags_cont, "Continuation Flag", "btl2cap.flags.continuation",
    DK_BOOL, 2, NULL, 0x0001);
F(f_l2_conf_result, "Result", "btl2cap.conf_result", DK_HEX, 2,
    l2_conf_results, 0);
F(f_l2_option, "Option", "btl2cap.conf_param_option", DK_LABEL, 0, NULL,
    0);
F(f_l2_opt_type, "Type", "btl2cap.option_type", DK_HEX, 1, l2_option_types, 0);
F(f_l2_opt_len, "Length", "btl2cap.option_length", DK_UINT, 1, NULL, 0);
F(f_l2_opt_mtu, "MTU", "btl2cap.option_mtu", DK_UINT, 2, NULL, 0);
F(f_l2_opt_flush, "Flush Timeout (ms)", "btl2cap.option_flushto", DK_UINT,
    2, NULL, 0);
F(f_l2_info_type, "Information Type", "btl2cap.info_type", DK_HEX, 2,
    l2_info_types, 0);
F(f_l2_info_result, "Result", "btl2cap.info_result", DK_HEX, 2,
    l2_info_results, 0);
F(f_l2_info_mtu, "Remote Entity MTU", "btl2cap.info_mtu", DK_UINT, 2, NULL,
    0);
F(f_l2_ext, "Extended Features", "btl2cap.info_extfeatures", DK_LABEL, 0,
    NULL, 0);
#define EXTF(var, abbrev, name, mask)					\
	F(var, name, "btl2cap.info_" abbrev, DK_UINT, 4, NULL, mask)
EXTF(f_ext_flow, "flowcontrol", "Flow Control Mode", 0x001);
EXTF(f_ext_retr, "retransmission", "Retransmission Mode", 0x002);
EXTF(f_ext_qos, "bidirqos", "Bi-Directional QOS", 0x004);
EXTF(f_ext_eretr, "enh_retransmission", "Enhanced Retransmission Mode",
    0x008);
EXTF(f_ext_stream, "streaming", "Streaming Mode", 0x010);
EXTF(f_ext_fcs, "fcs", "FCS", 0x020);
EXTF(f_ext_fspec, "flow_spec", "Extended Flow Specification for BR/EDR",
    0x040);
EXTF(f_ext_fixed, "fixedchan", "Fixed Channels", 0x080);
EXTF(f_ext_window, "window", "Extended Window Size", 0x100);
EXTF(f_ext_unicast, "unicast", "Unicast Connectionless Data Reception",
    0x200);

static const struct dec_field *const opcode_bits[] = {
	&f_cmd_ogf, &f_cmd_ocf, NULL
};
static const struct dec_field *const evt_opcode_bits[] = {
	&f_evt_ogf, &f_evt_ocf, NULL
};
static const struct dec_field *const ptype_bits[] = {
	&f_pt_dh5, &f_pt_dm5, &f_pt_3dh5, &f_pt_2dh5, &f_pt_dh3, &f_pt_dm3,
	&f_pt_3dh3, &f_pt_2dh3, &f_pt_res57, &f_pt_dh1, &f_pt_dm1,
	&f_pt_3dh1, &f_pt_2dh1, &f_pt_res0, NULL
};
static const struct dec_field *const voice_bits[] = {
	&f_vs_unused, &f_vs_coding, &f_vs_format, &f_vs_size, &f_vs_pcm,
	&f_vs_air, NULL
};
static const struct dec_field *const sco_pt_bits[] = {
	&f_spt_res, &f_spt_3ev5, &f_spt_2ev5, &f_spt_3ev3, &f_spt_2ev3,
	&f_spt_ev5, &f_spt_ev4, &f_spt_ev3, &f_spt_hv3, &f_spt_hv2,
	&f_spt_hv1, NULL
};
static const struct dec_field *const clock_bits[] = {
	&f_cmd_clock_ok, NULL
};
static const struct dec_field *const acl_bits[] = {
	&f_acl_handle, &f_acl_pb, &f_acl_bc, NULL
};
static const struct dec_field *const sco_bits[] = {
	&f_sco_handle, &f_sco_status, &f_sco_res, NULL
};
static const struct dec_field *const ad_flag_bits[] = {
	&f_adf_res, &f_adf_host, &f_adf_ctrl, &f_adf_nobredr, &f_adf_general,
	&f_adf_limited, NULL
};
static const struct dec_field *const ext_bits[] = {
	&f_ext_flow, &f_ext_retr, &f_ext_qos, &f_ext_eretr, &f_ext_stream,
	&f_ext_fcs, &f_ext_fspec, &f_ext_fixed, &f_ext_window, &f_ext_unicast,
	NULL
};

/* A BD_ADDR (6 bytes, least significant first) as Wireshark's FT_ETHER
 * prints it: "00:1b:dc:12:34:56". */
static void
bdaddr(struct dec_cur *c, const struct dec_field *f, size_t off)
{
	const uint8_t	*a = c->p + off;
	struct dec_node	*n;

	if (c->cut)
		return;
	if (off + 6 > c->n) {
		dec_cur_field(c, f, off, 6, NULL);	/* flagged cut */
		return;
	}
	n = dec_tree_add(c->t, f, DB_DATA, c->base + (uint32_t)off, 6, 0);
	if (n != NULL) {
		n->str = dec_tree_printf(c->t,
		    "%02x:%02x:%02x:%02x:%02x:%02x", a[5], a[4], a[3], a[2],
		    a[1], a[0]);
		n->flags |= DN_PLAIN;
	}
}

/* A protocol's node (at the tree's depth) and one level below it. */
static void
proto_push(struct dec_tree *t, const struct dec_field *f, uint32_t off,
    uint32_t len, const char *what)
{
	struct dec_node	*n;

	n = dec_tree_add(t, f, DB_DATA, off, len, 0);
	if (n != NULL && what != NULL)
		n->str = dec_tree_printf(t, "%s - %s", f->name, what);
	t->depth++;
}

static const char *
name_or(const struct dec_name *tab, uint32_t v, char *tmp)
{
	return dec_name_or(tab, v, tmp);
}

/* ------------------------------------------------------------------------
 * Commands (Part E 7).
 */
static void
cmd_params(struct dec_cur *c, uint16_t op)
{
	static const struct dec_cur_row create[] = {
		{ 9, 2, &f_cmd_ptype, ptype_bits },
		{ 11, 1, &f_cmd_psrm, NULL }, { 12, 1, &f_cmd_psm, NULL },
		{ 13, 2, &f_cmd_clock, clock_bits },
		{ 15, 1, &f_cmd_role, NULL },
	}, disc[] = {
		{ 3, 2, &f_cmd_handle, NULL }, { 5, 1, &f_cmd_reason, NULL },
	}, scan_param[] = {
		{ 3, 1, &f_cmd_scan_type, NULL },
		{ 4, 2, &f_cmd_scan_int, NULL }, { 6, 2, &f_cmd_scan_win, NULL },
		{ 8, 1, &f_cmd_own_addr, NULL },
		{ 9, 1, &f_cmd_scan_filter, NULL },
	}, scan_on[] = {
		{ 3, 1, &f_cmd_scan_on, NULL }, { 4, 1, &f_cmd_dups, NULL },
	}, sync[] = {
		{ 3, 2, &f_cmd_handle, NULL }, { 5, 4, &f_cmd_txbw, NULL },
		{ 9, 4, &f_cmd_rxbw, NULL }, { 13, 2, &f_cmd_latency, NULL },
	}, sync_tail[] = {
		{ 17, 1, &f_cmd_rtx, NULL }, { 18, 2, &f_cmd_sco_pt, sco_pt_bits },
	};

	switch (op) {
	case 0x0405:
		bdaddr(c, &f_cmd_bdaddr, 3);
		dec_cur_rows(c, create, nitems(create));
		break;
	case 0x0406:
		dec_cur_rows(c, disc, nitems(disc));
		break;
	case 0x0428:
		/* the voice setting's bits at the command's level, as
		 * packet-bthci_cmd.c adds them */
		dec_cur_rows(c, sync, nitems(sync));
		if (!c->cut && c->n >= 17) {
			c->t->depth--;
			dec_cls_bits(c->t, voice_bits, c->base + 15, 2,
			    get_le16(c->p + 15));
			c->t->depth++;
			dec_cur_rows(c, sync_tail, nitems(sync_tail));
		}
		break;
	case 0x200b:
		dec_cur_rows(c, scan_param, nitems(scan_param));
		break;
	case 0x200c:
		dec_cur_rows(c, scan_on, nitems(scan_on));
		break;
	case 0x0c03:
	case 0x1001:
	case 0x1005:
	case 0x1009:
		break;		/* no parameters */
	default:
		dec_cur_rest(c, &f_cmd_params, 3);
		break;
	}
}

static void
cmd_tree(const uint8_t *p, size_t n, uint32_t base, struct dec_tree *t)
{
	struct dec_cur	 c = { t, p, n, base, 0 };
	char		 tmp[24];
	uint16_t	 op = n >= 2 ? get_le16(p) : 0xffff;

	proto_push(t, &f_cmd, base, (uint32_t)n,
	    n >= 2 ? name_or(bt_cmds, op, tmp) : NULL);
	dec_cur_word(&c, &f_cmd_op, opcode_bits, 0, 2, NULL);
	dec_cur_field(&c, &f_cmd_plen, 2, 1, NULL);
	if (!c.cut)
		cmd_params(&c, op);
	t->depth--;
}

/* ------------------------------------------------------------------------
 * Events (Part E 7.7).
 */

/* Command Complete's return parameters after the status (at off). */
static void
evt_returns(struct dec_cur *c, uint16_t op, size_t off)
{
	static const struct dec_cur_row version[] = {
		{ 0, 1, &f_evt_hci_ver, NULL }, { 1, 2, &f_evt_hci_rev, NULL },
		{ 3, 1, &f_evt_lmp_ver, NULL }, { 4, 2, &f_evt_comp, NULL },
		{ 6, 2, &f_evt_lmp_sub, NULL },
	}, buffers[] = {
		{ 0, 2, &f_evt_acl_len, NULL }, { 2, 1, &f_evt_sco_len, NULL },
		{ 3, 2, &f_evt_acl_num, NULL }, { 5, 2, &f_evt_sco_num, NULL },
	};
	struct dec_cur	 r = *c;

	/* the rows are relative to the first return parameter */
	r.p += off;
	r.n = r.n > off ? r.n - off : 0;
	r.base += (uint32_t)off;
	switch (op) {
	case 0x1001:
		dec_cur_rows(&r, version, nitems(version));
		break;
	case 0x1005:
		dec_cur_rows(&r, buffers, nitems(buffers));
		break;
	case 0x1009:
		bdaddr(&r, &f_evt_bdaddr, 0);
		break;
	default:
		dec_cur_rest(&r, &f_evt_params, 0);
		break;
	}
	c->cut |= r.cut;
}

/* One AD structure after another (CSS Part A 1.3 flags, 1.2 name). */
static void
adv_data(struct dec_cur *c, size_t off, size_t len)
{
	struct dec_tree	*t = c->t;
	struct dec_node	*n;
	size_t		 end = off + len, l;
	uint8_t		 type;
	char		 tmp[24];

	if (end > c->n)
		end = c->n;
	if (off >= end)
		return;
	dec_tree_add(t, &f_ad, DB_DATA, c->base + (uint32_t)off,
	    (uint32_t)(end - off), 0);
	t->depth++;
	while (off < end && c->p[off] != 0) {
		l = c->p[off];
		type = off + 1 < end ? c->p[off + 1] : 0;
		n = dec_tree_add(t, &f_ad_entry, DB_DATA, c->base +
		    (uint32_t)off, (uint32_t)(off + 1 + l <= end ? l + 1 :
		    end - off), 0);
		if (n != NULL)
			n->str = (type == 0x08 || type == 0x09) &&
			    off + 1 + l <= end ? dec_tree_printf(t, "%s: %.*s",
			    name_or(ad_types, type, tmp), (int)(l - 1),
			    (const char *)c->p + off + 2) :
			    dec_tree_strdup(t, name_or(ad_types, type, tmp),
			    strlen(name_or(ad_types, type, tmp)));
		t->depth++;
		dec_cur_field(c, &f_ad_len, off, 1, NULL);
		if (l > 0)
			dec_cur_field(c, &f_ad_type, off + 1, 1, NULL);
		if (c->cut || off + 1 + l > end) {
			t->depth--;
			break;
		}
		if (type == 0x01 && l >= 2) {
			/* the flags' bits, beside the length and type */
			t->depth--;
			dec_cls_bits(t, ad_flag_bits, c->base + (uint32_t)off +
			    2, 1, c->p[off + 2]);
			t->depth++;
		} else if ((type == 0x08 || type == 0x09) && l >= 1) {
			n = dec_tree_add(t, &f_ad_name, DB_DATA, c->base +
			    (uint32_t)off + 2, (uint32_t)l - 1, 0);
			if (n != NULL)
				n->str = dec_tree_strdup(t,
				    (const char *)c->p + off + 2, l - 1);
		} else if (l >= 2)
			dec_tree_add(t, &f_ad_data, DB_DATA, c->base +
			    (uint32_t)off + 2, (uint32_t)l - 1, 0);
		t->depth--;
		off += 1 + l;
	}
	t->depth--;
}

static void
evt_le_meta(struct dec_cur *c, size_t plen)
{
	uint32_t	 sub, nrep = 0, dlen, i;
	size_t		 off;
	struct dec_node	*n;

	if (!dec_cur_field(c, &f_evt_sub, 2, 1, &sub))
		return;
	if (sub != 0x02) {
		dec_cur_rest(c, &f_evt_params, 3);
		return;
	}
	dec_cur_field(c, &f_evt_nrep, 3, 1, &nrep);
	/* Wireshark reads the reports one after another */
	for (off = 4, i = 0; i < nrep && !c->cut && off < 2 + plen; i++) {
		dec_cur_field(c, &f_evt_adv_type, off, 1, NULL);
		dec_cur_field(c, &f_evt_peer_type, off + 1, 1, NULL);
		bdaddr(c, &f_evt_bdaddr, off + 2);
		if (!dec_cur_field(c, &f_evt_dlen, off + 8, 1, &dlen))
			return;
		adv_data(c, off + 9, dlen);
		off += 9 + dlen;
		if (off >= c->n) {
			dec_cur_field(c, &f_evt_rssi, off, 1, NULL);
			return;
		}
		n = dec_tree_add(c->t, &f_evt_rssi, DB_DATA, c->base +
		    (uint32_t)off, 1, (uint64_t)(int64_t)(int8_t)c->p[off]);
		(void)n;
		off++;
	}
}

static void
evt_tree(const uint8_t *p, size_t n, uint32_t base, struct dec_tree *t)
{
	static const struct dec_cur_row conn[] = {
		{ 2, 1, &f_evt_status, NULL }, { 3, 2, &f_evt_handle, NULL },
	}, conn_tail[] = {
		{ 11, 1, &f_evt_link, NULL }, { 12, 1, &f_evt_enc, NULL },
	}, disc[] = {
		{ 2, 1, &f_evt_status, NULL }, { 3, 2, &f_evt_handle, NULL },
		{ 5, 1, &f_evt_reason, NULL },
	}, sync_tail[] = {
		{ 11, 1, &f_evt_slink, NULL }, { 12, 1, &f_evt_stx_int, NULL },
		{ 13, 1, &f_evt_srtx_win, NULL },
		{ 14, 2, &f_evt_srx_len, NULL },
		{ 16, 2, &f_evt_stx_len, NULL }, { 18, 1, &f_evt_air, NULL },
	};
	struct dec_cur	 c = { t, p, n, base, 0 };
	char		 tmp[24];
	uint32_t	 code = n >= 1 ? p[0] : 0, plen = 0, op;

	proto_push(t, &f_evt, base, (uint32_t)n,
	    n >= 1 ? name_or(bt_events, code, tmp) : NULL);
	dec_cur_field(&c, &f_evt_code, 0, 1, NULL);
	dec_cur_field(&c, &f_evt_plen, 1, 1, &plen);
	switch (c.cut ? 0x100 : code) {
	case 0x0e:			/* Command Complete (7.7.14) */
		dec_cur_field(&c, &f_evt_ncmd, 2, 1, NULL);
		if (!dec_cur_word(&c, &f_evt_op, evt_opcode_bits, 3, 2, &op))
			break;
		if (plen > 3 && dec_cur_field(&c, &f_evt_status, 5, 1, NULL))
			evt_returns(&c, (uint16_t)op, 6);
		break;
	case 0x0f:			/* Command Status (7.7.15) */
		dec_cur_field(&c, &f_evt_status, 2, 1, NULL);
		dec_cur_field(&c, &f_evt_ncmd, 3, 1, NULL);
		dec_cur_word(&c, &f_evt_op, evt_opcode_bits, 4, 2, NULL);
		break;
	case 0x03:			/* Connection Complete (7.7.3) */
		dec_cur_rows(&c, conn, nitems(conn));
		bdaddr(&c, &f_evt_bdaddr, 5);
		dec_cur_rows(&c, conn_tail, nitems(conn_tail));
		break;
	case 0x05:			/* Disconnection Complete (7.7.5) */
		dec_cur_rows(&c, disc, nitems(disc));
		break;
	case 0x2c:			/* Sync. Connection Complete (7.7.35) */
		dec_cur_rows(&c, conn, nitems(conn));
		bdaddr(&c, &f_evt_bdaddr, 5);
		dec_cur_rows(&c, sync_tail, nitems(sync_tail));
		break;
	case 0x3e:			/* LE Meta (7.7.65) */
		evt_le_meta(&c, plen);
		break;
	case 0x100:
		break;
	default:
		dec_cur_rest(&c, &f_evt_params, 2);
		break;
	}
	t->depth--;
}

/* ------------------------------------------------------------------------
 * L2CAP (Vol 3 Part A).
 */

/* Configuration options (5) from off to end. */
static void
l2_options(struct dec_cur *c, size_t off, size_t end)
{
	struct dec_tree	*t = c->t;
	struct dec_node	*n;
	uint8_t		 type, len;

	while (off + 2 <= end && !c->cut) {
		type = c->p[off];
		len = c->p[off + 1];
		n = dec_tree_add(t, &f_l2_option, DB_DATA, c->base +
		    (uint32_t)off, (uint32_t)(off + 2 + len <= end ? 2 + (size_t)len :
		    end - off), 0);
		if (n != NULL)
			n->str = dec_tree_printf(t, "Option: %s",
			    (type & 0x7f) == 0x01 ? "MTU" :
			    (type & 0x7f) == 0x02 ? "Flush Timeout" :
			    "Unknown");
		t->depth++;
		dec_cur_field(c, &f_l2_opt_type, off, 1, NULL);
		dec_cur_field(c, &f_l2_opt_len, off + 1, 1, NULL);
		if ((type & 0x7f) == 0x01 && len == 2)
			dec_cur_field(c, &f_l2_opt_mtu, off + 2, 2, NULL);
		else if ((type & 0x7f) == 0x02 && len == 2)
			dec_cur_field(c, &f_l2_opt_flush, off + 2, 2, NULL);
		t->depth--;
		off += 2 + (size_t)len;
	}
}

/* Information Response's data (4.11). */
static void
l2_info(struct dec_cur *c, size_t off, uint32_t type, uint32_t result)
{
	if (result != 0)
		return;
	if (type == 0x0001)
		dec_cur_field(c, &f_l2_info_mtu, off, 2, NULL);
	else if (type == 0x0002 && off + 4 <= c->n) {
		dec_tree_add(c->t, &f_l2_ext, DB_DATA, c->base + (uint32_t)off,
		    4, 0);
		dec_cls_bits(c->t, ext_bits, c->base + (uint32_t)off, 4,
		    get_le32(c->p + off));
	} else
		dec_cur_rest(c, &f_l2_cdata, off);
}

/* One signalling command at off; its length or 0 to stop. */
static size_t
l2_command(struct dec_cur *c, size_t off)
{
	static const struct dec_cur_row conn_req[] = {
		{ 4, 2, &f_l2_psm, NULL }, { 6, 2, &f_l2_scid, NULL },
	}, conn_req_dyn[] = {
		{ 4, 2, &f_l2_psm_dyn, NULL }, { 6, 2, &f_l2_scid, NULL },
	}, conn_rsp[] = {
		{ 4, 2, &f_l2_dcid, NULL }, { 6, 2, &f_l2_scid, NULL },
		{ 8, 2, &f_l2_result, NULL }, { 10, 2, &f_l2_status, NULL },
	}, conf_req[] = {
		{ 4, 2, &f_l2_dcid, NULL }, { 6, 2, &f_l2_flags_res, NULL },
	}, conf_rsp[] = {
		{ 4, 2, &f_l2_scid, NULL }, { 6, 2, &f_l2_flags_res, NULL },
	}, disc[] = {
		{ 4, 2, &f_l2_dcid, NULL }, { 6, 2, &f_l2_scid, NULL },
	};
	struct dec_tree	*t = c->t;
	struct dec_cur	 s = *c;
	struct dec_node	*n;
	uint32_t	 code, len, type = 0, result = 0;
	char		 tmp[24];

	if (off + 4 > c->n) {
		/* its header cut: what Wireshark reads before it throws */
		n = dec_tree_add(t, &f_l2_command, DB_DATA, c->base +
		    (uint32_t)off, (uint32_t)(c->n - off), 0);
		if (n != NULL)
			n->str = dec_tree_printf(t, "Command: %s",
			    name_or(l2_codes, c->p[off], tmp));
		t->depth++;
		s.p += off;
		s.n = c->n - off;
		s.base += (uint32_t)off;
		dec_cur_field(&s, &f_l2_code, 0, 1, NULL);
		if (s.n >= 2)
			dec_cur_field(&s, &f_l2_ident, 1, 1, NULL);
		t->depth--;
		return 0;
	}
	code = c->p[off];
	len = get_le16(c->p + off + 2);
	n = dec_tree_add(t, &f_l2_command, DB_DATA, c->base + (uint32_t)off,
	    (uint32_t)(off + 4 + len <= c->n ? 4 + len : c->n - off), 0);
	if (n != NULL)
		n->str = dec_tree_printf(t, "Command: %s",
		    name_or(l2_codes, code, tmp));
	t->depth++;
	s.p += off;
	s.n = off + 4 + len <= c->n ? 4 + len : c->n - off;
	s.base += (uint32_t)off;
	dec_cur_field(&s, &f_l2_code, 0, 1, NULL);
	dec_cur_field(&s, &f_l2_ident, 1, 1, NULL);
	dec_cur_field(&s, &f_l2_clen, 2, 2, NULL);
	switch (code) {
	case 0x02:
		dec_cur_rows(&s, s.n >= 6 && get_le16(s.p + 4) >= 0x1000 ?
		    conn_req_dyn : conn_req, nitems(conn_req));
		break;
	case 0x03:
		dec_cur_rows(&s, conn_rsp, nitems(conn_rsp));
		break;
	case 0x04:
	case 0x05:
		/* the flags' two fields are bits of one word */
		dec_cur_rows(&s, code == 0x04 ? conf_req : conf_rsp, 1);
		if (dec_cur_field(&s, &f_l2_flags_res, 6, 2, NULL))
			dec_tree_add_bits(t, &f_l2_flags_cont, DB_DATA,
			    s.base + 6, 2, get_le16(s.p + 6));
		if (code == 0x04) {
			/* (dec_tree_add_bits went one level down) */
			t->node[t->n - 1].depth--;
			l2_options(&s, 8, s.n);
		} else {
			t->node[t->n - 1].depth--;
			dec_cur_field(&s, &f_l2_conf_result, 8, 2, NULL);
			l2_options(&s, 10, s.n);
		}
		break;
	case 0x06:
	case 0x07:
		dec_cur_rows(&s, disc, nitems(disc));
		break;
	case 0x08:
	case 0x09:
		dec_cur_rest(&s, &f_l2_data, 4);
		break;
	case 0x0a:
		dec_cur_field(&s, &f_l2_info_type, 4, 2, NULL);
		break;
	case 0x0b:
		dec_cur_field(&s, &f_l2_info_type, 4, 2, &type);
		if (dec_cur_field(&s, &f_l2_info_result, 6, 2, &result))
			l2_info(&s, 8, type, result);
		break;
	default:
		dec_cur_rest(&s, &f_l2_cdata, 4);
		break;
	}
	t->depth--;
	if (s.cut) {
		/* Wireshark throws there and adds no field that is cut */
		while (t->n > 0 && (t->node[t->n - 1].flags & DN_CUT))
			t->n--;
		return 0;
	}
	return 4 + len;
}

/*
 * The latest channel of ACL handle h opened by frame or before whose local
 * CID is l and whose remote CID is r (0: any; not both), left out if it
 * was disconnected before frame when open is set; -1 if none.
 */
static int
chan_find(const struct dec_bt_cmds *cm, uint16_t h, uint16_t l, uint16_t r,
    uint64_t frame, int open)
{
	const struct dec_bt_chan *ch;
	int		 i, best = -1;

	for (i = 0; i < DEC_BT_CHANS; i++) {
		ch = &cm->chan[i];
		if (ch->conn_frame == 0 || ch->conn_frame > frame ||
		    ch->handle != h || (l != 0 && ch->local != l) ||
		    (r != 0 && ch->remote != r) ||
		    (open && ch->disc_frame != 0 && ch->disc_frame < frame))
			continue;
		if (best < 0 || ch->conn_frame > cm->chan[best].conn_frame)
			best = i;
	}
	return best;
}

/* A channel's PSM, as a Connection Request names it. */
static void
chan_psm(struct dec_tree *t, const struct dec_bt_chan *ch)
{
	dec_tree_add(t, ch->psm >= 0x1000 ? &f_l2_psm_dyn : &f_l2_psm,
	    DB_NONE, 0, 0, ch->psm);
}

/*
 * The parameter bytes signalling command code needs (Vol 3 Part A 4):
 * Wireshark's btl2cap reads them whatever the command's length says, and
 * an Echo's data too (tshark 4.0 marks an Echo with none malformed).
 */
static size_t
l2_cmd_min(uint8_t code)
{
	switch (code) {
	case 0x01:
	case 0x0a:
		return 2;
	case 0x02:
	case 0x04:
	case 0x06:
	case 0x07:
	case 0x0b:
		return 4;
	case 0x03:
		return 8;
	case 0x05:
		return 6;
	case 0x08:
	case 0x09:
		return 1;
	}
	return 0;
}

/* Whether the signalling commands of L2CAP frame p[0..n) end inside one
 * (tshark's "[Malformed Packet: BT L2CAP]"). */
static int
l2_malformed(const uint8_t *p, size_t n)
{
	size_t	 off, len, have;
	uint16_t cid;

	if (n < 4)
		return 0;
	cid = get_le16(p + 2);
	if (cid != 0x0001 && cid != 0x0005)
		return 0;
	for (off = 4; off < n; off += 4 + len) {
		if (off + 4 > n)
			return 1;
		len = get_le16(p + off + 2);
		have = n - off - 4 < len ? n - off - 4 : len;
		if (cid == 0x0001 && have < l2_cmd_min(p[off]))
			return 1;
	}
	return 0;
}

/*
 * What btl2cap shows of the channels on ACL handle h in record a->r (one
 * pass): on a data frame of a dynamic channel (CID 0x0040 on) the frame of
 * the Connection Request that opened it and its PSM; on a Disconnection
 * Request or Response its PSM and that frame; on a received Connection
 * Request a "Disconnect in frame" of 0, as tshark 4.0 shows it.
 */
static void
l2_chan_tree(const struct dec_cls_arg *a, uint16_t h, uint16_t cid,
    const uint8_t *c, size_t n, struct dec_tree *t)
{
	const struct dec_bt_cmds *cm;
	const struct dec_bt_chan *ch;
	uint64_t	 frame = urb_frame(a->r);
	uint16_t	 d, s;
	int		 in = urb_is_in(a->r), i;

	if (cid == 0x0001 && n >= 4 && c[0] == 0x02 && in) {
		dec_tree_add(t, &f_l2_disc_in, DB_NONE, 0, 0, 0);
		return;
	}
	if (a->st == NULL || (cm = a->st->bt_cmds) == NULL)
		return;
	if (cid >= 0x0040) {
		i = chan_find(cm, h, in ? cid : 0, in ? 0 : cid, frame, 1);
		if (i < 0)
			return;
		ch = &cm->chan[i];
		dec_tree_add(t, &f_l2_conn_in, DB_NONE, 0, 0, ch->conn_frame);
		chan_psm(t, ch);
		return;
	}
	if (cid != 0x0001 || n < 8 || (c[0] != 0x06 && c[0] != 0x07))
		return;
	/* a request sent and the response received name the remote's CID
	 * first; the other two the local one */
	d = get_le16(c + 4);
	s = get_le16(c + 6);
	if ((c[0] == 0x06) == !in)
		i = chan_find(cm, h, s, d, frame, 0);
	else
		i = chan_find(cm, h, d, s, frame, 0);
	if (i < 0 || d == 0 || s == 0)
		return;
	ch = &cm->chan[i];
	chan_psm(t, ch);
	dec_tree_add(t, &f_l2_conn_in, DB_NONE, 0, 0, ch->conn_frame);
}

static void
l2cap_tree(const struct dec_cls_arg *a, uint16_t h, const uint8_t *p,
    size_t n, uint32_t base, struct dec_tree *t)
{
	struct dec_cur	 c = { t, p, n, base, 0 };
	uint32_t	 len = 0, cid = 0;
	size_t		 off, k;

	proto_push(t, &f_l2cap, base, (uint32_t)n, NULL);
	t->node[t->n - 1].str = NULL;
	dec_cur_field(&c, &f_l2_len, 0, 2, &len);
	dec_cur_field(&c, n >= 4 && get_le16(p + 2) >= 0x0040 ?
	    &f_l2_cid_dyn : &f_l2_cid, 2, 2, &cid);
	if (!c.cut && (cid == 0x0001 || cid == 0x0005)) {
		for (off = 4; off < n && (k = l2_command(&c, off)) > 0;
		    off += k)
			l2_chan_tree(a, h, (uint16_t)cid, p + off, k, t);
	} else if (!c.cut) {
		l2_chan_tree(a, h, (uint16_t)cid, NULL, 0, t);
		dec_cur_rest(&c, &f_l2_payload, 4);
	}
	t->depth--;
}

/* ------------------------------------------------------------------------
 * ACL and SCO data packets (Part E 5.4.2, 5.4.3).
 */

/* The connection of handle h, or NULL. */
static const struct dec_bt_link *
link_find(const struct dec_bt_cmds *cm, uint16_t h)
{
	size_t	 i;

	for (i = 0; i < DEC_BT_LINKS; i++)
		if (cm->link[i].conn_frame != 0 && cm->link[i].handle == h)
			return &cm->link[i];
	return NULL;
}

/* What is known of the device at BD_ADDR a, or NULL. */
static const struct dec_bt_dev *
dev_find(const struct dec_bt_cmds *cm, const uint8_t a[6])
{
	size_t	 i;

	for (i = 0; i < DEC_BT_DEVS; i++)
		if (cm->dev[i].frame != 0 && memcmp(cm->dev[i].addr, a, 6) == 0)
			return &cm->dev[i];
	return NULL;
}

/* One end of an ACL packet: BD_ADDR a (NULL: unknown, 00:00:00:00:00:00),
 * its name and role. */
static void
acl_end(struct dec_tree *t, const struct dec_field *const f[3],
    const uint8_t *a, const char *name, uint32_t role)
{
	static const uint8_t none[6];
	struct dec_node	*nd;

	if (a == NULL)
		a = none;
	nd = dec_tree_add(t, f[0], DB_NONE, 0, 0, 0);
	if (nd != NULL) {
		nd->str = dec_tree_printf(t, "%02x:%02x:%02x:%02x:%02x:%02x",
		    a[5], a[4], a[3], a[2], a[1], a[0]);
		nd->flags |= DN_PLAIN;
	}
	nd = dec_tree_add(t, f[1], DB_NONE, 0, 0, 0);
	if (nd != NULL)
		nd->str = dec_tree_strdup(t, name, strlen(name));
	dec_tree_add(t, f[2], DB_NONE, 0, 0, role);
}

/*
 * What bthci_acl shows of the connection of the ACL packet with header
 * hdr in record r (packet-bthci_acl.c, one pass): the frame that
 * connected its handle while it is connected, the two ends (the local
 * controller's and the remote's addresses, names and roles, source first:
 * the host's packets are sent, the controller's received) and the mode.
 */
static void
acl_links(const struct dec_cls_arg *a, uint32_t hdr, struct dec_tree *t)
{
	static const struct dec_field *const src[3] = {
		&f_acl_src_addr, &f_acl_src_name, &f_acl_src_role,
	}, *const dst[3] = {
		&f_acl_dst_addr, &f_acl_dst_name, &f_acl_dst_role,
	};
	const struct dec_bt_cmds *cm;
	const struct dec_bt_link *l;
	const struct dec_bt_dev *d = NULL;
	const uint8_t	*ra = NULL, *la;
	const char	*rname = "", *lname;
	uint64_t	 frame = urb_frame(a->r);
	uint32_t	 rrole = 0, lrole = 0;
	int		 in = urb_is_in(a->r);

	if (a->st == NULL || (cm = a->st->bt_cmds) == NULL)
		cm = NULL;
	l = cm != NULL ? link_find(cm, (uint16_t)(hdr & 0x0fff)) : NULL;
	if (l != NULL && l->conn_frame < frame && (l->disc_frame == 0 ||
	    l->disc_frame > frame))
		dec_tree_add(t, &f_acl_conn_in, DB_NONE, 0, 0, l->conn_frame);
	if (l != NULL) {
		ra = l->addr;
		if ((d = dev_find(cm, ra)) != NULL && d->has_name)
			rname = d->name;
		/* the remote's role; the local one is the other */
		if (d != NULL && (d->role == 1 || d->role == 2)) {
			rrole = d->role;
			lrole = 3 - d->role;
		}
	}
	la = cm != NULL && cm->has_local ? cm->local : NULL;
	lname = cm != NULL ? cm->local_name : "";
	if (in) {
		acl_end(t, src, ra, rname, rrole);
		acl_end(t, dst, la, lname, lrole);
	} else {
		acl_end(t, src, la, lname, lrole);
		acl_end(t, dst, ra, rname, rrole);
	}
	if (d != NULL && d->role_frame != 0)
		dec_tree_add(t, &f_acl_role_in, DB_NONE, 0, 0, d->role_frame);
	dec_tree_add(t, &f_acl_mode, DB_NONE, 0, 0, l != NULL &&
	    l->mode_frame != 0 ? (uint64_t)(int64_t)l->mode :
	    (uint64_t)(int64_t)-1);
	if (l != NULL && l->mode_frame != 0)
		dec_tree_add(t, &f_acl_mode_in, DB_NONE, 0, 0, l->mode_frame);
}

static void
acl_tree(const struct dec_cls_arg *a, const uint8_t *p, size_t n,
    uint32_t base, struct dec_tree *t)
{
	struct dec_cur	 c = { t, p, n, base, 0 };
	uint32_t	 hdr = 0, len = 0;
	int		 bad;

	proto_push(t, &f_acl, base, (uint32_t)n, NULL);
	t->node[t->n - 1].str = NULL;
	if (n >= 2) {
		hdr = get_le16(p);
		/* the handle and flags are bits of one word: no node of
		 * the word itself, as Wireshark shows them */
		t->depth--;
		dec_cls_bits(t, acl_bits, base, 2, hdr);
		t->depth++;
	}
	if (!dec_cur_field(&c, &f_acl_len, 2, 2, &len))
		c.cut = 1;
	if (!c.cut && len > 0)
		dec_tree_add(t, &f_acl_data, DB_DATA, base + 4,
		    (uint32_t)(n - 4), 0);
	/* L2CAP starts in a packet that is no continuing fragment; when
	 * Wireshark's btl2cap throws, bthci_acl adds no more */
	bad = !c.cut && len > 0 && ((hdr >> 12) & 3) != 1 &&
	    l2_malformed(p + 4, n - 4);
	if (n >= 4 && !bad)
		acl_links(a, hdr, t);
	t->depth--;
	if (!c.cut && len > 0 && ((hdr >> 12) & 3) != 1)
		l2cap_tree(a, (uint16_t)(hdr & 0x0fff), p + 4, n - 4,
		    base + 4, t);
	if (bad)
		dec_tree_add(t, &f_l2_malformed, DB_NONE, 0, 0, 0);
}

static void
sco_tree(const uint8_t *p, size_t n, uint32_t base, struct dec_tree *t)
{
	struct dec_cur	 c = { t, p, n, base, 0 };
	uint32_t	 len = 0;

	proto_push(t, &f_sco, base, (uint32_t)n, NULL);
	t->node[t->n - 1].str = NULL;
	if (n >= 2) {
		t->depth--;
		dec_cls_bits(t, sco_bits, base, 2, get_le16(p));
		t->depth++;
	}
	if (dec_cur_field(&c, &f_sco_len, 2, 1, &len) && len > 0)
		dec_tree_add(t, &f_sco_data, DB_DATA, base + 3,
		    (uint32_t)(n - 3), 0);
	t->depth--;
}

/* ------------------------------------------------------------------------
 * The USB transport (packet-hci_usb.c).
 */

/* The length a packet of endpoint number ep says it has, 0 if unknown. */
static size_t
hci_need(int ep, const uint8_t *p, size_t n)
{
	switch (ep) {
	case 0:
		return n >= 3 ? (size_t)p[2] + 3 : 0;
	case 1:
		return n >= 2 ? (size_t)p[1] + 2 : 0;
	case 2:
		return n >= 4 ? (size_t)get_le16(p + 2) + 4 : 0;
	}
	return n;
}

/* The stream of an events or ACL record: 0 events, 1 ACL in, 2 out. */
static int
bt_stream(const struct urb_rec *r)
{
	return (r->epnum & 0x0f) == 1 ? 0 : urb_is_in(r) ? 1 : 2;
}

/* Stream s's pieces, to change: emptied for a new packet (fresh), else
 * the packet begun (NULL if none); copied first when copies of the
 * state share it.  NULL when out of memory. */
static struct dec_bt_frag *
frag_own(struct dec_cls_state *st, int s, int fresh)
{
	struct dec_bt_frag *f = st->bt_frag[s], *g;

	if (!fresh && (f == NULL || f->total == 0))
		return NULL;
	if (f != NULL && f->refs == 0)
		g = f;
	else if ((g = malloc(sizeof *g)) == NULL)
		return NULL;
	else {
		if (!fresh)
			memcpy(g, f, sizeof *g);
		g->refs = 0;
		dec_bt_frag_unref(f);
		st->bt_frag[s] = g;
	}
	if (fresh)
		g->total = g->got = g->nfrag = 0;
	return g;
}

/* Piece r of the packet f (its first DEC_BT_MAXPKT bytes are kept). */
static void
frag_add(struct dec_bt_frag *f, const struct urb_rec *r)
{
	size_t	 n = r->data_len, k;

	if (f->nfrag < DEC_BT_MAXFRAG) {
		f->frame[f->nfrag] = urb_frame(r);
		f->len[f->nfrag] = (uint32_t)n;
	}
	f->nfrag++;
	if (f->got < DEC_BT_MAXPKT) {
		k = DEC_BT_MAXPKT - f->got;
		memcpy(f->b + f->got, r->data, n < k ? n : k);
	}
	f->got += (uint32_t)n;
}

/* The state's commands, to change (copied first when shared), or NULL. */
static struct dec_bt_cmds *
cmds_own(struct dec_cls_state *st)
{
	struct dec_bt_cmds *c = st->bt_cmds, *g;

	if (c != NULL && c->refs == 0)
		return c;
	if ((g = malloc(sizeof *g)) == NULL)
		return NULL;
	if (c != NULL) {
		memcpy(g, c, sizeof *g);
		c->refs--;
	} else
		memset(g, 0, sizeof *g);
	g->refs = 0;
	st->bt_cmds = g;
	return g;
}

static void	 link_learn_cmd(const struct urb_rec *, struct dec_cls_state *);

/* An HCI command sent (its submit): the slot of its opcode, else the
 * oldest one, remembers it. */
static void
cmd_learn(const struct urb_rec *r, struct dec_cls_state *st)
{
	struct dec_bt_cmds *cm;
	struct dec_bt_cmd *c, *old;
	uint16_t	 op;
	size_t		 i;

	if (r->type != 'S' || r->flag_setup != 0 || r->data_len < 3 ||
	    (cm = cmds_own(st)) == NULL)
		return;
	op = get_le16(r->data);
	for (i = 0, old = c = &cm->c[0]; i < DEC_BT_CMDS; i++) {
		c = &cm->c[i];
		if (c->frame != 0 && c->op == op)
			break;
		if (c->frame < old->frame)
			old = c;
	}
	if (i == DEC_BT_CMDS)
		c = old;
	c->op = op;
	c->frame = urb_frame(r);
	c->ts = r->ts_ns;
	c->pend_frame = 0;
	c->pend_ts = 0;
	c->resp_frame = 0;
	link_learn_cmd(r, st);
}

/* The commands an event p[0..n) may answer, as Wireshark's bthci_evt
 * looks for them (the first opcode that has a command wins; tshark 4.0
 * on crafted events): Command Complete's and Command Status's opcode,
 * and the events of Part E 7.7.1-7.7.12 and 7.7.65.1 to the commands
 * that start them.  An event shorter than its parameters (Wireshark
 * stops at the exception) answers none.  The count, 0 for none. */
static int
evt_opcodes(const uint8_t *p, size_t n, uint16_t op[4])
{
	static const struct {
		uint8_t	 code, sub, len;	/* len: the whole event's */
		uint16_t op[4];
	} map[] = {
		{ 0x01, 0, 3, { 0x0401, 0 } },	/* Inquiry Complete */
		{ 0x03, 0, 13, { 0x0409, 0x0405 } },	/* Connection */
		{ 0x05, 0, 6, { 0x0406, 0 } },	/* Disconnection */
		{ 0x06, 0, 5, { 0x0411, 0 } },	/* Authentication */
		{ 0x08, 0, 6, { 0x0413, 0 } },	/* Encryption Change */
		{ 0x0b, 0, 13, { 0x041b, 0 } },	/* Remote Features */
		{ 0x0c, 0, 10, { 0x041d, 0 } },	/* Remote Version */
		{ 0x3e, 0x01, 21, { 0x200d, 0 } },	/* LE Connection */
		/* Synchronous Connection Complete: Setup, the Enhanced
		 * Setup and Accept, then Accept Synchronous Connection
		 * Request, as tshark 4.0 prefers an unanswered one of the
		 * first three to it (the order among those three untried) */
		{ 0x2c, 0, 19, { 0x0428, 0x043d, 0x043e, 0x0429 } },
	};
	int	 k;
	size_t	 i;

	if (n < 2 || (size_t)p[1] + 2 > n)
		return 0;
	if (p[0] == 0x0e && n >= 5) {
		op[0] = get_le16(p + 3);
		return 1;
	}
	if (p[0] == 0x0f && n >= 6) {
		op[0] = get_le16(p + 4);
		return 1;
	}
	for (i = 0; i < nitems(map); i++) {
		if (map[i].code != p[0] || n < map[i].len ||
		    (map[i].code == 0x3e && p[2] != map[i].sub))
			continue;
		for (k = 0; k < 4 && map[i].op[k] != 0; k++)
			op[k] = map[i].op[k];
		return k;
	}
	return 0;
}

/* An event p[0..n) whole in record r: its links to the command it
 * answers (and that command's Command Status). */
static void
evt_learn(const struct urb_rec *r, const uint8_t *p, size_t n,
    struct dec_cls_state *st)
{
	struct dec_bt_cmds *cm;
	struct dec_bt_cmd *c;
	uint16_t	 op[4];
	size_t		 i = DEC_BT_CMDS;
	int		 k, nop, conn;

	if (st->bt_cmds == NULL || (nop = evt_opcodes(p, n, op)) == 0)
		return;
	/* an event of a connection (not Command Complete or Status) skips
	 * a command another such event answered, as tshark does when it
	 * looks for one of several commands */
	conn = p[0] != 0x0e && p[0] != 0x0f;
	for (k = 0; k < nop && i == DEC_BT_CMDS; k++)
		for (i = 0; i < DEC_BT_CMDS; i++) {
			c = &st->bt_cmds->c[i];
			if (c->frame != 0 && c->op == op[k] &&
			    c->frame < urb_frame(r) && !(conn &&
			    c->resp_frame != 0 &&
			    c->resp_frame != urb_frame(r)))
				break;
		}
	if (i == DEC_BT_CMDS || (cm = cmds_own(st)) == NULL)
		return;
	c = &cm->c[i];
	cm->ev_frame = urb_frame(r);
	cm->cmd_frame = c->frame;
	cm->d_cmd = r->ts_ns - c->ts;
	cm->status = p[0] == 0x0f;
	cm->pend_frame = 0;
	if (conn)
		c->resp_frame = urb_frame(r);
	if (cm->status) {
		c->pend_frame = urb_frame(r);
		c->pend_ts = r->ts_ns;
	} else if (c->pend_frame != 0) {
		cm->pend_frame = c->pend_frame;
		cm->d_pend = r->ts_ns - c->pend_ts;
	}
}

/* The slot of the connection of handle h, else a free one, else the
 * oldest one (a disconnected one first), emptied. */
static struct dec_bt_link *
link_slot(struct dec_bt_cmds *cm, uint16_t h)
{
	struct dec_bt_link *l, *old = NULL;
	size_t		 i;

	for (i = 0; i < DEC_BT_LINKS; i++) {
		l = &cm->link[i];
		if (l->conn_frame != 0 && l->handle == h)
			return l;
		if (old == NULL || (l->conn_frame == 0 && old->conn_frame != 0) ||
		    ((l->conn_frame == 0) == (old->conn_frame == 0) &&
		    ((l->disc_frame != 0 && old->disc_frame == 0) ||
		    ((l->disc_frame != 0) == (old->disc_frame != 0) &&
		    l->conn_frame < old->conn_frame))))
			old = l;
	}
	memset(old, 0, sizeof *old);
	old->handle = h;
	return old;
}

/* The device at BD_ADDR a, else a free slot, else the one changed
 * longest ago that no connection's remote is, for it. */
static struct dec_bt_dev *
dev_slot(struct dec_bt_cmds *cm, const uint8_t a[6], uint64_t frame)
{
	struct dec_bt_dev *d, *old = NULL;
	size_t		 i, k;
	int		 linked, old_linked = 1;

	for (i = 0; i < DEC_BT_DEVS; i++) {
		d = &cm->dev[i];
		if (d->frame != 0 && memcmp(d->addr, a, 6) == 0)
			goto out;
		for (linked = 0, k = 0; d->frame != 0 && k < DEC_BT_LINKS;
		    k++)
			if (cm->link[k].conn_frame != 0 &&
			    cm->link[k].disc_frame == 0 &&
			    memcmp(cm->link[k].addr, d->addr, 6) == 0)
				linked = 1;
		if (old == NULL || (!linked && old_linked) ||
		    (linked == old_linked && d->frame < old->frame)) {
			old = d;
			old_linked = linked;
		}
	}
	d = old;
	memset(d, 0, sizeof *d);
	memcpy(d->addr, a, 6);
out:
	d->frame = frame;
	return d;
}

/* The connection of the handle at h (an event's), to change, or NULL
 * when none is known. */
static struct dec_bt_link *
link_own(struct dec_cls_state *st, const uint8_t *h)
{
	struct dec_bt_cmds *cm;
	uint16_t	 handle = get_le16(h) & 0x0fff;

	if (st->bt_cmds == NULL || link_find(st->bt_cmds, handle) == NULL ||
	    (cm = cmds_own(st)) == NULL)
		return NULL;
	return link_slot(cm, handle);
}

/* Role r of the remote at a (packet-bluetooth.h's 1 master, 2 slave, 0
 * unknown) from frame on. */
static void
dev_role(struct dec_bt_cmds *cm, const uint8_t *a, uint8_t r, uint64_t frame)
{
	struct dec_bt_dev *d = dev_slot(cm, a, frame);

	d->role = r;
	d->role_frame = frame;
}

/* Name p[0..n) (to its first NUL) into dst, DEC_BT_NAME + 1 bytes. */
static void
name_copy(char *dst, const uint8_t *p, size_t n)
{
	const uint8_t	*z;

	if (n > DEC_BT_NAME)
		n = DEC_BT_NAME;
	if ((z = memchr(p, 0, n)) != NULL)
		n = (size_t)(z - p);
	memcpy(dst, p, n);
	dst[n] = '\0';
}

static void
dev_name(struct dec_bt_cmds *cm, const uint8_t *a, const uint8_t *p,
    size_t n, uint64_t frame)
{
	struct dec_bt_dev *d = dev_slot(cm, a, frame);

	name_copy(d->name, p, n);
	d->has_name = 1;
}

/* A controller's answer to a role a command or event gives: 0x00 the
 * local device is (becomes) master, so the remote is slave; 0x01 the
 * other way (Part E 7.1.8, 7.7.18). */
static uint8_t
remote_role(uint8_t r)
{
	return r == 0 ? 2 : r == 1 ? 1 : 0;
}

/* A command that tells the remote's role (packet-bthci_cmd.c): Create
 * Connection makes the remote a slave, Accept Connection Request gives
 * the role. */
static void
link_learn_cmd(const struct urb_rec *r, struct dec_cls_state *st)
{
	const uint8_t	*p = r->data;
	struct dec_bt_cmds *cm;
	uint16_t	 op = get_le16(p);

	if (op == 0x0405 && r->data_len >= 16 && (cm = cmds_own(st)) != NULL)
		dev_role(cm, p + 3, 2, urb_frame(r));
	else if (op == 0x0409 && r->data_len >= 10 &&
	    (cm = cmds_own(st)) != NULL)
		dev_role(cm, p + 3, remote_role(p[9]), urb_frame(r));
}

/* The names in advertising data p[0..n) of the device at a (the
 * Shortened and Complete Local Name entries; the last one wins); the
 * state is changed (copied when shared) only for a name. */
static void
adv_names(struct dec_cls_state *st, const uint8_t *a, const uint8_t *p,
    size_t n, uint64_t frame)
{
	struct dec_bt_cmds *cm;
	size_t	 i, l;

	for (i = 0; i + 1 < n && p[i] != 0; i += l + 1) {
		l = p[i];
		if (i + 1 + l > n)
			break;
		if ((p[i + 1] == 0x08 || p[i + 1] == 0x09) &&
		    (cm = cmds_own(st)) != NULL)
			dev_name(cm, a, p + i + 2, l - 1, frame);
	}
}

/* What an event p[0..n) in record r tells of the connections, as
 * packet-bthci_evt.c keeps it (each when its status is success): the
 * local address (Read BD_ADDR) and name (Read Local Name), a connection
 * opened (Connection Complete, mode active; LE Connection Complete) or
 * closed (Disconnection Complete), a remote's role (Role Change) and
 * name (Remote Name Request Complete, advertising reports), a mode
 * (Mode Change).  An event shorter than where Wireshark keeps it keeps
 * nothing. */
static void
link_learn_evt(const struct urb_rec *r, const uint8_t *p, size_t n,
    struct dec_cls_state *st)
{
	struct dec_bt_cmds *cm;
	struct dec_bt_link *l;
	uint64_t	 frame = urb_frame(r);
	uint16_t	 op;
	size_t		 off, i, nrep, dlen;

	if (n < 3 || (size_t)p[1] + 2 > n)
		return;
	n = (size_t)p[1] + 2;
	switch (p[0]) {
	case 0x0e:		/* Command Complete */
		if (n < 6 || p[5] != 0)
			return;
		op = get_le16(p + 3);
		if (op == 0x1009 && n >= 12 && (cm = cmds_own(st)) != NULL) {
			memcpy(cm->local, p + 6, 6);
			cm->has_local = 1;
		} else if (op == 0x0c14 && n >= 6 + 248 &&
		    (cm = cmds_own(st)) != NULL)
			name_copy(cm->local_name, p + 6, 248);
		return;
	case 0x03:		/* Connection Complete (7.7.3) */
		if (n < 11 || p[2] != 0 || (cm = cmds_own(st)) == NULL)
			return;
		l = link_slot(cm, get_le16(p + 3) & 0x0fff);
		memset(l, 0, sizeof *l);
		l->handle = get_le16(p + 3) & 0x0fff;
		l->conn_frame = frame;
		memcpy(l->addr, p + 5, 6);
		l->mode = 0;
		l->mode_frame = frame;
		return;
	case 0x05:		/* Disconnection Complete (7.7.5) */
		if (n < 6 || p[2] != 0 || (l = link_own(st, p + 3)) == NULL)
			return;
		if (l->conn_frame < frame && l->disc_frame == 0)
			l->disc_frame = frame;
		return;
	case 0x07:		/* Remote Name Request Complete (7.7.7) */
		if (n < 9 + 248 || p[2] != 0 || (cm = cmds_own(st)) == NULL)
			return;
		dev_name(cm, p + 3, p + 9, 248, frame);
		return;
	case 0x12:		/* Role Change (7.7.18) */
		if (n < 10 || p[2] != 0 || (cm = cmds_own(st)) == NULL)
			return;
		dev_role(cm, p + 3, remote_role(p[9]), frame);
		return;
	case 0x14:		/* Mode Change (7.7.20) */
		if (n < 8 || p[2] != 0 || (l = link_own(st, p + 3)) == NULL)
			return;
		l->mode = (int8_t)p[5];
		l->mode_frame = frame;
		return;
	case 0x3e:		/* LE Meta (7.7.65) */
		break;
	default:
		return;
	}
	if (p[2] == 0x01) {	/* LE Connection Complete (7.7.65.1) */
		if (n < 21 || p[3] != 0 || (cm = cmds_own(st)) == NULL)
			return;
		/* Wireshark keeps no mode for it: a handle's mode stays */
		l = link_slot(cm, get_le16(p + 4) & 0x0fff);
		l->conn_frame = frame;
		l->disc_frame = 0;
		memcpy(l->addr, p + 8, 6);
		return;
	}
	if (p[2] != 0x02 || n < 4)	/* LE Advertising Report (7.7.65.2) */
		return;
	nrep = p[3];
	for (off = 4, i = 0; i < nrep && off + 9 <= n; i++) {
		dlen = p[off + 8];
		if (off + 9 + dlen > n)
			break;
		adv_names(st, p + off + 2, p + off + 9, dlen, frame);
		off += 9 + dlen + 1;
	}
}

/* The links evt_learn found for event record r, inside its tree. */
static void
evt_links(const struct dec_cls_arg *a, struct dec_tree *t)
{
	const struct dec_bt_cmds *cm;

	if (a->st == NULL || (cm = a->st->bt_cmds) == NULL ||
	    cm->ev_frame != urb_frame(a->r))
		return;
	t->depth++;
	dec_tree_add(t, &f_evt_cmd_in, DB_NONE, 0, 0, cm->cmd_frame);
	if (cm->status)
		dec_tree_add(t, &f_evt_d_pend, DB_NONE, 0, 0,
		    (uint64_t)cm->d_cmd);
	else {
		dec_tree_add(t, &f_evt_d_resp, DB_NONE, 0, 0,
		    (uint64_t)cm->d_cmd);
		if (cm->pend_frame != 0) {
			dec_tree_add(t, &f_evt_pend_in, DB_NONE, 0, 0,
			    cm->pend_frame);
			dec_tree_add(t, &f_evt_d_pend_resp, DB_NONE, 0, 0,
			    (uint64_t)cm->d_pend);
		}
	}
	t->depth--;
}

/*
 * The channels the signalling commands of ACL packet p[0..n) (its header
 * first) in record r open, answer and close (Wireshark's btl2cap:
 * dissect_connrequest, dissect_connresponse, dissect_disconnrequest):
 * a Connection Request opens one with its PSM and the requester's CID, a
 * successful Connection Response gives it the other end's CID, a
 * Disconnection Request closes it.
 */
static void
l2_learn(const struct urb_rec *r, const uint8_t *p, size_t n,
    struct dec_cls_state *st)
{
	struct dec_bt_cmds *cm;
	struct dec_bt_chan *ch;
	const uint8_t	*c;
	uint64_t	 frame = urb_frame(r);
	size_t		 off, len, i, old;
	uint16_t	 h, d, s;
	int		 in = urb_is_in(r), k;

	if (n < 12 || ((get_le16(p) >> 12) & 3) == 1 ||
	    get_le16(p + 6) != 0x0001)
		return;
	h = get_le16(p) & 0x0fff;
	for (off = 8; off + 4 <= n; off += 4 + len) {
		c = p + off;
		len = get_le16(c + 2);
		if (off + 4 + len > n || len < l2_cmd_min(c[0]))
			return;
		d = len >= 4 ? get_le16(c + 4) : 0;
		s = len >= 4 ? get_le16(c + 6) : 0;
		if (s == 0 || (c[0] != 0x02 && d == 0))
			continue;	/* no channel of CID 0 */
		switch (c[0]) {
		case 0x02:
			if ((cm = cmds_own(st)) == NULL)
				return;
			for (i = old = 0; i < DEC_BT_CHANS; i++) {
				if (cm->chan[i].conn_frame == 0)
					break;
				if (cm->chan[i].conn_frame <
				    cm->chan[old].conn_frame)
					old = i;
			}
			ch = &cm->chan[i < DEC_BT_CHANS ? i : old];
			memset(ch, 0, sizeof *ch);
			ch->conn_frame = frame;
			ch->handle = h;
			ch->psm = d;
			if (in)
				ch->remote = s;
			else
				ch->local = s;
			break;
		case 0x03:
			/* d: the answerer's CID, s: the requester's */
			if (get_le16(c + 8) != 0 || st->bt_cmds == NULL ||
			    (k = chan_find(st->bt_cmds, h, in ? s : 0,
			    in ? 0 : s, frame, 1)) < 0 ||
			    (cm = cmds_own(st)) == NULL)
				break;
			if (in)
				cm->chan[k].remote = d;
			else
				cm->chan[k].local = d;
			break;
		case 0x06:
			/* d: the receiver's CID, s: the sender's */
			if (st->bt_cmds == NULL ||
			    (k = chan_find(st->bt_cmds, h, in ? d : s,
			    in ? s : d, frame, 1)) < 0 ||
			    (cm = cmds_own(st)) == NULL)
				break;
			cm->chan[k].disc_frame = frame;
			break;
		}
	}
}

/* Which piece of a split packet r is (hci_usb's fragment_info), and its
 * bytes kept for the last one; the commands and what events answer. */
static void
bt_learn(const struct urb_rec *r, const struct dec_info *info,
    struct dec_cls_state *st)
{
	struct dec_bt_frag *f = NULL;
	size_t		 n = r->data_len, need;
	uint32_t	*left;
	int		 ep = r->epnum & 0x0f, s;

	(void)info;
	if (r->xfer_type == XFER_CTRL) {
		cmd_learn(r, st);
		return;
	}
	if (n == 0 || (ep != 1 && ep != 2))
		return;
	s = bt_stream(r);
	left = &st->bt_left[s];
	if (*left == 0) {
		need = hci_need(ep, r->data, n);
		st->bt_part = DEC_BT_WHOLE;
		*left = (uint32_t)(need > n ? need - n : 0);
		if (*left > 0 && (f = frag_own(st, s, 1)) != NULL) {
			f->total = (uint32_t)need;
			frag_add(f, r);
		} else if (ep == 1 && need == n) {
			evt_learn(r, r->data, n, st);
			link_learn_evt(r, r->data, n, st);
		} else if (need == n)
			l2_learn(r, r->data, n, st);
		return;
	}
	if (n < *left) {
		st->bt_part = DEC_BT_MIDDLE;
		*left -= (uint32_t)n;
	} else {
		st->bt_part = n == *left ? DEC_BT_LAST : DEC_BT_EXCESS;
		*left = 0;
	}
	if (st->bt_part != DEC_BT_EXCESS && (f = frag_own(st, s, 0)) != NULL)
		frag_add(f, r);
	if (ep == 1 && st->bt_part == DEC_BT_LAST && f != NULL &&
	    f->got == f->total && f->total <= DEC_BT_MAXPKT) {
		evt_learn(r, f->b, f->total, st);
		link_learn_evt(r, f->b, f->total, st);
	} else if (st->bt_part == DEC_BT_LAST && f != NULL &&
	    f->got == f->total && f->total <= DEC_BT_MAXPKT)
		l2_learn(r, f->b, f->total, st);
}

/* The packet whose last piece r is, reassembled, or NULL. */
static const struct dec_bt_frag *
bt_whole(const struct dec_cls_arg *a)
{
	const struct dec_bt_frag *f;

	if (a->st == NULL || a->st->bt_part != DEC_BT_LAST)
		return NULL;
	f = a->st->bt_frag[bt_stream(a->r)];
	if (f == NULL || f->total == 0 || f->got != f->total ||
	    f->nfrag < 2 || f->nfrag > DEC_BT_MAXFRAG ||
	    f->frame[f->nfrag - 1] != urb_frame(a->r))
		return NULL;
	return f;
}

/* The pieces' list, as process_reassembled_data shows it. */
static void
frag_tree(const struct dec_bt_frag *f, struct dec_tree *t)
{
	struct dec_node	*nd;
	char		 list[256];
	size_t		 k = 0;
	uint32_t	 i;
	int		 w;

	for (i = 0; i < f->nfrag; i++) {
		w = snprintf(list + k, sizeof list - k, "%s#%llu(%u)",
		    i > 0 ? ", " : "", (unsigned long long)f->frame[i],
		    f->len[i]);
		if (w < 0 || (size_t)w >= sizeof list - k)
			break;
		k += (size_t)w;
	}
	list[k] = '\0';
	nd = dec_tree_add(t, &f_usb_frags, DB_NONE, 0, 0, 0);
	if (nd != NULL)
		nd->str = dec_tree_printf(t, "%u Message fragments (%u bytes): "
		    "%s", f->nfrag, f->total, list);
	t->depth++;
	for (i = 0; i < f->nfrag; i++)
		dec_tree_add(t, &f_usb_frag, DB_NONE, 0, 0, f->frame[i]);
	dec_tree_add(t, &f_usb_fcount, DB_NONE, 0, 0, f->nfrag);
	dec_tree_add(t, &f_usb_rlen, DB_NONE, 0, 0, f->total);
	t->depth--;
}

/* Nodes from k on were decoded from p[0..n), no buffer of the record:
 * the bytes of DK_BYTES ones go to the arena, the others keep none. */
static void
bt_copied(struct dec_tree *t, size_t k, const uint8_t *p, size_t n)
{
	struct dec_node	*nd;
	const char	*c;

	for (; k < t->n; k++) {
		nd = &t->node[k];
		if (nd->buf != DB_DATA)
			continue;
		nd->buf = DB_NONE;
		if (nd->f == NULL || nd->f->kind != DK_BYTES ||
		    (size_t)nd->off + nd->len > n ||
		    (c = dec_tree_strdup(t, (const char *)p + nd->off,
		    nd->len)) == NULL)
			continue;
		nd->buf = DB_COPY;
		nd->value = (uint64_t)(uintptr_t)c;
	}
}

static int
bt_tree(const struct dec_cls_arg *a, struct dec_tree *t)
{
	const struct urb_rec *r = a->r;
	const uint8_t	*p = r->data;
	const struct dec_bt_frag *f;
	struct dec_node	*nd;
	size_t		 n = r->data_len, need, k;
	int		 ep = r->epnum & 0x0f, setup;

	setup = r->xfer_type == XFER_CTRL && r->type == 'S' &&
	    r->flag_setup == 0;
	if (r->xfer_type == XFER_ISO)
		return 0;	/* SCO on isochronous: see bt_summary */
	if (n == 0 && !(r->xfer_type == XFER_CTRL && r->type != 'S'))
		return 0;	/* Wireshark sees no data there */
	if (setup && n > 0)
		dec_tree_fragment(r, t);
	dec_tree_add(t, &f_bluetooth, DB_NONE, 0, 0, 0);
	dec_tree_add(t, &f_hci_usb, DB_DATA, 0, (uint32_t)n, 0);
	t->depth++;
	if (setup) {
		dec_tree_add(t, &f_usb_req, DB_SETUP, 1, 1, r->setup[1]);
		dec_tree_add(t, &f_usb_value, DB_SETUP, 2, 2,
		    get_le16(r->setup + 2));
		dec_tree_add(t, &f_usb_adapter, DB_SETUP, 4, 2,
		    get_le16(r->setup + 4));
		dec_tree_add(t, &f_usb_length, DB_SETUP, 6, 2,
		    get_le16(r->setup + 6));
	}
	if (n == 0) {
		/* Wireshark reads the packet's length past the end */
		t->depth--;
		dec_tree_add(t, &f_malformed, DB_NONE, 0, 0, 0);
		return 1;
	}
	if (ep > 3) {
		dec_tree_add(t, &f_usb_data, DB_DATA, 0, (uint32_t)n, 0);
		t->depth--;
		return 1;
	}
	if (a->st != NULL && a->st->bt_part != DEC_BT_WHOLE && ep >= 1 &&
	    ep <= 2 && r->xfer_type != XFER_CTRL) {
		/* a later piece of a packet split over transfers */
		nd = dec_tree_add(t, a->st->bt_part == DEC_BT_LAST ?
		    &f_usb_complete : &f_usb_unknown, DB_DATA, 0,
		    (uint32_t)n, 0);
		if ((f = bt_whole(a)) == NULL) {
			if (nd != NULL && a->st->bt_part == DEC_BT_LAST)
				nd->note = "the last piece: the packet is "
				    "not reassembled here";
			t->depth--;
			return 1;
		}
		frag_tree(f, t);
		t->depth--;
		k = t->n;
		need = f->total < DEC_BT_MAXPKT ? f->total : DEC_BT_MAXPKT;
		if (ep == 1)
			evt_tree(f->b, need, 0, t);
		else
			acl_tree(a, f->b, need, 0, t);
		bt_copied(t, k, f->b, need);
		if (ep == 1)
			evt_links(a, t);
		return 1;
	}
	need = hci_need(ep, p, n);
	if (ep == 3 || need == n) {
		if (ep != 3)
			dec_tree_add(t, &f_usb_complete, DB_DATA, 0,
			    (uint32_t)n, 0);
		t->depth--;
		switch (ep) {
		case 0:
			cmd_tree(p, n, 0, t);
			break;
		case 1:
			evt_tree(p, n, 0, t);
			evt_links(a, t);
			break;
		case 2:
			acl_tree(a, p, n, 0, t);
			break;
		case 3:
			sco_tree(p, n, 0, t);
			break;
		}
		return 1;
	}
	/* the first piece of a packet split over transfers (one pass:
	 * Wireshark has not reassembled it yet), or more than it says */
	dec_tree_add(t, &f_usb_unknown, DB_DATA, 0, (uint32_t)n, 0);
	t->depth--;
	return 1;
}

static int
bt_summary(const struct dec_cls_arg *a, struct sbuf *b)
{
	const struct urb_rec *r = a->r;
	const struct dec_bt_frag *f = NULL;
	const uint8_t	*p = r->data;
	size_t		 n = r->data_len;
	int		 ep = r->epnum & 0x0f;
	char		 tmp[24];

	if (r->xfer_type == XFER_ISO) {
		/* SCO in isochronous packets (Part B 2.1.1): Wireshark 4.0
		 * shows them as usb.iso.data, its Linux and USBPcap paths
		 * handing hci_usb nothing (packet-usb.c:
		 * dissect_linux_usb_iso_transfer ends at the last packet's
		 * data), so no bthci_sco here either; an SCO packet may
		 * span packets and URBs */
		if (n == 0)
			return 0;
		sb_printf(b, "SCO on isochronous, %zu bytes in %u packet%s "
		    "(not decoded, as tshark)", n, r->niso,
		    r->niso == 1 ? "" : "s");
		return 1;
	}
	if (r->xfer_type != XFER_CTRL && ep >= 1 && ep <= 2 &&
	    (f = bt_whole(a)) != NULL) {
		/* the last piece: the packet it completes */
		p = f->b;
		n = f->total < DEC_BT_MAXPKT ? f->total : DEC_BT_MAXPKT;
		sb_printf(b, "[%u pieces] ", f->nfrag);
	} else if ((a->st != NULL && a->st->bt_part != DEC_BT_WHOLE &&
	    r->xfer_type != XFER_CTRL && ep >= 1 && ep <= 2) ||
	    (hci_need(ep, p, n) != n && ep <= 2)) {
		sb_printf(b, "HCI fragment, %zu bytes", n);
		return 1;
	}
	switch (ep) {
	case 0:
		sb_printf(b, "HCI command %s",
		    name_or(bt_cmds, get_le16(p), tmp));
		return 1;
	case 1:
		sb_printf(b, "HCI event %s", name_or(bt_events, p[0], tmp));
		if (p[0] == 0x0e && n >= 5)
			sb_printf(b, " (%s)",
			    name_or(bt_cmds, get_le16(p + 3), tmp));
		else if (p[0] == 0x0f && n >= 6)
			sb_printf(b, " (%s)",
			    name_or(bt_cmds, get_le16(p + 4), tmp));
		else if (p[0] == 0x3e && n >= 3)
			sb_printf(b, " (%s)",
			    name_or(le_subevents, p[2], tmp));
		return 1;
	case 2:
		sb_printf(b, "HCI ACL handle 0x%03x, %zu bytes",
		    get_le16(p) & 0x0fff, n - 4);
		if (n >= 12 && get_le16(p + 6) == 0x0001)
			sb_printf(b, ": L2CAP %s",
			    name_or(l2_codes, p[8], tmp));
		return 1;
	case 3:
		sb_printf(b, "HCI SCO, %zu bytes", n);
		return 1;
	}
	return 0;
}

/* Bluetooth Programming Interface (Core 5.3 Vol 4 Part B 2.1: class
 * 0xE0, subclass 0x01, protocol 0x01; 0x04 for AMP controllers). */
const struct dec_class_ops dec_class_bt = {
	.name = "Bluetooth",
	.cls = 0xe0, .subcls = 0x01, .proto = DEC_CLS_ANY,
	.summary = bt_summary,
	.tree = bt_tree,
	.tree_empty = 1,
	.learn = bt_learn,
};
