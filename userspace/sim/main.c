// SPDX-License-Identifier: GPL-2.0
/*
 * electsim: command line parsing and dispatch.
 *
 *   electsim --algo ALGO --nodes N [--ids LIST] --scenario SCENARIO
 *            [--initiator ID|all] [--seed S] [--latency DUR[:DUR]]
 *            [--loss P] [--timeout DUR] [--coord-timeout DUR]
 *            [--hb-interval DUR] [--hb-miss K] [--runs R] [--json] [--trace]
 *            [--suppress on|off] [--ask-suspect on|off] [--preempt on|off]
 *            [--preempt-delay DUR] [--absent LIST] [--search-interval DUR]
 *   electsim --check --algo ALGO [--nodes A..B] [--seeds K] [--loss P]
 *
 * ALGO: bully, min-bully (the lowest id wins), enh-bully (at most
 * ELECTION_MAX_NODES nodes: its COORDINATOR carries the candidate set),
 * ring (Chang and Roberts; --suppress off: without the participant flag),
 * ring-all, ring-list (at most ELECTION_RING_LIST_MAX_IDS nodes: the id
 * list must fit one frame), invitation (groups per partition side; its
 * --check counts --partitions within its assumptions).
 *
 * Extensions (not in the contract): --partitions adds one network
 * split and its heal to the random scenario's schedule (and to --check's);
 * --observe keeps running a detection-plus-election window after
 * quiescence and reports whether anything but heartbeats happened
 * ("changed_after"), as --check does (its replay commands carry it);
 * --absent LIST (Bully algorithms; elect, boot, crash-leader, join):
 * configured ids that are down from the start and never start (an absent
 * minimum, say).
 *
 * Exit status: 0 done, 1 a violation found, 2 bad arguments.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "sim.h"

#define MAX_NODES 1000000U
_Static_assert(ELEC_OPT_COUNT <= 32, "the options given fit a bit mask");
_Static_assert(MAX_NODES <= SIM_MAX_NODES, "node indices fit the queue's runs");

static const char *prog = "electsim";

static void usage(FILE *f)
{
	fprintf(f,
		"usage: %s --algo ALGO --nodes N [--ids LIST] --scenario SCENARIO\n"
		"         [--initiator ID|all] [--seed S] [--latency DUR[:DUR]] [--loss P]\n"
		"         [--timeout DUR] [--coord-timeout DUR] [--hb-interval DUR]\n"
		"         [--hb-miss K] [--runs R] [--json] [--trace] [--suppress on|off]\n"
		"         [--timeline FILE]\n"
		"         [--ask-suspect on|off] [--preempt on|off] [--preempt-delay DUR]\n"
		"         [--quorum on|off] [--auth on|off]\n"
		"         [--absent LIST] [--search-interval DUR] [--timing]\n"
		"         [--schedule FAULTS] [--generator G] [--rx-cost DUR]\n"
		"         [--jitter P:MAX] [--standby LIST] [--standby-faults]\n"
		"       %s --check --algo ALGO [--nodes A..B] [--seeds K] [--loss P] [--json]\n"
		"output: one line per run; --json: one JSON object per run (JSON\n"
		"        Lines), the --trace lines then on stderr; --check --json:\n"
		"        one object with the verdict; --timeline FILE (one run): the\n"
		"        run as a Trace Event JSON file (ui.perfetto.dev,\n"
		"        chrome://tracing), one track per node; --timing: each run's\n"
		"        wall-clock time on stderr (setup, settle, run: benchmarks)\n"
		"algorithms: bully min-bully enh-bully ring ring-all ring-list invitation\n"
		"            (--suppress: ring only; --ask-suspect, --preempt,\n"
		"            --preempt-delay, --quorum: bully, min-bully, enh-bully;\n"
		"            enh-bully: at\n"
		"            most %u nodes; ring-list: at most %u nodes;\n"
		"            --search-interval: invitation)\n"
		"auth:       --auth on: every node has a group key (frames carry a\n"
		"            counter, receivers drop replays; as in the kernel)\n"
		"extensions: --partitions (random scenario and --check: one split and heal,\n"
		"            outside Bully's assumptions; invitation: one to three splits,\n"
		"            the last one healed or not, within its assumptions,\n"
		"            checked per partition side); --fast-recover (random scenario\n"
		"            and --check: a crashed id may return before the others\n"
		"            detected its crash, outside Bully's assumptions);\n"
		"            --observe (watch a window after quiescence, as --check\n"
		"            does); --absent LIST (Bully algorithms; elect, boot,\n"
		"            crash-leader, join: configured ids that never start)\n"
		"load:       --jitter P:MAX: a fraction P of the frames and timer\n"
		"            expiries late by up to MAX (a host's tail);\n"
		"            --rx-cost DUR: every frame delivered takes DUR of one CPU\n"
		"            shared by all nodes, in arrival order (timers that\n"
		"            act do not wait, those that wait for a frame step\n"
		"            after it): the election's own traffic delays frames\n"
		"faults:     --schedule \"split:MASK@US;heal@US;crash:ID@US;recover:ID@US\"\n"
		"            (random scenario and --check; or ELECTSIM_SCRIPT): the\n"
		"            faults as scripted, US microseconds after the trigger,\n"
		"            bit (id-1) of MASK (0x... or decimal) on side 1;\n"
		"            --generator random|focused|harsh: how the random\n"
		"            faults are drawn (focused: inside the election after a\n"
		"            detection; harsh: more faults, splits for every algorithm);\n"
		"            standby:ID@US, active:ID@US: tracked standby on, off\n"
		"standby:    --standby LIST: ids in standby (admin) from the start;\n"
		"            --standby-faults (random scenario and --check): each\n"
		"            node in standby with probability 1/4, and one to four\n"
		"            standby changes among the faults; E1 then wants the\n"
		"            best live id not in standby, none when all are\n"
		"scenarios: elect boot crash-leader recover random soak (--duration DUR,\n"
		"           default 10s: no fault, counts leader changes) join\n"
		"           (--initiator ID: ID is down from the start, the others\n"
		"           settle on their best, then ID starts; counted from its start)\n"
		"           heal (invitation: the lower and upper halves of the ids\n"
		"           start apart, form a group each, then the partition heals;\n"
		"           counted from the heal)\n"
		"DUR: integer with ns, us, ms or s\n", prog, prog,
		(unsigned int)ELECTION_MAX_NODES,
		(unsigned int)ELECTION_RING_LIST_MAX_IDS);
}

static void __attribute__((noreturn, format(printf, 1, 2)))
bad(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(2);
}

static int parse_u64(const char *s, u64 *out)
{
	char *end;
	unsigned long long v;

	if (!s || *s < '0' || *s > '9')
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || *end)
		return -1;
	*out = v;
	return 0;
}

/* DUR: integer + ns|us|ms|s ("0" alone is 0) */
static int parse_dur(const char *s, u64 *out)
{
	static const struct {
		const char *unit;
		u64 mult;
	} units[] = { { "ns", 1 }, { "us", 1000 }, { "ms", 1000000 },
		      { "s", 1000000000 } };
	unsigned long long v;
	char *end;
	size_t i;

	if (!s || *s < '0' || *s > '9')
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno)
		return -1;
	if (!*end)
		return v == 0 ? (*out = 0, 0) : -1;
	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (strcmp(end, units[i].unit))
			continue;
		if (v > ~0ULL / units[i].mult)
			return -1;
		*out = v * units[i].mult;
		return 0;
	}
	return -1;
}

static u32 parse_id(const char *s, const char *what)
{
	u64 v;

	if (parse_u64(s, &v) || !v || v > U32_MAX)
		bad("%s: '%s' is not a node id (1..4294967295)", what, s);
	return (u32)v;
}

static int cmp_u32(const void *a, const void *b)
{
	u32 x = *(const u32 *)a, y = *(const u32 *)b;

	return x < y ? -1 : x > y;
}

/* a comma-separated list of distinct node ids; @what names the option */
static u32 *parse_id_list(const char *list, const char *what, u32 *count)
{
	u32 cnt = 1, k, *ids, *sorted;
	char *dup = strdup(list), *tok, *save = NULL;
	const char *c;

	if (!dup)
		bad("out of memory");
	for (c = list; *c; c++)
		cnt += *c == ',';
	if (cnt > MAX_NODES)
		bad("%s: too many ids", what);
	ids = calloc(cnt, sizeof(u32));
	sorted = calloc(cnt, sizeof(u32));
	if (!ids || !sorted)
		bad("out of memory");
	k = 0;
	for (tok = strtok_r(dup, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save))
		ids[k++] = parse_id(tok, what);
	if (k != cnt)
		bad("%s: empty id in '%s'", what, list);
	memcpy(sorted, ids, cnt * sizeof(u32));
	qsort(sorted, cnt, sizeof(u32), cmp_u32);
	for (k = 1; k < cnt; k++)
		if (sorted[k] == sorted[k - 1])
			bad("%s: duplicate id %u", what, sorted[k]);
	free(sorted);
	free(dup);
	*count = cnt;
	return ids;
}

/*
 * The enh-bully limit: ceil(n/2) candidates travel in every COORDINATOR
 * and CID, at most ELECTION_ENH_MAX_CANDS of them, which is what the
 * kernel's group limit of ELECTION_MAX_NODES nodes gives.
 */
static void enh_limit(const struct sim_params *p, u64 n, const char *what)
{
	if (p->ops->algo != ELEC_ALGO_ENH_BULLY || n <= ELECTION_MAX_NODES)
		return;
	bad("%s: enh-bully supports at most %u nodes (its COORDINATOR carries the candidate set, at most %u ids), not %llu",
	    what, (unsigned int)ELECTION_MAX_NODES,
	    (unsigned int)ELECTION_ENH_MAX_CANDS, (unsigned long long)n);
}

/* a duration as electsim reads it, in the largest exact unit ("10ms") */
static void fmt_dur(char *buf, size_t cap, u64 ns)
{
	static const struct {
		const char *unit;
		u64 mult;
	} units[] = { { "s", 1000000000ULL }, { "ms", 1000000ULL },
		      { "us", 1000ULL } };
	size_t i;

	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (ns && !(ns % units[i].mult)) {
			snprintf(buf, cap, "%llu%s",
				 (unsigned long long)(ns / units[i].mult),
				 units[i].unit);
			return;
		}
	snprintf(buf, cap, "%lluns", (unsigned long long)ns);
}

static void put_dur(FILE *f, const char *opt, u64 ns)
{
	char buf[40];

	fmt_dur(buf, sizeof(buf), ns);
	fprintf(f, " %s %s", opt, buf);
}

/* one option as a flag: a duration, on or off, a number */
static void put_option(FILE *f, int o, u64 v)
{
	char name[40];

	snprintf(name, sizeof(name), "--%s", elec_opts[o].name);
	switch (elec_opts[o].kind) {
	case ELEC_OPTK_DUR:
	case ELEC_OPTK_DUR0:
		put_dur(f, name, v);
		break;
	case ELEC_OPTK_ON:
	case ELEC_OPTK_OFF:
		fprintf(f, " %s %s", name, v ? "on" : "off");
		break;
	case ELEC_OPTK_WORD:
		fprintf(f, " %s %s", name, elec_opt_word(o, v) ?: "?");
		break;
	default:
		fprintf(f, " %s %llu", name, (unsigned long long)v);
		break;
	}
}

/*
 * The options of options-list.h as flags, in the order the replay lines
 * have always had (scripts and tests compare them): an algorithm's own
 * on/off options not at their default, then (@tail false) --auth and the
 * other flags follow, then its own other options not at their default;
 * with @tail, at the end, every algorithm's at the value in effect
 * (coord-timeout's default written out): T and coord-timeout first, then
 * the heartbeat's, then any later row in the list's order (one added
 * after the replay lines were first compared, ELEC_OPTF_LATE: only when
 * not at its default, so that those lines stay as they were).
 */
static void put_options(FILE *f, const struct elec_config *cfg, int part)
{
	static const enum elec_opt timing[] = {
		ELEC_OPT_TIMEOUT, ELEC_OPT_COORD_TIMEOUT, ELEC_OPT_HB_INTERVAL,
		ELEC_OPT_HB_MISS,
	};
	unsigned int i;
	int o;

	if (part == 2) {
		for (i = 0; i < ARRAY_SIZE(timing); i++)
			put_option(f, timing[i], elec_opt_report(cfg, timing[i]));
	}
	for (o = 0; o < ELEC_OPT_COUNT; o++) {
		const struct elec_opt_desc *d = &elec_opts[o];
		bool all = d->flags & ELEC_OPTF_ALL;
		bool onoff = d->kind == ELEC_OPTK_ON || d->kind == ELEC_OPTK_OFF;
		u64 v = elec_opt_get(cfg, o);

		if (d->flags & ELEC_OPTF_NODE)
			continue;
		if (part == 2) {
			for (i = 0; i < ARRAY_SIZE(timing); i++)
				if ((int)timing[i] == o)
					break;
			/* a late option: written when not at its default */
			if (all && i == ARRAY_SIZE(timing) &&
			    (!(d->flags & ELEC_OPTF_LATE) || v != d->def))
				put_option(f, o, elec_opt_report(cfg, o));
		} else if (!all && v != d->def && onoff == (part == 0)) {
			put_option(f, o, v);
		}
	}
}

/* an ELEC_OPTK_WORD option's words: "fixed or adaptive" */
static const char *words_text(int o)
{
	static char buf[128];
	const char *const *w = elec_opts[o].words;
	size_t off = 0;
	int i;

	buf[0] = 0;
	for (i = 0; w && w[i] && off < sizeof(buf); i++)
		off += (size_t)snprintf(buf + off, sizeof(buf) - off, "%s%s",
					!i ? "" : w[i + 1] ? ", " : " or ",
					w[i]);
	return buf;
}

/*
 * --NAME VALUE of an option of options-list.h into @cfg: a duration (0
 * only where it means the default), an integer, on or off. Exits with
 * status 2 on a bad value.
 */
static void parse_option(const char *name, const char *val, int o,
			 struct elec_config *cfg)
{
	const struct elec_opt_desc *d = &elec_opts[o];
	u64 v;

	/* --timeout auto: --timeout-auto on (T from measured round trips) */
	if (o == ELEC_OPT_TIMEOUT && !strcmp(val, "auto")) {
		elec_opt_set(cfg, ELEC_OPT_TIMEOUT_AUTO, 1);
		return;
	}
	switch (d->kind) {
	case ELEC_OPTK_DUR:
		if (parse_dur(val, &v))
			bad("%s: '%s' is not a duration (integer with ns, us, ms or s)",
			    name, val);
		if (!v)
			bad("%s: must not be 0", name);
		break;
	case ELEC_OPTK_DUR0:
		if (parse_dur(val, &v))
			bad("%s: '%s' is not a duration (0, or an integer with ns, us, ms or s)",
			    name, val);
		break;
	case ELEC_OPTK_ON:
	case ELEC_OPTK_OFF:
		if (strcmp(val, "on") && strcmp(val, "off"))
			bad("%s: '%s' is not on or off", name, val);
		v = !strcmp(val, "on");
		break;
	case ELEC_OPTK_WORD:
		if (elec_opt_word_value(o, val) < 0)
			bad("%s: '%s' is not %s", name, val, words_text(o));
		v = (u64)elec_opt_word_value(o, val);
		break;
	default:
		if (parse_u64(val, &v) || v > U32_MAX)
			bad("%s: '%s' is not an unsigned integer", name, val);
		break;
	}
	elec_opt_set(cfg, o, v);
}

void main_print_command(FILE *f, const struct sim_params *p)
{
	u32 i;
	int o;

	fprintf(f, "%s --algo %s --nodes %u", prog, p->ops->name, p->n);
	for (i = 0; i < p->n; i++)
		if (p->ids[i] != i + 1)
			break;
	if (i < p->n) {
		fprintf(f, " --ids ");
		for (i = 0; i < p->n; i++)
			fprintf(f, "%s%u", i ? "," : "", p->ids[i]);
	}
	put_options(f, &p->cfg, 0);
	if (p->auth)
		fprintf(f, " --auth on");
	put_options(f, &p->cfg, 1);
	if (p->rx_cost_ns)
		put_dur(f, "--rx-cost", p->rx_cost_ns);
	if (p->jitter_p > 0) {
		char buf[40];

		fmt_dur(buf, sizeof(buf), p->jitter_max_ns);
		fprintf(f, " --jitter %.17g:%s", p->jitter_p, buf);
	}
	for (i = 0; i < p->n_absent; i++)
		fprintf(f, "%s%u", i ? "," : " --absent ", p->absent[i]);
	for (o = 0; o < ELEC_OPT_COUNT; o++)
		for (i = 0; i < p->n_opt_ids[o]; i++)
			if (i)
				fprintf(f, ",%u", p->opt_ids[o][i]);
			else
				fprintf(f, " --%s %u", elec_opts[o].name,
					p->opt_ids[o][i]);
	if (p->standby_faults)
		fprintf(f, " --standby-faults");
	fprintf(f, " --scenario %s", scenario_names[p->scenario]);
	if (p->initiator_all)
		fprintf(f, " --initiator all");
	else
		fprintf(f, " --initiator %u", p->initiator);
	fprintf(f, " --seed %llu", (unsigned long long)p->seed);
	if (p->lat_set)
		fprintf(f, " --latency %lluns:%lluns",
			(unsigned long long)p->lat_lo,
			(unsigned long long)p->lat_hi);
	if (p->loss > 0) {
		char buf[40];
		int prec;

		/* the shortest form that reads back as the same double */
		for (prec = 1; prec < 17; prec++) {
			snprintf(buf, sizeof(buf), "%.*g", prec, p->loss);
			if (strtod(buf, NULL) == p->loss)
				break;
		}
		snprintf(buf, sizeof(buf), "%.*g", prec, p->loss);
		fprintf(f, " --loss %s", buf);
	}
	if (p->schedule)
		fprintf(f, " --schedule '%s'", p->schedule->text);
	if (p->generator)
		fprintf(f, " --generator %s", generator_names[p->generator]);
	if (p->partitions)
		fprintf(f, " --partitions");
	if (p->fast_recover)
		fprintf(f, " --fast-recover");
	if (p->observe)
		fprintf(f, " --observe");
	if (p->duration_ns)
		put_dur(f, "--duration", p->duration_ns);
	put_options(f, &p->cfg, 2);
	if (p->json)
		fprintf(f, " --json");
	if (p->trace)
		fprintf(f, " --trace");
}

int main(int argc, char **argv)
{
	struct sim_params p;
	const char *algo = NULL, *nodes = NULL, *ids = NULL, *scen = NULL;
	const char *init = NULL, *absent = NULL, *schedule = NULL;
	const char *id_lists[ELEC_OPT_COUNT] = { NULL };
	unsigned int opts_given = 0;
	int opt;
	int generator = 0;
	char why_buf[256];
	u64 runs = 1, seeds = 1000, v;
	int check = 0, seeds_set = 0, i;
	u32 n_lo = 0, n_hi = 0, k;
	struct elec_config cfg;
	const char *why = NULL;

	if (argc > 0 && argv[0])
		prog = argv[0];
	memset(&p, 0, sizeof(p));
	p.seed = 1;
	p.lat_lo = p.lat_hi = 100000;
	elec_config_defaults(&p.cfg);

	for (i = 1; i < argc; i++) {
		char *a = argv[i], *val = NULL, *eq;
		char name[64];

		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			usage(stdout);
			return 0;
		}
		if (strncmp(a, "--", 2))
			bad("unexpected argument '%s' (try --help)", a);
		snprintf(name, sizeof(name), "%s", a);
		eq = strchr(name, '=');
		if (eq) {
			*eq = 0;
			val = strchr(a, '=') + 1;
		}
		if (!strcmp(name, "--json") || !strcmp(name, "--trace") ||
		    !strcmp(name, "--check") || !strcmp(name, "--partitions") ||
		    !strcmp(name, "--fast-recover") ||
		    !strcmp(name, "--standby-faults") ||
		    !strcmp(name, "--observe") || !strcmp(name, "--timing")) {
			if (val)
				bad("%s takes no value", name);
			if (!strcmp(name, "--json"))
				p.json = 1;
			else if (!strcmp(name, "--trace"))
				p.trace = 1;
			else if (!strcmp(name, "--partitions"))
				p.partitions = 1;
			else if (!strcmp(name, "--fast-recover"))
				p.fast_recover = 1;
			else if (!strcmp(name, "--observe"))
				p.observe = 1;
			else if (!strcmp(name, "--timing"))
				p.timing = 1;
			else if (!strcmp(name, "--standby-faults"))
				p.standby_faults = 1;
			else
				check = 1;
			continue;
		}
		if (!val) {
			if (i + 1 >= argc)
				bad("%s needs a value", name);
			val = argv[++i];
		}
		opt = strncmp(name, "--", 2) ? -1 : elec_opt_by_name(name + 2);
		if (opt >= 0 && elec_opts[opt].flags & ELEC_OPTF_SIM_IDS) {
			/* --standby LIST: read once the ids are known */
			id_lists[opt] = val;
		} else if (opt >= 0 && !(elec_opts[opt].flags & ELEC_OPTF_NODE)) {
			parse_option(name, val, opt, &p.cfg);
			opts_given |= 1U << opt;
		} else if (!strcmp(name, "--algo")) {
			algo = val;
		} else if (!strcmp(name, "--nodes")) {
			nodes = val;
		} else if (!strcmp(name, "--ids")) {
			ids = val;
		} else if (!strcmp(name, "--absent")) {
			absent = val;
		} else if (!strcmp(name, "--scenario")) {
			scen = val;
		} else if (!strcmp(name, "--initiator")) {
			init = val;
		} else if (!strcmp(name, "--auth")) {
			if (!strcmp(val, "on"))
				p.auth = 1;
			else if (strcmp(val, "off"))
				bad("--auth: '%s' is not on or off", val);
		} else if (!strcmp(name, "--jitter")) {
			char buf[128], *colon, *end;

			snprintf(buf, sizeof(buf), "%s", val);
			colon = strchr(buf, ':');
			if (colon)
				*colon = 0;
			errno = 0;
			p.jitter_p = strtod(buf, &end);
			if (!colon || errno || *end || end == buf ||
			    !(p.jitter_p >= 0) || !(p.jitter_p <= 1) ||
			    parse_dur(colon + 1, &p.jitter_max_ns) ||
			    !p.jitter_max_ns ||
			    p.jitter_max_ns > ELECTION_DUR_MAX_NS)
				bad("--jitter: '%s' is not P:MAX (a fraction in [0, 1] and a positive duration up to 60s)",
				    val);
		} else if (!strcmp(name, "--rx-cost")) {
			if (parse_dur(val, &p.rx_cost_ns) ||
			    p.rx_cost_ns > ELECTION_DUR_MAX_NS)
				bad("--rx-cost: '%s' is not a duration (0, or an integer with ns, us, ms or s, at most 60s)",
				    val);
		} else if (!strcmp(name, "--seed")) {
			if (parse_u64(val, &p.seed))
				bad("--seed: '%s' is not an unsigned integer",
				    val);
		} else if (!strcmp(name, "--latency")) {
			char buf[128], *colon;

			snprintf(buf, sizeof(buf), "%s", val);
			colon = strchr(buf, ':');
			if (colon)
				*colon = 0;
			if (parse_dur(buf, &p.lat_lo) ||
			    (colon && parse_dur(colon + 1, &p.lat_hi)))
				bad("--latency: '%s' is not DUR or DUR:DUR (integer with ns, us, ms or s)",
				    val);
			if (!colon)
				p.lat_hi = p.lat_lo;
			if (p.lat_hi < p.lat_lo)
				bad("--latency: lower bound above upper bound in '%s'",
				    val);
			if (p.lat_hi > ELECTION_DUR_MAX_NS)
				bad("--latency: '%s' above 60s", val);
			p.lat_set = 1;
		} else if (!strcmp(name, "--loss")) {
			char *end;

			errno = 0;
			p.loss = strtod(val, &end);
			if (errno || *end || end == val || !(p.loss >= 0) ||
			    !(p.loss < 1))
				bad("--loss: '%s' is not a probability in [0, 1)",
				    val);
		} else if (!strcmp(name, "--duration")) {
			if (parse_dur(val, &p.duration_ns) || !p.duration_ns)
				bad("--duration: '%s' is not a positive duration (integer with ns, us, ms or s)",
				    val);
		} else if (!strcmp(name, "--generator")) {
			for (p.generator = 0; p.generator < GEN_COUNT;
			     p.generator++)
				if (!strcmp(val, generator_names[p.generator]))
					break;
			if (p.generator == GEN_COUNT)
				bad("--generator: '%s' is not random, focused or harsh",
				    val);
			generator = 1;
		} else if (!strcmp(name, "--schedule")) {
			if (schedule)
				bad("--schedule given twice");
			schedule = val;
		} else if (!strcmp(name, "--timeline")) {
			if (!*val)
				bad("--timeline needs a file name");
			p.timeline = val;
		} else if (!strcmp(name, "--runs")) {
			if (parse_u64(val, &runs) || !runs)
				bad("--runs: '%s' is not a positive integer",
				    val);
		} else if (!strcmp(name, "--seeds")) {
			if (parse_u64(val, &seeds) || !seeds)
				bad("--seeds: '%s' is not a positive integer",
				    val);
			seeds_set = 1;
		} else {
			bad("unknown option '%s' (try --help)", name);
		}
	}

	if (!algo)
		bad("--algo is required");
	p.ops = elec_algo_find_name(algo);
	if (!p.ops) {
		char known[256];
		size_t off = 0;
		unsigned int a;

		known[0] = 0;
		for (a = 1; a <= ELEC_ALGO_MAX && off < sizeof(known); a++)
			if (elec_algo_find((u8)a))
				off += (size_t)snprintf(known + off,
							sizeof(known) - off,
							" %s",
							elec_algo_find((u8)a)->name);
		bad("unknown algorithm '%s' (known:%s)", algo, known);
	}
	for (opt = 0; opt < ELEC_OPT_COUNT; opt++)
		if ((opts_given & (1U << opt)) &&
		    !elec_opt_applies(opt, p.ops->algo))
			bad("--%s applies to %s only, not %s",
			    elec_opts[opt].name, elec_opts[opt].scope,
			    p.ops->name);
	if (absent && (elec_algo_is_ring(p.ops->algo) ||
		       p.ops->algo == ELEC_ALGO_INVITATION))
		bad("--absent applies to the Bully algorithms only (bully, min-bully, enh-bully), not %s",
		    p.ops->name);
	cfg = p.cfg;
	cfg.self_id = 1;
	cfg.group = 1;
	cfg.algo = p.ops->algo;
	if (elec_config_check(&cfg, &why))
		bad("%s", why);

	/*
	 * --schedule, or ELECTSIM_SCRIPT (for the random scenario and
	 * --check only: the variable does not disturb other scenarios)
	 */
	if (!schedule && (check || (scen && !strcmp(scen, "random")))) {
		const char *env = getenv("ELECTSIM_SCRIPT");

		if (env && *env)
			schedule = env;
	}
	if (p.rx_cost_ns && p.auth)
		bad("--rx-cost reorders the frames that wait: not with --auth on");
	if (schedule) {
		struct schedule *sc = sched_parse(schedule, why_buf,
						  sizeof(why_buf));

		if (!sc)
			bad("--schedule: %s", why_buf);
		if (!check && (!scen || strcmp(scen, "random")))
			bad("--schedule applies to --scenario random and --check");
		if (p.partitions || p.fast_recover || generator)
			bad("--schedule replaces the random schedule: not with %s",
			    p.partitions ? "--partitions" : p.fast_recover ?
			    "--fast-recover" : "--generator");
		p.schedule = sc;
	}

	if (check) {
		for (k = 0; k < ELEC_OPT_COUNT; k++)
			if (id_lists[k])
				bad("--check draws its own ids: not --%s LIST (--standby-faults draws standby sets and changes)",
				    elec_opts[k].name);
		if (ids || scen || init || absent || p.trace || p.timeline ||
		    p.timing || runs != 1)
			bad("--check takes only --algo, --nodes A..B, --seeds K, --loss P, --json (and --seed, --latency, --suppress, --ask-suspect, --preempt, --timeout and the other timer options, --schedule, --generator; not --timing)");
		n_lo = 2;
		n_hi = 12;
		if (nodes) {
			const char *dots = strstr(nodes, "..");
			char buf[64];
			u64 a, b;

			snprintf(buf, sizeof(buf), "%s", nodes);
			if (dots) {
				buf[dots - nodes] = 0;
				if (parse_u64(buf, &a) ||
				    parse_u64(dots + 2, &b))
					bad("--nodes: '%s' is not N or A..B",
					    nodes);
			} else if (parse_u64(buf, &a)) {
				bad("--nodes: '%s' is not N or A..B", nodes);
			} else {
				b = a;
			}
			if (a < 1 || b < a || b > 100000)
				bad("--nodes: '%s': need 1 <= A <= B <= 100000",
				    nodes);
			n_lo = (u32)a;
			n_hi = (u32)b;
		}
		if (p.ops->algo == ELEC_ALGO_RING_LIST &&
		    n_hi > ELECTION_RING_LIST_MAX_IDS)
			bad("--nodes: ring-list supports at most %u nodes (its id list must fit one frame)",
			    (unsigned int)ELECTION_RING_LIST_MAX_IDS);
		enh_limit(&p, n_hi, "--nodes");
		if (p.schedule && sched_min_nodes(p.schedule) > n_lo)
			bad("--schedule names id %u: --nodes must start at %u or above, not %u",
			    sched_min_nodes(p.schedule),
			    sched_min_nodes(p.schedule), n_lo);
		if (p.schedule) {
			u32 ids_lo[n_lo];

			for (k = 0; k < n_lo; k++)
				ids_lo[k] = k + 1;
			if (sched_check(p.schedule, ids_lo, n_lo, why_buf,
					sizeof(why_buf)))
				bad("--schedule: %s", why_buf);
		}
		(void)seeds_set;
		return check_main(&p, n_lo, n_hi, seeds);
	}

	if (seeds_set)
		bad("--seeds is for --check (use --runs)");
	if (!scen)
		bad("--scenario is required");
	for (p.scenario = 0; p.scenario < SC_COUNT; p.scenario++)
		if (!strcmp(scen, scenario_names[p.scenario]))
			break;
	if (p.partitions && p.scenario != SC_RANDOM)
		bad("--partitions applies to the random scenario and --check");
	if (generator && p.scenario != SC_RANDOM)
		bad("--generator applies to the random scenario and --check");
	if (p.fast_recover && p.scenario != SC_RANDOM)
		bad("--fast-recover applies to the random scenario and --check");
	if (p.scenario == SC_COUNT)
		bad("unknown scenario '%s' (known: elect boot crash-leader recover random soak join heal)",
		    scen);
	if (nodes) {
		if (parse_u64(nodes, &v) || v < 1 || v > MAX_NODES)
			bad("--nodes: '%s' is not a node count (1..%u)", nodes,
			    MAX_NODES);
		p.n = (u32)v;
	}
	if (ids) {
		u32 cnt;

		p.ids = parse_id_list(ids, "--ids", &cnt);
		if (p.n && cnt != p.n)
			bad("--ids: %u ids given but --nodes %u", cnt, p.n);
		p.n = cnt;
	} else {
		if (!p.n)
			bad("--nodes is required (N >= 1)");
		p.ids = calloc(p.n, sizeof(u32));
		if (!p.ids)
			bad("out of memory");
		for (k = 0; k < p.n; k++)
			p.ids[k] = k + 1;
	}

	if (p.ops->algo == ELEC_ALGO_RING_LIST &&
	    p.n > ELECTION_RING_LIST_MAX_IDS)
		bad("--nodes: ring-list supports at most %u nodes (its id list must fit one frame), not %u",
		    (unsigned int)ELECTION_RING_LIST_MAX_IDS, p.n);
	enh_limit(&p, p.n, ids ? "--ids" : "--nodes");
	if (absent) {
		u32 *a = parse_id_list(absent, "--absent", &p.n_absent);

		for (k = 0; k < p.n_absent; k++)
			if (!ids_has(p.ids, p.n, a[k]))
				bad("--absent: %u is not one of the node ids",
				    a[k]);
		if (p.scenario != SC_ELECT && p.scenario != SC_BOOT &&
		    p.scenario != SC_CRASH_LEADER && p.scenario != SC_JOIN)
			bad("--absent applies to the scenarios elect, boot, crash-leader and join, not %s",
			    scenario_names[p.scenario]);
		if (p.n_absent >= p.n)
			bad("--absent: no node would be left");
		p.absent = a;
	}
	for (k = 0; k < ELEC_OPT_COUNT; k++) {
		char what[48];
		u32 *a, j;

		if (!id_lists[k])
			continue;
		snprintf(what, sizeof(what), "--%s", elec_opts[k].name);
		a = parse_id_list(id_lists[k], what, &p.n_opt_ids[k]);
		for (j = 0; j < p.n_opt_ids[k]; j++)
			if (!ids_has(p.ids, p.n, a[j]))
				bad("%s: %u is not one of the node ids", what,
				    a[j]);
		p.opt_ids[k] = a;
	}
	if (!init && p.scenario == SC_JOIN)
		bad("scenario join needs --initiator ID (the node that joins)");
	if (!init)
		init = p.scenario == SC_ELECT ? "lowest" : "all";
	if (!strcmp(init, "all")) {
		if (p.scenario == SC_JOIN)
			bad("--initiator: scenario join takes one node id, not 'all'");
		p.initiator_all = 1;
	} else {
		u32 lo = 0, best = 0;

		/* the lowest present id; the best (the leader that crashes) */
		for (k = 0; k < p.n; k++) {
			u32 id = p.ids[k];

			if (ids_has(p.absent, p.n_absent, id))
				continue;
			if (!lo || id < lo)
				lo = id;
			if (!best || elec_algo_better(p.ops, id, best))
				best = id;
		}
		if (!strcmp(init, "lowest")) {
			p.initiator = lo;
		} else {
			p.initiator = parse_id(init, "--initiator");
			if (!ids_has(p.ids, p.n, p.initiator))
				bad("--initiator: %u is not one of the node ids",
				    p.initiator);
			if (ids_has(p.absent, p.n_absent, p.initiator))
				bad("--initiator: %u is absent", p.initiator);
		}
		if ((p.scenario == SC_CRASH_LEADER ||
		     p.scenario == SC_RECOVER) && p.initiator == best)
			bad("--initiator: %u is the leader that crashes", best);
		if (p.scenario == SC_BOOT || p.scenario == SC_RANDOM ||
		    p.scenario == SC_SOAK || p.scenario == SC_HEAL)
			bad("--initiator: scenario %s takes only 'all'",
			    scenario_names[p.scenario]);
	}
	if (p.scenario == SC_HEAL && p.ops->algo != ELEC_ALGO_INVITATION)
		bad("scenario heal applies to --algo invitation only (the others have no groups to merge), not %s",
		    p.ops->name);
	if ((p.scenario == SC_CRASH_LEADER || p.scenario == SC_RECOVER ||
	     p.scenario == SC_JOIN || p.scenario == SC_HEAL) &&
	    p.n - p.n_absent < 2)
		bad("scenario %s needs at least 2 nodes%s",
		    scenario_names[p.scenario],
		    p.n_absent ? " that are not absent" : "");

	if (p.schedule && sched_check(p.schedule, p.ids, p.n, why_buf,
				      sizeof(why_buf)))
		bad("--schedule: %s", why_buf);
	if (p.timeline && runs != 1)
		bad("--timeline draws one run: not with --runs %llu",
		    (unsigned long long)runs);
	for (v = 0; v < runs; v++) {
		struct run_result r;
		struct sim_params q = p;

		q.seed = p.seed + v;
		if (scenario_run(&q, &r))
			return 3;
		out_result(&q, &r);
		if (q.trace)
			fflush(stdout);
	}
	free(p.ids);
	free((void *)p.absent);
	for (k = 0; k < ELEC_OPT_COUNT; k++)
		free((void *)p.opt_ids[k]);
	return 0;
}
