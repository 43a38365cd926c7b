#!/bin/sh
# tests/e2e/tui-save.sh - the TUI's 'w': save the records the view shows
# (after its filter, driver events included) to a file, in a real
# terminal (tmux).  The file holds what `read -Y` of the same filter
# shows, record for record, and as many frames as tshark counts; a name
# that cannot be written keeps the prompt open with the reason.
# Skipped without tmux.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh
plan 45

. tests/tmux.sh

# frames tshark reads from FILE, or "" without tshark
frames() {
	command -v tshark >/dev/null 2>&1 || return 0
	tshark -r "$1" 2>/dev/null | wc -l | tr -d ' '
}

# start FILE: the TUI on FILE, the first screen waited for
start() {
	$T kill-session -t "$S" >/dev/null 2>&1
	$T new-session -d -s "$S" -x 120 -y 40 \
	    "TERM=xterm-256color LANG=C.UTF-8 $US tui --fast $1 \
	    2>$TMP/err; echo TUI-EXIT=\$?; sleep 30"
}

# a filter on a generated disk: the bulk transfers
start samples/mass-storage.pcapng
check "first screen" wait_for "GET_DESCRIPTOR DEVICE len 18"
$T send-keys -t "$S" f 'type==bulk' Enter
check "the filter's count" wait_for "[0-9]+ of 171 records pass"
n=$(screen | grep -oE '[0-9]+ of 171 records pass' | cut -d' ' -f1)
$T send-keys -t "$S" w
check "w asks for a file name" wait_for "save shown records to:"
$T send-keys -t "$S" "$TMP/bulk.pcapng" Enter
check "the status line says what was saved ($n)" \
    wait_for "saved $n records to $TMP/bulk.pcapng"
# the record numbers start again at 1 (and summaries lose what the
# records left out taught): compare the records' own fields
fields="-T fields -e frame.time_epoch -e usb.urb_id -e usb.urb_type
    -e usb.endpoint_address -e usb.urb_status -e usb.urb_len -e usb.data_len"
# shellcheck disable=SC2086
"$US" read samples/mass-storage.pcapng -Y 'type==bulk' $fields \
    2>/dev/null >"$TMP/want"
# shellcheck disable=SC2086
"$US" read "$TMP/bulk.pcapng" $fields 2>/dev/null >"$TMP/got"
check_eq "the file has the shown records ($n)" "$n" \
    "$(wc -l <"$TMP/got" | tr -d ' ')"
check_diff "the saved records are read -Y's" "$TMP/want" "$TMP/got"
f=$(frames "$TMP/bulk.pcapng")
if [ -n "$f" ]; then
	check_eq "tshark counts as many frames" "$n" "$f"
else
	skip "tshark counts as many frames" "tshark is not installed"
fi

# a name that cannot be written: the prompt stays, with the reason
$T send-keys -t "$S" w "$TMP/no/such/dir/x.pcapng" Enter
check "a bad name says why" wait_for "cannot create"
check "the prompt stays open to fix it" wait_for "save shown records to:"
$T send-keys -t "$S" C-u "$TMP/second.pcap" Enter
check "fixed, it saves (pcap by the name)" \
    wait_for "saved $n records to $TMP/second.pcap"
check_eq "pcap: the same records" "$n" \
    "$("$US" read "$TMP/second.pcap" 2>/dev/null | wc -l | tr -d ' ')"
# Esc closes an empty prompt, nothing is written
$T send-keys -t "$S" w Escape
check "Esc closes the prompt" sh -c "! { $T capture-pane -p -t $S |
    grep -q 'save shown records to:'; }"
$T send-keys -t "$S" '?'
check "the help screen lists w" wait_for "w +save the records shown"
$T send-keys -t "$S" q
$T send-keys -t "$S" q
check "quits cleanly" wait_for "TUI-EXIT=0"
check "no sanitizer report" no_sanitizer_report "$TMP/err"

# driver events: the simulator's capture, filtered to one device
"$US" sim skeleton -w "$TMP/skel.pcapng" >/dev/null 2>&1
start "$TMP/skel.pcapng"
check "the simulator's capture" wait_for " [0-9]+ URBs [0-9]+ events"
$T send-keys -t "$S" f 'dev==2' Enter
check "dev==2: the count" wait_for "[0-9]+ of [0-9]+ records pass"
n=$(screen | grep -oE '[0-9]+ of [0-9]+ records pass' | cut -d' ' -f1)
$T send-keys -t "$S" w "$TMP/dev2.pcapng" Enter
check "events: saved as many as shown ($n)" \
    wait_for "saved $n records to $TMP/dev2.pcapng"
"$US" read "$TMP/skel.pcapng" -Y 'dev==2' 2>/dev/null >"$TMP/want"
"$US" read "$TMP/dev2.pcapng" 2>/dev/null >"$TMP/got"
check_eq "events: read -Y's count" "$(wc -l <"$TMP/want" | tr -d ' ')" \
    "$(wc -l <"$TMP/got" | tr -d ' ')"
check_eq "events: the driver events are in the file" \
    "$(grep -c ' drv ' "$TMP/want")" "$(grep -c ' drv ' "$TMP/got")"
f=$(frames "$TMP/dev2.pcapng")
[ -n "$f" ] && check_eq "events: tshark counts as many frames" "$n" "$f"
# pcap has no place for events: said
$T send-keys -t "$S" w "$TMP/dev2.pcap" Enter
check "pcap: the events left out are said" \
    wait_for "left out: the format cannot hold them"
# a filter that shows nothing: nothing to save
$T send-keys -t "$S" f C-u 'dev==99' Enter
check "an empty view" wait_for "0 of [0-9]+ records pass"
$T send-keys -t "$S" w "$TMP/empty.pcapng" Enter
check "an empty view: nothing to save" wait_for "nothing to save"
check "an empty view: no file" test ! -e "$TMP/empty.pcapng"
$T send-keys -t "$S" Escape q
check "quits cleanly after saving events" wait_for "TUI-EXIT=0"
check "no sanitizer report (events)" no_sanitizer_report "$TMP/err"

# ~ in the name is the home directory; an existing file is asked about
# (y overwrites it, anything else goes back to the name)
mkdir -p "$TMP/home"
$T kill-session -t "$S" >/dev/null 2>&1
$T new-session -d -s "$S" -x 80 -y 24 \
    "HOME=$TMP/home TERM=xterm-256color LANG=C.UTF-8 $US tui --fast \
    samples/hid-keyboard.pcap 2>$TMP/err; echo TUI-EXIT=\$?; sleep 30"
check "hid-keyboard at 80x24" wait_for "^ 1/130 "
check "the hint bar names T, s and w" \
    wait_for "T transfers  s stats  w save"
$T send-keys -t "$S" w '~/k.pcapng' Enter
check "~/k.pcapng is saved under HOME" \
    wait_for "saved 130 records to $TMP/home/k.pcapng"
check "the file is there" test -s "$TMP/home/k.pcapng"
check "no file named ~" test ! -e "./~"
echo kept >"$TMP/home/keep.pcap"
$T send-keys -t "$S" w '~/keep.pcap' Enter
check "an existing file: asked before overwriting" \
    wait_for "~/keep.pcap exists: overwrite it\? \(y/n\)"
$T send-keys -t "$S" n
check "n: not overwritten, the name prompt back" \
    wait_for "^save shown records to: ~/keep.pcap"
check "n: the file kept" test "$(cat "$TMP/home/keep.pcap")" = kept
$T send-keys -t "$S" Enter
check "asked again" wait_for "exists: overwrite it\? \(y/n\)"
$T send-keys -t "$S" y
check "y overwrites it" wait_for "saved 130 records to $TMP/home/keep.pcap"
check_eq "y: the file is the capture now" 130 \
    "$("$US" read "$TMP/home/keep.pcap" 2>/dev/null | wc -l | tr -d ' ')"
# the help scrolls at 80x24
$T send-keys -t "$S" '?'
check "the help at 80x24 says it scrolls" \
    wait_for "^-- lines 1-23 of [0-9]+: j k PgDn PgUp scroll"
check "q is not on its first page" \
    sh -c "! $T capture-pane -p -t $S | grep -q '^  q  *quit'"
$T send-keys -t "$S" G
check "G shows its end: q quit" wait_for "^  q +quit"
$T send-keys -t "$S" PgUp
check "PgUp scrolls back" wait_for "^-- lines [0-9]+-[0-9]+ of"
$T send-keys -t "$S" x
check "another key closes it" wait_for "^ +No\. "
$T send-keys -t "$S" q
check "quits cleanly (80x24)" wait_for "TUI-EXIT=0"
check "no sanitizer report (80x24)" no_sanitizer_report "$TMP/err"
