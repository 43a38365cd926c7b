#!/bin/sh
# tests/e2e/capture.sh - `urbscope capture` on this machine, which has no
# usbmon: the exact errors and exit statuses, usage errors, -D; then, on
# fake /dev and /sys trees (URBSCOPE_SYSROOT), the whole command: a saved
# read() stream of a Linux 6.1 session as /dev/usbmon0, the devices of that
# session in sysfs (synthetic descriptor records), the debugfs text file as
# the fallback, a FIFO as a device that stays open (signals), output to a
# full disk and to a reader that goes away, -Z, -C/-W.  Last, on a real
# Linux 6.1 under QEMU (tests/kernel/vm.sh; skipped, and said, where QEMU
# or the kernel cannot be had, or with URBSCOPE_SKIP_KERNEL=1): every
# method against the kernel's own text record.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh
plan 147

BIN=$LINUX61/usbmon0.bin
TXT=$LINUX61/usbmon-0u.txt

# ------------------------------------------------------------------------
# Usage.
"$US" capture --help >"$TMP/out" 2>&1
check_eq "--help exits 0" 0 $?
check "--help shows -i usbmonN" grep -q -- '-i usbmonN' "$TMP/out"
"$US" capture >"$TMP/out" 2>"$TMP/err"
check_eq "no -i exits 2" 2 $?
check "no -i says -i is required" grep -q -- '-i usbmonN is required' \
    "$TMP/err"
for args in "-i eth0" "-i usbmon0 -s 10" "-i usbmon0 -W 3" \
    "-i usbmon0 -C 1" "-i usbmon0 -C 1 -w -" "-i usbmon0 extra" \
    "-i usbmon0 -w x -F bogus" "-i usbmon0 -c 0" "-i usbmon0 -F pcap" \
    "-i usbmon0 -x"; do
	# shellcheck disable=SC2086
	"$US" capture $args >"$TMP/out" 2>"$TMP/err"
	check_eq "capture $args exits 2" 2 $?
	check "capture $args: no sanitizer report" no_sanitizer_report \
	    "$TMP/err"
done

# ------------------------------------------------------------------------
# This machine, without usbmon.
if [ -e /dev/usbmon0 ] || [ -d /sys/module/usbmon ]; then
	skip "errors without usbmon" "usbmon is loaded on this machine" 7
else
	"$US" capture -i usbmon0 >"$TMP/out" 2>"$TMP/err"
	check_eq "no usbmon: exit 1" 1 $?
	check_eq "no usbmon: the message says modprobe" \
	    "urbscope: usbmon0: usbmon is not loaded: run 'modprobe usbmon' as root" \
	    "$(cat "$TMP/err")"
	"$US" capture -i /dev/usbmon2 -w "$TMP/never.pcapng" >"$TMP/out" \
	    2>"$TMP/err"
	check_eq "no usbmon, /dev/usbmon2: exit 1" 1 $?
	check "no usbmon: no file is created" test ! -e "$TMP/never.pcapng"
	"$US" capture -D >"$TMP/out" 2>"$TMP/err"
	check_eq "-D without usbmon exits 0" 0 $?
	check_eq "-D without usbmon lists usbmon0" "usbmon0 (all buses)" \
	    "$(head -n 1 "$TMP/out")"
	check "-D without usbmon says modprobe" grep -q \
	    "usbmon is not loaded: run 'modprobe usbmon' as root to capture" \
	    "$TMP/err"
fi

if ! command -v python3 >/dev/null; then
	skip_rest "capture on a fake tree" "no python3"
fi

# ------------------------------------------------------------------------
# A fake tree: the devices of the Linux 6.1 session in sysfs.
ROOT=$TMP/root
python3 - tests/fixtures/sysfs/sysfs-usb-initial.txt "$ROOT/sys/bus/usb/devices" <<'EOF'
import os, sys
src, dst = sys.argv[1], sys.argv[2]
dev = None
attrs = {}
def flush():
    if dev is None or "busnum" not in attrs:
        return
    d = os.path.join(dst, dev)
    os.makedirs(d, exist_ok=True)
    for k in ("busnum", "devnum", "idVendor", "idProduct", "product",
              "devpath", "speed", "manufacturer"):
        if k in attrs:
            open(os.path.join(d, k), "w").write(attrs[k] + "\n")
    open(os.path.join(d, "descriptors"), "wb").write(
        bytes.fromhex(attrs.get("descriptors(hex)", "")))
for line in open(src):
    line = line.rstrip("\n")
    if line.startswith("=== "):
        flush()
        dev, attrs = line[4:], {}
    elif ": " in line:
        k, v = line.split(": ", 1)
        attrs[k] = v.strip()
flush()
EOF
mkdir -p "$ROOT/dev" "$ROOT/sys/module/usbmon"
cp "$BIN" "$ROOT/dev/usbmon0"
export URBSCOPE_SYSROOT="$ROOT"

"$US" capture -D >"$TMP/out" 2>"$TMP/err"
check_eq "-D on the fake tree exits 0" 0 $?
check_eq "-D lists bus 1 with its devices" \
    "usbmon1 (bus 1): 1-1 46f4:0001 QEMU USB HARDDRIVE, 1-2 0627:0001 QEMU USB Keyboard, 1-3 0627:0001 QEMU USB Tablet, 1-4 46f4:0003 USB Attached SCSI HBA" \
    "$(grep '^usbmon1 ' "$TMP/out")"
check "-D lists bus 2" grep -q '^usbmon2 (bus 2): 2-1 ' "$TMP/out"
check "-D on a loaded usbmon: nothing on stderr" test ! -s "$TMP/err"

# The saved stream as /dev/usbmon0: read() is the method (no ioctls).
"$US" capture -i usbmon0 -w "$TMP/c.pcapng" >"$TMP/out" 2>"$TMP/err"
check_eq "capture to pcapng exits 0" 0 $?
check "capture: no sanitizer report" no_sanitizer_report "$TMP/err"

check "capture names the method" grep -q \
    '^urbscope: capturing on usbmon0 through read()$' "$TMP/err"
n=$("$US" read -T usbmon "$BIN" | wc -l)
check_eq "capture: the summary" \
    "urbscope: $n records captured (+32 synthetic from sysfs), 0 dropped by the kernel (read)" \
    "$(tail -n 1 "$TMP/err")"
"$US" read -T usbmon "$BIN" >"$TMP/want"
"$US" read -T usbmon "$TMP/c.pcapng" >"$TMP/got"
nsyn=$(grep -c '^7379736673' "$TMP/got")
check_eq "capture: 2 synthetic pairs per device (8 devices)" 32 "$nsyn"
check "capture: the synthetic records come first" sh -c \
    "head -n $nsyn '$TMP/got' | grep -vq '^7379736673' && exit 1 || exit 0"
tail -n +$((nsyn + 1)) "$TMP/got" >"$TMP/got.live"
check_diff "capture: every event of the stream, unchanged" "$TMP/want" \
    "$TMP/got.live"
check "capture: the keyboard's descriptors decode" sh -c \
    "'$US' read '$TMP/c.pcapng' | grep -q 'DEVICE 0627:0001'"

# -Y with -w: the file holds what -Y shows (Wireshark's extcap hands its
# capture filter over this way), the rest counted
"$US" capture -i usbmon0 -Y 'usb.device_address == 2 && !synthetic' \
    -w "$TMP/cy.pcapng" >"$TMP/out" 2>"$TMP/err"
check_eq "-Y with -w exits 0" 0 $?
want=$("$US" read "$BIN" -Y 'usb.device_address == 2' -T fields \
    -e usb.urb_id -e usb.urb_type 2>/dev/null | md5sum)
check_eq "-Y with -w: the file holds device 2's records, as read -Y shows them" \
    "$want" "$("$US" read "$TMP/cy.pcapng" -T fields -e usb.urb_id \
    -e usb.urb_type 2>/dev/null | md5sum)"
nf=$("$US" read "$BIN" -Y '!(usb.device_address == 2)' -T fields \
    -e frame.number 2>/dev/null | wc -l)
check "-Y with -w: the others counted as not written" grep -qx \
    "urbscope: $nf of them not written: -Y does not show them" "$TMP/err"
# a capture started after the enumeration: export finds the device in
# its descriptors from sysfs (synthetic records), never sent
"$US" export --format c "$TMP/c.pcapng" -o "$TMP/cx.c" \
    -Y 'synthetic || (frame.number > 1000 && usb.transfer_type != 2)' \
    2>"$TMP/err"
check "export of a capture started after the enumeration: the device from sysfs" \
    sh -c "grep -q '^ \* device 1.2 (46f4:0001): 194 transfers' '$TMP/cx.c' &&
    ! grep -q 'synthetic' '$TMP/cx.c'"
"$US" capture -i usbmon0 -Y 'usb.bogus ==' -w "$TMP/cy.pcapng" \
    >"$TMP/out" 2>"$TMP/err"
check_eq "-Y with -w: a bad filter exits 2" 2 $?

if command -v tshark >/dev/null; then
	# Wireshark's UAS dissector flags 6 INQUIRY responses of this
	# session (tests/data/linux61/README.md), as in a plain convert.
	"$US" convert "$BIN" -w "$TMP/conv.pcapng" 2>/dev/null
	tshark -r "$TMP/conv.pcapng" -Y _ws.malformed >"$TMP/mal0" 2>/dev/null
	tshark -r "$TMP/c.pcapng" -Y _ws.malformed >"$TMP/mal" 2>/dev/null
	check_eq "tshark: no malformed packet but the known ones" \
	    "$(wc -l <"$TMP/mal0")" "$(wc -l <"$TMP/mal")"
	c=$(tshark -r "$TMP/c.pcapng" -Y 'frame.comment contains "synthetic"' \
	    2>/dev/null | wc -l)
	check_eq "tshark: the synthetic records carry their comment" 32 "$c"
fi
if command -v capinfos >/dev/null; then
	check "capinfos: one statistics block" sh -c \
	    "capinfos '$TMP/c.pcapng' | grep -q 'Number of stat entries = 1'"
fi

# Records printed as `urbscope read` prints them (times aside: the
# synthetic records are stamped now).
"$US" capture -i usbmon0 -q >"$TMP/text" 2>"$TMP/err"
check_eq "capture without -w exits 0" 0 $?
"$US" read "$TMP/c.pcapng" 2>/dev/null | awk '{ $2 = ""; print }' \
    >"$TMP/want"
awk '{ $2 = ""; print }' "$TMP/text" >"$TMP/got"
check_diff "capture without -w prints what read prints" "$TMP/want" \
    "$TMP/got"
check "-q: only the summary on stderr" test "$(wc -l <"$TMP/err")" -eq 1

# read's options, through the same pipeline: -Y, -T json, -T fields, -V.
for opts in "-Y type==bulk" "-T json" "-T fields -e usb.urb_id -e usb.urb_type" \
    "-V" "-Y ev==C -T json"; do
	# shellcheck disable=SC2086
	"$US" capture -i usbmon0 -q $opts >"$TMP/got" 2>/dev/null
	rc=$?
	# shellcheck disable=SC2086
	"$US" read $opts "$TMP/c.pcapng" 2>/dev/null >"$TMP/want"
	# times and the synthetic records' stamps differ (-V has "time"),
	# and offsets: a file's against the live source's;
	norm='s/"frame.time_epoch":"[0-9.]*",//; s/, time [^:]*:/:/;
	    s/"frame.offset":[0-9]*,//; s/ at offset [0-9]*//;
	    s/"usb.urb_ts_(sec|usec)":[0-9]*,//g;
	    s/"usb.copy_of_transfer_flags":"0x[0-9a-f]*",//;
	    s/"usb.(interval|start_frame)":[0-9-]*,//g'
	# (the read() method's 48-byte header has no transfer flags,
	# interval or start frame, the file written from it has; -V: the
	# records' heads)
	[ "$opts" = "-V" ] && norm="/^Record /!d; $norm"
	sed -E "$norm" "$TMP/want" | cut -c1-400 >"$TMP/w"
	sed -E "$norm" "$TMP/got" | cut -c1-400 >"$TMP/g"
	if [ "$opts" = "-Y type==bulk" ]; then
		awk '{ $2 = ""; print }' "$TMP/want" >"$TMP/w"
		awk '{ $2 = ""; print }' "$TMP/got" >"$TMP/g"
	fi
	check_eq "capture $opts exits 0" 0 $rc
	check "capture $opts prints something" test -s "$TMP/g"
	check_diff "capture $opts prints what read $opts prints" "$TMP/w" \
	    "$TMP/g"
done
"$US" capture -i usbmon0 -V -w "$TMP/x.pcapng" >/dev/null 2>"$TMP/err"
check_eq "capture -w with -V is a usage error" 2 $?
"$US" capture -i usbmon0 -B 4 -w "$TMP/x.pcapng" >/dev/null 2>"$TMP/err"
check "-B below the kernel's 8 KiB: exit 2, says the range" sh -c \
    "test $? -eq 2 && grep -qx 'urbscope: -B wants 8 to 65536 KiB (the kernel'\\''s usbmon ring), not 4' '$TMP/err'"

# -c, -w - (pcap), -s
"$US" capture -i usbmon0 -c 10 -w - 2>"$TMP/err" >"$TMP/c.pcap"
check_eq "-w - exits 0" 0 $?
check "-w - writes pcap" sh -c "od -An -tx1 -N4 '$TMP/c.pcap' |
    grep -qE 'd4 c3 b2 a1|a1 b2 c3 d4'"
check_eq "-c 10: 10 records and the synthetic ones" 42 \
    "$("$US" read "$TMP/c.pcap" 2>/dev/null | wc -l)"
check_eq "-c 10: the summary counts the bus's records" \
    "urbscope: 10 records captured (+32 synthetic from sysfs), 0 dropped by the kernel (read)" \
    "$(tail -n 1 "$TMP/err")"
check_eq "read marks the synthetic records, also in pcap (by their id)" \
    "32 10" "$("$US" read "$TMP/c.pcap" 2>/dev/null |
    awk '/\[synthetic, from sysfs\]/ { s++; next } { o++ } END { print s, o }')"
"$US" capture -i usbmon0 -q -s 80 -w "$TMP/s.pcapng" 2>/dev/null
"$US" read -V "$TMP/s.pcapng" >"$TMP/s.out" 2>/dev/null
check "-s 80: records are cut" grep -q 'captured 16 of' "$TMP/s.out"

# -C/-W: a ring of files, each starting with the synthetic records.
cat "$BIN" "$BIN" "$BIN" >"$ROOT/dev/usbmon0"
"$US" capture -i usbmon0 -q -C 1 -W 3 -w "$TMP/ring.pcapng" 2>"$TMP/err"
check_eq "-C 1 -W 3 exits 0" 0 $?
check "-C 1 -W 3 makes ring.pcapng0" test -s "$TMP/ring.pcapng0"
check "-C 1 -W 3 makes no fourth file" test ! -e "$TMP/ring.pcapng3"
for f in "$TMP"/ring.pcapng?; do
	check "$(basename "$f") starts with the synthetic records" sh -c \
	    "'$US' read -T usbmon '$f' | head -n 1 | grep -q '^7379736673'"
done
"$US" capture -i usbmon0 -q -C 1 -w "$TMP/grow.pcapng" 2>"$TMP/err"
check "-C 1 alone: FILE then FILE1" test -s "$TMP/grow.pcapng1"
check "-C 1 alone: FILE first" test -s "$TMP/grow.pcapng"
check "-C 1 alone: FILE2" test -s "$TMP/grow.pcapng2"
cp "$BIN" "$ROOT/dev/usbmon0"

# A full disk and a reader that goes away.
if [ -w /dev/full ]; then
	"$US" capture -i usbmon0 -q -w /dev/full 2>"$TMP/err"
	check_eq "full disk exits 1" 1 $?
	check "full disk says so" grep -q 'no space left' "$TMP/err"
else
	skip "full disk" "/dev/full cannot be written" 2
fi
mkdir "$TMP/small"
if mount -t tmpfs -o size=300k tmpfs "$TMP/small" 2>/dev/null; then
	"$US" capture -i usbmon0 -q -w "$TMP/small/f.pcapng" 2>"$TMP/err"
	check_eq "a file system that fills up: exit 1" 1 $?
	k=$(sed -n 's/.*the file holds its first \([0-9]*\) records.*/\1/p' \
	    "$TMP/err")
	check "a file system that fills up: the records kept are said" \
	    test -n "$k"
	check_eq "a file system that fills up: the file reads to its end" \
	    "$k" "$("$US" read "$TMP/small/f.pcapng" 2>"$TMP/err2" | wc -l)"
	check "a file system that fills up: read finds no damage" sh -c \
	    "! grep -q 'offset' '$TMP/err2'"
	umount "$TMP/small"
else
	skip "a file system that fills up" "cannot mount a small tmpfs" 4
fi
"$US" capture -i usbmon0 -q -w - 2>"$TMP/err" | head -c 1000 >/dev/null
check "a reader that goes away: said" grep -q 'the reader went away' \
    "$TMP/err"
check "a reader that goes away: no sanitizer report" \
    no_sanitizer_report "$TMP/err"

# A device that stays open (a FIFO): stopped by a signal, the file is
# complete and holds every event.
for sig in INT TERM HUP; do
	rm -f "$ROOT/dev/usbmon0" "$TMP/sig.pcapng"
	mkfifo "$ROOT/dev/usbmon0"
	(cat "$BIN"; sleep 30) >"$ROOT/dev/usbmon0" &
	feeder=$!
	"$US" capture -i usbmon0 -q -w "$TMP/sig.pcapng" 2>"$TMP/err" &
	cap=$!
	i=0
	while [ $i -lt 100 ] && [ "$("$US" read "$TMP/sig.pcapng" 2>/dev/null |
	    wc -l)" -lt $((n + nsyn)) ]; do
		sleep 0.2
		i=$((i + 1))
	done
	kill -"$sig" $cap
	wait $cap
	check_eq "SIG$sig: exit 0" 0 $?
	kill $feeder 2>/dev/null
	wait $feeder 2>/dev/null
	check_eq "SIG$sig: every event is in the file" $((n + nsyn)) \
	    "$("$US" read -T usbmon "$TMP/sig.pcapng" 2>/dev/null | wc -l)"
	check "SIG$sig: the file ends with its statistics block" sh -c \
	    "capinfos '$TMP/sig.pcapng' 2>/dev/null |
	    grep -q 'Number of stat entries = 1' ||
	    ! command -v capinfos >/dev/null"
done
rm -f "$ROOT/dev/usbmon0"
cp "$BIN" "$ROOT/dev/usbmon0"

# -Z: the file is created by the user.
if id nobody >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
	mkdir -m 777 "$TMP/z"
	chmod 755 "$TMP"
	"$US" capture -i usbmon0 -q -c 5 -Z nobody -w "$TMP/z/z.pcapng" \
	    2>"$TMP/err"
	check_eq "-Z nobody exits 0" 0 $?
	check_eq "-Z nobody: the file belongs to nobody" "$(id -u nobody)" \
	    "$(stat -c %u "$TMP/z/z.pcapng")"
	"$US" capture -i usbmon0 -q -c 5 -Z no-such-user-here -w \
	    "$TMP/z/y.pcapng" 2>"$TMP/err"
	check_eq "-Z unknown user exits 1" 1 $?
	check "-Z unknown user: said" grep -q 'no such user' "$TMP/err"
	# permission denied, as a user the device is not open to
	chmod 600 "$ROOT/dev/usbmon0"
	setpriv --reuid=nobody --regid=nogroup --clear-groups \
	    "$US" capture -i usbmon0 >"$TMP/out" 2>"$TMP/err"
	check_eq "permission denied: exit 1" 1 $?
	check_eq "permission denied: the udev rule" \
	    'urbscope: usbmon0: permission denied: run as root, or give group access with a udev rule: SUBSYSTEM=="usbmon", GROUP="wireshark", MODE="0640"' \
	    "$(cat "$TMP/err")"
	# --drivers where eBPF cannot be had: one line why, usbmon alone
	chmod 644 "$ROOT/dev/usbmon0"
	setpriv --reuid=nobody --regid=nogroup --clear-groups \
	    "$US" capture -i usbmon0 -q --drivers -w "$TMP/z/d.pcapng" \
	    2>"$TMP/err"
	check_eq "--drivers as nobody: exit 0" 0 $?
	check_eq "--drivers as nobody: says why, once" \
	    "urbscope: --drivers: not root: tracing the USB core with eBPF needs root (CAP_BPF and CAP_PERFMON); capturing usbmon alone" \
	    "$(grep -e '--drivers' "$TMP/err")"
	check_eq "--drivers as nobody: every record of usbmon" $((n + nsyn)) \
	    "$("$US" read -T usbmon "$TMP/z/d.pcapng" 2>/dev/null | wc -l)"
	chmod 700 "$TMP"
else
	skip "-Z and permission denied" "not root, or no user nobody" 9
fi
# As root: traced (a kernel with usbcore and BTF), or one line why.
"$US" capture -i usbmon0 -q --drivers -w "$TMP/d.pcapng" 2>"$TMP/err"
check_eq "--drivers: exit 0" 0 $?
check "--drivers: traced or one line why" sh -c "
    [ \$(grep -c -e '--drivers: .*; capturing usbmon alone\$' \
    '$TMP/err') -eq 1 ] || grep -q ' driver events traced' '$TMP/err'"
check_eq "--drivers: every record of usbmon" $((n + nsyn)) \
    "$("$US" read -T usbmon "$TMP/d.pcapng" 2>/dev/null | wc -l)"

# Errors a user meets on a machine with usbmon loaded.
"$US" capture -i usbmon7 >"$TMP/out" 2>"$TMP/err"
check_eq "no such bus: exit 1" 1 $?
check_eq "no such bus: the buses that exist" \
    "urbscope: usbmon7: there is no USB bus 7; the buses are 1, 2 (usbmon0 captures them all)" \
    "$(cat "$TMP/err")"
"$US" capture -i usbmon1 >"$TMP/out" 2>"$TMP/err"
check_eq "no device node, no debugfs: exit 1" 1 $?
check "no device node, no debugfs: mount debugfs" grep -q \
    'mount -t debugfs none /sys/kernel/debug' "$TMP/err"

# The debugfs text file as the fallback.
mkdir -p "$ROOT/sys/kernel/debug/usb/usbmon"
cp "$TXT" "$ROOT/sys/kernel/debug/usb/usbmon/1u"
"$US" capture -i usbmon1 -w "$TMP/t.pcapng" >"$TMP/out" 2>"$TMP/err"
check_eq "text fallback exits 0" 0 $?
check "text fallback: said, with its limits" grep -q \
    'through the debugfs text file (at most 32 data bytes' "$TMP/err"
check "text fallback: the summary names it" grep -q \
    " 0 dropped by the kernel (text)$" "$TMP/err"
"$US" read -T usbmon "$TMP/t.pcapng" | grep -v '^7379736673' |
    cut -d' ' -f1,3- >"$TMP/got"
cut -d' ' -f1,3- "$TXT" >"$TMP/want"
check_diff "text fallback: every line, stamps aside" "$TMP/want" "$TMP/got"

# ------------------------------------------------------------------------
# The real kernel (tests/kernel/vm.sh: Linux 6.1 under QEMU, EHCI with a
# disk, a keyboard and a tablet): each interface the source can use, forced
# in turn, against the kernel's own text record of the same bus, with the
# keyboard unplugged and plugged back during the mmap run; the capture
# starts after enumeration, so the storage class decodes only thanks to
# the synthetic descriptor records.
unset URBSCOPE_SYSROOT
if [ "${URBSCOPE_SKIP_KERNEL:-}" = 1 ]; then
	skip_rest "capture on a real kernel" "URBSCOPE_SKIP_KERNEL=1"
fi
cat >"$TMP/guest.sh" <<'GUEST'
mkdir -p /tmp/out
cd /tmp/out || exit 1
load_usbmon && usb_up || exit 1
for m in mmap getx read text; do
	cat /sys/kernel/debug/usb/usbmon/1u >1u-$m.txt &
	txt=$!
	URBSCOPE_USBMON_METHOD=$m urbscope capture -i usbmon1 \
	    -w cap-$m.pcapng 2>cap-$m.err &
	cap=$!
	sleep 0.5
	dd if=/dev/sda of=/dev/null bs=64k count=16 iflag=direct 2>&1
	if [ $m = mmap ]; then
		host_do device_del kbd
		sleep 0.5
		host_do device_add driver=usb-kbd,id=kbd,bus=ehci.0,port=2
		usb_settle
	fi
	dd if=/dev/sda of=/dev/null bs=4k count=16 iflag=direct 2>&1
	sleep 0.5
	kill -INT $cap
	wait $cap
	echo "exit $?" >>cap-$m.err
	kill $txt
done
cp /tmp/out/* /share/
GUEST
sh tests/kernel/vm.sh --guest "$TMP/guest.sh" --host tests/kernel/host.py \
    --timeout 240 "$TMP/vm" >"$TMP/vm.log" 2>&1
rc=$?
if [ $rc -eq 77 ]; then
	skip_rest "capture on a real kernel" "$(tail -n 1 "$TMP/vm.log")"
fi
check_eq "kernel: the guest script ran" 0 $rc
[ $rc -eq 0 ] || sed 's/^/#   /' "$TMP/vm.log" | tail -n 20
V=$TMP/vm/share
for m in mmap getx read text; do
	check_eq "kernel, $m: capture exits 0" "exit 0" \
	    "$(tail -n 1 "$V/cap-$m.err" 2>/dev/null)"
	check "kernel, $m: zero drops, reported" grep -q \
	    " 0 dropped by the kernel" "$V/cap-$m.err"
	"$US" read -T usbmon "$V/cap-$m.pcapng" 2>/dev/null |
	    grep -v '^7379736673' | cut -d' ' -f1,3- >"$TMP/got"
	cut -d' ' -f1,3- "$V/1u-$m.txt" >"$TMP/want" 2>/dev/null
	check "kernel, $m: the kernel's text record is not empty" \
	    test -s "$TMP/want"
	if [ $m = text ]; then
		# Two readers of the text interface: each has its own queue,
		# which the kernel cuts silently when a reader falls behind
		# (drivers/usb/mon/mon_text.c, mon_text_event: nevents >=
		# EVENT_MAX counts cnt_lost), as a loaded machine makes TCG
		# do.  What urbscope got is the kernel's, in order, and
		# nearly all of it.
		check "kernel, text: the events read are the kernel's, in order" \
		    awk 'BEGIN { n = 0; i = 0; g = 0; bad = 0 }
		    NR == FNR { w[n++] = $0; next }
		    { while (i < n && w[i] != $0) i++
		      if (i == n) { bad = 1; exit } i++; g++ }
		    END { exit bad || n == 0 || g * 10 < n * 9 }' \
		    "$TMP/want" "$TMP/got"
	else
		check_diff "kernel, $m: every event of the kernel's text record" \
		    "$TMP/want" "$TMP/got"
	fi
	check "kernel, $m: storage class decoded from synthetic records" \
	    sh -c "'$US' read '$V/cap-$m.pcapng' 2>/dev/null |
	    grep -q 'Mass Storage.*CBW'"
done
check "kernel: the mmap run saw the unplug (-108)" grep -q ' -108:' \
    "$V/1u-mmap.txt"
check "kernel, mmap: method named" grep -q 'through the mmap ring' \
    "$V/cap-mmap.err"
check "kernel, getx: method named" grep -q 'through MON_IOCX_GETX' \
    "$V/cap-getx.err"
