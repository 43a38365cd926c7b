#!/bin/sh
# tests/e2e/class-at.sh - AT commands in bulk data (decode/dec-at.c)
# against tshark 4.0's heuristic AT dissector (packet-at.c, usb.bulk):
# the records it takes (-Y at), their at.role and at.data (the stream,
# none where usbmon cut the data short of urb_len), on capgen's modem
# scenario (commands and answers, lower-case "at", a NUL-padded command,
# binary PPP) and on the real usb-storage capture whose WRITE/READ data
# happens to start with "AT" (tshark takes it before usbms).  The
# commands' own fields (at.command, at.cmd, ...) are not decoded.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh
plan 9

CAPGEN=${CAPGEN:-build/tools/capgen}
if [ ! -x "$CAPGEN" ]; then
	skip_rest "AT capture" "$CAPGEN is not built (make tools)"
fi
M=$TMP/modem.pcap
"$CAPGEN" modem -F pcap -w "$M"
check "capgen modem writes a capture" test -s "$M"
S=$LINUX61/qemu-usb-storage.pcap

if ! command -v tshark >/dev/null 2>&1; then
	skip_rest "AT against tshark" "tshark is not installed"
fi
for cap in "$M" "$S"; do
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
