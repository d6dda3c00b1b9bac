#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Many instances (review defect 3): 32768 instances on dummy devices in one
# namespace (root; userns_admin plays no part). A dump of all of them,
# GROUP_GET and STATS_GET, completes without a soft lockup (the harness
# fails the run on any "BUG: soft lockup" in the kernel log), every
# instance is reported exactly once, and the time per 1000 instances is
# printed; a filtered dump (one group, one device) costs one lookup per
# device. Deleting the devices destroys every instance. Before the fix a
# dump rescanned the namespace list from its head for every instance
# inside one RCU read section: O(N^2), a soft lockup between 16k and 32k.
. tests/vm/lib.sh
elec_begin
elec_load || elec_end
elec_modprobe dummy

N=${ELEC_MANY:-32768}
PER=8192	# instances per device: groups 1..PER on d0..d3
DEVS=$(((N + PER - 1) / PER))
for i in $(seq 0 $((DEVS - 1))); do
	ip link add "d$i" type dummy && ip link set "d$i" up
done
t0=$(date +%s.%N)
for i in $(seq 0 $((DEVS - 1))); do
	n=$((N - i * PER))
	[ $n -gt $PER ] && n=$PER
	check "d$i: $n instances created" python3 "$ELEC_PY" mass --dev "d$i" --groups "1-$n" --id 1
done
log "created $N instances in $(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN {printf "%.1f", b - a}') s"
check "module counts $N instances" \
	test "$("$ELEC_CTL" -j module | elec_json 'd["instances"]')" = "$N"

for what in "" --stats; do
	out=$(python3 "$ELEC_PY" dump $what --repeat 3)
	echo "    dump${what:- (group_get)}: $out"
	check "dump${what}: every one of the $N instances reported once" \
		test "$(echo "$out" | elec_json 'd["instances"]')" = "$N"
	check "dump${what}: in many bounded calls (> $((N / 1000)))" \
		test "$(echo "$out" | elec_json 'd["calls"]')" -gt $((N / 1000))
	echo "$out" >>"${RESULTS_DIR:-/tmp}/dump-times.json"
done
out=$(python3 "$ELEC_PY" dump --group 77)
echo "    dump group 77: $out"
check "dump filtered on group 77: one per device ($DEVS)" \
	test "$(echo "$out" | elec_json 'd["instances"]')" = "$DEVS"
IFX=$(cat /sys/class/net/d0/ifindex)
out=$(python3 "$ELEC_PY" dump --ifindex "$IFX")
echo "    dump ifindex d0: $out"
check "dump filtered on d0: $PER" test "$(echo "$out" | elec_json 'd["instances"]')" = "$PER"
# a device deleted while a dump is under way: the dump resumes on the
# next device from its first group, nothing skipped, nothing twice
out=$(python3 "$ELEC_PY" dump --pause-cmd "ip link set d0 down; ip link del d0")
echo "    dump with d0 deleted after the first call: $out"
for i in 1 2 3; do
	IX=$(cat "/sys/class/net/d$i/ifindex")
	check "dump across a deletion: d$i complete" \
		test "$(echo "$out" | elec_json "d['per_ifindex'].get('$IX')")" = "$PER"
done
check "dump across a deletion: no duplicate" test "$(echo "$out" | elec_json 'd["duplicates"]')" = 0
ip link add d0 type dummy && ip link set d0 up
check "d0 again, $PER instances" python3 "$ELEC_PY" mass --dev d0 --groups "1-$PER" --id 1
check "electionctl -j show lists them all" \
	test "$("$ELEC_CTL" -j show | elec_json 'len(d)')" = "$N"
check "show of one instance among them" \
	test "$("$ELEC_CTL" -j show dev d1 group 4096 | elec_json 'd[0]["group"]')" = 4096

# frames for one instance among many: found directly
"$ELEC_CTL" group start dev d0 group 4242
leads() {
	local i
	for i in $(seq 1 $((ELEC_BOUND * 10))); do
		"$ELEC_CTL" -j show dev d0 group 4242 | grep -q '"role": "leader"' && return 0
		sleep 0.1
	done
	return 1
}
check "a started instance among $N becomes leader (alone)" leads

t0=$(date +%s.%N)
for i in $(seq 0 $((DEVS - 1))); do
	ip link del "d$i"
done
log "deleted the devices (and $N instances) in $(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN {printf "%.1f", b - a}') s"
elec_leak_check
check "rmmod election" rmmod election
elec_end
