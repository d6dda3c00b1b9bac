// SPDX-License-Identifier: GPL-2.0
/*
 * options.c - the option and counter lists (options-list.h,
 * counters-list.h) as data, and what every embedder derives from them:
 * accessors by option, the range and applicability checks, the defaults,
 * the values GROUP_GET reports.
 */
#include "core.h"
#include "options.h"

#define ELEC_STR2(x)	#x
#define ELEC_STR(x)	ELEC_STR2(x)
#define ELEC_STRS2(...)	#__VA_ARGS__
#define ELEC_STRS(...)	ELEC_STRS2(__VA_ARGS__)

/* what GROUP_GET reports: the configured value, or the default it means */
static u64 elec_opt_eff_RAW(const struct elec_config *cfg, u64 v)
{
	(void)cfg;
	return v;
}

static u64 elec_opt_eff_COORD_TIMEOUT(const struct elec_config *cfg, u64 v)
{
	(void)v;
	return elec_config_coord_timeout(cfg);
}

static u64 elec_opt_eff_POS(const struct elec_config *cfg, u64 v)
{
	(void)v;
	return elec_self_pos(cfg);
}

/**
 * elec_config_detect_ns() - the configured detection window.
 * @cfg: a configuration
 *
 * The one place it is computed: the fixed failure detector (detect.c),
 * search-interval's default and the simulator's bounds use it.
 *
 * Return: hb_interval * hb_miss: a leader silent this long has failed.
 */
u64 elec_config_detect_ns(const struct elec_config *cfg)
{
	return cfg->hb_interval_ns * cfg->hb_miss;
}

static u64 elec_opt_eff_SEARCH_INTERVAL(const struct elec_config *cfg, u64 v)
{
	return v ? v : elec_config_detect_ns(cfg);
}

/**
 * elec_config_detector_margin() - the adaptive detector's fixed margin.
 * @cfg: a configuration
 *
 * Return: detector-margin, or when 0 (the default) one hb-interval.
 */
u64 elec_config_detector_margin(const struct elec_config *cfg)
{
	return cfg->detector_margin_ns ? cfg->detector_margin_ns :
	       cfg->hb_interval_ns;
}

/**
 * elec_config_detector_max() - the adaptive detector's longest window.
 * @cfg: a configuration
 *
 * Return: detector-max, or when 0 (the default)
 * ELECTION_DEF_DETECTOR_MAX_MULT x the fixed window
 * (elec_config_detect_ns()), at most ELECTION_DUR_MAX_NS, and never
 * below the adaptive detector's floor (ELECTION_DETECTOR_FLOOR_MISS x
 * hb-interval: above ELECTION_DUR_MAX_NS only for an hb-interval above
 * half of it).
 */
u64 elec_config_detector_max(const struct elec_config *cfg)
{
	u64 w = elec_config_detect_ns(cfg);
	u64 floor = cfg->hb_interval_ns * ELECTION_DETECTOR_FLOOR_MISS;

	if (cfg->detector_max_ns)
		return cfg->detector_max_ns;
	if (w > ELECTION_DUR_MAX_NS / ELECTION_DEF_DETECTOR_MAX_MULT)
		w = ELECTION_DUR_MAX_NS;
	else
		w *= ELECTION_DEF_DETECTOR_MAX_MULT;
	return w < floor ? floor : w;
}

static u64 elec_opt_eff_DETECTOR_MARGIN(const struct elec_config *cfg, u64 v)
{
	(void)v;
	return elec_config_detector_margin(cfg);
}

static u64 elec_opt_eff_DETECTOR_MAX(const struct elec_config *cfg, u64 v)
{
	(void)v;
	return elec_config_detector_max(cfg);
}

/**
 * elec_config_auth_window() - how far a keyed frame's counter may be from
 *	the receiver's clock.
 * @cfg: the configuration
 *
 * Return: auth-window, or ELECTION_DEF_AUTH_WINDOW_NS when it is 0.
 */
u64 elec_config_auth_window(const struct elec_config *cfg)
{
	return cfg->auth_window_ns ? cfg->auth_window_ns :
	       ELECTION_DEF_AUTH_WINDOW_NS;
}

static u64 elec_opt_eff_AUTH_WINDOW(const struct elec_config *cfg, u64 v)
{
	(void)v;
	return elec_config_auth_window(cfg);
}

/* the words of an ELEC_OPTK_WORD option, by value (elec_opt_desc.words) */
static const char *const elec_words_DETECTOR[] = {
	[ELECTION_DETECTOR_FIXED]	= "fixed",
	[ELECTION_DETECTOR_ADAPTIVE]	= "adaptive",
	NULL
};

static_assert(ARRAY_SIZE(elec_words_DETECTOR) == ELECTION_DETECTOR_MAX + 2,
	      "every detector has a word");

/* elec_opt_desc.words, by kind */
#define ELEC_WORDS_DUR(ID)	NULL
#define ELEC_WORDS_DUR0(ID)	NULL
#define ELEC_WORDS_U32(ID)	NULL
#define ELEC_WORDS_POS(ID)	NULL
#define ELEC_WORDS_ON(ID)	NULL
#define ELEC_WORDS_OFF(ID)	NULL
#define ELEC_WORDS_WORD(ID)	elec_words_ ## ID

#define ELEC_OPTION(ID, nm, at, field, kd, l, h, d, set, when, fl, ef) \
	[ELEC_OPT_ ## ID] = {						\
		.name = nm,						\
		.attr = at,						\
		.kind = ELEC_OPTK_ ## kd,				\
		.flags = (fl) | ELEC_OPTF_WHEN_ ## when |		\
			 ELEC_OPTF_SCOPE_ ## set,			\
		.lo = l,						\
		.hi = h,						\
		.def = d,						\
		.scope = ELEC_SCOPE_ ## set,				\
		.words = ELEC_WORDS_ ## kd(ID),				\
		.off = offsetof(struct elec_config, field),		\
		.eff = elec_opt_eff_ ## ef,				\
	},
const struct elec_opt_desc elec_opts[ELEC_OPT_COUNT] = {
#include "options-list.h"
};

/* the refusal of a given option another algorithm does not take */
#define ELEC_OPTION(ID, nm, at, field, kd, l, h, d, set, ...) \
	[ELEC_OPT_ ## ID] = nm " applies to " ELEC_SCOPE_ ## set " only",
const char *const elec_opt_not_here[ELEC_OPT_COUNT] = {
#include "options-list.h"
};

/* the words of a range, by kind */
#define ELEC_RANGE_DUR(lo, hi)		"100us..60s"
#define ELEC_RANGE_DUR0(lo, hi)		"0 or 100us..60s"
#define ELEC_RANGE_U32(lo, hi)		ELEC_STR(lo) ".." ELEC_STR(hi)
#define ELEC_RANGE_POS(lo, hi)		"1..4294967295"
#define ELEC_RANGE_ON(lo, hi)		"0..1"
#define ELEC_RANGE_OFF(lo, hi)		"0..1"
#define ELEC_RANGE_WORD(lo, hi)		ELEC_STR(lo) ".." ELEC_STR(hi)

/* the refusal of a value out of range */
#define ELEC_OPTION(ID, nm, at, field, kd, l, h, ...) \
	[ELEC_OPT_ ## ID] = nm " out of range (" ELEC_RANGE_ ## kd(l, h) ")",
const char *const elec_opt_range[ELEC_OPT_COUNT] = {
#include "options-list.h"
};

/* the refusal of a period below the floor (ELEC_OPTF_FLOOR; netlink.c) */
#define ELEC_FLOOR_WHY \
	" may not be shorter than the module parameter userns_min_interval_us without CAP_NET_ADMIN in the initial user namespace"
#define ELEC_OPTION(ID, nm, ...) \
	[ELEC_OPT_ ## ID] = nm ELEC_FLOOR_WHY,
const char *const elec_opt_floor[ELEC_OPT_COUNT] = {
#include "options-list.h"
};

/* the refusal of a change of an option group add fixes (when: NEW) */
#define ELEC_OPTION(ID, nm, ...) \
	[ELEC_OPT_ ## ID] = nm " is set when the group is added and cannot be changed",
const char *const elec_opt_fixed[ELEC_OPT_COUNT] = {
#include "options-list.h"
};

#define ELEC_COUNTER(field, at, opt) \
	[ELEC_CTR_ ## field] = { #field, at, offsetof(struct elec_stats, field), \
				 ELEC_OPT_ ## opt },
const struct elec_ctr_desc elec_ctrs[ELEC_CTR_COUNT] = {
#include "counters-list.h"
};

/* every u64 of struct elec_stats after the arrays is a row */
static_assert(sizeof(struct elec_stats) ==
	      (2 * (ELEC_MSG_MAX + 1) + ELEC_DROP_MAX + 1 + ELEC_CTR_COUNT) *
	      sizeof(u64),
	      "every scalar counter of struct elec_stats is in counters-list.h");

/**
 * elec_opt_width() - an option's width, by its kind.
 * @o: the option
 *
 * The width of its struct elec_config member (the accessors read and write
 * that many bytes; KUnit and tests/lists/dump.c check each row) and of its
 * netlink attribute: u64 for a duration, u32 for a number or a position,
 * u8 (a bool member) for on/off, u8 for a word.
 *
 * Return: 8, 4 or 1.
 */
unsigned int elec_opt_width(enum elec_opt o)
{
	switch (elec_opts[o].kind) {
	case ELEC_OPTK_DUR:
	case ELEC_OPTK_DUR0:
		return sizeof(u64);
	case ELEC_OPTK_U32:
	case ELEC_OPTK_POS:
		return sizeof(u32);
	default:
		return sizeof(bool);
	}
}

/* the rows as text, macros expanded: elec_opt_list_hash() */
#define ELEC_OPTION(...) \
	ELEC_STRS(__VA_ARGS__) "\n"
static const char elec_opt_rows[] = {
#include "options-list.h"
};

/**
 * elec_opt_list_hash() - a hash of the option list this was built from.
 *
 * 32-bit FNV-1a over every row's columns as text, macros expanded (a
 * range, a default, a kind or a new row gives another value): ALGO_GET
 * reports it, electionctl compares it with its own.
 *
 * Return: the hash.
 */
u32 elec_opt_list_hash(void)
{
	u32 h = 2166136261U;
	size_t i;

	for (i = 0; elec_opt_rows[i]; i++) {
		h ^= (u8)elec_opt_rows[i];
		h *= 16777619U;
	}
	return h;
}

/**
 * elec_opt_get() - an option's value in a configuration.
 * @cfg: the configuration
 * @o: the option
 *
 * Return: the value as its attribute carries it (ELEC_OPTK_OFF: 1 for
 * on), 0 for an unknown option.
 */
u64 elec_opt_get(const struct elec_config *cfg, enum elec_opt o)
{
	const u8 *p;
	u64 v = 0;

	if ((unsigned int)o >= ELEC_OPT_COUNT)
		return 0;
	p = (const u8 *)cfg + elec_opts[o].off;
	switch (elec_opt_width(o)) {
	case sizeof(u64):
		v = *(const u64 *)p;
		break;
	case sizeof(u32):
		v = *(const u32 *)p;
		break;
	default:
		if (elec_opts[o].kind == ELEC_OPTK_WORD)
			v = *p;
		else
			v = *(const bool *)p;
		break;
	}
	if (elec_opts[o].kind == ELEC_OPTK_OFF)
		return !v;
	if (elec_opts[o].kind == ELEC_OPTK_ON)
		return !!v;
	return v;
}

/**
 * elec_opt_set() - set an option's value in a configuration.
 * @cfg: the configuration
 * @o: the option; an unknown one changes nothing
 * @v: the value as its attribute carries it (ELEC_OPTK_OFF: 1 for on),
 *	truncated to the member's width (check it with elec_opt_value_ok())
 */
void elec_opt_set(struct elec_config *cfg, enum elec_opt o, u64 v)
{
	u8 *p;

	if ((unsigned int)o >= ELEC_OPT_COUNT)
		return;
	if (elec_opts[o].kind == ELEC_OPTK_OFF)
		v = !v;
	else if (elec_opts[o].kind == ELEC_OPTK_ON)
		v = !!v;
	p = (u8 *)cfg + elec_opts[o].off;
	switch (elec_opt_width(o)) {
	case sizeof(u64):
		*(u64 *)p = v;
		break;
	case sizeof(u32):
		*(u32 *)p = (u32)v;
		break;
	default:
		if (elec_opts[o].kind == ELEC_OPTK_WORD)
			*p = (u8)v;
		else
			*(bool *)p = v;
		break;
	}
}

/**
 * elec_opt_report() - the value GROUP_GET reports for an option.
 * @cfg: the configuration
 * @o: the option
 *
 * Return: elec_opt_get(), or for an option whose 0 means a default
 * (coord-timeout, pos, search-interval) the value that default has.
 */
u64 elec_opt_report(const struct elec_config *cfg, enum elec_opt o)
{
	if ((unsigned int)o >= ELEC_OPT_COUNT)
		return 0;
	return elec_opts[o].eff(cfg, elec_opt_get(cfg, o));
}

/**
 * elec_opt_applies() - whether an algorithm takes an option.
 * @o: the option
 * @algo: enum elec_algo value
 *
 * The one applicability test: the core's check of a configuration, the
 * kernel's check of a request's attributes, electionctl's and electsim's
 * checks of their arguments all call it.
 *
 * Return: true if every algorithm takes the option (ELEC_OPTF_ALL) and
 * @algo is one, or if @algo's &elec_algo_ops.options has it.
 */
bool elec_opt_applies(enum elec_opt o, u8 algo)
{
	const struct elec_algo_ops *ops;

	if ((unsigned int)o >= ELEC_OPT_COUNT || !algo || algo > ELEC_ALGO_MAX)
		return false;
	if (elec_opts[o].flags & ELEC_OPTF_ALL)
		return true;
	ops = elec_algo_find(algo);
	return ops && (ops->options & ELEC_OPT_BIT(o));
}

/**
 * elec_opt_algos() - the algorithms that take an option.
 * @o: the option
 *
 * Return: the set of them (ELEC_ALGO_BIT() of each; ELEC_ALGOS_ALL for an
 * ELEC_OPTF_ALL option), as elec_opt_applies() decides.
 */
u32 elec_opt_algos(enum elec_opt o)
{
	u32 set = 0;
	u8 a;

	for (a = 1; a <= ELEC_ALGO_MAX; a++)
		if (elec_opt_applies(o, a))
			set |= ELEC_ALGO_BIT(a);
	return set;
}

/**
 * elec_opt_reported() - whether GROUP_GET reports an option for an
 * algorithm.
 * @o: the option
 * @algo: enum elec_algo value
 *
 * Return: true where it applies, and for ELEC_OPTF_REPORT_ALL options
 * everywhere (the algorithms it does not apply to report its default).
 */
bool elec_opt_reported(enum elec_opt o, u8 algo)
{
	return elec_opt_applies(o, algo) ||
	       ((unsigned int)o < ELEC_OPT_COUNT &&
		(elec_opts[o].flags & ELEC_OPTF_REPORT_ALL));
}

static bool elec_dur_in_range(u64 ns)
{
	return ns >= ELECTION_DUR_MIN_NS && ns <= ELECTION_DUR_MAX_NS;
}

/**
 * elec_opt_value_ok() - whether a value is in an option's range.
 * @o: the option
 * @v: the value as its attribute carries it
 *
 * Return: true if a request may carry @v (ELEC_OPTF_ZERO options but
 * ELEC_OPTK_DUR0 ones: not 0, which only the configuration holds).
 */
bool elec_opt_value_ok(enum elec_opt o, u64 v)
{
	const struct elec_opt_desc *d;

	if ((unsigned int)o >= ELEC_OPT_COUNT)
		return false;
	d = &elec_opts[o];
	switch (d->kind) {
	case ELEC_OPTK_DUR:
		return elec_dur_in_range(v);
	case ELEC_OPTK_DUR0:
		return !v || elec_dur_in_range(v);
	case ELEC_OPTK_U32:
	case ELEC_OPTK_WORD:
		return v >= d->lo && v <= d->hi;
	case ELEC_OPTK_POS:
		return v >= 1 && v <= U32_MAX;
	default:
		return v <= 1;
	}
}

/**
 * elec_opt_by_attr() - the option an attribute carries.
 * @attr: enum elec_attr value
 *
 * Return: its enum elec_opt, or -1.
 */
int elec_opt_by_attr(unsigned int attr)
{
	int o;

	for (o = 0; o < ELEC_OPT_COUNT; o++)
		if (elec_opts[o].attr == attr)
			return o;
	return -1;
}

/**
 * elec_opt_word() - the word of an ELEC_OPTK_WORD option's value.
 * @o: the option
 * @v: the value
 *
 * Return: the word, or NULL (another kind, a value out of range).
 */
const char *elec_opt_word(enum elec_opt o, u64 v)
{
	if ((unsigned int)o >= ELEC_OPT_COUNT || !elec_opts[o].words ||
	    !elec_opt_value_ok(o, v))
		return NULL;
	return elec_opts[o].words[v];
}

/**
 * elec_opt_word_value() - the value of an ELEC_OPTK_WORD option's word.
 * @o: the option
 * @word: the word, whole (never abbreviated)
 *
 * Return: its value, or -1.
 */
int elec_opt_word_value(enum elec_opt o, const char *word)
{
	int v;

	if ((unsigned int)o >= ELEC_OPT_COUNT || !elec_opts[o].words)
		return -1;
	for (v = 0; elec_opts[o].words[v]; v++)
		if (!strcmp(elec_opts[o].words[v], word))
			return v;
	return -1;
}

/**
 * elec_opt_by_name() - the option a keyword names.
 * @name: the keyword, whole
 *
 * Return: its enum elec_opt, or -1.
 */
int elec_opt_by_name(const char *name)
{
	int o;

	for (o = 0; o < ELEC_OPT_COUNT; o++)
		if (!strcmp(elec_opts[o].name, name))
			return o;
	return -1;
}

/**
 * elec_opt_json_key() - an option's JSON key (electionctl -j show,
 * electsim --json) and its attribute's name.
 * @o: the option
 * @buf: where to write it
 * @size: @buf's size (at least 1)
 *
 * The keyword with '_' for '-', and "_ns" after a duration's:
 * "hb-interval" is "hb_interval_ns", "quorum" is "quorum".
 */
void elec_opt_json_key(enum elec_opt o, char *buf, size_t size)
{
	const char *n = (unsigned int)o < ELEC_OPT_COUNT ?
			elec_opts[o].name : "?";
	bool dur = (unsigned int)o < ELEC_OPT_COUNT &&
		   (elec_opts[o].kind == ELEC_OPTK_DUR ||
		    elec_opts[o].kind == ELEC_OPTK_DUR0);
	size_t i = 0;

	for (; *n && i + 1 < size; n++)
		buf[i++] = *n == '-' ? '_' : *n;
	if (dur && i + 4 <= size) {
		memcpy(buf + i, "_ns", 3);
		i += 3;
	}
	buf[i] = 0;
}

/**
 * elec_config_defaults() - set every option to its default.
 * @cfg: the configuration; the node id, group and algorithm are left alone
 */
void elec_config_defaults(struct elec_config *cfg)
{
	int o;

	for (o = 0; o < ELEC_OPT_COUNT; o++)
		elec_opt_set(cfg, o, elec_opts[o].def);
}

/**
 * elec_config_check_options() - the options' part of elec_config_check().
 * @cfg: the configuration (its algorithm known)
 * @why: if not NULL, set to the first refusal's message
 *
 * In list order: each value in its range (0 also where it means the
 * default), then each option another algorithm takes at its default.
 *
 * Return: 0 or -EINVAL.
 */
int elec_config_check_options(const struct elec_config *cfg,
			      const char **why)
{
	int o;

	for (o = 0; o < ELEC_OPT_COUNT; o++) {
		const struct elec_opt_desc *d = &elec_opts[o];
		u64 v = elec_opt_get(cfg, o);
		const char *reason = NULL;

		if (!(v == 0 && (d->flags & ELEC_OPTF_ZERO)) &&
		    !elec_opt_value_ok(o, v))
			reason = elec_opt_range[o];
		else if (!elec_opt_applies(o, cfg->algo) && v != d->def)
			reason = elec_opt_not_here[o];
		if (reason) {
			if (why)
				*why = reason;
			return -EINVAL;
		}
	}
	return 0;
}

/**
 * elec_ctr_get() - a scalar counter's value.
 * @st: the counters
 * @i: which
 *
 * Return: its value, 0 for an unknown one.
 */
u64 elec_ctr_get(const struct elec_stats *st, enum elec_ctr i)
{
	if ((unsigned int)i >= ELEC_CTR_COUNT)
		return 0;
	return *(const u64 *)((const u8 *)st + elec_ctrs[i].off);
}
