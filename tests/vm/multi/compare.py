#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""tests/vm/multi/compare.py --one-kernel FAILOVER.CSV RESULT.JSON...

Pools the failover samples of several `make vmtest-multi` runs (their
result.json: tests/vm/multi/run.py) and prints them as markdown next to
the one-kernel figures of the same configuration (the failover.csv of
`make bench-failover` with BENCH_CONFIGS=3:HB_US:quiet
BENCH_SYSTEMS=bully,ring): a cut across machines (the leader's tap down on
the host bridge, its carrier up) and a killed guest against the one-kernel
benchmark's kind b (tc drop filters on the leader's bridge port: silent
isolation, the closest a single kernel has to a lost machine). p50 and p90
are nearest-rank, as in the benchmark's analysis. tests/vm/multi/bench
runs it (make bench-multi).
"""

import argparse
import csv
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "lib"))
from electest.events import pct  # noqa: E402


def f(x):
    return "-" if x is None else "%.1f" % x


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--one-kernel", help="failover.csv of the one-kernel run")
    ap.add_argument("results", nargs="+")
    a = ap.parse_args()
    runs = []
    for p in a.results:
        try:
            with open(p) as fh:
                runs.append(json.load(fh))
        except (OSError, ValueError) as e:
            print("compare: %s: %s (left out)" % (p, e), file=sys.stderr)
    if not runs:
        print("compare: no result.json", file=sys.stderr)
        return 1
    fo, de = {}, {}
    for r in runs:
        for k, xs in r.get("failover_ms", {}).items():
            fo.setdefault(k, []).extend(xs)
        for k, xs in r.get("detect_ms", {}).items():
            de.setdefault(k, []).extend(xs)
    one = {}
    if a.one_kernel:
        with open(a.one_kernel) as fh:
            for row in csv.DictReader(fh):
                if row["kind"] == "b" and row["variant"] == "quiet":
                    one[row["system"]] = row
    r0 = runs[0]
    timing = dict(zip(r0["timing"][::2], r0["timing"][1::2]))
    fails = sum(1 for r in runs for c in r.get("checks", []) if c.startswith("FAIL"))
    npass = sum(1 for r in runs for c in r.get("checks", []) if c.startswith("PASS"))
    print("Configuration: %d nodes (ids 1..%d), hb-interval %s, hb-miss %s, timeout %s, "
          "coord-timeout %s; guest kernel: %s. %d runs of `make vmtest-multi` (%s), "
          "their checks: %d passed, %d failed.\n" % (
              r0["nodes"], r0["nodes"], timing.get("hb-interval"), timing.get("hb-miss"),
              timing.get("timeout"), timing.get("coord-timeout"),
              ", ".join(sorted({r.get("vm_kernel", "stock") for r in runs})), len(runs),
              ", ".join(r.get("start", "?") for r in runs), npass, fails))
    print("| algorithm | fault | where | n | detection p50 | failover p50 | p90 | max |")
    print("|---|---|---|---|---|---|---|---|")
    for algo in ("bully", "ring"):
        for kind, what in (("cut", "leader's link cut"), ("kill", "leader's guest killed")):
            xs = fo.get("%s/%s" % (kind, algo), [])
            ds = de.get("%s/%s" % (kind, algo), [])
            print("| %s | %s | %d guests | %d | %s | %s | %s | %s |" % (
                algo, what, r0["nodes"], len(xs), f(pct(ds, 50)), f(pct(xs, 50)),
                f(pct(xs, 90)), f(max(xs) if xs else None)))
        o = one.get(algo)
        if o:
            print("| %s | silent isolation (kind b) | one kernel | %s | %s | %s | %s | %s |" % (
                algo, o["n"], f(float(o["detection_p50_ms"] or "nan")), f(float(o["p50_ms"])),
                f(float(o["p90_ms"])), f(float(o["max_ms"]))))
    print()
    print("Clock: each guest's CLOCK_MONOTONIC offset to the host's CLOCK_REALTIME, "
          "from the UDP exchange with the shortest round trip (error = half of it), "
          "at the start and at the end of each run:\n")
    print("| run | guest | error | drift over the run |")
    print("|---|---|---|---|")
    for i, r in enumerate(runs, 1):
        for nid, c in sorted(r.get("clock", {}).items(), key=lambda kv: int(kv[0])):
            print("| %d | %s | %.2f ms | %s |" % (
                i, nid, c.get("start", {}).get("error_ns", 0) / 1e6,
                "%.3f ms" % (c["drift_ns"] / 1e6) if "drift_ns" in c else "- (killed)"))
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
