#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Helpers for the VM scenarios (run inside the guest, as root), run as
tests/vm/elec.py (which imports this module, so that Python can use the
bytecode that tests/vm/run compiles on the host: a TCG guest would spend
~0.6 s compiling this file at every run).

  elec.py groups --group G --timeout S [--stable S] SIDE...
      Invitation: poll `electionctl -j show` until the nodes of every SIDE
      (a comma-separated list of NETNS:ID) form one group each: the same
      group number (inv_seq, inv_coordinator), coordinated by the side's
      highest id (role leader, the others follower, every leader that
      id), members exactly the side's ids; the sides' group numbers all
      distinct. Then, with --stable, check that it holds for S seconds.
      Prints one JSON line {"groups": [[seq, coordinator], ...] (one per
      side), "took": seconds}; exit 1 with the last views if not.
  elec.py nl CMD [ATTR=VALUE...]
      Send one raw generic netlink request to the "election" family (for
      requests electionctl would refuse itself) and print
      "error=<errno> msg=<extack message> miss=<missing attr type>".
      Exit 0 if the kernel acked it, 1 if it refused it.
  elec.py stats  --group G NODE...
      Print every node's `electionctl -j stats` object as one JSON object
      keyed by node id.
  elec.py elect  --group G [--dev IF] NODE...
      Begin an election on every NODE at the same moment: one generic
      netlink socket is opened in each node's namespace first, then the
      GROUP_ELECT requests are sent back to back (microseconds apart,
      where one electionctl run per node would spread them over the
      ~100 ms each costs in a TCG guest). Exit 0 if every node acked.
  elec.py inject --dev IF --seconds S [--rate N]
      Send EtherType 0x88B5 frames out of IF for S seconds: a mix of
      malformed frames and well-formed ELECTION/COORDINATOR/HEARTBEAT
      frames from ids that are and are not peers, for --group and for
      --wrong-group (default 999). Bounded in time, rate and count.
  elec.py forge --dev IF --type T --src IDS [--dst ID] [--term N]
                [--term-step K] ...
      Send well-formed frames as a hostile host would: one per id of IDS
      (a list of ids and ranges, "3-202,1", sent in that order), --count
      rounds (default 1); --type election|answer|coordinator|heartbeat,
      query|cid, --algo (default bully; min-bully and enh-bully COORDINATOR
      frames carry no payload here), --group, --term (may be 2^64-1), --src-mac
      (default: the device's own; "auto": the scenarios' MAC of each
      source id, 02:e1:<id>; spoofing allowed), --dst-mac (default
      broadcast), --rate frames/s (default: as fast as possible).
  elec.py mass --dev IF --groups A-B --id N [--peers K]
      Create one stopped Bully instance per group A..B on IF (GROUP_NEW
      over one generic netlink socket, back to back; with K peers each)
      and print how long it took. Exit 1 on the first refusal.
  elec.py dump [--stats] [--ifindex N] [--group G] [--repeat R]
      Dump GROUP_GET (or STATS_GET) of the namespace over generic netlink,
      R times; print the instances counted, the replies (dump calls)
      and the wall time per dump and per 1000 instances. With
      --pause-cmd SHELL: one dump, SHELL run after its first call; print
      the instances per ifindex and the duplicates.
  elec.py tap --name IF --cmd SHELL [--setlink TYPE]
      Open a tap device IF (not persistent: it goes when the file closes),
      run SHELL, then try TUNSETLINK TYPE (default ARPHRD_NONE, 0xfffe)
      while IF is down and print the result ("setlink: ok" or
      "setlink: error=<errno> <name>"); then close the device.
  elec.py sniff --dev IF --out F [--seconds S]
      Record every frame of our EtherType that IF receives (an AF_PACKET
      socket, independent of the module) as one JSON line each: ts_ns
      (CLOCK_MONOTONIC, the clock of the events' ts_ns), src_mac, type,
      flags, group, src, dst, term; flushed per frame. Runs until S
      seconds passed (default: 600) or SIGTERM/SIGINT.
  elec.py watch --group G --out F [--interval S] [--seconds S] NODE...
      Record every node's role, leader and term (GROUP_GET every
      --interval, default 0.02 s, over one generic netlink socket per
      namespace: no process per poll) and every event of group G (each
      namespace's "events" multicast group, with the kernel's ts_ns,
      CLOCK_MONOTONIC) as JSON lines in F, until S seconds passed
      (default 600) or SIGTERM/SIGINT. Prints "watching" once set up.
      A poll round is written when a state changed, after an event, with
      two nodes in role leader and every 25th round; the last line
      counts every round, those with two leaders and event seq gaps.
      STATS_GET at the start and the end (quorum_lost, alive counters).
  elec.py roles --file F [--quorum on|off] [--origin-real NS] [--timeline] [--shell]
      Judge a watch record: per node the intervals in which it held the
      role leader, rebuilt from its leader_changed events (quorum on: an
      event naming itself is its claim, role candidate; a second one, the
      leader unchanged, its confirmation, role leader; quorum off: the
      first one); the overlaps of two nodes' intervals; the poll rounds
      in which two nodes read role leader; the poll samples the intervals
      contradict; per node, around the origin, when it left the role it
      held there (down), took it next (up) and left that (upend), and
      whether it held it throughout (held). Times in s relative to NS
      (CLOCK_REALTIME ns, `date +%s%N`; default the watch's start); per
      node the growth of quorum_lost, tx.alive and rx.alive over the
      watch (watch reads STATS_GET at its start and end). One JSON
      object, or with --shell lines R_<field>=<value> (R_down_<id>,
      R_quorum_lost_<id>, ...) to eval; --timeline also prints the events
      to stderr.
  elec.py seqcheck --file F [--expect-groups G,..] [--show-dev IF]
      Check an `electionctl -j monitor` capture: SEQ strictly increasing by
      one (no gap, no "lost" line); each instance's events in its core's
      order (their ts_ns, the time of the core call, never decreasing);
      and for every group G the last leader_changed event's leader equal
      to `electionctl -j show` on --show-dev.
"""

import argparse
import json
import os
import socket
import struct
import subprocess
import sys
import time

REPO = os.environ.get("ELECTION_REPO") or os.path.dirname(
    os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(REPO, "tests", "lib"))
from electest import checks, events, frames, nl  # noqa: E402
from electest.checks import CTL, all_stats, parse_nodes  # noqa: E402

# ------------------------------------------------- electest.checks' ---


def cmd_groups(a):
    return checks.groups([parse_nodes(s.split(",")) for s in a.sides],
                         a.group, a.timeout, a.stable, a.interval, a.dev)


def cmd_stats(a):
    print(json.dumps(all_stats(parse_nodes(a.nodes), a.group, a.dev),
                     sort_keys=True))
    return 0

# ------------------------------------------------------- raw genetlink ---


ATTR_FMT = {  # attribute name -> struct format ("mac" / "str" special)
    "IFINDEX": "I", "GROUP": "H", "NODE_ID": "I", "ALGO": "B",
    "HB_INTERVAL_NS": "Q", "HB_MISS": "I", "TIMEOUT_NS": "Q",
    "COORD_TIMEOUT_NS": "Q", "PEER_ID": "I", "PEER_LLADDR": "mac",
    "IFNAME": "str", "POS": "I", "PEER_POS": "I", "SUPPRESS": "B",
    "ASK_SUSPECT": "B", "PREEMPT": "B", "PREEMPT_DELAY_NS": "Q",
    "KEY": "hex", "KEY_NONE": "flag", "QUORUM": "B",
    "KEY_NEXT": "hex", "KEY_NEXT_NONE": "flag",
}


def cmd_nl(a):
    attrs_enum = nl.ATTR
    cname = "ELEC_CMD_" + a.cmd.upper()
    if cname not in nl.CMD:
        raise SystemExit("unknown command %s" % a.cmd)
    payload = b""
    for kv in a.attrs:
        k, _, v = kv.partition("=")
        k = k.upper()
        aname = "ELEC_ATTR_" + k
        if aname not in attrs_enum or k not in ATTR_FMT:
            raise SystemExit("unknown attribute %s" % k)
        fmt = ATTR_FMT[k]
        if fmt == "mac":
            data = nl.mac_bytes(v)
        elif fmt == "str":
            data = v.encode() + b"\0"
        elif fmt == "hex":
            data = bytes.fromhex(v)
        elif fmt == "flag":
            data = b""
        else:
            data = struct.pack("=" + fmt, int(v, 0))
        payload += nl.nla(attrs_enum[aname], data)
    g = nl.Nl()
    r = g.request(g.family("election"), nl.CMD[cname], payload)
    miss_name = None
    if r.miss is not None:
        miss_name = next((n for n, v in attrs_enum.items() if v == r.miss),
                         str(r.miss))
    print("error=%d msg=%s miss=%s" % (r.err, r.msg or "", miss_name or ""))
    return 0 if r.err == 0 else 1


def node_socks(nodes, dev, group, events=False):
    """Per NODE (NETNS, ID) of @nodes: (NETNS, ID, an nl.Nl created in
    that namespace (a socket belongs to the namespace it was created in),
    the family id, IFINDEX and GROUP of the node's instance, and with
    @events a non-blocking nl.Nl subscribed to the "events" group)."""
    out = []
    for ns, nid in nodes:
        with nl.InNetns(ns):
            g = nl.Nl()
            fam = g.family("election")
            ev = None
            if events:
                ev = nl.Nl(rcvbuf=1 << 22)
                ev.subscribe(g.mcast["events"])
                ev.s.setblocking(False)
            out.append((ns, nid, g, fam, ev,
                        nl.key(socket.if_nametoindex(dev), group)))
    return out


def cmd_elect(a):
    cmd = nl.CMD["ELEC_CMD_GROUP_ELECT"]
    nodes = parse_nodes(a.nodes)
    socks = [(ns, nid, g, nl.Msg(fam, cmd, k))
             for ns, nid, g, fam, _, k in node_socks(nodes, a.dev, a.group)]
    t0 = time.monotonic()
    seqs = [g.send(m) for _, _, g, m in socks]
    spread = time.monotonic() - t0
    rc = 0
    for (ns, nid, g, m), seq in zip(socks, seqs):
        r = g.recv(seq, m)
        if r.err:
            print("elect: %s (id %d) refused: error=%d msg=%s" % (ns, nid, r.err, r.msg))
            rc = 1
    print("elect: GROUP_ELECT sent to %s within %.0f us%s" % (
        " ".join(str(nid) for _, nid in nodes), spread * 1e6,
        "" if rc else ", all acked"))
    return rc

# --------------------------------------------------------------- inject ---


def cmd_inject(a):
    s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
    s.bind((a.dev, 0))
    src_mac = s.getsockname()[4]
    ids = [int(x) for x in a.ids.split(",")] if a.ids else [1, 2, 3]
    import random

    rnd = random.Random(a.seed)
    end = time.monotonic() + a.seconds
    sent = 0
    gap = 1.0 / a.rate if a.rate > 0 else 0
    while time.monotonic() < end and sent < a.max_frames:
        kind = rnd.randrange(6)
        if kind == 0:      # short frame: truncated header
            body = bytes(rnd.randrange(256) for _ in range(rnd.randrange(1, 24)))
        elif kind == 1:    # random garbage of a plausible size
            body = bytes(rnd.randrange(256) for _ in range(rnd.randrange(24, 64)))
        else:              # well-formed header, type 1..4, maybe a known id
            typ = rnd.randrange(1, 5)
            grp = rnd.choice([a.group, a.group, a.wrong_group])
            src = rnd.choice(ids + [rnd.randrange(1, 1 << 32)])
            dst = rnd.choice([0, 0] + ids)
            term = rnd.randrange(0, 4)
            body = frames.header(typ, 1, grp, src, dst, term)
        try:
            s.send(frames.ether(frames.BROADCAST, src_mac, body, a.ethertype))
            sent += 1
        except OSError:
            time.sleep(0.01)   # device gone or queue full: keep going until the end
        if gap:
            time.sleep(gap)
    print("inject: sent %d frames on %s in %.1fs" % (sent, a.dev, a.seconds))
    return 0


# ---------------------------------------------------------------- sniff ---


def cmd_sniff(a):
    import signal

    stop = []
    signal.signal(signal.SIGTERM, lambda *_: stop.append(1))
    signal.signal(signal.SIGINT, lambda *_: stop.append(1))
    s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW,
                      socket.htons(a.ethertype))
    s.bind((a.dev, 0))
    s.settimeout(0.1)
    end = time.monotonic() + a.seconds
    n = 0
    with open(a.out, "w") as f:
        print("sniff: listening on %s" % a.dev, flush=True)
        while not stop and time.monotonic() < end:
            try:
                frame = s.recv(2048)
            except socket.timeout:
                continue
            except InterruptedError:
                continue
            ts = time.monotonic_ns()
            h = frames.unpack(frame[14:])
            if h is None:
                continue
            f.write(json.dumps({"ts_ns": ts, "src_mac": frame[6:12].hex(":"),
                                "type": h["type"], "flags": h["flags"],
                                "group": h["group"], "src": h["src"],
                                "dst": h["dst"], "term": h["term"]}) + "\n")
            f.flush()
            n += 1
    print("sniff: %d frames" % n)
    return 0


# ---------------------------------------------------------------- forge ---

# what forge sends (its --type and --algo choices)
FORGE_TYPES = ("election", "answer", "coordinator", "heartbeat", "query", "cid")
FORGE_ALGOS = ("bully", "ring", "ring-all", "ring-list", "min-bully", "enh-bully")


def cmd_forge(a):
    s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
    s.bind((a.dev, 0))
    own = s.getsockname()[4]
    dst_mac = nl.mac_bytes(a.dst_mac) if a.dst_mac else frames.BROADCAST

    def frames_for(term):
        out = []
        for src in frames.id_list(a.src):
            if a.src_mac == "auto":
                src_mac = nl.peer_mac(src)
            else:
                src_mac = nl.mac_bytes(a.src_mac) if a.src_mac else own
            body = frames.header(frames.TYPES[a.type], frames.ALGOS[a.algo],
                                 a.group, src, a.dst, term)
            out.append(frames.ether(dst_mac, src_mac, body, a.ethertype))
        return out
    todo = frames_for(a.term)
    gap = 1.0 / a.rate if a.rate > 0 else 0
    sent = 0
    t0 = time.monotonic()
    for k in range(a.count):
        if a.term_step and k:
            todo = frames_for(a.term + k * a.term_step)
        for frame in todo:
            try:
                s.send(frame)
                sent += 1
            except OSError:
                time.sleep(0.001)
            if gap:
                time.sleep(gap)
    print("forge: %d %s frames src %s dst %d term %d in %.2fs" % (
        sent, a.type, a.src, a.dst, a.term, time.monotonic() - t0))
    return 0 if sent == a.count * len(todo) else 1

# ------------------------------------------------------------ mass, dump ---


def cmd_mass(a):
    cmd, attr = nl.CMD, nl.ATTR
    lo, _, hi = a.groups.partition("-")
    lo, hi = int(lo), int(hi or lo)
    ifindex = socket.if_nametoindex(a.dev)
    g = nl.Nl()
    fam = g.family("election")
    t0 = time.monotonic()
    for grp in range(lo, hi + 1):
        key = nl.key(ifindex, grp)
        r = g.request(fam, cmd["ELEC_CMD_GROUP_NEW"],
                      key + nl.u32(attr["ELEC_ATTR_NODE_ID"], a.id) +
                      nl.u8(attr["ELEC_ATTR_ALGO"], 1))
        if r.err:
            print("mass: group %d refused: error=%d msg=%s" % (grp, r.err, r.msg))
            return 1
        for k in range(a.peers):
            pid = a.id + 1 + k
            r = g.request(fam, cmd["ELEC_CMD_PEER_ADD"],
                          key + nl.u32(attr["ELEC_ATTR_PEER_ID"], pid) +
                          nl.nla(attr["ELEC_ATTR_PEER_LLADDR"], nl.peer_mac(pid)))
            if r.err:
                print("mass: peer %d of group %d refused: error=%d msg=%s" %
                      (pid, grp, r.err, r.msg))
                return 1
    dt = time.monotonic() - t0
    n = hi - lo + 1
    print("mass: %d instances on %s in %.2fs (%.1f us each)" % (
        n, a.dev, dt, dt / n * 1e6))
    return 0


def dump_once(g, fam, cmd, payload, keys=None, pause=None):
    """(instances, dump calls) of one NLM_F_DUMP request; with @keys (a
    list), the (ifindex, group) of each instance is appended; @pause, if
    given, runs once after the first batch has been read."""
    todo = [pause] if pause else []
    r = g.dump(fam, cmd, payload, between=lambda: todo and todo.pop()())
    if r.err:
        raise SystemExit("dump: error %d" % r.err)
    if keys is not None:
        a_if, a_grp = nl.ATTR["ELEC_ATTR_IFINDEX"], nl.ATTR["ELEC_ATTR_GROUP"]
        for chunk in r.replies:
            at = nl.parse_nla(chunk[4:])
            keys.append((nl.uint(at[a_if]), nl.uint(at[a_grp])))
    return len(r.replies), r.calls


def cmd_dump(a):
    cmd = nl.CMD["ELEC_CMD_STATS_GET" if a.stats else "ELEC_CMD_GROUP_GET"]
    attr = nl.ATTR
    payload = b""
    if a.ifindex:
        payload += nl.u32(attr["ELEC_ATTR_IFINDEX"], a.ifindex)
    if a.group:
        payload += nl.u16(attr["ELEC_ATTR_GROUP"], a.group)
    g = nl.Nl(rcvbuf=1 << 20)
    fam = g.family("election")
    if a.pause_cmd:
        # one dump with a command run between its first and second call
        keys = []
        count, calls = dump_once(
            g, fam, cmd, payload, keys,
            lambda: subprocess.run(["sh", "-c", a.pause_cmd], check=False))
        dups = len(keys) - len(set(keys))
        print(json.dumps({"instances": count, "calls": calls,
                          "duplicates": dups,
                          "per_ifindex": {str(i): sum(1 for k in keys if k[0] == i)
                                          for i in sorted({k[0] for k in keys})}}))
        return 0
    best = None
    for _ in range(a.repeat):
        t0 = time.monotonic()
        count, calls = dump_once(g, fam, cmd, payload)
        dt = time.monotonic() - t0
        best = dt if best is None else min(best, dt)
    per_k = best / count * 1000 if count else 0
    print(json.dumps({"instances": count, "calls": calls, "seconds": round(best, 4),
                      "seconds_per_1k": round(per_k, 5)}))
    return 0

# ------------------------------------------------------------------ tap ---


TUNSETIFF = 0x400454ca
TUNSETLINK = 0x400454cd
IFF_TAP = 0x0002
IFF_NO_PI = 0x1000


def cmd_tap(a):
    import errno
    import fcntl
    fd = os.open("/dev/net/tun", os.O_RDWR)
    ifr = struct.pack("16sH", a.name.encode(), IFF_TAP | IFF_NO_PI)
    fcntl.ioctl(fd, TUNSETIFF, ifr)
    rc = subprocess.run(["sh", "-c", a.cmd]).returncode
    print("tap: %s created; command exit %d" % (a.name, rc))
    try:
        fcntl.ioctl(fd, TUNSETLINK, a.setlink)
        print("setlink: ok")
    except OSError as e:
        print("setlink: error=%d %s" % (e.errno, errno.errorcode.get(e.errno, "?")))
    os.close(fd)
    return rc

# ------------------------------------------------------------- seqcheck ---


def cmd_seqcheck(a):
    m = events.monitor_check(a.file)
    if "error" in m:
        print("seqcheck: not JSON: %r" % m["error"])
        return 1
    seqs, lost, bad, backwards = m["seqs"], m["lost"], m["bad"], m["backwards"]
    last_leader = m["last_leader"]
    print("seqcheck: %d events, seq %s..%s, %d gap lines, %d steps not +1%s" % (
        len(seqs), seqs[0] if seqs else "-", seqs[-1] if seqs else "-",
        lost, len(bad), (": first %r" % (bad[:5],)) if bad else ""))
    print("seqcheck: %d events out of their instance's core order%s" % (
        len(backwards), (": first %r" % (backwards[:5],)) if backwards else ""))
    rc = 0 if seqs and not bad and not lost and not backwards else 1
    groups = [int(x) for x in a.expect_groups.split(",")] if a.expect_groups else []
    for grp in groups:
        v = show_dev(a.show_dev, grp)
        want = v.get("leader") if isinstance(v, dict) else v
        got = last_leader.get(grp, "none seen")
        ok = got == want
        print("seqcheck: group %d: last leader_changed %s, show %s: %s" % (
            grp, got, want, "same" if ok else "DIFFERENT"))
        if not ok:
            rc = 1
    return rc


def show_dev(dev, group):
    p = subprocess.run([CTL, "-j", "show", "dev", dev, "group", str(group)],
                       capture_output=True, text=True, timeout=20)
    if p.returncode:
        return "error: " + p.stderr.strip()
    return json.loads(p.stdout)[0]


# ------------------------------------------------------- watch, roles ---

def cmd_watch(a):
    """Record every node's role, leader and term (GROUP_GET every
    --interval, over one socket per namespace) and every event of the
    group (the "events" multicast group of each namespace, kernel ts_ns),
    as JSON lines in --out, until --seconds pass or SIGTERM/SIGINT."""
    import signal

    enums = nl.ENUMS
    cmd, attr = nl.CMD, nl.ATTR
    roles = nl.names(enums["elec_role"], "ELEC_ROLE_")
    evnames = nl.names(enums["elec_event"], "ELEC_EVENT_")
    stop = []
    signal.signal(signal.SIGTERM, lambda *_: stop.append(1))
    signal.signal(signal.SIGINT, lambda *_: stop.append(1))
    socks = node_socks(parse_nodes(a.nodes), a.dev, a.group, events=True)
    out = open(a.out, "w")

    def put(obj):
        out.write(json.dumps(obj, separators=(",", ":")) + "\n")

    alive = enums["elec_msg_type"]["ELEC_MSG_ALIVE"]

    def put_stats(when):
        # quorum_lost and the ALIVE counters of every node
        for ns, nid, g, fam, ev, payload in socks:
            r = g.request(fam, cmd["ELEC_CMD_STATS_GET"], payload)
            if r.err or not r.replies:
                put({"k": "stats", "when": when, "n": nid,
                     "error": "%d %s" % (r.err, r.msg)})
                continue
            at = r.attrs()
            put({"k": "stats", "when": when, "n": nid,
                 "quorum_lost": nl.nla_uint(at, attr["ELEC_ATTR_QUORUM_LOST"]),
                 "tx_alive": nl.nla_uint(nl.parse_nla(at.get(attr["ELEC_ATTR_TX"], b"")), alive),
                 "rx_alive": nl.nla_uint(nl.parse_nla(at.get(attr["ELEC_ATTR_RX"], b"")), alive)})

    put({"k": "start", "mono_ns": time.monotonic_ns(), "real_ns": time.time_ns(),
         "nodes": [nid for _, nid, _, _, _, _ in socks], "group": a.group,
         "interval": a.interval})
    put_stats("start")
    out.flush()
    print("watch: watching %s every %.0f ms" % (
        " ".join(str(nid) for _, nid, _, _, _, _ in socks), a.interval * 1000),
        flush=True)
    # the polls: GROUP_GET without NLM_F_ACK (one reply, one recv), the
    # requests built once, the reply read up to TERM (ROLE and LEADER
    # come before it): a 20 ms poll of five nodes costs a TCG guest little
    a_role, a_leader, a_term = (attr["ELEC_ATTR_ROLE"], attr["ELEC_ATTR_LEADER"],
                                attr["ELEC_ATTR_TERM"])
    get_req = [bytes(nl.Msg(fam, cmd["ELEC_CMD_GROUP_GET"], payload,
                            nl.NLM_F_REQUEST).data)
               for _, _, _, fam, _, payload in socks]

    def lean_state(data, fam):
        ln, typ = struct.unpack("=IH", data[:6])
        if typ != fam:
            err = -struct.unpack("=i", data[16:20])[0] if typ == nl.NLMSG_ERROR else -1
            return ["error %d" % err, 0, 0]
        off, end_, got = 20, min(ln, len(data)), {}
        while off + 4 <= end_ and len(got) < 3:
            alen, t = struct.unpack("=HH", data[off:off + 4])
            if alen < 4:
                break
            t &= 0x3fff
            if t in (a_role, a_leader, a_term):
                got[t] = data[off + 4:off + alen]
            off += (alen + 3) & ~3
        return [roles.get(nl.nla_uint(got, a_role), "?"), nl.nla_uint(got, a_leader, 0),
                nl.nla_uint(got, a_term, 0)]

    import select

    # rows are written when a node's state changed, for a few rounds after
    # an event (its ts_ns may precede a poll that already saw its effect),
    # when two nodes read role leader, and every 25th round; the others
    # only count (they repeat the row before, and no event came between)
    rounds = events = coleader = 0
    recent = 0
    prev = None
    last_seq = {}
    seq_gaps = 0
    by_fd = {ev.s.fileno(): (nid, fam, ev) for _, nid, _, fam, ev, _ in socks}
    poller = select.poll()
    for fd in by_fd:
        poller.register(fd, select.POLLIN)
    a_ev, a_ts, a_seq, a_grp, a_id = (
        attr["ELEC_ATTR_EVENT"], attr["ELEC_ATTR_TIMESTAMP_NS"],
        attr["ELEC_ATTR_SEQ"], attr["ELEC_ATTR_GROUP"], attr["ELEC_ATTR_NODE_ID"])
    end = time.monotonic() + a.seconds
    nxt = time.monotonic()
    while not stop and time.monotonic() < end:
        # events first: what happened before this round's requests
        for fd, _ in poller.poll(0):
            nid, fam, ev = by_fd[fd]
            for chunk in ev.events(fam):
                if chunk is None:
                    put({"k": "lost", "n": nid})
                    continue
                at = nl.parse_nla(chunk[4:])
                seq = nl.nla_uint(at, a_seq)
                if nid in last_seq and seq != last_seq[nid] + 1:
                    seq_gaps += 1
                last_seq[nid] = seq
                if nl.nla_uint(at, a_grp) != a.group:
                    continue
                events += 1
                recent = 5
                put({"k": "e", "n": nid, "ts": nl.nla_uint(at, a_ts), "seq": seq,
                     "ev": evnames.get(nl.nla_uint(at, a_ev), "?"),
                     "id": nl.nla_uint(at, a_id), "leader": nl.nla_uint(at, a_leader, 0),
                     "term": nl.nla_uint(at, a_term),
                     "role": roles.get(nl.nla_uint(at, a_role, 0), "?")})
        row = []
        for i, (ns, nid, g, fam, ev, payload) in enumerate(socks):
            t0 = time.monotonic_ns()
            g.s.send(get_req[i])
            data = g.s.recv(1 << 16)
            t1 = time.monotonic_ns()
            row.append([nid, t0, t1] + lean_state(data, fam))
        state = [x[3:] for x in row]
        two = sum(1 for x in state if x[0] == "leader") > 1
        coleader += two
        if state != prev or recent or two or rounds % 25 == 0:
            put({"k": "p", "s": row})
        recent = max(recent - 1, 0)
        prev = state
        rounds += 1
        nxt += a.interval
        pause = nxt - time.monotonic()
        if pause > 0:
            time.sleep(pause)
        else:
            nxt = time.monotonic()
    put_stats("end")
    put({"k": "end", "mono_ns": time.monotonic_ns(), "rounds": rounds,
         "events": events, "coleader_rounds": coleader, "seq_gaps": seq_gaps})
    out.close()
    cpu = os.times()
    print("watch: %d rounds, %d events, %.1fs of CPU" % (
        rounds, events, cpu.user + cpu.system), flush=True)
    return 0


def cmd_roles(a):
    """Judge a watch record: who held the role leader when (see
    events.role_intervals()); print one JSON object."""
    rec = events.read_watch(a.file)
    origin = rec["start"]
    if a.origin_real:
        origin = a.origin_real - rec["real"] + rec["start"]

    def rel(t):
        return None if t is None else round((t - origin) / 1e9, 4)

    iv, t_end = events.role_intervals(rec, a.quorum == "on")
    # overlaps of two nodes' leader intervals
    overlaps = []
    ids = sorted(iv)
    for i, x in enumerate(ids):
        for y in ids[i + 1:]:
            for s1, e1 in iv[x]:
                for s2, e2 in iv[y]:
                    s = max(s1, s2)
                    e = min(e1 if e1 is not None else t_end,
                            e2 if e2 is not None else t_end)
                    if e > s:
                        overlaps.append([x, y, rel(s), rel(e),
                                         round((e - s) / 1e9, 4)])
    # the polls: rounds with two nodes in role leader; samples the
    # intervals contradict (no event of that node within the request)
    coleader = []
    mismatches = []

    def leading_at(nid, t):
        return any(s <= t and (e is None or t < e) for s, e in iv[nid])

    seqgaps = 0
    for nid, evs in rec["events"].items():
        seqs = [e["seq"] for e in evs]
        seqgaps += sum(1 for u, v in zip(seqs, seqs[1:]) if v != u + 1)
    for p in rec["polls"]:
        lead = [x[0] for x in p if x[3] == "leader"]
        if len(lead) > 1:
            coleader.append([rel(p[0][1])] + lead)
        for nid, t0, t1, role, leader, _ in p:
            if nid not in iv:
                continue
            a0, a1 = leading_at(nid, t0), leading_at(nid, t1)
            if a0 == a1 and a0 != (role == "leader"):
                mismatches.append([rel(t0), nid, role, leader])
    last = {}
    for p in rec["polls"][-1:]:
        for nid, _, _, role, leader, term in p:
            last[str(nid)] = {"role": role, "leader": leader or None, "term": term}
    timeline = []
    for nid, evs in rec["events"].items():
        for e in evs:
            if e["ev"] in ("leader_changed", "election_started", "stopped"):
                timeline.append([rel(e["ts"]), nid, e["ev"], e["leader"] or None,
                                 e["term"]])
    timeline.sort(key=lambda x: (x[0], x[1]))
    # the watcher counted every round, rows written or not
    counts = rec.get("counts", {})
    res = {"rounds": counts.get("rounds", len(rec["polls"])),
           "rows": len(rec["polls"]),
           "events": sum(len(v) for v in rec["events"].values()),
           "lost": rec["lost"], "seq_gaps": counts.get("seq_gaps", seqgaps),
           "span": [rel(rec["start"]), rel(t_end)],
           "intervals": {str(n): [[rel(s), rel(e)] for s, e in v]
                         for n, v in iv.items()},
           "overlaps": overlaps,
           "overlap_max": max([o[4] for o in overlaps], default=0),
           "coleader_rounds": max(len(coleader), counts.get("coleader_rounds", 0)),
           "coleader_first": coleader[:5],
           "mismatches": len(mismatches), "mismatch_first": mismatches[:5],
           "last": last}
    # per node, around the origin (a split): "down" the end of the
    # interval it held at the origin (the last one that began before it:
    # a loaded host can cost a leader its lease and role for a moment
    # before the split), "up" the start of its first one after it,
    # "upend" that one's end, "held" 1 when it held the role from before
    # the origin to the end without a break
    per = {}
    for n, v in iv.items():
        r = [[rel(s), rel(e)] for s, e in v]
        before = [x for x in r if x[0] <= 0]
        after = [x for x in r if x[0] > 0]
        per[str(n)] = {"down": before[-1][1] if before else None,
                       "up": after[0][0] if after else None,
                       "upend": after[0][1] if after else None,
                       "held": int(len(r) == 1 and r[0][0] <= 0 and r[0][1] is None),
                       "led": int(bool(r))}
    # the counters' growth from the watch's start to its end
    for n, st in rec.get("stats", {}).items():
        b, e = st.get("start", {}), st.get("end", {})
        for k in ("quorum_lost", "tx_alive", "rx_alive"):
            d = e.get(k) - b.get(k) if None not in (b.get(k), e.get(k)) else None
            per.setdefault(str(n), {})[k] = d
    res["nodes"] = per
    res["overlap_total"] = round(sum(o[4] for o in overlaps), 4)
    if a.timeline:
        for t, nid, ev, leader, term in timeline:
            print("    %+9.4f  node %-4s %-16s leader %-5s term %s" % (
                t, nid, ev, leader, term), file=sys.stderr)
    if a.shell:
        import shlex
        for k in ("rounds", "rows", "events", "lost", "seq_gaps", "mismatches",
                  "mismatch_first", "coleader_rounds", "coleader_first",
                  "overlaps", "overlap_max", "overlap_total", "intervals"):
            v = res[k]
            print("R_%s=%s" % (k, shlex.quote(v if isinstance(v, str) else json.dumps(v))))
        print("R_span=%s" % round(res["span"][1] - res["span"][0], 3))
        for n, d in per.items():
            for k, v in d.items():
                print("R_%s_%s=%s" % (k, n, "None" if v is None else v))
        return 0
    print(json.dumps(res, sort_keys=True))
    return 0


def main(argv=None):
    """Run the subcommand of @argv (default: sys.argv[1:]); its exit code."""
    a = _build_parser().parse_args(argv)
    return a.fn(a)


def _build_parser():
    p = argparse.ArgumentParser(prog="elec.py", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="sub", required=True)
    q = sub.add_parser("groups")
    q.add_argument("--group", type=int, required=True)
    q.add_argument("--timeout", type=float, default=30)
    q.add_argument("--stable", type=float, default=0)
    q.add_argument("--interval", type=float, default=0.1)
    q.add_argument("--dev", default="eth0")
    q.add_argument("sides", nargs="+")
    q.set_defaults(fn=cmd_groups)
    for name, fn in (("stats", cmd_stats), ("elect", cmd_elect)):
        q = sub.add_parser(name)
        q.add_argument("--group", type=int, required=True)
        q.add_argument("--dev", default="eth0")
        q.add_argument("nodes", nargs="+")
        q.set_defaults(fn=fn)
    q = sub.add_parser("nl")
    q.add_argument("cmd")
    q.add_argument("attrs", nargs="*")
    q.set_defaults(fn=cmd_nl)
    q = sub.add_parser("inject")
    q.add_argument("--dev", required=True)
    q.add_argument("--seconds", type=float, default=5)
    q.add_argument("--rate", type=float, default=2000)
    q.add_argument("--max-frames", type=int, default=200000)
    q.add_argument("--group", type=int, default=1)
    q.add_argument("--wrong-group", type=int, default=999)
    q.add_argument("--ids", default="")
    q.add_argument("--seed", type=int, default=1)
    q.add_argument("--ethertype", type=lambda x: int(x, 0), default=0x88B5)
    q.set_defaults(fn=cmd_inject)
    q = sub.add_parser("forge")
    q.add_argument("--dev", required=True)
    q.add_argument("--type", choices=sorted(FORGE_TYPES), required=True)
    q.add_argument("--algo", choices=sorted(FORGE_ALGOS), default="bully")
    q.add_argument("--group", type=int, default=1)
    q.add_argument("--src", required=True)
    q.add_argument("--dst", type=int, default=0)
    q.add_argument("--term", type=lambda x: int(x, 0), default=0)
    q.add_argument("--term-step", type=int, default=0,
                   help="add this to the term after each round (--count)")
    q.add_argument("--src-mac", default="")
    q.add_argument("--dst-mac", default="")
    q.add_argument("--count", type=int, default=1)
    q.add_argument("--rate", type=float, default=0)
    q.add_argument("--ethertype", type=lambda x: int(x, 0), default=0x88B5)
    q.set_defaults(fn=cmd_forge)
    q = sub.add_parser("mass")
    q.add_argument("--dev", required=True)
    q.add_argument("--groups", required=True)
    q.add_argument("--id", type=int, default=1)
    q.add_argument("--peers", type=int, default=0)
    q.set_defaults(fn=cmd_mass)
    q = sub.add_parser("dump")
    q.add_argument("--stats", action="store_true")
    q.add_argument("--ifindex", type=int, default=0)
    q.add_argument("--group", type=int, default=0)
    q.add_argument("--repeat", type=int, default=1)
    q.add_argument("--pause-cmd", default="")
    q.set_defaults(fn=cmd_dump)
    q = sub.add_parser("tap")
    q.add_argument("--name", required=True)
    q.add_argument("--cmd", required=True)
    q.add_argument("--setlink", type=lambda x: int(x, 0), default=0xfffe)
    q.set_defaults(fn=cmd_tap)
    q = sub.add_parser("sniff")
    q.add_argument("--dev", required=True)
    q.add_argument("--out", required=True)
    q.add_argument("--seconds", type=float, default=600)
    q.add_argument("--ethertype", type=lambda x: int(x, 0), default=0x88B5)
    q.set_defaults(fn=cmd_sniff)
    q = sub.add_parser("watch")
    q.add_argument("--group", type=int, required=True)
    q.add_argument("--dev", default="eth0")
    q.add_argument("--out", required=True)
    q.add_argument("--seconds", type=float, default=600)
    q.add_argument("--interval", type=float, default=0.02)
    q.add_argument("nodes", nargs="+")
    q.set_defaults(fn=cmd_watch)
    q = sub.add_parser("roles")
    q.add_argument("--file", required=True)
    q.add_argument("--quorum", choices=("on", "off"), default="on")
    q.add_argument("--origin-real", type=int, default=0)
    q.add_argument("--timeline", action="store_true")
    q.add_argument("--shell", action="store_true")
    q.set_defaults(fn=cmd_roles)
    q = sub.add_parser("seqcheck")
    q.add_argument("--file", required=True)
    q.add_argument("--expect-groups", default="")
    q.add_argument("--show-dev", default="eth0")
    q.set_defaults(fn=cmd_seqcheck)
    return p


if __name__ == "__main__":
    sys.exit(main())
