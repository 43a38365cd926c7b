#!/bin/sh
# tests/e2e/class-msc.sh - mass storage (BOT and UAS) against Wireshark:
# record by record, every usbms.*, uasp.* and scsi.* field both print
# agrees, and the data phases' summaries say what they carry.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh
plan 307

BOT=$LINUX61/qemu-usb-storage.pcap
UAS=$LINUX61/qemu-usb-uas.pcap
GEN=samples/mass-storage.pcapng

# The fields tshark 4.0 fills on these captures that urbscope decodes
# (the mode pages after the block descriptor and the VPD pages other than
# 0x00 stay bytes: not compared).
USBMS="usbms.dCBWSignature usbms.dCBWTag usbms.dCBWDataTransferLength
usbms.dCBWFlags usbms.dCBWTarget usbms.dCBWLUN usbms.dCBWCBLength
usbms.dCSWSignature usbms.dCSWDataResidue usbms.dCSWStatus
usbms.setup.maxlun"
SCSI="scsi_sbc.opcode scsi.request_frame scsi.time scsi.status
scsi.cdb.control scsi.cdb.control.vendorspecific scsi.cdb.control.reserved
scsi.cdb.control.naca scsi.cdb.control.obs1 scsi.cdb.control.obs2
scsi.cdb.inq.control scsi.inquiry.control.naca scsi.cdb.alloclen
scsi.cdb.alloclen16 scsi.cdb.alloclen32 scsi.inquiry.flags
scsi.mode.flags scsi.mode.pc scsi.mode.spc.pagecode
 scsi_sbc.alloclen32
scsi_sbc.read.flags scsi_sbc.rdprotect scsi_sbc.wrprotect scsi_sbc.dpo
scsi_sbc.fua scsi_sbc.fua_nv scsi_sbc.rdwr10.lba scsi_sbc.rdwr10.xferlen
scsi_sbc.group scsi_sbc.synccache.flags scsi_sbc.synccache.sync_nv
scsi_sbc.synccache.immediate scsi_sbc.sa scsi.spc.select_report"
DATA="scsi.inquiry.peripheral scsi.inquiry.qualifier scsi.inquiry.rmbflags
scsi.inquiry.removable scsi.inquiry.version scsi.inquiry.acaflags
scsi.inquiry.normaca scsi.inquiry.hisup scsi.inquiry.rdf
scsi.inquiry.add_len scsi.inquiry.sccsflags scsi.inquiry.sccs
scsi.inquiry.acc scsi.inquiry.tpgs scsi.inquiry.tpc scsi.inquiry.protect
scsi.inquiry.bqueflags scsi.inquiry.bque scsi.inquiry.encserv
scsi.inquiry.multip scsi.inquiry.mchngr scsi.inquiry.reladrflags
scsi.inquiry.linked scsi.inquiry.cmdque scsi.inquiry.vendor_id
scsi.inquiry.product_id scsi.inquiry.product_rev
scsi.inquiry.evpd.pagelength scsi.inquiry.evpd.supported_page
scsi_sbc.returned_lba scsi_sbc.blocksize scsi_sbc.lba64_add
scsi.sns.errtype scsi.sns.valid scsi.sns.filemark scsi.sns.eom
scsi.sns.ili scsi.sns.key scsi.sns.info scsi.sns.addlen
scsi.sns.command_specific_information scsi.sns.ascascq scsi.sns.asc
scsi.sns.ascq scsi.sns.fru scsi.sns.sksv scsi.sns.sks_info
scsi.cdb.mode.mode_data_length scsi.cdb.mode.medium_type
scsi.cdb.mode.device_specific_parameter
scsi.cdb.mode.block_descriptor_length scsi.blockdescs.no_of_blocks
scsi.blockdescs.block_length scsi.reportluns.lun_list_length"
UASP="uasp.iu_id uasp.tag uasp.command.priority uasp.command.task_attr
uasp.command.add_cdb_length uasp.sense.status_qualifier uasp.sense.status
uasp.sense.length uasp.tag_started_frame"

if ! command -v tshark >/dev/null 2>&1; then
	# shellcheck disable=SC2086
	skip "mass storage against tshark" "tshark is not installed" \
	    $(($(echo $USBMS $SCSI $DATA | wc -w) * 2 +
	    $(echo $UASP $SCSI $DATA | wc -w)))
else
	# one field at a time: a field's column, record by record
	# (tshark's AT-command heuristic takes some bulk data records
	# that end a transfer of several: those frames are not compared)
	compare() {
		tshark -r "$1" -Y at -T fields -e frame.number 2>/dev/null |
		    sed 's/^/^/; s/$/\t/' >"$TMP/at"
		echo '^$' >>"$TMP/at"
		for fld in $2; do
			tshark -r "$1" -T fields -e frame.number -e "$fld" \
			    2>/dev/null | grep -v -f "$TMP/at" >"$TMP/ts"
			"$US" read "$1" -T fields -e frame.number -e "$fld" \
			    2>/dev/null | grep -v -f "$TMP/at" >"$TMP/us"
			n=$(cut -f2 "$TMP/ts" | grep -c .)
			if cmp -s "$TMP/ts" "$TMP/us"; then
				ok "$(basename "$1"): $fld equals tshark's ($n records)"
			else
				notok "$(basename "$1"): $fld equals tshark's"
				diff "$TMP/ts" "$TMP/us" | head -5 >&2
			fi
		done
	}
	for f in "$BOT" "$GEN"; do
		compare "$f" "$USBMS $SCSI $DATA"
	done
	compare "$UAS" "$UASP $SCSI $DATA"
	# GET MAX LUN's answer is on both BOT captures
	for f in "$BOT" "$GEN"; do
		check_eq "$(basename "$f"): GET MAX LUN answers with Max LUN" \
		    "$(tshark -r "$f" -Y usbms.setup.maxlun -T fields \
		    -e frame.number -e usbms.setup.maxlun 2>/dev/null |
		    tr '\n\t' '; ')" "$("$US" read "$f" -Y usbms.setup.maxlun \
		    -T fields -e frame.number -e usbms.setup.maxlun \
		    2>/dev/null | tr '\n\t' '; ')"
	done
	check "GET MAX LUN: Max LUN under USB Mass Storage in -V" sh -c \
	    "'$US' read '$GEN' -V | grep -A1 '^    USB Mass Storage\$' | grep -q '^        Max LUN: 0\$'"
fi

# the data phases and the statuses say which command they belong to
"$US" read "$BOT" >"$TMP/bot" 2>&1
check "INQUIRY data summarised" \
    grep -q 'INQUIRY data: QEMU QEMU HARDDISK 2.5+' "$TMP/bot"
check "READ CAPACITY(10) data summarised" \
    grep -q 'READ CAPACITY(10) data: 16384 blocks of 512 bytes (8 MiB)' \
    "$TMP/bot"
check "REQUEST SENSE data summarised" \
    grep -q 'REQUEST SENSE data: UNIT ATTENTION, POWER ON, RESET, OR BUS DEVICE RESET OCCURRED (0x29/0x00)' \
    "$TMP/bot"
check "READ(10) data tied to its command" \
    grep -q '1 block of data for READ(10) lba 0$' "$TMP/bot"
check "a CSW names the command it ends" \
    grep -q 'CSW tag 2 TEST UNIT READY failed' "$TMP/bot"
"$US" read "$UAS" >"$TMP/uas" 2>&1
check "UAS command IU decoded" \
    grep -q 'Command IU tag 1 INQUIRY' "$TMP/uas"
check "UAS sense IU with its sense data" \
    grep -q 'Sense IU tag 1 TEST UNIT READY check condition: UNIT ATTENTION' \
    "$TMP/uas"
check "UAS data phase tied to its command" \
    grep -q 'INQUIRY data: QEMU QEMU HARDDISK 2.5+' "$TMP/uas"
"$US" read "$GEN" >"$TMP/gen" 2>&1
check "generated capture: data phases decoded" \
    grep -q 'INQUIRY data: ' "$TMP/gen"

