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
# -c, -s and pcap to standard output: ends by itself after 20 records.
if [ "$CAPTURE" != raw ]; then
	urbscope capture -i usbmon1 -c 20 -s 100 -w - >stdout.pcap \
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
