#!/bin/sh
# tests/e2e/class-cdc.sh - the CDC and hub class decoders against tshark:
# record by record, every usbcom.* and usbhub.* field both print has the
# same values (usbhub.setup.* too), and the summaries say what the bytes
# mean (line coding, control lines, port status, the change bitmap).
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh

HUB=$LINUX61/qemu-usb-hub.pcap
ACM=samples/usb-fs-acm.pcapng

# the bus-level CDC-ACM capture's transfers as a usbmon capture
"$US" convert "$ACM" -y 220 -w "$TMP/acm-mon.pcap" 2>/dev/null
check "bus-level CDC-ACM capture converts to usbmon" \
    test -s "$TMP/acm-mon.pcap"

sum() { "$US" read "$1" 2>/dev/null | sed -n "${2}p" | sed 's/.*  //'; }
check_eq "SET_LINE_CODING: its data as a line coding" \
    "SET_LINE_CODING intf 0: 115200 8N1" "$(sum "$TMP/acm-mon.pcap" 19)"
check_eq "SET_CONTROL_LINE_STATE: DTR and RTS" \
    "SET_CONTROL_LINE_STATE DTR on RTS on intf 0" \
    "$(sum "$TMP/acm-mon.pcap" 21)"
check_eq "CDC data: the byte stream as quoted text" \
    '[intf 1 CDC-Data] OUT 16 bytes: "The quick brown "' \
    "$(sum "$TMP/acm-mon.pcap" 27 | sed 's/^.*\[intf/[intf/')"
check_eq "GET_PORT_STATUS: status and change bits" \
    "GET_PORT_STATUS port 1 → 4 bytes, 0.034 ms: port 1: connected, enabled, power; changed: enable, reset" \
    "$(sum "$HUB" 68)"
check_eq "GET_HUB_STATUS: the hub's status" \
    "GET_HUB_STATUS → 4 bytes, 0.018 ms: hub: ok" "$(sum "$HUB" 26)"
check_eq "hub interrupt: the status change bitmap" \
    "[intf 0 Hub] 2 bytes, 0.028 ms: port 1 changed" "$(sum "$HUB" 66)"
check "-V: the Union descriptor's heading and fields" sh -c \
    "'$US' read -V '$ACM' 2>/dev/null | grep -A5 'CS_INTERFACE descriptor: Union' | grep -q 'Subordinate Interface: 0x01'"

if ! command -v tshark >/dev/null 2>&1; then
	skip "CDC and hub fields against tshark" "tshark is not installed"
	exit 0
fi

# the usbcom.* and usbhub.* fields of tshark that urbscope prints too
tshark_fields '^(usbcom|usbhub)\\.'
n=$(wc -l <"$TMP/both")
check "urbscope prints most of tshark's usbcom/usbhub fields ($n)" \
    test "$n" -ge 40
for cap in "$HUB" "$TMP/acm-mon.pcap" "$ACM"; do
	tshark_agree "$(basename "$cap"): usbcom.* and usbhub.*" "$cap"
done
# real Linux 6.1 with QEMU's network device (CDC ECM, then RNDIS), its hub
# and the whole session's usbmon capture
for cap in "$LINUX61C/qemu-usb-net.pcap" \
    "$LINUX61C/classes.pcapng"; do
	[ -f "$cap" ] || continue
	tshark_agree "$(basename "$cap"): usbcom.* and usbhub.*" "$cap"
done
