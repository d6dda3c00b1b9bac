#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Terms (our addition to Bully): the leader is cut off without noticing
# (its switch port leaves the bridge; carrier stays up), so it keeps leading
# alone while the others elect 100 with a higher term. When the partition
# heals, the old leader accepts the higher term, steps down, then bullies
# back (it has the highest id) with a newer term still; everyone agrees.
. tests/vm/lib.sh
elec_begin

elec_load || elec_end
elec_topo 3 17 42 100 2001 || elec_end
elec_group_setup 1
elec_start_all 1
elec_agree 1 2001
t1=$(elec_ctl 2001 -j show dev eth0 group 1 | elec_json 'd[0]["term"]')

log "partition: port p2001 leaves the bridge"
check "p2001 detached" ip -n esw link set p2001 nomaster
elec_agree 1 100 "$ELEC_BOUND" 0 3 17 42 100
check "isolated 2001 still believes it leads" \
	test "$(elec_ctl 2001 -j show dev eth0 group 1 | elec_json 'd[0]["role"]')" = leader
t2=$(elec_ctl 100 -j show dev eth0 group 1 | elec_json 'd[0]["term"]')
check "the new leader's term $t2 is above the old one's $t1" test "$t2" -gt "$t1"

log "heal: p2001 rejoins the bridge"
check "p2001 attached" ip -n esw link set p2001 master br0
elec_agree 1 2001 "$ELEC_BOUND" 1
t3=$(elec_ctl 2001 -j show dev eth0 group 1 | elec_json 'd[0]["term"]')
check "2001 took over with a newer term $t3 > $t2" test "$t3" -gt "$t2"
for id in 3 17 42 100; do
	log "node $id drops: $(elec_stat "$id" 1 'd["drops"]')"
done
elec_views 1

elec_teardown 1
check "rmmod election" rmmod election
elec_end
