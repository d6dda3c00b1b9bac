#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The device under an instance changes (review defects 8 and 9):
 - MTU: a group whose largest frame cannot fit the device's MTU is
   refused with a message (group add; peer add for the list ring, whose
   frames grow with the group); an MTU lowered under a running group is
   followed: each frame that no longer fits is counted in tx_drops.mtu
   (it used to vanish silently) and the kernel logs it once;
 - address: `show` reports the device's current address; a node whose
   MAC changed is heard by its peers as wrong_lladdr until they update
   its lladdr, then it rejoins;
 - name: replies and events follow a rename."""

import io
import json
import os
import sys
import time

sys.path.insert(0, os.path.join(os.environ.get("ELECTION_REPO", "."),
                                "tests", "lib"))
from electest import checks, topo  # noqa: E402
from electest.scenario import Scenario, dur, run, sec  # noqa: E402

s = Scenario()
s.modprobe("dummy")
s.up(3, 17, 42)


def ctl(*args):
    """electionctl ARGS in the root namespace (d0's)."""
    return run([s.ctl_path] + [str(a) for a in args])


def ctl_json(*args):
    return json.loads(ctl("-j", *args).out)


def shown(r):
    """Result @r, its output shown (as bash's bare calls do)."""
    if r.text:
        print(r.text)
    return r


def ip(*args):
    return shown(run(["ip"] + list(args)))


s.log("--- MTU refusals")
ip("link", "add", "d0", "type", "dummy")
ip("link", "set", "d0", "mtu", "30", "up")
s.check_fails("ring on MTU 30 (largest frame 32 bytes) is refused",
              ctl("group", "add", "dev", "d0", "group", 1, "id", 1, "algo",
                  "ring"))
s.check_cmd("bully on MTU 30 (24 bytes) is accepted", s.ctl_path, "group",
            "add", "dev", "d0", "group", 2, "id", 1, "algo", "bully")
ip("link", "set", "d0", "mtu", "100")
s.check_cmd("ring-list on MTU 100 is accepted", s.ctl_path, "group", "add",
            "dev", "d0", "group", 3, "id", 1, "algo", "ring-list")
bad = []
for p in range(2, 18):
    r = ctl("peer", "add", "dev", "d0", "group", 3, "id", p, "lladdr",
            topo.mac(p))
    if r.rc != 0:
        bad.append(r.text)
s.check("16 peers fit (24 + 8 + 4 x 17 = 100 bytes)", not bad, "\n".join(bad))
r = ctl("peer", "add", "dev", "d0", "group", 3, "id", 18, "lladdr",
        topo.mac(18))
s.check("the 17th peer is refused: the list would not fit",
        "MTU too small" in r.text, r.text)
d = ctl_json("show", "dev", "d0", "group", 3)[0]
s.check("the group kept 16 peers", len(d["peers"]) == 16,
        "%d peers" % len(d["peers"]))
s.check("show reports the MTU", d["mtu"] == 100, "mtu %s" % d["mtu"])

s.log("--- MTU lowered under a running group")
ip("link", "set", "d0", "mtu", "1500")
shown(ctl("group", "set", "dev", "d0", "group", 2, "hb-interval",
          dur("20ms")))
shown(ctl("group", "start", "dev", "d0", "group", 2))
time.sleep(sec(1))


def stats2():
    return ctl_json("stats", "dev", "d0", "group", 2)[0]


def drops():
    return stats2()["tx_drops"]["mtu"]


s.check("no MTU drops at 1500", drops() == 0)
ip("link", "set", "d0", "mtu", "20")
time.sleep(sec(0.5))
a = drops()
time.sleep(sec(0.5))
b = drops()
s.check("at MTU 20 the heartbeats are counted as tx_drops.mtu (%d, then %d)"
        % (a, b), b > a > 0)
s.check("tx_errors is their sum", stats2()["tx_errors"] >= b)
s.check("the kernel logged the small MTU",
        "MTU 20 is too small for the largest frame of group 2" in
        run(["dmesg"]).out)
ip("link", "set", "d0", "mtu", "1500")
time.sleep(sec(0.3))
a = drops()
time.sleep(sec(0.5))
b = drops()
s.check("back at 1500 the drops stop", b == a, "%d, then %d" % (a, b))
ip("link", "del", "d0")

s.log("--- address change")
s.group_setup(1)
s.start_all(1)
s.agree(1, 42)
got = s.show(42, 1)["lladdr"]
s.check("42's show reports its address", got == topo.mac(42), got)
NEW = "02:e1:00:00:aa:42"
ip("-n", "en42", "link", "set", "eth0", "address", NEW)
got = s.show(42, 1)["lladdr"]
s.check("42's show follows the new address", got == NEW, got)
s.agree(1, 17, ids=[3, 17])
for i in (3, 17):
    s.check("node %d counts 42's frames as wrong_lladdr" % i,
            s.stats(i, 1)["drops"]["wrong_lladdr"] > 0)
for i in (3, 17):
    for args in (("del",), ("add", "lladdr", NEW)):
        shown(s.ctl(i, "peer", args[0], "dev", "eth0", "group", 1, "id",
                    42, *args[1:]))
s.agree(1, 42, stable=1)

s.log("--- rename")
ip("-n", "en3", "link", "set", "eth0", "down")
ip("-n", "en3", "link", "set", "eth0", "name", "lan0")
ip("-n", "en3", "link", "set", "lan0", "up")
got = s.ctl_json(3, "show", "dev", "lan0", "group", 1)[0]["ifname"]
s.check("show follows the new name", got == "lan0", got)
out = io.StringIO()
rc = checks.agree(s.nodes_of([3]), 1, 42, s.bound, dev="lan0", out=out)
s.check("all of 3 agree on leader 42 within %gs" % s.bound, rc == 0,
        out.getvalue())
shown(s.ctl(3, "group", "del", "dev", "lan0", "group", 1))
s.nodes = [17, 42]
s.finish(1)
