#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# tests/vm/faults/flap.sh FLAPS [SYSTEM,...]  (make vmtest-faults)
#
# A leader that flaps: 5 nodes (ids 3 17 42 100 2001), one group per
# system (default every algorithm: bully ring ring-all ring-list
# min-bully enh-bully invitation, groups 1..7), all led by node 2001 (in
# the min-bully group the ids are turned round, 100000 - id, so that 2001
# has the lowest). Node 2001 goes away and comes back FLAPS times
# (default 1000; faults.py flap): its switch port down (carrier loss),
# its eth0 down, GROUP_STOP of its groups, or its port cut by a tc drop
# filter (silent, it keeps running); away up to 0.3 s, back up to 0.5 s,
# seeded (a port's away time counts from when the kernel has reported the
# carrier loss: linkwatch never reports a carrier that came back before
# it ran, to the module or anyone else). Then, everything restored:
#   - every group agrees on 2001 again (invitation: one group) within
#     ELEC_BOUND and keeps it for 3 s;
#   - 2001's `electionctl -j monitor` saw exactly one `stopped` event per
#     group and flap of the first three kinds, SEQ +1 each, no loss;
#   - counters sane: no frame malformed, of another group or algorithm,
#     from an unknown peer or address, or a term too far; tx_errors = the
#     sum of tx_drops, none for MTU or buffers; no node received more
#     frames than the others sent; elections and leader changes counted;
#   - MODULE_GET: 35 instances and 140 peers while they run, 0/0/0 after
#     the groups are deleted; rmmod.
. tests/vm/lib.sh
elec_begin

FLAPS=${1:-1000}
SYSTEMS=${2:-bully,ring,ring-all,ring-list,min-bully,enh-bully,invitation}
FAULTS_PY=$ELEC_REPO/tests/vm/faults/faults.py
IDS=(3 17 42 100 2001)
INVERT=100000
IFS=, read -r -a SYS <<<"$SYSTEMS"
[[ $FLAPS =~ ^[0-9]+$ ]] || { fail "FLAPS must be a whole number, not '$FLAPS'"; elec_end; }

elec_load || elec_end
elec_modprobe sch_ingress cls_matchall act_gact 2>/dev/null
elec_topo "${IDS[@]}" || elec_end
nodes=()
for id in "${IDS[@]}"; do nodes+=("en$id:$id"); done

# nodes of group G as faults.py agree names them (the ids the group uses)
group_nodes() {
	local id
	for id in "${IDS[@]}"; do
		if [ "${SYS[$1 - 1]}" = min-bully ]; then
			printf 'en%s:%s ' "$id" $((INVERT - id))
		else
			printf 'en%s:%s ' "$id" "$id"
		fi
	done
}

groups=""
for g in $(seq 1 ${#SYS[@]}); do
	s=${SYS[$g - 1]}
	inv=()
	[ "$s" = min-bully ] && inv=(--invert "$INVERT")
	check "group $g: $s on every node" python3 "$FAULTS_PY" mkgroups --group "$g" --algo "$s" \
		"${inv[@]}" --timing "$ELEC_TIMING" --start "${nodes[@]}"
	groups+="${groups:+,}$g"
done

# agree_all BOUND STABLE: every group on its best (node 2001)
agree_all() {
	local g s best inv rc=0
	for g in $(seq 1 ${#SYS[@]}); do
		s=${SYS[$g - 1]}
		best=2001
		inv=()
		[ "$s" = min-bully ] && best=$((INVERT - 2001))
		[ "$s" = invitation ] && inv=(--invitation)
		# shellcheck disable=SC2046
		python3 "$FAULTS_PY" agree --group "$g" --expect "$best" "${inv[@]}" --timeout "$1" \
			--stable "$2" $(group_nodes "$g") | sed "s/^/group $g ($s): /" || rc=1
	done
	return $rc
}
check "every group agrees on node 2001" agree_all "$ELEC_BOUND" 0
check "MODULE_GET while the groups run: $((5 * ${#SYS[@]})) instances, $((20 * ${#SYS[@]})) peers" \
	sh -c "'$ELEC_CTL' -j module | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d); sys.exit(0 if (d[\"instances\"], d[\"peers\"]) == (${#SYS[@]} * 5, ${#SYS[@]} * 20) else 1)'"

elec_ctl 2001 -j monitor >/tmp/mon2001.jsonl 2>/tmp/mon2001.err &
MON=$!
sleep "$(elec_sec 1)"
log "node 2001 flaps $FLAPS times (groups $groups)"
python3 "$FAULTS_PY" flap --flaps "$FLAPS" --node en2001:2001 --groups "$groups" --seed 13 \
	--down-max "$(elec_sec 0.3)" --up-max "$(elec_sec 0.5)" | tee /tmp/flap.out
check "the flaps ran" grep -q '"stops"' /tmp/flap.out
stops=$(tail -n 1 /tmp/flap.out | elec_json 'd["stops"]')
log "flaps done: $(tail -n 1 /tmp/flap.out)"

check "every group agrees on node 2001 after the flaps, for 3s" agree_all "$ELEC_BOUND" "$(elec_sec 3)"
sleep 1
kill "$MON" 2>/dev/null
wait "$MON" 2>/dev/null
check "2001's monitor: SEQ +1 each, no loss, each instance in order" \
	python3 "$ELEC_PY" seqcheck --file /tmp/mon2001.jsonl
check "one stopped event per group and flap that stops it ($stops)" python3 -c '
import json, sys
want, n = int(sys.argv[2]), int(sys.argv[3])
got = {}
for line in open(sys.argv[1]):
    try:
        e = json.loads(line)
    except ValueError:
        continue
    if e.get("event") == "stopped":
        got[e["group"]] = got.get(e["group"], 0) + 1
print("stopped events per group:", dict(sorted(got.items())), "expected", want, "each")
sys.exit(0 if all(got.get(g, 0) == want for g in range(1, n + 1)) else 1)' \
	/tmp/mon2001.jsonl "$stops" "${#SYS[@]}"

counters_sane() {
	local g s rc=0
	for g in $(seq 1 ${#SYS[@]}); do
		s=${SYS[$g - 1]}
		python3 "$ELEC_PY" stats --group "$g" "${nodes[@]}" >/tmp/stats-$g.json || rc=1
		python3 -c '
import json, sys
st = json.load(open(sys.argv[1]))
name = sys.argv[2]
bad = []
tx = {n: sum(s["tx"].values()) for n, s in st.items()}
rx = {n: sum(s["rx"].values()) for n, s in st.items()}
for n, s in sorted(st.items(), key=lambda x: int(x[0])):
    d, td = s["drops"], s.get("tx_drops", {})
    for k in ("malformed", "wrong_group", "wrong_algo", "unknown_peer", "wrong_lladdr",
              "term_too_far"):
        if d.get(k, 0):
            bad.append("node %s: drops.%s %d" % (n, k, d[k]))
    if s.get("tx_errors", 0) != sum(td.values()):
        bad.append("node %s: tx_errors %s != sum of tx_drops %s" % (n, s.get("tx_errors"), td))
    for k in ("mtu", "no_buffer"):
        if td.get(k, 0):
            bad.append("node %s: tx_drops.%s %d" % (n, k, td[k]))
    others = sum(v for m, v in tx.items() if m != n)
    if rx[n] > others:
        bad.append("node %s received %d frames, the others sent %d" % (n, rx[n], others))
el = sum(s.get("elections", 0) for s in st.values())
lc = sum(s.get("leader_changes", 0) for s in st.values())
if not el or not lc:
    bad.append("no election or leader change counted (%d, %d)" % (el, lc))
print("group %s (%s): tx %d rx %d elections %d leader_changes %d tx_errors %d%s" % (
    sys.argv[3], name, sum(tx.values()), sum(rx.values()), el, lc,
    sum(s.get("tx_errors", 0) for s in st.values()), "" if not bad else ": " + "; ".join(bad)))
sys.exit(1 if bad else 0)' /tmp/stats-$g.json "$s" "$g" || rc=1
	done
	return $rc
}
check "counters sane in every group" counters_sane
check "MODULE_GET after the flaps: $((5 * ${#SYS[@]})) instances, $((20 * ${#SYS[@]})) peers" \
	sh -c "'$ELEC_CTL' -j module | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d); sys.exit(0 if (d[\"instances\"], d[\"peers\"]) == (${#SYS[@]} * 5, ${#SYS[@]} * 20) else 1)'"

for g in $(seq 1 ${#SYS[@]}); do
	python3 "$FAULTS_PY" group --group "$g" --cmd del "${nodes[@]}" >/dev/null || fail "group $g del"
done
elec_leak_check
check "rmmod election" rmmod election
elec_end
