// SPDX-License-Identifier: GPL-2.0
/*
 * --check: K random fault schedules per N, checking
 *   E1 (safety): once quiescent, every live node's elected value is the
 *	same and is the highest live id;
 *   E2 (liveness): quiescence is reached within the bound the timeouts
 *	imply after the last fault (see e2_bound() in scenario.c).
 * Within the algorithm's assumptions a violation prints the seed and the
 * replay command and exits 1. Outside Bully's assumptions (loss,
 * partitions, a crashed id returning before its crash was detected: the
 * replaced process of Coulouris et al.) the violation rate is reported
 * instead.
 */
#include "sim.h"

int check_main(const struct sim_params *base, u32 n_lo, u32 n_hi, u64 seeds)
{
	int within = base->loss == 0 && !base->partitions &&
		     !base->fast_recover;
	u64 runs = 0, e1 = 0, e2 = 0, k, first_seed = 0;
	u32 n, i, first_n = 0;
	const char *first_what = NULL;

	for (n = n_lo; n <= n_hi; n++) {
		u32 ids[n];
		struct sim_params p = *base;

		for (i = 0; i < n; i++)
			ids[i] = i + 1;
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
			if (scenario_run(&p, &r))
				return 3;
			runs++;
			if (!r.stable && r.agreed) {
				e2++;
				what = "E2 (liveness): not quiescent within the bound";
			} else if (!r.stable) {
				e2++;
				what = "E2 (liveness): live nodes still disagree at the bound";
			} else if (!r.e1_ok || r.changed_after) {
				e1++;
				what = "E1 (safety): live nodes disagree or did not elect the highest live id";
			}
			if (!what)
				continue;
			if (!within) {
				if (!first_seed) {
					first_seed = p.seed;
					first_n = n;
					first_what = what;
				}
				continue;
			}
			printf("violation: %s: nodes=%u seed=%llu leader=%u "
			       "highest_live=%u agreed=%d\nreplay: ", what, n,
			       (unsigned long long)p.seed, r.leader,
			       r.highest_live, r.agreed);
			p.trace = 1;
			main_print_command(stdout, &p);
			printf("\n");
			return 1;
		}
	}
	if (within) {
		printf("check %s: nodes %u..%u, %llu runs: E1 and E2 held\n",
		       base->ops->name, n_lo, n_hi, (unsigned long long)runs);
		return 0;
	}
	printf("check %s: nodes %u..%u, %llu runs outside the assumptions "
	       "(loss %g%s%s): E1 violated %llu (%.2f%%), E2 violated %llu "
	       "(%.2f%%)\n", base->ops->name, n_lo, n_hi,
	       (unsigned long long)runs, base->loss,
	       base->partitions ? ", partitions" : "",
	       base->fast_recover ? ", fast recovery" : "",
	       (unsigned long long)e1,
	       runs ? 100.0 * e1 / runs : 0.0, (unsigned long long)e2,
	       runs ? 100.0 * e2 / runs : 0.0);
	if (first_seed) {
		struct sim_params p = *base;
		u32 ids[first_n];

		for (i = 0; i < first_n; i++)
			ids[i] = i + 1;
		p.n = first_n;
		p.ids = ids;
		p.scenario = SC_RANDOM;
		p.initiator_all = 1;
		p.seed = first_seed;
		p.observe = 1;
		p.trace = 1;
		p.json = 0;
		printf("first violation: %s: nodes=%u seed=%llu\nreplay: ",
		       first_what, first_n, (unsigned long long)first_seed);
		main_print_command(stdout, &p);
		printf("\n");
	}
	return 0;
}
