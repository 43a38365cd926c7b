# tests/kernel/guest-serve.sh - the guest half of the USB/IP test
# (tests/kernel/run.sh, checked by check-serve.py): `urbscope serve -A`
# serves the disk and keyboard models and attaches them to the guest's own
# vhci-hcd, where the kernel's usb-storage and usbhid bind to them, while
# `urbscope capture -i usbmon0` (with --drivers where CAPTURE_OPTS says)
# records the vhci bus.  The disk: a pattern written with O_DIRECT and
# read back; the keyboard: its text read as evdev key events.  Then the
# server stops (SIGINT) and the devices go away; what the devices saw is
# in served.pcapng (-w).  Then a fault on cue:
# the disk served again with a STALL armed on the second READ(10)'s CBW
# (-i), the pattern written and read back through usb-storage's error
# handling (clear-halt, bulk-only reset, the command again).  Last, a
# device replayed from a capture (samples/hid-keyboard.pcap's keyboard),
# with `urbscope replay` of that capture made to it, a capture of the disk
# model made again to the model by `urbscope replay`,
# a disk replayed from a capture (tests/data/linux61's, mounted),
# a disk that goes away in the middle of a transfer, a disk too slow for
# the SCSI timeout, the speaker under snd-usb-audio (isochronous), and a
# scenario (-s): a game pad used, hit by babble
# and transaction errors and pulled out, a keyboard in its place.  No QEMU USB device in
# this VM (vm.sh --no-usb): the only disk is the served one.
mkdir -p /tmp/out
cd /tmp/out || exit 1

load_usbmon || exit 1
modprobe vhci-hcd && modprobe sd_mod && modprobe usb-storage &&
    modprobe evdev && modprobe usbhid && modprobe hid-generic &&
    modprobe cdc-acm && modprobe snd-usb-audio ||
    say "modprobe failed"
uname -r >/share/kernel.txt
# shellcheck disable=SC2086
urbscope capture -i usbmon0 $CAPTURE_OPTS -w serve-cap.pcapng \
    2>serve-cap.err &
cap=$!
wait_for grep -q "capturing on" serve-cap.err
say "capture started: $(head -n 2 serve-cap.err | tr '\n' ' ')"

say "PHASE serve"
# the keyboard types two seconds after it is configured: evdev's reader
# is open by then
urbscope serve -A -w served.pcapng disk:8M keyboard:@2000:urbscope \
    serial 2>serve.err &
srv=$!
wait_for [ -b /dev/sda ] || say "no /dev/sda"
kbd=$(wait_for input_node "urbscope Boot Keyboard" ||
    wait_for input_node "Keyboard")
say "disk and keyboard ($kbd) bound"
cat "$kbd" >keys.bin &
rdr=$!
for d in /sys/bus/usb/devices/*; do
	[ -f "$d/idVendor" ] || continue
	echo "${d##*/} $(cat "$d/idVendor"):$(cat "$d/idProduct")" \
	    "$(cat "$d/product" 2>/dev/null)"
done >usb-devices.txt
ls -l /sys/bus/usb/drivers/usb-storage/ /sys/bus/usb/drivers/usbhid/ \
    >drivers.txt 2>&1

say "PHASE disk"
# 256 KiB of a pattern at 1 MiB, read back past the page cache
awk 'BEGIN { for (i = 0; i < 16384; i++) printf "served%09d\n", i }' \
    >pattern.bin
dd if=pattern.bin of=/dev/sda bs=64k seek=16 oflag=direct 2>dd-write.txt
echo 3 >/proc/sys/vm/drop_caches
dd if=/dev/sda of=back.bin bs=64k skip=16 count=4 iflag=direct \
    2>dd-read.txt
md5sum pattern.bin back.bin >md5.txt
# the first blocks as the model made them (its disk starts zeroed)
dd if=/dev/sda bs=512 count=1 iflag=direct 2>/dev/null | md5sum \
    >block0.txt

say "PHASE keys"
sleep 3
kill "$rdr" 2>/dev/null

say "PHASE serial"
# cdc_acm on the serial adapter, whose TX is wired to its RX: raw, 115200
# baud (SET_LINE_CODING), what is written comes back
wait_for [ -c /dev/ttyACM0 ] || say "no /dev/ttyACM0"
stty -F /dev/ttyACM0 115200 raw -echo 2>stty.err
cat /dev/ttyACM0 >acm.txt &
acm=$!
sleep 0.5
printf 'through cdc_acm and back\n' >/dev/ttyACM0
sleep 1
kill "$acm" 2>/dev/null

say "PHASE stop"
stop_pid $srv INT >serve.rc
sleep 1
ls /sys/bus/usb/drivers/usb-storage/ >after-stop.txt 2>&1
[ -b /dev/sda ] && echo "/dev/sda still there" >>after-stop.txt

say "PHASE fault"
urbscope serve -A -i '1 stall 0x02 1 on scsi 0x28 2' disk:8M \
    2>fault.err &
srv=$!
wait_for [ -b /dev/sda ] || say "no /dev/sda for the fault"
dd if=pattern.bin of=/dev/sda bs=64k seek=16 oflag=direct 2>/dev/null
echo 3 >/proc/sys/vm/drop_caches
dd if=/dev/sda of=back2.bin bs=64k skip=16 count=4 iflag=direct \
    2>dd-read2.txt
md5sum pattern.bin back2.bin >md5-fault.txt
stop_pid $srv INT >fault.rc
sleep 1

say "PHASE replay"
# samples/hid-keyboard.pcap's keyboard replayed: usbhid gets its recorded
# descriptors and reports, at the pace recorded ("hello", caps lock)
urbscope serve -A 'replay:/share/hid-keyboard.pcap' 2>replay.err &
srv=$!
rkbd=$(wait_for input_node "Synthetic Boot Keyboard")
cat "$rkbd" >replay-keys.bin &
rdr=$!
sleep 6
kill "$rdr" 2>/dev/null
# urbscope replay of the same capture to the model replaying it: its
# control requests (usbhid has had the reports), as recorded
urbscope replay /share/hid-keyboard.pcap --detach -Y \
    'usb.transfer_type == 2' >rr-kbd.txt 2>rr-kbd.err
echo "exit $?" >rr-kbd.rc
stop_pid $srv INT >replay.rc
sleep 1

say "PHASE replay to a model"
# a capture of the disk model read twice, replayed to the same model
urbscope serve -A disk:8M 2>rr-serve.err &
srv=$!
wait_for [ -b /dev/sda ] || say "no /dev/sda for the replayed model"
urbscope capture -i usbmon0 -w rr-disk.pcapng 2>rr-cap.err &
rcap=$!
wait_for grep -q "capturing on" rr-cap.err
dd if=/dev/sda of=/dev/null bs=4k count=2 iflag=direct 2>/dev/null
sleep 0.5
stop_pid $rcap INT >rr-cap.rc
urbscope replay rr-disk.pcapng --detach >rr-disk.txt 2>rr-disk.err
echo "exit $?" >rr-disk.rc
wait_for [ -b /dev/sda ] >/dev/null
[ -b /dev/sda ] && echo "/dev/sda back" >>rr-disk.txt
stop_pid $srv INT >/dev/null
sleep 1

say "PHASE replay disk"
# a disk replayed from a real capture: tests/data/linux61's usbmon0.bin,
# device 1.2, QEMU's usb-storage under Linux 6.1, which the capture then
# gave a FAT file system and two files.  Answered by SCSI content (its
# blocks as the capture left them): usb-storage binds it, the file
# system mounts, the files read back
urbscope serve -A 'replay:/share/usbmon0.bin 1.2' 2>replay-disk.err &
srv=$!
wait_for [ -b /dev/sda ] || say "no /dev/sda for the replayed disk"
mkdir -p /mnt/rd
modprobe vfat && modprobe nls_cp437 && modprobe nls_utf8 ||
    say "no vfat"
mount -t vfat -o ro,iocharset=utf8 /dev/sda /mnt/rd >rd-mount.txt 2>&1
echo "exit $?" >>rd-mount.txt
ls /mnt/rd >rd-ls.txt 2>&1
# 8.3 names without long ones: vfat lists them in capitals, and with
# iocharset=utf8 finds them only so
cp /mnt/rd/HELLO.TXT rd-hello.txt 2>>rd-mount.txt
cp /mnt/rd/PATTERN.BIN rd-pattern.bin 2>>rd-mount.txt
umount /mnt/rd 2>>rd-mount.txt
# the first 300 blocks past the page cache
dd if=/dev/sda of=rd-head.bin bs=512 count=300 iflag=direct \
    2>rd-dd.txt
stop_pid $srv INT >replay-disk.rc
sleep 1

say "PHASE timeout"
# an answer slower than the kernel waits: the first WRITE(10)'s CBW NAKed
# for 5 s (-i delay), the disk's SCSI command timeout set to 2 s; the
# SCSI layer aborts, usb-storage unlinks its URB (CMD_UNLINK over
# USB/IP), resets, retries, and the write goes through once the delay is
# over
urbscope serve -A -w timeout.pcapng -i '1 delay 0x02 5000 on scsi 0x2a 1' \
    disk:8M 2>timeout.err &
srv=$!
wait_for [ -b /dev/sda ] || say "no /dev/sda for the timeout"
echo 2 >/sys/block/sda/device/timeout
dd if=pattern.bin of=/dev/sda bs=64k count=1 seek=32 oflag=direct \
    2>timeout-dd.txt
echo "dd exit $?" >>timeout-dd.txt
stop_pid $srv INT >timeout.rc
sleep 1

say "PHASE unplug"
# the disk gone in the middle of the first READ(10)'s data phase (-i
# disconnect after 5 more packets on 0x81; the kernel's partition scan
# makes that READ(10)): usb-storage's disconnect, its URB back with an
# error, reads failing, the block device gone
urbscope serve -A -i '1 disconnect 0x81 5 on scsi 0x28 1' disk:8M \
    2>unplug.err &
srv=$!
wait_for [ -b /dev/sda ] || say "no /dev/sda to unplug"
dd if=/dev/sda of=/dev/null bs=64k count=4 skip=64 iflag=direct \
    2>unplug-dd.txt
echo "dd exit $?" >>unplug-dd.txt
i=0
while [ -b /dev/sda ] && [ $i -lt 100 ]; do
	sleep 0.1
	i=$((i + 1))
done
[ -b /dev/sda ] && echo "/dev/sda still there" >>unplug-dd.txt
stop_pid $srv INT >unplug.rc
sleep 1

say "PHASE audio"
# snd-usb-audio on the speaker model: half a second of classes-tool's
# 1 kHz tone (48 kHz, stereo, S16_LE) played through the raw ALSA ioctls;
# isochronous OUT over USB/IP, what the model got in audio.pcapng (-w)
urbscope serve -A -w audio.pcapng speaker 2>audio.err &
srv=$!
wait_for [ -c /dev/snd/pcmC0D0p ] || say "no /dev/snd/pcmC0D0p"
sleep 0.5
classes-tool tone /dev/snd/pcmC0D0p 500 >tone.txt 2>&1
echo "tone exit $?" >>tone.txt
cat /proc/asound/card0/stream0 >>tone.txt 2>&1
stop_pid $srv INT >audio.rc
sleep 1

say "PHASE replay to a keyboard that goes"
# samples/hid-keyboard.pcap to the keyboard model, which types nothing
# (its reports time out, a second each) and is pulled out 5 s after it
# settled: replay says so and ends, nothing waits
printf 'plug 1 keyboard\nsettle 1\nwait 5000\nunplug 1\nwait 1000\n' \
    >gone.scn
urbscope serve -A -s gone.scn 2>rr-gone-serve.err &
srv=$!
wait_for input_node "Keyboard" >/dev/null || say "no keyboard to replay to"
t0=$(cut -d. -f1 /proc/uptime)
urbscope replay /share/hid-keyboard.pcap --detach --timeout 1000 \
    >rr-gone.txt 2>rr-gone.err
echo "exit $? after $(($(cut -d. -f1 /proc/uptime) - t0)) s" >rr-gone.rc
stop_pid $srv INT >/dev/null
sleep 1

say "PHASE replay isochronous"
# isochronous OUT: a capture of a short tone to the speaker model made
# again to it; isochronous IN: samples/uvc-webcam.pcapng made again to the
# model replaying it (snd-usb-audio binds its audio interface)
urbscope serve -A speaker 2>rr-spk-serve.err &
srv=$!
wait_for [ -c /dev/snd/pcmC0D0p ] || say "no /dev/snd/pcmC0D0p"
urbscope capture -i usbmon0 -w rr-spk.pcapng 2>rr-spk-cap.err &
rcap=$!
wait_for grep -q "capturing on" rr-spk-cap.err
classes-tool tone /dev/snd/pcmC0D0p 100 >/dev/null 2>&1
sleep 0.5
stop_pid $rcap INT >/dev/null
urbscope replay rr-spk.pcapng --detach >rr-spk.txt 2>rr-spk.err
echo "exit $?" >rr-spk.rc
stop_pid $srv INT >/dev/null
sleep 1
urbscope serve -A 'replay:/share/uvc-webcam.pcapng' 2>rr-cam-serve.err &
srv=$!
wait_for grep -qx 0005 /sys/bus/usb/devices/*/idProduct
sleep 1
urbscope replay /share/uvc-webcam.pcapng --detach >rr-cam.txt \
    2>rr-cam.err
echo "exit $?" >rr-cam.rc
stop_pid $srv INT >/dev/null
sleep 1

say "PHASE scenario"
# serve -s: devices over time, on the wall clock.  A game pad plugged in
# (its script of reports 2.5 s after its configuration, so the evdev
# readers are open), then babble and transaction errors on its interrupt
# IN (-EOVERFLOW, -EPROTO for usbhid's hid_irq_in), then pulled out under
# usbhid; a keyboard plugged in its place types "ok"
cat >over-time.scn <<'EOF'
plug 1 gamepad @2500
settle 1
wait 4000
inject 1 babble 0x81 1
wait 1000
inject 1 xacterr 0x81 3
wait 1500
unplug 1
wait 1000
plug 2 keyboard @2000:ok
settle 2
wait 4000
EOF
urbscope serve -A -w scenario.pcapng -s over-time.scn 2>scenario.err &
srv=$!
wait_for input_node "Game Pad" >/dev/null || say "no game pad"
sleep 0.5
n=0
: >gp-nodes.txt
for d in /sys/class/input/event*; do
	grep -q "Game Pad" "$d/device/name" 2>/dev/null || continue
	cat "/dev/input/${d##*/}" >"gp-$n.bin" &
	echo "$! ${d##*/} $(cat "$d/device/name")" >>gp-nodes.txt
	n=$((n + 1))
done
kbd2=$(wait_for input_node "Boot Keyboard")
say "game pad ($n input devices), then a keyboard ($kbd2) bound"
cat "$kbd2" >keys2.bin &
rdr=$!
# the scenario's end ends the server (about 15 s in all)
i=0
while kill -0 $srv 2>/dev/null && [ $i -lt 600 ]; do
	sleep 0.1
	i=$((i + 1))
done
stop_pid $srv INT >scenario.rc
kill "$rdr" 2>/dev/null
while read -r pid _; do
	kill "$pid" 2>/dev/null
done <gp-nodes.txt
dmesg | grep -E "input irq status|usbhid|hid-generic" >scenario-dmesg.txt
sleep 1

stop_pid $cap INT >serve-cap.rc
cp serve.err serve.rc serve-cap.pcapng serve-cap.err serve-cap.rc \
    keys.bin usb-devices.txt drivers.txt md5.txt dd-write.txt dd-read.txt \
    block0.txt after-stop.txt fault.err fault.rc md5-fault.txt \
    dd-read2.txt served.pcapng acm.txt stty.err replay.err replay.rc \
    replay-keys.bin unplug.err unplug.rc unplug-dd.txt timeout.err \
    timeout.rc timeout-dd.txt timeout.pcapng scenario.err scenario.rc \
    scenario.pcapng gp-nodes.txt gp-*.bin keys2.bin scenario-dmesg.txt \
    audio.err audio.rc audio.pcapng tone.txt replay-disk.err \
    replay-disk.rc rd-mount.txt rd-ls.txt rd-hello.txt rd-pattern.bin \
    rd-head.bin rd-dd.txt rr-kbd.txt rr-kbd.err rr-kbd.rc rr-disk.txt \
    rr-disk.err rr-disk.rc rr-cap.err rr-cap.rc rr-spk.txt rr-spk.err \
    rr-spk.rc rr-spk.pcapng rr-cam.txt rr-cam.err rr-cam.rc \
    rr-cam-serve.err rr-spk-serve.err rr-gone.txt rr-gone.err rr-gone.rc \
    rr-gone-serve.err \
    /share/
say "PHASE done"
