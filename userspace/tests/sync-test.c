// SPDX-License-Identifier: GPL-2.0
/*
 * sync-test.c - syncconf's comparison (ctl/syncconf.c, included for its
 * static functions) against a running configuration modelled as the
 * kernel keeps it; no kernel needed. test_cli.py checks the output.
 *
 * Usage:
 *   sync-test HAVE WANT   the commands "syncconf WANT dry-run" prints when
 *                         the running groups are the ones batch file HAVE
 *                         makes
 *   sync-test showconf HAVE   showconf of those groups
 *
 * HAVE is read as syncconf reads its file (group add, group set, peer add,
 * group start lines), so a HAVE followed by the "group set" lines
 * syncconf printed is the group those commands leave. Each group's
 * GROUP_GET reply is built as the kernel builds it: every option the
 * algorithm reports (elec_opt_reported()) at elec_opt_report()'s value,
 * which tells a pinned coord-timeout (or search-interval, ...) from a
 * worked-out one no more than the kernel's does.
 */
#include "../ctl/query.c"
#include "../ctl/showconf.c"
#include "../ctl/syncconf.c"

#define FAMILY	42

/* the validation pass: every line is valid (test_cli.py checks -check) */
static int test_run(struct elec_ctx *ctx, int argc, char **argv)
{
	(void)ctx;
	(void)argc;
	(void)argv;
	return 0;
}

/* "group add|set|start ..." and "peer add ...", the words whole */
static enum elec_line_kind test_line_kind(int argc, char **argv,
					  struct elec_batch_group *g)
{
	memset(g, 0, sizeof(*g));
	if (argc < 2)
		return ELEC_LINE_OTHER;
	if (!strcmp(argv[0], "peer"))
		return strcmp(argv[1], "add") ? ELEC_LINE_GROUP_OTHER :
						ELEC_LINE_PEER_ADD;
	if (strcmp(argv[0], "group"))
		return ELEC_LINE_OTHER;
	if (!strcmp(argv[1], "add"))
		return ELEC_LINE_GROUP_ADD;
	if (!strcmp(argv[1], "set"))
		return ELEC_LINE_GROUP_SET;
	if (!strcmp(argv[1], "start"))
		return ELEC_LINE_GROUP_START;
	return ELEC_LINE_GROUP_OTHER;
}

/* batch.c's -undo runs group del through it: syncconf never does */
int elec_cmd_group(struct elec_ctx *ctx, int argc, char **argv)
{
	(void)ctx;
	(void)argc;
	(void)argv;
	abort();
}

static const struct elec_batch_ops test_ops = {
	.run = test_run,
	.line_kind = test_line_kind,
};

static void put_width(struct nl_msg *msg, int o, uint64_t v)
{
	int err;

	switch (elec_opt_width(o)) {
	case 8:
		err = nla_put_u64(msg, elec_opts[o].attr, v);
		break;
	case 4:
		err = nla_put_u32(msg, elec_opts[o].attr, (uint32_t)v);
		break;
	default:
		err = nla_put_u8(msg, elec_opts[o].attr, (uint8_t)v);
		break;
	}
	if (err)
		abort();
}

/* the GROUP_GET reply of a group as the kernel builds it */
static struct nl_msg *reply(const struct sc_group *g, bool any_start)
{
	struct nl_msg *msg = nlmsg_alloc();
	struct nlattr *peers;
	size_t i;
	int o;

	if (!msg || !genlmsg_put(msg, 0, 0, FAMILY, 0, 0, ELEC_CMD_GROUP_GET,
				 1) ||
	    nla_put_u32(msg, ELEC_ATTR_IFINDEX, g->ifindex) ||
	    nla_put_string(msg, ELEC_ATTR_IFNAME, g->dev) ||
	    nla_put_u16(msg, ELEC_ATTR_GROUP, g->group) ||
	    nla_put_u32(msg, ELEC_ATTR_NODE_ID, g->cfg.self_id) ||
	    nla_put_u8(msg, ELEC_ATTR_ALGO, g->cfg.algo) ||
	    nla_put_u8(msg, ELEC_ATTR_ADMIN_UP, g->up || !any_start) ||
	    nla_put_u8(msg, ELEC_ATTR_AUTH, !!g->key_file) ||
	    nla_put_u8(msg, ELEC_ATTR_AUTH_NEXT, !!g->key_next_file))
		abort();
	for (o = 0; o < ELEC_OPT_COUNT; o++)
		if (elec_opt_reported(o, g->cfg.algo))
			put_width(msg, o, elec_opt_report(&g->cfg, o));
	peers = nla_nest_start(msg, ELEC_ATTR_PEERS);
	if (!peers)
		abort();
	for (i = 0; i < g->n_peers; i++) {
		struct nlattr *p = nla_nest_start(msg, ELEC_ATTR_PEER);
		const struct sc_peer *sp = &g->peers[i];

		if (!p || nla_put_u32(msg, ELEC_ATTR_PEER_ID, sp->id) ||
		    nla_put(msg, ELEC_ATTR_PEER_LLADDR, 6, sp->lladdr) ||
		    nla_put_u32(msg, ELEC_ATTR_PEER_POS, sc_pos(sp)))
			abort();
		nla_nest_end(msg, p);
	}
	nla_nest_end(msg, peers);
	return msg;
}

int main(int argc, char **argv)
{
	struct elec_ctx ctx = { .family = FAMILY, .dry_run = true };
	struct sc_state have = { .ctx = &ctx, .ops = &test_ops };
	struct sc_state st = { .ctx = &ctx, .ops = &test_ops, .dry = true };
	bool show = argc == 3 && !strcmp(argv[1], "showconf");
	struct elec_args none = { 0 };
	struct elec_query q = { .ctx = &ctx, .out = stdout, .filter = &none,
				.print = showconf_print };
	int ret;
	size_t i;

	if (argc != 3)
		return 2;
	ret = elec_batch_each(&ctx, argv[show ? 2 : 1], &test_ops, sc_line,
			      &have);
	if (!ret && !show)
		ret = elec_batch_each(&ctx, argv[2], &test_ops, sc_line, &st);
	for (i = 0; !ret && i < have.want.n; i++) {
		struct nl_msg *msg = reply(&have.want.g[i], have.any_start);
		struct nlattr *tb[ELEC_ATTR_MAX + 1];

		if (elec_nl_parse(&ctx, nlmsg_hdr(msg), tb, NULL))
			abort();
		if (show)
			ret = query_cb(tb, &q);
		else
			ret = sc_have_cb(tb, &st.have);
		nlmsg_free(msg);
	}
	if (!ret && !show)
		ret = sc_apply(&st);
	sc_free(&have.want);
	sc_free(&have.have);
	sc_free(&st.want);
	sc_free(&st.have);
	return ret;
}
