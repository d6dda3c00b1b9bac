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

/*
 * Privilege (module parameters, read at each request; see
 * Documentation/admin-guide.rst): mutations need CAP_NET_ADMIN in the
 * initial user namespace; with userns_admin, CAP_NET_ADMIN over the
 * network namespace's own user namespace suffices, within
 * userns_max_instances instances per namespace and with durations no
 * shorter than userns_min_interval_us.
 */
extern bool elec_userns_admin;
extern unsigned int elec_userns_max_instances;
extern unsigned int elec_userns_min_interval_us;
extern unsigned int elec_userns_max_total;
extern atomic_t elec_userns_total;

/* Debug only: busy-waits in timer steps (debug_timer_delay_us, _busy_us). */
extern unsigned int elec_debug_timer_delay_us;
extern unsigned int elec_debug_timer_busy_us;
#define ELEC_DEBUG_DELAY_MAX_US	10000

#endif /* _ELEC_MAIN_H */
