#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""algo ring-list (one message accumulating the live ids), the cases of 71
on the same six-node ring: first election; the textbook count (one
initiator: N = 6 election and N = 6 coordinator frames) against
electsim; concurrent `group elect`; the leader crashes; a
non-coordinator and then the leader crash (the list skips the dead
node); a bully node in the group; the old leader returns. The cases:
tests/vm/ring_cases.py."""

import os
import sys

REPO = os.environ.get("ELECTION_REPO", ".")
sys.path.insert(0, os.path.join(REPO, "tests", "lib"))
sys.path.insert(0, os.path.join(REPO, "tests", "vm"))
from electest.scenario import Scenario  # noqa: E402
import ring_cases  # noqa: E402

ring_cases.run_cases(Scenario(), "ring-list", [])
