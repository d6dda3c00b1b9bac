#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Ring elections, smoke test: for each of ring (suppress on and off),
# ring-all and ring-list, six nodes with non-contiguous ids, placed in a
# ring order unrelated to their ids, start at once and all agree on the
# highest id; the hops were acknowledged (tx.ack), nothing was counted
# as a queue overflow or malformed, and `-j show` reports the positions
# configured (retries are reported, not failed: a stalled TCG guest may
# miss a 100 ms acknowledgement). Each group is deleted and the leak counters read zero
# before the next algorithm. Then the kernel's own refusals of the new
# attributes (extack), bypassing electionctl's checks.
. tests/vm/lib.sh
elec_begin

IDS=(3 17 42 100 777 2001)
# ring order 17 100 2001 3 777 42: the highest id sits in the middle, and
# neither ascending nor descending ids follow each other
# shellcheck disable=SC2034 # read by elec_group_setup (lib.sh)
ELEC_POS=([3]=40 [17]=10 [42]=60 [100]=20 [777]=50 [2001]=30)
LEADER=2001

elec_load || elec_end
elec_topo "${IDS[@]}" || elec_end
log "ring order (position:id): $(for i in $(elec_ring_order); do printf '%s:%s ' "$(elec_pos "$i")" "$i"; done)"

# all_json G show|stats: every node's `-j G` reply, one JSON line each
# (one python3 per check below: it starts slowly in a TCG guest).
all_json() {
	local id
	for id in "${IDS[@]}"; do
		elec_ctl "$id" -j "$2" dev eth0 group "$1" || return 1
	done
}

# positions_ok G ALGO SUPPRESS: every node's `-j show` reports its own
# position, each peer's, and suppress (true/false) for algo ring only.
positions_ok() {
	local want id
	want=$(for id in "${IDS[@]}"; do printf '%s:%s,' "$id" "$(elec_pos "$id")"; done)
	all_json "$1" show | python3 -c '
import json, sys
want = dict(tuple(map(int, kv.split(":"))) for kv in sys.argv[1].split(",") if kv)
algo, sup = sys.argv[2], sys.argv[3] == "on"
docs = [json.loads(l)[0] for l in sys.stdin]
assert sorted(d["id"] for d in docs) == sorted(want), [d["id"] for d in docs]
for d in docs:
    me = d["id"]
    peers = {p["id"]: p["pos"] for p in d["peers"]}
    print("id %d pos %d peers %s%s" % (me, d["pos"], sorted(peers.items()),
          " suppress %s" % d["suppress"] if "suppress" in d else ""))
    assert d["algo"] == algo, d["algo"]
    assert d["pos"] == want[me], ("own pos", me, d["pos"], want[me])
    assert peers == {i: p for i, p in want.items() if i != me}, ("peer pos", me)
    if algo == "ring":
        assert d["suppress"] is sup, ("suppress", d.get("suppress"))
    else:
        assert "suppress" not in d, ("suppress reported for", algo)
' "$want" "$2" "$3"
}

# stats_ok G LEADER: hops acknowledged somewhere (tx.ack > 0); no ANSWER,
# queue overflow, malformed or wrong-algo frame, never rx.retry; the leader
# took part in an election and changed its leader. Prints every node's
# counters, and a note for retries.
stats_ok() {
	all_json "$1" stats | python3 -c '
import json, sys
leader = int(sys.argv[1])
docs = [json.loads(l)[0] for l in sys.stdin]
bad = []
for d in docs:
    t, r, dr = d["tx"], d["rx"], d["drops"]
    print("id %-5d tx el %d co %d hb %d ack %d retry %d | rx el %d co %d ack %d | elections %d | drops %s" % (
        d["id"], t["election"], t["coordinator"], t["heartbeat"], t["ack"],
        t["retry"], r["election"], r["coordinator"], r["ack"], d["elections"],
        {k: v for k, v in dr.items() if v}))
    if t["answer"] or r["answer"]:
        bad.append("%d: ANSWER on a ring" % d["id"])
    if r["retry"]:
        bad.append("%d: rx.retry (a counter, never on the wire)" % d["id"])
    if t["retry"]:
        print("NOTE: %d re-sent %d ring messages (an ACK came late)" % (
            d["id"], t["retry"]))
    if dr["queue_full"] or dr["malformed"] or dr["wrong_algo"]:
        bad.append("%d: drops %s" % (d["id"], dr))
acks = sum(d["tx"]["ack"] for d in docs)
ld = [d for d in docs if d["id"] == leader][0]
print("tx.ack over all nodes: %d; election frames sent %d, received %d" % (
    acks, sum(d["tx"]["election"] for d in docs),
    sum(d["rx"]["election"] for d in docs)))
if acks == 0:
    bad.append("no hop was acknowledged")
if ld["rx"]["election"] + ld["tx"]["election"] == 0 or ld["leader_changes"] < 1:
    bad.append("the leader took no part in an election")
assert not bad, bad
' "$2"
}

g=0
for variant in "ring" "ring:suppress off" "ring-all" "ring-list"; do
	g=$((g + 1))
	algo=${variant%%:*}
	opts=""
	[ "$variant" != "$algo" ] && opts=${variant#*:}
	sup=on
	[ "$opts" = "suppress off" ] && sup=off
	log "--- group $g: algo $algo${opts:+ $opts}"

	ELEC_ALGO=$algo ELEC_GROUP_OPTS=$opts elec_group_setup "$g" || continue
	check "group $g ($variant): -j show reports the positions configured" \
		positions_ok "$g" "$algo" "$sup"
	elec_start_all "$g"
	elec_agree "$g" "$LEADER" "$ELEC_BOUND" 2
	check "group $g ($variant): hops acknowledged (tx.ack > 0), no overflow" \
		stats_ok "$g" "$LEADER"
	elec_views "$g"
	elec_teardown "$g"
done

log "--- the kernel refuses what electionctl would (extack)"
ctl3() { elec_ctl 3 --unchecked "$@"; }
nl() { ip netns exec en3 python3 "$ELEC_PY" nl "$@"; }
# refused_with DESC REGEX CMD...: CMD fails and its output matches REGEX.
refused_with() {
	local desc=$1 text=$2 out rc
	shift 2
	out=$("$@" 2>&1)
	rc=$?
	echo "    $out"
	if [ $rc != 0 ] && printf '%s' "$out" | grep -qE -- "$text"; then
		pass "$desc"
	else
		fail "$desc (exit $rc, wanted \"$text\")"
	fi
}
IFX=$(ip -n en3 -o link show eth0 | cut -d: -f1)
refused_with "suppress on with algo bully" "suppress applies to the ring algorithm only" \
	ctl3 group add dev eth0 group 9 id 3 algo bully suppress on
refused_with "suppress off with algo ring-list" "suppress applies to the ring algorithm only" \
	ctl3 group add dev eth0 group 9 id 3 algo ring-list suppress off
refused_with "raw: SUPPRESS 2" "msg=[^ ]" \
	nl group_new ifindex="$IFX" group=9 node_id=3 algo=2 suppress=2
refused_with "raw: POS 0" "msg=[^ ]" \
	nl group_new ifindex="$IFX" group=9 node_id=3 algo=2 pos=0
check "ring group with pos and suppress accepted" \
	ctl3 group add dev eth0 group 9 id 3 algo ring pos 7 suppress off
refused_with "raw: PEER_POS 0" "msg=[^ ]" \
	nl peer_add ifindex="$IFX" group=9 peer_id=5 peer_lladdr=02:00:00:00:00:05 peer_pos=0
refused_with "raw: GROUP_SET cannot change pos" "msg=[^ ]" \
	nl group_set ifindex="$IFX" group=9 pos=8
check "peer with pos 4294967295 accepted" \
	ctl3 peer add dev eth0 group 9 id 5 lladdr 02:00:00:00:00:05 pos 4294967295
check "show after the refusals: pos 7, suppress off, peer 5 at 4294967295" \
	sh -c "ip netns exec en3 $ELEC_CTL -j show dev eth0 group 9 | python3 -c 'import json,sys; d=json.load(sys.stdin)[0]; print(d[\"pos\"], d[\"suppress\"], d[\"peers\"]); assert d[\"pos\"]==7 and d[\"suppress\"] is False and d[\"peers\"]==[{\"id\":5,\"lladdr\":\"02:00:00:00:00:05\",\"alive\":True,\"pos\":4294967295}]'"
check "group 9 deleted" elec_ctl 3 group del dev eth0 group 9
elec_leak_check

check "rmmod election" rmmod election
elec_end
