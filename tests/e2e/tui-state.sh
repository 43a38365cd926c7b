#!/bin/sh
# tests/e2e/tui-state.sh - the TUI formats a record with the class state
# its interface had after that record (the copy dec_rec_copy keeps), not
# with the state the replay reached by the end of its window: a BOT data
# phase and its CSW name the command of their own CBW, as `read` does; a
# UVC request names its control by the configuration it kept.
# Skipped without tmux.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh
plan 10

. tests/tmux.sh

F=samples/mass-storage.pcapng
"$US" read "$F" 2>/dev/null | sed -n '101p;103p' |
    sed 's/.*ms: //' | cut -c1-24 >"$TMP/want"
check "read names the command (INQUIRY) of 101 and 103" \
    test "$(grep -c INQUIRY "$TMP/want")" -eq 2

$T new-session -d -s "$S" -x 160 -y 40 "$US tui --fast $F 2>$TMP/err"
check "the TUI opens" wait_for "/171 "
$T send-keys -t "$S" / 'INQUIRY, IN 36' Enter
check "search finds the INQUIRY CBW" wait_for "^ 98/171 "
$T send-keys -t "$S" j j j j j
check "j goes to the CSW" wait_for "^ 103/171 "
while read -r want; do
	check "the TUI shows \"$want\" as read does" \
	    wait_for "$(printf '%s' "$want" | sed 's/[][().*+?^$|]/\\&/g')"
done <"$TMP/want"
$T send-keys -t "$S" q
sleep 0.5
check "no sanitizer report" no_sanitizer_report "$TMP/err"

F=samples/uvc-webcam.pcapng
$T kill-session -t "$S" 2>/dev/null
$T new-session -d -s "$S" -x 200 -y 40 "$US tui --fast $F 2>$TMP/err"
check "the TUI opens the webcam" wait_for "/[0-9]+ "
$T send-keys -t "$S" / 'Brightness: value 128' Enter
check "a UVC answer names its control (Brightness), as read does" \
    wait_for "GET_DEF intf 0 unit 2 cs 0x02 len 2 .*Brightness: value 128"
$T send-keys -t "$S" q
sleep 0.5
check "no sanitizer report (webcam)" no_sanitizer_report "$TMP/err"
