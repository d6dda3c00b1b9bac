// SPDX-License-Identifier: GPL-2.0
/*
 * election.ko: per network namespace state (pernet_operations).
 *
 * Every namespace keeps its instances in one list sorted by (ifindex,
 * group): the receive path walks it under RCU, dumps resume from a key,
 * and all changes happen under the namespace's mutex. Leaving a namespace
 * destroys whatever instance is left in it (normally none: the devices
 * go first, and the NETDEV notifier destroys their instances).
 */
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/netdevice.h>
#include <linux/rculist.h>
#include <linux/spinlock.h>
#include <net/net_namespace.h>
#include <net/netns/generic.h>

#include "instance.h"
#include "netns.h"
#include "types.h"

static unsigned int elec_net_id __read_mostly;

/**
 * elec_net() - the election state of a network namespace.
 * @net: the namespace
 *
 * Return: its struct elec_net (valid while the namespace lives and the
 * module's pernet operations are registered).
 */
struct elec_net *elec_net(const struct net *net)
{
	return net_generic(net, elec_net_id);
}

/* Compare the keys (a_ifindex, a_group) and (b_ifindex, b_group). */
static int elec_key_cmp(int a_ifindex, u16 a_group, int b_ifindex,
			u16 b_group)
{
	if (a_ifindex != b_ifindex)
		return a_ifindex < b_ifindex ? -1 : 1;
	if (a_group != b_group)
		return a_group < b_group ? -1 : 1;
	return 0;
}

/**
 * elec_net_find() - look an instance up by device index and group.
 * @en: namespace state
 * @ifindex: device index
 * @group: group id
 *
 * Context: hold @en->lock or rcu_read_lock().
 * Return: the instance, or NULL.
 */
struct elec_instance *elec_net_find(struct elec_net *en, int ifindex,
				    u16 group)
{
	struct elec_instance *inst;

	list_for_each_entry_rcu(inst, &en->instances, list,
				elec_net_lockdep_held(en)) {
		int c = elec_key_cmp(inst->ifindex, inst->group, ifindex,
				     group);

		if (c == 0)
			return inst;
		if (c > 0)
			break;
	}
	return NULL;
}

/**
 * elec_net_find_dev() - look an instance up by device and group.
 * @en: namespace state
 * @dev: the device
 * @group: group id
 *
 * Context: hold @en->lock or rcu_read_lock().
 * Return: the instance, or NULL.
 */
struct elec_instance *elec_net_find_dev(struct elec_net *en,
					const struct net_device *dev,
					u16 group)
{
	struct elec_instance *inst = elec_net_find(en, dev->ifindex, group);

	return inst && inst->dev == dev ? inst : NULL;
}

/**
 * elec_net_next() - the first instance whose key follows a given key.
 * @en: namespace state
 * @ifindex: device index of the key
 * @group: group id of the key
 *
 * Dumps resume from the last key they reported, so instances created or
 * deleted between two dump calls never make a dump skip or repeat another.
 *
 * Context: hold @en->lock or rcu_read_lock().
 * Return: the instance, or NULL when none follows.
 */
struct elec_instance *elec_net_next(struct elec_net *en, int ifindex,
				    u16 group)
{
	struct elec_instance *inst;

	list_for_each_entry_rcu(inst, &en->instances, list,
				elec_net_lockdep_held(en)) {
		if (elec_key_cmp(inst->ifindex, inst->group, ifindex,
				 group) > 0)
			return inst;
	}
	return NULL;
}

/**
 * elec_net_insert() - publish a new instance in its namespace's list.
 * @en: namespace state
 * @inst: the instance; its key must not be in the list yet
 *
 * Context: hold @en->lock.
 */
void elec_net_insert(struct elec_net *en, struct elec_instance *inst)
{
	struct elec_instance *pos;

	lockdep_assert_held(&en->lock);

	list_for_each_entry(pos, &en->instances, list) {
		if (elec_key_cmp(pos->ifindex, pos->group, inst->ifindex,
				 inst->group) > 0) {
			/* insert before the first larger key */
			list_add_tail_rcu(&inst->list, &pos->list);
			return;
		}
	}
	list_add_tail_rcu(&inst->list, &en->instances);
}

static int __net_init elec_net_init(struct net *net)
{
	struct elec_net *en = elec_net(net);

	en->net = net;
	mutex_init(&en->lock);
	INIT_LIST_HEAD(&en->instances);
	spin_lock_init(&en->ev_lock);
	en->ev_seq = 0;
	return 0;
}

static void __net_exit elec_net_exit(struct net *net)
{
	struct elec_net *en = elec_net(net);
	struct elec_instance *inst, *tmp;

	mutex_lock(&en->lock);
	list_for_each_entry_safe(inst, tmp, &en->instances, list)
		elec_inst_destroy(inst);
	mutex_unlock(&en->lock);
	mutex_destroy(&en->lock);
}

static struct pernet_operations elec_net_ops = {
	.init = elec_net_init,
	.exit = elec_net_exit,
	.id = &elec_net_id,
	.size = sizeof(struct elec_net),
};

/**
 * elec_netns_init() - register the per-namespace state.
 *
 * Return: 0 or a negative errno.
 */
int elec_netns_init(void)
{
	/*
	 * A subsystem, not a device: when a namespace goes away its devices
	 * are unregistered first, so the NETDEV notifier has destroyed
	 * their instances before elec_net_exit() runs.
	 */
	return register_pernet_subsys(&elec_net_ops);
}

/**
 * elec_netns_exit() - destroy every instance in every namespace and
 * unregister the per-namespace state.
 */
void elec_netns_exit(void)
{
	unregister_pernet_subsys(&elec_net_ops);
}
