/* SPDX-License-Identifier: GPL-2.0 */
/*
 * options.h - the options of an instance's configuration and the scalar
 * counters of its statistics, as data: options-list.h and
 * counters-list.h hold one row each, expanded here and in options.c (the
 * core's range and applicability checks, defaults, accessors, reported
 * values), module/netlink.c (policies, parsing, replies), electionctl
 * (keywords, parsers, printers, completion) and electsim (flags, output).
 * A list of rows in the C preprocessor needs no generator: a DKMS build,
 * KUnit and the userspace tools compile it as they are, and a row cannot
 * drift from the code that reads it.
 *
 * The columns of ELEC_OPTION(ID, name, attr, field, kind, lo, hi, def,
 * algos, when, flags, eff):
 * @ID: enum elec_opt is ELEC_OPT_ ## ID
 * @name: the electionctl keyword, electsim's --flag without "--", the
 *	word in messages
 * @attr: the netlink attribute (enum elec_attr)
 * @field: the struct elec_config member
 * @kind: ELEC_OPTK_ ## kind
 * @lo, @hi: ELEC_OPTK_U32's range (netlink: a policy range, so it fits
 *	s16)
 * @def: the attribute's value when a GROUP_NEW leaves it out
 *	(ELEC_OPTK_OFF: 1 means on); 0 with ELEC_OPTF_ZERO: a default
 *	worked out from the other options
 * @algos: ALL (every algorithm takes it), or the scope of the
 *	algorithms that take it, which say so in their
 *	&elec_algo_ops.options: the others refuse it whatever its value
 *	("<name> applies to ELEC_SCOPE_ ## algos only")
 * @when: NEW (group add only) or SET (group add and group set)
 * @flags: other ELEC_OPTF_* bits
 * @eff: what GROUP_GET reports: elec_opt_eff_ ## eff (RAW: the value)
 *
 * Include after core_port.h (the uapi enums and the u64 types).
 */
#ifndef _ELEC_OPTIONS_H
#define _ELEC_OPTIONS_H

#include "core_port.h"

/* a set of algorithms: bit (enum elec_algo value) */
#define ELEC_ALGO_BIT(a)	(1U << (a))
#define ELEC_ALGOS_ALL		(ELEC_ALGO_BIT(ELEC_ALGO_MAX + 1) - 2U)
/* a set of options (&elec_algo_ops.options): bit (enum elec_opt value) */
#define ELEC_OPT_BIT(o)		(1U << (o))
/*
 * the words a refusal names the algorithms that take an option by
 * (ELEC_SCOPE_ ## the row's algos column)
 */
#define ELEC_SCOPE_ALL		"every algorithm"
#define ELEC_SCOPE_BULLY	"the Bully algorithms"
#define ELEC_SCOPE_RING_CR	"the ring algorithm"
#define ELEC_SCOPE_INVITATION	"the invitation algorithm"

/**
 * enum elec_opt_kind - how an option's value is carried and checked.
 * @ELEC_OPTK_DUR: a duration, u64 ns, ELECTION_DUR_MIN_NS..
 *	ELECTION_DUR_MAX_NS ("DUR" on the command line)
 * @ELEC_OPTK_DUR0: 0 or such a duration (0: the option's default)
 * @ELEC_OPTK_U32: a u32 in the row's range
 * @ELEC_OPTK_POS: a u32, 1..U32_MAX (0 in the configuration: the default)
 * @ELEC_OPTK_ON: on/off, u8 1/0 on the wire; the configuration (a bool)
 *	holds the value
 * @ELEC_OPTK_OFF: on/off, u8 1/0 on the wire; the configuration (a bool)
 *	holds its negation, so that a zeroed configuration has it on
 * @ELEC_OPTK_WORD: one of a list of words (elec_opt_desc.words), @lo..@hi:
 *	its index, a u8 on the wire and in the configuration
 */
enum elec_opt_kind {
	ELEC_OPTK_DUR,
	ELEC_OPTK_DUR0,
	ELEC_OPTK_U32,
	ELEC_OPTK_POS,
	ELEC_OPTK_ON,
	ELEC_OPTK_OFF,
	ELEC_OPTK_WORD,
};

/* option flags */
#define ELEC_OPTF_SET		0x1	/* GROUP_SET may change it (when: SET) */
#define ELEC_OPTF_REPORT_ALL	0x2	/* GROUP_GET reports it for every algorithm */
#define ELEC_OPTF_ZERO		0x4	/* 0 in the configuration: its default */
#define ELEC_OPTF_FLOOR		0x8	/* a period: not below userns_min_interval_us */
#define ELEC_OPTF_NODE		0x10	/* per node: electsim sets it, no --flag */
#define ELEC_OPTF_ALL		0x20	/* every algorithm takes it (algos: ALL) */
/*
 * added after users learned the short forms: electionctl takes a prefix
 * it shares with an older keyword as that one ("d", "de": dev)
 */
#define ELEC_OPTF_LATE		0x40
/*
 * runtime state, not configuration: showconf does not write it, syncconf
 * leaves it as it is (standby-tracked, which electionctl track sets)
 */
#define ELEC_OPTF_RUNTIME	0x80
/* per node in electsim: --NAME takes a list of node ids, not on|off */
#define ELEC_OPTF_SIM_IDS	0x100
#define ELEC_OPTF_SCOPE_ALL	ELEC_OPTF_ALL
#define ELEC_OPTF_SCOPE_BULLY	0
#define ELEC_OPTF_SCOPE_RING_CR	0
#define ELEC_OPTF_SCOPE_INVITATION	0
#define ELEC_OPTF_WHEN_NEW	0
#define ELEC_OPTF_WHEN_SET	ELEC_OPTF_SET

/**
 * enum elec_opt - the options, in options-list.h's order.
 * @ELEC_OPT_COUNT: how many
 */
enum elec_opt {
#define ELEC_OPTION(ID, ...) ELEC_OPT_ ## ID,
#include "options-list.h"
	ELEC_OPT_COUNT
};

/* electionctl and electsim keep sets of options in 32-bit masks */
static_assert(ELEC_OPT_COUNT <= 24, "the options fit the tools' masks");

/**
 * enum elec_ctr - the scalar counters, in counters-list.h's order
 *	(ELEC_CTR_ ## field).
 * @ELEC_CTR_COUNT: how many
 */
enum elec_ctr {
#define ELEC_COUNTER(field, attr, opt) ELEC_CTR_ ## field,
#include "counters-list.h"
	ELEC_CTR_COUNT
};

/* counters-list.h's @opt column ALL: a counter of every group */
#define ELEC_OPT_ALL	ELEC_OPT_COUNT

struct elec_config;
struct elec_stats;

/**
 * struct elec_opt_desc - one row of options-list.h, as data.
 * @name: keyword
 * @attr: netlink attribute
 * @kind: enum elec_opt_kind
 * @flags: ELEC_OPTF_* (ELEC_OPTF_ALL: every algorithm takes it; else
 *	those whose &elec_algo_ops.options has it: elec_opt_algos())
 * @lo: ELEC_OPTK_U32: lowest value
 * @hi: ELEC_OPTK_U32: highest value
 * @def: the attribute's value when left out
 * @scope: the algorithms it applies to, in words
 * @words: ELEC_OPTK_WORD: its words, by value, NULL-terminated; else NULL
 * @off: offset of the struct elec_config member
 * @eff: the value GROUP_GET reports, from the configuration and the value
 *	(elec_opt_report())
 */
struct elec_opt_desc {
	const char *name;
	u16 attr;
	u8 kind;
	u16 flags;
	u64 lo;
	u64 hi;
	u64 def;
	const char *scope;
	const char *const *words;
	size_t off;
	u64 (*eff)(const struct elec_config *cfg, u64 v);
};

/**
 * struct elec_ctr_desc - one row of counters-list.h, as data.
 * @name: the member's name, the JSON key
 * @attr: the STATS_GET attribute
 * @off: offset of the struct elec_stats member
 * @opt: the option (enum elec_opt) without which it cannot count, or
 *	ELEC_OPT_ALL
 */
struct elec_ctr_desc {
	const char *name;
	u16 attr;
	size_t off;
	unsigned int opt;
};

extern const struct elec_opt_desc elec_opts[ELEC_OPT_COUNT];
extern const char *const elec_opt_not_here[ELEC_OPT_COUNT];
extern const char *const elec_opt_range[ELEC_OPT_COUNT];
extern const char *const elec_opt_fixed[ELEC_OPT_COUNT];
extern const char *const elec_opt_floor[ELEC_OPT_COUNT];
extern const struct elec_ctr_desc elec_ctrs[ELEC_CTR_COUNT];

u32 elec_opt_list_hash(void);
unsigned int elec_opt_width(enum elec_opt o);
u64 elec_opt_get(const struct elec_config *cfg, enum elec_opt o);
void elec_opt_set(struct elec_config *cfg, enum elec_opt o, u64 v);
u64 elec_opt_report(const struct elec_config *cfg, enum elec_opt o);
u64 elec_config_detect_ns(const struct elec_config *cfg);
u64 elec_config_detector_margin(const struct elec_config *cfg);
u64 elec_config_detector_max(const struct elec_config *cfg);
u64 elec_config_auth_window(const struct elec_config *cfg);
const char *elec_opt_word(enum elec_opt o, u64 v);
int elec_opt_word_value(enum elec_opt o, const char *word);
bool elec_opt_applies(enum elec_opt o, u8 algo);
u32 elec_opt_algos(enum elec_opt o);
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
