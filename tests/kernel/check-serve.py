#!/usr/bin/env python3
"""tests/kernel/check-serve.py OUTDIR [URBSCOPE] - the checks of the
USB/IP test (tests/kernel/guest-serve.sh): urbscope serve -A attached the
disk and keyboard models to the guest's vhci-hcd, the kernel's
usb-storage and usbhid bound to them and worked, usbmon (and, with
--drivers, the traced USB core) saw it, and the devices went away when
the server stopped.  Prints "ok - " / "not ok - " lines (N_SERVE in
run.sh)."""
import hashlib
import importlib.util
import math
import os
import re
import struct
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from check import (load_check_drivers, read_pcapng, read_raw,  # noqa: E402
                   report, results)

check_drivers = load_check_drivers()
_spec = importlib.util.spec_from_file_location(
    "check_replay", os.path.join(HERE, "check-replay.py"))
check_replay = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(check_replay)

# What the guest typed and wrote (guest-serve.sh).
TEXT = "urbscope"
# linux/input-event-codes.h KEY_*, by letter
KEYS = {"a": 30, "b": 48, "c": 46, "d": 32, "e": 18, "f": 33, "g": 34,
        "h": 35, "i": 23, "j": 36, "k": 37, "l": 38, "m": 50, "n": 49,
        "o": 24, "p": 25, "q": 16, "r": 19, "s": 31, "t": 20, "u": 22,
        "v": 47, "w": 17, "x": 45, "y": 21, "z": 44}


def pattern():
    return b"".join(b"served%09d\n" % i for i in range(16384))


def capture_blocks(path, bus, dev, bs=512):
    """The blocks of a Bulk-Only disk as a usbmon capture (read() bytes of
    /dev/usbmonN) left them: every READ(10) and WRITE(10) that passed, the
    last data seen at each LBA, blocks cut by the capture left out.  The
    oracle of the replayed disk, independent of urbscope's code."""
    img, cur = {}, None
    for e in read_raw(path):
        if e.bus != bus or e.dev != dev or e.xfer != 3:
            continue
        if (e.type == "S" and not e.dir_in and len(e.data) == 31 and
                e.data[:4] == b"USBC"):
            cur = [e.data[15:15 + e.data[14]], b"", True]
        elif cur is None:
            continue
        elif e.type == "S" and not e.dir_in:
            cur[1] += e.data
            cur[2] = cur[2] and len(e.data) == e.length
        elif e.type == "C" and e.dir_in and len(e.data) == 13 and \
                e.data[:4] == b"USBS":
            cdb = cur[0]
            if e.data[12] == 0 and cdb[0] in (0x28, 0x2a):
                lba, n = struct.unpack(">IxH", cdb[2:9])
                for i in range(n):
                    blk = cur[1][i * bs:(i + 1) * bs]
                    if len(blk) == bs:
                        img[lba + i] = blk
            cur = None
        elif e.type == "C" and e.dir_in:
            if len(e.data) < e.length:
                # a cut: what follows is not known
                cur[1] += e.data
                cur[1] = cur[1][:len(cur[1]) // bs * bs]
                cur[2] = False
            elif cur[2]:
                cur[1] += e.data
    return img


def fat_file(img, name):
    """FAT32 (Microsoft FAT spec 1.03): the root directory's file NAME
    (8.3, padded), read through its cluster chain; None if not there."""
    b0 = img.get(0, bytes(512))
    bps, spc, res, nfat = struct.unpack_from("<HBHB", b0, 11)
    spf, root = struct.unpack_from("<I", b0, 36)[0], \
        struct.unpack_from("<I", b0, 44)[0]
    if bps != 512 or spc == 0:
        return None
    first = res + nfat * spf

    def sector(k):
        return img.get(k, bytes(512))

    def fat(c):
        return struct.unpack_from("<I", sector(res + c * 4 // 512),
                                  c * 4 % 512)[0] & 0x0fffffff

    def chain(c):
        while 2 <= c < 0x0ffffff8:
            for k in range(spc):
                yield sector(first + (c - 2) * spc + k)
            c = fat(c)
    d = b"".join(chain(root))
    for i in range(0, len(d), 32):
        e = d[i:i + 32]
        if e[0] == 0:
            break
        if e[:11] == name.encode() and e[11] & 0x18 == 0:
            c = struct.unpack_from("<H", e, 20)[0] << 16 | \
                struct.unpack_from("<H", e, 26)[0]
            return b"".join(chain(c))[:struct.unpack_from("<I", e, 28)[0]]
    return None


def main():
    out = sys.argv[1]
    us = sys.argv[2] if len(sys.argv) > 2 else "./urbscope"
    share = os.path.join(out, "share")

    def rd(name, mode="r"):
        try:
            with open(os.path.join(share, name), mode) as f:
                return f.read()
        except OSError:
            return b"" if "b" in mode else ""

    err = rd("serve.err")
    said = err.splitlines()
    att = [ln for ln in said if re.match(
        r"urbscope: 1-[123] attached to vhci_hcd\.0 port \d+$", ln)]
    det = [ln for ln in said if re.match(
        r"urbscope: 1-[123] detached from vhci_hcd\.0 port \d+$", ln)]
    m = re.search(r"urbscope: (\d+) URBs served$", err, re.M)
    report(rd("serve.rc").strip() == "exit 0" and len(att) == 3 and
           len(det) == 3 and m is not None and int(m.group(1)) > 0,
           "serve: -A attached the disk, the keyboard and the serial "
           "adapter to vhci_hcd, served %s URBs, detached all on SIGINT "
           "(%s)" %
           (m.group(1) if m else "?", rd("serve.rc").strip() or "no exit"),
           said)

    devs = rd("usb-devices.txt")
    report(re.search(r"^\S+ 1209:0002 Simulated Disk$", devs, re.M) and
           re.search(r"^\S+ 1209:0001 Boot Keyboard$", devs, re.M),
           "serve: the kernel enumerated both over USB/IP (1209:0002 "
           "Simulated Disk, 1209:0001 Boot Keyboard)", devs.splitlines())

    md5 = rd("md5.txt").split()
    want = hashlib.md5(pattern()).hexdigest()
    report(len(md5) == 4 and md5[0] == want and md5[2] == want,
           "serve: usb-storage on the served disk: 256 KiB written with "
           "O_DIRECT, read back past the page cache, equal",
           [rd("md5.txt"), rd("dd-write.txt"), rd("dd-read.txt")])

    # struct input_event on a 64-bit kernel: timeval (16), type, code,
    # value; EV_KEY (1) presses (value 1)
    b = rd("keys.bin", "rb")
    codes = [struct.unpack_from("<HHi", b, i + 16) for i in
             range(0, len(b) - 23, 24)]
    pressed = [c for t, c, v in codes if t == 1 and v == 1]
    report(pressed == [KEYS[ch] for ch in TEXT],
           "serve: usbhid on the served keyboard: its text '%s' as %d "
           "evdev key presses, in order" % (TEXT, len(pressed)),
           ["key codes %s, expected %s" % (pressed,
                                             [KEYS[ch] for ch in TEXT])])

    # the vhci bus in the capture: the served disk's data on the wire
    path = os.path.join(share, "serve-cap.pcapng")
    items = check_drivers.read_items(path) if os.path.exists(path) else []
    urbs = [x for k, x in items if k == "urb" and not x.synthetic]
    pat = pattern()
    outs = sum(1 for x in urbs if x.type == "S" and x.xfer == 3 and
               not x.dir_in and x.data and x.data[:15] in pat)
    ins = sum(1 for x in urbs if x.type == "C" and x.xfer == 3 and
              x.dir_in and x.data and x.data[:15] in pat)
    keyrep = sum(1 for x in urbs if x.type == "C" and x.xfer == 1 and
                 x.dir_in and len(x.data) == 8 and any(x.data[2:]))
    evs = [x for k, x in items if k == "event"]
    probes = sorted(set(e.get("driver", "-") for e in evs
                        if e["kind"] == "probe" and
                        e.get("result", "0") == "0"))
    traced = "--drivers" in rd("serve-cap.err") or \
        "traced with eBPF" in rd("serve-cap.err")
    p = subprocess.run([us, "read", path], capture_output=True, text=True)
    report(p.returncode == 0 and outs > 0 and ins > 0 and keyrep >= 8 and
           (not traced or ("usb-storage" in probes and "usbhid" in probes)),
           "serve: usbmon on the vhci bus: %d bulk OUT and %d bulk IN "
           "transfers carrying the pattern, %d key reports; %s" %
           (outs, ins, keyrep, "probes traced: %s" % ", ".join(probes)
            if traced else "(no eBPF: probes not traced)"),
           p.stderr.splitlines() + rd("serve-cap.err").splitlines())

    # the fault on cue: the second READ(10)'s CBW STALLed (-EPIPE on a
    # 31-byte bulk OUT), then usb-storage's recovery: the halt cleared
    # (usb_stor_clear_halt: CLEAR_FEATURE(ENDPOINT_HALT) on 0x02), the
    # transport error handled by a reset (usb_stor_invoke_transport: the
    # port reset, SET_FEATURE(PORT_RESET) on vhci's root hub; or the
    # bulk-only reset, class request 0xff), and the data read back equal
    # all the same
    md5 = rd("md5-fault.txt").split()
    ferr = rd("fault.err")
    report(rd("fault.rc").strip() == "exit 0" and len(md5) == 4 and
           md5[0] == want and md5[2] == want,
           "serve -i: a STALL on the second READ(10)'s CBW, the data read "
           "back equal through usb-storage's error handling",
           ferr.splitlines() + [rd("md5-fault.txt"), rd("dd-read2.txt")])
    stalled = [i for i, x in enumerate(urbs) if x.type == "C" and
               x.xfer == 3 and not x.dir_in and x.status == -32]
    cbws = [x for x in urbs if x.type == "S" and x.xfer == 3 and
            not x.dir_in and len(x.data) == 31 and x.data[:4] == b"USBC"]
    after_stall = urbs[stalled[0]:] if stalled else []
    reset = any(x.type == "S" and x.xfer == 2 and
                (x.setup[:2] == b"\x21\xff" or
                 x.setup[:4] == b"\x23\x03\x04\x00")
                for x in after_stall)
    clear = any(x.type == "S" and x.xfer == 2 and x.setup[:4] ==
                b"\x02\x01\x00\x00" and x.setup[4] == 0x02
                for x in after_stall)
    # with --drivers: usb-storage's own submit of the clear-halt traced
    seq = [(k, x) for k, x in items if k == "event" or not x.synthetic]
    at = next((i for i, (k, x) in enumerate(seq) if k == "urb" and
               x.type == "C" and x.xfer == 3 and x.status == -32), None)
    halt_sub = at is not None and any(
        k == "event" and x["kind"] == "submit" and
        x.get("func", "").startswith("usb_stor_") and
        int(x.get("ep", "-1"), 0) == 0 for k, x in seq[at:at + 8])
    report(len(stalled) == 1 and reset and clear and
           (not traced or halt_sub),
           "serve -i: usbmon saw %d STALLed CBW of %d, then "
           "CLEAR_FEATURE(ENDPOINT_HALT 0x02) %s and a reset (port or "
           "bulk-only) %s%s" %
           (len(stalled), len(cbws), "sent" if clear else "missing",
            "sent" if reset else "missing",
            "; the clear-halt's submit traced in usb_stor_*" if halt_sub
            else ""))

    # the third view: what the devices saw (serve -w), the same bulk-only
    # commands in the same order as usbmon's records of the vhci bus
    def cbws(recs):
        return [(struct.unpack_from("<I", x.data, 4)[0], x.data[15])
                for x in recs if x.type == "S" and x.xfer == 3 and
                not x.dir_in and len(x.data) == 31 and
                x.data[:4] == b"USBC"]
    dpath = os.path.join(share, "served.pcapng")
    dev = [x for k, x in check_drivers.read_items(dpath) if k == "urb"] \
        if os.path.exists(dpath) else []
    # usbmon's of the first serve only: before the fault's STALL
    first = urbs[:stalled[0]] if stalled else urbs
    ucbw, dcbw = cbws(first), cbws(dev)
    report(len(dcbw) > 0 and ucbw[:len(dcbw)] == dcbw,
           "serve -w: the devices' side holds the %d CBWs usbmon saw, "
           "same tags and opcodes in the same order (%d records)" %
           (len(dcbw), len(dev)),
           ["usbmon %s" % ucbw[:8], "device %s" % dcbw[:8]])

    # cdc_acm on the served serial adapter: the text back through its
    # loopback; the line coding it set (SET_LINE_CODING, PSTN 6.3.10: 7
    # bytes, dwDTERate first) and DTR raised (SET_CONTROL_LINE_STATE)
    # reached the model: the devices' side of -w shows them
    rate = [struct.unpack_from("<I", x.data, 0)[0] for x in dev
            if x.type == "S" and x.xfer == 2 and x.setup[:2] == b"\x21\x20"
            and len(x.data) >= 4]
    dtr = [x.setup[2] for x in dev if x.type == "S" and x.xfer == 2 and
           x.setup[:2] == b"\x21\x22"]
    report(rd("acm.txt") == "through cdc_acm and back\n" and
           115200 in rate and any(v & 1 for v in dtr),
           "serve: cdc_acm on the served serial adapter: the text back "
           "through its loopback; line coding %s, DTR %s at the model" %
           ("/".join(str(r) for r in rate) or "none",
            "raised" if any(v & 1 for v in dtr) else "never raised"),
           [repr(rd("acm.txt")), rd("stty.err")])

    # the keyboard replayed from samples/hid-keyboard.pcap: usbhid bound
    # to it and its recorded keys arrived (h e l l o, caps lock)
    b = rd("replay-keys.bin", "rb")
    rk = [c for t, c, v in (struct.unpack_from("<HHi", b, i + 16) for i in
                            range(0, len(b) - 23, 24)) if t == 1 and v == 1]
    want_rk = [KEYS[ch] for ch in "hello"] + [58]  # KEY_CAPSLOCK
    report(rd("replay.rc").strip() == "exit 0" and rk == want_rk,
           "serve replay: samples/hid-keyboard.pcap's keyboard under usbhid: "
           "its recorded keys as %d evdev key presses, in order" % len(rk),
           ["key codes %s, expected %s" % (rk, want_rk)] +
           rd("replay.err").splitlines())

    # urbscope replay to served models: the capture the keyboard model
    # replays (its control requests), a capture of the disk model read
    rr = rd("rr-kbd.txt")
    report(rd("rr-kbd.rc").strip() == "exit 0" and
           re.search(r"^12 sent: 12 as recorded, 0 diverged", rr, re.M),
           "replay: samples/hid-keyboard.pcap's control requests made to "
           "the model replaying it, as recorded",
           rr.splitlines() + rd("rr-kbd.err").splitlines())
    rr = rd("rr-disk.txt")
    m = re.search(r"^(\d+) sent: (\d+) as recorded, 0 diverged", rr, re.M)
    report(rd("rr-disk.rc").strip() == "exit 0" and m is not None and
           int(m.group(1)) >= 9 and m.group(1) == m.group(2) and
           "/dev/sda back" in rr,
           "replay: a capture of the disk model's reads made again to it, "
           "as recorded, usb-storage bound again after",
           rr.splitlines() + rd("rr-disk.err").splitlines() +
           rd("rr-cap.err").splitlines())

    # a device that stops answering and goes away mid-replay
    t = rd("rr-gone.txt")
    m = re.match(r"exit (\d+) after (\d+) s", rd("rr-gone.rc"))
    report(m is not None and m.group(1) == "1" and int(m.group(2)) < 30 and
           re.search(r"^record \d+: .*: no answer \(timed out\), "
                     r"recorded 8 bytes$", t, re.M) is not None and
           re.search(r"^the device went away at record \d+: \d+ of 25 "
                     r"transfers not made$", t, re.M) is not None,
           "replay: a keyboard that sends no report and is pulled out: "
           "its reports time out, the replay says where the device went "
           "and ends (%s)" % rd("rr-gone.rc").strip(),
           t.splitlines() + rd("rr-gone.err").splitlines())

    # isochronous: a capture of a tone to the speaker model made again to
    # it (OUT), samples/uvc-webcam.pcapng made again to the model
    # replaying it (IN, the video's packets checked one by one)
    for name, path, what in (
            ("rr-spk", os.path.join(out, "share", "rr-spk.pcapng"),
             "a capture of a tone to the speaker model made again to it "
             "(isochronous OUT)"),
            ("rr-cam", os.path.join(HERE, "..", "..", "samples",
                                    "uvc-webcam.pcapng"),
             "samples/uvc-webcam.pcapng made again to the model replaying "
             "it (isochronous IN, packet by packet)")):
        try:
            revs, _ = read_pcapng(path)
        except (OSError, ValueError):
            revs = []
        dev = max(((e.bus, e.dev) for e in revs if not e.synthetic and
                   e.xfer == 0), default=(0, 0))
        want = len(check_replay.sent(check_replay.transfers(revs, *dev)))
        niso = sum(1 for e in revs if (e.bus, e.dev) == dev and
                   e.xfer == 0 and e.type == "C" and
                   e.status not in check_replay.CANCELLED)
        t = rd(name + ".txt")
        report(rd(name + ".rc").strip() == "exit 0" and niso > 0 and
               re.search(r"^%d sent: %d as recorded, 0 diverged" %
                         (want, want), t, re.M) is not None,
               "replay: %s: %d transfers (%d isochronous), as recorded" %
               (what, want, niso), t.splitlines() +
               rd(name + ".err").splitlines())

    # a disk replayed from tests/data/linux61's capture: usb-storage bound
    # it, vfat mounted it and its files are the capture's; the blocks
    # read past the page cache are the capture's last data at each LBA,
    # zeros where it has none; what the replay said diverged is only
    # reads of those blocks
    cap = os.path.join(HERE, "..", "data", "linux61", "usbmon0.bin")
    img = capture_blocks(cap, 1, 2) if os.path.exists(cap) else {}
    hello, pat = fat_file(img, "HELLO   TXT"), fat_file(img, "PATTERN BIN")
    ls = rd("rd-ls.txt").split()
    report(rd("rd-mount.txt").startswith("exit 0") and
           sorted(ls) == ["HELLO.TXT", "PATTERN.BIN"] and
           hello is not None and rd("rd-hello.txt", "rb") == hello and
           pat is not None and len(pat) == 16384 and
           rd("rd-pattern.bin", "rb") == pat,
           "serve replay disk: tests/data/linux61/usbmon0.bin's disk (1.2) "
           "under usb-storage, mounted (vfat): hello.txt %r and "
           "pattern.bin (%s bytes) as the capture wrote them" %
           (rd("rd-hello.txt", "rb")[:40], len(rd("rd-pattern.bin", "rb"))),
           ["mount: " + rd("rd-mount.txt").strip(), "ls: %s" % ls,
            "expected hello.txt %r, pattern.bin %s bytes" %
            (hello, len(pat) if pat else None)] +
           rd("replay-disk.err").splitlines()[-10:])
    head = rd("rd-head.bin", "rb")
    want = b"".join(img.get(i, bytes(512)) for i in range(300))
    known = sum(1 for i in range(300) if i in img)
    notes = [ln for ln in rd("replay-disk.err").splitlines()
             if " replay: SCSI " in ln]
    other = [ln for ln in notes if not re.search(
        r"replay: SCSI 28 .*\(lba (\d+), (\d+) blocks\): \d+ of them not "
        r"in the recording: zeros$", ln)]
    bad_zero = [ln for ln in notes if ln not in other and all(
        int(m.group(1)) + k in img for m in [re.search(
            r"\(lba (\d+), (\d+) blocks\)", ln)]
        for k in range(int(m.group(2))))]
    report(len(head) == len(want) and head == want and not other and
           not bad_zero and rd("replay-disk.rc").strip() == "exit 0",
           "serve replay disk: blocks 0-299 read with O_DIRECT are the "
           "capture's (%d of them recorded, the rest zeros); its %d "
           "divergences all reads of blocks the capture never saw" %
           (known, len(notes)),
           ["%d bytes, first difference at %s" % (len(head), next(
               (i for i in range(min(len(head), len(want)))
                if head[i] != want[i]), "-"))] + other + bad_zero)

    # a delay past the SCSI command timeout: the kernel's abort arrives
    # as CMD_UNLINK (the devices' side: the CBW's C with -ECONNRESET),
    # usbmon shows that URB back unlinked, and the write goes through
    tpath = os.path.join(share, "timeout.pcapng")
    tdev = [x for k, x in check_drivers.read_items(tpath) if k == "urb"] \
        if os.path.exists(tpath) else []
    unlinked = [x for x in tdev if x.type == "C" and x.xfer == 3 and
                not x.dir_in and x.status == -104]
    wcbw = max((i for i, x in enumerate(urbs) if x.type == "S" and
                x.xfer == 3 and not x.dir_in and len(x.data) == 31 and
                x.data[:4] == b"USBC" and x.data[15] == 0x2a), default=None)
    hostunl = sorted(set(x.status for x in urbs if x.type == "C" and
                         x.xfer == 3 and not x.dir_in and
                         x.status in (-2, -104)))
    tdd = rd("timeout-dd.txt")
    report(rd("timeout.rc").strip() == "exit 0" and len(unlinked) >= 1 and
           hostunl and "dd exit 0" in tdd and wcbw is not None,
           "serve -i delay: the WRITE(10)'s CBW 5 s late, past the 2 s "
           "SCSI timeout: %d CMD_UNLINKs answered -ECONNRESET, usbmon's "
           "bulk OUT back %s, the write done in the end" %
           (len(unlinked), "/".join(str(v) for v in hostunl) or "never"),
           rd("timeout.err").splitlines() + tdd.splitlines())

    # the disk gone mid-transfer: the server says so and ends the
    # connection, usb-storage's bulk IN comes back with an error (vhci
    # gives its URBs back when the connection goes), the read fails, the
    # block device goes, usb-storage's disconnect traced (with --drivers)
    uerr = rd("unplug.err")
    udd = rd("unplug-dd.txt")
    last_cbw = max((i for i, x in enumerate(urbs) if x.type == "S" and
                    x.xfer == 3 and not x.dir_in and len(x.data) == 31 and
                    x.data[:4] == b"USBC" and x.data[15] == 0x28),
                   default=None)
    failed = [x.status for x in (urbs[last_cbw:] if last_cbw else [])
              if x.type == "C" and x.xfer == 3 and x.dir_in and
              x.status < 0]
    gone = [e for e in evs if e["kind"] == "disconnect" and
            e.get("driver") in ("usb-storage", "usb_storage")]
    report("urbscope: 1-1 disconnected (the injected fault)" in uerr and
           rd("unplug.rc").strip() == "exit 0" and failed and
           "dd exit 0" not in udd and "still there" not in udd and
           (not traced or len(gone) >= 1),
           "serve -i disconnect: the disk gone five packets into its first "
           "READ(10) (the partition scan's): its bulk IN back with %s, "
           "reads fail, /dev/sda gone%s" %
           (", ".join(str(v) for v in sorted(set(failed))) or "no error",
            ", usb-storage's disconnect traced" if gone else ""),
           uerr.splitlines() + udd.splitlines())

    # snd-usb-audio on the served speaker (UAC 2.0, isochronous OUT over
    # USB/IP): the tone classes-tool played (frame k of both channels
    # (short)(8000 * sin(2 pi k / 48)), 48 kHz S16_LE stereo) is what the
    # model got, frame for frame, after the streaming alternate setting
    # and at the clock's rate (the CUR of its sampling frequency, set or
    # read, UAC 2.0 5.2.5.1: 48000)
    def iso_out(path):
        """The payloads of the isochronous OUT S records, in order."""
        data = b""
        if not os.path.exists(path):
            return data
        for btype, body, end, lts in check_drivers.pcapng_blocks(path):
            if btype != 6:
                continue
            ifc, _, _, caplen, _ = struct.unpack_from(end + "IIIII", body, 0)
            pkt = body[20:20 + caplen]
            if lts[ifc] != 220 or len(pkt) < 64 or pkt[8:10] != b"S\x00" \
                    or pkt[10] & 0x80:
                continue
            nd = struct.unpack_from("<I", pkt, 60)[0]
            buf = pkt[64 + 16 * nd:]
            for i in range(nd):
                _, off, ln, _ = struct.unpack_from("<iIII", pkt, 64 + 16 * i)
                data += buf[off:off + ln]
        return data
    apath = os.path.join(share, "audio.pcapng")
    pcm = iso_out(apath)
    frames = [struct.unpack_from("<hh", pcm, i) for i in
              range(0, len(pcm) - 3, 4)]
    tone = [int(8000 * math.sin(2 * math.pi * k / 48)) for k in range(48)]
    # at the phase the first frames have (silence before them is a miss)
    good = max(sum(1 for k, (lf, rt) in enumerate(frames)
                   if lf == rt and abs(lf - tone[(k + ph) % 48]) <= 1)
               for ph in range(48))
    adev = [x for k, x in check_drivers.read_items(apath) if k == "urb"] \
        if os.path.exists(apath) else []
    alt = any(x.type == "S" and x.xfer == 2 and
              x.setup == b"\x01\x0b\x01\x00\x01\x00\x00\x00" for x in adev)
    # the clock's CUR of sampling frequency: set (0x21), or read (0xa1,
    # its answer in the C record of the same URB)
    gets = set(x.id for x in adev if x.type == "S" and x.xfer == 2 and
               x.setup[:6] == b"\xa1\x01\x00\x01\x00\x10")
    rates = [struct.unpack_from("<I", x.data, 0)[0] for x in adev
             if x.xfer == 2 and len(x.data) == 4 and
             ((x.type == "S" and x.setup[:6] == b"\x21\x01\x00\x01\x00\x10")
              or (x.type == "C" and x.id in gets))]
    tt = rd("tone.txt")
    report(rd("audio.rc").strip() == "exit 0" and "tone exit 0" in tt and
           alt and 48000 in rates and len(frames) >= 19200 and
           good >= len(frames) - 48,
           "serve: snd-usb-audio on the served speaker: %d of %d frames "
           "the model got over isochronous OUT are the tone played, "
           "48 kHz S16_LE stereo (alternate setting 1 %s, clock %s)" %
           (good, len(frames), "set" if alt else "never set",
            "/".join(str(r) for r in sorted(set(rates))) or "never read"),
           tt.splitlines() + rd("audio.err").splitlines())

    # serve -s: the scenario's devices over time.  The game pad under
    # usbhid: its script as evdev events (linux/input-event-codes.h:
    # BTN_GAMEPAD 0x130 + button - 1, ABS_X 0, ABS_Y 1, ABS_HAT0X 0x10,
    # KEY_VOLUMEUP 115, KEY_VOLUMEDOWN 114, KEY_MUTE 113; hid-input.c
    # maps the hat's null state to 0)
    serr = rd("scenario.err")
    order = [ln.split()[-1] for ln in serr.splitlines() if re.search(
        r"(plugged: \S+|unplugged|scenario \S+ done)$", ln)]
    report(rd("scenario.rc").strip() == "exit 0" and
           order == ["gamepad", "unplugged", "keyboard", "done"],
           "serve -s: the scenario plugged a game pad, unplugged it, "
           "plugged a keyboard, and its end ended the server (%s)" %
           (rd("scenario.rc").strip() or "no exit"), serr.splitlines())
    gp = []
    for i in range(4):
        b = rd("gp-%d.bin" % i, "rb")
        gp += [struct.unpack_from("<qqHHi", b, k) for k in
               range(0, len(b) - 23, 24)]
    gp.sort(key=lambda e: (e[0], e[1]))
    keys = [c for _, _, t, c, v in gp if t == 1 and v == 1]
    axes = {a: [v for _, _, t, c, v in gp if t == 3 and c == a]
            for a in (0, 1, 0x10)}
    want_keys = [0x130, 0x132, 0x137, 115, 114, 113]
    want_axes = {0: [-100, 127, 0], 1: [40, -127, 0], 0x10: [1, 0, -1, 0]}
    report(keys == want_keys and axes == want_axes,
           "serve -s: usbhid on the served game pad: buttons 1, 3, 8 and "
           "volume up, down, mute as %d evdev key presses, X, Y and the "
           "hat as its axes moved, in order" % len(keys),
           ["keys %s, expected %s" % (keys, want_keys),
            "axes %s, expected %s" % (axes, want_axes)] +
           rd("gp-nodes.txt").splitlines())
    # babble and transaction errors on its interrupt IN, as vhci-hcd gave
    # them to usbhid: -EOVERFLOW (hid_irq_in warns and resubmits), then
    # -EPROTO (hid_io_error: the IN restarted after its retry delay); the
    # unplug: the pending IN back with an error, usbhid's disconnect
    # the game pad: the device whose device descriptor (an 18-byte
    # control IN answer, bDescriptorType 1) says 1209:0007, once it has
    # its address
    gpdev = next(((x.bus, x.dev) for x in urbs if x.type == "C" and
                  x.xfer == 2 and x.dev != 0 and len(x.data) == 18 and
                  x.data[1] == 1 and
                  x.data[8:12] == b"\x09\x12\x07\x00"), None)
    gin = [x for x in urbs if (x.bus, x.dev) == gpdev and x.xfer == 1 and
           x.dir_in]
    sts = [x.status for x in gin if x.type == "C" and x.status != 0]
    after = {}
    for code in (-75, -71):
        at = next((i for i, x in enumerate(gin) if x.type == "C" and
                   x.status == code), None)
        after[code] = at is not None and any(x.type == "S" for x in
                                             gin[at + 1:])
    gone = [e for e in evs if e["kind"] == "disconnect" and
            e.get("driver") == "usbhid"]
    report(gpdev is not None and sts[:2] == [-75, -71] and len(sts) >= 3 and
           after[-75] and after[-71] and (not traced or gone),
           "serve -s: the game pad's interrupt IN back with %s (babble, "
           "transaction errors, the unplug), usbhid resubmitting after "
           "each error%s" % ("/".join(str(v) for v in sts) or "no error",
                             ", usbhid's disconnect traced" if gone
                             else ""),
           ["device %s, %d interrupt IN records" % (gpdev, len(gin))] +
           rd("scenario-dmesg.txt").splitlines()[-8:])
    b = rd("keys2.bin", "rb")
    k2 = [c for t, c, v in (struct.unpack_from("<HHi", b, i + 16) for i in
                            range(0, len(b) - 23, 24)) if t == 1 and v == 1]
    report(k2 == [KEYS["o"], KEYS["k"]],
           "serve -s: the keyboard plugged in the game pad's place types "
           "'ok' under usbhid (%d key presses)" % len(k2),
           ["key codes %s" % k2])

    after = rd("after-stop.txt")
    report("/dev/sda still there" not in after and
           not re.search(r"\d-\d:1\.0", after),
           "serve: the server stopped, the devices are gone (no /dev/sda, "
           "usb-storage bound to nothing)", after.splitlines())
    return 0 if results and all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
