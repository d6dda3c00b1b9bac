#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Frame authentication (issue 13): group keys set with electionctl
# key-file (a raw file and a hex file), on a Bully group and a ring group
# of the same device, with different keys.
#  - keyed groups elect as before; show reports auth on; no auth drops;
#  - the key appears nowhere: show, JSON, showconf (a placeholder and its
#    comment), stats, events, the kernel log, the trace buffer;
#  - a node whose group is deleted and added again (its counters start
#    from its clock) is heard at once: no auth_replay;
#  - another key on one node: auth_bad both ways, the node is cut off
#    from the group's elections; back to the right key: it leads again;
#  - key none on one node: auth_missing on the others, auth_unexpected
#    on it; key none everywhere: elections go on unauthenticated;
#  - without CAP_NET_ADMIN, key changes are refused with the kernel's
#    message and change nothing; a wrong-sized key from the raw netlink
#    path is refused too, and so is an all-zero key (raw netlink, and
#    electionctl --unchecked, which skips its own refusal);
#  - injected frames (tests/inject/elec-inject, from a host on the
#    segment that is no node): captured frames replayed with the senders'
#    own MACs, older than auth-window, are auth_clock drops, COORDINATOR
#    claims from a higher id with a newer term and no key or a wrong MAC
#    are auth_missing / auth_bad (or, from an id or address that is no
#    peer's, refused before the MAC), flipped bits are dropped, a frame
#    MACed with the Bully group's key is auth_bad in the ring group (keys
#    stay apart) while the ring group's key passes its MAC check: no role
#    changes, and the counters equal the numbers injected;
#  - the recording played to nodes whose groups start afresh after the
#    leader went (issue 33): refused (auth_clock), the dead leader never
#    followed, the next best elected.
. tests/vm/lib.sh
. tests/inject/inject-lib.sh
elec_begin

inj_need || elec_end
# the injectors' timing: a guest stalled by 10^4 frames keeps its leader
ELEC_TIMING=$INJ_TIMING
IDS=(3 17 42)
elec_load || elec_end
elec_topo "${IDS[@]}" 66 || elec_end
ELEC_NODES=("${IDS[@]}")	# 66 only injects
# 66 sends with the nodes' own MACs (a true replay): the switch must not
# learn them on 66's port, or it would send the nodes' unicasts there
check "the switch learns no address on 66's port" \
	ip netns exec esw bridge link set dev p66 learning off
KEYS=$(mktemp -d)
chmod 700 "$KEYS"
# K1: 16 raw bytes; K2: 32 hex digits and a newline
printf '\x5e\x11\x04\x9a\xc3\x27\x7b\x80\x01\xfe\x42\x99\x10\x6d\x3a\xe5' >"$KEYS/k1"
K1HEX=5e11049ac3277b8001fe4299106d3ae5
K2HEX=c0ffee00112233445566778899aabbcc
echo "$K2HEX" >"$KEYS/k2"
K3HEX=0f0e0d0c0b0a09080706050403020100
echo "$K3HEX" >"$KEYS/k3"
chmod 600 "$KEYS"/k*

# group 1: bully, its key at creation; group 2: ring, its key set after
ELEC_GROUP_OPTS="key-file $KEYS/k1" ELEC_ALGO=bully elec_group_setup 1
ELEC_GROUP_OPTS="" ELEC_ALGO=ring elec_group_setup 2
for id in "${IDS[@]}"; do
	check "node $id: group set key-file (hex) on the ring group" \
		elec_ctl "$id" group set dev eth0 group 2 key-file "$KEYS/k2"
done
for g in 1 2; do
	check "every node reports auth on for group $g" sh -c "
		for id in ${IDS[*]}; do
			ip netns exec en\$id $ELEC_CTL -j show dev eth0 group $g |
			python3 -c 'import json,sys; d=json.load(sys.stdin)[0]; assert d[\"auth\"] is True, d' || exit 1
		done"
done

ip netns exec en3 "$ELEC_CTL" -ts monitor >"$KEYS/monitor.log" 2>&1 &
MON=$!
elec_start_all 1
elec_start_all 2
elec_agree 1 42 "$ELEC_BOUND" 1
elec_agree 2 42 "$ELEC_BOUND" 1

# auth_* drops of node ID, group G, as "missing bad truncated replay unexpected"
auth_drops() {
	elec_stat "$1" "$2" '" ".join(str(d["drops"][k]) for k in ("auth_missing", "auth_bad", "auth_truncated", "auth_replay", "auth_unexpected"))'
}
# the followers hear the leader; nobody drops anything for its key
for id in "${IDS[@]}"; do
	for g in 1 2; do
		check "node $id group $g: no auth drops, frames heard (the leader: any)" sh -c "
			test \"\$(ip netns exec en$id $ELEC_CTL -j stats dev eth0 group $g |
				python3 -c 'import json,sys; d=json.load(sys.stdin)[0]; dr=d[\"drops\"]; print(sum(dr[k] for k in dr if k.startswith(\"auth_\")), $id == 42 or sum(d[\"rx\"].values()) > 0)')\" = '0 True'"
	done
done


# ---- the key appears nowhere ---------------------------------------------
TR=/sys/kernel/tracing
[ -d $TR/events ] || TR=/sys/kernel/debug/tracing
echo 1 >$TR/events/election/enable
sleep "$(elec_sec 0.5)"
echo 0 >$TR/events/election/enable
kill "$MON" 2>/dev/null
wait "$MON" 2>/dev/null
{
	for id in "${IDS[@]}"; do
		elec_ctl "$id" show
		elec_ctl "$id" -j show
		elec_ctl "$id" group show dev eth0 group 1
		elec_ctl "$id" -j stats
		elec_ctl "$id" showconf
	done
	cat "$KEYS/monitor.log"
	dmesg
	cat $TR/trace
} >"$KEYS/everything.txt" 2>&1
check "outputs gathered ($(wc -l <"$KEYS/everything.txt") lines, $(grep -c election_ "$KEYS/everything.txt") trace or event lines)" \
	test "$(grep -c election_rx "$KEYS/everything.txt")" -gt 0
for k in $K1HEX $K2HEX; do
	check_fails "key $k: in no output, trace or log" \
		sh -c "grep -i -e '$k' -e '$(echo $k | sed 's/../& /g; s/ $//')' '$KEYS/everything.txt' || { echo 'not found'; exit 1; }"
done
# the raw bytes of K1 (binary grep)
check_fails "K1's raw bytes: in no output" \
	sh -c "grep -c -F -a \"\$(cat '$KEYS/k1')\" '$KEYS/everything.txt' || exit 1"
check "showconf writes a placeholder and says so" sh -c "
	ip netns exec en3 $ELEC_CTL showconf >'$KEYS/conf' &&
	grep -q 'key-file /etc/election/CHANGE-ME-eth0-1.key' '$KEYS/conf' &&
	grep -q 'key-file /etc/election/CHANGE-ME-eth0-2.key' '$KEYS/conf' &&
	grep -qi '^#.*key' '$KEYS/conf'"
check_refused "the placeholder fails the batch's validation, before any line runs" "CHANGE-ME-eth0-1.key.*cannot open" \
	ip netns exec en3 "$ELEC_CTL" -batch "$KEYS/conf"

# ---- restart: counters start from the clock ------------------------------
snap_replay() { for id in 3 42; do auth_drops "$id" 1; done | awk '{s += $4} END {print s}'; }
before=$(snap_replay)
check "node 17 deletes group 1 and adds it again with the same key" sh -c "
	ip netns exec en17 $ELEC_CTL group del dev eth0 group 1 &&
	ip netns exec en17 $ELEC_CTL group add dev eth0 group 1 id 17 algo bully key-file $KEYS/k1 $ELEC_TIMING &&
	for p in 3 42; do ip netns exec en17 $ELEC_CTL peer add dev eth0 group 1 id \$p lladdr \$(printf '02:e1:00:00:00:%02x' \$p) || exit 1; done &&
	ip netns exec en17 $ELEC_CTL group start dev eth0 group 1"
elec_agree 1 42 "$ELEC_BOUND" 1
check "its frames after the restart are fresh: no auth_replay at 3 and 42 (before $before)" \
	test "$(snap_replay)" = "$before"
# 17 asks the better ids (an election): 42 takes its ELECTION
el42=$(elec_stat 42 1 'd["rx"]["election"]')
check "node 17: group elect" elec_ctl 17 group elect dev eth0 group 1
elec_agree 1 42 "$ELEC_BOUND" 0
check "node 42 took 17's ELECTION ($el42 before)" \
	test "$(elec_stat 42 1 'd["rx"]["election"]')" -gt "$el42"
check "... with no auth_replay at 3 and 42" test "$(snap_replay)" = "$before"

# ---- frames injected from 66, a host on the segment that is no node -----
GROUPS_SPEC="1:bully:key=$KEYS/k1,2:ring:key=$KEYS/k2"
NODES_SPEC=$(inj_nodes_spec "${IDS[@]}")
CAP=$INJ_TMP/capture.pcap
inj() { inj_run 66 "$@" nodes "$NODES_SPEC" groups "$GROUPS_SPEC"; }
checked() {
	local name=$1
	shift
	log "--- $name"
	inj_snap "before-$name" || return 1
	"$@"
	inj_snap "after-$name" || return 1
	inj_check "$name" "before-$name" "after-$name"
}
term_of() { elec_ctl "$1" -j show dev eth0 group "$2" | elec_json 'd[0]["term"]'; }

log "--- capture: 42's switch port while 3 calls elections in both groups"
ip netns exec esw "$INJ" capture p42 "$CAP" timeout 300 >"$INJ_TMP/capture.log" 2>&1 &
cap=$!
for i in $(seq 1 50); do
	[ -s "$CAP" ] && break
	sleep 0.1
done
sleep "$(elec_sec 0.5)"
check "group elect on 3 (group 1)" elec_ctl 3 group elect dev eth0 group 1
check "group elect on 3 (group 2)" elec_ctl 3 group elect dev eth0 group 2
elec_agree 1 42 "$ELEC_BOUND" 1
elec_agree 2 42 "$ELEC_BOUND" 1
kill -TERM "$cap"
wait "$cap"
sed 's/^/    /' "$INJ_TMP/capture.log"
"$INJ" -j list "$CAP" >"$INJ_TMP/capture.json"
n=$(elec_json 'sum(1 for f in d if f["decodes"] and f.get("flags", 0) & 2)' <"$INJ_TMP/capture.json")
check "captured authenticated frames ($n)" test "${n:-0}" -gt 0
T1=$(term_of 42 1)
T2=$(term_of 42 2)

# a true replay: the senders' own MACs and MACs, old counters. Every
# captured frame is older than auth-window (2 s) when it is played back:
# refused against the nodes' clocks (auth_clock), which the model
# predicts from its own (the frames near the window's edge would be a
# guess either way, so there are none)
sleep 2.5
do_replay() {
	inj replay eth0 "$CAP"
	check "replay: frames the checks before the counter pass ($(elec_json 'd["expect"]["total"].get("auth_clock", 0)' <"${INJ_REPORTS[-1]}")), all to be auth_clock" \
		test "$(elec_json 'd["expect"]["total"].get("auth_clock", 0)' <"${INJ_REPORTS[-1]}")" -gt 0
	check "replay: none predicted accepted" \
		test "$(elec_json 'd["expect"]["total"].get("accepted", 0)' <"${INJ_REPORTS[-1]}")" = 0
}
checked replay do_replay

# COORDINATOR claims from a higher id with newer terms: no key (a random
# MAC, no trailer), from 66's MAC and from 42's
do_forge() {
	local g algo m
	for g in 1 2; do
		algo=bully m=$T1
		[ "$g" = 2 ] && algo=ring m=$T2
		inj forge eth0 coord group "$g" algo "$algo" id 5000 term $((m + 1)) \
			count 20 term-step 1 mac random
		inj forge eth0 coord group "$g" algo "$algo" id 42 term $((m + 1)) \
			count 20 term-step 1 mac random src-mac "$(elec_mac 42)"
		inj forge eth0 coord group "$g" algo "$algo" id 42 term $((m + 5)) \
			count 20 mac none src-mac "$(elec_mac 42)"
		inj forge eth0 coord group "$g" algo "$algo" id 42 term $((m + 5)) \
			count 10 mac zero src-mac "$(elec_mac 42)"
	done
}
checked forge do_forge

# keys stay apart: MACed with the Bully group's key, a ring frame fails
# its MAC; with the ring group's key it passes (then: no such peer)
do_apart() {
	inj forge eth0 coord group 2 algo ring id 42 term $((T2 + 1)) count 20 \
		key-file "$KEYS/k1" mac good src-mac "$(elec_mac 42)"
	check "K1 on the ring group: auth_bad predicted" \
		test "$(elec_json 'd["expect"]["total"].get("auth_bad", 0)' <"$INJ_TMP/report.json")" -gt 0
	inj forge eth0 coord group 1 algo bully id 42 term $((T1 + 1)) count 20 \
		key-file "$KEYS/k2" mac good src-mac "$(elec_mac 42)"
	inj forge eth0 coord group 2 algo ring id 5000 term $((T2 + 1)) count 20 \
		key-file "$KEYS/k2" mac good
	check "K2 on the ring group from id 5000: the MAC passes, unknown_peer predicted" \
		test "$(elec_json 'd["expect"]["total"].get("unknown_peer", 0)' <"$INJ_TMP/report.json")" -gt 0
}
checked apart do_apart

do_flip() {
	inj flip eth0 "$CAP" count 500 seed 1
}
checked flip do_flip

elec_agree 1 42 "$ELEC_BOUND" 1
elec_agree 2 42 "$ELEC_BOUND" 1
for id in "${IDS[@]}"; do
	check "node $id: group 1 term $T1, group 2 term $T2, as after the capture" \
		test "$(term_of "$id" 1) $(term_of "$id" 2)" = "$T1 $T2"
done
inj_klog_clean "after the injections"

# ---- a recording played to receivers that start fresh (issue 33, 1) -------
# The leader 42 goes; 3 and 17 are deleted and added again (new
# instances: no counter remembered, learning, term 0) and started while
# 42's recorded frames (older than auth-window) are played to them. They
# refuse every one (auth_clock), never follow 42, and elect 17. (Before,
# a learning node took the recording's term and its counters, above none
# remembered, and followed the dead leader for as long as it lasted.)
log "--- fresh receivers, a recording of the dead leader"
elec_ctl 42 group del dev eth0 group 1 || fail "node 42: group del 1"
for id in 3 17; do
	elec_ctl "$id" group del dev eth0 group 1 || fail "node $id: group del 1"
done
ELEC_GROUP_OPTS="key-file $KEYS/k1" ELEC_ALGO=bully elec_group_setup 1 3 17
mons=()
for id in 3 17; do
	ip netns exec "en$id" "$ELEC_CTL" -j monitor dev eth0 group 1 \
		>"$KEYS/fresh-$id.jsonl" 2>&1 &
	mons+=($!)
done
sleep "$(elec_sec 0.3)"
for id in 3 17; do
	elec_ctl "$id" group start dev eth0 group 1 || fail "node $id: group start 1"
done
inj_run 66 replay eth0 "$CAP" >/dev/null
INJ_REPORTS=()
elec_agree 1 17 "$ELEC_BOUND" 1 3 17
kill "${mons[@]}" 2>/dev/null
wait "${mons[@]}" 2>/dev/null
for id in 3 17; do
	clock=$(elec_stat "$id" 1 'd["drops"]["auth_clock"]')
	check "node $id (fresh) refused the recording as auth_clock ($clock)" \
		test "${clock:-0}" -gt 0
	check "node $id never named the dead 42 its leader (its events)" \
		python3 -c '
import json, sys
ev = [json.loads(l) for l in open(sys.argv[1]) if l.startswith("{")]
assert any(e.get("event") == "leader_changed" for e in ev), "no leader_changed"
assert not any(e.get("leader") == 42 for e in ev), [e for e in ev if e.get("leader") == 42]
' "$KEYS/fresh-$id.jsonl"
done
ELEC_GROUP_OPTS="key-file $KEYS/k1" ELEC_ALGO=bully elec_group_setup 1 42 ||
	fail "node 42: group add 1 again"
elec_ctl 42 group start dev eth0 group 1 || fail "node 42: group start 1"
elec_agree 1 42 "$ELEC_BOUND" 1

# ---- another key on one node ----------------------------------------------
read -r _ bad3 _ <<<"$(auth_drops 3 1)"
check "node 42 takes another key" elec_ctl 42 group set dev eth0 group 1 key-file "$KEYS/k3"
# 3 and 17 no longer hear 42: 17 takes over; 42 hears nobody and leads alone
elec_agree 1 17 "$ELEC_BOUND" 1 3 17
check "node 42 leads alone" sh -c "test \"\$(ip netns exec en42 $ELEC_CTL -j show dev eth0 group 1 | python3 -c 'import json,sys; d=json.load(sys.stdin)[0]; print(d[\"role\"], d[\"leader\"])')\" = 'leader 42'"
read -r _ bad3b _ <<<"$(auth_drops 3 1)"
read -r _ bad42 _ <<<"$(auth_drops 42 1)"
check "node 3 counts 42's frames as auth_bad ($bad3 -> $bad3b)" test "$bad3b" -gt "$bad3"
check "node 42 counts the others' frames as auth_bad ($bad42)" test "$bad42" -gt 0
# the ring group, with its own key, is untouched: 42 leads it
elec_agree 2 42 "$ELEC_BOUND" 0
check "node 42 takes the group's key again" elec_ctl 42 group set dev eth0 group 1 key-file "$KEYS/k1"
elec_agree 1 42 "$ELEC_BOUND" 1

# ---- key none ---------------------------------------------------------------
read -r miss3 _ <<<"$(auth_drops 3 1)"
check "node 42: key none" elec_ctl 42 group set dev eth0 group 1 key none
# 42 beacons without a trailer at once; 3 and 17 send to 42 only when its
# beacons (dropped) stop counting, after hb-miss intervals: poll, no fixed sleep
deadline=$((SECONDS + ELEC_BOUND))
while :; do
	read -r miss3b _ <<<"$(auth_drops 3 1)"
	unexp42=$(auth_drops 42 1 | awk '{print $5}')
	((miss3b > miss3 && unexp42 > 0 || SECONDS >= deadline)) && break
	sleep 0.2
done
check "node 3 counts 42's unauthenticated frames as auth_missing ($miss3 -> $miss3b)" test "$miss3b" -gt "$miss3"
check "node 42 counts the others' trailers as auth_unexpected ($unexp42)" test "$unexp42" -gt 0
check "node 42 reports auth off" sh -c "test \"\$(ip netns exec en42 $ELEC_CTL -j show dev eth0 group 1 | python3 -c 'import json,sys; print(json.load(sys.stdin)[0][\"auth\"])')\" = False"
for id in 3 17; do
	check "node $id: key none" elec_ctl "$id" group set dev eth0 group 1 key none
done
elec_agree 1 42 "$ELEC_BOUND" 1

# ---- refusals change nothing -----------------------------------------------
NOCAP=(setpriv --inh-caps=-net_admin --bounding-set=-net_admin)
check_refused "without CAP_NET_ADMIN: key none is refused with the kernel's message" \
	CAP_NET_ADMIN ip netns exec en3 "${NOCAP[@]}" "$ELEC_CTL" group set dev eth0 group 2 key none
check "... and exit status 2" sh -c "ip netns exec en3 ${NOCAP[*]} $ELEC_CTL group set dev eth0 group 2 key none 2>/dev/null; test \$? = 2"
check_refused "without CAP_NET_ADMIN: key-file is refused" CAP_NET_ADMIN \
	ip netns exec en3 "${NOCAP[@]}" "$ELEC_CTL" group set dev eth0 group 2 key-file "$KEYS/k1"
check "the ring group still has its key" sh -c "test \"\$(ip netns exec en3 $ELEC_CTL -j show dev eth0 group 2 | python3 -c 'import json,sys; print(json.load(sys.stdin)[0][\"auth\"])')\" = True"
IFX=$(ip netns exec en3 cat /sys/class/net/eth0/ifindex)
check_refused "a 15-byte key (raw netlink) is refused" "error=34 msg=." \
	ip netns exec en3 python3 "$ELEC_PY" nl group_set ifindex="$IFX" group=2 key="${K2HEX:0:30}"
check_refused "a 17-byte key (raw netlink) is refused" "error=34 msg=." \
	ip netns exec en3 python3 "$ELEC_PY" nl group_set ifindex="$IFX" group=2 key="${K2HEX}00"
check_refused "a key and key none together (raw netlink) are refused" "key-none together" \
	ip netns exec en3 python3 "$ELEC_PY" nl group_set ifindex="$IFX" group=2 key="$K2HEX" key_none=1
check_refused "an all-zero key (raw netlink) is refused" "all-zero key is refused" \
	ip netns exec en3 python3 "$ELEC_PY" nl group_set ifindex="$IFX" group=2 key=00000000000000000000000000000000
head -c 16 /dev/zero >"$KEYS/zero"
chmod 600 "$KEYS/zero"
check_refused "an all-zero key (electionctl --unchecked) is refused by the kernel" "all-zero key is refused" \
	ip netns exec en3 "$ELEC_CTL" --unchecked group set dev eth0 group 2 key-file "$KEYS/zero"
check "the ring group still has its key" sh -c "test \"\$(ip netns exec en3 $ELEC_CTL -j show dev eth0 group 2 | python3 -c 'import json,sys; print(json.load(sys.stdin)[0][\"auth\"])')\" = True"
elec_agree 2 42 "$ELEC_BOUND" 1

for id in "${IDS[@]}"; do
	elec_ctl "$id" group del dev eth0 group 1 || fail "node $id: group del 1"
done
elec_teardown 2
check "rmmod election" rmmod election
elec_end
