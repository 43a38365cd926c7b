#!/bin/sh
# tests/kernel/kmod.sh - build the test's own kernel modules
# (tests/kernel/modules/*.c) against the headers of the kernel vm.sh boots,
# without installing anything: Debian's linux-headers-KVER (the -amd64 tree)
# and the common tree and linux-kbuild package its Depends name, of the
# same version, are fetched with apt-get download into build/kernel/dl,
# unpacked once into build/kernel/headers-KVER and kept there.  KERNEL
# (tests/kernel/kver.sh) says which kernel.  An arm64 kernel's modules are
# cross-built (gcc-aarch64-linux-gnu): its headers and their common tree
# come from kver.sh's arm64 apt configuration, the kbuild tools, which
# run on this machine, from its own apt as amd64 packages of the same
# version.  See tests/kernel/README.md.
#
#   kmod.sh [OUTDIR]        (default build/kernel/modules)
#
# Leaves OUTDIR/*.ko and prints their paths.  Exit status 77 when the
# headers or the compiler cannot be had (the reason is on stderr), 1 when
# the build fails (its log is OUTDIR/build.log).
cd "$(dirname "$0")/../.." || exit 1
root=$(pwd)
kdir=$root/build/kernel
out=${1:-build/kernel/modules}
case $out in /*) ;; *) out=$root/$out ;; esac

unavailable() {
	echo "kmod.sh: $*" >&2
	exit 77
}

# The kernel vm.sh boots.
. tests/kernel/kver.sh
kver=$(kernel_version "$kdir")
[ -n "$kver" ] || unavailable "cannot tell the version of kernel" \
    "${KERNEL:-6.1} (apt-get update?)"
command -v make >/dev/null || unavailable "no make"
arch=$(kernel_arch)
# the arm64 packages' apt options (the kbuild tools are this machine's)
APT_PRIVATE=
cross=
if [ "$arch" = arm64 ]; then
	cross=aarch64-linux-gnu-
	apt_private "$kdir" arm64 ||
	    unavailable "no apt source for arm64 packages"
fi

hroot=$kdir/headers-$kver
ksrc=$hroot/usr/src/linux-headers-$kver
mkdir -p "$kdir/dl" || exit 1
exec 9>"$kdir/cache.lock"
flock 9
# (unpacked again when the tree moved: its Makefile names where it was)
if [ ! -f "$hroot/.unpacked" ] ||
    ! grep -q "^include $hroot/" "$ksrc/Makefile"; then
	# The image's exact version: the headers and kbuild must be the
	# same build (linux-kbuild-6.1 also has older versions in the
	# archive).
	# shellcheck disable=SC2086
	ver=$(apt-cache $APT_PRIVATE show "linux-headers-$kver" 2>/dev/null |
	    sed -n 's/^Version: //p' | head -n 1)
	[ -n "$ver" ] || unavailable "no linux-headers-$kver in the package" \
	    "lists (apt-get update?)"
	# the other two packages as the headers' Depends name them, as
	# their names differ by version and flavour: linux-kbuild-6.1 and
	# linux-headers-6.1.0-57-common, linux-kbuild-6.12.118+deb12 and
	# linux-headers-6.12.118+deb12-common-rt
	# shellcheck disable=SC2086
	deps=$(apt-cache $APT_PRIVATE show "linux-headers-$kver=$ver" \
	    2>/dev/null |
	    sed -n 's/^Depends: //p' | head -n 1 | tr ',' '\n' |
	    sed 's/^ *//; s/[ |].*//')
	kb=$(echo "$deps" | grep '^linux-kbuild-' | head -n 1)
	common=$(echo "$deps" | grep '^linux-headers-.*-common' | head -n 1)
	[ -n "$kb" ] && [ -n "$common" ] ||
	    unavailable "linux-headers-$kver=$ver depends on no" \
	    "linux-kbuild-* or linux-headers-*-common: $deps"
	for p in "linux-headers-$kver" "$common" "$kb"; do
		ls "$kdir/dl/${p}_${ver}_"*.deb >/dev/null 2>&1 && continue
		o=$APT_PRIVATE
		[ "$p" = "$kb" ] && o=
		# shellcheck disable=SC2086
		(cd "$kdir/dl" && apt-get download -q $o "$p=$ver") \
		    >"$kdir/dl/headers.log" 2>&1 ||
		    unavailable "apt-get download $p=$ver failed:" \
		    "$(tail -n 1 "$kdir/dl/headers.log")"
	done
	rm -rf "$hroot" "$hroot.tmp"
	mkdir -p "$hroot.tmp" || exit 1
	for p in "linux-headers-$kver" "$common" "$kb"; do
		dpkg-deb -x "$kdir/dl/${p}_${ver}_"*.deb "$hroot.tmp" ||
		    unavailable "cannot unpack $p"
	done
	# The -amd64 tree's Makefile includes the -common one by absolute
	# path; its scripts and tools links are relative (to
	# ../../lib/linux-kbuild-*), so they hold inside the unpacked tree.
	mk=$hroot.tmp${ksrc#"$hroot"}/Makefile
	sed -i "s|^include /usr/src/|include $hroot/usr/src/|" "$mk" ||
	    exit 1
	grep -q "^include $hroot/" "$mk" ||
	    unavailable "unexpected $mk: $(head -n 1 "$mk")"
	mv "$hroot.tmp" "$hroot" || exit 1
	: >"$hroot/.unpacked"
	# the packages stay in dl/ (14 MB): unpacking again needs no network
fi
flock -u 9
exec 9>&-

# the compiler Debian built the kernel with (gcc-N), as the headers name it
cc=$(sed -n 's/^CC = .*)gcc-\([0-9]*\)$/gcc-\1/p' "$ksrc/.kernelvariables")
command -v "$cross${cc:-gcc}" >/dev/null ||
    unavailable "no $cross${cc:-gcc}, the kernel's compiler (apt-get" \
    "install $( [ -n "$cross" ] && echo gcc-aarch64-linux-gnu || echo "$cc"))"

# Kbuild writes next to the sources: build in a copy.
rm -rf "$out"
mkdir -p "$out" || exit 1
cp tests/kernel/modules/*.c tests/kernel/modules/Kbuild "$out/" || exit 1
# 6.12's headers make each module's BTF with pahole (dwarves): the test
# needs none (the tracer reads usbcore's), so without pahole the modules
# are built without it
set --
command -v pahole >/dev/null || set -- CONFIG_DEBUG_INFO_BTF_MODULES=
[ -n "$cross" ] && set -- "$@" ARCH=arm64 CROSS_COMPILE="$cross"
if ! make -C "$ksrc" M="$out" "$@" modules >"$out/build.log" 2>&1; then
	echo "kmod.sh: the build failed:" >&2
	tail -n 30 "$out/build.log" >&2
	exit 1
fi
ls "$out"/*.ko
