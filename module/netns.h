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
struct elec_dev *elec_net_dev(struct elec_net *en,
			      const struct net_device *dev);
struct elec_instance *elec_net_find(struct elec_net *en, int ifindex,
				    u16 group);
struct elec_instance *elec_net_next(struct elec_net *en,
				    unsigned long *ifindex,
				    unsigned long *group, int only_ifindex,
				    u16 only_group);
int elec_net_insert(struct elec_net *en, struct elec_instance *inst);
void elec_net_remove(struct elec_net *en, struct elec_instance *inst);
void elec_net_dev_release(struct elec_net *en, struct elec_dev *edev);
int elec_netns_init(void);
void elec_netns_exit(void);

#endif /* _ELEC_NETNS_H */
