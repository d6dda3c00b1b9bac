#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The Bully options and the resignation of a leader that stops on purpose.
#
# Options: ask-suspect, preempt and preempt-delay set at group add, changed
# with group set (alone and together), reported by -j show and show; the
# rings refuse them (any value, add and set) with the protocol core's
# message and report the defaults; bad values (electionctl, and raw
# requests that reach the kernel's policies and the core's check) are
# refused with a message and change nothing.
#
# Resignation, 3 nodes with hb-interval 1s hb-miss 3 (a 3 s detection
# window): `group stop` on the leader, its device set down, and `group del`
# each put one HEARTBEAT flagged LEAVING on the wire (an AF_PACKET sniffer
# on a survivor sees it), the leader's tx heartbeat counter equals the
# heartbeats seen (the flagged one included), and the survivors elect a new
# leader well inside the window (< 1.5 s after the leader's stopped event,
# from the events' timestamps). A crash (namespace deleted) sends no such
# frame. rmmod: the leader's flagged frame leaves before the module goes.
# Timer lateness: count > 0, 22 buckets summing to count, max_ns > 0.
. tests/vm/lib.sh
elec_begin

elec_load || elec_end
elec_topo 1 2 3 || elec_end
IFX=$(ip -n en1 -o link show eth0 | cut -d: -f1)
TMPD=$(mktemp -d)
BOUND_FAST=$(elec_sec 1.5)

nl() { ip netns exec en1 python3 "$ELEC_PY" nl "$@"; }

# opts G: (ask_suspect, preempt, preempt_delay_ns) of node 1's group G
opts() {
	elec_ctl 1 -j show dev eth0 group "$1" |
		elec_json '(d[0]["ask_suspect"], d[0]["preempt"], d[0]["preempt_delay_ns"])'
}
expect_opts() {
	local desc=$1 g=$2 want=$3 got
	got=$(opts "$g" 2>&1)
	if [ "$got" = "$want" ]; then pass "$desc: $got"; else fail "$desc: got $got, want $want"; fi
}

# refused_with DESC MESSAGE CMD...: CMD fails and its output has MESSAGE
refused_with() {
	local desc=$1 msg=$2 out rc
	shift 2
	out=$("$@" 2>&1)
	rc=$?
	echo "    $out"
	if [ $rc != 0 ] && grep -qF -- "$msg" <<<"$out"; then
		pass "$desc: refused with \"$msg\""
	else
		fail "$desc: rc=$rc, want a refusal naming \"$msg\""
	fi
}

log "--- options: set at add, changed with set, shown"
check "group add bully ask-suspect off preempt off preempt-delay 250ms" \
	elec_ctl 1 group add dev eth0 group 5 id 1 algo bully \
	ask-suspect off preempt off preempt-delay 250ms
expect_opts "-j show after add" 5 "(False, False, 250000000)"
check "group set all three back to the defaults" \
	elec_ctl 1 group set dev eth0 group 5 ask-suspect on preempt on preempt-delay 0
expect_opts "-j show after set" 5 "(True, True, 0)"
check "group set preempt-delay 2s alone" elec_ctl 1 group set dev eth0 group 5 preempt-delay 2s
expect_opts "-j show: only the delay changed" 5 "(True, True, 2000000000)"
check "group set preempt off with a timing change" \
	elec_ctl 1 group set dev eth0 group 5 preempt off hb-miss 4
expect_opts "-j show: preempt off" 5 "(True, False, 2000000000)"
check "show text: ask-suspect on preempt off preempt-delay 2s" \
	bash -c "ip netns exec en1 $ELEC_CTL show dev eth0 group 5 | grep -q 'ask-suspect on preempt off preempt-delay 2s'"
check "group add bully without options" elec_ctl 1 group add dev eth0 group 7 id 1 algo bully
expect_opts "-j show: the defaults" 7 "(True, True, 0)"

log "--- options: bad values refused, nothing changes"
before=$(elec_ctl 1 -j show dev eth0 group 5)
check_fails "electionctl: preempt-delay 50us" elec_ctl 1 group set dev eth0 group 5 preempt-delay 50us
check_fails "electionctl: preempt-delay 61s" elec_ctl 1 group set dev eth0 group 5 preempt-delay 61s
check_fails "electionctl: ask-suspect maybe" elec_ctl 1 group set dev eth0 group 5 ask-suspect maybe
check_fails "electionctl: preempt 1" elec_ctl 1 group set dev eth0 group 5 preempt 1
refused_with "raw GROUP_SET preempt_delay_ns 50000 (the core's check)" \
	"preempt-delay out of range" \
	nl group_set ifindex="$IFX" group=5 preempt_delay_ns=50000
refused_with "raw GROUP_SET preempt_delay_ns 60 s + 1 ns (policy)" "msg=" \
	nl group_set ifindex="$IFX" group=5 preempt_delay_ns=60000000001
refused_with "raw GROUP_SET ask_suspect 2 (policy)" "msg=" \
	nl group_set ifindex="$IFX" group=5 ask_suspect=2
refused_with "raw GROUP_SET preempt 255 (policy)" "msg=" \
	nl group_set ifindex="$IFX" group=5 preempt=255
refused_with "raw GROUP_SET valid hb_interval with a bad delay" \
	"preempt-delay out of range" \
	nl group_set ifindex="$IFX" group=5 hb_interval_ns=500000000 preempt_delay_ns=1
refused_with "raw GROUP_NEW with preempt_delay_ns 1" "preempt-delay out of range" \
	nl group_new ifindex="$IFX" group=8 node_id=1 algo=1 preempt_delay_ns=1
after=$(elec_ctl 1 -j show dev eth0 group 5)
check "group 5 unchanged by the refusals" test "$before" = "$after"
check_fails "group 8 was not created" elec_ctl 1 show dev eth0 group 8

log "--- options: the rings refuse them with the option list's message"
MSG_ASK="ask-suspect applies to the Bully algorithms only"
MSG_PRE="preempt applies to the Bully algorithms only"
MSG_DELAY="preempt-delay applies to the Bully algorithms only"
for algo in ring ring-all ring-list; do
	refused_with "$algo: group add ask-suspect off" "$MSG_ASK" \
		elec_ctl 1 group add dev eth0 group 6 id 1 algo "$algo" ask-suspect off
	refused_with "$algo: group add ask-suspect on (any value)" "$MSG_ASK" \
		elec_ctl 1 group add dev eth0 group 6 id 1 algo "$algo" ask-suspect on
	refused_with "$algo: group add preempt off" "$MSG_PRE" \
		elec_ctl 1 group add dev eth0 group 6 id 1 algo "$algo" preempt off
	refused_with "$algo: group add preempt-delay 0" "$MSG_DELAY" \
		elec_ctl 1 group add dev eth0 group 6 id 1 algo "$algo" preempt-delay 0
	# electionctl refuses these itself; --unchecked lets the kernel do it
	refused_with "$algo: kernel refuses GROUP_NEW ask-suspect" "$MSG_ASK" \
		elec_ctl 1 --unchecked group add dev eth0 group 6 id 1 algo "$algo" ask-suspect on
	refused_with "$algo: kernel refuses GROUP_NEW preempt-delay" "$MSG_DELAY" \
		elec_ctl 1 --unchecked group add dev eth0 group 6 id 1 algo "$algo" preempt-delay 0
	check_fails "$algo: group 6 was not created" elec_ctl 1 show dev eth0 group 6
	check "$algo: group add without options" \
		elec_ctl 1 group add dev eth0 group 6 id 1 algo "$algo"
	expect_opts "$algo: -j show reports the defaults" 6 "(True, True, 0)"
	before=$(elec_ctl 1 -j show dev eth0 group 6)
	refused_with "$algo: group set preempt on" "$MSG_PRE" \
		elec_ctl 1 group set dev eth0 group 6 preempt on
	refused_with "$algo: group set preempt-delay 1s" "$MSG_DELAY" \
		elec_ctl 1 group set dev eth0 group 6 preempt-delay 1s
	refused_with "$algo: group set ask-suspect off with hb-miss 7" "$MSG_ASK" \
		elec_ctl 1 group set dev eth0 group 6 ask-suspect off hb-miss 7
	after=$(elec_ctl 1 -j show dev eth0 group 6)
	check "$algo: unchanged by the refusals" test "$before" = "$after"
	check "$algo: group del" elec_ctl 1 group del dev eth0 group 6
done
check "group del 5 and 7" bash -c "ip netns exec en1 $ELEC_CTL group del dev eth0 group 5 &&
	ip netns exec en1 $ELEC_CTL group del dev eth0 group 7"

log "--- resignation: 3 nodes, hb-interval 1s, hb-miss 3"
ELEC_TIMING="hb-interval $(elec_dur 1s) hb-miss 3 timeout $(elec_dur 100ms) coord-timeout $(elec_dur 400ms)"
SNIFF=$TMPD/sniff.jsonl
ip netns exec en1 python3 "$ELEC_PY" sniff --dev eth0 --out "$SNIFF" >"$TMPD/sniff.log" 2>&1 &
SNIFF_PID=$!
MON_PIDS=()
for id in 1 2 3; do
	ip netns exec "en$id" "$ELEC_CTL" -j monitor >"$TMPD/mon$id.jsonl" 2>&1 &
	MON_PIDS[id]=$!
done
for _ in $(seq 50); do grep -q listening "$TMPD/sniff.log" && break; sleep 0.1; done
check "sniffer listening on en1 eth0" grep -q listening "$TMPD/sniff.log"
sleep 0.5	# the monitors have joined the group

elec_group_setup 1
elec_start_all 1
elec_agree 1 3

# check_resign CASE MARK: since sniff line MARK: exactly one LEAVING
# heartbeat from 3, the last heartbeat from 3; each survivor's first
# leader_changed to 2 after node 3's last stopped event within BOUND_FAST.
check_resign() {
	local what=$1 mark=$2
	check "$what: one LEAVING heartbeat from 3 on the wire, its last heartbeat" \
		python3 - "$SNIFF" "$mark" <<'PY'
import json, sys
lines = open(sys.argv[1]).read().splitlines()[int(sys.argv[2]):]
hb = [json.loads(l) for l in lines if l.strip()]
hb = [f for f in hb if f["src"] == 3 and f["type"] == 4]
leaving = [f for f in hb if f["flags"] & 1]
print("heartbeats from 3 since the mark: %d, flagged LEAVING: %d" % (len(hb), len(leaving)))
sys.exit(0 if len(leaving) == 1 and hb[-1] is leaving[0] else 1)
PY
	check "$what: survivors 1 and 2 elect 2 within ${BOUND_FAST}s of 3's stopped event" \
		python3 - "$TMPD" "$BOUND_FAST" <<'PY'
import json, sys
d, bound = sys.argv[1], float(sys.argv[2])
def events(i):
    out = []
    for l in open("%s/mon%d.jsonl" % (d, i)):
        try:
            out.append(json.loads(l))
        except ValueError:
            pass
    return [e for e in out if e.get("group") == 1]
stops = [e["ts_ns"] for e in events(3) if e["event"] == "stopped"]
if not stops:
    sys.exit("no stopped event from node 3")
t0 = stops[-1]
worst = 0
for i in (1, 2):
    lc = [e["ts_ns"] for e in events(i)
          if e["event"] == "leader_changed" and e["leader"] == 2 and e["ts_ns"] >= t0]
    if not lc:
        sys.exit("node %d: no leader_changed to 2 after the stop" % i)
    dt = (lc[0] - t0) / 1e9
    print("node %d: leader 2 after %.3f s" % (i, dt))
    worst = max(worst, dt)
sys.exit(0 if worst < bound else 1)
PY
}

# tx_hb_matches: node 3's tx heartbeat counter equals the heartbeats from 3
# the sniffer saw since the group started (the flagged ones included)
tx_hb_matches() {
	local tx seen
	tx=$(elec_stat 3 1 'd["tx"]["heartbeat"]')
	seen=$(python3 -c '
import json, sys
n = 0
for l in open(sys.argv[1]):
    f = json.loads(l)
    n += f["src"] == 3 and f["type"] == 4 and f["group"] == 1
print(n)' "$SNIFF")
	if [ "$tx" = "$seen" ] && [ "$tx" -gt 1 ]; then
		pass "$1: node 3 tx heartbeat $tx = heartbeats seen on the wire $seen"
	else
		fail "$1: node 3 tx heartbeat $tx, heartbeats seen on the wire $seen"
	fi
}

sleep "$(elec_sec 2.5)"	# a few heartbeats
log "case 1: group stop on leader 3"
mark=$(wc -l <"$SNIFF")
check "group stop on 3" elec_ctl 3 group stop dev eth0 group 1
elec_agree 1 2 "$ELEC_BOUND" 0 1 2
check_resign "group stop" "$mark"
sleep 0.3
tx_hb_matches "group stop"
check "group start on 3" elec_ctl 3 group start dev eth0 group 1
elec_agree 1 3

sleep "$(elec_sec 2.5)"
log "case 2: eth0 of leader 3 set down"
mark=$(wc -l <"$SNIFF")
check "eth0 of 3 down" ip -n en3 link set eth0 down
elec_agree 1 2 "$ELEC_BOUND" 0 1 2
check_resign "device down" "$mark"
tx_hb_matches "device down"
check "eth0 of 3 up" ip -n en3 link set eth0 up
elec_agree 1 3

sleep "$(elec_sec 2.5)"
log "case 3: group del on leader 3"
mark=$(wc -l <"$SNIFF")
check "group del on 3" elec_ctl 3 group del dev eth0 group 1
elec_agree 1 2 "$ELEC_BOUND" 0 1 2
check_resign "group del" "$mark"
elec_group_setup 1 3
check "group start on 3" elec_ctl 3 group start dev eth0 group 1
elec_agree 1 3

# node 3's instance is new since case 3: let its heartbeat timer run twice
sleep "$(elec_sec 2.5)"
log "timer lateness on every node (node 3 has led for seconds: its heartbeat timer ran)"
for id in 1 2 3; do
	min=0
	[ "$id" = 3 ] && min=1
	check "node $id: timer_late has 22 buckets summing to count >= $min, max_ns > 0 if count > 0" \
		bash -c "ip netns exec en$id $ELEC_CTL -j stats dev eth0 group 1 | python3 -c '
import json, sys
t = json.load(sys.stdin)[0][\"timer_late\"]
print(t)
b, n = t[\"buckets\"], t[\"count\"]
sys.exit(0 if len(b) == 22 and n >= $min and sum(b) == n and (t[\"max_ns\"] > 0) == (n > 0) else 1)'"
done
check "stats text: a timer_late line" \
	bash -c "ip netns exec en3 $ELEC_CTL stats dev eth0 group 1 | grep -E 'timer_late count [1-9][0-9]* max [1-9]'"

sleep "$(elec_sec 2.5)"
log "case 4: a crash (namespace of leader 3 deleted) sends nothing"
kill "${MON_PIDS[3]}" 2>/dev/null; wait "${MON_PIDS[3]}" 2>/dev/null	# it would keep en3 alive
mark=$(wc -l <"$SNIFF")
check "namespace of 3 deleted" elec_node_crash 3
elec_agree 1 2 "$ELEC_BOUND" 0 1 2
check "crash: no LEAVING heartbeat on the wire" python3 -c '
import json, sys
fl = [l for l in open(sys.argv[1]).read().splitlines()[int(sys.argv[2]):]
      if json.loads(l)["flags"]]
print(len(fl), "flagged frames since the crash")
sys.exit(1 if fl else 0)' "$SNIFF" "$mark"

log "case 5: rmmod while 2 leads"
for id in 1 2; do kill "${MON_PIDS[id]}" 2>/dev/null; done
sleep "$(elec_sec 1.5)"
mark=$(wc -l <"$SNIFF")
check "rmmod election" rmmod election
sleep 0.5
check "rmmod: one LEAVING heartbeat, from leader 2 only" python3 -c '
import json, sys
fs = [json.loads(l) for l in open(sys.argv[1]).read().splitlines()[int(sys.argv[2]):]]
fl = [(f["src"], f["type"]) for f in fs if f["flags"] & 1]
print("flagged frames since rmmod:", fl)
sys.exit(0 if fl == [(2, 4)] else 1)' "$SNIFF" "$mark"
kill "$SNIFF_PID" 2>/dev/null
wait "$SNIFF_PID" 2>/dev/null
rm -rf "$TMPD"
elec_end
