#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The failure detector and timeout auto turned on and off on a running group
# with peers (group set), and what -j show and -j stats report of them.
#
# Three bully nodes, the default timing (hb-interval 100ms hb-miss 5),
# started with `detector fixed`: every peer's detect_window_ns is the fixed
# window (500 ms) and no rtt_ns is reported (nothing is measured). `group
# set detector adaptive` on every node, the group keeping its leader: after
# a few heartbeats the followers' window for the leader lies between the
# floor (2 x hb-interval) and detector-max (10 x 100 ms x 5), and is not
# the fixed one. detector-max below 2 x hb-interval is refused with its
# message and changes nothing. `group set timeout auto` and an election
# (`group elect` on node 1: ELECTION to 2 and 3, their ANSWERs) give node 1
# a round trip for each of 2 and 3 (rtt_ns > 0 and below coord-timeout).
# The leader's crash is suspected (suspicions > 0) and the survivors agree
# on 2. `timeout DUR` turns timeout-auto off, `detector fixed` brings the
# fixed window back.
. tests/vm/lib.sh
elec_begin

elec_load || elec_end
elec_topo 1 2 3 || elec_end

# show ID EXPR: EXPR over node ID's -j show of group 1 (d = its object)
show() {
	elec_ctl "$1" -j show dev eth0 group 1 | elec_json "(lambda d: $2)(d[0])"
}
# peer_key ID PEER KEY: node ID's KEY for PEER
peer_key() {
	show "$1" "[p.get('$3') for p in d['peers'] if p['id'] == $2][0]"
}
# expect DESC WANT CMD...: CMD prints WANT
expect() {
	local desc=$1 want=$2 got
	shift 2
	got=$("$@" 2>&1)
	if [ "$got" = "$want" ]; then pass "$desc: $got"; else fail "$desc: got $got, want $want"; fi
}
# within DESC LO HI CMD...: CMD prints an integer in [LO, HI]
within() {
	local desc=$1 lo=$2 hi=$3 got
	shift 3
	got=$("$@" 2>&1)
	if [[ "$got" =~ ^[0-9]+$ ]] && [ "$got" -ge "$lo" ] && [ "$got" -le "$hi" ]; then
		pass "$desc: $got in [$lo, $hi]"
	else
		fail "$desc: got $got, want [$lo, $hi]"
	fi
}

log "--- detector fixed: the fixed window, nothing measured"
ELEC_GROUP_OPTS="detector fixed" elec_group_setup 1
elec_start_all 1
elec_agree 1 3 "$ELEC_BOUND" 1
hb_ns=$(show 1 "d['hb_interval_ns']")
FIXED=$((hb_ns * 5))
expect "node 1: detector" "fixed" show 1 "d['detector']"
expect "node 1: timeout-auto" "False" show 1 "d['timeout_auto']"
expect "node 1: the leader's window is hb-interval x hb-miss" "$FIXED" peer_key 1 3 detect_window_ns
expect "node 1: no round trip reported" "None" peer_key 1 3 rtt_ns

log "--- group set detector adaptive on a running group"
for i in 1 2 3; do
	check "node $i: group set detector adaptive" \
		elec_ctl "$i" group set dev eth0 group 1 detector adaptive
done
expect "node 1: detector" "adaptive" show 1 "d['detector']"
# a few heartbeats' gaps, the group keeping its leader
elec_agree 1 3 "$ELEC_BOUND" "$(elec_sec 1.5)"
MAX=$((10 * hb_ns * 5))
for i in 1 2; do
	w=$(peer_key "$i" 3 detect_window_ns)
	within "node $i: the leader's adaptive window (floor 2 x hb, ceiling detector-max)" \
		$((2 * hb_ns)) "$MAX" echo "$w"
	if [ "$w" != "$FIXED" ]; then
		pass "node $i: the adaptive window is not the fixed one ($w)"
	else
		fail "node $i: the adaptive window is the fixed one ($w)"
	fi
done

log "--- detector-max below 2 x hb-interval: refused, nothing changes"
before=$(elec_ctl 1 -j show dev eth0 group 1 | elec_json "{k: v for k, v in d[0].items() if k not in ('peers', 'term', 'heard_ms_ago')}")
out=$(elec_ctl 1 group set dev eth0 group 1 detector-max $((hb_ns * 3 / 2000))us 2>&1)
rc=$?
echo "    $out"
if [ $rc != 0 ] && grep -qF "detector-max may not be below 2 x hb-interval" <<<"$out"; then
	pass "detector-max 1.5 x hb-interval refused with its message"
else
	fail "detector-max 1.5 x hb-interval: rc=$rc"
fi
after=$(elec_ctl 1 -j show dev eth0 group 1 | elec_json "{k: v for k, v in d[0].items() if k not in ('peers', 'term', 'heard_ms_ago')}")
check "node 1's configuration unchanged by the refusal" test "$before" = "$after"

log "--- timeout auto: round trips from an election"
check "node 1: group set timeout auto" elec_ctl 1 group set dev eth0 group 1 timeout auto
expect "node 1: timeout-auto" "True" show 1 "d['timeout_auto']"
check "node 1: group elect (ELECTION to 2 and 3)" elec_ctl 1 group elect dev eth0 group 1
elec_agree 1 3 "$ELEC_BOUND" 1
coord=$(show 1 "d['coord_timeout_ns']")
for p in 2 3; do
	within "node 1: rtt_ns of peer $p (0 < SRTT < coord-timeout)" 1 "$coord" \
		peer_key 1 "$p" rtt_ns
done

log "--- the leader's crash is suspected; the survivors agree on 2"
s0=$(elec_stat 1 1 "d['suspicions']")
elec_node_crash 3
elec_agree 1 2 "$ELEC_BOUND" 1
s1=$(elec_stat 1 1 "d['suspicions']")
s2=$(elec_stat 2 1 "d['suspicions']")
if [ $((s1 + s2)) -gt "$s0" ]; then
	pass "suspicions counted ($s0 before; nodes 1 and 2 now $s1, $s2)"
else
	fail "no suspicion counted ($s0 before; nodes 1 and 2 now $s1, $s2)"
fi

log "--- back: timeout DUR turns timeout-auto off, detector fixed the window"
check "node 1: group set timeout 100ms" elec_ctl 1 group set dev eth0 group 1 timeout "$(elec_dur 100ms)"
expect "node 1: timeout-auto" "False" show 1 "d['timeout_auto']"
check "node 1: group set detector fixed" elec_ctl 1 group set dev eth0 group 1 detector fixed
expect "node 1: the leader's window is the fixed one again" "$FIXED" peer_key 1 2 detect_window_ns
elec_agree 1 2 "$ELEC_BOUND" 1

elec_teardown 1
check "rmmod election" rmmod election
elec_end
