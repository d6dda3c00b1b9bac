/* SPDX-License-Identifier: GPL-2.0 */
/*
 * options.h - every option of an instance's configuration and every
 * scalar counter of its statistics, described once.
 *
 * ELEC_OPTIONS() and ELEC_COUNTERS() are X-macro lists: each row is
 * expanded by the code that needs one aspect of it (the core's range and
 * applicability checks, the netlink policies, parsing and replies, the
 * size of a reply, electionctl's keywords, parsers and printers,
 * electsim's flags, the documentation checks). A list in the C
 * preprocessor needs no generator: a DKMS build, KUnit and the userspace
 * tools compile it as they are, and a row cannot drift from the code that
 * reads it. Documentation/admin-guide.rst, "Adding an option or counter",
 * says what else a new row needs.
 *
 * Include after core_port.h (the uapi enums and the u64 types).
 */
#ifndef _ELEC_OPTIONS_H
#define _ELEC_OPTIONS_H

#include "core_port.h"

/* a set of algorithms: bit (enum elec_algo value) */
#define ELEC_ALGO_BIT(a)	(1U << (a))
#define ELEC_ALGOS_ALL		(ELEC_ALGO_BIT(ELEC_ALGO_MAX + 1) - 2U)
#define ELEC_ALGOS_BULLY	(ELEC_ALGO_BIT(ELEC_ALGO_BULLY) |	\
				 ELEC_ALGO_BIT(ELEC_ALGO_MIN_BULLY) |	\
				 ELEC_ALGO_BIT(ELEC_ALGO_ENH_BULLY))
#define ELEC_ALGOS_RING_CR	ELEC_ALGO_BIT(ELEC_ALGO_RING)
#define ELEC_ALGOS_INVITATION	ELEC_ALGO_BIT(ELEC_ALGO_INVITATION)
/* the words a refusal uses for a set (ELEC_SCOPE_ ## the set's suffix) */
#define ELEC_SCOPE_ALL		"every algorithm"
#define ELEC_SCOPE_BULLY	"the Bully algorithms"
#define ELEC_SCOPE_RING_CR	"the ring algorithm"
#define ELEC_SCOPE_INVITATION	"the invitation algorithm"

/**
 * enum elec_opt_kind - how an option's value is carried and checked.
 * @ELEC_OPTK_DUR: a duration, u64 ns, ELECTION_DUR_MIN_NS..
 *	ELECTION_DUR_MAX_NS ("DUR" on the command line)
 * @ELEC_OPTK_DUR0: 0 or such a duration (0: the option's default)
 * @ELEC_OPTK_U32: a u32 in the row's range (netlink: a policy range, so
 *	the range fits s16)
 * @ELEC_OPTK_POS: a u32, 1..U32_MAX (0 in the configuration: the default)
 * @ELEC_OPTK_ON: on/off, u8 1/0; the configuration holds the value
 * @ELEC_OPTK_OFF: on/off, u8 1/0; the configuration holds its negation
 *	(a zeroed configuration has the option on)
 */
enum elec_opt_kind {
	ELEC_OPTK_DUR,
	ELEC_OPTK_DUR0,
	ELEC_OPTK_U32,
	ELEC_OPTK_POS,
	ELEC_OPTK_ON,
	ELEC_OPTK_OFF,
};

/* option flags */
#define ELEC_OPTF_SET		0x1	/* GROUP_SET may change it (when: SET) */
#define ELEC_OPTF_REPORT_ALL	0x2	/* GROUP_GET reports it for every algorithm */
#define ELEC_OPTF_ZERO		0x4	/* 0 in the configuration: its default */
#define ELEC_OPTF_FLOOR		0x8	/* a period: not below userns_min_interval_us */
#define ELEC_OPTF_NODE		0x10	/* per node: electsim sets it, no --flag */
#define ELEC_OPTF_WHEN_NEW	0
#define ELEC_OPTF_WHEN_SET	ELEC_OPTF_SET

/*
 * ELEC_OPTIONS(X): X(ID, name, attr, field, kind, lo, hi, def, algos,
 *		      when, flags, eff)
 * @ID: enum elec_opt is ELEC_OPT_ ## ID
 * @name: the electionctl keyword, electsim's --flag without "--", the
 *	word in messages
 * @attr: the netlink attribute (enum elec_attr)
 * @field: the struct elec_config member
 * @kind: ELEC_OPTK_ ## kind
 * @lo, @hi: ELEC_OPTK_U32's range
 * @def: the attribute's value when a GROUP_NEW leaves it out (ELEC_OPTK_OFF:
 *	1 means on); 0 with ELEC_OPTF_ZERO: a default the core computes
 * @algos: ELEC_ALGOS_ ## algos, the algorithms it applies to; the others
 *	refuse it whatever its value ("<name> applies to ELEC_SCOPE_ ## algos
 *	only")
 * @when: NEW (group add only) or SET (group add and group set)
 * @flags: other ELEC_OPTF_* bits
 * @eff: what GROUP_GET reports: elec_opt_eff_ ## eff() of the
 *	configuration and the value (RAW: the value)
 *
 * The order is the one electionctl and electsim print them in: a new row
 * goes at the end.
 */
#define ELEC_OPTIONS(X)							\
	X(HB_INTERVAL, "hb-interval", ELEC_ATTR_HB_INTERVAL_NS,		\
	  hb_interval_ns, DUR, 0, 0, ELECTION_DEF_HB_INTERVAL_NS, ALL,	\
	  SET, ELEC_OPTF_FLOOR, RAW)					\
	X(HB_MISS, "hb-miss", ELEC_ATTR_HB_MISS, hb_miss, U32,		\
	  ELECTION_HB_MISS_MIN, ELECTION_HB_MISS_MAX,			\
	  ELECTION_DEF_HB_MISS, ALL, SET, 0, RAW)			\
	X(TIMEOUT, "timeout", ELEC_ATTR_TIMEOUT_NS, timeout_ns, DUR,	\
	  0, 0, ELECTION_DEF_TIMEOUT_NS, ALL, SET, ELEC_OPTF_FLOOR, RAW) \
	X(COORD_TIMEOUT, "coord-timeout", ELEC_ATTR_COORD_TIMEOUT_NS,	\
	  coord_timeout_ns, DUR, 0, 0, 0, ALL, SET,			\
	  ELEC_OPTF_ZERO | ELEC_OPTF_FLOOR, COORD_TIMEOUT)		\
	X(POS, "pos", ELEC_ATTR_POS, self_pos, POS, 1, 0, 0, ALL, NEW,	\
	  ELEC_OPTF_ZERO | ELEC_OPTF_NODE, POS)				\
	X(SUPPRESS, "suppress", ELEC_ATTR_SUPPRESS, suppress_off, OFF,	\
	  0, 1, 1, RING_CR, NEW, 0, RAW)				\
	X(ASK_SUSPECT, "ask-suspect", ELEC_ATTR_ASK_SUSPECT,		\
	  ask_suspect_off, OFF, 0, 1, 1, BULLY, SET,			\
	  ELEC_OPTF_REPORT_ALL, RAW)					\
	X(PREEMPT, "preempt", ELEC_ATTR_PREEMPT, preempt_off, OFF,	\
	  0, 1, 1, BULLY, SET, ELEC_OPTF_REPORT_ALL, RAW)		\
	X(PREEMPT_DELAY, "preempt-delay", ELEC_ATTR_PREEMPT_DELAY_NS,	\
	  preempt_delay_ns, DUR0, 0, 0, 0, BULLY, SET,			\
	  ELEC_OPTF_REPORT_ALL | ELEC_OPTF_ZERO, RAW)			\
	X(QUORUM, "quorum", ELEC_ATTR_QUORUM, quorum, ON, 0, 1, 0, BULLY, \
	  SET, ELEC_OPTF_REPORT_ALL, RAW)				\
	X(SEARCH_INTERVAL, "search-interval",				\
	  ELEC_ATTR_SEARCH_INTERVAL_NS, search_interval_ns, DUR0,	\
	  0, 0, 0, INVITATION, SET, ELEC_OPTF_ZERO | ELEC_OPTF_FLOOR,	\
	  SEARCH_INTERVAL)

/**
 * enum elec_opt - the options, in ELEC_OPTIONS() order.
 * @ELEC_OPT_COUNT: how many
 */
enum elec_opt {
#define ELEC_X(ID, ...) ELEC_OPT_ ## ID,
	ELEC_OPTIONS(ELEC_X)
#undef ELEC_X
	ELEC_OPT_COUNT
};

/*
 * ELEC_COUNTERS(X): X(field, attr) - the scalar counters of struct
 * elec_stats, each a u64 the core counts: the member and the JSON key
 * (electionctl -j stats, electsim --json) are @field, the STATS_GET
 * attribute @attr. Per-type arrays (tx, rx, drops) and the glue's own
 * counters (tx_errors, timer lateness) are not in it.
 */
#define ELEC_COUNTERS(X)						\
	X(elections, ELEC_ATTR_ELECTIONS)				\
	X(leader_changes, ELEC_ATTR_LEADER_CHANGES)			\
	X(elections_limited, ELEC_ATTR_ELECTIONS_LIMITED)		\
	X(quorum_lost, ELEC_ATTR_QUORUM_LOST)				\
	X(detect_deferred, ELEC_ATTR_DETECT_DEFERRED)

/**
 * enum elec_ctr - the scalar counters, in ELEC_COUNTERS() order.
 * @ELEC_CTR_COUNT: how many
 */
enum elec_ctr {
#define ELEC_X(field, attr) ELEC_CTR_ ## field,
	ELEC_COUNTERS(ELEC_X)
#undef ELEC_X
	ELEC_CTR_COUNT
};

/**
 * struct elec_opt_desc - one row of ELEC_OPTIONS(), as data.
 * @name: keyword
 * @attr: netlink attribute
 * @kind: enum elec_opt_kind
 * @flags: ELEC_OPTF_*
 * @algos: the set of algorithms it applies to (ELEC_ALGO_BIT())
 * @lo: ELEC_OPTK_U32: lowest value
 * @hi: ELEC_OPTK_U32: highest value
 * @def: the attribute's value when left out
 * @scope: the algorithms it applies to, in words
 * @not_here: the refusal of a given option another algorithm does not take
 * @range: the refusal of a value out of range
 * @fixed: the refusal of a change of an option without ELEC_OPTF_SET
 */
struct elec_opt_desc {
	const char *name;
	u16 attr;
	u8 kind;
	u8 flags;
	u32 algos;
	u64 lo;
	u64 hi;
	u64 def;
	const char *scope;
	const char *not_here;
	const char *range;
	const char *fixed;
};

/**
 * struct elec_ctr_desc - one row of ELEC_COUNTERS(), as data.
 * @name: the member's name, the JSON key
 * @attr: the STATS_GET attribute
 */
struct elec_ctr_desc {
	const char *name;
	u16 attr;
};

extern const struct elec_opt_desc elec_opts[ELEC_OPT_COUNT];
extern const struct elec_ctr_desc elec_ctrs[ELEC_CTR_COUNT];

struct elec_config;
struct elec_stats;

u64 elec_opt_get(const struct elec_config *cfg, enum elec_opt o);
void elec_opt_set(struct elec_config *cfg, enum elec_opt o, u64 v);
u64 elec_opt_report(const struct elec_config *cfg, enum elec_opt o);
bool elec_opt_applies(enum elec_opt o, u8 algo);
bool elec_opt_reported(enum elec_opt o, u8 algo);
bool elec_opt_value_ok(enum elec_opt o, u64 v);
int elec_opt_by_attr(unsigned int attr);
int elec_opt_by_name(const char *name);
void elec_opt_json_key(enum elec_opt o, char *buf, size_t size);
void elec_config_defaults(struct elec_config *cfg);
int elec_config_check_options(const struct elec_config *cfg,
			      const char **why);
u64 elec_ctr_get(const struct elec_stats *st, enum elec_ctr i);

#endif /* _ELEC_OPTIONS_H */
