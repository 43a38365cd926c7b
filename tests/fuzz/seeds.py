#!/usr/bin/env python3
"""tests/fuzz/seeds.py - seed corpora for the fuzz targets, from the
repository's samples: python3 tests/fuzz/seeds.py OUTDIR.

  fuzz-read      every capture in samples/ and tests/fuzz/regress/
  fuzz-text      each line of the usbmon text captures and a few events
  fuzz-desc      setup + answer of every GET_DESCRIPTOR in the pcap samples
  fuzz-filter    filter expressions (the documented ones) + record values
  fuzz-scenario  the scenario files and one with every command
  fuzz-replay    the captures of samples/ (each replayed as a device)
  fuzz-usbip     USB/IP command streams: a disk's enumeration and SCSI
                 INQUIRY, a keyboard's interrupt URB unlinked, an
                 isochronous OUT to the speaker
"""
import glob
import os
import struct
import sys

out = sys.argv[1]


def put(target, name, data):
    d = os.path.join(out, target)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)


captures = [p for p in sorted(glob.glob("samples/*")) +
            sorted(glob.glob("tests/fuzz/regress/*"))
            if os.path.isfile(p) and not p.endswith(".md")]
for p in captures:
    with open(p, "rb") as f:
        put("fuzz-read", os.path.basename(p), f.read())
for p in sorted(glob.glob("samples/*.pcap*")):
    with open(p, "rb") as f:
        put("fuzz-replay", os.path.basename(p), f.read())

n = 0
for p in ("samples/usbmon-text.txt", "samples/linux61-enum.mon"):
    with open(p, "rb") as f:
        for line in f.read().splitlines()[:400]:
            put("fuzz-text", "line%04d" % n, line)
            n += 1
for i, ev in enumerate([
        b"urbscope-event probe driver=skeleton bus=1 dev=4 intf=0 result=0",
        b"urbscope-event submit driver=skeleton urb=0xffff888000001000 "
        b"ep=0x02 length=64 mem_flags=GFP_KERNEL context=task",
        b"urbscope-event rule rule=gfp-kernel-in-atomic text=\"a \\\"b\\\"\""]):
    put("fuzz-text", "event%d" % i, ev)


def pcap_records(path):
    """(usbmon header + data) of each record of a little-endian pcap."""
    with open(path, "rb") as f:
        b = f.read()
    if b[:4] not in (b"\xd4\xc3\xb2\xa1", b"\x4d\x3c\xb2\xa1"):
        return
    off = 24
    while off + 16 <= len(b):
        caplen = struct.unpack_from("<I", b, off + 8)[0]
        yield b[off + 16:off + 16 + caplen]
        off += 16 + caplen


n = 0
for p in sorted(glob.glob("samples/*.pcap")):
    setups = {}
    for rec in pcap_records(p):
        if len(rec) < 64:
            continue
        urb_id = rec[:8]
        kind, xfer = rec[8:9], rec[9]
        if xfer != 2:
            continue
        if kind == b"S" and rec[14] == 0:
            setups[urb_id] = rec[40:48]
        elif kind == b"C" and urb_id in setups:
            setup = setups.pop(urb_id)
            if setup[1] == 6 and len(rec) > 64:
                put("fuzz-desc", "desc%04d" % n, setup + rec[64:])
                n += 1

for i, e in enumerate([
        "type==bulk && ev==C && status!=0", "latency>2ms",
        "dev==3 || event==rule", "bus==1 && dev==4 && (ep==0x81 || "
        "ep==0x02 || driver==\"skeleton\")",
        "type==bulk && (status==EPIPE || latency>2ms)", "!(len<=64)",
        "urb==0xffff888000001000", "status==-32", "latency>=250us",
        "dir==in && type==int", "",
        # Wireshark's names
        "usb.src == \"1.3.1\" && usb.capdata contains 55:53:42:43",
        "usb.addr ~= \"host\" or not usb.idVendor",
        "usb.setup.bRequest == 6 and usb.urb_status != 0",
        "usbms.dCBWSignature == 0x43425355 || scsi.inquiry.vendor_id "
        "contains \"QEMU\"", "frame.time_relative > 1.5 && "
        "frame.number <= 100", "usb.urb_type == 'S' || rule contains "
        "\"atomic\"", "usb.capdata", "data contains \"USBC\\x00\"",
        "usbhid.data.axis.x > -5 && usb.iso.iso_status < 0",
        "usb.bcdUSB >= 0x0200 and usb.wMaxPacketSize lt 64"]):
    put("fuzz-filter", "expr%02d" % i, e.encode() + b"\0" +
        bytes(range(1, 40)) + bytes([0x55, 0x53, 0x42, 0x43]) +
        bytes(range(40, 80)))

for p in sorted(glob.glob("samples/scenarios/*.scn")):
    with open(p, "rb") as f:
        put("fuzz-scenario", os.path.basename(p), f.read())
put("fuzz-scenario", "every-command.scn", b"""# every command once
profile 2.6.0
plug 1 loopback
plug 2 keyboard hello
plug 3 disk 1M
settle 1
settle 3
wait 10
inject 1 stall 0x81 2
inject 3 xacterr
disk-read 3 0 8
disk-write 3 16 4
bulk 1 4096
load usb-skeleton
load keyboard
open /dev/usb/skel0
write /dev/usb/skel0 hello world
read /dev/usb/skel0 11 hello world
close /dev/usb/skel0
unload usb-skeleton
unplug 2
profile modern
""")


def usbip_submit(seq, ep, dirin, length, setup=b"\0" * 8, data=b"",
                 flags=0, packets=()):
    h = struct.pack(">IIIII", 1, seq, 0x10002, 1 if dirin else 0, ep)
    h += struct.pack(">IIiii", flags, length, 0,
                     len(packets) if packets else 0, 0) + setup
    iso = b"".join(struct.pack(">IIII", o, n, 0, 0) for o, n in packets)
    return h + data + iso


def usbip_unlink(seq, which):
    return struct.pack(">IIIIII", 2, seq, 0x10002, 0, 0, which) + b"\0" * 24


cbw = struct.pack("<IIIBBB", 0x43425355, 7, 36, 0x80, 0, 6) + \
    bytes([0x12, 0, 0, 0, 36, 0]) + b"\0" * 10
put("fuzz-usbip", "disk-inquiry", b"\0" +
    usbip_submit(1, 0, 1, 18, bytes([0x80, 6, 0, 1, 0, 0, 18, 0])) +
    usbip_submit(2, 0, 0, 0, bytes([0, 9, 1, 0, 0, 0, 0, 0])) +
    usbip_submit(3, 2, 0, 31, data=cbw) +
    usbip_submit(4, 1, 1, 36) + usbip_submit(5, 1, 1, 13))
put("fuzz-usbip", "keyboard-unlink", b"\1" +
    usbip_submit(1, 0, 0, 0, bytes([0, 9, 1, 0, 0, 0, 0, 0])) +
    usbip_submit(2, 1, 1, 8) + usbip_unlink(3, 2) +
    usbip_submit(4, 1, 1, 8, flags=1))
put("fuzz-usbip", "speaker-iso", b"\5" +
    usbip_submit(1, 0, 0, 0, bytes([0, 9, 1, 0, 0, 0, 0, 0])) +
    usbip_submit(2, 0, 0, 0, bytes([1, 11, 1, 0, 1, 0, 0, 0])) +
    usbip_submit(3, 1, 0, 96, data=bytes(range(96)),
                 packets=((0, 48), (48, 48))))
