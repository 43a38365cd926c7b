#!/bin/sh
# tests/e2e/tshark.sh - Wireshark is the oracle: every capture urbscope
# writes opens in tshark with zero malformed packets, and record by record
# tshark's fields equal urbscope's.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh
plan 48

if ! command -v tshark >/dev/null 2>&1; then
	skip_rest "tshark interop" "tshark is not installed (apt-get install tshark)"
fi

HDR="usb.urb_id usb.urb_type usb.transfer_type usb.endpoint_address
usb.device_address usb.bus_id usb.urb_status usb.urb_len usb.data_len
usb.setup.bRequest usb.src usb.dst usb.addr usb.copy_of_transfer_flags
usb.transfer_flags.short_not_ok usb.transfer_flags.iso_asap
usb.transfer_flags.no_transfer_dma_map usb.transfer_flags.zero_packet
usb.transfer_flags.dir_in"
DESC="usb.idVendor usb.idProduct usb.bInterfaceClass usb.bEndpointAddress
usb.wMaxPacketSize usb.data_fragment usb.setup.wStatus"

# fields LIST: "-e f1 -e f2 ..."
fields() {
	for f in $1; do printf -- '-e %s ' "$f"; done
}

compare() {
	# $1 = pcap written by urbscope, $2 = label, $3 = field list
	# shellcheck disable=SC2046
	tshark -r "$1" -T fields -E separator=/t -e frame.number \
	    $(fields "$3") >"$TMP/ts" 2>/dev/null
	# shellcheck disable=SC2046
	"$US" read "$1" -T fields -e frame.number $(fields "$3") \
	    >"$TMP/us" 2>/dev/null
	check_diff "$2" "$TMP/ts" "$TMP/us"
}

for f in samples/*.pcap samples/*.pcapng samples/*.txt samples/*.mon \
    "$LINUX61/usbmon0.bin" "$LINUX61/usbmon-0u.txt"; do
	[ -f "$f" ] || continue
	b=$(basename "$f")
	# bus-level packets and macOS records have no usbmon header (and
	# the first has one deliberately malformed packet):
	# tests/e2e/usbll.sh and tests/e2e/darwin.sh compare them
	case $b in usb-fs-acm.*|macos-xhc.*) continue ;; esac
	for fmt in pcap pcapng; do
		"$US" convert "$f" -F $fmt -w "$TMP/x.$fmt" 2>/dev/null
		# Wireshark 4.0's UAS dissector flags UAS INQUIRY answers as
		# malformed (tests/data/linux61/README.md): not ours to count.
		m=$(tshark -r "$TMP/x.$fmt" -Y '_ws.malformed && !uasp' \
		    2>/dev/null | wc -l)
		check_eq "$b as $fmt: tshark finds no malformed packet" 0 "$m"
	done
	compare "$TMP/x.pcap" "$b: usbmon header fields equal tshark's" "$HDR"
	compare "$TMP/x.pcap" "$b: descriptor fields equal tshark's" "$DESC"
done
