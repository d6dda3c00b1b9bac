// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of min-bully (module/core/min_bully.c), the Bully variant of
 * Kabashi, Zeqiri and Zabeli in which the lowest id wins. The rules are
 * Documentation/protocol.rst's: "The Bully variants", "min-bully: the
 * lowest id wins", with "Terms (our addition)" and "Receive checks".
 *
 * Suite elec_min_bully. Unless a case says otherwise the group is
 * 3 5 9 12 20: the ids are not contiguous, the minimum (3) is not 1, the
 * second minimum is 5. Each case is named after the rule it checks:
 *  - tm_payload_*, tm_codec_*, tm_max_frame: COORDINATOR carries the
 *    coordinator's id (4 bytes, big-endian, non-zero), every other type
 *    is the bare header, ACK and the RETRY slot are invalid;
 *  - tm_join_*: joining: the minimum claims at once (preempt on, no
 *    delay), any other node (or the minimum with preemption off or
 *    delayed) broadcasts QUERY and listens for the detection window; only
 *    the leader answers CID (its heartbeats answer too); a QUERY
 *    unanswered within the window starts a run;
 *  - tm_second_*: the second minimum's run: step 1 (the probe of the
 *    silent leader, ask-suspect on) and step 2 (its claim);
 *  - tm_third_*, tm_named_*: any other node's run, steps 3 and 4 (the
 *    broadcast ELECTION, the wait, the COORDINATOR naming the lowest
 *    responder at the term it announced, marking the silent down), and the
 *    node named in a COORDINATOR;
 *  - tm_rx_election_*: the receivers of an ELECTION;
 *  - tm_coord_*: a COORDINATOR naming k: the term rule on (term, k), an
 *    unknown k, the checks on the sender;
 *  - tm_preempt_*, tm_rate_limit: step 6 is preemption (on, off, delay);
 *    claims triggered by frames are rate limited;
 *  - tm_stale_*: stale announcements are dropped and told, once per window;
 *  - tm_leaving_*: resignation;
 *  - tm_term_*: a claim takes max_term + 1; the far-behind rule;
 *  - tm_net_*: several instances on the in-test network of
 *    elec_kunit_net.h: exact frame counts of a failover (the second
 *    minimum detecting: 1 frame; the highest: n + 1), concurrent
 *    detection, a false suspicion, the minimum returning, resignation and
 *    random failures, after each of which every node agrees on the lowest
 *    live id.
 *
 * The file also compiles in userspace against the KUnit shim in
 * tests/core/shim, so tests/core's core-tests runs the same cases.
 */
#include "elec_kunit_net.h"
#include "elec_kunit_standby.h"
#include "bully.h"

#define TM_BURST	ELECTION_RX_ELECT_BURST
#define TM_FAR		ELECTION_TERM_MAX_AHEAD
#define TM_SEC		1000000000ULL

/* the minimum 3, the second minimum 5, then 9 12 20 */
static const u32 tm_ids[] = { 3, 5, 9, 12, 20 };
/* peer 12's configured address, and another */
static const u8 tm_mac12[ELEC_LLADDR_LEN] = { 2, 0, 0, 0, 0, 12 };
static const u8 tm_mac_bad[ELEC_LLADDR_LEN] = { 2, 0, 0, 0, 0, 99 };

static void tm_node_init(struct t_node *n, u32 self, const u32 *ids, u32 nr)
{
	struct elec_config cfg;

	t_cfg_algo(&cfg, ELEC_ALGO_MIN_BULLY, self);
	t_node_setup(n, &cfg, ids, nr, 12, tm_mac12);
}

static struct t_node *tm_node_ids(struct kunit *test, u32 self,
				  const u32 *ids, u32 nr)
{
	struct t_node *n = t_node_alloc(test);

	tm_node_init(n, self, ids, nr);
	return n;
}

/* node @self of tm_ids, not started */
static struct t_node *tm_node(struct kunit *test, u32 self)
{
	return tm_node_ids(test, self, tm_ids, ARRAY_SIZE(tm_ids));
}

/*
 * A min-bully frame from @src: a COORDINATOR names @k (the others carry
 * no payload); @mac is its link-layer source (NULL: not checked).
 */
static void tm_rx_mac(struct t_node *n, u8 type, u8 flags, u32 src, u32 dst,
		      u64 term, u32 k, const u8 *mac)
{
	u8 pl[ELECTION_COORD_LEN];
	struct elec_msg m;

	memset(&m, 0, sizeof(m));
	m.type = type;
	m.algo = ELEC_ALGO_MIN_BULLY;
	m.flags = flags;
	m.group = T_GROUP;
	m.src = src;
	m.dst = dst;
	m.term = term;
	m.src_lladdr = mac;
	if (type == ELEC_MSG_COORDINATOR) {
		elec_put32(pl, k);
		m.payload = pl;
		m.payload_len = sizeof(pl);
	}
	elec_core_rx(&n->c, &m, n->now);
}

/* a frame of @type from @src; a COORDINATOR names its sender */
static void tm_rx(struct t_node *n, u8 type, u32 src, u32 dst, u64 term)
{
	tm_rx_mac(n, type, 0, src, dst, term, src, NULL);
}

/* a COORDINATOR from @src naming @k */
static void tm_rx_coord(struct t_node *n, u32 src, u32 dst, u64 term, u32 k)
{
	tm_rx_mac(n, ELEC_MSG_COORDINATOR, 0, src, dst, term, k, NULL);
}

/* @src's HEARTBEAT flagged leaving, at @term */
static void tm_rx_leaving(struct t_node *n, u32 src, u64 term)
{
	tm_rx_mac(n, ELEC_MSG_HEARTBEAT, ELECTION_FLAG_LEAVING, src, 0, term,
		  src, NULL);
}

/* the coordinator a recorded COORDINATOR names */
static u32 tm_k(struct kunit *test, const struct elec_action *a)
{
	KUNIT_ASSERT_EQ(test, a->msg.type, ELEC_MSG_COORDINATOR);
	KUNIT_ASSERT_EQ(test, a->msg.payload_len, ELECTION_COORD_LEN);
	KUNIT_ASSERT_NOT_NULL(test, a->msg.payload);
	return elec_get32(a->msg.payload);
}

/* the one frame @n sent since t_clear(); the case fails unless one */
static const struct elec_action *tm_only(struct t_node *n)
{
	KUNIT_ASSERT_EQ(n->test, t_sends(n, 0, T_ANY), 1);
	return t_sent(n, 0);
}

/* the one frame sent is @type to @dst (0: broadcast) at @term */
static const struct elec_action *tm_expect_only(struct t_node *n, u8 type,
						u32 dst, u64 term)
{
	const struct elec_action *a = tm_only(n);
	struct kunit *test = n->test;

	KUNIT_EXPECT_EQ(test, a->msg.type, type);
	KUNIT_EXPECT_EQ(test, a->msg.dst, dst);
	KUNIT_EXPECT_EQ(test, a->msg.term, term);
	KUNIT_EXPECT_EQ(test, a->msg.src, n->c.cfg.self_id);
	KUNIT_EXPECT_EQ(test, a->msg.algo, ELEC_ALGO_MIN_BULLY);
	if (type != ELEC_MSG_COORDINATOR)
		KUNIT_EXPECT_EQ(test, a->msg.payload_len, 0);
	return a;
}

/* the one frame sent is a COORDINATOR to @dst naming @k at @term */
static void tm_expect_coord(struct t_node *n, u32 dst, u32 k, u64 term)
{
	const struct elec_action *a;

	a = tm_expect_only(n, ELEC_MSG_COORDINATOR, dst, term);
	KUNIT_EXPECT_EQ(n->test, tm_k(n->test, a), k);
}

/* @n leads at @term (and sends heartbeats), not in a run */
static void tm_expect_leads(struct t_node *n, u64 term)
{
	struct kunit *test = n->test;

	KUNIT_EXPECT_EQ(test, n->c.leader, n->c.cfg.self_id);
	KUNIT_EXPECT_EQ(test, n->c.term, term);
	KUNIT_EXPECT_EQ(test, n->c.role, ELEC_ROLE_LEADER);
	KUNIT_EXPECT_EQ(test, n->c.phase, ELEC_BULLY_LEADING);
	KUNIT_EXPECT_FALSE(test, n->c.participant);
	KUNIT_EXPECT_EQ(test, t_timers(n), T_BIT(ELEC_TIMER_HEARTBEAT));
	KUNIT_EXPECT_EQ(test, n->c.timer_expires[ELEC_TIMER_HEARTBEAT],
			n->now + T_HB);
}

/* step 2: @n claimed: one broadcast COORDINATOR naming itself at @term */
static void tm_expect_claim(struct t_node *n, u64 term)
{
	tm_expect_coord(n, 0, n->c.cfg.self_id, term);
	tm_expect_leads(n, term);
}

/* @n follows @leader at @term and watches it, not in a run */
static void tm_expect_follows(struct t_node *n, u32 leader, u64 term)
{
	struct kunit *test = n->test;

	KUNIT_EXPECT_EQ(test, n->c.leader, leader);
	KUNIT_EXPECT_EQ(test, n->c.term, term);
	KUNIT_EXPECT_EQ(test, n->c.role, ELEC_ROLE_FOLLOWER);
	KUNIT_EXPECT_EQ(test, n->c.phase, ELEC_BULLY_FOLLOWING);
	KUNIT_EXPECT_FALSE(test, n->c.participant);
	KUNIT_EXPECT_NE(test, n->c.timer_expires[ELEC_TIMER_DETECT], 0);
	KUNIT_EXPECT_EQ(test, n->c.timer_expires[ELEC_BULLY_TIMER_ANSWER], 0);
	KUNIT_EXPECT_EQ(test, n->c.timer_expires[ELEC_TIMER_HEARTBEAT], 0);
}

/* started and following @leader at @term, learnt from its CID */
static void tm_follow(struct t_node *n, u32 leader, u64 term)
{
	t_start(n);
	tm_rx(n, ELEC_MSG_CID, leader, n->c.cfg.self_id, term);
	KUNIT_ASSERT_EQ(n->test, n->c.phase, ELEC_BULLY_FOLLOWING);
	KUNIT_ASSERT_EQ(n->test, n->c.leader, leader);
	KUNIT_ASSERT_EQ(n->test, n->c.term, term);
	t_clear(n);
}

/* started and leading at @term, named by a peer's COORDINATOR */
static void tm_lead(struct t_node *n, u64 term)
{
	t_start(n);
	tm_rx_coord(n, n->c.peers[0].id, 0, term, n->c.cfg.self_id);
	KUNIT_ASSERT_EQ(n->test, n->c.role, ELEC_ROLE_LEADER);
	KUNIT_ASSERT_EQ(n->test, n->c.term, term);
	t_clear(n);
}

static bool tm_asked(struct t_node *n, u32 id)
{
	struct elec_peer *p = elec_core_peer_find(&n->c, id);

	KUNIT_ASSERT_NOT_NULL(n->test, p);
	return p->flags & ELEC_BULLY_ASKED;
}

static bool tm_alive(struct t_node *n, u32 id)
{
	struct elec_peer *p = elec_core_peer_find(&n->c, id);

	KUNIT_ASSERT_NOT_NULL(n->test, p);
	return p->alive;
}

/* the rate limit's allowance is used up */
static void tm_exhaust(struct t_node *n)
{
	n->c.elect_tat = n->now + T_COORD * TM_BURST;
}

/* ---- payloads ---------------------------------------------------------- */

/* a frame of algorithm @algo from 9 at term 7, encoded into @buf */
static size_t tm_encode(u8 *buf, size_t cap, u8 algo, u8 type, u8 flags,
			const u8 *pl, u16 len)
{
	struct elec_msg m;

	memset(&m, 0, sizeof(m));
	m.type = type;
	m.algo = algo;
	m.flags = flags;
	m.group = T_GROUP;
	m.src = 9;
	m.term = 7;
	m.payload = pl;
	m.payload_len = len;
	return elec_codec_encode(&m, buf, cap);
}

static enum elec_decode_result tm_decode(u8 type, u8 flags, const u8 *pl,
					 u16 len)
{
	u8 buf[ELECTION_HDR_LEN + 16];
	struct elec_msg m;
	size_t n;

	n = tm_encode(buf, sizeof(buf), ELEC_ALGO_MIN_BULLY, type, flags, pl,
		      len);
	if (!n)
		return ELEC_DECODE_COUNT;
	return elec_codec_decode(buf, n, &m);
}

/*
 * COORDINATOR's payload is the coordinator's id: exactly 4 bytes,
 * big-endian, non-zero; the core writes and reads it so.
 */
static void tm_payload_coordinator(struct kunit *test)
{
	static const u8 zero[8];
	static const u8 k12[8] = { 0, 0, 0, 12, 0, 0, 0, 12 };
	static const u32 ids[] = { 3, 0x0a0b0c0d };
	u8 buf[ELECTION_HDR_LEN + 8];
	const struct elec_action *a;
	struct t_node *n;
	struct elec_msg m;
	size_t len;

	KUNIT_EXPECT_EQ(test, tm_decode(ELEC_MSG_COORDINATOR, 0, k12, 4),
			ELEC_DECODE_OK);
	KUNIT_EXPECT_EQ(test, tm_decode(ELEC_MSG_COORDINATOR, 0, zero, 4),
			ELEC_DECODE_PAYLOAD);
	KUNIT_EXPECT_EQ(test, tm_decode(ELEC_MSG_COORDINATOR, 0, NULL, 0),
			ELEC_DECODE_PAYLOAD);
	KUNIT_EXPECT_EQ(test, tm_decode(ELEC_MSG_COORDINATOR, 0, k12, 3),
			ELEC_DECODE_PAYLOAD);
	KUNIT_EXPECT_EQ(test, tm_decode(ELEC_MSG_COORDINATOR, 0, k12, 5),
			ELEC_DECODE_PAYLOAD);
	KUNIT_EXPECT_EQ(test, tm_decode(ELEC_MSG_COORDINATOR, 0, k12, 8),
			ELEC_DECODE_PAYLOAD);
	/* only a heartbeat may carry LEAVING */
	KUNIT_EXPECT_EQ(test, tm_decode(ELEC_MSG_COORDINATOR,
					ELECTION_FLAG_LEAVING, k12, 4),
			ELEC_DECODE_FLAGS);
	/* the decoded payload points at the 4 bytes after the header */
	len = tm_encode(buf, sizeof(buf), ELEC_ALGO_MIN_BULLY,
			ELEC_MSG_COORDINATOR, 0, k12, 4);
	KUNIT_ASSERT_EQ(test, len, ELECTION_HDR_LEN + 4);
	KUNIT_ASSERT_EQ(test, elec_codec_decode(buf, len, &m), ELEC_DECODE_OK);
	KUNIT_EXPECT_EQ(test, m.payload_len, 4);
	KUNIT_EXPECT_PTR_EQ(test, m.payload, buf + ELECTION_HDR_LEN);

	/* big-endian both ways: an id whose four bytes differ */
	n = tm_node_ids(test, 0x0a0b0c0d, ids, 2);
	t_opts(n, false, true, 0);
	t_start(n);
	t_fire(n, ELEC_TIMER_DETECT);	/* QUERY unanswered: it claims */
	KUNIT_ASSERT_EQ(test, n->c.role, ELEC_ROLE_LEADER);
	a = t_last_send(test, n);
	KUNIT_ASSERT_EQ(test, a->msg.type, ELEC_MSG_COORDINATOR);
	KUNIT_ASSERT_EQ(test, a->msg.payload_len, 4);
	KUNIT_EXPECT_EQ(test, a->msg.payload[0], 0x0a);
	KUNIT_EXPECT_EQ(test, a->msg.payload[1], 0x0b);
	KUNIT_EXPECT_EQ(test, a->msg.payload[2], 0x0c);
	KUNIT_EXPECT_EQ(test, a->msg.payload[3], 0x0d);
	n = tm_node_ids(test, 3, ids, 2);
	t_opts(n, false, true, 0);
	t_start(n);
	tm_rx_coord(n, 0x0a0b0c0d, 0, 4, 0x0a0b0c0d);
	KUNIT_EXPECT_EQ(test, n->c.leader, 0x0a0b0c0d);
	KUNIT_EXPECT_EQ(test, n->c.stats.drops[ELEC_DROP_UNKNOWN_PEER], 0);
}

/*
 * Every other type is the bare header; ACK (a ring type) is malformed for
 * min-bully, and the RETRY counter slot is never a frame's type.
 */
static void tm_payload_others_empty(struct kunit *test)
{
	static const u8 types[] = { ELEC_MSG_ELECTION, ELEC_MSG_ANSWER,
				    ELEC_MSG_HEARTBEAT, ELEC_MSG_QUERY,
				    ELEC_MSG_CID };
	static const u8 k3[4] = { 0, 0, 0, 3 };
	struct t_node *n = tm_node(test, 9);
	struct elec_msg m;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(types); i++) {
		KUNIT_EXPECT_EQ_MSG(test, tm_decode(types[i], 0, NULL, 0),
				    ELEC_DECODE_OK, "type %u", types[i]);
		KUNIT_EXPECT_EQ_MSG(test, tm_decode(types[i], 0, k3, 4),
				    ELEC_DECODE_PAYLOAD, "type %u", types[i]);
		KUNIT_EXPECT_EQ_MSG(test, tm_decode(types[i], 0, k3, 1),
				    ELEC_DECODE_PAYLOAD, "type %u", types[i]);
	}
	KUNIT_EXPECT_EQ(test, tm_decode(ELEC_MSG_HEARTBEAT,
					ELECTION_FLAG_LEAVING, NULL, 0),
			ELEC_DECODE_OK);
	KUNIT_EXPECT_EQ(test, tm_decode(ELEC_MSG_QUERY, ELECTION_FLAG_LEAVING,
					NULL, 0), ELEC_DECODE_FLAGS);
	KUNIT_EXPECT_EQ(test, tm_decode(ELEC_MSG_ACK, 0, NULL, 0),
			ELEC_DECODE_PAYLOAD);
	KUNIT_EXPECT_EQ(test, tm_decode(ELEC_MSG_ACK, 0, k3, 4),
			ELEC_DECODE_PAYLOAD);
	KUNIT_EXPECT_EQ(test, tm_decode(ELEC_MSG_RETRY, 0, NULL, 0),
			ELEC_DECODE_TYPE);
	KUNIT_EXPECT_EQ(test, tm_decode(ELEC_MSG_MAX + 1, 0, NULL, 0),
			ELEC_DECODE_TYPE);

	/* a RETRY handed to the core anyway is malformed, nothing else */
	t_start(n);
	t_clear(n);
	memset(&m, 0, sizeof(m));
	m.type = ELEC_MSG_RETRY;
	m.algo = ELEC_ALGO_MIN_BULLY;
	m.group = T_GROUP;
	m.src = 3;
	elec_core_rx(&n->c, &m, n->now);
	KUNIT_EXPECT_EQ(test, n->c.stats.drops[ELEC_DROP_MALFORMED], 1);
	KUNIT_EXPECT_EQ(test, n->n_acts, 0);
}

/* encode, decode (algorithm min-bully), compare: @a survives unchanged */
static void tm_round_trip(struct kunit *test, const struct elec_action *a)
{
	u8 buf[ELECTION_HDR_LEN + ELECTION_COORD_LEN];
	struct elec_msg m;
	size_t len;

	len = elec_codec_encode(&a->msg, buf, sizeof(buf));
	KUNIT_ASSERT_EQ(test, len, ELECTION_HDR_LEN + a->msg.payload_len);
	KUNIT_ASSERT_EQ_MSG(test, elec_codec_decode(buf, len, &m),
			    ELEC_DECODE_OK, "type %u", a->msg.type);
	KUNIT_EXPECT_EQ(test, m.type, a->msg.type);
	KUNIT_EXPECT_EQ(test, m.algo, ELEC_ALGO_MIN_BULLY);
	KUNIT_EXPECT_EQ(test, m.flags, a->msg.flags);
	KUNIT_EXPECT_EQ(test, m.group, T_GROUP);
	KUNIT_EXPECT_EQ(test, m.src, a->msg.src);
	KUNIT_EXPECT_EQ(test, m.dst, a->msg.dst);
	KUNIT_EXPECT_EQ(test, m.term, a->msg.term);
	KUNIT_EXPECT_EQ(test, m.payload_len, a->msg.payload_len);
	if (m.payload_len == ELECTION_COORD_LEN) {
		KUNIT_EXPECT_EQ(test, elec_get32(m.payload),
				tm_k(test, a));
		/* plain Bully takes no COORDINATOR payload */
		buf[2] = ELEC_ALGO_BULLY;
		KUNIT_EXPECT_EQ(test, elec_codec_decode(buf, len, &m),
				ELEC_DECODE_PAYLOAD);
	}
}

static void tm_round_trip_all(struct kunit *test, struct t_node *n, u32 *seen)
{
	u32 i;

	for (i = 0; i < n->n_acts; i++) {
		if (n->acts[i].kind != ELEC_ACT_SEND)
			continue;
		*seen |= 1U << n->acts[i].msg.type;
		tm_round_trip(test, &n->acts[i]);
	}
	t_clear(n);
}

/* every frame the core sends decodes under min-bully to what it sent */
static void tm_codec_round_trip(struct kunit *test)
{
	struct t_node *l = tm_node(test, 3);
	struct t_node *n = tm_node(test, 12);
	u32 seen = 0;

	t_start(l);				/* COORDINATOR (claim) */
	t_fire(l, ELEC_TIMER_HEARTBEAT);	/* HEARTBEAT */
	tm_rx(l, ELEC_MSG_QUERY, 12, 0, 0);	/* CID */
	tm_rx(l, ELEC_MSG_ELECTION, 12, 0, 1);	/* COORDINATOR, unicast */
	elec_core_resign(&l->c, l->now);	/* HEARTBEAT, LEAVING */
	tm_round_trip_all(test, l, &seen);
	t_start(n);				/* QUERY */
	t_fire(n, ELEC_TIMER_DETECT);		/* ELECTION */
	tm_rx(n, ELEC_MSG_ELECTION, 20, 0, 0);	/* ANSWER */
	tm_round_trip_all(test, n, &seen);
	KUNIT_EXPECT_EQ(test, seen,
			T_BIT(ELEC_MSG_ELECTION) | T_BIT(ELEC_MSG_ANSWER) |
			T_BIT(ELEC_MSG_COORDINATOR) |
			T_BIT(ELEC_MSG_HEARTBEAT) | T_BIT(ELEC_MSG_QUERY) |
			T_BIT(ELEC_MSG_CID));
}

/*
 * the largest frame: the header and COORDINATOR's 4 bytes, any size; with
 * quorum on ALIVE's 12
 */
static void tm_max_frame(struct kunit *test)
{
	struct elec_config cfg;

	t_cfg_algo(&cfg, ELEC_ALGO_MIN_BULLY, 1);
	KUNIT_EXPECT_EQ(test, elec_config_max_frame(&cfg, 1),
			ELECTION_HDR_LEN + ELECTION_COORD_LEN);
	KUNIT_EXPECT_EQ(test, elec_config_max_frame(&cfg, 5),
			ELECTION_HDR_LEN + 4);
	KUNIT_EXPECT_EQ(test, elec_config_max_frame(&cfg, ELECTION_MAX_NODES),
			ELECTION_HDR_LEN + 4);
	cfg.quorum = true;
	KUNIT_EXPECT_EQ(test, elec_config_max_frame(&cfg, ELECTION_MAX_NODES),
			ELECTION_HDR_LEN + ELECTION_ALIVE_LEN);
}

/* ---- joining ----------------------------------------------------------- */

/*
 * Joining: the minimum, with preempt on and no delay, claims at once: one
 * broadcast COORDINATOR naming itself, at max_term + 1; it leads and
 * heartbeats every hb-interval at that term.
 */
static void tm_join_min_claims(struct kunit *test)
{
	struct t_node *n = tm_node(test, 3);

	t_start(n);
	tm_expect_claim(n, 1);
	KUNIT_EXPECT_FALSE(test, n->c.learning);
	KUNIT_EXPECT_EQ(test, n->c.stats.leader_changes, 1);
	KUNIT_EXPECT_EQ(test, t_events(n, ELEC_EVENT_LEADER_CHANGED, T_ANY),
			1);
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_QUERY, T_ANY), 0);

	t_clear(n);
	t_fire(n, ELEC_TIMER_HEARTBEAT);
	tm_expect_only(n, ELEC_MSG_HEARTBEAT, 0, 1);
	KUNIT_EXPECT_EQ(test, n->c.timer_expires[ELEC_TIMER_HEARTBEAT],
			n->now + T_HB);

	/* a restart keeps the term: the next claim is above it */
	elec_core_stop(&n->c, n->now);
	t_clear(n);
	t_start(n);
	tm_expect_claim(n, 2);
}

/*
 * Joining: the minimum with preempt off, or with a preempt-delay, joins
 * like the others (QUERY, the detection window); the window without a
 * CID: its run, in which it claims (step 2).
 */
static void tm_join_min_preempt_off_queries(struct kunit *test)
{
	u32 i;

	for (i = 0; i < 2; i++) {
		struct t_node *n = tm_node(test, 3);

		t_opts(n, false, i == 0, i == 0 ? 0 : 4 * T_HB);
		t_start(n);
		tm_expect_only(n, ELEC_MSG_QUERY, 0, 0);
		KUNIT_EXPECT_EQ(test, n->c.phase, ELEC_BULLY_LEARNING);
		KUNIT_EXPECT_EQ(test, n->c.leader, 0);
		KUNIT_EXPECT_EQ(test, t_timers(n), T_BIT(ELEC_TIMER_DETECT));
		KUNIT_EXPECT_EQ(test, n->c.timer_expires[ELEC_TIMER_DETECT],
				n->now + T_DETECT);
		t_clear(n);
		t_fire(n, ELEC_TIMER_DETECT);
		tm_expect_claim(n, 1);
		KUNIT_EXPECT_EQ(test, n->c.stats.elections, 1);
		KUNIT_EXPECT_EQ(test,
				t_events(n, ELEC_EVENT_ELECTION_STARTED, T_ANY),
				1);
	}
}

/*
 * Joining: any other node broadcasts QUERY (at its highest term seen) and
 * listens for the detection window (hb-interval x hb-miss, as Bully's
 * learning window); it sends nothing else.
 */
static void tm_join_query(struct kunit *test)
{
	struct t_node *n = tm_node(test, 9);

	t_start(n);
	tm_expect_only(n, ELEC_MSG_QUERY, 0, 0);
	KUNIT_EXPECT_EQ(test, n->c.phase, ELEC_BULLY_LEARNING);
	KUNIT_EXPECT_EQ(test, n->c.role, ELEC_ROLE_FOLLOWER);
	KUNIT_EXPECT_EQ(test, n->c.leader, 0);
	KUNIT_EXPECT_TRUE(test, n->c.learning);
	KUNIT_EXPECT_EQ(test, t_timers(n), T_BIT(ELEC_TIMER_DETECT));
	KUNIT_EXPECT_EQ(test, n->c.timer_expires[ELEC_TIMER_DETECT],
			n->now + T_DETECT);
	KUNIT_EXPECT_EQ(test, n->c.stats.elections, 0);

	/* a restarted node asks at the term it kept */
	n = tm_node(test, 9);
	tm_follow(n, 3, 6);
	elec_core_stop(&n->c, n->now);
	t_clear(n);
	t_start(n);
	tm_expect_only(n, ELEC_MSG_QUERY, 0, 6);
}

/*
 * Joining: only the leader answers a QUERY: CID, unicast to the joiner, at
 * its term, no payload. A follower, a learning node and a candidate do
 * not answer.
 */
static void tm_join_only_leader_answers(struct kunit *test)
{
	struct t_node *n = tm_node(test, 3);

	tm_lead(n, 4);
	tm_rx(n, ELEC_MSG_QUERY, 12, 0, 0);
	tm_expect_only(n, ELEC_MSG_CID, 12, 4);
	tm_expect_leads(n, 4);
	t_clear(n);
	tm_rx(n, ELEC_MSG_QUERY, 20, 0, 9);	/* a newer term: still its own */
	tm_expect_only(n, ELEC_MSG_CID, 20, 4);

	n = tm_node(test, 5);
	tm_follow(n, 3, 4);
	tm_rx(n, ELEC_MSG_QUERY, 12, 0, 0);
	KUNIT_EXPECT_EQ(test, n->n_acts, 0);

	n = tm_node(test, 9);
	t_start(n);
	t_clear(n);
	tm_rx(n, ELEC_MSG_QUERY, 12, 0, 0);
	KUNIT_EXPECT_EQ(test, n->n_acts, 0);

	n = tm_node(test, 12);
	tm_follow(n, 3, 4);
	t_fire(n, ELEC_TIMER_DETECT);
	KUNIT_ASSERT_TRUE(test, n->c.participant);
	t_clear(n);
	tm_rx(n, ELEC_MSG_QUERY, 20, 0, 0);
	KUNIT_EXPECT_EQ(test, t_sends(n, 0, T_ANY), 0);
}

/*
 * Joining: the joiner accepts a CID like an announcement, at any term
 * while it learns; then it follows the leader and watches it for the
 * detection window. A stale CID is dropped. The leader's heartbeat
 * answers a joiner too.
 */
static void tm_join_cid_accepted(struct kunit *test)
{
	struct t_node *n = tm_node(test, 9);
	u64 big = 5 * TM_FAR;

	t_start(n);
	t_clear(n);
	tm_rx(n, ELEC_MSG_CID, 3, 9, 6);
	KUNIT_EXPECT_EQ(test, t_sends(n, 0, T_ANY), 0);
	tm_expect_follows(n, 3, 6);
	KUNIT_EXPECT_EQ(test, n->c.timer_expires[ELEC_TIMER_DETECT],
			n->now + T_DETECT);
	KUNIT_EXPECT_EQ(test, t_timers(n), T_BIT(ELEC_TIMER_DETECT));
	KUNIT_EXPECT_FALSE(test, n->c.learning);
	KUNIT_EXPECT_EQ(test, n->c.stats.leader_changes, 1);
	KUNIT_EXPECT_EQ(test, n->c.stats.elections, 0);
	/* a stale CID (older term) is dropped */
	tm_rx(n, ELEC_MSG_CID, 5, 9, 2);
	KUNIT_EXPECT_EQ(test, n->c.leader, 3);
	KUNIT_EXPECT_EQ(test, n->c.stats.drops[ELEC_DROP_STALE_TERM], 1);

	/* learning: any term of a configured peer */
	n = tm_node(test, 12);
	t_start(n);
	tm_rx(n, ELEC_MSG_CID, 3, 12, big);
	tm_expect_follows(n, 3, big);
	KUNIT_EXPECT_EQ(test, n->c.stats.drops[ELEC_DROP_TERM_TOO_FAR], 0);
	/* no longer learning: too far is too far */
	tm_rx(n, ELEC_MSG_CID, 3, 12, 2 * big);
	KUNIT_EXPECT_EQ(test, n->c.term, big);
	KUNIT_EXPECT_EQ(test, n->c.stats.drops[ELEC_DROP_TERM_TOO_FAR], 1);

	/* a heartbeat (a lost QUERY or CID) */
	n = tm_node(test, 20);
	t_start(n);
	t_clear(n);
	n->now += T_HB;
	tm_rx(n, ELEC_MSG_HEARTBEAT, 3, 0, 6);
	KUNIT_EXPECT_EQ(test, t_sends(n, 0, T_ANY), 0);
	tm_expect_follows(n, 3, 6);
	KUNIT_EXPECT_EQ(test, n->c.timer_expires[ELEC_TIMER_DETECT],
			n->now + T_DETECT);
}

/*
 * Joining: a joiner better (lower) than the coordinator: with preempt on
 * it claims at once (step 6) at term + 1; with preempt off it follows;
 * with a preempt-delay it follows that long, then claims.
 */
static void tm_join_lower_than_coordinator(struct kunit *test)
{
	struct t_node *n = tm_node(test, 5);
	u64 at;

	t_start(n);
	t_clear(n);
	tm_rx(n, ELEC_MSG_CID, 9, 5, 4);
	tm_expect_claim(n, 5);
	KUNIT_EXPECT_EQ(test, n->c.stats.elections, 1);

	n = tm_node(test, 5);
	t_opts(n, false, true, 0);
	t_start(n);
	t_clear(n);
	tm_rx(n, ELEC_MSG_CID, 9, 5, 4);
	KUNIT_EXPECT_EQ(test, t_sends(n, 0, T_ANY), 0);
	tm_expect_follows(n, 9, 4);
	KUNIT_EXPECT_EQ(test, t_timers(n), T_BIT(ELEC_TIMER_DETECT));
	n->now += T_HB;
	tm_rx(n, ELEC_MSG_HEARTBEAT, 9, 0, 4);
	KUNIT_EXPECT_EQ(test, t_sends(n, 0, T_ANY), 0);
	KUNIT_EXPECT_EQ(test, n->c.stats.elections, 0);

	n = tm_node(test, 5);
	t_opts(n, false, false, 4 * T_HB);
	t_start(n);
	t_clear(n);
	tm_rx(n, ELEC_MSG_CID, 9, 5, 4);
	at = n->now + 4 * T_HB;
	KUNIT_EXPECT_EQ(test, t_sends(n, 0, T_ANY), 0);
	tm_expect_follows(n, 9, 4);
	KUNIT_EXPECT_EQ(test, n->c.timer_expires[ELEC_BULLY_TIMER_PREEMPT], at);
	n->now += T_HB;
	tm_rx(n, ELEC_MSG_HEARTBEAT, 9, 0, 4);
	KUNIT_EXPECT_EQ(test, n->c.timer_expires[ELEC_BULLY_TIMER_PREEMPT], at);
	KUNIT_EXPECT_EQ(test, t_sends(n, 0, T_ANY), 0);
	t_clear(n);
	t_fire(n, ELEC_BULLY_TIMER_PREEMPT);
	KUNIT_EXPECT_EQ(test, n->now, at);
	tm_expect_claim(n, 5);
	KUNIT_EXPECT_EQ(test, n->c.stats.elections, 1);
}

/*
 * Joining: a QUERY unanswered within the detection window starts a run: a
 * node that is not the (second) minimum broadcasts ELECTION and waits T
 * for the lower ids; the second minimum claims.
 */
static void tm_join_query_unanswered(struct kunit *test)
{
	struct t_node *n = tm_node(test, 9);

	t_start(n);
	t_clear(n);
	t_fire(n, ELEC_TIMER_DETECT);
	tm_expect_only(n, ELEC_MSG_ELECTION, 0, 0);
	KUNIT_EXPECT_EQ(test, n->c.stats.elections, 1);
	KUNIT_EXPECT_EQ(test, t_events(n, ELEC_EVENT_ELECTION_STARTED, T_ANY),
			1);
	KUNIT_EXPECT_TRUE(test, n->c.participant);
	KUNIT_EXPECT_EQ(test, n->c.role, ELEC_ROLE_CANDIDATE);
	KUNIT_EXPECT_EQ(test, n->c.phase, ELEC_BULLY_WAIT_ANSWER);
	KUNIT_EXPECT_EQ(test, t_timers(n), T_BIT(ELEC_BULLY_TIMER_ANSWER));
	KUNIT_EXPECT_EQ(test, n->c.timer_expires[ELEC_BULLY_TIMER_ANSWER],
			n->now + T_T);
	KUNIT_EXPECT_EQ(test, n->c.bully.suspect, 0);
	KUNIT_EXPECT_TRUE(test, tm_asked(n, 3));
	KUNIT_EXPECT_TRUE(test, tm_asked(n, 5));
	KUNIT_EXPECT_FALSE(test, tm_asked(n, 12));
	KUNIT_EXPECT_FALSE(test, tm_asked(n, 20));

	n = tm_node(test, 5);
	t_start(n);
	t_clear(n);
	t_fire(n, ELEC_TIMER_DETECT);
	tm_expect_claim(n, 1);
	KUNIT_EXPECT_EQ(test, n->c.stats.elections, 1);
}

/* ---- the second minimum's run ------------------------------------------ */

/*
 * Step 2 on detection, ask-suspect off: the second minimum declares the
 * silent leader failed and claims at once: one frame, max_term + 1.
 */
static void tm_second_detect_claims(struct kunit *test)
{
	struct t_node *n = tm_node(test, 5);

	t_opts(n, true, false, 0);
	tm_follow(n, 3, 2);
	t_fire(n, ELEC_TIMER_DETECT);
	tm_expect_claim(n, 3);
	KUNIT_EXPECT_EQ(test, t_events(n, ELEC_EVENT_PEER_DOWN, 3), 1);
	KUNIT_EXPECT_FALSE(test, tm_alive(n, 3));
	KUNIT_EXPECT_EQ(test, n->c.stats.elections, 1);
	KUNIT_EXPECT_EQ(test, n->c.stats.leader_changes, 2);
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_ELECTION, T_ANY), 0);
}

/*
 * Step 1, ask-suspect on: the second minimum first probes the silent
 * leader alone (unicast ELECTION) and waits T; the late leader's unicast
 * COORDINATOR at its term ends the run with it: no new term, no leader
 * change counted.
 */
static void tm_second_detect_probe(struct kunit *test)
{
	struct t_node *n = tm_node(test, 5);
	u64 changes;

	tm_follow(n, 3, 2);
	changes = n->c.stats.leader_changes;
	t_fire(n, ELEC_TIMER_DETECT);
	tm_expect_only(n, ELEC_MSG_ELECTION, 3, 2);
	KUNIT_EXPECT_TRUE(test, n->c.bully.probing);
	KUNIT_EXPECT_EQ(test, n->c.bully.suspect, 3);
	KUNIT_EXPECT_EQ(test, n->c.leader, 0);
	KUNIT_EXPECT_EQ(test, n->c.role, ELEC_ROLE_CANDIDATE);
	KUNIT_EXPECT_EQ(test, n->c.phase, ELEC_BULLY_WAIT_ANSWER);
	KUNIT_EXPECT_EQ(test, t_timers(n), T_BIT(ELEC_BULLY_TIMER_ANSWER));
	KUNIT_EXPECT_EQ(test, n->c.timer_expires[ELEC_BULLY_TIMER_ANSWER],
			n->now + T_T);
	KUNIT_EXPECT_EQ(test, t_events(n, ELEC_EVENT_PEER_DOWN, 3), 1);

	t_clear(n);
	n->now += T_T / 2;
	tm_rx_coord(n, 3, 5, 2, 3);
	KUNIT_EXPECT_EQ(test, t_sends(n, 0, T_ANY), 0);
	tm_expect_follows(n, 3, 2);
	KUNIT_EXPECT_FALSE(test, n->c.bully.probing);
	KUNIT_EXPECT_EQ(test, n->c.max_term, 2);
	KUNIT_EXPECT_EQ(test, n->c.stats.leader_changes, changes);
	KUNIT_EXPECT_EQ(test, t_events(n, ELEC_EVENT_PEER_UP, 3), 1);
	KUNIT_EXPECT_EQ(test, n->c.stats.elections, 1);
}

/* Step 1 then step 2: T without the leader's answer: the second claims. */
static void tm_second_probe_timeout(struct kunit *test)
{
	struct t_node *n = tm_node(test, 5);

	tm_follow(n, 3, 2);
	t_fire(n, ELEC_TIMER_DETECT);
	t_clear(n);
	t_fire(n, ELEC_BULLY_TIMER_ANSWER);
	tm_expect_claim(n, 3);
	KUNIT_EXPECT_FALSE(test, tm_alive(n, 3));
	KUNIT_EXPECT_EQ(test, n->c.stats.elections, 1);
	/* one run: no second election_started */
	KUNIT_EXPECT_EQ(test, t_events(n, ELEC_EVENT_ELECTION_STARTED, T_ANY),
			0);
}

/* ---- any other node's run (steps 3, 4) -------------------------------- */

/*
 * Step 3: a third (or higher) node broadcasts ELECTION (at its highest
 * term seen) and waits for the lower peers it believes alive, the silent
 * leader excepted; with ask-suspect on after the probe's T.
 */
static void tm_third_detect_broadcast(struct kunit *test)
{
	struct t_node *n = tm_node(test, 12);

	t_opts(n, true, false, 0);
	tm_follow(n, 3, 2);
	t_fire(n, ELEC_TIMER_DETECT);
	tm_expect_only(n, ELEC_MSG_ELECTION, 0, 2);
	KUNIT_EXPECT_EQ(test, n->c.bully.suspect, 3);
	KUNIT_EXPECT_FALSE(test, tm_asked(n, 3));
	KUNIT_EXPECT_TRUE(test, tm_asked(n, 5));
	KUNIT_EXPECT_TRUE(test, tm_asked(n, 9));
	KUNIT_EXPECT_FALSE(test, tm_asked(n, 20));
	KUNIT_EXPECT_EQ(test, n->c.phase, ELEC_BULLY_WAIT_ANSWER);
	KUNIT_EXPECT_TRUE(test, n->c.participant);
	KUNIT_EXPECT_EQ(test, n->c.leader, 0);
	KUNIT_EXPECT_EQ(test, t_timers(n), T_BIT(ELEC_BULLY_TIMER_ANSWER));
	KUNIT_EXPECT_EQ(test, n->c.timer_expires[ELEC_BULLY_TIMER_ANSWER],
			n->now + T_T);

	/* ask-suspect on: the probe, then after T the broadcast */
	n = tm_node(test, 12);
	tm_follow(n, 3, 2);
	t_fire(n, ELEC_TIMER_DETECT);
	tm_expect_only(n, ELEC_MSG_ELECTION, 3, 2);
	t_clear(n);
	t_fire(n, ELEC_BULLY_TIMER_ANSWER);
	tm_expect_only(n, ELEC_MSG_ELECTION, 0, 2);
	KUNIT_EXPECT_FALSE(test, n->c.bully.probing);
	KUNIT_EXPECT_FALSE(test, tm_asked(n, 3));
	KUNIT_EXPECT_TRUE(test, tm_asked(n, 5));
	KUNIT_EXPECT_TRUE(test, tm_asked(n, 9));
	KUNIT_EXPECT_EQ(test, n->c.timer_expires[ELEC_BULLY_TIMER_ANSWER],
			n->now + T_T);
	KUNIT_EXPECT_EQ(test, t_events(n, ELEC_EVENT_ELECTION_STARTED, T_ANY),
			0);
	KUNIT_EXPECT_EQ(test, n->c.stats.elections, 1);
}

/* 12, ask-suspect off, following 3 at term 2, has broadcast ELECTION */
static struct t_node *tm_third_running(struct kunit *test)
{
	struct t_node *n = tm_node(test, 12);

	t_opts(n, true, false, 0);
	tm_follow(n, 3, 2);
	t_fire(n, ELEC_TIMER_DETECT);
	KUNIT_ASSERT_EQ(test, n->c.phase, ELEC_BULLY_WAIT_ANSWER);
	t_clear(n);
	return n;
}

/*
 * Steps 3, 4: all awaited responded: the run ends at once; the second
 * minimum's claim is its response, and the initiator names it at the
 * term it announced itself with (no second new term) and follows it.
 */
static void tm_third_finish_early(struct kunit *test)
{
	struct t_node *n = tm_third_running(test);

	tm_rx(n, ELEC_MSG_ANSWER, 9, 12, 2);
	KUNIT_EXPECT_EQ(test, n->n_acts, 0);
	KUNIT_EXPECT_EQ(test, n->c.phase, ELEC_BULLY_WAIT_ANSWER);
	tm_rx_coord(n, 5, 0, 3, 5);
	tm_expect_coord(n, 0, 5, 3);
	tm_expect_follows(n, 5, 3);
	KUNIT_EXPECT_EQ(test, n->c.max_term, 3);
	KUNIT_EXPECT_EQ(test, t_timers(n), T_BIT(ELEC_TIMER_DETECT));

	/* the other order: the claim first, then the last OK */
	n = tm_third_running(test);
	tm_rx_coord(n, 5, 0, 3, 5);
	KUNIT_EXPECT_EQ(test, n->n_acts, 0);
	KUNIT_EXPECT_EQ(test, n->c.leader, 0);
	tm_rx(n, ELEC_MSG_ANSWER, 9, 12, 3);
	tm_expect_coord(n, 0, 5, 3);
	tm_expect_follows(n, 5, 3);
}

/*
 * Step 4: every lower peer answered OK: the lowest responder is named at
 * a new term (max_term + 1), since it did not announce itself.
 */
static void tm_third_all_ok(struct kunit *test)
{
	struct t_node *n = tm_third_running(test);

	tm_rx(n, ELEC_MSG_ANSWER, 5, 12, 2);
	KUNIT_EXPECT_EQ(test, n->n_acts, 0);
	tm_rx(n, ELEC_MSG_ANSWER, 9, 12, 2);
	tm_expect_coord(n, 0, 5, 3);
	tm_expect_follows(n, 5, 3);
	KUNIT_EXPECT_EQ(test, t_events(n, ELEC_EVENT_PEER_DOWN, T_ANY), 0);
}

/*
 * Steps 3, 4: T with some responses: the silent lower peers are marked
 * down (peer_down), the lowest responder named at a new term.
 */
static void tm_third_timeout_names_responder(struct kunit *test)
{
	struct t_node *n = tm_third_running(test);

	tm_rx(n, ELEC_MSG_ANSWER, 9, 12, 2);
	t_clear(n);
	t_fire(n, ELEC_BULLY_TIMER_ANSWER);
	KUNIT_EXPECT_EQ(test, t_events(n, ELEC_EVENT_PEER_DOWN, 5), 1);
	KUNIT_EXPECT_EQ(test, t_events(n, ELEC_EVENT_PEER_DOWN, T_ANY), 1);
	KUNIT_EXPECT_FALSE(test, tm_alive(n, 5));
	KUNIT_EXPECT_TRUE(test, tm_alive(n, 9));
	tm_expect_coord(n, 0, 9, 3);
	tm_expect_follows(n, 9, 3);
}

/* Step 4: no response within T: the lower peers marked down, it claims. */
static void tm_third_no_response_claims(struct kunit *test)
{
	struct t_node *n = tm_third_running(test);

	t_fire(n, ELEC_BULLY_TIMER_ANSWER);
	KUNIT_EXPECT_EQ(test, t_events(n, ELEC_EVENT_PEER_DOWN, 5), 1);
	KUNIT_EXPECT_EQ(test, t_events(n, ELEC_EVENT_PEER_DOWN, 9), 1);
	tm_expect_claim(n, 3);
	KUNIT_EXPECT_EQ(test, n->c.stats.elections, 1);
}

/*
 * Step 3: only the lower peers believed alive are awaited (a peer
 * declared down is not); a higher id's OK is no response; with nobody
 * to await the run still waits T (it finishes early only after at least
 * one response), and a response then ends it.
 */
static void tm_third_awaits_alive_only(struct kunit *test)
{
	struct t_node *n = tm_node(test, 12);

	t_opts(n, true, false, 0);
	tm_follow(n, 3, 2);
	elec_core_peer_set_alive(&n->c, elec_core_peer_find(&n->c, 9), false,
				 n->now);
	t_fire(n, ELEC_TIMER_DETECT);
	KUNIT_EXPECT_FALSE(test, tm_asked(n, 9));
	KUNIT_EXPECT_TRUE(test, tm_asked(n, 5));
	t_clear(n);
	tm_rx(n, ELEC_MSG_ANSWER, 20, 12, 2);
	KUNIT_EXPECT_EQ(test, n->n_acts, 0);
	KUNIT_EXPECT_EQ(test, n->c.bully.run_best, 0);
	tm_rx(n, ELEC_MSG_ANSWER, 5, 12, 2);
	tm_expect_coord(n, 0, 5, 3);
	tm_expect_follows(n, 5, 3);

	/* 9 with 5 down: nobody to await, yet it waits */
	n = tm_node(test, 9);
	t_opts(n, true, false, 0);
	tm_follow(n, 3, 2);
	elec_core_peer_set_alive(&n->c, elec_core_peer_find(&n->c, 5), false,
				 n->now);
	t_fire(n, ELEC_TIMER_DETECT);
	tm_expect_only(n, ELEC_MSG_ELECTION, 0, 2);
	KUNIT_EXPECT_EQ(test, n->c.phase, ELEC_BULLY_WAIT_ANSWER);
	KUNIT_EXPECT_EQ(test, t_timers(n), T_BIT(ELEC_BULLY_TIMER_ANSWER));
	t_clear(n);
	tm_rx(n, ELEC_MSG_ANSWER, 5, 9, 2);
	KUNIT_EXPECT_EQ(test, t_events(n, ELEC_EVENT_PEER_UP, 5), 1);
	tm_expect_coord(n, 0, 5, 3);
	tm_expect_follows(n, 5, 3);
}

/*
 * Step 4: a node named in a COORDINATOR (k is the local id) becomes the
 * leader at that term and heartbeats; it does not announce again. Also
 * when it was itself waiting in a run.
 */
static void tm_named_becomes_leader(struct kunit *test)
{
	struct t_node *n = tm_node(test, 9);

	tm_follow(n, 3, 2);
	tm_rx_coord(n, 12, 0, 3, 9);
	KUNIT_EXPECT_EQ(test, t_sends(n, 0, T_ANY), 0);
	tm_expect_leads(n, 3);
	KUNIT_EXPECT_EQ(test, n->c.stats.elections, 0);
	t_clear(n);
	t_fire(n, ELEC_TIMER_HEARTBEAT);
	tm_expect_only(n, ELEC_MSG_HEARTBEAT, 0, 3);
	/* the same announcement again changes nothing */
	t_clear(n);
	tm_rx_coord(n, 20, 0, 3, 9);
	KUNIT_EXPECT_EQ(test, n->n_acts, 0);

	n = tm_node(test, 9);
	t_opts(n, true, false, 0);
	tm_follow(n, 3, 2);
	t_fire(n, ELEC_TIMER_DETECT);
	KUNIT_ASSERT_EQ(test, n->c.phase, ELEC_BULLY_WAIT_ANSWER);
	t_clear(n);
	tm_rx_coord(n, 20, 0, 3, 9);
	KUNIT_EXPECT_EQ(test, t_sends(n, 0, T_ANY), 0);
	tm_expect_leads(n, 3);
}

/* ---- receivers of an ELECTION ------------------------------------------ */

/* An ELECTION from a lower id is ignored (by followers and candidates). */
static void tm_rx_election_from_lower_ignored(struct kunit *test)
{
	struct t_node *n = tm_node(test, 9);

	tm_follow(n, 3, 2);
	tm_rx(n, ELEC_MSG_ELECTION, 5, 0, 2);
	KUNIT_EXPECT_EQ(test, n->n_acts, 0);
	KUNIT_EXPECT_EQ(test, n->c.leader, 3);
	n->now += T_DETECT;	/* untrusted leader: still nothing */
	tm_rx(n, ELEC_MSG_ELECTION, 5, 0, 2);
	KUNIT_EXPECT_EQ(test, n->n_acts, 0);

	n = tm_third_running(test);
	tm_rx(n, ELEC_MSG_ELECTION, 9, 0, 2);
	KUNIT_EXPECT_EQ(test, n->n_acts, 0);
	KUNIT_EXPECT_EQ(test, n->c.phase, ELEC_BULLY_WAIT_ANSWER);
}

/*
 * An ELECTION from a higher id: a node that is not the (second) minimum
 * answers OK, unicast, at its highest term seen, and begins no run of
 * its own, trusting its leader or not, following or in a run.
 */
static void tm_rx_election_from_higher_ok(struct kunit *test)
{
	struct t_node *n = tm_node(test, 9);

	tm_follow(n, 3, 2);
	n->now += T_HB;
	tm_rx(n, ELEC_MSG_ELECTION, 12, 0, 2);
	tm_expect_only(n, ELEC_MSG_ANSWER, 12, 2);
	KUNIT_EXPECT_EQ(test, n->c.leader, 3);
	KUNIT_EXPECT_FALSE(test, n->c.participant);
	n->now += T_DETECT;
	t_clear(n);
	tm_rx(n, ELEC_MSG_ELECTION, 20, 0, 2);
	tm_expect_only(n, ELEC_MSG_ANSWER, 20, 2);
	KUNIT_EXPECT_EQ(test, n->c.stats.elections, 0);

	n = tm_third_running(test);
	tm_rx(n, ELEC_MSG_ELECTION, 20, 0, 2);
	tm_expect_only(n, ELEC_MSG_ANSWER, 20, 2);
	KUNIT_EXPECT_EQ(test, n->c.phase, ELEC_BULLY_WAIT_ANSWER);
	KUNIT_EXPECT_EQ(test, n->c.stats.elections, 1);
}

/*
 * Step 3, receivers: the second minimum asked by a higher id claims
 * instead of answering (its COORDINATOR is its response), unless it
 * trusts a live leader better than itself: then it answers OK.
 */
static void tm_rx_election_second_claims(struct kunit *test)
{
	struct t_node *n = tm_node(test, 5);

	tm_follow(n, 3, 2);
	n->now += T_DETECT - 1;
	tm_rx(n, ELEC_MSG_ELECTION, 12, 0, 2);
	tm_expect_only(n, ELEC_MSG_ANSWER, 12, 2);
	KUNIT_EXPECT_EQ(test, n->c.leader, 3);
	KUNIT_EXPECT_EQ(test, n->c.stats.elections, 0);
	/* 3 silent for the window (the detector not yet delivered) */
	n->now++;
	t_clear(n);
	tm_rx(n, ELEC_MSG_ELECTION, 12, 0, 2);
	tm_expect_claim(n, 3);
	KUNIT_EXPECT_EQ(test, n->c.stats.elections, 1);

	/* learning: no leader to trust */
	n = tm_node(test, 5);
	t_start(n);
	t_clear(n);
	tm_rx(n, ELEC_MSG_ELECTION, 9, 0, 4);
	tm_expect_claim(n, 5);

	/* in its own probe: no leader to trust either */
	n = tm_node(test, 5);
	tm_follow(n, 3, 2);
	t_fire(n, ELEC_TIMER_DETECT);
	t_clear(n);
	tm_rx(n, ELEC_MSG_ELECTION, 20, 0, 2);
	tm_expect_claim(n, 3);
}

/*
 * Not in protocol.rst (step 3 names the second minimum only): the
 * minimum, when it does not lead (preempt off, learning), claims on a
 * higher id's ELECTION like the second minimum rather than answering OK
 * (min_bully.c: minb_rx_election()). Pinned as implemented; reported in
 * /work/core-bugs.md as a point the spec leaves open.
 */
static void tm_rx_election_min_not_leading(struct kunit *test)
{
	struct t_node *n = tm_node(test, 3);

	t_opts(n, false, true, 0);
	t_start(n);
	t_clear(n);
	tm_rx(n, ELEC_MSG_ELECTION, 12, 0, 0);
	tm_expect_claim(n, 1);
}

/*
 * The leader answers an ELECTION (a run's broadcast or a probe) by
 * re-announcing itself to the asker, unicast, at its term: no ANSWER, no
 * new term, each time it is asked. An asker that has seen a newer term
 * makes it claim anew above it, broadcast.
 */
static void tm_rx_election_leader_reannounces(struct kunit *test)
{
	struct t_node *n = tm_node(test, 3);

	tm_lead(n, 4);
	tm_rx(n, ELEC_MSG_ELECTION, 12, 0, 4);
	tm_expect_coord(n, 12, 3, 4);
	tm_expect_leads(n, 4);
	KUNIT_EXPECT_EQ(test, elec_core_peer_find(&n->c, 12)->told_until,
			n->now + T_DETECT);
	t_clear(n);
	tm_rx(n, ELEC_MSG_ELECTION, 5, 3, 4);		/* a probe */
	tm_expect_coord(n, 5, 3, 4);
	t_clear(n);
	tm_rx(n, ELEC_MSG_ELECTION, 12, 0, 4);		/* again */
	tm_expect_coord(n, 12, 3, 4);
	t_clear(n);
	tm_rx(n, ELEC_MSG_ELECTION, 20, 0, 1);		/* an older term */
	tm_expect_coord(n, 20, 3, 4);
	KUNIT_EXPECT_EQ(test, n->c.term, 4);
	KUNIT_EXPECT_EQ(test, n->c.max_term, 4);

	t_clear(n);
	tm_rx(n, ELEC_MSG_ELECTION, 9, 0, 7);
	tm_expect_claim(n, 8);
}

/* ---- COORDINATOR naming k ---------------------------------------------- */

/* node 12 of tm_ids with quorum on, not started */
static struct t_node *tm_node_quorum(struct kunit *test)
{
	struct t_node *n = tm_node(test, 12);
	struct elec_config cfg = n->c.cfg;

	cfg.quorum = true;
	KUNIT_ASSERT_EQ(test, elec_core_set_config(&n->c, &cfg, NULL), 0);
	return n;
}

/*
 * Quorum on: a third node names this one leader at a term that one of its
 * own ALIVE frames already carried (an ALIVE's header holds max_term).
 * That ALIVE, still in flight, would release the followers that name it
 * at that term while it counts their namings; they could back another
 * claimant: two leaders (electsim --check --algo min-bully --quorum on
 * --schedule "split:0x1C@0;heal@92446" --seed 7297 ...). It claims anew,
 * above the term; named at a newer term than any ALIVE of its carried, it
 * leads at that term and sends nothing. A leader's stop counts its term
 * as released too (its resignation).
 */
static void tm_quorum_named_stale(struct kunit *test)
{
	struct t_node *n = tm_node_quorum(test);

	tm_follow(n, 3, 2);
	/* a run's ELECTION at term 3 reaches it; its beacon carries 3 */
	tm_rx(n, ELEC_MSG_ELECTION, 20, 0, 3);
	t_clear(n);
	t_fire(n, ELEC_BULLY_TIMER_ALIVE);
	KUNIT_ASSERT_EQ(test, t_sends(n, ELEC_MSG_ALIVE, 0), 1);
	KUNIT_EXPECT_EQ(test, n->c.bully.q.release_term, 3);
	/* 9 names it at term 3: it claims at 4 */
	t_clear(n);
	tm_rx_coord(n, 9, 0, 3, 12);
	tm_expect_coord(n, 0, 12, 4);
	KUNIT_EXPECT_EQ(test, n->c.leader, 12);
	KUNIT_EXPECT_EQ(test, n->c.term, 4);
	KUNIT_EXPECT_EQ(test, n->c.phase, ELEC_BULLY_LEADING);
	KUNIT_EXPECT_EQ(test, n->c.role, ELEC_ROLE_CANDIDATE);
	KUNIT_EXPECT_EQ(test, n->c.bully.q.claim_term, 4);

	/* its beacons carried 2 only: named at 3, it leads at 3 */
	n = tm_node_quorum(test);
	tm_follow(n, 3, 2);
	t_fire(n, ELEC_BULLY_TIMER_ALIVE);
	KUNIT_ASSERT_EQ(test, n->c.bully.q.release_term, 2);
	t_clear(n);
	tm_rx_coord(n, 9, 0, 3, 12);
	KUNIT_EXPECT_EQ(test, t_sends(n, 0, T_ANY), 0);
	KUNIT_EXPECT_EQ(test, n->c.leader, 12);
	KUNIT_EXPECT_EQ(test, n->c.term, 3);
	KUNIT_EXPECT_EQ(test, n->c.role, ELEC_ROLE_CANDIDATE);
	KUNIT_EXPECT_EQ(test, n->c.bully.q.claim_term, 3);

	/*
	 * It stops while leading at 3 (its resignation releases at 3); once
	 * started again, a stale naming at 3 still in flight makes it claim
	 * at 4; a naming at 5 it takes as it is.
	 */
	elec_core_stop(&n->c, n->now);
	KUNIT_EXPECT_EQ(test, n->c.bully.q.release_term, 3);
	t_start(n);
	t_clear(n);
	tm_rx_coord(n, 9, 0, 3, 12);
	tm_expect_coord(n, 0, 12, 4);
	KUNIT_EXPECT_EQ(test, n->c.term, 4);
	KUNIT_EXPECT_EQ(test, n->c.stats.elections, 1);
	n = tm_node_quorum(test);
	tm_follow(n, 3, 2);
	t_fire(n, ELEC_BULLY_TIMER_ALIVE);
	t_clear(n);
	tm_rx_coord(n, 9, 0, 5, 12);
	KUNIT_EXPECT_EQ(test, t_sends(n, 0, T_ANY), 0);
	KUNIT_EXPECT_EQ(test, n->c.term, 5);
}

/*
 * A probed leader's reply is an answer to the probe: quick ones in a row
 * halve a wait that late replies doubled (min-bully's leader replies with
 * a COORDINATOR only). Its late reply doubles the wait once, however many
 * peers answer late after the same wait ran out.
 */
static void tm_answer_backoff(struct kunit *test)
{
	struct t_node *n = tm_node(test, 12);
	u32 i;

	tm_follow(n, 3, 2);
	/* a probe that runs out; 3's reply comes late: 2 T */
	t_fire(n, ELEC_TIMER_DETECT);
	KUNIT_ASSERT_TRUE(test, n->c.bully.probing);
	t_fire(n, ELEC_BULLY_TIMER_ANSWER);
	n->now += T_T / 4;
	tm_rx_coord(n, 3, 12, n->c.term, 3);
	KUNIT_EXPECT_EQ(test, n->c.bully.answer_shift, 1);
	/* the late ANSWERs of 5 and 9 to the same run: still 2 T */
	tm_rx(n, ELEC_MSG_ANSWER, 5, 12, n->c.max_term);
	tm_rx(n, ELEC_MSG_ANSWER, 9, 12, n->c.max_term);
	KUNIT_EXPECT_EQ(test, n->c.bully.answer_shift, 1);
	tm_follow(n, 3, n->c.max_term + 1);
	/* eight quick replies to probes halve it */
	for (i = 0; i < ELEC_BULLY_ANSWER_DECAY; i++) {
		t_fire(n, ELEC_TIMER_DETECT);
		KUNIT_ASSERT_TRUE(test, n->c.bully.probing);
		KUNIT_EXPECT_EQ(test, t_armed_at(n, ELEC_BULLY_TIMER_ANSWER),
				n->now + (i < ELEC_BULLY_ANSWER_DECAY ?
					  2 * T_T : T_T));
		n->now += 1000;
		tm_rx_coord(n, 3, 12, n->c.term, 3);
		KUNIT_ASSERT_EQ(test, n->c.leader, 3);
	}
	KUNIT_EXPECT_EQ(test, n->c.bully.answer_shift, 0);
}

/*
 * In a run, a lower node's own claim at term t is a response; an
 * electioneer that had not heard it names this node at term t: following
 * that better claim, not leading too (two leaders until the claimant's
 * heartbeat arrives: electsim --algo min-bully --nodes 9 --auth on
 * --scenario random --seed 53490 --latency 50us:4900us, 23.5 ms). Named
 * at a newer term than the claim's, it leads.
 */
static void tm_named_after_better_claim(struct kunit *test)
{
	u64 term;
	int newer;

	for (newer = 0; newer < 2; newer++) {
		struct t_node *n = tm_node(test, 12);

		tm_follow(n, 3, 2);
		t_fire(n, ELEC_TIMER_DETECT);	/* probes 3 */
		t_fire(n, ELEC_BULLY_TIMER_ANSWER);	/* asks 5 and 9 */
		KUNIT_ASSERT_EQ(test, n->c.phase, ELEC_BULLY_WAIT_ANSWER);
		KUNIT_ASSERT_FALSE(test, n->c.bully.probing);
		tm_rx_coord(n, 5, 0, 3, 5);	/* 5 claims: its response */
		KUNIT_ASSERT_EQ(test, n->c.bully.run_best, 5);
		KUNIT_ASSERT_EQ(test, n->c.phase, ELEC_BULLY_WAIT_ANSWER);
		t_clear(n);
		term = newer ? 4 : 3;
		tm_rx_coord(n, 20, 0, term, 12);
		KUNIT_EXPECT_EQ(test, t_sends(n, 0, T_ANY), 0);
		if (newer) {
			KUNIT_EXPECT_EQ(test, n->c.leader, 12);
			KUNIT_EXPECT_EQ(test, n->c.term, 4);
			KUNIT_EXPECT_EQ(test, n->c.phase, ELEC_BULLY_LEADING);
		} else {
			tm_expect_follows(n, 5, 3);
		}
	}
}

/*
 * A COORDINATOR naming k other than its sender is accepted per (term, k):
 * a newer term wins, and in a tie the lower k; an older term loses
 * whatever k. The sender is heard from (alive), k is not.
 */
static void tm_coord_names_other(struct kunit *test)
{
	struct t_node *n = tm_node(test, 12);

	tm_follow(n, 3, 2);
	elec_core_peer_set_alive(&n->c, elec_core_peer_find(&n->c, 20), false,
				 n->now);
	elec_core_peer_set_alive(&n->c, elec_core_peer_find(&n->c, 5), false,
				 n->now);
	t_clear(n);
	tm_rx_coord(n, 20, 0, 3, 5);
	tm_expect_follows(n, 5, 3);
	KUNIT_EXPECT_EQ(test, t_events(n, ELEC_EVENT_PEER_UP, 20), 1);
	KUNIT_EXPECT_FALSE(test, tm_alive(n, 5));
	/* a tie at term 3: 9 loses to 5 */
	tm_rx_coord(n, 20, 0, 3, 9);
	KUNIT_EXPECT_EQ(test, n->c.leader, 5);
	KUNIT_EXPECT_EQ(test, n->c.stats.drops[ELEC_DROP_STALE_TERM], 1);
	/* 3 wins over 5 */
	tm_rx_coord(n, 9, 0, 3, 3);
	tm_expect_follows(n, 3, 3);
	/* an older term, even naming the best id: stale */
	tm_rx_coord(n, 9, 0, 2, 3);
	KUNIT_EXPECT_EQ(test, n->c.term, 3);
	KUNIT_EXPECT_EQ(test, n->c.stats.drops[ELEC_DROP_STALE_TERM], 2);
	/* a newer term wins over a better k */
	tm_rx_coord(n, 3, 0, 4, 9);
	tm_expect_follows(n, 9, 4);
	KUNIT_EXPECT_EQ(test, t_sends(n, 0, T_ANY), 0);
	KUNIT_EXPECT_EQ(test, n->c.stats.leader_changes, 4);
}

/*
 * A k that is not a configured node (neither the local id nor a peer) is
 * dropped as unknown_peer; the frame changes no state: leader, term,
 * max_term, timers, the sender's alive mark.
 */
static void tm_coord_unknown_k(struct kunit *test)
{
	struct t_node *n = tm_node(test, 12);
	u64 detect;

	tm_follow(n, 3, 2);
	elec_core_peer_set_alive(&n->c, elec_core_peer_find(&n->c, 9), false,
				 n->now);
	t_clear(n);
	detect = n->c.timer_expires[ELEC_TIMER_DETECT];
	n->now += T_HB;
	tm_rx_coord(n, 9, 0, 3, 77);
	KUNIT_EXPECT_EQ(test, n->c.stats.drops[ELEC_DROP_UNKNOWN_PEER], 1);
	KUNIT_EXPECT_EQ(test, n->n_acts, 0);
	KUNIT_EXPECT_EQ(test, n->c.leader, 3);
	KUNIT_EXPECT_EQ(test, n->c.term, 2);
	KUNIT_EXPECT_EQ(test, n->c.timer_expires[ELEC_TIMER_DETECT], detect);
	KUNIT_EXPECT_FALSE(test, tm_alive(n, 9));
	/*
	 * Reported in /work/core-bugs.md: minb_rx() raises max_term from
	 * every frame before the k check, so this dropped frame moves it.
	 */
	KUNIT_EXPECT_EQ(test, n->c.max_term, 2);

	/* a learning node too */
	n = tm_node(test, 12);
	t_start(n);
	t_clear(n);
	tm_rx_coord(n, 9, 0, 1, 77);
	KUNIT_EXPECT_EQ(test, n->c.stats.drops[ELEC_DROP_UNKNOWN_PEER], 1);
	KUNIT_EXPECT_EQ(test, n->c.leader, 0);
	KUNIT_EXPECT_TRUE(test, n->c.learning);
	KUNIT_EXPECT_EQ(test, n->c.phase, ELEC_BULLY_LEARNING);
}

/*
 * The receive checks apply to the sender of a COORDINATOR, whatever k it
 * names: a configured peer (else unknown_peer), at its configured
 * address (else wrong_lladdr).
 */
static void tm_coord_sender_checks(struct kunit *test)
{
	struct t_node *n = tm_node(test, 9);

	tm_follow(n, 3, 2);
	tm_rx_mac(n, ELEC_MSG_COORDINATOR, 0, 12, 0, 3, 5, tm_mac_bad);
	KUNIT_EXPECT_EQ(test, n->c.stats.drops[ELEC_DROP_WRONG_LLADDR], 1);
	KUNIT_EXPECT_EQ(test, n->c.leader, 3);
	KUNIT_EXPECT_EQ(test, n->c.term, 2);
	KUNIT_EXPECT_EQ(test, n->c.max_term, 2);
	KUNIT_EXPECT_EQ(test, n->n_acts, 0);
	tm_rx_mac(n, ELEC_MSG_COORDINATOR, 0, 12, 0, 3, 5, tm_mac12);
	tm_expect_follows(n, 5, 3);
	tm_rx_coord(n, 77, 0, 4, 3);
	KUNIT_EXPECT_EQ(test, n->c.stats.drops[ELEC_DROP_UNKNOWN_PEER], 1);
	KUNIT_EXPECT_EQ(test, n->c.leader, 5);
	KUNIT_EXPECT_EQ(test, n->c.max_term, 3);
}

/* ---- step 6: preemption ------------------------------------------------ */

/*
 * Step 6, preempt on: a node better than the coordinator named (in a
 * COORDINATOR, a heartbeat or a CID) claims at once, above its term.
 */
static void tm_preempt_on(struct kunit *test)
{
	struct t_node *n = tm_node(test, 9);

	tm_follow(n, 3, 2);
	tm_rx_coord(n, 5, 0, 3, 12);
	tm_expect_claim(n, 4);
	KUNIT_EXPECT_EQ(test, n->c.stats.elections, 1);

	n = tm_node(test, 5);
	tm_follow(n, 3, 2);
	tm_rx(n, ELEC_MSG_HEARTBEAT, 9, 0, 3);
	tm_expect_claim(n, 4);
	/* a better coordinator named: followed, no claim */
	n = tm_node(test, 9);
	tm_follow(n, 3, 2);
	tm_rx_coord(n, 12, 0, 9, 5);
	KUNIT_EXPECT_EQ(test, t_sends(n, 0, T_ANY), 0);
	tm_expect_follows(n, 5, 9);
}

/*
 * Step 6, preempt off: a better node follows the worse coordinator until
 * it fails, and trusts it (an ELECTION from a higher id gets OK).
 */
static void tm_preempt_off(struct kunit *test)
{
	struct t_node *n = tm_node(test, 9);

	t_opts(n, false, true, 0);
	tm_follow(n, 3, 2);
	tm_rx_coord(n, 5, 0, 3, 12);
	KUNIT_EXPECT_EQ(test, t_sends(n, 0, T_ANY), 0);
	tm_expect_follows(n, 12, 3);
	KUNIT_EXPECT_EQ(test, t_timers(n), T_BIT(ELEC_TIMER_DETECT));
	n->now += T_HB;
	tm_rx(n, ELEC_MSG_HEARTBEAT, 12, 0, 3);
	tm_rx(n, ELEC_MSG_ELECTION, 20, 0, 3);
	tm_expect_only(n, ELEC_MSG_ANSWER, 20, 3);
	KUNIT_EXPECT_EQ(test, n->c.leader, 12);
	KUNIT_EXPECT_EQ(test, n->c.stats.elections, 0);
	KUNIT_EXPECT_EQ(test, n->c.stats.elections_limited, 0);
}

/*
 * Step 6 with a preempt-delay: the better node follows the worse
 * coordinator for the delay (heartbeats do not move it), trusting it
 * meanwhile, then claims.
 */
static void tm_preempt_delay(struct kunit *test)
{
	struct t_node *n = tm_node(test, 9);
	u64 at;

	t_opts(n, false, false, 3 * T_HB);
	tm_follow(n, 3, 2);
	tm_rx_coord(n, 5, 0, 3, 12);
	at = n->now + 3 * T_HB;
	KUNIT_EXPECT_EQ(test, t_sends(n, 0, T_ANY), 0);
	tm_expect_follows(n, 12, 3);
	KUNIT_EXPECT_EQ(test, t_timers(n),
			T_BIT(ELEC_TIMER_DETECT) | T_BIT(ELEC_BULLY_TIMER_PREEMPT));
	KUNIT_EXPECT_EQ(test, n->c.timer_expires[ELEC_BULLY_TIMER_PREEMPT], at);
	n->now += T_HB;
	tm_rx(n, ELEC_MSG_HEARTBEAT, 12, 0, 3);
	KUNIT_EXPECT_EQ(test, n->c.timer_expires[ELEC_BULLY_TIMER_PREEMPT], at);
	tm_rx(n, ELEC_MSG_ELECTION, 20, 0, 3);
	tm_expect_only(n, ELEC_MSG_ANSWER, 20, 3);
	KUNIT_EXPECT_EQ(test, n->c.stats.elections, 0);
	t_clear(n);
	t_fire(n, ELEC_BULLY_TIMER_PREEMPT);
	tm_expect_claim(n, 4);
	KUNIT_EXPECT_EQ(test, n->c.stats.elections, 1);
}

/*
 * The rate limit: claims begun by a received frame (the second minimum
 * asked, step 6, a leader asked with a newer term) are refused once the
 * allowance is used up, counted in elections_limited, and the frame is
 * otherwise handled; the worse leader's next heartbeat asks again.
 * Claims begun by timers are never limited.
 */
static void tm_rate_limit(struct kunit *test)
{
	struct t_node *n = tm_node(test, 5);

	t_start(n);
	tm_exhaust(n);
	t_clear(n);
	tm_rx(n, ELEC_MSG_ELECTION, 12, 0, 0);
	tm_expect_only(n, ELEC_MSG_ANSWER, 12, 0);
	KUNIT_EXPECT_EQ(test, n->c.stats.elections_limited, 1);
	KUNIT_EXPECT_EQ(test, n->c.stats.elections, 0);
	KUNIT_EXPECT_EQ(test, n->c.leader, 0);

	/* step 6 refused: it follows; a heartbeat later it claims */
	n = tm_node(test, 9);
	t_start(n);
	tm_exhaust(n);
	t_clear(n);
	tm_rx(n, ELEC_MSG_CID, 12, 9, 3);
	KUNIT_EXPECT_EQ(test, t_sends(n, 0, T_ANY), 0);
	tm_expect_follows(n, 12, 3);
	KUNIT_EXPECT_EQ(test, n->c.stats.elections_limited, 1);
	n->now += T_COORD * TM_BURST;
	t_clear(n);
	tm_rx(n, ELEC_MSG_HEARTBEAT, 12, 0, 3);
	tm_expect_claim(n, 4);
	KUNIT_EXPECT_EQ(test, n->c.stats.elections, 1);

	/* the leader asked with a newer term: re-announces at its own */
	n = tm_node(test, 3);
	tm_lead(n, 4);
	tm_exhaust(n);
	tm_rx(n, ELEC_MSG_ELECTION, 9, 0, 7);
	tm_expect_coord(n, 9, 3, 4);
	KUNIT_EXPECT_EQ(test, n->c.stats.elections_limited, 1);
	KUNIT_EXPECT_EQ(test, n->c.term, 4);

	/* a timer's claim: never limited */
	n = tm_node(test, 5);
	t_opts(n, true, false, 0);
	tm_follow(n, 3, 2);
	tm_exhaust(n);
	t_fire(n, ELEC_TIMER_DETECT);
	tm_expect_claim(n, 3);
	KUNIT_EXPECT_EQ(test, n->c.stats.elections_limited, 0);
}

/* ---- stale announcements ----------------------------------------------- */

/*
 * A stale self-announcement from a better node than the receiver and its
 * leader (preempt on) is dropped and told with an ELECTION carrying the
 * newer term, once per detection window per peer; the stale claimant,
 * still leading, claims anew above it.
 */
static void tm_stale_better_claimant(struct kunit *test)
{
	struct t_node *n = tm_node(test, 12);
	struct t_node *c = tm_node(test, 5);

	tm_follow(n, 9, 5);
	tm_rx(n, ELEC_MSG_HEARTBEAT, 5, 0, 2);
	KUNIT_EXPECT_EQ(test, n->c.stats.drops[ELEC_DROP_STALE_TERM], 1);
	tm_expect_only(n, ELEC_MSG_ELECTION, 5, 5);
	KUNIT_EXPECT_EQ(test, elec_core_peer_find(&n->c, 5)->told_until,
			n->now + T_DETECT);
	KUNIT_EXPECT_EQ(test, n->c.leader, 9);
	/* its other stale frames within the window: nothing */
	n->now += T_DETECT - 1;
	tm_rx(n, ELEC_MSG_HEARTBEAT, 5, 0, 2);
	tm_rx_coord(n, 5, 0, 2, 5);
	tm_rx(n, ELEC_MSG_CID, 5, 12, 2);
	KUNIT_EXPECT_EQ(test, t_sends(n, 0, T_ANY), 1);
	KUNIT_EXPECT_EQ(test, n->c.stats.drops[ELEC_DROP_STALE_TERM], 4);
	n->now++;
	tm_rx(n, ELEC_MSG_HEARTBEAT, 5, 0, 2);
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_ELECTION, 5), 2);

	/* the claimant's side */
	tm_lead(c, 2);
	tm_rx(c, ELEC_MSG_ELECTION, 12, 5, 5);
	tm_expect_claim(c, 6);
}

/*
 * A stale self-announcement from a worse node is told by the leader
 * only: its COORDINATOR, unicast, at its term (once per window); the
 * worse one accepts it. A follower tells it nothing, nor is a stale
 * COORDINATOR naming another node than its sender told. With preempt
 * off a better stale node gets the leader's COORDINATOR too.
 */
static void tm_stale_worse_told_by_leader(struct kunit *test)
{
	struct t_node *n = tm_node(test, 3);
	struct t_node *w = tm_node(test, 9);

	tm_lead(n, 5);
	n->now += T_DETECT;	/* past the window of its claim at start */
	tm_rx(n, ELEC_MSG_HEARTBEAT, 9, 0, 2);
	tm_expect_coord(n, 9, 3, 5);
	KUNIT_EXPECT_EQ(test, n->c.role, ELEC_ROLE_LEADER);
	KUNIT_EXPECT_EQ(test, n->c.term, 5);
	n->now += T_DETECT - 1;
	tm_rx(n, ELEC_MSG_HEARTBEAT, 9, 0, 2);
	KUNIT_EXPECT_EQ(test, t_sends(n, 0, T_ANY), 1);
	n->now++;
	tm_rx(n, ELEC_MSG_HEARTBEAT, 9, 0, 2);
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_COORDINATOR, 9), 2);
	/* naming another node: dropped, not told */
	t_clear(n);
	tm_rx_coord(n, 12, 0, 2, 9);
	KUNIT_EXPECT_EQ(test, n->n_acts, 0);
	KUNIT_EXPECT_EQ(test, n->c.stats.drops[ELEC_DROP_STALE_TERM], 4);

	/* the worse one, leading at 2, follows the leader told it */
	tm_lead(w, 2);
	tm_rx_coord(w, 3, 9, 5, 3);
	KUNIT_EXPECT_EQ(test, t_sends(w, 0, T_ANY), 0);
	tm_expect_follows(w, 3, 5);

	/* a follower tells a worse stale sender nothing */
	n = tm_node(test, 5);
	tm_follow(n, 3, 5);
	tm_rx(n, ELEC_MSG_HEARTBEAT, 9, 0, 2);
	KUNIT_EXPECT_EQ(test, n->n_acts, 0);
	KUNIT_EXPECT_EQ(test, n->c.stats.drops[ELEC_DROP_STALE_TERM], 1);

	/* preempt off: the leader's COORDINATOR to a better one too */
	n = tm_node(test, 5);
	t_opts(n, false, true, 0);
	tm_lead(n, 5);
	n->now += T_DETECT;
	tm_rx(n, ELEC_MSG_HEARTBEAT, 3, 0, 2);
	tm_expect_coord(n, 3, 5, 5);
}

/*
 * "A node replies to one peer at most once per detection window (a
 * COORDINATOR it sent that peer counts)": a broadcast claim tells every
 * worse peer, so their stale frames sent before it arrived (a heartbeat
 * in flight) get no reply within the window; a better stale claimant is
 * still told at once.
 */
static void tm_stale_claim_counts_as_told(struct kunit *test)
{
	struct t_node *n = tm_node(test, 5);

	tm_lead(n, 4);
	n->now += T_DETECT;
	elec_core_elect(&n->c, n->now);		/* claims at 5, broadcast */
	tm_expect_claim(n, 5);
	KUNIT_EXPECT_EQ(test, elec_core_peer_find(&n->c, 9)->told_until,
			n->now + T_DETECT);
	KUNIT_EXPECT_EQ(test, elec_core_peer_find(&n->c, 20)->told_until,
			n->now + T_DETECT);
	t_clear(n);
	tm_rx(n, ELEC_MSG_HEARTBEAT, 9, 0, 4);
	KUNIT_EXPECT_EQ(test, n->c.stats.drops[ELEC_DROP_STALE_TERM], 1);
	KUNIT_EXPECT_EQ(test, t_sends(n, 0, T_ANY), 0);
	/* the better 3 is told at once: an ELECTION with the newer term */
	tm_rx(n, ELEC_MSG_HEARTBEAT, 3, 0, 4);
	tm_expect_only(n, ELEC_MSG_ELECTION, 3, 5);
	/* once the window is over the worse one is told */
	n->now += T_DETECT;
	t_clear(n);
	tm_rx(n, ELEC_MSG_HEARTBEAT, 9, 0, 4);
	tm_expect_coord(n, 9, 5, 5);
}

/* ---- resignation ------------------------------------------------------- */

/*
 * A HEARTBEAT flagged LEAVING from the leader at its term: the leader is
 * marked down and a run begins at once, skipping it: the second minimum
 * claims. From another id or at another term it is ignored.
 */
static void tm_leaving_second_claims(struct kunit *test)
{
	struct t_node *n = tm_node(test, 5);
	u64 detect;

	tm_follow(n, 3, 2);
	detect = n->c.timer_expires[ELEC_TIMER_DETECT];
	tm_rx_leaving(n, 9, 2);
	tm_rx_leaving(n, 3, 1);
	tm_rx_leaving(n, 3, 3);
	KUNIT_EXPECT_EQ(test, n->n_acts, 0);
	KUNIT_EXPECT_EQ(test, n->c.leader, 3);
	KUNIT_EXPECT_EQ(test, n->c.timer_expires[ELEC_TIMER_DETECT], detect);

	tm_rx_leaving(n, 3, 2);
	KUNIT_EXPECT_EQ(test, t_events(n, ELEC_EVENT_PEER_DOWN, 3), 1);
	KUNIT_EXPECT_EQ(test, t_events(n, ELEC_EVENT_ELECTION_STARTED, T_ANY),
			1);
	tm_expect_claim(n, 4);	/* (term 3 was seen in the ignored frame) */
	KUNIT_EXPECT_EQ(test, n->c.stats.elections, 1);
}

/*
 * Resignation at a third node: ELECTION broadcast at once (no probe, even
 * with ask-suspect on), the leaver not awaited: the run ends as soon as
 * the other lower ids responded.
 */
static void tm_leaving_third_skips(struct kunit *test)
{
	struct t_node *n = tm_node(test, 12);

	tm_follow(n, 3, 2);
	tm_rx_leaving(n, 3, 2);
	tm_expect_only(n, ELEC_MSG_ELECTION, 0, 2);
	KUNIT_EXPECT_EQ(test, n->c.bully.suspect, 3);
	KUNIT_EXPECT_TRUE(test, n->c.bully.suspect_left);
	KUNIT_EXPECT_FALSE(test, n->c.bully.probing);
	KUNIT_EXPECT_FALSE(test, tm_asked(n, 3));
	KUNIT_EXPECT_TRUE(test, tm_asked(n, 5));
	KUNIT_EXPECT_TRUE(test, tm_asked(n, 9));
	KUNIT_EXPECT_EQ(test, t_events(n, ELEC_EVENT_PEER_DOWN, 3), 1);
	t_clear(n);
	tm_rx(n, ELEC_MSG_ANSWER, 9, 12, 2);
	tm_rx(n, ELEC_MSG_ANSWER, 5, 12, 2);
	tm_expect_coord(n, 0, 5, 3);
	tm_expect_follows(n, 5, 3);
}

/* ---- terms ------------------------------------------------------------- */

/*
 * A claim takes max_term + 1, the highest term seen in any frame (an
 * ANSWER or ELECTION carries its sender's); so does an initiator's new
 * term for the node it names.
 */
static void tm_term_claim_max_plus_one(struct kunit *test)
{
	struct t_node *n = tm_node(test, 5);

	t_opts(n, true, false, 0);
	tm_follow(n, 3, 2);
	tm_rx(n, ELEC_MSG_ANSWER, 9, 5, 7);	/* ignored, its term seen */
	KUNIT_EXPECT_EQ(test, n->n_acts, 0);
	KUNIT_EXPECT_EQ(test, n->c.max_term, 7);
	t_fire(n, ELEC_TIMER_DETECT);
	tm_expect_claim(n, 8);

	n = tm_third_running(test);
	tm_rx(n, ELEC_MSG_ANSWER, 5, 12, 6);
	tm_rx(n, ELEC_MSG_ANSWER, 9, 12, 2);
	tm_expect_coord(n, 0, 5, 7);
	tm_expect_follows(n, 5, 7);
}

/*
 * The far-behind rule (elec_bully_far_behind()): a term learnt from a
 * frame the group never saw is given up on the group's next
 * announcement, more than ELECTION_TERM_MAX_AHEAD below, with its term;
 * within the bound an older announcement stays stale.
 */
static void tm_term_far_behind(struct kunit *test)
{
	struct t_node *n = tm_node(test, 9);
	u64 big = 4 * TM_FAR;

	t_start(n);
	tm_rx(n, ELEC_MSG_CID, 3, 9, big);	/* learning: any term */
	KUNIT_ASSERT_EQ(test, n->c.term, big);
	tm_rx(n, ELEC_MSG_HEARTBEAT, 5, 0, big - TM_FAR);
	KUNIT_EXPECT_EQ(test, n->c.leader, 3);
	KUNIT_EXPECT_EQ(test, n->c.stats.drops[ELEC_DROP_STALE_TERM], 1);
	KUNIT_EXPECT_TRUE(test, elec_bully_far_behind(&n->c, 7));
	t_clear(n);
	tm_rx_coord(n, 12, 0, 7, 5);
	KUNIT_EXPECT_EQ(test, t_sends(n, 0, T_ANY), 0);
	tm_expect_follows(n, 5, 7);
	KUNIT_EXPECT_EQ(test, n->c.max_term, 7);
	/* the group's frames are accepted from then on */
	tm_rx(n, ELEC_MSG_HEARTBEAT, 3, 0, 8);
	tm_expect_follows(n, 3, 8);
}

/*
 * The far-behind rule in a run's wait: the second minimum's claim at the
 * group's term, far below the one learnt, is only recorded as its
 * response; the node gives that term up with its max_term (the fuzzer's
 * far-behind-keeps-term: term stayed above max_term), and follows the
 * claimant at the group's term when the run ends.
 */
static void tm_term_far_behind_in_run(struct kunit *test)
{
	struct t_node *n = tm_node(test, 12);
	u64 big = 4 * TM_FAR;

	t_opts(n, true, false, 0);
	tm_follow(n, 3, big);
	t_fire(n, ELEC_TIMER_DETECT);
	KUNIT_ASSERT_EQ(test, n->c.phase, ELEC_BULLY_WAIT_ANSWER);
	t_clear(n);
	tm_rx_coord(n, 5, 0, 7, 5);
	KUNIT_EXPECT_EQ(test, n->c.phase, ELEC_BULLY_WAIT_ANSWER);
	KUNIT_EXPECT_EQ(test, n->c.max_term, 7);
	KUNIT_EXPECT_EQ(test, n->c.term, 7);
	tm_rx(n, ELEC_MSG_ANSWER, 9, 12, 7);
	tm_expect_follows(n, 5, 7);
	KUNIT_EXPECT_EQ(test, n->c.max_term, 7);
}

/* ---- the in-test network ----------------------------------------------- */

/* a network of min-bully nodes with options */
static struct t_net *tm_net_new(struct kunit *test, const u32 *ids, u32 nr,
				bool ask_off, bool preempt_off, u64 delay)
{
	return &t_opt_net_new(test, ids, nr, tm_node_init, ask_off,
			      preempt_off, delay, 0)->net;
}

/* the lowest id of a node that is up and running */
static u32 tm_net_lowest_up(struct t_net *net)
{
	u32 i, best = 0;

	for (i = 0; i < net->n; i++) {
		struct t_node *n = net->node[i];

		if (n->up && n->c.running &&
		    (!best || n->c.cfg.self_id < best))
			best = n->c.cfg.self_id;
	}
	return best;
}

static u64 tm_net_frames(struct t_net *net)
{
	u64 sum = 0;
	u32 i;

	for (i = 0; i <= ELEC_MSG_MAX; i++)
		sum += net->sent[i];
	return sum;
}

/* @id's detector fires first: its window is hb_miss 2 */
static void tm_net_first_detector(struct t_net *net, u32 id)
{
	struct t_node *d = t_net_node(net, id);
	struct elec_config cfg = d->c.cfg;

	cfg.hb_miss = 2;
	KUNIT_ASSERT_EQ(net->test, elec_core_set_config(&d->c, &cfg, NULL),
			0);
}

/*
 * Boot: the minimum claims at once (1 COORDINATOR, counted as its run),
 * every other node broadcasts QUERY and gets the leader's CID: 1 + 2
 * (n - 1) frames, one run, one term; everyone then follows 3.
 */
static void tm_net_boot(struct kunit *test)
{
	struct t_net *net = tm_net_new(test, tm_ids, 5, false, false, 0);

	t_net_start_all(net);
	t_net_drain(net);
	KUNIT_EXPECT_EQ(test, net->sent[ELEC_MSG_COORDINATOR], 1);
	KUNIT_EXPECT_EQ(test, net->sent[ELEC_MSG_QUERY], 4);
	KUNIT_EXPECT_EQ(test, net->sent[ELEC_MSG_CID], 4);
	KUNIT_EXPECT_EQ(test, tm_net_frames(net), 9);
	t_net_expect_agree(net, 3);
	KUNIT_EXPECT_EQ(test, t_net_node(net, 3)->c.term, 1);
	t_net_run_for(net, TM_SEC);
	t_net_expect_agree(net, 3);
	KUNIT_EXPECT_EQ(test, t_net_sum_elections(net), 1);
	KUNIT_EXPECT_EQ(test, t_net_node(net, 20)->c.stats.leader_changes, 1);
}

/*
 * Boot without the minimum: the QUERYs go unanswered; after the detection
 * window the second minimum claims and everyone follows it.
 */
static void tm_net_boot_min_absent(struct kunit *test)
{
	struct t_net *net = tm_net_new(test, tm_ids, 5, false, false, 0);
	u32 i;

	t_net_crash(net, 3);
	for (i = 0; i < net->n; i++)
		if (net->node[i]->up)
			elec_core_start(&net->node[i]->c, net->now);
	t_net_run_for(net, T_DETECT);
	KUNIT_EXPECT_EQ(test, net->sent[ELEC_MSG_QUERY], 4);
	KUNIT_EXPECT_EQ(test, net->sent[ELEC_MSG_COORDINATOR], 1);
	t_net_expect_agree(net, 5);
	t_net_run_for(net, TM_SEC);
	t_net_expect_agree(net, 5);
}

/*
 * The minimum crashes and the second minimum detects it first. ask-suspect
 * off: its claim is the only frame (the paper's best case, 1 message);
 * on: the probe to the crashed minimum, then after T the claim: 2.
 */
static void tm_net_second_detects(struct kunit *test, bool ask_off)
{
	struct t_net *net = tm_net_new(test, tm_ids, 5, ask_off, false, 0);
	struct t_node *d;
	u64 elections, detect;

	tm_net_first_detector(net, 5);
	t_net_start_all(net);
	t_net_run_for(net, TM_SEC);
	t_net_expect_agree(net, 3);

	d = t_net_node(net, 5);
	t_net_crash(net, 3);
	memset(net->sent, 0, sizeof(net->sent));
	elections = t_net_sum_elections(net);
	detect = d->c.timer_expires[ELEC_TIMER_DETECT];
	/* up to just before the new leader's first heartbeat */
	t_net_run(net, detect + (ask_off ? 0 : T_T) + T_HB - 1);
	KUNIT_EXPECT_EQ(test, net->sent[ELEC_MSG_COORDINATOR], 1);
	KUNIT_EXPECT_EQ(test, net->sent[ELEC_MSG_ELECTION], ask_off ? 0 : 1);
	KUNIT_EXPECT_EQ(test, tm_net_frames(net), ask_off ? 1 : 2);
	KUNIT_EXPECT_EQ(test, t_net_sum_elections(net), elections + 1);
	t_net_expect_agree(net, 5);
	KUNIT_EXPECT_EQ(test, d->c.term, 2);
	t_net_run_for(net, TM_SEC);
	t_net_expect_agree(net, 5);
}

static void tm_net_second_detects_ask_off(struct kunit *test)
{
	tm_net_second_detects(test, true);
}

static void tm_net_second_detects_ask_on(struct kunit *test)
{
	tm_net_second_detects(test, false);
}

/*
 * The minimum crashes and the highest id detects it first. ask-suspect
 * off: ELECTION (1), OK from each lower live id (n - 2: the second
 * minimum still trusts the minimum, heard within its window), then
 * COORDINATOR naming the second minimum (1): n + 1 frames for the n = 4
 * live nodes. ask-suspect on: the probe first, n + 2.
 */
static void tm_net_highest_detects(struct kunit *test, bool ask_off)
{
	struct t_net *net = tm_net_new(test, tm_ids, 5, ask_off, false, 0);
	struct t_node *d;
	u64 elections, detect;

	tm_net_first_detector(net, 20);
	t_net_start_all(net);
	t_net_run_for(net, TM_SEC);
	t_net_expect_agree(net, 3);

	d = t_net_node(net, 20);
	t_net_crash(net, 3);
	memset(net->sent, 0, sizeof(net->sent));
	elections = t_net_sum_elections(net);
	detect = d->c.timer_expires[ELEC_TIMER_DETECT];
	t_net_run(net, detect + (ask_off ? 0 : T_T) + T_HB - 1);
	KUNIT_EXPECT_EQ(test, net->sent[ELEC_MSG_ELECTION], ask_off ? 1 : 2);
	KUNIT_EXPECT_EQ(test, net->sent[ELEC_MSG_ANSWER], 3);
	KUNIT_EXPECT_EQ(test, net->sent[ELEC_MSG_COORDINATOR], 1);
	KUNIT_EXPECT_EQ(test, tm_net_frames(net), ask_off ? 4 + 1 : 4 + 2);
	KUNIT_EXPECT_EQ(test, t_net_sum_elections(net), elections + 1);
	t_net_expect_agree(net, 5);
	KUNIT_EXPECT_EQ(test, t_net_node(net, 5)->c.term, 2);
	KUNIT_EXPECT_FALSE(test, tm_alive(d, 3));
	t_net_run_for(net, TM_SEC);
	t_net_expect_agree(net, 5);
}

static void tm_net_highest_detects_ask_off(struct kunit *test)
{
	tm_net_highest_detects(test, true);
}

static void tm_net_highest_detects_ask_on(struct kunit *test)
{
	tm_net_highest_detects(test, false);
}

/*
 * The minimum and the second minimum crash together; the highest id
 * detects first: it hears OK from 9 and 12, waits T for 5, marks it down
 * and names 9 (the lowest live id): 4 frames, within one T.
 */
static void tm_net_second_absent(struct kunit *test)
{
	struct t_net *net = tm_net_new(test, tm_ids, 5, true, false, 0);
	struct t_node *d;
	u64 detect;

	tm_net_first_detector(net, 20);
	t_net_start_all(net);
	t_net_run_for(net, TM_SEC);
	d = t_net_node(net, 20);
	t_net_crash(net, 3);
	t_net_crash(net, 5);
	memset(net->sent, 0, sizeof(net->sent));
	detect = d->c.timer_expires[ELEC_TIMER_DETECT];
	t_net_run(net, detect + T_T + T_HB - 1);
	KUNIT_EXPECT_EQ(test, net->sent[ELEC_MSG_ELECTION], 1);
	KUNIT_EXPECT_EQ(test, net->sent[ELEC_MSG_ANSWER], 2);
	KUNIT_EXPECT_EQ(test, net->sent[ELEC_MSG_COORDINATOR], 1);
	KUNIT_EXPECT_EQ(test, tm_net_frames(net), 4);
	KUNIT_EXPECT_FALSE(test, tm_alive(d, 5));
	t_net_expect_agree(net, 9);
	t_net_run_for(net, TM_SEC);
	t_net_expect_agree(net, 9);
}

/*
 * Concurrent detection: every follower's detector fires at the same
 * instant (they heard the same heartbeats); with ask-suspect on and off,
 * the runs end with one leader, the lowest live id, in one term. Then
 * concurrent elect commands under that live leader keep it and its term.
 */
static void tm_net_concurrent(struct kunit *test, bool ask_off)
{
	struct t_net *net = tm_net_new(test, tm_ids, 5, ask_off, false, 0);
	u64 term;

	net->timers_first = true;
	t_net_start_all(net);
	t_net_run_for(net, TM_SEC);
	t_net_expect_agree(net, 3);

	t_net_crash(net, 3);
	t_net_run_for(net, TM_SEC);
	t_net_expect_agree(net, 5);
	term = t_net_node(net, 5)->c.term;
	KUNIT_EXPECT_EQ(test, term, 2);

	elec_core_elect(&t_net_node(net, 9)->c, net->now);
	elec_core_elect(&t_net_node(net, 12)->c, net->now);
	elec_core_elect(&t_net_node(net, 20)->c, net->now);
	t_net_run_for(net, TM_SEC);
	t_net_expect_agree(net, 5);
	KUNIT_EXPECT_EQ(test, t_net_node(net, 5)->c.term, term);

	/* the lowest two gone: all detect at once again */
	t_net_crash(net, 5);
	t_net_run_for(net, TM_SEC);
	t_net_expect_agree(net, 9);
}

static void tm_net_concurrent_ask_on(struct kunit *test)
{
	tm_net_concurrent(test, false);
}

static void tm_net_concurrent_ask_off(struct kunit *test)
{
	tm_net_concurrent(test, true);
}

/*
 * group elect at the highest id under a live leader: ELECTION, the
 * leader's unicast COORDINATOR at its term, OK from the other lower ids:
 * n frames. The leader's re-announcement ends the run (no COORDINATOR
 * naming it again), no new term, no leader change.
 */
static void tm_net_elect_live_leader(struct kunit *test)
{
	struct t_net *net = tm_net_new(test, tm_ids, 5, false, false, 0);
	u64 changes;

	t_net_start_all(net);
	t_net_run_for(net, TM_SEC);
	t_net_expect_agree(net, 3);
	changes = t_net_node(net, 20)->c.stats.leader_changes;
	memset(net->sent, 0, sizeof(net->sent));

	elec_core_elect(&t_net_node(net, 20)->c, net->now);
	t_net_drain(net);
	KUNIT_EXPECT_EQ(test, net->sent[ELEC_MSG_ELECTION], 1);
	KUNIT_EXPECT_EQ(test, net->sent[ELEC_MSG_ANSWER], 3);
	KUNIT_EXPECT_EQ(test, net->sent[ELEC_MSG_COORDINATOR], 1);
	KUNIT_EXPECT_EQ(test, tm_net_frames(net), 5);
	t_net_expect_agree(net, 3);
	KUNIT_EXPECT_EQ(test, t_net_node(net, 3)->c.term, 1);
	KUNIT_EXPECT_EQ(test, t_net_node(net, 20)->c.stats.leader_changes,
			changes);
}

/*
 * A false suspicion: the second minimum misses the minimum's heartbeats
 * (the link 3 -> 5 is cut for a detection window). ask-suspect on: its
 * probe is answered by the minimum's unicast COORDINATOR at its term: 2
 * frames, no new term, no leader change anywhere. Off: it claims (the
 * paper's step 1a) and step 6 restores the minimum: two new terms, two
 * leader changes at every node.
 */
static void tm_net_false_suspicion(struct kunit *test, bool ask_off)
{
	/* 5 before 3 in node order: its detector fires before 3's beat */
	static const u32 ids[] = { 5, 3, 9, 12, 20 };
	struct t_net *net = tm_net_new(test, ids, 5, ask_off, false, 0);
	struct t_node *f = t_net_node(net, 5);
	struct t_node *l = t_net_node(net, 3);
	u64 changes[5], elections, term, detect;
	u32 i;

	t_net_start_all(net);
	t_net_run_for(net, TM_SEC);
	t_net_expect_agree(net, 3);
	term = l->c.term;
	elections = f->c.stats.elections;
	for (i = 0; i < 5; i++)
		changes[i] = net->node[i]->c.stats.leader_changes;

	net->cut[l->idx][f->idx] = true;
	detect = f->c.timer_expires[ELEC_TIMER_DETECT];
	t_net_run(net, detect - 1);
	KUNIT_EXPECT_EQ(test, f->c.stats.elections, elections);
	net->cut[l->idx][f->idx] = false;
	memset(net->sent, 0, sizeof(net->sent));
	t_net_run(net, detect + T_T);
	KUNIT_EXPECT_EQ(test, f->c.stats.elections, elections + 1);
	if (!ask_off) {
		KUNIT_EXPECT_EQ(test, net->sent[ELEC_MSG_ELECTION], 1);
		KUNIT_EXPECT_EQ(test, net->sent[ELEC_MSG_COORDINATOR], 1);
		KUNIT_EXPECT_EQ(test, net->sent[ELEC_MSG_ANSWER], 0);
	}
	t_net_run_for(net, TM_SEC);
	t_net_expect_agree(net, 3);
	KUNIT_EXPECT_EQ(test, l->c.term, ask_off ? term + 2 : term);
	for (i = 0; i < 5; i++) {
		struct t_node *n = net->node[i];

		KUNIT_EXPECT_EQ_MSG(test, n->c.stats.leader_changes,
				    changes[i] + (ask_off ? 2 : 0), "node %u",
				    n->c.cfg.self_id);
	}
}

static void tm_net_false_suspicion_ask_on(struct kunit *test)
{
	tm_net_false_suspicion(test, false);
}

static void tm_net_false_suspicion_ask_off(struct kunit *test)
{
	tm_net_false_suspicion(test, true);
}

/*
 * The minimum returns. Rebooted (term 0), its claim is stale everywhere:
 * each node tells it with an ELECTION carrying the group's term, and it
 * claims anew above it. Back from a short stop with its term kept and
 * nobody elected meanwhile, its claim is accepted at once: one frame.
 */
static void tm_net_min_returns(struct kunit *test)
{
	struct t_net *net = tm_net_new(test, tm_ids, 5, false, false, 0);
	struct t_node *m = t_net_node(net, 3);
	u64 term;

	t_net_start_all(net);
	t_net_run_for(net, TM_SEC);
	t_net_crash(net, 3);
	t_net_run_for(net, TM_SEC);
	t_net_expect_agree(net, 5);
	term = t_net_node(net, 5)->c.term;

	memset(net->sent, 0, sizeof(net->sent));
	t_net_reboot(net, 3);
	t_net_drain(net);
	KUNIT_EXPECT_EQ(test, net->sent[ELEC_MSG_ELECTION], 4);
	KUNIT_EXPECT_GE(test, net->sent[ELEC_MSG_COORDINATOR], 2);
	t_net_expect_agree(net, 3);
	KUNIT_EXPECT_EQ(test, m->c.term, term + 1);
	KUNIT_EXPECT_TRUE(test, tm_alive(t_net_node(net, 20), 3));
	t_net_run_for(net, TM_SEC);
	t_net_expect_agree(net, 3);

	/* a stop shorter than the detection window */
	term = m->c.term;
	elec_core_stop(&m->c, net->now);
	t_net_run_for(net, T_HB);
	memset(net->sent, 0, sizeof(net->sent));
	elec_core_start(&m->c, net->now);
	t_net_drain(net);
	KUNIT_EXPECT_EQ(test, net->sent[ELEC_MSG_COORDINATOR], 1);
	KUNIT_EXPECT_EQ(test, tm_net_frames(net), 1);
	t_net_expect_agree(net, 3);
	KUNIT_EXPECT_EQ(test, m->c.term, term + 1);
}

/*
 * Preempt off: the returning minimum queries, follows the second minimum
 * and begins no run. With a preempt-delay it follows that long, then
 * takes over at the next term.
 */
static void tm_net_returning(struct kunit *test, u64 delay)
{
	struct t_net *net = tm_net_new(test, tm_ids, 5, false, !delay, delay);
	struct t_node *m = t_net_node(net, 3);
	u64 term, back;

	t_net_start_all(net);
	t_net_run_for(net, TM_SEC);
	/* preempt off or delayed: the minimum queried too, then claimed */
	t_net_expect_agree(net, 3);
	t_net_crash(net, 3);
	t_net_run_for(net, TM_SEC);
	t_net_expect_agree(net, 5);
	term = t_net_node(net, 5)->c.term;

	t_net_reboot(net, 3);
	back = net->now;
	t_net_run(net, back + (delay ? delay - 1 : TM_SEC));
	t_net_expect_agree(net, 5);
	KUNIT_EXPECT_EQ(test, m->c.stats.elections, 0);
	KUNIT_EXPECT_EQ(test, t_net_node(net, 5)->c.term, term);
	if (!delay)
		return;
	t_net_run_for(net, TM_SEC);
	t_net_expect_agree(net, 3);
	KUNIT_EXPECT_EQ(test, m->c.stats.elections, 1);
	KUNIT_EXPECT_EQ(test, m->c.term, term + 1);
}

static void tm_net_preempt_off(struct kunit *test)
{
	tm_net_returning(test, 0);
}

/*
 * Preempt off keeps a live worse leader whoever runs: the returning
 * minimum follows 5; group elect at 20 asks everyone lower, 3 answers OK,
 * 5 re-announces itself at its term, which ends the run: 5 stays leader
 * at its term (the lowest responder, 3, is not named).
 */
static void tm_net_preempt_off_elect_keeps(struct kunit *test)
{
	struct t_net *net = tm_net_new(test, tm_ids, 5, false, true, 0);
	u64 term;

	t_net_start_all(net);
	t_net_run_for(net, TM_SEC);
	t_net_crash(net, 3);
	t_net_run_for(net, TM_SEC);
	t_net_reboot(net, 3);
	t_net_run_for(net, TM_SEC);
	t_net_expect_agree(net, 5);
	term = t_net_node(net, 5)->c.term;

	elec_core_elect(&t_net_node(net, 20)->c, net->now);
	t_net_run_for(net, TM_SEC);
	t_net_expect_agree(net, 5);
	KUNIT_EXPECT_EQ(test, t_net_node(net, 5)->c.term, term);
	KUNIT_EXPECT_EQ(test, t_net_node(net, 3)->c.stats.elections, 0);
}

static void tm_net_preempt_delay(struct kunit *test)
{
	tm_net_returning(test, 300000000ULL);
}

/*
 * The leader resigns and stops: the second minimum claims at once, well
 * within a heartbeat interval, and stays leader.
 */
static void tm_net_resign(struct kunit *test)
{
	struct t_net *net = tm_net_new(test, tm_ids, 5, false, false, 0);
	struct t_node *l = t_net_node(net, 3);
	u64 term;

	t_net_start_all(net);
	t_net_run_for(net, TM_SEC);
	t_net_expect_agree(net, 3);
	term = l->c.term;
	memset(net->sent, 0, sizeof(net->sent));

	elec_core_resign(&l->c, net->now);
	elec_core_stop(&l->c, net->now);
	t_net_run_for(net, T_HB - 1);
	t_net_expect_agree(net, 5);
	KUNIT_EXPECT_EQ(test, t_net_node(net, 5)->c.term, term + 1);
	KUNIT_EXPECT_EQ(test, net->sent[ELEC_MSG_HEARTBEAT], 1);
	t_net_run_for(net, TM_SEC);
	t_net_expect_agree(net, 5);
}

/* the random network test's nodes: the lowest live id leads */
static const struct t_rand_net tm_rand = {
	{ 40, 7, 23, 11, 60, 4, 19, 41 }, tm_node_init, tm_net_lowest_up
};

static void tm_net_random_failures(struct kunit *test)
{
	t_net_random(test, &tm_rand, false, false, 0, 0x2545f491);
	t_net_random(test, &tm_rand, true, false, 0, 0x9e3779b9);
}

static void tm_net_random_failures_preempt_off(struct kunit *test)
{
	t_net_random(test, &tm_rand, false, true, 0, 0x2545f491);
	t_net_random(test, &tm_rand, true, true, 0, 0x9e3779b9);
}

static void tm_net_random_failures_preempt_delay(struct kunit *test)
{
	t_net_random(test, &tm_rand, false, false, 300000000ULL, 0x2545f491);
	t_net_random(test, &tm_rand, true, false, 300000000ULL, 0x9e3779b9);
}

/* ---- review rules ------------------------------------------------------ */

/*
 * A leader named again at a newer term takes the term and keeps its
 * heartbeat's pace: a peer naming it every few ms cannot silence it.
 */
static void tm_lead_renamed_keeps_heartbeat(struct kunit *test)
{
	struct t_node *n = tm_node(test, 3);
	u64 hb;

	tm_lead(n, 4);
	hb = n->c.timer_expires[ELEC_TIMER_HEARTBEAT];
	KUNIT_ASSERT_NE(test, hb, 0);
	n->now += T_HB / 2;
	tm_rx_coord(n, 12, 0, 5, 3);
	KUNIT_EXPECT_EQ(test, n->c.term, 5);
	KUNIT_EXPECT_EQ(test, n->c.role, ELEC_ROLE_LEADER);
	KUNIT_EXPECT_EQ(test, n->c.timer_expires[ELEC_TIMER_HEARTBEAT], hb);
	KUNIT_EXPECT_EQ(test, t_sends(n, 0, T_ANY), 0);
}

/*
 * A third node naming the leader a follower already has moves the term,
 * not the detection window: it runs from the leader's own last frame.
 * A new leader named by a third node starts a fresh window.
 */
static void tm_third_party_does_not_vouch(struct kunit *test)
{
	struct t_node *n = tm_node(test, 12);
	u64 heard, detect;

	tm_follow(n, 3, 4);
	heard = n->c.leader_rx_ns;
	detect = n->c.timer_expires[ELEC_TIMER_DETECT];
	n->now += T_DETECT / 2;
	tm_rx_coord(n, 9, 0, 5, 3);
	KUNIT_EXPECT_EQ(test, n->c.term, 5);
	KUNIT_EXPECT_EQ(test, n->c.leader, 3);
	KUNIT_EXPECT_EQ(test, n->c.leader_rx_ns, heard);
	KUNIT_EXPECT_EQ(test, n->c.timer_expires[ELEC_TIMER_DETECT], detect);

	/* the leader's own heartbeat does refresh it */
	tm_rx(n, ELEC_MSG_HEARTBEAT, 3, 0, 5);
	KUNIT_EXPECT_EQ(test, n->c.leader_rx_ns, n->now);
	KUNIT_EXPECT_EQ(test, n->c.timer_expires[ELEC_TIMER_DETECT],
			n->now + T_DETECT);

	/* a different coordinator named by a third node: a fresh window */
	n->now += T_HB;
	tm_rx_coord(n, 9, 0, 6, 5);
	KUNIT_EXPECT_EQ(test, n->c.leader, 5);
	KUNIT_EXPECT_EQ(test, n->c.timer_expires[ELEC_TIMER_DETECT],
			n->now + T_DETECT);
}

/*
 * Every claim is a run: counted in elections and reported with
 * election_started (the second minimum's claim on an ELECTION, the
 * minimum's at start).
 */
static void tm_claim_is_a_run(struct kunit *test)
{
	struct t_node *n = tm_node(test, 5);

	t_start(n);
	t_clear(n);
	tm_rx(n, ELEC_MSG_ELECTION, 12, 0, 0);
	tm_expect_claim(n, 1);
	KUNIT_EXPECT_EQ(test, n->c.stats.elections, 1);
	KUNIT_EXPECT_EQ(test, t_events(n, ELEC_EVENT_ELECTION_STARTED, 0), 1);

	n = tm_node(test, 3);
	t_start(n);
	KUNIT_EXPECT_EQ(test, n->c.role, ELEC_ROLE_LEADER);
	KUNIT_EXPECT_EQ(test, n->c.stats.elections, 1);
	KUNIT_EXPECT_EQ(test, t_events(n, ELEC_EVENT_ELECTION_STARTED, 0), 1);
}

/*
 * Standby: the second minimum asked by a higher id neither claims nor
 * answers OK; named coordinator by a run it answered earlier, it leads
 * not; the minimum in standby does not announce itself at its start.
 */
static void tm_standby(struct kunit *test)
{
	struct t_node *n = tm_node(test, 5);

	t_start(n);
	t_standby(n, true);
	t_clear(n);
	tm_rx(n, ELEC_MSG_ELECTION, 9, 0, 4);
	KUNIT_EXPECT_EQ(test, n->n_acts, 0);
	KUNIT_EXPECT_EQ(test, n->c.stats.elections, 0);
	tm_rx_coord(n, 9, 0, 5, 5);
	KUNIT_EXPECT_NE(test, n->c.role, ELEC_ROLE_LEADER);
	KUNIT_EXPECT_EQ(test, n->c.leader, 0);
	KUNIT_EXPECT_EQ(test, t_sends(n, 0, T_ANY), 0);
	/* its detector: no claim */
	n->now += T_DETECT;
	t_fire(n, ELEC_TIMER_DETECT);
	KUNIT_EXPECT_EQ(test, t_sends(n, 0, T_ANY), 0);
	KUNIT_EXPECT_EQ(test, n->c.stats.elections, 0);
	/* out of standby, no leader: it claims (the second minimum) */
	t_standby(n, false);
	KUNIT_EXPECT_EQ(test, n->c.leader, 5);
	KUNIT_EXPECT_EQ(test, n->c.role, ELEC_ROLE_LEADER);

	/* the minimum in admin standby: no claim at start, a QUERY */
	n = tm_node(test, 3);
	t_standby(n, true);
	t_start(n);
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_COORDINATOR, T_ANY), 0);
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_QUERY, T_ANY), 1);
	KUNIT_EXPECT_EQ(test, n->c.phase, ELEC_BULLY_LEARNING);
}

static void tm_net_standby(struct kunit *test)
{
	static const u32 ids[] = { 1, 2, 3, 4, 5 };

	t_net_bully_standby(tm_net_new(test, ids, 5, false, false, 0), ids);
}

static void tm_net_standby_quorum(struct kunit *test)
{
	static const u32 ids[] = { 1, 2, 3 };

	t_net_bully_standby_quorum(tm_net_new(test, ids, 3, false, false, 0),
				   ids);
}

static struct kunit_case elec_min_bully_cases[] = {
	KUNIT_CASE(tm_payload_coordinator),
	KUNIT_CASE(tm_payload_others_empty),
	KUNIT_CASE(tm_codec_round_trip),
	KUNIT_CASE(tm_max_frame),
	KUNIT_CASE(tm_join_min_claims),
	KUNIT_CASE(tm_join_min_preempt_off_queries),
	KUNIT_CASE(tm_join_query),
	KUNIT_CASE(tm_join_only_leader_answers),
	KUNIT_CASE(tm_join_cid_accepted),
	KUNIT_CASE(tm_join_lower_than_coordinator),
	KUNIT_CASE(tm_join_query_unanswered),
	KUNIT_CASE(tm_second_detect_claims),
	KUNIT_CASE(tm_second_detect_probe),
	KUNIT_CASE(tm_second_probe_timeout),
	KUNIT_CASE(tm_third_detect_broadcast),
	KUNIT_CASE(tm_third_finish_early),
	KUNIT_CASE(tm_third_all_ok),
	KUNIT_CASE(tm_third_timeout_names_responder),
	KUNIT_CASE(tm_third_no_response_claims),
	KUNIT_CASE(tm_third_awaits_alive_only),
	KUNIT_CASE(tm_named_becomes_leader),
	KUNIT_CASE(tm_rx_election_from_lower_ignored),
	KUNIT_CASE(tm_rx_election_from_higher_ok),
	KUNIT_CASE(tm_rx_election_second_claims),
	KUNIT_CASE(tm_rx_election_min_not_leading),
	KUNIT_CASE(tm_rx_election_leader_reannounces),
	KUNIT_CASE(tm_coord_names_other),
	KUNIT_CASE(tm_quorum_named_stale),
	KUNIT_CASE(tm_named_after_better_claim),
	KUNIT_CASE(tm_answer_backoff),
	KUNIT_CASE(tm_coord_unknown_k),
	KUNIT_CASE(tm_coord_sender_checks),
	KUNIT_CASE(tm_preempt_on),
	KUNIT_CASE(tm_preempt_off),
	KUNIT_CASE(tm_preempt_delay),
	KUNIT_CASE(tm_rate_limit),
	KUNIT_CASE(tm_stale_better_claimant),
	KUNIT_CASE(tm_stale_worse_told_by_leader),
	KUNIT_CASE(tm_stale_claim_counts_as_told),
	KUNIT_CASE(tm_leaving_second_claims),
	KUNIT_CASE(tm_leaving_third_skips),
	KUNIT_CASE(tm_term_claim_max_plus_one),
	KUNIT_CASE(tm_term_far_behind),
	KUNIT_CASE(tm_term_far_behind_in_run),
	KUNIT_CASE(tm_net_boot),
	KUNIT_CASE(tm_net_boot_min_absent),
	KUNIT_CASE(tm_net_second_detects_ask_off),
	KUNIT_CASE(tm_net_second_detects_ask_on),
	KUNIT_CASE(tm_net_highest_detects_ask_off),
	KUNIT_CASE(tm_net_highest_detects_ask_on),
	KUNIT_CASE(tm_net_second_absent),
	KUNIT_CASE(tm_net_concurrent_ask_on),
	KUNIT_CASE(tm_net_concurrent_ask_off),
	KUNIT_CASE(tm_net_elect_live_leader),
	KUNIT_CASE(tm_net_false_suspicion_ask_on),
	KUNIT_CASE(tm_net_false_suspicion_ask_off),
	KUNIT_CASE(tm_net_min_returns),
	KUNIT_CASE(tm_net_preempt_off),
	KUNIT_CASE(tm_net_preempt_off_elect_keeps),
	KUNIT_CASE(tm_lead_renamed_keeps_heartbeat),
	KUNIT_CASE(tm_third_party_does_not_vouch),
	KUNIT_CASE(tm_claim_is_a_run),
	KUNIT_CASE(tm_net_preempt_delay),
	KUNIT_CASE(tm_net_resign),
	KUNIT_CASE(tm_net_random_failures),
	KUNIT_CASE(tm_net_random_failures_preempt_off),
	KUNIT_CASE(tm_net_random_failures_preempt_delay),
	KUNIT_CASE(tm_standby),
	KUNIT_CASE(tm_net_standby),
	KUNIT_CASE(tm_net_standby_quorum),
	{}
};

static struct kunit_suite elec_min_bully_suite = {
	.name = "elec_min_bully",
	.test_cases = elec_min_bully_cases,
};

kunit_test_suites(&elec_min_bully_suite);
