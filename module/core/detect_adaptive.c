// SPDX-License-Identifier: GPL-2.0
/*
 * The adaptive failure detector (detector adaptive): the window a
 * follower watches its leader for is estimated from the arrivals of the
 * leader's own heartbeats, not fixed.
 *
 * It is Chen, Toueg and Aguilera's detector: suspect the leader when its
 * next heartbeat has not arrived by its expected arrival plus a safety
 * margin. The expected arrival is the last arrival plus the mean time
 * between arrivals; the margin is detector-margin plus four mean
 * deviations of those times (Bertier, Marin and Sens' use of Jacobson's
 * estimator for the margin, the one TCP's retransmission timer uses):
 *
 *	gap	= arrival - previous arrival
 *	mean	= mean + (gap - mean) / 8		(first: gap)
 *	dev	= dev + (|gap - mean| - dev) / 4	(first: gap / 4)
 *	window	= mean + 4 dev + detector-margin
 *
 * bounded below by ELECTION_DETECTOR_FLOOR_MISS heartbeat intervals (the
 * fixed rule's window at hb-miss 2) and above by detector-max. A quiet
 * network's arrivals come every hb-interval and deviate little: the
 * window falls to the floor and a crash is detected sooner than by the
 * fixed hb-miss x hb-interval. A network or a guest whose heartbeats
 * come late now and then widens the window by four times its deviation
 * and narrows it again as the arrivals steady, where a fixed window
 * suspects a leader at every late burst. A gap longer than detector-max
 * is no sample, nor is the time from a leader's last arrival to the next
 * after the node followed another (elec_core_set_leader() starts a new
 * leader's arrivals afresh).
 *
 * Integer arithmetic only (it runs in softirq context in the kernel): the
 * estimates are ns, the divisions shifts. Until the first gap of a leader
 * is measured the window is the fixed rule's.
 */
#include "detect.h"

/* a + b, saturating */
static u64 elec_sat_add(u64 a, u64 b)
{
	return a + b < a ? U64_MAX : a + b;
}

static u64 elec_adaptive_window_ns(const struct elec_config *cfg,
				   const struct elec_peer_est *leader)
{
	u64 floor = cfg->hb_interval_ns * ELECTION_DETECTOR_FLOOR_MISS;
	u64 ceil = elec_config_detector_max(cfg);
	u64 w;

	if (!leader || !leader->gap_ns)
		return elec_config_detect_ns(cfg);
	w = elec_sat_add(leader->gap_ns, elec_config_detector_margin(cfg));
	w = elec_sat_add(w, leader->gap_dev_ns > U64_MAX / 4 ?
			    U64_MAX : 4 * leader->gap_dev_ns);
	if (w < floor)
		w = floor;
	return w > ceil ? ceil : w;
}

static void elec_adaptive_heard(const struct elec_config *cfg,
				struct elec_peer_est *leader, u64 now)
{
	u64 gap, err;

	if (leader->hb_rx_ns && now > leader->hb_rx_ns) {
		gap = now - leader->hb_rx_ns;
		if (gap > elec_config_detector_max(cfg)) {
			/* away, or followed after another: no sample */
		} else if (!leader->gap_ns) {
			leader->gap_ns = gap;
			leader->gap_dev_ns = gap / 4;
		} else {
			err = gap > leader->gap_ns ? gap - leader->gap_ns :
			      leader->gap_ns - gap;
			leader->gap_dev_ns = elec_ewma(leader->gap_dev_ns, err, 2);
			leader->gap_ns = elec_ewma(leader->gap_ns, gap, 3) ?: 1;
		}
	}
	leader->hb_rx_ns = now;
}

/* the floor, or the fixed window before the first gap if shorter */
static u64 elec_adaptive_min_ns(const struct elec_config *cfg)
{
	u64 floor = cfg->hb_interval_ns * ELECTION_DETECTOR_FLOOR_MISS;
	u64 fixed = elec_config_detect_ns(cfg);

	return fixed < floor ? fixed : floor;
}

/* detector-max, or the fixed window before the first gap if longer */
static u64 elec_adaptive_max_ns(const struct elec_config *cfg)
{
	u64 ceil = elec_config_detector_max(cfg);
	u64 fixed = elec_config_detect_ns(cfg);

	return fixed > ceil ? fixed : ceil;
}

/* expected arrival + safety margin, from the leader's recent arrivals */
const struct elec_detector elec_detector_adaptive = {
	.name		= "adaptive",
	.window_ns	= elec_adaptive_window_ns,
	.heard		= elec_adaptive_heard,
	.min_ns		= elec_adaptive_min_ns,
	.max_ns		= elec_adaptive_max_ns,
};
