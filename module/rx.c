// SPDX-License-Identifier: GPL-2.0
/*
 * election.ko: receiving frames.
 *
 * One packet_type for our EtherType on every device of every namespace.
 * A frame is made private (skb_share_check), its header and payload are
 * pulled into the linear area, and the core's codec decodes it. It then
 * goes to the instance of its (device, group), looked up under RCU.
 *
 * Drops that belong to no instance are counted on every instance of the
 * receiving device: a malformed frame as ELEC_DROP_MALFORMED, a frame for
 * a group that has no instance on the device as ELEC_DROP_WRONG_GROUP.
 * Frames on a device with no instance are dropped without a count; so
 * are frames for another host's MAC (promiscuous mode) and frames that
 * cannot be pulled for lack of memory. Every other drop reason is counted
 * by the core.
 */
#include <linux/if_ether.h>
#include <linux/netdevice.h>
#include <linux/rculist.h>
#include <linux/skbuff.h>

#include "compat.h"
#include "instance.h"
#include "main.h"
#include "netns.h"
#include "rx.h"
#include "types.h"

/* Offset of the payload_len field in our header (see the uapi). */
#define ELEC_HDR_PAYLOAD_LEN_OFF	6

/* Count @reason on every live instance of @dev. Context: RCU. */
static void elec_rx_drop_all(struct elec_net *en,
			     const struct net_device *dev,
			     enum elec_drop reason)
{
	struct elec_instance *inst;

	list_for_each_entry_rcu(inst, &en->instances, list) {
		if (inst->dev == dev)
			elec_inst_count_drop(inst, reason);
	}
}

static int elec_rx(struct sk_buff *skb, struct net_device *dev,
		   struct packet_type *pt, struct net_device *orig_dev)
{
	struct elec_instance *inst;
	struct elec_net *en;
	struct elec_msg msg;
	unsigned int len;
	u16 payload_len;

	skb = skb_share_check(skb, GFP_ATOMIC);
	if (!skb)
		return NET_RX_DROP;

	if (skb->pkt_type == PACKET_OTHERHOST)
		goto drop;

	en = elec_net(dev_net(dev));

	if (!pskb_may_pull(skb, ELECTION_HDR_LEN)) {
		if (skb->len < ELECTION_HDR_LEN)
			goto malformed;
		goto drop;	/* no memory */
	}

	/*
	 * Pull the payload too, but not the Ethernet padding; a length
	 * beyond the frame is left for the decoder to reject.
	 */
	payload_len = get_unaligned_be16(skb->data + ELEC_HDR_PAYLOAD_LEN_OFF);
	len = min_t(unsigned int, skb->len, ELECTION_HDR_LEN + payload_len);
	if (!pskb_may_pull(skb, len))
		goto drop;

	if (elec_codec_decode(skb->data, len, &msg) != ELEC_DECODE_OK)
		goto malformed;

	inst = elec_net_find_dev(en, dev, msg.group);
	if (!inst) {
		elec_rx_drop_all(en, dev, ELEC_DROP_WRONG_GROUP);
		goto drop;
	}

	elec_inst_rx(inst, &msg);
	consume_skb(skb);
	return NET_RX_SUCCESS;

malformed:
	elec_rx_drop_all(en, dev, ELEC_DROP_MALFORMED);
drop:
	kfree_skb(skb);
	return NET_RX_DROP;
}

static struct packet_type elec_packet_type __read_mostly = {
	.func = elec_rx,
};

/**
 * elec_rx_init() - start receiving frames of the module's EtherType.
 *
 * Called last in module init, when every instance structure can be
 * created and found.
 */
void elec_rx_init(void)
{
	elec_packet_type.type = htons(elec_ethertype);
	dev_add_pack(&elec_packet_type);
}

/**
 * elec_rx_exit() - stop receiving; on return no receive handler runs.
 */
void elec_rx_exit(void)
{
	/* dev_remove_pack() waits for running handlers (synchronize_net) */
	dev_remove_pack(&elec_packet_type);
}
