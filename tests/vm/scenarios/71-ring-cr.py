#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Chang and Roberts (algo ring, suppress on), six nodes (ids 3 17 42 100
777 2001) in ring order 17 100 2001 3 777 42: first election; the
textbook worst case (initiator 3, the successor of 2001: 3N-1 = 17
election and coordinator frames) counted by the kernel equals electsim's
count; concurrent `group elect`; the leader crashes; a non-coordinator
and then the leader crash (the ring skips the dead node); a bully node in
the group (wrong_algo drops); the old leader returns and takes over.
Then the kernel's refusals of the ring attributes. The cases:
tests/vm/ring_cases.py."""

import os
import sys

REPO = os.environ.get("ELECTION_REPO", ".")
sys.path.insert(0, os.path.join(REPO, "tests", "lib"))
sys.path.insert(0, os.path.join(REPO, "tests", "vm"))
from electest.scenario import Scenario  # noqa: E402
import ring_cases  # noqa: E402

ring_cases.run_cases(Scenario(), "ring", [], ring_cases.CASES +
                     ("refusals",))
