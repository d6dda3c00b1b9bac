#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# keepalived-style hooks: a floating address follows the leader.
#
# Three nodes, bully; on each, "electionctl monitor dev eth0 group 1 exec
# vip-hook" runs the example hook of the admin guide (dist/vip-hook): it
# adds 10.9.0.100/24 to the device when ELECTION_ROLE is leader and
# removes it otherwise. The address ends on node 3 (the leader), only
# there; when node 3 crashes it moves to node 2 within the detection bound;
# when node 3 comes back (preempt on) it moves back and leaves node 2.
# Every hook run is logged: per node, the runs come in event order
# (ELECTION_SEQ ascending), one per role change, the last one the node's
# role now.
. tests/vm/lib.sh
elec_begin

VIP=10.9.0.100
TMPD=$(mktemp -d)
HOOK=$ELEC_REPO/dist/vip-hook
declare -A MON=() SESS=()

# mon_start ID: the monitor with the hook, in node ID's namespace; each
# monitor of a node (node 3 gets a second one) logs to a file of its own
mon_start() {
	SESS[$1]=$((${SESS[$1]:-0} + 1))
	ip netns exec "en$1" env VIP_ADDR="$VIP/24" VIP_LOG="$TMPD/hook-$1-${SESS[$1]}.log" \
		"$ELEC_CTL" monitor dev eth0 group 1 exec "$HOOK" \
		>"$TMPD/mon-$1.txt" 2>&1 &
	MON[$1]=$!
}

elec_load || elec_end
elec_topo 1 2 3 || elec_end
elec_group_setup 1 || elec_end
for id in 1 2 3; do
	mon_start "$id"
done
sleep "$(elec_sec 0.5)"
elec_start_all 1
elec_agree 1 3
elec_vip_on "$VIP" 3

log "--- node 3 crashes: the address moves to node 2"
kill "${MON[3]}" 2>/dev/null
wait "${MON[3]}" 2>/dev/null
elec_node_crash 3
elec_agree 1 2
elec_vip_on "$VIP" 2

log "--- node 3 returns: it takes over, the address follows"
elec_node_add 3
ELEC_NODES=(1 2 3)
elec_group_setup 1 3
mon_start 3
sleep "$(elec_sec 0.5)"
check "group start on node 3" elec_ctl 3 group start dev eth0 group 1
elec_agree 1 3
elec_vip_on "$VIP" 3

log "--- the hooks' runs"
for id in 1 2 3; do
	kill "${MON[$id]}" 2>/dev/null
	wait "${MON[$id]}" 2>/dev/null
	cat "$TMPD"/hook-"$id"-*.log | sed "s/^/    node $id: /"
done
# hook_runs FILE ROLE: "ORDER CHANGES LAST" (each yes or no) of the runs
# logged in FILE ("SEQ EVENT ROLE" lines): there are runs and their SEQ
# strictly ascend, no two runs in a row report the same role, the last
# run's role is ROLE
hook_runs() {
	local seq _ r n=0 prev_seq='' prev_role='' order=yes changes=yes last=no
	while read -r seq _ r _; do
		[ -n "$seq" ] || continue
		n=$((n + 1))
		[ -z "$prev_seq" ] || [ "$seq" -gt "$prev_seq" ] || order=no
		[ "$n" = 1 ] || [ "$r" != "$prev_role" ] || changes=no
		prev_seq=$seq prev_role=$r
	done <"$1"
	[ "$n" -gt 0 ] || order=no
	[ "$n" -gt 0 ] && [ "$prev_role" = "$2" ] && last=yes
	echo "$order $changes $last"
}
for id in 1 2 3; do
	role=$(elec_ctl "$id" show dev eth0 group 1 role)
	# the node's current monitor: its last log
	v=$(hook_runs "$TMPD/hook-$id-${SESS[$id]}.log" "$role")
	if [ "$v" = "yes yes yes" ]; then
		pass "node $id: the hook ran in event order, once per role change, last as $role"
	else
		fail "node $id: hook runs (in order, one per change, last = $role): $v"
	fi
done
if grep -q "exited with status\|cannot run" "$TMPD"/mon-*.txt; then
	fail "a hook failed: $(grep -h "exited with status\|cannot run" "$TMPD"/mon-*.txt | head -n 3)"
else
	pass "no hook failed"
fi

elec_teardown 1
rm -rf "$TMPD"
elec_end
