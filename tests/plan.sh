# tests/plan.sh - the runner's check of a test script's plan, sourced by
# tests/run.sh and tested by tests/e2e/plan.sh.

# plan_kept LOG PASSED FAILED: whether the script whose output is LOG ran
# the number of checks its plan ("1..N") said; if not, prints why.
plan_kept() {
	sk=$(awk '/^skip - / {
		if (match($0, /\([0-9]+ checks\)$/))
			k += substr($0, RSTART + 1, RLENGTH - 9)
		else
			k++
	} END { print k + 0 }' "$1")
	ran=$(($2 + $3 + sk))
	n=$(sed -n 's/^1\.\.\([0-9][0-9]*\)$/\1/p' "$1" | head -n 1)
	if [ -z "$n" ]; then
		echo "no plan (a line 1..N before its checks), ran $ran"
		return 1
	fi
	if [ "$ran" -eq "$n" ]; then
		return 0
	fi
	if [ "$ran" -lt "$n" ] &&
	    grep -qE '^skip - .*\((the rest|some checks)\)$' "$1"; then
		return 0
	fi
	echo "planned $n checks, ran $ran"
	return 1
}
