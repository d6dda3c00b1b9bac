#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Drop counters against elec-inject's predictions (VM scenarios 94, 95).

  drops.py snap OUT NS:ID...
      every instance's state (electionctl -j show) and counters (-j stats)
      on eth0 of each node's namespace, into OUT (JSON)
  drops.py check BEFORE AFTER REPORT... [--label TEXT] [--accepted-ok]
      compares the counters' change between two snapshots with the
      predictions of elec-inject -j reports (their "expect" objects,
      summed: the reports of every command run between the snapshots):

      - a frame that no instance can own (malformed, wrong_group) is counted
        once per device and reported by every instance of the device
        (Documentation/protocol.rst, "Receive checks"): every instance of a
        node must show the same change, taken once;
      - every other reason is counted by one instance: summed over them;
      - per node and reason, the change must equal the prediction, and the
        sum over nodes and reasons must equal the frames the nodes received
        ("drops counted to the frame");
      - every instance keeps its role, leader and term, and begins no
        election and changes leader none: the frames disturbed nothing
        (unless --accepted-ok: the report predicts accepted frames).

Prints PASS:/FAIL: lines and "drops.py: N passed, M failed"; exits 1 on a
failure, 2 on a usage error.
"""

import json
import os
import subprocess
import sys

DEVICE_LEVEL = ("malformed", "wrong_group")
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


def cmd_snap(out, nodes):
    """The nodes' dumps, taken in parallel (electionctl is slow under TCG)."""
    from concurrent.futures import ThreadPoolExecutor

    specs = []
    for spec in nodes:
        ns, _, nid = spec.partition(":")
        if not nid:
            raise SystemExit("drops.py: node '%s': NS:ID expected" % spec)
        specs.append((ns, nid))
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
        diff = {r: (seen.get(r, 0), want_drops.get(r, 0))
                for r in set(seen) | set(want_drops)
                if seen.get(r, 0) != want_drops.get(r, 0)}
        nonzero = ", ".join("%s %d" % (r, v) for r, v in sorted(seen.items())
                            if v)
        result(not diff, "%snode %s: drop changes %s %s" % (
            label, nid, "{" + nonzero + "}",
            "as predicted" if not diff else
            "differ (seen, predicted): %s" % diff))
        total_seen += sum(seen.values())
        total_want += sum(want_drops.values())
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
            result(not moved, "%snode %s: roles, leaders, terms unchanged, "
                   "no election, no leader change in %d groups%s" % (
                       label, nid, len(sa),
                       "" if not moved else ": " + "; ".join(moved)))
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
