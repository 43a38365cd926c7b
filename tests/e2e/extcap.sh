#!/bin/sh
# tests/e2e/extcap.sh - urbscope as a Wireshark extcap, driven with the
# command lines Wireshark gives it (doc/README.extcap): the interfaces
# (the simulator; each usbmon bus, on a fake /dev and /sys tree), the
# link type, the options, the capture filter checked as Wireshark checks
# it (a line on standard output: not a filter), a capture into a FIFO
# (the simulator fast and in real time, a scenario file, a filter, a
# SIGTERM mid-capture, a reader that goes away, live usbmon through the
# fake tree), nothing on standard error unless it failed; then tshark
# itself capturing through it, with urbscope in Wireshark's extcap folder
# (a bind mount in a mount namespace of its own, where unshare works).
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh
plan 44

X="$US extcap"

# ------------------------------------------------------------------------
# What it offers.
$X --extcap-interfaces --extcap-version=4.0 >"$TMP/if" 2>"$TMP/err"
check_eq "--extcap-interfaces exits 0" 0 $?
version=$("$US" --version | sed 's/^urbscope //')
check "--extcap-interfaces: its version first" grep -q \
    "^extcap {version=$version}{display=urbscope USB analyzer}" "$TMP/if"
check "--extcap-interfaces: the simulator" grep -qx \
    "interface {value=urbscope-sim}{display=urbscope: simulated USB machine (scenarios, driver events)}" \
    "$TMP/if"
check "--extcap-interfaces: no usbmon interface where usbmon is not loaded" \
    sh -c "! grep -q '^interface.*usbmon' '$TMP/if'"
check "--extcap-interfaces: nothing on stderr" test ! -s "$TMP/err"
"$US" --extcap-interfaces >"$TMP/if2" 2>&1
check_diff "Wireshark's arguments straight after the program name" \
    "$TMP/if" "$TMP/if2"

ROOT=$TMP/root
mkdir -p "$ROOT/dev" "$ROOT/sys/module/usbmon"
for b in 1 2; do
	mkdir -p "$ROOT/sys/bus/usb/devices/usb$b"
	echo $b >"$ROOT/sys/bus/usb/devices/usb$b/busnum"
	echo 1 >"$ROOT/sys/bus/usb/devices/usb$b/devnum"
done
cp "$LINUX61/usbmon0.bin" "$ROOT/dev/usbmon0"
URBSCOPE_SYSROOT=$ROOT $X --extcap-interfaces >"$TMP/if" 2>&1
check_eq "--extcap-interfaces with usbmon: all buses, bus 1, bus 2" \
    "urbscope-usbmon0 urbscope-usbmon1 urbscope-usbmon2 urbscope-sim" \
    "$(sed -n 's/^interface {value=\([^}]*\)}.*/\1/p' "$TMP/if" | tr '\n' ' ' |
    sed 's/ $//')"

$X --extcap-interface urbscope-sim --extcap-dlts >"$TMP/out" 2>&1
check_eq "--extcap-dlts: link type 220" \
    "dlt {number=220}{name=USB_LINUX_MMAPPED}{display=USB packets with Linux header and padding}" \
    "$(cat "$TMP/out")"
$X --extcap-interface urbscope-sim --extcap-config >"$TMP/out" 2>&1
check_eq "--extcap-config (sim): scenario, scenario file, pace" \
    "--scenario --scenario-file --pace" \
    "$(sed -n 's/^arg {number=[0-9]*}{call=\([^}]*\)}.*/\1/p' "$TMP/out" |
    tr '\n' ' ' | sed 's/ $//')"
# the built-in scenarios as sim --help names them
want=$("$US" sim --help 2>&1 | tr '\n' ' ' |
    sed 's/.*Built-in scenarios: \(.*\); or a scenario.*/\1/')
check_eq "--extcap-config (sim): every built-in scenario" "$want" \
    "$(sed -n 's/^value {arg=0}{value=\([^}]*\)}.*/\1/p' "$TMP/out" |
    tr '\n' ' ' | sed 's/ $//')"
check "--extcap-config (sim): demo the default" grep -qx \
    'value {arg=0}{value=demo}{display=demo}{default=true}' "$TMP/out"
$X --extcap-interface urbscope-usbmon1 --extcap-config >"$TMP/out" 2>&1
check_eq "--extcap-config (usbmon): drivers, snap length, no descriptors" \
    "--drivers --snaplen --no-descriptors" \
    "$(sed -n 's/^arg {number=[0-9]*}{call=\([^}]*\)}.*/\1/p' "$TMP/out" |
    tr '\n' ' ' | sed 's/ $//')"
$X --extcap-interface eth0 --extcap-dlts >"$TMP/out" 2>&1
check_eq "an interface not urbscope's: exit 2" 2 $?
$X --extcap-interface urbscope-sim --bogus >"$TMP/out" 2>&1
check_eq "an option it does not know: exit 2" 2 $?

# The capture filter, as Wireshark checks it: nothing printed is good.
$X --extcap-capture-filter 'dev == 2 || event == rule' \
    --extcap-interface urbscope-sim >"$TMP/out" 2>"$TMP/err"
check_eq "a good capture filter: exit 0" 0 $?
check "a good capture filter: nothing on stdout or stderr" sh -c \
    "test ! -s '$TMP/out' && test ! -s '$TMP/err'"
$X --extcap-capture-filter 'usb.bogus ==' \
    --extcap-interface urbscope-sim >"$TMP/out" 2>"$TMP/err"
check_eq "a bad capture filter: exit 1" 1 $?
check_eq "a bad capture filter: the reason, one line on stdout" \
    "col 1: unknown field 'usb.bogus' (urbscope -G fields lists them)" \
    "$(cat "$TMP/out")"

# ------------------------------------------------------------------------
# Captures into a FIFO, read as Wireshark reads it.

# fifo_capture OUT ARGS...: the extcap's --capture into a FIFO that cat
# copies to OUT; its exit status in $TMP/rc, its stderr in $TMP/err
fifo_capture() {
	out=$1
	shift
	rm -f "$TMP/fifo"
	mkfifo "$TMP/fifo"
	cat "$TMP/fifo" >"$out" &
	reader=$!
	$X "$@" --capture --fifo "$TMP/fifo" 2>"$TMP/err"
	echo $? >"$TMP/rc"
	fifo_release
	wait $reader
}

# fifo_release: a reader still waiting for a writer (the extcap refused
# before opening the FIFO) sees its end; a read-write open never blocks
fifo_release() {
	exec 3<>"$TMP/fifo"
	exec 3>&-
}

"$US" sim demo -w "$TMP/demo.pcapng" 2>/dev/null
fifo_capture "$TMP/x.pcapng" --extcap-interface urbscope-sim \
    --scenario demo --pace fast
check_eq "sim fast: exit 0" 0 "$(cat "$TMP/rc")"
check "sim fast: the file 'urbscope sim demo -w' writes, byte for byte" \
    cmp -s "$TMP/demo.pcapng" "$TMP/x.pcapng"
check "sim: nothing on stderr" test ! -s "$TMP/err"

F='event == rule || dev == 2'
"$US" sim demo -Y "$F" -w "$TMP/demo-f.pcapng" 2>/dev/null
fifo_capture "$TMP/x.pcapng" --extcap-interface urbscope-sim \
    --pace fast --extcap-capture-filter "$F"
check "sim with a capture filter: what 'sim -Y' writes" \
    cmp -s "$TMP/demo-f.pcapng" "$TMP/x.pcapng"

cat >"$TMP/short.scn" <<'SCN'
plug 1 keyboard ab
settle 1
wait 300
SCN
"$US" sim "$TMP/short.scn" -w "$TMP/short.pcapng" 2>/dev/null
fifo_capture "$TMP/x.pcapng" --extcap-interface urbscope-sim \
    --scenario demo --scenario-file "$TMP/short.scn"
check_eq "sim in real time, a scenario file: exit 0" 0 "$(cat "$TMP/rc")"
check "sim in real time, a scenario file: the file sim writes" \
    cmp -s "$TMP/short.pcapng" "$TMP/x.pcapng"
fifo_capture "$TMP/x.pcapng" --extcap-interface urbscope-sim \
    --scenario nosuch
check_eq "a scenario that is none: exit 2" 2 "$(cat "$TMP/rc")"

# Wireshark stops a capture with SIGTERM: the file ends complete
rm -f "$TMP/fifo"
mkfifo "$TMP/fifo"
cat "$TMP/fifo" >"$TMP/x.pcapng" &
reader=$!
$X --extcap-interface urbscope-sim --scenario demo --capture \
    --fifo "$TMP/fifo" 2>"$TMP/err" &
xc=$!
sleep 2
kill -TERM $xc
wait $xc
check_eq "SIGTERM in real time: exit 0" 0 $?
fifo_release
wait $reader
"$US" read "$TMP/x.pcapng" >"$TMP/out" 2>"$TMP/rerr"
check_eq "SIGTERM: the file reads to its end without error" 0 $?
n=$(wc -l <"$TMP/out")
all=$("$US" read "$TMP/demo.pcapng" 2>/dev/null | wc -l)
check "SIGTERM: some records, not all ($n of $all)" \
    test "$n" -gt 0 -a "$n" -lt "$all"
check "SIGTERM: nothing on stderr" test ! -s "$TMP/err"

# a reader that goes away (Wireshark's stop, tshark -a packets:N)
rm -f "$TMP/fifo"
mkfifo "$TMP/fifo"
head -c 4000 "$TMP/fifo" >/dev/null &
$X --extcap-interface urbscope-sim --pace fast --capture \
    --fifo "$TMP/fifo" 2>"$TMP/err"
check_eq "a reader that goes away: exit 0" 0 $?
check "a reader that goes away: quiet, its FIFO left alone" sh -c \
    "test ! -s '$TMP/err' && test -p '$TMP/fifo'"

# live usbmon, on the fake tree's saved stream: the capture filter, the
# sysfs descriptor records left out, capture's own lines kept back
export URBSCOPE_SYSROOT=$ROOT
fifo_capture "$TMP/x.pcapng" --extcap-interface urbscope-usbmon0 \
    --no-descriptors --extcap-capture-filter 'usb.device_address == 2'
check_eq "usbmon: exit 0" 0 "$(cat "$TMP/rc")"
check_eq "usbmon: device 2's records, as read -Y shows them" \
    "$("$US" read "$LINUX61/usbmon0.bin" -Y 'usb.device_address == 2' \
    -T fields -e usb.urb_id -e usb.urb_type 2>/dev/null | md5sum)" \
    "$("$US" read "$TMP/x.pcapng" -T fields -e usb.urb_id -e usb.urb_type \
    2>/dev/null | md5sum)"
check "usbmon: capture's start line and summary kept back" \
    test ! -s "$TMP/err"
fifo_capture "$TMP/x.pcapng" --extcap-interface urbscope-usbmon0 \
    --snaplen 10
check_eq "usbmon, a snap length capture refuses: exit 2" 2 \
    "$(cat "$TMP/rc")"
check "usbmon, a snap length capture refuses: its reason said" grep -q \
    -- '-s wants' "$TMP/err"
unset URBSCOPE_SYSROOT

# ------------------------------------------------------------------------
# tshark capturing through the extcap, urbscope in Wireshark's folder.
EXTDIR=$(tshark -G folders 2>/dev/null | sed -n 's/^Extcap path:[[:space:]]*//p')
if ! command -v tshark >/dev/null 2>&1; then
	skip "tshark through the extcap" "no tshark" 8
elif [ -z "$EXTDIR" ] || [ ! -d "$EXTDIR" ] ||
    ! unshare --mount --propagation private true 2>/dev/null; then
	skip "tshark through the extcap" "no private mount namespace here (unshare --mount needs root)" 8
else
	mkdir -p "$TMP/ext"
	ln -s "$(pwd)/$US" "$TMP/ext/urbscope"
	in_ns() {
		unshare --mount --propagation private sh -c \
		    "mount --bind '$TMP/ext' '$EXTDIR' && $1"
	}
	in_ns "tshark -D" >"$TMP/out" 2>/dev/null
	check "tshark -D lists urbscope-sim" grep -q \
	    '^[0-9]*\. urbscope-sim (urbscope: simulated USB machine' \
	    "$TMP/out"
	in_ns "tshark -i urbscope-sim -a packets:50 -w '$TMP/ts.pcapng'" \
	    >"$TMP/out" 2>&1
	check_eq "tshark -i urbscope-sim -a packets:50: exit 0" 0 $?
	check "tshark: 50 packets, no error from the extcap" sh -c \
	    "grep -q '^50 packets captured' '$TMP/out' &&
	    ! grep -q 'Error by extcap' '$TMP/out'"
	"$US" read -c 50 "$TMP/demo.pcapng" >"$TMP/want" 2>/dev/null
	"$US" read "$TMP/ts.pcapng" >"$TMP/got" 2>/dev/null
	check_diff "tshark's file: the first 50 records and events of the demo" \
	    "$TMP/want" "$TMP/got"
	tshark -r "$TMP/demo.pcapng" -c 50 -T fields -e frame.len \
	    -e frame.time_epoch -e usb.urb_id -e usb.urb_type \
	    -e data-text-lines >"$TMP/want" 2>/dev/null
	tshark -r "$TMP/ts.pcapng" -T fields -e frame.len -e frame.time_epoch \
	    -e usb.urb_id -e usb.urb_type -e data-text-lines >"$TMP/got" \
	    2>/dev/null
	check_diff "tshark's file: tshark reads the records sim wrote" \
	    "$TMP/want" "$TMP/got"
	check_eq "tshark's file: no malformed frame" 0 \
	    "$(tshark -r "$TMP/ts.pcapng" -Y _ws.malformed 2>/dev/null |
	    wc -l)"
	# tshark -f is the extcap's capture filter; -o its options
	in_ns "tshark -i urbscope-sim -o extcap.urbscope_sim.pace:fast -f 'event == rule || dev == 2' -w '$TMP/ts-f.pcapng'" \
	    >"$TMP/out" 2>&1
	"$US" read "$TMP/demo-f.pcapng" >"$TMP/want" 2>/dev/null
	"$US" read "$TMP/ts-f.pcapng" >"$TMP/got" 2>/dev/null
	check_diff "tshark -f FILTER -o ...pace:fast: what 'sim -Y FILTER' writes" \
	    "$TMP/want" "$TMP/got"
	# live usbmon (the fake tree's saved stream) through tshark
	URBSCOPE_SYSROOT=$ROOT in_ns "tshark -i urbscope-usbmon0 -o extcap.urbscope_usbmon0.nodescriptors:TRUE -f 'usb.device_address == 2' -w '$TMP/ts-u.pcapng'" \
	    >"$TMP/out" 2>&1
	check_eq "tshark -i urbscope-usbmon0 -f FILTER: what read -Y shows" \
	    "$("$US" read "$LINUX61/usbmon0.bin" -Y 'usb.device_address == 2' \
	    -T fields -e usb.urb_id -e usb.urb_type 2>/dev/null | md5sum)" \
	    "$("$US" read "$TMP/ts-u.pcapng" -T fields -e usb.urb_id \
	    -e usb.urb_type 2>/dev/null | md5sum)"
fi
