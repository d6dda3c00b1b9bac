#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# One frame, many frames out (review defect 6). Node 2 has 200 higher
# peers (3..202) that exist only as MAC addresses and one lower peer, 1. A
# host on the segment (66) forges, in rounds, a COORDINATOR from 1 (its MAC
# spoofed) with a newer term each round: 2 accepts the lower leader and,
# preempting, begins an election that sends 200 ELECTION frames (T is 1
# ms, so every run ends, unanswered, with 2 leading again before the next
# round). Elections started by received frames are rate limited:
# ELECTION_RX_ELECT_BURST (8), then one per coord-timeout (1 s here);
# every refusal is counted in elections_limited. Then ELECTIONs from 1 to
# the leader 2: answered and re-announced to, and no run at all.
. tests/vm/lib.sh
elec_begin
elec_load || elec_end
elec_topo 2 66 || elec_end
ELEC_NODES=(2)

elec_ctl 2 group add dev eth0 group 1 id 2 algo bully \
	hb-interval "$(elec_dur 1s)" hb-miss 5 timeout 1ms coord-timeout "$(elec_dur 1s)"
elec_ctl 2 peer add dev eth0 group 1 id 1 lladdr "$(elec_mac 1)"
check "200 higher peers (3..202)" \
	ip netns exec en2 sh -c "for p in \$(seq 3 202); do $ELEC_CTL peer add dev eth0 group 1 id \$p lladdr \$(printf '02:e1:%02x:%02x:%02x:%02x' 0 0 \$((p >> 8)) \$((p & 255))) || exit 1; done"
leads() {
	for _ in $(seq 1 $((ELEC_BOUND * 10))); do
		elec_ctl 2 -j show dev eth0 group 1 | grep -q '"role": "leader"' && return 0
		sleep 0.1
	done
	return 1
}
elec_ctl 2 group start dev eth0 group 1
check "2 leads" leads

ROUNDS=60
st() { elec_stat 2 1 "$1"; }
tx0=$(st "d['tx']['election']"); el0=$(st "d['elections']")
t0=$(date +%s.%N)
check "$ROUNDS rounds of forged COORDINATORs from 1, terms 1, 3, 5, ..." \
	ip netns exec en66 python3 "$ELEC_PY" forge --dev eth0 --type coordinator \
	--src 1 --dst 2 --term 1 --term-step 2 --src-mac "$(elec_mac 1)" --count $ROUNDS
dt=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN {printf "%.2f", b - a}')
sleep "$(elec_sec 0.5)"
tx=$(($(st "d['tx']['election']") - tx0))
el=$(($(st "d['elections']") - el0))
lim=$(st "d['elections_limited']")
log "in ${dt}s: $ROUNDS COORDINATORs from 1 -> $el elections, $lim limited, $tx ELECTION frames out"
max=$(awk -v d="$dt" 'BEGIN {printf "%d", 8 + d / 1 + 2}')
check "elections started by the frames: $el <= $max (burst 8 + one per second)" test "$el" -le "$max"
check "at least the burst ran: $el >= 8" test "$el" -ge 8
check "the refusals are counted: elections_limited $lim >= $((ROUNDS - max))" test "$lim" -ge $((ROUNDS - max))
check "frames out bounded: $tx <= 200 x $max" test "$tx" -le $((200 * max))
check "2 leads again" leads

an0=$(st "d['tx']['answer']"); co0=$(st "d['tx']['coordinator']"); el0=$(st "d['elections']")
check "$ROUNDS ELECTIONs from 1 to the leader" \
	ip netns exec en66 python3 "$ELEC_PY" forge --dev eth0 --type election \
	--src 1 --dst 2 --term 0 --src-mac "$(elec_mac 1)" --count $ROUNDS
sleep "$(elec_sec 0.5)"
an=$(($(st "d['tx']['answer']") - an0))
co=$(($(st "d['tx']['coordinator']") - co0))
el=$(($(st "d['elections']") - el0))
check "every ELECTION from 1 answered ($an) and re-announced to ($co)" \
	test "$an" -ge $ROUNDS -a "$co" -ge $ROUNDS
check "no election run ($el)" test "$el" = 0
check "2 still leads" leads
elec_teardown 1
check "rmmod election" rmmod election
elec_end
