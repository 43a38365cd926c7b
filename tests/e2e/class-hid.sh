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
plan 110

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

# capgen's HID captures (tests/tools/capgen.c): hid-ctf, a keyboard's
# interrupt IN only (no enumeration, as CTF captures are), typing with
# arrows, Delete and Backspace; hid-mouse, a mouse's; hid-composite, a
# keyboard, consumer controls and a mouse (report IDs) on interfaces 0,
# 1 and 2, their three report descriptors read one after the other.
# Each as usbmon (220), as usbmon with 48-byte headers (189: the same
# packets without the last 16 header bytes) and as USBPcap (249).
CAPGEN=${CAPGEN:-build/tools/capgen}
if [ ! -x "$CAPGEN" ]; then
	skip_rest "capgen's HID captures" "$CAPGEN is missing (make tools)"
fi
to189() {
	python3 - "$1" "$2" <<'PY'
import struct, sys
b = open(sys.argv[1], 'rb').read()
out = bytearray(b[:20]) + struct.pack('<I', 189)
off = 24
while off < len(b):
    ts, tu, incl, orig = struct.unpack('<IIII', b[off:off + 16])
    d = b[off + 16:off + 16 + incl]
    d = d[:48] + d[64:]
    out += struct.pack('<IIII', ts, tu, len(d), orig - 16) + d
    off += 16 + incl
open(sys.argv[2], 'wb').write(out)
PY
}
# wide FILE: usb.capdata and every usbhid field tshark fills in FILE (one
# tshark run finds them), record by record, against urbscope's
tshark -G fields 2>/dev/null | awk -F'\t' '$1 == "F" &&
    $3 ~ /^usbhid\./ { print $3 }' >"$TMP/hidall"
wide() {
	E=$(sed 's/^/-e /' "$TMP/hidall" | tr '\n' ' ')
	# shellcheck disable=SC2086
	tshark -r "$1" -T fields $E 2>/dev/null >"$TMP/wide"
	E="-e frame.number -e usb.capdata"
	NW=0
	for c in $(awk -F'\t' '{ for (i = 1; i <= NF; i++) if ($i != "")
	    c[i] = 1 } END { for (i in c) print i }' "$TMP/wide" |
	    sort -n); do
		E="$E -e $(sed -n "${c}p" "$TMP/hidall")"
		NW=$((NW + 1))
	done
	tshark -r "$1" -Y usb.data_fragment -T fields -e frame.number \
	    2>/dev/null >"$TMP/frag"
	# shellcheck disable=SC2086
	tshark -r "$1" -T fields $E 2>/dev/null | awk -F'\t' \
	    'NR == FNR { skip[$1] = 1; next } !($1 in skip)' "$TMP/frag" - \
	    >"$TMP/ts"
	# shellcheck disable=SC2086
	"$US" read "$1" -T fields $E 2>"$TMP/err" | awk -F'\t' \
	    'NR == FNR { skip[$1] = 1; next } !($1 in skip)' "$TMP/frag" - \
	    >"$TMP/us"
	check "$2: no sanitizer report" no_sanitizer_report "$TMP/err"
	check_diff "$2: usb.capdata and the $NW usbhid fields tshark fills \
equal urbscope's" "$TMP/ts" "$TMP/us"
}
for s in hid-ctf hid-mouse hid-composite; do
	"$CAPGEN" "$s" -F pcap -w "$TMP/$s.pcap"
	"$CAPGEN" "$s" -L 249 -F pcap -w "$TMP/$s-249.pcap"
	to189 "$TMP/$s.pcap" "$TMP/$s-189.pcap"
	for lt in "" -189 -249; do
		f=$TMP/$s$lt.pcap
		n=$(tshark -r "$f" -Y usb.capdata 2>/dev/null | wc -l)
		check_eq "$s$lt: -Y usb.capdata matches tshark's $n" "$n" \
		    "$("$US" read "$f" -Y usb.capdata 2>/dev/null | wc -l)"
		wide "$f" "$s$lt"
	done
done
check "hid-ctf: tshark has usb.capdata on its 73 reports" test \
    "$(tshark -r "$TMP/hid-ctf.pcap" -Y usb.capdata 2>/dev/null |
    wc -l)" -eq 73
check "hid-composite-249: items and reports compared ($NW fields)" test \
    "$NW" -ge 40

# -T json on a capture whose class is only guessed: every usb.* member
# urbscope prints is one tshark -T json prints in that frame, with its
# value (usb.bInterfaceClass 0xff, Wireshark's unknown class, not the
# guessed HID's 0x03); tshark's characters are quoted ('S', '\0'), its
# bytes have colons
json_usb() {
	tshark -r "$1" -T json >"$TMP/ts.json" 2>/dev/null
	"$US" read "$1" -T json >"$TMP/us.json" 2>/dev/null
	python3 - "$TMP/ts.json" "$TMP/us.json" >"$TMP/json.diff" <<'PY'
import json, re, sys
def pairs(kv):
    d = {}
    for k, v in kv:
        d.setdefault(k, []).append(v)
    return d
def flat(o, out):
    for k, vs in o.items():
        for v in vs:
            if isinstance(v, dict):
                flat(v, out)
            else:
                out.setdefault(k, []).append(v)
    return out
def norm(v):
    v = str(v)
    if len(v) >= 2 and v[0] == "'" and v[-1] == "'":
        v = v[1:-1]
    if v == "\\0":
        return "\0"
    if re.fullmatch(r"[0-9a-f]{2}(:[0-9a-f]{2})+", v):
        v = v.replace(":", "")
    return v.lower()
ts = json.load(open(sys.argv[1]), object_pairs_hook=pairs)
ts = [flat(p["_source"][0]["layers"][0], {}) for p in ts]
n = bad = 0
for line in open(sys.argv[2]):
    u = json.loads(line)
    t = ts[int(u["frame.number"]) - 1]
    for k, v in u.items():
        if not k.startswith("usb."):
            continue
        n += 1
        vs = v if isinstance(v, list) else [v]
        if k not in t or [norm(x) for x in vs] != \
                [norm(x) for x in t[k]][:len(vs)]:
            bad += 1
            print(u["frame.number"], k, vs, t.get(k))
print("compared", n, "bad", bad, file=sys.stderr)
sys.exit(1 if bad or n == 0 else 0)
PY
}
for s in hid-ctf hid-mouse; do
	for lt in "" -189 -249; do
		check "$s$lt: -T json's usb.* members are tshark's" \
		    json_usb "$TMP/$s$lt.pcap"
	done
done

# -T keys: the keys that type nothing by name, the editing applied with
# --keys edit, a newline at the end, and on stderr the reports of the
# keyboard that did not read (a media key's of another layout)
cat >"$TMP/keys.want" <<'KEYS'
1.5 interface 0, 71 reports:
flag{usb_kyes}<Left><Left><Left><Left><Delete><Right>y<End>
tset<Backspace><Backspace><Backspace>est
KEYS
for lt in "" -189 -249; do
	"$US" read "$TMP/hid-ctf$lt.pcap" -T keys >"$TMP/keys" \
	    2>"$TMP/keys.err"
	check_diff "hid-ctf$lt: -T keys names the keys" "$TMP/keys.want" \
	    "$TMP/keys"
	check "hid-ctf$lt: -T keys says what it could not read" grep -q \
	    'keyboard 1.5 interface 0 sent 2 reports not read' \
	    "$TMP/keys.err"
done
printf '1.5 interface 0, 71 reports:\nflag{usb_keys}\ntest\n' \
    >"$TMP/keys.want"
"$US" read "$TMP/hid-ctf.pcap" --keys edit >"$TMP/keys" 2>/dev/null
check_diff "hid-ctf: --keys edit applies the editing keys" \
    "$TMP/keys.want" "$TMP/keys"
"$US" read "$TMP/hid-ctf.pcap" -T keys --keys edit >"$TMP/keys" \
    2>/dev/null
check_diff "hid-ctf: -T keys --keys edit too" "$TMP/keys.want" "$TMP/keys"
"$US" read "$TMP/hid-ctf.pcap" -T json --keys edit >/dev/null 2>&1
check_eq "--keys with -T json: a usage error" 2 $?
"$US" read "$TMP/hid-mouse.pcap" -T keys >"$TMP/keys" 2>"$TMP/keys.err"
check "no keyboard: -T keys says so" grep -q 'no HID keyboard' \
    "$TMP/keys.err"

# The composite: each interface by its own report descriptor.
# composite FILE NAME CC MOUSE: the keyboard's keys, the consumer controls
# and the mouse's report 1, their lines starting as CC and MOUSE say
composite() {
	"$US" read "$1" -T keys >"$TMP/keys" 2>/dev/null
	check_diff "$2: the keyboard's keys" "$TMP/keys.want" "$TMP/keys"
	"$US" read "$1" >"$TMP/o" 2>&1
	check "$2: the consumer controls" grep -q \
	    "$3"' 2 bytes, .*: Volume Increment$' "$TMP/o"
	check "$2: the mouse by its report IDs" grep -q \
	    "$4"' 7 bytes, .*: report 1: buttons none x 300 y -7 wheel 0$' \
	    "$TMP/o"
}
C=$TMP/hid-composite
printf '1.2 interface 0, 10 reports:\nhi<Left>o\n' >"$TMP/keys.want"
for lt in "" -189 -249; do
	composite "$C$lt.pcap" "hid-composite$lt" '\[intf 1 HID\]' \
	    '\[intf 2 HID\]'
done
# --decode-as wins over the layout learnt: interface 2 read as a boot
# mouse (the user's word: no [guessed]); interface 0 as a boot keyboard
"$US" read "$C.pcap" --decode-as 1.2.2=hid-mouse >"$TMP/o" 2>&1
check "--decode-as 1.2.2=hid-mouse: the boot layout" grep -q \
    '7 bytes, .*: buttons 1 x 0 y 44 wheel 1$' "$TMP/o"
"$US" read "$C.pcap" --decode-as 1.2.0=hid-keyboard -T keys >"$TMP/keys" \
    2>/dev/null
check_diff "--decode-as 1.2.0=hid-keyboard: the same keys" \
    "$TMP/keys.want" "$TMP/keys"
# without the report descriptors' answers: the mouse of the boot
# subclass read by the boot layout is a guess, and says so
tshark -r "$C.pcap" -Y 'usbhid.item.bTag' -T fields -e frame.number \
    2>/dev/null >"$TMP/df"
check_eq "hid-composite: 3 report descriptors" 3 "$(wc -l <"$TMP/df")"
tshark -r "$C.pcap" -Y "!(frame.number in {$(paste -sd, "$TMP/df")})" \
    -w "$TMP/nord.pcap" 2>/dev/null
"$US" read "$TMP/nord.pcap" >"$TMP/o" 2>&1
check "no report descriptor: a boot mouse's reading is [guessed]" grep -q \
    '\[intf 2 HID\] 7 bytes, .*: \[guessed\] buttons 1 x 0 y 44 wheel 1$' \
    "$TMP/o"
wide "$TMP/nord.pcap" "hid-composite without its report descriptors"
# A capture that starts at usbhid's probe (no configuration in it): the
# layouts go to the interfaces the requests' wIndex names, and each
# endpoint is guessed to be the interface whose reports it sends.
first=$(tshark -r "$C.pcap" -Y 'usbhid.setup.bRequest == 0x0a' -T fields \
    -e frame.number 2>/dev/null | head -n 1)
tshark -r "$C.pcap" -Y "frame.number >= $first" -w "$TMP/late.pcap" \
    2>/dev/null
composite "$TMP/late.pcap" "from usbhid's probe on" \
    '1\.2\.2 .*\[guessed HID\]' '1\.2\.3 .*\[guessed HID\]'
wide "$TMP/late.pcap" "from usbhid's probe on"
