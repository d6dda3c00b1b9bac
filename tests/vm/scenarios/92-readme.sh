#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# README.md's "Without a VM" block, run as written (only its "make &&" is
# left out: the tree is built, and read-only here; on another kernel the
# module built for it replaces module/election.ko): two namespaces, a veth
# pair, node 2 leads, resigns, node 1 takes over; the module unloads.
. tests/vm/lib.sh
elec_begin

elec_modprobe veth
lsmod | grep -q '^election ' && rmmod election
block=$(sed -n '/^<!-- netns-demo -->$/,/^<!-- \/netns-demo -->$/p' "$ELEC_REPO/README.md" |
	sed '1,2d;$d' | sed '$d' | sed 's/^make && //')
# on another kernel than the tree's build (VM_KERNEL=rt, debug) the module
# built for it: the block's insmod module/election.ko, with that path
if [ "$ELEC_KO" != "$ELEC_REPO/module/election.ko" ]; then
	block=${block//module\/election.ko/$ELEC_KO}
fi
printf '%s\n' "$block" | sed 's/^/    | /'
out=$(cd "$ELEC_REPO" && bash -e -c "$block" 2>&1)
rc=$?
printf '%s\n' "$out" | sed 's/^/    /'
if [ $rc = 0 ]; then pass "the README block ran (exit 0)"; else fail "the README block: exit $rc"; fi
shows=$(printf '%s\n' "$out" | grep -E '^dev veth-a group 1 id 1 algo bully ')
lead() { sed -E 's/.* algo bully leader ([0-9a-z]+) term .*/\1/'; }
if [ "$(printf '%s\n' "$shows" | head -n 1 | lead)" = 2 ] &&
	[ "$(printf '%s\n' "$shows" | tail -n 1 | lead)" = 1 ]; then
	pass "show: leader 2, then leader 1 after node 2 resigned"
else
	fail "show lines: $shows"
fi
if printf '%s\n' "$out" | grep -qE '^\[20[0-9-]+T[0-9:.]+\] \[[0-9.]+\] seq [0-9]+ leader_changed dev veth-a group 1 id 1 leader 1 '; then
	pass "monitor -ts: node 1's leader_changed to itself"
else
	fail "no timestamped leader_changed to 1 in the monitor's output"
fi
if lsmod | grep -q '^election '; then fail "the module is still loaded"; else pass "rmmod election"; fi
elec_end
