# tests/lib.sh - helpers for the shell tests, sourced by tests/e2e/*.sh.
# Each check prints "ok - NAME" or "not ok - NAME" (TAP style); the runner
# counts those lines.  Tests run from the repository root.

US=${US:-build/asan/urbscope}
TMP=${TMP:-$(mktemp -d "${TMPDIR:-/tmp}/urbscope-test.XXXXXX")}
# The real Linux 6.1 captures (tests/data/linux61/README.md).
LINUX61=${LINUX61:-tests/data/linux61}
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

# skip NAME REASON: says so, counts as neither.
skip() {
	echo "skip - $1: $2"
}

# No sanitizer report may appear in a run's stderr.
no_sanitizer_report() {
	! grep -qE 'ERROR: AddressSanitizer|runtime error:|LeakSanitizer' "$1"
}

cleanup() { rm -rf "$TMP"; }
trap cleanup EXIT
