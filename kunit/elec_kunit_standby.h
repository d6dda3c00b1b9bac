/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Standby in the Bully family (bully, min-bully, enh-bully), on the
 * in-test network of elec_kunit_net.h: the scenario the three suites share
 * (t_net_bully_standby()), each on its own network of five nodes. Static
 * only, like elec_kunit_net.h.
 */
#ifndef _ELEC_KUNIT_STANDBY_H
#define _ELEC_KUNIT_STANDBY_H

#include "elec_kunit_net.h"
#include "bully.h"

/* node @id's admin standby @on before it starts (its configuration) */
static inline void t_net_standby_admin(struct t_net *net, u32 id, bool on)
{
	struct t_node *n = t_net_node(net, id);
	struct elec_config cfg = n->c.cfg;

	cfg.standby = on;
	KUNIT_ASSERT_EQ(net->test, elec_core_set_config(&n->c, &cfg, NULL), 0);
	elec_core_standby_sync(&n->c, net->now);
}

/* node @id's tracked standby @on, as GROUP_SET does (then the sync) */
static inline void t_net_standby(struct t_net *net, u32 id, bool on)
{
	struct t_node *n = t_net_node(net, id);
	struct elec_config cfg = n->c.cfg;

	n->now = net->now;
	cfg.standby_tracked = on;
	KUNIT_ASSERT_EQ(net->test, elec_core_set_config(&n->c, &cfg, NULL), 0);
	elec_core_standby_sync(&n->c, net->now);
}

/* a lone node's tracked standby @on (GROUP_SET, then the sync) */
static inline void t_standby(struct t_node *n, bool on)
{
	struct elec_config cfg = n->c.cfg;

	cfg.standby_tracked = on;
	KUNIT_ASSERT_EQ(n->test, elec_core_set_config(&n->c, &cfg, NULL), 0);
	elec_core_standby_sync(&n->c, n->now);
}

/* node @n's recorded sends: HEARTBEATs flagged LEAVING */
static inline u32 t_leaving_sent(const struct t_node *n)
{
	u32 i, k = 0;

	for (i = 0; i < n->n_acts; i++)
		if (n->acts[i].kind == ELEC_ACT_SEND &&
		    n->acts[i].msg.type == ELEC_MSG_HEARTBEAT &&
		    (n->acts[i].msg.flags & ELECTION_FLAG_LEAVING))
			k++;
	return k;
}

/* every live node follows nobody, none leads, none is in a run */
static inline void t_net_expect_none(struct t_net *net)
{
	u32 i;

	for (i = 0; i < net->n; i++) {
		struct t_node *n = net->node[i];

		if (!n->up)
			continue;
		KUNIT_EXPECT_EQ_MSG(net->test, n->c.leader, 0, "node %u",
				    n->c.cfg.self_id);
		KUNIT_EXPECT_EQ_MSG(net->test, n->c.role, ELEC_ROLE_FOLLOWER,
				    "node %u", n->c.cfg.self_id);
		KUNIT_EXPECT_FALSE_MSG(net->test, n->c.participant, "node %u",
				       n->c.cfg.self_id);
	}
}

static inline u64 t_net_sent_all(const struct t_net *net)
{
	u64 sum = 0;
	u32 t;

	for (t = 0; t <= ELEC_MSG_MAX; t++)
		sum += net->sent[t];
	return sum;
}

/*
 * Five nodes, @pref their ids from the algorithm's best to its worst,
 * preempt on, quorum off:
 * - the best in admin standby from the start: the second best leads, and
 *   the best never answers an ELECTION, never leads nor heartbeats;
 * - it leaves standby: it takes over (preemption);
 * - it enters standby again, leading: it resigns (one LEAVING heartbeat)
 *   and the second best leads within two heartbeat periods, before any
 *   detector could have run out;
 * - every node in standby: nobody leads, no run, and no frame at all
 *   for a second;
 * - the third best leaves standby: it leads, the others follow it.
 */
static inline void t_net_bully_standby(struct t_net *net, const u32 *pref)
{
	struct kunit *test = net->test;
	struct t_node *best = t_net_node(net, pref[0]);
	u32 i;

	t_net_standby_admin(net, pref[0], true);
	KUNIT_EXPECT_TRUE(test, elec_core_standby(&best->c) == false);
	t_net_start_all(net);
	KUNIT_EXPECT_TRUE(test, elec_core_standby(&best->c));
	t_net_run_for(net, 1000000000ULL);
	t_net_expect_agree(net, pref[1]);
	KUNIT_EXPECT_EQ(test, best->c.stats.tx[ELEC_MSG_ANSWER], 0);
	KUNIT_EXPECT_EQ(test, best->c.stats.tx[ELEC_MSG_HEARTBEAT], 0);
	KUNIT_EXPECT_EQ(test, best->c.stats.tx[ELEC_MSG_COORDINATOR], 0);
	KUNIT_EXPECT_EQ(test, best->c.stats.elections, 0);
	/* an election asked of it begins nothing */
	elec_core_elect(&best->c, net->now);
	t_net_run_for(net, 1000000000ULL);
	t_net_expect_agree(net, pref[1]);

	/* out of standby: it takes over */
	t_net_standby_admin(net, pref[0], false);
	t_net_run_for(net, 1000000000ULL);
	t_net_expect_agree(net, pref[0]);

	/* standby while leading: it resigns, the second best leads at once */
	t_clear(best);
	t_net_standby(net, pref[0], true);
	KUNIT_EXPECT_EQ(test, t_leaving_sent(best), 1);
	KUNIT_EXPECT_EQ(test, best->c.leader, 0);
	KUNIT_EXPECT_EQ(test, best->c.role, ELEC_ROLE_FOLLOWER);
	t_net_run_for(net, 2 * T_HB);
	t_net_expect_agree(net, pref[1]);
	t_net_run_for(net, 1000000000ULL);
	t_net_expect_agree(net, pref[1]);

	/* all in standby: nobody leads, and the group falls quiet */
	for (i = 0; i < net->n; i++)
		t_net_standby(net, net->ids[i], true);
	t_net_run_for(net, 1000000000ULL);
	t_net_expect_none(net);
	memset(net->sent, 0, sizeof(net->sent));
	for (i = 0; i < net->n; i++)
		t_clear(net->node[i]);
	t_net_run_for(net, 1000000000ULL);
	t_net_expect_none(net);
	KUNIT_EXPECT_EQ(test, t_net_sent_all(net), 0);

	/* one of them back: it leads, the others follow it */
	t_net_standby(net, pref[2], false);
	t_net_run_for(net, 1000000000ULL);
	t_net_expect_agree(net, pref[2]);
}

/*
 * Quorum on, three nodes, @pref best first: the best in standby, the
 * worst crashed. The second best is confirmed only because the node in
 * standby names it in its ALIVEs (a voter still); the standby node never
 * leads.
 */
static inline void t_net_bully_standby_quorum(struct t_net *net,
					      const u32 *pref)
{
	struct kunit *test = net->test;
	struct t_node *mid = t_net_node(net, pref[1]);
	struct elec_config cfg;
	u32 i;

	for (i = 0; i < net->n; i++) {
		struct t_node *n = net->node[i];

		cfg = n->c.cfg;
		cfg.quorum = true;
		KUNIT_ASSERT_EQ(test, elec_core_set_config(&n->c, &cfg, NULL),
				0);
	}
	t_net_standby_admin(net, pref[0], true);
	t_net_start_all(net);
	t_net_run_for(net, 1000000000ULL);
	t_net_expect_agree(net, pref[1]);
	t_net_crash(net, pref[2]);
	t_net_run_for(net, 1000000000ULL);
	KUNIT_EXPECT_EQ(test, mid->c.leader, pref[1]);
	KUNIT_EXPECT_EQ(test, mid->c.role, ELEC_ROLE_LEADER);
	KUNIT_EXPECT_TRUE(test, mid->c.bully.q.confirmed);
	KUNIT_EXPECT_EQ(test, t_net_node(net, pref[0])->c.leader, pref[1]);
	KUNIT_EXPECT_EQ(test, t_net_node(net, pref[0])->c.role,
			ELEC_ROLE_FOLLOWER);
}

#endif /* _ELEC_KUNIT_STANDBY_H */
