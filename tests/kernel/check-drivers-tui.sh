#!/bin/sh
# tests/kernel/check-drivers-tui.sh OUTDIR - the TUI on the capture the
# --drivers guest made (OUTDIR/share/traced.pcapng, a real Linux 6.1
# kernel traced with eBPF): a URB of usb-storage shows, in its details,
# the driver call that submitted it (the traced usb_submit_urb's caller),
# and its completion names it too, as the simulator's captures do
# (tests/e2e/tui.sh).  ok / not ok lines; skipped without tmux.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh
. tests/tmux.sh

F=$1/share/traced.pcapng
if [ ! -f "$F" ]; then
	echo "not ok - drivers TUI: no $F"
	exit 1
fi
# the first usb-storage submit and the S record of its URB after it
"$US" read "$F" -T fields -e frame.number -e event -e driver -e function \
    -e usb.urb_id -e usb.urb_type 2>/dev/null >"$TMP/f"
sub=$(awk -F'\t' '$2 == "submit" && $3 == "usb_storage" { print; exit }' \
    "$TMP/f")
func=$(printf '%s\n' "$sub" | cut -f4)
check "the capture has a traced usb-storage submit ($func)" \
    test -n "$func"

$T new-session -d -s "$S" -x 200 -y 50 \
    "$US tui --fast $F 2>$TMP/err; echo TUI-EXIT=\$?; sleep 30"
check "the TUI opens the traced capture" wait_for "/[0-9]+ " 100
# the GET_MAX_LUN usb-storage asks first, on its own URB
$T send-keys -t "$S" / 'GET_MAX_LUN' Enter
re=$(printf '%s' "$func" | sed 's/[][().*+?^$|]/\\&/g')
check "its S record: the details name usb_storage's submit" \
    wait_for "Submitted by \(record [0-9]+\): usb_storage $re: submit" 50
$T send-keys -t "$S" q
check "q quits with status 0" wait_for "TUI-EXIT=0"
check "no sanitizer report" no_sanitizer_report "$TMP/err"

