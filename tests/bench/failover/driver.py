#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Failover benchmark driver: runs inside the VM (tests/vm/run), as root.

  driver.py --nodes N --hb-us US --variant quiet|busy --systems LIST
            --crashes C --handovers H --soak S --seed SEED --out DIR

One configuration (N nodes, one heartbeat interval, quiet or busy guest) in
one boot. N network namespaces en1..enN, each with an eth0 veth whose peer
p<ID> is a port of bridge br0 in namespace esw. Node id = rank = 1..N; the
best id leads: the highest in every system but min-bully, where the lowest
(1) does. The systems run one after another on that topology:

  keepalived        VRRPv3, advert_int 0.01, priority 100 + id, multicast
  bully, ring, ring-nosuppress (algo ring suppress off), ring-all, ring-list,
  min-bully, enh-bully, invitation
                    election.ko, hb-interval HB, hb-miss 3, timeout 2 x HB,
                    coord-timeout 4 x timeout
  bully-quorum      algo bully quorum on, hb-miss 5, timeout HB (quorum
                    needs hb-interval x (hb-miss - 2) > 1.5 x timeout)
  fixed-K, adaptive-M  (make bench-detector, not by default) bully with the
                    fixed detector at hb-miss K, or the adaptive one with
                    detector-margin M x HB
  --detector fixed|adaptive, --timeout fixed|auto: the algorithm systems'
                    failure detector and timeout-auto (default: not given,
                    the module's defaults)

Per system: C crashes of kind "a" (leader's eth0 down in its namespace),
C of kind "b" (every frame to and from the leader's bridge port dropped by
tc matchall filters on p<ID>, ingress and egress; carrier stays up) and H
planned handovers (kind "p": GROUP_STOP on the leader, or SIGTERM to its
keepalived), in a seeded random order; "the leader" is the one the nodes
agree on before the cut (and it must be the system's best id); each after a seeded random sleep in
[0, heartbeat period); then the undo (link up, filters deleted, GROUP_START
or keepalived restarted) and the group settles on the leader again. Then an
idle soak of S seconds: leader changes counted, CPU time read from
/proc/stat (and keepalived's /proc/PID/stat).

Measurement, without disturbing what is measured:
  - one `electionctl -j monitor` per namespace, started once; their events
    carry the kernel's CLOCK_MONOTONIC ts_ns;
  - keepalived's notify FIFO is read by ONE reader process (this file with
    --fifo-reader, SCHED_FIFO: it only wakes for a line) that stamps every
    line with time.monotonic_ns() as it arrives;
  - the driver waits on those streams (select), never polls per node; the
    cut is one netlink sendmsg from the driver itself (rtnetlink for link
    down and the tc filters, generic netlink for GROUP_STOP), stamped with
    time.monotonic_ns() just before it;
  - the message counters are read with STATS_GET over the driver's own
    generic netlink sockets (no process spawned) after each failover and
    after each settle back, outside the measured windows (a measured window
    ends when the driver has seen the survivors agree for a stable window);
    `electionctl -j stats` runs once per node at the end of each system
    (timer_late and whatever else the module reports).

Output (DIR, copied from the guest's tmpfs at the end of each system):
  events.jsonl   every monitor event ({"src": "mon", "node": ID, ...}) and
                 FIFO line ({"src": "fifo", "ts_ns": stamp, "node": ID,
                 "state": S, "line": ...})
  runs.jsonl     {"type": "meta"}, per trial {"type": "trial"}, per system
                 {"type": "system"} (soak, CPU, timer lateness, errors)
  ka-<ID>.log    keepalived's console logs
The analysis (analyze.py) reads these.
"""

import argparse
import json
import os
import random
import selectors
import shutil
import signal
import socket
import struct
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.environ.get("ELECTION_REPO") or os.path.normpath(os.path.join(HERE, "..", "..", ".."))
CTL = os.path.join(REPO, "userspace", "electionctl")
KO = os.environ.get("ELEC_KO") or os.path.join(REPO, "module", "election.ko")
KA_TEMPLATE = os.path.join(HERE, "keepalived.conf.in")
WORK = "/tmp/failover"            # guest tmpfs: no 9p writes while measuring

# the test library (tests/lib): the systems compared, netlink, faults
sys.path.insert(0, os.path.join(REPO, "tests", "lib"))
from electest.bench import (  # noqa: E402,F401 (the systems compared)
    ALL_SYSTEMS, DEFAULT_SYSTEMS, DETECTOR_SYSTEMS, ELEC_SYSTEMS, KA_STATES,
    LOWEST_WINS, SYSTEM_TIMING)
KA_ADVERT_NS = 10_000_000         # keepalived's minimum advert_int, 0.01 s
HB_MISS = 3

# ------------------------------------------------------------- netlink ---

# the test library: one netlink client, rtnetlink faults, namespaces
from electest import nl  # noqa: E402
from electest.faults import drop_filter_reqs, link_req  # noqa: E402
from electest.nl import NETLINK_ROUTE, Nl, in_netns, parse_nla, setns_path  # noqa: E402


# ------------------------------------------------------------- helpers ---

def now_ns():
    return time.monotonic_ns()


def sh(*argv, ns=None, check=True):
    """Run a setup command (never inside a measured window)."""
    cmd = list(argv)
    if ns:
        cmd = ["ip", "netns", "exec", ns] + cmd
    p = subprocess.run(cmd, capture_output=True, text=True)
    if check and p.returncode:
        raise RuntimeError("%s: exit %d: %s" % (" ".join(cmd), p.returncode, p.stderr.strip()))
    return p.stdout


def mac(i):
    return "02:e1:%02x:%02x:%02x:%02x" % (i >> 24 & 255, i >> 16 & 255, i >> 8 & 255, i & 255)


def proc_stat_cpu():
    with open("/proc/stat") as f:
        return [int(x) for x in f.readline().split()[1:]]


def pid_cpu(pid):
    """utime + stime of one process in clock ticks (0 when it is gone)."""
    try:
        with open("/proc/%d/stat" % pid) as f:
            rest = f.read().rsplit(")", 1)[1].split()
        return int(rest[11]) + int(rest[12])
    except (OSError, IndexError, ValueError):
        return 0


def children_of(pids):
    out = []
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            with open("/proc/%s/stat" % d) as f:
                ppid = int(f.read().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue
        if ppid in pids:
            out.append(int(d))
    return out


def fifo_reader(path):
    """--fifo-reader: stamp each line of keepalived's notify FIFO on arrival.

    Opened read-write so that it never sees EOF when keepalived processes
    come and go. Runs SCHED_FIFO so that its stamps do not wait for a busy
    guest's scheduler; it only wakes when keepalived writes."""
    try:
        os.sched_setscheduler(0, os.SCHED_FIFO, os.sched_param(20))
    except OSError:
        pass
    fd = os.open(path, os.O_RDWR)
    out = sys.stdout
    buf = b""
    while True:
        data = os.read(fd, 65536)
        ts = time.monotonic_ns()
        buf += data
        *lines, buf = buf.split(b"\n")
        for ln in lines:
            out.write(json.dumps({"ts_ns": ts, "line": ln.decode(errors="replace")}) + "\n")
        out.flush()


# -------------------------------------------------------------- driver ---

class Bench:
    def __init__(self, a):
        self.a = a
        self.n = a.nodes
        self.ids = list(range(1, self.n + 1))
        self.best = self.n            # the current system's best id
        self.hb_ns = a.hb_us * 1000
        self.rng = random.Random(a.seed)
        self.sel = selectors.DefaultSelector()
        self.bufs = {}
        self.procs = []               # long-lived helpers, killed at the end
        self.hogs = []
        self.events = []              # raw lines for events.jsonl
        self.runs = []                # records for runs.jsonl
        self.group = None             # election group of the current system
        self.hb_miss = HB_MISS        # its hb-miss
        self.lead = {}                # node -> leader it follows (None: none)
        self.stopped = {}             # node -> instance stopped
        self.ka = {}                  # node -> keepalived state
        self.ka_procs = {}            # node -> Popen of keepalived
        self.last_ev = 0              # arrival (driver clock) of the last relevant event
        self.changes = 0              # takeovers seen: a node entering the
                                      # leader role / MASTER (soak counter)
        self.runs_begun = 0           # election_started events (soak)
        self.gaps = 0
        os.makedirs(WORK, exist_ok=True)
        os.makedirs(a.out, exist_ok=True)

    # ---- topology and long-lived helpers ----

    def setup(self):
        for m in ("veth", "bridge", "sch_ingress", "cls_matchall", "act_gact"):
            sh("modprobe", m, check=False)
        if os.path.exists("/sys/module/election"):
            sh("rmmod", "election")
        sh("insmod", KO)
        sh("ip", "netns", "add", "esw")
        sh("ip", "-n", "esw", "link", "set", "lo", "up")
        sh("ip", "-n", "esw", "link", "add", "br0", "type", "bridge", "stp_state", "0", "forward_delay", "0")
        sh("ip", "-n", "esw", "link", "set", "br0", "up")
        for i in self.ids:
            ns = "en%d" % i
            sh("ip", "netns", "add", ns)
            sh("ip", "link", "add", "eth0", "netns", ns, "address", mac(i), "type", "veth",
               "peer", "name", "p%d" % i, "netns", "esw")
            sh("ip", "-n", "esw", "link", "set", "p%d" % i, "master", "br0", "up")
            sh("tc", "-n", "esw", "qdisc", "add", "dev", "p%d" % i, "clsact")
            sh("ip", "-n", ns, "link", "set", "lo", "up")
            sh("ip", "-n", ns, "addr", "add", "10.0.%d.%d/16" % (i >> 8, i & 255), "dev", "eth0")
            sh("ip", "-n", ns, "link", "set", "eth0", "up")
        # One netlink socket per namespace, created inside it, for the cuts.
        cmds, attrs = nl.CMD, nl.ATTR
        self.cmd_start, self.cmd_stop = cmds["ELEC_CMD_GROUP_START"], cmds["ELEC_CMD_GROUP_STOP"]
        self.cmd_stats, self.attr_tx = cmds["ELEC_CMD_STATS_GET"], attrs["ELEC_ATTR_TX"]
        self.msg_names = {v: k[len("ELEC_MSG_"):].lower() for k, v in nl.ENUMS["elec_msg_type"].items()
                          if k.startswith("ELEC_MSG_") and k not in ("ELEC_MSG_UNSPEC", "ELEC_MSG_MAX")}
        self.rtnl, self.genl, self.ifindex, self.port = {}, {}, {}, {}
        home = os.open("/proc/self/ns/net", os.O_RDONLY)
        for i in self.ids:
            setns_path("/run/netns/en%d" % i)
            self.rtnl[i] = Nl(NETLINK_ROUTE)
            g = Nl()
            self.genl[i] = (g, g.family("election"))
            self.ifindex[i] = socket.if_nametoindex("eth0")
        setns_path("/run/netns/esw")
        self.esw = Nl(NETLINK_ROUTE)
        for i in self.ids:
            self.port[i] = socket.if_nametoindex("p%d" % i)
        setns_path("/proc/self/fd/%d" % home)
        os.close(home)
        # The monitors and the FIFO reader: started once, read by select.
        for i in self.ids:
            p = subprocess.Popen([CTL, "-j", "monitor"], stdout=subprocess.PIPE,
                                 stderr=subprocess.DEVNULL, preexec_fn=in_netns("en%d" % i))
            self.watch(p, ("mon", i))
        self.fifo = os.path.join(WORK, "ka.fifo")
        os.mkfifo(self.fifo)
        p = subprocess.Popen([sys.executable, os.path.abspath(__file__), "--fifo-reader", self.fifo],
                             stdout=subprocess.PIPE)
        self.watch(p, ("fifo", None))
        # The driver itself stays SCHED_OTHER: a real-time driver spawning
        # the stats snapshots starved ksoftirqd, hence election.ko's soft
        # hrtimers, long enough for spurious elections (seen at hb 10 ms).
        time.sleep(0.3)

    def watch(self, p, tag):
        self.procs.append(p)
        os.set_blocking(p.stdout.fileno(), False)
        self.bufs[p.stdout.fileno()] = b""
        self.sel.register(p.stdout, selectors.EVENT_READ, tag)

    # ---- event handling ----

    def pump(self, timeout, early=False):
        """Handle every line that arrives within timeout seconds (at least
        one pass); with early, return after the first lines handled."""
        end = time.monotonic() + max(timeout, 0)
        while True:
            left = end - time.monotonic()
            ready = self.sel.select(max(left, 0))
            for key, _ in ready:
                fd = key.fileobj.fileno()
                try:
                    data = os.read(fd, 65536)
                except BlockingIOError:
                    continue
                if not data:
                    self.sel.unregister(key.fileobj)
                    continue
                buf = self.bufs[fd] + data
                *lines, self.bufs[fd] = buf.split(b"\n")
                for ln in lines:
                    self.line(key.data, ln)
            if left <= 0 or (early and ready):
                return

    def line(self, tag, raw):
        try:
            ev = json.loads(raw)
        except ValueError:
            return
        src, node = tag
        if src == "mon":
            ev["src"], ev["node"] = "mon", node
            self.events.append(ev)
            if ev.get("event") == "gap":
                self.gaps += 1
                return
            if ev.get("group") != self.group:
                return
            e = ev.get("event")
            if e == "leader_changed":
                self.lead[node] = ev.get("leader")
                self.stopped[node] = False
                self.changes += ev.get("leader") == node
            elif e == "stopped":
                self.stopped[node] = True
            elif e == "election_started":
                self.stopped[node] = False
                self.runs_begun += 1
            else:
                return
            self.last_ev = now_ns()
        else:
            # INSTANCE "N<id>" STATE PRIORITY
            w = ev["line"].split()
            if len(w) < 3 or w[0] != "INSTANCE" or not w[1].strip('"').startswith("N"):
                return
            try:
                node = int(w[1].strip('"')[1:])
            except ValueError:
                return
            ev.update(src="fifo", node=node, state=w[2])
            self.events.append(ev)
            if w[2] in KA_STATES:
                if w[2] != self.ka.get(node):
                    self.changes += w[2] == "MASTER"
                self.ka[node] = w[2]
                self.last_ev = now_ns()

    # ---- agreement ----

    def agree(self, nodes, expect=None):
        """The leader every node of `nodes` agrees on, or None."""
        if self.group is None:
            masters = [i for i in nodes if self.ka.get(i) == "MASTER"]
            if len(masters) != 1 or any(self.ka.get(i) != "BACKUP" for i in nodes if i != masters[0]):
                return None
            lead = masters[0]
        else:
            if any(self.stopped.get(i, True) for i in nodes):
                return None
            views = {self.lead.get(i) for i in nodes}
            if len(views) != 1:
                return None
            lead = views.pop()
            if lead not in nodes:
                return None
        return lead if expect in (None, lead) else None

    def settle(self, nodes, expect, stable_ns, timeout):
        """Wait until `nodes` agree and no event came for stable_ns."""
        end = now_ns() + int(timeout * 1e9)
        while True:
            t = now_ns()
            lead = self.agree(nodes, expect)
            quiet = t - self.last_ev
            if lead is not None and quiet >= stable_ns:
                return lead
            if t >= end:
                return None
            wait = (stable_ns - quiet) if lead is not None else (end - t)
            self.pump(min(wait, end - t) / 1e9, early=True)

    # ---- election.ko ----

    def elec_ctl_all(self, per_node):
        """Run a list of electionctl argvs per node, nodes in parallel."""
        ps = []
        for i in self.ids:
            script = "\n".join(" ".join([CTL] + [str(x) for x in argv]) for argv in per_node(i))
            ps.append((i, subprocess.Popen(["sh", "-ec", script], stdout=subprocess.PIPE,
                                           stderr=subprocess.STDOUT, text=True,
                                           preexec_fn=in_netns("en%d" % i))))
        for i, p in ps:
            out, _ = p.communicate()
            if p.returncode:
                raise RuntimeError("node %d: electionctl failed: %s" % (i, out.strip()))

    def snapshot(self):
        """`electionctl -j stats` of the current group on every node, at once
        (once per system, after its soak: whatever the module reports, such
        as timer_late, in the tool's own JSON)."""
        ps = [(i, subprocess.Popen([CTL, "-j", "stats", "dev", "eth0", "group", str(self.group)],
                                   stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                   preexec_fn=in_netns("en%d" % i))) for i in self.ids]
        snap = {}
        for i, p in ps:
            out, _ = p.communicate()
            try:
                snap[i] = json.loads(out)[0]
            except (ValueError, IndexError):
                snap[i] = None
        self.pump(0)
        # the spawns are a disturbance: the next settle waits a stable
        # window after them
        self.last_ev = now_ns()
        return snap

    def stats_tx(self):
        """Frames sent per type by every node: STATS_GET over the driver's
        generic netlink sockets, all requests out before the first reply is
        read. No process is spawned: nothing to disturb the group."""
        sent = []
        for i in self.ids:
            g, reqs = self.genl_group(i, self.cmd_stats)
            sent.append((i, g, g.send_many(reqs)))
        snap = {}
        for i, g, seqs in sent:
            _, replies = g.acks(seqs)
            tx = {}
            for _, chunk in replies:
                a = parse_nla(chunk[4:])
                for t, v in parse_nla(a.get(self.attr_tx, b"")).items():
                    if t in self.msg_names and len(v) >= 8:
                        tx[self.msg_names[t]] = struct.unpack("=Q", v[:8])[0]
            snap[i] = {"tx": tx}
        return snap

    def genl_group(self, i, cmd):
        g, fam = self.genl[i]
        payload = struct.pack("=BBH", cmd, 1, 0) + nl.key(self.ifindex[i], self.group)
        return g, [(fam, 0, payload)]

    def elec_up(self, name):
        group, kw = ELEC_SYSTEMS[name]
        hb = self.hb_ns
        # "MARGIN:M": M heartbeat intervals, as a duration
        kw = ["%dus" % max(100, int(float(w[7:]) * hb / 1000))
              if isinstance(w, str) and w.startswith("MARGIN:") else w
              for w in kw]
        miss, tmul = SYSTEM_TIMING.get(name, (HB_MISS, 2))
        timing = ["hb-interval", "%dus" % (hb // 1000), "hb-miss", miss,
                  "timeout", "%dus" % (tmul * hb // 1000),
                  "coord-timeout", "%dus" % (4 * tmul * hb // 1000)]
        timing += self.detector_kw(name)
        self.hb_miss = miss
        self.group = group
        self.lead = {i: None for i in self.ids}
        self.stopped = {i: True for i in self.ids}

        def cmds(i):
            c = [["group", "add", "dev", "eth0", "group", group, "id", i] + kw + timing]
            c += [["peer", "add", "dev", "eth0", "group", group, "id", p, "lladdr", mac(p)]
                  for p in self.ids if p != i]
            return c
        self.elec_ctl_all(cmds)
        # GROUP_START on every node back to back, one sendmsg each
        sent = [(g, g.send_many(reqs)) for g, reqs in (self.genl_group(i, self.cmd_start) for i in self.ids)]
        for g, seqs in sent:
            g.acks(seqs)

    def detector_kw(self, name):
        """--detector and --timeout for the algorithm systems (the
        bench-detector settings choose their own detector): nothing at
        "default", so the module's defaults are what is measured."""
        kw = []
        if name in DETECTOR_SYSTEMS:
            return kw
        if self.a.detector != "default":
            kw += ["detector", self.a.detector]
        if self.a.timeout != "default":
            # the configured timeout stays (quorum's lease and promise
            # are functions of it); auto measures the waits from it
            kw += ["timeout-auto", "on" if self.a.timeout == "auto" else "off"]
        return kw

    def elec_down(self):
        g = self.group
        self.elec_ctl_all(lambda i: [["group", "del", "dev", "eth0", "group", g]])

    # ---- keepalived ----

    def ka_start(self, i):
        with open(KA_TEMPLATE) as f:
            conf = f.read()
        for k, v in (("ID", i), ("PRIORITY", 100 + i), ("FIFO", self.fifo),
                     ("ADVERT", "%.2f" % (KA_ADVERT_NS / 1e9))):
            conf = conf.replace("@%s@" % k, str(v))
        path = os.path.join(WORK, "ka-%d.conf" % i)
        with open(path, "w") as f:
            f.write(conf)
        log = open(os.path.join(WORK, "ka-%d.log" % i), "a")
        self.ka_procs[i] = subprocess.Popen(
            ["keepalived", "--dont-fork", "--log-console", "--vrrp", "-f", path,
             "-p", os.path.join(WORK, "ka-%d.pid" % i),
             "-r", os.path.join(WORK, "ka-%d.vrrp.pid" % i)],
            stdout=log, stderr=subprocess.STDOUT, preexec_fn=in_netns("en%d" % i))
        log.close()

    def ka_stop(self, i, wait=True):
        p = self.ka_procs.get(i)
        if p and p.poll() is None:
            p.send_signal(signal.SIGTERM)
            if wait:
                self.ka_wait(i)

    def ka_wait(self, i):
        p = self.ka_procs[i]
        end = time.monotonic() + 10
        while p.poll() is None and time.monotonic() < end:
            self.pump(0.02)
        if p.poll() is None:
            p.kill()
            p.wait()

    def ka_up(self):
        self.group = None
        self.ka = {i: "INIT" for i in self.ids}
        for i in self.ids:
            self.ka_start(i)

    def ka_down(self):
        for i in self.ids:
            self.ka_stop(i, wait=False)
        for i in self.ids:
            self.ka_wait(i)

    # ---- cuts and undos ----

    def cut(self, kind, i):
        """Stamp, then cut in one sendmsg (or one signal). Returns the stamp."""
        if kind == "a":
            sock, reqs = self.rtnl[i], [link_req(self.ifindex[i], False)]
        elif kind == "b":
            sock, reqs = self.esw, drop_filter_reqs(self.port[i], True)
        elif self.group is None:
            t = now_ns()
            self.ka_procs[i].send_signal(signal.SIGTERM)
            return t
        else:
            sock, reqs = self.genl_group(i, self.cmd_stop)
        t = now_ns()
        seqs = sock.send_many(reqs)
        errs, _ = sock.acks(seqs)
        if any(errs.values()):
            raise RuntimeError("cut %s on %d refused: %s" % (kind, i, errs))
        return t

    def undo(self, kind, i):
        if kind == "a":
            self.rtnl[i].call_many([link_req(self.ifindex[i], True)])
        elif kind == "b":
            self.esw.call_many(drop_filter_reqs(self.port[i], False))
        elif self.group is None:
            self.ka_wait(i)
            self.ka_start(i)
        else:
            g, reqs = self.genl_group(i, self.cmd_start)
            g.call_many(reqs)

    # ---- one system ----

    def period_ns(self):
        return KA_ADVERT_NS if self.group is None else self.hb_ns

    def stable_ns(self):
        # settled = agreement and then no event for 10 detection bounds
        # (at least 50 ms)
        miss = HB_MISS if self.group is None else self.hb_miss
        return max(50_000_000, 10 * miss * self.period_ns())

    def hogs_start(self):
        if self.a.variant == "busy":
            self.hogs = [subprocess.Popen(["sh", "-c", "while :; do :; done"])
                         for _ in range(os.cpu_count() or 1)]

    def hogs_stop(self):
        for p in self.hogs:
            p.kill()
            p.wait()
        self.hogs = []

    def record(self, rec):
        self.runs.append(rec)
        if rec["type"] == "trial" and rec.get("skipped"):
            print("trial %-15s %s %2d: skipped: %s" % (rec["system"], rec["kind"], rec["k"],
                                                      rec["skipped"]), flush=True)
        elif rec["type"] == "trial":
            print("trial %-15s %s %2d: new leader %s after ~%.1f ms (driver's view), %s" % (
                rec["system"], rec["kind"], rec["k"], rec["new_leader"],
                (rec["settled_ns"] - rec["cut_ns"] - self.stable_ns()) / 1e6,
                "settled back" if rec["back"] else "NOT SETTLED BACK"), flush=True)
        elif rec["type"] == "system":
            print("system %s: %.1f s, soak %s, errors %s" % (
                rec["system"], rec.get("seconds", 0),
                {k: v for k, v in rec.get("soak", {}).items() if k == "leader_changes"},
                rec["errors"] or "none"), flush=True)
        else:
            print("driver: %s" % json.dumps(rec), flush=True)

    def run_system(self, name):
        is_ka = name == "keepalived"
        self.best = min(self.ids) if name in LOWEST_WINS else max(self.ids)
        rec = {"type": "system", "system": name, "errors": [], "best": self.best,
               "group": None if is_ka else ELEC_SYSTEMS[name][0],
               "hb_miss": SYSTEM_TIMING.get(name, (HB_MISS, 2))[0],
               "timeout_hb": SYSTEM_TIMING.get(name, (HB_MISS, 2))[1],
               "options": None if is_ka else self.detector_kw(name)}
        t_sys = now_ns()
        try:
            if is_ka:
                self.ka_up()
            else:
                self.elec_up(name)
            self.last_ev = now_ns()
            lead = self.settle(self.ids, self.best, self.stable_ns(), 30)
            if lead is None:
                raise RuntimeError("no initial agreement on %d: %s" % (
                    self.best, self.ka if is_ka else self.lead))
            self.hogs_start()
            kinds = (["a"] * self.a.crashes * ("a" in self.a.kinds) +
                     ["b"] * self.a.crashes * ("b" in self.a.kinds) +
                     ["p"] * self.a.handovers)
            self.rng.shuffle(kinds)
            snap = None if is_ka else self.stats_tx()
            counts = {}
            fails = total_fails = 0
            for kind in kinds:
                counts[kind] = counts.get(kind, 0) + 1
                r, snap = self.trial(name, kind, counts[kind], snap)
                self.record(r)
                if r.get("skipped") or not r["back"]:
                    # a group that does not settle: note it, undo everything,
                    # go on; give up on the system after 5 in a row
                    fails += 1
                    total_fails += 1
                    rec["errors"].append("trial %s/%d: %s" % (
                        kind, counts[kind], r.get("skipped") or "group did not settle back"))
                    if fails >= 5 or total_fails >= 10:
                        raise RuntimeError("%d trials without settling (%d in a row): giving up on %s"
                                           % (total_fails, fails, name))
                    self.recover(is_ka)
                    # the next trial's messages count from here
                    snap = None if is_ka else self.stats_tx()
                else:
                    fails = 0
                if len(self.events) > 20000:   # an election storm: keep memory bounded
                    self.flush_events()
            rec["soak"] = self.soak(is_ka)
            if not is_ka:
                last = self.snapshot()
                rec["timer_late"] = timer_late(last)
                rec["final_stats"] = last
        except Exception as e:  # record and go on with the next system
            rec["errors"].append("%s: %s" % (type(e).__name__, e))
            print("driver: %s: %s" % (name, e), flush=True)
        finally:
            self.hogs_stop()
            try:
                if is_ka:
                    self.ka_down()
                elif self.group is not None:
                    self.elec_down()
            except Exception as e:
                rec["errors"].append("teardown: %s" % e)
            rec["seconds"] = (now_ns() - t_sys) / 1e9
            self.record(rec)
            self.flush()

    def recover(self, is_ka):
        """After a trial that did not settle: make sure nothing is cut."""
        for i in self.ids:
            for fn in (lambda: self.rtnl[i].call_many([link_req(self.ifindex[i], True)]),
                       lambda: self.esw.call_many(drop_filter_reqs(self.port[i], False))):
                try:
                    fn()
                except OSError:
                    pass
        if is_ka:
            for i in self.ids:
                if self.ka_procs[i].poll() is not None:
                    self.ka_start(i)
        self.settle(self.ids, self.best, self.stable_ns(), self.a.fail_timeout)

    def trial(self, name, kind, k, before):
        best = self.best
        stable = self.stable_ns()
        # settled and quiet (also after the last stats snapshot); a group
        # that agrees but never stays quiet that long is cut anyway, noted
        quiet = self.settle(self.ids, best, stable, self.a.fail_timeout) is not None
        # the leader as the nodes report it (their events), never assumed
        top = self.agree(self.ids)
        surv = [i for i in self.ids if i != top]
        rec = {"type": "trial", "system": name, "kind": kind, "k": k, "leader": top,
               "survivors": surv}
        if top != best:
            rec.update(skipped="group not agreed on %d before the cut (leader: %s)" % (best, top),
                       back=False)
            return rec, before
        delay = self.rng.uniform(0, self.period_ns() / 1e9)
        self.pump(delay)                       # random phase of the heartbeat cycle
        cut = self.cut(kind, top)
        self.last_ev = cut
        lead = self.settle(surv, None, stable, self.a.fail_timeout)
        settled = now_ns()
        after = None if self.group is None else self.stats_tx()
        undo = now_ns()
        self.undo(kind, top)
        self.last_ev = now_ns()
        back = self.settle(self.ids, best, stable, self.a.fail_timeout)
        back_ns = now_ns()
        back_stats = None if self.group is None else self.stats_tx()
        r = dict(rec, quiet_before=quiet, delay_ns=int(delay * 1e9))
        r.update({"cut_ns": cut,
             "settled_ns": settled, "new_leader": lead, "undo_ns": undo,
             "back_ns": back_ns, "back": back is not None, "gaps": self.gaps})
        if before is not None:
            r["msgs"] = msg_delta(before, after, surv)
            r["before"], r["after"] = before, after
        return r, back_stats

    def soak(self, is_ka):
        self.pump(0)
        pids = []
        if is_ka:
            mains = [p.pid for p in self.ka_procs.values() if p.poll() is None]
            pids = mains + children_of(set(mains))
        c0, e0 = self.changes, self.runs_begun
        cpu0, p0, t0 = proc_stat_cpu(), sum(pid_cpu(p) for p in pids), now_ns()
        self.pump(self.a.soak)
        cpu1, p1, t1 = proc_stat_cpu(), sum(pid_cpu(p) for p in pids), now_ns()
        return {"start_ns": t0, "end_ns": t1, "leader_changes": self.changes - c0,
                "elections": None if is_ka else self.runs_begun - e0,
                "proc_stat_delta": [b - a for a, b in zip(cpu0, cpu1)],
                "clk_tck": os.sysconf("SC_CLK_TCK"), "procs": len(pids),
                "proc_ticks": p1 - p0 if is_ka else None, "ncpu": os.cpu_count()}

    # ---- output ----

    def flush_events(self):
        with open(os.path.join(WORK, "events.jsonl"), "a") as f:
            for ev in self.events:
                f.write(json.dumps(ev) + "\n")
        self.events = []

    def flush(self):
        self.flush_events()
        with open(os.path.join(WORK, "runs.jsonl"), "a") as f:
            for r in self.runs:
                f.write(json.dumps(r) + "\n")
        self.runs = []
        for fn in os.listdir(WORK):
            if fn.endswith((".jsonl", ".log")):
                shutil.copy(os.path.join(WORK, fn), os.path.join(self.a.out, fn))

    def close(self):
        self.hogs_stop()
        for i, p in self.ka_procs.items():
            if p.poll() is None:
                p.kill()
        for p in self.procs:
            p.kill()
            p.wait()


def msg_delta(before, after, nodes):
    """Frames sent per type, summed over `nodes`, between two snapshots."""
    out = {}
    for i in nodes:
        b, a = (before or {}).get(i), (after or {}).get(i)
        if not a or not b:
            continue
        for t, v in a.get("tx", {}).items():
            out[t] = out.get(t, 0) + v - b.get("tx", {}).get(t, 0)
    return out


def timer_late(snap):
    """Sum of the nodes' timer_late objects, or None if the module has none."""
    tot = None
    for s in (snap or {}).values():
        tl = (s or {}).get("timer_late")
        if not isinstance(tl, dict):
            continue
        if tot is None:
            tot = {"buckets": [0] * len(tl.get("buckets", [])), "max_ns": 0, "count": 0}
        for j, v in enumerate(tl.get("buckets", [])):
            if j < len(tot["buckets"]):
                tot["buckets"][j] += v
        tot["max_ns"] = max(tot["max_ns"], tl.get("max_ns", 0))
        tot["count"] += tl.get("count", 0)
    return tot


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--fifo-reader":
        fifo_reader(sys.argv[2])
        return 0
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--nodes", type=int, default=3)
    p.add_argument("--hb-us", type=int, default=10000)
    p.add_argument("--variant", choices=("quiet", "busy"), default="quiet")
    p.add_argument("--systems", default=",".join(DEFAULT_SYSTEMS))
    p.add_argument("--crashes", type=int, default=30)
    p.add_argument("--handovers", type=int, default=10)
    p.add_argument("--kinds", default="ab",
                   help="crash kinds to run: a (link down), b (silent "
                        "isolation); default ab")
    p.add_argument("--detector", choices=("default", "fixed", "adaptive"),
                   default="default",
                   help="the algorithm systems' failure detector (default: "
                        "the module's)")
    p.add_argument("--timeout", choices=("default", "fixed", "auto"),
                   default="default",
                   help="auto: timeout-auto on (T from measured round "
                        "trips); fixed: off; default: the module's")
    p.add_argument("--soak", type=float, default=60)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--fail-timeout", type=float, default=5,
                   help="seconds to wait for a group to settle (default 5)")
    p.add_argument("--out", default=os.environ.get("RESULTS_DIR", "/tmp") + "/failover")
    a = p.parse_args()
    systems = a.systems.split(",")
    bad = [s for s in systems if s not in ALL_SYSTEMS]
    if bad:
        p.error("unknown systems %s" % bad)
    b = Bench(a)
    meta = {"type": "meta", "nodes": a.nodes, "hb_ns": a.hb_us * 1000, "hb_miss": HB_MISS,
            "variant": a.variant, "systems": systems, "crashes": a.crashes,
            "handovers": a.handovers, "kinds": a.kinds, "soak_s": a.soak,
            "seed": a.seed, "detector": a.detector, "timeout": a.timeout,
            "ka_advert_ns": KA_ADVERT_NS, "guest_cpus": os.cpu_count(),
            "guest_kernel": os.uname().release, "start_ns": now_ns(), "start_wall": time.time()}
    with open("/proc/meminfo") as f:
        meta["guest_mem_kb"] = int(f.readline().split()[1])
    rc = 0
    b.record(meta)
    try:
        b.setup()
        for s in systems:
            b.run_system(s)
    except Exception as e:
        print("driver: setup failed: %s: %s" % (type(e).__name__, e), flush=True)
        rc = 1
    finally:
        b.record({"type": "end", "end_ns": now_ns(), "end_wall": time.time(), "rc": rc})
        b.flush()
        b.close()
    return rc


if __name__ == "__main__":
    sys.exit(main())
