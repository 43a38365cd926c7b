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
# -ENODEV; a bind then binds it.  Then the keyboard's interface is
# unbound from usbhid and bound to urbbuggy through new_id, which polls
# its interrupt endpoint with the bugs of a polling driver (urbbuggy.c),
# and unbound again.  Last, still capturing, both modules are unloaded:
# usb_deregister, and urbbuggy's exit poisons the URB it left queued.
#
# The driver rules: with CAPTURE_OPTS=--drivers (run.sh's default when
# ./urbscope has eBPF) the capture also holds the drivers' calls traced in
# the USB core and the rules urbscope found in them, which check-kmod.py
# asserts: gfp-kernel-in-atomic, submit-active-urb, minor-leak and
# intfdata-after-disconnect for urbbuggy on the disk; on the keyboard
# gfp-kernel-in-atomic (a task with interrupts off),
# urbs-in-flight-after-disconnect, submit-after-disconnect,
# resubmit-on-shutdown and intfdata-after-disconnect; none for urbskel.
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

# bound DRIVER [INTF]: wait up to 5 s for the interface (the disk's) to
# be DRIVER's.
bound() {
	i=0
	while [ ! -e "/sys/bus/usb/drivers/$1/${2:-$intf}" ] &&
	    [ $i -lt 50 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	[ -e "/sys/bus/usb/drivers/$1/${2:-$intf}" ]
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
# the disk's id goes, so that the keyboard's new_id does not probe it
echo "$vid $pid" >/sys/bus/usb/drivers/urbbuggy/remove_id
sleep 0.5

say "PHASE urbbuggy keyboard"
kintf=
for i in /sys/bus/usb/drivers/usbhid/[0-9]*:*; do
	[ "$(cat "$i/bInterfaceProtocol" 2>/dev/null)" = 01 ] &&
	    kintf=$(basename "$i") && break
done
ks=/sys/bus/usb/devices/${kintf%%:*}
echo "$kintf $(cat "$ks/idVendor") $(cat "$ks/idProduct")" \
    "$(cat "$ks/busnum") $(cat "$ks/devnum")" >kbd.txt
read -r kintf kvid kpid kbus kdev <kbd.txt
say "keyboard: $kintf $kvid:$kpid on bus $kbus dev $kdev"
echo "$kintf" >/sys/bus/usb/drivers/usbhid/unbind
echo "$kvid $kpid" >/sys/bus/usb/drivers/urbbuggy/new_id
bound urbbuggy "$kintf" && say "urbbuggy: polling $kintf"
sleep 0.5
# disconnect leaves the interrupt URB queued and a work that submits
# GET_STATUS 100 ms later
echo "$kintf" >/sys/bus/usb/drivers/urbbuggy/unbind
sleep 0.5

# Unloading urbbuggy frees the minor its disconnect leaked and poisons
# the keyboard's URB (see urbbuggy.c).  A crash here leaves no guest.rc,
# which fails the test.
say "PHASE rmmod"
rmmod urbbuggy && rmmod urbskel
echo "exit $?" >rmmod.txt
ls /sys/class/usbmisc >>rmmod.txt 2>&1
sleep 0.5

say "PHASE stop"
stop_pid $cap INT >capture.rc

# The served loopback, in a capture of its own: urbscope serve's loopback
# model (0xfff0:0xfff0, bulk OUT 0x02 looped to bulk IN 0x81) attached to
# the guest's vhci-hcd, with a STALL armed on the first IN transaction
# after 1024 bytes went out of 0x81 (-i).  urbskel, then urbbuggy, each on
# a loopback served afresh: 1024 bytes written and read back, then 512
# more and two reads.  The first of them meets the STALL (-EPIPE);
# urbskel clears the halt (usb_clear_halt) and its second read gets the
# 512 bytes; urbbuggy clears nothing and its second read is submitted to
# the halted endpoint and STALLs again (the rule halt-not-cleared).
say "PHASE loopback"
# shellcheck disable=SC2086
urbscope capture -i usbmon0 $CAPTURE_OPTS -w lb-cap.pcapng \
    2>lb-capture.err &
lbcap=$!
i=0
while ! grep -q "capturing on" lb-capture.err 2>/dev/null && [ $i -lt 300 ]
do
	sleep 0.1
	i=$((i + 1))
done
modprobe vhci-hcd || say "no vhci-hcd"
awk 'BEGIN { for (i = 0; i < 64; i++) printf "loopback %06d\n", i }' \
    >lb-a.bin
awk 'BEGIN { for (i = 0; i < 32; i++) printf "after the %05d\n", i }' \
    >lb-b.bin

# lb_intf: the served loopback's interface, once it is there
lb_intf() {
	for d in /sys/bus/usb/devices/*; do
		[ "$(cat "$d/idVendor" 2>/dev/null)" = fff0 ] &&
		    [ "$(cat "$d/idProduct" 2>/dev/null)" = fff0 ] &&
		    [ -e "$d/${d##*/}:1.0" ] && echo "${d##*/}:1.0" && return 0
	done
	return 1
}

# loopback DRIVER: serve a loopback with the STALL armed, bind DRIVER to
# it through new_id, run the transfers above through its node, unbind.
loopback() {
	urbscope serve -A -i '1 stall 0x81 1 on bytes 0x81 1024' loopback \
	    2>"lb-serve-$1.err" &
	srv=$!
	j=0
	while ! lb_intf >/dev/null && [ $j -lt 300 ]; do
		sleep 0.1
		j=$((j + 1))
	done
	li=$(lb_intf) || { say "$1: no loopback"; stop_pid $srv INT; return; }
	ld=/sys/bus/usb/devices/${li%%:*}
	echo "$li fff0 fff0 $(cat "$ld/busnum") $(cat "$ld/devnum")" \
	    >"lb-$1.txt"
	[ -e "/sys/bus/usb/drivers/$1" ] || insmod "$kmods/$1.ko"
	echo "fff0 fff0" >"/sys/bus/usb/drivers/$1/new_id"
	bound "$1" "$li" || say "$1: not bound to $li"
	name=$(ls "/sys/bus/usb/devices/$li/usbmisc" 2>/dev/null | head -n 1)
	dev=$(cat "/sys/class/usbmisc/$name/dev" 2>/dev/null)
	[ -c "/dev/$name" ] || mknod "/dev/$name" c "${dev%%:*}" "${dev##*:}"
	say "$1: loopback $li as /dev/$name"
	n=/dev/$name
	dd if=lb-a.bin of="$n" bs=1024 count=1 2>"lb-$1-dd.txt"
	# urbbuggy's read takes 1024 bytes in two URBs (its completion
	# resubmits), urbskel's 512 in one
	dd if="$n" of="lb-$1-1.bin" bs=512 count=1 2>>"lb-$1-dd.txt"
	[ "$1" = urbskel ] &&
	    dd if="$n" of="lb-$1-2.bin" bs=512 count=1 2>>"lb-$1-dd.txt"
	dd if=lb-b.bin of="$n" bs=512 count=1 2>>"lb-$1-dd.txt"
	for k in 3 4; do
		dd if="$n" of="lb-$1-$k.bin" bs=512 count=1 2>"lb-$1-$k.err"
		echo "exit $?" >>"lb-$1-$k.err"
	done
	echo "$li" >"/sys/bus/usb/drivers/$1/unbind"
	echo "fff0 fff0" >"/sys/bus/usb/drivers/$1/remove_id"
	stop_pid $srv INT >"lb-serve-$1.rc"
	sleep 1
}
loopback urbskel
loopback urbbuggy
rmmod urbbuggy
rmmod urbskel
sleep 0.5
stop_pid $lbcap INT >lb-capture.rc

ls -l /tmp/out
cp /tmp/out/* /share/
say "PHASE done"
