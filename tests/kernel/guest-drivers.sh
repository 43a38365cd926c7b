# tests/kernel/guest-drivers.sh - the guest half of the --drivers test
# (tests/kernel/run.sh, checked by check-drivers.py): `urbscope capture -i
# usbmon0 --drivers` runs from before the host controller driver is
# loaded, so it sees usb-storage and usbhid probe their interfaces, then
# the disk is read (whole) and written, keys are typed (host.py: usbhid
# resubmits from its completion handler, in irq context), and usb-storage
# is unbound (a disconnect) before the capture gets SIGINT.
mkdir -p /tmp/out
cd /tmp/out || exit 1

load_usbmon || exit 1
urbscope capture -i usbmon0 --drivers -w traced.pcapng 2>traced.err &
cap=$!
# loading and attaching the BPF programs takes a while under TCG
i=0
while ! grep -q "capturing on" traced.err 2>/dev/null && [ $i -lt 300 ]; do
	sleep 0.1
	i=$((i + 1))
done
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
for d in /sys/bus/usb/drivers/usb-storage/*:*; do
	[ -e "$d" ] && echo "${d##*/}" >/sys/bus/usb/drivers/usb-storage/unbind
done
sleep 1

say "PHASE stop"
stop_pid $cap INT >traced.rc
cp traced.pcapng traced.err traced.rc /share/
say "done"
