#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Failover benchmark analysis (host or guest; python3 standard library).

  analyze.py [--out-dir DIR] [--quick] RAWDIR...

Each RAWDIR holds one configuration's driver output (runs.jsonl,
events.jsonl; see driver.py). The parent directory of the RAWDIRs may hold
host.json (written by tests/bench/failover/run: machine, wall times).
Writes DIR/failover.md, DIR/failover.csv and DIR/failover-cdf.png
(gnuplot) and prints the targets, each as "target: ... : met/not met
(value)". Exit 0 unless the input cannot be read.

Definitions (every time is CLOCK_MONOTONIC of the one guest):
  cut        the driver's time.monotonic_ns() just before the one sendmsg
             (or kill) that cuts the leader off.
  failover   cut -> the last event, before the end of the window, after
             which every survivor follows the same survivor L and keeps
             doing so until the end of the window. The window ends when the
             driver has seen that agreement hold for its stable window
             (max(50 ms, 10 x bound) without an event), before it spawns
             anything. election.ko: every survivor's last leader_changed
             names L and no survivor is stopped; event times are the
             kernel's ts_ns. keepalived: exactly one survivor MASTER and
             every other survivor BACKUP; times are the FIFO reader's
             arrival stamps. A trial without such a state at the window end is
             "unsettled" and left out of the figures (counted).
  phases     (election.ko) detection: cut -> first election_started, or
             leader_changed to anything but the old leader, on a survivor;
             election: cut -> first leader_changed to L on any survivor;
             announcement: cut -> failover (the last survivor adopts L).
  two leaders  intervals in that window during which two or more
             survivors lead (leader_changed to themselves / MASTER):
             episodes and total ms.
  isolated   (kind b) cut -> the isolated leader's first step down
             (leader_changed away from itself, stopped, or leaving MASTER);
             if it never steps down, cut -> the moment no survivor leads
             any more after the heal. "self" counts step downs before the
             heal (the undo).
  heal       (kind b) undo -> the last event after which every node, the
             isolated one included, follows one leader (until back_ns).
  bound      the detection bound hb-interval x hb-miss (keepalived: 3 x
             advert_int; its Master_Down_Interval adds the skew time).
"""

import argparse
import bisect
import csv
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "lib"))
from electest.events import load_jsonl, pct  # noqa: E402
from electest.bench import KA_STATES, fmt, hb_str, md_table  # noqa: E402

GROUPS = {"bully": 1, "ring": 2, "ring-nosuppress": 3, "ring-all": 4, "ring-list": 5,
          "bully-noask": 6, "min-bully": 7, "enh-bully": 8, "bully-quorum": 9,
          "invitation": 10}
KIND_NAMES = {"a": "crash (a): leader's eth0 down in its namespace",
              "b": "silent isolation (b): every frame to and from the leader's bridge port dropped",
              "p": "planned handover: GROUP_STOP on the leader / SIGTERM to its keepalived"}
MSG_TYPES = ("election", "answer", "coordinator", "heartbeat", "ack", "retry")
# the Bully variants' join messages: in the md with the others, in the csv
# as the last columns (the older columns keep their places)
MSG_TYPES_JOIN = ("query", "cid")
# invitation's and quorum's, the csv's last columns
MSG_TYPES_MORE = ("are_you_coord", "ayc_reply", "invite", "accept", "ready", "alive")
MSG_ABBREV = {"election": "E", "answer": "A", "coordinator": "C", "heartbeat": "H",
              "ack": "ACK", "retry": "R", "query": "Q", "cid": "CID",
              "are_you_coord": "AYC", "ayc_reply": "AYCR", "invite": "INV",
              "accept": "ACC", "ready": "RDY", "alive": "ALV"}


def ms(ns):
    return None if ns is None else ns / 1e6


# ----------------------------------------------------------- one trial ---

def trial_metrics(t, evs, is_ka):
    """Replay the trial's events from the agreed state before the cut."""
    top, surv = t["leader"], t["survivors"]
    # the measured window ends when the driver saw the survivors settled,
    # before its stats spawns; the isolated leader is followed to the end
    cut, wend, back = t["cut_ns"], t["settled_ns"], t["back_ns"]
    heal = t["undo_ns"]
    nodes = surv + [top]
    if is_ka:
        st = {i: "BACKUP" for i in nodes}
        st[top] = "MASTER"
    else:
        lead = {i: top for i in nodes}
        stopped = {i: False for i in nodes}

    def leads(i):
        return st[i] == "MASTER" if is_ka else (not stopped[i] and lead[i] == i)

    def agreed_all():
        """every node, the isolated leader included, on one leader"""
        if is_ka:
            m = [i for i in nodes if st[i] == "MASTER"]
            if len(m) == 1 and all(st[i] == "BACKUP" for i in nodes if i != m[0]):
                return m[0]
            return None
        if any(stopped[i] for i in nodes):
            return None
        v = {lead[i] for i in nodes}
        return v.pop() if len(v) == 1 and None not in v else None

    def agreed():
        if is_ka:
            m = [i for i in surv if st[i] == "MASTER"]
            if len(m) == 1 and all(st[i] == "BACKUP" for i in surv if i != m[0]):
                return m[0]
            return None
        if any(stopped[i] for i in surv):
            return None
        v = {lead[i] for i in surv}
        if len(v) == 1:
            x = v.pop()
            return x if x in surv else None
        return None

    r = {"detect": None, "first_lead": {}, "two_ep": 0, "two_ns": 0}
    since, cur = None, None            # agreement on `cur` since `since`
    two_start = None
    iso_end, iso_self = None, False
    resolved = None
    heal_at, heal_cur = None, None     # after the heal: every node agrees
    for ev in evs:
        ts, i = ev["ts_ns"], ev["node"]
        if ts > back:
            break
        if ts <= cut or i not in nodes:
            continue
        if ts > wend and two_start is not None:      # close at the window end
            r["two_ns"] += wend - two_start
            two_start = None
        # apply
        if is_ka:
            st[i] = ev["state"]
            if i in surv and ts <= wend and r["detect"] is None and ev["state"] == "MASTER":
                r["detect"] = ts
        else:
            e = ev["event"]
            if e == "leader_changed":
                lead[i], stopped[i] = ev.get("leader"), False
                if i in surv and ts <= wend:
                    if r["detect"] is None and ev.get("leader") != top:
                        r["detect"] = ts
                    r["first_lead"].setdefault(ev.get("leader"), ts)
            elif e == "stopped":
                stopped[i] = True
            elif e == "election_started":
                stopped[i] = False
                if i in surv and ts <= wend and r["detect"] is None:
                    r["detect"] = ts
        if ts <= wend:
            a = agreed()
            if a is None:
                since, cur = None, None
            elif a != cur:
                since, cur = ts, a
            n_lead = sum(1 for j in surv if leads(j))
            if n_lead >= 2 and two_start is None:
                two_start = ts
                r["two_ep"] += 1
            elif n_lead < 2 and two_start is not None:
                r["two_ns"] += ts - two_start
                two_start = None
        if t["kind"] == "b" and iso_end is None and i == top and not leads(top):
            iso_end, iso_self = ts, ts <= heal
        if ts > heal and resolved is None and not any(leads(j) for j in surv):
            resolved = ts
        if t["kind"] == "b" and ts > heal:
            a_all = agreed_all()
            if a_all is None:
                heal_at, heal_cur = None, None
            elif a_all != heal_cur:
                heal_at, heal_cur = ts, a_all
    if two_start is not None:
        r["two_ns"] += wend - two_start
    r["new_leader"] = cur
    r["failover"] = since - cut if since is not None else None
    if cur is not None:
        r["election"] = r["first_lead"].get(cur, since) - cut if not is_ka else None
        r["detection"] = r["detect"] - cut if (r["detect"] is not None and not is_ka) else None
    if t["kind"] == "b":
        end = iso_end if iso_end is not None else (resolved or back)
        r["iso"] = end - cut
        r["iso_self"] = iso_self
        # the heal -> the last change to a state where every node follows
        # one leader (None: never before the driver saw it settled back)
        r["heal"] = heal_at - heal if heal_at is not None else None
    return r


# ------------------------------------------------------ configurations ---

class Config:
    def __init__(self, d):
        self.dir = d
        runs = load_jsonl(os.path.join(d, "runs.jsonl"))
        self.meta = next((r for r in runs if r["type"] == "meta"), None)
        self.end = next((r for r in runs if r["type"] == "end"), None)
        self.trials = [r for r in runs if r["type"] == "trial" and not r.get("skipped")]
        self.skipped = [r for r in runs if r["type"] == "trial" and r.get("skipped")]
        self.systems = {r["system"]: r for r in runs if r["type"] == "system"}
        evs = load_jsonl(os.path.join(d, "events.jsonl"))
        self.mon = {}
        self.fifo = []
        for ev in evs:
            if ev.get("src") == "fifo" and ev.get("state") in KA_STATES:
                self.fifo.append(ev)
            elif ev.get("src") == "mon" and ev.get("event") in ("leader_changed", "stopped",
                                                                  "election_started"):
                self.mon.setdefault(ev.get("group"), []).append(ev)
        self.fifo.sort(key=lambda e: e["ts_ns"])
        for v in self.mon.values():
            v.sort(key=lambda e: e["ts_ns"])
        self.gaps = sum(1 for ev in evs if ev.get("event") == "gap")
        m = self.meta or {}
        self.n, self.hb_ns, self.variant = m.get("nodes"), m.get("hb_ns"), m.get("variant")
        self.name = "N=%s, hb %s, %s" % (self.n, hb_str(self.hb_ns), self.variant)
        self.results = {}       # (system, kind) -> aggregate
        self.samples = {}       # (system, kind) -> failover ms list
        stamps = {}
        for t in self.trials:
            is_ka = t["system"] == "keepalived"
            key = "ka" if is_ka else GROUPS.get(t["system"])
            evs = self.fifo if is_ka else self.mon.get(key, [])
            if key not in stamps:
                stamps[key] = [e["ts_ns"] for e in evs]
            # events are sorted: replay from the cut on
            lo = bisect.bisect_left(stamps[key], t["cut_ns"])
            # an event during the random sleep before the cut (stamped
            # before it, delivered after the driver looked): the group was
            # already moving, the trial measures nothing; left out, counted
            pre = bisect.bisect_right(stamps[key], t["cut_ns"] - t.get("delay_ns", 0) - 1_000_000)
            t["disturbed"] = lo > pre
            t["m"] = trial_metrics(t, evs[lo:], is_ka)
        for (s, k) in sorted({(t["system"], t["kind"]) for t in self.trials + self.skipped}):
            self.results[(s, k)] = self.aggregate(s, k)

    def bound_ns(self, system):
        if system == "keepalived":
            return 3 * (self.meta or {}).get("ka_advert_ns", 10_000_000)
        return self.systems.get(system, {}).get("hb_miss", 3) * self.hb_ns

    def aggregate(self, s, k):
        ts = [t for t in self.trials if t["system"] == s and t["kind"] == k]
        disturbed = sum(1 for t in ts if t["disturbed"])
        ts = [t for t in ts if not t["disturbed"]]
        ok = [t for t in ts if t["m"]["failover"] is not None]
        fo = [ms(t["m"]["failover"]) for t in ok]
        self.samples[(s, k)] = fo
        a = {"n": len(ts), "unsettled": len(ts) - len(ok), "bound_ms": ms(self.bound_ns(s)),
             "skipped": sum(1 for t in self.skipped if t["system"] == s and t["kind"] == k),
             "unquiet": sum(1 for t in ts if not t.get("quiet_before", True)),
             "disturbed": disturbed}
        if fo:
            a.update(min=min(fo), p50=pct(fo, 50), p90=pct(fo, 90), max=max(fo))
            a["p50_bound"] = a["p50"] / a["bound_ms"]
            a["p90_bound"] = a["p90"] / a["bound_ms"]
        for ph in ("detection", "election"):
            v = [ms(t["m"].get(ph)) for t in ok if t["m"].get(ph) is not None]
            a[ph] = pct(v, 50) if v else None
        a["announcement"] = a.get("p50")
        if not ts:
            a.update(two_ep=0, two_ms=0.0)
            return a
        a["two_ep"] = sum(t["m"]["two_ep"] for t in ts)
        a["two_ms"] = sum(ms(t["m"]["two_ns"]) for t in ts)
        if k == "b" and ts:
            iso = [ms(t["m"]["iso"]) for t in ts]
            a["iso_p50"], a["iso_max"] = pct(iso, 50), max(iso)
            a["iso_self"] = sum(1 for t in ts if t["m"]["iso_self"])
            hl = [ms(t["m"]["heal"]) for t in ts if t["m"].get("heal") is not None]
            if hl:
                a["heal_p50"], a["heal_max"] = pct(hl, 50), max(hl)
        msgs = [t["msgs"] for t in ts if t.get("msgs")]
        if msgs:
            a["msgs"] = {ty: sum(m.get(ty, 0) for m in msgs) / len(msgs)
                         for ty in MSG_TYPES + MSG_TYPES_JOIN + MSG_TYPES_MORE}
        return a

    def soak(self, s):
        """Soak figures of system s: leader changes, CPU per node, timer lateness."""
        rec = self.systems.get(s, {})
        sk = rec.get("soak")
        out = {"errors": rec.get("errors", []), "seconds": rec.get("seconds")}
        if sk:
            dur = (sk["end_ns"] - sk["start_ns"]) / 1e9
            d = sk["proc_stat_delta"]
            hz = sk["clk_tck"]
            out["changes"] = sk["leader_changes"]
            out["elections"] = sk.get("elections")
            out["soak_s"] = dur
            # % of one CPU per node: system + softirq time of the whole guest
            out["sys_pct"] = 100.0 * (d[2] + d[6]) / hz / dur / self.n
            if sk.get("proc_ticks") is not None:
                out["proc_pct"] = 100.0 * sk["proc_ticks"] / hz / dur / self.n
        tl = rec.get("timer_late")
        out["timer_late"] = late_summary(tl) if tl else None
        return out


def late_summary(tl):
    """p50 and p99 (upper bucket bounds) and max from the timer_late buckets:
    bucket i < 2^i us for i = 0..20, the last one beyond."""
    b = tl.get("buckets") or []
    tot = sum(b)
    if not tot:
        return {"p50": None, "p99": None, "max_us": tl.get("max_ns", 0) / 1e3, "count": 0}

    def q(p):
        acc = 0
        for i, c in enumerate(b):
            acc += c
            if acc * 100 >= p * tot:
                return "<%d us" % (1 << i) if i < len(b) - 1 else ">=%d us" % (1 << (len(b) - 2))
        return None
    return {"p50": q(50), "p99": q(99), "max_us": tl.get("max_ns", 0) / 1e3, "count": tl.get("count", tot)}


# -------------------------------------------------------------- output ---

ORDER = ["keepalived", "bully", "bully-noask", "bully-quorum", "ring", "ring-nosuppress",
         "ring-all", "ring-list", "min-bully", "enh-bully", "invitation"]


def result_order(item):
    (s, k), _ = item
    return (ORDER.index(s) if s in ORDER else 99, k)


def sysorder(names):
    return sorted(names, key=lambda s: ORDER.index(s) if s in ORDER else 99)


def ratio(a, b):
    if a is None or b is None or not b:
        return None
    return a / b


def detector_str(m):
    """The algorithm systems' detector and timeout-auto, as the driver was
    told (runs before --detector and --timeout: the module's defaults)."""
    d, t = m.get("detector") or "default", m.get("timeout") or "default"
    return "failure detector %s, timeout-auto %s" % (
        "the module's default" if d == "default" else "`detector %s`" % d,
        "the module's default" if t == "default" else
        "`on` (the waits from measured round trips)" if t == "auto" else "`off`")


def config_md(c):
    out = ["## %s\n" % c.name]
    m = c.meta or {}
    q = ""
    if "bully-quorum" in c.systems:
        qm = c.systems["bully-quorum"].get("hb_miss", 5)
        q = (" bully-quorum: quorum on, hb-miss %d, timeout %s, coord-timeout %s "
             "(bound %.1f ms; quorum needs hb-interval x (hb-miss - 2) above 1.5 x "
             "timeout)." % (qm, hb_str(c.hb_ns), hb_str(4 * c.hb_ns), c.hb_ns * qm / 1e6))
    out.append("%d nodes; election.ko: hb-interval %s, hb-miss 3, timeout %s, coord-timeout %s "
               "(detection bound %.1f ms), %s;%s keepalived: advert_int 10 ms (bound 30 ms). "
               "Seed %s. Monitor gaps: %d.\n" % (
                   c.n, hb_str(c.hb_ns), hb_str(2 * c.hb_ns), hb_str(8 * c.hb_ns),
                   c.hb_ns * 3 / 1e6, detector_str(m), q, m.get("seed"), c.gaps))
    systems = sysorder({s for s, _ in c.results})
    for k in ("a", "b", "p"):
        rows = []
        ka = c.results.get(("keepalived", k), {})
        for s in systems:
            a = c.results.get((s, k))
            if not a:
                continue
            vs = ratio(ka.get("p50"), a.get("p50")) if s != "keepalived" else None
            row = [s, "%d" % a["n"], "%d" % a["unsettled"], a.get("min"), a.get("p50"), a.get("p90"),
                   a.get("max"), fmt(a.get("p50_bound"), 2), fmt(a.get("p90_bound"), 2),
                   fmt(vs, 2), a.get("detection"), a.get("election"), a.get("announcement"),
                   "%d / %.1f" % (a["two_ep"], a["two_ms"])]
            if k == "b":
                row += [a.get("iso_p50"), a.get("iso_max"), "%d/%d" % (a.get("iso_self", 0), a["n"]),
                        a.get("heal_p50"), a.get("heal_max")]
            mm = a.get("msgs")
            row.append(" ".join("%s %.1f" % (MSG_ABBREV[t], mm[t])
                                for t in MSG_TYPES + MSG_TYPES_JOIN + MSG_TYPES_MORE
                                if mm.get(t)) if mm else "-")
            notes = []
            if a["skipped"]:
                notes.append("%d skipped (no agreement before the cut)" % a["skipped"])
            if a["disturbed"]:
                notes.append("%d left out (events just before the cut)" % a["disturbed"])
            if a["unquiet"]:
                notes.append("%d cut while not quiet" % a["unquiet"])
            row.append("; ".join(notes) or "-")
            rows.append(row)
        if not rows:
            continue
        head = ["system", "n", "unsettled", "min ms", "p50 ms", "p90 ms", "max ms", "p50/bound",
                "p90/bound", "keepalived p50 / p50", "detection p50", "election p50",
                "announcement p50", "2 leaders: episodes / ms"]
        if k == "b":
            head += ["isolated leads p50 ms", "isolated max ms", "isolated stepped down alone",
                     "heal -> one leader p50 ms", "heal max ms"]
        head += ["frames per failover (survivors' tx, by type)", "notes"]
        out.append("### %s\n" % KIND_NAMES[k])
        out.append(md_table(head, rows))
    rows = []
    for s in sysorder(c.systems):
        so = c.soak(s)
        tl = so.get("timer_late")
        rows.append([s, fmt(so.get("soak_s"), 0), "%s" % so.get("changes", "-"),
                     "-" if so.get("elections") is None else "%s" % so["elections"],
                     fmt(so.get("sys_pct"), 2), fmt(so.get("proc_pct"), 2),
                     "n/a" if s == "keepalived" or not tl else "%s / %s / %.0f us" % (
                         tl["p50"], tl["p99"], tl["max_us"]),
                     "; ".join(so["errors"]) or "none"])
    out.append("### idle soak, CPU, timer lateness\n")
    out.append(md_table(["system", "soak s", "leader changes", "runs", "guest sys+softirq / N (% of a CPU)",
                         "keepalived processes / N (% of a CPU)", "timer lateness p50 / p99 / max",
                         "errors"], rows))
    return "\n".join(out)


def targets(cfgs):
    """The targets, as printable lines ("target: ... : met/not met (value)")."""
    lines = []
    by = {(c.n, c.hb_ns, c.variant): c for c in cfgs}
    elec = [s for s in ORDER if s != "keepalived"]

    def each(c, label, fn):
        """fn(system, kind) -> (what, verdict) per election system and crash kind."""
        if c is None:
            lines.append("target: %s: %s : not run (configuration not in this run)" % (
                label, fn(None, None, None)[0]))
            return
        for s in elec:
            for k in ("a", "b"):
                what, verdict = fn(c, s, k)
                if verdict is not None:
                    lines.append("target: %s %s kind %s: %s : %s" % (label, s, k, what, verdict))
        if not any((s, "a") in c.results for s in elec):
            lines.append("target: %s : not run (no election.ko system in this run)" % label)

    def p90_rule(c, s, k):
        busy = c is not None and c.variant == "busy"
        what = "p90 <= 2 x bound (60 ms)" + (" or <= keepalived's p90" if busy else "")
        if c is None:
            return what, None
        a, ka = c.results.get((s, k)), c.results.get(("keepalived", k), {}).get("p90")
        if not a:
            return what, None
        if a.get("p90") is None:
            return what, "not met (no settled failover)"
        met = a["p90"] <= 2 * a["bound_ms"] or (busy and ka is not None and a["p90"] <= ka)
        return what, "%s (p90 %.1f ms, keepalived %s ms)" % ("met" if met else "not met", a["p90"], fmt(ka))

    def two_rule(c, s, k):
        what = "two-leader time among survivors <= keepalived's"
        if c is None:
            return what, None
        a, ka = c.results.get((s, k)), c.results.get(("keepalived", k))
        if not a:
            return what, None
        if not ka:
            return what, "not run (no keepalived in this run)"
        return what, "%s (%.1f ms vs %.1f ms)" % (
            "met" if a["two_ms"] <= ka["two_ms"] else "not met", a["two_ms"], ka["two_ms"])

    def median_rule(c, s, k):
        what = "median <= 1.5 x bound (4.5 ms) and >= 5x lower than keepalived's"
        if c is None:
            return what, None
        a, ka = c.results.get((s, k)), c.results.get(("keepalived", k), {}).get("p50")
        if not a:
            return what, None
        if a.get("p50") is None or ka is None:
            return what, "not met (no settled failover, or no keepalived figure)"
        met = a["p50"] <= 1.5 * a["bound_ms"] and ka >= 5 * a["p50"]
        return what, "%s (%.2f ms, keepalived %.2f ms, %.1fx)" % (
            "met" if met else "not met", a["p50"], ka, ka / a["p50"])

    for variant in ("quiet", "busy"):
        c = by.get((3, 10_000_000, variant))
        each(c, "N=3 hb 10ms %s" % variant, p90_rule)
        each(c, "N=3 hb 10ms %s" % variant, two_rule)
    for variant in ("quiet", "busy"):
        each(by.get((16, 1_000_000, variant)), "N=16 hb 1ms %s" % variant, median_rule)
    # issue 32's targets: the Bully family at N=3, hb 10 ms, against
    # keepalived; every system at N=16, hb 1 ms
    family = ("bully", "bully-noask", "bully-quorum", "min-bully", "enh-bully")
    for variant in ("quiet", "busy"):
        c = by.get((3, 10_000_000, variant))
        label = "N=3 hb 10ms %s" % variant
        what = "the Bully family's silent-isolation p50 <= keepalived's"
        if c is None:
            lines.append("target: %s: %s : not run (configuration not in this run)" % (label, what))
            continue
        ka = c.results.get(("keepalived", "b"), {}).get("p50")
        for sname in family:
            a = c.results.get((sname, "b"))
            if not a:
                continue
            if a.get("p50") is None or ka is None:
                verdict = "not met (no settled failover, or no keepalived figure)"
            else:
                verdict = "%s (%.1f ms, keepalived %.1f ms)" % (
                    "met" if a["p50"] <= ka else "not met", a["p50"], ka)
            lines.append("target: %s %s: %s : %s" % (label, sname, what, verdict))
    for variant in ("quiet", "busy"):
        c = by.get((16, 1_000_000, variant))
        label = "N=16 hb 1ms %s" % variant
        if c is None:
            lines.append("target: %s: every system settles in every trial, 0 soak leader changes, "
                         "silent isolation p50 <= 10 ms and >= 5x below keepalived's : "
                         "not run (configuration not in this run)" % label)
            continue
        ka = c.results.get(("keepalived", "b"), {}).get("p50")
        for sname in sysorder(c.systems):
            bad = sum(c.results.get((sname, k), {}).get("unsettled", 0) +
                      c.results.get((sname, k), {}).get("skipped", 0) for k in ("a", "b", "p"))
            errs = c.systems[sname].get("errors") or []
            ran = any((sname, k) in c.results for k in ("a", "b", "p"))
            lines.append("target: %s %s: settles in every trial : %s" % (
                label, sname, "not met (no trial)" if not ran else
                "met" if not bad and not errs else
                "not met (%d unsettled or skipped%s)" % (bad, "; given up" if errs else "")))
            ch = c.soak(sname).get("changes")
            lines.append("target: %s %s: 0 leader changes in the idle soak : %s" % (
                label, sname, "not run (no soak)" if ch is None else
                "%s (%d)" % ("met" if ch == 0 else "not met", ch)))
            if sname == "keepalived":
                continue
            a = c.results.get((sname, "b"))
            if sname == "invitation":
                # protocol.rst: a member forms its own group within the
                # detection window W, and the highest orphan merges the
                # others within 2 x hb-interval + 3 x T + a few frame
                # times (1 ms here); T at most the RTO ceiling with
                # timeout-auto (coord-timeout / 4 = 2 x hb-interval)
                bound = (3 * c.hb_ns + 2 * c.hb_ns + 3 * 2 * c.hb_ns) / 1e6 + 1.0
                what = "merge after a silent coordinator loss p50 <= W + 2 hb + 3 T + 1 ms (%.1f ms)" % bound
                verdict = ("not met (no settled failover)" if not a or a.get("p50") is None else
                           "%s (%.1f ms)" % ("met" if a["p50"] <= bound else "not met", a["p50"]))
            else:
                what = "silent isolation p50 <= 10 ms and >= 5x below keepalived's"
                if not a or a.get("p50") is None or ka is None:
                    verdict = "not met (no settled failover, or no keepalived figure)"
                else:
                    verdict = "%s (%.1f ms, keepalived %.1f ms, %.1fx)" % (
                        "met" if a["p50"] <= 10 and ka >= 5 * a["p50"] else "not met",
                        a["p50"], ka, ka / a["p50"])
            lines.append("target: %s %s: %s : %s" % (label, sname, what, verdict))
    soaked = False
    for c in cfgs:
        if c.hb_ns != 10_000_000:
            continue
        for s in sysorder(c.systems):
            if s == "keepalived":
                continue
            soaked = True
            ch = c.soak(s).get("changes")
            what = "%s %s: 0 leader changes in the idle soak" % (c.name, s)
            lines.append("target: %s : %s" % (what, "not run (no soak)" if ch is None else
                                              "%s (%d)" % ("met" if ch == 0 else "not met", ch)))
    if not soaked:
        lines.append("target: 0 leader changes in idle soaks at hb 10 ms : not run")
    return lines


CSV_HEAD = ["nodes", "hb_us", "variant", "system", "kind", "n", "unsettled", "skipped",
            "cut_while_not_quiet", "left_out_disturbed", "min_ms", "p50_ms",
            "p90_ms", "max_ms", "bound_ms", "p50_over_bound", "p90_over_bound",
            "keepalived_p50_over_p50", "keepalived_p90_over_p90", "detection_p50_ms",
            "election_p50_ms", "announcement_p50_ms", "two_leader_episodes", "two_leader_ms",
            "isolated_p50_ms", "isolated_max_ms", "isolated_stepped_down"] + \
           ["msgs_%s" % t for t in MSG_TYPES] + \
           ["soak_s", "soak_leader_changes", "soak_runs", "cpu_sys_softirq_pct_per_node",
            "cpu_keepalived_pct_per_node", "timer_late_p50", "timer_late_p99", "timer_late_max_us"] + \
           ["msgs_%s" % t for t in MSG_TYPES_JOIN] + \
           ["heal_p50_ms", "heal_max_ms"] + ["msgs_%s" % t for t in MSG_TYPES_MORE]


def csv_rows(c):
    for (s, k), a in sorted(c.results.items(), key=result_order):
        ka = c.results.get(("keepalived", k), {})
        so = c.soak(s)
        tl = so.get("timer_late") or {}
        mm = a.get("msgs") or {}

        def r(x, nd=3):
            return "" if x is None else ("%.*f" % (nd, x) if isinstance(x, float) else x)
        yield [c.n, c.hb_ns // 1000, c.variant, s, k, a["n"], a["unsettled"], a["skipped"],
               a["unquiet"], a["disturbed"], r(a.get("min")),
               r(a.get("p50")), r(a.get("p90")), r(a.get("max")), r(a["bound_ms"]),
               r(a.get("p50_bound")), r(a.get("p90_bound")),
               r(ratio(ka.get("p50"), a.get("p50")) if s != "keepalived" else None),
               r(ratio(ka.get("p90"), a.get("p90")) if s != "keepalived" else None),
               r(a.get("detection")), r(a.get("election")), r(a.get("announcement")),
               a["two_ep"], r(a["two_ms"]), r(a.get("iso_p50")), r(a.get("iso_max")),
               a.get("iso_self", "")] + \
              [r(mm.get(t)) for t in MSG_TYPES] + \
              [r(so.get("soak_s"), 1), so.get("changes", ""),
               "" if so.get("elections") is None else so["elections"], r(so.get("sys_pct")),
               r(so.get("proc_pct")), tl.get("p50") or ("n/a" if s != "keepalived" else ""),
               tl.get("p99") or "", r(tl.get("max_us"), 0) if tl else ""] + \
              [r(mm.get(t)) for t in MSG_TYPES_JOIN] + \
              [r(a.get("heal_p50")), r(a.get("heal_max"))] + \
              [r(mm.get(t)) for t in MSG_TYPES_MORE]


def plot(cfgs, path, datadir):
    """CDF of the crash failovers (kinds a and b) per system, one panel per
    configuration, keepalived on the same axes."""
    cfgs = [c for c in cfgs if c.samples]
    if not cfgs:
        return False
    cols = min(len(cfgs), 4)
    rows = (len(cfgs) + cols - 1) // cols
    script = ["set terminal pngcairo size %d,%d font 'sans,9'" % (480 * cols, 380 * rows),
              "set output '%s'" % path, "set multiplot layout %d,%d" % (rows, cols),
              "set logscale x", "set grid", "set key bottom right", "set yrange [0:1]",
              "set xlabel 'failover latency (ms, log scale)'", "set ylabel 'fraction of crashes'"]
    styles = {"keepalived": "lw 3 lc rgb 'black'"}
    for ci, c in enumerate(cfgs):
        plots = []
        for s in sysorder({s for s, _ in c.samples}):
            v = sorted(c.samples.get((s, "a"), []) + c.samples.get((s, "b"), []))
            if not v:
                continue
            f = os.path.join(datadir, "cdf-%d-%s.dat" % (ci, s))
            with open(f, "w") as fh:
                for j, x in enumerate(v):
                    fh.write("%.4f %.4f\n" % (max(x, 0.001), (j + 1) / len(v)))
            plots.append("'%s' using 1:2 with steps %s title '%s'" % (f, styles.get(s, "lw 2"), s))
        bound = c.hb_ns * 3 / 1e6
        script.append("set title '%s (crash + isolation)'" % c.name)
        script.append("set arrow 1 from %g, graph 0 to %g, graph 1 nohead dt 2 lc rgb 'gray'" % (bound, bound))
        if plots:
            script.append("plot " + ", ".join(plots))
    script.append("unset multiplot")
    subprocess.run(["gnuplot"], input="\n".join(script) + "\n", text=True, check=True)
    return True


HEADER = """# Failover latency: election.ko against keepalived (VRRPv3)

Generated by `make bench-failover` (tests/bench/failover: run, driver.py,
analyze.py, keepalived.conf.in); do not edit. %(quick)s

## Method

Each configuration (N nodes x heartbeat interval x quiet/busy guest) runs in
one QEMU boot (TCG, %(vm)s): N network namespaces on one bridge (veth
pairs), node id = rank 1..N, the best id leads (the highest; the lowest,
1, for min-bully). The systems run one after
the other on that topology: keepalived (VRRPv3, multicast, advert_int 10 ms,
its minimum, in every configuration; priority 100 + id, preemption on, no
preempt delay) and election.ko (%(systems)s; hb-interval HB, hb-miss 3,
timeout 2 x HB, coord-timeout 4 x timeout; %(detector)s; bully-noask is bully with
`ask-suspect off`, ring-nosuppress the ring with `suppress off`, min-bully
Kabashi, Zeqiri and Zabeli's variant (the lowest id wins), enh-bully
Murshed and Allen's Enhanced Bully (candidates first)). Busy: one `sh -c 'while :; do :; done'` per
vCPU during each system's trials and soak.

Per system, %(crashes)s crashes of each kind and %(handovers)s planned handovers, in a
seeded random order, each after a random sleep in [0, heartbeat period)
(seeded): (a) the leader's eth0 goes down inside its namespace (election.ko
stops its instance, VRRP goes to FAULT); (b) silent isolation: tc matchall
drop filters on the leader's bridge port, ingress and egress (carrier stays
up: the isolated leader keeps leading); (p) `GROUP_STOP` on the leader /
SIGTERM to the leader's keepalived (which sends a priority-0 advert). Then the
undo (link up, filters deleted, GROUP_START / keepalived restarted) and the
group settles on the leader again (the leader: the node the group agrees on
before the cut, which must be the best id; read from the nodes' events,
never assumed) (agreement, then no event for the
stable window, max(50 ms, 10 x bound)) before the next trial; a trial whose
group agrees but never stays that quiet is cut anyway ("cut while not
quiet"), one without agreement within 5 s is skipped, and a system is
given up after 5 such trials in a row or 10 in all (listed as errors). Then an idle soak of
%(soak)s s without crashes.

Timestamps are the guest's CLOCK_MONOTONIC for both systems: the cut is
stamped by the driver just before the one netlink sendmsg (or kill) that
cuts; election.ko's events carry the kernel's ts_ns (one `electionctl -j
monitor` per namespace, started once); keepalived's state changes come
through its `notify_fifo`, read by one reader process (SCHED_FIFO) that
stamps each line on arrival. The driver waits on these streams (select;
no polling, no process per node while measuring); it reads the tx counters
with STATS_GET over its own generic netlink sockets after each failover
and after each settle back, outside the measured windows, and runs
`electionctl -j stats` once per node at the end of each system.

Definitions: **failover** = cut -> the last event after which every survivor
follows the same surviving leader (election.ko: each survivor's last
leader_changed names it, none stopped; keepalived: one survivor MASTER,
every other survivor BACKUP) and keeps doing so to the end of the measured
window, which closes when the driver has seen that agreement hold for its
stable window; trials without it are
"unsettled" and left out, and so are trials with an event of the system
stamped during the random sleep before the cut (the group was already
moving: "left out" in the notes; n counts neither skipped nor left-out
trials). **detection** = cut ->
first election_started, or leader_changed away from the old leader, on a
survivor; **election** = cut -> first leader_changed to the new leader;
**announcement** = the failover. **2 leaders** = episodes and total time in
which two or more survivors lead at once (themselves as leader / MASTER),
summed over the table's trials. **isolated** (kind b) = cut -> the isolated
leader's first step down (or, if it never steps down, until no survivor
leads after the heal); "stepped down alone" counts step downs before the
heal, so without one the figure is the harness's isolation time, not a
property of the protocol. **heal -> one leader** (kind b) = the undo (the
filters deleted) -> the last event after which every node, the isolated
one included, follows the same leader until the driver saw the group
settled back (for invitation: the merge of the isolated node's group).
**bound** = hb-interval x hb-miss (keepalived:
3 x advert_int). **frames per failover** = the survivors' tx counters per
type (E election, A answer, C coordinator, H heartbeat, ACK, R retry,
Q query, CID cid, AYC are_you_coord, AYCR ayc_reply, INV invite, ACC
accept, RDY ready, ALV alive),
mean over the trials, from the stats before the cut to the stats after the
settle (heartbeats of the settle window included). **leader changes** in the soak = takeovers: a node entering
the leader role (its own leader_changed to itself; keepalived: entries into MASTER), summed over
the nodes; **runs** = election_started events in the soak (false suspicions: with ask-suspect on,
a run that ends with the same leader is no leader change). **CPU** = the guest's
system + softirq time during the idle soak (/proc/stat) / N, as %% of one
CPU, next to keepalived's processes' utime + stime / N during its soak.
**timer lateness**: from `electionctl -j stats` `timer_late` (summed over the
nodes) when the module reports it, else n/a. Percentiles are nearest-rank.

Run: %(duration)s on %(machine)s; guest kernel %(guest_kernel)s. The guest is a TCG VM whose timers
alone are late by tens of microseconds on average and by milliseconds in the
tail (tests/vm/README); compare medians and tails, not single trials.

"""


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--out-dir", default=".")
    p.add_argument("--quick", action="store_true")
    p.add_argument("raw", nargs="+")
    a = p.parse_args()
    cfgs = [Config(d) for d in a.raw if os.path.exists(os.path.join(d, "runs.jsonl"))]
    cfgs = [c for c in cfgs if c.meta]
    if not cfgs:
        print("analyze: no runs.jsonl with a meta record in %s" % a.raw, file=sys.stderr)
        return 1
    cfgs.sort(key=lambda c: (c.n, -c.hb_ns, c.variant != "quiet"))
    host = {}
    hp = os.path.join(os.path.dirname(os.path.abspath(a.raw[0])), "host.json")
    if os.path.exists(hp):
        with open(hp) as f:
            host = json.load(f)
    os.makedirs(a.out_dir, exist_ok=True)
    dur = host.get("seconds")
    m0 = cfgs[0].meta
    info = {
        "quick": ("\n\n**QUICK run** (`make bench-failover QUICK=1`): a subset to check the "
                  "harness, not the benchmark." if a.quick else ""),
        "vm": "%s vCPUs, %d MiB" % (m0.get("guest_cpus"), m0.get("guest_mem_kb", 0) // 1024),
        "systems": ", ".join(s for s in ORDER if s != "keepalived" and
                             any(s in (c.meta.get("systems") or []) for c in cfgs)),
        "detector": detector_str(m0),
        "crashes": m0.get("crashes"), "handovers": m0.get("handovers"), "soak": fmt(m0.get("soak_s"), 0),
        "duration": ("%.0f min (%s to %s UTC)" % (dur / 60, host.get("start", "?"), host.get("end", "?"))
                     if dur else "duration unknown"),
        "machine": host.get("machine", "an unknown machine"),
        "guest_kernel": ", ".join(sorted({c.meta.get("guest_kernel") or "unknown" for c in cfgs})),
    }
    md = [HEADER % info]
    tl = targets(cfgs)
    md.append("## Targets (reported, not asserted)\n\n```\n" + "\n".join(tl) + "\n```\n")
    for c in cfgs:
        md.append(config_md(c))
    md.append("## Files\n\n`failover.csv`: one row per configuration x system x kind with "
              "the figures above. `failover-cdf.png`: CDF of the crash failovers (kinds a and b "
              "pooled) per system and configuration; the dashed line is the detection bound.\n")
    with open(os.path.join(a.out_dir, "failover.md"), "w") as f:
        f.write("\n".join(md))
    with open(os.path.join(a.out_dir, "failover.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(CSV_HEAD)
        for c in cfgs:
            for row in csv_rows(c):
                w.writerow(row)
    datadir = os.path.join(os.path.dirname(os.path.abspath(a.raw[0])), "plotdata")
    os.makedirs(datadir, exist_ok=True)
    try:
        plot(cfgs, os.path.join(a.out_dir, "failover-cdf.png"), datadir)
    except (OSError, subprocess.CalledProcessError) as e:
        print("analyze: gnuplot failed: %s" % e, file=sys.stderr)
    # the figures, then the targets, on stdout
    for c in cfgs:
        print("== %s" % c.name)
        for (s, k), r in sorted(c.results.items(), key=result_order):
            print("  %-16s %s n=%-3d unsettled=%d failover ms min/p50/p90/max %s/%s/%s/%s  2-leader %d/%.1f ms" % (
                s, k, r["n"], r["unsettled"], fmt(r.get("min")), fmt(r.get("p50")), fmt(r.get("p90")),
                fmt(r.get("max")), r["two_ep"], r["two_ms"]))
        for s in sysorder(c.systems):
            so = c.soak(s)
            print("  %-16s soak: %s leader changes (%s runs), sys+softirq/N %s%%, keepalived/N %s%%, timer lateness %s%s" % (
                s, so.get("changes"), "-" if so.get("elections") is None else so["elections"], fmt(so.get("sys_pct"), 2), fmt(so.get("proc_pct"), 2),
                so.get("timer_late") or "n/a", ", ERRORS: " + "; ".join(so["errors"]) if so["errors"] else ""))
    for line in tl:
        print(line)
    print("analyze: wrote %s/failover.md, failover.csv, failover-cdf.png" % a.out_dir)
    return 0


if __name__ == "__main__":
    sys.exit(main())
