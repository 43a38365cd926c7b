#!/bin/sh
# tests/run.sh - everything `make test` runs: the cmocka unit tests (built
# with ASan and UBSan), then the golden and end-to-end shell tests.  Ends
# with one line "N passed, N failed"; exits non-zero if anything failed.
cd "$(dirname "$0")/.." || exit 1
pass=0
fail=0
log=$(mktemp)

. tests/plan.sh

for t in build/asan/tests/test-*; do
	[ -x "$t" ] || continue
	name=$(basename "$t")
	"$t" >"$log" 2>&1
	rc=$?
	p=$(sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' "$log" | tail -n 1)
	f=$(sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' "$log" | tail -n 1)
	p=${p:-0}
	f=${f:-0}
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		f=1	# crashed or a sanitizer stopped it
	fi
	if [ "$f" -ne 0 ]; then
		echo "FAIL $name ($p passed, $f failed)"
		grep -vE '^\[ (RUN|      OK|  PASSED) ' "$log" | head -n 60
	else
		echo "ok   $name ($p tests)"
	fi
	pass=$((pass + p))
	fail=$((fail + f))
done

for s in tests/golden/run.sh tests/e2e/*.sh tests/kernel/run.sh; do
	[ -f "$s" ] || continue
	sh "$s" >"$log" 2>&1
	rc=$?
	p=$(grep -c '^ok - ' "$log")
	f=$(grep -c '^not ok - ' "$log")
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		f=1
		echo "FAIL $s exited $rc"
	fi
	# The plan: as many checks as the script said it would run, skips
	# included; fewer only after a "skip - ...: ... (the rest)" line.
	if ! why=$(plan_kept "$log" "$p" "$f"); then
		f=$((f + 1))
		echo "FAIL $s: $why"
	fi
	if [ "$f" -ne 0 ]; then
		echo "FAIL $s ($p passed, $f failed)"
		grep -E '^(not ok|#)' "$log" | head -n 80
	else
		echo "ok   $s ($p checks)"
	fi
	grep '^skip - ' "$log"
	pass=$((pass + p))
	fail=$((fail + f))
done
rm -f "$log"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
