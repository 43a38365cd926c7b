#!/bin/sh
# tests/kernel/run.sh - `make test-kernel`: capture with urbscope inside a
# real Linux guest under QEMU and compare with the kernel's own records
# (see tests/kernel/README.md), on each kernel of the matrix
# (tests/kernel/kver.sh: Debian 12's 6.1, 6.12 and 6.12 PREEMPT_RT, 6.1.187, 7.x,
# all amd64, and arm64 6.1 and 6.12;
# KERNELS="6.1 6.12-rt" runs some of them).  Prints "ok - " / "not ok - "
# lines, each named with its kernel ("ok - [6.12.118+deb12-amd64] ..."),
# then one summary line per kernel:
#   kernel KVER: N ok, N not ok, submit->S A/B, giveback->C A/B, lost N
# A kernel that cannot be had prints one "skip - [KERNEL] REASON (N
# checks)" line standing for its checks; the script fails when a check
# fails or when no kernel of the matrix can be had.  Per kernel: the main
# test (guest-test.sh, check.py); the test of capture --drivers
# (guest-drivers.sh, check-drivers.py); the test of our own kernel modules
# (kmod.sh, guest-kmod.sh, check-kmod.py; "skip - ... kmod: REASON"
# without the kernel's headers); the test of devices served over USB/IP
# (guest-serve.sh, check-serve.py); the test of replay and the exported C
# programs against QEMU's keyboard and disk (guest-replay.sh,
# check-replay.py).  KERNEL_TEST=main, drivers, kmod, serve or replay runs
# only that one.
cd "$(dirname "$0")/../.." || exit 1
base=${KERNEL_TEST_OUT:-build/kernel/run}
base=${base%/}
tests=${KERNEL_TEST:-main drivers kmod serve replay}
. tests/kernel/kver.sh
kernels=${KERNELS:-$KERNELS_ALL}

# The plan (tests/run.sh holds a script to it): the checks each part
# prints, check.py's; check-drivers.py's and check-drivers-tui.sh's;
# check-kmod.py's.  A part that cannot run says how many it stands for.
n_main=33
n_drivers=28
n_kmod=54
n_serve=25
n_replay=15
# kernel_tests K: the parts to run on kernel K: $tests, or those of them
# its KERNEL_TESTS_ line names (tests/kernel/kver.sh)
kernel_tests() {
	eval "only=\${KERNEL_TESTS_$(echo "$1" | tr '.-' '__'):-}"
	if [ -z "$only" ]; then
		echo "$tests"
		return
	fi
	for t in $tests; do
		case " $only " in *" $t "*) printf '%s ' "$t" ;; esac
	done
	echo
}
# checks T...: how many checks the parts T print
checks() {
	c=0
	case $* in *main*) c=$((c + n_main)) ;; esac
	case $* in *drivers*) c=$((c + n_drivers)) ;; esac
	case $* in *kmod*) c=$((c + n_kmod)) ;; esac
	case $* in *serve*) c=$((c + n_serve)) ;; esac
	case $* in *replay*) c=$((c + n_replay)) ;; esac
	echo "$c"
}
total=0
for k in $kernels; do
	total=$((total + $(checks $(kernel_tests "$k"))))
done
echo "1..$total"

if ! command -v qemu-system-x86_64 >/dev/null; then
	echo "skip - test-kernel: no qemu-system-x86_64" \
	    "(apt-get install qemu-system-x86 busybox-static cpio usbutils)" \
	    "(the rest)"
	exit 0
fi
if ! command -v python3 >/dev/null; then
	echo "skip - test-kernel: no python3 (the rest)"
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

# guest NAME CHECKS OUTDIR VM.SH-ARGS...: run vm.sh; 77 when it cannot run
# (the skip line printed, standing for CHECKS: "N checks" or "the rest"),
# 1 when the guest did not finish, else 0 with the guest's failures shown
# for the checks that follow.
guest() {
	name=$1
	checks=$2
	dir=$3
	shift 3
	sh tests/kernel/vm.sh "$@" "$dir" 2>build/kernel/vm.err
	rc=$?
	if [ "$rc" -eq 77 ]; then
		echo "skip - $name: $(tail -n 1 build/kernel/vm.err) ($checks)"
		return 77
	fi
	if [ ! -f "$dir/share/guest.rc" ]; then
		echo "not ok - $name: the guest did not finish (vm.sh exit $rc)"
		[ "${checks% checks}" -gt 1 ] 2>/dev/null &&
		    echo "skip - $name: no guest, no checks" \
		    "($((${checks% checks} - 1)) checks)"
		sed 's/^/#   /' build/kernel/vm.err | tail -n 30
		return 1
	fi
	if [ "$rc" -ne 0 ]; then
		# The checks say what went wrong; the log says where.
		echo "# guest script exited $rc; its log:"
		sed 's/^/#   /' "$dir/share/guest.log" | tail -n 30
	fi
	return 0
}

# one_kernel K: the parts on kernel K (KERNEL=K for vm.sh and kmod.sh);
# 77 when it cannot be had (its skip line printed), 1 when a check failed.
one_kernel() {
	k=$1
	export KERNEL="$k"
	tests=$(kernel_tests "$k")
	n=$(checks $tests)
	out=$base-$k
	kout=$out-kmod
	dout=$out-drivers
	crc=0
	case $tests in *main*)
		start=$(date +%s)
		# CAPTURE=raw replaces urbscope capture by a plain read() of
		# /dev/usbmon0.
		guest test-kernel "$n_main checks" "$out" \
		    --guest tests/kernel/guest-test.sh \
		    --host tests/kernel/host.py --timeout 180 \
		    --env "CAPTURE=${CAPTURE:-urbscope}"
		case $? in
		77)	# the kernel cannot be had: its other parts neither
			[ "$n" -gt "$n_main" ] && echo "skip - test-kernel:" \
			    "this kernel cannot be had ($((n - n_main)) checks)"
			return 77 ;;
		1)	crc=1 ;;
		0)	if [ "$(cat "$out/host.rc" 2>/dev/null)" != 0 ]; then
				echo "# host.py failed:"
				sed 's/^/#   /' "$out/host.log" | tail -n 20
			fi
			python3 tests/kernel/check.py "$out" ./urbscope ||
			    crc=1
			echo "# test-kernel: $(($(date +%s) - start)) s" \
			    "(guest $(cat "$out/seconds") s); files in $out" ;;
		esac
	esac

	# capture --drivers: the USB core traced with eBPF next to usbmon
	# (guest-drivers.sh, check-drivers.py), in a VM of its own.
	case $tests in *drivers*)
		start=$(date +%s)
		if ! ldd ./urbscope 2>/dev/null | grep -q libbpf; then
			echo "skip - test-kernel drivers: ./urbscope was built without" \
			    "eBPF support (apt-get install clang bpftool libbpf-dev)" \
			    "($n_drivers checks)"
		else
			guest "test-kernel drivers" "$n_drivers checks" "$dout" \
			    --guest tests/kernel/guest-drivers.sh \
			    --host tests/kernel/host.py --timeout 240
			case $? in
			0)	python3 tests/kernel/check-drivers.py "$dout" ./urbscope ||
				    crc=1
				sh tests/kernel/check-drivers-tui.sh "$dout"
				echo "# drivers: $(($(date +%s) - start)) s" \
				    "(guest $(cat "$dout/seconds") s); files in $dout" ;;
			1)	crc=1 ;;
			esac
		fi
	esac

	# urbscope serve -A: the disk and keyboard models over USB/IP to
	# the guest's own vhci-hcd (guest-serve.sh, check-serve.py)
	case $tests in *serve*)
		start=$(date +%s)
		sopts=
		ldd ./urbscope 2>/dev/null | grep -q libbpf && sopts=--drivers
		guest serve "$n_serve checks" "$out-serve" \
		    --guest tests/kernel/guest-serve.sh --devices serve \
		    --timeout 200 --env "CAPTURE_OPTS=$sopts" \
		    --file samples/hid-keyboard.pcap \
		    --file samples/uvc-webcam.pcapng \
		    --file tests/data/linux61/usbmon0.bin
		case $? in
		0)	python3 tests/kernel/check-serve.py "$out-serve" \
			    ./urbscope || crc=1
			echo "# serve: $(($(date +%s) - start)) s" \
			    "(guest $(cat "$out-serve/seconds") s); files in" \
			    "$out-serve" ;;
		1)	crc=1 ;;
		esac
	esac

	# urbscope replay and export --format c: a capture of QEMU's
	# keyboard and disk made again to them and to devices that differ
	# (guest-replay.sh, check-replay.py)
	case $tests in *replay*)
		start=$(date +%s)
		guest replay "$n_replay checks" "$out-replay" \
		    --guest tests/kernel/guest-replay.sh \
		    --host tests/kernel/host.py --timeout 200 \
		    --load configfs --load dummy_hcd --load libcomposite \
		    --load usb_f_acm --load cdc-acm
		case $? in
		0)	python3 tests/kernel/check-replay.py "$out-replay" ||
			    crc=1
			echo "# replay: $(($(date +%s) - start)) s" \
			    "(guest $(cat "$out-replay/seconds") s); files in" \
			    "$out-replay" ;;
		1)	crc=1 ;;
		esac
	esac

	case $tests in *kmod*)
		start=$(date +%s)
		mods=$(sh tests/kernel/kmod.sh "build/kernel/modules-$k" \
		    2>build/kernel/kmod.err)
		krc=$?
		if [ "$krc" -eq 77 ]; then
			echo "skip - kmod: $(tail -n 1 build/kernel/kmod.err)" \
			    "($n_kmod checks)"
			return $crc
		elif [ "$krc" -ne 0 ]; then
			echo "not ok - kmod: the modules did not build (kmod.sh exit" \
			    "$krc)"
			echo "skip - kmod: no modules ($((n_kmod - 1)) checks)"
			sed 's/^/#   /' build/kernel/kmod.err | tail -n 30
			return 1
		fi
		set --
		for m in $mods; do
			set -- "$@" --module "$m"
		done
		# --drivers: the drivers' calls traced with eBPF in the capture
		# too, and the driver rules checked on them (check-kmod.py asserts
		# them); without eBPF in ./urbscope, usbmon alone and no rules
		if [ -z "${CAPTURE_OPTS+x}" ]; then
			CAPTURE_OPTS=
			ldd ./urbscope 2>/dev/null | grep -q libbpf &&
			    CAPTURE_OPTS=--drivers
		fi
		guest kmod "$n_kmod checks" "$kout" \
		    --guest tests/kernel/guest-kmod.sh --timeout 240 \
		    --load vhci-hcd \
		    --env "CAPTURE_OPTS=$CAPTURE_OPTS" "$@"
		case $? in
		77) return $crc ;;
		1) return 1 ;;
		esac
		python3 tests/kernel/check-kmod.py "$kout" ./urbscope || crc=1
		echo "# kmod: $(($(date +%s) - start)) s" \
		    "(guest $(cat "$kout/seconds") s); files in $kout"
	esac
	return $crc
}

# summary KVER LOG: the kernel's line: its checks, the submits and
# givebacks matched to usbmon records (check-drivers.py), events lost.
summary() {
	sub=$(grep 'submit events matched by the next usbmon S record' "$2" |
	    sed -n 's/.*URB id: \([0-9]*\) of \([0-9]*\) .*/\1\/\2/p' |
	    head -n 1)
	gb=$(sed -n 's/.*C\/E after a giveback \([0-9]*\) of \([0-9]*\).*/\1\/\2/p' \
	    "$2" | head -n 1)
	lost=$(sed -n 's/.*drivers: lost events 0 (\([^)]*\)).*/\1/p' "$2" |
	    head -n 1)
	nsk=$(grep -c '^skip - ' "$2")
	echo "kernel $1: $(grep -c '^ok - ' "$2") ok," \
	    "$(grep -c '^not ok - ' "$2") not ok, submit->S ${sub:--}," \
	    "giveback->C ${gb:--}, lost ${lost:--}$( [ "$nsk" -gt 0 ] &&
	    echo ", $nsk skip lines")"
}

rc=0
had=0
for k in $kernels; do
	kv=$(kernel_version build/kernel "$k")
	if [ -z "$kv" ]; then
		echo "skip - [$k] cannot tell this kernel's version (not one" \
		    "of $KERNELS_ALL, or no package lists: apt-get update)" \
		    "($(checks $(kernel_tests "$k")) checks)"
		continue
	fi
	start=$(date +%s)
	# each check named with its kernel; the part's status in a file
	# (a pipeline's is its last command's)
	{ one_kernel "$k"; echo $? >build/kernel/kernel.rc; } |
	    sed -u -E "s/^(ok|not ok|skip) - /\1 - [$kv] /" |
	    tee build/kernel/kernel-$k.tap
	krc=$(cat build/kernel/kernel.rc)
	case $krc in
	77) ;;
	0) had=1 ;;
	*) had=1; rc=1 ;;
	esac
	[ "$krc" = 77 ] && continue
	summary "$kv" build/kernel/kernel-$k.tap
	echo "# kernel $kv: $(($(date +%s) - start)) s"
done
if [ "$had" = 0 ]; then
	echo "# no kernel of the matrix ($kernels) could be had"
	exit 1
fi
exit $rc
