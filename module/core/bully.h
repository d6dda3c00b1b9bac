/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the three Bully algorithms share (bully.c, min_bully.c,
 * enh_bully.c): the phases (enum elec_bully_phase, core.h), one timer per
 * phase, the failure detector's window, the per-run state and what a run
 * does with the peer whose silence started it.
 */
#ifndef _ELEC_BULLY_H
#define _ELEC_BULLY_H

#include "core.h"

/*
 * The Bully algorithms' timers, besides the shared heartbeat and detect:
 * ANSWER: candidate: T expired with no answer; COORD: candidate that got
 * an answer: no COORDINATOR came within coord_timeout, restart the run;
 * PREEMPT: follower of a worse leader (preempt on with a preempt-delay):
 * the delay is over, take over.
 */
#define ELEC_BULLY_TIMER_ANSWER		ELEC_TIMER_ALGO0
#define ELEC_BULLY_TIMER_COORD		ELEC_TIMER_ALGO1
#define ELEC_BULLY_TIMER_PREEMPT	ELEC_TIMER_ALGO2
/*
 * quorum on (quorum.c): ALIVE: every node's beacon period (hb-interval;
 * a leader sends none); LEASE: a claimant's or leader's majority is due
 * for a look (confirmed, or run out)
 */
#define ELEC_BULLY_TIMER_ALIVE		ELEC_TIMER_ALGO3
#define ELEC_BULLY_TIMER_LEASE		ELEC_TIMER_ALGO4
/* the waits for a frame (elec_timer_awaits_rx()): answers, a COORDINATOR */
#define ELEC_BULLY_WAIT_TIMERS	((1U << ELEC_BULLY_TIMER_ANSWER) | \
				 (1U << ELEC_BULLY_TIMER_COORD))

extern const char *const elec_bully_timer_names[ELEC_TIMER_COUNT];

/* peer->flags: asked in this run (ELECTION sent), no answer yet */
#define ELEC_BULLY_ASKED	0x01
/*
 * peer->flags: still asked when the last wait ran out (declared failed);
 * a frame from it within a coord-timeout says the wait was too short
 */
#define ELEC_BULLY_TIMED_OUT	0x02

/**
 * enum elec_bully_suspect - what a run does with its suspect, the peer
 * whose silence (or resignation) started it.
 * @ELEC_BULLY_SUSPECT_ASK: ask it with the others
 * @ELEC_BULLY_SUSPECT_PROBE: ask it alone first (ask-suspect on, a run its
 *	detector began); T without its answer goes on without it
 * @ELEC_BULLY_SUSPECT_SKIP: skip it (ask-suspect off)
 * @ELEC_BULLY_SUSPECT_LEFT: skip it because it resigned (no restart of the run
 *	asks it either)
 */
enum elec_bully_suspect {
	ELEC_BULLY_SUSPECT_ASK,
	ELEC_BULLY_SUSPECT_PROBE,
	ELEC_BULLY_SUSPECT_SKIP,
	ELEC_BULLY_SUSPECT_LEFT,
};

/**
 * enum elec_bully_heard - what a Bully variant still does with an
 * announcement (elec_bully_announced()).
 * @ELEC_BULLY_HEARD_DONE: nothing: handled, or ignored
 * @ELEC_BULLY_HEARD_LEFT: the leader resigned: a run that skips it
 * @ELEC_BULLY_HEARD_TELL_ELECTION: stale, from a better stale leader:
 *	tell it with an ELECTION carrying the newer term
 * @ELEC_BULLY_HEARD_TELL_COORD: stale, and the local node leads: tell
 *	the sender with its own COORDINATOR
 * @ELEC_BULLY_HEARD_TAKE_OVER: the worse leader's own frame: take over
 * @ELEC_BULLY_HEARD_NEW: a new (term, coordinator): accept it
 */
enum elec_bully_heard {
	ELEC_BULLY_HEARD_DONE,
	ELEC_BULLY_HEARD_LEFT,
	ELEC_BULLY_HEARD_TELL_ELECTION,
	ELEC_BULLY_HEARD_TELL_COORD,
	ELEC_BULLY_HEARD_TAKE_OVER,
	ELEC_BULLY_HEARD_NEW,
};

/**
 * elec_bully_detect_ns() - the failure detector's window.
 * @c: the instance
 *
 * Return: hb_interval * hb_miss: a leader silent this long has failed.
 */
static inline u64 elec_bully_detect_ns(const struct elec_core *c)
{
	return c->cfg.hb_interval_ns * c->cfg.hb_miss;
}

void elec_bully_only_timer(struct elec_core *c, enum elec_timer_id id,
			   u64 delay, u64 now);
void elec_bully_no_quorum(struct elec_core *c, u64 now);
void elec_bully_run_clear(struct elec_core *c);
void elec_bully_reset_waits(struct elec_core *c);
u64 elec_bully_answer_ns(const struct elec_core *c);
void elec_bully_wait_answers(struct elec_core *c, u64 now);
void elec_bully_answered(struct elec_core *c, u64 now);
void elec_bully_heard_from(struct elec_core *c, const struct elec_msg *msg,
			   u64 now);
u64 elec_bully_coord_ns(const struct elec_core *c);
void elec_bully_peer_removed(struct elec_core *c, struct elec_peer *peer,
			     u64 now);
bool elec_bully_far_behind(const struct elec_core *c, u64 term);
bool elec_bully_preempts(const struct elec_core *c, u32 leader);
bool elec_bully_trusts_leader(const struct elec_core *c, u64 now);
bool elec_bully_follow(struct elec_core *c, u32 k, u64 term, bool may_run,
		       u64 now);
bool elec_bully_follow_heard(struct elec_core *c, u32 k, u64 term,
			     u64 heard, bool may_run, u64 now);
bool elec_bully_leader_heard(struct elec_core *c, u64 now);
bool elec_bully_run_begin(struct elec_core *c, u32 suspect,
			  enum elec_bully_suspect how, u64 now);
bool elec_bully_resigned(const struct elec_core *c, const struct elec_msg *msg);
bool elec_bully_detect_expired(struct elec_core *c, u32 *suspect, u64 now);
void elec_bully_asked_down(struct elec_core *c, u64 now);
void elec_bully_heartbeat(struct elec_core *c, u64 now);
void elec_bully_stop(struct elec_core *c, u64 now);
void elec_bully_lead(struct elec_core *c, u64 term, u64 now);
bool elec_bully_run_ignores(const struct elec_core *c, u32 k, u64 term);
enum elec_bully_heard elec_bully_announced(struct elec_core *c,
					   const struct elec_msg *msg, u32 k,
					   u64 now);

#endif /* _ELEC_BULLY_H */
