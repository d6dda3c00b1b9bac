#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""make vmtest-long: the Invitation algorithm under partitions that flap
for a minute (ELEC_FLAP_SECONDS). 8 nodes (ids 1..8) on two bridges joined
by a veth pair (as in scenarios/77-invitation.py); every 0.2 to 2 s the
pair goes down (a split) or up (a heal), at random (seed 77), and now and
then a random node moves to the other bridge, so the halves change. At
the end the partition heals: every node must be in one group under 8
within the liveness bound, stay there, and the module must unload
clean."""

import io
import os
import random
import sys
import time

sys.path.insert(0, os.path.join(os.environ.get("ELECTION_REPO", "."),
                                "tests", "lib"))
from electest import checks  # noqa: E402
from electest.scenario import Scenario, run, sec  # noqa: E402

s = Scenario()
s.algo = "invitation"
IDS = list(range(1, 9))
DURATION = int(os.environ.get("ELEC_FLAP_SECONDS") or 60)


def ipsw(*args):
    """ip -n esw ARGS; a Result."""
    return run(["ip", "-n", "esw"] + list(args))


def one_group(desc, stable=0):
    out = io.StringIO()
    rc = checks.groups([s.nodes_of()], 1, s.bound, stable, out=out, err=out)
    return s.check(desc, rc == 0, out.getvalue())


if not (s.load() and s.topo(*IDS)):
    s.end()
s.two_bridges(5, 6, 7, 8)
s.group_setup(1)
s.start_all(1)
one_group("one group under 8 after the start")

rng = random.Random(77)
end = time.monotonic() + DURATION
splits = heals = moves = 0
while time.monotonic() < end:
    r = rng.randrange(4)
    if r == 0:
        ipsw("link", "set", "bl0", "up")
        heals += 1
    elif r == 1:
        # a node changes sides
        ipsw("link", "set", "p%d" % rng.choice(IDS), "master",
             rng.choice(("br0", "br1")))
        moves += 1
    else:
        ipsw("link", "set", "bl0", "down")
        splits += 1
    time.sleep(0.2 + 1.8 * rng.random())
s.log("flapped for %ds: %d splits, %d heals, %d moves; now healed for good"
      % (DURATION, splits, heals, moves))
ipsw("link", "set", "bl0", "up")
one_group("one group under 8 after the flapping, and it holds", sec("3s"))
for i in IDS:
    d = s.stats(i, 1)
    s.log("node %d: %s" % (i, (d["elections"], d["tx"]["invite"],
                               d["tx"]["ready"], d["drops"])))

s.teardown(1)
s.check_cmd("rmmod election", "rmmod", "election")
s.end()
