/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The ring algorithms' shared machinery (ring.c): ring order by position,
 * acknowledged hops with retry to the next live position, election runs,
 * the leader's heartbeats and the failure detector. Each ring algorithm
 * (ring_cr.c, ring_all.c, ring_list.c) adds what its texts define: the
 * ELECTION and COORDINATOR payloads and what a node does with them.
 */
#ifndef _ELEC_RING_H
#define _ELEC_RING_H

#include "detect.h"

/*
 * The ring algorithms' timers, besides the shared heartbeat and detect:
 * ACK: the hop in flight was not acknowledged within the hop timeout,
 * pass the message to the next live position; ROUND: a run this node
 * takes part in did not end within a round, begin a new one.
 */
#define ELEC_RING_TIMER_ACK	ELEC_TIMER_ALGO0
#define ELEC_RING_TIMER_ROUND	ELEC_TIMER_ALGO1
/* the waits for a frame (elec_timer_awaits_rx()): an ack, a run's end */
#define ELEC_RING_WAIT_TIMERS	((1U << ELEC_RING_TIMER_ACK) | \
				 (1U << ELEC_RING_TIMER_ROUND))

extern const char *const elec_ring_timer_names[ELEC_TIMER_COUNT];

/**
 * struct elec_ring_algo - a ring algorithm: its ops table and its hooks.
 * @ops: the table registered in core.c: ring.c's op functions, and a
 *	payload_ok that calls elec_ring_payload_check() with this table
 * @new_run: optional: reset the algorithm's per-run state (a newer run
 *	was seen or begun); the participant flag is already cleared
 * @begin: queue the initiator's first ELECTION for the run c->ring.run
 * @election: an ELECTION of the current run arrived (acknowledged
 *	already); @body and @len are the payload after the hop number
 * @coordinator: a COORDINATOR arrived (acknowledged already); same
 * @body_ok: whether @len bytes after the hop number are a valid payload
 *	for ELECTION or COORDINATOR @type
 */
struct elec_ring_algo {
	struct elec_algo_ops ops;
	void (*new_run)(struct elec_core *c);
	void (*begin)(struct elec_core *c, u64 now);
	void (*election)(struct elec_core *c, const struct elec_msg *msg,
			 const u8 *body, u16 len, u64 now);
	void (*coordinator)(struct elec_core *c, const struct elec_msg *msg,
			    const u8 *body, u16 len, u64 now);
	bool (*body_ok)(u8 type, const u8 *body, u16 len);
};

extern const struct elec_ring_algo elec_ring_cr;
extern const struct elec_ring_algo elec_ring_all;
extern const struct elec_ring_algo elec_ring_list;

/* the op functions every ring algorithm's table uses */
void elec_ring_start(struct elec_core *c, u64 now);
void elec_ring_stop(struct elec_core *c, u64 now);
void elec_ring_elect(struct elec_core *c, u64 now);
void elec_ring_rx(struct elec_core *c, const struct elec_msg *msg, u64 now);
void elec_ring_timer(struct elec_core *c, enum elec_timer_id id, u64 now);
void elec_ring_silent(struct elec_core *c, u64 now);
void elec_ring_set_queue(struct elec_core *c, void *buf, u32 cap);
void elec_ring_config_changed(struct elec_core *c,
			      const struct elec_config *cfg);
void elec_ring_standby(struct elec_core *c, u64 now);
bool elec_algo_is_ring(u8 algo);
bool elec_ring_payload_check(const struct elec_ring_algo *ra, u8 type,
			     const u8 *payload, u16 len);

/* for the algorithms */
void elec_ring_begin(struct elec_core *c, bool force, u64 now);
u8 *elec_ring_put(struct elec_core *c, u8 type, u64 term, u32 owner,
		  u16 len);
void elec_ring_flush(struct elec_core *c, u64 now);
void elec_ring_participate(struct elec_core *c, u64 now);
bool elec_ring_stale(struct elec_core *c, u32 leader, u64 term);
void elec_ring_accept(struct elec_core *c, u32 leader, u64 term, u64 now);
bool elec_ring_known(struct elec_core *c, u32 id);
void elec_ring_stand_aside(struct elec_core *c, u64 now);
bool elec_ring_may_lead(const struct elec_core *c, u32 leader);

/* big-endian helpers for payloads: core.h's */
#define elec_ring_get32	elec_get32
#define elec_ring_put32	elec_put32

#endif /* _ELEC_RING_H */
