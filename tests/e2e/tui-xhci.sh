#!/bin/sh
# tests/e2e/tui-xhci.sh - the Devices pane of an xHCI bus (capgen xhci:
# usbmon of xhci_hcd has no SET_ADDRESS, the controller addresses the
# device after one read of its descriptor at the default address; the
# root hub was configured before the capture began, and lsusb -v reads
# its descriptors): no device left at address 0, the keyboard under the
# root hub's port it was reset on, and the root hub, polled and asked of
# its ports, configured before the capture, not "not configured".
# Skipped without tmux or capgen.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh
plan 14

. tests/tmux.sh

CAPGEN=${CAPGEN:-build/tools/capgen}
if [ ! -x "$CAPGEN" ]; then
	skip_rest "tui-xhci" "no $CAPGEN (make tools)"
fi
F=$TMP/xhci.pcap
"$CAPGEN" xhci -F pcap -w "$F"
check_eq "capgen xhci exits 0" 0 $?
check_eq "no SET_ADDRESS in it" 0 \
    "$("$US" read "$F" 2>/dev/null | grep -c SET_ADDRESS)"
check_eq "one read at the default address" 1 \
    "$("$US" read "$F" -Y 'dev==0 && ev==C' 2>/dev/null | wc -l)"
if command -v tshark >/dev/null 2>&1; then
	check_eq "tshark: the same, at address 0" 1 "$(tshark -r "$F" \
	    -Y 'usb.device_address == 0 && usb.urb_type == 0x43' \
	    2>/dev/null | wc -l)"
fi

$T new-session -d -s "$S" -x 120 -y 40 \
    "TERM=xterm-256color LANG=C.UTF-8 $US tui $F 2>$TMP/err; \
    echo TUI-EXIT=\$?; sleep 30"
check "first screen" wait_for "^ 1/[0-9]+ "
$T send-keys -t "$S" d
check "the devices pane" wait_for "^ Bus 2"
check "the root hub: configured before the capture" \
    wait_for "^   2\.1  1d6b:0002 .*Hub \(0x09\)$"
check "its configuration from the descriptors read" \
    wait_for "^     configured before the capture$"
check "its interface and polled endpoint" \
    wait_for "^         ep 0x81 in int mps 4$"
check "the keyboard under it, on port 1" \
    wait_for "^     2\.2  1209:0001 .* port 1 "
sleep 0.3
check "no device at address 0" \
    sh -c "! $T capture-pane -p -t $S | grep -qE '^ +2\.0  '"
check "no 'not configured'" \
    sh -c "! $T capture-pane -p -t $S | grep -q 'not configured'"
$T send-keys -t "$S" q
check "q quits with status 0" wait_for "TUI-EXIT=0"
check "no sanitizer report" no_sanitizer_report "$TMP/err"
