// SPDX-License-Identifier: GPL-2.0
/*
 * stats.c - "electionctl [-j] [-s -s | -d] stats [dev IF] [group G]":
 * counters.
 *
 * The JSON tx, rx, drops and tx_drops objects list every type the name
 * tables know (0 when the kernel sent no attribute for it), then any
 * newer type the kernel reports as "<prefix>_<number>". The text lists
 * the message types and drop reasons that can count in the group
 * (stats_shown()), the counters of the options the group has, and any
 * other that is not 0; -s -s or -d lists them all, as JSON does.
 */
#include <inttypes.h>
#include <net/if.h>

#include "core.h"
#include "options.h"
#include "query.h"

/* what the text lists at 0: bit t for message type or drop reason t */
struct stats_shown {
	uint64_t msgs;
	uint64_t drops;
};

/* Value of type @type in the counter nest @nest (0 when absent). */
static uint64_t nest_counter(struct nlattr *nest, int type)
{
	struct nlattr *a;
	int rem;

	if (!nest)
		return 0;
	nla_for_each_nested(a, nest, rem)
		if (nla_type(a) == type && nla_len(a) == 8)
			return nla_get_u64(a);
	return 0;
}

/*
 * Call @emit for every counter: the known types 1..@max in order, then the
 * unknown ones found in @nest (zero-length padding attributes are
 * skipped). @shown (NULL: every one) selects the types emitted at 0; any
 * type that is not 0 is emitted.
 */
static void emit_counters(struct nlattr *nest, unsigned int max,
			  const char *(*name_fn)(unsigned int),
			  const char *prefix, const uint64_t *shown,
			  void (*emit)(void *arg, const char *name,
				       uint64_t val),
			  void *arg)
{
	struct nlattr *a;
	unsigned int t;
	uint64_t v;
	char buf[32];
	int rem;

	for (t = 1; t <= max; t++) {
		v = nest_counter(nest, (int)t);
		if (v || !shown || (t < 64 && (*shown >> t & 1)))
			emit(arg, elec_enum_str(name_fn, t, prefix, buf,
						sizeof(buf)), v);
	}
	if (!nest)
		return;
	nla_for_each_nested(a, nest, rem) {
		t = (unsigned int)nla_type(a);
		if (t > max && nla_len(a) == 8 && (!shown || nla_get_u64(a)))
			emit(arg, elec_enum_str(name_fn, t, prefix, buf,
						sizeof(buf)),
			     nla_get_u64(a));
	}
}

/*
 * The message types and drop reasons that can count in the group of
 * reply @tb: the types its algorithm sends and takes (&elec_algo_ops.msgs;
 * those only quorum sends, ELEC_MSGS_QUORUM, with quorum on; retry, the
 * re-sent hops, with ack: the algorithms that acknowledge hops); the drop
 * reasons of every group, with a key the auth_ ones, without one
 * auth_unexpected, with an algorithm that queues frames queue_full
 * (names-list.h's ELEC_DROP_WHEN_). A reply
 * without AUTH or QUORUM (an older module) counts as on; an algorithm
 * electionctl does not know shows every type and reason.
 */
static void stats_shown(struct nlattr **tb, struct stats_shown *sh)
{
	uint64_t algo = elec_nla_u64(tb, ELEC_ATTR_ALGO, 0);
	const struct elec_algo_ops *ops = algo && algo <= ELEC_ALGO_MAX ?
					  elec_algo_find((u8)algo) : NULL;
	bool key = elec_nla_u64(tb, ELEC_ATTR_AUTH, 1);
	unsigned int d;

	sh->msgs = ~0ULL;
	sh->drops = ~0ULL;
	if (!ops)
		return;
	sh->msgs = ops->msgs;
	if (!elec_nla_u64(tb, ELEC_ATTR_QUORUM, 1))
		sh->msgs &= ~(uint64_t)ELEC_MSGS_QUORUM;
	if (ops->msgs & ELEC_MSG_BIT(ELEC_MSG_ACK))
		sh->msgs |= ELEC_MSG_BIT(ELEC_MSG_RETRY);
	sh->drops = 0;
	for (d = 1; d <= ELEC_DROP_MAX; d++) {
		enum elec_drop_when w = elec_drop_when(d);

		if (w == ELEC_DROP_WHEN_ALL ||
		    (w == ELEC_DROP_WHEN_KEY && key) ||
		    (w == ELEC_DROP_WHEN_NOKEY && !key) ||
		    (w == ELEC_DROP_WHEN_QUEUE && ops->queue_bytes))
			sh->drops |= 1ULL << d;
	}
}

static void emit_json(void *arg, const char *name, uint64_t val)
{
	elec_json_u64(arg, name, val);
}

static void emit_text(void *arg, const char *name, uint64_t val)
{
	fprintf(arg, " %s %" PRIu64, name, val);
}

/*
 * The timer lateness histogram (ELEC_ATTR_TIMER_LATE): @b gets the
 * ELECTION_TIMER_LATE_BUCKETS buckets (0 when absent), @max and @count.
 * Returns false when the kernel sent none.
 */
static bool timer_late(struct nlattr **tb, uint64_t *b, uint64_t *max,
		       uint64_t *count)
{
	struct nlattr *lt[ELEC_ATTR_MAX + 1];
	unsigned int i;

	for (i = 0; i < ELECTION_TIMER_LATE_BUCKETS; i++)
		b[i] = 0;
	*max = 0;
	*count = 0;
	if (!tb[ELEC_ATTR_TIMER_LATE] ||
	    nla_parse_nested(lt, ELEC_ATTR_MAX, tb[ELEC_ATTR_TIMER_LATE],
			     elec_nl_policy) < 0)
		return false;
	for (i = 0; i < ELECTION_TIMER_LATE_BUCKETS; i++)
		b[i] = nest_counter(lt[ELEC_ATTR_TIMER_LATE_BUCKETS],
				    (int)i + 1);
	*max = elec_nla_u64(lt, ELEC_ATTR_TIMER_LATE_MAX_NS, 0);
	*count = elec_nla_u64(lt, ELEC_ATTR_TIMER_LATE_COUNT, 0);
	return true;
}

static void timer_late_json(struct elec_json *j, struct nlattr **tb)
{
	uint64_t b[ELECTION_TIMER_LATE_BUCKETS], max, count;
	unsigned int i;

	if (!timer_late(tb, b, &max, &count)) {
		elec_json_null(j, "timer_late");
		return;
	}
	elec_json_obj_begin(j, "timer_late");
	elec_json_arr_begin(j, "buckets");
	for (i = 0; i < ELECTION_TIMER_LATE_BUCKETS; i++)
		elec_json_u64(j, NULL, b[i]);
	elec_json_arr_end(j);
	elec_json_u64(j, "max_ns", max);
	elec_json_u64(j, "count", count);
	elec_json_obj_end(j);
}

/*
 * "timer_late count N max DUR" then each non-empty bucket as its upper
 * bound and count: "<1us 5 <2us 7 ... >=1048576us 1".
 */
static void timer_late_text(FILE *out, struct nlattr **tb)
{
	uint64_t b[ELECTION_TIMER_LATE_BUCKETS], max, count;
	unsigned int i;

	if (!timer_late(tb, b, &max, &count))
		return;
	fprintf(out, "\ttimer_late count %" PRIu64 " max %" PRIu64 "ns", count,
		max);
	for (i = 0; i < ELECTION_TIMER_LATE_BUCKETS; i++) {
		if (!b[i])
			continue;
		if (i < ELECTION_TIMER_LATE_BUCKETS - 1)
			fprintf(out, " <%lluus %" PRIu64, 1ULL << i, b[i]);
		else
			fprintf(out, " >=%lluus %" PRIu64, 1ULL << (i - 1),
				b[i]);
	}
	fputc('\n', out);
}

static void stats_json(struct elec_json *j, struct nlattr **tb)
{
	int i;

	elec_json_obj_begin(j, NULL);
	elec_json_instance(j, tb);
	elec_json_obj_begin(j, "tx");
	emit_counters(tb[ELEC_ATTR_TX], ELEC_MSG_MAX, elec_msg_name, "msg",
		      NULL, emit_json, j);
	elec_json_obj_end(j);
	elec_json_obj_begin(j, "rx");
	emit_counters(tb[ELEC_ATTR_RX], ELEC_MSG_MAX, elec_msg_name, "msg",
		      NULL, emit_json, j);
	elec_json_obj_end(j);
	elec_json_obj_begin(j, "drops");
	emit_counters(tb[ELEC_ATTR_DROPS], ELEC_DROP_MAX, elec_drop_name,
		      "drop", NULL, emit_json, j);
	elec_json_obj_end(j);
	/*
	 * counters-list.h in its order, with the glue's transmit errors
	 * where the first -j stats had them: after leader_changes (the text
	 * ends its line with them)
	 */
	for (i = 0; i < ELEC_CTR_COUNT; i++) {
		if (i == ELEC_CTR_elections_limited) {
			elec_json_u64(j, "tx_errors",
				      elec_nla_u64(tb, ELEC_ATTR_TX_ERRORS, 0));
			elec_json_obj_begin(j, "tx_drops");
			emit_counters(tb[ELEC_ATTR_TX_DROPS], ELEC_TX_DROP_MAX,
				      elec_tx_drop_name, "tx_drop", NULL,
				      emit_json, j);
			elec_json_obj_end(j);
		}
		elec_json_u64(j, elec_ctrs[i].name,
			      elec_nla_u64(tb, elec_ctrs[i].attr, 0));
	}
	timer_late_json(j, tb);
	elec_json_obj_end(j);
}

/* @all: -s -s or -d, every type and reason */
static void stats_text(FILE *out, struct nlattr **tb, bool all)
{
	char ifbuf[IF_NAMESIZE];
	const char *ifname = elec_reply_ifname(tb, ifbuf);
	struct stats_shown sh;
	const char *sep = "\t";
	int i;

	stats_shown(tb, &sh);
	fprintf(out, "dev %s group %" PRIu64 " id %" PRIu64 "\n",
		ifname ? ifname : "?", elec_nla_u64(tb, ELEC_ATTR_GROUP, 0),
		elec_nla_u64(tb, ELEC_ATTR_NODE_ID, 0));
	fputs("\ttx:", out);
	emit_counters(tb[ELEC_ATTR_TX], ELEC_MSG_MAX, elec_msg_name, "msg",
		      all ? NULL : &sh.msgs, emit_text, out);
	fputs("\n\trx:", out);
	emit_counters(tb[ELEC_ATTR_RX], ELEC_MSG_MAX, elec_msg_name, "msg",
		      all ? NULL : &sh.msgs, emit_text, out);
	fputs("\n\tdrops:", out);
	emit_counters(tb[ELEC_ATTR_DROPS], ELEC_DROP_MAX, elec_drop_name,
		      "drop", all ? NULL : &sh.drops, emit_text, out);
	fputs("\n\ttx_drops:", out);
	emit_counters(tb[ELEC_ATTR_TX_DROPS], ELEC_TX_DROP_MAX,
		      elec_tx_drop_name, "tx_drop", NULL, emit_text, out);
	fputc('\n', out);
	/*
	 * a counter of an option (counters-list.h's opt column) the reply
	 * says is off (QUORUM 0): only when not 0; absent counts as on
	 */
	for (i = 0; i < ELEC_CTR_COUNT; i++) {
		uint64_t v = elec_nla_u64(tb, elec_ctrs[i].attr, 0);
		unsigned int o = elec_ctrs[i].opt;

		if (!all && !v && o != ELEC_OPT_ALL &&
		    !elec_nla_u64(tb, elec_opts[o].attr, 1))
			continue;
		fprintf(out, "%s%s %" PRIu64, sep, elec_ctrs[i].name, v);
		sep = " ";
	}
	fprintf(out, "%stx_errors %" PRIu64 "\n", sep,
		elec_nla_u64(tb, ELEC_ATTR_TX_ERRORS, 0));
	timer_late_text(out, tb);
}

static void stats_print(const struct elec_ctx *ctx, FILE *out,
			struct elec_json *j, struct nlattr **tb,
			const struct elec_args *filter)
{
	(void)filter;
	if (ctx->json)
		stats_json(j, tb);
	else
		stats_text(out, tb, ctx->stats >= 2 || ctx->details);
}

int elec_cmd_stats(struct elec_ctx *ctx, int argc, char **argv)
{
	return elec_query(ctx, "stats", ELEC_CMD_STATS_GET, argc, argv,
			  stats_print);
}
