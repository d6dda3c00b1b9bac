#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""electsim --check over a matrix of algorithms, options, timings and fault
generators, from a base seed nobody chose: the part of `make check` that
looks where the fixed tests do not, and `make sim-search`, which looks for
hours.

  search.py [--electsim PATH] [--seed N] [--jobs-max J] [--seconds S]
            [--seeds K] [--nodes A..B] [--parallel P] [--out DIR]
            [--doc FILE]

The matrix (CASES x TIMINGS x GENERATORS) is shuffled by the base seed N
(default: drawn from the clock, printed); job i runs
  electsim --check --algo A [options] --nodes A..B --seeds K
           --seed N + i * K [timing] --generator G --json
in that order, P at a time, until J jobs ran or S seconds passed (no new
job starts after that; the first job always runs), the same jobs for the
same N. Within the algorithm's assumptions a violation fails the search
(exit 1) and prints the one command that reproduces it; outside them
(splits without quorum, ...) the violation rate is reported. --out writes
report.json and report.md (runs, violations, the largest two-leader time
per algorithm and option); --doc writes the markdown there too.
"""
import argparse
import json
import os
import random
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
SIM = os.path.join(HERE, "..", "..", "userspace", "sim", "electsim")

# (name, algorithm, options): every option the algorithms take that
# changes a decision, quorum with and without splits
CASES = [
    ("bully", "bully", []),
    ("bully ask-suspect off", "bully", ["--ask-suspect", "off"]),
    ("bully preempt off", "bully", ["--preempt", "off"]),
    ("bully preempt-delay 30ms", "bully", ["--preempt-delay", "30ms"]),
    ("bully quorum", "bully", ["--quorum", "on"]),
    ("bully quorum partitions", "bully", ["--quorum", "on", "--partitions"]),
    ("bully quorum partitions ask-suspect off", "bully",
     ["--quorum", "on", "--partitions", "--ask-suspect", "off"]),
    ("bully quorum partitions preempt off", "bully",
     ["--quorum", "on", "--partitions", "--preempt", "off"]),
    ("bully auth", "bully", ["--auth", "on"]),
    ("min-bully", "min-bully", []),
    ("min-bully ask-suspect off", "min-bully", ["--ask-suspect", "off"]),
    ("min-bully preempt off", "min-bully", ["--preempt", "off"]),
    ("min-bully quorum partitions", "min-bully",
     ["--quorum", "on", "--partitions"]),
    ("min-bully auth", "min-bully", ["--auth", "on"]),
    ("enh-bully", "enh-bully", []),
    ("enh-bully ask-suspect off", "enh-bully", ["--ask-suspect", "off"]),
    ("enh-bully preempt off", "enh-bully", ["--preempt", "off"]),
    ("enh-bully quorum partitions", "enh-bully",
     ["--quorum", "on", "--partitions"]),
    ("ring", "ring", []),
    ("ring suppress off", "ring", ["--suppress", "off"]),
    ("ring-all", "ring-all", []),
    ("ring-list", "ring-list", []),
    ("invitation partitions", "invitation", ["--partitions"]),
    ("bully detector adaptive", "bully", ["--detector", "adaptive"]),
    ("bully quorum partitions detector adaptive", "bully",
     ["--quorum", "on", "--partitions", "--detector", "adaptive"]),
    ("min-bully detector adaptive", "min-bully",
     ["--detector", "adaptive"]),
    ("min-bully quorum partitions detector adaptive", "min-bully",
     ["--quorum", "on", "--partitions", "--detector", "adaptive"]),
    ("enh-bully quorum partitions detector adaptive", "enh-bully",
     ["--quorum", "on", "--partitions", "--detector", "adaptive"]),
    ("enh-bully detector adaptive", "enh-bully",
     ["--detector", "adaptive"]),
    ("ring detector adaptive", "ring", ["--detector", "adaptive"]),
    ("ring-all detector adaptive", "ring-all", ["--detector", "adaptive"]),
    ("ring-list detector adaptive", "ring-list",
     ["--detector", "adaptive"]),
    ("invitation partitions detector adaptive", "invitation",
     ["--partitions", "--detector", "adaptive"]),
    ("bully partitions (outside)", "bully", ["--partitions"]),
    ("bully fast-recover (outside)", "bully", ["--fast-recover"]),
]

# the default timing (latency 50 us .. 1 ms), a wide latency spread, the
# edge of the assumptions (a round trip just below T = 20 ms), and a tail:
# a few frames and timer expiries late by up to half the window
TIMINGS = [
    ("default", []),
    ("latency 50us:4900us", ["--latency", "50us:4900us"]),
    ("edge: T 20ms, latency 50us:9900us, hb-miss 4",
     ["--timeout", "20ms", "--latency", "50us:9900us", "--hb-miss", "4"]),
    ("jitter: 5% of frames and timers up to 8ms late, T 25ms, hb-miss 4",
     ["--timeout", "25ms", "--hb-miss", "4", "--jitter", "0.05:8ms"]),
]

GENERATORS = ["random", "focused", "harsh"]


def matrix(seed):
    # quorum under --jitter: electsim's quiescence judgement of a quorum
    # group (leases, namings in flight) assumes the latency bound without
    # the tail, and claims changes after quiescence that are its own
    # misjudgement (seed 713271417, enh-bully): not searched until it
    # models the tail
    jobs = [(c, t, g) for c in CASES for t in TIMINGS for g in GENERATORS
            if not ("--quorum" in c[2] and "--jitter" in t[1])]
    random.Random(seed).shuffle(jobs)
    return jobs


def command(sim, case, timing, gen, nodes, seeds, base):
    _, algo, opts = case
    return ([sim, "--check", "--algo", algo] + opts +
            ["--nodes", nodes, "--seeds", str(seeds), "--seed", str(base)] +
            timing[1] + ["--generator", gen, "--json"])


def shell(cmd):
    return " ".join("'%s'" % a if any(c in a for c in " ;()") else a
                    for a in cmd)


def run_job(cmd):
    t0 = time.monotonic()
    r = subprocess.run(cmd, capture_output=True, text=True)
    dt = time.monotonic() - t0
    try:
        o = json.loads(r.stdout.strip().splitlines()[-1])
    except (ValueError, IndexError):
        o = None
    return r.returncode, o, r.stderr, dt


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--electsim", default=SIM)
    ap.add_argument("--seed", type=int, default=None)
    ap.add_argument("--jobs-max", type=int, default=0,
                    help="jobs to run (0: as many as the time allows)")
    ap.add_argument("--seconds", type=float, default=110)
    ap.add_argument("--seeds", type=int, default=150)
    ap.add_argument("--nodes", default="2..12")
    ap.add_argument("--parallel", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--out", default=None)
    ap.add_argument("--doc", default=None)
    a = ap.parse_args()

    seed = a.seed
    if seed is None:
        seed = int(time.time_ns() // 1000) % 1000000007 + 1
    jobs = matrix(seed)
    if a.jobs_max:
        # the same jobs for the same seed: the matrix is repeated in order
        jobs = [jobs[i % len(jobs)] for i in range(a.jobs_max)]
    print("search: base seed %d (SIM_SEED=%d repeats it), %s jobs of %d "
          "seeds over nodes %s, %d at a time, at most %.0f s" %
          (seed, seed, a.jobs_max or "up to %d" % len(jobs), a.seeds,
           a.nodes, a.parallel, a.seconds), flush=True)
    t0 = time.monotonic()
    results = []
    failed = []
    rounds = 0

    def jobs_iter():
        nonlocal rounds
        i = 0
        while True:
            for j in jobs:
                yield i, j
                i += 1
            rounds += 1
            if a.jobs_max:
                return

    it = jobs_iter()
    with ThreadPoolExecutor(max_workers=max(1, a.parallel)) as ex:
        pending = {}
        done = False
        while pending or not done:
            while not done and len(pending) < max(1, a.parallel):
                if results or pending:
                    if time.monotonic() - t0 >= a.seconds:
                        done = True
                        break
                try:
                    i, (case, timing, gen) = next(it)
                except StopIteration:
                    done = True
                    break
                if a.jobs_max and i >= a.jobs_max:
                    done = True
                    break
                base = seed + i * a.seeds
                cmd = command(a.electsim, case, timing, gen, a.nodes,
                              a.seeds, base)
                pending[ex.submit(run_job, cmd)] = (i, case, timing, gen, cmd)
            if not pending:
                break
            fut = next(iter(pending))
            for f in list(pending):
                if f.done():
                    fut = f
                    break
            rc, o, err, dt = fut.result()
            i, case, timing, gen, cmd = pending.pop(fut)
            res = {"job": i, "case": case[0], "timing": timing[0],
                   "generator": gen, "seconds": round(dt, 2),
                   "command": shell(cmd[:-1])}
            if o is None or rc not in (0, 1):
                res.update(status="error", detail=err.strip()[-400:])
                failed.append(res)
            else:
                res.update(runs=o["runs"], within=o["within_assumptions"],
                           dual_leader_max_ns=o.get("dual_leader_max_ns", 0))
                if o.get("dual_leader_run"):
                    res["dual_replay"] = o["dual_leader_run"]["replay"]
                if o["within_assumptions"] and not o["held"]:
                    v = o["violation"]
                    res.update(status="FAIL", what=v["what"],
                               replay=v["replay"])
                    failed.append(res)
                elif o["within_assumptions"]:
                    res["status"] = "held"
                    res["auth_replay_runs"] = o.get("auth_replay_runs", 0)
                else:
                    res.update(status="outside",
                               e1=o["e1_violated"], e2=o["e2_violated"])
            results.append(res)
            line = "%-7s %-42s %-12s %-8s %5.1fs" % (
                res["status"], res["case"], res["timing"].split(":")[0],
                gen, dt)
            if "runs" in res:
                line += "  runs %d, largest two-leader %.3f ms" % (
                    res["runs"], res["dual_leader_max_ns"] / 1e6)
            if res["status"] == "outside":
                line += ", E1 %d E2 %d (rates)" % (res["e1"], res["e2"])
            print(line, flush=True)
            if res["status"] in ("FAIL", "error"):
                print("  %s" % res.get("what", res.get("detail")))
                print("  reproduce: %s" % res.get("replay", res["command"]))

    secs = time.monotonic() - t0
    runs = sum(r.get("runs", 0) for r in results)
    print("search: base seed %d: %d jobs, %d runs, %d rounds of the matrix, "
          "%.0f s; %d failed" % (seed, len(results), runs, rounds, secs,
                                 len(failed)))
    if a.out:
        os.makedirs(a.out, exist_ok=True)
        with open(os.path.join(a.out, "report.json"), "w") as f:
            json.dump({"seed": seed, "seconds": secs, "nodes": a.nodes,
                       "seeds_per_job": a.seeds, "results": results}, f,
                      indent=1)
        md = report_md(seed, secs, a, results)
        with open(os.path.join(a.out, "report.md"), "w") as f:
            f.write(md)
        if a.doc:
            with open(a.doc, "w") as f:
                f.write(md)
    print("%d passed, %d failed" % (len(results) - len(failed), len(failed)))
    return 1 if failed else 0


def report_md(seed, secs, a, results):
    agg = {}
    for r in results:
        k = (r["case"], r["timing"])
        g = agg.setdefault(k, {"runs": 0, "jobs": 0, "viol": 0, "outside": 0,
                               "o_viol": 0, "dual": 0, "dual_replay": None,
                               "gens": set()})
        g["jobs"] += 1
        g["gens"].add(r["generator"])
        g["runs"] += r.get("runs", 0)
        if r["status"] in ("FAIL", "error"):
            g["viol"] += 1
        if r["status"] == "outside":
            g["outside"] += r.get("runs", 0)
            g["o_viol"] += r.get("e1", 0) + r.get("e2", 0)
        if r.get("dual_leader_max_ns", 0) > g["dual"]:
            g["dual"] = r["dual_leader_max_ns"]
            g["dual_replay"] = r.get("dual_replay")
    out = ["# electsim search: random, focused and harsh fault schedules", "",
           "Generated by `make sim-search` (tests/sim/search.py); do not edit.",
           "Base seed %d, %.1f h, %d jobs of %d seeds per N over nodes %s; "
           "%d runs in all. Each job is `electsim --check` with the options, "
           "timing and generator named (`--generator random|focused|harsh`, "
           "Documentation/simulator.rst)." % (
               seed, secs / 3600, len(results), a.seeds, a.nodes,
               sum(r.get("runs", 0) for r in results)), "",
           "| algorithm and options | timing | generators | runs | failed jobs "
           "(within the assumptions) | violations outside | largest two-leader "
           "time (ms) |",
           "| --- | --- | --- | --- | --- | --- | --- |"]
    for (case, timing), g in sorted(agg.items()):
        out.append("| %s | %s | %s | %d | %d | %s | %.3f |" % (
            case, timing, ", ".join(sorted(g["gens"])), g["runs"], g["viol"],
            "%d of %d runs" % (g["o_viol"], g["outside"]) if g["outside"]
            else "-", g["dual"] / 1e6))
    worst = [r for r in results if r["status"] in ("FAIL", "error")]
    out += ["", "Failed jobs: %d." % len(worst)]
    for r in worst:
        out.append("- %s, %s, %s: %s; `%s`" % (
            r["case"], r["timing"], r["generator"], r.get("what", "error"),
            r.get("replay", r["command"])))
    out.append("")
    return "\n".join(out)


if __name__ == "__main__":
    sys.exit(main())
