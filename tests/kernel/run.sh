#!/bin/sh
# tests/kernel/run.sh - `make test-kernel`: capture with urbscope inside a
# real Linux guest under QEMU and compare with the kernel's own records
# (see tests/kernel/README.md).  Prints "ok - " / "not ok - " lines, or one
# "skip - test-kernel: REASON" line when QEMU or the kernel package cannot
# be had; exits non-zero when a check fails.
cd "$(dirname "$0")/../.." || exit 1
out=${KERNEL_TEST_OUT:-build/kernel/run}

if ! command -v qemu-system-x86_64 >/dev/null; then
	echo "skip - test-kernel: no qemu-system-x86_64" \
	    "(apt-get install qemu-system-x86 busybox-static cpio usbutils)"
	exit 0
fi
if ! command -v python3 >/dev/null; then
	echo "skip - test-kernel: no python3"
	exit 0
fi

mkdir -p build/kernel || exit 1
# One run at a time: two at once would share the output directory and
# halve each guest's CPU.
exec 9>build/kernel/run.lock
if ! flock -w 600 9; then
	echo "not ok - test-kernel: another run held build/kernel/run.lock" \
	    "for 10 minutes"
	exit 1
fi
start=$(date +%s)
# CAPTURE=raw replaces urbscope capture by a plain read() of /dev/usbmon0.
sh tests/kernel/vm.sh --guest tests/kernel/guest-test.sh \
    --host tests/kernel/host.py --timeout 180 \
    --env "CAPTURE=${CAPTURE:-urbscope}" "$out" 2>build/kernel/vm.err
rc=$?
if [ "$rc" -eq 77 ]; then
	echo "skip - test-kernel: $(tail -n 1 build/kernel/vm.err)"
	exit 0
fi
if [ ! -f "$out/share/guest.rc" ]; then
	echo "not ok - test-kernel: the guest did not finish (vm.sh exit $rc)"
	sed 's/^/#   /' build/kernel/vm.err | tail -n 30
	exit 1
fi
if [ "$rc" -ne 0 ]; then
	# The checks below say what went wrong; the log says where.
	echo "# guest script exited $rc; its log:"
	sed 's/^/#   /' "$out/share/guest.log" | tail -n 30
fi
if [ "$(cat "$out/host.rc" 2>/dev/null)" != 0 ]; then
	echo "# host.py failed:"
	sed 's/^/#   /' "$out/host.log" | tail -n 20
fi
python3 tests/kernel/check.py "$out" ./urbscope
crc=$?

# capture --drivers: the USB core traced with eBPF next to usbmon
# (guest-drivers.sh, check-drivers.py), in a VM of its own.
dout=$out-drivers
if ! ldd ./urbscope 2>/dev/null | grep -q libbpf; then
	echo "skip - test-kernel drivers: ./urbscope was built without eBPF" \
	    "support (apt-get install clang bpftool libbpf-dev)"
else
	sh tests/kernel/vm.sh --guest tests/kernel/guest-drivers.sh \
	    --host tests/kernel/host.py --timeout 120 "$dout" \
	    2>build/kernel/vm-drivers.err
	rc=$?
	if [ "$rc" -eq 77 ]; then
		echo "skip - test-kernel drivers:" \
		    "$(tail -n 1 build/kernel/vm-drivers.err)"
	elif [ ! -f "$dout/share/guest.rc" ]; then
		echo "not ok - test-kernel drivers: the guest did not finish" \
		    "(vm.sh exit $rc)"
		sed 's/^/#   /' build/kernel/vm-drivers.err | tail -n 30
		crc=1
	else
		[ "$rc" -ne 0 ] && sed 's/^/#   /' "$dout/share/guest.log" |
		    tail -n 30
		python3 tests/kernel/check-drivers.py "$dout" ./urbscope ||
		    crc=1
	fi
fi
echo "# test-kernel: $(($(date +%s) - start)) s" \
    "(guest $(cat "$out/seconds") s); files in $out and $dout"
exit $crc
