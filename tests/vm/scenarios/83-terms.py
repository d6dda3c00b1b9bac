#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Terms from the wire (review defect 4). A host on the segment (66, no
peer of anybody) forges frames:
 - while node 3 is the only one started (learning), a HEARTBEAT from peer
   42 (42's MAC spoofed) with term 2^40: a learning node accepts any term
   from a configured peer, so 3 follows 42 at 2^40 (a better id: no
   election); asked to elect, it leads above 2^40 (42 is not started);
   17 and 42 start later and, learning too, join the group beyond 2^32,
   and 42 takes over: a reloaded node joins a group with a large term;
 - an ELECTION with term 2^64-1 from 3's id but 66's own MAC: dropped as
   wrong_lladdr by every node;
 - the same with 3's MAC spoofed, then a COORDINATOR and a HEARTBEAT from
   42's id and MAC with terms 2^64-1 and term + 2^33: every node,
   the leader included, drops them as term_too_far; terms, leader and
   election counts stay as they were (before the fix the leader wrapped
   to term 0 and the others kept electing)."""

import os
import sys
import time

REPO = os.environ.get("ELECTION_REPO", ".")
sys.path.insert(0, os.path.join(REPO, "tests", "lib"))
sys.path.insert(0, os.path.join(REPO, "tests", "vm"))
from electest import topo  # noqa: E402
from electest.scenario import Scenario, call, dur, sec  # noqa: E402
import elec_lib  # noqa: E402  (elec.py's subcommands, in process)

s = Scenario()
s.up(3, 17, 42, 66)
s.nodes = [3, 17, 42]       # 66 only forges frames
s.group_setup(1)
MAX64 = (1 << 64) - 1


def forge(desc, typ, src, term, src_mac=""):
    """`elec.py forge` from node 66's eth0, in process: one frame of
    @typ from id @src, group 1; a check that it went out."""
    argv = ["forge", "--dev", "eth0", "--type", typ, "--group", 1,
            "--src", src, "--term", term, "--count", 1]
    if src_mac:
        argv += ["--src-mac", src_mac]
    return s.check(desc, call(elec_lib.main, argv, netns=topo.ns(66)))


def term_of(i):
    return s.show(i, 1)["term"]


def drops(i, why):
    return s.stats(i, 1)["drops"][why]


def ctl_shown(i, *args):
    """electionctl in node @i, its output shown (as bash's bare calls)."""
    r = s.ctl(i, *args)
    if r.text:
        print(r.text)
    return r


s.log("--- a learning node takes a large term from a configured peer")
# a long learning window (30 s) for 3 alone, so the forged frame lands in it
ctl_shown(3, "group", "set", "dev", "eth0", "group", 1, "hb-interval",
          dur("1s"), "hb-miss", 30)
ctl_shown(3, "group", "start", "dev", "eth0", "group", 1)
forge("forged heartbeat from 42 (MAC spoofed), term 2^40, while 3 learns",
      "heartbeat", 42, 1 << 40, topo.mac(42))
time.sleep(sec(0.5))
d = s.show(3, 1)
s.check("3 follows the forged leader 42 (a better id: no election)",
        d["leader"] == 42, "leader %s" % d["leader"])
s.check("at term 2^40", d["term"] == 1 << 40, "term %s" % d["term"])
ctl_shown(3, "group", "set", "dev", "eth0", "group", 1, *s.timing.split())
# 42 is not started: asked, it cannot answer, and 3 takes over
s.check("group elect on 3", s.ctl(3, "group", "elect", "dev", "eth0",
                                  "group", 1))
s.agree(1, 3, ids=[3])
T3 = term_of(3)
s.check("3 leads above 2^40 (term %d)" % T3, T3 > 1 << 40)
s.start_all(1, [17, 42])
s.agree(1, 42, stable=1)
T = term_of(42)
s.check("17 and 42 started later joined; 42 leads in term %d > 2^32" % T,
        T > 1 << 32)
E = {i: s.stats(i, 1)["elections"] for i in s.nodes}

s.log("--- a forged source address")
forge("forged ELECTION from id 3 with 66's own MAC, term 2^64-1",
      "election", 3, MAX64)
time.sleep(sec(0.5))
for i in (17, 42):
    s.check("node %d dropped it as wrong_lladdr" % i,
            drops(i, "wrong_lladdr") >= 1)

s.log("--- terms too far ahead")
forge("forged ELECTION from 3 (3's MAC spoofed), term 2^64-1",
      "election", 3, MAX64, topo.mac(3))
forge("forged COORDINATOR from 42 (42's MAC spoofed), term 2^64-1",
      "coordinator", 42, MAX64, topo.mac(42))
forge("forged HEARTBEAT from 42, term + 2^33",
      "heartbeat", 42, T + (1 << 33), topo.mac(42))
time.sleep(sec(3))
s.check("17 dropped three as term_too_far", drops(17, "term_too_far") >= 3)
s.check("3 dropped two as term_too_far (its own id is unknown_peer)",
        drops(3, "term_too_far") >= 2)
s.check("the leader 42 dropped the ELECTION as term_too_far",
        drops(42, "term_too_far") >= 1)
s.agree(1, 42, stable=1)
for i in s.nodes:
    got = term_of(i)
    s.check("node %d: term unchanged (%d), no wrap" % (i, T), got == T,
            "term %d" % got)
for i in s.nodes:
    got = s.stats(i, 1)["elections"]
    s.check("node %d: no election since the forged frames" % i, got == E[i],
            "elections %d, before %d" % (got, E[i]))
# the forged MACs made the bridge learn 3 and 42 on 66's port for a moment;
# the group recovers on its own once their frames flow again
s.views(1)
s.finish(1)
