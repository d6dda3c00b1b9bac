#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The election: tracepoints, and one failover read from them phase by phase.
#
# The five events exist under tracefs events/election (election_rx,
# election_tx, election_timer, election_role, election_drop) with their
# formats. Three nodes (bully), agreed on 3; the trace buffer is cleared,
# node 3's switch port goes down (a silent crash), the survivors agree on
# 2. Node 2's events must hold, in this order: its detect timer expiring
# (with a lateness), an ELECTION sent to 3, its role turning candidate, its
# answer timer expiring, a COORDINATOR sent to 1, its role turning leader
# with leader 2; node 1's: a COORDINATOR received from 2, then its role
# follower with leader 2. A # frame for a group no instance has is traced as a drop (wrong_group).
# Prints the failover's timeline from node 2's events (the admin guide's
# worked example) and, when trace-cmd is installed, records the same with
# it.
. tests/vm/lib.sh
elec_begin

T=/sys/kernel/tracing
[ -d "$T/events" ] || mount -t tracefs tracefs "$T" 2>/dev/null
[ -d "$T/events" ] || T=/sys/kernel/debug/tracing
TMPD=$(mktemp -d)

elec_load || elec_end
for ev in election_rx election_tx election_timer election_role election_drop; do
	if [ -f "$T/events/election/$ev/format" ]; then
		pass "tracepoint election:$ev ($(grep -c 'field:' "$T/events/election/$ev/format") fields)"
	else
		fail "no tracepoint election:$ev in $T/events/election"
	fi
done

elec_topo 1 2 3 || elec_end
elec_group_setup 1 || elec_end
elec_start_all 1
elec_agree 1 3

# the dynamic-debug line per leader change, off by default
DDC=/sys/kernel/debug/dynamic_debug/control
if [ -w "$DDC" ]; then
	echo 'module election +p' >"$DDC"
	dmesg -C 2>/dev/null
else
	log "(no dynamic_debug control: the kernel log line is not checked)"
fi
echo 0 >"$T/tracing_on"
echo >"$T/trace"
echo 8192 >"$T/buffer_size_kb"
echo 1 >"$T/events/election/enable"
echo 1 >"$T/tracing_on"
# a silent crash: node 3's switch port goes down (its carrier with it: it
# stops, and any frame it sends is lost), so the others must notice the
# silence (deleting its namespace would send a LEAVING heartbeat)
ip -n esw link set p3 down
elec_agree 1 2 "$ELEC_BOUND" 0 1 2
# a frame for group 9, which nobody has: a drop the trace names
check "a HEARTBEAT for group 9 from node 1" \
	ip netns exec en1 python3 "$ELEC_PY" forge --dev eth0 --group 9 --type heartbeat --src 1
sleep "$(elec_sec 0.3)"
echo 0 >"$T/tracing_on"
cp "$T/trace" "$TMPD/trace"
echo 0 >"$T/events/election/enable"
if [ -w "$DDC" ]; then
	echo 'module election -p' >"$DDC"
	if dmesg | grep -qE 'election: eth0 group 1 id 2: leader 2 term [0-9]+'; then
		pass "dynamic debug: the kernel log names node 2's new leader ($(dmesg | grep -m1 -oE 'election: eth0 group 1 id 2: leader 2 term [0-9]+'))"
	else
		fail "dynamic debug: no 'election: eth0 group 1 id 2: leader 2' line in the kernel log"
	fi
fi
log "trace: $(grep -c 'election_' "$TMPD/trace") election events"

# the events of node ID, as "time event fields" lines
python3 - "$TMPD/trace" >"$TMPD/report" <<'EOF'
import re, sys
evs = []
for line in open(sys.argv[1]):
    m = re.search(r"\s(\d+\.\d+): (election_\w+): (.*)$", line)
    if not m:
        continue
    f = dict(kv.split("=", 1) for kv in m.group(3).split() if "=" in kv)
    evs.append((float(m.group(1)), m.group(2), f))

def seq_in(node, steps):
    """the steps, in order, among node's events; returns their times"""
    times, i = [], 0
    for t, name, f in evs:
        if i < len(steps) and f.get("id") == node and steps[i](name, f):
            times.append(t)
            i += 1
    return times if i == len(steps) else None

# one input's frames are traced as it sends them, its role change once it
# is done: the ELECTION comes before "candidate", the COORDINATOR before
# "leader"
n2 = [
    ("detect timer: 3 silent", lambda n, f: n == "election_timer" and f.get("timer") == "detect"),
    ("ELECTION sent to 3", lambda n, f: n == "election_tx" and f.get("type") == "election" and f.get("dst") == "3"),
    ("role candidate", lambda n, f: n == "election_role" and f.get("role") == "candidate"),
    ("answer timer: no answer", lambda n, f: n == "election_timer" and f.get("timer") == "answer"),
    ("COORDINATOR sent to 1", lambda n, f: n == "election_tx" and f.get("type") == "coordinator" and f.get("dst") == "1"),
    ("role leader, leader 2", lambda n, f: n == "election_role" and f.get("role") == "leader" and f.get("leader") == "2"),
]
n1 = [
    ("COORDINATOR from 2", lambda n, f: n == "election_rx" and f.get("type") == "coordinator" and f.get("src") == "2"),
    ("role follower, leader 2", lambda n, f: n == "election_role" and f.get("role") == "follower" and f.get("leader") == "2"),
]
t2 = seq_in("2", [s for _, s in n2])
t1 = seq_in("1", [s for _, s in n1])
print("node2", "ok" if t2 else "missing")
print("node1", "ok" if t1 else "missing")
late = [f.get("late_ns") for t, n, f in evs if n == "election_timer" and f.get("id") == "2" and f.get("timer") == "detect"]
print("late", "ok" if late and all(x.lstrip("-").isdigit() for x in late) else "missing")
drop = [f for t, n, f in evs if n == "election_drop" and f.get("reason") == "wrong_group" and f.get("group") == "9"]
print("drop", "ok" if drop else "missing")
if t2:
    print("timeline of node 2 (ms after its detect timer fired):")
    for (what, _), t in zip(n2, t2):
        print("  %8.3f  %s" % ((t - t2[0]) * 1e3, what))
EOF
sed 's/^/    /' "$TMPD/report"
grep -q '^node2 ok' "$TMPD/report" && pass "node 2: detect timer, candidate, ELECTION to 3, answer timer, leader 2, COORDINATOR, in order" ||
	fail "node 2's failover sequence is not in the trace"
grep -q '^node1 ok' "$TMPD/report" && pass "node 1: COORDINATOR from 2, then follower of 2" ||
	fail "node 1's sequence is not in the trace"
grep -q '^late ok' "$TMPD/report" && pass "election_timer carries late_ns" || fail "no late_ns on node 2's detect timer"
grep -q '^drop ok' "$TMPD/report" && pass "a frame for group 9: election_drop reason=wrong_group" ||
	fail "no election_drop wrong_group for group 9"

if command -v trace-cmd >/dev/null; then
	log "--- trace-cmd record -e election, one more failover (node 2's port goes down)"
	cd "$TMPD" || elec_end
	# until SIGINT; the port goes down once it records, and it stops once
	# node 1 leads (a loaded host delays both: no fixed sleep)
	trace-cmd record -e election -o "$TMPD/trace.dat" >"$TMPD/tc.log" 2>&1 &
	tc=$!
	for _ in $(seq 1 100); do
		[ "$(cat $T/events/election/enable 2>/dev/null)" = 1 ] && break
		sleep 0.1
	done
	sleep "$(elec_sec 1)"
	ip -n esw link set p2 down
	for _ in $(seq 1 $((${ELEC_BOUND%.*} * 10))); do
		[ "$(elec_ctl 1 -j show dev eth0 group 1 | elec_json 'd[0]["role"]')" = leader ] && break
		sleep 0.1
	done
	sleep "$(elec_sec 0.5)"
	kill -INT "$tc"
	wait "$tc"
	sed 's/^/    trace-cmd: /' "$TMPD/tc.log" | tail -n 3
	cd "$ELEC_REPO" || elec_end
	n=$(trace-cmd report -i "$TMPD/trace.dat" 2>/dev/null | grep -c 'election_role:.*id=1 role=leader leader=1')
	if [ "$n" -ge 1 ]; then
		pass "trace-cmd report: node 1 took over"
		trace-cmd report -i "$TMPD/trace.dat" 2>/dev/null |
			grep -E 'election_(timer|role|tx).*id=1 ' | head -n 12 | sed 's/^/    /'
	else
		fail "trace-cmd report: no election_role of node 1 as leader"
	fi
else
	log "(trace-cmd not installed: the trace-cmd part is skipped)"
fi

for id in "${ELEC_NODES[@]}"; do
	elec_ctl "$id" group del dev eth0 group 1
done
ip -n esw link set p2 up
ip -n esw link set p3 up
elec_leak_check
rm -rf "$TMPD"
elec_end
