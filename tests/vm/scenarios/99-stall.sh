#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# A stall of the whole guest is not a leader failure. Three nodes (3 17
# 42) run bully groups (1, 3) and ring groups (2, 4); 42 leads them all,
# and its frames take 30 ms to arrive (netem on its port). Then a
# SCHED_FIFO 99 busy loop on every CPU holds off everything else, the
# election-timer worker (SCHED_FIFO 50) included, for twice the
# detection window: every timer expires meanwhile, the leader's
# heartbeats included. When the loops end, the worker runs the backlog.
# Groups 1 and 2 are created with timer_waits_soft=0: the worker steps
# the leader's heartbeat, then the followers' detectors, late, before
# that heartbeat arrives. (In 94-inject a vCPU stall did the same without
# a delay: on 6.1 a runnable ksoftirqd takes over the receive softirq,
# and the worker holds it off until its backlog is done.) The followers
# were held up themselves: each late detector watches one more window
# (stats: detect_deferred) and the heartbeat keeps the leader. Groups 3
# and 4 have the default, timer_waits_soft=1: their detectors step in the
# hrtimer softirq after the receive softirq, and either find a heartbeat
# that arrived during the stall (the detector was re-armed: nothing to
# defer) or defer the same way; which one depends on when netem released
# the frames, so there only the outcome is checked. Checked: the timers
# ran late by at least the window (the stall happened), some detectors of
# groups 1 and 2 were deferred, no node of any group began an election,
# and every node still follows 42 at the term it had. Before the
# deferral, both groups elected again. On Debian's PREEMPT_RT kernel the
# busy loops were seen not to hold the worker off: there the stall checks
# give way to a NOTE and only "nobody elects" is checked.
. tests/vm/lib.sh
elec_begin
elec_load || elec_end
elec_topo 3 17 42 || elec_end
ELEC_TIMING="hb-interval $(elec_dur 50ms) hb-miss 4 timeout $(elec_dur 50ms) coord-timeout $(elec_dur 200ms)"
STALL_GROUPS=(1 2 3 4)
WAITS_PARAM=/sys/module/election/parameters/timer_waits_soft
declare -A WAITS
for g in "${STALL_GROUPS[@]}"; do
	# read when the instance is created: 1 and 2 step in the worker
	if [ "$g" -le 2 ]; then WAITS[$g]=0; else WAITS[$g]=1; fi
	echo "${WAITS[$g]}" >"$WAITS_PARAM" || fail "timer_waits_soft=${WAITS[$g]}"
	if [ $((g % 2)) = 1 ]; then algo=bully; else algo=ring; fi
	ELEC_ALGO=$algo elec_group_setup "$g" || elec_end
done
echo 1 >"$WAITS_PARAM"
for g in "${STALL_GROUPS[@]}"; do
	elec_start_all "$g"
done
for g in "${STALL_GROUPS[@]}"; do
	elec_agree "$g" 42 "$ELEC_BOUND" 1
done

# 42's frames arrive 30 ms late: well within the window while it runs
NETEM_DELAY=$(elec_dur 30ms)
elec_modprobe sch_netem
check "netem: 42's frames delayed $NETEM_DELAY" \
	ip netns exec en42 tc qdisc add dev eth0 root netem delay "$NETEM_DELAY"
sleep "$(elec_sec 0.5)"

state_of() {
	elec_ctl "$1" -j show dev eth0 group "$2" |
		elec_json '"%s %s" % (d[0]["leader"], d[0]["term"])'
}
sum_stat() {
	local g=$1 expr=$2 id s=0
	for id in "${ELEC_NODES[@]}"; do
		s=$((s + $(elec_stat "$id" "$g" "$expr")))
	done
	echo "$s"
}

# the latest timer expiry, in ms, over every node and both groups
late_max_ms() {
	local g id m=0 v
	for g in "${STALL_GROUPS[@]}"; do
		for id in "${ELEC_NODES[@]}"; do
			v=$(elec_stat "$id" "$g" "(d['timer_late'] or {}).get('max_ns', 0) // 1000000")
			[ "$v" -gt "$m" ] && m=$v
		done
	done
	echo "$m"
}

declare -A BEFORE
E0=() D0=()
for g in "${STALL_GROUPS[@]}"; do
	for id in "${ELEC_NODES[@]}"; do
		BEFORE[$id.$g]=$(state_of "$id" "$g")
	done
	E0[g]=$(sum_stat "$g" "d['elections']")
	D0[g]=$(sum_stat "$g" "d.get('detect_deferred', 0)")
done
LATE0=$(late_max_ms)
log "before: elections ${E0[*]}, detect_deferred ${D0[*]} (groups ${STALL_GROUPS[*]})"

# The stall: twice the detection window (hb-interval x hb-miss), at least
# 0.4 s (ELEC_TIMER_SCALE stretches it: 1.6 s at 4). Past 950 ms of a
# second the kernel's RT throttling gives ordinary tasks 50 ms, but not
# the worker, a SCHED_FIFO task too: no heartbeat goes out meanwhile.
stall_us=$(python3 -c "print(max(400000, int(2 * 4 * $(elec_sec 0.05) * 1e6)))")
log "--- every CPU busy at SCHED_FIFO 99 for $((stall_us / 1000)) ms"
pids=()
for cpu in $(seq 0 $(($(nproc) - 1))); do
	# shellcheck disable=SC2016
	chrt -f 99 taskset -c "$cpu" bash -c '
		end=$((${EPOCHREALTIME/./} + $1))
		while ((${EPOCHREALTIME/./} < end)); do :; done' _ "$stall_us" &
	pids+=($!)
done
for pid in "${pids[@]}"; do
	wait "$pid"
done
# a window and more to settle whatever the stall set off
sleep "$(elec_sec 1)"

LATE=$(late_max_ms)
STALLED=1
if [ "$LATE" -ge $((stall_us / 2000)) ] && [ "$LATE" -gt "$LATE0" ]; then
	pass "the stall held the timers off: the latest ran ${LATE} ms late (before: ${LATE0} ms; at least the window, $((stall_us / 2000)) ms)"
elif uname -v | grep -q PREEMPT_RT; then
	# Seen on Debian's 6.1 RT kernel: the worker ran through the busy
	# loops (7 ms late at most); not understood yet. Nothing to defer.
	STALLED=0
	log "NOTE: PREEMPT_RT: the busy loops did not hold the timers off (latest ${LATE} ms late, before ${LATE0} ms): the deferral is not exercised here"
else
	fail "the stall held the timers off: the latest ran ${LATE} ms late (before: ${LATE0} ms; at least the window, $((stall_us / 2000)) ms)"
fi

for g in "${STALL_GROUPS[@]}"; do
	E1=$(sum_stat "$g" "d['elections']")
	D1=$(sum_stat "$g" "d.get('detect_deferred', 0)")
	log "group $g (timer_waits_soft=${WAITS[$g]}) after: elections $E1, detect_deferred $D1"
	[ "$STALLED" = 1 ] && [ "${WAITS[$g]}" = 0 ] &&
		check "group $g: late detectors watched one more window (detect_deferred ${D0[g]} -> $D1)" \
			test "$D1" -gt "${D0[g]}"
	check "group $g: no node began an election (${E0[g]} -> $E1)" test "$E1" = "${E0[g]}"
	for id in "${ELEC_NODES[@]}"; do
		check "node $id: group $g leader and term as before (${BEFORE[$id.$g]})" \
			test "$(state_of "$id" "$g")" = "${BEFORE[$id.$g]}"
	done
done
for g in "${STALL_GROUPS[@]}"; do
	elec_agree "$g" 42 "$ELEC_BOUND" 1
done
for g in 2 3 4; do
	for id in "${ELEC_NODES[@]}"; do
		elec_ctl "$id" group del dev eth0 group "$g" || fail "group del $g on $id"
	done
done
elec_teardown 1
check "rmmod election" rmmod election
elec_end
