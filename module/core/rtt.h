/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Round trips (rtt.c): each peer's smoothed round-trip time, measured
 * from the request and reply pairs the algorithms already exchange
 * (&elec_algo_ops.rtt_asks, &elec_algo_ops.rtt_replies), and T from it
 * when the instance has timeout-auto on.
 */
#ifndef _ELEC_RTT_H
#define _ELEC_RTT_H

#include "core.h"

void elec_rtt_sent(struct elec_core *c, u8 type, u32 dst, u64 now);
void elec_rtt_replied(struct elec_core *c, struct elec_peer *p, u8 type,
		      u64 now);
void elec_rtt_sample(struct elec_core *c, struct elec_peer *peer, u64 r);
u64 elec_rtt_rto_ns(const struct elec_config *cfg,
		    const struct elec_peer_est *p);
u64 elec_rtt_ceiling_ns(const struct elec_config *cfg);
u64 elec_rtt_timeout_ns(const struct elec_core *c, const struct elec_peer *p);

#endif /* _ELEC_RTT_H */
