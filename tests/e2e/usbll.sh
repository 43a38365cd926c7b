#!/bin/sh
# tests/e2e/usbll.sh - bus-level captures (LINKTYPE_USB_2_0 288 and the
# full-speed 294): capgen builds them from the packet formats of USB 2.0
# chapter 8; urbscope shows every packet, puts transactions and transfers
# together (control requests, bulk data, NAKed polls, STALLs), and tshark's
# usbll dissector, on the same bytes, agrees field by field; convert keeps
# the packets, or keeps only the transfers as usbmon on request.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh
plan 44

CAPGEN=${CAPGEN:-build/tools/capgen}
S=samples/usb-fs-acm.pcapng

LLFIELDS="usbll.pid usbll.device_addr usbll.endp usbll.frame_num usbll.crc5
usbll.crc5.status usbll.data usbll.crc16 usbll.crc16.status usbll.src
usbll.dst usbll.addr usbll.split_hub_addr usbll.split_sc usbll.split_port
usbll.split_s usbll.split_e usbll.split_u usbll.split_se usbll.split_et
usbll.split_crc5 usbll.split_crc5.status"
# What usbll hands to usb (control requests and their answers, bulk data):
# the addresses, the setup, the descriptors.  (The CDC class requests go to
# Wireshark's usbcom dissector, which urbscope does not have yet.)
USBFIELDS="usb.src usb.dst usb.bmRequestType usb.setup.bRequest
usb.setup.wValue usb.setup.wIndex usb.setup.wLength usb.bLength
usb.bDescriptorType usb.bcdUSB usb.bMaxPacketSize0 usb.idVendor
usb.idProduct usb.bNumConfigurations usb.wTotalLength usb.bNumEndpoints
usb.bConfigurationValue usb.bInterfaceNumber usb.bInterfaceClass
usb.bFirstInterface usb.bEndpointAddress usb.bmAttributes
usb.wMaxPacketSize usb.bInterval usb.wLANGID usb.bString usb.capdata"

"$CAPGEN" usbll -F pcapng -w "$TMP/a.pcapng"
check "the sample is what capgen usbll writes" cmp "$S" "$TMP/a.pcapng"
"$CAPGEN" usbll -F pcap -L 288 -w "$TMP/b.pcap"
check_eq "capgen usbll -L 288 -F pcap exits 0" 0 $?

"$US" read "$S" >"$TMP/out" 2>"$TMP/err"
check_eq "read a bus-level capture exits 0" 0 $?
check_eq "read: one line per packet" 138 "$(wc -l <"$TMP/out")"
check "read: the SET_ADDRESS request completes on the status packet" \
    grep -q 'out C ctrl ok .*SET_ADDRESS 5 → ok' "$TMP/out"
check "read: the configuration put together from its two packets" \
    grep -q 'GET_DESCRIPTOR CONFIG 0 len 75 → 75 bytes.*total 75' \
    "$TMP/out"
check "read: an OUT request with data is submitted with its data" \
    grep -q 'out S ctrl .*SET_LINE_CODING intf 0: 115200 8N1' "$TMP/out"
check "read: a STALLed request completes with -EPIPE" \
    grep -q 'DEVICE_QUALIFIER len 10 → -EPIPE' "$TMP/out"
check "read: a bulk IN transfer of two packets is one completion" \
    grep -q 'in  C bulk ok  *74  \[intf 1 CDC-Data\] 74 bytes' "$TMP/out"
check "read: a NAKed poll counts the polls" \
    grep -q 'NAK, 5.2 polled 4 times' "$TMP/out"
check "read: a NAKed OUT is refused" grep -q 'NAK, 5.1 refused 1 time' \
    "$TMP/out"
check "read: a wrong CRC16 is shown, the packet means nothing" \
    grep -q 'P pkt .*DATA1 8 bytes \[bad CRC16\]' "$TMP/out"
check "read: a byte that is no PID" grep -q 'invalid PID 0x2e' "$TMP/out"
check "read: the split token" grep -q 'SSPLIT hub 3 port 2 Bulk$' \
    "$TMP/out"
check "read: every control transfer completes" \
    sh -c "! grep -q 'not completed' '$TMP/err'"
check "read: no completion without its submit (the token asked)" \
    sh -c "! grep -q 'submit not captured' '$TMP/out'"
"$US" read -Y 'status != 0' "$S" >"$TMP/st" 2>/dev/null
check_eq "-Y status != 0: the two STALLs" 2 "$(wc -l <"$TMP/st")"
"$US" read -Y 'type == packet' "$S" >"$TMP/pk" 2>/dev/null
check_eq "-Y type == packet: the packets with no URB event" 110 \
    "$(wc -l <"$TMP/pk")"
"$US" read "$TMP/b.pcap" >"$TMP/out288" 2>&1
check_diff "link type 288 in pcap reads as 294 in pcapng" "$TMP/out" \
    "$TMP/out288"

# --collapse: a run of NAKed polls is one line, every URB event stays.
"$US" read --collapse "$S" >"$TMP/col" 2>/dev/null
check_eq "read --collapse exits 0" 0 $?
check "--collapse: four NAKed polls of 5.2 with the SOFs between, one line" \
    grep -q 'IN 5.2 polled 4 times, NAKed (packets 102-112 in 3.002 ms, 3 SOFs between)$' \
    "$TMP/col"
check "--collapse: the polls of the bulk IN before its data, one line" \
    grep -q 'IN 5.1 polled 2 times, NAKed (packets 119-122' "$TMP/col"
check_eq "--collapse: 138 packets in 119 lines" 119 "$(wc -l <"$TMP/col")"
check_eq "--collapse: every URB event kept" \
    "$(grep -c ' [SC] ' "$TMP/out")" "$(grep -c ' [SC] ' "$TMP/col")"
"$US" read --collapse -T json "$S" >/dev/null 2>"$TMP/err"
check_eq "--collapse with -T json is a usage error" 2 $?
check "--collapse with -T json says why" grep -q 'keep every packet' \
    "$TMP/err"

# Converting keeps the packets, in pcap and pcapng.
"$US" convert "$S" -F pcap -w "$TMP/k.pcap" 2>"$TMP/err"
check_eq "convert a bus-level capture to pcap exits 0" 0 $?
"$US" read "$TMP/k.pcap" >"$TMP/outk" 2>&1
check_diff "through convert: the same records" "$TMP/out" "$TMP/outk"
# ... or keeps the transfers only, saying what it drops.
"$US" convert "$S" -y 220 -w "$TMP/l.pcapng" 2>"$TMP/err"
check_eq "convert -y 220 exits 0" 0 $?
check "convert -y 220 says the bus packets are not written" \
    grep -q '110 bus-level packets .* not written: link type 220' \
    "$TMP/err"
"$US" read "$TMP/l.pcapng" >"$TMP/outl" 2>"$TMP/errl"
check_eq "convert -y 220: the 28 URB events" 28 "$(wc -l <"$TMP/outl")"

if ! command -v tshark >/dev/null 2>&1; then
	skip_rest "bus-level packets against tshark" "tshark is not installed"
fi

check_eq "tshark: the one malformed packet is the byte with no PID" 132 \
    "$(tshark -r "$S" -Y _ws.malformed -T fields -e frame.number \
    2>/dev/null)"
for f in "$S" "$TMP/b.pcap" "$TMP/k.pcap"; do
	b=$(basename "$f")
	E=
	for x in $LLFIELDS; do E="$E -e $x"; done
	# shellcheck disable=SC2086
	tshark -r "$f" -T fields -e frame.number $E >"$TMP/ts" 2>/dev/null
	# shellcheck disable=SC2086
	"$US" read "$f" -T fields -e frame.number $E >"$TMP/us" 2>/dev/null
	check_diff "$b: every usbll field equals tshark's" "$TMP/ts" \
	    "$TMP/us"
	E=
	for x in $USBFIELDS; do E="$E -e $x"; done
	# (without the rows of CDC class requests, bmRequestType 0x21)
	# shellcheck disable=SC2086
	tshark -r "$f" -T fields -e frame.number $E 2>/dev/null |
	    awk -F '\t' '$4 != "0x21"' >"$TMP/ts"
	# shellcheck disable=SC2086
	"$US" read "$f" -T fields -e frame.number $E 2>/dev/null |
	    awk -F '\t' '$4 != "0x21"' >"$TMP/us"
	check_diff "$b: the usb fields of its transfers equal tshark's" \
	    "$TMP/ts" "$TMP/us"
done
m=$(tshark -r "$TMP/l.pcapng" -Y _ws.malformed 2>/dev/null | wc -l)
check_eq "convert -y 220: tshark finds no malformed packet" 0 "$m"
check_eq "convert -y 220: tshark reads the 28 URB events" 28 \
    "$(tshark -r "$TMP/l.pcapng" 2>/dev/null | wc -l)"

# A pcapng whose second interface is Ethernet: its packets are skipped and
# said so, and the frame numbers still count them, as Wireshark's do (a
# published "frame 57" points at the same packet in both).
if command -v mergecap >/dev/null 2>&1 && command -v python3 >/dev/null 2>&1
then
	python3 - "$TMP/eth.pcap" <<'PY'
import struct, sys
with open(sys.argv[1], "wb") as f:
    f.write(struct.pack("<IHHiIII", 0xa1b2c3d4, 2, 4, 0, 0, 65535, 1))
    for us in (500, 4000, 4001, 11000):
        pkt = b"\xff" * 6 + b"\x02" * 6 + b"\x08\x00" + bytes(46)
        f.write(struct.pack("<IIII", 1700000000, us, len(pkt), len(pkt)))
        f.write(pkt)
PY
	mergecap -F pcapng -w "$TMP/mix.pcapng" "$S" "$TMP/eth.pcap" 2>/dev/null
	"$US" read "$TMP/mix.pcapng" -T fields -e frame.number -e usbll.pid \
	    >"$TMP/us" 2>"$TMP/err"
	check_eq "mixed pcapng: reading it exits 0" 0 $?
	check "mixed pcapng: the Ethernet packets are said to be skipped" \
	    grep -q '4 packets skipped.*EN10MB' "$TMP/err"
	tshark -r "$TMP/mix.pcapng" -Y usbll -T fields -e frame.number \
	    -e usbll.pid >"$TMP/ts" 2>/dev/null
	check_diff "mixed pcapng: frame numbers equal tshark's" "$TMP/ts" \
	    "$TMP/us"
	check_eq "mixed pcapng: the numbers have gaps" 142 \
	    "$(tail -n 1 "$TMP/us" | cut -f 1)"
fi
