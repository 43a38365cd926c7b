#!/usr/bin/env python3
"""tests/tools/syzcheck.py - check a syzkaller program of USB emulation.

    syzcheck.py FILE...           each program parsed and type-checked
    syzcheck.py --self-test [FILE]  a good program (FILE, or one built here)
                                  passes, and each of its mutations fails

The syntax is that of syzkaller's prog/encoding.go (parseProg, parseArg):
one call a line, `[rN = ]name(arg, ...)`, `# comment` lines; an argument
is an integer (0x..), a resource (rN, or <rN=>value), a pointer
&(0x7f00000000xx[/size])[=value] or a nil one (0x0), a struct {...}, an
array [...], a union @name[=value], data "hex" or 'escaped' with an
optional /size, and the squashed form ANY=[@ANYBLOB="hex", ...] of a
pointer's target (prog/any.go).  Addresses are at encodingAddrBase
(0x7f0000000000) or above.

The calls and their argument layouts are transcribed below from
syzkaller's sys/linux/vusb.txt (google/syzkaller, the version of commit
03ebd077e5a3): syz_usb_connect, syz_usb_control_io, syz_usb_ep_write,
syz_usb_ep_read, syz_usb_disconnect, with usb_device_descriptor,
vusb_connect_descriptors, vusb_connect_string_descriptor,
usb_string_descriptor, usb_qualifier_descriptor, usb_bos_descriptor,
vusb_descriptors, vusb_descriptor_generic, usb_generic_descriptor,
vusb_responses and vusb_response_generic.  Checked: the call names and
argument counts, every struct's field count (a strict parse: no field
missing, none in excess), integer widths, const fields, request types
(usb_request_types), the len and bytesize fields against what they
measure (len[parent], dev_len the bytes of dev, strs_len the strings),
resources defined before their use and of the right kind (fd_usb).

A squashed target is allowed only where prog/any.go's isComplexPtr would
squash one (a pointer to a varlen struct); its bytes are then checked as
the executor reads them (executor/common_usb.h: parse_usb_descriptor for
dev, which wants a device descriptor, then one configuration whose
wTotalLength is the rest; struct vusb_descriptor and vusb_response: type,
request, a 32-bit length, the data) and as USB 2.0 chapter 9 lays the
descriptors out (bDescriptorType 0x1, 0x2, 0x4, 0x5; bLength of each;
bNumInterfaces, bNumEndpoints counted).

Not covered, so refused: the class-specific calls (syz_usb_connect$hid
and the others), the named answers of vusb_descriptors and
vusb_responses other than `generic` (they must be nil), dev and bos
written field by field (only their squashed form is read).  Stricter
than syzkaller: an fd given as a number instead of a resource.
"""
import re
import sys

ADDR_BASE = 0x7f0000000000
MEM_SIZE = 16 << 20          # 4096 pages of 4096 bytes (sys/targets, linux)
PTR = 8                      # amd64, arm64


class Bad(Exception):
    pass


# ---------------------------------------------------------------------------
# The syntax (prog/encoding.go).

class P:
    def __init__(self, s, line):
        self.s, self.i, self.line = s, 0, line

    def fail(self, msg):
        raise Bad("line %d col %d: %s" % (self.line, self.i + 1, msg))

    def ws(self):
        while self.i < len(self.s) and self.s[self.i] in " \t":
            self.i += 1

    def ch(self):
        if self.i >= len(self.s):
            self.fail("unexpected end of line")
        return self.s[self.i]

    def eat(self, c):
        if self.ch() != c:
            self.fail("want %r, got %r" % (c, self.ch()))
        self.i += 1
        self.ws()

    def ident(self):
        m = re.compile(r"[A-Za-z0-9_$]+").match(self.s, self.i)
        if not m:
            self.fail("want an identifier")
        self.i = m.end()
        self.ws()
        return m.group(0)

    def number(self):
        t = self.ident()
        try:
            return int(t, 0)
        except ValueError:
            self.fail("bad number %r" % t)

    def value(self):
        c = self.ch()
        if c == "<":
            self.eat("<")
            name = self.ident()
            self.eat("=")
            self.eat(">")
            v = self.value()
            return ("bind", name, v)
        if c == "0":
            return ("int", self.number())
        if c == "r":
            name = self.ident()
            if not re.fullmatch(r"r[0-9]+", name):
                self.fail("bad resource %r" % name)
            return ("res", name)
        if c == "&":
            return self.pointer()
        if c in "\"'":
            return self.data()
        if c == "{":
            return ("struct", self.seq("{", "}"))
        if c == "[":
            return ("array", self.seq("[", "]"))
        if c == "@":
            self.eat("@")
            name = self.ident()
            v = None
            if self.i < len(self.s) and self.ch() == "=":
                self.eat("=")
                v = self.value()
            return ("union", name, v)
        self.fail("cannot parse an argument at %r" % c)

    def seq(self, open_, close):
        self.eat(open_)
        out = []
        while self.ch() != close:
            out.append(self.value())
            if self.ch() != close:
                self.eat(",")
        self.eat(close)
        return out

    def pointer(self):
        self.eat("&")
        self.eat("(")
        addr = self.number()
        if addr < ADDR_BASE or addr >= ADDR_BASE + MEM_SIZE:
            self.fail("address 0x%x outside the data area" % addr)
        if self.ch() == "/":
            self.eat("/")
            self.number()
        self.eat(")")
        squashed, v = False, None
        if self.i < len(self.s) and self.ch() == "=":
            self.eat("=")
            if self.s.startswith("ANY=", self.i):
                self.i += 4
                self.ws()
                squashed = True
            v = self.value()
        return ("ptr", addr, v, squashed)

    def data(self):
        q = self.ch()
        self.i += 1
        j = self.s.find(q, self.i)
        if j < 0:
            self.fail("unterminated data")
        raw = self.s[self.i:j]
        if q == '"':
            if not re.fullmatch(r"([0-9a-f]{2})*", raw):
                self.fail("data is not lowercase hex bytes")
            b = bytes.fromhex(raw)
        else:
            if "\\" in raw:
                self.fail("escaped data is not read here")
            b = raw.encode()
        self.i = j + 1
        self.ws()
        size = None
        if self.i < len(self.s) and self.s[self.i] == "/":
            self.eat("/")
            size = self.number()
        return ("data", b, size)


def parse(text):
    """The calls of a program: (result name or None, call, args, line)."""
    calls = []
    for n, line in enumerate(text.split("\n"), 1):
        if line.strip() == "" or line.lstrip().startswith("#"):
            continue
        p = P(line, n)
        name = p.ident()
        ret = None
        if p.i < len(line) and p.ch() == "=":
            ret = name
            if not re.fullmatch(r"r[0-9]+", ret):
                p.fail("bad result name %r" % ret)
            p.eat("=")
            name = p.ident()
        args = p.seq("(", ")")
        if p.i < len(line) and p.ch() != "#":
            p.fail("trailing data")
        calls.append((ret, name, args, n))
    if not calls:
        raise Bad("no call in the program")
    return calls


# ---------------------------------------------------------------------------
# The types, from sys/linux/vusb.txt.

def Int(size, const=None, values=None, lo=None, hi=None):
    return {"k": "int", "size": size, "const": const, "values": values,
            "lo": lo, "hi": hi}


def Len(size, of, unit="len"):
    return {"k": "len", "size": size, "of": of, "unit": unit}


def Ptr(elem, squash=None):
    # squash: how the executor reads the target's bytes, for a target
    # prog/any.go would squash (a varlen struct); None: not squashable
    return {"k": "ptr", "elem": elem, "squash": squash}


def Struct(name, *fields):
    return {"k": "struct", "name": name, "fields": list(fields)}


def Array(elem):
    return {"k": "array", "elem": elem}


BUF = {"k": "buf"}                      # array[int8], buffer[in]
OUTBUF = {"k": "outbuf"}                # buffer[out]
NIL = {"k": "nil"}                      # a pointer this checker wants nil
FD = {"k": "res", "kind": "fd_usb"}

REQUEST_TYPES = (0x00, 0x20, 0x40)      # usb_request_types
SPEEDS = range(0, 7)                    # usb_device_speed


def blob_device(b):
    """dev as executor/common_usb.h parse_usb_descriptor reads it."""
    if len(b) < 18 + 9:
        raise Bad("dev: %d bytes, not a device and a configuration "
                  "descriptor" % len(b))
    if b[0] != 18 or b[1] != 0x01:
        raise Bad("dev: device descriptor bLength %d type 0x%x, want 18 "
                  "and 0x1" % (b[0], b[1]))
    if b[7] not in (8, 16, 32, 64, 9):
        raise Bad("dev: bMaxPacketSize0 %d" % b[7])
    if b[17] < 1:
        raise Bad("dev: bNumConfigurations 0")
    c = b[18:]
    if c[0] != 9 or c[1] != 0x02:
        raise Bad("dev: configuration descriptor bLength %d type 0x%x, "
                  "want 9 and 0x2" % (c[0], c[1]))
    total = c[2] | c[3] << 8
    if total != len(c):
        raise Bad("dev: wTotalLength %d, but %d bytes follow the device "
                  "descriptor" % (total, len(c)))
    off, intfs, iface, eps = 9, set(), None, 0

    def close():
        if iface is not None and iface[4] != eps:
            raise Bad("dev: interface %d alt %d says %d endpoints, has %d"
                      % (iface[2], iface[3], iface[4], eps))
    while off < len(c):
        if off + 2 > len(c) or c[off] < 2 or off + c[off] > len(c):
            raise Bad("dev: descriptor at %d runs out of the configuration"
                      % (18 + off))
        d = c[off:off + c[off]]
        if d[1] == 0x04:
            if d[0] < 9:
                raise Bad("dev: interface descriptor of %d bytes" % d[0])
            close()
            iface, eps = d, 0
            intfs.add(d[2])
        elif d[1] == 0x05:
            if d[0] not in (7, 9):
                raise Bad("dev: endpoint descriptor of %d bytes" % d[0])
            if iface is None:
                raise Bad("dev: endpoint before any interface")
            eps += 1
        elif d[1] in (0x01, 0x02):
            raise Bad("dev: descriptor type 0x%x inside the configuration"
                      % d[1])
        off += d[0]
    close()
    if c[4] != len(intfs):
        raise Bad("dev: bNumInterfaces %d, %d interfaces" % (c[4],
                                                              len(intfs)))


def blob_generic(kind):
    def check(b):
        """struct vusb_descriptor / vusb_response (common_usb.h)."""
        if len(b) < 6:
            raise Bad("%s: %d bytes" % (kind, len(b)))
        if b[0] not in REQUEST_TYPES:
            raise Bad("%s: request type 0x%x" % (kind, b[0]))
        n = int.from_bytes(b[2:6], "little")
        if n != len(b) - 6:
            raise Bad("%s: len %d, %d bytes of data" % (kind, n,
                                                        len(b) - 6))
    return check


def blob_string(b):
    if len(b) < 2 or b[1] != 0x03:
        raise Bad("string descriptor: type not 0x3")


def blob_bos(b):
    if len(b) < 5 or b[0] != 5 or b[1] != 0x0f:
        raise Bad("BOS: bLength 5 and type 0xf wanted")
    if (b[2] | b[3] << 8) != len(b):
        raise Bad("BOS: wTotalLength %d of %d bytes" % (b[2] | b[3] << 8,
                                                        len(b)))
    off, n = 5, 0
    while off < len(b):
        if b[off] < 3 or off + b[off] > len(b) or b[off + 1] != 0x10:
            raise Bad("BOS: bad capability at %d" % off)
        off += b[off]
        n += 1
    if b[4] != n:
        raise Bad("BOS: bNumDeviceCaps %d, %d capabilities" % (b[4], n))


usb_string_descriptor = Struct(
    "usb_string_descriptor",
    ("bLength", Len(1, "parent")),
    ("bDescriptorType", Int(1, const=0x03)),
    ("lang_id", Int(2)),
    ("data", BUF))
usb_qualifier_descriptor = Struct(
    "usb_qualifier_descriptor",
    ("bLength", Len(1, "parent")),
    ("bDescriptorType", Int(1, const=0x06)),
    ("bcdUSB", Int(2)),
    ("bDeviceClass", Int(1)),
    ("bDeviceSubClass", Int(1)),
    ("bDeviceProtocol", Int(1)),
    ("bMaxPacketSize0", Int(1)),
    ("bNumConfigurations", Int(1)),
    ("bRESERVED", Int(1, const=0)))
vusb_connect_string_descriptor = Struct(
    "vusb_connect_string_descriptor",
    ("len", Len(4, "str")),
    ("str", Ptr(usb_string_descriptor, blob_string)))
vusb_connect_descriptors = Struct(
    "vusb_connect_descriptors",
    ("qual_len", Len(4, "qual")),
    ("qual", Ptr(usb_qualifier_descriptor)),
    ("bos_len", Len(4, "bos")),
    ("bos", Ptr(None, blob_bos)),
    ("strs_len", Len(4, "strs")),
    ("strs", Array(vusb_connect_string_descriptor)))
usb_generic_descriptor = Struct(
    "usb_generic_descriptor",
    ("bLength", Len(1, "parent")),
    ("bDescriptorType", Int(1)),
    ("data", BUF))
vusb_descriptor_generic = Struct(
    "vusb_descriptor_generic",
    ("req_type", Int(1, values=REQUEST_TYPES)),
    ("desc_type", Int(1)),
    ("len", Len(4, "data", "bytesize")),
    ("data", usb_generic_descriptor))
vusb_descriptors = Struct(
    "vusb_descriptors",
    ("len", Len(4, "parent")),
    ("generic", Ptr(vusb_descriptor_generic,
                    blob_generic("vusb_descriptor_generic"))),
    *[(n, NIL) for n in ("string", "bos", "hub_hs", "hub_ss")])
vusb_response_generic = Struct(
    "vusb_response_generic",
    ("type", Int(1, values=REQUEST_TYPES)),
    ("req", Int(1)),
    ("len", Len(4, "data", "bytesize")),
    ("data", BUF))
vusb_responses = Struct(
    "vusb_responses",
    ("len", Len(4, "parent")),
    ("generic", Ptr(vusb_response_generic,
                    blob_generic("vusb_response_generic"))),
    *[(n, NIL) for n in (
        "get_interface", "get_configuration", "audio_UAC_GET_CUR",
        "audio_UAC_GET_MIN", "audio_UAC_GET_MAX", "audio_UAC_GET_RES",
        "audio_UAC_GET_MEM", "hub_USB_REQ_GET_STATUS_hub",
        "hub_USB_REQ_GET_STATUS_port", "cdc_USB_CDC_GET_NTB_PARAMETERS",
        "asix_AX_CMD_READ_MII_REG", "asix_AX_CMD_STATMNGSTS_REG",
        "asix_AX_CMD_READ_EEPROM", "asix_AX_CMD_READ_RX_CTL",
        "asix_AX_CMD_READ_NODE_ID", "asix_AX88172_CMD_READ_NODE_ID",
        "asix_AX_CMD_READ_PHY_ID", "asix_AX_CMD_READ_MEDIUM_STATUS",
        "asix_AX_CMD_READ_MONITOR_MODE", "asix_AX_CMD_READ_GPIOS",
        "asix_AX_CMD_SW_PHY_STATUS")])

# name: (arguments, the resource kind returned or None); a syscall's
# integer arguments are intptr wide
CALLS = {
    "syz_usb_connect": ([
        ("speed", Int(PTR, values=SPEEDS)),
        ("dev_len", Len(PTR, "dev")),
        ("dev", Ptr(None, blob_device)),
        ("conn_descs", Ptr(vusb_connect_descriptors))], "fd_usb"),
    "syz_usb_control_io": ([
        ("fd", FD),
        ("descs", Ptr(vusb_descriptors)),
        ("resps", Ptr(vusb_responses))], None),
    # ep is int16[0:31] in vusb.txt, but the executor matches it against
    # bEndpointAddress (common_usb_linux.h lookup_endpoint): 0x81 is an IN
    "syz_usb_ep_write": ([
        ("fd", FD), ("ep", Int(PTR, lo=0, hi=0xff)),
        ("len", Len(PTR, "data", "bytesize")),
        ("data", Ptr(BUF))], None),
    "syz_usb_ep_read": ([
        ("fd", FD), ("ep", Int(PTR, lo=0, hi=0xff)),
        ("len", Len(PTR, "data", "bytesize")),
        ("data", Ptr(OUTBUF))], None),
    "syz_usb_disconnect": ([("fd", FD)], None),
}


# ---------------------------------------------------------------------------
# The check.  Each value gives back what a len field measures: its bytes
# (None for a nil pointer's target), and for an array its elements.

class Val:
    def __init__(self, size, count=None, target=None, ptr=False):
        self.size, self.count, self.target = size, count, target
        self.ptr = ptr


class Checker:
    def __init__(self):
        self.vars = {}

    def value(self, v, t, where):
        k = t["k"]
        if v[0] == "bind":
            raise Bad("%s: <%s=> binds no resource here" % (where, v[1]))
        if k in ("int", "len"):
            if v[0] != "int":
                raise Bad("%s: want an integer" % where)
            if v[1] >= 1 << (8 * t["size"]):
                raise Bad("%s: 0x%x does not fit %d bytes" % (
                    where, v[1], t["size"]))
            if k == "int":
                if t["const"] is not None and v[1] != t["const"]:
                    raise Bad("%s: const 0x%x, not 0x%x" % (
                        where, t["const"], v[1]))
                if t["values"] is not None and v[1] not in t["values"]:
                    raise Bad("%s: 0x%x not one of its flags" % (where,
                                                                 v[1]))
                if t["lo"] is not None and not t["lo"] <= v[1] <= t["hi"]:
                    raise Bad("%s: 0x%x out of range" % (where, v[1]))
            return Val(t["size"])
        if k == "res":
            if v[0] != "res":
                raise Bad("%s: want a resource (rN)" % where)
            if v[1] not in self.vars:
                raise Bad("%s: %s used before it is defined" % (where,
                                                                v[1]))
            if self.vars[v[1]] != t["kind"]:
                raise Bad("%s: %s is %s, not %s" % (
                    where, v[1], self.vars[v[1]], t["kind"]))
            return Val(PTR)
        if k == "nil":
            if v != ("int", 0):
                raise Bad("%s: only a nil pointer (0x0) is read here" %
                          where)
            return Val(PTR, ptr=True)
        if k == "ptr":
            return self.pointer(v, t, where)
        if k in ("buf", "outbuf"):
            if v[0] != "data":
                raise Bad("%s: want data" % where)
            if k == "outbuf":
                if v[1] != b"" or v[2] is None:
                    raise Bad("%s: an out buffer is \"\"/size" % where)
                return Val(v[2])
            if v[2] is not None and v[2] != len(v[1]):
                raise Bad("%s: data of %d bytes sized %d" % (
                    where, len(v[1]), v[2]))
            return Val(len(v[1]), count=len(v[1]))
        if k == "array":
            if v[0] != "array":
                raise Bad("%s: want an array" % where)
            vals = [self.value(e, t["elem"], "%s[%d]" % (where, i))
                    for i, e in enumerate(v[1])]
            return Val(sum(x.size for x in vals), count=len(vals))
        if k == "struct":
            return self.struct(v, t, where)
        raise Bad("%s: unknown type" % where)

    def pointer(self, v, t, where):
        if v == ("int", 0):
            return Val(PTR, ptr=True)
        if v[0] != "ptr":
            raise Bad("%s: want a pointer" % where)
        if v[2] is None:
            raise Bad("%s: a pointer with no target" % where)
        if v[3]:
            if t["squash"] is None:
                raise Bad("%s: its target is no varlen struct: prog/any.go "
                          "would not squash it" % where)
            b = self.anyblob(v[2], where)
            t["squash"](b)
            return Val(PTR, target=Val(len(b)), ptr=True)
        if t["elem"] is None:
            raise Bad("%s: only the squashed form (ANY=) is read here" %
                      where)
        return Val(PTR, target=self.value(v[2], t["elem"], where + "->"),
                   ptr=True)

    def anyblob(self, v, where):
        if v[0] != "array" or not v[1]:
            raise Bad("%s: ANY= wants [@ANYBLOB=...]" % where)
        b = b""
        for e in v[1]:
            if e[0] != "union" or e[1] != "ANYBLOB" or e[2] is None or \
                    e[2][0] != "data" or e[2][2] is not None:
                raise Bad("%s: only @ANYBLOB=\"hex\" is read in ANY" %
                          where)
            b += e[2][1]
        return b

    def struct(self, v, t, where):
        name, fields = t["name"], t["fields"]
        if v[0] != "struct":
            raise Bad("%s: want the struct %s" % (where, name))
        if len(v[1]) != len(fields):
            raise Bad("%s: %s has %d fields, not %d" % (
                where, name, len(fields), len(v[1])))
        vals = {}
        for (fname, ft), fv in zip(fields, v[1]):
            vals[fname] = self.value(fv, ft, "%s.%s" % (where, fname))
        size = sum(x.size for x in vals.values())
        self.lens(fields, v[1], vals, size, "%s (%s)" % (where, name))
        return Val(size)

    def lens(self, fields, values, vals, parent, where):
        """Each len field against what it measures (prog/size.go: a
        struct's bytes, an array's elements, a pointer's target's)."""
        for (fname, ft), fv in zip(fields, values):
            if ft["k"] != "len":
                continue
            if ft["of"] == "parent":
                want = parent
            else:
                m = vals[ft["of"]]
                if m.ptr:
                    m = m.target if m.target is not None else Val(0)
                want = m.count if ft["unit"] == "len" and \
                    m.count is not None else m.size
            if fv[1] != want:
                raise Bad("%s: %s is %d, but %s measures %d" % (
                    where, fname, fv[1], ft["of"], want))

    def call(self, ret, name, args, line):
        where = "line %d: %s" % (line, name)
        if name not in CALLS:
            raise Bad("%s: not a call of sys/linux/vusb.txt read here" %
                      where)
        fields, kind = CALLS[name]
        if len(args) != len(fields):
            raise Bad("%s: %d arguments, not %d" % (where, len(args),
                                                    len(fields)))
        vals = {}
        for (fname, ft), fv in zip(fields, args):
            vals[fname] = self.value(fv, ft, "%s %s" % (where, fname))
        self.lens(fields, args, vals, None, where)
        if ret is not None:
            if kind is None:
                raise Bad("%s: returns no resource for %s" % (where, ret))
            self.vars[ret] = kind


def check(text):
    c = Checker()
    for ret, name, args, line in parse(text):
        c.call(ret, name, args, line)


# ---------------------------------------------------------------------------
# The self-test: a good program, and mutations each of which must fail.

def good_program():
    dev = bytes.fromhex("120100020000004009120100000101020301")
    cfg = bytes.fromhex("0902220001010080320904000001030101000921110100"
                        "01223f0007058103080007")
    rep = bytes.fromhex("05010906a101c0")
    hdr = bytes([0, 0x22]) + len(rep).to_bytes(4, "little")
    return "\n".join([
        "# a keyboard",
        "r0 = syz_usb_connect(0x2, 0x%x, &(0x7f0000000000)=ANY=[@ANYBLOB="
        "\"%s\"], &(0x7f0000000100)={0xa, &(0x7f0000000400)={0xa, 0x6, "
        "0x200, 0x0, 0x0, 0x0, 0x40, 0x1, 0x0}, 0x0, 0x0, 0x2, [{0x4, "
        "&(0x7f0000000200)={0x4, 0x3, 0x409, \"\"}}, {0x6, "
        "&(0x7f0000000300)={0x6, 0x3, 0x61, \"6200\"}}]})" % (
            len(dev) + len(cfg), (dev + cfg).hex()),
        "syz_usb_control_io(r0, &(0x7f0000000000)={0x2c, "
        "&(0x7f0000000100)=ANY=[@ANYBLOB=\"%s\"], 0x0, 0x0, 0x0, 0x0}, "
        "0x0)" % (hdr + rep).hex(),
        "syz_usb_control_io(r0, 0x0, &(0x7f0000000000)={0xb4, "
        "&(0x7f0000000100)={0x20, 0x1, 0x2, \"0102\"}%s})" % (
            ", 0x0" * 21),
        "syz_usb_control_io(r0, 0x0, 0x0)",
        "syz_usb_ep_write(r0, 0x81, 0x8, &(0x7f0000000000)="
        "\"0000040000000000\")",
        "syz_usb_ep_read(r0, 0x2, 0x1, &(0x7f0000000000)=\"\"/1)",
        ""])


def sub_blob(prog, i, repl):
    """prog with byte i of its first ANYBLOB (dev) replaced."""
    m = re.search(r'ANY=\[@ANYBLOB="([0-9a-f]*)"\]', prog)
    h = m.group(1)
    return prog[:m.start(1)] + h[:2 * i] + repl + h[2 * i + 2:] + \
        prog[m.end(1):]


def bump(prog, pattern):
    """prog with the number the first match of pattern (group 1) says,
    one more."""
    m = re.search(pattern, prog)
    if m is None:
        return prog
    v = int(m.group(1), 0) + 1
    return prog[:m.start(1)] + hex(v) + prog[m.end(1):]


MUTATIONS = [
    ("device bDescriptorType not 0x1", lambda p: sub_blob(p, 1, "02")),
    ("device bLength not 18", lambda p: sub_blob(p, 0, "11")),
    ("configuration bDescriptorType not 0x2",
     lambda p: sub_blob(p, 19, "03")),
    ("configuration wTotalLength off by one",
     lambda p: sub_blob(p, 20, "%02x" % ((int(re.search(
         r'ANY=\[@ANYBLOB="([0-9a-f]*)"', p).group(1)[40:42], 16) + 1)
         & 0xff))),
    ("interface bDescriptorType not 0x4", lambda p: sub_blob(p, 28, "0b")),
    ("bNumInterfaces wrong", lambda p: sub_blob(p, 22, "07")),
    ("dev_len off by one", lambda p: bump(p, r"syz_usb_connect\(0x[0-9a-f]+, "
                                         r"(0x[0-9a-f]+)")),
    ("speed not a usb_device_speed",
     lambda p: re.sub(r"syz_usb_connect\(0x[0-9a-f]+,",
                      "syz_usb_connect(0x9,", p, 1)),
    ("string bDescriptorType not 0x3",
     lambda p: re.sub(r"=\{(0x[0-9a-f]+), 0x3, ", r"={\1, 0x4, ", p, 1)),
    ("string bLength not its size",
     lambda p: bump(p, r"=\{(0x[0-9a-f]+), 0x3, ")),
    ("strs_len not the strings", lambda p: bump(
        p, r"syz_usb_connect\(.*, (0x[0-9a-f]+), \[")),
    ("a vusb_connect_descriptors field missing",
     lambda p: re.sub(r"0x0, (0x[0-9a-f]+, \[\{)", r"\1", p, 1)),
    ("vusb_descriptors len wrong", lambda p: p.replace("={0x2c,",
                                                       "={0x2d,", 1)),
    ("vusb_descriptors one pointer short",
     lambda p: p.replace(", 0x0, 0x0, 0x0, 0x0}, 0x0)",
                         ", 0x0, 0x0, 0x0}, 0x0)", 1)),
    ("vusb_descriptor_generic len wrong", lambda p: re.sub(
        r'(syz_usb_control_io\(r0, &\(0x[0-9a-f]+\)=\{0x2c, &\(0x[0-9a-f]+'
        r'\)=ANY=\[@ANYBLOB="[0-9a-f]{4})([0-9a-f]{2})',
        lambda m: m.group(1) + "%02x" % ((int(m.group(2), 16) + 1) & 0xff),
        p, 1)),
    ("a request type not in usb_request_types", lambda p: re.sub(
        r'(syz_usb_control_io\(r0, &\(0x[0-9a-f]+\)=\{0x2c, &\(0x[0-9a-f]+'
        r'\)=ANY=\[@ANYBLOB=")[0-9a-f]{2}', r"\g<1>60", p, 1)),
    ("vusb_response_generic len wrong",
     lambda p: bump(p, r"=\{0xb4, &\(0x[0-9a-f]+\)=\{0x[0-9a-f]+, "
                       r"0x[0-9a-f]+, (0x[0-9a-f]+),")),
    ("vusb_responses len wrong", lambda p: p.replace("={0xb4,",
                                                     "={0xb0,", 1)),
    ("r0 never defined", lambda p: p.replace("syz_usb_control_io(r0",
                                             "syz_usb_control_io(r1", 1)),
    ("r0 used before syz_usb_connect", lambda p: "\n".join(
        [l for l in p.split("\n") if not l.startswith("r0 =")] +
        [l for l in p.split("\n") if l.startswith("r0 =")])),
    ("an unknown call", lambda p: p.replace("syz_usb_control_io(",
                                            "syz_usb_control_iox(", 1)),
    ("an argument too many", lambda p: re.sub(
        r"syz_usb_control_io\((.*)\)$", r"syz_usb_control_io(\1, 0x0)", p,
        1, re.M)),
    ("unbalanced braces", lambda p: p.replace("})", ")", 1)),
    ("odd hex data", lambda p: p.replace('ANYBLOB="12', 'ANYBLOB="1', 1)),
    ("an address below the data area",
     lambda p: p.replace("&(0x7f0000000000)", "&(0x100)", 1)),
    ("ep_write len not its data",
     lambda p: bump(p, r"syz_usb_ep_write\(r0, 0x[0-9a-f]+, (0x[0-9a-f]+)")),
    ("ep_read len not its buffer",
     lambda p: bump(p, r"syz_usb_ep_read\(r0, 0x[0-9a-f]+, (0x[0-9a-f]+)")),
    ("a qualifier squashed (no varlen struct)",
     lambda p: re.sub(r"=\{0xa, &(\(0x[0-9a-f]+\))=\{[^}]*\}",
                      r'={0xa, &\1=ANY=[@ANYBLOB="0a06"]', p, 1)),
]


def self_test(path):
    prog = open(path).read() if path else good_program()
    ok = True
    try:
        check(prog)
        print("ok - the good program passes")
    except Bad as e:
        print("not ok - the good program fails: %s" % e)
        return 1
    applied = 0
    for name, f in MUTATIONS:
        bad = f(prog)
        if bad == prog:
            print("skip - %s: nothing to mutate" % name)
            continue
        applied += 1
        try:
            check(bad)
        except Bad as e:
            print("ok - rejected, %s: %s" % (name, e))
            continue
        print("not ok - accepted, %s" % name)
        ok = False
    if applied < 15:
        print("not ok - only %d mutations applied" % applied)
        ok = False
    return 0 if ok else 1


def main(argv):
    if argv[:1] == ["--self-test"]:
        return self_test(argv[1] if len(argv) > 1 else None)
    if not argv:
        print("usage: syzcheck.py FILE... | --self-test [FILE]",
              file=sys.stderr)
        return 2
    rc = 0
    for path in argv:
        try:
            check(open(path).read())
        except Bad as e:
            print("%s: %s" % (path, e), file=sys.stderr)
            rc = 1
    return rc


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
