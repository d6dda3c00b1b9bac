// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of frame authentication as the protocol core sees it (the
 * MAC itself is the embedder's: module/auth.c):
 *  - the codec writes and reads the trailer (counter, room for the MAC)
 *    and reports a cut one as ELEC_DECODE_AUTH_SHORT;
 *  - a node with a key flags every frame it sends, with counters that
 *    follow the wall clock and never go back (also across key changes);
 *  - a node with a key drops frames without the trailer (auth_missing),
 *    a node without one drops frames with it (auth_unexpected), and a
 *    counter not above the last accepted from that peer is a replay
 *    (auth_replay) that changes nothing;
 *  - the counters stay with their peers when the table changes;
 *  - a sender that restarts is accepted while its clock moved forward,
 *    and dropped when its clock stepped back (the documented rule);
 *  - a group with keys elects exactly as one without (same frames), and
 *    drops every duplicated frame as a replay.
 *
 * Like the other suites, it also runs in userspace (tests/core).
 */
#include "elec_kunit_net.h"

static const u32 ta_ids5[] = { 1, 2, 3, 4, 5 };

/* the wall clock of the suite's nodes: far from the core's clock */
#define TA_WALL		1700000000000000000ULL

/* a Bully node @self of ta_ids5, with a key when @auth */
static void ta_node_init(struct t_node *n, u32 self, bool auth, u64 wall)
{
	struct elec_sink sink = { .emit = t_emit, .ctx = n };
	struct elec_config cfg;
	u32 i;

	t_cfg_algo(&cfg, ELEC_ALGO_BULLY, self);
	KUNIT_ASSERT_EQ(n->test, elec_core_init(&n->c, &cfg, n->peers,
						T_MAX_NODES - 1, &sink), 0);
	for (i = 0; i < ARRAY_SIZE(ta_ids5); i++)
		if (ta_ids5[i] != self)
			KUNIT_ASSERT_EQ(n->test,
					elec_core_peer_add(&n->c, ta_ids5[i],
							   NULL), 0);
	if (auth)
		elec_core_set_auth(&n->c, n->rx_ctr, wall, n->now);
	t_clear(n);
}

static struct t_node *ta_node(struct kunit *test, u32 self, bool auth)
{
	struct t_node *n = kunit_kzalloc(test, sizeof(*n), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, n);
	n->test = test;
	n->now = T_START;
	ta_node_init(n, self, auth, TA_WALL);
	return n;
}

/* a HEARTBEAT from @src, flagged with counter @ctr when @ctr is not 0 */
static void ta_rx(struct t_node *n, u32 src, u64 term, u64 ctr)
{
	struct elec_msg m;

	memset(&m, 0, sizeof(m));
	m.type = ELEC_MSG_HEARTBEAT;
	m.algo = ELEC_ALGO_BULLY;
	m.group = T_GROUP;
	m.src = src;
	m.term = term;
	if (ctr) {
		m.flags = ELECTION_FLAG_AUTH;
		m.auth_ctr = ctr;
	}
	elec_core_rx(&n->c, &m, n->now);
}

/* ---- codec ----------------------------------------------------------------- */

static void ta_codec_trailer(struct kunit *test)
{
	u8 buf[ELECTION_HDR_LEN + ELECTION_ALIVE_LEN + ELECTION_AUTH_LEN];
	u8 pl[ELECTION_ALIVE_LEN] = { 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 9 };
	struct elec_msg in, out;
	size_t len, cut;

	memset(&in, 0, sizeof(in));
	in.type = ELEC_MSG_ALIVE;
	in.algo = ELEC_ALGO_BULLY;
	in.flags = ELECTION_FLAG_AUTH;
	in.group = T_GROUP;
	in.src = 3;
	in.term = 9;
	in.payload = pl;
	in.payload_len = sizeof(pl);
	in.auth_ctr = 0x0102030405060708ULL;
	memset(buf, 0xee, sizeof(buf));
	len = elec_codec_encode(&in, buf, sizeof(buf));
	KUNIT_ASSERT_EQ(test, len, sizeof(buf));
	/* one byte less room: refused */
	KUNIT_EXPECT_EQ(test, elec_codec_encode(&in, buf, sizeof(buf) - 1), 0);
	KUNIT_EXPECT_EQ(test, buf[3], ELECTION_FLAG_AUTH);
	/* the counter, big-endian, after the payload; the MAC's room zeroed */
	KUNIT_EXPECT_EQ(test, buf[ELECTION_HDR_LEN + sizeof(pl)], 0x01);
	KUNIT_EXPECT_EQ(test, buf[ELECTION_HDR_LEN + sizeof(pl) + 7], 0x08);
	for (cut = len - ELECTION_AUTH_MAC_LEN; cut < len; cut++)
		KUNIT_EXPECT_EQ(test, buf[cut], 0);

	memset(&out, 0, sizeof(out));
	KUNIT_ASSERT_EQ(test, elec_codec_decode(buf, len, &out),
			ELEC_DECODE_OK);
	KUNIT_EXPECT_EQ(test, out.flags, ELECTION_FLAG_AUTH);
	KUNIT_EXPECT_EQ(test, out.auth_ctr, in.auth_ctr);
	KUNIT_EXPECT_EQ(test, out.payload_len, sizeof(pl));
	KUNIT_EXPECT_EQ(test, out.src, 3);

	/* every cut into the trailer: AUTH_SHORT, the fields filled in */
	for (cut = 1; cut <= ELECTION_AUTH_LEN; cut++) {
		memset(&out, 0, sizeof(out));
		KUNIT_EXPECT_EQ_MSG(test, elec_codec_decode(buf, len - cut, &out),
				    ELEC_DECODE_AUTH_SHORT, "cut %zu", cut);
		KUNIT_EXPECT_EQ(test, out.group, T_GROUP);
		KUNIT_EXPECT_EQ(test, out.src, 3);
	}
	KUNIT_EXPECT_STREQ(test, elec_decode_reason(ELEC_DECODE_AUTH_SHORT),
			   "authentication trailer cut short");

	/* with LEAVING on a HEARTBEAT; LEAVING elsewhere stays malformed */
	memset(&in, 0, sizeof(in));
	in.type = ELEC_MSG_HEARTBEAT;
	in.algo = ELEC_ALGO_BULLY;
	in.flags = ELECTION_FLAG_AUTH | ELECTION_FLAG_LEAVING;
	in.group = T_GROUP;
	in.src = 5;
	len = elec_codec_encode(&in, buf, sizeof(buf));
	KUNIT_ASSERT_EQ(test, len, ELECTION_HDR_LEN + ELECTION_AUTH_LEN);
	KUNIT_EXPECT_EQ(test, elec_codec_decode(buf, len, &out),
			ELEC_DECODE_OK);
	buf[1] = ELEC_MSG_ELECTION;
	KUNIT_EXPECT_EQ(test, elec_codec_decode(buf, len, &out),
			ELEC_DECODE_FLAGS);
	/* padding after the trailer is ignored */
	buf[1] = ELEC_MSG_HEARTBEAT;
	KUNIT_EXPECT_EQ(test, elec_codec_decode(buf, sizeof(buf), &out),
			ELEC_DECODE_OK);
}

/* ---- sending --------------------------------------------------------------- */

static void ta_tx_counters(struct kunit *test)
{
	struct t_node *n = ta_node(test, 5, true);
	u64 last = 0;
	u32 i, sends = 0;

	/* node 5 elects itself and sends heartbeats: every frame flagged */
	t_start(n);
	t_fire(n, ELEC_TIMER_DETECT);
	for (i = 0; i < 3; i++)
		t_fire(n, ELEC_TIMER_HEARTBEAT);
	for (i = 0; i < n->n_acts; i++) {
		const struct elec_action *a = &n->acts[i];

		if (a->kind != ELEC_ACT_SEND)
			continue;
		sends++;
		KUNIT_EXPECT_TRUE(test, a->msg.flags & ELECTION_FLAG_AUTH);
		KUNIT_EXPECT_GT(test, a->msg.auth_ctr, last);
		/* the wall clock: TA_WALL at the key's setting, T_START */
		KUNIT_EXPECT_GE(test, a->msg.auth_ctr,
				TA_WALL + (a->now_ns - T_START));
		last = a->msg.auth_ctr;
	}
	KUNIT_EXPECT_GE(test, sends, 4);

	/* frames at one instant: one apart */
	KUNIT_EXPECT_EQ(test, elec_auth_next_ctr(&n->c, n->now), last + 1);
	KUNIT_EXPECT_EQ(test, elec_auth_next_ctr(&n->c, n->now), last + 2);

	/* a new key whose clock reads earlier: the counter still goes up */
	elec_core_set_auth(&n->c, n->rx_ctr, TA_WALL - 1000000000ULL, n->now);
	KUNIT_EXPECT_EQ(test, elec_auth_next_ctr(&n->c, n->now), last + 3);

	/* the largest frame grows by the trailer */
	KUNIT_EXPECT_EQ(test, elec_core_max_frame(&n->c, 5),
			elec_config_max_frame(&n->c.cfg, 5) + ELECTION_AUTH_LEN);

	/* key removed: frames go without the trailer */
	elec_core_set_auth(&n->c, NULL, 0, n->now);
	KUNIT_EXPECT_EQ(test, elec_core_max_frame(&n->c, 5),
			elec_config_max_frame(&n->c.cfg, 5));
	t_clear(n);
	t_fire(n, ELEC_TIMER_HEARTBEAT);
	KUNIT_EXPECT_EQ(test, t_last_send(test, n)->msg.flags, 0);

	/* the counter saturates */
	elec_core_set_auth(&n->c, n->rx_ctr, 0, n->now);
	n->c.auth.tx_ctr = U64_MAX;
	KUNIT_EXPECT_EQ(test, elec_auth_next_ctr(&n->c, n->now), U64_MAX);
}

/* ---- receiving ------------------------------------------------------------- */

static void ta_rx_rules(struct kunit *test)
{
	struct t_node *n = ta_node(test, 3, true);
	struct t_node *plain = ta_node(test, 3, false);
	u64 rx_hb;

	t_start(n);
	t_clear(n);
	rx_hb = n->c.stats.rx[ELEC_MSG_HEARTBEAT];

	/* without the trailer: missing, nothing heard */
	ta_rx(n, 5, 1, 0);
	KUNIT_EXPECT_EQ(test, n->c.stats.drops[ELEC_DROP_AUTH_MISSING], 1);
	KUNIT_EXPECT_EQ(test, n->c.stats.rx[ELEC_MSG_HEARTBEAT], rx_hb);
	KUNIT_EXPECT_EQ(test, elec_core_peer_find(&n->c, 5)->heard_ns, 0);

	/* the first counter of a peer is taken */
	ta_rx(n, 5, 1, 100);
	KUNIT_EXPECT_EQ(test, n->c.stats.rx[ELEC_MSG_HEARTBEAT], rx_hb + 1);
	KUNIT_EXPECT_EQ(test, n->rx_ctr[3], 100);	/* peers 1 2 4 5 */

	/* the same counter, a lower one: replays, state unchanged */
	n->now += 1000;
	ta_rx(n, 5, 1, 100);
	ta_rx(n, 5, 1, 99);
	ta_rx(n, 5, 1, 1);
	KUNIT_EXPECT_EQ(test, n->c.stats.drops[ELEC_DROP_AUTH_REPLAY], 3);
	KUNIT_EXPECT_EQ(test, n->c.stats.rx[ELEC_MSG_HEARTBEAT], rx_hb + 1);
	KUNIT_EXPECT_EQ(test, n->rx_ctr[3], 100);
	KUNIT_EXPECT_EQ(test, elec_core_peer_find(&n->c, 5)->heard_ns,
			n->now - 1000);

	/* higher: taken; another peer has its own counter */
	ta_rx(n, 5, 1, 101);
	ta_rx(n, 4, 1, 7);
	KUNIT_EXPECT_EQ(test, n->c.stats.rx[ELEC_MSG_HEARTBEAT], rx_hb + 3);
	KUNIT_EXPECT_EQ(test, n->rx_ctr[2], 7);
	KUNIT_EXPECT_EQ(test, n->rx_ctr[3], 101);

	/* a frame that fails an earlier check does not move the counter */
	ta_rx(n, 9, 1, 500);		/* unknown peer */
	KUNIT_EXPECT_EQ(test, n->c.stats.drops[ELEC_DROP_UNKNOWN_PEER], 1);
	elec_core_stop(&n->c, n->now);
	ta_rx(n, 5, 1, 600);		/* stopped */
	KUNIT_EXPECT_EQ(test, n->rx_ctr[3], 101);
	t_start(n);

	/* a new key: every peer's first counter is taken again */
	elec_core_set_auth(&n->c, n->rx_ctr, TA_WALL, n->now);
	KUNIT_EXPECT_EQ(test, n->rx_ctr[3], 0);
	ta_rx(n, 5, 1, 50);
	KUNIT_EXPECT_EQ(test, n->c.stats.drops[ELEC_DROP_AUTH_REPLAY], 3);
	KUNIT_EXPECT_EQ(test, n->rx_ctr[3], 50);

	/* no key: a trailer is unexpected, no trailer fine */
	t_start(plain);
	rx_hb = plain->c.stats.rx[ELEC_MSG_HEARTBEAT];
	ta_rx(plain, 5, 1, 100);
	KUNIT_EXPECT_EQ(test, plain->c.stats.drops[ELEC_DROP_AUTH_UNEXPECTED],
			1);
	KUNIT_EXPECT_EQ(test, plain->c.stats.rx[ELEC_MSG_HEARTBEAT], rx_hb);
	ta_rx(plain, 5, 1, 0);
	KUNIT_EXPECT_EQ(test, plain->c.stats.rx[ELEC_MSG_HEARTBEAT], rx_hb + 1);
}

/* the counters move with their peers when the table changes */
/*
 * In a group with a key, the address "show" reports for a peer
 * (seen_lladdr) comes only from authenticated frames: a frame without
 * the trailer, from any address, leaves it as it was.
 */
static void ta_seen_lladdr(struct kunit *test)
{
	static const u8 good[ELEC_LLADDR_LEN] = { 2, 0, 0, 0, 0, 5 };
	static const u8 forged[ELEC_LLADDR_LEN] = { 2, 0, 0, 0, 0, 0x66 };
	struct t_node *n = ta_node(test, 3, true);
	struct t_node *plain = ta_node(test, 3, false);
	struct elec_msg m;

	memset(&m, 0, sizeof(m));
	m.type = ELEC_MSG_HEARTBEAT;
	m.algo = ELEC_ALGO_BULLY;
	m.group = T_GROUP;
	m.src = 5;
	m.term = 1;
	m.src_lladdr = forged;
	t_start(n);
	t_start(plain);
	/* no trailer, a forged address: auth_missing or wrong_lladdr */
	elec_core_rx(&n->c, &m, n->now);
	KUNIT_EXPECT_EQ(test, n->c.stats.drops[ELEC_DROP_WRONG_LLADDR], 1);
	KUNIT_EXPECT_TRUE(test, !memcmp(elec_core_peer_find(&n->c, 5)->seen_lladdr,
					"\0\0\0\0\0\0", ELEC_LLADDR_LEN));
	/* an authenticated frame from another address: recorded */
	m.flags = ELECTION_FLAG_AUTH;
	m.auth_ctr = 10;
	m.src_lladdr = good;
	elec_core_rx(&n->c, &m, n->now);
	KUNIT_EXPECT_TRUE(test, !memcmp(elec_core_peer_find(&n->c, 5)->seen_lladdr,
					good, ELEC_LLADDR_LEN));
	/* then an unauthenticated one: the address stays */
	m.flags = 0;
	m.src_lladdr = forged;
	elec_core_rx(&n->c, &m, n->now);
	KUNIT_EXPECT_TRUE(test, !memcmp(elec_core_peer_find(&n->c, 5)->seen_lladdr,
					good, ELEC_LLADDR_LEN));
	/* without a key every frame tells, as before */
	elec_core_rx(&plain->c, &m, plain->now);
	KUNIT_EXPECT_TRUE(test,
			  !memcmp(elec_core_peer_find(&plain->c, 5)->seen_lladdr,
				  forged, ELEC_LLADDR_LEN));
}

static void ta_peer_table(struct kunit *test)
{
	struct t_node *n = ta_node(test, 3, true);
	static const u8 mac[ELEC_LLADDR_LEN] = { 2, 0, 0, 0, 0, 7 };

	t_start(n);
	ta_rx(n, 2, 1, 20);
	ta_rx(n, 4, 1, 40);
	ta_rx(n, 5, 1, 50);
	/* peer 1 leaves: 2, 4, 5 shift down with their counters */
	KUNIT_ASSERT_EQ(test, elec_core_peer_del(&n->c, 1, n->now), 0);
	ta_rx(n, 4, 1, 40);
	ta_rx(n, 5, 1, 50);
	ta_rx(n, 2, 1, 20);
	KUNIT_EXPECT_EQ(test, n->c.stats.drops[ELEC_DROP_AUTH_REPLAY], 3);
	/* a new peer below them starts at none; the others keep theirs */
	KUNIT_ASSERT_EQ(test, elec_core_peer_add(&n->c, 1, mac), 0);
	KUNIT_EXPECT_EQ(test, n->rx_ctr[0], 0);
	ta_rx(n, 4, 1, 39);
	KUNIT_EXPECT_EQ(test, n->c.stats.drops[ELEC_DROP_AUTH_REPLAY], 4);
	KUNIT_EXPECT_EQ(test, n->rx_ctr[1], 20);
	KUNIT_EXPECT_EQ(test, n->rx_ctr[2], 40);
	KUNIT_EXPECT_EQ(test, n->rx_ctr[3], 50);
}

/*
 * A sender that restarts (a fresh instance, a new key setting) resumes
 * from its wall clock: above what it sent before when the clock went on,
 * replays to its peers when the clock stepped back.
 */
static void ta_restart(struct kunit *test)
{
	struct t_node *rx = ta_node(test, 3, true);
	struct t_node *tx = ta_node(test, 5, true);
	const struct elec_action *a;
	u64 before;

	t_start(rx);
	t_start(tx);
	t_fire(tx, ELEC_TIMER_DETECT);
	a = t_last_send(test, tx);
	ta_rx(rx, 5, a->msg.term, a->msg.auth_ctr);
	before = rx->rx_ctr[3];
	KUNIT_ASSERT_EQ(test, before, a->msg.auth_ctr);

	/* rebooted 1 s later on both clocks: accepted */
	tx->now += 1000000000ULL;
	ta_node_init(tx, 5, true, TA_WALL + 2000000000ULL);
	t_start(tx);
	t_fire(tx, ELEC_TIMER_DETECT);
	a = t_last_send(test, tx);
	KUNIT_EXPECT_GT(test, a->msg.auth_ctr, before);
	ta_rx(rx, 5, a->msg.term, a->msg.auth_ctr);
	KUNIT_EXPECT_EQ(test, rx->rx_ctr[3], a->msg.auth_ctr);
	KUNIT_EXPECT_EQ(test, rx->c.stats.drops[ELEC_DROP_AUTH_REPLAY], 0);
	before = rx->rx_ctr[3];

	/* rebooted with its wall clock an hour back: replays until it passes */
	ta_node_init(tx, 5, true, TA_WALL - 3600000000000ULL);
	t_start(tx);
	t_fire(tx, ELEC_TIMER_DETECT);
	a = t_last_send(test, tx);
	KUNIT_EXPECT_LT(test, a->msg.auth_ctr, before);
	ta_rx(rx, 5, a->msg.term, a->msg.auth_ctr);
	KUNIT_EXPECT_EQ(test, rx->c.stats.drops[ELEC_DROP_AUTH_REPLAY], 1);
	KUNIT_EXPECT_EQ(test, rx->rx_ctr[3], before);
}

/* ---- a group --------------------------------------------------------------- */

static void ta_net_init(struct t_net *net, struct t_node *n, u32 id)
{
	/* each node's wall clock differs */
	KUNIT_ASSERT_EQ(n->test, net->n, ARRAY_SIZE(ta_ids5));
	ta_node_init(n, id, true, TA_WALL + id * 12345ULL);
}

static void ta_net_init_plain(struct t_net *net, struct t_node *n, u32 id)
{
	KUNIT_ASSERT_EQ(n->test, net->n, ARRAY_SIZE(ta_ids5));
	ta_node_init(n, id, false, 0);
}

static u64 ta_net_drops(struct t_net *net, enum elec_drop r)
{
	u64 sum = 0;
	u32 i;

	for (i = 0; i < net->n; i++)
		sum += net->node[i]->c.stats.drops[r];
	return sum;
}

static void ta_run(struct t_net *net, bool dup)
{
	net->dup = dup;
	t_net_start_all(net);
	t_net_run_for(net, 5 * T_DETECT);
	t_net_expect_agree(net, 5);
	/* node 5 crashes; 4 takes over */
	t_net_crash(net, 5);
	t_net_run_for(net, 5 * T_DETECT);
	t_net_expect_agree(net, 4);
}

static void ta_net_same_as_plain(struct kunit *test)
{
	struct t_net *keyed = kunit_kzalloc(test, sizeof(*keyed), GFP_KERNEL);
	struct t_net *plain = kunit_kzalloc(test, sizeof(*plain), GFP_KERNEL);
	u8 type;

	KUNIT_ASSERT_NOT_NULL(test, keyed);
	KUNIT_ASSERT_NOT_NULL(test, plain);
	t_net_init(keyed, test, ta_ids5, 5, ta_net_init);
	t_net_init(plain, test, ta_ids5, 5, ta_net_init_plain);
	ta_run(keyed, false);
	ta_run(plain, false);
	KUNIT_EXPECT_EQ(test, keyed->bad, 0);
	for (type = 1; type <= ELEC_MSG_MAX; type++)
		KUNIT_EXPECT_EQ_MSG(test, t_net_sum_tx(keyed, type),
				    t_net_sum_tx(plain, type), "type %u", type);
	KUNIT_EXPECT_EQ(test, t_net_sum_elections(keyed),
			t_net_sum_elections(plain));
	KUNIT_EXPECT_EQ(test, ta_net_drops(keyed, ELEC_DROP_AUTH_REPLAY), 0);
	KUNIT_EXPECT_EQ(test, ta_net_drops(keyed, ELEC_DROP_AUTH_MISSING), 0);
}

/* every frame twice: each copy is a replay, and nothing else changes */
static void ta_net_duplicates(struct kunit *test)
{
	struct t_net *keyed = kunit_kzalloc(test, sizeof(*keyed), GFP_KERNEL);
	struct t_net *plain = kunit_kzalloc(test, sizeof(*plain), GFP_KERNEL);
	u64 delivered = 0;
	u32 i;
	u8 type;

	KUNIT_ASSERT_NOT_NULL(test, keyed);
	KUNIT_ASSERT_NOT_NULL(test, plain);
	t_net_init(keyed, test, ta_ids5, 5, ta_net_init);
	t_net_init(plain, test, ta_ids5, 5, ta_net_init_plain);
	ta_run(keyed, true);
	ta_run(plain, false);
	KUNIT_EXPECT_EQ(test, keyed->overflow, 0);
	for (type = 1; type <= ELEC_MSG_MAX; type++)
		KUNIT_EXPECT_EQ_MSG(test, t_net_sum_tx(keyed, type),
				    t_net_sum_tx(plain, type), "type %u", type);
	/* the copies that reached a running node were all replays */
	for (i = 0; i < keyed->n; i++)
		for (type = 1; type <= ELEC_MSG_MAX; type++)
			delivered += keyed->node[i]->c.stats.rx[type];
	KUNIT_EXPECT_GT(test, ta_net_drops(keyed, ELEC_DROP_AUTH_REPLAY), 0);
	KUNIT_EXPECT_EQ(test, ta_net_drops(keyed, ELEC_DROP_AUTH_REPLAY),
			delivered);
}

static struct kunit_case elec_auth_cases[] = {
	KUNIT_CASE(ta_codec_trailer),
	KUNIT_CASE(ta_tx_counters),
	KUNIT_CASE(ta_rx_rules),
	KUNIT_CASE(ta_seen_lladdr),
	KUNIT_CASE(ta_peer_table),
	KUNIT_CASE(ta_restart),
	KUNIT_CASE(ta_net_same_as_plain),
	KUNIT_CASE(ta_net_duplicates),
	{}
};

static struct kunit_suite elec_auth_suite = {
	.name = "elec_auth",
	.test_cases = elec_auth_cases,
};

kunit_test_suites(&elec_auth_suite);
