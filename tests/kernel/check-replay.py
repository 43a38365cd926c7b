#!/usr/bin/env python3
"""tests/kernel/check-replay.py OUTDIR - the checks of the replay test
(tests/kernel/guest-replay.sh): a capture of QEMU's keyboard (plugged
again, its enumeration recorded) and disk (read at sectors 0 and 2048)
replayed by `urbscope replay` and by the C programs `urbscope export
--format c` wrote, to the same devices (nothing diverges) and to devices
that differ (a keyboard with another serial number, a disk with other
bytes at sectors 9 and 2060: exactly those records diverge); and a
CDC-ACM gadget on dummy_hcd that echoes, as recorded.  What should
diverge is read from the capture here, with check.py's own pcapng reader,
not with urbscope.  Prints "ok - " / "not ok - " lines (n_replay in
run.sh)."""
import os
import re
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from check import read_pcapng, report, results  # noqa: E402

# The sectors disk2.img changes (tests/kernel/vm.sh).
CHANGED = (9, 2060)
CANCELLED = (-2, -104, -108)        # -ENOENT -ECONNRESET -ESHUTDOWN


def read(share, name):
    try:
        with open(os.path.join(share, name), errors="replace") as f:
            return f.read()
    except OSError:
        return ""


def rc(share, name):
    return read(share, name + ".rc").strip()


def diverged(text):
    """The records a replay's or a program's output says diverged."""
    return sorted({int(m) for m in re.findall(r"^record (\d+): ", text,
                                              re.M)})


def transfers(evs, bus, dev):
    """(number of the submission, submission, completion) of each
    transfer of bus.dev that completed, in completion order (the pairing:
    the oldest pending submission of the same URB id)."""
    pend, done = {}, []
    for n, e in enumerate(evs, 1):
        if e.synthetic or e.bus != bus or e.dev != dev:
            continue
        if e.type == "S":
            pend.setdefault(e.id, []).append((n, e))
        elif e.type in "CE" and pend.get(e.id):
            sn, s = pend[e.id].pop(0)
            done.append((sn, s, e))
    return done


def is_std(s, req, rt=0x00):
    return s.xfer == 2 and s.setup[0] == rt and s.setup[1] == req


def sent(xs):
    """What replay sends of transfers(): every completed transfer but
    SET_ADDRESS, SET_CONFIGURATION and cancelled ones."""
    return [sn for sn, s, c in xs
            if not is_std(s, 5) and not is_std(s, 9) and
            c.status not in CANCELLED]


def main():
    out = sys.argv[1]
    share = os.path.join(out, "share")
    m = re.search(r"kbd (\d+)\.(\d+) disk (\d+)\.(\d+)",
                  read(share, "addr.txt"))
    evs = []
    try:
        evs, _ = read_pcapng(os.path.join(share, "cap.pcapng"))
    except (OSError, ValueError) as e:
        print("# cap.pcapng: %s" % e)
    kbd = (int(m.group(1)), int(m.group(2))) if m else (0, 0)
    disk = (int(m.group(3)), int(m.group(4))) if m else (0, 0)
    kx = transfers(evs, *kbd)
    dx = transfers(evs, *disk)
    # the keyboard's enumeration and the disk's READ(10)s are there
    reads = [s for _, s, _ in dx if s.xfer == 3 and len(s.data) == 31 and
             s.data[:4] == b"USBC" and s.data[15] == 0x28]
    report(m is not None and "exit 0" in read(share, "cap.rc") and
           any(is_std(s, 9) for _, s, _ in kx) and len(reads) == 4,
           "replay: the capture holds the keyboard's enumeration and the "
           "disk's four READ(10)s", ["addr.txt: %r" % read(share, "addr.txt"),
                                     "cap.rc: %r" % read(share, "cap.rc"),
                                     "keyboard transfers %d, reads %d" %
                                     (len(kx), len(reads))])

    ksent, dsent = sent(kx), sent(dx)
    dry = read(share, "kbd-dry.txt")
    dry_sent = [int(n) for n in re.findall(r"^record (\d+): send ", dry,
                                           re.M)]
    report(rc(share, "kbd-dry") == "0" and dry_sent == ksent and
           re.search(r"SET_CONFIGURATION 1: not sent when the device is in "
                     r"configuration 1 already", dry),
           "replay --dry-run: the keyboard's transfers to send, "
           "SET_CONFIGURATION not", ["sent %s, expected %s" %
                                     (dry_sent, ksent)] + dry.split("\n"))
    report(rc(share, "disk-busy") == "3" and
           "--detach" in read(share, "disk-busy.err"),
           "replay: an interface bound to usb-storage without --detach: "
           "exit 3, said", [rc(share, "disk-busy"),
                            read(share, "disk-busy.err")])
    for name, xs in (("kbd", ksent), ("disk", dsent)):
        t = read(share, name + "-same.txt")
        report(rc(share, name + "-same") == "0" and
               re.search(r"^%d sent: %d as recorded, 0 diverged" %
                         (len(xs), len(xs)), t, re.M) is not None,
               "replay to the same %s: %d transfers, as recorded" %
               ({"kbd": "keyboard", "disk": "disk"}[name], len(xs)),
               t.split("\n"))
    # to the tablet: the LED report (SET_REPORT) stalled, said, and the
    # replay went on to its end
    t = read(share, "kbd-tablet.txt")
    leds = [sn for sn, s, c in kx if s.xfer == 2 and s.setup[0] == 0x21 and
            s.setup[1] == 0x09]
    report(rc(share, "kbd-tablet") == "1" and len(leds) >= 1 and
           all(re.search(r"^record %d: SET_REPORT .*: a stall, recorded "
                         r"done$" % n, t, re.M) for n in leds) and
           re.search(r"^%d sent: \d+ as recorded, \d+ diverged" %
                     len(ksent), t, re.M) is not None,
           "replay -s to QEMU's tablet (the keyboard's IDs): its stall of "
           "the %d SET_REPORT said, the replay to its end" % len(leds),
           t.split("\n"))
    report("sda yes kbd yes" in read(share, "bound.txt"),
           "replay --detach: usb-storage and usbhid bound again after it",
           [read(share, "bound.txt")])
    report(os.path.exists(os.path.join(share, "kbd")) and
           os.path.exists(os.path.join(share, "disk")) and
           "-Werror" in read(share, "disk.build.txt"),
           "export --format c: both programs built with -Wall -Wextra "
           "-Werror against libusb", [read(share, "kbd.build.txt"),
                                      read(share, "disk.build.txt")])
    for name in ("kbd", "disk"):
        t = read(share, name + "-c-same.txt")
        report(rc(share, name + "-c-same") == "0" and
               t.strip().endswith("0 divergences"),
               "the generated C program to the same %s: 0 divergences" %
               name, t.split("\n"))

    # the keyboard that differs: its serial number string, wherever the
    # capture asked for it; the program has no enumeration
    kdesc = [c for sn, s, c in kx if is_std(s, 6, 0x80) and
             s.setup[3] == 1 and len(c.data) >= 18]
    iserial = kdesc[0].data[16] if kdesc else -1
    kwant = [sn for sn, s, c in kx if is_std(s, 6, 0x80) and
             s.setup[3] == 3 and s.setup[2] == iserial]
    kconf = min([sn for sn, s, c in kx if is_std(s, 9)] or [0])
    t = read(share, "kbd-differ.txt")
    report(rc(share, "kbd-differ") == "1" and iserial > 0 and
           len(kwant) >= 1 and diverged(t) == kwant,
           "replay to a keyboard with another serial number: exactly "
           "the %d GET_DESCRIPTOR(STRING %d) diverge" % (len(kwant), iserial),
           ["diverged %s, expected %s" % (diverged(t), kwant)] +
           t.split("\n"))
    t = read(share, "kbd-c-differ.txt")
    want = [n for n in kwant if n > kconf]
    report(rc(share, "kbd-c-differ") == "1" and want and
           diverged(t) == want,
           "the C program to that keyboard: exactly its serial number "
           "asked after SET_CONFIGURATION", ["diverged %s, expected %s" %
                                              (diverged(t), want)] +
           t.split("\n"))

    # the disk that differs: the data of the READ(10)s over the sectors
    # disk2.img changes
    dwant, offs, cur = [], [], None
    for sn, s, c in dx:
        if s.xfer == 3 and len(s.data) == 31 and s.data[:4] == b"USBC":
            cur = struct.unpack(">IxH", s.data[15 + 2:15 + 9])
        elif s.xfer == 3 and s.ep & 0x80 and cur and c.length > 13:
            lba, n = cur
            hit = [x for x in CHANGED if lba <= x < lba + n]
            if hit:
                dwant.append(sn)
                offs += [(x - lba) * 512 for x in hit]
    t = read(share, "disk-differ.txt")
    rows = ["%04x  got" % (o // 16 * 16) for o in offs]
    report(rc(share, "disk-differ") == "1" and len(dwant) == 2 and
           diverged(t) == dwant and all(r in t for r in rows),
           "replay to a disk with other sectors 9 and 2060: exactly the "
           "two READ(10)s' data diverge, the bytes shown where they differ",
           ["diverged %s, expected %s, rows %s" % (diverged(t), dwant,
                                                   rows)] + t.split("\n"))
    t = read(share, "disk-c-differ.txt")
    report(rc(share, "disk-c-differ") == "1" and diverged(t) == dwant and
           all("byte %d is" % o in t for o in offs),
           "the C program to that disk: the same two records, the first "
           "byte that differs", ["diverged %s, expected %s" %
                                 (diverged(t), dwant)] + t.split("\n"))
    # the CDC-ACM gadget: its control requests and the line through its
    # echo, as recorded (its notifications left out by -Y)
    m = re.search(r"acm (\d+)\.(\d+)", read(share, "addr.txt"))
    try:
        aevs, _ = read_pcapng(os.path.join(share, "acm.pcapng"))
    except (OSError, ValueError):
        aevs = []
    ax = [t for t in transfers(aevs, int(m.group(1)), int(m.group(2)))
          if t[1].xfer != 1] if m else []
    awant = sent(ax)
    t = read(share, "acm-same.txt")
    line = b"through the gadget and back\n"
    report(read(share, "acm-back.txt") == line.decode() and
           any(s.xfer == 3 and s.ep & 0x80 and c.data == line
               for _, s, c in ax) and rc(share, "acm-same") == "0" and
           re.search(r"^%d sent: %d as recorded, 0 diverged" %
                     (len(awant), len(awant)), t, re.M) is not None,
           "replay to a CDC-ACM gadget that echoes: %d transfers (the line "
           "coding, the line out and back), as recorded" % len(awant),
           ["back: %r" % read(share, "acm-back.txt")] + t.split("\n"))
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
