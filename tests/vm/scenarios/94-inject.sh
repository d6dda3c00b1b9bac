#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Frames injected from a host on the segment that is no node's peer (66),
# with tests/inject/elec-inject. Four nodes (3 17 42 2001) run a bully
# group (1) and a ring group (2, Chang and Roberts); 2001 leads both.
#
#  capture  elec-inject captures 2001's switch port (both directions) while
#           node 3 calls an election in both groups: heartbeats, ELECTION,
#           ANSWER and COORDINATOR in group 1, ring election, coordinator and
#           ack frames in group 2;
#  replay   every captured frame sent again from 66's own MAC, to its
#           original destination: each receiver drops it as wrong_lladdr
#           (its source id is a peer's, its MAC not), or unknown_peer (its
#           own id);
#  forge    COORDINATOR and heartbeat claims with newer terms (term + 1 ..
#           + 2^33) in both groups: from a higher id no node has (5000:
#           unknown_peer), from the leader's id 2001 (wrong_lladdr; 2001
#           itself: unknown_peer), broadcast and unicast to each node;
#  flip     captured frames with 1..3 bits flipped in our header and
#           payload, 2,000 of them;
#
# After each section, per node and drop reason, the counters' change (a
# device-level drop taken once: every instance reports it) equals
# elec-inject's prediction (Documentation/protocol.rst's receive checks),
# and the sum over nodes equals the frames they received; no node changes
# role, leader or term, begins an election or changes leader. At the end
# both groups still follow 2001 at the term they had after the capture,
# and the kernel log is clean.
#
# Sections are functions (SECTIONS lists them in order), so that a keyed
# section (authentication: replays with the real peer's MAC refused as
# replays, bad MACs, two groups' keys apart) can be added beside them.
. tests/vm/lib.sh
. tests/inject/inject-lib.sh
elec_begin

inj_need || elec_end
ELEC_TIMING=$INJ_TIMING
elec_load || elec_end
elec_topo 3 17 42 2001 66 || elec_end
ELEC_NODES=(3 17 42 2001)	# 66 only injects
ELEC_ALGO=bully elec_group_setup 1 || elec_end
ELEC_ALGO=ring elec_group_setup 2 || elec_end
elec_start_all 1
elec_start_all 2
elec_agree 1 2001 "$ELEC_BOUND" 1
elec_agree 2 2001 "$ELEC_BOUND" 1

NODES_SPEC=$(inj_nodes_spec 3 17 42 2001)
GROUPS_SPEC=1:bully,2:ring
CAP=$INJ_TMP/capture.pcap
inj_monitor_start

term_of() { elec_ctl "$1" -j show dev eth0 group "$2" | elec_json 'd[0]["term"]'; }

# inj ARGS...: elec-inject from 66 with the model of the nodes
inj() { inj_run 66 "$@" nodes "$NODES_SPEC" groups "$GROUPS_SPEC"; }

# a section between two snapshots, checked against what it sent
checked() {
	local name=$1 mark
	shift
	log "--- $name"
	mark=$(inj_monitor_mark)
	inj_snap "before-$name" || return 1
	"$@"
	inj_snap "after-$name" || return 1
	inj_monitor_since "$mark"
	inj_check "$name" "before-$name" "after-$name"
}

section_capture() {
	local pid n
	log "--- capture: 2001's port while 3 calls elections in both groups"
	# until SIGTERM (the timeout only bounds a scenario gone wrong)
	ip netns exec esw "$INJ" capture p2001 "$CAP" timeout 300 \
		>"$INJ_TMP/capture.log" 2>&1 &
	pid=$!
	for _ in $(seq 1 50); do
		[ -s "$CAP" ] && break
		sleep 0.1
	done
	sleep "$(elec_sec 0.5)"
	check "group elect on 3 (group 1)" elec_ctl 3 group elect dev eth0 group 1
	check "group elect on 3 (group 2)" elec_ctl 3 group elect dev eth0 group 2
	# the ring run takes a new term: both groups settled, then stop
	elec_agree 1 2001 "$ELEC_BOUND" 1
	elec_agree 2 2001 "$ELEC_BOUND" 1
	kill -TERM "$pid"
	wait "$pid"
	check "capture ran" grep -q '^capture: [1-9][0-9]* frames' "$INJ_TMP/capture.log"
	sed 's/^/    /' "$INJ_TMP/capture.log"
	"$INJ" -j list "$CAP" >"$INJ_TMP/capture.json"
	# shellcheck disable=SC2016
	have() {
		python3 -c '
import json, sys
frames = json.load(open(sys.argv[1]))
g, t = int(sys.argv[2]), int(sys.argv[3])
n = sum(1 for f in frames if f.get("group") == g and f.get("type") == t and f["decodes"])
print(n)
sys.exit(0 if n else 1)' "$INJ_TMP/capture.json" "$1" "$2" >/dev/null
	}
	check "captured: group 1 heartbeats" have 1 4
	check "captured: group 1 ELECTION (3 -> 2001)" have 1 1
	check "captured: group 1 ANSWER" have 1 2
	check "captured: group 1 COORDINATOR" have 1 3
	check "captured: group 2 heartbeats" have 2 4
	check "captured: group 2 ring election" have 2 1
	check "captured: group 2 ring coordinator" have 2 3
	check "captured: group 2 ring ack" have 2 5
	n=$(elec_json 'sum(1 for f in d if not f["decodes"])' <"$INJ_TMP/capture.json")
	check "every captured frame decodes ($n do not)" test "$n" = 0
	T1=$(term_of 2001 1)
	T2=$(term_of 2001 2)
	log "terms after the capture: group 1 $T1, group 2 $T2"
}

do_replay() {
	inj replay eth0 "$CAP" src-mac own
	check "replay: frames from the peers' ids predicted wrong_lladdr" \
		test "$(elec_json 'd["expect"]["total"]["wrong_lladdr"]' <"$INJ_TMP/report.json")" -gt 0
}
section_replay() { checked replay do_replay; }

do_forge() {
	local g algo m id
	for g in 1 2; do
		algo=bully
		m=$T1
		[ "$g" = 2 ] && algo=ring m=$T2
		# a higher id that no node has, newer terms, broadcast
		inj forge eth0 coord group "$g" algo "$algo" id 5000 term $((m + 1)) \
			count 50 term-step 1
		# the leader's id from 66's MAC: newer terms, far newer terms
		inj forge eth0 coord group "$g" algo "$algo" id 2001 term $((m + 1)) \
			count 50 term-step 1
		inj forge eth0 heartbeat group "$g" algo "$algo" id 2001 \
			term $((m + (1 << 33))) count 20
		# unicast to each node, its id as dst
		for id in 3 17 42; do
			inj forge eth0 coord group "$g" algo "$algo" id 2001 dst "$id" \
				dst-mac "$(elec_mac "$id")" term $((m + 7)) count 10
		done
	done
}
section_forge() { checked forge do_forge; }

do_flip() {
	inj flip eth0 "$CAP" count 2000 seed 1 src-mac own
}
section_flip() { checked flip do_flip; }

SECTIONS=(capture replay forge flip)
for s in "${SECTIONS[@]}"; do
	"section_$s"
done

log "--- after every section"
inj_monitor_stop
elec_agree 1 2001 "$ELEC_BOUND" 1
elec_agree 2 2001 "$ELEC_BOUND" 1
for id in "${ELEC_NODES[@]}"; do
	check "node $id: group 1 term $T1, group 2 term $T2, as after the capture" \
		test "$(term_of "$id" 1) $(term_of "$id" 2)" = "$T1 $T2"
done
inj_klog_clean "after the injections"
for id in "${ELEC_NODES[@]}"; do
	elec_ctl "$id" group del dev eth0 group 2 || fail "group del 2 on $id"
done
elec_teardown 1
check "rmmod election" rmmod election
elec_end
