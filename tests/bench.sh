#!/bin/sh
# tests/bench.sh - speed and memory of `urbscope read` against tshark and
# the bare libpcap loop (run by `make bench`, after ./urbscope and the
# tools in build/tools are built).
#
# Writes a mixed capture of BENCH_N records (default 1000000) with
# build/tools/capgen into BENCH_DIR (default build/bench), then measures
# wall time (best of 3; tshark once, it is slow) and maximum RSS of
#	tshark -r F > /dev/null
#	./urbscope read F > /dev/null
#	./urbscope read -Y none F (nothing printed: the cost of the text)
#	build/tools/pcaploop F
# (and build/tools/storebench F: the TUI's store jumping and searching)
# and the maximum RSS of `urbscope read` on BENCH_N/10 and BENCH_N records
# (streaming: memory must not grow with the input).  Then the TUI on the
# BENCH_N capture in a detached tmux session: time to first screen (until
# capture-pane shows the first timeline row), time to the full index, the
# index's bytes per record and the process's RSS.  Also the JSON and -V
# forms in records per second, against tshark -T json on the smaller
# capture (tshark's JSON runs at some 14k records/s).  Last, urbscope
# serve's disk over USB/IP against QEMU's emulated one in a Linux guest.  Prints PASS or MISS
# per goal and
# exits 0 either way: a slow machine is a report, not a failure.  Exits 1
# only when the benchmark cannot run at all.  BENCH_KEEP=1 keeps the
# captures; CAPGEN, PCAPLOOP and URBSCOPE override the programs' paths.

cd "$(dirname "$0")/.." || exit 1

N=${BENCH_N:-1000000}
DIR=${BENCH_DIR:-build/bench}
CAPGEN=${CAPGEN:-build/tools/capgen}
PCAPLOOP=${PCAPLOOP:-build/tools/pcaploop}
URBSCOPE=${URBSCOPE:-./urbscope}
SPEED_GOAL=20		# urbscope at least 20x faster than tshark
LOOP_GOAL=1.2		# at most 1.2x the bare pcap_next_ex loop
FORM_GOAL=1000000	# records/s of read -T json and read -V
RSS_NOISE=2048		# KiB of allocator noise allowed between sizes
SIM_GOAL=60		# MB/s of simulated bulk payload per wall second

for t in "$CAPGEN" "$PCAPLOOP"; do
	if [ ! -x "$t" ]; then
		echo "bench: $t is missing: run 'make tools'" >&2
		exit 1
	fi
done
mkdir -p "$DIR" || exit 1
BIG=$DIR/mixed-$N.pcap
SMALL=$DIR/mixed-$((N / 10)).pcap
TIMES=$DIR/time.out

if [ -x /usr/bin/time ]; then
	HAVE_TIME=1
else
	HAVE_TIME=0
	echo "bench: /usr/bin/time is missing (Debian package 'time'):" \
	    "no RSS figures"
fi

# measure RUNS CMD...: runs CMD with stdout to /dev/null; sets SECS (best
# wall time in seconds, from date(1) in ns) and RSS (largest max RSS in
# KiB from /usr/bin/time, "-" if unknown), or returns 1 if a run failed.
measure() {
	runs=$1
	shift
	SECS=
	RSS=-
	i=0
	while [ "$i" -lt "$runs" ]; do
		i=$((i + 1))
		t0=$(date +%s%N)
		if [ "$HAVE_TIME" -eq 1 ]; then
			/usr/bin/time -o "$TIMES" -f '%M' "$@" >/dev/null \
			    2>"$DIR/stderr.out"
			rc=$?
			m=$(tail -n 1 "$TIMES")
		else
			"$@" >/dev/null 2>"$DIR/stderr.out"
			rc=$?
			m=-
		fi
		t1=$(date +%s%N)
		if [ "$rc" -ne 0 ]; then
			echo "  $* failed (exit $rc):"
			sed 's/^/    /' "$DIR/stderr.out" | head -n 5
			return 1
		fi
		s=$(awk -v a="$t0" -v b="$t1" \
		    'BEGIN { printf "%.3f", (b - a) / 1e9 }')
		if [ -z "$SECS" ] || awk -v a="$s" -v b="$SECS" \
		    'BEGIN { exit !(a < b) }'; then
			SECS=$s
		fi
		if [ "$m" != - ] && { [ "$RSS" = - ] || [ "$m" -gt "$RSS" ]; }
		then
			RSS=$m
		fi
	done
	return 0
}

# row LABEL NOTE: one line of the results table from SECS and RSS.
row() {
	printf '  %-22s %8s s %10s KiB  (%s)\n' "$1" "$SECS" "$RSS" "$2"
}

# verdict OK: PASS or MISS.
verdict() {
	if [ "$1" -eq 1 ]; then echo PASS; else echo MISS; fi
}

echo "generating $N records (capgen mixed) into $BIG"
if ! "$CAPGEN" mixed -n "$N" -F pcap -w "$BIG"; then
	echo "bench: capgen failed" >&2
	exit 1
fi
if ! "$CAPGEN" mixed -n $((N / 10)) -F pcap -w "$SMALL"; then
	echo "bench: capgen failed" >&2
	exit 1
fi
echo "capture: $(wc -c <"$BIG" | awk '{ printf "%.0f MB", $1 / 1e6 }')," \
    "$N records"
echo

T_TSHARK=
T_URB=
T_LOOP=
echo "speed (wall time, max RSS):"
if command -v tshark >/dev/null 2>&1; then
	if measure 1 tshark -r "$BIG"; then
		T_TSHARK=$SECS
		row "tshark -r F" "1 run"
	fi
else
	echo "  tshark: not installed, skipped (Debian package 'tshark')"
fi
if [ -x "$URBSCOPE" ]; then
	if measure 3 "$URBSCOPE" read "$BIG"; then
		T_URB=$SECS
		row "urbscope read F" "best of 3"
	fi
else
	echo "  urbscope: $URBSCOPE not built, skipped"
fi
# the same without a line printed: reading, pairing, device state and the
# filter, to tell their cost from the text's
T_QUIET=
if [ -x "$URBSCOPE" ] &&
    measure 3 "$URBSCOPE" read -Y 'bus==65535' "$BIG"; then
	T_QUIET=$SECS
	row "urbscope read -Y none" "best of 3, nothing printed"
fi
if measure 3 "$PCAPLOOP" "$BIG"; then
	T_LOOP=$SECS
	row "pcap_next_ex loop" "best of 3"
fi
echo

if [ -n "$T_URB" ] && [ -n "$T_TSHARK" ]; then
	awk -v u="$T_URB" -v t="$T_TSHARK" -v g="$SPEED_GOAL" 'BEGIN {
		if (u <= 0) u = 0.001
		r = t / u
		printf "urbscope is %.1fx faster than tshark", r
		printf " (goal >= %dx): %s\n", g, (r >= g ? "PASS" : "MISS")
	}'
fi
if [ -n "$T_URB" ] && [ -n "$T_LOOP" ]; then
	awk -v u="$T_URB" -v l="$T_LOOP" -v g="$LOOP_GOAL" 'BEGIN {
		if (l <= 0) l = 0.001
		r = u / l
		printf "urbscope / pcap_next_ex loop = %.1fx", r
		printf " (goal <= %.1fx): %s\n", g, (r <= g ? "PASS" : "MISS")
	}'
fi
if [ -n "$T_QUIET" ] && [ -n "$T_LOOP" ]; then
	awk -v u="$T_QUIET" -v l="$T_LOOP" -v t="$T_URB" -v n="$N" 'BEGIN {
		if (l <= 0) l = 0.001
		printf "  without the text: %.2fx the loop", u / l
		if (t != "")
			printf "; the text lines cost %.0f ns each", \
			    (t - u) * 1e9 / n
		printf "\n"
	}'
fi
echo

# The heavy output forms: records per second, and against tshark's JSON.
if [ -x "$URBSCOPE" ]; then
	echo "output forms on $N records (best of 3):"
	T_TJ=
	if command -v tshark >/dev/null 2>&1 &&
	    measure 1 tshark -r "$SMALL" -T json; then
		T_TJ=$SECS
		row "tshark -r F10 -T json" "1 run, $((N / 10)) records"
	fi
	for form in "-T json" "-V"; do
		# shellcheck disable=SC2086
		measure 3 "$URBSCOPE" read $form "$BIG" || continue
		row "urbscope read $form F" "best of 3"
		awk -v n="$N" -v s="$SECS" -v t="$T_TJ" -v m=$((N / 10)) \
		    -v g="$FORM_GOAL" -v f="$form" 'BEGIN {
			if (s <= 0) s = 0.001
			r = n / s
			printf "  read %s: %.0f records/s (goal >= %d): %s", f,
			    r, g, (r >= g ? "PASS" : "MISS")
			if (t != "" && t > 0)
				printf ", %.0fx tshark -T json", r / (m / t)
			printf "\n"
		}'
	done
	echo
fi

if [ -x "$URBSCOPE" ] && [ "$HAVE_TIME" -eq 1 ]; then
	echo "streaming memory (urbscope read, max RSS):"
	if measure 1 "$URBSCOPE" read "$SMALL"; then
		R_SMALL=$RSS
		printf '  %8d records %10s KiB\n' $((N / 10)) "$R_SMALL"
		if measure 1 "$URBSCOPE" read "$BIG"; then
			R_BIG=$RSS
			printf '  %8d records %10s KiB\n' "$N" "$R_BIG"
			ok=0
			[ $((R_BIG - R_SMALL)) -le "$RSS_NOISE" ] && ok=1
			echo "  growth $((R_BIG - R_SMALL)) KiB for 10x the" \
			    "records (goal: none, noise <= $RSS_NOISE KiB):" \
			    "$(verdict $ok)"
		fi
	fi
fi

# The simulator: bulk loopback through usb_submit_urb -> hcd glue -> EHCI
# driver -> emulated controller -> device model and back, in virtual
# time, every URB recorded into a pcap (goal: >= 60 MB/s of payload per
# wall-clock second, past what a high-speed bus carries).
if [ -x "$URBSCOPE" ]; then
	echo
	LB_BYTES=${BENCH_SIM_BYTES:-268435456}
	printf 'plug 1 loopback\nsettle 1\nbulk 1 %s\n' "$LB_BYTES" \
	    >"$DIR/loopback.scn"
	echo "simulator (bulk loopback, $((LB_BYTES >> 20)) MiB each way," \
	    "every URB recorded):"
	if measure 3 "$URBSCOPE" sim "$DIR/loopback.scn" -F pcap \
	    -w "$DIR/loopback.pcap"; then
		row "urbscope sim" "best of 3"
		awk -v b="$LB_BYTES" -v s="$SECS" -v g="$SIM_GOAL" 'BEGIN {
			if (s <= 0) s = 0.001
			r = b / s / 1e6
			printf "  %.0f MB/s of payload (goal >= %d MB/s): %s\n",
			    r, g, (r >= g ? "PASS" : "MISS")
		}'
	fi
	rm -f "$DIR/loopback.scn" "$DIR/loopback.pcap"
fi

# The TUI's record store on the big capture: reaching records far apart
# and a backward search through everything, from checkpoints (goal: no
# jump reads more than 4096 records and a 2048-record window).
if [ -x build/tools/storebench ]; then
	echo
	echo "tui store on $N records (build/tools/storebench):"
	build/tools/storebench "$BIG" | sed 's/^/  /' >"$DIR/store.out"
	cat "$DIR/store.out"
	awk '/^  jump/ { if ($(NF - 2) + 0 > 4096 + 2048) bad = 1; n++ }
	    END { printf "  jumps within a checkpoint and a window: %s\n",
	    (n > 0 && !bad) ? "PASS" : "MISS" }' "$DIR/store.out"
fi

# The TUI on the big capture, in a detached tmux session of fixed size:
# the clock runs from starting the session to capture-pane showing the
# first timeline row (polled every few ms), then to the status line that
# says the index is complete (with the index's bytes per record).
TUI_GOAL_MS=1000	# "well under a second"
if [ -x "$URBSCOPE" ] && command -v tmux >/dev/null 2>&1; then
	echo
	echo "tui on $N records (tmux 120x40):"
	SOCK=$DIR/tmux.sock
	TS="tmux -S $SOCK"
	t0=$(date +%s%N)
	$TS new-session -d -s bench -x 120 -y 40 \
	    "exec $URBSCOPE tui $BIG 2>$DIR/tui.err"
	first=
	full=
	while :; do
		out=$($TS capture-pane -p -t bench 2>/dev/null)
		now=$(date +%s%N)
		if [ -z "$first" ] && printf '%s\n' "$out" |
		    grep -qE '^ +1 +0\.000000 '; then
			first=$(( (now - t0) / 1000000 ))
		fi
		line=$(printf '%s\n' "$out" | grep -E '^indexed [0-9]+ records')
		if [ -n "$line" ]; then
			full=$(( (now - t0) / 1000000 ))
			break
		fi
		if [ $(( (now - t0) / 1000000000 )) -ge 120 ]; then
			echo "  gave up after 120 s"
			break
		fi
		sleep 0.005
	done
	pid=$($TS display -p -t bench '#{pane_pid}' 2>/dev/null)
	rss=$(awk '/^VmRSS/ { print $2 }' "/proc/$pid/status" 2>/dev/null)
	$TS send-keys -t bench q
	sleep 0.3
	$TS kill-server >/dev/null 2>&1
	if [ -n "$first" ]; then
		ok=0
		[ "$first" -lt "$TUI_GOAL_MS" ] && ok=1
		echo "  time to first screen   $first ms (goal < $TUI_GOAL_MS" \
		    "ms): $(verdict $ok)"
	fi
	if [ -n "$full" ]; then
		echo "  time to full index     $full ms (seen on screen;" \
		    "$(echo "$line" | sed 's/.* in \([0-9.]*\) s.*/\1/') s" \
		    "inside)"
		bpr=$(echo "$line" | sed 's/.*index \([0-9.]*\) bytes.*/\1/')
		ok=$(awk -v b="$bpr" 'BEGIN { print (b < 32) }')
		echo "  index memory           $bpr bytes/record" \
		    "(aim < 32; the items alone are 28): $(verdict $ok)"
	fi
	if [ -n "$rss" ]; then
		awk -v r="$rss" -v n="$N" 'BEGIN {
			printf "  tui RSS after index    %d KiB", r
			printf " (%.1f bytes/record all told)\n", r * 1024 / n
		}'
	fi
	rm -f "$DIR/tui.err" "$SOCK"
else
	echo
	echo "tui: tmux or $URBSCOPE missing, skipped"
fi

# urbscope serve's disk over USB/IP against QEMU's emulated usb-storage,
# in one guest (tests/kernel/guest-bench-serve.sh: the same 3 x 8 MiB
# O_DIRECT reads of each): MB/s as a ratio (goal: no slower than QEMU's),
# and the server's CPU per MB.  The server runs inside the TCG guest,
# QEMU's disk in QEMU itself: the comparison is harsh on the server.
# Then urbscope capture (its default ring, and -B 1200: libpcap's) and
# Wireshark's dumpcap on that bus at once: the records in each file, and
# the drops each program says.
echo
echo "urbscope serve (USB/IP) against QEMU's usb-storage, in a Linux guest:"
if command -v qemu-system-x86_64 >/dev/null 2>&1 &&
    sh tests/kernel/vm.sh --guest tests/kernel/guest-bench-serve.sh \
    --load vhci-hcd --bin dumpcap --timeout 240 "$DIR/vm-serve" \
    >"$DIR/vm.out" 2>&1 &&
    [ -f "$DIR/vm-serve/share/bench.txt" ]; then
	awk '
	$1 == "qemu" { q = $2 } $1 == "served" { s = $2 }
	$1 == "servecpu" { c = $2; hz = $3 }
	$1 ~ /-urbscope$/ { t = $1; sub(/-urbscope$/, "", t)
		ur[t] = $2; ud[t] = $3 }
	$1 ~ /-dumpcap$/ { t = $1; sub(/-dumpcap$/, "", t)
		dr[t] = $2; dd[t] = $3 }
	$1 ~ /-small$/ { t = $1; sub(/-small$/, "", t)
		sr[t] = $2; sd[t] = $3 }
	$1 ~ /-files$/ { t = $1; sub(/-files$/, "", t)
		fu[t] = $2; fd[t] = $3; fs[t] = $4 }
	END {
		mb = 3 * 8 * 1.048576
		if (q <= 0 || s <= 0) { print "  no timings"; exit }
		printf "  QEMU usb-storage      %.1f MB/s\n", mb / q
		printf "  served disk (USB/IP)  %.1f MB/s\n", mb / s
		printf "  ratio served/QEMU     %.2f (goal >= 1.0): %s\n",
		    q / s, (q / s >= 1.0 ? "PASS" : "MISS")
		printf "  server CPU            %.0f ms per MB\n",
		    c * 1000 / hz / mb
		say["flat"] = "that bus flat out, three captures at once"
		say["stall"] = "the same, all three stopped 0.5 s midway"
		for (i = 1; i <= 2; i++) {
			t = (i == 1 ? "flat" : "stall")
			if (!(t in ur))
				continue
			# every reader gets every event: what the bus carried is
			# what urbscope kept plus what it says the kernel dropped
			ev = ur[t] + ud[t]
			printf "  live capture of %s (%d events):\n", say[t], ev
			printf "    urbscope capture    %d records in its file, " \
			    "%d lost (it says %d dropped)\n", fu[t], ev - fu[t],
			    ud[t]
			if (t in sr)
				printf "    urbscope -B 1200    %d records in its file, " \
				    "%d lost (it says %d dropped)\n", fs[t],
				    ev - fs[t], sd[t]
			if (!(t in dr) || fd[t] == "")
				continue
			printf "    dumpcap             %d records in its file, " \
			    "%d lost (it says %d dropped)\n", fd[t], ev - fd[t],
			    dd[t]
			printf "    goal: urbscope loses no more: %s\n",
			    (ev - fu[t] <= ev - fd[t] ? "PASS" : "MISS")
		}
	}' "$DIR/vm-serve/share/bench.txt"
else
	echo "  skipped: $(tail -n 1 "$DIR/vm.out" 2>/dev/null)"
fi
rm -rf "$DIR/vm-serve" "$DIR/vm.out"

if [ "${BENCH_KEEP:-0}" != 1 ]; then
	rm -f "$BIG" "$SMALL"
fi
rm -f "$TIMES" "$DIR/stderr.out"
exit 0
