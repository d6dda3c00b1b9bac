// SPDX-License-Identifier: GPL-2.0
/*
 * elec-inject: frame generation: the random numbers, valid frames, every category
 * of bad ones, mutations and bit flips.
 */
#include "elec-inject.h"

const char *const cat_names[N_CATS] = {
	[C_RUNT] = "runt",
	[C_VERSION] = "version",
	[C_TYPE] = "type",
	[C_ALGO] = "algo",
	[C_FLAGS] = "flags",
	[C_LEAVING] = "leaving",
	[C_GROUP0] = "group0",
	[C_SRC0] = "src0",
	[C_LEN_MAX] = "len-max",
	[C_LEN_BEYOND] = "len-beyond",
	[C_PAYLOAD_LEN] = "payload-len",
	[C_PAYLOAD] = "payload",
	[C_TYPE_ALGO] = "type-algo",
	[C_AUTH_TRAILER] = "auth-trailer",
	[C_AUTH_CUT] = "auth-cut",
	[C_AUTH_SIGNED] = "auth-signed",
	[C_WRONG_GROUP] = "wrong-group",
	[C_STOPPED] = "stopped",
	[C_WRONG_ALGO] = "wrong-algo",
	[C_WRONG_DST] = "wrong-dst",
	[C_UNKNOWN_PEER] = "unknown-peer",
	[C_PEER_ID] = "peer-id",
	[C_MUTATED] = "mutated",
	[C_RANDOM] = "random",
	[C_FORGED] = "forged",
	[C_REPLAYED] = "replayed",
	[C_FLIPPED] = "flipped",
};

/* ------------------------------------------------------------------ */
/* deterministic random numbers: splitmix64                            */

uint64_t rng_state;

uint64_t rnd64(void)
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* uniform in [0, n), n > 0 (the modulo bias is negligible here) */
uint32_t rnd(uint32_t n)
{
	return (uint32_t)(rnd64() % n);
}

/* uniform in [lo, hi] */
static uint32_t rnd_range(uint32_t lo, uint32_t hi)
{
	return lo + (uint32_t)(rnd64() % ((uint64_t)hi - lo + 1));
}

static bool chance(uint32_t n)	/* true with probability 1/n */
{
	return rnd(n) == 0;
}

void rnd_bytes(uint8_t *p, size_t n)
{
	while (n--)
		*p++ = (uint8_t)rnd64();
}

static uint32_t rnd_id(void)	/* non-zero */
{
	switch (rnd(4)) {
	case 0:
		return rnd_range(1, 16);
	case 1:
		return rnd_range(1, 0xffff);
	default:
		return rnd_range(1, UINT32_MAX);
	}
}

static uint64_t rnd_term(void)
{
	switch (rnd(5)) {
	case 0:
		return 0;
	case 1:
		return rnd_range(1, 100);
	case 2:
		return UINT64_MAX - rnd(3);
	default:
		return rnd64();
	}
}

/* ------------------------------------------------------------------ */
/* frame generation                                                    */

struct gen gen;

uint8_t *body_of(struct frame *f)
{
	return f->b + ETH_HDR;
}

void eth_header(struct frame *f)
{
	memcpy(f->b, gen.dst_mac, 6);
	memcpy(f->b + 6, gen.src_mac, 6);
	put16(f->b + 12, gen.ethertype);
}

void pad(struct frame *f)
{
	if (f->len < MIN_FRAME) {
		memset(f->b + f->len, 0, MIN_FRAME - f->len);
		f->len = MIN_FRAME;
	}
}

/* n ids, strictly ascending from above @floor, that fit in 32 bits */
static void put_ascending(uint8_t *p, unsigned int n)
{
	uint64_t prev = 0, room;
	unsigned int i;

	for (i = 0; i < n; i++) {
		room = (UINT32_MAX - prev) / (n - i + 1);
		if (room < 1)
			room = 1;
		prev += 1 + rnd64() % (room > 1000 ? 1000 : room);
		put32(p + 4 * i, (uint32_t)prev);
	}
}

static unsigned int rnd_count(unsigned int lo, unsigned int hi)
{
	if (chance(8))
		return rnd_range(lo, hi);
	return rnd_range(lo, hi < lo + 7 ? hi : lo + 7);
}

/* a valid payload for (algo, type) into p; returns its length */
static unsigned int valid_payload(unsigned int algo, unsigned int type,
				  uint8_t *p)
{
	unsigned int n;

	if (type == ELEC_MSG_ALIVE) {
		if (chance(4)) {
			memset(p, 0, 12);
		} else {
			put32(p, rnd_id());
			put64(p + 4, rnd_term() | 1);
		}
		return 12;
	}
	switch (algo) {
	case ELEC_ALGO_RING:
	case ELEC_ALGO_RING_ALL:
	case ELEC_ALGO_RING_LIST:
		if (type == ELEC_MSG_HEARTBEAT)
			return 0;
		put32(p, (uint32_t)rnd64());	/* hop number */
		if (type == ELEC_MSG_ACK)
			return 4;
		if (algo == ELEC_ALGO_RING) {
			put32(p + 4, rnd_id());
			return 8;
		}
		if (algo == ELEC_ALGO_RING_ALL) {
			put32(p + 4, rnd_id());
			if (type == ELEC_MSG_ELECTION)
				return 8;
			put32(p + 8, rnd_id());
			return 12;
		}
		n = rnd_count(1, RING_LIST_MAX);
		put16(p + 4, (uint16_t)n);
		put16(p + 6, 0);
		rnd_bytes(p + 8, 4 * n);	/* the list's ids are not checked */
		return 8 + 4 * n;
	case ELEC_ALGO_MIN_BULLY:
		if (type == ELEC_MSG_COORDINATOR) {
			put32(p, rnd_id());
			return 4;
		}
		return 0;
	case ELEC_ALGO_ENH_BULLY:
		if (type == ELEC_MSG_ELECTION) {
			put32(p, chance(3) ? 0 : rnd_id());
			return 4;
		}
		if (type == ELEC_MSG_COORDINATOR || type == ELEC_MSG_CID) {
			n = rnd_count(1, ENH_MAX_CANDS);
			put32(p, rnd_id());
			put16(p + 4, (uint16_t)n);
			put16(p + 6, 0);
			put_ascending(p + 8, n);
			return 8 + 4 * n;
		}
		return 0;
	case ELEC_ALGO_INVITATION:
		switch (type) {
		case ELEC_MSG_AYC_REPLY:
			put32(p, chance(3) ? 0 : rnd_id());
			put32(p + 4, (uint32_t)rnd64());
			return 8;
		case ELEC_MSG_INVITE:
			n = rnd_count(1, INV_MAX_IDS);
			put32(p, rnd_id());
			put16(p + 4, (uint16_t)n);
			p[6] = (uint8_t)rnd(INV_WIN_SHIFT_MAX + 1);
			p[7] = 0;
			put_ascending(p + 8, n);
			return 8 + 4 * n;
		case ELEC_MSG_READY:
			n = rnd_count(0, INV_MAX_IDS);
			put16(p, (uint16_t)n);
			put16(p + 2, 0);
			put32(p + 4, (uint32_t)rnd64());
			put_ascending(p + 8, n);
			return 8 + 4 * n;
		default:
			return 0;
		}
	default:		/* bully */
		return 0;
	}
}

/* types with rules on their payload's content (not only its length) */
static bool has_content_rule(unsigned int algo, unsigned int type)
{
	if (type == ELEC_MSG_ALIVE)
		return true;
	switch (algo) {
	case ELEC_ALGO_RING:
	case ELEC_ALGO_RING_ALL:
	case ELEC_ALGO_RING_LIST:
		return type == ELEC_MSG_ELECTION || type == ELEC_MSG_COORDINATOR;
	case ELEC_ALGO_MIN_BULLY:
		return type == ELEC_MSG_COORDINATOR;
	case ELEC_ALGO_ENH_BULLY:
		return type == ELEC_MSG_COORDINATOR || type == ELEC_MSG_CID;
	case ELEC_ALGO_INVITATION:
		return type == ELEC_MSG_INVITE || type == ELEC_MSG_READY;
	}
	return false;
}

/* spoil the content of a valid payload of such a type, keeping its length */
static void spoil_content(unsigned int algo, unsigned int type, uint8_t *p,
			  unsigned int len)
{
	unsigned int n, k, off = 0;

	if (type == ELEC_MSG_ALIVE) {
		if (get32(p)) {
			if (chance(2))
				put32(p, 0);
			else
				put64(p + 4, 0);
		} else {
			if (chance(2))
				put32(p, rnd_id());
			else
				put64(p + 4, rnd64() | 1);
		}
		return;
	}
	if (algo == ELEC_ALGO_RING || algo == ELEC_ALGO_RING_ALL) {
		/* a zero id (ring-all's coordinator: either) */
		put32(p + 4 + (len == 12 && chance(2) ? 4 : 0), 0);
		return;
	}
	if (algo == ELEC_ALGO_MIN_BULLY) {
		put32(p, 0);
		return;
	}
	if (algo == ELEC_ALGO_RING_LIST) {
		off = 4;
		n = get16(p + off);
		switch (rnd(3)) {
		case 0:		/* reserved bytes */
			p[off + 2 + rnd(2)] = (uint8_t)rnd_range(1, 255);
			break;
		case 1:		/* count 0 or above the maximum */
			put16(p + off, chance(2) ? 0 :
			      (uint16_t)rnd_range(RING_LIST_MAX + 1, 0xffff));
			break;
		default:	/* a count that does not match the length */
			k = rnd_range(1, 0xffff);
			put16(p + off, (uint16_t)(k == n ? n + 1 : k));
			break;
		}
		return;
	}
	/* enh-bully sets, invite: coordinator, count, 0, 0, ids */
	if (algo == ELEC_ALGO_ENH_BULLY || type == ELEC_MSG_INVITE) {
		unsigned int max = algo == ELEC_ALGO_ENH_BULLY ?
				   ENH_MAX_CANDS : INV_MAX_IDS;

		n = get16(p + 4);
		switch (rnd(5)) {
		case 0:
			put32(p, 0);
			break;
		case 1:
			/* a reserved byte, or an invite's shift out of range */
			if (type == ELEC_MSG_INVITE && !rnd(2))
				p[6] = (uint8_t)rnd_range(INV_WIN_SHIFT_MAX + 1,
							  255);
			else if (type == ELEC_MSG_INVITE)
				p[7] = (uint8_t)rnd_range(1, 255);
			else
				p[6 + rnd(2)] = (uint8_t)rnd_range(1, 255);
			break;
		case 2:
			put16(p + 4, chance(2) ? 0 :
			      (uint16_t)rnd_range(max + 1, 0xffff));
			break;
		case 3:
			k = rnd_range(1, 0xffff);
			put16(p + 4, (uint16_t)(k == n ? n + 1 : k));
			break;
		default:	/* ids not strictly ascending */
			if (n == 1) {
				put32(p + 8, 0);
			} else {
				k = rnd(n - 1);
				put32(p + 8 + 4 * (k + 1), get32(p + 8 + 4 * k));
			}
			break;
		}
		return;
	}
	/* ready: count, 0, 0, version, ids */
	n = get16(p);
	switch (rnd(4)) {
	case 0:
		p[2 + rnd(2)] = (uint8_t)rnd_range(1, 255);
		break;
	case 1:
		put16(p, (uint16_t)rnd_range(INV_MAX_IDS + 1, 0xffff));
		break;
	case 2:
		k = rnd_range(0, 0xffff);
		put16(p, (uint16_t)(k == n ? n + 1 : k));
		break;
	default:
		if (n == 0) {
			put16(p, 1);	/* one id announced, none there */
		} else if (n == 1) {
			put32(p + 8, 0);
		} else {
			k = rnd(n - 1);
			put32(p + 8 + 4 * (k + 1), get32(p + 8 + 4 * k));
		}
		break;
	}
}

static uint8_t pick_algo(void)
{
	return gen.algos[rnd(gen.n_algos)];
}

static uint8_t pick_type(uint8_t algo)
{
	unsigned int n = 0;

	while (n < sizeof(algo_types[0]) && algo_types[algo][n])
		n++;
	return algo_types[algo][rnd(n)];
}

/* a running group of the model that runs @algo, else 0 */
static uint16_t group_of_algo(uint8_t algo)
{
	uint16_t cand[MAX_GROUPS];
	unsigned int i, n = 0;

	for (i = 0; i < model.n_groups; i++)
		if (model.groups[i].algo == algo && !model.groups[i].stopped)
			cand[n++] = model.groups[i].id;
	return n ? cand[rnd(n)] : 0;
}

static uint16_t pick_group(uint8_t algo)
{
	uint16_t g = group_of_algo(algo);

	if (g && !chance(8))
		return g;
	return gen.groups[rnd(gen.n_groups)];
}

static uint32_t node_id_any(void)
{
	return model.n_nodes ? model.nodes[rnd(model.n_nodes)].id : rnd_id();
}

/* an id that is no node's */
static uint32_t foreign_id(void)
{
	uint32_t id;

	do {
		id = rnd_id();
	} while (node_by_id(id));
	return id;
}

static uint16_t absent_group(void)
{
	uint16_t g;

	if (model.absent_group)
		return model.absent_group;
	do {
		g = (uint16_t)rnd_range(1, 0xffff);
	} while (group_by_id(g));
	return g;
}

/*
 * A valid frame of @algo and @type (type 0: any of the algorithm's) to
 * group @grp (0: one of the generator's); src, dst, term at random.
 */
void build_valid(struct frame *f, uint8_t algo, uint8_t type,
		 uint16_t grp)
{
	uint8_t *b = body_of(f);
	struct hdr h = { 0 };

	h.version = ELECTION_WIRE_VERSION;
	h.algo = algo;
	h.type = type ? type : pick_type(algo);
	h.flags = h.type == ELEC_MSG_HEARTBEAT && chance(4) ? FLAG_LEAVING : 0;
	h.group = grp ? grp : pick_group(algo);
	h.src = chance(4) ? rnd_id() : node_id_any();
	h.dst = chance(2) ? 0 : (chance(2) ? node_id_any() : rnd_id());
	h.term = rnd_term();
	h.plen = (uint16_t)valid_payload(h.algo, h.type, b + HDR);
	hdr_write(b, &h);
	eth_header(f);
	f->len = ETH_HDR + HDR + h.plen;
}

static void fatal_model(const char *what, const struct frame *f)
{
	size_t i;

	fprintf(stderr, "%s: internal error: %s:", prog, what);
	for (i = ETH_HDR; i < f->len && i < ETH_HDR + 64; i++)
		fprintf(stderr, " %02x", f->b[i]);
	fputc('\n', stderr);
	abort();
}

/* the verdict on @f must be @want: a check of the generator itself */
static void expect_verdict(const struct frame *f, enum verdict want)
{
	struct hdr h;

	if (body_verdict(f->b + ETH_HDR, f->len - ETH_HDR, &h) != want)
		fatal_model(want == V_OK ? "a valid frame does not decode" :
			    want == V_MALFORMED ? "a malformed frame is not" :
			    "a truncated trailer is not", f);
}

/* a keyed group of the model, or NULL */
static const struct group *keyed_group(void)
{
	const struct group *k[MAX_GROUPS];
	unsigned int i, n = 0;

	for (i = 0; i < model.n_groups; i++)
		if (model.groups[i].keyed)
			k[n++] = &model.groups[i];
	return n ? k[rnd(n)] : NULL;
}

/* the AUTH flag and the trailer: counter, then the MAC under @key */
void sign(struct frame *f, const uint8_t key[16], uint64_t counter)
{
	uint8_t *b = body_of(f);
	size_t blen = f->len - ETH_HDR;

	b[O_FLAGS] |= FLAG_AUTH;
	put64(b + blen, counter);
	siphash24_bytes(key, b, blen + 8, b + blen + 8);
	f->len += TRAILER;
}

static void set_plen(struct frame *f, uint16_t plen)
{
	put16(body_of(f) + O_PLEN, plen);
}

/*
 * Flip @bits bits (0: one to three) at random in @f's body. A flip that
 * moves a keyed frame's counter near the receivers' clock is drawn again
 * (up to 64 times): an old counter brought into auth-window is refused
 * as a replay by a receiver that has taken a later one from that peer
 * and reaches the MAC (auth_bad) at one that has not, and the model does
 * not know which. (96-auth's flip section saw both for the same flips,
 * depending on how old the capture was.)
 */
void flip_bits(struct frame *f, unsigned int bits)
{
	unsigned int nb = bits ? bits : rnd_range(1, 3), j, tries;
	uint64_t ctr0 = 0, ctr;
	bool near0 = counter_near_now(f->b, f->len, &ctr0);
	struct frame orig = *f;
	size_t k;

	for (tries = 0; tries < 64; tries++) {
		*f = orig;
		for (j = 0; j < nb; j++) {
			k = ETH_HDR + rnd((uint32_t)(f->len - ETH_HDR));
			f->b[k] ^= (uint8_t)(1u << rnd(8));
		}
		if (!counter_near_now(f->b, f->len, &ctr) ||
		    (near0 && ctr == ctr0))
			return;
	}
}

static void mutate(struct frame *f)
{
	uint8_t *b = body_of(f);
	size_t blen = f->len - ETH_HDR, k;
	unsigned int i, n = rnd_range(1, 4);

	for (i = 0; i < n; i++) {
		switch (rnd(10)) {
		case 0:
		case 1:
		case 2:		/* flip a bit */
			if (blen)
				b[rnd((uint32_t)blen)] ^= (uint8_t)(1u << rnd(8));
			break;
		case 3:		/* set a byte */
			if (blen)
				b[rnd((uint32_t)blen)] = (uint8_t)rnd64();
			break;
		case 4:		/* truncate */
			blen = rnd((uint32_t)blen + 1);
			break;
		case 5:		/* append bytes */
			k = rnd_range(1, 64);
			if (blen + k > MAX_BODY)
				k = MAX_BODY - blen;
			rnd_bytes(b + blen, k);
			blen += k;
			break;
		case 6:		/* payload_len */
			if (blen >= HDR) {
				uint16_t pl = get16(b + O_PLEN);

				put16(b + O_PLEN, chance(2) ? (uint16_t)rnd64() :
				      (uint16_t)(pl + (chance(2) ? 1 : -1)));
			}
			break;
		case 7:		/* type */
			if (blen > O_TYPE)
				b[O_TYPE] = (uint8_t)rnd_range(0, N_TYPES);
			break;
		case 8:		/* algorithm */
			if (blen > O_ALGO)
				b[O_ALGO] = (uint8_t)rnd_range(0, N_ALGOS + 1);
			break;
		default:	/* flags */
			if (blen > O_FLAGS)
				b[O_FLAGS] = (uint8_t)(1u << rnd(8));
			break;
		}
	}
	f->len = ETH_HDR + blen;
	if (chance(2))
		pad(f);
}

/* one frame of category @c */
void build_cat(struct frame *f, enum cat c)
{
	uint8_t *b = body_of(f);
	uint8_t algo = pick_algo(), type;
	unsigned int plen, k, tries;
	struct hdr h;

	switch (c) {
	case C_RUNT:
		eth_header(f);
		k = rnd(HDR);
		rnd_bytes(b, k);
		if (k && chance(2))
			b[0] = ELECTION_WIRE_VERSION;
		f->len = ETH_HDR + k;	/* not padded: veth does not pad */
		return;
	case C_RANDOM:
		eth_header(f);
		k = chance(16) ? rnd_range(0, MAX_BODY) : rnd_range(0, 200);
		rnd_bytes(b, k);
		if (k && chance(2))
			b[O_VERSION] = ELECTION_WIRE_VERSION;
		if (k > O_ALGO && chance(2)) {
			b[O_TYPE] = (uint8_t)rnd_range(0, N_TYPES);
			b[O_ALGO] = (uint8_t)rnd_range(0, N_ALGOS + 1);
		}
		if (k > O_FLAGS && chance(2))
			b[O_FLAGS] = 0;
		if (k >= HDR && chance(2))
			put16(b + O_PLEN, (uint16_t)rnd((uint32_t)(k - HDR + 2)));
		f->len = ETH_HDR + k;
		if (chance(2))
			pad(f);
		return;
	case C_MUTATED: {
		const struct group *g = chance(4) ? keyed_group() : NULL;

		if (g) {
			do {
				build_valid(f, g->algo, 0, g->id);
			} while (f->len + TRAILER > FRAME_MAX);
			sign(f, g->key, rnd64());
		} else {
			build_valid(f, algo, 0, 0);
		}
		mutate(f);
		return;
	}
	case C_WRONG_GROUP:
		build_valid(f, algo, 0, absent_group());
		break;
	case C_STOPPED: {
		unsigned int i, n = 0;
		const struct group *st[MAX_GROUPS];

		for (i = 0; i < model.n_groups; i++)
			if (model.groups[i].stopped)
				st[n++] = &model.groups[i];
		if (n) {
			const struct group *g = st[rnd(n)];

			build_valid(f, g->algo, 0, g->id);
		} else {
			build_valid(f, algo, 0, 0);
		}
		break;
	}
	case C_WRONG_ALGO: {
		uint16_t g = gen.groups[rnd(gen.n_groups)];
		const struct group *mg = group_by_id(g);
		uint8_t other = (uint8_t)rnd_range(1, N_ALGOS);

		if (mg && other == mg->algo)
			other = (uint8_t)(other % N_ALGOS + 1);
		build_valid(f, other, 0, g);
		break;
	}
	case C_WRONG_DST:
		build_valid(f, algo, 0, 0);
		put32(b + O_DST, foreign_id());
		break;
	case C_UNKNOWN_PEER:
		build_valid(f, algo, 0, 0);
		put32(b + O_SRC, foreign_id());
		put32(b + O_DST, 0);
		break;
	case C_PEER_ID:
		build_valid(f, algo, 0, 0);
		put32(b + O_SRC, node_id_any());
		put32(b + O_DST, chance(3) ? node_id_any() : 0);
		break;
	case C_VERSION:
		build_valid(f, algo, 0, 0);
		b[O_VERSION] = (uint8_t)(ELECTION_WIRE_VERSION + rnd_range(1, 255));
		break;
	case C_TYPE:
		build_valid(f, algo, 0, 0);
		k = rnd(3);
		b[O_TYPE] = (uint8_t)(k == 0 ? 0 : k == 1 ? ELEC_MSG_RETRY :
				      rnd_range(N_TYPES, 255));
		break;
	case C_ALGO:
		build_valid(f, algo, 0, 0);
		b[O_ALGO] = (uint8_t)(chance(3) ? 0 : rnd_range(N_ALGOS + 1, 255));
		break;
	case C_FLAGS:
		build_valid(f, algo, 0, 0);
		do {
			k = rnd_range(1, 255) & ~(unsigned int)FLAG_AUTH;
		} while (!(k & ~(unsigned int)FLAG_LEAVING));
		b[O_FLAGS] = (uint8_t)k;
		break;
	case C_LEAVING:
		do {
			type = pick_type(algo);
		} while (type == ELEC_MSG_HEARTBEAT &&
			 algo_types[algo][1]);	/* every algo has another */
		build_valid(f, algo, type, 0);
		b[O_FLAGS] = FLAG_LEAVING;
		break;
	case C_GROUP0:
		build_valid(f, algo, 0, 0);
		put16(b + O_GROUP, 0);
		break;
	case C_SRC0:
		build_valid(f, algo, 0, 0);
		put32(b + O_SRC, 0);
		break;
	case C_LEN_MAX:
		build_valid(f, algo, 0, 0);
		set_plen(f, (uint16_t)rnd_range(MAX_PAYLOAD + 1, 0xffff));
		break;
	case C_LEN_BEYOND:
		/* a valid frame whose declared payload runs past its end */
		do {
			build_valid(f, algo, 0, 0);
			if (chance(2))
				pad(f);
		} while (f->len - ETH_HDR - HDR >= MAX_PAYLOAD);
		plen = (unsigned int)(f->len - ETH_HDR - HDR);
		k = chance(2) ? plen + 4 : MAX_PAYLOAD;
		set_plen(f, (uint16_t)rnd_range(plen + 1, k < MAX_PAYLOAD ?
						 k : MAX_PAYLOAD));
		expect_verdict(f, V_MALFORMED);
		return;
	case C_PAYLOAD_LEN:
		/* the declared length matches the frame, wrong for the type */
		build_valid(f, algo, 0, 0);
		hdr_read(b, &h);
		for (tries = 0;; tries++) {
			if (h.plen == 0)
				plen = rnd_range(1, 32);
			else if (chance(2))
				plen = rnd(h.plen);
			else
				plen = h.plen + rnd_range(1, 9);
			if (plen > MAX_PAYLOAD)
				plen = MAX_PAYLOAD;
			if (plen > h.plen)
				rnd_bytes(b + HDR + h.plen, plen - h.plen);
			if (!payload_valid(h.algo, h.type, b + HDR, plen))
				break;
			if (tries > 100)
				fatal_model("no invalid payload length", f);
		}
		set_plen(f, (uint16_t)plen);
		f->len = ETH_HDR + HDR + plen;
		break;
	case C_PAYLOAD:
		do {
			type = pick_type(algo);
		} while (!has_content_rule(algo, type));
		build_valid(f, algo, type, 0);
		hdr_read(b, &h);
		spoil_content(algo, type, b + HDR, h.plen);
		break;
	case C_TYPE_ALGO:
		do {
			type = (uint8_t)rnd_range(1, N_TYPES - 1);
		} while (type == ELEC_MSG_RETRY || algo_has_type(algo, type));
		build_valid(f, algo, 0, 0);
		b[O_TYPE] = type;
		break;
	case C_AUTH_TRAILER:
	case C_AUTH_CUT:
		do {
			build_valid(f, algo, 0, 0);
		} while (f->len + TRAILER > FRAME_MAX);
		b[O_FLAGS] |= FLAG_AUTH;
		k = c == C_AUTH_TRAILER ? TRAILER : rnd(TRAILER);
		rnd_bytes(f->b + f->len, k);
		f->len += k;
		if (c == C_AUTH_CUT) {
			/* not padded: padding would be read as the trailer */
			expect_verdict(f, V_AUTH_SHORT);
			return;
		}
		break;
	case C_AUTH_SIGNED: {
		const struct group *g = keyed_group();

		do {
			if (g)
				build_valid(f, g->algo, 0, g->id);
			else
				build_valid(f, algo, 0, 0);
		} while (f->len + TRAILER > FRAME_MAX);
		if (g)
			sign(f, g->key, rnd64());
		break;
	}
	default:
		fatal_model("unknown category", f);
	}
	pad(f);
	switch (c) {
	case C_WRONG_GROUP:
	case C_STOPPED:
	case C_WRONG_ALGO:
	case C_WRONG_DST:
	case C_UNKNOWN_PEER:
	case C_PEER_ID:
	case C_AUTH_TRAILER:
	case C_AUTH_SIGNED:
		expect_verdict(f, V_OK);
		break;
	default:
		expect_verdict(f, V_MALFORMED);
		break;
	}
}
