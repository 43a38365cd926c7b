# tests/kernel/guest-bench-serve.sh - make bench's USB/IP part (tests/
# bench.sh): the same O_DIRECT read of 8 MiB, three times, from QEMU's
# emulated usb-storage disk and from urbscope serve's disk model attached
# to the guest's vhci-hcd (serve -A), each timed from /proc/uptime; and the
# server's CPU time over its reads (utime + stime of /proc/PID/stat, in
# clock ticks).  bench.txt: "qemu SECONDS", "served SECONDS",
# "servecpu TICKS HZ".  Then live capture under that load: `urbscope
# capture -i usbmon0 -w` and, where the host lent it (vm.sh --bin),
# Wireshark's `dumpcap -i usbmon0 -w` on the same bus at once while the
# served disk and QEMU's are read flat out (four readers at once):
# "urbscope RECORDS DROPS", "dumpcap RECEIVED DROPPED".
mkdir -p /tmp/out
cd /tmp/out || exit 1
load_usbmon && usb_up || say "usb_up failed"
modprobe vhci-hcd || say "no vhci-hcd"
urbscope serve -A disk:16M 2>serve.err &
srv=$!
i=0
while [ ! -b /dev/sdb ] && [ $i -lt 300 ]; do
	sleep 0.1
	i=$((i + 1))
done
# readtime DEV: seconds for three 8 MiB O_DIRECT reads of DEV
readtime() {
	t0=$(cut -d' ' -f1 /proc/uptime)
	for _ in 1 2 3; do
		dd if="$1" of=/dev/null bs=64k count=128 iflag=direct \
		    2>/dev/null
	done
	t1=$(cut -d' ' -f1 /proc/uptime)
	echo "$t0 $t1" | awk '{ printf "%.2f", $2 - $1 }'
}
cpu() {
	awk '{ print $14 + $15 }' "/proc/$srv/stat"
}
q=$(readtime /dev/sda)
c0=$(cpu)
s=$(readtime /dev/sdb)
c1=$(cpu)
{
	echo "qemu $q"
	echo "served $s"
	echo "servecpu $((c1 - c0)) $(getconf CLK_TCK 2>/dev/null || echo 100)"
} >/share/bench.txt

# the two captures at once on the busy bus
urbscope capture -i usbmon0 -w u.pcapng 2>u.err &
ucap=$!
dcap=
if command -v dumpcap >/dev/null; then
	dumpcap -q -i usbmon0 -w d.pcapng 2>d.err &
	dcap=$!
fi
sleep 2
# four readers at once, each a whole disk in 1 MiB reads (usb-storage's
# largest URBs), two on the served disk (16 MiB) and two on QEMU's
# (8 MiB): more data a second than a 1200 KiB ring holds while its reader
# waits for the CPU; both files (about 50 MB each) fit the guest's memory
pids=
for r in 1 2 3 4; do
	[ $r -le 2 ] && dev=/dev/sdb || dev=/dev/sda
	dd if=$dev of=/dev/null bs=1M count=16 iflag=direct 2>/dev/null &
	pids="$pids $!"
done
for p in $pids; do
	wait "$p"
done
sleep 1
stop_pid $ucap INT >/dev/null
[ -n "$dcap" ] && stop_pid $dcap INT >/dev/null
sed -n 's/^urbscope: \([0-9]*\) records captured.*, \([0-9]*\) dropped by the kernel.*/urbscope \1 \2/p' \
    u.err >>/share/bench.txt
[ -n "$dcap" ] && sed -n 's/^Packets received\/dropped on interface .*: \([0-9]*\)\/\([0-9]*\) .*/dumpcap \1 \2/p' \
    d.err >>/share/bench.txt
stop_pid $srv INT >/dev/null
cp serve.err u.err /share/
[ -n "$dcap" ] && cp d.err /share/
