#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make vmtest-long: the Invitation algorithm under partitions that flap for
# a minute. 8 nodes (ids 1..8); every 0.2 to 2 s the switch moves a random
# set of ports to a second bridge (a new split: the halves need not be
# even, a split may follow a split), or heals, at random. At the end the
# partition heals: every node must be in one group under 8 within the
# liveness bound, stay there, and the module must unload clean.
. tests/vm/lib.sh
elec_begin

ELEC_ALGO=invitation
IDS=(1 2 3 4 5 6 7 8)
DURATION=${ELEC_FLAP_SECONDS:-60}

elec_load || elec_end
elec_topo "${IDS[@]}" || elec_end
check "a second bridge br1 in the switch" ip -n esw link add br1 type bridge
check "br1 up" ip -n esw link set br1 up
elec_group_setup 1
elec_start_all 1
all=$(for id in "${IDS[@]}"; do printf 'en%s:%s,' "$id" "$id"; done)
all=${all%,}
check "one group under 8 after the start" \
	python3 "$ELEC_PY" groups --group 1 --timeout "$ELEC_BOUND" "$all"

RANDOM=77
end=$((SECONDS + DURATION))
splits=0 heals=0
while [ $SECONDS -lt $end ]; do
	if [ $((RANDOM % 3)) = 0 ]; then
		for id in "${IDS[@]}"; do
			ip -n esw link set "p$id" master br0
		done
		heals=$((heals + 1))
	else
		moved=()
		for id in "${IDS[@]}"; do
			if [ $((RANDOM % 2)) = 0 ]; then
				ip -n esw link set "p$id" master br1
				moved+=("$id")
			else
				ip -n esw link set "p$id" master br0
			fi
		done
		splits=$((splits + 1))
	fi
	sleep "$(awk -v r=$RANDOM 'BEGIN { printf "%.2f", 0.2 + 1.8 * r / 32767 }')"
done
log "flapped for ${DURATION}s: $splits splits, $heals heals; now healed for good"
for id in "${IDS[@]}"; do
	ip -n esw link set "p$id" master br0
done
check "one group under 8 after the flapping, and it holds" \
	python3 "$ELEC_PY" groups --group 1 --timeout "$ELEC_BOUND" --stable "$(elec_sec 3s)" "$all"
for id in "${IDS[@]}"; do
	log "node $id: $(elec_stat "$id" 1 '(d["elections"], d["tx"]["invite"], d["tx"]["ready"], d["drops"])')"
done

elec_teardown 1
check "rmmod election" rmmod election
elec_end
