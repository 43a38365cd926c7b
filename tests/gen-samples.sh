#!/bin/sh
# tests/gen-samples.sh - regenerate the generated captures in samples/.
#
# Builds build/tools/capgen with make and writes every generated sample;
# capgen is deterministic (fixed seed, virtual clock), so the files come
# out byte for byte the same unless the generator or the sinks change:
# `git diff --stat samples/` after running this shows what did.  Also
# re-copies samples/linux61-enum.mon from the real capture in
# tests/data/linux61/.  samples/README.md says what each file shows.
#
# CAPGEN=path uses another capgen binary and skips the build.

cd "$(dirname "$0")/.." || exit 1

if [ -z "${CAPGEN:-}" ]; then
	CAPGEN=build/tools/capgen
	make -s "$CAPGEN" || exit 1
fi

# gen FILE SCENARIO ARGS...
gen() {
	out=$1
	shift
	if ! "$CAPGEN" "$@" -w "samples/$out"; then
		echo "gen-samples: capgen $* failed" >&2
		exit 1
	fi
	echo "samples/$out: $(wc -c <"samples/$out") bytes"
}

gen hid-keyboard.pcap	hid-keyboard -F pcap
gen mass-storage.pcapng	mass-storage -F pcapng
gen stall.pcap		stall -F pcap
gen iso.pcap		iso -F pcap
gen uvc-webcam.pcapng	uvc -F pcapng
gen uac2-headset.pcap	uac2 -F pcap
gen big-endian.pcap	stall -F pcap --big-endian
gen usbmon-text.txt	stall -F usbmon
gen windows-usbpcap.pcapng usbpcap -F pcapng
gen usb-fs-acm.pcapng	usbll -F pcapng
gen macos-xhc.pcapng	darwin -F pcapng
# A compressed capture, as Wireshark reads them (-n: no name or time in
# the gzip header, so the bytes do not change).
gzip -9n -c samples/stall.pcap >samples/stall.pcap.gz || exit 1
echo "samples/stall.pcap.gz: $(wc -c <samples/stall.pcap.gz) bytes"
zstd -q -19 -f -c samples/stall.pcap >samples/stall.pcap.zst || exit 1
echo "samples/stall.pcap.zst: $(wc -c <samples/stall.pcap.zst) bytes"

# Real traffic: the first 243 lines of the Linux 6.1 capture, from the
# root hubs' own enumeration to the keyboard's first interrupt submit.
REAL=tests/data/linux61/usbmon-0u.txt
head -n 243 "$REAL" >samples/linux61-enum.mon || exit 1
echo "samples/linux61-enum.mon: $(wc -c <samples/linux61-enum.mon)" \
    "bytes (from $REAL)"
