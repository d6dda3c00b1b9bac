// SPDX-License-Identifier: GPL-2.0
/*
 * Scenarios: elect, boot, crash-leader, recover, random.
 *
 * The settled state (elect, crash-leader, recover, random) is the state
 * after a completed election: every node follows the highest id with term
 * 1. It is reached through the core itself: every node is started, the
 * non-highest ones are put in the following phase (so that the announce is
 * not treated as the end of a learning window), the highest id is asked to
 * elect (it has no higher peer and announces COORDINATOR), and the
 * announces are delivered. Nothing of this is counted.
 *
 * Passive nodes (elect, crash-leader --initiator ID) ignore their DETECT
 * expiry until a message reaches them; the simulator does that, not the
 * core.
 */
#include <stdlib.h>
#include <string.h>

#include "sim.h"

const char *const scenario_names[SC_COUNT] = {
	[SC_ELECT] = "elect",
	[SC_BOOT] = "boot",
	[SC_CRASH_LEADER] = "crash-leader",
	[SC_RECOVER] = "recover",
	[SC_RANDOM] = "random",
};

static struct node *highest(struct sim *s, int live_only)
{
	u32 k;

	for (k = s->n; k-- > 0;) {
		struct node *nd = &s->nodes[s->by_id[k]];

		if (!live_only || nd->up)
			return nd;
	}
	return NULL;
}

static void start_all(struct sim *s)
{
	u32 i;

	for (i = 0; i < s->n; i++) {
		elec_core_start(&s->nodes[i].core, s->now);
		sim_node_end(&s->nodes[i]);
	}
}

static void settle(struct sim *s)
{
	struct node *h = highest(s, 0);
	u32 i;

	for (i = 0; i < s->n; i++) {
		struct node *nd = &s->nodes[i];

		elec_core_start(&nd->core, s->now);
		if (nd != h)
			nd->core.phase = ELEC_BULLY_FOLLOWING;
	}
	elec_core_elect(&h->core, s->now);
	for (i = 0; i < s->n; i++)
		sim_node_end(&s->nodes[i]);
	sim_run(s, ~0ULL);
	if (s->trace)
		out_trace(s, "settled leader=%u", h->id);
}

static void make_passive(struct sim *s, struct node *except)
{
	u32 i;

	for (i = 0; i < s->n; i++)
		s->nodes[i].passive = &s->nodes[i] != except;
}

/* generous E2 bound after the last fault, implied by the timeouts */
static u64 e2_bound(const struct sim_params *p)
{
	u64 coord = p->coord_timeout_ns ? p->coord_timeout_ns :
		    p->timeout_ns * ELECTION_DEF_COORD_TIMEOUT_MULT;
	u64 round = p->timeout_ns + coord + 4 * p->lat_hi;

	return p->hb_interval_ns * (p->hb_miss + 2) + (u64)(p->n + 2) * round;
}

static void random_schedule(struct sim *s, struct run_result *r)
{
	const struct sim_params *p = s->p;
	u64 detect = p->hb_interval_ns * p->hb_miss;
	u64 coord = p->coord_timeout_ns ? p->coord_timeout_ns :
		    p->timeout_ns * ELECTION_DEF_COORD_TIMEOUT_MULT;
	/* recover only after the others had time to notice the crash */
	u64 rec_gap = detect + p->hb_interval_ns + p->timeout_ns + coord;
	u8 *up = malloc(s->n);
	u64 *down_at = calloc(s->n, sizeof(*down_at));
	u32 live = s->n, nf, f;
	u64 t = s->now;

	if (!up || !down_at) {
		fprintf(stderr, "electsim: out of memory\n");
		exit(3);
	}
	memset(up, 1, s->n);
	nf = 1 + (u32)rng_range(&s->srng, 0, s->n < 3 ? s->n : 3);
	for (f = 0; f < nf; f++) {
		u32 x;

		t += rng_range(&s->srng, 0, 2 * detect);
		if (!f || rng_range(&s->srng, 0, 3) == 0) {
			/* crash the highest planned-up node (the leader) */
			u32 k = s->n;

			do
				x = s->by_id[--k];
			while (!up[x] && k);
		} else {
			x = (u32)rng_range(&s->srng, 0, s->n - 1);
		}
		if (up[x]) {
			if (live <= 1)
				continue;
			up[x] = 0;
			down_at[x] = t;
			live--;
			sim_push(s, t, EV_CRASH, 0, x, 0, 0);
		} else {
			if (!p->fast_recover && t < down_at[x] + rec_gap)
				t = down_at[x] + rec_gap;
			up[x] = 1;
			live++;
			sim_push(s, t, EV_RECOVER, 0, x, 0, 0);
		}
		r->last_fault_ns = t;
	}
	if (p->partitions && s->n > 1) {
		/* a split somewhere in the schedule, healed later */
		u64 a = s->now + rng_range(&s->srng, 0, t - s->now + detect);
		u64 b = a + rng_range(&s->srng, p->timeout_ns, 4 * detect);

		sim_push(s, a, EV_SPLIT, 0, 0, 0, rng_next(&s->srng));
		sim_push(s, b, EV_HEAL, 0, 0, 0, 0);
		if (b > r->last_fault_ns)
			r->last_fault_ns = b;
	}
	free(up);
	free(down_at);
}

int scenario_run(const struct sim_params *p0, struct run_result *r)
{
	struct sim_params p = *p0;
	struct run_result tmp;
	struct sim s;
	struct node *init = NULL, *h;
	u64 bound, last_fault;

	if (p.scenario == SC_RANDOM && !p.lat_set) {
		p.lat_lo = 50000;
		p.lat_hi = 1000000;
	}
	if (sim_init(&s, &p)) {
		fprintf(stderr, "electsim: cannot set up %u nodes\n", p.n);
		sim_free(&s);
		return -1;
	}
	memset(&tmp, 0, sizeof(tmp));
	if (!p.initiator_all)
		init = sim_node_by_id(&s, p.initiator);

	switch (p.scenario) {
	case SC_BOOT:
		sim_start_counting(&s);
		start_all(&s);
		break;
	case SC_ELECT:
		settle(&s);
		if (init)
			make_passive(&s, init);
		sim_start_counting(&s);
		if (s.trace)
			out_trace(&s, "trigger elect");
		if (init) {
			elec_core_elect(&init->core, s.now);
			sim_node_end(init);
		} else {
			u32 i;

			for (i = 0; i < s.n; i++) {
				elec_core_elect(&s.nodes[i].core, s.now);
				sim_node_end(&s.nodes[i]);
			}
		}
		break;
	case SC_CRASH_LEADER:
	case SC_RECOVER:
		settle(&s);
		if (init)
			make_passive(&s, init);
		sim_start_counting(&s);
		if (s.trace)
			out_trace(&s, "trigger crash-leader");
		sim_crash(&s, highest(&s, 0));
		break;
	case SC_RANDOM:
		settle(&s);
		sim_start_counting(&s);
		if (s.trace)
			out_trace(&s, "trigger random");
		random_schedule(&s, &tmp);
		break;
	}
	last_fault = tmp.last_fault_ns > s.now ? tmp.last_fault_ns : s.now;
	bound = last_fault + e2_bound(&p);
	sim_run(&s, bound);
	if (p.scenario == SC_RECOVER) {
		h = highest(&s, 0);
		last_fault = s.now + p.hb_interval_ns;
		sim_push(&s, last_fault, EV_RECOVER, 0, h->idx, 0, 0);
		bound = last_fault + e2_bound(&p);
		sim_run(&s, bound);
	}
	sim_result(&s, r);
	if (p.observe && r->stable) {
		/*
		 * Quiescence is claimed: watch a window as long as detection
		 * plus a full election; nothing but heartbeats may happen.
		 */
		struct run_result after;
		u64 coord = elec_config_coord_timeout(&s.nodes[0].core.cfg);

		s.no_stop = 1;
		sim_run(&s, s.now + p.hb_interval_ns * (p.hb_miss + 2) +
			    p.timeout_ns + coord);
		sim_result(&s, &after);
		if (!after.stable || after.leader != r->leader ||
		    after.messages != r->messages)
			r->changed_after = 1;
	}
	r->bound_ns = bound;
	r->last_fault_ns = last_fault;
	if (s.trace)
		out_trace(&s, "end %s leader=%u agreed=%d",
			  r->stable ? "quiescent" : "bound-reached", r->leader,
			  r->agreed);
	sim_free(&s);
	return 0;
}
