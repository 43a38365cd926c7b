#!/usr/bin/env python3
"""tests/kernel/check-kmod.py OUTDIR [URBSCOPE] - the checks of the test of
our own kernel modules (tests/kernel/guest-kmod.sh, modules/urbskel.c and
urbbuggy.c), one "ok - " / "not ok - " line each, as check.py prints them.

From what the guest left in OUTDIR/share: `urbscope devices --why` names
each driver and says it bound through new_id with the disk's ids; dmesg
shows each probe on the disk's interface and its disconnect, urbbuggy's
submit of the URB in flight (-EBUSY, the kernel's WARN), its resubmit from
the completion and its leaked minor freed at rmmod, and no oops; the
class devices (urbskel's gone at disconnect, urbbuggy's kept); the SCSI
READ(10) each driver made through its character device (block 0 of the
disk image, CSWs with the tags); and in our usbmon capture, parsed here
as check.py parses it, each driver's bulk transfers on the disk's
endpoints after usb-storage's last one: CBW, data, CSW, urbbuggy's CSW
fetched by resubmitting the same URB.

With the drivers traced (`capture --drivers`, run.sh's CAPTURE_OPTS when
./urbscope has eBPF): the driver rules urbscope found in the capture,
EXPECTED_RULES per driver (each at least once for urbbuggy, none for
urbskel), and each of the two drivers' submit events that returned 0
followed by the usbmon 'S' record of its URB; and the driver's own calls
traced: each driver's register event (insmod), the match events of the
new_id binding (the disk's interface matched by a dynamic id), urbbuggy's
first probe returning -ENODEV (fail_probe=1) before the one that bound,
and the open of /dev/urbskel0 with its minor and driver; urbbuggy on the
keyboard (its probe's submit with interrupts off: context atomic, the
poison at rmmod, the GET_STATUS after disconnect), the driver_data
before and after each disconnect, usb_register_dev's minor_base and node
name, and each module's usb_deregister.

Then the two drivers on urbscope serve's loopback over USB/IP with a
STALL on cue (check_loopback): the data through their nodes, urbskel's
clear-halt and urbbuggy's lack of one in usbmon and as the rule
halt-not-cleared.
"""
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from check import (load_check_drivers, read_pcapng, report,  # noqa: E402
                   results)

# check-drivers.py's reader of usbmon records and driver events in order
check_drivers = load_check_drivers()

# The tags of the drivers' CBWs (guest-kmod.sh's cbw).
TAGS = {"urbskel": b"skel", "urbbuggy": b"bugy"}

# The driver rules urbscope reports in cap.pcapng when it traced the
# drivers (`urbscope capture --drivers`, CAPTURE_OPTS in guest-kmod.sh):
# each of these at least once with the driver's name, and no other rule
# of that driver.  urbbuggy.c says where each bug is; the rule ids are the
# simulator's (decode/dec-rules.c checks them on the traced events).
EXPECTED_RULES = {
    ("urbskel", "disk"): [],
    ("urbbuggy", "disk"): ["gfp-kernel-in-atomic", "submit-active-urb",
                           "minor-leak", "intfdata-after-disconnect"],
    ("urbbuggy", "keyboard"): ["gfp-kernel-in-atomic",
                               "urbs-in-flight-after-disconnect",
                               "submit-after-disconnect",
                               "resubmit-on-shutdown",
                               "intfdata-after-disconnect"],
}

# The class drivers' minor_base (urbskel.c, urbbuggy.c).
MINOR_BASE = {"urbskel": 192, "urbbuggy": 200}


def text(share, name):
    try:
        with open(os.path.join(share, name), errors="replace") as f:
            return f.read()
    except OSError as e:
        return "(%s)" % e


def check_why(share, drv, intf, vid, pid):
    why = text(share, "why-%s.txt" % drv)
    want = ["^%s  ic " % re.escape(intf),
            r"^  driver      %s$" % drv,
            r"^  bound       through new_id \(dynamic id %s %s\)$"
            % (vid, pid),
            "^exit 0$"]
    miss = [w for w in want if not re.search(w, why, re.M)]
    report(not miss, "kmod: devices --why %s: driver %s, bound through "
           "new_id (dynamic id %s %s)" % (intf, drv, vid, pid),
           ["missing /%s/" % w for w in miss] + why.splitlines())
    link = text(share, "driver-%s.txt" % drv).strip()
    cls = text(share, "class-%s.txt" % drv).split()
    report(link.endswith("/drivers/" + drv) and len(cls) == 2 and
           cls[0] == drv + "0" and re.match(r"180:\d+$", cls[1]),
           "kmod: %s bound: sysfs driver link, class device %s0 "
           "(usb major 180)" % (drv, drv),
           ["driver link %r" % link, "class device %r" % cls])


def check_dmesg(share, intf, vid, pid):
    dm = text(share, "dmesg.txt")
    probes = {}
    for drv in TAGS:
        m = re.search(r"%s %s: probe %s:%s bulk in 0x([0-9a-f]{2}) "
                      r"out 0x([0-9a-f]{2}) minor (\d+) intfdata "
                      r"([0-9a-f]+)$"
                      % (drv, re.escape(intf), vid, pid), dm, re.M)
        if m:
            probes[drv] = (int(m.group(1), 16), int(m.group(2), 16),
                           int(m.group(4), 16))
        report(m is not None, "kmod: dmesg: %s probe on %s %s:%s" %
               (drv, intf, vid, pid),
               [l for l in dm.splitlines() if drv in l])
    want = [
        (r"urbskel %s: disconnect, minor \d+ freed" % re.escape(intf),
         "urbskel's disconnect freed its minor"),
        (r"URB \S+ submitted while active",
         "the kernel's WARN on urbbuggy's submit of the URB in flight"),
        (r"urbbuggy %s: submitted the URB in flight again: -16$"
         % re.escape(intf), "usb_submit_urb gave urbbuggy -EBUSY"),
        (r"resubmitted from the completion with GFP_KERNEL: 0$",
         "urbbuggy resubmitted from its completion with GFP_KERNEL"),
        (r"urbbuggy %s: disconnect, minor \d+ kept" % re.escape(intf),
         "urbbuggy's disconnect kept its minor"),
        (r"urbbuggy: exit: deregistering leaked minor \d+",
         "rmmod urbbuggy freed the leaked minor"),
        (r"urbbuggy \S+: probe: polling interrupt IN 0x8\d, submitted "
         r"with GFP_KERNEL and interrupts off$",
         "urbbuggy polled the keyboard's interrupt endpoint"),
        (r"GET_STATUS submitted after disconnect: 0$",
         "urbbuggy's work submitted GET_STATUS after its disconnect"),
        (r"interrupt URB status -2, resubmitted: -1$",
         "urbbuggy's completion resubmitted the poisoned URB, refused "
         "(-EPERM)"),
        (r"urbbuggy: exit: interrupt URB poisoned$",
         "rmmod urbbuggy poisoned the keyboard's URB"),
    ]
    for rx, what in want:
        report(re.search(rx, dm, re.M) is not None, "kmod: dmesg: " + what,
               ["no /%s/" % rx])
    bad = [l for l in dm.splitlines()
           if re.search(r"BUG:|Oops|general protection|scheduling while "
                        r"atomic|sleeping function called|Kernel panic", l)]
    report(not bad, "kmod: dmesg: no oops, no sleeping in atomic context",
           bad)
    return probes


def first_diff(a, b):
    return next((i for i, (x, y) in enumerate(zip(a, b)) if x != y),
                min(len(a), len(b)))


def check_files(share, img):
    data = open(os.path.join(share, "skel-data.bin"), "rb").read() \
        if os.path.exists(os.path.join(share, "skel-data.bin")) else b""
    report(len(data) == 512 and data == img[:512],
           "kmod: urbskel's READ(10) through /dev/urbskel0 read block 0 "
           "of the disk image", ["%d bytes, first difference at %d: %r" %
                                 (len(data), first_diff(data, img),
                                  data[:48])])
    for drv, f in (("urbskel", "skel-csw.bin"),
                   ("urbbuggy", "buggy-read.bin")):
        p = os.path.join(share, f)
        csw = open(p, "rb").read() if os.path.exists(p) else b""
        want = b"USBS" + TAGS[drv] + bytes(5)
        report(csw == want, "kmod: %s read the CSW: tag %s, status 0" %
               (drv, TAGS[drv].decode()), ["%r, want %r" % (csw, want)])
    after = {k: text(share, "usbmisc-after-%s.txt" % k).split()
             for k in TAGS}
    report("urbskel0" not in after["urbskel"] and
           after["urbbuggy"] == ["urbbuggy0"],
           "kmod: after disconnect urbskel's class device is gone, "
           "urbbuggy's (the leaked minor) stays",
           ["after urbskel: %s" % after["urbskel"],
            "after urbbuggy: %s" % after["urbbuggy"]])
    rm = text(share, "rmmod.txt")
    report(rm.startswith("exit 0") and "urbbuggy0" not in rm,
           "kmod: rmmod of both modules, urbbuggy's class device gone",
           rm.splitlines())


def check_capture(share, us, bus, dev, probes, img):
    cap = os.path.join(share, "cap.pcapng")
    try:
        evs, _ = read_pcapng(cap)
    except (OSError, ValueError) as e:
        report(False, "kmod: capture readable", [str(e)])
        return
    rc = text(share, "capture.rc").strip()
    r = subprocess.run([us, "read", cap], stdout=subprocess.DEVNULL,
                       stderr=subprocess.PIPE)
    report(rc == "exit 0" and r.returncode == 0,
           "kmod: capture stopped on SIGINT with exit 0, urbscope read "
           "decodes it", ["capture %s, read exit %d: %s" %
                          (rc, r.returncode, r.stderr.decode()[-200:])])
    bulk = [e for e in evs if e.bus == bus and e.dev == dev and
            e.xfer == 3 and not e.synthetic]
    # the CBW submissions: usb-storage's, then each driver's (by tag)
    cbws = [i for i, e in enumerate(bulk) if e.type == "S" and
            not e.dir_in and e.data[:4] == b"USBC"]
    ours = {d: [i for i in cbws if bulk[i].data[4:8] == t]
            for d, t in TAGS.items()}
    usbstor = [i for i in cbws
               if bulk[i].data[4:8] not in TAGS.values()]
    last_stor = max(usbstor) if usbstor else -1
    for drv, idx in ours.items():
        ep_in, ep_out = probes.get(drv, (0x81, 0x02, 0))[:2]
        details = ["CBWs with tag %r at %s, usb-storage's last at %d" %
                   (TAGS[drv], idx, last_stor)]
        ok = len(idx) == 1 and idx[0] > last_stor
        seq = bulk[idx[0]:idx[0] + 8] if ok else []
        want = [("S", ep_out, 31), ("C", ep_out, 31), ("S", ep_in, 512),
                ("C", ep_in, 512)]
        if drv == "urbskel":
            want += [("S", ep_in, 13), ("C", ep_in, 13)]
        else:
            # the CSW fetched by the completion's resubmit of the URB
            want += [("S", ep_in, 512), ("C", ep_in, 13)]
        got = [(e.type, e.ep, e.length) for e in seq[:len(want)]]
        if got != want:
            ok = False
            details.append("got %s" % got)
            details.append("want %s" % want)
        else:
            if seq[3].data != img[:512]:
                ok = False
                details.append("data differs at %d: %r" %
                               (first_diff(seq[3].data, img),
                                seq[3].data[:32]))
            if seq[5].data[:8] != b"USBS" + TAGS[drv]:
                ok = False
                details.append("CSW %r" % seq[5].data)
            if drv == "urbbuggy" and seq[4].id != seq[2].id:
                ok = False
                details.append("resubmit URB 0x%x, first 0x%x" %
                               (seq[4].id, seq[2].id))
        report(ok, "kmod: capture: %s's bulk transfers on the disk's "
               "endpoints (%d.%d, in 0x%02x out 0x%02x) after "
               "usb-storage's: CBW, data = disk block 0, CSW%s" %
               (drv, bus, dev, ep_in, ep_out,
                ", fetched by resubmitting the same URB"
                if drv == "urbbuggy" else ""), details)
    check_rules(share, cap, probes)


def check_rules(share, cap, probes):
    opts = text(share, "capture-opts.txt").split()
    err = text(share, "capture.err")
    if "--drivers" not in opts:
        print("# kmod: driver rules not checked: the capture ran without "
              "--drivers (./urbscope built without eBPF)")
        return
    report("traced with eBPF" in err and
           "--drivers:" not in check_drivers.without_fallback(err),
           "kmod: capture --drivers traced the USB core",
           err.splitlines())
    try:
        items = check_drivers.read_items(cap)
    except (OSError, ValueError) as e:
        report(False, "kmod: capture readable with its driver events",
               [str(e)])
        return
    evs = [e for k, e in items if k == "event"]
    rules = [e for e in evs if e["kind"] == "rule"]
    print("# kmod: rule events: %s" % (", ".join(sorted(set(
        "%s %s" % (e.get("driver", "-"), e.get("rule", "-"))
        for e in rules))) or "none"))
    where = devices(share)
    for (drv, what), want in EXPECTED_RULES.items():
        got = {}
        mine = [e for e in rules if e.get("driver") == drv and
                (num(e.get("bus")), num(e.get("dev"))) == where.get(what)]
        for e in mine:
            got[e.get("rule")] = got.get(e.get("rule"), 0) + 1
        missing = [r for r in want if r not in got]
        extra = sorted(r for r in got if r not in want)
        report(not missing and not extra,
               "kmod: driver rules of %s on the %s: %s" % (
                   drv, what, ", ".join("%s %d" % kv for kv in sorted(
                       got.items())) or "none"),
               ["missing %s" % r for r in missing] +
               ["unexpected %s" % r for r in extra] +
               [e.get("text", "") for e in mine])
    others = [e for e in rules if e.get("driver") in TAGS and
              (num(e.get("bus")), num(e.get("dev"))) not in
              where.values()]
    report(not others, "kmod: no rule of ours on another device",
           [e.get("text", "") for e in others])
    check_calls(share, evs)
    check_kbd_calls(share, evs, probes)
    # each submit of ours that returned 0: the next record of its URB
    # is its 'S' (the URB's address is usbmon's id)
    n, matched, refused, bad = check_drivers.submits_matched(items, TAGS)
    report(n > 0 and matched == n and refused > 0,
           "kmod: urbskel's and urbbuggy's submits followed by the usbmon "
           "S of their URB: %d of %d (%d refused: -EBUSY, -EPERM)" %
           (matched, n, refused), bad)


num = check_drivers.num


def devices(share):
    """{"disk": (bus, dev), "keyboard": (bus, dev)} from the guest."""
    out = {}
    for what, f in (("disk", "disk.txt"), ("keyboard", "kbd.txt")):
        w = text(share, f).split()
        if len(w) == 5:
            out[what] = (num(w[3], -1), num(w[4], -1))
    return out


def check_kbd_calls(share, evs, probes):
    """urbbuggy on the keyboard, and what both drivers did that only the
    tracer sees: the context of a submit with interrupts off, the poison,
    the disconnect's intfdata before and after it, the class device's
    name, the deregistrations."""
    kbd = devices(share).get("keyboard")
    on = [e for e in evs if e.get("driver") == "urbbuggy" and
          (num(e.get("bus")), num(e.get("dev"))) == kbd]
    sub = [e for e in on if e["kind"] == "submit" and
           e.get("func", "").startswith("urbbuggy_probe")]
    report(len(sub) == 1 and sub[0].get("ctx") == "atomic" and
           sub[0].get("mem") == "GFP_KERNEL" and
           "irqs off" in sub[0].get("text", ""),
           "kmod: traced: urbbuggy's submit from its probe on the keyboard "
           "%s: ctx=atomic (interrupts off), GFP_KERNEL" % (kbd,),
           [e.get("text", "") for e in sub] or
           [e.get("text", "") for e in on][:6])
    urb = sub[0].get("urb") if sub else None
    poison = [e for e in evs if e["kind"] == "kill" and
              e.get("text", "").startswith("usb_poison_urb ")]
    report(len(poison) == 1 and urb is not None and
           poison[0].get("urb") == urb,
           "kmod: traced: usb_poison_urb of that URB (%s) at rmmod, once" %
           urb, [e.get("text", "") for e in poison])
    late = [e for e in on if e["kind"] == "submit" and
            e.get("func", "").startswith("urbbuggy_late_submit")]
    report(len(late) == 1 and num(late[0].get("result"), -1) == 0,
           "kmod: traced: the GET_STATUS submitted by urbbuggy's work after "
           "disconnect", [e.get("text", "") for e in late])
    for drv in TAGS:
        dis = [e for e in evs if e["kind"] == "disconnect" and
               e.get("driver") == drv]
        rx = re.compile(r"disconnect returned, intfdata 0x([0-9a-f]+) "
                        r"\(0x([0-9a-f]+) before it\)")
        ms = [rx.search(e.get("text", "")) for e in dis]
        ok = bool(ms) and all(m is not None and int(m.group(2), 16) != 0
                              for m in ms)
        after = [int(m.group(1), 16) for m in ms if m]
        # the disk's: the driver_data its probe printed (dmesg), which
        # the probe event has too; urbskel clears it, urbbuggy leaves it
        mine = probes.get(drv, (0, 0, None))[2]
        pr = [num(e.get("ptr"), -1) for e in evs if e["kind"] == "probe"
              and e.get("driver") == drv and num(e.get("result")) == 0]
        ok = ok and mine in pr and int(ms[0].group(2), 16) == mine
        if drv == "urbskel":
            ok = ok and after == [0]
        else:
            ok = ok and len(ms) == 2 and all(
                int(m.group(1), 16) == int(m.group(2), 16) for m in ms)
        report(ok, "kmod: traced: %s's probe and disconnects: intfdata "
               "%s as dmesg shows it, before disconnect the same, after "
               "it %s" % (drv, "%x" % mine if mine else "?",
                          "cleared" if drv == "urbskel" else "the same"),
               ["probes' intfdata: %s" % ["%x" % p for p in pr]] +
               [e.get("text", "") for e in dis])
        reg = [e for e in evs if e["kind"] == "register_dev" and
               e.get("driver") == drv]
        cls = text(share, "class-%s.txt" % drv).split()
        want = "base=%d -> minor=%s node=/dev/%s ret=0" % (
            MINOR_BASE[drv], cls[1].split(":")[1] if len(cls) == 2 else "?",
            cls[0] if cls else "?")
        report(len(reg) == 1 and want in reg[0].get("text", ""),
               "kmod: traced: %s's usb_register_dev: %s" % (drv, want),
               [e.get("text", "") for e in reg])
        dereg = [e for e in evs if e["kind"] == "deregister" and
                 e.get("driver") == drv]
        report(len(dereg) == 1, "kmod: traced: %s's usb_deregister "
               "(rmmod), once" % drv, [e.get("text", "") for e in dereg])


def check_calls(share, evs):
    """The drivers' register, match, probe and open events."""
    disk = text(share, "disk.txt").split()
    intf = disk[0] if disk else "?"
    counts = {}
    for e in evs:
        if e["kind"] in ("register", "match", "open", "deregister"):
            k = "%s %s" % (e["kind"], e.get("driver", "-"))
            counts[k] = counts.get(k, 0) + 1
    print("# kmod: traced calls: %s" % ", ".join(
        "%s %d" % kv for kv in sorted(counts.items())))
    for drv in TAGS:
        reg = [e for e in evs if e["kind"] == "register" and
               e.get("driver") == drv]
        report(len(reg) == 1, "kmod: traced: %s's usb_register_driver "
               "(insmod), once" % drv, [e.get("text", "") for e in reg])
        on = [e for e in evs if e["kind"] == "match" and
              e.get("driver") == drv and intf + ":" in e.get("text", "")]
        hit = [e for e in on if num(e.get("result")) == 0 and
               "dynamic id" in e.get("text", "")]
        report(len(hit) >= 1, "kmod: traced: %s matched %s by a dynamic "
               "id (new_id): %d match events there, %d matched" %
               (drv, intf, len(on), len(hit)),
               [e.get("text", "") for e in on][:6])
    probes = [e for e in evs if e["kind"] == "probe" and
              e.get("driver") == "urbbuggy"]
    results_ = [num(e.get("result")) for e in probes]
    report(results_[:2] == [-19, 0], "kmod: traced: urbbuggy's probes "
           "returned %s (fail_probe=1: -ENODEV, then bound)" % results_,
           [e.get("text", "") for e in probes])
    cls = text(share, "class-urbskel.txt").split()
    minor = num(cls[1].split(":")[1], -2) if len(cls) == 2 else -2
    opens = [e for e in evs if e["kind"] == "open"]
    ours = [e for e in opens if e.get("driver") == "urbskel" and
            num(e.get("minor"), -1) == minor and
            num(e.get("result")) == 0]
    # the test opens /dev/urbskelN three times (dd: CBW, data, CSW)
    report(len(ours) == 3, "kmod: traced: usb_open of /dev/%s, minor %d, "
           "driver urbskel, returned 0: %d of 3" %
           (cls[0] if cls else "?", minor, len(ours)),
           [e.get("text", "") for e in opens][:8])
    why = text(share, "why-failed-urbbuggy.txt")
    print("# kmod: devices --why after urbbuggy's failed probe (no "
          "tracer): %s" % " / ".join(
              l.strip() for l in why.splitlines() if "why" in l or
              "driver " in l))


# The served loopback's part (guest-kmod.sh's loopback): the rules in
# lb-cap.pcapng for each driver on its loopback.
LOOPBACK_RULES = {
    "urbskel": [],
    "urbbuggy": ["gfp-kernel-in-atomic", "submit-active-urb",
                 "halt-not-cleared", "minor-leak",
                 "intfdata-after-disconnect"],
}


def binfile(share, name):
    p = os.path.join(share, name)
    return open(p, "rb").read() if os.path.exists(p) else b""


def check_loopback(share, us):
    """urbskel and urbbuggy on urbscope serve's loopback with a STALL on
    cue: the data through each driver's node, the STALL in usbmon, the
    halt cleared by urbskel (CLEAR_FEATURE(ENDPOINT_HALT) before its next
    IN) and left by urbbuggy (two STALLs, nothing between), and with the
    drivers traced the rules of each on its loopback."""
    a, b = binfile(share, "lb-a.bin"), binfile(share, "lb-b.bin")
    where = {}
    for drv in LOOPBACK_RULES:
        w = text(share, "lb-%s.txt" % drv).split()
        if len(w) == 5:
            where[drv] = (num(w[3], -1), num(w[4], -1))
    report(len(where) == 2 and len(a) == 1024 and len(b) == 512,
           "kmod: loopback: urbscope serve's loopback attached twice "
           "(%s)" % ", ".join("%s on %d.%d" % (d, w[0], w[1])
                              for d, w in sorted(where.items())),
           [text(share, "lb-serve-%s.err" % d)[-300:]
            for d in LOOPBACK_RULES])
    skel = [binfile(share, "lb-urbskel-%d.bin" % k) for k in (1, 2, 3, 4)]
    err3 = text(share, "lb-urbskel-3.err")
    report(skel[0] + skel[1] == a and skel[2] == b"" and skel[3] == b and
           "Broken pipe" in err3,
           "kmod: loopback: urbskel read back the 1024 bytes written, "
           "its next read failed with EPIPE (the STALL), the one after "
           "got the 512 bytes written since",
           ["reads of %s bytes" % [len(x) for x in skel], err3])
    bug = [binfile(share, "lb-urbbuggy-%d.bin" % k) for k in (1, 3, 4)]
    errs = [text(share, "lb-urbbuggy-%d.err" % k) for k in (3, 4)]
    report(bug[0] == a[512:] and bug[1] == b"" and bug[2] == b"" and
           all("Broken pipe" in e for e in errs),
           "kmod: loopback: urbbuggy's read got the last 512 of the 1024 "
           "bytes (two URBs), both reads after the STALL failed with EPIPE",
           ["reads of %s bytes" % [len(x) for x in bug]] + errs)
    dm = text(share, "dmesg.txt")
    rx = r"urbskel \S+: endpoint 0x81 stalled, usb_clear_halt: 0$"
    report(re.search(rx, dm, re.M) is not None,
           "kmod: dmesg: urbskel cleared the halt of 0x81",
           [l for l in dm.splitlines() if "urbskel" in l][-6:])
    cap = os.path.join(share, "lb-cap.pcapng")
    try:
        evs, _ = read_pcapng(cap)
    except (OSError, ValueError) as e:
        report(False, "kmod: loopback capture readable", [str(e)])
        return
    for drv, (bus, dev) in sorted(where.items()):
        on = [e for e in evs if e.bus == bus and e.dev == dev and
              not e.synthetic]
        seq = []
        for e in on:
            if e.type == "C" and e.ep == 0x81 and e.status == -32:
                seq.append("STALL")
            elif (e.type == "S" and e.xfer == 2 and
                  e.setup[:2] == b"\x02\x01" and e.setup[4] == 0x81):
                seq.append("CLEAR")
            elif e.type == "C" and e.ep == 0x81 and e.status == 0:
                seq.append("IN %d" % e.length)
        first = seq.index("STALL") if "STALL" in seq else len(seq)
        after = seq[first:]
        if drv == "urbskel":
            ok = after[:3] == ["STALL", "CLEAR", "IN 512"]
            what = "the STALL, CLEAR_FEATURE(ENDPOINT_HALT) of 0x81, " \
                "then the IN of 512 bytes"
        else:
            ok = after == ["STALL", "STALL"]
            what = "two STALLs of 0x81, no CLEAR_FEATURE, no IN after"
        report(ok, "kmod: loopback capture: %s on %d.%d: %s" %
               (drv, bus, dev, what), ["IN 0x81 from the first STALL: %s"
                                       % after, "before: %s" % seq[:first]])
    rc = text(share, "lb-capture.rc").strip()
    opts = text(share, "capture-opts.txt").split()
    if "--drivers" not in opts:
        report(rc == "exit 0", "kmod: loopback capture stopped with exit 0",
               [rc])
        print("# kmod: loopback rules not checked: no --drivers")
        return
    try:
        items = check_drivers.read_items(cap)
    except (OSError, ValueError) as e:
        report(False, "kmod: loopback capture readable with its driver "
               "events", [str(e)])
        return
    rules = [e for k, e in items if k == "event" and e["kind"] == "rule"]
    print("# kmod: loopback rule events: %s" % (", ".join(
        "%s %s" % (e.get("driver", "-"), e.get("rule", "-"))
        for e in rules) or "none"))
    bad = []
    for drv, want in LOOPBACK_RULES.items():
        got = {}
        for e in rules:
            if e.get("driver") == drv and \
                    (num(e.get("bus")), num(e.get("dev"))) == where.get(drv):
                got[e.get("rule")] = got.get(e.get("rule"), 0) + 1
        bad += ["%s: missing %s" % (drv, r) for r in want if r not in got]
        bad += ["%s: unexpected %s" % (drv, r) for r in got if r not in want]
        bad += ["%s: %s %d" % (drv, r, k) for r, k in sorted(got.items())]
    halt = [e for e in rules if e.get("rule") == "halt-not-cleared"]
    report(rc == "exit 0" and not [x for x in bad if "missing" in x or
                                   "unexpected" in x] and len(halt) == 1,
           "kmod: loopback rules: urbskel none; urbbuggy %s; "
           "halt-not-cleared once" % ", ".join(LOOPBACK_RULES["urbbuggy"]),
           ["capture %s" % rc] + bad + [e.get("text", "") for e in halt])
    # Wireshark's view of the same events (wireshark/urbscope.lua)
    check_drivers.check_dissector(cap, "kmod: loopback", us)


def main():
    out = sys.argv[1]
    us = sys.argv[2] if len(sys.argv) > 2 else "./urbscope"
    share = os.path.join(out, "share")
    img = open(os.path.join(out, "disk.img"), "rb").read(4096)
    disk = text(share, "disk.txt").split()
    if len(disk) != 5:
        report(False, "kmod: the guest found the disk", [" ".join(disk)])
        return 1
    intf, vid, pid = disk[0], disk[1], disk[2]
    bus, dev = int(disk[3]), int(disk[4])
    for drv in TAGS:
        check_why(share, drv, intf, vid, pid)
    probes = check_dmesg(share, intf, vid, pid)
    check_files(share, img)
    check_capture(share, us, bus, dev, probes, img)
    check_loopback(share, us)
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
