#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Summarise tests/bench/timer-lateness-guest.py results as a markdown table.

Per (interval, load, timer mode): every timer expiry of the three nodes of
each run pooled; p50 and p99 as the upper bound of the histogram bucket
that holds them (buckets are powers of two in us: "<64us"), the maximum;
the spread over the runs (min..max of each run's p99 and max); and the
elections the nodes began beyond the first election of the group (a
follower whose detector fired on a live leader begins one).
"""
import json
import sys
from collections import defaultdict

MODES = {0: "soft hrtimer", 1: "hard + highpri wq", 2: "hard + FIFO kthread"}


def bound(k):
    if k == 0:
        return "<1us"
    if k >= 21:
        return ">=1.05s"
    v = 1 << k
    return "<%dus" % v if v < 1000 else "<%.3gms" % (v / 1000)


def pct(buckets, q):
    n = sum(buckets)
    if not n:
        return None
    acc = 0
    for k, c in enumerate(buckets):
        acc += c
        if acc >= q * n:
            return k
    return len(buckets) - 1


def fmt_ns(ns):
    if ns >= 1e6:
        return "%.1fms" % (ns / 1e6)
    return "%dus" % round(ns / 1e3)


def main():
    # several files (one per guest kernel, say): rows side by side, with a
    # kernel column when more than one kernel is in them
    rows = [json.loads(l) for f in sys.argv[1:] for l in open(f) if l.strip()]
    runs = defaultdict(lambda: defaultdict(list))
    for r in rows:
        runs[(r["interval"], r["load"], r["mode"], r.get("kernel", "not recorded"))][r["rep"]].append(r)
    kernels = sorted({k[3] for k in runs})
    kcol = len(kernels) > 1
    print("Guest kernel: %s\n" % ", ".join(kernels))
    print("| interval | load | timer mode | %sexpiries | p50 | p99 | max | "
          "p99 per run | max per run | elections beyond the first |" % ("kernel | " if kcol else ""))
    print("|---|---|---|---|---|---|---|---|---|---|%s" % ("---|" if kcol else ""))
    order = sorted(runs, key=lambda k: (-float(k[0].rstrip("ms")) if k[0].endswith("ms")
                                        else 0, k[1] != "quiet", k[2], k[3]))
    for key in order:
        iv, load, mode, kernel = key
        pooled = [0] * 22
        mx = 0
        p99s, maxs, extra = [], [], []
        for rep, nodes in sorted(runs[key].items()):
            b = [0] * 22
            m = 0
            el = 0
            for n in nodes:
                t = n["timer_late"]
                b = [x + y for x, y in zip(b, t["buckets"])]
                m = max(m, t["max_ns"])
                el += n["elections"]
            pooled = [x + y for x, y in zip(pooled, b)]
            mx = max(mx, m)
            k = pct(b, 0.99)
            p99s.append(bound(k) if k is not None else "-")
            maxs.append(fmt_ns(m))
            # the group's first election: node 3 elects itself, 1 and 2
            # each begin one after learning (at most 3 in all)
            extra.append(max(0, el - 3))
        k50, k99 = pct(pooled, 0.5), pct(pooled, 0.99)
        print("| %s | %s | %s | %s%d | %s | %s | %s | %s | %s | %s |" % (
            iv, load, MODES.get(mode, mode), kernel + " | " if kcol else "", sum(pooled),
            bound(k50) if k50 is not None else "-",
            bound(k99) if k99 is not None else "-", fmt_ns(mx),
            " ".join(p99s), " ".join(maxs), " ".join(str(e) for e in extra)))


if __name__ == "__main__":
    main()
