#!/usr/bin/env python3
"""tests/tools/btcraft.py - HCI commands and the events that answer them,
for comparing bthci_evt's links to commands with tshark's:
python3 tests/tools/btcraft.py IN.pcap OUT.pcap PLEN.

IN is a usbmon pcap (link type 220) of the bluetooth scenario: its records
up to the first HCI command (the controller's enumeration) are kept, then
pairs of commands and events follow, made from that command's submit and
the first event's completion with other bytes: commands of Part E 7.1
and 7.8, events of 7.7 (Connection Complete after Accept Connection
Request and Create Connection in both orders, Disconnection Complete,
Inquiry, Authentication, Encryption Change, remote features and version,
LE Connection Complete, Synchronous Connection Complete after Setup and
Accept Synchronous Connection, both, and their Enhanced forms) with PLEN parameter bytes (zeros), so that a
short event (11) and a long one (254) are both tried.
"""
import struct
import sys

src, dst, plen = sys.argv[1], sys.argv[2], int(sys.argv[3])
with open(src, "rb") as f:
    b = f.read()
recs = []
off = 24
while off + 16 <= len(b):
    incl = struct.unpack_from("<I", b, off + 8)[0]
    recs.append(b[off:off + 16 + incl])
    off += 16 + incl


def usb(r):
    """(URB type, transfer type, endpoint, data length) of a record."""
    u = r[16:]
    return chr(u[8]), u[9], u[10], struct.unpack_from("<I", u, 36)[0]


cmd = evt = None
for i, r in enumerate(recs):
    t, xt, ep, dlen = usb(r)
    if cmd is None and t == "S" and xt == 2 and dlen >= 3:
        cmd = i
    if evt is None and t == "C" and ep == 0x81 and dlen > 0:
        evt = i
if cmd is None or evt is None:
    sys.exit("btcraft: no HCI command or event in " + src)


def make(tmpl, data, us_later):
    """Record tmpl (its 64-byte usbmon header) with data instead."""
    r = bytearray(tmpl[:16 + 64])
    struct.pack_into("<II", r, 8, 64 + len(data), 64 + len(data))
    struct.pack_into("<II", r, 16 + 32, len(data), len(data))
    if tmpl is recs[cmd]:
        struct.pack_into("<H", r, 16 + 46, len(data))	# wLength
    sec, usec = struct.unpack_from("<II", r, 0)
    usec += us_later
    struct.pack_into("<II", r, 0, sec + usec // 1000000, usec % 1000000)
    return bytes(r) + bytes(data)


# (opcode, its parameter bytes, the event: code, (0x3e, subevent), None)
pairs = [(0x0405, 13, None), (0x0409, 7, 0x03), (0x0409, 7, None),
         (0x0405, 13, 0x03), (0x0406, 3, None), (0x0405, 13, 0x05),
         (0x0401, 5, 0x01), (0x041b, 2, 0x0b), (0x041d, 2, 0x0c),
         (0x0411, 2, 0x06), (0x0413, 3, 0x08), (0x200d, 25, (0x3e, 1)),
         (0x0419, 10, 0x07), (0x0c03, 0, 0x0e), (0x0428, 17, 0x2c),
         (0x0429, 21, 0x2c), (0x0428, 17, None), (0x0429, 21, 0x2c),
         (0x043d, 59, 0x2c), (0x043e, 63, 0x2c)]
out = list(recs[:cmd])
later = 0
for op, n, ev in pairs:
    out.append(make(recs[cmd], struct.pack("<HB", op, n) + bytes(n), later))
    later += 250
    if ev is None:
        continue
    if isinstance(ev, tuple):
        p = bytes([ev[1]]) + bytes(max(plen - 1, 0))
        code = ev[0]
    elif ev == 0x0e:
        p = b"\x01" + struct.pack("<H", op) + b"\x00"
        code = ev
    else:
        p = bytes(plen)
        code = ev
    out.append(make(recs[evt], bytes([code, len(p)]) + p, later))
    later += 375
with open(dst, "wb") as f:
    f.write(b[:24] + b"".join(out))
