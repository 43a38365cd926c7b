#!/bin/sh
# tests/e2e/darwin.sh - macOS captures (LINKTYPE_USB_DARWIN, 266): capgen
# builds them from the pseudo-header Wireshark reads; tshark, on the same
# bytes, must agree with urbscope field by field; convert keeps them
# macOS, byte for byte, or turns them into usbmon on request.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh
plan 22

CAPGEN=${CAPGEN:-build/tools/capgen}
S=samples/macos-xhc.pcapng

FIELDS="usb.src usb.dst usb.darwin.bcdVersion usb.darwin.header_len
usb.darwin.request_type usb.darwin.io_len usb.darwin.io_status
usb.darwin.io_frame_count usb.darwin.io_id usb.darwin.location_id
usb.darwin_device_speed usb.darwin.device_address
usb.darwin.endpoint_address usb.darwin.endpoint_type
usb.endpoint_address.number usb.endpoint_address.direction
usb.darwin.iso.status usb.darwin.iso.timestamp usb.darwin.iso.frame_number
usb.iso.iso_len usb.iso.data usb.request_in usb.time usb.bmRequestType
usb.setup.bRequest usb.setup.wValue usb.setup.wIndex usb.setup.wLength
usb.bInterfaceClass usb.idVendor usb.idProduct usb.bDescriptorType
usb.bEndpointAddress usb.wMaxPacketSize usb.bInterval"
E=
for f in $FIELDS; do E="$E -e $f"; done

"$CAPGEN" darwin -F pcapng -w "$TMP/d.pcapng"
check "the sample is what capgen darwin writes" cmp "$S" "$TMP/d.pcapng"
"$CAPGEN" darwin -F pcap -w "$TMP/d.pcap"
check_eq "capgen darwin -F pcap exits 0" 0 $?

"$US" read "$S" >"$TMP/out" 2>"$TMP/err"
check_eq "read a macOS capture exits 0" 0 $?
check_eq "read: one line per record" 30 "$(wc -l <"$TMP/out")"
check "read: bus from the location ID, the device's address" \
    grep -q ' 20\.5\.0 .*GET_DESCRIPTOR DEVICE len 18 → 18 bytes' \
    "$TMP/out"
check "read: an IOReturn by its name after the errno" \
    grep -q -- '-EPIPE (kIOUSBPipeStalled)' "$TMP/out"
check "read: an aborted transfer is -ENOENT" \
    grep -q -- '-ENOENT (kIOReturnAborted)' "$TMP/out"
check "read: the interrupt endpoint owned by the HID interface" \
    grep -q '\[intf 0 HID\] 8 bytes, .*keys m' "$TMP/out"
check "read: ISO frames, the data of the first one" \
    grep -q '3 frames, 126 bytes, .*frame 0: 00 01 02 03' "$TMP/out"
check "read: every submit completes" \
    sh -c "! grep -q 'not completed' '$TMP/err'"
"$US" read -Y 'status != 0' "$S" >"$TMP/st" 2>/dev/null
check_eq "-Y status != 0: the STALL and the abort" 2 "$(wc -l <"$TMP/st")"

# Converting keeps the link type and the bytes ...
"$US" convert "$S" -F pcap -w "$TMP/k.pcap" 2>"$TMP/err"
check_eq "convert macOS to pcap exits 0" 0 $?
"$US" read "$TMP/k.pcap" >"$TMP/outk" 2>&1
check_diff "through convert: the same records" "$TMP/out" "$TMP/outk"

if ! command -v tshark >/dev/null 2>&1; then
	skip_rest "macOS against tshark" "tshark is not installed"
fi

tshark -r "$S" -x 2>/dev/null >"$TMP/x1"
tshark -r "$TMP/k.pcap" -x 2>/dev/null >"$TMP/x2"
check_diff "macOS through convert: the same packet bytes" "$TMP/x1" \
    "$TMP/x2"
for f in "$S" "$TMP/d.pcap"; do
	b=$(basename "$f")
	m=$(tshark -r "$f" -Y _ws.malformed 2>/dev/null | wc -l)
	check_eq "$b: tshark finds no malformed packet" 0 "$m"
	# shellcheck disable=SC2086
	tshark -r "$f" -T fields -e frame.number $E >"$TMP/ts" 2>/dev/null
	# shellcheck disable=SC2086
	"$US" read "$f" -T fields -e frame.number $E >"$TMP/us" 2>/dev/null
	check_diff "$b: every macOS field equals tshark's" "$TMP/ts" "$TMP/us"
done
# ... or becomes usbmon on request.
"$US" convert "$S" -y 220 -w "$TMP/l.pcapng" 2>"$TMP/err"
check_eq "convert -y 220 exits 0" 0 $?
m=$(tshark -r "$TMP/l.pcapng" -Y _ws.malformed 2>/dev/null | wc -l)
check_eq "convert -y 220: tshark finds no malformed packet" 0 "$m"
E="-e frame.number -e usb.urb_id -e usb.urb_type -e usb.transfer_type"
E="$E -e usb.endpoint_address -e usb.device_address -e usb.bus_id"
E="$E -e usb.urb_status -e usb.setup.bRequest -e usb.idVendor"
# shellcheck disable=SC2086
tshark -r "$TMP/l.pcapng" -T fields $E >"$TMP/ts" 2>/dev/null
check_eq "convert -y 220: tshark reads the 30 URB events" 30 \
    "$(wc -l <"$TMP/ts")"
check "convert -y 220: the I/O id is the URB id, the STALL -EPIPE" \
    grep -q '^4	0x0000000100a3c200	.*-32' "$TMP/ts"
