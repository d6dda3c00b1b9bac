#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Where the module's code runs, read from the kernel's own trace (each
# event's task and its hardirq/softirq flag), under each timer_mode. On
# PREEMPT_RT (make vmtest-rt) softirqs and soft hrtimers run in threads and
# hard hrtimers stay in hardirq, so this is where RT differs. Three nodes
# (bully), agreed, a leader crash, a re-election; per timer_mode:
#
#   timer_mode  the hrtimer callback (timer:hrtimer_expire_entry of
#               elec_inst_timer_*fn)   the protocol step (election_timer)
#   2 (fifo)    hardirq (hard_fn)      task "election-timer", no irq flag
#   1 (hardwq)  hardirq (hard_fn)      a kworker task, no irq flag
#   0 (soft)    softirq (fn), never    softirq (stock: the hrtimer
#               hardirq                softirq; RT: its ktimers thread)
#
# except that in modes 2 and 1 the deferred step of a timer that waits for
# a frame (detect, answer, coord: timer_waits_soft=1, the default) only
# arms a soft hrtimer (elec_inst_timer_rx_fn), and the step runs in the
# hrtimer softirq, after the receive softirq; with timer_waits_soft=0
# (mode 2 again) every step runs where the mode says.
# In every mode: no receive (election_rx) or transmit (election_tx) in
# hardirq context. The hard callback only stores the expiry and queues the
# step (kthread_queue_work()/queue_work(), raw spinlocks: allowed in
# hardirq on RT); everything that takes the instance lock runs in a task
# or a softirq. Prints the table of contexts seen (task kind x flag).
. tests/vm/lib.sh
elec_begin

T=/sys/kernel/tracing
[ -d "$T/events" ] || mount -t tracefs tracefs "$T" 2>/dev/null
[ -d "$T/events" ] || T=/sys/kernel/debug/tracing
P=/sys/module/election/parameters
TMPD=$(mktemp -d)
RT=no
[ "$(cat /sys/kernel/realtime 2>/dev/null)" = 1 ] && RT=yes
uname -v | grep -q 'PREEMPT_RT' && RT=yes
log "kernel $(uname -r), PREEMPT_RT: $RT"

elec_load || elec_end
elec_topo 1 2 3 || elec_end

for mw in 2:1 1:1 0:1 2:0; do
	mode=${mw%:*}
	waits=${mw#*:}
	log "--- timer_mode=$mode timer_waits_soft=$waits"
	echo "$mode" >"$P/timer_mode"
	echo "$waits" >"$P/timer_waits_soft"
	elec_group_setup 1 || break
	echo 0 >"$T/tracing_on"
	echo >"$T/trace"
	echo 8192 >"$T/buffer_size_kb"
	echo 1 >"$T/events/election/election_timer/enable"
	echo 1 >"$T/events/election/election_rx/enable"
	echo 1 >"$T/events/election/election_tx/enable"
	echo 1 >"$T/events/timer/hrtimer_expire_entry/enable"
	echo 1 >"$T/tracing_on"
	elec_start_all 1
	elec_agree 1 3
	# the leader leaves: detection, an election, a new leader
	elec_ctl 3 group stop dev eth0 group 1
	elec_agree 1 2 "$ELEC_BOUND" 0 1 2
	sleep "$(elec_sec 0.5)"
	echo 0 >"$T/tracing_on"
	echo 0 >"$T/events/enable"
	cp "$T/trace" "$TMPD/trace-$mode-$waits.txt"
	check "timer_mode=$mode timer_waits_soft=$waits: contexts as intended (RT: $RT)" \
		python3 - "$TMPD/trace-$mode-$waits.txt" "$mode" "$RT" "$waits" <<'PY'
import collections, re, sys

path, mode, rt = sys.argv[1], int(sys.argv[2]), sys.argv[3] == "yes"
waits = sys.argv[4] == "1"
WAITS = ("detect", "answer", "coord")
line_re = re.compile(r"^\s*(?P<comm>.+?)-(?P<pid>\d+)\s+(?:\(\s*[-\d]+\)\s+)?\[(?P<cpu>\d+)\]\s+"
                     r"(?P<flags>\S+)\s+(?P<ts>[\d.]+):\s+(?P<ev>\w+):\s*(?P<rest>.*)$")
seen = collections.Counter()
bad = []


def kind(comm):
    for k in ("election-timer", "kworker", "ksoftirqd", "ktimers", "irq/"):
        if comm.startswith(k):
            return k.rstrip("/")
    return "other (" + comm + ")" if comm not in ("<idle>",) else "idle"


def ctx(flags):
    # the irq column is the only one with h, H or s; its position differs
    # (stock 6.1 "d.h1.", RT "d..h1..": RT adds the lazy-preempt column)
    if "h" in flags or "H" in flags:
        return "hardirq"
    return "softirq" if "s" in flags else "task"


def soft_ok(comm, c):
    """a soft hrtimer's context: the hrtimer softirq; on RT its thread"""
    return c == "softirq" or (rt and kind(comm) == "ktimers" and c == "task")


n = collections.Counter()
for ln in open(path, errors="replace"):
    m = line_re.match(ln)
    if not m:
        continue
    ev, comm, flags, rest = m["ev"], m["comm"].strip(), m["flags"], m["rest"]
    if ev == "hrtimer_expire_entry":
        fm = re.search(r"function=(\S+)", rest)
        fn = fm.group(1) if fm else ""
        if not fn.startswith("elec_inst_timer"):
            continue
        ev = "callback " + fn
    c = ctx(flags)
    if ev != "election_timer":
        seen[(ev, kind(comm), c)] += 1
    n[ev.split()[0]] += 1
    if ev.startswith("callback"):
        hard = fn.startswith("elec_inst_timer_hard_fn")
        if hard and mode == 0:
            bad.append("%s: callback %s in timer_mode %d" % (ev, fn, mode))
        if not hard and mode != 0 and not (waits and fn.startswith("elec_inst_timer_rx_fn")):
            bad.append("%s: soft callback %s in timer_mode %d, timer_waits_soft=%d" % (ev, fn, mode, waits))
        if hard and c != "hardirq":
            bad.append("%s in %s (%s %s), want hardirq" % (ev, c, comm, flags))
        if not hard and not soft_ok(comm, c):
            bad.append("%s in %s (%s %s), want the hrtimer softirq" % (ev, c, comm, flags))
    elif ev == "election_timer":
        tm = re.search(r"timer=(\S+)", rest)
        name = tm.group(1) if tm else ""
        soft = mode == 0 or (waits and name in WAITS)
        n["step " + ("soft" if soft else "hard")] += 1
        seen[(ev + " " + name, kind(comm), c)] += 1
        if soft and not soft_ok(comm, c):
            bad.append("%s step in %s %s (%s), want the hrtimer softirq" % (name, comm, c, flags))
        elif not soft and mode == 2 and (kind(comm) != "election-timer" or c != "task"):
            bad.append("%s step in %s %s (%s), want task election-timer" % (name, comm, c, flags))
        elif not soft and mode == 1 and (kind(comm) != "kworker" or c != "task"):
            bad.append("%s step in %s %s (%s), want a kworker task" % (name, comm, c, flags))
    elif c == "hardirq":
        bad.append("%s in hardirq (%s %s)" % (ev, comm, flags))
for (ev, k, c), cnt in sorted(seen.items()):
    print("    %-44s %-22s %-8s %6d" % (ev, k, c, cnt))
want = ["callback", "election_timer", "election_rx", "election_tx"]
if mode != 0:
    want += ["step hard"] + (["step soft"] if waits else [])
for w in want:
    if not n[w]:
        bad.append("no %s event in the trace" % w)
for b in bad[:20]:
    print("    BAD: " + b)
sys.exit(1 if bad else 0)
PY
	elec_teardown 1
done
echo 2 >"$P/timer_mode"
echo 1 >"$P/timer_waits_soft"

check "rmmod election" rmmod election
elec_end
