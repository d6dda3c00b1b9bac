// SPDX-License-Identifier: GPL-2.0
/*
 * syncconf.c - "electionctl syncconf FILE [ dry-run ]" (wg's word): make
 * the running configuration of the devices FILE names equal to FILE.
 *
 * FILE is a batch file of the lines showconf writes: "group add", "peer
 * add", "group start", and "group set" (options only) for a group added
 * above it. It is validated first as -check does (nothing runs when a
 * line is invalid); any other line is refused with FILE:LINE. FILE
 * governs every group of each device a "group add" line names, and no
 * other device: a group of such a device that FILE does not add is
 * deleted. The groups FILE starts are those of its "group start" lines,
 * or every group when it has none (as -start does).
 *
 * Per group, in FILE's order, compared with the running one (GROUP_GET,
 * the values in effect, as show reports them): each option's value is
 * compared with the one a group made from FILE would report (an option
 * FILE leaves out is at its default; one whose default is worked out from
 * the others, such as coord-timeout, has the value FILE's other options
 * give). The kernel reports a value pinned by group set and a worked-out
 * one alike, so one that differs is sent: 0 where the kernel takes 0 as
 * "work it out" (search-interval, detector-margin, detector-max,
 * auth-window), else the value FILE's options give (coord-timeout, which
 * cannot be set back to 0). After one syncconf the group reports what a
 * fresh -batch of FILE would, and a second syncconf sends nothing for it:
 *   - absent: group add, peer add per peer, group start if started;
 *   - another id or algo, or an option only group add sets (pos,
 *     suppress) that differs: group del, then as absent;
 *   - else one group set with the options that differ (quorum, which the
 *     kernel changes only while stopped, with group stop before and group
 *     start after when the group runs; the leader resigns), peer del for
 *     each peer FILE does not list, peer del and peer add for a peer whose
 *     lladdr or pos differs, peer add for a new one, then group start or
 *     group stop when its state differs. Nothing else is sent: a group
 *     whose options and peers are FILE's keeps running, its leader and
 *     term with it.
 * Keys: the kernel never returns one, so a keyed group of FILE always
 * gets "key-file PATH" (and its key-next-file, or key-next none when it
 * has a second key FILE does not give): a key the group has changes
 * nothing (no election, the replay counters stay); another replaces it.
 * A group FILE gives no key to loses its key (key none).
 *
 * Every command is printed as a batch line before it runs; "dry-run"
 * prints them and runs none. The first command the kernel refuses stops
 * syncconf (exit 2); the ones before it stay applied.
 */
#include <errno.h>
#include <inttypes.h>
#include <net/if.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "query.h"

#define SC_MAX_WORDS	(2 * ELEC_KW_COUNT + 8)

/* a peer of a group */
struct sc_peer {
	uint32_t id;
	uint8_t lladdr[6];
	uint32_t pos;	/* 0: the id */
};

/**
 * struct sc_group - a group as FILE describes it, or as it runs.
 * @dev: device name
 * @ifindex: its index
 * @group: group number
 * @cfg: the configuration (FILE: defaults and the options given; running:
 *	the values GROUP_GET reports)
 * @reported: running: the options the reply has (a bit per enum elec_opt)
 * @key_file: FILE: key-file's path, or NULL
 * @key_next_file: FILE: key-next-file's path, or NULL
 * @auth: running: has a key
 * @auth_next: running: has a second key
 * @up: started (FILE: started by it)
 * @peers: the peers
 * @n_peers: how many
 * @kept: running: FILE has the group
 */
struct sc_group {
	char dev[IF_NAMESIZE];
	uint32_t ifindex;
	uint16_t group;
	struct elec_config cfg;
	uint32_t reported;
	char *key_file;
	char *key_next_file;
	bool auth;
	bool auth_next;
	bool up;
	struct sc_peer *peers;
	size_t n_peers;
	bool kept;
};

struct sc_list {
	struct sc_group *g;
	size_t n;
};

struct sc_state {
	struct elec_ctx *ctx;
	const struct elec_batch_ops *ops;
	struct sc_list want;
	struct sc_list have;
	bool any_start;
	bool dry;
};

static struct sc_group *sc_find(struct sc_list *l, uint32_t ifindex,
				uint16_t group)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		if (l->g[i].ifindex == ifindex && l->g[i].group == group)
			return &l->g[i];
	return NULL;
}

static struct sc_group *sc_new(struct sc_list *l)
{
	struct sc_group *g = realloc(l->g, (l->n + 1) * sizeof(*g));

	if (!g)
		return NULL;
	l->g = g;
	g = &l->g[l->n++];
	memset(g, 0, sizeof(*g));
	return g;
}

static int sc_add_peer(struct sc_group *g, const struct sc_peer *p)
{
	struct sc_peer *n = realloc(g->peers, (g->n_peers + 1) * sizeof(*n));

	if (!n)
		return elec_fail("out of memory");
	g->peers = n;
	g->peers[g->n_peers++] = *p;
	return 0;
}

static const struct sc_peer *sc_peer(const struct sc_group *g, uint32_t id)
{
	size_t i;

	for (i = 0; i < g->n_peers; i++)
		if (g->peers[i].id == id)
			return &g->peers[i];
	return NULL;
}

static void sc_free(struct sc_list *l)
{
	size_t i;

	for (i = 0; i < l->n; i++) {
		free(l->g[i].key_file);
		free(l->g[i].key_next_file);
		free(l->g[i].peers);
	}
	free(l->g);
}

/* the value of keyword @kw in a line's pairs (the parser found it there) */
static const char *sc_value(int argc, char **argv, unsigned int allowed,
			    int kw)
{
	int i;

	for (i = 0; i + 1 < argc; i += 2)
		if (elec_kw_lookup(argv[i], allowed) == kw)
			return argv[i + 1];
	return NULL;
}

/* the options a line gives, over @cfg */
static void sc_options(const struct elec_args *a, struct elec_config *cfg)
{
	int o;

	for (o = 0; o < ELEC_OPT_COUNT; o++)
		if (a->seen & ELEC_KWB_OPT(o))
			elec_opt_set(cfg, o, a->opt[o]);
	/* as the kernel takes it: "timeout 5ms" alone turns timeout-auto off */
	if ((a->seen & ELEC_KWB_OPT(ELEC_OPT_TIMEOUT)) &&
	    !(a->seen & ELEC_KWB_OPT(ELEC_OPT_TIMEOUT_AUTO)))
		cfg->timeout_auto = false;
}

static int sc_group_add(struct sc_state *st, int argc, char **argv)
{
	const char *kf, *knf;
	struct sc_group *g;
	struct elec_args a;

	if (elec_parse_args(st->ctx, "group add", argc, argv,
			    ELEC_KWB_GROUP_ADD, 0, &a))
		return ELEC_EXIT_USAGE;
	elec_args_wipe(&a);
	if (sc_find(&st->want, a.ifindex, a.group))
		return elec_err("dev %s group %u is added twice", a.dev,
				a.group);
	g = sc_new(&st->want);
	if (!g)
		return elec_fail("out of memory");
	snprintf(g->dev, sizeof(g->dev), "%s", a.dev);
	g->ifindex = a.ifindex;
	g->group = a.group;
	g->cfg.self_id = a.id;
	g->cfg.group = a.group;
	g->cfg.algo = a.algo;
	elec_config_defaults(&g->cfg);
	sc_options(&a, &g->cfg);
	kf = sc_value(argc, argv, ELEC_KWB_GROUP_ADD, ELEC_KW_KEY_FILE);
	knf = sc_value(argc, argv, ELEC_KWB_GROUP_ADD, ELEC_KW_KEY_NEXT_FILE);
	g->key_file = kf ? strdup(kf) : NULL;
	g->key_next_file = knf ? strdup(knf) : NULL;
	if ((kf && !g->key_file) || (knf && !g->key_next_file))
		return elec_fail("out of memory");
	return 0;
}

/* the group a line names, which an earlier group add line must add */
static struct sc_group *sc_named(struct sc_state *st, const char *what,
				 const struct elec_args *a)
{
	struct sc_group *g = sc_find(&st->want, a->ifindex, a->group);

	if (!g)
		elec_err("%s for dev %s group %u, which no group add line above adds",
			 what, a->dev, a->group);
	return g;
}

/* parse a "@what ..." line (@argv: after its two words), then sc_named() */
static struct sc_group *sc_parse_named(struct sc_state *st, const char *what,
				       unsigned int kws, int argc, char **argv,
				       struct elec_args *a)
{
	if (elec_parse_args(st->ctx, what, argc, argv, kws, 0, a))
		return NULL;
	return sc_named(st, what, a);
}

static int sc_line(void *arg, int argc, char **argv)
{
	struct sc_state *st = arg;
	struct elec_batch_group bg;
	struct sc_group *g;
	struct elec_args a;
	struct sc_peer p;

	switch (st->ops->line_kind(argc, argv, &bg)) {
	case ELEC_LINE_GROUP_ADD:
		return sc_group_add(st, argc - 2, argv + 2);
	case ELEC_LINE_GROUP_SET:
		if (elec_parse_args(st->ctx, "group set", argc - 2, argv + 2,
				    ELEC_KWB_GROUP_SET, 0, &a))
			return ELEC_EXIT_USAGE;
		elec_args_wipe(&a);
		if (a.seen & (ELEC_KWB_KEY | ELEC_KWB_KEY_NEXT))
			return elec_err("syncconf: give the key on the group add line, not with group set");
		g = sc_named(st, "group set", &a);
		if (!g)
			return ELEC_EXIT_USAGE;
		sc_options(&a, &g->cfg);
		return 0;
	case ELEC_LINE_GROUP_START:
		g = sc_parse_named(st, "group start", ELEC_KWB_INSTANCE,
				   argc - 2, argv + 2, &a);
		if (!g)
			return ELEC_EXIT_USAGE;
		g->up = true;
		st->any_start = true;
		return 0;
	case ELEC_LINE_PEER_ADD:
		g = sc_parse_named(st, "peer add", ELEC_KWB_PEER_ADD,
				   argc - 2, argv + 2, &a);
		if (!g)
			return ELEC_EXIT_USAGE;
		if (sc_peer(g, a.id))
			return elec_err("peer %u of dev %s group %u is added twice",
					a.id, a.dev, a.group);
		p.id = a.id;
		memcpy(p.lladdr, a.lladdr, sizeof(p.lladdr));
		p.pos = (uint32_t)a.opt[ELEC_OPT_POS];
		return sc_add_peer(g, &p);
	default:
		return elec_err("syncconf takes the lines showconf writes (group add, peer add, group start, and group set), not \"%s %s\"",
				argv[0], argc > 1 ? argv[1] : "");
	}
}

/* the running instances: a GROUP_GET dump */
static int sc_have_cb(struct nlattr **tb, void *arg)
{
	struct sc_list *l = arg;
	struct sc_group *g;
	struct nlattr *peer;
	char ifbuf[IF_NAMESIZE];
	const char *name;
	int o, rem;

	if (!tb[ELEC_ATTR_IFINDEX] || !tb[ELEC_ATTR_GROUP])
		return 0;
	g = sc_new(l);
	if (!g)
		return elec_fail("out of memory");
	name = elec_reply_ifname(tb, ifbuf);
	snprintf(g->dev, sizeof(g->dev), "%s", name ?: "?");
	g->ifindex = nla_get_u32(tb[ELEC_ATTR_IFINDEX]);
	g->group = nla_get_u16(tb[ELEC_ATTR_GROUP]);
	elec_reply_config(tb, &g->cfg);
	for (o = 0; o < ELEC_OPT_COUNT; o++)
		if (tb[elec_opts[o].attr])
			g->reported |= 1u << o;
	g->auth = elec_nla_u64(tb, ELEC_ATTR_AUTH, 0);
	g->auth_next = elec_nla_u64(tb, ELEC_ATTR_AUTH_NEXT, 0);
	g->up = elec_nla_u64(tb, ELEC_ATTR_ADMIN_UP, 0);
	if (!tb[ELEC_ATTR_PEERS])
		return 0;
	nla_for_each_nested(peer, tb[ELEC_ATTR_PEERS], rem) {
		struct nlattr *pt[ELEC_ATTR_MAX + 1];
		struct sc_peer p = { 0 };

		if (nla_type(peer) != ELEC_ATTR_PEER ||
		    nla_parse_nested(pt, ELEC_ATTR_MAX, peer,
				     elec_nl_policy) < 0)
			continue;
		p.id = (uint32_t)elec_nla_u64(pt, ELEC_ATTR_PEER_ID, 0);
		p.pos = (uint32_t)elec_nla_u64(pt, ELEC_ATTR_PEER_POS, 0);
		if (pt[ELEC_ATTR_PEER_LLADDR])
			memcpy(p.lladdr, nla_data(pt[ELEC_ATTR_PEER_LLADDR]),
			       sizeof(p.lladdr));
		if (sc_add_peer(g, &p))
			return ELEC_EXIT_FAIL;
	}
	return 0;
}

static int sc_read_have(struct sc_state *st)
{
	int attempt, ret = ELEC_NL_DUMP_INTR;
	struct nl_msg *msg;

	for (attempt = 0; attempt < 3 && ret == ELEC_NL_DUMP_INTR; attempt++) {
		sc_free(&st->have);
		memset(&st->have, 0, sizeof(st->have));
		msg = elec_nl_msg(st->ctx, ELEC_CMD_GROUP_GET, true);
		if (!msg)
			return ELEC_EXIT_FAIL;
		ret = elec_nl_transact(st->ctx, msg, sc_have_cb, &st->have);
	}
	if (ret == ELEC_NL_DUMP_INTR)
		return elec_fail("the dump was interrupted by changes %d times; try again",
				 attempt);
	return ret;
}

/**
 * struct sc_cmd - one command being built.
 * @argv: its words
 * @argc: how many
 * @buf: the words' storage
 * @used: bytes of @buf used
 */
struct sc_cmd {
	char *argv[SC_MAX_WORDS + 1];
	int argc;
	char buf[8192];
	size_t used;
};

static void sc_word(struct sc_cmd *c, const char *w)
{
	size_t len = strlen(w) + 1;

	if (c->argc >= SC_MAX_WORDS || c->used + len > sizeof(c->buf))
		return;
	c->argv[c->argc++] = memcpy(c->buf + c->used, w, len);
	c->used += len;
	c->argv[c->argc] = NULL;
}

static void sc_num(struct sc_cmd *c, uint64_t v)
{
	char buf[24];

	snprintf(buf, sizeof(buf), "%" PRIu64, v);
	sc_word(c, buf);
}

/* "OBJ VERB dev D group G" */
static void sc_begin(struct sc_cmd *c, const char *obj, const char *verb,
		     const struct sc_group *g)
{
	c->argc = 0;
	c->used = 0;
	sc_word(c, obj);
	sc_word(c, verb);
	sc_word(c, "dev");
	sc_word(c, g->dev);
	sc_word(c, "group");
	sc_num(c, g->group);
}

static void sc_option(struct sc_cmd *c, int o, uint64_t v)
{
	char buf[32];

	sc_word(c, elec_opts[o].name);
	elec_opt_fmt(o, v, buf, sizeof(buf));
	sc_word(c, buf);
}

/* a word as the batch syntax reads it back: quoted when it must be */
static void sc_print_word(const char *w)
{
	if (*w && *w != '#' && !strpbrk(w, "\"' \t\r\n")) {
		fputs(w, stdout);
		return;
	}
	putchar('"');
	for (; *w; w++) {
		if (*w == '"' || *w == '\\')
			putchar('\\');
		putchar(*w);
	}
	putchar('"');
}

/* print the command as a batch line, then run it (unless dry-run) */
static int sc_run(struct sc_state *st, struct sc_cmd *c)
{
	int i;

	for (i = 0; i < c->argc; i++) {
		if (i)
			putchar(' ');
		sc_print_word(c->argv[i]);
	}
	putchar('\n');
	fflush(stdout);
	if (st->dry)
		return 0;
	return st->ops->run(st->ctx, c->argc, c->argv);
}

static int sc_peer_cmd(struct sc_state *st, struct sc_cmd *c,
		       const struct sc_group *g, const struct sc_peer *p,
		       bool add)
{
	char mac[18];

	sc_begin(c, "peer", add ? "add" : "del", g);
	sc_word(c, "id");
	sc_num(c, p->id);
	if (add) {
		elec_fmt_mac(mac, sizeof(mac), p->lladdr);
		sc_word(c, "lladdr");
		sc_word(c, mac);
		if (p->pos && p->pos != p->id) {
			sc_word(c, "pos");
			sc_num(c, p->pos);
		}
	}
	return sc_run(st, c);
}

/* a group FILE adds, from nothing */
static int sc_create(struct sc_state *st, struct sc_cmd *c,
		     const struct sc_group *w)
{
	struct elec_config dflt;
	int o, ret, pass;
	size_t i;

	sc_begin(c, "group", "add", w);
	sc_word(c, "id");
	sc_num(c, w->cfg.self_id);
	sc_word(c, "algo");
	sc_word(c, elec_algo_name(w->cfg.algo) ?: "?");
	memset(&dflt, 0, sizeof(dflt));
	dflt.self_id = w->cfg.self_id;
	dflt.algo = w->cfg.algo;
	elec_config_defaults(&dflt);
	/* as showconf: the options group add fixes first, then the others */
	for (pass = 0; pass < 2; pass++)
		for (o = 0; o < ELEC_OPT_COUNT; o++)
			if (!(elec_opts[o].flags & ELEC_OPTF_SET) == !pass &&
			    !(elec_opts[o].flags & ELEC_OPTF_RUNTIME) &&
			    elec_opt_get(&w->cfg, o) != elec_opt_get(&dflt, o))
				sc_option(c, o, elec_opt_get(&w->cfg, o));
	if (w->key_file) {
		sc_word(c, "key-file");
		sc_word(c, w->key_file);
	}
	if (w->key_next_file) {
		sc_word(c, "key-next-file");
		sc_word(c, w->key_next_file);
	}
	ret = sc_run(st, c);
	for (i = 0; !ret && i < w->n_peers; i++)
		ret = sc_peer_cmd(st, c, w, &w->peers[i], true);
	if (!ret && w->up) {
		sc_begin(c, "group", "start", w);
		ret = sc_run(st, c);
	}
	return ret;
}

static uint32_t sc_pos(const struct sc_peer *p)
{
	return p->pos ? p->pos : p->id;
}

/*
 * A group that runs and that FILE has: what differs. Returns an exit
 * status; *@again when it must be deleted and added again.
 */
static int sc_update(struct sc_state *st, struct sc_cmd *c,
		     const struct sc_group *w, struct sc_group *h, bool *again)
{
	uint32_t differ = 0;
	bool up = h->up;
	size_t i;
	int o, ret = 0;

	*again = w->cfg.self_id != h->cfg.self_id || w->cfg.algo != h->cfg.algo;
	for (o = 0; o < ELEC_OPT_COUNT && !*again; o++) {
		uint64_t have = elec_opt_get(&h->cfg, o);

		/* runtime state (standby-tracked): syncconf leaves it */
		if (!elec_opt_applies(o, w->cfg.algo) ||
		    !(h->reported & (1u << o)) ||
		    elec_opts[o].flags & ELEC_OPTF_RUNTIME)
			continue;
		/*
		 * the value a group made from FILE reports, a default worked
		 * out from the others included (coord-timeout, ...): the
		 * kernel reports a pinned value and a worked-out one alike,
		 * so a group whose value only equals the one its old options
		 * give is not taken as at its default (it may be pinned: a
		 * timeout change would then leave it behind)
		 */
		if (elec_opt_report(&w->cfg, o) == have)
			continue;
		if (!(elec_opts[o].flags & ELEC_OPTF_SET))
			*again = true;
		differ |= 1u << o;
	}
	if (*again)
		return 0;
	/* a fixed T alone would turn timeout-auto off: say both */
	if (differ & (1u << ELEC_OPT_TIMEOUT) &&
	    elec_opt_applies(ELEC_OPT_TIMEOUT_AUTO, w->cfg.algo))
		differ |= 1u << ELEC_OPT_TIMEOUT_AUTO;
	sc_begin(c, "group", "set", w);
	for (o = 0; o < ELEC_OPT_COUNT; o++) {
		uint64_t v = elec_opt_get(&w->cfg, o);

		if (!(differ & (1u << o)))
			continue;
		/*
		 * a 0 only the configuration holds (coord-timeout): the value
		 * it means, pinned; a DUR0 option's 0 goes as 0, the kernel
		 * working it out from the options it now has
		 */
		if (!v && elec_opts[o].kind == ELEC_OPTK_DUR)
			v = elec_opt_report(&w->cfg, o);
		sc_option(c, o, v);
	}
	if (w->key_file) {
		sc_word(c, "key-file");
		sc_word(c, w->key_file);
		if (w->key_next_file) {
			sc_word(c, "key-next-file");
			sc_word(c, w->key_next_file);
		} else if (h->auth_next) {
			sc_word(c, "key-next");
			sc_word(c, "none");
		}
	} else if (h->auth) {
		sc_word(c, "key");
		sc_word(c, "none");
	}
	if (c->argc > 6) {
		struct sc_cmd stop;

		/* the kernel changes quorum only while the group is stopped */
		if (differ & (1u << ELEC_OPT_QUORUM) && up) {
			sc_begin(&stop, "group", "stop", w);
			ret = sc_run(st, &stop);
			up = false;
		}
		ret = ret ?: sc_run(st, c);
	}
	for (i = 0; !ret && i < h->n_peers; i++) {
		const struct sc_peer *p = sc_peer(w, h->peers[i].id);

		if (!p || memcmp(p->lladdr, h->peers[i].lladdr, 6) ||
		    sc_pos(p) != sc_pos(&h->peers[i]))
			ret = sc_peer_cmd(st, c, w, &h->peers[i], false);
	}
	for (i = 0; !ret && i < w->n_peers; i++) {
		const struct sc_peer *p = sc_peer(h, w->peers[i].id);

		if (!p || memcmp(p->lladdr, w->peers[i].lladdr, 6) ||
		    sc_pos(p) != sc_pos(&w->peers[i]))
			ret = sc_peer_cmd(st, c, w, &w->peers[i], true);
	}
	if (!ret && w->up != up) {
		sc_begin(c, "group", w->up ? "start" : "stop", w);
		ret = sc_run(st, c);
	}
	return ret;
}

static int sc_apply(struct sc_state *st)
{
	struct sc_cmd *c = malloc(sizeof(*c));
	size_t i, j;
	int ret = 0;

	if (!c)
		return elec_fail("out of memory");
	for (i = 0; i < st->want.n; i++) {
		struct sc_group *w = &st->want.g[i];
		struct sc_group *h = sc_find(&st->have, w->ifindex, w->group);

		if (!st->any_start)
			w->up = true;
		if (h)
			h->kept = true;
	}
	/* the groups of FILE's devices that FILE does not have */
	for (i = 0; !ret && i < st->have.n; i++) {
		struct sc_group *h = &st->have.g[i];
		bool governed = false;

		for (j = 0; j < st->want.n; j++)
			governed |= st->want.g[j].ifindex == h->ifindex;
		if (!governed || h->kept)
			continue;
		sc_begin(c, "group", "del", h);
		ret = sc_run(st, c);
	}
	for (i = 0; !ret && i < st->want.n; i++) {
		struct sc_group *w = &st->want.g[i];
		struct sc_group *h = sc_find(&st->have, w->ifindex, w->group);
		bool again = false;

		if (h)
			ret = sc_update(st, c, w, h, &again);
		if (!ret && again) {
			sc_begin(c, "group", "del", w);
			ret = sc_run(st, c);
			h = NULL;
		}
		if (!ret && !h)
			ret = sc_create(st, c, w);
	}
	free(c);
	return ret;
}

int elec_syncconf(struct elec_ctx *ctx, int argc, char **argv,
		  const struct elec_batch_ops *ops)
{
	static const char *const words[] = { "dry-run" };
	struct sc_state st = { .ctx = ctx, .ops = ops };
	int ret;

	if (argc < 1)
		return elec_err("\"syncconf\" needs a file: syncconf FILE [ dry-run ]");
	if (argc > 2 || (argc == 2 &&
			 elec_lookup(argv[1], words, NULL, ARRAY_SIZE(words))))
		return elec_err("unexpected argument \"%s\" after \"syncconf %s\"",
				argv[argc == 2 ? 1 : 2], argv[0]);
	st.dry = argc == 2;
	ret = elec_batch_each(ctx, argv[0], ops, sc_line, &st);
	if (!ret)
		ret = sc_read_have(&st);
	if (!ret)
		ret = sc_apply(&st);
	sc_free(&st.want);
	sc_free(&st.have);
	return ret;
}
