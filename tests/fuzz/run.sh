#!/bin/sh
# tests/fuzz/run.sh TIME RUNS TARGET... - make fuzz: each libFuzzer target
# for TIME seconds (RUNS executions instead, when RUNS is not 0), from the
# seed corpus (tests/fuzz/seeds.py) plus what earlier runs kept in
# build/fuzz/corpus/TARGET.  An input that crashes, trips a sanitizer or
# runs slow (FUZZ_SLOW seconds, 60 unless set, and slow again alone) is
# copied into tests/fuzz/regress/, which make test replays: fix the bug,
# then commit the input.  Prints executions and coverage per target.
cd "$(dirname "$0")/../.." || exit 1
time=$1
runs=$2
shift 2
seeds=build/fuzz/seeds
rm -rf "$seeds"
python3 tests/fuzz/seeds.py "$seeds" || exit 1
found=0
for t in "$@"; do
	corpus=build/fuzz/corpus/$t
	art=build/fuzz/artifacts/$t/
	mkdir -p "$corpus" "$art" "$seeds/$t"
	if [ "$runs" -gt 0 ]; then
		limit="-runs=$runs"
	else
		limit="-max_total_time=$time"
	fi
	echo "fuzzing $t ($limit)"
	ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=halt_on_error=1 \
	    build/fuzz/"$t" $limit -max_len=${FUZZ_MAXLEN:-8192} -timeout=10 -rss_limit_mb=4096 \
	    -report_slow_units=${FUZZ_SLOW:-60} \
	    -print_final_stats=1 -artifact_prefix="$art" \
	    "$corpus" "$seeds/$t" tests/fuzz/regress \
	    >build/fuzz/"$t".log 2>&1
	rc=$?
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' \
	    build/fuzz/"$t".log)
	speed=$(sed -n 's/^stat::average_exec_per_sec: *//p' \
	    build/fuzz/"$t".log)
	cov=$(grep -o 'cov: [0-9]*' build/fuzz/"$t".log | tail -n 1)
	ft=$(grep -o 'ft: [0-9]*' build/fuzz/"$t".log | tail -n 1)
	echo "  $t: ${execs:-?} executions, ${speed:-?}/s, $cov, $ft," \
	    "corpus $(ls "$corpus" | wc -l), exit $rc"
	for f in "$art"*; do
		[ -f "$f" ] || continue
		case $(basename "$f") in
		slow-unit-*)
			# slow once may be a starved process (nice, a busy
			# machine): time it again alone before calling it a bug
			t0=$(date +%s)
			build/fuzz/"$t" "$f" >/dev/null 2>&1
			if [ $(($(date +%s) - t0)) -lt 2 ]; then
				echo "  slow once, fast again (a busy machine): $f"
				rm -f "$f"
				continue
			fi ;;
		esac
		n=regress/$t-$(basename "$f")
		cp "$f" tests/fuzz/"$n"
		echo "  FOUND: tests/fuzz/$n"
		grep -m 3 -E 'ERROR|runtime error|SUMMARY' build/fuzz/"$t".log |
		    sed 's/^/    /'
		found=$((found + 1))
		rm -f "$f"
	done
done
[ "$found" -eq 0 ]
