#!/usr/bin/env python3
"""tests/tools/btcraft.py - HCI commands and the events that answer them,
for comparing bthci_evt's links to commands with tshark's:
python3 tests/tools/btcraft.py IN.pcap OUT.pcap PLEN.

With "links" as a fourth argument: ACL packets among the events that tell
of their connections; with "l2cap": L2CAP channels opened, used and
closed on an ACL link, and signalling commands cut short.

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


def acl_records():
    """The indexes of the first ACL data read and written."""
    acl_in = acl_out = None
    for i, r in enumerate(recs):
        t, xt, ep, dlen = usb(r)
        if acl_out is None and t == "S" and ep == 0x02 and dlen > 0:
            acl_out = i
        if acl_in is None and t == "C" and ep == 0x82 and dlen > 0:
            acl_in = i
    if acl_in is None or acl_out is None:
        sys.exit("btcraft: no ACL data in " + src)
    return acl_in, acl_out


def acl(handle, inn, later):
    """An ACL packet on handle (an L2CAP Information Request), in or out."""
    d = struct.pack("<HHHHBBHH", handle | 0x2000, 10, 6, 1, 0x0a, 1, 2, 2)
    return make(recs[acl_in if inn else acl_out], d, later)


def ev(code, p, later):
    return make(recs[evt], bytes([code, len(p)]) + p, later)


def name(s):
    return s.encode() + bytes(248 - len(s))


if len(sys.argv) > 4 and sys.argv[4] == "links":
    # ACL packets between the events and commands that tell bthci_acl
    # of their connection: no connection yet, the local address and
    # name, Connection Complete, Role Change, Mode Change, Remote Name
    # Request Complete, LE Connection Complete, an advertising report's
    # name, Disconnection Complete, Accept Connection Request and a
    # second connection on the same handle
    acl_in, acl_out = acl_records()
    a = bytes([0x66, 0x55, 0x44, 0x33, 0x22, 0x11])
    bb = bytes([0x01, 0xef, 0xcd, 0xab, 0x89, 0xc0])
    loc = bytes([0x56, 0x34, 0x12, 0xdc, 0x1b, 0x00])
    cc = lambda h, addr: bytes([0]) + struct.pack("<H", h) + addr + b"\x01\x00"
    le = lambda h, addr: (bytes([1, 0]) + struct.pack("<H", h) +
                          bytes([0, 0]) + addr + bytes(7))
    seq = [
        acl(0x001, True, 0),
        ev(0x0e, b"\x01" + struct.pack("<H", 0x1009) + b"\x00" + loc, 0),
        acl(0x001, False, 0),
        ev(0x0e, b"\x01" + struct.pack("<H", 0x0c14) + b"\x00" +
           name("urb-host"), 0),
        ev(0x03, cc(0x001, a), 0),
        acl(0x001, False, 0), acl(0x001, True, 0),
        ev(0x12, b"\x00" + a + b"\x01", 0),
        acl(0x001, False, 0), acl(0x001, True, 0),
        ev(0x14, b"\x00" + struct.pack("<H", 0x001) + b"\x02" +
           struct.pack("<H", 0x0800), 0),
        acl(0x001, True, 0),
        ev(0x07, b"\x00" + a + name("remote-a"), 0),
        acl(0x001, False, 0),
        ev(0x3e, le(0x002, bb), 0),
        acl(0x002, True, 0), acl(0x001, True, 0),
        ev(0x3e, b"\x02\x01\x00\x00" + bb + b"\x08\x07\x09le-dev\xc4", 0),
        acl(0x002, False, 0),
        ev(0x05, b"\x00" + struct.pack("<H", 0x001) + b"\x13", 0),
        acl(0x001, False, 0), acl(0x002, True, 0),
        make(recs[cmd], struct.pack("<HB", 0x0409, 7) + a + b"\x01", 0),
        ev(0x03, cc(0x001, a), 0),
        acl(0x001, True, 0),
        ev(0x03, cc(0x003, bb), 0),
        ev(0x14, b"\x00" + struct.pack("<H", 0x003) + b"\x01" +
           struct.pack("<H", 0x0800), 0),
        acl(0x003, False, 0), acl(0x002, True, 0),
    ]
    with open(dst, "wb") as f:
        f.write(b[:24] + b"".join(list(recs[:cmd]) + seq))
    sys.exit(0)

if len(sys.argv) > 4 and sys.argv[4] == "l2cap":
    # L2CAP channels on one ACL link (handle 0x001): SDP opened by the
    # host and RFCOMM by the remote at once, data both ways on each, a
    # refused and a pending answer, a disconnect and the reuse of its
    # CIDs for a dynamic PSM, data on a CID no request opened, a second
    # link with the same CIDs, SDP opened by the remote and closed, and signalling commands cut short
    acl_in, acl_out = acl_records()

    def l2(inn, cid, p, h=0x001):
        d = struct.pack("<HHHH", h | 0x2000, len(p) + 4, len(p), cid) + p
        return make(recs[acl_in if inn else acl_out], d, 0)

    def sig(inn, code, ident, p, h=0x001):
        return l2(inn, 0x0001, struct.pack("<BBH", code, ident, len(p)) +
                  p, h)

    H = lambda *v: struct.pack("<" + "H" * len(v), *v)
    seq = [
        l2(False, 0x0040, b"early"),
        sig(False, 0x02, 1, H(0x0001, 0x0040)),
        l2(False, 0x0040, b"before the answer"),
        sig(True, 0x03, 1, H(0x0070, 0x0040, 0, 0)),
        l2(False, 0x0070, b"sdp out"), l2(True, 0x0040, b"sdp in"),
        sig(True, 0x02, 2, H(0x1003, 0x0041)),
        sig(False, 0x03, 2, H(0x0000, 0x0041, 1, 2)),
        l2(True, 0x0041, b"pending"),
        sig(False, 0x03, 2, H(0x0050, 0x0041, 0, 0)),
        l2(True, 0x0050, b"rfcomm in"), l2(False, 0x0041, b"rfcomm out"),
        l2(False, 0x0070, b"sdp again"), l2(True, 0x0050, b"more in"),
        sig(False, 0x02, 3, H(0x0017, 0x0042)),
        sig(True, 0x03, 3, H(0x0000, 0x0042, 2, 0)),
        l2(True, 0x0042, b"refused"),
        sig(False, 0x06, 4, H(0x0070, 0x0040)),
        l2(False, 0x0070, b"between"), l2(True, 0x0040, b"between"),
        sig(True, 0x07, 4, H(0x0070, 0x0040)),
        l2(False, 0x0070, b"after the disconnect"),
        l2(True, 0x0040, b"after the disconnect"),
        sig(False, 0x02, 5, H(0x1001, 0x0040)),
        sig(True, 0x03, 5, H(0x0071, 0x0040, 0, 0)),
        l2(False, 0x0071, b"dynamic out"), l2(True, 0x0040, b"dynamic in"),
        l2(True, 0x0070, b"old cid"), l2(False, 0x0099, b"unknown"),
        l2(True, 0x0040, b"other link", 0x002),
        sig(True, 0x02, 13, H(0x0001, 0x0044)),
        sig(False, 0x03, 13, H(0x0045, 0x0044, 0, 0)),
        l2(True, 0x0045, b"sdp in"), l2(False, 0x0044, b"sdp out"),
        sig(True, 0x06, 14, H(0x0045, 0x0044)),
        l2(True, 0x0045, b"between"), l2(False, 0x0044, b"between"),
        sig(False, 0x07, 14, H(0x0045, 0x0044)),
        l2(True, 0x0045, b"after"),
        sig(False, 0x08, 6, b""), sig(True, 0x09, 6, b""),
        sig(False, 0x08, 7, b"echo"),
        sig(False, 0x02, 8, H(0x0005)),
        sig(False, 0x03, 9, H(0x0072, 0x0043)),
        sig(False, 0x06, 10, H(0x0070)),
        sig(False, 0x0a, 11, b""),
        sig(False, 0x04, 12, H(0x0050)),
        l2(False, 0x0001, b"\x02\x0d"),
        l2(False, 0x0041, b"rfcomm last"),
    ]
    with open(dst, "wb") as f:
        f.write(b[:24] + b"".join(list(recs[:cmd]) + seq))
    sys.exit(0)

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
