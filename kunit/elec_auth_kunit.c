// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of frame authentication as the protocol core sees it (the
 * MAC itself is the embedder's: module/auth.c):
 *  - the codec writes and reads the trailer (counter, room for the MAC)
 *    and reports a cut one as ELEC_DECODE_AUTH_SHORT;
 *  - a node with a key flags every frame it sends, with counters that
 *    follow the wall clock, carry the frame number in their low bits and
 *    never go back (also across key changes and a wrapping number);
 *  - a node with a key drops frames without the trailer (auth_missing),
 *    a node without one drops frames with it (auth_unexpected); a counter
 *    more than auth-window from the receiver's wall clock is refused
 *    (auth_clock), so a recording played to a receiver that starts fresh
 *    is refused once it is older than that; a counter accepted before is
 *    a replay (auth_replay) that changes nothing, while frames that come
 *    out of order are each taken once, up to ELEC_AUTH_REORDER - 1 later
 *    ones overtaking them;
 *  - the MAC is asked for last, only of a frame every other check took,
 *    and a counter is recorded only when it held;
 *  - the counters stay with their peers when the table changes;
 *  - a sender that restarts is accepted while its clock moved forward,
 *    and refused (auth_clock) when its clock is an hour off;
 *  - a peer's replay state can be forgotten (peer reset), its alone;
 *  - a key request's plan (the second key: promotion, replacement,
 *    refusals), and the admin guide's three-step rotation, in which every
 *    node takes every other's frames at every step;
 *  - a group with keys elects exactly as one without (same frames), and
 *    drops every duplicated frame as a replay.
 *
 * Like the other suites, it also runs in userspace (tests/core).
 */
#include "elec_kunit_net.h"

static const u32 ta_ids5[] = { 1, 2, 3, 4, 5 };

/* the wall clock of the suite's nodes: far from the core's clock */
#define TA_WALL		1700000000000000000ULL
/*
 * a counter @x after TA_WALL: within the default window at T_START, frame
 * number TA_WALL's low bits + @x
 */
#define TA_C(x)		(TA_WALL + (x))
/* the clock part of counter @x */
#define TA_T(x)		((x) & ~ELECTION_AUTH_SEQ_MASK)

/* a Bully node @self of ta_ids5, with a key when @auth */
static void ta_node_init(struct t_node *n, u32 self, bool auth, u64 wall)
{
	struct elec_sink sink = {
		.emit = t_emit, .verify = t_verify, .ctx = n
	};
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
		elec_core_set_auth(&n->c, n->auth_rx, wall, n->now);
	t_clear(n);
}

static struct t_node *ta_node(struct kunit *test, u32 self, bool auth)
{
	struct t_node *n = t_node_alloc(test);

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
		/*
		 * the wall clock (TA_WALL at the key's setting, T_START),
		 * its low bits the frame number: one more each frame
		 */
		KUNIT_EXPECT_EQ(test, TA_T(a->msg.auth_ctr),
				TA_T(TA_WALL + (a->now_ns - T_START)));
		if (last)
			KUNIT_EXPECT_EQ(test, a->msg.auth_ctr &
					ELECTION_AUTH_SEQ_MASK,
					(last + 1) & ELECTION_AUTH_SEQ_MASK);
		last = a->msg.auth_ctr;
	}
	KUNIT_EXPECT_GE(test, sends, 4);

	/* frames at one instant: one apart */
	KUNIT_EXPECT_EQ(test, elec_auth_next_ctr(&n->c, n->now), last + 1);
	KUNIT_EXPECT_EQ(test, elec_auth_next_ctr(&n->c, n->now), last + 2);

	/* a new key whose clock reads earlier: the counter still goes up */
	elec_core_set_auth(&n->c, n->auth_rx, TA_WALL - 1000000000ULL, n->now);
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

	/* the counter saturates at the top of the clock's range */
	elec_core_set_auth(&n->c, n->auth_rx, U64_MAX - 1000, n->now);
	n->c.auth.tx_ctr = U64_MAX;
	KUNIT_EXPECT_EQ(test, elec_auth_next_ctr(&n->c, n->now), U64_MAX);

	/*
	 * the clock an hour ahead, then set right: the counters follow it
	 * back at once (those far ahead were refused everywhere, recorded
	 * nowhere); a step back within the window keeps counting up
	 */
	elec_core_set_auth(&n->c, n->auth_rx, TA_WALL, n->now);
	elec_core_set_wall(&n->c, TA_WALL + 3600000000000ULL, n->now);
	KUNIT_EXPECT_EQ(test, elec_auth_next_ctr(&n->c, n->now),
			TA_T(TA_WALL + 3600000000000ULL));
	elec_core_set_wall(&n->c, TA_WALL, n->now);
	KUNIT_EXPECT_EQ(test, elec_auth_next_ctr(&n->c, n->now),
			TA_T(TA_WALL) | 1);
	elec_core_set_wall(&n->c, TA_WALL + 1000000000ULL, n->now);
	last = elec_auth_next_ctr(&n->c, n->now);
	KUNIT_EXPECT_EQ(test, last, TA_T(TA_WALL + 1000000000ULL) | 2);
	elec_core_set_wall(&n->c, TA_WALL, n->now);
	KUNIT_EXPECT_EQ(test, elec_auth_next_ctr(&n->c, n->now), last + 1);

	/*
	 * the frame number wraps within one tick of the clock: the clock
	 * part moves a tick on, so the counter still goes up
	 */
	n->c.auth.tx_ctr = TA_T(TA_WALL) | ELECTION_AUTH_SEQ_MASK;
	KUNIT_EXPECT_EQ(test, elec_auth_next_ctr(&n->c, n->now),
			TA_T(TA_WALL) + ELECTION_AUTH_SEQ_MASK + 1);
}

/* ---- receiving ------------------------------------------------------------- */

/*
 * whether @n remembers @ctr as accepted from its peer slot @k: the highest,
 * or a frame number behind it marked in the map
 */
static bool ta_seen(const struct t_node *n, u32 k, u64 ctr)
{
	const struct elec_auth_peer *ap = &n->auth_rx[k];
	u64 back = (ap->top - ctr) & ELECTION_AUTH_SEQ_MASK;
	u32 b = (u32)(ctr & (ELEC_AUTH_MAP_BITS - 1));

	if (!ap->top || ctr > ap->top)
		return false;
	if (ctr == ap->top)
		return true;
	return back && back < ELEC_AUTH_REORDER &&
	       (ap->map[b / 64] >> (b % 64)) & 1;
}

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
	ta_rx(n, 5, 1, TA_C(100));
	KUNIT_EXPECT_EQ(test, n->c.stats.rx[ELEC_MSG_HEARTBEAT], rx_hb + 1);
	KUNIT_EXPECT_TRUE(test, ta_seen(n, 3, TA_C(100)));	/* 1 2 4 5 */

	/* the same counter again: a replay, state unchanged */
	n->now += 1000;
	ta_rx(n, 5, 1, TA_C(100));
	KUNIT_EXPECT_EQ(test, n->c.stats.drops[ELEC_DROP_AUTH_REPLAY], 1);
	KUNIT_EXPECT_EQ(test, n->c.stats.rx[ELEC_MSG_HEARTBEAT], rx_hb + 1);
	KUNIT_EXPECT_EQ(test, elec_core_peer_find(&n->c, 5)->heard_ns,
			n->now - 1000);

	/*
	 * behind the first one taken (frames reordered before this receiver
	 * heard the sender): each taken once
	 */
	ta_rx(n, 5, 1, TA_C(99));
	ta_rx(n, 5, 1, TA_C(1));
	KUNIT_EXPECT_EQ(test, n->c.stats.rx[ELEC_MSG_HEARTBEAT], rx_hb + 3);
	ta_rx(n, 5, 1, TA_C(99));
	ta_rx(n, 5, 1, TA_C(1));
	KUNIT_EXPECT_EQ(test, n->c.stats.drops[ELEC_DROP_AUTH_REPLAY], 3);
	/* after it, out of order: each taken once */
	ta_rx(n, 5, 1, TA_C(104));
	ta_rx(n, 5, 1, TA_C(102));
	ta_rx(n, 5, 1, TA_C(103));
	KUNIT_EXPECT_EQ(test, n->c.stats.rx[ELEC_MSG_HEARTBEAT], rx_hb + 6);
	ta_rx(n, 5, 1, TA_C(102));
	ta_rx(n, 5, 1, TA_C(104));
	KUNIT_EXPECT_EQ(test, n->c.stats.drops[ELEC_DROP_AUTH_REPLAY], 5);
	/* one before them, in the first one's word: taken once */
	ta_rx(n, 5, 1, TA_C(101));
	ta_rx(n, 4, 1, TA_C(7));
	KUNIT_EXPECT_EQ(test, n->c.stats.rx[ELEC_MSG_HEARTBEAT], rx_hb + 8);
	KUNIT_EXPECT_TRUE(test, ta_seen(n, 2, TA_C(7)));
	KUNIT_EXPECT_TRUE(test, ta_seen(n, 3, TA_C(101)));
	KUNIT_EXPECT_FALSE(test, ta_seen(n, 3, TA_C(105)));

	/* a frame that fails an earlier check records nothing */
	ta_rx(n, 9, 1, TA_C(500));	/* unknown peer */
	KUNIT_EXPECT_EQ(test, n->c.stats.drops[ELEC_DROP_UNKNOWN_PEER], 1);
	elec_core_stop(&n->c, n->now);
	ta_rx(n, 5, 1, TA_C(600));	/* stopped */
	KUNIT_EXPECT_FALSE(test, ta_seen(n, 3, TA_C(600)));
	t_start(n);
	ta_rx(n, 5, 1, TA_C(600));
	KUNIT_EXPECT_TRUE(test, ta_seen(n, 3, TA_C(600)));

	/* a new key: every peer's counters are forgotten */
	elec_core_set_auth(&n->c, n->auth_rx, TA_WALL, n->now);
	KUNIT_EXPECT_FALSE(test, ta_seen(n, 3, TA_C(100)));
	KUNIT_EXPECT_EQ(test, n->auth_rx[3].top, 0);
	ta_rx(n, 5, 1, TA_C(50));
	KUNIT_EXPECT_EQ(test, n->c.stats.drops[ELEC_DROP_AUTH_REPLAY], 5);
	KUNIT_EXPECT_TRUE(test, ta_seen(n, 3, TA_C(50)));

	/* no key: a trailer is unexpected, no trailer fine */
	t_start(plain);
	rx_hb = plain->c.stats.rx[ELEC_MSG_HEARTBEAT];
	ta_rx(plain, 5, 1, TA_C(100));
	KUNIT_EXPECT_EQ(test, plain->c.stats.drops[ELEC_DROP_AUTH_UNEXPECTED],
			1);
	KUNIT_EXPECT_EQ(test, plain->c.stats.rx[ELEC_MSG_HEARTBEAT], rx_hb);
	ta_rx(plain, 5, 1, 0);
	KUNIT_EXPECT_EQ(test, plain->c.stats.rx[ELEC_MSG_HEARTBEAT], rx_hb + 1);
	/* no MAC was asked of a frame without a trailer, or without a key */
	KUNIT_EXPECT_EQ(test, plain->verified, 0);
}

/*
 * Issue 33, defect 1: a recording of the leader's heartbeats played to a
 * receiver that starts fresh (a new instance, a new key: no counter
 * remembered, learning, term 0). Within auth-window of when they were
 * sent each is taken once; later they are refused against the
 * receiver's own clock (auth_clock), and the receiver hears nobody. (The
 * old rule, only "above the last accepted", took every one of them.)
 */
static void ta_fresh_replay(struct kunit *test)
{
	struct t_node *tx = ta_node(test, 5, true);
	struct t_node *rx;
	u64 ctr[4], rx_hb;
	u32 i, got = 0;

	/* node 5 leads; its heartbeats are recorded */
	t_start(tx);
	t_fire(tx, ELEC_TIMER_DETECT);
	for (i = 0; i < ARRAY_SIZE(ctr); i++) {
		t_clear(tx);
		t_fire(tx, ELEC_TIMER_HEARTBEAT);
		ctr[i] = t_last_send(test, tx)->msg.auth_ctr;
	}

	/* within the window: each once */
	rx = ta_node(test, 3, true);
	rx->now = tx->now + 1000000000ULL;	/* 1 s later */
	ta_node_init(rx, 3, true, TA_WALL + (rx->now - T_START));
	t_start(rx);
	rx_hb = rx->c.stats.rx[ELEC_MSG_HEARTBEAT];
	for (i = 0; i < ARRAY_SIZE(ctr); i++) {
		ta_rx(rx, 5, 1, ctr[i]);
		ta_rx(rx, 5, 1, ctr[i]);
	}
	KUNIT_EXPECT_EQ(test, rx->c.stats.rx[ELEC_MSG_HEARTBEAT],
			rx_hb + ARRAY_SIZE(ctr));
	KUNIT_EXPECT_EQ(test, rx->c.stats.drops[ELEC_DROP_AUTH_REPLAY],
			ARRAY_SIZE(ctr));

	/* a group restarted 3 s later: refused, the dead leader unheard */
	rx->now = tx->now + 3000000000ULL;
	ta_node_init(rx, 3, true, TA_WALL + (rx->now - T_START));
	t_start(rx);
	rx_hb = rx->c.stats.rx[ELEC_MSG_HEARTBEAT];
	for (i = 0; i < ARRAY_SIZE(ctr); i++) {
		ta_rx(rx, 5, 1, ctr[i]);
		got += rx->c.stats.rx[ELEC_MSG_HEARTBEAT] != rx_hb;
	}
	KUNIT_EXPECT_EQ(test, got, 0);
	KUNIT_EXPECT_EQ(test, rx->c.stats.drops[ELEC_DROP_AUTH_CLOCK],
			ARRAY_SIZE(ctr));
	KUNIT_EXPECT_EQ(test, elec_core_peer_find(&rx->c, 5)->heard_ns, 0);
	KUNIT_EXPECT_EQ(test, rx->c.leader, 0);
	KUNIT_EXPECT_EQ(test, rx->verified, ARRAY_SIZE(ctr));	/* the 1 s run */
	/* a counter ahead of the receiver's clock by more: refused too */
	ta_rx(rx, 5, 1, TA_WALL + (rx->now - T_START) +
	      ELECTION_DEF_AUTH_WINDOW_NS + ELECTION_AUTH_SEQ_MASK + 2);
	KUNIT_EXPECT_EQ(test, rx->c.stats.drops[ELEC_DROP_AUTH_CLOCK],
			ARRAY_SIZE(ctr) + 1);
}

/*
 * Issue 33, defect 2: frames of one sender that the network reorders
 * (the module sends from several CPUs; XPS puts them on several queues;
 * a stalled CPU holds its backlog while another delivers) are each taken
 * once, up to ELEC_AUTH_REORDER - 1 later frames overtaking one; a frame
 * overtaken by more is refused (auth_replay), never taken twice. (The
 * old rule dropped every frame that came after a later one; the set of
 * 16 counters after it, every frame overtaken by 17.)
 */
static void ta_reorder(struct kunit *test)
{
	struct t_node *n = ta_node(test, 3, true);
	u64 rx_hb, rs;
	u32 i;

	t_start(n);
	ta_rx(n, 5, 1, TA_C(1000));
	rx_hb = n->c.stats.rx[ELEC_MSG_HEARTBEAT];
	/* pairs swapped on the way: 2 1 4 3 6 5 ... */
	for (i = 1; i <= 40; i += 2) {
		ta_rx(n, 5, 1, TA_C(1000 + i + 1));
		ta_rx(n, 5, 1, TA_C(1000 + i));
	}
	KUNIT_EXPECT_EQ(test, n->c.stats.rx[ELEC_MSG_HEARTBEAT], rx_hb + 40);
	KUNIT_EXPECT_EQ(test, n->c.stats.drops[ELEC_DROP_AUTH_REPLAY], 0);
	/* every one of them again: refused, whichever */
	for (i = 1; i <= 40; i++)
		ta_rx(n, 5, 1, TA_C(1000 + i));
	KUNIT_EXPECT_EQ(test, n->c.stats.drops[ELEC_DROP_AUTH_REPLAY], 40);
	KUNIT_EXPECT_EQ(test, n->c.stats.rx[ELEC_MSG_HEARTBEAT], rx_hb + 40);

	/*
	 * a CPU stalled with 100 frames in its backlog while another sent
	 * 200 more: every one taken, in that order, then none again
	 */
	for (i = 101; i <= 300; i++)
		ta_rx(n, 5, 1, TA_C(2000 + i));
	for (i = 1; i <= 100; i++)
		ta_rx(n, 5, 1, TA_C(2000 + i));
	KUNIT_EXPECT_EQ(test, n->c.stats.rx[ELEC_MSG_HEARTBEAT], rx_hb + 340);
	KUNIT_EXPECT_EQ(test, n->c.stats.drops[ELEC_DROP_AUTH_REPLAY], 40);
	for (i = 1; i <= 300; i += 7)
		ta_rx(n, 5, 1, TA_C(2000 + i));
	KUNIT_EXPECT_EQ(test, n->c.stats.drops[ELEC_DROP_AUTH_REPLAY], 83);

	/* one overtaken by ELEC_AUTH_REORDER - 1 later ones: still taken */
	for (i = 1; i < ELEC_AUTH_REORDER; i++)
		ta_rx(n, 5, 1, TA_C(5000 + i));
	ta_rx(n, 5, 1, TA_C(5000));
	KUNIT_EXPECT_EQ(test, n->c.stats.rx[ELEC_MSG_HEARTBEAT],
			rx_hb + 340 + ELEC_AUTH_REORDER);
	/* by one more: refused, though never seen */
	for (i = 1; i <= ELEC_AUTH_REORDER; i++)
		ta_rx(n, 5, 1, TA_C(8000 + i));
	ta_rx(n, 5, 1, TA_C(8000));
	KUNIT_EXPECT_EQ(test, n->c.stats.drops[ELEC_DROP_AUTH_REPLAY], 84);
	KUNIT_EXPECT_EQ(test, n->auth_rx[3].top, TA_C(8000 + ELEC_AUTH_REORDER));

	/*
	 * a jump by more than the map: the words passed are cleared, and a
	 * frame number that was taken a lap of the map ago is taken again
	 * when it comes back round (a new frame)
	 */
	ta_rx(n, 5, 1, TA_C(20000));
	ta_rx(n, 5, 1, TA_C(20000 - ELEC_AUTH_MAP_BITS + 1));
	KUNIT_EXPECT_EQ(test, n->c.stats.drops[ELEC_DROP_AUTH_REPLAY], 85);
	ta_rx(n, 5, 1, TA_C(20000 - 1));
	ta_rx(n, 5, 1, TA_C(20000 - 1));
	KUNIT_EXPECT_EQ(test, n->c.stats.drops[ELEC_DROP_AUTH_REPLAY], 86);
	KUNIT_EXPECT_TRUE(test, ta_seen(n, 3, TA_C(20000 - 1)));
	KUNIT_EXPECT_FALSE(test, ta_seen(n, 3, TA_C(20000 - 2)));
	KUNIT_EXPECT_FALSE(test, ta_seen(n, 3,
					 TA_C(20000 - ELEC_AUTH_MAP_BITS)));

	/*
	 * the sender restarted: a later clock, its frame numbers counting
	 * from 1 again (here: from 100 below the old ones, so that they are
	 * not ahead of the highest's): a new count. Its new frames are
	 * taken in any order after the first; a frame of its old life is
	 * refused even where its number falls behind the new highest; a new
	 * one overtaken by the first is refused with them.
	 */
	rs = TA_T(TA_C(20000)) + 5 * (ELECTION_AUTH_SEQ_MASK + 1) +
	     ((TA_C(20000) - 100) & ELECTION_AUTH_SEQ_MASK);
	ta_rx(n, 5, 1, rs + 2);
	KUNIT_EXPECT_EQ(test, n->auth_rx[3].top, rs + 2);
	ta_rx(n, 5, 1, rs + 4);
	ta_rx(n, 5, 1, rs + 3);
	KUNIT_EXPECT_EQ(test, n->c.stats.drops[ELEC_DROP_AUTH_REPLAY], 86);
	ta_rx(n, 5, 1, rs + 1);				/* overtaken */
	ta_rx(n, 5, 1, TA_C(20000 - 103));		/* old life, 1 behind */
	ta_rx(n, 5, 1, TA_C(20000 - 500));		/* old life */
	ta_rx(n, 5, 1, rs + 3);
	KUNIT_EXPECT_EQ(test, n->c.stats.drops[ELEC_DROP_AUTH_REPLAY], 90);
}

/*
 * Issue 33, defect 3: the MAC is asked for last. A forged frame (its MAC
 * fails) from an unknown id counts as unknown_peer, one with a stale or
 * repeated counter as auth_clock or auth_replay, without a MAC; one that
 * passes every other check is auth_bad, and its counter is not recorded:
 * the genuine frame with that counter is still taken.
 */
static void ta_mac_last(struct kunit *test)
{
	struct t_node *n = ta_node(test, 3, true);
	u64 rx_hb;

	t_start(n);
	rx_hb = n->c.stats.rx[ELEC_MSG_HEARTBEAT];
	ta_rx(n, 5, 1, TA_C(10));
	KUNIT_EXPECT_EQ(test, n->verified, 1);
	n->bad_mac = true;
	ta_rx(n, 9, 1, TA_C(20));			/* unknown id */
	ta_rx(n, 5, 1, TA_C(10) - ELECTION_DEF_AUTH_WINDOW_NS - 1000);
	ta_rx(n, 5, 1, TA_C(10));			/* seen */
	KUNIT_EXPECT_EQ(test, n->verified, 1);
	KUNIT_EXPECT_EQ(test, n->c.stats.drops[ELEC_DROP_UNKNOWN_PEER], 1);
	KUNIT_EXPECT_EQ(test, n->c.stats.drops[ELEC_DROP_AUTH_CLOCK], 1);
	KUNIT_EXPECT_EQ(test, n->c.stats.drops[ELEC_DROP_AUTH_REPLAY], 1);
	KUNIT_EXPECT_EQ(test, n->c.stats.drops[ELEC_DROP_AUTH_BAD], 0);
	/* a fresh counter: the MAC is checked, fails, nothing recorded */
	ta_rx(n, 5, 1, TA_C(30));
	KUNIT_EXPECT_EQ(test, n->verified, 2);
	KUNIT_EXPECT_EQ(test, n->c.stats.drops[ELEC_DROP_AUTH_BAD], 1);
	KUNIT_EXPECT_FALSE(test, ta_seen(n, 3, TA_C(30)));
	KUNIT_EXPECT_EQ(test, n->c.stats.rx[ELEC_MSG_HEARTBEAT], rx_hb + 1);
	n->bad_mac = false;
	ta_rx(n, 5, 1, TA_C(30));
	KUNIT_EXPECT_EQ(test, n->c.stats.rx[ELEC_MSG_HEARTBEAT], rx_hb + 2);
	KUNIT_EXPECT_EQ(test, n->verified, 3);
}

/* auth-window: its default, and a narrower one taken from the config */
static void ta_window_option(struct kunit *test)
{
	struct t_node *n = ta_node(test, 3, true);
	struct elec_config cfg = n->c.cfg;
	const char *why = NULL;
	u64 ms = 1000000ULL, wall;

	KUNIT_EXPECT_EQ(test, elec_config_auth_window(&cfg),
			ELECTION_DEF_AUTH_WINDOW_NS);
	cfg.auth_window_ns = 100 * ms;
	KUNIT_ASSERT_EQ(test, elec_core_set_config(&n->c, &cfg, &why), 0);
	t_start(n);
	n->now += 500 * ms;
	wall = TA_WALL + (n->now - T_START);
	ta_rx(n, 5, 1, wall - 150 * ms);
	ta_rx(n, 5, 1, wall + 150 * ms);
	KUNIT_EXPECT_EQ(test, n->c.stats.drops[ELEC_DROP_AUTH_CLOCK], 2);
	/* the edge (the first tick of the clock part in it): taken */
	ta_rx(n, 5, 1, TA_T(wall - 100 * ms) + ELECTION_AUTH_SEQ_MASK + 1);
	ta_rx(n, 5, 1, wall - 50 * ms);
	ta_rx(n, 5, 1, wall + 50 * ms);
	KUNIT_EXPECT_EQ(test, n->c.stats.drops[ELEC_DROP_AUTH_CLOCK], 2);
	KUNIT_EXPECT_EQ(test, n->verified, 3);
	/* the wall clock steps: the embedder says so, the window follows */
	elec_core_set_wall(&n->c, wall + 3600000000000ULL, n->now);
	ta_rx(n, 5, 1, wall + 60 * ms);
	KUNIT_EXPECT_EQ(test, n->c.stats.drops[ELEC_DROP_AUTH_CLOCK], 3);
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
	/*
	 * an authenticated frame from another address, its counter fresh:
	 * recorded (one MAC); not that address again: no MAC
	 */
	m.flags = ELECTION_FLAG_AUTH;
	m.auth_ctr = TA_C(10);
	m.src_lladdr = good;
	elec_core_rx(&n->c, &m, n->now);
	KUNIT_EXPECT_TRUE(test, !memcmp(elec_core_peer_find(&n->c, 5)->seen_lladdr,
					good, ELEC_LLADDR_LEN));
	KUNIT_EXPECT_EQ(test, n->verified, 1);
	m.auth_ctr = TA_C(11);
	elec_core_rx(&n->c, &m, n->now);
	KUNIT_EXPECT_EQ(test, n->verified, 1);
	/*
	 * a recording (an authentic frame, too old) played from yet another
	 * address: it points nowhere, and costs no MAC
	 */
	m.auth_ctr = TA_C(12) - ELECTION_DEF_AUTH_WINDOW_NS - 1000;
	m.src_lladdr = forged;
	elec_core_rx(&n->c, &m, n->now);
	KUNIT_EXPECT_TRUE(test, !memcmp(elec_core_peer_find(&n->c, 5)->seen_lladdr,
					good, ELEC_LLADDR_LEN));
	KUNIT_EXPECT_EQ(test, n->verified, 1);
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
	ta_rx(n, 2, 1, TA_C(20));
	ta_rx(n, 4, 1, TA_C(40));
	ta_rx(n, 5, 1, TA_C(50));
	/* peer 1 leaves: 2, 4, 5 shift down with their counters */
	KUNIT_ASSERT_EQ(test, elec_core_peer_del(&n->c, 1, n->now), 0);
	ta_rx(n, 4, 1, TA_C(40));
	ta_rx(n, 5, 1, TA_C(50));
	ta_rx(n, 2, 1, TA_C(20));
	KUNIT_EXPECT_EQ(test, n->c.stats.drops[ELEC_DROP_AUTH_REPLAY], 3);
	/* a new peer below them starts with none; the others keep theirs */
	KUNIT_ASSERT_EQ(test, elec_core_peer_add(&n->c, 1, mac), 0);
	KUNIT_EXPECT_EQ(test, n->auth_rx[0].top, 0);
	KUNIT_EXPECT_EQ(test, n->auth_rx[0].map[0], 0);
	ta_rx(n, 4, 1, TA_C(40));
	KUNIT_EXPECT_EQ(test, n->c.stats.drops[ELEC_DROP_AUTH_REPLAY], 4);
	KUNIT_EXPECT_TRUE(test, ta_seen(n, 1, TA_C(20)));
	KUNIT_EXPECT_TRUE(test, ta_seen(n, 2, TA_C(40)));
	KUNIT_EXPECT_TRUE(test, ta_seen(n, 3, TA_C(50)));
}

/*
 * A sender that restarts (a fresh instance, a new key setting) resumes
 * from its wall clock: above what it sent before when the clock went on;
 * with its clock an hour off, refused against the receiver's clock.
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
	before = a->msg.auth_ctr;
	KUNIT_ASSERT_TRUE(test, ta_seen(rx, 3, before));

	/* rebooted 1 s later on both clocks: accepted */
	tx->now += 1000000000ULL;
	rx->now = tx->now;
	ta_node_init(tx, 5, true, TA_WALL + 1000000000ULL);
	t_start(tx);
	t_fire(tx, ELEC_TIMER_DETECT);
	a = t_last_send(test, tx);
	KUNIT_EXPECT_GT(test, a->msg.auth_ctr, before);
	ta_rx(rx, 5, a->msg.term, a->msg.auth_ctr);
	KUNIT_EXPECT_TRUE(test, ta_seen(rx, 3, a->msg.auth_ctr));
	KUNIT_EXPECT_EQ(test, rx->c.stats.drops[ELEC_DROP_AUTH_REPLAY], 0);

	/* rebooted with its wall clock an hour back: refused, counted */
	ta_node_init(tx, 5, true, TA_WALL - 3600000000000ULL);
	t_start(tx);
	t_fire(tx, ELEC_TIMER_DETECT);
	a = t_last_send(test, tx);
	KUNIT_EXPECT_LT(test, a->msg.auth_ctr, before);
	ta_rx(rx, 5, a->msg.term, a->msg.auth_ctr);
	KUNIT_EXPECT_EQ(test, rx->c.stats.drops[ELEC_DROP_AUTH_CLOCK], 1);
	KUNIT_EXPECT_FALSE(test, ta_seen(rx, 3, a->msg.auth_ctr));
}

/*
 * peer reset (elec_core_auth_forget()): a counter taken from peer 5 is a
 * replay when it comes again, and taken again once 5's state is
 * forgotten; an unknown id is refused, and the other peers keep theirs.
 */
static void ta_forget(struct kunit *test)
{
	struct t_node *n = ta_node(test, 3, true);
	struct t_node *plain = ta_node(test, 3, false);
	struct elec_auth_peer before4;
	u64 rx_hb;

	t_start(n);
	rx_hb = n->c.stats.rx[ELEC_MSG_HEARTBEAT];
	ta_rx(n, 4, 1, TA_C(40));
	ta_rx(n, 5, 1, TA_C(50));
	KUNIT_EXPECT_EQ(test, n->c.stats.rx[ELEC_MSG_HEARTBEAT], rx_hb + 2);
	ta_rx(n, 5, 1, TA_C(50));
	KUNIT_EXPECT_EQ(test, n->c.stats.drops[ELEC_DROP_AUTH_REPLAY], 1);

	before4 = n->auth_rx[2];	/* 1 2 4 5: 4 is slot 2 */
	KUNIT_EXPECT_EQ(test, elec_core_auth_forget(&n->c, 5), 0);
	KUNIT_EXPECT_FALSE(test, ta_seen(n, 3, TA_C(50)));
	KUNIT_EXPECT_EQ(test, n->auth_rx[3].top, 0);
	ta_rx(n, 5, 1, TA_C(50));
	KUNIT_EXPECT_EQ(test, n->c.stats.rx[ELEC_MSG_HEARTBEAT], rx_hb + 3);
	KUNIT_EXPECT_EQ(test, n->c.stats.drops[ELEC_DROP_AUTH_REPLAY], 1);
	/* and once only */
	ta_rx(n, 5, 1, TA_C(50));
	KUNIT_EXPECT_EQ(test, n->c.stats.drops[ELEC_DROP_AUTH_REPLAY], 2);

	/* an unknown id, the local one: refused, nothing changes */
	KUNIT_EXPECT_EQ(test, elec_core_auth_forget(&n->c, 9), -ENOENT);
	KUNIT_EXPECT_EQ(test, elec_core_auth_forget(&n->c, 3), -ENOENT);
	KUNIT_EXPECT_TRUE(test, ta_seen(n, 3, TA_C(50)));
	/* the other peers' state untouched */
	KUNIT_EXPECT_TRUE(test, !memcmp(&n->auth_rx[2], &before4,
					sizeof(before4)));
	ta_rx(n, 4, 1, TA_C(40));
	KUNIT_EXPECT_EQ(test, n->c.stats.drops[ELEC_DROP_AUTH_REPLAY], 3);

	/* without a key: nothing to forget, a peer still checked */
	KUNIT_EXPECT_EQ(test, elec_core_auth_forget(&plain->c, 5), 0);
	KUNIT_EXPECT_EQ(test, elec_core_auth_forget(&plain->c, 9), -ENOENT);
}

/* ---- key changes: the second key --------------------------------------------- */

/* an instance's keys, as the kernel glue keeps them (bytes here) */
struct ta_keys {
	u8 cur[ELECTION_KEY_LEN];
	u8 next[ELECTION_KEY_LEN];
	bool has_cur;
	bool has_next;
	u32 fresh;	/* times the replay state started afresh */
};

/* a key of bytes @b */
#define TA_KEY(b)	{ [0 ... ELECTION_KEY_LEN - 1] = (b) }

/* the request's attributes: a key, key none, a second key, key-next none */
struct ta_req {
	const u8 *key;
	bool key_none;
	const u8 *key_next;
	bool key_next_none;
};

/* plan @r against @k and, when it is taken, apply it as the glue does */
static int ta_key_change(struct ta_keys *k, const struct ta_req *r,
			 struct elec_key_plan *plan)
{
	struct elec_key_change kc = {
		.cur = k->has_cur ? k->cur : NULL,
		.next = k->has_cur && k->has_next ? k->next : NULL,
		.key = r->key, .key_none = r->key_none,
		.key_next = r->key_next, .key_next_none = r->key_next_none,
	};
	const u8 *src[] = {
		[ELEC_KEY_SRC_NONE] = NULL, [ELEC_KEY_SRC_CUR] = k->cur,
		[ELEC_KEY_SRC_NEXT] = k->next, [ELEC_KEY_SRC_KEY] = r->key,
		[ELEC_KEY_SRC_KEY_NEXT] = r->key_next,
	};
	u8 cur[ELECTION_KEY_LEN] = {}, next[ELECTION_KEY_LEN] = {};
	const char *why = NULL;
	int err = elec_auth_key_plan(&kc, plan, &why);

	if (err)
		return err;
	if (plan->cur)
		memcpy(cur, src[plan->cur], sizeof(cur));
	if (plan->next)
		memcpy(next, src[plan->next], sizeof(next));
	k->has_cur = plan->cur != ELEC_KEY_SRC_NONE;
	k->has_next = plan->next != ELEC_KEY_SRC_NONE;
	memcpy(k->cur, cur, sizeof(cur));
	memcpy(k->next, next, sizeof(next));
	k->fresh += plan->fresh;
	return 0;
}

/* the same keys (padding aside) */
static bool ta_keys_eq(const struct ta_keys *a, const struct ta_keys *b)
{
	return a->has_cur == b->has_cur && a->has_next == b->has_next &&
	       a->fresh == b->fresh &&
	       !memcmp(a->cur, b->cur, sizeof(a->cur)) &&
	       !memcmp(a->next, b->next, sizeof(a->next));
}

/* whether a node with keys @k takes a frame MACed with @key */
static bool ta_accepts(const struct ta_keys *k, const u8 *key)
{
	return (k->has_cur && !memcmp(k->cur, key, ELECTION_KEY_LEN)) ||
	       (k->has_next && !memcmp(k->next, key, ELECTION_KEY_LEN));
}

/*
 * elec_auth_key_plan(): what each key request does. The key it has
 * changes nothing; its second key is promoted, the replay state kept;
 * another key replaces both and starts the replay state afresh; key none
 * removes both; a second key needs a key, and is not the key; refusals
 * say so and change nothing.
 */
static void ta_key_plan(struct kunit *test)
{
	static const u8 k1[] = TA_KEY(0x11), k2[] = TA_KEY(0x22);
	static const u8 k3[] = TA_KEY(0x33);
	struct elec_key_plan plan;
	struct ta_keys k = {}, saved;
	const char *why = NULL;
	struct elec_key_change kc = {};

	/* no key: a second key alone is refused, naming the second key */
	KUNIT_EXPECT_EQ(test, ta_key_change(&k, &(struct ta_req){
		.key_next = k2 }, &plan), -EINVAL);
	KUNIT_EXPECT_TRUE(test, plan.bad_next);
	kc.key_next = k2;
	KUNIT_EXPECT_EQ(test, elec_auth_key_plan(&kc, &plan, &why), -EINVAL);
	KUNIT_EXPECT_STREQ(test, why,
			   "a second key needs a key (in the same request, or set before)");
	KUNIT_EXPECT_FALSE(test, k.has_cur || k.has_next);
	/* key-next none without any key: nothing to do */
	KUNIT_EXPECT_EQ(test, ta_key_change(&k, &(struct ta_req){
		.key_next_none = true }, &plan), 0);
	KUNIT_EXPECT_FALSE(test, k.has_cur || k.has_next);

	/* a key and a second key in one request (group add) */
	KUNIT_EXPECT_EQ(test, ta_key_change(&k, &(struct ta_req){
		.key = k1, .key_next = k2 }, &plan), 0);
	KUNIT_EXPECT_TRUE(test, k.has_cur && k.has_next && plan.fresh);
	KUNIT_EXPECT_TRUE(test, !memcmp(k.cur, k1, sizeof(k1)) &&
			  !memcmp(k.next, k2, sizeof(k2)));
	/* the second key equal to the key: refused, whichever way */
	saved = k;
	KUNIT_EXPECT_EQ(test, ta_key_change(&k, &(struct ta_req){
		.key_next = k1 }, &plan), -EINVAL);
	KUNIT_EXPECT_TRUE(test, plan.bad_next);
	KUNIT_EXPECT_EQ(test, ta_key_change(&k, &(struct ta_req){
		.key = k3, .key_next = k3 }, &plan), -EINVAL);
	/* contradictions: refused */
	KUNIT_EXPECT_EQ(test, ta_key_change(&k, &(struct ta_req){
		.key_next = k3, .key_next_none = true }, &plan), -EINVAL);
	KUNIT_EXPECT_EQ(test, ta_key_change(&k, &(struct ta_req){
		.key_next = k3, .key_none = true }, &plan), -EINVAL);
	KUNIT_EXPECT_EQ(test, ta_key_change(&k, &(struct ta_req){
		.key = k3, .key_none = true }, &plan), -EINVAL);
	KUNIT_EXPECT_FALSE(test, plan.bad_next);
	KUNIT_EXPECT_TRUE(test, ta_keys_eq(&k, &saved));

	/* the key it has: nothing changes, the second key stays */
	KUNIT_EXPECT_EQ(test, ta_key_change(&k, &(struct ta_req){
		.key = k1 }, &plan), 0);
	KUNIT_EXPECT_EQ(test, plan.cur, ELEC_KEY_SRC_CUR);
	KUNIT_EXPECT_EQ(test, plan.next, ELEC_KEY_SRC_NEXT);
	KUNIT_EXPECT_FALSE(test, plan.fresh);
	KUNIT_EXPECT_TRUE(test, ta_keys_eq(&k, &saved));

	/* its second key: promoted, the old key second, counters kept */
	KUNIT_EXPECT_EQ(test, ta_key_change(&k, &(struct ta_req){
		.key = k2 }, &plan), 0);
	KUNIT_EXPECT_EQ(test, plan.cur, ELEC_KEY_SRC_NEXT);
	KUNIT_EXPECT_EQ(test, plan.next, ELEC_KEY_SRC_CUR);
	KUNIT_EXPECT_FALSE(test, plan.fresh);
	KUNIT_EXPECT_TRUE(test, !memcmp(k.cur, k2, sizeof(k2)) &&
			  !memcmp(k.next, k1, sizeof(k1)) && k.has_next);
	KUNIT_EXPECT_EQ(test, k.fresh, 1);

	/* key-next none: the second key dropped, the key kept */
	KUNIT_EXPECT_EQ(test, ta_key_change(&k, &(struct ta_req){
		.key_next_none = true }, &plan), 0);
	KUNIT_EXPECT_TRUE(test, k.has_cur && !k.has_next && !plan.fresh);
	/*
	 * the old key, no longer second: a new key, and the counters stay
	 * (started afresh, they would take again what was recorded under
	 * k1 within the window)
	 */
	KUNIT_EXPECT_EQ(test, ta_key_change(&k, &(struct ta_req){
		.key = k1 }, &plan), 0);
	KUNIT_EXPECT_TRUE(test, !plan.fresh && k.fresh == 1);

	/* another key while a second one is set: both replaced */
	KUNIT_EXPECT_EQ(test, ta_key_change(&k, &(struct ta_req){
		.key_next = k2 }, &plan), 0);
	KUNIT_EXPECT_TRUE(test, k.has_next && !plan.fresh);
	KUNIT_EXPECT_EQ(test, ta_key_change(&k, &(struct ta_req){
		.key = k3 }, &plan), 0);
	KUNIT_EXPECT_TRUE(test, !plan.fresh && !k.has_next &&
			  !memcmp(k.cur, k3, sizeof(k3)));
	/* promote and drop the old key at once */
	KUNIT_EXPECT_EQ(test, ta_key_change(&k, &(struct ta_req){
		.key_next = k1 }, &plan), 0);
	KUNIT_EXPECT_EQ(test, ta_key_change(&k, &(struct ta_req){
		.key = k1, .key_next_none = true }, &plan), 0);
	KUNIT_EXPECT_TRUE(test, !plan.fresh && !k.has_next &&
			  !memcmp(k.cur, k1, sizeof(k1)));

	/* key none: both keys go */
	KUNIT_EXPECT_EQ(test, ta_key_change(&k, &(struct ta_req){
		.key_next = k2 }, &plan), 0);
	KUNIT_EXPECT_EQ(test, ta_key_change(&k, &(struct ta_req){
		.key_none = true, .key_next_none = true }, &plan), 0);
	KUNIT_EXPECT_FALSE(test, k.has_cur || k.has_next);
}

/*
 * The rotation the admin guide gives, on 3 nodes: (1) key-next NEW
 * everywhere, (2) key NEW everywhere, (3) key-next none everywhere. While
 * a step is under way, some nodes are a step ahead: at every such mix
 * every node takes every other's frames (sent under its key), and no step
 * starts the replay state afresh.
 */
static void ta_key_rotation(struct kunit *test)
{
	static const u8 old[] = TA_KEY(0x5e), new[] = TA_KEY(0xa7);
	const struct ta_req steps[] = {
		{ .key_next = new }, { .key = new }, { .key_next_none = true },
	};
	struct ta_keys at[4][3];	/* [step done][node] */
	struct elec_key_plan plan;
	u32 s, i, a, b;

	memset(at, 0, sizeof(at));
	for (i = 0; i < 3; i++)
		KUNIT_ASSERT_EQ(test, ta_key_change(&at[0][i], &(struct ta_req){
			.key = old }, &plan), 0);
	for (s = 0; s < ARRAY_SIZE(steps); s++)
		for (i = 0; i < 3; i++) {
			at[s + 1][i] = at[s][i];
			KUNIT_ASSERT_EQ(test, ta_key_change(&at[s + 1][i],
							    &steps[s], &plan),
					0);
			KUNIT_EXPECT_EQ(test, at[s + 1][i].fresh, 1);
		}
	/* any node at step s or s + 1, any other at either */
	for (s = 0; s < ARRAY_SIZE(steps); s++) {
		for (a = s; a <= s + 1; a++) {
			for (b = s; b <= s + 1; b++) {
				bool ok = ta_accepts(&at[b][1], at[a][0].cur);

				KUNIT_EXPECT_TRUE_MSG(test, ok,
						      "step %u: sender at %u, receiver at %u",
						      s, a, b);
			}
		}
	}
	/* the end: NEW alone */
	KUNIT_EXPECT_TRUE(test, !memcmp(at[3][2].cur, new, sizeof(new)) &&
			  !at[3][2].has_next);
	/* skipping step 1 on a node: its peers' NEW frames are refused */
	KUNIT_EXPECT_FALSE(test, ta_accepts(&at[0][1], at[2][0].cur));
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
	KUNIT_CASE(ta_fresh_replay),
	KUNIT_CASE(ta_reorder),
	KUNIT_CASE(ta_mac_last),
	KUNIT_CASE(ta_window_option),
	KUNIT_CASE(ta_seen_lladdr),
	KUNIT_CASE(ta_peer_table),
	KUNIT_CASE(ta_restart),
	KUNIT_CASE(ta_forget),
	KUNIT_CASE(ta_key_plan),
	KUNIT_CASE(ta_key_rotation),
	KUNIT_CASE(ta_net_same_as_plain),
	KUNIT_CASE(ta_net_duplicates),
	{}
};

static struct kunit_suite elec_auth_suite = {
	.name = "elec_auth",
	.test_cases = elec_auth_cases,
};

kunit_test_suites(&elec_auth_suite);
