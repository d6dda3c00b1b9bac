#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""tests/vm/multi/run.py (make vmtest-multi): several machines on one L2
segment. MULTI_NODES (default 3) QEMU guests, each booting its own kernel
(tests/vm/run, its own clock, softirqs and timers) with election.ko
insmod'ed, joined by tap devices on a bridge in a network namespace this
test creates on the host (elecmulti-PID); the bridge also has 10.99.0.254,
where clockd.py answers with the host's clock. Each guest runs node.py,
which this script drives through a control file (CTL/phase) and whose
results it reads back from the guest's results directory.

Group 1 runs bully, group 2 the ring (Chang and Roberts), on every guest
at once, with the one-kernel benchmark's timer ratios (make bench-failover:
hb-interval MULTI_HB, default 100ms, hb-miss 3, timeout 2 x HB,
coord-timeout 4 x timeout; 10ms, the benchmark's, is not stable with
three TCG guests on two host cores: spurious elections never stop). Checks, each a PASS or FAIL line:

  first election  every guest agrees on the highest id in both groups
  textbook        `group elect` on the lowest id (bully: Garcia-Molina's
                  worst case; ring: the highest id's successor), one
                  algorithm at a time: the tx counters of all guests,
                  summed, equal electsim's for the same ids, initiator and
                  timers (up to 3 attempts: a guest stalled by the host
                  can miss heartbeats and start a spurious election)
  cut             MULTI_CUTS times (default 10): the leader's tap goes
                  down on the host bridge (its carrier stays up: a silent
                  isolation, the benchmark's kind b); the others agree on
                  the next id in both groups; the tap comes back up and
                  the group agrees on the old leader again (return)
  kill            the leader's QEMU is killed outright (SIGKILL); the
                  survivors agree on the next id in both groups

Failover is measured without a shared clock: the host stamps each cut
and kill with its CLOCK_REALTIME; each guest measures its CLOCK_MONOTONIC's
offset to the host's at the start and the end (the UDP exchange with the
shortest round trip; the error is half of it, printed) and records its
module's events (elec.py watch); failover = cut -> the last leader_changed
naming the new leader among the survivors, in host time. The figures
(p50, p90, per kind and algorithm) are printed next to the one-kernel
ones of the same configuration (MULTI_ONE_KERNEL, see below) and written to
build/vmtest-multi/result.json. Exit 1 on a FAIL.
"""

import json
import os
import shutil
import signal
import subprocess
import sys
import time

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))))
HERE = os.path.join(REPO, "tests", "vm", "multi")
sys.path.insert(0, os.path.join(REPO, "tests", "lib"))
from electest.events import pct  # noqa: E402
OUT = os.environ.get("MULTI_OUT") or os.path.join(REPO, "build", "vmtest-multi")
N = int(os.environ.get("MULTI_NODES", "3"))
CUTS = int(os.environ.get("MULTI_CUTS", "10"))
HB = os.environ.get("MULTI_HB", "100ms")
BOOT_TIMEOUT = float(os.environ.get("MULTI_BOOT_TIMEOUT", "180"))
NS = "elecmulti-%d" % os.getpid()
IDS = list(range(1, N + 1))
GROUPS = {"1": "bully", "2": "ring"}
# the one-kernel figures for the same configuration: MULTI_ONE_KERNEL, a
# file of lines "KIND ALGO p50 p90" (ms), e.g. from make bench-failover
# with BENCH_CONFIGS=3:100000:quiet BENCH_SYSTEMS=bully,ring
ONE_KERNEL = {}
if os.environ.get("MULTI_ONE_KERNEL"):
    with open(os.environ["MULTI_ONE_KERNEL"]) as _f:
        for _ln in _f:
            _w = _ln.split()
            if len(_w) == 4 and not _ln.startswith("#"):
                ONE_KERNEL[(_w[0], _w[1])] = (float(_w[2]), float(_w[3]))

passed = failed = 0
checks = []


def ok(msg):
    global passed
    passed += 1
    checks.append("PASS: " + msg)
    print("PASS: " + msg, flush=True)


def ko(msg):
    global failed
    failed += 1
    checks.append("FAIL: " + msg)
    print("FAIL: " + msg, flush=True)


def sh(*cmd, check=True):
    p = subprocess.run(list(cmd), capture_output=True, text=True)
    if check and p.returncode:
        raise RuntimeError("%s: exit %d: %s" % (" ".join(cmd), p.returncode, p.stderr.strip()))
    return p.stdout


def dur_ns(d):
    for unit, m in (("ms", 10**6), ("us", 10**3), ("ns", 1), ("s", 10**9)):
        if d.endswith(unit):
            return int(float(d[:-len(unit)]) * m)
    return int(float(d) * 10**9)


def mac(i):
    return "02:e1:%02x:%02x:%02x:%02x" % (i >> 24 & 255, i >> 16 & 255, i >> 8 & 255, i & 255)


class Nodes:
    def __init__(self):
        self.ctl = os.path.join(OUT, "ctl")
        self.phase = 0
        self.procs = {}
        self.alive = set(IDS)

    def res(self, nid):
        return os.path.join(OUT, "node%d" % nid)

    def boot(self):
        for nid in IDS:
            os.makedirs(self.res(nid), exist_ok=True)
            env = dict(os.environ, VM_NIC_TAP="tap%d" % nid, VM_NIC_MAC=mac(nid),
                       VM_PIDFILE=os.path.join(OUT, "qemu%d.pid" % nid),
                       RESULTS_DIR=self.res(nid), VM_SMP=os.environ.get("MULTI_SMP", "1"),
                       VM_MEM=os.environ.get("MULTI_MEM", "768"), VM_QUIET="1",
                       VM_TIMEOUT=os.environ.get("MULTI_VM_TIMEOUT", "1500"))
            log = open(os.path.join(OUT, "node%d.log" % nid), "w")
            self.procs[nid] = subprocess.Popen(
                ["ip", "netns", "exec", NS, os.path.join(REPO, "tests", "vm", "run"),
                 os.path.join(HERE, "node.py"), str(nid), ",".join(map(str, IDS)), self.ctl],
                stdout=log, stderr=subprocess.STDOUT, env=env)
        end = time.monotonic() + BOOT_TIMEOUT
        while time.monotonic() < end:
            if all(os.path.exists(os.path.join(self.res(n), "ready")) for n in IDS):
                return True
            if any(p.poll() is not None for p in self.procs.values()):
                break
            time.sleep(0.2)
        return False

    def do(self, verb, *args, nodes=None, timeout=60):
        """Run a phase on the live nodes; returns {id: ack}."""
        self.phase += 1
        n = self.phase
        tmp = os.path.join(self.ctl, ".phase")
        only = "@" + ",".join(map(str, sorted(nodes))) if nodes is not None else ""
        with open(tmp, "w") as f:
            f.write("%d %s %s %s\n" % (n, verb, only, " ".join(args)))
        os.rename(tmp, os.path.join(self.ctl, "phase"))
        want = set(nodes if nodes is not None else self.alive)
        acks = {}
        end = time.monotonic() + timeout
        while want - set(acks) and time.monotonic() < end:
            for nid in want - set(acks):
                p = os.path.join(self.res(nid), "ack-%d" % n)
                if os.path.exists(p):
                    with open(p) as f:
                        acks[nid] = json.load(f)
            time.sleep(0.02)
        for nid in want - set(acks):
            acks[nid] = {"error": "no ack within %ds" % timeout}
        return n, acks

    def report(self):
        n, acks = self.do("report")
        out = {}
        for nid in acks:
            try:
                with open(os.path.join(self.res(nid), "report-%d.json" % n)) as f:
                    out[nid] = json.load(f)
            except OSError:
                pass
        return out


def agreed(rep, nodes, group, leader):
    for nid in nodes:
        v = rep.get(nid, {}).get("groups", {}).get(group, {}).get("show")
        if not v or v.get("leader") != leader:
            return False
        if v.get("role") != ("leader" if nid == leader else "follower"):
            return False
    return True


def wait_agree(nodes, leader, groups=GROUPS, timeout=30):
    end = time.monotonic() + timeout
    rep = {}
    while time.monotonic() < end:
        rep = nodes.report()
        if all(agreed(rep, nodes.alive, g, leader) for g in groups):
            return True, rep
        time.sleep(0.2)
    return False, rep


def views(rep, group):
    return " ".join("%d:%s/%s" % (nid, (rep.get(nid, {}).get("groups", {}).get(group, {}).get("show") or {}).get("role"),
                                  (rep.get(nid, {}).get("groups", {}).get(group, {}).get("show") or {}).get("leader"))
                    for nid in sorted(rep))


def textbook(nodes, timing):
    """Per algorithm, one at a time: `group elect` on the lowest id in the
    settled group; the tx counters summed over every guest from before it
    to quiescence against electsim --scenario elect with the same ids,
    initiator and timers. A run disturbed by a spurious election (a
    stalled guest missing heartbeats) counts more: up to 3 attempts."""
    types = {"bully": ("election", "answer", "coordinator"),
             "ring": ("election", "coordinator", "ack")}
    initiator = min(IDS)
    simargs = []
    for k, v in zip(timing[::2], timing[1::2]):
        simargs += ["--" + k, v]
    for g, algo in GROUPS.items():
        sim = json.loads(sh(os.path.join(REPO, "userspace", "sim", "electsim"),
                            "--algo", algo, "--nodes", str(N), "--ids",
                            ",".join(map(str, IDS)), "--scenario", "elect",
                            "--initiator", str(initiator), "--json",
                            *simargs).splitlines()[0])["by_type"]
        want = {t: sim[t] for t in types[algo]}
        seen = []
        for attempt in range(3):
            time.sleep(1.0)
            before = nodes.report()
            nodes.do("elect", g, nodes=[initiator])
            wait_agree(nodes, max(IDS), groups=[g])
            time.sleep(1.5)
            after = nodes.report()
            tot = {t: 0 for t in types[algo]}
            for nid in IDS:
                a = after[nid]["groups"][g]["stats"]["tx"]
                b = before[nid]["groups"][g]["stats"]["tx"]
                for t in tot:
                    tot[t] += a.get(t, 0) - b.get(t, 0)
            seen.append(tot)
            if tot == want:
                break
        if seen[-1] == want:
            ok("textbook %s: elect on %d: tx summed over the %d guests %s = electsim's%s" % (
                algo, initiator, N, want,
                " (attempt %d; before: %s)" % (len(seen), seen[:-1]) if len(seen) > 1 else ""))
        else:
            # a live guest that another counts as down is skipped by it
            # (the ring's retry to the next successor): fewer frames
            dead = ["guest %d counts %d as down" % (nid, p["id"])
                    for nid in IDS for p in ((after.get(nid, {}).get("groups", {}).get(g, {})
                                              .get("show") or {}).get("peers") or [])
                    if not p.get("alive") and p["id"] in nodes.alive]
            ko("textbook %s: elect on %d: tx summed %s in 3 attempts, electsim %s%s" % (
                algo, initiator, seen, want, " (%s)" % ", ".join(dead) if dead else ""))


def watch_events(nodes, nid, group, kinds=("leader_changed",)):
    """(ts, leader) of the node's events of these kinds in the group."""
    p = os.path.join(nodes.res(nid), "watch-%s.jsonl" % group)
    evs = []
    try:
        with open(p) as f:
            for ln in f:
                try:
                    r = json.loads(ln)
                except ValueError:
                    continue
                if r.get("k") == "e" and r.get("ev") in kinds:
                    evs.append((r["ts"], r.get("leader")))
    except OSError:
        pass
    return evs


def failover_ms(nodes, offsets, survivors, group, new, t0, t1):
    """cut (host ns t0) -> the last leader_changed naming @new among the
    survivors before t1 (host ns), in ms; None if a survivor has none."""
    last = []
    for nid in survivors:
        off = offsets.get(nid)
        if off is None:
            return None
        hs = [ts + off for ts, leader in watch_events(nodes, nid, group)
              if leader == new and t0 <= ts + off <= t1]
        if not hs:
            return None
        last.append(max(hs))
    return (max(last) - t0) / 1e6


def detect_ms(nodes, offsets, survivors, group, t0, t1):
    """cut (host ns t0) -> the first sign on a survivor that it noticed:
    election_started, peer_down or a leader_changed (in host time), in ms;
    the benchmark's detection."""
    first = []
    for nid in survivors:
        off = offsets.get(nid)
        if off is None:
            continue
        first += [ts + off for ts, _ in watch_events(
            nodes, nid, group, ("election_started", "peer_down", "leader_changed"))
            if t0 <= ts + off <= t1]
    return (min(first) - t0) / 1e6 if first else None


def main():
    shutil.rmtree(OUT, ignore_errors=True)
    os.makedirs(os.path.join(OUT, "ctl"))
    hb = dur_ns(HB)
    timing = ["hb-interval", HB, "hb-miss", "3", "timeout", "%dus" % (2 * hb // 1000),
              "coord-timeout", "%dus" % (8 * hb // 1000)]
    with open(os.path.join(OUT, "ctl", "timing"), "w") as f:
        f.write(" ".join(timing) + "\n")
    # the segment: a bridge and a tap per guest in a namespace of ours
    sh("ip", "netns", "add", NS)
    clockd = None
    nodes = Nodes()
    result = {"nodes": N, "hb": HB, "timing": timing, "failover_ms": {}, "detect_ms": {},
              "clock": {}, "vm_kernel": os.environ.get("VM_KERNEL") or "stock",
              "start": time.strftime("%Y-%m-%d %H:%M", time.gmtime())}
    try:
        sh("ip", "-n", NS, "link", "set", "lo", "up")
        sh("ip", "-n", NS, "link", "add", "br0", "type", "bridge")
        for nid in IDS:
            sh("ip", "-n", NS, "tuntap", "add", "dev", "tap%d" % nid, "mode", "tap")
            sh("ip", "-n", NS, "link", "set", "tap%d" % nid, "master", "br0", "up")
        sh("ip", "-n", NS, "addr", "add", "10.99.0.254/24", "dev", "br0")
        sh("ip", "-n", NS, "link", "set", "br0", "up")
        clockd = subprocess.Popen(["ip", "netns", "exec", NS, "python3",
                                   os.path.join(HERE, "clockd.py"), "12399"])
        t = time.monotonic()
        if not nodes.boot():
            ko("boot: not every guest came up within %.0fs (logs: %s/node*.log)" % (BOOT_TIMEOUT, OUT))
            return 1
        ok("boot: %d guests up in %.1fs, each its own kernel, on bridge br0 of %s" % (
            N, time.monotonic() - t, NS))
        nodes.do("clock")
        offsets = {}
        for nid in IDS:
            with open(os.path.join(nodes.res(nid), "clock-%d.json" % nodes.phase)) as f:
                c = json.load(f)
            result["clock"][nid] = {"start": c}
            if "offset_ns" in c:
                offsets[nid] = c["offset_ns"]
        errs = ["%d: %+.3f s +- %.2f ms" % (n, offsets[n] / 1e9, result["clock"][n]["start"]["error_ns"] / 1e6)
                for n in sorted(offsets)]
        if len(offsets) == N:
            ok("clock: each guest's offset to the host clock (host = mono + offset): %s" % ", ".join(errs))
        else:
            ko("clock: no offset from some guests: %s" % result["clock"])
        for g, algo in GROUPS.items():
            _, acks = nodes.do("config", g, algo, *timing)
            bad = {n: a["error"] for n, a in acks.items() if "error" in a}
            if bad:
                ko("config group %s (%s): %s" % (g, algo, bad))
            nodes.do("watch", g)
        for g in GROUPS:
            nodes.do("start", g)
        ok_, rep = wait_agree(nodes, max(IDS))
        if ok_:
            ok("first election: all %d guests agree on %d in bully and ring" % (N, max(IDS)))
        else:
            ko("first election: no agreement on %d: bully %s ring %s" % (
                max(IDS), views(rep, "1"), views(rep, "2")))
            return 1
        textbook(nodes, timing)

        leader, second = max(IDS), sorted(IDS)[-2]
        others = [n for n in IDS if n != leader]
        trials = []     # (kind, t0, t1, survivors, new leader): measured after "end"
        misses = 0
        for i in range(CUTS):
            time.sleep(0.3 + 0.1 * (i % 3))
            t0 = time.time_ns()
            sh("ip", "-n", NS, "link", "set", "tap%d" % leader, "down")
            nodes.alive = set(others)
            good, rep = wait_agree(nodes, second)
            t1 = time.time_ns()
            if good:
                trials.append(("cut", t0, t1, others, second))
            else:
                misses += 1
                print("    cut %d: no agreement on %d: bully %s ring %s" % (
                    i, second, views(rep, "1"), views(rep, "2")), flush=True)
            sh("ip", "-n", NS, "link", "set", "tap%d" % leader, "up")
            nodes.alive = set(IDS)
            back, rep = wait_agree(nodes, leader)
            if not back:
                ko("return %d: the group did not agree on %d again: bully %s ring %s" % (
                    i, leader, views(rep, "1"), views(rep, "2")))
                return 1
        if misses == 0:
            ok("cut: %d times the leader's tap down: the others agreed on %d, and on %d after it came back" % (
                CUTS, second, leader))
        else:
            ko("cut: %d of %d cuts without agreement on %d" % (misses, CUTS, second))

        with open(os.path.join(OUT, "qemu%d.pid" % leader)) as f:
            qpid = int(f.read().strip())
        time.sleep(0.5)
        t0 = time.time_ns()
        os.kill(qpid, signal.SIGKILL)
        nodes.alive = set(others)
        good, rep = wait_agree(nodes, second)
        t1 = time.time_ns()
        if good:
            ok("kill: the leader's QEMU killed outright: %s agree on %d in bully and ring" % (
                others, second))
            trials.append(("kill", t0, t1, others, second))
        else:
            ko("kill: no agreement on %d: bully %s ring %s" % (second, views(rep, "1"), views(rep, "2")))

        n, _ = nodes.do("clock")
        for nid in others:
            try:
                with open(os.path.join(nodes.res(nid), "clock-%d.json" % n)) as f:
                    c = json.load(f)
                result["clock"][nid]["end"] = c
                if "offset_ns" in c and nid in offsets:
                    result["clock"][nid]["drift_ns"] = c["offset_ns"] - offsets[nid]
            except OSError:
                pass
        nodes.do("end")
        # the watches are flushed now
        samples = {(k, a): [] for k in ("cut", "kill") for a in GROUPS.values()}
        for kind, t0, t1, surv, new in trials:
            for g, algo in GROUPS.items():
                f = failover_ms(nodes, offsets, surv, g, new, t0, t1)
                if f is not None:
                    samples[(kind, algo)].append(f)
                d = detect_ms(nodes, offsets, surv, g, t0, t1)
                if d is not None:
                    result["detect_ms"].setdefault("%s/%s" % (kind, algo), []).append(d)
        print("failover across machines (host-stamped cut -> last leader_changed to the "
              "new leader among the survivors, in host time):")
        for (kind, algo), xs in sorted(samples.items()):
            result["failover_ms"]["%s/%s" % (kind, algo)] = xs
            if xs:
                one = ONE_KERNEL.get((kind, algo))
                print("    %-5s %-6s n %2d  p50 %7.1f ms  p90 %7.1f ms  max %7.1f ms   one kernel: %s" % (
                    kind, algo, len(xs), pct(xs, 50), pct(xs, 90), max(xs),
                    "p50 %.1f ms p90 %.1f ms" % one if one else "-"))
            else:
                print("    %-5s %-6s no sample" % (kind, algo))
        print("clock error (half the best round trip) and drift over the run:")
        for nid in sorted(result["clock"]):
            c = result["clock"][nid]
            print("    guest %d: error %.2f ms, drift %s" % (
                nid, c["start"].get("error_ns", 0) / 1e6,
                "%.2f ms" % (c["drift_ns"] / 1e6) if "drift_ns" in c else "?"))
        if samples[("cut", "bully")] and samples[("cut", "ring")]:
            ok("failover measured across machines: %d cut samples per algorithm" % min(
                len(samples[("cut", "bully")]), len(samples[("cut", "ring")])))
        else:
            ko("failover: no cut sample for an algorithm")
    finally:
        result["checks"] = checks
        with open(os.path.join(OUT, "result.json"), "w") as f:
            json.dump(result, f, indent=1, default=str)
        for p in nodes.procs.values():
            if p.poll() is None:
                p.terminate()
        for p in nodes.procs.values():
            try:
                p.wait(timeout=60)
            except subprocess.TimeoutExpired:
                p.kill()
        if clockd:
            clockd.terminate()
        subprocess.run(["ip", "netns", "del", NS], capture_output=True)
        print("vmtest-multi: %d passed, %d failed" % (passed, failed), flush=True)
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
