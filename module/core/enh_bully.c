// SPDX-License-Identifier: GPL-2.0
/*
 * Murshed and Allen's Enhanced Bully algorithm, as Kabashi, Zeqiri and
 * Zabeli describe it (their section III), algorithm "enh-bully", as a
 * sans-IO state machine. The highest id is the coordinator.
 *
 * From the text:
 * - The ceil(n/2) highest ids are candidates, the others ordinary.
 * - An ordinary detector sends ELECTION (detector, failed coordinator) to
 *   every candidate; when none answers, to the higher ordinary ids. A
 *   candidate detector sends it to the higher candidates.
 * - A receiver answers OK (ANSWER) with its id and begins no election of
 *   its own.
 * - The electioneer picks the highest responder and sends COORDINATOR
 *   (coordinator, candidate set) to every process.
 * - A joining process sends QUERY to the candidates (a candidate to the
 *   higher ones); the answer (CID here) carries the coordinator and the
 *   candidate set; the joiner begins an election only if it beats the
 *   coordinator.
 *
 * Where the text is silent (Documentation/protocol.rst gives the cases):
 * - The sets come from the configured group (the local id and its
 *   peers): adding or removing a peer moves the boundary; with odd n the
 *   candidates are the ceil(n/2) highest. The set a COORDINATOR or CID
 *   carries is checked for form and otherwise only informs (a frame cannot
 *   change whom a node asks).
 * - OK carries only the responder's id (the header's sender); the
 *   coordinator and the set travel in COORDINATOR and CID.
 * - COORDINATOR is one broadcast frame; the leader's re-announcement to
 *   a single asker, and CID, are unicast.
 * - A stage ends when every asked node answered or T passed. A candidate
 *   whose higher candidates do not answer is the highest live candidate:
 *   it becomes coordinator. An ordinary node that no candidate answered
 *   asks the higher ordinary ids, then becomes coordinator if none
 *   answers.
 * - Terms and acceptance as in bully.c, on the pair (term, coordinator
 *   named): concurrent electioneers end with one coordinator, the higher
 *   id winning a tie. The coordinator named must be a configured node; the
 *   sender is checked as every sender is (core.c).
 * - The rules of bully.c carry over: ask-suspect (probe the silent leader
 *   alone first; a leader that was only late answers and re-announces
 *   itself), the leader's re-announcement at its term, a follower that
 *   trusts its leader begins no run (here no receiver of ELECTION ever
 *   does), stale self-announcements told, preemption control (a better
 *   node that learns of a worse coordinator begins a run), resignation.
 * - A joiner listens for the detection window (hb-interval x hb-miss, as
 *   Bully's learning): CID usually comes within a round trip, and the
 *   leader's heartbeats answer too. A QUERY unanswered within the window:
 *   the joiner begins an election. The highest candidate has no higher
 *   candidate to ask: it asks the other candidates, and so learns the
 *   group's term before it takes over (a claim at the term it stopped
 *   with would be stale, and two leaders would run until it was told).
 *
 * Timers per phase: LEARNING (joining) arms DETECT for the detection
 * window (hb-interval x hb-miss, as Bully's learning), FOLLOWING arms
 * it for the same window (and PREEMPT while a preempt-delay runs),
 * WAIT_ANSWER arms ANSWER, LEADING arms HEARTBEAT.
 */
#include "bully.h"

static bool enh_better(u32 a, u32 b)
{
	return a && a > b;
}

/* how many candidates: ceil(n / 2) of the n configured nodes, capped */
static u32 enh_ncand(const struct elec_core *c)
{
	u32 n = (c->n_peers + 2) / 2;

	return n > ELECTION_ENH_MAX_CANDS ? ELECTION_ENH_MAX_CANDS : n;
}

/* the lowest candidate id: the ncand-th highest configured id */
static u32 enh_cand_min(const struct elec_core *c)
{
	u32 need = enh_ncand(c);
	u32 i = c->n_peers;
	bool self_left = true;
	u32 id = c->cfg.self_id;

	while (need--) {
		if (self_left && (!i || c->peers[i - 1].id < c->cfg.self_id)) {
			id = c->cfg.self_id;
			self_left = false;
		} else {
			id = c->peers[--i].id;
		}
	}
	return id;
}

static bool enh_self_cand(const struct elec_core *c)
{
	return c->cfg.self_id >= enh_cand_min(c);
}

/* COORDINATOR or CID naming @k, with the candidate set, at @term */
static void enh_send_set(struct elec_core *c, u8 type, u32 k, u32 dst,
			 u64 term, u64 now)
{
	u8 pl[ELECTION_ENH_SET_HDR_LEN + 4 * ELECTION_ENH_MAX_CANDS];
	u32 cmin = enh_cand_min(c);
	u32 n = 0, i;
	bool self_done = false;

	elec_put32(pl, k);
	pl[6] = 0;
	pl[7] = 0;
	for (i = 0; i <= c->n_peers; i++) {
		u8 *slot = pl + ELECTION_ENH_SET_HDR_LEN + 4 * n;

		if (!self_done && (i == c->n_peers ||
				   c->peers[i].id > c->cfg.self_id)) {
			self_done = true;
			if (c->cfg.self_id >= cmin) {
				elec_put32(slot, c->cfg.self_id);
				n++;
				slot += 4;
			}
		}
		if (i < c->n_peers && c->peers[i].id >= cmin) {
			elec_put32(slot, c->peers[i].id);
			n++;
		}
	}
	pl[4] = n >> 8;
	pl[5] = n;
	elec_core_send(c, type, dst, term, pl,
		       ELECTION_ENH_SET_HDR_LEN + 4 * n, now);
}

/* no better node answered: a new term, COORDINATOR naming the local node */
static void enh_become_coordinator(struct elec_core *c, u64 now)
{
	u64 term = elec_core_term_next(c);

	enh_send_set(c, ELEC_MSG_COORDINATOR, c->cfg.self_id, 0, term, now);
	elec_bully_lead(c, term, now);
}

static void enh_begin(struct elec_core *c, u32 suspect,
		      enum elec_bully_suspect how, u64 now);

/* follow @k at @term; a better node (preempt on) takes over */
static void enh_follow(struct elec_core *c, u32 k, u64 term, bool may_run,
		       u64 now)
{
	if (elec_bully_follow(c, k, term, may_run, now))
		enh_begin(c, 0, ELEC_BULLY_SUSPECT_ASK, now);
}

/*
 * ELECTION, carrying the suspect, to the ids of the current stage, each
 * flagged asked, the suspect excepted (probed already, or skipped).
 * Stage 1: an ordinary node asks every candidate, a candidate the higher
 * candidates; stage 2: an ordinary node asks the higher ordinary ids.
 * Return: how many were asked.
 */
static u32 enh_ask(struct elec_core *c, u64 now)
{
	u32 self = c->cfg.self_id;
	u32 cmin = enh_cand_min(c);
	bool self_cand = self >= cmin;
	u8 pl[ELECTION_COORD_LEN];
	u32 asked = 0;
	u32 i;

	elec_put32(pl, c->bully.suspect);
	for (i = 0; i < c->n_peers; i++) {
		struct elec_peer *p = &c->peers[i];
		bool ask;

		if (c->bully.stage == ELEC_ENH_STAGE_CANDIDATES)
			ask = p->id >= cmin && (!self_cand || p->id > self);
		else
			ask = !self_cand && p->id < cmin && p->id > self;
		if (!ask || p->id == c->bully.suspect)
			continue;
		p->flags |= ELEC_BULLY_ASKED;
		elec_core_send(c, ELEC_MSG_ELECTION, p->id, c->max_term, pl,
			       sizeof(pl), now);
		asked++;
	}
	return asked;
}

static void enh_wait(struct elec_core *c, u64 now)
{
	c->phase = ELEC_BULLY_WAIT_ANSWER;
	elec_bully_wait_answers(c, now);
}

/*
 * A stage is over (every asked node answered, or T passed): name the
 * highest responder, or ask the next stage, or become coordinator.
 */
static void enh_stage_done(struct elec_core *c, u64 now)
{
	u32 k = c->bully.run_best;

	if (k) {
		u64 term = elec_core_term_next(c);

		enh_send_set(c, ELEC_MSG_COORDINATOR, k, 0, term, now);
		enh_follow(c, k, term, false, now);
		return;
	}
	while (c->bully.stage < ELEC_ENH_STAGE_ORDINARY && !enh_self_cand(c)) {
		c->bully.stage++;
		if (enh_ask(c, now)) {
			enh_wait(c, now);
			return;
		}
	}
	enh_become_coordinator(c, now);
}

/* a new run: give up the leader; probe the suspect, or ask stage 1 */
static void enh_begin(struct elec_core *c, u32 suspect,
		      enum elec_bully_suspect how, u64 now)
{
	struct elec_peer *p = elec_core_peer_find(c, suspect);

	if (!elec_bully_run_begin(c, p ? suspect : 0, how, now))
		return;
	c->bully.stage = ELEC_ENH_STAGE_CANDIDATES;

	if (how == ELEC_BULLY_SUSPECT_PROBE && p) {
		u8 pl[ELECTION_COORD_LEN];

		elec_put32(pl, suspect);
		p->flags |= ELEC_BULLY_ASKED;
		elec_core_send(c, ELEC_MSG_ELECTION, p->id, c->max_term, pl,
			       sizeof(pl), now);
		c->bully.probing = true;
		enh_wait(c, now);
		return;
	}
	if (enh_ask(c, now)) {
		enh_wait(c, now);
		return;
	}
	enh_stage_done(c, now);
}

/*
 * QUERY to the candidates (a candidate: the higher ones; the highest, which
 * has none, the other candidates: it learns the group's term before it
 * takes over, instead of claiming with the term it stopped with)
 */
static void enh_start(struct elec_core *c, u64 now)
{
	u32 self = c->cfg.self_id;
	u32 cmin = enh_cand_min(c);
	bool self_cand = self >= cmin;
	bool top = !c->n_peers || c->peers[c->n_peers - 1].id < self;
	u32 i;

	elec_bully_reset_waits(c);
	elec_quorum_start(c, now);
	elec_bully_run_clear(c);
	c->role = ELEC_ROLE_FOLLOWER;
	c->phase = ELEC_BULLY_LEARNING;
	for (i = 0; i < c->n_peers; i++) {
		u32 id = c->peers[i].id;

		if (id >= cmin && (!self_cand || top || id > self))
			elec_core_send(c, ELEC_MSG_QUERY, id, c->max_term,
				       NULL, 0, now);
	}
	/* as Bully's learning window: the leader's heartbeats answer too */
	elec_bully_only_watch(c, now);
}

/* the wait ran out: the rest of stage 1 after a probe, or the next stage */
static void enh_answer_expired(struct elec_core *c, u64 now)
{
	if (c->bully.probing) {
		/* the rest of stage 1, the suspect excepted */
		c->bully.probing = false;
		if (enh_ask(c, now)) {
			enh_wait(c, now);
			return;
		}
	}
	enh_stage_done(c, now);
}

/* a reply to one peer: its stale frames get no reply for a window */
static void enh_tell(struct elec_core *c, struct elec_peer *p, u8 type,
		     u64 now)
{
	p->told_until = now + elec_detect_ns(c);
	if (type == ELEC_MSG_COORDINATOR) {
		enh_send_set(c, type, c->cfg.self_id, p->id, c->term, now);
	} else {
		/* a tell begins no run: it names no failed coordinator */
		u8 pl[ELECTION_COORD_LEN] = { 0 };

		elec_core_send(c, type, p->id, c->max_term, pl, sizeof(pl),
			       now);
	}
}

static void enh_rx_election(struct elec_core *c, const struct elec_msg *msg,
			    u64 now)
{
	struct elec_peer *p = elec_core_peer_find(c, msg->src);

	if (c->phase == ELEC_BULLY_LEADING) {
		/*
		 * Asked while leading: answer, and re-announce to the asker
		 * at the current term; an asker that has seen a newer term
		 * gets a new term, broadcast.
		 */
		elec_core_send(c, ELEC_MSG_ANSWER, msg->src, c->max_term, NULL,
			       0, now);
		if (msg->term > c->term && elec_core_rx_may_elect(c, now))
			enh_become_coordinator(c, now);
		else
			enh_tell(c, p, ELEC_MSG_COORDINATOR, now);
		return;
	}
	/*
	 * Only a lower id asks; the receiver begins no run of its own. In
	 * standby no OK: the electioneer would name the node.
	 */
	if (!enh_better(c->cfg.self_id, msg->src) || elec_core_standby(c))
		return;
	elec_core_send(c, ELEC_MSG_ANSWER, msg->src, c->max_term, NULL, 0,
		       now);
}

static void enh_rx_answer(struct elec_core *c, const struct elec_msg *msg,
			  u64 now)
{
	struct elec_peer *p = elec_core_peer_find(c, msg->src);

	if (c->phase != ELEC_BULLY_WAIT_ANSWER || !p ||
	    !(p->flags & ELEC_BULLY_ASKED))
		return;
	p->flags &= ~ELEC_BULLY_ASKED;
	elec_bully_answered(c, now);
	if (enh_better(p->id, c->bully.run_best))
		c->bully.run_best = p->id;
	/* a probed leader that answers re-announces itself: wait for it */
	if (c->bully.probing)
		return;
	for (p = c->peers; p < c->peers + c->n_peers; p++)
		if (p->flags & ELEC_BULLY_ASKED)
			return;
	enh_stage_done(c, now);
}

/* the coordinator a message names (COORDINATOR, CID), else its sender */
static u32 enh_coord_of(const struct elec_msg *msg)
{
	if (msg->type == ELEC_MSG_COORDINATOR || msg->type == ELEC_MSG_CID)
		return elec_get32(msg->payload);
	return msg->src;
}

/* COORDINATOR or CID (naming a coordinator), HEARTBEAT (its sender) */
static void enh_rx_announce(struct elec_core *c, const struct elec_msg *msg,
			    u64 now)
{
	u32 k = enh_coord_of(msg);
	struct elec_peer *src = elec_core_peer_find(c, msg->src);

	switch (elec_bully_announced(c, msg, k, now)) {
	case ELEC_BULLY_HEARD_LEFT:
		enh_begin(c, msg->src, ELEC_BULLY_SUSPECT_LEFT, now);
		return;
	case ELEC_BULLY_HEARD_TELL_ELECTION:
		enh_tell(c, src, ELEC_MSG_ELECTION, now);
		return;
	case ELEC_BULLY_HEARD_TELL_COORD:
		enh_tell(c, src, ELEC_MSG_COORDINATOR, now);
		return;
	case ELEC_BULLY_HEARD_TAKE_OVER:
		enh_begin(c, 0, ELEC_BULLY_SUSPECT_ASK, now);
		return;
	case ELEC_BULLY_HEARD_NEW:
		break;
	default:
		return;
	}
	if (k == c->cfg.self_id) {
		/*
		 * A CID naming the local node: the group still takes it for
		 * its leader, but it restarted (it asks only when it joins).
		 * Its followers' windows run from its last heartbeat before
		 * that: it claims anew, within the rate limit.
		 */
		if (msg->type == ELEC_MSG_CID &&
		    c->phase != ELEC_BULLY_LEADING &&
		    elec_core_rx_may_elect(c, now)) {
			if (elec_bully_run_begin(c, 0, ELEC_BULLY_SUSPECT_ASK,
						 now))
				enh_become_coordinator(c, now);
			return;
		}
		/*
		 * Quorum on: an ALIVE of ours still in flight may carry this
		 * term and release the followers that name us at it: lead
		 * only above it (elec_quorum_named_stale()).
		 */
		if (elec_quorum_named_stale(c, msg->term)) {
			if (elec_bully_run_begin(c, 0, ELEC_BULLY_SUSPECT_ASK,
						 now))
				enh_become_coordinator(c, now);
		} else {
			elec_bully_lead(c, msg->term, now);
		}
		return;
	}
	/*
	 * A third node naming the old leader does not vouch for it; but a
	 * joiner's window starts now (what it heard before it stopped is
	 * not news of the leader: the CID of a candidate in standby, say,
	 * naming a leader that is no candidate)
	 */
	if (msg->src != k && k == c->last_leader &&
	    c->phase != ELEC_BULLY_LEARNING) {
		if (elec_bully_follow_heard(c, k, msg->term, c->leader_rx_ns,
					    true, now))
			enh_begin(c, 0, ELEC_BULLY_SUSPECT_ASK, now);
		return;
	}
	enh_follow(c, k, msg->term, true, now);
}

/*
 * Any node that knows a leader answers a QUERY addressed to it, CID at
 * its term, to the sender alone: a joiner asks the candidates one by
 * one, and a broadcast QUERY, which would draw an answer from every
 * node, is not answered.
 */
static void enh_rx_query(struct elec_core *c, const struct elec_msg *msg,
			 u64 now)
{
	if (!msg->dst || !c->leader ||
	    (c->phase != ELEC_BULLY_LEADING &&
	     c->phase != ELEC_BULLY_FOLLOWING))
		return;
	enh_send_set(c, ELEC_MSG_CID, c->leader, msg->src, c->term, now);
}

/* {be32 coordinator, be16 count, be16 0, be32 ids[count] ascending} */
static bool enh_set_ok(const u8 *pl, u16 len)
{
	u32 n, i, prev = 0;

	if (len < ELECTION_ENH_SET_HDR_LEN || !elec_get32(pl) || pl[6] ||
	    pl[7])
		return false;
	n = (u32)pl[4] << 8 | pl[5];
	if (n < 1 || n > ELECTION_ENH_MAX_CANDS ||
	    len != ELECTION_ENH_SET_HDR_LEN + 4 * n)
		return false;
	for (i = 0; i < n; i++) {
		u32 id = elec_get32(pl + ELECTION_ENH_SET_HDR_LEN + 4 * i);

		if (id <= prev)
			return false;
		prev = id;
	}
	return true;
}

static bool enh_payload_ok(u8 type, const u8 *payload, u16 len)
{
	switch (type) {
	case ELEC_MSG_ELECTION:
		/* the failed coordinator, 0 = none */
		return len == ELECTION_COORD_LEN;
	case ELEC_MSG_COORDINATOR:
	case ELEC_MSG_CID:
		return enh_set_ok(payload, len);
	case ELEC_MSG_ANSWER:
	case ELEC_MSG_HEARTBEAT:
	case ELEC_MSG_QUERY:
		return len == 0;
	case ELEC_MSG_ALIVE:
		return elec_quorum_payload_ok(payload, len);
	default:
		return false;
	}
}

static u32 enh_max_payload(u32 n_nodes)
{
	u32 n = (n_nodes + 1) / 2;

	if (n > ELECTION_ENH_MAX_CANDS)
		n = ELECTION_ENH_MAX_CANDS;
	return ELECTION_ENH_SET_HDR_LEN + 4 * n;
}

/* the enh-bully table, registered in core.c's elec_algos[] */
const struct elec_bully_algo elec_enh_bully = {
	.ops = {
		.algo		= ELEC_ALGO_ENH_BULLY,
		.name		= "enh-bully",
		.msgs		= ELEC_MSGS_BULLY_QUERY,
		.rtt_asks	= ELEC_RTT_ASKS_BULLY,
		.rtt_replies	= ELEC_RTT_REPLIES_BULLY,
		.options	= ELEC_BULLY_OPTIONS,
		.start		= enh_start,
		.stop		= elec_bully_stop,
		.elect		= elec_bully_elect,
		.rx		= elec_bully_rx,
		.timer		= elec_bully_timer,
		.silent		= elec_bully_silent,
		.peer_removed	= elec_bully_peer_removed,
		.config_changed	= elec_bully_config_changed,
		.standby	= elec_bully_standby,
		.payload_ok	= enh_payload_ok,
		.max_payload	= enh_max_payload,
		.timer_names	= elec_bully_timer_names,
		.wait_timers	= ELEC_BULLY_WAIT_TIMERS,
	},
	.begin		= enh_begin,
	.answer_expired	= enh_answer_expired,
	.rx_election	= enh_rx_election,
	.rx_answer	= enh_rx_answer,
	.rx_query	= enh_rx_query,
	.rx_announce	= enh_rx_announce,
	.coord_of	= enh_coord_of,
};
