#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""rmmod while elections run: five nodes in two groups, Bully and the
all-ids ring (its ring queues in flight), with the fastest timers
(elections keep happening in a TCG guest), `group elect` loops,
and a sixth namespace flooding EtherType 0x88B5 frames (malformed, wrong
group, unknown and known senders). rmmod must succeed with everything
still configured, leave no Oops/WARNING (the harness scans the kernel
log), and a reloaded module must start from zero and work."""

import os
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.join(os.environ.get("ELECTION_REPO", "."),
                                "tests", "lib"))
from electest import REPO, topo  # noqa: E402
from electest.scenario import Scenario, dur, run  # noqa: E402

s = Scenario()
IDS = [3, 17, 42, 100, 2001]
s.up(*IDS, 9999)
s.nodes = list(IDS)         # 9999 only injects frames

s.group_setup(1, timing="hb-interval %s hb-miss 2 timeout %s coord-timeout %s"
              % (dur("1ms"), dur("1ms"), dur("2ms")))
s.group_setup(2, algo="ring-all",
              timing="hb-interval %s hb-miss 3 timeout %s coord-timeout %s"
              % (dur("5ms"), dur("2ms"), dur("8ms")))
s.start_all(1)
s.start_all(2)

# the frame flood: one background process in node 9999's namespace
inj = subprocess.Popen(["ip", "netns", "exec", topo.ns(9999), "python3",
                        os.path.join(REPO, "tests", "vm", "elec.py"), "inject",
                        "--dev", "eth0", "--seconds", "40", "--rate", "3000",
                        "--group", "1", "--ids", ",".join(map(str, IDS))])
stop = threading.Event()


def elect_loop():
    """`group elect` on every node, both groups, for 40 s or until
    stopped; refusals (the module going away) ignored."""
    end = time.monotonic() + 40
    while time.monotonic() < end and not stop.is_set():
        for i in IDS:
            s.ctl(i, "group", "elect", "dev", "eth0", "group", 1)
            s.ctl(i, "group", "elect", "dev", "eth0", "group", 2)


loop = threading.Thread(target=elect_loop, daemon=True)
loop.start()

time.sleep(8)
d = s.stats(42, 1)
s.check("elections are running", d["elections"] > 0)
s.check("ring elections are running", s.stats(42, 2)["tx"]["ack"] > 0)
s.log("stats of node 42 group 1: %s" % d)
# the flood is counted, not just survived
dr = d["drops"]
s.check("injected frames are counted as drops (malformed, wrong group, "
        "unknown peer)",
        min(dr["malformed"], dr["wrong_group"], dr["unknown_peer"]) > 0)
print(run([s.ctl_path, "-j", "module"]).text)

s.log("rmmod with 10 instances running, elect loops and a frame flood")
s.check_cmd("rmmod election while busy", "timeout", "60", "rmmod", "election")
with open("/proc/modules") as f:
    mods = f.read()
s.check("the module is gone", "\nelection " not in "\n" + mods)
time.sleep(1)

stop.set()
loop.join()

s.log("reload while the flood goes on")
s.check_cmd("insmod again", "insmod", s.ko)
s.leak_check()
# the flood forges COORDINATOR/HEARTBEAT frames from real peer ids, which
# Bully has to believe: stop it before asking for one stable leader
inj.terminate()
inj.wait()
s.group_setup(1)
s.start_all(1)
s.agree(1, 2001)

s.log("second rmmod, with groups running but no flood")
s.check_cmd("rmmod election (groups configured)", "rmmod", "election")
s.check_cmd("insmod again", "insmod", s.ko)
s.leak_check()
s.check_cmd("rmmod election (empty)", "rmmod", "election")
s.end()
