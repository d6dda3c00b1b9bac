#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The module's own frames, reordered, are not replays (issue 33, defect
# 2). A keyed 3-node Bully group with quorum on (every node sends an ALIVE
# each hb-interval, 2 ms, besides the leader's heartbeats) on veth pairs
# with four transmit queues each, XPS putting them on different CPUs,
# while netlink callers pinned to each CPU (one electionctl -batch of
# ELEC_REORDER_ELECTS "group elect" lines per node and CPU, default 400)
# make every node send from process context too (the leader's
# COORDINATOR, the others' ELECTIONs and ANSWERs), so that one node's
# frames leave from several CPUs and queues and may arrive out of order
# (a veth delivers on the sending CPU: a stalled vCPU holds its backlog
# while the other delivers what came later; about 25,000 frames taken).
#  - with the rule of issue 33 (each of the last 960 frame numbers of a
#    peer taken once, in any order): 0 frames dropped as auth_replay, and
#    the group keeps its leader;
#  - ELEC_REORDER_OLD=1 (run against the module before it, ELEC_KO=...):
#    the counts are reported, not judged (that module dropped every frame
#    a later one of its sender had overtaken: 97 in one run).
. tests/vm/lib.sh
elec_begin

IDS=(3 17 42)
NCPU=$(nproc)
elec_load || elec_end
elec_switch || elec_end
for id in "${IDS[@]}"; do
	ns=en$id
	ip netns add "$ns" || fail "netns $ns"
	ip link add eth0 netns "$ns" address "$(elec_mac "$id")" \
		numtxqueues 4 numrxqueues 4 type veth \
		peer name "p$id" netns esw numtxqueues 4 numrxqueues 4 ||
		fail "veth with 4 queues for $id"
	ip -n esw link set "p$id" master br0 up
	ip -n "$ns" link set lo up
	ip -n "$ns" link set eth0 up
	ELEC_NODES+=("$id")
	# XPS: queue q on CPU q mod NCPU
	for q in 0 1 2 3; do
		ip netns exec "$ns" sh -c "printf '%x' $((1 << (q % NCPU))) \
			>/sys/class/net/eth0/queues/tx-$q/xps_cpus" ||
			fail "xps_cpus of $ns tx-$q"
	done
done
check "node 3's eth0 has 4 transmit queues" \
	test "$(ip netns exec en3 sh -c 'ls -d /sys/class/net/eth0/queues/tx-*' | wc -l)" = 4
check "XPS maps tx-1 to CPU $((1 % NCPU))" \
	test "$(ip netns exec en3 cat /sys/class/net/eth0/queues/tx-1/xps_cpus | tr -d 0,)" = "$(printf '%x' $((1 << (1 % NCPU))))"

KEYS=$(mktemp -d)
chmod 700 "$KEYS"
echo 3c5e0a91d7b24f68a1c3e50f92d7b6a4 >"$KEYS/k"
chmod 600 "$KEYS/k"
# busy: heartbeats and every node's ALIVE each 2 ms, from the timers
ELEC_TIMING="hb-interval $(elec_dur 2ms) hb-miss 5 timeout $(elec_dur 2ms) coord-timeout $(elec_dur 8ms)" \
	ELEC_GROUP_OPTS="quorum on key-file $KEYS/k" ELEC_ALGO=bully elec_group_setup 1
elec_start_all 1
elec_agree 1 42 "$ELEC_BOUND" 1

sum_of() {
	local id total=0 v
	for id in "${IDS[@]}"; do
		v=$(elec_stat "$id" 1 "$1")
		total=$((total + ${v:-0}))
	done
	echo "$total"
}
replay0=$(sum_of 'd["drops"]["auth_replay"]')
rx0=$(sum_of 'sum(d["rx"].values())')

# the load: on every CPU, for every node, a netlink caller (one
# electionctl -batch of group elect lines) that makes the node send from
# process context on that CPU (its ELECTIONs, ANSWERs, COORDINATOR) while
# its timers send on whichever CPU they fire
ELECTS=${ELEC_REORDER_ELECTS:-400}
for ((i = 0; i < ELECTS; i++)); do
	echo "group elect dev eth0 group 1"
done >"$KEYS/elect.batch"
pids=()
for ((cpu = 0; cpu < NCPU; cpu++)); do
	for id in "${IDS[@]}"; do
		taskset -c "$cpu" "$ELEC_CTL" -n "en$id" -batch "$KEYS/elect.batch" \
			>/dev/null 2>&1 &
		pids+=($!)
	done
done
wait "${pids[@]}"
elec_agree 1 42 "$ELEC_BOUND" 1

replay1=$(sum_of 'd["drops"]["auth_replay"]')
rx1=$(sum_of 'sum(d["rx"].values())')
bad=$(sum_of 'd["drops"]["auth_bad"] + d["drops"]["auth_missing"]')
log "frames taken during the load: $((rx1 - rx0)); dropped as auth_replay: $((replay1 - replay0))"
check "frames flowed during the load ($((rx1 - rx0)))" test $((rx1 - rx0)) -gt 200
check "no auth_bad or auth_missing ($bad)" test "$bad" = 0
if [ "${ELEC_REORDER_OLD:-0}" = 1 ]; then
	pass "old module: $((replay1 - replay0)) legitimate frames dropped as auth_replay (reported, not judged)"
else
	check "0 legitimate frames dropped as auth_replay ($((replay1 - replay0)))" \
		test $((replay1 - replay0)) = 0
fi
elec_teardown 1
check "rmmod election" rmmod election
elec_end
