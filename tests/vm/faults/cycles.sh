#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# tests/vm/faults/cycles.sh CYCLES [--no-churn] [--monitor=SECS] [--rcu-fifo] [PARAM=VALUE...]
# (make vmtest-faults; also on the debug kernel there; PARAMs go to every
# load; --no-churn: no namespaces created and deleted during the cycles;
# --monitor=SECS: every SECS seconds a MONITOR line with the load, free
# memory, slab, RCU softirqs and the busiest tasks, to see where a slow
# guest's time goes; --rcu-fifo: RCU's callback kthreads rcuc/N, which
# rcutree.use_softirq=0 makes, and its grace-period kthread at SCHED_FIFO
# 1, as PREEMPT_RT kernels run them: in the debug guest, as ordinary tasks
# among a load of 17 they fell behind and an rmmod waited minutes in
# synchronize_rcu(). Set here, not with rcutree.kthread_prio=1 on the
# command line: with it the debug guest's boot hung in RCU-tasks' self
# tests in 4 of 8 boots, 0 of 3 without)
#
# CYCLES (default 1000) rmmod/insmod cycles under load (faults.py cycles):
# 5 nodes (ids 3 17 42 100 2001) each run a request loop that creates
# groups (Bully with 1 ms timers, the all-ids ring with 5 ms ones) with
# their peers, starts them, elects, changes and deletes them, dumps
# GROUP_GET and STATS_GET (a slow reader now and then, so a dump holds
# the module across the rmmod), reads MODULE_GET and listens to the
# events group, whether the module is loaded or not (a reloaded family has
# a new id: it is looked up again); a sixth namespace floods frames
# (elec.py inject); namespaces with running instances (Bully, ring-all,
# invitation) are created and deleted all along (netns deletion under
# load). Each cycle: finit_module, a random dwell (up to 0.3 s),
# MODULE_GET, delete_module (EAGAIN while a dump holds it: retried).
# Every load and unload must succeed, within 60 s each; the module's
# own exit check WARNs if an instance, peer or skb outlived it, and the
# harness fails the run on any kernel report (and kmemleak's, on the
# debug kernel). At the end: a clean load from zero, a 5-node election,
# leak counters 0 after the groups are deleted, rmmod.
. tests/vm/lib.sh
elec_begin

CYCLES=${1:-1000}
shift
CHURN=--churn
MONITOR=0
RCU_FIFO=0
while :; do
	case "${1:-}" in
	--no-churn) CHURN= ;;
	--monitor=*) MONITOR=${1#--monitor=} ;;
	--rcu-fifo) RCU_FIFO=1 ;;
	*) break ;;
	esac
	shift
done
[[ $MONITOR =~ ^[0-9]+$ ]] || { fail "--monitor takes whole seconds, not '$MONITOR'"; elec_end; }
PARAMS=$*	# module parameters for every load (default none)
FAULTS_PY=$ELEC_REPO/tests/vm/faults/faults.py
IDS=(3 17 42 100 2001)
[[ $CYCLES =~ ^[0-9]+$ ]] || { fail "CYCLES must be a whole number, not '$CYCLES'"; elec_end; }

elec_load || elec_end
elec_topo "${IDS[@]}" 9999 || elec_end
ELEC_NODES=("${IDS[@]}")	# 9999 only injects frames
check "rmmod before the cycles" rmmod election
mem0=$(awk '/^(Slab|MemAvailable):/ {printf "%s %s kB; ", $1, $2}' /proc/meminfo)

if [ "$RCU_FIFO" = 1 ]; then
	rcuc=$(pgrep '^rcuc/' | tr '\n' ' ')
	rcugp=$(pgrep -x 'rcu_preempt|rcu_sched' | tr '\n' ' ')
	if [ -z "$rcuc" ]; then
		fail "--rcu-fifo: no rcuc kthread (is rcutree.use_softirq=0 on the command line?)"
	else
		for pid in $rcuc $rcugp; do
			chrt -f -p 1 "$pid" >/dev/null || fail "chrt -f -p 1 $pid ($(cat /proc/$pid/comm))"
		done
		log "RCU kthreads at SCHED_FIFO 1: $(for pid in $rcuc $rcugp; do printf '%s ' "$(cat /proc/$pid/comm)"; done)"
	fi
fi

# monitor: one line every MONITOR seconds until the cycles end
monitor_pid=
if [ "$MONITOR" -gt 0 ]; then
	(
		while sleep "$MONITOR"; do
			log "MONITOR load $(cut -d' ' -f1-4 /proc/loadavg);" \
				"$(awk '/^(MemAvailable|Slab):/ {printf "%s %d MB; ", $1, $2 / 1024}' /proc/meminfo)" \
				"$(awk '/RCU:|NET_RX:|TIMER:|HRTIMER:/ {s = 0; for (i = 2; i <= NF; i++) s += $i; printf "%s %d; ", $1, s}' /proc/softirqs)" \
				"top: $(top -b -n 2 -d 1 -o %CPU -w 200 | awk '/^top -/ {n++} n == 2 && /^ *[0-9]+ / && c < 5 {printf "%s(%s%%,pr %s) ", $12, $9, $3; c++}')"
		done
	) &
	monitor_pid=$!
fi

nodespec=$(for id in "${IDS[@]}"; do printf 'en%s:%s,' "$id" "$id"; done)
log "$CYCLES rmmod/insmod cycles (module parameters: ${PARAMS:-none}) with request loops in ${IDS[*]}, a flood from 9999${CHURN:+, namespace churn}"
# not through check: its progress lines show as they come
python3 "$FAULTS_PY" cycles --cycles "$CYCLES" --ko "$ELEC_KO" --params "$PARAMS" --nodes "${nodespec%,}" \
	--seed 7 --dwell-max "$(elec_sec 0.3)" --op-timeout "$(elec_sec 60)" $CHURN \
	--inject en9999 --inject-rate $((1000 / ELEC_TIMER_SCALE)) --progress $((CYCLES >= 100 ? 100 : 10)) --out-dir /tmp
rc=$?
[ -n "$monitor_pid" ] && kill "$monitor_pid" 2>/dev/null
if [ $rc = 0 ]; then
	pass "$CYCLES cycles: every load and unload succeeded, every helper ran to the end"
else
	fail "$CYCLES cycles (exit $rc)"
fi
for f in /tmp/cycles-*.out; do
	[ -s "$f" ] && [ -n "${RESULTS_DIR:-}" ] && cp "$f" "$RESULTS_DIR/"
done
log "memory before the cycles: $mem0"
log "memory after the cycles:  $(awk '/^(Slab|MemAvailable):/ {printf "%s %s kB; ", $1, $2}' /proc/meminfo)"
check "no namespace of the churn is left" sh -c '! ip netns list | grep -q "^ec"'

log "after the cycles: a clean load and an election"
check "insmod election.ko" insmod "$ELEC_KO"
elec_leak_check
elec_group_setup 1
elec_start_all 1
elec_agree 1 2001
elec_teardown 1
check "rmmod election" rmmod election
elec_end
