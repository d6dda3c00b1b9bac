/* SPDX-License-Identifier: GPL-2.0 */
/*
 * election.ko: delivery queues that keep their order across CPUs.
 */
#ifndef _ELEC_FIFO_H
#define _ELEC_FIFO_H

#include <linux/skbuff.h>
#include <linux/workqueue.h>

#include "types.h"

/* Items one drain delivers before it hands the rest to a work item. */
#define ELEC_FIFO_BUDGET	64
/*
 * Most frames an instance's queue holds: a Bully election sends at most
 * 255 frames in one call, an enh-bully stage 128, min-bully broadcasts.
 */
#define ELEC_TXQ_LIMIT		1024
/* Most events a namespace's queue holds. */
#define ELEC_EVENTS_LIMIT	8192

void elec_fifo_init(struct elec_fifo *f, u32 limit,
		    void (*deliver)(struct sk_buff *skb, void *ctx),
		    void *ctx);
bool elec_fifo_room(const struct elec_fifo *f);
void elec_fifo_drain(struct elec_fifo *f);
void elec_fifo_flush(struct elec_fifo *f);
void elec_fifo_stop(struct elec_fifo *f);
int elec_fifo_wq_init(void);
void elec_fifo_wq_exit(void);
struct workqueue_struct *elec_fifo_wq(void);

#endif /* _ELEC_FIFO_H */
