// SPDX-License-Identifier: GPL-2.0
/*
 * The network model: per-frame latency (fixed, or uniform between bounds),
 * loss with a probability, and partitions (frames between sides are lost).
 * All randomness comes from our own seeded splitmix64.
 */
#include <stdlib.h>

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
	n->lat_lo = p->lat_lo;
	n->lat_hi = p->lat_hi;
	n->loss = p->loss;
	n->side = NULL;
	rng_seed(&n->rng, p->seed);
}

void net_free(struct net *n)
{
	free(n->side);
	n->side = NULL;
}

/* one frame to node index @dst_idx: lost, or scheduled for delivery */
void net_send(struct sim *s, const struct elec_msg *m, u32 dst_idx)
{
	struct net *n = &s->net;
	struct node *src;
	u64 lat;

	if (n->loss > 0 && rng_unit(&n->rng) < n->loss) {
		if (s->trace)
			out_trace(s, "%u lost %s src=%u (loss)",
				  s->nodes[dst_idx].id, out_msg_name(m->type),
				  m->src);
		return;
	}
	src = n->side ? sim_node_by_id(s, m->src) : NULL;
	if (src && n->side[src->idx] != n->side[dst_idx]) {
		if (s->trace)
			out_trace(s, "%u lost %s src=%u (partition)",
				  s->nodes[dst_idx].id, out_msg_name(m->type),
				  m->src);
		return;
	}
	lat = n->lat_lo == n->lat_hi ? n->lat_lo :
	      rng_range(&n->rng, n->lat_lo, n->lat_hi);
	if (m->type != ELEC_MSG_HEARTBEAT)
		s->inflight++;
	sim_push(s, s->now + lat, EV_MSG, m->type, dst_idx, m->src, m->term);
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

void net_heal(struct sim *s)
{
	free(s->net.side);
	s->net.side = NULL;
	if (s->trace)
		out_trace(s, "partition healed");
}
