#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Hooks across the module's reload (a DKMS upgrade: rmmod, insmod), and
# the state every hook run sees (issue 34).
#
# Three nodes, bully. On each, "electionctl monitor dev eth0 group 1 exec
# HOOK"; the hook logs its ELECTION_* variables. Node 3 also runs "-j
# monitor exit-on-reload". The group starts: node 3 leads. Every run with
# role leader names its own id as the leader (one protocol step makes node
# 3 leader: its events all carry the state after the step, not the leader
# none of the election_started that began it), and the last run's term is
# show's. rmmod: the exit-on-reload monitor prints family_gone and exits 2,
# the others print family_gone and run the hook as family_gone, role
# stopped, leader none; monitor started while the module is away fails
# with a clear error. insmod, the group added and started again: the
# monitors print family_back, the new module's events, and node 3's hook
# runs as leader again (previous role stopped), term as show says. Node 3
# crashes: node 2's hook runs as leader with leader 2 (not the failed 3).
# A monitor with the smallest receive buffer, stopped during a reload,
# loses nlctrl's notifications and still finds the new family.
. tests/vm/lib.sh
elec_begin

TMPD=$(mktemp -d)
HOOK=$TMPD/hook.sh
declare -A MON=()

cat >"$HOOK" <<'EOF'
#!/bin/sh
echo "$ELECTION_EVENT $ELECTION_ROLE $ELECTION_LEADER $ELECTION_ID $ELECTION_TERM $ELECTION_PREV_ROLE $ELECTION_SEQ" >>"$HOOK_LOG"
EOF
chmod +x "$HOOK"

# alive PID: running (not a zombie)
alive() { [ -e "/proc/$1/stat" ] && [ "$(cut -d' ' -f3 "/proc/$1/stat")" != Z ]; }
# last_run ID: node ID's last hook run
last_run() { tail -n 1 "$TMPD/hook-$1.log" 2>/dev/null; }
# role_is ID ROLE: node ID's last hook run has role ROLE
role_is() { [ "$(last_run "$1" | awk '{ print $2 }')" = "$2" ]; }
# after_back ID PATTERN: a line of node ID's monitor after family_back
after_back() { sed -n '/^family_back/,$p' "$TMPD/mon-$1.txt" | grep -q "$2"; }
# back_runs ID ROLE LEADER: node ID's hook ran after family_gone, the
# first time from stopped, the last time as ROLE with LEADER
back_runs() {
	awk -v role="$2" -v leader="$3" '
		/^family_gone / { n = 0; gone = 1; next }
		gone { n++; if (n == 1) first = $6; last_role = $2; last_leader = $3 }
		END { exit !(n > 0 && first == "stopped" && last_role == role && last_leader == leader) }
	' "$TMPD/hook-$1.log"
}
# show_term ID
show_term() { elec_ctl "$1" show dev eth0 group 1 term; }
# term_as_shown ID: node ID's last hook run has the term show says (both
# read again on each try of elec_wait_for)
term_as_shown() { [ "$(last_run "$1" | awk '{ print $5 }')" = "$(show_term "$1")" ]; }

elec_load || elec_end
elec_topo 1 2 3 || elec_end
elec_group_setup 1 || elec_end
for id in 1 2 3; do
	ip netns exec "en$id" env HOOK_LOG="$TMPD/hook-$id.log" \
		"$ELEC_CTL" monitor dev eth0 group 1 exec "$HOOK" \
		>"$TMPD/mon-$id.txt" 2>&1 &
	MON[$id]=$!
done
(
	ip netns exec en3 "$ELEC_CTL" -j monitor exit-on-reload >"$TMPD/exit.json" 2>&1
	echo $? >"$TMPD/exit.rc"
) &
sleep "$(elec_sec 0.5)"
elec_start_all 1
elec_agree 1 3
check "node 3's hook ran as leader" elec_wait_for "$ELEC_BOUND" role_is 3 leader
check "node 3's last hook run: term as show says ($(show_term 3))" \
	elec_wait_for "$(elec_sec 2)" term_as_shown 3
before=$(grep -c "^\[" "$TMPD/mon-3.txt")
log "node 3's monitor printed $before lines before the reload"

log "--- rmmod"
check "rmmod election" rmmod election
check "the exit-on-reload monitor exits" elec_wait_for "$(elec_sec 5)" test -s "$TMPD/exit.rc"
rc=$(cat "$TMPD/exit.rc" 2>/dev/null)
check "its exit status 2 ($rc), family_gone its last line" \
	test "$rc" = 2 -a "$(tail -n 1 "$TMPD/exit.json")" = '{"event": "family_gone", "family": "election"}'
for id in 1 2 3; do
	check "node $id's monitor prints family_gone" \
		elec_wait_for "$(elec_sec 5)" grep -q '^family_gone' "$TMPD/mon-$id.txt"
	check "node $id's monitor keeps running" alive "${MON[$id]}"
done
check "node 3's hook ran as family_gone: role stopped, leader none, before leader" \
	elec_wait_for "$(elec_sec 5)" sh -c "tail -n 1 '$TMPD/hook-3.log' | grep -q '^family_gone stopped none 3 [0-9]* leader '"
check "node 1's hook ran as family_gone, before follower" \
	elec_wait_for "$(elec_sec 5)" sh -c "tail -n 1 '$TMPD/hook-1.log' | grep -q '^family_gone stopped none 1 [0-9]* follower '"
out=$(ip netns exec en3 "$ELEC_CTL" monitor 2>&1)
rc=$?
check "monitor without the module: exit 2 and a clear error ($rc: $out)" \
	sh -c "[ $rc = 2 ] && echo \"\$1\" | grep -q 'is election.ko loaded'" _ "$out"

log "--- insmod, the group again"
check "insmod election.ko" insmod "$ELEC_KO"
for id in 1 2 3; do
	check "node $id's monitor prints family_back" \
		elec_wait_for "$(elec_sec 5)" grep -q '^family_back' "$TMPD/mon-$id.txt"
done
elec_group_setup 1 || elec_end
elec_start_all 1
elec_agree 1 3
check "node 3's monitor prints the new module's events (leader_changed to 3)" \
	elec_wait_for "$ELEC_BOUND" after_back 3 " leader_changed .* leader 3 "
check "node 3's hook ran after the reload, first from stopped, last as leader" \
	elec_wait_for "$ELEC_BOUND" back_runs 3 leader 3
check "node 3's last hook run: term as show says ($(show_term 3))" \
	elec_wait_for "$(elec_sec 2)" term_as_shown 3
check "node 1's hook ran after the reload, first from stopped, last as follower of 3" \
	elec_wait_for "$ELEC_BOUND" back_runs 1 follower 3
after=$(sed -n '/^family_back/,$p' "$TMPD/mon-3.txt" | grep -c "^\[")
log "node 3's monitor printed $after event lines after the reload"
check "no gap line across the reload" sh -c "! grep -q '^gap' '$TMPD/mon-3.txt'"

log "--- node 3 crashes: node 2 takes over in the step that declares 3 failed"
kill "${MON[3]}" 2>/dev/null
wait "${MON[3]}" 2>/dev/null
elec_node_crash 3
elec_agree 1 2
check "node 2's hook ran as leader, naming itself the leader" \
	elec_wait_for "$ELEC_BOUND" sh -c "tail -n 1 '$TMPD/hook-2.log' | grep -q '^[a-z_]* leader 2 2 '"
check "node 2's last hook run: term as show says ($(show_term 2))" \
	elec_wait_for "$(elec_sec 2)" term_as_shown 2

log "--- a reload while a monitor cannot read: its socket overflows"
# the smallest receive buffer: of nlctrl's notifications of the reload
# only the first fits; the monitor learns of the rest from a family dump
ip netns exec en1 env ELECTIONCTL_RCVBUF=1 "$ELEC_CTL" monitor \
	>"$TMPD/mon-small.txt" 2>&1 &
SMALL=$!
sleep "$(elec_sec 0.5)"
kill -STOP "$SMALL"
check "rmmod election" rmmod election
check "insmod election.ko" insmod "$ELEC_KO"
kill -CONT "$SMALL"
check "the stopped monitor notices the reload: family_gone, then family_back" \
	elec_wait_for "$(elec_sec 5)" sh -c "sed -n '/^family_gone/,\$p' '$TMPD/mon-small.txt' | grep -q '^family_back'"
# shellcheck disable=SC2016
check "its socket did overflow: a gap line (ENOBUFS) before family_back" \
	sh -c 'sed -n "/^family_back/q; p" "$1" | grep -q "^gap: "' _ "$TMPD/mon-small.txt"
elec_group_setup 1 || elec_end
elec_start_all 1
elec_agree 1 2
check "it prints the new module's events" \
	elec_wait_for "$ELEC_BOUND" after_back small " leader_changed .* leader 2 "
kill "$SMALL" 2>/dev/null
wait "$SMALL" 2>/dev/null
sed "s/^/    small: /" "$TMPD/mon-small.txt"

log "--- the hooks' runs"
for id in 1 2 3; do
	kill "${MON[$id]}" 2>/dev/null
	wait "${MON[$id]}" 2>/dev/null
	sed "s/^/    node $id: /" "$TMPD/hook-$id.log"
done
# shellcheck disable=SC2016
check "every hook run as leader names its own id as the leader" \
	awk '$2 == "leader" && $3 != $4 { bad = 1; print "stale: " FILENAME ": " $0 } END { exit bad }' \
	"$TMPD"/hook-*.log
if grep -q "exited with status\|cannot run" "$TMPD"/mon-*.txt; then
	fail "a hook failed: $(grep -h "exited with status\|cannot run" "$TMPD"/mon-*.txt | head -n 3)"
else
	pass "no hook failed"
fi

elec_teardown 1
rm -rf "$TMPD"
elec_end
