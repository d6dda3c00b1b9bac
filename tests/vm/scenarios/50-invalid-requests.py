#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Invalid netlink requests are refused with a message and change nothing:
missing attributes, an unknown device, a duplicate group, out-of-range
durations and counts, bad ids, bad addresses, unknown groups, and
mutating requests without CAP_NET_ADMIN. Both through electionctl (which
may refuse before asking the kernel) and as raw generic netlink requests
(elec_lib's `nl`, in process; without CAP_NET_ADMIN `tests/vm/elec.py nl`
under setpriv) that reach the kernel's policies and handlers. `-j show`,
`-j stats` and the module counters are compared before/after."""

import difflib
import os
import re
import sys

REPO = os.environ.get("ELECTION_REPO", ".")
sys.path.insert(0, os.path.join(REPO, "tests", "lib"))
sys.path.insert(0, os.path.join(REPO, "tests", "vm"))
from electest import topo  # noqa: E402
from electest.scenario import Scenario, call, indent, run  # noqa: E402
# the raw generic netlink request (`elec.py nl`)
import elec_lib  # noqa: E402

NOCAP = ["setpriv", "--inh-caps=-net_admin", "--bounding-set=-net_admin"]

s = Scenario()
s.up(1, 2)
s.group_setup(1, [1])
IFX = int(topo.ip("-n", topo.ns(1), "-o", "link", "show",
                  "eth0").split(":")[0])
s.log("node 1: eth0 is ifindex %d" % IFX)


def snapshot():
    return (s.ctl(1, "-j", "show").out + s.ctl(1, "-j", "stats").out +
            run([s.ctl_path, "-j", "module"]).out)


before = snapshot()
sys.stdout.write("".join("    before: %s\n" % line
                         for line in before.splitlines()))


def ctl1(*args):
    return s.ctl(1, *args)


def nl_refused(desc, cmd, *attrs, allow_miss=False):
    """A raw request refused: exit 1 and an extack message (for a missing
    attribute the kernel may name it with the missing-attribute TLV
    instead)."""
    r = call(elec_lib.main, ["nl", cmd, *attrs], netns=topo.ns(1))
    print("    %s" % r.text)
    if r.rc == 0:
        return s.fail("raw: %s: accepted" % desc)
    if re.search("msg=[^ ]", r.text):
        return s.pass_("raw: %s: refused with a message" % desc)
    if allow_miss and re.search("miss=[A-Z]", r.text):
        return s.pass_("raw: %s: refused, missing attribute named" % desc)
    return s.fail("raw: %s: refused without an extack message (%s)" % (
        desc, r.text))


s.log("--- electionctl")
for desc, args in (
        ("missing id", "group add dev eth0 group 2 algo bully"),
        ("missing algo", "group add dev eth0 group 2 id 1"),
        ("unknown device", "group add dev nosuch0 group 2 id 1 algo bully"),
        ("duplicate group", "group add dev eth0 group 1 id 1 algo bully"),
        ("duration below 100us",
         "group add dev eth0 group 2 id 1 algo bully hb-interval 99us"),
        ("duration above 60s",
         "group add dev eth0 group 2 id 1 algo bully timeout 61s"),
        ("duration without unit", "group set dev eth0 group 1 timeout 100"),
        ("hb-miss 0", "group set dev eth0 group 1 hb-miss 0"),
        ("group 0", "group add dev eth0 group 0 id 1 algo bully"),
        ("id 0", "group add dev eth0 group 2 id 0 algo bully"),
        ("unknown algo", "group add dev eth0 group 2 id 1 algo paxos"),
        ("start of an unknown group", "group start dev eth0 group 9"),
        ("peer in an unknown group",
         "peer add dev eth0 group 9 id 2 lladdr 02:00:00:00:00:02"),
        ("bad lladdr", "peer add dev eth0 group 1 id 7 lladdr 02:00:00:00:00"),
        ("multicast lladdr",
         "peer add dev eth0 group 1 id 7 lladdr 01:00:5e:00:00:01"),
        ("peer with our own id",
         "peer add dev eth0 group 1 id 1 lladdr 02:00:00:00:00:07"),
        ("duplicate peer",
         "peer add dev eth0 group 1 id 2 lladdr %s" % topo.mac(2)),
        ("delete of an unknown peer", "peer del dev eth0 group 1 id 77")):
    s.check_fails(desc, ctl1(*args.split()))

s.log("--- raw generic netlink")
X = "ifindex=%d" % IFX
nl_refused("GROUP_NEW without NODE_ID", "group_new", X, "group=2", "algo=1",
           allow_miss=True)
nl_refused("GROUP_NEW without IFINDEX", "group_new", "group=2", "node_id=1",
           "algo=1", allow_miss=True)
nl_refused("GROUP_NEW without ALGO", "group_new", X, "group=2", "node_id=1",
           allow_miss=True)
nl_refused("PEER_ADD without PEER_LLADDR", "peer_add", X, "group=1",
           "peer_id=9", allow_miss=True)
NEW2 = (X, "group=2", "node_id=1", "algo=1")
nl_refused("GROUP_NEW on an unknown ifindex", "group_new", "ifindex=99999",
           *NEW2[1:])
nl_refused("GROUP_NEW duplicate group", "group_new", X, "group=1",
           "node_id=1", "algo=1")
nl_refused("GROUP_NEW hb_interval 99999 ns", "group_new", *NEW2,
           "hb_interval_ns=99999")
nl_refused("GROUP_NEW timeout 60 s + 1 ns", "group_new", *NEW2,
           "timeout_ns=60000000001")
nl_refused("GROUP_NEW coord_timeout 0", "group_new", *NEW2,
           "coord_timeout_ns=0")
nl_refused("GROUP_NEW hb_miss 1001", "group_new", *NEW2, "hb_miss=1001")
nl_refused("GROUP_NEW algo 0", "group_new", X, "group=2", "node_id=1",
           "algo=0")
nl_refused("GROUP_NEW algo 200", "group_new", X, "group=2", "node_id=1",
           "algo=200")
nl_refused("GROUP_NEW group 0", "group_new", X, "group=0", "node_id=1",
           "algo=1")
nl_refused("GROUP_NEW node_id 0", "group_new", X, "group=2", "node_id=0",
           "algo=1")
nl_refused("GROUP_SET hb_miss 0", "group_set", X, "group=1", "hb_miss=0")
nl_refused("GROUP_SET hb_interval 61 s", "group_set", X, "group=1",
           "hb_interval_ns=61000000000")
nl_refused("GROUP_START unknown group", "group_start", X, "group=9")
nl_refused("GROUP_DEL unknown group", "group_del", X, "group=9")
nl_refused("PEER_ADD 5-byte lladdr", "peer_add", X, "group=1", "peer_id=9",
           "peer_lladdr=02:00:00:00:09")
nl_refused("PEER_ADD own id", "peer_add", X, "group=1", "peer_id=1",
           "peer_lladdr=02:00:00:00:00:09")
nl_refused("PEER_ADD peer_id 0", "peer_add", X, "group=1", "peer_id=0",
           "peer_lladdr=02:00:00:00:00:09")
nl_refused("PEER_DEL unknown peer", "peer_del", X, "group=1", "peer_id=77")

s.log("--- without CAP_NET_ADMIN")
IN1 = NOCAP + ["ip", "netns", "exec", topo.ns(1)]
r = run(IN1 + ["ip", "link", "add", "dummyx", "type", "dummy"])
s.check("setpriv really drops CAP_NET_ADMIN", r.rc != 0, r.text)
for desc, args in (("group add", "group add dev eth0 group 2 id 1 algo bully"),
                   ("group del", "group del dev eth0 group 1"),
                   ("group start", "group start dev eth0 group 1"),
                   ("peer del", "peer del dev eth0 group 1 id 2")):
    s.check_fails("no CAP_NET_ADMIN: %s" % desc,
                  run(IN1 + [s.ctl_path] + args.split()))
# the one python3 start left: a process without the capability
r = run(IN1 + ["python3", os.path.join(REPO, "tests", "vm", "elec.py"), "nl",
               "group_del", X, "group=1"])
print("    %s" % r.text)
s.check("raw: no CAP_NET_ADMIN: GROUP_DEL refused with EPERM and a message",
        "error=1 msg=CAP_NET_ADMIN is required" in r.text)
s.log("reading without CAP_NET_ADMIN (not required by the contract):")
sys.stdout.write(indent(run(IN1 + [s.ctl_path, "show"]).text))

after = snapshot()
if not s.either(before == after,
                "show, stats and module counters unchanged by every refused "
                "request",
                "state changed by refused requests"):
    sys.stdout.write(indent("\n".join(difflib.unified_diff(
        before.splitlines(), after.splitlines(), lineterm=""))))

# the comparison is able to see a change: a valid request changes state
s.check("a valid group set is accepted",
        ctl1("group", "set", "dev", "eth0", "group", 1, "hb-interval",
             "200ms"))
s.check("and shows up", s.show(1, 1)["hb_interval_ns"] == 200000000)

s.nodes = [1]
s.finish(1)
