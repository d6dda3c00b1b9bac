// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite elec_quorum: quorum for the three Bully algorithms
 * (module/core/quorum.c, cfg.quorum). The configuration rules; the ALIVE
 * payload as the codec sees it; one node fed frames by hand (a claimant's
 * role waits for a majority's namings, a leader's lease runs out, a
 * follower's promise holds back its naming until the window passes or the
 * leader it named releases it; a late heartbeat is named at once); and
 * five nodes on the in-test network of elec_kunit_net.h, which delivers
 * frames with no delay, where after every
 * step at most one node may be in role leader: confirmation, the beacons'
 * pace, partitions with the leader on either side and their heal, the
 * release chain when a better node returns, and a minority that begins no
 * run. The network cases run for bully, min-bully and enh-bully.
 */
#include <kunit/test.h>
#include <linux/string.h>

#include "elec_kunit_net.h"
#include "bully.h"

/* quorum.h's windows at the suites' timings: hb 20 ms, hb-miss 3, T 10 ms */
#define TQ_LEASE	(T_HB * (T_MISS - 1) - T_T)	/* 30 ms */
#define TQ_FRESH	(T_HB + T_T / 2)		/* 25 ms */
#define TQ_PROMISE	(TQ_LEASE + T_T / 2)		/* 35 ms */
#define TQ_MS		1000000ULL

static const u32 tq_ids[] = { 1, 2, 3, 4, 5 };

static const u8 tq_bully_algos[] = {
	ELEC_ALGO_BULLY, ELEC_ALGO_MIN_BULLY, ELEC_ALGO_ENH_BULLY,
};

static void tq_node_init(struct t_node *n, u8 algo, bool quorum, u32 self,
			 const u32 *ids, u32 nr)
{
	struct elec_config cfg;

	t_cfg_algo(&cfg, algo, self);
	cfg.quorum = quorum;
	t_node_setup(n, &cfg, ids, nr, 0, NULL);
}

/* node @self of tq_ids, Bully, quorum on, not started */
static struct t_node *tq_node(struct kunit *test, u32 self)
{
	struct t_node *n = t_node_alloc(test);

	tq_node_init(n, ELEC_ALGO_BULLY, true, self, tq_ids,
		     ARRAY_SIZE(tq_ids));
	return n;
}

static void tq_msg(struct elec_msg *m, const struct t_node *n, u8 type,
		   u32 src, u32 dst, u64 term)
{
	memset(m, 0, sizeof(*m));
	m->type = type;
	m->algo = n->c.cfg.algo;
	m->group = T_GROUP;
	m->src = src;
	m->dst = dst;
	m->term = term;
}

/* a bare frame from @src to @n */
static void tq_rx(struct t_node *n, u8 type, u32 src, u32 dst, u64 term)
{
	struct elec_msg m;

	tq_msg(&m, n, type, src, dst, term);
	elec_core_rx(&n->c, &m, n->now);
}

/* ALIVE from @src at header term @term, naming @name at @named_term */
static void tq_rx_alive(struct t_node *n, u32 src, u64 term, u32 name,
			u64 named_term)
{
	u8 pl[ELECTION_ALIVE_LEN];
	struct elec_msg m;

	elec_put32(pl, name);
	elec_put64(pl + 4, named_term);
	tq_msg(&m, n, ELEC_MSG_ALIVE, src, 0, term);
	m.payload = pl;
	m.payload_len = sizeof(pl);
	KUNIT_ASSERT_TRUE(n->test, n->c.ops->payload_ok(ELEC_MSG_ALIVE, pl,
							sizeof(pl)));
	elec_core_rx(&n->c, &m, n->now);
}

/* the last ALIVE @n sent since t_clear() (the case fails if none) */
static const struct elec_action *tq_alive(struct t_node *n)
{
	const struct elec_action *a = t_sent(n, ELEC_MSG_ALIVE);

	KUNIT_ASSERT_EQ(n->test, a->msg.payload_len, ELECTION_ALIVE_LEN);
	KUNIT_ASSERT_NOT_NULL(n->test, a->msg.payload);
	return a;
}

/* the leader a recorded ALIVE names, and the term it names it at */
static u32 tq_named(const struct elec_action *a)
{
	return elec_get32(a->msg.payload);
}

static u64 tq_named_term(const struct elec_action *a)
{
	return elec_get64(a->msg.payload + 4);
}

/* peers whose ALIVE naming @n counts toward its claim */
static u32 tq_support(const struct t_node *n)
{
	u32 i, cnt = 0;

	for (i = 0; i < n->c.n_peers; i++)
		cnt += n->c.peers[i].support_ns != 0;
	return cnt;
}

/* the best id of a bit set of ids in @algo's order */
static u32 tq_best(u8 algo, u32 mask)
{
	u32 id, best = 0;

	for (id = 1; id < 32; id++)
		if (mask & T_BIT(id) &&
		    (!best || elec_algo_better(elec_algo_find(algo), id, best)))
			best = id;
	return best;
}

static u32 tq_all(void)
{
	u32 i, mask = 0;

	for (i = 0; i < ARRAY_SIZE(tq_ids); i++)
		mask |= T_BIT(tq_ids[i]);
	return mask;
}

/* ---- configuration ------------------------------------------------------ */

/* quorum: the Bully algorithms only, with a lease above a beacon period */
static void tq_config(struct kunit *test)
{
	static const u8 others[] = {
		ELEC_ALGO_RING, ELEC_ALGO_RING_ALL, ELEC_ALGO_RING_LIST,
		ELEC_ALGO_INVITATION,
	};
	struct t_node *n = kunit_kzalloc(test, sizeof(*n), GFP_KERNEL);
	struct elec_sink sink = { .emit = t_emit };
	struct elec_config cfg;
	const char *why;
	u32 i;

	KUNIT_ASSERT_NOT_NULL(test, n);
	for (i = 0; i < ARRAY_SIZE(others); i++) {
		t_cfg_algo(&cfg, others[i], 1);
		KUNIT_EXPECT_EQ(test, elec_config_check(&cfg, NULL), 0);
		cfg.quorum = true;
		why = NULL;
		KUNIT_EXPECT_EQ_MSG(test, elec_config_check(&cfg, &why),
				    -EINVAL, "algo %u", others[i]);
		KUNIT_ASSERT_NOT_NULL(test, why);
		KUNIT_EXPECT_STREQ(test, why,
				   "quorum applies to the Bully algorithms only");
		sink.ctx = n;
		KUNIT_EXPECT_EQ(test, elec_core_init(&n->c, &cfg, n->peers,
						     T_MAX_NODES - 1, &sink),
				-EINVAL);
	}
	for (i = 0; i < ARRAY_SIZE(tq_bully_algos); i++) {
		u8 algo = tq_bully_algos[i];

		/* the defaults: hb 20 ms, hb-miss 3, T 10 ms */
		t_cfg_algo(&cfg, algo, 1);
		cfg.hb_interval_ns = ELECTION_DEF_HB_INTERVAL_NS;
		cfg.hb_miss = ELECTION_DEF_HB_MISS;
		cfg.timeout_ns = ELECTION_DEF_TIMEOUT_NS;
		cfg.quorum = true;
		KUNIT_EXPECT_EQ_MSG(test, elec_config_check(&cfg, NULL), 0,
				    "algo %u", algo);

		/* hb-miss 2: no lease left; fine without quorum */
		cfg.hb_miss = 2;
		why = NULL;
		KUNIT_EXPECT_EQ(test, elec_config_check(&cfg, &why), -EINVAL);
		KUNIT_ASSERT_NOT_NULL(test, why);
		KUNIT_EXPECT_STREQ(test, why,
				   "quorum needs hb-interval x (hb-miss - 2) above 1.5 x timeout");
		cfg.quorum = false;
		KUNIT_EXPECT_EQ(test, elec_config_check(&cfg, NULL), 0);
		cfg.quorum = true;
		cfg.hb_miss = 1;
		KUNIT_EXPECT_EQ(test, elec_config_check(&cfg, NULL), -EINVAL);

		/* T too large: 2 x 20 x 1 must be above 3 x T */
		cfg.hb_miss = 3;
		cfg.timeout_ns = 14 * TQ_MS;
		why = NULL;
		KUNIT_EXPECT_EQ(test, elec_config_check(&cfg, &why), -EINVAL);
		KUNIT_ASSERT_NOT_NULL(test, why);
		KUNIT_EXPECT_STREQ(test, why,
				   "quorum needs hb-interval x (hb-miss - 2) above 1.5 x timeout");
		cfg.timeout_ns = 13 * TQ_MS;
		KUNIT_EXPECT_EQ(test, elec_config_check(&cfg, NULL), 0);
		/* the bound itself is refused: 2 x 30 x 1 = 3 x 20 */
		cfg.hb_interval_ns = 30 * TQ_MS;
		cfg.timeout_ns = 20 * TQ_MS;
		KUNIT_EXPECT_EQ(test, elec_config_check(&cfg, NULL), -EINVAL);
		cfg.timeout_ns = 20 * TQ_MS - 1;
		KUNIT_EXPECT_EQ(test, elec_config_check(&cfg, NULL), 0);
		/* more misses leave room for a longer T */
		cfg.hb_miss = 5;
		cfg.timeout_ns = 50 * TQ_MS;
		KUNIT_EXPECT_EQ(test, elec_config_check(&cfg, NULL), 0);
		cfg.timeout_ns = 60 * TQ_MS;
		KUNIT_EXPECT_EQ(test, elec_config_check(&cfg, NULL), -EINVAL);
		cfg.quorum = false;
		KUNIT_EXPECT_EQ(test, elec_config_check(&cfg, NULL), 0);
	}
}

/* quorum changes only while stopped; other changes go on meanwhile */
static void tq_config_running(struct kunit *test)
{
	struct t_node *n = t_node_alloc(test);
	struct elec_config cfg;
	const char *why;

	tq_node_init(n, ELEC_ALGO_BULLY, false, 2, tq_ids,
		     ARRAY_SIZE(tq_ids));
	t_start(n);
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_ALIVE, T_ANY), 0);
	t_clear(n);

	/* on, while running: refused, nothing changed, nothing emitted */
	cfg = n->c.cfg;
	cfg.quorum = true;
	cfg.hb_interval_ns = 2 * T_HB;
	why = NULL;
	KUNIT_EXPECT_EQ(test, elec_core_set_config(&n->c, &cfg, &why), -EBUSY);
	KUNIT_ASSERT_NOT_NULL(test, why);
	KUNIT_EXPECT_STREQ(test, why,
			   "quorum can be changed only while the group is stopped");
	KUNIT_EXPECT_FALSE(test, n->c.cfg.quorum);
	KUNIT_EXPECT_EQ(test, n->c.cfg.hb_interval_ns, T_HB);
	KUNIT_EXPECT_TRUE(test, n->c.running);
	KUNIT_EXPECT_EQ(test, n->c.phase, ELEC_BULLY_LEARNING);
	KUNIT_EXPECT_EQ(test, n->n_acts, 0);
	KUNIT_EXPECT_EQ(test, n->c.timer_expires[ELEC_BULLY_TIMER_ALIVE], 0);
	/* the same quorum and a new hb-interval: taken */
	cfg.quorum = false;
	KUNIT_EXPECT_EQ(test, elec_core_set_config(&n->c, &cfg, NULL), 0);
	KUNIT_EXPECT_EQ(test, n->c.cfg.hb_interval_ns, 2 * T_HB);

	/* stopped: taken, and the next start beacons */
	elec_core_stop(&n->c, n->now);
	cfg.quorum = true;
	cfg.hb_interval_ns = T_HB;
	KUNIT_EXPECT_EQ(test, elec_core_set_config(&n->c, &cfg, NULL), 0);
	KUNIT_EXPECT_TRUE(test, n->c.cfg.quorum);
	t_clear(n);
	t_start(n);
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_ALIVE, 0), 1);
	KUNIT_EXPECT_EQ(test, t_armed_at(n, ELEC_BULLY_TIMER_ALIVE),
			n->now + T_HB);

	/* off again, while running: refused */
	cfg.quorum = false;
	why = NULL;
	KUNIT_EXPECT_EQ(test, elec_core_set_config(&n->c, &cfg, &why), -EBUSY);
	KUNIT_EXPECT_NOT_NULL(test, why);
	KUNIT_EXPECT_TRUE(test, n->c.cfg.quorum);
	/* an invalid quorum configuration: -EINVAL before -EBUSY */
	cfg.quorum = true;
	cfg.hb_miss = 2;
	KUNIT_EXPECT_EQ(test, elec_core_set_config(&n->c, &cfg, NULL), -EINVAL);
	KUNIT_EXPECT_EQ(test, n->c.cfg.hb_miss, T_MISS);
}

/* ---- the ALIVE payload -------------------------------------------------- */

/* encode ALIVE with @len bytes of @pl for @algo and decode it again */
static enum elec_decode_result tq_decode(u8 algo, const u8 *pl, u16 len)
{
	u8 buf[ELECTION_HDR_LEN + 2 * ELECTION_ALIVE_LEN];
	struct elec_msg m;
	size_t n;

	memset(&m, 0, sizeof(m));
	m.type = ELEC_MSG_ALIVE;
	m.algo = algo;
	m.group = T_GROUP;
	m.src = 3;
	m.term = 4;
	m.payload = len ? pl : NULL;
	m.payload_len = len;
	n = elec_codec_encode(&m, buf, sizeof(buf));
	if (n != ELECTION_HDR_LEN + (size_t)len)
		return ELEC_DECODE_COUNT;
	return elec_codec_decode(buf, n, &m);
}

/* 12 bytes; the id and its term both zero or both not */
static void tq_payload(struct kunit *test)
{
	u8 pl[2 * ELECTION_ALIVE_LEN];
	struct elec_config cfg;
	u32 i;

	for (i = 0; i < ARRAY_SIZE(tq_bully_algos); i++) {
		u8 algo = tq_bully_algos[i];
		const struct elec_algo_ops *o = elec_algo_find(algo);

		KUNIT_ASSERT_NOT_NULL(test, o);
		memset(pl, 0, sizeof(pl));
		elec_put32(pl, 5);
		elec_put64(pl + 4, 3);
		KUNIT_EXPECT_EQ_MSG(test, tq_decode(algo, pl, 12),
				    ELEC_DECODE_OK, "algo %u", algo);
		KUNIT_EXPECT_TRUE(test, o->payload_ok(ELEC_MSG_ALIVE, pl, 12));
		/* a term above 32 bits */
		elec_put64(pl + 4, 0x100000000ULL);
		KUNIT_EXPECT_EQ(test, tq_decode(algo, pl, 12), ELEC_DECODE_OK);
		/* the wrong length */
		KUNIT_EXPECT_EQ(test, tq_decode(algo, pl, 0),
				ELEC_DECODE_PAYLOAD);
		KUNIT_EXPECT_EQ(test, tq_decode(algo, pl, 8),
				ELEC_DECODE_PAYLOAD);
		KUNIT_EXPECT_EQ(test, tq_decode(algo, pl, 11),
				ELEC_DECODE_PAYLOAD);
		KUNIT_EXPECT_EQ(test, tq_decode(algo, pl, 13),
				ELEC_DECODE_PAYLOAD);
		KUNIT_EXPECT_EQ(test, tq_decode(algo, pl, 16),
				ELEC_DECODE_PAYLOAD);
		KUNIT_EXPECT_FALSE(test, o->payload_ok(ELEC_MSG_ALIVE, pl, 13));
		/* nobody: id 0, term 0 */
		memset(pl, 0, sizeof(pl));
		KUNIT_EXPECT_EQ(test, tq_decode(algo, pl, 12), ELEC_DECODE_OK);
		/* id 0 with a term, an id without one */
		elec_put64(pl + 4, 3);
		KUNIT_EXPECT_EQ(test, tq_decode(algo, pl, 12),
				ELEC_DECODE_PAYLOAD);
		pl[11] = 0;
		pl[4] = 1;	/* a term only in the high half */
		KUNIT_EXPECT_EQ(test, tq_decode(algo, pl, 12),
				ELEC_DECODE_PAYLOAD);
		memset(pl, 0, sizeof(pl));
		elec_put32(pl, 5);
		KUNIT_EXPECT_EQ(test, tq_decode(algo, pl, 12),
				ELEC_DECODE_PAYLOAD);
		KUNIT_EXPECT_FALSE(test, o->payload_ok(ELEC_MSG_ALIVE, pl, 12));
		pl[0] = 0;
		pl[3] = 0;
		pl[2] = 1;	/* id 256 */
		KUNIT_EXPECT_EQ(test, tq_decode(algo, pl, 12),
				ELEC_DECODE_PAYLOAD);
		/* the largest frame holds an ALIVE with quorum on */
		memset(&cfg, 0, sizeof(cfg));
		cfg.algo = algo;
		cfg.quorum = true;
		KUNIT_EXPECT_GE(test, elec_config_max_frame(&cfg, 5),
				ELECTION_HDR_LEN + ELECTION_ALIVE_LEN);
	}
}

/* quorum off: an ALIVE is counted and ignored; no beacon timer, no claim */
static void tq_quorum_off(struct kunit *test)
{
	struct t_node *n = t_node_alloc(test);

	tq_node_init(n, ELEC_ALGO_BULLY, false, 5, tq_ids,
		     ARRAY_SIZE(tq_ids));
	t_start(n);
	t_clear(n);
	tq_rx_alive(n, 1, 0, 0, 0);
	tq_rx_alive(n, 2, 0, 0, 0);
	t_fire(n, ELEC_TIMER_DETECT);
	KUNIT_EXPECT_EQ(test, n->c.stats.rx[ELEC_MSG_ALIVE], 2);
	/* a leader at once: no claim */
	KUNIT_EXPECT_EQ(test, n->c.role, ELEC_ROLE_LEADER);
	KUNIT_EXPECT_EQ(test, n->c.timer_expires[ELEC_BULLY_TIMER_LEASE], 0);
	KUNIT_EXPECT_EQ(test, n->c.timer_expires[ELEC_BULLY_TIMER_ALIVE], 0);
	t_clear(n);
	tq_rx_alive(n, 1, 1, 4, 1);
	tq_rx_alive(n, 2, 1, 0, 0);
	KUNIT_EXPECT_EQ(test, n->n_acts, 0);
	KUNIT_EXPECT_EQ(test, n->c.role, ELEC_ROLE_LEADER);
	KUNIT_EXPECT_EQ(test, n->c.peers[0].support_ns, 0);
}

/* ---- one node: the claim, the lease, the promise ------------------------ */

/*
 * @n (node 5, started), heard 1 and 2 lately and term @term, claims when
 * its learning window ends: phase leading, leader itself, role candidate.
 */
static void tq_claim(struct t_node *n, u64 term)
{
	struct kunit *test = n->test;

	t_start(n);
	n->now += T_DETECT - T_HB;
	tq_rx_alive(n, 1, term, 0, 0);
	tq_rx_alive(n, 2, term, 0, 0);
	t_clear(n);
	t_fire(n, ELEC_TIMER_DETECT);
	KUNIT_ASSERT_EQ(test, n->c.phase, ELEC_BULLY_LEADING);
	KUNIT_ASSERT_EQ(test, n->c.leader, 5);
	KUNIT_ASSERT_EQ(test, n->c.term, term + 1);
}

/* a claimant is a candidate until a majority named it at its term */
static void tq_claimant(struct kunit *test)
{
	struct t_node *n = tq_node(test, 5);
	u64 claim;

	tq_claim(n, 3);
	claim = n->now;
	KUNIT_EXPECT_EQ(test, n->c.role, ELEC_ROLE_CANDIDATE);
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_COORDINATOR, T_ANY), 4);
	KUNIT_EXPECT_EQ(test, n->c.bully.q.claim_term, 4);
	KUNIT_EXPECT_FALSE(test, n->c.bully.q.confirmed);
	KUNIT_EXPECT_EQ(test, t_armed_at(n, ELEC_BULLY_TIMER_LEASE),
			claim + TQ_LEASE);
	KUNIT_EXPECT_LE(test, elec_quorum_until(&n->c, n->now), n->now);
	/* a leader sends no ALIVE, its timer kept */
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_ALIVE, T_ANY), 0);

	/* namings that do not count: nobody, another, an older term */
	t_clear(n);
	tq_rx_alive(n, 1, 4, 0, 0);
	tq_rx_alive(n, 2, 4, 3, 1);
	tq_rx_alive(n, 3, 4, 5, 3);
	KUNIT_EXPECT_EQ(test, n->c.role, ELEC_ROLE_CANDIDATE);
	KUNIT_EXPECT_EQ(test, tq_support(n), 0);
	/* one of the two needed */
	tq_rx_alive(n, 1, 4, 5, 4);
	KUNIT_EXPECT_EQ(test, n->c.role, ELEC_ROLE_CANDIDATE);
	KUNIT_EXPECT_EQ(test, tq_support(n), 1);
	KUNIT_EXPECT_EQ(test, t_events(n, ELEC_EVENT_LEADER_CHANGED, T_ANY), 0);
	/* the second: a leader, reported */
	n->now += T_T / 2;
	tq_rx_alive(n, 3, 4, 5, 4);
	KUNIT_EXPECT_EQ(test, n->c.role, ELEC_ROLE_LEADER);
	KUNIT_EXPECT_TRUE(test, n->c.bully.q.confirmed);
	KUNIT_EXPECT_EQ(test, t_events(n, ELEC_EVENT_LEADER_CHANGED, T_ANY), 1);
	KUNIT_EXPECT_EQ(test, n->c.leader, 5);
	KUNIT_EXPECT_EQ(test, n->c.stats.quorum_lost, 0);
	/* held while the second latest naming is a lease old */
	KUNIT_EXPECT_EQ(test, elec_quorum_until(&n->c, n->now),
			claim + TQ_LEASE);
	KUNIT_EXPECT_EQ(test, t_sends(n, 0, T_ANY), 0);
	/* a newer term also counts */
	tq_rx_alive(n, 2, 6, 5, 6);
	KUNIT_EXPECT_EQ(test, tq_support(n), 3);
}

/* the lease: renewed by namings, and the leader steps down without them */
static void tq_lease(struct kunit *test)
{
	struct t_node *n = tq_node(test, 5);
	u64 claim, renew;

	tq_claim(n, 1);
	claim = n->now;
	tq_rx_alive(n, 1, 2, 5, 2);
	tq_rx_alive(n, 2, 2, 5, 2);
	KUNIT_ASSERT_EQ(test, n->c.role, ELEC_ROLE_LEADER);

	/* one beacon period later two name it again: renewed */
	n->now = claim + T_HB;
	tq_rx_alive(n, 1, 2, 5, 2);
	tq_rx_alive(n, 3, 2, 5, 2);
	renew = n->now;
	t_clear(n);
	t_fire(n, ELEC_BULLY_TIMER_LEASE);
	KUNIT_EXPECT_EQ(test, n->now, claim + TQ_LEASE);
	KUNIT_EXPECT_EQ(test, n->c.role, ELEC_ROLE_LEADER);
	KUNIT_EXPECT_EQ(test, t_armed_at(n, ELEC_BULLY_TIMER_LEASE),
			renew + TQ_LEASE);
	KUNIT_EXPECT_EQ(test, t_sends(n, 0, T_ANY), 0);

	/* only one names it since: out at the lease's end */
	n->now = renew + T_HB;
	tq_rx_alive(n, 1, 2, 5, 2);
	tq_rx_alive(n, 2, 2, 0, 0);
	tq_rx_alive(n, 3, 2, 0, 0);
	KUNIT_EXPECT_EQ(test, n->c.role, ELEC_ROLE_LEADER);
	t_clear(n);
	t_fire(n, ELEC_BULLY_TIMER_LEASE);
	KUNIT_EXPECT_EQ(test, n->now, renew + TQ_LEASE);
	/* the role goes at once; the claim waits T for renewals in flight */
	KUNIT_EXPECT_EQ(test, n->c.role, ELEC_ROLE_CANDIDATE);
	KUNIT_EXPECT_EQ(test, n->c.phase, ELEC_BULLY_LEADING);
	KUNIT_EXPECT_EQ(test, n->c.leader, 5);
	KUNIT_EXPECT_EQ(test, n->c.stats.quorum_lost, 0);
	KUNIT_EXPECT_EQ(test, t_events(n, ELEC_EVENT_LEADER_CHANGED, T_ANY), 1);
	KUNIT_EXPECT_EQ(test, t_sends(n, 0, T_ANY), 0);
	KUNIT_EXPECT_EQ(test, t_armed_at(n, ELEC_BULLY_TIMER_LEASE),
			n->now + T_T);
	/* none comes: it steps down */
	t_clear(n);
	t_fire(n, ELEC_BULLY_TIMER_LEASE);
	KUNIT_EXPECT_EQ(test, n->now, renew + TQ_LEASE + T_T);
	KUNIT_EXPECT_EQ(test, n->c.role, ELEC_ROLE_FOLLOWER);
	KUNIT_EXPECT_EQ(test, n->c.phase, ELEC_BULLY_FOLLOWING);
	KUNIT_EXPECT_EQ(test, n->c.leader, 0);
	KUNIT_EXPECT_EQ(test, n->c.stats.quorum_lost, 1);
	KUNIT_EXPECT_EQ(test, t_events(n, ELEC_EVENT_LEADER_CHANGED, T_ANY), 1);
	/* it says so at once (a release), and waits a detection window */
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_ALIVE, 0), 1);
	KUNIT_EXPECT_EQ(test, tq_named(tq_alive(n)), 0);
	KUNIT_EXPECT_EQ(test, tq_named_term(tq_alive(n)), 0);
	KUNIT_EXPECT_EQ(test, tq_alive(n)->msg.term, 2);
	KUNIT_EXPECT_EQ(test, t_armed_at(n, ELEC_TIMER_DETECT),
			n->now + T_DETECT);
	KUNIT_EXPECT_EQ(test, n->c.timer_expires[ELEC_TIMER_HEARTBEAT], 0);
	KUNIT_EXPECT_EQ(test, n->c.timer_expires[ELEC_BULLY_TIMER_LEASE], 0);
	KUNIT_EXPECT_NE(test, n->c.timer_expires[ELEC_BULLY_TIMER_ALIVE], 0);
	/* its beacons go on */
	t_clear(n);
	t_fire(n, ELEC_BULLY_TIMER_ALIVE);
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_ALIVE, 0), 1);
}

/*
 * The lease lapses with renewals in flight (a frame takes up to T / 2): the
 * leader gives up the role, not the claim; the renewals that arrive within
 * T confirm it again at its term, with nothing sent and nobody released.
 * A naming at an older term than the claim's does not count.
 */
static void tq_lapse_renewed(struct kunit *test)
{
	struct t_node *n = tq_node(test, 5);
	u64 claim, lapse;

	tq_claim(n, 1);
	claim = n->now;
	tq_rx_alive(n, 1, 2, 5, 2);
	tq_rx_alive(n, 2, 2, 5, 2);
	KUNIT_ASSERT_EQ(test, n->c.role, ELEC_ROLE_LEADER);
	t_clear(n);
	t_fire(n, ELEC_BULLY_TIMER_LEASE);
	lapse = n->now;
	KUNIT_EXPECT_EQ(test, lapse, claim + TQ_LEASE);
	KUNIT_ASSERT_EQ(test, n->c.role, ELEC_ROLE_CANDIDATE);
	KUNIT_EXPECT_LE(test, elec_quorum_until(&n->c, n->now), n->now);

	/* the renewals arrive just after, one of them at an older term */
	n->now = lapse + T_T / 4;
	t_clear(n);
	tq_rx_alive(n, 1, 2, 5, 2);
	tq_rx_alive(n, 3, 1, 5, 1);
	KUNIT_EXPECT_EQ(test, n->c.role, ELEC_ROLE_CANDIDATE);
	tq_rx_alive(n, 2, 2, 5, 2);
	KUNIT_EXPECT_EQ(test, n->c.role, ELEC_ROLE_LEADER);
	KUNIT_EXPECT_EQ(test, n->c.phase, ELEC_BULLY_LEADING);
	KUNIT_EXPECT_EQ(test, n->c.leader, 5);
	KUNIT_EXPECT_EQ(test, n->c.term, 2);
	KUNIT_EXPECT_EQ(test, n->c.bully.q.confirmed, true);
	KUNIT_EXPECT_EQ(test, n->c.bully.q.lapse_ns, 0);
	KUNIT_EXPECT_EQ(test, n->c.stats.quorum_lost, 0);
	KUNIT_EXPECT_EQ(test, t_events(n, ELEC_EVENT_LEADER_CHANGED, T_ANY), 1);
	KUNIT_EXPECT_EQ(test, t_sends(n, 0, T_ANY), 0);
	KUNIT_EXPECT_EQ(test, t_armed_at(n, ELEC_BULLY_TIMER_LEASE),
			n->now + TQ_LEASE);
	KUNIT_EXPECT_NE(test, n->c.timer_expires[ELEC_TIMER_HEARTBEAT], 0);

	/* a later lapse waits T again from its own start */
	t_clear(n);
	t_fire(n, ELEC_BULLY_TIMER_LEASE);
	KUNIT_EXPECT_EQ(test, n->c.role, ELEC_ROLE_CANDIDATE);
	KUNIT_EXPECT_EQ(test, t_armed_at(n, ELEC_BULLY_TIMER_LEASE),
			n->now + T_T);
}

/* a claimant that no majority names within a lease steps down */
static void tq_claim_expires(struct kunit *test)
{
	struct t_node *n = tq_node(test, 5);
	u64 claim;

	tq_claim(n, 1);
	claim = n->now;
	tq_rx_alive(n, 1, 2, 5, 2);
	n->now += T_HB;
	tq_rx_alive(n, 1, 2, 5, 2);
	KUNIT_EXPECT_EQ(test, n->c.role, ELEC_ROLE_CANDIDATE);
	t_clear(n);
	t_fire(n, ELEC_BULLY_TIMER_LEASE);
	KUNIT_EXPECT_EQ(test, n->now, claim + TQ_LEASE);
	KUNIT_EXPECT_EQ(test, n->c.role, ELEC_ROLE_FOLLOWER);
	KUNIT_EXPECT_EQ(test, n->c.leader, 0);
	KUNIT_EXPECT_EQ(test, n->c.stats.quorum_lost, 1);
	KUNIT_EXPECT_EQ(test, tq_named(tq_alive(n)), 0);
	/* a naming after the claim's window is no majority either */
	tq_rx_alive(n, 2, 2, 5, 2);
	KUNIT_EXPECT_EQ(test, n->c.role, ELEC_ROLE_FOLLOWER);
}

/* a node without a majority heard within the lease begins no run */
static void tq_no_majority_no_run(struct kunit *test)
{
	struct t_node *n = tq_node(test, 5);
	u32 i;

	t_start(n);
	n->now += T_DETECT - TQ_LEASE;	/* exactly a lease before DETECT */
	tq_rx_alive(n, 1, 1, 0, 0);
	tq_rx_alive(n, 2, 1, 0, 0);
	n->now += T_HB;
	tq_rx_alive(n, 3, 1, 0, 0);
	t_clear(n);
	t_fire(n, ELEC_TIMER_DETECT);
	KUNIT_EXPECT_EQ(test, n->c.stats.elections, 0);
	KUNIT_EXPECT_EQ(test, n->c.role, ELEC_ROLE_FOLLOWER);
	KUNIT_EXPECT_EQ(test, n->c.leader, 0);
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_COORDINATOR, T_ANY), 0);
	KUNIT_EXPECT_EQ(test, t_events(n, ELEC_EVENT_ELECTION_STARTED, T_ANY),
			0);
	KUNIT_EXPECT_EQ(test, t_armed_at(n, ELEC_TIMER_DETECT),
			n->now + T_DETECT);
	/* windows pass: still none */
	for (i = 0; i < 3; i++)
		t_fire(n, ELEC_TIMER_DETECT);
	KUNIT_EXPECT_EQ(test, n->c.stats.elections, 0);
	/* a majority heard again: the next window ends in a claim */
	n->now = n->c.timer_expires[ELEC_TIMER_DETECT] - TQ_LEASE + 1;
	tq_rx_alive(n, 1, 1, 0, 0);
	tq_rx_alive(n, 4, 1, 0, 0);
	t_fire(n, ELEC_TIMER_DETECT);
	KUNIT_EXPECT_EQ(test, n->c.stats.elections, 1);
	KUNIT_EXPECT_EQ(test, n->c.phase, ELEC_BULLY_LEADING);
	KUNIT_EXPECT_EQ(test, n->c.role, ELEC_ROLE_CANDIDATE);
}

/*
 * node 2 following 4 at term 1, having named it in an ALIVE at once; as if
 * it had started a promise window ago (until then it names nobody:
 * tq_restart_keeps_promise)
 */
static struct t_node *tq_follower_of4(struct kunit *test)
{
	struct t_node *n = tq_node(test, 2);

	t_start(n);
	n->c.bully.q.start_bound = 0;
	n->now += TQ_MS;
	t_clear(n);
	tq_rx(n, ELEC_MSG_COORDINATOR, 4, 2, 1);
	KUNIT_ASSERT_EQ(test, n->c.leader, 4);
	KUNIT_ASSERT_EQ(test, t_sends(n, ELEC_MSG_ALIVE, 0), 1);
	KUNIT_ASSERT_EQ(test, tq_named(tq_alive(n)), 4);
	KUNIT_ASSERT_EQ(test, tq_named_term(tq_alive(n)), 1);
	KUNIT_ASSERT_EQ(test, n->c.bully.q.named_ns, n->now);
	return n;
}

/* a follower names no other leader while its promise binds it */
static void tq_promise(struct kunit *test)
{
	struct t_node *n = tq_follower_of4(test);
	u64 named = n->now;

	/* 5 claims at term 2: followed, not named */
	n->now += 5 * TQ_MS;
	t_clear(n);
	tq_rx(n, ELEC_MSG_COORDINATOR, 5, 2, 2);
	KUNIT_EXPECT_EQ(test, n->c.leader, 5);
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_ALIVE, 0), 1);
	KUNIT_EXPECT_EQ(test, tq_named(tq_alive(n)), 0);
	KUNIT_EXPECT_EQ(test, tq_named_term(tq_alive(n)), 0);
	KUNIT_EXPECT_EQ(test, tq_alive(n)->msg.term, 2);

	/* its next beacon: still nobody; then one when the promise ends */
	t_clear(n);
	t_fire(n, ELEC_BULLY_TIMER_ALIVE);
	KUNIT_EXPECT_LT(test, n->now, named + TQ_PROMISE);
	KUNIT_EXPECT_EQ(test, tq_named(tq_alive(n)), 0);
	KUNIT_EXPECT_EQ(test, t_armed_at(n, ELEC_BULLY_TIMER_ALIVE),
			named + TQ_PROMISE);
	/* 5's heartbeat keeps it fresh */
	n->now = named + TQ_PROMISE - T_T;
	tq_rx(n, ELEC_MSG_HEARTBEAT, 5, 0, 2);
	t_clear(n);
	t_fire(n, ELEC_BULLY_TIMER_ALIVE);
	KUNIT_EXPECT_EQ(test, n->now, named + TQ_PROMISE);
	KUNIT_EXPECT_EQ(test, tq_named(tq_alive(n)), 5);
	KUNIT_EXPECT_EQ(test, tq_named_term(tq_alive(n)), 2);
	KUNIT_EXPECT_EQ(test, n->c.bully.q.named, 5);
}

/* the leader named releases the promise; nobody else does */
static void tq_promise_release(struct kunit *test)
{
	struct t_node *n = tq_follower_of4(test);

	n->now += 5 * TQ_MS;
	tq_rx(n, ELEC_MSG_COORDINATOR, 5, 2, 2);
	t_clear(n);
	/* 4 naming nobody at a term below the one named: no release */
	tq_rx_alive(n, 4, 0, 0, 0);
	/* a third node naming 5: no release either */
	tq_rx_alive(n, 3, 2, 5, 2);
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_ALIVE, T_ANY), 0);
	KUNIT_EXPECT_EQ(test, n->c.bully.q.named, 4);
	/* 4 naming itself: still its leader */
	tq_rx_alive(n, 4, 2, 4, 1);
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_ALIVE, T_ANY), 0);
	/* 4 naming 5 at term 2: released, 5 named at once */
	tq_rx_alive(n, 4, 2, 5, 2);
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_ALIVE, 0), 1);
	KUNIT_EXPECT_EQ(test, tq_named(tq_alive(n)), 5);
	KUNIT_EXPECT_EQ(test, tq_named_term(tq_alive(n)), 2);

	/* a step-down (4 naming nobody at its term) releases too */
	n = tq_follower_of4(test);
	n->now += 5 * TQ_MS;
	tq_rx(n, ELEC_MSG_COORDINATOR, 5, 2, 2);
	t_clear(n);
	tq_rx_alive(n, 4, 1, 0, 0);
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_ALIVE, 0), 1);
	KUNIT_EXPECT_EQ(test, tq_named(tq_alive(n)), 5);
}

/*
 * A resignation (the leader's LEAVING heartbeat) releases the promise
 * too, whichever comes first, the successor's COORDINATOR or the
 * resignation; a LEAVING heartbeat of another node does not.
 */
static void tq_promise_resign(struct kunit *test)
{
	struct t_node *n = tq_follower_of4(test);
	struct elec_msg m;

	n->now += 5 * TQ_MS;
	tq_rx(n, ELEC_MSG_COORDINATOR, 5, 2, 2);
	t_clear(n);
	tq_msg(&m, n, ELEC_MSG_HEARTBEAT, 3, 0, 1);
	m.flags = ELECTION_FLAG_LEAVING;
	elec_core_rx(&n->c, &m, n->now);
	KUNIT_EXPECT_EQ(test, n->c.bully.q.named, 4);
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_ALIVE, T_ANY), 0);
	tq_msg(&m, n, ELEC_MSG_HEARTBEAT, 4, 0, 1);
	m.flags = ELECTION_FLAG_LEAVING;
	elec_core_rx(&n->c, &m, n->now);
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_ALIVE, 0), 1);
	KUNIT_EXPECT_EQ(test, tq_named(tq_alive(n)), 5);

	/* the resignation first, then the successor: named at once */
	n = tq_follower_of4(test);
	n->now += 5 * TQ_MS;
	tq_msg(&m, n, ELEC_MSG_HEARTBEAT, 4, 0, 1);
	m.flags = ELECTION_FLAG_LEAVING;
	elec_core_rx(&n->c, &m, n->now);
	KUNIT_EXPECT_EQ(test, n->c.bully.q.named, 0);
	t_clear(n);
	tq_rx(n, ELEC_MSG_COORDINATOR, 5, 2, 2);
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_ALIVE, 0), 1);
	KUNIT_EXPECT_EQ(test, tq_named(tq_alive(n)), 5);
}

/* a follower names only a leader it heard within hb-interval + T / 2 */
static void tq_fresh(struct kunit *test)
{
	struct t_node *n = tq_follower_of4(test);
	u64 heard = n->now;

	/* at the first beacon 4 is fresh; the DETECT window still runs */
	t_clear(n);
	t_fire(n, ELEC_BULLY_TIMER_ALIVE);
	KUNIT_ASSERT_LE(test, n->now, heard + TQ_FRESH);
	KUNIT_EXPECT_EQ(test, tq_named(tq_alive(n)), 4);
	/* at the next, 4 has been silent too long: nobody */
	t_clear(n);
	t_fire(n, ELEC_BULLY_TIMER_ALIVE);
	KUNIT_ASSERT_GT(test, n->now, heard + TQ_FRESH);
	KUNIT_ASSERT_EQ(test, n->c.leader, 4);
	KUNIT_EXPECT_EQ(test, tq_named(tq_alive(n)), 0);
	/* any frame of 4 makes it fresh again */
	tq_rx_alive(n, 4, 1, 0, 0);
	t_clear(n);
	t_fire(n, ELEC_BULLY_TIMER_ALIVE);
	KUNIT_EXPECT_EQ(test, tq_named(tq_alive(n)), 4);
}

/*
 * A heartbeat that comes after a beacon that found the leader silent too
 * long (a late heartbeat: a loaded or stalled host) gets an ALIVE naming
 * the leader at once, rather than at the next beacon; one per such gap,
 * and none while the beacons name it anyway. For each Bully algorithm:
 * node 3 follows the best id, 5 (bully, enh-bully) or 1 (min-bully).
 */
static void tq_fresh_again(struct kunit *test)
{
	u32 i;

	for (i = 0; i < ARRAY_SIZE(tq_bully_algos); i++) {
		u8 algo = tq_bully_algos[i];
		u32 lead = algo == ELEC_ALGO_MIN_BULLY ? 1 : 5;
		struct t_node *n = t_node_alloc(test);
		u64 heard;

		tq_node_init(n, algo, true, 3, tq_ids, ARRAY_SIZE(tq_ids));
		t_start(n);
		n->c.bully.q.start_bound = 0;
		n->now += TQ_MS;
		tq_rx(n, ELEC_MSG_HEARTBEAT, lead, 0, 1);
		KUNIT_ASSERT_EQ(test, n->c.leader, lead);
		KUNIT_ASSERT_EQ(test, n->c.phase, ELEC_BULLY_FOLLOWING);
		heard = n->now;

		/* heartbeats on time: the beacons name it, nothing extra */
		t_clear(n);
		t_fire(n, ELEC_BULLY_TIMER_ALIVE);
		KUNIT_ASSERT_LE(test, n->now, heard + TQ_FRESH);
		KUNIT_EXPECT_EQ(test, tq_named(tq_alive(n)), lead);
		t_clear(n);
		tq_rx(n, ELEC_MSG_HEARTBEAT, lead, 0, 1);
		KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_ALIVE, T_ANY), 0);
		heard = n->now;

		/* a beacon past the freshness window: nobody */
		t_fire(n, ELEC_BULLY_TIMER_ALIVE);
		if (n->now <= heard + TQ_FRESH)
			t_fire(n, ELEC_BULLY_TIMER_ALIVE);
		KUNIT_ASSERT_GT(test, n->now, heard + TQ_FRESH);
		KUNIT_ASSERT_EQ(test, n->c.leader, lead);
		KUNIT_EXPECT_EQ(test, tq_named(tq_alive(n)), 0);
		KUNIT_EXPECT_TRUE(test, n->c.bully.q.stale);

		/* the late heartbeat: one ALIVE naming it, at once */
		t_clear(n);
		tq_rx(n, ELEC_MSG_HEARTBEAT, lead, 0, 1);
		KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_ALIVE, 0), 1);
		KUNIT_EXPECT_EQ(test, tq_named(tq_alive(n)), lead);
		KUNIT_EXPECT_EQ(test, tq_named_term(tq_alive(n)), 1);
		KUNIT_EXPECT_EQ(test, n->c.bully.q.named_ns, n->now);
		KUNIT_EXPECT_FALSE(test, n->c.bully.q.stale);
		/* the next heartbeat: nothing extra */
		t_clear(n);
		tq_rx(n, ELEC_MSG_HEARTBEAT, lead, 0, 1);
		KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_ALIVE, T_ANY), 0);

		/* quorum off: no ALIVE at all */
		n = t_node_alloc(test);
		tq_node_init(n, algo, false, 3, tq_ids, ARRAY_SIZE(tq_ids));
		t_start(n);
		n->now += TQ_MS;
		tq_rx(n, ELEC_MSG_HEARTBEAT, lead, 0, 1);
		n->now += 10 * T_HB;
		t_clear(n);
		tq_rx(n, ELEC_MSG_HEARTBEAT, lead, 0, 1);
		KUNIT_EXPECT_EQ(test, n->c.leader, lead);
		KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_ALIVE, T_ANY), 0);
	}
}

/* a claimant still bound by its own promise needs one naming more */
static void tq_claim_bound(struct kunit *test)
{
	struct t_node *n = tq_node(test, 5);
	u64 named;

	t_start(n);
	n->c.bully.q.start_bound = 0;	/* as if started long ago */
	n->now += TQ_MS;
	tq_rx_alive(n, 1, 1, 0, 0);
	tq_rx_alive(n, 2, 1, 0, 0);
	tq_rx(n, ELEC_MSG_HEARTBEAT, 4, 0, 1);
	/* 5 followed 4, named it, and took over at once (preempt) */
	KUNIT_ASSERT_EQ(test, n->c.bully.q.named, 4);
	KUNIT_ASSERT_EQ(test, n->c.phase, ELEC_BULLY_LEADING);
	KUNIT_EXPECT_EQ(test, n->c.role, ELEC_ROLE_CANDIDATE);
	tq_rx_alive(n, 1, 2, 5, 2);
	tq_rx_alive(n, 2, 2, 5, 2);
	KUNIT_EXPECT_EQ(test, n->c.role, ELEC_ROLE_CANDIDATE);
	tq_rx_alive(n, 3, 2, 5, 2);
	KUNIT_EXPECT_EQ(test, n->c.role, ELEC_ROLE_LEADER);

	/*
	 * Or its promise ends within the claim's lease: two namings are
	 * enough from then on. With preempt off 5 follows 4, naming it,
	 * and claims when told to elect, T later.
	 */
	n = tq_node(test, 5);
	n->c.cfg.preempt_off = true;
	t_start(n);
	n->c.bully.q.start_bound = 0;	/* as if started long ago */
	n->now += TQ_MS;
	tq_rx_alive(n, 1, 1, 0, 0);
	tq_rx_alive(n, 2, 1, 0, 0);
	tq_rx(n, ELEC_MSG_HEARTBEAT, 4, 0, 1);
	KUNIT_ASSERT_EQ(test, n->c.bully.q.named, 4);
	KUNIT_ASSERT_EQ(test, n->c.phase, ELEC_BULLY_FOLLOWING);
	named = n->now;
	n->now += T_T;
	elec_core_elect(&n->c, n->now);
	KUNIT_ASSERT_EQ(test, n->c.phase, ELEC_BULLY_LEADING);
	tq_rx_alive(n, 1, 2, 5, 2);
	tq_rx_alive(n, 2, 2, 5, 2);
	KUNIT_EXPECT_EQ(test, n->c.role, ELEC_ROLE_CANDIDATE);
	KUNIT_EXPECT_EQ(test, t_armed_at(n, ELEC_BULLY_TIMER_LEASE),
			named + TQ_PROMISE);
	t_fire(n, ELEC_BULLY_TIMER_LEASE);
	KUNIT_EXPECT_EQ(test, n->c.role, ELEC_ROLE_LEADER);
	KUNIT_EXPECT_EQ(test, n->c.stats.quorum_lost, 0);
}

/*
 * A claimant whose own promise outlasts the claim's lease (it named the
 * leader it preempts at the moment it claimed) waits for the promise's
 * end, then counts itself: a bare majority (two namings and itself) is
 * enough, with no step-down at the lease's end.
 */
static void tq_claim_bound_past_lease(struct kunit *test)
{
	struct t_node *n = tq_node(test, 5);
	u64 named;

	t_start(n);
	n->c.bully.q.start_bound = 0;	/* as if started long ago */
	n->now += TQ_MS;
	tq_rx_alive(n, 1, 1, 0, 0);
	tq_rx_alive(n, 2, 1, 0, 0);
	tq_rx(n, ELEC_MSG_HEARTBEAT, 4, 0, 1);
	KUNIT_ASSERT_EQ(test, n->c.bully.q.named, 4);
	KUNIT_ASSERT_EQ(test, n->c.phase, ELEC_BULLY_LEADING);
	named = n->c.bully.q.named_ns;
	tq_rx_alive(n, 1, 2, 5, 2);
	tq_rx_alive(n, 2, 2, 5, 2);
	KUNIT_EXPECT_EQ(test, n->c.role, ELEC_ROLE_CANDIDATE);
	/* the claim's lease ends first: still a claimant, LEASE at the promise */
	KUNIT_EXPECT_EQ(test, t_armed_at(n, ELEC_BULLY_TIMER_LEASE),
			named + TQ_PROMISE);
	/* the two name it again at their next beacon */
	n->now = named + T_HB;
	tq_rx_alive(n, 1, 2, 5, 2);
	tq_rx_alive(n, 2, 2, 5, 2);
	KUNIT_EXPECT_EQ(test, n->c.role, ELEC_ROLE_CANDIDATE);
	t_fire(n, ELEC_BULLY_TIMER_LEASE);
	KUNIT_EXPECT_EQ(test, n->c.role, ELEC_ROLE_LEADER);
	KUNIT_EXPECT_EQ(test, n->c.stats.quorum_lost, 0);
}

/*
 * A confirmed bully leader asked by a lower id that has seen a newer term
 * re-announces at a term above it: it stays leader (no role change, no
 * event), its namings still count, and no new claim begins.
 */
static void tq_reannounce_keeps_role(struct kunit *test)
{
	struct t_node *n = tq_node(test, 5);
	u64 claim;

	tq_claim(n, 3);
	claim = n->now;
	tq_rx_alive(n, 1, 4, 5, 4);
	tq_rx_alive(n, 3, 4, 5, 4);
	KUNIT_ASSERT_EQ(test, n->c.role, ELEC_ROLE_LEADER);
	n->now += TQ_MS;
	t_clear(n);
	tq_rx(n, ELEC_MSG_ELECTION, 1, 5, 6);
	KUNIT_EXPECT_EQ(test, n->c.term, 7);
	KUNIT_EXPECT_EQ(test, n->c.role, ELEC_ROLE_LEADER);
	KUNIT_EXPECT_TRUE(test, n->c.bully.q.confirmed);
	KUNIT_EXPECT_EQ(test, n->c.bully.q.claim_term, 4);
	KUNIT_EXPECT_EQ(test, tq_support(n), 2);
	KUNIT_EXPECT_EQ(test, elec_quorum_until(&n->c, n->now),
			claim + TQ_LEASE);
	KUNIT_EXPECT_EQ(test, t_events(n, ELEC_EVENT_LEADER_CHANGED, T_ANY), 0);
	KUNIT_EXPECT_EQ(test, t_events(n, ELEC_EVENT_ELECTION_STARTED, T_ANY),
			0);
	KUNIT_EXPECT_EQ(test, n->c.stats.quorum_lost, 0);
}

/* ---- the network -------------------------------------------------------- */

/**
 * struct tq_net - the in-test network of this suite.
 * @net: the network
 * @algo: every node's algorithm
 * @quorum: every node's quorum option
 */
struct tq_net {
	struct t_net net;
	u8 algo;
	bool quorum;
};

static void tq_net_node_init(struct t_net *net, struct t_node *n, u32 id)
{
	struct tq_net *q = container_of(net, struct tq_net, net);

	tq_node_init(n, q->algo, q->quorum, id, net->ids, net->n);
}

/* the five nodes of tq_ids running @algo, none started */
static struct t_net *tq_net_new(struct kunit *test, u8 algo, bool quorum)
{
	struct tq_net *q = kunit_kzalloc(test, sizeof(*q), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, q);
	q->algo = algo;
	q->quorum = quorum;
	t_net_init(&q->net, test, tq_ids, ARRAY_SIZE(tq_ids),
		   tq_net_node_init);
	return &q->net;
}

/* the nodes up and running in role @role, as a bit set of ids */
static u32 tq_in_role(struct t_net *net, u8 role)
{
	u32 i, mask = 0;

	for (i = 0; i < net->n; i++)
		if (net->node[i]->up && net->node[i]->c.running &&
		    net->node[i]->c.role == role)
			mask |= T_BIT(net->ids[i]);
	return mask;
}

/* one step (t_net_step()); after it at most one node is in role leader */
static bool tq_step(struct t_net *net, u64 until)
{
	bool more = t_net_step(net, until);
	u32 l = tq_in_role(net, ELEC_ROLE_LEADER);

	KUNIT_ASSERT_EQ_MSG(net->test, l & (l - 1), 0,
			    "two leaders (ids %#x) at %llu", l,
			    (unsigned long long)net->now);
	return more;
}

/* t_net_run() one step at a time, checking every step */
static void tq_run(struct t_net *net, u64 ns)
{
	u64 until = net->now + ns;
	u32 steps = 0;

	while (tq_step(net, until)) {
		if (++steps > T_NET_MAX_STEPS) {
			KUNIT_FAIL(net->test, "network does not settle");
			return;
		}
	}
	KUNIT_EXPECT_EQ(net->test, net->overflow, 0);
	KUNIT_EXPECT_EQ(net->test, net->bad, 0);
}

/* the live nodes of @side (a bit set) agree on @want, as expect_agree */
static void tq_expect_side(struct t_net *net, u32 side, u32 want)
{
	struct kunit *test = net->test;
	struct t_node *l = t_net_node(net, want);
	u32 i;

	for (i = 0; i < net->n; i++) {
		struct t_node *n = net->node[i];
		u32 id = net->ids[i];

		if (!(side & T_BIT(id)) || !n->up)
			continue;
		KUNIT_EXPECT_EQ_MSG(test, n->c.leader, want, "node %u", id);
		KUNIT_EXPECT_EQ_MSG(test, n->c.term, l->c.term, "node %u", id);
		KUNIT_EXPECT_EQ_MSG(test, n->c.role, id == want ?
				    ELEC_ROLE_LEADER : ELEC_ROLE_FOLLOWER,
				    "node %u", id);
	}
}

/* the live nodes of @side wait with no leader and begin no run */
static void tq_expect_waiting(struct t_net *net, u32 side,
			      const u64 *elections)
{
	struct kunit *test = net->test;
	u32 i;

	for (i = 0; i < net->n; i++) {
		struct t_node *n = net->node[i];
		u32 id = net->ids[i];

		if (!(side & T_BIT(id)) || !n->up)
			continue;
		KUNIT_EXPECT_EQ_MSG(test, n->c.leader, 0, "node %u", id);
		KUNIT_EXPECT_EQ_MSG(test, n->c.role, ELEC_ROLE_FOLLOWER,
				    "node %u", id);
		KUNIT_EXPECT_EQ_MSG(test, n->c.stats.elections, elections[i],
				    "node %u", id);
	}
}

/*
 * quorum_lost after a start: min-bully's minimum claims at once when it
 * starts (min_bully.c), before it heard anyone: no run, counted once.
 */
static u64 tq_lost_at_start(u8 algo, u32 id)
{
	return algo == ELEC_ALGO_MIN_BULLY && id == tq_best(algo, tq_all());
}

/* every node starts at once and the best id is confirmed */
static struct t_net *tq_net_settled(struct kunit *test, u8 algo)
{
	struct t_net *net = tq_net_new(test, algo, true);
	u32 i;

	t_net_start_all(net);
	tq_run(net, 5 * T_DETECT);
	t_net_expect_agree(net, tq_best(algo, tq_all()));
	for (i = 0; i < net->n; i++)
		KUNIT_EXPECT_EQ(test, net->node[i]->c.stats.quorum_lost,
				tq_lost_at_start(algo, net->ids[i]));
	return net;
}

/*
 * Quorum off: the algorithm elects its best id as before and no node
 * sends an ALIVE.
 */
static void tq_net_quorum_off(struct kunit *test)
{
	u32 i;

	for (i = 0; i < ARRAY_SIZE(tq_bully_algos); i++) {
		u8 algo = tq_bully_algos[i];
		struct t_net *net = tq_net_new(test, algo, false);

		t_net_start_all(net);
		tq_run(net, 10 * T_DETECT);
		t_net_expect_agree(net, tq_best(algo, tq_all()));
		t_net_crash(net, tq_best(algo, tq_all()));
		tq_run(net, 10 * T_DETECT);
		KUNIT_EXPECT_EQ_MSG(test, net->sent[ELEC_MSG_ALIVE], 0,
				    "algo %u", algo);
		KUNIT_EXPECT_EQ(test, t_net_sum_tx(net, ELEC_MSG_ALIVE), 0);
	}
}

/*
 * Five nodes start: the best id claims as a candidate, takes the leader
 * role when the ALIVEs naming it arrive, and keeps it; every other node
 * beacons once per hb-interval, the leader never.
 */
static void tq_net_confirm(struct kunit *test, u8 algo)
{
	struct t_net *net = tq_net_new(test, algo, true);
	u32 best = tq_best(algo, tq_all());
	struct t_node *l = t_net_node(net, best);
	u64 until = net->now + 10 * T_DETECT;
	u64 claim = 0, conf = 0;
	u64 tx[ARRAY_SIZE(tq_ids)];
	u32 i;

	t_net_start_all(net);
	while (!conf && tq_step(net, until)) {
		bool leads = l->c.phase == ELEC_BULLY_LEADING &&
			     l->c.leader == best;

		if (!claim && leads) {
			/* the claim: a candidate, nobody named it yet */
			claim = net->now;
			KUNIT_EXPECT_EQ(test, l->c.role, ELEC_ROLE_CANDIDATE);
			KUNIT_EXPECT_EQ(test, tq_support(l), 0);
			t_clear(l);
		}
		if (claim && l->c.role == ELEC_ROLE_LEADER) {
			conf = net->now;
			/* a majority, itself included, named it since */
			KUNIT_EXPECT_GE(test, tq_support(l), 2);
			KUNIT_EXPECT_EQ(test, t_events(l, ELEC_EVENT_LEADER_CHANGED,
						       T_ANY), 1);
		}
		if (claim && !conf)
			KUNIT_ASSERT_TRUE(test, leads);
	}
	KUNIT_ASSERT_NE(test, claim, 0);
	KUNIT_ASSERT_NE(test, conf, 0);
	/* the followers name it at once: no beacon period passes */
	KUNIT_EXPECT_LT(test, conf, claim + T_HB);
	tq_run(net, 3 * T_DETECT);
	t_net_expect_agree(net, best);

	/* the beacons over ten hb-intervals */
	for (i = 0; i < net->n; i++)
		tx[i] = net->node[i]->c.stats.tx[ELEC_MSG_ALIVE];
	until = net->now + 10 * T_HB;
	while (tq_step(net, until))
		KUNIT_ASSERT_EQ(test, l->c.role, ELEC_ROLE_LEADER);
	for (i = 0; i < net->n; i++)
		KUNIT_EXPECT_EQ_MSG(test,
				    net->node[i]->c.stats.tx[ELEC_MSG_ALIVE] -
				    tx[i], net->ids[i] == best ? 0 : 10,
				    "node %u", net->ids[i]);
	t_net_expect_agree(net, best);
	for (i = 0; i < net->n; i++)
		KUNIT_EXPECT_EQ(test, net->node[i]->c.stats.quorum_lost,
				tq_lost_at_start(algo, net->ids[i]));
}

static void tq_net_confirm_bully(struct kunit *test)
{
	tq_net_confirm(test, ELEC_ALGO_BULLY);
}

static void tq_net_confirm_min_bully(struct kunit *test)
{
	tq_net_confirm(test, ELEC_ALGO_MIN_BULLY);
}

static void tq_net_confirm_enh_bully(struct kunit *test)
{
	tq_net_confirm(test, ELEC_ALGO_ENH_BULLY);
}

/* the ids below @below (or not: @low false) of tq_ids, as a bit set */
static u32 tq_side(u32 below, bool low)
{
	u32 i, mask = 0;

	for (i = 0; i < ARRAY_SIZE(tq_ids); i++) {
		bool under = tq_ids[i] < below;

		if (under == low)
			mask |= T_BIT(tq_ids[i]);
	}
	return mask;
}

/*
 * A 3/2 partition with the leader on the two-node side: it gives up the
 * role a lease after its last majority at the latest and steps down T
 * later, the three-node side elects
 * its best id, the two wait leaderless; the heal gives one leader again,
 * the best id. Never two leaders at once.
 */
static void tq_net_minority_leader(struct kunit *test, u8 algo)
{
	struct t_net *net = tq_net_settled(test, algo);
	u32 best = tq_best(algo, tq_all());
	/* min-bully's best is 1: its side is {1, 2}; else {4, 5} */
	u32 below = algo == ELEC_ALGO_MIN_BULLY ? 3 : 4;
	u32 minority = tq_side(below, algo == ELEC_ALGO_MIN_BULLY);
	u32 majority = tq_all() & ~minority;
	struct t_node *l = t_net_node(net, best);
	u64 elections[ARRAY_SIZE(tq_ids)];
	u64 lost = l->c.stats.quorum_lost;
	u64 until, end, down = 0, lapsed = 0;
	u32 i;

	KUNIT_ASSERT_TRUE(test, minority & T_BIT(best));
	until = elec_quorum_until(&l->c, net->now);
	KUNIT_ASSERT_GT(test, until, net->now);
	for (i = 0; i < net->n; i++)
		elections[i] = net->node[i]->c.stats.elections;
	t_net_partition(net, below, true);
	end = net->now + 10 * T_DETECT;
	while (tq_step(net, end)) {
		/* the role goes at the lease's end, the claim T later */
		if (!lapsed && l->c.role != ELEC_ROLE_LEADER) {
			lapsed = net->now;
			KUNIT_EXPECT_EQ(test, l->c.role, ELEC_ROLE_CANDIDATE);
			KUNIT_EXPECT_EQ(test, l->c.leader, best);
			KUNIT_EXPECT_EQ(test, l->c.stats.quorum_lost, lost);
		}
		if (!down && l->c.role == ELEC_ROLE_FOLLOWER) {
			down = net->now;
			KUNIT_EXPECT_EQ(test, l->c.leader, 0);
			KUNIT_EXPECT_EQ(test, l->c.stats.quorum_lost,
					lost + 1);
		}
		if (lapsed)
			KUNIT_ASSERT_EQ(test, tq_in_role(net, ELEC_ROLE_LEADER) &
					minority, 0);
	}
	KUNIT_ASSERT_NE(test, lapsed, 0);
	KUNIT_ASSERT_NE(test, down, 0);
	KUNIT_EXPECT_LE(test, lapsed, until);
	KUNIT_EXPECT_EQ(test, down, lapsed + T_T);
	KUNIT_EXPECT_EQ(test, l->c.stats.quorum_lost, lost + 1);
	tq_expect_side(net, majority, tq_best(algo, majority));
	tq_expect_waiting(net, minority, elections);

	/* the heal: the best id leads everyone */
	t_net_partition(net, below, false);
	tq_run(net, 5 * T_DETECT);
	t_net_expect_agree(net, best);
}

static void tq_net_minority_leader_bully(struct kunit *test)
{
	tq_net_minority_leader(test, ELEC_ALGO_BULLY);
}

static void tq_net_minority_leader_min_bully(struct kunit *test)
{
	tq_net_minority_leader(test, ELEC_ALGO_MIN_BULLY);
}

static void tq_net_minority_leader_enh_bully(struct kunit *test)
{
	tq_net_minority_leader(test, ELEC_ALGO_ENH_BULLY);
}

/*
 * A 3/2 partition with the leader on the three-node side: it keeps its
 * role and term throughout, the two have no leader and begin no run; the
 * heal brings them back to it without an election.
 */
static void tq_net_majority_leader(struct kunit *test, u8 algo)
{
	struct t_net *net = tq_net_settled(test, algo);
	u32 best = tq_best(algo, tq_all());
	u32 below = algo == ELEC_ALGO_MIN_BULLY ? 4 : 3;
	u32 minority = tq_side(below, algo != ELEC_ALGO_MIN_BULLY);
	struct t_node *l = t_net_node(net, best);
	u64 elections[ARRAY_SIZE(tq_ids)];
	u64 term = l->c.term, lost = l->c.stats.quorum_lost;
	u64 end, runs = t_net_sum_elections(net);
	u32 i;

	KUNIT_ASSERT_FALSE(test, minority & T_BIT(best));
	for (i = 0; i < net->n; i++)
		elections[i] = net->node[i]->c.stats.elections;
	t_net_partition(net, below, true);
	end = net->now + 10 * T_DETECT;
	while (tq_step(net, end))
		KUNIT_ASSERT_EQ(test, tq_in_role(net, ELEC_ROLE_LEADER),
				T_BIT(best));
	tq_expect_side(net, tq_all() & ~minority, best);
	KUNIT_EXPECT_EQ(test, l->c.term, term);
	KUNIT_EXPECT_EQ(test, l->c.stats.quorum_lost, lost);
	tq_expect_waiting(net, minority, elections);

	t_net_partition(net, below, false);
	end = net->now + 5 * T_DETECT;
	while (tq_step(net, end))
		KUNIT_ASSERT_EQ(test, tq_in_role(net, ELEC_ROLE_LEADER),
				T_BIT(best));
	t_net_expect_agree(net, best);
	KUNIT_EXPECT_EQ(test, l->c.term, term);
	KUNIT_EXPECT_EQ(test, t_net_sum_elections(net), runs);
}

static void tq_net_majority_leader_bully(struct kunit *test)
{
	tq_net_majority_leader(test, ELEC_ALGO_BULLY);
}

static void tq_net_majority_leader_min_bully(struct kunit *test)
{
	tq_net_majority_leader(test, ELEC_ALGO_MIN_BULLY);
}

static void tq_net_majority_leader_enh_bully(struct kunit *test)
{
	tq_net_majority_leader(test, ELEC_ALGO_ENH_BULLY);
}

/*
 * 4 leads while 5 is down; 5 returns and takes over. The followers named
 * 4 lately: their ALIVEs name nobody until 4, yielding, names 5 (its
 * release); then they name 5 at once and it is confirmed within the same
 * instant (frames take no time here), long before the promises would end.
 */
static void tq_net_release_chain(struct kunit *test)
{
	struct t_net *net = tq_net_new(test, ELEC_ALGO_BULLY, true);
	struct t_node *k = t_net_node(net, 4), *h = t_net_node(net, 5);
	u64 end, claim = 0, conf = 0, released = 0;
	u32 i, held = 0;

	t_net_crash(net, 5);
	t_net_start_all(net);
	tq_run(net, 5 * T_DETECT);
	t_net_expect_agree(net, 4);
	t_net_reboot(net, 5);
	end = net->now + 5 * T_DETECT;
	while (!conf && tq_step(net, end)) {
		if (!claim && h->c.phase == ELEC_BULLY_LEADING) {
			claim = net->now;
			KUNIT_EXPECT_EQ(test, h->c.role, ELEC_ROLE_CANDIDATE);
			for (i = 1; i <= 3; i++) {
				struct t_node *f = t_net_node(net, i);

				/* each is bound to 4 */
				KUNIT_EXPECT_EQ(test, f->c.bully.q.named, 4);
				KUNIT_EXPECT_GT(test, f->c.bully.q.named_ns +
						TQ_PROMISE, claim);
				t_clear(f);
			}
			t_clear(k);
		}
		if (!claim)
			continue;
		if (!released && t_sends(k, ELEC_MSG_ALIVE, 0))
			released = net->now;
		for (i = 1; i <= 3 && !released; i++) {
			struct t_node *f = t_net_node(net, i);

			if (!t_sends(f, ELEC_MSG_ALIVE, 0))
				continue;
			KUNIT_EXPECT_EQ_MSG(test, tq_named(tq_alive(f)), 0,
					    "node %u", i);
			held |= T_BIT(i);
		}
		if (h->c.role == ELEC_ROLE_LEADER)
			conf = net->now;
	}
	KUNIT_ASSERT_NE(test, claim, 0);
	KUNIT_ASSERT_NE(test, released, 0);
	KUNIT_ASSERT_NE(test, conf, 0);
	/* each followed 5 before the release and named nobody */
	KUNIT_EXPECT_EQ(test, held, T_BIT(1) | T_BIT(2) | T_BIT(3));
	KUNIT_EXPECT_EQ(test, tq_named(tq_alive(k)), 5);
	KUNIT_EXPECT_EQ(test, k->c.role, ELEC_ROLE_FOLLOWER);
	KUNIT_EXPECT_LT(test, conf, claim + T_T);
	for (i = 1; i <= 3; i++)
		KUNIT_EXPECT_EQ(test, tq_named(tq_alive(t_net_node(net, i))),
				5);
	tq_run(net, 3 * T_DETECT);
	t_net_expect_agree(net, 5);
}

/*
 * Two of five up: once the others' frames are older than the lease they
 * begin no run, window after window, and have no leader; a third node
 * back makes a majority, which elects.
 */
static void tq_net_minority_no_runs(struct kunit *test)
{
	u32 a;

	for (a = 0; a < ARRAY_SIZE(tq_bully_algos); a++) {
		u8 algo = tq_bully_algos[a];
		struct t_net *net = tq_net_settled(test, algo);
		u64 elections[ARRAY_SIZE(tq_ids)];
		u32 up = T_BIT(1) | T_BIT(2), i;

		if (algo == ELEC_ALGO_MIN_BULLY)
			up = T_BIT(4) | T_BIT(5);
		for (i = 0; i < net->n; i++)
			if (!(up & T_BIT(net->ids[i])))
				t_net_crash(net, net->ids[i]);
		tq_run(net, TQ_LEASE);
		for (i = 0; i < net->n; i++)
			elections[i] = net->node[i]->c.stats.elections;
		tq_run(net, 5 * T_DETECT);
		tq_expect_waiting(net, up, elections);
		KUNIT_EXPECT_EQ(test, tq_in_role(net, ELEC_ROLE_CANDIDATE), 0);

		t_net_reboot(net, 3);
		tq_run(net, 3 * T_DETECT);
		up |= T_BIT(3);
		tq_expect_side(net, up, tq_best(algo, up));
	}

	/* and from the start */
	for (a = 0; a < ARRAY_SIZE(tq_bully_algos); a++) {
		struct t_net *net = tq_net_new(test, tq_bully_algos[a], true);

		t_net_crash(net, 3);
		t_net_crash(net, 4);
		t_net_crash(net, 5);
		t_net_start_all(net);
		tq_run(net, 10 * T_DETECT);
		KUNIT_EXPECT_EQ(test, t_net_sum_elections(net), 0);
		KUNIT_EXPECT_EQ(test, tq_in_role(net, ELEC_ROLE_FOLLOWER),
				T_BIT(1) | T_BIT(2));
		KUNIT_EXPECT_EQ(test, t_net_node(net, 1)->c.leader, 0);
		KUNIT_EXPECT_EQ(test, t_net_node(net, 2)->c.leader, 0);
	}
}

/*
 * A node stopped and started again names nobody for a promise window
 * after the start (the promise of its last naming before the stop is
 * forgotten, as a reboot would: elec_quorum_start()).
 */
static void tq_restart_keeps_promise(struct kunit *test)
{
	struct t_node *n = tq_follower_of4(test);
	u64 named = n->now;

	n->now += 2 * TQ_MS;
	elec_core_stop(&n->c, n->now);
	elec_core_start(&n->c, n->now);
	n->now += TQ_MS;
	t_clear(n);
	tq_rx(n, ELEC_MSG_COORDINATOR, 5, 2, 2);
	KUNIT_EXPECT_EQ(test, n->c.leader, 5);
	KUNIT_EXPECT_LT(test, n->now, named + TQ_PROMISE);
	KUNIT_EXPECT_EQ(test, tq_named(tq_alive(n)), 0);
}

/*
 * Three nodes: 2 leads {1, 2} while 3 is cut off; then 1 is cut from 2 and
 * joined to 3, and its link flaps (stop, start) just before 3's detection
 * window ends. 3 claims and 1 names it at once: two leaders until 2's
 * lease (on 1's last naming before the flap) runs out.
 */
static void tq_net_restart_two_leaders(struct kunit *test)
{
	static const u32 ids[] = { 1, 2, 3 };
	struct tq_net *q = kunit_kzalloc(test, sizeof(*q), GFP_KERNEL);
	struct t_net *net;
	struct t_node *n1, *n3;

	KUNIT_ASSERT_NOT_NULL(test, q);
	q->algo = ELEC_ALGO_BULLY;
	q->quorum = true;
	net = &q->net;
	t_net_init(net, test, ids, 3, tq_net_node_init);
	n1 = t_net_node(net, 1);
	n3 = t_net_node(net, 3);
	t_net_start_all(net);
	tq_run(net, 5 * T_DETECT);
	t_net_partition(net, 3, true);		/* {1, 2} | {3} */
	tq_run(net, 5 * T_DETECT);
	KUNIT_ASSERT_EQ(test, t_net_node(net, 2)->c.role, ELEC_ROLE_LEADER);
	tq_run(net, n3->c.timer_expires[ELEC_TIMER_DETECT] - TQ_MS - net->now);
	net->cut[0][1] = true;			/* {1, 3} | {2} */
	net->cut[1][0] = true;
	net->cut[0][2] = false;
	net->cut[2][0] = false;
	elec_core_stop(&n1->c, net->now);
	elec_core_start(&n1->c, net->now);
	tq_run(net, 2 * T_DETECT);
}

static struct kunit_case elec_quorum_cases[] = {
	KUNIT_CASE(tq_config),
	KUNIT_CASE(tq_config_running),
	KUNIT_CASE(tq_payload),
	KUNIT_CASE(tq_quorum_off),
	KUNIT_CASE(tq_claimant),
	KUNIT_CASE(tq_lease),
	KUNIT_CASE(tq_lapse_renewed),
	KUNIT_CASE(tq_claim_expires),
	KUNIT_CASE(tq_no_majority_no_run),
	KUNIT_CASE(tq_promise),
	KUNIT_CASE(tq_promise_release),
	KUNIT_CASE(tq_fresh),
	KUNIT_CASE(tq_fresh_again),
	KUNIT_CASE(tq_claim_bound),
	KUNIT_CASE(tq_net_quorum_off),
	KUNIT_CASE(tq_net_confirm_bully),
	KUNIT_CASE(tq_net_confirm_min_bully),
	KUNIT_CASE(tq_net_confirm_enh_bully),
	KUNIT_CASE(tq_net_minority_leader_bully),
	KUNIT_CASE(tq_net_minority_leader_min_bully),
	KUNIT_CASE(tq_net_minority_leader_enh_bully),
	KUNIT_CASE(tq_net_majority_leader_bully),
	KUNIT_CASE(tq_net_majority_leader_min_bully),
	KUNIT_CASE(tq_net_majority_leader_enh_bully),
	KUNIT_CASE(tq_net_release_chain),
	KUNIT_CASE(tq_net_minority_no_runs),
	KUNIT_CASE(tq_claim_bound_past_lease),
	KUNIT_CASE(tq_promise_resign),
	KUNIT_CASE(tq_reannounce_keeps_role),
	KUNIT_CASE(tq_restart_keeps_promise),
	KUNIT_CASE(tq_net_restart_two_leaders),
	{}
};

static struct kunit_suite elec_quorum_suite = {
	.name = "elec_quorum",
	.test_cases = elec_quorum_cases,
};

kunit_test_suites(&elec_quorum_suite);
