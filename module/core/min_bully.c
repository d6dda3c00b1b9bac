// SPDX-License-Identifier: GPL-2.0
/*
 * The Bully variant of Kabashi, Zeqiri and Zabeli ("The Reduction of
 * Number Messages in Election Bully Algorithm"), algorithm "min-bully",
 * as a sans-IO state machine. The lowest id is the coordinator.
 *
 * From the text (sections IV and V):
 * - A process that notices the coordinator's failure and holds the second
 *   minimum id broadcasts COORDINATOR naming itself; any other broadcasts
 *   ELECTION and waits for the responses of the lower ids.
 * - On ELECTION from a higher id, the second minimum broadcasts
 *   COORDINATOR naming itself, any other process answers OK (ANSWER).
 * - The initiator names the lowest responder k in a broadcast
 *   COORDINATOR_k (the payload names k, the header the sender); with no
 *   response it names itself.
 * - A process w that receives COORDINATOR_k with k > w broadcasts
 *   COORDINATOR_w.
 * - Joining: the minimum announces itself; any other broadcasts QUERY and
 *   only the coordinator answers, CID; a joiner lower than the coordinator
 *   announces itself.
 *
 * Where the text is silent (Documentation/protocol.rst gives the cases):
 * - The minimum and the second minimum are those of the configured group
 *   (the local id and its peers): the minimum is the lowest configured id,
 *   the second minimum the next. An absent minimum (configured, down)
 *   changes nothing: the second minimum takes over when the minimum does
 *   not answer; when the second minimum is absent too, the procedure
 *   finds the lowest live id in one T.
 * - An initiator waits for a response from every lower peer it believes
 *   alive, the suspect excepted, or for T, whichever comes first (with at
 *   least one response; with none it waits the whole T). The second
 *   minimum's COORDINATOR is its response: the initiator then names it
 *   at the term it announced (no second new term).
 * - Terms, as in bully.c: a claim takes max_term + 1; an announcement
 *   (COORDINATOR, HEARTBEAT, CID) is accepted only if (term, coordinator)
 *   is at least (term, leader), the lower id winning a tie, so reordered
 *   or concurrent announcements end with one coordinator: the text's
 *   "only one coordinator at any time" holds per term. The coordinator
 *   named must be a configured node; the header's sender must be a peer
 *   with its configured address (core.c checks that).
 * - Step 6 is preemption: with preempt on a better node that learns of a
 *   worse coordinator claims at once; with a preempt-delay it follows that
 *   long first; with preempt off it follows. The minimum that starts
 *   announces itself at once only with preempt on and no delay; else it
 *   joins like the others.
 * - A joiner listens for the detection window (hb-interval x hb-miss, as
 *   Bully's learning): CID usually comes within a round trip, and the
 *   leader's heartbeats answer too (a lost QUERY or CID, or in enh-bully
 *   candidates that are all down, cost nothing more). A QUERY unanswered
 *   within the window: the joiner runs the failure procedure.
 * - The leader answers an ELECTION (or a probe) by re-announcing itself to
 *   the asker at its term; a new term, broadcast, only for an asker that
 *   has seen a newer one.
 * - With ask-suspect on (the default) a detector first asks the silent
 *   leader alone (unicast ELECTION); a leader that was only late
 *   re-announces itself and nothing else happens. T without that goes on
 *   with the procedure, which skips the suspect. This covers the second
 *   minimum's false suspicion, which the text's step 1a turns into two
 *   coordinators until step 6; with ask-suspect off the second minimum
 *   claims at once, as in the text, and step 6 (preemption) restores the
 *   minimum.
 * - The minimum and the second minimum do not claim on an ELECTION while
 *   they trust a live leader (elec_bully_trusts_leader()): they answer OK
 *   like the others. The leader a run gave up, re-announcing itself at
 *   its term, ends the run (so preempt off keeps a live worse leader).
 * - A follower that drops a stale self-announcement tells its sender, as
 *   in bully.c; a leader that resigns sends a HEARTBEAT flagged LEAVING
 *   and its followers run the procedure at once, skipping it.
 *
 * Timers per phase: LEARNING (joining) arms DETECT for the detection
 * window (hb-interval x hb-miss, as Bully's learning), FOLLOWING arms
 * it for the same window (and PREEMPT while a preempt-delay runs),
 * WAIT_ANSWER arms ANSWER, LEADING arms HEARTBEAT.
 */
#include "bully.h"

static bool minb_better(u32 a, u32 b)
{
	return a && (!b || a < b);
}

/* the lowest configured id: no peer below the local one */
static bool minb_is_min(const struct elec_core *c)
{
	return !c->n_peers || c->peers[0].id > c->cfg.self_id;
}

/* the second-lowest configured id: exactly one peer below the local one */
static bool minb_is_second(const struct elec_core *c)
{
	return c->n_peers && c->peers[0].id < c->cfg.self_id &&
	       (c->n_peers == 1 || c->peers[1].id > c->cfg.self_id);
}

/* COORDINATOR naming @k, at @term, to @dst (0: broadcast) */
static void minb_send_coord(struct elec_core *c, u32 k, u32 dst, u64 term,
			    u64 now)
{
	u8 pl[ELECTION_COORD_LEN];

	pl[0] = k >> 24;
	pl[1] = k >> 16;
	pl[2] = k >> 8;
	pl[3] = k;
	elec_core_send(c, ELEC_MSG_COORDINATOR, dst, term, pl, sizeof(pl),
		       now);
}

static u32 minb_coord_of(const struct elec_msg *msg)
{
	const u8 *p = msg->payload;

	if (msg->type != ELEC_MSG_COORDINATOR)
		return msg->src;
	return (u32)p[0] << 24 | (u32)p[1] << 16 | (u32)p[2] << 8 | p[3];
}

/* a reply to one peer: its stale frames get no reply for a window */
static void minb_tell(struct elec_core *c, struct elec_peer *p, u8 type,
		      u64 now)
{
	p->told_until = now + elec_detect_ns(c);
	if (type == ELEC_MSG_COORDINATOR)
		minb_send_coord(c, c->cfg.self_id, p->id, c->term, now);
	else
		elec_core_send(c, type, p->id, c->max_term, NULL, 0, now);
}

/* claim: a new term, broadcast COORDINATOR naming the local node */
static void minb_claim(struct elec_core *c, u64 now)
{
	u64 term = elec_core_term_next(c);

	minb_send_coord(c, c->cfg.self_id, 0, term, now);
	elec_bully_lead(c, term, now);
}

/* a run that ends at once in a claim: counted and reported as a run */
static void minb_claim_run(struct elec_core *c, u64 now)
{
	if (elec_bully_run_begin(c, 0, ELEC_BULLY_SUSPECT_ASK, now))
		minb_claim(c, now);
}

/* follow @k at @term; a better node (preempt on) takes over */
static void minb_follow(struct elec_core *c, u32 k, u64 term, bool may_run,
			u64 now)
{
	if (elec_bully_follow(c, k, term, may_run, now))
		minb_claim_run(c, now);
}

/*
 * The procedure after the probe (or without one): the minimum and the
 * second minimum claim; any other node broadcasts ELECTION and waits for
 * the lower ids it believes alive, the suspect excepted.
 */
static void minb_procedure(struct elec_core *c, u64 now)
{
	u32 self = c->cfg.self_id;
	u32 i;

	c->bully.probing = false;
	if (minb_is_min(c) || minb_is_second(c)) {
		minb_claim(c, now);
		return;
	}
	for (i = 0; i < c->n_peers && c->peers[i].id < self; i++) {
		struct elec_peer *p = &c->peers[i];

		if (p->alive && p->id != c->bully.suspect)
			p->flags |= ELEC_BULLY_ASKED;
	}
	c->bully.run_best = 0;
	c->bully.run_best_term = 0;
	elec_core_send(c, ELEC_MSG_ELECTION, 0, c->max_term, NULL, 0, now);
	c->phase = ELEC_BULLY_WAIT_ANSWER;
	elec_bully_wait_answers(c, now);
}

/* a new run: give up the leader; probe the suspect or go on at once */
static void minb_begin(struct elec_core *c, u32 suspect,
		       enum elec_bully_suspect how, u64 now)
{
	struct elec_peer *p = elec_core_peer_find(c, suspect);

	if (!elec_bully_run_begin(c, p ? suspect : 0, how, now))
		return;

	if (how == ELEC_BULLY_SUSPECT_PROBE && p) {
		p->flags |= ELEC_BULLY_ASKED;
		elec_core_send(c, ELEC_MSG_ELECTION, p->id, c->max_term, NULL,
			       0, now);
		c->bully.probing = true;
		c->phase = ELEC_BULLY_WAIT_ANSWER;
		elec_bully_wait_answers(c, now);
		return;
	}
	minb_procedure(c, now);
}

/* whether a response is still awaited from a lower peer */
static bool minb_awaiting(const struct elec_core *c)
{
	u32 i;

	for (i = 0; i < c->n_peers; i++)
		if (c->peers[i].flags & ELEC_BULLY_ASKED)
			return true;
	return false;
}

/*
 * The run is over: name the lowest responder (at the term it announced
 * itself, if it did, else a new one) and follow it, or claim.
 */
static void minb_finish(struct elec_core *c, u64 now)
{
	u32 k = c->bully.run_best;
	u64 term = c->bully.run_best_term;
	u32 i;

	for (i = 0; i < c->n_peers; i++)
		c->peers[i].flags &= ~ELEC_BULLY_ASKED;
	if (!k) {
		minb_claim(c, now);
		return;
	}
	if (!term || term < c->term)
		term = elec_core_term_next(c);
	minb_send_coord(c, k, 0, term, now);
	minb_follow(c, k, term, false, now);
}

/* a lower node responded (OK, or a COORDINATOR naming itself at @term) */
static void minb_response(struct elec_core *c, u32 src, u64 term, u64 now)
{
	struct elec_peer *p = elec_core_peer_find(c, src);

	if (p && (p->flags & ELEC_BULLY_ASKED)) {
		p->flags &= ~ELEC_BULLY_ASKED;
		elec_bully_answered(c, now);
	}
	if (minb_better(src, c->bully.run_best) ||
	    (src == c->bully.run_best && term > c->bully.run_best_term)) {
		c->bully.run_best = src;
		c->bully.run_best_term = term;
	}
	if (!minb_awaiting(c))
		minb_finish(c, now);
}

static void minb_start(struct elec_core *c, u64 now)
{
	elec_bully_reset_waits(c);
	elec_quorum_start(c, now);
	elec_bully_run_clear(c);
	c->role = ELEC_ROLE_FOLLOWER;
	if (minb_is_min(c) && !c->cfg.preempt_off &&
	    !c->cfg.preempt_delay_ns && !elec_core_standby(c)) {
		minb_claim_run(c, now);
		return;
	}
	c->phase = ELEC_BULLY_LEARNING;
	elec_core_send(c, ELEC_MSG_QUERY, 0, c->max_term, NULL, 0, now);
	/* as Bully's learning window: the leader's heartbeats answer too */
	elec_bully_only_watch(c, now);
}

/* the wait ran out: the probe is over (the procedure now), or the run */
static void minb_answer_expired(struct elec_core *c, u64 now)
{
	if (c->bully.probing)
		minb_procedure(c, now);
	else
		minb_finish(c, now);
}

static void minb_rx_election(struct elec_core *c, const struct elec_msg *msg,
			     u64 now)
{
	struct elec_peer *p = elec_core_peer_find(c, msg->src);

	if (c->phase == ELEC_BULLY_LEADING) {
		/*
		 * Asked while leading (a probe, or a run's broadcast):
		 * re-announce to the asker at the current term; an asker
		 * that has seen a newer term gets a new claim, broadcast.
		 */
		if (msg->term > c->term && elec_core_rx_may_elect(c, now))
			minb_claim(c, now);
		else
			minb_tell(c, p, ELEC_MSG_COORDINATOR, now);
		return;
	}
	/*
	 * Only the higher ids' ELECTIONs are answered, and not in standby:
	 * the OK (or the claim) of a node in standby would get it named.
	 */
	if (!minb_better(c->cfg.self_id, msg->src) || elec_core_standby(c))
		return;
	if ((minb_is_second(c) || minb_is_min(c)) &&
	    !elec_bully_trusts_leader(c, now) &&
	    elec_core_rx_may_elect(c, now)) {
		minb_claim_run(c, now);
		return;
	}
	elec_core_send(c, ELEC_MSG_ANSWER, msg->src, c->max_term, NULL, 0,
		       now);
}

/* COORDINATOR (naming k), HEARTBEAT or CID (naming their sender) */
static void minb_rx_announce(struct elec_core *c, const struct elec_msg *msg,
			     u64 now)
{
	u32 k = minb_coord_of(msg);
	struct elec_peer *src = elec_core_peer_find(c, msg->src);

	switch (elec_bully_announced(c, msg, k, now)) {
	case ELEC_BULLY_HEARD_LEFT:
		minb_begin(c, msg->src, ELEC_BULLY_SUSPECT_LEFT, now);
		return;
	case ELEC_BULLY_HEARD_TELL_ELECTION:
		minb_tell(c, src, ELEC_MSG_ELECTION, now);
		return;
	case ELEC_BULLY_HEARD_TELL_COORD:
		minb_tell(c, src, ELEC_MSG_COORDINATOR, now);
		return;
	case ELEC_BULLY_HEARD_TAKE_OVER:
		minb_claim_run(c, now);
		return;
	case ELEC_BULLY_HEARD_NEW:
		break;
	default:
		return;
	}
	/* the probed leader's reply: an answer to the probe */
	if (c->bully.probing && msg->src == c->bully.suspect)
		elec_bully_answered(c, now);
	/*
	 * In a run's wait, a lower node's own new claim is its response; the
	 * leader the run gave up re-announcing itself at its term (alive
	 * after all) ends the run like any announcement.
	 */
	if (c->phase == ELEC_BULLY_WAIT_ANSWER && !c->bully.probing &&
	    msg->type == ELEC_MSG_COORDINATOR && k == msg->src &&
	    minb_better(k, c->cfg.self_id) &&
	    !(k == c->last_leader && msg->term == c->term)) {
		minb_response(c, k, msg->term, now);
		return;
	}
	if (k == c->cfg.self_id) {
		/*
		 * A lower node claimed in this run at the naming's term or a
		 * newer one: the electioneer that names us had not heard it
		 * yet. Leading too would make two leaders until our
		 * heartbeat reaches that node; follow its claim instead.
		 */
		if (c->phase == ELEC_BULLY_WAIT_ANSWER &&
		    minb_better(c->bully.run_best, c->cfg.self_id) &&
		    c->bully.run_best_term >= msg->term) {
			minb_follow(c, c->bully.run_best,
				    c->bully.run_best_term, true, now);
			return;
		}
		/*
		 * Quorum on: an ALIVE of ours still in flight may carry this
		 * term and release the followers that name us at it: lead
		 * only above it (elec_quorum_named_stale()).
		 */
		if (elec_quorum_named_stale(c, msg->term))
			minb_claim_run(c, now);
		else
			elec_bully_lead(c, msg->term, now);
		return;
	}
	/* a third node naming the old leader does not vouch for it */
	if (msg->src != k && k == c->last_leader) {
		if (elec_bully_follow_heard(c, k, msg->term, c->leader_rx_ns,
					    true, now))
			minb_claim_run(c, now);
		return;
	}
	minb_follow(c, k, msg->term, true, now);
}

/*
 * Only the leader answers a QUERY: CID at its term, to the sender alone
 * (whose configured address the frame came from), one frame per QUERY.
 */
static void minb_rx_query(struct elec_core *c, const struct elec_msg *msg,
			  u64 now)
{
	if (c->phase == ELEC_BULLY_LEADING)
		elec_core_send(c, ELEC_MSG_CID, msg->src, c->term, NULL, 0,
			       now);
}

/* an ANSWER (OK) of a lower node: its response to the run */
static void minb_rx_answer(struct elec_core *c, const struct elec_msg *msg,
			   u64 now)
{
	if (c->phase == ELEC_BULLY_WAIT_ANSWER && !c->bully.probing &&
	    minb_better(msg->src, c->cfg.self_id))
		minb_response(c, msg->src, 0, now);
}

static bool minb_payload_ok(u8 type, const u8 *payload, u16 len)
{
	switch (type) {
	case ELEC_MSG_COORDINATOR:
		/* the coordinator's id, non-zero */
		return len == ELECTION_COORD_LEN &&
		       (payload[0] | payload[1] | payload[2] | payload[3]);
	case ELEC_MSG_ELECTION:
	case ELEC_MSG_ANSWER:
	case ELEC_MSG_HEARTBEAT:
	case ELEC_MSG_QUERY:
	case ELEC_MSG_CID:
		return len == 0;
	case ELEC_MSG_ALIVE:
		return elec_quorum_payload_ok(payload, len);
	default:
		return false;
	}
}

static u32 minb_max_payload(u32 n_nodes)
{
	(void)n_nodes;
	return ELECTION_COORD_LEN;
}

/* the min-bully table, registered in core.c's elec_algos[] */
const struct elec_bully_algo elec_min_bully = {
	.ops = {
		.algo		= ELEC_ALGO_MIN_BULLY,
		.name		= "min-bully",
		.msgs		= ELEC_MSGS_BULLY_QUERY,
		.rtt_asks	= ELEC_RTT_ASKS_BULLY,
		.rtt_replies	= ELEC_RTT_REPLIES_BULLY,
		.options	= ELEC_BULLY_OPTIONS,
		.start		= minb_start,
		.stop		= elec_bully_stop,
		.elect		= elec_bully_elect,
		.rx		= elec_bully_rx,
		.timer		= elec_bully_timer,
		.silent		= elec_bully_silent,
		.peer_removed	= elec_bully_peer_removed,
		.config_changed	= elec_bully_config_changed,
		.standby	= elec_bully_standby,
		.payload_ok	= minb_payload_ok,
		.max_payload	= minb_max_payload,
		.lowest_wins	= true,
		.timer_names	= elec_bully_timer_names,
		.wait_timers	= ELEC_BULLY_WAIT_TIMERS,
	},
	.begin		= minb_begin,
	.take_over	= minb_claim_run,
	.answer_expired	= minb_answer_expired,
	.rx_election	= minb_rx_election,
	.rx_answer	= minb_rx_answer,
	.rx_query	= minb_rx_query,
	.rx_announce	= minb_rx_announce,
	.coord_of	= minb_coord_of,
};
