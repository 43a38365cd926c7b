#!/bin/sh
# tests/e2e/stats.sh - `urbscope stats`: what it counts, checked against
# tshark on the same files (every frame's usb.src, usb.dst, frame.len and
# usb.time: tests/stats-oracle.py), tshark's io,stat table row by row, the
# JSON and SVG forms, driver events and rules of a simulator run, -Y, the
# ASCII fallback, and bad usage.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh
plan 89

# Usage.
"$US" stats --help >"$TMP/out" 2>&1
check_eq "--help exits 0" 0 $?
check "--help names -z conv,usb and --svg" \
    grep -q -- '--svg OUT' "$TMP/out"
"$US" stats samples/stall.pcap -z nonsense >/dev/null 2>"$TMP/err"
check_eq "-z nonsense exits 2" 2 $?
check "-z nonsense says what -z takes" grep -q 'conv,usb' "$TMP/err"
"$US" stats samples/stall.pcap -z io,stat,0 >/dev/null 2>"$TMP/err"
check_eq "-z io,stat,0 exits 2" 2 $?
# More intervals than a table can show (DEC_STATS_IO_MAX, 100,000): an
# error, exit 2, naming an interval that would do; that one does.
"$US" stats samples/mass-storage.pcapng -z io,stat,0.00001 >"$TMP/out" \
    2>"$TMP/err"
check_eq "-z io,stat with 169007 intervals exits 2" 2 $?
check "too many intervals: nothing on standard output" test ! -s "$TMP/out"
check "too many intervals: says how many and what would do" grep -q \
    'io,stat,0.00001: 169007 intervals in the capture.s 1.690069 s, more than 100000: choose an interval of 0.00002 s or longer' \
    "$TMP/err"
"$US" stats samples/mass-storage.pcapng -T json -z io,stat,0.00001 \
    >/dev/null 2>&1
check_eq "-T json -z io,stat with too many intervals exits 2" 2 $?
"$US" stats samples/mass-storage.pcapng -z io,stat,0.00002 >"$TMP/out" \
    2>&1
check_eq "-z io,stat with 84504 intervals exits 0" 0 $?
check_eq "... and prints them" 84504 \
    "$(grep -c '^ *[0-9.]* *[0-9.]* *[0-9]* *[0-9]*$' "$TMP/out")"
"$US" stats samples/stall.pcap -T xml >/dev/null 2>&1
check_eq "-T xml exits 2" 2 $?
"$US" stats /nonexistent.pcap >/dev/null 2>"$TMP/err"
check_eq "a missing file exits 1" 1 $?
"$US" stats >/dev/null 2>&1
check_eq "no file exits 2" 2 $?

# The report on a capture with errors: every section, the statuses by name.
"$US" stats samples/stall.pcap >"$TMP/r.txt" 2>"$TMP/err"
check_eq "report exits 0" 0 $?
for s in "^Endpoints" "^Latency histograms" "^Errors" "^Classes"; do
	check "report has section $s" grep -q "$s" "$TMP/r.txt"
done
check "errors by status name" grep -q '^2.2.1 .*-EREMOTEIO x3 -EPIPE x1' \
    "$TMP/r.txt"
# the parts of an errors line joined by "; ", with no stray " ;" when
# there is no status before them
"$US" stats -z errors samples/iso.pcap >"$TMP/e.txt" 2>&1
check "errors: cancels and iso frames without statuses" grep -qx \
    '1.2.1      iso       IN  cancelled (unlink/kill) x2; 17 of 96 isochronous frames in error' \
    "$TMP/e.txt"
for f in samples/*.pcap samples/*.pcapng; do
	"$US" stats -z errors "$f" 2>/dev/null
done >"$TMP/e.txt"
check "errors: no ' ;' in any sample's lines" sh -c \
    "grep -q 'isochronous frames in error' '$TMP/e.txt' && ! grep -q ' ;' '$TMP/e.txt'"
check "9 failed URBs (8 completions and a submit error), as -Y says" \
    grep -q '^Errors: 9 failed' "$TMP/r.txt"
check_eq "the same 9 by read -Y usb.urb_status!=0 on completions" 9 \
    "$("$US" read samples/stall.pcap -Y 'status != 0' | wc -l)"
check "a latency histogram with bars" grep -q '1 ms - 2 ms .*14 |█' \
    "$TMP/r.txt"
LC_ALL=C "$US" stats samples/stall.pcap >"$TMP/c.txt"
check "LC_ALL=C: ASCII only" sh -c "! LC_ALL=C grep -q '[^ -~]' '$TMP/c.txt'"
check "LC_ALL=C: ASCII bars" grep -q '1 ms - 2 ms .*14 |#' "$TMP/c.txt"
check "no sanitizer report" no_sanitizer_report "$TMP/err"

# -Y counts only what it passes.
"$US" stats samples/stall.pcap -Y 'usb.src == "2.2.1" || usb.dst == "2.2.1"' \
    -T json >"$TMP/y.json"
check_eq "-Y: one endpoint left" 1 "$(python3 -c '
import json, sys
print(len(json.load(open(sys.argv[1]))["endpoints"]))' "$TMP/y.json")"

# Driver events and rules of a simulator run: the rules stats counts are
# the rule events read prints.
"$US" sim buggy -w "$TMP/b.pcapng" >/dev/null 2>&1
"$US" stats "$TMP/b.pcapng" -T json >"$TMP/b.json" 2>"$TMP/err"
check_eq "sim buggy: stats -T json exits 0" 0 $?
"$US" read "$TMP/b.pcapng" -Y 'event == rule' -T fields -e rule \
    | sort | uniq -c | awk '{ print $2, $1 }' >"$TMP/rules.want"
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
for k in sorted(d["rules"]):
    print(k, d["rules"][k])' "$TMP/b.json" >"$TMP/rules.got"
check_diff "sim buggy: rules counted as read -Y 'event == rule' shows" \
    "$TMP/rules.want" "$TMP/rules.got"
check "sim buggy: events section" sh -c \
    "'$US' stats '$TMP/b.pcapng' -z events | grep -q '^  probe '"

# SVG: well-formed, a panel (title) per endpoint.
"$US" stats samples/mass-storage.pcapng --svg "$TMP/s.svg" -z urbs \
    >"$TMP/u.txt"
check_eq "--svg exits 0" 0 $?
check "--svg is well-formed XML" python3 -c '
import sys, xml.etree.ElementTree as E
E.parse(sys.argv[1])' "$TMP/s.svg"
check_eq "--svg: a panel per endpoint of the table" \
    "$(grep -c '^[0-9]*\.[0-9]*\.[0-9]* ' "$TMP/u.txt")" \
    "$(grep -c 'URBs, .* bytes' "$TMP/s.svg")"
# The charts read as charts: under each throughput panel time ticks with
# units, beside it 3 rate ticks in B/s (or URBs a second); the histogram's
# decade bounds under it, and on each bar (above it, inside its width) its
# count, which are -z latency's counts.
for f in samples/mass-storage.pcapng samples/iso.pcap; do
	"$US" stats "$f" --svg "$TMP/c.svg" -z latency >"$TMP/lat.txt" 2>&1
	awk '/^[0-9]+\.[0-9]+\.[0-9]+ / { printf "%s%s", sep, $1; sep = "\n" }
	    /^ .* \|/ { sub(/ *\|.*/, ""); n = $NF; if (n != 0)
	    printf " %s", n } END { print "" }' "$TMP/lat.txt" >"$TMP/lat.want"
	check "--svg $f: axes, ticks and counts" python3 - "$TMP/c.svg" \
	    "$TMP/lat.want" <<'PY'
import re, sys, xml.etree.ElementTree as E
ns = '{http://www.w3.org/2000/svg}'
panels = []
for el in E.parse(sys.argv[1]).getroot():
    t = (el.text or '').strip()
    if el.tag == ns + 'text' and ' URBs, ' in t:
        panels.append({'name': t.split()[0], 'time': [], 'rate': [],
                       'bounds': [], 'counts': [], 'bars': []})
    elif not panels:
        continue
    elif el.tag == ns + 'rect' and el.get('fill') == '#d5823a':
        panels[-1]['bars'].append(el)
    elif el.tag == ns + 'text' and el.get('class') == 'count':
        bar = panels[-1]['bars'][-1]
        x0 = float(bar.get('x')); w = float(bar.get('width'))
        if not (x0 <= float(el.get('x')) <= x0 + w and
                float(el.get('y')) < float(bar.get('y'))):
            sys.exit('count %s not on its bar' % t)
        panels[-1]['counts'].append(t)
    elif el.tag == ns + 'text' and re.fullmatch(
            r'(0|[0-9.]+ (s|ms|us|ns))', t):
        if float(el.get('x')) < 600:
            panels[-1]['time'].append(t)
        else:
            panels[-1]['bounds'].append(t)
    elif el.tag == ns + 'text' and re.fullmatch(r'[0-9.]+ [kM]?B/s', t):
        panels[-1]['rate'].append(t)
got = []
for p in panels:
    if len(p['time']) < 3 or len(p['rate']) != 3:
        sys.exit('%s: time ticks %s, rate ticks %s' %
                 (p['name'], p['time'], p['rate']))
    if p['bounds'] != ['10 us', '100 us', '1 ms', '10 ms', '100 ms',
                       '1 s', '10 s']:
        sys.exit('%s: latency bounds %s' % (p['name'], p['bounds']))
    got.append(' '.join([p['name']] + p['counts']))
want = open(sys.argv[2]).read().split('\n')
if got != [w for w in want if w]:
    sys.exit('counts %s, -z latency %s' % (got, want))
PY
done
"$US" stats samples/stall.pcap --svg - | head -n 1 >"$TMP/h"
check "--svg - writes the SVG to standard output" grep -q '^<?xml' "$TMP/h"

if ! command -v tshark >/dev/null 2>&1; then
	skip_rest "stats against tshark" "tshark is not installed"
fi

# tshark as the oracle, on real captures of Linux (usbmon), Windows
# (USBPcap) and macOS.  Wire-level captures are counted as packets only.
for f in samples/stall.pcap samples/big-endian.pcap samples/iso.pcap \
    samples/hid-keyboard.pcap samples/mass-storage.pcapng \
    samples/uvc-webcam.pcapng samples/windows-usbpcap.pcapng \
    samples/macos-xhc.pcapng "$LINUX61"/qemu-usb-storage.pcap \
    "$LINUX61"/qemu-usb-uas.pcap "$LINUX61"/qemu-usb-kbd.pcap \
    "$LINUX61C"/classes.pcapng "$LINUX61C"/qemu-usb-audio.pcap; do
	[ -f "$f" ] || { notok "$f exists"; continue; }
	tshark -r "$f" -T fields -e usb.src -e usb.dst -e frame.len \
	    -e usb.urb_type -e usb.urb_status -e usb.urb_len -e usb.time \
	    -e usb.endpoint_address -e usb.transfer_type -e frame.number \
	    -e usb.request_in >"$TMP/t.tsv" 2>/dev/null
	"$US" stats "$f" -T json >"$TMP/s.json" 2>"$TMP/err"
	"$US" stats "$f" -z endpoints,usb >"$TMP/e.txt" 2>>"$TMP/err"
	python3 tests/stats-oracle.py "$TMP/t.tsv" "$TMP/s.json" \
	    "$TMP/e.txt" "$f"
	check "$f: no sanitizer report" no_sanitizer_report "$TMP/err"
done

# io,stat: tshark's rows (frames, bytes) in its table, ours in ours.
for iv in 1 0.25; do
	for f in samples/stall.pcap "$LINUX61"/qemu-usb-storage.pcap; do
		tshark -r "$f" -q -z "io,stat,$iv" 2>/dev/null | awk -F'|' \
		    '$2 ~ /<>/ { gsub(/ /, "", $3); gsub(/ /, "", $4);
		    print $3, $4 }' >"$TMP/io.want"
		"$US" stats "$f" -z "io,stat,$iv" | awk \
		    'NF == 4 && $1 ~ /^[0-9.]+$/ { print $3, $4 }' \
		    >"$TMP/io.got"
		check_diff "$f: -z io,stat,$iv rows as tshark's" \
		    "$TMP/io.want" "$TMP/io.got"
	done
done

# A wire-level capture (LINKTYPE_USB_2_0_FULL): every packet is a frame
# for io,stat, as tshark counts them; the packets that carry a transfer's
# submit or completion count for their endpoint, as read shows them.
f=samples/usb-fs-acm.pcapng
tshark -r "$f" -q -z "io,stat,0.002" 2>/dev/null | awk -F'|' \
    '$2 ~ /<>/ { gsub(/ /, "", $3); gsub(/ /, "", $4); print $3, $4 }' \
    >"$TMP/io.want"
"$US" stats "$f" -z "io,stat,0.002" | awk \
    'NF == 4 && $1 ~ /^[0-9.]+$/ { print $3, $4 }' >"$TMP/io.got"
check "$f: tshark's io,stat has rows" test -s "$TMP/io.want"
check_diff "$f: -z io,stat,0.002 rows as tshark's" "$TMP/io.want" \
    "$TMP/io.got"
# read's columns: number, time, bus.dev.ep, direction, S/C/P, type
"$US" read "$f" 2>/dev/null | awk '$5 == "S" || $5 == "C" {
    n[$3 " " $5]++ } END { for (k in n) print k, n[k] }' | sort \
    >"$TMP/ll.want"
"$US" stats "$f" -T json 2>"$TMP/err" | python3 -c '
import json, sys
d = json.load(sys.stdin)
n = {}
for e in d["endpoints"]:
    a = e["endpoint"]
    for k, t in (("submits", "S"), ("completions", "C")):
        if e[k]:
            n[(a, t)] = n.get((a, t), 0) + e[k]
for (a, t), v in sorted(n.items()):
    print("%s %s %d" % (a, t, v))
print("packets", d["packets"], file=sys.stderr)
' 2>"$TMP/pk" | sort >"$TMP/ll.got"
check "$f: read shows transfers on the wire" test -s "$TMP/ll.want"
check_diff "$f: submits and completions by endpoint, as read shows them" \
    "$TMP/ll.want" "$TMP/ll.got"
check_eq "$f: the other packets counted as packets" "packets $(
    "$US" read "$f" 2>/dev/null | awk '$5 == "P"' | wc -l)" \
    "$(cat "$TMP/pk")"

# Mass storage: the commands (CBWs) by operation code, the statuses, the blocks read and
# written and their LBA ranges, the failed CSWs, as tshark's usbms and
# scsi_sbc fields of the same captures give them.
for f in "$LINUX61"/qemu-usb-storage.pcap samples/mass-storage.pcapng \
    samples/stall.pcap; do
	tshark -r "$f" -Y 'usbms.dCBWSignature' -T fields -e scsi_sbc.opcode \
	    -e scsi_sbc.rdwr10.lba -e scsi_sbc.rdwr10.xferlen \
	    >"$TMP/cbw.tsv" 2>/dev/null
	tshark -r "$f" -Y 'usbms.dCSWSignature' -T fields \
	    -e usbms.dCSWStatus >"$TMP/csw.tsv" 2>/dev/null
	"$US" stats "$f" -z msc -T json >"$TMP/m.json"
	check "$f: mass storage summary as tshark's CBWs and CSWs" python3 -c '
import json, sys
cbw, csw, js = sys.argv[1:4]
ops, rw = {}, {0x28: [0, None, None], 0x2a: [0, None, None]}
for line in open(cbw):
    f = line.rstrip("\n").split("\t")
    if not f[0]:
        continue
    op = int(f[0], 0)
    ops[op] = ops.get(op, 0) + 1
    if op in rw and f[2]:
        lba, n = int(f[1]), int(f[2])
        r = rw[op]
        r[0] += n
        r[1] = lba if r[1] is None else min(r[1], lba)
        r[2] = lba + n - 1 if r[2] is None else max(r[2], lba + n - 1)
failed = sum(1 for l in open(csw) if l.strip() and int(l, 0) == 1)
m = json.load(open(js))["mass_storage"]
assert len(m) == 1, m
m = m[0]
got = {int(k, 16): v for k, v in m["opcodes"].items()}
assert got == ops, (got, ops)
assert m["failed"] == failed, (m["failed"], failed)
assert m["statuses"] == sum(1 for l in open(csw) if l.strip())
for op, name in ((0x28, "read"), (0x2a, "written")):
    r = m[name]
    assert r["blocks"] == rw[op][0], (name, r, rw[op])
    if rw[op][0]:
        assert (r["lba_min"], r["lba_max"]) == (rw[op][1], rw[op][2]), \
            (name, r, rw[op])
print(sum(ops.values()), "commands", failed, "failed")
' "$TMP/cbw.tsv" "$TMP/csw.tsv" "$TMP/m.json"
done
