#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# tests/vm/faults/netem.sh SYSTEM SECONDS [NETEM...]  (make vmtest-faults)
#
# One algorithm under netem on every link: 5 nodes (ids 3 17 42 100 2001),
# group 1 of SYSTEM (bully, ring, ring-nosuppress, ring-all, ring-list,
# min-bully, enh-bully, invitation, bully-quorum) with the scenarios'
# timing (ELEC_TIMING). Once the group agrees, a netem qdisc goes on both
# ends of every node's link (its eth0 and its switch port: every frame
# crosses two, so a frame from one node to another is lost with
# probability 1 - 0.7^2 = 51%, delayed twice, ...), default
#   loss 30% delay 10ms 5ms distribution normal duplicate 5% reorder 25% 50%
# for SECONDS (default 600), while elec.py watch records every node's
# events and role. Loss is outside every algorithm's assumptions
# (Documentation/simulator.rst): nothing is asserted while it lasts; the
# figures are printed (faults.py analyze: two-leader time, leader changes,
# failovers p50/p90). Then netem goes, and the group must agree on one
# leader (invitation: one group of every node) within 4 x the algorithm's
# E2 bound after the last fault (faults.py bound) and keep it for 3 s;
# the frames no fault can make (malformed, wrong group or algorithm,
# unknown peer, wrong source address) must not have been counted; the
# groups are deleted with nothing left behind (leak counters), the
# module unloads.
. tests/vm/lib.sh
elec_begin

SYSTEM=${1:-bully}
SECS=${2:-600}
shift 2 2>/dev/null || shift $#
NETEM=${*:-loss 30% delay $(elec_dur 10ms) $(elec_dur 5ms) distribution normal duplicate 5% reorder 25% 50%}
FAULTS_PY=$ELEC_REPO/tests/vm/faults/faults.py
IDS=(3 17 42 100 2001)
OUT=${RESULTS_DIR:-/tmp}

case "$SYSTEM" in
bully | ring | ring-all | ring-list | min-bully | enh-bully | invitation) ELEC_ALGO=$SYSTEM ;;
ring-nosuppress) ELEC_ALGO=ring ELEC_GROUP_OPTS="suppress off" ;;
bully-quorum) ELEC_ALGO=bully ELEC_GROUP_OPTS="quorum on" ;;
*) fail "unknown system '$SYSTEM'"; elec_end ;;
esac
[[ $SECS =~ ^[0-9]+$ ]] || { fail "SECONDS must be a whole number, not '$SECS'"; elec_end; }
best=2001
[ "$ELEC_ALGO" = min-bully ] && best=3
nodes=()
for id in "${IDS[@]}"; do nodes+=("en$id:$id"); done
inv=()
[ "$ELEC_ALGO" = invitation ] && inv=(--invitation)

bound=$(python3 "$FAULTS_PY" bound --algo "$SYSTEM" --nodes ${#IDS[@]} --timing "$ELEC_TIMING" \
	--latency "$(elec_sec 10ms)") || { fail "faults.py bound"; elec_end; }
limit=$(awk -v b="$bound" 'BEGIN { printf "%.1f", 4 * b }')
log "system $SYSTEM, timing: $ELEC_TIMING; E2 bound after the last fault ${bound}s (checked: 4 x = ${limit}s)"
log "netem on both ends of every link for ${SECS}s: $NETEM"

elec_load || elec_end
elec_modprobe sch_netem || { fail "modprobe sch_netem"; elec_end; }
elec_topo "${IDS[@]}" || elec_end
elec_group_setup 1
elec_start_all 1
check "all agree on $best before the faults" \
	python3 "$FAULTS_PY" agree --group 1 --expect "$best" "${inv[@]}" --timeout "$ELEC_BOUND" "${nodes[@]}"

WATCH=/tmp/watch-$SYSTEM.jsonl
python3 "$ELEC_PY" watch --group 1 --out "$WATCH" --interval 0.1 \
	--seconds $((SECS + 3600)) "${nodes[@]}" >/tmp/watch.out 2>&1 &
WPID=$!
for _ in $(seq 1 100); do
	grep -q watching /tmp/watch.out && break
	sleep 0.1
done
check "the watch runs" grep -q watching /tmp/watch.out

netem_all() {	# add | del
	local id rc=0
	for id in "${IDS[@]}"; do
		if [ "$1" = add ]; then
			# shellcheck disable=SC2086
			tc -n "en$id" qdisc add dev eth0 root netem $NETEM || rc=1
			# shellcheck disable=SC2086
			tc -n esw qdisc add dev "p$id" root netem $NETEM || rc=1
		else
			tc -n "en$id" qdisc del dev eth0 root || rc=1
			tc -n esw qdisc del dev "p$id" root || rc=1
		fi
	done
	return $rc
}

sleep 1
t_fault=$(date +%s%N)
check "netem on all $((2 * ${#IDS[@]})) link ends" netem_all add
end=$((SECONDS + SECS))
next=$((SECONDS + 60))
while [ $SECONDS -lt $end ]; do
	sleep 1
	if [ $SECONDS -ge $next ]; then
		log "netem for $((SECS - end + SECONDS))s of ${SECS}s"
		next=$((next + 60))
	fi
done
check "netem removed from every link end" netem_all del
t_heal=$(date +%s%N)
log "netem removed: the last fault"

check "one leader within 4 x the E2 bound (${limit}s) after the faults, for 3s" \
	python3 "$FAULTS_PY" agree --group 1 --expect any "${inv[@]}" --timeout "$limit" \
	--stable "$(elec_sec 3)" --report /tmp/leader.json "${nodes[@]}"
leader=$(elec_json 'd["leader"]' </tmp/leader.json 2>/dev/null || echo none)
if [ "$leader" = "$best" ]; then
	log "the leader after the faults is the best id, $best"
else
	log "NOTE: the leader after the faults is $leader, not the best id $best"
fi
sleep 1
kill -TERM "$WPID" 2>/dev/null
wait "$WPID"
cat /tmp/watch.out

python3 "$FAULTS_PY" analyze --file "$WATCH" --fault-real "$t_fault" --heal-real "$t_heal" \
	--bound "$bound" --label "$SYSTEM" --out "$OUT/faults-netem.jsonl"
gzip -c "$WATCH" >"$OUT/watch-$SYSTEM.jsonl.gz" 2>/dev/null

python3 "$ELEC_PY" stats --group 1 "${nodes[@]}" >/tmp/stats.json
check "no frame was malformed, of another group or algorithm, from an unknown peer or address" \
	python3 -c '
import json, sys
bad = 0
for nid, s in sorted(json.load(open(sys.argv[1])).items(), key=lambda x: int(x[0])):
    d = s["drops"]
    odd = {k: d.get(k, 0) for k in ("malformed", "wrong_group", "wrong_algo", "unknown_peer",
                                   "wrong_lladdr") if d.get(k, 0)}
    print("node %s: elections %s leader_changes %s tx %s drops %s tx_errors %s" % (
        nid, s.get("elections"), s.get("leader_changes"), sum(s["tx"].values()),
        {k: v for k, v in d.items() if v}, s.get("tx_errors")))
    bad += bool(odd)
sys.exit(1 if bad else 0)' /tmp/stats.json

elec_teardown 1
check "rmmod election" rmmod election
elec_end
