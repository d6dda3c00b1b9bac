// SPDX-License-Identifier: GPL-2.0
/*
 * election.ko: coordinator election in the kernel.
 *
 * Module init and exit. Registration order: per-namespace state, the
 * instances' pernet operations (after the state's, so that a namespace's
 * instances are destroyed before its state goes), the NETDEV notifier,
 * the generic netlink family, and last the receive handler, so nothing
 * can reach an instance before everything it needs exists. Exit undoes
 * it in reverse:
 *  1. receive handler removed (dev_remove_pack() waits for handlers);
 *  2. netlink family unregistered (waits for requests in progress; no
 *     event is multicast afterwards);
 *  3. notifier unregistered: the replayed NETDEV_UNREGISTER destroys every
 *     instance (timers cancelled with hrtimer_cancel(), devices released);
 *  4. the instances' pernet operations unregistered (destroy anything
 *     left), then the per-namespace state (each namespace's event queue
 *     stopped); the timer kthread worker and workqueue destroyed
 *     (timer.c);
 *  5. rcu_barrier() for RCU callbacks still queued: instances are freed
 *     by work queued after a grace period (queue_rcu_work());
 *  6. the module's workqueue destroyed, which runs those frees first.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/bug.h>
#include <linux/if_ether.h>
#include <linux/init.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/printk.h>
#include <linux/rcupdate.h>
#include <net/genetlink.h>
#include <linux/election.h>

#include "fifo.h"
#include "instance.h"
#include "main.h"
#include "netlink.h"
#include "netns.h"
#include "notifier.h"
#include "rx.h"
#include "timer.h"
#include "types.h"

u16 elec_ethertype __read_mostly = ELECTION_ETHERTYPE;
module_param_named(ethertype, elec_ethertype, ushort, 0444);
MODULE_PARM_DESC(ethertype,
		 "EtherType of election frames (default 0x88B5, IEEE local experimental)");

bool elec_userns_admin;
module_param_named(userns_admin, elec_userns_admin, bool, 0644);
MODULE_PARM_DESC(userns_admin,
		 "Let CAP_NET_ADMIN over a network namespace's own user namespace change its instances (default 0: CAP_NET_ADMIN in the initial user namespace only)");

unsigned int elec_userns_max_instances = 64;
module_param_named(userns_max_instances, elec_userns_max_instances, uint,
		   0644);
MODULE_PARM_DESC(userns_max_instances,
		 "With userns_admin: most instances per network namespace for such callers (default 64)");

unsigned int elec_userns_min_interval_us = 1000;
module_param_named(userns_min_interval_us, elec_userns_min_interval_us,
		   uint, 0644);
MODULE_PARM_DESC(userns_min_interval_us,
		 "With userns_admin: shortest hb-interval, timeout and coord-timeout such callers may set, in us (default 1000)");

unsigned int elec_userns_max_total = 256;
module_param_named(userns_max_total, elec_userns_max_total, uint, 0644);
MODULE_PARM_DESC(userns_max_total,
		 "With userns_admin: most instances such callers may have in all network namespaces together (default 256)");

/* the instances userns_admin callers created, in every namespace */
atomic_t elec_userns_total = ATOMIC_INIT(0);

unsigned int elec_debug_timer_delay_us;
module_param_named(debug_timer_delay_us, elec_debug_timer_delay_us, uint,
		   0600);
MODULE_PARM_DESC(debug_timer_delay_us,
		 "Debug only: busy-wait this long (us, at most 10000) between a timer's protocol step that reported events and the delivery of its frames and events (default 0)");

unsigned int elec_debug_timer_busy_us;
module_param_named(debug_timer_busy_us, elec_debug_timer_busy_us, uint,
		   0600);
MODULE_PARM_DESC(debug_timer_busy_us,
		 "Debug only: busy-wait this long (us, at most 10000) after every timer's protocol step, as a slow machine would take (default 0)");

atomic_long_t elec_live_instances = ATOMIC_LONG_INIT(0);
atomic_long_t elec_live_peers = ATOMIC_LONG_INIT(0);
atomic_long_t elec_live_skbs = ATOMIC_LONG_INIT(0);

static int __init elec_init(void)
{
	int err;

	BUILD_BUG_ON(ELEC_MAX_PEERS + 1 != ELECTION_MAX_NODES);
	BUILD_BUG_ON(ELEC_LLADDR_LEN != ETH_ALEN);

	if (elec_ethertype < ETH_P_802_3_MIN) {
		pr_err("ethertype 0x%04x is a length, not an EtherType (minimum 0x%04x)\n",
		       elec_ethertype, ETH_P_802_3_MIN);
		return -EINVAL;
	}

	err = elec_fifo_wq_init();
	if (err)
		return err;
	err = elec_timer_init();
	if (err)
		goto err_wq;
	err = elec_netns_init();
	if (err)
		goto err_timer;
	err = elec_inst_init();
	if (err)
		goto err_netns;
	err = elec_notifier_init();
	if (err)
		goto err_inst;
	err = elec_nl_init();
	if (err)
		goto err_notifier;
	elec_rx_init();

	pr_info("loaded, ethertype 0x%04x\n", elec_ethertype);
	return 0;

err_notifier:
	elec_notifier_exit();
err_inst:
	elec_inst_exit();
err_netns:
	elec_netns_exit();
err_timer:
	elec_timer_exit();
err_wq:
	elec_fifo_wq_exit();
	return err;
}

static void __exit elec_exit(void)
{
	elec_rx_exit();
	elec_nl_exit();
	elec_notifier_exit();
	elec_inst_exit();
	elec_netns_exit();
	elec_timer_exit();	/* every instance's timers are cancelled */
	rcu_barrier();		/* queue_rcu_work()'s grace periods */
	elec_fifo_wq_exit();	/* runs the frees they queued */

	WARN(atomic_long_read(&elec_live_instances) ||
	     atomic_long_read(&elec_live_peers) ||
	     atomic_long_read(&elec_live_skbs) ||
	     atomic_read(&elec_userns_total),
	     KBUILD_MODNAME ": leak at exit: %ld instances, %ld peers, %ld skbs, %d userns\n",
	     atomic_long_read(&elec_live_instances),
	     atomic_long_read(&elec_live_peers),
	     atomic_long_read(&elec_live_skbs),
	     atomic_read(&elec_userns_total));
}

module_init(elec_init);
module_exit(elec_exit);

MODULE_LICENSE("GPL");
MODULE_VERSION(ELECTION_VERSION);
/* the first request for the family loads an installed module */
MODULE_ALIAS_GENL_FAMILY(ELECTION_GENL_NAME);
MODULE_DESCRIPTION("Coordinator election (Bully and two variants, ring elections) over Ethernet");
MODULE_AUTHOR("election contributors");
