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
# the monitor's exit status is 0.
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

# wait_for SECONDS CMD...: CMD succeeds within SECONDS
wait_for() {
	local limit t=0
	limit=$(awk -v b="$1" 'BEGIN { print int(b * 10) }')
	shift
	while [ "$t" -lt "$limit" ]; do
		"$@" && return 0
		sleep 0.1
		t=$((t + 1))
	done
	"$@"
}

# last_is LINE: the hook log's last line is LINE
last_is() { [ "$(tail -n 1 "$TMPD/hook.log" 2>/dev/null)" = "$1" ]; }
# led: the hook's last run, as leader, ended
led() { tail -n 1 "$TMPD/hook.log" 2>/dev/null | grep -q '^end [a-z_]* leader$'; }

elec_load || elec_end
elec_topo 1 2 || elec_end
elec_group_setup 1 || elec_end
ip netns exec en2 env HOOK_LOG="$TMPD/hook.log" \
	"$ELEC_CTL" monitor dev eth0 group 1 exec "$HOOK" \
	>"$TMPD/mon.txt" 2>&1 &
MON=$!
elec_start_all 1
elec_agree 1 2
check "node 2's hook ran as leader (and ended)" \
	wait_for "$ELEC_BOUND" led

log "--- group del on node 2, then at once SIGTERM to its monitor"
elec_ctl 2 group del dev eth0 group 1
kill -TERM "$MON"
wait "$MON"
rc=$?
sed "s/^/    monitor: /" "$TMPD/mon.txt"
sed "s/^/    hook: /" "$TMPD/hook.log"
check "the monitor exits 0 ($rc)" test "$rc" = 0
check "it printed the stopped event" grep -q ' stopped dev eth0 group 1 .* role stopped' "$TMPD/mon.txt"
check "the hook ran as stopped, from leader" \
	grep -q '^start stopped stopped leader$' "$TMPD/hook.log"
check "the monitor waited for the hook's run to end" last_is "end stopped stopped"

elec_ctl 1 group del dev eth0 group 1
elec_leak_check
rm -rf "$TMPD"
elec_end
