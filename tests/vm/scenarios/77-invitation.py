#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Garcia-Molina's Invitation algorithm, 8 nodes (ids 1..8). The switch
has two bridges, br0 with ports p1..p4 and br1 with p5..p8, joined by a
veth pair (bl0 on br0, bl1 on br1): taking the pair down splits the group
into halves that stay connected inside, bringing it up heals it, each at
once. Split, each side becomes one group under its highest id, with
distinct group numbers and exactly its side as members. The heal merges
them into one group under 8; the frames of that merge (invite, accept,
ready) equal electsim's textbook merge of the heal scenario. Then a
coordinator crash inside a partition: 8 crashes while the halves are
apart; 5..7 regroup under 7; the heal merges all seven under 7; 8 comes
back and merges everyone under itself again."""

import io
import json
import os
import sys

sys.path.insert(0, os.path.join(os.environ.get("ELECTION_REPO", "."),
                                "tests", "lib"))
from electest import checks  # noqa: E402
from electest.scenario import Scenario, run, sec, dur  # noqa: E402

s = Scenario()
s.algo = "invitation"
LOW = [1, 2, 3, 4]
HIGH = [5, 6, 7, 8]


def groups(bound, *sides, stable=0):
    """Every side (a list of ids) one group within @bound s: (ok, the
    groups JSON or None, the text)."""
    out = io.StringIO()
    rc = checks.groups([s.nodes_of(side) for side in sides], 1, bound,
                       stable, out=out, err=out)
    text = out.getvalue().strip()
    try:
        got = json.loads(text.splitlines()[-1]) if rc == 0 else None
    except (ValueError, IndexError):
        got = None
    return rc == 0 and got is not None, got, text


def check_groups(desc, *sides):
    ok, got, text = groups(s.bound, *sides)
    s.check("%s: %s" % (desc, text.replace("\n", " ")), ok)
    return got or {"groups": [[0, 0]], "took": None}


def merge_tx(ids):
    """The sum over @ids of their tx invite, accept and ready, weighted."""
    t = 0
    for i in ids:
        tx = s.stats(i, 1)["tx"]
        t += tx["invite"] * 10000 + tx["accept"] * 100 + tx["ready"]
    return t


def ipsw(*args):
    return run(["ip", "-n", "esw"] + list(args))


s.up(*LOW, *HIGH)
s.two_bridges(*HIGH)


def split():
    return ipsw("link", "set", "bl0", "down")


def heal():
    return ipsw("link", "set", "bl0", "up")


s.group_setup(1)

# the kernel's refusals (electionctl refuses these itself: --unchecked)
s.refused_with("kernel: GROUP_NEW invitation preempt off",
               "preempt applies to the Bully algorithms only",
               s.ctl(1, "--unchecked", "group", "add", "dev", "eth0", "group",
                     2, "id", 1, "algo", "invitation", "preempt", "off"))
s.refused_with("kernel: GROUP_NEW bully search-interval (any value)",
               "search-interval applies to the invitation algorithm only",
               s.ctl(1, "--unchecked", "group", "add", "dev", "eth0", "group",
                     2, "id", 1, "algo", "bully", "search-interval", 0))
s.check_fails("group 2 was not created",
              s.ctl(1, "show", "dev", "eth0", "group", 2))
s.refused_with("kernel: GROUP_SET ask-suspect on an invitation group",
               "ask-suspect applies to the Bully algorithms only",
               s.ctl(1, "--unchecked", "group", "set", "dev", "eth0", "group",
                     1, "ask-suspect", "on"))
s.check("group add invitation search-interval 250ms",
        s.ctl(1, "group", "add", "dev", "eth0", "group", 3, "id", 1, "algo",
              "invitation", "search-interval", "250ms"))
d = s.show(1, 3)
got = (d["search_interval_ns"], d["inv_seq"], d["inv_coordinator"],
       d["members"])
s.check("show: search_interval_ns 250 ms, inv_seq 0, no coordinator, "
        "no members", got == (250000000, 0, None, []), got)
s.check("group set search-interval 0 (the default: hb-interval x hb-miss)",
        s.ctl(1, "group", "set", "dev", "eth0", "group", 3,
              "search-interval", 0))
got = s.show(1, 3)["search_interval_ns"]
s.check("show: search_interval_ns 60 ms (the default hb-interval 20 ms x "
        "hb-miss 3)", got == 60000000, got)
s.check("group del 3", s.ctl(1, "group", "del", "dev", "eth0", "group", 3))

s.start_all(1)
g0 = check_groups("one group under 8 after the start", LOW + HIGH)
g0 = g0["groups"][0][0]

s.log("partition: the link between the bridges goes down")
s.check("split", split())
glow = check_groups("each side one group (distinct numbers, its side as "
                    "members)", LOW, HIGH)["groups"][0][0]
s.check("the low side's group number (%s) is new (above %s)" % (glow, g0),
        glow > g0)
ok, _, text = groups(1, LOW, HIGH, stable=sec("2s"))
s.check("it holds", ok, text)

s.log("heal: the link comes back")
before = merge_tx(LOW + HIGH)
s.check("heal", heal())
took = check_groups("healed: one group under 8", LOW + HIGH)["took"]
s.log("merge seen complete after %ss of polling (protocol.rst: 2 "
      "hb-interval + 3 T = %s and frame times)" % (took, dur("500ms")))
# the merge's frames, once every node is quiet again
out = io.StringIO()
rc = checks.quiet(s.nodes_of(LOW + HIGH), 1, stable=sec("1s"),
                  types="invite,accept,ready", out=out, err=out)
s.check("quiet after the merge", rc == 0, out.getvalue())
after = merge_tx(LOW + HIGH)
for i in LOW + HIGH:
    d = s.stats(i, 1)
    s.log("node %d: %s" % (i, [(k, d["tx"][k], d["rx"][k]) for k in (
        "ayc", "invite", "accept", "ready")] + [d["elections"], d["drops"]]))
got = after - before
r = run([os.path.join("userspace", "sim", "electsim"), "--algo",
         "invitation", "--nodes", 8, "--scenario", "heal", "--json"])
bt = json.loads(r.out)["by_type"] if r else {}
want = bt.get("invite", 0) * 10000 + bt.get("accept", 0) * 100 + \
    bt.get("ready", 0) if bt else None
s.check("the merge's invite/accept/ready frames (%d) equal electsim's heal "
        "scenario (%s)" % (got, want), got == want)

s.log("a coordinator crash inside a partition")
s.check("split", split())
check_groups("split again", LOW, HIGH)
s.check("node 8 crashes", s.node_crash(8))
check_groups("5..7 regroup under 7 (8's members drop it)", LOW, [5, 6, 7])
s.check("heal", heal())
check_groups("healed: 1..7 one group under 7", LOW + [5, 6, 7])
s.log("node 8 comes back")
s.check("node 8 recreated", s.node_add(8))
s.check("p8 on br1", ipsw("link", "set", "p8", "master", "br1"))
s.group_setup(1, [8])
s.check("group start on 8",
        s.ctl(8, "group", "start", "dev", "eth0", "group", 1))
check_groups("8 merged everyone under itself", LOW + HIGH)
s.views(1)

s.finish(1)
