#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""enh-bully (Murshed and Allen's Enhanced Bully: candidates 42 100 2001,
ordinary 3 17), five nodes with ids 3 17 42 100 2001: first election
(2001, which elects at once; the others QUERY the candidates); an
ordinary follower joins again (QUERY to each candidate, each answers
CID); 17 falsely suspects 2001 with ask-suspect on (a probe, no change)
and off (17 names 100, 2001 takes over again); `group elect` on every
node at once; 2001 crashes (every survivor detects it at once): 100;
2001 returns and takes over; the textbook count (only 3 detects the
crash: probe, stage 1, one COORDINATOR) equals electsim's.
The cases: tests/vm/bully_variant_cases.py (arguments: the cases to run,
default all)."""

import os
import sys

REPO = os.environ.get("ELECTION_REPO", ".")
sys.path.insert(0, os.path.join(REPO, "tests", "lib"))
sys.path.insert(0, os.path.join(REPO, "tests", "vm"))
import bully_variant_cases  # noqa: E402

bully_variant_cases.main("enh-bully")
