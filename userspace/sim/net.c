// SPDX-License-Identifier: GPL-2.0
/*
 * The network model: per-frame latency (fixed, or uniform between bounds),
 * loss with a probability, and partitions (frames between sides are lost).
 * All randomness comes from our own seeded splitmix64.
 *
 * FIFO links (the ring algorithms: their texts assume FIFO channels): a
 * frame on a directed link (src, dst) is never delivered before an earlier
 * one on the same link. With a fixed latency that holds by itself; with a
 * random one a frame's delivery time is raised to the link's latest
 * scheduled delivery (equal times keep the send order, by sequence
 * number). The latest time per link is kept in a small hash table whose
 * entries are dropped once they no longer constrain anything (their time
 * has passed), so it holds about as many links as there are frames in
 * flight. Bully's links are not FIFO.
 */
#include <stdlib.h>
#include <string.h>

#include "sim.h"

void rng_seed(struct rng *r, u64 seed)
{
	r->s = seed;
}

/* splitmix64 (Steele, Lea, Flood) */
u64 rng_next(struct rng *r)
{
	u64 z = (r->s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

u64 rng_range(struct rng *r, u64 lo, u64 hi)
{
	u64 span;

	if (hi <= lo)
		return lo;
	span = hi - lo + 1;
	if (!span)
		return rng_next(r);
	return lo + rng_next(r) % span;
}

double rng_unit(struct rng *r)
{
	return (double)(rng_next(r) >> 11) * (1.0 / 9007199254740992.0);
}

void net_init(struct net *n, const struct sim_params *p, u32 nodes)
{
	(void)nodes;
	memset(n, 0, sizeof(*n));
	n->lat_lo = p->lat_lo;
	n->lat_hi = p->lat_hi;
	n->loss = p->loss;
	n->side = NULL;
	n->fifo = elec_algo_is_ring(p->ops->algo) && p->lat_lo != p->lat_hi;
	rng_seed(&n->rng, p->seed);
}

void net_free(struct net *n)
{
	free(n->side);
	n->side = NULL;
	free(n->links);
	n->links = NULL;
}

static size_t link_hash(u64 key, size_t cap)
{
	key ^= key >> 29;
	key *= 0xbf58476d1ce4e5b9ULL;
	key ^= key >> 32;
	return (size_t)key & (cap - 1);
}

static void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n, size);

	if (!p) {
		fprintf(stderr, "electsim: out of memory\n");
		exit(3);
	}
	return p;
}

/* rebuild the table, keeping the links with a delivery after @now */
static void links_rebuild(struct net *n, u64 now)
{
	struct link_slot *old = n->links;
	size_t ocap = n->links_cap, live = 0, i, ncap;

	for (i = 0; i < ocap; i++)
		live += old[i].key && old[i].last > now;
	ncap = ocap ? ocap : 256;
	while (live * 4 > ncap)
		ncap *= 2;
	n->links = xcalloc(ncap, sizeof(*n->links));
	n->links_cap = ncap;
	n->links_used = 0;
	for (i = 0; i < ocap; i++) {
		size_t h;

		if (!old[i].key || old[i].last <= now)
			continue;
		h = link_hash(old[i].key, ncap);
		while (n->links[h].key)
			h = (h + 1) & (ncap - 1);
		n->links[h] = old[i];
		n->links_used++;
	}
	free(old);
}

/* the delivery time of a frame on (src, dst) sent now with latency @lat */
static u64 link_fifo(struct net *n, u64 now, u32 src, u32 dst, u64 lat)
{
	u64 key = ((u64)src << 32 | dst) + 1, t = now + lat;
	size_t h;

	if ((n->links_used + 1) * 2 > n->links_cap)
		links_rebuild(n, now);
	h = link_hash(key, n->links_cap);
	while (n->links[h].key && n->links[h].key != key)
		h = (h + 1) & (n->links_cap - 1);
	if (!n->links[h].key) {
		n->links[h].key = key;
		n->links_used++;
	} else if (n->links[h].last > t) {
		t = n->links[h].last;
	}
	n->links[h].last = t;
	return t;
}

static const u8 zero_hop[ELECTION_RING_HOP_LEN];

/* one frame to node index @dst_idx: lost, or scheduled for delivery */
void net_send(struct sim *s, const struct elec_msg *m, u32 src_idx,
	      u32 dst_idx)
{
	struct net *n = &s->net;
	u64 lat, t;

	if (n->loss > 0 && rng_unit(&n->rng) < n->loss) {
		if (s->trace)
			out_trace(s, "%u lost %s src=%u (loss)",
				  s->nodes[dst_idx].id, out_msg_name(m->type),
				  m->src);
		return;
	}
	if (n->side && n->side[src_idx] != n->side[dst_idx]) {
		if (s->trace)
			out_trace(s, "%u lost %s src=%u (partition)",
				  s->nodes[dst_idx].id, out_msg_name(m->type),
				  m->src);
		return;
	}
	if (m->type == ELEC_MSG_ALIVE && s->alive_sent)
		s->alive_sent[(u64)src_idx * s->n + dst_idx] = s->now;
	if (m->type == ELEC_MSG_HEARTBEAT && s->hb_sent)
		s->hb_sent[(u64)src_idx * s->n + dst_idx] = s->now;
	lat = n->lat_lo == n->lat_hi ? n->lat_lo :
	      rng_range(&n->rng, n->lat_lo, n->lat_hi);
	/* --jitter: a fraction of the frames is late by up to the bound */
	if (s->p->jitter_p > 0 && rng_unit(&n->rng) < s->p->jitter_p)
		lat += rng_range(&n->rng, 1, s->p->jitter_max_ns);
	t = n->fifo ? link_fifo(n, s->now, src_idx, dst_idx, lat) :
	    s->now + lat;
	if (m->type == ELEC_MSG_HEARTBEAT && s->hb_due &&
	    t > s->hb_due[(u64)src_idx * s->n + dst_idx]) {
		s->hb_due[(u64)src_idx * s->n + dst_idx] = t;
		s->hb_due_term[(u64)src_idx * s->n + dst_idx] = m->term;
	}
	if (m->type != ELEC_MSG_HEARTBEAT && m->type != ELEC_MSG_ALIVE)
		s->inflight++;
	if (m->payload_len == ELECTION_RING_HOP_LEN &&
	    !memcmp(m->payload, zero_hop, ELECTION_RING_HOP_LEN))
		sim_push(s, t, EV_ZMSG, EV_MSG_TYPE(m), dst_idx, m->src,
			 m->term);
	else if (m->payload_len)
		sim_push(s, t, EV_PMSG, EV_MSG_TYPE(m), dst_idx,
			 pool_alloc(&s->pool, m->src, m->payload,
				    m->payload_len), m->term);
	else
		sim_push(s, t, EV_MSG, EV_MSG_TYPE(m), dst_idx, m->src,
			 m->term);
}

/* two sides, each node's side drawn from @salt (both sides non-empty) */
void net_split(struct sim *s, u64 salt)
{
	struct net *n = &s->net;
	struct rng r;
	u32 i, ones = 0;

	if (!n->side)
		n->side = malloc(s->n);
	if (!n->side) {
		fprintf(stderr, "electsim: out of memory\n");
		exit(3);
	}
	rng_seed(&r, salt);
	for (i = 0; i < s->n; i++) {
		n->side[i] = rng_next(&r) & 1;
		ones += n->side[i];
	}
	if (s->n > 1 && (ones == 0 || ones == s->n))
		n->side[0] ^= 1;
	if (s->trace)
		out_trace(s, "partition (%u nodes on side 1)",
			  ones + (ones == 0) - (ones == s->n));
}

void net_split_mask(struct sim *s, const char *mask)
{
	struct net *n = &s->net;
	u32 i, ones = 0;

	if (!n->side)
		n->side = malloc(s->n);
	if (!n->side) {
		fprintf(stderr, "electsim: out of memory\n");
		exit(3);
	}
	for (i = 0; i < s->n; i++) {
		n->side[i] = (u8)sched_mask_bit(mask, s->nodes[i].id - 1);
		ones += n->side[i];
	}
	if (s->trace)
		out_trace(s, "partition 0x%s (%u nodes on side 1)", mask, ones);
}

/* the lower half of the ids on side 0, the upper half on side 1 */
void net_split_halves(struct sim *s)
{
	struct net *n = &s->net;
	u32 k;

	if (!n->side)
		n->side = malloc(s->n);
	if (!n->side) {
		fprintf(stderr, "electsim: out of memory\n");
		exit(3);
	}
	for (k = 0; k < s->n; k++)
		n->side[s->by_id[k]] = k >= s->n / 2;
	if (s->trace)
		out_trace(s, "partition (ids below %u apart)",
			  s->nodes[s->by_id[s->n / 2]].id);
}

void net_heal(struct sim *s)
{
	free(s->net.side);
	s->net.side = NULL;
	if (s->trace)
		out_trace(s, "partition healed");
}

/*
 * With no loss, no partition, a fixed latency and no per-link record to
 * keep (quorum's), every frame of a broadcast arrives at the same time:
 * the events go in as runs (sim_push_range), the same events with the
 * same sequence numbers as one net_send() per node.
 */
void net_broadcast(struct sim *s, const struct elec_msg *m, u32 src_idx)
{
	struct net *n = &s->net;
	u8 kind = EV_MSG;
	u32 j, src = m->src;
	u64 t;

	if (n->loss > 0 || n->side || n->lat_lo != n->lat_hi || n->fifo ||
	    s->p->jitter_p > 0 ||
	    s->alive_sent || s->hb_sent ||
	    (m->payload_len && (m->payload_len != ELECTION_RING_HOP_LEN ||
				memcmp(m->payload, zero_hop,
				       ELECTION_RING_HOP_LEN)))) {
		for (j = 0; j < s->n; j++)
			if (j != src_idx)
				net_send(s, m, src_idx, j);
		return;
	}
	if (m->payload_len)
		kind = EV_ZMSG;
	t = s->now + n->lat_lo;
	if (m->type != ELEC_MSG_HEARTBEAT && m->type != ELEC_MSG_ALIVE)
		s->inflight += s->n - 1;
	sim_push_range(s, t, kind, EV_MSG_TYPE(m), 0, src_idx, src, m->term);
	sim_push_range(s, t, kind, EV_MSG_TYPE(m), src_idx + 1, s->n, src,
		       m->term);
}
