// SPDX-License-Identifier: GPL-2.0
/*
 * The failure detector, one service for every algorithm (detect.h): the
 * leader's heartbeats, the arrivals of the leader's frames, the window
 * a follower watches it for, and the deferral of a late expiry.
 */
#include "detect.h"

static u64 elec_fixed_window_ns(const struct elec_config *cfg,
				const struct elec_peer_est *leader)
{
	(void)leader;
	return elec_config_detect_ns(cfg);
}

/* hb-interval x hb-miss, whatever the arrivals did */
const struct elec_detector elec_detector_fixed = {
	.name		= "fixed",
	.window_ns	= elec_fixed_window_ns,
	.min_ns		= elec_config_detect_ns,
	.max_ns		= elec_config_detect_ns,
};

/* the detectors, by enum elec_detector_kind */
static const struct elec_detector *const elec_detectors[] = {
	[ELECTION_DETECTOR_FIXED]	= &elec_detector_fixed,
	[ELECTION_DETECTOR_ADAPTIVE]	= &elec_detector_adaptive,
};

static_assert(ARRAY_SIZE(elec_detectors) == ELECTION_DETECTOR_MAX + 1,
	      "every detector kind has a detector");

/* a configuration's detector (elec_config_check() bounds the value) */
static const struct elec_detector *
elec_detector_of(const struct elec_config *cfg)
{
	if (cfg->detector > ELECTION_DETECTOR_MAX)
		return &elec_detector_fixed;
	return elec_detectors[cfg->detector];
}

/* the estimates of the peer the node follows, NULL when none (or it leads) */
static struct elec_peer_est *elec_detect_leader(const struct elec_core *c)
{
	if (!c->est || !c->leader || c->leader == c->cfg.self_id)
		return NULL;
	return elec_core_est(c, elec_core_peer_find((struct elec_core *)c,
						    c->leader));
}

/**
 * elec_detect_ns() - the detection window of an instance now.
 * @c: the instance
 *
 * Return: how long its leader may be silent before it is suspected: the
 * detector's window for the leader the node follows (elec_detect_peer_ns()),
 * or without one (a learning window, a leader's own periods) for none.
 */
u64 elec_detect_ns(const struct elec_core *c)
{
	return elec_detector_of(&c->cfg)->window_ns(&c->cfg,
						     elec_detect_leader(c));
}

/**
 * elec_detect_peer_ns() - the window a peer would be watched for.
 * @cfg: the instance's configuration
 * @e: the peer's estimates (elec_core_est()), NULL for none
 *
 * What "show" reports per peer (detect_window_ns): the window the
 * configured detector gives the peer as the node's leader, from its last
 * heartbeat.
 *
 * Return: the window, ns.
 */
u64 elec_detect_peer_ns(const struct elec_config *cfg,
			const struct elec_peer_est *e)
{
	return elec_detector_of(cfg)->window_ns(cfg, e);
}

/**
 * elec_detect_min_ns() - the shortest window a configuration's detector
 *	gives.
 * @cfg: the configuration
 *
 * Return: it, ns: a leader's heartbeats whose jitter stays below it
 * minus a heartbeat interval never look missed (electsim's assumptions).
 */
u64 elec_detect_min_ns(const struct elec_config *cfg)
{
	return elec_detector_of(cfg)->min_ns(cfg);
}

/**
 * elec_detect_max_ns() - the longest window a configuration's detector
 *	gives.
 * @cfg: the configuration
 *
 * Return: it, ns: a crashed leader is suspected this long after its last
 * heartbeat arrived, at the latest (electsim's liveness bounds).
 */
u64 elec_detect_max_ns(const struct elec_config *cfg)
{
	return elec_detector_of(cfg)->max_ns(cfg);
}

/**
 * elec_detect_suspect() - the algorithm suspects the leader it follows.
 * @c: the instance
 *
 * Called by an algorithm's &elec_algo_ops.silent when the detector's
 * expiry makes it declare the leader failed (not for a learning window,
 * nor where the silence proves nothing). Counts a suspicion
 * (stats.suspicions) when the node follows a leader other than itself,
 * and remembers the suspect and its term: the
 * suspicion was a mistake (stats.false_suspicions) if that leader is
 * heard again at that term or is the next leader the node accepts
 * (elec_core_suspect_heard(), elec_core_set_leader()).
 */
void elec_detect_suspect(struct elec_core *c)
{
	if (!c->leader || c->leader == c->cfg.self_id)
		return;
	c->stats.suspicions++;
	c->suspect = c->leader;
	c->suspect_term = c->term;
}

/**
 * elec_core_lead() - the leader's heartbeat: send one, arm the next.
 * @c: the instance, leading
 * @term: the term the heartbeat carries
 * @send: false to only arm the next (an algorithm that sends no heartbeat
 *	while it has nobody to send it to)
 * @now: current time, ns
 *
 * Broadcasts a HEARTBEAT at @term and arms ELEC_TIMER_HEARTBEAT one
 * hb-interval later.
 */
void elec_core_lead(struct elec_core *c, u64 term, bool send, u64 now)
{
	if (send)
		elec_core_send(c, ELEC_MSG_HEARTBEAT, 0, term, NULL, 0, now);
	elec_core_arm_in(c, ELEC_TIMER_HEARTBEAT, c->cfg.hb_interval_ns, now);
}

/**
 * elec_core_heard() - a frame of the followed leader's own arrived.
 * @c: the instance, following
 * @now: current time, ns
 *
 * A heartbeat (or an equivalent frame: the Invitation coordinator's
 * ARE_YOU_COORD and READY) of the leader the node follows: records it
 * (@c->leader_rx_ns, and the detector's history of arrivals); the caller
 * then watches the leader anew (elec_core_watch()) unless it takes over.
 * A leader just accepted, or a third node naming it, is no arrival: the
 * caller only sets where the window starts (@c->leader_rx_ns).
 */
void elec_core_heard(struct elec_core *c, u64 now)
{
	const struct elec_detector *det = elec_detector_of(&c->cfg);
	struct elec_peer_est *p = elec_detect_leader(c);

	c->leader_rx_ns = now;
	if (p && det->heard)
		det->heard(&c->cfg, p, now);
	elec_core_suspect_heard(c, c->leader, c->term);
}

/**
 * elec_core_watch() - watch the leader (or the group) for a window.
 * @c: the instance
 * @from: when the window starts: the leader's last frame of its own, or
 *	@now for a learning window or a leader just accepted
 * @extra: ns the window is longer this time (a first window while an
 *	announcement travels, a wider window on a slow network)
 * @now: current time, ns
 *
 * Arms ELEC_TIMER_DETECT at @from + elec_detect_ns() + @extra, at @now at
 * the earliest; its expiry goes to the algorithm's
 * &elec_algo_ops.silent.
 */
void elec_core_watch(struct elec_core *c, u64 from, u64 extra, u64 now)
{
	u64 window = elec_detect_ns(c) + extra;
	u64 expires = from + window;

	/* saturate, as elec_core_arm_in() does */
	if (window < extra || expires < from)
		expires = U64_MAX;
	elec_core_arm(c, ELEC_TIMER_DETECT, expires > now ? expires : now, now);
}

/**
 * elec_detect_defer() - a late expiry of the detector: watch once more.
 * @c: the instance
 * @expires: when ELEC_TIMER_DETECT was armed to expire
 * @now: current time, ns
 *
 * The timer ran at least a heartbeat interval late: the local node, not
 * the leader, was held up (a host that stopped the guest's CPU, a CPU
 * busy with something else), and the leader's heartbeats may be waiting
 * unread behind this very expiry: the frames that the expiries run
 * before it sent are received in a softirq that the timer worker, busy
 * with the backlog, may hold off until it is done. Silence the node did
 * not listen to is no evidence of a failure, so it watches one more
 * window (elec_detect_ns(), whatever window the algorithm had armed)
 * first, once per arming: a second late expiry in a row is taken as it
 * comes. The same holds for the learning windows that the algorithms
 * time with this timer. Counted in stats.detect_deferred. On time, or
 * under a heartbeat interval late, the expiry is the algorithm's at once.
 *
 * Return: whether the expiry was deferred.
 */
bool elec_detect_defer(struct elec_core *c, u64 expires, u64 now)
{
	if (c->detect_deferred || now - expires < c->cfg.hb_interval_ns)
		return false;
	elec_core_arm_in(c, ELEC_TIMER_DETECT, elec_detect_ns(c), now);
	c->detect_deferred = true;
	c->stats.detect_deferred++;
	return true;
}
