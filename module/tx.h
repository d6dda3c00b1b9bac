/* SPDX-License-Identifier: GPL-2.0 */
/*
 * election.ko: building and transmitting frames.
 */
#ifndef _ELEC_TX_H
#define _ELEC_TX_H

#include "types.h"

void elec_tx_build(struct elec_instance *inst, const struct elec_msg *msg,
		   struct elec_actx *ax);
void elec_tx_xmit(struct sk_buff *skb, void *ctx);
void elec_tx_drain(struct elec_instance *inst);

#endif /* _ELEC_TX_H */
