#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""tests/bench/auth/guest.py [SECONDS [RATES]]: what a keyed group absorbs
(issue 33, defect 3), in the guest (tests/bench/auth/run boots it).

Three nodes (3 17 42) run a keyed Bully group at hb-interval 10 ms,
hb-miss 3 (the default detector; a missed round of heartbeats is a
suspicion), and a fourth host on the switch (66, no peer) sends forged
HEARTBEATs with elec-inject, pinned to the guest's last CPU, in steps
of SECONDS (default 4) at each rate of RATES (frames/s, default
"2000 5000 10000 20000 40000 0"; 0 is as fast as it goes), two kinds:
 - unknown: from id 99, no peer of the group, a random MAC trailer;
 - known:   from the leader's id and link address, a random MAC
            trailer with a current counter (it reaches the MAC check).
Per step: the rate elec-inject reached, and over the three nodes the
detector's suspicions, elections, leader changes and drops by reason.
A step is absorbed when no node suspected anybody and nobody was
elected. Prints "absorb kind K rate R sent N achieved A ..." lines;
tests/bench/auth/run reads them. The module is $ELEC_KO (an older one
for the before figures)."""

import contextlib
import io
import json
import os
import sys
import time

sys.path.insert(0, os.path.join(os.environ.get("ELECTION_REPO", "."),
                                "tests", "lib"))
from electest import inject, topo  # noqa: E402
from electest.scenario import Scenario, dur, run, sec  # noqa: E402

SECS = int(sys.argv[1]) if len(sys.argv) > 1 else 4
RATES = [int(r) for r in (sys.argv[2] if len(sys.argv) > 2 else
                          "2000 5000 10000 20000 40000 0").split()]

s = Scenario()
inj = inject.Injector(s)
if not inj.need():
    s.end()
s.timing = "hb-interval %s hb-miss 3 timeout %s coord-timeout %s" % (
    dur("10ms"), dur("20ms"), dur("80ms"))
if not (s.load() and s.topo(3, 17, 42, 66)):
    s.end()
s.nodes = [3, 17, 42]  # 66 only injects
KEY = s.key_file("k", "5b0e6c3d29f1a4877e1d0c2b93a5f640\n")
if not s.group_setup(1, algo="bully", opts=["key-file", KEY]):
    s.end()
s.start_all(1)
s.agree(1, 42, s.bound, 1)
CPU = os.cpu_count() - 1
s.log("flood from 66 on CPU %d of %d; %d s a step; rates %s" % (
    CPU, os.cpu_count(), SECS, " ".join(map(str, RATES))))


def quiet(fn, *args):
    """@fn(@args) with its PASS lines hidden: only FAIL lines (and what
    they show) reach the output."""
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        r = fn(*args)
    out = buf.getvalue()
    if "FAIL" in out:
        sys.stdout.write(out[out.index("FAIL"):])
    return r


def snap():
    """The three nodes' counters, summed (a node whose stats cannot be
    read adds nothing: said, and the step's figures are short)."""
    tot = {"suspicions": 0, "elections": 0, "leader_changes": 0,
           "rx_heartbeat": 0}
    for nid in s.nodes:
        try:
            st = s.stats(nid, 1)
        except (RuntimeError, ValueError, IndexError) as e:
            s.log("node %d: stats: %s" % (nid, e))
            continue
        for k in ("suspicions", "elections", "leader_changes"):
            tot[k] = tot.get(k, 0) + st.get(k, 0)
        for k, v in st.get("drops", {}).items():
            tot["drop_" + k] = tot.get("drop_" + k, 0) + v
        tot["rx_heartbeat"] = tot.get("rx_heartbeat", 0) + \
            st["rx"]["heartbeat"]
    return tot


def step(kind, rate):
    count = rate * SECS if rate else 400000
    args = ["group", 1, "id", 99, "term", 1, "mac", "random", "counter",
            "now"]
    if kind == "known":
        args[3] = 42
        args += ["src-mac", topo.mac(42)]
    a = snap()
    r = run(["ip", "netns", "exec", "en66", "taskset", "-c", CPU, inject.INJ,
             "-j", "-q", "forge", "eth0", "heartbeat"] + args +
            ["key-file", KEY, "count", count, "rate", rate], timeout=3600)
    time.sleep(sec(0.2))
    b = snap()
    try:
        rep = json.loads(r.out)
    except ValueError:
        rep = {}
    d = {k: b[k] - a.get(k, 0) for k in b}
    drops = " ".join("%s %d" % (k[5:], v) for k, v in sorted(d.items())
                     if k.startswith("drop_") and v)
    ok = d["suspicions"] == 0 and d["elections"] == 0
    print("absorb kind %s rate %s sent %d seconds %.3f achieved %.0f "
          "suspicions %d elections %d leader_changes %d rx_heartbeat %d "
          "absorbed %s drops: %s" % (
              kind, rate, rep.get("sent", 0), rep.get("seconds", 0),
              rep.get("rate", 0), d["suspicions"], d["elections"],
              d["leader_changes"], d["rx_heartbeat"], "yes" if ok else "no",
              drops or "none"))
    # let a step that made an election settle before the next (its check
    # counted, shown only if it failed)
    quiet(s.agree, 1, 42)


for kind in ("unknown", "known"):
    for rate in RATES:
        step(kind, rate)
s.agree(1, 42)   # the group still follows 42 (a check of its own)
inj.klog_clean("auth absorb")
s.end()
