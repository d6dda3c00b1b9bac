/* SPDX-License-Identifier: GPL-2.0 */
/*
 * election.ko: per network namespace state.
 */
#ifndef _ELEC_NETNS_H
#define _ELEC_NETNS_H

#include <linux/types.h>

#include "types.h"

struct net;
struct net_device;

struct elec_net *elec_net(const struct net *net);
struct elec_instance *elec_net_find(struct elec_net *en, int ifindex,
				    u16 group);
struct elec_instance *elec_net_find_dev(struct elec_net *en,
					const struct net_device *dev,
					u16 group);
struct elec_instance *elec_net_next(struct elec_net *en, int ifindex,
				    u16 group);
void elec_net_insert(struct elec_net *en, struct elec_instance *inst);
int elec_netns_init(void);
void elec_netns_exit(void);

/**
 * elec_net_lockdep_held() - lockdep condition for list walks.
 * @en: namespace state
 *
 * Return: true when @en->lock is held (always true without lockdep).
 */
#define elec_net_lockdep_held(en) lockdep_is_held(&(en)->lock)

#endif /* _ELEC_NETNS_H */
