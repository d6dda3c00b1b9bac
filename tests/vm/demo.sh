#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# `make demo`: five nodes with non-contiguous ids in network namespaces on
# one bridge elect the highest id; the leader crashes (its switch port goes
# down: its eth0 loses carrier and its instance falls silent, sending
# nothing); the survivors fail over after the detection window; the port
# comes back and the old leader takes over again. Then a planned handover:
# `group stop` on the leader, which resigns (a heartbeat flagged leaving),
# so the survivors elect at once; `group start` and it takes over again. Every node's event stream
# (`electionctl -j monitor`) is merged into one timeline, and the failover
# latency is computed from the kernel's CLOCK_MONOTONIC timestamps.
#
# DEMO_TIMING overrides the group options (default: the module's defaults,
# hb-interval 20ms hb-miss 3 timeout 10ms coord-timeout 40ms).
. tests/vm/lib.sh
elec_begin

ELEC_TIMING=${DEMO_TIMING:-}
IDS=(3 17 42 100 2001)
OUT=${RESULTS_DIR:-/tmp}/demo
mkdir -p "$OUT"
rm -f "$OUT"/mon-*.jsonl "$OUT/marks.jsonl"
MON_PIDS=()

now_ns() { python3 -c 'import time; print(time.monotonic_ns())'; }

# mark NAME TEXT [EXPECT NODE...]: a timeline line, and what should follow.
mark() {
	local name=$1 text=$2 ts
	shift 2
	ts=$(now_ns)
	if [ $# -gt 0 ]; then
		local expect=$1 nodes
		shift
		nodes=$(IFS=,; echo "$*")
		printf '{"ts_ns": %s, "mark": "%s", "text": "%s", "node": %s, "expect": %s, "nodes": [%s]}\n' \
			"$ts" "$name" "$text" "${MARK_NODE:-0}" "$expect" "$nodes" >>"$OUT/marks.jsonl"
	else
		printf '{"ts_ns": %s, "mark": "%s", "text": "%s"}\n' "$ts" "$name" "$text" >>"$OUT/marks.jsonl"
	fi
}

monitor() {
	ip netns exec "en$1" "$ELEC_CTL" -j monitor >>"$OUT/mon-$1.jsonl" 2>&1 &
	MON_PIDS+=($!)
}

stop_monitors() {
	local p
	for p in "${MON_PIDS[@]}"; do
		kill "$p" 2>/dev/null
		wait "$p" 2>/dev/null
	done
	MON_PIDS=()
}

elec_load || elec_end
elec_topo "${IDS[@]}" || elec_end
elec_group_setup 1
for id in "${IDS[@]}"; do
	monitor "$id"
done
sleep 0.5

mark start "start: group start on all 5 nodes" 2001 "${IDS[@]}"
elec_start_all 1
elec_agree 1 2001 "$ELEC_BOUND" 1

MARK_NODE=2001 mark crash "crash: 2001's switch port goes down" 100 3 17 42 100
check "switch port of 2001 down" ip -n esw link set p2001 down
elec_agree 1 100 "$ELEC_BOUND" 0 3 17 42 100

mark return "return: 2001's switch port comes back up" 2001 "${IDS[@]}"
check "switch port of 2001 up" ip -n esw link set p2001 up
elec_agree 1 2001 "$ELEC_BOUND" 1
sleep 0.5

MARK_NODE=2001 mark handover "handover: group stop on leader 2001" 100 3 17 42 100
check "group stop on 2001" elec_ctl 2001 group stop dev eth0 group 1
elec_agree 1 100 "$ELEC_BOUND" 0 3 17 42 100

mark return "return: group start on 2001" 2001 "${IDS[@]}"
check "group start on 2001" elec_ctl 2001 group start dev eth0 group 1
elec_agree 1 2001 "$ELEC_BOUND" 1
sleep 0.5
stop_monitors

echo
echo "=============================== timeline ==============================="
check "timeline shows every phase settled" python3 tests/vm/timeline.py "$OUT"
echo
echo "message counts per node (frames sent):"
for id in "${IDS[@]}"; do
	printf '  node %-5s %s\n' "$id" "$(elec_stat "$id" 1 'd["tx"]')"
done

elec_teardown 1
check "rmmod election" rmmod election
elec_end
