#!/usr/bin/env python3
"""tests/stats-oracle.py TSHARK_TSV URBSCOPE_JSON ENDPOINTS_TXT

What `urbscope stats` says of a capture, checked against tshark's fields
of every frame of the same file (usb.src, usb.dst, frame.len,
usb.urb_type, usb.urb_status, usb.urb_len, usb.time,
usb.endpoint_address, usb.transfer_type, frame.number, usb.request_in,
tab-separated): the frames and frame.len bytes of every
address (-z endpoints,usb), and per endpoint the completions, their bytes,
the failed ones and the latency min, median, p99 and max (nearest rank).

One difference is allowed, in urbscope's favour: usbmon reports the
completion of SET_ADDRESS at the new address, where tshark does not find
its request (no usb.time); urbscope pairs it.  An endpoint 0 may have at
most as many more latencies as it has completions tshark left unpaired,
and then its min and max must include tshark's.  And where tshark pairs
a completion with a request another completion already answered (QEMU's
URB ids are all 0: tshark then takes an old GET_MAX_LUN for a SET_ADDRESS
after a reset), or with a request to another address, that usb.time is
not a latency; the completion counts as unpaired.
Prints "ok - ..." / "not ok - ..." lines."""
import json
import math
import sys

tsv, js, table = sys.argv[1:4]
name = sys.argv[4] if len(sys.argv) > 4 else tsv


def say(ok, what, detail=""):
    print(("ok - " if ok else "not ok - ") + name + ": " + what)
    if not ok and detail:
        print("#   " + detail)


addr = {}
eps = {}
host = [0, 0, 0, 0]
dst_of = {}
answered = set()
for line in open(tsv):
    f = line.rstrip("\n").split("\t")
    if len(f) > 9 and f[9]:
        dst_of[f[9]] = f[1]
for line in open(tsv):
    f = line.rstrip("\n").split("\t")
    if len(f) < 9 or not f[0]:
        continue
    src, dst, flen, typ, st, ulen, t, epa, xt = f[:9]
    flen = int(flen)
    if src == "host":
        a = addr.setdefault(dst, [0, 0, 0, 0])
        a[2] += 1
        a[3] += flen
        host[0] += 1
        host[1] += flen
    else:
        a = addr.setdefault(src, [0, 0, 0, 0])
        a[0] += 1
        a[1] += flen
        host[2] += 1
        host[3] += flen
    if typ not in ("C", "67", "'C'"):
        continue
    dev = src if src != "host" else dst
    bus_dev = dev.rsplit(".", 1)[0]
    epn = int(epa, 16)
    ctrl = int(xt, 16) == 2
    key = (bus_dev + "." + str(epn & 0x7F), epn & 0x7F if ctrl else epn)
    e = eps.setdefault(key, {"n": 0, "bytes": 0, "failed": 0, "lat": [],
                             "unpaired": 0})
    e["n"] += 1
    e["bytes"] += int(ulen) if ulen else 0
    s = int(st) if st else 0
    if s not in (0, -2, -104):
        e["failed"] += 1
    if t and len(f) > 10 and f[10] and (dst_of.get(f[10]) != src or
                                        f[10] in answered):
        t = ""
    if len(f) > 10 and f[10]:
        answered.add(f[10])
    if t:
        e["lat"].append(round(float(t) * 1e9))
    else:
        e["unpaired"] += 1

# -z endpoints,usb
got = {}
for line in open(table):
    f = line.split()
    if len(f) == 7 and f[1].isdigit():
        got[f[0]] = [int(x) for x in (f[3], f[4], f[5], f[6])]
exp = dict(addr)
exp["host"] = host
say(got == exp, "-z endpoints,usb: frames and frame.len of %d addresses "
    "as tshark's usb.src/usb.dst" % len(exp),
    "tshark %s, urbscope %s" % (sorted(exp.items()), sorted(got.items())))

d = json.load(open(js))
mine = {}
for e in d["endpoints"]:
    epn = int(e["epnum"], 16)
    mine[(e["endpoint"], epn)] = e
bad = []
nlat = 0


def pct(v, p):
    v = sorted(v)
    r = max(1, math.ceil(len(v) * p / 100))
    return v[r - 1]


for key, e in eps.items():
    m = mine.get(key)
    if m is None:
        bad.append("%s missing" % (key,))
        continue
    if m["completions"] != e["n"]:
        bad.append("%s completions %d, tshark %d" % (key, m["completions"],
                                                      e["n"]))
    if m["bytes_in"] + m["bytes_out"] != e["bytes"]:
        bad.append("%s bytes %d, tshark %d" % (
            key, m["bytes_in"] + m["bytes_out"], e["bytes"]))
    iso = m["iso_frame_errors"] != 0
    if not iso and m["failed"] - m["submit_errors"] != e["failed"]:
        bad.append("%s failed %d, tshark %d" % (key, m["failed"],
                                                 e["failed"]))
    if e["lat"]:
        nlat += len(e["lat"])
        ml = m.get("latency_ns")
        want = [pct(e["lat"], p) for p in (0, 50, 99, 100)]
        have = [ml[k] for k in ("min", "median", "p99", "max")] if ml \
            else None
        extra = (ml["count"] - len(e["lat"])) if ml else -1
        if extra > 0 and extra <= e["unpaired"] and key[1] == 0:
            if have[0] > want[0] or have[3] < want[3]:
                bad.append("%s latency min/max %s, tshark %s" % (
                    key, have, want))
        elif have != want or ml["count"] != len(e["lat"]):
            bad.append("%s latency %s, tshark usb.time %s" % (key, have,
                                                              want))
say(not bad, "%d endpoints: completions, bytes, failed and latency "
    "(%d usb.time values) as tshark's" % (len(eps), nlat), "; ".join(bad))
