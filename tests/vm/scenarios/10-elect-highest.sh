#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Five nodes with non-contiguous ids elect the highest, and every node
# agrees (role, leader, term); the agreement holds. Then the groups are
# deleted and the module's leak counters read zero.
. tests/vm/lib.sh
elec_begin

IDS=(3 17 42 100 2001)
elec_load || elec_end
elec_topo "${IDS[@]}" || elec_end
elec_group_setup 1
check "a new group is stopped, with no leader" \
	sh -c "$(printf '%q ' "$ELEC_CTL") -j show | python3 -c 'import json,sys; d=json.load(sys.stdin); assert all(i[\"role\"]==\"stopped\" and i[\"leader\"] is None for i in d), d'" 
check "no leader is reported before start" \
	sh -c "ip netns exec en3 $ELEC_CTL -j show dev eth0 group 1 | python3 -c 'import json,sys; d=json.load(sys.stdin)[0]; assert d[\"role\"]==\"stopped\" and d[\"leader\"] is None, d'"
elec_start_all 1
elec_agree 1 2001 "$ELEC_BOUND" 2

# the counters saw an election and COORDINATOR frames
check "the leader sent COORDINATOR and heartbeats" \
	sh -c "ip netns exec en2001 $ELEC_CTL -j stats dev eth0 group 1 | python3 -c 'import json,sys; d=json.load(sys.stdin)[0]; print(d[\"tx\"]); assert d[\"tx\"][\"coordinator\"] >= 4 and d[\"tx\"][\"heartbeat\"] >= 1 and d[\"leader_changes\"] >= 1'"
check "every follower received a COORDINATOR or heartbeat" \
	sh -c "for i in 3 17 42 100; do ip netns exec en\$i $ELEC_CTL -j stats dev eth0 group 1 | python3 -c 'import json,sys; d=json.load(sys.stdin)[0]; print(d[\"id\"], d[\"rx\"]); assert d[\"rx\"][\"coordinator\"] + d[\"rx\"][\"heartbeat\"] >= 1' || exit 1; done"
elec_views 1

elec_teardown 1
check "rmmod election" rmmod election
elec_end
