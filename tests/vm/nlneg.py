#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Malformed and unprivileged generic netlink requests, generated from the
family's spec (Documentation/netlink/specs/election.yaml, which
scripts/nlspec derives from uapi/linux/election.h and module/netlink.c):
every command (do and dump) with each attribute it takes missing (when
required), of the wrong length, flagged as a nest, out of its policy's
range and oversized; every attribute it does not take; unknown attribute
types; whole-message malformations (truncated headers, reserved bits,
bad flags, trailing bytes, attribute lengths beyond the message, unknown
commands, dumps of do-only commands, other genl versions); and every
command as uid 65534, as uid 0 without capabilities and through a socket
that uid 65534 opened. Runs as root inside the network namespace of
--dev, against instances it creates there (one stopped group per
algorithm of the spec, with peers); the namespace should hold no other
instance and no other namespace should run one (MODULE_GET's counters
are module-wide).

  tests/vm/nlneg.py --dev IF [--rounds N] [--only REGEX] [-v]
  tests/vm/nlneg.py --list [--only REGEX]

Expectation for every refused case: a negative errno of its class
(EINVAL, ERANGE, EPERM, EOPNOTSUPP), an extack message
(NLMSGERR_ATTR_MSG, non-empty), the offending attribute's offset
(NLMSGERR_ATTR_OFFS) or the missing attribute's type
(NLMSGERR_ATTR_MISS_TYPE) when the case concerns one attribute, the
policy the kernel reports with the error (NLMSGERR_ATTR_POLICY) equal to
the spec's checks, and the state unchanged: the GROUP_GET and STATS_GET
dumps of the namespace and MODULE_GET (live instances, peers, skbs)
byte for byte equal before and after, and no event multicast. The
netlink core answers a few whole-message malformations itself without a
message; those cases say so.

Also: the kernel's policies (nlctrl CTRL_CMD_GETPOLICY) equal the spec's
(attributes per command, type, min/max, lengths); two matrices of valid
options (GROUP_NEW: every algorithm x every optional attribute at its
bounds; GROUP_SET: every group x every option, with a second, timing
change) in which each request is either refused with a message and
changes nothing, or accepted whole (GROUP_GET echoes the values; the
instance is then rebuilt); and positive controls: each command's
baseline request, the one every case mutates, is accepted, and the
comparison sees the change.

Prints one PASS:/FAIL: line per case group (details of failing cases
indented below it) and "nlneg: N cases, N passed, N failed (groups)".
Exit 0 when no group failed.
"""

import argparse
import ctypes
import errno
import json
import os
import re
import select
import socket
import struct
import sys
import time

import yaml

REPO = os.environ.get("ELECTION_REPO") or os.path.dirname(
    os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(REPO, "tests", "lib"))
from electest import nl  # noqa: E402
from electest.nl import (  # noqa: E402
    Msg, NETLINK_GENERIC, NLA_F_NESTED, NLM_F_ACK, NLM_F_DUMP, NLM_F_REQUEST,
    Reply, nla, nla_list, parse_nla, uint)

SPEC = os.path.join(REPO, "Documentation", "netlink", "specs",
                    "election.yaml")
SCALE = int(os.environ.get("ELEC_TIMER_SCALE", "1") or 1)

# enum netlink_attribute_type and NL_POLICY_TYPE_ATTR_*
NL_ATTR_TYPES = {"flag": 1, "u8": 2, "u16": 3, "u32": 4, "u64": 5,
                 "binary": 10, "string": 11, "nest": 13}
NL_POLICY_TYPE = 1
NL_POLICY_MIN_U = 4
NL_POLICY_MAX_U = 5
NL_POLICY_MIN_LEN = 6
NL_POLICY_MAX_LEN = 7
NL_POLICY_PAD = 11

INT_SIZE = {"u8": 1, "u16": 2, "u32": 4, "u64": 8}
INT_FMT = {"u8": "B", "u16": "H", "u32": "I", "u64": "Q"}
MAX_PAYLOAD = 0xffff - 4          # the largest nla_len

# The attributes each command's handler requires: the spec says which
# attributes a command takes, not which it needs. A do of a command that
# names an instance needs IFINDEX and GROUP; dumps need nothing.
REQUIRED = {
    "group-new": ["ifindex", "group", "node-id", "algo"],
    "peer-add": ["ifindex", "group", "peer-id", "peer-lladdr"],
    "peer-del": ["ifindex", "group", "peer-id"],
    "peer-reset": ["ifindex", "group", "peer-id"],
    "algo-get": ["algo"],
}
# Reads: no privilege needed. Every other command, module-get included
# (module-wide counters), needs CAP_NET_ADMIN.
READS = {"group-get", "stats-get", "algo-get"}
NEW_GROUP = 900                   # the group GROUP_NEW cases would create
SCRATCH_GROUP = 901               # the positive controls' group
NEW_PEER = 99                     # the peer PEER_ADD cases would add


# ---------------------------------------------------------------- spec ---

class Spec:
    def __init__(self, path):
        with open(path) as f:
            y = yaml.safe_load(f)
        self.name = y["name"]
        self.version = y["version"]
        aset = [s for s in y["attribute-sets"] if s["name"] == "election"][0]
        self.attrs = {a["name"]: a for a in aset["attributes"]}
        self.by_value = {a["value"]: a["name"] for a in aset["attributes"]}
        self.max_attr = max(a["value"] for a in aset["attributes"])
        self.enums = {d["name"]: {e["name"]: e["value"] for e in d["entries"]}
                      for d in y["definitions"] if d["type"] == "enum"}
        self.ops = {}
        for o in y["operations"]["list"]:
            modes = {m: o[m]["request"]["attributes"]
                     for m in ("do", "dump") if m in o}
            self.ops[o["name"]] = {"value": o["value"], "modes": modes,
                                   "event": "event" in o}
        self.max_cmd = max(o["value"] for o in self.ops.values())

    def atype(self, name):
        return self.attrs[name]["type"]

    def checks(self, name):
        return self.attrs[name].get("checks", {})

    def required(self, op, mode):
        if mode == "dump":
            return []
        attrs = self.ops[op]["modes"][mode]
        return REQUIRED.get(op, [a for a in ("ifindex", "group")
                                 if a in attrs])

    def int_range(self, name):
        t = self.atype(name)
        tmax = (1 << (8 * INT_SIZE[t])) - 1
        c = self.checks(name)
        return c.get("min", 0), c.get("max", tmax), tmax

    def len_range(self, name):
        c = self.checks(name)
        if "exact-len" in c:
            return c["exact-len"], c["exact-len"]
        return c.get("min-len", 0), c.get("max-len", MAX_PAYLOAD)

    def valid_payload(self, name, value=None):
        """A payload its policy accepts: @value, else the smallest."""
        t = self.atype(name)
        if t in INT_FMT:
            if value is None:
                value = self.int_range(name)[0]
            return struct.pack("=" + INT_FMT[t], value)
        if t == "binary":
            if value is not None:
                return value
            n = max(self.len_range(name)[0], 1)
            return bytes([0x02] + [0x11] * (n - 1))
        if t == "flag":
            return b""
        if t == "string":
            return b"x\0"
        return b""                  # nest, indexed-array: empty

    def policy_of(self, name):
        """What the kernel reports as the policy of @name (the spec's
        checks, in NL_POLICY_TYPE_ATTR_* terms), or None for types the
        policy dump does not show."""
        t = self.atype(name)
        if t not in NL_ATTR_TYPES:
            return None
        p = {NL_POLICY_TYPE: NL_ATTR_TYPES[t]}
        if t in INT_FMT:
            lo, hi, _ = self.int_range(name)
            p[NL_POLICY_MIN_U] = lo
            p[NL_POLICY_MAX_U] = hi
        elif t in ("binary", "string"):
            lo, hi = self.len_range(name)
            if lo:
                p[NL_POLICY_MIN_LEN] = lo
            if hi < 0xffff:
                p[NL_POLICY_MAX_LEN] = hi
        return p


# --------------------------------------------------------------- cases ---

class Case:
    """One request and what must come back.

    expect: "refused" (errnos, a message unless msg=False, offs/miss when
    set, state unchanged), "accepted" (ack 0 or replies), "noreply"."""

    def __init__(self, group, name, build, expect="refused", errnos=(),
                 msg=True, offs=None, miss=None, policy=None, user=None,
                 wait=None):
        self.group, self.name, self.build = group, name, build
        self.expect, self.errnos, self.msg = expect, set(errnos), msg
        self.offs, self.miss, self.policy = offs, miss, policy
        self.user, self.wait = user, wait

    def judge(self, r, m):
        """A list of what is wrong with reply @r to message @m."""
        bad = []
        if self.expect == "noreply":
            if r.err is not None:
                bad.append("a reply (%s), expected none" % r)
            return bad
        if self.expect == "accepted":
            if r.err != 0:
                bad.append("refused: %s" % r)
            return bad
        if r.err is None:
            return ["no reply"]
        if r.err == 0:
            return ["ACCEPTED (%d replies)" % len(r.replies)]
        if self.errnos and r.err not in self.errnos:
            bad.append("errno %s, expected %s" % (
                errno.errorcode.get(r.err, r.err),
                "/".join(errno.errorcode[e] for e in sorted(self.errnos))))
        if self.msg and not r.msg:
            bad.append("no extack message")
        if self.offs is not None:
            want = m.offsets[self.offs]
            if r.offs != want:
                bad.append("offset %s, expected %d (the attribute)" %
                           (r.offs, want))
        if self.miss is not None and r.miss != self.miss:
            bad.append("missing type %s, expected %d" % (r.miss, self.miss))
        if self.policy is not None and r.policy is not None and \
                r.policy != self.policy:
            bad.append("reported policy %s, the spec says %s" %
                       (r.policy, self.policy))
        return bad


class Gen:
    """The cases, from the spec, against the targets."""

    def __init__(self, spec, fam, ifindex, targets):
        self.spec, self.fam, self.ifindex = spec, fam, ifindex
        self.targets = targets      # [(group, algo value)]
        self.n = 0

    def target(self):
        self.n += 1
        return self.targets[self.n % len(self.targets)]

    def context(self, op, group, algo):
        """Valid values of the attributes that name things."""
        return {"ifindex": self.ifindex, "group": group, "node-id": 1,
                "algo": algo, "peer-id": NEW_PEER if op == "peer-add" else 2,
                "peer-lladdr": bytes([2, 0, 0, 0, 0, NEW_PEER])}

    def baseline(self, op, mode, tgt=None):
        """The attributes of a valid request: the required ones."""
        group, algo = tgt or self.target()
        if op == "group-new":
            group = NEW_GROUP
        ctx = self.context(op, group, algo)
        return [(a, ctx[a]) for a in self.spec.required(op, mode)]

    def encode(self, pairs):
        out = []
        for a, v in pairs:
            if isinstance(v, bytes) and len(v) >= 4 and a is None:
                out.append(v)
            elif isinstance(v, tuple):          # (payload, flags)
                out.append((self.spec.attrs[a]["value"], v[0], v[1]))
            else:
                p = v if isinstance(v, bytes) else \
                    self.spec.valid_payload(a, v)
                out.append((self.spec.attrs[a]["value"], p))
        return out

    def msg(self, op, mode, pairs, **kw):
        flags = NLM_F_REQUEST | NLM_F_ACK
        if mode == "dump":
            flags = NLM_F_REQUEST | NLM_F_DUMP
        return Msg(self.fam, self.spec.ops[op]["value"], self.encode(pairs),
                   flags=flags, **kw)

    def builder(self, op, mode, pairs, **kw):
        return lambda: self.msg(op, mode, pairs, **kw)

    # -- per attribute ------------------------------------------------------

    def attr_cases(self, op, mode):
        spec = self.spec
        for a in spec.ops[op]["modes"][mode]:
            g = "%s %s: %s" % (op, mode, a)
            t = spec.atype(a)
            full = self.baseline(op, mode)
            base = [p for p in full if p[0] != a]
            pol = spec.policy_of(a)
            if a in spec.required(op, mode):
                yield Case(g, "missing", self.builder(op, mode, base),
                           errnos=[errno.EINVAL],
                           miss=spec.attrs[a]["value"])
            last = len(base)
            lens = []
            if t in INT_FMT:
                lens = sorted({0, 1, 2, 3, 4, 5, 7, 8, 9, 16} -
                              {INT_SIZE[t]})
            elif t in ("binary", "string"):
                lo, hi = spec.len_range(a)
                lens = sorted({n for n in (0, lo - 1, hi + 1, 2 * hi)
                               if 0 <= n < lo or hi < n <= MAX_PAYLOAD})
            elif t == "flag":
                lens = [1, 4]
            for n in lens:
                yield Case(g, "length %d" % n,
                           self.builder(op, mode, base + [
                               (a, bytes([0x5a] * n))]),
                           errnos=[errno.EINVAL, errno.ERANGE],
                           offs=last, policy=pol)
            yield Case(g, "oversized (%d bytes)" % MAX_PAYLOAD,
                       self.builder(op, mode, base + [
                           (a, bytes([0xa5] * MAX_PAYLOAD))]),
                       errnos=[errno.EINVAL, errno.ERANGE], offs=last,
                       policy=pol)
            if t not in ("nest", "indexed-array"):
                good = self.encode([(a, dict(full).get(a))])[0][1]
                yield Case(g, "NLA_F_NESTED on a %s" % t,
                           self.builder(op, mode, base + [
                               (a, (good, NLA_F_NESTED))]),
                           errnos=[errno.EINVAL], offs=last)
                inner = nla(1, struct.pack("=I", 1))
                yield Case(g, "a nest where a %s is expected" % t,
                           self.builder(op, mode, base + [
                               (a, (inner, NLA_F_NESTED))]),
                           errnos=[errno.EINVAL, errno.ERANGE], offs=last)
            if t in INT_FMT:
                lo, hi, tmax = spec.int_range(a)
                vals = []
                if lo > 0:
                    vals += [lo - 1] + ([0] if lo > 1 else [])
                if hi < tmax:
                    vals += [hi + 1] + ([tmax] if hi + 1 < tmax else [])
                for v in vals:
                    yield Case(g, "out of range: %d" % v,
                               self.builder(op, mode, base + [(a, v)]),
                               errnos=[errno.ERANGE], offs=last, policy=pol)

    def foreign_cases(self, op, mode):
        """Every attribute of the set the command does not take, and
        attribute types beyond the set."""
        spec = self.spec
        takes = spec.ops[op]["modes"][mode]
        g = "%s %s: attributes it does not take" % (op, mode)
        for a, d in spec.attrs.items():
            if a in takes or d["value"] == 0:
                continue
            base = self.baseline(op, mode)
            flags = NLA_F_NESTED if d["type"] in ("nest", "indexed-array") \
                else 0
            yield Case(g, a, self.builder(op, mode, base + [
                (a, (spec.valid_payload(a), flags))]),
                errnos=[errno.EINVAL], offs=len(base))
        g = "%s %s: unknown attribute types" % (op, mode)
        for t in (0, spec.max_attr + 1, spec.max_attr + 100, 0x3fff):
            base = self.baseline(op, mode)
            yield Case(g, "type %d" % t, lambda base=base, t=t: self.msg(
                op, mode, base + [(None, nla(t, struct.pack("=I", 1)))]),
                errnos=[errno.EINVAL], offs=len(base))

    def privilege_cases(self, op, mode):
        """The valid baseline request as three kinds of unprivileged
        caller: refused with EPERM and a message (reads: answered)."""
        g = "%s %s: unprivileged" % (op, mode)
        tgt = self.target()
        for user in ("uid 65534", "uid 0 without capabilities",
                     "a socket uid 65534 opened"):
            b = self.builder(op, mode, self.baseline(op, mode, tgt))
            if op in READS:
                yield Case(g, user, b, expect="accepted", user=user)
            else:
                yield Case(g, user, b, errnos=[errno.EPERM], user=user)

    # -- whole messages -----------------------------------------------------

    def message_cases(self):
        spec = self.spec
        for op in ("group-start", "group-get"):
            if op not in spec.ops:
                continue
            g = "whole message: %s do" % op
            base = self.baseline(op, "do")

            def b(op=op, base=base, **kw):
                return lambda: self.msg(op, "do", base, **kw)
            for n in (16, 17, 19):
                yield Case(g, "nlmsg_len %d: genl header truncated" % n,
                           lambda n=n, b=b: b()().truncate(n).patch_len(n),
                           errnos=[errno.EINVAL], msg=False)
            for rsv in (1, 0x8000):
                yield Case(g, "genl reserved 0x%x" % rsv, b(reserved=rsv),
                           errnos=[errno.EINVAL])
            for f in (0x20, 0x100, 0x200, 0x400, 0x800):
                yield Case(g, "nlmsg_flags +0x%x" % f,
                           lambda f=f, op=op, base=base: self.with_flags(
                               op, base, f),
                           errnos=[errno.EINVAL])
            for n in (1, 2, 3):
                yield Case(g, "%d trailing bytes" % n,
                           lambda n=n, b=b: self.grown(
                               b()().append(b"\x01" * n)),
                           errnos=[errno.EINVAL])
            for n in (0, 2, 3):
                yield Case(g, "an attribute with nla_len %d" % n,
                           lambda n=n, b=b: self.grown(b()().append(
                               struct.pack("=HH", n, 1))),
                           errnos=[errno.EINVAL])
            for extra in (4, 1000, 60000):
                yield Case(g, "last nla_len %d bytes beyond the message" %
                           extra, lambda extra=extra, b=b: self.longer_last(
                               b()(), extra), errnos=[errno.EINVAL])
            yield Case(g, "nlmsg_len ends inside the last attribute",
                       lambda b=b: self.cut_last(b()()),
                       errnos=[errno.EINVAL])
            yield Case(g, "nlmsg_len beyond the datagram (dropped)",
                       lambda b=b: b()().patch_len(len(b()().data) + 64),
                       expect="noreply", wait=0.5 * SCALE)
        g = "whole message: genl version other than %d (every command, " \
            "do and dump)" % spec.version
        for op, o in spec.ops.items():
            for mode in o["modes"]:
                base = self.baseline(op, mode)
                for v in (0, spec.version + 1, 255):
                    yield Case(g, "%s %s, version %d" % (op, mode, v),
                               lambda op=op, mode=mode, base=base, v=v:
                               self.msg(op, mode, base, version=v),
                               errnos=[errno.EINVAL, errno.EOPNOTSUPP])
        g = "whole message: commands"
        bad = [0, spec.max_cmd + 1, 255] + [
            o["value"] for o in spec.ops.values() if not o["modes"]]
        for c in bad:
            yield Case(g, "command %d" % c, lambda c=c: Msg(self.fam, c, []),
                       errnos=[errno.EOPNOTSUPP], msg=False)
        for op, o in spec.ops.items():
            if o["modes"] and "dump" not in o["modes"]:
                yield Case(g, "dump of %s" % op,
                           lambda o=o: Msg(self.fam, o["value"], [],
                                           flags=NLM_F_REQUEST | NLM_F_DUMP),
                           errnos=[errno.EOPNOTSUPP], msg=False)

    def with_flags(self, op, base, f):
        m = self.msg(op, "do", base)
        struct.pack_into("=H", m.data, 6, NLM_F_REQUEST | NLM_F_ACK | f)
        return m

    @staticmethod
    def cut_last(m):
        """nlmsg_len one byte short of the last attribute's nla_len; the
        bytes after it stay in the datagram (fewer than a header: the
        netlink core ignores them)."""
        off = m.offsets[-1]
        ln = struct.unpack_from("=H", m.data, off)[0]
        return m.patch_len(off + ln - 1)

    @staticmethod
    def grown(m):
        return m.patch_len(len(m.data))

    @staticmethod
    def longer_last(m, extra):
        off = m.offsets[-1]
        ln = struct.unpack_from("=H", m.data, off)[0]
        struct.pack_into("=H", m.data, off, min(ln + extra, 0xffff))
        return m

    def all_cases(self):
        for op, o in self.spec.ops.items():
            for mode in o["modes"]:
                yield from self.attr_cases(op, mode)
                yield from self.foreign_cases(op, mode)
                yield from self.privilege_cases(op, mode)
        yield from self.message_cases()


# --------------------------------------------------------------- runner ---

def drop_privileges(how):
    libc = ctypes.CDLL(None, use_errno=True)
    if how == "uid":
        os.setgroups([])
        os.setresgid(65534, 65534, 65534)
        os.setresuid(65534, 65534, 65534)
    else:
        # _LINUX_CAPABILITY_VERSION_3, this process; two zeroed structs
        hdr = struct.pack("=Ii", 0x20080522, 0)
        data = ctypes.create_string_buffer(24)
        if libc.capset(ctypes.c_char_p(hdr), data) != 0:
            raise OSError(ctypes.get_errno(), "capset")
    with open("/proc/self/status") as f:
        caps = dict(line.split(":\t") for line in f if line.startswith("Cap"))
    if int(caps["CapEff"], 16):
        raise OSError("capabilities still effective: %s" % caps["CapEff"])


def in_child(fn):
    """Run @fn in a forked child; its JSON-able result, or an error."""
    rfd, wfd = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(rfd)
        try:
            out = {"ok": fn()}
        except BaseException as e:      # report anything to the parent
            out = {"error": repr(e)}
        os.write(wfd, json.dumps(out).encode())
        os._exit(0)
    os.close(wfd)
    data = b""
    while True:
        chunk = os.read(rfd, 65536)
        if not chunk:
            break
        data += chunk
    os.close(rfd)
    os.waitpid(pid, 0)
    out = json.loads(data or b'{"error": "child died"}')
    if "error" in out:
        raise RuntimeError(out["error"])
    return out["ok"]


def passed_socket():
    """A netlink socket that uid 65534 opened, passed to us (root)."""
    a, b = socket.socketpair(socket.AF_UNIX, socket.SOCK_DGRAM)
    pid = os.fork()
    if pid == 0:
        try:
            a.close()
            drop_privileges("uid")
            s = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW,
                              NETLINK_GENERIC)
            s.bind((0, 0))
            socket.send_fds(b, [b"s"], [s.fileno()])
        finally:
            os._exit(0)
    b.close()
    _, fds, _, _ = socket.recv_fds(a, 16, 1)
    os.waitpid(pid, 0)
    a.close()
    return socket.socket(fileno=fds[0])


class Runner:
    def __init__(self, spec, dev, verbose):
        self.spec, self.verbose = spec, verbose
        self.nl = nl.Nl(rcvbuf=1 << 20)
        self.fam, self.mcgrps = self.nl.resolve(spec.name)
        self.ifindex = socket.if_nametoindex(dev)
        self.ev = nl.Nl(rcvbuf=1 << 20)
        self.ev.subscribe(self.mcgrps["events"])
        self.passed = None
        self.resets = 0
        self.groups = {}            # name -> [passed, failed, details]
        self.order = []
        self.cases = 0

    # -- results ------------------------------------------------------------

    def result(self, group, name, bad, reply=None):
        if group not in self.groups:
            self.groups[group] = [0, 0, []]
            self.order.append(group)
        g = self.groups[group]
        self.cases += 1
        if bad:
            g[1] += 1
            g[2].append("%s: %s" % (name, "; ".join(bad)))
        else:
            g[0] += 1
        if self.verbose:
            print("    %s %s / %s: %s" % ("FAIL" if bad else "ok", group, name,
                                         "; ".join(bad) if bad else reply))

    def report(self, groups=None):
        failed = 0
        for gname in groups or self.order:
            p, f, det = self.groups[gname]
            print("%s: %s: %d case%s" % ("FAIL" if f else "PASS", gname,
                                          p + f, "" if p + f == 1 else "s") +
                  (", %d failed" % f if f else ""))
            for d in det[:12]:
                print("    " + d)
            if len(det) > 12:
                print("    ... %d more" % (len(det) - 12))
            failed += bool(f)
        return failed

    # -- requests -----------------------------------------------------------

    def op(self, name, pairs, mode="do", sock=None):
        g = Gen(self.spec, self.fam, self.ifindex, [(0, 0)])
        return (sock or self.nl).call(g.msg(name, mode, pairs))

    def snapshot(self):
        """The namespace's instances (GROUP_GET and STATS_GET dumps, genl
        payloads) and the module-wide counters (MODULE_GET)."""
        out = []
        for op in ("group-get", "stats-get"):
            r = self.op(op, [], "dump")
            if r.err:
                raise RuntimeError("%s dump: %s" % (op, r))
            out.append(tuple(bytes(x) for x in r.replies))
        r = self.op("module-get", [])
        if r.err:
            raise RuntimeError("module-get: %s" % r)
        out.append(tuple(self.module_state(bytes(x)) for x in r.replies))
        return tuple(out)

    def module_state(self, reply):
        """A MODULE_GET reply less the timer worker's budget pauses
        (timer-throttled, timer-throttled-ns): they count the machine's
        load, not state a request could change."""
        skip = {self.spec.attrs[n]["value"] for n in
                ("timer-throttled", "timer-throttled-ns")
                if n in self.spec.attrs}
        body = b""
        for t, p in nla_list(reply[4:]):
            if t in skip:
                continue
            body += struct.pack("=HH", 4 + len(p), t) + p
            body += b"\0" * (-len(p) % 4)
        return reply[:4] + body

    def diff(self, a, b):
        """What differs between two snapshots, briefly."""
        names = ("GROUP_GET", "STATS_GET", "MODULE_GET")
        out = []
        for n, x, y in zip(names, a, b):
            if x == y:
                continue
            if len(x) != len(y):
                out.append("%s: %d -> %d messages" % (n, len(x), len(y)))
                continue
            for mx, my in zip(x, y):
                if mx == my:
                    continue
                dx, dy = parse_nla(mx[4:]), parse_nla(my[4:])
                keys = sorted(k for k in set(dx) | set(dy)
                              if dx.get(k) != dy.get(k))
                out.append("%s %s: %s" % (n, self.ident(dx), ", ".join(
                    "%s %s -> %s" % (self.spec.by_value.get(k, k),
                                     self.val(dx, k), self.val(dy, k))
                    for k in keys)))
        return "; ".join(out)

    def ident(self, d):
        g = self.spec.attrs["group"]["value"]
        return "group %s" % uint(d[g]) if g in d else ""

    @staticmethod
    def val(d, k):
        if k not in d:
            return "-"
        v = uint(d[k])
        return "(%d bytes)" % len(d[k]) if v is None else v

    def events(self):
        n = 0
        while select.select([self.ev.s], [], [], 0)[0]:
            self.ev.s.recv(1 << 16)
            n += 1
        return n

    def send_as(self, case, m):
        if case.user == "a socket uid 65534 opened":
            if self.passed is None:
                self.passed = nl.Nl(sock=passed_socket(), rcvbuf=1 << 20)
            return self.passed.call(m, wait=case.wait)
        how = "uid" if case.user == "uid 65534" else "caps"

        def child():
            drop_privileges(how)
            return nl.Nl(rcvbuf=1 << 20).call(m, wait=case.wait).as_dict()
        return Reply.from_dict(in_child(child))

    def run_case(self, case, before):
        m = case.build()
        try:
            r = self.send_as(case, m) if case.user else \
                self.nl.call(m, wait=case.wait)
        except (OSError, RuntimeError, TimeoutError) as e:
            self.result(case.group, case.name, ["%s" % e])
            return self.snapshot()
        bad = case.judge(r, m)
        after = self.snapshot()
        if case.expect != "accepted" or case.user:
            if after != before:
                bad.append("STATE CHANGED: " + self.diff(before, after))
                after = self.reset()
        self.result(case.group, case.name, bad, r)
        return after

    # -- phases ---------------------------------------------------------------

    def check_policies(self):
        """The kernel's policies (nlctrl) are the spec's."""
        got, r = self.nl.policies(self.fam)
        g = "the kernel's policies (CTRL_CMD_GETPOLICY) are the spec's"
        if not got:
            self.result(g, "policy dump", ["empty: %s" % r])
            return
        for op, o in self.spec.ops.items():
            for mode, attrs in o["modes"].items():
                k = (o["value"], mode)
                kern = got.get(k)
                if kern is None:
                    self.result(g, "%s %s" % (op, mode),
                                ["no policy in the dump"])
                    continue
                want = {self.spec.attrs[a]["value"]: self.spec.policy_of(a)
                        for a in attrs}
                bad = []
                for t in sorted(set(want) | set(kern)):
                    if want.get(t) != kern.get(t):
                        bad.append("%s: kernel %s spec %s" % (
                            self.spec.by_value.get(t, t), kern.get(t),
                            want.get(t)))
                self.result(g, "%s %s" % (op, mode), bad)
            for mode in ("do", "dump"):
                if mode not in o["modes"] and (o["value"], mode) in got:
                    self.result(g, "%s %s" % (op, mode),
                                ["the kernel has a %s the spec lacks" % mode])

    def negative(self, gen, only):
        self.events()
        before = self.snapshot()
        for case in gen.all_cases():
            if only and not re.search(only, case.group + " " + case.name):
                continue
            before = self.run_case(case, before)
        n = self.events()
        self.result("no event during the refused requests", "events",
                    ["%d events multicast" % n] if n else [])

    def create(self, group, algo, opts, peers):
        pairs = [("ifindex", self.ifindex), ("group", group),
                 ("node-id", 1), ("algo", algo)] + list(opts)
        r = self.op("group-new", pairs)
        if r.err:
            raise SystemExit("nlneg: cannot create group %d (algo %d %s): "
                             "%s" % (group, algo, opts, r))
        for pid in peers:
            r = self.op("peer-add", [("ifindex", self.ifindex),
                                     ("group", group), ("peer-id", pid),
                                     ("peer-lladdr",
                                      bytes([2, 0xe1, 0, 0, 0, pid]))])
            if r.err:
                raise SystemExit("nlneg: peer %d on group %d: %s" %
                                 (pid, group, r))

    def setup(self, algos):
        """One stopped group per algorithm, with peers 2, 3, 4."""
        self.targets, self.configs = [], {}
        for i, (name, v) in enumerate(algos):
            group = 10 + i
            opts = [o for o in TARGET_OPTS.get(name, []) if o[0] in
                    self.spec.ops["group-new"]["modes"]["do"]]
            self.configs[group] = (v, opts, [2, 3, 4])
            self.create(group, *self.configs[group])
            self.targets.append((group, v))

    def reset(self):
        """After a case that changed the state: every instance of the
        namespace deleted, the targets recreated (so that one failure,
        a started group say, does not spill into the next cases)."""
        r = self.op("group-get", [], "dump")
        ifx, grp = self.spec.attrs["ifindex"]["value"], \
            self.spec.attrs["group"]["value"]
        for chunk in r.replies:
            d = parse_nla(chunk[4:])
            self.op("group-del", [("ifindex", uint(d[ifx])),
                                  ("group", uint(d[grp]))])
        for group, cfg in self.configs.items():
            self.create(group, *cfg)
        self.events()
        self.resets += 1
        return self.snapshot()

    def delete(self, group):
        return self.op("group-del", [("ifindex", self.ifindex),
                                     ("group", group)])

    def get(self, group):
        r = self.op("group-get", [("ifindex", self.ifindex),
                                  ("group", group)])
        return parse_nla(r.replies[0][4:]) if not r.err and r.replies else None

    @staticmethod
    def without_seq(snap, seq_type):
        """@snap with GROUP_GET's SEQ (the namespace's last event number,
        moved by instances created and deleted meanwhile) zeroed."""
        def strip(x):
            return b"".join(nla(t, b"\0" * len(p) if t == seq_type else p)
                            for t, p in nla_list(x[4:]))
        return (tuple(strip(x) for x in snap[0]),) + snap[1:]

    def echo(self, cur, sent):
        """The sent values GROUP_GET does not echo."""
        bad = []
        for a, v in sent:
            t = self.spec.attrs[a]["value"]
            if t in cur and v and not isinstance(v, bytes) and \
                    uint(cur[t]) != v:
                bad.append("%s sent %s, GROUP_GET reports %s" %
                           (a, v, uint(cur[t])))
        return bad

    def valid_values(self, a):
        t = self.spec.atype(a)
        if t in INT_FMT:
            lo, hi, tmax = self.spec.int_range(a)
            return [lo] + ([hi] if hi != lo and hi < tmax else [])
        return [self.spec.valid_payload(a)]

    def matrices(self, targets, configs, only):
        """Valid options, alone or with a timing change: refused whole or
        accepted whole."""
        seq_type = self.spec.attrs["seq"]["value"]
        algos = {v: k for k, v in self.spec.enums["algo"].items()}
        new_opts = [a for a in self.spec.ops["group-new"]["modes"]["do"]
                    if a not in self.spec.required("group-new", "do")]
        for _, algo in targets:
            g = "matrix: group-new algo %s, each option at its bounds" % \
                algos[algo]
            if only and not re.search(only, g):
                continue
            for a in new_opts:
                for v in self.valid_values(a):
                    self.atomic(g, "%s %s" % (a, v if not isinstance(
                        v, bytes) else v.hex()), NEW_GROUP, None,
                        [("ifindex", self.ifindex), ("group", NEW_GROUP),
                         ("node-id", 1), ("algo", algo), (a, v)],
                        [(a, v)], seq_type, "group-new")
        set_opts = [a for a in self.spec.ops["group-set"]["modes"]["do"]
                    if a not in self.spec.required("group-set", "do")]
        for group, algo in targets:
            g = "matrix: group-set on the %s group, each option with a " \
                "timing change" % algos[algo]
            if only and not re.search(only, g):
                continue
            for a in set_opts:
                cur = self.get(group)
                comp = "hb-miss" if a != "hb-miss" else "timeout-ns"
                cv = uint(cur[self.spec.attrs[comp]["value"]])
                cv = cv + 1 if comp == "hb-miss" else cv + 100000
                for v in self.valid_values(a):
                    sent = [(a, v), (comp, cv)]
                    self.atomic(g, "%s %s + %s %s" % (a, v if not isinstance(
                        v, bytes) else v.hex(), comp, cv), group,
                        configs[group],
                        [("ifindex", self.ifindex), ("group", group)] + sent,
                        sent, seq_type, "group-set")

    def atomic(self, g, name, group, config, pairs, sent, seq_type, op):
        before = self.snapshot()
        r = self.op(op, pairs)
        if r.err:
            bad = [] if r.msg else ["refused without a message: %s" % r]
            after = self.snapshot()
            if after != before:
                bad.append("refused (%s) but STATE CHANGED: %s" %
                           (r, self.diff(before, after)))
            self.result(g, name + " (refused)", bad)
            return
        cur = self.get(group)
        bad = ["accepted, but no instance"] if cur is None else \
            self.echo(cur, sent)
        # rebuild: delete, and recreate the target as it was
        d = self.delete(group)
        if d.err:
            bad.append("group-del after: %s" % d)
        if config:
            self.create(group, *config)
        after = self.snapshot()
        if self.without_seq(after, seq_type) != \
                self.without_seq(before, seq_type):
            bad.append("not restored: " + self.diff(before, after))
        self.result(g, name + " (accepted)", bad)

    def positive(self, gen):
        """Each command's baseline request, as the cases use it, is
        accepted (on the scratch group); the comparison sees a change."""
        g = "positive controls: the baseline requests are accepted"
        tgt = (SCRATCH_GROUP, self.spec.enums["algo"]["bully"])
        before = self.snapshot()
        self.events()
        order = ["group-new", "peer-add", "group-set", "group-start",
                 "group-elect", "group-get", "stats-get", "module-get",
                 "group-stop", "peer-reset", "peer-del", "group-del"]
        order += [o for o in self.spec.ops if o not in order]
        for op in order:
            o = self.spec.ops[op]
            for mode in o["modes"]:
                pairs = gen.baseline(op, mode, tgt)
                if op == "group-new":
                    pairs = [p if p[0] != "group" else ("group",
                                                        SCRATCH_GROUP)
                             for p in pairs]
                if op in ("peer-del", "peer-reset"):
                    pairs = [p if p[0] != "peer-id" else ("peer-id",
                                                          NEW_PEER)
                             for p in pairs]
                r = self.op(op, pairs, mode)
                bad = [] if r.err == 0 else ["refused: %s" % r]
                if op.endswith("-get") and not r.replies:
                    bad.append("no reply message")
                self.result(g, "%s %s" % (op, mode), bad)
                if op == "group-new":
                    mid = self.snapshot()
                    self.result(g, "the comparison sees the new instance",
                                [] if mid != before else ["no change seen"])
        n = self.events()
        if not n and select.select([self.ev.s], [], [], 2 * SCALE)[0]:
            n = self.events()
        self.result(g, "the event listener works (events of the scratch "
                    "group)", [] if n else ["no event"])
        after = self.snapshot()
        self.result(g, "module counters back after the scratch group",
                    [] if after[2] == before[2] else
                    [self.diff(before[2:], after[2:])])


TARGET_OPTS = {   # a few non-default options per algorithm's target
    "bully": [("hb-miss", 5), ("quorum", 1)],
    "ring": [("suppress", 0), ("pos", 7)],
    "enh-bully": [("preempt", 0)],
    "min-bully": [("ask-suspect", 0)],
    "invitation": [("search-interval-ns", 500000000)],
}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--dev", default="eth0")
    ap.add_argument("--spec", default=SPEC)
    ap.add_argument("--rounds", type=int, default=1)
    ap.add_argument("--only", help="regex over 'group case' names")
    ap.add_argument("--list", action="store_true")
    ap.add_argument("-v", "--verbose", action="store_true")
    a = ap.parse_args()
    spec = Spec(a.spec)
    algos = [(k, v) for k, v in spec.enums["algo"].items() if v]
    if a.list:
        targets = [(10 + i, v) for i, (_, v) in enumerate(algos)]
        gen = Gen(spec, 0x20, 1, targets)
        n = 0
        for c in gen.all_cases():
            if a.only and not re.search(a.only, c.group + " " + c.name):
                continue
            print("%s / %s" % (c.group, c.name))
            n += 1
        print("nlneg: %d cases" % n)
        return 0
    t0 = time.monotonic()
    run = Runner(spec, a.dev, a.verbose)
    print("nlneg: family %s id %d, %s ifindex %d, spec %s: %d commands, %d "
          "attributes" % (spec.name, run.fam, a.dev, run.ifindex,
                          os.path.relpath(a.spec, REPO), len(spec.ops),
                          len(spec.attrs)))
    run.setup(algos)
    targets, configs = run.targets, run.configs
    print("nlneg: %d stopped groups, one per algorithm: %s" % (
        len(targets), ", ".join("%d %s" % (g, n) for (g, _), (n, _) in
                                zip(targets, algos))))
    run.check_policies()
    gen = Gen(spec, run.fam, run.ifindex, targets)
    m0 = run.snapshot()[2]
    slab = [meminfo()]
    for i in range(a.rounds):
        t1 = time.monotonic()
        c0 = run.cases
        run.negative(gen, a.only)
        slab.append(meminfo())
        print("nlneg: round %d: %d cases in %.1f s, SUnreclaim %+d kB" % (
            i + 1, run.cases - c0, time.monotonic() - t1,
            slab[-1] - slab[-2]))
    run.result("nothing leaked: MODULE_GET counters equal after every "
               "round", "module counters",
               [] if run.snapshot()[2] == m0 else ["changed"])
    run.matrices(targets, configs, a.only)
    if not a.only:
        run.positive(gen)
    for group, _ in targets:
        r = run.delete(group)
        run.result("cleanup: the groups deleted", "group %d" % group,
                   ["%s" % r] if r.err else [])
    failed = run.report()
    if a.rounds > 1:
        print("nlneg: SUnreclaim %+d kB over rounds 2..%d (the first warms "
              "the caches)" % (slab[-1] - slab[1], a.rounds))
    if run.resets:
        print("nlneg: %d cases changed the state: every group rebuilt after "
              "each" % run.resets)
    print("nlneg: %d cases, %d passed, %d failed groups of %d, %.1f s" % (
        run.cases, len(run.order) - failed, failed, len(run.order),
        time.monotonic() - t0))
    return 1 if failed else 0


def meminfo():
    with open("/proc/meminfo") as f:
        for line in f:
            if line.startswith("SUnreclaim:"):
                return int(line.split()[1])
    return 0


if __name__ == "__main__":
    sys.exit(main())
