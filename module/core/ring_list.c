// SPDX-License-Identifier: GPL-2.0
/*
 * The ring election that accumulates a list of live ids (the lecture
 * notes on Garcia-Molina's algorithms), algorithm "ring-list".
 *
 * A process that finds the coordinator dead sends an ELECTION holding the
 * list [its id] to its successor, skipping failed nodes. Each process adds
 * its id to the list and passes it on. When the message is back at the
 * process that started it (its id is first in the list), that process
 * takes the highest id in the list as the coordinator and sends
 * COORDINATOR with the list round the ring; each process takes the
 * highest id of the list as its leader and passes it on; back at the
 * initiator it is removed. Concurrent elections all choose the same
 * leader. 2n messages per initiator.
 *
 * A node in standby passes an ELECTION on without adding its id, so no
 * list gathered while it is in standby elects it, and it begins no run
 * (ring.c). A list that names it as the highest (it was added, or began
 * the run, before) elects nobody at it: its own ELECTION back at it, or
 * a COORDINATOR reaching it, ends there; the nodes that took the
 * announcement find the leader silent, the others' round timers expire,
 * and they elect anew.
 *
 * Payload after the hop number, for both types: {be16 count, be16 0,
 * be32 ids[count]}, 1 <= count <= ELECTION_RING_LIST_MAX_IDS, ids[0] the
 * initiator. The hops, runs, heartbeats and failures are ring.c's.
 */
#include "ring.h"

#define LIST_HDR	4

static u16 list_count(const u8 *body)
{
	return (u16)((body[0] << 8) | body[1]);
}

static u32 list_id(const u8 *body, u32 i)
{
	return elec_ring_get32(body + LIST_HDR + 4 * i);
}

/* Queue @type carrying @count ids of @body, plus @extra if non-zero. */
static void list_pass(struct elec_core *c, u8 type, u64 term,
		      const u8 *body, u16 count, u32 extra)
{
	u16 n = count + (extra ? 1 : 0);
	u8 *out;

	out = elec_ring_put(c, type, term, body ? list_id(body, 0) : extra,
			    LIST_HDR + 4 * n);
	if (!out)
		return;
	out[0] = (u8)(n >> 8);
	out[1] = (u8)n;
	out[2] = 0;
	out[3] = 0;
	if (count)
		memcpy(out + LIST_HDR, body + LIST_HDR, 4 * (u32)count);
	if (extra)
		elec_ring_put32(out + LIST_HDR + 4 * count, extra);
}

/* every id known, and the highest; 0 when one is unknown */
static u32 list_max_known(struct elec_core *c, const u8 *body)
{
	u16 n = list_count(body);
	u32 max = 0;
	u16 i;

	for (i = 0; i < n; i++) {
		u32 id = list_id(body, i);

		if (!elec_ring_known(c, id))
			return 0;
		if (id > max)
			max = id;
	}
	return max;
}

static bool list_has(const u8 *body, u32 id)
{
	u16 n = list_count(body);
	u16 i;

	for (i = 0; i < n; i++)
		if (list_id(body, i) == id)
			return true;
	return false;
}

static void list_begin(struct elec_core *c, u64 now)
{
	(void)now;
	list_pass(c, ELEC_MSG_ELECTION, c->ring.run, NULL, 0, c->cfg.self_id);
}

static void list_election(struct elec_core *c, const struct elec_msg *msg,
			  const u8 *body, u16 len, u64 now)
{
	u32 self = c->cfg.self_id;
	u32 leader = list_max_known(c, body);
	u16 n = list_count(body);
	u64 term;

	(void)msg;
	(void)len;
	if (!leader) {
		elec_core_drop(c, ELEC_DROP_UNKNOWN_PEER);
		return;
	}
	if (list_id(body, 0) == self) {
		/* round the ring: the highest id listed is the coordinator */
		if (!elec_ring_may_lead(c, leader)) {
			/* begun before standby; the others elect anew */
			elec_ring_stand_aside(c, now);
			return;
		}
		term = elec_core_term_next(c);
		list_pass(c, ELEC_MSG_COORDINATOR, term, body, n, 0);
		elec_ring_accept(c, leader, term, now);
		return;
	}
	/* already listed (a copy that went round twice), or no room */
	if (list_has(body, self) || n >= ELECTION_RING_LIST_MAX_IDS)
		return;
	/* in standby, passed on without the local node: not electable */
	if (elec_core_standby(c)) {
		list_pass(c, ELEC_MSG_ELECTION, c->ring.run, body, n, 0);
		return;
	}
	list_pass(c, ELEC_MSG_ELECTION, c->ring.run, body, n, self);
	elec_ring_participate(c, now);
}

static void list_coordinator(struct elec_core *c, const struct elec_msg *msg,
			     const u8 *body, u16 len, u64 now)
{
	u32 leader = list_max_known(c, body);

	(void)len;
	if (!leader) {
		elec_core_drop(c, ELEC_DROP_UNKNOWN_PEER);
		return;
	}
	/* back at the initiator: removed */
	if (list_id(body, 0) == c->cfg.self_id ||
	    elec_ring_stale(c, leader, msg->term))
		return;
	/* names the local node in standby (listed before): it ends here */
	if (!elec_ring_may_lead(c, leader)) {
		elec_ring_stand_aside(c, now);
		return;
	}
	list_pass(c, ELEC_MSG_COORDINATOR, msg->term, body, list_count(body),
		  0);
	elec_ring_accept(c, leader, msg->term, now);
}

static bool list_body_ok(u8 type, const u8 *body, u16 len)
{
	u16 n;

	(void)type;
	if (len < LIST_HDR + 4)
		return false;
	n = list_count(body);
	if (body[2] || body[3] || n < 1 || n > ELECTION_RING_LIST_MAX_IDS)
		return false;
	return len == LIST_HDR + 4 * (u32)n;
}

/* a list of every node of the group: the hop number, the count, the ids */
static u32 list_max_payload(u32 n_nodes)
{
	return ELECTION_RING_HOP_LEN + LIST_HDR + 4 * n_nodes;
}

static bool list_payload_ok(u8 type, const u8 *payload, u16 len)
{
	return elec_ring_payload_check(&elec_ring_list, type, payload, len);
}

/* registered in core.c's elec_algos[] */
const struct elec_ring_algo elec_ring_list = {
	.ops = {
		.algo		= ELEC_ALGO_RING_LIST,
		.name		= "ring-list",
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
		.payload_ok	= list_payload_ok,
		.max_payload	= list_max_payload,
		.timer_names	= elec_ring_timer_names,
		.wait_timers	= ELEC_RING_WAIT_TIMERS,
	},
	.begin		= list_begin,
	.election	= list_election,
	.coordinator	= list_coordinator,
	.body_ok	= list_body_ok,
};
