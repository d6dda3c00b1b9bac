// SPDX-License-Identifier: GPL-2.0
/*
 * Garcia-Molina's Bully algorithm as a sans-IO state machine.
 *
 * From the texts (Coulouris et al.; Gupta; the lecture notes): ELECTION to
 * every higher id, ANSWER in reply, COORDINATOR from the winner to every
 * lower id (one frame each); the timeout T for answers, a second timeout
 * for the COORDINATOR after an answer, then a new run; a process that
 * receives ELECTION answers it and begins an election unless it is in one;
 * a process that starts or recovers first learns the coordinator, then
 * calls an election.
 *
 * Our additions: the coordinator's periodic heartbeat as the failure
 * detector (hb_miss intervals of silence declare it failed, which also
 * bounds the learning window), and terms. The winner announces max_term + 1;
 * a COORDINATOR or HEARTBEAT is accepted only if (term, sender) is at least
 * (term, leader) lexicographically, so a stale leader is refused and of two
 * announcements in one term the higher id wins. A node that accepts a
 * leader with a lower id than its own bullies it at once.
 *
 * Timers per phase: LEARNING and FOLLOWING arm DETECT, WAIT_ANSWER arms
 * ANSWER, WAIT_COORD arms COORD, LEADING arms HEARTBEAT; no other timer is
 * armed in that phase. Peers are always walked in ascending id order.
 */
#include "core.h"

/* peer->flags: ELECTION sent in this run, no ANSWER yet */
#define ELEC_BULLY_ASKED	0x01

/*
 * A phase runs on exactly one timer: cancel every other one (a no-op for
 * timers that are not armed), then arm @id @delay from now.
 */
static void bully_only_timer(struct elec_core *c, enum elec_timer_id id,
			     u64 delay, u64 now)
{
	u32 t;

	for (t = 0; t < ELEC_TIMER_COUNT; t++)
		if (t != (u32)id)
			elec_core_cancel(c, t, now);
	elec_core_arm_in(c, id, delay, now);
}

static u64 bully_detect_ns(const struct elec_core *c)
{
	return c->cfg.hb_interval_ns * c->cfg.hb_miss;
}

static void bully_clear_asked(struct elec_core *c)
{
	u32 i;

	for (i = 0; i < c->n_peers; i++)
		c->peers[i].flags &= ~ELEC_BULLY_ASKED;
}

static void bully_become_leader(struct elec_core *c, u64 now)
{
	u32 self = c->cfg.self_id;
	u64 term = elec_core_term_next(c);
	u32 i;

	elec_core_set_leader(c, self, term, now);
	for (i = 0; i < c->n_peers && c->peers[i].id < self; i++)
		elec_core_send(c, ELEC_MSG_COORDINATOR, c->peers[i].id, term,
			       NULL, 0, now);
	bully_clear_asked(c);
	c->participant = false;
	c->role = ELEC_ROLE_LEADER;
	c->phase = ELEC_BULLY_LEADING;
	bully_only_timer(c, ELEC_TIMER_HEARTBEAT, c->cfg.hb_interval_ns, now);
}

/* A new election run: ELECTION to every higher peer not declared failed. */
static void bully_begin_election(struct elec_core *c, u64 now)
{
	u32 self = c->cfg.self_id;
	u32 asked = 0;
	u32 i;

	c->stats.elections++;
	c->participant = true;
	c->role = ELEC_ROLE_CANDIDATE;
	elec_core_event(c, ELEC_EVENT_ELECTION_STARTED, 0, now);

	bully_clear_asked(c);
	for (i = 0; i < c->n_peers; i++) {
		struct elec_peer *p = &c->peers[i];

		if (p->id < self || !p->alive)
			continue;
		p->flags |= ELEC_BULLY_ASKED;
		elec_core_send(c, ELEC_MSG_ELECTION, p->id, c->max_term,
			       NULL, 0, now);
		asked++;
	}
	if (!asked) {
		bully_become_leader(c, now);
		return;
	}
	c->phase = ELEC_BULLY_WAIT_ANSWER;
	bully_only_timer(c, ELEC_TIMER_ANSWER, c->cfg.timeout_ns, now);
}

static void bully_start(struct elec_core *c, u64 now)
{
	bully_clear_asked(c);
	c->role = ELEC_ROLE_FOLLOWER;
	c->phase = ELEC_BULLY_LEARNING;
	elec_core_arm_in(c, ELEC_TIMER_DETECT, bully_detect_ns(c), now);
}

static void bully_stop(struct elec_core *c, u64 now)
{
	(void)now;
	bully_clear_asked(c);
}

static void bully_elect(struct elec_core *c, u64 now)
{
	bully_begin_election(c, now);
}

/* The leader has been silent for hb_miss intervals (or learning is over). */
static void bully_detect_expired(struct elec_core *c, u64 now)
{
	if (c->phase == ELEC_BULLY_FOLLOWING && c->leader) {
		struct elec_peer *p = elec_core_peer_find(c, c->leader);

		elec_core_peer_set_alive(c, p, false, now);
		elec_core_set_leader(c, 0, c->term, now);
	} else if (c->phase != ELEC_BULLY_LEARNING &&
		   c->phase != ELEC_BULLY_FOLLOWING) {
		return;
	}
	bully_begin_election(c, now);
}

/* T passed without an ANSWER: every peer asked is declared failed. */
static void bully_answer_expired(struct elec_core *c, u64 now)
{
	u32 i;

	if (c->phase != ELEC_BULLY_WAIT_ANSWER)
		return;
	for (i = 0; i < c->n_peers; i++) {
		struct elec_peer *p = &c->peers[i];

		if (!(p->flags & ELEC_BULLY_ASKED))
			continue;
		p->flags &= ~ELEC_BULLY_ASKED;
		elec_core_peer_set_alive(c, p, false, now);
	}
	bully_become_leader(c, now);
}

static void bully_timer(struct elec_core *c, enum elec_timer_id id, u64 now)
{
	switch (id) {
	case ELEC_TIMER_DETECT:
		bully_detect_expired(c, now);
		break;
	case ELEC_TIMER_ANSWER:
		bully_answer_expired(c, now);
		break;
	case ELEC_TIMER_COORD:
		/* an answer came but no COORDINATOR: a new run */
		if (c->phase == ELEC_BULLY_WAIT_COORD)
			bully_begin_election(c, now);
		break;
	case ELEC_TIMER_HEARTBEAT:
		if (c->phase != ELEC_BULLY_LEADING)
			break;
		elec_core_send(c, ELEC_MSG_HEARTBEAT, 0, c->term, NULL, 0, now);
		elec_core_arm_in(c, ELEC_TIMER_HEARTBEAT,
				 c->cfg.hb_interval_ns, now);
		break;
	default:
		break;
	}
}

static void bully_rx_election(struct elec_core *c, const struct elec_msg *msg,
			      u64 now)
{
	if (msg->src > c->cfg.self_id)
		return;
	elec_core_send(c, ELEC_MSG_ANSWER, msg->src, c->max_term, NULL, 0,
		       now);
	/* rate limited: the election sends up to one frame per peer */
	if (!c->participant && elec_core_rx_may_elect(c, now))
		bully_begin_election(c, now);
}

static void bully_rx_answer(struct elec_core *c, const struct elec_msg *msg,
			    u64 now)
{
	struct elec_peer *p;

	if (c->phase != ELEC_BULLY_WAIT_ANSWER || msg->src < c->cfg.self_id)
		return;
	p = elec_core_peer_find(c, msg->src);
	if (p)
		p->flags &= ~ELEC_BULLY_ASKED;
	c->phase = ELEC_BULLY_WAIT_COORD;
	bully_only_timer(c, ELEC_TIMER_COORD,
			 elec_config_coord_timeout(&c->cfg), now);
}

/* COORDINATOR or HEARTBEAT that passed the acceptance rule, (t, j) above */
static void bully_accept_leader(struct elec_core *c, const struct elec_msg *msg,
				u64 now)
{
	bool learning = c->phase == ELEC_BULLY_LEARNING;

	elec_core_set_leader(c, msg->src, msg->term, now);
	bully_clear_asked(c);
	c->participant = false;
	c->role = ELEC_ROLE_FOLLOWER;
	c->phase = ELEC_BULLY_FOLLOWING;
	/*
	 * A node that has just learnt the leader calls an election (004); a
	 * node higher than the announced leader bullies it. Either way the
	 * election sets the timers itself. When the rate limit refuses it,
	 * the node follows for now; a lower leader's next heartbeat asks
	 * again (bully_rx_leader()).
	 */
	if ((learning || msg->src < c->cfg.self_id) &&
	    elec_core_rx_may_elect(c, now)) {
		bully_begin_election(c, now);
		return;
	}
	bully_only_timer(c, ELEC_TIMER_DETECT, bully_detect_ns(c), now);
}

static void bully_rx_leader(struct elec_core *c, const struct elec_msg *msg,
			    u64 now)
{
	if (msg->term < c->term ||
	    (msg->term == c->term && msg->src < c->leader)) {
		elec_core_drop(c, ELEC_DROP_STALE_TERM);
		return;
	}
	elec_core_peer_set_alive(c, elec_core_peer_find(c, msg->src), true,
				 now);
	if (msg->term == c->term && msg->src == c->leader) {
		/* the current leader's heartbeat (or a repeated announce) */
		if (c->phase != ELEC_BULLY_FOLLOWING)
			return;
		/* following a lower leader: only after a rate-limit refusal */
		if (msg->src < c->cfg.self_id &&
		    elec_core_rx_may_elect(c, now)) {
			bully_begin_election(c, now);
			return;
		}
		elec_core_arm_in(c, ELEC_TIMER_DETECT, bully_detect_ns(c), now);
		return;
	}
	bully_accept_leader(c, msg, now);
}

static void bully_rx(struct elec_core *c, const struct elec_msg *msg, u64 now)
{
	if (msg->term > c->max_term)
		c->max_term = msg->term;

	switch (msg->type) {
	case ELEC_MSG_ELECTION:
		elec_core_peer_set_alive(c, elec_core_peer_find(c, msg->src),
					 true, now);
		bully_rx_election(c, msg, now);
		break;
	case ELEC_MSG_ANSWER:
		elec_core_peer_set_alive(c, elec_core_peer_find(c, msg->src),
					 true, now);
		bully_rx_answer(c, msg, now);
		break;
	case ELEC_MSG_COORDINATOR:
	case ELEC_MSG_HEARTBEAT:
		bully_rx_leader(c, msg, now);
		break;
	default:
		break;
	}
}

static bool bully_payload_ok(u8 type, const u8 *payload, u16 len)
{
	/* every Bully message is the bare header; ACK is a ring message */
	(void)payload;
	return type >= ELEC_MSG_ELECTION && type <= ELEC_MSG_HEARTBEAT &&
	       len == 0;
}

/* the Bully algorithm's table, registered in core.c's elec_algos[] */
const struct elec_algo_ops elec_bully_ops = {
	.algo		= ELEC_ALGO_BULLY,
	.name		= "bully",
	.start		= bully_start,
	.stop		= bully_stop,
	.elect		= bully_elect,
	.rx		= bully_rx,
	.timer		= bully_timer,
	.payload_ok	= bully_payload_ok,
};
