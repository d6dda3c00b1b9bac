// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the protocol core's defences against hostile frames
 * (module/core/core.c and the algorithms' use of them):
 *  - terms saturate at U64_MAX and never wrap;
 *  - a term more than ELECTION_TERM_MAX_AHEAD above the node's max_term is
 *    dropped as term_too_far, by followers and leaders alike, unless the
 *    node is learning (started, no leader since);
 *  - a frame whose link-layer source is not the configured peer's address
 *    is dropped as wrong_lladdr;
 *  - elections started by received frames are rate limited (a burst of
 *    ELECTION_RX_ELECT_BURST, then one per coord-timeout), counted in
 *    elections_limited; answers are never limited; a lower leader's next
 *    heartbeat asks again;
 *  - the largest frame of each algorithm (elec_config_max_frame()), which
 *    the kernel checks against the device's MTU.
 *
 * Like the other suites, it also runs in userspace (tests/core).
 */
#include "elec_kunit_net.h"
#include "elec_kunit_ring.h"
#include "ring.h"

#define TG_FAR		ELECTION_TERM_MAX_AHEAD
#define TG_BURST	ELECTION_RX_ELECT_BURST

static const u32 tg_ids5[] = { 1, 2, 3, 4, 5 };
static const u8 tg_mac_good[ELEC_LLADDR_LEN] = { 2, 0, 0, 0, 0, 4 };
static const u8 tg_mac_bad[ELEC_LLADDR_LEN] = { 2, 0, 0, 0, 0, 9 };

/* a Bully node @self of tg_ids5; peer 4 has address tg_mac_good */
static struct t_node *tg_bully(struct kunit *test, u32 self)
{
	struct t_node *n = t_node_alloc(test);
	struct elec_config cfg;

	t_cfg_algo(&cfg, ELEC_ALGO_BULLY, self);
	t_node_setup(n, &cfg, tg_ids5, ARRAY_SIZE(tg_ids5), 4, tg_mac_good);
	return n;
}

/* a Bully frame from @src (link-layer source @mac, NULL: unknown) */
static void tg_rx(struct t_node *n, u8 type, u32 src, u32 dst, u64 term,
		  const u8 *mac)
{
	struct elec_msg m;

	memset(&m, 0, sizeof(m));
	m.type = type;
	m.algo = ELEC_ALGO_BULLY;
	m.group = T_GROUP;
	m.src = src;
	m.dst = dst;
	m.term = term;
	m.src_lladdr = mac;
	elec_core_rx(&n->c, &m, n->now);
}

/* node 5 started and, with nobody higher, leader in term 1 */
static void tg_leader5(struct t_node *n)
{
	t_start(n);
	t_fire(n, ELEC_TIMER_DETECT);
	KUNIT_ASSERT_EQ(n->test, n->c.role, ELEC_ROLE_LEADER);
	KUNIT_ASSERT_EQ(n->test, n->c.term, 1);
	t_clear(n);
}

/* node 3 following leader 5 in @term */
static void tg_follower3(struct t_node *n, u64 term)
{
	t_start(n);
	tg_rx(n, ELEC_MSG_HEARTBEAT, 5, 0, term, NULL);
	/* learning: it calls an election; 5 answers and announces */
	tg_rx(n, ELEC_MSG_ANSWER, 5, 3, term, NULL);
	tg_rx(n, ELEC_MSG_COORDINATOR, 5, 3, term + 1, NULL);
	KUNIT_ASSERT_EQ(n->test, n->c.phase, ELEC_BULLY_FOLLOWING);
	KUNIT_ASSERT_EQ(n->test, n->c.leader, 5);
	KUNIT_ASSERT_FALSE(n->test, n->c.learning);
	t_clear(n);
}

/* ---- terms --------------------------------------------------------------- */

static void tg_term_next_saturates(struct kunit *test)
{
	struct t_node *n = tg_bully(test, 5);

	n->c.max_term = U64_MAX - 2;
	KUNIT_EXPECT_EQ(test, elec_core_term_next(&n->c), U64_MAX - 1);
	KUNIT_EXPECT_EQ(test, elec_core_term_next(&n->c), U64_MAX);
	KUNIT_EXPECT_EQ(test, elec_core_term_next(&n->c), U64_MAX);
	KUNIT_EXPECT_EQ(test, n->c.max_term, U64_MAX);
}

/*
 * A learning node takes a term near the top from a configured peer, and
 * its own announcements then stay at U64_MAX: no wrap to 0, which every
 * other node would refuse as stale.
 */
static void tg_term_no_wrap(struct kunit *test)
{
	struct t_node *n = tg_bully(test, 5);

	t_start(n);
	tg_rx(n, ELEC_MSG_HEARTBEAT, 4, 0, U64_MAX - 1, NULL);
	/* accepted while learning, and 5 bullies the lower leader at once */
	KUNIT_EXPECT_EQ(test, n->c.stats.drops[ELEC_DROP_TERM_TOO_FAR], 0);
	KUNIT_EXPECT_EQ(test, n->c.role, ELEC_ROLE_LEADER);
	KUNIT_EXPECT_EQ(test, n->c.term, U64_MAX);
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_COORDINATOR, T_ANY), 4);
	KUNIT_EXPECT_EQ(test, t_last_send(test, n)->msg.term, U64_MAX);

	/* a new run later: still U64_MAX */
	t_clear(n);
	n->now += T_COORD;
	elec_core_elect(&n->c, n->now);
	KUNIT_EXPECT_EQ(test, n->c.term, U64_MAX);
	KUNIT_EXPECT_EQ(test, n->c.max_term, U64_MAX);
	KUNIT_EXPECT_EQ(test, t_last_send(test, n)->msg.term, U64_MAX);
}

/* a follower refuses every frame type with a term too far ahead */
static void tg_term_too_far_follower(struct kunit *test)
{
	static const u8 types[] = {
		ELEC_MSG_ELECTION, ELEC_MSG_ANSWER, ELEC_MSG_COORDINATOR,
		ELEC_MSG_HEARTBEAT,
	};
	struct t_node *n = tg_bully(test, 3);
	u64 max, far, hb;
	u32 i;

	tg_follower3(n, 6);
	hb = n->c.stats.rx[ELEC_MSG_HEARTBEAT];
	max = n->c.max_term;
	far = max + TG_FAR + 1;
	for (i = 0; i < ARRAY_SIZE(types); i++) {
		u32 src = types[i] == ELEC_MSG_ELECTION ? 1 : 5;

		tg_rx(n, types[i], src, types[i] == ELEC_MSG_HEARTBEAT ? 0 : 3,
		      far, NULL);
	}
	KUNIT_EXPECT_EQ(test, n->c.stats.drops[ELEC_DROP_TERM_TOO_FAR],
			ARRAY_SIZE(types));
	KUNIT_EXPECT_EQ(test, n->c.max_term, max);
	KUNIT_EXPECT_EQ(test, n->c.leader, 5);
	KUNIT_EXPECT_EQ(test, n->c.phase, ELEC_BULLY_FOLLOWING);
	KUNIT_EXPECT_EQ(test, n->n_acts, 0);
	KUNIT_EXPECT_EQ(test, n->c.stats.rx[ELEC_MSG_HEARTBEAT], hb);

	/* exactly ELECTION_TERM_MAX_AHEAD ahead is still in bounds */
	tg_rx(n, ELEC_MSG_COORDINATOR, 5, 3, max + TG_FAR, NULL);
	KUNIT_EXPECT_EQ(test, n->c.stats.drops[ELEC_DROP_TERM_TOO_FAR],
			ARRAY_SIZE(types));
	KUNIT_EXPECT_EQ(test, n->c.term, max + TG_FAR);
	KUNIT_EXPECT_EQ(test, n->c.leader, 5);
}

/* the leader too: the forged ELECTION of the review changes nothing */
static void tg_term_too_far_leader(struct kunit *test)
{
	struct t_node *n = tg_bully(test, 5);

	tg_leader5(n);
	tg_rx(n, ELEC_MSG_ELECTION, 1, 0, U64_MAX, NULL);
	KUNIT_EXPECT_EQ(test, n->c.stats.drops[ELEC_DROP_TERM_TOO_FAR], 1);
	KUNIT_EXPECT_EQ(test, n->c.term, 1);
	KUNIT_EXPECT_EQ(test, n->c.max_term, 1);
	KUNIT_EXPECT_EQ(test, n->c.role, ELEC_ROLE_LEADER);
	KUNIT_EXPECT_EQ(test, n->n_acts, 0);

	/* its next heartbeat still carries term 1 */
	t_fire(n, ELEC_TIMER_HEARTBEAT);
	KUNIT_EXPECT_EQ(test, t_last_send(test, n)->msg.term, 1);
}

/* learning: any term from a configured peer; never from a stranger */
static void tg_term_learning(struct kunit *test)
{
	struct t_node *n = tg_bully(test, 3);

	t_start(n);
	KUNIT_EXPECT_TRUE(test, n->c.learning);
	tg_rx(n, ELEC_MSG_HEARTBEAT, 99, 0, U64_MAX / 2, NULL);
	KUNIT_EXPECT_EQ(test, n->c.stats.drops[ELEC_DROP_UNKNOWN_PEER], 1);
	KUNIT_EXPECT_EQ(test, n->c.max_term, 0);

	tg_rx(n, ELEC_MSG_HEARTBEAT, 5, 0, U64_MAX / 2, NULL);
	KUNIT_EXPECT_EQ(test, n->c.stats.drops[ELEC_DROP_TERM_TOO_FAR], 0);
	KUNIT_EXPECT_EQ(test, n->c.max_term, U64_MAX / 2);
	KUNIT_EXPECT_EQ(test, n->c.leader, 5);
	KUNIT_EXPECT_FALSE(test, n->c.learning);

	/* no longer learning: the next far term is refused */
	tg_rx(n, ELEC_MSG_ANSWER, 5, 3, U64_MAX / 2 + TG_FAR + 1, NULL);
	KUNIT_EXPECT_EQ(test, n->c.stats.drops[ELEC_DROP_TERM_TOO_FAR], 1);

	/* a stop and a start make it learn again */
	elec_core_stop(&n->c, n->now);
	t_start(n);
	KUNIT_EXPECT_TRUE(test, n->c.learning);
}

/* near the top, "too far" saturates: nothing is refused up there */
static void tg_term_too_far_saturates(struct kunit *test)
{
	struct t_node *n = tg_bully(test, 3);

	tg_follower3(n, U64_MAX - 10);
	tg_rx(n, ELEC_MSG_HEARTBEAT, 5, 0, U64_MAX, NULL);
	KUNIT_EXPECT_EQ(test, n->c.stats.drops[ELEC_DROP_TERM_TOO_FAR], 0);
	KUNIT_EXPECT_EQ(test, n->c.term, U64_MAX);
}

/* ---- link-layer source ------------------------------------------------------ */

static void tg_wrong_lladdr(struct kunit *test)
{
	struct t_node *n = tg_bully(test, 5);

	tg_leader5(n);
	/* peer 4 is configured with tg_mac_good */
	tg_rx(n, ELEC_MSG_ELECTION, 4, 5, 1, tg_mac_bad);
	KUNIT_EXPECT_EQ(test, n->c.stats.drops[ELEC_DROP_WRONG_LLADDR], 1);
	KUNIT_EXPECT_EQ(test, n->c.stats.rx[ELEC_MSG_ELECTION], 0);
	KUNIT_EXPECT_EQ(test, n->n_acts, 0);

	tg_rx(n, ELEC_MSG_ELECTION, 4, 5, 1, tg_mac_good);
	KUNIT_EXPECT_EQ(test, n->c.stats.drops[ELEC_DROP_WRONG_LLADDR], 1);
	KUNIT_EXPECT_EQ(test, n->c.stats.rx[ELEC_MSG_ELECTION], 1);
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_ANSWER, 4), 1);

	/* an embedder that does not know the source checks nothing */
	tg_rx(n, ELEC_MSG_ELECTION, 4, 5, 1, NULL);
	KUNIT_EXPECT_EQ(test, n->c.stats.rx[ELEC_MSG_ELECTION], 2);

	/* peer 2 has no address configured (zeroes): any other is wrong */
	tg_rx(n, ELEC_MSG_ELECTION, 2, 5, 1, tg_mac_good);
	KUNIT_EXPECT_EQ(test, n->c.stats.drops[ELEC_DROP_WRONG_LLADDR], 2);
}

/*
 * The source address each peer's frames came from (what "show" reports as
 * seen_lladdr): recorded for a frame dropped as wrong_lladdr and for one
 * accepted, not without an address, not for an unknown sender.
 */
static void tg_seen_lladdr(struct kunit *test)
{
	struct t_node *n = tg_bully(test, 5);
	struct elec_peer *p4 = elec_core_peer_find(&n->c, 4);

	tg_leader5(n);
	KUNIT_ASSERT_NOT_NULL(test, p4);
	KUNIT_EXPECT_EQ(test, p4->seen_lladdr[5], 0);
	tg_rx(n, ELEC_MSG_ELECTION, 4, 5, 1, tg_mac_bad);
	KUNIT_EXPECT_EQ(test, memcmp(p4->seen_lladdr, tg_mac_bad, 6), 0);
	tg_rx(n, ELEC_MSG_ELECTION, 4, 5, 1, tg_mac_good);
	KUNIT_EXPECT_EQ(test, memcmp(p4->seen_lladdr, tg_mac_good, 6), 0);
	/* no source given: the last one stays */
	tg_rx(n, ELEC_MSG_ELECTION, 4, 5, 1, NULL);
	KUNIT_EXPECT_EQ(test, memcmp(p4->seen_lladdr, tg_mac_good, 6), 0);
	/* an unknown sender is nobody's */
	tg_rx(n, ELEC_MSG_ELECTION, 99, 5, 1, tg_mac_bad);
	KUNIT_EXPECT_EQ(test, memcmp(p4->seen_lladdr, tg_mac_good, 6), 0);
	KUNIT_EXPECT_EQ(test, n->c.stats.drops[ELEC_DROP_UNKNOWN_PEER], 1);
}

/* ---- rate limit of elections started by received frames -------------------- */

/*
 * Node 2 (peers 1, 3, 4, 5): every ELECTION from 1 is answered; each that
 * finds it idle would begin a run, sending to 3, 4 and 5. Between the
 * frames the node is restarted (learning: no run, no leader to trust), so
 * neither the participant flag nor trust in a leader stops it: only the
 * rate limit does (a stop keeps the allowance).
 */
static void tg_restart(struct t_node *n)
{
	elec_core_stop(&n->c, n->now);
	t_start(n);
}

static void tg_rate_limit_bully(struct kunit *test)
{
	struct t_node *n = tg_bully(test, 2);
	u32 i, frames = 3 * TG_BURST + 5;

	t_start(n);
	t_clear(n);

	for (i = 0; i < frames; i++) {
		tg_rx(n, ELEC_MSG_ELECTION, 1, 2, n->c.max_term, NULL);
		tg_restart(n);
	}
	KUNIT_EXPECT_EQ(test, n->c.stats.elections, TG_BURST);
	KUNIT_EXPECT_EQ(test, n->c.stats.elections_limited, frames - TG_BURST);
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_ANSWER, 1), frames);
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_ELECTION, T_ANY),
			3 * TG_BURST);

	/* one coord-timeout later, one more */
	n->now += T_COORD;
	tg_rx(n, ELEC_MSG_ELECTION, 1, 2, n->c.max_term, NULL);
	KUNIT_EXPECT_EQ(test, n->c.stats.elections, TG_BURST + 1);
	tg_restart(n);
	tg_rx(n, ELEC_MSG_ELECTION, 1, 2, n->c.max_term, NULL);
	KUNIT_EXPECT_EQ(test, n->c.stats.elections, TG_BURST + 1);
	KUNIT_EXPECT_EQ(test, n->c.stats.elections_limited,
			frames - TG_BURST + 1);

	/* timers and the administrator are never limited */
	elec_core_elect(&n->c, n->now);
	KUNIT_EXPECT_EQ(test, n->c.stats.elections, TG_BURST + 2);
}

/* a refused bully is retried by the lower leader's next heartbeat */
static void tg_rate_limit_heartbeat_retry(struct kunit *test)
{
	struct t_node *n = tg_bully(test, 5);
	u64 limited;

	t_start(n);
	/* the allowance is used up */
	n->c.elect_tat = n->now + T_COORD * TG_BURST;
	tg_rx(n, ELEC_MSG_HEARTBEAT, 3, 0, 4, NULL);
	KUNIT_EXPECT_EQ(test, n->c.leader, 3);
	KUNIT_EXPECT_EQ(test, n->c.phase, ELEC_BULLY_FOLLOWING);
	KUNIT_EXPECT_EQ(test, n->c.stats.elections, 0);
	KUNIT_EXPECT_EQ(test, n->c.stats.elections_limited, 1);
	KUNIT_EXPECT_NE(test, n->c.timer_expires[ELEC_TIMER_DETECT], 0);
	limited = n->c.stats.elections_limited;

	/* still no allowance: the heartbeat only keeps 3 alive */
	n->now += T_HB;
	tg_rx(n, ELEC_MSG_HEARTBEAT, 3, 0, 4, NULL);
	KUNIT_EXPECT_EQ(test, n->c.stats.elections, 0);
	KUNIT_EXPECT_EQ(test, n->c.stats.elections_limited, limited + 1);

	/* allowance back: the next heartbeat makes 5 take over */
	n->now += T_COORD * TG_BURST;
	t_clear(n);
	tg_rx(n, ELEC_MSG_HEARTBEAT, 3, 0, 4, NULL);
	KUNIT_EXPECT_EQ(test, n->c.stats.elections, 1);
	KUNIT_EXPECT_EQ(test, n->c.role, ELEC_ROLE_LEADER);
	KUNIT_EXPECT_EQ(test, n->c.term, 5);
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_COORDINATOR, T_ANY), 4);
}

/* the ring algorithms: a lower leader's announcement is limited too */
static void tg_rate_limit_ring(struct kunit *test)
{
	static const u32 ring[] = { 1, 2, 3, 4, 5 };
	struct t_node *n = tr_node_new(test, ELEC_ALGO_RING, 5, ring, 5);
	u64 tat;

	tr_started(n);
	tat = n->now + T_COORD * TG_BURST;
	n->c.elect_tat = tat;
	tr_hb(n, 3, 4);
	KUNIT_EXPECT_EQ(test, n->c.leader, 3);
	KUNIT_EXPECT_FALSE(test, n->c.participant);
	KUNIT_EXPECT_EQ(test, n->c.stats.elections, 0);
	KUNIT_EXPECT_EQ(test, n->c.stats.elections_limited, 1);
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_ELECTION, T_ANY), 0);

	/* allowance back: the next heartbeat begins the run */
	n->now = tat;
	tr_hb(n, 3, 4);
	KUNIT_EXPECT_EQ(test, n->c.stats.elections, 1);
	KUNIT_EXPECT_TRUE(test, n->c.participant);
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_ELECTION, 1), 1);
}

/* the cell rate: a burst, then one per coord-timeout, whatever the gaps */
static void tg_rate_limit_cell(struct kunit *test)
{
	struct t_node *n = tg_bully(test, 5);
	u32 i, ok = 0;

	for (i = 0; i < 100; i++)
		ok += elec_core_rx_may_elect(&n->c, n->now);
	KUNIT_EXPECT_EQ(test, ok, TG_BURST);

	/* 3 coord-timeouts later: 3 more, not a new burst */
	n->now += 3 * T_COORD;
	for (i = 0, ok = 0; i < 100; i++)
		ok += elec_core_rx_may_elect(&n->c, n->now);
	KUNIT_EXPECT_EQ(test, ok, 3);
	KUNIT_EXPECT_EQ(test, n->c.stats.elections_limited,
			200 - TG_BURST - 3);

	/* a long silence: the full burst again, never more */
	n->now += 1000 * T_COORD;
	for (i = 0, ok = 0; i < 100; i++)
		ok += elec_core_rx_may_elect(&n->c, n->now);
	KUNIT_EXPECT_EQ(test, ok, TG_BURST);
}

/* ---- the largest frame ------------------------------------------------------ */

static void tg_max_frame(struct kunit *test)
{
	struct elec_config cfg;

	/* bully: the bare header; ALIVE's payload with quorum on */
	t_cfg_algo(&cfg, ELEC_ALGO_BULLY, 1);
	KUNIT_EXPECT_EQ(test, elec_config_max_frame(&cfg, 256),
			ELECTION_HDR_LEN);
	cfg.quorum = true;
	KUNIT_EXPECT_EQ(test, elec_config_max_frame(&cfg, 256),
			ELECTION_HDR_LEN + ELECTION_ALIVE_LEN);
	cfg.quorum = false;
	cfg.algo = ELEC_ALGO_RING;
	KUNIT_EXPECT_EQ(test, elec_config_max_frame(&cfg, 256),
			ELECTION_HDR_LEN + 8);
	cfg.algo = ELEC_ALGO_RING_ALL;
	KUNIT_EXPECT_EQ(test, elec_config_max_frame(&cfg, 256),
			ELECTION_HDR_LEN + 12);
	cfg.algo = ELEC_ALGO_RING_LIST;
	KUNIT_EXPECT_EQ(test, elec_config_max_frame(&cfg, 1),
			ELECTION_HDR_LEN + 12);
	KUNIT_EXPECT_EQ(test, elec_config_max_frame(&cfg, 256),
			ELECTION_HDR_LEN + 8 + 4 * 256);
	/* every valid group fits a 1500-byte MTU */
	KUNIT_EXPECT_LE(test, elec_config_max_frame(&cfg, ELECTION_MAX_NODES),
			1500);
	cfg.algo = 0;
	KUNIT_EXPECT_EQ(test, elec_config_max_frame(&cfg, 1), 0);
}

/* the frames a list ring really sends never exceed its bound */
static void tg_max_frame_sent(struct kunit *test)
{
	static const u32 ring[] = { 1, 2, 3, 4, 5, 6 };
	struct t_node *n = tr_node_new(test, ELEC_ALGO_RING_LIST, 1, ring, 6);
	u32 bound = elec_config_max_frame(&n->c.cfg, 6) - ELECTION_HDR_LEN;
	static const u32 ids[] = { 2, 3, 4, 5, 6, 1 };

	tr_started(n);
	/* a list of all six arrives at its initiator 2's successor */
	n->c.ring.run = 3;
	tr_rx_list(n, ELEC_MSG_ELECTION, 6, 3, 1, ids, 5);
	KUNIT_EXPECT_GE(test, t_sends(n, ELEC_MSG_ELECTION, T_ANY), 1);
	KUNIT_EXPECT_LE(test, (u32)tr_last(n, ELEC_MSG_ELECTION)->msg.payload_len,
			bound);
	KUNIT_EXPECT_EQ(test, tr_list_n(n, tr_last(n, ELEC_MSG_ELECTION)), 6);
	KUNIT_EXPECT_EQ(test, (u32)tr_last(n, ELEC_MSG_ELECTION)->msg.payload_len,
			bound);
}

static struct kunit_case elec_guard_cases[] = {
	KUNIT_CASE(tg_term_next_saturates),
	KUNIT_CASE(tg_term_no_wrap),
	KUNIT_CASE(tg_term_too_far_follower),
	KUNIT_CASE(tg_term_too_far_leader),
	KUNIT_CASE(tg_term_learning),
	KUNIT_CASE(tg_term_too_far_saturates),
	KUNIT_CASE(tg_wrong_lladdr),
	KUNIT_CASE(tg_seen_lladdr),
	KUNIT_CASE(tg_rate_limit_bully),
	KUNIT_CASE(tg_rate_limit_heartbeat_retry),
	KUNIT_CASE(tg_rate_limit_ring),
	KUNIT_CASE(tg_rate_limit_cell),
	KUNIT_CASE(tg_max_frame),
	KUNIT_CASE(tg_max_frame_sent),
	{}
};

static struct kunit_suite elec_guard_suite = {
	.name = "elec_guard",
	.test_cases = elec_guard_cases,
};

kunit_test_suites(&elec_guard_suite);
