#!/bin/sh
# tests/e2e/tui-busev.sh - a sniffer's bus events in the TUI (tmux): rows
# of their own among the packets, marked "bus", in the file's frame
# numbers; the filter selects them; the statistics count them apart.
# Skipped without tmux.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh

WAIT_TENTHS=100
. tests/tmux.sh

R=tests/data/sniffer/ataradov-usb-fs-vcp.pcapng
$T new-session -d -s "$S" -x 140 -y 50 \
    "TERM=xterm-256color LANG=C.UTF-8 $US tui $R \
    2>$TMP/err; echo TUI-EXIT=\$?; sleep 30"
check "the list shows the bus events" wait_for "Starting capture"
check "a bus event's row: frame 4, bus, its message" \
    wait_for "^ *4 .* bus .*--- Bus Reset ---"
$T send-keys -t "$S" f 'bus_event == reset' Enter
check "the filter shows the 2 bus resets" wait_for " 1/2 "
check "the second reset is frame 28" wait_for "^ *28 .*--- Bus Reset ---"
check "the details: the bus event's fields" \
    wait_for "syslog.msg: --- Bus Reset ---"
$T send-keys -t "$S" s
check "the statistics of the 2 shown count them as bus events" \
    wait_for "^Bus events: 2 \(the sniffer's\)"
$T send-keys -t "$S" q
check "q closes the statistics" wait_for "Details"
$T send-keys -t "$S" q
check "q quits" wait_for "TUI-EXIT=0"
check "no sanitizer report" no_sanitizer_report "$TMP/err"
