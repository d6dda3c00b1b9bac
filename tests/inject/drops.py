#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Drop counters against elec-inject's predictions (VM scenarios 94, 95).

  drops.py settle G:LEADER,... TIMEOUT STABLE NS:ID...
      polls every node (electionctl -j show, all nodes at once) until, in
      every group listed, every node follows LEADER at one term, and that
      holds for STABLE seconds; fails after TIMEOUT seconds
  drops.py snap OUT NS:ID...
      every instance's state (electionctl -j show) and counters (-j stats)
      on eth0 of each node's namespace, into OUT (JSON)
  drops.py check BEFORE AFTER REPORT... [--label TEXT] [--accepted-ok]
      compares the counters' change between two snapshots with the
      predictions of elec-inject -j reports (their "expect" objects,
      summed: the reports of every command run between the snapshots):

      - a frame that no instance can own (malformed, wrong_group,
        auth_truncated) is counted once per device and reported by every
        instance of the device
        (Documentation/protocol.rst, "Receive checks"): every instance of a
        node must show the same change, taken once;
      - every other reason is counted by one instance: summed over them;
      - per node and reason (every reason such a frame can reach, and every
        reason predicted), the change must equal the prediction, and the
        sum over nodes and reasons must equal the frames the nodes received
        ("drops counted to the frame");
      - every instance keeps its role, leader and term, begins no election,
        changes leader none, and drops nothing for another reason (the
        groups' own frames): the frames disturbed nothing (unless
        --accepted-ok: the report predicts accepted frames). When the
        guest stalled meanwhile (timer expiries 0.5 s late or more: a TCG
        guest on a busy host; the frames are dropped in softirq and
        cannot delay the module's timers that long), a change here is
        printed as a NOTE and not counted.

Prints PASS:/FAIL: lines and "drops.py: N passed, M failed"; exits 1 on a
failure, 2 on a usage error.
"""

import json
import os
import subprocess
import sys

DEVICE_LEVEL = ("malformed", "wrong_group", "auth_truncated")
# the reasons a frame from a MAC that is no peer's can reach: the device's,
# and the receive checks up to wrong_lladdr (protocol.rst)
INJECTABLE = {"malformed", "wrong_group", "auth_truncated", "auth_bad",
              "stopped", "wrong_algo", "wrong_dst", "unknown_peer",
              "wrong_lladdr"}
# timer_late buckets of expiries at least 2^19 us (0.52 s) late: the guest
# stalled (a TCG guest on a busy host)
STALL_BUCKETS = (20, 21)
PASSES = 0
FAILS = 0


def ctl():
    repo = os.environ.get("ELECTION_REPO") or os.getcwd()
    return os.path.join(repo, "userspace", "electionctl")


def result(ok, text):
    global PASSES, FAILS
    if ok:
        PASSES += 1
        print("PASS: " + text)
    else:
        FAILS += 1
        print("FAIL: " + text)


def dump(ns, what):
    p = subprocess.run(["ip", "netns", "exec", ns, ctl(), "-j", what,
                        "dev", "eth0"], capture_output=True, text=True,
                       timeout=60)
    if p.returncode != 0:
        raise RuntimeError("%s: electionctl %s: exit %d: %s" % (
            ns, what, p.returncode, p.stderr.strip()))
    return json.loads(p.stdout)


def node_specs(nodes):
    specs = []
    for spec in nodes:
        ns, _, nid = spec.partition(":")
        if not nid:
            raise SystemExit("drops.py: node '%s': NS:ID expected" % spec)
        specs.append((ns, nid))
    return specs


def cmd_settle(expect_s, timeout, stable, nodes):
    import time
    from concurrent.futures import ThreadPoolExecutor

    expect = {}
    for item in expect_s.split(","):
        g, _, leader = item.partition(":")
        expect[int(g)] = int(leader)
    specs = node_specs(nodes)
    t0 = time.monotonic()
    since = None
    views = {}
    with ThreadPoolExecutor(max_workers=len(specs)) as ex:
        while True:
            now = time.monotonic()
            try:
                res = list(ex.map(lambda s: dump(s[0], "show"), specs))
            except (RuntimeError, subprocess.TimeoutExpired,
                    ValueError) as e:
                res = None
                views = {"error": str(e)}
            good = res is not None
            if res is not None:
                views = {}
                for (_, nid), insts in zip(specs, res):
                    for i in insts:
                        views.setdefault(i["group"], {})[nid] = (
                            i["leader"], i["term"])
                for g, leader in expect.items():
                    v = views.get(g, {})
                    if len(v) != len(specs) or \
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
                    return 0
            else:
                since = None
            if now - t0 > timeout:
                result(False, "groups %s did not settle within %.0f s: %s"
                       % (expect_s, timeout, {
                           g: views.get(g) for g in sorted(expect)}))
                return 1
            time.sleep(0.2)


def cmd_snap(out, nodes):
    """The nodes' dumps, taken in parallel (electionctl is slow under TCG)."""
    from concurrent.futures import ThreadPoolExecutor

    specs = node_specs(nodes)
    with ThreadPoolExecutor(max_workers=2 * len(specs)) as ex:
        futs = {(nid, what): ex.submit(dump, ns, what)
                for ns, nid in specs for what in ("show", "stats")}
        snap = {nid: {"show": futs[(nid, "show")].result(),
                      "stats": futs[(nid, "stats")].result()}
                for _, nid in specs}
    with open(out, "w") as f:
        json.dump(snap, f)
    return 0


def by_group(items):
    return {i["group"]: i for i in items}


def merge_reports(paths):
    """The reports' frames sent and predictions, summed."""
    sent = 0
    expect = {"total": {}, "nodes": {}}
    for path in paths:
        with open(path) as f:
            report = json.load(f)
        if not report.get("expect"):
            raise SystemExit("drops.py: %s has no prediction (elec-inject "
                             "-j with nodes and groups)" % path)
        sent += report["sent"]
        for r, v in report["expect"]["total"].items():
            expect["total"][r] = expect["total"].get(r, 0) + v
        for nid, counts in report["expect"]["nodes"].items():
            mine = expect["nodes"].setdefault(nid, {})
            for r, v in counts.items():
                mine[r] = mine.get(r, 0) + v
    return sent, expect


def cmd_check(before_f, after_f, report_fs, label, accepted_ok):
    with open(before_f) as f:
        before = json.load(f)
    with open(after_f) as f:
        after = json.load(f)
    sent, expect = merge_reports(report_fs)
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
                print("NOTE: %s: not so (%s), but the guest stalled: %d "
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
    return 0


def main(argv):
    if len(argv) >= 3 and argv[1] == "snap":
        rc = cmd_snap(argv[2], argv[3:])
    elif len(argv) >= 6 and argv[1] == "settle":
        rc = cmd_settle(argv[2], float(argv[3]), float(argv[4]), argv[5:])
        return rc
    elif len(argv) >= 5 and argv[1] == "check":
        label, accepted_ok, reports, rest = "", False, [], argv[4:]
        while rest:
            if rest[0] == "--label" and len(rest) > 1:
                label, rest = rest[1], rest[2:]
            elif rest[0] == "--accepted-ok":
                accepted_ok, rest = True, rest[1:]
            elif rest[0].startswith("--"):
                print("drops.py: unknown option %r" % rest[0],
                      file=sys.stderr)
                return 2
            else:
                reports, rest = reports + [rest[0]], rest[1:]
        if not reports:
            print(__doc__, file=sys.stderr)
            return 2
        rc = cmd_check(argv[2], argv[3], reports, label, accepted_ok)
    else:
        print(__doc__, file=sys.stderr)
        return 2
    if argv[1] == "check":
        print("drops.py: %d passed, %d failed" % (PASSES, FAILS))
        return 1 if FAILS else rc
    return rc


if __name__ == "__main__":
    sys.exit(main(sys.argv))
