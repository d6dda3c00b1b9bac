// SPDX-License-Identifier: GPL-2.0
/*
 * query.c - doit/dump selection, filtering and buffered output for the
 * read commands.
 */
#include <net/if.h>
#include <stdlib.h>

#include "query.h"

#define QUERY_ATTEMPTS	3

struct elec_query {
	const struct elec_ctx *ctx;
	const struct elec_args *filter;
	FILE *out;
	struct elec_json *j;
	elec_print_fn print;
};

void elec_json_attr_u64(struct elec_json *j, const char *key,
			struct nlattr **tb, int type)
{
	if (tb[type])
		elec_json_u64(j, key, elec_nla_u64(tb, type, 0));
	else
		elec_json_null(j, key);
}

const char *elec_reply_ifname(struct nlattr **tb, char *buf)
{
	if (tb[ELEC_ATTR_IFNAME])
		return nla_get_string(tb[ELEC_ATTR_IFNAME]);
	if (tb[ELEC_ATTR_IFINDEX] &&
	    if_indextoname(nla_get_u32(tb[ELEC_ATTR_IFINDEX]), buf))
		return buf;
	return NULL;
}

const char *elec_enum_str(const char *(*name_fn)(unsigned int), unsigned int v,
			  const char *prefix, char *buf, size_t size)
{
	const char *name = name_fn(v);

	if (name)
		return name;
	snprintf(buf, size, "%s_%u", prefix, v);
	return buf;
}

void elec_json_instance(struct elec_json *j, struct nlattr **tb)
{
	char ifbuf[IF_NAMESIZE], buf[32];
	const char *ifname = elec_reply_ifname(tb, ifbuf);

	if (ifname)
		elec_json_str(j, "ifname", ifname);
	else
		elec_json_null(j, "ifname");
	elec_json_attr_u64(j, "ifindex", tb, ELEC_ATTR_IFINDEX);
	elec_json_attr_u64(j, "group", tb, ELEC_ATTR_GROUP);
	elec_json_attr_u64(j, "id", tb, ELEC_ATTR_NODE_ID);
	if (tb[ELEC_ATTR_ALGO])
		elec_json_str(j, "algo",
			      elec_enum_str(elec_algo_name,
					    nla_get_u8(tb[ELEC_ATTR_ALGO]),
					    "algo", buf, sizeof(buf)));
	else
		elec_json_null(j, "algo");
}

static int query_cb(struct nlattr **tb, void *arg)
{
	struct elec_query *q = arg;
	const struct elec_args *f = q->filter;

	if ((f->seen & ELEC_KWB(ELEC_KW_DEV)) &&
	    (!tb[ELEC_ATTR_IFINDEX] ||
	     nla_get_u32(tb[ELEC_ATTR_IFINDEX]) != f->ifindex))
		return 0;
	if ((f->seen & ELEC_KWB(ELEC_KW_GROUP)) &&
	    (!tb[ELEC_ATTR_GROUP] ||
	     nla_get_u16(tb[ELEC_ATTR_GROUP]) != f->group))
		return 0;
	q->print(q->ctx, q->out, q->j, tb, f);
	return 0;
}

static int query_once(struct elec_ctx *ctx, uint8_t cmd,
		      const struct elec_args *a, elec_print_fn print)
{
	bool doit = (a->seen & ELEC_KWB_INSTANCE) == ELEC_KWB_INSTANCE;
	struct elec_json j;
	struct elec_query q = {
		.ctx = ctx, .filter = a, .j = &j, .print = print,
	};
	struct elec_args sent = *a;
	struct nl_msg *msg;
	char *buf = NULL;
	size_t size = 0;
	int ret;

	/* only the instance's keywords go to the kernel */
	sent.seen &= ELEC_KWB_INSTANCE;
	msg = elec_nl_msg(ctx, cmd, !doit);
	if (!msg)
		return ELEC_EXIT_FAIL;
	if (elec_nl_put_args(msg, &sent, ELEC_ATTR_NODE_ID)) {
		nlmsg_free(msg);
		return ELEC_EXIT_FAIL;
	}
	if (ctx->dry_run)
		return elec_nl_transact(ctx, msg, NULL, NULL);

	q.out = open_memstream(&buf, &size);
	if (!q.out) {
		nlmsg_free(msg);
		return elec_fail("out of memory");
	}
	elec_json_init(&j, q.out);
	if (ctx->json)
		elec_json_arr_begin(&j, NULL);
	ret = elec_nl_transact(ctx, msg, query_cb, &q);
	if (ctx->json) {
		elec_json_arr_end(&j);
		fputc('\n', q.out);
	}
	if (fclose(q.out) && !ret)
		ret = elec_fail("out of memory");
	if (!ret)
		fwrite(buf, 1, size, stdout);
	free(buf);
	return ret;
}

int elec_query(struct elec_ctx *ctx, const char *what, uint8_t cmd,
	       int argc, char **argv, elec_print_fn print)
{
	return elec_query_kw(ctx, what, cmd, ELEC_KWB_INSTANCE, argc, argv,
			     print);
}

int elec_query_kw(struct elec_ctx *ctx, const char *what, uint8_t cmd,
		  unsigned int allowed, int argc, char **argv,
		  elec_print_fn print)
{
	struct elec_args a;
	int attempt, ret = ELEC_EXIT_FAIL;

	if (elec_parse_args(ctx, what, argc, argv, allowed, 0, &a))
		return ELEC_EXIT_USAGE;
	for (attempt = 0; attempt < QUERY_ATTEMPTS; attempt++) {
		ret = query_once(ctx, cmd, &a, print);
		if (ret != ELEC_NL_DUMP_INTR)
			return ret;
	}
	return elec_fail("the dump was interrupted by changes %d times; try again",
			 QUERY_ATTEMPTS);
}
