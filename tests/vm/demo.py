#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""`make demo`: five nodes with non-contiguous ids in network namespaces on
one bridge elect the highest id; the leader crashes (its switch port goes
down: its eth0 loses carrier and its instance falls silent, sending
nothing); the survivors fail over after the detection window; the port
comes back and the old leader takes over again. Then a planned handover:
`group stop` on the leader, which resigns (a heartbeat flagged leaving),
so the survivors elect at once; `group start` and it takes over again.
Every node's event stream (`electionctl -j monitor`) is merged into one
timeline (tests/vm/timeline.py, in process), and the failover latency is
computed from the kernel's CLOCK_MONOTONIC timestamps, from the cut
itself: the switch port goes down with one rtnetlink request
(electest.faults.link_req, from the switch's namespace), and
CLOCK_MONOTONIC read just before and after it bounds when the link went
down. (A stamp taken by another process before `ip link set` runs is
earlier by that process's start-up, tens to hundreds of ms in a TCG
guest; the leader's own "stopped" event comes from the carrier change
that the kernel's linkwatch work reports later still, after the
survivors may have agreed.) A planned stop is stamped by the leader's
kernel (its "stopped" event, taken before it resigns). The verdict is
liveness only (every phase settles within ELEC_BOUND s, and no latency
before its cut): no latency threshold, which a loaded 2-core host would
fail.

DEMO_TIMING overrides the group options (default: the module's defaults,
hb-interval 20ms hb-miss 3 timeout 10ms coord-timeout 40ms)."""

import atexit
import json
import os
import socket
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.environ.get("ELECTION_REPO", "."),
                                "tests", "lib"))
from electest import nl, topo  # noqa: E402
from electest.faults import link_req  # noqa: E402
from electest.scenario import Scenario, call  # noqa: E402
from elec_lib import node_socks  # noqa: E402
import timeline  # noqa: E402

s = Scenario()
s.timing = os.environ.get("DEMO_TIMING", "")
IDS = (3, 17, 42, 100, 2001)
SURV = (3, 17, 42, 100)
OUT = os.path.join(os.environ.get("RESULTS_DIR") or "/tmp", "demo")
os.makedirs(OUT, exist_ok=True)
for f in os.listdir(OUT):
    if f == "marks.jsonl" or (f.startswith("mon-") and f.endswith(".jsonl")):
        os.remove(os.path.join(OUT, f))
MONS = []


def stop_monitors():
    for p in MONS:
        p.terminate()
        p.wait()
    MONS.clear()


atexit.register(stop_monitors)


def port(esw, nid, up):
    """Node @nid's switch port up or down (one RTM_NEWLINK on @esw, an
    rtnetlink socket of the switch's namespace, done when its sendmsg
    returns): CLOCK_MONOTONIC just before it and the ns that sendmsg took,
    or None if refused."""
    with nl.InNetns(topo.SWITCH):
        ifindex = socket.if_nametoindex("p%d" % nid)
    before = time.monotonic_ns()
    seqs = esw.send_many([link_req(ifindex, up)])
    span = time.monotonic_ns() - before
    err = next(iter(esw.acks(seqs)[0].values()))
    if err:
        print("    port p%d %s: %s" % (nid, "up" if up else "down",
                                      os.strerror(err)))
        return None
    return before, span


def mark(name, text, expect=None, nodes=(), ts=None, node=0, cut=None):
    """A timeline line at @ts (ns, CLOCK_MONOTONIC; default now) and what
    should follow: @expect the leader of @nodes. @cut: the mark is the cut
    itself, stamped within @cut ns before it took effect."""
    m = {"ts_ns": ts or time.monotonic_ns(), "mark": name, "text": text}
    if expect is not None:
        m.update(node=node, expect=expect, nodes=list(nodes))
        if cut is not None:
            m["cut_span_ns"] = cut
    with open(os.path.join(OUT, "marks.jsonl"), "a") as f:
        f.write(json.dumps(m) + "\n")


if not (s.load() and s.topo(*IDS)):
    s.end()
s.group_setup(1)
for i in IDS:
    with open(os.path.join(OUT, "mon-%d.jsonl" % i), "a") as f:
        MONS.append(subprocess.Popen(
            [s.ctl_path, "-n", topo.ns(i), "-j", "monitor"],
            stdin=subprocess.DEVNULL, stdout=f, stderr=subprocess.STDOUT))
with nl.InNetns(topo.SWITCH):
    ESW = nl.Nl(nl.NETLINK_ROUTE)
time.sleep(0.5)

# group start on every node at one moment: one GROUP_START each on sockets
# opened beforehand (5 electionctl starts would spread it over ~0.2 s of a
# TCG guest, and the module's 10 ms timeout elects a lower id meanwhile)
START = [(g, nl.Msg(fam, nl.CMD["ELEC_CMD_GROUP_START"], k))
         for _, _, g, fam, _, k in node_socks(s.nodes_of(), "eth0", 1)]
mark("start", "start: group start on all 5 nodes", 2001, IDS)
seqs = [g.send(m) for g, m in START]
s.check("group 1 started on %s" % " ".join(map(str, IDS)),
        all(g.recv(q, m).err == 0 for (g, m), q in zip(START, seqs)))
s.agree(1, 2001)
time.sleep(0.5)

cut = port(ESW, 2001, False)
s.check("switch port of 2001 down", cut is not None)
mark("crash", "crash: 2001's switch port goes down", 100, SURV,
     ts=cut and cut[0], node=2001, cut=cut and cut[1])
s.agree(1, 100, ids=SURV)

cut = port(ESW, 2001, True)
s.check("switch port of 2001 up", cut is not None)
mark("return", "return: 2001's switch port comes back up", 2001, IDS,
     ts=cut and cut[0])
s.agree(1, 2001)
time.sleep(0.5)

mark("handover", "handover: group stop on leader 2001", 100, SURV, node=2001)
s.check("group stop on 2001",
        s.ctl(2001, "group", "stop", "dev", "eth0", "group", 1))
s.agree(1, 100, ids=SURV)

mark("return", "return: group start on 2001", 2001, IDS)
s.check("group start on 2001",
        s.ctl(2001, "group", "start", "dev", "eth0", "group", 1))
s.agree(1, 2001)
time.sleep(0.5)
stop_monitors()

print()
print("=============================== timeline "
      "===============================")
s.check("timeline: every phase settled, no latency before its cut",
        call(timeline.main, [OUT]))
print()
print("message counts per node (frames sent):")
for i in IDS:
    print("  node %-5s %s" % (i, s.stats(i, 1)["tx"]))

s.teardown(1)
s.check_cmd("rmmod election", "rmmod", "election")
s.end()
