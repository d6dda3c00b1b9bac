#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""One frame, many frames out (review defect 6). Node 2 has 200 higher
peers (3..202) that exist only as MAC addresses and one lower peer, 1. A
host on the segment (66) forges, in rounds, a COORDINATOR from 1 (its MAC
spoofed) with a newer term each round: 2 accepts the lower leader and,
preempting, begins an election that sends 200 ELECTION frames (T is 1
ms, so every run ends, unanswered, with 2 leading again before the next
round). Elections started by received frames are rate limited:
ELECTION_RX_ELECT_BURST (8), then one per coord-timeout (1 s here);
every refusal is counted in elections_limited. Then ELECTIONs from 1 to
the leader 2: answered and re-announced to, and no run at all. elec.py
forge runs in process, in 66's namespace."""

import os
import sys
import time

REPO = os.environ.get("ELECTION_REPO", ".")
sys.path.insert(0, os.path.join(REPO, "tests", "lib"))
sys.path.insert(0, os.path.join(REPO, "tests", "vm"))
from electest import topo  # noqa: E402
from electest.scenario import Scenario, call, dur, sec  # noqa: E402
# the forged frames (`elec.py forge`)
import elec_lib  # noqa: E402

ROUNDS = 60


def forge(*args):
    """elec.py forge --dev eth0 ARGS, in 66's namespace; a Result."""
    return call(elec_lib.main, ["forge", "--dev", "eth0", *args],
                netns=topo.ns(66))


s = Scenario()
s.up(2, 66)
s.nodes = [2]

s.ctl(2, "group", "add", "dev", "eth0", "group", 1, "id", 2, "algo", "bully",
      "hb-interval", dur("1s"), "hb-miss", 5, "timeout", "1ms",
      "coord-timeout", dur("1s"))
s.ctl(2, "peer", "add", "dev", "eth0", "group", 1, "id", 1, "lladdr",
      topo.mac(1))


def peers():
    for p in range(3, 203):
        r = s.ctl(2, "peer", "add", "dev", "eth0", "group", 1, "id", p,
                  "lladdr", topo.mac(p))
        if r.rc != 0:
            return r
    return True


s.check("200 higher peers (3..202)", peers)


def leads():
    return s.wait_for(s.bound, lambda: s.show(2, 1)["role"] == "leader")


s.ctl(2, "group", "start", "dev", "eth0", "group", 1)
s.check("2 leads", leads)

st = s.stats(2, 1)
tx0, el0 = st["tx"]["election"], st["elections"]
t0 = time.monotonic()
s.check("%d rounds of forged COORDINATORs from 1, terms 1, 3, 5, ..." %
        ROUNDS, forge("--type", "coordinator", "--src", 1, "--dst", 2,
                      "--term", 1, "--term-step", 2, "--src-mac", topo.mac(1),
                      "--count", ROUNDS))
dt = time.monotonic() - t0
time.sleep(sec(0.5))
st = s.stats(2, 1)
tx = st["tx"]["election"] - tx0
el = st["elections"] - el0
lim = st["elections_limited"]
s.log("in %.2fs: %d COORDINATORs from 1 -> %d elections, %d limited, %d "
      "ELECTION frames out" % (dt, ROUNDS, el, lim, tx))
mx = int(8 + dt / 1 + 2)
s.check("elections started by the frames: %d <= %d (burst 8 + one per "
        "second)" % (el, mx), el <= mx)
s.check("at least the burst ran: %d >= 8" % el, el >= 8)
s.check("the refusals are counted: elections_limited %d >= %d" % (
    lim, ROUNDS - mx), lim >= ROUNDS - mx)
s.check("frames out bounded: %d <= 200 x %d" % (tx, mx), tx <= 200 * mx)
s.check("2 leads again", leads)

st = s.stats(2, 1)
an0, co0, el0 = st["tx"]["answer"], st["tx"]["coordinator"], st["elections"]
s.check("%d ELECTIONs from 1 to the leader" % ROUNDS,
        forge("--type", "election", "--src", 1, "--dst", 2, "--term", 0,
              "--src-mac", topo.mac(1), "--count", ROUNDS))
time.sleep(sec(0.5))
st = s.stats(2, 1)
an = st["tx"]["answer"] - an0
co = st["tx"]["coordinator"] - co0
el = st["elections"] - el0
s.check("every ELECTION from 1 answered (%d) and re-announced to (%d)" % (
    an, co), an >= ROUNDS and co >= ROUNDS)
s.check("no election run (%d)" % el, el == 0)
s.check("2 still leads", leads)
s.finish(1)
