#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The leader loses its link: first its own eth0 is set down (a planned
# stop: the instance resigns with a heartbeat flagged leaving before the
# device closes), then (after it has returned) the switch port is set down
# so that its eth0 loses carrier (a crash: the instance falls silent).
# Each time every survivor agrees on the next-highest id within a generous
# bound, and when the link comes back the old leader resumes (learns a
# lower leader, then bullies it) and takes over.
. tests/vm/lib.sh
elec_begin

elec_load || elec_end
elec_topo 3 17 42 100 2001 || elec_end
elec_group_setup 1
elec_start_all 1
elec_agree 1 2001

log "crash 1: eth0 of leader 2001 set down"
check "eth0 of 2001 down" ip -n en2001 link set eth0 down
elec_agree 1 100 "$ELEC_BOUND" 0 3 17 42 100
log "view of 2001 while its link is down:"
elec_ctl 2001 show dev eth0 group 1
check "2001 is silent while down (role stopped)" \
	test "$(elec_ctl 2001 -j show dev eth0 group 1 | elec_json 'd[0]["role"]')" = stopped

log "return 1: eth0 of 2001 up"
check "eth0 of 2001 up" ip -n en2001 link set eth0 up
elec_agree 1 2001 "$ELEC_BOUND" 1

log "crash 2: the switch port of 2001 set down (carrier loss on its eth0)"
check "port p2001 down" ip -n esw link set p2001 down
elec_agree 1 100 "$ELEC_BOUND" 0 3 17 42 100
log "return 2: the switch port of 2001 up"
check "port p2001 up" ip -n esw link set p2001 up
elec_agree 1 2001 "$ELEC_BOUND" 1
elec_views 1

elec_teardown 1
check "rmmod election" rmmod election
elec_end
