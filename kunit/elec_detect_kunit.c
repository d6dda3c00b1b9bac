// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite elec_detect: the failure detector service
 * (module/core/detect.c) and the contract of the algorithm tables that
 * the glue relies on instead of branching on the algorithm: every
 * algorithm has a silent op; the queue, the options it takes and the
 * private state GROUP_GET reports come from its table.
 */
#include <kunit/test.h>
#include <linux/string.h>

#include "elec_kunit_util.h"
#include "bully.h"
#include "invitation.h"
#include "elec_kunit_ring.h"
#include "rtt.h"

static void td_init_id(struct kunit *test, struct t_node *n, u8 algo,
		       u32 self)
{
	struct elec_config cfg;
	struct elec_sink sink = { .emit = t_emit, .ctx = n };

	memset(n, 0, sizeof(*n));
	n->test = test;
	n->now = T_START;
	t_cfg_algo(&cfg, algo, self);
	KUNIT_ASSERT_EQ(test, elec_core_init(&n->c, &cfg, n->peers,
					     T_MAX_NODES, &sink), 0);
	elec_core_set_est(&n->c, n->est);
}

static void td_init(struct kunit *test, struct t_node *n, u8 algo)
{
	td_init_id(test, n, algo, 1);
}

/* one window, hb-interval x hb-miss, for every algorithm */
static void td_window(struct kunit *test)
{
	struct t_node *n = kunit_kzalloc(test, sizeof(*n), GFP_KERNEL);
	u8 a;

	KUNIT_ASSERT_NOT_NULL(test, n);
	for (a = ELEC_ALGO_BULLY; a <= ELEC_ALGO_MAX; a++) {
		td_init(test, n, a);
		KUNIT_EXPECT_EQ(test, elec_config_detect_ns(&n->c.cfg),
				T_HB * T_MISS);
		KUNIT_EXPECT_EQ(test, elec_detect_ns(&n->c), T_DETECT);
		n->c.cfg.hb_miss = 5;
		KUNIT_EXPECT_EQ(test, elec_detect_ns(&n->c), T_HB * 5);
	}
}

/* watch: from the leader's last frame, never before now, saturating */
static void td_watch(struct kunit *test)
{
	struct t_node *n = kunit_kzalloc(test, sizeof(*n), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, n);
	td_init(test, n, ELEC_ALGO_BULLY);
	elec_core_watch(&n->c, n->now, 0, n->now);
	KUNIT_EXPECT_EQ(test, t_armed_at(n, ELEC_TIMER_DETECT),
			n->now + T_DETECT);
	elec_core_watch(&n->c, n->now - T_HB, 7, n->now);
	KUNIT_EXPECT_EQ(test, t_armed_at(n, ELEC_TIMER_DETECT),
			n->now - T_HB + T_DETECT + 7);
	/* a window that ended already: at once */
	elec_core_watch(&n->c, n->now - 2 * T_DETECT, 0, n->now);
	KUNIT_EXPECT_EQ(test, t_armed_at(n, ELEC_TIMER_DETECT), n->now);
	elec_core_watch(&n->c, U64_MAX - 5, 0, n->now);
	KUNIT_EXPECT_EQ(test, t_armed_at(n, ELEC_TIMER_DETECT), U64_MAX);
	/* heard: the leader's last frame is recorded */
	elec_core_heard(&n->c, n->now + 3);
	KUNIT_EXPECT_EQ(test, n->c.leader_rx_ns, n->now + 3);
}

/* lead: a heartbeat at the given term (or none), the next one armed */
static void td_lead(struct kunit *test)
{
	struct t_node *n = kunit_kzalloc(test, sizeof(*n), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, n);
	td_init(test, n, ELEC_ALGO_INVITATION);
	elec_core_lead(&n->c, 42, true, n->now);
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_HEARTBEAT, 0), 1U);
	KUNIT_EXPECT_EQ(test, t_last_send(test, n)->msg.type,
			ELEC_MSG_HEARTBEAT);
	KUNIT_EXPECT_EQ(test, t_last_send(test, n)->msg.term, 42ULL);
	KUNIT_EXPECT_EQ(test, t_armed_at(n, ELEC_TIMER_HEARTBEAT),
			n->now + T_HB);
	t_clear(n);
	elec_core_lead(&n->c, 43, false, n->now + 1);
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_HEARTBEAT, T_ANY), 0U);
	KUNIT_EXPECT_EQ(test, t_armed_at(n, ELEC_TIMER_HEARTBEAT),
			n->now + 1 + T_HB);
}

/*
 * A late expiry is deferred once, re-armed a window later and counted;
 * the silent op sees the next one. For every algorithm: the learning
 * window after a start is timed by the detector.
 */
static void td_defer(struct kunit *test)
{
	struct t_node *n = kunit_kzalloc(test, sizeof(*n), GFP_KERNEL);
	u8 a;

	KUNIT_ASSERT_NOT_NULL(test, n);
	for (a = ELEC_ALGO_BULLY; a <= ELEC_ALGO_MAX; a++) {
		u64 at;

		if (a == ELEC_ALGO_INVITATION)
			continue;	/* coordinates at once: no learning */
		/* node 2 of 1 and 2: min-bully's 1 would claim at once */
		td_init_id(test, n, a, 2);
		KUNIT_ASSERT_EQ(test, elec_core_peer_add(&n->c, 1, NULL), 0);
		t_start(n);
		at = n->c.timer_expires[ELEC_TIMER_DETECT];
		KUNIT_ASSERT_NE(test, at, 0ULL);
		t_clear(n);
		n->now = at + T_HB;
		elec_core_timer(&n->c, ELEC_TIMER_DETECT, n->now);
		KUNIT_EXPECT_EQ(test, n->c.stats.detect_deferred, 1ULL);
		KUNIT_EXPECT_EQ(test, t_armed_at(n, ELEC_TIMER_DETECT),
				n->now + T_DETECT);
		KUNIT_EXPECT_EQ(test, n->c.stats.elections, 0ULL);
		/* the extra window is not cut short */
		elec_core_watch(&n->c, n->now - T_HB, 0, n->now);
		KUNIT_EXPECT_EQ(test, n->c.timer_expires[ELEC_TIMER_DETECT],
				n->now + T_DETECT);
		t_fire(n, ELEC_TIMER_DETECT);
		KUNIT_EXPECT_EQ(test, n->c.stats.detect_deferred, 1ULL);
		KUNIT_EXPECT_EQ(test, n->c.stats.elections, 1ULL);
	}
}

/*
 * The family tables: every hook the family's dispatch calls without a
 * check is set; QUERY goes to rx_query exactly where msgs has it.
 */
static void td_family(struct kunit *test, const struct elec_algo_ops *ops)
{
	if (ops->rx == elec_bully_rx) {
		const struct elec_bully_algo *ba =
			(const struct elec_bully_algo *)((const char *)ops -
			offsetof(struct elec_bully_algo, ops));

		KUNIT_EXPECT_TRUE(test, ba->begin && ba->answer_expired &&
				  ba->rx_election && ba->rx_answer &&
				  ba->rx_announce);
		KUNIT_EXPECT_EQ(test, !!ba->rx_query,
				!!(ops->msgs & ELEC_MSG_BIT(ELEC_MSG_QUERY)));
		KUNIT_EXPECT_TRUE(test, ops->timer == elec_bully_timer);
		KUNIT_EXPECT_TRUE(test, ops->silent == elec_bully_silent);
		KUNIT_EXPECT_TRUE(test, ops->elect == elec_bully_elect);
		KUNIT_EXPECT_EQ(test, ops->options, (u32)ELEC_BULLY_OPTIONS);
	} else if (ops->rx == elec_ring_rx) {
		const struct elec_ring_algo *ra =
			(const struct elec_ring_algo *)((const char *)ops -
			offsetof(struct elec_ring_algo, ops));

		KUNIT_EXPECT_TRUE(test, ra->begin && ra->election &&
				  ra->coordinator && ra->body_ok);
		KUNIT_EXPECT_TRUE(test, ops->timer == elec_ring_timer);
		KUNIT_EXPECT_TRUE(test, ops->silent == elec_ring_silent);
	}
}

/* the tables the glue relies on */
static void td_tables(struct kunit *test)
{
	struct t_node *n = kunit_kzalloc(test, sizeof(*n), GFP_KERNEL);
	struct elec_info info[ELEC_INFO_MAX];
	u8 a;
	int o;

	KUNIT_ASSERT_NOT_NULL(test, n);
	for (a = ELEC_ALGO_BULLY; a <= ELEC_ALGO_MAX; a++) {
		const struct elec_algo_ops *ops = elec_algo_find(a);
		bool ring = a == ELEC_ALGO_RING || a == ELEC_ALGO_RING_ALL ||
			    a == ELEC_ALGO_RING_LIST;

		KUNIT_ASSERT_NOT_NULL(test, ops);
		KUNIT_EXPECT_NOT_NULL(test, ops->silent);
		td_family(test, ops);
		KUNIT_EXPECT_EQ(test, elec_algo_is_ring(a), ring);
		/* a queue for the rings only, one that fits their records */
		KUNIT_EXPECT_EQ(test, ops->queue_bytes,
				ring ? (u32)ELEC_RING_QUEUE_BYTES : 0U);
		KUNIT_EXPECT_EQ(test, !!ops->set_queue, ring);
		/* the options it names are the ones only some take */
		for (o = 0; o < ELEC_OPT_COUNT; o++)
			if (elec_opts[o].flags & ELEC_OPTF_ALL)
				KUNIT_EXPECT_FALSE(test, ops->options &
						   ELEC_OPT_BIT(o));
		KUNIT_EXPECT_EQ(test, ops->options &
				~(ELEC_OPT_BIT(ELEC_OPT_COUNT) - 1), 0U);
		/* private state: the invitation's group number only */
		td_init(test, n, a);
		n->c.inv.seq = 9;
		n->c.inv.coord = 1;
		KUNIT_EXPECT_EQ(test, ops->info ? ops->info(&n->c, info) : 0U,
				a == ELEC_ALGO_INVITATION ? 2U : 0U);
		if (ops->peer_info)
			KUNIT_EXPECT_LE(test, ops->peer_info(&n->peers[0],
							     info),
					(u32)ELEC_PEER_INFO_MAX);
	}
	/* every option some algorithm takes has one */
	for (o = 0; o < ELEC_OPT_COUNT; o++) {
		KUNIT_EXPECT_NE(test, elec_opt_algos(o), 0U);
		if (elec_opts[o].flags & ELEC_OPTF_ALL)
			KUNIT_EXPECT_EQ(test, elec_opt_algos(o),
					(u32)ELEC_ALGOS_ALL);
	}
	KUNIT_EXPECT_EQ(test, elec_opt_algos(ELEC_OPT_QUORUM),
			ELEC_ALGO_BIT(ELEC_ALGO_BULLY) |
			ELEC_ALGO_BIT(ELEC_ALGO_MIN_BULLY) |
			ELEC_ALGO_BIT(ELEC_ALGO_ENH_BULLY));
	/* GROUP_GET's invitation attributes, from its table */
	td_init(test, n, ELEC_ALGO_INVITATION);
	n->c.inv.seq = 0x1234567890ULL;
	n->c.inv.coord = 77;
	KUNIT_ASSERT_EQ(test, elec_invitation_ops.info(&n->c, info), 2U);
	KUNIT_EXPECT_EQ(test, info[0].attr, ELEC_ATTR_INV_SEQ);
	KUNIT_EXPECT_EQ(test, info[0].width, 8);
	KUNIT_EXPECT_EQ(test, info[0].value, 0x1234567890ULL);
	KUNIT_EXPECT_EQ(test, info[1].attr, ELEC_ATTR_INV_COORDINATOR);
	KUNIT_EXPECT_EQ(test, info[1].width, 4);
	KUNIT_EXPECT_EQ(test, info[1].value, 77ULL);
	n->peers[0].flags = ELEC_INV_PEER_MEMBER;
	KUNIT_ASSERT_EQ(test, elec_invitation_ops.peer_info(&n->peers[0], info),
			1U);
	KUNIT_EXPECT_EQ(test, info[0].attr, ELEC_ATTR_PEER_MEMBER);
	KUNIT_EXPECT_EQ(test, info[0].width, 1);
	KUNIT_EXPECT_EQ(test, info[0].value, 1ULL);
}

/* a new timeout: what the algorithms adapted to the old one is forgotten */
static void td_config_changed(struct kunit *test)
{
	struct t_node *n = kunit_kzalloc(test, sizeof(*n), GFP_KERNEL);
	struct elec_config cfg;

	KUNIT_ASSERT_NOT_NULL(test, n);
	td_init(test, n, ELEC_ALGO_MIN_BULLY);
	n->c.bully.answer_shift = 2;
	cfg = n->c.cfg;
	cfg.hb_miss = 4;
	KUNIT_ASSERT_EQ(test, elec_core_set_config(&n->c, &cfg, NULL), 0);
	KUNIT_EXPECT_EQ(test, n->c.bully.answer_shift, 2);
	cfg.timeout_ns = 2 * T_T;
	KUNIT_ASSERT_EQ(test, elec_core_set_config(&n->c, &cfg, NULL), 0);
	KUNIT_EXPECT_EQ(test, n->c.bully.answer_shift, 0);

	td_init(test, n, ELEC_ALGO_RING_ALL);
	n->c.ring.ack_shift = 1;
	cfg = n->c.cfg;
	cfg.timeout_ns = 2 * T_T;
	KUNIT_ASSERT_EQ(test, elec_core_set_config(&n->c, &cfg, NULL), 0);
	KUNIT_EXPECT_EQ(test, n->c.ring.ack_shift, 0);

	td_init(test, n, ELEC_ALGO_INVITATION);
	n->c.inv.win_shift = 3;
	cfg = n->c.cfg;
	cfg.timeout_ns = 2 * T_T;
	KUNIT_ASSERT_EQ(test, elec_core_set_config(&n->c, &cfg, NULL), 0);
	KUNIT_EXPECT_EQ(test, n->c.inv.win_shift, 0);
}

/* a frame of @type from @src to @dst at @term, at the node's clock */
static void td_rx(struct t_node *n, u8 type, u32 src, u32 dst, u64 term)
{
	struct elec_msg m;

	memset(&m, 0, sizeof(m));
	m.type = type;
	m.algo = n->c.cfg.algo;
	m.group = T_GROUP;
	m.src = src;
	m.dst = dst;
	m.term = term;
	elec_core_rx(&n->c, &m, n->now);
}

/* a HEARTBEAT of @src at @term, received at the node's clock */
static void td_heartbeat(struct t_node *n, u32 src, u64 term)
{
	td_rx(n, ELEC_MSG_HEARTBEAT, src, 0, term);
}

/*
 * Bully node 1 of {1, 2} with @detector, following 2 at term 1: it
 * started, heard 2's heartbeat while learning and took it as leader.
 */
static void td_follow(struct kunit *test, struct t_node *n, u8 detector,
		      u64 max_ns)
{
	td_init(test, n, ELEC_ALGO_BULLY);
	n->c.cfg.detector = detector;
	n->c.cfg.detector_max_ns = max_ns;
	KUNIT_ASSERT_EQ(test, elec_config_check(&n->c.cfg, NULL), 0);
	KUNIT_ASSERT_EQ(test, elec_core_peer_add(&n->c, 2, NULL), 0);
	t_start(n);
	td_heartbeat(n, 2, 1);
	KUNIT_ASSERT_EQ(test, n->c.leader, 2U);
	KUNIT_ASSERT_EQ(test, n->c.phase, ELEC_BULLY_FOLLOWING);
	t_clear(n);
}

/* heartbeats of 2 at term 1, @gap ns apart (alternately +- @jitter) */
static void td_beats(struct t_node *n, u32 count, u64 gap, u64 jitter)
{
	u32 i;

	for (i = 0; i < count; i++) {
		n->now += i & 1 ? gap - jitter : gap + jitter;
		td_heartbeat(n, 2, 1);
	}
}

/*
 * The adaptive window: the fixed one until the first gap is measured,
 * then mean + 4 deviations + margin (one hb-interval); steady arrivals
 * bring it to the floor (two intervals), jittery ones widen it past the
 * fixed window, up to detector-max. DETECT is armed that far after the
 * last arrival, and show reports the same window for the peer.
 */
static void td_adaptive(struct kunit *test)
{
	struct t_node *n = kunit_kzalloc(test, sizeof(*n), GFP_KERNEL);
	struct elec_peer_est *p;
	u64 w;

	KUNIT_ASSERT_NOT_NULL(test, n);
	td_follow(test, n, ELECTION_DETECTOR_ADAPTIVE, 0);
	p = elec_core_est(&n->c, elec_core_peer_find(&n->c, 2));
	KUNIT_ASSERT_NOT_NULL(test, p);
	KUNIT_EXPECT_EQ(test, elec_detect_ns(&n->c), T_DETECT);
	/* the first arrival after the acceptance: no gap yet */
	td_beats(n, 1, T_HB, 0);
	KUNIT_EXPECT_EQ(test, p->gap_ns, 0ULL);
	KUNIT_EXPECT_EQ(test, elec_detect_ns(&n->c), T_DETECT);
	/* the first gap: mean = gap, deviation = gap / 4 */
	td_beats(n, 1, T_HB, 0);
	KUNIT_EXPECT_EQ(test, p->gap_ns, T_HB);
	KUNIT_EXPECT_EQ(test, p->gap_dev_ns, T_HB / 4);
	KUNIT_EXPECT_EQ(test, elec_detect_ns(&n->c), 3 * T_HB);
	/* steady: down to the floor */
	td_beats(n, 60, T_HB, 0);
	KUNIT_EXPECT_EQ(test, elec_detect_ns(&n->c),
			ELECTION_DETECTOR_FLOOR_MISS * T_HB);
	KUNIT_EXPECT_EQ(test, t_armed_at(n, ELEC_TIMER_DETECT),
			n->now + ELECTION_DETECTOR_FLOOR_MISS * T_HB);
	KUNIT_EXPECT_LT(test, elec_detect_ns(&n->c), T_DETECT);
	/* jittery (gaps of 10 and 30 ms): wider than the fixed window */
	td_beats(n, 60, T_HB, T_HB / 2);
	w = elec_detect_ns(&n->c);
	KUNIT_EXPECT_GT(test, w, T_DETECT);
	KUNIT_EXPECT_LE(test, w, elec_config_detector_max(&n->c.cfg));
	KUNIT_EXPECT_EQ(test, elec_detect_peer_ns(&n->c.cfg, p), w);
	KUNIT_EXPECT_EQ(test, t_armed_at(n, ELEC_TIMER_DETECT), n->now + w);
	/* a ceiling: no wider than detector-max */
	td_follow(test, n, ELECTION_DETECTOR_ADAPTIVE, 3 * T_HB + T_HB / 2);
	td_beats(n, 60, T_HB, T_HB / 2);
	KUNIT_EXPECT_EQ(test, elec_detect_ns(&n->c), 3 * T_HB + T_HB / 2);
	/* the fixed detector ignores the arrivals */
	td_follow(test, n, ELECTION_DETECTOR_FIXED, 0);
	td_beats(n, 60, T_HB, T_HB / 2);
	KUNIT_EXPECT_EQ(test, elec_detect_ns(&n->c), T_DETECT);
	KUNIT_EXPECT_EQ(test, t_armed_at(n, ELEC_TIMER_DETECT),
			n->now + T_DETECT);
}

/*
 * Gaps that are no samples: one longer than detector-max, one since the
 * peer last led (another leader came between), and every one after a
 * change of the configuration.
 */
static void td_adaptive_samples(struct kunit *test)
{
	struct t_node *n = kunit_kzalloc(test, sizeof(*n), GFP_KERNEL);
	struct elec_config cfg;
	struct elec_peer_est *p;

	KUNIT_ASSERT_NOT_NULL(test, n);
	td_follow(test, n, ELECTION_DETECTOR_ADAPTIVE, 0);
	p = elec_core_est(&n->c, elec_core_peer_find(&n->c, 2));
	KUNIT_ASSERT_NOT_NULL(test, p);
	td_beats(n, 8, T_HB, 0);
	KUNIT_ASSERT_EQ(test, p->gap_ns, T_HB);
	/* away longer than the ceiling */
	n->now += elec_config_detector_max(&n->c.cfg) + 1;
	td_heartbeat(n, 2, 1);
	KUNIT_EXPECT_EQ(test, p->gap_ns, T_HB);
	KUNIT_EXPECT_EQ(test, p->hb_rx_ns, n->now);
	/* the same leader after a run keeps its history */
	elec_core_set_leader(&n->c, 0, 1, n->now);
	elec_core_set_leader(&n->c, 2, 1, n->now);
	KUNIT_EXPECT_EQ(test, p->hb_rx_ns, n->now);
	/* after another leader, its arrivals start afresh */
	elec_core_set_leader(&n->c, 1, 2, n->now);
	elec_core_set_leader(&n->c, 2, 3, n->now);
	KUNIT_EXPECT_EQ(test, p->hb_rx_ns, 0ULL);
	/* a configuration change forgets every estimate */
	cfg = n->c.cfg;
	cfg.hb_interval_ns = 2 * T_HB;
	KUNIT_ASSERT_EQ(test, elec_core_set_config(&n->c, &cfg, NULL), 0);
	KUNIT_EXPECT_EQ(test, p->gap_ns, 0ULL);
	KUNIT_EXPECT_EQ(test, elec_detect_ns(&n->c), 2 * T_HB * T_MISS);
}

/*
 * Suspicions: a DETECT expiry while following counts one; the suspect
 * heard again at its term makes it false, as does the suspect accepted
 * as the next leader; another leader accepted leaves it true.
 */
static void td_suspicions(struct kunit *test)
{
	struct t_node *n = kunit_kzalloc(test, sizeof(*n), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, n);
	td_follow(test, n, ELECTION_DETECTOR_FIXED, 0);
	t_fire(n, ELEC_TIMER_DETECT);
	KUNIT_EXPECT_EQ(test, n->c.stats.suspicions, 1ULL);
	KUNIT_EXPECT_EQ(test, n->c.stats.false_suspicions, 0ULL);
	n->now += T_HB / 4;
	td_heartbeat(n, 2, 1);
	KUNIT_EXPECT_EQ(test, n->c.stats.false_suspicions, 1ULL);
	/* once per suspicion */
	td_heartbeat(n, 2, 1);
	KUNIT_EXPECT_EQ(test, n->c.stats.false_suspicions, 1ULL);

	/* kept its role: accepted again after the run */
	td_follow(test, n, ELECTION_DETECTOR_ADAPTIVE, 0);
	t_fire(n, ELEC_TIMER_DETECT);
	KUNIT_EXPECT_EQ(test, n->c.stats.suspicions, 1ULL);
	elec_core_set_leader(&n->c, 0, 1, n->now);
	elec_core_set_leader(&n->c, 2, 2, n->now);
	KUNIT_EXPECT_EQ(test, n->c.stats.false_suspicions, 1ULL);

	/* the node itself leading next decides nothing: 2 is heard again */
	td_follow(test, n, ELECTION_DETECTOR_FIXED, 0);
	t_fire(n, ELEC_TIMER_DETECT);
	elec_core_set_leader(&n->c, 1, 2, n->now);
	td_heartbeat(n, 2, 1);
	KUNIT_EXPECT_EQ(test, n->c.stats.suspicions, 1ULL);
	KUNIT_EXPECT_EQ(test, n->c.stats.false_suspicions, 1ULL);

	/* a true one: another leader is accepted, 2 heard only after */
	td_follow(test, n, ELECTION_DETECTOR_FIXED, 0);
	t_fire(n, ELEC_TIMER_DETECT);
	elec_core_set_leader(&n->c, 3, 2, n->now);
	td_heartbeat(n, 2, 1);
	KUNIT_EXPECT_EQ(test, n->c.stats.suspicions, 1ULL);
	KUNIT_EXPECT_EQ(test, n->c.stats.false_suspicions, 0ULL);

	/* a learning window is no suspicion */
	td_init(test, n, ELEC_ALGO_BULLY);
	KUNIT_ASSERT_EQ(test, elec_core_peer_add(&n->c, 2, NULL), 0);
	t_start(n);
	t_fire(n, ELEC_TIMER_DETECT);
	KUNIT_EXPECT_EQ(test, n->c.stats.suspicions, 0ULL);
}

/* the options: words, defaults, the ceiling's floor */
static void td_detector_options(struct kunit *test)
{
	struct t_node *n = kunit_kzalloc(test, sizeof(*n), GFP_KERNEL);
	const char *why = NULL;

	KUNIT_ASSERT_NOT_NULL(test, n);
	td_init(test, n, ELEC_ALGO_RING);
	KUNIT_EXPECT_STREQ(test, elec_opt_word(ELEC_OPT_DETECTOR,
					       ELECTION_DETECTOR_ADAPTIVE),
			   "adaptive");
	KUNIT_EXPECT_EQ(test, elec_opt_word_value(ELEC_OPT_DETECTOR, "fixed"),
			ELECTION_DETECTOR_FIXED);
	KUNIT_EXPECT_EQ(test, elec_opt_word_value(ELEC_OPT_DETECTOR, "adapt"),
			-1);
	KUNIT_EXPECT_PTR_EQ(test, elec_opt_word(ELEC_OPT_DETECTOR, 2), NULL);
	KUNIT_EXPECT_EQ(test, elec_opt_report(&n->c.cfg,
					      ELEC_OPT_DETECTOR_MARGIN), T_HB);
	KUNIT_EXPECT_EQ(test, elec_opt_report(&n->c.cfg, ELEC_OPT_DETECTOR_MAX),
			ELECTION_DEF_DETECTOR_MAX_MULT * T_DETECT);
	n->c.cfg.detector = ELECTION_DETECTOR_MAX + 1;
	KUNIT_EXPECT_EQ(test, elec_config_check(&n->c.cfg, &why), -EINVAL);
	n->c.cfg.detector = ELECTION_DETECTOR_ADAPTIVE;
	n->c.cfg.detector_max_ns = 2 * T_HB - 1;
	KUNIT_EXPECT_EQ(test, elec_config_check(&n->c.cfg, &why), -EINVAL);
	KUNIT_EXPECT_STREQ(test, why,
			   "detector-max may not be below 2 x hb-interval");
	n->c.cfg.detector_max_ns = 2 * T_HB;
	KUNIT_EXPECT_EQ(test, elec_config_check(&n->c.cfg, NULL), 0);
	KUNIT_EXPECT_EQ(test, elec_detect_min_ns(&n->c.cfg), 2 * T_HB);
	KUNIT_EXPECT_EQ(test, elec_detect_max_ns(&n->c.cfg), T_DETECT);
	/*
	 * the default ceiling never below the floor: hb-interval 40 s,
	 * hb-miss 2 would make it ELECTION_DUR_MAX_NS (60 s), under 2 x 40 s
	 */
	n->c.cfg.detector_max_ns = 0;
	n->c.cfg.hb_interval_ns = 40000000000ULL;
	n->c.cfg.hb_miss = 2;
	KUNIT_EXPECT_EQ(test, elec_config_detector_max(&n->c.cfg),
			80000000000ULL);
	KUNIT_EXPECT_EQ(test, elec_detect_min_ns(&n->c.cfg), 80000000000ULL);
	KUNIT_EXPECT_GE(test, elec_detect_max_ns(&n->c.cfg),
			elec_detect_min_ns(&n->c.cfg));
}

/*
 * Round trips (rtt.c): a run's ELECTION starts one to each peer asked,
 * the ANSWER ends it; RFC 6298's estimator; T from it with timeout-auto.
 */
static void td_rtt(struct kunit *test)
{
	struct t_node *n = kunit_kzalloc(test, sizeof(*n), GFP_KERNEL);
	struct elec_peer *p2, *p3;
	struct elec_peer_est *e2, *e3;
	struct elec_config cfg;
	u64 t0;

	KUNIT_ASSERT_NOT_NULL(test, n);
	td_init(test, n, ELEC_ALGO_BULLY);
	n->c.cfg.timeout_auto = true;
	KUNIT_ASSERT_EQ(test, elec_core_peer_add(&n->c, 2, NULL), 0);
	KUNIT_ASSERT_EQ(test, elec_core_peer_add(&n->c, 3, NULL), 0);
	p2 = elec_core_peer_find(&n->c, 2);
	p3 = elec_core_peer_find(&n->c, 3);
	KUNIT_ASSERT_NOT_NULL(test, p2);
	KUNIT_ASSERT_NOT_NULL(test, p3);
	e2 = elec_core_est(&n->c, p2);
	e3 = elec_core_est(&n->c, p3);
	t_start(n);
	t_fire(n, ELEC_TIMER_DETECT);
	/* the run asked 2 and 3; nothing measured: the configured T */
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_ELECTION, 2), 1U);
	KUNIT_EXPECT_EQ(test, e2->req_tx_ns, n->now);
	KUNIT_EXPECT_EQ(test, e3->req_tx_ns, n->now);
	KUNIT_EXPECT_EQ(test, elec_rtt_timeout_ns(&n->c, NULL), T_T);
	KUNIT_EXPECT_EQ(test, t_armed_at(n, ELEC_BULLY_TIMER_ANSWER),
			n->now + T_T);
	/* 2 answers 300 us later: srtt 300 us, rttvar 150 us, rto 900 us */
	t0 = n->now;
	n->now += 300000;
	td_rx(n, ELEC_MSG_ANSWER, 2, 1, 0);
	KUNIT_EXPECT_EQ(test, e2->srtt_ns, 300000ULL);
	KUNIT_EXPECT_EQ(test, e2->rttvar_ns, 150000ULL);
	KUNIT_EXPECT_EQ(test, e2->req_tx_ns, 0ULL);
	KUNIT_EXPECT_EQ(test, e3->req_tx_ns, t0);
	KUNIT_EXPECT_EQ(test, elec_rtt_rto_ns(&n->c.cfg, e2), 900000ULL);
	/* 3, never measured, and a wait on several: the slowest measured */
	KUNIT_EXPECT_EQ(test, elec_rtt_timeout_ns(&n->c, p3), 900000ULL);
	KUNIT_EXPECT_EQ(test, elec_rtt_timeout_ns(&n->c, NULL), 900000ULL);
	/* off: the configured T, whatever was measured */
	n->c.cfg.timeout_auto = false;
	KUNIT_EXPECT_EQ(test, elec_rtt_timeout_ns(&n->c, p2), T_T);
	n->c.cfg.timeout_auto = true;
	/* the second sample, 100 us: rttvar and srtt move by 1/4, 1/8 */
	elec_rtt_sent(&n->c, ELEC_MSG_ELECTION, 2, n->now);
	n->now += 100000;
	elec_rtt_replied(&n->c, p2, ELEC_MSG_ANSWER, n->now);
	KUNIT_EXPECT_EQ(test, e2->rttvar_ns, 162500ULL);
	KUNIT_EXPECT_EQ(test, e2->srtt_ns, 275000ULL);
	/*
	 * sent twice before the answer: which one a reply answers is
	 * ambiguous, so neither reply is a sample (Karn), and a request
	 * sent between the two replies does not make the second one a
	 * short sample (the replies answer the two outstanding first)
	 */
	elec_rtt_sent(&n->c, ELEC_MSG_ELECTION, 2, n->now);
	elec_rtt_sent(&n->c, ELEC_MSG_ELECTION, 2, n->now + 250000);
	KUNIT_EXPECT_EQ(test, e2->req_tx_ns, n->now);
	KUNIT_EXPECT_EQ(test, e2->req_n, 2);
	/* a frame that answers nothing ends nothing */
	elec_rtt_replied(&n->c, p2, ELEC_MSG_HEARTBEAT, n->now + 260000);
	KUNIT_EXPECT_EQ(test, e2->req_tx_ns, n->now);
	KUNIT_EXPECT_EQ(test, e2->req_n, 2);
	elec_rtt_replied(&n->c, p2, ELEC_MSG_ANSWER, n->now + 300000);
	KUNIT_EXPECT_EQ(test, e2->req_n, 1);
	elec_rtt_sent(&n->c, ELEC_MSG_ELECTION, 2, n->now + 540000);
	elec_rtt_replied(&n->c, p2, ELEC_MSG_ANSWER, n->now + 550000);
	elec_rtt_replied(&n->c, p2, ELEC_MSG_ANSWER, n->now + 800000);
	KUNIT_EXPECT_EQ(test, e2->srtt_ns, 275000ULL);
	KUNIT_EXPECT_EQ(test, e2->rttvar_ns, 162500ULL);
	KUNIT_EXPECT_EQ(test, e2->req_tx_ns, 0ULL);
	KUNIT_EXPECT_EQ(test, e2->req_n, 0);
	/* once all are answered, the next request measures again */
	elec_rtt_sent(&n->c, ELEC_MSG_ELECTION, 2, n->now + 900000);
	elec_rtt_replied(&n->c, p2, ELEC_MSG_ANSWER, n->now + 1175000);
	KUNIT_EXPECT_EQ(test, e2->srtt_ns, 275000ULL);
	KUNIT_EXPECT_EQ(test, e2->rttvar_ns, 121875ULL);
	/* a frame that asks nothing starts nothing */
	KUNIT_EXPECT_EQ(test, e3->req_tx_ns, t0);
	e3->req_tx_ns = 0;
	elec_rtt_sent(&n->c, ELEC_MSG_COORDINATOR, 3, n->now);
	KUNIT_EXPECT_EQ(test, e3->req_tx_ns, 0ULL);
	e3->req_tx_ns = t0;
	/* a round trip longer than coord-timeout: no sample */
	elec_rtt_sent(&n->c, ELEC_MSG_ELECTION, 2, n->now);
	n->now += T_COORD + 1;
	elec_rtt_replied(&n->c, p2, ELEC_MSG_ANSWER, n->now);
	KUNIT_EXPECT_EQ(test, e2->srtt_ns, 275000ULL);
	KUNIT_EXPECT_EQ(test, e2->req_tx_ns, 0ULL);
	/* an outstanding request that old is forgotten: a new one starts */
	elec_rtt_sent(&n->c, ELEC_MSG_ELECTION, 3, n->now);
	KUNIT_EXPECT_EQ(test, e3->req_tx_ns, n->now);
	/* the floor and the ceiling (coord-timeout / 4) of the RTO */
	e2->srtt_ns = 1000;
	e2->rttvar_ns = 0;
	KUNIT_EXPECT_EQ(test, elec_rtt_rto_ns(&n->c.cfg, e2),
			ELECTION_DUR_MIN_NS);
	e2->srtt_ns = T_COORD;
	e2->rttvar_ns = T_COORD;
	KUNIT_EXPECT_EQ(test, elec_rtt_rto_ns(&n->c.cfg, e2),
			T_COORD / ELECTION_DEF_COORD_TIMEOUT_MULT);
	/* measured only while the configuration uses the estimates */
	n->c.cfg.timeout_auto = false;
	e2->req_tx_ns = 0;
	elec_rtt_sent(&n->c, ELEC_MSG_ELECTION, 2, n->now);
	KUNIT_EXPECT_EQ(test, e2->req_tx_ns, 0ULL);
	/* ... and what was measured before is forgotten when it resumes */
	cfg = n->c.cfg;
	cfg.timeout_auto = true;
	KUNIT_EXPECT_EQ(test, elec_core_set_config(&n->c, &cfg, NULL), 0);
	KUNIT_EXPECT_EQ(test, e2->srtt_ns, 0ULL);
	KUNIT_EXPECT_EQ(test, e2->rttvar_ns, 0ULL);
	KUNIT_EXPECT_EQ(test, elec_rtt_timeout_ns(&n->c, p2), T_T);
	/* not while measuring goes on (the adaptive detector measures too) */
	e2->srtt_ns = 300000;
	cfg.detector = ELECTION_DETECTOR_ADAPTIVE;
	KUNIT_EXPECT_EQ(test, elec_core_set_config(&n->c, &cfg, NULL), 0);
	cfg.timeout_auto = false;
	KUNIT_EXPECT_EQ(test, elec_core_set_config(&n->c, &cfg, NULL), 0);
	cfg.timeout_auto = true;
	KUNIT_EXPECT_EQ(test, elec_core_set_config(&n->c, &cfg, NULL), 0);
	KUNIT_EXPECT_EQ(test, e2->srtt_ns, 300000ULL);
}

/* the waits use it: a Bully run's for answers, a ring hop's for its ACK */
/*
 * a ring node 1 with timeout-auto and peers 2 .. @last, and peer 2's
 * estimate
 */
static struct elec_peer *td_ring_auto(struct kunit *test, struct t_node *n,
				      void *q, u32 last)
{
	struct elec_peer *p;
	u32 id;

	td_init(test, n, ELEC_ALGO_RING);
	elec_core_set_queue(&n->c, q, elec_ring_cr.ops.queue_bytes);
	n->c.cfg.timeout_auto = true;
	for (id = 2; id <= last; id++)
		KUNIT_ASSERT_EQ(test, elec_core_peer_add(&n->c, id, NULL), 0);
	p = elec_core_peer_find(&n->c, 2);
	KUNIT_ASSERT_NOT_NULL(test, p);
	return p;
}

static void td_rtt_waits(struct kunit *test)
{
	struct t_node *n = kunit_kzalloc(test, sizeof(*n), GFP_KERNEL);
	void *q = kunit_kzalloc(test, elec_ring_cr.ops.queue_bytes,
				GFP_KERNEL);
	struct elec_peer *p;
	u32 hop;
	u64 t0;
	u8 a;

	KUNIT_ASSERT_NOT_NULL(test, n);
	KUNIT_ASSERT_NOT_NULL(test, q);
	/*
	 * off; on; on with quorum: never below the configured T, which the
	 * quorum's argument takes as the bound on a round trip
	 */
	for (a = 0; a < 3; a++) {
		td_init(test, n, ELEC_ALGO_BULLY);
		n->c.cfg.timeout_auto = a;
		n->c.cfg.quorum = a == 2;
		KUNIT_ASSERT_EQ(test, elec_core_peer_add(&n->c, 2, NULL), 0);
		p = elec_core_peer_find(&n->c, 2);
		KUNIT_ASSERT_NOT_NULL(test, p);
		elec_core_est(&n->c, p)->srtt_ns = 300000;
		elec_core_est(&n->c, p)->rttvar_ns = 150000;
		t_start(n);
		/* a quorum node runs only with a majority heard lately */
		p->heard_ns = t_armed_at(n, ELEC_TIMER_DETECT);
		t_fire(n, ELEC_TIMER_DETECT);
		KUNIT_EXPECT_EQ(test, t_armed_at(n, ELEC_BULLY_TIMER_ANSWER),
				n->now + (a == 1 ? 900000 : T_T));
		KUNIT_EXPECT_EQ(test, elec_rtt_timeout_ns(&n->c, p),
				a == 1 ? 900000 : T_T);
	}
	/* ring node 1 of 1, 2, 3: its successor 2's RTO, not 3's */
	p = td_ring_auto(test, n, q, 3);
	elec_core_est(&n->c, p)->srtt_ns = 200000;
	elec_core_est(&n->c, p)->rttvar_ns = 50000;
	p = elec_core_peer_find(&n->c, 3);
	KUNIT_ASSERT_NOT_NULL(test, p);
	elec_core_est(&n->c, p)->srtt_ns = 2000000;
	elec_core_est(&n->c, p)->rttvar_ns = 500000;
	t_start(n);
	t_clear(n);
	elec_core_elect(&n->c, n->now);
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_ELECTION, 2), 1U);
	KUNIT_EXPECT_EQ(test, t_armed_at(n, ELEC_RING_TIMER_ACK),
			n->now + 400000);

	/*
	 * a hop measured exactly: its ACK (the hop number echoed) 150 us
	 * later; a greeting (hop 0) measures nothing
	 */
	p = td_ring_auto(test, n, q, 2);
	t_start(n);
	t_clear(n);
	elec_core_elect(&n->c, n->now);
	KUNIT_ASSERT_EQ(test, t_sends(n, ELEC_MSG_ELECTION, 2), 1U);
	n->now += 50000;
	tr_ack(n, 2, 0);
	KUNIT_EXPECT_EQ(test, elec_core_est(&n->c, p)->srtt_ns, 0ULL);
	n->now += 100000;
	tr_ack(n, 2, tr_hop(n, t_last_send(test, n)));
	KUNIT_EXPECT_EQ(test, elec_core_est(&n->c, p)->srtt_ns, 150000ULL);
	KUNIT_EXPECT_EQ(test, elec_core_est(&n->c, p)->rttvar_ns, 75000ULL);

	/*
	 * a late ACK, after the hop's timer sent the frame on to 3, is a
	 * sample too: an RTO learnt on a quiet link (20 us, the 100 us
	 * floor) grows when the link slows, instead of skipping a live
	 * successor for ever
	 */
	p = td_ring_auto(test, n, q, 3);
	elec_core_est(&n->c, p)->srtt_ns = 20000;
	t_start(n);
	t_clear(n);
	elec_core_elect(&n->c, n->now);
	KUNIT_ASSERT_EQ(test, t_sends(n, ELEC_MSG_ELECTION, 2), 1U);
	hop = tr_hop(n, t_last_send(test, n));
	t0 = n->now;
	KUNIT_EXPECT_EQ(test, t_armed_at(n, ELEC_RING_TIMER_ACK),
			n->now + ELECTION_DUR_MIN_NS);
	t_fire(n, ELEC_RING_TIMER_ACK);
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_ELECTION, 3), 1U);
	n->now = t0 + 1000000;
	tr_ack(n, 2, hop);
	/* srtt 20 us + (1 ms - 20 us) / 8, rttvar (1 ms - 20 us) / 4 */
	KUNIT_EXPECT_EQ(test, elec_core_est(&n->c, p)->srtt_ns, 142500ULL);
	KUNIT_EXPECT_EQ(test, elec_core_est(&n->c, p)->rttvar_ns, 245000ULL);
}

static struct kunit_case elec_detect_cases[] = {
	KUNIT_CASE(td_window),
	KUNIT_CASE(td_watch),
	KUNIT_CASE(td_lead),
	KUNIT_CASE(td_defer),
	KUNIT_CASE(td_tables),
	KUNIT_CASE(td_config_changed),
	KUNIT_CASE(td_adaptive),
	KUNIT_CASE(td_adaptive_samples),
	KUNIT_CASE(td_suspicions),
	KUNIT_CASE(td_detector_options),
	KUNIT_CASE(td_rtt),
	KUNIT_CASE(td_rtt_waits),
	{}
};

static struct kunit_suite elec_detect_suite = {
	.name = "elec_detect",
	.test_cases = elec_detect_cases,
};

kunit_test_suites(&elec_detect_suite);
