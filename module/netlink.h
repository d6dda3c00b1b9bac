/* SPDX-License-Identifier: GPL-2.0 */
/*
 * election.ko: the "election" generic netlink family.
 */
#ifndef _ELEC_NETLINK_H
#define _ELEC_NETLINK_H

#include "types.h"

int elec_nl_init(void);
void elec_nl_exit(void);
void elec_nl_event_build(struct elec_instance *inst,
			 const struct elec_action *act, struct elec_actx *ax);
void elec_nl_events_queue(struct elec_net *en, struct elec_actx *ax, u8 role);
void elec_nl_events_drain(struct elec_net *en);
void elec_nl_event_send(struct sk_buff *skb, void *ctx);

#endif /* _ELEC_NETLINK_H */
