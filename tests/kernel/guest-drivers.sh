# tests/kernel/guest-drivers.sh - the guest half of the --drivers test
# (tests/kernel/run.sh, checked by check-drivers.py): `urbscope capture -i
# usbmon0 --drivers` runs from before the host controller driver is
# loaded, so it sees usb-storage and usbhid probe their interfaces, then
# the disk is read (whole) and written, keys are typed (host.py: usbhid
# resubmits from its completion handler, in irq context), and usb-storage
# is unbound (a disconnect) before the capture gets SIGINT.
#
# Then the overhead: usb-storage bound again, the same disk read (8 MiB
# with O_DIRECT, three times) timed under `capture -i usbmon0` alone and
# under `capture -i usbmon0 --drivers` (overhead-plain.*, overhead-traced.*:
# the capture, its stderr, the workload's seconds from /proc/uptime);
# check-drivers.py counts the usbmon C records of each and prints URBs/s.
# Then a capture told that two probe points are missing (missing.*), and
# one whose giveback is traced by kprobes (fallback.*).
# Last, `urbscope tui -i usbmon0 --drivers` in tmux (tui-drivers.txt).
mkdir -p /tmp/out
cd /tmp/out || exit 1

# started ERRFILE: wait until the capture writing ERRFILE says it is
# capturing (loading and attaching the BPF programs takes a while under
# TCG), 30 s at most.
started() {
	i=0
	while ! grep -q "capturing on" "$1" 2>/dev/null && [ $i -lt 300 ]; do
		sleep 0.1
		i=$((i + 1))
	done
}

load_usbmon || exit 1
urbscope capture -i usbmon0 --drivers -w traced.pcapng 2>traced.err &
cap=$!
started traced.err
say "capture started: $(head -n 2 traced.err | tr '\n' ' ')"

say "PHASE enumeration"
usb_up || say "usb_up failed"

say "PHASE traffic"
dd if=/dev/sda of=/dev/null bs=64k count=16 iflag=direct 2>/dev/null
dd if=/dev/sda of=/dev/null bs=64k iflag=direct 2>/dev/null	# 8 MiB
dd if=/dev/zero of=/dev/sda bs=4k count=4 seek=1000 oflag=direct 2>/dev/null
kbd=$(input_node "USB Keyboard")
cat "$kbd" >/dev/null &
rdr=$!
host_do keys u r b
kill "$rdr" 2>/dev/null

say "PHASE unbind"
stor=
for d in /sys/bus/usb/drivers/usb-storage/*:*; do
	[ -e "$d" ] || continue
	stor="$stor ${d##*/}"
	echo "${d##*/}" >/sys/bus/usb/drivers/usb-storage/unbind
done
sleep 1

say "PHASE stop"
stop_pid $cap INT >traced.rc
cp traced.pcapng traced.err traced.rc /share/

# overhead NAME [OPTS]: the disk read timed under a capture with OPTS.
overhead() {
	# shellcheck disable=SC2086
	urbscope capture -i usbmon0 $2 -w "overhead-$1.pcapng" \
	    2>"overhead-$1.err" &
	ocap=$!
	started "overhead-$1.err"
	sleep 0.5
	t0=$(cut -d' ' -f1 /proc/uptime)
	for n in 1 2 3; do
		dd if=/dev/sda of=/dev/null bs=64k count=128 iflag=direct \
		    2>/dev/null
	done
	t1=$(cut -d' ' -f1 /proc/uptime)
	sleep 0.5
	stop_pid $ocap INT >"overhead-$1.rc"
	echo "$t0 $t1" >"overhead-$1.time"
	say "overhead $1: $t0 .. $t1"
	cp "overhead-$1.pcapng" "overhead-$1.err" "overhead-$1.rc" \
	    "overhead-$1.time" /share/
}

say "PHASE overhead"
for d in $stor; do
	echo "$d" >/sys/bus/usb/drivers/usb-storage/bind
done
if usb_settle; then
	overhead plain
	overhead traced --drivers
fi

# traced_read NAME VAR=VALUE...: capture --drivers with VARs in its
# environment while the disk is read (NAME.pcapng, .err, .rc).
traced_read() {
	tn=$1
	shift
	env "$@" urbscope capture -i usbmon0 --drivers -w "$tn.pcapng" \
	    2>"$tn.err" &
	tcap=$!
	started "$tn.err"
	dd if=/dev/sda of=/dev/null bs=64k count=16 iflag=direct 2>/dev/null
	sleep 0.5
	stop_pid $tcap INT >"$tn.rc"
	cp "$tn.pcapng" "$tn.err" "$tn.rc" /share/
}

# A probe point missing: the tracer told that usb_open and usb_poison_urb
# are not in this kernel (URBSCOPE_BPF_ABSENT, for tests: their kprobes
# go to a name no kernel has), and that the kernel's BTF does not describe
# __usb_hcd_giveback_urb (URBSCOPE_BPF_NOBTF: its fentry, which would
# fail the whole load, is not loaded; its kprobe pair traces it).  The
# capture goes on, traces the rest and says once which events it cannot
# trace and why, and how the giveback is traced (missing.*).
say "PHASE missing"
traced_read missing URBSCOPE_BPF_ABSENT=usb_open,usb_poison_urb \
    URBSCOPE_BPF_NOBTF=__usb_hcd_giveback_urb

# The giveback where fentry and fexit cannot be attached (arm64 before
# 6.2): URBSCOPE_BPF_NOFENTRY, for tests, leaves them unloaded, and the
# kprobe and kretprobe pair on __usb_hcd_giveback_urb traces it
# (fallback.*).
say "PHASE fallback"
traced_read fallback URBSCOPE_BPF_NOFENTRY=1

# Wireshark's extcap on this bus with --drivers, run with the arguments
# Wireshark gives it, into a FIFO a reader copies (extcap.pcapng): ready
# once its BPF links are attached and stay so for a second; usb-storage
# unbound and bound again (a disconnect, a probe) and the disk read; then
# SIGTERM, as Wireshark stops it (extcap.rc; extcap.err must stay empty,
# or Wireshark would show it as an error).
say "PHASE extcap"
rm -f ext.fifo
mkfifo ext.fifo
cat ext.fifo >extcap.pcapng &
xrd=$!
urbscope --extcap-interface urbscope-usbmon0 --drivers --capture \
    --fifo ext.fifo 2>extcap.err &
xc=$!
i=0
last=-1
same=0
while [ $i -lt 600 ] && [ $same -lt 10 ]; do
	n=$(ls -l /proc/$xc/fd 2>/dev/null | grep -c bpf_link)
	if [ "$n" -gt 0 ] && [ "$n" -eq "$last" ]; then
		same=$((same + 1))
	else
		same=0
	fi
	last=$n
	sleep 0.1
	i=$((i + 1))
done
say "extcap: $last BPF links after $i polls"
for d in $stor; do
	echo "$d" >/sys/bus/usb/drivers/usb-storage/unbind
done
sleep 0.5
for d in $stor; do
	echo "$d" >/sys/bus/usb/drivers/usb-storage/bind
done
usb_settle
dd if=/dev/sda of=/dev/null bs=64k count=16 iflag=direct 2>/dev/null
sleep 0.5
stop_pid $xc TERM >extcap.rc
wait $xrd
cp extcap.pcapng extcap.err extcap.rc /share/

# The live TUI with --drivers, in a tmux pane: its status bar counts the
# events the tracer lost beside usbmon's drops (tui-drivers.txt, the
# screen after a disk read; check-drivers.py reads it).
say "PHASE tui"
if command -v tmux >/dev/null; then
	mkdir -p /tmp/tuispool
	TERM=screen tmux new-session -d -s tui -x 160 -y 40 \
	    "TMPDIR=/tmp/tuispool LANG=C.UTF-8 urbscope tui -i usbmon0 \
	    --drivers 2>/tmp/out/tui-drivers.err; sleep 600" </dev/null \
	    >/dev/null 2>&1
	i=0
	while [ $i -lt 300 ]; do
		tmux capture-pane -p -t tui >tui-drivers.txt 2>/dev/null
		grep -q 'events lost' tui-drivers.txt && break
		sleep 0.2
		i=$((i + 1))
	done
	dd if=/dev/sda of=/dev/null bs=64k count=16 iflag=direct 2>/dev/null
	sleep 2
	tmux capture-pane -p -t tui >tui-drivers.txt 2>/dev/null
	tmux send-keys -t tui q
	sleep 0.5
	tmux kill-server 2>/dev/null
	cp tui-drivers.txt tui-drivers.err /share/
else
	echo "no tmux in the guest" >/share/tui-drivers.skip
fi
say "done"
