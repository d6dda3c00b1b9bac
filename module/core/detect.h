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
 * The window is the detector's (struct elec_detector), chosen by the
 * detector option: the fixed one is hb-interval x hb-miss
 * (elec_config_detect_ns(), options.c: a function of the configuration);
 * the adaptive one (detect_adaptive.c) estimates the leader's next
 * heartbeat from its recent arrivals. Quorum's lease,
 * promise and freshness stay fixed functions of the configured timing
 * (quorum.h): leader and followers must agree on those durations.
 */
#ifndef _ELEC_DETECT_H
#define _ELEC_DETECT_H

#include "core.h"

/**
 * struct elec_detector - a failure detector: how long a leader may be
 *	silent before a follower suspects it.
 * @name: as the detector option spells it (enum elec_detector_kind)
 * @window_ns: the window for @leader (the estimates of the peer the node
 *	follows; NULL when it follows none, or keeps no estimates), from the
 *	leader's last frame
 * @heard: optional: a frame of @leader's own arrived at @now (an
 *	estimator of the arrivals keeps its history in @leader)
 * @min_ns: the shortest window it may give under @cfg
 * @max_ns: the longest (what bounds the time to detect a crash)
 *
 * A detector is a file with such a table and a row of
 * enum elec_detector_kind; detect.c's elec_detectors[] lists them: no
 * algorithm changes.
 */
struct elec_detector {
	const char *name;
	u64 (*window_ns)(const struct elec_config *cfg,
			 const struct elec_peer_est *leader);
	void (*heard)(const struct elec_config *cfg, struct elec_peer_est *leader,
		      u64 now);
	u64 (*min_ns)(const struct elec_config *cfg);
	u64 (*max_ns)(const struct elec_config *cfg);
};

extern const struct elec_detector elec_detector_fixed;
extern const struct elec_detector elec_detector_adaptive;

u64 elec_detect_ns(const struct elec_core *c);
u64 elec_detect_peer_ns(const struct elec_config *cfg,
			const struct elec_peer_est *e);
u64 elec_detect_min_ns(const struct elec_config *cfg);
u64 elec_detect_max_ns(const struct elec_config *cfg);
void elec_detect_suspect(struct elec_core *c);
void elec_core_lead(struct elec_core *c, u64 term, bool send, u64 now);
void elec_core_heard(struct elec_core *c, u64 now);
void elec_core_watch(struct elec_core *c, u64 from, u64 extra, u64 now);
bool elec_detect_defer(struct elec_core *c, u64 expires, u64 now);

#endif /* _ELEC_DETECT_H */
