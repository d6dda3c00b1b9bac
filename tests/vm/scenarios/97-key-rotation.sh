#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Key rotation without a gap (issue 33): a keyed 3-node Bully group with
# quorum on (every node sends an ALIVE each hb-interval, so frames flow
# both ways all the time: a follower whose frames the leader dropped
# would cost it its majority) goes through the admin guide's three steps,
# one node at a time, each node's change a few detection windows after
# the previous one, so that every mix of adjacent steps runs for a while:
#   1. group set ... key-next-file NEW   (show: auth-next on)
#   2. group set ... key-file NEW        (a promotion: OLD is the second key)
#   3. group set ... key-next none       (show: auth-next off)
#  - no election: leader and term unchanged on every node, no node's
#    elections or leader_changes counter moves; auth_missing, auth_bad,
#    auth_replay and auth_clock unchanged on every node, through all of it
#    (auth_replay too: the promotion keeps the replay state);
#  - showconf during the rotation: the auth-next comment, no key-next-file;
#    neither key in any output;
#  - afterwards OLD is no longer accepted: node 3 back on OLD is auth_bad at
#    the others (and leads nothing: no majority), back on NEW it rejoins;
#  - refusals change nothing (raw netlink): a second key without a key, equal
#    to the key, with KEY_NEXT_NONE or KEY_NONE, all zeroes;
#  - peer reset: accepted, nothing moves (no election, no auth drop); an
#    unknown id is refused; on a group without a key, a warning.
. tests/vm/lib.sh
elec_begin

IDS=(3 17 42)
elec_load || elec_end
elec_topo "${IDS[@]}" || elec_end
KEYS=$(mktemp -d)
chmod 700 "$KEYS"
OLDHEX=7a0c11d9e3b45f6a8821c0de5b9f4e17
NEWHEX=e4b1093fd27c6a5811f0ab3c9d8e2607
echo "$OLDHEX" >"$KEYS/old"
echo "$NEWHEX" >"$KEYS/new"
chmod 600 "$KEYS"/*
IFX=$(ip netns exec en3 cat /sys/class/net/eth0/ifindex)

ELEC_GROUP_OPTS="quorum on key-file $KEYS/old" ELEC_ALGO=bully elec_group_setup 1
elec_start_all 1
elec_agree 1 42 "$ELEC_BOUND" 1

# the watched numbers of node ID: leader term elections leader_changes
# auth_missing auth_bad auth_replay auth_clock
watch_of() {
	local s t
	s=$(elec_ctl "$1" -j show dev eth0 group 1 | elec_json '"%s %s" % (d[0]["leader"], d[0]["term"])')
	t=$(elec_stat "$1" 1 '" ".join(str(x) for x in [d["elections"], d["leader_changes"]] + [d["drops"][k] for k in ("auth_missing", "auth_bad", "auth_replay", "auth_clock")])')
	echo "$s $t"
}
auth_next_of() {
	elec_ctl "$1" -j show dev eth0 group 1 | elec_json 'd[0].get("auth_next")'
}
declare -A BEFORE
for id in "${IDS[@]}"; do
	BEFORE[$id]=$(watch_of "$id")
	log "node $id before: ${BEFORE[$id]} (leader term elections leader_changes missing bad replay clock)"
done
unchanged() {
	local id now rc=0
	for id in "${IDS[@]}"; do
		now=$(watch_of "$id")
		if [ "$now" != "${BEFORE[$id]}" ]; then
			echo "node $id: ${BEFORE[$id]} -> $now"
			rc=1
		fi
	done
	return $rc
}
# a step on every node, one after the other, 3 detection windows apart
GAP=$(elec_sec 1.5)
step() {
	local desc=$1 id
	shift
	for id in "${IDS[@]}"; do
		check "node $id: $desc" elec_ctl "$id" group set dev eth0 group 1 "$@"
		sleep "$GAP"
		check "after node $id's $desc: no election, no auth drop anywhere" unchanged
	done
}

# ---- the rotation --------------------------------------------------------
step "key-next-file NEW (step 1)" key-next-file "$KEYS/new"
for id in "${IDS[@]}"; do
	check "node $id: auth-next on after step 1" test "$(auth_next_of "$id")" = True
done
ip netns exec en3 "$ELEC_CTL" showconf >"$KEYS/conf"
check "showconf during the rotation: the auth-next comment, no key-next-file" sh -c "
	grep -q '^# auth-next on: a key rotation was under way' '$KEYS/conf' &&
	! grep -q 'key-next' '$KEYS/conf'"
step "key-file NEW (step 2: a promotion)" key-file "$KEYS/new"
for id in "${IDS[@]}"; do
	check "node $id: auth-next on after step 2 (OLD is the second key)" test "$(auth_next_of "$id")" = True
done
check "node 17: key-file NEW again: nothing changes" elec_ctl 17 group set dev eth0 group 1 key-file "$KEYS/new"
sleep "$GAP"
check "... no election, no auth drop" unchanged
step "key-next none (step 3)" key-next none
for id in "${IDS[@]}"; do
	check "node $id: auth-next off after step 3" test "$(auth_next_of "$id")" = False
	check "node $id: auth still on" sh -c "test \"\$(ip netns exec en$id $ELEC_CTL -j show dev eth0 group 1 | python3 -c 'import json,sys; print(json.load(sys.stdin)[0][\"auth\"])')\" = True"
done
elec_agree 1 42 "$ELEC_BOUND" 1
check "the rotation as a whole: leader, term, elections and auth drops as before, on every node" unchanged

# ---- the keys appear nowhere ----------------------------------------------
{
	for id in "${IDS[@]}"; do
		elec_ctl "$id" show
		elec_ctl "$id" -j show
		elec_ctl "$id" -j stats
		elec_ctl "$id" showconf
	done
	cat "$KEYS/conf"
	dmesg
} >"$KEYS/everything.txt" 2>&1
for k in $OLDHEX $NEWHEX; do
	check_fails "key $k: in no output or log" \
		sh -c "grep -i -e '$k' '$KEYS/everything.txt' || { echo 'not found'; exit 1; }"
done

# ---- refusals change nothing ------------------------------------------------
nl3() { ip netns exec en3 python3 "$ELEC_PY" nl "$@"; }
miss3=$(elec_ctl 3 -j show dev eth0 group 1 | elec_json 'd[0]["hb_miss"]')
check_refused "KEY_NEXT equal to the key is refused" "the second key is the group's key" \
	nl3 group_set ifindex="$IFX" group=1 key_next="$NEWHEX"
check_refused "KEY_NEXT with KEY_NEXT_NONE is refused" "key-next-none together" \
	nl3 group_set ifindex="$IFX" group=1 key_next="$OLDHEX" key_next_none=1
check_refused "KEY_NEXT with KEY_NONE is refused" "key-none removes both keys" \
	nl3 group_set ifindex="$IFX" group=1 key_next="$OLDHEX" key_none=1
check_refused "an all-zero KEY_NEXT is refused" "all-zero key is refused" \
	nl3 group_set ifindex="$IFX" group=1 key_next=00000000000000000000000000000000
check_refused "a refused KEY_NEXT takes the timing with it" "the second key is the group's key" \
	nl3 group_set ifindex="$IFX" group=1 hb_miss=$((miss3 + 1)) key_next="$NEWHEX"
check "node 3: still no second key, hb-miss unchanged ($miss3)" sh -c "
	test \"\$(ip netns exec en3 $ELEC_CTL -j show dev eth0 group 1 | python3 -c 'import json,sys; d=json.load(sys.stdin)[0]; print(d[\"auth_next\"], d[\"hb_miss\"])')\" = 'False $miss3'"
# group 2 on node 3 alone, without a key
check "node 3: group 2 without a key" \
	elec_ctl 3 group add dev eth0 group 2 id 3 algo bully $ELEC_TIMING
check "node 3: group 2 peer 17" elec_ctl 3 peer add dev eth0 group 2 id 17 lladdr "$(elec_mac 17)"
check_refused "KEY_NEXT on a group without a key is refused" "a second key needs a key" \
	nl3 group_set ifindex="$IFX" group=2 key_next="$NEWHEX"
check_refused "electionctl key-next-file on a group without a key: the kernel's message" "a second key needs a key" \
	elec_ctl 3 group set dev eth0 group 2 key-next-file "$KEYS/new"
check_refused "group add with KEY_NEXT and no KEY is refused (--unchecked)" "a second key needs a key" \
	elec_ctl 3 --unchecked group add dev eth0 group 3 id 3 algo bully key-next-file "$KEYS/new"
check_fails "... and created nothing" elec_ctl 3 group show dev eth0 group 3
check "node 3: group 2 has no key" sh -c "
	test \"\$(ip netns exec en3 $ELEC_CTL -j show dev eth0 group 2 | python3 -c 'import json,sys; d=json.load(sys.stdin)[0]; print(d[\"auth\"], d[\"auth_next\"])')\" = 'False False'"

# ---- peer reset -------------------------------------------------------------
check "node 42: peer reset 17" elec_ctl 42 peer reset dev eth0 group 1 id 17
check "node 17: peer reset 42 and 3" sh -c "
	ip netns exec en17 $ELEC_CTL peer reset dev eth0 group 1 id 42 &&
	ip netns exec en17 $ELEC_CTL peer reset dev eth0 group 1 id 3"
sleep "$GAP"
check "after peer reset: no election, no auth drop (the peers' frames within auth-window taken, once each)" unchanged
check_refused "peer reset of an unknown id is refused" "unknown peer id" \
	elec_ctl 42 peer reset dev eth0 group 1 id 99
check_refused "peer reset of the local id is refused" "unknown peer id" \
	elec_ctl 42 peer reset dev eth0 group 1 id 42
out=$(elec_ctl 3 peer reset dev eth0 group 2 id 17 2>&1)
rc=$?
printf '%s\n' "$out" | sed 's/^/    /'
check "peer reset on a group without a key: done (exit $rc), with a warning" \
	sh -c "test $rc = 0 && printf '%s' '$out' | grep -q 'Warning: the group has no key'"
NOCAP=(setpriv --inh-caps=-net_admin --bounding-set=-net_admin)
check_refused "peer reset without CAP_NET_ADMIN is refused" CAP_NET_ADMIN \
	ip netns exec en42 "${NOCAP[@]}" "$ELEC_CTL" peer reset dev eth0 group 1 id 17
check "node 3: group 2 deleted" elec_ctl 3 group del dev eth0 group 2

# ---- OLD is no longer accepted ----------------------------------------------
bad_of() { elec_stat "$1" 1 'd["drops"]["auth_bad"]'; }
bad42=$(bad_of 42)
check "node 3 goes back to OLD" elec_ctl 3 group set dev eth0 group 1 key-file "$KEYS/old"
deadline=$((SECONDS + ELEC_BOUND))
while [ "$(bad_of 42)" -le "$bad42" ] && [ $SECONDS -lt $deadline ]; do
	sleep 0.2
done
check "node 42 counts node 3's frames under OLD as auth_bad ($bad42 -> $(bad_of 42))" \
	test "$(bad_of 42)" -gt "$bad42"
elec_agree 1 42 "$ELEC_BOUND" 1 17 42
check "node 3 leads nothing (it hears nobody: no majority)" sh -c "
	test \"\$(ip netns exec en3 $ELEC_CTL -j show dev eth0 group 1 | python3 -c 'import json,sys; print(json.load(sys.stdin)[0][\"role\"])')\" != leader"
check "node 3 back on NEW" elec_ctl 3 group set dev eth0 group 1 key-file "$KEYS/new"
elec_agree 1 42 "$ELEC_BOUND" 1

elec_teardown 1
check "rmmod election" rmmod election
rm -rf "$KEYS"
elec_end
