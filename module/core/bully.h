/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The Bully family (bully.c, min_bully.c, enh_bully.c): what the three
 * Bully algorithms share: the phases (enum elec_bully_phase, core.h), one
 * timer per phase, the per-run state, what a run does with the peer whose
 * silence started it, quorum (quorum.h), and one receive, timer and
 * detector dispatch (bully.c) that calls each variant's hooks
 * (struct elec_bully_algo).
 */
#ifndef _ELEC_BULLY_H
#define _ELEC_BULLY_H

#include "quorum.h"

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
/* quorum on: the quorum's timers (quorum.h) */
#define ELEC_BULLY_TIMER_ALIVE		ELEC_QUORUM_TIMER_ALIVE
#define ELEC_BULLY_TIMER_LEASE		ELEC_QUORUM_TIMER_LEASE
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
 * struct elec_bully_algo - a Bully algorithm: its ops table and its hooks.
 * @ops: the table registered in core.c: bully.c's family op functions
 *	(elec_bully_elect, _rx, _timer, _silent, _standby, _stop,
 *	_peer_removed) and
 *	the variant's own start, payload_ok and max_payload
 * @begin: begin a run (elec_bully_run_begin() first) with @suspect, the
 *	peer whose silence or resignation started it (0: none), treated as
 *	@how says
 * @take_over: optional: the local node takes over from a worse leader
 *	(preemption); NULL: @begin with no suspect
 * @answer_expired: the wait for answers ran out (the peers still asked
 *	are declared failed already): probe over, next stage, or claim
 * @rx_election: an ELECTION arrived (its sender is marked alive)
 * @rx_answer: an ANSWER arrived (its sender is marked alive)
 * @rx_query: a QUERY arrived (its sender is marked alive); required
 *	when the variant's &elec_algo_ops.msgs has QUERY, else NULL
 * @rx_announce: a COORDINATOR, a HEARTBEAT or (when the variant's
 *	&elec_algo_ops.msgs has it) a CID arrived
 * @coord_of: optional: the coordinator an announcement names (NULL: its
 *	sender); one that is no configured node is dropped as
 *	ELEC_DROP_UNKNOWN_PEER before anything changes
 */
struct elec_bully_algo {
	struct elec_algo_ops ops;
	void (*begin)(struct elec_core *c, u32 suspect,
		      enum elec_bully_suspect how, u64 now);
	void (*take_over)(struct elec_core *c, u64 now);
	void (*answer_expired)(struct elec_core *c, u64 now);
	void (*rx_election)(struct elec_core *c, const struct elec_msg *msg,
			    u64 now);
	void (*rx_answer)(struct elec_core *c, const struct elec_msg *msg,
			  u64 now);
	void (*rx_query)(struct elec_core *c, const struct elec_msg *msg,
			 u64 now);
	void (*rx_announce)(struct elec_core *c, const struct elec_msg *msg,
			    u64 now);
	u32 (*coord_of)(const struct elec_msg *msg);
};

/* the options every Bully algorithm takes (&elec_algo_ops.options) */
#define ELEC_BULLY_OPTIONS	(ELEC_OPT_BIT(ELEC_OPT_ASK_SUSPECT) |	\
				 ELEC_OPT_BIT(ELEC_OPT_PREEMPT) |	\
				 ELEC_OPT_BIT(ELEC_OPT_PREEMPT_DELAY) |	\
				 ELEC_OPT_BIT(ELEC_OPT_QUORUM))

extern const struct elec_bully_algo elec_bully;
extern const struct elec_bully_algo elec_min_bully;
extern const struct elec_bully_algo elec_enh_bully;

/* the family's op functions, in every variant's table */
void elec_bully_elect(struct elec_core *c, u64 now);
void elec_bully_rx(struct elec_core *c, const struct elec_msg *msg, u64 now);
void elec_bully_timer(struct elec_core *c, enum elec_timer_id id, u64 now);
void elec_bully_silent(struct elec_core *c, u64 now);
void elec_bully_standby(struct elec_core *c, u64 now);
void elec_bully_stop(struct elec_core *c, u64 now);
void elec_bully_peer_removed(struct elec_core *c, struct elec_peer *peer,
			     u64 now);
void elec_bully_config_changed(struct elec_core *c,
			       const struct elec_config *cfg);

/* for the variants */
void elec_bully_only_timer(struct elec_core *c, enum elec_timer_id id,
			   u64 delay, u64 now);
void elec_bully_only_watch(struct elec_core *c, u64 now);
void elec_bully_run_clear(struct elec_core *c);
void elec_bully_reset_waits(struct elec_core *c);
void elec_bully_wait_answers(struct elec_core *c, u64 now);
void elec_bully_answered(struct elec_core *c, u64 now);
bool elec_bully_far_behind(const struct elec_core *c, u64 term);
bool elec_bully_trusts_leader(const struct elec_core *c, u64 now);
bool elec_bully_follow(struct elec_core *c, u32 k, u64 term, bool may_run,
		       u64 now);
bool elec_bully_follow_heard(struct elec_core *c, u32 k, u64 term,
			     u64 heard, bool may_run, u64 now);
bool elec_bully_run_begin(struct elec_core *c, u32 suspect,
			  enum elec_bully_suspect how, u64 now);
void elec_bully_lead(struct elec_core *c, u64 term, u64 now);
bool elec_bully_run_ignores(const struct elec_core *c, u32 k, u64 term);
enum elec_bully_heard elec_bully_announced(struct elec_core *c,
					   const struct elec_msg *msg, u32 k,
					   u64 now);

#endif /* _ELEC_BULLY_H */
