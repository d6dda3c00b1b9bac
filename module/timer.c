// SPDX-License-Identifier: GPL-2.0
/*
 * election.ko: where an instance's timer expiries run.
 *
 * Soft hrtimers (HRTIMER_MODE_ABS_SOFT) run their callbacks in the hrtimer
 * softirq. On a busy CPU the kernel hands softirqs to ksoftirqd, an
 * ordinary SCHED_OTHER thread that competes with every runnable task: a
 * guest whose CPUs are saturated runs heartbeats tens of milliseconds
 * late, and followers declare a live leader failed.
 *
 * The hard modes arm hard hrtimers (HRTIMER_MODE_ABS_HARD), whose
 * callbacks run in hardirq context, on time, and do nothing there but
 * record the expiry and queue the protocol step (instance.c) to a context
 * that may take the instance lock, allocate, transmit and multicast:
 *  - timer_mode=2 (fifo, the default): the module's kthread worker
 *    "election-timer", SCHED_FIFO (sched_set_fifo(): priority 50), which
 *    preempts every SCHED_OTHER task at once;
 *  - timer_mode=1 (hardwq): a WQ_HIGHPRI workqueue (kworkers at nice
 *    -20): favoured by CFS but still sharing the CPU with the load;
 *  - timer_mode=0 (soft): the old behaviour.
 * The parameter is read when an instance is created; an instance keeps
 * its mode. Documentation/results/timer-lateness.md has the measurements.
 *
 * In the hard modes the step of a timer that waits for a frame (the
 * detection window, a wait for answers, for a COORDINATOR, for an
 * acknowledgment: elec_timer_awaits_rx()) takes one more hop
 * (timer_waits_soft=1, the default): the deferred step only arms a soft
 * hrtimer that expires at once, and the step runs in the hrtimer softirq.
 * Stepped in the worker, it would judge the frames it waits for before
 * the receive softirq, which a loaded CPU defers to ksoftirqd, delivered
 * them: a whole group that heard nothing for a few milliseconds suspects
 * its leader at once and every candidate gives up on answers that sit in
 * the backlog (16 nodes at hb-interval 1 ms on a busy guest: bursts of 39
 * and 74 takeovers). NET_RX comes before HRTIMER in every softirq pass,
 * so the step follows the receive of what came before it, on the CPU
 * where the worker armed it: best effort (frames queued on another CPU,
 * or more than one NET_RX budget, may still wait; on PREEMPT_RT soft
 * hrtimers and softirqs run in different threads, in no set order). It
 * still goes through the worker first: a stall that holds the worker off
 * (an RT task above it) holds the waits off too, and the late expiry is
 * judged late (the core's detect deferral). Heartbeats, beacons and
 * leases keep to time.
 *
 * The FIFO worker can keep to a budget (timer_budget_pct; default 100,
 * off: a loaded host's stalls inside steps count as step time, and the
 * pauses they bring delayed heartbeats enough to break 300 ms quorum
 * leases in a test; 50 is the setting for a slow guest). With a budget it
 * earns that share of the time that passes as credit, at most
 * ELEC_TIMER_BURST_NS worth, and spends its protocol steps' time from it,
 * the softirqs they run on the way out included (a transmit's
 * local_bh_enable() runs the receive of the frames it queued, and whatever
 * else is pending on that CPU). A step that finds the credit spent first
 * sleeps until it is earned back, so over any stretch of time the worker
 * runs at most the budget's share of it plus one burst (a step of 10 ms at
 * 50% is followed by a 10 ms pause). A pause lasts at most
 * ELEC_TIMER_DEBT_MAX_NS: a host that stalls the guest inside a step makes
 * that step look long, and the cap keeps what the budget adds to the
 * lateness after such a stall to 20 ms (a single step longer than that is
 * paid back in part).
 * The kernel's own RT throttling leaves SCHED_OTHER tasks 5% of a CPU, in
 * one 50 ms slice a second: too little for ksoftirqd (softirqs, RCU
 * callbacks) and RCU's kthreads on a slow guest with many instances on
 * short timers, where grace periods, and with them rmmod and namespace
 * deletion, would wait. The pauses are counted (electionctl module:
 * timer_throttled, timer_throttled_ns).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kthread.h>
#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/moduleparam.h>
#include <linux/printk.h>
#include <linux/sched.h>
#include <linux/timekeeping.h>
#include <linux/workqueue.h>

#include "compat.h"
#include "timer.h"

unsigned int elec_timer_mode = ELEC_TIMER_MODE_FIFO;
module_param_named(timer_mode, elec_timer_mode, uint, 0644);
MODULE_PARM_DESC(timer_mode,
		 "Where timer expiries run, for instances created afterwards: 0 soft hrtimer (softirq), 1 hard hrtimer + WQ_HIGHPRI workqueue, 2 hard hrtimer + SCHED_FIFO kthread (default 2)");

bool elec_timer_waits_soft = true;
module_param_named(timer_waits_soft, elec_timer_waits_soft, bool, 0644);
MODULE_PARM_DESC(timer_waits_soft,
		 "timer_mode=1 and 2: the timers that wait for a frame (detection, answers, COORDINATOR, ring acks and rounds, invitation replies and accepts) take their step to the hrtimer softirq, after the receive softirq, for instances created afterwards (default Y)");

unsigned int elec_timer_budget_pct = 100;
module_param_named(timer_budget_pct, elec_timer_budget_pct, uint, 0644);
MODULE_PARM_DESC(timer_budget_pct,
		 "timer_mode=2: the share of the time the SCHED_FIFO worker may spend in protocol steps; past it, it sleeps until it has earned the time back (10 to 100, default 100: off, the kernel's RT throttling only; 50 on slow guests with many instances)");

/*
 * The budget's burst: the credit the worker may save up (a window of
 * 10 ms at the budget's share); and the longest pause that pays a debt
 * back.
 */
#define ELEC_TIMER_WINDOW_NS	(10 * NSEC_PER_MSEC)
#define ELEC_TIMER_DEBT_MAX_NS	(20 * NSEC_PER_MSEC)
#define ELEC_TIMER_BUDGET_MIN	10

static struct kthread_worker *elec_timer_worker;
static struct workqueue_struct *elec_timer_wq;

/* the FIFO worker's credit, in ns of step time: the worker's own */
static s64 elec_timer_credit;
static u64 elec_timer_credit_at;

atomic64_t elec_timer_throttled = ATOMIC64_INIT(0);
atomic64_t elec_timer_throttled_ns = ATOMIC64_INIT(0);

/**
 * elec_timer_mode_get() - the mode for an instance created now.
 *
 * Return: the module parameter, or the default when it is out of range.
 */
enum elec_timer_mode elec_timer_mode_get(void)
{
	unsigned int mode = READ_ONCE(elec_timer_mode);

	return mode < ELEC_TIMER_MODE_COUNT ? mode : ELEC_TIMER_MODE_FIFO;
}

/**
 * elec_timer_defer() - queue a timer's protocol step.
 * @mode: ELEC_TIMER_MODE_HARD_WQ or ELEC_TIMER_MODE_FIFO
 * @work: the timer's work item (HARD_WQ)
 * @kwork: the timer's kthread work (FIFO)
 *
 * A step already queued is not queued twice: it runs after this expiry
 * and the protocol core ignores an expiry that is not due.
 *
 * Context: any, hardirq included.
 */
void elec_timer_defer(enum elec_timer_mode mode, struct work_struct *work,
		      struct kthread_work *kwork)
{
	if (mode == ELEC_TIMER_MODE_FIFO)
		kthread_queue_work(elec_timer_worker, kwork);
	else
		queue_work(elec_timer_wq, work);
}

/* the budget's share now, in percent: the parameter, clamped */
static unsigned int elec_timer_budget(void)
{
	return clamp_t(unsigned int, READ_ONCE(elec_timer_budget_pct),
		       ELEC_TIMER_BUDGET_MIN, 100);
}

/* earn credit for the time since the last update, up to the burst */
static void elec_timer_earn(unsigned int pct, u64 now)
{
	s64 burst = div_u64(ELEC_TIMER_WINDOW_NS * pct, 100);
	u64 since = now - elec_timer_credit_at;

	elec_timer_credit_at = now;
	if (since >= ELEC_TIMER_WINDOW_NS + ELEC_TIMER_DEBT_MAX_NS)
		elec_timer_credit = burst;	/* idle long enough: full */
	else
		elec_timer_credit = min_t(s64, burst, elec_timer_credit +
					  (s64)div_u64(since * pct, 100));
}

/**
 * elec_timer_fifo_begin() - before a protocol step in the FIFO worker.
 *
 * Earns the credit of the time since the last step; when the credit is
 * spent, first sleeps until it is earned back (counted in
 * elec_timer_throttled and elec_timer_throttled_ns).
 *
 * Context: the kthread worker of timer_mode=2, no lock held.
 * Return: the time the step starts, for elec_timer_fifo_end().
 */
u64 elec_timer_fifo_begin(void)
{
	unsigned int pct = elec_timer_budget();
	u64 now = ktime_get_ns();
	ktime_t until;
	u64 woke;

	if (pct == 100)		/* off: nothing to account */
		return now;
	elec_timer_earn(pct, now);
	if (elec_timer_credit >= 0)
		return now;

	/*
	 * Sleep until the debt is earned back. Nothing should wake the
	 * worker inside a work item (a queued work wakes it only when it runs
	 * none), but sleep the whole pause even so.
	 */
	until = ns_to_ktime(now + div_u64((u64)-elec_timer_credit * 100, pct));
	do {
		set_current_state(TASK_IDLE);
		schedule_hrtimeout(&until, HRTIMER_MODE_ABS);
		woke = ktime_get_ns();
	} while (woke < ktime_to_ns(until));
	atomic64_inc(&elec_timer_throttled);
	atomic64_add(woke - now, &elec_timer_throttled_ns);
	elec_timer_earn(pct, woke);
	return woke;
}

/**
 * elec_timer_fifo_end() - after that step: spend its time from the credit.
 * @start: what elec_timer_fifo_begin() returned
 *
 * A debt is kept to what one pause of ELEC_TIMER_DEBT_MAX_NS earns back.
 *
 * Context: the kthread worker of timer_mode=2.
 */
void elec_timer_fifo_end(u64 start)
{
	unsigned int pct = elec_timer_budget();
	s64 floor;
	u64 now;

	if (pct == 100)
		return;
	now = ktime_get_ns();
	floor = -(s64)div_u64(ELEC_TIMER_DEBT_MAX_NS * pct, 100);
	elec_timer_earn(pct, now);
	elec_timer_credit -= now - start;
	if (elec_timer_credit < floor)
		elec_timer_credit = floor;
}

/**
 * elec_timer_init() - create the kthread worker and the workqueue.
 *
 * Return: 0 or a negative errno.
 */
int elec_timer_init(void)
{
	elec_timer_wq = alloc_workqueue("election-timer", WQ_HIGHPRI, 0);
	if (!elec_timer_wq)
		return -ENOMEM;
	elec_timer_worker = elec_kthread_run_worker("election-timer");
	if (IS_ERR(elec_timer_worker)) {
		destroy_workqueue(elec_timer_wq);
		return PTR_ERR(elec_timer_worker);
	}
	sched_set_fifo(elec_timer_worker->task);
	return 0;
}

/**
 * elec_timer_exit() - destroy them; every instance is gone.
 */
void elec_timer_exit(void)
{
	kthread_destroy_worker(elec_timer_worker);
	destroy_workqueue(elec_timer_wq);
}
