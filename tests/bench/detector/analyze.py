#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The failure detectors' quality (make bench-detector), from the raw data
of tests/bench/failover/driver.py runs (one directory per configuration:
runs.jsonl, events.jsonl).

  analyze.py [--doc DIR] [--out DIR] CONFIG_DIR...

Chen, Toueg and Aguilera's quality of service of a failure detector, per
setting (a system of the driver: fixed-K, adaptive-M, keepalived) and
configuration (N, hb-interval, quiet or busy guest):

  T_D   detection time: the cut (silent isolation of the leader, kind b)
        to the moment EVERY survivor stopped trusting it: its first
        peer_down naming the leader, or leader_changed to another value,
        whichever comes first on that node, before the undo; the latest
        over the survivors. A survivor that learns of the failure from
        another's election (Bully's ELECTION, a COORDINATOR) before its own
        detector expires counts then: T_D is the first detection plus its
        spreading, what a failover waits for. p50 and p99 over the trials
        where every survivor did. keepalived: the cut to the first
        backup's MASTER (VRRP has no suspicion of its own).
  T_MR  mistake recurrence time, from the idle soak (no fault): the soak
        length x the followers (N - 1), over the mistakes they made: the
        mean time between two mistakes of one follower about the leader.
        "> S" when the soak had none (S: soak length x followers).
        keepalived: a mistake is a backup's move to MASTER.
  T_M   mistake duration: from a follower's peer_down naming the live
        leader to its next peer_up of it, or its acceptance of it again
        (leader_changed to it), or the soak's end; the mean. keepalived:
        a backup's MASTER until it leaves MASTER.
  susp, false: the nodes' suspicions and false_suspicions counters summed
        at the end of the setting's run (trials and soak): how many of
        the detector's expiries the algorithm took for mistakes. A silent
        isolation counts one false suspicion by the counter's definition
        (the isolated leader keeps its role, and is heard again at its
        term after the undo), so over C trials "false" is C plus the
        mistakes made around the trials (in the elections and settles).

The comparison section sets each configuration's defaults side by side
(fixed-3: hb-miss 3; adaptive-1: detector-margin one hb-interval) and the
best of each family (the shortest T_D p50 among its settings without a
soak mistake): "better on both axes" is a T_D p50 and p99 no longer and
no more soak mistakes, one of them strictly better.

Writes DIR/detector.md (one table per configuration, then the grid and
how long the run took) and DIR/detector-qos.png (gnuplot: T_D p50 against
T_MR, one panel per configuration, a curve per detector, keepalived a
point; a setting whose soak had no mistake is drawn at the soak's length,
an open mark).
"""

import argparse
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "lib"))
from electest import bench as fo  # noqa: E402  (hb_str, md_table, KA_STATES)
from electest.events import load_jsonl, pct  # noqa: E402

SUSPECT_EVENTS = ("peer_down", "leader_changed")


def is_ka(system):
    return system == "keepalived"


def family(system):
    """The curve a setting is a point of: fixed, adaptive, keepalived."""
    return system.split("-")[0]


class Run:
    """One configuration's raw data."""

    def __init__(self, d):
        self.dir = d
        runs = load_jsonl(os.path.join(d, "runs.jsonl"))
        self.meta = next((r for r in runs if r["type"] == "meta"), {}) or {}
        self.end = next((r for r in runs if r["type"] == "end"), None)
        self.trials = [r for r in runs if r["type"] == "trial" and
                       not r.get("skipped") and r.get("kind") == "b"]
        self.skipped = [r for r in runs if r["type"] == "trial" and
                        r.get("skipped")]
        self.systems = {r["system"]: r for r in runs if r["type"] == "system"}
        self.mon, self.fifo = {}, []
        for ev in load_jsonl(os.path.join(d, "events.jsonl")):
            if ev.get("src") == "fifo" and ev.get("state") in fo.KA_STATES:
                self.fifo.append(ev)
            elif ev.get("src") == "mon" and ev.get("ts_ns") is not None:
                self.mon.setdefault(ev.get("group"), []).append(ev)
        self.fifo.sort(key=lambda e: e["ts_ns"])
        for v in self.mon.values():
            v.sort(key=lambda e: e["ts_ns"])
        m = self.meta
        self.n, self.hb_ns, self.variant = m.get("nodes"), m.get("hb_ns"), \
            m.get("variant")
        self.name = "N=%s, hb %s, %s" % (self.n, fo.hb_str(self.hb_ns),
                                         self.variant)

    def events(self, system, lo, hi):
        if is_ka(system):
            evs = self.fifo
        else:
            evs = self.mon.get(self.systems.get(system, {}).get("group"), [])
            if not evs:
                evs = self.mon.get(group_of(system), [])
        return [e for e in evs if lo < e["ts_ns"] <= hi]

    def detection(self, system, t):
        """T_D of one trial: the cut to the last survivor's suspicion."""
        top, surv, cut = t["leader"], t["survivors"], t["cut_ns"]
        first = {}
        for e in self.events(system, cut, t.get("undo_ns") or t["back_ns"]):
            i = e.get("node")
            if i not in surv or i in first:
                continue
            if is_ka(system):
                if e.get("state") == "MASTER":
                    return e["ts_ns"] - cut
                continue
            ev = e.get("event")
            if (ev == "peer_down" and e.get("peer") == top) or \
               (ev == "leader_changed" and e.get("leader") != top):
                first[i] = e["ts_ns"]
        if is_ka(system) or len(first) < len(surv):
            return None
        return max(first.values()) - cut

    def mistakes(self, system):
        """(count, durations in ns, follower-seconds) of the idle soak."""
        rec = self.systems.get(system) or {}
        soak = rec.get("soak") or {}
        lo, hi = soak.get("start_ns"), soak.get("end_ns")
        if lo is None or hi is None:
            return None
        best = rec.get("best")
        follow_s = (hi - lo) / 1e9 * max(1, (self.n or 1) - 1)
        count, durs, open_at = 0, [], {}
        for e in self.events(system, lo, hi):
            i, ts = e.get("node"), e["ts_ns"]
            if i == best:
                continue
            if is_ka(system):
                st = e.get("state")
                if st == "MASTER" and i not in open_at:
                    count += 1
                    open_at[i] = ts
                elif st != "MASTER" and i in open_at:
                    durs.append(ts - open_at.pop(i))
                continue
            ev = e.get("event")
            if ev == "peer_down" and e.get("peer") == best and \
                    i not in open_at:
                count += 1
                open_at[i] = ts
            elif i in open_at and (
                    (ev == "peer_up" and e.get("peer") == best) or
                    (ev == "leader_changed" and e.get("leader") == best)):
                durs.append(ts - open_at.pop(i))
        durs += [hi - t0 for t0 in open_at.values()]
        return count, durs, follow_s

    def counters(self, system):
        st = (self.systems.get(system) or {}).get("final_stats") or {}
        nodes = st.values() if isinstance(st, dict) else st
        susp = false = 0
        seen = False
        for x in nodes:
            if isinstance(x, list):
                x = x[0] if x else {}
            if isinstance(x, dict) and "suspicions" in x:
                seen = True
                susp += x.get("suspicions", 0)
                false += x.get("false_suspicions", 0)
        return (susp, false) if seen else (None, None)

    def rows(self):
        out = []
        for system in self.meta.get("systems", []):
            tds = [d for d in (self.detection(system, t) for t in self.trials
                               if t["system"] == system) if d is not None]
            mk = self.mistakes(system)
            susp, false = self.counters(system)
            out.append({"system": system, "family": family(system),
                        "trials": len(tds),
                        "td_p50": pct(tds, 50) if tds else None,
                        "td_p99": pct(tds, 99) if tds else None,
                        "mistakes": mk,
                        "susp": susp, "false": false,
                        "errors": (self.systems.get(system) or {})
                        .get("errors", [])})
        return out


def group_of(system):
    # the driver's group ids: failover's, then the detector systems
    return fo.ELEC_SYSTEMS.get(system, (None,))[0]


def ms(ns):
    return None if ns is None else ns / 1e6


def fmt_ms(ns):
    return "-" if ns is None else "%.1f" % (ns / 1e6)


def tmr(mk):
    """(text, value in s for the plot, open: no mistake)"""
    if mk is None:
        return "-", None, False
    count, _, follow_s = mk
    if not count:
        return "> %.0f s" % follow_s, follow_s, True
    return "%.1f s" % (follow_s / count), follow_s / count, False


def tm(mk):
    if mk is None or not mk[1]:
        return "-"
    return "%.1f ms" % (sum(mk[1]) / len(mk[1]) / 1e6)


def run_md(r):
    head = ["setting", "trials", "T_D p50 ms", "T_D p99 ms", "mistakes",
            "T_MR", "T_M", "suspicions", "false"]
    rows = []
    for x in r.rows():
        mk = x["mistakes"]
        rows.append([x["system"], str(x["trials"]), fmt_ms(x["td_p50"]),
                     fmt_ms(x["td_p99"]), "-" if mk is None else str(mk[0]),
                     tmr(mk)[0], tm(mk),
                     "-" if x["susp"] is None else str(x["susp"]),
                     "-" if x["false"] is None else str(x["false"])])
    out = ["## %s" % r.name, "", fo.md_table(head, rows), ""]
    errs = [(x["system"], e) for x in r.rows() for e in x["errors"]]
    if errs or r.skipped:
        out.append("Skipped trials: %d. Errors: %s" % (
            len(r.skipped), "; ".join("%s: %s" % e for e in errs) or "none"))
        out.append("")
    return out


def better(a, b):
    """a against b: "better", "worse", "mixed" or "equal" on both axes
    (T_D p50 and p99, soak mistakes)."""
    ka = (a["td_p50"], a["td_p99"], (a["mistakes"] or (0,))[0])
    kb = (b["td_p50"], b["td_p99"], (b["mistakes"] or (0,))[0])
    if None in ka or None in kb:
        return "n/a"
    le = all(x <= y for x, y in zip(ka, kb))
    ge = all(x >= y for x, y in zip(ka, kb))
    if le and ge:
        return "equal"
    return "better" if le else "worse" if ge else "mixed"


def best_of(rows, fam):
    """the family's setting with the shortest T_D p50 and no soak mistake"""
    ok = [x for x in rows if x["family"] == fam and x["td_p50"] is not None
          and x["mistakes"] is not None and x["mistakes"][0] == 0]
    return min(ok, key=lambda x: x["td_p50"]) if ok else None


def compare_md(runs):
    """the defaults and each family's best, per configuration"""
    head = ["configuration", "fixed-3 T_D p50/p99", "adaptive-1 T_D p50/p99",
            "soak mistakes (f3, a1)", "adaptive-1 vs fixed-3",
            "best fixed (no mistake)", "best adaptive (no mistake)",
            "keepalived T_D p50 / adaptive-1's"]
    rows, tally = [], {}

    def td(x):
        return "%s / %s" % (fmt_ms(x["td_p50"]), fmt_ms(x["td_p99"]))
    for r in runs:
        by = {x["system"]: x for x in r.rows()}
        f3, a1, ka = by.get("fixed-3"), by.get("adaptive-1"), \
            by.get("keepalived")
        if not f3 or not a1:
            continue
        v = better(a1, f3)
        tally[v] = tally.get(v, 0) + 1
        bf, ba = best_of(r.rows(), "fixed"), best_of(r.rows(), "adaptive")
        rows.append([r.name, td(f3), td(a1), "%s, %s" % (
            "-" if f3["mistakes"] is None else f3["mistakes"][0],
            "-" if a1["mistakes"] is None else a1["mistakes"][0]), v,
            "-" if not bf else "%s %s" % (bf["system"], td(bf)),
            "-" if not ba else "%s %s" % (ba["system"], td(ba)),
            "-" if not ka or not ka["td_p50"] or not a1["td_p50"] else
            "%.1fx" % (ka["td_p50"] / a1["td_p50"])])
    if not rows:
        return []
    return ["## Comparison: the defaults and each family's best", "",
            fo.md_table(head, rows), "",
            "adaptive-1 against fixed-3 over the configurations: " +
            ", ".join("%s %d" % (k, v) for k, v in sorted(tally.items())) +
            " (better: a T_D p50 and p99 no longer and no more soak "
            "mistakes, one strictly).", ""]


def plot(runs, path):
    """gnuplot: one panel per configuration, T_D p50 (x) vs T_MR (y)."""
    data = os.path.splitext(path)[0] + ".dat"
    blocks, points = [], {}
    with open(data, "w") as f:
        for k, r in enumerate(runs):
            for fam in ("fixed", "adaptive", "keepalived"):
                f.write("# %d %s\n" % (k, fam))
                n = 0
                for x in r.rows():
                    if x["family"] != fam or x["td_p50"] is None:
                        continue
                    _, y, is_open = tmr(x["mistakes"])
                    if y is None:
                        continue
                    f.write("%g %g %d \"%s\"\n" % (ms(x["td_p50"]), y,
                                                 1 if is_open else 0,
                                                 x["system"]))
                    n += 1
                f.write("\n\n")
                blocks.append((k, fam))
                points[(k, fam)] = n
    cols = 2
    rows = (len(runs) + cols - 1) // cols
    g = ["set terminal pngcairo size %d,%d font ',9'" % (1100, 360 * rows),
         "set output '%s'" % path,
         "set multiplot layout %d,%d" % (rows, cols),
         "set logscale y", "set xlabel 'T_D p50 (ms)'",
         "set ylabel 'T_{MR} (s, open mark: no mistake in the soak)'",
         "set key top left", "set grid"]
    style = {"fixed": "lc rgb '#1f77b4' pt 7", "adaptive":
             "lc rgb '#d62728' pt 5", "keepalived": "lc rgb '#2ca02c' pt 9"}
    for k, r in enumerate(runs):
        g.append("set title '%s'" % r.name)
        parts = []
        for fam in ("fixed", "adaptive", "keepalived"):
            i = blocks.index((k, fam))
            if not points[(k, fam)]:
                continue        # gnuplot refuses an empty block
            parts.append("'%s' index %d using 1:2 with linespoints %s "
                         "title '%s'" % (data, i, style[fam], fam))
            parts.append("'%s' index %d using 1:($3 > 0 ? $2 : 1/0) with "
                         "points pt 6 ps 2 lc rgb 'black' notitle" %
                         (data, i))
        g.append("plot " + (", ".join(parts) if parts else
                            "1/0 title 'no measurement'"))
    g.append("unset multiplot")
    subprocess.run(["gnuplot"], input="\n".join(g), text=True, check=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--doc", default=None, help="where detector.md and the "
                    "png go (default: the first directory's parent)")
    ap.add_argument("--grid", default="", help="the pinned grid, as text")
    ap.add_argument("--took", default="", help="how long the run took")
    ap.add_argument("dirs", nargs="+")
    a = ap.parse_args()
    runs = [Run(d) for d in a.dirs if os.path.exists(os.path.join(d, "runs.jsonl"))]
    doc = a.doc or os.path.dirname(os.path.abspath(a.dirs[0]))
    os.makedirs(doc, exist_ok=True)
    out = ["# Failure detector quality (make bench-detector)", "",
           "Generated by tests/bench/detector/analyze.py; definitions in its "
           "docstring (T_D: cut to every survivor suspecting; T_MR, T_M: "
           "from the idle soak; suspicions and false: the nodes' counters).",
           ""]
    if a.grid:
        out += ["Grid (pinned before the run): " + a.grid, ""]
    if a.took:
        out += ["Run time: " + a.took, ""]
    out += compare_md(runs)
    for r in runs:
        out += run_md(r)
    with open(os.path.join(doc, "detector.md"), "w") as f:
        f.write("\n".join(out) + "\n")
    try:
        plot(runs, os.path.join(doc, "detector-qos.png"))
    except (OSError, subprocess.CalledProcessError) as e:
        print("analyze: no plot: %s" % e, file=sys.stderr)
    print("\n".join(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
