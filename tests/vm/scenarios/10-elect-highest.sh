#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Five nodes with non-contiguous ids elect the highest, and every node
# agrees (role, leader, term); the agreement holds. A peer is alive once
# heard (never before: "never heard"); stats' text lists the Bully
# algorithm's counters of a group without a key and quorum, -d all. The
# one-value queries (show ... leader|role|term, is-leader) answer as
# scripts expect. Then the groups are deleted and the module's leak
# counters read zero.
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
# nothing heard yet: no peer is alive
elec_peer_alive 1 3 2001 false
check "peer show: a peer never heard is \"alive no ... never heard\"" \
	sh -c "ip netns exec en3 $ELEC_CTL peer show dev eth0 group 1 id 2001 | tee /dev/stderr | grep 'alive no pos 2001 never heard window'"
elec_start_all 1
elec_agree 1 2001 "$ELEC_BOUND" 2
elec_peer_alive 1 3 2001 true
check "peer show: the leader heard a moment ago (\"heard N.N ms ago\")" \
	sh -c "ip netns exec en3 $ELEC_CTL peer show dev eth0 group 1 id 2001 | tee /dev/stderr | grep -E 'alive yes pos 2001 heard [0-9]+\.[0-9] m?s ago window'"
check "stats: bully's types, no other algorithm's, no auth_, queue_full or quorum_lost (no key, no ring, quorum off)" \
	sh -c "ip netns exec en3 $ELEC_CTL stats dev eth0 group 1 | tee /dev/stderr | grep -q 'tx: election [0-9]* answer [0-9]* coordinator [0-9]* heartbeat [0-9]*\$' && ! ip netns exec en3 $ELEC_CTL stats dev eth0 group 1 | grep -E 'ayc|auth_bad|queue_full|alive|quorum_lost'"
check "stats -d: every type and reason" \
	sh -c "ip netns exec en3 $ELEC_CTL -d stats dev eth0 group 1 | grep -q 'ready 0 alive 0\$' && ip netns exec en3 $ELEC_CTL -s -s stats dev eth0 group 1 | grep -q 'auth_bad 0 auth_truncated 0'"

# the counters saw an election and COORDINATOR frames
check "the leader sent COORDINATOR and heartbeats" \
	sh -c "ip netns exec en2001 $ELEC_CTL -j stats dev eth0 group 1 | python3 -c 'import json,sys; d=json.load(sys.stdin)[0]; print(d[\"tx\"]); assert d[\"tx\"][\"coordinator\"] >= 4 and d[\"tx\"][\"heartbeat\"] >= 1 and d[\"leader_changes\"] >= 1'"
check "every follower received a COORDINATOR or heartbeat" \
	sh -c "for i in 3 17 42 100; do ip netns exec en\$i $ELEC_CTL -j stats dev eth0 group 1 | python3 -c 'import json,sys; d=json.load(sys.stdin)[0]; print(d[\"id\"], d[\"rx\"]); assert d[\"rx\"][\"coordinator\"] + d[\"rx\"][\"heartbeat\"] >= 1' || exit 1; done"
elec_views 1

# one-value queries for scripts: the bare value, and is-leader's status
check "show ... leader prints the leader's id alone" \
	test "$(elec_ctl 3 show dev eth0 group 1 leader)" = 2001
check "show ... role prints the role alone" \
	test "$(elec_ctl 2001 show dev eth0 group 1 role)" = leader
check "show ... term prints the leader's term, as -j show has it" \
	test "$(elec_ctl 3 show dev eth0 group 1 term)" = \
	"$(elec_ctl 3 -j show dev eth0 group 1 | elec_json 'd[0]["term"]')"
check "-j show ... role prints a JSON string" \
	test "$(elec_ctl 3 -j show dev eth0 group 1 role)" = '"follower"'
check "is-leader exits 0 on the leader, silently" \
	test "$(elec_ctl 2001 is-leader dev eth0 group 1; echo "rc $?")" = "rc 0"
check "is-leader exits 1 on a follower" \
	test "$(elec_ctl 17 is-leader dev eth0 group 1; echo "rc $?")" = "rc 1"
check "is-leader exits 2 for a group that does not exist" \
	test "$(elec_ctl 17 is-leader dev eth0 group 9 2>/dev/null; echo "rc $?")" = "rc 2"

elec_teardown 1
check "rmmod election" rmmod election
elec_end
