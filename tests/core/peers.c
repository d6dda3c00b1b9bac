// SPDX-License-Identifier: GPL-2.0
/*
 * Userspace-only suite: the peer table's fast paths against plain scans,
 * on random tables (deterministic, fixed xorshift seed).
 *  - elec_core_peer_find() and elec_core_peer_index() (which guess the
 *    index of dense ids first) find exactly the peers and places a
 *    linear search finds, after random adds and deletes with dense,
 *    sparse and shuffled ids;
 *  - peers_unordered, which lets ring.c find a successor by binary
 *    search, always equals a recount of the adjacent pairs out of ring
 *    order, and peer_id_lo is the first id;
 *  - the ring successor (the destination of the first ELECTION a node
 *    sends, and of an ELECTION passed on for a failed owner) is the one a
 *    scan of the whole table picks: the next alive peer in (position, id)
 *    order after the node, or the owner, wrapping; with positions that
 *    follow the ids (binary search) and positions that do not (scan).
 */
#include <kunit/test.h>
#include "core.h"

#define PT_ROUNDS	4000
#define PT_MAX		48
#define PT_QBYTES	4096

struct pt_node {
	struct elec_core c;
	struct elec_peer peers[PT_MAX];
	u64 q[PT_QBYTES / 8];
	u32 sent_type, sent_dst;	/* the first ELECTION sent */
};

static u32 pt_rand(u32 *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 17;
	*s ^= *s << 5;
	return *s;
}

static void pt_emit(void *ctx, const struct elec_action *act)
{
	struct pt_node *n = ctx;

	if (act->kind == ELEC_ACT_SEND && act->msg.type == ELEC_MSG_ELECTION &&
	    !n->sent_type) {
		n->sent_type = act->msg.type;
		n->sent_dst = act->msg.dst;
	}
}

static u32 pt_pos(const struct elec_peer *p)
{
	return p->pos ? p->pos : p->id;
}

static bool pt_key_lt(u32 pa, u32 ia, u32 pb, u32 ib)
{
	return pa < pb || (pa == pb && ia < ib);
}

/* the successor by a scan of every peer (ring.c before its fast path) */
static u32 pt_ref_target(const struct elec_core *c, u32 owner)
{
	u32 spos = c->cfg.self_pos ? c->cfg.self_pos : c->cfg.self_id;
	const struct elec_peer *after = NULL, *first = NULL;
	u32 i;

	for (i = 0; i < c->n_peers; i++) {
		const struct elec_peer *p = &c->peers[i];

		if (!p->alive && p->id != owner)
			continue;
		if (pt_key_lt(spos, c->cfg.self_id, pt_pos(p), p->id) &&
		    (!after || pt_key_lt(pt_pos(p), p->id, pt_pos(after),
					 after->id)))
			after = p;
		if (!first || pt_key_lt(pt_pos(p), p->id, pt_pos(first),
					first->id))
			first = p;
	}
	return after ? after->id : first ? first->id : 0;
}

static u32 pt_unordered(const struct elec_core *c)
{
	u32 i, k = 0;

	for (i = 0; i + 1 < c->n_peers; i++)
		k += pt_key_lt(pt_pos(&c->peers[i + 1]), c->peers[i + 1].id,
			       pt_pos(&c->peers[i]), c->peers[i].id);
	return k;
}

/*
 * A random node: ids dense (a run from a random start), sparse or
 * anything; positions 0, following the ids, or random.
 */
static void pt_node_new(struct kunit *test, struct pt_node *n, u32 *seed,
			u32 *ids, u32 *nr)
{
	struct elec_sink sink = { .emit = pt_emit, .ctx = n };
	struct elec_config cfg;
	u32 kind = pt_rand(seed) % 3, posk = pt_rand(seed) % 3;
	u32 cnt = 1 + pt_rand(seed) % (PT_MAX - 1), base = 1 + pt_rand(seed) % 5;
	u32 i, self;

	memset(n, 0, sizeof(*n));
	for (i = 0; i < cnt + 1; i++) {
		if (kind == 0)
			ids[i] = base + i;
		else if (kind == 1)
			ids[i] = base + 3 * i + pt_rand(seed) % 3;
		else
			ids[i] = 0;
	}
	if (kind == 2) {
		/* distinct random ids */
		for (i = 0; i < cnt + 1; i++) {
			u32 j, id;

			do {
				id = 1 + pt_rand(seed) % 200;
				for (j = 0; j < i && ids[j] != id; j++)
					;
			} while (j < i);
			ids[i] = id;
		}
	}
	self = pt_rand(seed) % (cnt + 1);
	memset(&cfg, 0, sizeof(cfg));
	cfg.self_id = ids[self];
	cfg.group = 1;
	cfg.algo = ELEC_ALGO_RING;
	cfg.hb_miss = ELECTION_DEF_HB_MISS;
	cfg.hb_interval_ns = ELECTION_DEF_HB_INTERVAL_NS;
	cfg.timeout_ns = ELECTION_DEF_TIMEOUT_NS;
	cfg.self_pos = posk == 0 ? 0 : posk == 1 ? 2 * ids[self] :
		       pt_rand(seed) % 64;
	KUNIT_ASSERT_EQ(test, elec_core_init(&n->c, &cfg, n->peers, PT_MAX,
					     &sink), 0);
	elec_core_set_queue(&n->c, n->q, PT_QBYTES);
	/* the others, in random order; a few added, deleted and added again */
	ids[self] = ids[cnt];
	for (i = cnt; i > 1; i--) {
		u32 j = pt_rand(seed) % i, t = ids[j];

		ids[j] = ids[i - 1];
		ids[i - 1] = t;
	}
	*nr = cnt;
	for (i = 0; i < cnt; i++) {
		u32 pos = posk == 0 ? 0 : posk == 1 ? 2 * ids[i] :
			  pt_rand(seed) % 64;

		KUNIT_ASSERT_EQ(test, elec_core_peer_add_pos(&n->c, ids[i],
							     NULL, pos), 0);
		KUNIT_ASSERT_EQ(test, n->c.peers_unordered,
				pt_unordered(&n->c));
		KUNIT_ASSERT_EQ(test, n->c.peer_id_lo, n->c.peers[0].id);
		if (i && !(pt_rand(seed) % 4)) {
			u32 d = ids[pt_rand(seed) % (i + 1)];
			u32 dpos = elec_core_peer_find(&n->c, d)->pos;

			KUNIT_ASSERT_EQ(test, elec_core_peer_del(&n->c, d, 0),
					0);
			KUNIT_ASSERT_EQ(test, n->c.peers_unordered,
					pt_unordered(&n->c));
			KUNIT_ASSERT_EQ(test, n->c.peer_id_lo,
					n->c.n_peers ? n->c.peers[0].id : 0);
			KUNIT_ASSERT_EQ(test, elec_core_peer_add_pos(&n->c, d,
								     NULL,
								     dpos), 0);
			KUNIT_ASSERT_EQ(test, n->c.peers_unordered,
					pt_unordered(&n->c));
		}
	}
}

static void pt_find(struct kunit *test)
{
	u32 seed = 0x2545f491, r, ids[PT_MAX + 1], nr;
	struct pt_node *n = kunit_kzalloc(test, sizeof(*n), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, n);
	for (r = 0; r < PT_ROUNDS; r++) {
		u32 id;

		pt_node_new(test, n, &seed, ids, &nr);
		for (id = 0; id <= 210; id++) {
			struct elec_peer *want = NULL;
			u32 i, below = 0;

			for (i = 0; i < n->c.n_peers; i++) {
				if (n->c.peers[i].id == id)
					want = &n->c.peers[i];
				below += n->c.peers[i].id < id;
			}
			KUNIT_ASSERT_EQ(test, elec_core_peer_index(&n->c, id),
					below);
			KUNIT_ASSERT_TRUE(test,
					  elec_core_peer_find(&n->c, id) == want);
		}
		/* deleting every peer keeps the counts right */
		while (n->c.n_peers) {
			u32 d = n->c.peers[pt_rand(&seed) %
					   n->c.n_peers].id;

			KUNIT_ASSERT_EQ(test, elec_core_peer_del(&n->c, d, 0),
					0);
			KUNIT_ASSERT_NULL(test, elec_core_peer_find(&n->c, d));
			KUNIT_ASSERT_EQ(test, n->c.peers_unordered,
					pt_unordered(&n->c));
		}
		KUNIT_ASSERT_EQ(test, n->c.peer_id_lo, 0);
	}
}

/* some peers declared failed, at random */
static void pt_fail_some(struct pt_node *n, u32 *seed)
{
	u32 i, k = pt_rand(seed) % 4;

	for (i = 0; i < n->c.n_peers; i++)
		if (k && !(pt_rand(seed) % (k + 1)))
			elec_core_peer_set_alive(&n->c, &n->c.peers[i], false,
						 0);
}

static void pt_successor(struct kunit *test)
{
	u32 seed = 0x6b8b4567, r, ids[PT_MAX + 1], nr;
	struct pt_node *n = kunit_kzalloc(test, sizeof(*n), GFP_KERNEL);
	u32 ordered = 0, scanned = 0, owners = 0;

	KUNIT_ASSERT_NOT_NULL(test, n);
	for (r = 0; r < PT_ROUNDS; r++) {
		u32 want;

		/* the node's own run: owner itself */
		pt_node_new(test, n, &seed, ids, &nr);
		elec_core_start(&n->c, 1000);
		pt_fail_some(n, &seed);
		want = pt_ref_target(&n->c, n->c.cfg.self_id);
		if (n->c.peers_unordered)
			scanned++;
		else
			ordered++;
		n->sent_type = 0;
		elec_core_elect(&n->c, 2000);
		if (want) {
			KUNIT_ASSERT_EQ(test, n->sent_type, ELEC_MSG_ELECTION);
			KUNIT_ASSERT_EQ(test, n->sent_dst, want);
		} else {
			KUNIT_ASSERT_EQ(test, n->sent_type, 0);
		}
	}
	for (r = 0; r < PT_ROUNDS; r++) {
		struct elec_msg m;
		u8 pl[8] = { 0 };
		u32 src, x, want;

		/*
		 * An ELECTION from an alive peer for a higher id X, failed
		 * or not: passed on for its owner X.
		 */
		pt_node_new(test, n, &seed, ids, &nr);
		elec_core_start(&n->c, 1000);
		pt_fail_some(n, &seed);
		x = n->c.peers[pt_rand(&seed) % n->c.n_peers].id;
		if (x < n->c.cfg.self_id)
			continue;
		src = n->c.peers[pt_rand(&seed) % n->c.n_peers].id;
		/* the frame marks its sender alive first */
		elec_core_peer_set_alive(&n->c, elec_core_peer_find(&n->c, src),
					 true, 0);
		want = pt_ref_target(&n->c, x);
		owners += !elec_core_peer_find(&n->c, x)->alive;
		memset(&m, 0, sizeof(m));
		m.type = ELEC_MSG_ELECTION;
		m.algo = ELEC_ALGO_RING;
		m.group = 1;
		m.src = src;
		m.dst = n->c.cfg.self_id;
		m.term = 1;
		pl[3] = 1;		/* hop 1 */
		pl[4] = x >> 24;
		pl[5] = x >> 16;
		pl[6] = x >> 8;
		pl[7] = x;
		m.payload = pl;
		m.payload_len = sizeof(pl);
		n->sent_type = 0;
		elec_core_rx(&n->c, &m, 2000);
		KUNIT_ASSERT_EQ(test, n->sent_type, ELEC_MSG_ELECTION);
		KUNIT_ASSERT_EQ(test, n->sent_dst, want);
	}
	/* both paths and the failed-owner rule were taken, often */
	KUNIT_EXPECT_GT(test, ordered, PT_ROUNDS / 4);
	KUNIT_EXPECT_GT(test, scanned, PT_ROUNDS / 4);
	KUNIT_EXPECT_GT(test, owners, PT_ROUNDS / 20);
}

static struct kunit_case pt_cases[] = {
	KUNIT_CASE(pt_find),
	KUNIT_CASE(pt_successor),
	{}
};

static struct kunit_suite pt_suite = {
	.name = "peer_table",
	.test_cases = pt_cases,
};

kunit_test_suites(&pt_suite);
