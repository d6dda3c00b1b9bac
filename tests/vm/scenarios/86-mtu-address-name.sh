#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The device under an instance changes (review defects 8 and 9):
#  - MTU: a group whose largest frame cannot fit the device's MTU is
#    refused with a message (group add; peer add for the list ring, whose
#    frames grow with the group); an MTU lowered under a running group is
#    followed: each frame that no longer fits is counted in tx_drops.mtu
#    (it used to vanish silently) and the kernel logs it once;
#  - address: `show` reports the device's current address; a node whose
#    MAC changed is heard by its peers as wrong_lladdr until they update
#    its lladdr, then it rejoins;
#  - name: replies and events follow a rename.
. tests/vm/lib.sh
elec_begin
elec_load || elec_end
elec_modprobe dummy
elec_topo 3 17 42 || elec_end

log "--- MTU refusals"
ip link add d0 type dummy
ip link set d0 mtu 30 up
check_fails "ring on MTU 30 (largest frame 32 bytes) is refused" \
	"$ELEC_CTL" group add dev d0 group 1 id 1 algo ring
check "bully on MTU 30 (24 bytes) is accepted" "$ELEC_CTL" group add dev d0 group 2 id 1 algo bully
ip link set d0 mtu 100
check "ring-list on MTU 100 is accepted" "$ELEC_CTL" group add dev d0 group 3 id 1 algo ring-list
ok=0
for p in $(seq 2 17); do
	"$ELEC_CTL" peer add dev d0 group 3 id "$p" lladdr "$(elec_mac "$p")" || ok=1
done
check "16 peers fit (24 + 8 + 4 x 17 = 100 bytes)" test $ok = 0
out=$("$ELEC_CTL" peer add dev d0 group 3 id 18 lladdr "$(elec_mac 18)" 2>&1)
echo "    $out"
check "the 17th peer is refused: the list would not fit" \
	sh -c "printf '%s' \"\$1\" | grep -q 'MTU too small'" _ "$out"
check "the group kept 16 peers" test "$("$ELEC_CTL" -j show dev d0 group 3 | elec_json 'len(d[0]["peers"])')" = 16
check "show reports the MTU" test "$("$ELEC_CTL" -j show dev d0 group 3 | elec_json 'd[0]["mtu"]')" = 100

log "--- MTU lowered under a running group"
ip link set d0 mtu 1500
"$ELEC_CTL" group set dev d0 group 2 hb-interval "$(elec_dur 20ms)"
"$ELEC_CTL" group start dev d0 group 2
sleep "$(elec_sec 1)"
drops() { "$ELEC_CTL" -j stats dev d0 group 2 | elec_json 'd[0]["tx_drops"]["mtu"]'; }
check "no MTU drops at 1500" test "$(drops)" = 0
ip link set d0 mtu 20
sleep "$(elec_sec 0.5)"
a=$(drops)
sleep "$(elec_sec 0.5)"
b=$(drops)
check "at MTU 20 the heartbeats are counted as tx_drops.mtu ($a, then $b)" test "$b" -gt "$a" -a "$a" -gt 0
check "tx_errors is their sum" test "$("$ELEC_CTL" -j stats dev d0 group 2 | elec_json 'd[0]["tx_errors"]')" -ge "$b"
check "the kernel logged the small MTU" sh -c 'dmesg | grep -q "MTU 20 is too small for the largest frame of group 2"'
ip link set d0 mtu 1500
sleep "$(elec_sec 0.3)"
a=$(drops)
sleep "$(elec_sec 0.5)"
check "back at 1500 the drops stop" test "$(drops)" = "$a"
ip link del d0

log "--- address change"
elec_group_setup 1
elec_start_all 1
elec_agree 1 42
check "42's show reports its address" \
	test "$(elec_ctl 42 -j show dev eth0 group 1 | elec_json 'd[0]["lladdr"]')" = "$(elec_mac 42)"
NEW=02:e1:00:00:aa:42
ip -n en42 link set eth0 address "$NEW"
check "42's show follows the new address" \
	test "$(elec_ctl 42 -j show dev eth0 group 1 | elec_json 'd[0]["lladdr"]')" = "$NEW"
elec_agree 1 17 "$ELEC_BOUND" 0 3 17
for id in 3 17; do
	check "node $id counts 42's frames as wrong_lladdr" \
		test "$(elec_stat "$id" 1 "d['drops']['wrong_lladdr']")" -gt 0
done
for id in 3 17; do
	elec_ctl "$id" peer del dev eth0 group 1 id 42
	elec_ctl "$id" peer add dev eth0 group 1 id 42 lladdr "$NEW"
done
elec_agree 1 42 "$ELEC_BOUND" 1

log "--- rename"
ip -n en3 link set eth0 down
ip -n en3 link set eth0 name lan0
ip -n en3 link set lan0 up
check "show follows the new name" \
	test "$(elec_ctl 3 -j show dev lan0 group 1 | elec_json 'd[0]["ifname"]')" = lan0
ELEC_DEV=lan0 elec_agree 1 42 "$ELEC_BOUND" 0 3
elec_ctl 3 group del dev lan0 group 1
ELEC_NODES=(17 42)
elec_teardown 1
check "rmmod election" rmmod election
elec_end
