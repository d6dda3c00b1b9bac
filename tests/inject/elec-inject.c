// SPDX-License-Identifier: GPL-2.0
/*
 * elec-inject: a raw-socket frame injector for election.ko's tests.
 *
 * It captures frames of the module's EtherType into a pcap file, replays
 * them, forges frames of any type (with a valid, random or no SipHash-2-4
 * authentication trailer), flips bits of captured frames, and sends
 * random and mutated frames by the million. Every sending command can
 * predict, from a description of the receiving nodes (their ids, MACs
 * and groups), the drop reason each node counts for each frame, following
 * Documentation/protocol.rst ("Wire format", "Receive checks") and not
 * the module's code: a test compares the prediction with the nodes'
 * counters, and a difference is a bug in one or the other.
 *
 * Plain C, no library beyond libc. Run "elec-inject help" for the usage;
 * tests/inject/README describes the commands, the categories and the
 * output.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <net/if.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include <linux/election.h>

/* ------------------------------------------------------------------ */
/* constants of the wire format (Documentation/protocol.rst)           */

#define ETH_HDR		14
#define HDR		24		/* our header */
#define MAX_PAYLOAD	1476		/* 1500 - HDR */
#define MAX_BODY	1500		/* our bytes in one frame (MTU) */
#define FRAME_MAX	(ETH_HDR + MAX_BODY)
#define MIN_FRAME	60		/* Ethernet minimum without FCS */
#define FLAG_LEAVING	0x01
#define FLAG_AUTH	0x02		/* authentication trailer follows */
#define TRAILER		16		/* be64 counter + 8-byte MAC */
#define N_ALGOS		7
#define MAX_NODES	256
#define MAX_GROUPS	64
#define RING_LIST_MAX	367		/* ids in one ring-list message */
#define ENH_MAX_CANDS	128
#define INV_MAX_IDS	255
#define INV_WIN_SHIFT_MAX 5		/* INVITE byte 6: the accept window's shift */

/* offsets in our header */
#define O_VERSION	0
#define O_TYPE		1
#define O_ALGO		2
#define O_FLAGS		3
#define O_GROUP		4
#define O_PLEN		6
#define O_SRC		8
#define O_DST		12
#define O_TERM		16

static const char *const algo_names[N_ALGOS + 1] = {
	NULL, "bully", "ring", "ring-all", "ring-list", "min-bully",
	"enh-bully", "invitation",
};

#define N_TYPES 15
static const char *const type_names[N_TYPES] = {
	NULL, "election", "answer", "coordinator", "heartbeat", "ack",
	"retry", "query", "cid", "ayc", "ayc_reply", "invite", "accept",
	"ready", "alive",
};

/*
 * The message types each algorithm sends and accepts (protocol.rst):
 * any other type in a frame of that algorithm is malformed.
 */
static const uint8_t algo_types[N_ALGOS + 1][8] = {
	[1] = { 1, 2, 3, 4, 14 },
	[2] = { 1, 3, 4, 5 },
	[3] = { 1, 3, 4, 5 },
	[4] = { 1, 3, 4, 5 },
	[5] = { 1, 2, 3, 4, 7, 8, 14 },
	[6] = { 1, 2, 3, 4, 7, 8, 14 },
	[7] = { 4, 9, 10, 11, 12, 13 },
};

/* what a receiving node does with a frame: enum elec_drop, and two more */
#define R_ACCEPT	(ELEC_DROP_MAX + 1)	/* passes every check */
#define R_NONE		(ELEC_DROP_MAX + 2)	/* not received */
#define N_REASONS	(ELEC_DROP_MAX + 3)

static const char *const reason_names[N_REASONS] = {
	[ELEC_DROP_UNSPEC] = "unspec",
	[ELEC_DROP_MALFORMED] = "malformed",
	[ELEC_DROP_WRONG_GROUP] = "wrong_group",
	[ELEC_DROP_WRONG_ALGO] = "wrong_algo",
	[ELEC_DROP_UNKNOWN_PEER] = "unknown_peer",
	[ELEC_DROP_STALE_TERM] = "stale_term",
	[ELEC_DROP_WRONG_DST] = "wrong_dst",
	[ELEC_DROP_STOPPED] = "stopped",
	[ELEC_DROP_QUEUE_FULL] = "queue_full",
	[ELEC_DROP_TERM_TOO_FAR] = "term_too_far",
	[ELEC_DROP_WRONG_LLADDR] = "wrong_lladdr",
	[ELEC_DROP_AUTH_MISSING] = "auth_missing",
	[ELEC_DROP_AUTH_BAD] = "auth_bad",
	[ELEC_DROP_AUTH_TRUNCATED] = "auth_truncated",
	[ELEC_DROP_AUTH_REPLAY] = "auth_replay",
	[ELEC_DROP_AUTH_UNEXPECTED] = "auth_unexpected",
	[ELEC_DROP_AUTH_CLOCK] = "auth_clock",
	[R_ACCEPT] = "accepted",
	[R_NONE] = "not_received",
};

/*
 * A reason's name; a drop reason added to the uapi after this tool was
 * written (the model never predicts it) is "drop_N".
 */
static const char *reason_name(int r)
{
	static char buf[N_REASONS][16];

	if (r >= 0 && r < N_REASONS && reason_names[r])
		return reason_names[r];
	if (r < 0 || r >= N_REASONS)
		return "?";
	snprintf(buf[r], sizeof(buf[r]), "drop_%d", r);
	return buf[r];
}

/* frame categories: what the generator meant a frame to be */
enum cat {
	C_RUNT,		/* shorter than our header */
	C_VERSION,	/* version other than 1 */
	C_TYPE,		/* type 0, 6 (retry) or above 14 */
	C_ALGO,		/* algorithm 0 or above 7 */
	C_FLAGS,	/* an unknown flag bit (never the AUTH bit) */
	C_LEAVING,	/* LEAVING on another type than heartbeat */
	C_GROUP0,	/* group 0 */
	C_SRC0,		/* source id 0 */
	C_LEN_MAX,	/* payload_len above 1476 */
	C_LEN_BEYOND,	/* payload_len beyond the frame */
	C_PAYLOAD_LEN,	/* a payload length wrong for the type */
	C_PAYLOAD,	/* a payload of the right length, invalid content */
	C_TYPE_ALGO,	/* a type the algorithm does not use */
	C_AUTH_TRAILER,	/* the AUTH flag and a trailer with a random MAC */
	C_AUTH_CUT,	/* the AUTH flag and a trailer cut short */
	C_AUTH_SIGNED,	/* to a keyed group, its MAC right (the key known) */
	C_WRONG_GROUP,	/* a group no node has */
	C_STOPPED,	/* a group whose instances are stopped */
	C_WRONG_ALGO,	/* another algorithm than the group's */
	C_WRONG_DST,	/* unicast to an id no node has */
	C_UNKNOWN_PEER,	/* from an id no node has */
	C_PEER_ID,	/* from a node's id (but not from its MAC) */
	C_MUTATED,	/* a valid frame, then 1..4 random mutations */
	C_RANDOM,	/* random bytes */
	C_FORGED,	/* forge */
	C_REPLAYED,	/* replay */
	C_FLIPPED,	/* flip */
	N_CATS
};

static const char *const cat_names[N_CATS] = {
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
/* errors and output                                                   */

static const char *prog = "elec-inject";
static const char *cmd_name = "";
static bool opt_json;
static bool opt_quiet;
static bool have_seed;		/* the report prints the seed */
static uint64_t the_seed;

static void __attribute__((noreturn, format(printf, 1, 2)))
die(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: %s%s", prog, cmd_name, *cmd_name ? ": " : "");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

static void __attribute__((noreturn, format(printf, 1, 2)))
die_errno(const char *fmt, ...)
{
	int e = errno;
	va_list ap;

	fprintf(stderr, "%s: %s%s", prog, cmd_name, *cmd_name ? ": " : "");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, ": %s\n", strerror(e));
	exit(1);
}

static void info(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void info(const char *fmt, ...)
{
	va_list ap;

	if (opt_quiet)
		return;
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fflush(stderr);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static void sleep_us(unsigned int us)
{
	struct timespec ts = { us / 1000000, (long)(us % 1000000) * 1000 };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/* ------------------------------------------------------------------ */
/* byte order helpers                                                  */

static void put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static void put32(uint8_t *p, uint32_t v)
{
	put16(p, (uint16_t)(v >> 16));
	put16(p + 2, (uint16_t)v);
}

static void put64(uint8_t *p, uint64_t v)
{
	put32(p, (uint32_t)(v >> 32));
	put32(p + 4, (uint32_t)v);
}

static uint16_t get16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static uint32_t get32(const uint8_t *p)
{
	return (uint32_t)get16(p) << 16 | get16(p + 2);
}

static uint64_t get64(const uint8_t *p)
{
	return (uint64_t)get32(p) << 32 | get32(p + 4);
}

/* ------------------------------------------------------------------ */
/* SipHash-2-4 (Aumasson and Bernstein, "SipHash: a fast short-input   */
/* PRF", 2012), written from the paper                                 */

static uint64_t rotl64(uint64_t x, unsigned int b)
{
	return (x << b) | (x >> (64 - b));
}

static uint64_t le64(const uint8_t *p)
{
	uint64_t v = 0;
	int i;

	for (i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

#define SIPROUND(v0, v1, v2, v3) do {					\
	v0 += v1; v1 = rotl64(v1, 13); v1 ^= v0; v0 = rotl64(v0, 32);	\
	v2 += v3; v3 = rotl64(v3, 16); v3 ^= v2;			\
	v0 += v3; v3 = rotl64(v3, 21); v3 ^= v0;			\
	v2 += v1; v1 = rotl64(v1, 17); v1 ^= v2; v2 = rotl64(v2, 32);	\
} while (0)

/* SipHash-2-4 of in[0..len) under the 16-byte key; the 64-bit result */
static uint64_t siphash24(const uint8_t key[16], const uint8_t *in, size_t len)
{
	uint64_t k0 = le64(key), k1 = le64(key + 8);
	uint64_t v0 = k0 ^ 0x736f6d6570736575ULL;
	uint64_t v1 = k1 ^ 0x646f72616e646f6dULL;
	uint64_t v2 = k0 ^ 0x6c7967656e657261ULL;
	uint64_t v3 = k1 ^ 0x7465646279746573ULL;
	uint64_t m, b = (uint64_t)len << 56;
	size_t i, tail = len & 7;

	for (i = 0; i + 8 <= len; i += 8) {
		m = le64(in + i);
		v3 ^= m;
		SIPROUND(v0, v1, v2, v3);
		SIPROUND(v0, v1, v2, v3);
		v0 ^= m;
	}
	for (i = 0; i < tail; i++)
		b |= (uint64_t)in[len - tail + i] << (8 * i);
	v3 ^= b;
	SIPROUND(v0, v1, v2, v3);
	SIPROUND(v0, v1, v2, v3);
	v0 ^= b;
	v2 ^= 0xff;
	SIPROUND(v0, v1, v2, v3);
	SIPROUND(v0, v1, v2, v3);
	SIPROUND(v0, v1, v2, v3);
	SIPROUND(v0, v1, v2, v3);
	return v0 ^ v1 ^ v2 ^ v3;
}

/* the 8 output bytes as the reference implementation emits them */
static void siphash24_bytes(const uint8_t key[16], const uint8_t *in,
			    size_t len, uint8_t out[8])
{
	uint64_t h = siphash24(key, in, len);
	int i;

	for (i = 0; i < 8; i++)
		out[i] = (uint8_t)(h >> (8 * i));
}

/* ------------------------------------------------------------------ */
/* deterministic random numbers: splitmix64                            */

static uint64_t rng_state;

static uint64_t rnd64(void)
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* uniform in [0, n), n > 0 (the modulo bias is negligible here) */
static uint32_t rnd(uint32_t n)
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

static void rnd_bytes(uint8_t *p, size_t n)
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
/* the payload rules of protocol.rst, per algorithm and type            */

static bool algo_has_type(unsigned int algo, unsigned int type)
{
	unsigned int i;

	if (algo < 1 || algo > N_ALGOS)
		return false;
	for (i = 0; i < sizeof(algo_types[0]) && algo_types[algo][i]; i++)
		if (algo_types[algo][i] == type)
			return true;
	return false;
}

/* ids strictly ascending, hence non-zero */
static bool ids_ascending(const uint8_t *p, unsigned int n)
{
	uint32_t prev = 0, id;
	unsigned int i;

	for (i = 0; i < n; i++) {
		id = get32(p + 4 * i);
		if (id <= prev)
			return false;
		prev = id;
	}
	return true;
}

/* ALIVE: the named leader (be32) and its term (be64), both 0 or neither */
static bool alive_ok(const uint8_t *p, unsigned int len)
{
	return len == 12 && !get32(p) == !get64(p + 4);
}

/* enh-bully COORDINATOR and CID: coordinator, count, 0, 0, ids */
static bool enh_set_ok(const uint8_t *p, unsigned int len)
{
	unsigned int n;

	if (len < 8 || !get32(p) || p[6] || p[7])
		return false;
	n = get16(p + 4);
	return n >= 1 && n <= ENH_MAX_CANDS && len == 8 + 4 * n &&
	       ids_ascending(p + 8, n);
}

/* whether a payload is valid for (algo, type), per protocol.rst */
static bool payload_valid(unsigned int algo, unsigned int type,
			  const uint8_t *p, unsigned int len)
{
	unsigned int n;

	if (!algo_has_type(algo, type))
		return false;
	switch (algo) {
	case ELEC_ALGO_BULLY:
		return type == ELEC_MSG_ALIVE ? alive_ok(p, len) : len == 0;
	case ELEC_ALGO_RING:
	case ELEC_ALGO_RING_ALL:
	case ELEC_ALGO_RING_LIST:
		if (type == ELEC_MSG_HEARTBEAT)
			return len == 0;
		if (type == ELEC_MSG_ACK)
			return len == 4;
		/* ELECTION, COORDINATOR: the hop number, then the body */
		if (len < 4)
			return false;
		p += 4;
		len -= 4;
		if (algo == ELEC_ALGO_RING)
			return len == 4 && get32(p);
		if (algo == ELEC_ALGO_RING_ALL) {
			if (type == ELEC_MSG_ELECTION)
				return len == 4 && get32(p);
			return len == 8 && get32(p) && get32(p + 4);
		}
		if (len < 8 || p[2] || p[3])
			return false;
		n = get16(p);
		return n >= 1 && n <= RING_LIST_MAX && len == 4 + 4 * n;
	case ELEC_ALGO_MIN_BULLY:
		if (type == ELEC_MSG_COORDINATOR)
			return len == 4 && get32(p);
		if (type == ELEC_MSG_ALIVE)
			return alive_ok(p, len);
		return len == 0;
	case ELEC_ALGO_ENH_BULLY:
		if (type == ELEC_MSG_ELECTION)
			return len == 4;
		if (type == ELEC_MSG_COORDINATOR || type == ELEC_MSG_CID)
			return enh_set_ok(p, len);
		if (type == ELEC_MSG_ALIVE)
			return alive_ok(p, len);
		return len == 0;
	case ELEC_ALGO_INVITATION:
		switch (type) {
		case ELEC_MSG_AYC_REPLY:
			return len == 8;
		case ELEC_MSG_INVITE:
			if (len < 8 || !get32(p) || p[6] > INV_WIN_SHIFT_MAX ||
			    p[7])
				return false;
			n = get16(p + 4);
			return n >= 1 && n <= INV_MAX_IDS && len == 8 + 4 * n &&
			       ids_ascending(p + 8, n);
		case ELEC_MSG_READY:
			if (len < 8 || p[2] || p[3])
				return false;
			n = get16(p);
			return n <= INV_MAX_IDS && len == 8 + 4 * n &&
			       ids_ascending(p + 8, n);
		default:
			return len == 0;
		}
	}
	return false;
}

/* header fields */
struct hdr {
	uint8_t version, type, algo, flags;
	uint16_t group, plen;
	uint32_t src, dst;
	uint64_t term;
};

static void hdr_read(const uint8_t *b, struct hdr *h)
{
	h->version = b[O_VERSION];
	h->type = b[O_TYPE];
	h->algo = b[O_ALGO];
	h->flags = b[O_FLAGS];
	h->group = get16(b + O_GROUP);
	h->plen = get16(b + O_PLEN);
	h->src = get32(b + O_SRC);
	h->dst = get32(b + O_DST);
	h->term = get64(b + O_TERM);
}

static void hdr_write(uint8_t *b, const struct hdr *h)
{
	b[O_VERSION] = h->version;
	b[O_TYPE] = h->type;
	b[O_ALGO] = h->algo;
	b[O_FLAGS] = h->flags;
	put16(b + O_GROUP, h->group);
	put16(b + O_PLEN, h->plen);
	put32(b + O_SRC, h->src);
	put32(b + O_DST, h->dst);
	put64(b + O_TERM, h->term);
}

/* what the receiving device makes of a frame's bytes */
enum verdict {
	V_OK,		/* decodes */
	V_MALFORMED,	/* malformed (counted by the device) */
	V_AUTH_SHORT,	/* the AUTH flag, no room for the trailer: counted by
			 * the device as auth_truncated */
};

static const char *const verdict_names[] = {
	[V_OK] = "ok", [V_MALFORMED] = "malformed",
	[V_AUTH_SHORT] = "auth_truncated",
};

/*
 * The verdict on the bytes after the Ethernet header (protocol.rst, "Wire
 * format", "Receive checks"): header, flags (LEAVING on a heartbeat only,
 * AUTH on any type, no other bit), ids, the payload length within the
 * maximum and the frame; with AUTH the trailer's 16 bytes after the
 * payload (padding counts: the device cannot tell); then the payload.
 * The trailer's room is checked before the payload, as module/core/codec.c
 * does: protocol.rst's table puts every malformed frame before
 * auth_truncated, which differs for a frame with AUTH, a bad payload and
 * no room for the trailer (reported in /work/core-bugs.md; the two lines
 * below swap if the code changes instead).
 */
static enum verdict body_verdict(const uint8_t *b, size_t len, struct hdr *h)
{
	if (len < HDR)
		return V_MALFORMED;
	hdr_read(b, h);
	if (h->version != ELECTION_WIRE_VERSION)
		return V_MALFORMED;
	if (h->type == 0 || h->type == ELEC_MSG_RETRY || h->type >= N_TYPES)
		return V_MALFORMED;
	if (h->algo < 1 || h->algo > N_ALGOS)
		return V_MALFORMED;
	if (h->flags & ~(FLAG_LEAVING | FLAG_AUTH))
		return V_MALFORMED;
	if (h->flags & FLAG_LEAVING && h->type != ELEC_MSG_HEARTBEAT)
		return V_MALFORMED;
	if (!h->group || !h->src)
		return V_MALFORMED;
	if (h->plen > MAX_PAYLOAD || h->plen > len - HDR)
		return V_MALFORMED;
	if (h->flags & FLAG_AUTH && len - HDR - h->plen < TRAILER)
		return V_AUTH_SHORT;
	if (!payload_valid(h->algo, h->type, b + HDR, h->plen))
		return V_MALFORMED;
	return V_OK;
}

static bool body_decodes(const uint8_t *b, size_t len, struct hdr *h)
{
	return body_verdict(b, len, h) == V_OK;
}

/* ------------------------------------------------------------------ */
/* the receiving nodes, for predictions                                */

struct node {
	uint32_t id;
	uint8_t mac[6];
	bool has_mac;
};

struct group {
	uint16_t id;
	uint8_t algo;
	bool stopped;
	bool keyed;		/* the group has a key: key */
	uint8_t key[16];
};

struct model {
	struct node nodes[MAX_NODES];
	unsigned int n_nodes;
	struct group groups[MAX_GROUPS];
	unsigned int n_groups;
	uint16_t absent_group;		/* 0: pick at random */
	/* counts: [node][reason], and per category */
	uint64_t (*per_node)[N_REASONS];
	uint64_t total[N_REASONS];
	uint64_t per_cat[N_CATS][N_REASONS];
};

static struct model model;

static const struct node *node_by_id(uint32_t id)
{
	unsigned int i;

	for (i = 0; i < model.n_nodes; i++)
		if (model.nodes[i].id == id)
			return &model.nodes[i];
	return NULL;
}

static const struct group *group_by_id(uint16_t id)
{
	unsigned int i;

	for (i = 0; i < model.n_groups; i++)
		if (model.groups[i].id == id)
			return &model.groups[i];
	return NULL;
}

static bool is_bcast(const uint8_t *mac)
{
	return mac[0] & 1;	/* broadcast or multicast: every node */
}

/* CLOCK_REALTIME in ns */
static uint64_t wall_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/*
 * The counter a node would put on its next frame after @last (0: none
 * yet), as Documentation/protocol.rst describes it: the wall clock with
 * the low ELECTION_AUTH_SEQ_BITS replaced by the frame number, one more
 * than @last's; the clock part never goes back, and moves a tick on when
 * the frame number wraps within a tick.
 */
static uint64_t next_counter(uint64_t last)
{
	uint64_t t = wall_ns() & ~ELECTION_AUTH_SEQ_MASK;
	uint64_t lt = last & ~ELECTION_AUTH_SEQ_MASK;
	uint64_t seq = (last + 1) & ELECTION_AUTH_SEQ_MASK;

	if (t <= lt) {
		t = lt;
		if (!seq)
			t += ELECTION_AUTH_SEQ_MASK + 1;
	}
	return t | seq;
}

/*
 * Whether a keyed frame's counter (its clock part: the sender's
 * CLOCK_REALTIME, the frame number's bits cleared) is within the group's
 * auth-window of the receivers' clocks, which are the injector's (the
 * same host or guest). Only the default window
 * (ELECTION_DEF_AUTH_WINDOW_NS) is modelled; the frames this tool makes
 * carry counters far from the edges (random, small, or its clock now).
 */
static bool counter_in_window(uint64_t ctr)
{
	uint64_t now = wall_ns();

	ctr &= ~ELECTION_AUTH_SEQ_MASK;
	return ctr > now ? ctr - now <= ELECTION_DEF_AUTH_WINDOW_NS :
	       now - ctr <= ELECTION_DEF_AUTH_WINDOW_NS;
}

/*
 * Whether @frame decodes as a keyed frame (the AUTH flag, a whole
 * trailer) whose counter, in *@ctr, is near the receivers' clock: within
 * the default auth-window and a second more. Such a counter is refused
 * as a replay or reaches the MAC depending on what each receiver last
 * took from that peer, which the model does not know (flip draws again).
 */
static bool counter_near_now(const uint8_t *frame, size_t len, uint64_t *ctr)
{
	const uint8_t *b = frame + ETH_HDR;
	uint64_t now = wall_ns(), t;
	struct hdr h;

	if (len < ETH_HDR || body_verdict(b, len - ETH_HDR, &h) != V_OK ||
	    !(h.flags & FLAG_AUTH))
		return false;
	*ctr = get64(b + HDR + h.plen);
	t = *ctr & ~ELECTION_AUTH_SEQ_MASK;
	return (t > now ? t - now : now - t) <=
	       ELECTION_DEF_AUTH_WINDOW_NS + 1000000000ULL;
}

/*
 * What node @n does with @frame (protocol.rst, "Receive checks": the first
 * check that fails). Every node holds every group of the model, has every
 * other node as a peer at the MAC the model gives (none: the frame's
 * source MAC is taken to be no peer's). Frames of another EtherType, or
 * unicast to another MAC, are not received; neither is a frame on a
 * device without groups.
 */
static int predict(const uint8_t *frame, size_t len, uint16_t ethertype,
		   const struct node *n)
{
	const uint8_t *b = frame + ETH_HDR;
	const struct group *g;
	const struct node *peer;
	struct hdr h;

	if (len < ETH_HDR || get16(frame + 12) != ethertype)
		return R_NONE;
	if (!is_bcast(frame) && (!n->has_mac || memcmp(frame, n->mac, 6)))
		return R_NONE;
	if (!model.n_groups)
		return R_NONE;
	switch (body_verdict(b, len - ETH_HDR, &h)) {
	case V_MALFORMED:
		return ELEC_DROP_MALFORMED;
	case V_AUTH_SHORT:
		return ELEC_DROP_AUTH_TRUNCATED;
	default:
		break;
	}
	g = group_by_id(h.group);
	if (!g)
		return ELEC_DROP_WRONG_GROUP;
	if (g->stopped)
		return ELEC_DROP_STOPPED;
	if (h.algo != g->algo)
		return ELEC_DROP_WRONG_ALGO;
	if (h.dst && h.dst != n->id)
		return ELEC_DROP_WRONG_DST;
	peer = node_by_id(h.src);
	if (!peer || peer->id == n->id)
		return ELEC_DROP_UNKNOWN_PEER;
	if (!peer->has_mac || memcmp(frame + 6, peer->mac, 6))
		return ELEC_DROP_WRONG_LLADDR;
	if (g->keyed && !(h.flags & FLAG_AUTH))
		return ELEC_DROP_AUTH_MISSING;
	if (!g->keyed && h.flags & FLAG_AUTH)
		return ELEC_DROP_AUTH_UNEXPECTED;
	if (g->keyed) {
		uint8_t mac[8];

		/* the counter against the node's clock (the injector's) */
		if (!counter_in_window(get64(b + HDR + h.plen)))
			return ELEC_DROP_AUTH_CLOCK;
		/* then the MAC, last */
		siphash24_bytes(g->key, b, HDR + h.plen + 8, mac);
		if (memcmp(mac, b + HDR + h.plen + 8, 8))
			return ELEC_DROP_AUTH_BAD;
	}
	/* keyed: accepted unless its counter was taken before */
	return R_ACCEPT;
}

static void account(const uint8_t *frame, size_t len, uint16_t ethertype,
		    enum cat c)
{
	unsigned int i;
	int r;

	if (!model.per_node)
		return;
	for (i = 0; i < model.n_nodes; i++) {
		r = predict(frame, len, ethertype, &model.nodes[i]);
		model.per_node[i][r]++;
		model.total[r]++;
		model.per_cat[c][r]++;
	}
}

/* ------------------------------------------------------------------ */
/* frame generation                                                    */

struct frame {
	uint8_t b[FRAME_MAX];
	size_t len;		/* Ethernet header included */
};

/* generator settings */
struct gen {
	uint8_t algos[N_ALGOS];		/* algorithms to build frames of */
	unsigned int n_algos;
	uint16_t groups[MAX_GROUPS];	/* group ids frames are sent to */
	unsigned int n_groups;
	uint8_t src_mac[6], dst_mac[6];
	uint16_t ethertype;
};

static struct gen gen;

static uint8_t *body_of(struct frame *f)
{
	return f->b + ETH_HDR;
}

static void eth_header(struct frame *f)
{
	memcpy(f->b, gen.dst_mac, 6);
	memcpy(f->b + 6, gen.src_mac, 6);
	put16(f->b + 12, gen.ethertype);
}

static void pad(struct frame *f)
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
static void build_valid(struct frame *f, uint8_t algo, uint8_t type,
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
static void sign(struct frame *f, const uint8_t key[16], uint64_t counter)
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
static void flip_bits(struct frame *f, unsigned int bits)
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
static void build_cat(struct frame *f, enum cat c)
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

/* ------------------------------------------------------------------ */
/* pcap files (libpcap format, LINKTYPE_ETHERNET)                      */

#define PCAP_MAGIC_US	0xa1b2c3d4u
#define PCAP_MAGIC_NS	0xa1b23c4du

struct pcap_in {
	FILE *f;
	const char *path;
	bool swap, ns;
	unsigned long index;
};

static uint32_t sw32(uint32_t v, bool swap)
{
	return swap ? __builtin_bswap32(v) : v;
}

static void pcap_open_in(struct pcap_in *in, const char *path)
{
	uint32_t h[6];

	memset(in, 0, sizeof(*in));
	in->path = path;
	in->f = fopen(path, "rb");
	if (!in->f)
		die_errno("%s", path);
	if (fread(h, sizeof(h), 1, in->f) != 1)
		die("%s: not a pcap file (shorter than its header)", path);
	if (h[0] == PCAP_MAGIC_US || h[0] == PCAP_MAGIC_NS) {
		in->ns = h[0] == PCAP_MAGIC_NS;
	} else if (h[0] == __builtin_bswap32(PCAP_MAGIC_US) ||
		   h[0] == __builtin_bswap32(PCAP_MAGIC_NS)) {
		in->swap = true;
		in->ns = h[0] == __builtin_bswap32(PCAP_MAGIC_NS);
	} else {
		die("%s: not a pcap file (magic %08x; pcapng is not read)",
		    path, h[0]);
	}
	if (sw32(h[5], in->swap) != 1)
		die("%s: link type %u, not Ethernet (1)", path,
		    sw32(h[5], in->swap));
}

/* the next frame into f; false at the end of the file */
static bool pcap_next(struct pcap_in *in, struct frame *f, double *ts)
{
	uint32_t r[4], incl;
	size_t n;

	n = fread(r, 1, sizeof(r), in->f);
	if (n == 0 && feof(in->f))
		return false;
	if (n != sizeof(r))
		die("%s: frame %lu: truncated record header", in->path,
		    in->index + 1);
	incl = sw32(r[2], in->swap);
	if (incl > FRAME_MAX)
		die("%s: frame %lu: %u bytes, more than %d", in->path,
		    in->index + 1, incl, FRAME_MAX);
	if (incl && fread(f->b, incl, 1, in->f) != 1)
		die("%s: frame %lu: truncated", in->path, in->index + 1);
	f->len = incl;
	if (ts)
		*ts = sw32(r[0], in->swap) +
		      sw32(r[1], in->swap) / (in->ns ? 1e9 : 1e6);
	in->index++;
	return true;
}

static void pcap_write_header(FILE *f)
{
	uint32_t h[6] = { PCAP_MAGIC_US, 2 | 4u << 16, 0, 0, 65535, 1 };

	if (fwrite(h, sizeof(h), 1, f) != 1)
		die_errno("writing the pcap header");
}

static void pcap_write(FILE *f, const uint8_t *b, size_t len)
{
	struct timeval tv;
	uint32_t r[4];

	gettimeofday(&tv, NULL);
	r[0] = (uint32_t)tv.tv_sec;
	r[1] = (uint32_t)tv.tv_usec;
	r[2] = r[3] = (uint32_t)len;
	if (fwrite(r, sizeof(r), 1, f) != 1 ||
	    (len && fwrite(b, len, 1, f) != 1))
		die_errno("writing a pcap record");
}

/* ------------------------------------------------------------------ */
/* sending                                                             */

#define BATCH_MAX 256

struct out {
	const char *dev;
	int fd;			/* packet socket, or -1 */
	FILE *pcap;		/* pcap:FILE output, or NULL */
	int ifindex;
	uint8_t own_mac[6];
	unsigned int batch;
	bool pace;
	double rate;		/* frames per second, 0: no limit */
	int backlog_fd;		/* /proc/net/softnet_stat */
	/* queued frames */
	uint8_t (*bufs)[FRAME_MAX];
	struct iovec iov[BATCH_MAX];
	struct mmsghdr msgs[BATCH_MAX];
	unsigned int queued;
	/* statistics */
	uint64_t sent, bytes, retries, pace_waits;
	double t0, t_end;
	uint32_t backlog_max;
};

static struct out out;

static void own_mac_of(int fd, const char *dev, uint8_t mac[6])
{
	struct ifreq ifr;

	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", dev);
	if (ioctl(fd, SIOCGIFHWADDR, &ifr) < 0)
		die_errno("%s: SIOCGIFHWADDR", dev);
	memcpy(mac, ifr.ifr_hwaddr.sa_data, 6);
}

/* "pcap:FILE" writes the frames to a file instead of sending them */
static bool is_pcap_dev(const char *dev)
{
	return !strncmp(dev, "pcap:", 5);
}

static void out_open(const char *dev)
{
	struct sockaddr_ll sll;

	out.dev = dev;
	out.fd = -1;
	out.backlog_fd = -1;
	if (is_pcap_dev(dev)) {
		if (!dev[5])
			die("pcap: needs a file name (pcap:FILE)");
		out.pcap = fopen(dev + 5, "wb");
		if (!out.pcap)
			die_errno("%s", dev + 5);
		pcap_write_header(out.pcap);
		/* a locally administered address for "own" */
		memcpy(out.own_mac, "\x02\x00\x00\x00\x00\x01", 6);
	} else {
		if (strlen(dev) >= IFNAMSIZ)
			die("device name '%s' too long", dev);
		out.ifindex = (int)if_nametoindex(dev);
		if (!out.ifindex)
			die("no device '%s'", dev);
		/* protocol 0: this socket receives nothing */
		out.fd = socket(AF_PACKET, SOCK_RAW, 0);
		if (out.fd < 0)
			die_errno("socket(AF_PACKET) (root or CAP_NET_RAW needed)");
		memset(&sll, 0, sizeof(sll));
		sll.sll_family = AF_PACKET;
		sll.sll_ifindex = out.ifindex;
		if (bind(out.fd, (struct sockaddr *)&sll, sizeof(sll)) < 0)
			die_errno("bind to %s", dev);
		own_mac_of(out.fd, dev, out.own_mac);
		if (out.pace) {
			out.backlog_fd = open("/proc/net/softnet_stat", O_RDONLY);
			if (out.backlog_fd < 0)
				info("%s: /proc/net/softnet_stat: %s: not pacing\n",
				     cmd_name, strerror(errno));
		}
	}
	out.bufs = calloc(BATCH_MAX, FRAME_MAX);
	if (!out.bufs)
		die("out of memory");
	if (!out.batch)
		out.batch = 32;
	out.t0 = now_s();
}

/*
 * Frames queued in the kernel's per-CPU backlogs (the 12th column of
 * /proc/net/softnet_stat, summed over CPUs), or 0 when unknown.
 */
static uint32_t backlog_len(void)
{
	char buf[8192];
	unsigned int col[13];
	uint32_t sum = 0;
	ssize_t n;
	char *line, *save = NULL;

	if (out.backlog_fd < 0)
		return 0;
	n = pread(out.backlog_fd, buf, sizeof(buf) - 1, 0);
	if (n <= 0)
		return 0;
	buf[n] = 0;
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (sscanf(line, "%x %x %x %x %x %x %x %x %x %x %x %x %x",
			   &col[0], &col[1], &col[2], &col[3], &col[4], &col[5],
			   &col[6], &col[7], &col[8], &col[9], &col[10],
			   &col[11], &col[12]) >= 12)
			sum += col[11];
	}
	return sum;
}

/*
 * Pacing: a frame the bridge floods to every port is queued once per port
 * in the sending CPU's backlog; when softirq processing falls behind
 * (ksoftirqd), a burst overflows the backlog (netdev_max_backlog) and
 * frames are dropped before they reach the module, uncounted. So after
 * each batch wait until the backlog has drained.
 */
static void pace_wait(void)
{
	double t0 = now_s();
	uint32_t q;

	for (;;) {
		q = backlog_len();
		if (q > out.backlog_max)
			out.backlog_max = q;
		if (q <= 16)
			return;
		out.pace_waits++;
		if (now_s() - t0 > 10) {
			info("%s: backlog still %u frames after 10 s; going on\n",
			     cmd_name, q);
			return;
		}
		sleep_us(50);
	}
}

static void out_flush(void)
{
	unsigned int done = 0, i;
	int n;

	if (!out.queued)
		return;
	if (out.pcap) {
		for (i = 0; i < out.queued; i++) {
			pcap_write(out.pcap, out.bufs[i], out.iov[i].iov_len);
			out.bytes += out.iov[i].iov_len;
		}
		out.sent += out.queued;
		out.queued = 0;
		return;
	}
	while (done < out.queued) {
		n = sendmmsg(out.fd, out.msgs + done, out.queued - done, 0);
		if (n < 0) {
			if (errno == ENOBUFS || errno == EAGAIN ||
			    errno == EINTR) {
				/* the first hop's queue is full: try again */
				out.retries++;
				sleep_us(200);
				continue;
			}
			die_errno("sending on %s (frame of %zu bytes)", out.dev,
				  out.iov[done].iov_len);
		}
		for (i = done; i < done + (unsigned int)n; i++)
			out.bytes += out.iov[i].iov_len;
		done += (unsigned int)n;
	}
	out.sent += out.queued;
	out.queued = 0;
	if (out.pace)
		pace_wait();
	if (out.rate > 0) {
		double due = out.t0 + out.sent / out.rate, t = now_s();

		if (due > t)
			sleep_us((unsigned int)((due - t) * 1e6));
	}
}

static void out_put(const uint8_t *b, size_t len)
{
	unsigned int i = out.queued;

	memcpy(out.bufs[i], b, len);
	out.iov[i].iov_base = out.bufs[i];
	out.iov[i].iov_len = len;
	memset(&out.msgs[i], 0, sizeof(out.msgs[i]));
	out.msgs[i].msg_hdr.msg_iov = &out.iov[i];
	out.msgs[i].msg_hdr.msg_iovlen = 1;
	out.queued++;
	if (out.queued >= out.batch)
		out_flush();
}

static void out_close(void)
{
	out_flush();
	out.t_end = now_s();
	if (out.pcap && fclose(out.pcap))
		die_errno("%s", out.dev + 5);
	if (out.fd >= 0)
		close(out.fd);
	if (out.backlog_fd >= 0)
		close(out.backlog_fd);
	free(out.bufs);
}

/* ------------------------------------------------------------------ */
/* argument parsing                                                    */

struct args {
	int argc;
	char **argv;
	int i;
};

static bool more(struct args *a)
{
	return a->i < a->argc;
}

static const char *next_word(struct args *a)
{
	return a->argv[a->i++];
}

static const char *value_of(struct args *a, const char *kw)
{
	if (!more(a))
		die("'%s' needs a value", kw);
	return next_word(a);
}

/* decimal, or hex with 0x; the whole string; within [min, max] */
static uint64_t parse_num(const char *s, const char *what, uint64_t min,
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

static double parse_seconds(const char *s, const char *what)
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

static uint8_t parse_algo(const char *s)
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

static uint8_t parse_type(const char *s)
{
	unsigned int i;

	if (!strcmp(s, "coord"))
		return ELEC_MSG_COORDINATOR;
	if (!strcmp(s, "hb"))
		return ELEC_MSG_HEARTBEAT;
	for (i = 1; i < N_TYPES; i++)
		if (type_names[i] && !strcmp(s, type_names[i]))
			return (uint8_t)i;
	if (s[0] >= '0' && s[0] <= '9')
		return (uint8_t)parse_num(s, "type", 0, 255);
	die("type: unknown message type '%s' (election, answer, coordinator, heartbeat, ack, query, cid, ayc, ayc_reply, invite, accept, ready, alive, or 0..255)",
	    s);
}

static bool is_type_word(const char *s)
{
	unsigned int i;

	if (!strcmp(s, "coord") || !strcmp(s, "hb"))
		return true;
	for (i = 1; i < N_TYPES; i++)
		if (type_names[i] && !strcmp(s, type_names[i]))
			return true;
	return false;
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

static size_t read_key(const char *path, uint8_t key[16]);

/* a group id frames are sent to (fuzz: group G, repeatable) */
static void add_target_group(uint16_t id)
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

static void parse_algos(const char *s)
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

/* options every sending command takes; true when the word was one */
struct common {
	const char *src_mac;	/* NULL: default of the command */
	const char *dst_mac;
	bool seen_ethertype, seen_batch, seen_pace, seen_rate, seen_nodes;
	bool seen_absent, seen_groups;
};

static bool common_opt(struct args *a, const char *kw, struct common *c)
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
static void common_finish(struct common *c)
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

/* src-mac own|MAC (and keep where the command has one): after out_open */
enum src_mode { SRC_OWN, SRC_KEEP, SRC_SET };

/* the default: keep a capture's source MAC (replay, flip), else DEV's own */
static enum src_mode src_mode_of(const char *s, bool keep_ok)
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

/* ------------------------------------------------------------------ */
/* reports                                                             */

static void json_counts(const uint64_t *v, bool skip_zero)
{
	bool first = true;
	int r;

	putchar('{');
	for (r = 1; r < N_REASONS; r++) {
		if (skip_zero && !v[r])
			continue;
		printf("%s\"%s\": %" PRIu64, first ? "" : ", ", reason_name(r),
		       v[r]);
		first = false;
	}
	putchar('}');
}

static void report(const char *what, const uint64_t *cats)
{
	double dt = out.t_end - out.t0;
	FILE *tf = stdout;
	unsigned int i;
	int c, r;
	bool first;

	if (opt_json) {
		printf("{\"command\": \"%s\", \"dev\": \"%s\", \"sent\": %" PRIu64
		       ", \"bytes\": %" PRIu64 ", \"seconds\": %.3f, \"rate\": %.0f"
		       ", \"retries\": %" PRIu64 ", \"pace_waits\": %" PRIu64
		       ", \"backlog_max\": %u",
		       what, out.dev, out.sent, out.bytes, dt,
		       dt > 0 ? out.sent / dt : 0.0, out.retries,
		       out.pace_waits, out.backlog_max);
		if (have_seed)
			printf(", \"seed\": %" PRIu64, the_seed);
		printf(", \"categories\": {");
		first = true;
		for (c = 0; c < N_CATS; c++) {
			if (!cats[c])
				continue;
			printf("%s\"%s\": %" PRIu64, first ? "" : ", ",
			       cat_names[c], cats[c]);
			first = false;
		}
		putchar('}');
		if (model.per_node) {
			printf(", \"expect\": {\"total\": ");
			json_counts(model.total, false);
			printf(", \"nodes\": {");
			for (i = 0; i < model.n_nodes; i++) {
				printf("%s\"%u\": ", i ? ", " : "",
				       model.nodes[i].id);
				json_counts(model.per_node[i], false);
			}
			printf("}, \"categories\": {");
			first = true;
			for (c = 0; c < N_CATS; c++) {
				if (!cats[c])
					continue;
				printf("%s\"%s\": ", first ? "" : ", ",
				       cat_names[c]);
				json_counts(model.per_cat[c], true);
				first = false;
			}
			printf("}}");
		}
		printf("}\n");
		fflush(stdout);
		/* the text on stderr, unless -q */
		if (opt_quiet)
			return;
		tf = stderr;
	}
	fprintf(tf, "%s: sent %" PRIu64 " frames (%" PRIu64 " bytes) on %s in %.2f s"
		" (%.0f frames/s), %" PRIu64 " retries, %" PRIu64
		" pace waits, backlog max %u\n", what, out.sent, out.bytes,
		out.dev, dt, dt > 0 ? out.sent / dt : 0.0, out.retries,
		out.pace_waits, out.backlog_max);
	fprintf(tf, "  categories:");
	for (c = 0; c < N_CATS; c++)
		if (cats[c])
			fprintf(tf, " %s %" PRIu64, cat_names[c], cats[c]);
	fputc('\n', tf);
	if (!model.per_node)
		return;
	fprintf(tf, "  predicted at the %u nodes, summed:", model.n_nodes);
	for (r = 1; r < N_REASONS; r++)
		if (model.total[r])
			fprintf(tf, " %s %" PRIu64, reason_name(r), model.total[r]);
	fputc('\n', tf);
}

/* ------------------------------------------------------------------ */
/* commands                                                            */

static void usage(FILE *f)
{
	fprintf(f,
"usage: elec-inject [-j] [-q] COMMAND ...\n"
"  selftest\n"
"  capture DEV FILE [count N] [timeout S] [dir in|out|both] [ethertype E]\n"
"  list FILE [nodes ID[@MAC],...] [groups G:ALGO[:stopped],...] [ethertype E]\n"
"  replay DEV FILE [count N] [src-mac keep|own|MAC] [dst-mac MAC] [SEND]\n"
"  forge DEV [TYPE] group G id ID term T [type TYPE] [algo A] [dst D]\n"
"        [count N] [term-step K] [flags F] [leaving] [payload auto|none|HEX]\n"
"        [plen N] [key-file F] [mac good|random|zero|none] [counter C|now]\n"
"        [trailer-cut N] [src-mac own|MAC] [dst-mac MAC] [SEND]\n"
"  flip DEV FILE [count N] [seed S] [bits K] [src-mac keep|own|MAC] [SEND]\n"
"  fuzz DEV count N [seed S] [algo A|all] [mode mixed|random|mutate]\n"
"        [group G]... [src-mac own|MAC] [dst-mac MAC] [SEND]\n"
"SEND: [nodes ID[@MAC],...] [groups G:ALGO[:stopped],...] [absent-group G]\n"
"      [batch B] [pace on|off] [rate R] [ethertype E]\n"
"DEV is a network device, or pcap:FILE to write the frames to a file.\n"
"-j prints a JSON report, -q no progress. tests/inject/README has the rest.\n");
}

/* --- selftest --- */

/*
 * SipHash-2-4 of the reference implementation's vectors: key 00..0f,
 * messages 00, 00 01, ..., 00..3e (lengths 0..63), the output bytes as it
 * emits them. The paper's example (Appendix A) is length 15:
 * a129ca6149be45e5.
 */
static const char *const sip_vectors[64] = {
	"310e0edd47db6f72", "fd67dc93c539f874", "5a4fa9d909806c0d",
	"2d7efbd796666785", "b7877127e09427cf", "8da699cd64557618",
	"cee3fe586e46c9cb", "37d1018bf50002ab", "6224939a79f5f593",
	"b0e4a90bdf82009e", "f3b9dd94c5bb5d7a", "a7ad6b22462fb3f4",
	"fbe50e86bc8f1e75", "903d84c02756ea14", "eef27a8e90ca23f7",
	"e545be4961ca29a1", "db9bc2577fcc2a3f", "9447be2cf5e99a69",
	"9cd38d96f0b3c14b", "bd6179a71dc96dbb", "98eea21af25cd6be",
	"c7673b2eb0cbf2d0", "883ea3e395675393", "c8ce5ccd8c030ca8",
	"94af49f6c650adb8", "eab8858ade92e1bc", "f315bb5bb835d817",
	"adcf6b0763612e2f", "a5c91da7acaa4dde", "716595876650a2a6",
	"28ef495c53a387ad", "42c341d8fa92d832", "ce7cf2722f512771",
	"e37859f94623f3a7", "381205bb1ab0e012", "ae97a10fd434e015",
	"b4a31508beff4d31", "81396229f0907902", "4d0cf49ee5d4dcca",
	"5c73336a76d8bf9a", "d0a704536ba93e0e", "925958fcd6420cad",
	"a915c29bc8067318", "952b79f3bc0aa6d4", "f21df2e41d4535f9",
	"87577519048f53a9", "10a56cf5dfcd9adb", "eb75095ccd986cd0",
	"51a9cb9ecba312e6", "96afadfc2ce666c7", "72fe52975a4364ee",
	"5a1645b276d592a1", "b274cb8ebf87870a", "6f9bb4203de7b381",
	"eaecb2a30b22a87f", "9924a43cc1315724", "bd838d3aafbf8db7",
	"0b1a2a3265d51aea", "135079a3231ce660", "932b2846e4d70666",
	"e1915f5cb1eca46c", "f325965ca16d629f", "575ff28e60381be5",
	"724506eb4c328a95",
};

static unsigned int st_pass, st_fail;

static void st_check(bool ok, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void st_check(bool ok, const char *fmt, ...)
{
	va_list ap;

	if (ok) {
		st_pass++;
		if (opt_quiet)
			return;
		printf("ok - ");
	} else {
		st_fail++;
		printf("FAIL - ");
	}
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

static int cmd_selftest(struct args *a)
{
	uint8_t key[16], msg[64], outb[8];
	char hex[17];
	unsigned int i, j, bad, algo, t;
	struct frame f;
	enum cat c;

	if (more(a))
		die("unexpected '%s'", a->argv[a->i]);
	for (i = 0; i < 16; i++)
		key[i] = (uint8_t)i;
	for (i = 0; i < 64; i++)
		msg[i] = (uint8_t)i;
	bad = 0;
	for (i = 0; i < 64; i++) {
		siphash24_bytes(key, msg, i, outb);
		for (j = 0; j < 8; j++)
			snprintf(hex + 2 * j, 3, "%02x", outb[j]);
		if (strcmp(hex, sip_vectors[i])) {
			bad++;
			printf("# siphash length %u: %s, expected %s\n", i, hex,
			       sip_vectors[i]);
		}
	}
	st_check(!bad, "SipHash-2-4: the reference implementation's 64 vectors");
	st_check(siphash24(key, msg, 15) == 0xa129ca6149be45e5ULL,
		 "SipHash-2-4: the paper's example (Appendix A) a129ca6149be45e5");

	/* the generators against the model of the wire format */
	memset(gen.dst_mac, 0xff, 6);
	memcpy(gen.src_mac, "\x02\x00\x00\x00\x00\x01", 6);
	gen.ethertype = ELECTION_ETHERTYPE;
	gen.groups[0] = 1;
	gen.n_groups = 1;
	rng_state = 1;
	bad = 0;
	for (algo = 1; algo <= N_ALGOS; algo++) {
		for (i = 0; i < sizeof(algo_types[0]) && algo_types[algo][i]; i++) {
			t = algo_types[algo][i];
			for (j = 0; j < 2000; j++) {
				struct hdr h;

				build_valid(&f, (uint8_t)algo, (uint8_t)t, 1);
				if (!body_decodes(body_of(&f), f.len - ETH_HDR, &h))
					bad++;
			}
		}
	}
	st_check(!bad, "valid frames of every algorithm and type decode (%u failed)",
		 bad);
	/* build_cat() aborts on a frame of the wrong verdict */
	parse_algos("all");
	for (c = 0; c < C_MUTATED; c++)
		for (j = 0; j < 5000; j++)
			build_cat(&f, c);
	st_check(true, "every category's frames decode as meant (%d categories x 5000)",
		 (int)C_MUTATED);
	{
		uint64_t s1, s2;

		rng_state = 42;
		build_cat(&f, C_MUTATED);
		s1 = rnd64();
		rng_state = 42;
		build_cat(&f, C_MUTATED);
		s2 = rnd64();
		st_check(s1 == s2, "the generator is deterministic for a seed");
	}
	/* examples from protocol.rst */
	{
		static const uint8_t hb[HDR] = { 1, 4, 1, 1, 0, 1, 0, 0, 0, 0, 0, 42,
						 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 7 };
		uint8_t b[HDR + 8 + TRAILER];
		struct hdr h;

		st_check(body_decodes(hb, HDR, &h) && h.src == 42 && h.term == 7,
			 "a bully heartbeat flagged LEAVING decodes");
		memcpy(b, hb, HDR);
		b[O_TYPE] = ELEC_MSG_ELECTION;
		st_check(!body_decodes(b, HDR, &h), "LEAVING on an election is malformed");
		b[O_FLAGS] = FLAG_AUTH;
		memset(b + HDR, 0, TRAILER);
		st_check(body_verdict(b, HDR + TRAILER, &h) == V_OK,
			 "AUTH on an election with its 16-byte trailer decodes");
		st_check(body_verdict(b, HDR + TRAILER - 1, &h) == V_AUTH_SHORT,
			 "... with 15 trailer bytes: auth_truncated");
		b[O_FLAGS] = FLAG_AUTH | 0x04;
		st_check(body_verdict(b, HDR + TRAILER, &h) == V_MALFORMED,
			 "AUTH with another unknown bit: malformed");
		b[O_FLAGS] = FLAG_AUTH;
		put16(b + O_PLEN, 1);
		st_check(body_verdict(b, HDR + 1, &h) == V_AUTH_SHORT,
			 "AUTH, a bad payload, no trailer: auth_truncated first");
		b[O_FLAGS] = 0;
		b[O_ALGO] = ELEC_ALGO_RING;
		b[O_TYPE] = ELEC_MSG_COORDINATOR;
		put16(b + O_PLEN, 8);
		put32(b + HDR, 1);
		put32(b + HDR + 4, 0);
		st_check(!body_decodes(b, HDR + 8, &h), "a ring coordinator naming 0 is malformed");
		put32(b + HDR + 4, 5);
		st_check(body_decodes(b, HDR + 8, &h), "a ring coordinator naming 5 decodes");
		st_check(!body_decodes(b, HDR + 7, &h), "... and not when cut by one byte");
		b[O_ALGO] = ELEC_ALGO_INVITATION;
		b[O_TYPE] = ELEC_MSG_READY;
		put16(b + O_PLEN, 8);
		memset(b + HDR, 0, 8);
		st_check(body_decodes(b, HDR + 8, &h), "an empty invitation ready decodes");
	}
	/* predictions */
	{
		struct frame g;
		struct node n1 = { 1, { 2, 0, 0, 0, 0, 1 }, true };
		struct node n2 = { 2, { 2, 0, 0, 0, 0, 2 }, true };

		model.nodes[0] = n1;
		model.nodes[1] = n2;
		model.n_nodes = 2;
		memset(&model.groups[0], 0, sizeof(model.groups[0]));
		model.groups[0].id = 1;
		model.groups[0].algo = ELEC_ALGO_BULLY;
		model.n_groups = 1;
		memcpy(gen.src_mac, "\x02\x00\x00\x00\x00\x63", 6);
		build_valid(&g, ELEC_ALGO_BULLY, ELEC_MSG_COORDINATOR, 1);
		put32(body_of(&g) + O_SRC, 1);
		put32(body_of(&g) + O_DST, 0);
		pad(&g);
		st_check(predict(g.b, g.len, ELECTION_ETHERTYPE, &n2) ==
			 ELEC_DROP_WRONG_LLADDR &&
			 predict(g.b, g.len, ELECTION_ETHERTYPE, &n1) ==
			 ELEC_DROP_UNKNOWN_PEER,
			 "a claim from 1 at another MAC: wrong_lladdr at 2, unknown_peer at 1");
		memcpy(g.b + 6, n1.mac, 6);
		st_check(predict(g.b, g.len, ELECTION_ETHERTYPE, &n2) == R_ACCEPT,
			 "... accepted from 1's MAC");
		put32(body_of(&g) + O_DST, 1);
		st_check(predict(g.b, g.len, ELECTION_ETHERTYPE, &n2) ==
			 ELEC_DROP_WRONG_DST, "... wrong_dst when sent to id 1");
		memcpy(g.b, n1.mac, 6);
		st_check(predict(g.b, g.len, ELECTION_ETHERTYPE, &n2) == R_NONE,
			 "... not received by 2 when sent to 1's MAC");
		put16(body_of(&g) + O_GROUP, 2);
		st_check(predict(g.b, g.len, ELECTION_ETHERTYPE, &n1) ==
			 ELEC_DROP_WRONG_GROUP, "... wrong_group for group 2");
		/* authentication */
		build_valid(&g, ELEC_ALGO_BULLY, ELEC_MSG_COORDINATOR, 1);
		put32(body_of(&g) + O_SRC, 1);
		put32(body_of(&g) + O_DST, 0);
		memcpy(g.b, "\xff\xff\xff\xff\xff\xff", 6);
		memcpy(g.b + 6, n1.mac, 6);
		sign(&g, key, next_counter(0));
		st_check(predict(g.b, g.len, ELECTION_ETHERTYPE, &n2) ==
			 ELEC_DROP_AUTH_UNEXPECTED,
			 "a signed frame from 1's MAC to a group without a key: auth_unexpected");
		model.groups[0].keyed = true;
		memcpy(model.groups[0].key, key, 16);
		st_check(predict(g.b, g.len, ELECTION_ETHERTYPE, &n2) == R_ACCEPT,
			 "... to a group with that key, its counter the clock now: accepted (counters permitting)");
		model.groups[0].stopped = true;
		g.b[g.len - 1] ^= 1;
		st_check(predict(g.b, g.len, ELECTION_ETHERTYPE, &n2) ==
			 ELEC_DROP_STOPPED,
			 "... its MAC altered, the group stopped: stopped (the MAC comes last)");
		model.groups[0].stopped = false;
		st_check(predict(g.b, g.len, ELECTION_ETHERTYPE, &n2) ==
			 ELEC_DROP_AUTH_BAD,
			 "... the group running: auth_bad");
		g.b[g.len - 1] ^= 1;
		memcpy(g.b + 6, "\x02\x00\x00\x00\x00\x63", 6);
		st_check(predict(g.b, g.len, ELECTION_ETHERTYPE, &n2) ==
			 ELEC_DROP_WRONG_LLADDR, "... from another MAC: wrong_lladdr");
		build_valid(&g, ELEC_ALGO_BULLY, ELEC_MSG_COORDINATOR, 1);
		put32(body_of(&g) + O_SRC, 1);
		put32(body_of(&g) + O_DST, 0);
		memcpy(g.b, "\xff\xff\xff\xff\xff\xff", 6);
		memcpy(g.b + 6, n1.mac, 6);
		st_check(predict(g.b, g.len, ELECTION_ETHERTYPE, &n2) ==
			 ELEC_DROP_AUTH_MISSING,
			 "an unsigned frame from 1's MAC to a keyed group: auth_missing");
		sign(&g, key, 5);
		g.b[g.len - 1] ^= 1;
		st_check(predict(g.b, g.len, ELECTION_ETHERTYPE, &n2) ==
			 ELEC_DROP_AUTH_CLOCK,
			 "... signed with counter 5 (1970), its MAC altered: auth_clock before the MAC");
		/*
		 * flip: a counter 2^33 ns (8.6 s) from the clock, one bit
		 * away from it; no flip may bring it there
		 */
		{
			struct frame o = g, fl;
			size_t co = g.len - TRAILER - ETH_HDR;
			uint64_t ctr, old = (wall_ns() &
					   ~ELECTION_AUTH_SEQ_MASK) ^ (1ULL << 33);
			unsigned int near = 0, moved = 0;

			o.len -= TRAILER;
			sign(&o, key, old | 7);
			rng_state = 1;
			for (i = 0; i < 4000; i++) {
				fl = o;
				flip_bits(&fl, 1);
				if (counter_near_now(fl.b, fl.len, &ctr))
					near++;
				else if (get64(body_of(&fl) + co) != (old | 7))
					moved++;
			}
			st_check(!near && moved,
				 "flip: of 4000 single-bit flips of a frame whose counter is one bit from the clock now, none brings it near the clock (%u), %u change it elsewhere",
				 near, moved);
		}
		model.n_nodes = 0;
		model.n_groups = 0;
	}
	/* pcap round trip */
	{
		char path[] = "/tmp/elec-inject-selftest-XXXXXX";
		int fd = mkstemp(path);
		FILE *fo;
		struct pcap_in in;
		struct frame g;
		bool ok = true;

		if (fd < 0)
			die_errno("mkstemp");
		fo = fdopen(fd, "wb");
		if (!fo)
			die_errno("fdopen");
		pcap_write_header(fo);
		rng_state = 7;
		for (i = 0; i < 10; i++) {
			build_cat(&f, (enum cat)(i % C_MUTATED));
			pcap_write(fo, f.b, f.len);
		}
		fclose(fo);
		pcap_open_in(&in, path);
		rng_state = 7;
		for (i = 0; i < 10; i++) {
			build_cat(&f, (enum cat)(i % C_MUTATED));
			if (!pcap_next(&in, &g, NULL) || g.len != f.len ||
			    memcmp(g.b, f.b, f.len))
				ok = false;
		}
		if (pcap_next(&in, &g, NULL))
			ok = false;
		fclose(in.f);
		unlink(path);
		st_check(ok, "pcap write and read back (10 frames)");
	}
	printf("selftest: %u passed, %u failed\n", st_pass, st_fail);
	return st_fail ? 1 : 0;
}

/* --- capture --- */

static volatile sig_atomic_t capture_stop;

static void on_stop_signal(int sig)
{
	(void)sig;
	capture_stop = 1;
}

static int cmd_capture(struct args *a)
{
	const char *dev, *path;
	uint64_t count = 0, n = 0, seen = 0;
	double timeout = 0, t0;
	int dir = 0;	/* 0 both, 1 in, 2 out */
	bool seen_count = false, seen_timeout = false, seen_dir = false;
	bool seen_et = false;
	struct sockaddr_ll sll;
	socklen_t sl;
	uint8_t buf[65536];
	struct pollfd pfd;
	FILE *f;
	int fd, ifindex;
	ssize_t len;

	if (!more(a))
		die("needs DEV FILE");
	dev = next_word(a);
	if (!more(a))
		die("needs FILE after DEV");
	path = next_word(a);
	gen.ethertype = ELECTION_ETHERTYPE;
	while (more(a)) {
		const char *kw = next_word(a);

		if (!strcmp(kw, "count") && !seen_count) {
			seen_count = true;
			count = parse_num(value_of(a, kw), kw, 1, UINT64_MAX);
		} else if (!strcmp(kw, "timeout") && !seen_timeout) {
			seen_timeout = true;
			timeout = parse_seconds(value_of(a, kw), kw);
		} else if (!strcmp(kw, "dir") && !seen_dir) {
			const char *v = value_of(a, kw);

			seen_dir = true;
			if (!strcmp(v, "both"))
				dir = 0;
			else if (!strcmp(v, "in"))
				dir = 1;
			else if (!strcmp(v, "out"))
				dir = 2;
			else
				die("dir: in, out or both, not '%s'", v);
		} else if (!strcmp(kw, "ethertype") && !seen_et) {
			seen_et = true;
			gen.ethertype = (uint16_t)parse_num(value_of(a, kw), kw,
							    0x600, 0xffff);
		} else {
			die("unknown or repeated keyword '%s'", kw);
		}
	}
	if (!count && !timeout)
		die("needs 'count N' or 'timeout S' (or both; SIGINT or SIGTERM also end it)");
	ifindex = (int)if_nametoindex(dev);
	if (!ifindex)
		die("no device '%s'", dev);
	fd = socket(AF_PACKET, SOCK_RAW, htons(ETH_P_ALL));
	if (fd < 0)
		die_errno("socket(AF_PACKET) (root or CAP_NET_RAW needed)");
	memset(&sll, 0, sizeof(sll));
	sll.sll_family = AF_PACKET;
	sll.sll_protocol = htons(ETH_P_ALL);
	sll.sll_ifindex = ifindex;
	if (bind(fd, (struct sockaddr *)&sll, sizeof(sll)) < 0)
		die_errno("bind to %s", dev);
	f = fopen(path, "wb");
	if (!f)
		die_errno("%s", path);
	pcap_write_header(f);
	fflush(f);
	/* SIGINT, SIGTERM end the capture (no SA_RESTART: poll returns) */
	{
		struct sigaction sa;

		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = on_stop_signal;
		sigaction(SIGINT, &sa, NULL);
		sigaction(SIGTERM, &sa, NULL);
	}
	info("capture: listening on %s\n", dev);
	t0 = now_s();
	pfd.fd = fd;
	pfd.events = POLLIN;
	while ((!count || n < count) && !capture_stop) {
		int wait_ms = -1, pr;

		if (timeout) {
			double left = t0 + timeout - now_s();

			if (left <= 0)
				break;
			wait_ms = (int)(left * 1000) + 1;
		}
		pr = poll(&pfd, 1, wait_ms);
		if (pr < 0) {
			if (errno == EINTR)
				continue;
			die_errno("poll");
		}
		if (!pr)
			continue;
		sl = sizeof(sll);
		len = recvfrom(fd, buf, sizeof(buf), 0, (struct sockaddr *)&sll,
			       &sl);
		if (len < 0) {
			if (errno == EINTR)
				continue;
			die_errno("recvfrom");
		}
		seen++;
		if (len < ETH_HDR || get16(buf + 12) != gen.ethertype)
			continue;
		if (dir == 1 && sll.sll_pkttype == PACKET_OUTGOING)
			continue;
		if (dir == 2 && sll.sll_pkttype != PACKET_OUTGOING)
			continue;
		if (len > FRAME_MAX)
			len = FRAME_MAX;
		pcap_write(f, buf, (size_t)len);
		fflush(f);
		n++;
	}
	if (fclose(f))
		die_errno("%s", path);
	close(fd);
	if (opt_json)
		printf("{\"command\": \"capture\", \"dev\": \"%s\", \"file\": \"%s\", \"frames\": %" PRIu64
		       ", \"seen\": %" PRIu64 ", \"seconds\": %.3f}\n", dev, path, n,
		       seen, now_s() - t0);
	else
		printf("capture: %" PRIu64 " frames of ethertype 0x%04x on %s into %s (%" PRIu64
		       " frames seen) in %.2f s\n", n, gen.ethertype, dev, path,
		       seen, now_s() - t0);
	return 0;
}

/* --- list --- */

static void mac_str(const uint8_t *m, char *s)
{
	sprintf(s, "%02x:%02x:%02x:%02x:%02x:%02x", m[0], m[1], m[2], m[3],
		m[4], m[5]);
}

static int cmd_list(struct args *a)
{
	struct common c = { 0 };
	struct pcap_in in;
	struct frame f;
	const char *path;
	char d[18], s[18];
	unsigned long i = 0;
	enum verdict v;
	struct hdr h;
	double ts;

	if (!more(a))
		die("needs FILE");
	path = next_word(a);
	gen.ethertype = ELECTION_ETHERTYPE;
	while (more(a)) {
		const char *kw = next_word(a);

		if (!common_opt(a, kw, &c) || c.src_mac || c.dst_mac ||
			 c.seen_batch || c.seen_pace || c.seen_rate ||
			 c.seen_absent)
			die("unknown keyword '%s'", kw);
	}
	common_finish(&c);
	pcap_open_in(&in, path);
	if (opt_json)
		printf("[");
	while (pcap_next(&in, &f, &ts)) {
		bool ok, ours = f.len >= ETH_HDR &&
				get16(f.b + 12) == gen.ethertype;
		size_t blen = f.len >= ETH_HDR ? f.len - ETH_HDR : 0;
		unsigned int k;

		memset(&h, 0, sizeof(h));
		v = ours ? body_verdict(f.b + ETH_HDR, blen, &h) : V_MALFORMED;
		ok = ours && v == V_OK;
		if (ours && !ok && blen >= HDR)
			hdr_read(f.b + ETH_HDR, &h);
		if (f.len >= ETH_HDR) {
			mac_str(f.b, d);
			mac_str(f.b + 6, s);
		} else {
			strcpy(d, "-");
			strcpy(s, "-");
		}
		if (opt_json) {
			printf("%s\n{\"index\": %lu, \"ts\": %.6f, \"len\": %zu, \"dst_mac\": \"%s\", \"src_mac\": \"%s\", \"ours\": %s, \"decodes\": %s, \"verdict\": \"%s\"",
			       i ? "," : "", i, ts, f.len, d, s,
			       ours ? "true" : "false", ok ? "true" : "false",
			       ours ? verdict_names[v] : "other");
			if (ours && blen >= HDR)
				printf(", \"version\": %u, \"type\": %u, \"algo\": %u, \"flags\": %u, \"group\": %u, \"payload_len\": %u, \"src\": %u, \"dst\": %u, \"term\": %" PRIu64,
				       h.version, h.type, h.algo, h.flags, h.group,
				       h.plen, h.src, h.dst, h.term);
			if (model.per_node) {
				printf(", \"expect\": {");
				for (k = 0; k < model.n_nodes; k++)
					printf("%s\"%u\": \"%s\"", k ? ", " : "",
					       model.nodes[k].id,
					       reason_name(predict(f.b, f.len, gen.ethertype,
								   &model.nodes[k])));
				putchar('}');
			}
			putchar('}');
		} else {
			printf("%5lu %s > %s len %4zu", i, s, d, f.len);
			if (!ours)
				printf(" ethertype 0x%04x\n", f.len >= ETH_HDR ?
				       get16(f.b + 12) : 0);
			else if (blen < HDR)
				printf(" runt (%zu bytes)\n", blen);
			else
				printf(" v%u %s %s flags 0x%02x group %u plen %u %u > %u term %" PRIu64 "%s\n",
				       h.version,
				       h.type < N_TYPES && type_names[h.type] ?
				       type_names[h.type] : "?",
				       h.algo >= 1 && h.algo <= N_ALGOS ?
				       algo_names[h.algo] : "?",
				       h.flags, h.group, h.plen, h.src, h.dst,
				       h.term, ok ? "" : v == V_AUTH_SHORT ?
				       " AUTH-TRUNCATED" : " MALFORMED");
		}
		i++;
	}
	if (opt_json)
		printf("\n]\n");
	fclose(in.f);
	return 0;
}

/* --- replay, flip --- */

static int cmd_replay_flip(struct args *a, bool flip)
{
	struct common c = { 0 };
	uint64_t count = 0, cats[N_CATS] = { 0 }, seed = 1;
	unsigned int bits = 0;
	bool seen_count = false, seen_seed = false, seen_bits = false;
	struct frame *frames = NULL, f;
	size_t n_frames = 0, cap = 0;
	enum src_mode sm;
	struct pcap_in in;
	const char *dev, *path;
	uint64_t i;

	if (!more(a))
		die("needs DEV FILE");
	dev = next_word(a);
	if (!more(a))
		die("needs FILE after DEV");
	path = next_word(a);
	gen.ethertype = ELECTION_ETHERTYPE;
	out.pace = true;
	while (more(a)) {
		const char *kw = next_word(a);

		if (!strcmp(kw, "count") && !seen_count) {
			seen_count = true;
			count = parse_num(value_of(a, kw), kw, 1, UINT64_MAX);
		} else if (flip && !strcmp(kw, "seed") && !seen_seed) {
			seen_seed = true;
			seed = parse_num(value_of(a, kw), kw, 0, UINT64_MAX);
		} else if (flip && !strcmp(kw, "bits") && !seen_bits) {
			seen_bits = true;
			bits = (unsigned int)parse_num(value_of(a, kw), kw, 1, 64);
		} else if (!common_opt(a, kw, &c)) {
			die("unknown or repeated keyword '%s'", kw);
		}
	}
	sm = src_mode_of(c.src_mac, true);
	/* the frames keep their destination unless dst-mac is given */
	common_finish(&c);
	rng_state = seed;
	pcap_open_in(&in, path);
	while (pcap_next(&in, &f, NULL)) {
		if (f.len < ETH_HDR || get16(f.b + 12) != gen.ethertype)
			continue;
		if (n_frames == cap) {
			cap = cap ? 2 * cap : 64;
			frames = realloc(frames, cap * sizeof(*frames));
			if (!frames)
				die("out of memory");
		}
		frames[n_frames++] = f;
	}
	fclose(in.f);
	if (!n_frames)
		die("%s: no frame of ethertype 0x%04x", path, gen.ethertype);
	if (!count)
		count = n_frames;	/* each frame once */
	out_open(dev);
	for (i = 0; i < count; i++) {
		f = frames[i % n_frames];
		if (sm == SRC_OWN)
			memcpy(f.b + 6, out.own_mac, 6);
		else if (sm == SRC_SET)
			memcpy(f.b + 6, gen.src_mac, 6);
		if (c.dst_mac)
			memcpy(f.b, gen.dst_mac, 6);
		if (flip && f.len > ETH_HDR)
			flip_bits(&f, bits);
		cats[flip ? C_FLIPPED : C_REPLAYED]++;
		account(f.b, f.len, gen.ethertype, flip ? C_FLIPPED : C_REPLAYED);
		out_put(f.b, f.len);
	}
	out_close();
	free(frames);
	have_seed = flip;
	the_seed = seed;
	report(flip ? "flip" : "replay", cats);
	return 0;
}

/* --- forge --- */

static size_t read_key(const char *path, uint8_t key[16])
{
	uint8_t buf[80];
	size_t n, i, k = 0;
	FILE *f = fopen(path, "rb");

	if (!f)
		die_errno("key-file %s", path);
	n = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	if (n == 16) {
		memcpy(key, buf, 16);
		return 16;
	}
	/* 32 hex digits, surrounding white space allowed */
	for (i = 0; i < n; i++) {
		unsigned int d;

		if (buf[i] == ' ' || buf[i] == '\n' || buf[i] == '\t' ||
		    buf[i] == '\r')
			continue;
		if (buf[i] >= '0' && buf[i] <= '9')
			d = buf[i] - '0';
		else if (buf[i] >= 'a' && buf[i] <= 'f')
			d = buf[i] - 'a' + 10;
		else if (buf[i] >= 'A' && buf[i] <= 'F')
			d = buf[i] - 'A' + 10;
		else
			die("key-file %s: neither 16 bytes nor 32 hex digits", path);
		if (k >= 32)
			die("key-file %s: more than 32 hex digits", path);
		if (k % 2 == 0)
			key[k / 2] = (uint8_t)(d << 4);
		else
			key[k / 2] |= (uint8_t)d;
		k++;
	}
	if (k != 32)
		die("key-file %s: neither 16 bytes nor 32 hex digits", path);
	return 16;
}

/* a valid payload naming @id where the type names a coordinator */
static unsigned int forge_payload(uint8_t algo, uint8_t type, uint32_t id,
				  uint64_t term, uint8_t *p)
{
	if (type == ELEC_MSG_ALIVE) {
		put32(p, id);
		put64(p + 4, id ? (term ? term : 1) : 0);
		return 12;
	}
	switch (algo) {
	case ELEC_ALGO_RING:
	case ELEC_ALGO_RING_ALL:
	case ELEC_ALGO_RING_LIST:
		if (type == ELEC_MSG_HEARTBEAT)
			return 0;
		put32(p, 1);
		if (type == ELEC_MSG_ACK)
			return 4;
		if (algo == ELEC_ALGO_RING) {
			put32(p + 4, id);
			return 8;
		}
		if (algo == ELEC_ALGO_RING_ALL) {
			put32(p + 4, id);
			if (type == ELEC_MSG_ELECTION)
				return 8;
			put32(p + 8, id);
			return 12;
		}
		put16(p + 4, 1);
		put16(p + 6, 0);
		put32(p + 8, id);
		return 12;
	case ELEC_ALGO_MIN_BULLY:
		if (type == ELEC_MSG_COORDINATOR) {
			put32(p, id);
			return 4;
		}
		return 0;
	case ELEC_ALGO_ENH_BULLY:
		if (type == ELEC_MSG_ELECTION) {
			put32(p, 0);
			return 4;
		}
		if (type == ELEC_MSG_COORDINATOR || type == ELEC_MSG_CID) {
			put32(p, id);
			put16(p + 4, 1);
			put16(p + 6, 0);
			put32(p + 8, id);
			return 12;
		}
		return 0;
	case ELEC_ALGO_INVITATION:
		switch (type) {
		case ELEC_MSG_AYC_REPLY:
			put32(p, id);
			put32(p + 4, 1);
			return 8;
		case ELEC_MSG_INVITE:
			put32(p, id);
			put16(p + 4, 1);
			put16(p + 6, 0);
			put32(p + 8, id);
			return 12;
		case ELEC_MSG_READY:
			memset(p, 0, 8);
			put32(p + 4, 1);
			return 8;
		default:
			return 0;
		}
	default:
		return 0;
	}
}

static int cmd_forge(struct args *a)
{
	struct common c = { 0 };
	struct hdr h = { 0 };
	uint8_t payload[MAX_BODY], key[16];
	uint64_t count = 1, term_step = 0, counter = 0, cats[N_CATS] = { 0 };
	bool have_counter = false;
	unsigned int plen = 0, cut = 0;
	int plen_set = -1;
	const char *dev, *payload_s = "auto", *key_file = NULL, *mac_s = NULL;
	bool have_group = false, have_id = false, have_term = false;
	bool seen[16] = { 0 };
	enum src_mode sm;
	struct frame f;
	uint64_t i;

	if (!more(a))
		die("needs DEV");
	dev = next_word(a);
	h.version = ELECTION_WIRE_VERSION;
	h.type = ELEC_MSG_COORDINATOR;
	h.algo = ELEC_ALGO_BULLY;
	gen.ethertype = ELECTION_ETHERTYPE;
	out.pace = true;
	if (more(a) && is_type_word(a->argv[a->i])) {
		h.type = parse_type(next_word(a));
		seen[0] = true;
	}
#define ONCE(k) do { if (seen[k]) die("'%s' given twice", kw); seen[k] = true; } while (0)
	while (more(a)) {
		const char *kw = next_word(a);

		if (!strcmp(kw, "type")) {
			ONCE(0);
			h.type = parse_type(value_of(a, kw));
		} else if (!strcmp(kw, "group")) {
			ONCE(1);
			have_group = true;
			h.group = (uint16_t)parse_num(value_of(a, kw), kw, 0, 0xffff);
		} else if (!strcmp(kw, "id")) {
			ONCE(2);
			have_id = true;
			h.src = (uint32_t)parse_num(value_of(a, kw), kw, 0, UINT32_MAX);
		} else if (!strcmp(kw, "term")) {
			ONCE(3);
			have_term = true;
			h.term = parse_num(value_of(a, kw), kw, 0, UINT64_MAX);
		} else if (!strcmp(kw, "algo")) {
			ONCE(4);
			h.algo = parse_algo(value_of(a, kw));
		} else if (!strcmp(kw, "dst")) {
			ONCE(5);
			h.dst = (uint32_t)parse_num(value_of(a, kw), kw, 0, UINT32_MAX);
		} else if (!strcmp(kw, "count")) {
			ONCE(6);
			count = parse_num(value_of(a, kw), kw, 1, UINT64_MAX);
		} else if (!strcmp(kw, "term-step")) {
			ONCE(7);
			term_step = parse_num(value_of(a, kw), kw, 0, UINT64_MAX);
		} else if (!strcmp(kw, "flags")) {
			ONCE(8);
			h.flags |= (uint8_t)parse_num(value_of(a, kw), kw, 0, 255);
		} else if (!strcmp(kw, "leaving")) {
			ONCE(9);
			h.flags |= FLAG_LEAVING;
		} else if (!strcmp(kw, "payload")) {
			ONCE(10);
			payload_s = value_of(a, kw);
		} else if (!strcmp(kw, "plen")) {
			ONCE(11);
			plen_set = (int)parse_num(value_of(a, kw), kw, 0, 0xffff);
		} else if (!strcmp(kw, "key-file")) {
			ONCE(12);
			key_file = value_of(a, kw);
		} else if (!strcmp(kw, "mac")) {
			ONCE(13);
			mac_s = value_of(a, kw);
			if (strcmp(mac_s, "good") && strcmp(mac_s, "random") &&
			    strcmp(mac_s, "zero") && strcmp(mac_s, "none"))
				die("mac: good, random, zero or none, not '%s'", mac_s);
		} else if (!strcmp(kw, "counter")) {
			const char *v = value_of(a, kw);

			ONCE(14);
			/* "now" (the default): the wall clock, as a node's */
			have_counter = strcmp(v, "now");
			if (have_counter)
				counter = parse_num(v, kw, 0, UINT64_MAX);
		} else if (!strcmp(kw, "trailer-cut")) {
			ONCE(15);
			cut = (unsigned int)parse_num(value_of(a, kw), kw, 0, TRAILER);
		} else if (!common_opt(a, kw, &c)) {
			die("unknown keyword '%s'", kw);
		}
	}
#undef ONCE
	if (!have_group || !have_id || !have_term)
		die("needs group G, id ID and term T");
	if (!mac_s)
		mac_s = key_file ? "good" : "none";
	if (!strcmp(mac_s, "good") && !key_file)
		die("mac good needs a key-file");
	if (key_file && !strcmp(mac_s, "none"))
		die("key-file with 'mac none' makes no trailer: drop one of them");
	if (cut && !strcmp(mac_s, "none"))
		die("trailer-cut needs a trailer (key-file or mac random|zero)");
	if (key_file)
		read_key(key_file, key);
	if (!strcmp(payload_s, "auto")) {
		plen = forge_payload(h.algo, h.type, h.src, h.term, payload);
	} else if (!strcmp(payload_s, "none")) {
		plen = 0;
	} else {
		size_t n = strlen(payload_s), j;

		if (n % 2 || n / 2 > MAX_BODY - HDR)
			die("payload: an even number of hex digits, at most %d bytes",
			    MAX_BODY - HDR);
		for (j = 0; j < n; j += 2) {
			char hx[3] = { payload_s[j], payload_s[j + 1], 0 };

			if (!strchr("0123456789abcdefABCDEF", hx[0]) ||
			    !strchr("0123456789abcdefABCDEF", hx[1]))
				die("payload: '%s' is not hex", payload_s);
			payload[j / 2] = (uint8_t)strtoul(hx, NULL, 16);
		}
		plen = (unsigned int)(n / 2);
	}
	sm = src_mode_of(c.src_mac, false);
	common_finish(&c);
	out_open(dev);
	if (sm == SRC_OWN)
		memcpy(gen.src_mac, out.own_mac, 6);
	if (strcmp(mac_s, "none"))
		h.flags |= FLAG_AUTH;
	h.plen = (uint16_t)(plen_set >= 0 ? (unsigned int)plen_set : plen);
	if (HDR + plen + TRAILER > MAX_BODY)
		die("the frame would exceed %d bytes", MAX_BODY);
	/*
	 * "now": from the next tick of the clock, so that the first forged
	 * counter is above every counter a node sent before it: a forgery
	 * from a configured peer reaches the MAC check whatever that peer's
	 * frame numbers are (Documentation/protocol.rst)
	 */
	if (!have_counter)
		counter = (wall_ns() & ~ELECTION_AUTH_SEQ_MASK) +
			  ELECTION_AUTH_SEQ_MASK + 1;
	for (i = 0; i < count; i++) {
		uint8_t *b = body_of(&f);
		size_t blen = HDR + plen;
		uint64_t ctr = counter + i;

		/*
		 * "now": each frame's counter as a node makes it: the wall
		 * clock when it is made and the next frame number
		 * (Documentation/protocol.rst), above the last one
		 */
		if (!have_counter) {
			ctr = next_counter(counter);
			counter = ctr;
		}
		eth_header(&f);
		hdr_write(b, &h);
		memcpy(b + HDR, payload, plen);
		if (h.flags & FLAG_AUTH) {
			put64(b + blen, ctr);
			if (!strcmp(mac_s, "good"))
				siphash24_bytes(key, b, blen + 8, b + blen + 8);
			else if (!strcmp(mac_s, "zero"))
				memset(b + blen + 8, 0, 8);
			else
				rnd_bytes(b + blen + 8, 8);
			blen += TRAILER - cut;
		}
		f.len = ETH_HDR + blen;
		/* a cut trailer stays cut: padding would be read as the trailer */
		if (!cut)
			pad(&f);
		cats[C_FORGED]++;
		account(f.b, f.len, gen.ethertype, C_FORGED);
		out_put(f.b, f.len);
		h.term += term_step;
	}
	out_close();
	report("forge", cats);
	return 0;
}

/* --- fuzz --- */

static int cmd_fuzz(struct args *a)
{
	struct common c = { 0 };
	uint64_t count = 0, seed = 1, cats[N_CATS] = { 0 }, i;
	enum cat pool[N_CATS];
	unsigned int n_pool = 0;
	bool seen_count = false, seen_seed = false, seen_algo = false;
	bool seen_mode = false;
	const char *dev, *mode = "mixed";
	enum src_mode sm;
	struct frame f;
	double last;
	int k;

	if (!more(a))
		die("needs DEV");
	dev = next_word(a);
	gen.ethertype = ELECTION_ETHERTYPE;
	out.pace = true;
	while (more(a)) {
		const char *kw = next_word(a);

		if (!strcmp(kw, "count") && !seen_count) {
			seen_count = true;
			count = parse_num(value_of(a, kw), kw, 1, UINT64_MAX);
		} else if (!strcmp(kw, "seed") && !seen_seed) {
			seen_seed = true;
			seed = parse_num(value_of(a, kw), kw, 0, UINT64_MAX);
		} else if (!strcmp(kw, "algo") && !seen_algo) {
			seen_algo = true;
			parse_algos(value_of(a, kw));
		} else if (!strcmp(kw, "mode") && !seen_mode) {
			seen_mode = true;
			mode = value_of(a, kw);
			if (strcmp(mode, "mixed") && strcmp(mode, "random") &&
			    strcmp(mode, "mutate"))
				die("mode: mixed, random or mutate, not '%s'", mode);
		} else if (!strcmp(kw, "group")) {
			add_target_group((uint16_t)parse_num(value_of(a, kw), kw,
							     1, 0xffff));
		} else if (!common_opt(a, kw, &c)) {
			die("unknown or repeated keyword '%s'", kw);
		}
	}
	if (!seen_count)
		die("needs 'count N'");
	if (!seen_algo)
		parse_algos("all");
	if (!gen.n_groups)
		gen.groups[gen.n_groups++] = 1;
	sm = src_mode_of(c.src_mac, false);
	common_finish(&c);
	if (!strcmp(mode, "random")) {
		pool[n_pool++] = C_RANDOM;
	} else if (!strcmp(mode, "mutate")) {
		pool[n_pool++] = C_MUTATED;
	} else {
		bool stopped = false, keyed = false;
		unsigned int j;

		for (j = 0; j < model.n_groups; j++) {
			stopped |= model.groups[j].stopped;
			keyed |= model.groups[j].keyed;
		}
		for (k = 0; k <= C_RANDOM; k++)
			if ((k != C_STOPPED || stopped) &&
			    (k != C_AUTH_SIGNED || keyed))
				pool[n_pool++] = (enum cat)k;
	}
	out_open(dev);
	if (sm == SRC_OWN)
		memcpy(gen.src_mac, out.own_mac, 6);
	rng_state = seed;
	last = out.t0;
	for (i = 0; i < count; i++) {
		enum cat ct = pool[rnd(n_pool)];

		build_cat(&f, ct);
		cats[ct]++;
		account(f.b, f.len, gen.ethertype, ct);
		out_put(f.b, f.len);
		if (!opt_quiet && (i & 0xffff) == 0xffff) {
			double t = now_s();

			if (t - last >= 10) {
				last = t;
				info("fuzz: %" PRIu64 " of %" PRIu64 " frames, %.0f s\n",
				     i + 1, count, t - out.t0);
			}
		}
	}
	out_close();
	have_seed = true;
	the_seed = seed;
	report("fuzz", cats);
	return 0;
}

int main(int argc, char **argv)
{
	struct args a = { argc, argv, 1 };
	const char *cmd;

	while (more(&a) && argv[a.i][0] == '-') {
		const char *o = next_word(&a);

		if (!strcmp(o, "-j") || !strcmp(o, "--json")) {
			opt_json = true;
		} else if (!strcmp(o, "-q") || !strcmp(o, "--quiet")) {
			opt_quiet = true;
		} else if (!strcmp(o, "-h") || !strcmp(o, "--help")) {
			usage(stdout);
			return 0;
		} else {
			fprintf(stderr, "%s: unknown option '%s'\n", prog, o);
			usage(stderr);
			return 1;
		}
	}
	if (!more(&a)) {
		usage(stderr);
		return 1;
	}
	cmd = next_word(&a);
	cmd_name = cmd;
	if (!strcmp(cmd, "help")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(cmd, "selftest"))
		return cmd_selftest(&a);
	if (!strcmp(cmd, "capture"))
		return cmd_capture(&a);
	if (!strcmp(cmd, "list"))
		return cmd_list(&a);
	if (!strcmp(cmd, "replay"))
		return cmd_replay_flip(&a, false);
	if (!strcmp(cmd, "flip"))
		return cmd_replay_flip(&a, true);
	if (!strcmp(cmd, "forge"))
		return cmd_forge(&a);
	if (!strcmp(cmd, "fuzz"))
		return cmd_fuzz(&a);
	cmd_name = "";
	die("unknown command '%s' (elec-inject help)", cmd);
}
