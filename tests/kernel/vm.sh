#!/bin/sh
# tests/kernel/vm.sh - boot Debian's Linux kernel under QEMU (TCG) with an
# EHCI controller, a USB keyboard, tablet and disk, run a script in the
# guest and leave everything it wrote in OUTDIR.  See tests/kernel/README.md.
#
#   vm.sh [--cmd 'COMMAND' | --guest FILE] [--host PROGRAM] [--timeout S]
#         [--env VAR=VALUE]... [--module FILE.ko]... [--file FILE]...
#         [--load MODULE]... [--bin PROGRAM]... [--no-usb] [--devices SET]
#         OUTDIR
#
# --devices classes boots with QEMU's class devices instead (audio, network,
# smart card reader, MTP, mouse, Wacom tablet) and their drivers;
# --devices gadget boots with no QEMU USB device at all but with the
# kernel's own gadget stack (the virtual device controllers dummy_hcd and
# usbip-vudc with vhci-hcd, libcomposite, the UAC2, MIDI, ACM and UVC
# functions, configfs) and the host drivers that bind to those functions
# (snd-usb-audio, cdc-acm, uvcvideo); --devices serve boots with no QEMU
# USB device and vhci-hcd (with cdc-acm, snd-usb-audio, vfat and classes-tool
# for the served models' drivers), for devices served over USB/IP from
# inside the guest (urbscope serve -A); the default set is
# "storage" (the disk, keyboard and tablet).  --module puts
# a module of our own (tests/kernel/kmod.sh builds them) into the guest's
# /lib/modules/KVER/extra/, for insmod or modprobe; --file copies FILE
# into the share, the guest's /share; --load puts one more of the
# kernel's own modules (and what it needs) into the initramfs, --bin one
# of this machine's programs with its libraries (an amd64 guest's).
#
# Exit status: that of the guest script; 77 when QEMU or the kernel cannot
# be had (the reason is on stderr), 124 when the guest timed out.
cd "$(dirname "$0")/../.." || exit 1
root=$(pwd)
kdir=$root/build/kernel

cmd=
guest=
host=
timeout=240
usb=1
envs=
extra=
files=
loads=
bins=
devices=storage
while [ $# -gt 0 ]; do
	case $1 in
	--cmd) cmd=$2; shift 2 ;;
	--guest) guest=$2; shift 2 ;;
	--host) host=$2; shift 2 ;;
	--timeout) timeout=$2; shift 2 ;;
	--no-usb) usb=0; shift ;;
	--devices) devices=$2; shift 2 ;;
	--env) envs="$envs$2
"; shift 2 ;;
	--module) extra="$extra $2"; shift 2 ;;
	--file) files="$files $2"; shift 2 ;;
	--load) loads="$loads $2"; shift 2 ;;
	--bin) bins="$bins $2"; shift 2 ;;
	-*) echo "vm.sh: unknown option $1" >&2; exit 2 ;;
	*) break ;;
	esac
done
if [ $# -ne 1 ]; then
	echo "usage: vm.sh [--cmd CMD | --guest FILE] [--host PROG]" \
	    "[--timeout S] [--env VAR=VALUE]... [--module FILE.ko]..." \
	    "[--no-usb] [--devices SET] OUTDIR" >&2
	exit 2
fi
case $devices in
storage | classes | gadget | serve) ;;
*) echo "vm.sh: --devices storage, classes, gadget or serve, not" \
	"$devices" >&2
	exit 2 ;;
esac
out=$1
case $out in /*) ;; *) out=$root/$out ;; esac

unavailable() {
	echo "vm.sh: $*" >&2
	exit 77
}

# The kernel: the one KERNEL names (tests/kernel/kver.sh: 6.1, Debian's
# current linux-image-amd64, by default; 6.12; 6.12-rt; 7; arm64-6.1 and
# arm64-6.12), fetched once into build/kernel/ and unpacked without
# installing it.  Only the kernel and the module trees the guest needs are
# kept.
. tests/kernel/kver.sh
arch=$(kernel_arch)
# The guest has no C library, so busybox must be the static build (the
# host's depmod too).
busybox=$(command -v busybox)
[ -n "$busybox" ] && ! ldd "$busybox" >/dev/null 2>&1 ||
    unavailable "no static busybox (apt-get install busybox-static)"
if [ "$arch" = arm64 ]; then
	# the virt board's PCI bus takes the EHCI and the 9p share; the
	# guest's programs are arm64 builds (tests/kernel/cross.sh)
	qemu="qemu-system-aarch64"
	command -v "$qemu" >/dev/null ||
	    unavailable "no $qemu (apt-get install qemu-system-arm)"
	sysroot=$(sh tests/kernel/cross.sh) || {
		rc=$?
		[ "$rc" -eq 77 ] && exit 77
		exit 1
	}
	gbusybox=$sysroot/bin/busybox
	urbscope=build/kernel/arm64/src/urbscope
	machine="-machine virt -cpu cortex-a72 -m 1024"
	console=ttyAMA0
else
	qemu="qemu-system-x86_64"
	command -v "$qemu" >/dev/null ||
	    unavailable "no $qemu (apt-get install qemu-system-x86)"
	bios=/usr/share/qemu/qboot.rom
	[ -f "$bios" ] || unavailable "no $bios (qemu-system-x86 package)"
	sysroot=
	gbusybox=$busybox
	urbscope=./urbscope
	machine="-machine pc -m 512 -bios $bios"
	console=ttyS0
fi
[ -x "$urbscope" ] || unavailable "no $urbscope: run make first"
kver=$(kernel_version "$kdir")
[ -n "$kver" ] || unavailable "cannot tell the version of kernel" \
    "${KERNEL:-6.1} (apt-get update?)"
kroot=$kdir/$kver
# Two runs at once (two `make test`s) must not unpack the cache together.
mkdir -p "$kdir" || exit 1
exec 9>"$kdir/cache.lock"
flock 9
# A cache unpacked before the class drivers were kept lacks sound/, one
# unpacked before the gadget set lacks fs/configfs/ (wanted by that set
# only), one before the replayed disk's mount lacks fs/fat/: unpack
# again.
if [ ! -f "$kroot/lib/modules/$kver/modules.dep" ] ||
    [ ! -d "$kroot/lib/modules/$kver/kernel/sound" ] ||
    [ ! -d "$kroot/lib/modules/$kver/kernel/fs/fat" ] ||
    { [ "$devices" = gadget ] &&
    [ ! -d "$kroot/lib/modules/$kver/kernel/fs/configfs" ]; }; then
	mkdir -p "$kdir/dl" || exit 1
	rm -rf "$kroot"
	rm -rf "$kroot.tmp"
	mkdir -p "$kroot.tmp" || exit 1
	m=./lib/modules/$kver
	# Debian 13's 7.x: three packages of another suite (kver.sh's
	# apt_private), everything under /usr/lib/modules/KVER, the kernel
	# as vmlinuz there; unpacked as the one image package of 6.x is
	split=
	case $kver in *+deb13-*) split=1 ;; esac
	if [ -n "$split" ]; then
		m=./usr/lib/modules/$kver
		apt_private "$kdir" ||
		    unavailable "no apt source to take $kver from"
		for p in binary base modules; do
			ls "$kdir"/dl/linux-$p-"$kver"_*.deb >/dev/null 2>&1 &&
			    continue
			# shellcheck disable=SC2086
			(cd "$kdir/dl" && apt-get download -q $APT_PRIVATE \
			    "linux-$p-$kver") >"$kdir/dl/download.log" 2>&1 ||
			    unavailable "apt-get download linux-$p-$kver" \
			    "failed: $(tail -n 1 "$kdir/dl/download.log")"
		done
		dpkg-deb --fsys-tarfile "$kdir"/dl/linux-binary-"$kver"_*.deb |
		    (cd "$kroot.tmp" && tar -x "$m/vmlinuz") &&
		    dpkg-deb --fsys-tarfile "$kdir"/dl/linux-base-"$kver"_*.deb |
		    (cd "$kroot.tmp" && tar -x --wildcards "$m/modules.*") ||
		    unavailable "cannot unpack linux-binary/base-$kver"
		deb=$(ls "$kdir"/dl/linux-modules-"$kver"_*.deb | head -n 1)
	else
		deb=$(ls "$kdir"/dl/linux-image-"$kver"_*.deb 2>/dev/null |
		    head -n 1)
	fi
	if [ -z "$deb" ]; then
		# arm64's from the private configuration of that architecture
		APT_PRIVATE=
		[ "$arch" = arm64 ] && { apt_private "$kdir" arm64 ||
		    unavailable "no apt source for arm64 packages"; }
		# shellcheck disable=SC2086
		(cd "$kdir/dl" && apt-get download -q $APT_PRIVATE \
		    "linux-image-$kver") \
		    >"$kdir/dl/download.log" 2>&1 ||
		    unavailable "apt-get download linux-image-$kver failed:" \
		    "$(tail -n 1 "$kdir/dl/download.log")"
		deb=$(ls "$kdir"/dl/linux-image-"$kver"_*.deb | head -n 1)
	fi
	# fscache is a module of its own before 6.12 (merged into netfs
	# there); tar fails on a pattern that matches nothing
	fscache=
	case $kver in 6.1.*) fscache=$m/kernel/fs/fscache/* ;; esac
	boot="./boot/vmlinuz-* $m/modules.*"
	[ -n "$split" ] && boot=
	# shellcheck disable=SC2086
	dpkg-deb --fsys-tarfile "$deb" | (cd "$kroot.tmp" && tar -x \
	    --wildcards $boot \
	    "$m/kernel/drivers/usb/*" "$m/kernel/drivers/hid/*" \
	    "$m/kernel/drivers/input/*" "$m/kernel/drivers/scsi/*" \
	    "$m/kernel/drivers/virtio/*" "$m/kernel/net/9p/*" \
	    "$m/kernel/fs/9p/*" "$m/kernel/fs/netfs/*" \
	    $fscache "$m/kernel/fs/configfs/*" \
	    "$m/kernel/fs/fat/*" "$m/kernel/fs/nls/*" \
	    "$m/kernel/block/*" "$m/kernel/lib/*" \
	    "$m/kernel/crypto/*" "$m/kernel/sound/*" \
	    "$m/kernel/drivers/net/*" "$m/kernel/drivers/media/*") ||
	    unavailable "cannot unpack $deb"
	if [ -n "$split" ]; then
		mkdir -p "$kroot.tmp/boot" "$kroot.tmp/lib/modules" &&
		    mv "$kroot.tmp/$m/vmlinuz" "$kroot.tmp/boot/vmlinuz-$kver" &&
		    mv "$kroot.tmp/$m" "$kroot.tmp/lib/modules/$kver" &&
		    rm -rf "$kroot.tmp/usr" ||
		    unavailable "cannot lay out $kver as /boot and /lib/modules"
	fi
	# 6.12 and after ship the modules xz-compressed (.ko.xz), which
	# busybox's insmod cannot load: decompress them, and depmod names
	# the .ko files
	find "$kroot.tmp/lib/modules" -name '*.ko.xz' -exec xz -d {} + ||
	    unavailable "cannot decompress the .ko.xz modules (apt-get" \
	    "install xz-utils)"
	"$busybox" depmod -b "$kroot.tmp" "$kver" ||
	    unavailable "depmod failed"
	mv "$kroot.tmp" "$kroot" || exit 1
	rm -f "$deb"
	[ -n "$split" ] && rm -f "$kdir"/dl/linux-binary-"$kver"_*.deb \
	    "$kdir"/dl/linux-base-"$kver"_*.deb
fi
flock -u 9
exec 9>&-

# The initramfs: busybox, the modules below with their dependencies, the
# urbscope binary, lsusb and tmux with their shared libraries, usb.ids.
# Rebuilt on every run (a second or two) so it always holds the current
# binary.
mods="usbmon ehci-pci usb-storage sd_mod usbhid hid-generic evdev
	virtio_pci 9pnet_virtio 9p"
# the class devices' drivers (the CCID reader and MTP have none in the
# kernel: pcscd and libmtp drive them from user space)
[ "$devices" = classes ] && mods="$mods uhci-hcd wacom
	snd-usb-audio cdc_ether rndis_host cdc_subset"
# the gadget set: the virtual UDC and its host controller, the gadget
# functions composed through configfs, the host drivers that bind to them
[ "$devices" = gadget ] && mods="$mods configfs dummy_hcd libcomposite
	usb_f_uac2 usb_f_midi usb_f_acm usb_f_uvc snd-usb-audio cdc-acm
	uvcvideo usbip-vudc vhci-hcd"
[ "$devices" = serve ] && mods="$mods vhci-hcd cdc-acm snd-usb-audio
	vfat nls_cp437 nls_utf8"
mods="$mods $loads"
# OUTDIR is removed first: refuse anything but an empty directory or an
# earlier run's.
if [ -d "$out" ] && [ -n "$(ls -A "$out")" ] && [ ! -f "$out/.vm.sh" ] &&
    [ ! -d "$out/initramfs" ] && [ ! -d "$out/share" ]; then
	echo "vm.sh: $out is not empty and not an earlier vm.sh output" >&2
	exit 2
fi
rm -rf "$out" || exit 1
mkdir -p "$out/share" "$out/initramfs" || exit 1
: >"$out/.vm.sh"
ird=$out/initramfs
mkdir -p "$ird/bin" "$ird/sbin" "$ird/usr/bin" "$ird/usr/share/hwdata" \
    "$ird/usr/share/misc" "$ird/lib/modules/$kver" "$ird/proc" "$ird/sys" \
    "$ird/dev" "$ird/tmp" "$ird/share" "$ird/etc" || exit 1
cp "$gbusybox" "$ird/bin/busybox" || exit 1
for m in $mods; do
	# built into this kernel (virtio_pci is, in 6.12): nothing to load
	grep -qE "/$m\.ko\$" "$kroot/lib/modules/$kver/modules.builtin" &&
	    continue
	line=$(grep -E "/$m\.ko:" "$kroot/lib/modules/$kver/modules.dep")
	[ -n "$line" ] || unavailable "module $m not in linux-image-$kver"
	for f in $(echo "$line" | tr -d ':'); do
		mkdir -p "$ird/lib/modules/$kver/$(dirname "$f")"
		cp "$kroot/lib/modules/$kver/$f" "$ird/lib/modules/$kver/$f"
	done
done
cp "$kroot/lib/modules/$kver"/modules.builtin* "$ird/lib/modules/$kver/"
if [ -n "$extra" ]; then
	mkdir -p "$ird/lib/modules/$kver/extra"
	for m in $extra; do
		cp "$m" "$ird/lib/modules/$kver/extra/" || exit 1
	done
fi
"$busybox" depmod -b "$ird" "$kver" || exit 1

# copybin FILE DEST: FILE and the shared libraries ldd lists (an arm64
# FILE's: those its ELF header needs, found in the sysroot, and theirs).
copybin() {
	cp "$1" "$ird$2" || exit 1
	if [ -n "$sysroot" ]; then
		crosslibs "$1"
		return
	fi
	ldd "$1" 2>/dev/null | sed -n 's/.*=> \(\/[^ ]*\).*/\1/p;
	    s/^[[:space:]]*\(\/[^ ]*\) (.*/\1/p' | while read -r lib; do
		mkdir -p "$ird$(dirname "$lib")"
		cp -L "$lib" "$ird$lib"
	done
}
# crosslibs FILE: the interpreter and the libraries FILE needs, from the
# sysroot to the same places in the initramfs, and theirs in turn.
crosslibs() {
	interp=$(readelf -l "$1" | sed -n 's/.*interpreter: \(\/[^]]*\)].*/\1/p')
	if [ -n "$interp" ] && [ ! -e "$ird$interp" ]; then
		mkdir -p "$ird$(dirname "$interp")"
		cp -L "$sysroot$interp" "$ird$interp" || exit 1
	fi
	for lib in $(readelf -d "$1" |
	    sed -n 's/.*(NEEDED).*\[\(.*\)\]$/\1/p'); do
		for d in /lib/aarch64-linux-gnu /usr/lib/aarch64-linux-gnu; do
			[ -e "$sysroot$d/$lib" ] || continue
			[ -e "$ird$d/$lib" ] && break
			mkdir -p "$ird$d"
			cp -L "$sysroot$d/$lib" "$ird$d/$lib" || exit 1
			crosslibs "$sysroot$d/$lib"
			break
		done
	done
}
copybin "$urbscope" /usr/bin/urbscope
# the class devices' traffic that busybox cannot make (classes-tool.c)
if [ "$devices" = classes ] || [ "$devices" = gadget ] ||
    [ "$devices" = serve ]; then
	gcc=${CC:-cc}
	[ -n "$sysroot" ] && gcc="aarch64-linux-gnu-gcc --sysroot=$sysroot"
	$gcc -O2 -o "$out/classes-tool" tests/kernel/classes-tool.c -lm ||
	    exit 1
	copybin "$out/classes-tool" /usr/bin/classes-tool
	usbdevices=$(command -v usb-devices)
	[ -n "$usbdevices" ] && cp "$usbdevices" "$ird/usr/bin/"
fi
for b in $bins; do
	[ -z "$sysroot" ] || unavailable "--bin $b: an amd64 program"
	copybin "$(command -v "$b")" "/usr/bin/${b##*/}"
done
lsusb=$(command -v lsusb)
[ -n "$sysroot" ] && lsusb=$sysroot/usr/bin/lsusb
[ -n "$lsusb" ] && copybin "$lsusb" /usr/bin/lsusb
for ids in /usr/share/hwdata/usb.ids /usr/share/misc/usb.ids; do
	[ -f "$ids" ] && cp "$ids" "$ird$ids"
done
# tmux, for the test of `urbscope tui -i usbmon0`: the terminal types its
# panes and clients may name, and the C.UTF-8 locale (tmux wants UTF-8).
# Without tmux on the host the guest skips that test.
tmux=$(command -v tmux)
[ -n "$sysroot" ] && [ -n "$tmux" ] && tmux=$sysroot/usr/bin/tmux
if [ -n "$tmux" ]; then
	copybin "$tmux" /usr/bin/tmux
	for d in /etc/terminfo /lib/terminfo /usr/share/terminfo; do
		for t in l/linux s/screen s/screen-256color t/tmux \
		    t/tmux-256color x/xterm x/xterm-256color; do
			[ -e "$d/$t" ] || continue
			mkdir -p "$ird$d/${t%/*}"
			cp -L "$d/$t" "$ird$d/$t" || exit 1
		done
	done
	for l in /usr/lib/locale/C.utf8 /usr/lib/locale/C.UTF-8; do
		[ -d "$l" ] || continue
		mkdir -p "$ird/usr/lib/locale"
		cp -R "$l" "$ird/usr/lib/locale/" || exit 1
	done
fi
# root, and nobody for the tests of permissions and of -Z
printf 'root:x:0:0:root:/:/bin/sh\nnobody:x:65534:65534:nobody:/:/bin/sh\n' \
    >"$ird/etc/passwd"
printf 'root:x:0:\nnogroup:x:65534:\n' >"$ird/etc/group"
cp tests/kernel/init "$ird/init" && chmod 755 "$ird/init" || exit 1
cp tests/kernel/guest-lib.sh "$ird/etc/guest-lib.sh" || exit 1
(cd "$ird" && find . | cpio -o -H newc -R 0:0 --quiet | gzip -1) \
    >"$out/initramfs.cpio.gz" || exit 1
rm -rf "$ird"

# The guest script: the user's, or one that brings the USB stack up and
# runs the command.
{
	printf '%s' "$envs" | sed -n "s/^\([A-Za-z_][A-Za-z0-9_]*\)=\(.*\)/export \1='\2'/p"
	if [ -n "$guest" ]; then
		cat "$guest" || exit 1
	else
		echo "usb=$usb"
		echo '[ "$usb" = 1 ] && { load_usbmon; usb_up; }'
		printf '%s\n' "$cmd"
	fi
} >"$out/share/guest.sh" || exit 1
for f in $files; do
	cp "$f" "$out/share/" || exit 1
done

# The disk behind usb-storage: 8 MiB with a recognisable pattern, so reads
# show real bytes; disk2.img, the same but for sectors 9 and 2060, for a
# disk that differs (guest-replay.sh plugs it in through QMP).
python3 -c '
import sys
blk = bytearray()
for i in range(8 * 1024 * 1024 // 16):
    blk += b"urbscope%08x" % i
open(sys.argv[1], "wb").write(blk)
for lba in (9, 2060):
    blk[lba * 512:lba * 512 + 32] = b"a sector that differs: %08d\n" % lba
open(sys.argv[2], "wb").write(blk)' "$out/disk.img" "$out/disk2.img" || exit 1

qemu_pid=
host_pid=
cleanup() {
	[ -n "$host_pid" ] && kill "$host_pid" 2>/dev/null
	[ -n "$qemu_pid" ] && kill "$qemu_pid" 2>/dev/null
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# QMP on a unix socket named relative to OUTDIR, so long paths do not hit
# the 108-byte limit of socket names.
cd "$out" || exit 1
usbdevs=
if [ "$usb" = 1 ] && [ "$devices" = classes ]; then
	# The full-speed devices on a UHCI (EHCI would refuse them: QEMU
	# gives it no companion controller), behind a hub but the audio.
	mkdir -p mtp && printf 'a file for MTP\n' >mtp/hello.txt || exit 1
	usbdevs="-audiodev none,id=snd0 -netdev user,id=n0
	    -device usb-ehci,id=ehci
	    -device usb-mouse,id=mouse,bus=ehci.0,port=1,pcap=qemu-usb-mouse.pcap
	    -device usb-mtp,id=mtp,bus=ehci.0,port=2,rootdir=$out/mtp,pcap=qemu-usb-mtp.pcap
	    -device piix3-usb-uhci,id=uhci
	    -device usb-audio,id=audio,bus=uhci.0,port=1,audiodev=snd0,pcap=qemu-usb-audio.pcap
	    -device usb-hub,id=hub,bus=uhci.0,port=2,pcap=qemu-usb-hub.pcap
	    -device usb-net,id=net,bus=uhci.0,port=2.1,netdev=n0,pcap=qemu-usb-net.pcap
	    -device usb-ccid,id=ccid,bus=uhci.0,port=2.2,pcap=qemu-usb-ccid.pcap
	    -device usb-wacom-tablet,id=wacom,bus=uhci.0,port=2.3,pcap=qemu-usb-wacom.pcap"
elif [ "$usb" = 1 ] && [ "$devices" = storage ]; then
	usbdevs="-device usb-ehci,id=ehci
	    -drive if=none,id=usbdisk,format=raw,file=disk.img
	    -device usb-storage,id=stor,bus=ehci.0,port=1,drive=usbdisk,pcap=qemu-usb-storage.pcap
	    -device usb-kbd,id=kbd,bus=ehci.0,port=2,pcap=qemu-usb-kbd.pcap
	    -device usb-tablet,id=tablet,bus=ehci.0,port=3,pcap=qemu-usb-tablet.pcap"
fi
start=$(date +%s)
# shellcheck disable=SC2086
timeout -s KILL "$timeout" $qemu -display none -nodefaults \
    -no-reboot $machine -accel tcg -smp 1 \
    -kernel "$kroot/boot/vmlinuz-$kver" -initrd initramfs.cpio.gz \
    -append "console=$console loglevel=4 log_buf_len=1M panic=-1 rdinit=/init" \
    -serial file:console.log \
    -qmp unix:qmp.sock,server=on,wait=off \
    -fsdev local,id=fs0,path=share,security_model=none \
    -device virtio-9p-pci,fsdev=fs0,mount_tag=share \
    $usbdevs </dev/null >qemu.log 2>&1 &
qemu_pid=$!
if [ -n "$host" ]; then
	case $host in /*) ;; *) host=$root/$host ;; esac
	case $host in
	*.py) set -- python3 "$host" ;;
	*) set -- "$host" ;;
	esac
	# the guest's C compiler for host.py's build action: this machine's,
	# or the arm64 cross compiler with its sysroot's libusb
	if [ "$arch" = arm64 ]; then
		bcc="aarch64-linux-gnu-gcc --sysroot=$sysroot"
		blib=$(PKG_CONFIG_SYSROOT_DIR="$sysroot" PKG_CONFIG_LIBDIR="$sysroot/usr/lib/aarch64-linux-gnu/pkgconfig:$sysroot/usr/share/pkgconfig" \
		    pkg-config --cflags --libs libusb-1.0 2>/dev/null)
	else
		bcc=cc
		blib=$(pkg-config --cflags --libs libusb-1.0 2>/dev/null)
	fi
	OUT=$out QMP=$out/qmp.sock SHARE=$out/share BUILD_CC=$bcc \
	    BUILD_LIBUSB=$blib "$@" </dev/null >host.log 2>&1 &
	host_pid=$!
fi
wait "$qemu_pid"
qrc=$?
qemu_pid=
if [ -n "$host_pid" ]; then
	wait "$host_pid"
	echo "$?" >host.rc
	host_pid=
fi
echo "$(($(date +%s) - start))" >seconds
if [ "$qrc" -eq 137 ]; then
	echo "vm.sh: guest timed out after ${timeout}s (see $out/console.log)" >&2
	exit 124
fi
if [ ! -f share/guest.rc ]; then
	echo "vm.sh: QEMU exited $qrc without the guest finishing" \
	    "(see $out/console.log, $out/qemu.log)" >&2
	tail -n 20 console.log qemu.log >&2
	exit 1
fi
exit "$(cat share/guest.rc)"
