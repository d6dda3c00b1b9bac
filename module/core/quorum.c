// SPDX-License-Identifier: GPL-2.0
/*
 * Quorum for the three Bully algorithms (cfg.quorum): at most one leader,
 * partitions or not, and none on a side without a majority.
 *
 * Every node but a leader broadcasts ALIVE each hb-interval. It names the
 * leader it follows (and that leader's term) while its detection window
 * began, or it heard from that leader, within elec_quorum_fresh_ns();
 * else nobody, and then again at once when that leader's late heartbeat
 * comes (elec_quorum_heard()). A claimant (a node that announced itself)
 * takes the leader role only once a majority of the
 * configured nodes, itself included, named it since its claim, and keeps
 * it while their namings are at most a lease old; else it steps down.
 *
 * The promise: a node that named a leader names no other for the promise
 * window (the lease and a frame's flight) after its last naming, unless
 * that leader itself said it leads no more (an ALIVE of it naming another,
 * at a term at least the one named). Two leaders at once would need a node
 * named by both within a lease, and the promise forbids it. A node
 * counts itself only under the same rule. The windows fit in the fixed
 * detector's window (hb-interval x hb-miss), so that a crash costs no
 * more time than without quorum (Documentation/protocol.rst, "Quorum");
 * with the adaptive detector, whose window may be shorter, the promise
 * bounds a failover instead.
 */
#include "quorum.h"

/**
 * elec_quorum_payload_ok() - whether an ALIVE payload is well formed.
 * @payload: the payload
 * @len: its length
 *
 * Return: true for ELECTION_ALIVE_LEN bytes whose named id and term are
 * both zero or both not.
 */
bool elec_quorum_payload_ok(const u8 *payload, u16 len)
{
	if (len != ELECTION_ALIVE_LEN)
		return false;
	return !elec_get32(payload) == !elec_get64(payload + 4);
}

/*
 * The need-th most recent of the peers' heard_ns (@support false) or
 * support_ns (true); 0 when fewer than @need peers have one.
 */
static u64 quorum_nth_latest(const struct elec_core *c, bool support,
			     u32 need)
{
	u64 best = 0;
	u32 i, j;

	for (i = 0; i < c->n_peers; i++) {
		const struct elec_peer *p = &c->peers[i];
		u64 t = support ? p->support_ns : p->heard_ns;
		u32 at_least = 0;

		if (!t || t <= best)
			continue;
		for (j = 0; j < c->n_peers; j++) {
			const struct elec_peer *o = &c->peers[j];

			if ((support ? o->support_ns : o->heard_ns) >= t)
				at_least++;
		}
		if (at_least >= need)
			best = t;
	}
	return best;
}

/* peers needed beside the local node for a majority of the configured */
static u32 quorum_need(const struct elec_core *c)
{
	return (c->n_peers + 1) / 2;
}

/**
 * elec_quorum_may_run() - whether a run may begin.
 * @c: the instance
 * @now: current time, ns
 *
 * A node that heard no majority of the group lately (any frame within the
 * lease) begins no run: it could not be confirmed.
 *
 * Return: true with quorum off, or with a majority heard lately.
 */
bool elec_quorum_may_run(const struct elec_core *c, u64 now)
{
	u32 need = quorum_need(c);
	u64 t;

	if (!c->cfg.quorum || !need)
		return true;
	t = quorum_nth_latest(c, false, need);
	return t && t + elec_quorum_lease_ns(c) > now;
}

/* the local node's own promise binds it to another leader until then */
static u64 quorum_bound_until(const struct elec_core *c, u32 k)
{
	const struct elec_quorum *q = &c->bully.q;
	u64 until = q->start_bound;

	if (q->named && q->named != k && q->named != c->cfg.self_id &&
	    q->named_ns + elec_quorum_promise_ns(c) > until)
		until = q->named_ns + elec_quorum_promise_ns(c);
	return until;
}

/*
 * ALIVE, naming the leader the node follows if it heard it lately and its
 * promise allows; a node bound to another leader names nobody and beacons
 * again when the promise ends. A leader at term 0 (a learning node takes
 * any term; no claim has term 0) is named by nobody: ALIVE cannot carry
 * it (elec_quorum_payload_ok()).
 */
static void quorum_beacon(struct elec_core *c, u64 now)
{
	struct elec_quorum *q = &c->bully.q;
	u8 buf[ELECTION_ALIVE_LEN];
	u32 k = c->leader;
	const struct elec_peer *lp = k ? elec_core_peer_find(c, k) : NULL;
	bool following = c->phase == ELEC_BULLY_FOLLOWING && lp && c->term;
	u32 name = 0;
	u64 term = 0;

	/*
	 * Heard: the start of its detection window (leader_rx_ns: its
	 * accepted heartbeat, or the announcement naming it), or any later
	 * frame of it (a heartbeat a third party's newer announcement made
	 * stale is dropped, yet it says the leader is alive).
	 */
	q->stale = following &&
		   now > c->leader_rx_ns + elec_quorum_fresh_ns(c) &&
		   now > lp->heard_ns + elec_quorum_fresh_ns(c);
	if (following && !q->stale) {
		u64 bound = quorum_bound_until(c, k);

		if (bound <= now) {
			name = k;
			term = c->term;
			q->named = k;
			q->named_term = term;
			q->named_ns = now;
		} else if (bound < c->timer_expires[ELEC_QUORUM_TIMER_ALIVE]) {
			elec_core_arm(c, ELEC_QUORUM_TIMER_ALIVE, bound, now);
		}
	}
	elec_put32(buf, name);
	elec_put64(buf + 4, term);
	if (c->max_term > q->release_term)
		q->release_term = c->max_term;
	elec_core_send(c, ELEC_MSG_ALIVE, 0, c->max_term, buf, sizeof(buf),
		       now);
}

/**
 * elec_quorum_named_stale() - whether a third party names the local node
 * leader at a term its own frames may still release.
 * @c: the instance
 * @term: the term the naming carries
 *
 * An ALIVE of the local node that names another (or nobody), with a
 * header term at least the one its followers named it at, releases their
 * promises (quorum_release()). The node put its max_term on every ALIVE,
 * so one sent before this naming, still in flight, may carry @term or a
 * newer one: followers it frees would back another claimant while the
 * node counts their namings. Leading at @term is safe only above every
 * such term; else the node claims anew (a new term above its max_term).
 * Its own claims are: they take max_term + 1, and max_term is at least
 * release_term (elec_quorum_terms_lowered() keeps it so when max_term is
 * given up); a node sends no ALIVE while it leads.
 *
 * Return: true with quorum on when @term is at most the highest term on
 * a releasing frame the node sent (the caller claims anew).
 */
bool elec_quorum_named_stale(const struct elec_core *c, u64 term)
{
	return c->cfg.quorum && term <= c->bully.q.release_term;
}

/**
 * elec_quorum_stop() - the node stops (or crashes, in the simulator).
 * @c: the instance
 *
 * A leader that stops has resigned at its term (elec_core_resign()): that
 * heartbeat releases its followers, so the term counts as released. (Its
 * next start's beacon records a max_term at least as high before any frame
 * is handled; this keeps the rule where it belongs.)
 */
void elec_quorum_stop(struct elec_core *c)
{
	struct elec_quorum *q = &c->bully.q;

	if (c->cfg.quorum && c->leader == c->cfg.self_id &&
	    c->term > q->release_term)
		q->release_term = c->term;
}

/**
 * elec_quorum_start() - a start with quorum on: the first beacon.
 * @c: the instance
 * @now: current time, ns
 *
 * A node that starts (a restart, a reboot: the module loaded anew) may
 * have named a leader just before, and a rebooted one does not remember
 * it: every start binds the node to nobody for a promise window, during
 * which it names nobody (it counts for no claimant, itself included).
 * Then beacons; does nothing with quorum off.
 */
void elec_quorum_start(struct elec_core *c, u64 now)
{
	struct elec_quorum *q = &c->bully.q;
	u32 i;

	q->named = 0;
	q->start_bound = now + elec_quorum_promise_ns(c);
	q->confirmed = false;
	q->stale = false;
	for (i = 0; i < c->n_peers; i++)
		c->peers[i].support_ns = 0;
	if (!c->cfg.quorum)
		return;
	elec_core_arm_in(c, ELEC_QUORUM_TIMER_ALIVE, c->cfg.hb_interval_ns,
			 now);
	quorum_beacon(c, now);
}

/*
 * Until when a majority names the local node (U64_MAX: alone in its
 * group; 0: no majority now). The local node counts itself unless its
 * promise binds it to another leader (*@bound: until when, else 0).
 */
static u64 quorum_until(const struct elec_core *c, u64 now, u64 *bound)
{
	u32 need = quorum_need(c);
	u64 t;

	*bound = quorum_bound_until(c, c->cfg.self_id);
	if (*bound <= now)
		*bound = 0;
	else
		need++;
	if (!need)
		return U64_MAX;
	if (need > c->n_peers)
		return 0;
	t = quorum_nth_latest(c, true, need);
	return t ? t + elec_quorum_lease_ns(c) : 0;
}

/**
 * elec_quorum_self_bound() - until when the local node may not count itself.
 * @c: the instance
 *
 * Return: the end of its start's promise window or of its promise to
 * another leader, whichever is later (a time in the past: it counts).
 */
u64 elec_quorum_self_bound(const struct elec_core *c)
{
	return quorum_bound_until(c, c->cfg.self_id);
}

/**
 * elec_quorum_until() - until when a majority names the local node.
 * @c: the instance (a claimant or leader)
 * @now: current time, ns
 *
 * Return: that time (U64_MAX: alone in its group), or 0 when no majority
 * names it now. The LEASE timer is armed lazily (a newer naming does not
 * move it: its expiry looks again); this is the exact value.
 */
u64 elec_quorum_until(const struct elec_core *c, u64 now)
{
	u64 bound;

	return quorum_until(c, now, &bound);
}

/*
 * A claimant or leader: take the role on a majority, keep it while the
 * majority lasts, step down when it ends (a claimant: when none came
 * within a lease of its claim). LEASE is armed for the next moment that
 * can change the answer.
 *
 * Return: true when the node must step down, or not take over, for want
 * of a majority: the caller (the Bully family, bully.c) then does.
 */
static bool quorum_check(struct elec_core *c, u64 now)
{
	struct elec_quorum *q = &c->bully.q;
	u64 bound, until, next, deadline;
	u32 i, named = 0, need = quorum_need(c);

	/*
	 * A claimant waits for namings a lease after its claim, or until its
	 * own promise ends if that is later (it counts itself then); a
	 * leader whose majority lapsed, for T after the lapse.
	 */
	bound = quorum_bound_until(c, c->cfg.self_id);
	deadline = q->claim_ns + elec_quorum_lease_ns(c);
	if (bound > deadline)
		deadline = bound;
	if (q->lapse_ns && q->lapse_ns + c->cfg.timeout_ns > deadline)
		deadline = q->lapse_ns + c->cfg.timeout_ns;
	if (!q->confirmed && now < deadline) {
		/* a claimant: O(n) per naming until it has enough */
		if (bound > now)
			need++;
		for (i = 0; i < c->n_peers; i++)
			named += !!c->peers[i].support_ns;
		if (named < need) {
			next = deadline;
			if (bound > now && bound < next)
				next = bound;
			elec_core_arm(c, ELEC_QUORUM_TIMER_LEASE, next, now);
			return false;
		}
	}
	until = quorum_until(c, now, &bound);

	if (until > now) {
		if (!q->confirmed) {
			q->confirmed = true;
			q->lapse_ns = 0;
			c->role = ELEC_ROLE_LEADER;
			elec_core_event(c, ELEC_EVENT_LEADER_CHANGED, 0, now);
		}
		next = until;
	} else if (!q->confirmed && now < deadline) {
		next = deadline;
	} else if (q->confirmed) {
		/*
		 * The majority's namings lapsed, renewals perhaps in flight
		 * (a frame takes up to T / 2): give up the role, not the
		 * claim, for T. Nobody was released, so namings that arrive
		 * by then confirm the node again, as they would a claimant;
		 * else it steps down (below, at the next look).
		 */
		q->confirmed = false;
		q->lapse_ns = now;
		c->role = ELEC_ROLE_CANDIDATE;
		elec_core_event(c, ELEC_EVENT_LEADER_CHANGED, 0, now);
		next = now + c->cfg.timeout_ns;
	} else {
		return true;
	}
	/* its own promise ending may complete a majority */
	if (bound && bound < next)
		next = bound;
	if (next == U64_MAX)
		elec_core_cancel(c, ELEC_QUORUM_TIMER_LEASE, now);
	else
		elec_core_arm(c, ELEC_QUORUM_TIMER_LEASE, next, now);
	return false;
}

/**
 * elec_quorum_claim() - the local node announced itself: a claimant.
 * @c: the instance, just made leader (phase LEADING, leader itself)
 * @now: current time, ns
 *
 * With quorum on, the role stays candidate until a majority names it
 * (at once when the node is alone); namings from before the claim do not
 * count. Does nothing with quorum off.
 *
 * Return: true when the claimant has no majority and cannot wait for
 * one: the caller (the Bully family) steps down.
 */
bool elec_quorum_claim(struct elec_core *c, u64 now)
{
	struct elec_quorum *q = &c->bully.q;
	u32 i;

	if (!c->cfg.quorum)
		return false;
	for (i = 0; i < c->n_peers; i++)
		c->peers[i].support_ns = 0;
	q->claim_term = c->term;
	q->claim_ns = now;
	q->lapse_ns = 0;
	q->confirmed = false;
	c->role = ELEC_ROLE_CANDIDATE;
	return quorum_check(c, now);
}

/**
 * elec_quorum_followed() - the node follows a new leader, or none.
 * @c: the instance
 * @now: current time, ns
 *
 * With quorum on, an ALIVE at once: a claimant is confirmed within a
 * round trip, and a leader that stepped down releases its followers'
 * promises without delay.
 */
void elec_quorum_followed(struct elec_core *c, u64 now)
{
	c->bully.q.confirmed = false;
	if (c->cfg.quorum)
		quorum_beacon(c, now);
}

/**
 * elec_quorum_heard() - a follower heard its leader's heartbeat.
 * @c: the instance (phase FOLLOWING)
 * @now: current time, ns
 *
 * With quorum on, a follower whose last ALIVE named nobody only because
 * the leader had been silent too long (a heartbeat more than timeout / 2
 * late: a loaded or stalled host) names it again at once, rather than up
 * to hb-interval later: the leader's lease, which counted on that ALIVE,
 * may end sooner. The naming rules are those of every ALIVE.
 */
void elec_quorum_heard(struct elec_core *c, u64 now)
{
	if (c->cfg.quorum && c->bully.q.stale)
		quorum_beacon(c, now);
}

/**
 * elec_quorum_timer() - one of the quorum's timers (ALIVE, LEASE) expired.
 * @c: the instance
 * @id: ELEC_QUORUM_TIMER_ALIVE or ELEC_QUORUM_TIMER_LEASE (others are
 *	ignored)
 * @now: current time, ns
 *
 * Return: true when the node must step down for want of a majority (the
 * Bully family, its caller, does).
 */
bool elec_quorum_timer(struct elec_core *c, enum elec_timer_id id, u64 now)
{
	if (id == ELEC_QUORUM_TIMER_ALIVE) {
		elec_core_arm_in(c, ELEC_QUORUM_TIMER_ALIVE,
				 c->cfg.hb_interval_ns, now);
		if (c->phase != ELEC_BULLY_LEADING)
			quorum_beacon(c, now);
		return false;
	}
	if (id == ELEC_QUORUM_TIMER_LEASE && c->cfg.quorum &&
	    c->phase == ELEC_BULLY_LEADING && c->leader == c->cfg.self_id)
		return quorum_check(c, now);
	return false;
}

/*
 * @msg's sender leads no more (an ALIVE of it naming another, or its
 * resignation): if the node's promise binds it to the sender, at a term
 * at least the one it named, the promise is released; a claimant may now
 * count itself, a follower names its leader at once. Return: true when
 * a claimant must step down (quorum_check()).
 */
static bool quorum_release(struct elec_core *c, const struct elec_msg *msg,
			   u64 now)
{
	struct elec_quorum *q = &c->bully.q;

	if (!q->named || q->named != msg->src || msg->term < q->named_term)
		return false;
	q->named = 0;
	if (c->phase == ELEC_BULLY_LEADING && c->leader == c->cfg.self_id) {
		if (!q->confirmed)
			return quorum_check(c, now);
	} else if (c->phase == ELEC_BULLY_FOLLOWING && c->leader &&
		   c->leader != msg->src) {
		quorum_beacon(c, now);	/* may name its leader now */
	}
	return false;
}

/**
 * elec_quorum_rx() - an ALIVE passed the receive checks.
 * @c: the instance
 * @msg: the ALIVE (payload checked by elec_quorum_payload_ok())
 * @now: current time, ns
 *
 * The sender's heard_ns, set by the core, counts toward a run's majority.
 * An ALIVE of the leader the node named that names another, at a term at
 * least the one named, releases the promise (that leader leads no more).
 * One that names the local node, leading, at its claim's term or newer
 * counts toward its majority. Ignored with quorum off.
 *
 * Return: true when the node must step down for want of a majority (the
 * Bully family, its caller, does).
 */
bool elec_quorum_rx(struct elec_core *c, const struct elec_msg *msg,
		    u64 now)
{
	struct elec_quorum *q = &c->bully.q;
	struct elec_peer *p = elec_core_peer_find(c, msg->src);
	u32 name = elec_get32(msg->payload);
	u64 term = elec_get64(msg->payload + 4);
	bool leading = c->phase == ELEC_BULLY_LEADING &&
		       c->leader == c->cfg.self_id;

	if (!c->cfg.quorum || !p)
		return false;
	if (name != msg->src && quorum_release(c, msg, now))
		return true;
	if (leading && name == c->cfg.self_id && term >= q->claim_term) {
		p->support_ns = now;
		if (!q->confirmed)
			return quorum_check(c, now);
	}
	return false;
}

/**
 * elec_quorum_left() - a heartbeat flagged LEAVING passed the receive checks.
 * @c: the instance
 * @msg: the heartbeat
 * @now: current time, ns
 *
 * A leader that resigns leads no more: like an ALIVE of it naming another
 * leader, its resignation (at a term at least the one it was named at)
 * releases the promise to it, so that a successor is named at once rather
 * than a promise window later. Ignored with quorum off.
 *
 * Return: true when the node must step down for want of a majority (the
 * Bully family, its caller, does).
 */
bool elec_quorum_left(struct elec_core *c, const struct elec_msg *msg,
		      u64 now)
{
	return c->cfg.quorum && quorum_release(c, msg, now);
}
