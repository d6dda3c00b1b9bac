// SPDX-License-Identifier: GPL-2.0
/*
 * show.c - "electionctl [-j] show [dev IF] [group G]": instance state.
 */
#include <inttypes.h>
#include <net/if.h>
#include <string.h>

#include "query.h"

/* a u8 0/1 attribute as a JSON boolean, null when absent */
static void json_opt_bool(struct elec_json *j, const char *key,
			  struct nlattr **tb, int type)
{
	if (tb[type])
		elec_json_bool(j, key, nla_get_u8(tb[type]));
	else
		elec_json_null(j, key);
}

/* invitation's own options, shown with its group (show_json_inv()) */
static bool inv_option(int o)
{
	return elec_opt_algos(o) == ELEC_ALGO_BIT(ELEC_ALGO_INVITATION);
}

/*
 * One option of options-list.h from the reply: a number, or on/off as a
 * boolean, keyed as elec_opt_json_key() says. Absent: null for the
 * options the kernel reports for every algorithm, nothing for the others.
 */
static void json_option(struct elec_json *j, struct nlattr **tb, int o)
{
	const struct elec_opt_desc *d = &elec_opts[o];
	char key[40];

	elec_opt_json_key(o, key, sizeof(key));
	if (!tb[d->attr]) {
		if (d->flags & ELEC_OPTF_ALL ||
		    (d->flags & ELEC_OPTF_REPORT_ALL) || inv_option(o))
			elec_json_null(j, key);
		return;
	}
	if (d->kind == ELEC_OPTK_ON || d->kind == ELEC_OPTK_OFF)
		elec_json_bool(j, key, elec_nla_u64(tb, d->attr, 0));
	else if (d->kind == ELEC_OPTK_WORD)
		elec_json_str(j, key, elec_opt_word(o, elec_nla_u64(tb, d->attr,
							     0)) ?: "?");
	else
		elec_json_u64(j, key, elec_nla_u64(tb, d->attr, 0));
}

/*
 * The ids of the local node's group as it knows it, ascending: itself
 * (when it is in a group) and every peer flagged a member. Returns the
 * count; at most @cap are stored.
 */
static unsigned int inv_members(struct nlattr **tb, uint32_t *ids,
				 unsigned int cap)
{
	uint32_t self = (uint32_t)elec_nla_u64(tb, ELEC_ATTR_NODE_ID, 0);
	bool in_group = elec_nla_u64(tb, ELEC_ATTR_INV_COORDINATOR, 0) != 0;
	unsigned int n = 0;
	struct nlattr *peer;
	int rem;

	if (!tb[ELEC_ATTR_PEERS])
		return in_group && cap ? (ids[0] = self, 1) : 0;
	nla_for_each_nested(peer, tb[ELEC_ATTR_PEERS], rem) {
		struct nlattr *pt[ELEC_ATTR_MAX + 1];
		uint32_t id;

		if (nla_type(peer) != ELEC_ATTR_PEER ||
		    nla_parse_nested(pt, ELEC_ATTR_MAX, peer,
				     elec_nl_policy) < 0 ||
		    !elec_nla_u64(pt, ELEC_ATTR_PEER_MEMBER, 0))
			continue;
		id = (uint32_t)elec_nla_u64(pt, ELEC_ATTR_PEER_ID, 0);
		/* the kernel lists peers by ascending id */
		if (in_group && self < id) {
			if (n < cap)
				ids[n] = self;
			n++;
			in_group = false;
		}
		if (n < cap)
			ids[n] = id;
		n++;
	}
	if (in_group) {
		if (n < cap)
			ids[n] = self;
		n++;
	}
	return n;
}

/* invitation: the group number, the membership, the search period */
static void show_json_inv(struct elec_json *j, struct nlattr **tb)
{
	uint32_t ids[ELECTION_MAX_NODES];
	unsigned int i, n = inv_members(tb, ids, ELECTION_MAX_NODES);

	elec_json_attr_u64(j, "inv_seq", tb, ELEC_ATTR_INV_SEQ);
	if (elec_nla_u64(tb, ELEC_ATTR_INV_COORDINATOR, 0))
		elec_json_attr_u64(j, "inv_coordinator", tb,
				   ELEC_ATTR_INV_COORDINATOR);
	else
		elec_json_null(j, "inv_coordinator");
	elec_json_arr_begin(j, "members");
	for (i = 0; i < n && i < ELECTION_MAX_NODES; i++)
		elec_json_u64(j, NULL, ids[i]);
	elec_json_arr_end(j);
	for (i = 0; i < ELEC_OPT_COUNT; i++)
		if (inv_option((int)i))
			json_option(j, tb, (int)i);
}

/* a MAC attribute as "aa:bb:..", null when absent */
static void json_mac(struct elec_json *j, const char *key, struct nlattr *a)
{
	char mac[18];

	if (!a) {
		elec_json_null(j, key);
		return;
	}
	elec_fmt_mac(mac, sizeof(mac), nla_data(a));
	elec_json_str(j, key, mac);
}

/* the source address seen differs from the configured one */
static bool peer_mismatch(struct nlattr **pt)
{
	return pt[ELEC_ATTR_PEER_SEEN_LLADDR] && pt[ELEC_ATTR_PEER_LLADDR] &&
	       memcmp(nla_data(pt[ELEC_ATTR_PEER_SEEN_LLADDR]),
		      nla_data(pt[ELEC_ATTR_PEER_LLADDR]), 6);
}

/*
 * Whether to report a peer alive: not declared failed (PEER_ALIVE, absent
 * from old kernels: alive) and heard. A kernel that reports detection
 * windows (every peer has PEER_DETECT_WINDOW_NS) reports PEER_HEARD_AGO_NS
 * for every peer heard, so a peer without it was never heard: the
 * algorithms count it as up, but nothing says it is there.
 */
static bool peer_alive(struct nlattr **pt)
{
	if (!elec_nla_u64(pt, ELEC_ATTR_PEER_ALIVE, 1))
		return false;
	return pt[ELEC_ATTR_PEER_HEARD_AGO_NS] ||
	       !pt[ELEC_ATTR_PEER_DETECT_WINDOW_NS];
}

/* the members of one peer's object (show's peers, peer show) */
static void peer_json(struct elec_json *j, struct nlattr **pt)
{
	elec_json_attr_u64(j, "id", pt, ELEC_ATTR_PEER_ID);
	json_mac(j, "lladdr", pt[ELEC_ATTR_PEER_LLADDR]);
	/* absent means never declared failed */
	elec_json_bool(j, "alive", peer_alive(pt));
	elec_json_attr_u64(j, "pos", pt, ELEC_ATTR_PEER_POS);
	if (pt[ELEC_ATTR_PEER_MEMBER])
		elec_json_bool(j, "member",
			       nla_get_u8(pt[ELEC_ATTR_PEER_MEMBER]));
	/* null: never heard (or a kernel that does not say) */
	if (pt[ELEC_ATTR_PEER_HEARD_AGO_NS]) {
		uint64_t ns = nla_get_u64(pt[ELEC_ATTR_PEER_HEARD_AGO_NS]);

		elec_json_u64(j, "heard_ms_ago", ns / 1000000);
		elec_json_u64(j, "heard_ns_ago", ns);
	} else {
		elec_json_null(j, "heard_ms_ago");
		elec_json_null(j, "heard_ns_ago");
	}
	json_mac(j, "seen_lladdr", pt[ELEC_ATTR_PEER_SEEN_LLADDR]);
	elec_json_bool(j, "lladdr_mismatch", peer_mismatch(pt));
	/* the failure detector's window for it as leader */
	if (pt[ELEC_ATTR_PEER_DETECT_WINDOW_NS])
		elec_json_attr_u64(j, "detect_window_ns", pt,
				   ELEC_ATTR_PEER_DETECT_WINDOW_NS);
	else
		elec_json_null(j, "detect_window_ns");
	/* null: no round trip measured yet (or a kernel that does not say) */
	if (pt[ELEC_ATTR_PEER_RTT_NS])
		elec_json_attr_u64(j, "rtt_ns", pt, ELEC_ATTR_PEER_RTT_NS);
	else
		elec_json_null(j, "rtt_ns");
}

static void show_json(struct elec_json *j, struct nlattr **tb)
{
	char buf[32];
	struct nlattr *peer;
	int rem, o;

	elec_json_obj_begin(j, NULL);
	elec_json_instance(j, tb);
	if (tb[ELEC_ATTR_ROLE])
		elec_json_str(j, "role",
			      elec_enum_str(elec_role_name,
					    nla_get_u8(tb[ELEC_ATTR_ROLE]),
					    "role", buf, sizeof(buf)));
	else
		elec_json_null(j, "role");
	if (elec_nla_u64(tb, ELEC_ATTR_LEADER, 0))
		elec_json_attr_u64(j, "leader", tb, ELEC_ATTR_LEADER);
	else
		elec_json_null(j, "leader");
	elec_json_attr_u64(j, "term", tb, ELEC_ATTR_TERM);
	elec_json_bool(j, "participant",
		       elec_nla_u64(tb, ELEC_ATTR_PARTICIPANT, 0));
	/* started (group start) and not stopped; null from an older kernel */
	json_opt_bool(j, "admin_up", tb, ELEC_ATTR_ADMIN_UP);
	/*
	 * the options in options-list.h order: every algorithm's, then the
	 * algorithm's own (suppress: ring only; the Bully options: every
	 * algorithm, the others report the defaults); invitation's with its
	 * group below
	 */
	for (o = 0; o < ELEC_OPT_COUNT; o++)
		if (!inv_option(o))
			json_option(j, tb, o);
	/* a key is set (never the key itself); absent from an older kernel */
	if (tb[ELEC_ATTR_AUTH])
		elec_json_bool(j, "auth", nla_get_u8(tb[ELEC_ATTR_AUTH]));
	/* a second key is accepted (a key rotation); absent: older kernel */
	if (tb[ELEC_ATTR_AUTH_NEXT])
		elec_json_bool(j, "auth_next",
			       nla_get_u8(tb[ELEC_ATTR_AUTH_NEXT]));
	if (tb[ELEC_ATTR_INV_SEQ])
		show_json_inv(j, tb);
	/* the device: its MTU and own address (the frames' source) */
	elec_json_attr_u64(j, "mtu", tb, ELEC_ATTR_MTU);
	if (tb[ELEC_ATTR_LLADDR]) {
		char mac[18];

		elec_fmt_mac(mac, sizeof(mac), nla_data(tb[ELEC_ATTR_LLADDR]));
		elec_json_str(j, "lladdr", mac);
	} else {
		elec_json_null(j, "lladdr");
	}
	elec_json_arr_begin(j, "peers");
	if (tb[ELEC_ATTR_PEERS]) {
		nla_for_each_nested(peer, tb[ELEC_ATTR_PEERS], rem) {
			struct nlattr *pt[ELEC_ATTR_MAX + 1];

			if (nla_type(peer) != ELEC_ATTR_PEER ||
			    nla_parse_nested(pt, ELEC_ATTR_MAX, peer,
					     elec_nl_policy) < 0)
				continue;
			elec_json_obj_begin(j, NULL);
			peer_json(j, pt);
			elec_json_obj_end(j);
		}
	}
	elec_json_arr_end(j);
	elec_json_obj_end(j);
}

/* Print " name value"; the first item of a line starts it with a tab. */
static void print_item(FILE *out, bool *first, const char *name,
		       const char *val)
{
	fprintf(out, "%s%s %s", *first ? "\t" : " ", name, val);
	*first = false;
}

/* End a line of items, if one began. */
static void end_items(FILE *out, bool *first)
{
	if (!*first)
		fputc('\n', out);
	*first = true;
}

/* one option of options-list.h from the reply, when present */
static void text_option(FILE *out, bool *first, struct nlattr **tb, int o)
{
	const struct elec_opt_desc *d = &elec_opts[o];
	uint64_t v = elec_nla_u64(tb, d->attr, 0);
	char buf[32];

	if (!tb[d->attr])
		return;
	switch (d->kind) {
	case ELEC_OPTK_DUR:
	case ELEC_OPTK_DUR0:
		if (v)
			elec_fmt_dur(buf, sizeof(buf), v);
		else
			snprintf(buf, sizeof(buf), "0");
		break;
	case ELEC_OPTK_ON:
	case ELEC_OPTK_OFF:
		snprintf(buf, sizeof(buf), "%s", v ? "on" : "off");
		break;
	case ELEC_OPTK_WORD:
		snprintf(buf, sizeof(buf), "%s", elec_opt_word(o, v) ?: "?");
		break;
	default:
		snprintf(buf, sizeof(buf), "%" PRIu64, v);
		break;
	}
	print_item(out, first, d->name, buf);
}

/* "peer ID lladdr MAC alive yes ..." and a newline */
static void peer_text(FILE *out, struct nlattr **pt)
{
	char mac[18] = "?";

	if (pt[ELEC_ATTR_PEER_LLADDR])
		elec_fmt_mac(mac, sizeof(mac),
			     nla_data(pt[ELEC_ATTR_PEER_LLADDR]));
	fprintf(out, "peer %" PRIu64 " lladdr %s alive %s",
		elec_nla_u64(pt, ELEC_ATTR_PEER_ID, 0), mac,
		peer_alive(pt) ? "yes" : "no");
	if (pt[ELEC_ATTR_PEER_POS])
		fprintf(out, " pos %u", nla_get_u32(pt[ELEC_ATTR_PEER_POS]));
	if (pt[ELEC_ATTR_PEER_MEMBER])
		fprintf(out, " member %s",
			nla_get_u8(pt[ELEC_ATTR_PEER_MEMBER]) ? "yes" : "no");
	/*
	 * for people: "heard 17.4 s ago" (below a second "heard 12.3 ms
	 * ago"; -j has the ns); "never heard" without a time from a kernel
	 * that reports the times (it reports PEER_DETECT_WINDOW_NS for
	 * every peer, and such a peer not alive)
	 */
	if (pt[ELEC_ATTR_PEER_HEARD_AGO_NS]) {
		uint64_t ns = nla_get_u64(pt[ELEC_ATTR_PEER_HEARD_AGO_NS]);
		bool s = ns >= 1000000000;
		uint64_t tenths = ns / (s ? 100000000 : 100000);

		fprintf(out, " heard %" PRIu64 ".%" PRIu64 " %s ago",
			tenths / 10, tenths % 10, s ? "s" : "ms");
	} else if (pt[ELEC_ATTR_PEER_DETECT_WINDOW_NS]) {
		fputs(" never heard", out);
	}
	if (pt[ELEC_ATTR_PEER_DETECT_WINDOW_NS]) {
		uint64_t us = nla_get_u64(pt[ELEC_ATTR_PEER_DETECT_WINDOW_NS]) /
			      1000;

		fprintf(out, " window %" PRIu64 ".%03" PRIu64 "ms",
			us / 1000, us % 1000);
	}
	if (pt[ELEC_ATTR_PEER_RTT_NS]) {
		uint64_t us = nla_get_u64(pt[ELEC_ATTR_PEER_RTT_NS]) / 1000;

		fprintf(out, " rtt %" PRIu64 ".%03" PRIu64 "ms", us / 1000,
			us % 1000);
	}
	if (peer_mismatch(pt)) {
		elec_fmt_mac(mac, sizeof(mac),
			     nla_data(pt[ELEC_ATTR_PEER_SEEN_LLADDR]));
		fprintf(out, " seen-lladdr %s (differs from lladdr)", mac);
	}
	fputc('\n', out);
}

static void show_text(FILE *out, struct nlattr **tb)
{
	char ifbuf[IF_NAMESIZE], buf[32];
	const char *ifname = elec_reply_ifname(tb, ifbuf);
	uint64_t leader = elec_nla_u64(tb, ELEC_ATTR_LEADER, 0);
	struct nlattr *peer;
	bool first = true;
	int rem, o;

	fprintf(out, "dev %s group %" PRIu64 " id %" PRIu64,
		ifname ? ifname : "?", elec_nla_u64(tb, ELEC_ATTR_GROUP, 0),
		elec_nla_u64(tb, ELEC_ATTR_NODE_ID, 0));
	fprintf(out, " algo %s",
		elec_enum_str(elec_algo_name,
			      (unsigned int)elec_nla_u64(tb, ELEC_ATTR_ALGO, 0),
			      "algo", buf, sizeof(buf)));
	/* "leader N" first: "role leader leader N" reads as a stutter */
	if (leader)
		fprintf(out, " leader %" PRIu64, leader);
	else
		fputs(" leader none", out);
	fprintf(out, " term %" PRIu64, elec_nla_u64(tb, ELEC_ATTR_TERM, 0));
	fprintf(out, " role %s",
		elec_enum_str(elec_role_name,
			      (unsigned int)elec_nla_u64(tb, ELEC_ATTR_ROLE, 0),
			      "role", buf, sizeof(buf)));
	fprintf(out, " participant %s\n",
		elec_nla_u64(tb, ELEC_ATTR_PARTICIPANT, 0) ? "yes" : "no");
	/*
	 * a line of the options every algorithm has and the algorithm's own
	 * (suppress), with auth; a line of those reported for every
	 * algorithm (the Bully options); invitation's with its group
	 */
	for (o = 0; o < ELEC_OPT_COUNT; o++)
		if (!(elec_opts[o].flags & ELEC_OPTF_REPORT_ALL) &&
		    !inv_option(o))
			text_option(out, &first, tb, o);
	if (tb[ELEC_ATTR_AUTH])
		print_item(out, &first, "auth",
			   nla_get_u8(tb[ELEC_ATTR_AUTH]) ? "on" : "off");
	if (elec_nla_u64(tb, ELEC_ATTR_AUTH_NEXT, 0))
		print_item(out, &first, "auth-next", "on");
	end_items(out, &first);
	for (o = 0; o < ELEC_OPT_COUNT; o++)
		if (elec_opts[o].flags & ELEC_OPTF_REPORT_ALL)
			text_option(out, &first, tb, o);
	end_items(out, &first);
	if (tb[ELEC_ATTR_INV_SEQ]) {
		uint32_t ids[ELECTION_MAX_NODES];
		unsigned int i, n = inv_members(tb, ids, ELECTION_MAX_NODES);

		fprintf(out, "\tinv-seq %" PRIu64 " inv-coordinator %" PRIu64,
			elec_nla_u64(tb, ELEC_ATTR_INV_SEQ, 0),
			elec_nla_u64(tb, ELEC_ATTR_INV_COORDINATOR, 0));
		first = false;
		for (o = 0; o < ELEC_OPT_COUNT; o++)
			if (inv_option(o))
				text_option(out, &first, tb, o);
		first = true;
		fputs(" members", out);
		for (i = 0; i < n && i < ELECTION_MAX_NODES; i++)
			fprintf(out, "%s%u", i ? "," : " ", ids[i]);
		if (!n)
			fputs(" none", out);
		fputc('\n', out);
	}
	if (tb[ELEC_ATTR_MTU] || tb[ELEC_ATTR_LLADDR]) {
		if (tb[ELEC_ATTR_LLADDR]) {
			elec_fmt_mac(buf, sizeof(buf),
				     nla_data(tb[ELEC_ATTR_LLADDR]));
			print_item(out, &first, "lladdr", buf);
		}
		if (tb[ELEC_ATTR_MTU]) {
			snprintf(buf, sizeof(buf), "%u",
				 nla_get_u32(tb[ELEC_ATTR_MTU]));
			print_item(out, &first, "mtu", buf);
		}
		end_items(out, &first);
	}
	if (!tb[ELEC_ATTR_PEERS])
		return;
	nla_for_each_nested(peer, tb[ELEC_ATTR_PEERS], rem) {
		struct nlattr *pt[ELEC_ATTR_MAX + 1];

		if (nla_type(peer) != ELEC_ATTR_PEER ||
		    nla_parse_nested(pt, ELEC_ATTR_MAX, peer,
				     elec_nl_policy) < 0)
			continue;
		fputc('\t', out);
		peer_text(out, pt);
	}
}

static void show_print(const struct elec_ctx *ctx, FILE *out,
		       struct elec_json *j, struct nlattr **tb,
		       const struct elec_args *filter)
{
	(void)filter;
	if (ctx->json)
		show_json(j, tb);
	else
		show_text(out, tb);
}

/*
 * One value of the instance, bare ("show dev IF group G leader"): the
 * fields a script asks for. ELEC_FIELD_IS_LEADER is is-leader's question.
 */
enum show_field {
	ELEC_FIELD_LEADER,
	ELEC_FIELD_ROLE,
	ELEC_FIELD_TERM,
	ELEC_FIELD_COUNT,
	ELEC_FIELD_IS_LEADER = ELEC_FIELD_COUNT,
};

static const char *const show_fields[ELEC_FIELD_COUNT] = {
	[ELEC_FIELD_LEADER] = "leader",
	[ELEC_FIELD_ROLE] = "role",
	[ELEC_FIELD_TERM] = "term",
};

/* what the field printer prints, and what is-leader learned */
static struct {
	enum show_field field;
	bool json;		/* -j: a JSON value, not in an array */
	unsigned int replies;
	bool leads;
} show_one;

static void show_field_print(const struct elec_ctx *ctx, FILE *out,
			     struct elec_json *j, struct nlattr **tb,
			     const struct elec_args *filter)
{
	uint64_t leader = elec_nla_u64(tb, ELEC_ATTR_LEADER, 0);
	unsigned int role = (unsigned int)elec_nla_u64(tb, ELEC_ATTR_ROLE, 0);
	char buf[32];

	(void)ctx;
	(void)filter;
	(void)j;
	show_one.replies++;
	switch (show_one.field) {
	case ELEC_FIELD_LEADER:
		if (leader)
			fprintf(out, "%" PRIu64 "\n", leader);
		else
			fputs(show_one.json ? "null\n" : "none\n", out);
		break;
	case ELEC_FIELD_ROLE:
		fprintf(out, show_one.json ? "\"%s\"\n" : "%s\n",
			elec_enum_str(elec_role_name, role, "role", buf,
				      sizeof(buf)));
		break;
	case ELEC_FIELD_TERM:
		fprintf(out, "%" PRIu64 "\n",
			elec_nla_u64(tb, ELEC_ATTR_TERM, 0));
		break;
	case ELEC_FIELD_IS_LEADER:
		show_one.leads = role == ELEC_ROLE_LEADER;
		break;
	}
}

/* the bare field named by the last word, -1 when it names none */
static int show_field_of(int argc, char **argv)
{
	int f;

	/* after "dev IF group G": keywords come with values, so an odd count */
	if (argc < 1 || !(argc & 1))
		return -1;
	for (f = 0; f < ELEC_FIELD_COUNT; f++)
		if (!strcmp(argv[argc - 1], show_fields[f]))
			return f;
	return -1;
}

/* one instance's field: dev and group both named, one reply */
static int show_field_query(struct elec_ctx *ctx, const char *what,
			    enum show_field field, int argc, char **argv)
{
	struct elec_args a;
	int ret;

	if (elec_parse_args(ctx, what, argc, argv, ELEC_KWB_INSTANCE, 0, &a))
		return ELEC_EXIT_USAGE;
	if ((a.seen & ELEC_KWB_INSTANCE) != ELEC_KWB_INSTANCE)
		return elec_err("\"%s\" needs \"dev\" and \"group\"", what);
	show_one.field = field;
	show_one.json = ctx->json;
	show_one.replies = 0;
	show_one.leads = false;
	/* the bare value, not the array -j wraps replies in */
	ctx->json = false;
	ret = elec_query(ctx, what, ELEC_CMD_GROUP_GET, argc, argv,
			 show_field_print);
	ctx->json = show_one.json;
	if (!ret && !ctx->dry_run && show_one.replies != 1)
		return elec_fail("%s: no such group", what);
	return ret;
}

int elec_cmd_show(struct elec_ctx *ctx, int argc, char **argv)
{
	int f = show_field_of(argc, argv);

	if (f >= 0)
		return show_field_query(ctx, "show", f, argc - 1, argv);
	return elec_query(ctx, "show", ELEC_CMD_GROUP_GET, argc, argv,
			  show_print);
}

/*
 * is-leader dev IF group G: exit 0 when this node leads the group, 1 when
 * it does not, 2 on any error (usage errors included: 1 means "no" here),
 * as a keepalived check script wants; prints nothing but errors.
 */
int elec_cmd_is_leader(struct elec_ctx *ctx, int argc, char **argv)
{
	int ret = show_field_query(ctx, "is-leader", ELEC_FIELD_IS_LEADER,
				   argc, argv);

	if (ret)
		return ELEC_EXIT_FAIL;
	if (ctx->dry_run)
		return ELEC_EXIT_OK;
	return show_one.leads ? ELEC_EXIT_OK : ELEC_EXIT_USAGE;
}

/* peer show: one line (or object) per peer, "id" filtering the peers */
static void peer_show_print(const struct elec_ctx *ctx, FILE *out,
			    struct elec_json *j, struct nlattr **tb,
			    const struct elec_args *filter)
{
	char ifbuf[IF_NAMESIZE];
	const char *ifname = elec_reply_ifname(tb, ifbuf);
	struct nlattr *peer;
	int rem;

	if (!tb[ELEC_ATTR_PEERS])
		return;
	nla_for_each_nested(peer, tb[ELEC_ATTR_PEERS], rem) {
		struct nlattr *pt[ELEC_ATTR_MAX + 1];

		if (nla_type(peer) != ELEC_ATTR_PEER ||
		    nla_parse_nested(pt, ELEC_ATTR_MAX, peer,
				     elec_nl_policy) < 0)
			continue;
		if ((filter->seen & ELEC_KWB(ELEC_KW_ID)) &&
		    elec_nla_u64(pt, ELEC_ATTR_PEER_ID, 0) != filter->id)
			continue;
		if (ctx->json) {
			elec_json_obj_begin(j, NULL);
			if (ifname)
				elec_json_str(j, "ifname", ifname);
			else
				elec_json_null(j, "ifname");
			elec_json_attr_u64(j, "ifindex", tb, ELEC_ATTR_IFINDEX);
			elec_json_attr_u64(j, "group", tb, ELEC_ATTR_GROUP);
			elec_json_attr_u64(j, "node", tb, ELEC_ATTR_NODE_ID);
			peer_json(j, pt);
			elec_json_obj_end(j);
		} else {
			fprintf(out, "dev %s group %" PRIu64 " ",
				ifname ? ifname : "?",
				elec_nla_u64(tb, ELEC_ATTR_GROUP, 0));
			peer_text(out, pt);
		}
	}
}

int elec_cmd_peer_show(struct elec_ctx *ctx, int argc, char **argv)
{
	return elec_query_kw(ctx, "peer show", ELEC_CMD_GROUP_GET,
			     ELEC_KWB_INSTANCE | ELEC_KWB(ELEC_KW_ID), argc,
			     argv, peer_show_print);
}

int elec_cmd_group_show(struct elec_ctx *ctx, int argc, char **argv)
{
	return elec_query(ctx, "group show", ELEC_CMD_GROUP_GET, argc, argv,
			  show_print);
}
