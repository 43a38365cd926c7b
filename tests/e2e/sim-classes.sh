#!/bin/sh
# tests/e2e/sim-classes.sh - the class device models of the simulator
# (samples/devices/gamepad.c, serial.c, speaker.c) driven by their sample
# drivers in the built-in scenarios hid, acm and audio: the captures run
# clean and deterministic, urbscope's summaries say what the class
# traffic means (reports by their fields, line coding, control lines,
# SERIAL_STATE, the echoed text, sample rate, volume and mute), and with
# tshark as the oracle every usbhid.* / usbcom.* / usbaudio.* field both
# print has the same values, record by record.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh
plan 64

for sc in hid acm audio; do
	"$US" sim $sc -w "$TMP/$sc.pcapng" >"$TMP/$sc.out" 2>"$TMP/$sc.err"
	check_eq "sim $sc exits 0" 0 $?
	check "sim $sc: no sanitizer report" no_sanitizer_report \
	    "$TMP/$sc.err"
	"$US" sim $sc -w "$TMP/$sc-2.pcapng" >/dev/null 2>&1
	check "sim $sc is deterministic" cmp "$TMP/$sc.pcapng" \
	    "$TMP/$sc-2.pcapng"
	"$US" read "$TMP/$sc.pcapng" >"$TMP/$sc.txt" 2>"$TMP/$sc.err"
	check "read $sc: no sanitizer report" no_sanitizer_report \
	    "$TMP/$sc.err"
done

# has FILE NAME PATTERN: a summary line of FILE matches PATTERN (grep -E)
has() {
	check "$2" grep -qE "$3" "$TMP/$1.txt"
}

# HID: the requests usbhid makes, the reports by their fields
has hid "hid: SET_IDLE of all reports" \
    'out S ctrl .*SET_IDLE infinite id 0 intf 0$'
has hid "hid: GET_DESCRIPTOR of the 125-byte report descriptor" \
    'in  C ctrl ok +125  GET_DESCRIPTOR HID_REPORT'
has hid "hid: GET_REPORT of the feature report, by its fields" \
    'GET_REPORT feature id 3 intf 0 len 3 .*report 3: Vendor=16 Vendor=128$'
has hid "hid: SET_REPORT of the output report: its LED" \
    'SET_REPORT output id 2 intf 0 len 2: report 2: LEDs NumLock$'
has hid "hid: an input report's buttons and axes" \
    '\[intf 0 HID\] 5 bytes, .*: report 1: buttons 1 x -100 y 40 Hat switch=2$'
has hid "hid: two buttons, the axes at their limits, no hat (null)" \
    ': report 1: buttons 1\+3 x 127 y -127$'
has hid "hid: the consumer control report (ID 4)" \
    '\[intf 0 HID\] 2 bytes, .*: report 4: Volume Increment=1$'
has hid "hid: mute" ': report 4: Mute=1$'
check "hid: the driver logged the reports" grep -q \
    'pad: buttons 1 3 x 127 y -127 hat centred' "$TMP/hid.txt"

# CDC-ACM: line coding, control lines, notifications, the echo
has acm "acm: SET_LINE_CODING at probe: 9600 8N1" \
    'out S ctrl .*SET_LINE_CODING intf 0: 9600 8N1$'
has acm "acm: SET_LINE_CODING at open: 115200 8N1" \
    'out S ctrl .*SET_LINE_CODING intf 0: 115200 8N1$'
has acm "acm: GET_LINE_CODING's answer" \
    'in  C ctrl ok .*GET_LINE_CODING intf 0 → 7 bytes, .*: 115200 8N1$'
has acm "acm: DTR and RTS raised" \
    'SET_CONTROL_LINE_STATE DTR on RTS on intf 0$'
has acm "acm: DTR and RTS dropped" \
    'SET_CONTROL_LINE_STATE DTR off RTS off intf 0$'
has acm "acm: SEND_BREAK" 'out S ctrl .*SEND_BREAK 20 ms intf 0$'
has acm "acm: SERIAL_STATE after DTR: DCD and DSR" \
    'in  C int  ok .*SERIAL_STATE intf 0: DCD, DSR$'
has acm "acm: SERIAL_STATE of the break" 'SERIAL_STATE intf 0: DCD, DSR, break$'
has acm "acm: SERIAL_STATE after DTR dropped" 'SERIAL_STATE intf 0: no lines$'
has acm "acm: the text written" \
    'out S bulk .*\[intf 1 CDC-Data\] OUT 13 bytes: "hello, serial"$'
has acm "acm: the text echoed back" \
    'in  C bulk ok .*\[intf 1 CDC-Data\] 13 bytes, .*: "hello, serial"$'

# UAC 2.0: the clock, the mixer, the streaming interface
has audio "audio: SET_INTERFACE of the streaming interface, alt 1" \
    'SET_INTERFACE intf 1 alt 1$'
has audio "audio: the clock's validity" \
    'GET_CUR intf 0 unit 16 cs 0x02 len 1 → .*: clock valid$'
has audio "audio: the sampling frequencies (RANGE)" \
    'GET_RANGE intf 0 unit 16 cs 0x01 len 26 → .*2 ranges: '\
'44100..44100 48000..48000$'
has audio "audio: SET CUR of the sample rate" \
    'SET_CUR intf 0 unit 16 cs 0x01 len 4: sampling frequency 48000 Hz$'
has audio "audio: GET CUR of the sample rate" \
    'GET_CUR intf 0 unit 16 cs 0x01 len 4 → .*: sampling frequency 48000 Hz$'
has audio "audio: mute" \
    'GET_CUR intf 0 unit 2 cs 0x01 len 1 → .*: mute off master$'
has audio "audio: the volume range" \
    'GET_RANGE intf 0 unit 2 cs 0x02 ch 1 len 8 → .*: volume, 1 range: '\
'-60.00 dB..0.00 dB$'
has audio "audio: the volume" \
    'GET_CUR intf 0 unit 2 cs 0x02 ch 2 len 2 → .*: volume ch 2 -20.00 dB$'
has audio "audio: SET CUR of the volume" \
    'SET_CUR intf 0 unit 2 cs 0x02 ch 1 len 2: volume ch 1 -10.00 dB$'
has audio "audio: isochronous OUT packets" \
    'out C iso  ok +1536  \[intf 1 Audio\] 8 frames, 1536 bytes sent'

if ! command -v tshark >/dev/null 2>&1; then
	skip_rest "class fields against tshark" "tshark is not installed"
fi
for sc in hid acm audio; do
	m=$(tshark -r "$TMP/$sc.pcapng" -Y _ws.malformed 2>/dev/null | wc -l)
	check_eq "sim $sc: tshark finds no malformed packet" 0 "$m"
done
# the URB records alone: urbscope's -T fields skips the driver events
# (pcapng interface 1) that tshark numbers as frames too
for sc in hid acm audio; do
	tshark -r "$TMP/$sc.pcapng" -Y usb -w "$TMP/$sc-usb.pcapng" 2>/dev/null
done
# tshark 4.0 leaves a report in a control transfer undecoded (its
# packet-usb-hid.c dissects GET_REPORT's and SET_REPORT's setup only):
# SET_REPORT's data is usb.data_fragment, GET_REPORT's answer nothing at
# all.  Those records are compared as bytes (SET_REPORT) or against what
# the model answers (GET_REPORT), the rest field by field.
F=$TMP/hid-usb.pcapng
gr=$(tshark -r "$F" -Y 'usbhid.setup.bRequest == 1' -T fields \
    -e frame.number 2>/dev/null | paste -sd, -)
tshark -r "$F" -Y "usb.data_fragment || usb.request_in in {$gr}" \
    -T fields -e frame.number 2>/dev/null >"$TMP/ctl"
check_eq "hid: two report transfers tshark leaves undecoded" 2 \
    "$(wc -l <"$TMP/ctl")"
tshark -r "$F" -Y usb.data_fragment -T fields -e frame.number \
    -e usb.data_fragment 2>/dev/null >"$TMP/ts2"
"$US" read "$F" -T fields -e frame.number -e usbhid.data 2>/dev/null |
    awk -F'\t' 'NR == FNR { want[$1] = 1; next } ($1 in want)' "$TMP/ts2" - \
    >"$TMP/us2"
check_diff "hid: SET_REPORT's data is tshark's bytes" "$TMP/ts2" "$TMP/us2"
f=$(tshark -r "$F" -Y "usb.request_in in {$gr}" -T fields \
    -e frame.number 2>/dev/null)
r=$("$US" read "$F" -T fields -e frame.number -e usbhid.data 2>/dev/null |
    awk -F'\t' -v f="$f" '$1 == f { print $2 }')
check_eq "hid: GET_REPORT's answer: ID 3, dead zone 16, sensitivity 128" \
    031080 "$r"
tshark -r "$F" -Y "!(frame.number in {$(paste -sd, - <"$TMP/ctl")})" \
    -w "$TMP/hid-rep.pcapng" 2>/dev/null
tshark_fields '^usbhid\\.'
n=$(wc -l <"$TMP/both")
check "usbhid fields both know: $n" test "$n" -gt 0
tshark_agree "hid.pcapng: usbhid.*" "$TMP/hid-rep.pcapng"
check "hid: the reports' axes among them (x -100 y 40)" \
    grep -qE "	-100	40	" "$TMP/ts.all"
tshark_fields '^usbcom\\.'
n=$(wc -l <"$TMP/both")
check "usbcom fields both know: $n" test "$n" -gt 0
tshark_agree "acm.pcapng: usbcom.*" "$TMP/acm-usb.pcapng"
# tshark 4.0 has no fields for a line coding or a UART state: they are
# usbcom.control.payload and usbcom.interrupt.payload, bytes
check "acm: the line coding among them (115200 8N1 as bytes)" \
    grep -q 00c20100000008 "$TMP/ts.all"
check "acm: the SERIAL_STATE among them (DCD DSR as bytes)" \
    grep -q 0000000002000300 "$TMP/ts.all"
tshark_fields '^(usbaudio\\.|usb\\.control\\.Response$)'
n=$(wc -l <"$TMP/both")
check "usbaudio fields both know: $n" test "$n" -gt 0
tshark_agree "audio.pcapng: usbaudio.*" "$TMP/audio-usb.pcapng"
# the class requests' answers: usb.control.Response, bytes in tshark
check "audio: the sample rate among them (48000 as bytes)" \
    grep -q 80bb0000 "$TMP/ts.all"
