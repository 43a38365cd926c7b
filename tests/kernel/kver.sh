# tests/kernel/kver.sh - sourced by vm.sh, kmod.sh and run.sh, so that the
# modules are built for the kernel the guest boots.
#
# The kernel matrix: KERNEL (the environment) names which of Debian 12's
# amd64 kernels to use:
#   6.1      Debian's current linux-image-amd64 (the default);
#   6.12     the newest linux-image-6.12.N+deb12-amd64 the package lists
#            know (Debian 12's security suite);
#   6.12-rt  the same kernel built with PREEMPT_RT
#            (linux-image-6.12.N+deb12-rt-amd64);
#   6.1-drvwrap  the newest 6.1 before 6.1.188, whose struct usb_driver
#            still wraps its device_driver (drvwrap): the tracer's other
#            layout (the drivers test only: KERNEL_TESTS_6_1_drvwrap).
KERNELS_ALL="6.1 6.12 6.12-rt 6.1-drvwrap"
# the parts run.sh runs on a kernel whose name (- and . as _) has a line
KERNEL_TESTS_6_1_drvwrap=drivers

# kernel_version KDIR [KERNEL]: the version of that kernel's image
# package (e.g. 6.1.0-57-amd64, 6.12.118+deb12-rt-amd64); without package
# lists (offline, or before apt-get update) the newest that KDIR's cache
# already holds.  Prints nothing when neither is known.
kernel_version() {
	v=
	case ${2:-${KERNEL:-6.1}} in
	6.1)
		v=$(apt-cache depends linux-image-amd64 2>/dev/null |
		    sed -n 's/.*Depends: linux-image-\([0-9].*-amd64\)$/\1/p' |
		    head -n 1)
		pat='6\.1\.[0-9]*-[0-9]*-amd64' ;;
	6.12)	pat='6\.12\.[0-9]*+deb12-amd64' ;;
	6.12-rt) pat='6\.12\.[0-9]*+deb12-rt-amd64' ;;
	6.1-drvwrap)
		# the image packages of 6.1, newest first, to the first whose
		# upstream version is below 6.1.188
		for p in $(apt-cache pkgnames linux-image-6.1.0- 2>/dev/null |
		    sed -n 's/^linux-image-\(6\.1\.0-[0-9]*-amd64\)$/\1/p' |
		    sort -V -r); do
			u=$(apt-cache show --no-all-versions "linux-image-$p" \
			    2>/dev/null | sed -n 's/^Version: 6\.1\.\([0-9]*\).*/\1/p' |
			    head -n 1)
			if [ -n "$u" ] && [ "$u" -lt 188 ]; then
				v=$p
				break
			fi
		done
		echo "$v"
		return 0 ;;
	*)	return 0 ;;
	esac
	# the newest image of that series apt can fetch, as apt sorts
	# versions (6.12.117 before 6.12.118)
	[ -n "$v" ] || v=$(apt-cache pkgnames linux-image-6 2>/dev/null |
	    sed -n "s/^linux-image-\\($pat\\)\$/\\1/p" | sort -V | tail -n 1)
	[ -n "$v" ] || v=$(ls "$1" 2>/dev/null |
	    sed -n "s/^\\($pat\\)\$/\\1/p" | sort -V | tail -n 1)
	echo "$v"
}
