// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of Chang and Roberts' ring election (module/core/ring_cr.c,
 * algorithm "ring"), one instance driven input by input through a
 * recording sink.
 *
 * Suite elec_ring_cr: the initiator's ELECTION; an arriving greater id
 * passed on, a smaller one replaced by a non-participant and swallowed by
 * a participant (always replaced with the group option suppress off, the
 * refinement of the all-ids ring); the node's own id back: it is the
 * coordinator and sends the elected message (COORDINATOR); the elected
 * message recorded and passed on by the others, removed at the
 * coordinator, and not passed on when stale. Every ELECTION and
 * COORDINATOR received is acknowledged first.
 *
 * Hops, retries, runs and heartbeats are elec_ring's (elec_ring_kunit.c).
 * The file also compiles in userspace against the KUnit shim in
 * tests/core/shim, so `make -C tests/core check` runs the same cases.
 */
#include "elec_kunit_ring.h"

/* ring order 4 9 2 7 5: node 7's predecessor is 2, its successor 5 */
static const u32 trc_ring[] = { 4, 9, 2, 7, 5 };

static struct t_node *trc_node(struct kunit *test, u32 self, bool off)
{
	struct elec_config cfg;
	struct t_node *n;

	t_cfg_algo(&cfg, ELEC_ALGO_RING, self);
	cfg.suppress_off = off;
	n = tr_node_cfg(test, &cfg, trc_ring, ARRAY_SIZE(trc_ring),
			TR_QBYTES);
	tr_started(n);
	return n;
}

/* the only ring frame sent is an ELECTION carrying @id to 5, in @term */
static void trc_expect_election(struct t_node *n, u32 id, u64 term)
{
	struct kunit *test = n->test;
	const struct elec_action *a;

	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_ELECTION, T_ANY), 1);
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_COORDINATOR, T_ANY), 0);
	a = tr_last(n, ELEC_MSG_ELECTION);
	KUNIT_EXPECT_EQ(test, a->msg.dst, 5);
	KUNIT_EXPECT_EQ(test, a->msg.term, term);
	KUNIT_EXPECT_EQ(test, a->msg.payload_len, 8);
	KUNIT_EXPECT_EQ(test, tr_val(n, a), id);
}

/* An ELECTION arrives at node 7 from 2; its ACK is the first frame. */
static void trc_rx_election(struct t_node *n, u64 term, u32 hop, u32 id)
{
	const struct elec_action *a;

	t_clear(n);
	tr_rx_cr(n, ELEC_MSG_ELECTION, 2, term, hop, id);
	a = tr_first_send(n);
	KUNIT_EXPECT_EQ(n->test, a->msg.type, ELEC_MSG_ACK);
	KUNIT_EXPECT_EQ(n->test, a->msg.dst, 2);
	KUNIT_EXPECT_EQ(n->test, tr_hop(n, a), hop);
}

/* The initiator marks itself a participant and sends its id. */
static void trc_begin(struct kunit *test)
{
	struct t_node *n = trc_node(test, 7, false);

	elec_core_elect(&n->c, n->now);
	trc_expect_election(n, 7, 1);
	KUNIT_EXPECT_TRUE(test, n->c.participant);
	KUNIT_EXPECT_EQ(test, n->c.role, ELEC_ROLE_CANDIDATE);
	KUNIT_EXPECT_EQ(test, n->c.ring.run, 1);
	KUNIT_EXPECT_EQ(test, n->c.stats.elections, 1);
	KUNIT_EXPECT_EQ(test, t_events(n, ELEC_EVENT_ELECTION_STARTED, T_ANY),
			1);
	KUNIT_EXPECT_EQ(test, n->c.timer_expires[ELEC_RING_TIMER_ACK],
			n->now + T_T);
	KUNIT_EXPECT_EQ(test, n->c.timer_expires[ELEC_RING_TIMER_ROUND],
			n->now + TR_ROUND(5));
}

/* A greater id is passed on; the receiver becomes a participant. */
static void trc_forward_greater(struct kunit *test)
{
	struct t_node *n = trc_node(test, 7, false);

	trc_rx_election(n, 1, 21, 9);
	trc_expect_election(n, 9, 1);
	KUNIT_EXPECT_NE(test, tr_hop(n, tr_last(n, ELEC_MSG_ELECTION)), 21);
	KUNIT_EXPECT_TRUE(test, n->c.participant);
	KUNIT_EXPECT_EQ(test, n->c.role, ELEC_ROLE_CANDIDATE);
	KUNIT_EXPECT_EQ(test, n->c.timer_expires[ELEC_RING_TIMER_ROUND],
			n->now + TR_ROUND(5));
	KUNIT_EXPECT_EQ(test, n->c.stats.rx[ELEC_MSG_ELECTION], 1);
	/* one ACK, after the greeting (one broadcast) at start */
	KUNIT_EXPECT_EQ(test, n->c.stats.tx[ELEC_MSG_ACK], 2);
	/* passing an id on is not beginning an election */
	KUNIT_EXPECT_EQ(test, n->c.stats.elections, 0);
	KUNIT_EXPECT_EQ(test, t_events(n, ELEC_EVENT_ELECTION_STARTED, T_ANY),
			0);
	/* still a participant: a greater id is passed on again */
	tr_ack_head(n);
	trc_rx_election(n, 1, 22, 9);
	trc_expect_election(n, 9, 1);
}

/* A non-participant substitutes its own greater id. */
static void trc_substitute(struct kunit *test)
{
	struct t_node *n = trc_node(test, 7, false);

	trc_rx_election(n, 1, 1, 4);
	trc_expect_election(n, 7, 1);
	KUNIT_EXPECT_TRUE(test, n->c.participant);
	KUNIT_EXPECT_EQ(test, n->c.stats.elections, 0);
}

/* A participant swallows a smaller id. */
static void trc_suppress(struct kunit *test)
{
	struct t_node *n = trc_node(test, 7, false);

	/* a participant by passing 9 on */
	trc_rx_election(n, 1, 1, 9);
	tr_ack_head(n);
	n->now += T_T;
	trc_rx_election(n, 1, 2, 4);
	KUNIT_EXPECT_EQ(test, t_sends(n, 0, T_ANY), 1);	/* the ACK */
	KUNIT_EXPECT_EQ(test, n->c.ring.q_len, 0);
	KUNIT_EXPECT_TRUE(test, n->c.participant);
	/* news of the run: the round timer starts over */
	KUNIT_EXPECT_EQ(test, n->c.timer_expires[ELEC_RING_TIMER_ROUND],
			n->now + TR_ROUND(5));

	/* a participant by beginning */
	n = trc_node(test, 7, false);
	elec_core_elect(&n->c, n->now);
	tr_ack_head(n);
	trc_rx_election(n, 1, 3, 2);
	KUNIT_EXPECT_EQ(test, t_sends(n, 0, T_ANY), 1);
	KUNIT_EXPECT_EQ(test, n->c.stats.tx[ELEC_MSG_ELECTION], 1);
}

/* Suppress off: a node with a higher id always sends its own. */
static void trc_suppress_off(struct kunit *test)
{
	struct t_node *n = trc_node(test, 7, true);

	trc_rx_election(n, 1, 1, 9);
	trc_expect_election(n, 9, 1);
	tr_ack_head(n);
	/* a participant, yet it sends its own */
	trc_rx_election(n, 1, 2, 4);
	trc_expect_election(n, 7, 1);
	tr_ack_head(n);
	trc_rx_election(n, 1, 3, 2);
	trc_expect_election(n, 7, 1);
	tr_ack_head(n);
	/* and its own id back makes it the coordinator all the same */
	trc_rx_election(n, 1, 4, 7);
	KUNIT_EXPECT_EQ(test, n->c.role, ELEC_ROLE_LEADER);
	KUNIT_EXPECT_EQ(test, tr_val(n, tr_last(n, ELEC_MSG_COORDINATOR)), 7);
	KUNIT_EXPECT_EQ(test, n->c.stats.tx[ELEC_MSG_ELECTION], 3);

	/* from the beginning of a run on */
	n = trc_node(test, 7, true);
	elec_core_elect(&n->c, n->now);
	tr_ack_head(n);
	trc_rx_election(n, 1, 5, 4);
	trc_expect_election(n, 7, 1);
}

/* Its own id back: the greatest; it is the coordinator and says so. */
static void trc_own_id_elected(struct kunit *test)
{
	struct t_node *n = trc_node(test, 7, false);
	const struct elec_action *a;
	u64 run;

	elec_core_elect(&n->c, n->now);
	run = n->c.ring.run;
	tr_ack_head(n);
	trc_rx_election(n, run, 9, 7);
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_ELECTION, T_ANY), 0);
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_COORDINATOR, T_ANY), 1);
	a = tr_last(n, ELEC_MSG_COORDINATOR);
	KUNIT_EXPECT_EQ(test, a->msg.dst, 5);
	KUNIT_EXPECT_EQ(test, a->msg.payload_len, 8);
	KUNIT_EXPECT_EQ(test, tr_val(n, a), 7);
	/* the new leader's term: above every term seen */
	KUNIT_EXPECT_GT(test, a->msg.term, run);
	KUNIT_EXPECT_EQ(test, a->msg.term, n->c.term);
	KUNIT_EXPECT_EQ(test, n->c.max_term, n->c.term);
	KUNIT_EXPECT_EQ(test, n->c.leader, 7);
	KUNIT_EXPECT_EQ(test, n->c.role, ELEC_ROLE_LEADER);
	KUNIT_EXPECT_EQ(test, n->c.phase, ELEC_RING_LEADING);
	KUNIT_EXPECT_FALSE(test, n->c.participant);
	KUNIT_EXPECT_EQ(test, t_events(n, ELEC_EVENT_LEADER_CHANGED, T_ANY),
			1);
	KUNIT_EXPECT_EQ(test, n->c.timer_expires[ELEC_RING_TIMER_ROUND], 0);
	KUNIT_EXPECT_EQ(test, n->c.timer_expires[ELEC_TIMER_DETECT], 0);
	KUNIT_EXPECT_EQ(test, n->c.timer_expires[ELEC_TIMER_HEARTBEAT],
			n->now + T_HB);
	KUNIT_EXPECT_EQ(test, n->c.stats.tx[ELEC_MSG_COORDINATOR], 1);

	/* it comes round: removed at the coordinator */
	tr_ack_head(n);
	t_clear(n);
	tr_rx_cr(n, ELEC_MSG_COORDINATOR, 2, n->c.term, 10, 7);
	KUNIT_EXPECT_EQ(test, t_sends(n, 0, T_ANY), 1);
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_ACK, 2), 1);
	KUNIT_EXPECT_EQ(test, n->c.ring.q_len, 0);
	KUNIT_EXPECT_EQ(test, n->c.role, ELEC_ROLE_LEADER);
	KUNIT_EXPECT_EQ(test, n->c.stats.tx[ELEC_MSG_COORDINATOR], 1);
}

/* The elected message: record the leader, non-participant, pass it on. */
static void trc_elected_forwarded(struct kunit *test)
{
	struct t_node *n = trc_node(test, 7, false);
	const struct elec_action *a;

	trc_rx_election(n, 3, 1, 9);
	tr_ack_head(n);
	KUNIT_ASSERT_TRUE(test, n->c.participant);
	t_clear(n);
	tr_rx_cr(n, ELEC_MSG_COORDINATOR, 2, 4, 2, 9);
	KUNIT_EXPECT_EQ(test, tr_first_send(n)->msg.type, ELEC_MSG_ACK);
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_COORDINATOR, T_ANY), 1);
	a = tr_last(n, ELEC_MSG_COORDINATOR);
	KUNIT_EXPECT_EQ(test, a->msg.dst, 5);
	KUNIT_EXPECT_EQ(test, a->msg.term, 4);
	KUNIT_EXPECT_EQ(test, tr_val(n, a), 9);
	KUNIT_EXPECT_EQ(test, n->c.leader, 9);
	KUNIT_EXPECT_EQ(test, n->c.term, 4);
	KUNIT_EXPECT_FALSE(test, n->c.participant);
	KUNIT_EXPECT_EQ(test, n->c.role, ELEC_ROLE_FOLLOWER);
	KUNIT_EXPECT_EQ(test, n->c.phase, ELEC_RING_FOLLOWING);
	KUNIT_EXPECT_EQ(test, n->c.timer_expires[ELEC_RING_TIMER_ROUND], 0);
	KUNIT_EXPECT_GE(test, n->c.timer_expires[ELEC_TIMER_DETECT],
			n->now + T_DETECT);
	KUNIT_EXPECT_EQ(test, t_events(n, ELEC_EVENT_LEADER_CHANGED, T_ANY),
			1);
	KUNIT_EXPECT_EQ(test, n->c.stats.rx[ELEC_MSG_COORDINATOR], 1);
	KUNIT_EXPECT_EQ(test, n->c.stats.elections, 0);

	/* a non-participant too (it missed the ELECTION) */
	n = trc_node(test, 2, false);
	tr_rx_cr(n, ELEC_MSG_COORDINATOR, 9, 4, 2, 9);
	KUNIT_EXPECT_EQ(test, tr_last(n, ELEC_MSG_COORDINATOR)->msg.dst, 7);
	KUNIT_EXPECT_EQ(test, n->c.leader, 9);

	/* the elected message of a lower id: recorded, passed, then outbid */
	n = trc_node(test, 7, false);
	tr_rx_cr(n, ELEC_MSG_COORDINATOR, 2, 4, 2, 4);
	KUNIT_EXPECT_EQ(test, n->c.leader, 4);
	a = tr_last(n, ELEC_MSG_COORDINATOR);
	KUNIT_EXPECT_EQ(test, tr_val(n, a), 4);
	KUNIT_EXPECT_EQ(test, n->c.stats.elections, 1);
	t_clear(n);
	tr_ack_head(n);
	trc_expect_election(n, 7, 5);
}

/* An elected message older than the leader known is not passed on. */
static void trc_stale_elected(struct kunit *test)
{
	struct t_node *n = trc_node(test, 7, false);

	tr_rx_cr(n, ELEC_MSG_COORDINATOR, 2, 4, 1, 9);
	tr_ack_head(n);
	t_clear(n);
	/* older term */
	tr_rx_cr(n, ELEC_MSG_COORDINATOR, 2, 3, 2, 9);
	/* same term, lower id */
	tr_rx_cr(n, ELEC_MSG_COORDINATOR, 2, 4, 3, 5);
	KUNIT_EXPECT_EQ(test, n->c.stats.drops[ELEC_DROP_STALE_TERM], 2);
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_COORDINATOR, T_ANY), 0);
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_ACK, 2), 2);
	KUNIT_EXPECT_EQ(test, n->c.leader, 9);
	KUNIT_EXPECT_EQ(test, n->c.term, 4);
	KUNIT_EXPECT_EQ(test, n->c.ring.q_len, 0);
	/* the same one again is not stale: passed on */
	tr_rx_cr(n, ELEC_MSG_COORDINATOR, 2, 4, 4, 9);
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_COORDINATOR, 5), 1);
}

/* Each ELECTION received is acknowledged once, forwarded or not. */
static void trc_acks(struct kunit *test)
{
	static const u32 ids[] = { 9, 4, 2, 7, 5 };
	struct t_node *n = trc_node(test, 7, false);
	u32 i;

	elec_core_elect(&n->c, n->now);
	for (i = 0; i < ARRAY_SIZE(ids); i++) {
		trc_rx_election(n, 1, 100 + i, ids[i]);
		KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_ACK, T_ANY), 1);
	}
	/* and the greeting at start: one broadcast */
	KUNIT_EXPECT_EQ(test, n->c.stats.tx[ELEC_MSG_ACK], ARRAY_SIZE(ids) + 1);
	KUNIT_EXPECT_EQ(test, n->c.stats.rx[ELEC_MSG_ELECTION],
			ARRAY_SIZE(ids));
}

/*
 * In standby the node never sends its own id: a smaller id is passed on
 * unchanged (a participant does not swallow it either), its own id
 * coming round (sent before standby) elects nobody, and an elect command
 * begins no run.
 */
static void trc_standby(struct kunit *test)
{
	struct t_node *n = trc_node(test, 7, false);

	trc_rx_election(n, 1, 1, 4);
	trc_expect_election(n, 7, 1);
	tr_ack_head(n);
	tr_standby(n, true);
	KUNIT_EXPECT_FALSE(test, n->c.participant);
	KUNIT_EXPECT_EQ(test, n->c.role, ELEC_ROLE_FOLLOWER);
	trc_rx_election(n, 1, 2, 5);
	trc_expect_election(n, 5, 1);
	KUNIT_EXPECT_EQ(test, n->c.role, ELEC_ROLE_FOLLOWER);
	tr_ack_head(n);
	trc_rx_election(n, 1, 3, 4);
	trc_expect_election(n, 4, 1);
	tr_ack_head(n);
	trc_rx_election(n, 1, 4, 7);
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_ELECTION, T_ANY), 0);
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_COORDINATOR, T_ANY), 0);
	KUNIT_EXPECT_EQ(test, n->c.leader, 0);
	KUNIT_EXPECT_EQ(test, n->c.role, ELEC_ROLE_FOLLOWER);
	KUNIT_EXPECT_FALSE(test, n->c.participant);
	t_clear(n);
	elec_core_elect(&n->c, n->now);
	KUNIT_EXPECT_EQ(test, t_sends(n, 0, T_ANY), 0);
	KUNIT_EXPECT_EQ(test, n->c.stats.elections, 0);
	/* out of standby: an elect command begins a run with its id */
	tr_standby(n, false);
	elec_core_elect(&n->c, n->now);
	trc_expect_election(n, 7, 2);
}

static struct kunit_case elec_ring_cr_cases[] = {
	KUNIT_CASE(trc_begin),
	KUNIT_CASE(trc_forward_greater),
	KUNIT_CASE(trc_substitute),
	KUNIT_CASE(trc_suppress),
	KUNIT_CASE(trc_suppress_off),
	KUNIT_CASE(trc_own_id_elected),
	KUNIT_CASE(trc_elected_forwarded),
	KUNIT_CASE(trc_stale_elected),
	KUNIT_CASE(trc_acks),
	KUNIT_CASE(trc_standby),
	{}
};

static struct kunit_suite elec_ring_cr_suite = {
	.name = "elec_ring_cr",
	.test_cases = elec_ring_cr_cases,
};

kunit_test_suites(&elec_ring_cr_suite);
