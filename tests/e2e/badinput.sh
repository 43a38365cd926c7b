#!/bin/sh
# tests/e2e/badinput.sh - bad input never crashes, never hangs, never loses
# what was decoded before the problem, and says where the problem is.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh
plan 16

S=samples/hid-keyboard.pcap
full=$("$US" read "$S" | wc -l)
size=$(wc -c <"$S")

# A file cut inside its last record: all earlier records, then the error.
head -c $((size - 5)) "$S" >"$TMP/cut.pcap"
"$US" read "$TMP/cut.pcap" >"$TMP/out" 2>"$TMP/err"
check_eq "truncated pcap exits 1" 1 $?
check_eq "truncated pcap prints the records before the cut" \
    $((full - 1)) "$(wc -l <"$TMP/out")"
check "truncated pcap: message names record and offset" \
    grep -qE "record $full.*offset [0-9]+" "$TMP/err"

# Every cut length of a small file: exit 0 or 1, never a sanitizer report.
n=0
bad=0
for len in $(seq 0 7 "$size"); do
	head -c "$len" "$S" >"$TMP/c"
	timeout 10 "$US" read "$TMP/c" >/dev/null 2>"$TMP/err"
	rc=$?
	n=$((n + 1))
	if [ $rc -gt 1 ] || ! no_sanitizer_report "$TMP/err"; then
		bad=$((bad + 1))
		echo "# cut at $len: exit $rc"
		head -n 5 "$TMP/err" | sed 's/^/#   /'
	fi
done
check_eq "$n cut lengths: no crash, no hang" 0 $bad

# A pcapng cut anywhere in its first blocks (the section header, the
# interface description, a packet, a block's header) says "truncated"
# and where (offset), never "not a capture format"; exit 1.
NG=samples/mass-storage.pcapng
bad=0
n=0
cut=0
for len in $(seq 4 1 140) $(seq 141 37 1200); do
	head -c "$len" "$NG" >"$TMP/c.pcapng"
	"$US" read "$TMP/c.pcapng" >/dev/null 2>"$TMP/err"
	rc=$?
	n=$((n + 1))
	# a cut between two blocks leaves a whole file: exit 0
	if grep -q 'not a capture format' "$TMP/err" || { [ $rc -ne 0 ] &&
	    { [ $rc -ne 1 ] || ! grep -q 'at offset [0-9]*: truncated: ' \
	    "$TMP/err"; }; }; then
		bad=$((bad + 1))
		echo "# pcapng cut at $len: exit $rc"
		tail -n 2 "$TMP/err" | sed 's/^/#   /'
	fi
	[ $rc -eq 1 ] && cut=$((cut + 1))
done
check_eq "$n pcapng cuts ($cut inside a block) say truncated, with the offset" \
    0 $bad
head -c 10 "$NG" >"$TMP/c.pcapng"
"$US" read "$TMP/c.pcapng" >/dev/null 2>"$TMP/err"
check "a pcapng cut in its section header says which block" grep -q \
    'at offset 0: truncated: the file ends inside the section header block (10 of at least 28 bytes)' \
    "$TMP/err"

# Wrong magic.
printf 'this is not a capture file at all\n' >"$TMP/junk"
"$US" read "$TMP/junk" >/dev/null 2>"$TMP/err"
check_eq "unknown format exits 1" 1 $?
check "unknown format names the file" grep -q "$TMP/junk" "$TMP/err"

# A pcap of another link type (1 = Ethernet).
printf '\324\303\262\241\002\000\004\000\000\000\000\000\000\000\000\000\377\377\000\000\001\000\000\000' >"$TMP/eth.pcap"
"$US" read "$TMP/eth.pcap" >/dev/null 2>"$TMP/err"
check_eq "Ethernet pcap exits 1" 1 $?
check "Ethernet pcap: message names the link type" grep -q 'EN10MB' "$TMP/err"

# A record whose caplen lies (claims 2 GiB).
cp "$S" "$TMP/lie.pcap"
printf '\377\377\377\177' | dd of="$TMP/lie.pcap" bs=1 seek=32 conv=notrunc \
    2>/dev/null
"$US" read "$TMP/lie.pcap" >/dev/null 2>"$TMP/err"
check_eq "lying caplen exits 1" 1 $?
check "lying caplen: message names record 1" grep -q 'record 1' "$TMP/err"

# A garbage line in the middle of usbmon text.
T=samples/linux61-enum.mon
if [ -f "$T" ]; then
	head -n 10 "$T" >"$TMP/g.txt"
	echo 'ffff8e141fced600 4101424 Q garbage here' >>"$TMP/g.txt"
	tail -n +11 "$T" >>"$TMP/g.txt"
	"$US" read "$TMP/g.txt" >"$TMP/out" 2>"$TMP/err"
	check_eq "garbage text line exits 1" 1 $?
	check_eq "garbage text line: the 10 lines before are printed" 10 \
	    "$(wc -l <"$TMP/out")"
	check "garbage text line: message names line 11" \
	    grep -q 'line 11' "$TMP/err"
fi

# Random corruption of every sample: no crash, no hang.
bad=0
n=0
for f in samples/*.pcap samples/*.pcapng samples/*.txt samples/*.mon; do
	[ -f "$f" ] || continue
	for seed in 1 2 3 4 5 6 7 8 9 10 11 12; do
		python3 - "$f" "$TMP/fz" "$seed" <<'PY'
import random, sys
data = bytearray(open(sys.argv[1], 'rb').read())
rnd = random.Random(int(sys.argv[3]))
for _ in range(rnd.randint(1, 20)):
    data[rnd.randrange(len(data))] = rnd.randrange(256)
open(sys.argv[2], 'wb').write(data)
PY
		for mode in text json; do
			timeout 10 "$US" read -T "$mode" "$TMP/fz" >/dev/null \
			    2>"$TMP/err"
			rc=$?
			n=$((n + 1))
			if [ $rc -gt 1 ] || ! no_sanitizer_report "$TMP/err"
			then
				bad=$((bad + 1))
				echo "# $f seed $seed -T $mode: exit $rc"
				head -n 8 "$TMP/err" | sed 's/^/#   /'
			fi
		done
	done
done
check_eq "$n corrupted inputs: no crash, no hang" 0 $bad
