#!/bin/sh
# tests/e2e/serve.sh - `urbscope serve`: device models over USB/IP, driven
# by a client that speaks the protocol as Linux's usbip tool and
# vhci-hcd do (tests/e2e/usbip-client.py): the device list; a disk
# imported, enumerated, and a block written and read back through SCSI
# over bulk-only transport; a STALL; an interrupt URB unlinked; a
# keyboard's reports; the refusals (no such device, already attached,
# garbage, a bad command) and a client gone mid-transfer, each leaving the
# server serving the others; SIGINT; a fault armed on a trigger (-i: a
# STALL on the second READ(10)'s CBW) and -i's refusals; -w, what the
# devices saw, as usbmon records from their side, read back and held
# against tshark; a device replayed from a capture (replay:FILE): a
# keyboard, a disk answered by SCSI content, and a webcam's isochronous
# video packet by packet, held against tshark.  A real kernel attaching
# these devices is tests/kernel/guest-serve.sh.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh
plan 59

if ! command -v python3 >/dev/null 2>&1; then
	skip_rest "serve" "no python3"
fi
# listening ERRFILE [TEXT]: until the server writing ERRFILE says it
# listens (or says TEXT)
listening() {
	i=0
	while ! grep -q "${2:-serving over USB/IP}" "$1" && [ $i -lt 100 ]; do
		sleep 0.1
		i=$((i + 1))
	done
}
client() {
	python3 tests/e2e/usbip-client.py "$PORT" "$1" >"$TMP/$1.out" \
	    2>"$TMP/$1.err"
}

# a port of our own (another test may run beside this one)
PORT=$((20000 + $$ % 20000))
"$US" serve -p "$PORT" -w "$TMP/dev.pcapng" disk:1M keyboard:@600000:x \
    keyboard:ab 2>"$TMP/serve.err" &
SRV=$!
listening "$TMP/serve.err"
check "serve says where it listens and what" grep -qx \
    "urbscope: serving over USB/IP on 127.0.0.1 port $PORT: 1-1 disk 1-2 keyboard 1-3 keyboard" \
    "$TMP/serve.err"

client devlist
check "devlist: three devices, version 1.1.1" grep -qx \
    "devlist: version 0x0111 code 0x0005 status 0, 3 devices" \
    "$TMP/devlist.out"
check "devlist: the disk's ids and its interface (08/06/50)" grep -qx \
    "device 1-1 1209:0002 config 0, 1 interfaces: 08/06/50" \
    "$TMP/devlist.out"
check "devlist: the connection closed after the answer" grep -qx \
    "devlist: then closed: True" "$TMP/devlist.out"

client disk
check "import 1-1: OP_REP_IMPORT status 0, bus 1 device 2, high speed" \
    grep -qx "import 1-1: busid 1-1 devid 1-2 speed 3 1209:0002" \
    "$TMP/disk.out"
check "the disk's descriptors over USB/IP" grep -qx \
    "GET_DESCRIPTOR config: status 0, 32 bytes (wTotalLength 32)" \
    "$TMP/disk.out"
check "SCSI INQUIRY over bulk-only transport" grep -qx \
    "INQUIRY: 'urbscopeSimulated Disk  ', CSW status 0, tag True" \
    "$TMP/disk.out"
check "a block written and read back equal" grep -qx \
    "READ(10) block 5: CSW status 0, equal True" "$TMP/disk.out"

client stall
check "a refused request: -EPIPE" grep -qx \
    "GET_DESCRIPTOR 0x42: status -32" "$TMP/stall.out"
check "the control endpoint works after the STALL" grep -qx \
    "then GET_STATUS: status 0" "$TMP/stall.out"

client unlink
check "CMD_UNLINK of a pending URB: -ECONNRESET, no RET_SUBMIT" grep -qx \
    "unlink of the pending interrupt IN: RET_UNLINK True, status -104" \
    "$TMP/unlink.out"
check "CMD_UNLINK of an URB not queued: status 0" grep -qx \
    "unlink of nothing: RET_UNLINK True, status 0" "$TMP/unlink.out"

client keys
check "the keyboard's reports: a, released, b, released" grep -qx \
    "reports: 0:0000040000000000 0:0000000000000000 0:0000050000000000 0:0000000000000000" \
    "$TMP/keys.out"

client nodev
check "import of no such device: status 1 (ST_NA), closed" sh -c \
    "grep -qx 'import 9-9: version 0x0111 code 0x0003 status 1' \
    '$TMP/nodev.out' && grep -qx 'then closed: True' '$TMP/nodev.out'"
client busy
check "import of an attached device: status 2 (busy)" grep -qx \
    "import 1-1: version 0x0111 code 0x0003 status 2" "$TMP/busy.out"
client garbage
check "garbage: closed, said on stderr" sh -c \
    "grep -qx 'garbage: closed: True' '$TMP/garbage.out' &&
    grep -q 'not a USB/IP request' '$TMP/serve.err'"
client badcmd
check "an unknown command after import: closed, said on stderr" sh -c \
    "grep -qx 'command 7: closed: True' '$TMP/badcmd.out' &&
    grep -q 'not a USB/IP command' '$TMP/serve.err'"
client vanish
client disk
check "a client gone mid-transfer: the server serves the next" grep -qx \
    "READ(10) block 5: CSW status 0, equal True" "$TMP/disk.out"

kill -INT "$SRV"
wait "$SRV"
check_eq "SIGINT: exit 0" 0 $?
# 12 (disk) + 2 (stall) + 2 (unlink) + 5 (keys) + 2 (vanish) + 12 (disk)
check "the URBs served counted" grep -qx "urbscope: 35 URBs served" \
    "$TMP/serve.err"
check "no sanitizer report" no_sanitizer_report "$TMP/serve.err"

# -w: the devices' side.  An S for each of the 35 URBs, a C for each but
# the one its client left pending (the unlinked one's: -ECONNRESET).
"$US" read "$TMP/dev.pcapng" >"$TMP/dev.txt" 2>"$TMP/dev.err"
check_eq "-w: the device's side reads back (exit 0)" 0 $?
check_eq "-w: an S record for each URB served" 35 \
    "$(grep -c ' S ' "$TMP/dev.txt")"
check_eq "-w: a C record for each answered or unlinked" 34 \
    "$(grep -c ' C ' "$TMP/dev.txt")"
check "-w: the SCSI commands the client sent, decoded" sh -c \
    "grep -q 'CBW tag 1 INQUIRY' '$TMP/dev.txt' &&
    grep -q 'CSW tag 3 READ(10) passed' '$TMP/dev.txt' &&
    grep -q 'C int  -ECONNRESET' '$TMP/dev.txt'"
if command -v tshark >/dev/null 2>&1; then
	f="-e usb.urb_id -e usb.urb_type -e usb.transfer_type"
	f="$f -e usb.endpoint_address -e usb.device_address -e usb.urb_status"
	f="$f -e usb.urb_len -e usb.data_len -e usb.bmRequestType"
	# shellcheck disable=SC2086
	tshark -r "$TMP/dev.pcapng" -T fields -E separator=/t $f \
	    >"$TMP/ts.f" 2>/dev/null
	# shellcheck disable=SC2086
	"$US" read "$TMP/dev.pcapng" -T fields $f >"$TMP/us.f" 2>/dev/null
	check_diff "-w: tshark reads the same URBs, field by field" \
	    "$TMP/ts.f" "$TMP/us.f"
else
	skip "-w: tshark reads the same URBs" "no tshark"
fi

# -i: a STALL armed on the second READ(10)'s CBW, as the scenarios' inject
PORT=$((PORT + 1))
"$US" serve -p "$PORT" -i '1 stall 0x02 1 on scsi 0x28 2' disk:1M \
    2>"$TMP/serve2.err" &
SRV=$!
listening "$TMP/serve2.err"
client stallcbw
check "-i: the first READ(10) goes through" grep -qx \
    "READ(10) 1: CSW status 0, 512 bytes" "$TMP/stallcbw.out"
check "-i: the second READ(10)'s CBW is STALLed (-EPIPE)" grep -qx \
    "READ(10) 2: CBW status -32" "$TMP/stallcbw.out"
check "-i: after CLEAR_FEATURE(ENDPOINT_HALT) the disk answers again" \
    sh -c "grep -qx 'CLEAR_FEATURE ENDPOINT_HALT 0x02: status 0' \
    '$TMP/stallcbw.out' &&
    grep -qx 'READ(10) 3: CSW status 0, 512 bytes' '$TMP/stallcbw.out'"
kill -INT "$SRV"
wait "$SRV"
check_eq "-i: SIGINT: exit 0" 0 $?
"$US" serve -i '1 stall on scsi' disk:1M >"$TMP/out" 2>&1
check "-i with a trigger but no opcode: exit 2, says the forms" sh -c \
    "test $? -eq 2 && grep -q 'on scsi OPCODE|any' '$TMP/out'"

# replay:FILE: samples/hid-keyboard.pcap's keyboard as it was recorded
PORT=$((PORT + 1))
"$US" serve -p "$PORT" 'replay:samples/hid-keyboard.pcap' \
    2>"$TMP/serve3.err" &
SRV=$!
listening "$TMP/serve3.err"
check "replay: says which device of the capture it plays" grep -qx \
    "urbscope: 1-1 replay: samples/hid-keyboard.pcap device 1.2, 1209:0001: 14 control answers recorded" \
    "$TMP/serve3.err"
client replay
check "replay: the recorded descriptors (string 2, the HID report's)" \
    sh -c "grep -qx \"string 2: 'Synthetic Boot Keyboard'\" '$TMP/replay.out' &&
    grep -qx 'HID report descriptor: 63 bytes' '$TMP/replay.out'"
check "replay: a request never recorded is STALLed" grep -qx \
    "a vendor request never recorded: status -32" "$TMP/replay.out"
check "replay: the recorded reports, in order (h, e, l, l, o)" grep -qx \
    "reports: 0:00000b0000000000 0:0000000000000000 0:0000080000000000 0:0000000000000000 0:00000f0000000000 0:0000000000000000 0:00000f0000000000 0:0000000000000000 0:0000120000000000 0:0000000000000000" \
    "$TMP/replay.out"
check "replay: the divergence said, with the request" grep -qx \
    "urbscope: 1-1 replay: request c0 42 0000 0000 0004 not in the recording: STALLed" \
    "$TMP/serve3.err"
kill -INT "$SRV"
wait "$SRV"
check_eq "replay: SIGINT: exit 0" 0 $?

# replay:FILE of a disk: a real capture's (QEMU's usb-storage under Linux
# 6.1, device 1.2, then formatted FAT and written), answered by SCSI
# content (samples/devices/replay-msc.c): our own tags, its blocks
PORT=$((PORT + 1))
"$US" serve -p "$PORT" "replay:$LINUX61/usbmon0.bin 1.2" \
    2>"$TMP/serve-rd.err" &
SRV=$!
listening "$TMP/serve-rd.err"
check "replay disk: the recorded commands and blocks counted" grep -qx \
    "urbscope: 1-1 replay: mass storage: 82 SCSI commands recorded, 616 blocks of 512 bytes" \
    "$TMP/serve-rd.err"
client replaydisk
check "replay disk: INQUIRY answered as recorded, with the host's tag" \
    grep -qx "INQUIRY: 'QEMU    QEMU HARDDISK   ', CSW status 0, our tag True" \
    "$TMP/replaydisk.out"
check "replay disk: TEST UNIT READY fails once with the recorded UNIT ATTENTION" \
    grep -qx "TEST UNIT READY 1, REQUEST SENSE key 6 asc 29, TEST UNIT READY 0" \
    "$TMP/replaydisk.out"
check "replay disk: the FAT root directory and hello.txt the recording wrote" \
    sh -c "grep -qx 'READ CAPACITY(10): 16384 blocks of 512' '$TMP/replaydisk.out' &&
    grep -q \"^READ(10) lba 258, 2 blocks: CSW status 0, True, 'hello from the USB capture rig\" '$TMP/replaydisk.out'"
check "replay disk: a block never recorded reads as zeros, said" sh -c \
    "grep -qx 'READ(10) lba 9000: CSW status 0, zeros True' '$TMP/replaydisk.out' &&
    grep -qx 'urbscope: 1-1 replay: SCSI 28 00 00 00 23 28 00 00 01 00 (lba 9000, 1 blocks): 1 of them not in the recording: zeros' '$TMP/serve-rd.err'"
check "replay disk: written, then read back equal" grep -qx \
    "WRITE(10) lba 9000 0, read back 0, equal True" "$TMP/replaydisk.out"
check "replay disk: a command never recorded: CHECK CONDITION, ILLEGAL REQUEST, said" \
    sh -c "grep -qx 'REPORT LUNS: CSW status 1, 0 bytes; REQUEST SENSE 0: key 5 asc 20' '$TMP/replaydisk.out' &&
    grep -qx 'urbscope: 1-1 replay: SCSI a0 00 00 00 00 00 00 00 00 10 00 00 not in the recording: CHECK CONDITION, ILLEGAL REQUEST' '$TMP/serve-rd.err'"
kill -INT "$SRV"
wait "$SRV"
check "replay disk: no sanitizer report" no_sanitizer_report \
    "$TMP/serve-rd.err"

# replay:FILE with isochronous IN: samples/uvc-webcam.pcapng's video
# stream, packet by packet, against tshark's reading of the same file
PORT=$((PORT + 1))
"$US" serve -p "$PORT" "replay:samples/uvc-webcam.pcapng" \
    2>"$TMP/serve-ri.err" &
SRV=$!
listening "$TMP/serve-ri.err"
client replayiso
check "replay iso: SET_INTERFACE to the streaming alternate setting" \
    grep -qx "SET_INTERFACE 1 alt 1: status 0" "$TMP/replayiso.out"
if command -v tshark >/dev/null 2>&1; then
	ISO="usb.transfer_type==0 && usb.urb_type==67 && usb.endpoint_address==0x81"
	want=$(tshark -r samples/uvc-webcam.pcapng -Y "$ISO" -T fields \
	    -e usb.iso.iso_len 2>/dev/null | paste -sd, -)
	check "replay iso: each packet's length as tshark reads it (48)" \
	    grep -qx "lengths: $want" "$TMP/replayiso.out"
	want=$(tshark -r samples/uvc-webcam.pcapng -Y "$ISO" -T fields \
	    -e usb.iso.data 2>/dev/null | python3 -c 'import hashlib, sys
print(hashlib.sha256(bytes.fromhex(sys.stdin.read().replace(",", "")
    .replace("\n", ""))).hexdigest())')
	check "replay iso: the packets' bytes as tshark reads them" \
	    grep -qx "data sha256: $want" "$TMP/replayiso.out"
else
	skip "replay iso: the packets as tshark reads them" "no tshark" 2
fi
check "replay iso: past the recording, zero-length packets, said" sh -c \
    "grep -qx 'past the recording: status 0, 0 bytes' '$TMP/replayiso.out' &&
    grep -qx 'urbscope: 1-1 replay: IN 0x81: the host reads on after the last of the 48 isochronous packets recorded: zero-length packets' '$TMP/serve-ri.err'"
kill -INT "$SRV"
wait "$SRV"
check "replay iso: no sanitizer report" no_sanitizer_report \
    "$TMP/serve-ri.err"

# -s SCENARIO: the device steps on the wall clock
PORT=$((PORT + 1))
cat >"$TMP/over-time.scn" <<'SCN'
# a keyboard settled by its host, then pulled out under it
plug 1 keyboard @600000:x
wait 2000
plug 2 disk 1M
settle 1
wait 300
unplug 1
plug 1 loopback
wait 200
SCN
"$US" serve -p "$PORT" -s "$TMP/over-time.scn" 2>"$TMP/serve4.err" &
SRV=$!
listening "$TMP/serve4.err" "1-1 plugged: keyboard"
client devlist
check "-s: the first plug served at once, the second not yet" grep -qx \
    "devlist: version 0x0111 code 0x0005 status 0, 1 devices" \
    "$TMP/devlist.out"
client unplugged
check "-s: settle waits for the host: imported and configured" grep -qx \
    "configured" "$TMP/unplugged.out"
check "-s: unplug ends the host's connection, its URB pending" grep -qx \
    "unplugged: closed by the server" "$TMP/unplugged.out"
client devlist
check "-s: after the unplug a loopback in its port, the disk as 1-2" sh -c \
    "grep -qx 'devlist: version 0x0111 code 0x0005 status 0, 2 devices' \
    '$TMP/devlist.out' && grep -q '^device 1-1 fff0:fff0 ' '$TMP/devlist.out' &&
    grep -q '^device 1-2 1209:0002 ' '$TMP/devlist.out'"
wait "$SRV"
check_eq "-s: the scenario's end ends the server, exit 0" 0 $?
check "-s: plug, unplug and the end said in order" sh -c \
    "grep -E '(plugged: .*|unplugged|scenario .* done)\$' '$TMP/serve4.err' |
    awk '{ print \$NF }' | tr '\n' ' ' |
    grep -qx 'keyboard disk unplugged loopback done '"
check "-s: no sanitizer report" no_sanitizer_report "$TMP/serve4.err"
printf 'plug 1 disk\nsettle 1\ndisk-read 1 0 1\n' >"$TMP/host.scn"
"$US" serve -p "$PORT" -s "$TMP/host.scn" >"$TMP/out" 2>&1
check "-s: a host step (disk-read) refused, exit 2, says why" sh -c \
    "test $? -eq 2 && grep -q \"host.scn:3: 'disk-read' needs the simulator's own host\" '$TMP/out'"
printf 'unplug 3\n' >"$TMP/bad.scn"
"$US" serve -p "$PORT" -s "$TMP/bad.scn" >"$TMP/out" 2>&1
check "-s: a step that fails: said with its line, exit 1" sh -c \
    "test $? -eq 1 && grep -q 'bad.scn:1: unplug 3: no device there' '$TMP/out'"
