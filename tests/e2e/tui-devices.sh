#!/bin/sh
# tests/e2e/tui-devices.sh - what the TUI makes of the driver events, in a
# real terminal (tmux) on the demo scenario: the Devices pane shows the
# skeleton interface with its driver, minor, node and intfdata, the
# interface no driver took with each entry's reason; moving onto a device
# or an interface filters the timeline to it; a driver event's details
# list the events of its call and the URBs they submitted.  Skipped
# without tmux.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh
plan 60

WAIT_TENTHS=100
. tests/tmux.sh

# The addresses (bus.dev) of the timeline's rows, one a line.
list_addrs() {
	screen | sed -n '2,/^. Devices\|^. Details/p' |
	    sed -n 's/^ *[0-9][0-9]* [0-9.]*  *\([0-9]*\.[0-9]*\).*/\1/p' |
	    sort -u
}

# The line of the Devices pane that matches PATTERN, 0-based.
devices_row() {
	screen | awk -v pat="$1" '
	    /Devices/ && !top { top = NR; next }
	    top && $0 ~ pat { print NR - top - 1; exit }'
}

# Press KEY N times.
press() {
	k=0
	while [ $k -lt "$2" ]; do
		$T send-keys -t "$S" "$1"
		k=$((k + 1))
	done
}

# All traffic at once (--fast): the story is complete when the demo's
# last driver has deregistered.
$T new-session -d -s "$S" -x 150 -y 80 \
    "TERM=xterm-256color LANG=C.UTF-8 $US tui --fast sim:demo \
    2>$TMP/err; echo TUI-EXIT=\$?; sleep 30"
check "the demo's records are shown" wait_for "usb_submit_urb"
$T send-keys -t "$S" f 'event==deregister' Enter
check "the demo ran to its end" wait_for "deregistering interface driver"
$T send-keys -t "$S" f C-u Enter
check "an empty filter shows everything" wait_for "records pass"

$T send-keys -t "$S" d Tab
check "d and Tab focus the Devices pane" wait_for "Devices \*"
check "the cursor starts on 'all devices'" \
    wait_for "^>\(all devices: no filter\)"
check "the skeleton's interface is listed with its name" \
    wait_for "interface 0 \(1-3:1.0\) alt 0: Vendor Specific"
check "it was bound to skeleton until the device was unplugged" \
    wait_for "was bound to skeleton until unplug \(record [0-9]+\)"
check "with its minor and node" \
    wait_for "minor 192 /dev/usb/skel0 \(deregistered\)"
check "and its intfdata pointer" \
    wait_for "minor 192 .* intfdata 0x[0-9a-f]+ \(cleared\)"
check "the keyboard's interface was bound to usbkbd" \
    wait_for "was bound to usbkbd until unplug"
check "the storage interface: no driver took it" \
    wait_for "no driver took it:"
check "usbkbd's entry failed on the class" \
    wait_for "usbkbd: entry 0 bInterfaceClass 0x08 != 0x03 \(record [0-9]+\)"
check "skeleton's entry failed on the vendor" \
    wait_for "skeleton: entry 0 idVendor 0x1209 != 0xfff0"
check "devices show their speed, IDs and port" \
    wait_for "1\.4  fff0:fff0  high-speed  port 3  USB 2\.00"
check "a device is under the hub it is plugged into" \
    sh -c "$T capture-pane -p -t $S | grep -EA100 '^ +1\.1  ' |
    grep -qE '^     1\.4  fff0:fff0'"
check "the node's file operations are counted" \
    wait_for "4 file operations on the node \(first at record [0-9]+\)"
check "a device gone is marked" wait_for "1\.4 .*\[unplugged at record [0-9]+\]"

# Moving the cursor onto the loopback device filters the timeline to it.
row=$(devices_row "^ +1\\.4  ")
check "the loopback's device line is found ($row)" test -n "$row"
press j "${row:-0}"
check "moving onto a device filters to it" \
    wait_for "filter: bus==1 && dev==4 "
check "the cursor is on the device" wait_for "^> +1\.4  fff0:fff0"
a=$(list_addrs | tr '\n' ' ')
check_eq "the timeline shows only device 1.4" "1.4 " "$a"

row2=$(devices_row "interface 0 \\(1-3:1\\.0\\) alt 0: Vendor")
check "the skeleton's interface line is found ($row2)" test -n "$row2"
press j $(( ${row2:-0} - ${row:-0} ))
pat='filter: bus==1 && dev==4 && \(ep==0x81 \|\| ep==0x02 \|\| '
check "moving onto an interface filters to its endpoints and drivers" \
    wait_for "$pat"'driver=="skeleton"'
check "the interface's bulk traffic is listed" wait_for " 1\.4\.2 +out S +bulk"
check "its control traffic is not" sh -c "! $T capture-pane -p -t $S |
    grep -qE ' 1\.4\.0 '"
$T send-keys -t "$S" g
check "the first line clears the filter" wait_for "no filter: [0-9]+ of"

# A click on a device line (terminal row = its line number on screen,
# 1-based, as xterm's SGR mouse reports count) filters to it too.
y=$(screen | awk '/Devices/ && !top { top = NR; next }
    top && /^ +1\.4  / { print NR; exit }')
check "the loopback's line is on screen for a click ($y)" test -n "$y"
$T send-keys -t "$S" -l "$(printf '\033[<0;12;%sM' "${y:-1}")"
$T send-keys -t "$S" -l "$(printf '\033[<0;12;%sm' "${y:-1}")"
check "a click on a device filters to it" \
    wait_for "filter: bus==1 && dev==4 "
check "and puts the cursor there" wait_for "^> +1\.4  fff0:fff0"
$T send-keys -t "$S" g
check "g clears it again" wait_for "no filter: [0-9]+ of"

# A driver event's details: the call it ended and the URBs it caused.
$T send-keys -t "$S" d Tab Tab
$T send-keys -t "$S" f C-u 'event==probe && driver=="skeleton"' Enter
check "the skeleton's probe is selected" wait_for "Driver event: probe"
check "its details list what happened inside probe()" \
    wait_for "What happened inside the call \(4 events\):"
check "set_intfdata happened inside it" \
    wait_for "record [0-9]+: skeleton 1-3:1.0: usb_set_intfdata 0x"
check "register_dev happened inside it" \
    wait_for "record [0-9]+: register_dev intf=1-3:1.0 .*node=/dev/usb/skel0"

# Enter on a details line that names a record selects that record; the
# filter is cleared first, as it hides the record.
row3=$(screen | awk '/Details/ && !top { top = NR; next }
    top && /record [0-9]+: skeleton 1-3:1.0: usb_set_intfdata/ {
    print NR - top - 1; exit }')
$T send-keys -t "$S" f C-u Enter Tab
press j "${row3:-0}"
$T send-keys -t "$S" Enter
check "Enter on a listed event selects it" \
    wait_for "Driver event: set_intfdata"
$T send-keys -t "$S" Tab Tab

$T send-keys -t "$S" f C-u 'driver=="skeleton" && event==submit' Enter g
check "the write's submit is selected" wait_for "Function: write"
check "its details name its URB's S record" \
    wait_for "URB S record [0-9]+"
check "and its completion with status and length" \
    wait_for "URB C record [0-9]+: ok, 5 bytes, 0\.125 ms"

$T send-keys -t "$S" f C-u 'driver=="skeleton" && event==open' Enter g
check "an open names the node" \
    wait_for "File operations on /dev/usb/skel0 \(minor 192\) of interface 0:"
ops=$(screen | grep -A4 'File operations on' |
    sed -n 's/.*record [0-9]*: \([a-z]*\)() .*/\1/p' | tr '\n' ' ')
check_eq "and lists the driver's file operations on it" \
    "open write read release " "$ops"

$T send-keys -t "$S" f C-u 'driver=="usbkbd" && event==giveback' Enter g j j
check "a keyboard giveback is selected" wait_for "Driver event: giveback"
check "it names the completion it gives back" \
    wait_for "Gives back C record [0-9]+"
check "and the driver call that submitted the URB" \
    wait_for "by record [0-9]+ in usbkbd probe\(\)"
check "its completion handler's resubmit is listed" \
    wait_for "What its completion handler did \(3 events\):"
check "with the resubmit's URB records" \
    wait_for "record [0-9]+: usb_submit_urb urb=.* GFP_ATOMIC -> 0"

$T send-keys -t "$S" q
check "q quits with status 0" wait_for "TUI-EXIT=0"
check "no sanitizer report" no_sanitizer_report "$TMP/err"

# The classes guest's capture (tests/data/linux61-classes): every
# alternate setting of an interface is listed with its endpoints (the
# audio stream's are in alt 1), the current one marked; the device seen
# at the default address while it was enumerated is not left as a device
# 0 once it has its address, but is while it has none yet.
devpane() {
	$T new-session -d -s "$S" -x 150 -y 150 \
	    "TERM=xterm-256color LANG=C.UTF-8 $US tui $1 2>$TMP/err; \
	    echo TUI-EXIT=\$?; sleep 30"
	wait_for "^ 1/$2 \|" && $T send-keys -t "$S" d &&
	    wait_for "^ Bus 2"
}
S=$S-classes
check "the classes capture's devices are shown" \
    devpane "$LINUX61C/classes.pcapng" 1529
check "the audio stream's alt 0, current" wait_for \
    "interface 1 alt 0: Audio \(0x01\) sub 0x02 proto 0x00  \[current\]"
screen >"$TMP/pane"
check_eq "its alt 1 with the isochronous endpoint" \
    "ep 0x01 out iso mps 192" \
    "$(grep -A1 'interface 1 alt 1: Audio (0x01) sub 0x02 proto 0x00$' \
    "$TMP/pane" | sed -n '2s/^ *//p')"
# The devices as a tree of hubs and ports: the guest's own lsusb -t.
# Each device as "BUS.DEV DEPTH port N" ("-" for a root hub).
awk '/^\/:/ { bus = substr($3, 1, 2) + 0; print bus ".1 0 -" }
    /\|__/ { d = (index($0, "|") - 1) / 4; sub(/^ *\|__ Port /, "")
    split($0, w, /[:, ]+/); print bus "." w[3], d, "port " w[1] }' \
    "$LINUX61C/lsusb-t.txt" | sort -u >"$TMP/tree.want"
awk '/^ +[0-9]+\.[0-9]+  / { lead = match($0, /[0-9]/) - 1; p = "-"
    if (match($0, /  port [0-9]+  /))
        p = substr($0, RSTART + 2, RLENGTH - 4)
    print $1, (lead - 3) / 2, p }' "$TMP/pane" | sort -u >"$TMP/tree.got"
check_diff "devices under their hubs and ports, as the guest's lsusb -t" \
    "$TMP/tree.want" "$TMP/tree.got"
check_eq "no device left at the default address" "" \
    "$(grep -E '^ +[12]\.0  ' "$TMP/pane")"
$T send-keys -t "$S" q
check "q quits with status 0 (classes)" wait_for "TUI-EXIT=0"
check "no sanitizer report (classes)" no_sanitizer_report "$TMP/err"
$T kill-session -t "$S"
# cut before the tablet's SET_ADDRESS 6 (records 470, 471), then after it
"$US" convert -c 469 "$LINUX61C/classes.pcapng" -w "$TMP/enum.pcapng" \
    2>/dev/null
S=$S-cut
check "a capture cut in an enumeration is shown" \
    devpane "$TMP/enum.pcapng" 469
check "the device being enumerated is at the default address" \
    wait_for "^ +2\.0  056a:0000 .* at the default address, before SET_ADDRESS"
$T send-keys -t "$S" q
$T kill-session -t "$S"
"$US" convert -c 471 "$LINUX61C/classes.pcapng" -w "$TMP/enum.pcapng" \
    2>/dev/null
S=$S-2
check "the capture cut after its SET_ADDRESS is shown" \
    devpane "$TMP/enum.pcapng" 471
screen >"$TMP/pane"
check_eq "then nothing is at the default address" "" \
    "$(grep -E '^ +[12]\.0  ' "$TMP/pane")"
$T send-keys -t "$S" q
check "q quits with status 0 (cut)" wait_for "TUI-EXIT=0"
check "no sanitizer report (cut)" no_sanitizer_report "$TMP/err"
