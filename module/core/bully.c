// SPDX-License-Identifier: GPL-2.0
/*
 * Garcia-Molina's Bully algorithm as a sans-IO state machine.
 *
 * From the texts (Coulouris et al.; Gupta; the lecture notes): ELECTION to
 * every higher id, ANSWER in reply, COORDINATOR from the winner to every
 * lower id (one frame each); the timeout T for answers, a second timeout
 * for the COORDINATOR after an answer, then a new run; a process that
 * receives ELECTION answers it and begins an election unless it is in one.
 *
 * Our additions (Documentation/protocol.rst gives the case behind each):
 * - The coordinator's periodic heartbeat is the failure detector:
 *   hb_miss intervals of silence make the leader the run's suspect.
 * - Terms. The winner announces max_term + 1; a COORDINATOR or HEARTBEAT
 *   is accepted only if (term, sender) is at least (term, leader)
 *   lexicographically, so a stale leader is refused and of two
 *   announcements in one term the higher id wins.
 * - A run asks every higher id, whatever earlier runs concluded about it;
 *   the suspect is asked too unless ask-suspect is off. A node in a run
 *   has no leader.
 * - A leader asked by a lower id answers and re-announces to it at its
 *   term (a new term only if the asker has seen a newer one). A follower
 *   that heard its leader within the detection window answers but begins
 *   no run (trust by time, unlike the texts' "unless it has already done
 *   so").
 * - A node that drops a stale announcement tells its sender: an ELECTION
 *   carrying the newer term to a better id, which re-announces at once;
 *   the leader sends its COORDINATOR to a worse one.
 * - Preemption control: with preempt off a better id that (re)joins
 *   follows the leader it finds; with a preempt-delay it follows it that
 *   long before taking over.
 * - A leader that stops on purpose resigns (elec_core_resign()); its
 *   followers elect at once without asking it.
 *
 * Timers per phase: LEARNING and FOLLOWING arm DETECT (FOLLOWING also
 * PREEMPT while a preempt-delay runs), WAIT_ANSWER arms ANSWER,
 * WAIT_COORD arms COORD, LEADING arms HEARTBEAT; no other timer is armed
 * in that phase. Peers are always walked in ascending id order.
 */
#include "bully.h"
#include "rtt.h"

static const struct elec_bully_algo *bully_algo(const struct elec_core *c)
{
	return (const struct elec_bully_algo *)((const char *)c->ops -
		offsetof(struct elec_bully_algo, ops));
}

static bool elec_bully_leader_heard(struct elec_core *c, u64 now);
static bool elec_bully_resigned(const struct elec_core *c,
				const struct elec_msg *msg);
static u64 elec_bully_answer_ns(const struct elec_core *c);

/* the local node takes over from a worse leader */
static void bully_take_over(struct elec_core *c, u64 now)
{
	const struct elec_bully_algo *ba = bully_algo(c);

	if (ba->take_over)
		ba->take_over(c, now);
	else
		ba->begin(c, 0, ELEC_BULLY_SUSPECT_ASK, now);
}

/* cancel every timer but @id and the quorum's (a no-op for those not armed) */
static void bully_cancel_others(struct elec_core *c, enum elec_timer_id id,
				u64 now)
{
	u32 t;

	for (t = 0; t < ELEC_TIMER_COUNT; t++)
		if (t != (u32)id && t != ELEC_BULLY_TIMER_ALIVE &&
		    t != ELEC_BULLY_TIMER_LEASE)
			elec_core_cancel(c, t, now);
}

/**
 * elec_bully_only_timer() - a phase runs on exactly one timer.
 * @c: the instance
 * @id: the phase's timer (not ELEC_TIMER_DETECT: elec_bully_only_watch())
 * @delay: ns from @now
 * @now: current time, ns
 *
 * Cancels every other timer (a no-op for those not armed), then arms @id
 * @delay from now.
 */
void elec_bully_only_timer(struct elec_core *c, enum elec_timer_id id,
			   u64 delay, u64 now)
{
	bully_cancel_others(c, id, now);
	elec_core_arm_in(c, id, delay, now);
}

/**
 * elec_bully_only_watch() - a phase runs on the failure detector alone.
 * @c: the instance
 * @now: current time, ns
 *
 * Cancels every other timer, then watches for a detection window from
 * now (elec_core_watch()): a learning window, or a wait for a majority.
 */
void elec_bully_only_watch(struct elec_core *c, u64 now)
{
	bully_cancel_others(c, ELEC_TIMER_DETECT, now);
	elec_core_watch(c, now, 0, now);
}

/*
 * Stand aside: the node ends any run (a leader steps down) and follows
 * nobody, says so in an ALIVE at once with quorum on (its followers'
 * promises are released) and watches for a detection window: an
 * announcement within it is followed, else its failure detector calls
 * the algorithm again.
 */
static void elec_bully_stand_aside(struct elec_core *c, u64 now)
{
	elec_bully_run_clear(c);
	c->role = ELEC_ROLE_FOLLOWER;
	c->phase = ELEC_BULLY_FOLLOWING;
	if (c->leader)
		elec_core_set_leader(c, 0, c->term, now);
	elec_core_cancel(c, ELEC_BULLY_TIMER_LEASE, now);
	elec_bully_only_watch(c, now);
	elec_quorum_followed(c, now);
}

/*
 * Step down, or do not take over: no majority. Quorum on: the node
 * stands aside (above) and tries again when its failure detector's window
 * ends (a run begins only once it hears a majority again). Counted in
 * stats.quorum_lost.
 */
static void elec_bully_no_quorum(struct elec_core *c, u64 now)
{
	c->stats.quorum_lost++;
	elec_bully_stand_aside(c, now);
}

/*
 * Whether the local node would take over from @leader: preemption is on,
 * the node is not in standby and is better in the algorithm's order.
 */
static bool elec_bully_preempts(const struct elec_core *c, u32 leader)
{
	return !c->cfg.preempt_off && !elec_core_standby(c) &&
	       elec_algo_better(c->ops, c->cfg.self_id, leader);
}

/**
 * elec_bully_trusts_leader() - whether a follower trusts its leader.
 * @c: the instance
 * @now: current time, ns
 *
 * A follower trusts its leader while it heard it within the detection
 * window: it answers an ELECTION but begins no run. With preemption the
 * leader must be better than the local node (a worse one is bullied, once
 * the preempt-delay, if any, is over).
 *
 * Return: true when the local node follows a leader it heard lately.
 */
bool elec_bully_trusts_leader(const struct elec_core *c, u64 now)
{
	if (c->phase != ELEC_BULLY_FOLLOWING || !c->leader ||
	    c->leader == c->cfg.self_id)
		return false;
	/* a worse leader is trusted only while a preempt-delay runs */
	if (elec_bully_preempts(c, c->leader) &&
	    !c->timer_expires[ELEC_BULLY_TIMER_PREEMPT])
		return false;
	return now < c->leader_rx_ns + elec_detect_ns(c);
}

/**
 * elec_bully_run_clear() - a run ends (or none is under way).
 * @c: the instance
 *
 * Clears every peer's asked flag, the participant flag, the suspect, the
 * probe and the variants' per-run state.
 */
void elec_bully_run_clear(struct elec_core *c)
{
	u32 i;

	for (i = 0; i < c->n_peers; i++)
		c->peers[i].flags &= ~ELEC_BULLY_ASKED;
	c->participant = false;
	c->bully.suspect = 0;
	c->bully.suspect_left = false;
	c->bully.probing = false;
	c->bully.run_best = 0;
	c->bully.run_best_term = 0;
	c->bully.stage = 0;
}

/**
 * elec_bully_peer_removed() - a peer leaves the table (the @peer_removed
 *	op of the Bully algorithms).
 * @c: the instance
 * @peer: the peer, still in the table
 * @now: current time, ns
 *
 * A run in progress forgets it as its best responder (min-bully,
 * enh-bully): the run then ends as if it had not answered, and names no id
 * the group no longer has. Never starts an election (elec_core_peer_del()).
 */
void elec_bully_peer_removed(struct elec_core *c, struct elec_peer *peer,
			     u64 now)
{
	(void)now;
	if (c->running && c->bully.run_best == peer->id) {
		c->bully.run_best = 0;
		c->bully.run_best_term = 0;
	}
}

/**
 * elec_bully_config_changed() - the config_changed op of the Bully
 *	algorithms.
 * @c: the instance
 * @cfg: its new configuration
 *
 * A new timeout resets the wait for answers to it: no adaptation is
 * carried over from the old one.
 */
void elec_bully_config_changed(struct elec_core *c,
			       const struct elec_config *cfg)
{
	if (cfg->timeout_ns == c->cfg.timeout_ns &&
	    cfg->timeout_auto == c->cfg.timeout_auto)
		return;
	c->bully.answer_shift = 0;
	c->bully.answer_fast = 0;
}

/**
 * elec_bully_far_behind() - whether an announcement's term is hopelessly
 * old.
 * @c: the instance
 * @term: the announcement's term
 *
 * An announcement more than ELECTION_TERM_MAX_AHEAD below our term: its
 * group drops all we send as term_too_far and we drop its frames as stale,
 * so neither side could ever tell the other. Such a term can only come
 * from a frame the group never saw (a learning node accepts any term): the
 * caller gives it up and takes the group's.
 *
 * Return: true when @term is that far below max_term.
 */
bool elec_bully_far_behind(const struct elec_core *c, u64 term)
{
	return c->max_term > ELECTION_TERM_MAX_AHEAD &&
	       term < c->max_term - ELECTION_TERM_MAX_AHEAD;
}

/**
 * elec_bully_follow() - follow a leader that passed the term rule.
 * @c: the instance
 * @k: the leader
 * @term: its term
 * @may_run: whether a run triggered by this frame may begin now
 * @now: current time, ns
 *
 * Sets the leader, ends any run, arms DETECT; with preemption and a worse
 * leader, arms the preempt-delay if one is set.
 *
 * Return: true when the local node should take over from @k now (it is
 * better, preemption is on without a delay, @may_run, and the rate limit
 * gave its allowance; a refused node follows for now and the leader's
 * next heartbeat asks again).
 */
bool elec_bully_follow(struct elec_core *c, u32 k, u64 term, bool may_run,
		       u64 now)
{
	return elec_bully_follow_heard(c, k, term, now, may_run, now);
}

/**
 * elec_bully_follow_heard() - elec_bully_follow(), k last heard at @heard.
 * @c: the instance
 * @k: the leader
 * @term: its term
 * @heard: when @k itself was last heard from (@now when the announcement
 *	is its own, or names a new leader); DETECT expires a detection
 *	window after it, at @now at the earliest
 * @may_run: as for elec_bully_follow()
 * @now: current time, ns
 *
 * A COORDINATOR that a third node sends, naming the leader the node had,
 * says nothing about whether that leader is alive: the window keeps
 * running from the leader's own last frame, so no peer can keep a dead
 * leader followed by naming it again.
 *
 * Return: as elec_bully_follow().
 */
bool elec_bully_follow_heard(struct elec_core *c, u32 k, u64 term,
			     u64 heard, bool may_run, u64 now)
{
	bool changed = k != c->leader || c->phase != ELEC_BULLY_FOLLOWING;
	u32 t;

	elec_core_set_leader(c, k, term, now);
	c->leader_rx_ns = heard;	/* where the window starts */
	elec_bully_run_clear(c);
	c->role = ELEC_ROLE_FOLLOWER;
	c->phase = ELEC_BULLY_FOLLOWING;
	for (t = 0; t < ELEC_TIMER_COUNT; t++)
		if (t != ELEC_TIMER_DETECT && t != ELEC_BULLY_TIMER_ALIVE)
			elec_core_cancel(c, t, now);
	elec_core_watch(c, heard, 0, now);
	if (changed)
		elec_quorum_followed(c, now);	/* quorum on: ALIVE now */
	if (!elec_bully_preempts(c, k))
		return false;
	if (c->cfg.preempt_delay_ns) {
		elec_core_arm_in(c, ELEC_BULLY_TIMER_PREEMPT, c->cfg.preempt_delay_ns,
				 now);
		return false;
	}
	return may_run && elec_core_rx_may_elect(c, now);
}

/**
 * elec_bully_run_begin() - a node begins an election run.
 * @c: the instance
 * @suspect: the peer whose silence or resignation started it, 0 = none
 * @how: what the run does with @suspect
 * @now: current time, ns
 *
 * A node in standby begins nothing: it never puts itself forward, and
 * the live nodes not in standby detect what it detected; it follows
 * nobody and waits for their announcement (elec_bully_stand_aside()).
 * With quorum on and no majority heard within the lease, begins nothing:
 * the node waits without a leader (elec_bully_no_quorum()). Else counts
 * the run, ends any earlier one, makes the node a candidate with no leader
 * and reports ELEC_EVENT_ELECTION_STARTED; the caller then asks (or
 * claims).
 *
 * Return: true when the run began.
 */
bool elec_bully_run_begin(struct elec_core *c, u32 suspect,
			  enum elec_bully_suspect how, u64 now)
{
	if (elec_core_standby(c)) {
		/* no run of its own: wait for the others' announcement */
		elec_bully_stand_aside(c, now);
		return false;
	}
	if (!elec_quorum_may_run(c, now)) {
		elec_bully_no_quorum(c, now);
		return false;
	}
	c->stats.elections++;
	elec_bully_run_clear(c);
	c->participant = true;
	c->role = ELEC_ROLE_CANDIDATE;
	c->bully.suspect = suspect;
	c->bully.suspect_left = how == ELEC_BULLY_SUSPECT_LEFT;
	if (c->leader)
		elec_core_set_leader(c, 0, c->term, now);
	elec_core_event(c, ELEC_EVENT_ELECTION_STARTED, 0, now);
	return true;
}

/**
 * elec_bully_lead() - the local node leads at a term.
 * @c: the instance
 * @term: the term (its own claim's, or that of a COORDINATOR naming it)
 * @now: current time, ns
 *
 * Sets itself leader, ends any run and arms the heartbeat; with quorum on
 * the node is a claimant until a majority names it (elec_quorum_claim()).
 * Every worse
 * peer counts as told for a detection window (the announcement went to
 * it): a heartbeat it sent before the announcement arrived is stale and
 * gets no reply. A node that leads already only takes the new term: its
 * heartbeat keeps its pace (a peer naming it again and again must not
 * hold its heartbeats back). A node in standby, named by a run it
 * answered before it went into standby, leads not: it follows nobody
 * (its followers' detectors find it silent and elect without it).
 */
void elec_bully_lead(struct elec_core *c, u64 term, u64 now)
{
	u32 i;

	if (elec_core_standby(c)) {
		elec_bully_stand_aside(c, now);
		return;
	}

	if (c->phase == ELEC_BULLY_LEADING && c->leader == c->cfg.self_id) {
		/* named again at a newer term: take it, keep the heartbeat */
		elec_core_set_leader(c, c->cfg.self_id, term, now);
		return;
	}
	elec_core_set_leader(c, c->cfg.self_id, term, now);
	c->leader_rx_ns = now;
	for (i = 0; i < c->n_peers; i++)
		if (elec_algo_better(c->ops, c->cfg.self_id, c->peers[i].id))
			c->peers[i].told_until = now + elec_detect_ns(c);
	elec_bully_run_clear(c);
	c->role = ELEC_ROLE_LEADER;
	c->phase = ELEC_BULLY_LEADING;
	elec_bully_only_timer(c, ELEC_TIMER_HEARTBEAT, c->cfg.hb_interval_ns,
			      now);
	if (elec_quorum_claim(c, now))
		elec_bully_no_quorum(c, now);
}

/**
 * elec_bully_run_ignores() - whether a run under way ignores an
 * announcement.
 * @c: the instance
 * @k: the leader the announcement names
 * @term: its term
 *
 * A run that preempts a worse leader (the local node is better and
 * preemption is on) ignores that leader's heartbeats and repeated
 * announcements at the term it had: they say nothing new, and following
 * the leader again would restart the run at every heartbeat (never
 * ending when T is longer than hb-interval).
 *
 * Return: true when @k at @term is the worse leader the run preempts.
 */
bool elec_bully_run_ignores(const struct elec_core *c, u32 k, u64 term)
{
	return c->participant && k == c->last_leader && term == c->term &&
	       elec_bully_preempts(c, k);
}

/*
 * A stale self-announcement from @src was dropped: what to tell its
 * sender, which still believes it leads, at most once per detection
 * window: a better one (preempt on) an ELECTION carrying the newer term,
 * so that it claims anew above it, as any one when preempt is off or the
 * node is in standby, and it has no leader; any other, by the leader, its
 * own COORDINATOR.
 * A COORDINATOR naming another node than its sender tells nothing: the
 * sender is no leader.
 */
static enum elec_bully_heard elec_bully_stale(const struct elec_core *c,
					      const struct elec_peer *src,
					      u32 k, u64 now)
{
	if (!src || k != src->id || now < src->told_until)
		return ELEC_BULLY_HEARD_DONE;
	if (!c->cfg.preempt_off &&
	    elec_algo_better(c->ops, k, c->cfg.self_id) &&
	    elec_algo_better(c->ops, k, c->leader))
		return ELEC_BULLY_HEARD_TELL_ELECTION;
	/*
	 * preempt off or standby, no leader: a worse leader claims anew
	 * (bully.c); nobody takes over from it
	 */
	if ((c->cfg.preempt_off || elec_core_standby(c)) && !c->leader &&
	    c->phase != ELEC_BULLY_LEADING)
		return ELEC_BULLY_HEARD_TELL_ELECTION;
	if (c->phase == ELEC_BULLY_LEADING)
		return ELEC_BULLY_HEARD_TELL_COORD;
	return ELEC_BULLY_HEARD_DONE;
}

/**
 * elec_bully_announced() - what the Bully variants do with every
 * announcement before their own rules.
 * @c: the instance
 * @msg: a COORDINATOR, CID or HEARTBEAT that passed the receive checks
 * @k: the coordinator it names (the sender for a HEARTBEAT)
 * @now: current time, ns
 *
 * In order: a resignation (a LEAVING heartbeat of the leader: declared
 * down); the far-behind rule (the group's term taken, as max_term and, when
 * it was higher, as term); the term rule on
 * (term, @k) in the algorithm's order (a stale one is dropped and counted);
 * the sender marked alive; a run that preempts @k ignores it; the
 * leader's own heartbeat or repeated announcement refreshes its trust.
 *
 * Return: what the caller still has to do (enum elec_bully_heard).
 */
enum elec_bully_heard elec_bully_announced(struct elec_core *c,
					   const struct elec_msg *msg, u32 k,
					   u64 now)
{
	struct elec_peer *src = elec_core_peer_find(c, msg->src);

	if (msg->flags & ELECTION_FLAG_LEAVING) {
		if (!elec_bully_resigned(c, msg))
			return ELEC_BULLY_HEARD_DONE;
		elec_core_peer_set_alive(c, src, false, now);
		return ELEC_BULLY_HEARD_LEFT;
	}
	if (elec_bully_far_behind(c, msg->term)) {
		/*
		 * Give our terms up for the group's: the term of the leader
		 * or run too, which the caller may leave as it is when it
		 * only records the announcement (max_term stays >= term).
		 */
		c->max_term = msg->term;
		elec_quorum_terms_lowered(c);
		if (c->term > msg->term)
			c->term = msg->term;
	} else if (msg->term < c->term ||
		   (msg->term == c->term &&
		    elec_algo_better(c->ops, c->leader, k))) {
		elec_core_drop(c, ELEC_DROP_STALE_TERM);
		return elec_bully_stale(c, src, k, now);
	}
	elec_core_peer_set_alive(c, src, true, now);
	if (elec_bully_run_ignores(c, k, msg->term))
		return ELEC_BULLY_HEARD_DONE;
	if (msg->term == c->term && k == c->leader) {
		/* the leader's heartbeat, or a repeated announcement */
		if (msg->src != k || c->phase != ELEC_BULLY_FOLLOWING)
			return ELEC_BULLY_HEARD_DONE;
		return elec_bully_leader_heard(c, now) ?
		       ELEC_BULLY_HEARD_TAKE_OVER : ELEC_BULLY_HEARD_DONE;
	}
	return ELEC_BULLY_HEARD_NEW;
}

/**
 * elec_bully_leader_heard() - a follower heard its leader itself (its
 * heartbeat, or a repeated announcement at the same term).
 * @c: the instance, following
 * @now: current time, ns
 *
 * Refreshes the trust in the leader and re-arms DETECT (with quorum on,
 * names it at once if the last ALIVE could not: elec_quorum_heard()). A
 * worse leader kept after a rate-limit refusal, or since the options
 * changed (preempt on, or a delay set, after the node accepted it): arms
 * the delay if one is set and not armed yet.
 *
 * Return: true when the node should take over now (DETECT is then left
 * to the run).
 */
static bool elec_bully_leader_heard(struct elec_core *c, u64 now)
{
	elec_core_heard(c, now);
	if (elec_bully_preempts(c, c->leader)) {
		if (c->cfg.preempt_delay_ns) {
			if (!c->timer_expires[ELEC_BULLY_TIMER_PREEMPT])
				elec_core_arm_in(c, ELEC_BULLY_TIMER_PREEMPT,
						 c->cfg.preempt_delay_ns, now);
		} else if (elec_core_rx_may_elect(c, now)) {
			return true;
		}
	}
	elec_core_watch(c, now, 0, now);
	elec_quorum_heard(c, now);
	return false;
}

/**
 * elec_bully_resigned() - whether a heartbeat flagged LEAVING is the
 * current leader's resignation.
 * @c: the instance
 * @msg: the heartbeat
 *
 * Return: true when it comes from the leader at its term and the node
 * follows it (or is still learning).
 */
static bool elec_bully_resigned(const struct elec_core *c,
				const struct elec_msg *msg)
{
	return msg->src == c->leader && msg->term == c->term &&
	       (c->phase == ELEC_BULLY_FOLLOWING ||
		c->phase == ELEC_BULLY_LEARNING);
}

/**
 * elec_bully_detect_expired() - DETECT expired: what run to begin.
 * @c: the instance
 * @suspect: set to the leader now declared failed (0: none, the learning
 *	window ended)
 * @now: current time, ns
 *
 * Return: false when the expiry means nothing in this phase, or (quorum
 * on) when no majority was heard within the lease: the node then follows
 * nobody and waits another window; else true,
 * with the leader, if any, declared failed. The run probes @suspect first
 * unless ask-suspect is off (ELEC_BULLY_SUSPECT_PROBE or _SKIP).
 */
static bool elec_bully_detect_expired(struct elec_core *c, u32 *suspect,
				      u64 now)
{
	*suspect = 0;
	if (c->phase != ELEC_BULLY_LEARNING &&
	    c->phase != ELEC_BULLY_FOLLOWING)
		return false;
	if (c->phase == ELEC_BULLY_FOLLOWING && c->leader) {
		*suspect = c->leader;
		elec_core_peer_set_alive(c, elec_core_peer_find(c, *suspect),
					 false, now);
	}
	if (!elec_quorum_may_run(c, now)) {
		/* quorum on, no majority: no run; follow nobody, wait */
		if (c->leader)
			elec_core_set_leader(c, 0, c->term, now);
		c->phase = ELEC_BULLY_FOLLOWING;
		elec_core_watch(c, now, 0, now);
		return false;
	}
	return true;
}

/**
 * elec_bully_asked_down() - the wait ran out: every peer still asked is
 * declared failed and no longer asked.
 * @c: the instance
 * @now: current time, ns
 *
 * Each is flagged ELEC_BULLY_TIMED_OUT (the flags of an earlier wait are
 * cleared): a frame from it soon after shows the wait was too short
 * (elec_bully_heard_from()).
 */
static void elec_bully_asked_down(struct elec_core *c, u64 now)
{
	u32 i;

	c->bully.expired_ns = now;
	for (i = 0; i < c->n_peers; i++) {
		struct elec_peer *p = &c->peers[i];

		p->flags &= ~ELEC_BULLY_TIMED_OUT;
		if (!(p->flags & ELEC_BULLY_ASKED))
			continue;
		p->flags &= ~ELEC_BULLY_ASKED;
		p->flags |= ELEC_BULLY_TIMED_OUT;
		elec_core_peer_set_alive(c, p, false, now);
	}
}

/**
 * elec_bully_reset_waits() - a start: the wait for answers is T again.
 * @c: the instance
 *
 * What the node learned about late answers before it stopped is stale;
 * no peer counts as timed out.
 */
void elec_bully_reset_waits(struct elec_core *c)
{
	u32 i;

	c->bully.answer_shift = 0;
	c->bully.answer_fast = 0;
	for (i = 0; i < c->n_peers; i++)
		c->peers[i].flags &= ~ELEC_BULLY_TIMED_OUT;
}

/**
 * elec_bully_answer_ns() - how long a run waits for answers.
 * @c: the instance
 *
 * Return: T (with timeout-auto, the largest RTO of the peers measured:
 * rtt.c), or up to T << ELEC_BULLY_ANSWER_SHIFT_MAX after late answers.
 */
static u64 elec_bully_answer_ns(const struct elec_core *c)
{
	return elec_rtt_timeout_ns(c, NULL) << c->bully.answer_shift;
}

/**
 * elec_bully_wait_answers() - a run waits for answers: arms
 * ELEC_BULLY_TIMER_ANSWER (alone: elec_bully_only_timer()) for
 * elec_bully_answer_ns(). The peers asked again are no longer timed out.
 * @c: the instance
 * @now: current time, ns
 */
void elec_bully_wait_answers(struct elec_core *c, u64 now)
{
	u32 i;

	/* an answer to this wait is not late, whatever the last one did */
	for (i = 0; i < c->n_peers; i++)
		if (c->peers[i].flags & ELEC_BULLY_ASKED)
			c->peers[i].flags &= ~ELEC_BULLY_TIMED_OUT;
	c->bully.wait_ns = now;
	elec_bully_only_timer(c, ELEC_BULLY_TIMER_ANSWER,
			      elec_bully_answer_ns(c), now);
}

/**
 * elec_bully_answered() - an answer (or a lower node's claim in min-bully)
 * came while the run waits.
 * @c: the instance
 * @now: current time, ns
 *
 * ELEC_BULLY_ANSWER_DECAY of them in a row, each within a quarter of the
 * wait, halve a wait that late answers doubled.
 */
void elec_bully_answered(struct elec_core *c, u64 now)
{
	struct elec_bully *b = &c->bully;

	if (!b->answer_shift ||
	    now - b->wait_ns >= elec_bully_answer_ns(c) / 4) {
		b->answer_fast = 0;
		return;
	}
	if (++b->answer_fast >= ELEC_BULLY_ANSWER_DECAY) {
		b->answer_fast = 0;
		b->answer_shift--;
	}
}

/**
 * elec_bully_heard_from() - a frame passed the receive checks: a late
 * answer?
 * @c: the instance
 * @msg: the frame
 * @now: current time, ns
 *
 * An answer (an ANSWER, or a COORDINATOR or CID addressed to this node:
 * a probed leader's reply) from a peer whose answer timed out
 * (ELEC_BULLY_TIMED_OUT), within a coord-timeout of that, came later
 * than the wait. On a loaded host (a burst of election traffic, frames
 * waiting behind timers) every run would time out the same way and
 * claim, each claim adding traffic: the wait doubles instead, once per
 * wait that ran out, up to T << ELEC_BULLY_ANSWER_SHIFT_MAX. Other frames
 * of the peer (its beacons, its heartbeats after a partition healed)
 * answer nothing and change nothing. Within the assumptions (a round
 * trip below T, no loss) no answer comes late.
 */
static void elec_bully_heard_from(struct elec_core *c,
				  const struct elec_msg *msg, u64 now)
{
	struct elec_peer *p = elec_core_peer_find(c, msg->src);
	struct elec_bully *b = &c->bully;
	u32 i;

	if (!p || !(p->flags & ELEC_BULLY_TIMED_OUT))
		return;
	if (msg->type != ELEC_MSG_ANSWER &&
	    ((msg->type != ELEC_MSG_COORDINATOR &&
	      msg->type != ELEC_MSG_CID) || msg->dst != c->cfg.self_id))
		return;
	p->flags &= ~ELEC_BULLY_TIMED_OUT;
	if (now - b->expired_ns > elec_config_coord_timeout(&c->cfg))
		return;
	b->answer_fast = 0;
	if (b->answer_shift < ELEC_BULLY_ANSWER_SHIFT_MAX)
		b->answer_shift++;
	/* once per wait that ran out, however many answered late */
	for (i = 0; i < c->n_peers; i++)
		c->peers[i].flags &= ~ELEC_BULLY_TIMED_OUT;
}

/**
 * elec_bully_coord_ns() - how long bully waits for COORDINATOR after an
 * answer.
 * @c: the instance
 *
 * Return: the coord-timeout, longer by twice what late answers added to
 * the wait for answers (the answerer's own run waits as long, twice).
 */
static u64 elec_bully_coord_ns(const struct elec_core *c)
{
	u64 t = elec_rtt_timeout_ns(c, NULL);

	/*
	 * timeout-auto: the answerer measured its own T, up to the ceiling
	 * (coord-timeout / 4, the defaults' relation): count it at that
	 */
	if (c->cfg.timeout_auto)
		t = elec_rtt_ceiling_ns(&c->cfg);
	return elec_config_coord_timeout(&c->cfg) +
	       2 * ((t << c->bully.answer_shift) - t);
}

/**
 * elec_bully_heartbeat() - the heartbeat timer expired.
 * @c: the instance
 * @now: current time, ns
 *
 * A leader broadcasts its heartbeat at its term and re-arms the timer; in
 * any other phase nothing happens.
 */
static void elec_bully_heartbeat(struct elec_core *c, u64 now)
{
	if (c->phase == ELEC_BULLY_LEADING)
		elec_core_lead(c, c->term, true, now);
}

/*
 * A COORDINATOR (or a tell) to @p: its stale frames sent before it
 * arrives get no reply for a detection window.
 */
static void bully_send_to(struct elec_core *c, struct elec_peer *p, u8 type,
			  u64 term, u64 now)
{
	p->told_until = now + elec_detect_ns(c);
	elec_core_send(c, type, p->id, term, NULL, 0, now);
}

static void bully_announce(struct elec_core *c, u64 term, u64 now)
{
	u32 self = c->cfg.self_id;
	u32 i;

	for (i = 0; i < c->n_peers && c->peers[i].id < self; i++)
		bully_send_to(c, &c->peers[i], ELEC_MSG_COORDINATOR, term, now);
}

/*
 * Claim at a new term. A leader that re-announces (an asker had seen a
 * newer term) stays what it was: with quorum on, a confirmed leader keeps
 * its role and its namings (they count from its first claim's term on),
 * a claimant its claim.
 */
static void bully_become_leader(struct elec_core *c, u64 now)
{
	bool again = c->phase == ELEC_BULLY_LEADING &&
		     c->leader == c->cfg.self_id;
	enum elec_role role = again ? c->role : ELEC_ROLE_LEADER;
	u64 term = elec_core_term_next(c);

	elec_core_set_leader(c, c->cfg.self_id, term, now);
	c->leader_rx_ns = now;
	bully_announce(c, term, now);
	elec_bully_run_clear(c);
	c->role = role;
	c->phase = ELEC_BULLY_LEADING;
	elec_bully_only_timer(c, ELEC_TIMER_HEARTBEAT, c->cfg.hb_interval_ns, now);
	if (!again && elec_quorum_claim(c, now))
		elec_bully_no_quorum(c, now);
}

/*
 * ELECTION to the peers a run asks, each flagged asked: every higher peer,
 * alive or not in the node's eyes, and @suspect (0: none) unless @skip,
 * even when it is lower (with preempt off a worse leader is followed, and
 * asking it lets a late one keep its role). @which: all of them, only the
 * suspect, or all but the suspect. Return: how many were asked.
 */
enum bully_ask {
	BULLY_ASK_ALL,
	BULLY_ASK_SUSPECT,
	BULLY_ASK_OTHERS,
};

static u32 bully_ask(struct elec_core *c, u32 suspect, bool skip,
		     enum bully_ask which, u64 now)
{
	u32 self = c->cfg.self_id;
	u32 asked = 0;
	u32 i;

	for (i = 0; i < c->n_peers; i++) {
		struct elec_peer *p = &c->peers[i];
		bool ask = p->id > self;

		if (p->id == suspect)
			ask = !skip && (ask || c->cfg.preempt_off) &&
			      which != BULLY_ASK_OTHERS;
		else if (which == BULLY_ASK_SUSPECT)
			ask = false;
		if (!ask)
			continue;
		p->flags |= ELEC_BULLY_ASKED;
		elec_core_send(c, ELEC_MSG_ELECTION, p->id, c->max_term,
			       NULL, 0, now);
		asked++;
	}
	return asked;
}

/*
 * A new election run: the node gives up its leader and asks (above) the
 * higher peers and @suspect (0: none), the peer whose silence or
 * resignation started the run, as @how says. A probe asks the suspect
 * alone: a leader that was only late answers, and the others are not
 * disturbed; T without its answer asks the rest (bully_answer_expired()).
 */
static void bully_begin_election(struct elec_core *c, u32 suspect,
				 enum elec_bully_suspect how, u64 now)
{
	bool skip = how == ELEC_BULLY_SUSPECT_SKIP || how == ELEC_BULLY_SUSPECT_LEFT;
	u32 asked = 0;

	if (!elec_bully_run_begin(c, suspect, how, now))
		return;

	if (how == ELEC_BULLY_SUSPECT_PROBE && suspect) {
		asked = bully_ask(c, suspect, false, BULLY_ASK_SUSPECT, now);
		c->bully.probing = asked != 0;
	}
	if (!asked)
		asked = bully_ask(c, suspect, skip, BULLY_ASK_ALL, now);
	if (!asked) {
		bully_become_leader(c, now);
		return;
	}
	c->phase = ELEC_BULLY_WAIT_ANSWER;
	elec_bully_wait_answers(c, now);
}

static void bully_start(struct elec_core *c, u64 now)
{
	elec_bully_reset_waits(c);
	elec_bully_run_clear(c);
	c->role = ELEC_ROLE_FOLLOWER;
	c->phase = ELEC_BULLY_LEARNING;
	elec_core_watch(c, now, 0, now);
	elec_quorum_start(c, now);
}

/**
 * elec_bully_stop() - the stop op of the three Bully algorithms.
 * @c: the instance
 * @now: current time, ns
 *
 * Ends any run (with quorum on, a leader's term counts as released:
 * elec_quorum_stop()); the core cancels the timers and reports the stop.
 */
void elec_bully_stop(struct elec_core *c, u64 now)
{
	(void)now;
	elec_quorum_stop(c);
	elec_bully_run_clear(c);
}

/**
 * elec_bully_elect() - the elect op of the Bully algorithms: a run now.
 * @c: the instance
 * @now: current time, ns
 */
void elec_bully_elect(struct elec_core *c, u64 now)
{
	if (!elec_core_standby(c))
		bully_algo(c)->begin(c, 0, ELEC_BULLY_SUSPECT_ASK, now);
}

/**
 * elec_bully_standby() - the standby op of the Bully algorithms: the node
 *	entered or left standby (elec_core_standby_sync()).
 * @c: the instance
 * @now: current time, ns
 *
 * Entering: a leader (it resigned already) or a node in a run stands
 * aside: it follows nobody and watches for the successor's announcement;
 * a follower keeps its leader, a learning node its window; a preempt-delay
 * running ends (a node in standby takes over from nobody). Leaving: the
 * node is a candidate again, as a recovered one: it elects when it follows
 * nobody, and takes over from a worse leader as preemption allows (at
 * once, within the rate limit, or after the preempt-delay); a learning
 * node goes on learning.
 */
void elec_bully_standby(struct elec_core *c, u64 now)
{
	if (elec_core_standby(c)) {
		elec_core_cancel(c, ELEC_BULLY_TIMER_PREEMPT, now);
		if (c->phase != ELEC_BULLY_FOLLOWING &&
		    c->phase != ELEC_BULLY_LEARNING)
			elec_bully_stand_aside(c, now);
		return;
	}
	if (c->phase != ELEC_BULLY_FOLLOWING)
		return;
	if (!c->leader)
		bully_algo(c)->begin(c, 0, ELEC_BULLY_SUSPECT_ASK, now);
	else if (elec_bully_follow_heard(c, c->leader, c->term,
					 c->leader_rx_ns, true, now))
		bully_take_over(c, now);
}

/**
 * elec_bully_silent() - the silent op of the Bully algorithms: the leader
 *	has been silent for the detection window, or learning is over (a
 *	QUERY went unanswered).
 * @c: the instance
 * @now: current time, ns
 *
 * The leader, if any, is declared failed and a run begins that probes it
 * first (ask-suspect on) or skips it.
 */
void elec_bully_silent(struct elec_core *c, u64 now)
{
	u32 suspect;

	if (c->phase == ELEC_BULLY_FOLLOWING)
		elec_detect_suspect(c);
	if (elec_bully_detect_expired(c, &suspect, now))
		bully_algo(c)->begin(c, suspect, c->cfg.ask_suspect_off ?
				     ELEC_BULLY_SUSPECT_SKIP :
				     ELEC_BULLY_SUSPECT_PROBE, now);
}

/*
 * T passed without an ANSWER (the peers asked are declared failed
 * already): after the probe of the suspect alone, the other higher ids
 * are asked now; else the node claims.
 */
static void bully_answer_expired(struct elec_core *c, u64 now)
{
	if (c->bully.probing) {
		c->bully.probing = false;
		if (bully_ask(c, c->bully.suspect, false, BULLY_ASK_OTHERS, now)) {
			elec_bully_wait_answers(c, now);
			return;
		}
	}
	bully_become_leader(c, now);
}

/**
 * elec_bully_timer() - the timer op of the Bully algorithms.
 * @c: the instance
 * @id: the timer that expired (not ELEC_TIMER_DETECT: elec_bully_silent())
 * @now: current time, ns
 */
void elec_bully_timer(struct elec_core *c, enum elec_timer_id id, u64 now)
{
	const struct elec_bully_algo *ba = bully_algo(c);

	switch (id) {
	case ELEC_BULLY_TIMER_ALIVE:
	case ELEC_BULLY_TIMER_LEASE:
		if (elec_quorum_timer(c, id, now))
			elec_bully_no_quorum(c, now);
		break;
	case ELEC_BULLY_TIMER_ANSWER:
		if (c->phase != ELEC_BULLY_WAIT_ANSWER)
			break;
		elec_bully_asked_down(c, now);
		ba->answer_expired(c, now);
		break;
	case ELEC_BULLY_TIMER_COORD:
		/*
		 * An answer came but no COORDINATOR (bully): a new run, which
		 * asks the suspect whatever ask-suspect says (the better ids
		 * that answered may all trust it).
		 */
		if (c->phase == ELEC_BULLY_WAIT_COORD)
			ba->begin(c, c->bully.suspect, c->bully.suspect_left ?
				  ELEC_BULLY_SUSPECT_LEFT :
				  ELEC_BULLY_SUSPECT_ASK, now);
		break;
	case ELEC_TIMER_HEARTBEAT:
		elec_bully_heartbeat(c, now);
		break;
	case ELEC_BULLY_TIMER_PREEMPT:
		/* the preempt-delay is over: take over from a worse leader */
		if (c->phase == ELEC_BULLY_FOLLOWING && c->leader &&
		    elec_bully_preempts(c, c->leader))
			bully_take_over(c, now);
		break;
	default:
		break;
	}
}

static void bully_rx_election(struct elec_core *c, const struct elec_msg *msg,
			      u64 now)
{
	/*
	 * A higher id asks a lower one only when it is its suspect and
	 * preemption is off (bully_ask()), or to tell a stale leader of a
	 * newer term (bully_tell_stale(): with preemption on only a node in
	 * standby does); with preemption on any other such frame is
	 * ignored, as in the texts, and earns the sender nothing.
	 */
	if (msg->src > c->cfg.self_id && !c->cfg.preempt_off &&
	    msg->term <= c->term)
		return;
	if (c->phase == ELEC_BULLY_LEADING) {
		struct elec_peer *p = elec_core_peer_find(c, msg->src);

		/*
		 * Asked while leading: answer, and re-announce to the asker
		 * at the current term; only an asker that has seen a newer
		 * term (a node that dropped our stale announcement) makes
		 * the leader announce a new term to everyone, within the
		 * rate limit (it sends a frame per lower peer).
		 */
		elec_core_send(c, ELEC_MSG_ANSWER, msg->src, c->max_term, NULL,
			       0, now);
		if (msg->term > c->term && elec_core_rx_may_elect(c, now)) {
			bully_become_leader(c, now);
			if (msg->src > c->cfg.self_id)
				bully_send_to(c, p, ELEC_MSG_COORDINATOR,
					      c->term, now);
			return;
		}
		bully_send_to(c, p, ELEC_MSG_COORDINATOR, c->term, now);
		return;
	}
	/*
	 * In standby no answer: it would promise a COORDINATOR the node
	 * never sends; the asker goes on as if the node were absent.
	 */
	if (msg->src > c->cfg.self_id || elec_core_standby(c))
		return;
	elec_core_send(c, ELEC_MSG_ANSWER, msg->src, c->max_term, NULL, 0,
		       now);
	if (c->participant || elec_bully_trusts_leader(c, now))
		return;
	/* rate limited: the election sends up to one frame per peer */
	if (elec_core_rx_may_elect(c, now))
		bully_begin_election(c, 0, ELEC_BULLY_SUSPECT_ASK, now);
}

static void bully_rx_answer(struct elec_core *c, const struct elec_msg *msg,
			    u64 now)
{
	struct elec_peer *p = elec_core_peer_find(c, msg->src);

	if (c->phase != ELEC_BULLY_WAIT_ANSWER || !p ||
	    !(p->flags & ELEC_BULLY_ASKED))
		return;
	p->flags &= ~ELEC_BULLY_ASKED;
	elec_bully_answered(c, now);
	c->bully.probing = false;
	c->phase = ELEC_BULLY_WAIT_COORD;
	elec_bully_only_timer(c, ELEC_BULLY_TIMER_COORD, elec_bully_coord_ns(c),
			      now);
}

/* COORDINATOR or HEARTBEAT that passed the acceptance rule, (t, j) above */
static void bully_accept_leader(struct elec_core *c, const struct elec_msg *msg,
				u64 now)
{
	if (elec_bully_follow(c, msg->src, msg->term, true, now))
		bully_begin_election(c, 0, ELEC_BULLY_SUSPECT_ASK, now);
}

/*
 * A stale announcement from @msg's sender was dropped: tell the sender,
 * which still believes it leads (elec_bully_stale() says how). A better
 * id (preemption on) gets an ELECTION carrying the newer term and
 * re-announces at once at a term above it; the leader sends its
 * COORDINATOR to a worse one (or to any, preemption off), which then
 * follows. With preemption off, or in standby, a node that has no leader
 * (in a run, or waiting) tells a worse leader the same way: nobody better
 * takes over from it, and without a new term from it the node would never
 * follow it (a run that went up a term across a partition, its better
 * peers all following that leader, loops for ever; a node in standby
 * that followed a newer term waits for ever). At most one reply per peer
 * per detection window (frames it sent before the reply arrived are stale
 * too), so a flood of stale frames gets a frame per window back.
 */
static void bully_tell_stale(struct elec_core *c, const struct elec_msg *msg,
			     u64 now)
{
	struct elec_peer *p = elec_core_peer_find(c, msg->src);

	switch (elec_bully_stale(c, p, msg->src, now)) {
	case ELEC_BULLY_HEARD_TELL_ELECTION:
		bully_send_to(c, p, ELEC_MSG_ELECTION, c->max_term, now);
		break;
	case ELEC_BULLY_HEARD_TELL_COORD:
		bully_send_to(c, p, ELEC_MSG_COORDINATOR, c->term, now);
		break;
	default:
		break;
	}
}

/* the leader resigned: elect at once, without asking it */
static void bully_rx_leaving(struct elec_core *c, const struct elec_msg *msg,
			     u64 now)
{
	if (!elec_bully_resigned(c, msg))
		return;
	elec_core_peer_set_alive(c, elec_core_peer_find(c, msg->src), false,
				 now);
	bully_begin_election(c, msg->src, ELEC_BULLY_SUSPECT_LEFT, now);
}

static void bully_rx_leader(struct elec_core *c, const struct elec_msg *msg,
			    u64 now)
{
	if (msg->flags & ELECTION_FLAG_LEAVING) {
		bully_rx_leaving(c, msg, now);
		return;
	}
	if (elec_bully_far_behind(c, msg->term)) {
		/* give our term up and take the group's (see there) */
		c->max_term = msg->term;
		elec_quorum_terms_lowered(c);
		elec_core_peer_set_alive(c, elec_core_peer_find(c, msg->src),
					 true, now);
		bully_accept_leader(c, msg, now);
		return;
	}
	if (msg->term < c->term ||
	    (msg->term == c->term && msg->src < c->leader)) {
		elec_core_drop(c, ELEC_DROP_STALE_TERM);
		bully_tell_stale(c, msg, now);
		return;
	}
	elec_core_peer_set_alive(c, elec_core_peer_find(c, msg->src), true,
				 now);
	if (elec_bully_run_ignores(c, msg->src, msg->term))
		return;
	if (msg->term == c->term && msg->src == c->leader) {
		/*
		 * The current leader's heartbeat (or a repeated announce):
		 * a follower hands it to the detector; in a run it only moves
		 * where the window would start (trust is for followers).
		 */
		if (c->phase != ELEC_BULLY_FOLLOWING)
			c->leader_rx_ns = now;
		else if (elec_bully_leader_heard(c, now))
			bully_begin_election(c, 0, ELEC_BULLY_SUSPECT_ASK, now);
		return;
	}
	bully_accept_leader(c, msg, now);
}

/*
 * A resignation (a HEARTBEAT flagged LEAVING), whoever the node follows:
 * the sender leads no more, so its frames sent before it and arriving
 * after it (a heartbeat overtaken) are stale and get no tell for a
 * detection window; with quorum on, the promise to it is released.
 */
static void elec_bully_resignation(struct elec_core *c,
				   const struct elec_msg *msg, u64 now)
{
	struct elec_peer *p = elec_core_peer_find(c, msg->src);

	if (p)
		p->told_until = now + elec_detect_ns(c);
	if (elec_quorum_left(c, msg, now))
		elec_bully_no_quorum(c, now);
}

/**
 * elec_bully_rx() - the rx op of the Bully algorithms.
 * @c: the instance
 * @msg: a message that passed the core's checks
 * @now: current time, ns
 *
 * An announcement naming a coordinator that is no configured node
 * (&elec_bully_algo.coord_of) is dropped. Else: max_term follows, a late
 * answer widens the wait (elec_bully_heard_from()), a resignation
 * silences the tells to its sender and releases the quorum promise
 * (elec_bully_resignation()); then the frame goes to the variant's hook
 * for its type (the sender of an ELECTION, ANSWER, QUERY or ALIVE is
 * marked alive first; an announcement's hook does that itself).
 */
void elec_bully_rx(struct elec_core *c, const struct elec_msg *msg, u64 now)
{
	const struct elec_bully_algo *ba = bully_algo(c);
	u32 k;

	/* a coordinator that is not a configured node: no state changes */
	if (ba->coord_of) {
		k = ba->coord_of(msg);
		if (k != c->cfg.self_id && !elec_core_peer_find(c, k)) {
			elec_core_drop(c, ELEC_DROP_UNKNOWN_PEER);
			return;
		}
	}
	if (msg->term > c->max_term)
		c->max_term = msg->term;
	elec_bully_heard_from(c, msg, now);
	if (msg->type == ELEC_MSG_HEARTBEAT &&
	    (msg->flags & ELECTION_FLAG_LEAVING))
		elec_bully_resignation(c, msg, now);

	switch (msg->type) {
	case ELEC_MSG_ELECTION:
		elec_core_peer_set_alive(c, elec_core_peer_find(c, msg->src),
					 true, now);
		ba->rx_election(c, msg, now);
		break;
	case ELEC_MSG_ANSWER:
		elec_core_peer_set_alive(c, elec_core_peer_find(c, msg->src),
					 true, now);
		ba->rx_answer(c, msg, now);
		break;
	case ELEC_MSG_QUERY:
		if (!(c->ops->msgs & ELEC_MSG_BIT(ELEC_MSG_QUERY)))
			break;
		elec_core_peer_set_alive(c, elec_core_peer_find(c, msg->src),
					 true, now);
		ba->rx_query(c, msg, now);
		break;
	case ELEC_MSG_CID:
		if (c->ops->msgs & ELEC_MSG_BIT(ELEC_MSG_CID))
			ba->rx_announce(c, msg, now);
		break;
	case ELEC_MSG_COORDINATOR:
	case ELEC_MSG_HEARTBEAT:
		ba->rx_announce(c, msg, now);
		break;
	case ELEC_MSG_ALIVE:
		elec_core_peer_set_alive(c, elec_core_peer_find(c, msg->src),
					 true, now);
		if (elec_quorum_rx(c, msg, now))
			elec_bully_no_quorum(c, now);
		break;
	default:
		break;
	}
}

static bool bully_payload_ok(u8 type, const u8 *payload, u16 len)
{
	/* the bare header but for ALIVE; ACK is a ring message */
	if (type == ELEC_MSG_ALIVE)
		return elec_quorum_payload_ok(payload, len);
	return type >= ELEC_MSG_ELECTION && type <= ELEC_MSG_HEARTBEAT &&
	       len == 0;
}

/* the Bully algorithms' timer names (their tables' timer_names) */
const char *const elec_bully_timer_names[ELEC_TIMER_COUNT] = {
	[ELEC_BULLY_TIMER_ANSWER] = "answer",
	[ELEC_BULLY_TIMER_COORD] = "coord",
	[ELEC_BULLY_TIMER_PREEMPT] = "preempt",
	[ELEC_BULLY_TIMER_ALIVE] = "alive",
	[ELEC_BULLY_TIMER_LEASE] = "lease",
};

/* the Bully algorithm's table, registered in core.c's elec_algos[] */
const struct elec_bully_algo elec_bully = {
	.ops = {
		.algo		= ELEC_ALGO_BULLY,
		.name		= "bully",
		.msgs		= ELEC_MSGS_BULLY,
		.rtt_asks	= ELEC_RTT_ASKS_BULLY,
		.rtt_replies	= ELEC_RTT_REPLIES_BULLY,
		.options	= ELEC_BULLY_OPTIONS,
		.start		= bully_start,
		.stop		= elec_bully_stop,
		.elect		= elec_bully_elect,
		.rx		= elec_bully_rx,
		.timer		= elec_bully_timer,
		.silent		= elec_bully_silent,
		.peer_removed	= elec_bully_peer_removed,
		.config_changed	= elec_bully_config_changed,
		.standby	= elec_bully_standby,
		.payload_ok	= bully_payload_ok,
		.timer_names	= elec_bully_timer_names,
		.wait_timers	= ELEC_BULLY_WAIT_TIMERS,
	},
	.begin		= bully_begin_election,
	.answer_expired	= bully_answer_expired,
	.rx_election	= bully_rx_election,
	.rx_answer	= bully_rx_answer,
	.rx_announce	= bully_rx_leader,
};
