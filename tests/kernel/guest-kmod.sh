# tests/kernel/guest-kmod.sh - the guest half of the test of our own
# kernel modules (tests/kernel/modules/, built by kmod.sh and put into the
# initramfs by `vm.sh --module`); run.sh runs it after guest-test.sh and
# check-kmod.py checks what it leaves in the share.
#
# The usb-storage disk's interface (bulk IN and OUT) is unbound from
# usb-storage and bound, through new_id, first to urbskel, the
# well-behaved driver, then to urbbuggy, the buggy one.  Each gets one
# SCSI READ(10) of block 0 through its character device: the CBW written,
# the data and the CSW read (urbbuggy's read() chain ends on the CSW: its
# completion resubmits the URB, with GFP_KERNEL, to fetch it).  Each is
# then unbound, which calls its disconnect.  `urbscope devices --why`
# explains each binding.  One urbscope capture records it all.  urbbuggy
# is loaded with fail_probe=1: its first probe, through new_id, returns
# -ENODEV; a bind then binds it.
#
# The driver rules: with CAPTURE_OPTS=--drivers (run.sh's default when
# ./urbscope has eBPF) the capture also holds the drivers' calls traced in
# the USB core and the rules urbscope found in them, which check-kmod.py
# asserts: gfp-kernel-in-atomic, submit-active-urb, minor-leak and
# intfdata-after-disconnect for urbbuggy, none for urbskel.
CAPTURE_OPTS=${CAPTURE_OPTS:-}
mkdir -p /tmp/out
cd /tmp/out || exit 1
kmods=/lib/modules/$(uname -r)/extra

load_usbmon || exit 1
# shellcheck disable=SC2086
urbscope capture -i usbmon0 $CAPTURE_OPTS -w cap.pcapng 2>capture.err &
cap=$!
echo "$CAPTURE_OPTS" >capture-opts.txt
# loading and attaching the BPF programs takes a while under TCG
i=0
while ! grep -q "capturing on" capture.err 2>/dev/null && [ $i -lt 300 ]; do
	sleep 0.1
	i=$((i + 1))
done
sleep 0.5

say "PHASE enumeration"
usb_up || say "usb_up failed"

# the disk: its interface, ids and address
intf=$(cd /sys/bus/usb/drivers/usb-storage && ls -d [0-9]*:* | head -n 1)
udev=${intf%%:*}
s=/sys/bus/usb/devices/$udev
echo "$intf $(cat "$s/idVendor") $(cat "$s/idProduct")" \
    "$(cat "$s/busnum") $(cat "$s/devnum")" >disk.txt
read -r intf vid pid busnum devnum <disk.txt
say "disk: $intf $vid:$pid on bus $busnum dev $devnum"

say "PHASE unbind usb-storage"
echo "$intf" >/sys/bus/usb/drivers/usb-storage/unbind
sleep 0.5

# cbw TAG: a Bulk-Only CBW (USB MSC BOT 5.1) with the 4-byte TAG: READ(10)
# of block 0, 512 bytes IN.
cbw() {
	printf '\125\123\102\103%s\000\002\000\000\200\000\012' "$1"
	printf '\050\000\000\000\000\000\000\000\001\000\000\000\000\000\000\000'
}

# bound DRIVER: wait up to 5 s for the disk's interface to be DRIVER's.
bound() {
	i=0
	while [ ! -e "/sys/bus/usb/drivers/$1/$intf" ] && [ $i -lt 50 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	[ -e "/sys/bus/usb/drivers/$1/$intf" ]
}

# bind_new_id DRIVER [PARAM]: insmod it (with PARAM), give it the disk's
# id through new_id, and record the binding: driver link, class device,
# `urbscope devices --why`.  Prints the character device's node.  When
# the probe failed (urbbuggy's fail_probe=1: -ENODEV), why the interface
# has no driver is recorded and the interface bound again through bind.
bind_new_id() {
	# shellcheck disable=SC2086
	insmod "$kmods/$1.ko" $2 || return 1
	echo "$vid $pid" >"/sys/bus/usb/drivers/$1/new_id" || return 1
	if [ -n "$2" ] && ! bound "$1"; then
		urbscope devices --why "$intf" >"why-failed-$1.txt" 2>&1
		echo "$intf" >"/sys/bus/usb/drivers/$1/bind"
		bound "$1"
	fi
	readlink "/sys/bus/usb/devices/$intf/driver" >"driver-$1.txt"
	cat "/sys/bus/usb/drivers/$1/new_id" >"new_id-$1.txt"
	urbscope devices --why "$intf" >"why-$1.txt" 2>&1
	echo "exit $?" >>"why-$1.txt"
	name=$(ls "/sys/bus/usb/devices/$intf/usbmisc" 2>/dev/null | head -n 1)
	[ -n "$name" ] || return 1
	dev=$(cat "/sys/class/usbmisc/$name/dev")
	echo "$name $dev" >"class-$1.txt"
	# devtmpfs makes the node; mknod where it did not
	[ -c "/dev/$name" ] ||
	    mknod "/dev/$name" c "${dev%%:*}" "${dev##*:}" || return 1
	echo "/dev/$name"
}

say "PHASE urbskel"
node=$(bind_new_id urbskel)
say "urbskel: ${node:-not bound}"
if [ -n "$node" ]; then
	cbw skel >/tmp/cbw-skel
	dd if=/tmp/cbw-skel of="$node" bs=31 count=1 conv=notrunc 2>&1
	dd if="$node" of=skel-data.bin bs=512 count=1 2>&1
	dd if="$node" of=skel-csw.bin bs=13 count=1 2>&1
fi
echo "$intf" >/sys/bus/usb/drivers/urbskel/unbind
ls /sys/class/usbmisc >usbmisc-after-urbskel.txt 2>&1

say "PHASE urbbuggy"
node=$(bind_new_id urbbuggy fail_probe=1)
say "urbbuggy: ${node:-not bound}"
if [ -n "$node" ]; then
	cbw bugy >/tmp/cbw-bugy
	dd if=/tmp/cbw-bugy of="$node" bs=31 count=1 conv=notrunc 2>&1
	# the submit of the URB in flight (-EBUSY) and the resubmit from
	# the completion happen in this read(); it returns the CSW
	dd if="$node" of=buggy-read.bin bs=512 count=1 2>&1
fi
echo "$intf" >/sys/bus/usb/drivers/urbbuggy/unbind
# the leaked minor: its class device outlives the binding
ls /sys/class/usbmisc >usbmisc-after-urbbuggy.txt 2>&1
urbscope devices --why "$intf" >why-unbound.txt 2>&1
sleep 0.5

say "PHASE stop"
stop_pid $cap INT >capture.rc
ls -l /tmp/out
cp /tmp/out/* /share/

# Last, with everything in the share: unloading urbbuggy frees the minor
# its disconnect leaked (see urbbuggy.c); a crash here loses no results,
# but leaves no guest.rc, which fails the test.
say "PHASE rmmod"
rmmod urbbuggy && rmmod urbskel
echo "exit $?" >/share/rmmod.txt
ls /sys/class/usbmisc >>/share/rmmod.txt 2>&1
say "PHASE done"
