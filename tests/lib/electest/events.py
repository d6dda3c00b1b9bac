# SPDX-License-Identifier: GPL-2.0
"""Event streams: `elec.py watch` records (polls and events of a group)
and the leader intervals rebuilt from them; `electionctl -j monitor`
captures (sequence and order checks); JSON lines files; percentiles."""

import json
import os


def load_jsonl(path):
    """The JSON objects of a JSON lines file (lines that do not parse,
    such as one cut short by a stop, skipped); [] if there is no file."""
    out = []
    if not os.path.exists(path):
        return out
    with open(path) as f:
        for line in f:
            try:
                out.append(json.loads(line))
            except ValueError:
                pass
    return out


def pct(vals, p, empty=None):
    """Nearest-rank percentile (p in 0..100) of @vals; @empty if none."""
    v = sorted(vals)
    if not v:
        return empty
    k = max(0, min(len(v) - 1, int(-(-p * len(v) // 100)) - 1))
    return v[k]

# ------------------------------------------------------------ watch ---


def role_intervals(rec, quorum):
    """Per node, the intervals [start, end] (CLOCK_MONOTONIC ns) it held
    the role leader, from its leader_changed events (kernel ts_ns) and
    the first poll (the state when the watch began). Each event carries
    the role the core call left: the node leads from an event naming
    itself in role leader, and stops at one in another role (with quorum
    on: its claim, role candidate, or its majority lapsing) or naming
    another leader, or none, or a stop. (An event without a role, from an
    older module: with quorum off a node leads from the event naming
    itself; with quorum on such an event is its claim, and a second one
    naming itself again its confirmation.)"""
    first = {}
    for p in rec["polls"]:
        for nid, t0, t1, role, leader, _ in p:
            first.setdefault(nid, (t0, t1, role, leader))
    t_end = rec["end"]
    out = {}
    for nid in rec["nodes"]:
        t0, t1, role, prev = first.get(nid, (rec["start"], rec["start"], "?", 0))
        start = rec["start"] if role == "leader" else None
        iv = []
        for e in rec["events"].get(nid, []):
            if e["ts"] < t0:
                continue	# already in the first poll
            if e["ev"] == "stopped":
                if start is not None:
                    iv.append([start, e["ts"]])
                    start = None
                continue
            if e["ev"] != "leader_changed":
                continue
            lead = e["leader"]
            if e.get("role", "?") != "?":
                now_leader = lead == nid and e["role"] == "leader"
                ends = not now_leader
            else:
                now_leader = lead == nid and (not quorum or prev == nid)
                ends = lead != nid
            if now_leader and start is None:
                start = e["ts"]
            elif ends and start is not None:
                iv.append([start, e["ts"]])
                start = None
            prev = lead
        if start is not None:
            iv.append([start, None])
        out[nid] = iv
    return out, t_end


def read_watch(path):
    rec = {"polls": [], "events": {}, "lost": 0, "nodes": [], "start": 0,
           "end": 0, "real": 0}
    with open(path) as f:
        for line in f:
            try:
                o = json.loads(line)
            except ValueError:
                continue	# a line cut short by the stop
            k = o.get("k")
            if k == "start":
                rec["nodes"] = o["nodes"]
                rec["start"] = o["mono_ns"]
                rec["real"] = o["real_ns"]
            elif k == "p":
                rec["polls"].append(o["s"])
                rec["end"] = max(rec["end"], max(x[2] for x in o["s"]))
            elif k == "e":
                rec["events"].setdefault(o["n"], []).append(o)
                rec["end"] = max(rec["end"], o["ts"] or 0)
            elif k == "lost":
                rec["lost"] += 1
            elif k == "stats":
                rec.setdefault("stats", {}).setdefault(o["n"], {})[o["when"]] = o
            elif k == "end":
                rec["end"] = max(rec["end"], o["mono_ns"])
                rec["counts"] = o
    for evs in rec["events"].values():
        evs.sort(key=lambda e: (e["ts"], e["seq"]))
    return rec

# ---------------------------------------------------------- monitor ---


def monitor_check(path):
    """Judge an `electionctl -j monitor` capture: a dict with "seqs" (the
    events' SEQ, in order), "lost" (gap lines), "bad" (steps not +1),
    "backwards" ((seq, (ifindex, group)) of events older than their
    instance's one before), "last_leader" ({group: leader of its last
    leader_changed}); "error": a line that is not JSON."""
    seqs, last_leader, lost = [], {}, 0
    last_ts, backwards = {}, []
    with open(path) as f:
        for line in f:
            line = line.strip()
            if not line:
                continue
            try:
                ev = json.loads(line)
            except ValueError:
                return {"error": line[:120]}
            if "lost" in ev:
                lost += 1
                continue
            # a snapshot (the monitor's first lines) is not an event
            if "seq" not in ev or ev.get("event") == "snapshot":
                continue
            seqs.append(ev["seq"])
            key = (ev.get("ifindex"), ev.get("group"))
            if ev.get("ts_ns", 0) < last_ts.get(key, 0):
                backwards.append((ev["seq"], key))
            last_ts[key] = max(last_ts.get(key, 0), ev.get("ts_ns", 0))
            if ev.get("event") == "leader_changed":
                last_leader[ev["group"]] = ev.get("leader")
    bad = [(x, y) for x, y in zip(seqs, seqs[1:]) if y != x + 1]
    return {"seqs": seqs, "lost": lost, "bad": bad, "backwards": backwards,
            "last_leader": last_leader}
