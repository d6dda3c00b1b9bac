#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# election-monitor@.service, its Exec lines as systemd would run them
# (issue 34): the hooks supervised, across a reload of the module.
#
# Three nodes, bully. On each, the unit's ExecStartPre and ExecStart lines
# from dist/election-monitor@.service.in, with @SBINDIR@, @HOOKDIR@ and %i
# (eth0) filled in, the unit's Environment= and an EnvironmentFile of our
# own (MONITOR="dev eth0 group 1", VIP_ADDR, VIP_LOG) read as systemd
# reads them; a loop that starts ExecStart again when it exits stands for
# Restart=always. The address (the shipped vip-hook) ends on node 3, the
# leader. rmmod: every node lets the address go. insmod and the group
# again: the address is on node 3 again, and no monitor was restarted (the
# monitor follows the reload itself). Node 3 crashes: the address moves to
# node 2. Stopped as systemd stops both units (this one is ordered
# before election@%i, so it stops after it): the groups deleted, then at
# once SIGTERM to the monitor alone (KillMode=mixed; the monitor frozen
# from before the deletion until after the signal): it reads the stopped
# events already sent, runs the hook, and node 2 lets the address go.
. tests/vm/lib.sh
elec_begin

VIP=10.9.0.101
TMPD=$(mktemp -d)
UNIT=$ELEC_REPO/dist/election-monitor@.service.in
declare -A SUP=()

# unit_line KEY: the unit's KEY= line, its values filled in as installed
# here (electionctl and vip-hook from the tree), the instance eth0
unit_line() {
	sed -n "s|^$1=||p" "$UNIT" |
		sed "s|@SBINDIR@|$(dirname "$ELEC_CTL")|g; s|@HOOKDIR@|$ELEC_REPO/dist|g; s|%i|eth0|g"
}

cat >"$TMPD/eth0.monitor" <<EOF
# an EnvironmentFile: assignments, one a line
MONITOR="dev eth0 group 1"
VIP_ADDR=$VIP/24
EOF

# sup_start ID: ExecStartPre, then ExecStart again each time it exits
# (Restart=always), in node ID's namespace; restarts counted in a file
sup_start() {
	local id=$1 env pre start
	env=$(unit_line Environment)
	pre=$(unit_line ExecStartPre)
	start=$(unit_line ExecStart)
	# shellcheck disable=SC2016
	ip netns exec "en$id" env VIP_LOG="$TMPD/hook-$id.log" bash -c '
		set -a
		export '"$env"'
		. "$1"
		set +a
		pre=$2 start=$3 restarts=$4
		${pre#-} >/dev/null 2>&1	# "-": its failure ignored
		n=0
		while :; do
			eval "set -- $start"
			"$@"
			n=$((n + 1))
			echo "$n" >"$restarts"
			sleep 2
		done' _ "$TMPD/eth0.monitor" "$pre" "$start" "$TMPD/restarts-$id" \
		>"$TMPD/mon-$id.txt" 2>&1 &
	SUP[$id]=$!
}

# sup_stop ID: the loop, then its monitor
sup_stop() {
	local kids
	kids=$(pgrep -P "${SUP[$1]}")
	kill "${SUP[$1]}" 2>/dev/null
	# shellcheck disable=SC2086
	[ -n "$kids" ] && kill $kids 2>/dev/null
	wait "${SUP[$1]}" 2>/dev/null
}

check "the unit's ExecStart runs electionctl monitor ... exec \${HOOK}" \
	sh -c "unit_start=\$1; case \$unit_start in *'/electionctl monitor \$MONITOR exec \${HOOK}') ;; *) exit 1;; esac" _ "$(unit_line ExecStart)"

elec_load || elec_end
elec_topo 1 2 3 || elec_end
elec_group_setup 1 || elec_end
for id in 1 2 3; do
	sup_start "$id"
done
sleep "$(elec_sec 0.5)"
elec_start_all 1
elec_agree 1 3
elec_vip_on "$VIP" 3

log "--- rmmod: every node lets the address go"
check "rmmod election" rmmod election
elec_vip_on "$VIP" ""
log "--- insmod, the group again: the address on the leader again"
check "insmod election.ko" insmod "$ELEC_KO"
sleep "$(elec_sec 0.5)"
elec_group_setup 1 || elec_end
elec_start_all 1
elec_agree 1 3
elec_vip_on "$VIP" 3
for id in 1 2 3; do
	check "node $id: the monitor followed the reload itself (no restart)" \
		test ! -e "$TMPD/restarts-$id"
	check "node $id: family_gone and family_back printed" \
		sh -c "grep -q '^family_gone' '$TMPD/mon-$id.txt' && grep -q '^family_back' '$TMPD/mon-$id.txt'"
done

log "--- node 3 crashes: the address moves to node 2"
sup_stop 3
elec_node_crash 3
elec_agree 1 2
elec_vip_on "$VIP" 2

log "--- stopped as systemd stops the units: the groups deleted (election@'s ExecStopPost), then at once SIGTERM to the monitor alone (KillMode=mixed)"
mons=()
for id in 1 2; do
	mons+=("$(pgrep -P "${SUP[$id]}")")
	kill -KILL "${SUP[$id]}"	# the loop: no restart after this
	wait "${SUP[$id]}" 2>/dev/null
done
# frozen from before the deletion until after SIGTERM: the events are
# certainly still unread when the signal comes
kill -STOP "${mons[@]}"
check "group del on node 1" elec_ctl 1 group del dev eth0 group 1
check "group del on node 2" elec_ctl 2 group del dev eth0 group 1
kill -TERM "${mons[@]}"
kill -CONT "${mons[@]}"
gone() { local p; for p in "${mons[@]}"; do [ -e "/proc/$p" ] && return 1; done; return 0; }
t=0
while ! gone && [ "$t" -lt 100 ]; do
	sleep 0.1
	t=$((t + 1))
done
check "the monitors ended after SIGTERM (${mons[*]})" gone
elec_vip_on "$VIP" ""
check "node 2's hook ran last as stopped (the group deleted)" \
	sh -c "tail -n 1 '$TMPD/hook-2.log' | grep -q ' stopped stopped\$'"

log "--- the hooks' runs"
for id in 1 2 3; do
	sed "s/^/    node $id: /" "$TMPD/hook-$id.log" 2>/dev/null
done
if grep -q "exited with status\|cannot run" "$TMPD"/mon-*.txt; then
	fail "a hook failed: $(grep -h "exited with status\|cannot run" "$TMPD"/mon-*.txt | head -n 3)"
else
	pass "no hook failed"
fi
elec_leak_check
rm -rf "$TMPD"
elec_end
