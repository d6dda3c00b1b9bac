// SPDX-License-Identifier: GPL-2.0
/*
 * election.ko: delivery queues that keep their order across CPUs.
 *
 * An instance's core calls run one at a time (its lock), but their output
 * used to be delivered after the lock was dropped, so a timer on one CPU
 * and a receive on another could deliver in the opposite order: a later
 * frame on the wire first, a later event (with a later sequence number)
 * first.
 *
 * Now a core call appends its frames to the instance's queue, and its
 * events (numbered there) to the namespace's queue, while it still holds
 * the instance lock; the appends are therefore in core order. Delivery
 * happens after the lock is dropped: the first context to find a queue
 * idle marks it busy and delivers, with bottom halves disabled (so it is
 * never preempted halfway with the queue marked busy), what the queue
 * holds, including what other CPUs append meanwhile; those only append
 * and leave. The queue lock is held only to take one item at a time.
 *
 * Bounds: a queue holds at most @limit items (the appender counts what
 * does not fit as lost), and one drain delivers at most ELEC_FIFO_BUDGET
 * items; it hands the rest to the queue's work item, which goes on in
 * process context, so no context delivers for the others without end.
 */
#include <linux/bottom_half.h>
#include <linux/kernel.h>
#include <linux/sched.h>
#include <linux/skbuff.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>

#include "fifo.h"
#include "main.h"
#include "types.h"

static struct workqueue_struct *elec_wq;

static void elec_fifo_work(struct work_struct *work)
{
	elec_fifo_drain(container_of(work, struct elec_fifo, work));
}

/**
 * elec_fifo_init() - initialise an empty, idle queue.
 * @f: the queue
 * @limit: most items it holds
 * @deliver: called for each item, in order, without the queue lock and
 *	with bottom halves disabled; it owns the skb
 * @ctx: passed to @deliver
 */
void elec_fifo_init(struct elec_fifo *f, u32 limit,
		    void (*deliver)(struct sk_buff *skb, void *ctx),
		    void *ctx)
{
	skb_queue_head_init(&f->q);
	f->busy = false;
	f->limit = limit;
	f->deliver = deliver;
	f->ctx = ctx;
	INIT_WORK(&f->work, elec_fifo_work);
}

/**
 * elec_fifo_room() - whether one more item may be appended.
 * @f: the queue
 *
 * Context: holding @f->q.lock.
 * Return: true below the queue's limit.
 */
bool elec_fifo_room(const struct elec_fifo *f)
{
	lockdep_assert_held(&f->q.lock);
	return skb_queue_len(&f->q) < f->limit;
}

/**
 * elec_fifo_drain() - deliver what the queue holds, in order.
 * @f: the queue
 *
 * Returns at once when another context is delivering from @f: that one
 * delivers what this caller appended too. After ELEC_FIFO_BUDGET items it
 * queues @f's work item for the rest and returns.
 *
 * Context: any; disables bottom halves while it delivers.
 */
void elec_fifo_drain(struct elec_fifo *f)
{
	struct sk_buff *skb;
	u32 n = 0;

	local_bh_disable();
	spin_lock(&f->q.lock);
	if (f->busy)
		goto out;
	f->busy = true;
	while ((skb = __skb_dequeue(&f->q))) {
		spin_unlock(&f->q.lock);
		f->deliver(skb, f->ctx);
		spin_lock(&f->q.lock);
		if (++n >= ELEC_FIFO_BUDGET && !skb_queue_empty(&f->q)) {
			queue_work(elec_wq, &f->work);
			break;
		}
	}
	f->busy = false;
out:
	spin_unlock(&f->q.lock);
	local_bh_enable();
}

/**
 * elec_fifo_flush() - deliver everything queued so far, and wait for it.
 * @f: the queue; its owner appends nothing more meanwhile
 *
 * On return every item appended before the call has been delivered (for
 * an instance's frames: handed to dev_queue_xmit()), whoever delivered
 * it: this caller, another context that was draining (it runs with bottom
 * halves disabled, on another CPU, and finishes), or the work item.
 *
 * Context: process context.
 */
void elec_fifo_flush(struct elec_fifo *f)
{
	bool idle;

	might_sleep();
	for (;;) {
		flush_work(&f->work);
		elec_fifo_drain(f);
		spin_lock_bh(&f->q.lock);
		idle = !f->busy && skb_queue_empty(&f->q);
		spin_unlock_bh(&f->q.lock);
		if (idle)
			return;
		cond_resched();
	}
}

/**
 * elec_fifo_stop() - stop a queue nobody appends to any more.
 * @f: the queue; no context appends to it or starts a drain of it any more
 *
 * Waits for its work item and frees what it still holds. Every skb in our
 * queues is counted in elec_live_skbs; so is the purge.
 *
 * Context: process context.
 */
void elec_fifo_stop(struct elec_fifo *f)
{
	struct sk_buff *skb;

	cancel_work_sync(&f->work);
	while ((skb = skb_dequeue(&f->q))) {
		kfree_skb(skb);
		atomic_long_dec(&elec_live_skbs);
	}
}

/**
 * elec_fifo_wq() - the module's workqueue.
 *
 * Return: it (queues' work items, deferred frees).
 */
struct workqueue_struct *elec_fifo_wq(void)
{
	return elec_wq;
}

/**
 * elec_fifo_wq_init() - create the module's workqueue.
 *
 * Return: 0 or -ENOMEM.
 */
int elec_fifo_wq_init(void)
{
	elec_wq = alloc_workqueue("election", 0, 0);
	return elec_wq ? 0 : -ENOMEM;
}

/**
 * elec_fifo_wq_exit() - run what is left on the workqueue and destroy it.
 */
void elec_fifo_wq_exit(void)
{
	destroy_workqueue(elec_wq);
}
