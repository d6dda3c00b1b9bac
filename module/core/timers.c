// SPDX-License-Identifier: GPL-2.0
/*
 * The core's timer input (elec_core_timer()): which expiries count, the
 * failure detector's deferral of a late one (detect.c), and the hand-off
 * to the algorithm; the timers' names and which of them wait for a frame.
 */
#include "detect.h"

/**
 * elec_timer_awaits_rx() - whether a timer's expiry means "not heard".
 * @ops: the instance's algorithm
 * @id: the timer
 *
 * The detection window and the algorithm's &elec_algo_ops.wait_timers
 * (a wait for answers, for a COORDINATOR, for an acknowledgment) conclude
 * that a frame did not come. An embedder whose receive path can lag
 * behind its timers (a loaded machine: election.ko's timers run in a
 * SCHED_FIFO kthread, its receive in a softirq that ksoftirqd defers)
 * should step these after the frames received before their expiry;
 * the others (a heartbeat to send, a lease that runs out) on time.
 *
 * Return: true for ELEC_TIMER_DETECT and the algorithm's wait timers.
 */
bool elec_timer_awaits_rx(const struct elec_algo_ops *ops,
			  enum elec_timer_id id)
{
	if ((unsigned int)id >= ELEC_TIMER_COUNT)
		return false;
	if (id == ELEC_TIMER_DETECT)
		return true;
	return ops && (ops->wait_timers & (1U << id));
}

/**
 * elec_timer_name() - the printable name of a timer.
 * @ops: the instance's algorithm
 * @id: the timer
 *
 * Return: "heartbeat" and "detect" for the shared roles, the algorithm's
 * name for one of its slots (&elec_algo_ops.timer_names), else "timer".
 */
const char *elec_timer_name(const struct elec_algo_ops *ops,
			    enum elec_timer_id id)
{
	if (id == ELEC_TIMER_HEARTBEAT)
		return "heartbeat";
	if (id == ELEC_TIMER_DETECT)
		return "detect";
	if (ops && ops->timer_names && (unsigned int)id < ELEC_TIMER_COUNT &&
	    ops->timer_names[id])
		return ops->timer_names[id];
	return "timer";
}

/**
 * elec_core_timer() - a timer expired.
 * @c: the instance
 * @id: which timer
 * @now: current time, ns
 *
 * Ignores an unknown id, an expiry while stopped, an expiry of a timer that
 * is not armed (cancelled, or already handled) and an early one (@now
 * before the armed expiry: the embedder's timer raced a re-arm). A failure
 * detector (ELEC_TIMER_DETECT) expiry at least a heartbeat interval late
 * re-arms it for one more window instead, once per arming
 * (elec_detect_defer()). Otherwise marks the timer unarmed and hands
 * the expiry to the algorithm: ELEC_TIMER_DETECT to its @silent op, the
 * others to its @timer op.
 */
void elec_core_timer(struct elec_core *c, enum elec_timer_id id, u64 now)
{
	u64 expires;

	if ((unsigned int)id >= ELEC_TIMER_COUNT || !c->running)
		return;
	expires = c->timer_expires[id];
	if (!expires || now < expires)
		return;
	if (id == ELEC_TIMER_DETECT && elec_detect_defer(c, expires, now))
		return;
	c->timer_expires[id] = 0;
	if (id == ELEC_TIMER_DETECT)
		c->ops->silent(c, now);
	else
		c->ops->timer(c, id, now);
}
