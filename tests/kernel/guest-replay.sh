# tests/kernel/guest-replay.sh - the guest half of the replay test
# (tests/kernel/run.sh, checked by check-replay.py): a capture of the
# guest's own devices (QEMU's keyboard unplugged and plugged again, so its
# enumeration is in it; QEMU's disk read in two places) replayed to the
# same devices with `urbscope replay` and with the C programs `urbscope
# export --format c` writes (built on the host: host.py's build action),
# then to devices that differ: a keyboard with another serial number, a
# disk (disk2.img) with two other sectors.  Last, a CDC-ACM gadget on
# dummy_hcd whose side echoes: a line written through cdc-acm and read
# back, replayed.  Everything lands in /share.
mkdir -p /tmp/out
cd /share || exit 1

# addr SYSNAME: BUS.DEV of a USB device in sysfs
addr() {
	echo "$(cat "/sys/bus/usb/devices/$1/busnum").$(cat \
	    "/sys/bus/usb/devices/$1/devnum")"
}

# run NAME CMD...: CMD's output in NAME.txt (stderr in NAME.err), its
# exit status in NAME.rc
run() {
	n=$1
	shift
	"$@" >"$n.txt" 2>"$n.err"
	echo $? >"$n.rc"
	say "$n: exit $(cat "$n.rc"), $(tail -n 1 "$n.txt")"
}

load_usbmon || exit 1
usb_up || exit 1
uname -r >kernel.txt
modprobe -q usbhid 2>/dev/null

say "PHASE capture"
urbscope capture -i usbmon0 -w /tmp/out/cap.pcapng 2>cap.err &
cap=$!
wait_for grep -q "capturing on" cap.err
host_do device_del kbd
sleep 1
host_do device_add driver=usb-kbd,id=kbd,bus=ehci.0,port=2
usb_settle
sleep 1
# two READ(10)s of 4 KiB from sector 0 and two from sector 2048
dd if=/dev/sda of=/dev/null bs=4k count=2 iflag=direct 2>/dev/null
dd if=/dev/sda of=/dev/null bs=4k skip=256 count=2 iflag=direct 2>/dev/null
sleep 0.5
stop_pid $cap INT >cap.rc
cp /tmp/out/cap.pcapng cap.pcapng
kbd=$(usbdev "QEMU USB Keyboard")
disk=$(usbdev "QEMU USB HARDDRIVE")
kaddr=$(addr "$kbd")
daddr=$(addr "$disk")
echo "kbd $kaddr disk $daddr" >addr.txt
say "keyboard $kbd, disk $disk: $(cat addr.txt)"
urbscope export --format c -s "$kaddr" cap.pcapng -o kbd.c 2>export.err
urbscope export --format c -s "$daddr" cap.pcapng -o disk.c 2>>export.err
host_do build kbd disk

say "PHASE same"
run kbd-dry urbscope replay --dry-run --from "$kaddr" cap.pcapng
run disk-busy urbscope replay -d 46f4:0001 cap.pcapng
run kbd-same urbscope replay --from "$kaddr" --detach cap.pcapng
run disk-same urbscope replay -d 46f4:0001 --detach cap.pcapng
# usb-storage and usbhid bound again: the disk and keyboard are back
wait_for [ -b /dev/sda ] && wait_for input_node "QEMU USB Keyboard" >/dev/null
echo "sda $([ -b /dev/sda ] && echo yes) kbd $(input_node \
    "QEMU USB Keyboard" >/dev/null && echo yes)" >bound.txt
# the keyboard's capture to the tablet (-s: the live device by its
# address; QEMU's tablet shares the keyboard's IDs): it stalls the LED
# report, the replay says so and goes on to the end
tab=$(usbdev "QEMU USB Tablet")
run kbd-tablet urbscope replay --from "$kaddr" -s "$(addr "$tab" | tr . :)" \
    --detach cap.pcapng
run kbd-c-same ./kbd
run disk-c-same ./disk
wait_for [ -b /dev/sda ]

say "PHASE differ"
host_do device_del kbd
host_do device_add driver=usb-kbd,id=kbd2,bus=ehci.0,port=2,serial=other-serial-4711
host_do device_del stor
host_do qmp '{"execute": "blockdev-add", "arguments": {"driver": "raw", "node-name": "disk2", "file": {"driver": "file", "filename": "disk2.img"}}}'
host_do device_add driver=usb-storage,id=stor2,bus=ehci.0,port=1,drive=disk2,serial=other-disk
usb_settle
sleep 1
run kbd-differ urbscope replay --from "$kaddr" --detach cap.pcapng
# the live disk by its address this time
disk=$(usbdev "QEMU USB HARDDRIVE")
run disk-differ urbscope replay -s "$(addr "$disk" | tr . :)" --detach \
    cap.pcapng
wait_for [ -b /dev/sda ]
run kbd-c-differ ./kbd
run disk-c-differ ./disk

say "PHASE acm"
# a CDC-ACM gadget on dummy_hcd (the kernel's own gadget stack), its side
# echoing what comes: cdc-acm's traffic captured (the line set, a line
# written and read back), replayed to it with --detach
modprobe configfs && modprobe libcomposite && modprobe usb_f_acm &&
    modprobe cdc-acm && modprobe dummy_hcd || say "acm: modprobe failed"
grep -q configfs /proc/mounts ||
    mount -t configfs none /sys/kernel/config || say "acm: no configfs"
g=/sys/kernel/config/usb_gadget/acm
mkdir -p $g/strings/0x409 $g/configs/c.1 $g/functions/acm.usb0 &&
    echo 0x1d6b >$g/idVendor && echo 0x0104 >$g/idProduct &&
    echo urbscope >$g/strings/0x409/manufacturer &&
    echo "ACM gadget" >$g/strings/0x409/product &&
    echo 4711 >$g/strings/0x409/serialnumber &&
    ln -s $g/functions/acm.usb0 $g/configs/c.1/ &&
    echo dummy_udc.0 >$g/UDC || say "acm: no gadget"
wait_for [ -c /dev/ttyACM0 ] || say "acm: no /dev/ttyACM0"
wait_for [ -c /dev/ttyGS0 ] || say "acm: no /dev/ttyGS0"
stty -F /dev/ttyGS0 raw -echo 2>/dev/null
cat /dev/ttyGS0 >/dev/ttyGS0 &
echo_pid=$!
urbscope capture -i usbmon0 -w /tmp/out/acm.pcapng 2>acm-cap.err &
cap=$!
wait_for grep -q "capturing on" acm-cap.err
stty -F /dev/ttyACM0 115200 raw -echo 2>/dev/null
{
	printf 'through the gadget and back\n' >&3
	timeout 5 head -n 1 <&3 >acm-back.txt
} 3<>/dev/ttyACM0
sleep 0.5
stop_pid $cap INT >/dev/null
cp /tmp/out/acm.pcapng acm.pcapng
acm=$(usbdev "ACM gadget")
aaddr=$(addr "$acm")
echo "acm $aaddr" >>addr.txt
# the gadget's SERIAL_STATE notifications follow its own side's events
# (its tty opened, closed), not the host's requests: left out
run acm-same urbscope replay --from "$aaddr" --detach \
    -Y '!(usb.transfer_type == 1)' acm.pcapng
kill $echo_pid 2>/dev/null
say "PHASE done"
