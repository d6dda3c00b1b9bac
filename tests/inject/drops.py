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

The comparisons are tests/lib/electest/inject.py's (the Python scenarios
call them in process); this is their command line.

Prints PASS:/FAIL: lines and "drops.py: N passed, M failed"; exits 1 on a
failure, 2 on a usage error.
"""

import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(
    os.path.dirname(os.path.abspath(__file__)))), "tests", "lib"))
from electest import inject  # noqa: E402

PASSES = 0
FAILS = 0


def result(ok, text):
    global PASSES, FAILS
    if ok:
        PASSES += 1
        print("PASS: " + text)
    else:
        FAILS += 1
        print("FAIL: " + text)


def node_specs(nodes):
    specs = []
    for spec in nodes:
        ns, _, nid = spec.partition(":")
        if not nid:
            raise SystemExit("drops.py: node '%s': NS:ID expected" % spec)
        specs.append((ns, nid))
    return specs


def cmd_settle(expect_s, timeout, stable, nodes):
    return 0 if inject.settle(expect_s, timeout, stable, node_specs(nodes),
                              result) else 1


def cmd_snap(out, nodes):
    """The nodes' dumps, taken in parallel (electionctl is slow under TCG)."""
    snap = inject.snap(node_specs(nodes))
    with open(out, "w") as f:
        json.dump(snap, f)
    return 0


def load_reports(paths):
    reports = []
    for path in paths:
        with open(path) as f:
            report = json.load(f)
        if not report.get("expect"):
            raise SystemExit("drops.py: %s has no prediction (elec-inject "
                             "-j with nodes and groups)" % path)
        reports.append(report)
    return reports


def merge_reports(paths):
    """The reports' frames sent and predictions, summed."""
    return inject.merge_reports(load_reports(paths))


def cmd_check(before_f, after_f, report_fs, label, accepted_ok):
    with open(before_f) as f:
        before = json.load(f)
    with open(after_f) as f:
        after = json.load(f)
    inject.check(before, after, load_reports(report_fs), label, accepted_ok,
                 result)
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
