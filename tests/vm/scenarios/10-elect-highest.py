#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Five nodes with non-contiguous ids elect the highest, and every node
agrees (role, leader, term); the agreement holds. A peer is alive once
heard (never before: "never heard"); stats' text lists the Bully
algorithm's counters of a group without a key and quorum, -d all. The
one-value queries (show ... leader|role|term, is-leader) answer as
scripts expect. Then the groups are deleted and the module's leak
counters read zero."""

import json
import os
import re
import sys

sys.path.insert(0, os.path.join(os.environ.get("ELECTION_REPO", "."),
                                "tests", "lib"))
from electest.scenario import Scenario, run  # noqa: E402

s = Scenario()
IDS = (3, 17, 42, 100, 2001)
s.up(*IDS)
s.group_setup(1)

d = json.loads(run([s.ctl_path, "-j", "show"]).out)
s.check("a new group is stopped, with no leader",
        all(i["role"] == "stopped" and i["leader"] is None for i in d))
d = s.show(3, 1)
s.check("no leader is reported before start",
        d["role"] == "stopped" and d["leader"] is None, d)
# nothing heard yet: no peer is alive
s.peer_alive(1, 3, 2001, False)
r = s.ctl(3, "peer", "show", "dev", "eth0", "group", 1, "id", 2001)
s.check('peer show: a peer never heard is "alive no ... never heard"',
        r.rc == 0 and "alive no pos 2001 never heard window" in r.out, r.text)
s.start_all(1)
s.agree(1, 2001, s.bound, 2)
s.peer_alive(1, 3, 2001, True)
r = s.ctl(3, "peer", "show", "dev", "eth0", "group", 1, "id", 2001)
s.check('peer show: the leader heard a moment ago ("heard N.N ms ago")',
        re.search(r"alive yes pos 2001 heard [0-9]+\.[0-9] m?s ago window",
                  r.out), r.text)
r = s.ctl(3, "stats", "dev", "eth0", "group", 1)
s.check("stats: bully's types, no other algorithm's, no auth_, queue_full "
        "or quorum_lost (no key, no ring, quorum off)",
        re.search(r"tx: election [0-9]* answer [0-9]* coordinator [0-9]* "
                  r"heartbeat [0-9]*$", r.out, re.M) and
        not re.search("ayc|auth_bad|queue_full|alive|quorum_lost", r.out),
        r.text)
r = s.ctl(3, "-d", "stats", "dev", "eth0", "group", 1)
r2 = s.ctl(3, "-s", "-s", "stats", "dev", "eth0", "group", 1)
s.check("stats -d: every type and reason",
        re.search("ready 0 alive 0$", r.out, re.M) and
        "auth_bad 0 auth_truncated 0" in r2.out)

# the counters saw an election and COORDINATOR frames
d = s.stats(2001, 1)
s.check("the leader sent COORDINATOR and heartbeats",
        d["tx"]["coordinator"] >= 4 and d["tx"]["heartbeat"] >= 1 and
        d["leader_changes"] >= 1, d["tx"])
rx = {i: s.stats(i, 1)["rx"] for i in (3, 17, 42, 100)}
s.check("every follower received a COORDINATOR or heartbeat",
        all(v["coordinator"] + v["heartbeat"] >= 1 for v in rx.values()),
        "\n".join("%d %s" % kv for kv in rx.items()))
s.views(1)

# one-value queries for scripts: the bare value, and is-leader's status
s.check("show ... leader prints the leader's id alone",
        s.ctl(3, "show", "dev", "eth0", "group", 1, "leader").out == "2001\n")
s.check("show ... role prints the role alone",
        s.ctl(2001, "show", "dev", "eth0", "group", 1,
              "role").out == "leader\n")
s.check("show ... term prints the leader's term, as -j show has it",
        s.ctl(3, "show", "dev", "eth0", "group", 1, "term").out.strip() ==
        str(s.show(3, 1)["term"]))
s.check("-j show ... role prints a JSON string",
        s.ctl(3, "-j", "show", "dev", "eth0", "group", 1,
              "role").out.strip() == '"follower"')
r = s.ctl(2001, "is-leader", "dev", "eth0", "group", 1)
s.check("is-leader exits 0 on the leader, silently",
        r.rc == 0 and r.out == "", r.text)
s.check("is-leader exits 1 on a follower",
        s.ctl(17, "is-leader", "dev", "eth0", "group", 1).rc == 1)
s.check("is-leader exits 2 for a group that does not exist",
        s.ctl(17, "is-leader", "dev", "eth0", "group", 9).rc == 2)

s.finish(1)
