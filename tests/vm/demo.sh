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
# latency is computed from the kernel's CLOCK_MONOTONIC timestamps, from
# the cut itself: the switch port goes down in tests/vm/linkcut.py, which
# reads CLOCK_MONOTONIC just before its ioctl; a planned stop is stamped by
# the leader's kernel (its "stopped" event, taken before it resigns).
# The verdict is liveness only (every phase settles within ELEC_BOUND s,
# and no latency before its cut): no latency threshold, which a loaded
# 2-core host would fail.
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
CUT_TS=
CUT_SPAN=

now_ns() { python3 -c 'import time; print(time.monotonic_ns())'; }

# port ID down|up: node ID's switch port down or up (tests/vm/linkcut.py,
# one ioctl); CUT_TS is CLOCK_MONOTONIC just before it, CUT_SPAN the ns
# the ioctl took.
port() {
	local res
	res=$(ip netns exec esw python3 tests/vm/linkcut.py "p$1" "$2") || return 1
	[[ $res =~ \"before_ns\":\ ([0-9]+),\ \"after_ns\":\ ([0-9]+) ]] || return 1
	CUT_TS=${BASH_REMATCH[1]}
	CUT_SPAN=$((BASH_REMATCH[2] - BASH_REMATCH[1]))
}

# mark NAME TEXT [EXPECT NODE...]: a timeline line, and what should follow;
# at MARK_TS (ns, CLOCK_MONOTONIC) if set, else now. MARK_CUT=SPAN: the
# mark is the cut itself, stamped within SPAN ns before it took effect.
mark() {
	local name=$1 text=$2 ts
	shift 2
	ts=${MARK_TS:-$(now_ns)}
	if [ $# -gt 0 ]; then
		local expect=$1 nodes cut=
		shift
		nodes=$(IFS=,; echo "$*")
		[ -n "${MARK_CUT:-}" ] && cut=", \"cut_span_ns\": $MARK_CUT"
		printf '{"ts_ns": %s, "mark": "%s", "text": "%s", "node": %s, "expect": %s, "nodes": [%s]%s}\n' \
			"$ts" "$name" "$text" "${MARK_NODE:-0}" "$expect" "$nodes" "$cut" >>"$OUT/marks.jsonl"
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
elec_agree 1 2001 "$ELEC_BOUND"
sleep 0.5

check "switch port of 2001 down" port 2001 down
MARK_TS=$CUT_TS MARK_CUT=$CUT_SPAN MARK_NODE=2001 \
	mark crash "crash: 2001's switch port goes down" 100 3 17 42 100
elec_agree 1 100 "$ELEC_BOUND" 0 3 17 42 100

check "switch port of 2001 up" port 2001 up
MARK_TS=$CUT_TS mark return "return: 2001's switch port comes back up" 2001 "${IDS[@]}"
elec_agree 1 2001 "$ELEC_BOUND"
sleep 0.5

MARK_NODE=2001 mark handover "handover: group stop on leader 2001" 100 3 17 42 100
check "group stop on 2001" elec_ctl 2001 group stop dev eth0 group 1
elec_agree 1 100 "$ELEC_BOUND" 0 3 17 42 100

mark return "return: group start on 2001" 2001 "${IDS[@]}"
check "group start on 2001" elec_ctl 2001 group start dev eth0 group 1
elec_agree 1 2001 "$ELEC_BOUND"
sleep 0.5
stop_monitors

echo
echo "=============================== timeline ==============================="
check "timeline: every phase settled, no latency before its cut" python3 tests/vm/timeline.py "$OUT"
echo
echo "message counts per node (frames sent):"
for id in "${IDS[@]}"; do
	printf '  node %-5s %s\n' "$id" "$(elec_stat "$id" 1 'd["tx"]')"
done

elec_teardown 1
check "rmmod election" rmmod election
elec_end
