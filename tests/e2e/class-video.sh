#!/bin/sh
# tests/e2e/class-video.sh - the video class decoder (UVC) against tshark
# on capgen's UVC 1.1 webcam (samples/uvc-webcam.pcapng): its VC and VS
# descriptors, the controls, the 34-byte probe and commit, the request
# error code, the status interrupts; record by record, every usbvideo.*
# field both print; and the payload headers of its ISO frames, which
# tshark leaves undecoded.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh
plan 20

V=samples/uvc-webcam.pcapng

"$US" read "$V" >"$TMP/o" 2>"$TMP/err"
check "uvc-webcam.pcapng reads, no sanitizer report" \
    no_sanitizer_report "$TMP/err"
check "the probe control, summed up" grep -q \
    'GET_CUR intf 1 cs 0x01 len 34 .*probe: format 1 frame 1, 30.00 fps, max frame 614400 B, max payload 1024 B' \
    "$TMP/o"
check "the commit control" grep -q \
    'SET_CUR intf 1 cs 0x02 len 34: commit: format 1 frame 1' "$TMP/o"
check "GET_INFO's capabilities" grep -q \
    'GET_INFO intf 0 unit 2 cs 0x02 len 1 .*Brightness: info 0x03: GET SET' \
    "$TMP/o"
check "the request error code after a STALL" grep -q \
    'request error: Invalid control' "$TMP/o"
check "ISO payloads with their headers" grep -q \
    'UVC 8 payloads, 5348 bytes of video, FID 1, end of frame' "$TMP/o"
check "the status interrupt of a control change" grep -q \
    'status from VideoControl Interface, entity 2: Brightness Value change to 140' \
    "$TMP/o"
check "a button press" grep -q 'button pressed' "$TMP/o"

"$US" read "$V" -V >"$TMP/v" 2>"$TMP/err"
check "-V: the camera terminal is an entity of the VC interface" grep -q \
    'VC INTERFACE descriptor: Input Terminal (entity 1)' "$TMP/v"
check "-V: an MJPEG frame with its size" grep -q \
    'VS INTERFACE descriptor: Frame MJPEG 2: 1280x720' "$TMP/v"
check "no video descriptor is labelled audio" sh -c \
    "! grep -q 'Audio Control\|Audio Streaming' $TMP/v"
"$US" read "$V" -T fields -e usbvideo.format.guid \
    -e usbvideo.extension.guid 2>"$TMP/err" | grep '[^[:space:]]' >"$TMP/f"
check_eq "GUIDs as tshark prints them" \
    "32595559-0000-0010-8000-00aa00389b71	8a0f88dd-ba1c-5449-8a25-f78759f6175c" \
    "$(cat "$TMP/f")"
# The payload headers (urbscope's own names below the ISO data).
"$US" read "$V" -T fields -e usbvideo.payload.bHeaderLength \
    -e usbvideo.payload.bmHeaderInfo.eof -e usbvideo.payload.dwPresentationTime \
    2>"$TMP/err" | grep '[^[:space:]]' >"$TMP/p"
check_eq "payload headers: 4 completions of 8" "4" "$(wc -l <"$TMP/p")"
check "every header 12 bytes, EOF in two completions" sh -c \
    "cut -f1 $TMP/p | tr ',' '\n' | sort -u | grep -qx 12 &&
    test \$(cut -f2 $TMP/p | grep -c 1) -eq 2"
CAPGEN=${CAPGEN:-build/tools/capgen}
if [ -x "$CAPGEN" ]; then
	"$CAPGEN" uvc -F pcapng -w "$TMP/u.pcapng"
	check "the sample is what capgen uvc writes" cmp "$V" "$TMP/u.pcapng"
fi

if ! command -v tshark >/dev/null 2>&1; then
	skip_rest "video fields against tshark" "tshark is not installed"
fi
tshark_fields '^usbvideo\\.'
n=$(wc -l <"$TMP/both")
check "urbscope prints tshark's usbvideo fields ($n)" test "$n" -ge 150
tshark_agree "$(basename "$V"): usbvideo.*" "$V"
# An audio device's descriptors and requests are never video's.
"$US" read samples/uac2-headset.pcap -T fields -e usbvideo.control.selector \
    -e usbvideo.control.descriptorSubType 2>"$TMP/err" |
    grep '[^[:space:]]' >"$TMP/a"
check "no usbvideo field on the UAC 2 headset" test ! -s "$TMP/a"
