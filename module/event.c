// SPDX-License-Identifier: GPL-2.0
/*
 * election.ko: event messages (ELEC_CMD_EVENT) of the "election" family.
 *
 * Events are built under the instance lock while the core reports them,
 * numbered and queued on the namespace's event queue before that lock is
 * dropped, and multicast to the "events" group from the queue afterwards:
 * in sequence-number order per namespace, which is each instance's core
 * order.
 *
 * The generic netlink family is handed over with elec_event_init() once
 * it is registered, and taken back with elec_event_exit() before it is
 * unregistered. Without it no event is built, and queued ones are freed.
 */
#include <linux/atomic.h>
#include <linux/bug.h>
#include <linux/netdevice.h>
#include <linux/rcupdate.h>
#include <linux/skbuff.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <net/genetlink.h>
#include <net/netlink.h>

#include "event.h"
#include "fifo.h"
#include "main.h"
#include "types.h"

/*
 * The registered family, or NULL. Cleared (then synchronize_rcu()) before
 * the family is unregistered: events built or flushed afterwards are
 * freed, never multicast through group ids the family no longer owns.
 */
static const struct genl_family __rcu *elec_event_family;

static size_t elec_event_size(void)
{
	return nla_total_size(sizeof(u8))		/* EVENT */
	       + 2 * nla_total_size_64bit(sizeof(u64))	/* TIMESTAMP, SEQ */
	       + nla_total_size(sizeof(u32))		/* IFINDEX */
	       + nla_total_size(IFNAMSIZ)		/* IFNAME */
	       + nla_total_size(sizeof(u16))		/* GROUP */
	       + nla_total_size(sizeof(u32))		/* NODE_ID */
	       + nla_total_size(sizeof(u8))		/* ALGO */
	       + nla_total_size(sizeof(u32))		/* LEADER */
	       + nla_total_size_64bit(sizeof(u64))	/* TERM */
	       + nla_total_size(sizeof(u8))		/* ROLE */
	       + nla_total_size(sizeof(u32));		/* PEER_ID */
}

/**
 * elec_event_build() - build the event message for a core event.
 * @inst: the reporting instance
 * @act: the ELEC_ACT_EVENT action
 * @ax: the action collector of the current core call
 *
 * The message carries SEQ 0, ROLE 0, and the LEADER and TERM of the
 * moment the core reported it; elec_event_queue() sets all four to the
 * step's result.
 * Nothing is built when no socket listens to the group in the instance's
 * namespace.
 *
 * Context: under @inst->lock (atomic).
 */
void elec_event_build(struct elec_instance *inst,
		      const struct elec_action *act, struct elec_actx *ax)
{
	struct net *net = inst->en->net;
	const struct elec_config *cfg = &inst->core.cfg;
	const struct genl_family *family;
	struct sk_buff *skb;
	void *hdr;

	/* an event built while the family goes is freed by elec_event_send() */
	rcu_read_lock();
	family = rcu_dereference(elec_event_family);
	if (!family || !genl_has_listeners(family, net, ELEC_MCGRP_EVENTS))
		goto out;
	skb = genlmsg_new(elec_event_size(), GFP_ATOMIC);
	if (!skb)
		goto lost;
	hdr = genlmsg_put(skb, 0, 0, family, 0, ELEC_CMD_EVENT);
	if (!hdr ||
	    nla_put_u8(skb, ELEC_ATTR_EVENT, act->event.type) ||
	    nla_put_u64_64bit(skb, ELEC_ATTR_TIMESTAMP_NS, act->now_ns,
			      ELEC_ATTR_PAD) ||
	    nla_put_u64_64bit(skb, ELEC_ATTR_SEQ, 0, ELEC_ATTR_PAD) ||
	    nla_put_u32(skb, ELEC_ATTR_IFINDEX, inst->ifindex) ||
	    nla_put_string(skb, ELEC_ATTR_IFNAME, inst->ifname) ||
	    nla_put_u16(skb, ELEC_ATTR_GROUP, cfg->group) ||
	    nla_put_u32(skb, ELEC_ATTR_NODE_ID, cfg->self_id) ||
	    nla_put_u8(skb, ELEC_ATTR_ALGO, cfg->algo) ||
	    nla_put_u32(skb, ELEC_ATTR_LEADER, act->event.leader) ||
	    nla_put_u64_64bit(skb, ELEC_ATTR_TERM, act->event.term,
			      ELEC_ATTR_PAD) ||
	    nla_put_u8(skb, ELEC_ATTR_ROLE, 0))
		goto free;
	if ((act->event.type == ELEC_EVENT_PEER_UP ||
	     act->event.type == ELEC_EVENT_PEER_DOWN) &&
	    nla_put_u32(skb, ELEC_ATTR_PEER_ID, act->event.peer))
		goto free;
	genlmsg_end(skb, hdr);

	atomic_long_inc(&elec_live_skbs);
	__skb_queue_tail(&ax->events, skb);
	goto out;

free:
	nlmsg_free(skb);
lost:
	ax->events_lost++;
out:
	rcu_read_unlock();
}

/* Overwrite the value of attribute @type of an event built above. */
static void elec_event_put(struct genlmsghdr *gnlh, int type,
			   const void *val, int len)
{
	struct nlattr *nla = nla_find(genlmsg_data(gnlh), genlmsg_len(gnlh),
				      type);

	if (!WARN_ON_ONCE(!nla || nla_len(nla) != len))
		memcpy(nla_data(nla), val, len);
}

/* Write SEQ and the state after the step into an event built above. */
static void elec_event_set(struct sk_buff *skb, u64 seq,
			   const struct elec_event_state *st)
{
	struct genlmsghdr *gnlh = nlmsg_data(nlmsg_hdr(skb));

	elec_event_put(gnlh, ELEC_ATTR_SEQ, &seq, sizeof(seq));
	elec_event_put(gnlh, ELEC_ATTR_ROLE, &st->role, sizeof(st->role));
	elec_event_put(gnlh, ELEC_ATTR_LEADER, &st->leader,
		       sizeof(st->leader));
	elec_event_put(gnlh, ELEC_ATTR_TERM, &st->term, sizeof(st->term));
}

/**
 * elec_event_queue() - number a core call's events and queue them.
 * @en: the instance's namespace state
 * @ax: the action collector; its event queue is emptied
 * @st: the instance's role, leader and term after the core call
 *
 * Sequence numbers are assigned here, under the namespace's event queue
 * lock and still under the instance lock, so the queue holds events in
 * sequence order, which is each instance's core order; events that could
 * not be built consume a number each, which listeners see as a gap. Each
 * event carries the role, leader and term the core call left, not those
 * of the moment the core reported it: one step may report a peer down, an
 * election and the node's own leadership, and set the role last, so every
 * event of the step describes one consistent state, the step's result.
 *
 * Context: under the instance lock of the core call.
 */
void elec_event_queue(struct elec_net *en, struct elec_actx *ax,
		      const struct elec_event_state *st)
{
	struct sk_buff *skb;

	if (!ax->events_lost && skb_queue_empty(&ax->events))
		return;

	spin_lock(&en->events.q.lock);
	en->ev_seq += ax->events_lost;
	ax->events_lost = 0;
	while ((skb = __skb_dequeue(&ax->events))) {
		++en->ev_seq;
		if (!elec_fifo_room(&en->events)) {
			/* the queue is full: a lost event, a gap in SEQ */
			nlmsg_free(skb);
			atomic_long_dec(&elec_live_skbs);
			continue;
		}
		elec_event_set(skb, en->ev_seq, st);
		__skb_queue_tail(&en->events.q, skb);
	}
	spin_unlock(&en->events.q.lock);
}

/**
 * elec_event_send() - multicast one queued event.
 * @skb: the event, from the namespace's queue
 * @ctx: the namespace state
 *
 * The namespace's event queue delivers through this (fifo.c); after the
 * family is unregistered (elec_event_exit()) the event is freed instead.
 *
 * Context: bottom halves disabled.
 */
void elec_event_send(struct sk_buff *skb, void *ctx)
{
	const struct genl_family *family;
	struct elec_net *en = ctx;

	atomic_long_dec(&elec_live_skbs);
	rcu_read_lock();
	family = rcu_dereference(elec_event_family);
	if (family)
		genlmsg_multicast_netns(family, en->net, skb, 0,
					ELEC_MCGRP_EVENTS, GFP_ATOMIC);
	else
		nlmsg_free(skb);
	rcu_read_unlock();
}

/**
 * elec_event_drain() - multicast the namespace's queued events.
 * @en: namespace state
 *
 * In queue order, hence in sequence-number order (fifo.c).
 *
 * Context: not under an instance lock; softirq or process context.
 */
void elec_event_drain(struct elec_net *en)
{
	elec_fifo_drain(&en->events);
}

/**
 * elec_event_init() - multicast events through a family from now on.
 * @family: the registered family; its multicast group ELEC_MCGRP_EVENTS
 *	is the "events" group
 */
void elec_event_init(const struct genl_family *family)
{
	rcu_assign_pointer(elec_event_family, family);
}

/**
 * elec_event_exit() - stop multicasting events.
 *
 * Call before the family is unregistered, in process context
 * (synchronize_rcu()): once this returns no event is built, and queued
 * ones are freed.
 */
void elec_event_exit(void)
{
	RCU_INIT_POINTER(elec_event_family, NULL);
	synchronize_rcu();
}
