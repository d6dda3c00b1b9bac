#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# tests/bench/auth/guest.sh [SECONDS [RATES]]: what a keyed group absorbs
# (issue 33, defect 3), in the guest (tests/bench/auth/run boots it).
#
# Three nodes (3 17 42) run a keyed Bully group at hb-interval 10 ms,
# hb-miss 3 (the default detector; a missed round of heartbeats is a
# suspicion), and a fourth host on the switch (66, no peer) sends forged
# HEARTBEATs with elec-inject, pinned to the guest's last CPU, in steps
# of SECONDS (default 4) at each rate of RATES (frames/s, default
# "2000 5000 10000 20000 40000 0"; 0 is as fast as it goes), two kinds:
#  - unknown: from id 99, no peer of the group, a random MAC trailer;
#  - known:   from the leader's id and link address, a random MAC
#             trailer with a current counter (it reaches the MAC check).
# Per step: the rate elec-inject reached, and over the three nodes the
# detector's suspicions, elections, leader changes and drops by reason.
# A step is absorbed when no node suspected anybody and nobody was
# elected. Prints "absorb kind K rate R sent N achieved A ..." lines;
# tests/bench/auth/run reads them. The module is $ELEC_KO (an older one
# for the before figures).
. tests/vm/lib.sh
. tests/inject/inject-lib.sh
elec_begin

SECS=${1:-4}
RATES=${2:-"2000 5000 10000 20000 40000 0"}
inj_need || elec_end
ELEC_TIMING="hb-interval $(elec_dur 10ms) hb-miss 3 timeout $(elec_dur 20ms) coord-timeout $(elec_dur 80ms)"
elec_load || elec_end
elec_topo 3 17 42 66 || elec_end
ELEC_NODES=(3 17 42)
KEYS=$(mktemp -d)
chmod 700 "$KEYS"
echo 5b0e6c3d29f1a4877e1d0c2b93a5f640 >"$KEYS/k"
chmod 600 "$KEYS/k"
ELEC_GROUP_OPTS="key-file $KEYS/k" ELEC_ALGO=bully elec_group_setup 1 || elec_end
elec_start_all 1
elec_agree 1 42 "$ELEC_BOUND" 1
CPU=$(($(nproc) - 1))
log "flood from 66 on CPU $CPU of $(nproc); $SECS s a step; rates $RATES"

# the three nodes' counters, summed: one JSON object on stdout
snap() {
	local id
	for id in "${ELEC_NODES[@]}"; do
		elec_ctl "$id" -j stats dev eth0 group 1
	done | python3 -c '
import json, sys
dec, text, pos, tot = json.JSONDecoder(), sys.stdin.read(), 0, {}
while pos < len(text):
    while pos < len(text) and text[pos].isspace():
        pos += 1
    if pos >= len(text):
        break
    d, pos = dec.raw_decode(text, pos)
    s = d[0]
    for k in ("suspicions", "elections", "leader_changes"):
        tot[k] = tot.get(k, 0) + s.get(k, 0)
    for k, v in s.get("drops", {}).items():
        tot["drop_" + k] = tot.get("drop_" + k, 0) + v
    tot["rx_heartbeat"] = tot.get("rx_heartbeat", 0) + s["rx"]["heartbeat"]
print(json.dumps(tot))'
}

step() {
	local kind=$1 rate=$2 count a b rep args
	count=$((rate ? rate * SECS : 400000))
	case $kind in
	unknown) args=(group 1 id 99 term 1 mac random counter now) ;;
	known) args=(group 1 id 42 term 1 mac random counter now
		src-mac "$(elec_mac 42)") ;;
	esac
	a=$(snap)
	rep=$(ip netns exec en66 taskset -c "$CPU" "$INJ" -j -q forge eth0 \
		heartbeat "${args[@]}" key-file "$KEYS/k" count "$count" \
		rate "$rate" 2>/dev/null)
	sleep "$(elec_sec 0.2)"
	b=$(snap)
	python3 - "$kind" "$rate" "$a" "$b" "$rep" <<'PY'
import json, sys
kind, rate, a, b, rep = sys.argv[1:6]
a, b = json.loads(a), json.loads(b)
try:
    r = json.loads(rep)
except ValueError:
    r = {}
d = {k: b[k] - a.get(k, 0) for k in b}
drops = " ".join("%s %d" % (k[5:], v) for k, v in sorted(d.items())
                 if k.startswith("drop_") and v)
ok = d["suspicions"] == 0 and d["elections"] == 0
print("absorb kind %s rate %s sent %d seconds %.3f achieved %.0f "
      "suspicions %d elections %d leader_changes %d rx_heartbeat %d "
      "absorbed %s drops: %s" % (
          kind, rate, r.get("sent", 0), r.get("seconds", 0),
          r.get("rate", 0), d["suspicions"], d["elections"],
          d["leader_changes"], d["rx_heartbeat"], "yes" if ok else "no",
          drops or "none"))
PY
	# let a step that made an election settle before the next
	elec_agree 1 42 "$ELEC_BOUND" 0 >/dev/null
}

for kind in unknown known; do
	for rate in $RATES; do
		step "$kind" "$rate"
	done
done
check "the group still follows 42" elec_agree 1 42 "$ELEC_BOUND" 0
inj_klog_clean "auth absorb"
elec_end
