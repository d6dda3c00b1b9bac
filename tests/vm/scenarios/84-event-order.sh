#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Events reach listeners in order (review defect 5). Node 3 watches its
# leader with a far shorter window (hb-interval 1ms, hb-miss 1) than the
# leader's heartbeat interval, so its detection timer keeps firing: each
# time it reports the leader gone and an election (a timer's core call),
# and within a few milliseconds a received ANSWER, COORDINATOR or heartbeat
# brings the leader back (a receive's core call, often on the other vCPU).
# The debug-only module parameter debug_timer_delay_us holds every timer
# step that reported events back by 5 ms before its delivery: the window
# in which the receive runs and delivers. A listener in node 3's namespace
# must see SEQ strictly increasing by one (no gap, no lost event), each
# instance's events in core order (their timestamps never go back), and,
# once the churn stops, the last leader_changed event naming the leader
# `show` reports. Before the fix SEQ was taken after the instance lock was
# dropped: the receive's later events were numbered and delivered first,
# and the delayed "leader none" came last.
. tests/vm/lib.sh
elec_begin
elec_load debug_timer_delay_us=5000 || elec_end
check "debug_timer_delay_us is set" test "$(cat /sys/module/election/parameters/debug_timer_delay_us)" = 5000
elec_topo 3 17 42 || elec_end
G=(1 2)
for g in "${G[@]}"; do
	elec_group_setup "$g"
	elec_ctl 3 group set dev eth0 group "$g" hb-interval 1ms hb-miss 1 \
		timeout "$(elec_dur 20ms)" coord-timeout "$(elec_dur 80ms)"
done
CAP=${RESULTS_DIR:-/tmp}/monitor-3.json
ip netns exec en3 "$ELEC_CTL" -j monitor >"$CAP" &
MON=$!
sleep 1
for g in "${G[@]}"; do
	elec_start_all "$g"
done
sleep "$(elec_sec 10)"
# the churn stops: node 3 watches with the group's timing again
for g in "${G[@]}"; do
	# shellcheck disable=SC2086
	elec_ctl 3 group set dev eth0 group "$g" $ELEC_TIMING
done
for g in "${G[@]}"; do
	elec_agree "$g" 42 "$ELEC_BOUND" 1
done
sleep 1
kill "$MON"
wait "$MON" 2>/dev/null
n=$(grep -c '"seq"' "$CAP")
log "captured $n events in node 3's namespace"
check "enough events to check ($n >= 100)" test "$n" -ge 100
check "SEQ +1 each, core order per instance, last leader = show" \
	ip netns exec en3 python3 "$ELEC_PY" seqcheck --file "$CAP" --expect-groups 1,2
echo 0 >/sys/module/election/parameters/debug_timer_delay_us
for g in "${G[@]}"; do
	for id in 3 17 42; do
		elec_ctl "$id" group del dev eth0 group "$g"
	done
done
elec_leak_check
check "rmmod election" rmmod election
elec_end
