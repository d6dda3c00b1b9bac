// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the ring election that accumulates a list of live ids
 * (module/core/ring_list.c, algorithm "ring-list"), one instance driven
 * input by input through a recording sink.
 *
 * Suite elec_ring_list: the initiator's ELECTION holding [its id]; each
 * process adds its id and passes the list on, skipping failed nodes; the
 * list back at its initiator (its id first) makes it circulate
 * COORDINATOR with the list, whose highest id every process takes as the
 * coordinator; the COORDINATOR is removed back at the initiator; a list
 * that already holds the receiver is not passed on again; concurrent
 * initiators all choose the same coordinator.
 *
 * Hops, retries, runs and heartbeats are elec_ring's (elec_ring_kunit.c).
 * The file also compiles in userspace against the KUnit shim in
 * tests/core/shim, so `make -C tests/core check` runs the same cases.
 */
#include "elec_kunit_ring.h"

/* ring order 4 9 2 7 5: node 7's predecessor is 2, its successor 5 */
static const u32 trl_ring[] = { 4, 9, 2, 7, 5 };

static struct t_node *trl_node(struct kunit *test, u32 self)
{
	struct t_node *n = tr_node_new(test, ELEC_ALGO_RING_LIST, self,
				       trl_ring, ARRAY_SIZE(trl_ring));

	tr_started(n);
	return n;
}

/* a list arrives at node 7 from 2; the ACK is the first frame */
static void trl_rx(struct t_node *n, u8 type, u64 term, u32 hop,
		   const u32 *ids, u32 count)
{
	const struct elec_action *a;

	t_clear(n);
	tr_rx_list(n, type, 2, term, hop, ids, count);
	a = tr_first_send(n);
	KUNIT_EXPECT_EQ(n->test, a->msg.type, ELEC_MSG_ACK);
	KUNIT_EXPECT_EQ(n->test, a->msg.dst, 2);
	KUNIT_EXPECT_EQ(n->test, tr_hop(n, a), hop);
}

/* the only ring frame sent is a @type to 5 holding @ids, in @term */
static void trl_expect(struct t_node *n, u8 type, u64 term, const u32 *ids,
		       u32 count)
{
	struct kunit *test = n->test;
	const struct elec_action *a;

	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_ELECTION, T_ANY) +
			t_sends(n, ELEC_MSG_COORDINATOR, T_ANY), 1);
	a = tr_last(n, type);
	KUNIT_EXPECT_EQ(test, a->msg.dst, 5);
	KUNIT_EXPECT_EQ(test, a->msg.term, term);
	tr_expect_list(n, a, ids, count);
}

static void trl_ack(struct t_node *n)
{
	tr_ack_head(n);
	KUNIT_EXPECT_EQ(n->test, n->c.ring.q_len, 0);
}

static void trl_begin(struct kunit *test)
{
	static const u32 l[] = { 7 };
	struct t_node *n = trl_node(test, 7);

	elec_core_elect(&n->c, n->now);
	trl_expect(n, ELEC_MSG_ELECTION, 1, l, 1);
	KUNIT_EXPECT_EQ(test, tr_last(n, ELEC_MSG_ELECTION)->msg.payload_len,
			12);
	KUNIT_EXPECT_TRUE(test, n->c.participant);
	KUNIT_EXPECT_EQ(test, n->c.role, ELEC_ROLE_CANDIDATE);
	KUNIT_EXPECT_EQ(test, n->c.stats.elections, 1);
	KUNIT_EXPECT_EQ(test, t_events(n, ELEC_EVENT_ELECTION_STARTED, T_ANY),
			1);
}

/* Each process adds its id to the list and passes it on. */
static void trl_append(struct kunit *test)
{
	static const u32 in[] = { 4, 9, 2 }, out[] = { 4, 9, 2, 7 };
	static const u32 in1[] = { 2 }, out1[] = { 2, 7 };
	struct t_node *n = trl_node(test, 7);

	trl_rx(n, ELEC_MSG_ELECTION, 3, 1, in, 3);
	trl_expect(n, ELEC_MSG_ELECTION, 3, out, 4);
	KUNIT_EXPECT_TRUE(test, n->c.participant);
	KUNIT_EXPECT_EQ(test, n->c.timer_expires[ELEC_RING_TIMER_ROUND],
			n->now + TR_ROUND(5));
	KUNIT_EXPECT_EQ(test, n->c.stats.elections, 0);
	KUNIT_EXPECT_EQ(test, n->c.leader, 0);
	trl_ack(n);
	/* another initiator's list of the same run */
	trl_rx(n, ELEC_MSG_ELECTION, 3, 2, in1, 1);
	trl_expect(n, ELEC_MSG_ELECTION, 3, out1, 2);
}

/* Failed nodes are skipped: the list goes to the next live position. */
static void trl_skips_failed(struct kunit *test)
{
	static const u32 in[] = { 9, 2 }, out[] = { 9, 2, 7 };
	struct t_node *n = trl_node(test, 7);
	const struct elec_action *a;

	elec_core_peer_set_alive(&n->c, elec_core_peer_find(&n->c, 5), false,
				 n->now);
	trl_rx(n, ELEC_MSG_ELECTION, 1, 1, in, 2);
	a = tr_last(n, ELEC_MSG_ELECTION);
	KUNIT_EXPECT_EQ(test, a->msg.dst, 4);
	tr_expect_list(n, a, out, 3);
	/* and when the next one does not answer, the one after it */
	t_clear(n);
	t_fire(n, ELEC_RING_TIMER_ACK);
	a = tr_last(n, ELEC_MSG_ELECTION);
	KUNIT_EXPECT_EQ(test, a->msg.dst, 9);
	tr_expect_list(n, a, out, 3);
	KUNIT_EXPECT_EQ(test, n->c.stats.tx[ELEC_MSG_RETRY], 1);
}

/*
 * The list back at its initiator: the highest id listed is the
 * coordinator; COORDINATOR carries the list round the ring.
 */
static void trl_own_list_back(struct kunit *test)
{
	static const u32 back[] = { 7, 5, 4, 9, 2 };
	static const u32 back_low[] = { 7, 5, 4, 2 };
	struct t_node *n = trl_node(test, 7);
	const struct elec_action *a;
	u64 run;

	elec_core_elect(&n->c, n->now);
	run = n->c.ring.run;
	trl_ack(n);
	trl_rx(n, ELEC_MSG_ELECTION, run, 1, back, 5);
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_ELECTION, T_ANY), 0);
	a = tr_last(n, ELEC_MSG_COORDINATOR);
	KUNIT_EXPECT_GT(test, a->msg.term, run);
	trl_expect(n, ELEC_MSG_COORDINATOR, a->msg.term, back, 5);
	KUNIT_EXPECT_EQ(test, n->c.leader, 9);
	KUNIT_EXPECT_EQ(test, n->c.term, a->msg.term);
	KUNIT_EXPECT_EQ(test, n->c.role, ELEC_ROLE_FOLLOWER);
	KUNIT_EXPECT_FALSE(test, n->c.participant);
	KUNIT_EXPECT_EQ(test, n->c.timer_expires[ELEC_RING_TIMER_ROUND], 0);
	KUNIT_EXPECT_EQ(test, n->c.stats.elections, 1);

	/* back at the initiator: removed */
	trl_ack(n);
	trl_rx(n, ELEC_MSG_COORDINATOR, n->c.term, 2, back, 5);
	KUNIT_EXPECT_EQ(test, t_sends(n, 0, T_ANY), 1);
	KUNIT_EXPECT_EQ(test, n->c.ring.q_len, 0);
	KUNIT_EXPECT_EQ(test, n->c.leader, 9);

	/* the initiator holds the highest id listed: it leads */
	n = trl_node(test, 7);
	elec_core_elect(&n->c, n->now);
	trl_ack(n);
	trl_rx(n, ELEC_MSG_ELECTION, n->c.ring.run, 1, back_low, 4);
	a = tr_last(n, ELEC_MSG_COORDINATOR);
	tr_expect_list(n, a, back_low, 4);
	KUNIT_EXPECT_EQ(test, n->c.leader, 7);
	KUNIT_EXPECT_EQ(test, n->c.role, ELEC_ROLE_LEADER);
	KUNIT_EXPECT_EQ(test, n->c.phase, ELEC_RING_LEADING);
}

/* COORDINATOR: the highest id of its list is the leader; passed on. */
static void trl_coordinator(struct kunit *test)
{
	static const u32 l[] = { 4, 9, 2 }, l7[] = { 5, 4, 9, 2, 7 };
	static const u32 low[] = { 5, 4, 2 };
	struct t_node *n = trl_node(test, 7);

	trl_rx(n, ELEC_MSG_ELECTION, 3, 1, l, 3);
	trl_ack(n);
	trl_rx(n, ELEC_MSG_COORDINATOR, 4, 2, l7, 5);
	trl_expect(n, ELEC_MSG_COORDINATOR, 4, l7, 5);
	KUNIT_EXPECT_EQ(test, n->c.leader, 9);
	KUNIT_EXPECT_EQ(test, n->c.term, 4);
	KUNIT_EXPECT_FALSE(test, n->c.participant);
	KUNIT_EXPECT_EQ(test, n->c.role, ELEC_ROLE_FOLLOWER);
	KUNIT_EXPECT_EQ(test, t_events(n, ELEC_EVENT_LEADER_CHANGED, T_ANY),
			1);
	trl_ack(n);

	/* stale: not passed on */
	trl_rx(n, ELEC_MSG_COORDINATOR, 3, 3, l7, 5);
	KUNIT_EXPECT_EQ(test, t_sends(n, 0, T_ANY), 1);
	KUNIT_EXPECT_EQ(test, n->c.stats.drops[ELEC_DROP_STALE_TERM], 1);

	/* a list whose highest id is below ours: passed on, then outbid */
	n = trl_node(test, 7);
	trl_rx(n, ELEC_MSG_COORDINATOR, 4, 1, low, 3);
	trl_expect(n, ELEC_MSG_COORDINATOR, 4, low, 3);
	KUNIT_EXPECT_EQ(test, n->c.leader, 5);
	KUNIT_EXPECT_EQ(test, n->c.stats.elections, 1);
}

/* A list that holds the receiver already is not passed on again. */
static void trl_already_listed(struct kunit *test)
{
	static const u32 l[] = { 4, 7, 9 };
	struct t_node *n = trl_node(test, 7);

	trl_rx(n, ELEC_MSG_ELECTION, 1, 1, l, 3);
	KUNIT_EXPECT_EQ(test, t_sends(n, 0, T_ANY), 1);
	KUNIT_EXPECT_EQ(test, n->c.ring.q_len, 0);
	KUNIT_EXPECT_EQ(test, n->c.leader, 0);
	KUNIT_EXPECT_EQ(test, n->c.stats.tx[ELEC_MSG_COORDINATOR], 0);
}

/*
 * Two initiators in one run: 7's list and 4's list both go round; each
 * initiator picks the highest id of its own list, and both lists hold
 * every live id, so both name the same coordinator.
 */
static void trl_concurrent(struct kunit *test)
{
	static const u32 own[] = { 7 }, l4[] = { 4, 9, 2 };
	static const u32 l4out[] = { 4, 9, 2, 7 };
	static const u32 back[] = { 7, 5, 4, 9, 2 };
	static const u32 c4[] = { 4, 9, 2, 7, 5 };
	struct t_node *n = trl_node(test, 7);
	const struct elec_action *a;
	u64 run, term;

	elec_core_elect(&n->c, n->now);
	run = n->c.ring.run;
	trl_expect(n, ELEC_MSG_ELECTION, run, own, 1);
	/* 4's list arrives while 7's own is in flight: queued behind */
	trl_rx(n, ELEC_MSG_ELECTION, run, 1, l4, 3);
	KUNIT_EXPECT_EQ(test, t_sends(n, 0, T_ANY), 1);
	t_clear(n);
	tr_ack_head(n);
	trl_expect(n, ELEC_MSG_ELECTION, run, l4out, 4);
	trl_ack(n);
	/* 7's list back: COORDINATOR for 9 */
	trl_rx(n, ELEC_MSG_ELECTION, run, 2, back, 5);
	a = tr_last(n, ELEC_MSG_COORDINATOR);
	term = a->msg.term;
	KUNIT_EXPECT_EQ(test, n->c.leader, 9);
	trl_ack(n);
	/* 4's COORDINATOR, announced by 4 in the same or a later term */
	trl_rx(n, ELEC_MSG_COORDINATOR, term, 3, c4, 5);
	trl_expect(n, ELEC_MSG_COORDINATOR, term, c4, 5);
	KUNIT_EXPECT_EQ(test, n->c.leader, 9);
	KUNIT_EXPECT_EQ(test, n->c.stats.leader_changes, 1);
	KUNIT_EXPECT_EQ(test, n->c.stats.elections, 1);
}

/*
 * In standby the node passes a list on without adding its id and begins
 * no run. Its own list back (begun before standby) elects the highest id
 * listed as usual, or nobody when that is its own (the list names it
 * first: every receiver would take it); a COORDINATOR naming it ends at
 * it.
 */
static void trl_standby(struct kunit *test)
{
	static const u32 in[] = { 4, 2 }, named[] = { 4, 7, 2 };
	static const u32 back[] = { 7, 5, 9, 2 }, mine[] = { 7, 5, 2 };
	struct t_node *n = trl_node(test, 7);
	const struct elec_action *a;

	tr_standby(n, true);
	trl_rx(n, ELEC_MSG_ELECTION, 1, 1, in, 2);
	trl_expect(n, ELEC_MSG_ELECTION, 1, in, 2);
	KUNIT_EXPECT_FALSE(test, n->c.participant);
	trl_ack(n);
	t_clear(n);
	elec_core_elect(&n->c, n->now);
	KUNIT_EXPECT_EQ(test, t_sends(n, 0, T_ANY), 0);
	KUNIT_EXPECT_EQ(test, n->c.stats.elections, 0);
	t_clear(n);
	tr_rx_list(n, ELEC_MSG_COORDINATOR, 2, 2, 2, named, 3);
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_COORDINATOR, T_ANY), 0);
	KUNIT_EXPECT_EQ(test, n->c.leader, 0);

	n = trl_node(test, 7);
	elec_core_elect(&n->c, n->now);
	trl_ack(n);
	tr_standby(n, true);
	trl_rx(n, ELEC_MSG_ELECTION, n->c.ring.run, 1, back, 4);
	a = tr_last(n, ELEC_MSG_COORDINATOR);
	tr_expect_list(n, a, back, 4);
	KUNIT_EXPECT_EQ(test, n->c.leader, 9);
	KUNIT_EXPECT_EQ(test, n->c.role, ELEC_ROLE_FOLLOWER);

	n = trl_node(test, 7);
	elec_core_elect(&n->c, n->now);
	trl_ack(n);
	tr_standby(n, true);
	trl_rx(n, ELEC_MSG_ELECTION, n->c.ring.run, 1, mine, 3);
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_COORDINATOR, T_ANY), 0);
	KUNIT_EXPECT_EQ(test, n->c.leader, 0);
	KUNIT_EXPECT_FALSE(test, n->c.participant);
}

static struct kunit_case elec_ring_list_cases[] = {
	KUNIT_CASE(trl_begin),
	KUNIT_CASE(trl_append),
	KUNIT_CASE(trl_skips_failed),
	KUNIT_CASE(trl_own_list_back),
	KUNIT_CASE(trl_coordinator),
	KUNIT_CASE(trl_already_listed),
	KUNIT_CASE(trl_concurrent),
	KUNIT_CASE(trl_standby),
	{}
};

static struct kunit_suite elec_ring_list_suite = {
	.name = "elec_ring_list",
	.test_cases = elec_ring_list_cases,
};

kunit_test_suites(&elec_ring_list_suite);
