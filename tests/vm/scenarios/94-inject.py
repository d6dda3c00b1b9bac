#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Frames injected from a host on the segment that is no node's peer (66),
with tests/inject/elec-inject. Four nodes (3 17 42 2001) run a bully
group (1) and a ring group (2, Chang and Roberts); 2001 leads both.

 capture  elec-inject captures 2001's switch port (both directions) while
          node 3 calls an election in both groups: heartbeats, ELECTION,
          ANSWER and COORDINATOR in group 1, ring election, coordinator and
          ack frames in group 2;
 replay   every captured frame sent again from 66's own MAC, to its
          original destination: each receiver drops it as wrong_lladdr
          (its source id is a peer's, its MAC not), or unknown_peer (its
          own id);
 forge    COORDINATOR and heartbeat claims with newer terms (term + 1 ..
          + 2^33) in both groups: from a higher id no node has (5000:
          unknown_peer), from the leader's id 2001 (wrong_lladdr; 2001
          itself: unknown_peer), broadcast and unicast to each node;
 flip     captured frames with 1..3 bits flipped in our header and
          payload, 2,000 of them;

After each section, per node and drop reason, the counters' change (a
device-level drop taken once: every instance reports it) equals
elec-inject's prediction (Documentation/protocol.rst's receive checks),
and the sum over nodes equals the frames they received; no node changes
role, leader or term, begins an election or changes leader. At the end
both groups still follow 2001 at the term they had after the capture,
and the kernel log is clean.

Sections are functions (SECTIONS lists them in order), so that a keyed
section (authentication: replays with the real peer's MAC refused as
replays, bad MACs, two groups' keys apart) can be added beside them.
The helpers are electest.inject's."""

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.environ.get("ELECTION_REPO", "."),
                                "tests", "lib"))
from electest import inject, topo  # noqa: E402
from electest.scenario import Scenario, indent, run, sec  # noqa: E402

s = Scenario()
inj = inject.Injector(s)
if not inj.need():
    s.end()
s.timing = inject.TIMING
s.up(3, 17, 42, 2001, 66)
s.nodes = [3, 17, 42, 2001]  # 66 only injects
if not (s.group_setup(1, algo="bully") and s.group_setup(2, algo="ring")):
    s.end()
s.start_all(1)
s.start_all(2)
s.agree(1, 2001, s.bound, 1)
s.agree(2, 2001, s.bound, 1)

TMP = tempfile.mkdtemp()
NODES_SPEC = inj.nodes_spec([3, 17, 42, 2001])
GROUPS_SPEC = "1:bully,2:ring"
CAP = os.path.join(TMP, "capture.pcap")
inj.monitor_start(TMP)
T = {}


def term_of(nid, g):
    return s.show(nid, g)["term"]


def inj_66(*args):
    """elec-inject from 66 with the model of the nodes."""
    return inj.run(66, *args, "nodes", NODES_SPEC, "groups", GROUPS_SPEC)


def checked(name, fn):
    """A section between two snapshots, checked against what it sent."""
    s.log("--- %s" % name)
    mark = inj.monitor_mark()
    if not inj.snap("before-" + name):
        return False
    fn()
    if not inj.snap("after-" + name):
        return False
    inj.monitor_since(mark)
    return inj.check(name, "before-" + name, "after-" + name)


def section_capture():
    s.log("--- capture: 2001's port while 3 calls elections in both groups")
    # until SIGTERM (the timeout only bounds a scenario gone wrong)
    caplog = os.path.join(TMP, "capture.log")
    with open(caplog, "w") as f:
        p = subprocess.Popen(["ip", "netns", "exec", "esw", inject.INJ,
                              "capture", "p2001", CAP, "timeout", "300"],
                             stdout=f, stderr=subprocess.STDOUT)
    s.wait_for(5, lambda: os.path.exists(CAP) and os.path.getsize(CAP) > 0)
    time.sleep(sec(0.5))
    s.check("group elect on 3 (group 1)",
            s.ctl(3, "group", "elect", "dev", "eth0", "group", 1))
    s.check("group elect on 3 (group 2)",
            s.ctl(3, "group", "elect", "dev", "eth0", "group", 2))
    # the ring run takes a new term: both groups settled, then stop
    s.agree(1, 2001, s.bound, 1)
    s.agree(2, 2001, s.bound, 1)
    p.terminate()
    p.wait()
    with open(caplog) as f:
        log = f.read()
    s.check("capture ran", re.search(r"^capture: [1-9][0-9]* frames", log,
                                     re.M))
    sys.stdout.write(indent(log))
    try:
        frames = json.loads(run([inject.INJ, "-j", "list", CAP]).out)
    except ValueError:
        frames = []

    def have(g, t):
        return sum(1 for f in frames if f.get("group") == g and
                   f.get("type") == t and f["decodes"]) > 0

    s.check("captured: group 1 heartbeats", have(1, 4))
    s.check("captured: group 1 ELECTION (3 -> 2001)", have(1, 1))
    s.check("captured: group 1 ANSWER", have(1, 2))
    s.check("captured: group 1 COORDINATOR", have(1, 3))
    s.check("captured: group 2 heartbeats", have(2, 4))
    s.check("captured: group 2 ring election", have(2, 1))
    s.check("captured: group 2 ring coordinator", have(2, 3))
    s.check("captured: group 2 ring ack", have(2, 5))
    n = sum(1 for f in frames if not f["decodes"])
    s.check("every captured frame decodes (%d do not)" % n, n == 0)
    T[1] = term_of(2001, 1)
    T[2] = term_of(2001, 2)
    s.log("terms after the capture: group 1 %d, group 2 %d" % (T[1], T[2]))


def do_replay():
    inj_66("replay", "eth0", CAP, "src-mac", "own")
    r = inj.report or {}
    s.check("replay: frames from the peers' ids predicted wrong_lladdr",
            r.get("expect", {}).get("total", {}).get("wrong_lladdr", 0) > 0)


def section_replay():
    checked("replay", do_replay)


def do_forge():
    for g, algo in ((1, "bully"), (2, "ring")):
        m = T[g]
        # a higher id that no node has, newer terms, broadcast
        inj_66("forge", "eth0", "coord", "group", g, "algo", algo, "id", 5000,
               "term", m + 1, "count", 50, "term-step", 1)
        # the leader's id from 66's MAC: newer terms, far newer terms
        inj_66("forge", "eth0", "coord", "group", g, "algo", algo, "id", 2001,
               "term", m + 1, "count", 50, "term-step", 1)
        inj_66("forge", "eth0", "heartbeat", "group", g, "algo", algo, "id",
               2001, "term", m + (1 << 33), "count", 20)
        # unicast to each node, its id as dst
        for nid in (3, 17, 42):
            inj_66("forge", "eth0", "coord", "group", g, "algo", algo, "id",
                   2001, "dst", nid, "dst-mac", topo.mac(nid), "term", m + 7,
                   "count", 10)


def section_forge():
    checked("forge", do_forge)


def do_flip():
    inj_66("flip", "eth0", CAP, "count", 2000, "seed", 1, "src-mac", "own")


def section_flip():
    checked("flip", do_flip)


SECTIONS = (section_capture, section_replay, section_forge, section_flip)
for section in SECTIONS:
    section()

s.log("--- after every section")
inj.monitor_stop()
s.agree(1, 2001, s.bound, 1)
s.agree(2, 2001, s.bound, 1)
for nid in s.nodes:
    got = (term_of(nid, 1), term_of(nid, 2))
    s.check("node %d: group 1 term %s, group 2 term %s, as after the capture"
            % (nid, T.get(1), T.get(2)), got == (T.get(1), T.get(2)),
            "" if got == (T.get(1), T.get(2)) else "got %s %s" % got)
inj.klog_clean("after the injections")
for nid in s.nodes:
    if not s.ctl(nid, "group", "del", "dev", "eth0", "group", 2):
        s.fail("group del 2 on %d" % nid)
shutil.rmtree(TMP, ignore_errors=True)
s.finish(1)
