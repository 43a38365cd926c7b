# tests/kernel/guest-bench-serve.sh - make bench's USB/IP part (tests/
# bench.sh): the same O_DIRECT read of 8 MiB, three times, from QEMU's
# emulated usb-storage disk and from urbscope serve's disk model attached
# to the guest's vhci-hcd (serve -A), each timed from /proc/uptime; and the
# server's CPU time over its reads (utime + stime of /proc/PID/stat, in
# clock ticks).  bench.txt: "qemu SECONDS", "served SECONDS",
# "servecpu TICKS HZ".
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
stop_pid $srv INT >/dev/null
cp serve.err /share/
