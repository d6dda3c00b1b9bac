#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Events reach listeners in order (review defect 5). Node 3 watches its
leader with a far shorter window (hb-interval 1ms, hb-miss 1) than the
leader's heartbeat interval, so its detection timer keeps firing: each
time it reports the leader gone and an election (a timer's core call),
and within a few milliseconds a received ANSWER, COORDINATOR or heartbeat
brings the leader back (a receive's core call, often on the other vCPU).
The debug-only module parameter debug_timer_delay_us holds every timer
step that reported events back by 5 ms before its delivery: the window
in which the receive runs and delivers. A listener in node 3's namespace
must see SEQ strictly increasing by one (no gap, no lost event), each
instance's events in core order (their timestamps never go back), and,
once the churn stops, the last leader_changed event naming the leader
`show` reports. Before the fix SEQ was taken after the instance lock was
dropped: the receive's later events were numbered and delivered first,
and the delayed "leader none" came last."""

import os
import subprocess
import sys
import time

REPO = os.environ.get("ELECTION_REPO", ".")
sys.path.insert(0, os.path.join(REPO, "tests", "lib"))
sys.path.insert(0, os.path.join(REPO, "tests", "vm"))
from electest import topo  # noqa: E402
from electest.scenario import Scenario, call, dur, sec  # noqa: E402
import elec_lib  # noqa: E402  (elec.py seqcheck, in process)

DELAY = "/sys/module/election/parameters/debug_timer_delay_us"
G = (1, 2)


def read(path):
    with open(path) as f:
        return f.read().strip()


def write(path, value):
    with open(path, "w") as f:
        f.write("%s\n" % value)


def seqcheck(nid, path, groups):
    """`elec.py seqcheck --file @path --expect-groups @groups` in node
    @nid's namespace (its `show` is electionctl's there), in process:
    (rc, its output)."""
    r = call(elec_lib.main, ["seqcheck", "--file", path, "--expect-groups",
                             ",".join(map(str, groups)), "--show-dev", "eth0"],
             netns=topo.ns(nid))
    return r.rc, r.text


s = Scenario()
if not s.load("debug_timer_delay_us=5000"):
    s.end()
s.check("debug_timer_delay_us is set", read(DELAY) == "5000")
if not s.topo(3, 17, 42):
    s.end()
for g in G:
    s.group_setup(g)
    s.ctl(3, "group", "set", "dev", "eth0", "group", g, "hb-interval", "1ms",
          "hb-miss", 1, "timeout", dur("20ms"), "coord-timeout", dur("80ms"))
CAP = os.path.join(os.environ.get("RESULTS_DIR") or "/tmp", "monitor-3.json")
with open(CAP, "w") as f:
    mon = subprocess.Popen(["ip", "netns", "exec", topo.ns(3), s.ctl_path,
                            "-j", "monitor"], stdout=f)
time.sleep(1)
for g in G:
    s.start_all(g)
time.sleep(sec(10))
# the churn stops: node 3 watches with the group's timing again
for g in G:
    s.ctl(3, "group", "set", "dev", "eth0", "group", g, *s.timing.split())
for g in G:
    s.agree(g, 42, stable=1)
time.sleep(1)
mon.terminate()
mon.wait()
with open(CAP) as f:
    n = sum(1 for line in f if '"seq"' in line)
s.log("captured %d events in node 3's namespace" % n)
s.check("enough events to check (%d >= 100)" % n, n >= 100)
rc, out = seqcheck(3, CAP, G)
s.check("SEQ +1 each, core order per instance, last leader = show", rc == 0,
        out)
write(DELAY, 0)
for g in G:
    for i in (3, 17, 42):
        s.ctl(i, "group", "del", "dev", "eth0", "group", g)
s.leak_check()
s.check_cmd("rmmod election", "rmmod", "election")
s.end()
