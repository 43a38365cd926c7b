# /etc/guest-lib.sh - helpers for guest scripts of tests/kernel/vm.sh,
# sourced before /share/guest.sh runs (cwd /share, output in guest.log).

# say TEXT: a line in guest.log and on the console, with the guest clock.
say() {
	echo "[$(cut -d' ' -f1 /proc/uptime)] $*"
	echo "guest: $*" >/dev/console
}

load_usbmon() {
	modprobe usbmon && say "usbmon loaded"
}

# usb_up: load the host controller and device drivers, then wait until the
# three devices are bound: the disk's block device and the input nodes.
usb_up() {
	modprobe ehci-pci && modprobe sd_mod && modprobe usb-storage &&
	    modprobe evdev && modprobe usbhid && modprobe hid-generic ||
	    return 1
	usb_settle
}

# usb_settle: wait (30 s at most) for /dev/sda and the input nodes of the
# USB keyboard and tablet.
usb_settle() {
	i=0
	while [ $i -lt 300 ]; do
		if [ -b /dev/sda ] && input_node "USB Keyboard" >/dev/null &&
		    input_node "USB Tablet" >/dev/null; then
			say "usb devices ready"
			return 0
		fi
		sleep 0.1
		i=$((i + 1))
	done
	say "usb devices not ready after 30 s"
	ls -l /sys/bus/usb/devices/ /dev/input/ 2>&1
	return 1
}

# wait_for CMD...: until CMD succeeds, 30 s at most; its output the last
# time
wait_for() {
	i=0
	while ! "$@" >/dev/null 2>&1 && [ $i -lt 300 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	"$@" 2>/dev/null
}

# host_do ACTION [ARG...]: ask the host program (vm.sh --host) to do
# ACTION and wait for its answer (60 s at most).  The request is the file
# /share/sync/ACTION.req holding the arguments; the host answers with
# ACTION.done holding "ok" or an error.
host_do() {
	a=$1
	shift
	mkdir -p /share/sync
	rm -f "/share/sync/$a.done"
	echo "$*" >"/share/sync/$a.req.tmp"
	mv "/share/sync/$a.req.tmp" "/share/sync/$a.req"
	i=0
	while [ ! -f "/share/sync/$a.done" ]; do
		sleep 0.1
		i=$((i + 1))
		if [ $i -ge 600 ]; then
			say "host_do $a: no answer from the host"
			return 1
		fi
	done
	r=$(cat "/share/sync/$a.done")
	say "host_do $a: $r"
	[ "$r" = ok ]
}

# input_node NAME: the /dev/input/eventN of the input device whose name
# contains NAME (e.g. "Keyboard", "Tablet").
input_node() {
	for d in /sys/class/input/event*; do
		if grep -q "$1" "$d/device/name" 2>/dev/null; then
			echo "/dev/input/${d##*/}"
			return 0
		fi
	done
	return 1
}

# usbdev PRODUCT: the sysfs name (e.g. 2-2.1) of the device whose product
# string contains PRODUCT
usbdev() {
	for d in /sys/bus/usb/devices/*; do
		grep -q "$1" "$d/product" 2>/dev/null && {
			echo "${d##*/}"
			return 0
		}
	done
	return 1
}

# stop_pid PID SIGNAL: send SIGNAL, wait up to 10 s for PID to end, then
# TERM and KILL it.  Prints "exit N" (its status) or "hung" when it had to
# be killed; the shell's own background jobs ignore SIGINT here (no job
# control), so a program that wants SIGINT must catch it itself.
stop_pid() {
	kill -"$2" "$1" 2>/dev/null
	i=0
	while kill -0 "$1" 2>/dev/null; do
		sleep 0.1
		i=$((i + 1))
		if [ $i -ge 100 ]; then
			kill -TERM "$1" 2>/dev/null
			sleep 1
			kill -KILL "$1" 2>/dev/null
			wait "$1" 2>/dev/null
			echo hung
			return 1
		fi
	done
	wait "$1"
	echo "exit $?"
}
