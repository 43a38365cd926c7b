#!/bin/sh
# tests/e2e/tui-frames.sh - the TUI on a file with packets urbscope skips
# (tests/tools/ethmix.py: samples/hid-keyboard.pcap's USB packets with
# Ethernet ones on a second pcapng interface, frame 1 among them): the
# No. column, :N, the frame.* filters, the time column and the details
# count the file's frames as `read` and tshark do, the skipped ones
# included; :N of a skipped frame says so; Enter on Request in or
# Response in goes to that frame.  Skipped without tmux.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh
plan 31

. tests/tmux.sh

ethmix_or_skip tui-frames
F=$TMP/mix.pcapng

# The selected line, in reverse video (as tui-nav.sh asks tmux).
selected() {
	$T capture-pane -p -e -t "$S" |
	    grep -E "$(printf '\033')\[([0-9]+;)*7m" | head -n 1 |
	    sed 's/\x1b\[[0-9;]*m//g'
}

$T new-session -d -s "$S" -x 120 -y 40 \
    "TERM=xterm-256color LANG=C.UTF-8 $US tui $F 2>$TMP/err; \
    echo TUI-EXIT=\$?; sleep 30"
check "first screen" wait_for "^ 1/130 "
# read's first line: its number and time
first=$("$US" read "$F" 2>/dev/null | head -n 1 | awk '{ print $1, $2 }')
check_eq "read's first record is frame 2, 0.5 s in" "2 0.500000" "$first"
check "the first row is frame 2 at 0.500000, as read's" \
    wait_for "^ +2 0\.500000 +1\.1\.0 "
check "frame 10 follows frame 8 (9 is Ethernet)" \
    wait_for "^ +10 0\.502293 "

# :N goes to frame N as read and tshark number it
want=$(tshark -r "$F" -Y 'frame.number == 56' -T fields -e usb.urb_type \
    -e usb.transfer_type 2>/dev/null)
check_eq "tshark's frame 56: an interrupt submit" "'S'	0x01" "$want"
$T send-keys -t "$S" : 56 Enter
check ":56 says where it went" wait_for "^go to: record 56$"
case $(selected) in
" "*" 56 "*" in  S   int "*) ok "the selected line is frame 56, an \
interrupt submit" ;;
*) notok "the selected line is frame 56"; echo "#   got: $(selected)" ;;
esac
check "the details name frame 56" wait_for "^ Record 56 at offset"
$T send-keys -t "$S" : 41 Enter
check ":41 (an Ethernet frame) says so and goes to the next" \
    wait_for "^go to: frame 41 is a packet urbscope skips .*at 42,"
$T send-keys -t "$S" : 151 Enter
check "past the end names the last frame" \
    wait_for "record 151 is past the end: the last is 149"

# Enter on a details line naming a frame (Request in, Response in) goes
# there: frame 3 is the completion of frame 2 (frame 1 is Ethernet)
check_eq "tshark: frame 3 answers frame 2" "2" "$(tshark -r "$F" \
    -Y 'frame.number == 3' -T fields -e usb.request_in 2>/dev/null)"
$T send-keys -t "$S" : 3 Enter Tab G
check ":3, the details focused" wait_for "^ 2/130 .*"
i=0
while [ $i -lt 40 ] && ! screen | grep -q "^>  *Request in: 2"; do
	$T send-keys -t "$S" k
	sleep 0.05
	i=$((i + 1))
done
check "the cursor on 'Request in: 2'" wait_for "^>  *Request in: 2$"
$T send-keys -t "$S" Enter
check "Enter on it selects frame 2" wait_for "^ 1/130 "
check "its details" wait_for "^>Record 2 at offset"
$T send-keys -t "$S" G
check "a submit's details end with its Response in" \
    wait_for "^>Response in: 3$"
$T send-keys -t "$S" Enter
check "Enter on it selects frame 3" wait_for "^ 2/130 "
$T send-keys -t "$S" BTab

# the frame.* filters count what tshark's do
$T send-keys -t "$S" f 'frame.number == 56' Enter
check "frame.number == 56: one record" wait_for "^1 of 130 records pass"
check "and it is frame 56" wait_for "^ +56 1\.748347 "
for flt in 'frame.time_relative > 2.5' 'frame.time_delta > 0.1'; do
	n=$(tshark -r "$F" -Y "usb && $flt" 2>/dev/null | wc -l)
	$T send-keys -t "$S" f C-u "$flt" Enter
	check "$flt: tshark's count ($n)" wait_for "^$n of 130 records pass"
done
$T send-keys -t "$S" f C-u Enter

$T send-keys -t "$S" q
check "q quits with status 0" wait_for "TUI-EXIT=0"
check "no sanitizer report" no_sanitizer_report "$TMP/err"

# `tui -`: a capture piped in is copied to a temporary file (removed at
# the end) and read as the file is, the keys coming from the terminal;
# standard input that is the terminal is refused with the reason
mkdir -p "$TMP/tmpdir"
$T kill-session -t "$S" >/dev/null 2>&1
$T new-session -d -s "$S" -x 120 -y 40 \
    "cat $F | TMPDIR=$TMP/tmpdir TERM=xterm-256color LANG=C.UTF-8 \
    $US tui - 2>$TMP/err; echo TUI-EXIT=\$?; sleep 30"
check "tui - on a pipe: first screen" wait_for "^ 1/130 \| - \|"
check "tui - on a pipe: a copy in TMPDIR" \
    test -n "$(ls "$TMP/tmpdir")"
$T send-keys -t "$S" : 56 Enter
check "tui - on a pipe: :56 as in the file" wait_for "^go to: record 56$"
$T send-keys -t "$S" q
check "tui - on a pipe: q quits with status 0" wait_for "TUI-EXIT=0"
check "tui - on a pipe: the copy removed" test -z "$(ls "$TMP/tmpdir")"
check "tui - on a pipe: no sanitizer report" no_sanitizer_report \
    "$TMP/err"
$T kill-session -t "$S" >/dev/null 2>&1
$T new-session -d -s "$S" -x 120 -y 40 \
    "TERM=xterm-256color LANG=C.UTF-8 $US tui - 2>&1; \
    echo TUI-EXIT=\$?; sleep 30"
check "tui - from the terminal says why not" \
    wait_for "standard input is the terminal: pipe a capture in"
check "and exits 1" wait_for "TUI-EXIT=1"
