#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Concurrent elections: all five nodes start at once (each learns, then
calls an election) and one leader results; then `group elect` on every
node at the same moment, three times, and one leader results each time;
then the highest node stops and every survivor calls an election at once:
one leader, the next-highest."""

import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.environ.get("ELECTION_REPO", "."),
                                "tests", "lib"))
from electest import topo  # noqa: E402
from electest.scenario import Scenario  # noqa: E402

s = Scenario()
s.up(3, 17, 42, 100, 2001, group=1)
s.agree(1, 2001, stable=1)


def elect_all(desc, ids):
    """`electionctl group elect` in every node of @ids, all started
    before any is waited for (as the bash version's background jobs)."""
    procs = [subprocess.Popen([s.ctl_path, "-n", topo.ns(i), "group",
                               "elect", "dev", "eth0", "group", "1"],
                              stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True)
             for i in ids]
    outs = [p.communicate()[0] for p in procs]
    return s.check(desc, all(p.returncode == 0 for p in procs),
                   "".join(outs))


for rnd in (1, 2, 3):
    e0 = s.stats(2001, 1)["elections"]
    elect_all("round %d: group elect on every node at once" % rnd,
              [3, 17, 42, 100, 2001])
    s.agree(1, 2001, stable=1)
    e1 = s.stats(2001, 1)["elections"]
    s.check("round %d: the leader ran an election (%d -> %d)" % (rnd, e0, e1),
            e1 > e0)

s.log("the highest node stops; all survivors elect at once")
s.check("group stop on 2001",
        s.ctl(2001, "group", "stop", "dev", "eth0", "group", 1))
elect_all("survivors: group elect at once", [3, 17, 42, 100])
s.agree(1, 100, stable=1, ids=[3, 17, 42, 100])
s.views(1)

s.finish(1)
