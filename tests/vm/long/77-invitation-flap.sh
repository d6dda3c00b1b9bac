#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make vmtest-long: the Invitation algorithm under partitions that flap for
# a minute. 8 nodes (ids 1..8) on two bridges joined by a veth pair (as in
# scenarios/77-invitation.sh); every 0.2 to 2 s the pair goes down (a
# split) or up (a heal), at random, and now and then a random node moves
# to the other bridge, so the halves change. At the end the partition
# heals: every node must be in one group under 8 within the liveness
# bound, stay there, and the module must unload clean.
. tests/vm/lib.sh
elec_begin

ELEC_ALGO=invitation
IDS=(1 2 3 4 5 6 7 8)
DURATION=${ELEC_FLAP_SECONDS:-60}

elec_load || elec_end
elec_topo "${IDS[@]}" || elec_end
check "a second bridge br1 in the switch" ip -n esw link add br1 type bridge
check "br1 up" ip -n esw link set br1 up
check "the link between the bridges" ip -n esw link add bl0 type veth peer name bl1
check "bl0 on br0" ip -n esw link set bl0 master br0 up
check "bl1 on br1" ip -n esw link set bl1 master br1 up
for id in 5 6 7 8; do
	check "p$id on br1" ip -n esw link set "p$id" master br1
done
elec_group_setup 1
elec_start_all 1
all=$(for id in "${IDS[@]}"; do printf 'en%s:%s,' "$id" "$id"; done)
all=${all%,}
check "one group under 8 after the start" \
	python3 "$ELEC_PY" groups --group 1 --timeout "$ELEC_BOUND" "$all"

RANDOM=77
end=$((SECONDS + DURATION))
splits=0 heals=0 moves=0
while [ $SECONDS -lt $end ]; do
	case $((RANDOM % 4)) in
	0)
		ip -n esw link set bl0 up
		heals=$((heals + 1))
		;;
	1)
		# a node changes sides
		id=${IDS[$((RANDOM % ${#IDS[@]}))]}
		if [ $((RANDOM % 2)) = 0 ]; then
			ip -n esw link set "p$id" master br0
		else
			ip -n esw link set "p$id" master br1
		fi
		moves=$((moves + 1))
		;;
	*)
		ip -n esw link set bl0 down
		splits=$((splits + 1))
		;;
	esac
	sleep "$(awk -v r=$RANDOM 'BEGIN { printf "%.2f", 0.2 + 1.8 * r / 32767 }')"
done
log "flapped for ${DURATION}s: $splits splits, $heals heals, $moves moves; now healed for good"
ip -n esw link set bl0 up
check "one group under 8 after the flapping, and it holds" \
	python3 "$ELEC_PY" groups --group 1 --timeout "$ELEC_BOUND" --stable "$(elec_sec 3s)" "$all"
for id in "${IDS[@]}"; do
	log "node $id: $(elec_stat "$id" 1 '(d["elections"], d["tx"]["invite"], d["tx"]["ready"], d["drops"])')"
done

elec_teardown 1
check "rmmod election" rmmod election
elec_end
