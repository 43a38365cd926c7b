#!/bin/sh
# tests/e2e/why.sh - `urbscope devices --why`: on the fake sysfs tree of
# tests/fixtures/why/mkwhy.sh (the Linux 6.1 QEMU guest's class devices,
# with its bindings changed to show each case) and the fake modules tree
# tests/fixtures/why/modules (Debian 6.1's real alias lines), every
# interface is listed with its modalias, the modules whose aliases match
# (checked against python's fnmatch over the same files), how its driver
# bound and, for each unbound one, the one reason; then driver_override,
# an unauthorized device, built-in modules, selection and bad arguments.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh
plan 58

FX=tests/fixtures/why
MODS=$FX/modules
ROOT=$TMP/sys
export URBSCOPE_USB_IDS=/nonexistent
D=$ROOT/bus/usb/devices

# The modalias files of the tree are made as the kernel makes them: the
# same function gives the real guest's (tests/fixtures/sysfs) 8.
python3 - >"$TMP/ma" 2>&1 <<'EOF'
import sys
sys.path.insert(0, "tests/fixtures/sysfs")
import mktree, usbdevices
es = {e["name"]: e["attrs"] for e in
      mktree.entries("tests/fixtures/sysfs/sysfs-usb-initial.txt")}
n = bad = 0
for name, a in es.items():
    if ":" not in name:
        continue
    dev = name.split(":")[0]
    d = es["usb" + dev[:-2] if dev.endswith("-0") else dev]
    m = usbdevices.modalias(
        d["idVendor"], d["idProduct"], d["bcdDevice"], d["bDeviceClass"],
        d["bDeviceSubClass"], d["bDeviceProtocol"], a["bInterfaceClass"],
        a["bInterfaceSubClass"], a["bInterfaceProtocol"],
        a["bInterfaceNumber"])
    n += 1
    if m != a["modalias"]:
        bad += 1
        print(name, m, a["modalias"])
print(n, bad)
EOF
check_eq "fixture modaliases made as the kernel's (8 real ones)" "8 0" \
    "$(tail -n 1 "$TMP/ma")"

sh "$FX/mkwhy.sh" "$ROOT"
for i in "$D"/*:*; do
	echo "${i##*/}"
done | sort >"$TMP/want.names"
check_eq "fixture tree: 11 interfaces" 11 "$(wc -l <"$TMP/want.names")"

# --help
"$US" devices --help >"$TMP/out" 2>&1
check "--help documents --why" grep -q -- \
    '--why \[BUS-PORT\[:CONFIG.INTF\]\]  for each interface' "$TMP/out"
check "--help documents --modules" grep -q -- '--modules DIR' "$TMP/out"

run() {
	"$US" devices --sysfs "$ROOT" --modules "$MODS" "$@" \
	    >"$TMP/out" 2>"$TMP/err"
}
run --why
check_eq "--why exits 0" 0 $?
check "--why: no sanitizer report" no_sanitizer_report "$TMP/err"
check_eq "--why: nothing on stderr" "" "$(cat "$TMP/err")"
cp "$TMP/out" "$TMP/why.out"
sed 's/^/# /' "$TMP/why.out"

# Every interface, once; its modalias the tree's file.
grep -v '^ ' "$TMP/why.out" | cut -d' ' -f1 | sort >"$TMP/got.names"
check_diff "every interface listed once" "$TMP/want.names" \
    "$TMP/got.names"
bad=0
while read -r i; do
	got=$(grep "^$i " "$TMP/why.out" | awk '{ print $NF }')
	[ "$got" = "$(cat "$D/$i/modalias")" ] || {
		bad=$((bad + 1))
		echo "# $i: $got"
	}
done <"$TMP/want.names"
check_eq "each modalias shown is the tree's modalias file" 0 $bad

# The modules: python's fnmatch over the same files (kmod matches with
# fnmatch, no flags), each module once ('-' and '_' alike), in the files'
# order, built in / loaded (ROOT/module/NAME) / not loaded.
python3 - "$ROOT" "$MODS" >"$TMP/py.mods" <<'EOF'
import fnmatch, os, sys
root, mods = sys.argv[1], sys.argv[2]
aliases = []
for f, builtin in (("modules.alias", 0), ("modules.builtin.alias", 1)):
    p = os.path.join(mods, f)
    if os.path.exists(p):
        for line in open(p):
            w = line.split()
            if len(w) >= 3 and w[0] == "alias":
                aliases.append((w[1], w[2], builtin))
d = os.path.join(root, "bus/usb/devices")
for name in sorted(n for n in os.listdir(d) if ":" in n):
    ma = open(os.path.join(d, name, "modalias")).read().strip()
    seen = []
    for pat, mod, builtin in aliases:
        norm = mod.replace("-", "_")
        if norm in seen or not fnmatch.fnmatchcase(ma, pat):
            continue
        seen.append(norm)
        if builtin:
            st = "built in"
        elif os.path.isdir(os.path.join(root, "module", norm)):
            st = "loaded"
        else:
            st = "not loaded"
        print("%s %s (%s) alias %s" % (name, mod, st, pat))
    if not seen:
        print("%s (none)" % name)
EOF
awk '/^[^ ]/ { name = $1 } /^  module / { sub(/^  module +/, "");
    print name, $0 }' "$TMP/why.out" | sort >"$TMP/got.mods"
sort "$TMP/py.mods" >"$TMP/want.mods"
check_diff "module matches = python fnmatch over modules.alias, all 11" \
    "$TMP/want.mods" "$TMP/got.mods"
check_eq "python's matcher: 9 module matches on 8 interfaces" "9 8" \
    "$(grep -vc '(none)' "$TMP/want.mods") $(grep -v '(none)' \
    "$TMP/want.mods" | cut -d' ' -f1 | sort -u | wc -l)"

# one line of the output: field LABEL of interface I
line() {
	awk -v i="$1" -v l="$2" '/^[^ ]/ { on = $1 == i }
	    on && $1 == l { sub(/^  [a-z]+ +/, ""); print }' "${3:-$TMP/why.out}"
}
check_eq "hub bound through usbcore's alias" \
    "through alias usb:v*p*d*dc09dsc*dp*ic*isc*ip*in* of module usbcore" \
    "$(line 2-2:1.0 bound)"
check_eq "CDC Ethernet bound through cdc_ether's alias" \
    "through alias usb:v*p*d*dc*dsc*dp*ic02isc06ip00in* of module cdc_ether" \
    "$(line 2-2.1:1.0 bound)"
check "CDC data interface claimed by cdc_ether" grep -q \
    '^  bound       claimed: no alias of module cdc_ether matches and no dynamic id' \
    "$TMP/why.out"
check_eq "bound through new_id" "through new_id (dynamic id 46f4 0004)" \
    "$(line 1-2:1.0 bound)"
check_eq "new_id's driver: no module matches" "(none)" \
    "$(line 1-2:1.0 module)"
check_eq "authorized line" "interface 1, device 1" \
    "$(line 2-2:1.0 authorized)"

# The reasons, one per unbound interface, none for a bound one.
cat >"$TMP/want.why" <<'EOF'
1-1:1.0 interface not authorized (authorized=0)
2-1:1.0 module snd_usb_audio matches but is not loaded
2-1:1.1 no module alias matches usb:v46F4p0002d0000dc00dsc00dp00ic01isc02ip00in01
2-2.2:1.0 no module alias matches usb:v08E6p4433d0000dc00dsc00dp00ic0Bisc00ip00in00
2-2.3:1.0 module usbhid is loaded but not bound (its probe failed, or the interface was unbound: see dmesg)
EOF
awk '/^[^ ]/ { name = $1 } /^  why / { sub(/^  why +/, ""); print name, $0 }' \
    "$TMP/why.out" >"$TMP/got.why"
check_diff "the 5 unbound interfaces' reasons" "$TMP/want.why" "$TMP/got.why"
check_eq "one reason a driverless interface, none a bound one" \
    "$(grep -c '^  driver      (none)$' "$TMP/why.out")" \
    "$(grep -c '^  why ' "$TMP/why.out")"

# Selection: a device, an interface, a root hub, with -s and -d.
sel() {
	run "$@"
	echo "$? $(grep -v '^ ' "$TMP/out" | cut -d' ' -f1 | tr '\n' ' ')"
}
check_eq "--why 2-2.1: its interfaces" "0 2-2.1:1.0 2-2.1:1.1 " \
    "$(sel --why 2-2.1)"
check_eq "--why 2-2.1:1.1: that one" "0 2-2.1:1.1 " "$(sel --why 2-2.1:1.1)"
check_eq "--why usb2: the root hub's" "0 2-0:1.0 " "$(sel --why usb2)"
check_eq "--why -s 2:4" "0 2-2.1:1.0 2-2.1:1.1 " "$(sel --why -s 2:4)"
check_eq "--why -d 46f4:" "0 1-2:1.0 2-1:1.0 2-1:1.1 " \
    "$(sel --why -d 46f4:)"
check_eq "--why 2-2.1 -d 0627: matches nothing" "1 " \
    "$(sel --why 2-2.1 -d 0627:)"
check "... and says so" grep -q 'no device matches' "$TMP/err"
awk '/^[^ ]/ { on = $1 == "2-2.1:1.1" } on' "$TMP/why.out" >"$TMP/one"
run --why 2-2.1:1.1
check_diff "--why of one interface: its lines of the whole listing" \
    "$TMP/one" "$TMP/out"

# Bad arguments.
for bad in 9-9 2-2.9 2-2.1:1.7 usb9; do
	run --why "$bad"
	check_eq "--why $bad exits 1" 1 $?
done
check "--why of no interface says so" grep -q \
    "devices: --why usb9: no such device in $ROOT/bus/usb/devices" \
    "$TMP/err"
run --why 2-2.1:1.7
check "--why of no interface says so" grep -q \
    "devices: --why 2-2.1:1.7: no such interface in $ROOT/bus/usb/devices" \
    "$TMP/err"
for bad in "2-2.1" "--why -v" "--why -t" "--why 2-2.1 2-2.2"; do
	# shellcheck disable=SC2086
	run $bad
	check_eq "devices $bad exits 2" 2 $?
done
"$US" devices --modules "$MODS" >/dev/null 2>"$TMP/err"
check_eq "--modules without --why exits 2" 2 $?
check "a device without --why says why" sh -c \
    "'$US' devices 2-2.1 2>&1 | grep -q 'only after --why'"

# No modules.alias: said once, and the rest shown; exit 0.
mkdir -p "$TMP/nomods"
"$US" devices --sysfs "$ROOT" --modules "$TMP/nomods" --why >"$TMP/out" \
    2>"$TMP/err"
check_eq "no modules.alias: exits 0" 0 $?
check_eq "no modules.alias: said once" \
    "urbscope: devices: no modules.alias in $TMP/nomods: module matches not shown" \
    "$(cat "$TMP/err")"
check_eq "no modules.alias: every interface still listed" 11 \
    "$(grep -c '^[^ ]' "$TMP/out")"
check_eq "no modules.alias: module lines say so" 11 \
    "$(grep -c '^  module      (not known: no modules.alias)$' "$TMP/out")"
check "no modules.alias: new_id still found" grep -q \
    'through new_id (dynamic id 46f4 0004)' "$TMP/out"
check "no modules.alias: the reason says so" grep -q \
    '^  why         no modules.alias: module matches not known$' "$TMP/out"
check "no modules.alias: authorization still a reason" grep -q \
    '^  why         interface not authorized (authorized=0)$' "$TMP/out"

# driver_override: "(null)" is none; a registered driver and an unknown.
C=$D/2-2.2:1.0
echo '(null)' >"$C/driver_override"
run --why 2-2.2
check "driver_override (null): no override line" sh -c \
    "! grep -q override '$TMP/out'"
echo cdc_acm >"$C/driver_override"
run --why 2-2.2
check_eq "driver_override line" "cdc_acm" \
    "$(line 2-2.2:1.0 override "$TMP/out")"
check_eq "driver_override of a registered driver" \
    "driver_override=cdc_acm, and cdc_acm is registered but not bound (its probe failed, or the interface was unbound: see dmesg)" \
    "$(grep '^  why' "$TMP/out" | sed 's/^  why  *//')"
echo foo >"$C/driver_override"
run --why 2-2.2
check_eq "driver_override of no driver" \
    "driver_override=foo, and no USB driver foo is registered (its module is not loaded?)" \
    "$(grep '^  why' "$TMP/out" | sed 's/^  why  *//')"
rm "$C/driver_override"

# The device not authorized: before everything else; and with no
# interfaces (the kernel leaves it unconfigured), a line of its own.
echo 0 >"$D/2-2.2/authorized"
run --why 2-2.2
check_eq "device not authorized" "device not authorized (authorized=0)" \
    "$(grep '^  why' "$TMP/out" | sed 's/^  why  *//')"
mv "$C" "$TMP/ccid-if"
run --why 2-2.2
check_eq "device not authorized, no interfaces" "0|2-2.2  device \
08e6:4433, no interfaces|  why         device not authorized (authorized=0)" \
    "$?|$(head -n 1 "$TMP/out")|$(tail -n 1 "$TMP/out")"
mv "$TMP/ccid-if" "$C"
echo 1 >"$D/2-2.2/authorized"

# A new_id for another interface class is not this interface's.
printf '46f4 0004 03\n' >"$ROOT/bus/usb/drivers/cdc_acm/new_id"
run --why 1-2
check "new_id of another class: not through new_id" grep -q \
    '^  bound       claimed: no alias of module cdc_acm' "$TMP/out"
printf '1234 5678 02\n46f4 0004\n' >"$ROOT/bus/usb/drivers/cdc_acm/new_id"

# A kernel with usbcore built in (CONFIG_USB=y, as many distributions):
# its aliases in modules.builtin.alias.
mkdir -p "$TMP/bmods"
grep -v ' usbcore$' "$MODS/modules.alias" >"$TMP/bmods/modules.alias"
{ cat "$MODS/modules.builtin.alias"; grep ' usbcore$' \
    "$MODS/modules.alias"; } >"$TMP/bmods/modules.builtin.alias"
mv "$D/2-2:1.0/driver" "$TMP/hub-link"
"$US" devices --sysfs "$ROOT" --modules "$TMP/bmods" --why >"$TMP/b.out" \
    2>"$TMP/err"
check_eq "built-in usbcore: exits 0" 0 $?
check_eq "built-in usbcore: the 3 hubs' module built in" 3 \
    "$(grep -c '^  module      usbcore (built in) alias' "$TMP/b.out")"
check_eq "built-in usbcore, hub unbound" \
    "module usbcore is built in but not bound (its probe failed, or the interface was unbound: see dmesg)" \
    "$(line 2-2:1.0 why "$TMP/b.out")"
mv "$TMP/hub-link" "$D/2-2:1.0/driver"

# Live: sysfs (or its absence here) and the running kernel's modules.
"$US" devices --why >"$TMP/out" 2>"$TMP/err"
rc=$?
check "live --why: exit 0, or 1 saying there is no sysfs" sh -c \
    "[ $rc -eq 0 ] || grep -q 'no such directory' '$TMP/err'"
check "live --why: no sanitizer report" no_sanitizer_report "$TMP/err"
