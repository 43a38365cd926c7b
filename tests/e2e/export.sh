#!/bin/sh
# tests/e2e/export.sh - `urbscope export --format c|python|syzkaller`:
# every capture of samples/ and tests/data either becomes a C program that
# compiles with cc -Wall -Wextra -Werror against libusb-1.0, a Python one
# that py_compile takes and a syzkaller one that tests/tools/syzcheck.py
# takes (syzkaller's program syntax, the layouts of its
# sys/linux/vusb.txt), or is refused for its reason (no device but hubs
# described itself); the checker rejects its mutations of a good program;
# the keyboard's syzkaller program emulates it (descriptors, the report
# descriptor, SET_IDLE and SET_REPORT, its reports); the programs of two captures read as the issue asks
# (the device's VID:PID, its configuration, its interfaces claimed, each
# transfer with its decoded request in a comment, the enumeration left
# out and counted); -s, -Y, -o; a program run where its device is not:
# exit status 2; no sanitizer report on the fuzzers' regression inputs.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh

captures=$(ls samples/*.pcap samples/*.pcapng samples/*.mon samples/*.txt \
    "$LINUX61"/*.pcap "$LINUX61"/*.bin "$LINUX61"/*.txt \
    tests/data/*/*.pcapng 2>/dev/null)
n=$(echo "$captures" | wc -l)
plan $((n + 26))

LIBUSB=$(pkg-config --cflags --libs libusb-1.0 2>/dev/null)
exported=0
for f in $captures; do
	b=$(basename "$f")
	"$US" export --format c "$f" -o "$TMP/x.c" 2>"$TMP/err"
	rc=$?
	"$US" export --format syzkaller "$f" -o "$TMP/x.syz" 2>"$TMP/serr"
	src=$?
	if [ $rc -ne 0 ]; then
		check "$b: refused, for its reason (syzkaller too)" sh -c \
		    "grep -q 'no device (but hubs) answered GET_DESCRIPTOR(DEVICE)' '$TMP/err' &&
		    test $src -ne 0 &&
		    grep -q 'no device (but hubs) answered GET_DESCRIPTOR(DEVICE)' '$TMP/serr'"
		continue
	fi
	exported=$((exported + 1))
	"$US" export --format python "$f" -o "$TMP/x.py" 2>>"$TMP/err"
	cat "$TMP/serr" >>"$TMP/err"
	check "$b: C compiles with -Wall -Wextra -Werror, Python with py_compile, syzkaller passes syzcheck.py" \
	    sh -c "cc -Wall -Wextra -Werror -o '$TMP/x' '$TMP/x.c' $LIBUSB &&
	    python3 -m py_compile '$TMP/x.py' && test $src -eq 0 &&
	    python3 tests/tools/syzcheck.py '$TMP/x.syz' &&
	    ! grep -q . '$TMP/err'"
done
check "most captures export (10 or more): $exported" test "$exported" -ge 10

# The keyboard of samples/hid-keyboard.pcap, as a program
"$US" export --format c samples/hid-keyboard.pcap >"$TMP/kb.c" 2>"$TMP/err"
check_eq "-o absent: to standard output, exit 0" 0 $?
check "the header: the device, its VID:PID, the enumeration left out" sh -c \
    "grep -q '^ \* device 1.2 (1209:0001): 18 transfers, in the order they completed;' '$TMP/kb.c' &&
    grep -q '^ \* left out: 7 of its enumeration, 0 cancelled, 0 isochronous.' '$TMP/kb.c' &&
    grep -q '^#define VID		0x1209' '$TMP/kb.c'"
check "SET_CONFIGURATION through libusb (none when the device is in it), then interface 0 claimed" sh -c \
    "grep -A1 'record 94: SET_CONFIGURATION 1 \*/' '$TMP/kb.c' |
    grep -q 'check(94, set_configuration(h, 1), 0, NULL, 0);' &&
    grep -q 'libusb_claim_interface(h, 0)' '$TMP/kb.c'"
check "the device by VID:PID and its descriptor (QEMU's keyboard and tablet share IDs), let go at the end" \
    sh -c "grep -q 'if (d.bcdDevice == 0x0100 && d.iManufacturer == 1 &&' '$TMP/kb.c' &&
    grep -q 'd.iProduct == 2 && d.iSerialNumber == 3) {' '$TMP/kb.c' &&
    grep -A3 '^release(libusb_device_handle \*h)' '$TMP/kb.c' | grep -q 'libusb_release_interface(h, 0);' &&
    grep -q '^	release(h);' '$TMP/kb.c'"
check "a class request with its decode in a comment, its data in an array" \
    sh -c "grep -q '/\* record 102: SET_REPORT output id 0 intf 0 len 1: LEDs none \*/' '$TMP/kb.c' &&
    grep -q 'memcpy(buf, out_102, 1);' '$TMP/kb.c'"
check "the reports: interrupt IN, each checked against its recorded bytes" \
    sh -c "grep -q '/\* record 104: \[intf 0 HID\] IN request 8 -> \[intf 0 HID\] 8 bytes, 1.235 s: keys h \*/' '$TMP/kb.c' &&
    grep -q 'check(104, xfer(h, 0x81, 1, 8), 8, in_104, 8);' '$TMP/kb.c' &&
    test \$(grep -c 'xfer(h, 0x81, 1, 8)' '$TMP/kb.c') -eq 12"
check "no SET_ADDRESS, no enumeration request" sh -c \
    "! grep -q 'SET_ADDRESS\|record 3[0-9]:' '$TMP/kb.c'"
cc -Wall -Wextra -Werror -o "$TMP/kb" "$TMP/kb.c" $LIBUSB 2>/dev/null
"$TMP/kb" >"$TMP/out" 2>&1
check_eq "the program where its device is not: exit 2" 2 $?

# The disk of samples/mass-storage.pcapng: its SCSI commands named
"$US" export --format c samples/mass-storage.pcapng -o "$TMP/ms.c" \
    2>"$TMP/err"
check "the disk: each CBW's command in its comment" sh -c \
    "grep -q 'OUT 31 bytes: CBW tag 2 TEST UNIT READY, no data \*/' '$TMP/ms.c' &&
    grep -q 'CBW tag 3 REQUEST SENSE, IN 96 bytes \*/' '$TMP/ms.c'"
check "the disk: a short IN (-EREMOTEIO) is the 18 bytes libusb gives" \
    grep -q 'check(110, xfer(h, 0x81, 0, 96), 18, in_110, 18);' "$TMP/ms.c"
"$US" export --format python samples/mass-storage.pcapng -o "$TMP/ms.py"
check "python: bulk OUT and IN through pyusb, checked" sh -c \
    "grep -q 'check(104, lambda: dev.write(0x02, OUT_104, TIMEOUT),' '$TMP/ms.py' &&
    grep -q 'check(110, lambda: dev.read(0x81, 96, TIMEOUT),' '$TMP/ms.py'"

# QEMU's own capture reuses URB ids: each completion with its submission
"$US" export --format c "$LINUX61/qemu-usb-serial.pcap" -o "$TMP/qs.c" \
    2>"$TMP/err"
check "QEMU's capture (URB ids reused): each call with its own request and answer" \
    sh -c "grep -A1 'record 24: FTDI_GET_LATENCY_TIMER' '$TMP/qs.c' | grep -q 'check(24, libusb_control_transfer(h, 0xc0, 0x0a, 0x0000, 0x0000, buf, 1, TIMEOUT), 1, in_24, 1);' &&
    grep -A1 'record 22: SET_CONFIGURATION 1 \*/' '$TMP/qs.c' | grep -q 'set_configuration(h, 1)'"

# a capture cut short: the program of the records before the cut, exit 1
head -c 9000 samples/hid-keyboard.pcap >"$TMP/cut.pcap"
"$US" export --format c "$TMP/cut.pcap" -o "$TMP/cut.c" 2>"$TMP/err"
check "a capture cut short: exit 1, said, the records before it exported" \
    sh -c "test $? -eq 1 && grep -q 'the file ends inside the record (61 of 80 bytes) (the records before it are used)' '$TMP/err' &&
    grep -q 'check(104, xfer(h, 0x81, 1, 8), 8, in_104, 8);' '$TMP/cut.c' &&
    cc -Wall -Wextra -Werror -o '$TMP/cut' '$TMP/cut.c' $LIBUSB"

# -Y and -s
"$US" export --format c samples/hid-keyboard.pcap \
    -Y '!(usb.bmRequestType == 0x21)' -o "$TMP/y.c" 2>"$TMP/err"
check "-Y: only the records it shows (no HID class request)" sh -c \
    "grep -q '^ \* device 1.2 (1209:0001): 15 transfers' '$TMP/y.c' &&
    ! grep -q 'SET_REPORT\|SET_IDLE' '$TMP/y.c'"
"$US" export --format c samples/hid-keyboard.pcap -s 1.9 >"$TMP/out" \
    2>"$TMP/err"
check "-s a device not there: exit 1, said" sh -c \
    "test $? -eq 1 && grep -q \"device 1.9's device descriptor is not in the capture\" '$TMP/err'"
"$US" export --format c samples/hid-keyboard.pcap -s bogus >/dev/null \
    2>&1
check_eq "-s not BUS.DEV: exit 2" 2 $?

# syzkaller: the checker first, then what the keyboard's program says
python3 tests/tools/syzcheck.py --self-test >"$TMP/st" 2>&1
check "syzcheck.py: its good program passes, each of its mutations fails" \
    sh -c "test \$(grep -c '^ok - rejected' '$TMP/st') -ge 25 &&
    ! grep -q '^not ok' '$TMP/st'"
"$US" export --format syzkaller samples/hid-keyboard.pcap -o "$TMP/kb.syz" \
    2>"$TMP/err"
python3 tests/tools/syzcheck.py --self-test "$TMP/kb.syz" >"$TMP/st" 2>&1
check "syzcheck.py: the keyboard's program passes, its mutations fail" \
    sh -c "test \$(grep -c '^ok - rejected' '$TMP/st') -ge 20 &&
    ! grep -q '^not ok' '$TMP/st'"
check "syzkaller: the device descriptor (1209:0001, full speed) and its 34-byte configuration, dev_len 52" \
    grep -q '^r0 = syz_usb_connect(0x2, 0x34, &(0x7f0000000000)=ANY=\[@ANYBLOB="1201000200000040091201000001010203010902220001' \
    "$TMP/kb.syz"
check "syzkaller: its four string descriptors, the language 0x409 first" \
    grep -q '0x4, \[{0x4, &(0x7f00000000c0)={0x4, 0x3, 0x409, ""}}, {0x12, ' \
    "$TMP/kb.syz"
check "syzkaller: the HID report descriptor, the answer to record 100" \
    sh -c "grep -A1 '^# record 100: GET_DESCRIPTOR HID_REPORT intf 0 len 63' '$TMP/kb.syz' |
    grep -q '^syz_usb_control_io(r0, &(0x7f0000000000)={0x2c, &(0x7f0000000040)=ANY=\[@ANYBLOB=\"00223f00000005010906a101'"
check "syzkaller: SET_IDLE and SET_REPORT taken, no answer" sh -c \
    "grep -A1 '^# record 98: SET_IDLE infinite id 0 intf 0' '$TMP/kb.syz' | grep -q '^syz_usb_control_io(r0, 0x0, 0x0)' &&
    grep -A1 '^# record 102: SET_REPORT output id 0 intf 0 len 1: LEDs none' '$TMP/kb.syz' | grep -q '^syz_usb_control_io(r0, 0x0, 0x0)' &&
    ! grep -q '^# record [0-9]*: SET_\(CONFIGURATION\|ADDRESS\)' '$TMP/kb.syz'"
check "syzkaller: the 12 reports written to endpoint 0x81, h first" sh -c \
    "test \$(grep -c '^syz_usb_ep_write(r0, 0x81, 0x8, ' '$TMP/kb.syz') -eq 12 &&
    grep -A1 '^# record 104: ' '$TMP/kb.syz' | grep -q '=\"00000b0000000000\")$'"
"$US" export --format syzkaller samples/mass-storage.pcapng \
    -o "$TMP/ms.syz" 2>"$TMP/err"
check "syzkaller: the disk at high speed, GET_MAX_LUN's answer, a CBW read" \
    sh -c "grep -q '^r0 = syz_usb_connect(0x3, ' '$TMP/ms.syz' &&
    grep -q '={0xb4, &(0x7f00000000c0)={0x20, 0xfe, 0x1, \"00\"}, 0x0' '$TMP/ms.syz' &&
    grep -q '^syz_usb_ep_read(r0, 0x2, 0x1f, &(0x7f0000000000)=\"\"/31)' '$TMP/ms.syz'"

# no sanitizer report on the fuzzers' inputs
: >"$TMP/err"
for f in tests/fuzz/regress/*; do
	"$US" export --format c "$f" -o "$TMP/z.c" 2>>"$TMP/err"
	"$US" export --format python "$f" -o "$TMP/z.py" 2>>"$TMP/err"
	"$US" export --format syzkaller "$f" -o "$TMP/z.syz" 2>>"$TMP/err"
done
check "the fuzzers' regression inputs: no sanitizer report" \
    no_sanitizer_report "$TMP/err"
