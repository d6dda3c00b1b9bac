// SPDX-License-Identifier: GPL-2.0
/*
 * elec-inject: argument parsing: numbers, MACs, names, nodes and groups, the
 * options every sending command takes.
 */
#include "elec-inject.h"

/* ------------------------------------------------------------------ */
/* argument parsing                                                    */

bool more(struct args *a)
{
	return a->i < a->argc;
}

const char *next_word(struct args *a)
{
	return a->argv[a->i++];
}

/* the next word, which must be there: else die with @missing */
const char *need_word(struct args *a, const char *missing)
{
	if (!more(a))
		die("%s", missing);
	return next_word(a);
}

/*
 * Keyword @name taking a number in [min, max] into *@v, once (*@seen):
 * true when @kw was it (a repeated one is not: the caller's "unknown or
 * repeated keyword")
 */
bool num_opt(struct args *a, const char *kw, const char *name, bool *seen,
	     uint64_t *v, uint64_t min, uint64_t max)
{
	if (strcmp(kw, name) || *seen)
		return false;
	*seen = true;
	*v = parse_num(value_of(a, kw), kw, min, max);
	return true;
}

const char *value_of(struct args *a, const char *kw)
{
	if (!more(a))
		die("'%s' needs a value", kw);
	return next_word(a);
}

/* decimal, or hex with 0x; the whole string; within [min, max] */
uint64_t parse_num(const char *s, const char *what, uint64_t min,
		   uint64_t max)
{
	uint64_t v = 0, d;
	int base = 10;
	const char *p = s;

	if (!strncmp(p, "0x", 2) || !strncmp(p, "0X", 2)) {
		base = 16;
		p += 2;
	}
	if (!*p)
		die("%s: '%s' is not a number", what, s);
	for (; *p; p++) {
		if (*p >= '0' && *p <= '9')
			d = (uint64_t)(*p - '0');
		else if (base == 16 && *p >= 'a' && *p <= 'f')
			d = (uint64_t)(*p - 'a' + 10);
		else if (base == 16 && *p >= 'A' && *p <= 'F')
			d = (uint64_t)(*p - 'A' + 10);
		else
			die("%s: '%s' is not a number", what, s);
		if (v > (UINT64_MAX - d) / (uint64_t)base)
			die("%s: '%s' is out of range", what, s);
		v = v * (uint64_t)base + d;
	}
	if (v < min || v > max)
		die("%s: %s is out of range %" PRIu64 "..%" PRIu64, what, s,
		    min, max);
	return v;
}

double parse_seconds(const char *s, const char *what)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || *end || !(v >= 0) || v > 1e6)
		die("%s: '%s' is not a number of seconds (0..1000000)", what, s);
	return v;
}

static bool parse_mac(const char *s, uint8_t mac[6])
{
	unsigned int v[6], i;
	char tail;

	if (strlen(s) != 17 ||
	    sscanf(s, "%2x:%2x:%2x:%2x:%2x:%2x%c", &v[0], &v[1], &v[2], &v[3],
		   &v[4], &v[5], &tail) != 6)
		return false;
	for (i = 0; i < 6; i++) {
		if (s[3 * i + 2] != (i < 5 ? ':' : 0) ||
		    !strchr("0123456789abcdefABCDEF", s[3 * i]) ||
		    !strchr("0123456789abcdefABCDEF", s[3 * i + 1]))
			return false;
		mac[i] = (uint8_t)v[i];
	}
	return true;
}

static void need_mac(const char *s, const char *what, uint8_t mac[6])
{
	if (!parse_mac(s, mac))
		die("%s: '%s' is not a MAC address (xx:xx:xx:xx:xx:xx)", what, s);
}

uint8_t parse_algo(const char *s)
{
	unsigned int i;

	for (i = 1; i <= N_ALGOS; i++)
		if (!strcmp(s, algo_names[i]))
			return (uint8_t)i;
	if (s[0] >= '0' && s[0] <= '9')
		return (uint8_t)parse_num(s, "algo", 0, 255);
	die("algo: unknown algorithm '%s' (bully, ring, ring-all, ring-list, min-bully, enh-bully, invitation, or 0..255)",
	    s);
}

/* a message type's name (or "coord", "hb"): its number; else -1 */
static int type_by_name(const char *s)
{
	unsigned int i;

	if (!strcmp(s, "coord"))
		return ELEC_MSG_COORDINATOR;
	if (!strcmp(s, "hb"))
		return ELEC_MSG_HEARTBEAT;
	for (i = 1; i < N_TYPES; i++)
		if (type_names[i] && !strcmp(s, type_names[i]))
			return (int)i;
	return -1;
}

uint8_t parse_type(const char *s)
{
	int t = type_by_name(s);

	if (t >= 0)
		return (uint8_t)t;
	if (s[0] >= '0' && s[0] <= '9')
		return (uint8_t)parse_num(s, "type", 0, 255);
	die("type: unknown message type '%s' (election, answer, coordinator, heartbeat, ack, query, cid, ayc, ayc_reply, invite, accept, ready, alive, or 0..255)",
	    s);
}

bool is_type_word(const char *s)
{
	return type_by_name(s) >= 0;
}

/* nodes ID[@MAC],ID[@MAC],... */
static void parse_nodes(const char *s)
{
	char *copy = strdup(s), *tok, *save = NULL, *at;
	struct node *n;

	if (!copy)
		die("out of memory");
	model.n_nodes = 0;
	for (tok = strtok_r(copy, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		if (model.n_nodes >= MAX_NODES)
			die("nodes: more than %d", MAX_NODES);
		n = &model.nodes[model.n_nodes];
		memset(n, 0, sizeof(*n));
		at = strchr(tok, '@');
		if (at) {
			*at = 0;
			need_mac(at + 1, "nodes", n->mac);
			n->has_mac = true;
		}
		n->id = (uint32_t)parse_num(tok, "nodes", 1, UINT32_MAX);
		if (node_by_id(n->id))
			die("nodes: id %u given twice", n->id);
		model.n_nodes++;
	}
	free(copy);
	if (!model.n_nodes)
		die("nodes: no node in '%s'", s);
}

/* a group id frames are sent to (fuzz: group G, repeatable) */
void add_target_group(uint16_t id)
{
	unsigned int i;

	for (i = 0; i < gen.n_groups; i++)
		if (gen.groups[i] == id)
			die("group %u given twice", id);
	if (gen.n_groups >= MAX_GROUPS)
		die("more than %d groups", MAX_GROUPS);
	gen.groups[gen.n_groups++] = id;
}

/*
 * groups G:ALGO[:stopped|running][:key=FILE],...: the groups every node
 * holds (the model), a key (FILE without ',' or ':') for a keyed one;
 * fuzz sends its frames to them too
 */
static void parse_groups(const char *s)
{
	char *copy = strdup(s), *tok, *save = NULL, *p, *q;
	struct group g;

	if (!copy)
		die("out of memory");
	for (tok = strtok_r(copy, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		memset(&g, 0, sizeof(g));
		p = strchr(tok, ':');
		if (!p)
			die("groups: '%s': G:ALGO expected (e.g. 1:bully)", tok);
		*p++ = 0;
		g.id = (uint16_t)parse_num(tok, "groups", 1, 0xffff);
		q = strchr(p, ':');
		if (q)
			*q++ = 0;
		/* options after the algorithm: stopped|running, key=FILE */
		while (q) {
			char *opt = q;

			q = strchr(q, ':');
			if (q)
				*q++ = 0;
			if (!strcmp(opt, "stopped"))
				g.stopped = true;
			else if (!strcmp(opt, "running"))
				g.stopped = false;
			else if (!strncmp(opt, "key=", 4) && opt[4] && !g.keyed) {
				read_key(opt + 4, g.key);
				g.keyed = true;
			} else
				die("groups: group %u: 'stopped', 'running' or 'key=FILE' expected after the algorithm, not '%s'",
				    g.id, opt);
		}
		g.algo = parse_algo(p);
		if (g.algo < 1 || g.algo > N_ALGOS)
			die("groups: group %u: algorithm %u is not one the module runs",
			    g.id, g.algo);
		if (model.n_groups >= MAX_GROUPS)
			die("groups: more than %d", MAX_GROUPS);
		add_target_group(g.id);
		model.groups[model.n_groups++] = g;
	}
	free(copy);
	if (!model.n_groups)
		die("groups: no group in '%s'", s);
}

void parse_algos(const char *s)
{
	unsigned int i;

	if (!strcmp(s, "all")) {
		for (i = 0; i < N_ALGOS; i++)
			gen.algos[i] = (uint8_t)(i + 1);
		gen.n_algos = N_ALGOS;
		return;
	}
	gen.algos[0] = parse_algo(s);
	if (gen.algos[0] < 1 || gen.algos[0] > N_ALGOS)
		die("algo: %s is not an algorithm the module runs", s);
	gen.n_algos = 1;
}

bool common_opt(struct args *a, const char *kw, struct common *c)
{
	const char *v;

	if (!strcmp(kw, "ethertype")) {
		if (c->seen_ethertype)
			die("'ethertype' given twice");
		c->seen_ethertype = true;
		gen.ethertype = (uint16_t)parse_num(value_of(a, kw), kw, 0x600,
						    0xffff);
	} else if (!strcmp(kw, "src-mac")) {
		if (c->src_mac)
			die("'src-mac' given twice");
		c->src_mac = value_of(a, kw);
	} else if (!strcmp(kw, "dst-mac")) {
		if (c->dst_mac)
			die("'dst-mac' given twice");
		c->dst_mac = value_of(a, kw);
	} else if (!strcmp(kw, "batch")) {
		if (c->seen_batch)
			die("'batch' given twice");
		c->seen_batch = true;
		out.batch = (unsigned int)parse_num(value_of(a, kw), kw, 1,
						    BATCH_MAX);
	} else if (!strcmp(kw, "pace")) {
		if (c->seen_pace)
			die("'pace' given twice");
		c->seen_pace = true;
		v = value_of(a, kw);
		if (!strcmp(v, "on"))
			out.pace = true;
		else if (!strcmp(v, "off"))
			out.pace = false;
		else
			die("pace: 'on' or 'off', not '%s'", v);
	} else if (!strcmp(kw, "rate")) {
		if (c->seen_rate)
			die("'rate' given twice");
		c->seen_rate = true;
		out.rate = parse_seconds(value_of(a, kw), "rate");
	} else if (!strcmp(kw, "nodes")) {
		if (c->seen_nodes)
			die("'nodes' given twice");
		c->seen_nodes = true;
		parse_nodes(value_of(a, kw));
	} else if (!strcmp(kw, "groups")) {
		if (c->seen_groups)
			die("'groups' given twice");
		c->seen_groups = true;
		parse_groups(value_of(a, kw));
	} else if (!strcmp(kw, "absent-group")) {
		if (c->seen_absent)
			die("'absent-group' given twice");
		c->seen_absent = true;
		model.absent_group = (uint16_t)parse_num(value_of(a, kw), kw,
							 1, 0xffff);
	} else {
		return false;
	}
	return true;
}

/* after parsing: the destination MAC (default broadcast), model checks */
void common_finish(struct common *c)
{
	if (c->dst_mac)
		need_mac(c->dst_mac, "dst-mac", gen.dst_mac);
	else
		memset(gen.dst_mac, 0xff, 6);
	if (c->seen_absent && group_by_id(model.absent_group))
		die("absent-group %u is one of the groups", model.absent_group);
	if (model.n_nodes && !model.n_groups)
		die("'nodes' needs 'groups G:ALGO,...' to predict drops");
	if (model.n_groups && !model.n_nodes)
		die("'groups' predicts drops only with 'nodes'");
	if (model.n_nodes) {
		model.per_node = calloc(model.n_nodes, sizeof(*model.per_node));
		if (!model.per_node)
			die("out of memory");
	}
}

/* the default: keep a capture's source MAC (replay, flip), else DEV's own */
enum src_mode src_mode_of(const char *s, bool keep_ok)
{
	if (!s)
		return keep_ok ? SRC_KEEP : SRC_OWN;
	if (!strcmp(s, "own"))
		return SRC_OWN;
	if (!strcmp(s, "keep")) {
		if (!keep_ok)
			die("src-mac: 'keep' only replays a capture's frames");
		return SRC_KEEP;
	}
	need_mac(s, "src-mac", gen.src_mac);
	return SRC_SET;
}
