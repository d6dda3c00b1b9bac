// SPDX-License-Identifier: GPL-2.0
/*
 * election.ko: following network devices (NETDEV notifier).
 *
 * Every event of a device that has instances reaches them, whatever the
 * device's type now:
 *  - going down (NETDEV_GOING_DOWN, the device can still transmit): a
 *    leader resigns (a HEARTBEAT flagged ELECTION_FLAG_LEAVING, handed to
 *    the device before the notifier returns), then the instances stop;
 *    not when the namespace is being dismantled, which stays silent like
 *    a crash. Module unload gets here too: unregistering the notifier
 *    replays NETDEV_GOING_DOWN for every device that is up.
 *  - carrier lost: the instances stop silently, like crashed nodes
 *    (timers cancelled, nothing sent); they keep their administrative
 *    state. Up with carrier: instances the administrator started start
 *    again (learn, then elect).
 *  - unregistration, which includes moving the device to another
 *    namespace: the instances are destroyed and the device released.
 *  - a change of type (bonding, team, TUNSETLINK): refused while the
 *    device has instances (NETDEV_PRE_TYPE_CHANGE returns NOTIFY_BAD,
 *    -EBUSY to the caller); if a device changes type without asking, its
 *    instances are destroyed when it is no longer Ethernet.
 *  - a change of name or address: the instances' copies follow (replies,
 *    events); frames always carry the current address.
 *  - a change of MTU: transmission checks every frame against the current
 *    MTU (ELEC_TX_DROP_MTU); a group whose largest frame no longer fits is
 *    logged.
 *
 * Runs under RTNL and takes the namespace mutex; GROUP_NEW takes RTNL
 * before the mutex, other netlink handlers only the mutex, so the order
 * is always RTNL -> mutex.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/if_arp.h>
#include <linux/if_ether.h>
#include <linux/mutex.h>
#include <linux/netdevice.h>
#include <linux/notifier.h>
#include <linux/printk.h>
#include <linux/xarray.h>
#include <net/net_namespace.h>

#include "instance.h"
#include "netns.h"
#include "notifier.h"
#include "types.h"

static void elec_notifier_link(struct elec_dev *edev, unsigned long event)
{
	struct net_device *dev = edev->dev;
	struct elec_instance *inst;
	bool resign = false;
	unsigned long group;
	bool up;

	switch (event) {
	case NETDEV_GOING_DOWN:
		/*
		 * The device still transmits: a leader resigns, and its frame
		 * is handed to the device before this returns. Not when the
		 * namespace is being dismantled (its last reference is gone):
		 * that is how the tests crash a node, and a crash is silent.
		 */
		resign = check_net(dev_net(dev));
		fallthrough;
	case NETDEV_DOWN:
		up = false;
		break;
	default:
		up = netif_running(dev) && netif_carrier_ok(dev);
		break;
	}
	xa_for_each(&edev->groups, group, inst)
		elec_inst_link_changed(inst, up, resign);
}

static void elec_notifier_mtu(struct elec_dev *edev)
{
	struct elec_instance *inst;
	unsigned long group;

	xa_for_each(&edev->groups, group, inst)
		if (!elec_inst_mtu_ok(inst))
			pr_warn_ratelimited("%s: MTU %u is too small for the largest frame of group %u; such frames are dropped (tx_drops mtu)\n",
					    edev->dev->name, edev->dev->mtu,
					    inst->group);
}

static int elec_notifier_event(struct notifier_block *nb,
			       unsigned long event, void *ptr)
{
	struct net_device *dev = netdev_notifier_info_to_dev(ptr);
	struct elec_net *en = elec_net(dev_net(dev));
	struct elec_instance *inst;
	struct elec_dev *edev;
	unsigned long group;
	int ret = NOTIFY_DONE;

	switch (event) {
	case NETDEV_UP:
	case NETDEV_GOING_DOWN:
	case NETDEV_DOWN:
	case NETDEV_CHANGE:
	case NETDEV_UNREGISTER:
	case NETDEV_PRE_TYPE_CHANGE:
	case NETDEV_POST_TYPE_CHANGE:
	case NETDEV_CHANGEMTU:
	case NETDEV_CHANGEADDR:
	case NETDEV_CHANGENAME:
		break;
	default:
		return NOTIFY_DONE;
	}

	/*
	 * Devices without instances (most) cost no mutex. Instances are
	 * created under RTNL, which the caller holds: none appears meanwhile.
	 */
	rcu_read_lock();
	edev = elec_net_dev(en, dev);
	rcu_read_unlock();
	if (!edev)
		return NOTIFY_DONE;

	mutex_lock(&en->lock);
	edev = elec_net_dev(en, dev);
	if (!edev)
		goto unlock;

	switch (event) {
	case NETDEV_UNREGISTER:
		elec_inst_destroy_dev(en, edev);
		break;
	case NETDEV_PRE_TYPE_CHANGE:
		/* the instances need an Ethernet device */
		ret = notifier_from_errno(-EBUSY);
		break;
	case NETDEV_POST_TYPE_CHANGE:
		if (dev->type != ARPHRD_ETHER || dev->addr_len != ETH_ALEN) {
			pr_warn("%s changed type: its instances are deleted\n",
				dev->name);
			elec_inst_destroy_dev(en, edev);
		}
		break;
	case NETDEV_CHANGEMTU:
		elec_notifier_mtu(edev);
		break;
	case NETDEV_CHANGEADDR:
	case NETDEV_CHANGENAME:
		xa_for_each(&edev->groups, group, inst)
			elec_inst_dev_changed(inst);
		break;
	default:
		elec_notifier_link(edev, event);
		break;
	}
unlock:
	mutex_unlock(&en->lock);
	return ret;
}

static struct notifier_block elec_notifier = {
	.notifier_call = elec_notifier_event,
};

/**
 * elec_notifier_init() - follow network devices.
 *
 * Return: 0 or a negative errno.
 */
int elec_notifier_init(void)
{
	return register_netdevice_notifier(&elec_notifier);
}

/**
 * elec_notifier_exit() - stop following network devices.
 *
 * Unregistering replays NETDEV_DOWN and NETDEV_UNREGISTER for every
 * device, which destroys every instance left.
 */
void elec_notifier_exit(void)
{
	unregister_netdevice_notifier(&elec_notifier);
}
