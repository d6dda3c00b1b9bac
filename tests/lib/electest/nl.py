# SPDX-License-Identifier: GPL-2.0
"""The one netlink client of the tests: generic netlink for the "election"
family (family and multicast groups resolved through nlctrl, requests
with extended acks, dumps, events), raw messages for malformed requests,
rtnetlink through the same class (Nl(NETLINK_ROUTE)); attribute helpers;
the uapi enums, read from uapi/linux/election.h; a network namespace
context manager.

    g = nl.Nl()
    fam = g.family("election")
    r = g.request(fam, nl.CMD["ELEC_CMD_GROUP_GET"], nl.key(ifindex, 1))
    r.err, r.msg, r.miss, r.replies      # replies: genl payloads
"""

import errno
import os
import select
import socket
import struct
import time

from electest import REPO, SCALE

NETLINK_ROUTE, NETLINK_GENERIC = 0, 16
SOL_NETLINK = 270
NETLINK_ADD_MEMBERSHIP = 1
NETLINK_CAP_ACK = 10
NETLINK_EXT_ACK = 11
NLMSG_ERROR, NLMSG_DONE = 2, 3
NLM_F_REQUEST, NLM_F_ACK = 0x1, 0x4
NLM_F_DUMP = 0x300
NLM_F_CAPPED, NLM_F_ACK_TLVS = 0x100, 0x200
NLM_F_EXCL, NLM_F_CREATE = 0x200, 0x400
NLA_F_NESTED = 0x8000
NLMSGERR_ATTR_MSG = 1
NLMSGERR_ATTR_OFFS = 2
NLMSGERR_ATTR_POLICY = 4
NLMSGERR_ATTR_MISS_TYPE = 5
NL_POLICY_PAD = 11
GENL_ID_CTRL = 0x10
CTRL_CMD_GETFAMILY = 3
CTRL_CMD_GETPOLICY = 10
CTRL_ATTR_FAMILY_ID = 1
CTRL_ATTR_FAMILY_NAME = 2
CTRL_ATTR_MCAST_GROUPS = 7
CTRL_ATTR_POLICY = 8
CTRL_ATTR_OP_POLICY = 9
CTRL_ATTR_MCAST_GRP_NAME = 1
CTRL_ATTR_MCAST_GRP_ID = 2
CLONE_NEWNET = 0x40000000

# ---------------------------------------------------------------- uapi ---


def uapi_enums():
    """{enum name: {constant: value}} of every enum of the uapi header."""
    path = os.path.join(REPO, "uapi", "linux", "election.h")
    enums, cur, val = {}, None, 0
    with open(path) as f:
        for line in f:
            s = line.strip()
            if s.startswith("enum ") and s.endswith("{"):
                cur, val = s.split()[1], 0
                enums[cur] = {}
                continue
            if cur is None:
                continue
            if s.startswith("}"):
                cur = None
                continue
            if not s or s.startswith(("/*", "*")):
                continue
            name = s.rstrip(",").split("=")[0].strip()
            if "=" in s:
                try:
                    val = int(s.rstrip(",").split("=")[1].strip(), 0)
                except ValueError:
                    continue
            enums[cur][name] = val
            val += 1
    return enums


def names(enum, prefix):
    """{value: lower-case name without @prefix} of one enum's constants."""
    return {v: k[len(prefix):].lower() for k, v in enum.items()
            if k.startswith(prefix)}


_ENUMS = {}


def enums():
    """uapi_enums(), read once."""
    if not _ENUMS:
        _ENUMS.update(uapi_enums())
    return _ENUMS


def __getattr__(name):
    """nl.ENUMS, nl.CMD (enum elec_cmd), nl.ATTR (enum elec_attr): read
    at their first use (a TCG guest pays for every file it reads)."""
    if name == "ENUMS":
        return enums()
    if name in ("CMD", "ATTR"):
        return enums()["elec_" + name.lower()]
    raise AttributeError("module %r has no attribute %r" % (__name__, name))

# ---------------------------------------------------------- attributes ---


def nla(atype, payload, flags=0):
    """One attribute, padded to 4 bytes."""
    hdr = struct.pack("=HH", 4 + len(payload), atype | flags)
    return hdr + payload + b"\0" * ((4 - len(payload) % 4) % 4)


def nla_list(buf):
    """[(type, payload)] of a stream of attributes, repeats kept (flags
    dropped)."""
    out = []
    while len(buf) >= 4:
        ln, t = struct.unpack("=HH", buf[:4])
        if ln < 4:
            break
        out.append((t & 0x3fff, buf[4:ln]))
        buf = buf[(ln + 3) & ~3:]
    return out


def parse_nla(buf):
    """{type: payload} of a stream of attributes (the last of repeats)."""
    return dict(nla_list(buf))


def uint(payload):
    """An unsigned attribute payload of 1, 2, 4 or 8 bytes, else None."""
    fmt = {1: "=B", 2: "=H", 4: "=I", 8: "=Q"}.get(len(payload))
    return struct.unpack(fmt, payload)[0] if fmt else None


def nla_uint(attrs, atype, default=None):
    """An unsigned attribute of {type: payload} @attrs, else @default."""
    v = attrs.get(atype)
    if v is None:
        return default
    n = uint(v)
    return default if n is None else n


def u8(atype, v):
    return nla(atype, struct.pack("=B", v))


def u16(atype, v):
    return nla(atype, struct.pack("=H", v))


def u32(atype, v):
    return nla(atype, struct.pack("=I", v))


def u64(atype, v):
    return nla(atype, struct.pack("=Q", v))


def key(ifindex, group):
    """IFINDEX and GROUP: the attributes naming one instance."""
    attr = enums()["elec_attr"]
    return u32(attr["ELEC_ATTR_IFINDEX"], ifindex) + \
        u16(attr["ELEC_ATTR_GROUP"], group)


def mac_bytes(m):
    """b'...' of "aa:bb:..."."""
    return bytes(int(x, 16) for x in m.split(":"))


def peer_mac(i):
    """The scenarios' MAC of node id @i, 02:e1:<id as 4 bytes>."""
    return struct.pack("!HI", 0x02e1, i)


def parse_view(buf):
    """The GROUP_GET reply @buf (attributes, after the genl header) as the
    dict `electionctl -j show` prints: id, role, leader, term,
    participant, peers [{id, alive}]; with Invitation inv_seq,
    inv_coordinator and members."""
    attr = enums()["elec_attr"]
    roles = names(enums()["elec_role"], "ELEC_ROLE_")
    at = parse_nla(buf)
    v = {"id": nla_uint(at, attr["ELEC_ATTR_NODE_ID"]),
         "role": roles.get(nla_uint(at, attr["ELEC_ATTR_ROLE"]), "?"),
         "leader": nla_uint(at, attr["ELEC_ATTR_LEADER"], 0) or None,
         "term": nla_uint(at, attr["ELEC_ATTR_TERM"], 0),
         "participant": bool(nla_uint(at, attr["ELEC_ATTR_PARTICIPANT"], 0)),
         "peers": []}
    members = []
    pa = attr["ELEC_ATTR_PEER"]
    for t, chunk in nla_list(at.get(attr["ELEC_ATTR_PEERS"], b"")):
        if t != pa:
            continue
        p = parse_nla(chunk)
        pid = nla_uint(p, attr["ELEC_ATTR_PEER_ID"])
        v["peers"].append({"id": pid, "alive": bool(nla_uint(p, attr["ELEC_ATTR_PEER_ALIVE"], 0))})
        if nla_uint(p, attr["ELEC_ATTR_PEER_MEMBER"], 0):
            members.append(pid)
    if attr["ELEC_ATTR_INV_SEQ"] in at:
        coord = nla_uint(at, attr["ELEC_ATTR_INV_COORDINATOR"], 0)
        v["inv_seq"] = nla_uint(at, attr["ELEC_ATTR_INV_SEQ"])
        v["inv_coordinator"] = coord or None
        if coord:
            members.append(v["id"])
        v["members"] = sorted(members)
    return v

# ------------------------------------------------------------ messages ---


class Msg:
    """One request: its bytes with the sequence number patched in at send
    time, and the offsets of its attributes. @attrs: bytes (attributes
    as they are) or a list of raw bytes / (type, payload[, flags])."""

    def __init__(self, family, cmd, attrs, flags=NLM_F_REQUEST | NLM_F_ACK,
                 version=1, reserved=0, genl=True):
        self.offsets = []
        body = struct.pack("=BBH", cmd, version, reserved) if genl else b""
        if isinstance(attrs, (bytes, bytearray)):
            attrs = [bytes(attrs)] if attrs else []
        for a in attrs:
            self.offsets.append(20 + len(body) - 4)
            body += a if isinstance(a, bytes) else nla(*a)
        self.data = bytearray(struct.pack("=IHHII", 16 + len(body), family,
                                          flags, 0, 0) + body)
        self.dump = (flags & NLM_F_DUMP) == NLM_F_DUMP

    def patch_len(self, n):
        struct.pack_into("=I", self.data, 0, n)
        return self

    def truncate(self, n):
        del self.data[n:]
        return self

    def append(self, raw):
        self.data += raw
        return self


class Reply:
    """What came back for one request."""

    def __init__(self):
        self.err = None          # 0 acked, >0 errno, None: no reply
        self.msg = ""            # the extack message
        self.offs = None         # NLMSGERR_ATTR_OFFS
        self.miss = None         # NLMSGERR_ATTR_MISS_TYPE
        self.policy = None       # {NL_POLICY_TYPE_ATTR_*: value}
        self.replies = []        # payloads after the nlmsghdr
        self.types = []          # their nlmsg_type
        self.calls = 0           # recv calls (a dump's calls)

    def as_dict(self):
        return {"err": self.err, "msg": self.msg, "offs": self.offs,
                "miss": self.miss, "policy": self.policy,
                "n": len(self.replies)}

    @staticmethod
    def from_dict(d):
        r = Reply()
        r.err, r.msg, r.offs, r.miss = d["err"], d["msg"], d["offs"], d["miss"]
        r.policy = ({int(k): v for k, v in d["policy"].items()}
                    if d["policy"] is not None else None)
        r.replies = [b""] * d["n"]
        return r

    def attrs(self, i=0):
        """{type: payload} of genl reply @i (after its genl header)."""
        return parse_nla(self.replies[i][4:])

    def __str__(self):
        if self.err is None:
            return "no reply"
        s = "error %s" % (errno.errorcode.get(self.err, self.err)
                          if self.err else "0 (accepted)")
        if self.msg:
            s += " msg %r" % self.msg
        if self.offs is not None:
            s += " offs %d" % self.offs
        if self.miss is not None:
            s += " miss %d" % self.miss
        if self.policy:
            s += " policy %s" % self.policy
        if self.replies:
            s += " replies %d" % len(self.replies)
        return s


def policy_attrs(buf):
    """{NL_POLICY_TYPE_ATTR_*: value} of one attribute's policy (no pad)."""
    return {t: uint(v) for t, v in nla_list(buf) if t != NL_POLICY_PAD}


def parse_err(r, chunk, flags):
    """Fill Reply @r from an NLMSG_ERROR payload."""
    if len(chunk) < 20:
        raise OSError(errno.EPROTO, "truncated netlink error message")
    r.err = -struct.unpack_from("=i", chunk)[0]
    if not flags & NLM_F_ACK_TLVS:
        return
    olen = struct.unpack_from("=I", chunk, 4)[0]
    skip = 4 + (16 if flags & NLM_F_CAPPED else (olen + 3) & ~3)
    tlvs = parse_nla(chunk[skip:])
    r.msg = tlvs.get(NLMSGERR_ATTR_MSG, b"").rstrip(b"\0").decode(
        errors="replace")
    if NLMSGERR_ATTR_OFFS in tlvs:
        r.offs = uint(tlvs[NLMSGERR_ATTR_OFFS])
    if NLMSGERR_ATTR_MISS_TYPE in tlvs:
        r.miss = uint(tlvs[NLMSGERR_ATTR_MISS_TYPE])
    if NLMSGERR_ATTR_POLICY in tlvs:
        r.policy = policy_attrs(tlvs[NLMSGERR_ATTR_POLICY])


def messages(data):
    """(type, flags, seq, payload) of every netlink message in @data."""
    off = 0
    while off + 16 <= len(data):
        ln, typ, flags, seq, _ = struct.unpack_from("=IHHII", data, off)
        if ln < 16 or off + ln > len(data):
            raise OSError(errno.EPROTO, "bad netlink length")
        yield typ, flags, seq, data[off + 16:off + ln]
        off += (ln + 3) & ~3

# -------------------------------------------------------------- socket ---


class Nl:
    """A netlink socket (generic netlink unless @proto) with extended,
    capped acks. @sock: an open socket to use (e.g. one another user
    opened); @rcvbuf: SO_RCVBUF. Requests wait for their answer at most
    @timeout seconds (default 10 s times ELEC_TIMER_SCALE): TimeoutError."""

    def __init__(self, proto=NETLINK_GENERIC, sock=None, rcvbuf=None,
                 timeout=None):
        self.s = sock or socket.socket(socket.AF_NETLINK, socket.SOCK_RAW,
                                       proto)
        if sock is None:
            self.s.bind((0, 0))
        self.s.setsockopt(SOL_NETLINK, NETLINK_EXT_ACK, 1)
        self.s.setsockopt(SOL_NETLINK, NETLINK_CAP_ACK, 1)
        if rcvbuf:
            self.s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
        self.timeout = timeout or 10 * SCALE
        self.seq = int(time.time()) & 0xffff
        self.mcast = {}

    def close(self):
        self.s.close()

    # -- one request --------------------------------------------------------

    def send(self, m):
        """Send Msg @m with the next sequence number; that number."""
        self.seq += 1
        struct.pack_into("=I", m.data, 8, self.seq)
        self.s.send(bytes(m.data))
        return self.seq

    def recv(self, seq, m, wait=None, between=None):
        """The Reply to request @seq (Msg @m): its replies until its ack,
        NLMSG_DONE or error. With @wait (s): no reply within it is a
        possible outcome (err None). @between: called after every recv
        but the last (a dump's slow reader)."""
        r = Reply()
        deadline = time.monotonic() + (wait or self.timeout)
        ack = struct.unpack_from("=H", m.data, 6)[0] & NLM_F_ACK
        while True:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self.s], [], [], left)[0]:
                if wait:
                    return r
                raise TimeoutError("no reply to a netlink request")
            data = self.s.recv(1 << 20)
            r.calls += 1
            for typ, flags, rseq, chunk in messages(data):
                if rseq != seq:
                    continue       # a late answer to an earlier request
                # the wait is for the next message: a long dump goes on
                deadline = time.monotonic() + (wait or self.timeout)
                if typ == NLMSG_ERROR:
                    parse_err(r, chunk, flags)
                    return r
                if typ == NLMSG_DONE:
                    # a dump refused by its first call: the errno and the
                    # message come here, not in an NLMSG_ERROR
                    r.err = -struct.unpack_from("=i", chunk)[0] \
                        if len(chunk) >= 4 else 0
                    if flags & NLM_F_ACK_TLVS:
                        r.msg = parse_nla(chunk[4:]).get(
                            NLMSGERR_ATTR_MSG, b"").rstrip(b"\0").decode(
                            errors="replace")
                    return r
                r.replies.append(chunk)
                r.types.append(typ)
                if not m.dump and not ack:
                    r.err = 0
                    return r
            if between:
                between()
                deadline = time.monotonic() + (wait or self.timeout)

    def call(self, m, wait=None, between=None):
        """Send Msg @m; its Reply (see recv())."""
        return self.recv(self.send(m), m, wait, between)

    def request(self, family, cmd, attrs=b"", flags=NLM_F_REQUEST | NLM_F_ACK):
        """A generic netlink request of @family with @attrs; its Reply."""
        return self.call(Msg(family, cmd, attrs, flags))

    def dump(self, family, cmd, attrs=b"", between=None):
        """An NLM_F_DUMP request; its Reply (replies: one per object,
        calls: the recv calls it took)."""
        return self.call(Msg(family, cmd, attrs, NLM_F_REQUEST | NLM_F_DUMP),
                         between=between)

    # -- several requests in one sendmsg (rtnetlink) ----------------------

    def send_many(self, reqs):
        """@reqs: [(type, flags, payload)], sent in ONE sendmsg with
        NLM_F_ACK; their sequence numbers."""
        buf, seqs = b"", []
        for typ, flags, payload in reqs:
            self.seq += 1
            buf += struct.pack("=IHHII", 16 + len(payload), typ,
                               NLM_F_REQUEST | NLM_F_ACK | flags, self.seq,
                               0) + payload
            buf += b"\0" * ((4 - len(buf) % 4) % 4)
            seqs.append(self.seq)
        self.s.send(buf)
        return seqs

    def acks(self, seqs):
        """Wait for the acks of @seqs: ({seq: errno}, [(type, payload)])."""
        errs, replies = {}, []
        want = set(seqs)
        deadline = time.monotonic() + self.timeout
        while len(errs) < len(want):
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self.s], [], [], left)[0]:
                raise TimeoutError("no ack to %d netlink requests" % (
                    len(want) - len(errs)))
            for typ, _, seq, chunk in messages(self.s.recv(65536)):
                if typ == NLMSG_ERROR:
                    if seq in want:
                        errs[seq] = -struct.unpack_from("=i", chunk)[0]
                elif seq in want:
                    replies.append((typ, chunk))
        return errs, replies

    def call_many(self, reqs):
        """send_many() and its acks; OSError on the first refusal."""
        errs, _ = self.acks(self.send_many(reqs))
        bad = [e for e in errs.values() if e]
        if bad:
            raise OSError(bad[0], "netlink request refused: %s" %
                          os.strerror(bad[0]))

    # -- nlctrl -------------------------------------------------------------

    def resolve(self, name="election"):
        """(family id, {multicast group name: id}) of family @name; the
        groups also kept in self.mcast. Reply error: OSError."""
        r = self.request(GENL_ID_CTRL, CTRL_CMD_GETFAMILY,
                         [(CTRL_ATTR_FAMILY_NAME, name.encode() + b"\0")])
        for chunk in r.replies:
            a = parse_nla(chunk[4:])
            if CTRL_ATTR_FAMILY_ID in a:
                grps = {}
                for _, g in nla_list(a.get(CTRL_ATTR_MCAST_GROUPS, b"")):
                    gd = parse_nla(g)
                    gname = gd[CTRL_ATTR_MCAST_GRP_NAME].rstrip(b"\0")
                    grps[gname.decode()] = uint(gd[CTRL_ATTR_MCAST_GRP_ID])
                self.mcast = grps
                return uint(a[CTRL_ATTR_FAMILY_ID]), grps
        raise OSError(r.err or errno.ENOENT, "family %s not found (%s)" %
                      (name, r))

    def family(self, name="election"):
        """The id of generic netlink family @name (SystemExit if none)."""
        try:
            return self.resolve(name)[0]
        except OSError as e:
            raise SystemExit(str(e))

    def subscribe(self, group, family="election"):
        """Join multicast group @group (a name of @family, or an id)."""
        if not isinstance(group, int):
            grps = self.mcast or self.resolve(family)[1]
            if group not in grps:
                raise SystemExit("multicast group %s/%s not found" %
                                 (family, group))
            group = grps[group]
        self.s.setsockopt(SOL_NETLINK, NETLINK_ADD_MEMBERSHIP, group)

    def policies(self, fam):
        """{(cmd, 'do'|'dump'): {attr type: {NL_POLICY_TYPE_ATTR_*: v}}} of
        family @fam (CTRL_CMD_GETPOLICY), and the Reply."""
        r = self.call(Msg(GENL_ID_CTRL, CTRL_CMD_GETPOLICY,
                          [(CTRL_ATTR_FAMILY_ID, struct.pack("=H", fam))],
                          flags=NLM_F_REQUEST | NLM_F_DUMP))
        ops, pols = {}, {}
        for chunk in r.replies:
            a = parse_nla(chunk[4:])
            for cmd, opn in nla_list(a.get(CTRL_ATTR_OP_POLICY, b"")):
                for k, idx in nla_list(opn):
                    ops[(cmd, {1: "do", 2: "dump"}[k])] = uint(idx)
            for idx, pn in nla_list(a.get(CTRL_ATTR_POLICY, b"")):
                for at, an in nla_list(pn):
                    pols.setdefault(idx, {})[at] = policy_attrs(an)
        return {k: pols.get(idx, {}) for k, idx in ops.items()}, r

    # -- events -------------------------------------------------------------

    def events(self, family):
        """The genl payloads of the messages of @family queued on this
        (non-blocking, subscribed) socket; {"lost": n} counts ENOBUFS."""
        out = []
        while True:
            try:
                data = self.s.recv(1 << 16)
            except (BlockingIOError, InterruptedError):
                return out
            except OSError as e:
                if e.errno == errno.ENOBUFS:
                    out.append(None)     # the caller's "lost" marker
                    continue
                raise
            out.extend(chunk for typ, _, _, chunk in messages(data)
                       if typ == family)

# ------------------------------------------------------------ namespaces ---


def setns(fd):
    """Enter the network namespace of open file @fd."""
    import ctypes   # here: importing it costs a TCG guest ~80 ms a run

    libc = ctypes.CDLL(None, use_errno=True)
    if libc.setns(fd, CLONE_NEWNET) != 0:
        err = ctypes.get_errno()
        raise OSError(err, "setns: " + os.strerror(err))


def setns_path(path):
    """Enter the network namespace of @path (/run/netns/NAME, ...)."""
    fd = os.open(path, os.O_RDONLY)
    try:
        setns(fd)
    finally:
        os.close(fd)


class InNetns:
    """with InNetns(ns): sockets created inside belong to namespace @ns
    (a name under /run/netns; None or "": stay); back home afterwards."""

    def __init__(self, ns):
        self.ns = ns

    def __enter__(self):
        # this thread's namespace (setns moves one thread)
        self.home = os.open("/proc/thread-self/ns/net", os.O_RDONLY)
        try:
            if self.ns:
                setns_path("/run/netns/" + self.ns)
        except OSError:
            os.close(self.home)
            raise
        return self

    def __exit__(self, *exc):
        setns(self.home)
        os.close(self.home)
        return False


def in_netns(ns):
    """A preexec_fn entering namespace @ns (for subprocess)."""
    return lambda: setns_path("/run/netns/" + ns)
