#!/bin/sh
# tests/e2e/devices-classes.sh - `urbscope devices -v` on the class
# devices of the Linux 6.1 QEMU guest (audio, CDC ECM/RNDIS network, CCID
# reader, hub, mouse, tablet, MTP): a fake sysfs tree rebuilt from the
# capture of their enumeration, laid out as that guest's `lsusb -v`,
# compared with it field by field, headings and the lines that word bits
# included; and a DFU interface and a UVC webcam, which no real lsusb
# printed here, against the formats of lsusb.c (usbutils).
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh
plan 96

FX=tests/fixtures/sysfs
D=$LINUX61C
ROOT=$TMP/sys
export URBSCOPE_USB_IDS=/nonexistent

# The descriptors files: the GET_DESCRIPTOR answers of the capture.
"$US" read "$D/classes.pcapng" -T fields -e usb.bus_id \
    -e usb.device_address -e usb.urb_type -e data >"$TMP/fields" \
    2>"$TMP/err"
check "the capture's answers read, no sanitizer report" \
    no_sanitizer_report "$TMP/err"
python3 "$FX/fromcapture.py" "$TMP/fields" "$D/usb-devices.txt" \
    >"$TMP/dump" && python3 "$FX/mktree.py" "$TMP/dump" "$ROOT"
check_eq "fake tree: 9 devices and 11 interfaces" 20 \
    "$(ls "$ROOT/bus/usb/devices" | wc -l)"
# The net device's file holds both configurations, as read.
check_eq "net device: device + 2 configurations (18 + 67 + 80 bytes)" 165 \
    "$(wc -c <"$ROOT/devices/usb2/2-2.1/descriptors")"

"$US" devices --sysfs "$ROOT" -v >"$TMP/v.out" 2>"$TMP/err"
check_eq "devices -v exits 0" 0 $?
check "devices -v: no sanitizer report" no_sanitizer_report "$TMP/err"
grep '^Bus ' "$TMP/v.out" | sort >"$TMP/ours.bus"
grep '^Bus ' "$D/lsusb-v.txt" | sort >"$TMP/ls.bus"
check_diff "Bus lines equal lsusb's" "$TMP/ls.bus" "$TMP/ours.bus"

# Every field, heading and bit line of lsusb's descriptors, same order.
# lsusb 014 takes the audio device's feature unit (subtype 6 of an
# interface whose bInterfaceProtocol, 4, is no UAC version) for a UAC3
# selector unit and calls its last 6 bytes junk; urbscope shows the UAC1
# feature unit that the bytes are (UAC 1.0 table 4-7).
python3 "$FX/lscompare.py" --layout "$D/lsusb-v.txt" "$TMP/v.out" \
    >"$TMP/cmp"
tail -n 1 "$TMP/cmp" | sed 's/^/# lsusb -v: /'
cat >"$TMP/expect" <<'EOF'
device 2:2 Device Descriptor: bNrInPins 1: missing
device 2:2 Device Descriptor: baSourceID(0) 2: missing
device 2:2 Device Descriptor: iSelector 1: missing
device 2:2 Device Descriptor: Warning: Junk at end of descriptor (6 bytes): 6: missing
device 2:2 Device Descriptor: 00 02 00 02 00 07 8: missing
700 fields compared, 695 equal, 5 differ
EOF
check_diff "-v agrees with lsusb -v but for its selector unit" \
    "$TMP/expect" "$TMP/cmp"

# The class sections, line for line where lsusb words them.
for line in \
    '      AudioControl Interface Descriptor:' \
    '        bDescriptorSubtype      1 (HEADER)' \
    '        baInterfaceNr(0)        1' \
    '        wTerminalType      0x0101 USB Streaming' \
    '          Right Front (R)' \
    '        bDescriptorSubtype      6 (FEATURE_UNIT)' \
    '        bmaControls(1)     0x0002' \
    '          Volume Control' \
    '        iFeature                7' \
    '        wTerminalType      0x0301 Speaker' \
    '      AudioStreaming Interface Descriptor:' \
    '        bDelay                  0 frames' \
    '        wFormatTag         0x0001 PCM' \
    '        bFormatType             1 (FORMAT_TYPE_I)' \
    '        bSamFreqType            1 Discrete' \
    '        tSamFreq[ 0]        48000' \
    '        AudioStreaming Endpoint Descriptor:' \
    '          bDescriptorSubtype      1 (EP_GENERAL)' \
    '          bLockDelayUnits         0 Undefined' \
    '      CDC Header:' \
    '        bcdCDC               1.10' \
    '      CDC Call Management:' \
    '      CDC ACM:' \
    '      CDC Union:' \
    '        bSlaveInterface         1 ' \
    '      CDC Ethernet:' \
    '        iMacAddress                      3' \
    '        wMaxSegmentSize               1514' \
    '      ChipCard Interface Descriptor:' \
    '        bcdCCID              1.10  (Warning: Only accurate for version 1.0)' \
    '        bVoltageSupport         7  5.0V 3.0V 1.8V ' \
    '        dwProtocols             1  T=0' \
    '        dwDataRate           9600 bps' \
    '        bNumDataRatesSupp.      0' \
    '          Auto parameter negotiation made by CCID' \
    '        bClassGetResponse    echo' \
    '        wlcdLayout           none' \
    '        bPINSupport             1  verification'; do
	check "-v: '$line'" grep -qxF -- "$line" "$TMP/v.out"
done
check "-v: no UNRECOGNIZED class descriptor" \
    test "$(grep -c UNRECOGNIZED "$TMP/v.out")" -eq 0

# The comparison sees a wrong class field and a heading out of place.
sed 's/^\(        tSamFreq\[ 0\]  *\)48000$/\144100/' "$TMP/v.out" \
    >"$TMP/v.bad"
python3 "$FX/lscompare.py" --layout "$D/lsusb-v.txt" "$TMP/v.bad" \
    >"$TMP/cmp"
check "the comparison catches a wrong tSamFreq" \
    grep -q 'tSamFreq\[ 0\]: lsusb 48000, ours 44100' "$TMP/cmp"
sed 's/^      CDC Union:$/        CDC Union:/' "$TMP/v.out" >"$TMP/v.bad"
python3 "$FX/lscompare.py" --layout "$D/lsusb-v.txt" "$TMP/v.bad" \
    >"$TMP/cmp"
check "the comparison catches a heading's indent" \
    grep -q 'CDC Union:: lsusb 6, ours 8' "$TMP/cmp"

# Every cut of the class devices' descriptors files: no crash.
bad=0
n=0
for dev in 2-1:2 2-2.1:4 2-2.2:5; do
	K=$ROOT/devices/usb2/${dev%:*}/descriptors
	cp "$K" "$TMP/desc"
	size=$(wc -c <"$TMP/desc")
	for len in $(seq 0 "$size"); do
		head -c "$len" "$TMP/desc" >"$K"
		"$US" devices --sysfs "$ROOT" -v -s "2:${dev#*:}" >/dev/null \
		    2>"$TMP/err"
		rc=$?
		n=$((n + 1))
		if [ $rc -gt 1 ] || ! no_sanitizer_report "$TMP/err"; then
			bad=$((bad + 1))
			echo "# ${dev%:*} cut at $len: exit $rc"
		fi
	done
	cp "$TMP/desc" "$K"
done
check_eq "$n cut descriptors files: no crash" 0 $bad

# DFU (no real lsusb output here): a run-time DFU interface (DFU 1.1
# 4.1.3) against lsusb.c's dump_dfu_interface formats.
cat >"$TMP/dfu.dump" <<'EOF2'
=== 3-1
sysfs-path: /sys/devices/usb3/3-1
busnum: 3
devnum: 2
devpath: 1
idVendor: 1d50
idProduct: 6018
speed: 12
descriptors(hex): 12 01 10 01 00 00 00 40 50 1d 18 60 00 01 00 00 00 01 09 02 1b 00 01 01 00 80 32 09 04 00 00 00 fe 01 01 00 09 21 0b ff 00 00 04 10 01
EOF2
python3 "$FX/mktree.py" "$TMP/dfu.dump" "$TMP/dfusys"
"$US" devices --sysfs "$TMP/dfusys" -v >"$TMP/dfu.out" 2>"$TMP/err"
check_eq "DFU device: exits 0" 0 $?
check "DFU device: no sanitizer report" no_sanitizer_report "$TMP/err"
cat >"$TMP/expect" <<'EOF2'
      Device Firmware Upgrade Interface Descriptor:
        bLength                             9
        bDescriptorType                    33
        bmAttributes                       11
          Will Detach
          Manifestation Intolerant
          Upload Supported
          Download Supported
        wDetachTimeout                    255 milliseconds
        wTransferSize                    1024 bytes
        bcdDFUVersion                   1.10
EOF2
sed -n '/Device Firmware Upgrade/,$p' "$TMP/dfu.out" >"$TMP/ours"
check_diff "DFU functional descriptor as lsusb lays it out" "$TMP/expect" \
    "$TMP/ours"

# UVC (no real lsusb output here either): capgen's UVC 1.1 webcam of
# samples/uvc-webcam.pcapng, its descriptors from its GET_DESCRIPTOR
# answers, against the formats of lsusb.c's dump_videocontrol_interface,
# dump_videocontrol_interrupt_endpoint and dump_videostreaming_interface.
"$US" read samples/uvc-webcam.pcapng -T fields -e usb.device_address \
    -e usb.urb_type -e data 2>/dev/null | awk -F'\t' '
	$1 == 2 && $2 == "'"'C'"'" && dev == "" && $3 ~ /^1201/ &&
	    length($3) == 36 { dev = $3 }
	$1 == 2 && $2 == "'"'C'"'" && cfg == "" && $3 ~ /^0902/ &&
	    length($3) > 100 { cfg = $3 }
	END {
		print "=== 1-1"
		print "sysfs-path: /sys/devices/usb1/1-1"
		print "busnum: 1"
		print "devnum: 2"
		print "devpath: 1"
		print "speed: 480"
		print "descriptors(hex): " dev cfg
	}' >"$TMP/uvc.dump"
python3 "$FX/mktree.py" "$TMP/uvc.dump" "$TMP/uvcsys"
"$US" devices --sysfs "$TMP/uvcsys" -v >"$TMP/uvc.out" 2>"$TMP/err"
check_eq "UVC webcam: exits 0" 0 $?
check "UVC webcam: no sanitizer report" no_sanitizer_report "$TMP/err"
check_eq "UVC webcam: 13 video class descriptors" 13 \
    "$(grep -c '^ *Video[A-Za-z]* [A-Za-z]* *Descriptor:$' "$TMP/uvc.out")"
while IFS= read -r line; do
	check "UVC: '$line'" grep -qxF -- "$line" "$TMP/uvc.out"
done <<'EOF2'
      VideoControl Interface Descriptor:
        bDescriptorSubtype      1 (HEADER)
        bcdUVC               1.10
        wTotalLength       0x004f
        dwClockFrequency       48.000000MHz
        baInterfaceNr( 0)       1
        bDescriptorSubtype      2 (INPUT_TERMINAL)
        wObjectiveFocalLengthMin      0
        bControlSize                  3
        bmControls           0x0002000a
          Auto-Exposure Mode
          Focus, Auto
        bmControls     0x0000157f
          White Balance Temperature, Auto
        bmVideoStandards     0x00
        guidExtensionCode         {8a0f88dd-ba1c-5449-8a25-f78759f6175c}
        baSourceID( 0)          2
        bmControls( 0)       0x0f
        VideoControl Endpoint Descriptor:
          bDescriptorSubtype      3 (EP_INTERRUPT)
          wMaxTransferSize       16
      VideoStreaming Interface Descriptor:
        bLength                            15
        bDescriptorSubtype                  1 (INPUT_HEADER)
        wTotalLength                   0x00a5
        bEndpointAddress                 0x81  EP 1 IN
        bmaControls( 1)                     0
        bDescriptorSubtype                  6 (FORMAT_MJPEG)
          Fixed-size samples: Yes
        bmInterlaceFlags                 0x00
          Fields per frame: 1 fields
          Field pattern: Field 1 only
          Still image unsupported
        dwMaxVideoFrameBufferSize     1843200
        dwFrameInterval( 1)            666666
        dwMaxFrameInterval           10000000
        guidFormat                            {32595559-0000-0010-8000-00aa00389b71}
          Fields per frame: 2 fields
        bColorPrimaries                     1 (BT.709,sRGB)
        bMatrixCoefficients                 4 (SMPTE 170M (BT.601))
EOF2
check "UVC webcam: no UNRECOGNIZED descriptor" \
    test "$(grep -c UNRECOGNIZED "$TMP/uvc.out")" -eq 0
