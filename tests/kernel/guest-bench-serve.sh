# tests/kernel/guest-bench-serve.sh - make bench's USB/IP part (tests/
# bench.sh): the same O_DIRECT read of 8 MiB, three times, from QEMU's
# emulated usb-storage disk and from urbscope serve's disk model attached
# to the guest's vhci-hcd (serve -A), each timed from /proc/uptime; and the
# server's CPU time over its reads (utime + stime of /proc/PID/stat, in
# clock ticks).  bench.txt: "qemu SECONDS", "served SECONDS",
# "servecpu TICKS HZ".  Then live capture under that load: `urbscope
# capture -i usbmon0 -w` and, where the host lent it (vm.sh --bin),
# Wireshark's `dumpcap -i usbmon0 -w` on the same bus at once while the
# served disk and QEMU's are read flat out (four readers at once), then
# the same with both capture programs stopped for half a second in the
# middle (capture_pair below).
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

# capture_pair TAG STALL: the two captures at once on the busy bus, four
# readers at once, each a whole disk in 1 MiB reads (usb-storage's largest
# URBs), two on the served disk (16 MiB) and two on QEMU's (8 MiB); both
# files (about 50 MB each) fit the guest's memory.  With STALL (seconds),
# both capture programs are stopped (SIGSTOP) that long in the middle of
# the load, as a reader the scheduler leaves waiting is: what the bus
# brings meanwhile has to wait in the kernel's ring.  Lines "TAG-urbscope
# RECORDS DROPS" and "TAG-dumpcap RECEIVED DROPPED" in bench.txt, as each
# program says them, and "TAG-files U D", the records in each file.
capture_pair() {
	rm -f u.pcapng s.pcapng d.pcapng
	urbscope capture -i usbmon0 -w u.pcapng 2>u.err &
	ucap=$!
	urbscope capture -i usbmon0 -B 1200 -w s.pcapng 2>s.err &
	scap=$!
	dcap=
	if command -v dumpcap >/dev/null; then
		dumpcap -q -i usbmon0 -w d.pcapng 2>d.err &
		dcap=$!
	fi
	sleep 2
	pids=
	for r in 1 2 3 4; do
		[ $r -le 2 ] && dev=/dev/sdb || dev=/dev/sda
		dd if=$dev of=/dev/null bs=1M count=16 iflag=direct \
		    2>/dev/null &
		pids="$pids $!"
	done
	if [ "$2" != 0 ]; then
		sleep 0.5
		kill -STOP $ucap $scap $dcap
		sleep "$2"
		kill -CONT $ucap $scap $dcap
	fi
	for p in $pids; do
		wait "$p"
	done
	sleep 1
	stop_pid $ucap INT >/dev/null
	stop_pid $scap INT >/dev/null
	[ -n "$dcap" ] && stop_pid $dcap INT >/dev/null
	sed -n "s/^urbscope: \([0-9]*\) records captured.*, \([0-9]*\) dropped by the kernel.*/$1-urbscope \1 \2/p" \
	    u.err >>/share/bench.txt
	sed -n "s/^urbscope: \([0-9]*\) records captured.*, \([0-9]*\) dropped by the kernel.*/$1-small \1 \2/p" \
	    s.err >>/share/bench.txt
	[ -n "$dcap" ] && sed -n "s/^Packets received\/dropped on interface .*: \([0-9]*\)\/\([0-9]*\) .*/$1-dumpcap \1 \2/p" \
	    d.err >>/share/bench.txt
	# the records in each file: what was kept, whatever the tools say
	nu=$(urbscope read u.pcapng -Y '!synthetic' -T fields \
	    -e frame.number 2>/dev/null | wc -l)
	ns=$(urbscope read s.pcapng -Y '!synthetic' -T fields \
	    -e frame.number 2>/dev/null | wc -l)
	nd=
	[ -n "$dcap" ] && nd=$(urbscope read d.pcapng -T fields \
	    -e frame.number 2>/dev/null | wc -l)
	echo "$1-files $nu $nd $ns" >>/share/bench.txt
	cp u.err "/share/$1-u.err"
	[ -n "$dcap" ] && cp d.err "/share/$1-d.err"
}
capture_pair flat 0
capture_pair stall 0.5
stop_pid $srv INT >/dev/null
cp serve.err /share/
