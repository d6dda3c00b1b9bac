#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Where the module's code runs, read from the kernel's own trace (each
event's task and its hardirq/softirq flag), under each timer_mode. On
PREEMPT_RT (make vmtest-rt) softirqs and soft hrtimers run in threads and
hard hrtimers stay in hardirq, so this is where RT differs. Three nodes
(bully), agreed, a leader crash, a re-election; per timer_mode:

  timer_mode  the hrtimer callback (timer:hrtimer_expire_entry of
              elec_inst_timer_*fn)   the protocol step (election_timer)
  2 (fifo)    hardirq (hard_fn)      task "election-timer", no irq flag
  1 (hardwq)  hardirq (hard_fn)      a kworker task, no irq flag
  0 (soft)    softirq (fn), never    softirq (stock: the hrtimer
              hardirq                softirq; RT: its ktimers thread)

except that in modes 2 and 1 the deferred step of a timer that waits for
a frame (detect, answer, coord: timer_waits_soft=1, the default) only
arms a soft hrtimer (elec_inst_timer_rx_fn), and the step runs in the
hrtimer softirq, after the receive softirq; with timer_waits_soft=0
(mode 2 again) every step runs where the mode says.
In every mode: no receive (election_rx) or transmit (election_tx) in
hardirq context. The hard callback only stores the expiry and queues the
step (kthread_queue_work()/queue_work(), raw spinlocks: allowed in
hardirq on RT); everything that takes the instance lock runs in a task
or a softirq. Prints the table of contexts seen (task kind x flag)."""

import collections
import os
import re
import shutil
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.environ.get("ELECTION_REPO", "."),
                                "tests", "lib"))
from electest import scenario  # noqa: E402
from electest.scenario import Scenario, run, sec  # noqa: E402

P = "/sys/module/election/parameters"
WAITS = ("detect", "answer", "coord")
LINE_RE = re.compile(
    r"^\s*(?P<comm>.+?)-(?P<pid>\d+)\s+(?:\(\s*[-\d]+\)\s+)?\[(?P<cpu>\d+)\]\s+"
    r"(?P<flags>\S+)\s+(?P<ts>[\d.]+):\s+(?P<ev>\w+):\s*(?P<rest>.*)$")


def write(path, value):
    with open(path, "w") as f:
        f.write("%s\n" % value)


def read(path):
    return scenario.read(path).strip()


def kind(comm):
    for k in ("election-timer", "kworker", "ksoftirqd", "ktimers", "irq/"):
        if comm.startswith(k):
            return k.rstrip("/")
    return "other (" + comm + ")" if comm not in ("<idle>",) else "idle"


def ctx(flags):
    # the irq column is the only one with h, H or s; its position differs
    # (stock 6.1 "d.h1.", RT "d..h1..": RT adds the lazy-preempt column)
    if "h" in flags or "H" in flags:
        return "hardirq"
    return "softirq" if "s" in flags else "task"


def judge(path, mode, rt, waits):
    """The trace at @path under timer_mode @mode: (ok, the table of
    contexts seen and what is wrong, as text)."""

    def soft_ok(comm, c):
        """a soft hrtimer's context: the hrtimer softirq; on RT its
        thread"""
        return c == "softirq" or (rt and kind(comm) == "ktimers" and
                                  c == "task")

    seen = collections.Counter()
    n = collections.Counter()
    bad = []
    with open(path, errors="replace") as f:
        lines = f.readlines()
    for ln in lines:
        m = LINE_RE.match(ln)
        if not m:
            continue
        ev, comm, flags, rest = m["ev"], m["comm"].strip(), m["flags"], \
            m["rest"]
        fn = ""
        if ev == "hrtimer_expire_entry":
            fm = re.search(r"function=(\S+)", rest)
            fn = fm.group(1) if fm else ""
            if not fn.startswith("elec_inst_timer"):
                continue
            ev = "callback " + fn
        c = ctx(flags)
        if ev != "election_timer":
            seen[(ev, kind(comm), c)] += 1
        n[ev.split()[0]] += 1
        if ev.startswith("callback"):
            hard = fn.startswith("elec_inst_timer_hard_fn")
            if hard and mode == 0:
                bad.append("%s: callback %s in timer_mode %d" % (ev, fn, mode))
            if not hard and mode != 0 and not (
                    waits and fn.startswith("elec_inst_timer_rx_fn")):
                bad.append("%s: soft callback %s in timer_mode %d, "
                           "timer_waits_soft=%d" % (ev, fn, mode, waits))
            if hard and c != "hardirq":
                bad.append("%s in %s (%s %s), want hardirq" % (ev, c, comm,
                                                               flags))
            if not hard and not soft_ok(comm, c):
                bad.append("%s in %s (%s %s), want the hrtimer softirq" % (
                    ev, c, comm, flags))
        elif ev == "election_timer":
            tm = re.search(r"timer=(\S+)", rest)
            name = tm.group(1) if tm else ""
            soft = mode == 0 or (waits and name in WAITS)
            n["step " + ("soft" if soft else "hard")] += 1
            seen[(ev + " " + name, kind(comm), c)] += 1
            if soft and not soft_ok(comm, c):
                bad.append("%s step in %s %s (%s), want the hrtimer "
                           "softirq" % (name, comm, c, flags))
            elif not soft and mode == 2 and (kind(comm) != "election-timer"
                                             or c != "task"):
                bad.append("%s step in %s %s (%s), want task "
                           "election-timer" % (name, comm, c, flags))
            elif not soft and mode == 1 and (kind(comm) != "kworker" or
                                             c != "task"):
                bad.append("%s step in %s %s (%s), want a kworker task" % (
                    name, comm, c, flags))
        elif c == "hardirq":
            bad.append("%s in hardirq (%s %s)" % (ev, comm, flags))
    out = ["%-44s %-22s %-8s %6d" % (ev, k, c, cnt)
           for (ev, k, c), cnt in sorted(seen.items())]
    want = ["callback", "election_timer", "election_rx", "election_tx"]
    if mode != 0:
        want += ["step hard"] + (["step soft"] if waits else [])
    for w in want:
        if not n[w]:
            bad.append("no %s event in the trace" % w)
    out += ["BAD: " + b for b in bad[:20]]
    return not bad, "\n".join(out)


s = Scenario()
T = "/sys/kernel/tracing"
if not os.path.isdir(T + "/events"):
    run(["mount", "-t", "tracefs", "tracefs", T])
if not os.path.isdir(T + "/events"):
    T = "/sys/kernel/debug/tracing"
TMPD = tempfile.mkdtemp()
RT = read("/sys/kernel/realtime") == "1" or "PREEMPT_RT" in os.uname().version
s.log("kernel %s, PREEMPT_RT: %s" % (os.uname().release,
                                     "yes" if RT else "no"))

s.up(1, 2, 3)

for mode, waits in ((2, 1), (1, 1), (0, 1), (2, 0)):
    s.log("--- timer_mode=%d timer_waits_soft=%d" % (mode, waits))
    write(P + "/timer_mode", mode)
    write(P + "/timer_waits_soft", waits)
    if not s.group_setup(1):
        break
    write(T + "/tracing_on", 0)
    write(T + "/trace", "")
    write(T + "/buffer_size_kb", 8192)
    for ev in ("election/election_timer", "election/election_rx",
               "election/election_tx", "timer/hrtimer_expire_entry"):
        write("%s/events/%s/enable" % (T, ev), 1)
    write(T + "/tracing_on", 1)
    s.start_all(1)
    s.agree(1, 3)
    # the leader leaves: detection, an election, a new leader
    s.ctl(3, "group", "stop", "dev", "eth0", "group", 1)
    s.agree(1, 2, ids=[1, 2])
    time.sleep(sec(0.5))
    write(T + "/tracing_on", 0)
    write(T + "/events/enable", 0)
    trace = os.path.join(TMPD, "trace-%d-%d.txt" % (mode, waits))
    with open(T + "/trace", "rb") as src, open(trace, "wb") as dst:
        shutil.copyfileobj(src, dst)
    ok, text = judge(trace, mode, RT, waits == 1)
    s.check("timer_mode=%d timer_waits_soft=%d: contexts as intended "
            "(RT: %s)" % (mode, waits, "yes" if RT else "no"), ok, text)
    s.teardown(1)
write(P + "/timer_mode", 2)
write(P + "/timer_waits_soft", 1)

shutil.rmtree(TMPD, ignore_errors=True)
s.finish()
