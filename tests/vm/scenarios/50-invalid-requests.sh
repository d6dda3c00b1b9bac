#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Invalid netlink requests are refused with a message and change nothing:
# missing attributes, an unknown device, a duplicate group, out-of-range
# durations and counts, bad ids, bad addresses, unknown groups, and
# mutating requests without CAP_NET_ADMIN. Both through electionctl (which
# may refuse before asking the kernel) and as raw generic netlink requests
# (tests/vm/elec.py nl) that reach the kernel's policies and handlers.
# `-j show`, `-j stats` and the module counters are compared before/after.
. tests/vm/lib.sh
elec_begin

elec_load || elec_end
elec_topo 1 2 || elec_end
elec_group_setup 1 1
IFX=$(ip -n en1 -o link show eth0 | cut -d: -f1)
log "node 1: eth0 is ifindex $IFX"

snapshot() {
	elec_ctl 1 -j show
	elec_ctl 1 -j stats
	"$ELEC_CTL" -j module
}
before=$(snapshot)
echo "$before" | sed 's/^/    before: /'

ctl1() { elec_ctl 1 "$@"; }
nl() { ip netns exec en1 python3 "$ELEC_PY" nl "$@"; }

# raw request refused: exit 1 and an extack message (for a missing
# attribute the kernel may name it with the missing-attribute TLV instead)
nl_refused() {
	local desc=$1 out
	shift
	out=$(nl "$@" 2>&1)
	local rc=$?
	echo "    $out"
	if [ $rc = 0 ]; then
		fail "raw: $desc: accepted"
	elif echo "$out" | grep -qE 'msg=[^ ]'; then
		pass "raw: $desc: refused with a message"
	elif [ "${ALLOW_MISS:-0}" = 1 ] && echo "$out" | grep -qE 'miss=[A-Z]'; then
		pass "raw: $desc: refused, missing attribute named"
	else
		fail "raw: $desc: refused without an extack message ($out)"
	fi
}

log "--- electionctl"
check_fails "missing id" ctl1 group add dev eth0 group 2 algo bully
check_fails "missing algo" ctl1 group add dev eth0 group 2 id 1
check_fails "unknown device" ctl1 group add dev nosuch0 group 2 id 1 algo bully
check_fails "duplicate group" ctl1 group add dev eth0 group 1 id 1 algo bully
check_fails "duration below 100us" ctl1 group add dev eth0 group 2 id 1 algo bully hb-interval 99us
check_fails "duration above 60s" ctl1 group add dev eth0 group 2 id 1 algo bully timeout 61s
check_fails "duration without unit" ctl1 group set dev eth0 group 1 timeout 100
check_fails "hb-miss 0" ctl1 group set dev eth0 group 1 hb-miss 0
check_fails "group 0" ctl1 group add dev eth0 group 0 id 1 algo bully
check_fails "id 0" ctl1 group add dev eth0 group 2 id 0 algo bully
check_fails "unknown algo" ctl1 group add dev eth0 group 2 id 1 algo paxos
check_fails "start of an unknown group" ctl1 group start dev eth0 group 9
check_fails "peer in an unknown group" ctl1 peer add dev eth0 group 9 id 2 lladdr 02:00:00:00:00:02
check_fails "bad lladdr" ctl1 peer add dev eth0 group 1 id 7 lladdr 02:00:00:00:00
check_fails "multicast lladdr" ctl1 peer add dev eth0 group 1 id 7 lladdr 01:00:5e:00:00:01
check_fails "peer with our own id" ctl1 peer add dev eth0 group 1 id 1 lladdr 02:00:00:00:00:07
check_fails "duplicate peer" ctl1 peer add dev eth0 group 1 id 2 lladdr "$(elec_mac 2)"
check_fails "delete of an unknown peer" ctl1 peer del dev eth0 group 1 id 77

log "--- raw generic netlink"
ALLOW_MISS=1 nl_refused "GROUP_NEW without NODE_ID" group_new ifindex="$IFX" group=2 algo=1
ALLOW_MISS=1 nl_refused "GROUP_NEW without IFINDEX" group_new group=2 node_id=1 algo=1
ALLOW_MISS=1 nl_refused "GROUP_NEW without ALGO" group_new ifindex="$IFX" group=2 node_id=1
ALLOW_MISS=1 nl_refused "PEER_ADD without PEER_LLADDR" peer_add ifindex="$IFX" group=1 peer_id=9
nl_refused "GROUP_NEW on an unknown ifindex" group_new ifindex=99999 group=2 node_id=1 algo=1
nl_refused "GROUP_NEW duplicate group" group_new ifindex="$IFX" group=1 node_id=1 algo=1
nl_refused "GROUP_NEW hb_interval 99999 ns" group_new ifindex="$IFX" group=2 node_id=1 algo=1 hb_interval_ns=99999
nl_refused "GROUP_NEW timeout 60 s + 1 ns" group_new ifindex="$IFX" group=2 node_id=1 algo=1 timeout_ns=60000000001
nl_refused "GROUP_NEW coord_timeout 0" group_new ifindex="$IFX" group=2 node_id=1 algo=1 coord_timeout_ns=0
nl_refused "GROUP_NEW hb_miss 1001" group_new ifindex="$IFX" group=2 node_id=1 algo=1 hb_miss=1001
nl_refused "GROUP_NEW algo 0" group_new ifindex="$IFX" group=2 node_id=1 algo=0
nl_refused "GROUP_NEW algo 200" group_new ifindex="$IFX" group=2 node_id=1 algo=200
nl_refused "GROUP_NEW group 0" group_new ifindex="$IFX" group=0 node_id=1 algo=1
nl_refused "GROUP_NEW node_id 0" group_new ifindex="$IFX" group=2 node_id=0 algo=1
nl_refused "GROUP_SET hb_miss 0" group_set ifindex="$IFX" group=1 hb_miss=0
nl_refused "GROUP_SET hb_interval 61 s" group_set ifindex="$IFX" group=1 hb_interval_ns=61000000000
nl_refused "GROUP_START unknown group" group_start ifindex="$IFX" group=9
nl_refused "GROUP_DEL unknown group" group_del ifindex="$IFX" group=9
nl_refused "PEER_ADD 5-byte lladdr" peer_add ifindex="$IFX" group=1 peer_id=9 peer_lladdr=02:00:00:00:09
nl_refused "PEER_ADD own id" peer_add ifindex="$IFX" group=1 peer_id=1 peer_lladdr=02:00:00:00:00:09
nl_refused "PEER_ADD peer_id 0" peer_add ifindex="$IFX" group=1 peer_id=0 peer_lladdr=02:00:00:00:00:09
nl_refused "PEER_DEL unknown peer" peer_del ifindex="$IFX" group=1 peer_id=77

log "--- without CAP_NET_ADMIN"
NOCAP=(setpriv --inh-caps=-net_admin --bounding-set=-net_admin)
check "setpriv really drops CAP_NET_ADMIN" \
	sh -c "${NOCAP[*]} ip netns exec en1 ip link add dummyx type dummy 2>&1; [ \$? != 0 ]"
check_fails "no CAP_NET_ADMIN: group add" "${NOCAP[@]}" ip netns exec en1 "$ELEC_CTL" group add dev eth0 group 2 id 1 algo bully
check_fails "no CAP_NET_ADMIN: group del" "${NOCAP[@]}" ip netns exec en1 "$ELEC_CTL" group del dev eth0 group 1
check_fails "no CAP_NET_ADMIN: group start" "${NOCAP[@]}" ip netns exec en1 "$ELEC_CTL" group start dev eth0 group 1
check_fails "no CAP_NET_ADMIN: peer del" "${NOCAP[@]}" ip netns exec en1 "$ELEC_CTL" peer del dev eth0 group 1 id 2
out=$("${NOCAP[@]}" ip netns exec en1 python3 "$ELEC_PY" nl group_del ifindex="$IFX" group=1 2>&1)
echo "    $out"
check "raw: no CAP_NET_ADMIN: GROUP_DEL refused with EPERM and a message" sh -c "echo '$out' | grep -q 'error=1 msg=CAP_NET_ADMIN is required'"
log "reading without CAP_NET_ADMIN (not required by the contract):"
"${NOCAP[@]}" ip netns exec en1 "$ELEC_CTL" show 2>&1 | sed 's/^/    /'

after=$(snapshot)
if [ "$before" = "$after" ]; then
	pass "show, stats and module counters unchanged by every refused request"
else
	fail "state changed by refused requests"
	diff <(echo "$before") <(echo "$after") | sed 's/^/    /'
fi

# the comparison is able to see a change: a valid request changes state
check "a valid group set is accepted" ctl1 group set dev eth0 group 1 hb-interval 200ms
check "and shows up" test "$(elec_ctl 1 -j show dev eth0 group 1 | elec_json 'd[0]["hb_interval_ns"]')" = 200000000

ELEC_NODES=(1)
elec_teardown 1
check "rmmod election" rmmod election
elec_end
