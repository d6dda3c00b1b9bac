#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Every event of a device that has instances reaches them, whatever its
# type (review defect 1). A tap device with an instance: TUNSETLINK to a
# non-Ethernet type is refused (EBUSY) while the instance exists, so the
# device keeps its type; closing the tap's file unregisters the device,
# which destroys the instance and releases the device (no "waiting for
# tap0 to become free", no instance left in the module's counters). After
# a group del, the same change is allowed. Before the fix the notifier
# ignored a device that was no longer Ethernet, so the unregistration hung
# forever with the instance holding its reference.
. tests/vm/lib.sh
elec_begin
elec_load || elec_end
elec_modprobe tun dummy

CTL=$ELEC_CTL
out=$(python3 "$ELEC_PY" tap --name tap0 \
	--cmd "$CTL group add dev tap0 group 1 id 1 algo bully && $CTL peer add dev tap0 group 1 id 2 lladdr 02:00:00:00:00:02 && $CTL -j module" 2>&1)
printf '%s\n' "$out" | sed 's/^/    /'
check "the instance was created on tap0" sh -c "printf '%s' \"\$1\" | grep -q '\"instances\": 1'" _ "$out"
check "TUNSETLINK ARPHRD_NONE refused with EBUSY while tap0 has an instance" \
	sh -c "printf '%s' \"\$1\" | grep -q 'setlink: error=16 EBUSY'" _ "$out"

# the fd is closed: tap0 is unregistered, its instance destroyed
gone=1
for _ in $(seq 1 100); do
	ip link show tap0 >/dev/null 2>&1 || { gone=0; break; }
	sleep 0.1
done
check "tap0 is gone after its file was closed" test $gone = 0
elec_leak_check
check "no unregister_netdevice wait in the kernel log" \
	sh -c '! dmesg | grep -q "waiting for tap0 to become free"'

# the refusal is tied to the instance: without one, the type changes
out=$(python3 "$ELEC_PY" tap --name tap1 \
	--cmd "$CTL group add dev tap1 group 1 id 1 algo bully && $CTL group del dev tap1 group 1" 2>&1)
printf '%s\n' "$out" | sed 's/^/    /'
check "without an instance TUNSETLINK is allowed" \
	sh -c "printf '%s' \"\$1\" | grep -q 'setlink: ok'" _ "$out"

# a device that is no longer Ethernet cannot get an instance
ip tuntap add dev tun9 mode tun
check_fails "group add on a tun (not Ethernet) device is refused" \
	"$CTL" group add dev tun9 group 1 id 1 algo bully
ip tuntap del dev tun9 mode tun

# every device event reaches the instances: unregistration by deleting a
# device with several instances, in several groups
ip link add d0 type dummy
for g in 1 2 3; do "$CTL" group add dev d0 group "$g" id 1 algo bully; done
"$CTL" group start dev d0 group 2
check "three instances on d0" test "$("$CTL" -j show dev d0 | elec_json 'len(d)')" = 3
ip link del d0
elec_leak_check

check "rmmod election" rmmod election
elec_end
