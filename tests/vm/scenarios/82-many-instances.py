#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Many instances (review defect 3): 32768 instances on dummy devices in
one namespace (root; userns_admin plays no part). A dump of all of them,
GROUP_GET and STATS_GET, completes without a soft lockup (the harness
fails the run on any "BUG: soft lockup" in the kernel log), every
instance is reported exactly once, and the time per 1000 instances is
printed; a filtered dump (one group, one device) costs one lookup per
device. Deleting the devices destroys every instance. Before the fix a
dump rescanned the namespace list from its head for every instance
inside one RCU read section: O(N^2), a soft lockup between 16k and 32k.
ELEC_MANY sets the count. elec.py mass and dump run in process."""

import json
import os
import sys
import time

REPO = os.environ.get("ELECTION_REPO", ".")
sys.path.insert(0, os.path.join(REPO, "tests", "lib"))
sys.path.insert(0, os.path.join(REPO, "tests", "vm"))
from electest.scenario import Scenario, call, run  # noqa: E402
# GROUP_NEW en masse and the dumps (`elec.py mass`, `elec.py dump`)
import elec_lib  # noqa: E402


def elec(*argv):
    return call(elec_lib.main, argv)


def ifindex(dev):
    with open("/sys/class/net/%s/ifindex" % dev) as f:
        return int(f.read())


s = Scenario()
if not s.load():
    s.end()
s.modprobe("dummy")

N = int(os.environ.get("ELEC_MANY") or 32768)
PER = 8192      # instances per device: groups 1..PER on d0..d3
DEVS = (N + PER - 1) // PER
for i in range(DEVS):
    run(["ip", "link", "add", "d%d" % i, "type", "dummy"])
    run(["ip", "link", "set", "d%d" % i, "up"])
t0 = time.monotonic()
for i in range(DEVS):
    n = min(N - i * PER, PER)
    s.check("d%d: %d instances created" % (i, n),
            elec("mass", "--dev", "d%d" % i, "--groups", "1-%d" % n, "--id", 1))
s.log("created %d instances in %.1f s" % (N, time.monotonic() - t0))
d = json.loads(run([s.ctl_path, "-j", "module"]).out)
s.check("module counts %d instances" % N, d["instances"] == N)


def dump(*args):
    """elec.py dump ARGS: its JSON object ({} if it printed none)."""
    r = elec("dump", *args)
    try:
        return json.loads(r.out), r.out.strip()
    except ValueError:
        return {}, r.text


for what in ("", "--stats"):
    d, out = dump(*([what] if what else []), "--repeat", 3)
    print("    dump%s: %s" % (what or " (group_get)", out))
    s.check("dump%s: every one of the %d instances reported once" % (what, N),
            d.get("instances") == N)
    s.check("dump%s: in many bounded calls (> %d)" % (what, N // 1000),
            d.get("calls", 0) > N // 1000)
    with open(os.path.join(os.environ.get("RESULTS_DIR") or "/tmp",
                           "dump-times.json"), "a") as f:
        f.write(out + "\n")
d, out = dump("--group", 77)
print("    dump group 77: %s" % out)
s.check("dump filtered on group 77: one per device (%d)" % DEVS,
        d.get("instances") == DEVS)
d, out = dump("--ifindex", ifindex("d0"))
print("    dump ifindex d0: %s" % out)
s.check("dump filtered on d0: %d" % PER, d.get("instances") == PER)
# a device deleted while a dump is under way: the dump resumes on the
# next device from its first group, nothing skipped, nothing twice
d, out = dump("--pause-cmd", "ip link set d0 down; ip link del d0")
print("    dump with d0 deleted after the first call: %s" % out)
for i in (1, 2, 3):
    s.check("dump across a deletion: d%d complete" % i,
            d.get("per_ifindex", {}).get(str(ifindex("d%d" % i))) == PER)
s.check("dump across a deletion: no duplicate", d.get("duplicates") == 0)
run(["ip", "link", "add", "d0", "type", "dummy"])
run(["ip", "link", "set", "d0", "up"])
s.check("d0 again, %d instances" % PER,
        elec("mass", "--dev", "d0", "--groups", "1-%d" % PER, "--id", 1))
d = json.loads(run([s.ctl_path, "-j", "show"]).out)
s.check("electionctl -j show lists them all", len(d) == N)
d = json.loads(run([s.ctl_path, "-j", "show", "dev", "d1", "group",
                    4096]).out)
s.check("show of one instance among them", d[0]["group"] == 4096)

# frames for one instance among many: found directly
run([s.ctl_path, "group", "start", "dev", "d0", "group", 4242])
s.check("a started instance among %d becomes leader (alone)" % N,
        lambda: s.wait_for(s.bound, lambda: '"role": "leader"' in run(
            [s.ctl_path, "-j", "show", "dev", "d0", "group", 4242]).out))

t0 = time.monotonic()
for i in range(DEVS):
    run(["ip", "link", "del", "d%d" % i])
s.log("deleted the devices (and %d instances) in %.1f s" % (
    N, time.monotonic() - t0))
s.leak_check()
s.check_cmd("rmmod election", "rmmod", "election")
s.end()
