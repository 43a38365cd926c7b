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
#   7        the newest 7.x of Debian 13's backports (trixie-backports:
#            linux-binary-, linux-modules- and linux-base-7.N+deb13-amd64,
#            under /usr/lib/modules), through apt_private below; no kmod
#            test there (its kbuild tools need Debian 13's C library).
#   arm64-6.1, arm64-6.12  Debian 12's arm64 kernels (linux-image-arm64,
#            linux-image-6.12.N+deb12-arm64) under qemu-system-aarch64,
#            with urbscope cross-built for arm64 (tests/kernel/cross.sh);
#            on 6.1 fentry cannot be attached (no
#            DYNAMIC_FTRACE_WITH_DIRECT_CALLS): the giveback's kprobes.
#            The kmod test with the modules cross-built (kmod.sh).
KERNELS_ALL="6.1 6.12 6.12-rt 6.1-drvwrap 7 arm64-6.1 arm64-6.12"
# the parts run.sh runs on a kernel whose name (- and . as _) has a line
KERNEL_TESTS_6_1_drvwrap=drivers
KERNEL_TESTS_7="main drivers serve replay"



# kernel_arch [KERNEL]: the Debian architecture of that kernel
kernel_arch() {
	case ${1:-${KERNEL:-6.1}} in
	arm64-*) echo arm64 ;;
	*) echo amd64 ;;
	esac
}

# apt_private KDIR [arm64]: a private apt configuration for another suite
# of the archive this machine uses (the URI of its own apt sources; the
# system's setup untouched), its package lists in KDIR/apt, updated once a
# day.  With arm64: the machine's own suites for arm64 instead, in
# KDIR/apt-arm64 (the system's dpkg knows nothing of that architecture:
# apt-get download only).  Sets APT_PRIVATE to the options apt-get and
# apt-cache take for it; returns 1 when it cannot be set up.
apt_private() {
	pa=amd64
	pd=$1/apt
	[ "${2:-}" = arm64 ] && pa=arm64 pd=$1/apt-arm64
	mkdir -p "$pd" || return 1
	ad=$(cd "$pd" && pwd) || return 1
	APT_PRIVATE="-o Dir::Etc::SourceList=$ad/sources.list
	    -o Dir::Etc::SourceParts=$ad/sources.list.d
	    -o Dir::State::Lists=$ad/lists -o Dir::Cache=$ad/cache
	    -o APT::Architectures=$pa -o APT::Architecture=$pa
	    -o Dir::State::status=/dev/null -o APT::Sandbox::User=root"
	if [ -n "$(find "$ad/lists" -maxdepth 1 -name '*Packages*' \
	    -mtime -1 2>/dev/null)" ]; then
		return 0
	fi
	mkdir -p "$ad/sources.list.d" "$ad/lists/partial" \
	    "$ad/cache/archives/partial" || return 1
	: >"$ad/sources.list"
	if [ "$pa" = arm64 ]; then
		# the machine's own sources, as they are
		cat /etc/apt/sources.list >"$ad/sources.list" 2>/dev/null
		for f in /etc/apt/sources.list.d/*.sources \
		    /etc/apt/sources.list.d/*.list; do
			[ -f "$f" ] && cp "$f" "$ad/sources.list.d/"
		done
		# shellcheck disable=SC2086
		apt-get -q $APT_PRIVATE update >"$ad/update.log" 2>&1
		return
	fi
	uri=$(sed -n 's/^URIs:[[:space:]]*//p' \
	    /etc/apt/sources.list.d/*.sources 2>/dev/null | head -n 1)
	[ -n "$uri" ] || uri=$(sed -n \
	    's/^deb[[:space:]]\{1,\}\([^[:space:]]*\).*/\1/p' \
	    /etc/apt/sources.list 2>/dev/null | head -n 1)
	[ -n "$uri" ] || return 1
	printf 'Types: deb\nURIs: %s\nSuites: trixie-backports\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
	    "$uri" >"$ad/sources.list.d/private.sources"
	# shellcheck disable=SC2086
	apt-get -q $APT_PRIVATE update >"$ad/update.log" 2>&1
}

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
	arm64-6.1 | arm64-6.12)
		apt_private "$1" arm64 || return 0
		if [ "${2:-$KERNEL}" = arm64-6.1 ]; then
			# shellcheck disable=SC2086
			v=$(apt-cache $APT_PRIVATE depends linux-image-arm64 \
			    2>/dev/null | sed -n \
			    's/.*Depends: linux-image-\([0-9].*-arm64\)$/\1/p' |
			    head -n 1)
			pat='6\.1\.[0-9]*-[0-9]*-arm64'
		else
			pat='6\.12\.[0-9]*+deb12-arm64'
			# shellcheck disable=SC2086
			v=$(apt-cache $APT_PRIVATE pkgnames linux-image-6 \
			    2>/dev/null | sed -n "s/^linux-image-\\($pat\\)\$/\\1/p" |
			    sort -V | tail -n 1)
		fi
		[ -n "$v" ] || v=$(ls "$1" 2>/dev/null |
		    sed -n "s/^\\($pat\\)\$/\\1/p" | sort -V | tail -n 1)
		echo "$v"
		return 0 ;;
	6.12-rt) pat='6\.12\.[0-9]*+deb12-rt-amd64' ;;
	7)
		apt_private "$1" || return 0
		# shellcheck disable=SC2086
		v=$(apt-cache $APT_PRIVATE pkgnames linux-binary-7 2>/dev/null |
		    sed -n 's/^linux-binary-\(7\.[0-9.]*+deb13-amd64\)$/\1/p' |
		    sort -V | tail -n 1)
		[ -n "$v" ] || v=$(ls "$1" 2>/dev/null |
		    sed -n 's/^\(7\.[0-9.]*+deb13-amd64\)$/\1/p' |
		    sort -V | tail -n 1)
		echo "$v"
		return 0 ;;
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
