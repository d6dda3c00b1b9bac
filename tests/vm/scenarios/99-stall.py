#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""A stall of the whole guest is not a leader failure. Three nodes (3 17
42) run bully groups (1, 3) and ring groups (2, 4); 42 leads them all,
and its frames take 30 ms to arrive (netem on its port). Then a
SCHED_FIFO 99 busy loop on every CPU holds off everything else, the
election-timer worker (SCHED_FIFO 50) included, for twice the
detection window: every timer expires meanwhile, the leader's
heartbeats included. When the loops end, the worker runs the backlog.
Groups 1 and 2 are created with timer_waits_soft=0: the worker steps
the leader's heartbeat, then the followers' detectors, late, before
that heartbeat arrives. (In 94-inject a vCPU stall did the same without
a delay: on 6.1 a runnable ksoftirqd takes over the receive softirq,
and the worker holds it off until its backlog is done.) The followers
were held up themselves: each late detector watches one more window
(stats: detect_deferred) and the heartbeat keeps the leader. Groups 3
and 4 have the default, timer_waits_soft=1: their detectors step in the
hrtimer softirq after the receive softirq, and either find a heartbeat
that arrived during the stall (the detector was re-armed: nothing to
defer) or defer the same way; which one depends on when netem released
the frames, so there only the outcome is checked. Checked: the timers
ran late by at least the window (the stall happened), some detectors of
groups 1 and 2 were deferred, no node of any group began an election,
and every node still follows 42 at the term it had. Before the
deferral, both groups elected again. On Debian's PREEMPT_RT kernel the
busy loops were seen not to hold the worker off: there the stall checks
give way to a NOTE and only "nobody elects" is checked."""

import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.environ.get("ELECTION_REPO", "."),
                                "tests", "lib"))
from electest import topo  # noqa: E402
from electest.scenario import Scenario, dur, sec  # noqa: E402

WAITS_PARAM = "/sys/module/election/parameters/timer_waits_soft"
STALL_GROUPS = (1, 2, 3, 4)
# read when the instance is created: 1 and 2 step in the worker
WAITS = {g: 0 if g <= 2 else 1 for g in STALL_GROUPS}
# the busy loop of one CPU: bash, as the stall's length is its argument
BUSY = 'end=$((${EPOCHREALTIME/./} + $1)); ' \
    'while ((${EPOCHREALTIME/./} < end)); do :; done'


def set_waits(v):
    try:
        with open(WAITS_PARAM, "w") as f:
            f.write("%d\n" % v)
        return True
    except OSError:
        return False


s = Scenario()
s.up(3, 17, 42)
s.timing = "hb-interval %s hb-miss 4 timeout %s coord-timeout %s" % (
    dur("50ms"), dur("50ms"), dur("200ms"))
for g in STALL_GROUPS:
    if not set_waits(WAITS[g]):
        s.fail("timer_waits_soft=%d" % WAITS[g])
    if not s.group_setup(g, algo="bully" if g % 2 == 1 else "ring"):
        s.end()
set_waits(1)
for g in STALL_GROUPS:
    s.start_all(g)
for g in STALL_GROUPS:
    s.agree(g, 42, stable=1)

# 42's frames arrive 30 ms late: well within the window while it runs
NETEM_DELAY = dur("30ms")
s.modprobe("sch_netem")
s.check_cmd("netem: 42's frames delayed %s" % NETEM_DELAY,
            "ip", "netns", "exec", topo.ns(42), "tc", "qdisc", "add", "dev",
            "eth0", "root", "netem", "delay", NETEM_DELAY)
time.sleep(sec(0.5))


def state_of(i, g):
    """Node @i's "LEADER TERM" in group @g."""
    try:
        d = s.show(i, g)
    except (RuntimeError, ValueError, IndexError) as e:
        return "error: %s" % e
    return "%s %s" % (d["leader"], d["term"])


def sum_stat(g, key):
    """The sum over the nodes of their stats' @key in group @g."""
    return sum(s.stats(i, g)[key] for i in s.nodes)


def late_max_ms():
    """The latest timer expiry, in ms, over every node and group."""
    m = 0
    for g in STALL_GROUPS:
        for i in s.nodes:
            late = s.stats(i, g)["timer_late"] or {}
            m = max(m, late.get("max_ns", 0) // 1000000)
    return m


BEFORE = {(i, g): state_of(i, g) for g in STALL_GROUPS for i in s.nodes}
E0 = {g: sum_stat(g, "elections") for g in STALL_GROUPS}
D0 = {g: sum_stat(g, "detect_deferred") for g in STALL_GROUPS}
LATE0 = late_max_ms()
s.log("before: elections %s, detect_deferred %s (groups %s)" % (
    " ".join(str(E0[g]) for g in STALL_GROUPS),
    " ".join(str(D0[g]) for g in STALL_GROUPS),
    " ".join(map(str, STALL_GROUPS))))

# The stall: twice the detection window (hb-interval x hb-miss), at least
# 0.4 s (ELEC_TIMER_SCALE stretches it: 1.6 s at 4). Past 950 ms of a
# second the kernel's RT throttling gives ordinary tasks 50 ms, but not
# the worker, a SCHED_FIFO task too: no heartbeat goes out meanwhile.
stall_us = max(400000, int(2 * 4 * sec(0.05) * 1e6))
s.log("--- every CPU busy at SCHED_FIFO 99 for %d ms" % (stall_us // 1000))
loops = [subprocess.Popen(["chrt", "-f", "99", "taskset", "-c", str(cpu),
                           "bash", "-c", BUSY, "_", str(stall_us)])
         for cpu in range(len(os.sched_getaffinity(0)))]
for p in loops:
    p.wait()
# a window and more to settle whatever the stall set off
time.sleep(sec(1))

LATE = late_max_ms()
WINDOW = stall_us // 2000
STALLED = True
what = "the stall held the timers off: the latest ran %d ms late (before: " \
    "%d ms; at least the window, %d ms)" % (LATE, LATE0, WINDOW)
if LATE >= WINDOW and LATE > LATE0:
    s.pass_(what)
elif "PREEMPT_RT" in os.uname().version:
    # Seen on Debian's 6.1 RT kernel: the worker ran through the busy
    # loops (7 ms late at most); not understood yet. Nothing to defer.
    STALLED = False
    s.log("NOTE: PREEMPT_RT: the busy loops did not hold the timers off "
          "(latest %d ms late, before %d ms): the deferral is not exercised "
          "here" % (LATE, LATE0))
else:
    s.fail(what)

for g in STALL_GROUPS:
    E1 = sum_stat(g, "elections")
    D1 = sum_stat(g, "detect_deferred")
    s.log("group %d (timer_waits_soft=%d) after: elections %d, "
          "detect_deferred %d" % (g, WAITS[g], E1, D1))
    if STALLED and WAITS[g] == 0:
        s.check("group %d: late detectors watched one more window "
                "(detect_deferred %d -> %d)" % (g, D0[g], D1), D1 > D0[g])
    s.check("group %d: no node began an election (%d -> %d)" % (g, E0[g], E1),
            E1 == E0[g])
    for i in s.nodes:
        now = state_of(i, g)
        s.check("node %d: group %d leader and term as before (%s)" % (
            i, g, BEFORE[(i, g)]), now == BEFORE[(i, g)],
            "" if now == BEFORE[(i, g)] else "now %s" % now)
for g in STALL_GROUPS:
    s.agree(g, 42, stable=1)
for g in (2, 3, 4):
    for i in s.nodes:
        if not s.ctl(i, "group", "del", "dev", "eth0", "group", g):
            s.fail("group del %d on %d" % (g, i))
s.finish(1)
