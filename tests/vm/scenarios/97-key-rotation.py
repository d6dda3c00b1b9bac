#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Key rotation without a gap (issue 33): a keyed 3-node Bully group with
quorum on (every node sends an ALIVE each hb-interval, so frames flow
both ways all the time: a follower whose frames the leader dropped
would cost it its majority) goes through the admin guide's three steps,
one node at a time, each node's change a few detection windows after
the previous one, so that every mix of adjacent steps runs for a while:
  1. group set ... key-next-file NEW   (show: auth-next on)
  2. group set ... key-file NEW        (a promotion: OLD is the second key)
  3. group set ... key-next none       (show: auth-next off)
 - no election: leader and term unchanged on every node, no node's
   elections or leader_changes counter moves; auth_missing, auth_bad,
   auth_replay and auth_clock unchanged on every node, through all of it
   (auth_replay too: the promotion keeps the replay state);
 - showconf during the rotation: the auth-next comment, no key-next-file;
   neither key in any output;
 - afterwards OLD is no longer accepted: node 3 back on OLD is auth_bad at
   the others (and leads nothing: no majority), back on NEW it rejoins;
 - refusals change nothing (raw netlink): a second key without a key, equal
   to the key, with KEY_NEXT_NONE or KEY_NONE, all zeroes;
 - peer reset: accepted, nothing moves (no election, no auth drop); an
   unknown id is refused; on a group without a key, a warning."""

import os
import re
import shutil
import sys
import time

REPO = os.environ.get("ELECTION_REPO", ".")
sys.path.insert(0, os.path.join(REPO, "tests", "lib"))
sys.path.insert(0, os.path.join(REPO, "tests", "vm"))
from electest import topo  # noqa: E402
from electest.scenario import Result, Scenario, call, run, sec  # noqa: E402
# raw generic netlink (elec.py nl): elec_lib's until electest.nl has it
import elec_lib  # noqa: E402

s = Scenario()
IDS = (3, 17, 42)
s.up(*IDS)
OLDHEX = "7a0c11d9e3b45f6a8821c0de5b9f4e17"
NEWHEX = "e4b1093fd27c6a5811f0ab3c9d8e2607"
OLD, NEW = s.key_file("old", OLDHEX + "\n"), s.key_file("new", NEWHEX + "\n")
KEYS = s.tmpdir()
IFX = run(["ip", "netns", "exec", "en3", "cat",
           "/sys/class/net/eth0/ifindex"]).out.strip()
DROPS = ("auth_missing", "auth_bad", "auth_replay", "auth_clock")


def nl3(cmd, *attrs):
    """elec.py nl CMD ATTR=VALUE... in node 3's namespace (in process: a
    socket belongs to the namespace it was made in); a Result."""
    return call(elec_lib.main, ["nl", cmd, *attrs], netns=topo.ns(3))


def show(nid, g=1):
    return s.show(nid, g)


def watch_of(nid):
    """The watched numbers of node @nid: leader term elections
    leader_changes auth_missing auth_bad auth_replay auth_clock; None
    (the error shown) if they cannot be read."""
    try:
        d, t = show(nid), s.stats(nid, 1)
    except (RuntimeError, ValueError, IndexError) as e:
        print("    node %d: %s" % (nid, e))
        return None
    return " ".join(str(x) for x in [d["leader"], d["term"], t["elections"],
                                     t["leader_changes"]] +
                    [t["drops"][k] for k in DROPS])


s.group_setup(1, algo="bully", opts=["quorum", "on", "key-file", OLD])
s.start_all(1)
s.agree(1, 42, s.bound, 1)

BEFORE = {}
for i in IDS:
    BEFORE[i] = watch_of(i)
    s.log("node %d before: %s (leader term elections leader_changes missing "
          "bad replay clock)" % (i, BEFORE[i]))


def unchanged():
    """True if every node's watched numbers are as BEFORE; what moved
    shown."""
    moved = []
    for i in IDS:
        now = watch_of(i)
        if now is None or BEFORE[i] is None or now != BEFORE[i]:
            moved.append("node %d: %s -> %s" % (i, BEFORE[i], now))
    return not moved, "\n".join(moved)


def check_unchanged(desc):
    ok, moved = unchanged()
    return s.check(desc, ok, moved)


# a step on every node, one after the other, 3 detection windows apart
GAP = sec(1.5)


def step(desc, *args):
    for i in IDS:
        s.check("node %d: %s" % (i, desc),
                s.ctl(i, "group", "set", "dev", "eth0", "group", 1, *args))
        time.sleep(GAP)
        check_unchanged("after node %d's %s: no election, no auth drop "
                        "anywhere" % (i, desc))


def auth_next_of(nid):
    try:
        return show(nid).get("auth_next")
    except RuntimeError as e:
        return str(e)


# ---- the rotation --------------------------------------------------------
step("key-next-file NEW (step 1)", "key-next-file", NEW)
for i in IDS:
    s.check("node %d: auth-next on after step 1" % i, auth_next_of(i) is True)
conf = run(["ip", "netns", "exec", "en3", s.ctl_path, "showconf"]).out
s.check("showconf during the rotation: the auth-next comment, no "
        "key-next-file",
        re.search("^# auth-next on: a key rotation was under way", conf,
                  re.M) and "key-next" not in conf)
step("key-file NEW (step 2: a promotion)", "key-file", NEW)
for i in IDS:
    s.check("node %d: auth-next on after step 2 (OLD is the second key)" % i,
            auth_next_of(i) is True)
s.check("node 17: key-file NEW again: nothing changes",
        s.ctl(17, "group", "set", "dev", "eth0", "group", 1, "key-file", NEW))
time.sleep(GAP)
check_unchanged("... no election, no auth drop")
step("key-next none (step 3)", "key-next", "none")
for i in IDS:
    s.check("node %d: auth-next off after step 3" % i,
            auth_next_of(i) is False)
    try:
        auth = show(i)["auth"]
    except RuntimeError as e:
        auth = str(e)
    s.check("node %d: auth still on" % i, auth is True)
s.agree(1, 42, s.bound, 1)
check_unchanged("the rotation as a whole: leader, term, elections and auth "
                "drops as before, on every node")

# ---- the keys appear nowhere ----------------------------------------------
everything = []
for i in IDS:
    for args in (["show"], ["-j", "show"], ["-j", "stats"], ["showconf"]):
        everything.append(s.ctl(i, *args).text)
everything.append(conf)
everything.append(run(["dmesg"]).text)
everything = "\n".join(everything)
for k in (OLDHEX, NEWHEX):
    hits = [line for line in everything.splitlines() if k in line.lower()]
    s.check("key %s: in no output or log" % k, not hits,
            "\n".join(hits) or "not found")

# ---- refusals change nothing ------------------------------------------------
miss3 = show(3)["hb_miss"]
s.check_refused("KEY_NEXT equal to the key is refused",
                "the second key is the group's key",
                nl3("group_set", "ifindex=" + IFX, "group=1",
                    "key_next=" + NEWHEX))
s.check_refused("KEY_NEXT with KEY_NEXT_NONE is refused",
                "key-next-none together",
                nl3("group_set", "ifindex=" + IFX, "group=1",
                    "key_next=" + OLDHEX, "key_next_none=1"))
s.check_refused("KEY_NEXT with KEY_NONE is refused",
                "key-none removes both keys",
                nl3("group_set", "ifindex=" + IFX, "group=1",
                    "key_next=" + OLDHEX, "key_none=1"))
s.check_refused("an all-zero KEY_NEXT is refused", "all-zero key is refused",
                nl3("group_set", "ifindex=" + IFX, "group=1",
                    "key_next=" + "0" * 32))
s.check_refused("a refused KEY_NEXT takes the timing with it",
                "the second key is the group's key",
                nl3("group_set", "ifindex=" + IFX, "group=1",
                    "hb_miss=%d" % (miss3 + 1), "key_next=" + NEWHEX))
d = show(3)
s.check("node 3: still no second key, hb-miss unchanged (%d)" % miss3,
        (d["auth_next"], d["hb_miss"]) == (False, miss3),
        "" if d["hb_miss"] == miss3 else "hb_miss %s" % d["hb_miss"])
# group 2 on node 3 alone, without a key
s.check("node 3: group 2 without a key",
        s.ctl(3, "group", "add", "dev", "eth0", "group", 2, "id", 3, "algo",
              "bully", *s.timing.split()))
s.check("node 3: group 2 peer 17",
        s.ctl(3, "peer", "add", "dev", "eth0", "group", 2, "id", 17, "lladdr",
              topo.mac(17)))
s.check_refused("KEY_NEXT on a group without a key is refused",
                "a second key needs a key",
                nl3("group_set", "ifindex=" + IFX, "group=2",
                    "key_next=" + NEWHEX))
s.check_refused("electionctl key-next-file on a group without a key: the "
                "kernel's message", "a second key needs a key",
                s.ctl(3, "group", "set", "dev", "eth0", "group", 2,
                      "key-next-file", NEW))
s.check_refused("group add with KEY_NEXT and no KEY is refused (--unchecked)",
                "a second key needs a key",
                s.ctl(3, "--unchecked", "group", "add", "dev", "eth0",
                      "group", 3, "id", 3, "algo", "bully", "key-next-file",
                      NEW))
s.check_fails("... and created nothing",
              s.ctl(3, "group", "show", "dev", "eth0", "group", 3))
d = show(3, 2)
s.check("node 3: group 2 has no key",
        (d["auth"], d["auth_next"]) == (False, False),
        "auth %s auth_next %s" % (d["auth"], d["auth_next"]))

# ---- peer reset -------------------------------------------------------------
s.check("node 42: peer reset 17",
        s.ctl(42, "peer", "reset", "dev", "eth0", "group", 1, "id", 17))
r = s.ctl(17, "peer", "reset", "dev", "eth0", "group", 1, "id", 42)
if r:
    r2 = s.ctl(17, "peer", "reset", "dev", "eth0", "group", 1, "id", 3)
    r = Result(r2.rc, r.out + r2.out, r.err + r2.err)
s.check("node 17: peer reset 42 and 3", r)
time.sleep(GAP)
check_unchanged("after peer reset: no election, no auth drop (the peers' "
                "frames within auth-window taken, once each)")
s.check_refused("peer reset of an unknown id is refused", "unknown peer id",
                s.ctl(42, "peer", "reset", "dev", "eth0", "group", 1, "id",
                      99))
s.check_refused("peer reset of the local id is refused", "unknown peer id",
                s.ctl(42, "peer", "reset", "dev", "eth0", "group", 1, "id",
                      42))
r = s.ctl(3, "peer", "reset", "dev", "eth0", "group", 2, "id", 17)
s.check("peer reset on a group without a key: done (exit %d), with a "
        "warning" % r.rc,
        r.rc == 0 and "Warning: the group has no key" in r.text, r.text)
NOCAP = ["setpriv", "--inh-caps=-net_admin", "--bounding-set=-net_admin"]
s.check_refused("peer reset without CAP_NET_ADMIN is refused", "CAP_NET_ADMIN",
                run(["ip", "netns", "exec", "en42"] + NOCAP +
                    [s.ctl_path, "peer", "reset", "dev", "eth0", "group", 1,
                     "id", 17]))
s.check("node 3: group 2 deleted",
        s.ctl(3, "group", "del", "dev", "eth0", "group", 2))


# ---- OLD is no longer accepted ----------------------------------------------
def bad_of(nid):
    return s.stats(nid, 1)["drops"]["auth_bad"]


bad42 = bad_of(42)
s.check("node 3 goes back to OLD",
        s.ctl(3, "group", "set", "dev", "eth0", "group", 1, "key-file", OLD))
s.wait_for(s.bound, lambda: bad_of(42) > bad42, interval=0.2)
now = bad_of(42)
s.check("node 42 counts node 3's frames under OLD as auth_bad (%d -> %d)" % (
    bad42, now), now > bad42)
s.agree(1, 42, s.bound, 1, ids=[17, 42])
s.check("node 3 leads nothing (it hears nobody: no majority)",
        show(3)["role"] != "leader")
s.check("node 3 back on NEW",
        s.ctl(3, "group", "set", "dev", "eth0", "group", 1, "key-file", NEW))
s.agree(1, 42, s.bound, 1)

shutil.rmtree(KEYS, ignore_errors=True)
s.finish(1)
