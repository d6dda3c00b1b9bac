// SPDX-License-Identifier: GPL-2.0
/*
 * showconf.c - "electionctl showconf [dev IF] [group G]": the running
 * configuration as a batch file (electionctl -batch) that recreates it:
 * per instance, "group add" with every setting that is not the default,
 * one "peer add" per peer, and "group start" when it was started.
 *
 * Defaults are left out so that the file says what was chosen: a ring
 * position equal to the id, the Bully options' defaults, a coord-timeout
 * of ELECTION_DEF_COORD_TIMEOUT_MULT x timeout, and (invitation) a search
 * interval of hb-interval x hb-miss. The timing (hb-interval, hb-miss,
 * timeout) is always written: the file then keeps its meaning if a later
 * version changes a default.
 *
 * The kernel never reports a group's key, only that it has one: such a
 * group's "group add" ends with "key-file" and a placeholder path
 * (KEY_PLACEHOLDER_DIR/CHANGE-ME-DEV-GROUP.key), after a comment that says
 * to put the group's key file there. Until edited, running the batch stops
 * at that line: the placeholder cannot be opened.
 */
#include <inttypes.h>
#include <net/if.h>
#include <string.h>

#include "query.h"

static bool is_bully(unsigned int algo)
{
	return algo == ELEC_ALGO_BULLY || algo == ELEC_ALGO_MIN_BULLY ||
	       algo == ELEC_ALGO_ENH_BULLY;
}

/*
 * A device name as one batch word: quoted when it holds a character the
 * batch syntax gives a meaning ('#' first, quotes; names hold no blanks).
 */
static const char *dev_word(const char *name, char *buf, size_t size)
{
	size_t o = 0;

	if (!name)
		return "?";
	if (name[0] != '#' && !strpbrk(name, "\"'"))
		return name;
	buf[o++] = '"';
	for (; *name && o + 3 < size; name++) {
		if (*name == '"' || *name == '\\')
			buf[o++] = '\\';
		buf[o++] = *name;
	}
	buf[o++] = '"';
	buf[o] = '\0';
	return buf;
}

#define KEY_PLACEHOLDER_DIR	"/etc/election"

static void put_dur(FILE *out, const char *kw, uint64_t ns)
{
	char buf[32];

	elec_fmt_dur(buf, sizeof(buf), ns);
	fprintf(out, " %s %s", kw, buf);
}

static void showconf_print(const struct elec_ctx *ctx, FILE *out,
			   struct elec_json *j, struct nlattr **tb,
			   const struct elec_args *filter)
{
	char ifbuf[IF_NAMESIZE], abuf[32], wbuf[2 * IF_NAMESIZE + 3];
	const char *ifname = dev_word(elec_reply_ifname(tb, ifbuf), wbuf,
				      sizeof(wbuf));
	unsigned int algo = (unsigned int)elec_nla_u64(tb, ELEC_ATTR_ALGO, 0);
	uint64_t id = elec_nla_u64(tb, ELEC_ATTR_NODE_ID, 0);
	uint64_t group = elec_nla_u64(tb, ELEC_ATTR_GROUP, 0);
	uint64_t hb = elec_nla_u64(tb, ELEC_ATTR_HB_INTERVAL_NS, 0);
	uint64_t miss = elec_nla_u64(tb, ELEC_ATTR_HB_MISS, 0);
	uint64_t t = elec_nla_u64(tb, ELEC_ATTR_TIMEOUT_NS, 0);
	bool auth = elec_nla_u64(tb, ELEC_ATTR_AUTH, 0);
	char kbuf[64], kword[2 * sizeof(kbuf) + 3];
	uint64_t v;
	struct nlattr *peer;
	int rem;

	(void)ctx;
	(void)j;
	(void)filter;
	fprintf(out, "# dev %s group %" PRIu64 "\n", ifname,
		group);
	if (auth) {
		snprintf(kbuf, sizeof(kbuf),
			 KEY_PLACEHOLDER_DIR "/CHANGE-ME-%s-%" PRIu64 ".key",
			 elec_reply_ifname(tb, ifbuf) ?: "dev", group);
		fputs("# auth on: the kernel never returns keys; replace the placeholder\n"
		      "# after key-file with the path of this group's key file (the same\n"
		      "# key as on the group's other nodes)\n", out);
	}
	fprintf(out, "group add dev %s group %" PRIu64 " id %" PRIu64
		" algo %s", ifname, group, id,
		elec_enum_str(elec_algo_name, algo, "algo", abuf,
			      sizeof(abuf)));
	v = elec_nla_u64(tb, ELEC_ATTR_POS, 0);
	if (v && v != id)
		fprintf(out, " pos %" PRIu64, v);
	if (tb[ELEC_ATTR_SUPPRESS] && !nla_get_u8(tb[ELEC_ATTR_SUPPRESS]))
		fputs(" suppress off", out);
	if (hb)
		put_dur(out, "hb-interval", hb);
	if (miss)
		fprintf(out, " hb-miss %" PRIu64, miss);
	if (t)
		put_dur(out, "timeout", t);
	v = elec_nla_u64(tb, ELEC_ATTR_COORD_TIMEOUT_NS, 0);
	/* the default: ELECTION_DEF_COORD_TIMEOUT_MULT x timeout, capped */
	if (v && v != (ELECTION_DEF_COORD_TIMEOUT_MULT * t > ELECTION_DUR_MAX_NS ?
		       ELECTION_DUR_MAX_NS : ELECTION_DEF_COORD_TIMEOUT_MULT * t))
		put_dur(out, "coord-timeout", v);
	if (is_bully(algo)) {
		if (!elec_nla_u64(tb, ELEC_ATTR_ASK_SUSPECT, 1))
			fputs(" ask-suspect off", out);
		if (!elec_nla_u64(tb, ELEC_ATTR_PREEMPT, 1))
			fputs(" preempt off", out);
		v = elec_nla_u64(tb, ELEC_ATTR_PREEMPT_DELAY_NS, 0);
		if (v)
			put_dur(out, "preempt-delay", v);
		if (elec_nla_u64(tb, ELEC_ATTR_QUORUM, 0))
			fputs(" quorum on", out);
	}
	v = elec_nla_u64(tb, ELEC_ATTR_SEARCH_INTERVAL_NS, 0);
	if (algo == ELEC_ALGO_INVITATION && v && v != hb * miss)
		put_dur(out, "search-interval", v);
	if (auth)
		fprintf(out, " key-file %s",
			dev_word(kbuf, kword, sizeof(kword)));
	fputc('\n', out);
	if (tb[ELEC_ATTR_PEERS]) {
		nla_for_each_nested(peer, tb[ELEC_ATTR_PEERS], rem) {
			struct nlattr *pt[ELEC_ATTR_MAX + 1];
			uint64_t pid;
			char mac[18] = "?";

			if (nla_type(peer) != ELEC_ATTR_PEER ||
			    nla_parse_nested(pt, ELEC_ATTR_MAX, peer,
					     elec_nl_policy) < 0)
				continue;
			pid = elec_nla_u64(pt, ELEC_ATTR_PEER_ID, 0);
			if (pt[ELEC_ATTR_PEER_LLADDR])
				elec_fmt_mac(mac, sizeof(mac),
					     nla_data(pt[ELEC_ATTR_PEER_LLADDR]));
			fprintf(out, "peer add dev %s group %" PRIu64
				" id %" PRIu64 " lladdr %s",
				ifname, group, pid, mac);
			v = elec_nla_u64(pt, ELEC_ATTR_PEER_POS, 0);
			if (v && v != pid)
				fprintf(out, " pos %" PRIu64, v);
			fputc('\n', out);
		}
	}
	if (elec_nla_u64(tb, ELEC_ATTR_ADMIN_UP, 0))
		fprintf(out, "group start dev %s group %" PRIu64 "\n",
			ifname, group);
}

int elec_cmd_showconf(struct elec_ctx *ctx, int argc, char **argv)
{
	bool json = ctx->json;
	int ret;

	/* a batch file is text: -j does not apply */
	ctx->json = false;
	ret = elec_query(ctx, "showconf", ELEC_CMD_GROUP_GET, argc, argv,
			 showconf_print);
	ctx->json = json;
	return ret;
}
