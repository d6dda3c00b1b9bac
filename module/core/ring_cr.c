// SPDX-License-Identifier: GPL-2.0
/*
 * Chang and Roberts' ring election (Coulouris et al.), algorithm "ring".
 *
 * Every process starts a non-participant. An initiator marks itself a
 * participant and sends ELECTION carrying its id to its successor. A
 * process receiving ELECTION compares the id with its own: a greater id is
 * passed on; a smaller one is replaced by its own id if it is not a
 * participant, and swallowed if it is; its own id means it has the
 * greatest: it becomes the coordinator, a non-participant again, and sends
 * COORDINATOR (the elected message) with its id round the ring. Each
 * process receiving it records the leader, becomes a non-participant and
 * passes it on, until it is back at the coordinator. Worst case 3N - 1
 * messages, best 2N.
 *
 * With the group option suppress off (cfg.suppress_off), the refinement of
 * the all-ids ring text: no participant flag decides; a process with a
 * higher id than the arriving one always sends its own ("elect me", Pj),
 * so with several initiators more messages circulate.
 *
 * A node in standby passes every ELECTION on unchanged, as if its id were
 * below every other, and begins no run (ring.c): its id is never sent
 * while it is in standby. One sent before (it substituted its id, then
 * entered standby) that comes round is swallowed; the participants it
 * passed begin a new run when their round timers expire.
 *
 * Payloads after the hop number: ELECTION {be32 id}, COORDINATOR
 * {be32 leader}. The hops, runs, heartbeats and failures are ring.c's.
 */
#include "ring.h"

static void cr_pass(struct elec_core *c, u8 type, u64 term, u32 id)
{
	u8 *body = elec_ring_put(c, type, term, id, 4);

	if (body)
		elec_ring_put32(body, id);
}

static void cr_begin(struct elec_core *c, u64 now)
{
	(void)now;
	cr_pass(c, ELEC_MSG_ELECTION, c->ring.run, c->cfg.self_id);
}

static void cr_election(struct elec_core *c, const struct elec_msg *msg,
			const u8 *body, u16 len, u64 now)
{
	u32 self = c->cfg.self_id;
	u32 id = elec_ring_get32(body);
	u64 term;

	(void)msg;
	(void)len;
	if (!elec_ring_known(c, id)) {
		elec_core_drop(c, ELEC_DROP_UNKNOWN_PEER);
		return;
	}
	if (id > self || (id < self && elec_core_standby(c))) {
		/* in standby, as if its id were below every other: passed */
		cr_pass(c, ELEC_MSG_ELECTION, c->ring.run, id);
		elec_ring_participate(c, now);
	} else if (id < self) {
		if (c->participant && !c->cfg.suppress_off)
			return;
		cr_pass(c, ELEC_MSG_ELECTION, c->ring.run, self);
		elec_ring_participate(c, now);
	} else if (!elec_ring_may_lead(c, self)) {
		/* sent before standby: swallowed, the others elect anew */
		elec_ring_stand_aside(c, now);
	} else if (c->participant) {
		/* our id came round: it is the greatest */
		term = elec_core_term_next(c);
		cr_pass(c, ELEC_MSG_COORDINATOR, term, self);
		elec_ring_accept(c, self, term, now);
	}
}

static void cr_coordinator(struct elec_core *c, const struct elec_msg *msg,
			   const u8 *body, u16 len, u64 now)
{
	u32 leader = elec_ring_get32(body);

	(void)len;
	if (!elec_ring_known(c, leader)) {
		elec_core_drop(c, ELEC_DROP_UNKNOWN_PEER);
		return;
	}
	/* back at the coordinator: the round is over */
	if (leader == c->cfg.self_id || elec_ring_stale(c, leader, msg->term))
		return;
	cr_pass(c, ELEC_MSG_COORDINATOR, msg->term, leader);
	elec_ring_accept(c, leader, msg->term, now);
}

static bool cr_body_ok(u8 type, const u8 *body, u16 len)
{
	(void)type;
	return len == 4 && elec_ring_get32(body) != 0;
}

static bool cr_payload_ok(u8 type, const u8 *payload, u16 len)
{
	return elec_ring_payload_check(&elec_ring_cr, type, payload, len);
}

/* ELECTION and COORDINATOR: the hop number and one id */
static u32 cr_max_payload(u32 n_nodes)
{
	(void)n_nodes;
	return ELECTION_RING_HOP_LEN + 4;
}

/* registered in core.c's elec_algos[] */
const struct elec_ring_algo elec_ring_cr = {
	.ops = {
		.algo		= ELEC_ALGO_RING,
		.name		= "ring",
		.msgs		= ELEC_MSGS_RING,
		.rtt_asks	= ELEC_RTT_ASKS_RING,
		.rtt_replies	= ELEC_RTT_REPLIES_RING,
		.start		= elec_ring_start,
		.stop		= elec_ring_stop,
		.elect		= elec_ring_elect,
		.rx		= elec_ring_rx,
		.timer		= elec_ring_timer,
		.silent		= elec_ring_silent,
		.options	= ELEC_OPT_BIT(ELEC_OPT_SUPPRESS),
		.queue_bytes	= ELEC_RING_QUEUE_BYTES,
		.set_queue	= elec_ring_set_queue,
		.config_changed	= elec_ring_config_changed,
		.standby	= elec_ring_standby,
		.payload_ok	= cr_payload_ok,
		.max_payload	= cr_max_payload,
		.timer_names	= elec_ring_timer_names,
		.wait_timers	= ELEC_RING_WAIT_TIMERS,
	},
	.begin		= cr_begin,
	.election	= cr_election,
	.coordinator	= cr_coordinator,
	.body_ok	= cr_body_ok,
};
