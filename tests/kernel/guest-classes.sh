# tests/kernel/guest-classes.sh - the guest half of the class-device capture
# of tests/data/linux61-classes (its README.md says how it was made):
#
#   tests/kernel/vm.sh --devices classes --guest tests/kernel/guest-classes.sh \
#       --host tests/kernel/host.py OUTDIR
#
# usbmon is loaded and the records (our capture and the kernel's text
# interface) started before the host controller drivers, so they hold the
# whole enumeration; then the class drivers bind, the descriptors are read
# (lsusb -v, usb-devices, urbscope devices -v, a dump of sysfs) and each
# device is given a little traffic of its class.  Records go to /tmp and are
# copied to /share/out at the end (every write to the share is a round trip
# to the host).
mkdir -p /tmp/out /share/out
cd /tmp/out || exit 1

load_usbmon || exit 1
urbscope capture -i usbmon0 -w classes.pcapng 2>capture.err &
cap=$!
cat /sys/kernel/debug/usb/usbmon/0u >usbmon-0u.txt &
txt=$!
sleep 1

say "PHASE enumeration"
modprobe ehci-pci && modprobe uhci-hcd && modprobe evdev &&
    modprobe usbhid && modprobe hid-generic && modprobe wacom &&
    modprobe snd-usb-audio && modprobe cdc_ether && modprobe rndis_host ||
    say "modprobe failed"

# netif DRIVER: the network interface a USB driver made
netif() {
	for n in /sys/class/net/*; do
		[ "$(basename "$(readlink "$n/device/driver" 2>/dev/null)")" = \
		    "$1" ] && {
			echo "${n##*/}"
			return 0
		}
	done
	return 1
}
i=0
while [ $i -lt 300 ]; do
	[ -e /dev/snd/pcmC0D0p ] && netif cdc_ether >/dev/null &&
	    usbdev "USB CCID" >/dev/null && usbdev filesharing >/dev/null &&
	    input_node "USB Mouse" >/dev/null &&
	    input_node "Wacom" >/dev/null && break
	sleep 0.1
	i=$((i + 1))
done
say "devices ready after $i tenths"
sleep 1

say "PHASE descriptors"
lsusb -v >lsusb-v.txt 2>lsusb-v.err
lsusb -t >lsusb-t.txt 2>&1
usb-devices >usb-devices.txt 2>&1
urbscope devices -v >devices-v.txt 2>devices-v.err
# /sys/bus/usb/devices/* in the format of tests/fixtures/sysfs (mktree.py)
for d in /sys/bus/usb/devices/*; do
	p=$(readlink -f "$d")
	echo "=== ${d##*/}"
	echo "sysfs-path: $p"
	drv=
	[ -e "$p/driver" ] && drv=$(basename "$(readlink "$p/driver")")
	echo "driver: $drv"
	for f in "$p"/*; do
		b=${f##*/}
		[ -f "$f" ] && [ "$b" != descriptors ] || continue
		v=$(cat "$f" 2>/dev/null) || continue
		echo "$b: $(printf '%s' "$v" | tr '\n' '|')"
	done
	[ -f "$p/descriptors" ] && echo "descriptors(hex): $(od -An -v -tx1 \
	    "$p/descriptors" | tr -s ' \n' '  ' | sed 's/^ //; s/ $//')"
	for e in "$p"/ep_*; do
		[ -d "$e" ] || continue
		l=
		for f in "$e"/*; do
			[ -f "$f" ] || continue
			l="$l ${f##*/}=$(cat "$f" 2>/dev/null)"
		done
		echo "${e##*/}:$l"
	done
	c=$(cd "$p" && ls -d ./*-port* 2>/dev/null | sed 's|^\./||' | tr '\n' ' ')
	[ -n "$c" ] && echo "children: ${c% }"
	echo
done >sysfs-usb.txt

say "PHASE mouse"
m=$(input_node "USB Mouse")
cat "$m" >mouse.bin &
rd=$!
sleep 0.5
host_do mouse 10,5 -20,3 0,0,1 0,0,-1
host_do click
sleep 0.5
kill $rd

say "PHASE wacom"
w=$(input_node "Wacom")
cat "$w" >wacom.bin &
rd=$!
sleep 0.5
host_do tablet 1000,1000 16000,20000
host_do mouse 5,5
host_do click
sleep 0.5
kill $rd

say "PHASE audio"
classes-tool tone /dev/snd/pcmC0D0p 200 2>&1
cat /proc/asound/card0/stream0 >asound-stream0.txt 2>&1

say "PHASE network (CDC ECM)"
n=$(netif cdc_ether)
ip link set "$n" up
udhcpc -i "$n" -n -q -t 2 -T 2 -s /bin/true 2>&1
ip addr add 10.0.2.15/24 dev "$n"
ping -c 2 -W 2 10.0.2.2 2>&1
ip -s link show "$n" 2>&1
ip link set "$n" down

say "PHASE network (RNDIS)"
nd=$(usbdev "Network Device")
echo 2 >"/sys/bus/usb/devices/$nd/bConfigurationValue"
i=0
while [ $i -lt 100 ] && ! netif rndis_host >/dev/null; do
	sleep 0.1
	i=$((i + 1))
done
n=$(netif rndis_host) && {
	ip link set "$n" up
	ip addr add 10.0.2.15/24 dev "$n"
	ping -c 1 -W 2 10.0.2.2 2>&1
	ip link set "$n" down
} || say "no rndis_host interface"

# bulk DEVICE-NAME CMD-HEX COUNT: one command to the device's first
# interface on its bulk OUT endpoint, COUNT reads of its bulk IN endpoint
bulk() {
	dn=$(usbdev "$1") || return 1
	s=/sys/bus/usb/devices/$dn
	node=$(printf '/dev/bus/usb/%03d/%03d' "$(cat "$s/busnum")" \
	    "$(cat "$s/devnum")")
	for e in "$s/$dn:1.0"/ep_*; do
		[ "$(cat "$e/type")" = Bulk ] || continue
		if [ "$(cat "$e/direction")" = in ]; then
			in=0x$(cat "$e/bEndpointAddress")
		else
			out=0x$(cat "$e/bEndpointAddress")
		fi
	done
	classes-tool bulk "$node" 0 "$out" "$2" "$in" "$3" 2>&1
}

say "PHASE ccid"
# PC_to_RDR_GetSlotStatus, PC_to_RDR_IccPowerOn (no card in the slot),
# PC_to_RDR_GetParameters
bulk "USB CCID" 65000000000000000000 1
bulk "USB CCID" 62000000000001000000 1
bulk "USB CCID" 6c000000000002000000 1

say "PHASE mtp"
# OpenSession (session 1), then GetDeviceInfo: a data phase and a response
bulk filesharing 10000000010002100100000001000000 1
bulk filesharing 0c0000000100011002000000 2

say "PHASE end"
sleep 1
kill $txt
stop_pid $cap INT >capture.rc
cp -- * /share/out/
say "done"
