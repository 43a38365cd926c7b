#!/bin/sh
# tests/e2e/transfers-out.sh - what an OUT URB sent, in the transfers
# view: usbmon's OUT completions carry no data, so the row of one shows
# its submit's data as the submit's line decodes it (CDC-ACM text, a
# mass-storage CBW's command, else hex), checked against tshark's
# usb.capdata and scsi.opcode; rows fold only when their bytes are equal
# ("testusb" written a byte at a time is seven rows); a macOS capture's
# OUT completions carry the data, and plain read shows it; the TUI's T
# view has the rows read --transfers has (same count, same fold).
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh
plan 45

CAPGEN=${CAPGEN:-build/tools/capgen}

# The rows of a text transfers view, a run counted as its repeats.
rows() {
	awk '{ n = 1
		if (match($0, /\((polled|repeated) [0-9]+ times/)) {
			s2 = substr($0, RSTART, RLENGTH)
			sub(/^\((polled|repeated) /, "", s2)
			n = s2 + 0
		}
		s += n }
	    END { print s + 0 }' "$1"
}

# "testusb" to a CDC-ACM adapter (samples/devices/serial.c, wired TX to
# RX) through Linux's cdc-acm (samples/drivers/acm.c), a byte a write.
cat >"$TMP/acm.scn" <<EOF
load cdc-acm
plug 1 serial
settle 1
open /dev/usb/ttyACM0
EOF
for c in t e s t u s b; do
	echo "write /dev/usb/ttyACM0 $c"
done >>"$TMP/acm.scn"
echo "close /dev/usb/ttyACM0" >>"$TMP/acm.scn"
"$US" sim "$TMP/acm.scn" -w "$TMP/acm.pcap" -F pcap 2>"$TMP/err"
check "the CDC-ACM capture is written" test -s "$TMP/acm.pcap"
OUT='usb.endpoint_address == 0x02'

"$US" read --transfers -Y "$OUT" "$TMP/acm.pcap" >"$TMP/t" 2>"$TMP/err"
check_eq "acm: read --transfers exits 0" 0 $?
check "acm: no sanitizer report" no_sanitizer_report "$TMP/err"
check_eq "acm: seven different writes, seven rows" 7 "$(wc -l <"$TMP/t")"
check "acm: none folded as identical" sh -c "! grep -q identical '$TMP/t'"
check "acm: a row shows the text it sent" grep -qE \
    ' out +bulk ok +1/1  \[intf 1 CDC-Data\] 1 byte sent, [0-9.]+ ms: "t"$' \
    "$TMP/t"
sed -n 's/.*byte sent, [0-9.]* ms: "\(.\)"$/\1/p' "$TMP/t" | tr -d '\n' \
    >"$TMP/text"
check_eq "acm: the rows' text is what was written" testusb "$(cat "$TMP/text")"
"$US" read --tree "$TMP/acm.pcap" >"$TMP/tree" 2>&1
check_eq "acm --tree: the OUT endpoint's seven rows" 7 "$(awk '
    /^  endpoint/ { on = /1\.2\.2 out bulk/; next } on && /^    / { n++ }
    END { print n + 0 }' "$TMP/tree")"
"$US" read --transfers -T json -Y "$OUT" "$TMP/acm.pcap" >"$TMP/j" 2>&1
check "acm, JSON: the summary has the text" \
    grep -q '"summary":"\[intf 1 CDC-Data\] 1 byte sent, [0-9.]* ms: \\"u\\""' \
    "$TMP/j"
if command -v tshark >/dev/null 2>&1; then
	# the bytes tshark finds in the submits, the rows' in submit order
	tshark -r "$TMP/acm.pcap" -Y 'usb.endpoint_address == 0x02 &&
	    usb.urb_type == 0x53' -T fields -e frame.number -e usb.capdata \
	    2>/dev/null >"$TMP/ts"
	awk '{ print $1, $2 }' "$TMP/t" | while read -r s e; do
		printf '%s\t' "$s"
		"$US" read --transfers -Y "frame.number == $e" "$TMP/acm.pcap" \
		    2>/dev/null | sed -n 's/.*: "\(.\)"$/\1/p' | tr -d '\n' |
		    od -An -tx1 | tr -d ' \n'
		echo
	done >"$TMP/us"
	check_diff "acm: each row's bytes are tshark's usb.capdata of its submit" \
	    "$TMP/ts" "$TMP/us"
else
	skip "acm vs tshark" "tshark is not installed" some
fi

# Alike writes still fold, and only they: the same byte three times.
cat >"$TMP/same.scn" <<EOF
load cdc-acm
plug 1 serial
settle 1
open /dev/usb/ttyACM0
write /dev/usb/ttyACM0 x
write /dev/usb/ttyACM0 x
write /dev/usb/ttyACM0 x
write /dev/usb/ttyACM0 y
close /dev/usb/ttyACM0
EOF
"$US" sim "$TMP/same.scn" -w "$TMP/same.pcap" -F pcap 2>/dev/null
"$US" read --transfers -Y "$OUT" "$TMP/same.pcap" >"$TMP/s" 2>&1
check "alike writes: one row, three times" grep -qE \
    '1 byte sent, [0-9.]+ ms: "x" \(repeated 3 times, identical' "$TMP/s"
check_eq "alike writes: then the other" 2 "$(wc -l <"$TMP/s")"

# Mass storage: a CBW's row says its command, as tshark's scsi.opcode.
MS=samples/mass-storage.pcapng
"$US" read --transfers -Y "$OUT" "$MS" >"$TMP/m" 2>"$TMP/err"
check "msc: no sanitizer report" no_sanitizer_report "$TMP/err"
check "msc: a CBW row has its command" grep -qE \
    '31/31  \[intf 0 Mass Storage\] 31 bytes sent, [0-9.]+ ms: CBW tag 7 READ\(10\) lba 0 blocks 8, IN 4096 bytes$' \
    "$TMP/m"
check "msc: the data of a WRITE(10) says so" grep -qE \
    '512 bytes sent, [0-9.]+ ms: 1 block of data for WRITE\(10\) lba 100$' \
    "$TMP/m"
check "msc: the CBW rows are not folded" sh -c "! grep -q identical '$TMP/m'"
# on a real kernel's capture, against tshark
BOT=$LINUX61/qemu-usb-storage.pcap
"$US" read --transfers "$BOT" >"$TMP/b" 2>"$TMP/err"
check "bot: no sanitizer report" no_sanitizer_report "$TMP/err"
if command -v tshark >/dev/null 2>&1; then
	tshark -r "$BOT" -Y 'usbms.dCBWSignature' -T fields -e frame.number \
	    -e scsi.spc.opcode -e scsi_sbc.opcode 2>/dev/null |
	    awk -F'\t' '{ n = tolower($2 != "" ? $2 : $3)
		sub(/^0x/, "", n); print $1, n }' >"$TMP/ts"
	# the commands the rows name, by their submit frame
	awk 'BEGIN { op["TEST UNIT READY"] = "00"; op["REQUEST SENSE"] = "03"
		op["INQUIRY"] = "12"; op["MODE SENSE(6)"] = "1a"
		op["READ CAPACITY(10)"] = "25"; op["READ(10)"] = "28"
		op["WRITE(10)"] = "2a"; op["SYNCHRONIZE CACHE(10)"] = "35" }
	    / out +bulk ok +31\/[0-9]+ / && match($0, /CBW tag [0-9]+ [^,]*/) {
		c = substr($0, RSTART, RLENGTH)
		sub(/^CBW tag [0-9]+ /, "", c)
		sub(/ (lba|page) .*/, "", c)
		print $1, (c in op) ? op[c] : c }' "$TMP/b" | sort -n >"$TMP/us"
	check "bot: 83 CBWs" test "$(wc -l <"$TMP/ts")" -eq 83
	check_diff "bot: each CBW row's command is tshark's scsi opcode" \
	    "$TMP/ts" "$TMP/us"
else
	skip "bot vs tshark" "tshark is not installed" some
fi
# the row's decode is the submit line's
awk '/CBW tag/ { print $1 }' "$TMP/b" | head -n 20 | while read -r s; do
	"$US" read -Y "frame.number == $s" "$BOT" 2>/dev/null |
	    sed -n 's/.* OUT 31 bytes: //p'
done >"$TMP/sub"
grep 'CBW tag' "$TMP/b" | head -n 20 | sed 's/.* ms: //' >"$TMP/row"
check "bot: 20 CBW rows" test "$(wc -l <"$TMP/row")" -eq 20
check_diff "bot: a CBW row's decode is its submit line's" "$TMP/sub" \
    "$TMP/row"

# macOS: the completion carries what an OUT sent; plain read shows it.
"$CAPGEN" darwin-out -F pcapng -w "$TMP/mac.pcapng"
"$US" read "$TMP/mac.pcapng" >"$TMP/mr" 2>"$TMP/err"
check "mac: no sanitizer report" no_sanitizer_report "$TMP/err"
check "mac: an OUT completion's line has its data" grep -qE \
    '^ +10 .* out C bulk ok +1  .*1 byte sent, [0-9.]+ ms: 74$' "$TMP/mr"
if command -v tshark >/dev/null 2>&1; then
	tshark -r "$TMP/mac.pcapng" -Y 'usb.capdata && usb.darwin.endpoint_address == 0x02' \
	    -T fields -e frame.number -e usb.capdata 2>/dev/null >"$TMP/ts"
	awk '/ out C bulk / { n = $1; sub(/.* ms: /, ""); gsub(/ /, "")
		print n "\t" $0 }' "$TMP/mr" >"$TMP/us"
	check "mac: ten OUT completions with data" \
	    test "$(wc -l <"$TMP/ts")" -eq 10
	check_diff "mac: their data is tshark's usb.capdata" "$TMP/ts" "$TMP/us"
else
	skip "mac vs tshark" "tshark is not installed" some
fi
"$US" read --transfers "$TMP/mac.pcapng" >"$TMP/mt" 2>&1
check_eq "mac --transfers: seven writes and one run of three" 8 \
    "$(grep -c ' 20\.5\.2 ' "$TMP/mt")"
check "mac --transfers: the alike ones fold" grep -qE \
    '2 bytes sent, [0-9.]+ ms: 6f 6b \(repeated 3 times, identical' "$TMP/mt"

# The TUI's T view: the rows read --transfers has, the same runs.
. tests/tmux.sh
n=0
tui_rows() {	# FILE [FILTER]: the T view's count of rows into $TMP/n
	n=$((n + 1))
	$T new-session -d -s "$S-$n" -x 160 -y 40 \
	    "TERM=xterm-256color LANG=C.UTF-8 $US tui $1 \
	    2>$TMP/tuierr; echo TUI-EXIT=\$?; sleep 30"
	S0=$S
	S=$S-$n
	wait_for "^ 1/[0-9]+ " >/dev/null
	$T send-keys -t "$S" T
	wait_for "TRANSFERS" >/dev/null
	if [ -n "$2" ]; then
		$T send-keys -t "$S" f "$2" Enter
		wait_for "filter: .* TRANSFERS" >/dev/null
	fi
	sleep 0.3
	screen >"$TMP/screen"
	sed -n 's/^ [0-9]*\/\([0-9]*\) .*TRANSFERS.*/\1/p' "$TMP/screen" \
	    >"$TMP/n"
	$T send-keys -t "$S" q
	wait_for "TUI-EXIT=0" >/dev/null
	S=$S0
}
for f in "$TMP/acm.pcap" "$TMP/same.pcap" "$MS" "$TMP/mac.pcapng"; do
	"$US" read --transfers "$f" >"$TMP/c" 2>/dev/null
	tui_rows "$f"
	check_eq "$f: the T view's rows are read --transfers's" \
	    "$(wc -l <"$TMP/c")" "$(cat "$TMP/n")"
	check "$f: tui: no sanitizer report" no_sanitizer_report \
	    "$TMP/tuierr"
done
"$US" read --transfers -Y "$OUT" "$TMP/same.pcap" >"$TMP/c" 2>/dev/null
tui_rows "$TMP/same.pcap" "$OUT"
check_eq "same.pcap, the OUT endpoint: T's rows are read's (2)" \
    "$(wc -l <"$TMP/c")" "$(cat "$TMP/n")"
check "T: the OUT row shows what was sent, folded as read folds it" \
    grep -qE '1 byte sent, [0-9.]+ ms: "x" \(repeated 3 times\)' \
    "$TMP/screen"
tui_rows "$TMP/acm.pcap" "$OUT"
check_eq "acm.pcap, the OUT endpoint: seven rows in T" 7 "$(cat "$TMP/n")"
check "T: each write's row shows its text" sh -c "
    grep -qE '1 byte sent, [0-9.]+ ms: \"t\"' '$TMP/screen' &&
    grep -qE '1 byte sent, [0-9.]+ ms: \"b\"' '$TMP/screen'"
tui_rows "$MS" "$OUT"
check "T: a CBW's row has its command" grep -qE \
    '31 bytes sent, [0-9.]+ ms: CBW tag 2 TEST UNIT READY, no data' \
    "$TMP/screen"

# T on a bus-level capture: the NAKed polls and the SOFs fold as read
# --collapse folds them (its rows of packets, with their text).
LL=samples/usb-fs-acm.pcapng
"$US" read --collapse "$LL" 2>/dev/null | awk '$5 == "P" {
	t = $0; for (k = 0; k < 8; k++) sub(/^ *[^ ]+ +/, "", t)
	if (match(t, / \(packets [^)]*\)$/)) {
		p = substr(t, RSTART, RLENGTH); t = substr(t, 1, RSTART - 1)
		if (match(p, /, [0-9]+ SOFs? between/))
			t = t substr(p, RSTART, RLENGTH)
	}
	print $1 " " t }' >"$TMP/want"
check "collapse: a run of polls with SOFs between" \
    grep -q '^102 IN 5.2 polled 4 times, NAKed, 3 SOFs between$' "$TMP/want"
n=$((n + 1))
S0=$S
S=$S-$n
$T new-session -d -s "$S" -x 200 -y 60 \
    "TERM=xterm-256color LANG=C.UTF-8 $US tui $LL 2>$TMP/tuierr; \
    echo TUI-EXIT=\$?; sleep 30"
wait_for "^ 1/[0-9]+ " >/dev/null
$T send-keys -t "$S" T
check "usbll: T is on" wait_for "TRANSFERS"
: >"$TMP/ll"
i=0
while [ $i -lt 10 ]; do
	sleep 0.3
	screen | awk '/TRANSFERS/ { exit } { print }' >>"$TMP/ll"
	screen | grep -qE '^ ([0-9]+)/\1 ' && break
	$T send-keys -t "$S" NPage
	i=$((i + 1))
done
awk '$5 == "P" && $1 ~ /^[0-9]+$/ { t = $0
	for (k = 0; k < 8; k++) sub(/^ *[^ ]+ +/, "", t); print $1 " " t }' "$TMP/ll" |
    sort -un -k1,1 >"$TMP/got"
check_diff "usbll: T's rows of packets are read --collapse's" "$TMP/want" \
    "$TMP/got"
$T send-keys -t "$S" q
check "usbll: q quits" wait_for "TUI-EXIT=0"
check "usbll: tui: no sanitizer report" no_sanitizer_report "$TMP/tuierr"
S=$S0
