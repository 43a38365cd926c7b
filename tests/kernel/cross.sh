#!/bin/sh
# tests/kernel/cross.sh - urbscope and the guest's programs for an arm64
# guest (tests/kernel/vm.sh with KERNEL=arm64-*), built on this amd64
# machine without touching its dpkg:
#
#   cross.sh
#
# The arm64 packages (the C library, libbpf, ncurses, libusb, zlib, zstd,
# and busybox-static, tmux and usbutils for the guest) come through a
# private apt configuration (tests/kernel/kver.sh's apt_private ... arm64)
# and are unpacked with dpkg -x into build/kernel/arm64/sysroot, once.
# The tree's sources are copied to build/kernel/arm64/src and built there
# with gcc-aarch64-linux-gnu --sysroot (make rebuilds only what changed);
# the BPF object is compiled for arm64 (bpf_tracing.h's arm64 registers,
# the arm64 <asm/...> of the sysroot).
#
# Prints the sysroot's path; exit status 77 when the cross compiler or the
# packages cannot be had (the reason on stderr), 1 when the build fails.
cd "$(dirname "$0")/../.." || exit 1
root=$(pwd)
adir=$root/build/kernel/arm64
sysroot=$adir/sysroot
cc=aarch64-linux-gnu-gcc

unavailable() {
	echo "cross.sh: $*" >&2
	exit 77
}

command -v "$cc" >/dev/null ||
    unavailable "no $cc (apt-get install gcc-aarch64-linux-gnu)"
. tests/kernel/kver.sh
mkdir -p "$adir" || exit 1
exec 8>"$adir/lock"
flock 8

pkgs="libc6 libc6-dev linux-libc-dev libgcc-s1 libcrypt1 libcrypt-dev
	libbpf1 libbpf-dev libelf1 libelf-dev zlib1g zlib1g-dev libzstd1
	libzstd-dev libtinfo6 libncurses6 libncursesw6 libncurses-dev
	libusb-1.0-0 libusb-1.0-0-dev libudev1
	busybox-static tmux libevent-core-2.1-7 libutempter0 usbutils"
if [ ! -f "$sysroot/.done" ]; then
	apt_private "$root/build/kernel" arm64 ||
	    unavailable "no apt source for arm64 packages" \
	    "(build/kernel/apt-arm64/update.log)"
	rm -rf "$adir/debs" "$sysroot"
	mkdir -p "$adir/debs" "$sysroot" || exit 1
	# shellcheck disable=SC2086
	(cd "$adir/debs" && apt-get download -q $APT_PRIVATE $pkgs) \
	    >"$adir/download.log" 2>&1 ||
	    unavailable "apt-get download of the arm64 packages failed:" \
	    "$(tail -n 1 "$adir/download.log")"
	for d in "$adir"/debs/*.deb; do
		dpkg -x "$d" "$sysroot" || unavailable "cannot unpack $d"
	done
	# links to /lib/... (libm.so, libz.so) are the target's: point them
	# into the sysroot, not at this machine's libraries
	find "$sysroot" -type l | while read -r l; do
		t=$(readlink "$l")
		case $t in /*) ln -sfn "$sysroot$t" "$l" ;; esac
	done
	rm -rf "$adir/debs"
	: >"$sysroot/.done"
fi

# The sources as they are in this tree (committed or not), their times
# kept: make rebuilds what changed since the last cross build.
mkdir -p "$adir/src" || exit 1
if git rev-parse --git-dir >/dev/null 2>&1; then
	git ls-files -z --cached --others --exclude-standard |
	    tar --null -T - -cf - 2>/dev/null
else
	tar -cf - --exclude=./build --exclude=./.git .
fi | (cd "$adir/src" && tar -xf -) || exit 1
pc=$sysroot/usr/lib/aarch64-linux-gnu/pkgconfig:$sysroot/usr/share/pkgconfig
env PKG_CONFIG_SYSROOT_DIR="$sysroot" PKG_CONFIG_LIBDIR="$pc" \
    make -C "$adir/src" -j2 CC="$cc --sysroot=$sysroot" \
    BPF_SYSROOT="$sysroot" UNAME_M=aarch64 urbscope \
    >"$adir/build.log" 2>&1 || {
	echo "cross.sh: the arm64 build failed (build/kernel/arm64/build.log):" >&2
	tail -n 20 "$adir/build.log" >&2
	exit 1
}
echo "$sysroot"
