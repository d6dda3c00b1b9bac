#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The Wireshark dissector (dist/election.lua) on the kernel's own frames.
#
# Three nodes run seven groups at once, one per algorithm (bully with
# quorum on, so ALIVE frames too), while dumpcap captures each node's eth0.
# The groups elect; the leaders of groups 1 and 7 stop and start again
# (LEAVING heartbeats, new elections); then every group stops and the
# captures end. tshark with the dissector must decode every frame with no
# malformed mark and no expert warning, and for every node, group and
# message type the frames the capture shows leaving the node must number
# exactly what the node's stats say it sent (tx), with the node's id as
# source.
. tests/vm/lib.sh
elec_begin

LUA=$ELEC_REPO/dist/election.lua
TMPD=$(mktemp -d)
for t in dumpcap tshark; do
	command -v "$t" >/dev/null || { fail "$t is not installed (make deps)"; elec_end; }
done

elec_load || elec_end
elec_topo 1 2 3 || elec_end
declare -A ALGO_OF=([1]=bully [2]=ring [3]=ring-all [4]=ring-list [5]=min-bully
	[6]=enh-bully [7]=invitation)
for g in 1 2 3 4 5 6 7; do
	opts=""
	[ "$g" = 1 ] && opts="quorum on"
	ELEC_ALGO=${ALGO_OF[$g]} ELEC_GROUP_OPTS=$opts elec_group_setup "$g" || elec_end
done

for id in 1 2 3; do
	ip netns exec "en$id" dumpcap -q -i eth0 -f "ether proto 0x88b5" \
		-w "$TMPD/n$id.pcapng" >"$TMPD/dumpcap-$id.log" 2>&1 &
	CAP[$id]=$!
done
for _ in $(seq 1 50); do
	[ -s "$TMPD/n1.pcapng" ] && [ -s "$TMPD/n2.pcapng" ] && [ -s "$TMPD/n3.pcapng" ] && break
	sleep 0.1
done
sleep "$(elec_sec 0.5)"

for g in 1 2 3 4 5 6 7; do
	elec_start_all "$g"
done
for g in 1 2 3 4 5 6; do
	if [ "$g" = 5 ]; then elec_agree "$g" 1; else elec_agree "$g" 3; fi
done
elec_agree 7 3
log "--- the leaders of groups 1 and 7 stop and start again"
elec_ctl 3 group stop dev eth0 group 1
elec_ctl 3 group stop dev eth0 group 7
sleep "$(elec_sec 1)"
elec_ctl 3 group start dev eth0 group 1
elec_ctl 3 group start dev eth0 group 7
elec_agree 1 3
elec_agree 7 3
for g in 1 2 3 4 5 6 7; do
	for id in 1 2 3; do
		elec_ctl "$id" group stop dev eth0 group "$g"
	done
done
sleep "$(elec_sec 0.5)"
for id in 1 2 3; do
	kill -INT "${CAP[$id]}" 2>/dev/null
	wait "${CAP[$id]}" 2>/dev/null
done

for id in 1 2 3; do
	elec_ctl "$id" -j stats >"$TMPD/stats-$id.json"
	tshark -n -X "lua_script:$LUA" -r "$TMPD/n$id.pcapng" -T fields \
		-E separator=/t -e eth.src -e election.group -e election.type \
		-e election.src -e _ws.expert.severity -e _ws.expert.group \
		-e _ws.malformed >"$TMPD/n$id.tsv" 2>"$TMPD/tshark-$id.err"
	sed 's/^/    tshark: /' "$TMPD/tshark-$id.err" | grep -v 'Running as user' | head -n 5
done

python3 - "$TMPD" <<'EOF' >"$TMPD/report"
import json, sys
d = sys.argv[1]
names = {1: "election", 2: "answer", 3: "coordinator", 4: "heartbeat",
         5: "ack", 7: "query", 8: "cid", 9: "ayc", 10: "ayc_reply",
         11: "invite", 12: "accept", 13: "ready", 14: "alive"}
total = bad = 0
mismatch = []
types_seen = set()
for node in (1, 2, 3):
    mac = "02:e1:00:00:00:%02x" % node
    sent = {}
    for line in open(f"{d}/n{node}.tsv"):
        c = (line.rstrip("\n").split("\t") + [""] * 7)[:7]
        total += 1
        sev = c[4].split(",") if c[4] else []
        if c[6] or any(s and int(s, 0) >= 0x600000 for s in sev) or \
                "Malformed" in c[5] or not c[2]:
            bad += 1
            continue
        if c[0] != mac:
            continue
        if c[3] != str(node):
            mismatch.append(f"node {node}: a frame from its MAC with src {c[3]}")
        k = (int(c[1]), int(c[2]))
        sent[k] = sent.get(k, 0) + 1
        types_seen.add(int(c[2]))
    for inst in json.load(open(f"{d}/stats-{node}.json")):
        g = inst["group"]
        for t, name in names.items():
            want = inst["tx"].get(name, 0)
            got = sent.pop((g, t), 0)
            if want != got:
                mismatch.append(f"node {node} group {g} {name}: stats tx {want}, captured {got}")
    for (g, t), n in sent.items():
        mismatch.append(f"node {node} group {g} type {t}: {n} captured, no counter")
print("frames", total, "bad", bad)
print("types", " ".join(names[t] for t in sorted(types_seen)))
print("mismatch", len(mismatch))
for m in mismatch[:20]:
    print("  ", m)
EOF
sed 's/^/    /' "$TMPD/report"
read -r _ total _ badn <<<"$(grep '^frames' "$TMPD/report")"
if [ "${total:-0}" -gt 100 ] && [ "${badn:-1}" = 0 ]; then
	pass "tshark + election.lua: $total frames, none malformed or with an expert warning"
else
	fail "dissector: $total frames, $badn malformed or with a warning"
fi
if grep -q '^mismatch 0$' "$TMPD/report"; then
	pass "per node, group and type: the frames captured leaving each node = its tx counters"
else
	fail "captured frames differ from the tx counters"
fi
ntypes=$(grep '^types' "$TMPD/report" | wc -w)
if [ "$ntypes" -ge 10 ]; then
	pass "$((ntypes - 1)) message types seen on the wire: $(grep '^types' "$TMPD/report" | cut -d' ' -f2-)"
else
	fail "only $((ntypes - 1)) message types seen"
fi

for g in 1 2 3 4 5 6 7; do
	for id in 1 2 3; do
		elec_ctl "$id" group del dev eth0 group "$g"
	done
done
elec_leak_check
rm -rf "$TMPD"
elec_end
