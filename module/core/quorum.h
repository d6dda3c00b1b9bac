/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Quorum for the three Bully algorithms (quorum.c): no leader without a
 * majority of the group's configured nodes, so that at most one side of a
 * partition has one. The Bully family (bully.c) calls it, never the other
 * way: where a node must step down for want of a majority, these
 * functions return true and the caller does. The windows below are derived in
 * Documentation/protocol.rst, "Quorum"; they assume, as the Bully
 * algorithms do, that a frame arrives within T / 2.
 */
#ifndef _ELEC_QUORUM_H
#define _ELEC_QUORUM_H

#include "detect.h"

/*
 * The quorum's timers, two of the Bully algorithms' slots (bully.h names
 * them too): ALIVE: every node's beacon period (hb-interval; a leader
 * sends none); LEASE: a claimant's or leader's majority is due for a look
 * (confirmed, or run out).
 */
#define ELEC_QUORUM_TIMER_ALIVE		ELEC_TIMER_ALGO3
#define ELEC_QUORUM_TIMER_LEASE		ELEC_TIMER_ALGO4

/**
 * elec_quorum_lease_ns() - how long one ALIVE naming the leader counts.
 * @c: the instance
 *
 * Return: hb_interval * (hb_miss - 1) - timeout. A leader keeps its role
 * while a majority's namings are this recent; a claimant that gets no
 * majority within it steps down.
 */
static inline u64 elec_quorum_lease_ns(const struct elec_core *c)
{
	return c->cfg.hb_interval_ns * (c->cfg.hb_miss - 1) -
	       c->cfg.timeout_ns;
}

/**
 * elec_quorum_fresh_ns() - how recently a follower must have heard its
 * leader to name it.
 * @c: the instance
 *
 * Return: hb_interval + timeout / 2: one heartbeat period and its jitter.
 */
static inline u64 elec_quorum_fresh_ns(const struct elec_core *c)
{
	return c->cfg.hb_interval_ns + c->cfg.timeout_ns / 2;
}

/**
 * elec_quorum_promise_ns() - how long a node names no other leader after
 * naming one.
 * @c: the instance
 *
 * Return: the lease plus timeout / 2 (the ALIVE's flight): by then the
 * leader it named no longer counts it.
 */
static inline u64 elec_quorum_promise_ns(const struct elec_core *c)
{
	return elec_quorum_lease_ns(c) + c->cfg.timeout_ns / 2;
}

/**
 * elec_quorum_terms_lowered() - max_term was given up for the group's.
 * @c: the instance (a Bully algorithm)
 *
 * A node that finds itself far ahead of the group (the far-behind rule
 * of bully.c) lowers its max_term; its releasing terms follow, since the
 * frames it sent at the old terms are dropped as too far ahead by every
 * receiver that is not learning.
 */
static inline void elec_quorum_terms_lowered(struct elec_core *c)
{
	if (c->bully.q.release_term > c->max_term)
		c->bully.q.release_term = c->max_term;
}

bool elec_quorum_may_run(const struct elec_core *c, u64 now);
void elec_quorum_start(struct elec_core *c, u64 now);
void elec_quorum_stop(struct elec_core *c);
bool elec_quorum_named_stale(const struct elec_core *c, u64 term);
bool elec_quorum_claim(struct elec_core *c, u64 now);
u64 elec_quorum_until(const struct elec_core *c, u64 now);
u64 elec_quorum_self_bound(const struct elec_core *c);
void elec_quorum_followed(struct elec_core *c, u64 now);
void elec_quorum_heard(struct elec_core *c, u64 now);
bool elec_quorum_timer(struct elec_core *c, enum elec_timer_id id, u64 now);
bool elec_quorum_rx(struct elec_core *c, const struct elec_msg *msg,
		    u64 now);
bool elec_quorum_left(struct elec_core *c, const struct elec_msg *msg,
		      u64 now);
bool elec_quorum_payload_ok(const u8 *payload, u16 len);

#endif /* _ELEC_QUORUM_H */
