# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# tests/vm/lib.sh: helpers for the integration scenarios. Sourced by a
# scenario that runs inside the VM (tests/vm/run), as root, with the
# repository root as working directory.
#
# Topology: a switch namespace "esw" holding bridge br0; node ID lives in
# namespace "en<ID>" with one interface eth0 (MAC 02:e1:<ID as 4 bytes>),
# a veth whose other end p<ID> is a port of br0.
#
#   elec_begin              strict mode, cleanup trap, counters
#   elec_load [PARAM=V..]   modprobe veth bridge; insmod $ELEC_KO
#   elec_modprobe MOD...    modprobe, unless the kernel has no modules
#                           installed (the debug kernel: all built in)
#   elec_dur VALUE          VALUE (100ms, 1s, 250us) times ELEC_TIMER_SCALE,
#                           as electionctl reads durations (400ms)
#   elec_sec VALUE          the same in seconds, for sleep and --timeout (0.4)
#   elec_topo ID...         switch + one namespace per node
#   elec_node_add ID        one more node (also to bring a crashed one back)
#   elec_node_crash ID      delete its namespace (its device and instance go)
#   elec_ctl ID ARGS...     electionctl ARGS inside node ID's namespace
#   elec_group_setup G [ID...]  on every node (or the IDs): group add (algo
#                           $ELEC_ALGO, pos $ELEC_POS[ID], $ELEC_GROUP_OPTS,
#                           timing $ELEC_TIMING) and every other node as a
#                           peer (pos $ELEC_POS[peer]); instances stay stopped
#   elec_pos ID             ID's ring position: ${ELEC_POS[ID]}, else the id
#   elec_ring_order [ID...] the nodes (default: every node) in ring order,
#                           ascending (position, id)
#   elec_start_all G        group start everywhere, in parallel
#   elec_agree G ID [BOUND [STABLE [ID...]]]  the nodes agree on leader ID
#   elec_peer_alive G ID PEER true|false   node ID's view of PEER
#   elec_wait_for SEC CMD...  CMD succeeds within SEC seconds (tried every
#                           0.1 s, then once more)
#   elec_vip_on VIP WANT    within ELEC_BOUND, address VIP (no prefix) is on
#                           eth0 of exactly the nodes WANT (a list, maybe "")
#   elec_teardown G         group del everywhere, then the leak check
#   elec_leak_check         electionctl -j module reports 0/0/0
#   check DESC CMD...       PASS if CMD succeeds, else FAIL (shows output)
#   check_fails DESC CMD... PASS if CMD fails and prints a message
#   check_refused DESC PATTERN CMD...  PASS if CMD fails and its output
#                           has PATTERN (grep)
#   pass/fail DESC          record a result
#   elec_end                print "N passed, N failed", exit 0 or 1
#
# ELEC_DETECTOR (fixed or adaptive; DETECTOR=... make vmtest): every
# "group add" (spelled out, first) a scenario makes through elec_ctl or
# elec_group_setup gets
# "detector $ELEC_DETECTOR" unless it names a detector itself, so that the
# scenarios run with either failure detector; unset: the default (fixed).
# Tunables (environment): ELEC_TIMING (default: hb-interval 100ms hb-miss 5
# timeout 100ms coord-timeout 400ms, each duration scaled by
# ELEC_TIMER_SCALE), ELEC_BOUND (liveness bound in s for agreement after a
# change, default 20 x ELEC_TIMER_SCALE). The timing is generous on purpose:
# a TCG guest on a busy 2-core host can stall for tens of ms.
#   ELEC_TIMER_SCALE  integer >= 1, default 1: how much slower than the stock
#                    kernel this one runs. tests/vm/run sets it for the debug
#                    kernel (VM_KERNEL=debug: KASAN, lockdep, ...). A scenario
#                    writes every protocol timing as $(elec_dur 100ms) and
#                    every wait as ELEC_BOUND or $(elec_sec ...), so that its
#                    bounds widen with the kernel's slowness.
#   ELEC_KO          the module to insmod (default module/election.ko; the
#                    harness points it at a build against the debug kernel)
#
# Algorithm and ring (read by elec_group_setup; a scenario sets them after
# sourcing this file, or for one call: ELEC_ALGO=ring elec_group_setup 2):
#   ELEC_ALGO        algo of group add: bully (default), ring, ring-all,
#                    ring-list, min-bully, enh-bully, invitation
#   ELEC_GROUP_OPTS  extra group add keywords, word-split, e.g.
#                    "suppress off" (algo ring only); default none
#   ELEC_POS         associative array, node id -> ring position: node ID
#                    gets "group add ... pos ${ELEC_POS[ID]}" and every
#                    other node "peer add ... id ID ... pos ${ELEC_POS[ID]}";
#                    ids without an entry get no pos keyword (position = id).
#                    Example: ELEC_POS=([3]=4 [17]=1 [42]=2)

ELEC_REPO=${ELECTION_REPO:-$(pwd)}
ELEC_CTL=$ELEC_REPO/userspace/electionctl
ELEC_KO=${ELEC_KO:-$ELEC_REPO/module/election.ko}
# shellcheck disable=SC2034 # the long runs that source this file call it
ELEC_PY=$ELEC_REPO/tests/vm/elec.py
ELEC_TIMER_SCALE=${ELEC_TIMER_SCALE:-1}
case "$ELEC_TIMER_SCALE" in
'' | *[!0-9]* | 0*)
	echo "lib.sh: ELEC_TIMER_SCALE must be an integer >= 1, not '$ELEC_TIMER_SCALE'" >&2
	ELEC_TIMER_SCALE=1
	;;
esac

# elec_dur VALUE: VALUE ("100ms", "1s", "250us"; digits with an optional
# fraction, then us, ms or s) times ELEC_TIMER_SCALE, printed in the largest
# unit that keeps it an integer, as electionctl accepts it ("400ms"). An
# unreadable VALUE is printed unchanged, with a complaint on stderr.
elec_dur() {
	local v=$1 n u us
	if [[ $v =~ ^([0-9]+(\.[0-9]+)?)(us|ms|s)$ ]]; then
		n=${BASH_REMATCH[1]}
		u=${BASH_REMATCH[3]}
	else
		echo "elec_dur: not a duration: '$v'" >&2
		echo "$v"
		return 1
	fi
	# in bash integers: n = ip.fp, us = n * m * scale, rounded
	local ip=${n%%.*} fp='' m=1 den=1 fr=0
	[[ $n == *.* ]] && fp=${n#*.}
	case $u in s) m=1000000 ;; ms) m=1000 ;; esac
	if [ -n "$fp" ]; then
		fr=$((10#$fp))
		den=$((10 ** ${#fp}))
	fi
	us=$(( ((10#$ip * den + fr) * m * ELEC_TIMER_SCALE + den / 2) / den ))
	if [ $((us % 1000000)) = 0 ]; then
		echo "$((us / 1000000))s"
	elif [ $((us % 1000)) = 0 ]; then
		echo "$((us / 1000))ms"
	else
		echo "${us}us"
	fi
}

# elec_sec VALUE: the scaled duration of VALUE (as elec_dur reads it; a bare
# number is seconds) in seconds, for sleep and python --timeout ("0.4").
elec_sec() {
	local v=$1
	[[ $v =~ ^[0-9]+(\.[0-9]+)?$ ]] && v=${v}s
	v=$(elec_dur "$v") || { echo "$1"; return 1; }
	local us=${v%%[a-z]*} f
	case $v in *us) ;; *ms) us=$((us * 1000)) ;; *s) us=$((us * 1000000)) ;; esac
	if [ $((us % 1000000)) = 0 ]; then
		echo $((us / 1000000))
		return 0
	fi
	printf -v f '%06d' $((us % 1000000))
	while [ "${f%0}" != "$f" ]; do f=${f%0}; done
	echo "$((us / 1000000)).$f"
}

ELEC_TIMING=${ELEC_TIMING:-hb-interval $(elec_dur 100ms) hb-miss 5 timeout $(elec_dur 100ms) coord-timeout $(elec_dur 400ms)}
ELEC_BOUND=${ELEC_BOUND:-$((20 * ELEC_TIMER_SCALE))}
ELEC_ALGO=${ELEC_ALGO:-bully}
ELEC_GROUP_OPTS=${ELEC_GROUP_OPTS:-}
declare -gA ELEC_POS
ELEC_POS+=()	# set (for set -u), keeping entries a caller set before sourcing
ELEC_NODES=()		# ids of the nodes that exist now
ELEC_PASS=0
ELEC_FAIL=0
# (the helpers below use bash builtins where they can: every exec costs a
# TCG guest ~0.1 s, and a scenario runs these hundreds of times)
ELEC_T0=${EPOCHREALTIME/./}

log() {
	local d=$(( (${EPOCHREALTIME/./} - ELEC_T0) / 10000 ))
	printf '[%3d.%02d] %s\n' $((d / 100)) $((d % 100)) "$*"
}
pass() { ELEC_PASS=$((ELEC_PASS + 1)); echo "PASS: $*"; }
fail() { ELEC_FAIL=$((ELEC_FAIL + 1)); echo "FAIL: $*"; }

# Run "$@" in this shell (a function may change variables), output in $out.
# (a file per shell and nesting depth, left for the next capture: no
# mktemp, cat or rm)
ELEC_CAPTURE_DEPTH=0
elec_capture() {
	local f=${TMPDIR:-/tmp}/elec-capture.$BASHPID.$((ELEC_CAPTURE_DEPTH += 1))
	"$@" >"$f" 2>&1
	rc=$?
	ELEC_CAPTURE_DEPTH=$((ELEC_CAPTURE_DEPTH - 1))
	out=$(<"$f")
}

# elec_indent: stdin, each line indented by four spaces (no sed: see above)
elec_indent() {
	local l
	while IFS= read -r l || [ -n "$l" ]; do printf '    %s\n' "$l"; done
}

# check DESC CMD...: run CMD, PASS if it exits 0; its output is shown.
check() {
	local desc=$1 out rc
	shift
	elec_capture "$@"
	[ -n "$out" ] && elec_indent <<<"$out"
	if [ $rc = 0 ]; then pass "$desc"; else fail "$desc (exit $rc: $*)"; fi
	return $rc
}

# check_fails DESC CMD...: PASS if CMD exits non-zero and says why.
check_fails() {
	local desc=$1 out rc
	shift
	elec_capture "$@"
	[ -n "$out" ] && elec_indent <<<"$out"
	if [ $rc = 0 ]; then
		fail "$desc: was accepted ($*)"
		return 1
	elif [ -z "$out" ]; then
		fail "$desc: refused without a message ($*)"
		return 1
	fi
	pass "$desc"
}

# check_refused DESC PATTERN CMD...: PASS if CMD exits non-zero and its
# output has PATTERN (grep).
check_refused() {
	local desc=$1 pat=$2 out rc
	shift 2
	elec_capture "$@"
	[ -n "$out" ] && elec_indent <<<"$out"
	if [ $rc != 0 ] && printf '%s' "$out" | grep -q -- "$pat"; then
		pass "$desc"
	else
		fail "$desc (exit $rc, expected a failure saying \"$pat\")"
	fi
}

elec_begin() {
	set -uo pipefail
	trap elec_cleanup EXIT
	[ -x "$ELEC_CTL" ] || { echo "FAIL: $ELEC_CTL not built"; exit 1; }
	[ -f "$ELEC_KO" ] || { echo "FAIL: $ELEC_KO not built"; exit 1; }
	local scale=
	[ "$ELEC_TIMER_SCALE" = 1 ] || scale=", timer scale $ELEC_TIMER_SCALE"
	log "scenario $(basename "$0") on $(uname -r)$scale"
}

# elec_modprobe MOD...: load the modules. A kernel without a module tree
# for its release (the debug kernel of VM_KERNEL=debug: /lib/modules comes
# from the host and has only the stock kernel's) has what the scenarios
# need built in: nothing to load; a missing driver shows when the device or
# qdisc is created.
elec_modprobe() {
	local m
	[ -d "/lib/modules/$(uname -r)" ] || return 0
	for m in "$@"; do
		modprobe "$m" || return 1
	done
}

elec_load() {
	elec_modprobe veth bridge || return 1
	if lsmod | grep -q '^election '; then
		rmmod election || return 1
	fi
	check "insmod election.ko $*" insmod "$ELEC_KO" "$@"
}

elec_mac() { printf '02:e1:%02x:%02x:%02x:%02x' $(($1 >> 24 & 255)) $(($1 >> 16 & 255)) $(($1 >> 8 & 255)) $(($1 & 255)); }

elec_switch() {
	[ -e /run/netns/esw ] && return 0
	ip netns add esw &&
		ip -n esw link set lo up &&
		ip -n esw link add br0 type bridge stp_state 0 forward_delay 0 &&
		ip -n esw link set br0 up
}

elec_node_add() {
	local id=$1 ns=en$1

	elec_switch || return 1
	ip netns add "$ns" || return 1
	ip link add eth0 netns "$ns" address "$(elec_mac "$id")" type veth \
		peer name "p$id" netns esw || return 1
	ip -n esw link set "p$id" master br0 up &&
		ip -n "$ns" link set lo up &&
		ip -n "$ns" link set eth0 up || return 1
	ELEC_NODES+=("$id")
}

elec_forget() {
	local id=$1 i keep=()
	for i in "${ELEC_NODES[@]}"; do
		[ "$i" = "$id" ] || keep+=("$i")
	done
	ELEC_NODES=("${keep[@]}")
}

# A crash: the namespace goes, with its device and the instance on it.
elec_node_crash() {
	ip netns del "en$1" || return 1
	elec_forget "$1"
}

elec_topo() {
	local id
	for id in "$@"; do
		elec_node_add "$id" || { fail "creating node $id"; return 1; }
	done
	log "topology: switch esw/br0, nodes ${ELEC_NODES[*]}"
}

elec_ctl() {
	local id=$1 a
	shift
	# ELEC_DETECTOR: the detector of a group add that names none
	if [ -n "${ELEC_DETECTOR:-}" ] && [ "${1:-}" = group ] && [ "${2:-}" = add ]; then
		for a in "$@"; do [ "$a" = detector ] && break; done
		[ "$a" = detector ] || set -- "$@" detector "$ELEC_DETECTOR"
	fi
	# -n: electionctl enters the namespace itself (one exec, not three:
	# a TCG guest spends ~0.1 s on each)
	"$ELEC_CTL" -n "en$id" "$@"
}

# elec_pos_kw ID: the "pos P" keywords for node ID, nothing without ELEC_POS[ID].
elec_pos_kw() {
	[ -n "${ELEC_POS[$1]:-}" ] && echo "pos ${ELEC_POS[$1]}"
	return 0
}

# elec_pos ID: node ID's ring position (ELEC_POS[ID], else the id).
elec_pos() { echo "${ELEC_POS[$1]:-$1}"; }

# elec_ring_order [ID...]: the nodes in ring order, ascending (position, id).
elec_ring_order() {
	local id ids=("$@")
	[ $# -gt 0 ] || ids=("${ELEC_NODES[@]}")
	local out=() i p q
	# an insertion sort on (position, id), in bash (no sort, awk, xargs)
	for id in "${ids[@]}"; do
		p=${ELEC_POS[$id]:-$id}
		i=${#out[@]}
		while [ "$i" -gt 0 ]; do
			q=${ELEC_POS[${out[i - 1]}]:-${out[i - 1]}}
			[ "$q" -gt "$p" ] || { [ "$q" = "$p" ] && [ "${out[i - 1]}" -gt "$id" ]; } || break
			out[i]=${out[i - 1]}
			i=$((i - 1))
		done
		out[i]=$id
	done
	echo "${out[*]}"
}

# elec_group_setup G [ID...]: instances (stopped) with all peers on the
# given nodes (default: every node); each node's peers are all the others.
# Algorithm, options and positions: ELEC_ALGO, ELEC_GROUP_OPTS, ELEC_POS.
elec_group_setup() {
	local g=$1 id ok=0 pids=()
	shift
	local ids=("$@")
	[ $# -gt 0 ] || ids=("${ELEC_NODES[@]}")
	# the nodes in parallel (a TCG guest spends ~0.1 s per electionctl),
	# each node's requests in order
	for id in "${ids[@]}"; do
		(
			rc=0
			# shellcheck disable=SC2086,SC2046
			elec_ctl "$id" group add dev eth0 group "$g" id "$id" algo "$ELEC_ALGO" \
				$(elec_pos_kw "$id") $ELEC_GROUP_OPTS $ELEC_TIMING || rc=1
			for p in "${ELEC_NODES[@]}"; do
				[ "$p" = "$id" ] && continue
				# shellcheck disable=SC2046
				elec_ctl "$id" peer add dev eth0 group "$g" id "$p" lladdr "$(elec_mac "$p")" \
					$(elec_pos_kw "$p") || rc=1
			done
			exit $rc
		) &
		pids+=($!)
	done
	for id in "${pids[@]}"; do
		wait "$id" || ok=1
	done
	local what="algo $ELEC_ALGO${ELEC_GROUP_OPTS:+ $ELEC_GROUP_OPTS}"
	[ ${#ELEC_POS[@]} -gt 0 ] && what+=", ring order $(elec_ring_order "${ELEC_NODES[@]}")"
	if [ $ok = 0 ]; then pass "group $g configured on ${ids[*]} ($what)"; else fail "group $g setup on ${ids[*]} ($what)"; fi
	return $ok
}

# elec_start_all G [ID...]: group start on the nodes at (nearly) the same time.
elec_start_all() {
	local g=$1 id pids=() rc=0
	shift
	local ids=("$@")
	[ $# -gt 0 ] || ids=("${ELEC_NODES[@]}")
	for id in "${ids[@]}"; do
		elec_ctl "$id" group start dev eth0 group "$g" &
		pids+=($!)
	done
	for id in "${pids[@]}"; do
		wait "$id" || rc=1
	done
	if [ $rc = 0 ]; then pass "group $g started on ${ids[*]}"; else fail "group start on ${ids[*]}"; fi
	return $rc
}

# elec_poll G DEV ID...: every node's `electionctl show` line, read at once
# (one electionctl per node, in parallel, 10 s x ELEC_TIMER_SCALE at most
# each), into ELEC_VIEW[ID]: "ROLE LEADER TERM" (LEADER "none") or
# "error: WHY"; ELEC_VIEW_LINE[ID] the line itself.
declare -gA ELEC_VIEW ELEC_VIEW_LINE
ELEC_VIEW+=()
ELEC_VIEW_LINE+=()
elec_poll() {
	local g=$1 dev=$2 id l pids=() f=${TMPDIR:-/tmp}/elec-view.$BASHPID
	shift 2
	for id in "$@"; do
		{
			timeout -k 2 "$((10 * ELEC_TIMER_SCALE))" "$ELEC_CTL" -n "en$id" show dev "$dev" group "$g" >"$f.$id" 2>"$f.$id.err"
			case $? in 124 | 137) echo "no answer within $((10 * ELEC_TIMER_SCALE)) s" >>"$f.$id.err" ;; esac
		} &
		pids+=($!)
	done
	[ ${#pids[@]} -gt 0 ] && wait "${pids[@]}"
	for id in "$@"; do
		l=
		IFS= read -r l <"$f.$id"
		ELEC_VIEW_LINE[$id]=$l
		if [[ $l =~ ^dev\ [^\ ]+\ group\ [0-9]+\ id\ ([0-9]+)\ algo\ [^\ ]+\ leader\ ([0-9a-z]+)\ term\ ([0-9]+)\ role\ ([a-z]+) ]]; then
			if [ "${BASH_REMATCH[1]}" = "$id" ]; then
				ELEC_VIEW[$id]="${BASH_REMATCH[4]} ${BASH_REMATCH[2]} ${BASH_REMATCH[3]}"
			else
				ELEC_VIEW[$id]="error: id ${BASH_REMATCH[1]}, expected $id"
			fi
		else
			[ -n "$l" ] || IFS= read -r l <"$f.$id.err"
			ELEC_VIEW[$id]="error: ${l:-no output}"
		fi
	done
}

# elec_verdict LEADER SAME_TERM ID...: after elec_poll, nothing printed if
# every node agrees on LEADER (its own node in role leader, the others
# follower; with SAME_TERM 1, one term), else the reason; ELEC_VIEW_TERM
# the term.
elec_verdict() {
	local want=$1 same=$2 id role leader term want_role t=
	shift 2
	for id in "$@"; do
		case ${ELEC_VIEW[$id]} in error:*) echo "en$id: ${ELEC_VIEW[$id]#error: }"; return 1 ;; esac
		read -r role leader term <<<"${ELEC_VIEW[$id]}"
		want_role=follower
		[ "$id" = "$want" ] && want_role=leader
		if [ "$leader" != "$want" ] || [ "$role" != "$want_role" ]; then
			echo "en$id (id $id): role $role leader $leader term $term"
			return 1
		fi
		if [ "$same" = 1 ] && [ -n "$t" ] && [ "$t" != "$term" ]; then
			echo "terms differ: $t $term"
			return 1
		fi
		t=$term
	done
	ELEC_VIEW_TERM=$t
}

# elec_views_print ID...: the last poll's lines, one per node
elec_views_print() {
	local id
	for id in "$@"; do printf '    en%-6s %s\n' "$id" "${ELEC_VIEW_LINE[$id]}"; done
}

# elec_agree_poll G LEADER BOUND STABLE ID...: poll every 0.1 s until the
# nodes agree on LEADER (ELEC_DEV, default eth0), then check that it holds
# for STABLE s; prints what it found (as elec.py agree did)
elec_agree_poll() {
	local g=$1 want=$2 bound=$3 stable=$4 why t0 t1 now term polls=0
	local dev=${ELEC_DEV:-eth0}
	shift 4
	t0=${EPOCHREALTIME/./}
	while :; do
		elec_poll "$g" "$dev" "$@"
		why=$(elec_verdict "$want" 1 "$@") && break
		now=${EPOCHREALTIME/./}
		if [ $((now - t0)) -gt "$(elec_usec "$bound")" ]; then
			echo "no agreement on $want within ${bound}s: $why"
			elec_views_print "$@"
			return 1
		fi
		sleep 0.1
	done
	elec_verdict "$want" 1 "$@"
	term=$ELEC_VIEW_TERM
	now=${EPOCHREALTIME/./}
	echo "all $# nodes agree on leader $want (term $term) after $(elec_fmt_usec $((now - t0)))s"
	[ "$(elec_usec "$stable")" -gt 0 ] || return 0
	t1=${EPOCHREALTIME/./}
	while [ $((${EPOCHREALTIME/./} - t1)) -lt "$(elec_usec "$stable")" ]; do
		sleep 0.1
		elec_poll "$g" "$dev" "$@"
		polls=$((polls + 1))
		if ! why=$(elec_verdict "$want" 0 "$@"); then
			echo "agreement on $want did not hold: $why"
			elec_views_print "$@"
			return 1
		fi
	done
	echo "agreement held for ${stable}s over $polls polls"
}

# elec_usec SECONDS: a number of seconds (2, 0.5) in microseconds
elec_usec() {
	local ip=${1%%.*} fp=000000
	[[ $1 == *.* ]] && fp=${1#*.}000000
	echo $((10#$ip * 1000000 + 10#${fp:0:6}))
}

# elec_fmt_usec US: microseconds as seconds with two decimals
elec_fmt_usec() { printf '%d.%02d' $(($1 / 1000000)) $(($1 % 1000000 / 10000)); }

# elec_agree G LEADER [BOUND [STABLE [ID...]]]: the nodes (default: every
# existing node) agree on LEADER within BOUND s; with STABLE, for that long.
# ELEC_DEV: their device (default eth0).
elec_agree() {
	local g=$1 leader=$2 bound=${3:-$ELEC_BOUND} stable=${4:-0}
	shift 4 2>/dev/null || shift $#
	local ids=("$@")
	[ $# -gt 0 ] || ids=("${ELEC_NODES[@]}")
	check "all of ${ids[*]} agree on leader $leader within ${bound}s" \
		elec_agree_poll "$g" "$leader" "$bound" "$stable" "${ids[@]}"
}

# elec_peer_alive G ID PEER true|false: node ID's view of PEER's liveness.
elec_peer_alive() {
	local got l
	l=$(elec_ctl "$2" peer show dev eth0 group "$1" id "$3")
	got='?'
	[[ $l =~ \ alive\ (yes|no) ]] && got=${BASH_REMATCH[1]}
	case $got in yes) got=true ;; no) got=false ;; esac
	if [ "$got" = "$4" ]; then
		pass "node $2 sees peer $3 alive=$4"
	else
		fail "node $2 sees peer $3 alive=$got, expected $4"
	fi
}

elec_wait_for() {
	local limit t=0
	limit=$(awk -v b="$1" 'BEGIN { print int(b * 10) }')
	shift
	while [ "$t" -lt "$limit" ]; do
		"$@" && return 0
		sleep 0.1
		t=$((t + 1))
	done
	"$@"
}

# elec_vip_holders VIP: the nodes whose eth0 has address VIP now
elec_vip_holders() {
	local id held=""
	for id in "${ELEC_NODES[@]}"; do
		ip -n "en$id" -o addr show dev eth0 2>/dev/null | grep -q " $1/" && held="$held $id"
	done
	echo "${held# }"
}

elec_vip_on() {
	local vip=$1 want=$2 t=0 limit got
	limit=$(awk -v b="$ELEC_BOUND" 'BEGIN { print int(b * 10) }')
	while [ "$t" -lt "$limit" ]; do
		got=$(elec_vip_holders "$vip")
		[ "$got" = "$want" ] && break
		sleep 0.1
		t=$((t + 1))
	done
	if [ "$got" = "$want" ]; then
		pass "$vip is on '$want' only (after ~$((t / 10)).$((t % 10)) s)"
	else
		fail "$vip on: '$got', want '$want'"
	fi
}

elec_views() {
	elec_poll "$1" eth0 "${ELEC_NODES[@]}"
	elec_views_print "${ELEC_NODES[@]}"
}

elec_module_counters() { "$ELEC_CTL" -j module; }

# All groups deleted: the module must hold nothing. skbs get 5 s to drain.
elec_leak_check() {
	local i out
	for i in $(seq 1 50); do
		out=$(elec_module_counters 2>&1)
		if [[ $out =~ \"instances\":\ 0,\ \"peers\":\ 0,\ \"skbs\":\ 0[,}] ]]; then
			pass "leak counters zero: $out"
			return 0
		fi
		sleep 0.1
	done
	fail "leak counters not zero after every group was deleted: $out"
	return 1
}

elec_teardown() {
	local g=$1 id rc=0
	for id in "${ELEC_NODES[@]}"; do
		elec_ctl "$id" group del dev eth0 group "$g" || rc=1
	done
	if [ $rc = 0 ]; then pass "group $g deleted on ${ELEC_NODES[*]}"; else fail "group del"; fi
	elec_leak_check
}

elec_cleanup() {
	local rc=$? ns
	trap - EXIT
	for ns in $(ip netns list 2>/dev/null | awk '{print $1}'); do
		ip netns del "$ns" 2>/dev/null
	done
	if [ "${ELEC_ENDED:-0}" != 1 ]; then
		fail "scenario ended early (exit $rc)"
		echo "$ELEC_PASS passed, $ELEC_FAIL failed"
		exit 1
	fi
	exit "$rc"
}

elec_end() {
	ELEC_ENDED=1
	log "done"
	echo "$ELEC_PASS passed, $ELEC_FAIL failed"
	[ "$ELEC_FAIL" = 0 ] && exit 0
	exit 1
}
