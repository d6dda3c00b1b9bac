#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# algo ring-list (one message accumulating the live ids), the cases of 71
# on the same six-node ring: first election; the textbook count (one
# initiator: N = 6 election and N = 6 coordinator frames) against
# electsim; concurrent `group elect`; the leader crashes; a
# non-coordinator and then the leader crash (the list skips the dead
# node); a bully node in the group; the old leader returns. The cases:
# tests/vm/ring-cases.sh.
. tests/vm/lib.sh
. tests/vm/ring-cases.sh
elec_begin

ELEC_ALGO="ring-list"
ring_cases first textbook concurrent crash skip mixed return
