# tests/kernel/guest-gadget.sh - the guest half of the gadget capture of
# tests/data/linux61-gadget (its README.md says how it was made):
#
#   tests/kernel/vm.sh --devices gadget --guest tests/kernel/guest-gadget.sh \
#       --timeout 600 OUTDIR
#
# No QEMU USB device: the kernel plays both sides.  dummy_hcd gives a
# virtual device controller (dummy_udc.0) wired to a virtual host
# controller; a composite gadget made through configfs (UAC2 audio, MIDI,
# CDC ACM, UVC video) is bound to it, and the host side's own drivers
# (snd-usb-audio, cdc-acm, uvcvideo) bind to that device.  usbmon is
# loaded and the records (our capture and the kernel's text interface)
# started before dummy_hcd, so they hold the whole enumeration; then each
# function is given a little traffic of its class.  Records go to /tmp and
# are copied to /share/out at the end.
mkdir -p /tmp/out /share/out
cd /tmp/out || exit 1

# vhci-hcd makes 16 buses (8 controllers, each high and super speed):
# loaded before the capture starts, their root hubs' enumeration stays out
modprobe vhci-hcd || say "modprobe vhci-hcd failed"
load_usbmon || exit 1
urbscope capture -i usbmon0 -w gadget.pcapng 2>capture.err &
cap=$!
cat /sys/kernel/debug/usb/usbmon/0u >usbmon-0u.txt &
txt=$!
sleep 1

say "PHASE modules"
modprobe configfs && modprobe libcomposite && modprobe usb_f_uac2 &&
    modprobe usb_f_midi && modprobe usb_f_acm && modprobe usb_f_uvc &&
    modprobe snd-usb-audio && modprobe cdc-acm && modprobe uvcvideo ||
    say "modprobe failed"
grep -q configfs /proc/mounts ||
    mount -t configfs none /sys/kernel/config || say "no configfs"
# the virtual device controllers: dummy_hcd (dummy_udc.0 wired to its own
# host controller, bus 17), and usbip-vudc (usbip-vudc.0) with the usbip
# host controller vhci_hcd.0 (bus 1).  dummy_hcd has no isochronous
# endpoints, so the audio and video functions go to usbip-vudc.
modprobe dummy_hcd && modprobe usbip-vudc ||
    say "modprobe of the controllers failed"
sleep 1

# w VALUE FILE: write a configfs attribute, saying so when it fails
w() {
	echo "$1" >"$2" 2>/dev/null || say "cannot write $1 to $2"
}
# gadget NAME PRODUCT: a gadget (in the current folder, the gadget's
# configfs folder after) with one configuration
gadget() {
	mkdir "/sys/kernel/config/usb_gadget/$1" &&
	    cd "/sys/kernel/config/usb_gadget/$1" || exit 1
	w 0x1d6b idVendor          # Linux Foundation
	w 0x0104 idProduct         # Multifunction Composite Gadget
	w 0x0601 bcdDevice
	w 0x0200 bcdUSB
	# functions with interface association descriptors
	w 0xef bDeviceClass
	w 0x02 bDeviceSubClass
	w 0x01 bDeviceProtocol
	mkdir strings/0x409
	w urbscope strings/0x409/manufacturer
	w "$2" strings/0x409/product
	w "$1" strings/0x409/serialnumber
	mkdir configs/c.1 configs/c.1/strings/0x409
	w "$2" configs/c.1/strings/0x409/configuration
	w 250 configs/c.1/MaxPower
}
# uac2: playback and capture, 48 kHz, 2 channels, 16 bits
uac2() {
	mkdir functions/uac2.usb0 && {
		for d in p c; do
			w 3 functions/uac2.usb0/${d}_chmask
			w 48000 functions/uac2.usb0/${d}_srate
			w 2 functions/uac2.usb0/${d}_ssize
		done
		ln -s functions/uac2.usb0 configs/c.1/
	} || say "no uac2 function"
}
# midi: one port each way
midi() {
	mkdir functions/midi.usb0 && {
		w 1 functions/midi.usb0/in_ports
		w 1 functions/midi.usb0/out_ports
		ln -s functions/midi.usb0 configs/c.1/
	} || say "no midi function"
}
acm() {
	mkdir functions/acm.usb0 && ln -s functions/acm.usb0 configs/c.1/ ||
	    say "no acm function"
}
# uvc: a control header, one uncompressed format (YUY2) with one frame
# size, a streaming header; for full, high and super speed
uvc() {
	U=functions/uvc.usb0
	mkdir $U || {
		say "no uvc function"
		return
	}
	mkdir $U/control/header/h &&
	    ln -s $U/control/header/h $U/control/class/fs/h &&
	    ln -s $U/control/header/h $U/control/class/ss/h ||
	    say "uvc control header failed"
	F=$U/streaming/uncompressed/u
	mkdir -p $F/120p || say "uvc format failed"
	w 160 $F/120p/wWidth
	w 120 $F/120p/wHeight
	w 38400 $F/120p/dwMaxVideoFrameBufferSize
	w 9216000 $F/120p/dwMinBitRate
	w 9216000 $F/120p/dwMaxBitRate
	w 333333 $F/120p/dwDefaultFrameInterval
	printf '333333\n666666\n' >$F/120p/dwFrameInterval ||
	    say "uvc frame intervals failed"
	mkdir $U/streaming/header/h &&
	    ln -s $F $U/streaming/header/h/u &&
	    ln -s $U/streaming/header/h $U/streaming/class/fs/h &&
	    ln -s $U/streaming/header/h $U/streaming/class/hs/h &&
	    ln -s $U/streaming/header/h $U/streaming/class/ss/h ||
	    say "uvc streaming header failed"
	w 1024 $U/streaming_maxpacket
	ln -s $U configs/c.1/
}

say "PHASE gadget 1 (MIDI, ACM on dummy_hcd)"
gadget g1 "urbscope midi acm"
midi
acm
echo dummy_udc.0 >UDC || say "g1: bind failed"

say "PHASE gadget 2 (UAC2, UVC on usbip-vudc)"
gadget g2 "urbscope audio video"
uac2
uvc
echo usbip-vudc.0 >UDC || {
	say "g2: bind failed; without uvc"
	rm configs/c.1/uvc.usb0
	echo usbip-vudc.0 >UDC || say "g2: bind failed again"
}
ls /sys/kernel/config/usb_gadget/*/configs/c.1 >/tmp/out/gadget-config.txt
# vnode PATTERN: the /dev/videoN whose name matches PATTERN (grep -E)
vnode() {
	for v in /sys/class/video4linux/video*; do
		grep -qE "$1" "$v/name" 2>/dev/null && {
			echo "/dev/${v##*/}"
			return 0
		}
	done
	return 1
}
# The UVC function keeps the gadget off the bus until a program subscribes
# to its video node's events; classes-tool answers the host's requests
# (it does not stream)
gv=$(vnode vudc) && {
	classes-tool uvc-gadget "$gv" 200 >/tmp/out/uvc-gadget.log 2>&1 &
	gvopen=$!
}
say "gadget video node $gv"
sleep 0.5
classes-tool usbip /sys/devices/platform/usbip-vudc.0 \
    /sys/devices/platform/vhci_hcd.0 0 &
usbip=$!
cd /tmp/out || exit 1

# card PATTERN: the number of the ALSA card whose /proc/asound/cards line
# matches PATTERN
card() {
	sed -n 's/^ *\([0-9][0-9]*\) \[.*\]: .*/&/p' /proc/asound/cards |
	    grep -E "$1" | sed 's/^ *\([0-9]*\).*/\1/' | head -n 1
}
i=0
while [ $i -lt 600 ]; do
	[ -n "$(card 'USB-Audio - urbscope audio')" ] &&
	    [ -n "$(card 'USB-Audio - urbscope midi')" ] &&
	    [ -e /dev/ttyACM0 ] && vnode urbscope >/dev/null && break
	sleep 0.1
	i=$((i + 1))
done
say "host drivers ready after $i tenths"
sleep 2
for p in "urbscope midi" "urbscope audio"; do
	d=$(usbdev "$p")
	say "$p is $d"
	for f in /sys/bus/usb/devices/$d:*; do
		echo "${f##*/}: $(cat "$f/bInterfaceClass" \
		    "$f/bInterfaceSubClass" 2>/dev/null | tr '\n' ' ')driver" \
		    "$(basename "$(readlink "$f/driver" 2>/dev/null)")"
	done
done >drivers.txt
cat drivers.txt
cat /proc/asound/cards >asound-cards.txt

say "PHASE descriptors"
lsusb -v -d 1d6b:0104 >lsusb-v.txt 2>lsusb-v.err
lsusb -t >lsusb-t.txt 2>&1
usb-devices >usb-devices.txt 2>&1
urbscope devices -v >devices-v.txt 2>devices-v.err

say "PHASE uac2"
hc=$(card 'USB-Audio - urbscope audio')
say "host sound card $hc"
[ -n "$hc" ] && {
	timeout 20 classes-tool tone "/dev/snd/pcmC${hc}D0p" 200 2>&1
	echo "tone: exit $?"
	cat "/proc/asound/card$hc/stream0" >asound-stream0.txt 2>&1
}

say "PHASE midi"
gc=$(card 'f_midi|MIDI Gadget')
say "gadget midi card $gc"
hc=$(card 'USB-Audio - urbscope midi')
say "host midi card $hc"
if [ -n "$hc" ] && [ -e "/dev/snd/midiC${hc}D0" ]; then
	# the host reads while the gadget writes (bulk IN), then the host
	# writes (bulk OUT): note on and off, middle C
	timeout 5 cat "/dev/snd/midiC${hc}D0" >midi-host-in.bin &
	rd=$!
	sleep 0.5
	[ -n "$gc" ] && printf '\220\100\100\200\100\000' \
	    >"/dev/snd/midiC${gc}D0"
	sleep 0.5
	printf '\220\074\144' >"/dev/snd/midiC${hc}D0"
	sleep 0.2
	printf '\200\074\000' >"/dev/snd/midiC${hc}D0"
	sleep 0.5
	wait $rd
	echo "host read $(wc -c <midi-host-in.bin) MIDI bytes"
else
	say "no host MIDI node"
fi

say "PHASE acm"
if [ -e /dev/ttyACM0 ] && [ -e /dev/ttyGS0 ]; then
	stty -F /dev/ttyGS0 raw -echo 2>&1
	timeout 8 cat /dev/ttyGS0 >acm-gadget-in.txt &
	grd=$!
	sleep 0.5
	# line codings (SET_LINE_CODING), DTR and RTS at each open and close
	# (SET_CONTROL_LINE_STATE)
	stty -F /dev/ttyACM0 115200 cs8 -parenb raw -echo 2>&1
	stty -F /dev/ttyACM0 9600 cs7 parenb 2>&1
	timeout 5 cat /dev/ttyACM0 >acm-host-in.txt &
	hrd=$!
	sleep 0.5
	echo "hello gadget" >/dev/ttyACM0
	sleep 0.3
	echo "hello host" >/dev/ttyGS0
	sleep 0.3
	# SEND_BREAK
	timeout 5 classes-tool break /dev/ttyACM0 2>&1
	# DTR off, RTS on
	timeout 5 classes-tool modem /dev/ttyACM0 rts 2>&1
	wait $hrd
	wait $grd
	echo "gadget read: $(cat acm-gadget-in.txt)"
	echo "host read: $(cat acm-host-in.txt)"
else
	say "no /dev/ttyACM0 or /dev/ttyGS0"
fi

say "PHASE uvc"
ls -l /dev/video* 2>&1
for v in /sys/class/video4linux/video*; do
	echo "${v##*/}: $(cat "$v/name")"
done

say "PHASE end"
sleep 1
kill $txt
stop_pid $cap INT >capture.rc
kill $usbip $gvopen
cp -- * /share/out/
say "done"
