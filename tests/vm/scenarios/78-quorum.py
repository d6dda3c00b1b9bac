#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Quorum for the Bully algorithms (quorum on), 5 nodes (ids 1..5), default
timing (hb-interval 100ms hb-miss 5 timeout 100ms: lease 300ms). The
switch has two bridges, br0 and br1, joined by a veth pair (bl0 on br0,
bl1 on br1), as in 77-invitation: taking the pair down splits the nodes
into the two bridges' sides, each still connected inside; bringing it
up heals it. p1..p3 start on br0, p4 and p5 on br1; p3 moves to br1
for the splits {1,2} | {3,4,5}.

 1. the kernel's refusals (electionctl --unchecked; extack message,
    nothing created or changed): quorum on a ring and an invitation
    group, hb-miss 2, the timing rule at its boundary, group set of
    hb-miss 2 and of quorum on a running group; electionctl's own
    refusal on a ring; show -j quorum true / false
 2. start: all agree on 5 (role leader); every non-leader's tx.alive
    grows, the leader's does not (it receives them)
 3. split {1,2,3} | {4,5} (the leader on the minority side): 5 steps
    down (role follower, no leader, quorum_lost + 1), 4 and 5 stay
    without a leader, 1..3 agree on 3. elec.py watch reads every node's
    role every 20 ms (GROUP_GET) and records the kernel's events: no
    two nodes in role leader at once, neither in any poll round nor in
    the role intervals rebuilt from the leader_changed events' ts_ns
    (which must agree with every poll)
 4. heal: all agree on 5 again (still watched: one leader at a time)
 5. split {1,2} | {3,4,5} (the leader on the majority side): 5 keeps
    its role throughout, 1 and 2 have no leader; heal
 6. quorum off (group set while stopped), split {1,2,3} | {4,5}: two
    leaders (5 keeps leading alone); logged, not asserted
 7. min-bully with quorum on (leader 1, the lowest id), split {1,2} |
    {3,4,5}: 1 steps down, 3 leads the majority, never two leaders;
    heal: 1 again

A long-lived `ip -n esw -batch -` takes the splits and heals: each is
one write to it, the time taken just before (time.time_ns(): CLOCK_REALTIME,
the origin of the role judgement's times), without the 0.1-1 s a new ip
process costs a TCG guest between that time and the link's change. The
watch recorder is one background `elec.py watch` per split; its record
is judged in process (elec_lib.cmd_roles)."""

import argparse
import atexit
import contextlib
import io
import json
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
from electest import checks, topo  # noqa: E402
from electest.scenario import SCALE, Result, Scenario, dur, run, sec  # noqa: E402
import elec_lib  # noqa: E402  (to be electest.events: watch records, roles)

ELEC_PY = os.path.join(REPO, "tests", "vm", "elec.py")
NODES = (1, 2, 3, 4, 5)
NOBULLY = "quorum applies to the Bully algorithms only"
TIMING = "quorum needs hb-interval x (hb-miss - 2) above 1.5 x timeout"
STOPPED = "quorum can be changed only while the group is stopped"


def fs(v):
    """The scaled duration @v in seconds, as lib.sh's elec_sec prints it."""
    return "%g" % sec(v)


s = Scenario()
G = 1
TMPD = tempfile.mkdtemp()
s.up(*NODES)


def ip_check(desc, *args):
    return s.check_cmd(desc, "ip", "-n", "esw", *args)


s.two_bridges(4, 5)

# the splits and heals: one write each to a long-lived ip -batch
IPB_LOG = open(os.path.join(TMPD, "ipb.log"), "w")
IPB = subprocess.Popen(["ip", "-n", "esw", "-batch", "-"], text=True,
                       stdin=subprocess.PIPE, stdout=IPB_LOG,
                       stderr=subprocess.STDOUT)
T = {}      # "split", "heal": CLOCK_REALTIME ns taken just before the write


def bl0_show():
    return run(["ip", "-n", "esw", "-o", "link", "show", "bl0"]).out


def bl0_set(state):
    """bl0 @state ("up", "down") through ip -batch; a Result once the
    link reads so (5 s at most)."""
    try:
        IPB.stdin.write("link set bl0 %s\n" % state)
        IPB.stdin.flush()
    except OSError as e:
        return Result(1, "", "ip -batch: %s" % e)
    for _ in range(100):
        if bool(re.search(r"[<,]UP[,>]", bl0_show())) == (state == "up"):
            return Result(0, "", "")
        time.sleep(0.05)
    return Result(1, "bl0 not %s: %s" % (state, bl0_show()), "")


def split():
    T["split"] = time.time_ns()
    return bl0_set("down")


def heal():
    T["heal"] = time.time_ns()
    return bl0_set("up")


def secs(a, b):
    """@b - @a (ns) in seconds, to 0.1 ms (as the bash printed it)."""
    return round((b - a) / 1e9, 4)


def within(lo, x, hi, le=False):
    """@lo < @x < @hi (with @le: x <= hi); None fails."""
    if None in (lo, x, hi):
        return False
    return lo < x and (x <= hi if le else x < hi)


def gap(a, b):
    return "None" if None in (a, b) else "%.4f" % (b - a)


refused_with = s.refused_with


def show_all(fn, *ids, g=None):
    """@fn over each node's -j show object of group @g (default G)."""
    return [fn(s.show(i, G if g is None else g)) for i in ids]


def on_every_node(*args):
    """electionctl ARGS on every node at once; True if each exits 0."""
    procs = [subprocess.Popen([s.ctl_path, "-n", topo.ns(i)] +
                              [str(a) for a in args]) for i in NODES]
    return all([p.wait() == 0 for p in procs])


s.log("--- 1. refusals, show")
refused_with("kernel: GROUP_NEW ring quorum on", NOBULLY, s.ctl(
    1, "--unchecked", "group", "add", "dev", "eth0", "group", 2, "id", 1,
    "algo", "ring", "quorum", "on"))
refused_with("kernel: GROUP_NEW invitation quorum on", NOBULLY, s.ctl(
    1, "--unchecked", "group", "add", "dev", "eth0", "group", 2, "id", 1,
    "algo", "invitation", "quorum", "on"))
refused_with("kernel: GROUP_NEW bully quorum on hb-miss 2", TIMING, s.ctl(
    1, "--unchecked", "group", "add", "dev", "eth0", "group", 2, "id", 1,
    "algo", "bully", "quorum", "on", "hb-interval", "1s", "hb-miss", 2,
    "timeout", "1ms"))
refused_with("kernel: GROUP_NEW quorum on, 2 x 150ms x (3 - 2) = 3 x 100ms "
             "(not above)", TIMING, s.ctl(
                 1, "--unchecked", "group", "add", "dev", "eth0", "group", 2,
                 "id", 1, "algo", "bully", "quorum", "on", "hb-interval",
                 "150ms", "hb-miss", 3, "timeout", "100ms"))
s.check_fails("group 2 was not created",
              s.ctl(1, "show", "dev", "eth0", "group", 2))
refused_with("electionctl: quorum on a ring",
             '%s: algo bully, min-bully or enh-bully only (not "ring")'
             % NOBULLY, s.ctl(1, "group", "add", "dev", "eth0", "group", 2,
                              "id", 1, "algo", "ring", "quorum", "on"))
s.check_fails("group 2 was not created",
              s.ctl(1, "show", "dev", "eth0", "group", 2))
s.check("GROUP_NEW quorum on, 2 x 151ms x (3 - 2) above 3 x 100ms: accepted",
        s.ctl(1, "group", "add", "dev", "eth0", "group", 2, "id", 1, "algo",
              "bully", "quorum", "on", "hb-interval", "151ms", "hb-miss", 3,
              "timeout", "100ms"))
s.check("group add bully without quorum (group 3)",
        s.ctl(1, "group", "add", "dev", "eth0", "group", 3, "id", 1, "algo",
              "bully"))
got = [s.show(1, 2)["quorum"], s.show(1, 3)["quorum"]]
s.check("show -j: quorum true on group 2, false on group 3 (created without "
        "it): %s" % " ".join(map(str, got)), got == [True, False])
s.check("group del 2", s.ctl(1, "group", "del", "dev", "eth0", "group", 2))
s.check("group del 3", s.ctl(1, "group", "del", "dev", "eth0", "group", 3))

s.group_setup(G, opts=["quorum", "on"])
refused_with("kernel: GROUP_SET hb-miss 2 on a (stopped) quorum group",
             TIMING, s.ctl(1, "--unchecked", "group", "set", "dev", "eth0",
                           "group", G, "hb-miss", 2))
got = sorted(set(show_all(lambda d: (d["quorum"], d["hb_miss"]), *NODES)))
s.check("show -j on every node: quorum true, hb-miss 5 (unchanged): %s"
        % " ".join(map(str, got)), got == [(True, 5)])

s.log("--- 2. start")
s.start_all(G)
s.agree(G, 5)
refused_with("kernel: GROUP_SET quorum off on a running follower", STOPPED,
             s.ctl(1, "--unchecked", "group", "set", "dev", "eth0", "group",
                   G, "quorum", "off"))
refused_with("kernel: GROUP_SET quorum off on the running leader", STOPPED,
             s.ctl(5, "--unchecked", "group", "set", "dev", "eth0", "group",
                   G, "quorum", "off"))
got = show_all(lambda d: "%s/%s" % (d["quorum"], d["role"]), 1, 5)
s.check("quorum still true on 1 (follower) and 5 (leader): %s" % " ".join(got),
        got == ["True/follower", "True/leader"])
# tx.alive and rx.alive of every node, read twice (STATS_GET, the nodes at
# once) elec_sec 1 s apart
try:
    a = checks.all_stats(s.nodes_of(NODES), G, "eth0")
    t = time.monotonic()
    time.sleep(sec(1))
    b = checks.all_stats(s.nodes_of(NODES), G, "eth0")
    took = time.monotonic() - t
    alive = {int(n): (b[n]["tx"]["alive"] - a[n]["tx"]["alive"],
                      b[n]["rx"]["alive"] - a[n]["rx"]["alive"]) for n in a}
except (RuntimeError, KeyError) as e:
    print("    stats: %s" % e)
    took, alive = 0, {}
s.log("tx/rx alive over two stats reads (id:tx:rx; the first field: s between "
      "them): %.2f %s" % (took, " ".join("%d:%d:%d" % (n, tx, rx) for n, (
          tx, rx) in sorted(alive.items()))))
for nid, (tx, rx) in sorted(alive.items()):
    if nid == 5:
        s.check("node 5 (leader): tx.alive +%d (0)" % tx, tx == 0)
        s.check("node 5 (leader): rx.alive +%d (>= 20: four followers)" % rx,
                rx >= 20)
    else:
        s.check("node %d (follower): tx.alive +%d (>= 5; hb-interval %s, %ss "
                "pause)" % (nid, tx, dur("100ms"), fs(1)), tx >= 5)
s.check("five nodes' counters read", len(alive) == 5)

# the watch: one background elec.py watch per split, judged in process
WATCH = {}


def watch_start(name):
    """elec.py watch over every node into TMPD/NAME.jsonl."""
    f = os.path.join(TMPD, name + ".jsonl")
    with open(f + ".log", "w") as logf:
        p = subprocess.Popen(
            ["python3", ELEC_PY, "watch", "--group", str(G), "--interval",
             "0.02", "--out", f] + ["en%d:%d" % (i, i) for i in NODES],
            stdin=subprocess.DEVNULL, stdout=logf, stderr=subprocess.STDOUT)
    WATCH.update(file=f, proc=p)

    def head():
        with open(f + ".log") as lf:
            return lf.readline().rstrip("\n")

    s.wait_for(10, lambda: "watching" in head())
    first = head()
    s.check("watcher: %s" % first, "watching" in first)


@atexit.register
def _watch_gone():
    # an early end: no recorder left running, ip -batch at EOF
    p = WATCH.get("proc")
    if p is not None and p.poll() is None:
        p.kill()
    if IPB.poll() is None:
        IPB.stdin.close()


class Judgement:
    """elec_lib.cmd_roles's JSON object; R_<field> of the bash as
    attributes, per node values through node()."""

    def __init__(self, res):
        self.res = res
        self.span = round(res["span"][1] - res["span"][0], 3)

    def __getattr__(self, k):
        return self.res[k]

    def node(self, nid, k):
        return self.res["nodes"].get(str(nid), {}).get(k)


def watch_stop(quorum, origin):
    """Stop the watch and judge its record; a Judgement."""
    p, f = WATCH["proc"], WATCH["file"]
    p.send_signal(signal.SIGTERM)
    p.wait()
    WATCH["proc"] = None
    with open(f + ".log") as lf:
        sys.stdout.write("".join("    " + line for line in lf))
    out, err = io.StringIO(), io.StringIO()
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            elec_lib.cmd_roles(argparse.Namespace(
                file=f, quorum=quorum, origin_real=origin, timeline=True,
                shell=False))
        res = json.loads(out.getvalue())
    except Exception as e:     # shown; the check fails
        res = None
        print("    roles: %r" % e)
    s.check("elec.py roles judged the watch", res is not None)
    if res is None:
        raise RuntimeError("the watch %s was not judged" % f)
    with open(f + ".timeline", "w") as tf:
        tf.write(err.getvalue())
    if os.environ.get("RESULTS_DIR"):
        for x in (f, f + ".timeline"):
            with contextlib.suppress(OSError):
                shutil.copy(x, os.environ["RESULTS_DIR"])
    r = Judgement(res)
    print("    role leader intervals (s since the split): %s"
          % json.dumps(r.intervals))
    print("    quorum_lost growth per node: %s" % " ".join(
        "%d:%s" % (i, r.node(i, "quorum_lost")) for i in NODES))
    print("    leader_changed, election_started events (s since the split):")
    sys.stdout.write(err.getvalue())
    return r


def one_leader_checks(what, r):
    """The watch saw no two nodes in role leader at once."""
    s.check("%s: the watcher polled %d rounds (%d written) in %ss (one per %d "
            "ms at least)" % (what, r.rounds, r.rows, r.span, 50 * SCALE),
            r.rounds >= r.span * 20 / SCALE)
    s.check("%s: every event seen (%d; lost %d, seq gaps %d)" % (
        what, r.events, r.lost, r.seq_gaps), (r.lost, r.seq_gaps) == (0, 0))
    s.check("%s: the role intervals rebuilt from the events agree with every "
            "poll (first: %s)" % (what, json.dumps(r.mismatch_first)),
            r.mismatches == 0)
    s.check("%s: no poll round with two nodes in role leader (first: %s)" % (
        what, json.dumps(r.coleader_first)), r.coleader_rounds == 0)
    s.check("%s: no two nodes' role leader intervals overlap (kernel ts_ns): "
            "%s" % (what, json.dumps(r.overlaps)), r.overlaps == [])


def led(r, *ids):
    return "".join(str(r.node(i, "led")) for i in ids)


def handover(what, algo, r, old, heal_s, never):
    """A split with leader @old on the minority side, healed after
    @heal_s s: no two leaders at once; @old lost quorum and stepped down,
    3 took the role before the heal and left it after it, before @old
    took it again; none of @never led."""
    one_leader_checks(what, r)
    down, up3, upend3, up = (r.node(old, "down"), r.node(3, "up"),
                             r.node(3, "upend"), r.node(old, "up"))
    s.check("node %d: quorum_lost +%s over the split and heal (1 at least)"
            % (old, r.node(old, "quorum_lost")),
            within(0, r.node(old, "quorum_lost"), 1000))
    s.check("node %d stepped down %ss after the split (lease %s; bound %ss)"
            % (old, down, dur("300ms"), fs(2)), within(0, down, sec(2)))
    s.check("node 3 took the role %ss after the split, after %d left it, "
            "before the heal (%.4fs)" % (up3, old, heal_s),
            within(down, up3, heal_s))
    s.check("node 3 left it after the heal (%ss), before %d took it again "
            "(%ss)" % (upend3, old, up), within(heal_s, upend3, up, le=True))
    s.check("nodes %s and %d never in role leader" % (
        ", ".join(map(str, never[:-1])), never[-1]),
        led(r, *never) == "0" * len(never))
    s.log("MEASURED %s split: %d stepped down after %ss, 3 leader after %ss "
          "(gap %ss); heal at %.4fs: 3 left at %ss, %d leader at %ss (gap %ss)"
          % (algo, old, down, up3, gap(down, up3), heal_s, upend3, old, up,
             gap(upend3, up)))


s.log("--- 3. split {1,2,3} | {4,5}: the leader on the minority side")
watch_start("split1")
time.sleep(sec(0.3))
s.check("split", split())
t_split = T["split"]
s.sides(G, [(3, (1, 2, 3)), (0, (4, 5))], sec(3),
        desc="1..3 agree on 3; 4 and 5 without a leader (role follower); for "
        "%ss" % fs(3))
s.log("--- 4. heal")
s.check("heal", heal())
heal_s = secs(t_split, T["heal"])
s.agree(G, 5)
handover("split and heal", "bully", watch_stop("on", t_split), 5, heal_s,
         (1, 2, 4))

s.log("--- 5. split {1,2} | {3,4,5}: the leader on the majority side")
ip_check("p3 on br1", "link", "set", "p3", "master", "br1")
watch_start("split2")
time.sleep(sec(0.3))
s.check("split", split())
t_split = T["split"]
s.sides(G, [(0, (1, 2)), (5, (3, 4, 5))], sec(2),
        desc="1 and 2 without a leader (role follower); 3..5 agree on 5; for "
        "%ss" % fs(2))
s.check("heal", heal())
s.agree(G, 5)
r = watch_stop("on", t_split)
one_leader_checks("split with the leader on the majority side", r)
s.check("node 5 in role leader throughout (one interval, from before the "
        "split to the end)", r.node(5, "held") == 1)
s.check("node 5: quorum_lost +%s over the split and heal (0)"
        % r.node(5, "quorum_lost"), r.node(5, "quorum_lost") == 0)
s.check("no other node in role leader", led(r, 1, 2, 3, 4) == "0000")

s.log("--- 6. for comparison, quorum off: split {1,2,3} | {4,5}")
s.check("group stop on every node",
        on_every_node("group", "stop", "dev", "eth0", "group", G))
s.check("group set quorum off on the stopped group (every node)",
        on_every_node("group", "set", "dev", "eth0", "group", G, "quorum",
                      "off"))
got = sorted(set(show_all(lambda d: d["quorum"], *NODES)))
s.check("show -j: quorum false on every node (%s)" % " ".join(map(str, got)),
        got == [False])
ip_check("p3 back on br0", "link", "set", "p3", "master", "br0")
s.start_all(G)
s.agree(G, 5)
watch_start("split3")
time.sleep(sec(0.3))
s.check("split", split())
t_split = T["split"]
s.agree(G, 3, s.bound, 0, ids=[1, 2, 3])
s.check("heal", heal())
heal_s = secs(t_split, T["heal"])
s.agree(G, 5)
r = watch_stop("off", t_split)
s.log("MEASURED quorum off: overlaps (a, b, from, to, s) %s; poll rounds with "
      "two leaders %d; 3 leader after %ss, heal at %.4fs, 3 left at %ss" % (
          json.dumps(r.overlaps), r.coleader_rounds, r.node(3, "up"), heal_s,
          r.node(3, "upend")))
s.log("quorum off: two nodes in role leader for %ss in all (5 kept leading "
      "alone; not asserted)" % r.overlap_total)

s.log("--- 7. min-bully, quorum on: split {1,2} | {3,4,5}, the leader (1) on "
      "the minority side")
s.check("group %d deleted on every node" % G,
        on_every_node("group", "del", "dev", "eth0", "group", G))
G = 3
ip_check("p3 on br1", "link", "set", "p3", "master", "br1")
s.group_setup(G, algo="min-bully", opts=["quorum", "on"])
s.start_all(G)
s.agree(G, 1)
watch_start("split4")
time.sleep(sec(0.3))
s.check("split", split())
t_split = T["split"]
s.sides(G, [(0, (1, 2)), (3, (3, 4, 5))], sec(2),
        desc="1 and 2 without a leader (role follower); 3..5 agree on 3; for "
        "%ss" % fs(2))
s.check("heal", heal())
heal_s = secs(t_split, T["heal"])
s.agree(G, 1)
handover("min-bully split and heal", "min-bully", watch_stop("on", t_split),
         1, heal_s, (2, 4, 5))

IPB.stdin.close()   # ip -batch ends at EOF
IPB.wait()
IPB_LOG.close()
shutil.rmtree(TMPD, ignore_errors=True)
s.finish(G)
