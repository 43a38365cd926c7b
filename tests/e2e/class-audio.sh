#!/bin/sh
# tests/e2e/class-audio.sh - the audio class decoder (UAC 1 and 2, USB
# MIDI) against tshark and lsusb: QEMU's usb-audio (a UAC 1 speaker with a
# feature unit) under Linux 6.1, alone and in the guest's usbmon capture,
# and capgen's UAC 1 device (samples/iso.pcap) and UAC 2 headset with MIDI
# (samples/uac2-headset.pcap); record by record, every usbaudio.* field
# both print, and a class request's answer (usb.control.Response).
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh
plan 27

A=$LINUX61C/qemu-usb-audio.pcap
U2=samples/uac2-headset.pcap

"$US" read "$A" >"$TMP/o" 2>"$TMP/err"
check "qemu-usb-audio.pcap reads, no sanitizer report" \
    no_sanitizer_report "$TMP/err"
check "the volume requests are named, their data in dB" \
    grep -q 'GET_MIN intf 0 unit 2 cs 0x02 ch 1 len 2 .*volume ch 1 -127.99 dB' \
    "$TMP/o"
check "the mute request of the master channel" \
    grep -q 'GET_CUR intf 0 unit 2 cs 0x01 len 1 .*mute off master' "$TMP/o"

# lsusb -v in the guest is the oracle for the descriptors' values.
"$US" read "$A" -T fields -e usbaudio.ac_if_input.wTerminalType \
    -e usbaudio.ac_if_output.wTerminalType -e usbaudio.ac_if_fu.bUnitID \
    -e usbaudio.ac_if_fu.bControlSize -e usbaudio.as_if_gen.wFormatTag \
    -e usbaudio.as_if_ft.bNrChannels -e usbaudio.as_if_ft.bBitResolution \
    -e usbaudio.as_if_ft.tSamFreq -e usbaudio.ac_if_hdr.bcdADC \
    2>"$TMP/err" | grep '[^[:space:]]' | sort -u >"$TMP/f"
check_eq "descriptor values as lsusb -v has them" \
    "0x0101	0x0301	2	2	0x0001	2	16	48000	1" "$(cat "$TMP/f")"
check "lsusb agrees: speaker, PCM, 48000" sh -c \
    "grep -q 'wTerminalType      0x0301 Speaker' $LINUX61C/lsusb-v.txt &&
    grep -q 'wFormatTag         0x0001 PCM' $LINUX61C/lsusb-v.txt &&
    grep -q 'tSamFreq\[ 0\]        48000' $LINUX61C/lsusb-v.txt"
"$US" read "$A" -V >"$TMP/v" 2>"$TMP/err"
check "-V names the feature unit as audio control" grep -q \
    'Class-specific Audio Control Interface Descriptor: Feature unit descriptor' \
    "$TMP/v"
check "no audio descriptor is labelled video" sh -c "! grep -q 'VC INTERFACE\|VS INTERFACE' $TMP/v"

"$US" read "$U2" >"$TMP/o" 2>"$TMP/err"
check "uac2-headset.pcap reads, no sanitizer report" \
    no_sanitizer_report "$TMP/err"
check "UAC 2 GET RANGE of the sampling frequency" grep -q \
    'GET_RANGE intf 0 unit 16 cs 0x01 len 26 .*2 ranges: 44100..44100 48000..48000' \
    "$TMP/o"
check "UAC 2 SET CUR of the clock, 4 bytes" grep -q \
    'SET_CUR intf 0 unit 16 cs 0x01 len 4: sampling frequency 48000 Hz' "$TMP/o"
check "USB-MIDI events" grep -q \
    'USB-MIDI cable 0 Note-on: 90 3c 64; cable 0 Note-on: 90 40 64' "$TMP/o"
"$US" read "$U2" -T json >"$TMP/j" 2>"$TMP/err"
check "UAC 2 clock source in JSON" grep -q \
    '"usbaudio.ac_if_clksrc.bClockID":16' "$TMP/j"
check "UAC 2 version as tshark prints it" grep -q \
    '"usbaudio.ac_if_hdr.bcdADC":"2"' "$TMP/j"
CAPGEN=${CAPGEN:-build/tools/capgen}
if [ -x "$CAPGEN" ]; then
	"$CAPGEN" uac2 -F pcap -w "$TMP/u.pcap"
	check "the sample is what capgen uac2 writes" cmp "$U2" "$TMP/u.pcap"
fi

if ! command -v tshark >/dev/null 2>&1; then
	skip_rest "audio fields against tshark" "tshark is not installed"
fi
tshark_fields '^(usbaudio\\.|usb\\.control\\.Response$)'
n=$(wc -l <"$TMP/both")
check "urbscope prints tshark's usbaudio fields ($n)" test "$n" -ge 250
for cap in "$A" "$LINUX61C/classes.pcapng" samples/iso.pcap "$U2"; do
	tshark_agree "$(basename "$cap"): usbaudio.*" "$cap"
done
