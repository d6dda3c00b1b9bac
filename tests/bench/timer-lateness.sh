#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# tests/bench/timer-lateness.sh [REPS [SECONDS [MODES [INTERVALS]]]]
#
# Timer lateness of election.ko per timer mode (module parameter
# timer_mode: 0 soft hrtimer, 1 hard hrtimer + WQ_HIGHPRI workqueue, 2 hard
# hrtimer + SCHED_FIFO kthread), quiet and with a CPU hog in the guest, at
# each heartbeat interval: REPS VMs (default 3), each running
# tests/bench/timer-lateness-guest.py (SECONDS per phase, default 8;
# MODES default "0 1 2"; INTERVALS default "10ms 1ms"). Raw results:
# $RESULTS_DIR/timer-lateness.jsonl (default build/bench-timers/); the
# table (p50, p99, max lateness, spread over the runs, and the elections
# the detectors started) is printed and written to
# $RESULTS_DIR/timer-lateness-table.md. `make bench-timers` runs it.
set -uo pipefail
REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd -P)
cd "$REPO" || exit 1
REPS=${1:-3}
SECS=${2:-8}
MODES=${3:-0 1 2}
INTERVALS=${4:-10ms 1ms}
export RESULTS_DIR=${RESULTS_DIR:-$REPO/build/bench-timers}
mkdir -p "$RESULTS_DIR"
rm -f "$RESULTS_DIR/timer-lateness.jsonl"
rc=0
for rep in $(seq "$REPS"); do
	echo "bench-timers: run $rep of $REPS"
	VM_TIMEOUT=${VM_TIMEOUT:-900} tests/vm/run tests/bench/timer-lateness-guest.py \
		"$rep" "$SECS" "$MODES" "$INTERVALS" || rc=1
done
python3 tests/bench/timer-lateness-table.py "$RESULTS_DIR/timer-lateness.jsonl" |
	tee "$RESULTS_DIR/timer-lateness-table.md"
exit $rc
