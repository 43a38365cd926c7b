#!/bin/sh
# tests/e2e/convert.sh - `urbscope convert` between every format.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh
plan 109

for f in samples/*.pcap samples/*.pcapng "$LINUX61/usbmon0.bin"; do
	[ -f "$f" ] || continue
	b=$(basename "$f")
	"$US" read "$f" >"$TMP/orig" 2>/dev/null
	for fmt in pcap pcapng; do
		"$US" convert "$f" -w "$TMP/x.$fmt" 2>"$TMP/err"
		check_eq "convert $b to $fmt exits 0" 0 $?
		check "convert $b to $fmt: no sanitizer report" \
		    no_sanitizer_report "$TMP/err"
		"$US" read "$TMP/x.$fmt" >"$TMP/back" 2>/dev/null
		check_diff "$b through $fmt decodes the same" "$TMP/orig" \
		    "$TMP/back"
	done
	# pcap -> pcapng -> pcap gives the same bytes.
	"$US" convert "$TMP/x.pcap" -w "$TMP/y.pcapng" 2>/dev/null
	"$US" convert "$TMP/y.pcapng" -F pcap -w "$TMP/z.out" 2>/dev/null
	check "$b: pcap -> pcapng -> pcap is byte-identical" \
	    cmp "$TMP/x.pcap" "$TMP/z.out"
	# usbmon text keeps what the kernel's text keeps (of a USBPcap
	# capture, what usbmon can say, the same both ways).
	"$US" convert "$f" -F usbmon -w "$TMP/x.txt" 2>/dev/null
	"$US" read -T usbmon "$f" >"$TMP/t1"
	check_diff "$b: convert -F usbmon equals read -T usbmon" "$TMP/t1" \
	    "$TMP/x.txt"
	"$US" read -T usbmon "$TMP/x.txt" >"$TMP/t2"
	check_diff "$b: usbmon text reads back to the same text" \
	    "$TMP/x.txt" "$TMP/t2"
done

# Standard output, and a format by extension.
"$US" convert samples/hid-keyboard.pcap -F pcap -w - >"$TMP/o.pcap"
"$US" convert samples/hid-keyboard.pcap -w "$TMP/o2.pcap"
check "-w - writes the same bytes as a file" cmp "$TMP/o.pcap" "$TMP/o2.pcap"
check "-w x.pcap writes pcap" sh -c "od -An -tx1 -N4 '$TMP/o2.pcap' |
    grep -qE 'd4 c3 b2 a1|a1 b2 c3 d4'"
"$US" convert samples/hid-keyboard.pcap -w "$TMP/o.pcapng"
check "-w x.pcapng writes pcapng" sh -c "od -An -tx1 -N4 '$TMP/o.pcapng' |
    grep -q '0a 0d 0d 0a'"
"$US" convert samples/hid-keyboard.pcap -F bogus -w "$TMP/o" 2>"$TMP/err"
check_eq "unknown -F exits 2" 2 $?
check "unknown -F names the formats" grep -q pcapng "$TMP/err"

# A full disk: a clear message and exit 1.
if [ -w /dev/full ]; then
	"$US" convert samples/mass-storage.pcapng -F pcap -w /dev/full \
	    2>"$TMP/err"
	check_eq "writing to a full disk exits 1" 1 $?
	check "writing to a full disk says so" grep -qi 'space' "$TMP/err"
else
	skip "writing to a full disk" "/dev/full cannot be written" 2
fi

# Several interfaces (usbmon1 and usbmon2, as Wireshark captures both
# buses) stay several, each record on its own, with their names.
if command -v mergecap >/dev/null 2>&1 && command -v tshark >/dev/null; then
	CAPGEN=${CAPGEN:-build/tools/capgen}
	"$CAPGEN" stall -F pcapng -w "$TMP/st.pcapng"
	mergecap -w "$TMP/two.pcapng" samples/mass-storage.pcapng \
	    "$TMP/st.pcapng"
	"$US" convert "$TMP/two.pcapng" -w "$TMP/two2.pcapng" 2>"$TMP/err"
	check_eq "convert of a two-interface pcapng exits 0" 0 $?
	for f in two two2; do
		tshark -r "$TMP/$f.pcapng" -T fields -e frame.interface_name \
		    -e usb.urb_id -e usb.urb_type 2>/dev/null >"$TMP/$f.if"
	done
	check_diff "two interfaces: every record keeps its interface name" \
	    "$TMP/two.if" "$TMP/two2.if"
	check_eq "two interfaces: both are there" 2 \
	    "$(cut -f1 "$TMP/two2.if" | sort -u | wc -l)"
else
	skip "convert keeps interfaces" "mergecap or tshark is not installed" 3
fi
