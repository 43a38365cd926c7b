#!/bin/sh
# tests/e2e/usbpcap.sh - Windows captures (LINKTYPE_USBPCAP, 249): capgen
# builds them from USBPcap's published format; tshark, on the same bytes,
# must agree with urbscope field by field; convert keeps them USBPcap,
# turns them into usbmon on request (saying what it drops), and writes a
# Linux capture as USBPcap that tshark reads without a malformed packet.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh
plan 29

CAPGEN=${CAPGEN:-build/tools/capgen}
W=samples/windows-usbpcap.pcapng

# What Wireshark's USBPcap header has, then pairing, setup, descriptors.
FIELDS="usb.src usb.dst usb.addr usb.usbpcap_header_len usb.irp_id usb.usbd_status usb.function
usb.irp_info usb.irp_info.reserved usb.irp_info.direction usb.bus_id
usb.device_address usb.endpoint_address usb.endpoint_address.direction
usb.endpoint_address.number usb.transfer_type usb.data_len
usb.control_stage usb.request_in usb.time usb.setup.bRequest
usb.bmRequestType usb.setup.wValue usb.setup.wIndex usb.setup.wLength
usb.bInterfaceClass usb.idVendor usb.idProduct usb.bDescriptorType
usb.bEndpointAddress usb.wMaxPacketSize usb.win32.iso_frame
usb.win32.iso_num_packets usb.win32.iso_error_count usb.win32.iso_offset
usb.win32.iso_data_len usb.win32.iso_status"
E=
for f in $FIELDS; do E="$E -e $f"; done

"$CAPGEN" usbpcap -F pcap -w "$TMP/w.pcap"
check_eq "capgen usbpcap -F pcap exits 0" 0 $?
"$CAPGEN" usbpcap -F pcapng -w "$TMP/w.pcapng"
check "the sample is what capgen usbpcap writes" cmp "$W" "$TMP/w.pcapng"

"$US" read "$W" >"$TMP/out" 2>"$TMP/err"
check_eq "read a USBPcap capture exits 0" 0 $?
check_eq "read: one line per packet" 65 "$(wc -l <"$TMP/out")"
check "read: USBPcap's descriptor packets are marked" \
    grep -q 'device already connected.*GET_DESCRIPTOR DEVICE' "$TMP/out"
check "read: a USBD_STATUS by its Windows name after the errno" \
    grep -q -- '-EPIPE (USBD_STATUS_STALL_PID)' "$TMP/out"
check "read: an IRP with no transfer by its URB function" \
    grep -q 'irp .*ABORT_PIPE ep 0x81 → ok' "$TMP/out"
check "read: the status stage completes the split OUT request" \
    grep -q 'status stage\] SET_REPORT output id 0 intf 0 len 1 → ok' \
    "$TMP/out"
check "read: every IRP pairs (no URB left open)" \
    sh -c "! grep -q 'not completed' '$TMP/err'"
"$US" read -Y 'status != 0' "$W" >"$TMP/st" 2>/dev/null
check_eq "-Y status != 0: the four failed completions" 4 \
    "$(wc -l <"$TMP/st")"

"$US" read -Y 'type == irp' "$W" >"$TMP/irp" 2>/dev/null
check_eq "-Y type == irp: the three IRPs with no transfer, both ways" 6 \
    "$(wc -l <"$TMP/irp")"

if ! command -v tshark >/dev/null 2>&1; then
	skip_rest "USBPcap against tshark" "tshark is not installed"
fi

# shellcheck disable=SC2086
for f in "$TMP/w.pcap" "$TMP/w.pcapng"; do
	b=$(basename "$f")
	m=$(tshark -r "$f" -Y _ws.malformed 2>/dev/null | wc -l)
	check_eq "capgen usbpcap ($b): tshark finds no malformed packet" 0 "$m"
	tshark -r "$f" -T fields -E separator=/t -e frame.number $E \
	    >"$TMP/ts" 2>/dev/null
	"$US" read "$f" -T fields -e frame.number $E >"$TMP/us" 2>/dev/null
	check_diff "$b: every USBPcap field equals tshark's" "$TMP/ts" "$TMP/us"
done

# Converting keeps the link type and the bytes.
"$US" convert "$W" -F pcap -w "$TMP/k.pcap" 2>"$TMP/err"
check_eq "convert USBPcap to pcap exits 0" 0 $?
tshark -r "$W" -x 2>/dev/null >"$TMP/x1"
tshark -r "$TMP/k.pcap" -x 2>/dev/null >"$TMP/x2"
check_diff "USBPcap through convert: the same packet bytes" "$TMP/x1" \
    "$TMP/x2"
check "convert USBPcap: the output is USBPcap" sh -c \
    "capinfos -E '$TMP/k.pcap' 2>/dev/null | grep -q USBPcap"

# ... or becomes usbmon on request, saying what it drops.
"$US" convert "$W" -y 220 -w "$TMP/l.pcapng" 2>"$TMP/err"
check_eq "convert -y 220 exits 0" 0 $?
check "convert -y 220 names the IRPs it drops" \
    grep -q '6 USBPcap IRPs with no transfer (such as URB_FUNCTION_' \
    "$TMP/err"
check "convert -y 220 says the OUT data stages are lost" \
    grep -q '2 USBPcap control data stages not written' "$TMP/err"
m=$(tshark -r "$TMP/l.pcapng" -Y _ws.malformed 2>/dev/null | wc -l)
check_eq "convert -y 220: tshark finds no malformed packet" 0 "$m"
check_eq "convert -y 220: 56 URB events" 56 \
    "$(tshark -r "$TMP/l.pcapng" 2>/dev/null | wc -l)"
"$US" read "$TMP/l.pcapng" >/dev/null 2>"$TMP/err"
check "convert -y 220: every control transfer still completes" \
    sh -c "! grep -q 'not completed' '$TMP/err'"

# A Linux capture written as USBPcap.
"$US" convert samples/mass-storage.pcapng -y 249 -w "$TMP/m.pcapng" \
    2>"$TMP/err"
check_eq "convert -y 249 of a Linux capture exits 0" 0 $?
m=$(tshark -r "$TMP/m.pcapng" -Y _ws.malformed 2>/dev/null | wc -l)
check_eq "Linux as USBPcap: tshark finds no malformed packet" 0 "$m"
tshark -r "$TMP/m.pcapng" -T fields -E separator=/t -e frame.number $E \
    >"$TMP/ts" 2>/dev/null
"$US" read "$TMP/m.pcapng" -T fields -e frame.number $E >"$TMP/us" \
    2>/dev/null
check_diff "Linux as USBPcap: every USBPcap field equals tshark's" \
    "$TMP/ts" "$TMP/us"
"$US" convert samples/mass-storage.pcapng -y 300 -w "$TMP/n.pcap" \
    2>"$TMP/err"
check_eq "convert -y 300 exits 2" 2 $?
check "convert -y 300 names the link types" grep -q '220.*249' "$TMP/err"
