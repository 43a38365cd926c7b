#!/usr/bin/env python3
"""tests/kernel/host.py - the host side of a tests/kernel/vm.sh run.

Connects to QEMU's monitor (QMP, unix socket $QMP) and serves the guest's
requests: the guest's host_do ACTION ARGS writes $SHARE/sync/ACTION.req
holding ARGS; this program carries the action out through QMP and answers
with ACTION.done holding "ok" or the error.  Actions:

  keys QCODE...        press and release each key (send-key), e.g. "u r b ret"
  device_del ID        unplug device ID and wait for QEMU to confirm it
  device_add K=V,...   plug a device, e.g. driver=usb-kbd,id=kbd,bus=ehci.0
  tablet X,Y ...       move the tablet to each absolute position (0-32767)
  click                press and release the left button
  mouse DX,DY[,W] ...  relative moves (and wheel steps W), one event each
  qmp JSON             any QMP command, e.g. {"execute": "query-status"}
  build NAME...        compile $SHARE/NAME.c into $SHARE/NAME for the
                       guest against libusb-1.0 (vm.sh's $BUILD_CC and
                       $BUILD_LIBUSB), with -Wall -Wextra -Werror

Every QMP exchange is logged to $OUT/qmp.log.  Runs until QEMU closes the
monitor.
"""
import json
import os
import socket
import subprocess
import sys
import time


class Qmp:
    def __init__(self, path, log):
        self.log = log
        self.events = []
        self.buf = b""
        deadline = time.time() + 30
        while True:
            try:
                self.sock = socket.socket(socket.AF_UNIX)
                self.sock.connect(path)
                break
            except OSError:
                self.sock.close()
                if time.time() > deadline:
                    raise
                time.sleep(0.05)
        self.recv()                         # the greeting
        self.cmd("qmp_capabilities")

    def recv(self, timeout=None):
        """One JSON message, or None if none came within timeout."""
        self.sock.settimeout(timeout)
        while b"\n" not in self.buf:
            try:
                d = self.sock.recv(65536)
            except socket.timeout:
                return None
            if not d:
                raise EOFError("QMP closed")
            self.buf += d
        line, self.buf = self.buf.split(b"\n", 1)
        msg = json.loads(line)
        self.log.write("<- %s\n" % json.dumps(msg))
        self.log.flush()
        if "event" in msg:
            self.events.append(msg)
        return msg

    def cmd(self, name, **args):
        req = {"execute": name}
        if args:
            req["arguments"] = args
        return self.raw(req)

    def raw(self, req):
        self.log.write("-> %s\n" % json.dumps(req))
        self.log.flush()
        self.sock.sendall(json.dumps(req).encode() + b"\n")
        while True:
            msg = self.recv(30)
            if msg is None:
                raise TimeoutError("no QMP reply to %s" % req)
            if "return" in msg:
                return msg["return"]
            if "error" in msg:
                raise RuntimeError(msg["error"].get("desc", str(msg)))

    def wait_event(self, name, timeout=20, **data):
        deadline = time.time() + timeout
        while True:
            for e in self.events:
                if e["event"] == name and all(
                        e.get("data", {}).get(k) == v
                        for k, v in data.items()):
                    self.events.remove(e)
                    return e
            left = deadline - time.time()
            if left <= 0:
                raise TimeoutError("no %s event" % name)
            self.recv(left)


def act_keys(q, args):
    for k in args.split():
        q.cmd("send-key", keys=[{"type": "qcode", "data": k}],
              **{"hold-time": 60})
        time.sleep(0.15)


def act_device_del(q, args):
    q.cmd("device_del", id=args.strip())
    q.wait_event("DEVICE_DELETED", device=args.strip())


def act_device_add(q, args):
    props = dict(kv.split("=", 1) for kv in args.strip().split(","))
    if "pcap" in props:
        props["pcap"] = os.path.join(os.environ["OUT"], props["pcap"])
    q.cmd("device_add", **props)


def act_tablet(q, args):
    for pos in args.split():
        x, y = pos.split(",")
        q.cmd("input-send-event", events=[
            {"type": "abs", "data": {"axis": "x", "value": int(x)}},
            {"type": "abs", "data": {"axis": "y", "value": int(y)}}])
        time.sleep(0.1)


def act_click(q, args):
    for down in (True, False):
        q.cmd("input-send-event", events=[
            {"type": "btn", "data": {"down": down, "button": "left"}}])
        time.sleep(0.1)


def act_mouse(q, args):
    for step in args.split():
        v = [int(n) for n in step.split(",")]
        ev = [{"type": "rel", "data": {"axis": "x", "value": v[0]}},
              {"type": "rel", "data": {"axis": "y", "value": v[1]}}]
        if len(v) > 2 and v[2]:
            btn = "wheel-up" if v[2] > 0 else "wheel-down"
            for down in (True, False):
                ev.append({"type": "btn",
                           "data": {"down": down, "button": btn}})
        q.cmd("input-send-event", events=ev)
        time.sleep(0.1)


def act_qmp(q, args):
    q.raw(json.loads(args))


def act_build(q, args):
    share = os.environ["SHARE"]
    for name in args.split():
        src = os.path.join(share, name + ".c")
        cmd = (os.environ.get("BUILD_CC", "cc").split() +
               ["-Wall", "-Wextra", "-Werror", "-o",
                os.path.join(share, name), src] +
               os.environ.get("BUILD_LIBUSB", "").split())
        p = subprocess.run(cmd, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True)
        with open(os.path.join(share, name + ".build.txt"), "w") as fp:
            fp.write(" ".join(cmd) + "\n" + p.stdout)
        if p.returncode != 0:
            raise RuntimeError("%s: cc exit %d" % (name, p.returncode))


ACTIONS = {
    "keys": act_keys,
    "device_del": act_device_del,
    "device_add": act_device_add,
    "tablet": act_tablet,
    "click": act_click,
    "mouse": act_mouse,
    "qmp": act_qmp,
    "build": act_build,
}


def main():
    out = os.environ["OUT"]
    sync = os.path.join(os.environ["SHARE"], "sync")
    log = open(os.path.join(out, "qmp.log"), "w")
    # A relative name: socket paths are limited to 108 bytes.
    os.chdir(os.path.dirname(os.environ["QMP"]))
    q = Qmp(os.path.basename(os.environ["QMP"]), log)
    while True:
        try:
            q.recv(0.05)                    # collect events, notice EOF
        except EOFError:
            return 0
        try:
            reqs = sorted(f for f in os.listdir(sync) if f.endswith(".req"))
        except FileNotFoundError:
            reqs = []
        for f in reqs:
            path = os.path.join(sync, f)
            action = f[:-4]
            with open(path) as fp:
                args = fp.read().strip()
            os.unlink(path)
            print("%.3f %s %s" % (time.time(), action, args), flush=True)
            try:
                if action not in ACTIONS:
                    raise KeyError("unknown action %s" % action)
                ACTIONS[action](q, args)
                answer = "ok"
            except EOFError:
                return 0
            except Exception as e:          # the guest shows the error
                answer = "error: %s" % e
            print("  -> %s" % answer, flush=True)
            tmp = os.path.join(sync, action + ".done.tmp")
            with open(tmp, "w") as fp:
                fp.write(answer + "\n")
            os.rename(tmp, os.path.join(sync, action + ".done"))


if __name__ == "__main__":
    sys.exit(main())
