#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tests/vm/selftest.sh: checks of the VM harness itself (runs on the host).
#   - scan-klog on fake kernel logs (clean, each error pattern, ignore list)
#   - lib.sh's timer scale: elec_dur, elec_sec, scaled ELEC_BOUND/ELEC_TIMING
#   - elec.py roles on a recorded watch (tests/vm/fixtures/)
#   - tests/vm/run: exit status propagation, arguments, $RESULTS_DIR, a
#     script under /tmp, ELEC_* variables passed in, a kernel WARNING making
#     a clean exit fail, timeout.
# Prints PASS/FAIL lines and a final "N passed, N failed"; exit 1 on failure.

set -uo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
RUN=$HERE/run
SCAN=$HERE/scan-klog
T=$(mktemp -d /tmp/election-vm-selftest.XXXXXX)
trap 'rm -rf "$T"' EXIT
pass=0
fail=0

ok() { echo "PASS: $*"; pass=$((pass + 1)); }
ko() { echo "FAIL: $*"; fail=$((fail + 1)); }
expect() {	# expect NAME WANTED GOT
	if [ "$2" = "$3" ]; then ok "$1"; else ko "$1 (wanted $2, got $3)"; fi
}

# ---------------------------------------------------------------- scanner ---
cat >"$T/clean.log" <<'EOF'
[    0.000000] Linux version 6.1.0-56-amd64 (debian-kernel@lists.debian.org)
[    2.530000] election: loading out-of-tree module taints kernel.
[    2.531000] election: module verification failed: signature and/or required key missing - tainting kernel
[    3.000000] br0: port 1(veth0) entered forwarding state
EOF
"$SCAN" "$T/clean.log" >/dev/null
expect "scan-klog: clean log passes" 0 $?
"$SCAN" "$T/does-not-exist" >/dev/null
expect "scan-klog: missing log is clean" 0 $?

i=0
while IFS= read -r line; do
	i=$((i + 1))
	{ cat "$T/clean.log"; printf '%s\r\n' "$line"; echo "[    9.0] after"; } >"$T/bad$i.log"
	out=$("$SCAN" "$T/bad$i.log")
	rc=$?
	if [ $rc = 1 ] && [ "$out" = "$line" ]; then
		ok "scan-klog catches: $line"
	else
		ko "scan-klog misses: $line (rc $rc, out '$out')"
	fi
done <<'EOF'
[    4.1] Oops: 0000 [#1] PREEMPT SMP NOPTI
[    4.2] BUG: kernel NULL pointer dereference, address: 0000000000000008
[    4.3] kernel BUG at net/election/main.c:42!
[    4.4] WARNING: CPU: 1 PID: 42 at module/main.c:10 elec_fn+0x1/0x2 [election]
[    4.5] general protection fault, probably for non-canonical address 0xdead000000000100: 0000 [#1]
[    4.6] BUG: KASAN: use-after-free in elec_rx+0x10/0x20
[    4.7] UBSAN: shift-out-of-bounds in module/core/bully.c:12:3
[    4.8] list_del corruption. prev->next should be ffff8880, but was dead000000000100
[    4.9] refcount_t: underflow; use-after-free.
[    5.0] Kernel panic - not syncing: Fatal exception in interrupt
[    5.1] INFO: task rmmod:123 blocked for more than 120 seconds.
[    5.2] rcu: INFO: rcu_preempt detected stalls on CPUs/tasks:
[    5.3] watchdog: BUG: soft lockup - CPU#0 stuck for 22s! [ksoftirqd/0:15]
[    5.4] possible circular locking dependency detected
[    5.5] inconsistent lock state
[    5.6] possible recursive locking detected
[    5.7] possible irq lock inversion dependency detected
[    5.8] HARDIRQ-safe -> HARDIRQ-unsafe lock order detected
[    5.9] bad unlock balance detected!
[    6.0] held lock freed!
[    6.1] lock held when returning to user space!
[    6.2] suspicious RCU usage
[    6.3] INFO: lockdep is turned off.
[    6.4] ODEBUG: free active (active state 0) object: 00000000b4f1e2a3 object type: hrtimer hint: elec_timer_fn+0x0/0x40 [election]
[    6.5] ODEBUG: Out of memory. ODEBUG disabled
unreferenced object 0xffff888012345678 (size 64):
[    6.6] kmemleak: 1 new suspected memory leaks (see /sys/kernel/debug/kmemleak)
[    6.7] kmemleak: Kernel memory leak detector disabled
[    6.8] kmemleak: Memory pool empty, consider increasing CONFIG_DEBUG_KMEMLEAK_MEM_POOL_SIZE
[    6.9] leaked reference.
[    7.0] reference already released.
[    7.1] unregister_netdevice: waiting for eth0 to become free. Usage count = 2
EOF

# lines of a sound debug kernel's boot (VM_KERNEL=debug) are not errors
cat >"$T/debug-clean.log" <<'EOF'
[    0.000000] Linux version 6.1.192-elecdebug (root@host) (gcc (Debian 12.2.0-14) 12.2.0) #1 SMP PREEMPT_DYNAMIC
[    0.000000] kasan: KernelAddressSanitizer initialized
[    0.100000] Lock dependency validator: Copyright (c) 2006 Red Hat, Inc., Ingo Molnar
[    0.100000] ... MAX_LOCKDEP_SUBCLASSES:  8
[    0.200000] ODEBUG: selftest passed
[    0.300000] kmemleak: Kernel memory leak detector initialized (mem pool available: 31200)
[    2.000000] election-vm: kmemleak scan
EOF
"$SCAN" "$T/debug-clean.log" >/dev/null
expect "scan-klog: a clean debug kernel boot passes" 0 $?

# the same line in two logs is reported once
cp "$T/bad4.log" "$T/bad4b.log"
n=$("$SCAN" "$T/bad4.log" "$T/bad4b.log" | wc -l)
expect "scan-klog: duplicate across logs reported once" 1 "$n"
VM_KLOG_IGNORE='fake_ignored' "$SCAN" <(echo "[ 1.0] WARNING: CPU: 0 PID: 1 at fake_ignored") >/dev/null
expect "scan-klog: VM_KLOG_IGNORE exempts a line" 0 $?

# ------------------------------------------------------ lib.sh timer scale ---
# elec_dur/elec_sec and the scaled defaults (sourced on the host: lib.sh
# only defines things when sourced)
libval() {	# libval SCALE EXPR: EXPR evaluated after sourcing lib.sh
	ELECTION_REPO=$HERE/../.. ELEC_TIMER_SCALE=$1 bash -c '. "$0"/tests/vm/lib.sh; eval "$1"' \
		"$HERE/../.." "$2" 2>&1
}
expect "lib.sh: elec_dur at scale 1 is the identity" "100ms 1s 250us 2ms" \
	"$(libval 1 'echo $(elec_dur 100ms) $(elec_dur 1s) $(elec_dur 250us) $(elec_dur 2ms)')"
expect "lib.sh: elec_dur at scale 4" "400ms 4s 1ms 1600ms 6s" \
	"$(libval 4 'echo $(elec_dur 100ms) $(elec_dur 1s) $(elec_dur 250us) $(elec_dur 400ms) $(elec_dur 1.5s)')"
expect "lib.sh: elec_sec at scale 3" "6 0.3" "$(libval 3 'echo $(elec_sec 2) $(elec_sec 100ms)')"
expect "lib.sh: stock defaults unchanged at scale 1" \
	"20 hb-interval 100ms hb-miss 5 timeout 100ms coord-timeout 400ms" "$(libval 1 'echo $ELEC_BOUND $ELEC_TIMING')"
expect "lib.sh: ELEC_BOUND and ELEC_TIMING scaled at 4" \
	"80 hb-interval 400ms hb-miss 5 timeout 400ms coord-timeout 1600ms" "$(libval 4 'echo $ELEC_BOUND $ELEC_TIMING')"

# ------------------------------------------------------- elec.py roles ---
# A recorded watch (78-quorum, min-bully, a TCG guest under load): leader 1
# lost its lease 0.81 s before the split, took the role back 0.29 s before
# it and stepped down 0.32 s after it; 3 led the majority from 0.72 s. The
# judgement names the interval held at the split, not the first one.
FIX=$HERE/fixtures/watch-presplit-loss.jsonl
out=$(python3 "$HERE/elec.py" roles --file "$FIX" --quorum on \
	--origin-real 1795788615679928554 --shell 2>&1)
roles_get() { sed -n "s/^R_$1=//p" <<<"$out"; }
expect "roles: node 1 stepped down after the split, from the interval it held then" \
	0.3176 "$(roles_get down_1)"
expect "roles: node 3 took the role 0.7211 s after the split" 0.7211 "$(roles_get up_3)"
expect "roles: node 1 lost its lease twice in the watch" 2 "$(roles_get quorum_lost_1)"
expect "roles: no two leaders at once" "'[]'" "$(roles_get overlaps)"
expect "roles: node 1 did not hold the role throughout" 0 "$(roles_get held_1)"

# ------------------------------------------------------- timeline.py ---
# The demo's summary (make demo) on a busy host: leader 2001's switch port
# goes down at t=1000 ms (demo.py's stamp), the survivors start an
# election from 1045 ms and all follow 100 at 1050, and 2001's own "stopped"
# event (the carrier change, reported late by linkwatch) comes at 1200.
# Failover is measured from the cut (50 ms, not -150 ms from "stopped").
# Then a handover whose leader's "stopped" event is stamped after the
# survivors agreed: a wrong clock, which fails the summary.
TL=$T/timeline
mkdir -p "$TL/ok" "$TL/neg"
ms() { echo $(($1 * 1000000)); }
tl_events() {	# DIR: elections from 1045 ms, the last survivor follows 100 at 1050
	local id
	for id in 3 17 42 100; do
		{
			printf '{"event": "leader_changed", "leader": 2001, "term": 2, "ts_ns": %s}\n' "$(ms 10)"
			printf '{"event": "election_started", "term": 3, "ts_ns": %s}\n' "$(ms $((1045 + id % 5)))"
			printf '{"event": "leader_changed", "leader": 100, "term": 3, "ts_ns": %s}\n' "$(ms $((1047 + id % 5)))"
		} >"$1/mon-$id.jsonl"
	done
	printf '{"event": "leader_changed", "leader": 2001, "term": 2, "ts_ns": %s}\n{"event": "stopped", "ts_ns": %s}\n' \
		"$(ms 10)" "$(ms 1200)" >"$1/mon-2001.jsonl"
}
tl_events "$TL/ok"
printf '{"ts_ns": %s, "mark": "crash", "text": "crash", "node": 2001, "expect": 100, "nodes": [3,17,42,100], "cut_span_ns": 120000}\n' \
	"$(ms 1000)" >"$TL/ok/marks.jsonl"
out=$(python3 "$HERE/timeline.py" "$TL/ok" 2>&1)
expect "timeline: a crash settled is a pass" 0 $?
expect "timeline: failover from the cut's stamp, not the leader's late stopped event" \
	"50.000" "$(awk '/FAILOVER LATENCY:/ {print $3}' <<<"$out")"
expect "timeline: detection from the cut to the first election_started" \
	"45.000" "$(awk '/detection:/ {print $2}' <<<"$out")"
tl_events "$TL/neg"
printf '{"ts_ns": %s, "mark": "handover", "text": "handover", "node": 2001, "expect": 100, "nodes": [3,17,42,100]}\n' \
	"$(ms 1000)" >"$TL/neg/marks.jsonl"
out=$(python3 "$HERE/timeline.py" "$TL/neg" 2>&1)
expect "timeline: survivors agreeing before the stop's own stamp fail the summary" 1 $?
expect "timeline: and it says so" 1 "$(grep -c 'NEGATIVE LATENCY' <<<"$out")"

# ---------------------------------------------------------------- harness ---
if [ "${VM_SELFTEST_SCAN_ONLY:-0}" = 1 ]; then
	echo "$pass passed, $fail failed"
	[ $fail = 0 ]
	exit
fi

mkdir -p "$T/scripts dir"
cat >"$T/scripts dir/exit3.sh" <<'EOF'
#!/bin/bash
[ "$(pwd)" = "$ELECTION_REPO" ] || { echo "bad cwd $(pwd)"; exit 10; }
[ -d module ] || { echo "repo not visible"; exit 11; }
[ "$(id -u)" = 0 ] || exit 12
[ "$#" = 2 ] && [ "$1" = "a b" ] && [ "$2" = 'c$d' ] || { echo "bad args: $*"; exit 13; }
echo "written in the guest" >"$RESULTS_DIR/out.txt" || exit 14
echo "to stdout"
echo "to stderr" >&2
exit 3
EOF
chmod +x "$T/scripts dir/exit3.sh"
out=$(RESULTS_DIR="$T/res" VM_QUIET=1 "$RUN" "$T/scripts dir/exit3.sh" "a b" 'c$d' 2>&1)
rc=$?
expect "run: exit status, args, cwd of a script under /tmp" 3 "$rc"
[ "$rc" = 3 ] || echo "$out" | tail -n 20
expect "run: output streamed" yes "$(echo "$out" | grep -q 'to stdout' && echo "$out" | grep -q 'to stderr' && echo yes)"
expect "run: \$RESULTS_DIR comes back" "written in the guest" "$(cat "$T/res/out.txt" 2>/dev/null)"
expect "run: console log saved" yes "$([ -s "$T/res/vm-console.log" ] && echo yes)"

printf '#!/bin/sh\n[ $# = 0 ] || { echo "got $# args"; exit 9; }\nexit 0\n' >"$T/noargs.sh"
chmod +x "$T/noargs.sh"
RESULTS_DIR="$T/res1" VM_QUIET=1 "$RUN" "$T/noargs.sh" >/dev/null 2>&1
expect "run: no arguments means no arguments" 0 $?

printf '#!/bin/sh\necho "$ELEC_TIMER_SCALE $ELEC_KO"\n' >"$T/env.sh"
out=$(ELEC_TIMER_SCALE=3 ELEC_KO=/nonexistent/x.ko RESULTS_DIR="$T/res5" VM_QUIET=1 "$RUN" "$T/env.sh" 2>&1)
expect "run: ELEC_TIMER_SCALE and ELEC_KO reach the guest" "3 /nonexistent/x.ko" "$(echo "$out" | tr -d '\r' | tail -n 1)"

printf '#!/bin/sh\necho "WARNING: CPU: 0 PID: 1 at selftest/fake.c:1 selftest+0x0/0x1" >/dev/kmsg\nexit 0\n' >"$T/warn.sh"
out=$(RESULTS_DIR="$T/res2" VM_QUIET=1 "$RUN" "$T/warn.sh" 2>&1)
rc=$?
expect "run: WARNING in kernel log fails a clean exit" 1 "$rc"
expect "run: offending line printed" yes "$(echo "$out" | grep -q 'selftest/fake.c' && echo yes)"

out=$(VM_BOOT_TIMEOUT=0 VM_BOOT_TRIES=2 RESULTS_DIR="$T/res4" "$RUN" "$T/noargs.sh" 2>&1)
rc=$?
expect "run: a guest that does not reach the script in time is booted again" "0 yes" \
	"$rc $(echo "$out" | grep -q 'boot 1 of 2: the guest did not reach the script' && echo yes)"

printf '#!/bin/sh\necho started\nsleep 300\n' >"$T/sleep.sh"
VM_TIMEOUT=${VM_SELFTEST_TIMEOUT:-15} RESULTS_DIR="$T/res3" VM_QUIET=1 "$RUN" "$T/sleep.sh" >/dev/null 2>&1
expect "run: VM_TIMEOUT kills the guest with 124" 124 $?

echo "$pass passed, $fail failed"
[ $fail = 0 ]
