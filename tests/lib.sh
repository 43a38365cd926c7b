# tests/lib.sh - helpers for the shell tests, sourced by tests/e2e/*.sh.
# Each check prints "ok - NAME" or "not ok - NAME" (TAP style); the runner
# counts those lines.  Each script first says how many checks it runs
# (plan N, TAP's "1..N"); the runner fails a script that ran another
# number, so a check that silently stops printing is seen.  Tests run from
# the repository root.

US=${US:-build/asan/urbscope}
TMP=${TMP:-$(mktemp -d "${TMPDIR:-/tmp}/urbscope-test.XXXXXX")}
# The real Linux 6.1 captures (tests/data/linux61/README.md).
LINUX61=${LINUX61:-tests/data/linux61}
# QEMU's class devices under the same kernel (tests/data/linux61-classes).
LINUX61C=${LINUX61C:-tests/data/linux61-classes}
# Linux 6.1 host drivers against its own gadget functions
# (tests/data/linux61-gadget).
LINUX61G=${LINUX61G:-tests/data/linux61-gadget}
# Text output follows the locale's character set ("→", or "->" outside
# UTF-8): the goldens and the greps expect UTF-8.  A test of another locale
# sets its own.
LC_ALL=C.UTF-8
export LC_ALL
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

ok() { echo "ok - $*"; }
notok() { echo "not ok - $*"; }

# check NAME COMMAND...: passes when COMMAND exits 0.
check() {
	name=$1
	shift
	if "$@" >"$TMP/check.out" 2>&1; then
		ok "$name"
	else
		notok "$name"
		sed 's/^/#   /' "$TMP/check.out" | head -n 40
	fi
}

# check_eq NAME EXPECTED ACTUAL
check_eq() {
	if [ "$2" = "$3" ]; then
		ok "$1"
	else
		notok "$1"
		echo "#   expected: $2"
		echo "#   actual:   $3"
	fi
}

# check_diff NAME EXPECTED_FILE ACTUAL_FILE
check_diff() {
	if cmp -s "$2" "$3"; then
		ok "$1"
	else
		notok "$1"
		diff -u "$2" "$3" | head -n 40 | sed 's/^/#   /'
	fi
}

# plan N: the number of checks this script runs (skips included).
plan() {
	echo "1..$1"
}

# skip NAME REASON [N]: says so; stands for N planned checks (default 1)
# that did not run, counted as neither passed nor failed.  N "some": a
# number that only the checks that did not run could tell (a loop over
# what tshark finds); the plan is then a bound.
skip() {
	if [ "${3:-1}" = 1 ]; then
		echo "skip - $1: $2"
	else
		echo "skip - $1: $2 ($3 checks)"
	fi
}

# skip_rest NAME REASON: the script's remaining checks cannot run here;
# says why and ends the script.
skip_rest() {
	echo "skip - $1: $2 (the rest)"
	exit 0
}

# No sanitizer report may appear in a run's stderr.
no_sanitizer_report() {
	! grep -qE 'ERROR: AddressSanitizer|runtime error:|LeakSanitizer' "$1"
}

# tshark_fields REGEX: into $TMP/both, the fields of tshark whose names
# match REGEX (awk) and that urbscope knows too, one a line.
tshark_fields() {
	tshark -G fields 2>/dev/null | awk -F'\t' -v re="$1" \
	    '$1 == "F" && $3 ~ re { print $3 }' | sort -u >"$TMP/all"
	: >"$TMP/both"
	while read -r f; do
		"$US" read samples/hid-keyboard.pcap -c 1 -T fields -e "$f" \
		    >/dev/null 2>&1 && echo "$f" >>"$TMP/both"
	done <"$TMP/all"
}

# tshark_agree NAME FILE: the fields of $TMP/both (tshark_fields), record
# by record, the same in tshark and urbscope on FILE (60 fields a run), and
# some of them with values; no sanitizer report.
tshark_agree() {
	rm -f "$TMP/ts.all" "$TMP/us.all" "$TMP/agree.err"
	split -l 60 "$TMP/both" "$TMP/chunk."
	for c in "$TMP"/chunk.*; do
		args=$(sed 's/^/-e /' "$c" | tr '\n' ' ')
		# shellcheck disable=SC2086
		tshark -r "$2" -T fields -E separator=/t -e frame.number \
		    $args >>"$TMP/ts.all" 2>/dev/null
		# shellcheck disable=SC2086
		"$US" read "$2" -T fields -e frame.number $args \
		    >>"$TMP/us.all" 2>>"$TMP/agree.err"
		rm -f "$c"
	done
	check "$1: no sanitizer report" no_sanitizer_report "$TMP/agree.err"
	check_diff "$1: fields equal tshark's" "$TMP/ts.all" "$TMP/us.all"
	v=$(cut -f2- "$TMP/ts.all" | tr '\t' '\n' | grep -c .)
	check "$1: tshark and urbscope print some of them ($v values)" \
	    test "$v" -gt 0
}

# ethmix_or_skip NAME: $TMP/mix.pcapng, samples/hid-keyboard.pcap's USB
# packets with Ethernet ones interleaved (tests/tools/ethmix.py), for the
# tests of frame numbers against tshark's; says NAME is skipped and ends
# the test without python3 or tshark.
ethmix_or_skip() {
	if ! command -v python3 >/dev/null 2>&1 ||
	    ! command -v tshark >/dev/null 2>&1; then
		skip_rest "$1" "python3 or tshark missing"
	fi
	python3 tests/tools/ethmix.py samples/hid-keyboard.pcap \
	    "$TMP/mix.pcapng"
}

# KEEP_TMP=1: the files stay, for a look after a failure
cleanup() { [ -n "$KEEP_TMP" ] || rm -rf "$TMP"; }
trap cleanup EXIT
