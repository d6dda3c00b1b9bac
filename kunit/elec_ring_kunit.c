// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of what the three ring elections share (module/core/ring.c)
 * and of whole ring elections on an in-test network.
 *
 * Two suites:
 *  - elec_ring: one instance driven input by input through a recording
 *    sink: the successor by position (wrapping, ties, the id as default
 *    position, failed peers skipped), acknowledged hops (stop and wait,
 *    FIFO order), the retry to the next position after an ack timeout
 *    (counted as a retry, not as an election message), a greeting from
 *    the successor while a hop to it is in flight (sent again, not
 *    declared failed), the greeting of a follower that no ring frame of
 *    its leader's term reached within a round, the owner probe
 *    and a dead owner, a node left alone, election runs, heartbeats, the
 *    failure detector and the learning window, a full queue, stop, and ids
 *    in payloads that are not in the group.
 *  - elec_ring_net: N instances of one ring algorithm joined by the
 *    synchronous in-memory network of elec_kunit_net.h, which encodes and
 *    decodes every frame with the codec, delivers frames in FIFO order with
 *    no delay and fires the earliest timer when nothing is in flight. Ids
 *    are in an arbitrary ring order. It checks the texts' message counts
 *    for one initiator (Chang-Roberts 3N-1 worst and 2N best, and N +
 *    distance in general; the all-ids ring N*N + N; the list ring 2N), and
 *    that every live node agrees on the highest live id after concurrent
 *    starts, crashes of the coordinator and of other nodes, and a reboot;
 *    that a node started late, or skipped by its predecessor, is
 *    counted again by the next run; and standby: the best live id not in
 *    standby wins, a leader entering standby hands over and is still
 *    counted by the ring, every node in standby leaves no leader and no
 *    traffic.
 *
 * The algorithms' own cases are in elec_ring_{cr,all,list}_kunit.c. The
 * file also compiles in userspace against the KUnit shim in
 * tests/core/shim, so `make -C tests/core check` runs the same cases.
 */
#include "elec_kunit_ring.h"
#include "elec_kunit_net.h"

/* a ring of five in an order that is not the ids' */
static const u32 r5[] = { 4, 9, 2, 7, 5 };

/* a node with explicit positions; @pos[i] for @ids[i], 0 = the id */
static struct t_node *trg_node_pos(struct kunit *test, u32 self, u32 self_pos,
				   const u32 *ids, const u32 *pos, u32 nr)
{
	struct t_node *n = kunit_kzalloc(test, sizeof(*n), GFP_KERNEL);
	struct elec_sink sink = { .emit = t_emit };
	struct elec_config cfg;
	void *q = kunit_kzalloc(test, TR_QBYTES, GFP_KERNEL);
	u32 i;

	KUNIT_ASSERT_NOT_NULL(test, n);
	KUNIT_ASSERT_NOT_NULL(test, q);
	n->test = test;
	n->now = T_START;
	sink.ctx = n;
	t_cfg_algo(&cfg, ELEC_ALGO_RING, self);
	cfg.self_pos = self_pos;
	KUNIT_ASSERT_EQ(test, elec_core_init(&n->c, &cfg, n->peers,
					     T_MAX_NODES - 1, &sink), 0);
	for (i = 0; i < nr; i++)
		KUNIT_ASSERT_EQ(test, elec_core_peer_add_pos(&n->c, ids[i],
							     NULL, pos[i]), 0);
	elec_core_set_queue(&n->c, q, TR_QBYTES);
	return n;
}

/* started, then an election: the first ELECTION goes to the successor */
static u32 trg_elect_dst(struct t_node *n)
{
	const struct elec_action *a;

	tr_started(n);
	elec_core_elect(&n->c, n->now);
	KUNIT_EXPECT_EQ(n->test, t_sends(n, 0, T_ANY), 1);
	a = tr_last(n, ELEC_MSG_ELECTION);
	KUNIT_EXPECT_EQ(n->test, tr_val(n, a), n->c.cfg.self_id);
	KUNIT_EXPECT_EQ(n->test, n->c.ring.dst, a->msg.dst);
	return a->msg.dst;
}

static void trg_down(struct t_node *n, u32 id)
{
	struct elec_peer *p = elec_core_peer_find(&n->c, id);

	KUNIT_ASSERT_NOT_NULL(n->test, p);
	elec_core_peer_set_alive(&n->c, p, false, n->now);
}

/* ---- elec_ring --------------------------------------------------------- */

/* The successor is the next position, wrapping; ids do not matter. */
static void trg_successor(struct kunit *test)
{
	static const u32 succ[] = { 9, 2, 7, 5, 4 };	/* of r5[i] */
	struct t_node *n;
	u32 i;

	for (i = 0; i < ARRAY_SIZE(r5); i++) {
		n = tr_node_new(test, ELEC_ALGO_RING, r5[i], r5, 5);
		KUNIT_EXPECT_EQ_MSG(test, trg_elect_dst(n), succ[i],
				    "node %u", r5[i]);
	}
}

/* Position 0 is the id; equal positions are ordered by id. */
static void trg_positions(struct kunit *test)
{
	static const u32 ids_a[] = { 3, 8, 4 }, pos_a[] = { 0, 0, 6 };
	static const u32 ids_b[] = { 3, 8, 1 }, pos_b[] = { 200, 200, 50 };
	static const u32 ids_c[] = { 6, 8, 1 }, pos_c[] = { 100, 200, 50 };
	static const u32 ids_d[] = { 6, 3, 1 }, pos_d[] = { 100, 200, 50 };
	static const u32 ids_e[] = { 3, 5, 4 }, pos_e[] = { 0, 0, 6 };
	struct t_node *n;

	/* keys 3, 5 (self, position 0), 6 (peer 4), 8 */
	n = trg_node_pos(test, 5, 0, ids_a, pos_a, 3);
	KUNIT_EXPECT_EQ(test, trg_elect_dst(n), 4);
	/* self at key 8: the last, wraps to key 3 */
	n = trg_node_pos(test, 8, 0, ids_e, pos_e, 3);
	KUNIT_EXPECT_EQ(test, trg_elect_dst(n), 3);
	/* 6 at 100; 3 and 8 both at 200: 3 first */
	n = trg_node_pos(test, 6, 100, ids_b, pos_b, 3);
	KUNIT_EXPECT_EQ(test, trg_elect_dst(n), 3);
	n = trg_node_pos(test, 3, 200, ids_c, pos_c, 3);
	KUNIT_EXPECT_EQ(test, trg_elect_dst(n), 8);
	/* 8 at 200 after 3 at 200: wraps to 1 at 50 */
	n = trg_node_pos(test, 8, 200, ids_d, pos_d, 3);
	KUNIT_EXPECT_EQ(test, trg_elect_dst(n), 1);
}

/* Peers declared failed are skipped, wrapping if need be. */
static void trg_skip_failed(struct kunit *test)
{
	struct t_node *n;

	n = tr_node_new(test, ELEC_ALGO_RING, 2, r5, 5);
	tr_started(n);
	trg_down(n, 7);
	KUNIT_EXPECT_EQ(test, trg_elect_dst(n), 5);

	n = tr_node_new(test, ELEC_ALGO_RING, 5, r5, 5);
	tr_started(n);
	trg_down(n, 4);
	trg_down(n, 9);
	KUNIT_EXPECT_EQ(test, trg_elect_dst(n), 2);

	/* back when heard from */
	n = tr_node_new(test, ELEC_ALGO_RING, 2, r5, 5);
	tr_started(n);
	trg_down(n, 7);
	tr_ack(n, 7, 1234);	/* any frame */
	KUNIT_EXPECT_EQ(test, t_events(n, ELEC_EVENT_PEER_UP, 7), 1);
	KUNIT_EXPECT_EQ(test, elec_core_peer_find(&n->c, 7)->alive, 1);
	t_clear(n);
	elec_core_elect(&n->c, n->now);
	KUNIT_EXPECT_EQ(test, tr_last(n, ELEC_MSG_ELECTION)->msg.dst, 7);
}

/* A greeting (ACK of hop 0) declares its sender alive and pops nothing. */
static void trg_greeting(struct kunit *test)
{
	struct t_node *n = tr_node_new(test, ELEC_ALGO_RING, 2, r5, 5);
	u32 dst;

	tr_started(n);
	trg_down(n, 5);
	dst = trg_elect_dst(n);
	KUNIT_EXPECT_EQ(test, dst, 7);
	t_clear(n);
	tr_ack(n, 5, 0);
	KUNIT_EXPECT_EQ(test, t_events(n, ELEC_EVENT_PEER_UP, 5), 1);
	KUNIT_EXPECT_EQ(test, n->c.ring.dst, 7);
	KUNIT_EXPECT_NE(test, n->c.ring.q_len, 0);
	KUNIT_EXPECT_EQ(test, t_sends(n, 0, T_ANY), 0);
	tr_ack(n, 7, 0);
	KUNIT_EXPECT_EQ(test, n->c.ring.dst, 7);
	KUNIT_EXPECT_NE(test, n->c.ring.q_len, 0);
}

/*
 * The successor greets while a hop to it is in flight (it started after
 * the frame was sent, which it dropped): the hop timeout sends the frame
 * to it again, as a retry, instead of declaring it failed (once per
 * message: a second greeting does not save it again). A greeting
 * followed by the ACK (the frame arrived after it started) pops as usual
 * and sends nothing twice.
 */
static void trg_greeting_in_flight(struct kunit *test)
{
	struct t_node *n = tr_node_new(test, ELEC_ALGO_RING, 2, r5, 5);
	const struct elec_action *a;
	u32 hop;

	KUNIT_ASSERT_EQ(test, trg_elect_dst(n), 7);
	hop = n->c.ring.hop;
	/* a greeting from another peer changes nothing */
	tr_ack(n, 5, 0);
	KUNIT_EXPECT_FALSE(test, n->c.ring.dst_greeted);
	tr_ack(n, 7, 0);
	KUNIT_EXPECT_TRUE(test, n->c.ring.dst_greeted);
	KUNIT_EXPECT_EQ(test, n->c.ring.dst, 7);
	t_clear(n);
	t_fire(n, ELEC_RING_TIMER_ACK);
	KUNIT_EXPECT_EQ(test, t_events(n, ELEC_EVENT_PEER_DOWN, T_ANY), 0);
	KUNIT_EXPECT_EQ(test, elec_core_peer_find(&n->c, 7)->alive, 1);
	KUNIT_EXPECT_EQ(test, t_sends(n, 0, T_ANY), 1);
	a = tr_last(n, ELEC_MSG_ELECTION);
	KUNIT_EXPECT_EQ(test, a->msg.dst, 7);
	KUNIT_EXPECT_EQ(test, tr_val(n, a), 2);
	KUNIT_EXPECT_NE(test, tr_hop(n, a), hop);
	KUNIT_EXPECT_EQ(test, n->c.stats.tx[ELEC_MSG_RETRY], 1);
	KUNIT_EXPECT_FALSE(test, n->c.ring.dst_greeted);
	KUNIT_EXPECT_EQ(test, n->c.timer_expires[ELEC_RING_TIMER_ACK],
			n->now + T_T);
	/*
	 * 7 greets again and acknowledges nothing (it restarts again and
	 * again): once per destination, so the timeout declares it failed
	 */
	tr_ack(n, 7, 0);
	KUNIT_EXPECT_TRUE(test, n->c.ring.dst_greeted);
	t_clear(n);
	t_fire(n, ELEC_RING_TIMER_ACK);
	KUNIT_EXPECT_EQ(test, t_events(n, ELEC_EVENT_PEER_DOWN, 7), 1);
	KUNIT_EXPECT_EQ(test, tr_last(n, ELEC_MSG_ELECTION)->msg.dst, 5);
	/* a new destination may be resent to once as well */
	tr_ack(n, 5, 0);
	t_clear(n);
	t_fire(n, ELEC_RING_TIMER_ACK);
	KUNIT_EXPECT_EQ(test, t_events(n, ELEC_EVENT_PEER_DOWN, T_ANY), 0);
	KUNIT_EXPECT_EQ(test, tr_last(n, ELEC_MSG_ELECTION)->msg.dst, 5);
	KUNIT_EXPECT_EQ(test, n->c.stats.tx[ELEC_MSG_RETRY], 3);

	/* greeting, then the ACK: popped, nothing sent again */
	n = tr_node_new(test, ELEC_ALGO_RING, 2, r5, 5);
	KUNIT_ASSERT_EQ(test, trg_elect_dst(n), 7);
	tr_ack(n, 7, 0);
	t_clear(n);
	tr_ack_head(n);
	KUNIT_EXPECT_EQ(test, n->c.ring.q_len, 0);
	KUNIT_EXPECT_EQ(test, n->c.ring.dst, 0);
	KUNIT_EXPECT_EQ(test, n->c.timer_expires[ELEC_RING_TIMER_ACK], 0);
	KUNIT_EXPECT_EQ(test, t_sends(n, 0, T_ANY), 0);
	KUNIT_EXPECT_EQ(test, n->c.stats.tx[ELEC_MSG_RETRY], 0);
}

/* heartbeats of leader 9 at @term every T_HB until @until; sends seen */
static u32 trg_hb_until(struct t_node *n, u64 term, u64 until)
{
	u32 sent = 0;

	while (n->now + T_HB <= until) {
		n->now += T_HB;
		t_clear(n);
		tr_hb(n, 9, term);
		sent += t_sends(n, 0, T_ANY);
	}
	return sent;
}

/*
 * A follower that no ring frame of its leader's term reaches within a
 * round of accepting the leader was skipped by its predecessor: it greets
 * (one broadcast ACK of hop 0) at the next heartbeat, once per term. A
 * COORDINATOR (or ELECTION) of the term reaching it means the ring counts
 * it: no greeting.
 */
static void trg_skipped_greets(struct kunit *test)
{
	struct t_node *n = tr_node_new(test, ELEC_ALGO_RING, 7, r5, 5);
	const struct elec_action *a;
	u64 accepted;

	tr_started(n);
	tr_hb(n, 9, 3);
	KUNIT_ASSERT_EQ(test, n->c.leader, 9);
	accepted = n->now;
	KUNIT_EXPECT_EQ(test, trg_hb_until(n, 3, accepted + TR_ROUND(5) - 1),
			0);
	n->now = accepted + TR_ROUND(5);
	t_clear(n);
	tr_hb(n, 9, 3);
	KUNIT_EXPECT_EQ(test, t_sends(n, 0, T_ANY), 1);
	a = tr_last(n, ELEC_MSG_ACK);
	KUNIT_EXPECT_EQ(test, a->msg.dst, 0);
	KUNIT_EXPECT_EQ(test, tr_hop(n, a), 0);
	KUNIT_EXPECT_EQ(test, n->c.leader, 9);
	/* once per term */
	KUNIT_EXPECT_EQ(test, trg_hb_until(n, 3, n->now + 4 * TR_ROUND(5)),
			0);

	/* a newer term, and its COORDINATOR comes round: no greeting */
	t_clear(n);
	tr_hb(n, 9, 4);
	KUNIT_ASSERT_EQ(test, n->c.term, 4);
	n->now += T_HB;
	tr_rx_cr(n, ELEC_MSG_COORDINATOR, 4, 4, 1, 9);
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_COORDINATOR, 5), 1);
	tr_ack_head(n);
	KUNIT_EXPECT_EQ(test, trg_hb_until(n, 4, n->now + 4 * TR_ROUND(5)),
			0);

	/* a newer term again, no ring frame: a greeting a round later */
	tr_hb(n, 9, 5);
	KUNIT_EXPECT_EQ(test, trg_hb_until(n, 5, n->now + 2 * TR_ROUND(5)),
			1);
}

/*
 * The ring's detector goes through the core's late-expiry rule too: a
 * heartbeat interval late, it watches one more window (no election, no
 * frame); the heartbeat then keeps the leader; an expiry on time with no
 * heartbeat begins an election.
 */
static void trg_detect_late(struct kunit *test)
{
	struct t_node *n = tr_node_new(test, ELEC_ALGO_RING, 7, r5, 5);

	tr_started(n);
	tr_hb(n, 9, 3);
	KUNIT_ASSERT_EQ(test, n->c.leader, 9);
	n->now = n->c.timer_expires[ELEC_TIMER_DETECT] + T_HB;
	t_clear(n);
	elec_core_timer(&n->c, ELEC_TIMER_DETECT, n->now);
	KUNIT_EXPECT_EQ(test, n->c.stats.detect_deferred, 1);
	KUNIT_EXPECT_EQ(test, t_sends(n, 0, T_ANY), 0);
	KUNIT_EXPECT_EQ(test, n->c.leader, 9);
	KUNIT_EXPECT_EQ(test, n->c.stats.elections, 0);
	tr_hb(n, 9, 3);
	KUNIT_EXPECT_EQ(test, n->c.leader, 9);
	KUNIT_EXPECT_FALSE(test, n->c.detect_deferred);
	t_clear(n);
	t_fire(n, ELEC_TIMER_DETECT);
	KUNIT_EXPECT_EQ(test, n->c.stats.detect_deferred, 1);
	KUNIT_EXPECT_EQ(test, t_events(n, ELEC_EVENT_PEER_DOWN, 9), 1);
	KUNIT_EXPECT_EQ(test, n->c.stats.elections, 1);
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_ELECTION, T_ANY), 1);
}

/*
 * A follower that a newer run has reached does not declare its silent
 * leader failed when its detector runs out: the leader may have restarted
 * (a learning node sends no heartbeat) and begun that very run, and a peer
 * declared failed is skipped for good (electsim --check --algo ring-all
 * --nodes 5..5 --seed 941595 --schedule "crash:5@1238;crash:4@68883;
 * recover:4@198883;..."). The run's round timer watches the run; its
 * announcement ends it as usual.
 */
static void trg_detect_in_newer_run(struct kunit *test)
{
	struct t_node *n = tr_node_new(test, ELEC_ALGO_RING_ALL, 2, r5, 5);
	u64 elections;

	tr_started(n);
	tr_hb(n, 9, 3);
	KUNIT_ASSERT_EQ(test, n->c.leader, 9);
	/* 9 restarted and begins run 4: its ELECTION comes round */
	tr_rx_all_e(n, 9, 4, 1, 9);
	KUNIT_ASSERT_TRUE(test, n->c.participant);
	elections = n->c.stats.elections;
	t_clear(n);
	t_fire(n, ELEC_TIMER_DETECT);
	KUNIT_EXPECT_EQ(test, t_events(n, ELEC_EVENT_PEER_DOWN, T_ANY), 0);
	KUNIT_EXPECT_TRUE(test, elec_core_peer_find(&n->c, 9)->alive);
	KUNIT_EXPECT_EQ(test, n->c.stats.elections, elections);
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_ELECTION, T_ANY), 0);
	KUNIT_EXPECT_NE(test, n->c.timer_expires[ELEC_RING_TIMER_ROUND], 0);
	/* it follows nobody meanwhile, and watches another window */
	KUNIT_EXPECT_EQ(test, n->c.leader, 0);
	KUNIT_EXPECT_EQ(test, t_armed_at(n, ELEC_TIMER_DETECT),
			n->now + T_DETECT);
	/* the run's announcement: 9 leads at term 5, watched again */
	tr_rx_all_c(n, 9, 5, 2, 9, 9);
	KUNIT_EXPECT_EQ(test, n->c.leader, 9);
	KUNIT_EXPECT_EQ(test, n->c.term, 5);
	KUNIT_EXPECT_FALSE(test, n->c.participant);
	KUNIT_EXPECT_NE(test, n->c.timer_expires[ELEC_TIMER_DETECT], 0);

	/* a resignation is no silence: declared failed at once */
	n = tr_node_new(test, ELEC_ALGO_RING_ALL, 2, r5, 5);
	tr_started(n);
	tr_hb(n, 9, 3);
	tr_rx_all_e(n, 4, 4, 1, 4);
	KUNIT_ASSERT_TRUE(test, n->c.participant);
	t_clear(n);
	tr_rx_flags(n, ELEC_MSG_HEARTBEAT, ELECTION_FLAG_LEAVING, 9, 0, 3,
		    NULL, 0);
	KUNIT_EXPECT_EQ(test, t_events(n, ELEC_EVENT_PEER_DOWN, 9), 1);
	KUNIT_EXPECT_FALSE(test, elec_core_peer_find(&n->c, 9)->alive);
	KUNIT_EXPECT_EQ(test, n->c.leader, 0);

	/* no newer run: the silent leader is declared failed, as before */
	n = tr_node_new(test, ELEC_ALGO_RING_ALL, 2, r5, 5);
	tr_started(n);
	tr_hb(n, 9, 3);
	t_clear(n);
	t_fire(n, ELEC_TIMER_DETECT);
	KUNIT_EXPECT_EQ(test, t_events(n, ELEC_EVENT_PEER_DOWN, 9), 1);
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_ELECTION, T_ANY), 1);
}

/* One ring message in flight; the ACK pops it and sends the next. */
static void trg_ack_fifo(struct kunit *test)
{
	struct t_node *n = tr_node_new(test, ELEC_ALGO_RING_ALL, 2, r5, 5);
	const struct elec_action *a;
	u32 hop;

	tr_started(n);
	/* (elect me, 4) from the predecessor: own first, then 4's */
	tr_rx_all_e(n, 9, 1, 11, 4);
	a = tr_first_send(n);
	KUNIT_EXPECT_EQ(test, a->msg.type, ELEC_MSG_ACK);
	KUNIT_EXPECT_EQ(test, a->msg.dst, 9);
	KUNIT_EXPECT_EQ(test, a->msg.payload_len, 4);
	KUNIT_EXPECT_EQ(test, tr_hop(n, a), 11);
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_ELECTION, T_ANY), 1);
	a = tr_last(n, ELEC_MSG_ELECTION);
	KUNIT_EXPECT_EQ(test, a->msg.dst, 7);
	KUNIT_EXPECT_EQ(test, tr_val(n, a), 2);
	KUNIT_EXPECT_EQ(test, n->c.timer_expires[ELEC_RING_TIMER_ACK],
			n->now + T_T);
	hop = tr_hop(n, a);

	/* a third one queues behind */
	t_clear(n);
	tr_rx_all_e(n, 9, 1, 12, 9);
	KUNIT_EXPECT_EQ(test, t_sends(n, 0, T_ANY), 1);
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_ACK, 9), 1);

	/* a wrong hop, or the right hop from another node: ignored */
	t_clear(n);
	tr_ack(n, 7, hop + 1);
	tr_ack(n, 7, hop - 1);
	tr_ack(n, 5, hop);
	KUNIT_EXPECT_EQ(test, t_sends(n, 0, T_ANY), 0);
	KUNIT_EXPECT_EQ(test, t_cancels(n, ELEC_RING_TIMER_ACK), 0);
	KUNIT_EXPECT_EQ(test, n->c.ring.dst, 7);

	/* in the order queued */
	t_clear(n);
	tr_ack(n, 7, hop);
	KUNIT_EXPECT_EQ(test, t_sends(n, 0, T_ANY), 1);
	a = tr_last(n, ELEC_MSG_ELECTION);
	KUNIT_EXPECT_EQ(test, a->msg.dst, 7);
	KUNIT_EXPECT_EQ(test, tr_val(n, a), 4);
	KUNIT_EXPECT_EQ(test, a->msg.term, 1);
	KUNIT_EXPECT_NE(test, tr_hop(n, a), hop);
	KUNIT_EXPECT_EQ(test, t_arms(n, ELEC_RING_TIMER_ACK), 1);
	t_clear(n);
	tr_ack_head(n);
	KUNIT_EXPECT_EQ(test, t_sends(n, 0, T_ANY), 1);
	KUNIT_EXPECT_EQ(test, tr_val(n, tr_last(n, ELEC_MSG_ELECTION)), 9);

	/* the last ACK empties the queue and stops the timer */
	t_clear(n);
	hop = tr_ack_head(n);
	KUNIT_EXPECT_EQ(test, t_sends(n, 0, T_ANY), 0);
	KUNIT_EXPECT_EQ(test, t_cancels(n, ELEC_RING_TIMER_ACK), 1);
	KUNIT_EXPECT_EQ(test, n->c.timer_expires[ELEC_RING_TIMER_ACK], 0);
	KUNIT_EXPECT_EQ(test, n->c.ring.q_len, 0);
	KUNIT_EXPECT_EQ(test, n->c.ring.dst, 0);
	/* a duplicate is harmless */
	t_clear(n);
	tr_ack(n, 7, hop);
	KUNIT_EXPECT_EQ(test, n->n_acts, 0);
	KUNIT_EXPECT_EQ(test, n->c.stats.tx[ELEC_MSG_ELECTION], 3);
	/* two ACKs and the greeting at start (one broadcast) */
	KUNIT_EXPECT_EQ(test, n->c.stats.tx[ELEC_MSG_ACK], 2 + 1);
	KUNIT_EXPECT_EQ(test, n->c.stats.rx[ELEC_MSG_ACK], 7);
	KUNIT_EXPECT_EQ(test, n->c.stats.tx[ELEC_MSG_RETRY], 0);
}

/*
 * No ACK within T: the successor is declared failed and the message goes
 * to the next position, counted as a retry and not as an ELECTION.
 */
static void trg_ack_timeout_retry(struct kunit *test)
{
	struct t_node *n = tr_node_new(test, ELEC_ALGO_RING, 2, r5, 5);
	const struct elec_action *a;
	u32 hop;
	u64 run;

	KUNIT_ASSERT_EQ(test, trg_elect_dst(n), 7);
	a = tr_last(n, ELEC_MSG_ELECTION);
	hop = tr_hop(n, a);
	run = a->msg.term;
	t_clear(n);
	t_fire(n, ELEC_RING_TIMER_ACK);
	KUNIT_EXPECT_EQ(test, t_events(n, ELEC_EVENT_PEER_DOWN, 7), 1);
	KUNIT_EXPECT_EQ(test, elec_core_peer_find(&n->c, 7)->alive, 0);
	KUNIT_EXPECT_EQ(test, t_sends(n, 0, T_ANY), 1);
	a = tr_last(n, ELEC_MSG_ELECTION);	/* its type on the wire */
	KUNIT_EXPECT_EQ(test, a->msg.dst, 5);
	KUNIT_EXPECT_EQ(test, tr_val(n, a), 2);
	KUNIT_EXPECT_EQ(test, a->msg.term, run);
	KUNIT_EXPECT_NE(test, tr_hop(n, a), hop);
	KUNIT_EXPECT_EQ(test, n->c.timer_expires[ELEC_RING_TIMER_ACK],
			n->now + T_T);
	KUNIT_EXPECT_EQ(test, n->c.stats.tx[ELEC_MSG_ELECTION], 1);
	KUNIT_EXPECT_EQ(test, n->c.stats.tx[ELEC_MSG_RETRY], 1);
	/* still the same run, no new election */
	KUNIT_EXPECT_EQ(test, n->c.stats.elections, 1);
	KUNIT_EXPECT_EQ(test, t_events(n, ELEC_EVENT_ELECTION_STARTED, T_ANY),
			0);
	KUNIT_EXPECT_TRUE(test, n->c.participant);

	/* a late ACK from 7: 7 is alive again, but 5 has the message now */
	t_clear(n);
	tr_ack(n, 7, hop);
	KUNIT_EXPECT_EQ(test, t_events(n, ELEC_EVENT_PEER_UP, 7), 1);
	KUNIT_EXPECT_EQ(test, n->c.ring.dst, 5);
	KUNIT_EXPECT_EQ(test, t_sends(n, 0, T_ANY), 0);
	t_clear(n);
	tr_ack_head(n);
	KUNIT_EXPECT_EQ(test, t_cancels(n, ELEC_RING_TIMER_ACK), 1);
	KUNIT_EXPECT_EQ(test, n->c.ring.q_len, 0);
}

/* forward one ELECTION of 9 to the successor; return its hop */
static u32 trg_forward(struct t_node *n, u32 hop_in)
{
	t_clear(n);
	tr_rx_cr(n, ELEC_MSG_ELECTION, 4, 1, hop_in, 9);
	KUNIT_EXPECT_EQ(n->test, t_sends(n, ELEC_MSG_ELECTION, T_ANY), 1);
	return n->c.ring.hop;
}

/*
 * The hop timeout adapts: an ACK that arrives after its hop timed out
 * doubles it, up to 8 T, and the round timer with it; ELEC_RING_ACK_DECAY
 * on-time ACKs in a row, each within a quarter of it, halve it; a slower
 * one starts the count again.
 */
static void trg_ack_timeout_adapts(struct kunit *test)
{
	struct t_node *n = tr_node_new(test, ELEC_ALGO_RING, 2, r5, 5);
	u32 hop, k, shift;

	tr_started(n);
	for (k = 0; k <= ELEC_RING_ACK_SHIFT_MAX; k++) {
		shift = k < ELEC_RING_ACK_SHIFT_MAX ? k + 1 : k;
		hop = trg_forward(n, 10 + k);
		KUNIT_ASSERT_EQ(test, n->c.ring.dst, 7);
		KUNIT_EXPECT_EQ(test, n->c.timer_expires[ELEC_RING_TIMER_ACK],
				n->now + (T_T << k));
		t_fire(n, ELEC_RING_TIMER_ACK);
		KUNIT_ASSERT_EQ(test, n->c.ring.dst, 5);
		/* the retry waits as long as the first try */
		KUNIT_EXPECT_EQ(test, n->c.timer_expires[ELEC_RING_TIMER_ACK],
				n->now + (T_T << k));
		/* a stray ACK (wrong hop, the greeting) changes nothing */
		tr_ack(n, 7, hop + 1);
		tr_ack(n, 7, 0);
		KUNIT_EXPECT_EQ(test, n->c.ring.ack_shift, k);
		/* 7's late ACK: it was slow, not gone */
		tr_ack(n, 7, hop);
		KUNIT_EXPECT_EQ(test, elec_core_peer_find(&n->c, 7)->alive, 1);
		KUNIT_EXPECT_EQ(test, n->c.ring.ack_shift, shift);
		/* counted once */
		tr_ack(n, 7, hop);
		KUNIT_EXPECT_EQ(test, n->c.ring.ack_shift, shift);
		tr_ack_head(n);
	}
	KUNIT_EXPECT_EQ(test, n->c.ring.ack_shift, ELEC_RING_ACK_SHIFT_MAX);
	trg_forward(n, 20);
	KUNIT_EXPECT_EQ(test, n->c.timer_expires[ELEC_RING_TIMER_ACK],
			n->now + (T_T << ELEC_RING_ACK_SHIFT_MAX));
	KUNIT_EXPECT_EQ(test, n->c.timer_expires[ELEC_RING_TIMER_ROUND],
			n->now + T_COORD +
			2ULL * 5 * (T_T << ELEC_RING_ACK_SHIFT_MAX));
	/* a slow on-time ACK (a quarter of 8 T) starts the count again */
	n->now += 2 * T_T;
	tr_ack_head(n);
	KUNIT_EXPECT_EQ(test, n->c.ring.ack_fast, 0);
	for (k = 1; k < ELEC_RING_ACK_DECAY; k++) {
		trg_forward(n, 30 + k);
		tr_ack_head(n);
	}
	KUNIT_EXPECT_EQ(test, n->c.ring.ack_shift, ELEC_RING_ACK_SHIFT_MAX);
	trg_forward(n, 50);
	tr_ack_head(n);
	KUNIT_EXPECT_EQ(test, n->c.ring.ack_shift,
			ELEC_RING_ACK_SHIFT_MAX - 1);
	/* down to T again, not below */
	for (k = 0; k < ELEC_RING_ACK_SHIFT_MAX * ELEC_RING_ACK_DECAY; k++) {
		trg_forward(n, 60 + k);
		tr_ack_head(n);
	}
	KUNIT_EXPECT_EQ(test, n->c.ring.ack_shift, 0);
	trg_forward(n, 200);
	KUNIT_EXPECT_EQ(test, n->c.timer_expires[ELEC_RING_TIMER_ACK],
			n->now + T_T);
	tr_ack_head(n);
	/* a restart forgets it */
	n->c.ring.ack_shift = 2;
	elec_core_stop(&n->c, n->now);
	tr_started(n);
	KUNIT_EXPECT_EQ(test, n->c.ring.ack_shift, 0);
}

/*
 * The count of fast ACKs starts again after a timeout; a late ACK counts
 * once, an older hop from the same node nothing; a new T resets the hop
 * timeout to it.
 */
static void trg_ack_timeout_count(struct kunit *test)
{
	struct t_node *n = tr_node_new(test, ELEC_ALGO_RING, 2, r5, 5);
	struct elec_config cfg;
	u32 hop, old, k;

	tr_started(n);
	old = trg_forward(n, 10);
	t_fire(n, ELEC_RING_TIMER_ACK);
	tr_ack(n, 7, old);
	tr_ack_head(n);
	hop = trg_forward(n, 11);
	t_fire(n, ELEC_RING_TIMER_ACK);
	tr_ack(n, 7, hop);
	tr_ack_head(n);
	KUNIT_ASSERT_EQ(test, n->c.ring.ack_shift, 2);
	/* the first late hop again, and the consumed one: nothing */
	tr_ack(n, 7, old);
	tr_ack(n, 7, hop);
	KUNIT_EXPECT_EQ(test, n->c.ring.ack_shift, 2);
	/* fast ACKs, one short of a halving, then a timeout */
	n->c.ring.ack_fast = 0;
	for (k = 1; k < ELEC_RING_ACK_DECAY; k++) {
		trg_forward(n, 20 + k);
		tr_ack_head(n);
	}
	KUNIT_EXPECT_EQ(test, n->c.ring.ack_fast, ELEC_RING_ACK_DECAY - 1);
	trg_forward(n, 40);
	t_fire(n, ELEC_RING_TIMER_ACK);
	KUNIT_EXPECT_EQ(test, n->c.ring.ack_fast, 0);
	tr_ack_head(n);		/* the retry, fast: 1 of 16 */
	KUNIT_EXPECT_EQ(test, n->c.ring.ack_shift, 2);
	KUNIT_EXPECT_EQ(test, n->c.ring.ack_fast, 1);
	/* the same T set again keeps it, a new T resets it */
	cfg = n->c.cfg;
	KUNIT_ASSERT_EQ(test, elec_core_set_config(&n->c, &cfg, NULL), 0);
	KUNIT_EXPECT_EQ(test, n->c.ring.ack_shift, 2);
	cfg.timeout_ns = 2 * T_T;
	KUNIT_ASSERT_EQ(test, elec_core_set_config(&n->c, &cfg, NULL), 0);
	KUNIT_EXPECT_EQ(test, n->c.ring.ack_shift, 0);
	trg_forward(n, 50);
	KUNIT_EXPECT_EQ(test, n->c.timer_expires[ELEC_RING_TIMER_ACK],
			n->now + 2 * T_T);
}

/* The owner of a message is tried even when declared failed. */
static void trg_owner_probe(struct kunit *test)
{
	struct t_node *n = tr_node_new(test, ELEC_ALGO_RING, 2, r5, 5);

	/* 7 down: 9's ELECTION skips it */
	tr_started(n);
	trg_down(n, 7);
	tr_rx_cr(n, ELEC_MSG_ELECTION, 9, 1, 1, 9);
	KUNIT_EXPECT_EQ(test, tr_last(n, ELEC_MSG_ELECTION)->msg.dst, 5);
	tr_ack_head(n);
	/* 7's own ELECTION is offered to 7 */
	t_clear(n);
	tr_rx_cr(n, ELEC_MSG_ELECTION, 9, 2, 2, 7);
	KUNIT_EXPECT_EQ(test, tr_last(n, ELEC_MSG_ELECTION)->msg.dst, 7);
	KUNIT_EXPECT_EQ(test, tr_val(n, tr_last(n, ELEC_MSG_ELECTION)), 7);
	KUNIT_EXPECT_EQ(test, elec_core_peer_find(&n->c, 7)->alive, 0);
	/* and so is the leader's COORDINATOR */
	tr_ack_head(n);
	t_clear(n);
	tr_rx_cr(n, ELEC_MSG_COORDINATOR, 9, 4, 3, 7);
	KUNIT_EXPECT_EQ(test, tr_last(n, ELEC_MSG_COORDINATOR)->msg.dst, 7);
}

/* The owner does not answer: its ELECTION can never return; elect anew. */
static void trg_owner_dead_election(struct kunit *test)
{
	const struct elec_action *a;
	struct t_node *n;
	int probe;

	for (probe = 0; probe < 2; probe++) {
		n = tr_node_new(test, ELEC_ALGO_RING, 2, r5, 5);
		tr_started(n);
		if (probe)
			trg_down(n, 7);
		tr_rx_cr(n, ELEC_MSG_ELECTION, 9, 3, 1, 7);
		KUNIT_ASSERT_EQ(test, n->c.ring.dst, 7);
		t_clear(n);
		t_fire(n, ELEC_RING_TIMER_ACK);
		KUNIT_EXPECT_EQ(test, elec_core_peer_find(&n->c, 7)->alive, 0);
		if (!probe)
			KUNIT_EXPECT_EQ(test,
					t_events(n, ELEC_EVENT_PEER_DOWN, 7), 1);
		/* dropped, not retried: an own run instead */
		KUNIT_EXPECT_EQ(test, n->c.stats.tx[ELEC_MSG_RETRY], 0);
		KUNIT_EXPECT_EQ(test, n->c.stats.elections, 1);
		KUNIT_EXPECT_EQ(test,
				t_events(n, ELEC_EVENT_ELECTION_STARTED, T_ANY),
				1);
		KUNIT_EXPECT_EQ(test, t_sends(n, 0, T_ANY), 1);
		a = tr_last(n, ELEC_MSG_ELECTION);
		KUNIT_EXPECT_EQ(test, a->msg.dst, 5);
		KUNIT_EXPECT_EQ(test, tr_val(n, a), 2);
		KUNIT_EXPECT_GT(test, a->msg.term, 3);
		KUNIT_EXPECT_EQ(test, n->c.ring.run, a->msg.term);
		KUNIT_EXPECT_TRUE(test, n->c.participant);
	}
}

/*
 * The run's owner greets while its own ELECTION is in flight to it: it
 * restarted and takes part in no run, so it would swallow the frame.
 * The node begins a run of its own instead (not a resend), and does not
 * declare the owner failed.
 */
static void trg_owner_greeted(struct kunit *test)
{
	struct t_node *n = tr_node_new(test, ELEC_ALGO_RING, 2, r5, 5);
	const struct elec_action *a;

	tr_started(n);
	tr_rx_cr(n, ELEC_MSG_ELECTION, 9, 3, 1, 7);
	KUNIT_ASSERT_EQ(test, n->c.ring.dst, 7);
	tr_ack(n, 7, 0);
	t_clear(n);
	t_fire(n, ELEC_RING_TIMER_ACK);
	KUNIT_EXPECT_EQ(test, t_events(n, ELEC_EVENT_PEER_DOWN, T_ANY), 0);
	KUNIT_EXPECT_EQ(test, elec_core_peer_find(&n->c, 7)->alive, 1);
	KUNIT_EXPECT_EQ(test, n->c.stats.tx[ELEC_MSG_RETRY], 0);
	KUNIT_EXPECT_EQ(test, n->c.stats.elections, 1);
	KUNIT_EXPECT_EQ(test, t_sends(n, 0, T_ANY), 1);
	a = tr_last(n, ELEC_MSG_ELECTION);
	KUNIT_EXPECT_EQ(test, a->msg.dst, 7);
	KUNIT_EXPECT_EQ(test, tr_val(n, a), 2);
	KUNIT_EXPECT_GT(test, a->msg.term, 3);
	KUNIT_EXPECT_EQ(test, n->c.ring.run, a->msg.term);
	KUNIT_EXPECT_TRUE(test, n->c.participant);
	KUNIT_EXPECT_FALSE(test, n->c.ring.dst_greeted);
}

/* A COORDINATOR whose leader does not answer has gone round: dropped. */
static void trg_owner_dead_coordinator(struct kunit *test)
{
	struct t_node *n = tr_node_new(test, ELEC_ALGO_RING, 2, r5, 5);

	tr_started(n);
	tr_rx_cr(n, ELEC_MSG_COORDINATOR, 9, 3, 1, 7);
	KUNIT_ASSERT_EQ(test, n->c.ring.dst, 7);
	KUNIT_EXPECT_EQ(test, n->c.leader, 7);
	t_clear(n);
	t_fire(n, ELEC_RING_TIMER_ACK);
	KUNIT_EXPECT_EQ(test, t_events(n, ELEC_EVENT_PEER_DOWN, 7), 1);
	KUNIT_EXPECT_EQ(test, t_sends(n, 0, T_ANY), 0);
	KUNIT_EXPECT_EQ(test, n->c.stats.tx[ELEC_MSG_RETRY], 0);
	KUNIT_EXPECT_EQ(test, n->c.stats.elections, 0);
	KUNIT_EXPECT_EQ(test, n->c.ring.q_len, 0);
	KUNIT_EXPECT_EQ(test, n->c.ring.dst, 0);
	KUNIT_EXPECT_EQ(test, n->c.timer_expires[ELEC_RING_TIMER_ACK], 0);
	/* the failure detector decides about the leader */
	KUNIT_EXPECT_EQ(test, n->c.leader, 7);
	KUNIT_EXPECT_NE(test, n->c.timer_expires[ELEC_TIMER_DETECT], 0);
}

static void trg_expect_alone_leader(struct t_node *n)
{
	struct kunit *test = n->test;
	u32 self = n->c.cfg.self_id;

	KUNIT_EXPECT_EQ(test, n->c.role, ELEC_ROLE_LEADER);
	KUNIT_EXPECT_EQ(test, n->c.phase, ELEC_RING_LEADING);
	KUNIT_EXPECT_EQ(test, n->c.leader, self);
	KUNIT_EXPECT_FALSE(test, n->c.participant);
	KUNIT_EXPECT_GT(test, n->c.term, 0);
	KUNIT_EXPECT_EQ(test, n->c.ring.q_len, 0);
	KUNIT_EXPECT_EQ(test, n->c.ring.dst, 0);
	KUNIT_EXPECT_EQ(test, t_timers(n), T_BIT(ELEC_TIMER_HEARTBEAT));
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_ELECTION, T_ANY), 0);
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_COORDINATOR, T_ANY), 0);
	KUNIT_EXPECT_EQ(test, t_events(n, ELEC_EVENT_LEADER_CHANGED, T_ANY),
			1);
	KUNIT_EXPECT_EQ(test, n->c.stats.leader_changes, 1);
}

/* The ring walk finds no other live node: the node elects itself. */
static void trg_alone(struct kunit *test)
{
	static const u32 r3[] = { 1, 2, 3 };
	static const u32 r1[] = { 6 };
	struct t_node *n;
	u32 i;

	/* every peer declared failed */
	n = tr_node_new(test, ELEC_ALGO_RING, 2, r5, 5);
	tr_started(n);
	for (i = 0; i < ARRAY_SIZE(r5); i++)
		if (r5[i] != 2)
			trg_down(n, r5[i]);
	t_clear(n);
	elec_core_elect(&n->c, n->now);
	KUNIT_EXPECT_EQ(test, n->c.stats.elections, 1);
	trg_expect_alone_leader(n);

	/* both peers fail to acknowledge in turn */
	n = tr_node_new(test, ELEC_ALGO_RING, 2, r3, 3);
	KUNIT_ASSERT_EQ(test, trg_elect_dst(n), 3);
	t_fire(n, ELEC_RING_TIMER_ACK);
	KUNIT_EXPECT_EQ(test, tr_last(n, ELEC_MSG_ELECTION)->msg.dst, 1);
	t_clear(n);
	t_fire(n, ELEC_RING_TIMER_ACK);
	KUNIT_EXPECT_EQ(test, t_events(n, ELEC_EVENT_PEER_DOWN, 1), 1);
	trg_expect_alone_leader(n);
	KUNIT_EXPECT_EQ(test, n->c.stats.tx[ELEC_MSG_ELECTION], 1);
	KUNIT_EXPECT_EQ(test, n->c.stats.tx[ELEC_MSG_RETRY], 1);

	/* no peers at all, for each algorithm, at the end of learning */
	for (i = ELEC_ALGO_RING; i <= ELEC_ALGO_RING_LIST; i++) {
		n = tr_node_new(test, i, 6, r1, 1);
		tr_started(n);
		t_fire(n, ELEC_TIMER_DETECT);
		trg_expect_alone_leader(n);
	}
}

/* ELECTION frames of an older run are dropped; a newer run resets. */
static void trg_runs(struct kunit *test)
{
	struct t_node *n = tr_node_new(test, ELEC_ALGO_RING, 7, r5, 5);
	const struct elec_action *a;

	tr_started(n);
	tr_rx_cr(n, ELEC_MSG_ELECTION, 2, 5, 1, 9);
	KUNIT_EXPECT_EQ(test, tr_last(n, ELEC_MSG_ELECTION)->msg.term, 5);
	KUNIT_EXPECT_EQ(test, n->c.ring.run, 5);
	KUNIT_EXPECT_TRUE(test, n->c.participant);
	tr_ack_head(n);

	/* same run, smaller id, participant: swallowed */
	t_clear(n);
	tr_rx_cr(n, ELEC_MSG_ELECTION, 2, 5, 2, 4);
	KUNIT_EXPECT_EQ(test, t_sends(n, 0, T_ANY), 1);
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_ACK, 2), 1);

	/* older run: acknowledged, counted stale, nothing else */
	t_clear(n);
	tr_rx_cr(n, ELEC_MSG_ELECTION, 2, 4, 3, 9);
	KUNIT_EXPECT_EQ(test, n->c.stats.drops[ELEC_DROP_STALE_TERM], 1);
	KUNIT_EXPECT_EQ(test, t_sends(n, 0, T_ANY), 1);
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_ACK, 2), 1);
	KUNIT_EXPECT_EQ(test, n->c.ring.run, 5);
	KUNIT_EXPECT_TRUE(test, n->c.participant);

	/* newer run: not a participant of it, so it substitutes */
	t_clear(n);
	tr_rx_cr(n, ELEC_MSG_ELECTION, 2, 6, 4, 4);
	KUNIT_EXPECT_EQ(test, n->c.ring.run, 6);
	a = tr_last(n, ELEC_MSG_ELECTION);
	KUNIT_EXPECT_EQ(test, a->msg.dst, 5);
	KUNIT_EXPECT_EQ(test, a->msg.term, 6);
	KUNIT_EXPECT_EQ(test, tr_val(n, a), 7);
	KUNIT_EXPECT_TRUE(test, n->c.participant);
	KUNIT_EXPECT_GE(test, n->c.max_term, 6);
	/* joining runs is not starting one */
	KUNIT_EXPECT_EQ(test, n->c.stats.elections, 0);
	KUNIT_EXPECT_EQ(test, n->c.stats.drops[ELEC_DROP_STALE_TERM], 1);
}

/* Learning: nothing heard for hb_interval * hb_miss, then an election. */
static void trg_learning_elects(struct kunit *test)
{
	struct t_node *n = tr_node_new(test, ELEC_ALGO_RING, 7, r5, 5);
	const struct elec_action *a;

	t_start(n);
	KUNIT_EXPECT_EQ(test, n->c.phase, ELEC_RING_LEARNING);
	KUNIT_EXPECT_EQ(test, n->c.role, ELEC_ROLE_FOLLOWER);
	KUNIT_EXPECT_EQ(test, t_timers(n), T_BIT(ELEC_TIMER_DETECT));
	KUNIT_EXPECT_EQ(test, n->c.timer_expires[ELEC_TIMER_DETECT],
			n->now + T_DETECT);
	/* the greeting: one broadcast ACK of hop 0, nothing else */
	KUNIT_EXPECT_EQ(test, t_sends(n, 0, T_ANY), 1);
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_ACK, T_ANY), 1);
	KUNIT_EXPECT_EQ(test, tr_last(n, ELEC_MSG_ACK)->msg.dst, 0);
	KUNIT_EXPECT_EQ(test, tr_hop(n, tr_last(n, ELEC_MSG_ACK)), 0);
	KUNIT_EXPECT_EQ(test, n->c.stats.tx[ELEC_MSG_ACK], 1);
	t_clear(n);
	t_fire(n, ELEC_TIMER_DETECT);
	KUNIT_EXPECT_EQ(test, n->c.stats.elections, 1);
	KUNIT_EXPECT_EQ(test, t_events(n, ELEC_EVENT_ELECTION_STARTED, T_ANY),
			1);
	KUNIT_EXPECT_EQ(test, n->c.role, ELEC_ROLE_CANDIDATE);
	KUNIT_EXPECT_TRUE(test, n->c.participant);
	KUNIT_EXPECT_EQ(test, t_sends(n, 0, T_ANY), 1);
	a = tr_last(n, ELEC_MSG_ELECTION);
	KUNIT_EXPECT_EQ(test, a->msg.dst, 5);
	KUNIT_EXPECT_EQ(test, tr_val(n, a), 7);
	KUNIT_EXPECT_EQ(test, a->msg.term, 1);
	KUNIT_EXPECT_EQ(test, n->c.timer_expires[ELEC_RING_TIMER_ACK],
			n->now + T_T);
	KUNIT_EXPECT_EQ(test, n->c.timer_expires[ELEC_RING_TIMER_ROUND],
			n->now + TR_ROUND(5));
}

/* A higher leader heard while learning is followed; silence elects. */
static void trg_heartbeats_follow(struct kunit *test)
{
	struct t_node *n = tr_node_new(test, ELEC_ALGO_RING, 7, r5, 5);
	u64 learn_end = T_START + T_DETECT;
	const struct elec_action *a;
	int i;

	tr_started(n);
	for (i = 0; i < 4; i++) {
		n->now += T_HB;
		t_clear(n);
		tr_hb(n, 9, 3);
		KUNIT_EXPECT_EQ(test, n->c.leader, 9);
		KUNIT_EXPECT_EQ(test, n->c.term, 3);
		KUNIT_EXPECT_EQ(test, n->c.phase, ELEC_RING_FOLLOWING);
		/* the first window may be longer (ring.c), not shorter */
		if (i)
			KUNIT_EXPECT_EQ(test,
					n->c.timer_expires[ELEC_TIMER_DETECT],
					n->now + T_DETECT);
		else
			KUNIT_EXPECT_GE(test,
					n->c.timer_expires[ELEC_TIMER_DETECT],
					n->now + T_DETECT);
		KUNIT_EXPECT_EQ(test, t_events(n, ELEC_EVENT_LEADER_CHANGED,
					       T_ANY), i == 0);
		KUNIT_EXPECT_EQ(test, t_sends(n, 0, T_ANY), 0);
	}
	/* the learning window's end has passed: no election */
	elec_core_timer(&n->c, ELEC_TIMER_DETECT, learn_end);
	KUNIT_EXPECT_EQ(test, n->c.stats.elections, 0);
	KUNIT_EXPECT_EQ(test, n->c.role, ELEC_ROLE_FOLLOWER);

	/* stale: older term, or same term and lower id */
	tr_hb(n, 9, 2);
	tr_hb(n, 4, 3);
	KUNIT_EXPECT_EQ(test, n->c.stats.drops[ELEC_DROP_STALE_TERM], 2);
	KUNIT_EXPECT_EQ(test, n->c.leader, 9);

	/* silence: 9 is declared failed and an election begins */
	t_clear(n);
	t_fire(n, ELEC_TIMER_DETECT);
	KUNIT_EXPECT_EQ(test, t_events(n, ELEC_EVENT_PEER_DOWN, 9), 1);
	KUNIT_EXPECT_EQ(test, elec_core_peer_find(&n->c, 9)->alive, 0);
	KUNIT_EXPECT_EQ(test, n->c.leader, 0);
	KUNIT_EXPECT_EQ(test, n->c.stats.elections, 1);
	KUNIT_EXPECT_EQ(test, t_events(n, ELEC_EVENT_ELECTION_STARTED, T_ANY),
			1);
	a = tr_last(n, ELEC_MSG_ELECTION);
	KUNIT_EXPECT_EQ(test, a->msg.term, 4);
	KUNIT_EXPECT_EQ(test, tr_val(n, a), 7);
}

static void trg_hb_leaving(struct t_node *n, u32 src, u64 term)
{
	tr_rx_flags(n, ELEC_MSG_HEARTBEAT, ELECTION_FLAG_LEAVING, src, 0, term,
		    NULL, 0);
}

/*
 * A leader that resigns (its last heartbeat flagged leaving) is marked
 * failed and a run begins at once; the flag from another node, or at
 * another term, is ignored (and refreshes nothing).
 */
static void trg_resignation(struct kunit *test)
{
	struct t_node *n = tr_node_new(test, ELEC_ALGO_RING, 7, r5, 5);
	u64 detect;

	tr_started(n);
	n->now += T_HB;
	tr_hb(n, 9, 3);
	KUNIT_ASSERT_EQ(test, n->c.leader, 9);
	detect = n->c.timer_expires[ELEC_TIMER_DETECT];

	/* not the leader, or not its term: nothing */
	n->now += T_HB;
	t_clear(n);
	trg_hb_leaving(n, 4, 3);
	trg_hb_leaving(n, 9, 2);
	KUNIT_EXPECT_EQ(test, n->n_acts, 0);
	KUNIT_EXPECT_EQ(test, n->c.leader, 9);
	KUNIT_EXPECT_EQ(test, n->c.timer_expires[ELEC_TIMER_DETECT], detect);

	/* the leader's: it is down, the run begins without waiting */
	trg_hb_leaving(n, 9, 3);
	KUNIT_EXPECT_EQ(test, n->c.leader, 0);
	KUNIT_EXPECT_EQ(test, elec_core_peer_find(&n->c, 9)->alive, 0);
	KUNIT_EXPECT_EQ(test, t_events(n, ELEC_EVENT_PEER_DOWN, 9), 1);
	KUNIT_EXPECT_EQ(test, n->c.stats.elections, 1);
	KUNIT_EXPECT_TRUE(test, n->c.participant);
	KUNIT_EXPECT_EQ(test, tr_val(n, tr_last(n, ELEC_MSG_ELECTION)), 7);
}

/* Accepting a leader with a lower id than one's own begins an election. */
static void trg_lower_leader_elects(struct kunit *test)
{
	struct t_node *n = tr_node_new(test, ELEC_ALGO_RING, 7, r5, 5);
	const struct elec_action *a;

	tr_started(n);
	tr_hb(n, 4, 2);
	KUNIT_EXPECT_EQ(test, n->c.leader, 4);
	KUNIT_EXPECT_EQ(test, t_events(n, ELEC_EVENT_LEADER_CHANGED, T_ANY),
			1);
	KUNIT_EXPECT_EQ(test, n->c.stats.elections, 1);
	KUNIT_EXPECT_TRUE(test, n->c.participant);
	a = tr_last(n, ELEC_MSG_ELECTION);
	KUNIT_EXPECT_EQ(test, a->msg.dst, 5);
	KUNIT_EXPECT_EQ(test, tr_val(n, a), 7);
	KUNIT_EXPECT_EQ(test, a->msg.term, 3);

	/* following 9, then 4 takes over in a later term */
	n = tr_node_new(test, ELEC_ALGO_RING, 7, r5, 5);
	tr_started(n);
	tr_hb(n, 9, 2);
	KUNIT_EXPECT_EQ(test, n->c.stats.elections, 0);
	t_clear(n);
	tr_hb(n, 4, 5);
	KUNIT_EXPECT_EQ(test, n->c.leader, 4);
	KUNIT_EXPECT_EQ(test, n->c.stats.elections, 1);
	KUNIT_EXPECT_EQ(test, tr_last(n, ELEC_MSG_ELECTION)->msg.term, 6);
}

/* Node 9 of r5 wins a Chang-Roberts run it began alone. */
static void trg_make_leader9(struct t_node *n)
{
	struct kunit *test = n->test;

	tr_started(n);
	elec_core_elect(&n->c, n->now);
	tr_ack_head(n);
	tr_rx_cr(n, ELEC_MSG_ELECTION, 4, n->c.ring.run, 1, 9);
	KUNIT_ASSERT_EQ(test, n->c.role, ELEC_ROLE_LEADER);
	/* the new leader's first heartbeat leaves at once (a broadcast) */
	KUNIT_ASSERT_EQ(test, t_sends(n, ELEC_MSG_HEARTBEAT, 0), 1);
	KUNIT_ASSERT_EQ(test, n->c.stats.tx[ELEC_MSG_HEARTBEAT], 1);
	tr_ack_head(n);
	tr_rx_cr(n, ELEC_MSG_COORDINATOR, 4, n->c.term, 2, 9);
	KUNIT_ASSERT_EQ(test, n->c.ring.q_len, 0);
	t_clear(n);
}

/* The leader broadcasts heartbeats carrying its term. */
static void trg_leader_heartbeats(struct kunit *test)
{
	struct t_node *n = tr_node_new(test, ELEC_ALGO_RING, 9, r5, 5);
	const struct elec_action *a;
	u64 term;
	int i;

	trg_make_leader9(n);
	term = n->c.term;
	KUNIT_EXPECT_EQ(test, t_timers(n), T_BIT(ELEC_TIMER_HEARTBEAT));
	for (i = 1; i <= 3; i++) {
		t_clear(n);
		t_fire(n, ELEC_TIMER_HEARTBEAT);
		KUNIT_EXPECT_EQ(test, t_sends(n, 0, T_ANY), 1);
		a = tr_last(n, ELEC_MSG_HEARTBEAT);
		KUNIT_EXPECT_EQ(test, a->msg.dst, 0);
		KUNIT_EXPECT_EQ(test, a->msg.term, term);
		KUNIT_EXPECT_EQ(test, a->msg.payload_len, 0);
		KUNIT_EXPECT_EQ(test, n->c.timer_expires[ELEC_TIMER_HEARTBEAT],
				n->now + T_HB);
		KUNIT_EXPECT_EQ(test, n->c.stats.tx[ELEC_MSG_HEARTBEAT], i + 1);
	}
	/* a leader of a later term, lower id: followed, then outbid */
	t_clear(n);
	tr_hb(n, 7, term + 1);
	KUNIT_EXPECT_EQ(test, n->c.leader, 7);
	KUNIT_EXPECT_EQ(test, n->c.phase, ELEC_RING_FOLLOWING);
	KUNIT_EXPECT_EQ(test, n->c.timer_expires[ELEC_TIMER_HEARTBEAT], 0);
	KUNIT_EXPECT_EQ(test, tr_last(n, ELEC_MSG_ELECTION)->msg.term,
			term + 2);
}

/* A participant that hears nothing of its run begins a new one. */
static void trg_round_timeout(struct kunit *test)
{
	struct t_node *n = tr_node_new(test, ELEC_ALGO_RING, 7, r5, 5);
	const struct elec_action *a;
	u64 run;

	tr_started(n);
	elec_core_elect(&n->c, n->now);
	run = n->c.ring.run;
	tr_ack_head(n);
	/* news of the run pushes the round timer back */
	n->now += T_T;
	t_clear(n);
	tr_rx_cr(n, ELEC_MSG_ELECTION, 2, run, 1, 9);
	KUNIT_EXPECT_EQ(test, n->c.timer_expires[ELEC_RING_TIMER_ROUND],
			n->now + TR_ROUND(5));
	tr_ack_head(n);
	t_clear(n);
	t_fire(n, ELEC_RING_TIMER_ROUND);
	KUNIT_EXPECT_EQ(test, n->c.stats.elections, 2);
	KUNIT_EXPECT_EQ(test, n->c.ring.run, run + 1);
	a = tr_last(n, ELEC_MSG_ELECTION);
	KUNIT_EXPECT_EQ(test, a->msg.term, run + 1);
	KUNIT_EXPECT_EQ(test, tr_val(n, a), 7);
	KUNIT_EXPECT_EQ(test, n->c.timer_expires[ELEC_RING_TIMER_ROUND],
			n->now + TR_ROUND(5));

	/* not a participant any more: the round timer is not armed */
	tr_ack_head(n);
	tr_rx_cr(n, ELEC_MSG_COORDINATOR, 2, run + 5, 3, 9);
	KUNIT_EXPECT_FALSE(test, n->c.participant);
	KUNIT_EXPECT_EQ(test, n->c.timer_expires[ELEC_RING_TIMER_ROUND], 0);
}

/* A message that does not fit the queue is dropped and counted. */
static void trg_queue_full(struct kunit *test)
{
	struct elec_config cfg;
	struct t_node *n;

	/*
	 * 32 bytes: one Chang-Roberts record (ring.c: a 16-byte header and
	 * 8 payload bytes) but not two.
	 */
	t_cfg_algo(&cfg, ELEC_ALGO_RING, 7);
	n = tr_node_cfg(test, &cfg, r5, 5, 32);
	tr_started(n);
	tr_rx_cr(n, ELEC_MSG_ELECTION, 2, 1, 1, 9);
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_ELECTION, 5), 1);
	t_clear(n);
	tr_rx_cr(n, ELEC_MSG_ELECTION, 2, 2, 2, 9);
	KUNIT_EXPECT_EQ(test, n->c.stats.drops[ELEC_DROP_QUEUE_FULL], 1);
	KUNIT_EXPECT_EQ(test, t_sends(n, 0, T_ANY), 1);
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_ACK, 2), 1);
	/* room again once acknowledged */
	tr_ack_head(n);
	t_clear(n);
	tr_rx_cr(n, ELEC_MSG_ELECTION, 2, 3, 3, 9);
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_ELECTION, 5), 1);
	KUNIT_EXPECT_EQ(test, n->c.stats.drops[ELEC_DROP_QUEUE_FULL], 1);

	/* no queue at all: the round timer will have to recover */
	n = tr_node_cfg(test, &cfg, r5, 5, 0);
	tr_started(n);
	elec_core_elect(&n->c, n->now);
	KUNIT_EXPECT_EQ(test, n->c.stats.drops[ELEC_DROP_QUEUE_FULL], 1);
	KUNIT_EXPECT_EQ(test, t_sends(n, 0, T_ANY), 0);
	KUNIT_EXPECT_TRUE(test, n->c.participant);
	KUNIT_EXPECT_NE(test, n->c.timer_expires[ELEC_RING_TIMER_ROUND], 0);
}

/* Stopping forgets the queue and the message in flight. */
static void trg_stop_clears(struct kunit *test)
{
	struct t_node *n = tr_node_new(test, ELEC_ALGO_RING_ALL, 2, r5, 5);
	const struct elec_action *a;
	u32 hop;

	tr_started(n);
	tr_rx_all_e(n, 9, 1, 1, 4);
	KUNIT_ASSERT_EQ(test, n->c.ring.dst, 7);
	KUNIT_ASSERT_GT(test, n->c.ring.q_len, 0);
	hop = n->c.ring.hop;
	t_clear(n);
	elec_core_stop(&n->c, n->now);
	KUNIT_EXPECT_EQ(test, n->c.ring.q_len, 0);
	KUNIT_EXPECT_EQ(test, n->c.ring.dst, 0);
	KUNIT_EXPECT_EQ(test, t_cancels(n, ELEC_RING_TIMER_ACK), 1);
	KUNIT_EXPECT_EQ(test, t_timers(n), 0);
	KUNIT_EXPECT_EQ(test, t_sends(n, 0, T_ANY), 0);
	KUNIT_EXPECT_EQ(test, t_events(n, ELEC_EVENT_STOPPED, T_ANY), 1);
	KUNIT_EXPECT_EQ(test, n->c.phase, ELEC_RING_IDLE);

	/* started again: the old ACK finds nothing, an election is alone */
	tr_started(n);
	tr_ack(n, 7, hop);
	KUNIT_EXPECT_EQ(test, t_sends(n, 0, T_ANY), 0);
	elec_core_elect(&n->c, n->now);
	KUNIT_EXPECT_EQ(test, t_sends(n, 0, T_ANY), 1);
	a = tr_last(n, ELEC_MSG_ELECTION);
	KUNIT_EXPECT_EQ(test, tr_val(n, a), 2);
	tr_ack_head(n);
	KUNIT_EXPECT_EQ(test, n->c.ring.q_len, 0);
}

/*
 * What a node knew before it stopped does not survive a start: a peer
 * declared failed is a candidate again (the ring tries it first), and a
 * term whose COORDINATOR reached it before the stop does not excuse it
 * from greeting when nothing reaches it after the start.
 */
static void trg_start_forgets(struct kunit *test)
{
	struct t_node *n = tr_node_new(test, ELEC_ALGO_RING, 7, r5, 5);
	u64 accepted;

	tr_started(n);
	tr_hb(n, 9, 3);
	tr_rx_cr(n, ELEC_MSG_COORDINATOR, 2, 3, 1, 9);
	tr_ack_head(n);
	KUNIT_ASSERT_EQ(test, n->c.ring.counted_term, 3);
	trg_down(n, 5);
	elec_core_stop(&n->c, n->now);
	t_clear(n);
	elec_core_start(&n->c, n->now);
	KUNIT_EXPECT_EQ(test, t_events(n, ELEC_EVENT_PEER_UP, 5), 1);
	KUNIT_EXPECT_EQ(test, elec_core_peer_find(&n->c, 5)->alive, 1);
	KUNIT_EXPECT_EQ(test, n->c.ring.counted_term, 0);
	/* learns the same leader and term; a round later it greets */
	n->now += T_HB;
	tr_hb(n, 9, 3);
	KUNIT_ASSERT_EQ(test, n->c.leader, 9);
	accepted = n->now;
	KUNIT_EXPECT_EQ(test, trg_hb_until(n, 3, accepted + 2 * TR_ROUND(5)),
			1);
	/* and an election goes to 5, its successor, first */
	t_clear(n);
	elec_core_elect(&n->c, n->now);
	KUNIT_EXPECT_EQ(test, tr_last(n, ELEC_MSG_ELECTION)->msg.dst, 5);
}

static void trg_expect_unknown(struct t_node *n, u64 drops)
{
	struct kunit *test = n->test;

	KUNIT_EXPECT_EQ(test, n->c.stats.drops[ELEC_DROP_UNKNOWN_PEER], drops);
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_ELECTION, T_ANY), 0);
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_COORDINATOR, T_ANY), 0);
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_ACK, T_ANY), drops);
	KUNIT_EXPECT_EQ(test, n->c.leader, 0);
	KUNIT_EXPECT_FALSE(test, n->c.participant);
	KUNIT_EXPECT_EQ(test, n->c.ring.q_len, 0);
}

/* Ids in a payload that are not in the group: acknowledged, dropped. */
static void trg_unknown_ids(struct kunit *test)
{
	static const u32 l1[] = { 4, 77 }, l2[] = { 77, 9, 2 };
	static const u32 l3[] = { 4, 9, 2, 1 };
	struct t_node *n;

	n = tr_node_new(test, ELEC_ALGO_RING, 7, r5, 5);
	tr_started(n);
	tr_rx_cr(n, ELEC_MSG_ELECTION, 2, 1, 1, 77);
	tr_rx_cr(n, ELEC_MSG_COORDINATOR, 2, 2, 2, 77);
	trg_expect_unknown(n, 2);

	n = tr_node_new(test, ELEC_ALGO_RING_ALL, 7, r5, 5);
	tr_started(n);
	tr_rx_all_e(n, 2, 1, 1, 77);
	tr_rx_all_c(n, 2, 2, 2, 77, 4);
	tr_rx_all_c(n, 2, 2, 3, 9, 77);
	trg_expect_unknown(n, 3);

	n = tr_node_new(test, ELEC_ALGO_RING_LIST, 7, r5, 5);
	tr_started(n);
	tr_rx_list(n, ELEC_MSG_ELECTION, 2, 1, 1, l1, 2);
	tr_rx_list(n, ELEC_MSG_ELECTION, 2, 1, 2, l2, 3);
	tr_rx_list(n, ELEC_MSG_COORDINATOR, 2, 2, 3, l3, 4);
	trg_expect_unknown(n, 3);
}

/*
 * Mixing algorithms in one group: frames of another algorithm (the header
 * says which) are counted as wrong_algo and change nothing, both ways.
 */
static void trg_wrong_algo(struct kunit *test)
{
	static const u8 algos[] = { ELEC_ALGO_BULLY, ELEC_ALGO_RING_ALL,
				    ELEC_ALGO_RING_LIST };
	struct t_node *n = tr_node_new(test, ELEC_ALGO_RING, 2, r5, 5);
	u8 pl[8];
	struct elec_msg m;
	u32 i;

	tr_started(n);
	tr_hb(n, 9, 3);
	KUNIT_ASSERT_EQ(test, n->c.leader, 9);
	t_clear(n);
	elec_ring_put32(pl, 1);
	elec_ring_put32(pl + 4, 2);
	for (i = 0; i < ARRAY_SIZE(algos); i++) {
		memset(&m, 0, sizeof(m));
		m.type = ELEC_MSG_COORDINATOR;
		m.algo = algos[i];
		m.group = T_GROUP;
		m.src = 7;
		m.dst = 2;
		m.term = 50;
		m.payload = algos[i] == ELEC_ALGO_BULLY ? NULL : pl;
		m.payload_len = algos[i] == ELEC_ALGO_BULLY ? 0 : 8;
		elec_core_rx(&n->c, &m, n->now);
	}
	KUNIT_EXPECT_EQ(test, n->c.stats.drops[ELEC_DROP_WRONG_ALGO],
			ARRAY_SIZE(algos));
	KUNIT_EXPECT_EQ(test, n->n_acts, 0);
	KUNIT_EXPECT_EQ(test, n->c.leader, 9);
	KUNIT_EXPECT_EQ(test, n->c.term, 3);
	KUNIT_EXPECT_EQ(test, n->c.stats.rx[ELEC_MSG_COORDINATOR], 0);

	/* and a Bully node drops a ring frame */
	n = tr_node_new(test, ELEC_ALGO_BULLY, 2, r5, 5);
	t_start(n);
	t_clear(n);
	memset(&m, 0, sizeof(m));
	m.type = ELEC_MSG_ELECTION;
	m.algo = ELEC_ALGO_RING;
	m.group = T_GROUP;
	m.src = 7;
	m.dst = 2;
	m.payload = pl;
	m.payload_len = 8;
	elec_core_rx(&n->c, &m, n->now);
	KUNIT_EXPECT_EQ(test, n->c.stats.drops[ELEC_DROP_WRONG_ALGO], 1);
	KUNIT_EXPECT_EQ(test, n->n_acts, 0);
}

static struct kunit_case elec_ring_cases[] = {
	KUNIT_CASE(trg_successor),
	KUNIT_CASE(trg_positions),
	KUNIT_CASE(trg_skip_failed),
	KUNIT_CASE(trg_greeting),
	KUNIT_CASE(trg_greeting_in_flight),
	KUNIT_CASE(trg_skipped_greets),
	KUNIT_CASE(trg_detect_late),
	KUNIT_CASE(trg_detect_in_newer_run),
	KUNIT_CASE(trg_ack_fifo),
	KUNIT_CASE(trg_ack_timeout_retry),
	KUNIT_CASE(trg_ack_timeout_adapts),
	KUNIT_CASE(trg_ack_timeout_count),
	KUNIT_CASE(trg_owner_probe),
	KUNIT_CASE(trg_owner_dead_election),
	KUNIT_CASE(trg_owner_greeted),
	KUNIT_CASE(trg_owner_dead_coordinator),
	KUNIT_CASE(trg_alone),
	KUNIT_CASE(trg_runs),
	KUNIT_CASE(trg_learning_elects),
	KUNIT_CASE(trg_heartbeats_follow),
	KUNIT_CASE(trg_resignation),
	KUNIT_CASE(trg_lower_leader_elects),
	KUNIT_CASE(trg_leader_heartbeats),
	KUNIT_CASE(trg_round_timeout),
	KUNIT_CASE(trg_queue_full),
	KUNIT_CASE(trg_stop_clears),
	KUNIT_CASE(trg_start_forgets),
	KUNIT_CASE(trg_wrong_algo),
	KUNIT_CASE(trg_unknown_ids),
	{}
};

static struct kunit_suite elec_ring_suite = {
	.name = "elec_ring",
	.test_cases = elec_ring_cases,
};

/* ---- elec_ring_net ----------------------------------------------------- */

#define TRN_SETTLE	2000000000ULL	/* 2 s */

/**
 * struct trn_net - ring instances of one configuration on a network.
 * @net: the network; its ids are in ring order (node k has position
 *	TR_POS(k))
 * @cfg: every node's configuration but the id and position
 */
struct trn_net {
	struct t_net net;
	struct elec_config cfg;
};

/* the network's init hook: a ring instance at its place in the ring */
static void trn_node_init(struct t_net *net, struct t_node *n, u32 id)
{
	struct elec_config cfg = container_of(net, struct trn_net, net)->cfg;

	cfg.self_id = id;
	tr_node_init(n, &cfg, net->ids, net->n, TR_QBYTES);
}

static struct t_net *trn_new(struct kunit *test, u8 algo, bool suppress_off,
			     const u32 *ring, u32 nr)
{
	struct trn_net *rn = kunit_kzalloc(test, sizeof(*rn), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, rn);
	t_cfg_algo(&rn->cfg, algo, 1);
	rn->cfg.suppress_off = suppress_off;
	t_net_init(&rn->net, test, ring, nr, trn_node_init);
	return &rn->net;
}

/* every live node agrees on @want, in one term, and nothing is pending */
static void trn_expect_agree(struct t_net *net, u32 want)
{
	u32 i;

	t_net_expect_agree(net, want);
	for (i = 0; i < net->n; i++) {
		struct t_node *n = net->node[i];

		if (n->up && n->c.running)
			KUNIT_EXPECT_EQ_MSG(net->test, n->c.ring.q_len, 0,
					    "node %u", n->c.cfg.self_id);
	}
}

/* started at once, settled on the highest id */
static struct t_net *trn_settled(struct kunit *test, u8 algo,
				 bool suppress_off, const u32 *ring, u32 nr)
{
	struct t_net *net = trn_new(test, algo, suppress_off, ring, nr);

	t_net_start_all(net);
	t_net_run_for(net, TRN_SETTLE);
	trn_expect_agree(net, t_net_highest_up(net));
	return net;
}

/*
 * On a settled network, @id alone begins an election; every frame of it
 * is delivered at that instant. Checks the election and coordinator
 * frames it took (on the wire and in the senders' counters), that each
 * hop was acknowledged once and nothing retried, and the outcome.
 */
static void trn_one_election(struct t_net *net, u32 id, u64 want_elec,
			     u64 want_coord)
{
	struct kunit *test = net->test;
	u64 tx_e = t_net_sum_tx(net, ELEC_MSG_ELECTION);
	u64 tx_c = t_net_sum_tx(net, ELEC_MSG_COORDINATOR);
	u64 tx_r = t_net_sum_tx(net, ELEC_MSG_RETRY);
	u64 elections = t_net_sum_elections(net);

	memset(net->sent, 0, sizeof(net->sent));
	elec_core_elect(&t_net_node(net, id)->c, net->now);
	t_net_drain(net);
	KUNIT_EXPECT_EQ_MSG(test, net->sent[ELEC_MSG_ELECTION], want_elec,
			    "initiator %u", id);
	KUNIT_EXPECT_EQ_MSG(test, net->sent[ELEC_MSG_COORDINATOR], want_coord,
			    "initiator %u", id);
	KUNIT_EXPECT_EQ_MSG(test, net->sent[ELEC_MSG_ACK],
			    want_elec + want_coord, "initiator %u", id);
	KUNIT_EXPECT_EQ_MSG(test, net->sent[ELEC_MSG_ANSWER], 0,
			    "initiator %u", id);
	KUNIT_EXPECT_EQ(test, t_net_sum_tx(net, ELEC_MSG_ELECTION) - tx_e,
			want_elec);
	KUNIT_EXPECT_EQ(test, t_net_sum_tx(net, ELEC_MSG_COORDINATOR) - tx_c,
			want_coord);
	KUNIT_EXPECT_EQ(test, t_net_sum_tx(net, ELEC_MSG_RETRY), tx_r);
	KUNIT_EXPECT_EQ(test, t_net_sum_elections(net), elections + 1);
	trn_expect_agree(net, t_net_highest_up(net));
}

/* ring hops from the node at index @from forward to the one at @to */
static u32 trn_dist(u32 from, u32 to, u32 nr)
{
	return (to + nr - from) % nr;
}

/* the ring of seven used below; 9 is at index 1, its successor is 2 */
static const u32 r7[] = { 4, 9, 2, 7, 5, 1, 8 };

/*
 * Chang-Roberts, one initiator: it takes d messages for the initiator's
 * ELECTION to reach the highest id d hops on, N for the highest id's to
 * come round, N for the elected message: 3N - 1 when the highest is the
 * initiator's predecessor, 2N when it is the initiator.
 */
static void trn_cr_counts(struct kunit *test, bool suppress_off)
{
	const u32 nr = ARRAY_SIZE(r7);
	struct t_net *net = trn_settled(test, ELEC_ALGO_RING, suppress_off,
					r7, nr);
	u32 k;

	trn_one_election(net, 2, 2 * nr - 1, nr);	/* worst: 3N - 1 */
	trn_one_election(net, 9, nr, nr);		/* best: 2N */
	for (k = 0; k < nr; k++) {
		trn_one_election(net, r7[k], nr + trn_dist(k, 1, nr), nr);
		t_net_run_for(net, 100000000ULL);
	}
	t_net_run_for(net, TRN_SETTLE);
	trn_expect_agree(net, 9);
}

static void trn_cr_one_initiator(struct kunit *test)
{
	trn_cr_counts(test, false);
}

/* The refinement of the all-ids ring: the same counts for one initiator. */
static void trn_cr_suppress_off_one_initiator(struct kunit *test)
{
	trn_cr_counts(test, true);
}

/* The all-ids ring: N "elect me" messages go round N hops; N more. */
static void trn_all_one_initiator(struct kunit *test)
{
	static const u32 r3[] = { 3, 1, 2 };
	const u32 nr = ARRAY_SIZE(r7);
	struct t_net *net;
	u32 k;

	net = trn_settled(test, ELEC_ALGO_RING_ALL, false, r7, nr);
	for (k = 0; k < nr; k++)
		trn_one_election(net, r7[k], nr * nr, nr);
	net = trn_settled(test, ELEC_ALGO_RING_ALL, false, r3, 3);
	trn_one_election(net, 1, 9, 3);
	trn_one_election(net, 3, 9, 3);
}

/* The list ring: one ELECTION and one COORDINATOR go round: 2N. */
static void trn_list_one_initiator(struct kunit *test)
{
	const u32 nr = ARRAY_SIZE(r7);
	struct t_net *net;
	u32 k;

	net = trn_settled(test, ELEC_ALGO_RING_LIST, false, r7, nr);
	for (k = 0; k < nr; k++)
		trn_one_election(net, r7[k], nr, nr);
}

/* Every node starts at the same instant and ends its learning together. */
static void trn_concurrent_start(struct kunit *test)
{
	static const u32 ring[] = { 13, 2, 11, 5, 9, 3, 8, 7 };
	struct t_net *net;
	u8 algo;

	for (algo = ELEC_ALGO_RING; algo <= ELEC_ALGO_RING_LIST; algo++) {
		net = trn_new(test, algo, false, ring, ARRAY_SIZE(ring));
		net->timers_first = true;
		t_net_start_all(net);
		t_net_run_for(net, TRN_SETTLE);
		trn_expect_agree(net, 13);
		KUNIT_EXPECT_GE_MSG(test, t_net_sum_elections(net),
				    ARRAY_SIZE(ring), "algo %u", algo);
		KUNIT_EXPECT_EQ_MSG(test, t_net_sum_tx(net, ELEC_MSG_RETRY), 0,
				    "algo %u", algo);
	}
}

/*
 * Counts when all N nodes begin in one run: in the all-ids ring every
 * node sends its own message once and each goes round (N * N); in the
 * list ring each of the N lists goes round once (N * N). Each initiator
 * announces (N hops), unless its announcement meets a later one and is
 * dropped as stale: between N and N * N.
 */
static void trn_expect_concurrent_counts(struct t_net *net, u8 algo)
{
	struct kunit *test = net->test;
	u64 nn = (u64)net->n * net->n;

	if (algo == ELEC_ALGO_RING)
		return;
	KUNIT_EXPECT_EQ_MSG(test, net->sent[ELEC_MSG_ELECTION], nn,
			    "algo %u", algo);
	KUNIT_EXPECT_GE_MSG(test, net->sent[ELEC_MSG_COORDINATOR], net->n,
			    "algo %u", algo);
	KUNIT_EXPECT_LE_MSG(test, net->sent[ELEC_MSG_COORDINATOR], nn,
			    "algo %u", algo);
}

/*
 * Every node is told to elect at the same instant. With the participant
 * flag, Chang-Roberts swallows the smaller ids; without it (suppress
 * off), every node with a higher id sends its own, so more messages go
 * round. Everyone agrees either way.
 */
static void trn_concurrent_elect(struct kunit *test)
{
	u64 elec[2] = { 0, 0 };
	struct t_net *net;
	u32 i;
	int off;
	u8 algo;

	for (algo = ELEC_ALGO_RING; algo <= ELEC_ALGO_RING_LIST; algo++) {
		for (off = 0; off < (algo == ELEC_ALGO_RING ? 2 : 1); off++) {
			net = trn_settled(test, algo, off, r7, ARRAY_SIZE(r7));
			memset(net->sent, 0, sizeof(net->sent));
			for (i = 0; i < net->n; i++)
				elec_core_elect(&net->node[i]->c, net->now);
			t_net_drain(net);
			trn_expect_agree(net, 9);
			KUNIT_EXPECT_EQ(test, t_net_sum_tx(net, ELEC_MSG_RETRY),
					0);
			trn_expect_concurrent_counts(net, algo);
			if (algo == ELEC_ALGO_RING)
				elec[off] = net->sent[ELEC_MSG_ELECTION];
			t_net_run_for(net, TRN_SETTLE);
			trn_expect_agree(net, 9);
		}
	}
	KUNIT_EXPECT_GT(test, elec[1], elec[0]);
}

/*
 * One node starts late, while a hop to it is in flight: the frame was
 * dropped there (not started), its greeting arrives before the hop
 * timeout, and the frame is sent to it again instead of it being
 * declared failed. The next run counts every node (Chang-Roberts worst
 * case, 3N - 1). Found across VMs (tests/vm/multi): the ring stayed one
 * node short for good.
 */
static void trn_late_start(struct kunit *test)
{
	static const u32 r3[] = { 1, 2, 3 };
	struct t_net *net = trn_new(test, ELEC_ALGO_RING, false, r3, 3);
	struct t_node *n1 = t_net_node(net, 1), *n3 = t_net_node(net, 3);
	u32 steps = 0;

	t_net_node(net, 2)->now = net->now;
	elec_core_start(&t_net_node(net, 2)->c, net->now);
	n3->now = net->now;
	elec_core_start(&n3->c, net->now);
	/* until 3's hop to 1 is in flight and its frame dropped at 1 */
	while (!(n3->c.ring.dst == 1 && !net->q_len)) {
		KUNIT_ASSERT_TRUE(test, t_net_step(net, net->now + TRN_SETTLE));
		KUNIT_ASSERT_LT(test, ++steps, 10000U);
	}
	n1->now = net->now;
	elec_core_start(&n1->c, net->now);
	t_net_run_for(net, TRN_SETTLE);
	trn_expect_agree(net, 3);
	KUNIT_EXPECT_EQ(test, elec_core_peer_find(&n3->c, 1)->alive, 1);
	KUNIT_EXPECT_EQ(test, t_events(n3, ELEC_EVENT_PEER_DOWN, 1), 0);
	KUNIT_EXPECT_EQ(test, n3->c.stats.tx[ELEC_MSG_RETRY], 1);
	trn_one_election(net, 1, 5, 3);
}

/*
 * Without faults nobody greets after the start: every run's COORDINATOR
 * reaches every node. Settled, then one election, then a quiet while: no
 * ACK beyond the run's own hops.
 */
static void trn_steady_no_greeting(struct kunit *test)
{
	const u32 nr = ARRAY_SIZE(r7);
	struct t_net *net;
	u8 algo;

	for (algo = ELEC_ALGO_RING; algo <= ELEC_ALGO_RING_LIST; algo++) {
		net = trn_settled(test, algo, false, r7, nr);
		memset(net->sent, 0, sizeof(net->sent));
		t_net_run_for(net, TRN_SETTLE);
		KUNIT_EXPECT_EQ_MSG(test, net->sent[ELEC_MSG_ACK], 0,
				    "algo %u settled", algo);
		trn_one_election(net, 2, algo == ELEC_ALGO_RING ? 2 * nr - 1 :
				 algo == ELEC_ALGO_RING_ALL ? nr * nr : nr, nr);
		memset(net->sent, 0, sizeof(net->sent));
		t_net_run_for(net, TRN_SETTLE);
		KUNIT_EXPECT_EQ_MSG(test, net->sent[ELEC_MSG_ACK], 0,
				    "algo %u after a run", algo);
		KUNIT_EXPECT_GT(test, net->sent[ELEC_MSG_HEARTBEAT], 0);
	}
}

/*
 * A live node that its predecessor declared failed (a hop timed out) is
 * skipped by the next run, and nothing it sends reaches that predecessor.
 * No ring frame of the new term reaches it either: a round after it
 * accepts the new leader it greets, and the run after that counts every
 * node again (2N from the highest id).
 */
static void trn_skipped_rejoins(struct kunit *test)
{
	const u32 nr = ARRAY_SIZE(r7);
	struct t_net *net;
	u8 algo;

	for (algo = ELEC_ALGO_RING; algo <= ELEC_ALGO_RING_LIST; algo++) {
		struct t_node *n9, *n2;
		u64 tx_ack;

		net = trn_settled(test, algo, false, r7, nr);
		n9 = t_net_node(net, 9);
		n2 = t_net_node(net, 2);
		elec_core_peer_set_alive(&n9->c, elec_core_peer_find(&n9->c, 2),
					 false, net->now);
		tx_ack = n2->c.stats.tx[ELEC_MSG_ACK];
		elec_core_elect(&n9->c, net->now);
		t_net_drain(net);
		/* 2 learns the term from the next heartbeat */
		t_net_run_for(net, T_HB);
		trn_expect_agree(net, 9);
		/* skipped: 2 acknowledged nothing, is counted down still */
		KUNIT_EXPECT_EQ_MSG(test, n2->c.stats.tx[ELEC_MSG_ACK], tx_ack,
				    "algo %u", algo);
		KUNIT_EXPECT_EQ_MSG(test, n2->c.term, n9->c.term,
				    "algo %u", algo);
		KUNIT_EXPECT_EQ_MSG(test,
				    elec_core_peer_find(&n9->c, 2)->alive, 0,
				    "algo %u", algo);
		t_net_run_for(net, TRN_SETTLE);
		KUNIT_EXPECT_EQ_MSG(test,
				    elec_core_peer_find(&n9->c, 2)->alive, 1,
				    "algo %u", algo);
		KUNIT_EXPECT_EQ_MSG(test, n2->c.stats.tx[ELEC_MSG_ACK],
				    tx_ack + 1, "algo %u", algo);
		trn_one_election(net, 9, algo == ELEC_ALGO_RING_ALL ?
				 nr * nr : nr, nr);
	}
}

/*
 * The coordinator crashes; the failure detector starts elections and the
 * ring skips the dead node. Then a non-coordinator crashes too, and the
 * new coordinator after it: the ring skips both. Then the first one comes
 * back and takes over again.
 */
static void trn_crashes(struct kunit *test)
{
	static const u32 ring[] = { 4, 9, 2, 7, 5, 1, 8, 6 };
	struct t_net *net;
	u8 algo;

	for (algo = ELEC_ALGO_RING; algo <= ELEC_ALGO_RING_LIST; algo++) {
		net = trn_settled(test, algo, false, ring, ARRAY_SIZE(ring));

		t_net_crash(net, 9);
		t_net_run_for(net, TRN_SETTLE);
		trn_expect_agree(net, 8);
		KUNIT_EXPECT_EQ_MSG(test,
				    elec_core_peer_find(&t_net_node(net, 4)->c,
							9)->alive, 0,
				    "algo %u", algo);

		t_net_crash(net, 5);
		t_net_run_for(net, TRN_SETTLE);
		trn_expect_agree(net, 8);
		t_net_crash(net, 8);
		t_net_run_for(net, TRN_SETTLE);
		trn_expect_agree(net, 7);
		/* 7's predecessor 2 had to skip 5 to reach 7's successor */
		KUNIT_EXPECT_GT_MSG(test, t_net_sum_tx(net, ELEC_MSG_RETRY), 0,
				    "algo %u", algo);

		t_net_reboot(net, 9);
		t_net_run_for(net, TRN_SETTLE);
		trn_expect_agree(net, 9);
	}
}

/* The refinement survives a coordinator crash too. */
static void trn_crash_suppress_off(struct kunit *test)
{
	struct t_net *net;

	net = trn_settled(test, ELEC_ALGO_RING, true, r7, ARRAY_SIZE(r7));
	t_net_crash(net, 9);
	t_net_run_for(net, TRN_SETTLE);
	trn_expect_agree(net, 8);
	t_net_crash(net, 8);
	t_net_run_for(net, TRN_SETTLE);
	trn_expect_agree(net, 7);
}

/*
 * One random step: a crash or a reboot, an elect command, or an elect
 * command and a crash of another node while the election is under way
 * (after a random number of deliveries).
 */
static void trn_random_step(struct t_net *net, u32 *seed)
{
	struct t_node *n = net->node[t_rand(seed) % net->n];
	struct t_node *m = net->node[t_rand(seed) % net->n];
	u32 i, k, up = 0;

	for (i = 0; i < net->n; i++)
		up += net->node[i]->up;
	switch (t_rand(seed) % 4) {
	case 0:
		if (n->up && up > 1)
			t_net_crash(net, n->c.cfg.self_id);
		else if (!n->up)
			t_net_reboot(net, n->c.cfg.self_id);
		break;
	case 1:
		if (!n->up)
			t_net_reboot(net, n->c.cfg.self_id);
		break;
	case 2:
		if (n->up)
			elec_core_elect(&n->c, net->now);
		break;
	default:
		if (!n->up || !m->up || m == n || up < 3)
			break;
		elec_core_elect(&n->c, net->now);
		for (k = t_rand(seed) % 40; k && t_net_step(net, net->now); k--)
			;
		t_net_crash(net, m->c.cfg.self_id);
		break;
	}
}

/* Random crashes, reboots and elections; after each, agreement. */
static void trn_random_failures(struct kunit *test)
{
	static const u32 ring[] = { 20, 5, 33, 2, 50, 11, 9, 34 };
	struct t_net *net;
	u32 seed = 0x2545f491;
	u32 round;
	int off;
	u8 algo;

	for (algo = ELEC_ALGO_RING; algo <= ELEC_ALGO_RING_LIST; algo++) {
		for (off = 0; off < (algo == ELEC_ALGO_RING ? 2 : 1); off++) {
			net = trn_settled(test, algo, off, ring,
					  ARRAY_SIZE(ring));
			for (round = 0; round < 40; round++) {
				trn_random_step(net, &seed);
				t_net_run_for(net, TRN_SETTLE);
				trn_expect_agree(net, t_net_highest_up(net));
			}
		}
	}
}

/* ---- standby ---- */

/* the ring configurations: Chang-Roberts (suppress on, off), all, list */
#define TRN_CONFIGS	4

static u8 trn_cfg_algo(u32 k)
{
	return k < 2 ? ELEC_ALGO_RING : k == 2 ? ELEC_ALGO_RING_ALL :
	       ELEC_ALGO_RING_LIST;
}

/* tracked standby of node @id on or off, at the network's time */
static void trn_standby(struct t_net *net, u32 id, bool on)
{
	struct t_node *n = t_net_node(net, id);

	n->now = net->now;
	tr_standby(n, on);
}

/* the highest id of a live node not in standby; 0 when there is none */
static u32 trn_best(struct t_net *net)
{
	u32 i, best = 0;

	for (i = 0; i < net->n; i++) {
		struct t_node *n = net->node[i];

		if (n->up && n->c.running && !elec_core_standby(&n->c) &&
		    n->c.cfg.self_id > best)
			best = n->c.cfg.self_id;
	}
	return best;
}

/* no live node leads, takes part in a run or has a message to pass */
static void trn_expect_none(struct t_net *net)
{
	u32 i;

	for (i = 0; i < net->n; i++) {
		struct t_node *n = net->node[i];
		u32 id = n->c.cfg.self_id;

		if (!n->up || !n->c.running)
			continue;
		KUNIT_EXPECT_EQ_MSG(net->test, n->c.leader, 0, "node %u", id);
		KUNIT_EXPECT_EQ_MSG(net->test, n->c.role, ELEC_ROLE_FOLLOWER,
				    "node %u", id);
		KUNIT_EXPECT_FALSE_MSG(net->test, n->c.participant, "node %u",
				       id);
		KUNIT_EXPECT_EQ_MSG(net->test, n->c.ring.q_len, 0, "node %u",
				    id);
	}
}

/* the best live node not in standby leads, or none when all are in it */
static void trn_expect_best(struct t_net *net)
{
	u32 best = trn_best(net);

	if (best)
		trn_expect_agree(net, best);
	else
		trn_expect_none(net);
}

/*
 * The highest id in admin standby from the start never leads, nor begins
 * a run, not even when told to elect: the next best id wins, and the
 * one after it when that one crashes.
 */
static void trn_standby_highest(struct kunit *test)
{
	struct t_net *net;
	struct t_node *n9;
	u32 k;

	for (k = 0; k < TRN_CONFIGS; k++) {
		net = trn_new(test, trn_cfg_algo(k), k == 1, r7,
			      ARRAY_SIZE(r7));
		n9 = t_net_node(net, 9);
		n9->c.cfg.standby = true;
		t_net_start_all(net);
		t_net_run_for(net, TRN_SETTLE);
		trn_expect_agree(net, 8);
		t_net_crash(net, 8);
		t_net_run_for(net, TRN_SETTLE);
		trn_expect_agree(net, 7);
		elec_core_elect(&n9->c, net->now);
		t_net_run_for(net, TRN_SETTLE);
		trn_expect_agree(net, 7);
		KUNIT_EXPECT_EQ_MSG(test, n9->c.stats.elections, 0, "config %u",
				    k);
	}
}

/*
 * The leader set to standby resigns (a LEAVING heartbeat) and steps
 * down; the next best id is elected, and the ring counts the old leader
 * still (its predecessor does not skip it). Leaving standby, it takes
 * the leadership back.
 */
static void trn_standby_leader(struct kunit *test)
{
	const struct elec_action *a;
	struct t_net *net;
	struct t_node *n9;
	u32 k, i;

	for (k = 0; k < TRN_CONFIGS; k++) {
		net = trn_settled(test, trn_cfg_algo(k), k == 1, r7,
				  ARRAY_SIZE(r7));
		n9 = t_net_node(net, 9);
		t_clear(n9);
		trn_standby(net, 9, true);
		a = tr_last(n9, ELEC_MSG_HEARTBEAT);
		KUNIT_EXPECT_TRUE_MSG(test, a->msg.flags & ELECTION_FLAG_LEAVING,
				      "config %u", k);
		KUNIT_EXPECT_EQ_MSG(test, n9->c.leader, 0, "config %u", k);
		KUNIT_EXPECT_EQ_MSG(test, n9->c.role, ELEC_ROLE_FOLLOWER,
				    "config %u", k);
		t_net_run_for(net, TRN_SETTLE);
		trn_expect_agree(net, 8);
		for (i = 0; i < net->n; i++) {
			struct t_node *n = net->node[i];
			struct elec_peer *p = elec_core_peer_find(&n->c, 9);

			if (n != n9)
				KUNIT_EXPECT_TRUE_MSG(test, p && p->alive,
						      "config %u node %u", k,
						      n->c.cfg.self_id);
		}
		trn_standby(net, 9, false);
		t_net_run_for(net, TRN_SETTLE);
		trn_expect_agree(net, 9);
	}
}

/*
 * Every node in standby, the leader (9) last: none leads and the group
 * falls quiet (not a frame in a long while). The old leader, which its
 * followers counted failed when it resigned, greeted: every node counts
 * every other alive. One node leaving standby is elected.
 */
static void trn_standby_all(struct kunit *test)
{
	struct t_net *net;
	u32 k, i, j, type;
	u64 sent;

	for (k = 0; k < TRN_CONFIGS; k++) {
		net = trn_settled(test, trn_cfg_algo(k), k == 1, r7,
				  ARRAY_SIZE(r7));
		for (i = 0; i < net->n; i++) {
			trn_standby(net, r7[(i + 2) % net->n], true);
			t_net_run_for(net, T_HB);
		}
		t_net_run_for(net, TRN_SETTLE);
		trn_expect_none(net);
		for (i = 0; i < net->n; i++) {
			struct elec_core *c = &net->node[i]->c;

			for (j = 0; j < c->n_peers; j++)
				KUNIT_EXPECT_TRUE_MSG(test, c->peers[j].alive,
						      "config %u node %u peer %u",
						      k, c->cfg.self_id,
						      c->peers[j].id);
		}
		memset(net->sent, 0, sizeof(net->sent));
		t_net_run_for(net, 2 * TRN_SETTLE);
		for (sent = 0, type = 0; type <= ELEC_MSG_MAX; type++)
			sent += net->sent[type];
		KUNIT_EXPECT_EQ_MSG(test, sent, 0, "config %u", k);
		trn_expect_none(net);
		trn_standby(net, 5, false);
		t_net_run_for(net, TRN_SETTLE);
		trn_expect_agree(net, 5);
	}
}

/*
 * Random crashes, reboots, elections and standby changes (a rebooted
 * node is not in standby): after each, the best live node not in
 * standby leads, or none does.
 */
static void trn_standby_random(struct kunit *test)
{
	static const u32 ring[] = { 20, 5, 33, 2, 50, 11, 9, 34 };
	struct t_net *net;
	u32 seed = 0x9e3779b9;
	u32 round, k;

	for (k = 0; k < TRN_CONFIGS; k++) {
		net = trn_settled(test, trn_cfg_algo(k), k == 1, ring,
				  ARRAY_SIZE(ring));
		for (round = 0; round < 40; round++) {
			struct t_node *n = net->node[t_rand(&seed) % net->n];

			if (t_rand(&seed) % 2)
				trn_random_step(net, &seed);
			if (n->up)
				trn_standby(net, n->c.cfg.self_id,
					    !elec_core_standby(&n->c));
			t_net_run_for(net, TRN_SETTLE);
			trn_expect_best(net);
		}
	}
}

static struct kunit_case elec_ring_net_cases[] = {
	KUNIT_CASE(trn_cr_one_initiator),
	KUNIT_CASE(trn_cr_suppress_off_one_initiator),
	KUNIT_CASE(trn_all_one_initiator),
	KUNIT_CASE(trn_list_one_initiator),
	KUNIT_CASE(trn_concurrent_start),
	KUNIT_CASE(trn_concurrent_elect),
	KUNIT_CASE(trn_late_start),
	KUNIT_CASE(trn_skipped_rejoins),
	KUNIT_CASE(trn_steady_no_greeting),
	KUNIT_CASE(trn_crashes),
	KUNIT_CASE(trn_crash_suppress_off),
	KUNIT_CASE(trn_random_failures),
	KUNIT_CASE(trn_standby_highest),
	KUNIT_CASE(trn_standby_leader),
	KUNIT_CASE(trn_standby_all),
	KUNIT_CASE(trn_standby_random),
	{}
};

static struct kunit_suite elec_ring_net_suite = {
	.name = "elec_ring_net",
	.test_cases = elec_ring_net_cases,
};

kunit_test_suites(&elec_ring_suite, &elec_ring_net_suite);
