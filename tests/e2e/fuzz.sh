#!/bin/sh
# tests/e2e/fuzz.sh - the fuzz targets (tests/fuzz/, built with ASan and
# UBSan around replay.c) on their regression inputs and seed corpora, and
# the binary itself on every regression input: every output form, convert
# to every format, exit 0 or 1, never a sanitizer report.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh
# a check a fuzz target and one a regression input, besides four
nreg=$(ls tests/fuzz/regress | wc -l)
plan $((4 + $(ls tests/fuzz/fuzz-*.c | wc -l) + nreg))

python3 tests/fuzz/seeds.py "$TMP/seeds" >"$TMP/err" 2>&1
check "seed corpora written" test -s "$TMP/seeds/fuzz-read/stall.pcap"
check "there are regression inputs" test "$nreg" -gt 0

for src in tests/fuzz/fuzz-*.c; do
	t=$(basename "$src" .c)
	bin=build/asan/fuzz/$t
	if [ ! -x "$bin" ]; then
		notok "$t: $bin is built"
		continue
	fi
	"$bin" tests/fuzz/regress "$TMP/seeds/$t" >"$TMP/out" 2>"$TMP/err"
	rc=$?
	n=$(sed -n 's/.*: \([0-9]*\) inputs$/\1/p' "$TMP/out")
	if [ $rc -eq 0 ] && [ "${n:-0}" -ge "$nreg" ] &&
	    no_sanitizer_report "$TMP/err"; then
		ok "$t: $n inputs replayed"
	else
		notok "$t: exit $rc after ${n:-?} inputs"
		head -n 20 "$TMP/err" | sed 's/^/#   /'
	fi
done

# survives LABEL COMMAND...: exit 0 or 1 within 20 s, no sanitizer report;
# otherwise says so and counts it in $bad.
survives() {
	label=$1
	shift
	timeout 20 "$@" >/dev/null 2>"$TMP/err"
	rc=$?
	if [ $rc -gt 1 ] || ! no_sanitizer_report "$TMP/err"; then
		echo "# $label: exit $rc"
		head -n 8 "$TMP/err" | sed 's/^/#   /'
		bad=$((bad + 1))
	fi
}

for f in tests/fuzz/regress/*; do
	name=$(basename "$f")
	bad=0
	for opts in "" "-V" "-T json" "-T usbmon" "-T fields -e usb.urb_id \
-e frame.time_epoch -e usb.time" "-t a" "-t d" "-t e" "-Y latency>1ms"; do
		# shellcheck disable=SC2086
		survives "read $opts $name" "$US" read $opts "$f"
	done
	for fmt in pcap pcapng usbmon; do
		survives "convert -F $fmt $name" "$US" convert "$f" -F $fmt \
		    -w "$TMP/conv"
	done
	check_eq "$name: read in 9 forms, convert to 3, no sanitizer report" \
	    0 "$bad"
done

# The time stamp beyond 2262 is shown as such, not as a wrapped value.
"$US" read tests/fuzz/regress/ub-time-overflow.pcapng >"$TMP/out" 2>/dev/null
check "a time stamp int64 ns cannot hold reads 'bad time'" \
    grep -q '^      2    bad time ' "$TMP/out"
"$US" read -T json tests/fuzz/regress/ub-time-overflow.pcapng \
    >"$TMP/out" 2>/dev/null
check_eq "JSON leaves out frame.time_epoch it cannot give" 1 \
    "$(grep -c 'frame.time_epoch' "$TMP/out")"
