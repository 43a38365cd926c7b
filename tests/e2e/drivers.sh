#!/bin/sh
# tests/e2e/drivers.sh - the sample drivers through the real binary: the
# skeleton, keyboard and buggy scenarios (and the skeleton.scn sample)
# run clean under the sanitizers, deterministically; the well-behaved
# drivers break no rule, the buggy one breaks every rule the core checks.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh
plan 38

for sc in skeleton keyboard buggy samples/scenarios/skeleton.scn; do
	base=$(basename "$sc" .scn)
	"$US" sim "$sc" -w "$TMP/$base.pcapng" 2>"$TMP/err"
	check_eq "sim $sc exits 0" 0 $?
	check "sim $sc: no sanitizer report" no_sanitizer_report "$TMP/err"
	"$US" sim "$sc" -w "$TMP/$base-2.pcapng" 2>/dev/null
	check "sim $sc is deterministic (byte-identical capture)" \
	    cmp "$TMP/$base.pcapng" "$TMP/$base-2.pcapng"
	"$US" sim "$sc" >"$TMP/$base.txt" 2>/dev/null
done

for sc in skeleton keyboard; do
	n=$(grep -c 'RULE' "$TMP/$sc.txt")
	check_eq "sim $sc: no rule broken" 0 "$n"
done
check "sim skeleton: minor 192, /dev/usb/skel0" \
    grep -q 'minor=192 node=/dev/usb/skel0' "$TMP/skeleton.txt"
check "sim skeleton: disconnect" \
    grep -q 'USB Skeleton #192 now disconnected' "$TMP/skeleton.txt"
for k in h e l o; do
	check "sim keyboard: key $k logged" \
	    grep -q "key down: $k\$" "$TMP/keyboard.txt"
done
for rule in submit-active-urb probe-error-leftovers gfp-kernel-in-atomic \
    sleep-in-atomic spin-lock-recursion spin-unlock-unlocked \
    intfdata-after-disconnect minor-leak urbs-in-flight-after-disconnect \
    intfdata-read-after-disconnect submit-after-disconnect \
    resubmit-on-shutdown; do
	check "sim buggy: rule $rule" grep -q "RULE $rule:" "$TMP/buggy.txt"
done

printf '%s\n' 'load usb-skeleton' 'plug 1 loopback' 'settle 1' \
    'open /dev/usb/skel0' 'read /dev/usb/skel0 4 nope' >"$TMP/bad.scn"
"$US" sim "$TMP/bad.scn" >/dev/null 2>"$TMP/err"
check_eq "a read of the wrong data exits 1" 1 $?
check "a read of the wrong data: file and line named" \
    grep -q 'bad.scn:5: read /dev/usb/skel0' "$TMP/err"
printf 'load usbfoo\n' >"$TMP/bad2.scn"
"$US" sim "$TMP/bad2.scn" >/dev/null 2>"$TMP/err"
check "an unknown driver is named with the known ones" \
    grep -q "bad2.scn:1: no driver 'usbfoo' (usb-skeleton, keyboard, buggy, gamepad, cdc-acm, uac2, btusb)" \
    "$TMP/err"

# A driver's submit comes just before the 'S' it made (the core reports
# the call after the usbmon hook), and a submit refused before the HCD
# (the buggy driver's second submit of an URB in flight, -EBUSY) made no
# 'S': usbmon records 'S' only in usb_hcd_submit_urb (drivers/usb/core/
# hcd.c), then 'E' when the HCD refuses the URB.  So a successful
# submit's next record is its 'S', never another call's event.
for sc in buggy skeleton keyboard; do
	"$US" sim "$sc" -T json >"$TMP/$sc.json" 2>/dev/null
	check "sim $sc: each successful submit is followed by its 'S'" \
	    python3 -c '
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
bad = 0
for o, n in zip(recs, recs[1:]):
    if o.get("event") != "submit" or o["result"] != 0:
        continue
    if "event" in n or n["usb.urb_type"] != "S" or \
            int(n["usb.urb_id"], 16) != int(o["usb.urb_id"], 16):
        print("record %d: submit -> 0, then %s" % (o["frame.number"],
              n.get("summary")))
        bad += 1
sys.exit(1 if bad else 0)
' "$TMP/$sc.json"
done
