#!/bin/sh
# tests/e2e/tui-details.sh - the TUI's details and hex panes in a real
# terminal (tmux): the decoded tree folds and unfolds (Left/Right, h/l,
# -/+, Space, Enter), its markers in UTF-8 and ASCII, the folds last over
# redraws of the record and not to the next one of another kind; the
# bytes of the node under the details cursor are highlighted in the hex
# pane (reverse video, with and without colours), setup bytes and
# payload alike, and the pane scrolls to them; q exits cleanly with no
# sanitizer report.
# Skipped without tmux.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh
plan 74

. tests/tmux.sh

ESC=$(printf '\033')
RV="$ESC[7m"

# The details cursor line: reverse video, starting with '>'.
cursor() {
	$T capture-pane -p -e -t "$S" | grep -F "$RV" |
	    sed 's/\x1b\[[0-9;]*m//g' | grep '^>' | head -n 1
}

# Move the details cursor down (j), or with the key in $2, to the first
# line matching an extended regex; 1 when it is not found in 80 moves.
# Each move waits for the cursor to move, so a slow machine does not
# overshoot.
cursor_to() {
	n=0
	while [ $n -lt 80 ]; do
		was=$(cursor)
		if printf '%s\n' "$was" | grep -qE -- "$1"; then
			return 0
		fi
		$T send-keys -t "$S" "${2:-j}"
		i=0
		while [ $i -lt 40 ] && [ "$(cursor)" = "$was" ]; do
			sleep 0.05
			i=$((i + 1))
		done
		n=$((n + 1))
	done
	return 1
}

# The hex pane's rows (below the "Hex" rule, above the status bar, which
# is in reverse video without colours) with their escapes, and each run
# of reverse-video text in them, one a line.
hex_rows() {
	$T capture-pane -p -e -t "$S" | sed -n '/ Hex [─*-]/,$p' | sed 1d |
	    sed "/^\($ESC\[[0-9;]*m\)* [0-9]*\/[0-9]* |/,\$d"
}
marked() {
	hex_rows | grep -F "$RV" | sed 's/\x1b\[7m/\n&/g' | grep -F "$RV" |
	    sed 's/^\x1b\[7m//; s/\x1b.*//'
}

# Details lines now (the text between the Details and Hex rules).
details() {
	screen | sed -n '/[─-] Details /,/[─-] Hex /p'
}

$T new-session -d -s "$S" -x 120 -y 40 \
    "TERM=xterm-256color LANG=C.UTF-8 $US tui samples/mass-storage.pcapng \
    2>$TMP/err; echo TUI-EXIT=\$?; sleep 30"
check "first screen" wait_for "GET_DESCRIPTOR DEVICE len 18"
check "hex pane shows the setup bytes" wait_for "0000  80 06 00 01"
check_eq "no highlight while the timeline has the focus" "" "$(marked)"

$T send-keys -t "$S" Tab
check "Tab focuses the details" wait_for "Details \*"
case $(cursor) in
">Record 1 at offset"*) ok "the cursor is on the first line" ;;
*) notok "the cursor is on the first line"; echo "#   got: $(cursor)" ;;
esac
check "an open node shows its marker" wait_for "^ ▾ USB URB"
check "cursor reaches URB setup" cursor_to "URB setup"
check_eq "the setup node marks all 8 setup bytes" \
    "80 06 00 01 00 00 12 00
........" "$(marked)"
check "cursor reaches wLength" cursor_to "wLength: 18"
check_eq "wLength marks its two bytes" "12 00
.." "$(marked)"
$T send-keys -t "$S" Left
check "Left on a leaf goes up to its parent" wait_for "^>▾ URB setup"
check "the setup's fields show under it" wait_for "^ +wLength: 18"

$T send-keys -t "$S" Left
check "Left folds: the marker closes" wait_for "^>▸ URB setup"
details >"$TMP/folded"
check "the lines under it are gone" sh -c "! grep -q bmRequestType \
    $TMP/folded && ! grep -q wLength $TMP/folded"
$T send-keys -t "$S" Right
check "Right unfolds" wait_for "^>▾ URB setup"
check "the lines come back" wait_for "^ +bRequest: GET_DESCRIPTOR"
$T send-keys -t "$S" -
check "- folds" wait_for "^>▸ URB setup"
$T send-keys -t "$S" +
check "+ unfolds" wait_for "^>▾ URB setup"
$T send-keys -t "$S" Space
check "Space folds" wait_for "^>▸ URB setup"
$T send-keys -t "$S" Space
check "Space unfolds" wait_for "^>▾ URB setup"
$T send-keys -t "$S" h
check "h folds" wait_for "^>▸ URB setup"
$T send-keys -t "$S" l
check "l unfolds" wait_for "^>▾ URB setup"
$T send-keys -t "$S" Enter
check "Enter on a node naming no record folds it" wait_for "^>▸ URB setup"
$T send-keys -t "$S" Enter
check "Enter again unfolds it" wait_for "^>▾ URB setup"

check "cursor reaches bmRequestType" cursor_to "bmRequestType"
check_eq "bmRequestType marks its byte" "80
." "$(marked)"
check "cursor reaches bRequest" cursor_to "bRequest: GET_DESCRIPTOR"
check_eq "bRequest marks exactly its byte" "06
." "$(marked)"
$T send-keys -t "$S" Left
check "Left from bRequest goes up to URB setup" wait_for "^>▾ URB setup"

# the folds last while the record stays selected
$T send-keys -t "$S" Up
check "Up moves to the line above" wait_for "^> +Destination"
check "cursor reaches USB URB" cursor_to "^>▾ USB URB" k
$T send-keys -t "$S" -
check "USB URB folds" wait_for "^>▸ USB URB"
check "the setup comes up under it" wait_for "^ ▾ URB setup"
$T send-keys -t "$S" '?'
check "? shows the help" wait_for "smart case"
$T send-keys -t "$S" x
check "the fold lasts over a redraw" wait_for "^>▸ USB URB"

# another record starts with every node open (record 2 is a completion,
# another kind than record 1, a submit: tui-nav.sh keeps folds by kind)
$T send-keys -t "$S" BTab j
check "j on the timeline moves to record 2" wait_for "^ 2/171 "
check "record 2 starts unfolded" wait_for "^ ▾ USB URB"
$T send-keys -t "$S" Tab
check "cursor reaches idVendor" cursor_to "idVendor: 0x1d6b"
check_eq "idVendor marks its two payload bytes" "6b 1d
k." "$(marked)"
check "cursor reaches bNumConfigurations" cursor_to "bNumConfigurations"
check_eq "the last byte of the payload" "01
." "$(marked)"
$T send-keys -t "$S" Tab
check "Tab focuses the hex pane" wait_for "Hex \*"
check_eq "the mark stays while the hex pane has the focus" "01
." "$(marked)"
$T send-keys -t "$S" Tab
check "Tab back to the timeline" wait_for "Timeline|^ 2/171 "
check_eq "no mark on the timeline" "" "$(marked)"

$T send-keys -t "$S" q
check "q quits with status 0" wait_for "TUI-EXIT=0"
check "no sanitizer report" no_sanitizer_report "$TMP/err"
# (a second session: killing the first could take the server with it)
S=$S-ascii

# ASCII, no colours, a small terminal: a control OUT with a payload shows
# its setup row apart; a long descriptor scrolls the hex pane.
$T new-session -d -s "$S" -x 70 -y 24 \
    "TERM=xterm-256color LANG=C LC_ALL=C NO_COLOR=1 $US tui samples/hid-keyboard.pcap \
    2>$TMP/err2; echo TUI-EXIT=\$?; sleep 30"
check "first screen (ASCII)" wait_for "^ +1 0.000000 .*GET_DESCRIPTO>$"
$T send-keys -t "$S" / 'SET_REPORT output' Enter
check "search finds the SET_REPORT" wait_for "^ 102/130 "
check "a setup with a payload has its own row" wait_for \
    "^ setup 21 09 00 02 00 00 01 00"
check "the payload follows at offset 0" wait_for "^ 0000  00 "
$T send-keys -t "$S" Tab
check "cursor reaches URB setup (ASCII)" cursor_to "URB setup"
check "ASCII open marker" wait_for "^>- URB setup"
check "cursor reaches bRequest (ASCII)" cursor_to "bRequest: SET_REPORT"
check_eq "bRequest marks its byte in the setup row without colours" "09
." "$(marked)"
case $(hex_rows | grep -F "$RV" | head -n 1) in
" setup "*) ok "the mark is on the setup row" ;;
*) notok "the mark is on the setup row" ;;
esac
check "cursor reaches the payload" cursor_to "Data Fragment"
case $(hex_rows | grep -F "$RV" | head -n 1) in
" 0000 "*) ok "the payload's mark is on its row" ;;
*) notok "the payload's mark is on its row" ;;
esac
check "cursor back to URB setup" cursor_to "^>- URB setup" k
$T send-keys -t "$S" Left
check "ASCII folded marker" wait_for "^>\+ URB setup"

# a configuration descriptor's last byte: the hex pane scrolls to it
$T send-keys -t "$S" BTab g j j j j j
check "record 6 (the configuration)" wait_for "^ 6/130 "
$T send-keys -t "$S" Tab G
check "G puts the cursor on bInterval" wait_for "^> +bInterval: 12"
check "the hex pane scrolled to its row" wait_for "^ 0018  0c "
check "and away from the first row" sh -c "! $T capture-pane -p -t $S |
    grep -q '^ 0000  09 02'"
check_eq "bInterval marks its byte" "0c
." "$(marked)"
$T send-keys -t "$S" g
check "g puts the cursor on the first line" wait_for "^>Record 6 at"
$T send-keys -t "$S" q
check "q quits with status 0 (ASCII)" wait_for "TUI-EXIT=0"
check "no sanitizer report (ASCII)" no_sanitizer_report "$TMP/err2"

# A pcapng packet comment (editcap -a) shows in the details pane, first,
# as Wireshark shows it; the next record has none.
if command -v editcap >/dev/null 2>&1; then
	editcap -a 1:"hello" samples/mass-storage.pcapng "$TMP/cmt.pcapng" \
	    >/dev/null 2>&1
	S=$S-cmt
	$T new-session -d -s "$S" -x 120 -y 40 \
	    "TERM=xterm-256color $US tui $TMP/cmt.pcapng 2>$TMP/err3; \
	    echo TUI-EXIT=\$?; sleep 30"
	check "the details pane shows the packet's comments" \
	    wait_for "^ [^a-zA-Z]* ?Packet comments$"
	check "and the comment" wait_for "^ +Comment: \"hello\""
	$T send-keys -t "$S" j
	check "the next record" wait_for "^ 2/"
	check "has none" sh -c "sleep 0.3; ! $T capture-pane -p -t $S |
	    grep -q 'Comment: '"
	$T send-keys -t "$S" q
	check "q quits with status 0 (comments)" wait_for "TUI-EXIT=0"
	check "no sanitizer report (comments)" no_sanitizer_report "$TMP/err3"
else
	skip "comments in the details pane" "editcap is not installed" 6
fi
