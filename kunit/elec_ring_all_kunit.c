// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the ring election that collects every id (module/core/
 * ring_all.c, algorithm "ring-all"), one instance driven input by input
 * through a recording sink.
 *
 * Suite elec_ring_all: the initiator's ("elect me", Pi); a process
 * receiving ("elect me", Pi) sends its own ("elect me", Pj) once per run
 * and passes Pi's on right after it; its own message back at an initiator
 * ends the collection: it announces the highest id seen in a ("new
 * coordinator", Phigh) message; back at a process that did not initiate,
 * its own message is removed; the announcement is passed on and recorded
 * by the others and removed at its origin.
 *
 * Hops, retries, runs and heartbeats are elec_ring's (elec_ring_kunit.c).
 * The file also compiles in userspace against the KUnit shim in
 * tests/core/shim, so `make -C tests/core check` runs the same cases.
 */
#include "elec_kunit_ring.h"

/* ring order 4 9 2 7 5: node 7's predecessor is 2, its successor 5 */
static const u32 tra_ring[] = { 4, 9, 2, 7, 5 };

static struct t_node *tra_node(struct kunit *test, u32 self)
{
	struct t_node *n = tr_node_new(test, ELEC_ALGO_RING_ALL, self,
				       tra_ring, ARRAY_SIZE(tra_ring));

	tr_started(n);
	return n;
}

/* ("elect me", @origin) arrives at node 7 from 2 */
static void tra_rx(struct t_node *n, u64 term, u32 hop, u32 origin)
{
	const struct elec_action *a;

	t_clear(n);
	tr_rx_all_e(n, 2, term, hop, origin);
	a = tr_first_send(n);
	KUNIT_EXPECT_EQ(n->test, a->msg.type, ELEC_MSG_ACK);
	KUNIT_EXPECT_EQ(n->test, tr_hop(n, a), hop);
}

/* the ELECTION frames in the recording carry these origins, to 5 */
static void tra_expect_sent(struct t_node *n, const u32 *origins, u32 nr,
			    u64 term)
{
	struct kunit *test = n->test;
	u32 i, k = 0;

	for (i = 0; i < n->n_acts; i++) {
		const struct elec_action *a = &n->acts[i];

		if (a->kind != ELEC_ACT_SEND || a->msg.type != ELEC_MSG_ELECTION)
			continue;
		KUNIT_ASSERT_LT(test, k, nr);
		KUNIT_EXPECT_EQ(test, a->msg.dst, 5);
		KUNIT_EXPECT_EQ(test, a->msg.term, term);
		KUNIT_EXPECT_EQ(test, a->msg.payload_len, 8);
		KUNIT_EXPECT_EQ_MSG(test, tr_val(n, a), origins[k],
				    "ELECTION %u", k);
		k++;
	}
	KUNIT_EXPECT_EQ(test, k, nr);
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_COORDINATOR, T_ANY), 0);
}

/* acknowledge every queued message in turn, recording what is sent */
static void tra_ack_all(struct t_node *n)
{
	t_clear(n);
	while (n->c.ring.dst)
		tr_ack_head(n);
}

static void tra_begin(struct kunit *test)
{
	static const u32 own[] = { 7 };
	struct t_node *n = tra_node(test, 7);

	elec_core_elect(&n->c, n->now);
	tra_expect_sent(n, own, 1, 1);
	KUNIT_EXPECT_TRUE(test, n->c.ring.initiator);
	KUNIT_EXPECT_TRUE(test, n->c.participant);
	KUNIT_EXPECT_EQ(test, n->c.role, ELEC_ROLE_CANDIDATE);
	KUNIT_EXPECT_EQ(test, n->c.stats.elections, 1);
	KUNIT_EXPECT_EQ(test, t_events(n, ELEC_EVENT_ELECTION_STARTED, T_ANY),
			1);
}

/* Its own "elect me" first, the received one right after; once a run. */
static void tra_own_then_forward(struct kunit *test)
{
	static const u32 own[] = { 7 }, four[] = { 4 }, nine[] = { 9 };
	struct t_node *n = tra_node(test, 7);

	tra_rx(n, 1, 1, 4);
	/* stop and wait: its own is in flight, 4's queued behind */
	tra_expect_sent(n, own, 1, 1);
	KUNIT_EXPECT_TRUE(test, n->c.participant);
	KUNIT_EXPECT_FALSE(test, n->c.ring.initiator);
	KUNIT_EXPECT_EQ(test, n->c.timer_expires[ELEC_RING_TIMER_ROUND],
			n->now + TR_ROUND(5));
	tra_ack_all(n);
	tra_expect_sent(n, four, 1, 1);

	/* another one of the same run: passed on alone */
	tra_rx(n, 1, 2, 9);
	tra_expect_sent(n, nine, 1, 1);
	tra_ack_all(n);
	KUNIT_EXPECT_EQ(test, t_sends(n, 0, T_ANY), 0);
	KUNIT_EXPECT_EQ(test, n->c.stats.tx[ELEC_MSG_ELECTION], 3);

	/* a newer run: its own once more, first */
	tra_rx(n, 2, 3, 4);
	tra_expect_sent(n, own, 1, 2);
	tra_ack_all(n);
	tra_expect_sent(n, four, 1, 2);
	tra_rx(n, 2, 4, 9);
	tra_expect_sent(n, nine, 1, 2);
	tra_ack_all(n);
	KUNIT_EXPECT_EQ(test, n->c.stats.tx[ELEC_MSG_ELECTION], 6);
}

/*
 * Node 7 begins; the others' messages pass it; its own comes last: it
 * announces the highest id it saw, and follows it.
 */
static void tra_initiator_elects(struct kunit *test)
{
	static const u32 others[] = { 5, 9, 2, 4 };
	struct t_node *n = tra_node(test, 7);
	const struct elec_action *a;
	u64 run;
	u32 i;

	elec_core_elect(&n->c, n->now);
	run = n->c.ring.run;
	tra_ack_all(n);
	for (i = 0; i < ARRAY_SIZE(others); i++) {
		tra_rx(n, run, 10 + i, others[i]);
		tra_expect_sent(n, &others[i], 1, run);
		tra_ack_all(n);
	}
	KUNIT_EXPECT_EQ(test, n->c.stats.tx[ELEC_MSG_ELECTION], 5);
	tra_rx(n, run, 20, 7);
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_ELECTION, T_ANY), 0);
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_COORDINATOR, T_ANY), 1);
	a = tr_last(n, ELEC_MSG_COORDINATOR);
	KUNIT_EXPECT_EQ(test, a->msg.dst, 5);
	KUNIT_EXPECT_EQ(test, a->msg.payload_len, 12);
	KUNIT_EXPECT_EQ(test, tr_val(n, a), 9);		/* Phigh */
	KUNIT_EXPECT_EQ(test, tr_val2(n, a), 7);	/* origin */
	KUNIT_EXPECT_GT(test, a->msg.term, run);
	KUNIT_EXPECT_EQ(test, n->c.leader, 9);
	KUNIT_EXPECT_EQ(test, n->c.term, a->msg.term);
	KUNIT_EXPECT_EQ(test, n->c.role, ELEC_ROLE_FOLLOWER);
	KUNIT_EXPECT_FALSE(test, n->c.participant);
	KUNIT_EXPECT_FALSE(test, n->c.ring.initiator);
	/* 9 outranks 7: no further election */
	KUNIT_EXPECT_EQ(test, n->c.stats.elections, 1);

	/* its announcement back at its origin: removed */
	tra_ack_all(n);
	t_clear(n);
	tr_rx_all_c(n, 2, n->c.term, 21, 9, 7);
	KUNIT_EXPECT_EQ(test, t_sends(n, 0, T_ANY), 1);
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_ACK, 2), 1);
	KUNIT_EXPECT_EQ(test, n->c.ring.q_len, 0);
	KUNIT_EXPECT_EQ(test, n->c.leader, 9);
}

/* An initiator that saw no higher id announces itself. */
static void tra_initiator_highest(struct kunit *test)
{
	static const u32 others[] = { 5, 2, 4 };
	struct t_node *n = tra_node(test, 7);
	const struct elec_action *a;
	u64 run;
	u32 i;

	/* 9 is down: the ring skips it and its id never comes */
	elec_core_peer_set_alive(&n->c, elec_core_peer_find(&n->c, 9), false,
				 n->now);
	elec_core_elect(&n->c, n->now);
	run = n->c.ring.run;
	tra_ack_all(n);
	for (i = 0; i < ARRAY_SIZE(others); i++) {
		tra_rx(n, run, 10 + i, others[i]);
		tra_ack_all(n);
	}
	tra_rx(n, run, 20, 7);
	a = tr_last(n, ELEC_MSG_COORDINATOR);
	KUNIT_EXPECT_EQ(test, tr_val(n, a), 7);
	KUNIT_EXPECT_EQ(test, tr_val2(n, a), 7);
	KUNIT_EXPECT_EQ(test, n->c.leader, 7);
	KUNIT_EXPECT_EQ(test, n->c.role, ELEC_ROLE_LEADER);
	KUNIT_EXPECT_EQ(test, n->c.phase, ELEC_RING_LEADING);
	KUNIT_EXPECT_EQ(test, n->c.timer_expires[ELEC_TIMER_HEARTBEAT],
			n->now + T_HB);
}

/* Its own message back at a process that did not initiate: removed. */
static void tra_non_initiator_absorbs(struct kunit *test)
{
	struct t_node *n = tra_node(test, 7);

	tra_rx(n, 1, 1, 4);
	tra_ack_all(n);
	tra_rx(n, 1, 2, 9);
	tra_ack_all(n);
	tra_rx(n, 1, 3, 7);
	KUNIT_EXPECT_EQ(test, t_sends(n, 0, T_ANY), 1);	/* the ACK */
	KUNIT_EXPECT_EQ(test, n->c.ring.q_len, 0);
	KUNIT_EXPECT_EQ(test, n->c.stats.tx[ELEC_MSG_COORDINATOR], 0);
	KUNIT_EXPECT_EQ(test, n->c.leader, 0);
	/* it waits for the announcement */
	KUNIT_EXPECT_TRUE(test, n->c.participant);
	KUNIT_EXPECT_NE(test, n->c.timer_expires[ELEC_RING_TIMER_ROUND], 0);
}

/* ("new coordinator", Phigh): recorded and passed on, origin kept. */
static void tra_coordinator_forwarded(struct kunit *test)
{
	struct t_node *n = tra_node(test, 7);
	const struct elec_action *a;

	tra_rx(n, 3, 1, 4);
	tra_ack_all(n);
	t_clear(n);
	tr_rx_all_c(n, 2, 4, 2, 9, 4);
	KUNIT_EXPECT_EQ(test, tr_first_send(n)->msg.type, ELEC_MSG_ACK);
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_COORDINATOR, T_ANY), 1);
	a = tr_last(n, ELEC_MSG_COORDINATOR);
	KUNIT_EXPECT_EQ(test, a->msg.dst, 5);
	KUNIT_EXPECT_EQ(test, a->msg.term, 4);
	KUNIT_EXPECT_EQ(test, tr_val(n, a), 9);
	KUNIT_EXPECT_EQ(test, tr_val2(n, a), 4);
	KUNIT_EXPECT_EQ(test, n->c.leader, 9);
	KUNIT_EXPECT_EQ(test, n->c.term, 4);
	KUNIT_EXPECT_FALSE(test, n->c.participant);
	KUNIT_EXPECT_EQ(test, n->c.role, ELEC_ROLE_FOLLOWER);
	KUNIT_EXPECT_EQ(test, n->c.timer_expires[ELEC_RING_TIMER_ROUND], 0);

	/* the leader itself passes it on too, and leads */
	n = tra_node(test, 9);
	tr_rx_all_c(n, 4, 4, 2, 9, 5);
	a = tr_last(n, ELEC_MSG_COORDINATOR);
	KUNIT_EXPECT_EQ(test, a->msg.dst, 2);
	KUNIT_EXPECT_EQ(test, tr_val2(n, a), 5);
	KUNIT_EXPECT_EQ(test, n->c.role, ELEC_ROLE_LEADER);

	/* a stale one is not */
	n = tra_node(test, 7);
	tr_rx_all_c(n, 2, 4, 1, 9, 4);
	tra_ack_all(n);
	tr_rx_all_c(n, 2, 3, 2, 9, 5);
	tr_rx_all_c(n, 2, 4, 3, 5, 4);
	KUNIT_EXPECT_EQ(test, n->c.stats.drops[ELEC_DROP_STALE_TERM], 2);
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_COORDINATOR, T_ANY), 0);
	KUNIT_EXPECT_EQ(test, n->c.leader, 9);
}

/* Two initiators in one run: each passes the other's on, both agree. */
static void tra_two_initiators(struct kunit *test)
{
	static const u32 others[] = { 9, 2 }, four[] = { 4 };
	struct t_node *n = tra_node(test, 7);
	const struct elec_action *a;
	u64 run;
	u32 i;

	elec_core_elect(&n->c, n->now);
	run = n->c.ring.run;
	tra_ack_all(n);
	/* 4 began too: its message arrives; 7 has sent its own already */
	tra_rx(n, run, 1, 4);
	tra_expect_sent(n, four, 1, run);
	tra_ack_all(n);
	KUNIT_EXPECT_TRUE(test, n->c.ring.initiator);
	for (i = 0; i < ARRAY_SIZE(others); i++) {
		tra_rx(n, run, 2 + i, others[i]);
		tra_ack_all(n);
	}
	tra_rx(n, run, 5, 5);
	tra_ack_all(n);
	tra_rx(n, run, 6, 7);
	a = tr_last(n, ELEC_MSG_COORDINATOR);
	KUNIT_EXPECT_EQ(test, tr_val(n, a), 9);
	KUNIT_EXPECT_EQ(test, tr_val2(n, a), 7);
	tra_ack_all(n);
	/* 4's announcement names the same leader, later: passed on */
	t_clear(n);
	tr_rx_all_c(n, 2, n->c.term + 1, 7, 9, 4);
	a = tr_last(n, ELEC_MSG_COORDINATOR);
	KUNIT_EXPECT_EQ(test, tr_val2(n, a), 4);
	KUNIT_EXPECT_EQ(test, n->c.leader, 9);
	KUNIT_EXPECT_EQ(test, t_events(n, ELEC_EVENT_LEADER_CHANGED, T_ANY),
			0);
}

/*
 * In standby the node passes the others' "elect me" on but sends none
 * of its own, and begins no run; an announcement naming it (its "elect
 * me" went out before) ends at it.
 */
static void tra_standby(struct kunit *test)
{
	static const u32 four[] = { 4 };
	struct t_node *n = tra_node(test, 7);

	tr_standby(n, true);
	tra_rx(n, 1, 1, 4);
	tra_expect_sent(n, four, 1, 1);
	KUNIT_EXPECT_FALSE(test, n->c.ring.sent_own);
	KUNIT_EXPECT_EQ(test, n->c.role, ELEC_ROLE_FOLLOWER);
	tra_ack_all(n);
	t_clear(n);
	elec_core_elect(&n->c, n->now);
	KUNIT_EXPECT_EQ(test, t_sends(n, 0, T_ANY), 0);
	KUNIT_EXPECT_EQ(test, n->c.stats.elections, 0);
	t_clear(n);
	tr_rx_all_c(n, 2, 2, 2, 7, 4);
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_COORDINATOR, T_ANY), 0);
	KUNIT_EXPECT_EQ(test, n->c.leader, 0);
	KUNIT_EXPECT_EQ(test, n->c.role, ELEC_ROLE_FOLLOWER);
}

/*
 * An initiator that enters standby during its run elects the highest of
 * the other ids it saw when its own message is back, not itself.
 */
static void tra_standby_initiator(struct kunit *test)
{
	static const u32 five[] = { 5 };
	struct t_node *n = tra_node(test, 7);
	const struct elec_action *a;

	elec_core_elect(&n->c, n->now);
	tra_ack_all(n);
	tra_rx(n, 1, 1, 5);
	tra_expect_sent(n, five, 1, 1);
	tra_ack_all(n);
	tra_rx(n, 1, 2, 4);
	tra_ack_all(n);
	tr_standby(n, true);
	tra_rx(n, 1, 3, 7);
	a = tr_last(n, ELEC_MSG_COORDINATOR);
	KUNIT_EXPECT_EQ(test, tr_val(n, a), 5);
	KUNIT_EXPECT_EQ(test, tr_val2(n, a), 7);
	KUNIT_EXPECT_EQ(test, n->c.leader, 5);
	KUNIT_EXPECT_EQ(test, n->c.role, ELEC_ROLE_FOLLOWER);

	/* no other id came: nobody to elect, the run ends */
	n = tra_node(test, 7);
	elec_core_elect(&n->c, n->now);
	tra_ack_all(n);
	tr_standby(n, true);
	tra_rx(n, 1, 2, 7);
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_COORDINATOR, T_ANY), 0);
	KUNIT_EXPECT_EQ(test, n->c.leader, 0);
	KUNIT_EXPECT_FALSE(test, n->c.participant);
}

static struct kunit_case elec_ring_all_cases[] = {
	KUNIT_CASE(tra_begin),
	KUNIT_CASE(tra_own_then_forward),
	KUNIT_CASE(tra_initiator_elects),
	KUNIT_CASE(tra_initiator_highest),
	KUNIT_CASE(tra_non_initiator_absorbs),
	KUNIT_CASE(tra_coordinator_forwarded),
	KUNIT_CASE(tra_two_initiators),
	KUNIT_CASE(tra_standby),
	KUNIT_CASE(tra_standby_initiator),
	{}
};

static struct kunit_suite elec_ring_all_suite = {
	.name = "elec_ring_all",
	.test_cases = elec_ring_all_cases,
};

kunit_test_suites(&elec_ring_all_suite);
