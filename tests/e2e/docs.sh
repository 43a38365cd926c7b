#!/bin/sh
# tests/e2e/docs.sh - the man page, the README and --help list what the
# code's own tables hold, so that they cannot drift apart again: every
# scenario command (hcd/sim-scenario.c's commands[], as a bad line's error
# lists them), every built-in scenario (its builtins[], as an unknown
# name's error lists them), every output format (capture/'s cap_sinks, as
# a bad -F lists them) and every command (cmd.c's cmd_table, as `urbscope
# --help` lists them); and wrapped usage lines go on under their column.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh
plan 151

MAN=docs/urbscope.1

# Scenario commands: a man page entry (.BI plug " PORT ...") and a row of
# the README's table (| `plug PORT ...` |) each.
printf 'no-such-command 1\n' >"$TMP/bad.scn"
"$US" sim "$TMP/bad.scn" >/dev/null 2>"$TMP/err"
cmds=$(sed -n "s/.*unknown command 'no-such-command' (\(.*\))$/\1/p" \
    "$TMP/err" | tr -d ,)
check_eq "a bad scenario line lists the 15 commands" 15 \
    "$(echo "$cmds" | wc -w)"
for c in $cmds; do
	check "man page: scenario command $c" \
	    grep -q "^\.B[IR]\{0,1\} $c\( \|$\)" "$MAN"
	check "README: scenario command $c" grep -q "^| \`$c[ \`]" README.md
done

# Built-in scenarios: in the man page's list under sim, in the README's
# paragraph "Built-in scenarios:", in sim --help.
"$US" sim no-such-scenario >/dev/null 2>"$TMP/err"
names=$(sed -n \
    "s/.*no built-in scenario 'no-such-scenario' (\([^)]*\)).*/\1/p" \
    "$TMP/err" | tr -d ,)
check_eq "an unknown scenario lists the 12 built-in ones" 12 \
    "$(echo "$names" | wc -w)"
sed -n '/^is a built-in name$/,/^or a file of commands/p' "$MAN" \
    >"$TMP/man.names"
sed -n '/^Built-in scenarios:/,/^$/p' README.md | tr '\n' ' ' \
    >"$TMP/readme.names"
"$US" sim --help | tr '\n' ' ' >"$TMP/sim.help"
for n in $names; do
	check "man page: built-in scenario $n" \
	    grep -qE "^\.(RB \( |BR? )$n( |$)" "$TMP/man.names"
	check "README: built-in scenario $n" grep -q "\`$n\`" \
	    "$TMP/readme.names"
	check "sim --help: built-in scenario $n" grep -q " $n[ ;]" \
	    "$TMP/sim.help"
done
# each name listed is a scenario that runs (hcd/sim-scenario.c keeps the
# names apart from the scenarios)
for n in $names; do
	"$US" sim "$n" -c 1 >/dev/null 2>&1
	check_eq "built-in scenario $n runs" 0 $?
done
# and nothing more: each name the man page lists is one
re='s/^\.R\{0,1\}BR\{0,1\} (\{0,1\} *\([a-z-]*\) *[,)]\{0,1\}$/\1/p'
for n in $(sed -n "$re" "$TMP/man.names"); do
	case " $names " in
	*" $n "*) ;;
	*) notok "man page lists built-in scenario '$n' the code has not" ;;
	esac
done

# Output formats: every usage line with -F, in --help, the man page and
# the README, lists each one the code writes.
"$US" capture -i usbmon0 -w "$TMP/x" -F no-such-format >/dev/null \
    2>"$TMP/err"
check_eq "capture -F unknown exits 2" 2 $?
fmts=$(sed -n \
    's/.*unknown output format "no-such-format"; urbscope writes //p' \
    "$TMP/err" | tr -d ,)
check_eq "a bad -F lists the 3 formats" 3 "$(echo "$fmts" | wc -w)"
for c in capture convert sim; do
	"$US" $c --help 2>&1 | grep -o -- '\[-F [a-z|]*[a-z]' >"$TMP/f.$c"
	check "$c --help: a usage with -F" test -s "$TMP/f.$c"
done
awk '/^\.RB \[ \\-F$/ { getline; print }' "$MAN" >"$TMP/f.man"
check_eq "man page: -F in the synopsis of capture, convert, sim" 3 \
    "$(grep -c . "$TMP/f.man")"
grep -o -- '\[-F [a-z|]*[a-z]' README.md >"$TMP/f.readme"
check "README: usages with -F" test -s "$TMP/f.readme"
for f in $fmts; do
	for w in capture convert sim readme; do
		bad=$(grep -cv -- "[ |]$f\(|\|$\)" "$TMP/f.$w")
		check_eq "$w: every -F list has $f" 0 "$bad"
	done
	bad=$(grep -cv "\(^\| \)$f\( \|$\)" "$TMP/f.man")
	check_eq "man page: every -F list has $f" 0 "$bad"
done

# Commands: each of urbscope --help has a synopsis line in the man page
# and a --help of its own.
"$US" --help >"$TMP/help" 2>&1
check_eq "--help exits 0" 0 $?
cmdnames=$(sed -n '/^commands:$/,/^$/p' "$TMP/help" |
    sed -n 's/^  \([a-z][a-z]*\) .*/\1/p')
check_eq "--help lists the commands of the man page's synopsis" \
    "$(sed -n 's/^\.B urbscope \([a-z][a-z]*\)$/\1/p' "$MAN" | sort -u |
    tr '\n' ' ')" "$(echo "$cmdnames" | sort -u | tr '\n' ' ')"
check "--help lists 8 commands or more" test "$(echo "$cmdnames" | wc -w)" \
    -ge 8
for c in $cmdnames; do
	check "man page: synopsis of $c" grep -q "^\.B urbscope $c" "$MAN"
	check "$c --help exits 0" "$US" $c --help
done

# Wrapping: a usage too long for a line goes on under its first column,
# each help two columns further in (not at column 2 or 0).
sed -n '/^commands:$/,/^$/p' "$TMP/help" | sed '1d;$d' >"$TMP/cmds"
col=$(head -n 1 "$TMP/cmds" | sed 's/^\(  [a-z]* *\).*/\1/' | wc -c)
col=$((col - 1))
bad=$(awk -v c="$col" '/^  [a-z]/ { next }
    { match($0, /^ */); if (RLENGTH != c && RLENGTH != c + 2) print }' \
    "$TMP/cmds")
check_eq "--help: continuation lines at column $col or $((col + 2))" "" \
    "$bad"
check "--help: capture's usage goes on under it" grep -qE \
    "^ {$col}\[-Z USER\] \[--drivers\] \[-Y FILTER\] \[-V\] \[-T \.\.\.\] \| -D$" \
    "$TMP/help"
for c in "" $cmdnames; do
	# shellcheck disable=SC2086
	"$US" $c --help >"$TMP/h" 2>&1
	check_eq "urbscope $c --help: no usage goes on at column 0" "" \
	    "$(grep '^\[' "$TMP/h")"
done

# Time modes: each -t usage lists every mode -t takes.
"$US" read -t no-such-mode samples/stall.pcap >/dev/null 2>"$TMP/err"
modes=$(sed -n "s/.*-t wants \(.*\), not 'no-such-mode'.*/\1/p" "$TMP/err" |
    sed 's/,//g; s/ or / /')
check_eq "a bad -t lists the 5 modes" 5 "$(echo "$modes" | wc -w)"
{
	for c in read capture sim; do
		"$US" $c --help 2>&1 | grep -o -- '\[-t [a-z|]*\]'
	done
	grep -o -- '\[-t [a-z|]*\]' README.md
	awk '/^\.RB \[ \\-t$/ { getline; gsub(/[ .BR]/, ""); print "[-t " $0 }' \
	    "$MAN"
} >"$TMP/t.lists"
check "usages with -t" test -s "$TMP/t.lists"
for m in $modes; do
	check_eq "every -t usage has $m" "" \
	    "$(grep -v -- "[ |]$m[]|]" "$TMP/t.lists")"
done
