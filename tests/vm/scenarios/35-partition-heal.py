#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Terms (our addition to Bully): the leader is cut off without noticing
(its switch port leaves the bridge; carrier stays up), so it keeps leading
alone while the others elect 100 with a higher term. When the partition
heals, the old leader accepts the higher term, steps down, then bullies
back (it has the highest id) with a newer term still; everyone agrees."""

import os
import sys

sys.path.insert(0, os.path.join(os.environ.get("ELECTION_REPO", "."),
                                "tests", "lib"))
from electest.scenario import Scenario  # noqa: E402

s = Scenario()
s.up(3, 17, 42, 100, 2001, group=1)
s.agree(1, 2001)
t1 = s.show(2001, 1)["term"]

s.log("partition: port p2001 leaves the bridge")
s.check_cmd("p2001 detached", "ip", "-n", "esw", "link", "set", "p2001",
            "nomaster")
s.agree(1, 100, ids=[3, 17, 42, 100])
s.check("isolated 2001 still believes it leads",
        s.show(2001, 1)["role"] == "leader")
t2 = s.show(100, 1)["term"]
s.check("the new leader's term %d is above the old one's %d" % (t2, t1),
        t2 > t1)

s.log("heal: p2001 rejoins the bridge")
s.check_cmd("p2001 attached", "ip", "-n", "esw", "link", "set", "p2001",
            "master", "br0")
s.agree(1, 2001, stable=1)
t3 = s.show(2001, 1)["term"]
s.check("2001 took over with a newer term %d > %d" % (t3, t2), t3 > t2)
for i in (3, 17, 42, 100):
    s.log("node %d drops: %s" % (i, s.stats(i, 1)["drops"]))
s.views(1)

s.finish(1)
