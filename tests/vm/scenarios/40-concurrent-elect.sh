#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Concurrent elections: all five nodes start at once (each learns, then
# calls an election) and one leader results; then `group elect` on every
# node at the same moment, three times, and one leader results each time;
# then the highest node stops and every survivor calls an election at once:
# one leader, the next-highest.
. tests/vm/lib.sh
elec_begin

elec_load || elec_end
elec_topo 3 17 42 100 2001 || elec_end
elec_group_setup 1
elec_start_all 1
elec_agree 1 2001 "$ELEC_BOUND" 1

elect_all() {
	local id pids=() rc=0
	for id in "$@"; do
		elec_ctl "$id" group elect dev eth0 group 1 &
		pids+=($!)
	done
	for id in "${pids[@]}"; do
		wait "$id" || rc=1
	done
	return $rc
}

for round in 1 2 3; do
	e0=$(elec_stat 2001 1 'd["elections"]')
	check "round $round: group elect on every node at once" elect_all 3 17 42 100 2001
	elec_agree 1 2001 "$ELEC_BOUND" 1
	e1=$(elec_stat 2001 1 'd["elections"]')
	check "round $round: the leader ran an election ($e0 -> $e1)" test "$e1" -gt "$e0"
done

log "the highest node stops; all survivors elect at once"
check "group stop on 2001" elec_ctl 2001 group stop dev eth0 group 1
check "survivors: group elect at once" elect_all 3 17 42 100
elec_agree 1 100 "$ELEC_BOUND" 1 3 17 42 100
elec_views 1

elec_teardown 1
check "rmmod election" rmmod election
elec_end
