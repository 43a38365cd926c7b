#!/bin/sh
# tests/e2e/plan.sh - the runner holds each script to its plan: no plan,
# fewer or more checks than planned fail; skips count for the checks they
# stand for; "the rest" and "some checks" make the plan a bound.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh
. tests/plan.sh
plan 8

# kept LOG-TEXT: plan_kept on a log of that text, with its ok and not ok
# lines counted as tests/run.sh counts them.
kept() {
	printf '%s\n' "$1" >"$TMP/log"
	plan_kept "$TMP/log" "$(grep -c '^ok - ' "$TMP/log")" \
	    "$(grep -c '^not ok - ' "$TMP/log")" >"$TMP/why"
}

kept "$(printf '1..2\nok - a\nnot ok - b')"
check_eq "as many checks as planned: kept" 0 $?
kept "$(printf 'ok - a\nok - b')"
check_eq "no plan: not kept" 1 $?
check "no plan: said" grep -q 'no plan' "$TMP/why"
kept "$(printf '1..3\nok - a\nok - b')"
check_eq "a check fewer (a script that stopped early): not kept" 1 $?
check "fewer: said" grep -q 'planned 3 checks, ran 2' "$TMP/why"
kept "$(printf '1..1\nok - a\nok - b')"
check_eq "a check more: not kept" 1 $?
kept "$(printf '1..5\nok - a\nskip - b: no tool (4 checks)')"
check_eq "a skip counts for the checks it names" 0 $?
kept "$(printf '1..9\nok - a\nskip - b: no tshark (the rest)')"
check_eq "the rest skipped: the plan is a bound" 0 $?
