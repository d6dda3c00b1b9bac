/* SPDX-License-Identifier: GPL-2.0 */
/*
 * election.ko: delivery queues that keep their order across CPUs.
 */
#ifndef _ELEC_FIFO_H
#define _ELEC_FIFO_H

#include <linux/skbuff.h>

#include "types.h"

void elec_fifo_init(struct elec_fifo *f);
void elec_fifo_drain(struct elec_fifo *f,
		     void (*deliver)(struct sk_buff *skb, void *ctx),
		     void *ctx);
void elec_fifo_purge(struct elec_fifo *f);

#endif /* _ELEC_FIFO_H */
