#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The module's own frames, reordered, are not replays (issue 33, defect
2). A keyed 3-node Bully group with quorum on (every node sends an ALIVE
each hb-interval, 2 ms, besides the leader's heartbeats) on veth pairs
with four transmit queues each, XPS putting them on different CPUs,
while netlink callers pinned to each CPU (one electionctl -batch of
ELEC_REORDER_ELECTS "group elect" lines per node and CPU, default 400)
make every node send from process context too (the leader's
COORDINATOR, the others' ELECTIONs and ANSWERs), so that one node's
frames leave from several CPUs and queues and may arrive out of order
(a veth delivers on the sending CPU: a stalled vCPU holds its backlog
while the other delivers what came later; about 25,000 frames taken).
 - with the rule of issue 33 (each of the last 960 frame numbers of a
   peer taken once, in any order): 0 frames dropped as auth_replay, and
   the group keeps its leader;
 - ELEC_REORDER_OLD=1 (run against the module before it, ELEC_KO=...):
   the counts are reported, not judged (that module dropped every frame
   a later one of its sender had overtaken: 97 in one run)."""

import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.environ.get("ELECTION_REPO", "."),
                                "tests", "lib"))
from electest import topo  # noqa: E402
from electest.scenario import Scenario, dur, run  # noqa: E402

s = Scenario()
IDS = [3, 17, 42]
NCPU = len(os.sched_getaffinity(0))
if not s.load():
    s.end()
try:
    topo.switch()
except subprocess.CalledProcessError as e:
    print(e.output or "", end="")
    s.fail("the switch namespace")
    s.end()


def ip_ok(*args):
    r = run(["ip"] + list(args))
    if r.text:
        print("".join("    %s\n" % line for line in r.text.splitlines()),
              end="")
    return r.rc == 0


for nid in IDS:
    ns = topo.ns(nid)
    if not ip_ok("netns", "add", ns):
        s.fail("netns %s" % ns)
    if not ip_ok("link", "add", "eth0", "netns", ns, "address", topo.mac(nid),
                 "numtxqueues", 4, "numrxqueues", 4, "type", "veth", "peer",
                 "name", "p%d" % nid, "netns", topo.SWITCH, "numtxqueues", 4,
                 "numrxqueues", 4):
        s.fail("veth with 4 queues for %d" % nid)
    ip_ok("-n", topo.SWITCH, "link", "set", "p%d" % nid, "master", "br0",
          "up")
    ip_ok("-n", ns, "link", "set", "lo", "up")
    ip_ok("-n", ns, "link", "set", "eth0", "up")
    s.nodes.append(nid)
    # XPS: queue q on CPU q mod NCPU (the namespace's sysfs: one shell
    # that names the queues it could not set)
    script = "".join(
        "printf '%%x' %d >/sys/class/net/eth0/queues/tx-%d/xps_cpus || "
        "echo tx-%d; " % (1 << (q % NCPU), q, q) for q in range(4))
    r = run(["ip", "netns", "exec", ns, "sh", "-c", script])
    for q in range(4):
        if r.rc != 0 or "tx-%d\n" % q in r.out:
            s.fail("xps_cpus of %s tx-%d" % (ns, q))

# the namespace's sysfs, read in one shell: the queues, then tx-1's CPUs
r = run(["ip", "netns", "exec", "en3", "sh", "-c",
         "ls -d /sys/class/net/eth0/queues/tx-*; echo; "
         "cat /sys/class/net/eth0/queues/tx-1/xps_cpus"])
queues, _, xps = r.out.partition("\n\n")
s.check("node 3's eth0 has 4 transmit queues",
        len(queues.split()) == 4, r.text)
want = "%x" % (1 << (1 % NCPU))
s.check("XPS maps tx-1 to CPU %d" % (1 % NCPU),
        xps.strip().replace("0", "").replace(",", "") == want)

KEY = s.key_file("k", "3c5e0a91d7b24f68a1c3e50f92d7b6a4\n")
KEYS = s.tmpdir()
# busy: heartbeats and every node's ALIVE each 2 ms, from the timers
s.group_setup(1, algo="bully", opts=["quorum", "on", "key-file", KEY],
              timing="hb-interval %s hb-miss 5 timeout %s coord-timeout %s" % (
                  dur("2ms"), dur("2ms"), dur("8ms")))
s.start_all(1)
s.agree(1, 42, s.bound, 1)


def sum_of(fn):
    total = 0
    for nid in IDS:
        try:
            total += fn(s.stats(nid, 1))
        except (RuntimeError, ValueError, KeyError, IndexError) as e:
            print("    node %d: %s" % (nid, e))
    return total


def replays(d):
    return d["drops"]["auth_replay"]


def received(d):
    return sum(d["rx"].values())


replay0 = sum_of(replays)
rx0 = sum_of(received)

# the load: on every CPU, for every node, a netlink caller (one
# electionctl -batch of group elect lines) that makes the node send from
# process context on that CPU (its ELECTIONs, ANSWERs, COORDINATOR) while
# its timers send on whichever CPU they fire
ELECTS = int(os.environ.get("ELEC_REORDER_ELECTS") or 400)
BATCH = os.path.join(KEYS, "elect.batch")
with open(BATCH, "w") as f:
    f.write("group elect dev eth0 group 1\n" * ELECTS)
callers = [subprocess.Popen(["taskset", "-c", str(cpu), s.ctl_path, "-n",
                             topo.ns(nid), "-batch", BATCH],
                            stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
           for cpu in range(NCPU) for nid in IDS]
for p in callers:
    p.wait()
s.agree(1, 42, s.bound, 1)

replay1 = sum_of(replays)
rx1 = sum_of(received)
bad = sum_of(lambda d: d["drops"]["auth_bad"] + d["drops"]["auth_missing"])
s.log("frames taken during the load: %d; dropped as auth_replay: %d" % (
    rx1 - rx0, replay1 - replay0))
s.check("frames flowed during the load (%d)" % (rx1 - rx0), rx1 - rx0 > 200)
s.check("no auth_bad or auth_missing (%d)" % bad, bad == 0)
if os.environ.get("ELEC_REORDER_OLD", "0") == "1":
    s.pass_("old module: %d legitimate frames dropped as auth_replay "
            "(reported, not judged)" % (replay1 - replay0))
else:
    s.check("0 legitimate frames dropped as auth_replay (%d)" % (
        replay1 - replay0), replay1 == replay0)
s.teardown(1)
s.check_cmd("rmmod election", "rmmod", "election")
s.end()
