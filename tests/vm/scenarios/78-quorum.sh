#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Quorum for the Bully algorithms (quorum on), 5 nodes (ids 1..5), default
# timing (hb-interval 100ms hb-miss 5 timeout 100ms: lease 300ms). The
# switch has two bridges, br0 and br1, joined by a veth pair (bl0 on br0,
# bl1 on br1), as in 77-invitation: taking the pair down splits the nodes
# into the two bridges' sides, each still connected inside; bringing it
# up heals it. p1..p3 start on br0, p4 and p5 on br1; p3 moves to br1
# for the splits {1,2} | {3,4,5}.
#
#  1. the kernel's refusals (electionctl --unchecked; extack message,
#     nothing created or changed): quorum on a ring and an invitation
#     group, hb-miss 2, the timing rule at its boundary, group set of
#     hb-miss 2 and of quorum on a running group; electionctl's own
#     refusal on a ring; show -j quorum true / false
#  2. start: all agree on 5 (role leader); every non-leader's tx.alive
#     grows, the leader's does not (it receives them)
#  3. split {1,2,3} | {4,5} (the leader on the minority side): 5 steps
#     down (role follower, no leader, quorum_lost + 1), 4 and 5 stay
#     without a leader, 1..3 agree on 3. elec.py watch reads every node's
#     role every 20 ms (GROUP_GET) and records the kernel's events: no
#     two nodes in role leader at once, neither in any poll round nor in
#     the role intervals rebuilt from the leader_changed events' ts_ns
#     (which must agree with every poll)
#  4. heal: all agree on 5 again (still watched: one leader at a time)
#  5. split {1,2} | {3,4,5} (the leader on the majority side): 5 keeps
#     its role throughout, 1 and 2 have no leader; heal
#  6. quorum off (group set while stopped), split {1,2,3} | {4,5}: two
#     leaders (5 keeps leading alone); logged, not asserted
#  7. min-bully with quorum on (leader 1, the lowest id), split {1,2} |
#     {3,4,5}: 1 steps down, 3 leads the majority, never two leaders;
#     heal: 1 again
# shellcheck disable=SC2046,SC2154 # $(nodes_of ...): words without blanks; R_*: eval
. tests/vm/lib.sh
elec_begin

NODES=(1 2 3 4 5)
TMPD=$(mktemp -d)
G=1

elec_load || elec_end
elec_topo "${NODES[@]}" || elec_end
check "a second bridge br1 in the switch" ip -n esw link add br1 type bridge stp_state 0 forward_delay 0
check "br1 up" ip -n esw link set br1 up
check "the link between the bridges" ip -n esw link add bl0 type veth peer name bl1
check "bl0 on br0" ip -n esw link set bl0 master br0 up
check "bl1 on br1" ip -n esw link set bl1 master br1 up
for id in 4 5; do
	check "p$id on br1" ip -n esw link set "p$id" master br1
done
# A long-lived `ip -batch` in the switch's namespace takes the splits and
# heals: each is one write to it, the time taken just before
# ($EPOCHREALTIME, no process), without the 0.1-1 s a new ip process
# costs a TCG guest between that time and the link's change. T_SPLIT,
# T_HEAL: CLOCK_REALTIME ns (the origin of elec.py roles' times).
coproc IPB { ip -n esw -batch - 2>&1; }
bl0_up() { ip -n esw -o link show bl0 | grep -q '[<,]UP[,>]'; }
bl0_set() {
	local i
	echo "link set bl0 $1" >&"${IPB[1]}" || return 1
	for i in $(seq 100); do
		if bl0_up; then [ "$1" = up ] && return 0; else [ "$1" = down ] && return 0; fi
		sleep 0.05
	done
	echo "bl0 not $1: $(ip -n esw -o link show bl0)"
	return 1
}
split() { T_SPLIT=${EPOCHREALTIME/./}000; bl0_set down; }
heal() { T_HEAL=${EPOCHREALTIME/./}000; bl0_set up; }
nodes_of() { local id; for id in "$@"; do echo "en$id:$id"; done; }
# sides L1 "IDS1" L2 "IDS2" STABLE: within ELEC_BOUND, side 1 agrees on
# leader L1 (0: nobody leads, claims or follows), side 2 on L2; holds STABLE s
# shellcheck disable=SC2086 # IDS split into ids
sides() {
	local a b
	a=$(nodes_of $2 | paste -sd,)
	b=$(nodes_of $4 | paste -sd,)
	elec_py sides --group "$G" --timeout "$ELEC_BOUND" --stable "$5" "$1=$a" "$3=$b"
}
# secs A B: B - A (ns) in seconds
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.4f", (b - a) / 1e9 }'; }
# within LO X HI: LO < X < HI (numbers; "None" fails; "<=" after HI: X <= HI)
within() {
	[ "$1" != None ] && [ "$2" != None ] && [ "$3" != None ] &&
		awk -v lo="$1" -v x="$2" -v hi="$3" -v le="${4:-}" \
			'BEGIN { exit !(lo < x && (le ? x <= hi : x < hi)) }'
}

# the kernel's refusals (electionctl refuses some itself: --unchecked)
refused_with() {
	local desc=$1 msg=$2 out rc
	shift 2
	out=$("$@" 2>&1)
	rc=$?
	if [ $rc != 0 ] && grep -qF -- "$msg" <<<"$out"; then
		pass "$desc: refused with \"$msg\""
	else
		fail "$desc: rc=$rc, want a refusal naming \"$msg\": $out"
	fi
}
# show_all EXPR ID[@GROUP]...: EXPR over each node's -j show object (d) of
# group $G (or GROUP), one line per node, in one python run
show_all() {
	local expr=$1 x
	shift
	for x in "$@"; do
		if [[ $x == *@* ]]; then
			elec_ctl "${x%@*}" -j show dev eth0 group "${x#*@}"
		else
			elec_ctl "$x" -j show dev eth0 group "$G"
		fi
	done |
		python3 -c 'import json, sys
dec, s, i = json.JSONDecoder(), sys.stdin.read(), 0
while s[i:].strip():
    while s[i].isspace():
        i += 1
    d, i = dec.raw_decode(s, i)
    print(eval(sys.argv[1])(d[0]))' "lambda d: $expr"
}

log "--- 1. refusals, show"
NOBULLY="quorum applies to the Bully algorithms only"
TIMING="quorum needs hb-interval x (hb-miss - 2) above 1.5 x timeout"
refused_with "kernel: GROUP_NEW ring quorum on" "$NOBULLY" \
	elec_ctl 1 --unchecked group add dev eth0 group 2 id 1 algo ring quorum on
refused_with "kernel: GROUP_NEW invitation quorum on" "$NOBULLY" \
	elec_ctl 1 --unchecked group add dev eth0 group 2 id 1 algo invitation quorum on
refused_with "kernel: GROUP_NEW bully quorum on hb-miss 2" "$TIMING" \
	elec_ctl 1 --unchecked group add dev eth0 group 2 id 1 algo bully quorum on \
	hb-interval 1s hb-miss 2 timeout 1ms
refused_with "kernel: GROUP_NEW quorum on, 2 x 150ms x (3 - 2) = 3 x 100ms (not above)" "$TIMING" \
	elec_ctl 1 --unchecked group add dev eth0 group 2 id 1 algo bully quorum on \
	hb-interval 150ms hb-miss 3 timeout 100ms
check_fails "group 2 was not created" elec_ctl 1 show dev eth0 group 2
refused_with "electionctl: quorum on a ring" "$NOBULLY: algo bully, min-bully or enh-bully only (not \"ring\")" \
	elec_ctl 1 group add dev eth0 group 2 id 1 algo ring quorum on
check_fails "group 2 was not created" elec_ctl 1 show dev eth0 group 2
check "GROUP_NEW quorum on, 2 x 151ms x (3 - 2) above 3 x 100ms: accepted" \
	elec_ctl 1 group add dev eth0 group 2 id 1 algo bully quorum on \
	hb-interval 151ms hb-miss 3 timeout 100ms
check "group add bully without quorum (group 3)" elec_ctl 1 group add dev eth0 group 3 id 1 algo bully
got=$(show_all 'd["quorum"]' 1@2 1@3 | xargs)
check "show -j: quorum true on group 2, false on group 3 (created without it): $got" \
	test "$got" = "True False"
check "group del 2" elec_ctl 1 group del dev eth0 group 2
check "group del 3" elec_ctl 1 group del dev eth0 group 3

ELEC_GROUP_OPTS="quorum on" elec_group_setup $G
refused_with "kernel: GROUP_SET hb-miss 2 on a (stopped) quorum group" "$TIMING" \
	elec_ctl 1 --unchecked group set dev eth0 group $G hb-miss 2
got=$(show_all '(d["quorum"], d["hb_miss"])' "${NODES[@]}" | sort -u)
check "show -j on every node: quorum true, hb-miss 5 (unchanged): $got" test "$got" = "(True, 5)"

log "--- 2. start"
elec_start_all $G
elec_agree $G 5 "$ELEC_BOUND"
refused_with "kernel: GROUP_SET quorum off on a running follower" \
	"quorum can be changed only while the group is stopped" \
	elec_ctl 1 --unchecked group set dev eth0 group $G quorum off
refused_with "kernel: GROUP_SET quorum off on the running leader" \
	"quorum can be changed only while the group is stopped" \
	elec_ctl 5 --unchecked group set dev eth0 group $G quorum off
got=$(show_all '"%s/%s" % (d["quorum"], d["role"])' 1 5 | xargs)
check "quorum still true on 1 (follower) and 5 (leader): $got" \
	test "$got" = "True/follower True/leader"
# tx.alive and rx.alive of every node, read twice (STATS_GET, the nodes
# at once) $(elec_sec 1)s apart, in one python run
got=$(python3 -c 'import sys, time
sys.path.insert(0, sys.argv[1])
import elec_lib as elec
nodes, g = elec.parse_nodes(sys.argv[4:]), int(sys.argv[2])
a = elec.all_stats(nodes, g, "eth0")
t = time.monotonic()
time.sleep(float(sys.argv[3]))
b = elec.all_stats(nodes, g, "eth0")
print("%.2f" % (time.monotonic() - t), " ".join("%s:%d:%d" % (
    n, b[n]["tx"]["alive"] - a[n]["tx"]["alive"],
    b[n]["rx"]["alive"] - a[n]["rx"]["alive"]) for n in sorted(a)))' \
	"$ELEC_REPO/tests/vm" $G "$(elec_sec 1)" $(nodes_of "${NODES[@]}"))
log "tx/rx alive over two stats reads (id:tx:rx; the first field: s between them): $got"
for x in $got; do
	[[ $x == *:* ]] || continue
	IFS=: read -r id tx rx <<<"$x"
	if [ "$id" = 5 ]; then
		check "node 5 (leader): tx.alive +$tx (0)" test "$tx" = 0
		check "node 5 (leader): rx.alive +$rx (>= 20: four followers)" test "$rx" -ge 20
	else
		check "node $id (follower): tx.alive +$tx (>= 5; hb-interval $(elec_dur 100ms), $(elec_sec 1)s pause)" \
			test "$tx" -ge 5
	fi
done
check "five nodes' counters read" test "$(wc -w <<<"$got")" = 6

# watch_start NAME: elec.py watch over every node into $TMPD/NAME.jsonl
watch_start() {
	local i
	WFILE=$TMPD/$1.jsonl
	python3 "$ELEC_PY" watch --group $G --interval 0.02 --out "$WFILE" \
		$(nodes_of "${NODES[@]}") >"$WFILE.log" 2>&1 &
	WPID=$!
	for i in $(seq 100); do grep -q watching "$WFILE.log" && break; sleep 0.1; done
	check "watcher: $(head -n 1 "$WFILE.log")" grep -q watching "$WFILE.log"
}
# watch_stop QUORUM ORIGIN_REAL_NS: stop it; R_* from elec.py roles --shell
# (none left from an earlier watch: a failed judgement leaves them unset,
# and set -u ends the scenario at the first use)
watch_stop() {
	local out
	kill "$WPID" 2>/dev/null
	wait "$WPID"
	sed 's/^/    /' "$WFILE.log"
	unset "${!R_@}"
	out=$(python3 "$ELEC_PY" roles --file "$WFILE" --quorum "$1" --origin-real "$2" \
		--timeline --shell 2>"$WFILE.timeline")
	check "elec.py roles judged the watch" grep -q '^R_rounds=' <<<"$out"
	eval "$out"
	[ -n "${RESULTS_DIR:-}" ] && cp "$WFILE" "$WFILE.timeline" "$RESULTS_DIR/" 2>/dev/null
	echo "    role leader intervals (s since the split): $R_intervals"
	echo "    quorum_lost growth per node: 1:$R_quorum_lost_1 2:$R_quorum_lost_2" \
		"3:$R_quorum_lost_3 4:$R_quorum_lost_4 5:$R_quorum_lost_5"
	echo "    leader_changed, election_started events (s since the split):"
	cat "$WFILE.timeline"
}
# one_leader_checks WHAT: the watch saw no two nodes in role leader at once
one_leader_checks() {
	local what=$1
	check "$what: the watcher polled $R_rounds rounds ($R_rows written) in ${R_span}s (one per $((50 * ELEC_TIMER_SCALE)) ms at least)" \
		awk -v n="$R_rounds" -v s="$R_span" -v k="$ELEC_TIMER_SCALE" 'BEGIN { exit !(n >= s * 20 / k) }'
	check "$what: every event seen ($R_events; lost $R_lost, seq gaps $R_seq_gaps)" \
		test "$R_lost $R_seq_gaps" = "0 0"
	check "$what: the role intervals rebuilt from the events agree with every poll (first: $R_mismatch_first)" \
		test "$R_mismatches" = 0
	check "$what: no poll round with two nodes in role leader (first: $R_coleader_first)" \
		test "$R_coleader_rounds" = 0
	check "$what: no two nodes' role leader intervals overlap (kernel ts_ns): $R_overlaps" \
		test "$R_overlaps" = "[]"
}

log "--- 3. split {1,2,3} | {4,5}: the leader on the minority side"
watch_start split1
sleep "$(elec_sec 0.3)"
check "split" split
t_split=$T_SPLIT
check "1..3 agree on 3; 4 and 5 without a leader (role follower); for $(elec_sec 3)s" \
	sides 3 "1 2 3" 0 "4 5" "$(elec_sec 3)"
log "--- 4. heal"
check "heal" heal
heal_s=$(secs "$t_split" "$T_HEAL")
elec_agree $G 5 "$ELEC_BOUND"
watch_stop on "$t_split"
one_leader_checks "split and heal"
check "node 5: quorum_lost +$R_quorum_lost_5 over the split and heal (1 at least)" \
	within 0 "$R_quorum_lost_5" 1000
check "node 5 stepped down ${R_down_5}s after the split (lease $(elec_dur 300ms); bound $(elec_sec 2)s)" \
	within 0 "$R_down_5" "$(elec_sec 2)"
check "node 3 took the role ${R_up_3}s after the split, after 5 left it, before the heal (${heal_s}s)" \
	within "$R_down_5" "$R_up_3" "$heal_s"
check "node 3 left it after the heal (${R_upend_3}s), before 5 took it again (${R_up_5}s)" \
	within "$heal_s" "$R_upend_3" "$R_up_5" le
check "nodes 1, 2 and 4 never in role leader" test "$R_led_1$R_led_2$R_led_4" = 000
log "MEASURED bully split: 5 stepped down after ${R_down_5}s, 3 leader after ${R_up_3}s" \
	"(gap $(awk -v a="$R_down_5" -v b="$R_up_3" 'BEGIN { printf "%.4f", b - a }')s);" \
	"heal at ${heal_s}s: 3 left at ${R_upend_3}s, 5 leader at ${R_up_5}s" \
	"(gap $(awk -v a="$R_upend_3" -v b="$R_up_5" 'BEGIN { printf "%.4f", b - a }')s)"

log "--- 5. split {1,2} | {3,4,5}: the leader on the majority side"
check "p3 on br1" ip -n esw link set p3 master br1
watch_start split2
sleep "$(elec_sec 0.3)"
check "split" split
t_split=$T_SPLIT
check "1 and 2 without a leader (role follower); 3..5 agree on 5; for $(elec_sec 2)s" \
	sides 0 "1 2" 5 "3 4 5" "$(elec_sec 2)"
check "heal" heal
elec_agree $G 5 "$ELEC_BOUND"
watch_stop on "$t_split"
one_leader_checks "split with the leader on the majority side"
check "node 5 in role leader throughout (one interval, from before the split to the end)" \
	test "$R_held_5" = 1
check "node 5: quorum_lost +$R_quorum_lost_5 over the split and heal (0)" test "$R_quorum_lost_5" = 0
check "no other node in role leader" test "$R_led_1$R_led_2$R_led_3$R_led_4" = 0000

log "--- 6. for comparison, quorum off: split {1,2,3} | {4,5}"
pids=()
for id in "${NODES[@]}"; do elec_ctl "$id" group stop dev eth0 group $G & pids+=($!); done
rc=0; for p in "${pids[@]}"; do wait "$p" || rc=1; done
check "group stop on every node" test $rc = 0
pids=()
for id in "${NODES[@]}"; do elec_ctl "$id" group set dev eth0 group $G quorum off & pids+=($!); done
rc=0; for p in "${pids[@]}"; do wait "$p" || rc=1; done
check "group set quorum off on the stopped group (every node)" test $rc = 0
got=$(show_all 'd["quorum"]' "${NODES[@]}" | sort -u)
check "show -j: quorum false on every node ($got)" test "$got" = False
check "p3 back on br0" ip -n esw link set p3 master br0
elec_start_all $G
elec_agree $G 5 "$ELEC_BOUND"
watch_start split3
sleep "$(elec_sec 0.3)"
check "split" split
t_split=$T_SPLIT
elec_agree $G 3 "$ELEC_BOUND" 0 1 2 3
check "heal" heal
heal_s=$(secs "$t_split" "$T_HEAL")
elec_agree $G 5 "$ELEC_BOUND"
watch_stop off "$t_split"
log "MEASURED quorum off: overlaps (a, b, from, to, s) $R_overlaps; poll rounds with two leaders" \
	"$R_coleader_rounds; 3 leader after ${R_up_3}s, heal at ${heal_s}s, 3 left at ${R_upend_3}s"
log "quorum off: two nodes in role leader for ${R_overlap_total}s in all (5 kept leading alone; not asserted)"

log "--- 7. min-bully, quorum on: split {1,2} | {3,4,5}, the leader (1) on the minority side"
pids=()
for id in "${NODES[@]}"; do elec_ctl "$id" group del dev eth0 group $G & pids+=($!); done
rc=0; for p in "${pids[@]}"; do wait "$p" || rc=1; done
check "group $G deleted on every node" test $rc = 0
G=3
check "p3 on br1" ip -n esw link set p3 master br1
ELEC_ALGO=min-bully ELEC_GROUP_OPTS="quorum on" elec_group_setup $G
elec_start_all $G
elec_agree $G 1 "$ELEC_BOUND"
watch_start split4
sleep "$(elec_sec 0.3)"
check "split" split
t_split=$T_SPLIT
check "1 and 2 without a leader (role follower); 3..5 agree on 3; for $(elec_sec 2)s" \
	sides 0 "1 2" 3 "3 4 5" "$(elec_sec 2)"
check "heal" heal
heal_s=$(secs "$t_split" "$T_HEAL")
elec_agree $G 1 "$ELEC_BOUND"
watch_stop on "$t_split"
one_leader_checks "min-bully split and heal"
check "node 1: quorum_lost +$R_quorum_lost_1 over the split and heal (1 at least)" \
	within 0 "$R_quorum_lost_1" 1000
check "node 1 stepped down ${R_down_1}s after the split (lease $(elec_dur 300ms); bound $(elec_sec 2)s)" \
	within 0 "$R_down_1" "$(elec_sec 2)"
check "node 3 took the role ${R_up_3}s after the split, after 1 left it, before the heal (${heal_s}s)" \
	within "$R_down_1" "$R_up_3" "$heal_s"
check "node 3 left it after the heal (${R_upend_3}s), before 1 took it again (${R_up_1}s)" \
	within "$heal_s" "$R_upend_3" "$R_up_1" le
check "nodes 2, 4 and 5 never in role leader" test "$R_led_2$R_led_4$R_led_5" = 000
log "MEASURED min-bully split: 1 stepped down after ${R_down_1}s, 3 leader after ${R_up_3}s" \
	"(gap $(awk -v a="$R_down_1" -v b="$R_up_3" 'BEGIN { printf "%.4f", b - a }')s);" \
	"heal at ${heal_s}s: 3 left at ${R_upend_3}s, 1 leader at ${R_up_1}s"

elec_teardown $G
check "rmmod election" rmmod election
ipb_fd=${IPB[1]}
exec {ipb_fd}>&-	# ip -batch ends at EOF
wait "$IPB_PID" 2>/dev/null
rm -rf "$TMPD"
elec_end
