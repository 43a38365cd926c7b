#!/bin/sh
# tests/e2e/class-hub.sh - usbhub.status.port_tree: in tshark 4.0 it is no
# field (-T fields and -Y reject it) but the -T json key of the subtree
# under usbhub.status.port (and usbhub.change.port_tree under the change
# word), which -T json writes as "<field>_tree" for every item with
# children.  urbscope's -T json is one flat object a record, as tshark's
# -T ek: the subtree's fields stand beside usbhub.status.port, the same
# names with the same values, and no others.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh
plan 5

HUB=$LINUX61/qemu-usb-hub.pcap
if ! command -v tshark >/dev/null 2>&1; then
	skip_rest "usbhub port_tree against tshark" "tshark is not installed"
fi
if ! command -v python3 >/dev/null 2>&1; then
	skip_rest "usbhub port_tree against tshark" "python3 is not installed"
fi

"$US" read "$HUB" -T fields -e usbhub.status.port_tree >/dev/null 2>&1
us=$?
tshark -r "$HUB" -T fields -e usbhub.status.port_tree >/dev/null 2>&1
ts=$?
check "-e usbhub.status.port_tree: an error in both" \
    test "$us" -ne 0 -a "$ts" -ne 0
"$US" read "$HUB" -Y usbhub.status.port_tree >/dev/null 2>&1
us=$?
tshark -r "$HUB" -Y usbhub.status.port_tree >/dev/null 2>&1
ts=$?
check "-Y usbhub.status.port_tree: an error in both" \
    test "$us" -ne 0 -a "$ts" -ne 0

tshark -r "$HUB" -T json >"$TMP/ts.json" 2>/dev/null
"$US" read "$HUB" -T json >"$TMP/us.json" 2>"$TMP/err"
check "-T json: no sanitizer report" no_sanitizer_report "$TMP/err"
# per frame: tshark's port_tree and change.port_tree fields in order, and
# urbscope's usbhub.status.port.* and usbhub.change.port.* values
python3 - "$TMP/ts.json" "$TMP/us.json" "$TMP/ts.t" "$TMP/us.t" <<'PY'
import json, sys
ts = json.load(open(sys.argv[1]))
out = open(sys.argv[3], "w")
def walk(d, acc):
    for k, v in d.items():
        if k in ("usbhub.status.port_tree", "usbhub.change.port_tree"):
            for kk, vv in v.items():
                acc.setdefault(kk, []).append(str(vv))
        elif isinstance(v, dict):
            walk(v, acc)
for p in ts:
    l = p["_source"]["layers"]
    acc = {}
    walk(l, acc)
    for k in sorted(acc):
        out.write("%s %s %s\n" % (l["frame"]["frame.number"], k,
            ",".join(acc[k])))
out = open(sys.argv[4], "w")
for line in open(sys.argv[2]):
    o = json.loads(line)
    if "frame.number" not in o:
        continue
    for k in sorted(o):
        if k.startswith(("usbhub.status.port.", "usbhub.change.port.")):
            v = o[k] if isinstance(o[k], list) else [o[k]]
            out.write("%s %s %s\n" % (o["frame.number"], k,
                ",".join(str(x) for x in v)))
PY
n=$(cut -d' ' -f1 "$TMP/ts.t" | sort -u | wc -l)
check "tshark has the port_tree subtrees on $n records" test "$n" -ge 30
check_diff "their fields and values are those urbscope's JSON has" \
    "$TMP/ts.t" "$TMP/us.t"
