#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Terms from the wire (review defect 4). A host on the segment (66, no
# peer of anybody) forges frames:
#  - while node 3 is the only one started (learning), a HEARTBEAT from peer
#    42 (42's MAC spoofed) with term 2^40: a learning node accepts any term
#    from a configured peer, so 3 follows 42 at 2^40 (a better id: no
#    election); asked to elect, it leads above 2^40 (42 is not started);
#    17 and 42 start later and, learning too, join the group beyond 2^32,
#    and 42 takes over: a reloaded node joins a group with a large term;
#  - an ELECTION with term 2^64-1 from 3's id but 66's own MAC: dropped as
#    wrong_lladdr by every node;
#  - the same with 3's MAC spoofed, then a COORDINATOR and a HEARTBEAT from
#    42's id and MAC with terms 2^64-1 and term + 2^33: every node,
#    the leader included, drops them as term_too_far; terms, leader and
#    election counts stay as they were (before the fix the leader wrapped
#    to term 0 and the others kept electing).
. tests/vm/lib.sh
elec_begin
elec_load || elec_end
elec_topo 3 17 42 66 || elec_end
ELEC_NODES=(3 17 42)	# 66 only forges frames
elec_group_setup 1

forge() { ip netns exec en66 python3 "$ELEC_PY" forge --dev eth0 --group 1 "$@"; }
term_of() { elec_ctl "$1" -j show dev eth0 group 1 | elec_json 'd[0]["term"]'; }
drops() { elec_stat "$1" 1 "d['drops']['$2']"; }

log "--- a learning node takes a large term from a configured peer"
# a long learning window (30 s) for 3 alone, so the forged frame lands in it
elec_ctl 3 group set dev eth0 group 1 hb-interval "$(elec_dur 1s)" hb-miss 30
elec_ctl 3 group start dev eth0 group 1
check "forged heartbeat from 42 (MAC spoofed), term 2^40, while 3 learns" \
	forge --type heartbeat --src 42 --term $((1 << 40)) --src-mac "$(elec_mac 42)"
leader_of() { elec_ctl "$1" -j show dev eth0 group 1 | elec_json 'd[0]["leader"]'; }
sleep "$(elec_sec 0.5)"
check "3 follows the forged leader 42 (a better id: no election)" \
	test "$(leader_of 3)" = 42
check "at term 2^40" test "$(term_of 3)" = $((1 << 40))
# shellcheck disable=SC2086
elec_ctl 3 group set dev eth0 group 1 $ELEC_TIMING
# 42 is not started: asked, it cannot answer, and 3 takes over
check "group elect on 3" elec_ctl 3 group elect dev eth0 group 1
elec_agree 1 3 "$ELEC_BOUND" 0 3
T3=$(term_of 3)
check "3 leads above 2^40 (term $T3)" test "$T3" -gt $((1 << 40))
elec_start_all 1 17 42
elec_agree 1 42 "$ELEC_BOUND" 1
T=$(term_of 42)
check "17 and 42 started later joined; 42 leads in term $T > 2^32" test "$T" -gt $((1 << 32))
E=(); for id in 3 17 42; do E+=("$(elec_stat "$id" 1 "d['elections']")"); done

log "--- a forged source address"
check "forged ELECTION from id 3 with 66's own MAC, term 2^64-1" \
	forge --type election --src 3 --term 18446744073709551615
sleep "$(elec_sec 0.5)"
for id in 17 42; do
	check "node $id dropped it as wrong_lladdr" test "$(drops "$id" wrong_lladdr)" -ge 1
done

log "--- terms too far ahead"
check "forged ELECTION from 3 (3's MAC spoofed), term 2^64-1" \
	forge --type election --src 3 --term 18446744073709551615 --src-mac "$(elec_mac 3)"
check "forged COORDINATOR from 42 (42's MAC spoofed), term 2^64-1" \
	forge --type coordinator --src 42 --term 18446744073709551615 --src-mac "$(elec_mac 42)"
check "forged HEARTBEAT from 42, term + 2^33" \
	forge --type heartbeat --src 42 --term $((T + (1 << 33))) --src-mac "$(elec_mac 42)"
sleep "$(elec_sec 3)"
check "17 dropped three as term_too_far" test "$(drops 17 term_too_far)" -ge 3
check "3 dropped two as term_too_far (its own id is unknown_peer)" test "$(drops 3 term_too_far)" -ge 2
check "the leader 42 dropped the ELECTION as term_too_far" test "$(drops 42 term_too_far)" -ge 1
elec_agree 1 42 "$ELEC_BOUND" 1
for id in 3 17 42; do
	check "node $id: term unchanged ($T), no wrap" test "$(term_of "$id")" = "$T"
done
i=0
for id in 3 17 42; do
	check "node $id: no election since the forged frames" \
		test "$(elec_stat "$id" 1 "d['elections']")" = "${E[$i]}"
	i=$((i + 1))
done
# the forged MACs made the bridge learn 3 and 42 on 66's port for a moment;
# the group recovers on its own once their frames flow again
elec_views 1
elec_teardown 1
check "rmmod election" rmmod election
elec_end
