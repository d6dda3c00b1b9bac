#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Runs inside the VM (tests/bench/timer-lateness.sh boots it): for each
# timer mode (module parameter timer_mode, read at group creation), each
# heartbeat interval and each load (quiet, hog), a fresh 3-node Bully group
# (ids 1 2 3, hb-miss 3) runs for BENCH_SECONDS; then every node's
# timer_late histogram, elections and leader_changes are appended as one
# JSON line per node to $RESULTS_DIR/timer-lateness.jsonl.
#
# hog: one busy loop per CPU (sh -c 'while :; do :; done') plus one loop
# forking short processes (/bin/true), started after the group agreed and
# killed before the counters are read.
#
# Arguments (tests/vm/run passes no environment of ours): REP (a label),
# SECONDS (default 8), "MODES" (default "0 1 2"), "INTERVALS" (default
# "10ms 1ms").
. tests/vm/lib.sh
elec_begin

REP=${1:-0}
SECS=${2:-8}
MODES=${3:-0 1 2}
INTERVALS=${4:-10ms 1ms}
OUT=${RESULTS_DIR:-/tmp}/timer-lateness.jsonl

elec_load || elec_end
elec_topo 1 2 3 || elec_end
HOGS=()

hog_start() {
	for _ in $(seq "$(nproc)"); do
		sh -c 'while :; do :; done' &
		HOGS+=($!)
	done
	sh -c 'while :; do /bin/true; done' &
	HOGS+=($!)
}

hog_stop() {
	# a bare "wait" (no hog running) would wait for every child of the
	# shell, elec_begin's elec.py server among them: never return
	[ ${#HOGS[@]} -gt 0 ] || return 0
	kill "${HOGS[@]}" 2>/dev/null
	wait "${HOGS[@]}" 2>/dev/null
	HOGS=()
}

g=0
for mode in $MODES; do
	echo "$mode" >/sys/module/election/parameters/timer_mode
	for iv in $INTERVALS; do
		for load in quiet hog; do
			g=$((g + 1))
			# timeout = interval, coord-timeout = 4 x interval (defaults' ratio)
			ELEC_TIMING="hb-interval $iv hb-miss 3 timeout $iv"
			elec_group_setup "$g" >/dev/null
			elec_start_all "$g" >/dev/null
			# a bench, not a test: no agreement is a result, not a failure
			python3 "$ELEC_PY" agree --group "$g" --expect 3 --timeout 20 \
				en1:1 en2:2 en3:3 >/dev/null ||
				log "group $g: no agreement on 3 within 20 s (measured anyway)"
			log "mode $mode interval $iv $load: group $g for ${SECS}s"
			[ "$load" = hog ] && hog_start
			sleep "$SECS"
			hog_stop
			for id in 1 2 3; do
				elec_ctl "$id" -j stats dev eth0 group "$g" | python3 -c '
import json, os, sys
d = json.load(sys.stdin)[0]
mode, iv, load, rep, node = sys.argv[1:6]
print(json.dumps({"mode": int(mode), "interval": iv, "load": load,
                  "rep": rep, "node": int(node), "seconds": float(sys.argv[6]),
                  "timer_late": d["timer_late"], "elections": d["elections"],
                  "leader_changes": d["leader_changes"],
                  "tx_heartbeat": d["tx"]["heartbeat"],
                  "kernel": os.uname().release}))' \
					"$mode" "$iv" "$load" "$REP" "$id" "$SECS" >>"$OUT"
			done
			for id in 1 2 3; do
				elec_ctl "$id" group del dev eth0 group "$g"
			done
		done
	done
done
pass "measurements in $OUT"
check "rmmod election" rmmod election
elec_end
