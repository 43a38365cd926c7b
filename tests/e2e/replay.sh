#!/bin/sh
# tests/e2e/replay.sh - `urbscope replay` where no USB device is (this
# machine has none; tests/kernel/guest-replay.sh replays to QEMU's keyboard
# and disk): --dry-run says, for each transfer of the capture's device in
# completion order, what it would send and expect or why not (SET_ADDRESS
# never, SET_CONFIGURATION only to another configuration, the enumeration's
# standard OUT requests, vendor OUT only with --allow-state, cancelled URBs
# counted, isochronous ones packet by packet); -Y, -d, --from choose;
# usage errors exit 2, a device not here 3, a capture with no such
# device 1.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh

plan 22

kb=samples/hid-keyboard.pcap
"$US" replay --dry-run "$kb" >"$TMP/dry" 2>"$TMP/err"
check_eq "--dry-run: exit 0" 0 $?
check "--dry-run: the device, its transfers" grep -qx \
    "would replay device 1.2 (1209:0001) of $kb: 25 transfers" "$TMP/dry"
check "--dry-run: a request with its setup, what it expects, its decode" \
    grep -qx "record 100: send control 81 06 2200 0000 003f, expect 63 bytes: GET_DESCRIPTOR HID_REPORT intf 0 len 63 -> 63 bytes, 0.271 ms: HID_REPORT 63 bytes" \
    "$TMP/dry"
check "--dry-run: the reports, interrupt IN of 8 bytes each (12)" test \
    "$(grep -c '^record [0-9]*: send interrupt IN 0x81, 8 bytes, expect 8 bytes: ' "$TMP/dry")" \
    -eq 12
check "--dry-run: SET_CONFIGURATION only to another configuration" grep -qx \
    "record 94: SET_CONFIGURATION 1: not sent when the device is in configuration 1 already, otherwise only with --allow-state" \
    "$TMP/dry"
check "--dry-run: in completion order (the LED report before the last key's)" \
    sh -c "grep -o '^record [0-9]*' '$TMP/dry' | tail -n 2 | tr '\n' ' ' |
    grep -qx 'record 127 record 126 '"
"$US" replay --dry-run -Y 'usb.transfer_type == 2' "$kb" >"$TMP/ctl" 2>&1
check "-Y: only the control transfers" sh -c \
    "grep -qx 'would replay device 1.2 (1209:0001) of $kb: 13 transfers' '$TMP/ctl' &&
    ! grep -q interrupt '$TMP/ctl'"

# an FTDI serial adapter: its vendor OUT requests change its state
ser=tests/data/linux61/qemu-usb-serial.pcap
"$US" replay --dry-run "$ser" >"$TMP/ser" 2>&1
check "vendor OUT requests: not sent without --allow-state (18)" test \
    "$(grep -c '^record [0-9]*: not sent, changing the device.s state (--allow-state): ' "$TMP/ser")" \
    -eq 18
"$US" replay --dry-run --allow-state "$ser" >"$TMP/ser2" 2>&1
check "--allow-state: sent" test \
    "$(grep -c '^record [0-9]*: send control 40 ' "$TMP/ser2")" -eq 18
# QEMU's disk unplugged mid-transfer elsewhere: cancelled URBs counted
"$US" replay --dry-run samples/mass-storage.pcapng >"$TMP/msc" 2>&1
check "a disk: CBW, data, CSW on its bulk endpoints" sh -c \
    "grep -q '^record 98: send bulk OUT 0x02, 31 bytes, expect done: .*CBW tag 1 INQUIRY' '$TMP/msc' &&
    grep -q '^record 100: send bulk IN 0x81, 36 bytes, expect 36 bytes: ' '$TMP/msc'"
"$US" replay --dry-run --allow-state samples/mass-storage.pcapng \
    >"$TMP/msc2" 2>&1
check "a disk's WRITE(10)s, their data and status: only with --allow-state" \
    sh -c "test \$(grep -c '^record 1[456][0-9]: not sent, changing the device.s state (--allow-state): ' '$TMP/msc') -eq 6 &&
    grep -q '^record 148: not sent, .*CBW tag 10 WRITE(10) lba 8192' '$TMP/msc' &&
    grep -q '^record 152: not sent, .*CSW tag 10 WRITE(10) passed' '$TMP/msc' &&
    grep -q '^record 154: send bulk OUT 0x02, 31 bytes, .*CBW tag 11 READ(10)' '$TMP/msc' &&
    ! grep -q 'not sent, changing' '$TMP/msc2' &&
    grep -q '^record 150: send bulk OUT 0x02, 8192 bytes, ' '$TMP/msc2'"

# a capture cut short: what came before it, exit 1
head -c 9000 "$kb" >"$TMP/cut.pcap"
"$US" replay --dry-run "$TMP/cut.pcap" >"$TMP/cut" 2>"$TMP/err"
check "a capture cut short: exit 1, said, the transfers before the cut" \
    sh -c "test $? -eq 1 && grep -q '(the records before it are used)' '$TMP/err' &&
    tail -n 1 '$TMP/cut' | grep -q '^record 104: send interrupt IN 0x81'"

# isochronous: the packets of the recorded lengths, when the capture has
# every packet's descriptor (usbmon text keeps five)
"$US" replay --dry-run samples/iso.pcap >"$TMP/iso" 2>/dev/null
"$US" convert samples/iso.pcap -F usbmon -w "$TMP/iso.mon" 2>/dev/null
"$US" replay --dry-run "$TMP/iso.mon" >"$TMP/isot" 2>/dev/null
check "isochronous URBs sent packet by packet (10 IN, 5 OUT), not from usbmon text" \
    sh -c "test \$(grep -c '^record [0-9]*: send isochronous IN 0x81, 8 packets, 1600 bytes, expect ' '$TMP/iso') -eq 10 &&
    test \$(grep -c '^record [0-9]*: send isochronous OUT 0x02, 8 packets, 1536 bytes, expect done' '$TMP/iso') -eq 5 &&
    test \$(grep -c '^record [0-9]*: not sent, isochronous with its packets not in the capture: ' '$TMP/isot') -eq 15"

# choosing the device
"$US" replay --dry-run --from 1.2 "$kb" >"$TMP/from" 2>&1
check_diff "--from BUS.DEV: the capture's device at that address" \
    "$TMP/dry" "$TMP/from"
"$US" replay --dry-run -d 1209:0001 "$kb" >"$TMP/d" 2>&1
check_diff "-d VID:PID: the same" "$TMP/dry" "$TMP/d"
"$US" replay --dry-run -d ffff:0001 "$kb" >"$TMP/out" 2>"$TMP/err"
check "-d of no device in the capture: exit 1, said" sh -c \
    "test $? -eq 1 && grep -q 'no device ffff:0001 described itself in the capture' '$TMP/err'"
"$US" replay --dry-run --from 1.9 "$kb" >"$TMP/out" 2>"$TMP/err"
check "--from of no device in the capture: exit 1, said" sh -c \
    "test $? -eq 1 && grep -q \"device 1.9's device descriptor is not in the capture\" '$TMP/err'"

# no device here: exit 3, said, nothing hangs
"$US" replay --timeout 200 "$kb" >"$TMP/out" 2>"$TMP/err"
check_eq "no such device here: exit 3" 3 $?
check "... said" grep -q "replay: \(no device 1209:0001 here\|cannot initialise libusb\)" \
    "$TMP/err"

# usage
"$US" replay -d 1209:0001 -s 1:2 "$kb" >/dev/null 2>"$TMP/err"
check "-d and -s together: exit 2" sh -c "test $? -eq 2 &&
    grep -q 'replay: -d or -s, not both' '$TMP/err'"
"$US" replay -d 12:zz "$kb" >/dev/null 2>&1
rc1=$?
"$US" replay --timeout 0 "$kb" >/dev/null 2>&1
rc2=$?
"$US" replay >/dev/null 2>&1
rc3=$?
check "a bad -d, --timeout 0, no capture: exit 2 each" test \
    "$rc1$rc2$rc3" = 222
"$US" replay --help >"$TMP/help" 2>&1
check "--help: the usage and every option" sh -c \
    "grep -q '^usage: urbscope replay FILE' '$TMP/help' &&
    for o in -d -s --from -Y --dry-run --detach --allow-state --timeout -v; do
    grep -q \"^  \$o \" '$TMP/help' || exit 1; done"
