#!/bin/sh
# tests/e2e/tui-stats.sh - the TUI's statistics screen ('s') in a real
# terminal (tmux): it says what `urbscope stats` says of the records
# shown, follows the filter, scrolls down and sideways, and closes back to
# the panes.  Skipped without tmux.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh
plan 16

WAIT_TENTHS=100
. tests/tmux.sh

$T new-session -d -s "$S" -x 120 -y 50 \
    "TERM=xterm-256color LANG=C.UTF-8 $US tui samples/stall.pcap \
    2>$TMP/err; echo TUI-EXIT=\$?; sleep 30"
check "the timeline is up" wait_for "GET_DESCRIPTOR DEVICE len 18"
$T send-keys -t "$S" s
check "s opens the statistics of the 165 records shown" \
    wait_for "Statistics of the 165 records shown"
check "the endpoint table" wait_for "^2.2.1 +bulk +IN "
check "the same totals as urbscope stats" \
    wait_for "^Errors: 9 failed, 0 cancelled"
"$US" stats samples/stall.pcap -z urbs | grep -E '^2\.2\.1 +bulk +IN +0 ' | \
    cut -c1-100 >"$TMP/want"
screen | grep -E '^2\.2\.1 +bulk +IN +0 ' | cut -c1-100 >"$TMP/got"
check_diff "the 2.2.1 row as urbscope stats prints it" "$TMP/want" "$TMP/got"
$T send-keys -t "$S" G
check "G scrolls to the end (the mass storage LUN)" \
    wait_for "sense keys: UNIT ATTENTION x1, ABORTED COMMAND x1"
$T send-keys -t "$S" g l
check "l scrolls sideways (8 columns)" wait_for "^ +bulk +IN +0 "
$T send-keys -t "$S" h
check "h scrolls back" wait_for "^2\.2\.1 +bulk +IN +0 "
$T send-keys -t "$S" s
check "s closes it: the panes are back" wait_for "Details"

# The filter applies: only what it shows is counted.
$T send-keys -t "$S" f 'usb.src == "2.2.1" || usb.dst == "2.2.1"' Enter
check "the filter shows 42 records" wait_for " 1/42 "
$T send-keys -t "$S" s
check "statistics of the 42 records the filter shows" \
    wait_for "Statistics of the 42 records shown by the filter"
check "the endpoint table is drawn" wait_for "^2\.2\.1 +bulk +IN "
check_eq "one endpoint left: 2.2.1" "2.2.1" "$(screen |
    sed -n 's/^\([0-9]*\.[0-9]*\.[0-9]*\) .*/\1/p' | sort -u)"
$T send-keys -t "$S" q
check "q closes the statistics, not the TUI" wait_for "Details"
$T send-keys -t "$S" q
check "q quits" wait_for "TUI-EXIT=0"
check "no sanitizer report" no_sanitizer_report "$TMP/err"
