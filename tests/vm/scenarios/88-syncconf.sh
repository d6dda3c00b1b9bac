#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Configuration as desired state: electionctl syncconf FILE, showconf's
# defaults and keydir, election@.service's ExecReload.
#
# Three nodes; groups 1, 2 and 5 (a key) on all three (3 leads them); on
# node 1 also group 4 (ring) and group 6 (every option at its default:
# showconf writes its group add line with nothing after algo).
# Node 1's file, from "showconf keydir DIR" (key-file DIR/eth0-5.key, the
# key copied there), edited: group 2 hb-miss 4 and a peer more, group 3
# added (started), groups 4 and 6 left out. syncconf on node 1:
#   - prints exactly those commands (and group 5's key-file, which it
#     always sends: the kernel cannot say which key a group holds), none
#     for group 1; group 2's hb-miss change also sends detector-max 0 (the
#     kernel reports a worked-out detector-max and a pinned one alike);
#   - group 1 untouched: the same leader and term on every node, node 1's
#     elections and leader_changes counters unchanged, and a monitor of
#     group 1 on node 1 sees its snapshot and no event;
#   - group 5, running, keeps its leader and term on every node, and
#     every node's elections and leader_changes, across this syncconf and
#     the next (each re-sends its key-file); a monitor of group 5 on node
#     1 sees its snapshot and no event;
#   - group 2 has hb-miss 4 and the new peer, group 3 runs, groups 4 and 6
#     are gone, group 5 still has its key;
#   - again with the same file: only group 5's key-file line, nothing
#     changes (showconf equal);
#   - an invalid file (a bad line at its end; showconf's placeholder
#     key-file): exit 1 with FILE:LINE, showconf unchanged;
#   - a group of another device (a second veth) is left alone.
# The unit's ExecReload line (with the file under /tmp) applies an edit.
# quorum on for group 2 on node 1 (a follower): group stop, group set,
# group start; a peer with another lladdr: peer del, peer add.
. tests/vm/lib.sh
elec_begin

elec_load || elec_end
elec_topo 1 2 3 || elec_end
TMPD=$(mktemp -d)
out='' rc=''	# elec_capture sets them
KEYD=$TMPD/keys
mkdir -p "$KEYD"

elec_group_setup 1 || elec_end
elec_group_setup 2 || elec_end
elec_start_all 1
elec_start_all 2
elec_agree 1 3 || elec_end
elec_agree 2 3

log "--- node 1's other groups; showconf of a group at its defaults"
check "group 4 (ring) on node 1" elec_ctl 1 group add dev eth0 group 4 id 1 algo ring
check "genkey" "$ELEC_CTL" genkey "$TMPD/g5.key"
# group 5: keyed, on every node, running (a re-sent key-file must not
# disturb it)
ELEC_ALGO=bully ELEC_GROUP_OPTS="$ELEC_GROUP_OPTS key-file $TMPD/g5.key" \
	elec_group_setup 5 || elec_end
elec_start_all 5
elec_agree 5 3
check "group 6 at the defaults on node 1" elec_ctl 1 group add dev eth0 group 6 id 1 algo bully
got=$(elec_ctl 1 showconf dev eth0 group 6 | grep '^group add')
if [ "$got" = "group add dev eth0 group 6 id 1 algo bully" ]; then
	pass "showconf: a group at its defaults: nothing after algo"
else
	fail "showconf of a group at its defaults: $got"
fi
check "a second device on node 1 (veth pair x0/x1), a group on it" sh -c "
	ip -n en1 link add x0 type veth peer name x1 &&
	ip -n en1 link set x0 up && ip -n en1 link set x1 up &&
	ip netns exec en1 $ELEC_CTL group add dev x0 group 1 id 1 algo bully"

log "--- showconf keydir DIR"
elec_ctl 1 showconf dev eth0 keydir "$KEYD" >"$TMPD/now.batch"
elec_indent <"$TMPD/now.batch"
if grep -q "^group add dev eth0 group 5 id 1 algo bully .*key-file $KEYD/eth0-5.key\$" "$TMPD/now.batch"; then
	pass "showconf keydir: key-file $KEYD/eth0-5.key"
else
	fail "showconf keydir: no key-file $KEYD/eth0-5.key"
fi
check_refused "-check: the key is not in DIR yet" "$KEYD/eth0-5.key" \
	"$ELEC_CTL" -n en1 -check "$TMPD/now.batch"
install -m 600 "$TMPD/g5.key" "$KEYD/eth0-5.key"
check "-check: the key copied to DIR" "$ELEC_CTL" -n en1 -check "$TMPD/now.batch"

log "--- the file: group 2 changed, group 3 added, groups 4 and 6 left out"
P9=$(elec_mac 9)
{
	grep -v -e ' group 4\( \|$\)' -e ' group 6\( \|$\)' "$TMPD/now.batch" |
		sed '/^group add dev eth0 group 2 /s/ hb-miss 5 / hb-miss 4 /'
	echo "peer add dev eth0 group 2 id 9 lladdr $P9"
	echo "group add dev eth0 group 3 id 1 algo min-bully"
	echo "group start dev eth0 group 3"
} >"$TMPD/want.batch"
elec_indent <"$TMPD/want.batch"

# groups 1 and 5 before (terms [G]: leader/term on every node)
terms() {
	local id g=${1:-1}
	for id in 1 2 3; do
		printf '%s/%s ' "$(elec_ctl "$id" show dev eth0 group "$g" leader)" \
			"$(elec_ctl "$id" show dev eth0 group "$g" term)"
	done
}
counters() { elec_stat 1 1 '(d["elections"], d["leader_changes"])'; }
# group 5's elections and leader_changes on every node
counters5() {
	local id
	for id in 1 2 3; do
		printf '%s ' "$(elec_stat "$id" 5 '(d["elections"], d["leader_changes"])' | tr -d ' ')"
	done
}
t0=$(terms)
c0=$(counters)
log "group 1 (leader/term on 1, 2, 3): $t0; node 1's elections, leader_changes: $c0"
t5=$(terms 5)
c5=$(counters5)
log "group 5 (leader/term on 1, 2, 3): $t5; elections, leader_changes on 1, 2, 3: $c5"
# electionctl itself in the background (not a shell function, whose
# subshell alone kill would end), so that kill ends the monitor
"$ELEC_CTL" -n en1 -j monitor dev eth0 group 1 >"$TMPD/mon.json" 2>&1 &
mpid=$!
"$ELEC_CTL" -n en1 -j monitor dev eth0 group 5 >"$TMPD/mon5.json" 2>&1 &
mpid5=$!
sleep "$(elec_sec 1)"

log "--- syncconf"
elec_capture elec_ctl 1 syncconf "$TMPD/want.batch"
elec_indent <<<"$out"
want="group del dev eth0 group 4
group del dev eth0 group 6
group set dev eth0 group 2 hb-miss 4 detector-max 0
peer add dev eth0 group 2 id 9 lladdr $P9
group set dev eth0 group 5 key-file $KEYD/eth0-5.key
group add dev eth0 group 3 id 1 algo min-bully
group start dev eth0 group 3"
if [ "$rc" = 0 ] && [ "$out" = "$want" ]; then
	pass "syncconf: exit 0, the commands it ran, none for group 1"
else
	fail "syncconf: exit $rc, want these lines:"
	elec_indent <<<"$want"
fi
sleep "$(elec_sec 2)"
kill "$mpid" 2>/dev/null
wait "$mpid" 2>/dev/null
t1=$(terms)
c1=$(counters)
if [ "$t1" = "$t0" ] && [ "${t0:0:2}" = "3/" ]; then
	pass "group 1: the same leader and term on every node: $t1"
else
	fail "group 1: $t0 before, $t1 after"
fi
if [ "$c1" = "$c0" ]; then
	pass "group 1 on node 1: elections and leader_changes unchanged: $c1"
else
	fail "group 1 on node 1: $c0 before, $c1 after"
fi
# the events a monitor's JSON lines hold
events() {
	python3 - "$1" <<'EOF'
import json, sys
evs = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
print([e.get("event") for e in evs])
EOF
}
# no electionctl monitor of group 1 left behind
left=$(for p in /proc/[0-9]*; do
	tr '\0' ' ' <"$p/cmdline" 2>/dev/null |
		grep -q "^$ELEC_CTL -n en1 -j monitor dev eth0 group 1 \$" && echo "${p#/proc/}"
done)
if [ -z "$left" ]; then
	pass "kill ended the monitor of group 1"
else
	fail "the monitor of group 1 still runs after kill: pid $left"
	# shellcheck disable=SC2086
	kill $left 2>/dev/null
fi
v=$(events "$TMPD/mon.json")
if [ "$v" = "['snapshot']" ]; then
	pass "monitor of group 1 on node 1: its snapshot, no event"
else
	fail "monitor of group 1 on node 1: $v"
	elec_indent <"$TMPD/mon.json"
fi
v=$(elec_ctl 1 -j show dev eth0 group 2 |
	elec_json '(d[0]["hb_miss"], sorted(p["id"] for p in d[0]["peers"]), d[0]["admin_up"])')
if [ "$v" = "(4, [2, 3, 9], True)" ]; then pass "group 2: hb-miss 4, peer 9, running: $v"; else fail "group 2: $v"; fi
v=$(elec_ctl 1 -j show dev eth0 | elec_json 'sorted((x["group"], x["admin_up"], x["auth"]) for x in d)')
if [ "$v" = "[(1, True, False), (2, True, False), (3, True, False), (5, True, True)]" ]; then
	pass "eth0 on node 1: groups 1, 2, 3 running, 4 and 6 gone, 5 keyed: $v"
else
	fail "eth0 on node 1: $v"
fi
v=$(elec_ctl 1 -j show dev x0 | elec_json 'len(d)')
if [ "$v" = 1 ]; then pass "x0's group, on a device the file does not name: left alone"; else fail "x0: $v groups"; fi
elec_agree 2 3

log "--- syncconf again: nothing to change"
elec_ctl 1 showconf dev eth0 >"$TMPD/before"
elec_capture elec_ctl 1 syncconf "$TMPD/want.batch"
elec_indent <<<"$out"
if [ "$rc" = 0 ] && [ "$out" = "group set dev eth0 group 5 key-file $KEYD/eth0-5.key" ]; then
	pass "syncconf again: only group 5's key-file, always sent"
else
	fail "syncconf again: exit $rc"
fi
elec_ctl 1 showconf dev eth0 >"$TMPD/after"
if cmp -s "$TMPD/before" "$TMPD/after" && [ "$(terms)" = "$t0" ]; then
	pass "syncconf again: showconf the same, group 1's leader and term too"
else
	fail "syncconf again changed something"
	diff "$TMPD/before" "$TMPD/after" | elec_indent
fi
sleep "$(elec_sec 2)"
kill "$mpid5" 2>/dev/null
wait "$mpid5" 2>/dev/null
v=$(terms 5)
if [ "$v" = "$t5" ] && [ "${t5:0:2}" = "3/" ]; then
	pass "group 5 (keyed, running): the same leader and term on every node after two syncconfs: $v"
else
	fail "group 5 after two syncconfs (each re-sending its key-file): $t5 before, $v after"
fi
v=$(counters5)
if [ "$v" = "$c5" ]; then
	pass "group 5: elections and leader_changes unchanged on every node: $v"
else
	fail "group 5: elections and leader_changes $c5 before, $v after the re-sent key-files"
fi
v=$(events "$TMPD/mon5.json")
if [ "$v" = "['snapshot']" ]; then
	pass "monitor of group 5 on node 1: its snapshot, no event"
else
	fail "monitor of group 5 on node 1: $v"
	elec_indent <"$TMPD/mon5.json"
fi

log "--- invalid files change nothing"
{
	sed '/^group add dev eth0 group 2 /s/ hb-miss 4 / hb-miss 3 /' "$TMPD/want.batch"
	echo "group add dev eth0 group 7 id 1 algo bully hb-miss 0"
} >"$TMPD/bad.batch"
n=$(wc -l <"$TMPD/bad.batch")
elec_capture elec_ctl 1 syncconf "$TMPD/bad.batch"
elec_indent <<<"$out"
if [ "$rc" = 1 ] && [ "$out" = "Error: $TMPD/bad.batch:$n: invalid hb-miss \"0\": expected an integer from 1 to 1000" ]; then
	pass "an invalid line: exit 1, FILE:LINE, nothing printed"
else
	fail "an invalid line: exit $rc"
fi
elec_ctl 1 showconf dev eth0 >"$TMPD/placeholder.batch"
elec_capture elec_ctl 1 syncconf "$TMPD/placeholder.batch"
elec_indent <<<"$out"
if [ "$rc" = 1 ] && grep -q "^Error: $TMPD/placeholder.batch:[0-9]*: invalid key-file \"/etc/election/CHANGE-ME-eth0-5.key\"" <<<"$out"; then
	pass "showconf's placeholder: exit 1, FILE:LINE"
else
	fail "showconf's placeholder: exit $rc"
fi
elec_ctl 1 showconf dev eth0 >"$TMPD/after"
if cmp -s "$TMPD/before" "$TMPD/after"; then
	pass "after the invalid files: showconf the same"
else
	fail "an invalid file changed something"
	diff "$TMPD/before" "$TMPD/after" | elec_indent
fi

log "--- election@.service's ExecReload"
mkdir -p "$TMPD/etc"
sed '/^group add dev eth0 group 2 /s/ hb-miss 4 / hb-miss 5 /' "$TMPD/want.batch" >"$TMPD/etc/eth0.batch"
reload=$(sed -n 's|^ExecReload=||p' "$ELEC_REPO/dist/election@.service.in" |
	sed "s|@SBINDIR@|$ELEC_REPO/userspace|; s|/etc/election/%i.batch|$TMPD/etc/eth0.batch|")
log "ExecReload: $reload"
# shellcheck disable=SC2086
check "ExecReload on node 1" ip netns exec en1 $reload
v=$(elec_ctl 1 -j show dev eth0 group 2 | elec_json 'd[0]["hb_miss"]')
if [ "$v" = 5 ]; then pass "ExecReload: group 2 has hb-miss 5 again"; else fail "ExecReload: hb-miss $v"; fi
if [ "$(terms)" = "$t0" ]; then pass "group 1's leader and term unchanged: $t0"; else fail "group 1: $(terms)"; fi

log "--- quorum (changed only while stopped) and a peer's new lladdr"
P9B=$(elec_mac 10)
sed -e '/^group add dev eth0 group 2 /s/$/ quorum on/' \
	-e "s/ id 9 lladdr $P9\$/ id 9 lladdr $P9B/" "$TMPD/etc/eth0.batch" >"$TMPD/quorum.batch"
elec_capture elec_ctl 1 syncconf "$TMPD/quorum.batch"
elec_indent <<<"$out"
want="group stop dev eth0 group 2
group set dev eth0 group 2 quorum on
peer del dev eth0 group 2 id 9
peer add dev eth0 group 2 id 9 lladdr $P9B
group start dev eth0 group 2
group set dev eth0 group 5 key-file $KEYD/eth0-5.key"
if [ "$rc" = 0 ] && [ "$out" = "$want" ]; then
	pass "syncconf: quorum as stop, set, start; the peer deleted and added again"
else
	fail "syncconf with quorum on: exit $rc, want these lines:"
	elec_indent <<<"$want"
fi
v=$(elec_ctl 1 -j show dev eth0 group 2 |
	elec_json '(d[0]["quorum"], d[0]["admin_up"], [p["lladdr"] for p in d[0]["peers"] if p["id"] == 9])')
if [ "$v" = "(True, True, ['$P9B'])" ]; then pass "group 2: quorum on, running, peer 9's new lladdr: $v"; else fail "group 2: $v"; fi
if [ "$(terms)" = "$t0" ]; then pass "group 1's leader and term unchanged: $t0"; else fail "group 1: $(terms)"; fi

elec_end
