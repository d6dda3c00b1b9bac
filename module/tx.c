// SPDX-License-Identifier: GPL-2.0
/*
 * election.ko: building and transmitting frames.
 *
 * A frame is built under the instance lock (GFP_ATOMIC) while the core
 * emits it: link-layer headroom, our header and payload written by the
 * core's codec (and, when the group has a key, the MAC of the
 * authentication trailer), then the Ethernet header to the peer's address (unicast)
 * or the device's broadcast address, from the device's current address.
 * Before the lock is dropped it joins the instance's frame queue, which
 * is handed to dev_queue_xmit() in core order after the lock is dropped.
 * A frame that is not transmitted is counted by reason (enum
 * elec_tx_drop): larger than the device's MTU, no memory, or refused by
 * the device layer.
 */
#include <linux/atomic.h>
#include <linux/netdevice.h>
#include <linux/pkt_sched.h>
#include <linux/skbuff.h>

#include "auth.h"
#include "fifo.h"
#include "main.h"
#include "tx.h"
#include "types.h"

static void elec_tx_drop(struct elec_instance *inst, enum elec_tx_drop why)
{
	atomic64_inc(&inst->tx_drops[why]);
}

/**
 * elec_tx_build() - build one frame and collect it for transmission.
 * @inst: the sending instance
 * @msg: the message, from the core's ELEC_ACT_SEND action
 * @ax: the action collector of the current core call
 *
 * Context: under @inst->lock.
 */
void elec_tx_build(struct elec_instance *inst, const struct elec_msg *msg,
		   struct elec_actx *ax)
{
	struct net_device *dev = inst->dev;
	unsigned int len = ELECTION_HDR_LEN + msg->payload_len;
	bool auth = msg->flags & ELECTION_FLAG_AUTH;
	const unsigned char *daddr;
	struct sk_buff *skb;
	u8 *buf;

	lockdep_assert_held(&inst->lock);
	if (auth)
		len += ELECTION_AUTH_LEN;

	if (len > READ_ONCE(dev->mtu)) {
		elec_tx_drop(inst, ELEC_TX_DROP_MTU);
		return;
	}
	if (msg->dst) {
		const struct elec_peer *peer;

		peer = elec_core_peer_find(&inst->core, msg->dst);
		/* the core sends only to peers of its table */
		if (WARN_ON_ONCE(!peer))
			goto fail;
		daddr = peer->lladdr;
	} else {
		daddr = dev->broadcast;
	}

	skb = alloc_skb(LL_RESERVED_SPACE(dev) + len + dev->needed_tailroom,
			GFP_ATOMIC);
	if (!skb)
		goto fail;
	atomic_long_inc(&elec_live_skbs);

	skb_reserve(skb, LL_RESERVED_SPACE(dev));
	skb_reset_network_header(skb);
	buf = skb_put(skb, len);
	if (elec_codec_encode(msg, buf, len) != len)
		goto free;
	/* the core flags frames only while the instance has a key */
	if (auth)
		elec_auth_sign(&inst->key, buf, len);

	skb->dev = dev;
	skb->protocol = htons(elec_ethertype);
	skb->priority = TC_PRIO_CONTROL;
	if (dev_hard_header(skb, dev, elec_ethertype, daddr, NULL,
			    skb->len) < 0)
		goto free;
	skb_reset_mac_header(skb);

	__skb_queue_tail(&ax->tx, skb);
	return;

free:
	kfree_skb(skb);
	atomic_long_dec(&elec_live_skbs);
fail:
	elec_tx_drop(inst, ELEC_TX_DROP_NO_BUFFER);
}

/**
 * elec_tx_xmit() - hand one queued frame to the device layer.
 * @skb: the frame, from the instance's queue
 * @ctx: the sending instance
 *
 * The instance's queue delivers through this (fifo.c).
 *
 * Context: bottom halves disabled, not under the instance lock.
 */
void elec_tx_xmit(struct sk_buff *skb, void *ctx)
{
	struct elec_instance *inst = ctx;
	int rc;

	atomic_long_dec(&elec_live_skbs);
	/* net_xmit_eval() evaluates its argument twice: never pass a call */
	rc = dev_queue_xmit(skb);
	if (net_xmit_eval(rc))
		elec_tx_drop(inst, ELEC_TX_DROP_DEV_XMIT);
}

/**
 * elec_tx_drain() - transmit the instance's queued frames, in order.
 * @inst: the sending instance
 *
 * Context: not under @inst->lock; @inst->dev must stay registered (see
 * elec_inst_unlock()). May run in softirq or process context.
 */
void elec_tx_drain(struct elec_instance *inst)
{
	elec_fifo_drain(&inst->txq);
}
