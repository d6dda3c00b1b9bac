// SPDX-License-Identifier: GPL-2.0
/*
 * elec-inject: the model of the receivers, written from
 * Documentation/protocol.rst
 * ("Wire format", "Authentication", "Receive checks") and not from
 * module/core: what a frame's bytes decode as, and the drop reason each
 * node counts for it. It includes nothing of the module but the uapi
 * header's numbers (linux/election.h).
 */
#include "elec-inject.h"

const char *const algo_names[N_ALGOS + 1] = {
	NULL, "bully", "ring", "ring-all", "ring-list", "min-bully",
	"enh-bully", "invitation",
};

const char *const type_names[N_TYPES] = {
	NULL, "election", "answer", "coordinator", "heartbeat", "ack",
	"retry", "query", "cid", "ayc", "ayc_reply", "invite", "accept",
	"ready", "alive",
};

/*
 * The message types each algorithm sends and accepts (protocol.rst):
 * any other type in a frame of that algorithm is malformed.
 */
const uint8_t algo_types[N_ALGOS + 1][8] = {
	[1] = { 1, 2, 3, 4, 14 },
	[2] = { 1, 3, 4, 5 },
	[3] = { 1, 3, 4, 5 },
	[4] = { 1, 3, 4, 5 },
	[5] = { 1, 2, 3, 4, 7, 8, 14 },
	[6] = { 1, 2, 3, 4, 7, 8, 14 },
	[7] = { 4, 9, 10, 11, 12, 13 },
};

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
const char *reason_name(int r)
{
	static char buf[N_REASONS][16];

	if (r >= 0 && r < N_REASONS && reason_names[r])
		return reason_names[r];
	if (r < 0 || r >= N_REASONS)
		return "?";
	snprintf(buf[r], sizeof(buf[r]), "drop_%d", r);
	return buf[r];
}

/* ------------------------------------------------------------------ */
/* the payload rules of protocol.rst, per algorithm and type            */

bool algo_has_type(unsigned int algo, unsigned int type)
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
bool payload_valid(unsigned int algo, unsigned int type,
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

void hdr_read(const uint8_t *b, struct hdr *h)
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

void hdr_write(uint8_t *b, const struct hdr *h)
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

const char *const verdict_names[] = {
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
enum verdict body_verdict(const uint8_t *b, size_t len, struct hdr *h)
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

bool body_decodes(const uint8_t *b, size_t len, struct hdr *h)
{
	return body_verdict(b, len, h) == V_OK;
}

/* ------------------------------------------------------------------ */
/* the receiving nodes, for predictions                                */

struct model model;

const struct node *node_by_id(uint32_t id)
{
	unsigned int i;

	for (i = 0; i < model.n_nodes; i++)
		if (model.nodes[i].id == id)
			return &model.nodes[i];
	return NULL;
}

const struct group *group_by_id(uint16_t id)
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
uint64_t wall_ns(void)
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
uint64_t next_counter(uint64_t last)
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
bool counter_near_now(const uint8_t *frame, size_t len, uint64_t *ctr)
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
int predict(const uint8_t *frame, size_t len, uint16_t ethertype,
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

void account(const uint8_t *frame, size_t len, uint16_t ethertype,
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
