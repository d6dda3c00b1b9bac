#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The election: tracepoints, and one failover read from them phase by
phase.

The five events exist under tracefs events/election (election_rx,
election_tx, election_timer, election_role, election_drop) with their
formats. Three nodes (bully), agreed on 3; the trace buffer is cleared,
node 3's switch port goes down (a silent crash), the survivors agree on
2. Node 2's events must hold, in this order: its detect timer expiring
(with a lateness), an ELECTION sent to 3, its role turning candidate, its
answer timer expiring, a COORDINATOR sent to 1, its role turning leader
with leader 2; node 1's: a COORDINATOR received from 2, then its role
follower with leader 2. A frame for a group no instance has is traced as
a drop (wrong_group). Prints the failover's timeline from node 2's events
(the admin guide's worked example) and, when trace-cmd is installed,
records the same with it. elec.py forge runs in process."""

import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

REPO = os.environ.get("ELECTION_REPO", ".")
sys.path.insert(0, os.path.join(REPO, "tests", "lib"))
sys.path.insert(0, os.path.join(REPO, "tests", "vm"))
from electest import topo  # noqa: E402
from electest.scenario import (Scenario, call, indent, read, run,  # noqa: E402
                               sec)
# the forged frame (`elec.py forge`)
import elec_lib  # noqa: E402

EVENTS = ("election_rx", "election_tx", "election_timer", "election_role",
          "election_drop")
DDC = "/sys/kernel/debug/dynamic_debug/control"
DDLINE = r"election: eth0 group 1 id 2: leader 2 term [0-9]+"


def write(path, text):
    with open(path, "w") as f:
        f.write(text + "\n")


def tracefs():
    t = "/sys/kernel/tracing"
    if not os.path.isdir(t + "/events"):
        subprocess.run(["mount", "-t", "tracefs", "tracefs", t],
                       stderr=subprocess.DEVNULL)
    if not os.path.isdir(t + "/events"):
        t = "/sys/kernel/debug/tracing"
    return t


def parse(trace):
    """The election events of @trace (text): [(time, event, {field:
    value})]."""
    evs = []
    for line in trace.splitlines():
        m = re.search(r"\s(\d+\.\d+): (election_\w+): (.*)$", line)
        if not m:
            continue
        f = dict(kv.split("=", 1) for kv in m.group(3).split() if "=" in kv)
        evs.append((float(m.group(1)), m.group(2), f))
    return evs


def seq_in(evs, node, steps):
    """The steps, in order, among node's events: their times, or None."""
    times, i = [], 0
    for t, name, f in evs:
        if i < len(steps) and f.get("id") == node and steps[i](name, f):
            times.append(t)
            i += 1
    return times if i == len(steps) else None


# one input's frames are traced as it sends them, its role change once it
# is done: the ELECTION comes before "candidate", the COORDINATOR before
# "leader"
N2 = [
    ("detect timer: 3 silent", lambda n, f: n == "election_timer" and
     f.get("timer") == "detect"),
    ("ELECTION sent to 3", lambda n, f: n == "election_tx" and
     f.get("type") == "election" and f.get("dst") == "3"),
    ("role candidate", lambda n, f: n == "election_role" and
     f.get("role") == "candidate"),
    ("answer timer: no answer", lambda n, f: n == "election_timer" and
     f.get("timer") == "answer"),
    ("COORDINATOR sent to 1", lambda n, f: n == "election_tx" and
     f.get("type") == "coordinator" and f.get("dst") == "1"),
    ("role leader, leader 2", lambda n, f: n == "election_role" and
     f.get("role") == "leader" and f.get("leader") == "2"),
]
N1 = [
    ("COORDINATOR from 2", lambda n, f: n == "election_rx" and
     f.get("type") == "coordinator" and f.get("src") == "2"),
    ("role follower, leader 2", lambda n, f: n == "election_role" and
     f.get("role") == "follower" and f.get("leader") == "2"),
]


s = Scenario()
T = tracefs()
TMPD = tempfile.mkdtemp()

if not s.load():
    s.end()
for ev in EVENTS:
    fmt = "%s/events/election/%s/format" % (T, ev)
    s.either(os.path.isfile(fmt),
             "tracepoint election:%s (%d fields)" % (ev, sum(
                 "field:" in line for line in read(fmt).splitlines())),
             "no tracepoint election:%s in %s/events/election" % (ev, T))

if not (s.topo(1, 2, 3) and s.group_setup(1)):
    s.end()
s.start_all(1)
s.agree(1, 3)

# the dynamic-debug line per leader change, off by default
ddc = os.access(DDC, os.W_OK)
if ddc:
    write(DDC, "module election +p")
    run(["dmesg", "-C"])
else:
    s.log("(no dynamic_debug control: the kernel log line is not checked)")
write(T + "/tracing_on", "0")
write(T + "/trace", "")
write(T + "/buffer_size_kb", "8192")
write(T + "/events/election/enable", "1")
write(T + "/tracing_on", "1")
# a silent crash: node 3's switch port goes down (its carrier with it: it
# stops, and any frame it sends is lost), so the others must notice the
# silence (deleting its namespace would send a LEAVING heartbeat)
topo.ip("-n", "esw", "link", "set", "p3", "down")
s.agree(1, 2, ids=[1, 2])
# a frame for group 9, which nobody has: a drop the trace names
s.check("a HEARTBEAT for group 9 from node 1",
        call(elec_lib.main, ["forge", "--dev", "eth0", "--group", 9,
                             "--type", "heartbeat", "--src", 1],
             netns=topo.ns(1)))
time.sleep(sec(0.3))
write(T + "/tracing_on", "0")
trace = read(T + "/trace")
write(T + "/events/election/enable", "0")
if ddc:
    write(DDC, "module election -p")
    m = re.search(DDLINE, run(["dmesg"]).out)
    if m:
        s.pass_("dynamic debug: the kernel log names node 2's new leader "
                "(%s)" % m.group(0))
    else:
        s.fail("dynamic debug: no 'election: eth0 group 1 id 2: leader 2' "
               "line in the kernel log")
s.log("trace: %d election events" % sum(
    "election_" in line for line in trace.splitlines()))

evs = parse(trace)
t2 = seq_in(evs, "2", [f for _, f in N2])
t1 = seq_in(evs, "1", [f for _, f in N1])
late = [f.get("late_ns") for t, n, f in evs if n == "election_timer" and
        f.get("id") == "2" and f.get("timer") == "detect"]
drop = [f for t, n, f in evs if n == "election_drop" and
        f.get("reason") == "wrong_group" and f.get("group") == "9"]
report = ["node2 %s" % ("ok" if t2 else "missing"),
          "node1 %s" % ("ok" if t1 else "missing"),
          "late %s" % ("ok" if late and all(x.lstrip("-").isdigit()
                                             for x in late) else "missing"),
          "drop %s" % ("ok" if drop else "missing")]
if t2:
    report.append("timeline of node 2 (ms after its detect timer fired):")
    for (what, _), t in zip(N2, t2):
        report.append("  %8.3f  %s" % ((t - t2[0]) * 1e3, what))
sys.stdout.write(indent("\n".join(report)))
s.either(t2,
         "node 2: detect timer, candidate, ELECTION to 3, answer timer, "
         "leader 2, COORDINATOR, in order",
         "node 2's failover sequence is not in the trace")
s.either(t1, "node 1: COORDINATOR from 2, then follower of 2",
         "node 1's sequence is not in the trace")
s.either(report[2] == "late ok", "election_timer carries late_ns",
         "no late_ns on node 2's detect timer")
s.either(drop, "a frame for group 9: election_drop reason=wrong_group",
         "no election_drop wrong_group for group 9")

if shutil.which("trace-cmd"):
    s.log("--- trace-cmd record -e election, one more failover (node 2's "
          "port goes down)")
    dat = os.path.join(TMPD, "trace.dat")
    # until SIGINT; the port goes down once it records, and it stops once
    # node 1 leads (a loaded host delays both: no fixed sleep)
    with open(os.path.join(TMPD, "tc.log"), "w") as tclog:
        tc = subprocess.Popen(["trace-cmd", "record", "-e", "election", "-o",
                               dat], cwd=TMPD, stdout=tclog,
                              stderr=subprocess.STDOUT)
    s.wait_for(10, lambda: read(T + "/events/election/enable").strip() ==
               "1")
    time.sleep(sec(1))
    topo.ip("-n", "esw", "link", "set", "p2", "down")
    s.wait_for(s.bound, lambda: s.show(1, 1)["role"] == "leader")
    time.sleep(sec(0.5))
    tc.send_signal(signal.SIGINT)
    tc.wait()
    for line in read(os.path.join(TMPD, "tc.log")).splitlines()[-3:]:
        print("    trace-cmd: %s" % line)
    rep = run(["trace-cmd", "report", "-i", dat]).out.splitlines()
    if any(re.search("election_role:.*id=1 role=leader leader=1", line)
           for line in rep):
        s.pass_("trace-cmd report: node 1 took over")
        print(indent("\n".join([line for line in rep if re.search(
            r"election_(timer|role|tx).*id=1 ", line)][:12])), end="")
    else:
        s.fail("trace-cmd report: no election_role of node 1 as leader")
else:
    s.log("(trace-cmd not installed: the trace-cmd part is skipped)")

for i in s.nodes:
    s.ctl(i, "group", "del", "dev", "eth0", "group", 1)
run(["ip", "-n", "esw", "link", "set", "p2", "up"])
run(["ip", "-n", "esw", "link", "set", "p3", "up"])
s.leak_check()
shutil.rmtree(TMPD, ignore_errors=True)
s.end()
