/* SPDX-License-Identifier: GPL-2.0 */
/*
 * election.ko: event messages (ELEC_CMD_EVENT): build, queue, multicast.
 */
#ifndef _ELEC_EVENT_H
#define _ELEC_EVENT_H

#include "types.h"

struct genl_family;
struct sk_buff;

/* Index of the "events" group in the family's multicast groups. */
#define ELEC_MCGRP_EVENTS	0

/**
 * struct elec_event_state - an instance's state after a core call, which
 * every event of that call carries.
 * @role: enum elec_role
 * @leader: leader id, 0 = none
 * @term: term
 */
struct elec_event_state {
	u8 role;
	u32 leader;
	u64 term;
};

void elec_event_init(const struct genl_family *family);
void elec_event_exit(void);
void elec_event_build(struct elec_instance *inst,
		      const struct elec_action *act, struct elec_actx *ax);
void elec_event_queue(struct elec_net *en, struct elec_actx *ax,
		      const struct elec_event_state *st);
void elec_event_drain(struct elec_net *en);
void elec_event_send(struct sk_buff *skb, void *ctx);

#endif /* _ELEC_EVENT_H */
