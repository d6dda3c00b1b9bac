#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The Wireshark dissector (dist/election.lua) on the kernel's own frames.

Three nodes run seven groups at once, one per algorithm (bully with
quorum on, so ALIVE frames too), while dumpcap captures each node's eth0.
The groups elect; the leaders of groups 1 and 7 stop and start again
(LEAVING heartbeats, new elections); then every group stops and the
captures end. tshark with the dissector must decode every frame with no
malformed mark and no expert warning, and for every node, group and
message type the frames the capture shows leaving the node must number
exactly what the node's stats say it sent (tx), with the node's id as
source."""

import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

REPO = os.environ.get("ELECTION_REPO", ".")
sys.path.insert(0, os.path.join(REPO, "tests", "lib"))
from electest import topo  # noqa: E402
from electest.scenario import Scenario, run, sec  # noqa: E402

LUA = os.path.join(REPO, "dist", "election.lua")
ALGO_OF = {1: "bully", 2: "ring", 3: "ring-all", 4: "ring-list",
           5: "min-bully", 6: "enh-bully", 7: "invitation"}
NAMES = {1: "election", 2: "answer", 3: "coordinator", 4: "heartbeat",
         5: "ack", 7: "query", 8: "cid", 9: "ayc", 10: "ayc_reply",
         11: "invite", 12: "accept", 13: "ready", 14: "alive"}
IDS = (1, 2, 3)

s = Scenario()
TMPD = tempfile.mkdtemp()
for t in ("dumpcap", "tshark"):
    if not shutil.which(t):
        s.fail("%s is not installed (make deps)" % t)
        s.end()

if not (s.load() and s.topo(*IDS)):
    s.end()
for g in ALGO_OF:
    if not s.group_setup(g, algo=ALGO_OF[g],
                         opts=["quorum", "on"] if g == 1 else []):
        s.end()


def pcap(i):
    return os.path.join(TMPD, "n%d.pcapng" % i)


cap = {}
for i in IDS:
    with open(os.path.join(TMPD, "dumpcap-%d.log" % i), "w") as log:
        cap[i] = subprocess.Popen(
            ["ip", "netns", "exec", topo.ns(i), "dumpcap", "-q", "-i", "eth0",
             "-f", "ether proto 0x88b5", "-w", pcap(i)],
            stdout=log, stderr=subprocess.STDOUT)
s.wait_for(5, lambda: all(os.path.exists(pcap(i)) and
                          os.path.getsize(pcap(i)) > 0 for i in IDS))
time.sleep(sec(0.5))

for g in ALGO_OF:
    s.start_all(g)
for g in range(1, 7):
    s.agree(g, 1 if g == 5 else 3)
s.agree(7, 3)
s.log("--- the leaders of groups 1 and 7 stop and start again")
s.ctl(3, "group", "stop", "dev", "eth0", "group", 1)
s.ctl(3, "group", "stop", "dev", "eth0", "group", 7)
time.sleep(sec(1))
s.ctl(3, "group", "start", "dev", "eth0", "group", 1)
s.ctl(3, "group", "start", "dev", "eth0", "group", 7)
s.agree(1, 3)
s.agree(7, 3)
for g in ALGO_OF:
    for i in IDS:
        s.ctl(i, "group", "stop", "dev", "eth0", "group", g)
time.sleep(sec(0.5))
for i in IDS:
    cap[i].send_signal(signal.SIGINT)
    try:
        cap[i].wait(timeout=30)
    except subprocess.TimeoutExpired:
        cap[i].kill()
        cap[i].wait()

stats, rows = {}, {}
for i in IDS:
    stats[i] = s.ctl_json(i, "stats")
    r = run(["tshark", "-n", "-X", "lua_script:" + LUA, "-r", pcap(i),
             "-T", "fields", "-E", "separator=/t", "-e", "eth.src",
             "-e", "election.group", "-e", "election.type",
             "-e", "election.src", "-e", "_ws.expert.severity",
             "-e", "_ws.expert.group", "-e", "_ws.malformed"])
    rows[i] = r.out.splitlines()
    err = [line for line in r.err.splitlines() if "Running as user" not in line]
    for line in err[:5]:
        print("    tshark: %s" % line)

# the judge: every frame decoded clean; per node, group and type, the
# frames leaving the node = its tx counters
total = bad = 0
mismatch = []
types_seen = set()
for node in IDS:
    mac = topo.mac(node)
    sent = {}
    for line in rows[node]:
        c = (line.split("\t") + [""] * 7)[:7]
        total += 1
        sev = c[4].split(",") if c[4] else []
        if c[6] or any(v and int(v, 0) >= 0x600000 for v in sev) or \
                "Malformed" in c[5] or not c[2]:
            bad += 1
            continue
        if c[0] != mac:
            continue
        if c[3] != str(node):
            mismatch.append("node %d: a frame from its MAC with src %s" % (
                node, c[3]))
        k = (int(c[1]), int(c[2]))
        sent[k] = sent.get(k, 0) + 1
        types_seen.add(int(c[2]))
    for inst in stats[node]:
        g = inst["group"]
        for t, name in NAMES.items():
            want = inst["tx"].get(name, 0)
            got = sent.pop((g, t), 0)
            if want != got:
                mismatch.append("node %d group %d %s: stats tx %d, "
                                "captured %d" % (node, g, name, want, got))
    for (g, t), n in sent.items():
        mismatch.append("node %d group %d type %d: %d captured, no counter" % (
            node, g, t, n))
types = " ".join(NAMES[t] for t in sorted(types_seen))
print("    frames %d bad %d" % (total, bad))
print("    types %s" % types)
print("    mismatch %d" % len(mismatch))
for m in mismatch[:20]:
    print("       %s" % m)
s.either(total > 100 and bad == 0,
         "tshark + election.lua: %d frames, none malformed or with an "
         "expert warning" % total,
         "dissector: %d frames, %d malformed or with a warning" % (
             total, bad))
s.either(not mismatch,
         "per node, group and type: the frames captured leaving each "
         "node = its tx counters",
         "captured frames differ from the tx counters")
s.either(len(types_seen) >= 9,
         "%d message types seen on the wire: %s" % (len(types_seen), types),
         "only %d message types seen" % len(types_seen))

for g in ALGO_OF:
    for i in IDS:
        s.ctl(i, "group", "del", "dev", "eth0", "group", g)
s.leak_check()
shutil.rmtree(TMPD, ignore_errors=True)
s.end()
