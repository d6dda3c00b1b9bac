// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the sans-IO protocol core (module/core/core.c) and of the
 * Bully algorithm (module/core/bully.c).
 *
 * Three suites:
 *  - elec_core: algorithm registry, configuration checks, init, the peer
 *    table, the generic receive checks, timer dispatch, start/stop.
 *  - elec_bully: one instance driven input by input through a recording
 *    sink; each case checks which actions an input emits (frames, to whom,
 *    how many; timers; events) and the state it leaves. The tb_rule_*
 *    cases take the failover rules of bully.c's header one by one (asking,
 *    candidates without a leader, trust by time, telling stale senders,
 *    preempt off and preempt-delay, resignation).
 *  - elec_bully_net: several instances joined by the in-test network of
 *    elec_kunit_net.h, which encodes every frame with the codec, delivers
 *    frames in FIFO order with no delay and fires the earliest timer when
 *    nothing is in flight;
 *    it checks message counts of the textbook best and worst cases (with
 *    ask-suspect on and off), that a false suspicion keeps the leader
 *    (ask-suspect on), that a resignation is followed at once, and that
 *    every live node agrees on the highest live id (with preempt off: on
 *    one leader) after crashes, recoveries, resignations, concurrent
 *    elections and partitions.
 *
 * The file also compiles in userspace against the KUnit shim in
 * tests/core/shim, so `make -C tests/core check` runs the same cases.
 */
#include "elec_kunit_net.h"
#include "elec_kunit_standby.h"
#include "bully.h"

static void t_cfg(struct elec_config *cfg, u32 self)
{
	t_cfg_algo(cfg, ELEC_ALGO_BULLY, self);
}

static void t_node_init(struct t_node *n, u32 self, const u32 *ids, u32 nr)
{
	struct elec_config cfg;

	t_cfg(&cfg, self);
	t_node_setup(n, &cfg, ids, nr, 0, NULL);
}

static struct t_node *t_node_new(struct kunit *test, u32 self,
				 const u32 *ids, u32 nr)
{
	struct t_node *n = t_node_alloc(test);

	t_node_init(n, self, ids, nr);
	return n;
}

static void t_msg(struct elec_msg *m, u8 type, u32 src, u32 dst, u64 term)
{
	memset(m, 0, sizeof(*m));
	m->type = type;
	m->algo = ELEC_ALGO_BULLY;
	m->group = T_GROUP;
	m->src = src;
	m->dst = dst;
	m->term = term;
}

static void t_rx(struct t_node *n, u8 type, u32 src, u32 dst, u64 term)
{
	struct elec_msg m;

	t_msg(&m, type, src, dst, term);
	elec_core_rx(&n->c, &m, n->now);
}

/* started, learnt nothing, T passed: leader with term 1 */
static void t_make_leader(struct t_node *n)
{
	t_start(n);
	t_fire(n, ELEC_TIMER_DETECT);
	if (n->c.phase == ELEC_BULLY_WAIT_ANSWER)
		t_fire(n, ELEC_BULLY_TIMER_ANSWER);
	KUNIT_ASSERT_EQ(n->test, n->c.role, ELEC_ROLE_LEADER);
	t_clear(n);
}

/* started and following @leader (higher than the node) in @term */
static void t_make_follower(struct t_node *n, u32 leader, u64 term)
{
	t_start(n);
	t_fire(n, ELEC_TIMER_DETECT);
	t_rx(n, ELEC_MSG_ANSWER, leader, n->c.cfg.self_id, 0);
	t_rx(n, ELEC_MSG_COORDINATOR, leader, n->c.cfg.self_id, term);
	KUNIT_ASSERT_EQ(n->test, n->c.phase, ELEC_BULLY_FOLLOWING);
	KUNIT_ASSERT_EQ(n->test, n->c.leader, leader);
	t_clear(n);
}

static const u32 t_ids5[] = { 1, 2, 3, 4, 5 };

/* ---- elec_core -------------------------------------------------------- */

static void tcore_registry(struct kunit *test)
{
	struct elec_algo_ops ops = elec_bully.ops;

	KUNIT_EXPECT_PTR_EQ(test, elec_algo_find(ELEC_ALGO_BULLY),
			    &elec_bully.ops);
	KUNIT_EXPECT_PTR_EQ(test, elec_algo_find_name("bully"),
			    &elec_bully.ops);
	KUNIT_EXPECT_NULL(test, elec_algo_find(ELEC_ALGO_UNSPEC));
	KUNIT_EXPECT_NULL(test, elec_algo_find(ELEC_ALGO_MAX + 1));
	KUNIT_EXPECT_NULL(test, elec_algo_find(255));
	KUNIT_EXPECT_NULL(test, elec_algo_find_name("Bully"));
	KUNIT_EXPECT_NULL(test, elec_algo_find_name("bull"));
	KUNIT_EXPECT_NULL(test, elec_algo_find_name(""));
	KUNIT_EXPECT_NULL(test, elec_algo_find_name(NULL));

	KUNIT_EXPECT_TRUE(test, elec_algo_ops_valid(&ops));
	ops.peer_removed = NULL;
	ops.payload_ok = NULL;
	KUNIT_EXPECT_TRUE(test, elec_algo_ops_valid(&ops));	/* optional */
	ops = elec_bully.ops;
	ops.start = NULL;
	KUNIT_EXPECT_FALSE(test, elec_algo_ops_valid(&ops));
	ops = elec_bully.ops;
	ops.stop = NULL;
	KUNIT_EXPECT_FALSE(test, elec_algo_ops_valid(&ops));
	ops = elec_bully.ops;
	ops.elect = NULL;
	KUNIT_EXPECT_FALSE(test, elec_algo_ops_valid(&ops));
	ops = elec_bully.ops;
	ops.rx = NULL;
	KUNIT_EXPECT_FALSE(test, elec_algo_ops_valid(&ops));
	ops = elec_bully.ops;
	ops.timer = NULL;
	KUNIT_EXPECT_FALSE(test, elec_algo_ops_valid(&ops));
	ops = elec_bully.ops;
	ops.silent = NULL;
	KUNIT_EXPECT_FALSE(test, elec_algo_ops_valid(&ops));
	ops = elec_bully.ops;
	ops.name = NULL;
	KUNIT_EXPECT_FALSE(test, elec_algo_ops_valid(&ops));
	ops = elec_bully.ops;
	ops.algo = ELEC_ALGO_UNSPEC;
	KUNIT_EXPECT_FALSE(test, elec_algo_ops_valid(&ops));
	ops.algo = ELEC_ALGO_MAX + 1;
	KUNIT_EXPECT_FALSE(test, elec_algo_ops_valid(&ops));
	KUNIT_EXPECT_FALSE(test, elec_algo_ops_valid(NULL));
}

struct tcore_bad_cfg {
	const char *why;
	u32 self_id;
	u16 group;
	u8 algo;
	u32 hb_miss;
	u64 hb;
	u64 t;
	u64 coord;
};

static const struct tcore_bad_cfg tcore_bad_cfgs[] = {
	{ "node id 0 is reserved", 0, 1, 1, 3, T_HB, T_T, 0 },
	{ "group id 0 is reserved", 1, 0, 1, 3, T_HB, T_T, 0 },
	{ "unknown algorithm", 1, 1, 0, 3, T_HB, T_T, 0 },
	{ "unknown algorithm", 1, 1, ELEC_ALGO_MAX + 1, 3, T_HB, T_T, 0 },
	{ "hb-interval out of range (100us..60s)", 1, 1, 1, 3,
	  ELECTION_DUR_MIN_NS - 1, T_T, 0 },
	{ "hb-interval out of range (100us..60s)", 1, 1, 1, 3,
	  ELECTION_DUR_MAX_NS + 1, T_T, 0 },
	{ "hb-interval out of range (100us..60s)", 1, 1, 1, 3, 0, T_T, 0 },
	{ "hb-miss out of range (1..1000)", 1, 1, 1, 0, T_HB, T_T, 0 },
	{ "hb-miss out of range (1..1000)", 1, 1, 1, 1001, T_HB, T_T, 0 },
	{ "timeout out of range (100us..60s)", 1, 1, 1, 3, T_HB,
	  ELECTION_DUR_MIN_NS - 1, 0 },
	{ "timeout out of range (100us..60s)", 1, 1, 1, 3, T_HB,
	  ELECTION_DUR_MAX_NS + 1, 0 },
	{ "coord-timeout out of range (100us..60s)", 1, 1, 1, 3, T_HB, T_T,
	  ELECTION_DUR_MIN_NS - 1 },
	{ "coord-timeout out of range (100us..60s)", 1, 1, 1, 3, T_HB, T_T,
	  ELECTION_DUR_MAX_NS + 1 },
};

static void tcore_config_check(struct kunit *test)
{
	struct elec_config cfg;
	const char *why;
	size_t i;

	t_cfg(&cfg, 1);
	why = "untouched";
	KUNIT_EXPECT_EQ(test, elec_config_check(&cfg, &why), 0);
	KUNIT_EXPECT_STREQ(test, why, "untouched");
	KUNIT_EXPECT_EQ(test, elec_config_check(&cfg, NULL), 0);
	KUNIT_EXPECT_EQ(test, elec_config_check(NULL, &why), -EINVAL);

	/* inclusive bounds */
	cfg.hb_interval_ns = ELECTION_DUR_MIN_NS;
	cfg.timeout_ns = ELECTION_DUR_MAX_NS;
	cfg.coord_timeout_ns = ELECTION_DUR_MIN_NS;
	cfg.hb_miss = ELECTION_HB_MISS_MIN;
	KUNIT_EXPECT_EQ(test, elec_config_check(&cfg, &why), 0);
	cfg.hb_interval_ns = ELECTION_DUR_MAX_NS;
	cfg.timeout_ns = ELECTION_DUR_MIN_NS;
	cfg.coord_timeout_ns = ELECTION_DUR_MAX_NS;
	cfg.hb_miss = ELECTION_HB_MISS_MAX;
	cfg.self_id = 0xffffffff;
	cfg.group = 0xffff;
	KUNIT_EXPECT_EQ(test, elec_config_check(&cfg, &why), 0);

	for (i = 0; i < ARRAY_SIZE(tcore_bad_cfgs); i++) {
		const struct tcore_bad_cfg *b = &tcore_bad_cfgs[i];

		cfg.self_id = b->self_id;
		cfg.group = b->group;
		cfg.algo = b->algo;
		cfg.hb_miss = b->hb_miss;
		cfg.hb_interval_ns = b->hb;
		cfg.timeout_ns = b->t;
		cfg.coord_timeout_ns = b->coord;
		why = NULL;
		KUNIT_EXPECT_EQ_MSG(test, elec_config_check(&cfg, &why),
				    -EINVAL, "case %zu", i);
		KUNIT_EXPECT_NOT_NULL(test, why);
		if (why)
			KUNIT_EXPECT_STREQ(test, why, b->why);
		KUNIT_EXPECT_EQ(test, elec_config_check(&cfg, NULL), -EINVAL);
	}
}

/*
 * ask-suspect and preempt apply to bully only; a preempt-delay is 0 or a
 * duration in range.
 */
static void tcore_config_bully_options(struct kunit *test)
{
	static const u8 rings[] = { ELEC_ALGO_RING, ELEC_ALGO_RING_ALL,
				    ELEC_ALGO_RING_LIST };
	static const char * const preempt_why =
		"preempt applies to the Bully algorithms only";
	static const char * const pdelay_why =
		"preempt-delay applies to the Bully algorithms only";
	static const char * const ask_why =
		"ask-suspect applies to the Bully algorithms only";
	static const char * const delay_why =
		"preempt-delay out of range (0 or 100us..60s)";
	struct t_node *n = t_node_new(test, 3, t_ids5, 5);
	struct elec_config cfg;
	const char *why;
	size_t i;

	t_cfg(&cfg, 1);
	cfg.ask_suspect_off = true;
	cfg.preempt_off = true;
	KUNIT_EXPECT_EQ(test, elec_config_check(&cfg, NULL), 0);
	cfg.preempt_off = false;
	cfg.preempt_delay_ns = ELECTION_DUR_MIN_NS;
	KUNIT_EXPECT_EQ(test, elec_config_check(&cfg, NULL), 0);
	cfg.preempt_delay_ns = ELECTION_DUR_MAX_NS;
	KUNIT_EXPECT_EQ(test, elec_config_check(&cfg, NULL), 0);
	cfg.preempt_delay_ns = ELECTION_DUR_MIN_NS - 1;
	why = NULL;
	KUNIT_EXPECT_EQ(test, elec_config_check(&cfg, &why), -EINVAL);
	KUNIT_EXPECT_STREQ(test, why, delay_why);
	cfg.preempt_delay_ns = ELECTION_DUR_MAX_NS + 1;
	why = NULL;
	KUNIT_EXPECT_EQ(test, elec_config_check(&cfg, &why), -EINVAL);
	KUNIT_EXPECT_STREQ(test, why, delay_why);

	for (i = 0; i < ARRAY_SIZE(rings); i++) {
		t_cfg_algo(&cfg, rings[i], 1);
		KUNIT_EXPECT_EQ(test, elec_config_check(&cfg, NULL), 0);
		cfg.preempt_off = true;
		why = NULL;
		KUNIT_EXPECT_EQ_MSG(test, elec_config_check(&cfg, &why),
				    -EINVAL, "algo %u", rings[i]);
		KUNIT_EXPECT_STREQ(test, why, preempt_why);
		cfg.preempt_off = false;
		cfg.preempt_delay_ns = ELECTION_DUR_MIN_NS;
		why = NULL;
		KUNIT_EXPECT_EQ(test, elec_config_check(&cfg, &why), -EINVAL);
		KUNIT_EXPECT_STREQ(test, why, pdelay_why);
		cfg.preempt_delay_ns = 0;
		cfg.ask_suspect_off = true;
		why = NULL;
		KUNIT_EXPECT_EQ(test, elec_config_check(&cfg, &why), -EINVAL);
		KUNIT_EXPECT_STREQ(test, why, ask_why);
	}

	/* the options may change on a running bully instance, silently */
	t_make_follower(n, 5, 1);
	cfg = n->c.cfg;
	cfg.ask_suspect_off = true;
	cfg.preempt_off = true;
	KUNIT_EXPECT_EQ(test, elec_core_set_config(&n->c, &cfg, NULL), 0);
	cfg.preempt_delay_ns = 1;
	KUNIT_EXPECT_EQ(test, elec_core_set_config(&n->c, &cfg, NULL),
			-EINVAL);
	KUNIT_EXPECT_TRUE(test, n->c.cfg.preempt_off);
	KUNIT_EXPECT_EQ(test, n->c.cfg.preempt_delay_ns, 0);
	KUNIT_EXPECT_EQ(test, n->n_acts, 0);
}

static void tcore_coord_timeout(struct kunit *test)
{
	struct elec_config cfg;

	t_cfg(&cfg, 1);
	KUNIT_EXPECT_EQ(test, elec_config_coord_timeout(&cfg),
			ELECTION_DEF_COORD_TIMEOUT_MULT * T_T);
	cfg.coord_timeout_ns = 123456789;
	KUNIT_EXPECT_EQ(test, elec_config_coord_timeout(&cfg), 123456789ULL);
	/* the default never exceeds the largest duration */
	cfg.coord_timeout_ns = 0;
	cfg.timeout_ns = ELECTION_DUR_MAX_NS;
	KUNIT_EXPECT_EQ(test, elec_config_coord_timeout(&cfg),
			ELECTION_DUR_MAX_NS);
}

static void tcore_init(struct kunit *test)
{
	struct t_node *n = kunit_kzalloc(test, sizeof(*n), GFP_KERNEL);
	struct elec_sink sink = { .emit = t_emit };
	struct elec_sink nosink = { .emit = NULL };
	struct elec_config cfg;
	/* static: struct elec_core is too big for a test's stack */
	static struct elec_core before;

	KUNIT_ASSERT_NOT_NULL(test, n);
	n->test = test;
	sink.ctx = n;
	t_cfg(&cfg, 9);

	memset(&n->c, 0xa5, sizeof(n->c));
	memcpy(&before, &n->c, sizeof(before));
	KUNIT_EXPECT_EQ(test, elec_core_init(&n->c, &cfg, n->peers, 4, NULL),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, elec_core_init(&n->c, &cfg, n->peers, 4,
					     &nosink), -EINVAL);
	KUNIT_EXPECT_EQ(test, elec_core_init(&n->c, &cfg, NULL, 4, &sink),
			-EINVAL);
	cfg.group = 0;
	KUNIT_EXPECT_EQ(test, elec_core_init(&n->c, &cfg, n->peers, 4, &sink),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, memcmp(&n->c, &before, sizeof(before)), 0);

	cfg.group = T_GROUP;
	KUNIT_ASSERT_EQ(test, elec_core_init(&n->c, &cfg, n->peers, 4, &sink),
			0);
	KUNIT_EXPECT_PTR_EQ(test, n->c.ops, &elec_bully.ops);
	KUNIT_EXPECT_FALSE(test, n->c.running);
	KUNIT_EXPECT_EQ(test, n->c.role, ELEC_ROLE_STOPPED);
	KUNIT_EXPECT_EQ(test, n->c.leader, 0);
	KUNIT_EXPECT_EQ(test, n->c.term, 0);
	KUNIT_EXPECT_EQ(test, n->c.n_peers, 0);
	KUNIT_EXPECT_EQ(test, n->c.max_peers, 4);
	KUNIT_EXPECT_EQ(test, n->c.cfg.self_id, 9);
	KUNIT_EXPECT_EQ(test, t_timers(n), 0);
	KUNIT_EXPECT_EQ(test, n->c.stats.elections, 0);
	KUNIT_EXPECT_EQ(test, n->n_acts, 0);
	/* no peers at all is fine too */
	KUNIT_EXPECT_EQ(test, elec_core_init(&n->c, &cfg, NULL, 0, &sink), 0);
}

static void tcore_set_config(struct kunit *test)
{
	struct t_node *n = t_node_new(test, 3, t_ids5, 5);
	struct elec_config cfg = n->c.cfg;
	/* static: struct elec_core is too big for a test's stack */
	static struct elec_core before;
	const char *why;

	t_make_follower(n, 5, 1);
	memcpy(&before, &n->c, sizeof(before));

	cfg.hb_miss = 0;
	why = NULL;
	KUNIT_EXPECT_EQ(test, elec_core_set_config(&n->c, &cfg, &why),
			-EINVAL);
	KUNIT_EXPECT_STREQ(test, why, "hb-miss out of range (1..1000)");
	cfg = n->c.cfg;
	cfg.timeout_ns = 1;
	KUNIT_EXPECT_EQ(test, elec_core_set_config(&n->c, &cfg, &why),
			-EINVAL);
	KUNIT_EXPECT_STREQ(test, why, "timeout out of range (100us..60s)");
	cfg = n->c.cfg;
	cfg.self_id = 4;
	KUNIT_EXPECT_EQ(test, elec_core_set_config(&n->c, &cfg, &why),
			-EINVAL);
	KUNIT_EXPECT_STREQ(test, why,
			   "node id, group and algorithm cannot be changed");
	cfg = n->c.cfg;
	cfg.group = 8;
	KUNIT_EXPECT_EQ(test, elec_core_set_config(&n->c, &cfg, NULL),
			-EINVAL);
	/* the options without ELEC_OPTF_SET: fixed by group add */
	cfg = n->c.cfg;
	cfg.self_pos = 9;
	KUNIT_EXPECT_EQ(test, elec_core_set_config(&n->c, &cfg, &why),
			-EINVAL);
	KUNIT_EXPECT_STREQ(test, why,
			   "pos is set when the group is added and cannot be changed");
	/* rejected: nothing changed, nothing emitted */
	KUNIT_EXPECT_EQ(test, memcmp(&n->c, &before, sizeof(before)), 0);
	KUNIT_EXPECT_EQ(test, n->n_acts, 0);

	cfg = n->c.cfg;
	cfg.hb_interval_ns = 1000000;
	cfg.hb_miss = 5;
	KUNIT_EXPECT_EQ(test, elec_core_set_config(&n->c, &cfg, &why), 0);
	KUNIT_EXPECT_EQ(test, n->n_acts, 0);
	KUNIT_EXPECT_EQ(test, n->c.cfg.hb_miss, 5);
	/* armed timers keep their expiry; the next arm uses the new values */
	KUNIT_EXPECT_EQ(test, n->c.timer_expires[ELEC_TIMER_DETECT],
			before.timer_expires[ELEC_TIMER_DETECT]);
	t_rx(n, ELEC_MSG_HEARTBEAT, 5, 0, 1);
	KUNIT_EXPECT_EQ(test, t_armed_at(n, ELEC_TIMER_DETECT),
			n->now + 5 * 1000000ULL);
}

static void tcore_peers(struct kunit *test)
{
	static const u8 mac[ELEC_LLADDR_LEN] = { 2, 0, 0, 0, 0, 7 };
	static const u32 order[] = { 50, 10, 40, 20, 30 };
	struct t_node *n = t_node_new(test, 25, NULL, 0);
	struct elec_peer *p;
	u32 i;

	n->c.max_peers = 6;
	for (i = 0; i < 5; i++)
		KUNIT_EXPECT_EQ(test, elec_core_peer_add(&n->c, order[i],
							 order[i] == 40 ?
							 mac : NULL), 0);
	KUNIT_ASSERT_EQ(test, n->c.n_peers, 5);
	for (i = 0; i < 5; i++)
		KUNIT_EXPECT_EQ(test, n->c.peers[i].id, 10 * (i + 1));
	for (i = 0; i < 5; i++) {
		p = elec_core_peer_find(&n->c, 10 * (i + 1));
		KUNIT_ASSERT_NOT_NULL(test, p);
		KUNIT_EXPECT_EQ(test, p->id, 10 * (i + 1));
		KUNIT_EXPECT_EQ(test, p->alive, 1);
		KUNIT_EXPECT_EQ(test, p->flags, 0);
	}
	p = elec_core_peer_find(&n->c, 40);
	KUNIT_EXPECT_EQ(test, memcmp(p->lladdr, mac, sizeof(mac)), 0);
	p = elec_core_peer_find(&n->c, 10);
	KUNIT_EXPECT_EQ(test, p->lladdr[5], 0);
	KUNIT_EXPECT_NULL(test, elec_core_peer_find(&n->c, 0));
	KUNIT_EXPECT_NULL(test, elec_core_peer_find(&n->c, 5));
	KUNIT_EXPECT_NULL(test, elec_core_peer_find(&n->c, 25));
	KUNIT_EXPECT_NULL(test, elec_core_peer_find(&n->c, 35));
	KUNIT_EXPECT_NULL(test, elec_core_peer_find(&n->c, 51));

	KUNIT_EXPECT_EQ(test, elec_core_peer_add(&n->c, 0, NULL), -EINVAL);
	KUNIT_EXPECT_EQ(test, elec_core_peer_add(&n->c, 25, NULL), -EINVAL);
	KUNIT_EXPECT_EQ(test, elec_core_peer_add(&n->c, 30, NULL), -EEXIST);
	KUNIT_EXPECT_EQ(test, elec_core_peer_add(&n->c, 60, NULL), 0);
	KUNIT_EXPECT_EQ(test, elec_core_peer_add(&n->c, 70, NULL), -ENOSPC);
	KUNIT_EXPECT_EQ(test, elec_core_peer_add(&n->c, 60, NULL), -EEXIST);
	KUNIT_EXPECT_EQ(test, n->c.n_peers, 6);

	KUNIT_EXPECT_EQ(test, elec_core_peer_del(&n->c, 35, n->now), -ENOENT);
	KUNIT_EXPECT_EQ(test, elec_core_peer_del(&n->c, 0, n->now), -ENOENT);
	KUNIT_EXPECT_EQ(test, elec_core_peer_del(&n->c, 30, n->now), 0);
	KUNIT_EXPECT_EQ(test, elec_core_peer_del(&n->c, 30, n->now), -ENOENT);
	KUNIT_EXPECT_EQ(test, elec_core_peer_del(&n->c, 60, n->now), 0);
	KUNIT_EXPECT_EQ(test, elec_core_peer_del(&n->c, 10, n->now), 0);
	KUNIT_ASSERT_EQ(test, n->c.n_peers, 3);
	KUNIT_EXPECT_EQ(test, n->c.peers[0].id, 20);
	KUNIT_EXPECT_EQ(test, n->c.peers[1].id, 40);
	KUNIT_EXPECT_EQ(test, n->c.peers[2].id, 50);
	KUNIT_EXPECT_EQ(test, memcmp(n->c.peers[1].lladdr, mac, sizeof(mac)),
			0);
	/* the table never emits anything */
	KUNIT_EXPECT_EQ(test, n->n_acts, 0);
}

static void tcore_peers_full_table(struct kunit *test)
{
	const u32 max = ELECTION_MAX_NODES - 1;
	struct elec_peer *buf = kunit_kzalloc(test, max * sizeof(*buf),
					      GFP_KERNEL);
	struct t_node *n = t_node_new(test, 1000, NULL, 0);
	struct elec_sink sink = { .emit = t_emit, .ctx = n };
	struct elec_config cfg;
	u32 i, id;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	t_cfg(&cfg, 1000);
	KUNIT_ASSERT_EQ(test, elec_core_init(&n->c, &cfg, buf, max, &sink), 0);
	/* 255 ids in scrambled order: 7 * i mod 256 visits 1..255 once */
	for (i = 1; i <= max; i++) {
		id = (7 * i) % 256;
		KUNIT_ASSERT_EQ_MSG(test, elec_core_peer_add(&n->c, id * 3,
							     NULL), 0,
				    "id %u", id * 3);
	}
	KUNIT_EXPECT_EQ(test, elec_core_peer_add(&n->c, 2000, NULL), -ENOSPC);
	KUNIT_EXPECT_EQ(test, elec_core_peer_add(&n->c, 3, NULL), -EEXIST);
	for (i = 0; i < max; i++)
		KUNIT_EXPECT_EQ(test, n->c.peers[i].id, 3 * (i + 1));
	for (i = 1; i <= max; i++)
		KUNIT_EXPECT_PTR_EQ(test, elec_core_peer_find(&n->c, 3 * i),
				    &buf[i - 1]);
	for (i = 1; i <= 3 * max + 1; i += 3)
		KUNIT_EXPECT_NULL(test, elec_core_peer_find(&n->c, i));
}

static void tcore_rx_checks(struct kunit *test)
{
	struct t_node *n = t_node_new(test, 3, t_ids5, 5);
	struct elec_stats *st = &n->c.stats;
	u64 rx0[ELEC_MSG_MAX + 1];
	struct elec_msg m;

	/* stopped comes first, whatever else is wrong */
	t_msg(&m, ELEC_MSG_HEARTBEAT, 9, 8, 1);
	m.group = 99;
	elec_core_rx(&n->c, &m, n->now);
	KUNIT_EXPECT_EQ(test, st->drops[ELEC_DROP_STOPPED], 1);

	t_make_follower(n, 5, 1);
	memcpy(&rx0, st->rx, sizeof(rx0));
	/* wrong group before wrong algo */
	m.algo = 9;
	elec_core_rx(&n->c, &m, n->now);
	KUNIT_EXPECT_EQ(test, st->drops[ELEC_DROP_WRONG_GROUP], 1);
	/* wrong algo before wrong destination */
	m.group = T_GROUP;
	elec_core_rx(&n->c, &m, n->now);
	KUNIT_EXPECT_EQ(test, st->drops[ELEC_DROP_WRONG_ALGO], 1);
	/* wrong destination before unknown peer */
	m.algo = ELEC_ALGO_BULLY;
	elec_core_rx(&n->c, &m, n->now);
	KUNIT_EXPECT_EQ(test, st->drops[ELEC_DROP_WRONG_DST], 1);
	/* unknown peer; the local id is not a peer either */
	m.dst = 3;
	elec_core_rx(&n->c, &m, n->now);
	m.src = 3;
	elec_core_rx(&n->c, &m, n->now);
	KUNIT_EXPECT_EQ(test, st->drops[ELEC_DROP_UNKNOWN_PEER], 2);
	/* a type that the codec would refuse */
	m.src = 5;
	m.type = ELEC_MSG_MAX + 1;
	elec_core_rx(&n->c, &m, n->now);
	m.type = ELEC_MSG_UNSPEC;
	elec_core_rx(&n->c, &m, n->now);
	KUNIT_EXPECT_EQ(test, st->drops[ELEC_DROP_MALFORMED], 2);

	/* nothing counted as received, nothing emitted, state unchanged */
	KUNIT_EXPECT_EQ(test, memcmp(&rx0, st->rx, sizeof(rx0)), 0);
	KUNIT_EXPECT_EQ(test, n->n_acts, 0);
	KUNIT_EXPECT_EQ(test, n->c.leader, 5);

	/* unicast to us and broadcast both pass */
	m.type = ELEC_MSG_HEARTBEAT;
	elec_core_rx(&n->c, &m, n->now);
	m.dst = 0;
	elec_core_rx(&n->c, &m, n->now);
	KUNIT_EXPECT_EQ(test, st->rx[ELEC_MSG_HEARTBEAT],
			rx0[ELEC_MSG_HEARTBEAT] + 2);
	KUNIT_EXPECT_EQ(test, t_arms(n, ELEC_TIMER_DETECT), 2);

	/* out-of-range drop reasons are not counted anywhere */
	elec_core_drop(&n->c, ELEC_DROP_UNSPEC);
	elec_core_drop(&n->c, ELEC_DROP_MAX + 1);
	KUNIT_EXPECT_EQ(test, st->drops[ELEC_DROP_UNSPEC], 0);
}

static void tcore_timer_dispatch(struct kunit *test)
{
	struct t_node *n = t_node_new(test, 3, t_ids5, 5);
	u64 at;

	/* stopped: nothing is armed, nothing happens */
	elec_core_timer(&n->c, ELEC_TIMER_DETECT, n->now + T_DETECT);
	KUNIT_EXPECT_EQ(test, n->n_acts, 0);

	t_start(n);
	at = n->c.timer_expires[ELEC_TIMER_DETECT];
	KUNIT_ASSERT_EQ(test, at, n->now + T_DETECT);
	t_clear(n);
	/* early: an hrtimer that raced a re-arm */
	elec_core_timer(&n->c, ELEC_TIMER_DETECT, at - 1);
	/* not armed */
	elec_core_timer(&n->c, ELEC_BULLY_TIMER_ANSWER, at + 1);
	elec_core_timer(&n->c, ELEC_TIMER_HEARTBEAT, at + 1);
	/* no such timer */
	elec_core_timer(&n->c, ELEC_TIMER_COUNT, at + 1);
	elec_core_timer(&n->c, (enum elec_timer_id)200, at + 1);
	KUNIT_EXPECT_EQ(test, n->n_acts, 0);
	KUNIT_EXPECT_EQ(test, n->c.phase, ELEC_BULLY_LEARNING);
	KUNIT_EXPECT_EQ(test, n->c.timer_expires[ELEC_TIMER_DETECT], at);

	/* on time: handled once; a duplicate expiry is ignored */
	elec_core_timer(&n->c, ELEC_TIMER_DETECT, at);
	KUNIT_EXPECT_EQ(test, n->c.phase, ELEC_BULLY_WAIT_ANSWER);
	KUNIT_EXPECT_EQ(test, n->c.stats.elections, 1);
	KUNIT_EXPECT_EQ(test, n->c.timer_expires[ELEC_TIMER_DETECT], 0);
	t_clear(n);
	elec_core_timer(&n->c, ELEC_TIMER_DETECT, at);
	KUNIT_EXPECT_EQ(test, n->n_acts, 0);
	KUNIT_EXPECT_EQ(test, n->c.stats.elections, 1);

	/* a cancelled timer whose expiry still arrives is ignored */
	t_rx(n, ELEC_MSG_ANSWER, 4, 3, 0);
	KUNIT_EXPECT_EQ(test, t_cancels(n, ELEC_BULLY_TIMER_ANSWER), 1);
	t_clear(n);
	elec_core_timer(&n->c, ELEC_BULLY_TIMER_ANSWER, n->now + T_T);
	KUNIT_EXPECT_EQ(test, n->n_acts, 0);
	KUNIT_EXPECT_EQ(test, n->c.phase, ELEC_BULLY_WAIT_COORD);
}

/*
 * A failure detector expiry at least a heartbeat interval late (the node
 * itself was held up) re-arms the detector for one more window instead of
 * declaring the leader failed, once per arming; a heartbeat in the window
 * keeps the leader; a second late expiry in a row, or one less than a
 * heartbeat interval late, is the algorithm's at once.
 */
static void tcore_detect_late(struct kunit *test)
{
	struct t_node *n = t_node_new(test, 4, t_ids5, 5);
	u64 at;

	/* under a heartbeat interval late: declared at once */
	t_make_follower(n, 5, 1);
	at = n->c.timer_expires[ELEC_TIMER_DETECT];
	elec_core_timer(&n->c, ELEC_TIMER_DETECT, at + T_HB - 1);
	KUNIT_EXPECT_EQ(test, t_events(n, ELEC_EVENT_PEER_DOWN, 5), 1);
	KUNIT_EXPECT_EQ(test, n->c.stats.detect_deferred, 0);

	n = t_node_new(test, 4, t_ids5, 5);
	t_make_follower(n, 5, 1);
	at = n->c.timer_expires[ELEC_TIMER_DETECT];
	n->now = at + T_HB;
	elec_core_timer(&n->c, ELEC_TIMER_DETECT, n->now);
	KUNIT_EXPECT_EQ(test, n->n_acts, 1);
	KUNIT_EXPECT_EQ(test, t_arms(n, ELEC_TIMER_DETECT), 1);
	KUNIT_EXPECT_EQ(test, n->c.timer_expires[ELEC_TIMER_DETECT],
			n->now + T_DETECT);
	KUNIT_EXPECT_EQ(test, n->c.stats.detect_deferred, 1);
	KUNIT_EXPECT_EQ(test, n->c.leader, 5);
	KUNIT_EXPECT_EQ(test, n->c.phase, ELEC_BULLY_FOLLOWING);
	/* the heartbeat that was waiting arrives: the leader stays */
	n->now += 1000;
	t_rx(n, ELEC_MSG_HEARTBEAT, 5, 0, 1);
	KUNIT_EXPECT_EQ(test, n->c.leader, 5);
	KUNIT_EXPECT_EQ(test, n->c.stats.elections, 1);
	/* a new arming: a late expiry is deferred again */
	at = n->c.timer_expires[ELEC_TIMER_DETECT];
	n->now = at + 5 * T_HB;
	t_clear(n);
	elec_core_timer(&n->c, ELEC_TIMER_DETECT, n->now);
	KUNIT_EXPECT_EQ(test, n->c.stats.detect_deferred, 2);
	KUNIT_EXPECT_EQ(test, t_sends(n, 0, T_ANY), 0);
	/* late again with no heartbeat between: the leader failed */
	n->now = n->c.timer_expires[ELEC_TIMER_DETECT] + T_HB;
	elec_core_timer(&n->c, ELEC_TIMER_DETECT, n->now);
	KUNIT_EXPECT_EQ(test, n->c.stats.detect_deferred, 2);
	KUNIT_EXPECT_EQ(test, t_events(n, ELEC_EVENT_PEER_DOWN, 5), 1);
	KUNIT_EXPECT_EQ(test, n->c.stats.elections, 2);
	KUNIT_EXPECT_EQ(test, n->c.phase, ELEC_BULLY_WAIT_ANSWER);
	/* other timers are never deferred */
	n->now = n->c.timer_expires[ELEC_BULLY_TIMER_ANSWER] + 10 * T_HB;
	elec_core_timer(&n->c, ELEC_BULLY_TIMER_ANSWER, n->now);
	KUNIT_EXPECT_EQ(test, n->c.role, ELEC_ROLE_LEADER);

	/*
	 * Deferred, then no heartbeat: the extra window ends on time and
	 * the leader is declared failed. Meanwhile an earlier arming (news
	 * of the leader from a third node) leaves the window as it is.
	 */
	n = t_node_new(test, 4, t_ids5, 5);
	t_make_follower(n, 5, 1);
	n->now = n->c.timer_expires[ELEC_TIMER_DETECT] + 2 * T_HB;
	elec_core_timer(&n->c, ELEC_TIMER_DETECT, n->now);
	KUNIT_ASSERT_EQ(test, n->c.stats.detect_deferred, 1);
	at = n->c.timer_expires[ELEC_TIMER_DETECT];
	t_clear(n);
	elec_core_arm(&n->c, ELEC_TIMER_DETECT, n->now, n->now);
	KUNIT_EXPECT_EQ(test, n->n_acts, 0);
	KUNIT_EXPECT_EQ(test, n->c.timer_expires[ELEC_TIMER_DETECT], at);
	KUNIT_EXPECT_TRUE(test, n->c.detect_deferred);
	t_fire(n, ELEC_TIMER_DETECT);
	KUNIT_EXPECT_EQ(test, n->now, at);
	KUNIT_EXPECT_EQ(test, t_events(n, ELEC_EVENT_PEER_DOWN, 5), 1);
	KUNIT_EXPECT_EQ(test, n->c.leader, 0);
	KUNIT_EXPECT_EQ(test, n->c.stats.elections, 2);
	KUNIT_EXPECT_EQ(test, n->c.stats.detect_deferred, 1);

	/* a later arming replaces the window, a cancel ends it */
	n = t_node_new(test, 4, t_ids5, 5);
	t_make_follower(n, 5, 1);
	n->now = n->c.timer_expires[ELEC_TIMER_DETECT] + T_HB;
	elec_core_timer(&n->c, ELEC_TIMER_DETECT, n->now);
	at = n->c.timer_expires[ELEC_TIMER_DETECT];
	elec_core_arm(&n->c, ELEC_TIMER_DETECT, at + 1, n->now);
	KUNIT_EXPECT_EQ(test, n->c.timer_expires[ELEC_TIMER_DETECT], at + 1);
	KUNIT_EXPECT_FALSE(test, n->c.detect_deferred);
	n->now = at + 1 + T_HB;
	elec_core_timer(&n->c, ELEC_TIMER_DETECT, n->now);
	KUNIT_EXPECT_EQ(test, n->c.stats.detect_deferred, 2);
	elec_core_cancel(&n->c, ELEC_TIMER_DETECT, n->now);
	KUNIT_EXPECT_FALSE(test, n->c.detect_deferred);
	elec_core_arm(&n->c, ELEC_TIMER_DETECT, n->now + 1, n->now);
	KUNIT_EXPECT_EQ(test, n->c.timer_expires[ELEC_TIMER_DETECT],
			n->now + 1);
}

static void tcore_helpers(struct kunit *test)
{
	struct t_node *n = t_node_new(test, 3, t_ids5, 5);
	const struct elec_action *a;
	struct elec_peer *p;

	elec_core_cancel(&n->c, ELEC_BULLY_TIMER_COORD, n->now);
	KUNIT_EXPECT_EQ(test, n->n_acts, 0);	/* not armed: silent */
	elec_core_arm(&n->c, ELEC_BULLY_TIMER_COORD, 0, n->now);
	KUNIT_EXPECT_EQ(test, n->c.timer_expires[ELEC_BULLY_TIMER_COORD], 1);
	elec_core_arm(&n->c, ELEC_BULLY_TIMER_COORD, 77, n->now);
	KUNIT_EXPECT_EQ(test, n->c.timer_expires[ELEC_BULLY_TIMER_COORD], 77);
	elec_core_cancel(&n->c, ELEC_BULLY_TIMER_COORD, n->now);
	KUNIT_EXPECT_EQ(test, n->c.timer_expires[ELEC_BULLY_TIMER_COORD], 0);
	KUNIT_ASSERT_EQ(test, n->n_acts, 3);
	a = t_act(n, 1);
	KUNIT_EXPECT_EQ(test, a->kind, ELEC_ACT_TIMER_ARM);
	KUNIT_EXPECT_EQ(test, a->timer.id, ELEC_BULLY_TIMER_COORD);
	KUNIT_EXPECT_EQ(test, a->timer.expires_ns, 77);
	KUNIT_EXPECT_EQ(test, a->now_ns, n->now);
	KUNIT_EXPECT_EQ(test, t_act(n, 2)->kind, ELEC_ACT_TIMER_CANCEL);
	t_clear(n);

	elec_core_send(&n->c, ELEC_MSG_ANSWER, 4, 12, NULL, 0, n->now);
	KUNIT_ASSERT_EQ(test, n->n_acts, 1);
	a = t_act(n, 0);
	KUNIT_EXPECT_EQ(test, a->kind, ELEC_ACT_SEND);
	KUNIT_EXPECT_EQ(test, a->msg.type, ELEC_MSG_ANSWER);
	KUNIT_EXPECT_EQ(test, a->msg.algo, ELEC_ALGO_BULLY);
	KUNIT_EXPECT_EQ(test, a->msg.flags, 0);
	KUNIT_EXPECT_EQ(test, a->msg.group, T_GROUP);
	KUNIT_EXPECT_EQ(test, a->msg.src, 3);
	KUNIT_EXPECT_EQ(test, a->msg.dst, 4);
	KUNIT_EXPECT_EQ(test, a->msg.term, 12);
	KUNIT_EXPECT_EQ(test, a->msg.payload_len, 0);
	KUNIT_EXPECT_EQ(test, n->c.stats.tx[ELEC_MSG_ANSWER], 1);
	t_clear(n);

	elec_core_set_leader(&n->c, 5, 4, n->now);
	elec_core_set_leader(&n->c, 5, 6, n->now);	/* term only: silent */
	elec_core_set_leader(&n->c, 0, 6, n->now);
	KUNIT_EXPECT_EQ(test, n->c.stats.leader_changes, 1);
	KUNIT_EXPECT_EQ(test, n->c.max_term, 6);
	KUNIT_ASSERT_EQ(test, n->n_acts, 2);
	KUNIT_EXPECT_EQ(test, t_act(n, 0)->event.type,
			ELEC_EVENT_LEADER_CHANGED);
	KUNIT_EXPECT_EQ(test, t_act(n, 0)->event.leader, 5);
	KUNIT_EXPECT_EQ(test, t_act(n, 0)->event.term, 4);
	KUNIT_EXPECT_EQ(test, t_act(n, 1)->event.leader, 0);
	t_clear(n);

	p = elec_core_peer_find(&n->c, 2);
	elec_core_peer_set_alive(&n->c, p, true, n->now);	/* no change */
	elec_core_peer_set_alive(&n->c, p, false, n->now);
	elec_core_peer_set_alive(&n->c, p, false, n->now);
	elec_core_peer_set_alive(&n->c, p, true, n->now);
	elec_core_peer_set_alive(&n->c, NULL, false, n->now);
	KUNIT_ASSERT_EQ(test, n->n_acts, 2);
	KUNIT_EXPECT_EQ(test, t_act(n, 0)->event.type, ELEC_EVENT_PEER_DOWN);
	KUNIT_EXPECT_EQ(test, t_act(n, 0)->event.peer, 2);
	KUNIT_EXPECT_EQ(test, t_act(n, 1)->event.type, ELEC_EVENT_PEER_UP);
	KUNIT_EXPECT_EQ(test, p->alive, 1);
}

static void tcore_start_stop(struct kunit *test)
{
	struct t_node *n = t_node_new(test, 3, t_ids5, 5);
	const struct elec_action *a;

	elec_core_stop(&n->c, n->now);		/* not running: nothing */
	elec_core_elect(&n->c, n->now);
	KUNIT_EXPECT_EQ(test, n->n_acts, 0);
	KUNIT_EXPECT_EQ(test, n->c.stats.elections, 0);

	t_start(n);
	KUNIT_EXPECT_TRUE(test, n->c.running);
	t_start(n);				/* already running */
	KUNIT_EXPECT_EQ(test, n->n_acts, 1);
	t_fire(n, ELEC_TIMER_DETECT);
	t_rx(n, ELEC_MSG_ANSWER, 4, 3, 0);
	KUNIT_ASSERT_EQ(test, t_timers(n), T_BIT(ELEC_BULLY_TIMER_COORD));
	t_clear(n);

	elec_core_stop(&n->c, n->now);
	KUNIT_ASSERT_EQ(test, n->n_acts, 2);
	KUNIT_EXPECT_EQ(test, t_act(n, 0)->kind, ELEC_ACT_TIMER_CANCEL);
	KUNIT_EXPECT_EQ(test, t_act(n, 0)->timer.id, ELEC_BULLY_TIMER_COORD);
	a = t_act(n, 1);
	KUNIT_EXPECT_EQ(test, a->kind, ELEC_ACT_EVENT);
	KUNIT_EXPECT_EQ(test, a->event.type, ELEC_EVENT_STOPPED);
	KUNIT_EXPECT_EQ(test, a->event.leader, 0);
	KUNIT_EXPECT_FALSE(test, n->c.running);
	KUNIT_EXPECT_FALSE(test, n->c.participant);
	KUNIT_EXPECT_EQ(test, n->c.role, ELEC_ROLE_STOPPED);
	KUNIT_EXPECT_EQ(test, n->c.phase, ELEC_BULLY_IDLE);
	KUNIT_EXPECT_EQ(test, t_timers(n), 0);

	/* stopped: frames are dropped, timers and elect do nothing */
	t_clear(n);
	t_rx(n, ELEC_MSG_COORDINATOR, 5, 3, 9);
	elec_core_timer(&n->c, ELEC_BULLY_TIMER_COORD, n->now + T_COORD);
	elec_core_elect(&n->c, n->now);
	elec_core_stop(&n->c, n->now);
	KUNIT_EXPECT_EQ(test, n->n_acts, 0);
	KUNIT_EXPECT_EQ(test, n->c.stats.drops[ELEC_DROP_STOPPED], 1);
	KUNIT_EXPECT_EQ(test, n->c.leader, 0);

	/* started again: learning again */
	t_start(n);
	KUNIT_EXPECT_EQ(test, n->c.phase, ELEC_BULLY_LEARNING);
	KUNIT_EXPECT_EQ(test, t_timers(n), T_BIT(ELEC_TIMER_DETECT));
}

static void tcore_stop_leader(struct kunit *test)
{
	struct t_node *n = t_node_new(test, 5, t_ids5, 5);

	t_make_leader(n);
	KUNIT_EXPECT_EQ(test, n->c.term, 1);
	elec_core_stop(&n->c, n->now);
	KUNIT_EXPECT_EQ(test, t_cancels(n, ELEC_TIMER_HEARTBEAT), 1);
	KUNIT_EXPECT_EQ(test, t_events(n, ELEC_EVENT_STOPPED, T_ANY), 1);
	KUNIT_EXPECT_EQ(test, t_sends(n, 0, T_ANY), 0);
	/* the term is kept across a stop */
	KUNIT_EXPECT_EQ(test, n->c.term, 1);
	KUNIT_EXPECT_EQ(test, n->c.max_term, 1);
}

static struct kunit_case elec_core_cases[] = {
	KUNIT_CASE(tcore_registry),
	KUNIT_CASE(tcore_config_check),
	KUNIT_CASE(tcore_config_bully_options),
	KUNIT_CASE(tcore_coord_timeout),
	KUNIT_CASE(tcore_init),
	KUNIT_CASE(tcore_set_config),
	KUNIT_CASE(tcore_peers),
	KUNIT_CASE(tcore_peers_full_table),
	KUNIT_CASE(tcore_rx_checks),
	KUNIT_CASE(tcore_timer_dispatch),
	KUNIT_CASE(tcore_detect_late),
	KUNIT_CASE(tcore_helpers),
	KUNIT_CASE(tcore_start_stop),
	KUNIT_CASE(tcore_stop_leader),
	{}
};

static struct kunit_suite elec_core_suite = {
	.name = "elec_core",
	.test_cases = elec_core_cases,
};

/* ---- elec_bully ------------------------------------------------------- */

static void tb_start_learns(struct kunit *test)
{
	struct t_node *n = t_node_new(test, 3, t_ids5, 5);
	const struct elec_action *a;

	t_start(n);
	KUNIT_ASSERT_EQ(test, n->n_acts, 1);
	a = t_act(n, 0);
	KUNIT_EXPECT_EQ(test, a->kind, ELEC_ACT_TIMER_ARM);
	KUNIT_EXPECT_EQ(test, a->timer.id, ELEC_TIMER_DETECT);
	KUNIT_EXPECT_EQ(test, a->timer.expires_ns, T_START + T_DETECT);
	KUNIT_EXPECT_TRUE(test, n->c.running);
	KUNIT_EXPECT_EQ(test, n->c.role, ELEC_ROLE_FOLLOWER);
	KUNIT_EXPECT_EQ(test, n->c.phase, ELEC_BULLY_LEARNING);
	KUNIT_EXPECT_EQ(test, n->c.leader, 0);
	KUNIT_EXPECT_FALSE(test, n->c.participant);
	KUNIT_EXPECT_EQ(test, n->c.stats.elections, 0);
}

/* Learning window over, nothing heard, highest id: elects itself. */
static void tb_highest_elects_itself(struct kunit *test)
{
	static const u32 ids[] = { 2, 4, 8, 16 };
	struct t_node *n = t_node_new(test, 16, ids, 4);
	const struct elec_action *a;

	t_start(n);
	t_clear(n);
	t_fire(n, ELEC_TIMER_DETECT);
	/* event, event, 3 COORDINATOR (ascending), arm HEARTBEAT */
	KUNIT_ASSERT_EQ(test, n->n_acts, 6);
	KUNIT_EXPECT_EQ(test, t_act(n, 0)->event.type,
			ELEC_EVENT_ELECTION_STARTED);
	a = t_act(n, 1);
	KUNIT_EXPECT_EQ(test, a->event.type, ELEC_EVENT_LEADER_CHANGED);
	KUNIT_EXPECT_EQ(test, a->event.leader, 16);
	KUNIT_EXPECT_EQ(test, a->event.term, 1);
	KUNIT_EXPECT_EQ(test, t_act(n, 2)->msg.dst, 2);
	KUNIT_EXPECT_EQ(test, t_act(n, 3)->msg.dst, 4);
	KUNIT_EXPECT_EQ(test, t_act(n, 4)->msg.dst, 8);
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_COORDINATOR, T_ANY), 3);
	KUNIT_EXPECT_EQ(test, t_act(n, 2)->msg.term, 1);
	a = t_act(n, 5);
	KUNIT_EXPECT_EQ(test, a->kind, ELEC_ACT_TIMER_ARM);
	KUNIT_EXPECT_EQ(test, a->timer.id, ELEC_TIMER_HEARTBEAT);
	KUNIT_EXPECT_EQ(test, a->timer.expires_ns, n->now + T_HB);

	KUNIT_EXPECT_EQ(test, n->c.role, ELEC_ROLE_LEADER);
	KUNIT_EXPECT_EQ(test, n->c.phase, ELEC_BULLY_LEADING);
	KUNIT_EXPECT_EQ(test, n->c.leader, 16);
	KUNIT_EXPECT_EQ(test, n->c.term, 1);
	KUNIT_EXPECT_EQ(test, n->c.max_term, 1);
	KUNIT_EXPECT_FALSE(test, n->c.participant);
	KUNIT_EXPECT_EQ(test, n->c.stats.elections, 1);
	KUNIT_EXPECT_EQ(test, n->c.stats.leader_changes, 1);
	KUNIT_EXPECT_EQ(test, n->c.stats.tx[ELEC_MSG_COORDINATOR], 3);
	KUNIT_EXPECT_EQ(test, n->c.stats.tx[ELEC_MSG_ELECTION], 0);
	KUNIT_EXPECT_EQ(test, t_timers(n), T_BIT(ELEC_TIMER_HEARTBEAT));
}

/*
 * A lower id sends ELECTION to every higher id, one frame each: one that
 * an earlier run declared failed too (alive is informational only).
 */
static void tb_election_to_higher(struct kunit *test)
{
	static const u32 ids[] = { 1, 2, 3, 4, 5, 6 };
	struct t_node *n = t_node_new(test, 3, ids, 6);

	elec_core_peer_find(&n->c, 5)->alive = 0;	/* declared failed */
	t_start(n);
	t_clear(n);
	t_fire(n, ELEC_TIMER_DETECT);
	KUNIT_EXPECT_EQ(test, t_sends(n, 0, T_ANY), 3);
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_ELECTION, 4), 1);
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_ELECTION, 5), 1);
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_ELECTION, 6), 1);
	KUNIT_EXPECT_EQ(test, elec_core_peer_find(&n->c, 5)->alive, 0);
	KUNIT_EXPECT_EQ(test, t_events(n, ELEC_EVENT_ELECTION_STARTED, T_ANY),
			1);
	KUNIT_EXPECT_EQ(test, t_events(n, ELEC_EVENT_LEADER_CHANGED, T_ANY),
			0);
	KUNIT_EXPECT_EQ(test, t_armed_at(n, ELEC_BULLY_TIMER_ANSWER), n->now + T_T);
	KUNIT_EXPECT_EQ(test, t_timers(n), T_BIT(ELEC_BULLY_TIMER_ANSWER));
	KUNIT_EXPECT_EQ(test, n->c.phase, ELEC_BULLY_WAIT_ANSWER);
	KUNIT_EXPECT_EQ(test, n->c.role, ELEC_ROLE_CANDIDATE);
	KUNIT_EXPECT_TRUE(test, n->c.participant);
	KUNIT_EXPECT_EQ(test, n->c.stats.tx[ELEC_MSG_ELECTION], 3);
}

/* T passes with no ANSWER: the higher ids asked are declared failed. */
static void tb_answer_timeout(struct kunit *test)
{
	struct t_node *n = t_node_new(test, 3, t_ids5, 5);

	t_start(n);
	t_fire(n, ELEC_TIMER_DETECT);
	/* a higher peer added after the ELECTIONs went out was not asked */
	KUNIT_ASSERT_EQ(test, elec_core_peer_add(&n->c, 6, NULL), 0);
	t_clear(n);
	t_fire(n, ELEC_BULLY_TIMER_ANSWER);
	KUNIT_EXPECT_EQ(test, t_events(n, ELEC_EVENT_PEER_DOWN, 4), 1);
	KUNIT_EXPECT_EQ(test, t_events(n, ELEC_EVENT_PEER_DOWN, 5), 1);
	KUNIT_EXPECT_EQ(test, t_events(n, ELEC_EVENT_PEER_DOWN, T_ANY), 2);
	KUNIT_EXPECT_EQ(test, elec_core_peer_find(&n->c, 6)->alive, 1);
	KUNIT_EXPECT_EQ(test, elec_core_peer_find(&n->c, 4)->alive, 0);
	KUNIT_EXPECT_EQ(test, elec_core_peer_find(&n->c, 5)->alive, 0);
	KUNIT_EXPECT_EQ(test, elec_core_peer_find(&n->c, 2)->alive, 1);
	/* COORDINATOR to the lower ids only */
	KUNIT_EXPECT_EQ(test, t_sends(n, 0, T_ANY), 2);
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_COORDINATOR, 1), 1);
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_COORDINATOR, 2), 1);
	KUNIT_EXPECT_EQ(test, n->c.role, ELEC_ROLE_LEADER);
	KUNIT_EXPECT_EQ(test, n->c.leader, 3);
	KUNIT_EXPECT_EQ(test, t_timers(n), T_BIT(ELEC_TIMER_HEARTBEAT));
	/* the next run asks the failed ids again, and 6 */
	t_clear(n);
	elec_core_elect(&n->c, n->now);
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_ELECTION, 4), 1);
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_ELECTION, 5), 1);
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_ELECTION, 6), 1);
	KUNIT_EXPECT_EQ(test, t_sends(n, 0, T_ANY), 3);
	/* without 6, nobody answering, it wins again in a new term */
	KUNIT_EXPECT_EQ(test, elec_core_peer_del(&n->c, 6, n->now), 0);
	t_clear(n);
	t_fire(n, ELEC_BULLY_TIMER_ANSWER);
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_ELECTION, T_ANY), 0);
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_COORDINATOR, T_ANY), 2);
	KUNIT_EXPECT_EQ(test, n->c.leader, 3);
	KUNIT_EXPECT_EQ(test, n->c.term, 2);
}

/*
 * The wait for answers adapts (issue 29, S6: a takeover cascade at hb 1 ms
 * on a loaded guest, every probe's answer later than T): a peer whose
 * answer timed out and that is heard from within a coord-timeout after
 * (the leader's late reply to a probe) doubles the wait, up to 8 T; heard
 * later it does not (it came back); 8 quick answers in a row halve it; a
 * restart forgets it. Only the armed timers are read, so the case runs
 * (and fails) on a core without the rule too.
 */
static void tb_answer_backoff(struct kunit *test)
{
	struct t_node *n = t_node_new(test, 4, t_ids5, 5);
	u64 wait = T_T;
	u32 k, i;

	t_make_follower(n, 5, 1);
	for (k = 0; k < 4; k++) {
		/* 5 falls silent: probed, for the current wait */
		t_fire(n, ELEC_TIMER_DETECT);
		KUNIT_ASSERT_EQ(test, t_sends(n, ELEC_MSG_ELECTION, 5), 1);
		KUNIT_EXPECT_EQ(test, t_armed_at(n, ELEC_BULLY_TIMER_ANSWER),
				n->now + wait);
		/* the wait runs out: 4 claims; 5's reply comes late */
		t_fire(n, ELEC_BULLY_TIMER_ANSWER);
		KUNIT_ASSERT_EQ(test, n->c.leader, 4);
		n->now += T_T / 2;
		t_rx(n, ELEC_MSG_ANSWER, 5, 4, n->c.max_term);
		t_rx(n, ELEC_MSG_COORDINATOR, 5, 4, n->c.term + 1);
		KUNIT_ASSERT_EQ(test, n->c.leader, 5);
		t_clear(n);
		if (wait < 8 * T_T)
			wait *= 2;
	}
	KUNIT_EXPECT_EQ(test, wait, 8 * T_T);
	/* quick answers halve it, 8 in a row */
	for (i = 0; i < 8; i++) {
		t_fire(n, ELEC_TIMER_DETECT);
		KUNIT_EXPECT_EQ(test, t_armed_at(n, ELEC_BULLY_TIMER_ANSWER),
				n->now + wait);
		n->now += 1000;
		t_rx(n, ELEC_MSG_ANSWER, 5, 4, n->c.max_term);
		t_rx(n, ELEC_MSG_COORDINATOR, 5, 4, n->c.term);
		KUNIT_ASSERT_EQ(test, n->c.leader, 5);
		t_clear(n);
	}
	wait /= 2;
	/* a peer heard only after a coord-timeout came back: no change */
	t_fire(n, ELEC_TIMER_DETECT);
	KUNIT_EXPECT_EQ(test, t_armed_at(n, ELEC_BULLY_TIMER_ANSWER),
			n->now + wait);
	t_fire(n, ELEC_BULLY_TIMER_ANSWER);
	KUNIT_ASSERT_EQ(test, n->c.leader, 4);
	n->now += T_COORD + 1;
	t_rx(n, ELEC_MSG_ANSWER, 5, 4, n->c.max_term);
	t_clear(n);
	elec_core_elect(&n->c, n->now);
	KUNIT_EXPECT_EQ(test, t_armed_at(n, ELEC_BULLY_TIMER_ANSWER),
			n->now + wait);
	/* three late answers to one wait: one doubling */
	n = t_node_new(test, 2, t_ids5, 5);
	t_start(n);
	t_fire(n, ELEC_TIMER_DETECT);	/* learning over: asks 3, 4, 5 */
	KUNIT_ASSERT_EQ(test, t_sends(n, ELEC_MSG_ELECTION, T_ANY), 3);
	t_fire(n, ELEC_BULLY_TIMER_ANSWER);
	KUNIT_ASSERT_EQ(test, n->c.leader, 2);
	n->now += T_T / 2;
	t_rx(n, ELEC_MSG_ANSWER, 3, 2, n->c.max_term);
	t_rx(n, ELEC_MSG_ANSWER, 4, 2, n->c.max_term);
	t_rx(n, ELEC_MSG_ANSWER, 5, 2, n->c.max_term);
	t_clear(n);
	elec_core_elect(&n->c, n->now);
	KUNIT_EXPECT_EQ(test, t_armed_at(n, ELEC_BULLY_TIMER_ANSWER),
			n->now + 2 * T_T);
	/* a restart forgets it */
	elec_core_stop(&n->c, n->now);
	t_start(n);
	t_rx(n, ELEC_MSG_HEARTBEAT, 5, 0, n->c.max_term + 1);
	KUNIT_ASSERT_EQ(test, n->c.leader, 5);
	t_clear(n);
	t_fire(n, ELEC_TIMER_DETECT);
	KUNIT_EXPECT_EQ(test, t_armed_at(n, ELEC_BULLY_TIMER_ANSWER),
			n->now + T_T);
}

/* An ANSWER from a higher id: wait for the COORDINATOR instead. */
static void tb_answer_then_wait(struct kunit *test)
{
	struct t_node *n = t_node_new(test, 3, t_ids5, 5);

	t_start(n);
	t_fire(n, ELEC_TIMER_DETECT);
	t_clear(n);
	/* an ANSWER from a lower id is no answer */
	t_rx(n, ELEC_MSG_ANSWER, 2, 3, 0);
	KUNIT_EXPECT_EQ(test, n->n_acts, 0);
	KUNIT_EXPECT_EQ(test, n->c.phase, ELEC_BULLY_WAIT_ANSWER);

	t_rx(n, ELEC_MSG_ANSWER, 5, 3, 0);
	KUNIT_ASSERT_EQ(test, n->n_acts, 2);
	KUNIT_EXPECT_EQ(test, t_act(n, 0)->kind, ELEC_ACT_TIMER_CANCEL);
	KUNIT_EXPECT_EQ(test, t_act(n, 0)->timer.id, ELEC_BULLY_TIMER_ANSWER);
	KUNIT_EXPECT_EQ(test, t_act(n, 1)->kind, ELEC_ACT_TIMER_ARM);
	KUNIT_EXPECT_EQ(test, t_act(n, 1)->timer.id, ELEC_BULLY_TIMER_COORD);
	KUNIT_EXPECT_EQ(test, t_act(n, 1)->timer.expires_ns, n->now + T_COORD);
	KUNIT_EXPECT_EQ(test, n->c.phase, ELEC_BULLY_WAIT_COORD);
	KUNIT_EXPECT_EQ(test, n->c.role, ELEC_ROLE_CANDIDATE);
	KUNIT_EXPECT_TRUE(test, n->c.participant);

	/* a second ANSWER changes nothing */
	t_clear(n);
	t_rx(n, ELEC_MSG_ANSWER, 4, 3, 0);
	KUNIT_EXPECT_EQ(test, n->n_acts, 0);
	KUNIT_EXPECT_EQ(test, n->c.stats.rx[ELEC_MSG_ANSWER], 3);
	KUNIT_EXPECT_EQ(test, t_timers(n), T_BIT(ELEC_BULLY_TIMER_COORD));

	/* the COORDINATOR ends the run */
	t_rx(n, ELEC_MSG_COORDINATOR, 5, 3, 1);
	KUNIT_EXPECT_EQ(test, t_sends(n, 0, T_ANY), 0);
	KUNIT_EXPECT_EQ(test, t_cancels(n, ELEC_BULLY_TIMER_COORD), 1);
	KUNIT_EXPECT_EQ(test, t_armed_at(n, ELEC_TIMER_DETECT),
			n->now + T_DETECT);
	KUNIT_EXPECT_EQ(test, t_events(n, ELEC_EVENT_LEADER_CHANGED, T_ANY),
			1);
	KUNIT_EXPECT_EQ(test, t_timers(n), T_BIT(ELEC_TIMER_DETECT));
	KUNIT_EXPECT_EQ(test, n->c.phase, ELEC_BULLY_FOLLOWING);
	KUNIT_EXPECT_EQ(test, n->c.role, ELEC_ROLE_FOLLOWER);
	KUNIT_EXPECT_FALSE(test, n->c.participant);
	KUNIT_EXPECT_EQ(test, n->c.leader, 5);
	KUNIT_EXPECT_EQ(test, n->c.term, 1);
	KUNIT_EXPECT_EQ(test, n->c.stats.leader_changes, 1);
	/* an ANSWER outside WAIT_ANSWER is ignored */
	t_clear(n);
	t_rx(n, ELEC_MSG_ANSWER, 4, 3, 0);
	KUNIT_EXPECT_EQ(test, n->n_acts, 0);
}

/* An ANSWER but no COORDINATOR within coord-timeout: a new run. */
static void tb_coord_timeout_restarts(struct kunit *test)
{
	struct t_node *n = t_node_new(test, 3, t_ids5, 5);
	struct elec_config cfg = n->c.cfg;

	cfg.coord_timeout_ns = 7000000;
	KUNIT_ASSERT_EQ(test, elec_core_set_config(&n->c, &cfg, NULL), 0);
	t_start(n);
	t_fire(n, ELEC_TIMER_DETECT);
	t_rx(n, ELEC_MSG_ANSWER, 4, 3, 0);
	KUNIT_EXPECT_EQ(test, t_armed_at(n, ELEC_BULLY_TIMER_COORD),
			n->now + 7000000);
	t_clear(n);
	t_fire(n, ELEC_BULLY_TIMER_COORD);
	/* the new run asks the higher ids again, the one that answered too */
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_ELECTION, 4), 1);
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_ELECTION, 5), 1);
	KUNIT_EXPECT_EQ(test, t_sends(n, 0, T_ANY), 2);
	KUNIT_EXPECT_EQ(test, t_events(n, ELEC_EVENT_ELECTION_STARTED, T_ANY),
			1);
	KUNIT_EXPECT_EQ(test, t_events(n, ELEC_EVENT_PEER_DOWN, T_ANY), 0);
	KUNIT_EXPECT_EQ(test, t_armed_at(n, ELEC_BULLY_TIMER_ANSWER), n->now + T_T);
	KUNIT_EXPECT_EQ(test, n->c.phase, ELEC_BULLY_WAIT_ANSWER);
	KUNIT_EXPECT_EQ(test, n->c.stats.elections, 2);
	/* and if now nobody answers, this node wins */
	t_fire(n, ELEC_BULLY_TIMER_ANSWER);
	KUNIT_EXPECT_EQ(test, n->c.leader, 3);
}

/*
 * ELECTION from a lower id: ANSWER it, and begin an election if idle and
 * without a leader it trusts (here: still learning).
 */
static void tb_rx_election_from_lower(struct kunit *test)
{
	struct t_node *n = t_node_new(test, 3, t_ids5, 5);

	t_start(n);
	t_clear(n);
	t_rx(n, ELEC_MSG_ELECTION, 1, 3, 0);
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_ANSWER, 1), 1);
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_ANSWER, T_ANY), 1);
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_ELECTION, 4), 1);
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_ELECTION, 5), 1);
	KUNIT_EXPECT_EQ(test, t_sends(n, 0, T_ANY), 3);
	/* the ANSWER goes out before the election */
	KUNIT_EXPECT_EQ(test, t_act(n, 0)->msg.type, ELEC_MSG_ANSWER);
	KUNIT_EXPECT_TRUE(test, n->c.participant);
	KUNIT_EXPECT_EQ(test, n->c.stats.elections, 1);
	KUNIT_EXPECT_EQ(test, t_cancels(n, ELEC_TIMER_DETECT), 1);
	KUNIT_EXPECT_EQ(test, t_timers(n), T_BIT(ELEC_BULLY_TIMER_ANSWER));
	KUNIT_EXPECT_EQ(test, n->c.leader, 0);

	/* already in an election: only ANSWER */
	t_clear(n);
	t_rx(n, ELEC_MSG_ELECTION, 2, 3, 0);
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_ANSWER, 2), 1);
	KUNIT_EXPECT_EQ(test, t_sends(n, 0, T_ANY), 1);
	KUNIT_EXPECT_EQ(test, n->n_acts, 1);
	KUNIT_EXPECT_EQ(test, n->c.stats.elections, 1);
	/* also while waiting for the COORDINATOR */
	t_rx(n, ELEC_MSG_ANSWER, 4, 3, 0);
	t_clear(n);
	t_rx(n, ELEC_MSG_ELECTION, 1, 3, 0);
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_ANSWER, 1), 1);
	KUNIT_EXPECT_EQ(test, n->n_acts, 1);
	KUNIT_EXPECT_EQ(test, n->c.stats.rx[ELEC_MSG_ELECTION], 3);
}

static void tb_rx_election_from_higher(struct kunit *test)
{
	struct t_node *n = t_node_new(test, 3, t_ids5, 5);
	/* static: struct elec_core is too big for a test's stack */
	static struct elec_core before;

	t_make_follower(n, 5, 1);
	before = n->c;
	t_rx(n, ELEC_MSG_ELECTION, 4, 3, 0);
	KUNIT_EXPECT_EQ(test, n->n_acts, 0);
	KUNIT_EXPECT_EQ(test, n->c.stats.rx[ELEC_MSG_ELECTION], 1);
	KUNIT_EXPECT_EQ(test, n->c.participant, before.participant);
	KUNIT_EXPECT_EQ(test, n->c.phase, before.phase);
	KUNIT_EXPECT_EQ(test, n->c.stats.elections, before.stats.elections);
}

/*
 * The leader answers an ELECTION and re-announces itself to the asker
 * only, at its term: no run, no new term (rule c).
 */
static void tb_leader_reannounces(struct kunit *test)
{
	struct t_node *n = t_node_new(test, 5, t_ids5, 5);
	const struct elec_action *a;

	t_make_leader(n);
	t_rx(n, ELEC_MSG_ELECTION, 2, 5, 1);
	KUNIT_ASSERT_EQ(test, n->n_acts, 2);
	a = t_act(n, 0);
	KUNIT_EXPECT_EQ(test, a->msg.type, ELEC_MSG_ANSWER);
	KUNIT_EXPECT_EQ(test, a->msg.dst, 2);
	a = t_act(n, 1);
	KUNIT_EXPECT_EQ(test, a->msg.type, ELEC_MSG_COORDINATOR);
	KUNIT_EXPECT_EQ(test, a->msg.dst, 2);
	KUNIT_EXPECT_EQ(test, a->msg.term, 1);
	KUNIT_EXPECT_EQ(test, t_events(n, ELEC_EVENT_ELECTION_STARTED, T_ANY),
			0);
	KUNIT_EXPECT_EQ(test, n->c.term, 1);
	KUNIT_EXPECT_EQ(test, n->c.leader, 5);
	KUNIT_EXPECT_EQ(test, n->c.stats.leader_changes, 1);
	KUNIT_EXPECT_EQ(test, n->c.stats.elections, 1);
	KUNIT_EXPECT_EQ(test, n->c.role, ELEC_ROLE_LEADER);
	KUNIT_EXPECT_EQ(test, t_timers(n), T_BIT(ELEC_TIMER_HEARTBEAT));
	/* the heartbeat timer keeps its expiry */
	KUNIT_EXPECT_EQ(test, t_arms(n, ELEC_TIMER_HEARTBEAT), 0);

	/*
	 * An asker that has seen a newer term: a new term above it, to every
	 * lower id, without a leader-changed event (same leader).
	 */
	t_clear(n);
	t_rx(n, ELEC_MSG_ELECTION, 2, 5, 6);
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_ANSWER, 2), 1);
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_COORDINATOR, T_ANY), 4);
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_COORDINATOR, 2), 1);
	KUNIT_EXPECT_EQ(test, t_sends(n, 0, T_ANY), 5);
	KUNIT_EXPECT_EQ(test, t_last_send(test, n)->msg.term, 7);
	KUNIT_EXPECT_EQ(test, t_events(n, ELEC_EVENT_LEADER_CHANGED, T_ANY),
			0);
	KUNIT_EXPECT_EQ(test, n->c.term, 7);
	KUNIT_EXPECT_EQ(test, n->c.stats.leader_changes, 1);
	KUNIT_EXPECT_EQ(test, n->c.stats.elections, 1);
	KUNIT_EXPECT_EQ(test, n->c.role, ELEC_ROLE_LEADER);
}

static void tb_heartbeats(struct kunit *test)
{
	struct t_node *n = t_node_new(test, 5, t_ids5, 5);
	struct t_node *f = t_node_new(test, 2, t_ids5, 5);
	const struct elec_action *a;
	int i;

	t_make_leader(n);
	for (i = 1; i <= 3; i++) {
		t_clear(n);
		t_fire(n, ELEC_TIMER_HEARTBEAT);
		KUNIT_ASSERT_EQ(test, n->n_acts, 2);
		a = t_act(n, 0);
		KUNIT_EXPECT_EQ(test, a->kind, ELEC_ACT_SEND);
		KUNIT_EXPECT_EQ(test, a->msg.type, ELEC_MSG_HEARTBEAT);
		KUNIT_EXPECT_EQ(test, a->msg.dst, 0);	/* one broadcast */
		KUNIT_EXPECT_EQ(test, a->msg.term, 1);
		KUNIT_EXPECT_EQ(test, t_armed_at(n, ELEC_TIMER_HEARTBEAT),
				n->now + T_HB);
		KUNIT_EXPECT_EQ(test, n->c.stats.tx[ELEC_MSG_HEARTBEAT], i);
	}

	/* a follower's detector is re-armed by each heartbeat, nothing else */
	t_make_follower(f, 5, 1);
	for (i = 0; i < 3; i++) {
		f->now += T_HB;
		t_clear(f);
		t_rx(f, ELEC_MSG_HEARTBEAT, 5, 0, 1);
		KUNIT_ASSERT_EQ(test, f->n_acts, 1);
		KUNIT_EXPECT_EQ(test, t_act(f, 0)->timer.id, ELEC_TIMER_DETECT);
		KUNIT_EXPECT_EQ(test, t_act(f, 0)->timer.expires_ns,
				f->now + T_DETECT);
	}
	KUNIT_EXPECT_EQ(test, f->c.stats.rx[ELEC_MSG_HEARTBEAT], 3);
	KUNIT_EXPECT_EQ(test, f->c.stats.elections, 1);
}

/*
 * hb_miss intervals of silence: the leader is the suspect, the node has no
 * leader and asks it (ask-suspect on, the default); nobody answers within
 * T: the node wins.
 */
static void tb_detector(struct kunit *test)
{
	struct t_node *n = t_node_new(test, 4, t_ids5, 5);
	const struct elec_action *a;

	t_make_follower(n, 5, 1);
	n->now += T_HB;
	t_rx(n, ELEC_MSG_HEARTBEAT, 5, 0, 1);
	t_clear(n);
	t_fire(n, ELEC_TIMER_DETECT);
	KUNIT_EXPECT_EQ(test, n->now, T_START + T_DETECT + T_HB + T_DETECT);
	KUNIT_EXPECT_EQ(test, t_events(n, ELEC_EVENT_PEER_DOWN, 5), 1);
	/* the leader-changed event says "none" */
	a = t_last_event(n, ELEC_EVENT_LEADER_CHANGED);
	KUNIT_ASSERT_NOT_NULL(test, a);
	KUNIT_EXPECT_EQ(test, a->event.leader, 0);
	KUNIT_EXPECT_EQ(test, t_events(n, ELEC_EVENT_LEADER_CHANGED, T_ANY),
			1);
	KUNIT_EXPECT_EQ(test, t_events(n, ELEC_EVENT_ELECTION_STARTED, T_ANY),
			1);
	KUNIT_EXPECT_EQ(test, n->c.bully.suspect, 5);
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_ELECTION, 5), 1);
	KUNIT_EXPECT_EQ(test, t_sends(n, 0, T_ANY), 1);
	KUNIT_EXPECT_EQ(test, n->c.phase, ELEC_BULLY_WAIT_ANSWER);
	/* leader none does not count as a change */
	KUNIT_EXPECT_EQ(test, n->c.stats.leader_changes, 1);

	t_clear(n);
	t_fire(n, ELEC_BULLY_TIMER_ANSWER);
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_COORDINATOR, T_ANY), 3);
	KUNIT_EXPECT_EQ(test, t_sends(n, 0, T_ANY), 3);
	KUNIT_EXPECT_EQ(test, n->c.leader, 4);
	KUNIT_EXPECT_EQ(test, n->c.term, 2);
	KUNIT_EXPECT_EQ(test, n->c.bully.suspect, 0);
	/* the new leader does */
	KUNIT_EXPECT_EQ(test, n->c.stats.leader_changes, 2);
}

/*
 * Best case at the node: the suspect is asked (one ELECTION), then N-2
 * COORDINATOR frames after T; with ask-suspect off the N-2 COORDINATOR
 * frames at once, the text's best case.
 */
static void tb_best_case_frames(struct kunit *test)
{
	static const u32 ids[] = { 10, 20, 30, 40, 50, 60, 70, 80 };
	struct t_node *n = t_node_new(test, 70, ids, 8);
	struct elec_config cfg;

	t_make_follower(n, 80, 3);
	t_clear(n);
	t_fire(n, ELEC_TIMER_DETECT);
	KUNIT_EXPECT_EQ(test, t_sends(n, 0, T_ANY), 1);
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_ELECTION, 80), 1);
	t_fire(n, ELEC_BULLY_TIMER_ANSWER);
	KUNIT_EXPECT_EQ(test, t_sends(n, 0, T_ANY), 1 + 8 - 2);
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_COORDINATOR, T_ANY), 8 - 2);
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_COORDINATOR, 80), 0);
	KUNIT_EXPECT_EQ(test, n->c.term, 4);

	n = t_node_new(test, 70, ids, 8);
	cfg = n->c.cfg;
	cfg.ask_suspect_off = true;
	KUNIT_ASSERT_EQ(test, elec_core_set_config(&n->c, &cfg, NULL), 0);
	t_make_follower(n, 80, 3);
	t_clear(n);
	t_fire(n, ELEC_TIMER_DETECT);
	KUNIT_EXPECT_EQ(test, t_sends(n, 0, T_ANY), 8 - 2);
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_COORDINATOR, T_ANY), 8 - 2);
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_COORDINATOR, 80), 0);
	KUNIT_EXPECT_EQ(test, n->c.term, 4);
}

/* A started node follows the first better leader it hears: no election. */
static void tb_learning_adopts(struct kunit *test)
{
	struct t_node *n = t_node_new(test, 3, t_ids5, 5);

	t_start(n);
	t_clear(n);
	t_rx(n, ELEC_MSG_HEARTBEAT, 5, 0, 7);
	KUNIT_ASSERT_GE(test, n->n_acts, 1);
	KUNIT_EXPECT_EQ(test, t_act(n, 0)->event.type,
			ELEC_EVENT_LEADER_CHANGED);
	KUNIT_EXPECT_EQ(test, t_act(n, 0)->event.leader, 5);
	KUNIT_EXPECT_EQ(test, t_act(n, 0)->event.term, 7);
	KUNIT_EXPECT_EQ(test, t_events(n, ELEC_EVENT_ELECTION_STARTED, T_ANY),
			0);
	KUNIT_EXPECT_EQ(test, t_sends(n, 0, T_ANY), 0);
	KUNIT_EXPECT_EQ(test, n->c.leader, 5);
	KUNIT_EXPECT_EQ(test, n->c.term, 7);
	KUNIT_EXPECT_EQ(test, n->c.max_term, 7);
	KUNIT_EXPECT_EQ(test, n->c.phase, ELEC_BULLY_FOLLOWING);
	KUNIT_EXPECT_EQ(test, n->c.role, ELEC_ROLE_FOLLOWER);
	KUNIT_EXPECT_FALSE(test, n->c.participant);
	KUNIT_EXPECT_EQ(test, n->c.stats.elections, 0);
	KUNIT_EXPECT_EQ(test, t_armed_at(n, ELEC_TIMER_DETECT),
			n->now + T_DETECT);
	KUNIT_EXPECT_EQ(test, t_timers(n), T_BIT(ELEC_TIMER_DETECT));
	/* its next heartbeat only re-arms the detector */
	t_clear(n);
	n->now += T_HB;
	t_rx(n, ELEC_MSG_HEARTBEAT, 5, 0, 7);
	KUNIT_EXPECT_EQ(test, n->n_acts, 1);
	KUNIT_EXPECT_EQ(test, n->c.stats.leader_changes, 1);
}

/*
 * A recovered higher node learns a lower leader and bullies it: leader 4,
 * then none (the run), then itself.
 */
static void tb_learning_bullies_lower(struct kunit *test)
{
	static const u32 want[] = { 4, 0, 5 };
	struct t_node *n = t_node_new(test, 5, t_ids5, 5);
	u32 i, k = 0;

	t_start(n);
	t_clear(n);
	t_rx(n, ELEC_MSG_HEARTBEAT, 4, 0, 6);
	KUNIT_EXPECT_EQ(test, t_events(n, ELEC_EVENT_LEADER_CHANGED, T_ANY),
			3);
	for (i = 0; i < n->n_acts; i++) {
		const struct elec_action *a = &n->acts[i];

		if (a->kind != ELEC_ACT_EVENT ||
		    a->event.type != ELEC_EVENT_LEADER_CHANGED)
			continue;
		KUNIT_ASSERT_LT(test, k, ARRAY_SIZE(want));
		KUNIT_EXPECT_EQ(test, a->event.leader, want[k]);
		k++;
	}
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_COORDINATOR, T_ANY), 4);
	KUNIT_EXPECT_EQ(test, t_sends(n, 0, T_ANY), 4);
	KUNIT_EXPECT_EQ(test, n->c.leader, 5);
	KUNIT_EXPECT_EQ(test, n->c.term, 7);
	KUNIT_EXPECT_EQ(test, t_last_send(test, n)->msg.term, 7);
	KUNIT_EXPECT_EQ(test, t_timers(n), T_BIT(ELEC_TIMER_HEARTBEAT));
}

/* Terms: (term, id) below the current (term, leader) is refused. */
static void tb_stale_terms(struct kunit *test)
{
	static const u32 ids[] = { 3, 8, 9, 10 };
	struct t_node *n = t_node_new(test, 4, ids, 4);
	struct elec_stats *st = &n->c.stats;

	t_make_follower(n, 9, 5);
	t_rx(n, ELEC_MSG_HEARTBEAT, 10, 0, 4);		/* older term */
	t_rx(n, ELEC_MSG_COORDINATOR, 10, 4, 4);
	t_rx(n, ELEC_MSG_HEARTBEAT, 8, 0, 5);		/* same term, lower */
	t_rx(n, ELEC_MSG_COORDINATOR, 8, 4, 5);
	KUNIT_EXPECT_EQ(test, st->drops[ELEC_DROP_STALE_TERM], 4);
	KUNIT_EXPECT_EQ(test, st->rx[ELEC_MSG_HEARTBEAT], 2);
	KUNIT_EXPECT_EQ(test, st->rx[ELEC_MSG_COORDINATOR], 3);
	/* the better stale 10 is told once (an ELECTION), 8 not at all */
	KUNIT_EXPECT_EQ(test, n->n_acts, 1);
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_ELECTION, 10), 1);
	KUNIT_EXPECT_EQ(test, n->c.leader, 9);
	KUNIT_EXPECT_EQ(test, n->c.term, 5);

	/* same term, higher id: the higher id wins */
	t_rx(n, ELEC_MSG_COORDINATOR, 10, 4, 5);
	KUNIT_EXPECT_EQ(test, n->c.leader, 10);
	KUNIT_EXPECT_EQ(test, t_events(n, ELEC_EVENT_LEADER_CHANGED, 0), 1);
	KUNIT_EXPECT_EQ(test, st->drops[ELEC_DROP_STALE_TERM], 4);
	/* now 9 in term 5 is stale as well */
	t_clear(n);
	t_rx(n, ELEC_MSG_HEARTBEAT, 9, 0, 5);
	KUNIT_EXPECT_EQ(test, st->drops[ELEC_DROP_STALE_TERM], 5);
	KUNIT_EXPECT_EQ(test, n->n_acts, 0);
	/* a later term from a lower id is accepted... */
	t_rx(n, ELEC_MSG_HEARTBEAT, 8, 0, 6);
	KUNIT_EXPECT_EQ(test, n->c.leader, 8);
	KUNIT_EXPECT_EQ(test, n->c.term, 6);
	KUNIT_EXPECT_EQ(test, t_events(n, ELEC_EVENT_LEADER_CHANGED, 0), 1);
	KUNIT_EXPECT_EQ(test, t_events(n, ELEC_EVENT_ELECTION_STARTED, 0), 0);
	/* ...and one from below the local id is bullied */
	t_clear(n);
	t_rx(n, ELEC_MSG_COORDINATOR, 3, 4, 7);
	KUNIT_EXPECT_EQ(test, t_events(n, ELEC_EVENT_ELECTION_STARTED, 0), 1);
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_ELECTION, 8), 1);
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_ELECTION, 9), 1);
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_ELECTION, 10), 1);
	KUNIT_EXPECT_EQ(test, t_sends(n, 0, T_ANY), 3);
	KUNIT_EXPECT_EQ(test, n->c.max_term, 7);
}

/* A stale frame does not count as a sign of life. */
static void tb_stale_not_alive(struct kunit *test)
{
	static const u32 ids[] = { 3, 8, 9, 10 };
	struct t_node *n = t_node_new(test, 4, ids, 4);

	t_make_follower(n, 9, 5);
	elec_core_peer_find(&n->c, 10)->alive = 0;
	t_rx(n, ELEC_MSG_HEARTBEAT, 10, 0, 2);
	KUNIT_EXPECT_EQ(test, elec_core_peer_find(&n->c, 10)->alive, 0);
	KUNIT_EXPECT_EQ(test, t_events(n, ELEC_EVENT_PEER_UP, T_ANY), 0);
	/* (it is told) */
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_ELECTION, 10), 1);
	t_clear(n);
	/* any accepted frame is */
	t_rx(n, ELEC_MSG_ELECTION, 10, 4, 2);
	KUNIT_EXPECT_EQ(test, elec_core_peer_find(&n->c, 10)->alive, 1);
	KUNIT_EXPECT_EQ(test, t_events(n, ELEC_EVENT_PEER_UP, 10), 1);
	KUNIT_EXPECT_EQ(test, n->n_acts, 1);
}

/* A leader that hears a higher (term, id) steps down. */
static void tb_leader_steps_down(struct kunit *test)
{
	struct t_node *n = t_node_new(test, 5, t_ids5, 5);
	struct t_node *m = t_node_new(test, 4, t_ids5, 5);

	/* 5 leads in term 1; 4 had declared 5 failed and announces term 2 */
	t_make_leader(n);
	t_rx(n, ELEC_MSG_COORDINATOR, 4, 5, 2);
	/* ...but 4 is lower: 5 bullies it back with term 3 (4, none, 5) */
	KUNIT_EXPECT_EQ(test, t_timers(n), T_BIT(ELEC_TIMER_HEARTBEAT));
	KUNIT_EXPECT_EQ(test, n->c.leader, 5);
	KUNIT_EXPECT_EQ(test, n->c.term, 3);
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_COORDINATOR, T_ANY), 4);
	KUNIT_EXPECT_EQ(test, t_events(n, ELEC_EVENT_LEADER_CHANGED, T_ANY),
			3);
	KUNIT_EXPECT_EQ(test, t_events(n, ELEC_EVENT_ELECTION_STARTED, T_ANY),
			1);
	KUNIT_EXPECT_EQ(test, n->c.stats.leader_changes, 3);

	/* 4 leads; the higher 5 announces itself: 4 follows */
	t_make_leader(m);
	KUNIT_EXPECT_EQ(test, elec_core_peer_find(&m->c, 5)->alive, 0);
	t_rx(m, ELEC_MSG_COORDINATOR, 5, 4, 2);
	KUNIT_EXPECT_EQ(test, m->c.leader, 5);
	KUNIT_EXPECT_EQ(test, m->c.role, ELEC_ROLE_FOLLOWER);
	KUNIT_EXPECT_EQ(test, m->c.phase, ELEC_BULLY_FOLLOWING);
	KUNIT_EXPECT_EQ(test, t_sends(m, 0, T_ANY), 0);
	KUNIT_EXPECT_EQ(test, t_events(m, ELEC_EVENT_PEER_UP, 5), 1);
	KUNIT_EXPECT_EQ(test, elec_core_peer_find(&m->c, 5)->alive, 1);
	KUNIT_EXPECT_EQ(test, t_timers(m), T_BIT(ELEC_TIMER_DETECT));
	/* same term, lower id than the leader: stale, even for the leader */
	t_clear(n);
	t_rx(n, ELEC_MSG_HEARTBEAT, 2, 0, n->c.term);
	KUNIT_EXPECT_EQ(test, n->c.stats.drops[ELEC_DROP_STALE_TERM], 1);
	KUNIT_EXPECT_EQ(test, n->n_acts, 0);
}

/* The winner announces the highest term seen in any frame, plus one. */
static void tb_max_term(struct kunit *test)
{
	struct t_node *n = t_node_new(test, 3, t_ids5, 5);

	t_start(n);
	t_rx(n, ELEC_MSG_ELECTION, 4, 3, 41);	/* from higher: ignored... */
	KUNIT_EXPECT_EQ(test, n->c.max_term, 41);	/* ...term noted */
	t_rx(n, ELEC_MSG_ANSWER, 2, 3, 9);
	KUNIT_EXPECT_EQ(test, n->c.max_term, 41);
	t_fire(n, ELEC_TIMER_DETECT);
	t_fire(n, ELEC_BULLY_TIMER_ANSWER);
	KUNIT_EXPECT_EQ(test, n->c.term, 42);
	KUNIT_EXPECT_EQ(test, t_last_send(test, n)->msg.term, 42);
}

/* Peers come and go without starting elections. */
static void tb_peer_add_del(struct kunit *test)
{
	struct t_node *n = t_node_new(test, 3, t_ids5, 5);

	t_make_follower(n, 5, 1);
	KUNIT_EXPECT_EQ(test, elec_core_peer_add(&n->c, 9, NULL), 0);
	KUNIT_EXPECT_EQ(test, elec_core_peer_del(&n->c, 1, n->now), 0);
	KUNIT_EXPECT_EQ(test, elec_core_peer_del(&n->c, 5, n->now), 0);
	KUNIT_EXPECT_EQ(test, n->n_acts, 0);
	KUNIT_EXPECT_EQ(test, n->c.stats.elections, 1);
	KUNIT_EXPECT_EQ(test, n->c.leader, 5);
	/* the removed leader's frames are unknown-peer drops */
	t_rx(n, ELEC_MSG_HEARTBEAT, 5, 0, 1);
	KUNIT_EXPECT_EQ(test, n->c.stats.drops[ELEC_DROP_UNKNOWN_PEER], 1);
	KUNIT_EXPECT_EQ(test, n->n_acts, 0);
	/* the detector fires; the new peer 9 is asked */
	t_fire(n, ELEC_TIMER_DETECT);
	KUNIT_EXPECT_EQ(test, t_events(n, ELEC_EVENT_PEER_DOWN, T_ANY), 0);
	KUNIT_EXPECT_EQ(test, t_events(n, ELEC_EVENT_LEADER_CHANGED, 0), 1);
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_ELECTION, 4), 1);
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_ELECTION, 9), 1);
	KUNIT_EXPECT_EQ(test, t_sends(n, 0, T_ANY), 2);
	/* a peer asked and then removed is not declared failed */
	KUNIT_EXPECT_EQ(test, elec_core_peer_del(&n->c, 9, n->now), 0);
	t_clear(n);
	t_fire(n, ELEC_BULLY_TIMER_ANSWER);
	KUNIT_EXPECT_EQ(test, t_events(n, ELEC_EVENT_PEER_DOWN, 4), 1);
	KUNIT_EXPECT_EQ(test, t_events(n, ELEC_EVENT_PEER_DOWN, T_ANY), 1);
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_COORDINATOR, 2), 1);
	KUNIT_EXPECT_EQ(test, t_sends(n, 0, T_ANY), 1);
}

static void tb_admin_elect(struct kunit *test)
{
	struct t_node *n = t_node_new(test, 3, t_ids5, 5);

	t_make_follower(n, 5, 1);
	elec_core_elect(&n->c, n->now);
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_ELECTION, T_ANY), 2);
	KUNIT_EXPECT_EQ(test, n->c.stats.elections, 2);
	/* electing again in the middle of a run starts a new run */
	t_rx(n, ELEC_MSG_ANSWER, 5, 3, 1);
	t_clear(n);
	elec_core_elect(&n->c, n->now);
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_ELECTION, T_ANY), 2);
	KUNIT_EXPECT_EQ(test, t_cancels(n, ELEC_BULLY_TIMER_COORD), 1);
	KUNIT_EXPECT_EQ(test, t_timers(n), T_BIT(ELEC_BULLY_TIMER_ANSWER));
}

/* Stopping mid-election: silent, every timer cancelled. */
static void tb_stop_mid_election(struct kunit *test)
{
	struct t_node *n = t_node_new(test, 3, t_ids5, 5);

	t_start(n);
	t_fire(n, ELEC_TIMER_DETECT);
	t_clear(n);
	elec_core_stop(&n->c, n->now);
	KUNIT_EXPECT_EQ(test, t_cancels(n, ELEC_BULLY_TIMER_ANSWER), 1);
	KUNIT_EXPECT_EQ(test, t_sends(n, 0, T_ANY), 0);
	KUNIT_EXPECT_EQ(test, t_timers(n), 0);
	/* the late ANSWER expiry and the late ANSWER frame do nothing */
	t_clear(n);
	elec_core_timer(&n->c, ELEC_BULLY_TIMER_ANSWER, n->now + T_T);
	t_rx(n, ELEC_MSG_ANSWER, 5, 3, 0);
	KUNIT_EXPECT_EQ(test, n->n_acts, 0);
	KUNIT_EXPECT_EQ(test, n->c.stats.rx[ELEC_MSG_ANSWER], 0);
	KUNIT_EXPECT_EQ(test, elec_core_peer_find(&n->c, 5)->flags, 0);
	KUNIT_EXPECT_EQ(test, elec_core_peer_find(&n->c, 5)->alive, 1);
}

/* Same inputs, same outputs. */
static void tb_deterministic(struct kunit *test)
{
	struct t_node *a = t_node_new(test, 3, t_ids5, 5);
	struct t_node *b = t_node_new(test, 3, t_ids5, 5);
	struct t_node *n;
	int k;

	for (k = 0; k < 2; k++) {
		n = k ? b : a;
		t_start(n);
		t_rx(n, ELEC_MSG_HEARTBEAT, 4, 0, 2);
		t_rx(n, ELEC_MSG_ELECTION, 1, 3, 0);
		t_fire(n, ELEC_TIMER_DETECT);
		t_rx(n, ELEC_MSG_ELECTION, 1, 3, 0);
		/* the probe of the suspect, then the other higher ids */
		t_fire(n, ELEC_BULLY_TIMER_ANSWER);
		t_fire(n, ELEC_BULLY_TIMER_ANSWER);
		t_fire(n, ELEC_TIMER_HEARTBEAT);
		t_rx(n, ELEC_MSG_HEARTBEAT, 2, 0, 1);
		t_rx(n, ELEC_MSG_COORDINATOR, 5, 3, 9);
		t_fire(n, ELEC_TIMER_DETECT);
	}
	KUNIT_ASSERT_EQ(test, a->n_acts, b->n_acts);
	KUNIT_EXPECT_GT(test, a->n_acts, 10);
	KUNIT_EXPECT_EQ(test, memcmp(a->acts, b->acts,
				     a->n_acts * sizeof(a->acts[0])), 0);
	KUNIT_EXPECT_EQ(test, memcmp(&a->c.stats, &b->c.stats,
				     sizeof(a->c.stats)), 0);
}

/* ---- elec_bully: the failover rules (Documentation/protocol.rst) ------ */

static void t_rx_flags(struct t_node *n, u8 type, u8 flags, u32 src,
		       u64 term)
{
	struct elec_msg m;

	t_msg(&m, type, src, 0, term);
	m.flags = flags;
	elec_core_rx(&n->c, &m, n->now);
}

/*
 * Rule a: a run asks every higher id, whatever earlier runs concluded;
 * the suspect too unless ask-suspect is off (a run its detector began
 * probes the suspect alone first, then after T the others); with preempt
 * off a lower suspect too.
 */
static void tb_rule_run_asks_all(struct kunit *test)
{
	static const u32 ids[] = { 2, 4, 5 };
	struct t_node *n = t_node_new(test, 3, t_ids5, 5);

	t_make_follower(n, 5, 1);
	/* 4 was declared failed by an earlier run */
	elec_core_peer_set_alive(&n->c, elec_core_peer_find(&n->c, 4), false,
				 n->now);
	t_clear(n);
	t_fire(n, ELEC_TIMER_DETECT);
	KUNIT_EXPECT_EQ(test, n->c.bully.suspect, 5);
	/* the probe: the suspect alone */
	KUNIT_EXPECT_TRUE(test, n->c.bully.probing);
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_ELECTION, 5), 1);
	KUNIT_EXPECT_EQ(test, t_sends(n, 0, T_ANY), 1);
	KUNIT_EXPECT_EQ(test, t_armed_at(n, ELEC_BULLY_TIMER_ANSWER), n->now + T_T);
	/* no answer within T: every other higher id, failed or not */
	t_clear(n);
	t_fire(n, ELEC_BULLY_TIMER_ANSWER);
	KUNIT_EXPECT_FALSE(test, n->c.bully.probing);
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_ELECTION, 4), 1);
	KUNIT_EXPECT_EQ(test, t_sends(n, 0, T_ANY), 1);
	KUNIT_EXPECT_EQ(test, n->c.phase, ELEC_BULLY_WAIT_ANSWER);
	KUNIT_EXPECT_EQ(test, t_armed_at(n, ELEC_BULLY_TIMER_ANSWER), n->now + T_T);
	KUNIT_EXPECT_EQ(test, t_events(n, ELEC_EVENT_ELECTION_STARTED, T_ANY),
			0);
	/* the marks are kept: informational only */
	KUNIT_EXPECT_EQ(test, elec_core_peer_find(&n->c, 4)->alive, 0);
	KUNIT_EXPECT_EQ(test, elec_core_peer_find(&n->c, 5)->alive, 0);

	/* ask-suspect off: the suspect is skipped, the other failed id not */
	n = t_node_new(test, 3, t_ids5, 5);
	t_opts(n, true, false, 0);
	t_make_follower(n, 5, 1);
	elec_core_peer_find(&n->c, 4)->alive = 0;
	t_fire(n, ELEC_TIMER_DETECT);
	KUNIT_EXPECT_EQ(test, n->c.bully.suspect, 5);
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_ELECTION, 4), 1);
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_ELECTION, 5), 0);
	KUNIT_EXPECT_EQ(test, t_sends(n, 0, T_ANY), 1);

	/* preempt off: 4 follows the lower 2 and asks it when it suspects it */
	n = t_node_new(test, 4, ids, 3);
	t_opts(n, false, true, 0);
	t_start(n);
	t_rx(n, ELEC_MSG_HEARTBEAT, 2, 0, 3);
	KUNIT_ASSERT_EQ(test, n->c.phase, ELEC_BULLY_FOLLOWING);
	t_clear(n);
	t_fire(n, ELEC_TIMER_DETECT);
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_ELECTION, 2), 1);
	KUNIT_EXPECT_EQ(test, t_sends(n, 0, T_ANY), 1);
	/* it answers and re-announces at its term: 4 follows it again */
	t_rx(n, ELEC_MSG_ANSWER, 2, 4, 3);
	t_rx(n, ELEC_MSG_COORDINATOR, 2, 4, 3);
	KUNIT_EXPECT_EQ(test, n->c.leader, 2);
	KUNIT_EXPECT_EQ(test, n->c.term, 3);
	KUNIT_EXPECT_EQ(test, n->c.phase, ELEC_BULLY_FOLLOWING);
	KUNIT_EXPECT_EQ(test, n->c.stats.leader_changes, 1);
	/* with ask-suspect off as well, the lower suspect is skipped */
	n = t_node_new(test, 4, ids, 3);
	t_opts(n, true, true, 0);
	t_start(n);
	t_rx(n, ELEC_MSG_HEARTBEAT, 2, 0, 3);
	t_clear(n);
	t_fire(n, ELEC_TIMER_DETECT);
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_ELECTION, 2), 0);
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_ELECTION, 5), 1);
	KUNIT_EXPECT_EQ(test, t_sends(n, 0, T_ANY), 1);
}

/*
 * Rule b: a node that begins a run has no leader until the run ends; it
 * still accepts the (term, leader) it followed.
 */
static void tb_rule_candidate_no_leader(struct kunit *test)
{
	struct t_node *n = t_node_new(test, 3, t_ids5, 5);
	const struct elec_action *a;

	t_make_follower(n, 5, 4);
	elec_core_elect(&n->c, n->now);
	KUNIT_EXPECT_EQ(test, n->c.leader, 0);
	KUNIT_EXPECT_EQ(test, n->c.term, 4);
	KUNIT_EXPECT_EQ(test, n->c.role, ELEC_ROLE_CANDIDATE);
	KUNIT_ASSERT_EQ(test, t_events(n, ELEC_EVENT_LEADER_CHANGED, T_ANY),
			1);
	a = t_last_event(n, ELEC_EVENT_LEADER_CHANGED);
	KUNIT_EXPECT_EQ(test, a->event.leader, 0);
	/* before the run starts: the event comes first */
	a = t_last_event(n, ELEC_EVENT_ELECTION_STARTED);
	KUNIT_ASSERT_NOT_NULL(test, a);
	KUNIT_EXPECT_EQ(test, a->event.leader, 0);
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_ELECTION, T_ANY), 2);

	/* the leader's heartbeat at its term ends the run: same leader */
	t_clear(n);
	t_rx(n, ELEC_MSG_HEARTBEAT, 5, 0, 4);
	KUNIT_EXPECT_EQ(test, n->c.leader, 5);
	KUNIT_EXPECT_EQ(test, n->c.term, 4);
	KUNIT_EXPECT_EQ(test, n->c.phase, ELEC_BULLY_FOLLOWING);
	KUNIT_EXPECT_FALSE(test, n->c.participant);
	KUNIT_EXPECT_EQ(test, n->c.stats.drops[ELEC_DROP_STALE_TERM], 0);
	KUNIT_EXPECT_EQ(test, t_timers(n), T_BIT(ELEC_TIMER_DETECT));
	KUNIT_EXPECT_EQ(test, t_events(n, ELEC_EVENT_LEADER_CHANGED, T_ANY),
			1);
	/* none, then the same leader again: not a change */
	KUNIT_EXPECT_EQ(test, n->c.stats.leader_changes, 1);

	/* a run begun by an ELECTION gives the leader up as well */
	t_clear(n);
	n->now += T_DETECT;	/* trust has run out */
	t_rx(n, ELEC_MSG_ELECTION, 1, 3, 4);
	KUNIT_EXPECT_EQ(test, n->c.leader, 0);
	KUNIT_EXPECT_TRUE(test, n->c.participant);
	KUNIT_EXPECT_EQ(test, t_events(n, ELEC_EVENT_LEADER_CHANGED, 0), 1);
	/* its COORDINATOR at that term too */
	t_rx(n, ELEC_MSG_COORDINATOR, 5, 3, 4);
	KUNIT_EXPECT_EQ(test, n->c.leader, 5);
	KUNIT_EXPECT_EQ(test, n->c.stats.leader_changes, 1);
}

/*
 * Rule c: a leader asked by a lower id answers and re-announces to it at
 * its term, however often; a newer term makes it announce a new term.
 */
static void tb_rule_leader_asked(struct kunit *test)
{
	struct t_node *n = t_node_new(test, 5, t_ids5, 5);
	u32 i;

	t_make_leader(n);
	for (i = 1; i <= 4; i++)
		t_rx(n, ELEC_MSG_ELECTION, i, 5, 1);
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_ANSWER, T_ANY), 4);
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_COORDINATOR, T_ANY), 4);
	for (i = 1; i <= 4; i++)
		KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_COORDINATOR, i), 1);
	KUNIT_EXPECT_EQ(test, t_sends(n, 0, T_ANY), 8);
	KUNIT_EXPECT_EQ(test, t_last_send(test, n)->msg.term, 1);
	KUNIT_EXPECT_EQ(test, n->c.term, 1);
	KUNIT_EXPECT_EQ(test, n->c.stats.elections, 1);
	KUNIT_EXPECT_EQ(test, n->c.phase, ELEC_BULLY_LEADING);

	/* the asker saw term 9: a new term 10, to every lower id */
	t_clear(n);
	t_rx(n, ELEC_MSG_ELECTION, 3, 5, 9);
	KUNIT_EXPECT_EQ(test, n->c.term, 10);
	KUNIT_EXPECT_EQ(test, n->c.leader, 5);
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_COORDINATOR, T_ANY), 4);
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_ELECTION, T_ANY), 0);
	KUNIT_EXPECT_EQ(test, t_last_send(test, n)->msg.term, 10);
	KUNIT_EXPECT_EQ(test, n->c.stats.elections, 1);
}

/*
 * Rule d: a follower that heard its leader within the detection window
 * answers an ELECTION from a lower id but begins no run: a better leader,
 * a worse one with preempt off, a worse one while a preempt-delay runs.
 */
static void tb_rule_follower_trusts(struct kunit *test)
{
	static const u32 ids[] = { 1, 2, 4, 5 };
	struct t_node *n = t_node_new(test, 3, t_ids5, 5);
	u64 heard;

	t_make_follower(n, 5, 1);
	heard = n->now;
	n->now = heard + T_DETECT - 1;
	t_rx(n, ELEC_MSG_ELECTION, 1, 3, 1);
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_ANSWER, 1), 1);
	KUNIT_EXPECT_EQ(test, t_sends(n, 0, T_ANY), 1);
	KUNIT_EXPECT_EQ(test, n->n_acts, 1);
	KUNIT_EXPECT_EQ(test, n->c.leader, 5);
	KUNIT_EXPECT_FALSE(test, n->c.participant);
	KUNIT_EXPECT_EQ(test, n->c.stats.elections, 1);
	/* a heartbeat renews the trust */
	t_rx(n, ELEC_MSG_HEARTBEAT, 5, 0, 1);
	n->now += T_DETECT - 1;
	t_clear(n);
	t_rx(n, ELEC_MSG_ELECTION, 2, 3, 1);
	KUNIT_EXPECT_EQ(test, n->n_acts, 1);
	/* once the window is over (the detector not yet delivered): a run */
	n->now++;
	t_clear(n);
	t_rx(n, ELEC_MSG_ELECTION, 1, 3, 1);
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_ANSWER, 1), 1);
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_ELECTION, T_ANY), 2);
	KUNIT_EXPECT_TRUE(test, n->c.participant);
	KUNIT_EXPECT_EQ(test, n->c.stats.elections, 2);

	/* preempt off: 4 follows the worse 2 and trusts it */
	n = t_node_new(test, 4, ids, 4);
	t_opts(n, false, true, 0);
	t_start(n);
	t_rx(n, ELEC_MSG_HEARTBEAT, 2, 0, 3);
	t_clear(n);
	t_rx(n, ELEC_MSG_ELECTION, 1, 4, 3);
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_ANSWER, 1), 1);
	KUNIT_EXPECT_EQ(test, n->n_acts, 1);
	KUNIT_EXPECT_EQ(test, n->c.leader, 2);
	KUNIT_EXPECT_EQ(test, n->c.stats.elections, 0);

	/* a preempt-delay runs: trusted until it is over */
	n = t_node_new(test, 4, ids, 4);
	t_opts(n, false, false, 5 * T_DETECT);
	t_start(n);
	t_rx(n, ELEC_MSG_HEARTBEAT, 2, 0, 3);
	KUNIT_ASSERT_NE(test, n->c.timer_expires[ELEC_BULLY_TIMER_PREEMPT], 0);
	t_clear(n);
	t_rx(n, ELEC_MSG_ELECTION, 1, 4, 3);
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_ANSWER, 1), 1);
	KUNIT_EXPECT_EQ(test, n->n_acts, 1);
	KUNIT_EXPECT_EQ(test, n->c.stats.elections, 0);
}

/*
 * Preempt off: a node with no leader (waiting for the COORDINATOR of a
 * run that went a term above the group's, its better peers all following
 * a worse leader they keep) that drops that leader's heartbeat as stale
 * tells it with an ELECTION carrying the newer term, once per window: the
 * leader then claims anew above it, and the node follows. Before, nothing
 * told either, and the run restarted for ever (electsim --check --algo
 * bully --quorum on --preempt off --partitions --generator harsh, N=9
 * seed 150765995). With a leader of its own the node says nothing.
 */
/*
 * The timers that wait for a frame (election.ko steps them after the
 * receive softirq): the detection window, the answer and COORDINATOR
 * waits; a heartbeat to send, a preempt-delay, quorum's beacon and lease
 * keep to time, in every Bully variant.
 */
static void tb_wait_timers(struct kunit *test)
{
	static const u8 algos[] = {
		ELEC_ALGO_BULLY, ELEC_ALGO_MIN_BULLY, ELEC_ALGO_ENH_BULLY,
	};
	unsigned int i;
	int id;

	for (i = 0; i < ARRAY_SIZE(algos); i++) {
		const struct elec_algo_ops *ops = elec_algo_find(algos[i]);

		KUNIT_ASSERT_NOT_NULL(test, ops);
		for (id = 0; id < ELEC_TIMER_COUNT; id++)
			KUNIT_EXPECT_EQ_MSG(test,
					    elec_timer_awaits_rx(ops, id),
					    id == ELEC_TIMER_DETECT ||
					    id == ELEC_BULLY_TIMER_ANSWER ||
					    id == ELEC_BULLY_TIMER_COORD,
					    "%s timer %s", ops->name,
					    elec_timer_name(ops, id));
		KUNIT_EXPECT_FALSE(test, elec_timer_awaits_rx(ops,
							      ELEC_TIMER_COUNT));
	}
	KUNIT_EXPECT_TRUE(test, elec_timer_awaits_rx(NULL, ELEC_TIMER_DETECT));
	KUNIT_EXPECT_FALSE(test, elec_timer_awaits_rx(NULL,
						      ELEC_TIMER_HEARTBEAT));
}

static void tb_preempt_off_tells_worse_leader(struct kunit *test)
{
	struct t_node *n = t_node_new(test, 3, t_ids5, 5);
	const struct elec_action *a;

	t_opts(n, false, true, 0);
	t_start(n);
	t_fire(n, ELEC_TIMER_DETECT);	/* learning over: asks 4 and 5 */
	t_rx(n, ELEC_MSG_ANSWER, 4, 3, 0);
	KUNIT_ASSERT_EQ(test, n->c.phase, ELEC_BULLY_WAIT_COORD);
	KUNIT_ASSERT_EQ(test, n->c.leader, 0);
	n->c.term = 4;
	n->c.max_term = 4;
	t_clear(n);
	t_rx(n, ELEC_MSG_HEARTBEAT, 2, 0, 3);
	KUNIT_ASSERT_EQ(test, t_sends(n, 0, T_ANY), 1);
	a = t_act(n, 0);
	KUNIT_EXPECT_EQ(test, a->msg.type, ELEC_MSG_ELECTION);
	KUNIT_EXPECT_EQ(test, a->msg.dst, 2);
	KUNIT_EXPECT_EQ(test, a->msg.term, 4);
	/* once per window */
	t_clear(n);
	n->now += T_HB;
	t_rx(n, ELEC_MSG_HEARTBEAT, 2, 0, 3);
	KUNIT_EXPECT_EQ(test, t_sends(n, 0, T_ANY), 0);
	/* 2 claims anew above 4: followed (preempt off) */
	t_rx(n, ELEC_MSG_COORDINATOR, 2, 3, 5);
	KUNIT_EXPECT_EQ(test, n->c.leader, 2);
	KUNIT_EXPECT_EQ(test, n->c.term, 5);
	KUNIT_EXPECT_EQ(test, n->c.phase, ELEC_BULLY_FOLLOWING);
	/* following a leader at a newer term: a stale one is not told */
	t_clear(n);
	n->now += T_DETECT;
	t_rx(n, ELEC_MSG_HEARTBEAT, 1, 0, 4);
	KUNIT_EXPECT_EQ(test, t_sends(n, 0, T_ANY), 0);
}

/*
 * Rule e: a node that drops a stale announcement tells the sender, once
 * per peer per detection window: a better id (preemption on) an ELECTION
 * with the newer term; else the leader its COORDINATOR.
 */
static void tb_rule_tell_stale(struct kunit *test)
{
	static const u32 ids[] = { 3, 8, 9, 10 };
	static const u32 ids6[] = { 1, 2, 3, 4, 5, 6 };
	struct t_node *n = t_node_new(test, 4, ids, 4);
	const struct elec_action *a;

	t_make_follower(n, 9, 5);
	t_rx(n, ELEC_MSG_HEARTBEAT, 10, 0, 2);
	KUNIT_ASSERT_EQ(test, n->n_acts, 1);
	a = t_act(n, 0);
	KUNIT_EXPECT_EQ(test, a->msg.type, ELEC_MSG_ELECTION);
	KUNIT_EXPECT_EQ(test, a->msg.dst, 10);
	KUNIT_EXPECT_EQ(test, a->msg.term, 5);
	KUNIT_EXPECT_EQ(test, elec_core_peer_find(&n->c, 10)->told_until,
			n->now + T_DETECT);
	/* its later stale frames in that window: nothing */
	n->now += T_DETECT - 1;
	t_rx(n, ELEC_MSG_HEARTBEAT, 10, 0, 2);
	t_rx(n, ELEC_MSG_COORDINATOR, 10, 4, 2);
	KUNIT_EXPECT_EQ(test, n->n_acts, 1);
	/* then once more */
	n->now++;
	t_rx(n, ELEC_MSG_HEARTBEAT, 10, 0, 2);
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_ELECTION, 10), 2);
	/* a follower tells a worse one nothing (its leader does) */
	t_clear(n);
	t_rx(n, ELEC_MSG_HEARTBEAT, 3, 0, 2);
	KUNIT_EXPECT_EQ(test, n->n_acts, 0);
	KUNIT_EXPECT_EQ(test, n->c.stats.drops[ELEC_DROP_STALE_TERM], 5);

	/* the leader: its announcement counts as telling, then COORDINATOR */
	n = t_node_new(test, 5, ids6, 6);
	t_start(n);
	t_rx(n, ELEC_MSG_ANSWER, 2, 5, 2);	/* ignored, term noted */
	t_fire(n, ELEC_TIMER_DETECT);
	t_fire(n, ELEC_BULLY_TIMER_ANSWER);
	KUNIT_ASSERT_EQ(test, n->c.term, 3);
	KUNIT_EXPECT_EQ(test, elec_core_peer_find(&n->c, 2)->told_until,
			n->now + T_DETECT);
	t_clear(n);
	t_rx(n, ELEC_MSG_HEARTBEAT, 2, 0, 2);
	KUNIT_EXPECT_EQ(test, n->n_acts, 0);
	n->now += T_DETECT;
	t_rx(n, ELEC_MSG_HEARTBEAT, 2, 0, 2);
	KUNIT_ASSERT_EQ(test, n->n_acts, 1);
	a = t_act(n, 0);
	KUNIT_EXPECT_EQ(test, a->msg.type, ELEC_MSG_COORDINATOR);
	KUNIT_EXPECT_EQ(test, a->msg.dst, 2);
	KUNIT_EXPECT_EQ(test, a->msg.term, 3);
	/* a better stale id gets an ELECTION with the newer term */
	t_clear(n);
	t_rx(n, ELEC_MSG_HEARTBEAT, 6, 0, 2);
	KUNIT_ASSERT_EQ(test, n->n_acts, 1);
	KUNIT_EXPECT_EQ(test, t_act(n, 0)->msg.type, ELEC_MSG_ELECTION);
	KUNIT_EXPECT_EQ(test, t_act(n, 0)->msg.dst, 6);
	KUNIT_EXPECT_EQ(test, t_act(n, 0)->msg.term, 3);
	KUNIT_EXPECT_EQ(test, n->c.leader, 5);

	/* preempt off: the leader sends its COORDINATOR to a better id too */
	n = t_node_new(test, 5, ids6, 6);
	t_opts(n, false, true, 0);
	t_start(n);
	t_fire(n, ELEC_TIMER_DETECT);
	t_fire(n, ELEC_BULLY_TIMER_ANSWER);
	KUNIT_ASSERT_EQ(test, n->c.role, ELEC_ROLE_LEADER);
	t_clear(n);
	t_rx(n, ELEC_MSG_HEARTBEAT, 6, 0, 0);
	KUNIT_ASSERT_EQ(test, n->n_acts, 1);
	KUNIT_EXPECT_EQ(test, t_act(n, 0)->msg.type, ELEC_MSG_COORDINATOR);
	KUNIT_EXPECT_EQ(test, t_act(n, 0)->msg.dst, 6);
	KUNIT_EXPECT_EQ(test, t_act(n, 0)->msg.term, 1);
}

/*
 * Rule f: a learning node follows a better leader; a worse one is
 * bullied (preempt on), followed (preempt off), or followed for the
 * preempt-delay and then taken over.
 */
static void tb_rule_learning_worse(struct kunit *test)
{
	struct t_node *n = t_node_new(test, 5, t_ids5, 5);
	u64 at;

	/* preempt off: follows 4 */
	t_opts(n, false, true, 0);
	t_start(n);
	t_clear(n);
	t_rx(n, ELEC_MSG_HEARTBEAT, 4, 0, 6);
	KUNIT_EXPECT_EQ(test, n->c.leader, 4);
	KUNIT_EXPECT_EQ(test, n->c.phase, ELEC_BULLY_FOLLOWING);
	KUNIT_EXPECT_EQ(test, t_sends(n, 0, T_ANY), 0);
	KUNIT_EXPECT_EQ(test, n->c.stats.elections, 0);
	KUNIT_EXPECT_EQ(test, t_timers(n), T_BIT(ELEC_TIMER_DETECT));
	/* and keeps following on its heartbeats */
	n->now += T_HB;
	t_rx(n, ELEC_MSG_HEARTBEAT, 4, 0, 6);
	KUNIT_EXPECT_EQ(test, n->c.stats.elections, 0);
	KUNIT_EXPECT_EQ(test, n->c.stats.elections_limited, 0);

	/* preempt-delay: follows 4 for the delay, then takes over */
	n = t_node_new(test, 5, t_ids5, 5);
	t_opts(n, false, false, 4 * T_HB);
	t_start(n);
	t_clear(n);
	t_rx(n, ELEC_MSG_HEARTBEAT, 4, 0, 6);
	at = n->now + 4 * T_HB;
	KUNIT_EXPECT_EQ(test, n->c.leader, 4);
	KUNIT_EXPECT_EQ(test, t_sends(n, 0, T_ANY), 0);
	KUNIT_EXPECT_EQ(test, t_armed_at(n, ELEC_BULLY_TIMER_PREEMPT), at);
	KUNIT_EXPECT_EQ(test, t_timers(n),
			T_BIT(ELEC_TIMER_DETECT) | T_BIT(ELEC_BULLY_TIMER_PREEMPT));
	/* heartbeats re-arm the detector only */
	n->now += T_HB;
	t_rx(n, ELEC_MSG_HEARTBEAT, 4, 0, 6);
	KUNIT_EXPECT_EQ(test, n->c.timer_expires[ELEC_BULLY_TIMER_PREEMPT], at);
	KUNIT_EXPECT_EQ(test, n->c.stats.elections, 0);
	t_clear(n);
	t_fire(n, ELEC_BULLY_TIMER_PREEMPT);
	KUNIT_EXPECT_EQ(test, n->now, at);
	KUNIT_EXPECT_EQ(test, n->c.stats.elections, 1);
	KUNIT_EXPECT_EQ(test, n->c.leader, 5);
	KUNIT_EXPECT_EQ(test, n->c.term, 7);
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_COORDINATOR, T_ANY), 4);
	KUNIT_EXPECT_EQ(test, t_timers(n), T_BIT(ELEC_TIMER_HEARTBEAT));

	/*
	 * Options changed at run time (group set) while following a worse
	 * leader with preempt off: the leader's next heartbeat arms the
	 * delay, or, without one, begins the take-over.
	 */
	n = t_node_new(test, 5, t_ids5, 5);
	t_opts(n, false, true, 0);
	t_start(n);
	t_rx(n, ELEC_MSG_HEARTBEAT, 4, 0, 6);
	t_opts(n, false, false, 2 * T_HB);
	n->now += T_HB;
	t_rx(n, ELEC_MSG_HEARTBEAT, 4, 0, 6);
	KUNIT_EXPECT_EQ(test, t_armed_at(n, ELEC_BULLY_TIMER_PREEMPT),
			n->now + 2 * T_HB);
	KUNIT_EXPECT_EQ(test, n->c.stats.elections, 0);
	n->now += T_HB;
	t_rx(n, ELEC_MSG_HEARTBEAT, 4, 0, 6);
	t_fire(n, ELEC_BULLY_TIMER_PREEMPT);
	KUNIT_EXPECT_EQ(test, n->c.leader, 5);
	KUNIT_EXPECT_EQ(test, n->c.stats.elections, 1);

	n = t_node_new(test, 5, t_ids5, 5);
	t_opts(n, false, true, 0);
	t_start(n);
	t_rx(n, ELEC_MSG_HEARTBEAT, 4, 0, 6);
	t_opts(n, false, false, 0);
	n->now += T_HB;
	t_rx(n, ELEC_MSG_HEARTBEAT, 4, 0, 6);
	KUNIT_EXPECT_EQ(test, n->c.leader, 5);
	KUNIT_EXPECT_EQ(test, n->c.stats.elections, 1);
}

/*
 * Rule g: a HEARTBEAT flagged leaving from the current leader at its term
 * marks it down and begins a run at once that does not ask it.
 */
static void tb_rule_leaving(struct kunit *test)
{
	struct t_node *n = t_node_new(test, 3, t_ids5, 5);
	/* static: struct elec_core is too big for a test's stack */
	static struct elec_core before;

	t_make_follower(n, 5, 2);
	/* from another id or another term: ignored */
	before = n->c;
	t_rx_flags(n, ELEC_MSG_HEARTBEAT, ELECTION_FLAG_LEAVING, 4, 2);
	t_rx_flags(n, ELEC_MSG_HEARTBEAT, ELECTION_FLAG_LEAVING, 5, 1);
	t_rx_flags(n, ELEC_MSG_HEARTBEAT, ELECTION_FLAG_LEAVING, 5, 3);
	KUNIT_EXPECT_EQ(test, n->n_acts, 0);
	KUNIT_EXPECT_EQ(test, n->c.leader, 5);
	KUNIT_EXPECT_EQ(test, n->c.timer_expires[ELEC_TIMER_DETECT],
			before.timer_expires[ELEC_TIMER_DETECT]);

	t_rx_flags(n, ELEC_MSG_HEARTBEAT, ELECTION_FLAG_LEAVING, 5, 2);
	KUNIT_EXPECT_EQ(test, t_events(n, ELEC_EVENT_PEER_DOWN, 5), 1);
	KUNIT_EXPECT_EQ(test, t_events(n, ELEC_EVENT_ELECTION_STARTED, T_ANY),
			1);
	KUNIT_EXPECT_EQ(test, n->c.leader, 0);
	KUNIT_EXPECT_EQ(test, n->c.bully.suspect, 5);
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_ELECTION, 4), 1);
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_ELECTION, 5), 0);
	KUNIT_EXPECT_EQ(test, t_sends(n, 0, T_ANY), 1);
	KUNIT_EXPECT_EQ(test, n->c.phase, ELEC_BULLY_WAIT_ANSWER);
	/* with ask-suspect on, a COORD restart still does not ask it */
	t_rx(n, ELEC_MSG_ANSWER, 4, 3, 2);
	t_clear(n);
	t_fire(n, ELEC_BULLY_TIMER_COORD);
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_ELECTION, 4), 1);
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_ELECTION, 5), 0);

	/* nor with ask-suspect off (the restart asks a mere suspect) */
	n = t_node_new(test, 3, t_ids5, 5);
	t_opts(n, true, false, 0);
	t_make_follower(n, 5, 2);
	t_rx_flags(n, ELEC_MSG_HEARTBEAT, ELECTION_FLAG_LEAVING, 5, 2);
	KUNIT_EXPECT_TRUE(test, n->c.bully.suspect_left);
	t_rx(n, ELEC_MSG_ANSWER, 4, 3, 2);
	t_clear(n);
	t_fire(n, ELEC_BULLY_TIMER_COORD);
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_ELECTION, 4), 1);
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_ELECTION, 5), 0);

	/* the second-highest takes over at once */
	n = t_node_new(test, 4, t_ids5, 5);
	t_make_follower(n, 5, 2);
	t_rx_flags(n, ELEC_MSG_HEARTBEAT, ELECTION_FLAG_LEAVING, 5, 2);
	KUNIT_EXPECT_EQ(test, n->c.leader, 4);
	KUNIT_EXPECT_EQ(test, n->c.term, 3);
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_ELECTION, T_ANY), 0);
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_COORDINATOR, T_ANY), 3);
}

/*
 * Rule h: a running leader resigns with one HEARTBEAT flagged leaving, at
 * its term, and changes nothing; anyone else sends nothing. Its follower
 * elects at once.
 */
static void tb_rule_resign(struct kunit *test)
{
	struct t_node *n = t_node_new(test, 5, t_ids5, 5);
	struct t_node *f = t_node_new(test, 4, t_ids5, 5);
	const struct elec_action *a;
	/* static: struct elec_core is too big for a test's stack */
	static struct elec_core before;

	elec_core_resign(&n->c, n->now);	/* stopped */
	KUNIT_EXPECT_EQ(test, n->n_acts, 0);
	t_make_leader(n);
	memcpy(&before, &n->c, sizeof(before));
	elec_core_resign(&n->c, n->now);
	KUNIT_ASSERT_EQ(test, n->n_acts, 1);
	a = t_act(n, 0);
	KUNIT_EXPECT_EQ(test, a->kind, ELEC_ACT_SEND);
	KUNIT_EXPECT_EQ(test, a->msg.type, ELEC_MSG_HEARTBEAT);
	KUNIT_EXPECT_EQ(test, a->msg.flags, ELECTION_FLAG_LEAVING);
	KUNIT_EXPECT_EQ(test, a->msg.dst, 0);
	KUNIT_EXPECT_EQ(test, a->msg.term, 1);
	KUNIT_EXPECT_EQ(test, a->msg.src, 5);
	/* nothing changed but the frame count */
	before.stats.tx[ELEC_MSG_HEARTBEAT]++;
	KUNIT_EXPECT_EQ(test, memcmp(&n->c, &before, sizeof(before)), 0);

	/* the follower gets it and takes over, without waiting for DETECT */
	t_make_follower(f, 5, 1);
	t_rx_flags(f, ELEC_MSG_HEARTBEAT, a->msg.flags, a->msg.src,
		   a->msg.term);
	KUNIT_EXPECT_EQ(test, f->c.leader, 4);
	KUNIT_EXPECT_EQ(test, f->c.role, ELEC_ROLE_LEADER);
	KUNIT_EXPECT_EQ(test, t_sends(f, ELEC_MSG_ELECTION, 5), 0);

	/* a follower and a candidate send nothing */
	f = t_node_new(test, 3, t_ids5, 5);
	t_make_follower(f, 5, 9);
	elec_core_resign(&f->c, f->now);
	KUNIT_EXPECT_EQ(test, f->n_acts, 0);
	f = t_node_new(test, 3, t_ids5, 5);
	t_start(f);
	t_fire(f, ELEC_TIMER_DETECT);
	t_clear(f);
	elec_core_resign(&f->c, f->now);
	KUNIT_EXPECT_EQ(test, f->n_acts, 0);
}

/* Rule i: a COORD timer restart asks the suspect even with ask-suspect off */
static void tb_rule_coord_restart(struct kunit *test)
{
	struct t_node *n = t_node_new(test, 3, t_ids5, 5);

	t_opts(n, true, false, 0);
	t_make_follower(n, 5, 1);
	t_fire(n, ELEC_TIMER_DETECT);
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_ELECTION, 5), 0);
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_ELECTION, 4), 1);
	t_rx(n, ELEC_MSG_ANSWER, 4, 3, 1);
	t_clear(n);
	t_fire(n, ELEC_BULLY_TIMER_COORD);
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_ELECTION, 4), 1);
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_ELECTION, 5), 1);
	KUNIT_EXPECT_EQ(test, t_sends(n, 0, T_ANY), 2);
	KUNIT_EXPECT_EQ(test, n->c.bully.suspect, 5);
	/* the suspect, only late, answers and keeps its role */
	t_rx(n, ELEC_MSG_ANSWER, 5, 3, 1);
	t_rx(n, ELEC_MSG_COORDINATOR, 5, 3, 1);
	KUNIT_EXPECT_EQ(test, n->c.leader, 5);
	KUNIT_EXPECT_EQ(test, n->c.term, 1);
	KUNIT_EXPECT_EQ(test, n->c.stats.leader_changes, 1);
}

/*
 * A leader asked by a higher id: ignored with preempt on (only a node
 * with preempt off asks a lower suspect) unless the frame carries a newer
 * term, answered and re-announced to with preempt off.
 */
static void tb_rule_election_from_higher(struct kunit *test)
{
	static const u32 ids[] = { 2, 4, 5 };
	struct t_node *n = t_node_new(test, 4, ids, 3);
	u64 term;

	t_start(n);
	t_rx(n, ELEC_MSG_HEARTBEAT, 2, 0, 3);	/* 4 bullies 2 and leads */
	t_fire(n, ELEC_BULLY_TIMER_ANSWER);
	KUNIT_ASSERT_EQ(test, n->c.role, ELEC_ROLE_LEADER);
	t_clear(n);
	t_rx(n, ELEC_MSG_ELECTION, 5, 4, n->c.term);
	KUNIT_EXPECT_EQ(test, t_sends(n, 0, T_ANY), 0);
	KUNIT_EXPECT_EQ(test, n->c.role, ELEC_ROLE_LEADER);
	/*
	 * at a newer term (a node in standby that follows nobody tells a
	 * stale leader so): a new term, announced, and to the asker too
	 */
	term = n->c.term;
	t_rx(n, ELEC_MSG_ELECTION, 5, 4, term + 1);
	KUNIT_EXPECT_EQ(test, n->c.term, term + 2);
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_COORDINATOR, 5), 1);
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_COORDINATOR, 2), 1);
	KUNIT_EXPECT_EQ(test, n->c.role, ELEC_ROLE_LEADER);

	n = t_node_new(test, 4, ids, 3);
	t_opts(n, false, true, 0);
	t_start(n);
	t_fire(n, ELEC_TIMER_DETECT);
	t_fire(n, ELEC_BULLY_TIMER_ANSWER);
	KUNIT_ASSERT_EQ(test, n->c.role, ELEC_ROLE_LEADER);
	t_clear(n);
	t_rx(n, ELEC_MSG_ELECTION, 5, 4, n->c.term);
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_ANSWER, 5), 1);
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_COORDINATOR, 5), 1);
	KUNIT_EXPECT_EQ(test, t_sends(n, 0, T_ANY), 2);
	KUNIT_EXPECT_EQ(test, n->c.role, ELEC_ROLE_LEADER);
}

/*
 * A term more than ELECTION_TERM_MAX_AHEAD above the group's (taken from
 * a frame while learning) is given up on the group's next announcement:
 * otherwise each side drops the other's frames forever (term_too_far one
 * way, stale the other).
 */
static void tb_rule_alien_term(struct kunit *test)
{
	struct t_node *n = t_node_new(test, 3, t_ids5, 5);
	u64 big = ELECTION_TERM_MAX_AHEAD * 4;

	t_start(n);
	t_rx(n, ELEC_MSG_HEARTBEAT, 5, 0, big);	/* learning: any term */
	KUNIT_ASSERT_EQ(test, n->c.leader, 5);
	KUNIT_ASSERT_EQ(test, n->c.term, big);
	/* within the bound an older announcement stays stale */
	t_rx(n, ELEC_MSG_HEARTBEAT, 4, 0, big - ELECTION_TERM_MAX_AHEAD);
	KUNIT_EXPECT_EQ(test, n->c.leader, 5);
	KUNIT_EXPECT_EQ(test, n->c.stats.drops[ELEC_DROP_STALE_TERM], 1);
	/* beyond it the group's leader is taken, with its term */
	t_rx(n, ELEC_MSG_HEARTBEAT, 4, 0, 7);
	KUNIT_EXPECT_EQ(test, n->c.leader, 4);
	KUNIT_EXPECT_EQ(test, n->c.term, 7);
	KUNIT_EXPECT_EQ(test, n->c.max_term, 7);
	KUNIT_EXPECT_EQ(test, n->c.phase, ELEC_BULLY_FOLLOWING);
	/* and the group's frames are accepted from then on */
	t_rx(n, ELEC_MSG_COORDINATOR, 5, 3, 8);
	KUNIT_EXPECT_EQ(test, n->c.leader, 5);
	KUNIT_EXPECT_EQ(test, n->c.term, 8);
}

/*
 * A run that preempts a worse leader ignores that leader's heartbeats at
 * its term: following it again would restart the run at every heartbeat
 * (for ever when T is longer than hb-interval).
 */
static void tb_preempting_run_ignores_leader(struct kunit *test)
{
	struct t_node *n = t_node_new(test, 3, t_ids5, 5);

	t_start(n);
	t_rx(n, ELEC_MSG_HEARTBEAT, 2, 0, 1);
	KUNIT_ASSERT_TRUE(test, n->c.participant);
	KUNIT_ASSERT_EQ(test, n->c.phase, ELEC_BULLY_WAIT_ANSWER);
	KUNIT_ASSERT_EQ(test, n->c.stats.elections, 1);
	t_clear(n);
	n->now += T_HB;
	t_rx(n, ELEC_MSG_HEARTBEAT, 2, 0, 1);
	KUNIT_EXPECT_TRUE(test, n->c.participant);
	KUNIT_EXPECT_EQ(test, n->c.phase, ELEC_BULLY_WAIT_ANSWER);
	KUNIT_EXPECT_EQ(test, n->c.leader, 0);
	KUNIT_EXPECT_EQ(test, n->c.stats.elections, 1);
	KUNIT_EXPECT_EQ(test, t_sends(n, 0, T_ANY), 0);
	/* T passes with no answer: it takes over */
	t_fire(n, ELEC_BULLY_TIMER_ANSWER);
	KUNIT_EXPECT_EQ(test, n->c.role, ELEC_ROLE_LEADER);
}

/*
 * Standby: asked by a lower id, no ANSWER and no run; its detector begins
 * no run (it follows nobody and watches); it follows a worse leader and
 * never takes over; out of standby it takes over at once (preempt on).
 */
static void tb_standby(struct kunit *test)
{
	struct t_node *n = t_node_new(test, 3, t_ids5, 5);
	u64 runs;

	t_make_follower(n, 5, 2);
	runs = n->c.stats.elections;
	t_standby(n, true);
	KUNIT_EXPECT_EQ(test, n->n_acts, 0);
	KUNIT_EXPECT_EQ(test, n->c.leader, 5);
	t_rx(n, ELEC_MSG_ELECTION, 1, 3, 2);
	KUNIT_EXPECT_EQ(test, n->n_acts, 0);
	KUNIT_EXPECT_FALSE(test, n->c.participant);
	n->now += T_DETECT;
	t_fire(n, ELEC_TIMER_DETECT);
	KUNIT_EXPECT_EQ(test, t_sends(n, 0, T_ANY), 0);
	KUNIT_EXPECT_EQ(test, n->c.stats.elections, runs);
	KUNIT_EXPECT_EQ(test, n->c.leader, 0);
	KUNIT_EXPECT_EQ(test, n->c.phase, ELEC_BULLY_FOLLOWING);
	KUNIT_EXPECT_EQ(test, t_timers(n), T_BIT(ELEC_TIMER_DETECT));
	/* a new leader's COORDINATOR: followed */
	t_rx(n, ELEC_MSG_COORDINATOR, 4, 3, 3);
	KUNIT_EXPECT_EQ(test, n->c.leader, 4);
	/* out of standby with a better leader: nothing changes */
	t_clear(n);
	t_standby(n, false);
	KUNIT_EXPECT_EQ(test, t_sends(n, 0, T_ANY), 0);
	KUNIT_EXPECT_EQ(test, n->c.leader, 4);

	/* the highest id in standby follows a worse leader */
	n = t_node_new(test, 5, t_ids5, 5);
	t_start(n);
	t_standby(n, true);
	t_clear(n);
	t_rx(n, ELEC_MSG_HEARTBEAT, 4, 0, 1);
	n->now += T_HB;
	t_rx(n, ELEC_MSG_HEARTBEAT, 4, 0, 1);
	KUNIT_EXPECT_EQ(test, n->c.leader, 4);
	KUNIT_EXPECT_EQ(test, t_sends(n, 0, T_ANY), 0);
	KUNIT_EXPECT_EQ(test, n->c.stats.elections, 0);
	/* and takes over when it leaves standby */
	t_standby(n, false);
	KUNIT_EXPECT_EQ(test, n->c.leader, 5);
	KUNIT_EXPECT_EQ(test, n->c.role, ELEC_ROLE_LEADER);
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_COORDINATOR, T_ANY), 4);
	/* a leader entering standby resigns and follows nobody */
	t_clear(n);
	t_standby(n, true);
	KUNIT_EXPECT_EQ(test, t_leaving_sent(n), 1);
	KUNIT_EXPECT_EQ(test, t_sends(n, 0, T_ANY), 1);
	KUNIT_EXPECT_EQ(test, n->c.leader, 0);
	KUNIT_EXPECT_EQ(test, n->c.role, ELEC_ROLE_FOLLOWER);
	KUNIT_EXPECT_EQ(test, t_timers(n), T_BIT(ELEC_TIMER_DETECT));
	/*
	 * a stale leader's heartbeat, once the announcement's window is
	 * over: told of the newer term (ELECTION)
	 */
	n->now += T_DETECT;
	t_clear(n);
	t_rx(n, ELEC_MSG_HEARTBEAT, 4, 0, 1);
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_ELECTION, 4), 1);
	KUNIT_EXPECT_EQ(test, n->c.leader, 0);
}

static struct kunit_case elec_bully_cases[] = {
	KUNIT_CASE(tb_start_learns),
	KUNIT_CASE(tb_preempting_run_ignores_leader),
	KUNIT_CASE(tb_highest_elects_itself),
	KUNIT_CASE(tb_election_to_higher),
	KUNIT_CASE(tb_answer_timeout),
	KUNIT_CASE(tb_answer_backoff),
	KUNIT_CASE(tb_answer_then_wait),
	KUNIT_CASE(tb_coord_timeout_restarts),
	KUNIT_CASE(tb_rx_election_from_lower),
	KUNIT_CASE(tb_rx_election_from_higher),
	KUNIT_CASE(tb_leader_reannounces),
	KUNIT_CASE(tb_heartbeats),
	KUNIT_CASE(tb_detector),
	KUNIT_CASE(tb_best_case_frames),
	KUNIT_CASE(tb_learning_adopts),
	KUNIT_CASE(tb_learning_bullies_lower),
	KUNIT_CASE(tb_stale_terms),
	KUNIT_CASE(tb_stale_not_alive),
	KUNIT_CASE(tb_leader_steps_down),
	KUNIT_CASE(tb_max_term),
	KUNIT_CASE(tb_peer_add_del),
	KUNIT_CASE(tb_admin_elect),
	KUNIT_CASE(tb_stop_mid_election),
	KUNIT_CASE(tb_deterministic),
	KUNIT_CASE(tb_rule_run_asks_all),
	KUNIT_CASE(tb_rule_candidate_no_leader),
	KUNIT_CASE(tb_rule_leader_asked),
	KUNIT_CASE(tb_rule_follower_trusts),
	KUNIT_CASE(tb_rule_tell_stale),
	KUNIT_CASE(tb_preempt_off_tells_worse_leader),
	KUNIT_CASE(tb_rule_learning_worse),
	KUNIT_CASE(tb_rule_leaving),
	KUNIT_CASE(tb_rule_resign),
	KUNIT_CASE(tb_rule_coord_restart),
	KUNIT_CASE(tb_rule_election_from_higher),
	KUNIT_CASE(tb_rule_alien_term),
	KUNIT_CASE(tb_wait_timers),
	KUNIT_CASE(tb_standby),
	{}
};

static struct kunit_suite elec_bully_suite = {
	.name = "elec_bully",
	.test_cases = elec_bully_cases,
};

/* ---- elec_bully_net: the in-test network ------------------------------ */

/* the network's init hook: a Bully instance, every other node a peer */
static void tn_node_init(struct t_net *net, struct t_node *n, u32 id)
{
	t_node_init(n, id, net->ids, net->n);
}

static struct t_net *tn_new(struct kunit *test, const u32 *ids, u32 nr)
{
	struct t_net *net = kunit_kzalloc(test, sizeof(*net), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, net);
	t_net_init(net, test, ids, nr, tn_node_init);
	return net;
}

static void tn_non_contiguous_ids(struct kunit *test)
{
	static const u32 ids[] = { 42, 3, 7000, 100, 17 };
	struct t_net *net = tn_new(test, ids, 5);

	t_net_start_all(net);
	t_net_run_for(net, 1000000000ULL);
	t_net_expect_agree(net, 7000);
	KUNIT_EXPECT_EQ(test, t_net_node(net, 7000)->c.stats.leader_changes,
			1);
}

/* every node of @net gets ask-suspect @off, preempt @preempt_off */
static void tn_set_opts(struct t_net *net, bool off, bool preempt_off)
{
	struct elec_config cfg;
	u32 i;

	for (i = 0; i < net->n; i++) {
		cfg = net->node[i]->c.cfg;
		cfg.ask_suspect_off = off;
		cfg.preempt_off = preempt_off;
		KUNIT_ASSERT_EQ(net->test, elec_core_set_config(&net->node[i]->c,
								&cfg, NULL), 0);
	}
}

/*
 * Second-highest detects the crash. ask-suspect on: it asks the suspect
 * (one ELECTION), hears nothing within T and sends N-2 COORDINATOR frames,
 * N-1 in all; off: the N-2 COORDINATOR frames at once, nothing else.
 */
static void tn_best(struct kunit *test, bool off)
{
	static const u32 ids[] = { 1, 2, 3, 4, 5, 6, 7 };
	struct t_net *net = tn_new(test, ids, 7);
	struct t_node *d = t_net_node(net, 6);
	struct elec_config cfg;
	u64 elections, detect;

	tn_set_opts(net, off, false);
	cfg = d->c.cfg;
	cfg.hb_miss = 2;	/* 6 notices first */
	KUNIT_ASSERT_EQ(test, elec_core_set_config(&d->c, &cfg, NULL), 0);
	t_net_start_all(net);
	t_net_run_for(net, 1000000000ULL);
	t_net_expect_agree(net, 7);

	t_net_crash(net, 7);
	memset(net->sent, 0, sizeof(net->sent));
	elections = t_net_sum_elections(net);
	detect = d->c.timer_expires[ELEC_TIMER_DETECT];
	/* up to just before the new leader's first heartbeat */
	t_net_run(net, detect + (off ? 0 : T_T) + T_HB - 1);
	KUNIT_EXPECT_EQ(test, net->sent[ELEC_MSG_COORDINATOR], 7 - 2);
	KUNIT_EXPECT_EQ(test, net->sent[ELEC_MSG_ELECTION], off ? 0 : 1);
	KUNIT_EXPECT_EQ(test, net->sent[ELEC_MSG_ANSWER], 0);
	KUNIT_EXPECT_EQ(test, net->sent[ELEC_MSG_HEARTBEAT], 0);
	KUNIT_EXPECT_EQ(test, net->lost, off ? 0 : 1);
	KUNIT_EXPECT_EQ(test, t_net_sum_elections(net), elections + 1);
	t_net_expect_agree(net, 6);
	t_net_run_for(net, 1000000000ULL);
	t_net_expect_agree(net, 6);
}

static void tn_best_case(struct kunit *test)
{
	tn_best(test, false);
}

static void tn_best_case_ask_off(struct kunit *test)
{
	tn_best(test, true);
}

/*
 * Lowest id detects the crash: every node below the failed one elects.
 * Every detector expires at the same instant (all heard the same
 * heartbeats); node 1, first in node order, fires first, and its
 * ELECTIONs reach the others at that instant, when their trust in N has
 * just run out and before their own detectors fire.
 */
static void t_net_worst_case(struct kunit *test, u32 nr, bool off)
{
	static const u32 ids[] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12 };
	struct t_net *net = tn_new(test, ids, nr);
	struct t_node *d = t_net_node(net, 1);
	u64 elections, detect, e, a;
	u32 i;

	tn_set_opts(net, off, false);
	t_net_start_all(net);
	t_net_run_for(net, 1000000000ULL);
	t_net_expect_agree(net, nr);

	t_net_crash(net, nr);
	memset(net->sent, 0, sizeof(net->sent));
	elections = t_net_sum_elections(net);
	detect = d->c.timer_expires[ELEC_TIMER_DETECT];
	for (i = 0; i + 1 < nr; i++)
		KUNIT_ASSERT_EQ(test,
				net->node[i]->c.timer_expires[ELEC_TIMER_DETECT],
				detect);
	t_net_run(net, detect + T_T + T_T / 2);
	/*
	 * 1 asks 2..N (ask-suspect on) or 2..N-1 (off: it skips the
	 * suspect N); each i in 2..N-1, which has no suspect, asks i+1..N;
	 * every live node answers every ELECTION it gets; N-1 times out on
	 * N and announces to N-2 nodes. ELECTION: Gupta's N(N-1)/2, one
	 * less with ask-suspect off.
	 */
	a = (u64)(nr - 2) * (nr - 1) / 2;
	e = (u64)nr * (nr - 1) / 2 - off;
	KUNIT_EXPECT_EQ_MSG(test, net->sent[ELEC_MSG_ELECTION], e, "N=%u", nr);
	KUNIT_EXPECT_EQ_MSG(test, net->sent[ELEC_MSG_ANSWER], a, "N=%u", nr);
	KUNIT_EXPECT_EQ_MSG(test, net->sent[ELEC_MSG_COORDINATOR],
			    (u64)nr - 2, "N=%u", nr);
	KUNIT_EXPECT_EQ(test, net->sent[ELEC_MSG_HEARTBEAT], 0);
	KUNIT_EXPECT_EQ(test, t_net_sum_elections(net), elections + nr - 1);
	t_net_expect_agree(net, nr - 1);
	t_net_run_for(net, 1000000000ULL);
	t_net_expect_agree(net, nr - 1);
}

static void tn_worst_case_5(struct kunit *test)
{
	t_net_worst_case(test, 5, false);
}

static void tn_worst_case_12(struct kunit *test)
{
	t_net_worst_case(test, 12, false);
}

static void tn_worst_case_ask_off(struct kunit *test)
{
	t_net_worst_case(test, 5, true);
	t_net_worst_case(test, 12, true);
}

/* Every node starts an election at the same instant. */
static void tn_concurrent(struct kunit *test)
{
	static const u32 ids[] = { 5, 9, 13, 2, 11, 7, 3, 8 };
	struct t_net *net = tn_new(test, ids, 8);
	u64 elections;

	net->timers_first = true;
	t_net_start_all(net);
	t_net_run_for(net, 1000000000ULL);
	t_net_expect_agree(net, 13);
	KUNIT_EXPECT_GE(test, t_net_sum_elections(net), 8);

	/* the leader crashes; all followers detect at the same instant */
	t_net_crash(net, 13);
	elections = t_net_sum_elections(net);
	t_net_run_for(net, 1000000000ULL);
	t_net_expect_agree(net, 11);
	KUNIT_EXPECT_GE(test, t_net_sum_elections(net), elections + 7);

	/* and all are told to elect at once */
	elections = t_net_sum_elections(net);
	elec_core_elect(&t_net_node(net, 2)->c, net->now);
	elec_core_elect(&t_net_node(net, 3)->c, net->now);
	elec_core_elect(&t_net_node(net, 11)->c, net->now);
	elec_core_elect(&t_net_node(net, 9)->c, net->now);
	t_net_run_for(net, 1000000000ULL);
	t_net_expect_agree(net, 11);
	KUNIT_EXPECT_GE(test, t_net_sum_elections(net), elections + 4);
}

/* The leader crashes, the next-highest takes over, the old one returns. */
static void tn_crash_and_recover(struct kunit *test)
{
	static const u32 ids[] = { 10, 20, 30, 40, 50 };
	struct t_net *net = tn_new(test, ids, 5);
	u64 term;
	u32 i;

	t_net_start_all(net);
	t_net_run_for(net, 1000000000ULL);
	t_net_expect_agree(net, 50);

	t_net_crash(net, 50);
	t_net_run_for(net, 1000000000ULL);
	t_net_expect_agree(net, 40);
	term = t_net_node(net, 40)->c.term;
	KUNIT_EXPECT_GT(test, term, t_net_node(net, 50)->c.term);
	KUNIT_EXPECT_EQ(test, elec_core_peer_find(&t_net_node(net, 10)->c,
						  50)->alive, 0);

	/* rebooted with term 0: learns term from 40, bullies with term+1 */
	t_net_reboot(net, 50);
	t_net_run_for(net, 1000000000ULL);
	t_net_expect_agree(net, 50);
	KUNIT_EXPECT_EQ(test, t_net_node(net, 50)->c.term, term + 1);
	KUNIT_EXPECT_EQ(test, elec_core_peer_find(&t_net_node(net, 10)->c,
						  50)->alive, 1);

	/* a low node reboots: learns, calls an election, 50 stays */
	t_net_reboot(net, 10);
	t_net_run_for(net, 1000000000ULL);
	t_net_expect_agree(net, 50);
	/* a middle node's link flaps */
	t_net_flap(net, 30, 500000000ULL);
	t_net_run_for(net, 1000000000ULL);
	t_net_expect_agree(net, 50);
	/* the leader's link flaps for long enough to be replaced */
	t_net_flap(net, 50, 500000000ULL);
	t_net_run_for(net, 1000000000ULL);
	t_net_expect_agree(net, 50);
	/* a peer removed everywhere: the survivors elect without it */
	t_net_crash(net, 50);
	for (i = 0; i < 4; i++)
		KUNIT_EXPECT_EQ(test, elec_core_peer_del(&net->node[i]->c, 50,
							 net->now), 0);
	t_net_run_for(net, 1000000000ULL);
	t_net_expect_agree(net, 40);
}

/* Two sides elect their own leaders; after healing the highest wins. */
static void tn_partition_heals(struct kunit *test)
{
	static const u32 ids[] = { 1, 2, 3, 4, 5, 6 };
	struct t_net *net = tn_new(test, ids, 6);
	u64 term;

	t_net_start_all(net);
	t_net_run_for(net, 1000000000ULL);
	t_net_expect_agree(net, 6);

	t_net_partition(net, 4, true);
	t_net_run_for(net, 1000000000ULL);
	/* {1,2,3} elected 3 in a later term; {4,5,6} kept 6 */
	KUNIT_EXPECT_EQ(test, t_net_node(net, 1)->c.leader, 3);
	KUNIT_EXPECT_EQ(test, t_net_node(net, 2)->c.leader, 3);
	KUNIT_EXPECT_EQ(test, t_net_node(net, 3)->c.role, ELEC_ROLE_LEADER);
	KUNIT_EXPECT_EQ(test, t_net_node(net, 5)->c.leader, 6);
	KUNIT_EXPECT_GT(test, t_net_node(net, 3)->c.term,
			t_net_node(net, 6)->c.term);

	term = t_net_node(net, 3)->c.term;
	t_net_partition(net, 4, false);
	t_net_run_for(net, 1000000000ULL);
	t_net_expect_agree(net, 6);
	/* 6 had to outbid the other side's term */
	KUNIT_EXPECT_GT(test, t_net_node(net, 6)->c.term, term);
	KUNIT_EXPECT_EQ(test, elec_core_peer_find(&t_net_node(net, 1)->c,
						  6)->alive, 1);
}

/*
 * A false suspicion: 4 misses 5's heartbeats (the link 5 -> 4 is cut for
 * a detection window) and suspects it when the link is back.
 * ask-suspect on: 4 asks 5, which answers and re-announces at its term:
 * the leader, its term and every node's leader_changes stay. Off: 4 skips
 * 5 and, asking nobody, leads in a new term; told of it, 5 takes over
 * again in a newer one: two changes at every other node.
 */
static void tn_false_suspicion(struct kunit *test, bool off)
{
	static const u32 ids[] = { 1, 2, 3, 4, 5 };
	struct t_net *net = tn_new(test, ids, 5);
	struct t_node *f = t_net_node(net, 4);
	struct t_node *l = t_net_node(net, 5);
	u64 changes[5], sent[ELEC_MSG_MAX + 1], elections, term, detect;
	u32 i;

	tn_set_opts(net, off, false);
	t_net_start_all(net);
	t_net_run_for(net, 1000000000ULL);
	t_net_expect_agree(net, 5);
	term = l->c.term;
	elections = f->c.stats.elections;
	for (i = 0; i < 5; i++)
		changes[i] = net->node[i]->c.stats.leader_changes;
	memcpy(sent, net->sent, sizeof(sent));

	net->cut[l->idx][f->idx] = true;
	detect = f->c.timer_expires[ELEC_TIMER_DETECT];
	t_net_run(net, detect - 1);
	KUNIT_EXPECT_EQ(test, f->c.stats.elections, elections);
	net->cut[l->idx][f->idx] = false;
	t_net_run_for(net, 1000000000ULL);
	KUNIT_EXPECT_EQ(test, f->c.stats.elections, elections + 1);
	t_net_expect_agree(net, 5);
	if (!off) {
		KUNIT_EXPECT_EQ(test, l->c.term, term);
		KUNIT_EXPECT_EQ(test, l->c.max_term, term);
		/* the probe: ELECTION to the suspect, its ANSWER and its
		 * COORDINATOR, nothing to or from anyone else
		 */
		KUNIT_EXPECT_EQ(test, net->sent[ELEC_MSG_ELECTION],
				sent[ELEC_MSG_ELECTION] + 1);
		KUNIT_EXPECT_EQ(test, net->sent[ELEC_MSG_ANSWER],
				sent[ELEC_MSG_ANSWER] + 1);
		KUNIT_EXPECT_EQ(test, net->sent[ELEC_MSG_COORDINATOR],
				sent[ELEC_MSG_COORDINATOR] + 1);
	} else {
		KUNIT_EXPECT_EQ(test, l->c.term, term + 2);
	}
	for (i = 0; i < 5; i++) {
		struct t_node *n = net->node[i];
		u32 id = n->c.cfg.self_id;
		/* ask-suspect off: 5 -> 4 -> 5 at every node but 5 */
		u64 want = off && id != 5 ? 2 : 0;

		KUNIT_EXPECT_EQ_MSG(test, n->c.stats.leader_changes,
				    changes[i] + want, "node %u", id);
	}
}

static void tn_false_suspicion_ask_on(struct kunit *test)
{
	tn_false_suspicion(test, false);
}

static void tn_false_suspicion_ask_off(struct kunit *test)
{
	tn_false_suspicion(test, true);
}

/*
 * A live leader asked by the lowest id: N-1 ELECTION, N-1 ANSWER (the
 * others trust the leader and begin no run), one COORDINATOR from the
 * leader at its term: 2N-1 frames, no new term.
 */
static void tn_elect_live_leader(struct kunit *test)
{
	static const u32 ids[] = { 1, 2, 3, 4, 5, 6 };
	struct t_net *net = tn_new(test, ids, 6);
	u64 changes, elections, term;

	t_net_start_all(net);
	t_net_run_for(net, 1000000000ULL);
	t_net_expect_agree(net, 6);
	term = t_net_node(net, 6)->c.term;
	changes = t_net_node(net, 1)->c.stats.leader_changes;
	elections = t_net_sum_elections(net);
	memset(net->sent, 0, sizeof(net->sent));

	elec_core_elect(&t_net_node(net, 1)->c, net->now);
	t_net_drain(net);
	KUNIT_EXPECT_EQ(test, net->sent[ELEC_MSG_ELECTION], 6 - 1);
	KUNIT_EXPECT_EQ(test, net->sent[ELEC_MSG_ANSWER], 6 - 1);
	KUNIT_EXPECT_EQ(test, net->sent[ELEC_MSG_COORDINATOR], 1);
	KUNIT_EXPECT_EQ(test, t_net_sum_elections(net), elections + 1);
	t_net_expect_agree(net, 6);
	KUNIT_EXPECT_EQ(test, t_net_node(net, 6)->c.term, term);
	KUNIT_EXPECT_EQ(test, t_net_node(net, 1)->c.stats.leader_changes,
			changes);
}

/*
 * Preempt off: the highest id crashes, 4 takes over; back, 5 follows 4
 * and begins no run. With a preempt-delay it follows 4 that long, then
 * takes over.
 */
static void tn_returning(struct kunit *test, u64 delay)
{
	static const u32 ids[] = { 1, 2, 3, 4, 5 };
	struct t_net *net = tn_new(test, ids, 5);
	struct t_node *h = t_net_node(net, 5);
	u64 term, back;
	u32 i;

	for (i = 0; i < net->n; i++)
		t_opts(net->node[i], false, !delay, delay);
	t_net_start_all(net);
	t_net_run_for(net, 1000000000ULL);
	t_net_expect_agree(net, 5);
	t_net_crash(net, 5);
	t_net_run_for(net, 1000000000ULL);
	t_net_expect_agree(net, 4);
	term = t_net_node(net, 4)->c.term;

	/* a reboot: a fresh instance with the same options */
	t_net_reboot(net, 5);
	t_opts(h, false, !delay, delay);
	back = net->now;
	t_net_run(net, back + (delay ? delay - 1 : 1000000000ULL));
	t_net_expect_agree(net, 4);
	KUNIT_EXPECT_EQ(test, h->c.stats.elections, 0);
	KUNIT_EXPECT_EQ(test, t_net_node(net, 4)->c.term, term);
	KUNIT_EXPECT_EQ(test, h->c.stats.leader_changes, 1);
	if (!delay)
		return;
	t_net_run_for(net, 1000000000ULL);
	t_net_expect_agree(net, 5);
	KUNIT_EXPECT_EQ(test, h->c.stats.elections, 1);
	KUNIT_EXPECT_EQ(test, h->c.term, term + 1);
}

static void tn_preempt_off(struct kunit *test)
{
	tn_returning(test, 0);
}

static void tn_preempt_delay(struct kunit *test)
{
	tn_returning(test, 300000000ULL);
}

/*
 * The leader resigns and stops: its followers elect the next highest at
 * once, well within a heartbeat interval, asking the leaver nothing.
 */
static void tn_resign(struct kunit *test)
{
	static const u32 ids[] = { 1, 2, 3, 4, 5 };
	struct t_net *net = tn_new(test, ids, 5);
	struct t_node *l = t_net_node(net, 5);
	u64 term;

	t_net_start_all(net);
	t_net_run_for(net, 1000000000ULL);
	t_net_expect_agree(net, 5);
	term = l->c.term;
	memset(net->sent, 0, sizeof(net->sent));

	elec_core_resign(&l->c, net->now);
	elec_core_stop(&l->c, net->now);
	t_net_run_for(net, T_HB - 1);
	t_net_expect_agree(net, 4);
	KUNIT_EXPECT_EQ(test, t_net_node(net, 4)->c.term, term + 1);
	KUNIT_EXPECT_EQ(test, net->sent[ELEC_MSG_HEARTBEAT], 1);
	KUNIT_EXPECT_EQ(test, l->c.stats.drops[ELEC_DROP_STOPPED], 0);
	KUNIT_EXPECT_EQ(test, t_net_node(net, 4)->c.stats.leader_changes, 2);
	/* and stay so */
	t_net_run_for(net, 1000000000ULL);
	t_net_expect_agree(net, 4);
}

/* the random network test's bully nodes: the highest live id leads */
static const struct t_rand_net tn_rand = {
	{ 2, 5, 9, 11, 20, 33, 34, 50 }, t_node_init, t_net_highest_up
};

static void tn_random_failures(struct kunit *test)
{
	t_net_random(test, &tn_rand, false, false, 0, 0x2545f491);
	t_net_random(test, &tn_rand, false, false, 0, 0x9e3779b9);
}

static void tn_random_failures_ask_off(struct kunit *test)
{
	t_net_random(test, &tn_rand, true, false, 0, 0x2545f491);
	t_net_random(test, &tn_rand, true, false, 0, 0x9e3779b9);
}

static void tn_random_failures_preempt_off(struct kunit *test)
{
	t_net_random(test, &tn_rand, false, true, 0, 0x2545f491);
	t_net_random(test, &tn_rand, true, true, 0, 0x9e3779b9);
}

static void tn_random_failures_preempt_delay(struct kunit *test)
{
	t_net_random(test, &tn_rand, false, false, 300000000ULL, 0x2545f491);
	t_net_random(test, &tn_rand, true, false, 300000000ULL, 0x9e3779b9);
}

static void tn_standby(struct kunit *test)
{
	static const u32 ids[] = { 1, 2, 3, 4, 5 };
	static const u32 pref[] = { 5, 4, 3, 2, 1 };

	t_net_bully_standby(tn_new(test, ids, 5), pref);
}

static void tn_standby_quorum(struct kunit *test)
{
	static const u32 ids[] = { 1, 2, 3 };
	static const u32 pref[] = { 3, 2, 1 };

	t_net_bully_standby_quorum(tn_new(test, ids, 3), pref);
}

static struct kunit_case elec_bully_net_cases[] = {
	KUNIT_CASE(tn_non_contiguous_ids),
	KUNIT_CASE(tn_best_case),
	KUNIT_CASE(tn_best_case_ask_off),
	KUNIT_CASE(tn_worst_case_5),
	KUNIT_CASE(tn_worst_case_12),
	KUNIT_CASE(tn_worst_case_ask_off),
	KUNIT_CASE(tn_concurrent),
	KUNIT_CASE(tn_crash_and_recover),
	KUNIT_CASE(tn_partition_heals),
	KUNIT_CASE(tn_random_failures),
	KUNIT_CASE(tn_random_failures_ask_off),
	KUNIT_CASE(tn_random_failures_preempt_off),
	KUNIT_CASE(tn_random_failures_preempt_delay),
	KUNIT_CASE(tn_false_suspicion_ask_on),
	KUNIT_CASE(tn_false_suspicion_ask_off),
	KUNIT_CASE(tn_elect_live_leader),
	KUNIT_CASE(tn_preempt_off),
	KUNIT_CASE(tn_preempt_delay),
	KUNIT_CASE(tn_resign),
	KUNIT_CASE(tn_standby),
	KUNIT_CASE(tn_standby_quorum),
	{}
};

static struct kunit_suite elec_bully_net_suite = {
	.name = "elec_bully_net",
	.test_cases = elec_bully_net_cases,
};

kunit_test_suites(&elec_core_suite, &elec_bully_suite, &elec_bully_net_suite);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("KUnit tests of the election protocol core");
