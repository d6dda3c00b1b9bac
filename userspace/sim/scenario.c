// SPDX-License-Identifier: GPL-2.0
/*
 * Scenarios: elect, boot, crash-leader, recover, random, soak, join.
 *
 * The settled state (every scenario but boot) is the state after a
 * completed election: every live node follows the best live id (the
 * highest; the lowest for min-bully: elec_algo_better()) with term 1. It
 * is reached through the core itself. Bully: every node is started, the
 * others are put in the following phase (so that the announce is not
 * treated as the end of a learning window), the best id is asked to elect
 * (it has no better peer and announces COORDINATOR), and the announces
 * are delivered. min-bully and enh-bully: see settle_variant(). Ring
 * algorithms: every node is started and accepts the highest id as its
 * leader with term 1 (what the elected message of a completed run does:
 * the highest id leads and sends heartbeats, the others follow it, nobody
 * is a participant), and the leader's first heartbeat is delivered.
 * Nothing of this is counted. Absent nodes (--absent) and the joiner of
 * the join scenario are configured everywhere but down from the start.
 *
 * Passive nodes (elect, crash-leader --initiator ID) ignore their DETECT
 * expiry until a message reaches them; the simulator does that, not the
 * core.
 */
#include <stdlib.h>
#include <string.h>

#include "sim.h"
#include "ring.h"
#include "invitation.h"
#include "detect.h"

const char *const scenario_names[SC_COUNT] = {
	[SC_ELECT] = "elect",
	[SC_BOOT] = "boot",
	[SC_CRASH_LEADER] = "crash-leader",
	[SC_RECOVER] = "recover",
	[SC_RANDOM] = "random",
	[SC_SOAK] = "soak",
	[SC_JOIN] = "join",
	[SC_HEAL] = "heal",
};

static void start_all(struct sim *s)
{
	u32 i;

	for (i = 0; i < s->n; i++) {
		if (!s->nodes[i].up)
			continue;
		elec_core_start(&s->nodes[i].core, s->now);
		sim_node_end(&s->nodes[i]);
	}
}

/*
 * The absent nodes (--absent), and the joiner of the join scenario, are
 * down from the start: configured in every peer table, never started.
 */
static void set_down(struct sim *s, struct node *nd)
{
	if (!nd || !nd->up)
		return;
	if (s->trace)
		out_trace(s, "%u down from the start", nd->id);
	nd->up = 0;
	s->live--;
}

/*
 * The settled group runs until the leader's next heartbeat has arrived:
 * the followers then watch it with the steady detection window.
 */
static void settle_heartbeat(struct sim *s)
{
	s->no_stop = 1;
	sim_run(s, s->now + s->p->cfg.hb_interval_ns + s->p->lat_hi);
	s->no_stop = 0;
}

/*
 * The Bully variants (min-bully, enh-bully). Every live node is started:
 * the others send QUERY and listen (min-bully: broadcast; enh-bully: to
 * the candidates), and the best id may claim at once (min-bully's
 * minimum, enh-bully's highest, with preempt on and no delay). The others
 * are put in the following phase with no leader, as in Bully, so that
 * the end of their learning window (T, the QUERY unanswered) starts no
 * run of theirs. If the best id did not claim, it is asked to elect: it
 * claims with term 1, at once or, when better ids are absent, after T
 * without their answer. The others accept its COORDINATOR (they have had
 * no leader yet, so any term is accepted), the leader answers the
 * queries with CID, which its followers take as a repeated announcement;
 * the run goes on until the leader's first heartbeat has arrived, so that
 * every follower is in FOLLOWING with DETECT armed from that heartbeat,
 * as after any heartbeat. Nothing of this is counted (counting starts
 * later).
 */
/*
 * Quorum on: every node sent its first ALIVE when it started; deliver
 * them, so that the node asked to lead hears a majority (not counted).
 */
static void quorum_hear(struct sim *s)
{
	if (!s->p->cfg.quorum)
		return;
	s->no_stop = 1;
	sim_run(s, s->now + s->p->lat_hi);
	s->no_stop = 0;
}

static void settle_variant(struct sim *s, struct node *b)
{
	u32 i;

	start_all(s);
	quorum_hear(s);
	for (i = 0; i < s->n; i++) {
		struct node *nd = &s->nodes[i];

		if (nd->up && nd != b && nd->core.phase == ELEC_BULLY_LEARNING)
			nd->core.phase = ELEC_BULLY_FOLLOWING;
	}
	if (b->core.phase != ELEC_BULLY_LEADING) {
		elec_core_elect(&b->core, s->now);
		sim_node_end(b);
	}
	sim_run(s, ~0ULL);
	settle_heartbeat(s);
}

/*
 * E2 bound of the Invitation algorithm after the last fault (a crash, a
 * return, a split or a heal; no loss, a round trip 2 L below T), from the
 * rules of Documentation/protocol.rst ("The Invitation algorithm"), with
 * W = hb-interval x hb-miss, H = hb-interval, S the search interval, C
 * the coord-timeout:
 * - a member that lost its coordinator (crashed, or on the other side)
 *   forms its own group within W + L of its last heartbeat;
 * - a node that accepted an invitation joins or forms its own group
 *   within C (at least 2 T: invitation.c's wait for READY);
 * - a coordinator drops members that stopped answering (crashed, or on
 *   the other side) after hb-miss searches, hb-miss + 1 periods after
 *   the fault, and its READY ends the search's window: (hb-miss + 1) x S
 *   + T + L;
 * - then the highest coordinator of each component hears a lower one
 *   within H + L and merges it within 2 T + 3 L; a merge that crossed
 *   another (a coordinator merging while invited) costs one more such
 *   round, a prompt the rate limit refused is made up by the next
 *   periodic search (S).
 * Hence W + L + C + (hb-miss + 1) x S + T + S + 3 x (H + 2 T + 3 L).
 *
 * Widened windows (@shift > 0: invitation.c doubles them on a late or
 * lost answer, and only ELEC_INV_WIN_DECAY early windows in a row halve
 * them again) stretch the same steps: the windows are T << @shift, a
 * search period and a member's watch at least two of them, the wait for
 * READY as well.
 */
/*
 * The longest T: the timeout, or with --timeout-auto on coord-timeout,
 * the RTO's ceiling (rtt.c); the bounds below take it.
 */
static u64 t_max(const struct sim_params *p)
{
	return p->cfg.timeout_auto ? elec_config_coord_timeout(&p->cfg) :
	       p->cfg.timeout_ns;
}

static u64 inv_e2_bound(const struct sim_params *p, u8 shift)
{
	u64 coord = p->cfg.coord_timeout_ns ? p->cfg.coord_timeout_ns :
		    p->cfg.timeout_ns * ELECTION_DEF_COORD_TIMEOUT_MULT;
	u64 w = elec_detect_max_ns(&p->cfg), l = p->lat_hi;
	u64 t = t_max(p) << shift;
	u64 srch = p->cfg.search_interval_ns ? p->cfg.search_interval_ns :
		   elec_config_detect_ns(&p->cfg);

	if (coord < 2 * t)
		coord = 2 * t;
	if (shift && w < 2 * t)
		w = 2 * t;
	if (shift && srch < 2 * t)
		srch = 2 * t;

	return w + l + coord + (p->cfg.hb_miss + 2) * srch + t +
	       3 * (p->cfg.hb_interval_ns + 2 * t + 3 * l);
}

/*
 * The widest windows after the last fault, for inv_e2_bound(): a node's
 * widening then, one more for each window (a search's reply window, a
 * merge's accept window) open across it, which may close on answers the
 * fault lost; later windows widen no more within the assumptions (a
 * round trip below T, no loss: answers come in time, and a peer cut off
 * or crashed is not heard, so its missing answer is not counted lost).
 * With timeout-auto T is measured and may fall below a round trip of the
 * tail: the most.
 */
static u8 inv_shift_bound(const struct sim *s)
{
	u32 i, sh, max = 0;

	if (s->p->cfg.timeout_auto)
		return ELEC_INV_WIN_SHIFT_MAX;
	for (i = 0; i < s->n; i++) {
		const struct elec_core *c = &s->nodes[i].core;

		if (!s->nodes[i].up)
			continue;
		sh = c->inv.win_shift +
		     !!c->timer_expires[ELEC_INV_TIMER_REPLY] +
		     !!c->timer_expires[ELEC_INV_TIMER_ACCEPT];
		if (sh > max)
			max = sh;
	}
	return max < ELEC_INV_WIN_SHIFT_MAX ? max : ELEC_INV_WIN_SHIFT_MAX;
}

static void settle(struct sim *s)
{
	struct node *h = sim_best_cand(s);
	u32 i;

	if (!h) {
		/* every live node in standby: they start, and none leads */
		start_all(s);
		sim_run(s, s->now + 2 * elec_detect_max_ns(&s->p->cfg));
		if (s->trace)
			out_trace(s, "settled leader=none (every node in standby)");
		return;
	}
	if (s->ring) {
		for (i = 0; i < s->n; i++) {
			struct node *nd = &s->nodes[i];

			if (!nd->up)
				continue;
			elec_core_start(&nd->core, s->now);
			elec_ring_accept(&nd->core, h->id, 1, s->now);
			/*
			 * As if term 1's COORDINATOR had gone round: a
			 * settled ring counts every node, so no follower
			 * greets a round later.
			 */
			nd->core.ring.counted_term = 1;
			sim_node_end(nd);
		}
		/*
		 * Until the leader's first heartbeat has arrived: the
		 * followers then watch it with the steady detection window
		 * (the first one after an announcement is a round longer).
		 */
		settle_heartbeat(s);
		if (s->trace)
			out_trace(s, "settled leader=%u", h->id);
		return;
	}
	if (s->inv) {
		/*
		 * Every node starts alone and searches; the groups merge.
		 * Then one more heartbeat, so members watch a live one.
		 */
		start_all(s);
		/* bounded: timing outside the assumptions may never settle */
		sim_run(s, s->now + 10 * inv_e2_bound(s->p, 0));
		settle_heartbeat(s);
		if (s->trace)
			out_trace(s, "settled leader=%u", h->id);
		return;
	}
	if (s->p->ops->algo != ELEC_ALGO_BULLY) {
		settle_variant(s, h);
		if (s->trace)
			out_trace(s, "settled leader=%u", h->id);
		return;
	}
	for (i = 0; i < s->n; i++) {
		struct node *nd = &s->nodes[i];

		if (!nd->up)
			continue;
		elec_core_start(&nd->core, s->now);
		if (nd != h)
			nd->core.phase = ELEC_BULLY_FOLLOWING;
	}
	quorum_hear(s);
	elec_core_elect(&h->core, s->now);
	for (i = 0; i < s->n; i++)
		if (s->nodes[i].up)
			sim_node_end(&s->nodes[i]);
	sim_run(s, ~0ULL);
	if (s->trace)
		out_trace(s, "settled leader=%u", h->id);
}

/*
 * E2 bound of the ring algorithms after the last fault (crash-stop nodes,
 * no loss, acknowledged hops, 2 x latency below the ack timeout T), with
 * detect = hb-interval x hb-miss and round = ring.c's round timeout,
 * coord-timeout + 2 x N x T:
 * - detection: a follower declares a crashed leader failed within detect
 *   + hb-interval (its last heartbeat left at most hb-interval, plus a
 *   latency, before the crash), or within detect + round when the leader
 *   crashed before its first heartbeat (the first window after an
 *   announcement is a round longer);
 * - a run the crash broke (its message was at the crashed node) is
 *   abandoned by its participants within a round (the round timer is
 *   re-armed by every message of the run), or at once by the node whose
 *   ack timeout finds the message's owner dead;
 * - the run that follows passes a message at most 3N hops (Chang and
 *   Roberts: 2N - 1 ELECTION and N COORDINATOR hops), each within a
 *   round trip, plus one ack timeout per dead node found: within a round.
 * Hence detect + hb-interval + 3 x round. Measured over --check's
 * schedules (N = 2..30), the last decision came within half of it.
 */
static u64 ring_e2_bound(const struct sim_params *p)
{
	u64 coord = p->cfg.coord_timeout_ns ? p->cfg.coord_timeout_ns :
		    p->cfg.timeout_ns * ELECTION_DEF_COORD_TIMEOUT_MULT;
	u64 round = coord + 2 * (u64)p->n * t_max(p);

	return elec_detect_max_ns(&p->cfg) + p->cfg.hb_interval_ns +
	       3 * round;
}

static void make_passive(struct sim *s, struct node *except)
{
	u32 i;

	for (i = 0; i < s->n; i++)
		s->nodes[i].passive = &s->nodes[i] != except;
}

/*
 * E2 bound of min-bully and enh-bully after the last fault, from the
 * rules of Documentation/protocol.rst ("The Bully variants"), under the
 * simulator's assumptions (crash-stop nodes that come back only after
 * their crash was noticed, no loss, no partition, a round trip 2 L below
 * T, heartbeats that cannot look missed), with W = hb-interval x hb-miss
 * the detection window, H = hb-interval, L the largest latency, D the
 * preempt-delay and, per variant, stages = 1 (min-bully: one wait for the
 * lower ids) or 2 (enh-bully: the candidates, then the higher ordinary
 * ids):
 * - a run lasts at most R = (stages + 1) x T + L: the probe of the
 *   silent leader (T), each stage's wait (T; a stage that hears every
 *   asked node ends sooner), the COORDINATOR's delivery; no receiver of
 *   an ELECTION begins a run of its own, so runs do not cascade (the
 *   second minimum's claim is immediate);
 * - a run under way at the last fault ends within R and may name a node
 *   that crashed after it responded; its followers accept it within L
 *   and detect it within W, and their run ends within R. Any other
 *   follower of a crashed leader heard it last at most L after the crash
 *   and detects it within W of that; a node that returns listens for W
 *   (its QUERY answered within 2 L, the leader's heartbeats within
 *   H + L), then runs: both within L + W + R;
 * - a better node that the last run did not name (its answer came after
 *   the electioneer stopped waiting, or it returned) takes over after
 *   D: min-bully claims (L), enh-bully runs without a probe
 *   (stages x T + L);
 * - a stale claim (an old term) is told and re-made within 3 L; a
 *   preemption the receive rate limit refused is asked again at the
 *   worse leader's next heartbeat (H; --check's schedules stay within
 *   its burst of 8).
 * Hence W + H + 2 R + D + the takeover + 5 L. Measured over --check's
 * schedules (N = 2..20, 2,000 seeds, default timing): the last decision
 * came within 0.70 (min-bully) and 0.58 (enh-bully) of it.
 */
static u64 variant_e2_bound(const struct sim_params *p)
{
	u64 stages = p->ops->algo == ELEC_ALGO_ENH_BULLY ? 2 : 1;
	u64 t = t_max(p), l = p->lat_hi;
	u64 run = (stages + 1) * t + l;
	u64 takeover = p->ops->algo == ELEC_ALGO_ENH_BULLY ?
		       stages * t + l : l;

	return elec_detect_max_ns(&p->cfg) + p->cfg.hb_interval_ns +
	       2 * run + p->cfg.preempt_delay_ns + takeover + 5 * l;
}

/* generous E2 bound after the last fault, implied by the timeouts */
/*
 * Quorum on, what the last fault may add: a leader that lost namings
 * across it steps down a lease and T later (T: the wait for renewals in
 * flight after the lapse); a node that waits for a majority looks again
 * a detection window after its last look; a follower bound to an earlier
 * leader names the new one a promise window later; the confirmation and
 * a release take two round trips.
 */
static u64 quorum_e2_extra(const struct sim_params *p)
{
	u64 t = p->cfg.timeout_ns, lease;

	if (!p->cfg.quorum)
		return 0;
	lease = p->cfg.hb_interval_ns * (p->cfg.hb_miss - 1) - t;
	return lease + t + elec_detect_max_ns(&p->cfg) + lease + t / 2 +
	       4 * p->lat_hi;
}

static u64 e2_bound(const struct sim_params *p, u8 inv_shift)
{
	u64 coord = p->cfg.coord_timeout_ns ? p->cfg.coord_timeout_ns :
		    p->cfg.timeout_ns * ELECTION_DEF_COORD_TIMEOUT_MULT;
	u64 round = t_max(p) + coord + 4 * p->lat_hi;

	if (elec_algo_is_ring(p->ops->algo))
		return ring_e2_bound(p);
	if (p->ops->algo == ELEC_ALGO_INVITATION)
		return inv_e2_bound(p, inv_shift);
	if (p->ops->algo != ELEC_ALGO_BULLY)
		return variant_e2_bound(p) + quorum_e2_extra(p);
	return elec_detect_max_ns(&p->cfg) + 2 * p->cfg.hb_interval_ns +
	       (u64)(p->n + 2) * round + p->cfg.preempt_delay_ns +
	       quorum_e2_extra(p);
}

/*
 * The E2 deadline: the last fault plus the bound. The Invitation
 * algorithm's bound takes the windows' widening at the last fault, so
 * the run goes on to it first (faults are pending until then: the
 * quiescence judgement, and so the run, is the same as in one go).
 */
static u64 e2_deadline(struct sim *s, u64 last_fault)
{
	u8 shift = 0;

	if (s->inv) {
		if (last_fault > s->now) {
			s->no_stop = 1;
			sim_run(s, last_fault);
			s->no_stop = 0;
		}
		shift = inv_shift_bound(s);
	}
	return last_fault + e2_bound(s->p, shift);
}

/*
 * How long after its crash a node may come back within the assumptions
 * (the others had time to notice the crash): a detection window, the
 * leader's last heartbeat period and a run's timeouts (T and the
 * coord-timeout). The rings' first window after an announcement is a
 * round timeout longer (ring_e2_bound()): a leader that crashes fresh
 * is noticed only after detect + round, so a ring node returns after
 * that, a heartbeat period and T.
 */
u64 scenario_return_gap(const struct sim_params *p)
{
	u64 coord = p->cfg.coord_timeout_ns ? p->cfg.coord_timeout_ns :
		    p->cfg.timeout_ns * ELECTION_DEF_COORD_TIMEOUT_MULT;
	u64 gap = elec_detect_max_ns(&p->cfg) + p->cfg.hb_interval_ns +
		  t_max(p) + coord;

	if (elec_algo_is_ring(p->ops->algo))
		gap = elec_detect_max_ns(&p->cfg) + p->cfg.hb_interval_ns +
		      t_max(p) + coord +
		      2 * (u64)p->n * t_max(p);
	return gap;
}

static void random_schedule(struct sim *s, struct run_result *r)
{
	const struct sim_params *p = s->p;
	u64 detect = elec_config_detect_ns(&p->cfg);
	/* recover only after the others had time to notice the crash */
	u64 rec_gap = scenario_return_gap(p);
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
			/*
			 * crash the best planned-up node (the leader): the
			 * highest id, the lowest for min-bully
			 */
			int low = p->ops->lowest_wins;
			u32 k = 0;

			do
				x = s->by_id[low ? k : s->n - 1 - k];
			while ((!up[x] || sim_node_standby(&s->nodes[x])) &&
			       ++k < s->n);
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
	if (p->partitions && s->n > 1 &&
	    p->ops->algo == ELEC_ALGO_INVITATION) {
		/*
		 * Invitation: one to three splits (a split while split
		 * re-splits), each healed after T .. 4 W, the last one
		 * left standing half of the time.
		 */
		u32 cycles = 1 + (u32)rng_range(&s->srng, 0, 2), c;
		u64 a = s->now + rng_range(&s->srng, 0, t - s->now + detect);

		for (c = 0; c < cycles; c++) {
			sim_push(s, a, EV_SPLIT, 0, 0, 0, rng_next(&s->srng));
			if (a > r->last_fault_ns)
				r->last_fault_ns = a;
			a += rng_range(&s->srng, p->cfg.timeout_ns, 4 * detect);
			if (c + 1 < cycles || rng_range(&s->srng, 0, 1)) {
				sim_push(s, a, EV_HEAL, 0, 0, 0, 0);
				if (a > r->last_fault_ns)
					r->last_fault_ns = a;
			}
			a += rng_range(&s->srng, 0, 2 * detect);
		}
	} else if (p->partitions && s->n > 1) {
		/* a split somewhere in the schedule, healed later */
		u64 a = s->now + rng_range(&s->srng, 0, t - s->now + detect);
		u64 b = a + rng_range(&s->srng, p->cfg.timeout_ns, 4 * detect);

		sim_push(s, a, EV_SPLIT, 0, 0, 0, rng_next(&s->srng));
		sim_push(s, b, EV_HEAL, 0, 0, 0, 0);
		if (b > r->last_fault_ns)
			r->last_fault_ns = b;
	}
	free(up);
	free(down_at);
}

/*
 * the best planned-up node index not in standby (the leader to crash), or
 * n if none
 */
static u32 plan_best_up(const struct sim *s, const u8 *up)
{
	int low = s->p->ops->lowest_wins;
	u32 k;

	for (k = 0; k < s->n; k++) {
		u32 x = s->by_id[low ? k : s->n - 1 - k];

		if (up[x] && !sim_node_standby(&s->nodes[x]))
			return x;
	}
	return s->n;
}

/*
 * --standby-faults: before the run settles, each node is in admin standby
 * with probability 1/4 (all of them, now and then: then none may lead).
 */
static void standby_draw(struct sim *s)
{
	u32 i;

	for (i = 0; i < s->n; i++) {
		struct node *nd = &s->nodes[i];
		struct elec_config cfg = nd->core.cfg;

		if (rng_range(&s->srng, 0, 3))
			continue;
		cfg.standby = 1;
		if (elec_core_set_config(&nd->core, &cfg, NULL)) {
			fprintf(stderr, "electsim: standby refused\n");
			exit(3);
		}
	}
}

/*
 * --standby-faults: one or two changes of tracked standby among the
 * faults: the leader (the best node not in standby) going into standby,
 * or any node, and half of the time out of it again later.
 */
static void standby_schedule(struct sim *s, struct run_result *r)
{
	u64 detect = elec_config_detect_ns(&s->p->cfg);
	u32 n = 1 + (u32)rng_range(&s->srng, 0, 1), f;
	u64 t = s->now;

	for (f = 0; f < n; f++) {
		struct node *b = sim_best_cand(s);
		u32 x = b && rng_range(&s->srng, 0, 1) ? b->idx :
			(u32)rng_range(&s->srng, 0, s->n - 1);

		t += rng_range(&s->srng, 0, 2 * detect);
		sim_push(s, t, EV_STANDBY, 1, x, 0, 0);
		if (rng_range(&s->srng, 0, 1)) {
			t += rng_range(&s->srng, 0, 2 * detect);
			sim_push(s, t, EV_STANDBY, 0, x, 0, 0);
		}
		if (t > r->last_fault_ns)
			r->last_fault_ns = t;
	}
}

/* a split with a side drawn from the scenario's random numbers */
static void plan_split(struct sim *s, struct run_result *r, u64 at)
{
	sim_push(s, at, EV_SPLIT, 0, 0, 0, rng_next(&s->srng));
	if (at > r->last_fault_ns)
		r->last_fault_ns = at;
}

static void plan_heal(struct sim *s, struct run_result *r, u64 at)
{
	sim_push(s, at, EV_HEAL, 0, 0, 0, 0);
	if (at > r->last_fault_ns)
		r->last_fault_ns = at;
}

/*
 * The election window after a detection: a run's timeouts (T and the
 * coord-timeout) and a few frames' flight. A fault timed inside it
 * strikes an election under way.
 */
static u64 plan_election_ns(const struct sim_params *p)
{
	u64 coord = p->cfg.coord_timeout_ns ? p->cfg.coord_timeout_ns :
		    p->cfg.timeout_ns * ELECTION_DEF_COORD_TIMEOUT_MULT;

	return p->cfg.timeout_ns + coord + 4 * p->lat_hi;
}

/*
 * --generator focused: faults timed where the protocols decide. The
 * leader is lost (a crash, or with --partitions a split that may cut it
 * off, up to three times) at a random phase of its heartbeat; the heal,
 * a second crash and the return come inside the election that follows
 * the detection (detect .. detect + a heartbeat + the election window),
 * a return no sooner than the others may notice the crash (unless
 * --fast-recover).
 */
static void focused_schedule(struct sim *s, struct run_result *r)
{
	const struct sim_params *p = s->p;
	u64 w = elec_config_detect_ns(&p->cfg), h = p->cfg.hb_interval_ns;
	u64 e = plan_election_ns(p), gap = scenario_return_gap(p);
	u64 t = s->now + rng_range(&s->srng, 0, h);
	u32 cycles = 1 + (u32)rng_range(&s->srng, 0, 2), c, x;
	u8 *up = malloc(s->n);
	u32 live = s->n;

	if (!up) {
		fprintf(stderr, "electsim: out of memory\n");
		exit(3);
	}
	memset(up, 1, s->n);
	for (c = 0; c < cycles; c++) {
		/* inside the election after the loss is detected */
		u64 in = t + w + rng_range(&s->srng, 0, h + e);
		int split = p->partitions && s->n > 1 &&
			    rng_range(&s->srng, 0, 1);

		if (split) {
			plan_split(s, r, t);
			plan_heal(s, r, in);
		} else if ((x = plan_best_up(s, up)) < s->n && live > 1) {
			u64 back = t + (p->fast_recover ? w : gap) +
				   rng_range(&s->srng, 0, h + e);

			up[x] = 0;
			live--;
			sim_push(s, t, EV_CRASH, 0, x, 0, 0);
			/* a second node fails inside the election */
			if (live > 1 && rng_range(&s->srng, 0, 1)) {
				u32 y = (u32)rng_range(&s->srng, 0, s->n - 1);

				if (up[y]) {
					up[y] = 0;
					live--;
					sim_push(s, in, EV_CRASH, 0, y, 0, 0);
					if (in > r->last_fault_ns)
						r->last_fault_ns = in;
				}
			}
			/* the leader returns (most of the time) */
			if (rng_range(&s->srng, 0, 3)) {
				up[x] = 1;
				live++;
				sim_push(s, back, EV_RECOVER, 0, x, 0, 0);
				if (back > r->last_fault_ns)
					r->last_fault_ns = back;
				in = back;
			}
			if (t > r->last_fault_ns)
				r->last_fault_ns = t;
		}
		/* the next loss: inside or just after this election */
		t = in + rng_range(&s->srng, 0, h + e);
	}
	free(up);
}

/*
 * --generator harsh: up to six crashes and returns of any node, the
 * leader first, with returns as soon as the assumptions allow, and (with
 * --partitions, any algorithm) one to three splits with heals anywhere
 * from T to two detection windows later; the last split heals.
 */
static void harsh_schedule(struct sim *s, struct run_result *r)
{
	const struct sim_params *p = s->p;
	u64 w = elec_config_detect_ns(&p->cfg);
	u64 gap = p->fast_recover ? p->cfg.hb_interval_ns : scenario_return_gap(p);
	u64 *down_at = calloc(s->n, sizeof(*down_at));
	u8 *up = malloc(s->n);
	u32 nf = 1 + (u32)rng_range(&s->srng, 0, 5), f, x, live = s->n;
	u64 t = s->now, end;

	if (!up || !down_at) {
		fprintf(stderr, "electsim: out of memory\n");
		exit(3);
	}
	memset(up, 1, s->n);
	for (f = 0; f < nf; f++) {
		t += rng_range(&s->srng, 0, w);
		x = !f || rng_range(&s->srng, 0, 1) ? plan_best_up(s, up) :
		    (u32)rng_range(&s->srng, 0, s->n - 1);
		if (x >= s->n)
			continue;
		if (up[x]) {
			if (live <= 1)
				continue;
			up[x] = 0;
			live--;
			down_at[x] = t;
			sim_push(s, t, EV_CRASH, 0, x, 0, 0);
		} else {
			if (t < down_at[x] + gap)
				t = down_at[x] + gap +
				    rng_range(&s->srng, 0, p->cfg.timeout_ns);
			up[x] = 1;
			live++;
			sim_push(s, t, EV_RECOVER, 0, x, 0, 0);
		}
		if (t > r->last_fault_ns)
			r->last_fault_ns = t;
	}
	end = t;
	if (p->partitions && s->n > 1) {
		u32 cycles = 1 + (u32)rng_range(&s->srng, 0, 2), c;
		u64 a = s->now + rng_range(&s->srng, 0, end - s->now + w);

		for (c = 0; c < cycles; c++) {
			plan_split(s, r, a);
			a += rng_range(&s->srng, p->cfg.timeout_ns, 2 * w);
			plan_heal(s, r, a);
			a += rng_range(&s->srng, 0, w);
		}
	}
	free(up);
	free(down_at);
}

const char *const generator_names[GEN_COUNT] = {
	[GEN_RANDOM] = "random",
	[GEN_FOCUSED] = "focused",
	[GEN_HARSH] = "harsh",
};

int scenario_run(const struct sim_params *p0, struct run_result *r)
{
	struct sim_params p = *p0;
	struct run_result tmp;
	struct sim s;
	struct node *init = NULL, *crashed = NULL;
	u64 bound, last_fault, wall0 = 0, wall1 = 0;
	u32 i;

	if (p.scenario == SC_RANDOM && !p.lat_set) {
		p.lat_lo = 50000;
		p.lat_hi = 1000000;
	}
	if (p.timing)
		wall0 = sim_wall_ns();
	if (sim_init(&s, &p)) {
		fprintf(stderr, "electsim: cannot set up %u nodes\n", p.n);
		sim_free(&s);
		return -1;
	}
	if (p.timing)
		wall1 = sim_wall_ns();
	memset(&tmp, 0, sizeof(tmp));
	if (!p.initiator_all)
		init = sim_node_by_id(&s, p.initiator);
	for (i = 0; i < p.n_absent; i++)
		set_down(&s, sim_node_by_id(&s, p.absent[i]));

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
		/* the leader: the best live node not in standby */
		crashed = sim_best_cand(&s) ?: sim_best(&s, 1);
		sim_crash(&s, crashed);
		break;
	case SC_JOIN:
		/*
		 * The initiator was down from the start; the others settled
		 * on their best. It starts now (a joining process: learning
		 * window, QUERY), counted from its start.
		 */
		set_down(&s, init);
		settle(&s);
		sim_start_counting(&s);
		if (s.trace)
			out_trace(&s, "trigger join %u", init->id);
		sim_recover(&s, init);
		break;
	case SC_HEAL:
		/*
		 * The lower half of the ids and the upper half start apart
		 * and settle into a group each; then, within a detection
		 * window, the partition heals; counted from the heal.
		 */
		net_split_halves(&s);
		settle(&s);
		/* the heal comes at a moment drawn from the seed */
		s.no_stop = 1;
		last_fault = s.now + rng_range(&s.srng, 0, p.cfg.hb_interval_ns *
					       p.cfg.hb_miss);
		sim_run(&s, last_fault);
		s.now = last_fault;	/* no event is due before it */
		s.no_stop = 0;
		sim_start_counting(&s);
		if (s.trace)
			out_trace(&s, "trigger heal");
		net_heal(&s);
		s.dirty = 1;
		break;
	case SC_RANDOM:
		if (p.standby_faults && !p.schedule)
			standby_draw(&s);
		settle(&s);
		sim_start_counting(&s);
		if (s.trace)
			out_trace(&s, "trigger random");
		if (p.schedule)
			sched_push(&s, p.schedule, &tmp.last_fault_ns);
		else if (p.generator == GEN_FOCUSED)
			focused_schedule(&s, &tmp);
		else if (p.generator == GEN_HARSH)
			harsh_schedule(&s, &tmp);
		else
			random_schedule(&s, &tmp);
		if (p.standby_faults && !p.schedule)
			standby_schedule(&s, &tmp);
		break;
	case SC_SOAK:
		/*
		 * No fault: the settled group runs for the duration (the
		 * latency spread may make live leaders look failed);
		 * leader_changes and elections say whether it stays put.
		 */
		settle(&s);
		sim_start_counting(&s);
		if (s.trace)
			out_trace(&s, "trigger soak");
		s.no_stop = 1;
		sim_run(&s, s.now + (p.duration_ns ? p.duration_ns :
				     10000000000ULL));
		s.no_stop = 0;
		break;
	}
	last_fault = tmp.last_fault_ns > s.now ? tmp.last_fault_ns : s.now;
	bound = e2_deadline(&s, last_fault);
	sim_run(&s, bound);
	if (p.scenario == SC_RECOVER) {
		last_fault = s.now + p.cfg.hb_interval_ns;
		sim_push(&s, last_fault, EV_RECOVER, 0, crashed->idx, 0, 0);
		bound = e2_deadline(&s, last_fault);
		sim_run(&s, bound);
	}
	sim_result(&s, r);
	if (s.trace)
		out_trace(&s, "result %s leader=%u agreed=%d", r->stable ?
			  "quiescent" : "not quiescent", r->leader, r->agreed);
	if (p.observe && r->stable) {
		/*
		 * Quiescence is claimed: watch a window as long as detection
		 * plus a full election; nothing but heartbeats may happen.
		 */
		struct run_result after;
		u64 coord = elec_config_coord_timeout(&s.nodes[0].core.cfg);

		s.no_stop = 1;
		sim_run(&s, s.now + elec_detect_max_ns(&p.cfg) +
			    2 * p.cfg.hb_interval_ns + t_max(&p) + coord);
		if (s.inv) {
			/*
			 * The window may end with a search's answers in
			 * flight: let them arrive (any other traffic
			 * shows in the messages).
			 */
			s.no_stop = 0;
			s.dirty = 1;
			sim_run(&s, s.now + 2 * p.lat_hi + t_max(&p));
		}
		sim_result(&s, &after);
		if (!after.stable || after.leader != r->leader ||
		    after.messages != r->messages)
			r->changed_after = 1;
		r->dual_ns = after.dual_ns;
		r->dual_max_ns = after.dual_max_ns;
		r->terms = after.terms;
	}
	r->bound_ns = bound;
	r->last_fault_ns = last_fault;
	if (p.timing) {
		/*
		 * wall clock: setting up the nodes and their peer tables,
		 * reaching the settled state (not counted), and the run from
		 * the trigger on (what the counts are of, its events)
		 */
		u64 end = sim_wall_ns();

		fprintf(stderr,
			"timing: setup=%.6fs settle=%.6fs run=%.6fs events=%llu\n",
			(wall1 - wall0) / 1e9, (s.wall_counting - wall1) / 1e9,
			(end - s.wall_counting) / 1e9,
			(unsigned long long)r->events);
	}
	if (s.trace)
		for (i = 0; i < s.n; i++)
			out_trace(&s, "%u state up=%u role=%u leader=%u term=%llu",
				  s.nodes[i].id, s.nodes[i].up,
				  s.nodes[i].core.role, s.nodes[i].core.leader,
				  (unsigned long long)s.nodes[i].core.term);
	if (s.trace)
		out_trace(&s, "end %s leader=%u agreed=%d",
			  r->stable ? "quiescent" : "bound-reached", r->leader,
			  r->agreed);
	sim_free(&s);
	return 0;
}
