#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Volume: 10^6 random and mutated frames (argument 1: another count;
# argument 2: the seed, default 1) while a group of every algorithm runs
# on one link.
#
# Three nodes (3 17 42) hold ten groups: bully, ring, ring-all, ring-list,
# min-bully, enh-bully, invitation (groups 1..7), bully with quorum on (8),
# a stopped bully group (9) and a bully group with a key (10: frames with
# the AUTH flag and a wrong MAC are auth_bad there, signed ones with its
# key pass the MAC and stop at the source checks). A fourth host (66, no node of any group)
# sends with elec-inject from its own MAC, broadcast, in three phases
# (half the frames "mixed": every category of tests/inject/README, a
# quarter "mutate": valid frames of every algorithm and type with 1..4
# random mutations, a quarter "random" bytes): valid headers with bad
# payloads, payload lengths short, long and beyond the frame, every type,
# every algorithm, bad versions and flags, truncated frames, frames with
# the AUTH flag and whole, cut or rightly signed trailers, frames for
# absent and stopped groups, other algorithms, other ids, and well-formed
# frames from the nodes' own ids (dropped as wrong_lladdr: the MAC is no
# peer's). After
# each phase, for every node and drop reason, the change of the counters
# (a device-level drop taken once: every instance reports it) equals
# elec-inject's prediction, whose model follows Documentation/protocol.rst;
# their sum equals the frames received: drops counted to the frame; no
# frame lost before the module (softnet backlog); every group keeps its
# leader and term, with no election and no leader change; no Oops, BUG or
# WARNING (each phase's check compares its snapshots, so the groups are
# undisturbed from the first snapshot to the last). The rate is printed
# and appended to $RESULTS_DIR/inject-volume.json.
. tests/vm/lib.sh
. tests/inject/inject-lib.sh
elec_begin

# the debug kernel (KASAN, lockdep: ELEC_TIMER_SCALE > 1) takes about 350
# frames/s instead of 25,000 (10^5 frames: 15 minutes): 3 x 10^4 there
COUNT=${1:-1000000}
[ -z "${1:-}" ] && [ "$ELEC_TIMER_SCALE" -gt 1 ] && COUNT=30000
SEED=${2:-1}
case "$COUNT" in '' | *[!0-9]* | 0) echo "usage: $0 [COUNT [SEED]]"; exit 2 ;; esac
case "$SEED" in '' | *[!0-9]*) echo "usage: $0 [COUNT [SEED]]"; exit 2 ;; esac
ELEC_TIMING=$INJ_TIMING
inj_need || elec_end
elec_load || elec_end
elec_topo 3 17 42 66 || elec_end
ELEC_NODES=(3 17 42)	# 66 only sends
declare -A ALGO_OF=([1]=bully [2]=ring [3]=ring-all [4]=ring-list [5]=min-bully
	[6]=enh-bully [7]=invitation [8]=bully [9]=bully [10]=bully)
ALL_GROUPS=(1 2 3 4 5 6 7 8 9 10)
RUNNING=(1 2 3 4 5 6 7 8 10)
KEYF=$INJ_TMP/group10.key
(umask 077 && od -An -tx1 -N16 /dev/urandom | tr -d ' \n' >"$KEYF")
GROUPS_SPEC=""
SETUP=()
SETTLE=""
for g in "${ALL_GROUPS[@]}"; do
	opts=""
	[ "$g" = 8 ] && opts="quorum+on"
	[ "$g" = 10 ] && opts="key-file+$KEYF"
	SETUP+=("$g:${ALGO_OF[$g]}:$opts")
	spec="$g:${ALGO_OF[$g]}"
	[ "$g" = 9 ] && spec+=":stopped"
	[ "$g" = 10 ] && spec+=":key=$KEYF"
	GROUPS_SPEC+="${GROUPS_SPEC:+,}$spec"
	# min-bully: the lowest id leads; the others the highest
	[ "$g" = 9 ] || SETTLE+="${SETTLE:+,}$g:$([ "$g" = 5 ] && echo 3 || echo 42)"
done
inj_batch_setup "${SETUP[@]}" || elec_end
inj_batch_start "${RUNNING[@]}" || elec_end
inj_settle "$SETTLE" || elec_end
NODES_SPEC=$(inj_nodes_spec 3 17 42)
inj_monitor_start

phase() {
	local mode=$1 n=$2 seed=$3 d0 d1 secs mark
	log "--- $n frames, mode $mode, seed $seed"
	mark=$(inj_monitor_mark)
	inj_snap "before-$mode" || return 1
	d0=$(inj_softnet_dropped)
	echo "    sending from $(date +%T.%N | cut -c1-12)"
	inj_run 66 fuzz eth0 count "$n" seed "$seed" mode "$mode" \
		nodes "$NODES_SPEC" groups "$GROUPS_SPEC" || return 1
	echo "    sent at $(date +%T.%N | cut -c1-12)"
	d1=$(inj_softnet_dropped)
	inj_snap "after-$mode" || return 1
	inj_monitor_since "$mark"
	check "$mode: no frame dropped before the module (softnet backlog: $((d1 - d0)))" \
		test "$((d1 - d0))" = 0
	inj_check "$mode" "before-$mode" "after-$mode"
	secs=$(elec_json 'd["seconds"]' <"$INJ_TMP/report.json")
	python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))
print(json.dumps({"kernel": sys.argv[2], "mode": r["command"] + " " + sys.argv[3],
                  "frames": r["sent"], "nodes": 3, "groups": 10,
                  "seconds": r["seconds"], "rate": r["rate"]}))' \
		"$INJ_TMP/report.json" "$(uname -r)" "$mode" \
		>>"${RESULTS_DIR:-/tmp}/inject-volume.json"
	log "$mode: $n frames in $secs s"
}

T0=$(date +%s.%N)
phase mixed $((COUNT - 2 * (COUNT / 4))) "$SEED"
phase mutate $((COUNT / 4)) $((SEED + 1))
phase random $((COUNT / 4)) $((SEED + 2))
log "$COUNT frames in $(awk -v a="$T0" -v b="$(date +%s.%N)" 'BEGIN {printf "%.1f", b - a}') s, snapshots included"

inj_monitor_stop
inj_klog_clean "after $COUNT frames"
# each node's groups deleted in order, the nodes in parallel
pids=()
for id in "${ELEC_NODES[@]}"; do
	(
		rc=0
		for g in "${ALL_GROUPS[@]}"; do
			elec_ctl "$id" group del dev eth0 group "$g" || rc=1
		done
		exit $rc
	) &
	pids+=($!)
done
rc=0
for p in "${pids[@]}"; do
	wait "$p" || rc=1
done
check "every group deleted on ${ELEC_NODES[*]}" test $rc = 0
elec_leak_check
check "rmmod election" rmmod election
elec_end
