#!/usr/bin/env python3
"""tests/e2e/usbip-client.py PORT ACTION - a USB/IP client for
tests/e2e/serve.sh, as Linux's usbip tool and vhci-hcd speak it
(Documentation/usb/usbip_protocol.rst): each ACTION prints what it saw,
one fact a line, for the shell test to compare.

  devlist    OP_REQ_DEVLIST: the devices, their ids and interfaces
  disk       import 1-1 (a disk): descriptors, configuration, SCSI
             INQUIRY, a block written and read back (bulk-only transport)
  stall      import 1-1: a request the device refuses (-EPIPE)
  unlink     import 1-2 (a keyboard not typing yet): an interrupt IN
             unlinked while pending, an unlink of nothing
  keys       import 1-3 (a keyboard typing "ab"): its reports
  nodev      import 9-9: refused
  busy       import 1-1 twice: the second refused
  garbage    an operation no server knows: the connection closed
  badcmd     import 1-1, then a command no server takes: closed
  vanish     import 1-2, configure it, submit an interrupt IN (NAKed:
             pending), close the socket
  replay     import 1-1 (samples/hid-keyboard.pcap replayed): its
             descriptors, a request it never made, its reports
  stallcbw   import 1-1 (served with a STALL armed on the second
             READ(10)'s CBW): two READ(10)s, the halt cleared, a third
  replayiso  import 1-1 (samples/uvc-webcam.pcapng replayed): its
             streaming interface's alternate setting 1, six isochronous
             IN URBs of 8 packets on 0x81: each packet's length and
             status, a digest of their data
  unplugged  import 1-1 (a keyboard a scenario settles, then unplugs),
             configure it, wait on an interrupt IN until the server
             ends the connection
"""
import hashlib
import socket
import struct
import sys
import time

PORT = int(sys.argv[1])


def recvn(s, n):
    b = b""
    while len(b) < n:
        x = s.recv(n - len(b))
        if not x:
            raise EOFError("closed after %d of %d bytes" % (len(b), n))
        b += x
    return b


def connect():
    return socket.create_connection(("127.0.0.1", PORT), timeout=10)


def op(s, code, extra=b""):
    s.sendall(struct.pack(">HHI", 0x0111, code, 0) + extra)


def imp(busid):
    s = connect()
    op(s, 0x8003, busid.encode().ljust(32, b"\0"))
    ver, code, status = struct.unpack(">HHI", recvn(s, 8))
    print("import %s: version %#06x code %#06x status %d" %
          (busid, ver, code, status))
    if status == 0:
        d = recvn(s, 312)
        print("import %s: busid %s devid %d-%d speed %d %04x:%04x" % (
            busid, d[256:288].rstrip(b"\0").decode(),
            *struct.unpack(">II", d[288:296]),
            struct.unpack(">I", d[296:300])[0],
            *struct.unpack(">HH", d[300:304])))
    return s, status


class Dev:
    def __init__(self, s):
        self.s = s
        self.seq = 0
        self.dirin = {}

    def send(self, ep, dirin, length, setup=b"\0" * 8, data=b"", flags=0):
        self.seq += 1
        h = struct.pack(">IIIII", 1, self.seq, 0x10002, 1 if dirin else 0,
                        ep)
        h += struct.pack(">IIiii", flags, length, 0, 0, 0) + setup
        self.s.sendall(h + data)
        return self.seq

    def reply(self):
        r = recvn(self.s, 48)
        cmd, seq = struct.unpack(">II", r[:8])
        if cmd == 4:
            return cmd, seq, struct.unpack(">i", r[20:24])[0], b""
        st, act = struct.unpack(">iI", r[20:28])
        return cmd, seq, st, recvn(self.s, act) if self.dirin.get(seq) \
            else act

    def xfer(self, ep, dirin, length, setup=b"\0" * 8, data=b"",
             flags=0):
        self.dirin = {self.seq + 1: dirin}
        self.send(ep, dirin, length, setup, data, flags)
        return self.reply()


def ctrl(d, rt, req, val, idx, length, data=b""):
    setup = struct.pack("<BBHHH", rt, req, val, idx, length)
    return d.xfer(0, rt & 0x80 != 0, length, setup, data)


def bot(d, tag, cdb, dirin, length, data=b""):
    """A bulk-only transport command (USB MSC BOT 1.0): CBW, data, CSW."""
    cbw = struct.pack("<IIIBBB", 0x43425355, tag, length,
                      0x80 if dirin else 0, 0, len(cdb)) + \
        cdb.ljust(16, b"\0")
    r = d.xfer(2, False, 31, data=cbw)
    assert r[2] == 0, "CBW status %d" % r[2]
    got = b""
    if length:
        r = d.xfer(1, True, length) if dirin else \
            d.xfer(2, False, length, data=data)
        got = r[3] if dirin else b""
        if r[2] == -32:
            # a STALLed data phase: clear the halt, then the CSW (BOT
            # 6.7.2, 6.7.3)
            ctrl(d, 0x02, 1, 0, 0x81 if dirin else 0x02, 0)
            got = b""
    r = d.xfer(1, True, 13)
    sig, rtag, resid, status = struct.unpack("<IIIB", r[3])
    return got, status, rtag == tag


def devlist():
    s = connect()
    op(s, 0x8005)
    ver, code, status, n = struct.unpack(">HHII", recvn(s, 12))
    print("devlist: version %#06x code %#06x status %d, %d devices" %
          (ver, code, status, n))
    for _ in range(n):
        d = recvn(s, 312)
        nif = d[311]
        intf = recvn(s, 4 * nif)
        print("device %s %04x:%04x config %d, %d interfaces: %s" % (
            d[256:288].rstrip(b"\0").decode(),
            *struct.unpack(">HH", d[300:304]), d[309], nif,
            " ".join("%02x/%02x/%02x" % tuple(intf[4 * i:4 * i + 3])
                     for i in range(nif))))
    print("devlist: then closed: %s" % (s.recv(1) == b""))


def disk():
    s, st = imp("1-1")
    d = Dev(s)
    cmd, seq, st, desc = ctrl(d, 0x80, 6, 0x100, 0, 18)
    print("GET_DESCRIPTOR device: status %d, %d bytes, %04x:%04x" % (
        st, len(desc), *struct.unpack("<HH", desc[8:12])))
    cmd, seq, st, cfg = ctrl(d, 0x80, 6, 0x200, 0, 255)
    print("GET_DESCRIPTOR config: status %d, %d bytes (wTotalLength %d)" %
          (st, len(cfg), struct.unpack("<H", cfg[2:4])[0]))
    print("SET_CONFIGURATION 1: status %d" % ctrl(d, 0, 9, 1, 0, 0)[2])
    got, status, tagok = bot(d, 1, bytes([0x12, 0, 0, 0, 36, 0]), True, 36)
    print("INQUIRY: %r, CSW status %d, tag %s" % (got[8:32].decode(),
                                                   status, tagok))
    block = bytes((i * 7) & 0xff for i in range(512))
    _, status, _ = bot(d, 2, bytes([0x2a, 0, 0, 0, 0, 5, 0, 0, 1, 0]),
                       False, 512, block)
    print("WRITE(10) block 5: CSW status %d" % status)
    got, status, _ = bot(d, 3, bytes([0x28, 0, 0, 0, 0, 5, 0, 0, 1, 0]),
                         True, 512)
    print("READ(10) block 5: CSW status %d, equal %s" % (status,
                                                         got == block))
    s.close()


def stall():
    s, st = imp("1-1")
    d = Dev(s)
    # GET_DESCRIPTOR of type 0x42, which no device has
    print("GET_DESCRIPTOR 0x42: status %d" %
          ctrl(d, 0x80, 6, 0x4200, 0, 64)[2])
    print("then GET_STATUS: status %d" % ctrl(d, 0x80, 0, 0, 0, 2)[2])
    s.close()


def unlink():
    s, st = imp("1-2")
    d = Dev(s)
    print("SET_CONFIGURATION 1: status %d" % ctrl(d, 0, 9, 1, 0, 0)[2])
    pending = d.send(1, True, 8)
    time.sleep(0.1)
    d.seq += 1
    s.sendall(struct.pack(">IIIIII", 2, d.seq, 0x10002, 0, 0, pending) +
              b"\0" * 24)
    cmd, seq, st, _ = d.reply()
    print("unlink of the pending interrupt IN: RET_UNLINK %s, status %d" %
          (cmd == 4 and seq == d.seq, st))
    d.seq += 1
    s.sendall(struct.pack(">IIIIII", 2, d.seq, 0x10002, 0, 0, 999) +
              b"\0" * 24)
    cmd, seq, st, _ = d.reply()
    print("unlink of nothing: RET_UNLINK %s, status %d" %
          (cmd == 4 and seq == d.seq, st))
    s.close()


def keys():
    s, st = imp("1-3")
    d = Dev(s)
    print("SET_CONFIGURATION 1: status %d" % ctrl(d, 0, 9, 1, 0, 0)[2])
    reports = []
    for _ in range(4):
        cmd, seq, st, rep = d.xfer(1, True, 8)
        reports.append("%d:%s" % (st, rep.hex()))
    print("reports: %s" % " ".join(reports))
    s.close()


def refused(busid):
    s, st = imp(busid)
    print("then closed: %s" % (s.recv(1) == b""))


def busy():
    s, st = imp("1-1")
    refused("1-1")
    s.close()


def garbage():
    s = connect()
    s.sendall(b"GET / HTTP/1.0\r\n\r\n")
    print("garbage: closed: %s" % (s.recv(1) == b""))


def badcmd():
    s, st = imp("1-1")
    s.sendall(struct.pack(">IIIII", 7, 1, 0, 0, 0) + b"\0" * 28)
    print("command 7: closed: %s" % (s.recv(1) == b""))


def stallcbw():
    s, st = imp("1-1")
    d = Dev(s)
    print("SET_CONFIGURATION 1: status %d" % ctrl(d, 0, 9, 1, 0, 0)[2])
    read10 = bytes([0x28, 0, 0, 0, 0, 5, 0, 0, 1, 0])
    got, status, _ = bot(d, 1, read10, True, 512)
    print("READ(10) 1: CSW status %d, %d bytes" % (status, len(got)))
    cbw = struct.pack("<IIIBBB", 0x43425355, 2, 512, 0x80, 0, 10) + \
        read10.ljust(16, b"\0")
    print("READ(10) 2: CBW status %d" % d.xfer(2, False, 31, data=cbw)[2])
    # CLEAR_FEATURE(ENDPOINT_HALT) on 0x02 (USB 2.0 9.4.1)
    print("CLEAR_FEATURE ENDPOINT_HALT 0x02: status %d" %
          ctrl(d, 0x02, 1, 0, 0x02, 0)[2])
    got, status, _ = bot(d, 3, read10, True, 512)
    print("READ(10) 3: CSW status %d, %d bytes" % (status, len(got)))
    s.close()


def replay():
    s, st = imp("1-1")
    d = Dev(s)
    desc = ctrl(d, 0x80, 6, 0x100, 0, 18)[3]
    print("device: %04x:%04x" % struct.unpack("<HH", desc[8:12]))
    cfg = ctrl(d, 0x80, 6, 0x200, 0, 255)[3]
    print("configuration: %d bytes" % len(cfg))
    name = ctrl(d, 0x80, 6, 0x302, 0x409, 255)[3]
    print("string 2: %r" % name[2:].decode("utf-16-le", "replace"))
    rep = ctrl(d, 0x81, 6, 0x2200, 0, 63)[3]
    print("HID report descriptor: %d bytes" % len(rep))
    print("SET_CONFIGURATION 1: status %d" % ctrl(d, 0, 9, 1, 0, 0)[2])
    print("a vendor request never recorded: status %d" %
          ctrl(d, 0xc0, 0x42, 0, 0, 4)[2])
    keys = []
    for _ in range(10):
        cmd, seq, st, r = d.xfer(1, True, 8)
        keys.append("%d:%s" % (st, r.hex()))
    print("reports: %s" % " ".join(keys))
    s.close()


def replaydisk():
    """A disk replayed from a real capture (tests/data/linux61's
    usbmon0.bin, device 1.2: QEMU's usb-storage under Linux 6.1, then
    given a FAT file system): its SCSI answers by command, with our own
    tags, its blocks as the recording left them."""
    s, st = imp("1-1")
    d = Dev(s)
    ctrl(d, 0x80, 6, 0x100, 0, 18)
    ctrl(d, 0x80, 6, 0x200, 0, 255)
    print("SET_CONFIGURATION 1: status %d" % ctrl(d, 0, 9, 1, 0, 0)[2])
    got, status, tagok = bot(d, 0x7a7a0001, bytes([0x12, 0, 0, 0, 36, 0]),
                             True, 36)
    print("INQUIRY: %r, CSW status %d, our tag %s" % (
        got[8:32].decode(), status, tagok))
    tur = bytes(6)
    sense = bytes([3, 0, 0, 0, 96, 0])
    st1 = bot(d, 0x7a7a0002, tur, True, 0)[1]
    got, st2, _ = bot(d, 0x7a7a0003, sense, True, 96)
    st3 = bot(d, 0x7a7a0004, tur, True, 0)[1]
    print("TEST UNIT READY %d, REQUEST SENSE key %x asc %02x, TEST UNIT "
          "READY %d" % (st1, got[2] & 0xf, got[12], st3))
    got, status, _ = bot(d, 0x7a7a0005, bytes([0x25] + [0] * 9), True, 8)
    print("READ CAPACITY(10): %d blocks of %d" % (
        struct.unpack(">I", got[:4])[0] + 1,
        struct.unpack(">I", got[4:8])[0]))
    got, status, _ = bot(d, 0x7a7a0006, bytes([0x28, 0, 0, 0, 1, 2, 0, 0,
                                               2, 0]), True, 1024)
    print("READ(10) lba 258, 2 blocks: CSW status %d, %s, %r" % (
        status, "HELLO   TXT" in got[:512].decode("latin-1"),
        got[512:543].decode("latin-1")))
    got, status, _ = bot(d, 0x7a7a0007, bytes([0x28, 0, 0, 0, 0x23, 0x28, 0,
                                               0, 1, 0]), True, 512)
    print("READ(10) lba 9000: CSW status %d, zeros %s" % (
        status, got == bytes(512)))
    block = bytes((i * 5) & 0xff for i in range(512))
    st1 = bot(d, 0x7a7a0008, bytes([0x2a, 0, 0, 0, 0x23, 0x28, 0, 0, 1, 0]),
              False, 512, block)[1]
    got, st2, _ = bot(d, 0x7a7a0009, bytes([0x28, 0, 0, 0, 0x23, 0x28, 0,
                                            0, 1, 0]), True, 512)
    print("WRITE(10) lba 9000 %d, read back %d, equal %s" % (
        st1, st2, got == block))
    # REPORT LUNS (SPC-3 6.21), never recorded
    got, st1, _ = bot(d, 0x7a7a000a, bytes([0xa0, 0, 0, 0, 0, 0, 0, 0, 0,
                                            16, 0, 0]), True, 16)
    got, st2, _ = bot(d, 0x7a7a000b, sense, True, 96)
    print("REPORT LUNS: CSW status %d, %d bytes; REQUEST SENSE %d: key %x "
          "asc %02x" % (st1, len(got) if st1 == 0 else 0, st2,
                        got[2] & 0xf, got[12]))
    s.close()


def iso_in(d, ep, npackets, maxp):
    """An isochronous IN URB (the packets' descriptors after the header,
    USBIP_CMD_SUBMIT): its status and its packets (actual, status,
    data), the data packed in the reply as the server sends it."""
    d.seq += 1
    h = struct.pack(">IIIII", 1, d.seq, 0x10002, 1, ep)
    h += struct.pack(">IIiii", 0, npackets * maxp, 0, npackets, 1)
    h += b"\0" * 8
    for i in range(npackets):
        h += struct.pack(">IIIi", i * maxp, maxp, 0, 0)
    d.s.sendall(h)
    r = recvn(d.s, 48)
    st, act, _, n = struct.unpack(">iIii", r[20:36])
    data = recvn(d.s, act)
    pk, at = [], 0
    for i in range(n):
        off, length, actual, pst = struct.unpack(">IIIi", recvn(d.s, 16))
        pk.append((actual, pst, data[at:at + actual]))
        at += actual
    return st, pk


def replayiso():
    s, st = imp("1-1")
    d = Dev(s)
    print("SET_CONFIGURATION 1: status %d" % ctrl(d, 0, 9, 1, 0, 0)[2])
    print("SET_INTERFACE 1 alt 1: status %d" % ctrl(d, 1, 11, 1, 1, 0)[2])
    lens, sts, h = [], [], hashlib.sha256()
    for _ in range(6):
        st, pk = iso_in(d, 1, 8, 1024)
        assert st == 0, "iso URB status %d" % st
        for actual, pst, data in pk:
            lens.append(str(actual))
            sts.append(str(pst))
            h.update(data)
    print("lengths: %s" % ",".join(lens))
    print("statuses: %s" % ",".join(sts))
    print("data sha256: %s" % h.hexdigest())
    st, pk = iso_in(d, 1, 8, 1024)
    print("past the recording: status %d, %d bytes" % (
        st, sum(p[0] for p in pk)))
    s.close()


def vanish():
    s, st = imp("1-2")
    d = Dev(s)
    # configured, so that the interrupt IN waits (NAKed) rather than
    # STALLs
    ctrl(d, 0, 9, 1, 0, 0)
    d.send(1, True, 8)
    s.close()
    print("vanished with an URB pending")


def unplugged():
    s, st = imp("1-1")
    d = Dev(s)
    ctrl(d, 0, 9, 1, 0, 0)
    print("configured")
    d.send(1, True, 8)
    s.settimeout(10)
    try:
        got = s.recv(48)
        print("unplugged: %s" % ("closed by the server" if not got else
                                 "an answer, not the end"))
    except socket.timeout:
        print("unplugged: still open after 10 s")


{"devlist": devlist, "unplugged": unplugged, "disk": disk, "stall": stall, "unlink": unlink,
 "keys": keys, "nodev": lambda: refused("9-9"), "busy": busy,
 "garbage": garbage, "badcmd": badcmd, "vanish": vanish,
 "stallcbw": stallcbw, "replay": replay,
 "replaydisk": replaydisk, "replayiso": replayiso}[sys.argv[2]]()
