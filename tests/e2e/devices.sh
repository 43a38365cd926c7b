#!/bin/sh
# tests/e2e/devices.sh - `urbscope devices`: options, the live listing
# where there is no USB (this machine), and the listing and -v descriptors
# of a fake sysfs tree built from the Linux 6.1 QEMU guest's sysfs dump,
# compared field by field with that guest's `lsusb -v`.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh
plan 79

FX=tests/fixtures/sysfs
ROOT=$TMP/sys
python3 "$FX/mktree.py" "$FX/sysfs-usb-initial.txt" "$ROOT"
check_eq "fixture tree built" 16 "$(ls "$ROOT/bus/usb/devices" | wc -l)"

# --help and bad usage.
"$US" devices --help >"$TMP/out" 2>&1
check_eq "--help exits 0" 0 $?
check "--help names -v, -s, -d and --sysfs" \
    grep -q -- '-s \[\[bus\]:\]\[devnum\].*-d vendor:\[product\]' "$TMP/out"
check "--help documents --sysfs" grep -q -- '--sysfs ROOT' "$TMP/out"
check "--help documents -t" grep -q -- '-t  .*tree' "$TMP/out"
for bad in "-s x" "-s 1:200" "-s 1:2:3" "-d 0627" "-d 12345:1" "-d :1" \
    "-d 0627:xyz" "extra"; do
	# shellcheck disable=SC2086
	"$US" devices $bad >/dev/null 2>"$TMP/err"
	check_eq "devices $bad exits 2" 2 $?
done
"$US" devices -d 0627 2>"$TMP/err" >/dev/null
check "bad -d says what it wants" grep -q 'vendor:\[product\] in hex' \
    "$TMP/err"

# Live: no USB here.  Either devices or a clear message; exit 0.
for v in "" "-v"; do
	# shellcheck disable=SC2086
	"$US" devices $v >"$TMP/out" 2>"$TMP/err"
	rc=$?
	if [ -s "$TMP/out" ]; then
		check_eq "live devices $v lists (exit 0)" 0 $rc
		check "live devices $v: Bus lines" \
		    grep -q '^Bus [0-9]\{3\} Device' "$TMP/out"
	else
		check_eq "live devices $v with no USB exits 0" 0 $rc
		check "live devices $v says so" \
		    grep -q 'no USB devices found\|cannot initialise libusb' \
		    "$TMP/err"
	fi
	check "live devices $v: no sanitizer report" no_sanitizer_report \
	    "$TMP/err"
done

# No USB: a sysfs without bus/usb (a machine without a USB controller)
# has no devices, and every listing says so alike, exit 0; a tree that
# is no sysfs (no bus/) is an error, alike too, exit 1.  Live, this
# machine's answers agree with each other as well.
mkdir -p "$TMP/nousb/bus/pci"
for root in "$TMP/nousb" "$TMP/none" live; do
	sysfs="--sysfs $root"
	[ "$root" = live ] && sysfs=
	for v in "" -t --why -v; do
		# shellcheck disable=SC2086
		"$US" devices $sysfs $v >"$TMP/out" 2>"$TMP/err"
		echo "rc=$? out=$(wc -c <"$TMP/out")" >>"$TMP/err"
		if [ -z "$v" ]; then
			cp "$TMP/err" "$TMP/err0"
			continue
		fi
		check_diff "devices ${root##*/} $v answers as plain devices" \
		    "$TMP/err0" "$TMP/err"
	done
	case $root in
	*/nousb) check_eq "no USB: the message and exit 0" \
	    "urbscope: no USB devices found (no $root/bus/usb: no USB controller, or usbcore not loaded)|rc=0 out=0" \
	    "$(tr '\n' '|' <"$TMP/err0" | sed 's/|$//')" ;;
	*/none) check "no sysfs: exit 1" grep -q '^rc=1 out=0$' "$TMP/err0" ;;
	esac
done

# --sysfs: an absent tree is an error that says what to check.
"$US" devices --sysfs "$TMP/none" >/dev/null 2>"$TMP/err"
check_eq "--sysfs absent exits 1" 1 $?
check "--sysfs absent: message" grep -q \
    "$TMP/none/bus/usb/devices: no such directory (is sysfs mounted?)" \
    "$TMP/err"
mkdir -p "$TMP/empty/bus/usb/devices"
"$US" devices --sysfs "$TMP/empty" >"$TMP/out" 2>"$TMP/err"
check_eq "--sysfs empty exits 0" 0 $?
check "--sysfs empty: no USB devices found" grep -q 'no USB devices found' \
    "$TMP/err"
# with no device at all, -s and -d match nothing: 1, as the man page says
for sel in "-s 1:2" "-d 0627:0001"; do
	# shellcheck disable=SC2086
	"$US" devices --sysfs "$TMP/empty" $sel >"$TMP/out" 2>"$TMP/err"
	check_eq "--sysfs empty $sel exits 1" 1 $?
done

# The listing, without usb.ids: the header lines are lsusb's exactly (the
# guest had no usb.ids either), then port, speed and interface drivers.
export URBSCOPE_USB_IDS=/nonexistent
"$US" devices --sysfs "$ROOT" >"$TMP/out" 2>"$TMP/err"
check_eq "--sysfs listing exits 0" 0 $?
check "--sysfs listing: no sanitizer report" no_sanitizer_report "$TMP/err"
grep '^Bus ' "$TMP/out" >"$TMP/ours.bus"
grep '^Bus ' "$FX/lsusb-v.txt" | sort >"$TMP/ls.bus"
check_diff "Bus lines equal lsusb's (sorted)" "$TMP/ls.bus" "$TMP/ours.bus"
cat >"$TMP/expect" <<'EOF'
    port usb1 (root hub), 480M, if 0 hub
    port 1-1, 480M, if 0 usb-storage
    port 1-2, 480M, if 0 usbhid
    port 1-3, 480M, if 0 usbhid
    port 1-4, 480M, if 0 uas
    port usb2 (root hub), 12M, if 0 hub
    port 2-1, 12M, if 0 hub
    port 2-1.1, 12M, if 0 ftdi_sio
EOF
grep '^    port ' "$TMP/out" >"$TMP/ours.port"
check_diff "port, speed and drivers" "$TMP/expect" "$TMP/ours.port"

# -v: every field of lsusb's descriptor sections, same value, same order.
"$US" devices --sysfs "$ROOT" -v >"$TMP/v.out" 2>"$TMP/err"
check_eq "--sysfs -v exits 0" 0 $?
check "--sysfs -v: no sanitizer report" no_sanitizer_report "$TMP/err"
python3 "$FX/lscompare.py" "$FX/lsusb-v.txt" "$TMP/v.out" >"$TMP/cmp"
rc=$?
tail -n 1 "$TMP/cmp" | sed 's/^/# lsusb -v: /'
check_eq "-v agrees with lsusb -v on every descriptor field" 0 $rc
[ $rc -eq 0 ] || sed 's/^/#   /' "$TMP/cmp" | head -n 20
check "-v compared the 8 devices' 379 fields" \
    grep -q '^379 fields compared, 379 equal' "$TMP/cmp"
# The comparison itself sees a changed value.
sed 's/^\(        bInterval  *\)7$/\18/' "$TMP/v.out" >"$TMP/v.bad"
python3 "$FX/lscompare.py" "$FX/lsusb-v.txt" "$TMP/v.bad" >"$TMP/cmp"
check_eq "the comparison catches a wrong bInterval" 1 $?
check "the comparison names it" grep -q 'bInterval: lsusb 7, ours 8' \
    "$TMP/cmp"
check "-v: HID report line as lsusb" grep -q \
    '^         Report Descriptors: $' "$TMP/v.out"
check "-v: UAS pipes as lsusb" grep -q '^        Data-out pipe (0x04)$' \
    "$TMP/v.out"
check "-v: strings from sysfs" grep -q \
    '^  iSerial                11 68284-0000:00:03.0-2$' "$TMP/v.out"

# Names from usb.ids when it is there.
unset URBSCOPE_USB_IDS
ids=
for f in /usr/share/hwdata/usb.ids /usr/share/misc/usb.ids \
    /var/lib/usbutils/usb.ids; do
	[ -r "$f" ] && ids=$f && break
done
if [ -n "$ids" ]; then
	"$US" devices --sysfs "$ROOT" -s 1:3 >"$TMP/out" 2>&1
	want="Bus 001 Device 003: ID 0627:0001 Adomax Technology Co., Ltd"
	check_eq "usb.ids vendor, device's product string" \
	    "$want QEMU USB Keyboard" "$(head -n 1 "$TMP/out")"
	"$US" devices --sysfs "$ROOT" -v -s 1:1 >"$TMP/out" 2>&1
	check "-v: idProduct named from usb.ids" grep -q \
	    '^  idProduct          0x0002 2.0 root hub$' "$TMP/out"
else
	skip "usb.ids names" "no usb.ids (Debian package usb.ids)" 2
fi

# -s and -d select as lsusb's do.
sel() {
	"$US" devices --sysfs "$ROOT" "$@" 2>/dev/null | grep '^Bus ' |
	    cut -c1-32 | tr '\n' ' '
}
check_eq "-s 1:3" "Bus 001 Device 003: ID 0627:0001 " "$(sel -s 1:3)"
check_eq "-s 3 (any bus)" \
    "Bus 001 Device 003: ID 0627:0001 Bus 002 Device 003: ID 0403:6001 " \
    "$(sel -s 3)"
check_eq "-s :2" \
    "Bus 001 Device 002: ID 46f4:0001 Bus 002 Device 002: ID 0409:55aa " \
    "$(sel -s :2)"
check_eq "-s 2: (a whole bus)" 3 "$(sel -s 2: | grep -o Bus | wc -l)"
check_eq "-d 0627:" 2 "$(sel -d 0627: | grep -o Bus | wc -l)"
check_eq "-d 46F4:0003" "Bus 001 Device 005: ID 46f4:0003 " \
    "$(sel -d 46F4:0003)"
check_eq "-d and -s together" "Bus 001 Device 004: ID 0627:0001 " \
    "$(sel -d 0627:0001 -s 4)"
"$US" devices --sysfs "$ROOT" -d 1234:5678 >"$TMP/out" 2>"$TMP/err"
check_eq "-d matching nothing exits 1" 1 $?
check "-d matching nothing says so" grep -q 'no device matches' "$TMP/err"

# -t: the tree of lsusb -t.  The QEMU guest of tests/data/linux61-classes
# printed both usb-devices and lsusb -t: a tree built from the first
# (usbdevices.py; the controllers' drivers, which usb-devices does not
# show, are the guest's modules ehci-pci and uhci_hcd) gives the second,
# line for line.  lsusb 014 leaves some siblings in directory order; ours
# are by port, so the lines are compared sorted, then in our order.
CL=tests/data/linux61-classes
python3 "$FX/usbdevices.py" "$CL/usb-devices.txt" >"$TMP/classes.dump"
python3 "$FX/mktree.py" "$TMP/classes.dump" "$TMP/csys"
for pci in 0000:00:03.0=ehci-pci 0000:00:04.0=uhci_hcd; do
	mkdir -p "$TMP/csys/bus/pci/drivers/${pci#*=}"
	ln -s "../../../bus/pci/drivers/${pci#*=}" \
	    "$TMP/csys/devices/pci0000:00/${pci%=*}/driver"
done
export URBSCOPE_USB_IDS=/nonexistent
"$US" devices -t --sysfs "$TMP/csys" >"$TMP/t.out" 2>"$TMP/err"
check_eq "-t exits 0" 0 $?
check "-t: no sanitizer report" no_sanitizer_report "$TMP/err"
sort "$CL/lsusb-t.txt" >"$TMP/t.want"
sort "$TMP/t.out" >"$TMP/t.got"
check_diff "-t: the guest's lsusb -t lines" "$TMP/t.want" "$TMP/t.got"
cat >"$TMP/expect" <<'EOF'
/:  Bus 01.Port 1: Dev 1, Class=root_hub, Driver=ehci-pci/6p, 480M
    |__ Port 1: Dev 2, If 0, Class=, Driver=usbhid, 480M
    |__ Port 2: Dev 3, If 0, Class=, Driver=, 480M
/:  Bus 02.Port 1: Dev 1, Class=root_hub, Driver=uhci_hcd/2p, 12M
    |__ Port 1: Dev 2, If 0, Class=, Driver=snd-usb-audio, 12M
    |__ Port 1: Dev 2, If 1, Class=, Driver=snd-usb-audio, 12M
    |__ Port 2: Dev 3, If 0, Class=, Driver=hub/8p, 12M
        |__ Port 1: Dev 4, If 0, Class=, Driver=cdc_ether, 12M
        |__ Port 1: Dev 4, If 1, Class=, Driver=cdc_ether, 12M
        |__ Port 2: Dev 5, If 0, Class=, Driver=, 12M
        |__ Port 3: Dev 6, If 0, Class=, Driver=usbhid, 12M
EOF
check_diff "-t: buses, ports and interfaces in order" "$TMP/expect" \
    "$TMP/t.out"
# -v lists every alternate setting with its endpoints, as lsusb -v: the
# classes guest's audio device (interface 1: alt 0 without endpoints, alt
# 1 with the isochronous OUT one) and network device (two
# configurations; CDC data in alt 0 and 1), their descriptors as the
# guest's capture has them (capdesc.py: the GET_DESCRIPTOR answers of
# records 152, 160 and 375, 385, 389).
D=$TMP/csys/devices/pci0000:00/0000:00:04.0/usb2
python3 "$FX/capdesc.py" --raw "$CL/classes.pcapng" 152 160 \
    >"$D/2-1/descriptors"
python3 "$FX/capdesc.py" --raw "$CL/classes.pcapng" 375 385 389 \
    >"$D/2-2/2-2.1/descriptors"
settings() {
	awk '/^Bus /{ print $1, $2, $3, $4 }
	    /^ +b(ConfigurationValue|InterfaceNumber|AlternateSetting) / ||
	    /^ +bEndpointAddress / { print $1, $2 }' "$1"
}
awk '/^Bus /{ keep = /^Bus 002 Device 00[24]:/ } keep' "$CL/lsusb-v.txt" \
    >"$TMP/ls.v"
for s in 2:4 2:2; do
	"$US" devices --sysfs "$TMP/csys" -v -s $s
done >"$TMP/v.out" 2>"$TMP/err"
check "-v of the audio and network devices: no sanitizer report" \
    no_sanitizer_report "$TMP/err"
settings "$TMP/ls.v" >"$TMP/ls.set"
settings "$TMP/v.out" >"$TMP/v.set"
check_eq "lsusb -v lists 8 alternate settings and 7 endpoints there" \
    "8 7" "$(grep -c bAlternateSetting "$TMP/ls.set") $(grep -c \
    bEndpointAddress "$TMP/ls.set")"
check_diff "-v: every configuration, alternate setting and endpoint" \
    "$TMP/ls.set" "$TMP/v.set"

# The other guest's hub has its FTDI serial adapter below it; a device
# without interfaces (unconfigured) takes one line.
"$US" devices -t --sysfs "$ROOT" >"$TMP/t.out" 2>"$TMP/err"
check_eq "-t: a device behind a hub" \
    "        |__ Port 1: Dev 3, If 0, Class=, Driver=ftdi_sio, 12M" \
    "$(tail -n 1 "$TMP/t.out")"
mv "$ROOT/bus/usb/devices/2-1.1:1.0" "$TMP/ftdi-if"
"$US" devices -t --sysfs "$ROOT" >"$TMP/t.out" 2>"$TMP/err"
check_eq "-t, unconfigured device: one line" \
    "        |__ Port 1: Dev 3, 12M" "$(tail -n 1 "$TMP/t.out")"
mv "$TMP/ftdi-if" "$ROOT/bus/usb/devices/2-1.1:1.0"
if [ -n "$ids" ]; then
	unset URBSCOPE_USB_IDS
	"$US" devices -t --sysfs "$ROOT" >"$TMP/t.out" 2>&1
	check "-t: class names from usb.ids" grep -qx "    |__ Port 1: \
Dev 2, If 0, Class=Mass Storage, Driver=usb-storage, 480M" "$TMP/t.out"
	check "-t: a hub with its ports" grep -qx \
	    '    |__ Port 1: Dev 2, If 0, Class=Hub, Driver=hub/8p, 12M' \
	    "$TMP/t.out"
	export URBSCOPE_USB_IDS=/nonexistent
fi
for bad in "-t -v" "-t -s 1:2" "-t -d 0627:"; do
	# shellcheck disable=SC2086
	"$US" devices --sysfs "$ROOT" $bad >/dev/null 2>"$TMP/err"
	check_eq "devices $bad exits 2" 2 $?
done
check "-t with -d says why" grep -q -- '-t shows the whole tree' "$TMP/err"
"$US" devices -t --sysfs "$TMP/none" >/dev/null 2>"$TMP/err"
check_eq "-t, sysfs absent: exits 1" 1 $?
"$US" devices -t --sysfs "$TMP/empty" >"$TMP/out" 2>"$TMP/err"
check_eq "-t, no devices: exits 0, lists nothing" "0 0" \
    "$? $(wc -c <"$TMP/out")"

# Damaged descriptors files: every cut of the keyboard's, and junk.
K=$ROOT/devices/pci0000:00/0000:00:03.0/usb1/1-2/descriptors
cp "$K" "$TMP/kbd.desc"
size=$(wc -c <"$TMP/kbd.desc")
bad=0
n=0
for len in $(seq 0 "$size"); do
	head -c "$len" "$TMP/kbd.desc" >"$K"
	"$US" devices --sysfs "$ROOT" -v -s 1:3 >/dev/null 2>"$TMP/err"
	rc=$?
	n=$((n + 1))
	if [ $rc -ne 0 ] || ! no_sanitizer_report "$TMP/err"; then
		bad=$((bad + 1))
		echo "# cut at $len: exit $rc"
	fi
done
for junk in '\000\000\000\000' '\022\001' '\377\377\377\377\377\377' \
    '\011\002\377\377\001\001\000\200\062\002\000'; do
	printf "$junk" >"$K"
	"$US" devices --sysfs "$ROOT" -v -s 1:3 >/dev/null 2>"$TMP/err"
	rc=$?
	n=$((n + 1))
	if [ $rc -ne 0 ] || ! no_sanitizer_report "$TMP/err"; then
		bad=$((bad + 1))
		echo "# junk $junk: exit $rc"
	fi
done
check_eq "$n damaged descriptors files: no crash" 0 $bad
cp "$TMP/kbd.desc" "$K"
