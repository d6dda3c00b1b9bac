/* SPDX-License-Identifier: GPL-2.0 */
/*
 * election.ko: every structure of the kernel glue.
 *
 * Locking overview (see also Documentation/):
 *  - RTNL, then elec_net.lock (mutex): the NETDEV notifier runs under RTNL
 *    and takes the mutex; GROUP_NEW takes RTNL and then the mutex (it reads
 *    the device under RTNL); other netlink handlers take only the mutex.
 *    The mutex serialises every change to a namespace's instance tables and
 *    every administrative command.
 *  - elec_instance.lock (spinlock, BH) serialises every call into the
 *    protocol core of one instance; it nests inside elec_net.lock.
 *  - The locks of the delivery queues (struct elec_fifo: an instance's
 *    frames, a namespace's events) nest inside the instance lock: a core
 *    call's frames and events are queued, events numbered, before the
 *    instance lock is dropped, so the queues hold them in the order the
 *    core emitted them; they are delivered after it is dropped, by one
 *    context at a time per queue.
 *  - Readers in softirq (the receive path) and dumps (process context)
 *    look instances up in the xarrays under RCU and take the instance
 *    lock; a dead instance is skipped.
 */
#ifndef _ELEC_TYPES_H
#define _ELEC_TYPES_H

#include <linux/atomic.h>
#include <linux/hrtimer.h>
#include <linux/if.h>
#include <linux/if_ether.h>
#include <linux/kthread.h>
#include <linux/mutex.h>
#include <linux/netdevice.h>
#include <linux/rcupdate.h>
#include <linux/siphash.h>
#include <linux/skbuff.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>
#include <linux/xarray.h>

#include "core.h"

/* Peers per instance: every node of a group but the local one. */
#define ELEC_MAX_PEERS	(ELECTION_MAX_NODES - 1)

/**
 * struct elec_fifo - a bounded delivery queue that keeps its order.
 * @q: the queued skbs; @q.lock protects @q, @busy and whatever the owner
 *	of the queue numbers under it
 * @busy: a context is delivering from @q; others only append
 * @limit: most skbs @q may hold (see elec_fifo_room())
 * @deliver: delivers one skb (transmit, multicast)
 * @ctx: its argument
 * @work: delivers what a drain left after its budget
 *
 * Appending happens under the lock of whatever orders the skbs (an
 * instance's core calls); delivery (elec_fifo_drain()) happens without
 * it, one context at a time, so the skbs leave in the order they were
 * appended even when several CPUs deliver.
 */
struct elec_fifo {
	struct sk_buff_head q;
	bool busy;
	u32 limit;
	void (*deliver)(struct sk_buff *skb, void *ctx);
	void *ctx;
	struct work_struct work;
};

/**
 * struct elec_net - per network namespace state.
 * @net: the namespace
 * @lock: serialises changes to @devs (and the instance tables of the
 *	devices) and administrative commands
 * @devs: the devices of this namespace that have instances, by ifindex
 *	(struct elec_dev); written under @lock, read under @lock or RCU
 * @n_instances: instances in this namespace, under @lock
 * @ev_seq: sequence number of the last event reported (or lost) in this
 *	namespace, under @events.q.lock
 * @events: event messages numbered and waiting for their multicast
 */
struct elec_net {
	struct net *net;
	struct mutex lock; /* @devs, instance tables, admin commands */
	struct xarray devs;
	u32 n_instances;
	u64 ev_seq;
	struct elec_fifo events;
};

/**
 * struct elec_dev - a network device that has instances.
 * @rcu: deferred free
 * @dev: the device (each instance on it holds a tracked reference)
 * @ifindex: its index, the key in elec_net.devs
 * @groups: its instances by group id; written under elec_net.lock, read
 *	under it or RCU
 * @n_instances: entries in @groups, under elec_net.lock
 * @drops: frames received on the device that belong to no instance, per
 *	enum elec_drop (ELEC_DROP_MALFORMED, ELEC_DROP_WRONG_GROUP,
 *	ELEC_DROP_AUTH_TRUNCATED): every instance of the device reports those
 *	counted since its creation
 */
struct elec_dev {
	struct rcu_head rcu;
	struct net_device *dev;
	int ifindex;
	struct xarray groups;
	u32 n_instances;
	atomic64_t drops[ELEC_DROP_MAX + 1];
};

struct elec_instance;

/**
 * struct elec_late_hist - how late an instance's hrtimers ran.
 * @buckets: expiries per lateness: [0] less than 1 us late, [k] (1..20)
 *	at least 2^(k-1) us and less than 2^k us, [21] the rest
 * @max_ns: the latest expiry seen
 * @count: expiries recorded, the sum of @buckets
 *
 * Written by the timer callbacks under the instance lock, read (copied)
 * under it.
 */
struct elec_late_hist {
	u64 buckets[ELECTION_TIMER_LATE_BUCKETS];
	u64 max_ns;
	u64 count;
};

/**
 * struct elec_inst_timer - one named hrtimer of an instance.
 * @timer: the hrtimer, CLOCK_MONOTONIC, absolute; soft (softirq) or hard
 *	(hardirq) as the instance's @timer_mode says
 * @inst: the instance it belongs to
 * @id: enum elec_timer_id
 * @fired: hard modes: the expiry the hardirq callback saw, for the
 *	lateness of the deferred step
 * @work: ELEC_TIMER_MODE_HARD_WQ: the deferred protocol step
 * @kwork: ELEC_TIMER_MODE_FIFO: the deferred protocol step
 * @after_rx: hard modes, a timer that waits for a frame
 *	(timer_waits_soft): the deferred step only arms @rx_timer, and the
 *	step runs in the hrtimer softirq, after the receive softirq; fixed
 *	at creation
 * @rx_timer: with @after_rx: a soft hrtimer armed to expire at once
 */
struct elec_inst_timer {
	struct hrtimer timer;
	struct elec_instance *inst;
	enum elec_timer_id id;
	ktime_t fired;
	struct work_struct work;
	struct kthread_work kwork;
	bool after_rx;
	struct hrtimer rx_timer;
};

/**
 * struct elec_actx - actions collected during one locked core call.
 * @tx: frames to hand to dev_queue_xmit()
 * @events: event messages for the "events" multicast group
 * @events_lost: events that could not be built (the sequence number
 *	skips them, so listeners see a gap)
 * @role: the core's role when the call began (the election_role event)
 * @leader: its leader then
 *
 * The core's sink runs under the instance lock; frames and events are
 * built there (GFP_ATOMIC) and collected here; before the lock is dropped
 * they move to the instance's and the namespace's delivery queues (events
 * numbered on the way), and they are transmitted and multicast once it is
 * dropped.
 */
struct elec_actx {
	struct sk_buff_head tx;
	struct sk_buff_head events;
	u32 events_lost;
	u8 role;
	u32 leader;
};

/**
 * struct elec_instance - one (net device, group) election instance.
 * @rcu: deferred free (queue_rcu_work())
 * @en: the namespace state this instance belongs to
 * @edev: the device's entry in @en, which holds this instance
 * @dev: the device, referenced (@dev_tracker) for the instance's whole life
 * @dev_tracker: tracks that reference
 * @ifindex: @dev's index
 * @group: group id, also in @core.cfg.group
 * @ifname: @dev's name, copied under RTNL (at creation and on
 *	NETDEV_CHANGENAME), under @lock
 * @lladdr: @dev's own address, copied under RTNL (at creation and on
 *	NETDEV_CHANGEADDR), under @lock
 * @lock: serialises every call into @core and the fields below
 * @dead: set once, under @lock, when teardown begins; after that no core
 *	call is made and no timer is armed
 * @userns: created by a caller with CAP_NET_ADMIN only over its network
 *	namespace (userns_admin): counted in elec_userns_total until freed
 * @admin_up: started by the administrator; the core runs while this is
 *	set and the device is up with carrier
 * @actx: action collector of the core call in progress, under @lock
 * @txq: frames waiting for dev_queue_xmit(), in the order the core emitted
 *	them
 * @tx_drops: frames the core emitted that were not transmitted, per enum
 *	elec_tx_drop
 * @drops_base: @edev's drops when the instance was created
 * @late: lateness of the expiries of @timers, under @lock
 * @timer_mode: enum elec_timer_mode, fixed at creation
 * @timers: one hrtimer per enum elec_timer_id
 * @core: protocol state
 * @key: the group's key (SipHash), valid while @auth_rx is set; every
 *	frame is sent under it; wiped when replaced, removed or freed; under
 *	@lock
 * @key_next: a second key frames are accepted under (a key rotation),
 *	valid while @auth_next is set; wiped when replaced, dropped or freed;
 *	under @lock
 * @auth_next: @key_next is set (only with a key); under @lock
 * @auth_rx: with a key: the core's per-peer replay state, shared by both
 *	keys (ELEC_MAX_PEERS entries, kvcalloc()), else NULL; under @lock
 * @queue: the core's queue (elec_core_set_queue()): its algorithm's
 *	&elec_algo_ops.queue_bytes from kvzalloc() (8-byte aligned), freed
 *	with the instance after the RCU grace period; NULL for an algorithm
 *	that queues nothing (all but the rings)
 * @est: the core's estimates of the peers (elec_core_set_est()):
 *	ELEC_MAX_PEERS entries from kvcalloc(), allocated when a
 *	configuration first needs them (the adaptive detector,
 *	timeout-auto: elec_config_needs_est()) and kept, freed with the
 *	instance; NULL before; set under @lock
 * @peers: storage for @core's peer table
 */
struct elec_instance {
	struct rcu_work rcu;
	struct elec_net *en;
	struct elec_dev *edev;
	struct net_device *dev;
	netdevice_tracker dev_tracker;
	int ifindex;
	u16 group;
	spinlock_t lock; /* every core call, dead, admin_up, actx, names */
	char ifname[IFNAMSIZ];
	u8 lladdr[ETH_ALEN];
	bool dead;
	bool userns;
	bool admin_up;
	struct elec_actx *actx;
	struct elec_fifo txq;
	atomic64_t tx_drops[ELEC_TX_DROP_MAX + 1];
	u64 drops_base[ELEC_DROP_MAX + 1];
	struct elec_late_hist late;
	u8 timer_mode;
	struct elec_inst_timer timers[ELEC_TIMER_COUNT];
	struct elec_core core;
	siphash_key_t key;
	siphash_key_t key_next;
	bool auth_next;
	struct elec_auth_peer *auth_rx;
	void *queue;
	struct elec_peer_est *est;
	struct elec_peer peers[ELEC_MAX_PEERS];
};

/**
 * struct elec_snapshot - a consistent copy of an instance's state, taken
 * under its lock, from which netlink replies are built without it.
 * @ifindex: device index
 * @ifname: device name
 * @lladdr: the device's own address
 * @mtu: the device's MTU
 * @group: group id
 * @cfg: configuration
 * @role: enum elec_role
 * @participant: taking part in an election
 * @admin_up: started by the administrator (and not stopped since)
 * @auth: the group has a key
 * @auth_next: it accepts a second key too
 * @leader: leader id, 0 = none
 * @term: leader's term
 * @ops: the algorithm (its &elec_algo_ops.peer_info describes @peers)
 * @info: the algorithm's private state (&elec_algo_ops.info)
 * @n_info: entries used in @info
 * @stats: counters (with the device's drops that belong to no instance)
 * @tx_drops: frames not transmitted, per enum elec_tx_drop
 * @tx_errors: their sum
 * @late: timer lateness histogram
 * @now_ns: when the copy was taken (the core's clock, for the peers' ages)
 * @ev_seq: the namespace's last event sequence number when the copy was
 *	taken: the instance's events up to it are reflected in the copy
 * @n_peers: entries used in @peers
 * @peers: peer table, sorted by id
 * @window_ns: per entry of @peers, the failure detector's window for it
 *	(elec_detect_peer_ns())
 * @rtt_ns: per entry of @peers, its smoothed round-trip time, 0 when not
 *	measured
 */
struct elec_snapshot {
	int ifindex;
	char ifname[IFNAMSIZ];
	u8 lladdr[ETH_ALEN];
	u32 mtu;
	u16 group;
	struct elec_config cfg;
	u8 role;
	bool participant;
	bool admin_up;
	bool auth;
	bool auth_next;
	u32 leader;
	u64 term;
	const struct elec_algo_ops *ops;
	struct elec_info info[ELEC_INFO_MAX];
	u32 n_info;
	struct elec_stats stats;
	u64 tx_drops[ELEC_TX_DROP_MAX + 1];
	u64 tx_errors;
	struct elec_late_hist late;
	u64 now_ns;
	u64 ev_seq;
	u32 n_peers;
	struct elec_peer peers[ELEC_MAX_PEERS];
	u64 window_ns[ELEC_MAX_PEERS];
	u64 rtt_ns[ELEC_MAX_PEERS];
};

#endif /* _ELEC_TYPES_H */
