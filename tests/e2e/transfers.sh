#!/bin/sh
# tests/e2e/transfers.sh - the transfers view: `read --transfers` has one
# row per URB (completions, submit errors and the submits never
# completed, counted apart with tshark), the asked and done lengths of
# the rows are the submit's and the completion's usb.urb_len, a run of
# identical polls is one row with its count, filters and -c; --tree
# groups the rows by device and endpoint; the TUI's T key in a real
# terminal (tmux), a run of identical polls one row there too.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh
plan 91

# The rows of a JSON transfers view, a run counted as its repeats.
rows() {
	awk '/"frame.submit"/ { n = 1
		if (match($0, /"repeats":[0-9]+/))
			n = substr($0, RSTART + 10, RLENGTH - 10)
		s += n }
	    END { print s + 0 }' "$1"
}

# The URBs of a Linux capture by tshark: completions and errors, and the
# submits nothing ended (another submit of the same URB id on the bus, or
# the end of the capture, came first).
tshark_urbs() {
	tshark -r "$1" -T fields -e usb.urb_type -e usb.urb_id -e usb.bus_id \
	    2>/dev/null | awk -F'\t' '{ t = $1; gsub(/\047/, "", t)
		k = $2 " " $3 }
	    t == "S" { if (k in open) never++; open[k] = 1; next }
	    t == "C" || t == "E" { ends++; delete open[k] }
	    END { for (k in open) never++; print ends + never }'
}

if command -v tshark >/dev/null 2>&1; then
	for f in samples/*.pcap samples/*.pcap.gz samples/*.pcap.zst \
	    samples/*.pcapng "$LINUX61"/*.pcap; do
		want=$(tshark_urbs "$f")
		[ "$want" -gt 0 ] || continue	# no usbmon URBs (USBPcap ...)
		"$US" read --transfers -T json "$f" >"$TMP/j" 2>"$TMP/err"
		check_eq "$f: one row per URB" "$want" "$(rows "$TMP/j")"
		check "$f: no sanitizer report" no_sanitizer_report "$TMP/err"
	done
	# asked and done lengths against the submits' and completions'
	for f in samples/mass-storage.pcapng samples/stall.pcap \
	    "$LINUX61"/qemu-usb-storage.pcap; do
		tshark -r "$f" -T fields -e frame.number -e usb.urb_len \
		    2>/dev/null >"$TMP/len"
		"$US" read --transfers -T json "$f" 2>/dev/null |
		    sed -n 's/.*"frame.submit":\([0-9]*\),"frame.end":\([0-9]*\),.*"asked":\([0-9]*\),"length":\([0-9]*\),.*/\1 \2 \3 \4/p' \
		    >"$TMP/rows"
		bad=$(awk 'NR == FNR { len[$1] = $2; next }
		    len[$1] != $3 || len[$2] != $4 { print; n++ }
		    END { print n + 0 }' "$TMP/len" "$TMP/rows" | tail -n 1)
		n=$(wc -l <"$TMP/rows")
		check "$f: $n rows' asked/done lengths are tshark's" \
		    test "$n" -gt 20 -a "$bad" -eq 0
	done
else
	skip "transfers vs tshark" "tshark is not installed" some
fi

# The text form: the rows of samples/stall.pcap, the submit error too.
"$US" read --transfers samples/stall.pcap >"$TMP/t" 2>"$TMP/err"
check_eq "read --transfers exits 0" 0 $?
check "no stderr list of pending URBs: they are rows" \
    test ! -s "$TMP/err"
check "a row: both frames, asked/got, the summary with its latency" \
    grep -qE '^ +1 +2 +0\.000[0-9]+ 2\.1\.0 +in +ctrl ok +18/18  GET_DESCRIPTOR DEVICE len 18 → 18 bytes, [0-9.]+ ms' "$TMP/t"
check "a submit error is a row" grep -qE ' -ENODEV +13/-  .*submit failed' \
    "$TMP/t"
check "a stall is a row" grep -qE ' -EPIPE +[0-9]+/[0-9]+ ' "$TMP/t"
check "no submit of its own" sh -c "! grep -qE ' IN request [0-9]+\$' \
    '$TMP/t'"

# Identical polls: 37 interrupt completions of the same 2 bytes, then
# another report, then a submit still open at the end.
t=1000000
i=0
while [ $i -lt 37 ]; do
	echo "ffff8e141fced600 $t S Ii:1:002:1 -115:8 8 <"
	t=$((t + 8000))
	echo "ffff8e141fced600 $t C Ii:1:002:1 0:8 2 = 0160"
	t=$((t + 100))
	i=$((i + 1))
done >"$TMP/polls.txt"
cat >>"$TMP/polls.txt" <<EOF
ffff8e141fced600 $t S Ii:1:002:1 -115:8 8 <
ffff8e141fced600 $((t + 8000)) C Ii:1:002:1 0:8 2 = 0161
ffff8e141fced600 $((t + 8100)) S Ii:1:002:1 -115:8 8 <
EOF
"$US" read --transfers "$TMP/polls.txt" >"$TMP/p" 2>"$TMP/err"
check_eq "polls: three rows" 3 "$(wc -l <"$TMP/p")"
check "polls: the run is one row with its count and span" \
    grep -qE '^ +1 +2 .* 8/2  2 bytes, 8\.000 ms: 01 60 \(polled 37 times, identical, over 291\.600 ms, last frame 74\)$' \
    "$TMP/p"
check "polls: a different report is a row of its own" \
    grep -qE '^ +75 +76 .*: 01 61$' "$TMP/p"
check "polls: the last submit is a row, never completed" \
    grep -qE '^ +77 +- .* 8/-  IN request 8, never completed$' "$TMP/p"
"$US" read --transfers -T json "$TMP/polls.txt" >"$TMP/pj" 2>"$TMP/err"
check "polls, JSON: the run has its repeats" \
    grep -q '"frame.submit":1,"frame.end":2,.*"repeats":37,"last_frame":74' \
    "$TMP/pj"
check "polls, JSON: the open submit" \
    grep -q '"frame.submit":77,"frame.end":null,.*"incomplete":"never completed"}$' \
    "$TMP/pj"
check "polls, JSON: every line is JSON" python3 -c '
import json, sys
for l in open(sys.argv[1]): json.loads(l)' "$TMP/pj"
# -c: the records read; a submit left open says so
"$US" read --transfers -c 11 "$TMP/polls.txt" >"$TMP/c" 2>&1
check "-c 11: five polls folded, the sixth submit not completed in them" \
    grep -qE 'polled 5 times' "$TMP/c"
check "-c 11: the open submit says -c cut it" \
    grep -qE '^ +11 +- .*not completed in the records read \(-c\)$' \
    "$TMP/c"
# -Y applies to the completion; the never completed row to its submit
"$US" read --transfers -Y 'usb.capdata == 01:61' "$TMP/polls.txt" \
    >"$TMP/y" 2>&1
check_eq "-Y: the one completion that matches" \
    "1" "$(grep -c ': 01 61$' "$TMP/y")"
check_eq "-Y: only it" 1 "$(wc -l <"$TMP/y")"

# Many in flight, ended oldest first: every one a row, ten never completed
awk 'BEGIN { t = 1000000
	for (i = 0; i < 3000; i++)
		printf "%016x %d S Bi:1:002:1 -115 512 <\n", 4096 + i * 64, t++
	for (i = 0; i < 2990; i++)
		printf "%016x %d C Bi:1:002:1 0 4 = 01020304\n", 4096 + i * 64, t++
}' >"$TMP/flight.txt"
"$US" read --transfers "$TMP/flight.txt" >"$TMP/f" 2>"$TMP/err"
check "3000 in flight: the 2990 completed, one run" \
    grep -qE '^ +1 +3001 .* 512/4  .*\(polled 2990 times, identical, .*last frame 5990\)$' \
    "$TMP/f"
check "3000 in flight: the 10 left, one run" \
    grep -qE '^ +2991 +- .* 512/-  IN request 512, never completed \(repeated 10 times, .*last frame 3000\)$' \
    "$TMP/f"
check_eq "3000 in flight: two lines" 2 "$(wc -l <"$TMP/f")"

# --tree: devices, their endpoints with their URBs, their rows
"$US" read --tree samples/mass-storage.pcapng >"$TMP/tree" 2>"$TMP/err"
check_eq "--tree exits 0" 0 $?
check "--tree: no sanitizer report" no_sanitizer_report "$TMP/err"
grep -vE '^    ' "$TMP/tree" >"$TMP/heads"
cat >"$TMP/want" <<EOF
device 1.0 1209:0002
  endpoint 1.0.0 control: 2 URBs

device 1.1 1d6b:0002
  endpoint 1.1.0 control: 36 URBs
  endpoint 1.1.1 in interrupt: 2 URBs

device 1.2 1209:0002
  endpoint 1.2.0 control: 9 URBs
  endpoint 1.2.1 in bulk: 22 URBs
  endpoint 1.2.2 out bulk: 15 URBs
EOF
check_diff "--tree: the devices and endpoints" "$TMP/want" "$TMP/heads"
check "--tree: a row under its endpoint" grep -qE \
    '^ +96 +97 .* 1\.2\.0 +in +ctrl ok +1/1  GET_MAX_LUN intf 0' "$TMP/tree"
for f in samples/stall.pcap samples/windows-usbpcap.pcapng \
    "$LINUX61"/qemu-usb-serial.pcap; do
	"$US" read --transfers -T json "$f" >"$TMP/j" 2>/dev/null
	"$US" read --tree "$f" 2>/dev/null | awk '/^  endpoint/ {
		s += $(NF - 1) } END { print s + 0 }' >"$TMP/n"
	check_eq "$f: --tree counts the URBs --transfers has" \
	    "$(rows "$TMP/j")" "$(cat "$TMP/n")"
done
"$US" read --tree -T json samples/stall.pcap >/dev/null 2>&1
check_eq "--tree -T json is a usage error" 2 $?

# Driver events stay among the rows; the sim shares the printer.
"$US" sim skeleton --transfers >"$TMP/s" 2>"$TMP/err"
check_eq "sim --transfers exits 0" 0 $?
check "sim: driver events among the rows" grep -q 'probe' "$TMP/s"
check "sim: the skeleton's bulk write is a row" \
    grep -qE ' out +bulk ok +5/5  .* 5 bytes sent' "$TMP/s"
check "sim: no sanitizer report" no_sanitizer_report "$TMP/err"

# The forms --transfers has no row for
"$US" read --transfers -V samples/stall.pcap >/dev/null 2>"$TMP/err"
check_eq "--transfers -V is a usage error" 2 $?
check "and says why" grep -q 'text and a JSON form' "$TMP/err"
"$US" read --transfers --collapse samples/stall.pcap >/dev/null 2>&1
check_eq "--transfers --collapse is a usage error" 2 $?

# The TUI's T key
. tests/tmux.sh
$T new-session -d -s "$S" -x 140 -y 40 \
    "TERM=xterm-256color LANG=C.UTF-8 $US tui samples/mass-storage.pcapng \
    2>$TMP/tuierr; echo TUI-EXIT=\$?; sleep 30"
check "tui: the timeline is up" wait_for "^ 1/171 "
$T send-keys -t "$S" T
# 171 records: 85 submits with their completion hidden, 86 rows left,
# five GET_PORT_STATUS alike one of them
check "T: the transfers view hides the completed submits" \
    wait_for "^ 1/82 \| TRANSFERS "
check "T: says so" wait_for "transfers view on"
screen >"$TMP/tv"
check "T: no submit with its completion is listed" \
    sh -c "! sed -n '2,15p' '$TMP/tv' | grep -qE '^ +[0-9]+ .* S '"
$T send-keys -t "$S" f 'type==bulk' Enter
check "T with a filter: both apply" wait_for "filter: type==bulk \| TRANSFERS"
$T send-keys -t "$S" f C-u Enter
check "the filter cleared, the view stays" wait_for "^ [0-9]+/82 \| TRANSFERS"
$T send-keys -t "$S" : 57 Enter
check "T: a run of identical requests is one row, :N in it goes there" \
    wait_for "record 57 is hidden by the filter or a run: at 55"
$T send-keys -t "$S" '>' '>'
check "T: the run's row counts it (the summaries scrolled)" \
    wait_for "high-speed \(repeated 5 times\)"
$T send-keys -t "$S" '<' '<'
$T send-keys -t "$S" T
check "T again: every record" wait_for "^ [0-9]+/171 "
check "T again: says so" wait_for "transfers view off"
$T send-keys -t "$S" q
check "q quits" wait_for "TUI-EXIT=0"
check "tui: no sanitizer report" no_sanitizer_report "$TMP/tuierr"

# T on the polls: the 37 alike one row, as read --transfers has them.
# The new session comes before the old one goes: killing the server's
# last session ends the server, and a session started meanwhile could
# meet it dying.
old=$S
S=$S-polls
$T new-session -d -s "$S" -x 140 -y 40 \
    "TERM=xterm-256color LANG=C.UTF-8 $US tui $TMP/polls.txt \
    2>$TMP/tuierr; echo TUI-EXIT=\$?; sleep 30"
$T kill-session -t "$old"
check "tui polls: the timeline is up" wait_for "^ 1/77 "
$T send-keys -t "$S" T
check "tui polls, T: the run, the other report, the open submit" \
    wait_for "^ 1/3 \| TRANSFERS "
check "tui polls, T: the run's row counts it" \
    wait_for "^ +2 .* 01 60 \(polled 37 times\)"
check "tui polls, T: the other report is a row" \
    wait_for "^ +76 .* 01 61\$"
$T send-keys -t "$S" : 40 Enter
check "tui polls: :N in the run goes to its row" \
    wait_for "record 40 is hidden by the filter or a run: at 2,"
$T send-keys -t "$S" j
check "tui polls: j goes past the run" wait_for "^ 2/3 \| TRANSFERS "
$T send-keys -t "$S" f 'len==2' Enter
check "tui polls, T with a filter: the run stays folded" \
    wait_for "^ [0-9]/2 \| filter: len==2 \| TRANSFERS"
$T send-keys -t "$S" f C-u Enter T
check "tui polls, T again: every record" wait_for "^ [0-9]+/77 "
screen >"$TMP/tp"
check "tui polls, T off: no run" sh -c "grep -q ' 01 60\$' '$TMP/tp' &&
    ! grep -q polled '$TMP/tp'"
$T send-keys -t "$S" q
check "tui polls: q quits" wait_for "TUI-EXIT=0"
check "tui polls: no sanitizer report" no_sanitizer_report \
    "$TMP/tuierr"
