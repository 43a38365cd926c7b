#!/bin/sh
# tests/e2e/buslog.sh - the simulator's bus log: `urbscope sim SCENARIO
# -b FILE` writes every transaction of the emulated EHCI controller as the
# packets on the wire (LINKTYPE_USB_2_0_HIGH_SPEED, 295).  Read back, its
# transfers agree with the URB capture of the same run: the same control
# requests and answers, the same bytes on every bulk and interrupt
# endpoint (and, for mass storage, the same transfers: a CBW says where
# its data phase ends); Wireshark's usbll dissector agrees with urbscope
# on every packet.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh
plan 49

# the fields of one filter, of a capture: one line a record
sel() {
	"$US" read "$1" -Y "$2" -T fields -e usb.bmRequestType \
	    -e usb.setup.bRequest -e usb.setup.wValue -e usb.setup.wIndex \
	    -e usb.setup.wLength -e usb.capdata 2>/dev/null
}

for sc in storage keyboard skeleton loopback demo; do
	"$US" sim "$sc" -w "$TMP/u.pcapng" -b "$TMP/b.pcapng" 2>"$TMP/err"
	check_eq "sim $sc -b: exits 0" 0 $?
	check "sim $sc -b: the bus log is link type 295" sh -c \
	    "capinfos -E '$TMP/b.pcapng' 2>/dev/null | grep -q 'High-Speed'"
	"$US" read "$TMP/b.pcapng" >"$TMP/bl" 2>"$TMP/berr"
	check "sim $sc: the bus log reads, every control transfer complete" \
	    sh -c "! grep -q 'not completed' '$TMP/berr'"
	# (the root hub, device 1, is never on the wire)
	for f in "ev==S && type==control" "ev==C && type==control"; do
		sel "$TMP/u.pcapng" "$f && dev!=1" >"$TMP/x1"
		sel "$TMP/b.pcapng" "$f" >"$TMP/x2"
		check_diff "sim $sc: $f: the same in both" "$TMP/x1" "$TMP/x2"
	done
	# bulk and interrupt: the same bytes each way (a transfer that ends
	# on a full packet cannot be told from the next one on the wire)
	for f in "ev==C && dir==in && status==0" "ev==S && dir==out"; do
		sel "$TMP/u.pcapng" "$f && type!=control && dev!=1" |
		    tr -d '\t\n' >"$TMP/x1"
		sel "$TMP/b.pcapng" "$f && type!=control" | tr -d '\t\n' \
		    >"$TMP/x2"
		check_diff "sim $sc: $f: the same bytes in both" "$TMP/x1" \
		    "$TMP/x2"
	done
	if [ "$sc" = storage ]; then
		for f in "ev==C && dir==in" "ev==S && dir==out"; do
			sel "$TMP/u.pcapng" "$f && type==bulk && dev!=1" \
			    >"$TMP/x1"
			sel "$TMP/b.pcapng" "$f && type==bulk" >"$TMP/x2"
			check_diff "sim storage: $f: the same transfers" \
			    "$TMP/x1" "$TMP/x2"
		done
	fi
	if command -v tshark >/dev/null 2>&1; then
		m=$(tshark -r "$TMP/b.pcapng" -Y _ws.malformed 2>/dev/null |
		    wc -l)
		check_eq "sim $sc: tshark finds no malformed packet" 0 "$m"
		E="-e frame.number -e usbll.pid -e usbll.device_addr"
		E="$E -e usbll.endp -e usbll.crc5 -e usbll.crc5.status"
		E="$E -e usbll.data -e usbll.crc16 -e usbll.crc16.status"
		# shellcheck disable=SC2086
		tshark -r "$TMP/b.pcapng" -T fields $E >"$TMP/ts" 2>/dev/null
		# shellcheck disable=SC2086
		"$US" read "$TMP/b.pcapng" -T fields $E >"$TMP/us" \
		    2>/dev/null
		check_diff "sim $sc: every packet's usbll fields equal tshark's" \
		    "$TMP/ts" "$TMP/us"
	fi
done

"$US" sim storage -w "$TMP/u.pcapng" -b /nonexistent/dir/b.pcapng \
    2>"$TMP/err"
check_eq "sim -b into a directory that is not there: exits 1" 1 $?
check "... and says why" grep -q 'bus log' "$TMP/err"
