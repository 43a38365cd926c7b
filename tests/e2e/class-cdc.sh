#!/bin/sh
# tests/e2e/class-cdc.sh - the CDC and hub class decoders against tshark:
# record by record, every usbcom.* and usbhub.* field both print has the
# same values (usbhub.setup.* too), and the summaries say what the bytes
# mean (line coding, control lines, port status, the change bitmap).
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh
plan 37

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
	skip_rest "CDC and hub fields against tshark" "tshark is not installed"
fi

# the usbcom.* and usbhub.* fields of tshark that urbscope prints too
tshark_fields '^(usbcom|usbhub)\\.'
n=$(wc -l <"$TMP/both")
check "urbscope prints most of tshark's usbcom/usbhub fields ($n)" \
    test "$n" -ge 40
# the "(zero)" words of the hub requests (USB 2.0 table 11-15) too, as
# tshark's usbhub shows them: GET_HUB_STATUS's two, GET_PORT_STATUS's one
check "usbhub.setup.zero is one of them" grep -qx 'usbhub\.setup\.zero' \
    "$TMP/both"
for cap in "$HUB" "$LINUX61C/classes.pcapng"; do
	tshark -r "$cap" -Y usbhub.setup.zero -T fields -e frame.number \
	    -e usbhub.setup.bRequest -e usbhub.setup.zero >"$TMP/z.ts" \
	    2>/dev/null
	"$US" read "$cap" -Y usbhub.setup.zero -T fields -e frame.number \
	    -e usbhub.setup.bRequest -e usbhub.setup.zero >"$TMP/z.us" \
	    2>/dev/null
	check "$(basename "$cap"): usbhub.setup.zero as tshark's ($(wc -l \
	    <"$TMP/z.ts") requests, $(grep -c ',' "$TMP/z.ts") with two)" \
	    sh -c "test -s '$TMP/z.ts' && cmp -s '$TMP/z.ts' '$TMP/z.us'"
done
for cap in "$HUB" "$TMP/acm-mon.pcap" "$ACM"; do
	tshark_agree "$(basename "$cap"): usbcom.* and usbhub.*" "$cap"
done
# real Linux 6.1 with QEMU's network device (CDC ECM, then RNDIS), its hub
# and the whole session's usbmon capture
#
# usbcom.control.subclass apart: tshark keeps the subclass an interface had
# in the configuration it read first (ECM, 0x06), also after the driver
# switched to the RNDIS configuration, whose interface 0 is 0x02 (lsusb
# -v's bConfigurationValue 2); urbscope gives the active configuration's.
grep -q '^usbcom\.control\.subclass$' "$TMP/both"
check "usbcom.control.subclass is one of the fields compared" test $? -eq 0
cp "$TMP/both" "$TMP/both.all"
grep -v '^usbcom\.control\.subclass$' "$TMP/both.all" >"$TMP/both"
rndis=$(awk '/^Bus .* RNDIS/ { on = 1 } on && /bConfigurationValue/ {
    cfg = $2 } on && cfg == 2 && /bInterfaceSubClass/ { print $2; exit }' \
    "$LINUX61C/lsusb-v.txt")
check "lsusb -v: the RNDIS configuration's interface 0 is subclass 2" \
    test "$rndis" = 2
for cap in "$LINUX61C/qemu-usb-net.pcap" \
    "$LINUX61C/classes.pcapng"; do
	[ -f "$cap" ] || continue
	b=$(basename "$cap")
	tshark_agree "$b: usbcom.* and usbhub.*" "$cap"
	# the frame of SET_CONFIGURATION 2 to the network device
	sw=$(tshark -r "$cap" -T fields -e frame.number \
	    -Y 'usb.setup.bRequest == 9 && usb.bConfigurationValue == 2' \
	    2>/dev/null | head -n 1)
	tshark -r "$cap" -Y usbcom.control.subclass -T fields \
	    -e frame.number -e usbcom.control.subclass \
	    >"$TMP/sub.ts" 2>/dev/null
	"$US" read "$cap" -T fields -e frame.number \
	    -e usbcom.control.subclass 2>/dev/null | awk -F'\t' '$2 != ""' \
	    >"$TMP/sub.us"
	cut -f1 "$TMP/sub.ts" >"$TMP/subf.ts"
	cut -f1 "$TMP/sub.us" >"$TMP/subf.us"
	check_diff "$b: usbcom.control.subclass on the same frames" \
	    "$TMP/subf.ts" "$TMP/subf.us"
	awk -v s="$sw" '$1 < s' "$TMP/sub.ts" >"$TMP/subb.ts"
	awk -v s="$sw" '$1 < s' "$TMP/sub.us" >"$TMP/subb.us"
	check "$b: some before SET_CONFIGURATION 2 (frame $sw)" \
	    test -s "$TMP/subb.ts"
	check_diff "$b: usbcom.control.subclass before it" \
	    "$TMP/subb.ts" "$TMP/subb.us"
	n=$(awk -v s="$sw" '$1 > s' "$TMP/sub.us" | wc -l)
	m=$(awk -v s="$sw" '$1 > s && $2 == "0x02"' "$TMP/sub.us" | wc -l)
	check "$b: after it, the RNDIS interface's subclass 0x02 ($m of $n)" \
	    test "$n" -gt 0 -a "$m" -eq "$n"
done
cp "$TMP/both.all" "$TMP/both"
