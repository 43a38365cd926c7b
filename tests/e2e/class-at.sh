#!/bin/sh
# tests/e2e/class-at.sh - AT commands in USB data (decode/dec-at.c)
# against tshark 4.0's heuristic AT dissector (packet-at.c, usb.bulk and
# usb.control): the records it takes (-Y at), their at.role and at.data
# (the stream, none where usbmon cut the data short of urb_len), and
# every at.* field tshark has (the commands: at.command, at.cmd,
# at.cmd.type, at.command_line_prefix, at.parameters, at.parameter,
# at.unknown_parameter, at.data_part, and the parameters of the commands
# packet-at.c knows: at.csq.rssi, at.cme_error, at.cops.*, ...), on
# capgen's modem scenario (commands of each type, several on a line,
# answers and unsolicited results, lower-case "at", a NUL-padded command,
# binary PPP, AT in the answers to class and vendor control requests;
# written as usbmon and as USBPcap), on capgen's darwin-modem (macOS) and
# on the real usb-storage capture whose WRITE/READ data happens to
# start with "AT" (tshark takes it before usbms).
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh
plan 35

CAPGEN=${CAPGEN:-build/tools/capgen}
if [ ! -x "$CAPGEN" ]; then
	skip_rest "AT capture" "$CAPGEN is not built (make tools)"
fi
M=$TMP/modem.pcap
"$CAPGEN" modem -F pcap -w "$M"
check "capgen modem writes a capture" test -s "$M"
# the same as USBPcap writes it, and a macOS capture, whose OUT data
# is on the completions: the DCE's to tshark (its usb.src is the device)
W=$TMP/modem-usbpcap.pcap
"$CAPGEN" modem -L 249 -F pcap -w "$W"
D=$TMP/darwin-modem.pcapng
"$CAPGEN" darwin-modem -w "$D"
S=$LINUX61/qemu-usb-storage.pcap

if ! command -v tshark >/dev/null 2>&1; then
	skip_rest "AT against tshark" "tshark is not installed"
fi
for cap in "$M" "$S" "$W" "$D"; do
	b=$(basename "$cap")
	tshark -r "$cap" -Y at -T fields -e frame.number -e at.role \
	    -e at.data >"$TMP/ts" 2>/dev/null
	"$US" read "$cap" -Y at -T fields -e frame.number -e at.role \
	    -e at.data >"$TMP/us" 2>"$TMP/err"
	check "$b: no sanitizer report" no_sanitizer_report "$TMP/err"
	check "$b: tshark finds AT in $(wc -l <"$TMP/ts") records" \
	    test -s "$TMP/ts"
	check_diff "$b: -Y at, at.role and at.data as tshark's" "$TMP/ts" \
	    "$TMP/us"
done
# on the storage capture tshark takes the data from usbms: no SCSI data
# fields there (scsi.request_frame), as in urbscope
f=$(tshark -r "$S" -Y at -T fields -e frame.number 2>/dev/null | head -1)
check_eq "frame $f: tshark has no scsi.request_frame" "" \
    "$(tshark -r "$S" -Y "frame.number == $f" -T fields \
    -e scsi.request_frame 2>/dev/null)"
check_eq "frame $f: nor urbscope" "" \
    "$("$US" read "$S" -Y "frame.number == $f" -T fields \
    -e scsi.request_frame 2>/dev/null)"

# every field tshark's AT dissector has, but its expert notes
tshark -G fields 2>/dev/null | awk -F'\t' '$1 == "F" && $5 == "at" &&
    $3 !~ /^at\.expert\./ { print $3 }' >"$TMP/fields"
"$US" -G fields 2>/dev/null | cut -f1 >"$TMP/known"
check_eq "urbscope knows all $(wc -l <"$TMP/fields") at.* fields" "" \
    "$(grep -vxF -f "$TMP/known" "$TMP/fields")"
# field by field, in three groups (-e at most 64 times)
: >"$TMP/err"
for cap in "$M" "$S" "$W" "$D"; do
	b=$(basename "$cap")
	for g in 0 1 2; do
		e=$(awk -v g=$g 'NR % 3 == g { printf " -e %s", $0 }' \
		    "$TMP/fields")
		# shellcheck disable=SC2086
		tshark -r "$cap" -Y at -T fields -E header=y -e frame.number \
		    $e >"$TMP/ts" 2>/dev/null
		# shellcheck disable=SC2086
		"$US" read "$cap" -Y at -T fields -E header=y \
		    -e frame.number $e >"$TMP/us" 2>>"$TMP/err"
		check_diff "$b: at.* fields group $g as tshark's" \
		    "$TMP/ts" "$TMP/us"
	done
done
check "at.* fields: no sanitizer report" no_sanitizer_report "$TMP/err"
# the capture has commands of each type: set, read, test, action
check_eq "modem: tshark sees set, read, test and action commands" 4 \
    "$(tshark -r "$M" -Y 'at.role == 2' -T fields -e at.cmd.type \
    2>/dev/null | tr ',' '\n' | sort -u | grep -cxE \
    '0x000d|0x003d|0x003f|0x3d3f')"
n=$(tshark -r "$M" -Y 'at && usb.transfer_type == 2' 2>/dev/null | wc -l)
check_eq "modem: tshark's AT in $n answers to control requests, as urbscope" \
    "$n" "$("$US" read "$M" -Y 'at && usb.transfer_type == 2' 2>/dev/null |
    wc -l)"
check "modem: some control answers are AT" test "$n" -gt 0
# -V: a command's name (Signal Quality), what +CPIN's code says (the
# text unquoted as tshark shows it)
tshark -r "$M" -Y at -V 2>/dev/null |
    sed -n 's/^ *\(Command\|Code\): /\1: /p' >"$TMP/ts"
"$US" read "$M" -Y at -V 2>/dev/null |
    sed -n 's/^ *\(Command\|Code\): "\(.*\)"\( (.*)\)\{0,1\}$/\1: \2\3/p' \
    >"$TMP/us"
check_diff "modem: -V names the commands as tshark" "$TMP/ts" "$TMP/us"
check_eq "modem: -Y at.csq.rssi as tshark's" \
    "$(tshark -r "$M" -Y at.csq.rssi 2>/dev/null | wc -l)" \
    "$("$US" read "$M" -Y at.csq.rssi 2>/dev/null | wc -l)"
check_eq "modem: -Y 'at.cmd.type == 0x3d3f' as tshark's" \
    "$(tshark -r "$M" -Y 'at.cmd.type == 0x3d3f' 2>/dev/null | wc -l)" \
    "$("$US" read "$M" -Y 'at.cmd.type == 0x3d3f' 2>/dev/null | wc -l)"
