#!/bin/sh
# tests/golden/run.sh - golden tests: each line of cases.txt is
# "NAME ARGS..."; `urbscope ARGS` must print exactly tests/golden/NAME.out
# (stdout, then stderr and the exit status).  `tests/golden/run.sh --regen`
# rewrites the expected files; read the diff before committing them.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh
regen=0
[ "${1:-}" = "--regen" ] && regen=1

run_case() {
	# $1 = name, rest = arguments
	name=$1
	shift
	"$US" "$@" >"$TMP/out" 2>"$TMP/err"
	rc=$?
	if ! no_sanitizer_report "$TMP/err"; then
		notok "$name: sanitizer report"
		sed 's/^/#   /' "$TMP/err" | head -n 30
		return
	fi
	{
		cat "$TMP/out"
		echo "--- stderr"
		cat "$TMP/err"
		echo "--- exit $rc"
	} >"$TMP/got"
	if [ $regen -eq 1 ]; then
		cp "$TMP/got" "tests/golden/$name.out"
		echo "wrote tests/golden/$name.out"
	else
		check_diff "golden $name" "tests/golden/$name.out" "$TMP/got"
	fi
}

# One check a case (a sanitizer report instead of a diff still counts one).
[ $regen -eq 1 ] || plan "$(grep -cvE '^[[:space:]]*(#|$)' tests/golden/cases.txt)"
while read -r name args; do
	case "$name" in
	""|\#*) continue ;;
	esac
	# shellcheck disable=SC2086
	run_case "$name" $args
done <tests/golden/cases.txt
