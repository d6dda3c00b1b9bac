// SPDX-License-Identifier: GPL-2.0
/*
 * election.ko: per network namespace state (pernet_operations).
 *
 * A namespace keeps its instances in two levels of xarrays: the devices
 * that have instances by ifindex (struct elec_dev), and each device's
 * instances by group id. The receive path finds the instance of a frame
 * in two lookups under RCU, whatever the number of instances; dumps walk
 * both levels in (ifindex, group) order from the key they stopped at; all
 * changes happen under the namespace's mutex. Instances are destroyed
 * elsewhere, those left when a namespace goes away too: by pernet
 * operations registered after these, whose exit therefore runs first.
 */
#include <linux/mutex.h>
#include <linux/netdevice.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/xarray.h>
#include <net/net_namespace.h>
#include <net/netns/generic.h>

#include "event.h"
#include "fifo.h"
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

/**
 * elec_net_dev() - the instances of a device.
 * @en: namespace state
 * @dev: the device
 *
 * Context: hold @en->lock or rcu_read_lock().
 * Return: the device's entry, or NULL when it has no instance.
 */
struct elec_dev *elec_net_dev(struct elec_net *en,
			      const struct net_device *dev)
{
	struct elec_dev *edev = xa_load(&en->devs, dev->ifindex);

	return edev && edev->dev == dev ? edev : NULL;
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
	struct elec_dev *edev;

	if (ifindex <= 0)
		return NULL;
	edev = xa_load(&en->devs, ifindex);
	return edev ? xa_load(&edev->groups, group) : NULL;
}

/**
 * elec_net_next() - the next instance in (ifindex, group) order.
 * @en: namespace state
 * @ifindex: device index to start at (inclusive), updated to the found
 *	instance's
 * @group: group id to start at (inclusive) on device @ifindex, updated
 * @only_ifindex: 0, or the only device index to consider
 * @only_group: 0, or the only group id to consider
 *
 * Each call costs O(log n) per device visited; with @only_group set a
 * device costs one lookup. Dumps resume from the key after the last one
 * they reported, so instances created or deleted between two dump calls
 * never make a dump skip or repeat another.
 *
 * Context: hold @en->lock or rcu_read_lock().
 * Return: the instance, or NULL when none is left.
 */
struct elec_instance *elec_net_next(struct elec_net *en,
				    unsigned long *ifindex,
				    unsigned long *group, int only_ifindex,
				    u16 only_group)
{
	unsigned long i = *ifindex, last_i = ULONG_MAX;
	unsigned long g = *group;
	struct elec_instance *inst;
	struct elec_dev *edev;

	if (only_ifindex) {
		if (i > only_ifindex)
			return NULL;
		if (i < only_ifindex)
			g = 0;
		i = only_ifindex;
		last_i = only_ifindex;
	}
	while ((edev = xa_find(&en->devs, &i, last_i, XA_PRESENT))) {
		unsigned long last_g = U16_MAX;

		/* the cursor's device is gone: a later one, from its start */
		if (i != *ifindex)
			g = 0;

		if (only_group) {
			/* past the filtered group: xa_find() finds nothing */
			g = max_t(unsigned long, g, only_group);
			last_g = only_group;
		}
		inst = xa_find(&edev->groups, &g, last_g, XA_PRESENT);
		if (inst) {
			*ifindex = i;
			*group = g;
			return inst;
		}
		if (i == last_i)
			break;
		i++;
		g = 0;
	}
	return NULL;
}

/**
 * elec_net_insert() - publish a new instance in its namespace.
 * @en: namespace state
 * @inst: the instance (inst->dev, ifindex and group set); its key must
 *	not be in use
 *
 * Creates the device's entry on its first instance and sets @inst->edev.
 *
 * Context: process context, holding @en->lock.
 * Return: 0, -EEXIST, or -ENOMEM.
 */
int elec_net_insert(struct elec_net *en, struct elec_instance *inst)
{
	struct elec_dev *edev;
	bool fresh = false;
	int err;

	lockdep_assert_held(&en->lock);

	int r;

	edev = xa_load(&en->devs, inst->ifindex);
	if (edev && edev->dev != inst->dev)
		return -EEXIST;	/* cannot happen: the old device is gone */
	if (!edev) {
		edev = kzalloc(sizeof(*edev), GFP_KERNEL_ACCOUNT);
		if (!edev)
			return -ENOMEM;
		edev->dev = inst->dev;
		edev->ifindex = inst->ifindex;
		xa_init(&edev->groups);
		err = xa_insert(&en->devs, inst->ifindex, edev,
				GFP_KERNEL_ACCOUNT);
		if (err) {
			kfree(edev);
			return err == -EBUSY ? -EEXIST : err;
		}
		fresh = true;
	}
	/*
	 * Everything a lockless reader (receive, dumps) reads of the instance
	 * is set before the store below publishes it: its device entry, and
	 * the device's drops so far, which it does not report.
	 */
	inst->edev = edev;
	for (r = 0; r <= ELEC_DROP_MAX; r++)
		inst->drops_base[r] = atomic64_read(&edev->drops[r]);
	err = xa_insert(&edev->groups, inst->group, inst, GFP_KERNEL_ACCOUNT);
	if (err) {
		inst->edev = NULL;
		if (fresh)
			elec_net_dev_release(en, edev);
		return err == -EBUSY ? -EEXIST : err;
	}
	edev->n_instances++;
	en->n_instances++;
	return 0;
}

/**
 * elec_net_remove() - unpublish an instance.
 * @en: namespace state
 * @inst: the instance, published with elec_net_insert()
 *
 * Readers that found it under RCU may still use it until a grace period
 * has passed. The device's entry stays (see elec_net_dev_release()).
 *
 * Context: holding @en->lock.
 */
void elec_net_remove(struct elec_net *en, struct elec_instance *inst)
{
	lockdep_assert_held(&en->lock);

	xa_erase(&inst->edev->groups, inst->group);
	inst->edev->n_instances--;
	en->n_instances--;
}

/**
 * elec_net_dev_release() - drop a device's entry once it has no instance.
 * @en: namespace state
 * @edev: the entry
 *
 * Does nothing while the device still has instances; otherwise the entry
 * is unpublished and freed after an RCU grace period.
 *
 * Context: holding @en->lock.
 */
void elec_net_dev_release(struct elec_net *en, struct elec_dev *edev)
{
	lockdep_assert_held(&en->lock);

	if (edev->n_instances)
		return;
	xa_erase(&en->devs, edev->ifindex);
	xa_destroy(&edev->groups);
	kfree_rcu(edev, rcu);
}

static int __net_init elec_net_init(struct net *net)
{
	struct elec_net *en = elec_net(net);

	en->net = net;
	mutex_init(&en->lock);
	xa_init(&en->devs);
	en->n_instances = 0;
	en->ev_seq = 0;
	elec_fifo_init(&en->events, ELEC_EVENTS_LIMIT, elec_event_send, en);
	return 0;
}

static void __net_exit elec_net_exit(struct net *net)
{
	struct elec_net *en = elec_net(net);

	/* the instances' own pernet exit, which runs first, left none */
	WARN_ON_ONCE(en->n_instances);
	xa_destroy(&en->devs);
	/*
	 * Nothing appends any more: the instances are gone, and whoever was
	 * delivering when the last one went has returned (timers cancelled,
	 * netlink commands of this namespace done, the devices' receive
	 * handlers done before their unregistration); only the queue's work
	 * item may still run.
	 */
	elec_fifo_stop(&en->events);
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
 * elec_netns_exit() - unregister the per-namespace state, once every
 * instance is destroyed.
 */
void elec_netns_exit(void)
{
	unregister_pernet_subsys(&elec_net_ops);
}
