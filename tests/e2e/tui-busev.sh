#!/bin/sh
# tests/e2e/tui-busev.sh - a sniffer's bus events in the TUI (tmux): rows
# of their own among the packets, marked "bus", in the file's frame
# numbers; the filter selects them; the statistics count them apart.
# Skipped without tmux.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh
plan 14

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
# save what is shown (two bus events first, nothing else): the file
# keeps them, on an interface beside the packets' own link type
$T send-keys -t "$S" f C-u 'bus_event == reset || usbll.pid == 0xc3' Enter
check "the filter: the resets and the DATA0 packets" wait_for " 1/[0-9]+ "
$T send-keys -t "$S" w
check "w asks for a file name" wait_for "save shown records to:"
$T send-keys -t "$S" "$TMP/saved.pcapng" Enter
check "saved" wait_for "saved [0-9]+ records to $TMP/saved.pcapng"
if command -v tshark >/dev/null 2>&1; then
	check "the saved file: the packets keep link type 294" sh -c \
	    "capinfos '$TMP/saved.pcapng' | grep -q 'usb-20-full'"
	check_eq "the saved file: its 2 bus resets, as tshark reads them" \
	    "$(printf '%s\n%s' '--- Bus Reset ---' '--- Bus Reset ---')" \
	    "$(tshark -r "$TMP/saved.pcapng" -Y syslog -T fields \
	    -e syslog.msg 2>/dev/null)"
fi
$T send-keys -t "$S" q
check "q quits" wait_for "TUI-EXIT=0"
check "no sanitizer report" no_sanitizer_report "$TMP/err"
