#!/bin/sh
# tests/e2e/tui.sh - `urbscope tui` in a real terminal (tmux): the first
# screen, moving, the details pane, a filter (short names and
# Wireshark's), a bad filter, a resize, a
# search for text, bytes and a filter expression, quitting cleanly with no
# sanitizer report; a big file indexed in the background (keys and filters
# meanwhile), the demo paced in real time with follow, and the mouse.
# Skipped without tmux.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh
plan 111

. tests/tmux.sh

# The selected line is the one in reverse video: ask tmux for attributes.
selected() {
	$T capture-pane -p -e -t "$S" | grep -F "$(printf '\033[7m')" |
	    head -n 1 | sed 's/\x1b\[[0-9;]*m//g'
}

"$US" tui --help >"$TMP/help" 2>&1
check_eq "tui --help exits 0" 0 $?
"$US" tui samples/mass-storage.pcapng </dev/null >"$TMP/out" 2>&1
check_eq "tui without a terminal exits 2" 2 $?

$T new-session -d -s "$S" -x 120 -y 40 \
    "TERM=xterm-256color LANG=C.UTF-8 $US tui samples/mass-storage.pcapng \
    2>$TMP/err; echo TUI-EXIT=\$?; sleep 30"
check "first screen shows records" wait_for "GET_DESCRIPTOR DEVICE len 18"
check "status bar counts the records" wait_for "^ 1/171 "
# 171 records, 86 URBs (85 S with their C, one S without); the errors
# are the two -EREMOTEIO short reads
check "status bar counts URBs and errors" wait_for " 86 URBs 0 events 2 errors"
check "details pane shows the record's fields" wait_for "URB id: 0x"
check "hex pane shows the setup bytes" wait_for "0000  80 06 00 01"

$T send-keys -t "$S" j
check "j moves the selection" wait_for "^ 2/171 "
case $(selected) in
*"2 0.000360"*) ok "the second line is selected" ;;
*) notok "the second line is selected"; echo "#   got: $(selected)" ;;
esac
check "details follow the selection" wait_for "URB type: URB_COMPLETE"
$T send-keys -t "$S" G
check "G goes to the end" wait_for "^ 171/171 "
$T send-keys -t "$S" g
check "g goes to the start" wait_for "^ 1/171 "

$T send-keys -t "$S" f 'type==bulk' Enter
check "a filter narrows the list" wait_for "filter: type==bulk"
screen >"$TMP/bulk"
n=$(sed -n '2,17p' "$TMP/bulk" | grep -cE '^ +[0-9]+ ')
b=$(sed -n '2,17p' "$TMP/bulk" | grep -cE '^ +[0-9]+ .* bulk ')
check "only bulk lines are listed ($b of $n)" test "$n" -gt 0 -a "$n" -eq "$b"
check "the filter's count is shown" grep -qE '1/[0-9]+ \| filter' "$TMP/bulk"

$T send-keys -t "$S" f C-u 'type==bulk && devv==3' Enter
check "a bad filter shows its column" wait_for "col 15: unknown field 'devv'"
$T send-keys -t "$S" Escape
check "the TUI keeps running after a bad filter" \
    wait_for "filter: type==bulk"

# Wireshark's names, the language of read -Y: 13 CBWs
$T send-keys -t "$S" f C-u 'usbms.dCBWSignature == 0x43425355' Enter
check "a filter on Wireshark's names narrows the list" \
    wait_for "^ 1/13 .*filter: usbms.dCBWSignature"
# a protocol's bare name: the records tshark -Y usbms shows (39; a class
# protocol goes by the record and its analysis, no tree)
$T send-keys -t "$S" f C-u 'usbms' Enter
check "a protocol's name filters as read -Y does" \
    wait_for "^ [0-9]+/39 \\| filter: usbms \\|"

# a filter nothing passes empties the details and hex panes too
$T send-keys -t "$S" f C-u 'dev==99' Enter
check "a filter that hides everything says so" \
    wait_for "nothing passes the filter"
sleep 0.3
screen >"$TMP/none"
check "then the details pane shows no record" \
    sh -c "! grep -qE 'URB id:|^Record [0-9]+' '$TMP/none'"
check "then the hex pane shows no bytes" \
    sh -c "! grep -qE '^ *0000  [0-9a-f]{2} ' '$TMP/none'"

$T send-keys -t "$S" f C-u Enter
check "an empty filter shows everything" wait_for "/171 "
$T send-keys -t "$S" / 'get_max_lun' Enter
check "search finds a record" wait_for "GET_MAX_LUN"
$T send-keys -t "$S" d
check "d shows the devices" \
    wait_for "interface 0 alt 0: Mass Storage \(0x08\)"
check "devices list endpoints" wait_for "ep 0x81 in bulk mps 512"
$T send-keys -t "$S" d
check "d again shows the details" wait_for "URB id: 0x"
$T send-keys -t "$S" '?'
check "? shows the help" wait_for "smart case"
$T send-keys -t "$S" x
check "any key closes the help" wait_for "URB id: 0x"

# / finds bytes in payloads (the CBW signature "USBC") and filter
# expressions as well as text; n and N repeat the same kind.
$T send-keys -t "$S" g / '55 53 42 43' Enter
check "/ with hex bytes says it searches bytes" \
    wait_for "^search \(bytes\): 55 53 42 43"
check "/55 53 42 43 selects the first CBW" wait_for "^ 98/171 "
case $(selected) in
*" 98 "*" out "*"CBW ta>"*) ok "the selected line is the CBW" ;;
*) notok "the selected line is the CBW"; echo "#   got: $(selected)" ;;
esac
$T send-keys -t "$S" n
check "n finds the next CBW" wait_for "^ 104/171 "
check "n says the kind" wait_for "^search \(bytes\): 55 53 42 43"
$T send-keys -t "$S" / 'ep==0x81' Enter
check "/ with a filter expression says so" \
    wait_for "^search \(filter\): ep==0x81"
check "/ep==0x81 selects the next IN bulk record" wait_for "^ 106/171 "
case $(selected) in
*" 106 "*" in "*" S "*" bulk "*) ok "the selected line is bulk IN" ;;
*) notok "the selected line is bulk IN"; echo "#   got: $(selected)" ;;
esac
$T send-keys -t "$S" n
check "n repeats the filter search" wait_for "^ 107/171 "
$T send-keys -t "$S" N
check "N goes back" wait_for "^ 106/171 "
$T send-keys -t "$S" N
check "N again" wait_for "^ 103/171 "
$T send-keys -t "$S" g / 'x:55534243' Enter
check "x: bytes find the CBW too" wait_for "^ 98/171 "
$T send-keys -t "$S" g /
$T send-keys -t "$S" -l '0x0409'	# not a key code
$T send-keys -t "$S" Enter
check "0x numbers are bytes or text" \
    wait_for "^search \(bytes or text\): 0x0409"
check "0x0409 finds the lang id in the text" wait_for "^ 8/171 "
$T send-keys -t "$S" / 'dev==3x' Enter
check "a bad filter is searched as text, with the filter's error" \
    wait_for "^not found \(text, not a filter: col 6: '3x' is not a \
number\): dev==3x"
$T send-keys -t "$S" g
check "a key clears the message" wait_for "q quit .* \? help"

$T resize-window -t "$S" -x 80 -y 24 2>/dev/null ||
    $T resize-pane -t "$S" -x 80 -y 24
sleep 0.3
check "after a resize the status bar is on the last rows" \
    wait_for "q quit .* ? help"
screen >"$TMP/small"
w=$(python3 -c 'import sys
print(max(len(l.rstrip("\n")) for l in open(sys.argv[1], encoding="utf-8")))' \
    "$TMP/small")
check "nothing is wider than 80 columns ($w)" test "$w" -le 80
check "the status bar is on row 23 after the resize" \
    sh -c "sed -n 23p '$TMP/small' | grep -q '/171 '"
check "the key hints are on row 24" \
    sh -c "sed -n 24p '$TMP/small' | grep -q 'q quit'"
check "the layout keeps the details pane" grep -q "Details" "$TMP/small"
check "the layout keeps the hex pane" grep -q "Hex" "$TMP/small"
# the help's long lines wrap under their column, not cut mid-word
$T send-keys -t "$S" '?'
check "? shows the help at 80 columns" wait_for "smart case"
screen >"$TMP/help80"
check "the help wraps the devices line" \
    grep -qE '^ {20}the details; d again to go back$' "$TMP/help80"
check "the help ends the Enter line" grep -qE '^ {20}.* names$' "$TMP/help80"
$T send-keys -t "$S" x
check "any key closes the help" wait_for "q quit .* \? help"

$T send-keys -t "$S" q
check "q quits with status 0" wait_for "TUI-EXIT=0"
check "no sanitizer report" no_sanitizer_report "$TMP/err"

# sim: scenarios, ASCII line drawing, NO_COLOR.  Each phase has its own
# session: killing the last one would stop the server under the next.
S=$S-sim
$T new-session -d -s "$S" -x 100 -y 30 \
    "TERM=xterm NO_COLOR=1 LANG=C LC_ALL=C $US tui --fast sim:enumerate \
    2>$TMP/err2; echo TUI-EXIT=\$?; sleep 30"
check "tui sim:enumerate shows records" wait_for "GET_DESCRIPTOR"
check "ASCII rules outside UTF-8" wait_for "^- Details -"
check "ASCII arrows in summaries outside UTF-8" \
    wait_for "GET_DESCRIPTOR [A-Z_]+ .*len [0-9]+ -> [0-9]"
$T send-keys -t "$S" G p
check "p jumps from the last completion to its submit" \
    wait_for "URB type: URB_SUBMIT"
$T send-keys -t "$S" q
check "q quits sim with status 0" wait_for "TUI-EXIT=0"
check "no sanitizer report (sim)" no_sanitizer_report "$TMP/err2"

# Bad input: a missing file says so; a cut file opens with what it has.
head -c 3000 samples/stall.pcap >"$TMP/cut.pcap"
S=$S-miss
$T new-session -d -s "$S" -x 100 -y 30 \
    "$US tui $TMP/missing.pcap 2>$TMP/miss; echo MISSING-EXIT=\$?; sleep 30"
check "a missing file exits 1" wait_for "MISSING-EXIT=1"
check "a missing file is named" grep -q "missing.pcap: No such file" \
    "$TMP/miss"
S=$S-cut
$T new-session -d -s "$S" -x 100 -y 30 \
    "$US tui $TMP/cut.pcap 2>$TMP/err3; echo TUI-EXIT=\$?; sleep 30"
check "a cut file opens with its records" wait_for "^ 1/34 \| input cut"
check "the cut is explained with record and offset" \
    wait_for "record 35 at offset 2952"
$T send-keys -t "$S" G
check "the last whole record is there" wait_for "^ 34/34 "
$T send-keys -t "$S" q
check "q quits a cut file with status 0" wait_for "TUI-EXIT=0"
check "no sanitizer report (cut file)" no_sanitizer_report "$TMP/err3"

# A URB's details name the driver call that submitted it.
S=$S-drv
$T new-session -d -s "$S" -x 140 -y 40 \
    "$US tui --fast sim:skeleton 2>$TMP/err4; echo TUI-EXIT=\$?; sleep 30"
check "tui sim:skeleton shows records" wait_for "skeleton"
$T send-keys -t "$S" / 'OUT 5 bytes' Enter
check "the write's S record names skel_write's submit" \
    wait_for "Submitted by \(record [0-9]+\): skeleton write: submit"
$T send-keys -t "$S" p
check "so does its completion" \
    wait_for "URB type: URB_COMPLETE"
check "the completion's details name the submit too" \
    wait_for "Submitted by \(record [0-9]+\): skeleton write"
$T send-keys -t "$S" q
check "q quits with status 0" wait_for "TUI-EXIT=0"
check "no sanitizer report (skeleton)" no_sanitizer_report "$TMP/err4"

# A scenario file without "sim:" is a scenario, by its .scn name or by
# its first command, not "not a capture format".
cp samples/scenarios/skeleton.scn "$TMP/skel-scenario"
for f in samples/scenarios/skeleton.scn "$TMP/skel-scenario"; do
	S=$S-scn
	$T new-session -d -s "$S" -x 140 -y 40 \
	    "$US tui --fast $f 2>$TMP/err6; echo TUI-EXIT=\$?; sleep 30"
	check "tui $(basename "$f") (no sim:) runs the scenario" \
	    wait_for "ehci_hcd USB 2.0 started"
	$T send-keys -t "$S" q
	check "tui $(basename "$f"): q quits with status 0" \
	    wait_for "TUI-EXIT=0"
	check "tui $(basename "$f"): no sanitizer report" \
	    no_sanitizer_report "$TMP/err6"
done

# A big file: the first screen comes while the index is built (slowed
# down by URBSCOPE_TUI_BATCH so the test can look); keys and a filter
# work meanwhile, and the filter keeps applying as records arrive.
CAPGEN=build/tools/capgen
if [ -x "$CAPGEN" ] && "$CAPGEN" mixed -n 100000 -F pcap -w "$TMP/big.pcap"
then
	S=$S-big
	$T new-session -d -s "$S" -x 120 -y 40 \
	    "URBSCOPE_TUI_BATCH=40 $US tui $TMP/big.pcap 2>$TMP/err5; \
	    echo TUI-EXIT=\$?; sleep 30"
	check "a big file shows its first screen at once" \
	    wait_for "GET_DESCRIPTOR DEVICE len 18" 20
	check "the status bar shows the indexing progress" \
	    wait_for "^ 1/[0-9]+ \| indexing [0-9]+%"
	$T send-keys -t "$S" j
	check "keys work while indexing" wait_for "^ 2/[0-9]+ \| indexing"
	$T send-keys -t "$S" G
	check "G goes to the end indexed so far" \
	    wait_for "^ [0-9]{3,}/[0-9]+ \\| indexing"
	$T send-keys -t "$S" f 'type==bulk' Enter
	check "a filter applies while indexing" \
	    wait_for "\| indexing [0-9]+% \| filter: type==bulk"
	check "indexing ends with the time and bytes per record" \
	    wait_for "indexed 100000 records in [0-9.]+ s \(index [0-9.]+ bytes/record\)" 300
	want=$("$US" read -Y 'type==bulk' "$TMP/big.pcap" 2>/dev/null | wc -l)
	check "the filter covers the whole file ($want pass)" \
	    wait_for "/$want \| filter: type==bulk"
	# a search through everything runs between polls too: a key stops it
	$T send-keys -t "$S" / 'no such text' Enter
	$T send-keys -t "$S" j
	check "a key stops a long search" wait_for "^search stopped"
	$T send-keys -t "$S" / 'no such text' Enter
	check "a search through everything says so" \
	    wait_for "^not found \(text\): no such text" 200
	$T send-keys -t "$S" q
	check "q quits while big with status 0" wait_for "TUI-EXIT=0"
	check "no sanitizer report (big file)" no_sanitizer_report "$TMP/err5"
else
	skip "tui on a big file" "build/tools/capgen is missing (make tools)" 12
fi

# The demo, paced in real time: the traffic arrives over seconds, follow
# is on, scrolling up stops it and G resumes it; the spool of the live
# source is gone at the end.
mkdir -p "$TMP/spool"
S=$S-demo
$T new-session -d -s "$S" -x 120 -y 40 \
    "TMPDIR=$TMP/spool TERM=xterm-256color $US 2>$TMP/err6; \
    echo TUI-EXIT=\$?; sleep 30"
check "the demo is live and follows" wait_for "^ [0-9]+/[0-9]+ \| LIVE .*\| FOLLOW"
first=$(screen | sed -n 's/^ \([0-9]*\)\/[0-9]* | LIVE.*/\1/p')
check "the demo spools to a temporary file" \
    sh -c "ls '$TMP/spool' | grep -q urbscope-spool"
$T send-keys -t "$S" k
check "scrolling up stops following" wait_for "^ [0-9]+/[0-9]+ \| LIVE [^F]*$"
sleep 0.5
$T send-keys -t "$S" G
check "G follows again" wait_for "\| FOLLOW"
check "the demo ends by itself" wait_for "the input ended after [0-9]+ records" 200
last=$(screen | sed -n 's/^ \([0-9]*\)\/\([0-9]*\) | ended.*/\1 \2/p')
set -- $last
check "records arrived over time ($first, then $last)" \
    test -n "$first" -a -n "$last" -a "${first:-0}" -lt "${1:-0}" \
    -a "$1" = "${2:-x}"
check "the demo shows a rule violation" wait_for " drv +RULE "
$T send-keys -t "$S" q
check "q quits the demo with status 0" wait_for "TUI-EXIT=0"
check "no sanitizer report (demo)" no_sanitizer_report "$TMP/err6"
check "the spool is removed at exit" \
    sh -c "! ls '$TMP/spool' | grep -q urbscope-spool"

# The mouse, as xterm reports it (SGR 1006): a click selects a line and
# focuses the pane clicked, the wheel scrolls.
S=$S-mouse
$T new-session -d -s "$S" -x 120 -y 40 \
    "TERM=xterm-256color $US tui samples/mass-storage.pcapng 2>$TMP/err7; \
    echo TUI-EXIT=\$?; sleep 30"
check "mouse: the first screen" wait_for "^ 1/171 "
# row 6 of the terminal: the timeline's fifth line (row 1 is the header)
$T send-keys -t "$S" -l "$(printf '\033[<0;10;6M')"
$T send-keys -t "$S" -l "$(printf '\033[<0;10;6m')"
check "a click selects the line under it" wait_for "^ 5/171 "
$T send-keys -t "$S" -l "$(printf '\033[<65;10;5M')"
check "the wheel scrolls the timeline" wait_for "^ 8/171 "
$T send-keys -t "$S" -l "$(printf '\033[<0;10;25M')"
check "a click on the details focuses them" wait_for "Details \*"
$T send-keys -t "$S" q
check "q quits with status 0 (mouse)" wait_for "TUI-EXIT=0"
check "no sanitizer report (mouse)" no_sanitizer_report "$TMP/err7"
check "the terminal is restored (mouse reporting off)" \
    test "$($T display -p -t "$S" '#{mouse_any_flag}#{mouse_sgr_flag}')" = 00

# A terminal that goes away without a SIGHUP reaching the TUI (here: the
# signal blocked by whatever started it, a mask exec keeps): it ends
# anyway, rather than spin on a terminal that is gone.
if command -v python3 >/dev/null 2>&1; then
	H="tmux -S $TMP/hup.sock"
	$H new-session -d -x 80 -y 24 "exec python3 -c 'import os, signal, \
sys; signal.pthread_sigmask(signal.SIG_BLOCK, [signal.SIGHUP]); \
os.execv(sys.argv[1], sys.argv[1:])' $US tui samples/hid-keyboard.pcap \
	    2>$TMP/err-hup"
	i=0
	pid=
	while [ $i -lt 50 ] && [ -z "$pid" ]; do
		pid=$($H display -p '#{pane_pid}' 2>/dev/null)
		sleep 0.1
		i=$((i + 1))
	done
	sleep 1
	$H kill-server >/dev/null 2>&1
	i=0
	while [ $i -lt 100 ] && kill -0 "$pid" 2>/dev/null; do
		sleep 0.1
		i=$((i + 1))
	done
	if [ -n "$pid" ] && ! kill -0 "$pid" 2>/dev/null; then
		ok "its terminal gone, SIGHUP blocked: the TUI ends"
	else
		[ -n "$pid" ] && kill -9 "$pid" 2>/dev/null
		notok "its terminal gone, SIGHUP blocked: the TUI ends" \
		    "(still running 10 s later)"
	fi
else
	skip "the TUI without its terminal" "python3 is not installed"
fi
