/*
 * decode/dec-at.c - AT commands (ITU-T V.250, 3GPP TS 27.007) in USB
 * data, found and parsed as Wireshark 4.0's AT dissector does
 * (epan/dissectors/packet-at.c, registered in the "usb.bulk" and
 * "usb.control" heuristic tables, tried before the class dissector on
 * bulk data and on the answer to a class or vendor request): data that
 * starts with "\r\n", "\r\r\n" or "AT" and is all printable ASCII, CR and
 * LF, or such text of more than 4 characters followed by NUL padding only.
 *
 * What is shown is the protocol (at), its generated at.role (the DTE, 2,
 * the host, sent it; the DCE, 1, the modem, answered: the record's
 * usb.src, as packet-at.c reads pinfo->p2p_dir), the stream
 * (at.data) and its commands one after the other (at.command): the
 * command line prefix "AT" of the DTE's first command, the command's
 * name (at.cmd, matched on packet-at.c's table by prefix, case blind),
 * its type (at.cmd.type: '=' set, '?' read, "=?" test, CR action, ':'
 * a response, CR LF a final result) and its parameters (at.parameters),
 * each decoded as the table's command decodes it (at.csq.rssi, ...),
 * or at.parameter for an unknown command, at.unknown_parameter where a
 * known one has no such parameter.  As in packet-at.c, the commands of
 * a DTE line after the first ';' are parsed but not shown.
 *
 * A command's data part, the line after +CMGL's or +CMGR's answer that
 * holds the SMS PDU in hex (at.data_part, at.cmgl.pdu, at.cmgr.pdu), is
 * found in the same transfer only: packet-at.c also carries it over to
 * the modem's next transfer, as that transfer's first line up to CR
 * (empty when it starts with CR LF, as answers do): urbscope parses that
 * line as a command.  Not decoded: what packet-at.c
 * hands to other dissectors (the IMSI of +CIMI as E.212, the SIM APDUs
 * of +CSIM, the SMS PDUs) and the expert notes (at.expert.*).
 */
#include "class.h"

#define F	DEC_FIELD

F(f_at, "AT Command", "at", DK_LABEL, 0, NULL, 0);

static const struct dec_name at_roles[] = {	/* packet-at.c role_vals */
	{ 0, "Unknown" },
	{ 1, "DCE - Data Circuit terminating Equipment (Modem)" },
	{ 2, "DTE - Data Terminal Equipment (PC)" },
	{ 0, NULL }
};

F(f_role, "Role", "at.role", DK_UINT, 1, at_roles, 0);
F(f_data, "AT Stream", "at.data", DK_STRING, 0, NULL, 0);
F(f_command, "Command", "at.command", DK_LABEL, 0, NULL, 0);
F(f_parameters, "Parameters", "at.parameters", DK_LABEL, 0, NULL, 0);
F(f_ignored, "Ignored", "at.ignored", DK_BYTES, 0, NULL, 0);
F(f_cmd, "Command", "at.cmd", DK_STRING, 0, NULL, 0);

#define AT_ROLE_DCE	1
#define AT_ROLE_DTE	2

/* at.cmd.type: the characters after the command's name */
#define AT_ACTION_SIMPLY	0x000d	/* "ATI\r" */
#define AT_RESPONSE		0x003a	/* "+CSQ: 20,99" */
#define AT_ACTION		0x003d	/* "AT+CMEE=1" */
#define AT_READ			0x003f	/* "AT+CPIN?" */
#define AT_RESPONSE_ACK		0x0d0a	/* "OK\r\n" */
#define AT_TEST			0x3d3f	/* "AT+COPS=?" */

static const struct dec_name at_cmd_types[] = {	/* at_cmd_type_vals */
	{ AT_ACTION_SIMPLY, "Action Command" },
	{ AT_RESPONSE, "Response" },
	{ AT_ACTION, "Action Command" },
	{ AT_READ, "Read Command" },
	{ AT_RESPONSE_ACK, "Response" },
	{ AT_TEST, "Test Command" },
	{ 0, NULL }
};

F(f_cmd_type, "Type", "at.cmd.type", DK_HEX, 2, at_cmd_types, 0);
F(f_prefix, "Command Line Prefix", "at.command_line_prefix", DK_STRING, 0,
    NULL, 0);
F(f_parameter, "Parameter", "at.parameter", DK_STRING, 0, NULL, 0);
F(f_unknown, "Unknown Parameter", "at.unknown_parameter", DK_STRING, 0,
    NULL, 0);

/* The parameters' fields, with packet-at.c's value names */
static const struct dec_name ccwa_show[] = {
	{ 0, "Disabled" }, { 1, "Enabled" }, { 0, NULL }
};
static const struct dec_name ccwa_modes[] = {
	{ 0, "Disabled" }, { 1, "Enabled" }, { 2, "Query Status" },
	{ 0, NULL }
};
static const struct dec_name ccwa_classes[] = {
	{ 1, "Voice" }, { 2, "Data" }, { 4, "Fax" },
	{ 8, "Short Message Service" }, { 16, "Data Circuit Sync" },
	{ 32, "Data Circuit Async" }, { 64, "Dedicated Packet Access" },
	{ 128, "Dedicated PAD Access" }, { 0, NULL }
};
static const struct dec_name cfun_funs[] = {
	{ 0, "Minimum functionality" },
	{ 1, "Full functionality" },
	{ 2, "Disable phone transmit RF circuits only" },
	{ 3, "Disable phone receive RF circuits only" },
	{ 4, "Disable phone both transmit and receive RF circuits" },
	{ 0, NULL }
};
static const struct dec_name cfun_rsts[] = {
	{ 0, "Do not reset the MT before setting it to the requested "
	    "power level" },
	{ 1, "Reset the MT before setting it to the requested power "
	    "level" },
	{ 0, NULL }
};
static const struct dec_name cme_errors[] = {
	{ 0, "Phone/AG failure" }, { 1, "No Connection to Phone" },
	{ 2, "Phone-adaptor Link Reserved" }, { 3, "Operation not Allowed" },
	{ 4, "Operation not Supported" }, { 5, "PH-SIM PIN required" },
	{ 6, "PH-FSIM PIN Required" }, { 7, "PH-FSIM PUK Required" },
	{ 10, "SIM not Inserted" }, { 11, "SIM PIN Required" },
	{ 12, "SIM PUK Required" }, { 13, "SIM Failure" },
	{ 14, "SIM Busy" }, { 15, "SIM Wrong" },
	{ 16, "Incorrect Password" }, { 17, "SIM PIN2 Required" },
	{ 18, "SIM PUK2 Required" }, { 20, "Memory Full" },
	{ 21, "Invalid Index" }, { 22, "Not Found" },
	{ 23, "Memory Failure" }, { 24, "Text String too Long" },
	{ 25, "Invalid Characters in Text String" },
	{ 26, "Dial String too Long" },
	{ 27, "Invalid Characters in Dial String" },
	{ 30, "No Network Service" }, { 31, "Network Timeout" },
	{ 32, "Network not Allowed - Emergency Calls Only" },
	{ 40, "Network Personalization PIN Required" },
	{ 41, "Network Personalization PUK Required" },
	{ 42, "Network Subset Personalization PIN Required" },
	{ 43, "Network Subset Personalization PUK Required" },
	{ 44, "Service Provider Personalization PIN Required" },
	{ 45, "Service Provider Personalization PUK Required" },
	{ 46, "Corporate Personalization PIN Required" },
	{ 47, "Corporate Personalization PUK Required" },
	{ 48, "Hidden Key Required" }, { 49, "EAP Method not Supported" },
	{ 50, "Incorrect Parameters" }, { 100, "Unknown" },
	{ 0, NULL }
};
static const struct dec_name cmee_modes[] = {
	{ 0, "Disabled" }, { 1, "Enabled" }, { 2, "Verbose" }, { 0, NULL }
};
static const struct dec_name cops_modes[] = {
	{ 0, "Automatic" }, { 1, "Manual" }, { 2, "Deregister from Network" },
	{ 3, "Set Only Format" }, { 4, "Manual/Automatic" }, { 0, NULL }
};
static const struct dec_name cops_formats[] = {
	{ 0, "Long Format Alphanumeric" }, { 1, "Short Format Alphanumeric" },
	{ 2, "Numeric" }, { 0, NULL }
};
static const struct dec_name cops_acts[] = {
	{ 0, "GSM" }, { 1, "GSM Compact" }, { 2, "UTRAN" },
	{ 3, "GSM with EGPRS" }, { 4, "UTRAN with HSDPA" },
	{ 5, "UTRAN with HSUPA" }, { 6, "UTRAN with HSDPA and HSUPA" },
	{ 7, "E-UTRAN" }, { 8, "EC-GSM-IoT (A/Gb mode)" },
	{ 9, "E-UTRAN (NB-S1 mode)" }, { 10, "E-UTRA connected to a 5GCN" },
	{ 11, "NR connected to a 5GCCN" },
	{ 12, "NR connected to an EPS core" }, { 13, "NG-RAN" },
	{ 14, "E-UTRA-NR dual connectivity" }, { 0, NULL }
};
static const struct dec_name cli_validities[] = {
	{ 0, "CLI Valid" },
	{ 1, "CLI has been withheld by the originator" },
	{ 2, "CLI is not available due to interworking problems or "
	    "limitations of originating network" },
	{ 0, NULL }
};
static const struct dec_name cnum_services[] = {
	{ 0, "Asynchronous Modem" }, { 1, "Synchronous Modem" },
	{ 2, "PAD Access" }, { 3, "Packet Access" }, { 4, "Voice" },
	{ 5, "Fax" }, { 0, NULL }
};
static const struct dec_name cnum_itcs[] = {
	{ 0, "3.1 kHz" }, { 1, "UDI" }, { 0, NULL }
};
static const struct dec_name clip_modes[] = {
	{ 0, "Disabled" }, { 1, "Enabled" }, { 0, NULL }
};
static const struct dec_name clip_statuses[] = {
	{ 0, "CLIP not Provisioned" }, { 1, "CLIP Provisioned" },
	{ 2, "Unknown" }, { 0, NULL }
};
static const struct dec_name clcc_dirs[] = {
	{ 0, "Mobile Originated" }, { 1, "Mobile Terminated" }, { 0, NULL }
};
static const struct dec_name clcc_stats[] = {
	{ 0, "Active" }, { 1, "Held" }, { 2, "Dialing" }, { 3, "Alerting" },
	{ 4, "Incoming" }, { 5, "Waiting" }, { 0, NULL }
};
static const struct dec_name clcc_modes[] = {
	{ 0, "Voice" }, { 1, "Data" }, { 2, "Fax" },
	{ 3, "Voice Followed by Data, Voice Mode" },
	{ 4, "Alternating Voice/Data, Voice Mode" },
	{ 5, "Alternating Voice/Fax, Voice Mode" },
	{ 6, "Voice Followed by Data, Data Mode" },
	{ 7, "Alternating Voice/Data, Data Mode" },
	{ 8, "Alternating Voice/Fax, Fax Mode" }, { 9, "Unknown" },
	{ 0, NULL }
};
static const struct dec_name clcc_mptys[] = {
	{ 0, "Call is not one of multiparty (conference) call parties" },
	{ 1, "Call is one of multiparty (conference) call parties" },
	{ 0, NULL }
};
static const struct dec_name csq_bers[] = {
	{ 0, "Less than 0.2 %" }, { 1, "Between 0.2 % and 0.4 %" },
	{ 2, "Between 0.4 % and 0.8 %" }, { 3, "Between 0.8 % and 1.6 %" },
	{ 4, "Between 1.6 % and 3.2 %" }, { 5, "Between 3.2 % and 6.4 %" },
	{ 6, "Between 6.4 % and 12.8 %" }, { 7, "Greater than 12.8 %" },
	{ 99, "Not known or not detectable" }, { 0, NULL }
};
static const struct dec_name csq_rssis[] = {
	{ 0, "-113 dBm or less" }, { 1, "-111 dBm" }, { 2, "-109 dBm" },
	{ 3, "-107 dBm" }, { 4, "-105 dBm" }, { 5, "-103 dBm" },
	{ 6, "-101 dBm" }, { 7, "-99 dBm" }, { 8, "-97 dBm" },
	{ 9, "-95 dBm" }, { 10, "-93 dBm" }, { 11, "-91 dBm" },
	{ 12, "-89 dBm" }, { 13, "-87 dBm" }, { 14, "-85 dBm" },
	{ 15, "-83 dBm" }, { 16, "-81 dBm" }, { 17, "-79 dBm" },
	{ 18, "-77 dBm" }, { 19, "-75 dBm" }, { 20, "-73 dBm" },
	{ 21, "-71 dBm" }, { 22, "-69 dBm" }, { 23, "-67 dBm" },
	{ 24, "-65 dBm" }, { 25, "-63 dBm" }, { 26, "-61 dBm" },
	{ 27, "-59 dBm" }, { 28, "-57 dBm" }, { 29, "-55 dBm" },
	{ 30, "-53 dBm" }, { 31, "-51 dBm or greater" },
	{ 99, "Not known or not detectable" }, { 0, NULL }
};
static const struct dec_name chld_modes[] = {
	{ 0, "Releases all held calls or sets User Determined User Busy "
	    "(UDUB) for a waiting call" },
	{ 1, "Releases all active calls (if any exist) and accepts the "
	    "other (held or waiting) call" },
	{ 2, "Places all active calls (if any exist) on hold and accepts "
	    "the other (held or waiting) call" },
	{ 3, "Adds a held call to the conversation" },
	{ 4, "Connects the two calls and disconnects the subscriber from "
	    "both calls (Explicit Call Transfer)" },
	{ 0, NULL }
};
static const struct dec_name cmux_port_speeds[] = {
	{ 1, "9,600 bit/s" }, { 2, "19,200 bit/s" }, { 3, "38,400 bit/s" },
	{ 4, "57,600 bit/s" }, { 5, "115,200 bit/s" }, { 6, "230,400 bit/s" },
	{ 0, NULL }
};
static const struct dec_name cmux_subsets[] = {
	{ 0, "UIH frames used only" }, { 1, "UI frames used only" },
	{ 2, "I frames used only" }, { 0, NULL }
};
static const struct dec_name cmux_transparencies[] = {
	{ 0, "Basic option" }, { 1, "Advanced option" }, { 0, NULL }
};
static const struct dec_name cmgr_modes[] = {
	{ 0, "Normal (Change unread to read)" },
	{ 1, "Do not change unread to read" }, { 0, NULL }
};
static const struct dec_name cmgr_stats[] = {
	{ 0, "Received unread (i.e. new message)" }, { 1, "Received read" },
	{ 2, "Stored unsent" }, { 3, "Stored sent" }, { 4, "All" },
	{ 0, NULL }
};
static const struct dec_name zusim_cards[] = {
	{ 0, "SIM" }, { 1, "USIM" }, { 0, NULL }
};

#define U	DK_UINT
#define S	DK_STRING
F(f_ccwa_show, "Show Result Code Presentation Status",
    "at.ccwa.presentation_status", U, 4, ccwa_show, 0);
F(f_ccwa_mode, "Mode", "at.ccwa.mode", U, 4, ccwa_modes, 0);
F(f_ccwa_class, "Class", "at.ccwa.class", U, 4, ccwa_classes, 0);
F(f_cfun_fun, "Functionality", "at.cfun.fun", U, 1, cfun_funs, 0);
F(f_cfun_rst, "Reset", "at.cfun.rst", U, 1, cfun_rsts, 0);
F(f_cgmi, "Manufacturer Identification", "at.cgmi.manufacturer_id", S, 0,
    NULL, 0);
F(f_cgmm, "Model Identification", "at.cgmm.model_id", S, 0, NULL, 0);
F(f_cgmr, "Revision Identification", "at.cgmr.revision_id", S, 0, NULL, 0);
F(f_gmi, "Manufacturer Identification", "at.gmi.manufacturer_id", S, 0,
    NULL, 0);
F(f_gmm, "Model Identification", "at.gmm.model_id", S, 0, NULL, 0);
F(f_gmr, "Revision Identification", "at.gmr.revision_id", S, 0, NULL, 0);
F(f_ciev_index, "Indicator Index", "at.ciev.indicator_index", U, 1, NULL,
    0);
F(f_ind1, "Indicator 1", "at.indicator.1", S, 0, NULL, 0);
F(f_ind2, "Indicator 2", "at.indicator.2", S, 0, NULL, 0);
F(f_ind3, "Indicator 3", "at.indicator.3", S, 0, NULL, 0);
F(f_ind4, "Indicator 4", "at.indicator.4", S, 0, NULL, 0);
F(f_ind5, "Indicator 5", "at.indicator.5", S, 0, NULL, 0);
F(f_ind6, "Indicator 6", "at.indicator.6", S, 0, NULL, 0);
F(f_ind7, "Indicator 7", "at.indicator.7", S, 0, NULL, 0);
F(f_ind8, "Indicator 8", "at.indicator.8", S, 0, NULL, 0);
F(f_ind9, "Indicator 9", "at.indicator.9", S, 0, NULL, 0);
F(f_ind10, "Indicator 10", "at.indicator.10", S, 0, NULL, 0);
F(f_ind11, "Indicator 11", "at.indicator.11", S, 0, NULL, 0);
F(f_ind12, "Indicator 12", "at.indicator.12", S, 0, NULL, 0);
F(f_ind13, "Indicator 13", "at.indicator.13", S, 0, NULL, 0);
F(f_ind14, "Indicator 14", "at.indicator.14", S, 0, NULL, 0);
F(f_ind15, "Indicator 15", "at.indicator.15", S, 0, NULL, 0);
F(f_ind16, "Indicator 16", "at.indicator.16", S, 0, NULL, 0);
F(f_ind17, "Indicator 17", "at.indicator.17", S, 0, NULL, 0);
F(f_ind18, "Indicator 18", "at.indicator.18", S, 0, NULL, 0);
F(f_ind19, "Indicator 19", "at.indicator.19", S, 0, NULL, 0);
F(f_ind20, "Indicator 20", "at.indicator.20", S, 0, NULL, 0);
F(f_clcc_id, "ID", "at.clcc.id", U, 4, NULL, 0);
F(f_clcc_dir, "Direction", "at.clcc.dir", U, 4, clcc_dirs, 0);
F(f_clcc_stat, "State", "at.clcc.stat", U, 4, clcc_stats, 0);
F(f_clcc_mode, "Mode", "at.clcc.mode", U, 4, clcc_modes, 0);
F(f_clcc_mpty, "Mpty", "at.clcc.mpty", U, 4, clcc_mptys, 0);
F(f_number, "Number", "at.number", S, 0, NULL, 0);
F(f_type, "Type", "at.type", U, 1, NULL, 0);
F(f_subaddress, "Subaddress", "at.subaddress", S, 0, NULL, 0);
F(f_subaddress_type, "Subaddress Type", "at.subaddress_type", U, 1, NULL,
    0);
F(f_alpha, "Alpha", "at.alpha", S, 0, NULL, 0);
F(f_cli_validity, "CLI Validity", "at.cli_validity", U, 1, cli_validities,
    0);
F(f_priority, "Priority", "at.priority", U, 1, NULL, 0);
F(f_clip_mode, "Mode", "at.clip.mode", U, 1, clip_modes, 0);
F(f_clip_status, "Status", "at.clip.status", U, 1, clip_statuses, 0);
F(f_cme_error, "CME Error (Numeric)", "at.cme_error", U, 1, cme_errors, 0);
F(f_cme_verbose, "CME Error (Verbose)", "at.cme_error_verbose", S, 0, NULL,
    0);
F(f_cmee, "Mode", "at.cmee", U, 1, cmee_modes, 0);
F(f_cmer_mode, "Mode", "at.cmer.mode", U, 1, NULL, 0);
F(f_cmer_keyp, "Keypad", "at.cmer.keyp", U, 1, NULL, 0);
F(f_cmer_disp, "Display", "at.cmer.disp", U, 1, NULL, 0);
F(f_cmer_ind, "Indicator", "at.cmer.ind", U, 1, NULL, 0);
F(f_cmer_bfr, "Buffer", "at.cmer.bfr", U, 1, NULL, 0);
F(f_cnum_speed, "Speed", "at.cnum.speed", U, 1, NULL, 0);
F(f_cnum_service, "Service", "at.cnum.service", U, 1, cnum_services, 0);
F(f_cnum_itc, "Information Transfer Capability", "at.cnum.itc", U, 1,
    cnum_itcs, 0);
F(f_cops_mode, "Mode", "at.cops.mode", U, 1, cops_modes, 0);
F(f_cops_format, "Format", "at.cops.format", U, 1, cops_formats, 0);
F(f_cops_operator, "Operator", "at.cops.operator", S, 0, NULL, 0);
F(f_cops_act, "AcT", "at.cops.act", U, 1, cops_acts, 0);
F(f_cpin_code, "Code", "at.cpin.code", S, 0, NULL, 0);
F(f_cpin_pin, "PIN", "at.cpin.pin", S, 0, NULL, 0);
F(f_cpin_newpin, "New PIN", "at.cpin.newpin", S, 0, NULL, 0);
F(f_cpms_mem1, "Read Memory Storage", "at.cpms.mem1", S, 0, NULL, 0);
F(f_cpms_mem2, "Write Memory Storage", "at.cpms.mem2", S, 0, NULL, 0);
F(f_cpms_mem3, "Receive Memory Storage", "at.cpms.mem3", S, 0, NULL, 0);
F(f_cpms_total1, "Read Storage Capacity", "at.cpms.total1", U, 4, NULL, 0);
F(f_cpms_total2, "Write Storage Capacity", "at.cpms.total2", U, 4, NULL, 0);
F(f_cpms_total3, "Receive Storage Capacity", "at.cpms.total3", U, 4, NULL,
    0);
F(f_cpms_used1, "Read Storage Messages Count", "at.cpms.used1", U, 4, NULL,
    0);
F(f_cpms_used2, "Write Storage Messages Count", "at.cpms.used2", U, 4,
    NULL, 0);
F(f_cpms_used3, "Receive Storage Messages Count", "at.cpms.used3", U, 4,
    NULL, 0);
F(f_cscs_chset, "Character Set", "at.cscs.chset", S, 0, NULL, 0);
F(f_csq_rssi, "RSSI", "at.csq.rssi", U, 1, csq_rssis, 0);
F(f_csq_ber, "BER", "at.csq.ber", U, 1, csq_bers, 0);
F(f_vts_dtmf, "DTMF", "at.vts.dtmf", S, 0, NULL, 0);
F(f_vts_duration, "Duration", "at.vts.duration", U, 4, NULL, 0);
F(f_zpas_network, "Network type", "at.zpas.network", S, 0, NULL, 0);
F(f_zpas_srv_domain, "Service domain", "at.zpas.srv_domain", S, 0, NULL,
    0);
F(f_zusim_card, "USIM card type", "at.zusim.usim_card", U, 1, zusim_cards,
    0);
F(f_cgdcont_cid, "CID", "at.cgdcont.cid", U, 4, NULL, 0);
F(f_cgdcont_pdp_type, "PDP type", "at.cgdcont.pdp_type", S, 0, NULL, 0);
F(f_cgdcont_apn, "APN", "at.cgdcont.apn", S, 0, NULL, 0);
F(f_cgdcont_pdp_addr, "PDP address", "at.cgdcont.pdp_addr", S, 0, NULL, 0);
F(f_cgdcont_d_comp, "Data compression", "at.cgdcont.d_comp", U, 4, NULL,
    0);
F(f_cgdcont_h_comp, "Header compression", "at.cgdcont.h_comp", U, 4, NULL,
    0);
F(f_chld_mode_value, "Mode", "at.chld.mode_value", U, 1, chld_modes, 0);
F(f_chld_mode, "Mode", "at.chld.mode", S, 0, NULL, 0);
F(f_chld_supported, "Supported Modes", "at.chld.supported_modes", S, 0,
    NULL, 0);
F(f_cimi_imsi, "IMSI", "at.cimi.imsi", S, 0, NULL, 0);
F(f_csim_length, "Length", "at.csim.length", U, 4, NULL, 0);
F(f_csim_command, "Command", "at.csim.command", S, 0, NULL, 0);
F(f_csim_response, "Response", "at.csim.response", S, 0, NULL, 0);
F(f_cmux_transparency, "Transparency Mechanism", "at.transparency", U, 1,
    cmux_transparencies, 0);
F(f_cmux_subset, "Subset", "at.subset", U, 1, cmux_subsets, 0);
F(f_cmux_port_speed, "Transmission Rate", "at.port_speed", U, 1,
    cmux_port_speeds, 0);
F(f_cmux_n1, "Maximum Frame Size", "at.n1", U, 2, NULL, 0);
F(f_cmux_t1, "Acknowledgement Timer", "at.t1", U, 1, NULL, 0);
F(f_cmux_n2, "Maximum Number of Re-transmissions", "at.n2", U, 1, NULL, 0);
F(f_cmux_t2, "Response Timer", "at.t2", U, 1, NULL, 0);
F(f_cmux_t3, "Wake Up Response Timer", "at.t3", U, 1, NULL, 0);
F(f_cmux_k, "Window Size", "at.k", U, 1, NULL, 0);
F(f_cmgl_req_status, "Requested Status", "at.cmgl.req_status", S, 0, NULL,
    0);
F(f_cmgl_index, "Index", "at.cmgl.msg_index", U, 2, NULL, 0);
F(f_cmgl_status, "Status", "at.cmgl.msg_status", S, 0, NULL, 0);
F(f_cmgl_originator, "Originator Name", "at.cmgl.originator_name", S, 0,
    NULL, 0);
F(f_cmgl_length, "Length", "at.cmgl.pdu_length", U, 2, NULL, 0);
F(f_cmgl_pdu, "SMS PDU", "at.cmgl.pdu", S, 0, NULL, 0);
F(f_cmgr_index, "Index", "at.cmgr.msg_index", U, 2, NULL, 0);
F(f_cmgr_mode, "Mode", "at.cmgr.mode", U, 2, cmgr_modes, 0);
F(f_cmgr_status, "Status", "at.cmgr.status", U, 4, cmgr_stats, 0);
F(f_cmgr_address, "Address", "at.cmgr.address", S, 0, NULL, 0);
F(f_cmgr_length, "Length", "at.cmgr.pdu_length", U, 2, NULL, 0);
F(f_cmgr_pdu, "SMS PDU", "at.cmgr.pdu", S, 0, NULL, 0);
F(f_data_part, "Data Part", "at.data_part", DK_LABEL, 0, NULL, 0);
#undef U
#undef S

#define AT_MIN_PADDED	4	/* MIN_PADDED_ALLOWED_CHARS */

/* g_ascii_isprint, CR or LF */
static int
at_char(uint8_t c)
{
	return (c >= 0x20 && c < 0x7f) || c == '\r' || c == '\n';
}

/* The length of the text at p[0..n): printable, CR and LF. */
static size_t
at_text(const uint8_t *p, size_t n)
{
	size_t	 text;

	for (text = 0; text < n && at_char(p[text]); text++)
		continue;
	return text;
}

int
dec_at_heuristic(const uint8_t *p, size_t n)
{
	size_t	 i, text;

	if (!((n >= 2 && p[0] == '\r' && p[1] == '\n') ||
	    (n >= 3 && p[0] == '\r' && p[1] == '\r' && p[2] == '\n') ||
	    (n >= 2 && p[0] == 'A' && p[1] == 'T')))
		return 0;
	text = at_text(p, n);
	if (text == n)
		return 1;
	if (text <= AT_MIN_PADDED)
		return 0;
	for (i = text; i < n; i++) {
		if (p[i] != 0x00)
			return 0;
	}
	return 1;
}

/* The text p[0..n) as Wireshark shows a string (format_text): CR, LF
 * and backslash escaped. */
static const char *
at_escaped(struct dec_tree *t, const uint8_t *p, size_t n)
{
	size_t	 i, len = 0;
	char	*s, *o;

	for (i = 0; i < n; i++)
		len += p[i] == '\r' || p[i] == '\n' || p[i] == '\\' ? 2 : 1;
	if ((s = dec_tree_alloc(t, len)) == NULL)
		return NULL;
	for (i = 0, o = s; i < n; i++) {
		if (p[i] == '\r' || p[i] == '\n' || p[i] == '\\') {
			*o++ = '\\';
			*o++ = p[i] == '\r' ? 'r' : p[i] == '\n' ? 'n' : '\\';
		} else
			*o++ = (char)p[i];
	}
	return s;
}

/* The transfer's length as tshark reports the payload: usbmon's
 * urb_len (more than the capture has when usbmon cut the data at its
 * len_cap), the header's length for the other formats. */
static uint32_t
at_reported(const struct urb_rec *r)
{
	if (r->origin == URB_ORIGIN_USBPCAP || r->origin == URB_ORIGIN_DARWIN)
		return urb_data_expected(r);
	return r->len_urb;
}


/*
 * packet-at.c's table of commands (at_cmds), in its order: a command is
 * the first whose name starts the text.  Its parameters are decoded as
 * fields dte[number] for a DTE's set command ('='), dce[number] for a
 * DCE's response (':'); other parameters of a known command are
 * at.unknown_parameter, those of an unknown command (and of "D")
 * at.parameter.
 */
enum at_how {
	AT_FIELDS,		/* dte[], dce[] */
	AT_MORE,		/* dte[], dce[], then at.parameter */
	AT_TEXT,		/* at.parameter (no decoder in packet-at.c) */
	AT_CME,			/* +CME ERROR: numeric or verbose */
	AT_CIEV,		/* +CIEV: index, then that indicator */
	AT_CHLD,		/* +CHLD: a mode (1x, 2x) or the modes */
	AT_CMUX,		/* +CMUX: 27.010's parameters */
	AT_CSIM,		/* +CSIM: length and APDU */
};

struct at_cmd {
	const char			*name;
	const char			*long_name;
	uint8_t				 how;	/* enum at_how */
	uint8_t				 ndte;
	uint8_t				 ndce;
	/* the DCE's parameter after which the next line is the data part
	 * (an SMS PDU in hex) of field pdu */
	uint8_t				 part;
	const struct dec_field		*pdu;
	const struct dec_field *const	*dte;
	const struct dec_field *const	*dce;
};

static const struct dec_field *const p_ccwa_dte[] = {
	&f_ccwa_show, &f_ccwa_mode, &f_ccwa_class
};
static const struct dec_field *const p_ccwa_dce[] = {
	&f_number, &f_type, &f_ccwa_class, &f_alpha, &f_cli_validity,
	&f_subaddress, &f_subaddress_type, &f_priority
};
static const struct dec_field *const p_cfun[] = { &f_cfun_fun, &f_cfun_rst };
/* (the identifications take a first and a second parameter alike) */
static const struct dec_field *const p_cgmi[] = { &f_cgmi, &f_cgmi };
static const struct dec_field *const p_cgmm[] = { &f_cgmm, &f_cgmm };
static const struct dec_field *const p_cgmr[] = { &f_cgmr, &f_cgmr };
static const struct dec_field *const p_gmi[] = { &f_gmi, &f_gmi };
static const struct dec_field *const p_gmm[] = { &f_gmm, &f_gmm };
static const struct dec_field *const p_gmr[] = { &f_gmr, &f_gmr };
static const struct dec_field *const p_ind[] = {
	&f_ind1, &f_ind2, &f_ind3, &f_ind4, &f_ind5, &f_ind6, &f_ind7,
	&f_ind8, &f_ind9, &f_ind10, &f_ind11, &f_ind12, &f_ind13, &f_ind14,
	&f_ind15, &f_ind16, &f_ind17, &f_ind18, &f_ind19, &f_ind20
};
static const struct dec_field *const p_clcc[] = {
	&f_clcc_id, &f_clcc_dir, &f_clcc_stat, &f_clcc_mode, &f_clcc_mpty,
	&f_number, &f_type, &f_alpha, &f_priority
};
static const struct dec_field *const p_clip_dte[] = {
	&f_clip_mode, &f_clip_status
};
static const struct dec_field *const p_clip_dce[] = {
	&f_number, &f_type, &f_subaddress, &f_subaddress_type, &f_alpha,
	&f_cli_validity
};
static const struct dec_field *const p_cme[] = { &f_cme_error };
static const struct dec_field *const p_cmee[] = { &f_cmee };
static const struct dec_field *const p_cmer[] = {
	&f_cmer_mode, &f_cmer_keyp, &f_cmer_disp, &f_cmer_ind, &f_cmer_bfr
};
static const struct dec_field *const p_cnum[] = {
	&f_alpha, &f_number, &f_type, &f_cnum_speed, &f_cnum_service,
	&f_cnum_itc
};
static const struct dec_field *const p_cops[] = {
	&f_cops_mode, &f_cops_format, &f_cops_operator, &f_cops_act
};
static const struct dec_field *const p_cpin_dte[] = {
	&f_cpin_pin, &f_cpin_newpin
};
static const struct dec_field *const p_cpin_dce[] = { &f_cpin_code };
static const struct dec_field *const p_cpms_dte[] = {
	&f_cpms_mem1, &f_cpms_mem2, &f_cpms_mem3
};
static const struct dec_field *const p_cpms_dce[] = {
	&f_cpms_used1, &f_cpms_total1, &f_cpms_used2, &f_cpms_total2,
	&f_cpms_used3, &f_cpms_total3
};
static const struct dec_field *const p_cscs[] = { &f_cscs_chset };
static const struct dec_field *const p_csq[] = { &f_csq_rssi, &f_csq_ber };
static const struct dec_field *const p_vts[] = {
	&f_vts_dtmf, &f_vts_duration
};
static const struct dec_field *const p_zpas[] = {
	&f_zpas_network, &f_zpas_srv_domain
};
static const struct dec_field *const p_zusim[] = { &f_zusim_card };

/* +CGDCONT's six parameters as tshark 4.0 decodes them (a DTE's set
 * command, a DCE's answer), any further ones as at.parameter */
static const struct dec_field *const p_cgdcont[] = {
	&f_cgdcont_cid, &f_cgdcont_pdp_type, &f_cgdcont_apn,
	&f_cgdcont_pdp_addr, &f_cgdcont_d_comp, &f_cgdcont_h_comp
};
static const struct dec_field *const p_cimi[] = { &f_cimi_imsi };
static const struct dec_field *const p_cmgl_dte[] = { &f_cmgl_req_status };
static const struct dec_field *const p_cmgl_dce[] = {
	&f_cmgl_index, &f_cmgl_status, &f_cmgl_originator, &f_cmgl_length
};
static const struct dec_field *const p_cmgr_dte[] = {
	&f_cmgr_index, &f_cmgr_mode
};
/* (a fourth parameter is taken, and shown as nothing) */
static const struct dec_field *const p_cmgr_dce[] = {
	&f_cmgr_status, &f_cmgr_address, &f_cmgr_length, NULL
};
static const struct dec_field *const p_cmux[] = {
	&f_cmux_transparency, &f_cmux_subset, &f_cmux_port_speed, &f_cmux_n1,
	&f_cmux_t1, &f_cmux_n2, &f_cmux_t2, &f_cmux_t3, &f_cmux_k
};

#define N(a)	(uint8_t)(sizeof (a) / sizeof (a)[0])
#define DTE(a)	AT_FIELDS, N(a), 0, 0, NULL, a, NULL
#define DCE(a)	AT_FIELDS, 0, N(a), 0, NULL, NULL, a
#define BOTH(a, b)	AT_FIELDS, N(a), N(b), 0, NULL, a, b
#define PART(a, b, n, f)	AT_FIELDS, N(a), N(b), n, f, a, b
#define NONE	AT_FIELDS, 0, 0, 0, NULL, NULL, NULL
#define OTHER(how)	how, 0, 0, 0, NULL, NULL, NULL

static const struct at_cmd at_cmds[] = {
	{ "+CCWA", "Call Waiting Notification",
	  BOTH(p_ccwa_dte, p_ccwa_dce) },
	{ "+CFUN", "Set Phone Functionality",
	  BOTH(p_cfun, p_cfun) },
	{ "+CGDCONT", "PDP context define",
	  AT_MORE, N(p_cgdcont), N(p_cgdcont), 0, NULL, p_cgdcont,
	  p_cgdcont },
	{ "+CGMI", "Request manufacturer identification",
	  DCE(p_cgmi) },
	{ "+CGMM", "Request model identification",
	  DCE(p_cgmm) },
	{ "+CGMR", "Request revision identification",
	  DCE(p_cgmr) },
	{ "+CGSN", "Request Product Serial Number Identification (ESN/IMEI)",
	  NONE },
	{ "+CHLD", "Call Hold and Multiparty Handling",
	  OTHER(AT_CHLD) },
	{ "+CHUP", "Call Hang-up",
	  NONE },
	{ "+CIEV", "Indicator Events Reporting",
	  OTHER(AT_CIEV) },
	{ "+CIMI", "Request International Mobile Subscriber Identity (IMSI)",
	  DCE(p_cimi) },
	{ "^CIMI", "Request International Mobile Subscriber Identity (IMSI)",
	  DCE(p_cimi) },
	{ "+CIND", "Phone Indicators",
	  DCE(p_ind) },
	{ "+CLAC", "List All Available AT Commands",
	  NONE },
	{ "+CLCC", "Current Calls",
	  DCE(p_clcc) },
	{ "+CLIP", "Calling Line Identification Notification",
	  BOTH(p_clip_dte, p_clip_dce) },
	{ "+CME ERROR", "Mobile Termination Error Result Code",
	  OTHER(AT_CME) },
	{ "+CMEE", "Mobile Equipment Error",
	  BOTH(p_cmee, p_cmee) },
	{ "+CMER", "Event Reporting Activation/Deactivation",
	  DTE(p_cmer) },
	{ "+CMGL", "List SMS messages",
	  PART(p_cmgl_dte, p_cmgl_dce, 3, &f_cmgl_pdu) },
	{ "+CMGR", "Read SMS message",
	  PART(p_cmgr_dte, p_cmgr_dce, 2, &f_cmgr_pdu) },
	{ "+CMUX", "Multiplexing mode",
	  OTHER(AT_CMUX) },
	{ "+CNUM", "Subscriber Number Information",
	  DCE(p_cnum) },
	{ "+COPS", "Reading Network Operator",
	  BOTH(p_cops, p_cops) },
	{ "+CPIN", "Enter SIM PIN",
	  BOTH(p_cpin_dte, p_cpin_dce) },
	{ "+CPMS", "Preferred Message Storage",
	  BOTH(p_cpms_dte, p_cpms_dce) },
	{ "+CSCS", "Select TE Character Set",
	  BOTH(p_cscs, p_cscs) },
	{ "+CSIM", "Generic SIM access",
	  OTHER(AT_CSIM) },
	{ "+CSQ", "Signal Quality",
	  DCE(p_csq) },
	{ "+CSUPI", "Request 5G subscription permanent identifier",
	  NONE },
	{ "+GMI", "Request manufacturer identification",
	  DCE(p_gmi) },
	{ "+GMM", "Request model identification",
	  DCE(p_gmm) },
	{ "+GMR", "Request revision identification",
	  DCE(p_gmr) },
	{ "+GSN", "Request Product Serial Number Identification (ESN/IMEI)",
	  NONE },
	{ "+VTS", "DTMF and tone generation",
	  DTE(p_vts) },
	{ "+ZPAS", "Check Card Status",
	  DCE(p_zpas) },
	{ "+ZUSIM", "Check USIM Card Type",
	  DCE(p_zusim) },
	{ "ERROR", "ERROR",
	  NONE },
	{ "RING", "Incoming Call Indication",
	  NONE },
	{ "OK", "OK",
	  NONE },
	{ "D", "Dial",
	  OTHER(AT_TEXT) },
	{ "A", "Call Answer",
	  NONE },
	{ "E0", "Disable Echo",
	  NONE },
	{ "E1", "Enable Echo",
	  NONE },
	{ "I", "Product Identification Information",
	  NONE },
	{ NULL, NULL, OTHER(AT_TEXT) }	/* an unknown command */
};

/* The text of p[0..n) being parsed: its characters in upper case (as
 * packet-at.c parses a g_ascii_toupper copy), NUL past its end. */
struct at_text {
	const uint8_t	*p;
	size_t		 n;
	struct dec_tree	*t;
	int		 role;
	/* the data part the last command expects on its next line */
	const struct dec_field *pdu;
	unsigned	 pdu_cmd;	/* that command's number */
};

static int
at_c(const struct at_text *x, size_t i)
{
	int	 c;

	if (i >= x->n)
		return 0;
	c = x->p[i];
	return c >= 'a' && c <= 'z' ? c - 'a' + 'A' : c;
}

/* g_ascii_strtoull(s, NULL, 10) of the parameter p[off..off+len), cut to
 * 32 bits (get_uint_parameter): blanks, a sign, the digits. */
static uint32_t
at_uint(const struct at_text *x, size_t off, size_t len)
{
	uint64_t v = 0;
	size_t	 i = off, end = off + len;
	int	 neg = 0, c;

	while (i < end && ((c = at_c(x, i)) == ' ' || (c >= '\t' &&
	    c <= '\r')))
		i++;
	if (i < end && (at_c(x, i) == '-' || at_c(x, i) == '+'))
		neg = at_c(x, i++) == '-';
	for (; i < end && (c = at_c(x, i)) >= '0' && c <= '9'; i++) {
		if (v > (UINT64_MAX - (uint64_t)(c - '0')) / 10) {
			v = UINT64_MAX;		/* ERANGE: G_MAXUINT64 */
			neg = 0;
			break;
		}
		v = v * 10 + (uint64_t)(c - '0');
	}
	return (uint32_t)(neg ? 0 - v : v);
}

/* A node of field f over p[off..off+len): its text or the number v. */
static struct dec_node *
at_node(const struct at_text *x, const struct dec_field *f, size_t off,
    size_t len, uint32_t v)
{
	struct dec_node	*n;

	n = dec_tree_add(x->t, f, DB_DATA, (uint32_t)off, (uint32_t)len, v);
	if (n != NULL && f->kind == DK_STRING)
		n->str = at_escaped(x->t, x->p + off, len);
	return n;
}

/* A node of field f over p[off..off+len): its text or its number. */
static struct dec_node *
at_field(const struct at_text *x, const struct dec_field *f, size_t off,
    size_t len)
{
	if (f == NULL)
		return NULL;
	return at_node(x, f, off, len, f->kind == DK_STRING ? 0 :
	    at_uint(x, off, len));
}

/* What +CPIN's code says: READY (compared over the code's length, case
 * blind), else the password the MT waits for. */
static const char *
at_cpin_note(const struct at_text *x, size_t off, size_t len)
{
	static const char ready[] = "READY";
	size_t	 i;

	for (i = 0; i < len && i < sizeof ready - 1; i++) {
		if (at_c(x, off + i) != ready[i])
			break;
	}
	if (i == len)
		return "MT is not pending for any password";
	return dec_tree_printf(x->t, "MT is waiting %.*s to be given",
	    (int)len, (const char *)x->p + off);
}

/* Parameter num of command c (dissect_*_parameter): 1 when decoded, 0
 * for at.unknown_parameter. */
static int
at_param(struct at_text *x, const struct at_cmd *c, uint16_t type,
    unsigned num, size_t off, size_t len, uint32_t *data)
{
	struct dec_node	*n;
	size_t	 i;
	uint32_t v;
	int	 ch, dte_set = x->role == AT_ROLE_DTE && type == AT_ACTION;
	int	 dce_answer = x->role == AT_ROLE_DCE && type == AT_RESPONSE;

	switch (c->how) {
	case AT_CME:
		if (!dce_answer || num > 0)
			return 0;
		/* a verbose message when anything but digits and blanks */
		for (i = 0; i < len; i++) {
			ch = at_c(x, off + i);
			if ((ch < '0' || ch > '9') && ch != ' ') {
				at_field(x, &f_cme_verbose, off, len);
				return 1;
			}
		}
		at_field(x, p_cme[0], off, len);
		return 1;
	case AT_CIEV:
		if (!dce_answer)
			return 1;
		if (num == 0) {
			*data = at_uint(x, off, len);
			at_field(x, &f_ciev_index, off, len);
		} else if (num == 1) {
			/* an index out of 1..20 is only an expert note */
			v = *data - 1;
			if (v < N(p_ind))
				at_field(x, p_ind[v], off, len);
		} else
			return 0;
		return 1;
	case AT_CHLD:
		if (!dte_set && !dce_answer)
			return 0;
		if (dte_set && num == 0) {
			/* the mode is the first character: 1x and 2x name
			 * a call */
			v = at_uint(x, off, 1);
			if (len >= 2 && x->p[off + 1] == 'x' &&
			    (v == 1 || v == 2))
				at_field(x, &f_chld_mode, off, len);
			at_node(x, &f_chld_mode_value, off, len, v);
			return 1;
		}
		at_field(x, &f_chld_supported, off, len);
		return 1;
	case AT_CMUX:
		if ((!dte_set && !dce_answer) || num > 8)
			return 0;
		v = len != 0 ? at_uint(x, off, len) : 0;
		if (num == 1 && type != AT_ACTION && len == 0)
			return 1;	/* a response may leave it out */
		if (num == 2) {
			/* an FT_UINT8 read from the text as a big-endian
			 * number of its first 4 bytes at most ("5" is 53);
			 * an empty one is not shown */
			for (v = 0, i = 0; i < len && i < 4; i++)
				v = v << 8 | x->p[off + i];
			if (len > 0)
				at_node(x, p_cmux[2], off, len, v);
			return 1;
		}
		at_node(x, p_cmux[num], off, len, v);
		return 1;
	case AT_CSIM:
		if (!dte_set && !dce_answer)
			return 0;
		if (num == 0)
			at_field(x, &f_csim_length, off, len);
		else if (num == 1)
			at_field(x, dte_set ? &f_csim_command :
			    &f_csim_response, off, len);
		return 1;
	default:
		break;
	}
	if (dte_set && num < c->ndte) {
		at_field(x, c->dte[num], off, len);
		return 1;
	}
	if (dce_answer && num < c->ndce) {
		n = at_field(x, c->dce[num], off, len);
		if (n != NULL && n->f == &f_cpin_code)
			n->note = at_cpin_note(x, off, len);
		if (c->pdu != NULL && num == c->part)
			x->pdu = c->pdu;
		return 1;
	}
	if ((dte_set || dce_answer) && c->how == AT_MORE) {
		at_field(x, &f_parameter, off, len);
		return 1;
	}
	return 0;
}

/* Does the upper-case text at i start with name? (g_str_has_prefix) */
static int
at_prefix(const struct at_text *x, size_t i, const char *name)
{
	for (; *name != '\0'; name++, i++) {
		if (at_c(x, i) != *name)
			return 0;
	}
	return 1;
}

/* The command's heading: "Command 0: +CSQ", "Command 1: +CREG
 * (Unknown)" with the name in upper case. */
static const char *
at_label(const struct at_text *x, const char *head, const struct at_cmd *c,
    size_t base, size_t len)
{
	char	*name;
	size_t	 i;

	if (c == NULL)
		return dec_tree_printf(x->t, "%s: AT", head);
	if (c->name != NULL)
		return dec_tree_printf(x->t, "%s: %s", head, c->name);
	if ((name = dec_tree_alloc(x->t, len)) == NULL)
		return head;
	for (i = 0; i < len; i++)
		name[i] = (char)at_c(x, base + i);
	return dec_tree_printf(x->t, "%s: %s (Unknown)", head, name);
}

/* The characters that end a command's name. */
static int
at_name_end(int c)
{
	return c == '\r' || c == '=' || c == ';' || c == '?' || c == ':';
}

/*
 * Command no of the text, from off (dissect_at_command); returns the
 * offset after it.  shown is 0 where packet-at.c has no tree for it
 * (a DTE's commands after the first): parsed, not shown.
 */
static size_t
at_command(struct at_text *x, size_t off, unsigned no)
{
	struct dec_tree		*t = x->t;
	struct dec_node		*item = NULL, *params = NULL, *n;
	const struct at_cmd	*c = NULL;
	size_t			 i = 0, at, base, pl, first, last;
	uint16_t		 type = 0;
	unsigned		 num = 0;
	uint32_t		 brackets, data = 0;
	int			 quoted, next, shown = 0, ch;
	uint8_t			 depth = t->depth;
	struct dec_tree		 none;

	if (off >= x->n)
		return x->n;
	x->pdu = NULL;
	x->pdu_cmd = no;
	base = off;
	if (x->role == AT_ROLE_DTE && no == 0) {
		/* the command line prefix, anywhere in the text */
		for (at = off; at + 1 < x->n; at++) {
			if (at_c(x, at) == 'A' && at_c(x, at + 1) == 'T')
				break;
		}
		if (at + 1 >= x->n)
			return x->n;	/* no "AT": the stream only */
		item = dec_tree_push(t, "Command 0", DB_DATA, (uint32_t)off, 0);
		if (item != NULL)
			item->f = &f_command;
		shown = 1;
		if (at > off)
			dec_tree_add(t, &f_ignored, DB_DATA, (uint32_t)off,
			    (uint32_t)(at - off), 0);
		at_node(x, &f_prefix, at, 2, 0);
		base = at + 2;
	} else if (x->role != AT_ROLE_DTE) {
		item = dec_tree_push(t, dec_tree_printf(t, "Command %u", no),
		    DB_DATA, (uint32_t)off, 0);
		if (item != NULL)
			item->f = &f_command;
		shown = 1;
		/* blanks before a response */
		while ((ch = at_c(x, base)) == '\r' || ch == '\n' ||
		    ch == ' ' || ch == '\t')
			base++;
	}
	if (!shown) {
		/* parse into a tree of no room: nothing is added */
		dec_tree_init(&none, NULL, 0, NULL, 0);
		x->t = &none;
	}

	/* the name, matched on the table by prefix */
	while (base + i < x->n && !at_name_end(at_c(x, base + i)))
		i++;
	if (at_c(x, base) == '\r') {
		/* "AT" alone: the prefix is the command */
		if (base >= 2)
			at_node(x, &f_cmd, base - 2, 2, 0);
	} else {
		for (c = at_cmds; c->name != NULL; c++) {
			if (at_prefix(x, base, c->name))
				break;
		}
		n = at_node(x, &f_cmd, base, c->name != NULL ?
		    strlen(c->name) : i, 0);
		if (n != NULL)
			n->note = c->name != NULL ? c->long_name : "Unknown";
	}
	if (item != NULL && x->t == t)
		item->str = at_label(x, item->str, c, base, i);

	/* its type: what follows the name (none for "D", a dial string) */
	if (c != NULL && (c->name == NULL || strcmp(c->name, "D") != 0)) {
		size_t	 left = x->n - base - i;
		int	 c0 = at_c(x, base + i), c1 = at_c(x, base + i + 1);

		if (left >= 2 && c0 == '=' && c1 == '?') {
			type = AT_TEST;
			dec_tree_add(x->t, &f_cmd_type, DB_DATA,
			    (uint32_t)(base + i), 2, type);
			i += 2;
		} else if (x->role == AT_ROLE_DCE && left >= 2 &&
		    c0 == '\r' && c1 == '\n') {
			type = AT_RESPONSE_ACK;
			dec_tree_add(x->t, &f_cmd_type, DB_DATA,
			    (uint32_t)(base + i), 2, type);
			i += 2;
		} else if (left >= 1 && (c0 == '=' || c0 == '\r' ||
		    c0 == ':' || c0 == '?')) {
			type = (uint16_t)c0;
			dec_tree_add(x->t, &f_cmd_type, DB_DATA,
			    (uint32_t)(base + i), 1, type);
			i += 1;
		} else if (left == 0) {
			/* no suffix: taken as a line's end (generated) */
			type = AT_ACTION_SIMPLY;
			dec_tree_add(x->t, &f_cmd_type, DB_DATA,
			    (uint32_t)(base + i), 0, type);
		}
	}

	params = dec_tree_push(x->t, "Parameters", DB_DATA,
	    (uint32_t)(base + i), 0);
	if (params != NULL)
		params->f = &f_parameters;
	first = last = base + i;
	while (base + i < x->n) {
		while ((ch = at_c(x, base + i)) == ' ' || ch == '\t')
			i++;
		pl = 0;
		brackets = 0;
		quoted = next = 0;
		if (at_c(x, base + i) != '\r') {
			while (base + i + pl < x->n &&
			    (ch = at_c(x, base + i + pl)) != '\r') {
				if (ch == ';') {
					next = 1;
					break;
				}
				if (ch == '"')
					quoted = !quoted;
				if (quoted) {
					pl++;
					continue;
				}
				/* (unsigned, as packet-at.c counts them: a
				 * ')' too many keeps commas in) */
				if (ch == '(')
					brackets++;
				if (ch == ')')
					brackets--;
				if (brackets == 0 && ch == ',')
					break;
				pl++;
			}
			if ((type == AT_ACTION || type == AT_RESPONSE) &&
			    c != NULL) {
				if (c->how == AT_TEXT)
					at_node(x, &f_parameter, base + i,
					    pl, 0);
				else if (!at_param(x, c, type, num, base + i,
				    pl, &data))
					at_node(x, &f_unknown, base + i, pl, 0);
			}
		}
		if (type != AT_ACTION_SIMPLY && type != AT_RESPONSE_ACK &&
		    type != AT_TEST && type != AT_READ)
			num++;
		i += pl;
		last = base + i;
		ch = at_c(x, base + i);
		if (x->role == AT_ROLE_DCE && base + i + 1 <= x->n &&
		    ch == '\r' && at_c(x, base + i + 1) == '\n') {
			i += 2;
			break;
		} else if (ch == ',' || ch == '\r' || ch == ';')
			i++;
		if (next)
			break;
	}
	if (params != NULL) {
		if (num > 0 && last > first)
			params->len = (uint32_t)(last - first);
		else
			params->str = "Parameters: No";
	}
	if (item != NULL)
		item->len = (uint32_t)(base + i - off);
	x->t = t;
	t->depth = depth;
	return base + i;
}

/* The line at off that the last command said comes next
 * (dissect_at_command_continuation): its data part. */
static size_t
at_data_part(struct at_text *x, size_t off)
{
	struct dec_node	*n;
	size_t		 len = 0;

	while (off + len < x->n && x->p[off + len] != '\r')
		len++;
	n = dec_tree_push(x->t, dec_tree_printf(x->t,
	    "Command %u's Data Part 0", x->pdu_cmd), DB_DATA, (uint32_t)off,
	    (uint32_t)len);
	if (n != NULL)
		n->f = &f_data_part;
	at_field(x, x->pdu, off, len);
	dec_tree_pop(x->t);
	x->pdu = NULL;
	return off + len;
}

void
dec_at_tree(const struct urb_rec *r, struct dec_tree *t)
{
	struct dec_node	*n;
	struct at_text	 x;
	size_t		 text = at_text(r->data, r->data_len), off;
	unsigned	 no;

	dec_tree_add(t, &f_at, DB_DATA, 0, r->data_len, 0);
	t->depth++;
	/* (the direction the record travels, as usb.src says: a submit
	 * is the host's, the DTE's, a completion the device's, the DCE's,
	 * even where it carries OUT data as macOS's do) */
	x.role = r->type == 'S' ? AT_ROLE_DTE : AT_ROLE_DCE;
	dec_tree_add(t, &f_role, DB_NONE, 0, 0, (uint64_t)x.role);
	/* the stream and its commands; when the capture has less than the
	 * transfer's bytes, tshark stops at the reported length it cannot
	 * read (a padded text is cut to its characters: never short) */
	if (text < r->data_len || at_reported(r) <= r->data_len) {
		n = dec_tree_add(t, &f_data, DB_DATA, 0, (uint32_t)text, 0);
		if (n != NULL)
			n->str = at_escaped(t, r->data, text);
		x.p = r->data;
		x.n = text;
		x.t = t;
		x.pdu = NULL;
		for (off = 0, no = 0; off < text; ) {
			if (x.pdu != NULL)
				off = at_data_part(&x, off);
			else
				off = at_command(&x, off, no++);
		}
	}
	t->depth--;
}
