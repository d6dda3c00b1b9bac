#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The SCHED_FIFO timer worker (timer_mode=2, the default) keeps to its
# budget (timer_budget_pct=50, 50% of the time; the default 100 is off),
# so that it
# cannot hold ksoftirqd and RCU's kthreads off a CPU (the kernel's RT
# throttling alone leaves them 5% of it). The
# debug-only parameter debug_timer_busy_us=500 makes every timer step
# take 0.5 ms more, and the leader of three groups beats every 1 ms: the
# worker is asked for more than a CPU. With the budget the worker's
# share of a CPU (its run time over the wall time, /proc/PID/schedstat)
# stays near the budget (plus interrupts and the pauses' wakeups) and the
# module counts its pauses
# (`electionctl -j module`: timer_throttled); with timer_budget_pct=100
# only the kernel's RT throttling (95%) bounds it and nothing is counted.
# The same with steps of 10 ms, each longer than the credit the worker
# may save up. Deleting the groups and rmmod (which waits for RCU) still
# complete.
. tests/vm/lib.sh
elec_begin
P=/sys/module/election/parameters
elec_load debug_timer_busy_us=500 || elec_end
check "timer_budget_pct is 100 (off) by default" test "$(cat $P/timer_budget_pct)" = 100
echo 50 >"$P/timer_budget_pct"
check "timer_budget_pct set to 50" test "$(cat $P/timer_budget_pct)" = 50
check "timer_mode is 2 (SCHED_FIFO worker) by default" test "$(cat $P/timer_mode)" = 2
elec_topo 3 17 42 || elec_end
G=(1 2 3)
for g in "${G[@]}"; do
	elec_group_setup "$g"
	for id in 3 17 42; do
		# beat every 1 ms, but detect only after 400 ms of silence:
		# the throttled heartbeats must not start elections
		elec_ctl "$id" group set dev eth0 group "$g" hb-interval 1ms \
			hb-miss 400 timeout "$(elec_dur 100ms)" \
			coord-timeout "$(elec_dur 400ms)"
	done
done
for g in "${G[@]}"; do
	elec_start_all "$g"
done
for g in "${G[@]}"; do
	elec_agree "$g" 42 "$ELEC_BOUND" 1
done

PID=$(pgrep -x election-timer | head -n 1)
check "the election-timer worker exists" test -n "$PID"

# run ns of the worker (schedstat's first field), and the wall clock in ns
run_ns() { awk '{print $1}' "/proc/$PID/schedstat"; }
# the module's pause count (`electionctl module`: "... timer_throttled N
# ..."), -1 when it reports none
throttled() {
	local out
	out=$("$ELEC_CTL" module)
	if [[ $out =~ \ timer_throttled\ ([0-9]+) ]]; then
		echo "${BASH_REMATCH[1]}"
	else
		echo -1
	fi
}

# share PERIOD: the worker's share of a CPU, in percent, over PERIOD s
share() {
	local r0 r1 w0 w1
	r0=$(run_ns) w0=$(date +%s%N)
	sleep "$1"
	r1=$(run_ns) w1=$(date +%s%N)
	echo $(((r1 - r0) * 100 / (w1 - w0)))
}

c0=$(throttled)
s50=$(share 5)
c1=$(throttled)
log "budget 50%: worker share ${s50}%, pauses $c0 -> $c1"
check "the module reports timer_throttled" test "$c0" -ge 0
check "the worker paused for its budget ($c0 -> $c1)" test "$c1" -gt "$c0"
check "the worker's share (${s50}%) stays near its budget (<= 80%)" test "$s50" -le 80

echo 100 >"$P/timer_budget_pct"
sleep 1
c2=$(throttled)
s100=$(share 5)
c3=$(throttled)
log "budget 100% (RT throttling only): worker share ${s100}%, pauses $c2 -> $c3"
check "no pauses with timer_budget_pct=100 ($c2 -> $c3)" test "$c3" -eq "$c2"
check "without the budget the worker takes more (${s100}% > ${s50}%)" test "$s100" -gt "$s50"
echo 50 >"$P/timer_budget_pct"

# steps of 10 ms, each longer than the credit the worker may save up: a
# budget counted per window would let each one open a window of its own;
# the credit makes the worker pay each one back with a pause as long
echo 10000 >"$P/debug_timer_busy_us"
sleep 1
c4=$(throttled)
slong=$(share 5)
c5=$(throttled)
log "budget 50%, 10 ms steps: worker share ${slong}%, pauses $c4 -> $c5"
check "10 ms steps: the worker paused ($c4 -> $c5)" test "$c5" -gt "$c4"
check "10 ms steps: the worker's share (${slong}%) stays near its budget (<= 80%)" test "$slong" -le 80
echo 500 >"$P/debug_timer_busy_us"

check "electionctl module prints the pauses" sh -c "\"$ELEC_CTL\" module | grep -q 'timer_throttled [0-9]* timer_throttled_ns [0-9]*'"
for g in "${G[@]}"; do
	for id in 3 17 42; do
		elec_ctl "$id" group del dev eth0 group "$g"
	done
done
elec_leak_check
echo 0 >"$P/debug_timer_busy_us"
check "rmmod election (waits for RCU)" timeout "$(elec_sec 120)" rmmod election
elec_end
