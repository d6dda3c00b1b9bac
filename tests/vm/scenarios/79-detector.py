#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The failure detector and timeout auto turned on and off on a running
group with peers (group set), and what -j show and -j stats report of them.

Three bully nodes, the default timing (hb-interval 100ms hb-miss 5),
started with `detector fixed`: every peer's detect_window_ns is the fixed
window (500 ms) and no rtt_ns is reported (nothing is measured). `group
set detector adaptive` on every node, the group keeping its leader: after
a few heartbeats the followers' window for the leader lies between the
floor (2 x hb-interval) and detector-max (10 x 100 ms x 5), and is not
the fixed one. detector-max below 2 x hb-interval is refused with its
message and changes nothing. `group set timeout auto` and an election
(`group elect` on node 1: ELECTION to 2 and 3, their ANSWERs) give node 1
a round trip for each of 2 and 3 (rtt_ns > 0 and below coord-timeout).
The leader's crash is suspected (suspicions > 0) and the survivors agree
on 2. `timeout DUR` turns timeout-auto off, `detector fixed` brings the
fixed window back."""

import os
import sys

sys.path.insert(0, os.path.join(os.environ.get("ELECTION_REPO", "."),
                                "tests", "lib"))
from electest.scenario import Scenario, dur, indent, sec  # noqa: E402

s = Scenario()
s.up(1, 2, 3)


def peer_key(i, peer, key):
    """Node @i's @key for @peer (None if it has none)."""
    return [p.get(key) for p in s.show(i, 1)["peers"] if p["id"] == peer][0]


def expect(desc, want, got):
    """PASS if @got is @want."""
    if got == want:
        return s.pass_("%s: %s" % (desc, got))
    return s.fail("%s: got %s, want %s" % (desc, got, want))


def within(desc, lo, hi, got):
    """PASS if @got is an integer in [@lo, @hi]."""
    if isinstance(got, int) and lo <= got <= hi:
        return s.pass_("%s: %d in [%d, %d]" % (desc, got, lo, hi))
    return s.fail("%s: got %s, want [%d, %d]" % (desc, got, lo, hi))


def set1(i, *args):
    return s.ctl(i, "group", "set", "dev", "eth0", "group", 1, *args)


s.log("--- detector fixed: the fixed window, nothing measured")
s.group_setup(1, opts=["detector", "fixed"])
s.start_all(1)
s.agree(1, 3, stable=1)
d = s.show(1, 1)
hb_ns = d["hb_interval_ns"]
FIXED = hb_ns * 5
expect("node 1: detector", "fixed", d["detector"])
expect("node 1: timeout-auto", False, d["timeout_auto"])
expect("node 1: the leader's window is hb-interval x hb-miss", FIXED,
       peer_key(1, 3, "detect_window_ns"))
expect("node 1: no round trip reported", None, peer_key(1, 3, "rtt_ns"))

s.log("--- group set detector adaptive on a running group")
for i in (1, 2, 3):
    s.check("node %d: group set detector adaptive" % i,
            set1(i, "detector", "adaptive"))
expect("node 1: detector", "adaptive", s.show(1, 1)["detector"])
# a few heartbeats' gaps, the group keeping its leader
s.agree(1, 3, stable=sec(1.5))
MAX = 10 * hb_ns * 5
for i in (1, 2):
    w = peer_key(i, 3, "detect_window_ns")
    within("node %d: the leader's adaptive window (floor 2 x hb, ceiling "
           "detector-max)" % i, 2 * hb_ns, MAX, w)
    s.either(w != FIXED,
             "node %d: the adaptive window is not the fixed one (%s)" % (i, w),
             "node %d: the adaptive window is the fixed one (%s)" % (i, w))


def config(i):
    """Node @i's -j show without what moves (peers, term, heard_ms_ago)."""
    return {k: v for k, v in s.show(i, 1).items()
            if k not in ("peers", "term", "heard_ms_ago")}


s.log("--- detector-max below 2 x hb-interval: refused, nothing changes")
before = config(1)
r = set1(1, "detector-max", "%dus" % (hb_ns * 3 // 2000))
sys.stdout.write(indent(r.text))
s.either(r.rc != 0 and
         "detector-max may not be below 2 x hb-interval" in r.text,
         "detector-max 1.5 x hb-interval refused with its message",
         "detector-max 1.5 x hb-interval: rc=%d" % r.rc)
after = config(1)
s.check("node 1's configuration unchanged by the refusal", before == after,
        "" if before == after else "%s\n%s" % (before, after))

s.log("--- timeout auto: round trips from an election")
s.check("node 1: group set timeout auto", set1(1, "timeout", "auto"))
expect("node 1: timeout-auto", True, s.show(1, 1)["timeout_auto"])
s.check("node 1: group elect (ELECTION to 2 and 3)",
        s.ctl(1, "group", "elect", "dev", "eth0", "group", 1))
s.agree(1, 3, stable=1)
coord = s.show(1, 1)["coord_timeout_ns"]
for p in (2, 3):
    within("node 1: rtt_ns of peer %d (0 < SRTT < coord-timeout)" % p, 1,
           coord, peer_key(1, p, "rtt_ns"))

s.log("--- the leader's crash is suspected; the survivors agree on 2")
s0 = s.stats(1, 1)["suspicions"]
s.node_crash(3)
s.agree(1, 2, stable=1)
s1 = s.stats(1, 1)["suspicions"]
s2 = s.stats(2, 1)["suspicions"]
s.either(s1 + s2 > s0,
         "suspicions counted (%d before; nodes 1 and 2 now %d, %d)" % (
             s0, s1, s2),
         "no suspicion counted (%d before; nodes 1 and 2 now %d, %d)" % (
             s0, s1, s2))

s.log("--- back: timeout DUR turns timeout-auto off, detector fixed the "
      "window")
s.check("node 1: group set timeout 100ms", set1(1, "timeout", dur("100ms")))
expect("node 1: timeout-auto", False, s.show(1, 1)["timeout_auto"])
s.check("node 1: group set detector fixed", set1(1, "detector", "fixed"))
expect("node 1: the leader's window is the fixed one again", FIXED,
       peer_key(1, 2, "detect_window_ns"))
s.agree(1, 2, stable=1)

s.finish(1)
