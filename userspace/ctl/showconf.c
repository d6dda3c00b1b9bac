// SPDX-License-Identifier: GPL-2.0
/*
 * showconf.c - "electionctl showconf [dev IF] [group G]": the running
 * configuration as a batch file (electionctl -batch) that recreates it:
 * per instance, "group add" with every setting that is not the default,
 * one "peer add" per peer, and "group start" when it was started.
 *
 * The options (options-list.h) group add fixes come first, then the
 * others, each in the list's order. Defaults are left out so that the file
 * says what was chosen: a ring position equal to the id, the Bully
 * options' defaults, a coord-timeout of ELECTION_DEF_COORD_TIMEOUT_MULT x
 * timeout, and (invitation) a search interval of hb-interval x hb-miss.
 * The timing (hb-interval, hb-miss, timeout) at its default is left out
 * too: the file means the defaults of the module that runs it, so a
 * module whose defaults differ gives the restored groups its own timing
 * (the admin guide says so).
 *
 * The kernel never reports a group's key, only that it has one: such a
 * group's "group add" ends with "key-file" and a placeholder path
 * (KEY_PLACEHOLDER_DIR/CHANGE-ME-DEV-GROUP.key), after a comment that says
 * to put the group's key file there. Until edited, running the batch stops
 * at that line: the placeholder cannot be opened. A group that also
 * accepted a second key (a key rotation under way) gets a comment line
 * that says so, and nothing else: the batch recreates the group with its
 * key alone, as at the end of a rotation.
 */
#include <inttypes.h>
#include <net/if.h>
#include <string.h>

#include "core.h"
#include "query.h"

/*
 * A device name or a path as one batch word: quoted when it holds a
 * character the batch syntax gives a meaning ('#' first, quotes, blanks).
 */
static const char *dev_word(const char *name, char *buf, size_t size)
{
	size_t o = 0;

	if (!name)
		return "?";
	if (name[0] != '#' && !strpbrk(name, "\"' \t\r"))
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

/*
 * this showconf's keydir DIR (NULL: the placeholder); set anew by each
 * command, so that a batch's showconf lines do not share it
 */
static const char *showconf_keydir;

void elec_opt_fmt(int o, uint64_t v, char *buf, size_t size)
{
	switch (elec_opts[o].kind) {
	case ELEC_OPTK_DUR:
	case ELEC_OPTK_DUR0:
		if (v)
			elec_fmt_dur(buf, size, v);
		else
			snprintf(buf, size, "0");
		return;
	case ELEC_OPTK_ON:
	case ELEC_OPTK_OFF:
		snprintf(buf, size, "%s", v ? "on" : "off");
		return;
	case ELEC_OPTK_WORD:
		snprintf(buf, size, "%s", elec_opt_word(o, v) ?: "?");
		return;
	default:
		snprintf(buf, size, "%" PRIu64, v);
		return;
	}
}

/*
 * The configuration a reply describes (its options as GROUP_GET reports
 * them: coord-timeout, pos and search-interval at the value in effect).
 */
void elec_reply_config(struct nlattr **tb, struct elec_config *cfg)
{
	int o;

	memset(cfg, 0, sizeof(*cfg));
	cfg->self_id = (u32)elec_nla_u64(tb, ELEC_ATTR_NODE_ID, 0);
	cfg->algo = (u8)elec_nla_u64(tb, ELEC_ATTR_ALGO, 0);
	elec_config_defaults(cfg);
	for (o = 0; o < ELEC_OPT_COUNT; o++)
		if (tb[elec_opts[o].attr])
			elec_opt_set(cfg, o,
				     elec_nla_u64(tb, elec_opts[o].attr, 0));
}

/*
 * " KEYWORD VALUE" for option @o, if the reply has it, the algorithm
 * takes it and it is not at its default; for an option whose 0 is a
 * default worked out from the others, not when it has that value.
 */
static void put_option(FILE *out, struct nlattr **tb,
		       const struct elec_config *cfg, int o)
{
	const struct elec_opt_desc *d = &elec_opts[o];
	struct elec_config dflt = *cfg;
	uint64_t v = elec_opt_get(cfg, o);
	char buf[32];

	/* runtime state (standby-tracked) is no configuration */
	if (!tb[d->attr] || !elec_opt_applies(o, cfg->algo) ||
	    d->flags & ELEC_OPTF_RUNTIME)
		return;
	elec_opt_set(&dflt, o, d->def);
	/*
	 * an option at its default is left out (an option added later,
	 * ELEC_OPTF_LATE, at its default thus replays on an older module)
	 */
	if (d->flags & ELEC_OPTF_ZERO ?
	    v == 0 || elec_opt_report(cfg, o) == elec_opt_report(&dflt, o) :
	    v == d->def)
		return;
	elec_opt_fmt(o, v, buf, sizeof(buf));
	fprintf(out, " %s %s", d->name, buf);
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
	struct elec_config cfg;
	int o;
	bool auth = elec_nla_u64(tb, ELEC_ATTR_AUTH, 0);
	char kbuf[4200], kword[2 * sizeof(kbuf) + 3];
	uint64_t v;
	struct nlattr *peer;
	int rem;

	(void)ctx;
	(void)j;
	(void)filter;
	fprintf(out, "# dev %s group %" PRIu64 "\n", ifname,
		group);
	if (auth && showconf_keydir) {
		snprintf(kbuf, sizeof(kbuf), "%s/%s-%" PRIu64 ".key",
			 showconf_keydir, elec_reply_ifname(tb, ifbuf) ?: "dev",
			 group);
		fputs("# auth on: the kernel never returns keys; a copy of this group's key\n"
		      "# file (the same key as on the group's other nodes) must be at the\n"
		      "# path after key-file\n", out);
	} else if (auth) {
		snprintf(kbuf, sizeof(kbuf),
			 KEY_PLACEHOLDER_DIR "/CHANGE-ME-%s-%" PRIu64 ".key",
			 elec_reply_ifname(tb, ifbuf) ?: "dev", group);
		fputs("# auth on: the kernel never returns keys; replace the placeholder\n"
		      "# after key-file with the path of this group's key file (the same\n"
		      "# key as on the group's other nodes)\n", out);
	}
	if (auth) {
		if (elec_nla_u64(tb, ELEC_ATTR_AUTH_NEXT, 0))
			fputs("# auth-next on: a key rotation was under way; its second key is not recreated\n",
			      out);
	}
	fprintf(out, "group add dev %s group %" PRIu64 " id %" PRIu64
		" algo %s", ifname, group, id,
		elec_enum_str(elec_algo_name, algo, "algo", abuf,
			      sizeof(abuf)));
	/* the options group add fixes first, then the others */
	elec_reply_config(tb, &cfg);
	for (o = 0; o < ELEC_OPT_COUNT; o++)
		if (!(elec_opts[o].flags & ELEC_OPTF_SET))
			put_option(out, tb, &cfg, o);
	for (o = 0; o < ELEC_OPT_COUNT; o++)
		if (elec_opts[o].flags & ELEC_OPTF_SET)
			put_option(out, tb, &cfg, o);
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

/* the words of showconf's arguments: keydir is its own */
static const char *const showconf_words[] = { "dev", "group", "keydir" };

int elec_cmd_showconf(struct elec_ctx *ctx, int argc, char **argv)
{
	char *rest[8];
	bool json = ctx->json;
	int i, n = 0, ret;
	size_t len;

	/* "keydir DIR" anywhere among the pairs; the others go to the query */
	showconf_keydir = NULL;
	for (i = 0; i < argc; i++) {
		if (i % 2 || elec_lookup(argv[i], showconf_words, NULL,
					 ARRAY_SIZE(showconf_words)) != 2) {
			if (n == (int)ARRAY_SIZE(rest))
				return elec_err("unexpected argument \"%s\" for \"showconf\"",
						argv[i]);
			rest[n++] = argv[i];
			continue;
		}
		if (showconf_keydir)
			return elec_err("duplicate keyword \"keydir\"");
		if (i + 1 >= argc)
			return elec_err("keyword \"%s\" needs a value", argv[i]);
		if (argv[i + 1][0] != '/' || strlen(argv[i + 1]) > 4000 ||
		    strpbrk(argv[i + 1], "\n"))
			return elec_err("invalid keydir \"%s\": expected a directory's absolute path (one line, at most 4000 bytes)",
					argv[i + 1]);
		showconf_keydir = argv[++i];
		/* "DIR/" and "DIR" name the same files */
		len = strlen(argv[i]);
		while (len > 1 && argv[i][len - 1] == '/')
			argv[i][--len] = '\0';
	}
	/* a batch file is text: -j does not apply */
	ctx->json = false;
	ret = elec_query(ctx, "showconf", ELEC_CMD_GROUP_GET, n, rest,
			 showconf_print);
	ctx->json = json;
	return ret;
}
