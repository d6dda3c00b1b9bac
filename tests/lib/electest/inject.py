# SPDX-License-Identifier: GPL-2.0
"""Frames injected with tests/inject/elec-inject in a VM scenario, and the
drop counters against its predictions, in process (94-inject,
95-inject-volume, 96-auth, tests/bench/auth; tests/inject/drops.py is a
command line over this module).

    inj = Injector(s)                 # s: a Scenario; its nodes inject-free
    s.timing = TIMING                 # the timing both scenarios use
    inj.need()
    inj.run(66, "replay", "eth0", cap, ...)   # a report, kept for check
    inj.snap("before-x"); ...; inj.snap("after-x")
    inj.check("x", "before-x", "after-x")

The comparisons (snap, check, settle) follow drops.py's doc: per node and
drop reason the counters' change (a device-level drop taken once: every
instance reports it) equals the prediction summed over the reports of the
commands run between the snapshots; the sum over nodes equals the frames
received; nothing else moved (roles, leaders, terms, elections, other
drops), unless the guest stalled (timer expiries 0.5 s late or more: a
NOTE, not counted).
"""

import json
import os
import re
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor

from electest import REPO
from electest.scenario import dur, indent, run, sec

INJ = os.path.join(REPO, "tests", "inject", "elec-inject")

# A detection window of 2 s: the scenarios assert that no node begins an
# election across a section (seconds of electionctl calls under TCG), and a
# TCG guest on a busy host stalls for more than lib.sh's 0.5 s now and then
# (every overdue timer then fires at once: a follower's detector before the
# leader's late heartbeat, peer_down and peer_up 0.4 ms apart).
TIMING = "hb-interval %s hb-miss 8 timeout %s coord-timeout %s" % (
    dur("250ms"), dur("100ms"), dur("400ms"))

DEVICE_LEVEL = ("malformed", "wrong_group", "auth_truncated")
# the reasons a frame from a MAC that is no peer's can reach: the device's,
# and the receive checks up to wrong_lladdr (protocol.rst)
INJECTABLE = {"malformed", "wrong_group", "auth_truncated", "auth_bad",
              "stopped", "wrong_algo", "wrong_dst", "unknown_peer",
              "wrong_lladdr"}
# timer_late buckets of expiries at least 2^19 us (0.52 s) late: the guest
# stalled (a TCG guest on a busy host)
STALL_BUCKETS = (20, 21)


def ctl_path():
    return os.path.join(REPO, "userspace", "electionctl")


def dump(ns, what):
    """electionctl -j WHAT dev eth0 in namespace @ns, parsed."""
    p = subprocess.run([ctl_path(), "-n", ns, "-j", what, "dev", "eth0"],
                       capture_output=True, text=True, timeout=60)
    if p.returncode != 0:
        raise RuntimeError("%s: electionctl %s: exit %d: %s" % (
            ns, what, p.returncode, p.stderr.strip()))
    return json.loads(p.stdout)


def snap(nodes):
    """Every node's instances (-j show) and counters (-j stats) on eth0:
    {ID (a string): {"show": [...], "stats": [...]}}; @nodes [(ns, id)].
    The dumps run in parallel (electionctl is slow under TCG)."""
    with ThreadPoolExecutor(max_workers=2 * len(nodes)) as ex:
        futs = {(str(nid), what): ex.submit(dump, ns, what)
                for ns, nid in nodes for what in ("show", "stats")}
        return {str(nid): {"show": futs[(str(nid), "show")].result(),
                           "stats": futs[(str(nid), "stats")].result()}
                for _, nid in nodes}


def by_group(items):
    return {i["group"]: i for i in items}


def merge_reports(reports):
    """Frames sent and predictions of elec-inject -j @reports (parsed),
    summed; ValueError for a report without a prediction."""
    sent = 0
    expect = {"total": {}, "nodes": {}}
    for report in reports:
        if not report.get("expect"):
            raise ValueError("a report has no prediction (elec-inject -j "
                             "with nodes and groups)")
        sent += report["sent"]
        for r, v in report["expect"]["total"].items():
            expect["total"][r] = expect["total"].get(r, 0) + v
        for nid, counts in report["expect"]["nodes"].items():
            mine = expect["nodes"].setdefault(nid, {})
            for r, v in counts.items():
                mine[r] = mine.get(r, 0) + v
    return sent, expect


def check(before, after, reports, label, accepted_ok, result, note=print):
    """Snapshots @before and @after (snap()'s) against @reports (parsed
    elec-inject -j reports); every verdict goes to @result(ok, text), a
    disturbance during a guest stall to @note(text)."""
    sent, expect = merge_reports(reports)
    label = label + ": " if label else ""
    total_seen = total_want = 0
    for nid, want in sorted(expect["nodes"].items(), key=lambda x: int(x[0])):
        if nid not in before or nid not in after:
            result(False, "%snode %s is not in both snapshots" % (label, nid))
            continue
        sb, sa = by_group(before[nid]["stats"]), by_group(after[nid]["stats"])
        if sorted(sb) != sorted(sa):
            result(False, "%snode %s: its groups changed: %s -> %s" % (
                label, nid, sorted(sb), sorted(sa)))
            continue
        reasons = sorted(set(r for g in sa.values() for r in g["drops"]))
        delta = {g: {r: sa[g]["drops"].get(r, 0) - sb[g]["drops"].get(r, 0)
                     for r in reasons} for g in sa}
        seen = {r: 0 for r in reasons}
        for r in reasons:
            if r in DEVICE_LEVEL:
                vals = set(d[r] for d in delta.values())
                if len(vals) != 1:
                    result(False, "%snode %s: %s changed differently across "
                           "its instances: %s" % (label, nid, r, {
                               g: d[r] for g, d in delta.items()}))
                seen[r] = max(vals) if vals else 0
            else:
                seen[r] = sum(d[r] for d in delta.values())
        want_drops = {r: v for r, v in want.items()
                      if r not in ("accepted", "not_received")}
        compared = INJECTABLE | set(r for r, v in want_drops.items() if v)
        diff = {r: (seen.get(r, 0), want_drops.get(r, 0))
                for r in compared
                if seen.get(r, 0) != want_drops.get(r, 0)}
        nonzero = ", ".join("%s %d" % (r, v) for r, v in sorted(seen.items())
                            if v and r in compared)
        result(not diff, "%snode %s: drop changes %s %s" % (
            label, nid, "{" + nonzero + "}",
            "as predicted" if not diff else
            "differ (seen, predicted): %s" % diff))
        total_seen += sum(seen.get(r, 0) for r in compared)
        total_want += sum(want_drops.values())
        others = {r: v for r, v in seen.items() if v and r not in compared}
        stall = 0
        for g in sa:
            la, lb = sa[g].get("timer_late"), sb[g].get("timer_late")
            if la and lb:
                stall += sum(la["buckets"][k] - lb["buckets"][k]
                             for k in STALL_BUCKETS)
        # nothing disturbed
        if not accepted_ok:
            shb = by_group(before[nid]["show"])
            sha = by_group(after[nid]["show"])
            moved = []
            for g in sorted(sa):
                for k in ("role", "leader", "term"):
                    if shb.get(g, {}).get(k) != sha.get(g, {}).get(k):
                        moved.append("group %s %s %s -> %s" % (
                            g, k, shb.get(g, {}).get(k),
                            sha.get(g, {}).get(k)))
                for k in ("elections", "leader_changes", "elections_limited"):
                    d = sa[g].get(k, 0) - sb[g].get(k, 0)
                    if d:
                        moved.append("group %s %s +%d" % (g, k, d))
            if others:
                moved.append("other drops %s" % others)
            text = ("%snode %s: roles, leaders, terms unchanged, no "
                    "election, no leader change, no other drop in %d "
                    "groups" % (label, nid, len(sa)))
            if moved and stall:
                note("NOTE: %s: not so (%s), but the guest stalled: %d "
                     "timer expiries ran 0.5 s late or more; not counted" %
                     (text, "; ".join(moved), stall))
            else:
                result(not moved, text + (": " + "; ".join(moved)
                                          if moved else ""))
    received = sum(sum(v for r, v in w.items() if r != "not_received")
                   for w in expect["nodes"].values())
    accepted = expect["total"].get("accepted", 0)
    result(total_seen == total_want == received - accepted,
           "%sdrops counted to the frame: %d frames sent, %d receptions, "
           "%d drops counted, %d predicted" % (
               label, sent, received, total_seen, total_want))
    if not accepted_ok:
        result(accepted == 0, "%sno frame predicted accepted (%d)" % (
            label, accepted))


def settle(expect_s, timeout, stable, nodes, result):
    """Every node (@nodes [(ns, id)]) follows, in every group of @expect_s
    ("G:LEADER,..."), LEADER at one term, for @stable s, within @timeout
    s: one verdict to @result(ok, text); True if so."""
    expect = {}
    for item in expect_s.split(","):
        g, _, leader = item.partition(":")
        expect[int(g)] = int(leader)
    t0 = time.monotonic()
    since = None
    views = {}
    with ThreadPoolExecutor(max_workers=len(nodes)) as ex:
        while True:
            now = time.monotonic()
            try:
                res = list(ex.map(lambda n: dump(n[0], "show"), nodes))
            except (RuntimeError, subprocess.TimeoutExpired,
                    ValueError) as e:
                res = None
                views = {"error": str(e)}
            good = res is not None
            if res is not None:
                views = {}
                for (_, nid), insts in zip(nodes, res):
                    for i in insts:
                        views.setdefault(i["group"], {})[str(nid)] = (
                            i["leader"], i["term"])
                for g, leader in expect.items():
                    v = views.get(g, {})
                    if len(v) != len(nodes) or \
                            any(x[0] != leader for x in v.values()) or \
                            len(set(x[1] for x in v.values())) != 1:
                        good = False
            if good:
                since = since if since is not None else now
                if now - since >= stable:
                    result(True, "groups %s: every node follows its leader "
                           "(%s) at one term after %.1f s, held %.1f s" % (
                               ",".join(map(str, sorted(expect))),
                               expect_s, since - t0, now - since))
                    return True
            else:
                since = None
            if now - t0 > timeout:
                result(False, "groups %s did not settle within %.0f s: %s"
                       % (expect_s, timeout, {
                           g: views.get(g) for g in sorted(expect)}))
                return False
            time.sleep(0.2)


def softnet_dropped():
    """Frames the kernel dropped before any handler (per-CPU backlog
    full), summed over CPUs."""
    with open("/proc/net/softnet_stat") as f:
        return sum(int(line.split()[1], 16) for line in f if line.strip())


class Injector:
    """The injecting scenarios' helpers on Scenario @s; the nodes are s.nodes (the
    injecting host left out of them)."""

    def __init__(self, s):
        self.s = s
        self.reports = []
        self.report = None
        self.snaps = {}
        self.mons = {}
        self.logs = {}
        self.tmp = None

    def need(self):
        """elec-inject is built."""
        if not os.access(INJ, os.X_OK):
            return self.s.fail("%s is not built (make)" % INJ)
        return True

    def nodes(self):
        return self.s.nodes_of()

    @staticmethod
    def nodes_spec(ids):
        """"3@02:e1:00:00:00:03,17@..." for elec-inject's nodes."""
        from electest import topo
        return ",".join("%d@%s" % (i, topo.mac(i)) for i in ids)

    def path(self, name):
        """@name in the injector's temporary directory (made once)."""
        if self.tmp is None:
            self.tmp = tempfile.mkdtemp()
        return os.path.join(self.tmp, name)

    def run(self, nid, *args, show=True):
        """elec-inject -j ARGS in node @nid's namespace: its text summary
        printed (unless not @show), its report (parsed) returned and kept
        for check(); None (a FAIL) if it failed."""
        args = [str(a) for a in args]
        r = run(["ip", "netns", "exec", "en%d" % nid, INJ, "-j"] + args,
                timeout=3600)
        # the JSON report on stdout, its text on stderr
        if show:
            sys.stdout.write(indent(r.err))
        if r.rc != 0:
            self.s.fail("elec-inject %s (exit %d)" % (" ".join(args), r.rc))
            return None
        try:
            self.report = json.loads(r.out)
        except ValueError:
            self.s.fail("elec-inject %s: no JSON report" % " ".join(args))
            return None
        self.reports.append(self.report)
        return self.report

    def snap(self, name):
        """Every node's state and counters, kept as @name."""
        try:
            self.snaps[name] = snap(self.nodes())
        except (RuntimeError, subprocess.TimeoutExpired, ValueError) as e:
            print(e)
            return self.s.fail("snapshot %s" % name)
        return True

    def _result(self, ok, text):
        if ok:
            self.s.pass_(text)
        else:
            self.s.fail(text)

    def check(self, label, a, b, accepted_ok=False):
        """drops.py check of snapshots @a, @b against the reports of the
        commands run since the last check (take @a first); True without a
        failure."""
        if not self.reports:
            return self.s.fail("%s: no elec-inject report to check" % label)
        reports, self.reports = self.reports, []
        failed = self.s.failed
        try:
            check(self.snaps[a], self.snaps[b], reports, label, accepted_ok,
                  self._result)
        except (KeyError, ValueError) as e:
            return self.s.fail("%s: check: %s" % (label, e))
        return self.s.failed == failed

    def expect_total(self, reason):
        """The last report's predicted count of @reason (0 if none)."""
        return ((self.report or {}).get("expect") or {}).get(
            "total", {}).get(reason, 0)

    def checked(self, name, fn):
        """A checked section: snapshot, @fn(), snapshot, check."""
        self.s.log("--- %s" % name)
        if not self.snap("before-" + name):
            return False
        fn()
        if not self.snap("after-" + name):
            return False
        return self.check(name, "before-" + name, "after-" + name)

    def settle(self, expect_s, stable=1):
        """Every node follows LEADER in each group of @expect_s
        ("G:LEADER,...") at one term, for @stable s, within ELEC_BOUND."""
        return settle(expect_s, self.s.bound, stable, self.nodes(),
                      self._result)

    def klog_clean(self, label):
        """No Oops, BUG or WARNING in dmesg."""
        bad = [line for line in run(["dmesg"]).out.splitlines()
               if re.search("Oops|BUG:|WARNING:|general protection|"
                            "Call Trace", line)][:5]
        if not bad:
            return self.s.pass_("%s: no Oops, BUG or WARNING in the kernel "
                                "log" % label)
        return self.s.fail("%s: the kernel log has: %s" % (label,
                                                          "\n".join(bad)))

    # ------------------------------------------------------- monitors ---
    def monitor_start(self, tmp):
        """electionctl -ts monitor on every node, into
        @tmp/monitor-ID.log."""
        self.tmp = tmp
        for nid in self.s.nodes:
            path = os.path.join(tmp, "monitor-%d.log" % nid)
            self.logs[nid] = path
            with open(path, "w") as f:
                self.mons[nid] = subprocess.Popen(
                    [self.s.ctl_path, "-n", "en%d" % nid, "-ts", "monitor"],
                    stdout=f, stderr=subprocess.STDOUT)
        time.sleep(sec(0.5))

    def monitor_stop(self):
        for p in self.mons.values():
            p.terminate()
        for p in self.mons.values():
            p.wait()
        self.mons = {}

    def _lines(self, nid):
        try:
            with open(self.logs[nid]) as f:
                return f.read().splitlines()
        except OSError:
            return []

    def monitor_mark(self):
        """The logs' line counts now."""
        return {nid: len(self._lines(nid)) for nid in self.logs}

    def monitor_since(self, mark):
        """Print the events logged since @mark (20 a node at most)."""
        for nid, n in mark.items():
            for line in self._lines(nid)[n:n + 20]:
                print("      node %d: %s" % (nid, line))

    # -------------------------------------------------------- batches ---
    def _batches(self, name, texts):
        def one(nid):
            path = os.path.join(self.tmp, "%s-%d.batch" % (name, nid))
            with open(path, "w") as f:
                f.write(texts[nid])
            return self.s.ctl(nid, "-batch", path)
        res = self.s._parallel(one, self.s.nodes)
        out = "\n".join(r.text for r in res if r.text)
        return all(r.rc == 0 for r in res), out

    def batch_setup(self, tmp, *specs):
        """On every node, in one electionctl batch each (nodes in
        parallel): group add G (the scenario's timing, OPTS with '+' for
        blanks: quorum+on) with every other node as a peer, for each
        "G:ALGO[:OPTS]" of @specs; batch files under @tmp."""
        from electest import topo
        self.tmp = tmp
        texts = {}
        for nid in self.s.nodes:
            lines = []
            for spec in specs:
                g, algo, opts = (spec.split(":", 2) + ["", ""])[:3]
                lines.append("group add dev eth0 group %s id %d algo %s %s %s"
                             % (g, nid, algo, opts.replace("+", " "),
                                self.s.timing))
                lines += ["peer add dev eth0 group %s id %d lladdr %s" % (
                    g, p, topo.mac(p)) for p in self.s.nodes if p != nid]
            texts[nid] = "".join(line + "\n" for line in lines)
        what = ", ".join(spec.rstrip(":").replace("+", " ") for spec in specs)
        ok, out = self._batches("setup", texts)
        return self.s.check("groups %s configured on %s (one batch a node)"
                            % (what, " ".join(map(str, self.s.nodes))), ok,
                            out)

    def batch_start(self, *groups):
        """group start of @groups, one batch a node."""
        text = "".join("group start dev eth0 group %s\n" % g for g in groups)
        ok, out = self._batches("start", {nid: text for nid in self.s.nodes})
        return self.s.check("groups %s started on %s" % (
            " ".join(map(str, groups)), " ".join(map(str, self.s.nodes))),
            ok, out)
