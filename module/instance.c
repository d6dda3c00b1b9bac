// SPDX-License-Identifier: GPL-2.0
/*
 * election.ko: instance life cycle and the locked core-call discipline.
 *
 * Every call into the protocol core of an instance happens between
 * elec_inst_lock() and elec_inst_unlock(). Under the lock the core's sink
 * arms and cancels hrtimers at once, and builds frames and event messages
 * (GFP_ATOMIC) into a struct elec_actx on the caller's stack; still under
 * the lock they are appended to the instance's frame queue and (numbered)
 * to the namespace's event queue, in the order the core emitted them;
 * after the lock is dropped the queues are delivered (fifo.c): frames to
 * dev_queue_xmit(), events to the multicast group.
 *
 * Teardown (elec_inst_destroy()): unpublish from the namespace; under the
 * lock stop the core and set @dead; drop the lock; hrtimer_cancel() every
 * timer and wait for a step it deferred (a step that runs meanwhile sees
 * @dead under the lock and does nothing, so nothing re-arms); release the device; free after an RCU
 * grace period, since the receive path and dumps may still hold a pointer
 * found under RCU (they too check @dead under the lock). A device's
 * instances go with it (elec_inst_destroy_dev(), from the NETDEV
 * notifier), and whatever is left in a namespace when it goes, by this
 * file's pernet exit.
 *
 * An instance whose algorithm queues (a ring algorithm) also owns its
 * core's queue (&elec_algo_ops.queue_bytes, kvzalloc()), which only core
 * calls touch; it is freed together with the instance by the same RCU
 * callback (module exit waits for it with rcu_barrier()).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/bug.h>
#include <linux/delay.h>
#include <linux/err.h>
#include <linux/etherdevice.h>
#include <linux/hrtimer.h>
#include <linux/ktime.h>
#include <linux/lockdep.h>
#include <linux/math64.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/netdevice.h>
#include <linux/rcupdate.h>
#include <linux/rtnetlink.h>
#include <linux/skbuff.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/stringify.h>
#include <linux/xarray.h>
#include <net/net_namespace.h>

#include "auth.h"
#include "compat.h"
#include "detect.h"
#include "event.h"
#include "fifo.h"
#include "instance.h"
#include "main.h"
#include "netns.h"
#include "timer.h"
#include "trace.h"
#include "tx.h"
#include "types.h"

/* soft or hard, as the instance's timers were set up */
static enum hrtimer_mode elec_inst_hrtimer_mode(const struct elec_instance *inst)
{
	return inst->timer_mode == ELEC_TIMER_MODE_SOFT ?
	       HRTIMER_MODE_ABS_SOFT : HRTIMER_MODE_ABS_HARD;
}

/*
 * The core's MAC check of a received authenticated frame (elec_sink.verify):
 * under inst->lock, during elec_core_rx(), with the group's key or, during
 * a key rotation, its second key (a forged frame then costs two MACs).
 */
static bool elec_inst_verify(void *ctx, const struct elec_msg *msg)
{
	struct elec_instance *inst = ctx;
	size_t len = ELECTION_HDR_LEN + msg->payload_len + ELECTION_AUTH_LEN;

	lockdep_assert_held(&inst->lock);
	if (!msg->frame || !inst->auth_rx)
		return false;
	return elec_auth_verify(&inst->key, msg->frame, len) ||
	       (inst->auth_next &&
		elec_auth_verify(&inst->key_next, msg->frame, len));
}

/* The core's sink: runs under inst->lock, during a core call. */
static void elec_inst_emit(void *ctx, const struct elec_action *act)
{
	struct elec_instance *inst = ctx;
	struct elec_actx *ax = inst->actx;

	lockdep_assert_held(&inst->lock);
	if (WARN_ON_ONCE(!ax))
		return;

	switch (act->kind) {
	case ELEC_ACT_SEND:
		trace_election_tx(inst, &act->msg);
		elec_tx_build(inst, &act->msg, ax);
		break;
	case ELEC_ACT_TIMER_ARM:
		if (WARN_ON_ONCE(act->timer.id >= ELEC_TIMER_COUNT) ||
		    inst->dead)
			break;
		hrtimer_start(&inst->timers[act->timer.id].timer,
			      ns_to_ktime(act->timer.expires_ns),
			      elec_inst_hrtimer_mode(inst));
		break;
	case ELEC_ACT_TIMER_CANCEL:
		if (WARN_ON_ONCE(act->timer.id >= ELEC_TIMER_COUNT))
			break;
		/*
		 * Never wait here: the callback may be spinning on our lock.
		 * An expiry that still gets through is ignored by the core.
		 */
		hrtimer_try_to_cancel(&inst->timers[act->timer.id].timer);
		break;
	case ELEC_ACT_EVENT:
		/*
		 * dynamic debug, off by default: a console line from softirq
		 * would delay the failover it reports
		 */
		if (act->event.type == ELEC_EVENT_LEADER_CHANGED)
			pr_debug("%s group %u id %u: leader %u term %llu\n",
				 inst->ifname, inst->group,
				 inst->core.cfg.self_id, act->event.leader,
				 act->event.term);
		elec_event_build(inst, act, ax);
		break;
	}
}

/*
 * Stop the running core of @inst; with @resign, a leader first broadcasts
 * a HEARTBEAT flagged ELECTION_FLAG_LEAVING (planned stops only: a crash,
 * which this models when @resign is false, falls silent). Under the lock,
 * within a core call.
 */
static void elec_inst_core_stop(struct elec_instance *inst, bool resign)
{
	u64 now = ktime_get_ns();

	lockdep_assert_held(&inst->lock);
	if (resign)
		elec_core_resign(&inst->core, now);
	elec_core_stop(&inst->core, now);
}

/**
 * elec_inst_lock() - begin a core call on an instance.
 * @inst: the instance
 * @ax: action collector on the caller's stack, initialised here
 *
 * Takes the instance lock (BH). The caller must check @inst->dead before
 * calling into the core, and end with elec_inst_unlock().
 */
void elec_inst_lock(struct elec_instance *inst, struct elec_actx *ax)
	__acquires(&inst->lock)
{
	__skb_queue_head_init(&ax->tx);
	__skb_queue_head_init(&ax->events);
	ax->events_lost = 0;

	spin_lock_bh(&inst->lock);
	inst->actx = ax;
	ax->role = inst->core.role;
	ax->leader = inst->core.leader;
	/*
	 * a keyed group's counters follow the wall clock, which may have
	 * stepped since the key was set (elec_core_set_wall())
	 */
	if (inst->auth_rx)
		elec_core_set_wall(&inst->core, ktime_get_real_ns(),
				   ktime_get_ns());
}

/*
 * End a core call: queue its output in core order while inst->lock is
 * still held, then drop the lock. Frames that do not fit the instance's
 * queue (ELEC_TXQ_LIMIT) are counted as no_buffer transmit drops.
 * Return: ELEC_DELIVER_* bits, the queues this call appended to: only
 * those need a drain (whatever another context appended, that context or
 * the queue's owner delivers), so a call that emitted nothing takes no
 * shared lock.
 */
#define ELEC_DELIVER_TX		0x1
#define ELEC_DELIVER_EVENTS	0x2

static unsigned int elec_inst_queue_unlock(struct elec_instance *inst,
					   struct elec_actx *ax)
	__releases(&inst->lock)
{
	const struct elec_event_state st = {
		.role = inst->core.role,
		.leader = inst->core.leader,
		.term = inst->core.term,
	};
	unsigned int todo = 0;
	struct sk_buff *skb;
	u32 full = 0;

	lockdep_assert_held(&inst->lock);

	if (ax->role != inst->core.role || ax->leader != inst->core.leader)
		trace_election_role(inst, ax->role, ax->leader);
	if (!skb_queue_empty(&ax->tx)) {
		todo |= ELEC_DELIVER_TX;
		spin_lock(&inst->txq.q.lock);
		while ((skb = __skb_dequeue(&ax->tx))) {
			if (elec_fifo_room(&inst->txq)) {
				__skb_queue_tail(&inst->txq.q, skb);
				continue;
			}
			kfree_skb(skb);
			atomic_long_dec(&elec_live_skbs);
			full++;
		}
		spin_unlock(&inst->txq.q.lock);
		if (full)
			atomic64_add(full,
				     &inst->tx_drops[ELEC_TX_DROP_NO_BUFFER]);
	}
	if (!skb_queue_empty(&ax->events))
		todo |= ELEC_DELIVER_EVENTS;
	elec_event_queue(inst->en, ax, &st);
	inst->actx = NULL;
	spin_unlock_bh(&inst->lock);
	return todo;
}

/* after a core call: deliver what it queued (elec_inst_queue_unlock()) */
static void elec_inst_deliver(struct elec_instance *inst, unsigned int todo)
{
	if (todo & ELEC_DELIVER_TX)
		elec_tx_drain(inst);
	if (todo & ELEC_DELIVER_EVENTS)
		elec_event_drain(inst->en);
}

/**
 * elec_inst_unlock() - end a core call: queue the collected frames and
 * events in order, unlock, then deliver them.
 * @inst: the instance
 * @ax: the collector passed to elec_inst_lock()
 *
 * The caller guarantees that @inst->dev stays registered meanwhile: it
 * holds the namespace mutex, runs in the instance's timer callback (which
 * teardown waits for), or received a frame on @inst->dev under RCU.
 */
void elec_inst_unlock(struct elec_instance *inst, struct elec_actx *ax)
	__releases(&inst->lock)
{
	elec_inst_deliver(inst, elec_inst_queue_unlock(inst, ax));
}

/*
 * Record one expiry @late_ns after its programmed time in @h: bucket 0
 * below 1 us, bucket k for [2^(k-1), 2^k) us, the last one for the rest.
 */
static void elec_late_record(struct elec_late_hist *h, s64 late_ns)
{
	u64 late = late_ns > 0 ? late_ns : 0;
	unsigned int b = 0;

	if (late >= NSEC_PER_USEC)
		b = min_t(unsigned int, fls64(div_u64(late, NSEC_PER_USEC)),
			  ELECTION_TIMER_LATE_BUCKETS - 1);
	h->buckets[b]++;
	h->count++;
	if (late > h->max_ns)
		h->max_ns = late;
}

/* the debug knobs' busy-wait, in steps of at most 1 ms */
static void elec_inst_busy_wait(unsigned int us)
{
	for (; us; us -= min(us, 1000U))
		udelay(min(us, 1000U));
}

/*
 * One timer expiry's protocol step, @expires the time it was programmed
 * for: soft mode in the hrtimer softirq, the hard modes in the context
 * their hardirq callback deferred it to (timer.c). Teardown cancels the
 * hrtimers, then waits for a deferred step (elec_inst_timers_cancel()).
 */
static void elec_inst_timer_step(struct elec_inst_timer *t, ktime_t expires)
{
	struct elec_instance *inst = t->inst;
	unsigned int delay_us = min_t(unsigned int,
				      READ_ONCE(elec_debug_timer_delay_us),
				      ELEC_DEBUG_DELAY_MAX_US);
	unsigned int busy_us = min_t(unsigned int,
				     READ_ONCE(elec_debug_timer_busy_us),
				     ELEC_DEBUG_DELAY_MAX_US);
	/* before anything else: how late this step runs */
	s64 late_ns = ktime_to_ns(ktime_sub(ktime_get(), expires));
	struct elec_actx ax;
	unsigned int todo;

	elec_inst_lock(inst, &ax);
	elec_late_record(&inst->late, late_ns);
	if (!inst->dead) {
		if (trace_election_timer_enabled())
			trace_election_timer(inst,
					     elec_timer_name(inst->core.ops,
							     t->id),
					     late_ns);
		elec_core_timer(&inst->core, t->id, ktime_get_ns());
	}
	todo = elec_inst_queue_unlock(inst, &ax);
	/*
	 * Debug knob (module parameter debug_timer_delay_us): widen the
	 * window between a timer's core call that reported events and the
	 * delivery of its output, in which another CPU's receive can run a
	 * later core call of the same instance; the queues must still deliver
	 * in core order.
	 */
	if (unlikely(delay_us) && (todo & ELEC_DELIVER_EVENTS))
		elec_inst_busy_wait(delay_us);
	elec_inst_deliver(inst, todo);
	/* debug knob debug_timer_busy_us: every step as slow as on a slow guest */
	if (unlikely(busy_us))
		elec_inst_busy_wait(busy_us);
}

/* ELEC_TIMER_MODE_SOFT: the step in the hrtimer softirq */
static enum hrtimer_restart elec_inst_timer_fn(struct hrtimer *timer)
{
	struct elec_inst_timer *t = container_of(timer, struct elec_inst_timer,
						 timer);

	elec_inst_timer_step(t, hrtimer_get_expires(timer));
	return HRTIMER_NORESTART;
}

/* the hard modes, in hardirq: record the expiry and defer the step */
static enum hrtimer_restart elec_inst_timer_hard_fn(struct hrtimer *timer)
{
	struct elec_inst_timer *t = container_of(timer, struct elec_inst_timer,
						 timer);

	WRITE_ONCE(t->fired, hrtimer_get_expires(timer));
	elec_timer_defer(t->inst->timer_mode, &t->work, &t->kwork);
	return HRTIMER_NORESTART;
}

/*
 * The hard modes, a timer that waits for a frame (timer.c): its step runs
 * in the hrtimer softirq, after the receive softirq of the frames that
 * came meanwhile; late by as much as the deferred step (the expiry stays
 * the one the hardirq callback saw).
 */
static enum hrtimer_restart elec_inst_timer_rx_fn(struct hrtimer *timer)
{
	struct elec_inst_timer *t = container_of(timer, struct elec_inst_timer,
						 rx_timer);

	elec_inst_timer_step(t, READ_ONCE(t->fired));
	return HRTIMER_NORESTART;
}

/* the deferred step of the hard modes, or its hand-over to the softirq */
static void elec_inst_timer_deferred(struct elec_inst_timer *t)
{
	if (t->after_rx)
		hrtimer_start(&t->rx_timer, 0, HRTIMER_MODE_REL_SOFT);
	else
		elec_inst_timer_step(t, READ_ONCE(t->fired));
}

static void elec_inst_timer_work(struct work_struct *work)
{
	struct elec_inst_timer *t = container_of(work, struct elec_inst_timer,
						 work);

	elec_inst_timer_deferred(t);
}

static void elec_inst_timer_kwork(struct kthread_work *kwork)
{
	struct elec_inst_timer *t = container_of(kwork, struct elec_inst_timer,
						 kwork);
	u64 start = elec_timer_fifo_begin();

	elec_inst_timer_deferred(t);
	elec_timer_fifo_end(start);
}

/*
 * Cancel every timer and wait for its step, deferred or running. Called
 * once no core call can arm a timer any more (@dead, or never published).
 */
static void elec_inst_timers_cancel(struct elec_instance *inst)
{
	int i;

	for (i = 0; i < ELEC_TIMER_COUNT; i++) {
		struct elec_inst_timer *t = &inst->timers[i];

		hrtimer_cancel(&t->timer);
		if (inst->timer_mode == ELEC_TIMER_MODE_HARD_WQ)
			cancel_work_sync(&t->work);
		else if (inst->timer_mode == ELEC_TIMER_MODE_FIFO)
			kthread_cancel_work_sync(&t->kwork);
		/* last: the deferred step may have armed it */
		if (t->after_rx)
			hrtimer_cancel(&t->rx_timer);
	}
}

/* a zeroed array of the peers' estimates (struct elec_peer_est) */
static struct elec_peer_est *elec_inst_est_alloc(void)
{
	return kvcalloc(ELEC_MAX_PEERS, sizeof(struct elec_peer_est),
			GFP_KERNEL_ACCOUNT);
}

/**
 * elec_inst_create() - allocate and initialise a stopped instance.
 * @en: namespace state
 * @dev: the device; the instance takes a tracked reference of its own
 * @cfg: configuration, already checked with elec_config_check()
 *
 * The instance is not yet published; see elec_net_insert().
 *
 * Context: process context, holding RTNL (the device's name and address
 * are copied).
 * Return: the instance or an ERR_PTR().
 */
struct elec_instance *elec_inst_create(struct elec_net *en,
				       struct net_device *dev,
				       const struct elec_config *cfg)
{
	struct elec_sink sink;
	struct elec_instance *inst;
	const struct elec_algo_ops *ops = elec_algo_find(cfg->algo);
	struct elec_actx ax;
	bool waits_soft;
	int err;
	int i;

	/* charged to the creator's memory cgroup: user namespaces may create */
	inst = kzalloc(sizeof(*inst), GFP_KERNEL_ACCOUNT);
	if (!inst)
		return ERR_PTR(-ENOMEM);
	if (ops && ops->queue_bytes) {
		/* kmalloc'd or vmalloc'd: either way at least 8-byte aligned */
		inst->queue = kvzalloc(ops->queue_bytes, GFP_KERNEL_ACCOUNT);
		if (!inst->queue) {
			kfree(inst);
			return ERR_PTR(-ENOMEM);
		}
	}
	/* the peers' estimates, only for a configuration that uses them */
	if (elec_config_needs_est(cfg)) {
		inst->est = elec_inst_est_alloc();
		if (!inst->est) {
			kvfree(inst->queue);
			kfree(inst);
			return ERR_PTR(-ENOMEM);
		}
	}

	ASSERT_RTNL();
	inst->en = en;
	inst->dev = dev;
	inst->ifindex = dev->ifindex;
	inst->group = cfg->group;
	spin_lock_init(&inst->lock);
	strscpy(inst->ifname, dev->name, sizeof(inst->ifname));
	ether_addr_copy(inst->lladdr, dev->dev_addr);
	elec_fifo_init(&inst->txq, ELEC_TXQ_LIMIT, elec_tx_xmit, inst);
	for (i = 0; i <= ELEC_TX_DROP_MAX; i++)
		atomic64_set(&inst->tx_drops[i], 0);
	inst->timer_mode = elec_timer_mode_get();
	waits_soft = READ_ONCE(elec_timer_waits_soft);
	for (i = 0; i < ELEC_TIMER_COUNT; i++) {
		struct elec_inst_timer *t = &inst->timers[i];

		t->inst = inst;
		t->id = i;
		INIT_WORK(&t->work, elec_inst_timer_work);
		kthread_init_work(&t->kwork, elec_inst_timer_kwork);
		elec_hrtimer_setup(&t->timer,
				   inst->timer_mode == ELEC_TIMER_MODE_SOFT ?
				   elec_inst_timer_fn : elec_inst_timer_hard_fn,
				   CLOCK_MONOTONIC, elec_inst_hrtimer_mode(inst));
		/* timer.c: a wait for a frame steps after the receive */
		t->after_rx = inst->timer_mode != ELEC_TIMER_MODE_SOFT &&
			      waits_soft &&
			      elec_timer_awaits_rx(ops, i);
		if (t->after_rx)
			elec_hrtimer_setup(&t->rx_timer, elec_inst_timer_rx_fn,
					   CLOCK_MONOTONIC,
					   HRTIMER_MODE_REL_SOFT);
	}

	sink.emit = elec_inst_emit;
	sink.verify = elec_inst_verify;
	sink.ctx = inst;
	elec_inst_lock(inst, &ax);
	err = elec_core_init(&inst->core, cfg, inst->peers, ELEC_MAX_PEERS,
			     &sink);
	/* after init, which clears the core */
	if (!err && inst->queue)
		elec_core_set_queue(&inst->core, inst->queue, ops->queue_bytes);
	if (!err)
		elec_core_set_est(&inst->core, inst->est);
	elec_inst_unlock(inst, &ax);
	if (err) {
		kvfree(inst->est);
		kvfree(inst->queue);
		kfree(inst);
		return ERR_PTR(err);
	}

	netdev_hold(dev, &inst->dev_tracker, GFP_KERNEL);
	atomic_long_inc(&elec_live_instances);
	return inst;
}

/**
 * elec_inst_publish() - make a created instance reachable.
 * @inst: from elec_inst_create()
 *
 * Inserts it in its namespace; on failure the instance is freed.
 *
 * Context: process context, holding @inst->en->lock and RTNL.
 * Return: 0, -EEXIST (the key is taken) or -ENOMEM.
 */
int elec_inst_publish(struct elec_instance *inst)
{
	int err;

	err = elec_net_insert(inst->en, inst);
	if (err)
		elec_inst_free(inst);
	return err;
}

/*
 * The end of an instance, in process context, once no reader can reach it
 * (an RCU grace period after it was unpublished): no receive handler is
 * delivering its frames any more, only its queue's work item may run. The
 * device reference goes last, so it covers every reader.
 */
static void elec_inst_release(struct elec_instance *inst)
{
	/* normally empty: every core call's output was delivered */
	elec_fifo_stop(&inst->txq);
	netdev_put(inst->dev, &inst->dev_tracker);
	kvfree(inst->queue);
	kvfree(inst->est);
	kvfree(inst->auth_rx);
	memzero_explicit(&inst->key, sizeof(inst->key));
	memzero_explicit(&inst->key_next, sizeof(inst->key_next));
	/* its share of the module-wide count of tenants' instances */
	if (inst->userns)
		atomic_dec(&elec_userns_total);
	kfree(inst);
}

static void elec_inst_release_work(struct work_struct *work)
{
	elec_inst_release(container_of(to_rcu_work(work), struct elec_instance,
				       rcu));
}

/**
 * elec_inst_free() - free an instance that was never published.
 * @inst: from elec_inst_create()
 *
 * Context: process context.
 */
void elec_inst_free(struct elec_instance *inst)
{
	elec_inst_timers_cancel(inst);
	atomic_long_dec(&elec_live_instances);
	elec_inst_release(inst);
}

/**
 * elec_inst_destroy() - unpublish, stop and free an instance.
 * @inst: the instance, published in its namespace
 * @resign: a planned end (GROUP_DEL): a leader first broadcasts its
 *	resignation (elec_core_resign()), which is on the wire, or handed to
 *	the device, when this returns; false for a silent end
 *
 * The device's entry in the namespace stays, even when this was its last
 * instance: the caller releases it (elec_net_dev_release()).
 *
 * Context: process context, holding @inst->en->lock.
 */
void elec_inst_destroy(struct elec_instance *inst, bool resign)
{
	struct elec_actx ax;
	u32 n_peers;

	lockdep_assert_held(&inst->en->lock);

	elec_net_remove(inst->en, inst);

	elec_inst_lock(inst, &ax);
	resign = resign && !inst->dead && inst->core.running;
	if (!inst->dead && inst->core.running)
		elec_inst_core_stop(inst, resign);
	inst->dead = true;
	n_peers = inst->core.n_peers;
	elec_inst_unlock(inst, &ax);
	if (resign)
		elec_fifo_flush(&inst->txq);

	/* No core call happens from now on, so no timer is armed again. */
	elec_inst_timers_cancel(inst);

	atomic_long_sub(n_peers, &elec_live_peers);
	atomic_long_dec(&elec_live_instances);
	/*
	 * A receive handler on another CPU that found the instance before it
	 * was unpublished may still deliver its frames, under RCU: the frames
	 * and the device reference go after a grace period (module exit waits
	 * with rcu_barrier() and the workqueue's destruction).
	 */
	INIT_RCU_WORK(&inst->rcu, elec_inst_release_work);
	queue_rcu_work(elec_fifo_wq(), &inst->rcu);
}

/**
 * elec_inst_destroy_dev() - destroy every instance of a device.
 * @en: namespace state
 * @edev: the device's entry; freed on return
 *
 * Context: process context, holding @en->lock.
 */
void elec_inst_destroy_dev(struct elec_net *en, struct elec_dev *edev)
{
	struct elec_instance *inst;
	unsigned long group;

	lockdep_assert_held(&en->lock);

	xa_for_each(&edev->groups, group, inst)
		elec_inst_destroy(inst, false);
	elec_net_dev_release(en, edev);
}

/*
 * Leaving a namespace destroys whatever instance is left in it (normally
 * none: the devices go first, and the NETDEV notifier destroys their
 * instances). Registered after netns.c's operations: pernet exit methods
 * run in the reverse order of registration, so this runs before theirs,
 * which finds no instance left.
 */
static void __net_exit elec_inst_net_exit(struct net *net)
{
	struct elec_net *en = elec_net(net);
	struct elec_dev *edev;
	unsigned long ifindex;

	mutex_lock(&en->lock);
	xa_for_each(&en->devs, ifindex, edev)
		elec_inst_destroy_dev(en, edev);
	mutex_unlock(&en->lock);
}

static struct pernet_operations elec_inst_net_ops = {
	.exit = elec_inst_net_exit,
};

/**
 * elec_inst_init() - destroy the instances left in a namespace that goes
 * away (after elec_netns_init()).
 *
 * Return: 0 or a negative errno.
 */
int elec_inst_init(void)
{
	return register_pernet_subsys(&elec_inst_net_ops);
}

/**
 * elec_inst_exit() - destroy every instance left in every namespace, and
 * stop following namespaces; before elec_netns_exit().
 */
void elec_inst_exit(void)
{
	unregister_pernet_subsys(&elec_inst_net_ops);
}

/**
 * elec_inst_link_ok() - whether the instance's device can carry frames.
 * @inst: the instance
 *
 * Return: true when the device is up and has carrier.
 */
bool elec_inst_link_ok(const struct elec_instance *inst)
{
	return netif_running(inst->dev) && netif_carrier_ok(inst->dev);
}

/**
 * elec_inst_link_changed() - follow the device's state.
 * @inst: the instance
 * @up: the device is up and has carrier
 * @resign: with !@up: the device is going down on purpose
 *	(NETDEV_GOING_DOWN, still able to transmit): a leader broadcasts its
 *	resignation first, and it has been handed to the device when this
 *	returns
 *
 * Device down or carrier lost stops a running instance; carrier loss
 * silently, like a crashed node (timers cancelled, nothing sent). The
 * administrative state is kept, so device up with carrier starts it
 * again: it learns the current leader, then calls an election.
 *
 * Context: process context, holding @inst->en->lock (and RTNL when
 * @resign: the device cannot close meanwhile).
 */
void elec_inst_link_changed(struct elec_instance *inst, bool up,
			    bool resign)
{
	struct elec_actx ax;
	bool flush = false;

	elec_inst_lock(inst, &ax);
	if (!inst->dead) {
		if (!up && inst->core.running) {
			elec_inst_core_stop(inst, resign);
			flush = resign;
		} else if (up && inst->admin_up && !inst->core.running) {
			elec_core_start(&inst->core, ktime_get_ns());
		}
	}
	elec_inst_unlock(inst, &ax);
	if (flush)
		elec_fifo_flush(&inst->txq);
}

/**
 * elec_inst_start() - administrative start.
 * @inst: the instance
 *
 * Starting a running instance changes nothing. An instance whose device
 * is down or has no carrier starts when the link comes up.
 *
 * Context: process context, holding @inst->en->lock.
 */
void elec_inst_start(struct elec_instance *inst)
{
	struct elec_actx ax;

	elec_inst_lock(inst, &ax);
	if (!inst->dead) {
		inst->admin_up = true;
		if (!inst->core.running && elec_inst_link_ok(inst))
			elec_core_start(&inst->core, ktime_get_ns());
	}
	elec_inst_unlock(inst, &ax);
}

/**
 * elec_inst_stop() - administrative stop.
 * @inst: the instance
 *
 * A leader broadcasts its resignation (elec_core_resign()) before it
 * stops; the frame leaves like any other, in core order.
 *
 * Context: process context, holding @inst->en->lock.
 */
void elec_inst_stop(struct elec_instance *inst)
{
	struct elec_actx ax;

	elec_inst_lock(inst, &ax);
	if (!inst->dead) {
		inst->admin_up = false;
		if (inst->core.running)
			elec_inst_core_stop(inst, true);
	}
	elec_inst_unlock(inst, &ax);
}

/**
 * elec_inst_elect() - begin an election now.
 * @inst: the instance
 * @why: set to a message when refused
 *
 * Context: process context, holding @inst->en->lock.
 * Return: 0, or -ENETDOWN when the instance is not running.
 */
int elec_inst_elect(struct elec_instance *inst, const char **why)
{
	struct elec_actx ax;
	int err = 0;

	elec_inst_lock(inst, &ax);
	if (inst->dead || !inst->core.running) {
		err = -ENETDOWN;
		*why = inst->admin_up ?
		       "instance is not running: device down or no carrier" :
		       "instance is stopped";
	} else {
		elec_core_elect(&inst->core, ktime_get_ns());
	}
	elec_inst_unlock(inst, &ax);
	return err;
}

/**
 * elec_inst_config() - a copy of an instance's configuration.
 * @inst: the instance
 * @cfg: where to copy it
 *
 * GROUP_SET overlays the options a request gives on it and hands the
 * whole configuration to elec_inst_set_config().
 *
 * Context: process context, holding @inst->en->lock (the configuration
 * changes only under it).
 */
void elec_inst_config(struct elec_instance *inst, struct elec_config *cfg)
{
	struct elec_actx ax;

	lockdep_assert_held(&inst->en->lock);
	elec_inst_lock(inst, &ax);
	*cfg = inst->core.cfg;
	elec_inst_unlock(inst, &ax);
}

/**
 * elec_key_req_prepare() - allocate what a key change needs.
 * @kr: the request; with @kr->set, its per-peer replay state is allocated
 *
 * Context: process context, before the namespace mutex is taken.
 * Return: 0 or -ENOMEM.
 */
int elec_key_req_prepare(struct elec_key_req *kr)
{
	if (!kr->set)
		return 0;
	kr->rx = kvcalloc(ELEC_MAX_PEERS, sizeof(*kr->rx), GFP_KERNEL_ACCOUNT);
	return kr->rx ? 0 : -ENOMEM;
}

/**
 * elec_key_req_release() - wipe a key request and free what it still owns.
 * @kr: the request
 */
void elec_key_req_release(struct elec_key_req *kr)
{
	kvfree(kr->rx);
	kr->rx = NULL;
	memzero_explicit(kr->key, sizeof(kr->key));
	memzero_explicit(kr->next, sizeof(kr->next));
}

/* a key change's keys, imported (elec_auth_key_import()); wiped after */
struct elec_key_set {
	siphash_key_t key;
	siphash_key_t next;
	siphash_key_t src[2];
};

/*
 * What @kr does to @inst's keys (elec_auth_key_plan()), decided before
 * anything changes: the request's keys are imported into @ks. Under the
 * lock. Return: 0, or -EINVAL with @why (and @kr->bad_next).
 */
static int elec_inst_key_plan(struct elec_instance *inst,
			      struct elec_key_req *kr, struct elec_key_set *ks,
			      struct elec_key_plan *plan, const char **why)
{
	struct elec_key_change kc = {
		.cur = inst->auth_rx ? &inst->key : NULL,
		.next = inst->auth_rx && inst->auth_next ? &inst->key_next :
			NULL,
		.key = kr->set ? &ks->key : NULL,
		.key_none = kr->clear,
		.key_next = kr->next_set ? &ks->next : NULL,
		.key_next_none = kr->next_clear,
	};
	int err;

	BUILD_BUG_ON(sizeof(siphash_key_t) != ELECTION_KEY_LEN);
	lockdep_assert_held(&inst->lock);
	if (kr->set)
		elec_auth_key_import(&ks->key, kr->key);
	if (kr->next_set)
		elec_auth_key_import(&ks->next, kr->next);
	err = elec_auth_key_plan(&kc, plan, why);
	kr->bad_next = err && plan->bad_next;
	return err;
}

/* the key @src of @plan names: the instance's own, or the request's */
static const siphash_key_t *elec_inst_key_src(struct elec_instance *inst,
					      struct elec_key_set *ks, u8 src)
{
	switch (src) {
	case ELEC_KEY_SRC_CUR:
		return &inst->key;
	case ELEC_KEY_SRC_NEXT:
		return &inst->key_next;
	case ELEC_KEY_SRC_KEY:
		return &ks->key;
	default:
		return &ks->next;
	}
}

/*
 * Apply a key change's @plan (under the lock; cannot fail). The group's
 * first key starts the replay state (elec_core_set_auth()); a change of
 * key keeps it (the counters are per peer, whatever the key). Returns the
 * replay state the instance no longer uses, for the caller to free once
 * the lock is dropped.
 */
static struct elec_auth_peer *elec_inst_apply_key(struct elec_instance *inst,
						  struct elec_key_req *kr,
						  struct elec_key_set *ks,
						  const struct elec_key_plan *plan)
{
	struct elec_auth_peer *old = inst->auth_rx;

	lockdep_assert_held(&inst->lock);
	if (plan->cur == ELEC_KEY_SRC_NONE) {
		memzero_explicit(&inst->key, sizeof(inst->key));
		memzero_explicit(&inst->key_next, sizeof(inst->key_next));
		inst->auth_next = false;
		if (!old)
			return NULL;
		inst->auth_rx = NULL;
		elec_core_set_auth(&inst->core, NULL, 0, ktime_get_ns());
		return old;
	}
	/* copies first: a promotion swaps the instance's two keys */
	ks->src[0] = *elec_inst_key_src(inst, ks, plan->cur);
	if (plan->next != ELEC_KEY_SRC_NONE)
		ks->src[1] = *elec_inst_key_src(inst, ks, plan->next);
	inst->key = ks->src[0];
	inst->auth_next = plan->next != ELEC_KEY_SRC_NONE;
	if (inst->auth_next)
		inst->key_next = ks->src[1];
	else
		memzero_explicit(&inst->key_next, sizeof(inst->key_next));
	if (!plan->fresh)
		return NULL;
	inst->auth_rx = kr->rx;
	kr->rx = NULL;
	elec_core_set_auth(&inst->core, inst->auth_rx, ktime_get_real_ns(),
			   ktime_get_ns());
	return old;
}

/**
 * elec_inst_set_config() - change timing parameters, options and the key.
 * @inst: the instance
 * @cfg: the whole new configuration (elec_inst_config() with the changes
 *	made), or NULL to keep the one it has
 * @kr: a key to set or remove, or NULL (elec_key_req_prepare() done; the
 *	caller calls elec_key_req_release() afterwards)
 * @why: set to a message when refused
 *
 * Either every change is applied or, on error, none (the core refuses an
 * invalid configuration and a change of the options group add fixes, and
 * elec_auth_key_plan() a second key without a key or equal to it). A new
 * key drops the second key; setting the key the instance already has
 * changes nothing; setting its second key promotes it (the old key
 * becomes the second one). The replay counters start with the group's
 * first key and stay through every change of key.
 *
 * Context: process context, holding @inst->en->lock.
 * Return: 0 or a negative errno.
 */
int elec_inst_set_config(struct elec_instance *inst,
			 const struct elec_config *cfg,
			 struct elec_key_req *kr, const char **why)
{
	struct elec_peer_est *est = NULL;
	struct elec_config next;
	struct elec_actx ax;
	struct elec_auth_peer *old = NULL;
	struct elec_key_plan plan = {};
	struct elec_key_set ks = {};
	bool auth;
	int err;

	lockdep_assert_held(&inst->en->lock);
	/*
	 * the estimates a new configuration needs, allocated here (the
	 * namespace mutex is held, so no other request installs them
	 * meanwhile); kept once given, even if a later change needs them no
	 * more
	 */
	if (cfg && elec_config_needs_est(cfg) && !inst->est) {
		est = elec_inst_est_alloc();
		if (!est) {
			*why = "out of memory for the peers' estimates";
			return -ENOMEM;
		}
	}
	elec_inst_lock(inst, &ax);
	next = cfg ? *cfg : inst->core.cfg;
	err = kr ? elec_inst_key_plan(inst, kr, &ks, &plan, why) : 0;
	auth = kr ? plan.cur != ELEC_KEY_SRC_NONE : !!inst->auth_rx;
	if (inst->dead) {
		err = -ENODEV;
		*why = "instance is being deleted";
	} else if (err) {
		/* the key change refused, with its message */
	} else if (auth && READ_ONCE(inst->dev->mtu) <
		   elec_config_max_frame(&next, inst->core.n_peers + 1) +
		   ELECTION_AUTH_LEN) {
		err = -EMSGSIZE;
		*why = "device MTU too small for the group's largest frame and the key's trailer";
	} else {
		err = elec_core_set_config(&inst->core, &next, why);
		/* standby on: a leader resigns; off: a candidate again */
		if (!err)
			elec_core_standby_sync(&inst->core, ktime_get_ns());
		if (!err && kr)
			old = elec_inst_apply_key(inst, kr, &ks, &plan);
		if (!err && est) {
			inst->est = est;
			elec_core_set_est(&inst->core, est);
			est = NULL;
		}
	}
	elec_inst_unlock(inst, &ax);
	memzero_explicit(&ks, sizeof(ks));
	kvfree(est);
	kvfree(old);
	return err;
}

/**
 * elec_inst_peer_add() - add a peer; never starts an election.
 * @inst: the instance
 * @id: peer node id, non-zero
 * @lladdr: the peer's Ethernet address (ELEC_LLADDR_LEN bytes)
 * @pos: its ring position, 0 for the default (its id)
 * @why: set to a message when refused
 *
 * Context: process context, holding @inst->en->lock.
 * Return: 0, -EINVAL (the local id), -EEXIST (duplicate), -ENOSPC (group
 * full), -EMSGSIZE (the group's largest frame would not fit the device's
 * MTU) or another negative errno from the core.
 */
int elec_inst_peer_add(struct elec_instance *inst, u32 id, const u8 *lladdr,
		       u32 pos, const char **why)
{
	struct elec_actx ax;
	int err;

	elec_inst_lock(inst, &ax);
	if (inst->dead) {
		err = -ENODEV;
		*why = "instance is being deleted";
	} else if (id == inst->core.cfg.self_id) {
		err = -EINVAL;
		*why = "peer id is the local node id";
	} else if (elec_core_peer_find(&inst->core, id)) {
		err = -EEXIST;
		*why = "peer id already in the group";
	} else if (inst->core.n_peers >= ELEC_MAX_PEERS) {
		err = -ENOSPC;
		*why = "group is full: at most "
		       __stringify(ELECTION_MAX_NODES) " nodes";
	} else if (elec_core_max_frame(&inst->core, inst->core.n_peers + 2) >
		   READ_ONCE(inst->dev->mtu)) {
		err = -EMSGSIZE;
		*why = "device MTU too small for the group's largest frame with one more peer";
	} else {
		err = elec_core_peer_add_pos(&inst->core, id, lladdr, pos);
		if (err)
			*why = "peer refused by the protocol core";
	}
	elec_inst_unlock(inst, &ax);

	if (!err)
		atomic_long_inc(&elec_live_peers);
	return err;
}

/**
 * elec_inst_peer_del() - remove a peer; never starts an election.
 * @inst: the instance
 * @id: peer node id
 * @why: set to a message when refused
 *
 * Context: process context, holding @inst->en->lock.
 * Return: 0, -ENOENT (no such peer) or another negative errno.
 */
int elec_inst_peer_del(struct elec_instance *inst, u32 id, const char **why)
{
	struct elec_actx ax;
	int err;

	elec_inst_lock(inst, &ax);
	if (inst->dead) {
		err = -ENODEV;
		*why = "instance is being deleted";
	} else if (!elec_core_peer_find(&inst->core, id)) {
		err = -ENOENT;
		*why = "unknown peer id";
	} else {
		err = elec_core_peer_del(&inst->core, id, ktime_get_ns());
		if (err)
			*why = "peer removal refused by the protocol core";
	}
	elec_inst_unlock(inst, &ax);

	if (!err)
		atomic_long_dec(&elec_live_peers);
	return err;
}

/**
 * elec_inst_peer_reset() - forget a peer's authentication counters.
 * @inst: the instance
 * @id: peer node id
 * @why: set to a message when refused, or (return 0) when the group has
 *	no key and there was nothing to forget
 *
 * The peer's frames within auth-window of the wall clock are taken again
 * (elec_core_auth_forget()): recovery from a peer's clock that stepped
 * back, without a new key for every peer. Nothing else changes.
 *
 * Context: process context, holding @inst->en->lock.
 * Return: 0, or -ENOENT (no such peer), -ENODEV (being deleted).
 */
int elec_inst_peer_reset(struct elec_instance *inst, u32 id, const char **why)
{
	struct elec_actx ax;
	int err;

	elec_inst_lock(inst, &ax);
	if (inst->dead) {
		err = -ENODEV;
		*why = "instance is being deleted";
	} else {
		err = elec_core_auth_forget(&inst->core, id);
		if (err)
			*why = "unknown peer id";
		else if (!inst->auth_rx)
			*why = "the group has no key: no counters to forget";
	}
	elec_inst_unlock(inst, &ax);
	return err;
}

/**
 * elec_inst_dev_changed() - copy the device's name and address again.
 * @inst: the instance
 *
 * Called for NETDEV_CHANGENAME and NETDEV_CHANGEADDR: replies and events
 * report the copies, which are read under the instance lock.
 *
 * Context: process context, holding RTNL and @inst->en->lock.
 */
void elec_inst_dev_changed(struct elec_instance *inst)
{
	ASSERT_RTNL();
	spin_lock_bh(&inst->lock);
	strscpy(inst->ifname, inst->dev->name, sizeof(inst->ifname));
	ether_addr_copy(inst->lladdr, inst->dev->dev_addr);
	spin_unlock_bh(&inst->lock);
}

/**
 * elec_inst_mtu_ok() - whether the group's largest frame fits the device.
 * @inst: the instance
 *
 * Context: process context, holding @inst->en->lock.
 * Return: true when it fits the device's MTU.
 */
bool elec_inst_mtu_ok(struct elec_instance *inst)
{
	u32 need;

	spin_lock_bh(&inst->lock);
	need = elec_core_max_frame(&inst->core, inst->core.n_peers + 1);
	spin_unlock_bh(&inst->lock);
	return need <= READ_ONCE(inst->dev->mtu);
}

/**
 * elec_inst_rx() - hand a decoded frame to the core.
 * @inst: the instance of the frame's (device, group)
 * @msg: the decoded frame, &elec_msg.frame set (the decoder checked that
 *	an authenticated frame holds its trailer); its payload and frame
 *	stay valid during the call
 *
 * The core checks everything, and asks for the MAC of an authenticated
 * frame (elec_inst_verify()) only once every cheaper check passed. The
 * MAC is computed under the instance lock: SipHash over at most a few
 * hundred bytes, no allocation; the frames that cost one are those that
 * name a configured peer with a counter within auth-window not taken
 * before (from its address, or, once per new address, from another:
 * elec_core_seen_from()).
 *
 * Context: softirq, under rcu_read_lock(), the frame received on
 * @inst->dev.
 */
void elec_inst_rx(struct elec_instance *inst, const struct elec_msg *msg)
{
	u64 before[ELEC_DROP_MAX + 1];
	struct elec_actx ax;
	bool drops;
	int r;

	elec_inst_lock(inst, &ax);
	if (!inst->dead) {
		trace_election_rx(inst, msg);
		/* the core counts its drops: the tracepoint reads the counts */
		drops = trace_election_drop_enabled();
		if (drops)
			memcpy(before, inst->core.stats.drops, sizeof(before));
		elec_core_rx(&inst->core, msg, ktime_get_ns());
		for (r = 0; drops && r <= ELEC_DROP_MAX; r++)
			if (inst->core.stats.drops[r] != before[r])
				trace_election_drop(inst->ifname, inst->group,
						    inst->core.cfg.self_id, r,
						    msg->type, msg->src);
	}
	elec_inst_unlock(inst, &ax);
}

/* the drop reasons a device counts for all its instances (rx.c) */
static const u8 elec_dev_drops[] = {
	ELEC_DROP_MALFORMED,
	ELEC_DROP_WRONG_GROUP,
	ELEC_DROP_AUTH_TRUNCATED,
};

/**
 * elec_inst_snapshot() - copy an instance's state for a reply.
 * @inst: the instance (found under the namespace mutex or RCU)
 * @s: where to copy
 * @with_peers: copy the peer table too
 *
 * Return: false when the instance is being destroyed (nothing copied).
 */
bool elec_inst_snapshot(struct elec_instance *inst, struct elec_snapshot *s,
			bool with_peers)
{
	const struct elec_core *c = &inst->core;
	u32 i;
	int r;

	spin_lock_bh(&inst->lock);
	if (inst->dead) {
		spin_unlock_bh(&inst->lock);
		return false;
	}
	/* not dead: the device reference is still held */
	s->ifindex = inst->ifindex;
	strscpy(s->ifname, inst->ifname, sizeof(s->ifname));
	ether_addr_copy(s->lladdr, inst->lladdr);
	s->mtu = READ_ONCE(inst->dev->mtu);
	s->group = inst->group;
	s->cfg = c->cfg;
	s->role = c->role;
	s->participant = c->participant;
	s->admin_up = inst->admin_up;
	s->auth = !!inst->auth_rx;
	s->auth_next = inst->auth_rx && inst->auth_next;
	s->leader = c->leader;
	s->term = c->term;
	s->ops = c->ops;
	s->n_info = c->ops->info ? c->ops->info(c, s->info) : 0;
	if (WARN_ON_ONCE(s->n_info > ELEC_INFO_MAX))
		s->n_info = ELEC_INFO_MAX;	/* and a broken table */
	s->stats = c->stats;
	/* the device's drops that belong to no instance, since its creation */
	for (r = 0; r < ARRAY_SIZE(elec_dev_drops); r++) {
		int d = elec_dev_drops[r];

		s->stats.drops[d] += atomic64_read(&inst->edev->drops[d]) -
				     inst->drops_base[d];
	}
	s->tx_errors = 0;
	for (r = 0; r <= ELEC_TX_DROP_MAX; r++) {
		s->tx_drops[r] = atomic64_read(&inst->tx_drops[r]);
		s->tx_errors += s->tx_drops[r];
	}
	s->late = inst->late;
	s->now_ns = ktime_get_ns();
	/* events are numbered under the instance lock, which is held */
	spin_lock(&inst->en->events.q.lock);
	s->ev_seq = inst->en->ev_seq;
	spin_unlock(&inst->en->events.q.lock);
	s->n_peers = min_t(u32, c->n_peers, ELEC_MAX_PEERS);
	if (with_peers) {
		memcpy(s->peers, c->peers, s->n_peers * sizeof(s->peers[0]));
		/* what GROUP_GET reports of the estimates, per peer */
		for (i = 0; i < s->n_peers; i++) {
			const struct elec_peer_est *e = c->est ? &c->est[i] :
							    NULL;

			s->window_ns[i] = elec_detect_peer_ns(&c->cfg, e);
			/* measured while the configuration uses them */
			s->rtt_ns[i] = e && elec_config_needs_est(&c->cfg) ?
				       e->srtt_ns : 0;
		}
	}
	spin_unlock_bh(&inst->lock);
	return true;
}
