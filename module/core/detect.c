// SPDX-License-Identifier: GPL-2.0
/*
 * The failure detector, one service for every algorithm (detect.h): the
 * leader's heartbeats, the arrivals of the leader's frames, the window
 * a follower watches it for, and the deferral of a late expiry.
 */
#include "detect.h"

static u64 elec_fixed_window_ns(const struct elec_core *c)
{
	return elec_config_detect_ns(&c->cfg);
}

/* hb-interval x hb-miss, whatever the arrivals did */
const struct elec_detector elec_detector_fixed = {
	.name		= "fixed",
	.window_ns	= elec_fixed_window_ns,
};

/* the instance's detector: the fixed one until another is configurable */
static const struct elec_detector *elec_detector_of(const struct elec_core *c)
{
	(void)c;
	return &elec_detector_fixed;
}

/**
 * elec_detect_ns() - the detection window of an instance now.
 * @c: the instance
 *
 * Return: how long its leader may be silent before it is suspected: the
 * detector's window (the fixed one: elec_config_detect_ns()).
 */
u64 elec_detect_ns(const struct elec_core *c)
{
	return elec_detector_of(c)->window_ns(c);
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
	const struct elec_detector *det = elec_detector_of(c);

	c->leader_rx_ns = now;
	if (det->heard)
		det->heard(c, now);
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
