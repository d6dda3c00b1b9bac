/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the ring suites share (elec_ring*_kunit.c): a ring node built from
 * a list of ids in ring order (the k-th id gets position TR_POS(k), so
 * the ring order is the list's whatever the ids), ring frames fed to it
 * with their payloads, and readers of the payloads of the frames it sent.
 *
 * Every frame a case feeds in passes the algorithm's payload check first,
 * as the codec would make it: the cases only use frames the wire can
 * carry. Static only, like elec_kunit_util.h.
 */
#ifndef _ELEC_KUNIT_RING_H
#define _ELEC_KUNIT_RING_H

#include "elec_kunit_util.h"
#include "ring.h"

/* ring queue of a test node: room for a few dozen ring messages */
#define TR_QBYTES	4096
/* position of the k-th id of a ring list */
#define TR_POS(k)	(10 * ((u32)(k) + 1))
/* the largest list a case feeds in */
#define TR_LIST_MAX	32
/* the round timeout of an instance of @nodes nodes (ring.c) */
#define TR_ROUND(nodes)	(T_COORD + 2ULL * (nodes) * T_T)

/*
 * Initialise @n as node @cfg->self_id of the ring @ring (ids in ring
 * order, @cfg->self_id among them), with a ring queue of @qbytes (0: no
 * queue at all).
 */
static inline void tr_node_init(struct t_node *n, const struct elec_config *cfg,
				const u32 *ring, u32 nr, u32 qbytes)
{
	struct kunit *test = n->test;
	struct elec_sink sink = { .emit = t_emit, .ctx = n };
	struct elec_config c = *cfg;
	u32 i, self = T_ANY;
	void *q = NULL;

	KUNIT_ASSERT_LE(test, nr, T_MAX_NODES);
	for (i = 0; i < nr; i++)
		if (ring[i] == cfg->self_id)
			self = i;
	KUNIT_ASSERT_NE(test, self, T_ANY);
	c.self_pos = TR_POS(self);
	KUNIT_ASSERT_EQ(test, elec_core_init(&n->c, &c, n->peers,
					     T_MAX_NODES - 1, &sink), 0);
	for (i = 0; i < nr; i++) {
		if (i == self)
			continue;
		KUNIT_ASSERT_EQ(test, elec_core_peer_add_pos(&n->c, ring[i],
							     NULL, TR_POS(i)),
				0);
	}
	if (qbytes) {
		q = kunit_kzalloc(test, qbytes, GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, q);
	}
	elec_core_set_queue(&n->c, q, qbytes);
	t_clear(n);
}

static inline struct t_node *tr_node_cfg(struct kunit *test,
					 const struct elec_config *cfg,
					 const u32 *ring, u32 nr, u32 qbytes)
{
	struct t_node *n = t_node_alloc(test);

	tr_node_init(n, cfg, ring, nr, qbytes);
	return n;
}

static inline struct t_node *tr_node_new(struct kunit *test, u8 algo, u32 self,
					 const u32 *ring, u32 nr)
{
	struct elec_config cfg;

	t_cfg_algo(&cfg, algo, self);
	return tr_node_cfg(test, &cfg, ring, nr, TR_QBYTES);
}

/* started (learning), the recording cleared */
static inline void tr_started(struct t_node *n)
{
	t_start(n);
	KUNIT_ASSERT_EQ(n->test, n->c.phase, ELEC_RING_LEARNING);
	t_clear(n);
}

/* tracked standby on or off, as electionctl track sets it */
static inline void tr_standby(struct t_node *n, bool on)
{
	struct elec_config cfg = n->c.cfg;

	cfg.standby_tracked = on;
	KUNIT_ASSERT_EQ(n->test, elec_core_set_config(&n->c, &cfg, NULL), 0);
	elec_core_standby_sync(&n->c, n->now);
}

/* ---- input frames ------------------------------------------------------ */

/* a frame from @src to this node, checked as the codec would */
/* a frame with header @flags (ELECTION_FLAG_LEAVING), payload checked */
static inline void tr_rx_flags(struct t_node *n, u8 type, u8 flags, u32 src,
			       u32 dst, u64 term, const u8 *pl, u16 len)
{
	struct elec_msg m;
	bool ok;

	memset(&m, 0, sizeof(m));
	m.type = type;
	m.flags = flags;
	m.algo = n->c.cfg.algo;
	m.group = T_GROUP;
	m.src = src;
	m.dst = dst;
	m.term = term;
	m.payload_len = len;
	m.payload = len ? pl : NULL;
	ok = n->c.ops->payload_ok(type, m.payload, len);
	KUNIT_ASSERT_TRUE_MSG(n->test, ok, "type %u len %u", type, len);
	elec_core_rx(&n->c, &m, n->now);
}

static inline void tr_rx_pl(struct t_node *n, u8 type, u32 src, u32 dst,
			    u64 term, const u8 *pl, u16 len)
{
	tr_rx_flags(n, type, 0, src, dst, term, pl, len);
}

static inline void tr_ack(struct t_node *n, u32 src, u32 hop)
{
	u8 pl[4];

	elec_ring_put32(pl, hop);
	tr_rx_pl(n, ELEC_MSG_ACK, src, n->c.cfg.self_id, 0, pl, sizeof(pl));
}

static inline void tr_hb(struct t_node *n, u32 src, u64 term)
{
	tr_rx_pl(n, ELEC_MSG_HEARTBEAT, src, 0, term, NULL, 0);
}

/* a ring frame of @nr_vals 32-bit values after the hop number */
static inline void tr_rx_vals(struct t_node *n, u8 type, u32 src, u64 term,
			      u32 hop, const u32 *vals, u32 nr_vals)
{
	u8 pl[4 + 4 * 2];
	u32 i;

	KUNIT_ASSERT_LE(n->test, nr_vals, 2);
	elec_ring_put32(pl, hop);
	for (i = 0; i < nr_vals; i++)
		elec_ring_put32(pl + 4 + 4 * i, vals[i]);
	tr_rx_pl(n, type, src, n->c.cfg.self_id, term, pl,
		 (u16)(4 + 4 * nr_vals));
}

/* ring (Chang-Roberts) ELECTION {id} or COORDINATOR {leader} */
static inline void tr_rx_cr(struct t_node *n, u8 type, u32 src, u64 term,
			    u32 hop, u32 id)
{
	tr_rx_vals(n, type, src, term, hop, &id, 1);
}

/* ring-all ELECTION {origin} */
static inline void tr_rx_all_e(struct t_node *n, u32 src, u64 term, u32 hop,
			       u32 origin)
{
	tr_rx_vals(n, ELEC_MSG_ELECTION, src, term, hop, &origin, 1);
}

/* ring-all COORDINATOR {leader, origin} */
static inline void tr_rx_all_c(struct t_node *n, u32 src, u64 term, u32 hop,
			       u32 leader, u32 origin)
{
	u32 v[2] = { leader, origin };

	tr_rx_vals(n, ELEC_MSG_COORDINATOR, src, term, hop, v, 2);
}

/* ring-list ELECTION or COORDINATOR {count, 0, ids} */
static inline void tr_rx_list(struct t_node *n, u8 type, u32 src, u64 term,
			      u32 hop, const u32 *ids, u32 count)
{
	u8 pl[8 + 4 * TR_LIST_MAX];
	u32 i;

	KUNIT_ASSERT_LE(n->test, count, TR_LIST_MAX);
	elec_ring_put32(pl, hop);
	pl[4] = (u8)(count >> 8);
	pl[5] = (u8)count;
	pl[6] = 0;
	pl[7] = 0;
	for (i = 0; i < count; i++)
		elec_ring_put32(pl + 8 + 4 * i, ids[i]);
	tr_rx_pl(n, type, src, n->c.cfg.self_id, term, pl,
		 (u16)(8 + 4 * count));
}

/* ---- output frames ----------------------------------------------------- */

/* the last frame of wire type @type sent; the test fails if none was */
static inline const struct elec_action *tr_last(struct t_node *n, u8 type)
{
	u32 i;

	for (i = n->n_acts; i-- > 0;)
		if (n->acts[i].kind == ELEC_ACT_SEND &&
		    n->acts[i].msg.type == type)
			return &n->acts[i];
	KUNIT_ASSERT_TRUE_MSG(n->test, false, "no frame of type %u sent",
			      type);
	return NULL;
}

/* the first frame sent in the recording; the test fails if none was */
static inline const struct elec_action *tr_first_send(struct t_node *n)
{
	u32 i;

	for (i = 0; i < n->n_acts; i++)
		if (n->acts[i].kind == ELEC_ACT_SEND)
			return &n->acts[i];
	KUNIT_ASSERT_TRUE_MSG(n->test, false, "no frame sent");
	return NULL;
}

/* the be32 at @off in a sent frame's payload */
static inline u32 tr_pl32(struct t_node *n, const struct elec_action *a,
			  u32 off)
{
	KUNIT_ASSERT_NOT_NULL(n->test, a->msg.payload);
	KUNIT_ASSERT_LE(n->test, off + 4, a->msg.payload_len);
	return elec_ring_get32(a->msg.payload + off);
}

static inline u32 tr_hop(struct t_node *n, const struct elec_action *a)
{
	return tr_pl32(n, a, 0);
}

/* first value after the hop: id, leader, origin */
static inline u32 tr_val(struct t_node *n, const struct elec_action *a)
{
	return tr_pl32(n, a, 4);
}

/* ring-all COORDINATOR: its origin */
static inline u32 tr_val2(struct t_node *n, const struct elec_action *a)
{
	return tr_pl32(n, a, 8);
}

/* ring-list: the count, checked against the payload length */
static inline u32 tr_list_n(struct t_node *n, const struct elec_action *a)
{
	u32 count;

	KUNIT_ASSERT_NOT_NULL(n->test, a->msg.payload);
	KUNIT_ASSERT_GE(n->test, a->msg.payload_len, 8);
	count = (a->msg.payload[4] << 8) | a->msg.payload[5];
	KUNIT_EXPECT_EQ(n->test, a->msg.payload[6], 0);
	KUNIT_EXPECT_EQ(n->test, a->msg.payload[7], 0);
	KUNIT_EXPECT_EQ(n->test, a->msg.payload_len, 8 + 4 * count);
	return count;
}

static inline u32 tr_list_id(struct t_node *n, const struct elec_action *a,
			     u32 i)
{
	return tr_pl32(n, a, 8 + 4 * i);
}

/* a sent ring list equals @ids */
static inline void tr_expect_list(struct t_node *n, const struct elec_action *a,
				  const u32 *ids, u32 count)
{
	u32 i;

	KUNIT_ASSERT_EQ(n->test, tr_list_n(n, a), count);
	for (i = 0; i < count; i++)
		KUNIT_EXPECT_EQ_MSG(n->test, tr_list_id(n, a, i), ids[i],
				    "list[%u]", i);
}

/*
 * The receiver of the ring frame in flight acknowledges it: the head of
 * the queue is popped and the next one, if any, sent. The frame in flight
 * carries the latest hop number (checked when it is still in the
 * recording). Returns the hop acknowledged.
 */
static inline u32 tr_ack_head(struct t_node *n)
{
	u32 i, dst = n->c.ring.dst, hop = n->c.ring.hop;

	KUNIT_ASSERT_NE(n->test, dst, 0);
	for (i = n->n_acts; i-- > 0;) {
		const struct elec_action *a = &n->acts[i];

		if (a->kind != ELEC_ACT_SEND || a->msg.dst != dst ||
		    (a->msg.type != ELEC_MSG_ELECTION &&
		     a->msg.type != ELEC_MSG_COORDINATOR))
			continue;
		KUNIT_ASSERT_EQ(n->test, tr_hop(n, a), hop);
		break;
	}
	tr_ack(n, dst, hop);
	return hop;
}

#endif /* _ELEC_KUNIT_RING_H */
