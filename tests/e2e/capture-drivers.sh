#!/bin/sh
# tests/e2e/capture-drivers.sh - `capture --drivers` where the USB core
# cannot be traced, on a fake /dev and /sys tree (URBSCOPE_SYSROOT: a
# saved read() stream of Linux 6.1 as /dev/usbmon0): a kernel without BTF
# (no /sys/kernel/btf/vmlinux, as Raspberry Pi OS's) gets one line that
# says so and how to get it, and usbmon is captured alone, every record.
# The probe points missing on a kernel that has BTF are tested on real
# kernels (tests/kernel/guest-drivers.sh, check-drivers.py).
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh
plan 7

if [ "$(id -u)" != 0 ]; then
	skip_rest "capture --drivers without BTF" "not root (--drivers" \
	    "checks for root before BTF)"
fi
ROOT=$TMP/root
mkdir -p "$ROOT/dev" "$ROOT/sys/module/usbmon" "$ROOT/sys/module/usbcore"
cp "$LINUX61/usbmon0.bin" "$ROOT/dev/usbmon0"
export URBSCOPE_SYSROOT="$ROOT"

"$US" capture -i usbmon0 -q -w "$TMP/plain.pcapng" 2>"$TMP/err"
check_eq "usbmon alone: exit 0" 0 $?
n=$("$US" read -T usbmon "$TMP/plain.pcapng" 2>/dev/null | wc -l)

"$US" capture -i usbmon0 -q --drivers -w "$TMP/d.pcapng" 2>"$TMP/err"
check_eq "no BTF: exit 0" 0 $?
# said_once WHY NAME: the one --drivers line, WHY, where eBPF is built in
said_once() {
	ldd "$US" 2>/dev/null | grep -q libbpf ||
	    set -- "built without eBPF support: install clang, bpftool and libbpf-dev and rebuild" "$2 (built without eBPF)"
	check_eq "$2" "urbscope: --drivers: $1; capturing usbmon alone" \
	    "$(grep -e '--drivers' "$TMP/err")"
}
said_once "this kernel has no BTF (/sys/kernel/btf/vmlinux is missing): tracing the USB core needs a kernel built with CONFIG_DEBUG_INFO_BTF=y, as Debian's, Ubuntu's and Fedora's are" \
    "no BTF: one line says so and how to get it"
check "no BTF: some records" test "$n" -gt 100
check_eq "no BTF: every record of usbmon" "$n" \
    "$("$US" read -T usbmon "$TMP/d.pcapng" 2>/dev/null | wc -l)"

# With BTF there, the next thing missing is said: the tree is the one
# looked at.
mkdir -p "$ROOT/sys/kernel/btf"
: >"$ROOT/sys/kernel/btf/vmlinux"
rmdir "$ROOT/sys/module/usbcore"
"$US" capture -i usbmon0 -q --drivers -w "$TMP/e.pcapng" 2>"$TMP/err"
check_eq "BTF, no usbcore: exit 0" 0 $?
said_once "usbcore is not loaded" "BTF, no usbcore: says that"
