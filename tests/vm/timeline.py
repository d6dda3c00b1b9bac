#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Merge `electionctl -j monitor` logs into one readable timeline.

  timeline.py DIR

DIR holds mon-<ID>.jsonl (one node's monitor output, one JSON object a line)
and marks.jsonl (lines {"ts_ns": N, "mark": "crash", "node": ID, "text": ..}
written by tests/vm/demo.py with CLOCK_MONOTONIC, the clock of the kernel's
ts_ns).
Prints every event relative to the first mark, then a summary of each phase:
when every live node had settled on the leader, and for a crash or a
handover the detection, election and failover times from the cut (a
crash mark with "cut_span_ns" is the cut itself; a handover's cut is the
leader's own "stopped" event). Exit 1 if a phase did not settle, or if
the survivors agreed before its cut (a stamp on the wrong clock); no
latency threshold.
"""

import glob
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from electest.events import load_jsonl as load  # noqa: E402


def describe(ev):
    e = ev.get("event")
    leader = ev.get("leader")
    if e == "leader_changed":
        return "leader -> %s (term %s)" % ("none" if leader is None else leader, ev.get("term"))
    if e in ("peer_down", "peer_up"):
        return "%s %s" % (e.replace("_", " "), ev.get("peer"))
    if e == "gap":
        return "lost %s events" % ev.get("lost")
    return e.replace("_", " ")


def settle(events, start, end, expect, nodes):
    """ts of the first moment in [start, end) from which every node of
    `nodes` follows `expect` (its last leader_changed is to `expect`);
    later excursions (a false suspicion that ends with the same leader)
    do not move it."""
    leader = {}
    for ev in sorted(events, key=lambda e: e["ts_ns"]):
        ts = ev["ts_ns"]
        if ts >= end:
            break
        if ev.get("event") != "leader_changed":
            continue
        leader[ev["node"]] = ev.get("leader")
        if ts >= start and all(leader.get(n) == expect for n in nodes):
            return ts, []
    return None, [n for n in nodes if leader.get(n) != expect]


def leaders_in(events, start, end, nodes):
    """Two or more of `nodes` in the leader role (leader == own id) during
    [start, end): total and longest time in ns; and the highest term at
    the end minus the highest before `start`."""
    leading = {}
    term_before = term_after = 0
    total = longest = 0
    since = None
    now = start
    for ev in sorted(events, key=lambda e: e["ts_ns"]):
        ts = ev["ts_ns"]
        if ts >= end:
            break
        if ts >= start:
            now = ts
        if ev.get("term") is not None:
            if ts < start:
                term_before = max(term_before, ev["term"])
            term_after = max(term_after, ev["term"])
        if ev.get("event") not in ("leader_changed", "stopped"):
            continue
        n = ev["node"]
        leading[n] = (ev.get("event") == "leader_changed" and
                      ev.get("leader") == n)
        count = sum(1 for x in nodes if leading.get(x))
        if count >= 2 and since is None:
            since = max(ts, start)
        elif count < 2 and since is not None:
            if ts >= start:
                d = ts - since
                total += d
                longest = max(longest, d)
            since = None
    if since is not None:
        d = max(now, since) - since
        total += d
        longest = max(longest, d)
    return total, longest, term_after - term_before


def main(argv):
    """The command line on @argv (its arguments: DIR); tests/vm/demo.py
    calls it in process."""
    if len(argv) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    d = argv[0]
    marks = load(os.path.join(d, "marks.jsonl"))
    events = []
    for p in sorted(glob.glob(os.path.join(d, "mon-*.jsonl"))):
        node = int(os.path.basename(p)[4:-6])
        for ev in load(p):
            if "ts_ns" not in ev:
                ev["ts_ns"] = 0
            ev["node"] = ev.get("id", node)
            events.append(ev)
    if not marks:
        print("no marks in %s" % d, file=sys.stderr)
        return 1
    t0 = marks[0]["ts_ns"]
    rows = [(m["ts_ns"], 0, "----", ">> " + m["text"]) for m in marks]
    rows += [(ev["ts_ns"], 1, str(ev["node"]), describe(ev)) for ev in events]
    rows.sort(key=lambda r: (r[0], r[1]))
    print("%10s  %-6s %s" % ("t (ms)", "node", "event"))
    for ts, _, node, text in rows:
        print("%10.3f  %-6s %s" % ((ts - t0) / 1e6, node, text))

    print()
    print("summary (from the kernel's CLOCK_MONOTONIC event timestamps):")
    ok = True
    for i, m in enumerate(marks):
        if "expect" not in m:
            continue
        end = marks[i + 1]["ts_ns"] if i + 1 < len(marks) else 1 << 63
        ts, missing = settle(events, m["ts_ns"], end, m["expect"], m["nodes"])
        if ts is None:
            print("  %-34s leader %s NOT settled on %s" % (m["text"], m["expect"], missing))
            ok = False
            continue
        print("  %-34s leader %-5s on all %d nodes after %8.3f ms" %
              (m["text"], m["expect"], len(m["nodes"]), (ts - m["ts_ns"]) / 1e6))
        total, longest, terms = leaders_in(events, m["ts_ns"], end, m["nodes"])
        label = ("  two leaders among survivors:"
                 if m.get("mark") in ("crash", "handover")
                 else "  takeover overlap (two leaders):"
                 if m.get("mark") == "return" else "  two leaders:")
        print("  %-34s %8.3f ms in all, longest %.3f ms" %
              (label, total / 1e6, longest / 1e6))
        print("  %-34s %8d" % ("  terms:", terms))
        if m.get("mark") in ("crash", "handover"):
            # The cut: a mark with cut_span_ns was stamped by the process
            # that cut the link, just before its request (tests/vm/demo.py's
            # rtnetlink RTM_NEWLINK), at most cut_span_ns before it took
            # effect. A planned stop is
            # stamped by the leader's kernel: its "stopped" event, taken
            # before it sends its leaving heartbeat. (The "stopped" event of
            # a link cut is no cut: it follows the carrier change that the
            # kernel's linkwatch work reports, which on a busy host comes
            # after the survivors have already agreed.)
            if "cut_span_ns" in m:
                cut = m["ts_ns"]
                how = ("demo.py's stamp, at most %.3f ms before the link went down"
                       % (m["cut_span_ns"] / 1e6))
            else:
                cut = next((ev["ts_ns"] for ev in events
                            if m["ts_ns"] <= ev["ts_ns"] < end and ev.get("event") == "stopped"
                            and ev["node"] == m.get("node")), None)
                how = "the leader's own stopped event (before its leaving heartbeat)"
                if cut is None:
                    cut, how = m["ts_ns"], "the mark (no stopped event)"
            first = [ev for ev in events
                     if cut <= ev["ts_ns"] < end and ev.get("event") == "election_started"
                     and ev["node"] in m["nodes"]]
            lat = (ts - cut) / 1e6
            print("  %-34s %s" % ("  cut:", how))
            if first:
                det = (first[0]["ts_ns"] - cut) / 1e6
                print("  %-34s %8.3f ms (cut -> first election_started)" % ("  detection:", det))
                print("  %-34s %8.3f ms (first election_started -> every survivor follows %s)"
                      % ("  election:", lat - det, m["expect"]))
            print("  %-34s %8.3f ms (%s -> every survivor follows %s)"
                  % ("  FAILOVER LATENCY:", lat,
                     "leader stopped" if m.get("mark") == "handover"
                     else "leader cut off", m["expect"]))
            if ts < cut:
                print("  %-34s the survivors agreed %.3f ms BEFORE the cut: "
                      "the cut's stamp is wrong" % ("  NEGATIVE LATENCY:", -lat))
                ok = False
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
