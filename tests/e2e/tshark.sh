#!/bin/sh
# tests/e2e/tshark.sh - Wireshark is the oracle: every capture urbscope
# writes opens in tshark with zero malformed packets, and record by record
# tshark's fields equal urbscope's.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh
plan 125

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

# Where a payload's bytes go, as tshark 4.0 puts them: left over
# (usb.capdata), a class or vendor request's answer (usb.control.Response),
# an isochronous packet's (usb.iso.data), an OUT data stage
# (usb.data_fragment), an Ethernet frame on a CDC data interface (eth.*).
# The frames holding each field, from one run of each program per file.
PAY="usb.capdata usb.control.Response usb.iso.data usb.data_fragment eth.dst
eth.type eth.len"
for f in samples/iso.pcap samples/uac2-headset.pcap samples/uvc-webcam.pcapng \
    samples/windows-usbpcap.pcapng samples/hid-keyboard.pcap \
    samples/mass-storage.pcapng samples/usb-fs-acm.pcapng \
    tests/data/linux61-classes/classes.pcapng \
    tests/data/linux61-classes/qemu-usb-net.pcap \
    tests/data/linux61/qemu-usb-serial.pcap \
    tests/data/linux61-gadget/gadget.pcapng; do
	b=$(basename "$f")
	# shellcheck disable=SC2046
	tshark -r "$f" -T fields -E separator=/t -e frame.number \
	    $(fields "$PAY") >"$TMP/ts" 2>/dev/null
	# shellcheck disable=SC2046
	"$US" read -q "$f" -T fields -e frame.number $(fields "$PAY") \
	    >"$TMP/us" 2>/dev/null
	col=2
	for p in $PAY; do
		if [ "$b/$p" = qemu-usb-net.pcap/usb.capdata ]; then
			# frame 1564, 6 bytes: tshark's Ethernet throws
			# (malformed) and leaves no usb.capdata
			skip "$b: the frames with $p" \
			    "tshark reads 6 bytes as a malformed Ethernet frame"
			col=$((col + 1))
			continue
		fi
		for w in ts us; do
			awk -F'\t' -v c=$col '$c != "" { print $1 }' \
			    "$TMP/$w" >"$TMP/$w.$col"
		done
		check_diff "$b: the frames with $p are tshark's" \
		    "$TMP/ts.$col" "$TMP/us.$col"
		col=$((col + 1))
	done
done
