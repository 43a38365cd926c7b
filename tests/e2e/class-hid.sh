#!/bin/sh
# tests/e2e/class-hid.sh - the HID class against Wireshark: on the real
# QEMU keyboard and tablet captures and the sample keyboard, every
# usbhid.* field tshark fills (the report descriptor's items, the class
# requests, the reports decoded by the layout learnt from the descriptor)
# equals urbscope's, record by record; so it does on captures made from
# the tablet's with other descriptors and reports (unaligned padding,
# 12-bit axes, short reports, signed and unsigned values).  Where tshark
# has only the bytes (SET_REPORT data, usb.data_fragment), urbscope's
# usbhid.data holds the same bytes.  The summaries name the keys and the
# tablet's coordinates; no sanitizer report on any of it.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh

if ! command -v tshark >/dev/null 2>&1; then
	skip_rest "HID against tshark" "tshark is not installed"
fi

KBD=$LINUX61/qemu-usb-kbd.pcap
TAB=$LINUX61/qemu-usb-tablet.pcap
SKB=samples/hid-keyboard.pcap

tshark -G fields 2>/dev/null | awk -F'\t' '$1 == "F" && $3 ~ /^usbhid\./ {
	print $3 }' >"$TMP/all"
check "tshark knows the usbhid fields" test -s "$TMP/all"

# compare FILE NAME: the usbhid fields tshark fills in FILE, both ways,
# but on the records where tshark leaves SET_REPORT's data as bytes
compare() {
	: >"$TMP/filled"
	while read -r f; do
		if tshark -r "$1" -T fields -e "$f" 2>/dev/null |
		    grep -q .; then
			echo "$f" >>"$TMP/filled"
		fi
	done <"$TMP/all"
	E=
	for f in $(cat "$TMP/filled"); do E="$E -e $f"; done
	tshark -r "$1" -Y usb.data_fragment -T fields -e frame.number \
	    2>/dev/null >"$TMP/frag"
	# shellcheck disable=SC2086
	tshark -r "$1" -T fields -e frame.number $E 2>/dev/null |
	    awk -F'\t' 'NR == FNR { skip[$1] = 1; next } !($1 in skip)' \
	    "$TMP/frag" - >"$TMP/ts"
	# shellcheck disable=SC2086
	"$US" read "$1" -T fields -e frame.number $E 2>"$TMP/err" |
	    awk -F'\t' 'NR == FNR { skip[$1] = 1; next } !($1 in skip)' \
	    "$TMP/frag" - >"$TMP/us"
	check "$2: no sanitizer report" no_sanitizer_report "$TMP/err"
	check_diff "$2: the $(wc -l <"$TMP/filled") usbhid fields tshark \
fills equal urbscope's" "$TMP/ts" "$TMP/us"
	# SET_REPORT's data: tshark's bytes are urbscope's report
	tshark -r "$1" -Y usb.data_fragment -T fields -e frame.number \
	    -e usb.data_fragment 2>/dev/null >"$TMP/ts2"
	"$US" read "$1" -T fields -e frame.number -e usbhid.data \
	    2>/dev/null | awk -F'\t' 'NR == FNR { want[$1] = 1; next }
	    ($1 in want)' "$TMP/frag" - >"$TMP/us2"
	check_diff "$2: SET_REPORT data is tshark's bytes" "$TMP/ts2" \
	    "$TMP/us2"
}

compare "$KBD" "qemu-usb-kbd.pcap"
grep -q usbhid.data.key.variable "$TMP/filled" &&
    grep -q usbhid.item.main.colltype "$TMP/filled"
check_eq "qemu-usb-kbd.pcap: items and reports both compared" 0 $?
check_eq "qemu-usb-kbd.pcap: SET_REPORTs compared" 6 \
    "$(wc -l <"$TMP/ts2")"
compare "$TAB" "qemu-usb-tablet.pcap"
grep -q usbhid.data.axis.x "$TMP/filled" &&
    grep -q usbhid.data.button "$TMP/filled" &&
    grep -q usbhid.item.global.phy_max "$TMP/filled"
check_eq "qemu-usb-tablet.pcap: axes, buttons, items compared" 0 $?
# QEMU's relative mouse (buttons, axes) under the same kernel
compare "$LINUX61C/qemu-usb-mouse.pcap" "qemu-usb-mouse.pcap"
grep -q usbhid.data.axis.x "$TMP/filled"
check_eq "qemu-usb-mouse.pcap: its axes compared" 0 $?
compare "$SKB" "hid-keyboard.pcap"
grep -q usbhid.data.array.usage "$TMP/filled"
check_eq "hid-keyboard.pcap: the key array compared" 0 $?

# The summaries.
"$US" read "$KBD" >"$TMP/kbd" 2>&1
check "keyboard: a key by its name" grep -q \
    '45 .*in  C int  ok .*\[intf 0 HID\] 8 bytes, .*: keys u$' "$TMP/kbd"
check "keyboard: keys released" grep -q ': keys released$' "$TMP/kbd"
check "keyboard: a modifier with its key" grep -qE \
    ': keys (L|R)Shift [a-z0-9]+$' "$TMP/kbd"
check "keyboard: SET_REPORT's LEDs" grep -q \
    'SET_REPORT output id 0 intf 0 len 1: LEDs CapsLock$' "$TMP/kbd"
"$US" read "$TAB" >"$TMP/tab" 2>&1
check "tablet: its coordinates" grep -q \
    '47 .*: buttons none x 16384 y 16384 wheel 0$' "$TMP/tab"
check "tablet: a button down" grep -q ': buttons 1 x [0-9]* y [0-9]* ' \
    "$TMP/tab"
check "tablet: the wheel" grep -qE ' wheel -?1$' "$TMP/tab"
"$US" read "$SKB" >"$TMP/skb" 2>&1
check "hid-keyboard.pcap: the keys typed" sh -c "grep -o 'keys [a-z]\$' \
    '$TMP/skb' | tr -d '\n' | grep -q 'keys hkeys ekeys lkeys lkeys o'"
check "hid-keyboard.pcap: Caps Lock, then its LED" sh -c \
    "grep -A2 'keys CapsLock' '$TMP/skb' | grep -q 'LEDs CapsLock'"

# -V: the items tree and a report by name.
"$US" read -V "$TAB" >"$TMP/tabv" 2>&1
check "-V: a collection's item nested under it" grep -q \
    '^                Usage Page (Button)$' "$TMP/tabv"
check "-V: X and Y by Wireshark's names" grep -q '^        X Axis: 8192$' \
    "$TMP/tabv"
check "-V: no sanitizer report" no_sanitizer_report "$TMP/tabv"

# Without the descriptor: the boot protocol (tshark has the bytes).
# (GET_DESCRIPTOR(HID_REPORT)'s requests and answers left out)
tshark -r "$KBD" -Y "usbhid.item.bTag || (usb.urb_type == 'S' &&
    usbhid.descriptor.hid.bDescriptorType == 0x22)" -T fields \
    -e frame.number 2>/dev/null >"$TMP/df"
tshark -r "$KBD" -Y "!(frame.number in {$(paste -sd, "$TMP/df")})" \
    -w "$TMP/nodesc.pcap" 2>/dev/null
check_eq "no descriptor: 4 records left out" 4 "$(wc -l <"$TMP/df")"
"$US" read "$TMP/nodesc.pcap" >"$TMP/nd" 2>&1
check "no descriptor: a boot keyboard's keys" grep -q ': keys u$' "$TMP/nd"
check "no descriptor: the LEDs" grep -q ': LEDs CapsLock$' "$TMP/nd"
compare "$TMP/nodesc.pcap" "no descriptor"

# Captures of the tablet's with other descriptors and reports: frame 28
# answers with DESC, a copy of frame 45 per report follows.
if ! command -v python3 >/dev/null 2>&1; then
	skip_rest "crafted HID captures" "no python3"
fi
craft() {
	python3 - "$TAB" "$@" <<'PY'
import struct, sys
base, out, desc = sys.argv[1], sys.argv[2], bytes.fromhex(sys.argv[3])
reps = [bytes.fromhex(x) for x in sys.argv[4:]]
b = open(base, 'rb').read()
off, recs = 24, []
while off < len(b):
    ts, tu, incl, orig = struct.unpack('<IIII', b[off:off + 16])
    recs.append([ts, tu, bytearray(b[off + 16:off + 16 + incl])])
    off += 16 + incl
def setdata(r, d):
    h = r[2][:64]
    struct.pack_into('<ii', h, 32, len(d), len(d))
    r[2] = h + d
o = recs[:28]
setdata(o[27], desc)
for i, d in enumerate(reps):
    r = [recs[44][0] + i, recs[44][1], bytearray(recs[44][2])]
    setdata(r, d)
    o.append(r)
with open(out, 'wb') as f:
    f.write(b[:24])
    for ts, tu, d in o:
        f.write(struct.pack('<IIII', ts, tu, len(d), len(d)) + d)
PY
}
# 3 buttons, 13 bits of padding, X and Y of 12 bits
D=05010902a1010509190129031500250195037501810295
D=${D}0d750181010501093009311500
D=${D}26ff0f750c95028102c0
craft "$TMP/c1.pcap" "$D" ffabcd123456 00ff0f000000 07 0001
compare "$TMP/c1.pcap" "12-bit axes, 13-bit padding"
# the keyboard, with short and odd reports
K=05010906a10175019508050719e029e7150025018102950175088101
D=${K}950575010508190129059102950175039101
D=${D}95067508150025ff0507190029ff8100c0
craft "$TMP/c2.pcap" "$D" 0201 04ff e7 00 0000e8ff01020304 \
    00000b0000000000
compare "$TMP/c2.pcap" "the keyboard's short reports"
# the keyboard whose keys are in range (hid-keyboard.pcap's 0x65), and a
# signed 16-bit X
D=${K}950675081500256505071900296581000501
D=${D}093016018026ff7f751095018102c0
craft "$TMP/c3.pcap" "$D" 0000040000000000ff7f 02001e1f202100000180
compare "$TMP/c3.pcap" "keys in range, a signed axis"
