// SPDX-License-Identifier: GPL-2.0
/*
 * election.ko: receiving frames.
 *
 * One packet_type for our EtherType on every device of every namespace.
 * The receiving device's instances are found first (one lookup, RCU); a
 * frame on a device without instances is dropped uncounted. The 24-byte
 * header is pulled into the linear area; a declared payload length beyond
 * ELECTION_MAX_PAYLOAD is malformed before any of the payload is pulled;
 * otherwise the payload is pulled too and the core's codec decodes the
 * frame. The frame then goes, with its
 * Ethernet source address, to the instance of its (device, group): a
 * second lookup.
 *
 * Drops that belong to no instance are counted on the device's entry
 * (struct elec_dev) and reported by every instance of the device: a
 * malformed frame as ELEC_DROP_MALFORMED, a frame flagged authenticated
 * that is too short for its trailer as ELEC_DROP_AUTH_TRUNCATED, a frame
 * for a group that has no instance on the device as ELEC_DROP_WRONG_GROUP.
 * An authenticated frame's MAC is checked with its instance's key, when
 * the core asks for it after its cheaper checks (instance.c). Frames for
 * another
 * host's MAC (promiscuous mode) and frames that cannot be pulled for lack
 * of memory are dropped without a count. Every other drop reason is
 * counted by the core.
 */
#include <linux/atomic.h>
#include <linux/if_ether.h>
#include <linux/netdevice.h>
#include <linux/rcupdate.h>
#include <linux/skbuff.h>

#include "compat.h"
#include "instance.h"
#include "main.h"
#include "netns.h"
#include "rx.h"
#include "trace.h"
#include "types.h"

/* Offsets of the flags and payload_len fields in our header (the uapi). */
#define ELEC_HDR_FLAGS_OFF		3
#define ELEC_HDR_PAYLOAD_LEN_OFF	6

/*
 * The election_drop event of a frame no instance takes. The device's
 * name is copied first, into a buffer of its own size: a rename (under
 * RTNL) may rewrite dev->name while the frame is received, and the event
 * sizes its string from one read and copies it in another, so a name
 * read twice could outgrow its room. The copy may mix the two names; it
 * is always terminated and never longer than IFNAMSIZ.
 */
static void elec_rx_trace_drop(const struct net_device *dev, u16 group,
			       u8 reason, u8 type, u32 src)
{
	char name[IFNAMSIZ];

	if (!trace_election_drop_enabled())
		return;
	/* racy with a rename on purpose: bounded, terminated below */
	data_race(memcpy(name, dev->name, sizeof(name)));
	name[sizeof(name) - 1] = '\0';
	trace_election_drop(name, group, 0, reason, type, src);
}

static int elec_rx(struct sk_buff *skb, struct net_device *dev,
		   struct packet_type *pt, struct net_device *orig_dev)
{
	struct elec_instance *inst;
	struct elec_dev *edev;
	struct elec_msg msg;
	unsigned int len;
	u16 payload_len;

	skb = skb_share_check(skb, GFP_ATOMIC);
	if (!skb)
		return NET_RX_DROP;

	if (skb->pkt_type == PACKET_OTHERHOST)
		goto drop;

	/* packet handlers run under RCU: the entry stays while we use it */
	edev = elec_net_dev(elec_net(dev_net(dev)), dev);
	if (!edev)
		goto drop;

	if (!pskb_may_pull(skb, ELECTION_HDR_LEN)) {
		if (skb->len < ELECTION_HDR_LEN)
			goto malformed;
		goto drop;	/* no memory */
	}

	/*
	 * Check the declared length before pulling: never more than one
	 * frame's payload. The Ethernet padding is not pulled; a length
	 * beyond the frame is left for the decoder to reject.
	 */
	payload_len = get_unaligned_be16(skb->data + ELEC_HDR_PAYLOAD_LEN_OFF);
	if (payload_len > ELECTION_MAX_PAYLOAD)
		goto malformed;
	len = ELECTION_HDR_LEN + payload_len;
	if (skb->data[ELEC_HDR_FLAGS_OFF] & ELECTION_FLAG_AUTH)
		len += ELECTION_AUTH_LEN;
	len = min_t(unsigned int, skb->len, len);
	if (!pskb_may_pull(skb, len))
		goto drop;

	switch (elec_codec_decode(skb->data, len, &msg)) {
	case ELEC_DECODE_OK:
		break;
	case ELEC_DECODE_AUTH_SHORT:
		atomic64_inc(&edev->drops[ELEC_DROP_AUTH_TRUNCATED]);
		elec_rx_trace_drop(dev, msg.group, ELEC_DROP_AUTH_TRUNCATED,
				   msg.type, msg.src);
		goto drop;
	default:
		goto malformed;
	}

	inst = xa_load(&edev->groups, msg.group);
	if (!inst) {
		atomic64_inc(&edev->drops[ELEC_DROP_WRONG_GROUP]);
		elec_rx_trace_drop(dev, msg.group, ELEC_DROP_WRONG_GROUP,
				   msg.type, msg.src);
		goto drop;
	}

	/* the skb, and so its Ethernet header, outlives the core call */
	msg.src_lladdr = eth_hdr(skb)->h_source;
	msg.frame = skb->data;
	elec_inst_rx(inst, &msg);
	consume_skb(skb);
	return NET_RX_SUCCESS;

malformed:
	atomic64_inc(&edev->drops[ELEC_DROP_MALFORMED]);
	elec_rx_trace_drop(dev, 0, ELEC_DROP_MALFORMED, 0, 0);
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
