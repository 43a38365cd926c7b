#!/usr/bin/env python3
# tests/tools/ethmix.py - a pcapng of a pcap's USB packets with Ethernet
# packets (link type 1) interleaved on a second interface, as a capture of
# several interfaces holds them: one before the first USB packet, one after
# every STEP-th, one after the last.  urbscope skips the Ethernet ones;
# frame numbers and frame.time_* still count them, as Wireshark's do.
#
#	ethmix.py IN.pcap OUT.pcapng [STEP]
#
# Deterministic: the output is a function of the input.  Block layouts:
# pcapng (draft-ietf-opsawg-pcapng) 4.1 SHB, 4.2 IDB, 4.3 EPB.
import struct
import sys


def block(btype, body):
    body += b"\0" * (-len(body) % 4)
    n = len(body) + 12
    return struct.pack("<II", btype, n) + body + struct.pack("<I", n)


def idb(linktype, snaplen, tsresol):
    # if_tsresol (option 9): 6 = microseconds, 9 = nanoseconds
    opts = struct.pack("<HHB3x", 9, 1, tsresol) + struct.pack("<HH", 0, 0)
    return block(1, struct.pack("<HHI", linktype, 0, snaplen) + opts)


def epb(ifid, ts, data, orig):
    return block(6, struct.pack("<IIIII", ifid, ts >> 32, ts & 0xffffffff,
                                len(data), orig) + data)


def main():
    src, dst = sys.argv[1], sys.argv[2]
    step = int(sys.argv[3]) if len(sys.argv) > 3 else 7
    with open(src, "rb") as f:
        raw = f.read()
    magic, = struct.unpack_from("<I", raw, 0)
    if magic not in (0xa1b2c3d4, 0xa1b23c4d):
        sys.exit("ethmix.py: a little-endian pcap, please: " + src)
    ns = magic == 0xa1b23c4d
    snaplen, linktype = struct.unpack_from("<II", raw, 16)
    pkts, off = [], 24
    while off + 16 <= len(raw):
        sec, frac, incl, orig = struct.unpack_from("<IIII", raw, off)
        ts = sec * 1000000000 + (frac if ns else frac * 1000)
        pkts.append((ts, raw[off + 16:off + 16 + incl], orig))
        off += 16 + incl
    # an Ethernet broadcast frame: dst, src, IPv4, zero payload
    eth = b"\xff" * 6 + b"\x02\x00\x00\x00\x00\x01" + b"\x08\x00" + \
        bytes(46)
    out = [block(0x0a0d0d0a, struct.pack("<IHHq", 0x1a2b3c4d, 1, 0, -1)),
           idb(linktype, snaplen, 9), idb(1, 65535, 9)]
    out.append(epb(1, pkts[0][0] - 500000000, eth, len(eth)))
    for i, (ts, data, orig) in enumerate(pkts):
        out.append(epb(0, ts, data, orig))
        if (i + 1) % step == 0 and i + 1 < len(pkts):
            mid = (ts + pkts[i + 1][0]) // 2
            out.append(epb(1, mid, eth, len(eth)))
    out.append(epb(1, pkts[-1][0] + 300000000, eth, len(eth)))
    with open(dst, "wb") as f:
        f.write(b"".join(out))


main()
