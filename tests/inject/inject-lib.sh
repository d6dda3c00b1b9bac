# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# tests/inject/inject-lib.sh: helpers of the VM scenarios that inject
# frames with elec-inject (94-inject, 95-inject-volume). Sourced after
# tests/vm/lib.sh, inside the guest.
#
#   INJ_TIMING                the timing both scenarios give their groups
#   inj_need                  elec-inject and drops.py are there (make)
#   inj_nodes_spec ID...      "3@02:e1:00:00:00:03,17@..." for elec-inject's
#                             nodes (lib.sh's MACs)
#   inj_run NS ARGS...        elec-inject -j ARGS in namespace en<NS>: the
#                             report in $INJ_TMP/report-N.json (N counts up)
#                             and report.json, its name added to INJ_REPORTS;
#                             the tool's text summary printed
#   inj_snap NAME             every node's (ELEC_NODES) state and counters
#                             into $INJ_TMP/NAME.json
#   inj_check LABEL A B [ARGS]  drops.py check of snapshots A, B against the
#                             reports of INJ_REPORTS (the commands run since
#                             the last check: take A first), which it
#                             empties; its PASS/FAIL lines counted
#   inj_softnet_dropped       frames the kernel dropped before any handler
#                             (per-CPU backlog full), summed over CPUs
#   inj_klog_clean LABEL      no Oops, BUG, WARNING in dmesg
#   inj_batch_setup G:ALGO[:OPTS]...  on every node (ELEC_NODES), in one
#                             electionctl batch each (nodes in parallel):
#                             group add G (ELEC_TIMING, OPTS with '+' for
#                             blanks: quorum+on) with every other node as a peer
#   inj_batch_start G...      group start of those groups, one batch a node
#   inj_settle G:LEADER,...   every node follows LEADER in each group at one
#                             term, for 1 s, within ELEC_BOUND (drops.py settle)
#   inj_monitor_start         electionctl -ts monitor on every node (ELEC_NODES),
#                             into $INJ_TMP/monitor-ID.log; inj_monitor_stop
#   inj_monitor_mark          the logs' line counts now
#   inj_monitor_since MARK    print the events logged since MARK (indented)

# A detection window of 2 s: the scenarios assert that no node begins an
# election across a section (seconds of electionctl calls under TCG), and a
# TCG guest on a busy host stalls for more than lib.sh's 0.5 s now and then
# (every overdue timer then fires at once: a follower's detector before the
# leader's late heartbeat, peer_down and peer_up 0.4 ms apart).
# shellcheck disable=SC2034 # used by the scenarios
INJ_TIMING="hb-interval $(elec_dur 250ms) hb-miss 8 timeout $(elec_dur 100ms) coord-timeout $(elec_dur 400ms)"

INJ=$ELEC_REPO/tests/inject/elec-inject
INJ_DROPS=$ELEC_REPO/tests/inject/drops.py
INJ_TMP=$(mktemp -d)

inj_need() {
	[ -x "$INJ" ] || { fail "$INJ is not built (make)"; return 1; }
	[ -f "$INJ_DROPS" ] || { fail "$INJ_DROPS is missing"; return 1; }
}

inj_nodes_spec() {
	local id s=
	for id in "$@"; do
		s+="${s:+,}$id@$(elec_mac "$id")"
	done
	echo "$s"
}

INJ_REPORTS=()
INJ_NRUN=0

inj_run() {
	local ns=en$1 rc rep
	shift
	INJ_NRUN=$((INJ_NRUN + 1))
	rep=$INJ_TMP/report-$INJ_NRUN.json
	# the JSON report on stdout, its text on stderr
	ip netns exec "$ns" "$INJ" -j "$@" >"$rep" 2>"$INJ_TMP/stderr"
	rc=$?
	sed 's/^/    /' "$INJ_TMP/stderr"
	if [ $rc != 0 ]; then
		fail "elec-inject $* (exit $rc)"
		return $rc
	fi
	cp "$rep" "$INJ_TMP/report.json"
	INJ_REPORTS+=("$rep")
}

inj_snap() {
	local id nodes=()
	for id in "${ELEC_NODES[@]}"; do
		nodes+=("en$id:$id")
	done
	python3 "$INJ_DROPS" snap "$INJ_TMP/$1.json" "${nodes[@]}" ||
		{ fail "snapshot $1"; return 1; }
}

inj_check() {
	local label=$1 a=$2 b=$3 out rc np nf
	shift 3
	if [ ${#INJ_REPORTS[@]} = 0 ]; then
		fail "$label: no elec-inject report to check"
		return 1
	fi
	out=$(python3 "$INJ_DROPS" check "$INJ_TMP/$a.json" "$INJ_TMP/$b.json" \
		"${INJ_REPORTS[@]}" --label "$label" "$@" 2>&1)
	rc=$?
	INJ_REPORTS=()
	printf '%s\n' "$out" | grep -v '^drops.py: [0-9]* passed'
	np=$(printf '%s\n' "$out" | grep -c '^PASS:')
	nf=$(printf '%s\n' "$out" | grep -c '^FAIL:')
	ELEC_PASS=$((ELEC_PASS + np))
	ELEC_FAIL=$((ELEC_FAIL + nf))
	if [ $rc != 0 ] && [ "$nf" = 0 ]; then
		fail "$label: drops.py check exit $rc"
	fi
	return $rc
}

inj_softnet_dropped() {
	local sum=0 a b rest
	while read -r a b rest; do
		sum=$((sum + 16#$b))
	done </proc/net/softnet_stat
	echo "$sum"
}

inj_klog_clean() {
	local bad
	bad=$(dmesg | grep -E 'Oops|BUG:|WARNING:|general protection|Call Trace' | head -n 5)
	if [ -z "$bad" ]; then
		pass "$1: no Oops, BUG or WARNING in the kernel log"
	else
		fail "$1: the kernel log has: $bad"
	fi
}

INJ_MON_PIDS=()

inj_monitor_start() {
	local id
	for id in "${ELEC_NODES[@]}"; do
		ip netns exec "en$id" "$ELEC_CTL" -ts monitor >"$INJ_TMP/monitor-$id.log" 2>&1 &
		INJ_MON_PIDS+=($!)
	done
	sleep "$(elec_sec 0.5)"
}

inj_monitor_stop() {
	local pid
	for pid in "${INJ_MON_PIDS[@]}"; do
		kill "$pid" 2>/dev/null
		wait "$pid" 2>/dev/null
	done
	INJ_MON_PIDS=()
}

# "ID:LINES ID:LINES ..."
inj_monitor_mark() {
	local id out=
	for id in "${ELEC_NODES[@]}"; do
		out+="$id:$(wc -l <"$INJ_TMP/monitor-$id.log") "
	done
	echo "$out"
}

inj_monitor_since() {
	local m id n
	for m in $1; do
		id=${m%%:*}
		n=${m#*:}
		tail -n +"$((n + 1))" "$INJ_TMP/monitor-$id.log" | head -n 20 |
			sed "s/^/      node $id: /"
	done
}

# run one batch file per node (ELEC_NODES) in parallel: inj_batches NAME
inj_batches() {
	local id pids=() rc=0
	for id in "${ELEC_NODES[@]}"; do
		elec_ctl "$id" -batch "$INJ_TMP/$1-$id.batch" &
		pids+=($!)
	done
	for id in "${pids[@]}"; do
		wait "$id" || rc=1
	done
	return $rc
}

inj_batch_setup() {
	local id spec g algo opts p
	for id in "${ELEC_NODES[@]}"; do
		for spec in "$@"; do
			IFS=: read -r g algo opts <<<"$spec"
			echo "group add dev eth0 group $g id $id algo $algo ${opts//+/ } $ELEC_TIMING"
			for p in "${ELEC_NODES[@]}"; do
				[ "$p" = "$id" ] && continue
				echo "peer add dev eth0 group $g id $p lladdr $(elec_mac "$p")"
			done
		done >"$INJ_TMP/setup-$id.batch"
	done
	local what=
	for spec in "$@"; do
		spec=${spec%:}
		what+="${what:+, }${spec//+/ }"
	done
	check "groups $what configured on ${ELEC_NODES[*]} (one batch a node)" \
		inj_batches setup
}

inj_batch_start() {
	local id g
	for id in "${ELEC_NODES[@]}"; do
		for g in "$@"; do
			echo "group start dev eth0 group $g"
		done >"$INJ_TMP/start-$id.batch"
	done
	check "groups $* started on ${ELEC_NODES[*]}" inj_batches start
}

inj_settle() {
	local id nodes=() out rc
	for id in "${ELEC_NODES[@]}"; do
		nodes+=("en$id:$id")
	done
	out=$(python3 "$INJ_DROPS" settle "$1" "$ELEC_BOUND" 1 "${nodes[@]}" 2>&1)
	rc=$?
	printf '%s\n' "$out"
	ELEC_PASS=$((ELEC_PASS + $(printf '%s\n' "$out" | grep -c '^PASS:')))
	ELEC_FAIL=$((ELEC_FAIL + $(printf '%s\n' "$out" | grep -c '^FAIL:')))
	[ $rc = 0 ] || [ "$(printf '%s\n' "$out" | grep -c '^FAIL:')" -gt 0 ] ||
		fail "drops.py settle exit $rc"
	return $rc
}
