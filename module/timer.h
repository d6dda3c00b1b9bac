/* SPDX-License-Identifier: GPL-2.0 */
/*
 * election.ko: where an instance's timer expiries run (module parameter
 * timer_mode).
 */
#ifndef _ELEC_TIMER_H
#define _ELEC_TIMER_H

#include <linux/atomic.h>
#include <linux/hrtimer.h>
#include <linux/kthread.h>
#include <linux/workqueue.h>

/**
 * enum elec_timer_mode - where the protocol step of a timer expiry runs.
 * @ELEC_TIMER_MODE_SOFT: soft hrtimer: the step runs in the hrtimer
 *	softirq, which a busy CPU defers to ksoftirqd (a SCHED_OTHER thread)
 * @ELEC_TIMER_MODE_HARD_WQ: hard hrtimer whose callback (hardirq) only
 *	queues the step on a WQ_HIGHPRI workqueue (nice -20 kworkers)
 * @ELEC_TIMER_MODE_FIFO: hard hrtimer whose callback only queues the step
 *	on the module's kthread worker, SCHED_FIFO (the default)
 * @ELEC_TIMER_MODE_COUNT: number of modes
 *
 * In every mode the step itself runs where it always did as far as locking
 * goes (the instance lock with bottom halves off), so the rest of the
 * module is unchanged; only the context that runs it differs.
 */
enum elec_timer_mode {
	ELEC_TIMER_MODE_SOFT,
	ELEC_TIMER_MODE_HARD_WQ,
	ELEC_TIMER_MODE_FIFO,
	ELEC_TIMER_MODE_COUNT
};

extern unsigned int elec_timer_mode;
extern bool elec_timer_waits_soft;
extern unsigned int elec_timer_budget_pct;
extern atomic64_t elec_timer_throttled;
extern atomic64_t elec_timer_throttled_ns;

int elec_timer_init(void);
void elec_timer_exit(void);
enum elec_timer_mode elec_timer_mode_get(void);
void elec_timer_defer(enum elec_timer_mode mode, struct work_struct *work,
		      struct kthread_work *kwork);
u64 elec_timer_fifo_begin(void);
void elec_timer_fifo_end(u64 start);

#endif /* _ELEC_TIMER_H */
