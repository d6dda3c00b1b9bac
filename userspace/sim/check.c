// SPDX-License-Identifier: GPL-2.0
/*
 * --check: K random fault schedules per N (ring algorithms: every other
 * one on an arrangement of the ids drawn from its seed), checking
 *   E1 (safety): once quiescent, every live node's elected value is the
 *	same and is the best live id (the highest; min-bully: the lowest),
 *	and nothing but heartbeats happens in a window after it;
 *   E2 (liveness): quiescence is reached within the bound the timeouts
 *	imply after the last fault (see e2_bound() in scenario.c).
 * Within the algorithm's assumptions a violation prints the seed and the
 * replay command and exits 1. Outside Bully's assumptions (loss,
 * partitions, a crashed id returning before its crash was detected: the
 * replaced process of Coulouris et al.) the violation rate is reported
 * instead.
 *
 * The ring algorithms' assumptions are ours (Documentation/simulator.rst):
 * crash-stop nodes (a node may come back only after its crash was
 * noticed), no loss, no partition, a round trip (2 x the largest latency)
 * shorter than the ack timeout T, and heartbeats that cannot look missed
 * (hb-interval x hb-miss above hb-interval plus the latency spread).
 * Any of the fault schedule's violations within them fails the check,
 * and so does a ring message dropped for a full ring queue.
 */
#include <stdlib.h>

#include "sim.h"
#include "detect.h"

/*
 * The node ids in ring order: 1..N; for a ring algorithm and an odd seed,
 * an arrangement drawn from the seed (the replay command lists it).
 */
static void check_ids(u32 *ids, u32 n, u64 seed, int ring)
{
	struct rng r;
	u32 i;

	for (i = 0; i < n; i++)
		ids[i] = i + 1;
	if (!ring || !(seed & 1))
		return;
	rng_seed(&r, seed ^ 0x7269e6a11d5ULL);
	for (i = n; i > 1; i--) {
		u32 j = (u32)rng_range(&r, 0, i - 1), t = ids[i - 1];

		ids[i - 1] = ids[j];
		ids[j] = t;
	}
}

/*
 * Why the timing assumptions do not hold, or NULL: a round trip must fit
 * in T (else a live process looks failed to a run; T measured from round
 * trips, --timeout-auto, does not promise that), and the heartbeats'
 * jitter (the frame's and the leader's timer's) must not reach the
 * shortest detection window (else a live leader looks failed to its
 * detector). Every algorithm has them.
 */
static const char *timing_outside(const struct sim_params *p)
{
	u64 lo = p->lat_set ? p->lat_lo : 50000;
	u64 jit = p->jitter_p > 0 ? p->jitter_max_ns : 0;
	u64 hi = (p->lat_set ? p->lat_hi : 1000000) + jit;

	/* frames that queue for a CPU have no latency bound */
	if (p->rx_cost_ns)
		return ", frames queue for a shared CPU (--rx-cost)";
	/* an RTO follows the round trips it saw, not the slowest one */
	if (p->cfg.timeout_auto)
		return ", T from measured round trips (--timeout-auto)";
	if (2 * hi >= p->cfg.timeout_ns)
		return ", round trip not below the timeout";
	/* the leader's heartbeat timer may run late as well as the frame */
	if (elec_detect_min_ns(&p->cfg) <= p->cfg.hb_interval_ns + hi - lo +
	    jit)
		return ", heartbeat jitter reaches the detection window";
	return NULL;
}

/* the command that replays the random run (@n, @seed) of a check */
static void write_replay(FILE *f, const struct sim_params *base, u32 n,
			 u64 seed)
{
	struct sim_params p = *base;
	u32 ids[n ? n : 1];

	check_ids(ids, n, seed, elec_algo_is_ring(base->ops->algo));
	p.n = n;
	p.ids = ids;
	p.scenario = SC_RANDOM;
	p.initiator_all = 1;
	p.seed = seed;
	p.observe = 1;
	p.trace = 1;
	p.json = 0;
	main_print_command(f, &p);
}

static void print_replay(const struct sim_params *base, u32 n, u64 seed)
{
	printf("replay: ");
	write_replay(stdout, base, n, seed);
	printf("\n");
}

/* --check --json: "key": the replay command as a JSON string */
static void json_replay(const char *key, const struct sim_params *base,
			u32 n, u64 seed)
{
	char *buf = NULL, *c;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return;
	write_replay(f, base, n, seed);
	fclose(f);
	printf(",\"%s\":\"", key);
	for (c = buf; c && *c; c++) {
		if (*c == '"' || *c == '\\')
			putchar('\\');
		if ((unsigned char)*c >= 0x20)
			putchar(*c);
	}
	putchar('"');
	free(buf);
}

/* --check --json: what every verdict object begins with */
static void json_head(const struct sim_params *base, u32 n_lo, u32 n_hi,
		      u64 runs, int within)
{
	printf("{\"algo\":\"%s\",\"nodes\":[%u,%u],\"runs\":%llu,"
	       "\"loss\":%g,\"partitions\":%s,\"fast_recover\":%s,"
	       "\"quorum\":%s,\"within_assumptions\":%s",
	       base->ops->name, n_lo, n_hi, (unsigned long long)runs,
	       base->loss, base->partitions ? "true" : "false",
	       base->fast_recover ? "true" : "false",
	       base->cfg.quorum ? "true" : "false", within ? "true" : "false");
	if (base->schedule)
		printf(",\"schedule\":\"%s\"", base->schedule->text);
	if (base->generator)
		printf(",\"generator\":\"%s\"",
		       generator_names[base->generator]);
}

/* --check --json: the worst two-leader run and the slowest quiescence */
static void json_tail(const struct sim_params *base, u64 dual_max,
		      u32 dual_n, u64 dual_seed, u64 q, u64 bound,
		      double ratio, u32 q_n, u64 q_seed)
{
	printf(",\"dual_leader_max_ns\":%llu", (unsigned long long)dual_max);
	if (dual_max) {
		printf(",\"dual_leader_run\":{\"nodes\":%u,\"seed\":%llu",
		       dual_n, (unsigned long long)dual_seed);
		json_replay("replay", base, dual_n, dual_seed);
		putchar('}');
	}
	if (bound)
		printf(",\"quiescence\":{\"after_last_fault_ns\":%llu,"
		       "\"bound_ns\":%llu,\"of_bound\":%.4f,\"nodes\":%u,"
		       "\"seed\":%llu}", (unsigned long long)q,
		       (unsigned long long)bound, ratio, q_n,
		       (unsigned long long)q_seed);
	printf("}\n");
}

/* the largest dual_leader_max_ns of the check, and how to replay it */
static void print_dual(const struct sim_params *base, u64 max, u32 n,
		       u64 seed)
{
	printf("largest dual_leader_max_ns: %llu", (unsigned long long)max);
	if (!max) {
		printf("\n");
		return;
	}
	printf(" (nodes=%u seed=%llu)\n", n, (unsigned long long)seed);
	print_replay(base, n, seed);
}

/*
 * --auth on: the runs in which frames were dropped by the replay rule (a
 * frame overtaken by ELEC_AUTH_REORDER or more later ones of its sender, or
 * outside auth-window: loss, outside the assumptions) and how many of
 * them violated E1 or E2
 */
static void print_lossy(const struct sim_params *base, u64 runs, u64 bad,
			const char *what, u32 n, u64 seed)
{
	printf("auth: %llu runs dropped frames by the replay rule (overtaken "
	       "by %u or more later ones, or outside auth-window; loss: "
	       "outside the assumptions, not judged), %llu of them violated "
	       "E1 or E2\n", (unsigned long long)runs, ELEC_AUTH_REORDER,
	       (unsigned long long)bad);
	if (!bad)
		return;
	printf("first of them: %s: nodes=%u seed=%llu\n", what, n,
	       (unsigned long long)seed);
	print_replay(base, n, seed);
}

/* how close to its E2 bound the slowest run came */
static void print_quiet(u64 q, u64 bound, double ratio, u32 n, u64 seed)
{
	char qd[32], bd[32];

	if (!bound)
		return;
	printf("latest quiescence after the last fault: %s (%llu ns), %.2f "
	       "of its E2 bound %s (nodes=%u seed=%llu)\n",
	       out_dur(qd, sizeof(qd), q), (unsigned long long)q, ratio,
	       out_dur(bd, sizeof(bd), bound), n, (unsigned long long)seed);
}

int check_main(const struct sim_params *base, u32 n_lo, u32 n_hi, u64 seeds)
{
	int ring = elec_algo_is_ring(base->ops->algo);
	const char *timing = timing_outside(base);
	int inv = base->ops->algo == ELEC_ALGO_INVITATION;
	const struct schedule *sc = base->schedule;
	struct sim_params gp = *base;
	u32 fast_id = 0;
	u64 fast_after = 0;
	int splits, fast, within;
	u64 runs = 0, e1 = 0, e2 = 0, k, first_seed = 0;
	u64 e1_wrong = 0, e1_after = 0;
	u64 dual_max = 0, dual_seed = 0;
	u32 n, first_n = 0, dual_n = 0;
	double q_ratio = 0;
	u64 q_max = 0, q_bound = 0, q_seed = 0;
	u32 q_n = 0;
	const char *first_what = NULL;
	char fast_why[128], d1[32], d2[32];
	/* --auth on: runs with replay drops, those that violated, the first */
	u64 lossy = 0, lossy_bad = 0, lossy_seed = 0;
	u32 lossy_n = 0;
	const char *lossy_what = NULL;

	/*
	 * A scripted schedule is judged as the flags would be: its splits as
	 * --partitions, a return sooner after its crash than the random
	 * schedules allow (the rings' gap grows with N: the largest) as
	 * --fast-recover.
	 */
	gp.n = n_hi;
	splits = base->partitions || (sc && sched_splits(sc));
	fast = base->fast_recover ||
	       (sc && sched_fast_return(sc, scenario_return_gap(&gp), &fast_id,
					&fast_after));
	within = base->loss == 0 && (!splits || inv || base->cfg.quorum) && !fast &&
		 !timing;

	for (n = n_lo; n <= n_hi; n++) {
		u32 ids[n];
		struct sim_params p = *base;

		p.n = n;
		p.ids = ids;
		p.scenario = SC_RANDOM;
		p.initiator_all = 1;
		p.json = 0;
		p.trace = 0;
		p.observe = 1;
		for (k = 0; k < seeds; k++) {
			struct run_result r;
			const char *what = NULL;

			p.seed = base->seed + k;
			check_ids(ids, n, p.seed, ring);
			if (scenario_run(&p, &r))
				return 3;
			runs++;
			/* the slowest quiescence of the runs judged */
			if (r.stable && r.bound_ns > r.last_fault_ns &&
			    !(within && base->auth &&
			      (r.auth_replay || r.auth_clock))) {
				/* quiescence after the last fault, of the bound */
				u64 q = r.end_ns - r.last_fault_ns;
				u64 b = r.bound_ns - r.last_fault_ns;

				if (r.end_ns > r.last_fault_ns &&
				    (double)q / b > q_ratio) {
					q_ratio = (double)q / b;
					q_max = q;
					q_bound = b;
					q_seed = p.seed;
					q_n = n;
				}
			}
			if (r.dual_max_ns > dual_max) {
				dual_max = r.dual_max_ns;
				dual_seed = p.seed;
				dual_n = n;
			}
			if (!r.stable && r.agreed) {
				e2++;
				what = "E2 (liveness): not quiescent within the bound";
			} else if (!r.stable) {
				e2++;
				what = "E2 (liveness): live nodes still disagree at the bound";
			} else if (!r.e1_ok) {
				e1++;
				e1_wrong++;
				what = "E1 (safety): live nodes disagree or did not elect the best live id";
			} else if (r.changed_after) {
				e1++;
				e1_after++;
				what = "E1 (safety): traffic or a change after the claimed quiescence";
			} else if (r.queue_full) {
				e1++;
				what = "ring queue full: a ring message was dropped";
			} else if (r.ring_skipped) {
				e1++;
				what = "ring: a live node's live predecessor counts it as failed";
			} else if (r.reused) {
				e1++;
				what = "a group number was formed twice";
			}
			if (!what && base->cfg.quorum && r.dual_max_ns) {
				e1++;
				what = "E1 (safety): two leaders at once with quorum on";
			}
			if (base->auth && (r.auth_replay || r.auth_clock))
				lossy++;
			if (!what)
				continue;
			/*
			 * --auth on: a frame overtaken by ELEC_AUTH_REORDER
			 * or more later ones of the same sender is
			 * dropped as a replay. That is loss, outside the
			 * assumptions: such a run is reported, not failed.
			 */
			if (within && base->auth &&
			    (r.auth_replay || r.auth_clock)) {
				if (!lossy_bad++) {
					lossy_seed = p.seed;
					lossy_n = n;
					lossy_what = what;
				}
				continue;
			}
			if (!within) {
				if (!first_seed) {
					first_seed = p.seed;
					first_n = n;
					first_what = what;
				}
				continue;
			}
			if (base->json) {
				json_head(base, n_lo, n_hi, runs, within);
				printf(",\"held\":false,\"violation\":{"
				       "\"what\":\"%s\",\"nodes\":%u,"
				       "\"seed\":%llu,\"leader\":%u,"
				       "\"best_live\":%u,\"agreed\":%s",
				       what, n, (unsigned long long)p.seed,
				       r.leader, r.best_live,
				       r.agreed ? "true" : "false");
				json_replay("replay", base, n, p.seed);
				printf("}}\n");
				return 1;
			}
			printf("violation: %s: nodes=%u seed=%llu leader=%u "
			       "highest_live=%u best_live=%u agreed=%d\n", what,
			       n, (unsigned long long)p.seed, r.leader,
			       r.highest_live, r.best_live, r.agreed);
			print_replay(base, n, p.seed);
			return 1;
		}
	}
	if (base->json) {
		json_head(base, n_lo, n_hi, runs, within);
		if (within) {
			printf(",\"held\":true");
			if (base->auth) {
				printf(",\"auth_replay_runs\":%llu,"
				       "\"auth_replay_violations\":%llu",
				       (unsigned long long)lossy,
				       (unsigned long long)lossy_bad);
				if (lossy_bad) {
					printf(",\"auth_replay_violation\":{"
					       "\"what\":\"%s\",\"nodes\":%u,"
					       "\"seed\":%llu", lossy_what,
					       lossy_n,
					       (unsigned long long)lossy_seed);
					json_replay("replay", base, lossy_n,
						    lossy_seed);
					putchar('}');
				}
			}
		} else {
			printf(",\"held\":null,\"e1_violated\":%llu,"
			       "\"e1_not_best_or_disagreeing\":%llu,"
			       "\"e1_traffic_after_quiescence\":%llu,"
			       "\"e2_violated\":%llu",
			       (unsigned long long)e1,
			       (unsigned long long)e1_wrong,
			       (unsigned long long)e1_after,
			       (unsigned long long)e2);
			if (first_seed) {
				printf(",\"first_violation\":{\"what\":\"%s\","
				       "\"nodes\":%u,\"seed\":%llu",
				       first_what, first_n,
				       (unsigned long long)first_seed);
				json_replay("replay", base, first_n,
					    first_seed);
				putchar('}');
			}
		}
		json_tail(base, dual_max, dual_n, dual_seed, q_max, q_bound,
			  q_ratio, q_n, q_seed);
		return 0;
	}
	if (within) {
		char judged[64] = "";

		if (base->auth)
			snprintf(judged, sizeof(judged),
				 " (judged: the %llu without replay drops)",
				 (unsigned long long)(runs - lossy));
		printf("check %s%s: nodes %u..%u, %llu runs%s%s: E1 and E2 held%s\n",
		       base->ops->name,
		       base->cfg.suppress_off ? " (suppress off)" : "", n_lo, n_hi,
		       (unsigned long long)runs, judged,
		       splits ? " with partitions" : "",
		       inv ? " per partition side (one group each, every "
		       "live node of the side its member, group numbers "
		       "never formed twice)" : base->cfg.quorum ?
		       " with quorum (never two leaders at once; per "
		       "partition side: a majority's leader, or none)" : "");
		if (base->auth)
			print_lossy(base, lossy, lossy_bad, lossy_what,
				    lossy_n, lossy_seed);
		print_dual(base, dual_max, dual_n, dual_seed);
		print_quiet(q_max, q_bound, q_ratio, q_n, q_seed);
		return 0;
	}
	if (fast_id && !base->fast_recover)
		snprintf(fast_why, sizeof(fast_why),
			 ", fast recovery: %u returns %s after its crash, "
			 "before %s", fast_id,
			 out_dur(d1, sizeof(d1), fast_after),
			 out_dur(d2, sizeof(d2), scenario_return_gap(&gp)));
	printf("check %s%s: nodes %u..%u, %llu runs outside the assumptions "
	       "(loss %g%s%s%s): E1 violated %llu (%.2f%%: %llu not the best "
	       "live id or disagreeing, %llu traffic after quiescence), E2 "
	       "violated %llu (%.2f%%)\n", base->ops->name,
	       base->cfg.suppress_off ? " (suppress off)" : "", n_lo, n_hi,
	       (unsigned long long)runs, base->loss,
	       splits ? ", partitions" : "",
	       fast_id && !base->fast_recover ? fast_why :
	       fast ? ", fast recovery" : "",
	       timing ? timing : "",
	       (unsigned long long)e1,
	       runs ? 100.0 * e1 / runs : 0.0, (unsigned long long)e1_wrong,
	       (unsigned long long)e1_after, (unsigned long long)e2,
	       runs ? 100.0 * e2 / runs : 0.0);
	if (first_seed) {
		printf("first violation: %s: nodes=%u seed=%llu\n",
		       first_what, first_n, (unsigned long long)first_seed);
		print_replay(base, first_n, first_seed);
	}
	print_dual(base, dual_max, dual_n, dual_seed);
	print_quiet(q_max, q_bound, q_ratio, q_n, q_seed);
	return 0;
}
