#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Configuration as desired state: electionctl syncconf FILE, showconf's
defaults and keydir, election@.service's ExecReload.

Three nodes; groups 1, 2 and 5 (a key) on all three (3 leads them); on
node 1 also group 4 (ring) and group 6 (every option at its default:
showconf writes its group add line with nothing after algo).
Node 1's file, from "showconf keydir DIR" (key-file DIR/eth0-5.key, the
key copied there), edited: group 2 hb-miss 4 and a peer more, group 3
added (started), groups 4 and 6 left out. syncconf on node 1:
  - prints exactly those commands (and group 5's key-file, which it
    always sends: the kernel cannot say which key a group holds), none
    for group 1; group 2's hb-miss change also sends detector-max 0 (the
    kernel reports a worked-out detector-max and a pinned one alike);
  - group 1 untouched: the same leader and term on every node, node 1's
    elections and leader_changes counters unchanged, and a monitor of
    group 1 on node 1 sees its snapshot and no event;
  - group 5, running, keeps its leader and term on every node, and
    every node's elections and leader_changes, across this syncconf and
    the next (each re-sends its key-file); a monitor of group 5 on node
    1 sees its snapshot and no event;
  - group 2 has hb-miss 4 and the new peer, group 3 runs, groups 4 and 6
    are gone, group 5 still has its key;
  - again with the same file: only group 5's key-file line, nothing
    changes (showconf equal);
  - an invalid file (a bad line at its end; showconf's placeholder
    key-file): exit 1 with FILE:LINE, showconf unchanged;
  - a group of another device (a second veth) is left alone.
The unit's ExecReload line (with the file under /tmp) applies an edit.
quorum on for group 2 on node 1 (a follower): group stop, group set,
group start; a peer with another lladdr: peer del, peer add."""

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
from electest.scenario import Scenario, indent, run, sec  # noqa: E402

s = Scenario()
s.up(1, 2, 3)
TMPD = tempfile.mkdtemp()
KEYD = os.path.join(TMPD, "keys")
os.makedirs(KEYD)
KEY5 = os.path.join(KEYD, "eth0-5.key")


def write(path, text):
    with open(path, "w") as f:
        f.write(text)
    return path


def read(path):
    with open(path) as f:
        return f.read()


def show_out(text):
    if text:
        sys.stdout.write(indent(text))


def showconf():
    return s.ctl(1, "showconf", "dev", "eth0").out


def diff(a, b):
    """diff's output of texts @a and @b, indented."""
    fa = write(os.path.join(TMPD, "diff.a"), a)
    fb = write(os.path.join(TMPD, "diff.b"), b)
    show_out(run(["diff", fa, fb]).out)


if not (s.group_setup(1) and s.group_setup(2)):
    s.end()
s.start_all(1)
s.start_all(2)
if not s.agree(1, 3):
    s.end()
s.agree(2, 3)

s.log("--- node 1's other groups; showconf of a group at its defaults")
s.check("group 4 (ring) on node 1",
        s.ctl(1, "group", "add", "dev", "eth0", "group", 4, "id", 1, "algo",
              "ring"))
s.check_cmd("genkey", s.ctl_path, "genkey", os.path.join(TMPD, "g5.key"))
# group 5: keyed, on every node, running (a re-sent key-file must not
# disturb it)
if not s.group_setup(5, algo="bully", opts=s.group_opts + [
        "key-file", os.path.join(TMPD, "g5.key")]):
    s.end()
s.start_all(5)
s.agree(5, 3)
s.check("group 6 at the defaults on node 1",
        s.ctl(1, "group", "add", "dev", "eth0", "group", 6, "id", 1, "algo",
              "bully"))
got = "\n".join(line for line in s.ctl(1, "showconf", "dev", "eth0", "group",
                                       6).out.splitlines()
                if line.startswith("group add"))
s.either(got == "group add dev eth0 group 6 id 1 algo bully",
         "showconf: a group at its defaults: nothing after algo",
         "showconf of a group at its defaults: %s" % got)


def second_device():
    for argv in (["ip", "-n", "en1", "link", "add", "x0", "type", "veth",
                  "peer", "name", "x1"],
                 ["ip", "-n", "en1", "link", "set", "x0", "up"],
                 ["ip", "-n", "en1", "link", "set", "x1", "up"]):
        r = run(argv)
        if not r:
            return r
    return s.ctl(1, "group", "add", "dev", "x0", "group", 1, "id", 1, "algo",
                 "bully")


s.check("a second device on node 1 (veth pair x0/x1), a group on it",
        second_device())

s.log("--- showconf keydir DIR")
now = s.ctl(1, "showconf", "dev", "eth0", "keydir", KEYD).out
NOW = write(os.path.join(TMPD, "now.batch"), now)
show_out(now)
s.either(re.search(r"^group add dev eth0 group 5 id 1 algo bully "
                   r".*key-file %s$" % re.escape(KEY5), now, re.M),
         "showconf keydir: key-file %s" % KEY5,
         "showconf keydir: no key-file %s" % KEY5)
s.check_refused("-check: the key is not in DIR yet", re.escape(KEY5),
                run([s.ctl_path, "-n", "en1", "-check", NOW]))
shutil.copyfile(os.path.join(TMPD, "g5.key"), KEY5)
os.chmod(KEY5, 0o600)
s.check_cmd("-check: the key copied to DIR", s.ctl_path, "-n", "en1",
            "-check", NOW)

s.log("--- the file: group 2 changed, group 3 added, groups 4 and 6 left out")
P9 = topo.mac(9)
lines = []
for line in now.splitlines():
    if re.search(r" group [46]( |$)", line):
        continue
    if line.startswith("group add dev eth0 group 2 "):
        line = line.replace(" hb-miss 5 ", " hb-miss 4 ", 1)
    lines.append(line)
lines += ["peer add dev eth0 group 2 id 9 lladdr %s" % P9,
          "group add dev eth0 group 3 id 1 algo min-bully",
          "group start dev eth0 group 3"]
want_text = "".join(line + "\n" for line in lines)
WANT = write(os.path.join(TMPD, "want.batch"), want_text)
show_out(want_text)


def terms(g=1):
    """Group @g's leader/term on nodes 1, 2, 3: "L/T L/T L/T "."""
    return "".join("%s/%s " % (
        s.ctl(i, "show", "dev", "eth0", "group", g, "leader").out.strip(),
        s.ctl(i, "show", "dev", "eth0", "group", g, "term").out.strip())
        for i in (1, 2, 3))


def counters(nid=1, g=1):
    d = s.stats(nid, g)
    return (d["elections"], d["leader_changes"])


def counters5():
    """Group 5's elections and leader_changes on every node."""
    return " ".join("(%d,%d)" % counters(i, 5) for i in (1, 2, 3))


def events(path):
    """The events a monitor's JSON lines hold."""
    evs = []
    for line in read(path).splitlines():
        if line.strip():
            try:
                evs.append(json.loads(line).get("event"))
            except ValueError:
                evs.append(line)
    return evs


def monitor(g, path):
    with open(path, "w") as f:
        return subprocess.Popen([s.ctl_path, "-n", "en1", "-j", "monitor",
                                 "dev", "eth0", "group", str(g)],
                                stdout=f, stderr=subprocess.STDOUT)


def stop(p):
    p.terminate()
    p.wait()


t0 = terms()
c0 = counters()
s.log("group 1 (leader/term on 1, 2, 3): %s; node 1's elections, "
      "leader_changes: (%d, %d)" % ((t0,) + c0))
t5 = terms(5)
c5 = counters5()
s.log("group 5 (leader/term on 1, 2, 3): %s; elections, leader_changes on "
      "1, 2, 3: %s" % (t5, c5))
MON = os.path.join(TMPD, "mon.json")
MON5 = os.path.join(TMPD, "mon5.json")
mon = monitor(1, MON)
mon5 = monitor(5, MON5)
time.sleep(sec(1))

s.log("--- syncconf")
r = s.ctl(1, "syncconf", WANT)
show_out(r.text)
want = """group del dev eth0 group 4
group del dev eth0 group 6
group set dev eth0 group 2 hb-miss 4 detector-max 0
peer add dev eth0 group 2 id 9 lladdr %s
group set dev eth0 group 5 key-file %s
group add dev eth0 group 3 id 1 algo min-bully
group start dev eth0 group 3""" % (P9, KEY5)
if not s.either(r.rc == 0 and r.text == want,
                "syncconf: exit 0, the commands it ran, none for group 1",
                "syncconf: exit %d, want these lines:" % r.rc):
    show_out(want)
time.sleep(sec(2))
stop(mon)
t1 = terms()
c1 = counters()
s.either(t1 == t0 and t0.startswith("3/"),
         "group 1: the same leader and term on every node: %s" % t1,
         "group 1: %s before, %s after" % (t0, t1))
s.either(c1 == c0,
         "group 1 on node 1: elections and leader_changes unchanged: "
         "(%d, %d)" % c1,
         "group 1 on node 1: %s before, %s after" % (c0, c1))
# no electionctl monitor of group 1 left behind
MON_ARGV = [s.ctl_path, "-n", "en1", "-j", "monitor", "dev", "eth0", "group",
            "1"]
left = []
for pid in filter(str.isdigit, os.listdir("/proc")):
    try:
        with open("/proc/%s/cmdline" % pid, "rb") as f:
            argv = f.read().decode(errors="replace").split("\0")[:-1]
    except OSError:
        continue
    if argv == MON_ARGV:
        left.append(int(pid))
if not s.either(not left,
                "kill ended the monitor of group 1",
                "the monitor of group 1 still runs after kill: pid %s"
                % " ".join(map(str, left))):
    for pid in left:
        os.kill(pid, 9)
v = events(MON)
if not s.either(v == ["snapshot"],
                "monitor of group 1 on node 1: its snapshot, no event",
                "monitor of group 1 on node 1: %s" % v):
    show_out(read(MON))
d = s.show(1, 2)
v = (d["hb_miss"], sorted(p["id"] for p in d["peers"]), d["admin_up"])
s.either(v == (4, [2, 3, 9], True),
         "group 2: hb-miss 4, peer 9, running: %s" % (v,),
         "group 2: %s" % (v,))
v = sorted((x["group"], x["admin_up"], x["auth"])
           for x in s.ctl_json(1, "show", "dev", "eth0"))
s.either(v == [(1, True, False), (2, True, False), (3, True, False),
              (5, True, True)],
         "eth0 on node 1: groups 1, 2, 3 running, 4 and 6 gone, 5 keyed: "
         "%s" % v,
         "eth0 on node 1: %s" % v)
n = len(s.ctl_json(1, "show", "dev", "x0"))
s.check("x0's group, on a device the file does not name: left alone"
        if n == 1 else "x0: %d groups" % n, n == 1)
s.agree(2, 3)

s.log("--- syncconf again: nothing to change")
before = showconf()
r = s.ctl(1, "syncconf", WANT)
show_out(r.text)
s.either(r.rc == 0 and
         r.text == "group set dev eth0 group 5 key-file %s" % KEY5,
         "syncconf again: only group 5's key-file, always sent",
         "syncconf again: exit %d" % r.rc)
after = showconf()
if not s.either(before == after and terms() == t0,
                "syncconf again: showconf the same, group 1's leader and term "
                "too",
                "syncconf again changed something"):
    diff(before, after)
time.sleep(sec(2))
stop(mon5)
v = terms(5)
s.either(v == t5 and t5.startswith("3/"),
         "group 5 (keyed, running): the same leader and term on every "
         "node after two syncconfs: %s" % v,
         "group 5 after two syncconfs (each re-sending its key-file): %s "
         "before, %s after" % (t5, v))
v = counters5()
s.either(v == c5,
         "group 5: elections and leader_changes unchanged on every node: "
         "%s" % v,
         "group 5: elections and leader_changes %s before, %s after the "
         "re-sent key-files" % (c5, v))
v = events(MON5)
if not s.either(v == ["snapshot"],
                "monitor of group 5 on node 1: its snapshot, no event",
                "monitor of group 5 on node 1: %s" % v):
    show_out(read(MON5))

s.log("--- invalid files change nothing")


def edit_g2(text, old, new):
    """@text with group 2's group add line's @old replaced by @new."""
    return "".join(line.replace(old, new, 1)
                   if line.startswith("group add dev eth0 group 2 ") else line
                   for line in text.splitlines(True))


bad = edit_g2(want_text, " hb-miss 4 ", " hb-miss 3 ") + \
    "group add dev eth0 group 7 id 1 algo bully hb-miss 0\n"
BAD = write(os.path.join(TMPD, "bad.batch"), bad)
n = len(bad.splitlines())
r = s.ctl(1, "syncconf", BAD)
show_out(r.text)
s.either(r.rc == 1 and r.text == ('Error: %s:%d: invalid hb-miss "0": '
                                  'expected an integer from 1 to 1000'
                                  % (BAD, n)),
         "an invalid line: exit 1, FILE:LINE, nothing printed",
         "an invalid line: exit %d" % r.rc)
PLACE = write(os.path.join(TMPD, "placeholder.batch"), showconf())
r = s.ctl(1, "syncconf", PLACE)
show_out(r.text)
s.either(r.rc == 1 and re.search(r'^Error: %s:[0-9]*: invalid key-file '
                                 r'"/etc/election/CHANGE-ME-eth0-5\.key"'
                                 % re.escape(PLACE), r.text, re.M),
         "showconf's placeholder: exit 1, FILE:LINE",
         "showconf's placeholder: exit %d" % r.rc)
after = showconf()
if not s.either(before == after, "after the invalid files: showconf the same",
                "an invalid file changed something"):
    diff(before, after)

s.log("--- election@.service's ExecReload")
os.makedirs(os.path.join(TMPD, "etc"), exist_ok=True)
etc = edit_g2(want_text, " hb-miss 4 ", " hb-miss 5 ")
ETC = write(os.path.join(TMPD, "etc", "eth0.batch"), etc)
reload = ""
for line in read(os.path.join(REPO, "dist",
                              "election@.service.in")).splitlines():
    if line.startswith("ExecReload="):
        reload = line[len("ExecReload="):].replace(
            "@SBINDIR@", os.path.join(REPO, "userspace"), 1).replace(
            "/etc/election/%i.batch", ETC, 1)
s.log("ExecReload: %s" % reload)
s.check_cmd("ExecReload on node 1", "ip", "netns", "exec", "en1",
            *reload.split())
v = s.show(1, 2)["hb_miss"]
s.check("ExecReload: group 2 has hb-miss 5 again" if v == 5 else
        "ExecReload: hb-miss %s" % v, v == 5)
t = terms()
s.check("group 1's leader and term unchanged: %s" % t0 if t == t0 else
        "group 1: %s" % t, t == t0)

s.log("--- quorum (changed only while stopped) and a peer's new lladdr")
P9B = topo.mac(10)
quorum = "".join(
    (line.rstrip("\n") + " quorum on\n"
     if line.startswith("group add dev eth0 group 2 ") else
     re.sub(r" id 9 lladdr %s$" % re.escape(P9), " id 9 lladdr " + P9B,
            line.rstrip("\n")) + "\n")
    for line in etc.splitlines(True))
QUORUM = write(os.path.join(TMPD, "quorum.batch"), quorum)
r = s.ctl(1, "syncconf", QUORUM)
show_out(r.text)
want = """group stop dev eth0 group 2
group set dev eth0 group 2 quorum on
peer del dev eth0 group 2 id 9
peer add dev eth0 group 2 id 9 lladdr %s
group start dev eth0 group 2
group set dev eth0 group 5 key-file %s""" % (P9B, KEY5)
if not s.either(r.rc == 0 and r.text == want,
                "syncconf: quorum as stop, set, start; the peer deleted and "
                "added again",
                "syncconf with quorum on: exit %d, want these lines:" % r.rc):
    show_out(want)
d = s.show(1, 2)
v = (d["quorum"], d["admin_up"],
     [p["lladdr"] for p in d["peers"] if p["id"] == 9])
s.either(v == (True, True, [P9B]),
         "group 2: quorum on, running, peer 9's new lladdr: %s" % (v,),
         "group 2: %s" % (v,))
t = terms()
s.check("group 1's leader and term unchanged: %s" % t0 if t == t0 else
        "group 1: %s" % t, t == t0)

shutil.rmtree(TMPD, ignore_errors=True)
s.end()
