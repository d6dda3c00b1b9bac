// SPDX-License-Identifier: GPL-2.0
/*
 * election.ko: delivery queues that keep their order across CPUs.
 *
 * An instance's core calls run one at a time (its lock), but their output
 * was delivered after the lock was dropped, so a timer on one CPU and a
 * receive on another could deliver in the opposite order: a later frame
 * on the wire first, a later event (with a later sequence number) first.
 *
 * Now a core call appends its frames to the instance's queue, and its
 * events (numbered there) to the namespace's queue, while it still holds
 * the instance lock; the appends are therefore in core order. Delivery
 * happens after the lock is dropped: the first context to find a queue
 * idle marks it busy and delivers everything it holds, including what
 * other CPUs append meanwhile; those only append and leave. The queue lock
 * is held only to take one skb at a time, never while delivering.
 */
#include <linux/skbuff.h>
#include <linux/spinlock.h>

#include "fifo.h"
#include "main.h"
#include "types.h"

/**
 * elec_fifo_init() - initialise an empty, idle queue.
 * @f: the queue
 */
void elec_fifo_init(struct elec_fifo *f)
{
	skb_queue_head_init(&f->q);
	f->busy = false;
}

/**
 * elec_fifo_drain() - deliver what the queue holds, in order.
 * @f: the queue
 * @deliver: called for each skb, without the queue lock; it owns the skb
 * @ctx: passed to @deliver
 *
 * Returns at once when another context is delivering from @f: that one
 * delivers what this caller appended too.
 *
 * Context: any; takes @f->q.lock with BH disabled.
 */
void elec_fifo_drain(struct elec_fifo *f,
		     void (*deliver)(struct sk_buff *skb, void *ctx),
		     void *ctx)
{
	struct sk_buff *skb;

	spin_lock_bh(&f->q.lock);
	if (f->busy) {
		spin_unlock_bh(&f->q.lock);
		return;
	}
	f->busy = true;
	while ((skb = __skb_dequeue(&f->q))) {
		spin_unlock_bh(&f->q.lock);
		deliver(skb, ctx);
		spin_lock_bh(&f->q.lock);
	}
	f->busy = false;
	spin_unlock_bh(&f->q.lock);
}

/**
 * elec_fifo_purge() - free whatever a queue still holds.
 * @f: the queue, which nobody appends to or delivers from any more
 *
 * Every skb in our queues is counted in elec_live_skbs; so is the
 * purge.
 */
void elec_fifo_purge(struct elec_fifo *f)
{
	struct sk_buff *skb;

	while ((skb = skb_dequeue(&f->q))) {
		kfree_skb(skb);
		atomic_long_dec(&elec_live_skbs);
	}
}
