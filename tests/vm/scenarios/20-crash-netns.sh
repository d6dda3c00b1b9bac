#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The leader crashes (its network namespace is deleted, taking its device
# and instance with it): every survivor agrees on the next-highest id within
# a generous bound, and the new leader has declared the old one failed.
# The old leader then returns (same id and MAC, fresh instance): it learns
# the current leader, calls an election and takes over.
. tests/vm/lib.sh
elec_begin

elec_load || elec_end
elec_topo 3 17 42 100 2001 || elec_end
elec_group_setup 1
elec_start_all 1
elec_agree 1 2001

log "crash: deleting the namespace of leader 2001"
check "namespace of 2001 deleted" elec_node_crash 2001
elec_agree 1 100
# 100 can only have won by declaring 2001 failed (its detector fired, or
# its ELECTION to 2001 went unanswered). The others may have accepted 100's
# COORDINATOR before their own detectors fired: they have then declared
# nothing, and rightly still list 2001 as alive.
elec_peer_alive 1 100 2001 false

log "return: node 2001 comes back"
check "node 2001 recreated" elec_node_add 2001
elec_group_setup 1 2001
elec_start_all 1 2001
elec_agree 1 2001 "$ELEC_BOUND" 1
for id in 3 17 42 100; do
	elec_peer_alive 1 "$id" 2001 true
done
elec_views 1

elec_teardown 1
check "rmmod election" rmmod election
elec_end
