#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# algo ring with `suppress off` (the refinement of the all-ids ring text:
# no participant flag), the cases of 71 on the same six-node ring: first
# election; the textbook count (one initiator: the same 3N-1 as with the
# flag) against electsim --suppress off; concurrent `group elect` (where
# the option costs more messages); the leader crashes; a non-coordinator
# and then the leader crash; a bully node in the group; the old leader
# returns. The cases: tests/vm/ring-cases.sh.
. tests/vm/lib.sh
. tests/vm/ring-cases.sh
elec_begin

ELEC_ALGO=ring
ELEC_GROUP_OPTS="suppress off"
ring_cases first textbook concurrent crash skip mixed return
