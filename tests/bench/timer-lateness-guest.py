#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Runs inside the VM (tests/bench/timer-lateness.sh boots it): for each
timer mode (module parameter timer_mode, read at group creation), each
heartbeat interval and each load (quiet, hog), a fresh 3-node Bully group
(ids 1 2 3, hb-miss 3) runs for SECONDS; then every node's timer_late
histogram, elections and leader_changes are appended as one JSON line per
node to $RESULTS_DIR/timer-lateness.jsonl.

hog: one busy loop per CPU (sh -c 'while :; do :; done') plus one loop
forking short processes (/bin/true), started after the group agreed and
killed before the counters are read.

Arguments (tests/vm/run passes no environment of ours): REP (a label),
SECONDS (default 8), "MODES" (default "0 1 2"), "INTERVALS" (default
"10ms 1ms")."""

import contextlib
import io
import json
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.environ.get("ELECTION_REPO", "."),
                                "tests", "lib"))
from electest import checks  # noqa: E402
from electest.scenario import Scenario  # noqa: E402

args = sys.argv[1:] + [None] * 4
REP = args[0] or "0"
SECS = float(args[1] or 8)
MODES = (args[2] or "0 1 2").split()
INTERVALS = (args[3] or "10ms 1ms").split()
OUT = os.path.join(os.environ.get("RESULTS_DIR") or "/tmp",
                   "timer-lateness.jsonl")

s = Scenario()
if not (s.load() and s.topo(1, 2, 3)):
    s.end()


def hog_start():
    loops = ["while :; do :; done"] * os.cpu_count()
    return [subprocess.Popen(["sh", "-c", c])
            for c in loops + ["while :; do /bin/true; done"]]


def hog_stop(hogs):
    for p in hogs:
        p.kill()
    for p in hogs:
        p.wait()


g = 0
for mode in MODES:
    with open("/sys/module/election/parameters/timer_mode", "w") as f:
        f.write(mode + "\n")
    for iv in INTERVALS:
        for load in ("quiet", "hog"):
            g += 1
            # timeout = interval, coord-timeout = 4 x interval (defaults'
            # ratio); the setup's checks counted, only a FAIL shown
            buf = io.StringIO()
            with contextlib.redirect_stdout(buf):
                s.group_setup(g, timing="hb-interval %s hb-miss 3 timeout %s"
                              % (iv, iv))
                s.start_all(g)
            if "FAIL" in buf.getvalue():
                out = buf.getvalue()
                sys.stdout.write(out[out.index("FAIL"):])
            # a bench, not a test: no agreement is a result, not a failure
            if checks.agree(s.nodes_of(), g, 3, 20, out=io.StringIO()):
                s.log("group %d: no agreement on 3 within 20 s (measured "
                      "anyway)" % g)
            s.log("mode %s interval %s %s: group %d for %gs" % (
                mode, iv, load, g, SECS))
            hogs = hog_start() if load == "hog" else []
            time.sleep(SECS)
            hog_stop(hogs)
            with open(OUT, "a") as f:
                for nid in (1, 2, 3):
                    # an unreadable node: said, its line left out
                    try:
                        d = s.stats(nid, g)
                    except (RuntimeError, ValueError, IndexError) as e:
                        s.log("group %d node %d: stats: %s" % (g, nid, e))
                        continue
                    f.write(json.dumps({
                        "mode": int(mode), "interval": iv, "load": load,
                        "rep": REP, "node": nid, "seconds": SECS,
                        "timer_late": d["timer_late"],
                        "elections": d["elections"],
                        "leader_changes": d["leader_changes"],
                        "tx_heartbeat": d["tx"]["heartbeat"],
                        "kernel": os.uname().release}) + "\n")
            for nid in (1, 2, 3):
                s.ctl(nid, "group", "del", "dev", "eth0", "group", g)
s.pass_("measurements in %s" % OUT)
s.check_cmd("rmmod election", "rmmod", "election")
s.end()
