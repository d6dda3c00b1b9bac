#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The leader loses its link: first its own eth0 is set down (a planned
stop: the instance resigns with a heartbeat flagged leaving before the
device closes), then (after it has returned) the switch port is set down
so that its eth0 loses carrier (a crash: the instance falls silent).
Each time every survivor agrees on the next-highest id within a generous
bound, and when the link comes back the old leader resumes (learns a
lower leader, then bullies it) and takes over."""

import os
import sys

sys.path.insert(0, os.path.join(os.environ.get("ELECTION_REPO", "."),
                                "tests", "lib"))
from electest.scenario import Scenario  # noqa: E402

s = Scenario()
SURVIVORS = [3, 17, 42, 100]
s.up(*SURVIVORS, 2001, group=1)
s.agree(1, 2001)

s.log("crash 1: eth0 of leader 2001 set down")
s.check_cmd("eth0 of 2001 down", "ip", "-n", "en2001", "link", "set", "eth0",
            "down")
s.agree(1, 100, ids=SURVIVORS)
s.log("view of 2001 while its link is down:")
print(s.ctl(2001, "show", "dev", "eth0", "group", 1).text)
s.check("2001 is silent while down (role stopped)",
        s.show(2001, 1)["role"] == "stopped")

s.log("return 1: eth0 of 2001 up")
s.check_cmd("eth0 of 2001 up", "ip", "-n", "en2001", "link", "set", "eth0",
            "up")
s.agree(1, 2001, stable=1)

s.log("crash 2: the switch port of 2001 set down (carrier loss on its eth0)")
s.check_cmd("port p2001 down", "ip", "-n", "esw", "link", "set", "p2001",
            "down")
s.agree(1, 100, ids=SURVIVORS)
s.log("return 2: the switch port of 2001 up")
s.check_cmd("port p2001 up", "ip", "-n", "esw", "link", "set", "p2001", "up")
s.agree(1, 2001, stable=1)
s.views(1)

s.finish(1)
