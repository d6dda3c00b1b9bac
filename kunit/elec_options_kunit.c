// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite elec_options: the option and counter lists
 * (module/core/options.h) as data. Every row's accessors agree with its
 * struct elec_config member; the defaults are what GROUP_NEW gives; the
 * applicability sets are the ones the docs state; a value out of range,
 * or another algorithm's option off its default, is refused with the
 * row's message; the counters read their members.
 */
#include <kunit/test.h>
#include <linux/string.h>

#include "core.h"
#include "names.h"

/* get and set round-trip, by kind; OFF rows hold the negation */
static void to_get_set(struct kunit *test)
{
	struct elec_config cfg;
	int o;

	for (o = 0; o < ELEC_OPT_COUNT; o++) {
		const struct elec_opt_desc *d = &elec_opts[o];
		u64 v = d->kind == ELEC_OPTK_DUR || d->kind == ELEC_OPTK_DUR0 ?
			ELECTION_DUR_MIN_NS + 7 :
			d->kind == ELEC_OPTK_U32 ? d->hi :
			d->kind == ELEC_OPTK_POS ? 77 : 0;

		memset(&cfg, 0, sizeof(cfg));
		elec_opt_set(&cfg, o, v);
		KUNIT_EXPECT_EQ_MSG(test, elec_opt_get(&cfg, o), v, "%s",
				    d->name);
		KUNIT_EXPECT_TRUE_MSG(test, elec_opt_by_name(d->name) == o,
				      "%s", d->name);
		KUNIT_EXPECT_TRUE_MSG(test, elec_opt_by_attr(d->attr) == o,
				      "%s", d->name);
	}
	memset(&cfg, 0, sizeof(cfg));
	KUNIT_EXPECT_EQ(test, elec_opt_get(&cfg, ELEC_OPT_SUPPRESS), 1ULL);
	elec_opt_set(&cfg, ELEC_OPT_SUPPRESS, 0);
	KUNIT_EXPECT_TRUE(test, cfg.suppress_off);
	elec_opt_set(&cfg, ELEC_OPT_QUORUM, 1);
	KUNIT_EXPECT_TRUE(test, cfg.quorum);
	elec_opt_set(&cfg, ELEC_OPT_HB_MISS, 9);
	KUNIT_EXPECT_EQ(test, cfg.hb_miss, 9U);
	KUNIT_EXPECT_EQ(test, elec_opt_by_name("nope"), -1);
	KUNIT_EXPECT_EQ(test, elec_opt_by_attr(ELEC_ATTR_GROUP), -1);
}

/* GROUP_NEW's defaults, and what GROUP_GET reports for them */
static void to_defaults(struct kunit *test)
{
	struct elec_config cfg;

	memset(&cfg, 0, sizeof(cfg));
	cfg.self_id = 9;
	cfg.algo = ELEC_ALGO_INVITATION;
	elec_config_defaults(&cfg);
	KUNIT_EXPECT_EQ(test, cfg.hb_interval_ns, ELECTION_DEF_HB_INTERVAL_NS);
	KUNIT_EXPECT_EQ(test, cfg.hb_miss, (u32)ELECTION_DEF_HB_MISS);
	KUNIT_EXPECT_EQ(test, cfg.timeout_ns, ELECTION_DEF_TIMEOUT_NS);
	KUNIT_EXPECT_EQ(test, cfg.coord_timeout_ns, 0ULL);
	KUNIT_EXPECT_FALSE(test, cfg.suppress_off || cfg.ask_suspect_off ||
			   cfg.preempt_off || cfg.quorum);
	KUNIT_EXPECT_EQ(test, elec_opt_report(&cfg, ELEC_OPT_COORD_TIMEOUT),
			ELECTION_DEF_COORD_TIMEOUT_MULT *
			ELECTION_DEF_TIMEOUT_NS);
	KUNIT_EXPECT_EQ(test, elec_opt_report(&cfg, ELEC_OPT_POS), 9ULL);
	KUNIT_EXPECT_EQ(test, elec_opt_report(&cfg, ELEC_OPT_SEARCH_INTERVAL),
			ELECTION_DEF_HB_INTERVAL_NS * ELECTION_DEF_HB_MISS);
	KUNIT_EXPECT_EQ(test, elec_config_check_options(&cfg, NULL), 0);
}

/* the sets the docs state */
static void to_applies(struct kunit *test)
{
	u8 a;

	for (a = ELEC_ALGO_BULLY; a <= ELEC_ALGO_MAX; a++) {
		bool bully = a == ELEC_ALGO_BULLY || a == ELEC_ALGO_MIN_BULLY ||
			     a == ELEC_ALGO_ENH_BULLY;

		KUNIT_EXPECT_TRUE(test, elec_opt_applies(ELEC_OPT_HB_MISS, a));
		KUNIT_EXPECT_TRUE(test, elec_opt_applies(ELEC_OPT_POS, a));
		KUNIT_EXPECT_EQ(test, elec_opt_applies(ELEC_OPT_SUPPRESS, a),
				a == ELEC_ALGO_RING);
		KUNIT_EXPECT_EQ(test, elec_opt_applies(ELEC_OPT_QUORUM, a),
				bully);
		KUNIT_EXPECT_EQ(test, elec_opt_applies(ELEC_OPT_PREEMPT, a),
				bully);
		KUNIT_EXPECT_EQ(test,
				elec_opt_applies(ELEC_OPT_PREEMPT_DELAY, a),
				bully);
		KUNIT_EXPECT_EQ(test, elec_opt_applies(ELEC_OPT_ASK_SUSPECT, a),
				bully);
		KUNIT_EXPECT_EQ(test,
				elec_opt_applies(ELEC_OPT_SEARCH_INTERVAL, a),
				a == ELEC_ALGO_INVITATION);
		/* GROUP_GET: the Bully options everywhere, at the defaults */
		KUNIT_EXPECT_TRUE(test, elec_opt_reported(ELEC_OPT_PREEMPT, a));
		KUNIT_EXPECT_EQ(test, elec_opt_reported(ELEC_OPT_SUPPRESS, a),
				a == ELEC_ALGO_RING);
	}
	KUNIT_EXPECT_FALSE(test, elec_opt_applies(ELEC_OPT_HB_MISS, 0));
	KUNIT_EXPECT_FALSE(test, elec_opt_applies(ELEC_OPT_HB_MISS,
						  ELEC_ALGO_MAX + 1));
	KUNIT_EXPECT_FALSE(test, elec_opt_applies(ELEC_OPT_COUNT,
						  ELEC_ALGO_BULLY));
}

/* ranges and refusals with the rows' words */
static void to_check(struct kunit *test)
{
	struct elec_config cfg;
	const char *why;

	memset(&cfg, 0, sizeof(cfg));
	cfg.self_id = 1;
	cfg.group = 1;
	cfg.algo = ELEC_ALGO_RING_ALL;
	elec_config_defaults(&cfg);
	KUNIT_EXPECT_EQ(test, elec_config_check(&cfg, NULL), 0);
	cfg.hb_miss = ELECTION_HB_MISS_MAX + 1;
	why = NULL;
	KUNIT_EXPECT_EQ(test, elec_config_check(&cfg, &why), -EINVAL);
	KUNIT_EXPECT_STREQ(test, why, "hb-miss out of range (1..1000)");
	cfg.hb_miss = 3;
	cfg.suppress_off = true;
	KUNIT_EXPECT_EQ(test, elec_config_check(&cfg, &why), -EINVAL);
	KUNIT_EXPECT_STREQ(test, why,
			   "suppress applies to the ring algorithm only");
	cfg.suppress_off = false;
	cfg.quorum = true;
	KUNIT_EXPECT_EQ(test, elec_config_check(&cfg, &why), -EINVAL);
	KUNIT_EXPECT_STREQ(test, why,
			   "quorum applies to the Bully algorithms only");
	KUNIT_EXPECT_TRUE(test, elec_opt_value_ok(ELEC_OPT_PREEMPT_DELAY, 0));
	KUNIT_EXPECT_FALSE(test, elec_opt_value_ok(ELEC_OPT_TIMEOUT, 0));
	KUNIT_EXPECT_FALSE(test, elec_opt_value_ok(ELEC_OPT_PREEMPT_DELAY,
						   ELECTION_DUR_MIN_NS - 1));
	KUNIT_EXPECT_FALSE(test, elec_opt_value_ok(ELEC_OPT_QUORUM, 2));
	KUNIT_EXPECT_FALSE(test, elec_opt_value_ok(ELEC_OPT_POS, 0));
	KUNIT_EXPECT_TRUE(test, elec_opt_value_ok(ELEC_OPT_POS, U32_MAX));
}

static void to_json_keys(struct kunit *test)
{
	char key[40];

	elec_opt_json_key(ELEC_OPT_HB_INTERVAL, key, sizeof(key));
	KUNIT_EXPECT_STREQ(test, key, "hb_interval_ns");
	elec_opt_json_key(ELEC_OPT_ASK_SUSPECT, key, sizeof(key));
	KUNIT_EXPECT_STREQ(test, key, "ask_suspect");
	elec_opt_json_key(ELEC_OPT_HB_MISS, key, sizeof(key));
	KUNIT_EXPECT_STREQ(test, key, "hb_miss");
	elec_opt_json_key(ELEC_OPT_SEARCH_INTERVAL, key, 8);
	KUNIT_EXPECT_STREQ(test, key, "search_");
}

/* each counter reads its own member */
static void to_counters(struct kunit *test)
{
	struct elec_stats st;
	int i;

	memset(&st, 0, sizeof(st));
	st.elections = 1;
	st.leader_changes = 2;
	st.elections_limited = 3;
	st.quorum_lost = 4;
	st.detect_deferred = 5;
	st.suspicions = 6;
	st.false_suspicions = 7;
	for (i = 0; i < ELEC_CTR_COUNT; i++)
		KUNIT_EXPECT_EQ_MSG(test, elec_ctr_get(&st, i), (u64)i + 1,
				    "%s", elec_ctrs[i].name);
	KUNIT_EXPECT_STREQ(test, elec_ctrs[ELEC_CTR_quorum_lost].name,
			   "quorum_lost");
	KUNIT_EXPECT_EQ(test, elec_ctrs[ELEC_CTR_detect_deferred].attr,
			(u16)ELEC_ATTR_DETECT_DEFERRED);
}

/* each member's width, from the row (the accessors go by its kind) */
#define ELEC_OPTION(ID, nm, at, field, ...) \
	[ELEC_OPT_ ## ID] = sizeof_field(struct elec_config, field),
static const u8 to_member_size[ELEC_OPT_COUNT] = {
#include "options-list.h"
};

/* each member is as wide as its kind says */
static void to_sizes(struct kunit *test)
{
	int o;

	for (o = 0; o < ELEC_OPT_COUNT; o++) {
		u8 want = elec_opts[o].kind == ELEC_OPTK_DUR ||
			  elec_opts[o].kind == ELEC_OPTK_DUR0 ? 8 :
			  elec_opts[o].kind == ELEC_OPTK_U32 ||
			  elec_opts[o].kind == ELEC_OPTK_POS ? 4 : 1;

		KUNIT_EXPECT_EQ_MSG(test, to_member_size[o], want, "%s",
				    elec_opts[o].name);
		KUNIT_EXPECT_NOT_NULL(test, elec_opt_not_here[o]);
		KUNIT_EXPECT_NOT_NULL(test, elec_opt_range[o]);
		KUNIT_EXPECT_NOT_NULL(test, elec_opt_fixed[o]);
	}
	KUNIT_EXPECT_STREQ(test, elec_opt_range[ELEC_OPT_HB_MISS],
			   "hb-miss out of range (1..1000)");
	KUNIT_EXPECT_STREQ(test, elec_opt_fixed[ELEC_OPT_POS],
			   "pos is set when the group is added and cannot be changed");
}

/* names-list.h names every value of each enum; the algorithms' messages */
static void to_names(struct kunit *test)
{
	unsigned int v;
	u8 a;

	for (v = 1; v <= ELEC_MSG_MAX; v++)
		KUNIT_EXPECT_NOT_NULL_MSG(test, elec_msg_name(v), "msg %u", v);
	for (v = 0; v <= ELEC_ROLE_MAX; v++)
		KUNIT_EXPECT_NOT_NULL_MSG(test, elec_role_name(v), "role %u", v);
	for (v = 1; v <= ELEC_DROP_MAX; v++)
		KUNIT_EXPECT_NOT_NULL_MSG(test, elec_drop_name(v), "drop %u", v);
	for (v = 1; v <= ELEC_TX_DROP_MAX; v++)
		KUNIT_EXPECT_NOT_NULL_MSG(test, elec_tx_drop_name(v),
					  "tx_drop %u", v);
	for (v = 1; v <= ELEC_EVENT_MAX; v++)
		KUNIT_EXPECT_NOT_NULL_MSG(test, elec_event_name(v), "event %u",
					  v);
	KUNIT_EXPECT_NULL(test, elec_msg_name(0));
	KUNIT_EXPECT_NULL(test, elec_msg_name(ELEC_MSG_MAX + 1));
	KUNIT_EXPECT_STREQ(test, elec_msg_name(ELEC_MSG_ARE_YOU_COORD), "ayc");
	KUNIT_EXPECT_STREQ(test, elec_drop_name(ELEC_DROP_AUTH_REPLAY),
			   "auth_replay");
	for (a = ELEC_ALGO_BULLY; a <= ELEC_ALGO_MAX; a++) {
		const struct elec_algo_ops *ops = elec_algo_find(a);

		KUNIT_ASSERT_NOT_NULL(test, ops);
		KUNIT_EXPECT_STREQ(test, elec_algo_name(a), ops->name);
		/* real message types only, heartbeats everywhere */
		KUNIT_EXPECT_EQ(test, ops->msgs &
				~(ELEC_MSG_BIT(ELEC_MSG_MAX + 1) - 2U), 0U);
		KUNIT_EXPECT_FALSE(test, ops->msgs &
				   ELEC_MSG_BIT(ELEC_MSG_RETRY));
		KUNIT_EXPECT_TRUE(test, ops->msgs &
				  ELEC_MSG_BIT(ELEC_MSG_HEARTBEAT));
	}
	KUNIT_EXPECT_NULL(test, elec_algo_name(0));
}

static struct kunit_case elec_options_cases[] = {
	KUNIT_CASE(to_sizes),
	KUNIT_CASE(to_names),
	KUNIT_CASE(to_get_set),
	KUNIT_CASE(to_defaults),
	KUNIT_CASE(to_applies),
	KUNIT_CASE(to_check),
	KUNIT_CASE(to_json_keys),
	KUNIT_CASE(to_counters),
	{}
};

static struct kunit_suite elec_options_suite = {
	.name = "elec_options",
	.test_cases = elec_options_cases,
};

kunit_test_suites(&elec_options_suite);
