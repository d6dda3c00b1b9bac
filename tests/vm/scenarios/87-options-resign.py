#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The Bully options and the resignation of a leader that stops on purpose.

Options: ask-suspect, preempt and preempt-delay set at group add, changed
with group set (alone and together), reported by -j show and show; the
rings refuse them (any value, add and set) with the protocol core's
message and report the defaults; bad values (electionctl, and raw
requests that reach the kernel's policies and the core's check) are
refused with a message and change nothing.

Resignation, 3 nodes with hb-interval 1s hb-miss 3 (a 3 s detection
window): `group stop` on the leader, its device set down, and `group del`
each put one HEARTBEAT flagged LEAVING on the wire (an AF_PACKET sniffer
on a survivor sees it), the leader's tx heartbeat counter equals the
heartbeats seen (the flagged one included), and the survivors elect a new
leader well inside the window (< 1.5 s after the leader's stopped event,
from the events' timestamps). A crash (namespace deleted) sends no such
frame. rmmod: the leader's flagged frame leaves before the module goes.
Timer lateness: count > 0, 22 buckets summing to count, max_ns > 0.

The raw requests go out in process (elec_lib.cmd_nl on a socket opened
in en1); the sniffer is one background `elec.py sniff`, the monitors
`electionctl -j monitor`, their records read in process."""

import atexit
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

REPO = os.environ.get("ELECTION_REPO", ".")
sys.path.insert(0, os.path.join(REPO, "tests", "lib"))
sys.path.insert(0, os.path.join(REPO, "tests", "vm"))
from electest import topo  # noqa: E402
from electest.scenario import Scenario, call, dur, run, sec  # noqa: E402
import elec_lib  # noqa: E402  (elec.py's subcommands, in process)

ELEC_PY = os.path.join(REPO, "tests", "vm", "elec.py")

s = Scenario()
s.up(1, 2, 3)
IFX = run(["ip", "-n", "en1", "-o", "link", "show", "eth0"]).out.split(":")[0]
TMPD = tempfile.mkdtemp()
BOUND_FAST = sec(1.5)
PROCS = {}      # background processes: "sniff", "mon1".."mon3"


@atexit.register
def _procs_gone():
    # an early end: no recorder left running
    for p in PROCS.values():
        if p.poll() is None:
            p.kill()


def nl(cmd, *attrs):
    """One raw generic netlink request from en1 (elec.py nl): a Result,
    rc 0 if the kernel acked it, out "error=... msg=... miss=..."."""
    return call(elec_lib.main, ["nl", cmd, *attrs], netns=topo.ns(1))


def show1(g, *more):
    return s.ctl(1, "-j", "show", "dev", "eth0", "group", g, *more)


def opts(g):
    """(ask_suspect, preempt, preempt_delay_ns) of node 1's group @g, as
    text, or what went wrong."""
    try:
        d = s.show(1, g)
    except (RuntimeError, ValueError, IndexError) as e:
        return str(e)
    return str((d["ask_suspect"], d["preempt"], d["preempt_delay_ns"]))


def expect_opts(desc, g, want):
    got = opts(g)
    if got == want:
        return s.pass_("%s: %s" % (desc, got))
    return s.fail("%s: got %s, want %s" % (desc, got, want))


def refused_with(desc, msg, r):
    """PASS if Result @r failed and its output has @msg (shown)."""
    return s.check_refused('%s: refused with "%s"' % (desc, msg),
                           re.escape(msg), r)


def ctl1(*args):
    return s.ctl(1, *args)


s.log("--- options: set at add, changed with set, shown")
s.check("group add bully ask-suspect off preempt off preempt-delay 250ms",
        ctl1("group", "add", "dev", "eth0", "group", 5, "id", 1, "algo",
             "bully", "ask-suspect", "off", "preempt", "off", "preempt-delay",
             "250ms"))
expect_opts("-j show after add", 5, "(False, False, 250000000)")
s.check("group set all three back to the defaults",
        ctl1("group", "set", "dev", "eth0", "group", 5, "ask-suspect", "on",
             "preempt", "on", "preempt-delay", 0))
expect_opts("-j show after set", 5, "(True, True, 0)")
s.check("group set preempt-delay 2s alone",
        ctl1("group", "set", "dev", "eth0", "group", 5, "preempt-delay", "2s"))
expect_opts("-j show: only the delay changed", 5, "(True, True, 2000000000)")
s.check("group set preempt off with a timing change",
        ctl1("group", "set", "dev", "eth0", "group", 5, "preempt", "off",
             "hb-miss", 4))
expect_opts("-j show: preempt off", 5, "(True, False, 2000000000)")
r = ctl1("show", "dev", "eth0", "group", 5)
s.check("show text: ask-suspect on preempt off preempt-delay 2s",
        r.rc == 0 and "ask-suspect on preempt off preempt-delay 2s" in r.out)
s.check("group add bully without options",
        ctl1("group", "add", "dev", "eth0", "group", 7, "id", 1, "algo",
             "bully"))
expect_opts("-j show: the defaults", 7, "(True, True, 0)")

s.log("--- options: bad values refused, nothing changes")
before = show1(5).text
for what, v in (("preempt-delay", "50us"), ("preempt-delay", "61s"),
                ("ask-suspect", "maybe"), ("preempt", "1")):
    s.check_fails("electionctl: %s %s" % (what, v),
                  ctl1("group", "set", "dev", "eth0", "group", 5, what, v))
ifx, g5 = "ifindex=%s" % IFX, "group=5"
refused_with("raw GROUP_SET preempt_delay_ns 50000 (the core's check)",
             "preempt-delay out of range",
             nl("group_set", ifx, g5, "preempt_delay_ns=50000"))
refused_with("raw GROUP_SET preempt_delay_ns 60 s + 1 ns (policy)", "msg=integer out of range",
             nl("group_set", ifx, g5, "preempt_delay_ns=60000000001"))
refused_with("raw GROUP_SET ask_suspect 2 (policy)", "msg=integer out of range",
             nl("group_set", ifx, g5, "ask_suspect=2"))
refused_with("raw GROUP_SET preempt 255 (policy)", "msg=integer out of range",
             nl("group_set", ifx, g5, "preempt=255"))
refused_with("raw GROUP_SET valid hb_interval with a bad delay",
             "preempt-delay out of range",
             nl("group_set", ifx, g5, "hb_interval_ns=500000000",
                "preempt_delay_ns=1"))
refused_with("raw GROUP_NEW with preempt_delay_ns 1",
             "preempt-delay out of range",
             nl("group_new", ifx, "group=8", "node_id=1", "algo=1",
                "preempt_delay_ns=1"))
after = show1(5).text
s.check("group 5 unchanged by the refusals", before == after)
s.check_fails("group 8 was not created",
              ctl1("show", "dev", "eth0", "group", 8))

s.log("--- options: the rings refuse them with the option list's message")
MSG_ASK = "ask-suspect applies to the Bully algorithms only"
MSG_PRE = "preempt applies to the Bully algorithms only"
MSG_DELAY = "preempt-delay applies to the Bully algorithms only"
for algo in ("ring", "ring-all", "ring-list"):
    add6 = ("group", "add", "dev", "eth0", "group", 6, "id", 1, "algo", algo)
    set6 = ("group", "set", "dev", "eth0", "group", 6)
    refused_with("%s: group add ask-suspect off" % algo, MSG_ASK,
                 ctl1(*add6, "ask-suspect", "off"))
    refused_with("%s: group add ask-suspect on (any value)" % algo, MSG_ASK,
                 ctl1(*add6, "ask-suspect", "on"))
    refused_with("%s: group add preempt off" % algo, MSG_PRE,
                 ctl1(*add6, "preempt", "off"))
    refused_with("%s: group add preempt-delay 0" % algo, MSG_DELAY,
                 ctl1(*add6, "preempt-delay", 0))
    # electionctl refuses these itself; --unchecked lets the kernel do it
    refused_with("%s: kernel refuses GROUP_NEW ask-suspect" % algo, MSG_ASK,
                 ctl1("--unchecked", *add6, "ask-suspect", "on"))
    refused_with("%s: kernel refuses GROUP_NEW preempt-delay" % algo,
                 MSG_DELAY, ctl1("--unchecked", *add6, "preempt-delay", 0))
    s.check_fails("%s: group 6 was not created" % algo,
                  ctl1("show", "dev", "eth0", "group", 6))
    s.check("%s: group add without options" % algo, ctl1(*add6))
    expect_opts("%s: -j show reports the defaults" % algo, 6,
                "(True, True, 0)")
    before = show1(6).text
    refused_with("%s: group set preempt on" % algo, MSG_PRE,
                 ctl1(*set6, "preempt", "on"))
    refused_with("%s: group set preempt-delay 1s" % algo, MSG_DELAY,
                 ctl1(*set6, "preempt-delay", "1s"))
    refused_with("%s: group set ask-suspect off with hb-miss 7" % algo,
                 MSG_ASK, ctl1(*set6, "ask-suspect", "off", "hb-miss", 7))
    after = show1(6).text
    s.check("%s: unchanged by the refusals" % algo, before == after)
    s.check("%s: group del" % algo,
            ctl1("group", "del", "dev", "eth0", "group", 6))
s.check("group del 5 and 7",
        ctl1("group", "del", "dev", "eth0", "group", 5) and
        ctl1("group", "del", "dev", "eth0", "group", 7))

s.log("--- resignation: 3 nodes, hb-interval 1s, hb-miss 3")
s.timing = "hb-interval %s hb-miss 3 timeout %s coord-timeout %s" % (
    dur("1s"), dur("100ms"), dur("400ms"))
SNIFF = os.path.join(TMPD, "sniff.jsonl")
SNIFF_LOG = os.path.join(TMPD, "sniff.log")
with open(SNIFF_LOG, "w") as f:
    PROCS["sniff"] = subprocess.Popen(
        ["ip", "netns", "exec", "en1", "python3", ELEC_PY, "sniff", "--dev",
         "eth0", "--out", SNIFF], stdin=subprocess.DEVNULL, stdout=f,
        stderr=subprocess.STDOUT)
for i in (1, 2, 3):
    with open(os.path.join(TMPD, "mon%d.jsonl" % i), "w") as f:
        PROCS["mon%d" % i] = subprocess.Popen(
            ["ip", "netns", "exec", "en%d" % i, s.ctl_path, "-j", "monitor"],
            stdin=subprocess.DEVNULL, stdout=f, stderr=subprocess.STDOUT)


def sniff_log():
    with open(SNIFF_LOG) as f:
        return f.read()


s.wait_for(5, lambda: "listening" in sniff_log())
s.check("sniffer listening on en1 eth0", "listening" in sniff_log())
time.sleep(0.5)     # the monitors have joined the group

s.group_setup(1)
s.start_all(1)
s.agree(1, 3)


def sniffed(mark=0):
    """The sniffer's lines from line @mark on, parsed."""
    with open(SNIFF) as f:
        lines = f.read().splitlines()[mark:]
    return [json.loads(line) for line in lines if line.strip()]


def sniff_mark():
    """The sniffer's line count now (wc -l)."""
    with open(SNIFF) as f:
        return f.read().count("\n")


def mon_events(i):
    """Node @i's monitor events of group 1."""
    out = []
    with open(os.path.join(TMPD, "mon%d.jsonl" % i)) as f:
        for line in f:
            try:
                out.append(json.loads(line))
            except ValueError:
                pass
    return [e for e in out if isinstance(e, dict) and e.get("group") == 1]


def one_leaving(mark):
    hb = [f for f in sniffed(mark) if f["src"] == 3 and f["type"] == 4]
    leaving = [f for f in hb if f["flags"] & 1]
    ok = len(leaving) == 1 and hb[-1] is leaving[0]
    return ok, "heartbeats from 3 since the mark: %d, flagged LEAVING: %d" % (
        len(hb), len(leaving))


def fast_takeover():
    stops = [e["ts_ns"] for e in mon_events(3) if e["event"] == "stopped"]
    if not stops:
        return False, "no stopped event from node 3"
    t0 = stops[-1]
    worst, lines = 0, []
    for i in (1, 2):
        lc = [e["ts_ns"] for e in mon_events(i)
              if e["event"] == "leader_changed" and e["leader"] == 2 and
              e["ts_ns"] >= t0]
        if not lc:
            lines.append("node %d: no leader_changed to 2 after the stop" % i)
            return False, "\n".join(lines)
        dt = (lc[0] - t0) / 1e9
        lines.append("node %d: leader 2 after %.3f s" % (i, dt))
        worst = max(worst, dt)
    return worst < BOUND_FAST, "\n".join(lines)


def check_resign(what, mark):
    """Since sniff line @mark: exactly one LEAVING heartbeat from 3, its
    last heartbeat; each survivor's first leader_changed to 2 after node
    3's last stopped event within BOUND_FAST."""
    ok, detail = one_leaving(mark)
    s.check("%s: one LEAVING heartbeat from 3 on the wire, its last heartbeat"
            % what, ok, detail)
    ok, detail = fast_takeover()
    s.check("%s: survivors 1 and 2 elect 2 within %gs of 3's stopped event"
            % (what, BOUND_FAST), ok, detail)


def tx_hb_matches(what):
    """Node 3's tx heartbeat counter equals the heartbeats from 3 the
    sniffer saw since the group started (the flagged ones included)."""
    tx = s.stats(3, 1)["tx"]["heartbeat"]
    seen = sum(1 for f in sniffed()
               if f["src"] == 3 and f["type"] == 4 and f["group"] == 1)
    if tx == seen and tx > 1:
        return s.pass_("%s: node 3 tx heartbeat %d = heartbeats seen on the "
                       "wire %d" % (what, tx, seen))
    return s.fail("%s: node 3 tx heartbeat %d, heartbeats seen on the wire %d"
                  % (what, tx, seen))


def stop_proc(name):
    p = PROCS.pop(name)
    p.terminate()
    p.wait()


time.sleep(sec(2.5))    # a few heartbeats
s.log("case 1: group stop on leader 3")
mark = sniff_mark()
s.check("group stop on 3", s.ctl(3, "group", "stop", "dev", "eth0", "group", 1))
s.agree(1, 2, s.bound, 0, ids=[1, 2])
check_resign("group stop", mark)
time.sleep(0.3)
tx_hb_matches("group stop")
s.check("group start on 3",
        s.ctl(3, "group", "start", "dev", "eth0", "group", 1))
s.agree(1, 3)

time.sleep(sec(2.5))
s.log("case 2: eth0 of leader 3 set down")
mark = sniff_mark()
s.check_cmd("eth0 of 3 down", "ip", "-n", "en3", "link", "set", "eth0", "down")
s.agree(1, 2, s.bound, 0, ids=[1, 2])
check_resign("device down", mark)
tx_hb_matches("device down")
s.check_cmd("eth0 of 3 up", "ip", "-n", "en3", "link", "set", "eth0", "up")
s.agree(1, 3)

time.sleep(sec(2.5))
s.log("case 3: group del on leader 3")
mark = sniff_mark()
s.check("group del on 3", s.ctl(3, "group", "del", "dev", "eth0", "group", 1))
s.agree(1, 2, s.bound, 0, ids=[1, 2])
check_resign("group del", mark)
s.group_setup(1, ids=[3])
s.check("group start on 3",
        s.ctl(3, "group", "start", "dev", "eth0", "group", 1))
s.agree(1, 3)

# node 3's instance is new since case 3: let its heartbeat timer run twice
time.sleep(sec(2.5))
s.log("timer lateness on every node (node 3 has led for seconds: its "
      "heartbeat timer ran)")
for i in (1, 2, 3):
    least = 1 if i == 3 else 0
    try:
        t = s.stats(i, 1)["timer_late"]
        b, n = t["buckets"], t["count"]
        ok = (len(b) == 22 and n >= least and sum(b) == n and
              (t["max_ns"] > 0) == (n > 0))
    except (RuntimeError, ValueError, KeyError, TypeError) as e:
        t, ok = e, False
    s.check("node %d: timer_late has 22 buckets summing to count >= %d, max_ns "
            "> 0 if count > 0" % (i, least), ok, t)
r = s.ctl(3, "stats", "dev", "eth0", "group", 1)
lines = [x for x in r.out.splitlines()
         if re.search(r"timer_late count [1-9][0-9]* max [1-9]", x)]
s.check("stats text: a timer_late line", bool(lines), "\n".join(lines))

time.sleep(sec(2.5))
s.log("case 4: a crash (namespace of leader 3 deleted) sends nothing")
stop_proc("mon3")   # it would keep en3 alive
mark = sniff_mark()
s.check("namespace of 3 deleted", s.node_crash(3))
s.agree(1, 2, s.bound, 0, ids=[1, 2])
fl = [f for f in sniffed(mark) if f["flags"]]
s.check("crash: no LEAVING heartbeat on the wire", not fl,
        "%d flagged frames since the crash" % len(fl))

s.log("case 5: rmmod while 2 leads")
for i in (1, 2):
    PROCS["mon%d" % i].terminate()
time.sleep(sec(1.5))
mark = sniff_mark()
s.check_cmd("rmmod election", "rmmod", "election")
time.sleep(0.5)
fl = [(f["src"], f["type"]) for f in sniffed(mark) if f["flags"] & 1]
s.check("rmmod: one LEAVING heartbeat, from leader 2 only", fl == [(2, 4)],
        "flagged frames since rmmod: %s" % fl)
for name in list(PROCS):
    stop_proc(name)
shutil.rmtree(TMPD, ignore_errors=True)
s.end()
