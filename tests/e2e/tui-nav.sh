#!/bin/sh
# tests/e2e/tui-nav.sh - moving about the TUI in a real terminal (tmux):
# going to a record (:N and Ctrl-G N; the nearest shown when the filter
# hides it, a number past the end or not a number refused), back and
# forward over the jumps ([ ] Backspace; :N, p, G, a search hit), the
# time reference (t: *REF*, times relative to it, named in the header
# and the status bar; t again clears it), the summaries scrolled left
# and right (< > and Left/Right on the timeline, the markers of a line
# cut or scrolled), folds kept for the next record of a kind, the help
# naming the keys; q exits cleanly with no
# sanitizer report.  Skipped without tmux.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh
plan 74

. tests/tmux.sh

# The selected line is the one in reverse video (SGR 7, alone or after
# others: tmux writes "0;7" after a line of colour): ask tmux.
selected() {
	$T capture-pane -p -e -t "$S" |
	    grep -E "$(printf '\033')\[([0-9]+;)*7m" | head -n 1 |
	    sed 's/\x1b\[[0-9;]*m//g'
}

# press KEY NAME PATTERN: send KEY (tmux's name of it), then check NAME:
# the screen comes to show PATTERN.
press() {
	$T send-keys -t "$S" "$1"
	check "$2" wait_for "$3"
}

$T new-session -d -s "$S" -x 120 -y 40 \
    "TERM=xterm-256color LANG=C.UTF-8 $US tui --fast \
    samples/mass-storage.pcapng 2>$TMP/err; echo TUI-EXIT=\$?; sleep 30"
check "first screen" wait_for "^ 1/171 "

# go to a record: its number in the No. column
$T send-keys -t "$S" : 50
check ": opens the go-to prompt" wait_for "^go to record: 50"
press Enter ":50 selects record 50" "^ 50/171 "
case $(selected) in
" "*" 50 "*) ok "the selected line is record 50" ;;
*) notok "the selected line is record 50"; echo "#   got: $(selected)" ;;
esac
press C-g "Ctrl-G opens the go-to prompt too" "^go to record: *$"
$T send-keys -t "$S" 120 Enter
check "Ctrl-G 120 selects record 120" wait_for "^ 120/171 "
$T send-keys -t "$S" : abc Enter
check "not a number keeps the prompt open" \
    wait_for "not a record number: abc"
check "and the prompt" wait_for "^go to record: abc"
$T send-keys -t "$S" Escape
$T send-keys -t "$S" : 999 Enter
check "a number past the end is refused" \
    wait_for "record 999 is past the end: the last is 171"
check "and the selection stays" wait_for "^ 120/171 "
$T send-keys -t "$S" : 0 Enter
check "record 0 is refused" wait_for "no record 0"

# back and forward over the jumps: 1 -> 50 -> 120
press '[' "[ goes back" "^back: record 50 \(2 of 3\)"
check "[ selects record 50" wait_for "^ 50/171 "
press '[' "[ again goes back to the start" "^ 1/171 "
press '[' "[ at the oldest jump says so" "no jump to go back to"
press ']' "] goes forward" "^forward: record 50 \(2 of 3\)"
press ']' "] again" "^ 120/171 "
press ']' "] at the newest jump says so" "no jump to go forward to"
press BSpace "Backspace goes back" "^ 50/171 "
# p (the pair), G and a search hit are jumps too
press p "p jumps to the pair" "^ 51/171 "
press '[' "[ goes back from the pair" "^ 50/171 "
press G "G goes to the end" "^ 171/171 "
press '[' "[ goes back from G" "^ 50/171 "
$T send-keys -t "$S" / 'get_max_lun' Enter
check "a search finds GET_MAX_LUN" wait_for "GET_MAX_LUN"
sleep 0.3
hit=$(screen | sed -n 's/^ \([0-9]*\)\/171 .*/\1/p')
press '[' "[ goes back from a search hit ($hit)" "^ 50/171 "

# the filter hides the record: the nearest shown
$T send-keys -t "$S" f 'type==bulk' Enter
check "a filter" wait_for "filter: type==bulk"
$T send-keys -t "$S" : 50 Enter
check ":50 under a filter hiding it goes to the nearest shown" \
    wait_for "^go to: record 50 is hidden by the filter: at [0-9]+, the \
nearest shown"
case $(selected) in
*" bulk "*) ok "the selected line is a bulk one" ;;
*) notok "the selected line is a bulk one"; echo "#   got: $(selected)" ;;
esac
$T send-keys -t "$S" f C-u Enter
check "the filter cleared" wait_for "^ [0-9]+/171 \| samples"

# the time reference
$T send-keys -t "$S" : 50 Enter
check "back on record 50" wait_for "^ 50/171 "
press t "t says the reference" "^time reference: record 50"
check "the status bar names it" wait_for "^ 50/171 \| ref: #50 \|"
check "the header names it" wait_for "^ +No\. ref #50 +Address"
check "the reference line shows *REF*" wait_for "^ +50 \*REF\* "
check "a record after it counts from it" wait_for "^ +51 0\.000275 "
$T send-keys -t "$S" k
check "a record before it has a negative time" \
    wait_for "^ +49 -0\.000672 "
$T send-keys -t "$S" j j t
check "t on another record moves it" wait_for "\| ref: #51 \|"
check "and record 50 is before it" wait_for "^ +50 -0\.000275 "
press t "t on it again clears it" "^time reference cleared"
check "the header says Time again" wait_for "^ +No\. Time +Address"
check "times count from the first record again" \
    wait_for "^ +51 1\.249294 "
sleep 0.2
check "the status bar names no reference" \
    sh -c "! $T capture-pane -p -t '$S' | grep -q 'ref: #'"

# the summaries scroll; '>' ends a line cut, '<' begins one scrolled
check "a line cut ends with >" wait_for \
    "^ +51 .* GET_PORT_STATUS port 1 → 4 bytes, 0\.275 ms>$"
press '>' "> scrolls the summaries" "Summary \+[0-9]+$"
check "a line scrolled begins with <" wait_for "^ +51 .* <.*: port 1"
press '<' "< scrolls them back" "Latency Summary$"
press Right "Right scrolls the timeline" "Summary \+[0-9]+$"
press Left "Left scrolls it back" "Latency Summary$"
$T send-keys -t "$S" Tab Right
check "Tab focuses the details" wait_for "Details \*"
sleep 0.3
check "Right in the details does not scroll the timeline" \
    wait_for "Latency Summary$"
press '>' "> scrolls from the details pane" "Summary \+[0-9]+$"
$T send-keys -t "$S" BTab '<'
$T send-keys -t "$S" f 'ev==S && type==ctrl' Enter
check "a filter leaving short summaries" wait_for "filter: ev==S"
press '>' "> says when nothing is cut" "^the summaries shown fit: nothing"
check "and scrolls nothing" wait_for "Latency Summary$"
$T send-keys -t "$S" f C-u Enter

# folds are kept for the next record of the same kind: record 1 and 3
# are control submits, 2 a control completion
press g "g goes to the start" "^ 1/171 "
press Tab "Tab focuses the details" "Details \*"
$T send-keys -t "$S" j -
check "- folds USB URB" wait_for "^>▸ USB URB"
$T send-keys -t "$S" j -
check "- folds URB setup" wait_for "^>▸ URB setup"
$T send-keys -t "$S" BTab j
check "record 2, a completion, opens unfolded" wait_for "^ ▾ USB URB"
$T send-keys -t "$S" j
check "record 3, a control submit as 1 is" wait_for "^ 3/171 "
check "opens with USB URB folded" wait_for "^ ▸ USB URB"
check "and URB setup folded" wait_for "^ ▸ URB setup"
$T send-keys -t "$S" Tab j +
check "+ unfolds USB URB on record 3" wait_for "^>▾ USB URB"
$T send-keys -t "$S" BTab k k
check "back on record 1" wait_for "^ 1/171 "
check "USB URB is open, as last left on a control submit" \
    wait_for "^ ▾ USB URB"
$T send-keys -t "$S" Tab j -
check "- folds USB URB again" wait_for "^>▸ USB URB"
check "URB setup, under it, stayed folded" wait_for "^ ▸ URB setup"
$T send-keys -t "$S" BTab

press '?' "? lists the go-to key" "go to record N"
check "? says folds are kept" wait_for "stays so on the next record"
check "? lists back and forward" wait_for "back / forward over jumps"
check "? lists the time reference" wait_for "time reference"
press x "any key closes the help" "^ +No\. "

press q "q quits with status 0" "TUI-EXIT=0"
check "no sanitizer report" no_sanitizer_report "$TMP/err"
