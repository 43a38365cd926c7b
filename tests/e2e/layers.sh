#!/bin/sh
# tests/e2e/layers.sh - the include graph runs one way: decode <- capture
# <- core <- hcd <- samples <- tui (the ncurses viewer) <- cmd (the
# command line) on top.
# A file may include headers of its own folder and of folders below it,
# never above; core/core.h is private to core/; the EHCI driver sees the
# controller only through core/hcd.h (not hcd/emu-ehci.h or
# hcd/devmodel.h).  Also: a reader that only decodes files links none of
# the simulator (checked on the unit test of the file readers).
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh
plan 6

rank() {
	case $1 in
	decode) echo 0 ;; capture) echo 1 ;; core) echo 2 ;; hcd) echo 3 ;;
	samples) echo 4 ;; tui) echo 5 ;; cmd) echo 6 ;; *) echo 9 ;;
	esac
}

bad=0
n=0
for f in $(git ls-files 'decode/*.[ch]' 'capture/*.[ch]' 'core/*.[ch]' \
    'hcd/*.[ch]' 'samples/*.[ch]' 'tui/*.[ch]' 'cmd/*.[ch]'); do
	own=${f%%/*}
	mine=$(rank "$own")
	for inc in $(sed -n 's/^#include "\(.*\)".*/\1/p' "$f"); do
		n=$((n + 1))
		inc=${inc#../}
		case $inc in
		*/*) dir=${inc%%/*} ;;
		*) continue ;;	# the file's own folder
		esac
		if [ "$(rank "$dir")" -gt "$mine" ]; then
			echo "# $f includes $inc, a folder above $own/"
			bad=$((bad + 1))
		fi
		if [ "$inc" = core/core.h ] && [ "$own" != core ]; then
			echo "# $f includes core/core.h, private to core/"
			bad=$((bad + 1))
		fi
		case $f:$inc in
		hcd/ehci*:hcd/emu-ehci.h|hcd/ehci*:hcd/devmodel.h)
			echo "# $f (the EHCI driver) includes $inc"
			bad=$((bad + 1)) ;;
		esac
	done
done
check "the include graph was read ($n includes)" test "$n" -gt 100
check_eq "no include runs against the layers" 0 "$bad"

# The objects that read files reference nothing of the simulator, of
# ncurses or of libusb: decode/ and capture/ link on their own.
objs=
# (capture/bpf/ holds the eBPF program, compiled for the kernel, not here)
for c in $(git ls-files 'decode/*.c' 'capture/*.c' ':!capture/bpf/*'); do
	o=build/asan/${c%.c}.o
	[ -f "$o" ] || { objs=; break; }
	objs="$objs $o"
done
if [ -n "$objs" ]; then
	nm -u $objs 2>/dev/null | awk '{ print $NF }' | sort -u >"$TMP/undef"
	nm --defined-only $objs 2>/dev/null | awk '{ print $NF }' |
	    sort -u >"$TMP/def"
	comm -23 "$TMP/undef" "$TMP/def" |
	    grep -E '^(sim_|usb_|dm_|emu_|ehci_|hcd_|dma_|core_|tui_|libusb_|wmove|initscr|newwin)' \
	    >"$TMP/up" || true
	check_eq "decode/ and capture/ need nothing from the layers above" "" \
	    "$(tr '\n' ' ' <"$TMP/up")"
else
	notok "decode/ and capture/ objects are in build/asan (make test builds them)"
fi

# Linked from the layers' static libraries, the file readers' own test
# program holds no simulator, USB core, ncurses or libusb.
t=build/asan/tests/test-capture
if [ -x "$t" ]; then
	check_eq "$t links no simulator or USB core" 0 \
	    "$(nm "$t" | grep -cE ' T (sim_run|usb_submit_urb|emu_ehci_new|ehci_urb_enqueue)$')"
	check "$t links the file readers" sh -c "nm '$t' | grep -q ' T cap_open$'"
	check_eq "$t needs neither ncurses nor libusb nor libbpf" 0 \
	    "$(ldd "$t" | grep -cE 'ncurses|usb-1\.0|libbpf')"
else
	skip "test-capture's link" "$t not built" 3
fi
