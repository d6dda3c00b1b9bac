#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""make vmtest-faults's parts (scripts/vmtest-faults runs each in a VM,
tests/vm/run; what they do and check: tests/vm/README, "Faults") and the
helpers of the scale scenario (tests/vm/scale). Run inside the VM, as
root. A part is a scenario (electest.scenario: PASS/FAIL lines, "N
passed, N failed") in this one process; generic netlink and rtnetlink
requests go over sockets opened once per network namespace (no process
per request). Nodes: ids 3 17 42 100 2001 (en<ID>, switch esw), the
scenarios' timing (ELEC_TIMING).

  faults.py netem SYSTEM [SECONDS [NETEM...]]
      Group 1 of SYSTEM (SYSTEMS); once it agrees, netem on both ends of
      every link (default: loss 30% delay 10ms 5ms distribution normal
      duplicate 5% reorder 25% 50%) for SECONDS (600) while `elec.py
      watch` records; its figures (analyze(): "FAULTS-RESULT {json}",
      appended to $RESULTS_DIR/faults-netem.jsonl); then one leader within
      4 x the E2 bound (e2_bound()), for 3 s; no impossible drop; no leak.
  faults.py flap [FLAPS [SYSTEM,...]]
      One group per system (default the seven algorithms), all led by
      node 2001 (min-bully's ids turned round: 100000 - id), which goes
      away and comes back FLAPS (1000) times (flap()); then agreement,
      2001's monitor, counters, MODULE_GET, no leak.
  faults.py cycles [CYCLES] [--no-churn] [--monitor=SECS] [--rcu-fifo] [PARAM=VALUE...]
      CYCLES (1000) rmmod/insmod cycles under load (cycles(): hammers,
      a flood from node 9999, with namespace churn unless --no-churn),
      PARAMs to every load; --monitor=SECS: a MONITOR line every SECS s
      (load, memory, softirqs, busiest tasks); --rcu-fifo: RCU's rcuc/N
      (rcutree.use_softirq=0) and grace-period kthreads at SCHED_FIFO 1
      (with chrt: rcutree.kthread_prio=1 hung the debug guest's boot).
      Then a clean load, an election, no leak.

Helpers (tests/vm/scale, and the cycles' processes):

  faults.py bound --algo A --nodes N [--timing "hb-interval 100ms ..."]
                  [--latency S]
      Print the E2 bound (seconds) of algorithm A after the last fault:
      Documentation/simulator.rst's formulas ("Checking E1 and E2"), with
      the group's timing and L the largest latency (default 0.01 s).
  faults.py hammer --netns NS --id ID --peers ID,.. --seed S
      (started by cycles) the request loop of one namespace: groups
      created, started, elected, deleted; GROUP_GET and STATS_GET dumps
      (a slow reader now and then); MODULE_GET; an events listener;
      every request sent whether or not the module is loaded; its counts
      as JSON on SIGTERM.
  faults.py churn --seed S
      (started by cycles) namespaces ec0..ec3 created with a veth on the
      switch, instances added and started in them, the namespace deleted
      while they run; counts as JSON on SIGTERM.
  faults.py converge --group G --expect BEST --next ID --timeout S
                     [--stable S] [--invitation] [--report F] NODE...
      In one process: GROUP_START on every node, agreement on BEST (as
      agree judges it, held --stable s), BEST's switch port p<BEST> down
      (carrier loss), agreement of the others on ID, the port up,
      agreement on BEST again. Prints the times from each action to the
      poll that saw agreement (CONVERGE-RESULT JSON, also to F); exit 1
      if a phase does not agree within --timeout.
  faults.py mkgroups --group G --algo A [--timing "..."] [--invert K]
                     [--start] NODE...
      Create group G on every node (NETNS:ID, on its eth0) with every
      other node as a peer (MAC 02:e1:<id>), over one socket per
      namespace; with --start, start them all at the end. With --invert
      K, node ID has id K - ID in the group (min-bully's best is then the
      node with the highest ID). A is a system name (as in bound).
  faults.py group --group G --cmd start|stop|del|stats [--out F] NODE...
      GROUP_START, _STOP or _DEL of group G on every node (back to back),
      or (stats) the frames they sent and the elections they began, summed
      (one JSON line, also written to F).
  faults.py linkup [--dev IF,..] NODE...
      Set the devices (default eth0) up in every node's namespace.
  faults.py memory --group G --algo A [--timing "..."] --cgroup DIR NODE...
      Memory per instance and per peer: in cgroup DIR (memory controller;
      this process moves itself there), read memory.stat (kernel, slab)
      and /proc/slabinfo, create group G on every node without peers,
      read again, add every other node as a peer, read again, delete the
      groups. Prints one JSON line: bytes per instance and per peer (memcg
      kernel and slab deltas), the kmalloc caches that grew.
"""

import argparse
import contextlib
import ctypes
import errno
import glob
import gzip
import io
import json
import os
import random
import re
import shutil
import signal
import socket
import struct
import subprocess
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.environ.get("ELECTION_REPO") or os.path.normpath(os.path.join(HERE, "..", "..", ".."))
sys.path[:0] = [os.path.join(REPO, "tests", "lib"), os.path.join(REPO, "tests", "vm")]
from electest import SCALE, checks, events, nl, topo  # noqa: E402
from electest.scenario import Scenario, call, dur, run, sec  # noqa: E402
from electest.faults import drop_filter_reqs, link_req  # noqa: E402
from electest.nl import (  # noqa: E402
    InNetns, Msg, Nl, nla, nla_list, nla_uint, u8, u32, u64)

ENUMS = nl.ENUMS
CMD = ENUMS["elec_cmd"]
ATTR = ENUMS["elec_attr"]
ALGO = {k[len("ELEC_ALGO_"):].lower().replace("_", "-"): v
        for k, v in ENUMS["elec_algo"].items()}

_libc = ctypes.CDLL(None, use_errno=True)


def log(msg):
    print(msg, flush=True)


mac_bytes = nl.peer_mac


def parse_nodes(spec):
    """NETNS:ID arguments (or one comma-separated string) -> [(ns, id)]."""
    if isinstance(spec, str):
        spec = spec.split(",")
    return checks.parse_nodes([s for s in spec if s])


def parse_dur(v):
    """An electionctl duration ("100ms", "1s", "250us") in seconds."""
    m = re.fullmatch(r"([0-9]+(?:\.[0-9]+)?)(us|ms|s)", v)
    if not m:
        raise ValueError("not a duration: %r" % v)
    return float(m.group(1)) * {"us": 1e-6, "ms": 1e-3, "s": 1.0}[m.group(2)]


def parse_timing(s):
    """ELEC_TIMING ("hb-interval 100ms hb-miss 5 timeout 100ms
    coord-timeout 400ms") -> {hb, miss, t, c} (seconds, count)."""
    w = s.split()
    kv = dict(zip(w[0::2], w[1::2]))
    return {"hb": parse_dur(kv.get("hb-interval", "20ms")),
            "miss": int(kv.get("hb-miss", "3")),
            "t": parse_dur(kv.get("timeout", "10ms")),
            "c": parse_dur(kv["coord-timeout"]) if "coord-timeout" in kv else None}


# tests/vm/lib.sh's ELEC_TIMER_SCALE (the debug kernel: 4). The hammers'
# and the churn's timers (1 ms and up) are multiplied by its square: at
# 4 ms a dozen instances' steps kept the debug guest's CPUs busy, and with
# the default timer_mode (a SCHED_FIFO worker, throttled at 95%) the RCU
# callbacks starved: an rmmod waited in synchronize_rcu() for 17 minutes
# while kmemleak's objects filled the memory (/work/core-bugs.md)
TIMER_SCALE = max(1, int(os.environ.get("ELEC_TIMER_SCALE") or 1))


def scaled(tm):
    k2 = TIMER_SCALE * TIMER_SCALE
    return {k: v * k2 if k != "miss" else v for k, v in tm.items()}


def timing_attrs(tm):
    out = (u64(ATTR["ELEC_ATTR_HB_INTERVAL_NS"], int(tm["hb"] * 1e9)) +
           u32(ATTR["ELEC_ATTR_HB_MISS"], tm["miss"]) +
           u64(ATTR["ELEC_ATTR_TIMEOUT_NS"], int(tm["t"] * 1e9)))
    if tm.get("c"):
        out += u64(ATTR["ELEC_ATTR_COORD_TIMEOUT_NS"], int(tm["c"] * 1e9))
    return out


# The systems of the fault runs: algorithm and group add options (as
# tests/bench/failover/driver.py names them).
SYSTEMS = {
    "bully": ("bully", {}),
    "ring": ("ring", {}),
    "ring-nosuppress": ("ring", {"suppress": 0}),
    "ring-all": ("ring-all", {}),
    "ring-list": ("ring-list", {}),
    "min-bully": ("min-bully", {}),
    "enh-bully": ("enh-bully", {}),
    "invitation": ("invitation", {}),
    "bully-quorum": ("bully", {"quorum": 1}),
}


def e2_bound(system, n, tm, lat):
    """Documentation/simulator.rst, "Checking E1 and E2": the time within
    which a group is quiescent after the last fault."""
    algo, opts = SYSTEMS[system]
    hb, miss, t = tm["hb"], tm["miss"], tm["t"]
    c = tm["c"] if tm.get("c") else 4 * t
    w = hb * miss
    if algo == "bully":
        b = hb * (miss + 2) + (n + 2) * (t + c + 4 * lat)
        if opts.get("quorum"):
            # what quorum can add after the last fault: a lease, a
            # detection window, a promise window and two round trips
            lease = hb * (miss - 1) - t
            b += lease + w + t + 4 * lat
        return b
    if algo in ("min-bully", "enh-bully"):
        stages = 1 if algo == "min-bully" else 2
        r = (stages + 1) * t + lat
        take = lat if algo == "min-bully" else stages * t + lat
        return w + hb + 2 * r + take + 5 * lat
    if algo.startswith("ring"):
        rnd = c + 2 * n * t
        return w + hb + 3 * rnd
    if algo == "invitation":
        s = w
        return w + lat + c + (miss + 2) * s + t + 3 * (hb + 2 * t + 3 * lat)
    raise ValueError(system)


def cmd_bound(a):
    print("%.3f" % e2_bound(a.algo, a.nodes, parse_timing(a.timing), a.latency))
    return 0


# ------------------------------------------------------------ analysis ---

def analyze_record(rec, t_fault, t_heal):
    """Replay a watch record's events (see the module docstring)."""
    nodes = rec["nodes"]
    first = {}
    for p in rec["polls"]:
        for nid, t0, t1, role, leader, _ in p:
            first.setdefault(nid, (t0, role, leader))
    lead, stopped, since_poll = {}, {}, {}
    for i in nodes:
        t0, role, leader = first.get(i, (rec["start"], "stopped", 0))
        lead[i] = leader or None
        stopped[i] = role == "stopped"
        since_poll[i] = t0
    evs = []
    for i, lst in rec["events"].items():
        for e in lst:
            if e["ts"] is not None and e["ts"] >= since_poll.get(i, 0):
                evs.append(e)
    evs.sort(key=lambda e: (e["ts"], e["n"], e["seq"]))

    def leads(i):
        return not stopped[i] and lead[i] == i

    def agreed():
        if any(stopped[i] for i in nodes):
            return None
        v = {lead[i] for i in nodes}
        if len(v) != 1:
            return None
        x = v.pop()
        return x if x in lead and leads(x) else None

    r = {"two_ep": 0, "two_ns": 0, "two_max_ns": 0, "takeovers": 0,
         "leader_changed": 0, "elections": 0, "outages": [], "leaders_agreed": {},
         "events": 0}
    two_start = None
    out_start = None
    cur = agreed()
    at_fault = None
    last_agree_at = None      # after the heal: the last change to agreement
    for ev in evs:
        ts, i = ev["ts"], ev["n"]
        if ts > t_fault and at_fault is None:
            at_fault = cur
            if cur is None:
                out_start = t_fault
        was = leads(i) if i in lead else False
        if ev["ev"] == "leader_changed":
            lead[i], stopped[i] = ev["leader"] or None, False
        elif ev["ev"] == "stopped":
            stopped[i] = True
        elif ev["ev"] == "election_started":
            stopped[i] = False
        in_fault = t_fault < ts <= t_heal
        if in_fault:
            r["events"] += 1
            if ev["ev"] == "leader_changed":
                r["leader_changed"] += 1
            elif ev["ev"] == "election_started":
                r["elections"] += 1
            if not was and leads(i):
                r["takeovers"] += 1
        n_lead = sum(1 for j in nodes if leads(j))
        now = agreed()
        if ts > t_fault:
            # two leaders: counted from the fault on, to the end of the record
            if n_lead >= 2 and two_start is None:
                two_start = ts
                r["two_ep"] += 1
            elif n_lead < 2 and two_start is not None:
                r["two_ns"] += ts - two_start
                r["two_max_ns"] = max(r["two_max_ns"], ts - two_start)
                two_start = None
            if now is None and cur is not None:
                out_start = ts
            elif now is not None and cur is None and out_start is not None:
                r["outages"].append((out_start, ts))
                out_start = None
            if now is not None and now != cur:
                r["leaders_agreed"][str(now)] = r["leaders_agreed"].get(str(now), 0) + 1
            if ts > t_heal and now != cur:
                last_agree_at = ts if now is not None else None
        cur = now
    end = rec["end"]
    if two_start is not None:
        r["two_ns"] += end - two_start
        r["two_max_ns"] = max(r["two_max_ns"], end - two_start)
    if at_fault is None:
        at_fault = cur
    r["agreed_at_fault"] = at_fault
    r["agreed_at_end"] = cur
    r["open_outage"] = out_start is not None
    # after the heal: agreement reached at last_agree_at (None: it already
    # held at the heal and no event changed it, or it never came back)
    if cur is not None:
        r["recovery_ns"] = (last_agree_at - t_heal) if last_agree_at is not None else 0
    else:
        r["recovery_ns"] = None
    return r


def analyze(path, fault_real, heal_real, bound, label, out):
    """Judge a watch record taken while netem ran (the module doc); the
    figures printed and appended to @out as a JSON line."""
    rec = events.read_watch(path)
    if not rec["nodes"]:
        print("analyze: %s holds no watch record" % path)
        return 1

    def mono(real):
        return real - rec["real"] + rec["start"]

    t_fault, t_heal = mono(fault_real), mono(heal_real)
    r = analyze_record(rec, t_fault, t_heal)
    fault_s = (t_heal - t_fault) / 1e9
    # outages that began within the fault window (one still open at the
    # heal ends at the recovery)
    outs = [(s, e) for s, e in r["outages"] if s <= t_heal]
    dur = [(e - s) / 1e6 for s, e in outs]
    counts = rec.get("counts", {})
    res = {"label": label, "fault_s": round(fault_s, 1), "nodes": len(rec["nodes"]),
           "two_leader_episodes": r["two_ep"],
           "two_leader_ms": round(r["two_ns"] / 1e6, 1),
           "two_leader_max_ms": round(r["two_max_ns"] / 1e6, 1),
           "two_leader_pct": round(100.0 * r["two_ns"] / 1e9 / fault_s, 2) if fault_s > 0 else None,
           "takeovers": r["takeovers"], "leader_changed_events": r["leader_changed"],
           "elections": r["elections"], "events": r["events"],
           "outages": len(dur),
           "outage_p50_ms": round(events.pct(dur, 50), 1) if dur else None,
           "outage_p90_ms": round(events.pct(dur, 90), 1) if dur else None,
           "outage_max_ms": round(max(dur), 1) if dur else None,
           "outage_total_pct": round(100.0 * sum(dur) / 1e3 / fault_s, 1) if fault_s > 0 else None,
           "agreed_leaders": r["leaders_agreed"],
           "recovery_ms": None if r["recovery_ns"] is None else round(r["recovery_ns"] / 1e6, 1),
           "bound_ms": round(bound * 1e3, 1) if bound else None,
           "leader_at_end": r["agreed_at_end"],
           "lost": rec["lost"], "seq_gaps": counts.get("seq_gaps"),
           "rounds": counts.get("rounds")}
    if bound and r["recovery_ns"] is not None:
        res["recovery_of_bound"] = round(r["recovery_ns"] / 1e9 / bound, 3)
    log("%s: %.0f s of netem on every link, %d nodes" % (label, fault_s, res["nodes"]))
    log("  two leaders: %d episodes, %.1f ms in all (%.2f%% of the time), longest %.1f ms" % (
        res["two_leader_episodes"], res["two_leader_ms"], res["two_leader_pct"] or 0,
        res["two_leader_max_ms"]))
    log("  leader changes: %d takeovers (a node entering the leader role), %d leader_changed "
        "events, %d elections begun" % (res["takeovers"], res["leader_changed_events"],
                                        res["elections"]))
    if dur:
        log("  failovers (agreement lost -> one leader again): %d, p50 %.1f ms, p90 %.1f ms, "
            "max %.1f ms; no agreement %.1f%% of the time; agreed leaders %s" % (
                len(dur), res["outage_p50_ms"], res["outage_p90_ms"], res["outage_max_ms"],
                res["outage_total_pct"], res["agreed_leaders"]))
    else:
        log("  failovers: none (agreement never lost, or never regained)")
    log("  after the heal: %s" % (
        "one leader (%s) %.1f ms after netem was removed%s" % (
            r["agreed_at_end"], res["recovery_ms"],
            " (%.2f of the E2 bound %.0f ms)" % (res["recovery_of_bound"], res["bound_ms"])
            if "recovery_of_bound" in res else "")
        if res["recovery_ms"] is not None else "no agreement at the end of the record"))
    log("  watch: %s poll rounds, %d lost event batches, %s seq gaps" % (
        res["rounds"], res["lost"], res["seq_gaps"]))
    line = "FAULTS-RESULT " + json.dumps(res, sort_keys=True)
    log(line)
    if out:
        with open(out, "a") as f:
            f.write(json.dumps(res, sort_keys=True) + "\n")
    return 0


# ---------------------------------------------------- per-namespace I/O ---

class Node:
    """A generic netlink socket in one node's namespace, and its eth0."""

    def __init__(self, ns, nid, dev="eth0"):
        self.ns, self.id = ns, nid
        with InNetns(ns):
            self.g = Nl(rcvbuf=1 << 20)
            self.fam = self.g.family("election")
            self.ifindex = socket.if_nametoindex(dev)

    def key(self, group):
        return nl.key(self.ifindex, group)

    def req(self, cmd, attrs):
        """The nl.Reply of one request."""
        return self.g.request(self.fam, CMD[cmd], attrs)

    def must(self, cmd, attrs, what):
        r = self.req(cmd, attrs)
        if r.err:
            raise RuntimeError("%s on %s: error %d (%s) %s" % (
                what, self.ns, r.err, os.strerror(r.err), r.msg))

    def send(self, cmd, attrs):
        """Send a request (its reply later, by recv()): pipelined."""
        m = Msg(self.fam, CMD[cmd], attrs)
        return self.g.send(m), m

    def recv(self, sent):
        return self.g.recv(*sent)

    def view(self, group):
        """GROUP_GET as the dict `electionctl -j show` prints (the keys
        checks.verdict() and group_verdict() read), or an error string."""
        r = self.req("ELEC_CMD_GROUP_GET", self.key(group))
        if r.err or not r.replies:
            return "GROUP_GET: error %d %s" % (r.err, r.msg)
        return nl.parse_view(r.replies[0][4:])


def open_nodes(specs):
    return [Node(ns, nid) for ns, nid in parse_nodes(specs)]


# ---------------------------------------------------------- agreement ---

def agreement(nodes, views, expect, invitation):
    """None when the views agree (on @expect, or any one leader if None;
    Invitation: one group), else a reason."""
    leader = expect
    if expect is None:
        v0 = views[0]
        if isinstance(v0, str):
            return "%s: %s" % (nodes[0].ns, v0), None
        leader = v0.get("leader")
        if leader is None:
            return "%s: no leader" % nodes[0].ns, None
        if leader not in {n.id for n in nodes}:
            return "%s: follows %s, not one of the nodes" % (nodes[0].ns, leader), None
    why = checks.verdict([((n.ns, n.id), v) for n, v in zip(nodes, views)], leader)
    if why is None and invitation:
        side = [(n.ns, n.id) for n in nodes]
        top = max(n.id for n in nodes)
        if leader != top:
            why = "invitation: coordinator %s, not the highest id %d" % (leader, top)
        else:
            why = checks.group_verdict([side], [[((n.ns, n.id), v) for n, v in zip(nodes, views)]])
    return why, leader


def fmt_views(nodes, views, limit=12):
    lines = checks.fmt_views([((n.ns, n.id), v) for n, v in zip(nodes, views)]).split("\n")
    if len(lines) > limit:
        lines = lines[:limit] + ["    ... %d more" % (len(lines) - limit)]
    return "\n".join(lines)


def wait_agreement(nodes, group, expect, invitation, timeout, stable, interval, quiet=False):
    """Poll until the nodes agree (agreement()), then check that it holds
    for @stable s. Returns (leader or None, seconds from the call to the
    poll that saw it, its term, the largest poll round in s)."""
    t0 = time.monotonic()
    rmax = 0.0
    while True:
        r0 = time.monotonic()
        views = [n.view(group) for n in nodes]
        rmax = max(rmax, time.monotonic() - r0)
        why, leader = agreement(nodes, views, expect, invitation)
        if why is None or time.monotonic() - t0 > timeout:
            break
        time.sleep(interval)
    took = time.monotonic() - t0
    if why is not None:
        print("no agreement within %.1fs: %s" % (timeout, why))
        print(fmt_views(nodes, views))
        return None, took, None, rmax
    term = views[0]["term"]
    if not quiet:
        print("all %d nodes agree on leader %d (term %s) after %.2fs" % (
            len(nodes), leader, term, took))
    if stable > 0:
        t1 = time.monotonic()
        polls = 0
        while time.monotonic() - t1 < stable:
            time.sleep(interval)
            views = [n.view(group) for n in nodes]
            polls += 1
            why, _ = agreement(nodes, views, leader, invitation)
            if why is not None:
                print("agreement on %d did not hold: %s" % (leader, why))
                print(fmt_views(nodes, views))
                return None, took, term, rmax
        if not quiet:
            print("agreement held for %.1fs over %d polls" % (stable, polls))
    return leader, took, term, rmax


def agree_check(s, desc, nodes, group, expect, invitation, timeout, stable=0):
    """Scenario @s's check that @nodes agree (wait_agreement); the leader
    or None."""
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        leader = wait_agreement(nodes, group, expect, invitation, timeout, stable, 0.1)[0]
    s.check(desc, leader is not None, buf.getvalue())
    return leader


def cmd_converge(a):
    """Start, agree, cut the leader's switch port, agree, port up, agree:
    one process, so the times are not a tool's start-up."""
    nodes = open_nodes(a.nodes)
    best = a.expect
    surv = [n for n in nodes if n.id != best]
    with InNetns("esw"):
        esw = Nl(nl.NETLINK_ROUTE)
        port = socket.if_nametoindex("p%d" % best)
    res = {"nodes": len(nodes), "best": best, "next": a.next}
    t = time.monotonic()
    group_cmd(nodes, a.group)
    res["start_s"] = round(time.monotonic() - t, 3)
    phases = (("converge", nodes, best, a.stable, lambda: None),
              ("failover", surv, a.next, a.stable, lambda: esw.call_many([link_req(port, False)])),
              ("back", nodes, best, 0, lambda: esw.call_many([link_req(port, True)])))
    for name, who, want, stable, act in phases:
        if name != "converge":
            t = time.monotonic()
            act()
        t_wait = time.monotonic()
        leader, took, term, rmax = wait_agreement(who, a.group, want, a.invitation, a.timeout,
                                                  stable, a.interval, quiet=True)
        if leader is None:
            print("%s: the %d nodes did not agree on %d" % (name, len(who), want))
            esw.call_many([link_req(port, True)])
            return 1
        # from the action to the end of the poll round that saw agreement
        # (it came within that round and the sleep before it)
        took += t_wait - t
        res[name + "_s"] = round(took, 3)
        res[name + "_term"] = term
        res["poll_round_max_s"] = max(res.get("poll_round_max_s", 0), round(rmax, 3))
        print("%s: all %d agree on %d (term %s) %.2fs after the %s" % (
            name, len(who), want, term, took,
            {"converge": "start", "failover": "cut", "back": "port came back"}[name]), flush=True)
    print("CONVERGE-RESULT " + json.dumps(res, sort_keys=True))
    if a.report:
        with open(a.report, "w") as f:
            f.write(json.dumps(res, sort_keys=True) + "\n")
    return 0


# ------------------------------------------------------------- groups ---

def group_new_attrs(node, group, nid, system, tm):
    algo, opts = SYSTEMS[system]
    at = node.key(group) + u32(ATTR["ELEC_ATTR_NODE_ID"], nid) + \
        u8(ATTR["ELEC_ATTR_ALGO"], ALGO[algo]) + timing_attrs(tm)
    if "suppress" in opts:
        at += u8(ATTR["ELEC_ATTR_SUPPRESS"], opts["suppress"])
    if "quorum" in opts:
        at += u8(ATTR["ELEC_ATTR_QUORUM"], opts["quorum"])
    return at


def peer_attrs(node, group, pid, invert=0):
    return node.key(group) + u32(ATTR["ELEC_ATTR_PEER_ID"], invert - pid if invert else pid) + \
        nla(ATTR["ELEC_ATTR_PEER_LLADDR"], mac_bytes(pid))


def make_groups(nodes, group, system, tm, peers=True, invert=0):
    """Group @group on every node, the others its peers (MAC 02:e1:<id>).
    With @invert K, node ID takes id K - ID in the group (its MAC stays):
    the order of the ids turns round (min-bully's best is then the
    highest node)."""
    ids = [n.id for n in nodes]
    for n in nodes:
        n.must("ELEC_CMD_GROUP_NEW",
               group_new_attrs(n, group, invert - n.id if invert else n.id, system, tm),
               "group %d add" % group)
        if peers:
            add_peers(n, group, [p for p in ids if p != n.id], invert)


def add_peers(n, group, pids, invert=0):
    # the requests back to back, then their ACKs: one round trip per node
    sent = []
    for pid in pids:
        sent.append(n.send("ELEC_CMD_PEER_ADD", peer_attrs(n, group, pid, invert)))
    for pid, x in zip(pids, sent):
        r = n.recv(x)
        if r.err:
            raise RuntimeError("peer add %d on %s: error %d %s" % (pid, n.ns, r.err, r.msg))


def group_cmd(nodes, group, cmd="ELEC_CMD_GROUP_START"):
    """One request (GROUP_START by default) to every node, back to back."""
    sent = [n.send(cmd, n.key(group)) for n in nodes]
    bad = []
    for n, x in zip(nodes, sent):
        r = n.recv(x)
        if r.err:
            bad.append("%s: error %d %s" % (n.ns, r.err, r.msg))
    if bad:
        raise RuntimeError("; ".join(bad[:5]))


def cmd_mkgroups(a):
    nodes = open_nodes(a.nodes)
    t0 = time.monotonic()
    make_groups(nodes, a.group, a.algo, parse_timing(a.timing), invert=a.invert)
    t1 = time.monotonic()
    if a.start:
        group_cmd(nodes, a.group)
    log("mkgroups: group %d (%s) on %d nodes with %d peers each in %.1fs%s" % (
        a.group, a.algo, len(nodes), len(nodes) - 1, t1 - t0,
        ", started" if a.start else ""))
    return 0


def stats_of(node, group):
    """(frames sent, elections) of one instance."""
    r = node.req("ELEC_CMD_STATS_GET", node.key(group))
    if r.err or not r.replies:
        raise RuntimeError("STATS_GET on %s: error %d %s" % (node.ns, r.err, r.msg))
    at = r.attrs()
    tx = sum(struct.unpack("=Q", v[:8])[0] for _, v in nla_list(at.get(ATTR["ELEC_ATTR_TX"], b""))
             if len(v) >= 8)
    return tx, nla_uint(at, ATTR["ELEC_ATTR_ELECTIONS"], 0)


def cmd_group(a):
    nodes = open_nodes(a.nodes)
    if a.cmd == "stats":
        tot = [0, 0]
        for n in nodes:
            tx, el = stats_of(n, a.group)
            tot[0] += tx
            tot[1] += el
        res = {"tx": tot[0], "elections": tot[1], "nodes": len(nodes)}
        print(json.dumps(res))
        if a.out:
            with open(a.out, "w") as f:
                f.write(json.dumps(res) + "\n")
        return 0
    group_cmd(nodes, a.group, {"start": "ELEC_CMD_GROUP_START", "stop": "ELEC_CMD_GROUP_STOP",
                               "del": "ELEC_CMD_GROUP_DEL"}[a.cmd])
    log("group %d: %s on %d nodes" % (a.group, a.cmd, len(nodes)))
    return 0


def cmd_linkup(a):
    n = 0
    for ns, _ in parse_nodes(a.nodes):
        with InNetns(ns):
            rt = Nl(nl.NETLINK_ROUTE)
            for dev in a.dev.split(","):
                rt.call_many([link_req(socket.if_nametoindex(dev), True)])
                n += 1
            rt.s.close()
    log("linkup: %d devices up" % n)
    return 0


# ------------------------------------------------------------- memory ---

def memcg_stat(cg):
    out = {}
    with open(os.path.join(cg, "memory.stat")) as f:
        for line in f:
            k, v = line.split()
            out[k] = int(v)
    return out


def slabinfo():
    """{cache: bytes in its objects} of the kmalloc caches."""
    out = {}
    with open("/proc/slabinfo") as f:
        for line in f:
            w = line.split()
            if w and w[0].startswith("kmalloc-"):
                out[w[0]] = int(w[1]) * int(w[3])
    return out


def settle_mem():
    """Let RCU callbacks and the slab's per-CPU caches settle a little."""
    time.sleep(1.0)


def module_live():
    g = Nl()
    r = g.request(g.family("election"), CMD["ELEC_CMD_MODULE_GET"])
    g.close()
    if r.err or not r.replies:
        raise RuntimeError("MODULE_GET: error %d %s" % (r.err, r.msg))
    at = r.attrs()
    return tuple(nla_uint(at, ATTR[k], 0) for k in (
        "ELEC_ATTR_LIVE_INSTANCES", "ELEC_ATTR_LIVE_PEERS", "ELEC_ATTR_LIVE_SKBS"))


def cmd_memory(a):
    cg = a.cgroup
    with open(os.path.join(cg, "cgroup.procs"), "w") as f:
        f.write(str(os.getpid()))
    nodes = open_nodes(a.nodes)
    tm = parse_timing(a.timing)
    n = len(nodes)
    samples = []

    def sample(what):
        settle_mem()
        s = {"what": what, "memcg": memcg_stat(cg), "slab": slabinfo(), "live": module_live()}
        samples.append(s)
        return s

    s0 = sample("before")
    make_groups(nodes, a.group, a.algo, tm, peers=False)
    s1 = sample("instances")
    ids = [x.id for x in nodes]
    for x in nodes:
        add_peers(x, a.group, [p for p in ids if p != x.id])
    s2 = sample("peers")
    group_cmd(nodes, a.group, "ELEC_CMD_GROUP_DEL")
    s3 = sample("deleted")
    npeers = n * (n - 1)

    def d(k, x, y):
        return y["memcg"].get(k, 0) - x["memcg"].get(k, 0)

    def slab_growth(x, y):
        return {c: y["slab"].get(c, 0) - x["slab"].get(c, 0) for c in y["slab"]
                if y["slab"].get(c, 0) - x["slab"].get(c, 0) >= 4096}

    res = {"algo": a.algo, "instances": n, "peers": npeers,
           "live": [s1["live"], s2["live"], s3["live"]],
           "instance_kernel_bytes": round(d("kernel", s0, s1) / n),
           "instance_slab_bytes": round(d("slab", s0, s1) / n),
           "peer_kernel_bytes": round(d("kernel", s1, s2) / npeers, 1) if npeers else None,
           "peer_slab_bytes": round(d("slab", s1, s2) / npeers, 1) if npeers else None,
           "freed_kernel_bytes": d("kernel", s3, s2),
           "kmalloc_growth_instances": slab_growth(s0, s1),
           "kmalloc_growth_peers": slab_growth(s1, s2)}
    log("MEMORY-RESULT " + json.dumps(res, sort_keys=True))
    return 0


# --------------------------------------------------------------- flap ---

def wait_carrier_seen(ns, dev="eth0", up=False, timeout=5.0):
    """Wait until the kernel has processed @dev's loss (or, @up, return)
    of carrier: its operstate (set by linkwatch, under RTNL, in the same
    step as the NETDEV_CHANGE notification) is no longer UP (is UP). A
    carrier that comes back before linkwatch runs is never reported to
    anyone, the module included: a port's away time counts from the loss
    seen; and the next flap waits for the return to be seen, or its
    GROUP_STOP could find an instance still stopped by this one."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        out = subprocess.run(["ip", "-n", ns, "-o", "link", "show", "dev", dev],
                             capture_output=True, text=True).stdout
        if (" state UP " in out) == up:
            return True
        time.sleep(0.002)
    log("flap: %s's carrier %s not seen within %.0fs (the flap goes on)" % (
        ns, "return" if up else "loss", timeout))
    return False


def flap(a):
    ns, nid = parse_nodes([a.node])[0]
    groups = [int(x) for x in a.groups.split(",")]
    rng = random.Random(a.seed)
    node = Node(ns, nid)
    with InNetns("esw"):
        esw = Nl(nl.NETLINK_ROUTE)
        port = socket.if_nametoindex("p%d" % nid)
    with InNetns(ns):
        rt = Nl(nl.NETLINK_ROUTE)
    subprocess.run(["tc", "-n", "esw", "qdisc", "replace", "dev", "p%d" % nid, "clsact"],
                   check=True)
    kinds = ("port", "link", "stop", "isolate")
    counts = {k: 0 for k in kinds}
    t0 = time.monotonic()
    for k in range(a.flaps):
        kind = kinds[rng.randrange(len(kinds))]
        if kind == "port":
            esw.call_many([link_req(port, False)])
            wait_carrier_seen(ns)
        elif kind == "link":
            rt.call_many([link_req(node.ifindex, False)])
        elif kind == "stop":
            for g in groups:
                group_cmd([node], g, "ELEC_CMD_GROUP_STOP")
        else:
            esw.call_many(drop_filter_reqs(port, True))
        time.sleep(rng.uniform(0, a.down_max))
        if kind == "port":
            esw.call_many([link_req(port, True)])
            wait_carrier_seen(ns, up=True)
        elif kind == "link":
            rt.call_many([link_req(node.ifindex, True)])
            wait_carrier_seen(ns, up=True)
        elif kind == "stop":
            for g in groups:
                group_cmd([node], g)
        else:
            esw.call_many(drop_filter_reqs(port, False))
        counts[kind] += 1
        time.sleep(rng.uniform(0, a.up_max))
        if (k + 1) % 100 == 0:
            log("flap: %d of %d after %.0fs %s" % (k + 1, a.flaps, time.monotonic() - t0, counts))
    counts["seconds"] = round(time.monotonic() - t0, 1)
    counts["stops"] = counts["port"] + counts["link"] + counts["stop"]
    return counts


# ------------------------------------------------------ rmmod cycles ---

SYS_FINIT_MODULE = 313     # x86_64
SYS_DELETE_MODULE = 176
O_NONBLOCK = 0o4000


def finit_module(path, params=""):
    fd = os.open(path, os.O_RDONLY)
    try:
        r = _libc.syscall(SYS_FINIT_MODULE, fd, params.encode(), 0)
        return 0 if r == 0 else ctypes.get_errno()
    finally:
        os.close(fd)


def delete_module(name):
    r = _libc.syscall(SYS_DELETE_MODULE, name.encode(), O_NONBLOCK)
    return 0 if r == 0 else ctypes.get_errno()


class Stop:
    def __init__(self):
        self.flag = False
        signal.signal(signal.SIGTERM, self.set)
        signal.signal(signal.SIGINT, self.set)

    def set(self, *_):
        self.flag = True


# what a request to a family that went away gets back (an ENOENT of the
# module itself only costs one more lookup)
FAMILY_GONE = (errno.ENOENT, errno.EOPNOTSUPP, errno.EPROTONOSUPPORT)


class Hammer:
    """One namespace's request loop (see cmd_hammer)."""

    OPS = ("new", "new", "start", "elect", "get", "dump", "dump_stats", "module",
           "set", "del", "peer_del")

    def __init__(self, ns, nid, peers, rng):
        self.ns, self.id, self.peers, self.rng = ns, nid, peers, rng
        with InNetns(ns):
            self.g = Nl(timeout=5)
            self.ev = Nl(rcvbuf=1 << 20)
            self.ev.s.setblocking(False)
            self.ifindex = socket.if_nametoindex("eth0")
        self.fam = None
        self.counts = {}
        self.events = 0

    def count(self, op, err):
        k = "%s:%s" % (op, errno.errorcode.get(err, err) if err else "ok")
        self.counts[k] = self.counts.get(k, 0) + 1

    def resolve(self):
        try:
            self.fam, mc = self.g.resolve("election")
        except OSError as e:
            self.count("resolve", e.errno)
            return False
        self.count("resolve", 0)
        if "events" in mc:
            try:
                self.ev.subscribe(mc["events"])
            except OSError as e:
                self.count("subscribe", e.errno)
        return True

    def key(self, group):
        return nl.key(self.ifindex, group)

    def request(self, op, cmd, attrs):
        if self.fam is None:      # gone during this step: look it up at the next
            return errno.ENOENT
        try:
            err = self.g.request(self.fam, CMD[cmd], attrs).err
        except OSError as e:      # a timeout: the module went away mid-request?
            err = e.errno or errno.ETIMEDOUT
        self.count(op, err)
        if err in FAMILY_GONE:
            self.fam = None       # the family may have gone (or come back with a new id)
        return err

    def dump(self, op, cmd):
        def slow():
            # a slow reader: the dump (and the module reference it holds) lasts longer
            if self.rng.random() < 0.2:
                time.sleep(0.002)
        try:
            r = self.g.dump(self.fam, CMD[cmd], between=slow)
        except OSError as e:
            self.count(op, e.errno or errno.EIO)
            self.fam = None
            return 0
        self.count(op, r.err)
        if r.err in FAMILY_GONE:
            self.fam = None
        return len(r.replies)

    def drain_events(self):
        while True:
            try:
                data = self.ev.s.recv(1 << 16)
            except (BlockingIOError, InterruptedError):
                return
            except OSError as e:
                self.count("events", e.errno)
                return
            self.events += 1 if data else 0

    def step(self):
        if self.fam is None and not self.resolve():
            time.sleep(0.01)
            return
        self.drain_events()
        op = self.rng.choice(self.OPS)
        group = self.rng.randrange(1, 4)
        if op == "new":
            algo = "bully" if group != 2 else "ring-all"
            tm = scaled({"hb": 0.001, "miss": 2, "t": 0.001, "c": 0.002} if group != 2 else
                        {"hb": 0.005, "miss": 3, "t": 0.002, "c": 0.008})
            at = self.key(group) + u32(ATTR["ELEC_ATTR_NODE_ID"], self.id) + \
                u8(ATTR["ELEC_ATTR_ALGO"], ALGO[algo]) + timing_attrs(tm)
            if self.request("new", "ELEC_CMD_GROUP_NEW", at) == 0:
                for pid in self.peers:
                    self.request("peer_add", "ELEC_CMD_PEER_ADD",
                                 peer_attrs(self, group, pid))
                self.request("start", "ELEC_CMD_GROUP_START", self.key(group))
        elif op == "start":
            self.request(op, "ELEC_CMD_GROUP_START", self.key(group))
        elif op == "elect":
            self.request(op, "ELEC_CMD_GROUP_ELECT", self.key(group))
        elif op == "get":
            self.request(op, "ELEC_CMD_GROUP_GET", self.key(group))
        elif op == "dump":
            self.dump(op, "ELEC_CMD_GROUP_GET")
        elif op == "dump_stats":
            self.dump(op, "ELEC_CMD_STATS_GET")
        elif op == "module":
            self.request(op, "ELEC_CMD_MODULE_GET", b"")
        elif op == "set":
            hb = (self.rng.choice((0.001, 0.002)) if group != 2 else 0.005) * TIMER_SCALE ** 2
            self.request(op, "ELEC_CMD_GROUP_SET", self.key(group) + u64(
                ATTR["ELEC_ATTR_HB_INTERVAL_NS"], int(hb * 1e9)))
        elif op == "del":
            if self.rng.random() < 0.3:
                self.request(op, "ELEC_CMD_GROUP_DEL", self.key(group))
        elif op == "peer_del":
            if self.rng.random() < 0.2 and self.peers:
                pid = self.rng.choice(self.peers)
                err = self.request(op, "ELEC_CMD_PEER_DEL", self.key(group) +
                                   u32(ATTR["ELEC_ATTR_PEER_ID"], pid))
                if err == 0:
                    self.request("peer_add", "ELEC_CMD_PEER_ADD",
                                 peer_attrs(self, group, pid))
        # a slower kernel gets fewer requests: on the debug kernel (scale 4)
        # every free queues an RCU callback (kmemleak), and a guest whose
        # CPUs the requests saturate never catches up with them
        time.sleep(self.rng.uniform(0, 0.008 * TIMER_SCALE * TIMER_SCALE))


def cmd_hammer(a):
    stop = Stop()
    print("READY", flush=True)
    peers = [int(x) for x in a.peers.split(",") if x]
    h = Hammer(a.netns, a.id, peers, random.Random(a.seed))
    while not stop.flag:
        h.step()
    ok = sum(v for k, v in h.counts.items() if k.endswith(":ok"))
    print(json.dumps({"hammer": a.netns, "requests": sum(h.counts.values()), "ok": ok,
                      "event_batches": h.events, "counts": h.counts}, sort_keys=True), flush=True)
    return 0


def sh(*argv, check=False):
    return subprocess.run(list(argv), capture_output=True, text=True, check=check)


def cmd_churn(a):
    """Namespaces with running instances deleted under load."""
    stop = Stop()
    print("READY", flush=True)
    rng = random.Random(a.seed)
    peers = [int(x) for x in a.peers.split(",") if x]
    counts = {"netns": 0, "with_instances": 0, "setup_failed": 0, "instances": 0}
    k = 0
    while not stop.flag:
        k += 1
        ns, port, nid = "ec%d" % (k % 4), "c%d" % (k % 4), 5000 + k % 4
        if sh("ip", "netns", "add", ns).returncode:
            sh("ip", "netns", "del", ns)
            time.sleep(0.05)
            continue
        ok = sh("ip", "link", "add", "eth0", "netns", ns, "address", topo.mac(nid), "type", "veth",
                "peer", "name", port, "netns", "esw").returncode == 0
        ok = ok and sh("ip", "-n", "esw", "link", "set", port, "master", "br0", "up").returncode == 0
        ok = ok and sh("ip", "-n", ns, "link", "set", "eth0", "up").returncode == 0
        made = 0
        if ok:
            try:
                # the module may be between an unload and a load: wait a little
                node, t_ns = None, time.monotonic()
                while node is None:
                    try:
                        node = Node(ns, nid)
                    except SystemExit:
                        if time.monotonic() - t_ns > 2 or stop.flag:
                            raise
                        time.sleep(0.02)
                for group, system, tm in (
                        (1, "bully", scaled({"hb": 0.001, "miss": 2, "t": 0.001, "c": 0.002})),
                        (2, "ring-all", scaled({"hb": 0.005, "miss": 3, "t": 0.002, "c": 0.008})),
                        (7, "invitation", scaled({"hb": 0.002, "miss": 3, "t": 0.001,
                                                  "c": 0.004}))):
                    err = node.req("ELEC_CMD_GROUP_NEW",
                                   group_new_attrs(node, group, nid, system, tm)).err
                    if err:
                        key = "new:%s" % errno.errorcode.get(err, err)
                        counts[key] = counts.get(key, 0) + 1
                        continue
                    for pid in peers:
                        node.req("ELEC_CMD_PEER_ADD", peer_attrs(node, group, pid))
                    if node.req("ELEC_CMD_GROUP_START", node.key(group)).err == 0:
                        made += 1
                node.g.s.close()
            except (SystemExit, OSError, RuntimeError) as e:
                # the module is not loaded just now
                key = "setup:%s" % type(e).__name__
                counts[key] = counts.get(key, 0) + 1
        else:
            counts["setup_failed"] += 1
        time.sleep(rng.uniform(0, 0.1))
        sh("ip", "netns", "del", ns)
        counts["netns"] += 1
        counts["instances"] += made
        counts["with_instances"] += 1 if made else 0
    print(json.dumps({"churn": counts}), flush=True)
    return 0


def mem_brief():
    """Unreclaimable slab and free memory, and kmemleak's objects when it
    runs: what an RCU callback backlog makes grow."""
    out = []
    try:
        with open("/proc/meminfo") as f:
            m = dict((ln.split(":")[0], int(ln.split()[1])) for ln in f if ln.strip())
        out.append("SUnreclaim %d MiB, MemAvailable %d MiB" % (m["SUnreclaim"] // 1024,
                                                               m["MemAvailable"] // 1024))
        with open("/proc/slabinfo") as f:
            for ln in f:
                if ln.startswith("kmemleak_object "):
                    out.append("kmemleak objects %s" % ln.split()[1])
    except (OSError, KeyError, ValueError, IndexError):
        pass
    return ", ".join(out)


def cycles(a):
    rng = random.Random(a.seed)
    nodes = parse_nodes(a.nodes)
    ids = [nid for _, nid in nodes]
    me = os.path.abspath(__file__)
    kids = []
    out_dir = a.out_dir or "/tmp"

    def spawn(name, argv, ns=None):
        f = open(os.path.join(out_dir, "cycles-%s.out" % name), "w")
        cmd = (["ip", "netns", "exec", ns] if ns else []) + argv
        p = subprocess.Popen(cmd, stdout=f, stderr=subprocess.STDOUT)
        kids.append((name, p, f))
        return p

    if delete_module("election") not in (0, errno.ENOENT):
        log("cycles: the module is loaded and busy")
        return 1
    for i, (ns, nid) in enumerate(nodes):
        spawn("hammer-%s" % ns, [sys.executable, me, "hammer", "--netns", ns, "--id", str(nid),
                                 "--peers", ",".join(str(p) for p in ids if p != nid),
                                 "--seed", str(a.seed * 100 + i)])
    if a.churn:
        spawn("churn", [sys.executable, me, "churn", "--seed", str(a.seed),
                        "--peers", ",".join(str(p) for p in ids)])
    if a.inject:
        spawn("inject", [sys.executable, os.path.join(REPO, "tests", "vm", "elec.py"), "inject",
                         "--dev", "eth0", "--seconds", "1000000", "--rate", str(a.inject_rate),
                         "--max-frames", str(1 << 40), "--group", "1",
                         "--ids", ",".join(str(p) for p in ids)], ns=a.inject)
    # the helpers say READY once their SIGTERM handler is in place: one
    # that got the stop signal before (a short run in a busy guest, where
    # python's start takes seconds) died without its counts
    t_ready = time.monotonic()
    while True:
        waiting = []
        for name, p, f in kids:
            # an exited helper will not get ready: its missing counts
            # are reported after the cycles
            if name == "inject" or p.poll() is not None:
                continue
            try:
                with open(os.path.join(out_dir, "cycles-%s.out" % name)) as g:
                    if "READY" not in g.read():
                        waiting.append(name)
            except OSError:
                waiting.append(name)
        if not waiting or time.monotonic() - t_ready > 120:
            break
        time.sleep(0.1)
    if waiting:
        log("cycles: helpers not ready after 120 s: %s" % ", ".join(waiting))
    stats = {"cycles": 0, "unload_retries": 0, "unload_max_s": 0.0, "load_retries": 0,
             "live_at_unload": [], "errors": [], "load_s": 0.0, "unload_s": 0.0,
             "dwell_s": 0.0}
    t0 = time.monotonic()
    rc = 0
    try:
        for c in range(a.cycles):
            # load (EEXIST / EBUSY: the last unload is still finishing)
            tl = time.monotonic()
            while True:
                err = finit_module(a.ko, a.params)
                if err == 0:
                    break
                if err in (errno.EBUSY, errno.EEXIST, errno.EAGAIN) and \
                        time.monotonic() - tl < a.op_timeout:
                    stats["load_retries"] += 1
                    time.sleep(0.01)
                    continue
                raise RuntimeError("cycle %d: finit_module: %s" % (c, os.strerror(err)))
            stats["load_s"] += time.monotonic() - tl
            dwell = rng.uniform(0, a.dwell_max)
            stats["dwell_s"] += dwell
            time.sleep(dwell)
            try:
                stats["live_at_unload"].append(module_live())
            except (SystemExit, OSError, RuntimeError) as e:
                stats["errors"].append("cycle %d: MODULE_GET: %s" % (c, e))
            tu = time.monotonic()
            while True:
                err = delete_module("election")
                if err == 0:
                    break
                if err in (errno.EAGAIN, errno.EBUSY) and time.monotonic() - tu < a.op_timeout:
                    stats["unload_retries"] += 1
                    time.sleep(0.005)
                    continue
                raise RuntimeError("cycle %d: delete_module: %s after %.1fs" % (
                    c, os.strerror(err), time.monotonic() - tu))
            stats["unload_max_s"] = max(stats["unload_max_s"], time.monotonic() - tu)
            stats["unload_s"] += time.monotonic() - tu
            stats["cycles"] += 1
            if (c + 1) % a.progress == 0:
                live = stats["live_at_unload"][-a.progress:]
                log("cycles: %d of %d after %.0fs; instances at unload (last %d) max %d mean %.1f; "
                    "unload retries %d; %s" % (
                        c + 1, a.cycles, time.monotonic() - t0, len(live),
                        max((x[0] for x in live), default=0),
                        sum(x[0] for x in live) / max(len(live), 1),
                        stats["unload_retries"], mem_brief()))
    except RuntimeError as e:
        stats["errors"].append(str(e))
        log("cycles: %s" % e)
        rc = 1
    finally:
        early = [name for name, p, f in kids if p.poll() is not None]
        for name, p, f in kids:
            p.send_signal(signal.SIGTERM)
        for name, p, f in kids:
            try:
                p.wait(timeout=30)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()
            f.close()
    live = stats.pop("live_at_unload")
    stats["seconds"] = round(time.monotonic() - t0, 1)
    for k in ("unload_max_s", "load_s", "unload_s", "dwell_s"):
        stats[k] = round(stats[k], 3)
    stats["with_instances_at_unload"] = sum(1 for x in live if x[0] > 0)
    stats["instances_at_unload_max"] = max((x[0] for x in live), default=0)
    stats["instances_at_unload_mean"] = round(sum(x[0] for x in live) / max(len(live), 1), 1)
    stats["peers_at_unload_mean"] = round(sum(x[1] for x in live) / max(len(live), 1), 1)
    stats["skbs_at_unload_max"] = max((x[2] for x in live), default=0)
    helpers = {}
    for name, _, _ in kids:
        try:
            with open(os.path.join(out_dir, "cycles-%s.out" % name)) as f:
                lines = [ln for ln in f.read().splitlines() if ln.startswith("{")]
            helpers[name] = json.loads(lines[-1]) if lines else None
        except (OSError, ValueError):
            helpers[name] = None
    dead = sorted(set(early) | {n for n, h in helpers.items() if h is None and n != "inject"})
    if dead:
        stats["errors"].append("helpers that did not report (crashed?): %s" % ", ".join(dead))
        log("cycles: helpers that did not report (crashed?): %s" % ", ".join(dead))
        rc = 1
    stats["hammer_requests"] = sum((h or {}).get("requests", 0) for n, h in helpers.items()
                                   if n.startswith("hammer"))
    stats["hammer_ok"] = sum((h or {}).get("ok", 0) for n, h in helpers.items()
                             if n.startswith("hammer"))
    tot = {}
    for n, h in helpers.items():
        for k, v in ((h or {}).get("counts") or {}).items():
            tot[k] = tot.get(k, 0) + v
    stats["hammer_counts"] = tot
    stats["churn"] = (helpers.get("churn") or {}).get("churn")
    stats["inject"] = a.inject or None
    log("CYCLES-RESULT " + json.dumps(stats, sort_keys=True))
    return rc


# -------------------------------------------------------------- parts ---
# make vmtest-faults's parts: each a scenario (electest.scenario) in this
# one process, run in the VM by scripts/vmtest-faults (the module doc).

IDS = (3, 17, 42, 100, 2001)
OUT = os.environ.get("RESULTS_DIR") or "/tmp"
ELEC_PY = os.path.join(REPO, "tests", "vm", "elec.py")


def node_specs(ids, invert=0):
    return ["en%d:%d" % (i, invert - i if invert else i) for i in ids]


def bad_drops(d, also=()):
    return {k: d[k] for k in ("malformed", "wrong_group", "wrong_algo", "unknown_peer",
                              "wrong_lladdr") + also if d.get(k, 0)}


def module_check(s, desc, want):
    try:
        live = module_live()
    except (OSError, RuntimeError, SystemExit) as e:
        return s.fail("%s: %s" % (desc, e))
    d = dict(zip(("instances", "peers", "skbs"), live))
    return s.check(desc, live[:2] == want, d)


def part_netem(a):
    s = Scenario("faults.py netem")
    system, secs = a.system, a.seconds
    netem = a.netem or ("loss 30%% delay %s %s distribution normal duplicate 5%% reorder 25%% 50%%"
                        % (dur("10ms"), dur("5ms"))).split()
    if system not in SYSTEMS:
        s.fail("unknown system '%s'" % system)
        s.end()
    s.algo, opts = SYSTEMS[system]
    s.group_opts = [w for k, v in opts.items() for w in (k, "on" if v else "off")]
    best = 3 if s.algo == "min-bully" else 2001
    inv = s.algo == "invitation"
    bound = e2_bound(system, len(IDS), parse_timing(s.timing), sec("10ms"))
    limit = float("%.1f" % (4 * bound))
    s.log("system %s, timing: %s; E2 bound after the last fault %.3fs (checked: 4 x = %.1fs)" % (
        system, s.timing, bound, limit))
    s.log("netem on both ends of every link for %ds: %s" % (secs, " ".join(netem)))
    if not s.load():
        s.end()
    if not s.modprobe("sch_netem"):
        s.fail("modprobe sch_netem")
        s.end()
    if not s.topo(*IDS):
        s.end()
    s.group_setup(1)
    s.start_all(1)
    nodes = open_nodes(node_specs(IDS))
    agree_check(s, "all agree on %d before the faults" % best, nodes, 1, best, inv, s.bound)

    watch = "/tmp/watch-%s.jsonl" % system
    wout = open("/tmp/watch.out", "w+")
    wp = subprocess.Popen([sys.executable, ELEC_PY, "watch", "--group", "1", "--out", watch,
                           "--interval", "0.1", "--seconds", str(secs + 3600)] + node_specs(IDS),
                          stdout=wout, stderr=subprocess.STDOUT)
    s.wait_for(10, lambda: "watching" in open("/tmp/watch.out").read())
    s.check("the watch runs", "watching" in open("/tmp/watch.out").read())

    def netem_all(add):
        op, bad = "add" if add else "del", []
        for i in IDS:
            for ns, dev in (("en%d" % i, "eth0"), ("esw", "p%d" % i)):
                r = run(["tc", "-n", ns, "qdisc", op, "dev", dev, "root"] +
                        (["netem"] + netem if add else []))
                bad += [] if r else ["tc -n %s qdisc %s dev %s: %s" % (ns, op, dev, r.text)]
        return s.check("netem on all %d link ends" % (2 * len(IDS)) if add else
                       "netem removed from every link end", not bad, "\n".join(bad))

    time.sleep(1)
    t_fault = time.time_ns()
    netem_all(True)
    t0 = time.monotonic()
    nxt = 60
    while time.monotonic() - t0 < secs:
        time.sleep(1)
        if time.monotonic() - t0 >= nxt:
            s.log("netem for %ds of %ds" % (time.monotonic() - t0, secs))
            nxt += 60
    netem_all(False)
    t_heal = time.time_ns()
    s.log("netem removed: the last fault")
    leader = agree_check(s, "one leader within 4 x the E2 bound (%ss) after the faults, for 3s" %
                         limit, nodes, 1, None, inv, limit, sec(3))
    if leader == best:
        s.log("the leader after the faults is the best id, %d" % best)
    else:
        s.log("NOTE: the leader after the faults is %s, not the best id %d" % (leader, best))
    time.sleep(1)
    wp.terminate()
    wp.wait()
    wout.seek(0)
    sys.stdout.write(wout.read())
    # the figures and the record's copy, as netem.sh's analyze and gzip:
    # a missing or broken record is said (the watch's check failed) and
    # the part goes on to its checks and teardown
    try:
        analyze(watch, t_fault, t_heal, bound, system, os.path.join(OUT, "faults-netem.jsonl"))
        with open(watch, "rb") as f, gzip.open(os.path.join(OUT, "watch-%s.jsonl.gz" % system),
                                               "wb") as g:
            g.write(f.read())
    except (OSError, ValueError, KeyError) as e:
        s.log("the watch record %s: %s" % (watch, e))

    lines, bad = [], 0
    try:
        stats = checks.all_stats(checks.parse_nodes(node_specs(IDS)), 1, "eth0")
    except RuntimeError as e:
        stats, lines, bad = {}, ["stats: %s" % e], 1
    for nid, st in sorted(stats.items(), key=lambda x: int(x[0])):
        d = st["drops"]
        lines.append("node %s: elections %s leader_changes %s tx %s drops %s tx_errors %s" % (
            nid, st.get("elections"), st.get("leader_changes"), sum(st["tx"].values()),
            {k: v for k, v in d.items() if v}, st.get("tx_errors")))
        bad += bool(bad_drops(d))
    s.check("no frame was malformed, of another group or algorithm, from an unknown peer or "
            "address", not bad, "\n".join(lines))
    s.teardown(1)
    s.check_cmd("rmmod election", "rmmod", "election")
    s.end()


def part_flap(a):
    s = Scenario("faults.py flap")
    sysl = a.systems.split(",")
    inv_k = 100000
    n = len(sysl)
    if not (s.load() and s.topo(*IDS)):
        s.end()
    s.modprobe("sch_ingress", "cls_matchall", "act_gact")
    nodes = open_nodes(node_specs(IDS))
    for g, name in enumerate(sysl, 1):
        buf = io.StringIO()
        try:
            with contextlib.redirect_stdout(buf):
                make_groups(nodes, g, name, parse_timing(s.timing),
                            invert=inv_k if name == "min-bully" else 0)
                group_cmd(nodes, g)
                ok = True
        except (OSError, RuntimeError) as e:
            ok = False
            buf.write("%s\n" % e)
        s.check("group %d: %s on every node" % (g, name), ok, buf.getvalue())

    def agree_all(desc, stable):
        ok, out = True, []
        for g, name in enumerate(sysl, 1):
            k = inv_k if name == "min-bully" else 0
            buf = io.StringIO()
            with contextlib.redirect_stdout(buf):
                ok &= wait_agreement(open_nodes(node_specs(IDS, k)), g, k - 2001 if k else 2001,
                                     name == "invitation", s.bound, stable, 0.1)[0] is not None
            out += ["group %d (%s): %s" % (g, name, ln) for ln in buf.getvalue().splitlines()]
        s.check(desc, ok, "\n".join(out))

    agree_all("every group agrees on node 2001", 0)
    module_check(s, "MODULE_GET while the groups run: %d instances, %d peers" % (5 * n, 20 * n),
                 (5 * n, 20 * n))
    mon_file = "/tmp/mon2001.jsonl"
    mon = subprocess.Popen([s.ctl_path, "-n", "en2001", "-j", "monitor"],
                           stdout=open(mon_file, "w"), stderr=open("/tmp/mon2001.err", "w"))
    time.sleep(sec(1))
    s.log("node 2001 flaps %d times (groups %s)" % (a.flaps, ",".join(
        str(g) for g in range(1, n + 1))))
    counts = None
    try:
        counts = flap(argparse.Namespace(
            node="en2001:2001", groups=",".join(str(g) for g in range(1, n + 1)),
            seed=13, flaps=a.flaps, down_max=sec(0.3), up_max=sec(0.5)))
    except (OSError, RuntimeError, subprocess.CalledProcessError) as e:
        print(e)
    s.check("the flaps ran", counts is not None, json.dumps(counts))
    stops = (counts or {}).get("stops")
    s.log("flaps done: %s" % json.dumps(counts))
    agree_all("every group agrees on node 2001 after the flaps, for 3s", sec(3))
    time.sleep(1)
    mon.terminate()
    mon.wait()
    import elec_lib
    s.check("2001's monitor: SEQ +1 each, no loss, each instance in order",
            call(elec_lib.main, ["seqcheck", "--file", mon_file]))
    got = {}
    for e in events.load_jsonl(mon_file):
        if e.get("event") == "stopped":
            got[e["group"]] = got.get(e["group"], 0) + 1
    s.check("one stopped event per group and flap that stops it (%s)" % stops,
            all(got.get(g, 0) == stops for g in range(1, n + 1)),
            "stopped events per group: %s expected %s each" % (dict(sorted(got.items())), stops))

    ok, out = True, []
    for g, name in enumerate(sysl, 1):
        try:
            st = checks.all_stats(checks.parse_nodes(node_specs(IDS)), g, "eth0")
        except RuntimeError as e:
            ok = False
            out.append("group %d: %s" % (g, e))
            continue
        bad = []
        tx = {k: sum(v["tx"].values()) for k, v in st.items()}
        rx = {k: sum(v["rx"].values()) for k, v in st.items()}
        for k, v in sorted(st.items(), key=lambda x: int(x[0])):
            td = v.get("tx_drops", {})
            bad += ["node %s: drops.%s %d" % (k, x, y)
                    for x, y in bad_drops(v["drops"], ("term_too_far",)).items()]
            if v.get("tx_errors", 0) != sum(td.values()):
                bad.append("node %s: tx_errors %s != sum of tx_drops %s" % (
                    k, v.get("tx_errors"), td))
            bad += ["node %s: tx_drops.%s %d" % (k, x, td[x]) for x in ("mtu", "no_buffer")
                    if td.get(x, 0)]
            others = sum(y for m, y in tx.items() if m != k)
            if rx[k] > others:
                bad.append("node %s received %d frames, the others sent %d" % (k, rx[k], others))
        el = sum(v.get("elections", 0) for v in st.values())
        lc = sum(v.get("leader_changes", 0) for v in st.values())
        if not el or not lc:
            bad.append("no election or leader change counted (%d, %d)" % (el, lc))
        out.append("group %s (%s): tx %d rx %d elections %d leader_changes %d tx_errors %d%s" % (
            g, name, sum(tx.values()), sum(rx.values()), el, lc,
            sum(v.get("tx_errors", 0) for v in st.values()), "" if not bad else ": " +
            "; ".join(bad)))
        ok &= not bad
    s.check("counters sane in every group", ok, "\n".join(out))
    module_check(s, "MODULE_GET after the flaps: %d instances, %d peers" % (5 * n, 20 * n),
                 (5 * n, 20 * n))
    for g in range(1, n + 1):
        try:
            group_cmd(nodes, g, "ELEC_CMD_GROUP_DEL")
        except RuntimeError:
            s.fail("group %d del" % g)
    s.leak_check()
    s.check_cmd("rmmod election", "rmmod", "election")
    s.end()


def part_cycles(a):
    s = Scenario("faults.py cycles")
    if not (s.load() and s.topo(*IDS, 9999)):
        s.end()
    s.nodes = list(IDS)      # 9999 only injects frames
    s.check_cmd("rmmod before the cycles", "rmmod", "election")

    def mem():
        return run(["awk", '/^(Slab|MemAvailable):/ {printf "%s %s kB; ", $1, $2}',
                    "/proc/meminfo"]).out
    mem0 = mem()
    if a.rcu_fifo:
        rcu = run(["pgrep", "^rcuc/"]).out.split()
        if not rcu:
            s.fail("--rcu-fifo: no rcuc kthread (is rcutree.use_softirq=0 on the command line?)")
        else:
            rcu += run(["pgrep", "-x", "rcu_preempt|rcu_sched"]).out.split()
            comm = {p: open("/proc/%s/comm" % p).read().strip() for p in rcu}
            for p in rcu:
                if not run(["chrt", "-f", "-p", "1", p]):
                    s.fail("chrt -f -p 1 %s (%s)" % (p, comm[p]))
            s.log("RCU kthreads at SCHED_FIFO 1: %s " % " ".join(comm[p] for p in rcu))
    done = threading.Event()

    def monitor():
        # the load, memory, softirqs and busiest tasks: where a slow guest's time goes
        while not done.wait(a.monitor):
            with open("/proc/meminfo") as f:
                m = {ln.split(":")[0]: int(ln.split()[1]) for ln in f}
            with open("/proc/softirqs") as f:
                soft = {w[0]: sum(map(int, w[1:])) for w in map(str.split, f) if w[0] in (
                    "RCU:", "NET_RX:", "TIMER:", "HRTIMER:")}
            top = run(["top", "-b", "-n", "2", "-d", "1", "-o", "%CPU", "-w", "200"]).out
            tasks = [w.split() for w in top.split("\ntop -")[-1].splitlines()
                     if re.match(r" *[0-9]+ ", w)][:5]
            s.log("MONITOR load %s; %s; %s; top: %s" % (
                " ".join(open("/proc/loadavg").read().split()[:4]),
                "; ".join("%s: %d MB" % (k, m[k] // 1024) for k in ("MemAvailable", "Slab")),
                "; ".join("%s %d" % kv for kv in soft.items()),
                " ".join("%s(%s%%,pr %s)" % (w[11], w[8], w[2]) for w in tasks)))

    if a.monitor > 0:
        threading.Thread(target=monitor, daemon=True).start()
    params = " ".join(a.params)
    s.log("%d rmmod/insmod cycles (module parameters: %s) with request loops in %s, a flood "
          "from 9999%s" % (a.cycles, params or "none", " ".join(map(str, IDS)),
                           ", namespace churn" if a.churn else ""))
    rc = cycles(argparse.Namespace(
        cycles=a.cycles, ko=s.ko, params=params, nodes=",".join(node_specs(IDS)), seed=7,
        dwell_max=sec(0.3), op_timeout=sec(60), churn=a.churn, inject="en9999",
        inject_rate=1000 // SCALE, progress=100 if a.cycles >= 100 else 10, out_dir="/tmp"))
    done.set()
    if rc == 0:
        s.pass_("%d cycles: every load and unload succeeded, every helper ran to the end" %
                a.cycles)
    else:
        s.fail("%d cycles (exit %d)" % (a.cycles, rc))
    if os.environ.get("RESULTS_DIR"):
        for f in glob.glob("/tmp/cycles-*.out"):
            if os.path.getsize(f):
                shutil.copy(f, OUT)
    s.log("memory before the cycles: %s" % mem0)
    s.log("memory after the cycles:  %s" % mem())
    s.check("no namespace of the churn is left",
            not any(n.startswith("ec") for n in topo.namespaces()))
    s.log("after the cycles: a clean load and an election")
    s.check_cmd("insmod election.ko", "insmod", s.ko)
    s.leak_check()
    s.group_setup(1)
    s.start_all(1)
    s.agree(1, 2001)
    s.teardown(1)
    s.check_cmd("rmmod election", "rmmod", "election")
    s.end()


def main():
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="sub", required=True)
    timing = "hb-interval 100ms hb-miss 5 timeout 100ms coord-timeout 400ms"
    q = sub.add_parser("netem")
    q.add_argument("system")
    q.add_argument("seconds", type=int, nargs="?", default=600)
    q.add_argument("netem", nargs="*")
    q.set_defaults(fn=part_netem)
    q = sub.add_parser("flap")
    q.add_argument("flaps", type=int, nargs="?", default=1000)
    q.add_argument("systems", nargs="?",
                   default="bully,ring,ring-all,ring-list,min-bully,enh-bully,invitation")
    q.set_defaults(fn=part_flap)
    q = sub.add_parser("cycles")
    q.add_argument("cycles", type=int, nargs="?", default=1000)
    q.add_argument("--no-churn", dest="churn", action="store_false")
    q.add_argument("--monitor", type=int, default=0)
    q.add_argument("--rcu-fifo", action="store_true")
    q.set_defaults(fn=part_cycles)     # the rest: module parameters
    q = sub.add_parser("bound")
    q.add_argument("--algo", choices=sorted(SYSTEMS), required=True)
    q.add_argument("--nodes", type=int, required=True)
    q.add_argument("--timing", default=os.environ.get("ELEC_TIMING") or timing)
    q.add_argument("--latency", type=float, default=0.01)
    q.set_defaults(fn=cmd_bound)
    q = sub.add_parser("converge")
    q.add_argument("--group", type=int, required=True)
    q.add_argument("--expect", type=int, required=True)
    q.add_argument("--next", type=int, required=True)
    q.add_argument("--timeout", type=float, default=30)
    q.add_argument("--stable", type=float, default=0)
    q.add_argument("--interval", type=float, default=0.2)
    q.add_argument("--invitation", action="store_true")
    q.add_argument("--report", default="")
    q.add_argument("nodes", nargs="+")
    q.set_defaults(fn=cmd_converge)
    q = sub.add_parser("mkgroups")
    q.add_argument("--group", type=int, required=True)
    q.add_argument("--algo", choices=sorted(SYSTEMS), required=True)
    q.add_argument("--timing", default=os.environ.get("ELEC_TIMING") or timing)
    q.add_argument("--start", action="store_true")
    q.add_argument("--invert", type=int, default=0)
    q.add_argument("nodes", nargs="+")
    q.set_defaults(fn=cmd_mkgroups)
    q = sub.add_parser("group")
    q.add_argument("--group", type=int, required=True)
    q.add_argument("--cmd", choices=("start", "stop", "del", "stats"), required=True)
    q.add_argument("--out", default="")
    q.add_argument("nodes", nargs="+")
    q.set_defaults(fn=cmd_group)
    q = sub.add_parser("linkup")
    q.add_argument("--dev", default="eth0")
    q.add_argument("nodes", nargs="+")
    q.set_defaults(fn=cmd_linkup)
    q = sub.add_parser("memory")
    q.add_argument("--group", type=int, required=True)
    q.add_argument("--algo", choices=sorted(SYSTEMS), required=True)
    q.add_argument("--timing", default=os.environ.get("ELEC_TIMING") or timing)
    q.add_argument("--cgroup", required=True)
    q.add_argument("nodes", nargs="+")
    q.set_defaults(fn=cmd_memory)
    q = sub.add_parser("hammer")
    q.add_argument("--netns", required=True)
    q.add_argument("--id", type=int, required=True)
    q.add_argument("--peers", default="")
    q.add_argument("--seed", type=int, default=1)
    q.set_defaults(fn=cmd_hammer)
    q = sub.add_parser("churn")
    q.add_argument("--seed", type=int, default=1)
    q.add_argument("--peers", default="")
    q.set_defaults(fn=cmd_churn)
    a, a.params = p.parse_known_args()
    if a.params and a.fn is not part_cycles:
        p.error("unrecognized arguments: %s" % " ".join(a.params))
    return a.fn(a)


if __name__ == "__main__":
    sys.exit(main())
