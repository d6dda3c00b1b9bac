/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The failure detector (detect.c): one service for every algorithm.
 *
 * A leader sends heartbeats (elec_core_lead()); a follower records each
 * frame of its leader's own (elec_core_heard()) and watches it for the
 * detection window (elec_core_watch()); an expiry of ELEC_TIMER_DETECT
 * that comes late is deferred once (elec_detect_defer()), else the
 * algorithm's &elec_algo_ops.silent reacts. An algorithm keeps only that
 * reaction: which leader it suspects and what run it begins.
 *
 * The window is the detector's (struct elec_detector): the fixed one is
 * hb-interval x hb-miss (elec_config_detect_ns(), options.c: a function
 * of the configuration). Quorum's lease,
 * promise and freshness stay fixed functions of the configured timing
 * (quorum.h): leader and followers must agree on those durations.
 */
#ifndef _ELEC_DETECT_H
#define _ELEC_DETECT_H

#include "core.h"

/**
 * struct elec_detector - a failure detector: how long a leader may be
 *	silent before a follower suspects it.
 * @name: as documentation and traces spell it ("fixed")
 * @window_ns: the window of @c now, from the leader's last frame
 * @heard: optional: a frame of the leader's own arrived at @now (an
 *	estimator of the arrivals keeps its history here)
 *
 * A second detector (one that estimates arrivals from their history) is
 * a new file with a table like elec_detector_fixed, which detect.c's
 * elec_detector_of() returns for the instances configured to use it: no
 * algorithm changes.
 */
struct elec_detector {
	const char *name;
	u64 (*window_ns)(const struct elec_core *c);
	void (*heard)(struct elec_core *c, u64 now);
};

extern const struct elec_detector elec_detector_fixed;

u64 elec_detect_ns(const struct elec_core *c);
void elec_core_lead(struct elec_core *c, u64 term, bool send, u64 now);
void elec_core_heard(struct elec_core *c, u64 now);
void elec_core_watch(struct elec_core *c, u64 from, u64 extra, u64 now);
bool elec_detect_defer(struct elec_core *c, u64 expires, u64 now);

#endif /* _ELEC_DETECT_H */
