#!/usr/bin/env python3
"""tests/kernel/check.py OUTDIR [URBSCOPE] - the checks of `make test-kernel`.

Reads what tests/kernel/guest-test.sh left in OUTDIR/share and QEMU's pcaps
in OUTDIR, and prints one "ok - " or "not ok - " line per check with its
figures, followed by "#" lines showing the first disagreements.

Our capture is parsed here independently of urbscope (pcapng/pcap with the
64-byte usbmon header, or the raw 48-byte read() stream of the stand-in),
so a bug in urbscope's reader cannot hide one in its writer; urbscope's
own reading is checked separately.
"""
import importlib.util
import os
import re
import struct
import subprocess
import sys

SYNTH_ID_BASE = 0x7379736673000000      # CAP_SYNTH_ID in capture/capture.h
SYNTH_ID_MASK = 0xffffffffff000000
XFER_CHAR = {0: "Z", 1: "I", 2: "C", 3: "B"}
results = []


def load_check_drivers():
    """check-drivers.py (its name has a dash) as a module: its reader of
    usbmon records and driver events, for check-kmod.py and
    check-serve.py."""
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location(
        "check_drivers", os.path.join(here, "check-drivers.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def report(ok, name, details=()):
    print("%s - %s" % ("ok" if ok else "not ok", name))
    for d in ([] if ok else list(details)[:12]):
        print("#   %s" % d)
    results.append(ok)


class Ev:
    """One usbmon event: header fields and the captured data."""
    __slots__ = ("id", "type", "xfer", "ep", "dev", "bus", "flag_setup",
                 "flag_data", "ts", "status", "length", "len_cap", "setup",
                 "interval", "data", "synthetic", "dir_in")

    def addr(self):
        return "%s%s:%d:%03d:%d" % (XFER_CHAR.get(self.xfer, "?"),
                                    "i" if self.dir_in else "o", self.bus,
                                    self.dev, self.ep & 0x7f)


def parse_usbmon(p, hdrlen, synthetic=False):
    e = Ev()
    (e.id, t, e.xfer, e.ep, e.dev, e.bus, fs, fd, sec, usec, e.status,
     e.length, e.len_cap) = struct.unpack_from("<QBBBBHbbqiiII", p, 0)
    e.type = chr(t)
    e.flag_setup = fs
    e.flag_data = fd
    e.ts = (sec, usec)
    e.setup = bytes(p[40:48])
    e.interval = struct.unpack_from("<i", p, 48)[0] if hdrlen >= 64 else None
    e.data = bytes(p[hdrlen:hdrlen + e.len_cap])
    e.dir_in = bool(e.ep & 0x80)
    e.synthetic = synthetic or (e.id & SYNTH_ID_MASK) == SYNTH_ID_BASE
    return e


def pcapng_blocks(path):
    """(block type, body, byte order, the section's link types so far) of
    each block of the pcapng at path."""
    buf = open(path, "rb").read()
    linktypes = []
    off = 0
    end = "<"
    while off + 12 <= len(buf):
        btype = struct.unpack_from(end + "I", buf, off)[0]
        if btype == 0x0A0D0D0A:
            end = "<" if buf[off + 8:off + 12] == b"\x4d\x3c\x2b\x1a" else ">"
            linktypes = []
        blen = struct.unpack_from(end + "I", buf, off + 4)[0]
        if blen < 12 or off + blen > len(buf):
            raise ValueError("pcapng block at %d runs past the end" % off)
        body = buf[off + 8:off + blen - 4]
        if btype == 1:
            linktypes.append(struct.unpack_from(end + "H", body, 0)[0])
        yield btype, body, end, linktypes
        off += blen


def read_pcapng(path):
    """Events, the interface statistics (list of option dicts), comments."""
    evs, isbs = [], []
    for btype, body, end, linktypes in pcapng_blocks(path):
        if btype == 6:
            ifc, _, _, caplen, _ = struct.unpack_from(end + "IIIII", body, 0)
            pkt = body[20:20 + caplen]
            opts = parse_opts(body[20 + (caplen + 3) // 4 * 4:], end)
            hdr = 64 if linktypes[ifc] == 220 else 48
            synth = any(v.startswith(b"synthetic:") for c, v in opts
                        if c == 1)
            evs.append(parse_usbmon(pkt, hdr, synth))
        elif btype == 5:
            isbs.append(dict(parse_opts(body[12:], end)))
    return evs, isbs


def parse_opts(b, end):
    out = []
    o = 0
    while o + 4 <= len(b):
        code, ln = struct.unpack_from(end + "HH", b, o)
        if code == 0:
            break
        out.append((code, bytes(b[o + 4:o + 4 + ln])))
        o += 4 + (ln + 3) // 4 * 4
    return out


def read_pcap(path):
    buf = open(path, "rb").read()
    magic = struct.unpack_from("<I", buf, 0)[0]
    end = "<" if magic in (0xa1b2c3d4, 0xa1b23c4d) else ">"
    lt = struct.unpack_from(end + "I", buf, 20)[0]
    hdr = 64 if lt == 220 else 48
    evs = []
    off = 24
    while off + 16 <= len(buf):
        _, _, incl, _ = struct.unpack_from(end + "IIII", buf, off)
        evs.append(parse_usbmon(buf[off + 16:off + 16 + incl], hdr))
        off += 16 + incl
    return evs


def read_raw(path):
    """The read() stream of /dev/usbmonN: 48-byte header, then len_cap."""
    buf = open(path, "rb").read()
    evs = []
    off = 0
    while off + 48 <= len(buf):
        e = parse_usbmon(buf[off:], 48)
        evs.append(e)
        off += 48 + e.len_cap
    return evs


# ---------------------------------------------------------------------------
# The kernel's text interface (drivers/usb/mon/mon_text.c, 'u' format).

class TextEv:
    __slots__ = ("id", "type", "addr", "setup", "status", "interval",
                 "length", "flag", "data", "line", "ts")


def read_text(path):
    evs = []
    for line in open(path, errors="replace"):
        if not line.endswith("\n"):
            break                           # cut by the reader's end
        t = line.split()
        if len(t) < 5:
            continue
        e = TextEv()
        e.line = line.rstrip("\n")
        e.id = int(t[0], 16)
        e.ts = int(t[1])
        e.type = t[2]
        e.addr = t[3]
        e.setup = None
        e.interval = None
        i = 4
        if t[i] == "s":
            e.setup = bytes(int(x, 16) for x in t[5:7]) + b"".join(
                struct.pack("<H", int(x, 16)) for x in t[7:10])
            e.status = None
            i = 10
        else:
            parts = t[i].split(":")
            e.status = int(parts[0])
            if len(parts) > 1:
                e.interval = int(parts[1])
            i += 1
            if e.addr[0] == "Z":
                i += 1                      # error count of isochronous
        e.length = int(t[i])
        i += 1
        e.flag = t[i] if i < len(t) else None
        e.data = None
        if e.flag == "=":
            e.data = bytes.fromhex("".join(t[i + 1:]))
        evs.append(e)
    return evs


# The text's timestamps: microseconds of CLOCK_MONOTONIC, its seconds
# modulo 4096 (mon_get_timestamp, drivers/usb/mon/mon_text.c); ours are
# the binary API's CLOCK_REALTIME of the same moment.
TEXT_WRAP = 4096 * 1000000


def text_dt(o, t, off):
    """How far (us, signed) o (ours) is from text event t, the clocks
    off apart; 0 before the offset is known."""
    if off is None:
        return 0
    d = (o.ts[0] * 1000000 + o.ts[1] - off - t.ts) % TEXT_WRAP
    return d if d < TEXT_WRAP // 2 else d - TEXT_WRAP


# How far apart two readers may stamp one event (us).  Each reader of a
# bus stamps an event in its own callback (mon_text.c's
# mon_get_timestamp, mon_bin.c's ktime_get_real_ts64), one after the
# other; a guest vCPU descheduled on a busy host put 7.5 ms between them
# (7.3, CI).  Within that window an URB address comes back many times
# (every control transfer of an enumeration), so the event of ours taken
# is the first there that is equal to the text's, else the first within
# TEXT_NEAR (whose differences are then said).
TEXT_SLACK = 50000
TEXT_NEAR = 5000


def text_diff(t, o):
    """What in o (ours) differs from text event t."""
    why = []
    if t.setup is not None:
        if o.flag_setup != 0 or o.setup != t.setup:
            why.append("setup %s" % o.setup.hex())
    elif t.status != o.status:
        why.append("status %d" % o.status)
    if t.interval is not None and o.interval is not None and \
            t.interval != o.interval:
        why.append("interval %d" % o.interval)
    if t.length != o.length:
        why.append("length %d" % o.length)
    if t.data is not None and o.data[:len(t.data)] != t.data:
        why.append("data %s" % o.data[:32].hex())
    return why


def compare_text(text, ours):
    """Every text event in ours, in order: returns (found, equal, diffs,
    missing, extra).  A slow text reader loses events (EVENT_MAX,
    mon_text.c), and an URB is used again and again: an event of ours
    is that text event's when it has its id, type and address, is
    within TEXT_SLACK of it and equal to it, or else within TEXT_NEAR
    (the clocks' offset taken from the first pair)."""
    found = equal = extra = 0
    diffs, missing = [], []
    j = 0
    off = None
    for t in text:
        k, near = j, None
        while k < len(ours):
            o = ours[k]
            d = text_dt(o, t, off)
            if d > TEXT_SLACK:
                break
            if o.id == t.id and o.type == t.type and o.addr() == t.addr \
                    and d >= -TEXT_SLACK:
                if not text_diff(t, o):
                    break
                if near is None and abs(d) <= TEXT_NEAR:
                    near = k
            k += 1
        if k == len(ours) or text_dt(ours[k], t, off) > TEXT_SLACK:
            k = near if near is not None else len(ours)
        if off is None and k < len(ours):
            off = ours[k].ts[0] * 1000000 + ours[k].ts[1] - t.ts
        if k == len(ours):
            missing.append(t.line)
            continue
        extra += k - j
        o = ours[k]
        j = k + 1
        found += 1
        why = text_diff(t, o)
        if why:
            diffs.append("%s  <- ours: %s" % (t.line, ", ".join(why)))
        else:
            equal += 1
    return found, equal, diffs, missing, extra


def compare_binary(kevs, ours):
    found = equal = nbytes = 0
    diffs, missing = [], []
    maxdt = [0]
    cut = [0]
    fields = ("type", "xfer", "ep", "dev", "bus", "flag_setup", "flag_data",
              "status", "length", "len_cap", "setup", "data")
    j = 0
    for e in kevs:
        k = j
        while k < len(ours) and not (ours[k].id == e.id and
                                     ours[k].type == e.type and
                                     ours[k].addr() == e.addr()):
            k += 1
        if k == len(ours):
            missing.append("%x %s %s" % (e.id, e.type, e.addr()))
            continue
        o = ours[k]
        j = k + 1
        found += 1
        why = [f for f in fields if getattr(o, f) != getattr(e, f)]
        # The kernel keeps at most a fifth of a reader's buffer per event
        # (mon_bin_event): that reader's default buffer cuts 64 KiB bulk
        # reads at 61440 bytes where our larger ring keeps all of them.
        if e.len_cap < o.len_cap and o.data[:e.len_cap] == e.data:
            why = [f for f in why if f not in ("len_cap", "data")]
            cut[0] += 1
        # The kernel stamps each reader's copy of an event separately
        # (mon_bin_event), so ours may be a little off the other reader's:
        # microseconds, more when the host is busy and TCG slows.
        dt = abs((o.ts[0] - e.ts[0]) * 1000000 + o.ts[1] - e.ts[1])
        maxdt[0] = max(maxdt[0], dt)
        if dt > 100000:
            why.append("timestamp %d.%06d, kernel %d.%06d" % (o.ts + e.ts))
        if why:
            diffs.append("%x %s %s: ours differs in %s" %
                         (e.id, e.type, e.addr(), ", ".join(why)))
        else:
            equal += 1
            nbytes += len(e.data)
    if cut[0]:
        print("# %d events the kernel's read() reader cut shorter than ours"
              % cut[0])
    return found, equal, nbytes, maxdt[0], diffs, missing


def compare_disk(ours, img):
    """Bulk-only transport: a CBW (31 bytes, "USBC") on the OUT endpoint,
    the data phase, the CSW.  Returns (commands, bytes equal, bytes not
    captured, differences)."""
    nio = nbytes = trunc = 0
    diffs = []
    i = 0
    while i < len(ours):
        e = ours[i]
        i += 1
        if not (e.xfer == 3 and e.type == "S" and not e.dir_in and
                e.length == 31 and e.data[:4] == b"USBC"):
            continue
        cb = e.data[15:]
        if cb[0] not in (0x28, 0x2a):
            continue
        write = cb[0] == 0x2a
        lba = struct.unpack(">I", cb[2:6])[0]
        want = struct.unpack(">H", cb[7:9])[0] * 512
        got = b""
        lost = 0
        # the data phase: completions IN (read) or submissions OUT (write)
        # on the same device's other bulk endpoints, until want bytes
        while i < len(ours) and len(got) + lost < want:
            d = ours[i]
            i += 1
            if d.bus != e.bus or d.dev != e.dev or d.xfer != 3:
                continue
            if write and d.type == "S" and not d.dir_in:
                pass
            elif not write and d.type == "C" and d.dir_in:
                if d.status != 0:
                    break
            else:
                continue
            got += d.data
            lost += d.length - len(d.data)
        nio += 1
        trunc += lost
        exp = img[lba * 512:lba * 512 + len(got)]
        if got == exp and len(got) + lost == want:
            nbytes += len(got)
        else:
            bad = next((k for k in range(min(len(got), len(exp)))
                        if got[k] != exp[k]), None)
            diffs.append("%s(10) lba %d: %d bytes of %d, first difference "
                         "at %s" % ("WRITE" if write else "READ", lba,
                                    len(got), want, bad))
    return nio, nbytes, trunc, diffs


# ---------------------------------------------------------------------------
# QEMU's pcaps: per device, the control SETUPs in order and the data bytes
# of each other endpoint, compared with ours for the same device.

def set_address(setup):
    return setup[0] == 0x00 and setup[1] == 0x05


def compare_qemu(qevs, ours, name):
    """Returns (ok, figures, details)."""
    qsa = [e for e in qevs if e.type == "S" and e.xfer == 2 and
           set_address(e.setup)]
    if not qsa:
        return False, "%s: no SET_ADDRESS in QEMU's pcap" % name, []
    addr = qsa[0].setup[2]
    q_pre = [e.setup for e in qevs[:qevs.index(qsa[0])]
             if e.type == "S" and e.xfer == 2]
    q_post = [e.setup for e in qevs[qevs.index(qsa[0]):]
              if e.type == "S" and e.xfer == 2]
    # Ours: the SET_ADDRESS(addr) on device 0, the device-0 requests just
    # before it, then every control request to the address.
    idx = [i for i, e in enumerate(ours) if e.type == "S" and e.xfer == 2
           and e.dev == 0 and set_address(e.setup) and e.setup[2] == addr]
    if not idx:
        return False, "%s: SET_ADDRESS %d not in our capture" % (name,
                                                                 addr), []
    sa = idx[-1] if name.endswith("replug") else idx[0]
    bus = ours[sa].bus
    o_pre = [e.setup for e in ours[:sa] if e.type == "S" and e.xfer == 2
             and e.dev == 0 and e.bus == bus][-len(q_pre):] if q_pre else []
    # the device's life in ours: from its SET_ADDRESS to the next one
    # giving the same address (a replug), or the end
    nxt = [i for i in idx if i > sa]
    life = ours[sa:nxt[0]] if nxt else ours[sa:]
    o_post = [ours[sa].setup] + [e.setup for e in life[1:]
                                 if e.type == "S" and e.xfer == 2 and
                                 e.dev == addr and e.bus == bus and
                                 e.flag_setup == 0]
    details = []
    n_eq = sum(1 for a, b in zip(q_pre, o_pre) if a == b) + \
        sum(1 for a, b in zip(q_post, o_post) if a == b)
    n_all = len(q_pre) + len(q_post)
    ok = q_pre == o_pre and q_post == o_post
    if not ok:
        for lbl, a, b in (("before SET_ADDRESS", q_pre, o_pre),
                          ("after", q_post, o_post)):
            for i in range(max(len(a), len(b))):
                qa = a[i].hex() if i < len(a) else "-"
                ob = b[i].hex() if i < len(b) else "-"
                if qa != ob:
                    details.append("%s %s setup #%d: qemu %s, ours %s" %
                                   (name, lbl, i + 1, qa, ob))
    # Data per endpoint: OUT from submissions, IN from completions.
    # QEMU cuts a record's data at 256 bytes and splits big transfers, so
    # the streams are compared byte for byte where QEMU kept the bytes.
    nbytes = total = 0
    for ep in sorted({e.ep for e in qevs if e.xfer != 2}):
        def stream(evs, sel):
            known = {}
            pos = 0
            for e in evs:
                if e.ep != ep or e.xfer == 2 or not sel(e):
                    continue
                for k, b in enumerate(e.data[:e.length]):
                    known[pos + k] = b
                pos += e.length
            return pos, known
        din = bool(ep & 0x80)

        def pick(e):
            return (e.type == "C") if din else (e.type == "S")
        qn, qk = stream(qevs, pick)
        on, ok_ = stream([e for e in life if e.dev == addr and
                          e.bus == bus], pick)
        bad = [p for p, b in qk.items() if ok_.get(p, b) != b]
        unk = [p for p in qk if p not in ok_]
        nbytes += len(qk) - len(bad) - len(unk)
        total += qn
        if qn != on or bad or unk:
            ok = False
            details.append("%s ep 0x%02x: %d bytes in QEMU's pcap, %d in "
                           "ours; of the %d bytes QEMU kept %d differ%s, "
                           "%d not in ours" %
                           (name, ep, qn, on, len(qk), len(bad),
                            " (first at %d)" % min(bad) if bad else "",
                            len(unk)))
    fig = ("%s (dev %d): %d/%d SETUPs equal; data: %d bytes long in both, "
           "%d bytes QEMU kept all equal" % (name, addr, n_eq, n_all, total,
                                              nbytes))
    return ok, fig, details


# ---------------------------------------------------------------------------
# `urbscope devices -v` against `lsusb -v`.

FIELD = re.compile(r"^(\s+)(b[A-Z]\w*|w[A-Z]\w*|i[A-Z]\w*|id[A-Z]\w*|"
                   r"bcd\w+|bm\w+|dw\w+)\s+(\S+)")
HEAD = re.compile(r"^(\s*)([A-Z][^:]*):\s*$")
BUSDEV = re.compile(r"^Bus (\d+) Device (\d+):")


def descriptor_fields(path):
    """{(bus, dev): {(block path, name, n): value}}"""
    devs = {}
    cur = None
    stack = []              # [(indent, label)]
    counts = {}
    for line in open(path, errors="replace"):
        line = line.rstrip("\n")
        m = BUSDEV.match(line)
        if m:
            cur = devs.setdefault((int(m.group(1)), int(m.group(2))), {})
            stack = []
            counts = {}
            continue
        if cur is None:
            continue
        m = HEAD.match(line)
        if m:
            ind = len(m.group(1))
            while stack and stack[-1][0] >= ind:
                stack.pop()
            parent = "/".join(s[1] for s in stack)
            key = (parent, m.group(2))
            counts[key] = counts.get(key, 0) + 1
            stack.append((ind, "%s#%d" % (m.group(2), counts[key])))
            continue
        m = FIELD.match(line)
        if m:
            ind = len(m.group(1))
            while stack and stack[-1][0] >= ind:
                stack.pop()
            blk = "/".join(s[1] for s in stack)
            k = (blk, m.group(2))
            n = sum(1 for x in cur if x[:2] == k)
            cur[(blk, m.group(2), n)] = m.group(3)
    return devs


def compare_devices(lsusb, ours):
    ld = descriptor_fields(lsusb)
    od = descriptor_fields(ours)
    total = equal = 0
    diffs, missing = [], []
    for dev in sorted(ld):
        if dev not in od:
            missing.append("device %03d:%03d not listed" % dev)
            total += len(ld[dev])
            continue
        for k, v in ld[dev].items():
            total += 1
            w = od[dev].get(k)
            where = "%03d:%03d %s %s" % (dev[0], dev[1], k[0], k[1])
            if w is None:
                missing.append(where)
            elif w.lower() != v.lower():
                diffs.append("%s: lsusb %s, ours %s" % (where, v, w))
            else:
                equal += 1
    return len(ld), total, equal, diffs, missing


def check_late(path, rc, err, ours):
    if not os.path.exists(path) or rc != "exit 0":
        report(False, "second capture (after enumeration) ran and stopped "
               "(%s)" % rc, err.splitlines())
        return
    try:
        late, _ = read_pcapng(path)
    except (ValueError, struct.error, IndexError) as e:
        report(False, "second capture is a well-formed pcapng (%s)" % e)
        return
    synth = [e for e in late if e.synthetic]
    first_real = next((i for i, e in enumerate(late) if not e.synthetic),
                      len(late))
    # What each device sent at enumeration: GET_DESCRIPTOR completions in
    # the first capture, by (bus, dev, wValue) and length.
    sent = {}
    setups = {}
    for e in ours:
        if e.xfer != 2:
            continue
        if e.type == "S" and e.flag_setup == 0 and e.setup[:2] == b"\x80\x06":
            setups[e.id] = e.setup
        elif e.type == "C" and e.id in setups and e.status == 0:
            st = setups.pop(e.id)
            sent[(e.bus, e.dev, st[2:4], len(e.data))] = e.data
    ssetup = {}
    devs = set()
    n = eq = 0
    bad = []
    for e in synth:
        devs.add((e.bus, e.dev))
        if e.type == "S":
            ssetup[e.id] = e.setup
            continue
        st = ssetup.get(e.id)
        if st is None:
            bad.append("synthetic C without S: id %x" % e.id)
            continue
        n += 1
        want = sent.get((e.bus, e.dev, st[2:4], len(e.data)))
        if want == e.data:
            eq += 1
        else:
            bad.append("%d:%03d descriptor %s: synthetic %s, at "
                       "enumeration %s" % (e.bus, e.dev, st[2:4].hex(),
                                           e.data[:24].hex(),
                                           want[:24].hex() if want else
                                           "none of that length"))
    present = set()
    for line in open(os.path.join(os.path.dirname(path),
                                  "lsusb-short.txt")):
        m = BUSDEV.match(line)
        if m:
            present.add((int(m.group(1)), int(m.group(2))))
    report(n > 0 and eq == n and first_real >= len(synth) and
           devs == present,
           "second capture starts with synthetic descriptors: %d "
           "descriptors of %d devices (lsusb listed %d), %d equal to "
           "what the devices sent" % (n, len(devs), len(present), eq), bad)
    real = late[first_real:]
    j = found = 0
    miss = []
    for e in real:
        k = j
        while k < len(ours) and not (
                ours[k].id == e.id and ours[k].type == e.type and
                ours[k].addr() == e.addr() and ours[k].length == e.length
                and ours[k].status == e.status and ours[k].data == e.data):
            k += 1
        if k < len(ours):
            found += 1
            j = k + 1
        else:
            miss.append("%x %s %s len %d" % (e.id, e.type, e.addr(),
                                             e.length))
    report(real and found == len(real), "second capture's %d bus events all in the "
           "first one, in order (%d found)" % (len(real), found), miss)


def compare_layout(lsusb, ours):
    """Lines of lsusb -v that ours prints too, apart from spacing and the
    names ours adds from usb.ids (lsusb in the guest has no hardware
    database).  Returns (lines, same, differing lines)."""
    def blocks(path):
        d = {}
        cur = None
        for line in open(path, errors="replace"):
            m = BUSDEV.match(line)
            if m:
                cur = d.setdefault(m.group(0), [])
            elif cur is not None and line.strip():
                cur.append(" ".join(line.split()))
        return d
    lb, ob = blocks(lsusb), blocks(ours)
    n = same = 0
    bad = []
    for dev, lines in sorted(lb.items()):
        theirs = ob.get(dev, [])
        j = 0
        for line in lines:
            n += 1
            k = j
            while k < len(theirs) and not (theirs[k] == line or
                                           theirs[k].startswith(line + " ")):
                k += 1
            if k < len(theirs):
                same += 1
                j = k + 1
            else:
                bad.append("%s lsusb: %s" % (dev, line))
    return n, same, bad


def check_errors(share, rd, us):
    for f, want, what in (
            ("err-notloaded.txt", "modprobe usbmon", "usbmon not loaded"),
            ("err-nobus.txt", "no USB bus 7", "no such bus (usbmon7)"),
            ("err-perm.txt", "permission denied", "not root")):
        t = rd(f, "missing")
        report(not t.endswith("exit 0") and want in t,
               "capture error, %s: fails saying '%s'" % (what, want),
               t.splitlines())
    t = rd("capture-D.txt", "missing")
    report(t.endswith("exit 0") and all(w in t for w in (
        "usbmon0", "usbmon1", "46f4:0001", "0627:0001")),
        "capture -D lists usbmon0, usbmon1 and the devices",
        t.splitlines())
    uid = rd("z.uid")
    zf = os.path.join(share, "z.pcapng")
    n = -1
    if os.path.exists(zf):
        rc, so, _ = run([us, "read", zf])
        n = so.count("\n") if rc == 0 else -1
    report(rd("z.rc") == "exit 0" and re.search(r"Uid:\s+65534", uid) and
           n > 0, "capture -Z nobody: ran as %s, %s, file with %d records" %
           (" ".join(uid.split()[1:2]) or "?", rd("z.rc", "?"), n),
           rd("z.err").splitlines())


def check_stdout(share, rd, us, ours):
    """-c 20 -s 100 -B 256 -w -: a pcap on standard output, 20 records
    from the bus, each the first 100 bytes of a record of the main
    capture: the 64-byte header and 36 data bytes at most (the snap length
    counts the header, as in tcpdump; the header's len_cap stays the
    kernel's), through the mmap ring of 256 KiB asked for."""
    path = os.path.join(share, "stdout.pcap")
    st = rd("stdout.rc", "missing")
    try:
        evs = read_pcap(path)
        fmt = open(path, "rb").read(4) in (b"\xd4\xc3\xb2\xa1",
                                             b"\x4d\x3c\xb2\xa1")
    except (OSError, struct.error, IndexError):
        evs, fmt = [], False
    real = [e for e in evs if not e.synthetic]
    j = found = 0
    for e in real:
        k = j
        while k < len(ours) and not (
                ours[k].id == e.id and ours[k].type == e.type and
                ours[k].addr() == e.addr() and
                ours[k].length == e.length and
                ours[k].data[:36] == e.data):
            k += 1
        if k < len(ours):
            found += 1
            j = k + 1
    cut = sum(1 for e in evs if len(e.data) > 36)
    rc, _, se = run([us, "read", path])
    ring = "through the mmap ring of 256 KiB" in rd("stdout.err")
    report(st == "exit 0" and fmt and len(real) == 20 and found == 20 and
           cut == 0 and rc == 0 and ring,
           "capture -c 20 -s 100 -B 256 -w - (stdout): %s, %s, %d records "
           "from the bus (+%d synthetic), %d of them in the main capture "
           "cut at 100 bytes, %d longer, %s" %
           (st, "pcap" if fmt else "not pcap", len(real),
            len(evs) - len(real), found, cut,
            "the 256 KiB ring" if ring else "not the 256 KiB ring"),
           rd("stdout.err").splitlines() + se.splitlines())


TUI_ROW = re.compile(r"^ +(\d+) (\S+) +(\d+\.\d+\.\d+) +(in|out) +([SCE]) +"
                     r"(\w+) +(\S+) +(\d+) ")
TUI_BAR = re.compile(r"^ (\d+)/(\d+) \| (.*\| \d+ URBs \d+ events \d+ errors)")


class TuiScreen:
    """A capture-pane of `urbscope tui -i usbmon0`: the status bar (selected
    position, record count, LIVE rate and drops, FOLLOW) and the rows of
    the timeline."""

    def __init__(self, share, name):
        self.name = name
        try:
            self.text = open(os.path.join(share, "tui-%s.txt" % name),
                             encoding="utf-8", errors="replace").read()
        except OSError:
            self.text = ""
        self.sel = self.total = self.rate = self.dropped = None
        self.follow = False
        self.bar = None
        self.rows = []
        for line in self.text.splitlines():
            if re.match("^[-\u2500] Details", line):
                break
            m = TUI_ROW.match(line)
            if m:
                self.rows.append(m.groups())
        for line in self.text.splitlines():
            m = TUI_BAR.match(line)
            if m:
                self.bar = line.rstrip()
                self.sel, self.total = int(m.group(1)), int(m.group(2))
                self.follow = "| FOLLOW" in line
                lm = re.search(r"\| LIVE (\d+)/s (\d+) dropped", line)
                if lm:
                    self.rate, self.dropped = (int(lm.group(1)),
                                               int(lm.group(2)))

    def lines(self):
        """The screen for a "#" line: the timeline's last rows and the bar."""
        ls = [l.rstrip() for l in self.text.splitlines()]
        if not any(ls):
            return ["tui-%s.txt: no screen" % self.name]
        out = ["tui-%s.txt:" % self.name]
        cut = next((i for i, l in enumerate(ls)
                    if re.match("^[-\u2500] Details", l)), None)
        if cut is None:         # not the TUI's layout: what it shows
            return out + ["  " + l for l in ls if l][:8]
        out += ["  " + l for l in ls[max(1, cut - 4):cut]]
        out += ["  " + l for l in ls if TUI_BAR.match(l)] or \
            ["  (no status bar)"]
        return out


def tui_in_capture(scr, ours, dlen):
    """Whether the record the details pane of SCR shows is, in OURS, the
    completion of a CSW following a data phase of DLEN bytes.  The URB id
    and time name it (the kernel stamps each reader's copy separately, so
    the time is the nearest within 100 ms) and the hex pane's bytes, the
    CSW with its tag, must be its data."""
    m = [re.search(r"URB %s: (\S+)" % f, scr.text)
         for f in ("id", "sec", "usec")]
    hx = re.search(r"^ 0000  ((?:[0-9a-f]{2} )+)", scr.text, re.M)
    if not all(m) or not hx:
        return False, "no URB id, time and bytes in the details and hex"
    uid, sec, usec = int(m[0].group(1), 16), int(m[1].group(1)), \
        int(m[2].group(1))
    data = bytes.fromhex(hx.group(1))
    near = [(abs((e.ts[0] - sec) * 1000000 + e.ts[1] - usec), i)
            for i, e in enumerate(ours) if e.id == uid and e.type == "C"]
    near = [n for n in near if n[0] <= 100000]
    if not near:
        return False, "URB 0x%x at %d.%06d not in it" % (uid, sec, usec)
    dt, i = min(near)
    e = ours[i]
    prev = [p for p in ours[:i] if p.type == "C" and p.ep == e.ep and
            p.dev == e.dev][-1:]
    csw = e.data[:4] == b"USBS"
    ok = bool(e.xfer == 3 and csw and e.data[:len(data)] == data and
              prev and prev[0].length == dlen)
    return ok, "event %d of %d (%d us apart), %s%s, after %s bytes in" % (
        i + 1, len(ours), dt, "the CSW" if csw else "not a CSW",
        " with the bytes shown" if e.data[:len(data)] == data else
        " with other bytes", prev[0].length if prev else "no")


def check_tui(share, rd):
    """The live TUI in a tmux pane (the "PHASE tui" of guest-test.sh)."""
    if os.path.exists(os.path.join(share, "tui.skip")):
        print("skip - tui -i usbmon0: %s" % rd("tui.skip"))
        return
    sc = {n: TuiScreen(share, n) for n in ("live", "before", "during",
                                           "after", "k", "k-more", "G",
                                           "quit")}
    err = rd("tui.err")
    errs = ["stderr: " + l for l in err.splitlines()] + \
        ["tmux: " + l for l in rd("tui-tmux.err").splitlines()]
    live, before, during, after = (sc["live"], sc["before"], sc["during"],
                                   sc["after"])
    k, kmore, g = sc["k"], sc["k-more"], sc["G"]
    try:
        ours = [e for e in read_pcapng(os.path.join(share, "cap.pcapng"))[0]
                if not e.synthetic]
    except (OSError, ValueError, struct.error, IndexError):
        ours = []

    report(live.rate is not None and live.follow,
           "tui -i usbmon0 in tmux: status bar shows LIVE and FOLLOW "
           "(%s records at start)" % live.total, live.lines() + errs)

    # 300 READ(10)s of 4 KiB: CBW, data and CSW, each submitted and
    # completed; nothing else moves on the bus meanwhile, so exactly.
    want = 6 * 300
    new = (after.total or 0) - (before.total or 0)
    report(before.total is not None and after.total is not None and
           during.rate is not None and during.rate > 0 and new == want,
           "tui: records arrive while the disk is read: %s before, %s "
           "during (LIVE %s/s), %s after (+%d, %d READ(10)s make %d)" %
           (before.total, during.total, during.rate, after.total, new,
            want // 6, want),
           before.lines() + during.lines() + after.lines())

    seen = [s for s in sc.values() if s.name != "quit"]
    drops = [s.dropped for s in seen]
    report(all(d == 0 for d in drops),
           "tui: status bar says 0 dropped on all %d live screens (%s)" %
           (len(seen), ", ".join(str(d) for d in drops)),
           ["%s: %s" % (s.name, s.bar) for s in seen])

    # follow: the selection is the newest record and the timeline ends
    # with it; those rows are the disk's bulk transfers just made
    last = after.rows
    addrs = sorted(set(r[2].rsplit(".", 1)[0] for r in last))
    lens = sorted(set(int(r[7]) for r in last))
    ok = bool(after.follow and after.sel == after.total and last and
          int(last[-1][0]) == after.total and
          all(int(r[0]) > (before.total or 0) for r in last) and
          all(r[5] == "bulk" for r in last) and len(addrs) == 1 and
          set(lens) <= {13, 31, 4096} and
          "55 53 42 53" in after.text)
    report(ok, "tui: following, the screen ends at the newest record "
           "(%s/%s); its %d rows are the new bulk transfers of device %s "
           "(lengths %s), the last one the CSW" %
           (after.sel, after.total, len(last), ",".join(addrs),
            ",".join(str(x) for x in lens)), after.lines())

    # The selected record's details name its URB id and time: the same
    # event in our main capture must be the CSW of the last read made.
    for scr, dlen in ((after, 4096), (g, 65536)):
        ok, fig = tui_in_capture(scr, ours, dlen)
        report(ok, "tui: the selected record on the %s screen is in the "
               "main capture: %s" % (scr.name, fig), scr.lines())

    report(k.bar is not None and not k.follow and k.sel is not None and
           k.sel == k.total - 1,
           "tui: k moves up and stops following (%s/%s, FOLLOW %s)" %
           (k.sel, k.total, "shown" if k.follow else "gone"), k.lines())
    report(kmore.sel is not None and kmore.sel == k.sel and
           not kmore.follow and (kmore.total or 0) == (k.total or 0) + 12,
           "tui: not following, the selection stays while the 12 records "
           "of 2 reads arrive (%s/%s, then %s/%s)" %
           (k.sel, k.total, kmore.sel, kmore.total),
           k.lines() + kmore.lines())
    glast = g.rows[-6:]
    report(g.follow and g.sel is not None and g.sel == g.total and
           g.total >= (kmore.total or 0) and g.rows and
           int(g.rows[-1][0]) == g.total and
           any(r[5] == "bulk" and r[7] == "65536" for r in glast),
           "tui: G follows again: %s/%s, the 64 KiB reads on screen" %
           (g.sel, g.total), g.lines())

    term = rd("tui-term.txt")
    quit_bar = any(TUI_BAR.match(l) for l in sc["quit"].text.splitlines())
    report(rd("tui.exit") == "TUI-EXIT=0" and err == "",
           "tui: q quits with status 0 and nothing on stderr (%s)" %
           (rd("tui.exit") or "no exit status"), errs + sc["quit"].lines())
    report(term == "alternate_on=0 cursor_flag=1 mouse_any_flag=0" and
           not quit_bar and "TUI-EXIT" in sc["quit"].text,
           "tui: the terminal is given back after q (%s)" % term,
           sc["quit"].lines())
    spool = rd("tui-spool.txt")
    report(spool.startswith("urbscope-spool-") and
           rd("tui-spool-after.txt", "missing") == "",
           "tui: live input spooled to $TMPDIR (%s), removed at exit (%s)" %
           (spool or "nothing", rd("tui-spool-after.txt", "missing") or
            "empty"))


def run(cmd):
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE)
    except OSError as e:
        return 127, "", "%s: %s" % (cmd[0], e)
    return p.returncode, p.stdout.decode(errors="replace"), \
        p.stderr.decode(errors="replace")


def check_capture(out, us, share, rd, kind):
    """Checks 1 to 8; returns early when there is no capture to check."""
    capfile = os.path.join(share, "raw.bin" if kind == "raw" else
                           "cap.pcapng")
    caperr = rd("capture.err")
    caprc = rd("capture.rc", "missing")

    # 1. The capture ran, stopped on SIGINT and its file decodes.
    if kind == "raw":
        print("# stand-in capture: cat /dev/usbmon0 (CAPTURE=raw)")
    else:
        report(caprc == "exit 0" and os.path.exists(capfile),
               "urbscope capture ran and stopped on SIGINT (%s)" % caprc,
               caperr.splitlines())
    if not os.path.exists(capfile) or os.path.getsize(capfile) == 0:
        report(False, "urbscope capture failed: %s" %
               (caperr.replace("\n", " ") or "no file"))
        return
    rc, so, se = run([us, "read", capfile])
    nrec = so.count("\n")
    report(rc == 0, "urbscope read decodes our capture (%d records, exit "
           "%d)" % (nrec, rc), se.splitlines())
    isbs = []
    if kind == "raw":
        ours_all = read_raw(capfile)
    else:
        try:
            ours_all, isbs = read_pcapng(capfile)
        except (ValueError, struct.error, IndexError) as e:
            report(False, "our capture is a well-formed pcapng (%s)" % e)
            return
    synth = [e for e in ours_all if e.synthetic]
    ours = [e for e in ours_all if not e.synthetic]
    print("# our capture: %d events (%d synthetic from sysfs)" %
          (len(ours_all), len(synth)))

    # 2. Every event of the kernel's text record, in ours, in order.
    text = read_text(os.path.join(share, "0u.txt"))
    found, equal, diffs, missing, extra = compare_text(text, ours)
    report(text and found == len(text) and equal == found,
           "kernel text record in our capture: %d events, %d found in "
           "order, %d equal (id, type, address, setup/status, length, "
           "data), %d of ours not in the text" %
           (len(text), found, equal, extra),
           ["missing: " + m for m in missing[:5]] + diffs)
    withdata = sum(1 for t in text if t.data)
    print("# %d text events show data bytes (compared up to 32 each)" %
          withdata)

    # 2b. Every event of the kernel's binary read() stream, in ours, with
    # every header field (the timestamp too: the same clock) and every
    # data byte.
    kb = os.path.join(share, "kernel.bin")
    if kind != "raw":
        kevs = read_raw(kb) if os.path.exists(kb) else []
        found, equal, nbytes, maxdt, diffs, missing = compare_binary(
            kevs, ours)
        report(kevs and found == len(kevs) and equal == found,
               "kernel binary record (read()) in our capture: %d events, "
               "%d found in order, %d equal in every field and byte "
               "(%d data bytes; timestamps within %d us)" %
               (len(kevs), found, equal, nbytes, maxdt),
               ["missing: " + m for m in missing[:5]] + diffs)

    # 2c. The disk's bytes: every READ(10) and WRITE(10) data phase in
    # ours against the disk image the guest read and wrote.
    img = os.path.join(out, "disk.img")
    if os.path.exists(img):
        nio, nbytes, trunc, diffs = compare_disk(ours, open(img, "rb").read())
        report(nio > 0 and not diffs and trunc == 0,
               "disk data in our capture: %d READ/WRITE(10) commands, %d "
               "bytes equal to the disk image, %d bytes not captured" %
               (nio, nbytes, trunc), diffs)

    # 3. urbscope's reading of it in the kernel's own text format.
    rc, so, se = run([us, "read", "-T", "usbmon", capfile])
    lines = [ln.split(None, 2) for ln in so.splitlines()]
    lines = [(a, c) for a, b, c in (x for x in lines if len(x) == 3)
             if (int(a, 16) & SYNTH_ID_MASK) != SYNTH_ID_BASE]
    j = same = 0
    bad = []
    for t in text:
        a, _, c = t.line.split(None, 2)
        k = j
        while k < len(lines) and lines[k] != (a, c):
            k += 1
        if k < len(lines):
            same += 1
            j = k + 1
        else:
            bad.append("kernel: %s" % t.line)
    report(rc == 0 and text and same == len(text),
           "urbscope read -T usbmon prints the kernel's lines: %d of %d "
           "equal (timestamps aside)" % (same, len(text)), bad)

    # 4. QEMU's pcaps: one per device vm.sh and guest-test.sh plug in.
    names = {"kbd", "kbd-replug", "storage", "tablet"}
    for f in os.listdir(out):
        m = re.match(r"qemu-usb-(.*)\.pcap$", f)
        if m:
            names.add(m.group(1))
    for name in sorted(names):
        path = os.path.join(out, "qemu-usb-%s.pcap" % name)
        try:
            qevs = read_pcap(path)
        except (OSError, struct.error):
            qevs = []
        if not qevs:
            report(False, "QEMU's pcap of %s: missing or empty" % name)
            continue
        ok, fig, det = compare_qemu(qevs, ours, name)
        report(ok, "QEMU's pcap of %s" % fig, det)

    # 5. Drops: zero, and said to be zero.
    if kind != "raw":
        m = re.search(r"(\d+) records captured(?: \(\+\d+ synthetic[^)]*\))?, (\d+) dropped", caperr)
        said = int(m.group(2)) if m else None
        isb_drop = None
        for o in isbs:
            if 5 in o:
                isb_drop = (isb_drop or 0) + struct.unpack("<Q", o[5])[0]
        report(said == 0 and isb_drop == 0,
               "drops: summary line says %s, pcapng statistics %s" %
               (said, isb_drop), [] if m else ["no summary line: " + caperr])
        if m:
            report(int(m.group(1)) == len(ours),
                   "summary line counts %s records, the file holds %d "
                   "from the bus" % (m.group(1), len(ours)))

    # 6. The capture started after enumeration: synthetic descriptor
    # records first, equal to what the devices sent at enumeration, then
    # only events the first capture holds too.
    lp = os.path.join(share, "late.pcapng")
    if kind != "raw":
        check_late(lp, rd("late.rc", "missing"), rd("late.err"), ours)

    # 7. Live capture's other paths on the real kernel: the errors a user
    # meets (each message says the fix), -D, -Z.
    if kind != "raw":
        check_errors(share, rd, us)
        check_stdout(share, rd, us, ours)

    # 8. urbscope devices -v against lsusb -v.
    lp = os.path.join(share, "lsusb.txt")
    dp = os.path.join(share, "devices.txt")
    if rd("lsusb.rc") != "0" or not os.path.getsize(lp):
        report(False, "devices: lsusb -v in the guest (exit %s)" %
               rd("lsusb.rc", "missing"), rd("lsusb.err").splitlines())
    else:
        ndev, total, eq, diffs, missing = compare_devices(lp, dp)
        report(rd("devices.rc") == "0" and total > 0 and eq == total,
               "urbscope devices -v against lsusb -v: %d devices, %d "
               "descriptor fields, %d equal, %d differ, %d missing" %
               (ndev, total, eq, len(diffs), len(missing)),
               (["exit %s: %s" % (rd("devices.rc"), rd("devices.err"))]
                if rd("devices.rc") != "0" else []) + diffs +
               ["missing: " + m for m in missing])
        n, same, bad = compare_layout(lp, dp)
        print("# layout: %d of lsusb's %d lines printed alike by urbscope "
              "devices -v (spacing and usb.ids names aside)" % (same, n))
        for b in bad[:10]:
            print("#   %s" % b)


def main():
    out = sys.argv[1]
    us = sys.argv[2] if len(sys.argv) > 2 else "./urbscope"
    share = os.path.join(out, "share")

    def rd(name, default=""):
        try:
            return open(os.path.join(share, name)).read().strip()
        except OSError:
            return default

    kind = rd("capture.kind", "urbscope")
    check_capture(out, us, share, rd, kind)
    if kind != "raw":           # CAPTURE=raw has no TUI phase
        check_tui(share, rd)
    sys.exit(0 if results and all(results) else 1)


if __name__ == "__main__":
    main()
