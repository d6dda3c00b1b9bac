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
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kthread.h>
#include <linux/moduleparam.h>
#include <linux/printk.h>
#include <linux/sched.h>
#include <linux/workqueue.h>

#include "timer.h"

unsigned int elec_timer_mode = ELEC_TIMER_MODE_FIFO;
module_param_named(timer_mode, elec_timer_mode, uint, 0644);
MODULE_PARM_DESC(timer_mode,
		 "Where timer expiries run, for instances created afterwards: 0 soft hrtimer (softirq), 1 hard hrtimer + WQ_HIGHPRI workqueue, 2 hard hrtimer + SCHED_FIFO kthread (default 2)");

static struct kthread_worker *elec_timer_worker;
static struct workqueue_struct *elec_timer_wq;

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
	elec_timer_worker = kthread_create_worker(0, "election-timer");
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
