#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# rmmod while elections run: five nodes in two groups, Bully and the
# all-ids ring (its ring queues in flight), with the fastest timers
# (elections keep happening in a TCG guest), `group elect` loops,
# and a sixth namespace flooding EtherType 0x88B5 frames (malformed, wrong
# group, unknown and known senders). rmmod must succeed with everything
# still configured, leave no Oops/WARNING (the harness scans the kernel
# log), and a reloaded module must start from zero and work.
. tests/vm/lib.sh
elec_begin

IDS=(3 17 42 100 2001)
elec_load || elec_end
elec_topo "${IDS[@]}" 9999 || elec_end
ELEC_NODES=("${IDS[@]}")	# 9999 only injects frames

ELEC_TIMING="hb-interval $(elec_dur 1ms) hb-miss 2 timeout $(elec_dur 1ms) coord-timeout $(elec_dur 2ms)" elec_group_setup 1
ELEC_ALGO=ring-all ELEC_TIMING="hb-interval $(elec_dur 5ms) hb-miss 3 timeout $(elec_dur 2ms) coord-timeout $(elec_dur 8ms)" elec_group_setup 2
elec_start_all 1
elec_start_all 2

ip netns exec en9999 python3 "$ELEC_PY" inject --dev eth0 --seconds 40 --rate 3000 \
	--group 1 --ids 3,17,42,100,2001 &
INJ=$!
elect_loop() {
	local end=$((SECONDS + 40)) id
	while [ $SECONDS -lt $end ]; do
		for id in "${IDS[@]}"; do
			elec_ctl "$id" group elect dev eth0 group 1 2>/dev/null
			elec_ctl "$id" group elect dev eth0 group 2 2>/dev/null
		done
	done
}
elect_loop &
LOOP=$!

sleep 8
check "elections are running" test "$(elec_stat 42 1 'd["elections"]')" -gt 0
check "ring elections are running" test "$(elec_stat 42 2 'd["tx"]["ack"]')" -gt 0
log "stats of node 42 group 1: $(elec_stat 42 1 'd')"
# the flood is counted, not just survived
check "injected frames are counted as drops (malformed, wrong group, unknown peer)" \
	test "$(elec_stat 42 1 'min(d["drops"]["malformed"], d["drops"]["wrong_group"], d["drops"]["unknown_peer"])')" -gt 0
"$ELEC_CTL" -j module

log "rmmod with 10 instances running, elect loops and a frame flood"
check "rmmod election while busy" timeout 60 rmmod election
check "the module is gone" sh -c '! grep -q "^election " /proc/modules'
sleep 1

kill "$LOOP" 2>/dev/null
wait "$LOOP" 2>/dev/null

log "reload while the flood goes on"
check "insmod again" insmod "$ELEC_KO"
elec_leak_check
# the flood forges COORDINATOR/HEARTBEAT frames from real peer ids, which
# Bully has to believe: stop it before asking for one stable leader
kill "$INJ" 2>/dev/null
wait "$INJ" 2>/dev/null
elec_group_setup 1
elec_start_all 1
elec_agree 1 2001

log "second rmmod, with groups running but no flood"
check "rmmod election (groups configured)" rmmod election
check "insmod again" insmod "$ELEC_KO"
elec_leak_check
check "rmmod election (empty)" rmmod election
elec_end
