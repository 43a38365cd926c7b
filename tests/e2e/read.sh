#!/bin/sh
# tests/e2e/read.sh - `urbscope read` on samples and on real Linux captures.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh
plan 191

check "help exits 0" "$US" read --help
# the summary's arrow in the locale's characters; JSON is UTF-8 always
"$US" read -c 2 samples/stall.pcap >"$TMP/utf8" 2>&1
LC_ALL=C "$US" read -c 2 samples/stall.pcap >"$TMP/c" 2>&1
check "UTF-8 locale: the arrow is U+2192" grep -q ' → 18 bytes' "$TMP/utf8"
check "C locale: the arrow is ->" grep -q ' -> 18 bytes' "$TMP/c"
check "C locale: nothing but ASCII" sh -c "! LC_ALL=C grep -q '[^ -~]' '$TMP/c'"
"$US" read -c 2 -T json samples/stall.pcap >"$TMP/utf8" 2>&1
LC_ALL=C "$US" read -c 2 -T json samples/stall.pcap >"$TMP/c" 2>&1
check_diff "JSON is the same in every locale" "$TMP/utf8" "$TMP/c"
# every usage fits 80 columns: long lines wrap at blanks
for c in "" read convert sim capture devices tui; do
	# shellcheck disable=SC2086
	"$US" $c --help >"$TMP/help" 2>&1
	w=$(awk '{ if (length($0) > w) w = length($0) } END { print w + 0 }' \
	    "$TMP/help")
	check "urbscope $c --help fits 80 columns ($w)" test "$w" -le 80
done
# read --help names every link type the reader takes: the list comes
# from the reader's own refusal of an Ethernet pcap (link type 1)
printf '\324\303\262\241\002\000\004\000\000\000\000\000\000\000\000\000\377\377\000\000\001\000\000\000' \
    >"$TMP/eth.pcap"
"$US" read "$TMP/eth.pcap" >/dev/null 2>"$TMP/lt.err"
lts=$(sed -n 's/.*urbscope reads link types //p' "$TMP/lt.err" |
    grep -oE '[0-9]{3}(-[0-9]{3})?' | tr '\n' ' ')
check "the refusal lists the link types read ($lts)" test -n "$lts"
"$US" read --help 2>&1 | tr '\n' ' ' >"$TMP/help1"
for lt in $lts; do
	check "read --help names link type $lt" \
	    grep -qE "(^|[^0-9-])$lt([^0-9-]|\$)" "$TMP/help1"
done
check "a wrapped usage line keeps its words" \
    sh -c "'$US' sim --help | tr '\n' ' ' | grep -q 'scenario file (see  *README)'"
"$US" read --bogus >/dev/null 2>&1
check_eq "unknown option exits 2" 2 $?
"$US" >/dev/null 2>&1
check_eq "no command exits 2" 2 $?
"$US" frobnicate >/dev/null 2>&1
check_eq "unknown command exits 2" 2 $?
"$US" read -T xml samples/hid-keyboard.pcap >/dev/null 2>&1
check_eq "bad -T exits 2" 2 $?

for f in samples/*.pcap samples/*.pcapng samples/*.txt samples/*.mon; do
	[ -f "$f" ] || continue
	"$US" read "$f" >"$TMP/out" 2>"$TMP/err"
	rc=$?
	check_eq "read $f exits 0" 0 $rc
	check "read $f: no sanitizer report" no_sanitizer_report "$TMP/err"
	n=$(wc -l <"$TMP/out")
	check "read $f prints records" test "$n" -gt 0
	if command -v tshark >/dev/null 2>&1; then
		case "$f" in
		*.pcap|*.pcapng)
			t=$(tshark -r "$f" 2>/dev/null | wc -l)
			check_eq "read $f: one line per record (tshark: $t)" \
			    "$t" "$n"
			;;
		esac
	fi
	"$US" read -V "$f" >"$TMP/v" 2>"$TMP/err"
	check_eq "read -V $f exits 0" 0 $?
	check "read -V $f: no sanitizer report" no_sanitizer_report "$TMP/err"
	"$US" read -T json "$f" >"$TMP/j" 2>"$TMP/err"
	check_eq "read -T json $f exits 0" 0 $?
	check "read -T json $f: one valid object per line ($n)" python3 -c '
import json, sys
n = 0
for line in open(sys.argv[1]):
    o = json.loads(line)
    # the URB id of usbmon, the IRP id of a USBPcap capture, the I/O id
    # of a macOS one, or the PID of a bus-level packet
    assert ("usb.urb_id" in o or "usb.irp_id" in o or
        "usb.darwin.io_id" in o or "usbll.pid" in o) and \
        "frame.number" in o, line
    n += 1
assert n == int(sys.argv[2]), (n, sys.argv[2])
' "$TMP/j" "$n"
done

# -c, stdin
"$US" read -c 3 samples/hid-keyboard.pcap >"$TMP/c3"
check_eq "-c 3 prints 3 lines" 3 "$(wc -l <"$TMP/c3")"
"$US" read samples/mass-storage.pcapng >"$TMP/a"
"$US" read - <samples/mass-storage.pcapng >"$TMP/b"
check_diff "stdin reads the same as the file" "$TMP/a" "$TMP/b"
cat samples/hid-keyboard.pcap | "$US" read - >"$TMP/b" 2>&1
"$US" read samples/hid-keyboard.pcap >"$TMP/a" 2>&1
check_diff "a pipe reads the same as the file" "$TMP/a" "$TMP/b"

# The same capture on a big-endian host decodes identically.
if [ -f samples/big-endian.pcap ]; then
	"$US" read samples/big-endian.pcap >"$TMP/be" 2>&1
	"$US" read samples/stall.pcap >"$TMP/le" 2>&1
	check_diff "big-endian capture decodes as its little-endian twin" \
	    "$TMP/le" "$TMP/be"
fi

# Real Linux 6.1 traffic: text and binary interfaces saw the same events.
"$US" read "$LINUX61/usbmon0.bin" >"$TMP/bin" 2>"$TMP/err"
check_eq "read usbmon0.bin exits 0" 0 $?
"$US" read "$LINUX61/usbmon-0u.txt" >"$TMP/txt" 2>"$TMP/err"
check_eq "read usbmon-0u.txt exits 0" 0 $?
check_eq "binary and text interfaces: same record count" \
    "$(wc -l <"$LINUX61/usbmon-0u.txt")" "$(wc -l <"$TMP/bin")"
# Same events, other clock: drop the stamp.  read() gives the 48-byte
# header, which has no interval field: mask "status:interval" too.
norm='s/ (-?[0-9]+):[0-9]+ / \1:N /'
"$US" read -T usbmon "$LINUX61/usbmon0.bin" | cut -d' ' -f1,3- |
    sed -E "$norm" >"$TMP/a"
cut -d' ' -f1,3- "$LINUX61/usbmon-0u.txt" | sed -E "$norm" >"$TMP/b"
check_diff "usbmon0.bin as kernel text equals usbmon-0u.txt" \
    "$TMP/b" "$TMP/a"
"$US" read -T usbmon "$LINUX61/usbmon-0u.txt" >"$TMP/a"
check_diff "usbmon-0u.txt re-printed is byte-identical" \
    "$LINUX61/usbmon-0u.txt" "$TMP/a"
for p in "$LINUX61"/qemu-usb-*.pcap; do
	"$US" read "$p" >"$TMP/q" 2>"$TMP/err"
	check_eq "read $(basename "$p") exits 0" 0 $?
	if command -v tshark >/dev/null 2>&1; then
		check_eq "read $(basename "$p"): one line per record" \
		    "$(tshark -r "$p" 2>/dev/null | wc -l)" \
		    "$(wc -l <"$TMP/q")"
	fi
done
# Classes learnt from the enumeration name bulk and interrupt traffic.
check "storage bulk traffic is named Mass Storage" \
    grep -q 'bulk.*\[intf 0 Mass Storage\] .*CBW' "$TMP/bin"
check "keyboard reports are named HID" \
    grep -q 'int .*\[intf 0 HID\]' "$TMP/bin"

# Display filters (-Y): the analysis sees every record, output only matches.
"$US" read samples/stall.pcap >"$TMP/all" 2>/dev/null
"$US" read samples/stall.pcap -Y 'type==bulk && ev==C && status!=0' \
    >"$TMP/f" 2>/dev/null
check_eq "-Y: the matching lines are the same as without it" \
    "$(awk '$6 == "bulk" && $5 == "C" && $7 != "ok"' "$TMP/all")" \
    "$(cat "$TMP/f")"
check "-Y: something matched" test -s "$TMP/f"
"$US" read samples/stall.pcap -Y 'type==bluk' >/dev/null 2>"$TMP/err"
check_eq "-Y with a bad value exits 2" 2 $?
check "-Y error names the column" grep -q 'col ' "$TMP/err"
n=$("$US" read samples/hid-keyboard.pcap -Y 'latency>100ms' 2>/dev/null |
    wc -l)
m=$("$US" read samples/hid-keyboard.pcap -T fields -e usb.time 2>/dev/null |
    awk '$1 > 0.1' | wc -l)
check_eq "-Y latency>100ms: as many lines as usb.time > 0.1 s" "$m" "$n"

# -T fields with a field urbscope does not know: an error naming it.
"$US" read -T fields -e frame.number -e usb.no_such_field \
    samples/stall.pcap >"$TMP/o" 2>"$TMP/err"
check_eq "-e with an unknown field exits 2" 2 $?
check "-e unknown: the message names the field" \
    grep -q 'usb.no_such_field: urbscope knows no such field' "$TMP/err"
check_eq "-e unknown: nothing printed" 0 "$(wc -c <"$TMP/o")"

# Compressed captures read as the plain ones, from a file or a pipe.
"$US" read samples/stall.pcap >"$TMP/plain" 2>&1
"$US" read samples/stall.pcap.gz >"$TMP/gz" 2>&1
check_diff "a .pcap.gz reads as the .pcap" "$TMP/plain" "$TMP/gz"
"$US" read samples/stall.pcap.zst >"$TMP/zst" 2>&1
check_diff "a .pcap.zst reads as the .pcap" "$TMP/plain" "$TMP/zst"
"$US" read - <samples/stall.pcap.gz >"$TMP/gz" 2>&1
check_diff "a gzip stream on standard input reads as the .pcap" \
    "$TMP/plain" "$TMP/gz"
gzip -c samples/mass-storage.pcapng >"$TMP/m.gz"
head -c 2000 "$TMP/m.gz" >"$TMP/cut.gz"
"$US" read "$TMP/cut.gz" >/dev/null 2>"$TMP/err"
check_eq "a cut .gz exits 1" 1 $?
check "a cut .gz: the message names a record" grep -q 'record [0-9]' \
    "$TMP/err"
check "a cut .gz: no sanitizer report" no_sanitizer_report "$TMP/err"
head -c 1000 samples/stall.pcap.zst >"$TMP/cut.zst"
"$US" read "$TMP/cut.zst" >/dev/null 2>"$TMP/err"
check_eq "a .zst cut inside its first block exits 1" 1 $?
check "a cut .zst: says the compressed data ends" \
    grep -q 'compressed data ends before' "$TMP/err"

# A capture that starts after enumeration: BOT guessed by its signatures
# (and marked so), --decode-as names the class instead, a bad one exits 2.
"$US" read samples/mass-storage.pcapng -T usbmon | sed 1,97d >"$TMP/late.txt"
"$US" read "$TMP/late.txt" >"$TMP/o" 2>&1
check "no descriptors: a CBW is guessed as mass storage" grep -q \
    '\[guessed Mass Storage\] OUT 31 bytes: CBW tag 1 INQUIRY' "$TMP/o"
"$US" read "$TMP/late.txt" -V -c 1 >"$TMP/o" 2>&1
check "no descriptors: -V says the class is a guess" grep -q \
    'decoded as Mass Storage (08.06.50), guessed from the data' "$TMP/o"
"$US" read "$TMP/late.txt" --decode-as 1.2=msc >"$TMP/o" 2>&1
check "--decode-as 1.2=msc: the interface's class, no guess" grep -q \
    '\[intf 0 Mass Storage\] OUT 31 bytes: CBW tag 1 INQUIRY' "$TMP/o"
check_eq "--decode-as: nothing left guessed" 0 \
    "$(grep -c guessed "$TMP/o")"
"$US" read "$TMP/late.txt" --decode-as 1.2=0a >"$TMP/o" 2>&1
check "--decode-as 1.2=0a: CDC data, no CBW decoded" sh -c \
    "! grep -q CBW '$TMP/o'"
"$US" read "$TMP/late.txt" --decode-as 1.2=bogus >/dev/null 2>"$TMP/err"
check_eq "--decode-as with an unknown class exits 2" 2 $?
check "--decode-as unknown: the message lists the classes" grep -q \
    "'bogus': unknown class (one of hid, " "$TMP/err"

# A capture of more than 1 MiB read from its file gives the same lines as
# through a pipe; cut short while it is read, a clear error (exit 1, as
# any input error), not a quiet end or a SIGBUS core.
CAPGEN=${CAPGEN:-build/tools/capgen}
if [ -x "$CAPGEN" ]; then
	"$CAPGEN" mixed -n 20000 -F pcap -w "$TMP/big.pcap"
	"$US" read "$TMP/big.pcap" >"$TMP/a" 2>&1
	"$US" read - <"$TMP/big.pcap" >"$TMP/b" 2>&1
	check_diff "a large capture reads as through a pipe" "$TMP/a" "$TMP/b"
	rm -f "$TMP/fifo"
	mkfifo "$TMP/fifo"
	"$US" read -V "$TMP/big.pcap" >"$TMP/fifo" 2>"$TMP/err" &
	pid=$!
	exec 3<"$TMP/fifo"
	sleep 0.5		# it blocks on the full pipe, mid-file
	: >"$TMP/big.pcap"
	cat <&3 >/dev/null
	exec 3<&-
	wait "$pid"
	check_eq "a large capture truncated while read exits 1" 1 $?
	check "... and says the file shrank" grep -q \
	    'the input file shrank while it was being read' "$TMP/err"
else
	skip "a large capture" "$CAPGEN not built (make tools)" 3
fi

# -T keys: what each keyboard typed, from the boot reports or by the
# report descriptor's layout, Caps Lock and Ctrl kept; nothing for a
# capture without a keyboard.
"$US" read samples/hid-keyboard.pcap -T keys >"$TMP/k" 2>"$TMP/err"
check_eq "-T keys exits 0" 0 $?
check "-T keys: no sanitizer report" no_sanitizer_report "$TMP/err"
printf '1.2 interface 0, 12 reports:\nhello\n' >"$TMP/want"
check_diff "-T keys: the sample keyboard typed hello" "$TMP/want" "$TMP/k"
for f in "$LINUX61/usbmon-0u.txt" "$LINUX61/usbmon0.bin"; do
	"$US" read "$f" -T keys >"$TMP/k" 2>/dev/null
	printf '1.3 interface 0, 42 reports:\nusbmon rig\nABX^C\n' \
	    >"$TMP/want"
	check_diff "-T keys on Linux's $(basename "$f"): Caps Lock, Ctrl" \
	    "$TMP/want" "$TMP/k"
done
"$US" read "$LINUX61/qemu-usb-kbd.pcap" -T keys 2>/dev/null |
    sed 1d >"$TMP/k"
printf 'usbmon rig\nABX^C\n' >"$TMP/want"
check_diff "-T keys by the report descriptor (QEMU's capture)" \
    "$TMP/want" "$TMP/k"
"$US" read samples/windows-usbpcap.pcapng -T keys >"$TMP/k" 2>/dev/null
check "-T keys on a USBPcap capture" grep -qx usb "$TMP/k"
"$US" read samples/mass-storage.pcapng -T keys >"$TMP/k" 2>"$TMP/k.err"
check_eq "-T keys without a keyboard prints nothing" 0 "$(wc -c <"$TMP/k")"
check "-T keys without a keyboard says so on stderr" grep -q \
    'no HID keyboard' "$TMP/k.err"
"$US" read samples/hid-keyboard.pcap -T keys -Y 'dev==9' >"$TMP/k"
check_eq "-T keys: -Y leaves out what it does not show" 0 \
    "$(wc -c <"$TMP/k")"

# pcapng packet comments, editcap's and urbscope's own (the driver call
# behind a submit): in -V, in JSON and -T fields as Wireshark's
# frame.comment, the same as tshark's
if command -v editcap >/dev/null 2>&1 && command -v tshark >/dev/null 2>&1
then
	editcap -a 1:"hello" samples/mass-storage.pcapng "$TMP/cmt.pcapng" \
	    >/dev/null 2>&1
	"$US" read -V -c 2 "$TMP/cmt.pcapng" >"$TMP/cmt.V" 2>&1
	check "-V shows a packet's comment" \
	    grep -q '^        Comment: "hello"$' "$TMP/cmt.V"
	check "-V shows it on its packet only" \
	    test "$(grep -c 'Comment:' "$TMP/cmt.V")" -eq 1
	"$US" read -T json -c 1 "$TMP/cmt.pcapng" >"$TMP/cmt.json" 2>&1
	check "JSON has the comment as frame.comment" \
	    grep -q '"frame.comment":"hello"' "$TMP/cmt.json"
	"$US" sim skeleton -w "$TMP/sk.pcapng" >/dev/null 2>&1
	"$US" read -V "$TMP/sk.pcapng" >"$TMP/sk.V" 2>&1
	check "-V shows urbscope's own submit comments" \
	    grep -q '^        Comment: "hub probe usb_submit_urb GFP_NOIO"$' \
	    "$TMP/sk.V"
	for f in "$TMP/cmt.pcapng" "$TMP/sk.pcapng"; do
		tshark -r "$f" -T fields -e frame.number -e frame.comment \
		    >"$TMP/ts.cmt" 2>/dev/null
		"$US" read "$f" -T fields -e frame.number -e frame.comment \
		    >"$TMP/us.cmt" 2>/dev/null
		# -T fields prints no driver events: tshark's other frames
		awk -F'\t' 'NR == FNR { us[$1] = 1; next } us[$1]' \
		    "$TMP/us.cmt" "$TMP/ts.cmt" >"$TMP/ts.urb"
		check_diff "frame.comment as tshark's ($(basename "$f"))" \
		    "$TMP/ts.urb" "$TMP/us.cmt"
	done
else
	skip "packet comments" "editcap or tshark is not installed" 6
fi

# -t d counts from the previous record read, shown or not, as tshark's
# -t d (frame.time_delta; -t dd is its delta from the previous shown).
"$US" read -t e samples/stall.pcap 2>/dev/null |
    awk '{ printf "%s %.6f\n", $1, $2 - p; p = $2 }' >"$TMP/all.d"
"$US" read -t d -Y 'ev==C' samples/stall.pcap 2>/dev/null |
    awk '{ print $1, $2 }' >"$TMP/shown.d"
check "read -t d -Y: the shown records are there" test -s "$TMP/shown.d"
# WANT GOT: "record delta" lines; every record of GOT has WANT's delta.
same_deltas() {
	awk 'NR == FNR { d[$1] = $2; next }
	    { if (d[$1] + 0 != $2 + 0) { print "record " $1 ": " $2 " not " \
	    d[$1]; bad = 1 } }
	    END { exit bad }' "$1" "$2"
}
check "read -t d -Y: each delta is from the record before, shown or not" \
    same_deltas "$TMP/all.d" "$TMP/shown.d"
# -t dd: from the previous record shown (0 for the first), as tshark's
# -t dd (frame.time_delta_displayed); tshark is the oracle where it is.
"$US" read -t e -Y 'ev==C' samples/stall.pcap 2>/dev/null |
    awk '{ printf "%s %.6f\n", $1, NR == 1 ? 0 : $2 - p; p = $2 }' \
    >"$TMP/shown.e"
"$US" read -t dd -Y 'ev==C' samples/stall.pcap 2>/dev/null |
    awk '{ print $1, $2 }' >"$TMP/shown.dd"
check "read -t dd -Y: the shown records are there" test -s "$TMP/shown.dd"
check "read -t dd -Y: each delta is from the record shown before" \
    same_deltas "$TMP/shown.e" "$TMP/shown.dd"
if command -v tshark >/dev/null 2>&1; then
	for m in d dd; do
		"$US" read -t $m -Y 'usb.urb_type == 67' \
		    "$LINUX61/qemu-usb-kbd.pcap" 2>/dev/null |
		    awk '{ print $1, $2 }' >"$TMP/t.ours"
		tshark -r "$LINUX61/qemu-usb-kbd.pcap" -t $m \
		    -Y 'usb.urb_type == 67' 2>/dev/null |
		    awk '{ print $1, $2 }' >"$TMP/t.tshark"
		check_diff "read -t $m -Y: tshark -t $m's times" \
		    "$TMP/t.tshark" "$TMP/t.ours"
	done
else
	skip "-t d and dd against tshark" "tshark is not installed" 2
fi
"$US" read -t x samples/stall.pcap >/dev/null 2>"$TMP/err"
check_eq "read -t x exits 2" 2 $?
check "read -t x names the modes" grep -q "r, a, d, dd or e" "$TMP/err"
