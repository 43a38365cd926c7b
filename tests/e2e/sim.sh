#!/bin/sh
# tests/e2e/sim.sh - the simulator: scenarios run on the EHCI driver, the
# emulated controller and the device models; their captures must be
# deterministic, complete (every URB given back exactly once), read like
# Linux's enumeration, and open in tshark.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh
plan 74

check "sim --help exits 0" "$US" sim --help
"$US" sim no-such-scenario >/dev/null 2>"$TMP/err"
check_eq "unknown scenario exits 1" 1 $?
check "unknown scenario lists the built-ins" grep -q enumerate "$TMP/err"
printf 'plug 1 keyboard\nfrobnicate 2\n' >"$TMP/bad.scn"
"$US" sim "$TMP/bad.scn" >/dev/null 2>"$TMP/err"
check_eq "bad scenario line exits 1" 1 $?
check "bad scenario line: file, line and command named" \
    grep -q "bad.scn:2: unknown command 'frobnicate'" "$TMP/err"

# every URB submitted is given back exactly once (C or E), in order
complete_once() {
	"$US" read -T fields -e usb.urb_type -e usb.urb_id "$1" | python3 -c '
import sys
open_ = {}
bad = 0
for n, line in enumerate(sys.stdin, 1):
    t, i = line.split()
    if t == "'"'"'S'"'"'":
        if i in open_:
            print("record %d: %s submitted again while in flight" % (n, i)); bad += 1
        open_[i] = n
    else:
        if i not in open_:
            print("record %d: %s given back without a submit" % (n, i)); bad += 1
        open_.pop(i, None)
for i, n in open_.items():
    print("record %d: %s never given back" % (n, i)); bad += 1
sys.exit(1 if bad else 0)
'
}

for sc in enumerate storage faults demo; do
	"$US" sim $sc -w "$TMP/$sc.pcapng" 2>"$TMP/err"
	check_eq "sim $sc exits 0" 0 $?
	check "sim $sc: no sanitizer report" no_sanitizer_report "$TMP/err"
	"$US" sim $sc -w "$TMP/$sc-2.pcapng" 2>/dev/null
	check "sim $sc is deterministic (byte-identical capture)" \
	    cmp "$TMP/$sc.pcapng" "$TMP/$sc-2.pcapng"
	check "sim $sc: every URB given back exactly once" \
	    complete_once "$TMP/$sc.pcapng"
	if command -v tshark >/dev/null 2>&1; then
		m=$(tshark -r "$TMP/$sc.pcapng" -Y _ws.malformed 2>/dev/null |
		    wc -l)
		check_eq "sim $sc: tshark finds no malformed packet" 0 "$m"
		# driver events (interface 1) have no usb.* fields: read
		# -T fields skips them, so tshark's rows for them go too
		tshark -r "$TMP/$sc.pcapng" -Y usb -T fields -E separator=/t \
		    -e frame.number -e usb.urb_id -e usb.urb_type \
		    -e usb.transfer_type -e usb.endpoint_address \
		    -e usb.device_address -e usb.urb_status -e usb.urb_len \
		    -e usb.data_len -e usb.idVendor -e usb.bInterfaceClass \
		    >"$TMP/ts" 2>/dev/null
		"$US" read "$TMP/$sc.pcapng" -T fields -e frame.number \
		    -e usb.urb_id -e usb.urb_type -e usb.transfer_type \
		    -e usb.endpoint_address -e usb.device_address \
		    -e usb.urb_status -e usb.urb_len -e usb.data_len \
		    -e usb.idVendor -e usb.bInterfaceClass >"$TMP/us"
		check_diff "sim $sc: fields equal tshark's" "$TMP/ts" "$TMP/us"
	else
		skip "sim $sc: tshark checks" "tshark is not installed" 2
	fi
done

# Enumeration as Linux 6.1 does it (the exact order is checked request by
# request against the real capture in tests/unit/test-enum.c).
"$US" read -T usbmon "$TMP/enumerate.pcapng" >"$TMP/enum.txt"
check "enumeration: GET_DESCRIPTOR DEVICE 64 to device 0 first" \
    grep -q 'S Ci:1:000:0 s 80 06 0100 0000 0040' "$TMP/enum.txt"
check "enumeration: SET_ADDRESS labelled device 0" \
    grep -q 'S Co:1:000:0 s 00 05 0002 0000 0000' "$TMP/enum.txt"
check "enumeration: root hub asks GET_HUB_DESCRIPTOR" \
    grep -q 'S Ci:1:001:0 s a0 06 2900 0000' "$TMP/enum.txt"

# Faults end URBs with the statuses Linux reports for them
# (Documentation/driver-api/usb/error-codes.rst).
"$US" sim faults >"$TMP/faults.txt" 2>&1
check "faults: a stalled bulk IN ends with -EPIPE" \
    grep -q ' in  C bulk -EPIPE ' "$TMP/faults.txt"
check "faults: babble ends with -EOVERFLOW" \
    grep -q ' in  C bulk -EOVERFLOW ' "$TMP/faults.txt"
check "faults: the stall is cleared with CLEAR_FEATURE ENDPOINT_HALT" \
    grep -q 'CLEAR_FEATURE ENDPOINT_HALT ep 0x81' "$TMP/faults.txt"
check "faults: an unplug mid-transfer ends the transfer with -ESHUTDOWN" \
    grep -q 'C bulk -ESHUTDOWN' "$TMP/faults.txt"
check "faults: after the stall, reset recovery, and the next read passes" \
    grep -q "CSW tag 6 READ(10) passed" "$TMP/faults.txt"

# A long transfer streams: memory does not grow with it.
printf 'plug 1 loopback\nsettle 1\nbulk 1 16777216\n' >"$TMP/lb.scn"
if [ -x /usr/bin/time ]; then
	/usr/bin/time -f '%M' -o "$TMP/rss" ./urbscope sim "$TMP/lb.scn" \
	    -F pcap -w /dev/null 2>/dev/null
	check "a 16 MiB loopback runs in under 16 MiB of memory" \
	    test "$(tail -n 1 "$TMP/rss")" -lt 16384
else
	skip "a 16 MiB loopback runs in under 16 MiB of memory" \
	    "/usr/bin/time is not installed"
fi

# Scenario files.
for f in samples/scenarios/*.scn; do
	"$US" sim "$f" -w "$TMP/scn.pcapng" 2>"$TMP/err"
	check_eq "sim $f exits 0" 0 $?
	check "sim $f: every URB given back exactly once" \
	    complete_once "$TMP/scn.pcapng"
done
check "read -T usbmon of a scenario capture" \
    "$US" read -T usbmon "$TMP/scn.pcapng"
"$US" sim samples/scenarios/replug.scn >"$TMP/replug.txt" 2>&1
check "replug: the second disk gets the next address" \
    grep -q 'SET_ADDRESS 3' "$TMP/replug.txt"

# Driver scenarios are deterministic in the optimised build too: URB ids
# and the pointers drivers keep (intfdata) come from fixed arenas.
for sc in skeleton keyboard buggy; do
	./urbscope sim $sc -w "$TMP/d1.pcapng" 2>/dev/null
	./urbscope sim $sc -w "$TMP/d2.pcapng" 2>/dev/null
	check "sim $sc (optimised build) is deterministic" \
	    cmp "$TMP/d1.pcapng" "$TMP/d2.pcapng"
done

# sim takes read's and convert's options itself (one pipeline): what it
# prints with -Y/-T equals read of what it writes, options in any order.
"$US" sim storage -w "$TMP/st.pcapng" 2>/dev/null
for opts in "-Y type==bulk&&ev==C" "-T json -c 300" "-V -c 50" \
    "-T fields -e usb.urb_id -e usb.data_len"; do
	# shellcheck disable=SC2086
	"$US" sim $opts storage >"$TMP/a" 2>/dev/null
	# shellcheck disable=SC2086
	"$US" read $opts "$TMP/st.pcapng" >"$TMP/b" 2>/dev/null
	sed -E 's/"frame.offset":[0-9]*,//; s/ at offset [0-9]*//' "$TMP/a" \
	    >"$TMP/a2"
	sed -E 's/"frame.offset":[0-9]*,//; s/ at offset [0-9]*//' "$TMP/b" \
	    >"$TMP/b2"
	check "sim $opts storage prints something" test -s "$TMP/a2"
	check_diff "sim $opts storage prints what read $opts prints" \
	    "$TMP/b2" "$TMP/a2"
done
# read and convert take a scenario file as sim: does, by its .scn name
# or, without one, by its first command; a capture's magic still wins.
"$US" sim samples/scenarios/skeleton.scn >"$TMP/scn1" 2>/dev/null
"$US" read samples/scenarios/skeleton.scn >"$TMP/scn2" 2>"$TMP/err"
check_eq "read FILE.scn exits 0" 0 $?
check_diff "read FILE.scn runs the scenario" "$TMP/scn1" "$TMP/scn2"
cp samples/scenarios/skeleton.scn "$TMP/skel-scenario"
"$US" read "$TMP/skel-scenario" >"$TMP/scn3" 2>"$TMP/err"
check_diff "read of a scenario named otherwise runs it too" "$TMP/scn1" \
    "$TMP/scn3"
printf 'hello world\n' >"$TMP/notes.txt"
"$US" read "$TMP/notes.txt" >/dev/null 2>"$TMP/err"
check "other text is still not a capture format" \
    grep -q "not a capture format" "$TMP/err"
cp samples/stall.pcap "$TMP/stall.scn"
"$US" read "$TMP/stall.scn" >"$TMP/scn4" 2>/dev/null
"$US" read samples/stall.pcap >"$TMP/scn5" 2>/dev/null
check_diff "a pcap named .scn is read as pcap" "$TMP/scn5" "$TMP/scn4"

# A run in memory has no file: its records have no byte offset to show
# (not "at offset 0" each); the file sim -w wrote has theirs, increasing.
"$US" sim storage -T json -c 100 >"$TMP/off.json" 2>/dev/null
check "sim -T json: no frame.offset" \
    sh -c '! grep -q "frame.offset" "$1" && test -s "$1"' sh "$TMP/off.json"
"$US" sim storage -V -c 100 >"$TMP/off.V" 2>/dev/null
check "sim -V: no record 'at offset'" \
    sh -c '! grep -q "^Record .* at offset" "$1" && grep -q "^Record " "$1"' \
    sh "$TMP/off.V"
"$US" read -T json -c 100 "$TMP/st.pcapng" >"$TMP/off2.json" 2>/dev/null
check "read of sim -w's file: offsets rise from the first block's end" \
    python3 -c '
import json, sys
offs = [json.loads(l)["frame.offset"] for l in open(sys.argv[1])
        if "usb.urb_id" in l and "\"event\"" not in l]
sys.exit(0 if offs and offs[0] > 0 and offs == sorted(set(offs)) else 1)
' "$TMP/off2.json"
"$US" sim storage -c 10 -w "$TMP/c10.pcapng" 2>/dev/null
check_eq "sim -c 10 -w: 10 records written" 10 \
    "$("$US" read "$TMP/c10.pcapng" 2>/dev/null | wc -l)"
"$US" sim storage -V -w "$TMP/x.pcapng" >/dev/null 2>&1
check_eq "sim -w with -V is a usage error" 2 $?
"$US" sim storage -F pcap >/dev/null 2>&1
check_eq "sim -F without -w is a usage error" 2 $?
"$US" sim >/dev/null 2>&1
check_eq "sim without a scenario is a usage error" 2 $?

# inject ... on TRIGGER: a STALL armed on the second READ(10)'s CBW goes
# off there, not on the first; the storage driver recovers (bulk-only
# reset, halts cleared) and reads on
printf 'plug 1 disk 1M\nsettle 1\ninject 1 stall 0x02 1 on scsi 0x28 2\ndisk-read 1 0 1\ndisk-read 1 1 1\ndisk-read 1 2 1\n' \
    >"$TMP/trig.scn"
"$US" sim "$TMP/trig.scn" >"$TMP/trig.out" 2>"$TMP/trig.err"
check_eq "inject on scsi: the scenario runs (exit 0)" 0 $?
check "inject on scsi: one CBW STALLed, after one READ(10) went through" \
    python3 -c '
import sys
lines = open(sys.argv[1]).read().splitlines()
cbw = [i for i, l in enumerate(lines) if " S bulk " in l and
       "CBW" in l and "READ(10)" in l]
pipe = [i for i, l in enumerate(lines) if " C bulk -EPIPE " in l]
reset = [i for i, l in enumerate(lines) if "BULK_ONLY_RESET" in l]
sys.exit(0 if len(pipe) == 1 and len(cbw) >= 3 and cbw[0] < pipe[0] and
         cbw[1] < pipe[0] < cbw[2] and reset and reset[0] > pipe[0] else 1)
' "$TMP/trig.out"
# ... on bytes EP N: the bulk IN STALLs on its first packet after 4 KiB
# came out of it (2144 bytes by the second READ(10), whose fifth packet
# it is: 2048 bytes of its data delivered)
printf 'plug 1 disk 1M\nsettle 1\ninject 1 stall 0x81 1 on bytes 0x81 4K\ndisk-read 1 0 4\ndisk-read 1 0 16\ndisk-read 1 0 4\n' \
    >"$TMP/bytes.scn"
"$US" sim "$TMP/bytes.scn" >"$TMP/bytes.out" 2>"$TMP/bytes.err"
check_eq "inject on bytes: the scenario runs (exit 0)" 0 $?
check "inject on bytes: the STALL 2048 bytes into the second READ(10)" \
    sh -c "awk '/ S bulk .*CBW.*READ\\(10\\)/ { cbw++ }
    / C bulk -EPIPE / { print cbw, \$8 }' '$TMP/bytes.out' |
    grep -qx '2 2048'"
printf 'plug 1 disk\ninject 1 stall 0x02 on scsi\n' >"$TMP/trig2.scn"
"$US" sim "$TMP/trig2.scn" >/dev/null 2>"$TMP/trig2.err"
check "inject with a trigger but no opcode: the line and the forms said" \
    grep -q "trig2.scn:2: .*on scsi OPCODE|any" "$TMP/trig2.err"

# plug PORT replay FILE: a capture's keyboard, under the sample keyboard
# driver, types what was recorded
printf 'load keyboard\nplug 1 replay samples/hid-keyboard.pcap\nsettle 1\nwait 4000\n' \
    >"$TMP/replay.scn"
"$US" sim "$TMP/replay.scn" 2>/dev/null | sed -n 's/.*key down: //p' |
    tr -d '\n' >"$TMP/replay.keys"
check_eq "plug replay: the recorded keyboard types its keys" "hello" \
    "$(cut -c1-5 "$TMP/replay.keys")"
# strict: the sample driver's SET_PROTOCOL, which Linux's usbhid never
# sent in the recording, is STALLed, and its probe fails
printf 'load keyboard\nplug 1 replay samples/hid-keyboard.pcap strict\nsettle 1\nwait 500\n' \
    >"$TMP/replay-strict.scn"
"$US" sim "$TMP/replay-strict.scn" >"$TMP/replay-strict.out" 2>/dev/null
check "plug replay strict: a request never recorded STALLed, the probe fails" \
    sh -c "grep -q 'SET_PROTOCOL boot intf 0 → -EPIPE' '$TMP/replay-strict.out' &&
    grep -q 'usbkbd probe: probe intf 0 usbkbd 1-1:1.0: probe returned -32' '$TMP/replay-strict.out'"
