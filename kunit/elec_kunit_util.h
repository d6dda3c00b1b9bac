/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the KUnit suites of kunit/ share: one protocol-core instance whose
 * sink records every action it emits (with a copy of each sent payload,
 * which is valid only during the sink call), and the queries the cases
 * make on that recording.
 *
 * Everything here is static: kunit/Kbuild links all suites into one
 * object and tests/core builds them into one program, so a suite file
 * defines no global symbol. The file is staged and compiled with the
 * suites (kunit/run stages kunit's headers too; tests/core's HDRS lists
 * them).
 */
#ifndef _ELEC_KUNIT_UTIL_H
#define _ELEC_KUNIT_UTIL_H

#include <kunit/test.h>
#include "core.h"

#define T_GROUP		7
#define T_HB		20000000ULL	/* hb-interval: 20 ms */
#define T_MISS		3
#define T_T		10000000ULL	/* T: 10 ms */
#define T_COORD		(ELECTION_DEF_COORD_TIMEOUT_MULT * T_T)
#define T_DETECT	(T_HB * T_MISS)
#define T_START		1000000000ULL	/* standalone nodes start at 1 s */
#define T_ANY		0xffffffffU
#define T_MAX_NODES	16
#define T_MAX_ACTS	256
#define T_PL_BYTES	8192		/* payload copies of recorded sends */

#define T_BIT(id)	(1U << (id))

/**
 * struct t_node - one instance with a recording sink.
 * @test: the running case
 * @c: the instance
 * @peers: its peer table
 * @auth_rx: its per-peer replay state, when authentication is on
 * @acts: the actions emitted since the last t_clear(), in order
 * @n_acts: entries in @acts
 * @acts_lost: actions (or payload copies) that did not fit
 * @pl: copies of the payloads of the SEND actions in @acts
 * @pl_len: bytes used in @pl
 * @now: the node's clock, passed with every input
 * @net_send: if set, called with every SEND action (an in-test network)
 * @net: the network's own data
 * @idx: the node's index in the network
 * @up: in a network: the node runs (false: crashed)
 * @est: estimates of the peers, for a suite that gives them
 *	(elec_core_set_est())
 * @verified: MAC checks the core asked for (t_verify(), a suite's sink)
 * @bad_mac: t_verify() says the MAC fails
 */
struct t_node {
	struct kunit *test;
	struct elec_core c;
	struct elec_peer peers[T_MAX_NODES];
	struct elec_auth_peer auth_rx[T_MAX_NODES];
	struct elec_action acts[T_MAX_ACTS];
	u32 n_acts;
	u32 acts_lost;
	u8 pl[T_PL_BYTES];
	u32 pl_len;
	u64 now;
	void (*net_send)(struct t_node *n, const struct elec_msg *msg);
	void *net;
	u32 idx;
	bool up;
	struct elec_peer_est est[T_MAX_NODES];
	u32 verified;
	bool bad_mac;
};

/* the embedder's MAC check (elec_sink.verify): counted, fails on demand */
static inline bool t_verify(void *ctx, const struct elec_msg *msg)
{
	struct t_node *n = ctx;

	(void)msg;
	n->verified++;
	return !n->bad_mac;
}

/* the sink: record @act, with a copy of a sent payload */
static inline void t_emit(void *ctx, const struct elec_action *act)
{
	struct t_node *n = ctx;
	struct elec_action *rec;
	u32 len;

	if (n->n_acts < T_MAX_ACTS) {
		rec = &n->acts[n->n_acts++];
		*rec = *act;
		len = act->kind == ELEC_ACT_SEND ? act->msg.payload_len : 0;
		if (len && n->pl_len + len <= T_PL_BYTES) {
			memcpy(n->pl + n->pl_len, act->msg.payload, len);
			rec->msg.payload = n->pl + n->pl_len;
			n->pl_len += len;
		} else if (len) {
			rec->msg.payload = NULL;
			n->acts_lost++;
		}
	} else {
		n->acts_lost++;
	}
	if (act->kind == ELEC_ACT_SEND && n->net_send)
		n->net_send(n, &act->msg);
}

static inline void t_clear(struct t_node *n)
{
	n->n_acts = 0;
	n->acts_lost = 0;
	n->pl_len = 0;
}

static inline const struct elec_action *t_act(struct t_node *n, u32 i)
{
	KUNIT_ASSERT_LT(n->test, i, n->n_acts);
	return &n->acts[i];
}

/* SEND actions of @type (0: any) to @dst (T_ANY: any) */
static inline u32 t_sends(const struct t_node *n, u8 type, u32 dst)
{
	u32 i, cnt = 0;

	for (i = 0; i < n->n_acts; i++) {
		const struct elec_action *a = &n->acts[i];

		if (a->kind != ELEC_ACT_SEND)
			continue;
		if ((!type || a->msg.type == type) &&
		    (dst == T_ANY || a->msg.dst == dst))
			cnt++;
	}
	return cnt;
}

/* the last frame of @type (0: any) sent since t_clear(); fails if none */
static inline const struct elec_action *t_sent(struct t_node *n, u8 type)
{
	const struct elec_action *a = NULL;
	u32 i;

	for (i = 0; i < n->n_acts; i++)
		if (n->acts[i].kind == ELEC_ACT_SEND &&
		    (!type || n->acts[i].msg.type == type))
			a = &n->acts[i];
	KUNIT_ASSERT_NOT_NULL(n->test, a);
	return a;
}

/* EVENT actions of @type concerning @peer (T_ANY: any) */
static inline u32 t_events(const struct t_node *n, u8 type, u32 peer)
{
	u32 i, cnt = 0;

	for (i = 0; i < n->n_acts; i++) {
		const struct elec_action *a = &n->acts[i];

		if (a->kind == ELEC_ACT_EVENT && a->event.type == type &&
		    (peer == T_ANY || a->event.peer == peer))
			cnt++;
	}
	return cnt;
}

static inline const struct elec_action *t_last_event(const struct t_node *n,
						     u8 type)
{
	u32 i;

	for (i = n->n_acts; i-- > 0;)
		if (n->acts[i].kind == ELEC_ACT_EVENT &&
		    n->acts[i].event.type == type)
			return &n->acts[i];
	return NULL;
}

static inline u32 t_kinds(const struct t_node *n, enum elec_action_kind kind,
			  int timer)
{
	u32 i, cnt = 0;

	for (i = 0; i < n->n_acts; i++)
		if (n->acts[i].kind == kind &&
		    (timer < 0 || n->acts[i].timer.id == timer))
			cnt++;
	return cnt;
}

static inline u32 t_arms(const struct t_node *n, int timer)
{
	return t_kinds(n, ELEC_ACT_TIMER_ARM, timer);
}

static inline u32 t_cancels(const struct t_node *n, int timer)
{
	return t_kinds(n, ELEC_ACT_TIMER_CANCEL, timer);
}

/* the last frame sent; the test fails if none was */
static inline const struct elec_action *t_last_send(struct kunit *test,
						    const struct t_node *n)
{
	u32 i;

	for (i = n->n_acts; i-- > 0;)
		if (n->acts[i].kind == ELEC_ACT_SEND)
			return &n->acts[i];
	KUNIT_FAIL(test, "no frame sent");
	return &n->acts[0];
}

/* expiry of the last ARM of @timer, 0 if none */
static inline u64 t_armed_at(const struct t_node *n, int timer)
{
	u32 i;

	for (i = n->n_acts; i-- > 0;)
		if (n->acts[i].kind == ELEC_ACT_TIMER_ARM &&
		    n->acts[i].timer.id == timer)
			return n->acts[i].timer.expires_ns;
	return 0;
}

/* which timers are armed, as a bit mask */
static inline u32 t_timers(const struct t_node *n)
{
	u32 i, mask = 0;

	for (i = 0; i < ELEC_TIMER_COUNT; i++)
		if (n->c.timer_expires[i])
			mask |= 1U << i;
	return mask;
}

/* the armed timer @id expires: advance the clock to it and deliver it */
static inline void t_fire(struct t_node *n, enum elec_timer_id id)
{
	KUNIT_ASSERT_NE(n->test, n->c.timer_expires[id], 0);
	n->now = n->c.timer_expires[id];
	elec_core_timer(&n->c, id, n->now);
}

/* the suites' configuration: test timings, group T_GROUP */
static inline void t_cfg_algo(struct elec_config *cfg, u8 algo, u32 self)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->self_id = self;
	cfg->group = T_GROUP;
	cfg->algo = algo;
	cfg->hb_interval_ns = T_HB;
	cfg->hb_miss = T_MISS;
	cfg->timeout_ns = T_T;
}

static inline void t_start(struct t_node *n)
{
	elec_core_start(&n->c, n->now);
}

/* a node of @test at T_START, its instance not set up yet */
static inline struct t_node *t_node_alloc(struct kunit *test)
{
	struct t_node *n = kunit_kzalloc(test, sizeof(*n), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, n);
	n->test = test;
	n->now = T_START;
	return n;
}

/*
 * (Re)initialise @n as the instance of @cfg, not started; its peers the
 * other ids of @ids, @mac_id's with link-layer address @mac.
 */
static inline void t_node_setup(struct t_node *n,
				const struct elec_config *cfg,
				const u32 *ids, u32 nr, u32 mac_id,
				const u8 *mac)
{
	struct kunit *test = n->test;
	struct elec_sink sink = { .emit = t_emit, .ctx = n };
	u32 i;

	KUNIT_ASSERT_EQ(test, elec_core_init(&n->c, cfg, n->peers,
					     T_MAX_NODES - 1, &sink), 0);
	for (i = 0; i < nr; i++)
		if (ids[i] != cfg->self_id)
			KUNIT_ASSERT_EQ(test,
					elec_core_peer_add(&n->c, ids[i],
							   ids[i] == mac_id ?
							   mac : NULL), 0);
	t_clear(n);
}

/* @n gets ask-suspect @ask_off, preempt @preempt_off, preempt-delay @delay */
static inline void t_opts(struct t_node *n, bool ask_off, bool preempt_off,
			  u64 delay)
{
	struct elec_config cfg = n->c.cfg;

	cfg.ask_suspect_off = ask_off;
	cfg.preempt_off = preempt_off;
	cfg.preempt_delay_ns = delay;
	KUNIT_ASSERT_EQ(n->test, elec_core_set_config(&n->c, &cfg, NULL), 0);
}

/* xorshift32: deterministic, the same sequence everywhere */
static inline u32 t_rand(u32 *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 17;
	*s ^= *s << 5;
	return *s;
}

#endif /* _ELEC_KUNIT_UTIL_H */
