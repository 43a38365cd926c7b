#!/bin/sh
# tests/e2e/events.sh - driver events through the whole pipeline: the
# simulator's events go into pcapng on a second interface (link type 252,
# exported PDUs of one "urbscope-event" text line), tshark shows each as a
# line with zero malformed packets, `urbscope read` interleaves them with
# the URB records in time order, a pcapng round trip keeps them byte for
# byte, and pcap/usbmon outputs drop them saying how many.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh
plan 47

# A capture with driver events: the skeleton driver scenario.
"$US" sim skeleton -w "$TMP/ev.pcapng" 2>"$TMP/err"
check_eq "sim skeleton -w exits 0" 0 $?
"$US" read "$TMP/ev.pcapng" >"$TMP/read.txt" 2>"$TMP/err"
check_eq "read skeleton with events exits 0" 0 $?
check "read: no sanitizer report" no_sanitizer_report "$TMP/err"
nev=$(grep -c '^ *[0-9]* *[0-9.]* [0-9.-]* *drv ' "$TMP/read.txt")
nurb=$(grep -vc '^ *[0-9]* *[0-9.]* [0-9.-]* *drv ' "$TMP/read.txt")
# an event of no device (usb_register) has no address: "-", as in the TUI
check "read: an event without a device has the address -" \
    grep -qE '^ *[0-9]+ +[0-9.]+ -  +drv   skeleton usb_register: ' \
    "$TMP/read.txt"
check "read: no event has the address 0.0" \
    sh -c "! grep -qE '^ *[0-9]+ +[0-9.]+ 0\.0 ' '$TMP/read.txt'"
check "read: driver events are there" test "$nev" -gt 0
check "read: URB records are there" test "$nurb" -gt 0
# interleaved: numbered 1..N in file order, events between records
check "read: records and events numbered in one sequence" awk '
	{ if ($1 != NR) { print "line " NR ": number " $1; exit 1 } }' \
    "$TMP/read.txt"
check "read: events come between URB records" awk '
	/ drv / { if (urb) between = 1 } !/ drv / { urb = 1 }
	END { exit !between }' "$TMP/read.txt"
check "read: the skeleton's submits are events" \
    grep -q ' drv .*: submit urb ' "$TMP/read.txt"

# -T json: one valid object per line, events named by kind
"$US" read -T json "$TMP/ev.pcapng" >"$TMP/read.json"
check "read -T json: every line is JSON, events have kind and driver" \
    python3 -c '
import json, sys
n = 0
for line in open(sys.argv[1]):
    o = json.loads(line)
    if "event" in o:
        assert isinstance(o["event"], str) and "summary" in o, line
        n += 1
sys.exit(0 if n == int(sys.argv[2]) else 1)
' "$TMP/read.json" "$nev"
"$US" read -V "$TMP/ev.pcapng" >"$TMP/read.V"
check_eq "read -V: a block per event" "$nev" \
    "$(grep -c '^Driver event ' "$TMP/read.V")"

# usbmon text and -T fields have no form for events: the same output as
# for the file without them
"$US" convert "$TMP/ev.pcapng" -w "$TMP/ev.pcap" 2>"$TMP/err"
check_eq "convert to pcap exits 0" 0 $?
check "convert to pcap says how many events it dropped" \
    grep -q "^urbscope: $nev driver events\{0,1\} not written: pcap \
cannot hold them; use pcapng" "$TMP/err"
"$US" convert "$TMP/ev.pcapng" -w "$TMP/ev.mon" 2>"$TMP/err"
check "convert to usbmon text says so too" \
    grep -q "^urbscope: $nev driver events\{0,1\} not written" "$TMP/err"
"$US" read -T usbmon "$TMP/ev.pcapng" >"$TMP/a.mon"
"$US" read -T usbmon "$TMP/ev.pcap" >"$TMP/b.mon"
check_diff "read -T usbmon skips events" "$TMP/b.mon" "$TMP/a.mon"
"$US" convert "$TMP/ev.pcapng" -w "$TMP/ev2.pcapng" 2>"$TMP/err"
check "pcapng -> pcapng keeps events byte for byte" \
    cmp "$TMP/ev.pcapng" "$TMP/ev2.pcapng"
check "pcapng -> pcapng: nothing on stderr" test ! -s "$TMP/err"

# A match's id table entry is not a length: the buggy driver's entry 1
# takes the keyboard; text, JSON, -Y and the file say "entry", not "len".
"$US" sim buggy -w "$TMP/m.pcapng" 2>/dev/null
"$US" read "$TMP/m.pcapng" >"$TMP/m.txt" 2>/dev/null
check "match: the text line has no len" \
    sh -c '! grep " drv .*: match .* len " "$1"' sh "$TMP/m.txt"
check "match: buggy's entry 1 is there" \
    grep -q " drv .*: match .*: entry 1 flags .*: matched" "$TMP/m.txt"
"$US" read -Y 'event==match && len==1' "$TMP/m.pcapng" >"$TMP/m1.txt" \
    2>/dev/null
check_eq "match: -Y len==1 does not take the entry for a length" 0 \
    "$(wc -l <"$TMP/m1.txt")"
"$US" read -T json -Y 'event==match' "$TMP/m.pcapng" >"$TMP/m.json" \
    2>/dev/null
check "match: JSON says entry, never length" python3 -c '
import json, re, sys
n = 0
for line in open(sys.argv[1]):
    o = json.loads(line)
    assert "length" not in o, line
    m = re.search(r"entry (\d+) flags", o["text"])
    assert m and o["entry"] == int(m.group(1)), line
    n += o["entry"] == 1
sys.exit(0 if n > 0 else 1)
' "$TMP/m.json"

# -w with -Y writes what -Y shows, driver events with the records (as
# tshark -Y -w): sim writes it itself, convert -Y does it to any capture.
# The same lines as printed, but for the record numbers of the new file
# and the interface class (the descriptors that name it are not in it).
strip() {
	sed -E 's/^ *[0-9]+ +[0-9.]+ //; s/ \[intf [0-9]+ [^]]*\] / /' "$1"
}
for y in 'event==rule' 'dev==2 && (type==bulk || event==submit)'; do
	"$US" sim buggy -w "$TMP/y.pcapng" -Y "$y" 2>"$TMP/err"
	check_eq "sim -w -Y '$y' exits 0" 0 $?
	check "sim -w -Y '$y': nothing on stderr" test ! -s "$TMP/err"
	"$US" sim buggy -t e -Y "$y" >"$TMP/y1" 2>/dev/null
	"$US" read -t e "$TMP/y.pcapng" >"$TMP/y2" 2>/dev/null
	strip "$TMP/y1" >"$TMP/y1s"
	strip "$TMP/y2" >"$TMP/y2s"
	check "sim -Y '$y' shows something" test -s "$TMP/y1s"
	check_diff "sim -w -Y '$y' writes what sim -Y '$y' shows" \
	    "$TMP/y1s" "$TMP/y2s"
	"$US" convert "$TMP/m.pcapng" -Y "$y" -w "$TMP/c.pcapng" 2>"$TMP/err"
	check_eq "convert -Y '$y' exits 0" 0 $?
	check "convert -Y '$y' writes what sim -w -Y does" \
	    cmp "$TMP/y.pcapng" "$TMP/c.pcapng"
done
"$US" sim buggy -w "$TMP/y.pcapng" -V 2>"$TMP/err"
check_eq "sim -w -V is a usage error" 2 $?
check "sim -w -V: says why, as sim" \
    sh -c '! grep -q convert "$1" && grep -q "^urbscope: sim: -w" "$1"' \
    sh "$TMP/err"
"$US" convert "$TMP/m.pcapng" -Y 'nosuch==1' -w "$TMP/bad.pcapng" \
    2>"$TMP/err"
check_eq "convert -Y with a bad filter is a usage error" 2 $?
check "convert -Y with a bad filter writes no file" \
    test ! -e "$TMP/bad.pcapng"

if ! command -v tshark >/dev/null 2>&1; then
	skip_rest "tshark shows the events" "tshark is not installed"
fi
m=$(tshark -r "$TMP/ev.pcapng" \
    -Y '_ws.malformed || _ws.expert.severity >= warning' 2>/dev/null | wc -l)
check_eq "tshark: no malformed packet, no warning" 0 "$m"
tshark -r "$TMP/ev.pcapng" -Y 'frame.interface_id == 1' -T fields \
    -e frame.number -e text >"$TMP/ts.txt" 2>/dev/null
check_eq "tshark: one text line per event" "$nev" \
    "$(grep -c '	urbscope-event [a-z_0-9]* ' "$TMP/ts.txt")"
# the same events, with the same frame numbers, as read prints them
grep ' drv ' "$TMP/read.txt" | awk '{ print $1 }' >"$TMP/us.n"
cut -f1 "$TMP/ts.txt" >"$TMP/ts.n"
check_diff "tshark: events at the frame numbers read gives them" \
    "$TMP/us.n" "$TMP/ts.n"
p=$(tshark -r "$TMP/ev.pcapng" -Y 'frame.interface_id == 1' -T fields \
    -e _ws.col.Protocol 2>/dev/null | sort -u)
check_eq "tshark: protocol column says urbscope" "urbscope" "$p"
# tshark's text is what urbscope parses: the kinds agree
sed 's/^[0-9]*	urbscope-event \([a-z_0-9]*\).*/\1/' "$TMP/ts.txt" >"$TMP/ts.k"
python3 -c '
import json, sys
for line in open(sys.argv[1]):
    o = json.loads(line)
    if "event" in o:
        print(o["event"])
' "$TMP/read.json" >"$TMP/us.k"
check_diff "tshark: kinds equal read's" "$TMP/us.k" "$TMP/ts.k"

c=$(tshark -r "$TMP/ev.pcapng" \
    -Y 'frame.comment contains "usb_submit_urb"' 2>/dev/null | wc -l)
check "tshark: submits carry the driver call as a comment" test "$c" -gt 0

# Rule violations survive the file: as many RULE lines read back as the
# tshark text lines of kind rule, with the same rule ids.
"$US" sim buggy -w "$TMP/bug.pcapng" 2>/dev/null
check_eq "sim buggy -w exits 0" 0 $?
"$US" read "$TMP/bug.pcapng" 2>/dev/null |
    sed -n 's/.* drv .*: RULE \([a-z0-9-]*\): .*/\1/p' >"$TMP/us.r"
tshark -r "$TMP/bug.pcapng" -Y 'frame.interface_id == 1' \
    -T fields -e text 2>/dev/null |
    sed -n 's/^urbscope-event rule .* rule=\([a-z0-9-]*\) .*/\1/p' \
    >"$TMP/ts.r"
check "buggy: rule violations are in the file" test -s "$TMP/us.r"
check_diff "buggy: read's rules equal tshark's" "$TMP/ts.r" "$TMP/us.r"
