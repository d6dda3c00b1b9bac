// SPDX-License-Identifier: GPL-2.0
/*
 * algo.c - "electionctl [-j] algo [ NAME ]": the algorithms the module
 * has, each with its message types and the options it takes
 * (ELEC_CMD_ALGO_GET), checked against the list electionctl was built
 * from (module/core/options.h and the algorithm tables): a module built
 * from another list is said so, with the first difference, on stderr
 * (and "matches": false with -j). electionctl checks a group's options
 * against its own list before it sends them.
 */
#include <inttypes.h>
#include <string.h>

#include "core.h"
#include "json.h"
#include "nl.h"
#include "parse.h"

#define ALGO_SEEN_MAX	64

struct algo_dump {
	struct elec_ctx *ctx;
	struct elec_json j;
	unsigned int n;
	uint64_t seen;		/* bit: an algorithm number the module has */
	char diff[160];		/* the first difference found */
};

/* the options of a reply as a set of option bits; unknown attrs: -1 */
static int reply_options(struct nlattr *nest, uint32_t *set, bool *unknown)
{
	struct nlattr *a;
	int rem;

	*set = 0;
	*unknown = false;
	if (!nest)
		return 0;
	nla_for_each_nested(a, nest, rem) {
		int o;

		if (nla_type(a) != ELEC_ATTR_ALGO_OPT || nla_len(a) < 2)
			continue;
		o = elec_opt_by_attr(nla_get_u16(a));
		if (o < 0)
			*unknown = true;
		else
			*set |= 1U << o;
	}
	return 0;
}

static uint32_t own_options(unsigned int algo)
{
	uint32_t set = 0;
	int o;

	for (o = 0; o < ELEC_OPT_COUNT; o++)
		if (elec_opt_applies(o, (u8)algo))
			set |= 1U << o;
	return set;
}

/* record the first difference between the module's row and ours */
static bool compare(struct algo_dump *d, unsigned int algo, const char *name,
		    uint32_t msgs, uint32_t opts, bool unknown, uint32_t hash)
{
	const struct elec_algo_ops *ops = algo <= ELEC_ALGO_MAX ?
					  elec_algo_find((u8)algo) : NULL;
	const char *why = NULL;

	if (!ops)
		why = "an algorithm electionctl does not know";
	else if (strcmp(ops->name, name))
		why = "another name";
	else if (unknown)
		why = "an option electionctl does not know";
	else if (opts != own_options(algo))
		why = "another option set";
	else if (msgs != ops->msgs)
		why = "other message types";
	else if (hash != elec_opt_list_hash())
		why = "another option list (a range, a default or a kind)";
	if (why && !d->diff[0])
		snprintf(d->diff, sizeof(d->diff),
			 "algorithm %u (\"%s\") has %s", algo, name, why);
	return !why;
}

static void print_set_text(const char *what, bool first_word, uint32_t set,
			   const char *(*name)(unsigned int), unsigned int max)
{
	unsigned int i;
	bool first = true;

	printf("%s%s", first_word ? "" : " ", what);
	for (i = 0; i <= max && i < 32; i++) {
		if (!(set & (1U << i)))
			continue;
		printf("%s%s", first ? " " : ",", name(i) ?: "?");
		first = false;
	}
	if (first)
		fputs(" none", stdout);
}

static const char *opt_name(unsigned int o)
{
	return o < ELEC_OPT_COUNT ? elec_opts[o].name : NULL;
}

static int algo_cb(struct nlattr **tb, void *arg)
{
	struct algo_dump *d = arg;
	unsigned int algo, i;
	uint32_t msgs, opts;
	const char *name;
	bool unknown;
	bool same;

	if (!tb[ELEC_ATTR_ALGO] || !tb[ELEC_ATTR_ALGO_NAME])
		return elec_fail("incomplete reply from the kernel");
	algo = nla_get_u8(tb[ELEC_ATTR_ALGO]);
	name = nla_get_string(tb[ELEC_ATTR_ALGO_NAME]);
	msgs = (uint32_t)elec_nla_u64(tb, ELEC_ATTR_ALGO_MSGS, 0);
	reply_options(tb[ELEC_ATTR_ALGO_OPTS], &opts, &unknown);
	if (algo < ALGO_SEEN_MAX)
		d->seen |= 1ULL << algo;
	same = compare(d, algo, name, msgs, opts, unknown,
		       (uint32_t)elec_nla_u64(tb, ELEC_ATTR_OPTS_HASH,
					      elec_opt_list_hash()));
	d->n++;
	if (d->ctx->json) {
		elec_json_obj_begin(&d->j, NULL);
		elec_json_str(&d->j, "algo", name);
		elec_json_u64(&d->j, "id", algo);
		elec_json_arr_begin(&d->j, "messages");
		for (i = 0; i <= ELEC_MSG_MAX; i++)
			if (msgs & (1U << i))
				elec_json_str(&d->j, NULL,
					      elec_msg_name(i) ?: "?");
		elec_json_arr_end(&d->j);
		elec_json_arr_begin(&d->j, "options");
		for (i = 0; i < ELEC_OPT_COUNT; i++)
			if (opts & (1U << i))
				elec_json_str(&d->j, NULL, elec_opts[i].name);
		elec_json_arr_end(&d->j);
		elec_json_bool(&d->j, "matches", same);
		elec_json_obj_end(&d->j);
		return 0;
	}
	printf("%s id %u", name, algo);
	print_set_text("messages", false, msgs, elec_msg_name, ELEC_MSG_MAX);
	print_set_text("options", false, opts, opt_name, ELEC_OPT_COUNT - 1);
	putchar('\n');
	return 0;
}

int elec_cmd_algo(struct elec_ctx *ctx, int argc, char **argv)
{
	struct algo_dump d;
	const struct elec_algo_ops *ops = NULL;
	struct nl_msg *msg;
	uint8_t one = 0;
	unsigned int a;
	int ret;

	memset(&d, 0, sizeof(d));
	d.ctx = ctx;
	if (argc > 1)
		return elec_err("unexpected argument \"%s\" for \"algo\"",
				argv[1]);
	if (argc == 1) {
		uint64_t v;

		ops = elec_algo_find_name(argv[0]);
		/* a number: a known one, or (--unchecked) any u8, to test */
		if (!ops && !elec_parse_uint(argv[0], 0, UINT8_MAX, &v)) {
			one = (uint8_t)v;
			ops = elec_algo_find(one);
			if (!ops && !ctx->unchecked)
				return elec_err("unknown algorithm %s for \"algo\"",
						argv[0]);
		} else if (ops) {
			one = ops->algo;
		} else {
			return elec_err("unknown algorithm \"%s\" for \"algo\"",
					argv[0]);
		}
	}
	msg = elec_nl_msg(ctx, ELEC_CMD_ALGO_GET, argc == 0);
	if (!msg)
		return ELEC_EXIT_FAIL;
	if (argc == 1 && nla_put_u8(msg, ELEC_ATTR_ALGO, one) < 0) {
		elec_nl_msg_free(msg);
		return elec_fail("cannot build the request");
	}
	if (ctx->json && !ctx->dry_run) {
		elec_json_init(&d.j, stdout);
		elec_json_arr_begin(&d.j, NULL);
	}
	ret = elec_nl_transact(ctx, msg, algo_cb, &d);
	if (ctx->dry_run)
		return ret;
	if (ctx->json) {
		elec_json_arr_end(&d.j);
		putchar('\n');
	}
	if (ret)
		return ret;
	/* a dump: the algorithms we have and the module lacks */
	for (a = 1; argc == 0 && a <= ELEC_ALGO_MAX && a < ALGO_SEEN_MAX; a++)
		if (elec_algo_find((u8)a) && !(d.seen & (1ULL << a)) &&
		    !d.diff[0])
			snprintf(d.diff, sizeof(d.diff),
				 "algorithm %u (\"%s\") is missing", a,
				 elec_algo_name(a));
	if (d.diff[0]) {
		fflush(stdout);
		fprintf(stderr, "Warning: the module was built from another option and algorithm list than electionctl %s: %s\n",
			ELECTION_VERSION, d.diff);
	}
	return 0;
}
