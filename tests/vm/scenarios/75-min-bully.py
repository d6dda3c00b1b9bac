#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""min-bully (Kabashi, Zeqiri and Zabeli: the lowest id wins), five nodes
with ids 3 17 42 100 2001 (no id 1: the minimum is 3): first election
(3, which claims at once; the others QUERY); a follower joins again
(one QUERY broadcast, one CID from the leader); the second minimum 17
falsely suspects 3 with ask-suspect on (a probe, no change) and off (17
claims, 3 re-claims: step 6); `group elect` on every node at once; 3
crashes (every survivor detects it at once): 17; 3 returns and takes
over; the textbook count (only 17 detects the crash) equals electsim's.
The cases: tests/vm/bully_variant_cases.py (arguments: the cases to run,
default all)."""

import os
import sys

REPO = os.environ.get("ELECTION_REPO", ".")
sys.path.insert(0, os.path.join(REPO, "tests", "lib"))
sys.path.insert(0, os.path.join(REPO, "tests", "vm"))
import bully_variant_cases  # noqa: E402

bully_variant_cases.main("min-bully")
