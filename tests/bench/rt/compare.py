#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""tests/bench/rt/compare.py STOCK_DIR RT_DIR

Markdown: make bench-failover's figures and make bench-timers' timer
lateness on Debian's stock kernel and on its PREEMPT_RT kernel, side by
side. Each DIR holds failover/failover.csv (tests/bench/failover/run) and
timers/timer-lateness.jsonl (tests/bench/timer-lateness.sh), as
tests/bench/rt/run writes them. Percentiles are nearest-rank (failover)
and histogram bucket bounds (lateness), as in the two benchmarks.
"""
import csv
import os
import subprocess
import sys

KINDS = {"a": "link down", "b": "silent isolation", "p": "planned"}


def load(path):
    out = {}
    with open(path) as f:
        for r in csv.DictReader(f):
            out[(int(r["nodes"]), int(r["hb_us"]), r["variant"], r["system"], r["kind"])] = r
    return out


def num(r, k, fmt="%.1f"):
    v = (r or {}).get(k, "")
    try:
        return fmt % float(v)
    except ValueError:
        return v or "-"


def ratio(a, b, k):
    try:
        return "%.2f" % (float(b[k]) / float(a[k]))
    except (TypeError, ValueError, ZeroDivisionError, KeyError):
        return "-"


def main():
    stock_dir, rt_dir = sys.argv[1:3]
    st = load(os.path.join(stock_dir, "failover", "failover.csv"))
    rt = load(os.path.join(rt_dir, "failover", "failover.csv"))
    keys = sorted(set(st) & set(rt), key=lambda k: (k[0], -k[1], k[2] != "quiet", k[3] != "keepalived", k[3], k[4]))
    print("## Failover, stock against RT\n")
    print("busy = one busy loop per vCPU in the guest during the trials and the soak "
          "(the CPU hog). ms; RT/stock = the ratio of the p50s.\n")
    print("| nodes | hb | guest | system | kind | n stock/RT | p50 stock | p50 RT | RT/stock | "
          "p90 stock | p90 RT | two leaders ms stock/RT | soak changes stock/RT |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for k in keys:
        a, b = st.get(k), rt.get(k)
        print("| %d | %s | %s | %s | %s | %s/%s | %s | %s | %s | %s | %s | %s/%s | %s/%s |" % (
            k[0], "%d ms" % (k[1] // 1000) if k[1] >= 1000 else "%d us" % k[1], k[2], k[3],
            KINDS.get(k[4], k[4]), num(a, "n", "%d"), num(b, "n", "%d"),
            num(a, "p50_ms"), num(b, "p50_ms"), ratio(a, b, "p50_ms"),
            num(a, "p90_ms"), num(b, "p90_ms"),
            num(a, "two_leader_ms"), num(b, "two_leader_ms"),
            num(a, "soak_leader_changes", "%d"), num(b, "soak_leader_changes", "%d")))
    print("\n## Timer lateness during the failover runs\n")
    print("election.ko's `timer_late` (timer_mode 2, the default) summed over the nodes, "
          "for the whole run of each system (trials and soak).\n")
    print("| nodes | hb | guest | system | p50 stock | p50 RT | p99 stock | p99 RT | max stock us | max RT us |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    seen = set()
    for k in keys:
        if k[3] == "keepalived" or k[:4] in seen:
            continue
        seen.add(k[:4])
        a, b = st.get(k), rt.get(k)
        print("| %d | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            k[0], "%d ms" % (k[1] // 1000), k[2], k[3],
            num(a, "timer_late_p50"), num(b, "timer_late_p50"),
            num(a, "timer_late_p99"), num(b, "timer_late_p99"),
            num(a, "timer_late_max_us", "%d"), num(b, "timer_late_max_us", "%d")))
    print("\n## Timer lateness per timer mode (make bench-timers)\n")
    table = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "timer-lateness-table.py")
    sys.stdout.flush()
    return subprocess.call([sys.executable, table,
                            os.path.join(stock_dir, "timers", "timer-lateness.jsonl"),
                            os.path.join(rt_dir, "timers", "timer-lateness.jsonl")])


if __name__ == "__main__":
    sys.exit(main())
