#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# A monitor stopped by SIGTERM right after the group was deleted (what
# systemd does: election@.service's ExecStopPost deletes the groups, then
# election-monitor@.service is stopped): the kernel queued the "stopped"
# event on the monitor's socket before "group del" returned, and the
# monitor reads it, runs its hook as stopped to the end and exits 0.
#
# Two nodes, bully: node 2 leads. On node 2, "electionctl monitor dev eth0
# group 1 exec HOOK", the hook logging its runs (slowly: the monitor must
# wait for it). "group del" on node 2, then at once kill -TERM the
# monitor: the hook's last run is stopped (from leader), its run ended,
# the monitor's exit status is 0. Group 2 the same, its monitor stopped
# (SIGSTOP) before "group del" and continued after SIGTERM: the event
# surely waits on its socket when the signal comes.
. tests/vm/lib.sh
elec_begin

TMPD=$(mktemp -d)
HOOK=$TMPD/hook.sh

cat >"$HOOK" <<'EOF'
#!/bin/sh
echo "start $ELECTION_EVENT $ELECTION_ROLE $ELECTION_PREV_ROLE" >>"$HOOK_LOG"
sleep 0.3
echo "end $ELECTION_EVENT $ELECTION_ROLE" >>"$HOOK_LOG"
EOF
chmod +x "$HOOK"

# last_is G LINE: group G's hook log's last line is LINE
last_is() { [ "$(tail -n 1 "$TMPD/hook-$1.log" 2>/dev/null)" = "$2" ]; }
# led G: group G's hook's last run, as leader, ended
led() { tail -n 1 "$TMPD/hook-$1.log" 2>/dev/null | grep -q '^end [a-z_]* leader$'; }

# stopped_checks G RC: the monitor of group G exited RC after it ran its
# hook as stopped
stopped_checks() {
	local g=$1 rc=$2
	sed "s/^/    monitor $g: /" "$TMPD/mon-$g.txt"
	sed "s/^/    hook $g: /" "$TMPD/hook-$g.log"
	check "the monitor exits 0 ($rc)" test "$rc" = 0
	check "it printed the stopped event" \
		grep -q " stopped dev eth0 group $g .* role stopped" "$TMPD/mon-$g.txt"
	check "the hook ran as stopped, from leader" \
		grep -q '^start stopped stopped leader$' "$TMPD/hook-$g.log"
	check "the monitor waited for the hook's run to end" \
		last_is "$g" "end stopped stopped"
}

elec_load || elec_end
elec_topo 1 2 || elec_end
declare -A MON=()
for g in 1 2; do
	elec_group_setup "$g" || elec_end
	ip netns exec en2 env HOOK_LOG="$TMPD/hook-$g.log" \
		"$ELEC_CTL" monitor dev eth0 group "$g" exec "$HOOK" \
		>"$TMPD/mon-$g.txt" 2>&1 &
	MON[$g]=$!
done
for g in 1 2; do
	elec_start_all "$g"
	elec_agree "$g" 2
	check "node 2's hook of group $g ran as leader (and ended)" \
		elec_wait_for "$ELEC_BOUND" led "$g"
done

log "--- group 1: group del on node 2, then at once SIGTERM to its monitor"
elec_ctl 2 group del dev eth0 group 1
kill -TERM "${MON[1]}"
wait "${MON[1]}"
stopped_checks 1 $?

log "--- group 2: the same, its monitor stopped (SIGSTOP) until after SIGTERM"
kill -STOP "${MON[2]}"
elec_ctl 2 group del dev eth0 group 2
kill -TERM "${MON[2]}"
kill -CONT "${MON[2]}"
wait "${MON[2]}"
stopped_checks 2 $?

elec_ctl 1 group del dev eth0 group 1
elec_ctl 1 group del dev eth0 group 2
elec_leak_check
rm -rf "$TMPD"
elec_end
