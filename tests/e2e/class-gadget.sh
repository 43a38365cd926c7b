#!/bin/sh
# tests/e2e/class-gadget.sh - the class decoders on Linux 6.1's host
# drivers against its own gadget functions (tests/data/linux61-gadget: UAC2
# and UVC on usbip-vudc, USB-MIDI and CDC ACM on dummy_hcd): the summaries
# of the class requests and data the drivers made; record by record, every
# usbaudio.*, usbcom.* and usbvideo.* field both urbscope and tshark print;
# and `urbscope devices -v` of the gadgets (a fake sysfs tree rebuilt from
# the capture) against the guest's `lsusb -v`, field by field, and the
# audio and MIDI class descriptors line for line.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh
plan 48

D=$LINUX61G
G=$D/gadget.pcapng
FX=tests/fixtures/sysfs
export URBSCOPE_USB_IDS=/nonexistent

"$US" read "$G" >"$TMP/o" 2>"$TMP/err"
check "gadget.pcapng reads, no sanitizer report" \
    no_sanitizer_report "$TMP/err"
check_eq "2579 records and 64 synthetic ones" 2643 "$(wc -l <"$TMP/o")"

# sum N: record N's summary
sum() { sed -n "${1}p" "$TMP/o" | sed 's/.*  //'; }
# UAC2: snd-usb-audio's probe and the tone
check_eq "UAC2: the clock source's sample rate range" \
    "GET_RANGE intf 0 unit 7 cs 0x01 len 14 → 14 bytes, 3.437 ms: sampling frequency, 1 range: 48000..48000" \
    "$(sum 234)"
check_eq "UAC2: the current sample rate" \
    "GET_CUR intf 0 unit 7 cs 0x01 len 4 → 4 bytes, 3.303 ms: sampling frequency 48000 Hz" \
    "$(sum 238)"
check_eq "UAC2: the feature unit's volume range" \
    "GET_RANGE intf 0 unit 6 cs 0x02 len 8 → 8 bytes, 7.563 ms: volume, 1 range: -100.00 dB..0.00 dB" \
    "$(sum 262)"
check_eq "UAC2: a volume set" \
    "SET_CUR intf 0 unit 6 cs 0x02 len 2: volume master -1.00 dB" \
    "$(sum 269)"
check_eq "UAC2: the mute control" \
    "GET_CUR intf 0 unit 6 cs 0x01 len 1 → 1 byte, 5.210 ms: mute off master" \
    "$(sum 258)"
check "UAC2: the tone's 199 isochronous OUT URBs, submitted and completed" \
    test "$(grep -c ' 1\.2\.1  *out [SC] iso ' "$TMP/o")" -eq 398
# UVC: uvcvideo's probe
check_eq "UVC: GET_INFO of a camera terminal control" \
    "GET_INFO intf 3 unit 1 cs 0x02 len 1 → 1 byte, 23.148 ms: Auto-Exposure Mode: info 0x03: GET SET" \
    "$(sum 307)"
check_eq "UVC: the probe control set" \
    "SET_CUR intf 4 cs 0x01 len 34: probe: format 1 frame 1, 30.00 fps, max frame 38400 B, max payload 1024 B" \
    "$(sum 312)"
# USB-MIDI both ways
check_eq "MIDI: bulk OUT event packets" \
    "[intf 1 Audio] OUT 4 bytes: USB-MIDI cable 0 Note-on: 90 3c 64" \
    "$(sum 2493)"
check "MIDI: bulk IN, two events in one transfer" grep -q \
    'USB-MIDI cable 0 Note-on: 90 40 40; cable 0 Note-off: 80 40 00' \
    "$TMP/o"
# CDC ACM
check_eq "ACM: SET_LINE_CODING 9600 7E1" \
    "SET_LINE_CODING intf 2: 9600 7E1" "$(sum 2573)"
check_eq "ACM: SET_CONTROL_LINE_STATE, DTR off and RTS on" \
    "SET_CONTROL_LINE_STATE DTR off RTS on intf 2" "$(sum 2623)"
check_eq "ACM: the gadget's SERIAL_STATE" \
    "[intf 2 CDC] 10 bytes, 0.222 ms: SERIAL_STATE intf 2: DCD, DSR" \
    "$(sum 2511)"
check_eq "ACM: bulk OUT data as text" \
    '[intf 3 CDC-Data] OUT 13 bytes: "hello gadget\n"' "$(sum 2615)"

"$US" read "$G" -V >"$TMP/v" 2>"$TMP/err"
check "-V reads, no sanitizer report" no_sanitizer_report "$TMP/err"
check "-V: no class descriptor left undecoded" sh -c \
    "! grep -qi 'unrecognized\|undecoded' $TMP/v"

# devices -v: the descriptors files from the capture's GET_DESCRIPTOR
# answers, the rest from usb-devices
"$US" read "$G" -T fields -e usb.bus_id -e usb.device_address \
    -e usb.urb_type -e data >"$TMP/fields" 2>"$TMP/err"
python3 "$FX/fromcapture.py" "$TMP/fields" "$D/usb-devices.txt" \
    >"$TMP/dump" && python3 "$FX/mktree.py" "$TMP/dump" "$TMP/sys"
"$US" devices --sysfs "$TMP/sys" -v >"$TMP/dv" 2>"$TMP/err"
check_eq "devices -v exits 0" 0 $?
check "devices -v: no sanitizer report" no_sanitizer_report "$TMP/err"
grep '^Bus .* 1d6b:0104 ' "$TMP/dv" >"$TMP/ours.bus"
grep '^Bus ' "$D/lsusb-v.txt" >"$TMP/ls.bus"
check_diff "the gadgets' Bus lines equal lsusb's" "$TMP/ls.bus" \
    "$TMP/ours.bus"
# Every field, heading and bit line of lsusb's descriptors, same order,
# MIDI's and UAC2's words included.
python3 "$FX/lscompare.py" --layout "$D/lsusb-v.txt" "$TMP/dv" >"$TMP/cmp"
tail -n 1 "$TMP/cmp" | sed 's/^/# lsusb -v: /'
echo "644 fields compared, 644 equal, 0 differ" >"$TMP/expect"
check_diff "-v agrees with lsusb -v, every field" "$TMP/expect" "$TMP/cmp"
# And line for line, columns and all, in the audio and MIDI sections:
# each class descriptor block of lsusb's (from its heading to the next
# descriptor) is in ours; string descriptors left out (sysfs has only
# the device's), as is what lsusb reads from the device itself.
blocks() {
	awk '/^ *(AudioControl|AudioStreaming|MIDIStreaming) (Interface|Endpoint) Descriptor:/ {
		on = 1; print; next }
	    /Descriptor:|^ *(Interface Association|Endpoint Descriptor)/ {
		on = 0 }
	    on && !/^ +i[A-Z][A-Za-z]* / { sub(/ +$/, ""); print }' "$1"
}
blocks "$D/lsusb-v.txt" >"$TMP/ls.blocks"
blocks "$TMP/dv" >"$TMP/ours.blocks"
n=$(grep -c 'Descriptor:' "$TMP/ls.blocks")
check "lsusb shows audio and MIDI class descriptors ($n)" test "$n" -ge 20
check_diff "-v: the audio and MIDI class descriptors as lsusb lays them out" \
    "$TMP/ls.blocks" "$TMP/ours.blocks"
# usbutils 014 does not show a VideoControl interrupt endpoint's class
# descriptor (UVC 1.5 3.8.2.2; later lsusb.c does, as
# dump_videocontrol_interrupt_endpoint); urbscope shows it as they do.
check "-v: the VideoControl interrupt endpoint's descriptor" \
    grep -q '^          wMaxTransferSize       16$' "$TMP/dv"
# The class sections, line for line where lsusb words them.
while IFS= read -r line; do
	check "-v: '$line'" grep -qxF -- "$line" "$TMP/dv"
done <<'EOF'
      AudioControl Interface Descriptor:
        bDescriptorSubtype     10 (CLOCK_SOURCE)
        bDescriptorSubtype      6 (FEATURE_UNIT)
        wTerminalType      0x0201 Microphone
      AudioStreaming Interface Descriptor:
        bSubslotSize            2
        AudioStreaming Endpoint Descriptor:
      CDC Header:
      CDC Call Management:
      CDC ACM:
      CDC Union:
      VideoControl Interface Descriptor:
        bcdUVC               1.10
        bDescriptorSubtype      2 (INPUT_TERMINAL)
        VideoControl Endpoint Descriptor:
      VideoStreaming Interface Descriptor:
        bDescriptorSubtype                  4 (FORMAT_UNCOMPRESSED)
        wWidth                            160
        dwFrameInterval( 1)            666666
EOF

if ! command -v tshark >/dev/null 2>&1; then
	skip_rest "gadget fields against tshark" "tshark is not installed"
fi
tshark_fields '^(usbaudio|usbcom|usbvideo)\\.'
n=$(wc -l <"$TMP/both")
check "urbscope prints most of tshark's usbaudio/usbcom/usbvideo fields ($n)" \
    test "$n" -ge 450
tshark_agree "gadget.pcapng: usbaudio.*, usbcom.*, usbvideo.*" "$G"
