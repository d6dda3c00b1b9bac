/* SPDX-License-Identifier: GPL-2.0 */
/*
 * election.ko: building and transmitting frames.
 */
#ifndef _ELEC_TX_H
#define _ELEC_TX_H

#include <linux/skbuff.h>

#include "types.h"

void elec_tx_build(struct elec_instance *inst, const struct elec_msg *msg,
		   struct elec_actx *ax);
void elec_tx_flush(struct elec_instance *inst, struct sk_buff_head *q);

#endif /* _ELEC_TX_H */
