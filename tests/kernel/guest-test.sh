# tests/kernel/guest-test.sh - the guest half of `make test-kernel`, run by
# tests/kernel/vm.sh with tests/kernel/host.py on the host side.
#
# usbmon is loaded before the host controller driver, and the three
# records (ours, the kernel's text interface and its binary read() stream)
# are started before it too, so they hold the whole enumeration: the QEMU
# pcaps can then be aligned on SET_ADDRESS.  Files are written to /tmp
# during the run (the 9p share costs a round trip per write) and copied to
# the share at the end.  check.py reads them; README.md lists the phases.
#
# CAPTURE=urbscope (default) runs `urbscope capture`; CAPTURE=raw records
# the raw read() stream of /dev/usbmon0 instead, as a stand-in.
CAPTURE=${CAPTURE:-urbscope}
mkdir -p /tmp/out
cd /tmp/out || exit 1

# The errors a user meets, each with its fix in the message.
if [ "$CAPTURE" != raw ]; then
	urbscope capture -i usbmon0 -c 1 -w /tmp/e.pcapng >err-notloaded.txt 2>&1
	echo "exit $?" >>err-notloaded.txt
fi
load_usbmon || exit 1
echo "$CAPTURE" >capture.kind
if [ "$CAPTURE" = raw ]; then
	cat /dev/usbmon0 >raw.bin 2>capture.err &
else
	urbscope capture -i usbmon0 -w cap.pcapng 2>capture.err &
fi
cap=$!
cat /sys/kernel/debug/usb/usbmon/0u >0u.txt &
txt=$!
# and the kernel's binary read() stream, which has every data byte
if [ "$CAPTURE" != raw ]; then
	cat /dev/usbmon0 >kernel.bin &
	kbin=$!
fi
sleep 1

say "PHASE enumeration"
usb_up || say "usb_up failed"

say "PHASE descriptors"
urbscope devices -v >devices.txt 2>devices.err
echo $? >devices.rc
lsusb -v >lsusb.txt 2>lsusb.err
echo $? >lsusb.rc
urbscope devices >devices-short.txt 2>&1
lsusb >lsusb-short.txt 2>&1

# A second capture, started after enumeration: it must begin with the
# synthetic descriptor records made from sysfs.
if [ "$CAPTURE" != raw ]; then
	urbscope capture -i usbmon0 -w late.pcapng 2>late.err &
	late=$!
	sleep 1

	urbscope capture -D >capture-D.txt 2>&1
	echo "exit $?" >>capture-D.txt
	urbscope capture -i usbmon7 -c 1 -w /tmp/e.pcapng >err-nobus.txt 2>&1
	echo "exit $?" >>err-nobus.txt
	su -s /bin/sh nobody -c \
	    'urbscope capture -i usbmon1 -c 1 -w /tmp/e.pcapng' \
	    >err-perm.txt 2>&1
	echo "exit $?" >>err-perm.txt
	# -Z: opens as root, then runs as nobody; the output file is
	# created after the switch, so in a directory nobody may write.
	mkdir -m 1777 /tmp/z
	urbscope capture -i usbmon1 -Z nobody -w /tmp/z/z.pcapng 2>z.err &
	zcap=$!
	sleep 1
	grep Uid /proc/$zcap/status >z.uid
fi

say "PHASE disk"
# -c, -s, -B and pcap to standard output: ends by itself after 20
# records, through a ring of 256 KiB.
if [ "$CAPTURE" != raw ]; then
	urbscope capture -i usbmon1 -c 20 -s 100 -B 256 -w - >stdout.pcap \
	    2>stdout.err &
	scap=$!
	sleep 1
fi
# 256 KiB direct read, a 16 KiB write of our own bytes and its read-back;
# later the whole disk (8 MiB), for some load on the capture.
dd if=/dev/sda of=/tmp/read1 bs=64k count=4 iflag=direct 2>&1
i=0
while [ $i -lt 1024 ]; do
	printf 'guest write %04d' $i
	i=$((i + 1))
done >/tmp/pattern
dd if=/tmp/pattern of=/dev/sda bs=16k count=1 seek=64 oflag=direct 2>&1
dd if=/dev/sda of=/tmp/read2 bs=16k count=1 skip=64 iflag=direct 2>&1
cmp /tmp/pattern /tmp/read2 && say "disk read-back equal"
if [ "$CAPTURE" != raw ]; then
	stop_pid $late INT >late.rc
	if kill -0 $scap 2>/dev/null; then
		echo "still running after the disk phase" >stdout.rc
		stop_pid $scap INT >>stdout.rc
	else
		wait $scap
		echo "exit $?" >stdout.rc
	fi
	stop_pid $zcap INT >z.rc
	cp /tmp/z/z.pcapng . 2>/dev/null
fi

dd if=/dev/sda of=/dev/null bs=256k iflag=direct 2>&1

say "PHASE keyboard"
kbd=$(input_node "USB Keyboard")
cat "$kbd" >keys.bin &
rd=$!
sleep 0.5
host_do keys u r b ret caps_lock caps_lock
sleep 0.5
kill $rd

say "PHASE tablet"
tab=$(input_node "USB Tablet")
cat "$tab" >tablet.bin &
rd=$!
sleep 0.5
host_do tablet 1000,1000 16000,20000 30000,500
host_do click
sleep 0.5
kill $rd

say "PHASE unplug"
host_do device_del kbd
sleep 1
say "PHASE replug"
host_do device_add driver=usb-kbd,id=kbd,bus=ehci.0,port=2,pcap=qemu-usb-kbd-replug.pcap
usb_settle
kbd=$(input_node "USB Keyboard")
cat "$kbd" >keys2.bin &
rd=$!
sleep 0.5
host_do keys a b
sleep 0.5
kill $rd

# The live TUI on the real bus, in a tmux pane: records arrive while the
# disk is read, follow keeps the newest on screen, k stops following and G
# resumes, q quits and gives the terminal back.  Each moment's screen goes
# to tui-NAME.txt for check.py; the disk must still be bound.
say "PHASE tui"
# pane: the screen into /tmp/out/tui-$1.txt
pane() {
	tmux capture-pane -p -t tui >"/tmp/out/tui-$1.txt" 2>/dev/null
}
# pane_wait NAME REGEX [TENTHS]: poll (10 s) until the pane shows REGEX;
# the last screen seen is tui-NAME.txt either way.
pane_wait() {
	i=0
	while [ $i -lt "${3:-50}" ]; do
		pane "$1"
		grep -qE -- "$2" "/tmp/out/tui-$1.txt" && return 0
		sleep 0.2
		i=$((i + 1))
	done
	say "tui: no /$2/ on the screen after $((${3:-50} / 5)) s"
	return 1
}
# pane_count NAME: the record count on the status bar of tui-NAME.txt
pane_count() {
	sed -n 's/^ [0-9]*\/\([0-9]*\) | .*/\1/p' "/tmp/out/tui-$1.txt"
}
# pane_settle NAME [MIN]: wait (10 s) until the record count on the status
# bar is MIN or more and stays the same for 0.4 s: the traffic made has
# all arrived.  A count short of MIN after 10 s is for check.py to see.
pane_settle() {
	last=
	i=0
	while [ $i -lt 25 ]; do
		pane "$1"
		c=$(pane_count "$1")
		[ -n "$c" ] && [ "$c" = "$last" ] && [ "$c" -ge "${2:-0}" ] &&
		    return 0
		last=$c
		sleep 0.4
		i=$((i + 1))
	done
	return 1
}
tui_live=
if ! command -v tmux >/dev/null; then
	echo "no tmux in the guest (not installed on the host)" >tui.skip
elif [ "$CAPTURE" != raw ]; then
	mkdir -p /tmp/tuispool
	# the pane outlives the TUI, so the screen after q can be seen
	TERM=screen tmux new-session -d -s tui -x 120 -y 40 \
	    "TMPDIR=/tmp/tuispool LANG=C.UTF-8 urbscope tui -i usbmon0 \
	    2>/tmp/out/tui.err; echo TUI-EXIT=\$? >/tmp/out/tui.exit;
	    echo TUI-EXIT; sleep 600" </dev/null >tui-tmux.err 2>&1
	# without a first screen the rest would only wait for nothing
	pane_wait live '\| LIVE .*\| FOLLOW' 100 && tui_live=1
	ls /tmp/tuispool >tui-spool.txt
fi
if [ -n "$tui_live" ]; then
	say "tui: live"
	pane_settle before
	n=$(pane_count before)
	# 4 KiB reads: 300 READ(10)s, 6 records each, over a few seconds
	dd if=/dev/sda of=/dev/null bs=4k count=300 iflag=direct 2>&1 &
	dd=$!
	pane_wait during '\| LIVE [1-9][0-9]*/s'
	wait $dd
	pane_settle after $((${n:-0} + 1800))
	say "tui: reads done"
	tmux send-keys -t tui k
	pane_wait k '\| LIVE [^F]*$'
	pane_settle k
	n=$(pane_count k)
	# while not following: 2 READ(10)s of 64 KiB
	dd if=/dev/sda of=/dev/null bs=64k count=2 iflag=direct 2>&1
	pane_settle k-more $((${n:-0} + 12))
	tmux send-keys -t tui G
	pane_wait G '\| FOLLOW'
	pane_settle G
	say "tui: q"
	tmux send-keys -t tui q
	i=0
	while [ ! -f tui.exit ] && [ $i -lt 50 ]; do
		sleep 0.2
		i=$((i + 1))
	done
	pane_wait quit 'TUI-EXIT' 10
	# the TUI's modes are off again: alternate screen, hidden cursor, mouse
	f='alternate_on=#{alternate_on} cursor_flag=#{cursor_flag}'
	tmux display -p -t tui "$f mouse_any_flag=#{mouse_any_flag}" \
	    >tui-term.txt
	ls /tmp/tuispool >tui-spool-after.txt
fi
command -v tmux >/dev/null && tmux kill-server 2>/dev/null

# Unbinding the disk's driver makes sd send its SYNCHRONIZE CACHE now,
# inside the capture, rather than at power-off after it.
say "PHASE unbind"
echo 1-1:1.0 >/sys/bus/usb/drivers/usb-storage/unbind
sleep 1

say "PHASE stop"
# The text record stops first, so that all of it lies within ours.  The
# stand-in cat ignores SIGINT (see stop_pid); our capture must stop on it
# and leave a complete file.
stop_pid $txt TERM >/dev/null
[ -n "$kbin" ] && stop_pid $kbin TERM >/dev/null
sleep 0.2
if [ "$CAPTURE" = raw ]; then
	stop_pid $cap TERM >capture.rc
else
	stop_pid $cap INT >capture.rc
fi
sleep 0.2
ls -l /tmp/out
cp /tmp/out/* /share/
say "PHASE done"
