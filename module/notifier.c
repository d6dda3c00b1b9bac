// SPDX-License-Identifier: GPL-2.0
/*
 * election.ko: following network devices (NETDEV notifier).
 *
 * Device down or carrier lost: the device's instances stop silently, like
 * crashed nodes (timers cancelled, nothing sent); they keep their
 * administrative state. Device up with carrier: instances the
 * administrator started start again (learn, then elect). Unregistration,
 * which includes moving the device to another namespace: the device's
 * instances are destroyed.
 *
 * Runs under RTNL and takes the namespace mutex; netlink handlers take
 * the mutex but never RTNL, so the order is always RTNL -> mutex.
 */
#include <linux/if_arp.h>
#include <linux/mutex.h>
#include <linux/netdevice.h>
#include <linux/notifier.h>
#include <linux/rculist.h>

#include "instance.h"
#include "netns.h"
#include "notifier.h"
#include "types.h"

static void elec_notifier_dev(struct net_device *dev, unsigned long event)
{
	struct elec_net *en = elec_net(dev_net(dev));
	struct elec_instance *inst, *tmp;
	bool up;

	switch (event) {
	case NETDEV_GOING_DOWN:
	case NETDEV_DOWN:
		up = false;
		break;
	default:
		up = netif_running(dev) && netif_carrier_ok(dev);
		break;
	}

	mutex_lock(&en->lock);
	list_for_each_entry_safe(inst, tmp, &en->instances, list) {
		if (inst->dev != dev)
			continue;
		if (event == NETDEV_UNREGISTER)
			elec_inst_destroy(inst);
		else
			elec_inst_link_changed(inst, up);
	}
	mutex_unlock(&en->lock);
}

static int elec_notifier_event(struct notifier_block *nb,
			       unsigned long event, void *ptr)
{
	struct net_device *dev = netdev_notifier_info_to_dev(ptr);

	/* instances exist on Ethernet devices only */
	if (dev->type != ARPHRD_ETHER)
		return NOTIFY_DONE;

	switch (event) {
	case NETDEV_UP:
	case NETDEV_GOING_DOWN:
	case NETDEV_DOWN:
	case NETDEV_CHANGE:
	case NETDEV_UNREGISTER:
		elec_notifier_dev(dev, event);
		break;
	}
	return NOTIFY_DONE;
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
