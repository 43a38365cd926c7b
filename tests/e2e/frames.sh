#!/bin/sh
# tests/e2e/frames.sh - frame numbers and times in a file with packets
# urbscope skips (tests/tools/ethmix.py: samples/hid-keyboard.pcap's USB
# packets with Ethernet ones interleaved on a second pcapng interface,
# the first frame of the file among them): read's frame.number,
# frame.time_relative, frame.time_delta and time column, -Y on them,
# stats -z io,stat (the intervals count from the file's first frame),
# read --transfers and the stderr note of the URBs not completed all
# count the file's frames as tshark does, the skipped ones included.
# The note is one line; -q and -T keys print none.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh
plan 31

ethmix_or_skip frames
check_eq "ethmix.py exits 0" 0 $?
F=$TMP/mix.pcapng
check_eq "tshark reads 150 frames, 20 of them Ethernet" "150 20" \
    "$(tshark -r "$F" 2>/dev/null | wc -l) $(tshark -r "$F" -Y eth \
    2>/dev/null | wc -l)"

# the frame.* fields, record by record
tshark -r "$F" -Y usb -T fields -e frame.number -e frame.time_relative \
    -e frame.time_delta >"$TMP/ts" 2>/dev/null
"$US" read "$F" -T fields -e frame.number -e frame.time_relative \
    -e frame.time_delta >"$TMP/us" 2>"$TMP/err"
check_eq "read exits 0" 0 $?
check "no sanitizer report" no_sanitizer_report "$TMP/err"
check_diff "frame.number, time_relative, time_delta as tshark's" \
    "$TMP/ts" "$TMP/us"
check_eq "the first USB frame is frame 2, 0.5 s after the first" \
    "2	0.500000000	0.500000000" "$(head -n 1 "$TMP/us")"

# the text lines' columns: -t r from the first frame, -t d from the one
# before, skipped or not (tshark prints microseconds, rounded)
tshark -r "$F" -Y usb -T fields -e frame.number -e frame.time_relative \
    2>/dev/null | awk '{ printf "%s %.6f\n", $1, $2 }' >"$TMP/ts"
"$US" read "$F" 2>/dev/null | awk '{ print $1, $2 }' >"$TMP/us"
check_diff "read's No. and Time columns (-t r) as tshark's" "$TMP/ts" \
    "$TMP/us"
"$US" read "$F" -t d -Y 'frame.number == 8 || frame.number == 10' \
    2>/dev/null | awk '{ print $1, $2 }' >"$TMP/us"
check_eq "-t d counts from the skipped frame before" "8 0.000521
10 0.000152" "$(cat "$TMP/us")"

# -Y on frame.* counts what tshark's does
for x in 0.4 0.6 1 2.5 4.6; do
	want=$(tshark -r "$F" -Y "usb && frame.time_relative > $x" \
	    2>/dev/null | wc -l)
	got=$("$US" read "$F" -Y "frame.time_relative > $x" 2>/dev/null |
	    wc -l)
	check_eq "-Y 'frame.time_relative > $x': tshark's count" "$want" \
	    "$got"
done
want=$(tshark -r "$F" -Y "usb && frame.time_delta > 0.1" 2>/dev/null |
    wc -l)
check_eq "-Y 'frame.time_delta > 0.1': tshark's count" "$want" \
    "$("$US" read "$F" -Y 'frame.time_delta > 0.1' 2>/dev/null | wc -l)"
tshark -r "$F" -Y 'frame.number == 56' -T fields -e usb.urb_type \
    -e usb.transfer_type >"$TMP/ts" 2>/dev/null
"$US" read "$F" -Y 'frame.number == 56' -T fields -e usb.urb_type \
    -e usb.transfer_type >"$TMP/us" 2>/dev/null
check "frame 56 is a USB packet" test -s "$TMP/ts"
check_diff "-Y 'frame.number == 56': tshark's packet" "$TMP/ts" "$TMP/us"

# stats -z io,stat: intervals from the file's first frame, as tshark's
# io,stat with the usb filter (its frames and bytes, row by row)
io_rows() {
	tshark -r "$F" -q -z "io,stat,$1,$2" 2>/dev/null | awk -F'|' \
	    '$2 ~ /<>/ { gsub(/ /, "", $3); gsub(/ /, "", $4);
	    print $3, $4 }' >"$TMP/io.want"
}
for iv in 1 0.3; do
	io_rows "$iv" usb
	"$US" stats "$F" -z "io,stat,$iv" 2>/dev/null | awk \
	    'NF == 4 && $1 ~ /^[0-9.]+$/ { print $3, $4 }' >"$TMP/io.got"
	check "io,stat,$iv: tshark has rows" test -s "$TMP/io.want"
	check_diff "stats -z io,stat,$iv: rows as tshark's" "$TMP/io.want" \
	    "$TMP/io.got"
done
io_rows 1 "usb.transfer_type == 1"
"$US" stats "$F" -z io,stat,1 -Y 'usb.transfer_type == 1' 2>/dev/null |
    awk 'NF == 4 && $1 ~ /^[0-9.]+$/ { print $3, $4 }' >"$TMP/io.got"
check_diff "stats -Y ... -z io,stat,1: the intervals of the file" \
    "$TMP/io.want" "$TMP/io.got"

# read --transfers: its rows' submit and completion are a request and
# its response in tshark (a run of rows folded is its first)
tshark -2 -r "$F" -Y 'usb.urb_type == 0x53 && usb.response_in' \
    -T fields -e frame.number -e usb.response_in 2>/dev/null |
    sort >"$TMP/ts"
"$US" read "$F" --transfers 2>/dev/null |
    awk '$2 != "-" { print $1 "\t" $2 }' | sort >"$TMP/us"
check "tshark pairs submits" test -s "$TMP/ts"
check "read --transfers has rows" test "$(wc -l <"$TMP/us")" -gt 50
check_eq "read --transfers: S and C frame numbers are tshark's pairs" "" \
    "$(comm -13 "$TMP/ts" "$TMP/us")"

# the URBs never completed: tshark's submits without a response, in one
# short line on stderr
pend=$(tshark -2 -r "$F" -Y 'usb.urb_type == 0x53 && !usb.response_in' \
    -T fields -e frame.number 2>/dev/null | paste -sd, | sed 's/,/, /g')
check_eq "tshark: two submits without a response" "56, 149" "$pend"
"$US" read "$F" >/dev/null 2>"$TMP/err"
check_eq "the note names their frames" \
    "urbscope: 2 URBs not completed by the end (frames $pend)" \
    "$(grep 'not completed' "$TMP/err")"
check "the skipped packets are said" grep -q '20 packets skipped' \
    "$TMP/err"
check_eq "two notes, a line each" 2 "$(wc -l <"$TMP/err")"
"$US" read "$F" -q >/dev/null 2>"$TMP/err"
check_eq "read -q: no note" 0 "$(wc -c <"$TMP/err")"
"$US" read "$F" -T keys >/dev/null 2>"$TMP/err"
check_eq "-T keys: no note of URBs not completed" 0 \
    "$(grep -c 'not completed' "$TMP/err")"
"$US" read samples/hid-keyboard.pcap -T keys >"$TMP/out" 2>"$TMP/err"
check_eq "-T keys of a file without skipped packets: stderr empty" 0 \
    "$(wc -c <"$TMP/err")"
