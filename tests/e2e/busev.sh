#!/bin/sh
# tests/e2e/busev.sh - a hardware sniffer's bus events: the syslog
# messages ataradov/usb-sniffer stores on an exported-PDU interface
# (link type 252) beside its packets are read as bus events, among the
# packets, with tshark's frame numbers and syslog.msg; filtered by
# `event == bus`, bus_event and syslog.msg; kept by convert (pcapng) and
# counted when a format cannot hold them; counted by stats; and used by
# the wire-level decoder: a detected speed sizes the packets, a bus reset
# ends the transfer in progress.  On the real capture of
# tests/data/sniffer/ and on capgen's "sniffer" scenario.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh
plan 39

CAPGEN=${CAPGEN:-build/tools/capgen}
R=tests/data/sniffer/ataradov-usb-fs-vcp.pcapng
HAVE_TSHARK=0
command -v tshark >/dev/null 2>&1 && HAVE_TSHARK=1

# The bus events of a file as urbscope reads them: frame, message.
us_msgs() {
	"$US" read "$1" -Y 'event == bus' -T fields -e frame.number \
	    -e syslog.msg 2>/dev/null
}
ts_msgs() {
	tshark -r "$1" -Y syslog -T fields -e frame.number -e syslog.msg \
	    2>/dev/null
}
# same_fields NAME FILE FIELDS: every frame's FIELDS (-e ...), tshark's
# and urbscope's
same_fields() {
	# shellcheck disable=SC2086
	tshark -r "$2" -T fields $3 >"$TMP/ts" 2>/dev/null
	# shellcheck disable=SC2086
	"$US" read "$2" -T fields $3 >"$TMP/us" 2>/dev/null
	check_diff "$1" "$TMP/ts" "$TMP/us"
}

# --- the real capture
"$US" read "$R" >"$TMP/out" 2>"$TMP/err"
check_eq "read a sniffer's capture exits 0" 0 $?
check "read: nothing skipped (the bus events are read)" \
    sh -c "! grep -q 'skipped' '$TMP/err'"
check_eq "read: 39 bus events among the packets" 39 \
    "$(grep -c '^ *[0-9]* *[0-9.]* -  *bus   ' "$TMP/out")"
check_eq "read: every frame of the file, the events included" 572 \
    "$(wc -l <"$TMP/out")"
check "read: the bus reset between the two enumerations, frame 28" \
    grep -q '^ *28 .* bus   --- Bus Reset ---$' "$TMP/out"
"$US" read "$R" -Y 'bus_event == reset' -T fields -e frame.number \
    >"$TMP/resets" 2>&1
printf '4\n28\n' >"$TMP/want"
check_diff "-Y 'bus_event == reset': frames 4 and 28" "$TMP/want" \
    "$TMP/resets"
check_eq "-Y 'bus_event == speed && bus_speed == full': 2" 2 \
    "$("$US" read "$R" -Y 'bus_event == speed && bus_speed == full' |
    wc -l)"
check_eq "-Y 'syslog.msg contains \"Line state\"': 9" 9 \
    "$("$US" read "$R" -Y 'syslog.msg contains "Line state"' | wc -l)"
check_eq "-Y '!(event == bus)': the 533 packets" 533 \
    "$("$US" read "$R" -Y '!(event == bus)' | wc -l)"
"$US" read "$R" -T json >"$TMP/json" 2>/dev/null
check_eq "-T json: 39 bus events with their syslog.msg" 39 \
    "$(grep -c '"event":"bus","syslog.msg":"' "$TMP/json")"
check "-T json: the reset says what it is" grep -q \
    '"frame.number":28,.*"syslog.msg":"--- Bus Reset ---","bus_event":"reset"' \
    "$TMP/json"
"$US" read "$R" -V -Y 'frame.number == 13' >"$TMP/v" 2>&1
check "-V: a bus event, its message and its speed" sh -c \
    "grep -q '^Bus event 13, ' '$TMP/v' &&
    grep -q '^    syslog.msg: Detected speed: Full-Speed$' '$TMP/v' &&
    grep -q '^    bus_speed: full$' '$TMP/v'"
"$US" stats "$R" >"$TMP/st" 2>&1
check "stats: the bus events counted apart, by kind" sh -c \
    "grep -q '^Bus events: 39' '$TMP/st' &&
    grep -q '^Driver events: 0$' '$TMP/st' &&
    grep -Eq '^  reset +2$' '$TMP/st'"

if [ $HAVE_TSHARK = 1 ]; then
	ts_msgs "$R" >"$TMP/ts"
	us_msgs "$R" >"$TMP/us"
	check_diff "real capture: frame numbers and syslog.msg equal tshark's" \
	    "$TMP/ts" "$TMP/us"
	E="-e frame.number -e frame.time_relative -e syslog.msg"
	E="$E -e syslog.level -e syslog.facility -e usbll.pid"
	E="$E -e usbll.device_addr -e usbll.endp -e usbll.data"
	same_fields "real capture: every frame's fields equal tshark's" \
	    "$R" "$E"
else
	skip "real capture: tshark comparisons" "no tshark" some
fi

# convert: pcapng keeps them (read back by tshark and by urbscope), pcap
# and usbmon text cannot hold them and say so
"$US" convert "$R" -w "$TMP/c.pcapng" 2>"$TMP/err"
check_eq "convert to pcapng exits 0" 0 $?
us_msgs "$R" >"$TMP/a"
us_msgs "$TMP/c.pcapng" >"$TMP/b"
check_diff "convert to pcapng: the bus events read back the same" \
    "$TMP/a" "$TMP/b"
check_eq "convert to pcapng: 39 bus events read back" 39 \
    "$(wc -l <"$TMP/b")"
"$US" read "$R" 2>/dev/null | cut -c1-7,20- >"$TMP/a"
"$US" read "$TMP/c.pcapng" 2>/dev/null | cut -c1-7,20- >"$TMP/b"
check_diff "convert to pcapng: every line the same, in the same frames" \
    "$TMP/a" "$TMP/b"
if [ $HAVE_TSHARK = 1 ]; then
	ts_msgs "$R" >"$TMP/a"
	ts_msgs "$TMP/c.pcapng" >"$TMP/b"
	check_diff "convert to pcapng: tshark reads the same syslog.msg in \
the same frames" "$TMP/a" "$TMP/b"
	check "convert to pcapng: the packets keep their link type (294)" \
	    sh -c "capinfos '$TMP/c.pcapng' | grep -q 'usb-20-full'"
fi
"$US" convert "$R" -F pcap -w "$TMP/c.pcap" 2>"$TMP/err"
check_eq "convert to pcap exits 0" 0 $?
check "convert to pcap: says the 39 bus events are not written" \
    grep -q '39 bus events not written: pcap cannot hold them' "$TMP/err"
check_eq "convert to pcap: the 533 packets" 533 \
    "$("$US" read "$TMP/c.pcap" 2>/dev/null | wc -l)"
"$US" convert "$R" -F usbmon -w "$TMP/c.mon" 2>"$TMP/err"
check "convert to usbmon text: says the bus events are not written" \
    grep -q '39 bus events not written: usbmon cannot hold them' \
    "$TMP/err"

# --- capgen's sniffer: link type 288, the speed said by the events
"$CAPGEN" sniffer -F pcapng -w "$TMP/s.pcapng"
check_eq "capgen sniffer exits 0" 0 $?
"$US" read "$TMP/s.pcapng" >"$TMP/out" 2>"$TMP/err"
check_eq "read capgen's sniffer capture exits 0" 0 $?
check "speed: a low-speed device's 18 bytes in 8-byte packets are one answer" \
    grep -q '0\.0\.0 .* C ctrl ok  *18  GET_DESCRIPTOR DEVICE len 64 → 18 bytes.*mps 8' \
    "$TMP/out"
check "reset: the bulk IN after the bus reset is a transfer of its own" \
    grep -q '0\.3\.1 .* C bulk ok  *10  10 bytes' "$TMP/out"
check "reset: no transfer carries the packet from before the reset" \
    sh -c "! grep -q ' 74 bytes' '$TMP/out'"
check "every control transfer completes" \
    sh -c "! grep -q 'not completed' '$TMP/err'"
# the same packets without their events: the decoder cannot know
"$US" convert "$TMP/s.pcapng" -Y '!(event == bus)' -w "$TMP/n.pcapng" \
    2>/dev/null
"$US" read "$TMP/n.pcapng" >"$TMP/out2" 2>/dev/null
check_eq "without the events: the same packets" \
    "$(grep -vc ' bus   ' "$TMP/out")" "$(wc -l <"$TMP/out2")"
check "without the speed: the answer ends at its first 8-byte packet" \
    grep -q 'GET_DESCRIPTOR DEVICE len 64 → 8 bytes' "$TMP/out2"
check "without the reset: the bulk IN joins the packet before it (74)" \
    grep -q '0\.3\.1 .* C bulk ok  *74  74 bytes' "$TMP/out2"
if [ $HAVE_TSHARK = 1 ]; then
	m=$(tshark -r "$TMP/s.pcapng" -Y _ws.malformed 2>/dev/null | wc -l)
	check_eq "capgen sniffer: tshark finds no malformed packet" 0 "$m"
	ts_msgs "$TMP/s.pcapng" >"$TMP/ts"
	us_msgs "$TMP/s.pcapng" >"$TMP/us"
	check_diff "capgen sniffer: frame numbers and syslog.msg equal \
tshark's" "$TMP/ts" "$TMP/us"
	check_eq "capgen sniffer: 20 bus events" 20 "$(wc -l <"$TMP/us")"
	E="-e frame.number -e usbll.pid -e usbll.device_addr -e usbll.endp"
	E="$E -e usbll.data -e usbll.crc16.status"
	same_fields "capgen sniffer: every packet's usbll fields equal \
tshark's" "$TMP/s.pcapng" "$E"
	# tshark strips the events: urbscope reads what is left as above
	tshark -r "$TMP/s.pcapng" -Y '!syslog' -w "$TMP/t.pcapng" \
	    2>/dev/null
	"$US" read "$TMP/t.pcapng" 2>/dev/null | cut -c8- >"$TMP/a"
	cut -c8- "$TMP/out2" >"$TMP/b"
	check_diff "capgen sniffer: tshark's copy without syslog reads as \
convert's" "$TMP/a" "$TMP/b"
fi

rm -rf "$TMP"
