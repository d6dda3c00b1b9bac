// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite elec_invitation: Garcia-Molina's Invitation algorithm
 * (module/core/invitation.c), one node fed frames by hand, and several
 * on the in-test network (elec_kunit_net.h): boot, coordinator crash,
 * partitions that heal, concurrent mergers, joins, standby nodes, and
 * the codec's view of the algorithm's payloads.
 */
#include <kunit/test.h>
#include <linux/string.h>

#include "elec_kunit_net.h"
#include "invitation.h"

#define TI_BURST	ELECTION_RX_ELECT_BURST

static const u32 ti_ids[] = { 3, 5, 7, 9 };

static void ti_node_init(struct t_node *n, u32 self, const u32 *ids, u32 nr)
{
	struct elec_config cfg;

	t_cfg_algo(&cfg, ELEC_ALGO_INVITATION, self);
	t_node_setup(n, &cfg, ids, nr, 0, NULL);
}

/* node @self of ti_ids, not started */
static struct t_node *ti_node(struct kunit *test, u32 self)
{
	struct t_node *n = t_node_alloc(test);

	ti_node_init(n, self, ti_ids, ARRAY_SIZE(ti_ids));
	return n;
}

/* a frame from @src to @n: @pl, @len as the payload */
static void ti_rx_pl(struct t_node *n, u8 type, u8 flags, u32 src, u32 dst,
		     u64 term, const u8 *pl, u16 len)
{
	struct elec_msg m;

	memset(&m, 0, sizeof(m));
	m.type = type;
	m.algo = ELEC_ALGO_INVITATION;
	m.flags = flags;
	m.group = T_GROUP;
	m.src = src;
	m.dst = dst;
	m.term = term;
	m.payload = len ? pl : NULL;
	m.payload_len = len;
	KUNIT_ASSERT_TRUE(n->test, elec_invitation_ops.payload_ok(type, pl,
								  len));
	elec_core_rx(&n->c, &m, n->now);
}

static void ti_rx(struct t_node *n, u8 type, u32 src, u32 dst, u64 term)
{
	ti_rx_pl(n, type, 0, src, dst, term, NULL, 0);
}

/* @src answers @n's search: in the group (@term, @coord), version @ver */
static void ti_rx_reply_ver(struct t_node *n, u32 src, u64 term, u32 coord,
			    u32 ver)
{
	u8 pl[ELECTION_INV_REPLY_LEN];

	elec_put32(pl, coord);
	elec_put32(pl + 4, ver);
	ti_rx_pl(n, ELEC_MSG_AYC_REPLY, 0, src, n->c.cfg.self_id, term, pl,
		 sizeof(pl));
}

/* the same, holding the membership version @n holds */
static void ti_rx_reply(struct t_node *n, u32 src, u64 term, u32 coord)
{
	ti_rx_reply_ver(n, src, term, coord, n->c.inv.mver);
}

/*
 * INVITE from @src into (@term, @coord) for the groups of @ids, stating
 * an accept window of T << @shift
 */
static void ti_rx_invite_shift(struct t_node *n, u32 src, u64 term,
			       u32 coord, const u32 *ids, u16 nr, u8 shift)
{
	u8 pl[ELECTION_INV_INVITE_HDR_LEN + 4 * T_MAX_NODES];
	u16 i;

	memset(pl, 0, sizeof(pl));
	elec_put32(pl, coord);
	pl[4] = nr >> 8;
	pl[5] = nr;
	pl[6] = shift;
	for (i = 0; i < nr; i++)
		elec_put32(pl + ELECTION_INV_INVITE_HDR_LEN + 4 * i, ids[i]);
	ti_rx_pl(n, ELEC_MSG_INVITE, 0, src, 0, term, pl,
		 ELECTION_INV_INVITE_HDR_LEN + 4 * nr);
}

/* the same, at the accept window T */
static void ti_rx_invite(struct t_node *n, u32 src, u64 term, u32 coord,
			 const u32 *ids, u16 nr)
{
	ti_rx_invite_shift(n, src, term, coord, ids, nr, 0);
}

/* READY from @src: group (@term, @src), members @ids, version 1 + @term */
static void ti_rx_ready(struct t_node *n, u32 src, u64 term, const u32 *ids,
			u16 nr)
{
	u8 pl[ELECTION_INV_READY_HDR_LEN + 4 * T_MAX_NODES];
	u16 i;

	memset(pl, 0, sizeof(pl));
	pl[0] = nr >> 8;
	pl[1] = nr;
	elec_put32(pl + 4, 1 + (u32)term);
	for (i = 0; i < nr; i++)
		elec_put32(pl + ELECTION_INV_READY_HDR_LEN + 4 * i, ids[i]);
	ti_rx_pl(n, ELEC_MSG_READY, 0, src, 0, term, pl,
		 ELECTION_INV_READY_HDR_LEN + 4 * nr);
}

/* the ids of a recorded INVITE or READY, as a bit set of ids < 32 */
static u32 ti_id_bits(struct kunit *test, const struct elec_action *a)
{
	u16 hdr = a->msg.type == ELEC_MSG_INVITE ?
		  ELECTION_INV_INVITE_HDR_LEN : ELECTION_INV_READY_HDR_LEN;
	const u8 *pl = a->msg.payload;
	u32 bits = 0;
	u16 i, nr;

	KUNIT_ASSERT_NOT_NULL(test, pl);
	/* the count: INVITE's after the coordinator, READY's first */
	nr = a->msg.type == ELEC_MSG_INVITE ? (u16)(pl[4] << 8 | pl[5]) :
	     (u16)(pl[0] << 8 | pl[1]);
	KUNIT_ASSERT_EQ(test, a->msg.payload_len, hdr + 4 * nr);
	for (i = 0; i < nr; i++) {
		u32 id = elec_get32(pl + hdr + 4 * i);

		KUNIT_ASSERT_LT(test, id, 32U);
		bits |= T_BIT(id);
	}
	return bits;
}

/* the peers flagged a member of @n's group, as a bit set */
static u32 ti_members(struct t_node *n)
{
	u32 i, bits = 0;

	for (i = 0; i < n->c.n_peers; i++)
		if (n->c.peers[i].flags & ELEC_INV_PEER_MEMBER)
			bits |= T_BIT(n->c.peers[i].id);
	return bits;
}

/* @n, started, whose first search found nobody: a coordinator alone */
static struct t_node *ti_alone(struct kunit *test, u32 self)
{
	struct t_node *n = ti_node(test, self);

	t_start(n);
	t_fire(n, ELEC_INV_TIMER_REPLY);
	t_clear(n);
	return n;
}

/* 9 alone, then merged the groups of 3 (term 4) and 5 (term 2) at term 5 */
static struct t_node *ti_merging9(struct kunit *test)
{
	struct t_node *n = ti_node(test, 9);

	t_start(n);
	ti_rx_reply(n, 3, 4, 3);
	ti_rx_reply(n, 5, 2, 5);
	ti_rx_reply(n, 7, 2, 5);	/* a member of 5's group */
	t_fire(n, ELEC_INV_TIMER_REPLY);
	return n;
}

/* 5, a coordinator alone, that accepted 9's invitation into (7, 9) */
static struct t_node *ti_accepted5(struct kunit *test)
{
	static const u32 five[] = { 5 };
	struct t_node *n = ti_alone(test, 5);

	ti_rx_invite(n, 9, 7, 9, five, 1);
	KUNIT_ASSERT_EQ(test, n->c.phase, ELEC_INV_ACCEPTED);
	t_clear(n);
	return n;
}

/* 5, a member of 9's group (4, 9) with 3 and 7 */
static struct t_node *ti_member5(struct kunit *test)
{
	static const u32 members[] = { 3, 5, 7 };
	static const u32 five[] = { 5 };
	struct t_node *n = ti_alone(test, 5);

	ti_rx_invite(n, 9, 4, 9, five, 1);
	ti_rx_ready(n, 9, 4, members, 3);
	KUNIT_ASSERT_EQ(test, n->c.phase, ELEC_INV_MEMBER);
	t_clear(n);
	return n;
}

/* @n's standby on or off (admin and tracked alike), as GROUP_SET sets it */
static void ti_standby(struct t_node *n, bool on)
{
	struct elec_config cfg = n->c.cfg;

	cfg.standby = on;
	cfg.standby_tracked = on;
	KUNIT_ASSERT_EQ(n->test, elec_core_set_config(&n->c, &cfg, NULL), 0);
	elec_core_standby_sync(&n->c, n->now);
}

/* @n is between groups: no group, no leader, no timer, a follower */
static void ti_expect_groupless(struct t_node *n)
{
	struct kunit *test = n->test;

	KUNIT_EXPECT_EQ(test, n->c.phase, ELEC_INV_MEMBER);
	KUNIT_EXPECT_EQ(test, n->c.role, ELEC_ROLE_FOLLOWER);
	KUNIT_EXPECT_EQ(test, n->c.leader, 0);
	KUNIT_EXPECT_EQ(test, n->c.inv.coord, 0);
	KUNIT_EXPECT_EQ(test, n->c.inv.seq, 0);
	KUNIT_EXPECT_EQ(test, t_timers(n), 0);
}

/*
 * Standby: 9, the highest id, started in standby, forms no group and
 * sends nothing; it answers a search as the asker's member (never as a
 * coordinator), ignores invitations and joins the READY that lists it;
 * its coordinator's LEAVING heartbeat, or silence, puts it between
 * groups again without a search.
 */
static void ti_standby_never_coordinates(struct kunit *test)
{
	static const u32 members[] = { 3, 9 };
	static const u32 nine[] = { 9 };
	struct t_node *n = ti_node(test, 9);
	const struct elec_action *a;

	n->c.cfg.standby = true;
	t_start(n);
	ti_expect_groupless(n);
	KUNIT_EXPECT_EQ(test, t_sends(n, 0, T_ANY), 0);
	KUNIT_EXPECT_EQ(test, n->c.stats.elections, 0);

	/* 7 searches: 9 answers as 7's member, group number (0, 0) */
	t_clear(n);
	ti_rx(n, ELEC_MSG_ARE_YOU_COORD, 7, 0, 3);
	a = t_sent(n, ELEC_MSG_AYC_REPLY);
	KUNIT_EXPECT_EQ(test, a->msg.dst, 7);
	KUNIT_EXPECT_EQ(test, a->msg.term, 0);
	KUNIT_EXPECT_EQ(test, elec_get32(a->msg.payload), 7);
	KUNIT_EXPECT_EQ(test, t_sends(n, 0, T_ANY), 1);
	ti_expect_groupless(n);

	/* an invitation for a group "9" is nothing to it */
	t_clear(n);
	ti_rx_invite(n, 7, 4, 7, nine, 1);
	KUNIT_EXPECT_EQ(test, t_sends(n, 0, T_ANY), 0);
	ti_expect_groupless(n);

	/* 7's READY lists it: a member of (3, 7), watching 7 */
	ti_rx_ready(n, 7, 3, members, 2);
	KUNIT_EXPECT_EQ(test, n->c.phase, ELEC_INV_MEMBER);
	KUNIT_EXPECT_EQ(test, n->c.role, ELEC_ROLE_FOLLOWER);
	KUNIT_EXPECT_EQ(test, n->c.leader, 7);
	KUNIT_EXPECT_EQ(test, n->c.inv.coord, 7);
	KUNIT_EXPECT_EQ(test, n->c.inv.seq, 3);
	KUNIT_EXPECT_EQ(test, ti_members(n), T_BIT(3) | T_BIT(7));
	KUNIT_EXPECT_NE(test, n->c.timer_expires[ELEC_TIMER_DETECT], 0);

	/* a lower coordinator's READY listing it does not move it */
	ti_rx_ready(n, 5, 6, nine, 1);
	KUNIT_EXPECT_EQ(test, n->c.leader, 7);

	/* 7 leaves: between groups, no group of its own, nothing sent */
	t_clear(n);
	ti_rx_pl(n, ELEC_MSG_HEARTBEAT, ELECTION_FLAG_LEAVING, 7, 0, 3,
		 NULL, 0);
	ti_expect_groupless(n);
	KUNIT_EXPECT_EQ(test, t_sends(n, 0, T_ANY), 0);
	KUNIT_EXPECT_EQ(test, n->c.stats.elections, 0);

	/* member again; 7 falls silent: between groups, nothing sent */
	ti_rx_ready(n, 7, 5, members, 2);
	KUNIT_EXPECT_EQ(test, n->c.leader, 7);
	t_clear(n);
	t_fire(n, ELEC_TIMER_DETECT);
	ti_expect_groupless(n);
	KUNIT_EXPECT_EQ(test, t_sends(n, 0, T_ANY), 0);

	/* the administrator's elect forms no group either */
	elec_core_elect(&n->c, n->now);
	ti_expect_groupless(n);
	KUNIT_EXPECT_EQ(test, n->c.stats.elections, 0);

	/* nor does it take a member out of its group */
	ti_rx_ready(n, 7, 7, members, 2);
	KUNIT_EXPECT_EQ(test, n->c.leader, 7);
	t_clear(n);
	elec_core_elect(&n->c, n->now);
	KUNIT_EXPECT_EQ(test, n->c.leader, 7);
	KUNIT_EXPECT_EQ(test, n->c.inv.coord, 7);
	KUNIT_EXPECT_EQ(test, t_sends(n, 0, T_ANY), 0);
}

/*
 * Standby on a coordinator: it resigns (a LEAVING heartbeat) and is
 * between groups; a member stays in its group. Standby off: a node
 * between groups, or under a lower coordinator, forms its own group and
 * searches; under a higher one it stays.
 */
static void ti_standby_on_off(struct kunit *test)
{
	static const u32 not9[] = { 3, 5, 7 };
	static const u32 with9[] = { 3, 5, 9 };
	struct t_node *n = ti_merging9(test);
	const struct elec_action *a;

	/* 9 coordinates 3 and 5 (the merge of ti_merging9()) */
	ti_rx(n, ELEC_MSG_ACCEPT, 3, 9, n->c.inv.pend_seq);
	ti_rx(n, ELEC_MSG_ACCEPT, 5, 9, n->c.inv.pend_seq);
	t_fire(n, ELEC_INV_TIMER_ACCEPT);
	KUNIT_ASSERT_EQ(test, ti_members(n), T_BIT(3) | T_BIT(5));
	KUNIT_ASSERT_EQ(test, n->c.phase, ELEC_INV_COORD);
	KUNIT_ASSERT_EQ(test, n->c.leader, 9);
	t_clear(n);
	ti_standby(n, true);
	a = t_sent(n, ELEC_MSG_HEARTBEAT);
	KUNIT_EXPECT_TRUE(test, a->msg.flags & ELECTION_FLAG_LEAVING);
	KUNIT_EXPECT_EQ(test, t_sends(n, 0, T_ANY), 1);
	ti_expect_groupless(n);
	KUNIT_EXPECT_EQ(test, ti_members(n), 0);

	/* off again: a group of its own, a search at once */
	t_clear(n);
	ti_standby(n, false);
	KUNIT_EXPECT_EQ(test, n->c.phase, ELEC_INV_COORD);
	KUNIT_EXPECT_EQ(test, n->c.role, ELEC_ROLE_LEADER);
	KUNIT_EXPECT_EQ(test, n->c.leader, 9);
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_ARE_YOU_COORD, 0), 1);

	/* a member under a higher coordinator: standby on and off, stays */
	n = ti_member5(test);
	ti_standby(n, true);
	KUNIT_EXPECT_EQ(test, t_sends(n, 0, T_ANY), 0);
	KUNIT_EXPECT_EQ(test, n->c.leader, 9);
	KUNIT_EXPECT_EQ(test, n->c.phase, ELEC_INV_MEMBER);
	ti_standby(n, false);
	KUNIT_EXPECT_EQ(test, t_sends(n, 0, T_ANY), 0);
	KUNIT_EXPECT_EQ(test, n->c.leader, 9);
	KUNIT_EXPECT_EQ(test, n->c.phase, ELEC_INV_MEMBER);

	/* a standby member under a lower coordinator takes over when off */
	n = ti_node(test, 9);
	n->c.cfg.standby = true;
	t_start(n);
	ti_rx(n, ELEC_MSG_ARE_YOU_COORD, 7, 0, 3);
	ti_rx_ready(n, 7, 3, not9, 3);	/* not listed: nothing to it */
	KUNIT_EXPECT_EQ(test, n->c.leader, 0);
	ti_rx_ready(n, 7, 3, with9, 3);
	KUNIT_ASSERT_EQ(test, n->c.leader, 7);
	t_clear(n);
	ti_standby(n, false);
	KUNIT_EXPECT_EQ(test, n->c.phase, ELEC_INV_COORD);
	KUNIT_EXPECT_EQ(test, n->c.leader, 9);
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_ARE_YOU_COORD, 0), 1);
}

/* the merging coordinator's LEAVING heartbeat: no READY will come */
static void ti_accepted_leaving(struct kunit *test)
{
	struct t_node *n = ti_accepted5(test);

	/* another coordinator leaving is nothing to it */
	ti_rx_pl(n, ELEC_MSG_HEARTBEAT, ELECTION_FLAG_LEAVING, 7, 0, 7,
		 NULL, 0);
	KUNIT_EXPECT_EQ(test, n->c.phase, ELEC_INV_ACCEPTED);
	ti_rx_pl(n, ELEC_MSG_HEARTBEAT, ELECTION_FLAG_LEAVING, 9, 0, 4,
		 NULL, 0);
	KUNIT_EXPECT_EQ(test, n->c.phase, ELEC_INV_COORD);
	KUNIT_EXPECT_EQ(test, n->c.leader, 5);
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_ARE_YOU_COORD, 0), 1);
}

/* a start forms a group of one and searches at once */
static void ti_start_forms_group(struct kunit *test)
{
	struct t_node *n = ti_node(test, 5);
	const struct elec_action *a;

	t_start(n);
	KUNIT_EXPECT_EQ(test, n->c.phase, ELEC_INV_COORD);
	KUNIT_EXPECT_EQ(test, n->c.role, ELEC_ROLE_LEADER);
	KUNIT_EXPECT_EQ(test, n->c.leader, 5);
	KUNIT_EXPECT_EQ(test, n->c.term, 1);
	KUNIT_EXPECT_EQ(test, n->c.inv.seq, 1);
	KUNIT_EXPECT_EQ(test, n->c.inv.coord, 5);
	KUNIT_EXPECT_EQ(test, ti_members(n), 0);
	KUNIT_EXPECT_EQ(test, n->c.stats.elections, 1);
	KUNIT_EXPECT_EQ(test, t_events(n, ELEC_EVENT_ELECTION_STARTED, 0), 1);
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_HEARTBEAT, 0), 1);
	a = t_sent(n, ELEC_MSG_ARE_YOU_COORD);
	KUNIT_EXPECT_EQ(test, a->msg.dst, 0);
	KUNIT_EXPECT_EQ(test, a->msg.term, 1);
	KUNIT_EXPECT_EQ(test, a->msg.payload_len, 0);
	KUNIT_EXPECT_EQ(test, t_sends(n, 0, T_ANY), 2);
	KUNIT_EXPECT_EQ(test, t_armed_at(n, ELEC_TIMER_HEARTBEAT),
			T_START + T_HB);
	KUNIT_EXPECT_EQ(test, t_armed_at(n, ELEC_INV_TIMER_REPLY),
			T_START + T_T);
	KUNIT_EXPECT_EQ(test, t_armed_at(n, ELEC_INV_TIMER_SEARCH),
			T_START + T_DETECT);
	KUNIT_EXPECT_STREQ(test, elec_timer_name(n->c.ops,
						 ELEC_INV_TIMER_SEARCH),
			   "search");
}

/* every node answers a search with its group, to the searcher alone */
static void ti_ayc_answered(struct kunit *test)
{
	struct t_node *n = ti_alone(test, 5);
	const struct elec_action *a;

	ti_rx(n, ELEC_MSG_ARE_YOU_COORD, 9, 0, 3);
	a = t_sent(n, ELEC_MSG_AYC_REPLY);
	KUNIT_EXPECT_EQ(test, a->msg.dst, 9);
	KUNIT_EXPECT_EQ(test, a->msg.term, 1);
	KUNIT_ASSERT_EQ(test, a->msg.payload_len, ELECTION_INV_REPLY_LEN);
	KUNIT_EXPECT_EQ(test, elec_get32(a->msg.payload), 5);
	/* 9 is higher: 5 waits to be invited, no search of its own */
	KUNIT_EXPECT_EQ(test, t_sends(n, 0, T_ANY), 1);

	/* a member answers with its coordinator */
	n = ti_member5(test);
	ti_rx(n, ELEC_MSG_ARE_YOU_COORD, 9, 0, 4);
	a = t_sent(n, ELEC_MSG_AYC_REPLY);
	KUNIT_EXPECT_EQ(test, a->msg.term, 4);
	KUNIT_EXPECT_EQ(test, elec_get32(a->msg.payload), 9);
	/* and its coordinator's search counts as a sign of life */
	KUNIT_EXPECT_EQ(test, t_armed_at(n, ELEC_TIMER_DETECT),
			n->now + T_DETECT);

	/* a node between groups answers coordinator 0 */
	n = ti_accepted5(test);
	ti_rx(n, ELEC_MSG_ARE_YOU_COORD, 3, 0, 1);
	a = t_sent(n, ELEC_MSG_AYC_REPLY);
	KUNIT_EXPECT_EQ(test, elec_get32(a->msg.payload), 0);
}

/* a lower coordinator's search or heartbeat makes a higher one search */
static void ti_lower_heard_searches(struct kunit *test)
{
	struct t_node *n = ti_alone(test, 9);

	ti_rx(n, ELEC_MSG_ARE_YOU_COORD, 5, 0, 1);
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_AYC_REPLY, 5), 1);
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_ARE_YOU_COORD, 0), 1);
	KUNIT_EXPECT_TRUE(test, n->c.inv.searching);
	/* one search at a time */
	t_clear(n);
	ti_rx(n, ELEC_MSG_HEARTBEAT, 3, 0, 1);
	KUNIT_EXPECT_EQ(test, t_sends(n, 0, T_ANY), 0);

	n = ti_alone(test, 9);
	ti_rx(n, ELEC_MSG_HEARTBEAT, 3, 0, 1);
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_ARE_YOU_COORD, 0), 1);

	/* a higher coordinator's heartbeat: nothing */
	n = ti_alone(test, 5);
	ti_rx(n, ELEC_MSG_HEARTBEAT, 9, 0, 1);
	KUNIT_EXPECT_EQ(test, t_sends(n, 0, T_ANY), 0);
	/* nor for a member */
	n = ti_member5(test);
	ti_rx(n, ELEC_MSG_HEARTBEAT, 3, 0, 1);
	KUNIT_EXPECT_EQ(test, t_sends(n, 0, T_ANY), 0);
}

/* searches that frames start are rate limited like elections */
static void ti_lower_heard_rate_limited(struct kunit *test)
{
	struct t_node *n = ti_alone(test, 9);
	u64 at = n->now;
	u32 i;

	/* a burst at one instant */
	for (i = 0; i < TI_BURST; i++) {
		ti_rx(n, ELEC_MSG_HEARTBEAT, 3, 0, 1);
		KUNIT_ASSERT_TRUE_MSG(test, n->c.inv.searching, "i %u", i);
		t_fire(n, ELEC_INV_TIMER_REPLY);
		n->now = at;
	}
	KUNIT_EXPECT_EQ(test, n->c.stats.elections_limited, 0);
	t_clear(n);
	ti_rx(n, ELEC_MSG_HEARTBEAT, 3, 0, 1);
	KUNIT_EXPECT_EQ(test, t_sends(n, 0, T_ANY), 0);
	KUNIT_EXPECT_EQ(test, n->c.stats.elections_limited, 1);
}

/* the search finds lower coordinators only: merge them at a new number */
static void ti_search_merges_lower(struct kunit *test)
{
	struct t_node *n = ti_merging9(test);
	const struct elec_action *a = t_sent(n, ELEC_MSG_INVITE);

	KUNIT_EXPECT_EQ(test, n->c.phase, ELEC_INV_MERGING);
	KUNIT_EXPECT_EQ(test, a->msg.dst, 0);
	/* above every number seen: 4 */
	KUNIT_EXPECT_EQ(test, a->msg.term, 5);
	KUNIT_EXPECT_EQ(test, n->c.inv.pend_seq, 5);
	KUNIT_EXPECT_EQ(test, elec_get32(a->msg.payload), 9);
	/* the coordinators found, not 7 (a member of 5's group) */
	KUNIT_EXPECT_EQ(test, ti_id_bits(test, a), T_BIT(3) | T_BIT(5));
	KUNIT_EXPECT_EQ(test, t_armed_at(n, ELEC_INV_TIMER_ACCEPT),
			n->now + T_T);
	/* the old group runs on meanwhile */
	KUNIT_EXPECT_EQ(test, n->c.leader, 9);
	KUNIT_EXPECT_EQ(test, n->c.inv.seq, 1);
	KUNIT_EXPECT_EQ(test, n->c.role, ELEC_ROLE_LEADER);
	KUNIT_EXPECT_EQ(test, n->c.stats.elections, 2);
	t_clear(n);
	t_fire(n, ELEC_TIMER_HEARTBEAT);
	KUNIT_EXPECT_EQ(test, t_sent(n, ELEC_MSG_HEARTBEAT)->msg.term, 1);
}

/* a merging coordinator accepts no invitation */
static void ti_merging_refuses(struct kunit *test)
{
	static const u32 seven[] = { 7 };
	struct t_node *n = ti_node(test, 7);

	t_start(n);
	ti_rx_reply(n, 3, 1, 3);
	t_fire(n, ELEC_INV_TIMER_REPLY);
	KUNIT_ASSERT_EQ(test, n->c.phase, ELEC_INV_MERGING);
	t_clear(n);
	ti_rx_invite(n, 9, 5, 9, seven, 1);
	KUNIT_EXPECT_EQ(test, t_sends(n, 0, T_ANY), 0);
	KUNIT_EXPECT_EQ(test, n->c.phase, ELEC_INV_MERGING);
}

/* a search that found (or heard) a higher coordinator merges nothing */
static void ti_search_found_higher(struct kunit *test)
{
	struct t_node *n = ti_node(test, 7);

	t_start(n);
	ti_rx_reply(n, 3, 1, 3);
	ti_rx_reply(n, 9, 1, 9);
	t_clear(n);
	t_fire(n, ELEC_INV_TIMER_REPLY);
	KUNIT_EXPECT_EQ(test, t_sends(n, 0, T_ANY), 0);
	KUNIT_EXPECT_EQ(test, n->c.phase, ELEC_INV_COORD);
	KUNIT_EXPECT_FALSE(test, n->c.inv.searching);

	/* 9's heartbeat during the search, not its reply */
	n = ti_node(test, 7);
	t_start(n);
	ti_rx_reply(n, 3, 1, 3);
	ti_rx(n, ELEC_MSG_HEARTBEAT, 9, 0, 1);
	t_clear(n);
	t_fire(n, ELEC_INV_TIMER_REPLY);
	KUNIT_EXPECT_EQ(test, t_sends(n, 0, T_ANY), 0);

	/* or its search */
	n = ti_node(test, 7);
	t_start(n);
	ti_rx_reply(n, 3, 1, 3);
	ti_rx(n, ELEC_MSG_ARE_YOU_COORD, 9, 0, 1);
	t_clear(n);
	t_fire(n, ELEC_INV_TIMER_REPLY);
	KUNIT_EXPECT_EQ(test, t_sends(n, 0, T_ANY), 0);
}

/* replies outside the window, twice, or from members of others: no find */
static void ti_search_ignores(struct kunit *test)
{
	struct t_node *n = ti_alone(test, 9);

	ti_rx_reply(n, 3, 1, 3);	/* late: the window closed */
	ti_rx_reply(n, 5, 1, 7);	/* 5 is a member of 7's group */
	t_clear(n);
	t_fire(n, ELEC_INV_TIMER_SEARCH);
	KUNIT_EXPECT_TRUE(test, n->c.inv.searching);
	ti_rx_reply(n, 5, 1, 7);
	ti_rx_reply(n, 3, 1, 0);	/* between groups */
	KUNIT_EXPECT_EQ(test, n->c.inv.found_lower, 0);
	ti_rx_reply(n, 7, 1, 7);
	ti_rx_reply(n, 7, 1, 7);
	KUNIT_EXPECT_EQ(test, n->c.inv.found_lower, 1);
	t_fire(n, ELEC_INV_TIMER_REPLY);
	KUNIT_EXPECT_EQ(test, ti_id_bits(test, t_sent(n, ELEC_MSG_INVITE)),
			T_BIT(7));
}

/* the accept window closes: READY to the old members and the acceptors */
static void ti_merge_done(struct kunit *test)
{
	struct t_node *n = ti_merging9(test);
	const struct elec_action *a;

	ti_rx(n, ELEC_MSG_ACCEPT, 3, 9, 5);
	ti_rx(n, ELEC_MSG_ACCEPT, 5, 9, 5);
	ti_rx(n, ELEC_MSG_ACCEPT, 7, 9, 4);	/* another number: ignored */
	t_clear(n);
	t_fire(n, ELEC_INV_TIMER_ACCEPT);
	a = t_sent(n, ELEC_MSG_READY);
	KUNIT_EXPECT_EQ(test, a->msg.dst, 0);
	KUNIT_EXPECT_EQ(test, a->msg.term, 5);
	KUNIT_EXPECT_EQ(test, ti_id_bits(test, a), T_BIT(3) | T_BIT(5));
	KUNIT_EXPECT_EQ(test, n->c.phase, ELEC_INV_COORD);
	KUNIT_EXPECT_EQ(test, n->c.inv.seq, 5);
	KUNIT_EXPECT_EQ(test, n->c.term, 5);
	KUNIT_EXPECT_EQ(test, n->c.leader, 9);
	KUNIT_EXPECT_EQ(test, ti_members(n), T_BIT(3) | T_BIT(5));
	t_clear(n);
	t_fire(n, ELEC_TIMER_HEARTBEAT);
	KUNIT_EXPECT_EQ(test, t_sent(n, ELEC_MSG_HEARTBEAT)->msg.term, 5);

	/* nobody accepted: the group keeps its number, no READY */
	n = ti_merging9(test);
	t_clear(n);
	t_fire(n, ELEC_INV_TIMER_ACCEPT);
	KUNIT_EXPECT_EQ(test, t_sends(n, 0, T_ANY), 0);
	KUNIT_EXPECT_EQ(test, n->c.inv.seq, 1);
	KUNIT_EXPECT_EQ(test, n->c.phase, ELEC_INV_COORD);
}

/* a coordinator accepts: ACCEPT, the relay to its members, then halts */
static void ti_accept_coordinator(struct kunit *test)
{
	static const u32 five[] = { 3, 5 };
	struct t_node *n = ti_alone(test, 5);
	const struct elec_action *a;

	ti_rx_invite(n, 9, 7, 9, five, 2);
	a = t_sent(n, ELEC_MSG_ACCEPT);
	KUNIT_EXPECT_EQ(test, a->msg.dst, 9);
	KUNIT_EXPECT_EQ(test, a->msg.term, 7);
	a = t_sent(n, ELEC_MSG_INVITE);
	KUNIT_EXPECT_EQ(test, a->msg.dst, 0);
	KUNIT_EXPECT_EQ(test, a->msg.term, 7);
	KUNIT_EXPECT_EQ(test, elec_get32(a->msg.payload), 9);
	KUNIT_EXPECT_EQ(test, ti_id_bits(test, a), T_BIT(5));
	KUNIT_EXPECT_EQ(test, t_sends(n, 0, T_ANY), 2);
	KUNIT_EXPECT_EQ(test, n->c.phase, ELEC_INV_ACCEPTED);
	KUNIT_EXPECT_EQ(test, n->c.role, ELEC_ROLE_CANDIDATE);
	KUNIT_EXPECT_EQ(test, n->c.leader, 0);
	KUNIT_EXPECT_EQ(test, n->c.inv.pend_seq, 7);
	KUNIT_EXPECT_EQ(test, n->c.inv.pend_coord, 9);
	/* halted: only the wait for READY is armed */
	KUNIT_EXPECT_EQ(test, t_timers(n), T_BIT(ELEC_INV_TIMER_ACCEPT));
	KUNIT_EXPECT_EQ(test, t_armed_at(n, ELEC_INV_TIMER_ACCEPT),
			n->now + T_COORD);
	/* the first invitation wins */
	t_clear(n);
	ti_rx_invite(n, 7, 8, 7, five, 2);
	KUNIT_EXPECT_EQ(test, t_sends(n, 0, T_ANY), 0);
	KUNIT_EXPECT_EQ(test, n->c.inv.pend_coord, 9);
}

/* a member accepts an invitation naming its coordinator, relays nothing */
static void ti_accept_member(struct kunit *test)
{
	struct t_node *n = ti_node(test, 3);
	static const u32 members[] = { 3 };
	static const u32 three[] = { 3 };

	t_start(n);
	ti_rx_invite(n, 7, 2, 7, three, 1);
	ti_rx_ready(n, 7, 2, members, 1);
	KUNIT_ASSERT_EQ(test, n->c.leader, 7);
	t_clear(n);
	/* not for its group */
	ti_rx_invite(n, 9, 3, 9, three, 1);
	KUNIT_EXPECT_EQ(test, t_sends(n, 0, T_ANY), 0);
	/* its coordinator's group, relayed by 7 */
	{
		static const u32 seven[] = { 7 };

		ti_rx_invite(n, 7, 3, 9, seven, 1);
	}
	KUNIT_EXPECT_EQ(test, t_sends(n, 0, T_ANY), 1);
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_ACCEPT, 9), 1);
	KUNIT_EXPECT_EQ(test, n->c.phase, ELEC_INV_ACCEPTED);
}

/* invitations that are refused change nothing */
static void ti_invite_refused(struct kunit *test)
{
	static const u32 five[] = { 5 };
	static const u32 other[] = { 3 };
	struct t_node *n = ti_alone(test, 5);
	/* static: struct elec_core is too big for a test's stack */
	static struct elec_core before;

	before = n->c;

	/* not naming its group */
	ti_rx_invite(n, 9, 7, 9, other, 1);
	/* a lower new coordinator */
	ti_rx_invite(n, 3, 7, 3, five, 1);
	/* an old number: not above its own (1) */
	ti_rx_invite(n, 9, 1, 9, five, 1);
	KUNIT_EXPECT_EQ(test, t_sends(n, 0, T_ANY), 0);
	KUNIT_EXPECT_EQ(test, n->c.phase, before.phase);
	KUNIT_EXPECT_EQ(test, n->c.leader, before.leader);
	KUNIT_EXPECT_EQ(test, memcmp(n->c.timer_expires, before.timer_expires,
				     sizeof(before.timer_expires)), 0);
}

/* an accepting node joins when READY lists it, else forms a group */
static void ti_ready(struct kunit *test)
{
	static const u32 members[] = { 3, 5, 7 };
	static const u32 without[] = { 3, 7 };
	struct t_node *n = ti_accepted5(test);

	/* another coordinator's READY, or another number: ignored */
	ti_rx_ready(n, 7, 7, members, 3);
	ti_rx_ready(n, 9, 6, members, 3);
	KUNIT_EXPECT_EQ(test, n->c.phase, ELEC_INV_ACCEPTED);
	ti_rx_ready(n, 9, 7, members, 3);
	KUNIT_EXPECT_EQ(test, n->c.phase, ELEC_INV_MEMBER);
	KUNIT_EXPECT_EQ(test, n->c.role, ELEC_ROLE_FOLLOWER);
	KUNIT_EXPECT_EQ(test, n->c.leader, 9);
	KUNIT_EXPECT_EQ(test, n->c.term, 7);
	KUNIT_EXPECT_EQ(test, n->c.inv.seq, 7);
	KUNIT_EXPECT_EQ(test, n->c.inv.coord, 9);
	KUNIT_EXPECT_EQ(test, ti_members(n), T_BIT(3) | T_BIT(7) | T_BIT(9));
	KUNIT_EXPECT_EQ(test, t_armed_at(n, ELEC_TIMER_DETECT),
			n->now + T_DETECT);
	KUNIT_EXPECT_EQ(test, t_sends(n, 0, T_ANY), 0);

	/* left out: a group of its own, at a new number */
	n = ti_accepted5(test);
	ti_rx_ready(n, 9, 7, without, 2);
	KUNIT_EXPECT_EQ(test, n->c.phase, ELEC_INV_COORD);
	KUNIT_EXPECT_EQ(test, n->c.leader, 5);
	KUNIT_EXPECT_EQ(test, n->c.inv.seq, 8);
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_ARE_YOU_COORD, 0), 1);

	/* no READY within coord-timeout: the same */
	n = ti_accepted5(test);
	t_fire(n, ELEC_INV_TIMER_ACCEPT);
	KUNIT_EXPECT_EQ(test, n->c.phase, ELEC_INV_COORD);
	KUNIT_EXPECT_EQ(test, n->c.inv.seq, 8);
	KUNIT_EXPECT_EQ(test, n->c.inv.coord, 5);
}

/* a member: heartbeats keep it, silence or LEAVING make it leave */
static void ti_member_watch(struct kunit *test)
{
	static const u32 members[] = { 3, 5 };
	struct t_node *n = ti_member5(test);

	n->now += T_HB;
	ti_rx(n, ELEC_MSG_HEARTBEAT, 9, 0, 4);
	KUNIT_EXPECT_EQ(test, t_armed_at(n, ELEC_TIMER_DETECT),
			n->now + T_DETECT);
	/* a newer number from its coordinator is taken */
	ti_rx(n, ELEC_MSG_HEARTBEAT, 9, 0, 6);
	KUNIT_EXPECT_EQ(test, n->c.inv.seq, 6);
	KUNIT_EXPECT_EQ(test, n->c.leader, 9);
	/* an older one, or another node's, does not refresh */
	n->now += T_HB;
	t_clear(n);
	ti_rx(n, ELEC_MSG_HEARTBEAT, 9, 0, 5);
	ti_rx(n, ELEC_MSG_HEARTBEAT, 7, 0, 9);
	KUNIT_EXPECT_EQ(test, t_arms(n, ELEC_TIMER_DETECT), 0);
	/* READY from its coordinator updates the membership */
	ti_rx_ready(n, 9, 6, members, 2);
	KUNIT_EXPECT_EQ(test, ti_members(n), T_BIT(3) | T_BIT(9));
	KUNIT_EXPECT_EQ(test, n->c.phase, ELEC_INV_MEMBER);

	/* silence: PEER_DOWN for the coordinator, a group of its own */
	t_clear(n);
	t_fire(n, ELEC_TIMER_DETECT);
	KUNIT_EXPECT_EQ(test, t_events(n, ELEC_EVENT_PEER_DOWN, 9), 1);
	KUNIT_EXPECT_EQ(test, n->c.phase, ELEC_INV_COORD);
	KUNIT_EXPECT_EQ(test, n->c.leader, 5);
	KUNIT_EXPECT_EQ(test, n->c.inv.seq, 10);
	KUNIT_EXPECT_EQ(test, ti_members(n), 0);

	/* LEAVING: at once */
	n = ti_member5(test);
	ti_rx_pl(n, ELEC_MSG_HEARTBEAT, ELECTION_FLAG_LEAVING, 9, 0, 4, NULL,
		 0);
	KUNIT_EXPECT_EQ(test, n->c.phase, ELEC_INV_COORD);
	KUNIT_EXPECT_EQ(test, n->c.leader, 5);

	/* READY leaving it out: the same */
	n = ti_member5(test);
	{
		static const u32 others[] = { 3, 7 };

		ti_rx_ready(n, 9, 4, others, 2);
	}
	KUNIT_EXPECT_EQ(test, n->c.phase, ELEC_INV_COORD);
}

/* a member silent for hb-miss searches leaves; its answer brings it back */
static void ti_coordinator_membership(struct kunit *test)
{
	struct t_node *n = ti_merging9(test);
	const struct elec_action *a;
	u32 i;

	ti_rx(n, ELEC_MSG_ACCEPT, 3, 9, 5);
	ti_rx(n, ELEC_MSG_ACCEPT, 5, 9, 5);
	t_fire(n, ELEC_INV_TIMER_ACCEPT);
	KUNIT_ASSERT_EQ(test, ti_members(n), T_BIT(3) | T_BIT(5));
	for (i = 0; i < T_MISS; i++) {
		t_clear(n);
		t_fire(n, ELEC_INV_TIMER_SEARCH);
		ti_rx_reply(n, 5, 5, 9);
		t_fire(n, ELEC_INV_TIMER_REPLY);
		if (i + 1 < T_MISS)
			KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_READY, 0), 0);
	}
	a = t_sent(n, ELEC_MSG_READY);
	KUNIT_EXPECT_EQ(test, ti_id_bits(test, a), T_BIT(5));
	KUNIT_EXPECT_EQ(test, t_events(n, ELEC_EVENT_PEER_DOWN, 3), 1);
	/* 3 still follows 9 and says so: a member again, READY at the end */
	t_clear(n);
	t_fire(n, ELEC_INV_TIMER_SEARCH);
	ti_rx_reply(n, 3, 5, 9);
	ti_rx_reply(n, 5, 5, 9);
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_READY, 0), 0);
	t_fire(n, ELEC_INV_TIMER_REPLY);
	a = t_sent(n, ELEC_MSG_READY);
	KUNIT_EXPECT_EQ(test, ti_id_bits(test, a), T_BIT(3) | T_BIT(5));
	/* 5 answers for another group: it left */
	t_clear(n);
	t_fire(n, ELEC_INV_TIMER_SEARCH);
	ti_rx_reply(n, 3, 5, 9);
	ti_rx_reply(n, 5, 8, 7);
	t_fire(n, ELEC_INV_TIMER_REPLY);
	a = t_sent(n, ELEC_MSG_READY);
	KUNIT_EXPECT_EQ(test, ti_id_bits(test, a), T_BIT(3));
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_READY, 0), 1);

	/*
	 * answers outside a search window, however many: no READY each
	 * (a peer cannot make the coordinator broadcast per frame); the
	 * next search's end sends one
	 */
	t_clear(n);
	for (i = 0; i < 10; i++)
		ti_rx_reply_ver(n, 3, 5, 9, n->c.inv.mver + 1 + i);
	ti_rx_reply(n, 5, 5, 9);
	KUNIT_EXPECT_EQ(test, t_sends(n, 0, T_ANY), 0);
	t_fire(n, ELEC_INV_TIMER_SEARCH);
	ti_rx_reply(n, 3, 5, 9);
	ti_rx_reply(n, 5, 5, 9);
	t_fire(n, ELEC_INV_TIMER_REPLY);
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_READY, 0), 1);
	KUNIT_EXPECT_EQ(test, ti_id_bits(test, t_sent(n, ELEC_MSG_READY)),
			T_BIT(3) | T_BIT(5));
}

/* elect: a coordinator searches, a member forms its own group */
static void ti_elect(struct kunit *test)
{
	struct t_node *n = ti_alone(test, 5);

	elec_core_elect(&n->c, n->now);
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_ARE_YOU_COORD, 0), 1);
	n = ti_member5(test);
	elec_core_elect(&n->c, n->now);
	KUNIT_EXPECT_EQ(test, n->c.phase, ELEC_INV_COORD);
	KUNIT_EXPECT_EQ(test, n->c.leader, 5);
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_ARE_YOU_COORD, 0), 1);
}

/* removing the coordinator's peer entry: a group of its own */
static void ti_peer_removed(struct kunit *test)
{
	struct t_node *n = ti_member5(test);

	KUNIT_EXPECT_EQ(test, elec_core_peer_del(&n->c, 9, n->now), 0);
	KUNIT_EXPECT_EQ(test, n->c.phase, ELEC_INV_COORD);
	KUNIT_EXPECT_EQ(test, n->c.leader, 5);
	/* a member removed from a coordinator: READY without it */
	n = ti_merging9(test);
	ti_rx(n, ELEC_MSG_ACCEPT, 3, 9, 5);
	ti_rx(n, ELEC_MSG_ACCEPT, 5, 9, 5);
	t_fire(n, ELEC_INV_TIMER_ACCEPT);
	t_clear(n);
	KUNIT_EXPECT_EQ(test, elec_core_peer_del(&n->c, 3, n->now), 0);
	KUNIT_EXPECT_EQ(test, ti_id_bits(test, t_sent(n, ELEC_MSG_READY)),
			T_BIT(5));
}

/* stop clears the membership; a restart forms a group at a new number */
static void ti_stop_start(struct kunit *test)
{
	struct t_node *n = ti_member5(test);
	u64 seq = n->c.inv.seq;

	elec_core_stop(&n->c, n->now);
	KUNIT_EXPECT_EQ(test, t_timers(n), 0);
	KUNIT_EXPECT_EQ(test, ti_members(n), 0);
	KUNIT_EXPECT_EQ(test, n->c.phase, ELEC_INV_IDLE);
	t_start(n);
	KUNIT_EXPECT_GT(test, n->c.inv.seq, seq);
	KUNIT_EXPECT_EQ(test, n->c.leader, 5);
}

/* the payloads, as the codec checks them */
static void ti_codec(struct kunit *test)
{
	u8 pl[ELECTION_INV_INVITE_HDR_LEN + 12];
	const struct elec_algo_ops *o = &elec_invitation_ops;

	memset(pl, 0, sizeof(pl));
	KUNIT_EXPECT_TRUE(test, o->payload_ok(ELEC_MSG_HEARTBEAT, pl, 0));
	KUNIT_EXPECT_TRUE(test, o->payload_ok(ELEC_MSG_ARE_YOU_COORD, pl, 0));
	KUNIT_EXPECT_FALSE(test, o->payload_ok(ELEC_MSG_ARE_YOU_COORD, pl, 4));
	KUNIT_EXPECT_TRUE(test, o->payload_ok(ELEC_MSG_ACCEPT, pl, 0));
	KUNIT_EXPECT_TRUE(test, o->payload_ok(ELEC_MSG_AYC_REPLY, pl, 8));
	KUNIT_EXPECT_FALSE(test, o->payload_ok(ELEC_MSG_AYC_REPLY, pl, 4));
	KUNIT_EXPECT_FALSE(test, o->payload_ok(ELEC_MSG_AYC_REPLY, pl, 0));
	KUNIT_EXPECT_FALSE(test, o->payload_ok(ELEC_MSG_ELECTION, pl, 0));
	KUNIT_EXPECT_FALSE(test, o->payload_ok(ELEC_MSG_COORDINATOR, pl, 0));
	KUNIT_EXPECT_FALSE(test, o->payload_ok(ELEC_MSG_QUERY, pl, 0));
	KUNIT_EXPECT_FALSE(test, o->payload_ok(ELEC_MSG_ACK, pl, 0));
	/* READY: no member is valid (a group of one); any version */
	KUNIT_EXPECT_TRUE(test, o->payload_ok(ELEC_MSG_READY, pl, 8));
	KUNIT_EXPECT_FALSE(test, o->payload_ok(ELEC_MSG_READY, pl, 4));
	pl[1] = 2;
	elec_put32(pl + 4, 0xffffffff);
	elec_put32(pl + 8, 3);
	elec_put32(pl + 12, 5);
	KUNIT_EXPECT_TRUE(test, o->payload_ok(ELEC_MSG_READY, pl, 16));
	KUNIT_EXPECT_FALSE(test, o->payload_ok(ELEC_MSG_READY, pl, 12));
	elec_put32(pl + 12, 3);	/* not ascending */
	KUNIT_EXPECT_FALSE(test, o->payload_ok(ELEC_MSG_READY, pl, 16));
	elec_put32(pl + 12, 5);
	pl[3] = 1;		/* reserved */
	KUNIT_EXPECT_FALSE(test, o->payload_ok(ELEC_MSG_READY, pl, 16));
	pl[3] = 0;
	pl[0] = 1;		/* 258 members */
	KUNIT_EXPECT_FALSE(test, o->payload_ok(ELEC_MSG_READY, pl, 16));

	/* INVITE: a coordinator and at least one group */
	memset(pl, 0, sizeof(pl));
	elec_put32(pl, 9);
	pl[5] = 1;
	elec_put32(pl + 8, 5);
	KUNIT_EXPECT_TRUE(test, o->payload_ok(ELEC_MSG_INVITE, pl, 12));
	pl[5] = 0;
	KUNIT_EXPECT_FALSE(test, o->payload_ok(ELEC_MSG_INVITE, pl, 8));
	pl[5] = 1;
	elec_put32(pl, 0);
	KUNIT_EXPECT_FALSE(test, o->payload_ok(ELEC_MSG_INVITE, pl, 12));
	elec_put32(pl, 9);
	elec_put32(pl + 8, 0);
	KUNIT_EXPECT_FALSE(test, o->payload_ok(ELEC_MSG_INVITE, pl, 12));
	elec_put32(pl + 8, 5);
	/* byte 6: the accept window's shift, up to the cap; byte 7 zero */
	pl[6] = ELEC_INV_WIN_SHIFT_MAX;
	KUNIT_EXPECT_TRUE(test, o->payload_ok(ELEC_MSG_INVITE, pl, 12));
	pl[6] = ELEC_INV_WIN_SHIFT_MAX + 1;
	KUNIT_EXPECT_FALSE(test, o->payload_ok(ELEC_MSG_INVITE, pl, 12));
	pl[6] = 0;
	pl[7] = 1;
	KUNIT_EXPECT_FALSE(test, o->payload_ok(ELEC_MSG_INVITE, pl, 12));
	pl[7] = 0;
	pl[4] = 1;		/* 257 groups */
	KUNIT_EXPECT_FALSE(test, o->payload_ok(ELEC_MSG_INVITE, pl, 12));
	/* the largest frame: every other node listed */
	KUNIT_EXPECT_EQ(test, o->max_payload(ELECTION_MAX_NODES),
			ELECTION_INV_INVITE_HDR_LEN + 4 * ELECTION_INV_MAX_IDS);
	KUNIT_EXPECT_LE(test, o->max_payload(ELECTION_MAX_NODES),
			(u32)ELECTION_MAX_PAYLOAD);
}

/* READY carries a version; a member echoes it, an old one draws a READY */
static void ti_membership_version(struct kunit *test)
{
	struct t_node *n = ti_merging9(test);
	const struct elec_action *a;
	u32 ver;

	ti_rx(n, ELEC_MSG_ACCEPT, 3, 9, 5);
	t_clear(n);
	t_fire(n, ELEC_INV_TIMER_ACCEPT);
	a = t_sent(n, ELEC_MSG_READY);
	KUNIT_ASSERT_EQ(test, a->msg.payload_len, ELECTION_INV_READY_HDR_LEN + 4);
	ver = elec_get32(a->msg.payload + 4);
	KUNIT_EXPECT_EQ(test, ver, n->c.inv.mver);
	/* the current version: nothing to send */
	t_clear(n);
	t_fire(n, ELEC_INV_TIMER_SEARCH);
	ti_rx_reply_ver(n, 3, 5, 9, ver);
	t_fire(n, ELEC_INV_TIMER_REPLY);
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_READY, 0), 0);
	/* an old one (the READY was lost): READY again, a newer version */
	t_fire(n, ELEC_INV_TIMER_SEARCH);
	ti_rx_reply_ver(n, 3, 5, 9, ver - 1);
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_READY, 0), 0);
	t_fire(n, ELEC_INV_TIMER_REPLY);
	a = t_sent(n, ELEC_MSG_READY);
	KUNIT_EXPECT_EQ(test, elec_get32(a->msg.payload + 4), ver + 1);
	KUNIT_EXPECT_EQ(test, ti_id_bits(test, a), T_BIT(3));

	/* a member takes the version and echoes it */
	n = ti_member5(test);
	KUNIT_EXPECT_EQ(test, n->c.inv.mver, 5);	/* ti_rx_ready: 1 + 4 */
	ti_rx(n, ELEC_MSG_ARE_YOU_COORD, 9, 0, 4);
	a = t_sent(n, ELEC_MSG_AYC_REPLY);
	KUNIT_EXPECT_EQ(test, elec_get32(a->msg.payload + 4), 5);
}

/* the Bully options are refused; search-interval is the algorithm's own */
static void ti_config(struct kunit *test)
{
	struct elec_config cfg;
	const char *why = NULL;

	t_cfg_algo(&cfg, ELEC_ALGO_INVITATION, 5);
	KUNIT_EXPECT_EQ(test, elec_config_check(&cfg, &why), 0);
	cfg.search_interval_ns = 200000000;
	KUNIT_EXPECT_EQ(test, elec_config_check(&cfg, &why), 0);
	cfg.search_interval_ns = 1000;
	KUNIT_EXPECT_EQ(test, elec_config_check(&cfg, &why), -EINVAL);
	KUNIT_EXPECT_STREQ(test, why,
			   "search-interval out of range (0 or 100us..60s)");
	cfg.search_interval_ns = 0;
	cfg.preempt_off = true;
	KUNIT_EXPECT_EQ(test, elec_config_check(&cfg, &why), -EINVAL);
	KUNIT_EXPECT_STREQ(test, why,
			   "preempt applies to the Bully algorithms only");
	cfg.preempt_off = false;
	cfg.ask_suspect_off = true;
	KUNIT_EXPECT_EQ(test, elec_config_check(&cfg, &why), -EINVAL);
	cfg.ask_suspect_off = false;
	cfg.preempt_delay_ns = 1000000;
	KUNIT_EXPECT_EQ(test, elec_config_check(&cfg, &why), -EINVAL);
	t_cfg_algo(&cfg, ELEC_ALGO_BULLY, 5);
	cfg.search_interval_ns = 200000000;
	KUNIT_EXPECT_EQ(test, elec_config_check(&cfg, &why), -EINVAL);
	KUNIT_EXPECT_STREQ(test, why,
			   "search-interval applies to the invitation algorithm only");
	KUNIT_EXPECT_PTR_EQ(test, elec_algo_find_name("invitation"),
			    &elec_invitation_ops);
}

/*
 * A search period shorter than the reply window: the period that ends
 * inside the window is not lost (the coordinator keeps searching, and so
 * keeps dropping members that died)
 */
static void ti_search_period_short(struct kunit *test)
{
	struct t_node *n = ti_node(test, 9);
	struct elec_config cfg = n->c.cfg;
	u64 end;

	cfg.search_interval_ns = T_T / 2;
	KUNIT_ASSERT_EQ(test, elec_core_set_config(&n->c, &cfg, NULL), 0);
	t_start(n);
	end = n->now + 10 * T_T;
	t_clear(n);
	/* the search timers in time order for 10 T */
	while (n->now < end) {
		u64 srch = n->c.timer_expires[ELEC_INV_TIMER_SEARCH];
		u64 reply = n->c.timer_expires[ELEC_INV_TIMER_REPLY];

		KUNIT_ASSERT_NE(test, srch, 0);
		/* a tie: the period first, inside the window */
		t_fire(n, reply && reply < srch ? ELEC_INV_TIMER_REPLY :
			  ELEC_INV_TIMER_SEARCH);
	}
	/* a search at least every 2 T */
	KUNIT_EXPECT_GE(test, t_sends(n, ELEC_MSG_ARE_YOU_COORD, 0), 5);
}

/*
 * A member that answers 0 (between groups: it accepted an invitation,
 * maybe this coordinator's own, its answer overtaking the READY) stays a
 * member: the answer counts as a missed search, no READY without it
 */
static void ti_member_between_groups(struct kunit *test)
{
	struct t_node *n = ti_merging9(test);

	ti_rx(n, ELEC_MSG_ACCEPT, 3, 9, 5);
	ti_rx(n, ELEC_MSG_ACCEPT, 5, 9, 5);
	t_fire(n, ELEC_INV_TIMER_ACCEPT);
	KUNIT_ASSERT_EQ(test, ti_members(n), T_BIT(3) | T_BIT(5));
	t_clear(n);
	t_fire(n, ELEC_INV_TIMER_SEARCH);
	ti_rx_reply(n, 3, 4, 0);
	ti_rx_reply(n, 5, 5, 9);
	t_fire(n, ELEC_INV_TIMER_REPLY);
	KUNIT_EXPECT_EQ(test, ti_members(n), T_BIT(3) | T_BIT(5));
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_READY, 0), 0);
	KUNIT_EXPECT_EQ(test, elec_core_peer_find(&n->c, 3)->misses, 1);
	/* it answers for 9 in the next search: all well */
	t_fire(n, ELEC_INV_TIMER_SEARCH);
	ti_rx_reply(n, 3, 5, 9);
	ti_rx_reply(n, 5, 5, 9);
	t_fire(n, ELEC_INV_TIMER_REPLY);
	KUNIT_EXPECT_EQ(test, elec_core_peer_find(&n->c, 3)->misses, 0);
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_READY, 0), 0);
	/* answering for another group still means it left */
	ti_rx_reply(n, 3, 7, 7);
	KUNIT_EXPECT_EQ(test, ti_members(n), T_BIT(5));
}

/*
 * An INVITE is taken only from the new coordinator itself, or (a member)
 * relayed by its own coordinator: another peer cannot make a node leave
 * its group by naming a higher coordinator
 */
static void ti_invite_sender(struct kunit *test)
{
	static const u32 members[] = { 3 };
	static const u32 seven[] = { 7 };
	static const u32 five[] = { 5 };
	struct t_node *n = ti_node(test, 3);

	t_start(n);
	ti_rx_invite(n, 7, 2, 7, members, 1);
	ti_rx_ready(n, 7, 2, members, 1);
	KUNIT_ASSERT_EQ(test, n->c.phase, ELEC_INV_MEMBER);
	t_clear(n);
	/* 5 (not 9, not 3's coordinator 7) names 9 for 7's group */
	ti_rx_invite(n, 5, 3, 9, seven, 1);
	KUNIT_EXPECT_EQ(test, t_sends(n, 0, T_ANY), 0);
	KUNIT_EXPECT_EQ(test, n->c.phase, ELEC_INV_MEMBER);
	KUNIT_EXPECT_EQ(test, n->c.leader, 7);

	/* a coordinator: only from the inviter */
	n = ti_alone(test, 5);
	ti_rx_invite(n, 7, 3, 9, five, 1);
	KUNIT_EXPECT_EQ(test, t_sends(n, 0, T_ANY), 0);
	KUNIT_EXPECT_EQ(test, n->c.phase, ELEC_INV_COORD);
	ti_rx_invite(n, 9, 3, 9, five, 1);
	KUNIT_EXPECT_EQ(test, n->c.phase, ELEC_INV_ACCEPTED);
}

/*
 * A node that (re)starts learns the group's numbers from the first frame
 * it hears, however far above its own they are (a reloaded module joins
 * a group whose numbers have grown); after that the bound applies
 */
static void ti_learning(struct kunit *test)
{
	struct t_node *n = ti_node(test, 5);
	u64 far = (1ULL << 33) + 10;

	t_start(n);
	KUNIT_EXPECT_TRUE(test, n->c.learning);
	ti_rx(n, ELEC_MSG_HEARTBEAT, 9, 0, far);
	KUNIT_EXPECT_EQ(test, n->c.stats.drops[ELEC_DROP_TERM_TOO_FAR], 0);
	KUNIT_EXPECT_EQ(test, n->c.max_term, far);
	KUNIT_EXPECT_FALSE(test, n->c.learning);
	ti_rx(n, ELEC_MSG_HEARTBEAT, 9, 0, far + (1ULL << 33));
	KUNIT_EXPECT_EQ(test, n->c.stats.drops[ELEC_DROP_TERM_TOO_FAR], 1);
}

/* the only coordinator a search found is removed: no empty INVITE */
static void ti_found_removed(struct kunit *test)
{
	struct t_node *n = ti_node(test, 9);

	t_start(n);
	ti_rx_reply(n, 3, 1, 3);
	KUNIT_ASSERT_EQ(test, elec_core_peer_del(&n->c, 3, n->now), 0);
	t_clear(n);
	t_fire(n, ELEC_INV_TIMER_REPLY);
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_INVITE, 0), 0);
	KUNIT_EXPECT_EQ(test, n->c.phase, ELEC_INV_COORD);
}

/* a member removed while its coordinator merges: READY without it */
static void ti_removed_while_merging(struct kunit *test)
{
	struct t_node *n = ti_merging9(test);

	ti_rx(n, ELEC_MSG_ACCEPT, 3, 9, 5);
	ti_rx(n, ELEC_MSG_ACCEPT, 5, 9, 5);
	t_fire(n, ELEC_INV_TIMER_ACCEPT);
	KUNIT_ASSERT_EQ(test, ti_members(n), T_BIT(3) | T_BIT(5));
	/* 7 is found, 9 merges again */
	t_fire(n, ELEC_INV_TIMER_SEARCH);
	ti_rx_reply(n, 3, 5, 9);
	ti_rx_reply(n, 5, 5, 9);
	ti_rx_reply(n, 7, 3, 7);
	t_fire(n, ELEC_INV_TIMER_REPLY);
	KUNIT_ASSERT_EQ(test, n->c.phase, ELEC_INV_MERGING);
	KUNIT_ASSERT_EQ(test, elec_core_peer_del(&n->c, 3, n->now), 0);
	t_clear(n);
	t_fire(n, ELEC_INV_TIMER_ACCEPT);	/* 7 did not accept */
	KUNIT_EXPECT_EQ(test, ti_id_bits(test, t_sent(n, ELEC_MSG_READY)),
			T_BIT(5));
}

/* an accepting node waits for READY at least past the accept window */
static void ti_accept_wait_floor(struct kunit *test)
{
	static const u32 five[] = { 5 };
	struct t_node *n = ti_alone(test, 5);
	struct elec_config cfg = n->c.cfg;

	cfg.coord_timeout_ns = T_T / 2;
	KUNIT_ASSERT_EQ(test, elec_core_set_config(&n->c, &cfg, NULL), 0);
	ti_rx_invite(n, 9, 7, 9, five, 1);
	KUNIT_ASSERT_EQ(test, n->c.phase, ELEC_INV_ACCEPTED);
	KUNIT_EXPECT_GE(test, t_armed_at(n, ELEC_INV_TIMER_ACCEPT),
			n->now + 2 * T_T);
}

/* ---- the windows adapt ---- */

static u64 ti_max(u64 a, u64 b)
{
	return a > b ? a : b;
}

/*
 * @n, a coordinator between searches, widens its windows @times times:
 * each time a search whose window closes, then a late answer from the
 * coordinator @src
 */
static void ti_widen(struct t_node *n, u32 src, u32 times)
{
	while (times--) {
		t_fire(n, ELEC_INV_TIMER_SEARCH);
		KUNIT_ASSERT_TRUE(n->test, n->c.inv.searching);
		t_fire(n, ELEC_INV_TIMER_REPLY);
		KUNIT_ASSERT_EQ(n->test, n->c.phase, ELEC_INV_COORD);
		ti_rx_reply(n, src, 1, src);
	}
}

/* one search of @n answered @after its start by its member 3 */
static void ti_round(struct t_node *n, u64 after)
{
	t_fire(n, ELEC_INV_TIMER_SEARCH);
	KUNIT_ASSERT_TRUE(n->test, n->c.inv.searching);
	n->now += after;
	ti_rx_reply(n, 3, n->c.inv.seq, n->c.cfg.self_id);
	t_fire(n, ELEC_INV_TIMER_REPLY);
	KUNIT_ASSERT_EQ(n->test, n->c.phase, ELEC_INV_COORD);
}

/*
 * An answer after the search's window closed doubles the windows (once
 * per window); the next search waits 2 T, takes an answer at 1.5 T, and
 * its INVITE states the accept window it waits, 2 T
 */
static void ti_win_late_reply(struct kunit *test)
{
	struct t_node *n = ti_alone(test, 5);
	const struct elec_action *a;

	KUNIT_EXPECT_EQ(test, n->c.inv.win_shift, 0);
	ti_rx_reply(n, 9, 1, 9);	/* late for the first search */
	KUNIT_EXPECT_EQ(test, n->c.inv.win_shift, 1);
	ti_rx_reply(n, 3, 1, 3);	/* the same window: once */
	KUNIT_EXPECT_EQ(test, n->c.inv.win_shift, 1);
	KUNIT_EXPECT_EQ(test, n->c.phase, ELEC_INV_COORD);
	t_clear(n);
	t_fire(n, ELEC_INV_TIMER_SEARCH);
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_ARE_YOU_COORD, 0), 1);
	KUNIT_EXPECT_EQ(test, t_armed_at(n, ELEC_INV_TIMER_REPLY),
			n->now + 2 * T_T);
	/* the period: hb-interval x hb-miss, at least two windows */
	KUNIT_EXPECT_EQ(test, t_armed_at(n, ELEC_INV_TIMER_SEARCH),
			n->now + ti_max(T_DETECT, 4 * T_T));
	n->now += 3 * T_T / 2;
	ti_rx_reply(n, 3, 1, 3);
	t_clear(n);
	t_fire(n, ELEC_INV_TIMER_REPLY);
	KUNIT_ASSERT_EQ(test, n->c.phase, ELEC_INV_MERGING);
	a = t_sent(n, ELEC_MSG_INVITE);
	KUNIT_EXPECT_EQ(test, ti_id_bits(test, a), T_BIT(3));
	KUNIT_EXPECT_EQ(test, a->msg.payload[6], 1);
	KUNIT_EXPECT_EQ(test, t_armed_at(n, ELEC_INV_TIMER_ACCEPT),
			n->now + 2 * T_T);
}

/*
 * An ACCEPT after the merge's window closed doubles the windows (once per
 * merge; an ACCEPT of another number is not late for it); the next merge
 * states and waits 2 T and takes an ACCEPT at 1.5 T
 */
static void ti_win_late_accept(struct kunit *test)
{
	struct t_node *n = ti_merging9(test);
	const struct elec_action *a;
	u64 seq;

	t_fire(n, ELEC_INV_TIMER_ACCEPT);	/* nobody in time */
	KUNIT_ASSERT_EQ(test, n->c.phase, ELEC_INV_COORD);
	KUNIT_EXPECT_EQ(test, n->c.inv.seq, 1);
	KUNIT_EXPECT_EQ(test, n->c.inv.win_shift, 0);
	ti_rx(n, ELEC_MSG_ACCEPT, 5, 9, 4);
	KUNIT_EXPECT_EQ(test, n->c.inv.win_shift, 0);
	ti_rx(n, ELEC_MSG_ACCEPT, 3, 9, 5);
	KUNIT_EXPECT_EQ(test, n->c.inv.win_shift, 1);
	ti_rx(n, ELEC_MSG_ACCEPT, 5, 9, 5);
	KUNIT_EXPECT_EQ(test, n->c.inv.win_shift, 1);
	KUNIT_EXPECT_EQ(test, ti_members(n), 0);

	t_fire(n, ELEC_INV_TIMER_SEARCH);
	ti_rx_reply(n, 3, 4, 3);
	ti_rx_reply(n, 5, 2, 5);
	ti_rx_reply(n, 7, 2, 5);
	t_clear(n);
	t_fire(n, ELEC_INV_TIMER_REPLY);
	KUNIT_ASSERT_EQ(test, n->c.phase, ELEC_INV_MERGING);
	a = t_sent(n, ELEC_MSG_INVITE);
	KUNIT_EXPECT_EQ(test, a->msg.payload[6], 1);
	KUNIT_EXPECT_EQ(test, t_armed_at(n, ELEC_INV_TIMER_ACCEPT),
			n->now + 2 * T_T);
	seq = n->c.inv.pend_seq;
	n->now += 3 * T_T / 2;
	ti_rx(n, ELEC_MSG_ACCEPT, 3, 9, seq);
	t_fire(n, ELEC_INV_TIMER_ACCEPT);
	KUNIT_EXPECT_EQ(test, n->c.inv.seq, seq);
	KUNIT_EXPECT_EQ(test, ti_members(n), T_BIT(3));
}

/*
 * ELEC_INV_WIN_DECAY windows in a row answered within a quarter of the
 * window halve it; one answered later (in time) restarts the count; at T
 * nothing shrinks
 */
static void ti_win_shrink(struct kunit *test)
{
	struct t_node *n = ti_alone(test, 5);
	u32 i;

	ti_widen(n, 9, 2);
	KUNIT_ASSERT_EQ(test, n->c.inv.win_shift, 2);
	for (i = 0; i < ELEC_INV_WIN_DECAY; i++) {
		KUNIT_ASSERT_EQ_MSG(test, n->c.inv.win_shift, 2, "i %u", i);
		ti_round(n, T_T / 2);	/* W = 4 T: an eighth */
	}
	KUNIT_EXPECT_EQ(test, n->c.inv.win_shift, 1);
	KUNIT_EXPECT_EQ(test, n->c.timer_expires[ELEC_INV_TIMER_SEARCH] -
			n->c.inv.win_ns, ti_max(T_DETECT, 8 * T_T));

	for (i = 0; i + 1 < ELEC_INV_WIN_DECAY; i++)
		ti_round(n, T_T / 4);
	ti_round(n, T_T);	/* W = 2 T: in time, but half of it */
	KUNIT_EXPECT_EQ(test, n->c.inv.win_shift, 1);
	for (i = 0; i + 1 < ELEC_INV_WIN_DECAY; i++)
		ti_round(n, T_T / 4);
	KUNIT_EXPECT_EQ(test, n->c.inv.win_shift, 1);
	ti_round(n, T_T / 4);
	KUNIT_EXPECT_EQ(test, n->c.inv.win_shift, 0);
	for (i = 0; i < 2 * ELEC_INV_WIN_DECAY; i++)
		ti_round(n, 0);
	KUNIT_EXPECT_EQ(test, n->c.inv.win_shift, 0);
	t_clear(n);
	t_fire(n, ELEC_INV_TIMER_SEARCH);
	KUNIT_EXPECT_EQ(test, t_armed_at(n, ELEC_INV_TIMER_REPLY),
			n->now + T_T);

	/* a late answer after fast rounds restarts the count too */
	t_fire(n, ELEC_INV_TIMER_REPLY);
	ti_rx_reply(n, 9, 1, 9);
	ti_widen(n, 9, 1);
	KUNIT_ASSERT_EQ(test, n->c.inv.win_shift, 2);
	for (i = 0; i + 1 < ELEC_INV_WIN_DECAY; i++)
		ti_round(n, 0);
	ti_rx_reply(n, 9, 1, 9);	/* late for the last round */
	KUNIT_EXPECT_EQ(test, n->c.inv.win_shift, 3);
	ti_round(n, 0);
	KUNIT_EXPECT_EQ(test, n->c.inv.win_shift, 3);
}

/*
 * The cap: T << ELEC_INV_WIN_SHIFT_MAX however many answers are late;
 * a start begins at T again, and so does a new T (group set timeout);
 * other settings keep the windows
 */
static void ti_win_cap(struct kunit *test)
{
	struct t_node *n = ti_alone(test, 5);
	struct elec_config cfg;

	ti_widen(n, 9, ELEC_INV_WIN_SHIFT_MAX + 3);
	KUNIT_EXPECT_EQ(test, n->c.inv.win_shift, ELEC_INV_WIN_SHIFT_MAX);
	t_clear(n);
	t_fire(n, ELEC_INV_TIMER_SEARCH);
	KUNIT_EXPECT_EQ(test, t_armed_at(n, ELEC_INV_TIMER_REPLY),
			n->now + (T_T << ELEC_INV_WIN_SHIFT_MAX));
	KUNIT_EXPECT_EQ(test, t_armed_at(n, ELEC_INV_TIMER_SEARCH),
			n->now + 2 * (T_T << ELEC_INV_WIN_SHIFT_MAX));
	elec_core_stop(&n->c, n->now);
	t_clear(n);
	t_start(n);
	KUNIT_EXPECT_EQ(test, n->c.inv.win_shift, 0);
	KUNIT_EXPECT_EQ(test, t_armed_at(n, ELEC_INV_TIMER_REPLY),
			n->now + T_T);

	ti_widen(n, 9, 2);
	KUNIT_ASSERT_EQ(test, n->c.inv.win_shift, 2);
	cfg = n->c.cfg;
	cfg.hb_interval_ns += 1000;
	KUNIT_ASSERT_EQ(test, elec_core_set_config(&n->c, &cfg, NULL), 0);
	KUNIT_EXPECT_EQ(test, n->c.inv.win_shift, 2);
	cfg.timeout_ns = 2 * T_T;
	KUNIT_ASSERT_EQ(test, elec_core_set_config(&n->c, &cfg, NULL), 0);
	KUNIT_EXPECT_EQ(test, n->c.inv.win_shift, 0);
	KUNIT_EXPECT_EQ(test, n->c.inv.win_fast, 0);
}

/*
 * The accepting node waits for READY two of the accept windows its
 * INVITE states (more than coord-timeout here), and relays that window
 * to its members; a READY after coord-timeout still counts
 */
static void ti_win_ready_wait(struct kunit *test)
{
	static const u32 five[] = { 5 };
	struct t_node *n = ti_alone(test, 5);
	const struct elec_action *a;

	ti_rx_invite_shift(n, 9, 7, 9, five, 1, 3);
	KUNIT_ASSERT_EQ(test, n->c.phase, ELEC_INV_ACCEPTED);
	KUNIT_EXPECT_GT(test, 2 * (T_T << 3), T_COORD);
	KUNIT_EXPECT_EQ(test, t_armed_at(n, ELEC_INV_TIMER_ACCEPT),
			n->now + 2 * (T_T << 3));
	a = t_sent(n, ELEC_MSG_INVITE);
	KUNIT_EXPECT_EQ(test, ti_id_bits(test, a), T_BIT(5));
	KUNIT_EXPECT_EQ(test, a->msg.payload[6], 3);
	/* it takes the new group's windows */
	KUNIT_EXPECT_EQ(test, n->c.inv.win_shift, 3);
	n->now += 3 * (T_T << 3) / 2;
	t_clear(n);
	ti_rx_ready(n, 9, 7, five, 1);
	KUNIT_EXPECT_EQ(test, n->c.phase, ELEC_INV_MEMBER);
	KUNIT_EXPECT_EQ(test, n->c.leader, 9);
	/* and watches its coordinator for two of them */
	KUNIT_EXPECT_GT(test, 2 * (T_T << 3), T_DETECT);
	KUNIT_EXPECT_EQ(test, t_armed_at(n, ELEC_TIMER_DETECT),
			n->now + 2 * (T_T << 3));
	t_clear(n);
	n->now += T_HB;
	ti_rx(n, ELEC_MSG_HEARTBEAT, 9, 0, 7);
	KUNIT_EXPECT_EQ(test, t_armed_at(n, ELEC_TIMER_DETECT),
			n->now + 2 * (T_T << 3));

	/* a window of T: coord-timeout, as before, and the usual watch */
	n = ti_alone(test, 5);
	ti_rx_invite(n, 9, 7, 9, five, 1);
	KUNIT_EXPECT_EQ(test, t_armed_at(n, ELEC_INV_TIMER_ACCEPT),
			n->now + ti_max(T_COORD, 2 * T_T));
	KUNIT_EXPECT_EQ(test, n->c.inv.win_shift, 0);
	t_clear(n);
	ti_rx_ready(n, 9, 7, five, 1);
	KUNIT_EXPECT_EQ(test, t_armed_at(n, ELEC_TIMER_DETECT),
			n->now + T_DETECT);
}

/*
 * End to end: a widened coordinator's INVITE makes the node that accepts
 * it wait past the coordinator's accept window, by a window at least
 */
static void ti_win_ready_covers_accept(struct kunit *test)
{
	struct t_node *c9 = ti_alone(test, 9);
	struct t_node *n5 = ti_alone(test, 5);
	const struct elec_action *a;
	u64 wait, window;
	u32 s;

	for (s = 0; s <= ELEC_INV_WIN_SHIFT_MAX; s++) {
		c9 = ti_alone(test, 9);
		n5 = ti_alone(test, 5);
		ti_widen(c9, 3, s);
		KUNIT_ASSERT_EQ(test, c9->c.inv.win_shift, s);
		t_fire(c9, ELEC_INV_TIMER_SEARCH);
		ti_rx_reply(c9, 5, n5->c.inv.seq, 5);
		t_clear(c9);
		t_fire(c9, ELEC_INV_TIMER_REPLY);
		KUNIT_ASSERT_EQ(test, c9->c.phase, ELEC_INV_MERGING);
		a = t_sent(c9, ELEC_MSG_INVITE);
		n5->now = c9->now;
		ti_rx_pl(n5, ELEC_MSG_INVITE, 0, 9, 0, a->msg.term,
			 a->msg.payload, a->msg.payload_len);
		KUNIT_ASSERT_EQ(test, n5->c.phase, ELEC_INV_ACCEPTED);
		wait = n5->c.timer_expires[ELEC_INV_TIMER_ACCEPT];
		window = c9->c.timer_expires[ELEC_INV_TIMER_ACCEPT];
		KUNIT_EXPECT_GE_MSG(test, wait, window + (T_T << s),
				    "shift %u", s);
	}
}

/*
 * Widened windows back the prompted searches off: a lower coordinator's
 * heartbeat starts a search only two windows after the last one opened
 */
static void ti_win_prompt_backoff(struct kunit *test)
{
	struct t_node *n = ti_alone(test, 9);

	ti_widen(n, 3, 1);
	KUNIT_ASSERT_EQ(test, n->c.inv.win_shift, 1);
	t_clear(n);
	ti_rx(n, ELEC_MSG_HEARTBEAT, 3, 0, 1);
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_ARE_YOU_COORD, 0), 0);
	KUNIT_EXPECT_EQ(test, n->c.stats.elections_limited, 0);
	n->now = n->c.inv.win_ns + 4 * T_T - 1;
	ti_rx(n, ELEC_MSG_HEARTBEAT, 3, 0, 1);
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_ARE_YOU_COORD, 0), 0);
	n->now++;
	ti_rx(n, ELEC_MSG_HEARTBEAT, 3, 0, 1);
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_ARE_YOU_COORD, 0), 1);
	KUNIT_EXPECT_TRUE(test, n->c.inv.searching);
}

/* @n's heartbeat timer fires (not before @n's present time) */
static void ti_fire_hb(struct t_node *n)
{
	KUNIT_ASSERT_NE(n->test, n->c.timer_expires[ELEC_TIMER_HEARTBEAT], 0);
	if (n->now < n->c.timer_expires[ELEC_TIMER_HEARTBEAT])
		n->now = n->c.timer_expires[ELEC_TIMER_HEARTBEAT];
	elec_core_timer(&n->c, ELEC_TIMER_HEARTBEAT, n->now);
}

/*
 * Widened windows: a coordinator alone sends no heartbeat (its searches
 * announce it), nor does a new group of one; with a member it does, and
 * alone at T it does
 */
static void ti_win_alone_quiet(struct kunit *test)
{
	struct t_node *n = ti_alone(test, 5);

	ti_fire_hb(n);
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_HEARTBEAT, 0), 1);
	ti_widen(n, 9, 1);
	t_clear(n);
	ti_fire_hb(n);
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_HEARTBEAT, 0), 0);
	KUNIT_EXPECT_EQ(test, t_armed_at(n, ELEC_TIMER_HEARTBEAT),
			n->now + T_HB);
	ti_rx_reply(n, 3, 1, 5);	/* 3 follows 5: a member */
	KUNIT_ASSERT_EQ(test, ti_members(n), T_BIT(3));
	t_clear(n);
	ti_fire_hb(n);
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_HEARTBEAT, 0), 1);
	/* alone again: the administrator's elect on a member, widened */
	n = ti_member5(test);
	n->c.inv.win_shift = 1;
	elec_core_elect(&n->c, n->now);
	KUNIT_EXPECT_EQ(test, n->c.phase, ELEC_INV_COORD);
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_HEARTBEAT, 0), 0);
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_ARE_YOU_COORD, 0), 1);
}

/*
 * Widened windows: each search in a row that finds a higher coordinator
 * doubles the node's search period (up to the cap) and stops its
 * prompted searches; one that finds none restores both
 */
static void ti_win_quiet_lower(struct kunit *test)
{
	struct t_node *n = ti_alone(test, 5);
	u64 period = ti_max(T_DETECT, 4 * T_T);
	u32 i;

	ti_widen(n, 9, 1);
	for (i = 1; i <= ELEC_INV_WIN_SHIFT_MAX + 2; i++) {
		u32 q = i < ELEC_INV_WIN_SHIFT_MAX ? i : ELEC_INV_WIN_SHIFT_MAX;

		t_fire(n, ELEC_INV_TIMER_SEARCH);
		ti_rx_reply(n, 9, 1, 9);
		t_fire(n, ELEC_INV_TIMER_REPLY);
		KUNIT_EXPECT_EQ_MSG(test, n->c.inv.quiet, q, "i %u", i);
		KUNIT_EXPECT_EQ_MSG(test,
				    n->c.timer_expires[ELEC_INV_TIMER_SEARCH],
				    n->c.inv.win_ns + (period << q), "i %u", i);
	}
	/* no prompted search, however long after the last */
	t_clear(n);
	n->now += 100 * T_T;
	ti_rx(n, ELEC_MSG_ARE_YOU_COORD, 3, 0, 1);
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_ARE_YOU_COORD, 0), 0);
	/* a search without a higher coordinator: the period again */
	t_fire(n, ELEC_INV_TIMER_SEARCH);
	t_fire(n, ELEC_INV_TIMER_REPLY);
	KUNIT_EXPECT_EQ(test, n->c.inv.quiet, 0);
	KUNIT_EXPECT_EQ(test, n->c.timer_expires[ELEC_INV_TIMER_SEARCH],
			n->c.inv.win_ns + period);
	n->now = n->c.inv.win_ns + 4 * T_T;
	t_clear(n);
	ti_rx(n, ELEC_MSG_ARE_YOU_COORD, 3, 0, 1);
	KUNIT_EXPECT_EQ(test, t_sends(n, ELEC_MSG_ARE_YOU_COORD, 0), 1);

	/* at T (nothing late) a higher coordinator changes no period */
	n = ti_alone(test, 5);
	t_fire(n, ELEC_INV_TIMER_SEARCH);
	ti_rx_reply(n, 9, 1, 9);
	t_fire(n, ELEC_INV_TIMER_REPLY);
	KUNIT_EXPECT_EQ(test, n->c.inv.quiet, 0);
	KUNIT_EXPECT_EQ(test, n->c.timer_expires[ELEC_INV_TIMER_SEARCH],
			n->c.inv.win_ns + T_DETECT);
}

/*
 * One search that 3 and 5 answer in time, then one in which they are heard
 * (heartbeats) but do not answer: their answers are lost.
 */
static void ti_win_answer_then_lose(struct t_node *n)
{
	t_fire(n, ELEC_INV_TIMER_SEARCH);
	ti_rx_reply(n, 3, 1, 9);
	ti_rx_reply(n, 5, 1, 9);
	t_fire(n, ELEC_INV_TIMER_REPLY);
	t_fire(n, ELEC_INV_TIMER_SEARCH);
	ti_rx(n, ELEC_MSG_HEARTBEAT, 3, 0, 1);
	ti_rx(n, ELEC_MSG_HEARTBEAT, 5, 0, 1);
	t_fire(n, ELEC_INV_TIMER_REPLY);
}

/*
 * Lost answers widen the windows like late ones: a search that misses
 * two or more of the last search's answerers (and an eighth of them)
 * that were heard from during its window; answerers not heard from
 * (crashed, or cut off by a partition) and one missing answer do not
 */
static void ti_win_lost_answers(struct kunit *test)
{
	struct t_node *n = ti_alone(test, 9);

	t_fire(n, ELEC_INV_TIMER_SEARCH);
	ti_rx_reply(n, 3, 1, 9);
	ti_rx_reply(n, 5, 1, 9);
	ti_rx_reply(n, 7, 1, 9);
	t_fire(n, ELEC_INV_TIMER_REPLY);
	KUNIT_ASSERT_EQ(test, ti_members(n), T_BIT(3) | T_BIT(5) | T_BIT(7));
	/* 7 is gone: one missing answer */
	t_fire(n, ELEC_INV_TIMER_SEARCH);
	ti_rx_reply(n, 3, 1, 9);
	ti_rx_reply(n, 5, 1, 9);
	ti_rx(n, ELEC_MSG_HEARTBEAT, 7, 0, 1);
	t_fire(n, ELEC_INV_TIMER_REPLY);
	KUNIT_EXPECT_EQ(test, n->c.inv.win_shift, 0);
	/* 3 and 5 silent (crashed or cut off): not loss */
	t_fire(n, ELEC_INV_TIMER_SEARCH);
	t_fire(n, ELEC_INV_TIMER_REPLY);
	KUNIT_EXPECT_EQ(test, n->c.inv.win_shift, 0);
	/* 3 and 5 answer, then are heard but do not answer: lost */
	ti_win_answer_then_lose(n);
	KUNIT_EXPECT_EQ(test, n->c.inv.win_shift, 1);
	/* the same answers lost again are not counted twice */
	t_fire(n, ELEC_INV_TIMER_SEARCH);
	ti_rx(n, ELEC_MSG_HEARTBEAT, 3, 0, 1);
	ti_rx(n, ELEC_MSG_HEARTBEAT, 5, 0, 1);
	t_fire(n, ELEC_INV_TIMER_REPLY);
	KUNIT_EXPECT_EQ(test, n->c.inv.win_shift, 1);
	/* nor once a late answer widened that window */
	ti_win_answer_then_lose(n);
	KUNIT_EXPECT_EQ(test, n->c.inv.win_shift, 2);
	ti_rx_reply(n, 3, 1, 9);
	KUNIT_EXPECT_EQ(test, n->c.inv.win_shift, 2);
}

/* ---- on the in-test network ---- */

static void ti_net_init(struct t_net *net, struct t_node *n, u32 id)
{
	ti_node_init(n, id, net->ids, net->n);
}

static struct t_net *ti_net(struct kunit *test, const u32 *ids, u32 nr)
{
	struct t_net *net = kunit_kzalloc(test, sizeof(*net), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, net);
	t_net_init(net, test, ids, nr, ti_net_init);
	return net;
}

/*
 * The nodes of @n whose ids are in @side (a bit set) form one group
 * coordinated by the highest of them: the same number, every one of them
 * a member, no other node a member; returns the group's sequence number.
 */
static u64 ti_net_expect_group(struct t_net *net, u32 side)
{
	struct kunit *test = net->test;
	u32 i, want = 0, members;
	u64 seq;

	for (i = 0; i < net->n; i++)
		if (side & T_BIT(net->ids[i]) && net->node[i]->up)
			want = net->ids[i];
	KUNIT_ASSERT_NE(test, want, 0);
	seq = t_net_node(net, want)->c.inv.seq;
	for (i = 0; i < net->n; i++) {
		struct t_node *n = net->node[i];
		u32 id = net->ids[i];

		if (!(side & T_BIT(id)) || !n->up)
			continue;
		KUNIT_EXPECT_EQ_MSG(test, n->c.leader, want, "node %u", id);
		KUNIT_EXPECT_EQ_MSG(test, n->c.inv.coord, want, "node %u", id);
		KUNIT_EXPECT_EQ_MSG(test, n->c.inv.seq, seq, "node %u", id);
		KUNIT_EXPECT_EQ_MSG(test, n->c.phase, id == want ?
				    ELEC_INV_COORD : ELEC_INV_MEMBER,
				    "node %u", id);
		KUNIT_EXPECT_EQ_MSG(test, n->c.role, id == want ?
				    ELEC_ROLE_LEADER : ELEC_ROLE_FOLLOWER,
				    "node %u", id);
		members = ti_members(n) | T_BIT(id);
		KUNIT_EXPECT_EQ_MSG(test, members, side & ~(u32)0,
				    "node %u", id);
	}
	return seq;
}

static u32 ti_bits(const u32 *ids, u32 nr)
{
	u32 i, bits = 0;

	for (i = 0; i < nr; i++)
		bits |= T_BIT(ids[i]);
	return bits;
}

/* concurrent starts: one group under the highest id, in one merge */
static void ti_net_boot(struct kunit *test)
{
	static const u32 ids[] = { 2, 4, 6, 11, 13, 17 };
	struct t_net *net = ti_net(test, ids, ARRAY_SIZE(ids));

	net->timers_first = true;
	t_net_start_all(net);
	t_net_run_for(net, 3 * T_T);
	ti_net_expect_group(net, ti_bits(ids, ARRAY_SIZE(ids)));
	/* one merge: one READY */
	KUNIT_EXPECT_EQ(test, t_net_sum_tx(net, ELEC_MSG_READY), 1);
	/* it stays so through searches and heartbeats */
	t_net_run_for(net, 10 * T_DETECT);
	ti_net_expect_group(net, ti_bits(ids, ARRAY_SIZE(ids)));
	KUNIT_EXPECT_EQ(test, t_net_sum_tx(net, ELEC_MSG_READY), 1);
}

/* the coordinator crashes: the others regroup under the next highest */
static void ti_net_coordinator_crash(struct kunit *test)
{
	static const u32 ids[] = { 2, 4, 6, 11, 13, 17 };
	struct t_net *net = ti_net(test, ids, ARRAY_SIZE(ids));
	u64 seq;

	t_net_start_all(net);
	t_net_run_for(net, 3 * T_T);
	seq = ti_net_expect_group(net, ti_bits(ids, ARRAY_SIZE(ids)));
	t_net_crash(net, 17);
	t_net_run_for(net, T_DETECT + 10 * T_T + 4 * T_HB);
	KUNIT_EXPECT_GT(test, ti_net_expect_group(net,
						  ti_bits(ids, 5)), seq);
	/* it comes back with a fresh instance: it merges the group */
	t_net_reboot(net, 17);
	t_net_run_for(net, 4 * T_T + 2 * T_HB);
	ti_net_expect_group(net, ti_bits(ids, ARRAY_SIZE(ids)));
}

/* a partition: one group per side; healed: one group */
static void ti_net_partition_heal(struct kunit *test)
{
	static const u32 ids[] = { 1, 2, 3, 4, 5, 6, 7, 8 };
	struct t_net *net = ti_net(test, ids, ARRAY_SIZE(ids));
	u64 low, high, all;

	t_net_start_all(net);
	t_net_run_for(net, 3 * T_T);
	all = ti_net_expect_group(net, ti_bits(ids, 8));
	t_net_partition(net, 5, true);
	t_net_run_for(net, (T_MISS + 2) * T_DETECT);
	low = ti_net_expect_group(net, ti_bits(ids, 4));
	high = ti_net_expect_group(net, ti_bits(ids + 4, 4));
	/* distinct numbers, new ones where the group changed */
	KUNIT_EXPECT_GT(test, low, all);
	t_net_run_for(net, 10 * T_DETECT);
	ti_net_expect_group(net, ti_bits(ids, 4));
	ti_net_expect_group(net, ti_bits(ids + 4, 4));
	t_net_partition(net, 5, false);
	t_net_run_for(net, 2 * T_HB + 3 * T_T);
	KUNIT_EXPECT_GT(test, ti_net_expect_group(net, ti_bits(ids, 8)),
			high > low ? high : low);
}

/* three groups heal at once: concurrent searches, one merge */
static void ti_net_three_groups(struct kunit *test)
{
	static const u32 ids[] = { 1, 2, 3, 4, 5, 6 };
	struct t_net *net = ti_net(test, ids, ARRAY_SIZE(ids));
	u32 i, j;

	/* {1,2} {3,4} {5,6} */
	for (i = 0; i < 6; i++)
		for (j = 0; j < 6; j++)
			net->cut[i][j] = i / 2 != j / 2;
	net->timers_first = true;
	t_net_start_all(net);
	t_net_run_for(net, 4 * T_T);
	ti_net_expect_group(net, T_BIT(1) | T_BIT(2));
	ti_net_expect_group(net, T_BIT(3) | T_BIT(4));
	ti_net_expect_group(net, T_BIT(5) | T_BIT(6));
	memset(net->cut, 0, sizeof(net->cut));
	t_net_run_for(net, T_HB + 4 * T_T);
	ti_net_expect_group(net, ti_bits(ids, 6));
}

/* a lower node joins a running group: one merge, nobody else moves */
static void ti_net_join(struct kunit *test)
{
	static const u32 ids[] = { 2, 4, 6, 11 };
	struct t_net *net = ti_net(test, ids, ARRAY_SIZE(ids));
	u64 tx_ready;

	t_net_crash(net, 4);
	t_net_start_all(net);
	t_net_run_for(net, 3 * T_T);
	ti_net_expect_group(net, T_BIT(2) | T_BIT(6) | T_BIT(11));
	tx_ready = t_net_sum_tx(net, ELEC_MSG_READY);
	t_net_reboot(net, 4);
	t_net_run_for(net, 4 * T_T + T_HB);
	ti_net_expect_group(net, ti_bits(ids, 4));
	KUNIT_EXPECT_EQ(test, t_net_sum_tx(net, ELEC_MSG_READY), tx_ready + 1);
	KUNIT_EXPECT_EQ(test, t_net_node(net, 11)->c.stats.leader_changes, 1);
}

/* standby nodes on the network: @ids with @standby (a bit set) standby */
static struct t_net *ti_net_sb(struct kunit *test, const u32 *ids, u32 nr,
			       u32 standby)
{
	struct t_net *net = ti_net(test, ids, nr);
	u32 i;

	for (i = 0; i < nr; i++)
		net->node[i]->c.cfg.standby = !!(standby & T_BIT(ids[i]));
	return net;
}

/* every node of @net up: between groups, nobody leads */
static void ti_net_expect_none(struct t_net *net)
{
	u32 i;

	for (i = 0; i < net->n; i++)
		if (net->node[i]->up)
			ti_expect_groupless(net->node[i]);
}

/* the frames the nodes sent, all types */
static u64 ti_net_tx(struct t_net *net)
{
	u64 sum = 0;
	u8 t;

	for (t = 0; t <= ELEC_MSG_MAX; t++)
		sum += t_net_sum_tx(net, t);
	return sum;
}

/*
 * The highest id in standby from the start: the next one coordinates,
 * the standby node its member. Its coordinator set standby: it resigns,
 * the next one coordinates everyone. All in standby: no group, silence.
 * One back: it coordinates everyone again.
 */
static void ti_net_standby(struct kunit *test)
{
	static const u32 ids[] = { 2, 4, 6, 11, 13, 17 };
	struct t_net *net = ti_net_sb(test, ids, ARRAY_SIZE(ids), T_BIT(17));
	u32 all = ti_bits(ids, ARRAY_SIZE(ids));
	u64 tx;
	u32 i;

	t_net_start_all(net);
	t_net_run_for(net, 3 * T_T + T_DETECT);
	KUNIT_EXPECT_EQ(test, t_net_node(net, 13)->c.leader, 13);
	/* coordinated by 13 (the check wants the highest: 17 out of it) */
	for (i = 0; i < ARRAY_SIZE(ids); i++) {
		KUNIT_EXPECT_EQ(test, net->node[i]->c.leader, 13);
		KUNIT_EXPECT_EQ(test, net->node[i]->c.inv.coord, 13);
	}
	KUNIT_EXPECT_EQ(test, ti_members(t_net_node(net, 13)) | T_BIT(13),
			all);
	KUNIT_EXPECT_EQ(test, t_net_node(net, 17)->c.role,
			ELEC_ROLE_FOLLOWER);

	/* 13 into standby: 11 coordinates all within a search or two */
	ti_standby(t_net_node(net, 13), true);
	KUNIT_EXPECT_EQ(test, t_net_node(net, 13)->c.leader, 0);
	t_net_run_for(net, 2 * T_DETECT);
	for (i = 0; i < ARRAY_SIZE(ids); i++) {
		KUNIT_EXPECT_EQ_MSG(test, net->node[i]->c.leader, 11,
				    "node %u", ids[i]);
		KUNIT_EXPECT_EQ_MSG(test, net->node[i]->c.inv.coord, 11,
				    "node %u", ids[i]);
	}
	KUNIT_EXPECT_EQ(test, ti_members(t_net_node(net, 11)) | T_BIT(11),
			all);
	KUNIT_EXPECT_EQ(test, t_net_node(net, 11)->c.phase, ELEC_INV_COORD);

	/* every node in standby: no group, and then no frame at all */
	for (i = 0; i < ARRAY_SIZE(ids); i++)
		ti_standby(net->node[i], true);
	t_net_run_for(net, 2 * T_DETECT);
	ti_net_expect_none(net);
	tx = ti_net_tx(net);
	t_net_run_for(net, 10 * T_DETECT);
	KUNIT_EXPECT_EQ(test, ti_net_tx(net), tx);
	ti_net_expect_none(net);

	/* 4 back: it coordinates all (they answer its search) */
	ti_standby(t_net_node(net, 4), false);
	t_net_run_for(net, 2 * T_DETECT);
	for (i = 0; i < ARRAY_SIZE(ids); i++)
		KUNIT_EXPECT_EQ_MSG(test, net->node[i]->c.leader, 4,
				    "node %u", ids[i]);
	KUNIT_EXPECT_EQ(test, ti_members(t_net_node(net, 4)) | T_BIT(4), all);

	/* 17 back: it takes over, 4 and the others its members */
	ti_standby(t_net_node(net, 17), false);
	t_net_run_for(net, 2 * T_DETECT);
	ti_net_expect_group(net, all);
}

static struct kunit_case elec_invitation_cases[] = {
	KUNIT_CASE(ti_start_forms_group),
	KUNIT_CASE(ti_ayc_answered),
	KUNIT_CASE(ti_lower_heard_searches),
	KUNIT_CASE(ti_lower_heard_rate_limited),
	KUNIT_CASE(ti_search_merges_lower),
	KUNIT_CASE(ti_merging_refuses),
	KUNIT_CASE(ti_search_found_higher),
	KUNIT_CASE(ti_search_ignores),
	KUNIT_CASE(ti_merge_done),
	KUNIT_CASE(ti_accept_coordinator),
	KUNIT_CASE(ti_accept_member),
	KUNIT_CASE(ti_invite_refused),
	KUNIT_CASE(ti_ready),
	KUNIT_CASE(ti_member_watch),
	KUNIT_CASE(ti_coordinator_membership),
	KUNIT_CASE(ti_elect),
	KUNIT_CASE(ti_peer_removed),
	KUNIT_CASE(ti_stop_start),
	KUNIT_CASE(ti_codec),
	KUNIT_CASE(ti_membership_version),
	KUNIT_CASE(ti_config),
	KUNIT_CASE(ti_search_period_short),
	KUNIT_CASE(ti_invite_sender),
	KUNIT_CASE(ti_member_between_groups),
	KUNIT_CASE(ti_learning),
	KUNIT_CASE(ti_found_removed),
	KUNIT_CASE(ti_removed_while_merging),
	KUNIT_CASE(ti_accept_wait_floor),
	KUNIT_CASE(ti_win_late_reply),
	KUNIT_CASE(ti_win_late_accept),
	KUNIT_CASE(ti_win_shrink),
	KUNIT_CASE(ti_win_cap),
	KUNIT_CASE(ti_win_ready_wait),
	KUNIT_CASE(ti_win_ready_covers_accept),
	KUNIT_CASE(ti_win_prompt_backoff),
	KUNIT_CASE(ti_win_alone_quiet),
	KUNIT_CASE(ti_win_quiet_lower),
	KUNIT_CASE(ti_win_lost_answers),
	KUNIT_CASE(ti_net_boot),
	KUNIT_CASE(ti_net_coordinator_crash),
	KUNIT_CASE(ti_net_partition_heal),
	KUNIT_CASE(ti_net_three_groups),
	KUNIT_CASE(ti_net_join),
	KUNIT_CASE(ti_standby_never_coordinates),
	KUNIT_CASE(ti_standby_on_off),
	KUNIT_CASE(ti_accepted_leaving),
	KUNIT_CASE(ti_net_standby),
	{}
};

static struct kunit_suite elec_invitation_suite = {
	.name = "elec_invitation",
	.test_cases = elec_invitation_cases,
};

kunit_test_suites(&elec_invitation_suite);
