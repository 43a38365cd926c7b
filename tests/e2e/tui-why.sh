#!/bin/sh
# tests/e2e/tui-why.sh - the TUI's Devices pane on a live usbmon capture
# (`urbscope tui -i usbmon0`, in tmux) lists under each device what the
# kernel says of its interfaces: the lines of `urbscope devices --why`,
# exactly, from the sysfs of URBSCOPE_SYSROOT (the fake tree of
# tests/fixtures/why/mkwhy.sh) and the module aliases of
# ROOT/lib/modules/$(uname -r) (tests/fixtures/why/modules).  /dev/usbmon0
# is an empty file: the pane's devices are those of the synthetic
# descriptor records the live source makes from sysfs, so the tree gets
# the "descriptors" files mktree.py leaves out.  Read back from a file,
# the same capture shows no such lines.  Skipped without tmux or python3.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh
plan 38

WAIT_TENTHS=100
. tests/tmux.sh

if ! command -v python3 >/dev/null; then
	skip_rest tui-why "python3 is not installed"
fi

FX=tests/fixtures/why
ROOT=$TMP/root
D=$ROOT/sys/bus/usb/devices
MODS=$ROOT/lib/modules/$(uname -r)
export URBSCOPE_USB_IDS=/nonexistent

sh "$FX/mkwhy.sh" "$ROOT/sys"
mkdir -p "$ROOT/dev" "$MODS"
cp "$FX/modules/modules.alias" "$FX/modules/modules.builtin.alias" "$MODS"
: >"$ROOT/dev/usbmon0"
# A device descriptor and one configuration with the interfaces of the
# tree, as the kernel's "descriptors" file (USB 2.0 9.6.1, 9.6.3, 9.6.5).
python3 - "$D" <<'EOF'
import os, struct, sys
d = sys.argv[1]
def num(p, n, base=16):
    try:
        return int(open(os.path.join(p, n)).read().strip() or "0", base)
    except (OSError, ValueError):
        return 0
for dev in os.listdir(d):
    if ":" in dev:
        continue
    p = os.path.join(d, dev)
    body = b""
    intfs = sorted(n for n in os.listdir(p) if ":" in n)
    for i in intfs:
        q = os.path.join(p, i)
        body += bytes([9, 4, num(q, "bInterfaceNumber"),
                       num(q, "bAlternateSetting", 10), 0,
                       num(q, "bInterfaceClass"), num(q, "bInterfaceSubClass"),
                       num(q, "bInterfaceProtocol"), 0])
    cfg = struct.pack("<BBHBBBBB", 9, 2, 9 + len(body), len(intfs),
                      num(p, "bConfigurationValue", 10) or 1, 0, 0x80, 50)
    dd = struct.pack("<BBHBBBBHHHBBBB", 18, 1, 0x200, num(p, "bDeviceClass"),
                     0, 0, 64, num(p, "idVendor"), num(p, "idProduct"), 0,
                     0, 0, 0, 1)
    open(os.path.join(p, "descriptors"), "wb").write(dd + cfg + body)
EOF

# What devices --why prints of the same tree and modules.
"$US" devices --sysfs "$ROOT/sys" --modules "$MODS" --why >"$TMP/why.out" \
    2>"$TMP/err"
check_eq "devices --why on the tree exits 0" 0 $?

export URBSCOPE_SYSROOT="$ROOT"
# the tmux server began before these: the TUI's sessions are told them
WHYENV="URBSCOPE_SYSROOT=$ROOT URBSCOPE_USB_IDS=$URBSCOPE_USB_IDS"
$T new-session -d -s "$S" -x 250 -y 300 \
    "TERM=xterm-256color LANG=C.UTF-8 $WHYENV $US tui -i usbmon0 \
    2>$TMP/tui.err; echo TUI-EXIT=\$?; sleep 30"
check "the synthetic records are shown" wait_for "GET_DESCRIPTOR"
$T send-keys -t "$S" d
check "d shows the Devices pane" wait_for "Devices"
check "the CDC Ethernet device is listed" wait_for "^ +2\.4  0525:a4a2"
check "its sysfs entry follows it" wait_for \
    "^ +kernel drivers \(sysfs $ROOT/sys/bus/usb/devices/2-2\.1\):$"

# The pane's lines of interface I, their indentation (the cursor column
# and six) taken off, from its header to the next line that is not one
# of its own; and devices --why's.
pane_intf() {
	screen | sed -n 's/^[ >]      //p' | awk -v i="$1" '
	    /^[^ ]/ { on = $1 == i; if (!on && done) exit; done = done || on }
	    on && (/^[^ ]/ || /^  [a-z]/)'
}
why_intf() {
	awk -v i="$1" '/^[^ ]/ { on = $1 == i } on' "$TMP/why.out"
}
for i in 2-2.1:1.0 2-2.1:1.1 1-2:1.0 2-1:1.0 2-1:1.1 1-1:1.0 2-2:1.0; do
	why_intf "$i" >"$TMP/want.$i"
	pane_intf "$i" >"$TMP/got.$i"
	check "$i: the pane lists it" test -s "$TMP/want.$i" -a -s "$TMP/got.$i"
	check_diff "$i: the pane's lines are devices --why's" \
	    "$TMP/want.$i" "$TMP/got.$i"
done
check "a bound interface: its driver" grep -qx \
    '  driver      cdc_ether' "$TMP/got.2-2.1:1.0"
check "a bound interface: how it bound" grep -qx \
    '  bound       through alias usb:v\*p\*d\*dc\*dsc\*dp\*ic02isc06ip00in\* of module cdc_ether' \
    "$TMP/got.2-2.1:1.0"
check "an unbound interface: why" grep -qx \
    '  why         module snd_usb_audio matches but is not loaded' \
    "$TMP/got.2-1:1.0"
check "an unauthorized interface: why" grep -qx \
    '  why         interface not authorized (authorized=0)' \
    "$TMP/got.1-1:1.0"

# An interface's first line filters the timeline to it.
row=$(screen | awk '/Devices/ && !top { top = NR; next }
    top && /^ +2-2\.1:1\.0  / { print NR - top - 1; exit }')
check "the interface line is found ($row)" test -n "$row"
$T send-keys -t "$S" Tab
k=0
while [ $k -lt "${row:-0}" ]; do
	$T send-keys -t "$S" j
	k=$((k + 1))
done
check "the cursor is on the interface" wait_for "^> +2-2\.1:1\.0  ic 02"
check "moving onto it filters to its device and interface" \
    wait_for "filter: bus==2 && dev==4"
$T send-keys -t "$S" q
check "the TUI quits" wait_for "TUI-EXIT=0"
check "no sanitizer report" no_sanitizer_report "$TMP/tui.err"

# tui -i --drivers: the tracer of capture --drivers, or (not root, no
# BTF, no usbcore, ...) one line why in the status bar and usbmon alone:
# the same records and lines either way.
# (a new session before the old one goes: the server stays)
old=$S
S=${S}d
$T new-session -d -s "$S" -x 250 -y 300 \
    "TERM=xterm-256color LANG=C.UTF-8 $WHYENV $US tui -i usbmon0 --drivers \
    2>$TMP/tui.err; echo TUI-EXIT=\$?; sleep 30"
$T kill-session -t "$old"
check "--drivers: the synthetic records are shown" wait_for "GET_DESCRIPTOR"
"$US" capture -i usbmon0 -q --drivers -w "$TMP/d.pcapng" 2>"$TMP/cap.err"
if grep -q -e '--drivers: ' "$TMP/cap.err"; then
	why=$(sed -n 's/^urbscope: --drivers: \(.*\); capturing usbmon alone$/\1/p' \
	    "$TMP/cap.err" | cut -c 1-60)
	check "--drivers: capture's reason in the status bar ($why)" \
	    wait_for "--drivers: $(printf '%s' "$why" | sed 's/[][\\.*^$()|+?{}]/\\&/g')"
else
	check "--drivers: traced, no reason in the status bar" sh -c \
	    "! $T capture-pane -p -t $S | grep -q -e '--drivers: '"
fi
$T send-keys -t "$S" d
check "--drivers: the sysfs lines" wait_for \
    "^ +kernel drivers \(sysfs $ROOT/sys/bus/usb/devices/2-2\.1\):$"
$T send-keys -t "$S" q
check "--drivers: the TUI quits" wait_for "TUI-EXIT=0"
check "--drivers: no sanitizer report" no_sanitizer_report "$TMP/tui.err"
"$US" tui --drivers "$TMP/none.pcapng" >/dev/null 2>"$TMP/err"
check_eq "--drivers without -i: a usage error" \
    "urbscope: tui: --drivers goes with -i usbmonN" "$(head -n 1 "$TMP/err")"

# The same records from a file: no sysfs lines.
"$US" capture -i usbmon0 -w "$TMP/c.pcapng" >/dev/null 2>&1
old=$S
S=${S}f
$T new-session -d -s "$S" -x 250 -y 300 \
    "TERM=xterm-256color LANG=C.UTF-8 $WHYENV $US tui $TMP/c.pcapng \
    2>$TMP/tui.err; echo TUI-EXIT=\$?; sleep 30"
$T kill-session -t "$old"
check "the file's records are shown" wait_for "GET_DESCRIPTOR"
$T send-keys -t "$S" d
check "the file's Devices pane lists the device" wait_for "^ +2\.4  0525:a4a2"
check "but no sysfs lines" sh -c "! $T capture-pane -p -t $S |
    grep -qE 'kernel drivers|  driver      '"
$T send-keys -t "$S" q
check "the TUI quits" wait_for "TUI-EXIT=0"
