#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Events reach listeners in order (review defect 5). Three nodes run four
# groups with the shortest timers, so that on two vCPUs timer expiries and
# received frames of one instance keep overlapping, and the debug-only
# module parameter debug_timer_delay_us holds every timer's delivery back
# by 0.3 ms: the window in which another CPU's receive runs a later core call
# of the same instance and delivers first. A listener in node 42's
# namespace must see SEQ strictly increasing by one (no gap, no lost
# event), each instance's events in core order (their timestamps never go
# back), and, once the groups are slowed down and settled, the last
# leader_changed event of every group naming the leader `show` reports.
# Before the fix SEQ was taken after the instance lock was dropped, so a
# later event could be numbered and multicast first.
. tests/vm/lib.sh
elec_begin
elec_load debug_timer_delay_us=300 || elec_end
check "debug_timer_delay_us is set" test "$(cat /sys/module/election/parameters/debug_timer_delay_us)" = 300
elec_topo 3 17 42 || elec_end
GROUPS_=(1 2 3 4)
FAST="hb-interval 3ms hb-miss 1 timeout 2ms coord-timeout 4ms"
SLOW="hb-interval $(elec_dur 100ms) hb-miss 5 timeout $(elec_dur 100ms) coord-timeout $(elec_dur 400ms)"
for g in "${GROUPS_[@]}"; do
	ELEC_TIMING=$FAST elec_group_setup "$g"
done
CAP=${RESULTS_DIR:-/tmp}/monitor-42.json
ip netns exec en42 "$ELEC_CTL" -j monitor >"$CAP" &
MON=$!
sleep 1
for g in "${GROUPS_[@]}"; do
	elec_start_all "$g"
done
# churn: the fast timers keep elections going; group elect adds more
end=$((SECONDS + 8))
while [ $SECONDS -lt $end ]; do
	python3 "$ELEC_PY" elect --group $((RANDOM % 4 + 1)) en3:3 en17:17 en42:42 >/dev/null 2>&1
done
for g in "${GROUPS_[@]}"; do
	for id in 3 17 42; do
		# shellcheck disable=SC2086
		elec_ctl "$id" group set dev eth0 group "$g" $SLOW
	done
done
for g in "${GROUPS_[@]}"; do
	elec_agree "$g" 42 "$ELEC_BOUND" 1
done
sleep 1
kill "$MON"
wait "$MON" 2>/dev/null
n=$(grep -c '"seq"' "$CAP")
log "captured $n events in node 42's namespace"
check "thousands of events to check ($n >= 500)" test "$n" -ge 500
check "SEQ +1 each, core order per instance, last leader = show" \
	ip netns exec en42 python3 "$ELEC_PY" seqcheck --file "$CAP" --expect-groups 1,2,3,4
echo 0 >/sys/module/election/parameters/debug_timer_delay_us
for g in "${GROUPS_[@]}"; do
	for id in 3 17 42; do
		elec_ctl "$id" group del dev eth0 group "$g"
	done
done
elec_leak_check
check "rmmod election" rmmod election
elec_end
