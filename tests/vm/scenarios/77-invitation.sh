#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Garcia-Molina's Invitation algorithm, 8 nodes (ids 1..8). The switch has
# two bridges, br0 with ports p1..p4 and br1 with p5..p8, joined by a veth
# pair (bl0 on br0, bl1 on br1): taking the pair down splits the group into
# halves that stay connected inside, bringing it up heals it, each at once.
# Split, each side becomes one group under its highest id,
# with distinct group numbers and exactly its side as members. The heal
# merges them into one group under 8; the frames of that merge (invite,
# accept, ready) equal electsim's textbook merge of the heal scenario.
# Then a coordinator crash inside a partition: 8 crashes while the halves
# are apart; 5..7 regroup under 7; the heal merges all seven under 7; 8
# comes back and merges everyone under itself again.
. tests/vm/lib.sh
elec_begin

ELEC_ALGO=invitation
LOW=(1 2 3 4)
HIGH=(5 6 7 8)
side() { local id out=(); for id in "$@"; do out+=("en$id:$id"); done; (IFS=,; echo "${out[*]}"); }
# elec_groups BOUND SIDE...: every SIDE (ids, comma-separated) one group
elec_groups() {
	local bound=$1 s args=()
	shift
	for s in "$@"; do
		# shellcheck disable=SC2086
		args+=("$(side ${s//,/ })")
	done
	elec_py groups --group 1 --timeout "$bound" "${args[@]}"
}
# the sum over the nodes of tx counters of invitation's merge messages
merge_tx() {
	local id sum=0 n
	for id in "$@"; do
		n=$(elec_stat "$id" 1 'd["tx"]["invite"] * 10000 + d["tx"]["accept"] * 100 + d["tx"]["ready"]')
		sum=$((sum + n))
	done
	echo "$sum"
}

elec_load || elec_end
elec_topo "${LOW[@]}" "${HIGH[@]}" || elec_end
check "a second bridge br1 in the switch" ip -n esw link add br1 type bridge
check "br1 up" ip -n esw link set br1 up
check "the link between the bridges" ip -n esw link add bl0 type veth peer name bl1
check "bl0 on br0" ip -n esw link set bl0 master br0 up
check "bl1 on br1" ip -n esw link set bl1 master br1 up
for id in "${HIGH[@]}"; do
	check "p$id on br1" ip -n esw link set "p$id" master br1
done
split() { ip -n esw link set bl0 down; }
heal() { ip -n esw link set bl0 up; }
elec_group_setup 1

# the kernel's refusals (electionctl refuses these itself: --unchecked)
refused_with() {
	local desc=$1 msg=$2 out rc
	shift 2
	out=$("$@" 2>&1)
	rc=$?
	if [ $rc != 0 ] && grep -qF -- "$msg" <<<"$out"; then
		pass "$desc: refused with \"$msg\""
	else
		fail "$desc: rc=$rc, want a refusal naming \"$msg\": $out"
	fi
}
refused_with "kernel: GROUP_NEW invitation preempt off" "preempt applies to the Bully algorithms only" \
	elec_ctl 1 --unchecked group add dev eth0 group 2 id 1 algo invitation preempt off
refused_with "kernel: GROUP_NEW bully search-interval (any value)" \
	"search-interval applies to the invitation algorithm only" \
	elec_ctl 1 --unchecked group add dev eth0 group 2 id 1 algo bully search-interval 0
check_fails "group 2 was not created" elec_ctl 1 show dev eth0 group 2
refused_with "kernel: GROUP_SET ask-suspect on an invitation group" "ask-suspect applies to the Bully algorithms only" \
	elec_ctl 1 --unchecked group set dev eth0 group 1 ask-suspect on
check "group add invitation search-interval 250ms" \
	elec_ctl 1 group add dev eth0 group 3 id 1 algo invitation search-interval 250ms
check "show: search_interval_ns 250 ms, inv_seq 0, no coordinator, no members" test \
	"$(elec_ctl 1 -j show dev eth0 group 3 | elec_json '(d[0]["search_interval_ns"], d[0]["inv_seq"], d[0]["inv_coordinator"], d[0]["members"])')" \
	= "(250000000, 0, None, [])"
check "group set search-interval 0 (the default: hb-interval x hb-miss)" \
	elec_ctl 1 group set dev eth0 group 3 search-interval 0
check "show: search_interval_ns 60 ms (the default hb-interval 20 ms x hb-miss 3)" test \
	"$(elec_ctl 1 -j show dev eth0 group 3 | elec_json 'd[0]["search_interval_ns"]')" = 60000000
check "group del 3" elec_ctl 1 group del dev eth0 group 3

elec_start_all 1
out=$(elec_groups "$ELEC_BOUND" 1,2,3,4,5,6,7,8) &&
	pass "one group under 8 after the start: $out" ||
	fail "one group under 8 after the start: $out"
g0=$(echo "$out" | elec_json 'd["groups"][0][0]' 2>/dev/null || echo 0)

log "partition: the link between the bridges goes down"
check "split" split
out=$(elec_groups "$ELEC_BOUND" 1,2,3,4 5,6,7,8) &&
	pass "each side one group (distinct numbers, its side as members): $out" ||
	fail "each side one group: $out"
glow=$(echo "$out" | elec_json 'd["groups"][0][0]' 2>/dev/null || echo 0)
check "the low side's group number ($glow) is new (above $g0)" test "$glow" -gt "$g0"
check "it holds" elec_py groups --group 1 --timeout 1 --stable "$(elec_sec 2s)" \
	"$(side "${LOW[@]}")" "$(side "${HIGH[@]}")"

log "heal: the link comes back"
before=$(merge_tx "${LOW[@]}" "${HIGH[@]}")
check "heal" heal
out=$(elec_groups "$ELEC_BOUND" 1,2,3,4,5,6,7,8) &&
	pass "healed: one group under 8: $out" ||
	fail "healed: one group under 8: $out"
log "merge seen complete after $(echo "$out" | elec_json 'd["took"]' 2>/dev/null)s of polling (protocol.rst: 2 hb-interval + 3 T = $(elec_dur 500ms) and frame times)"
# the merge's frames, once every node is quiet again
quiet_nodes=()
for id in "${LOW[@]}" "${HIGH[@]}"; do quiet_nodes+=("en$id:$id"); done
check "quiet after the merge" elec_py quiet --group 1 --stable "$(elec_sec 1s)" \
	--types invite,accept,ready "${quiet_nodes[@]}"
after=$(merge_tx "${LOW[@]}" "${HIGH[@]}")
for id in "${LOW[@]}" "${HIGH[@]}"; do
	log "node $id: $(elec_stat "$id" 1 '[(k, d["tx"][k], d["rx"][k]) for k in ("ayc", "invite", "accept", "ready")] + [d["elections"], d["drops"]]')"
done
got=$((after - before))
want=$(userspace/sim/electsim --algo invitation --nodes 8 --scenario heal --json |
	elec_json 'd["by_type"]["invite"] * 10000 + d["by_type"]["accept"] * 100 + d["by_type"]["ready"]')
check "the merge's invite/accept/ready frames ($got) equal electsim's heal scenario ($want)" \
	test "$got" = "$want"

log "a coordinator crash inside a partition"
check "split" split
out=$(elec_groups "$ELEC_BOUND" 1,2,3,4 5,6,7,8) && pass "split again: $out" || fail "split again: $out"
check "node 8 crashes" elec_node_crash 8
out=$(elec_groups "$ELEC_BOUND" 1,2,3,4 5,6,7) &&
	pass "5..7 regroup under 7 (8's members drop it): $out" ||
	fail "5..7 regroup under 7: $out"
check "heal" heal
out=$(elec_groups "$ELEC_BOUND" 1,2,3,4,5,6,7) &&
	pass "healed: 1..7 one group under 7: $out" ||
	fail "healed: 1..7 one group under 7: $out"
log "node 8 comes back"
check "node 8 recreated" elec_node_add 8
check "p8 on br1" ip -n esw link set p8 master br1
elec_group_setup 1 8
check "group start on 8" elec_ctl 8 group start dev eth0 group 1
out=$(elec_groups "$ELEC_BOUND" 1,2,3,4,5,6,7,8) &&
	pass "8 merged everyone under itself: $out" ||
	fail "8 merged everyone under itself: $out"
view_nodes=()
for id in "${ELEC_NODES[@]}"; do view_nodes+=("en$id:$id"); done
elec_py views --group 1 "${view_nodes[@]}"

elec_teardown 1
check "rmmod election" rmmod election
elec_end
