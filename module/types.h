/* SPDX-License-Identifier: GPL-2.0 */
/*
 * election.ko: every structure of the kernel glue.
 *
 * Locking overview (see also Documentation/):
 *  - elec_net.lock (mutex) serialises every change to a namespace's
 *    instance list and every administrative command; the NETDEV notifier
 *    takes it too (under RTNL), netlink handlers never take RTNL.
 *  - elec_instance.lock (spinlock, BH) serialises every call into the
 *    protocol core of one instance; it nests inside elec_net.lock.
 *  - elec_net.ev_lock (spinlock, BH) orders event sequence numbers with
 *    their multicast; it is never held together with an instance lock.
 *  - Readers in softirq (receive path, dumps) walk the instance list
 *    under RCU and take the instance lock; a dead instance is skipped.
 */
#ifndef _ELEC_TYPES_H
#define _ELEC_TYPES_H

#include <linux/hrtimer.h>
#include <linux/if.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/netdevice.h>
#include <linux/rcupdate.h>
#include <linux/skbuff.h>
#include <linux/spinlock.h>

#include "core.h"

/* Peers per instance: every node of a group but the local one. */
#define ELEC_MAX_PEERS	(ELECTION_MAX_NODES - 1)

/**
 * struct elec_net - per network namespace state.
 * @net: the namespace
 * @lock: serialises changes to @instances and administrative commands
 * @instances: instances of this namespace, sorted by (ifindex, group);
 *	written under @lock, read under @lock or RCU
 * @ev_lock: protects @ev_seq and orders multicasts by sequence number
 * @ev_seq: sequence number of the last event reported (or lost) in this
 *	namespace
 */
struct elec_net {
	struct net *net;
	struct mutex lock; /* instance list, admin commands */
	struct list_head instances;
	spinlock_t ev_lock; /* ev_seq, multicast order */
	u64 ev_seq;
};

struct elec_instance;

/**
 * struct elec_inst_timer - one named hrtimer of an instance.
 * @timer: the hrtimer, CLOCK_MONOTONIC, absolute, soft (softirq) mode
 * @inst: the instance it belongs to
 * @id: enum elec_timer_id
 */
struct elec_inst_timer {
	struct hrtimer timer;
	struct elec_instance *inst;
	enum elec_timer_id id;
};

/**
 * struct elec_actx - actions collected during one locked core call.
 * @tx: frames to hand to dev_queue_xmit()
 * @events: event messages for the "events" multicast group
 * @tx_failed: frames that could not be built (counted as tx errors)
 * @events_lost: events that could not be built (the sequence number
 *	skips them, so listeners see a gap)
 *
 * The core's sink runs under the instance lock; frames and events are
 * built there (GFP_ATOMIC) and queued here, then transmitted and
 * multicast once the lock is dropped.
 */
struct elec_actx {
	struct sk_buff_head tx;
	struct sk_buff_head events;
	u32 tx_failed;
	u32 events_lost;
};

/**
 * struct elec_instance - one (net device, group) election instance.
 * @list: entry in elec_net.instances (RCU)
 * @rcu: deferred free
 * @en: the namespace state this instance belongs to
 * @dev: the device, referenced for the instance's whole life
 * @ifindex: @dev's index (the list's sort key with @group)
 * @group: group id, also in @core.cfg.group
 * @lock: serialises every call into @core and the fields below
 * @dead: set once, under @lock, when teardown begins; after that no core
 *	call is made and no timer is armed
 * @admin_up: started by the administrator; the core runs while this is
 *	set and the device is up with carrier
 * @actx: action collector of the core call in progress, under @lock
 * @tx_errors: frames the core emitted that could not be built or queued
 * @timers: one hrtimer per enum elec_timer_id
 * @core: protocol state
 * @ring_q: ring algorithms only: the core's ring queue,
 *	ELEC_RING_QUEUE_BYTES from kvzalloc() (8-byte aligned), freed with
 *	the instance after the RCU grace period; NULL for other algorithms
 * @peers: storage for @core's peer table
 */
struct elec_instance {
	struct list_head list;
	struct rcu_head rcu;
	struct elec_net *en;
	struct net_device *dev;
	int ifindex;
	u16 group;
	spinlock_t lock; /* every core call, dead, admin_up, actx */
	bool dead;
	bool admin_up;
	struct elec_actx *actx;
	atomic64_t tx_errors;
	struct elec_inst_timer timers[ELEC_TIMER_COUNT];
	struct elec_core core;
	void *ring_q;
	struct elec_peer peers[ELEC_MAX_PEERS];
};

/**
 * struct elec_snapshot - a consistent copy of an instance's state, taken
 * under its lock, from which netlink replies are built without it.
 * @ifindex: device index
 * @ifname: device name
 * @group: group id
 * @cfg: configuration
 * @coord_timeout_ns: effective COORDINATOR timeout
 * @role: enum elec_role
 * @participant: taking part in an election
 * @leader: leader id, 0 = none
 * @term: leader's term
 * @stats: counters
 * @tx_errors: frames that could not be built or queued
 * @n_peers: entries used in @peers
 * @peers: peer table, sorted by id
 */
struct elec_snapshot {
	int ifindex;
	char ifname[IFNAMSIZ];
	u16 group;
	struct elec_config cfg;
	u64 coord_timeout_ns;
	u8 role;
	bool participant;
	u32 leader;
	u64 term;
	struct elec_stats stats;
	u64 tx_errors;
	u32 n_peers;
	struct elec_peer peers[ELEC_MAX_PEERS];
};

#endif /* _ELEC_TYPES_H */
