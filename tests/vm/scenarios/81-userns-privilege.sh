#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Who may run instances (review defect 2). An unprivileged user (uid
# 65534) in its own user and network namespace (unshare -Urn) holds
# CAP_NET_ADMIN over that namespace only: by default every mutation is
# refused with a message naming the initial user namespace, and
# `electionctl module` (module-wide counters) too; reads of its own
# namespace work. With the module parameter userns_admin=1 it may create
# instances, at most userns_max_instances per namespace and
# userns_max_total in all its namespaces together, with no duration below
# userns_min_interval_us; root is bound by none of these limits. The
# parameters are read at each request.
. tests/vm/lib.sh
elec_begin
elec_load || elec_end
elec_modprobe dummy

P=/sys/module/election/parameters
check "userns_admin defaults to N" test "$(cat $P/userns_admin)" = N
check "userns_max_instances defaults to 64" test "$(cat $P/userns_max_instances)" = 64
check "userns_min_interval_us defaults to 1000" test "$(cat $P/userns_min_interval_us)" = 1000
check "userns_max_total defaults to 256" test "$(cat $P/userns_max_total)" = 256

# uid 65534 in a fresh user + network namespace (unshare -Urn), with a
# dummy device. The harness runs scenarios chrooted into the host's root,
# and the kernel refuses a new user namespace to a chrooted process; so
# setpriv and unshare run from the guest's real root (the initramfs, where
# the host's root is /host and busybox is static), and the command
# chroots back into /host inside the new namespace.
[ -e /proc/sys/kernel/unprivileged_userns_clone ] &&
	echo 1 >/proc/sys/kernel/unprivileged_userns_clone
LDSO=/host$(readlink -f /lib64/ld-linux-x86-64.so.2)
LIBS=/host/lib/x86_64-linux-gnu:/host/usr/lib/x86_64-linux-gnu
uns() {
	chroot /proc/1/root "$LDSO" --library-path "$LIBS" /host/usr/bin/setpriv \
		--reuid 65534 --regid 65534 --clear-groups \
		/bin/busybox unshare -Urn /bin/busybox chroot /host /bin/sh -c \
		"cd / && ip link add d0 type dummy && ip link set d0 up && $*"
}
# uid 65534 may not enter the repository (a clone under mktemp -d is 0700):
# it runs a copy of electionctl from the guest's /tmp
CTL=$(mktemp -d /tmp/uns.XXXXXX)/electionctl
chmod 755 "$(dirname "$CTL")"
install -m 755 "$ELEC_CTL" "$CTL"
# uns_refused DESC PATTERN CMD: CMD fails in the user namespace, saying PATTERN
uns_refused() {
	local out rc
	out=$(uns "$3" 2>&1)
	rc=$?
	printf '%s\n' "$out" | sed 's/^/    /'
	if [ $rc != 0 ] && printf '%s' "$out" | grep -q -- "$2"; then
		pass "$1"
	else
		fail "$1 (exit $rc, expected a refusal saying: $2)"
	fi
}

check "uid 65534 can create its user and network namespace and a device" \
	uns 'test "$(awk "{print \$2}" /proc/self/uid_map)" = 65534' || elec_end
uns_refused "userns_admin=0: group add refused, naming the initial user namespace and userns_admin" \
	"CAP_NET_ADMIN is required in the initial user namespace.*userns_admin" \
	"$CTL group add dev d0 group 1 id 1 algo bully"
uns_refused "module counters refused to the user namespace" \
	"module-wide counters need CAP_NET_ADMIN in the initial user namespace" "$CTL module"
check "reads of its own namespace work (empty)" uns "$CTL -j show | grep -qx '\\[\\]'"

log "--- userns_admin=1"
echo 1 >$P/userns_admin
check "userns_admin=1: group add, peer add, start, set, elect, del" \
	uns "$CTL group add dev d0 group 1 id 1 algo bully &&
	     $CTL peer add dev d0 group 1 id 2 lladdr 02:00:00:00:00:02 &&
	     $CTL group start dev d0 group 1 &&
	     $CTL group set dev d0 group 1 hb-interval 50ms &&
	     $CTL group elect dev d0 group 1 &&
	     $CTL -j show dev d0 group 1 | grep -q '\"hb_interval_ns\": 50000000' &&
	     $CTL group del dev d0 group 1"
uns_refused "hb-interval below userns_min_interval_us refused" userns_min_interval_us \
	"$CTL group add dev d0 group 1 id 1 algo bully hb-interval 500us"
uns_refused "timeout below userns_min_interval_us refused" userns_min_interval_us \
	"$CTL group add dev d0 group 1 id 1 algo bully timeout 999us"
uns_refused "coord-timeout below userns_min_interval_us refused" userns_min_interval_us \
	"$CTL group add dev d0 group 1 id 1 algo bully coord-timeout 200us"
uns_refused "group set below the floor refused" userns_min_interval_us \
	"$CTL group add dev d0 group 1 id 1 algo bully && $CTL group set dev d0 group 1 timeout 100us"
echo 100 >$P/userns_min_interval_us
check "userns_min_interval_us is read at each request: at 100, 500us is accepted" \
	uns "$CTL group add dev d0 group 1 id 1 algo bully hb-interval 500us"
echo 1000 >$P/userns_min_interval_us

# 64 instances, then the 65th is refused; the count is per namespace
many="i=1; while [ \$i -le 64 ]; do $CTL group add dev d0 group \$i id 1 algo bully || exit 1; i=\$((i+1)); done"
# (one "dev ..." line per instance in show's text, its peers indented)
check "userns: 64 instances in one namespace" uns "$many && test \"\$($CTL show | grep -c '^dev ')\" = 64"
uns_refused "userns: the 65th is refused, naming userns_max_instances" userns_max_instances \
	"$many && $CTL group add dev d0 group 65 id 1 algo bully"
echo 2 >$P/userns_max_instances
uns_refused "userns_max_instances read at each request (2: the third refused)" userns_max_instances \
	"$CTL group add dev d0 group 1 id 1 algo bully && $CTL group add dev d0 group 2 id 1 algo bully && $CTL group add dev d0 group 3 id 1 algo bully"
echo 64 >$P/userns_max_instances
# issue 33, item 4: a tenant makes network namespaces of its own (it holds
# CAP_SYS_ADMIN in its user namespace), each with its own per-namespace
# limit; userns_max_total bounds them together (3: the fourth refused,
# though in a second namespace with one instance)
echo 3 >$P/userns_max_total
two="$CTL group add dev d0 group 1 id 1 algo bully && $CTL group add dev d0 group 2 id 1 algo bully"
uns_refused "userns_max_total counts every namespace of the tenant (3: the fourth refused)" userns_max_total \
	"$two && unshare -n sh -c 'ip link add d1 type dummy && $CTL group add dev d1 group 1 id 1 algo bully && $CTL group add dev d1 group 2 id 1 algo bully'"
echo 256 >$P/userns_max_total
uns_refused "module counters still refused with userns_admin=1" \
	"module-wide counters need CAP_NET_ADMIN" "$CTL module"

# every namespace above is gone with its user's processes: so are its
# devices and instances
elec_leak_check

log "--- root is bound by neither limit"
echo 1 >$P/userns_max_instances
ip link add d9 type dummy
check "root: two instances in a namespace over the limit, 100us timers" \
	sh -c "$CTL group add dev d9 group 1 id 1 algo bully hb-interval 100us timeout 100us &&
	       $CTL group add dev d9 group 2 id 1 algo bully"
check "root: module counters" "$CTL" module
ip link del d9
echo 64 >$P/userns_max_instances
echo 0 >$P/userns_admin
uns_refused "userns_admin back to 0: refused again" "CAP_NET_ADMIN is required in the initial user namespace" \
	"$CTL group add dev d0 group 1 id 1 algo bully"
elec_leak_check
check "rmmod election" rmmod election
elec_end
