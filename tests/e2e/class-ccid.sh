#!/bin/sh
# tests/e2e/class-ccid.sh - the smart card reader (CCID) decoder against
# tshark on real Linux 6.1 traffic of QEMU's usb-ccid: its class
# descriptor, and GetSlotStatus, IccPowerOn, GetParameters with their
# answers; record by record, every usbccid.* field both print.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh
plan 8

"$US" read "$LINUX61C/qemu-usb-ccid.pcap" >"$TMP/o" 2>"$TMP/err"
check "qemu-usb-ccid.pcap reads, no sanitizer report" \
    no_sanitizer_report "$TMP/err"
if ! command -v tshark >/dev/null 2>&1; then
	skip_rest "CCID fields against tshark" "tshark is not installed"
fi
tshark_fields '^usbccid\\.'
n=$(wc -l <"$TMP/both")
check "urbscope prints tshark's usbccid fields ($n)" test "$n" -ge 50
for cap in "$LINUX61C/qemu-usb-ccid.pcap" "$LINUX61C/classes.pcapng"; do
	tshark_agree "$(basename "$cap"): usbccid.*" "$cap"
done
