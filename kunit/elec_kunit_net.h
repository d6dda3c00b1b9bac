/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The in-test network of the suites that run several instances at once
 * (elec_bully_net, elec_ring_net): N nodes of elec_kunit_util.h joined by
 * a synchronous in-memory network that encodes every frame with the codec
 * (header and payload), queues one copy per receiver, and decodes it on
 * delivery. Frames are delivered in FIFO order with no delay; when nothing
 * is in flight the earliest timer of a live node fires. Nodes can crash
 * (silently), reboot with a fresh instance, flap, and be cut off from one
 * another (a partition).
 *
 * A suite makes its nodes through an init hook: the network calls it to
 * set up each node's instance, and again on a reboot. Static only, like
 * elec_kunit_util.h.
 */
#ifndef _ELEC_KUNIT_NET_H
#define _ELEC_KUNIT_NET_H

#include "elec_kunit_util.h"

/* frames in flight: a few times what the busiest case queues */
#define T_NET_QLEN	1024
#define T_NET_MAX_STEPS	2000000
#define T_NET_FRAME	(ELECTION_HDR_LEN + ELECTION_MAX_PAYLOAD + ELECTION_AUTH_LEN)

/**
 * struct t_frame - one frame in flight.
 * @from: the sender's index in the network
 * @to: the receiver's index
 * @len: bytes in @bytes
 * @bytes: the encoded frame, header and payload
 */
struct t_frame {
	u8 from;
	u8 to;
	u16 len;
	u8 bytes[T_NET_FRAME];
};

/**
 * struct t_net - N instances on a synchronous FIFO network.
 * @test: the running case
 * @init: (re)initialises node @n as the instance of @id, its peers the
 *	other ids of @ids
 * @ids: the nodes' ids, in node order (a ring's: in ring order)
 * @n: nodes
 * @now: the network's clock
 * @timers_first: due timers fire before frames in flight (every node
 *	acts at the same instant: concurrent starts)
 * @node: the nodes
 * @q: frames in flight, a ring buffer of T_NET_QLEN
 * @q_head: first frame in flight
 * @q_len: frames in flight
 * @sent: frames sent per wire type; a broadcast once
 * @lost: frames to a crashed node, an unknown id or across a cut
 * @overflow: frames that did not fit @q
 * @bad: frames the codec could not encode or decode
 * @cut: @cut[i][j]: frames from node i to node j are lost
 * @dup: every frame is delivered twice (the copy right after it)
 * @buf: where a frame sent is encoded (kept off the stack)
 */
struct t_net {
	struct kunit *test;
	void (*init)(struct t_net *net, struct t_node *n, u32 id);
	u32 ids[T_MAX_NODES];
	u32 n;
	u64 now;
	bool timers_first;
	struct t_node *node[T_MAX_NODES];
	struct t_frame *q;
	u32 q_head;
	u32 q_len;
	u64 sent[ELEC_MSG_MAX + 1];
	u64 lost;
	u64 overflow;
	u64 bad;
	bool cut[T_MAX_NODES][T_MAX_NODES];
	bool dup;
	u8 buf[T_NET_FRAME];
};

static inline struct t_node *t_net_find(struct t_net *net, u32 id)
{
	u32 i;

	for (i = 0; i < net->n; i++)
		if (net->node[i]->c.cfg.self_id == id)
			return net->node[i];
	return NULL;
}

static inline void t_net_enqueue(struct t_net *net, u32 from, u32 to,
				 const u8 *bytes, u32 len)
{
	struct t_frame *f;

	if (net->q_len >= T_NET_QLEN) {
		net->overflow++;
		return;
	}
	f = &net->q[(net->q_head + net->q_len) % T_NET_QLEN];
	f->from = from;
	f->to = to;
	f->len = len;
	memcpy(f->bytes, bytes, len);
	net->q_len++;
	if (net->dup && net->q_len < T_NET_QLEN) {
		net->q[(net->q_head + net->q_len) % T_NET_QLEN] = *f;
		net->q_len++;
	}
}

/* the sink's SEND: encode, then queue one copy per receiver */
static inline void t_net_send(struct t_net *net, struct t_node *from,
			      const struct elec_msg *msg)
{
	struct t_node *to;
	size_t len;
	u32 i;

	if (msg->type <= ELEC_MSG_MAX)
		net->sent[msg->type]++;
	len = elec_codec_encode(msg, net->buf, sizeof(net->buf));
	/* with the authentication trailer (its MAC is the embedder's) */
	if (len != ELECTION_HDR_LEN + (size_t)msg->payload_len +
		   (msg->flags & ELECTION_FLAG_AUTH ? ELECTION_AUTH_LEN : 0)) {
		net->bad++;
		return;
	}
	if (!msg->dst) {
		for (i = 0; i < net->n; i++)
			if (i != from->idx)
				t_net_enqueue(net, from->idx, i, net->buf, len);
		return;
	}
	to = t_net_find(net, msg->dst);
	if (to)
		t_net_enqueue(net, from->idx, to->idx, net->buf, len);
	else
		net->lost++;
}

/* the sink's network hook: the node's frames go to its network */
static inline void t_net_hook(struct t_node *n, const struct elec_msg *msg)
{
	t_net_send(n->net, n, msg);
}

static inline void t_net_deliver(struct t_net *net)
{
	struct t_frame *f = &net->q[net->q_head];
	struct t_node *to = net->node[f->to];
	struct elec_msg msg;

	net->q_head = (net->q_head + 1) % T_NET_QLEN;
	net->q_len--;
	if (!to->up || net->cut[f->from][f->to]) {
		net->lost++;
		return;
	}
	if (elec_codec_decode(f->bytes, f->len, &msg) != ELEC_DECODE_OK) {
		net->bad++;
		return;
	}
	to->now = net->now;
	elec_core_rx(&to->c, &msg, net->now);
}

/* the earliest armed timer of an up node expiring at or before @limit */
static inline bool t_net_next_timer(struct t_net *net, u64 limit, u32 *idx,
				    u32 *id)
{
	u64 best = 0;
	u32 i, t;

	for (i = 0; i < net->n; i++) {
		struct t_node *n = net->node[i];

		if (!n->up)
			continue;
		for (t = 0; t < ELEC_TIMER_COUNT; t++) {
			u64 e = n->c.timer_expires[t];

			if (!e || e > limit || (best && e >= best))
				continue;
			best = e;
			*idx = i;
			*id = t;
		}
	}
	return best != 0;
}

static inline void t_net_fire(struct t_net *net, u32 idx, u32 id)
{
	struct t_node *n = net->node[idx];
	u64 e = n->c.timer_expires[id];

	if (e > net->now)
		net->now = e;
	n->now = net->now;
	elec_core_timer(&n->c, id, net->now);
}

/* one delivery or one timer; false when nothing is left up to @until */
static inline bool t_net_step(struct t_net *net, u64 until)
{
	u32 idx, id;

	if (net->timers_first && t_net_next_timer(net, net->now, &idx, &id)) {
		t_net_fire(net, idx, id);
		return true;
	}
	if (net->q_len) {
		t_net_deliver(net);
		return true;
	}
	if (!t_net_next_timer(net, until, &idx, &id)) {
		if (until > net->now)
			net->now = until;
		return false;
	}
	t_net_fire(net, idx, id);
	return true;
}

/* deliver and fire until nothing is left up to @until */
static inline void t_net_run(struct t_net *net, u64 until)
{
	u32 steps = 0;

	while (t_net_step(net, until)) {
		if (++steps > T_NET_MAX_STEPS) {
			KUNIT_FAIL(net->test, "network does not settle");
			return;
		}
	}
	KUNIT_EXPECT_EQ(net->test, net->overflow, 0);
	KUNIT_EXPECT_EQ(net->test, net->bad, 0);
}

static inline void t_net_run_for(struct t_net *net, u64 ns)
{
	t_net_run(net, net->now + ns);
}

/* deliver what is in flight now, firing no timer that is not due */
static inline void t_net_drain(struct t_net *net)
{
	t_net_run(net, net->now);
}

/*
 * Set up @net (zeroed, possibly inside a suite's own structure) with one
 * node per id of @ids, each made by @init; none is started yet.
 */
static inline void t_net_init(struct t_net *net, struct kunit *test,
			      const u32 *ids, u32 nr,
			      void (*init)(struct t_net *net, struct t_node *n,
					   u32 id))
{
	u32 i;

	KUNIT_ASSERT_LE(test, nr, T_MAX_NODES);
	net->q = kunit_kzalloc(test, T_NET_QLEN * sizeof(*net->q),
			       GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, net->q);
	net->test = test;
	net->init = init;
	memcpy(net->ids, ids, nr * sizeof(ids[0]));
	net->n = nr;
	net->now = T_START;
	for (i = 0; i < nr; i++) {
		struct t_node *n = kunit_kzalloc(test, sizeof(*n), GFP_KERNEL);

		KUNIT_ASSERT_NOT_NULL(test, n);
		n->test = test;
		n->now = net->now;
		n->net = net;
		n->net_send = t_net_hook;
		n->idx = i;
		n->up = true;
		init(net, n, ids[i]);
		net->node[i] = n;
	}
}

static inline void t_net_start_all(struct t_net *net)
{
	u32 i;

	for (i = 0; i < net->n; i++) {
		net->node[i]->now = net->now;
		elec_core_start(&net->node[i]->c, net->now);
	}
}

static inline struct t_node *t_net_node(struct t_net *net, u32 id)
{
	struct t_node *n = t_net_find(net, id);

	KUNIT_ASSERT_NOT_NULL(net->test, n);
	return n;
}

/* a silent crash: the node neither sends, receives nor times out */
static inline void t_net_crash(struct t_net *net, u32 id)
{
	t_net_node(net, id)->up = false;
}

/* back with a fresh instance (as after a reboot), started */
static inline void t_net_reboot(struct t_net *net, u32 id)
{
	struct t_node *n = t_net_node(net, id);

	n->up = true;
	n->now = net->now;
	net->init(net, n, id);
	elec_core_start(&n->c, net->now);
}

/* the link goes down (instance stopped) and comes back (started) */
static inline void t_net_flap(struct t_net *net, u32 id, u64 down_ns)
{
	struct t_node *n = t_net_node(net, id);

	elec_core_stop(&n->c, net->now);
	t_net_run_for(net, down_ns);
	elec_core_start(&n->c, net->now);
}

/* cut (or mend) every link between the ids below @below and the others */
static inline void t_net_partition(struct t_net *net, u32 below, bool cut)
{
	u32 i, j;

	for (i = 0; i < net->n; i++) {
		bool low_i = net->node[i]->c.cfg.self_id < below;

		for (j = 0; j < net->n; j++) {
			bool low_j = net->node[j]->c.cfg.self_id < below;

			if (low_i != low_j)
				net->cut[i][j] = cut;
		}
	}
}

/* the highest id of a node that is up and running */
static inline u32 t_net_highest_up(struct t_net *net)
{
	u32 i, best = 0;

	for (i = 0; i < net->n; i++)
		if (net->node[i]->up && net->node[i]->c.running &&
		    net->node[i]->c.cfg.self_id > best)
			best = net->node[i]->c.cfg.self_id;
	return best;
}

/* every live node agrees on @want, in one term, and is not electing */
static inline void t_net_expect_agree(struct t_net *net, u32 want)
{
	struct kunit *test = net->test;
	struct t_node *l = t_net_node(net, want);
	u32 i;

	for (i = 0; i < net->n; i++) {
		struct t_node *n = net->node[i];
		u32 id = n->c.cfg.self_id;

		if (!n->up || !n->c.running)
			continue;
		KUNIT_EXPECT_EQ_MSG(test, n->c.leader, want, "node %u", id);
		KUNIT_EXPECT_EQ_MSG(test, n->c.term, l->c.term, "node %u", id);
		KUNIT_EXPECT_FALSE_MSG(test, n->c.participant, "node %u", id);
		KUNIT_EXPECT_EQ_MSG(test, n->c.role, id == want ?
				    ELEC_ROLE_LEADER : ELEC_ROLE_FOLLOWER,
				    "node %u", id);
	}
}

/* frames of wire type @type the nodes counted as sent */
static inline u64 t_net_sum_tx(struct t_net *net, u8 type)
{
	u64 sum = 0;
	u32 i;

	for (i = 0; i < net->n; i++)
		sum += net->node[i]->c.stats.tx[type];
	return sum;
}

static inline u64 t_net_sum_elections(struct t_net *net)
{
	u64 sum = 0;
	u32 i;

	for (i = 0; i < net->n; i++)
		sum += net->node[i]->c.stats.elections;
	return sum;
}

/**
 * struct t_opt_net - a network whose nodes, rebooted ones too, run with
 *	the same options.
 * @net: the network
 * @node_init: the suite's set-up of node @n as @self among @ids
 * @ask_off: ask-suspect off
 * @preempt_off: preempt off
 * @delay: preempt-delay, ns
 * @hb: hb-interval, ns (0: as @node_init sets it)
 */
struct t_opt_net {
	struct t_net net;
	void (*node_init)(struct t_node *n, u32 self, const u32 *ids, u32 nr);
	bool ask_off;
	bool preempt_off;
	u64 delay;
	u64 hb;
};

static inline void t_opt_net_node_init(struct t_net *net, struct t_node *n,
				       u32 id)
{
	struct t_opt_net *o = container_of(net, struct t_opt_net, net);
	struct elec_config cfg;

	o->node_init(n, id, net->ids, net->n);
	t_opts(n, o->ask_off, o->preempt_off, o->delay);
	if (o->hb) {
		cfg = n->c.cfg;
		cfg.hb_interval_ns = o->hb;
		KUNIT_ASSERT_EQ(n->test,
				elec_core_set_config(&n->c, &cfg, NULL), 0);
	}
}

/* a network of @nr nodes (@ids) made by @node_init, with the options */
static inline struct t_opt_net *
t_opt_net_new(struct kunit *test, const u32 *ids, u32 nr,
	      void (*node_init)(struct t_node *n, u32 self, const u32 *ids,
				u32 nr),
	      bool ask_off, bool preempt_off, u64 delay, u64 hb)
{
	struct t_opt_net *o = kunit_kzalloc(test, sizeof(*o), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, o);
	o->node_init = node_init;
	o->ask_off = ask_off;
	o->preempt_off = preempt_off;
	o->delay = delay;
	o->hb = hb;
	t_net_init(&o->net, test, ids, nr, t_opt_net_node_init);
	return o;
}

/**
 * struct t_rand_net - a family's network for t_net_random().
 * @ids: the ids of its eight nodes
 * @node_init: the family's node set-up
 * @leader: the family's leader of the live ids, preempt on
 */
struct t_rand_net {
	u32 ids[8];
	void (*node_init)(struct t_node *n, u32 self, const u32 *ids, u32 nr);
	u32 (*leader)(struct t_net *net);
};

/*
 * Random crashes, resignations, reboots, flaps and elect commands from
 * @seed, on @r's network with the options; after each, every live node
 * agrees on one leader: @r->leader(), with preempt off the one that node
 * follows.
 */
static inline void t_net_random(struct kunit *test, const struct t_rand_net *r,
				bool ask_off, bool preempt_off, u64 delay,
				u32 seed)
{
	struct t_net *net = &t_opt_net_new(test, r->ids, ARRAY_SIZE(r->ids),
					   r->node_init, ask_off, preempt_off,
					   delay, 0)->net;
	u32 round, up, i, want;

	t_net_start_all(net);
	t_net_run_for(net, 1000000000ULL);
	t_net_expect_agree(net, r->leader(net));
	for (round = 0; round < 40; round++) {
		struct t_node *n = net->node[t_rand(&seed) % net->n];
		u32 id = n->c.cfg.self_id;

		for (up = 0, i = 0; i < net->n; i++)
			up += net->node[i]->up;
		switch (t_rand(&seed) % 5) {
		case 0:
			if (n->up && up > 1)
				t_net_crash(net, id);
			else if (!n->up)
				t_net_reboot(net, id);
			break;
		case 1:
			if (!n->up)
				t_net_reboot(net, id);
			break;
		case 2:
			if (n->up)
				t_net_flap(net, id,
					   (t_rand(&seed) % 200) * 1000000ULL);
			break;
		case 3:
			/* a planned stop: resign (if leading), down, back */
			if (n->up) {
				elec_core_resign(&n->c, net->now);
				t_net_flap(net, id,
					   (t_rand(&seed) % 200) * 1000000ULL);
			}
			break;
		default:
			if (n->up)
				elec_core_elect(&n->c, net->now);
			break;
		}
		t_net_run_for(net, 2000000000ULL);
		want = r->leader(net);
		if (preempt_off)
			want = t_net_node(net, want)->c.leader;
		KUNIT_EXPECT_NE_MSG(test, want, 0, "round %u", round);
		if (!want)
			return;
		t_net_expect_agree(net, want);
	}
}

#endif /* _ELEC_KUNIT_NET_H */
