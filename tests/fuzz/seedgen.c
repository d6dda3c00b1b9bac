// SPDX-License-Identifier: GPL-2.0
/*
 * seedgen: seed inputs for the fuzz targets, from real runs of the core.
 *
 * A small network of four cores (module/core, as the module runs
 * them) goes through a scripted run per algorithm and configuration:
 * staggered starts, the leader crashes, a partition and its heal, the
 * crashed node back, an administrator's election, the leader resigns and
 * comes back. Every input of one node (each node in turn) is written in
 * the core target's input format (fuzz_input.h): the frames it received
 * as their bytes, time as it passed, its own commands. The fuzzer then
 * starts from states that a random byte string rarely reaches (rings
 * mid-run with hop numbers to acknowledge, invitation groups merging).
 * The frames seen, one per (algorithm, type, length), are the codec
 * target's seeds.
 *
 *   seedgen DIR   writes DIR/core/... and DIR/codec/...
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include "ring.h"
#include "fuzz_input.h"

#define SG_N		4
#define SG_DELAY	50000ULL	/* one-way frame delay, ns */
#define SG_MAX_FRAMES	8192
#define SG_OUT_MAX	65536
#define SG_MS		1000000ULL

struct sg_frame {
	u64 at;
	u8 dst;
	u16 len;
	u8 bytes[ELECTION_HDR_LEN + ELECTION_MAX_PAYLOAD];
};

struct sg_node {
	struct elec_core c;
	struct elec_peer peers[FZ_MAX_PEERS];
	u64 q[ELEC_RING_QUEUE_BYTES / 8];
	struct elec_auth_peer auth_rx[FZ_MAX_PEERS];
	struct elec_peer_est est[FZ_MAX_PEERS];
	u32 id;
	u8 pos;
	bool up;
	u8 side;
};

struct sg_variant {
	const char *name;
	u8 algo;
	u8 opts;
	u8 hb, t, miss;		/* header bytes: fz_dur() indexes, hb-miss - 1 */
	u8 preempt_delay;	/* fz_opt_dur() byte */
	u8 search;		/* fz_opt_dur() byte */
	u8 ids[SG_N];		/* fz_id() bytes */
	u8 pos[SG_N];		/* ring positions (0: the id) */
};

struct sg {
	struct sg_node nodes[SG_N];
	struct sg_frame *frames;
	u32 n_frames;
	u64 now;
	int rec;		/* the node whose inputs are written */
	u8 out[SG_OUT_MAX];
	size_t out_len;
	u64 rec_now;
	const char *dir;
	u32 codec_seeds;
	bool seen[ELEC_ALGO_MAX + 1][ELEC_MSG_MAX + 1][64];
};

static struct sg g;

static void die(const char *what)
{
	perror(what);
	exit(1);
}

static void out_u8(u8 b)
{
	if (g.out_len >= SG_OUT_MAX) {
		fprintf(stderr, "seedgen: input too long\n");
		exit(1);
	}
	g.out[g.out_len++] = b;
}

/* time moves on to @t at the recorded node: an ADVANCE op */
static void rec_time(u64 t)
{
	u64 d;

	if (t <= g.rec_now)
		return;
	d = t - g.rec_now;
	g.rec_now = t;
	out_u8(FZ_OP_ADVANCE);
	do {
		u8 b = d & 0x7f;

		d >>= 7;
		out_u8(d ? b | 0x80 : b);
	} while (d);
}

static void rec_op(int node, u8 op)
{
	if (node != g.rec)
		return;
	rec_time(g.now);
	out_u8(op);
}

static void write_file(const char *path, const u8 *buf, size_t len)
{
	FILE *f = fopen(path, "wb");

	if (!f || fwrite(buf, 1, len, f) != len || fclose(f))
		die(path);
}

static void codec_seed(const u8 *buf, u16 len)
{
	u8 algo = buf[2], type = buf[1];
	char path[512];

	if (algo > ELEC_ALGO_MAX || type > ELEC_MSG_MAX ||
	    g.seen[algo][type][len % 64])
		return;
	g.seen[algo][type][len % 64] = true;
	snprintf(path, sizeof(path), "%s/codec/a%u-t%u-l%u.bin", g.dir, algo,
		 type, len);
	write_file(path, buf, len);
	g.codec_seeds++;
}

static void push_frame(int dst, const u8 *buf, u16 len)
{
	struct sg_frame *fr;
	u32 i;

	if (g.n_frames == SG_MAX_FRAMES) {
		fprintf(stderr, "seedgen: too many frames in flight\n");
		exit(1);
	}
	/* sorted by time, FIFO among equals */
	i = g.n_frames++;
	while (i && g.frames[i - 1].at > g.now + SG_DELAY) {
		g.frames[i] = g.frames[i - 1];
		i--;
	}
	fr = &g.frames[i];
	fr->at = g.now + SG_DELAY;
	fr->dst = (u8)dst;
	fr->len = len;
	memcpy(fr->bytes, buf, len);
}

static void emit(void *ctx, const struct elec_action *act)
{
	struct sg_node *nd = ctx;
	u8 buf[ELECTION_HDR_LEN + ELECTION_MAX_PAYLOAD];
	size_t len;
	int i;

	if (act->kind != ELEC_ACT_SEND)
		return;	/* timers: read from the cores' timer_expires */
	len = elec_codec_encode(&act->msg, buf, sizeof(buf));
	if (!len) {
		fprintf(stderr, "seedgen: encode failed\n");
		exit(1);
	}
	codec_seed(buf, (u16)len);
	for (i = 0; i < SG_N; i++) {
		struct sg_node *d = &g.nodes[i];

		if (d == nd || d->side != nd->side)
			continue;
		if (act->msg.dst && act->msg.dst != d->id)
			continue;
		push_frame(i, buf, (u16)len);
	}
}

static void deliver(const struct sg_frame *fr)
{
	struct sg_node *nd = &g.nodes[fr->dst];
	struct elec_msg m;
	u8 ll[ELEC_LLADDR_LEN];

	if (!nd->up)
		return;
	if (elec_codec_decode(fr->bytes, fr->len, &m) != ELEC_DECODE_OK) {
		fprintf(stderr, "seedgen: a sent frame does not decode\n");
		exit(1);
	}
	fz_lladdr(m.src, ll);
	m.src_lladdr = ll;
	if (fr->dst == g.rec) {
		rec_time(g.now);
		out_u8(FZ_OP_RAW);
		if (fr->len < 255) {
			out_u8((u8)fr->len);
		} else {
			out_u8(255);
			out_u8((u8)(fr->len >> 8));
			out_u8((u8)fr->len);
		}
		for (size_t i = 0; i < fr->len; i++)
			out_u8(fr->bytes[i]);
		out_u8(FZ_LL_PEER);
	}
	elec_core_rx(&nd->c, &m, g.now);
}

/* the earliest armed timer of a running node; ties: the lowest id */
static bool next_timer(u64 *at, int *node, u32 *id)
{
	bool found = false;
	int i;
	u32 k;

	for (i = 0; i < SG_N; i++) {
		struct sg_node *nd = &g.nodes[i];

		if (!nd->up || !nd->c.running)
			continue;
		for (k = 0; k < ELEC_TIMER_COUNT; k++) {
			u64 e = nd->c.timer_expires[k];

			if (e && (!found || e < *at)) {
				*at = e;
				*node = i;
				*id = k;
				found = true;
			}
		}
	}
	return found;
}

/* run the network until @until: timers first, then frames, at each time */
static void run_until(u64 until)
{
	for (;;) {
		u64 t_at = 0;
		int t_node = 0;
		u32 t_id = 0;
		bool t = next_timer(&t_at, &t_node, &t_id);
		u64 f_at = g.n_frames ? g.frames[0].at : U64_MAX;

		if (t && t_at <= f_at && t_at <= until) {
			if (t_at > g.now)
				g.now = t_at;
			if (t_node == g.rec)
				rec_time(g.now);
			elec_core_timer(&g.nodes[t_node].c, t_id, g.now);
		} else if (g.n_frames && f_at <= until) {
			struct sg_frame fr = g.frames[0];

			memmove(g.frames, g.frames + 1,
				--g.n_frames * sizeof(g.frames[0]));
			if (f_at > g.now)
				g.now = f_at;
			deliver(&fr);
		} else {
			break;
		}
	}
	if (until > g.now)
		g.now = until;
}

static void node_start(int i)
{
	g.nodes[i].up = true;
	rec_op(i, FZ_OP_START);
	elec_core_start(&g.nodes[i].c, g.now);
}

static void node_stop(int i)
{
	rec_op(i, FZ_OP_STOP);
	elec_core_stop(&g.nodes[i].c, g.now);
	g.nodes[i].up = false;
}

static int leader_index(void)
{
	int i;

	for (i = 0; i < SG_N; i++)
		if (g.nodes[i].up && g.nodes[i].c.role == ELEC_ROLE_LEADER)
			return i;
	return SG_N - 1;
}

static void setup(const struct sg_variant *v)
{
	struct elec_config cfg;
	int i, j;

	memset(&g.nodes, 0, sizeof(g.nodes));
	g.n_frames = 0;
	g.now = 1000000000ULL;	/* the target's start time */
	g.rec_now = g.now;
	g.out_len = 0;

	memset(&cfg, 0, sizeof(cfg));
	cfg.group = 1;
	cfg.algo = v->algo;
	cfg.quorum = v->opts & FZ_OPT_QUORUM;
	cfg.suppress_off = v->opts & FZ_OPT_SUPPRESS_OFF;
	cfg.ask_suspect_off = v->opts & FZ_OPT_ASK_SUSPECT_OFF;
	cfg.preempt_off = v->opts & FZ_OPT_PREEMPT_OFF;
	cfg.detector = v->opts & FZ_OPT_ADAPTIVE ? ELECTION_DETECTOR_ADAPTIVE :
						   ELECTION_DETECTOR_FIXED;
	cfg.timeout_auto = v->opts & FZ_OPT_TIMEOUT_AUTO;
	cfg.hb_interval_ns = fz_dur(v->hb);
	cfg.timeout_ns = fz_dur(v->t);
	cfg.hb_miss = fz_hb_miss(v->miss);
	cfg.preempt_delay_ns = fz_opt_dur(v->preempt_delay);
	cfg.search_interval_ns = fz_opt_dur(v->search);

	for (i = 0; i < SG_N; i++) {
		struct sg_node *nd = &g.nodes[i];
		struct elec_sink sink = { .emit = emit, .ctx = nd };
		bool ring = elec_algo_is_ring(v->algo);

		nd->id = fz_id(v->ids[i]);
		nd->pos = ring ? v->pos[i] : 0;
		cfg.self_id = nd->id;
		cfg.self_pos = nd->pos;
		if (elec_core_init(&nd->c, &cfg, nd->peers, FZ_MAX_PEERS,
				   &sink)) {
			fprintf(stderr, "seedgen: %s: invalid configuration\n",
				v->name);
			exit(1);
		}
		if (ring)
			elec_core_set_queue(&nd->c, nd->q, sizeof(nd->q));
		/* as the target gives it (fuzz_core.c) */
		if (elec_config_needs_est(&cfg))
			elec_core_set_est(&nd->c, nd->est);
	}
	for (i = 0; i < SG_N; i++)
		for (j = 0; j < SG_N; j++) {
			u8 ll[ELEC_LLADDR_LEN];

			if (i == j)
				continue;
			fz_lladdr(g.nodes[j].id, ll);
			if (elec_core_peer_add_pos(&g.nodes[i].c,
						   g.nodes[j].id, ll,
						   g.nodes[j].pos)) {
				fprintf(stderr, "seedgen: %s: peer refused\n",
					v->name);
				exit(1);
			}
		}
	/* a key: as the target does it, with the core clock for wall clock */
	for (i = 0; v->opts & FZ_OPT_AUTH && i < SG_N; i++)
		elec_core_set_auth(&g.nodes[i].c, g.nodes[i].auth_rx, g.now,
				   g.now);

	/* the recorded node's header (fuzz_input.h) */
	out_u8((u8)(v->algo - 1));
	out_u8(v->opts);
	out_u8(v->hb);
	out_u8(v->t);
	out_u8(v->miss);
	out_u8(0);		/* coord-timeout: the default */
	out_u8(v->preempt_delay);
	out_u8(v->search);
	out_u8(v->ids[g.rec]);
	out_u8(g.nodes[g.rec].pos);
	out_u8(0);		/* ring queue: ELEC_RING_QUEUE_BYTES */
	out_u8(SG_N - 1);
	for (j = 0; j < SG_N; j++) {
		if (j == g.rec)
			continue;
		out_u8(v->ids[j]);
		out_u8(g.nodes[j].pos);
	}
}

static void partition(bool on)
{
	int i;

	for (i = 0; i < SG_N; i++)
		g.nodes[i].side = on && i >= SG_N / 2;
	/* frames in flight across the cut are lost */
	if (on) {
		u32 r, w = 0;

		for (r = 0; r < g.n_frames; r++)
			if (g.frames[r].dst < SG_N / 2)
				g.frames[w++] = g.frames[r];
		g.n_frames = w;
	}
}

static void scenario(const struct sg_variant *v)
{
	int i, crashed, l;

	setup(v);
	for (i = 0; i < SG_N; i++) {
		node_start(i);
		run_until(g.now + SG_MS);
	}
	run_until(1100 * SG_MS);
	crashed = leader_index();
	node_stop(crashed);
	run_until(1180 * SG_MS);
	partition(true);
	run_until(1260 * SG_MS);
	partition(false);
	run_until(1300 * SG_MS);
	node_start(crashed);
	run_until(1380 * SG_MS);
	rec_op(1, FZ_OP_ELECT);
	elec_core_elect(&g.nodes[1].c, g.now);
	run_until(1450 * SG_MS);
	l = leader_index();
	if (g.nodes[l].up) {
		rec_op(l, FZ_OP_RESIGN);
		elec_core_resign(&g.nodes[l].c, g.now);
		node_stop(l);
	}
	run_until(1500 * SG_MS);
	if (!g.nodes[l].up)
		node_start(l);
	run_until(1600 * SG_MS);
	rec_time(g.now);
}

/* durations: fz_durs[] indexes */
#define D2MS	4
#define D5MS	5
#define D10MS	6
#define D20MS	7
#define D50MS	8

static const struct sg_variant variants[] = {
	{ "bully", ELEC_ALGO_BULLY, 0, D10MS, D5MS, 2, 0, 0,
	  { 1, 2, 3, 4 }, { 0 } },
	{ "bully-ids", ELEC_ALGO_BULLY, 0, D10MS, D5MS, 2, 0, 0,
	  { 3, 9, 200, 0xfe }, { 0 } },
	{ "bully-auth", ELEC_ALGO_BULLY, FZ_OPT_AUTH, D10MS, D5MS, 2, 0, 0,
	  { 1, 2, 3, 4 }, { 0 } },
	{ "bully-quorum", ELEC_ALGO_BULLY, FZ_OPT_QUORUM, D10MS, D2MS, 3, 0, 0,
	  { 1, 2, 3, 4 }, { 0 } },
	{ "bully-nosuspect-nopreempt", ELEC_ALGO_BULLY,
	  FZ_OPT_ASK_SUSPECT_OFF | FZ_OPT_PREEMPT_OFF, D10MS, D5MS, 2, 0, 0,
	  { 1, 2, 3, 4 }, { 0 } },
	{ "bully-preempt-delay", ELEC_ALGO_BULLY, 0, D10MS, D5MS, 2,
	  1 + D20MS, 0, { 1, 2, 3, 4 }, { 0 } },
	{ "min-bully", ELEC_ALGO_MIN_BULLY, 0, D10MS, D5MS, 2, 0, 0,
	  { 1, 2, 3, 4 }, { 0 } },
	{ "min-bully-ids", ELEC_ALGO_MIN_BULLY, 0, D10MS, D5MS, 2, 0, 0,
	  { 3, 9, 200, 0xfe }, { 0 } },
	{ "min-bully-quorum", ELEC_ALGO_MIN_BULLY, FZ_OPT_QUORUM, D10MS, D2MS,
	  3, 0, 0, { 1, 2, 3, 4 }, { 0 } },
	{ "min-bully-nopreempt", ELEC_ALGO_MIN_BULLY, FZ_OPT_PREEMPT_OFF,
	  D10MS, D5MS, 2, 0, 0, { 1, 2, 3, 4 }, { 0 } },
	{ "enh-bully", ELEC_ALGO_ENH_BULLY, 0, D10MS, D5MS, 2, 0, 0,
	  { 1, 2, 3, 4 }, { 0 } },
	{ "enh-bully-ids", ELEC_ALGO_ENH_BULLY, 0, D10MS, D5MS, 2, 0, 0,
	  { 3, 9, 200, 0xfe }, { 0 } },
	{ "enh-bully-auth", ELEC_ALGO_ENH_BULLY, FZ_OPT_AUTH, D10MS, D5MS, 2,
	  0, 0, { 1, 2, 3, 4 }, { 0 } },
	{ "enh-bully-quorum", ELEC_ALGO_ENH_BULLY, FZ_OPT_QUORUM, D10MS, D2MS,
	  3, 0, 0, { 1, 2, 3, 4 }, { 0 } },
	{ "enh-bully-nopreempt", ELEC_ALGO_ENH_BULLY, FZ_OPT_PREEMPT_OFF,
	  D10MS, D5MS, 2, 0, 0, { 1, 2, 3, 4 }, { 0 } },
	{ "ring", ELEC_ALGO_RING, 0, D10MS, D5MS, 2, 0, 0,
	  { 1, 2, 3, 4 }, { 0 } },
	{ "ring-pos", ELEC_ALGO_RING, 0, D10MS, D5MS, 2, 0, 0,
	  { 3, 9, 200, 0xfe }, { 4, 2, 1, 3 } },
	{ "ring-nosuppress", ELEC_ALGO_RING, FZ_OPT_SUPPRESS_OFF, D10MS, D5MS,
	  2, 0, 0, { 1, 2, 3, 4 }, { 0 } },
	{ "ring-all", ELEC_ALGO_RING_ALL, 0, D10MS, D5MS, 2, 0, 0,
	  { 1, 2, 3, 4 }, { 0 } },
	{ "ring-all-pos", ELEC_ALGO_RING_ALL, 0, D10MS, D5MS, 2, 0, 0,
	  { 3, 9, 200, 0xfe }, { 4, 2, 1, 3 } },
	{ "ring-list", ELEC_ALGO_RING_LIST, 0, D10MS, D5MS, 2, 0, 0,
	  { 1, 2, 3, 4 }, { 0 } },
	{ "ring-list-auth", ELEC_ALGO_RING_LIST, FZ_OPT_AUTH, D10MS, D5MS, 2,
	  0, 0, { 1, 2, 3, 4 }, { 0 } },
	{ "ring-list-pos", ELEC_ALGO_RING_LIST, 0, D10MS, D5MS, 2, 0, 0,
	  { 3, 9, 200, 0xfe }, { 4, 2, 1, 3 } },
	{ "invitation", ELEC_ALGO_INVITATION, 0, D10MS, D5MS, 2, 0, 0,
	  { 1, 2, 3, 4 }, { 0 } },
	{ "invitation-auth", ELEC_ALGO_INVITATION, FZ_OPT_AUTH, D10MS, D5MS,
	  2, 0, 0, { 1, 2, 3, 4 }, { 0 } },
	{ "bully-adaptive-auto", ELEC_ALGO_BULLY,
	  FZ_OPT_ADAPTIVE | FZ_OPT_TIMEOUT_AUTO, D10MS, D5MS, 2, 0, 0,
	  { 1, 2, 3, 4 }, { 0 } },
	{ "ring-adaptive-auto", ELEC_ALGO_RING,
	  FZ_OPT_ADAPTIVE | FZ_OPT_TIMEOUT_AUTO, D10MS, D5MS, 2, 0, 0,
	  { 1, 2, 3, 4 }, { 0 } },
	{ "invitation-adaptive-auto", ELEC_ALGO_INVITATION,
	  FZ_OPT_ADAPTIVE | FZ_OPT_TIMEOUT_AUTO, D10MS, D5MS, 2, 0, 0,
	  { 1, 2, 3, 4 }, { 0 } },
	{ "invitation-search", ELEC_ALGO_INVITATION, 0, D10MS, D5MS, 2, 0,
	  1 + D50MS, { 3, 9, 200, 0xfe }, { 0 } },
};

static void mkdir_p(const char *path)
{
	if (mkdir(path, 0755) && errno != EEXIST)
		die(path);
}

int main(int argc, char **argv)
{
	char path[512];
	size_t v;
	u32 n = 0;

	if (argc != 2) {
		fprintf(stderr, "usage: seedgen DIR\n");
		return 2;
	}
	g.dir = argv[1];
	g.frames = calloc(SG_MAX_FRAMES, sizeof(*g.frames));
	if (!g.frames)
		die("calloc");
	mkdir_p(g.dir);
	snprintf(path, sizeof(path), "%s/core", g.dir);
	mkdir_p(path);
	snprintf(path, sizeof(path), "%s/codec", g.dir);
	mkdir_p(path);

	for (v = 0; v < sizeof(variants) / sizeof(variants[0]); v++)
		for (g.rec = 0; g.rec < SG_N; g.rec++) {
			scenario(&variants[v]);
			snprintf(path, sizeof(path), "%s/core/%s-n%u.bin", g.dir,
				 variants[v].name, g.nodes[g.rec].id);
			write_file(path, g.out, g.out_len);
			n++;
		}
	printf("seedgen: %u core seeds, %u codec seeds in %s\n", n,
	       g.codec_seeds, g.dir);
	free(g.frames);
	return 0;
}
