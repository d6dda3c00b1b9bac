#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The module and the tools the way a keepalived or WireGuard user runs them.
#
# Install: the DKMS tree (make dkms-tree: dkms add, build, install under
# build/dkms) loads with "modprobe -d"; electionctl -V names its version;
# with /proc/sys/kernel/modprobe pointing at a wrapper that looks in that
# tree, the first electionctl request loads the module (its
# MODULE_ALIAS_GENL_FAMILY). Skipped, with a message, when the tree is not
# built or not for this kernel (the debug kernel): the rest runs on insmod.
#
# iproute2 conventions: exit 1 for an argument error (nothing sent), 2 for
# a request the kernel refuses; -n NETNS; abbreviations.
#
# Configuration that survives: showconf prints a batch that, after -undo
# -batch deleted the group, recreates it exactly (-batch; showconf equal);
# election@.service's ExecStop (-undo -batch) and ExecStart (-start -batch)
# lines, taken from the unit with the file under /tmp, delete and bring
# back a group that then rejoins and agrees.
#
# show per peer: heard N ms ago; a mistyped lladdr shows the address the
# peer's frames come from (seen_lladdr, lladdr_mismatch) while wrong_lladdr
# drops count them.
#
# monitor: a snapshot event per instance first, the dev/group filter, roles
# in events, -ts timestamps.
. tests/vm/lib.sh
elec_begin

KVER=$(uname -r)
DKMS=$ELEC_REPO/build/dkms/root
TMPD=$(mktemp -d)
# ctl_rc WANT DESC CMD...: CMD exits WANT
ctl_rc() {
	local want=$1 desc=$2 out rc
	shift 2
	out=$("$@" 2>&1)
	rc=$?
	[ -n "$out" ] && printf '%s\n' "$out" | sed 's/^/    /'
	if [ "$rc" = "$want" ]; then pass "$desc: exit $rc"; else fail "$desc: exit $rc, want $want"; fi
}

log "--- install: the DKMS tree"
elec_modprobe veth bridge
lsmod | grep -q '^election ' && rmmod election
if [ -f "$DKMS/lib/modules/$KVER/modules.dep" ]; then
	check "modprobe -d build/dkms/root election" modprobe -d "$DKMS" election
	ver=$(cat "$ELEC_REPO/VERSION")
	out=$("$ELEC_CTL" -V)
	echo "$out" | sed 's/^/    /'
	if [ "$(echo "$out" | sed -n 2p)" = "election.ko $ver" ]; then
		pass "electionctl -V: the loaded module is $ver"
	else
		fail "electionctl -V: want election.ko $ver on line 2"
	fi
	check "rmmod election" rmmod election
	log "--- the first request loads the module (MODULE_ALIAS_GENL_FAMILY)"
	# the kernel runs it from init's root: in the VM harness, the
	# initramfs, with this system (our root) under /host
	HR=
	[ "${ELECTION_VM:-0}" = 1 ] && HR=/host
	printf '#!/bin/sh\necho "$@" >>%s/modprobe.log\nexec %s /sbin/modprobe -d %s "$@"\n' \
		"$HR$TMPD" "${HR:+chroot $HR}" "$DKMS" >"$TMPD/modprobe"
	chmod +x "$TMPD/modprobe"
	oldmp=$(cat /proc/sys/kernel/modprobe)
	echo "$HR$TMPD/modprobe" >/proc/sys/kernel/modprobe
	check "electionctl show, the module not loaded: succeeds" "$ELEC_CTL" show
	echo "$oldmp" >/proc/sys/kernel/modprobe
	if lsmod | grep -q '^election ' &&
		grep -q 'net-pf-16-proto-16-family-election' "$TMPD/modprobe.log"; then
		pass "the kernel asked for net-pf-16-proto-16-family-election and loaded election"
	else
		fail "no autoload (modprobe asked: $(cat "$TMPD/modprobe.log" 2>/dev/null))"
	fi
else
	log "skip: no DKMS tree for $KVER in build/dkms (make dkms-tree; the debug kernel has none)"
	elec_load || elec_end
fi
lsmod | grep -q '^election ' || elec_load || elec_end

elec_topo 1 2 3 || elec_end
elec_group_setup 1 || elec_end
elec_start_all 1
elec_agree 1 3

log "--- exit status: 1 for arguments, 2 for the kernel"
ctl_rc 2 "group add of an existing group (kernel: exists)" \
	elec_ctl 1 group add dev eth0 group 1 id 1 algo bully
ctl_rc 2 "group del of an unknown group" elec_ctl 1 group del dev eth0 group 9
ctl_rc 2 "group set quorum on while running" elec_ctl 1 group set dev eth0 group 1 quorum on
ctl_rc 1 "unknown device (nothing sent)" elec_ctl 1 group del dev nosuch0 group 1
ctl_rc 1 "ambiguous keyword hb" elec_ctl 1 group set dev eth0 group 1 hb 1ms
ctl_rc 0 "abbreviations: gr sh d eth0 gr 1" elec_ctl 1 gr sh d eth0 gr 1
ctl_rc 0 "-n en1 show dev eth0 group 1" "$ELEC_CTL" -n en1 show dev eth0 group 1
got=$("$ELEC_CTL" -n en2 -j show dev eth0 group 1 | elec_json 'd[0]["id"]')
if [ "$got" = 2 ]; then pass "-n en2: node 2's instance"; else fail "-n en2: id $got"; fi

log "--- show per peer: heard, the address seen"
v=$(elec_ctl 1 -j peer show dev eth0 group 1 id 3 |
	elec_json '(d[0]["heard_ms_ago"] is not None and d[0]["heard_ms_ago"] < 5000, d[0]["seen_lladdr"], d[0]["lladdr_mismatch"])')
if [ "$v" = "(True, '$(elec_mac 3)', False)" ]; then
	pass "node 1 heard peer 3 lately, from its lladdr: $v"
else
	fail "peer 3 as node 1 sees it: $v"
fi
# the leader's (3's) heartbeats are what node 1 hears
check "peer 3 (the leader) mistyped on node 1 (lladdr 02:00:00:00:99:99)" sh -c \
	"ip netns exec en1 $ELEC_CTL peer del dev eth0 group 1 id 3 &&
	 ip netns exec en1 $ELEC_CTL peer add dev eth0 group 1 id 3 lladdr 02:00:00:00:99:99"
sleep "$(elec_sec 1)"
v=$(elec_ctl 1 -j peer show dev eth0 group 1 id 3 |
	elec_json '(d[0]["lladdr"], d[0]["seen_lladdr"], d[0]["lladdr_mismatch"])')
if [ "$v" = "('02:00:00:00:99:99', '$(elec_mac 3)', True)" ]; then
	pass "the mistyped peer: the address actually seen, flagged: $v"
else
	fail "the mistyped peer: $v"
fi
drops=$(elec_stat 1 1 'd["drops"]["wrong_lladdr"]')
if [ "${drops:-0}" -gt 0 ]; then pass "stats: wrong_lladdr drops $drops"; else fail "stats: wrong_lladdr $drops"; fi
if elec_ctl 1 peer show dev eth0 group 1 id 3 | grep -q "seen-lladdr $(elec_mac 3) (differs from lladdr)"; then
	pass "peer show text flags it"
else
	fail "peer show text: $(elec_ctl 1 peer show dev eth0 group 1 id 3)"
fi
check "peer 3 fixed" sh -c \
	"ip netns exec en1 $ELEC_CTL peer delete dev eth0 group 1 id 3 &&
	 ip netns exec en1 $ELEC_CTL peer add dev eth0 group 1 id 3 lladdr $(elec_mac 3)"
elec_agree 1 3

log "--- showconf | -batch recreates the configuration"
check "node 1: group set preempt-delay 5ms ask-suspect off" \
	elec_ctl 1 group set dev eth0 group 1 preempt-delay 5ms ask-suspect off
elec_ctl 1 showconf >"$TMPD/conf1"
sed 's/^/    /' "$TMPD/conf1"
if grep -q '^group add dev eth0 group 1 id 1 algo bully .*ask-suspect off preempt-delay 5ms' "$TMPD/conf1" &&
	[ "$(grep -c '^peer add dev eth0 group 1 id ' "$TMPD/conf1")" = 2 ] &&
	grep -q '^group start dev eth0 group 1$' "$TMPD/conf1"; then
	pass "showconf: group add with the options, two peers, group start"
else
	fail "showconf output"
fi
check "-undo -batch: the group is deleted" elec_ctl 1 -undo -batch "$TMPD/conf1"
n=$(elec_ctl 1 -j show | elec_json 'len(d)')
if [ "$n" = 0 ]; then pass "no instance on node 1"; else fail "$n instances left on node 1"; fi
ctl_rc 0 "-undo -batch again: nothing to delete is no error" elec_ctl 1 -undo -batch "$TMPD/conf1"
check "-batch: recreated" elec_ctl 1 -batch "$TMPD/conf1"
elec_ctl 1 showconf >"$TMPD/conf2"
if cmp -s "$TMPD/conf1" "$TMPD/conf2"; then
	pass "showconf after the batch is the same"
else
	fail "showconf differs after the batch"
	diff "$TMPD/conf1" "$TMPD/conf2" | sed 's/^/    /'
fi
elec_agree 1 3

log "--- election@.service's ExecStopPost and ExecStart lines"
mkdir -p "$TMPD/etc"
elec_ctl 2 showconf | grep -v '^group start' >"$TMPD/etc/eth0.batch"
unit_line() {
	sed -n "s|^$1=||p" "$ELEC_REPO/dist/election@.service.in" |
		sed "s|@SBINDIR@|$ELEC_REPO/userspace|; s|/etc/election/%i.batch|$TMPD/etc/eth0.batch|"
}
stop=$(unit_line ExecStopPost)
start=$(unit_line ExecStart)
log "ExecStopPost: $stop"
log "ExecStart: $start"
# shellcheck disable=SC2086
check "ExecStopPost on node 2" ip netns exec en2 $stop
n=$(elec_ctl 2 -j show | elec_json 'len(d)')
if [ "$n" = 0 ]; then pass "ExecStopPost deleted node 2's group"; else fail "node 2 still has $n"; fi
# shellcheck disable=SC2086
check "ExecStart on node 2 (the file has no group start line)" ip netns exec en2 $start
v=$(elec_ctl 2 -j show dev eth0 group 1 | elec_json '(d[0]["admin_up"], d[0]["role"] != "stopped")')
if [ "$v" = "(True, True)" ]; then pass "ExecStart started the group: $v"; else fail "after ExecStart: $v"; fi
elec_agree 1 3

log "--- monitor: snapshot first, filter, roles, -ts"
elec_ctl 1 -j monitor dev eth0 group 1 >"$TMPD/mon.json" 2>&1 &
mpid=$!
elec_ctl 1 -ts monitor group 1 >"$TMPD/mon.txt" 2>&1 &
tpid=$!
sleep "$(elec_sec 1)"
check "group add on node 1, group 2 (filtered out)" elec_ctl 1 group add dev eth0 group 2 id 1 algo ring
elec_ctl 1 group start dev eth0 group 2
elec_ctl 1 group elect dev eth0 group 1
sleep "$(elec_sec 2)"
kill "$mpid" "$tpid" 2>/dev/null
wait "$mpid" "$tpid" 2>/dev/null
sed 's/^/    /' "$TMPD/mon.json" | head -n 8
v=$(python3 - "$TMPD/mon.json" <<'EOF'
import json, sys
evs = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
first = evs[0] if evs else {}
print(first.get("event") == "snapshot" and first.get("role") in ("leader", "follower")
      and first.get("leader") == 3 and first.get("seq") is not None,
      all(e.get("group") == 1 for e in evs if "group" in e),
      any(e.get("event") not in ("snapshot", "gap") and e.get("role") for e in evs[1:]),
      sum(e.get("event") == "snapshot" for e in evs))
EOF
)
if [ "$v" = "True True True 1" ]; then
	pass "monitor -j dev eth0 group 1: one snapshot first (leader 3), group 1 only, roles in events"
else
	fail "monitor -j: $v"
fi
if head -n 1 "$TMPD/mon.txt" | grep -qE '^\[20[0-9]{2}-[0-9]{2}-[0-9]{2}T[0-9:]{8}\.[0-9]{6}\] \[[0-9.]+\] seq [0-9]+ snapshot dev eth0 group 1 '; then
	pass "monitor -ts: the wall-clock prefix; the snapshot first"
else
	fail "monitor -ts: $(head -n 1 "$TMPD/mon.txt")"
fi
elec_ctl 1 group del dev eth0 group 2

log "--- electionctl algo: the module's algorithms against electionctl's list"
out=$(elec_ctl 1 -j algo 2>"$TMPD/algo.err")
v=$(echo "$out" | elec_json '(len(d), [a["algo"] for a in d], all(a["matches"] for a in d), [a["options"] for a in d if a["algo"] == "ring"][0], [a["messages"] for a in d if a["algo"] == "bully"][0])')
if [ "$v" = "(7, ['bully', 'ring', 'ring-all', 'ring-list', 'min-bully', 'enh-bully', 'invitation'], True, ['hb-interval', 'hb-miss', 'timeout', 'coord-timeout', 'pos', 'suppress', 'detector', 'detector-margin', 'detector-max', 'timeout-auto', 'auth-window', 'standby', 'standby-tracked'], ['election', 'answer', 'coordinator', 'heartbeat', 'alive'])" ] &&
	[ ! -s "$TMPD/algo.err" ]; then
	pass "algo -j: 7 algorithms, each matching the list electionctl was built from, no warning"
else
	fail "algo -j: $v $(cat "$TMPD/algo.err")"
fi
check "algo invitation: one line with its options" \
	sh -c "$(printf '%q ' ip netns exec en1 "$ELEC_CTL") algo invitation | grep -qx 'invitation id 7 messages heartbeat,ayc,ayc_reply,invite,accept,ready options hb-interval,hb-miss,timeout,coord-timeout,pos,search-interval,detector,detector-margin,detector-max,timeout-auto,auth-window,standby,standby-tracked'"
check_fails "algo: an unknown algorithm is refused by electionctl" elec_ctl 1 algo nope
check_fails "ALGO_GET algo 200: refused by the kernel's policy" \
	elec_ctl 1 --unchecked algo 200

elec_teardown 1
rm -rf "$TMPD"
elec_end
