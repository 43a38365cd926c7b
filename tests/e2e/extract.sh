#!/bin/sh
# tests/e2e/extract.sh - `urbscope extract`: one endpoint's payload stream
# against tshark's (usb.capdata, or usb.iso.data, of the records usb.src
# or usb.dst name, hex-decoded and concatenated), on real and generated
# captures; --interface on a serial adapter and a CDC-ACM device; -Y, -o -,
# --dir; the errors and their exit statuses; truncated records said.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh
plan 134

# the real Linux 6.1 session as pcap, for tshark (it has no file header)
"$US" convert "$LINUX61/usbmon0.bin" -w "$TMP/l61.pcap" 2>/dev/null
L61=$TMP/l61.pcap
# the bus-level CDC-ACM capture's transfers, as class-cdc.sh makes them
"$US" convert samples/usb-fs-acm.pcapng -y 220 -w "$TMP/acm.pcap" \
    2>/dev/null

# extract NAME FILE ARGS...: urbscope's stream into $TMP/us.bin, exit
# status in $rc, stderr in $TMP/err
extract() {
	name=$1
	f=$2
	shift 2
	"$US" extract "$f" "$@" -o "$TMP/us.bin" 2>"$TMP/err"
	rc=$?
	check "$name: no sanitizer report" no_sanitizer_report "$TMP/err"
}

if command -v tshark >/dev/null 2>&1 && command -v xxd >/dev/null; then
	have_tshark=1
else
	have_tshark=0
fi

# oracle FILE FIELD FILTER: tshark's bytes into $TMP/ts.bin.  The class
# dissectors that take the payload (mass storage, UAS, FTDI, HID, and the
# AT command heuristic, which claims some sectors of the disk) are off, so
# usb.capdata holds it.
oracle() {
	tshark --disable-protocol usbms --disable-protocol uasp \
	    --disable-protocol ftdi-ft --disable-protocol usbhid \
	    --disable-protocol at \
	    -r "$1" -Y "$3" -T fields -e "$2" 2>/dev/null |
	    tr -d '\n,' | xxd -r -p >"$TMP/ts.bin"
}

# same_as_tshark FILE EP in|out [FIELD [EXTRA_FILTER [ARGS...]]]
same_as_tshark() {
	f=$1
	ep=$2
	dir=$3
	field=${4:-usb.capdata}
	extra=${5:-}
	if [ $# -gt 5 ]; then shift 5; else shift $#; fi
	if [ "$dir" = in ]; then
		y="usb.src == \"$ep\""
	else
		# OUT data is the submit's (USBPcap: the FDO -> PDO IRP)
		y="usb.dst == \"$ep\" && (usb.urb_type == 'S' ||
		    usb.irp_info.direction == 0)"
	fi
	[ -n "$extra" ] && y="($y) && $extra"
	b=$(basename "$f")
	extract "$b $ep $dir" "$f" --endpoint "$ep" --dir "$dir" "$@"
	# the real usbmon capture has records the kernel cut (mon_bin keeps
	# at most a fifth of its buffer, 61440 bytes, of a 64 KiB read): 1,
	# and said
	if [ "$rc" = 1 ] && grep -q "captured short" "$TMP/err"; then
		ok "$b $ep $dir: exits 1, records captured short"
	else
		check_eq "$b $ep $dir: exits 0" 0 "$rc"
	fi
	if [ "$have_tshark" = 0 ]; then
		skip "$b $ep $dir: the bytes tshark shows" "no tshark or xxd"
		return
	fi
	oracle "$f" "$field" "$y"
	check "$b $ep $dir: the bytes tshark shows ($(wc -c <"$TMP/ts.bin"))" \
	    cmp "$TMP/ts.bin" "$TMP/us.bin"
}

# a real disk: bulk-only reads and writes, UAS data and status pipes, a
# keyboard, the FTDI adapter's two pipes
same_as_tshark "$L61" 1.2.1 in
same_as_tshark "$L61" 1.2.2 out
same_as_tshark "$L61" 1.5.3 in
same_as_tshark "$L61" 1.5.1 out
same_as_tshark "$L61" 1.3.1 in
same_as_tshark "$L61" 2.3.1 in
same_as_tshark "$L61" 2.3.2 out
# QEMU's own record of the disk (bus 0, transfers split in packets)
same_as_tshark "$LINUX61/qemu-usb-storage.pcap" 0.2.1 in
same_as_tshark "$LINUX61/qemu-usb-storage.pcap" 0.2.2 out
# generated: a BOT disk, USBPcap (OUT data in the FDO -> PDO IRP),
# isochronous frames (each frame's bytes, not the gaps between them)
same_as_tshark samples/mass-storage.pcapng 1.2.1 in
same_as_tshark samples/mass-storage.pcapng 1.2.2 out
same_as_tshark samples/windows-usbpcap.pcapng 1.3.3 in
same_as_tshark samples/windows-usbpcap.pcapng 1.3.2 out
same_as_tshark samples/windows-usbpcap.pcapng 1.3.4 in usb.iso.data
same_as_tshark samples/iso.pcap 1.2.1 in usb.iso.data
same_as_tshark samples/iso.pcap 1.2.2 out usb.iso.data
# -Y: only the records the filter shows
same_as_tshark "$L61" 1.2.1 in usb.capdata "frame.number <= 700" \
    -Y "frame.number <= 700"
n=$(wc -c <"$TMP/us.bin")
check "-Y: fewer bytes than the whole stream ($n)" \
    test "$n" -gt 0 -a "$n" -lt 465650

# the summary on stderr
extract "summary" samples/mass-storage.pcapng --endpoint 1.2.1
check_eq "summary: bytes, transfers, endpoint, file" \
    "urbscope: wrote 33535 bytes from 22 transfers of 1.2.1 IN to $TMP/us.bin" \
    "$(tail -n 1 "$TMP/err")"
check_eq "without --dir: the direction that has data, exit 0" 0 "$rc"
cp "$TMP/us.bin" "$TMP/ms-in.bin"
extract "leading zeros" samples/mass-storage.pcapng --endpoint 01.02.01
check "01.02.01 is 1.2.1 (not octal)" cmp "$TMP/ms-in.bin" "$TMP/us.bin"
extract "address with the IN bit" samples/mass-storage.pcapng \
    --endpoint 1.2.0x81
check "1.2.0x81 is 1.2.1 IN" cmp "$TMP/ms-in.bin" "$TMP/us.bin"

# -o -: the same bytes on standard output, the summary on stderr
"$US" extract samples/mass-storage.pcapng --endpoint 1.2.1 -o - \
    >"$TMP/stdout.bin" 2>"$TMP/err"
check_eq "-o -: exits 0" 0 $?
check "-o -: the same bytes" cmp "$TMP/ms-in.bin" "$TMP/stdout.bin"
check "-o -: the summary names standard output" \
    grep -q "to standard output" "$TMP/err"
"$US" extract - --endpoint 1.2.1 -o - <samples/mass-storage.pcapng \
    >"$TMP/stdout.bin" 2>/dev/null
check "- reads standard input" cmp "$TMP/ms-in.bin" "$TMP/stdout.bin"

# --interface: the FTDI adapter's bulk pipes (a vendor interface), each
# way; and the CDC-Data interface of an ACM device
extract "--interface FTDI" "$L61" --interface 2.3.0
check_eq "--interface FTDI: exits 0" 0 "$rc"
"$US" extract "$L61" --endpoint 2.3.1 -o "$TMP/ep.bin" 2>/dev/null
check "--interface FTDI: its bulk IN endpoint's bytes" \
    cmp "$TMP/ep.bin" "$TMP/us.bin"
check "--interface FTDI: the line the guest read" \
    grep -q "hello from the host" "$TMP/us.bin"
extract "--interface FTDI --dir out" "$L61" --interface 2.3.0 --dir out
check_eq "--interface --dir out: the line the guest wrote" \
    "RIG guest->host over ftdi_sio: hello" "$(cat "$TMP/us.bin")"
check "--interface: the summary names endpoint and interface" \
    grep -q "of 2.3.2 OUT (interface 2.3.0) to" "$TMP/err"
extract "--interface CDC-Data" "$TMP/acm.pcap" --interface 0.5.1
check_eq "--interface CDC-Data: the 74 bytes the device sent" \
    "The quick brown fox jumps over the lazy dog, again and again, for a 74-byt" \
    "$(cat "$TMP/us.bin")"
extract "--interface CDC-Data out" "$TMP/acm.pcap" --interface 0.5.1 \
    --dir out
check_eq "--interface CDC-Data --dir out: 80 bytes" 80 \
    "$(wc -c <"$TMP/us.bin" | tr -d ' ')"
check "a failed OUT transfer is said" \
    grep -q "1 OUT transfer failed" "$TMP/err"
extract "--interface with no bulk data" "$TMP/acm.pcap" \
    --interface 0.5.0
check_eq "--interface with no bulk data: exits 1" 1 "$rc"
check "--interface with no bulk data: names those that have some" \
    grep -q "interfaces with bulk data: 0.5.1 (CDC-Data)" "$TMP/err"

# errors: usage (2), and a missing endpoint (1, no file, the choices)
rm -f "$TMP/us.bin"
for bad in 1.2 1.2.16 1.2.x a.b.c 1.2.1.0 1.2.0x91 1.2.-1 1.2.0x "" ; do
	extract "bad endpoint '$bad'" samples/mass-storage.pcapng \
	    --endpoint "$bad"
	check_eq "bad endpoint '$bad': exits 2" 2 "$rc"
done
check "bad endpoint: says the syntax" grep -q "not BUS.DEV.EP" "$TMP/err"
extract "--dir sideways" samples/mass-storage.pcapng --endpoint 1.2.1 \
    --dir sideways
check_eq "--dir sideways: exits 2" 2 "$rc"
extract "0x81 with --dir out" samples/mass-storage.pcapng \
    --endpoint 1.2.0x81 --dir out
check_eq "an IN address with --dir out: exits 2" 2 "$rc"
extract "both options" samples/mass-storage.pcapng --endpoint 1.2.1 \
    --interface 1.2.0
check_eq "--endpoint and --interface: exits 2" 2 "$rc"
"$US" extract samples/mass-storage.pcapng --endpoint 1.2.1 \
    >/dev/null 2>"$TMP/err"
check_eq "no -o: exits 2" 2 $?
extract "bad -Y" samples/mass-storage.pcapng --endpoint 1.2.1 -Y "ep =="
check_eq "bad -Y: exits 2" 2 "$rc"
cp samples/mass-storage.pcapng "$TMP/self.pcapng"
"$US" extract "$TMP/self.pcapng" --endpoint 1.2.1 -o "$TMP/self.pcapng" \
    2>"$TMP/err"
check_eq "-o the capture itself: exits 2" 2 $?
check "-o the capture itself: the capture is untouched" \
    cmp samples/mass-storage.pcapng "$TMP/self.pcapng"
extract "missing endpoint" samples/mass-storage.pcapng --endpoint 1.9.2
check_eq "missing endpoint: exits 1" 1 "$rc"
check "missing endpoint: says which" \
    grep -q "no records of endpoint 1.9.2" "$TMP/err"
check "missing endpoint: names those with data" \
    grep -q "endpoints with data: .*1.2.2 OUT, 1.2.1 IN" "$TMP/err"
check "missing endpoint: no output file" test ! -e "$TMP/us.bin"
extract "missing direction" samples/mass-storage.pcapng --endpoint 1.2.1 \
    --dir out
check_eq "an endpoint with no OUT records: exits 1" 1 "$rc"
extract "missing file" "$TMP/nonexistent.pcap" --endpoint 1.2.1
check_eq "missing input: exits 1" 1 "$rc"
extract "bus-level capture" samples/usb-fs-acm.pcapng --endpoint 0.5.1
check_eq "a bus-level capture: exits 1" 1 "$rc"
check "a bus-level capture: says to convert it" \
    grep -q "convert .* -y 220" "$TMP/err"
# endpoint 0 carries data both ways (GET and SET requests): --dir asked
extract "control both ways" "$L61" --endpoint 1.3.0
check_eq "IN and OUT data without --dir: exits 2" 2 "$rc"
check "IN and OUT data without --dir: asks for it" \
    grep -q "both ways: say --dir in or --dir out" "$TMP/err"
check "IN and OUT data without --dir: no output file" \
    test ! -e "$TMP/us.bin"
extract "control IN" "$L61" --endpoint 1.3.0 --dir in
check_eq "control IN with --dir: exits 0" 0 "$rc"

# truncated records: usbmon text keeps 32 bytes of each
extract "truncated" "$LINUX61/usbmon-0u.txt" --endpoint 1.2.1
check_eq "truncated records: exits 1" 1 "$rc"
check "truncated records: the count of bytes missing" \
    grep -qE "[0-9]+ transfers captured short: [0-9]+ bytes are missing" \
    "$TMP/err"
check "truncated records: what there is is written" test -s "$TMP/us.bin"
head -c 32 "$TMP/us.bin" >"$TMP/head.txt"
"$US" extract "$L61" --endpoint 1.2.1 -o - 2>/dev/null | head -c 32 \
    >"$TMP/head.bin"
check "truncated records: their first bytes are the complete ones'" \
    cmp "$TMP/head.txt" "$TMP/head.bin"

# --help
"$US" extract --help >"$TMP/help" 2>&1
check_eq "--help exits 0" 0 $?
check "--help says which records carry the data" \
    grep -q "IN data an IN" "$TMP/help"
check "urbscope --help lists extract" sh -c \
    "'$US' --help 2>&1 | grep -q '^ *extract'"
