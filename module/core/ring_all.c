// SPDX-License-Identifier: GPL-2.0
/*
 * The ring election that collects every id (the all-ids ring of the
 * unidirectional-ring text), algorithm "ring-all".
 *
 * An initiator Pi sends ("elect me", Pi). A process Pj receiving
 * ("elect me", Pi) sends its own ("elect me", Pj), once per run, and
 * passes Pi's on right after it. Each message travels the whole ring back
 * to its sender, which removes it; since each node passes its messages on
 * in order, Pi's own message is the last to reach Pi, after every other
 * id. Pi then elects the highest id it has seen and sends ("new
 * coordinator", Phigh) round the ring. Several initiators in one run all
 * see every id and elect the same process. About n^2 + n messages.
 *
 * A node in standby passes the others' messages on but sends no "elect
 * me" of its own, so no run it is in standby throughout elects it; it
 * begins no run (ring.c). The highest id seen (seen_max) counts the
 * other nodes' only: an initiator that entered standby during its run
 * elects the highest of them. An announcement that names the node in
 * standby (its "elect me" went out before) ends there; the nodes that
 * took it find the leader silent, the others' round timers expire, and
 * they elect anew.
 *
 * Payloads after the hop number: ELECTION {be32 origin}, COORDINATOR
 * {be32 leader, be32 origin}. The hops, runs, heartbeats and failures are
 * ring.c's.
 */
#include "ring.h"

static void all_pass_election(struct elec_core *c, u32 origin)
{
	u8 *body = elec_ring_put(c, ELEC_MSG_ELECTION, c->ring.run, origin, 4);

	if (body)
		elec_ring_put32(body, origin);
}

static void all_pass_coordinator(struct elec_core *c, u64 term, u32 leader,
				 u32 origin)
{
	u8 *body = elec_ring_put(c, ELEC_MSG_COORDINATOR, term, origin, 8);

	if (!body)
		return;
	elec_ring_put32(body, leader);
	elec_ring_put32(body + 4, origin);
}

static void all_new_run(struct elec_core *c)
{
	c->ring.seen_max = 0;
	c->ring.initiator = false;
	c->ring.sent_own = false;
}

static void all_begin(struct elec_core *c, u64 now)
{
	(void)now;
	c->ring.initiator = true;
	c->ring.sent_own = true;
	all_pass_election(c, c->cfg.self_id);
}

static void all_election(struct elec_core *c, const struct elec_msg *msg,
			 const u8 *body, u16 len, u64 now)
{
	u32 self = c->cfg.self_id;
	u32 origin = elec_ring_get32(body);
	u32 leader;
	u64 term;

	(void)msg;
	(void)len;
	if (!elec_ring_known(c, origin)) {
		elec_core_drop(c, ELEC_DROP_UNKNOWN_PEER);
		return;
	}
	if (origin == self) {
		/* our own message, the last of the run to reach us */
		if (!c->ring.initiator)
			return;
		c->ring.initiator = false;
		/* the highest id seen; the local node's unless in standby */
		leader = c->ring.seen_max;
		if (elec_ring_may_lead(c, self) && self > leader)
			leader = self;
		if (!leader) {
			/* entered standby, no other id came: nobody to elect */
			elec_ring_stand_aside(c, now);
			return;
		}
		term = elec_core_term_next(c);
		all_pass_coordinator(c, term, leader, self);
		elec_ring_accept(c, leader, term, now);
		return;
	}
	if (origin > c->ring.seen_max)
		c->ring.seen_max = origin;
	/* in standby, the node only passes the others' messages on */
	if (!c->ring.sent_own && !elec_core_standby(c)) {
		c->ring.sent_own = true;
		all_pass_election(c, self);
		elec_ring_participate(c, now);
	}
	all_pass_election(c, origin);
}

static void all_coordinator(struct elec_core *c, const struct elec_msg *msg,
			    const u8 *body, u16 len, u64 now)
{
	u32 leader = elec_ring_get32(body);
	u32 origin = elec_ring_get32(body + 4);

	(void)len;
	if (!elec_ring_known(c, leader) || !elec_ring_known(c, origin)) {
		elec_core_drop(c, ELEC_DROP_UNKNOWN_PEER);
		return;
	}
	/* back at its sender: removed */
	if (origin == c->cfg.self_id || elec_ring_stale(c, leader, msg->term))
		return;
	/* names the local node in standby (sent it before): it ends here */
	if (!elec_ring_may_lead(c, leader)) {
		elec_ring_stand_aside(c, now);
		return;
	}
	all_pass_coordinator(c, msg->term, leader, origin);
	elec_ring_accept(c, leader, msg->term, now);
}

static bool all_body_ok(u8 type, const u8 *body, u16 len)
{
	if (type == ELEC_MSG_ELECTION)
		return len == 4 && elec_ring_get32(body) != 0;
	return len == 8 && elec_ring_get32(body) != 0 &&
	       elec_ring_get32(body + 4) != 0;
}

/* COORDINATOR: the hop number, the leader and the origin */
static u32 all_max_payload(u32 n_nodes)
{
	(void)n_nodes;
	return ELECTION_RING_HOP_LEN + 8;
}

static bool all_payload_ok(u8 type, const u8 *payload, u16 len)
{
	return elec_ring_payload_check(&elec_ring_all, type, payload, len);
}

/* registered in core.c's elec_algos[] */
const struct elec_ring_algo elec_ring_all = {
	.ops = {
		.algo		= ELEC_ALGO_RING_ALL,
		.name		= "ring-all",
		.msgs		= ELEC_MSGS_RING,
		.rtt_asks	= ELEC_RTT_ASKS_RING,
		.rtt_replies	= ELEC_RTT_REPLIES_RING,
		.start		= elec_ring_start,
		.stop		= elec_ring_stop,
		.elect		= elec_ring_elect,
		.rx		= elec_ring_rx,
		.timer		= elec_ring_timer,
		.silent		= elec_ring_silent,
		.queue_bytes	= ELEC_RING_QUEUE_BYTES,
		.set_queue	= elec_ring_set_queue,
		.config_changed	= elec_ring_config_changed,
		.standby	= elec_ring_standby,
		.payload_ok	= all_payload_ok,
		.max_payload	= all_max_payload,
		.timer_names	= elec_ring_timer_names,
		.wait_timers	= ELEC_RING_WAIT_TIMERS,
	},
	.new_run	= all_new_run,
	.begin		= all_begin,
	.election	= all_election,
	.coordinator	= all_coordinator,
	.body_ok	= all_body_ok,
};
