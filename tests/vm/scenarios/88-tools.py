#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The module and the tools the way a keepalived or WireGuard user runs
them.

Install: the DKMS tree (make dkms-tree: dkms add, build, install under
build/dkms) loads with "modprobe -d"; electionctl -V names its version;
with /proc/sys/kernel/modprobe pointing at a wrapper that looks in that
tree, the first electionctl request loads the module (its
MODULE_ALIAS_GENL_FAMILY). Skipped, with a message, when the tree is not
built or not for this kernel (the debug kernel): the rest runs on insmod.

iproute2 conventions: exit 1 for an argument error (nothing sent), 2 for
a request the kernel refuses; -n NETNS; abbreviations.

Configuration that survives: showconf prints a batch that, after -undo
-batch deleted the group, recreates it exactly (-batch; showconf equal);
election@.service's ExecStop (-undo -batch) and ExecStart (-start -batch)
lines, taken from the unit with the file under /tmp, delete and bring
back a group that then rejoins and agrees.

show per peer: heard N ms ago; a mistyped lladdr shows the address the
peer's frames come from (seen_lladdr, lladdr_mismatch) while wrong_lladdr
drops count them.

monitor: a snapshot event per instance first, the dev/group filter, roles
in events, -ts timestamps."""

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.environ.get("ELECTION_REPO", "."),
                                "tests", "lib"))
from electest import REPO, topo  # noqa: E402
from electest.scenario import Scenario, indent, read, run, sec  # noqa: E402

s = Scenario()
KVER = os.uname().release
DKMS = os.path.join(REPO, "build", "dkms", "root")
TMPD = tempfile.mkdtemp()


def ctl_rc(want, desc, r):
    """Result @r has exit status @want."""
    if r.text:
        sys.stdout.write(indent(r.text))
    if r.rc == want:
        return s.pass_("%s: exit %d" % (desc, r.rc))
    return s.fail("%s: exit %d, want %d" % (desc, r.rc, want))


def loaded():
    return "\nelection " in "\n" + run(["lsmod"]).out


def peer3(nid=1):
    return s.ctl_json(nid, "peer", "show", "dev", "eth0", "group", 1, "id",
                      3)[0]


def check_steps(desc, *results):
    """lib.sh's check of an "a && b" shell line: the steps run until one
    fails; PASS if all exit 0."""
    text, ok = "", True
    for step in results:
        r = step()
        text += r.text + ("\n" if r.text else "")
        if not r:
            ok = False
            break
    return s.check(desc, ok, text.rstrip("\n"))


s.log("--- install: the DKMS tree")
s.modprobe("veth", "bridge")
if loaded():
    run(["rmmod", "election"])
if os.path.isfile(os.path.join(DKMS, "lib", "modules", KVER, "modules.dep")):
    s.check_cmd("modprobe -d build/dkms/root election", "modprobe", "-d",
                DKMS, "election")
    ver = read(os.path.join(REPO, "VERSION")).strip()
    out = run([s.ctl_path, "-V"]).out
    sys.stdout.write(indent(out))
    lines = out.splitlines()
    s.either(len(lines) > 1 and lines[1] == "election.ko " + ver,
             "electionctl -V: the loaded module is %s" % ver,
             "electionctl -V: want election.ko %s on line 2" % ver)
    s.check_cmd("rmmod election", "rmmod", "election")
    s.log("--- the first request loads the module (MODULE_ALIAS_GENL_FAMILY)")
    # the kernel runs it from init's root: in the VM harness, the
    # initramfs, with this system (our root) under /host
    HR = "/host" if os.environ.get("ELECTION_VM", "0") == "1" else ""
    with open(os.path.join(TMPD, "modprobe"), "w") as f:
        f.write('#!/bin/sh\necho "$@" >>%s/modprobe.log\nexec %s '
                '/sbin/modprobe -d %s "$@"\n' % (
                    HR + TMPD, "chroot " + HR if HR else "", DKMS))
    os.chmod(os.path.join(TMPD, "modprobe"), 0o755)
    oldmp = read("/proc/sys/kernel/modprobe")
    with open("/proc/sys/kernel/modprobe", "w") as f:
        f.write(HR + TMPD + "/modprobe\n")
    s.check_cmd("electionctl show, the module not loaded: succeeds",
                s.ctl_path, "show")
    with open("/proc/sys/kernel/modprobe", "w") as f:
        f.write(oldmp)
    log = read(os.path.join(TMPD, "modprobe.log"))
    s.either(loaded() and "net-pf-16-proto-16-family-election" in log,
             "the kernel asked for net-pf-16-proto-16-family-election "
             "and loaded election",
             "no autoload (modprobe asked: %s)" % log.strip())
else:
    s.log("skip: no DKMS tree for %s in build/dkms (make dkms-tree; the "
          "debug kernel has none)" % KVER)
    if not s.load():
        s.end()
if not loaded() and not s.load():
    s.end()

if not (s.topo(1, 2, 3) and s.group_setup(1)):
    s.end()
s.start_all(1)
s.agree(1, 3)

s.log("--- exit status: 1 for arguments, 2 for the kernel")
ctl_rc(2, "group add of an existing group (kernel: exists)",
       s.ctl(1, "group", "add", "dev", "eth0", "group", 1, "id", 1, "algo",
             "bully"))
ctl_rc(2, "group del of an unknown group",
       s.ctl(1, "group", "del", "dev", "eth0", "group", 9))
ctl_rc(2, "group set quorum on while running",
       s.ctl(1, "group", "set", "dev", "eth0", "group", 1, "quorum", "on"))
ctl_rc(1, "unknown device (nothing sent)",
       s.ctl(1, "group", "del", "dev", "nosuch0", "group", 1))
ctl_rc(1, "ambiguous keyword hb",
       s.ctl(1, "group", "set", "dev", "eth0", "group", 1, "hb", "1ms"))
ctl_rc(0, "abbreviations: gr sh d eth0 gr 1",
       s.ctl(1, "gr", "sh", "d", "eth0", "gr", 1))
ctl_rc(0, "-n en1 show dev eth0 group 1",
       run([s.ctl_path, "-n", "en1", "show", "dev", "eth0", "group", 1]))
got = s.show(2, 1)["id"]
s.check("-n en2: node 2's instance" if got == 2 else "-n en2: id %s" % got,
        got == 2)

s.log("--- show per peer: heard, the address seen")
d = peer3()
v = (d["heard_ms_ago"] is not None and d["heard_ms_ago"] < 5000,
     d["seen_lladdr"], d["lladdr_mismatch"])
s.either(v == (True, topo.mac(3), False),
         "node 1 heard peer 3 lately, from its lladdr: %s" % (v,),
         "peer 3 as node 1 sees it: %s" % (v,))
# the leader's (3's) heartbeats are what node 1 hears
check_steps("peer 3 (the leader) mistyped on node 1 (lladdr 02:00:00:00:99:99)",
            lambda: s.ctl(1, "peer", "del", "dev", "eth0", "group", 1, "id",
                          3),
            lambda: s.ctl(1, "peer", "add", "dev", "eth0", "group", 1, "id",
                          3, "lladdr", "02:00:00:00:99:99"))
time.sleep(sec(1))
d = peer3()
v = (d["lladdr"], d["seen_lladdr"], d["lladdr_mismatch"])
s.either(v == ("02:00:00:00:99:99", topo.mac(3), True),
         "the mistyped peer: the address actually seen, flagged: %s"
         % (v,),
         "the mistyped peer: %s" % (v,))
drops = s.stats(1, 1)["drops"]["wrong_lladdr"]
s.either((drops or 0) > 0, "stats: wrong_lladdr drops %s" % drops,
         "stats: wrong_lladdr %s" % drops)
r = s.ctl(1, "peer", "show", "dev", "eth0", "group", 1, "id", 3)
s.either("seen-lladdr %s (differs from lladdr)" % topo.mac(3) in r.out,
         "peer show text flags it", "peer show text: %s" % r.text)
check_steps("peer 3 fixed",
            lambda: s.ctl(1, "peer", "delete", "dev", "eth0", "group", 1,
                          "id", 3),
            lambda: s.ctl(1, "peer", "add", "dev", "eth0", "group", 1, "id",
                          3, "lladdr", topo.mac(3)))
s.agree(1, 3)

s.log("--- showconf | -batch recreates the configuration")
s.check("node 1: group set preempt-delay 5ms ask-suspect off",
        s.ctl(1, "group", "set", "dev", "eth0", "group", 1, "preempt-delay",
              "5ms", "ask-suspect", "off"))
conf1 = s.ctl(1, "showconf").out
CONF1 = os.path.join(TMPD, "conf1")
with open(CONF1, "w") as f:
    f.write(conf1)
sys.stdout.write(indent(conf1))
s.either(re.search(r"^group add dev eth0 group 1 id 1 algo bully "
                   r".*ask-suspect off preempt-delay 5ms", conf1, re.M) and
         len(re.findall(r"^peer add dev eth0 group 1 id ", conf1, re.M)) == 2
         and re.search(r"^group start dev eth0 group 1$", conf1, re.M),
         "showconf: group add with the options, two peers, group start",
         "showconf output")
s.check("-undo -batch: the group is deleted",
        s.ctl(1, "-undo", "-batch", CONF1))
n = len(s.ctl_json(1, "show"))
s.check("no instance on node 1" if n == 0 else
        "%d instances left on node 1" % n, n == 0)
ctl_rc(0, "-undo -batch again: nothing to delete is no error",
       s.ctl(1, "-undo", "-batch", CONF1))
s.check("-batch: recreated", s.ctl(1, "-batch", CONF1))
conf2 = s.ctl(1, "showconf").out
if not s.either(conf1 == conf2, "showconf after the batch is the same",
                "showconf differs after the batch"):
    sys.stdout.write(indent(run(["diff", CONF1, "-"], stdin=conf2).out))
s.agree(1, 3)

s.log("--- election@.service's ExecStopPost and ExecStart lines")
os.makedirs(os.path.join(TMPD, "etc"), exist_ok=True)
BATCH = os.path.join(TMPD, "etc", "eth0.batch")
with open(BATCH, "w") as f:
    f.write("".join(line for line in s.ctl(2, "showconf").out
                    .splitlines(True) if not line.startswith("group start")))
UNIT = read(os.path.join(REPO, "dist", "election@.service.in"))


def unit_line(key):
    """The unit's @key= line, for this tree and the batch under TMPD."""
    for line in UNIT.splitlines():
        if line.startswith(key + "="):
            return line[len(key) + 1:].replace(
                "@SBINDIR@", os.path.join(REPO, "userspace"), 1).replace(
                "/etc/election/%i.batch", BATCH, 1)
    return ""


stop = unit_line("ExecStopPost")
start = unit_line("ExecStart")
s.log("ExecStopPost: %s" % stop)
s.log("ExecStart: %s" % start)
s.check_cmd("ExecStopPost on node 2", "ip", "netns", "exec", "en2",
            *stop.split())
n = len(s.ctl_json(2, "show"))
s.check("ExecStopPost deleted node 2's group" if n == 0 else
        "node 2 still has %d" % n, n == 0)
s.check_cmd("ExecStart on node 2 (the file has no group start line)", "ip",
            "netns", "exec", "en2", *start.split())
d = s.show(2, 1)
v = (d["admin_up"], d["role"] != "stopped")
s.check(("ExecStart started the group: %s" if v == (True, True) else
         "after ExecStart: %s") % (v,), v == (True, True))
s.agree(1, 3)

s.log("--- monitor: snapshot first, filter, roles, -ts")
MON_JSON = os.path.join(TMPD, "mon.json")
MON_TXT = os.path.join(TMPD, "mon.txt")
mons = []
for path, args in ((MON_JSON, ["-j", "monitor", "dev", "eth0", "group", "1"]),
                   (MON_TXT, ["-ts", "monitor", "group", "1"])):
    with open(path, "w") as f:
        mons.append(subprocess.Popen([s.ctl_path, "-n", topo.ns(1)] + args,
                                     stdout=f, stderr=subprocess.STDOUT))
time.sleep(sec(1))
s.check("group add on node 1, group 2 (filtered out)",
        s.ctl(1, "group", "add", "dev", "eth0", "group", 2, "id", 1, "algo",
              "ring"))
s.ctl(1, "group", "start", "dev", "eth0", "group", 2)
s.ctl(1, "group", "elect", "dev", "eth0", "group", 1)
time.sleep(sec(2))
for p in mons:
    p.terminate()
for p in mons:
    p.wait()
mon = read(MON_JSON)
sys.stdout.write(indent("\n".join(mon.splitlines()[:8])))
evs = []
for line in mon.splitlines():
    if line.strip():
        try:
            evs.append(json.loads(line))
        except ValueError:
            evs.append({})
first = evs[0] if evs else {}
v = (first.get("event") == "snapshot" and
     first.get("role") in ("leader", "follower") and
     first.get("leader") == 3 and first.get("seq") is not None,
     all(e.get("group") == 1 for e in evs if "group" in e),
     any(e.get("event") not in ("snapshot", "gap") and e.get("role")
         for e in evs[1:]),
     sum(e.get("event") == "snapshot" for e in evs))
s.either(v == (True, True, True, 1),
         "monitor -j dev eth0 group 1: one snapshot first (leader 3), "
         "group 1 only, roles in events",
         "monitor -j: %s" % " ".join(map(str, v)))
head = (read(MON_TXT).splitlines() or [""])[0]
s.either(re.match(r"\[20[0-9]{2}-[0-9]{2}-[0-9]{2}T[0-9:]{8}\.[0-9]{6}\] "
                  r"\[[0-9.]+\] seq [0-9]+ snapshot dev eth0 group 1 ", head),
         "monitor -ts: the wall-clock prefix; the snapshot first",
         "monitor -ts: %s" % head)
s.ctl(1, "group", "del", "dev", "eth0", "group", 2)

s.log("--- electionctl algo: the module's algorithms against electionctl's "
      "list")
r = s.ctl(1, "-j", "algo")
try:
    d = json.loads(r.out)
    v = (len(d), [a["algo"] for a in d], all(a["matches"] for a in d),
         [a["options"] for a in d if a["algo"] == "ring"][0],
         [a["messages"] for a in d if a["algo"] == "bully"][0])
except (ValueError, KeyError, IndexError, TypeError) as e:
    v = "%s: %s" % (e, r.out)
WANT = (7, ["bully", "ring", "ring-all", "ring-list", "min-bully",
            "enh-bully", "invitation"], True,
        ["hb-interval", "hb-miss", "timeout", "coord-timeout", "pos",
         "suppress", "detector", "detector-margin", "detector-max",
         "timeout-auto", "auth-window", "standby", "standby-tracked"],
        ["election", "answer", "coordinator", "heartbeat", "alive"])
s.either(v == WANT and not r.err,
         "algo -j: 7 algorithms, each matching the list electionctl was "
         "built from, no warning",
         "algo -j: %s %s" % (v, r.err))
r = s.ctl(1, "algo", "invitation")
s.check("algo invitation: one line with its options",
        "invitation id 7 messages heartbeat,ayc,ayc_reply,invite,accept,"
        "ready options hb-interval,hb-miss,timeout,coord-timeout,pos,"
        "search-interval,detector,detector-margin,detector-max,timeout-auto,"
        "auth-window,standby,standby-tracked" in r.out.splitlines())
s.check_fails("algo: an unknown algorithm is refused by electionctl",
              s.ctl(1, "algo", "nope"))
s.check_fails("ALGO_GET algo 200: refused by the kernel's policy",
              s.ctl(1, "--unchecked", "algo", 200))

s.teardown(1)
shutil.rmtree(TMPD, ignore_errors=True)
s.end()
