#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Every event of a device that has instances reaches them, whatever its
type (review defect 1). A tap device with an instance: TUNSETLINK to a
non-Ethernet type is refused (EBUSY) while the instance exists, so the
device keeps its type; closing the tap's file unregisters the device,
which destroys the instance and releases the device (no "waiting for
tap0 to become free", no instance left in the module's counters). After
a group del, the same change is allowed. Before the fix the notifier
ignored a device that was no longer Ethernet, so the unregistration hung
forever with the instance holding its reference. elec.py tap runs in
process (its command, electionctl, in a shell)."""

import json
import os
import sys
import tempfile

REPO = os.environ.get("ELECTION_REPO", ".")
sys.path.insert(0, os.path.join(REPO, "tests", "lib"))
sys.path.insert(0, os.path.join(REPO, "tests", "vm"))
from electest.scenario import Scenario, call, indent, run  # noqa: E402
# the tap device and TUNSETLINK (`elec.py tap`)
import elec_lib  # noqa: E402


def tap(name, cmd):
    """elec.py tap --name @name --cmd @cmd, in process; the command's
    output and then tap's (shown indented)."""
    with tempfile.NamedTemporaryFile("r") as f:
        r = call(elec_lib.main, ["tap", "--name", name, "--cmd",
                                 "(%s) >%s 2>&1" % (cmd, f.name)])
        text = f.read() + r.text
    sys.stdout.write(indent(text))
    return text


s = Scenario()
if not s.load():
    s.end()
s.modprobe("tun", "dummy")
CTL = s.ctl_path

out = tap("tap0", "%s group add dev tap0 group 1 id 1 algo bully && "
          "%s peer add dev tap0 group 1 id 2 lladdr 02:00:00:00:00:02 && "
          "%s -j module" % (CTL, CTL, CTL))
s.check("the instance was created on tap0", '"instances": 1' in out)
s.check("TUNSETLINK ARPHRD_NONE refused with EBUSY while tap0 has an "
        "instance", "setlink: error=16 EBUSY" in out)

# the fd is closed: tap0 is unregistered, its instance destroyed
s.check("tap0 is gone after its file was closed", s.wait_for(
    10, lambda: not os.path.exists("/sys/class/net/tap0")))
s.leak_check()
s.check("no unregister_netdevice wait in the kernel log",
        "waiting for tap0 to become free" not in run(["dmesg"]).out)

# the refusal is tied to the instance: without one, the type changes
out = tap("tap1", "%s group add dev tap1 group 1 id 1 algo bully && "
          "%s group del dev tap1 group 1" % (CTL, CTL))
s.check("without an instance TUNSETLINK is allowed", "setlink: ok" in out)

# a device that is no longer Ethernet cannot get an instance
run(["ip", "tuntap", "add", "dev", "tun9", "mode", "tun"])
s.check_fails("group add on a tun (not Ethernet) device is refused",
              run([CTL, "group", "add", "dev", "tun9", "group", 1, "id", 1,
                   "algo", "bully"]))
run(["ip", "tuntap", "del", "dev", "tun9", "mode", "tun"])

# every device event reaches the instances: unregistration by deleting a
# device with several instances, in several groups
run(["ip", "link", "add", "d0", "type", "dummy"])
for g in (1, 2, 3):
    run([CTL, "group", "add", "dev", "d0", "group", g, "id", 1, "algo",
         "bully"])
run([CTL, "group", "start", "dev", "d0", "group", 2])
s.check("three instances on d0",
        len(json.loads(run([CTL, "-j", "show", "dev", "d0"]).out)) == 3)
run(["ip", "link", "del", "d0"])
s.leak_check()

s.check_cmd("rmmod election", "rmmod", "election")
s.end()
