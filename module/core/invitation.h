/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The Invitation algorithm's names that its tests and the simulator share
 * with invitation.c: its timers and its per-peer bits.
 */
#ifndef _ELEC_INVITATION_H
#define _ELEC_INVITATION_H

#include "detect.h"

/*
 * The Invitation algorithm's timers, besides the shared heartbeat
 * (coordinator) and detect (member): SEARCH: a coordinator's search
 * period; REPLY: the search's reply window (T, or widened: see
 * ELEC_INV_WIN_SHIFT_MAX); ACCEPT: the merging coordinator's accept
 * window (the same), or an accepting node's wait for READY (coord-timeout,
 * at least two of the accept windows the INVITE states).
 */
#define ELEC_INV_TIMER_SEARCH	ELEC_TIMER_ALGO0
#define ELEC_INV_TIMER_REPLY	ELEC_TIMER_ALGO1
#define ELEC_INV_TIMER_ACCEPT	ELEC_TIMER_ALGO2
/* the waits for a frame (elec_timer_awaits_rx()): replies, an accept */
#define ELEC_INV_WAIT_TIMERS	((1U << ELEC_INV_TIMER_REPLY) | \
				 (1U << ELEC_INV_TIMER_ACCEPT))

/* peer->flags */
#define ELEC_INV_PEER_MEMBER		0x01	/* in the local node's group */
#define ELEC_INV_PEER_FOUND		0x02	/* lower coordinator this search found */
#define ELEC_INV_PEER_REPLIED	0x04	/* member that answered this search */
#define ELEC_INV_PEER_ACCEPTED	0x08	/* accepted the local node's merge */
/* answered this search in time; answered the last one in time */
#define ELEC_INV_PEER_ANSWERED		0x10
#define ELEC_INV_PEER_ANSWERED_LAST	0x20

/* the Invitation algorithm's table, registered in core.c's elec_algos[] */
extern const struct elec_algo_ops elec_invitation_ops;

#endif /* _ELEC_INVITATION_H */
