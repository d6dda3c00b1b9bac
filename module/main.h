/* SPDX-License-Identifier: GPL-2.0 */
/*
 * election.ko: module-wide parameters and leak accounting.
 */
#ifndef _ELEC_MAIN_H
#define _ELEC_MAIN_H

#include <linux/atomic.h>
#include <linux/types.h>

/* The EtherType of our frames (module parameter "ethertype"). */
extern u16 elec_ethertype;

/*
 * Leak accounting, read by ELEC_CMD_MODULE_GET: live instances, configured
 * peers, and skbs allocated by the module (frames and event messages) that
 * were neither handed to the device or netlink layer nor freed yet.
 */
extern atomic_long_t elec_live_instances;
extern atomic_long_t elec_live_peers;
extern atomic_long_t elec_live_skbs;

#endif /* _ELEC_MAIN_H */
