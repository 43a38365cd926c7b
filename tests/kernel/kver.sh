# tests/kernel/kver.sh - sourced by vm.sh and kmod.sh, so that the modules
# are built for the kernel the guest boots.
#
# kernel_version KDIR: the version of Debian's current linux-image-amd64
# (e.g. 6.1.0-57-amd64); without package lists (offline, or before
# apt-get update) the newest that KDIR's cache already holds.  Prints
# nothing when neither is known.
kernel_version() {
	v=$(apt-cache depends linux-image-amd64 2>/dev/null |
	    sed -n 's/.*Depends: linux-image-\([0-9].*-amd64\)$/\1/p' |
	    head -n 1)
	[ -n "$v" ] || v=$(ls "$1" 2>/dev/null |
	    sed -n 's/^\(6.*-amd64\)$/\1/p' | tail -n 1)
	echo "$v"
}
