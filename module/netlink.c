// SPDX-License-Identifier: GPL-2.0
/*
 * election.ko: the "election" generic netlink family.
 *
 * Every command of uapi/linux/election.h, each with its own attribute
 * policy (ranges enforced by the netlink core), strict validation, an
 * extack message on every refusal, and namespace awareness: a request sees
 * only the instances of its socket's namespace.
 *
 * Privilege: commands that change state (PEER_RESET among them), and
 * MODULE_GET (module-wide counters), need CAP_NET_ADMIN in the initial user
 * namespace. With the module parameter userns_admin, CAP_NET_ADMIN over the
 * socket's network namespace's own user namespace suffices for the commands
 * that change state, within userns_max_instances instances per namespace
 * and no duration below userns_min_interval_us. Reads of the namespace's
 * own instances need no privilege.
 *
 * Commands run in parallel across namespaces; within a namespace they are
 * serialised by its mutex, which also keeps every instance they look up
 * alive. A refused request changes nothing.
 *
 * Dumps hold no lock between calls: each call resumes from the key after
 * the last instance it reported and fills one buffer, walking the
 * namespace's xarrays under RCU, so each call's work is bounded by the
 * buffer, whatever the number of instances (with a GROUP filter, by the
 * number of devices that have instances). Single GETs run under RCU too.
 *
 * Events (ELEC_CMD_EVENT) are built, queued and multicast to the
 * "events" group by event.c, through the family registered here.
 */
#include <linux/atomic.h>
#include <linux/capability.h>
#include <linux/etherdevice.h>
#include <linux/if_arp.h>
#include <linux/if_ether.h>
#include <linux/netdevice.h>
#include <linux/rcupdate.h>
#include <linux/rtnetlink.h>
#include <linux/skbuff.h>
#include <linux/slab.h>
#include <net/genetlink.h>
#include <net/netlink.h>
#include <net/sock.h>

#include "compat.h"
#include "event.h"
#include "instance.h"
#include "main.h"
#include "netlink.h"
#include "netns.h"
#include "timer.h"
#include "types.h"

static struct genl_family elec_genl_family;

/* ---- attribute policies ------------------------------------------------ */

static struct netlink_range_validation elec_dur_range = {
	.min = ELECTION_DUR_MIN_NS,
	.max = ELECTION_DUR_MAX_NS,
};

/*
 * 0, or a duration (preempt-delay, search-interval); the gap 1..
 * ELECTION_DUR_MIN_NS - 1 is refused by elec_config_check() with its
 * message.
 */
static struct netlink_range_validation elec_delay_range = {
	.min = 0,
	.max = ELECTION_DUR_MAX_NS,
};

/* the policy of an option, by its kind (options.h) */
#define ELEC_NL_POL_DUR(lo, hi)	NLA_POLICY_FULL_RANGE(NLA_U64, &elec_dur_range)
#define ELEC_NL_POL_DUR0(lo, hi) NLA_POLICY_FULL_RANGE(NLA_U64, &elec_delay_range)
#define ELEC_NL_POL_U32(lo, hi)	NLA_POLICY_RANGE(NLA_U32, lo, hi)
#define ELEC_NL_POL_POS(lo, hi)	NLA_POLICY_MIN(NLA_U32, 1)
#define ELEC_NL_POL_ON(lo, hi)	NLA_POLICY_MAX(NLA_U8, 1)
#define ELEC_NL_POL_OFF(lo, hi)	NLA_POLICY_MAX(NLA_U8, 1)
#define ELEC_NL_POL_WORD(lo, hi) NLA_POLICY_RANGE(NLA_U8, lo, hi)

/* GROUP_SET: the options it may change (when: SET) */
#define ELEC_NL_POL_SET_SET(at, kd, lo, hi) \
	[at] = ELEC_NL_POL_ ## kd(lo, hi),
#define ELEC_NL_POL_SET_NEW(at, kd, lo, hi)

static const struct nla_policy elec_policy_group_new[ELEC_ATTR_MAX + 1] = {
	[ELEC_ATTR_IFINDEX] = NLA_POLICY_MIN(NLA_U32, 1),
	[ELEC_ATTR_GROUP] = NLA_POLICY_MIN(NLA_U16, 1),
	[ELEC_ATTR_NODE_ID] = NLA_POLICY_MIN(NLA_U32, 1),
	[ELEC_ATTR_ALGO] = NLA_POLICY_RANGE(NLA_U8, ELEC_ALGO_BULLY,
					    ELEC_ALGO_MAX),
	/* every option */
#define ELEC_OPTION(ID, nm, at, field, kd, lo, hi, ...) \
	[at] = ELEC_NL_POL_ ## kd(lo, hi),
#include "options-list.h"
	[ELEC_ATTR_KEY] = NLA_POLICY_EXACT_LEN(ELECTION_KEY_LEN),
	[ELEC_ATTR_KEY_NEXT] = NLA_POLICY_EXACT_LEN(ELECTION_KEY_LEN),
};

static const struct nla_policy elec_policy_group_set[ELEC_ATTR_MAX + 1] = {
	[ELEC_ATTR_IFINDEX] = NLA_POLICY_MIN(NLA_U32, 1),
	[ELEC_ATTR_GROUP] = NLA_POLICY_MIN(NLA_U16, 1),
#define ELEC_OPTION(ID, nm, at, field, kd, lo, hi, d, set, when, ...) \
	ELEC_NL_POL_SET_ ## when(at, kd, lo, hi)
#include "options-list.h"
	[ELEC_ATTR_KEY] = NLA_POLICY_EXACT_LEN(ELECTION_KEY_LEN),
	[ELEC_ATTR_KEY_NONE] = { .type = NLA_FLAG },
	[ELEC_ATTR_KEY_NEXT] = NLA_POLICY_EXACT_LEN(ELECTION_KEY_LEN),
	[ELEC_ATTR_KEY_NEXT_NONE] = { .type = NLA_FLAG },
};

/* GROUP_DEL, _START, _STOP, _ELECT, and the filters of the GETs */
static const struct nla_policy elec_policy_instance[ELEC_ATTR_MAX + 1] = {
	[ELEC_ATTR_IFINDEX] = NLA_POLICY_MIN(NLA_U32, 1),
	[ELEC_ATTR_GROUP] = NLA_POLICY_MIN(NLA_U16, 1),
};

static const struct nla_policy elec_policy_peer_add[ELEC_ATTR_MAX + 1] = {
	[ELEC_ATTR_IFINDEX] = NLA_POLICY_MIN(NLA_U32, 1),
	[ELEC_ATTR_GROUP] = NLA_POLICY_MIN(NLA_U16, 1),
	[ELEC_ATTR_PEER_ID] = NLA_POLICY_MIN(NLA_U32, 1),
	/* exactly 6 bytes; unicast and non-zero is checked by the handler */
	[ELEC_ATTR_PEER_LLADDR] = NLA_POLICY_ETH_ADDR,
	[ELEC_ATTR_PEER_POS] = NLA_POLICY_MIN(NLA_U32, 1),
};

static const struct nla_policy elec_policy_peer_del[ELEC_ATTR_MAX + 1] = {
	[ELEC_ATTR_IFINDEX] = NLA_POLICY_MIN(NLA_U32, 1),
	[ELEC_ATTR_GROUP] = NLA_POLICY_MIN(NLA_U16, 1),
	[ELEC_ATTR_PEER_ID] = NLA_POLICY_MIN(NLA_U32, 1),
};

/* ---- helpers ------------------------------------------------------------ */

/*
 * Report a message that is not a literal (the protocol core's static
 * strings, chosen at run time); NL_SET_ERR_MSG() takes literals only. The
 * one place that writes extack->_msg directly.
 */
static void elec_nl_err(struct genl_info *info, const struct nlattr *attr,
			const char *msg)
{
	struct netlink_ext_ack *extack = info->extack;

	if (!extack || !msg)
		return;
	do_trace_netlink_extack(msg);
	extack->_msg = msg;
	if (attr)
		extack->bad_attr = attr;
}

/* Refuse a request that lacks attribute @type: true when missing. */
static bool elec_nl_missing(struct genl_info *info, int type)
{
	static const char * const msgs[ELEC_ATTR_MAX + 1] = {
		[ELEC_ATTR_IFINDEX] = "missing attribute: ifindex (device)",
		[ELEC_ATTR_GROUP] = "missing attribute: group",
		[ELEC_ATTR_NODE_ID] = "missing attribute: node id",
		[ELEC_ATTR_ALGO] = "missing attribute: algo",
		[ELEC_ATTR_PEER_ID] = "missing attribute: peer id",
		[ELEC_ATTR_PEER_LLADDR] = "missing attribute: peer lladdr",
	};

	if (info->attrs[type])
		return false;
	NL_SET_ERR_ATTR_MISS(info->extack, NULL, type);	/* 6.0+ */
	elec_nl_err(info, NULL, msgs[type] ? msgs[type] : "missing attribute");
	return true;
}

/*
 * Refuse a request of another version of the family's protocol: its
 * attributes could mean something else. True, with an extack message,
 * when @nlh's genetlink header has another version.
 */
static bool elec_nl_bad_version(const struct nlmsghdr *nlh,
				struct netlink_ext_ack *extack)
{
	const struct genlmsghdr *gnlh = nlmsg_data(nlh);

	if (gnlh->version == ELECTION_GENL_VERSION)
		return false;
	NL_SET_ERR_MSG(extack,
		       "unsupported version of the election family (this module speaks version 1)");
	return true;
}

/* IFINDEX and GROUP, which name an instance. */
static bool elec_nl_missing_key(struct genl_info *info)
{
	return elec_nl_missing(info, ELEC_ATTR_IFINDEX) ||
	       elec_nl_missing(info, ELEC_ATTR_GROUP);
}

/* an option's attribute, as wide as its kind (elec_opt_width()) */
static u64 elec_nl_opt_value(const struct nlattr *a, enum elec_opt o)
{
	switch (elec_opt_width(o)) {
	case sizeof(u64):
		return nla_get_u64(a);
	case sizeof(u32):
		return nla_get_u32(a);
	default:
		return nla_get_u8(a);
	}
}

/* The options a request gives, over @cfg (the others untouched). */
static void elec_nl_get_options(struct nlattr **a, struct elec_config *cfg)
{
	int o;

	for (o = 0; o < ELEC_OPT_COUNT; o++)
		if (a[elec_opts[o].attr])
			elec_opt_set(cfg, o,
				     elec_nl_opt_value(a[elec_opts[o].attr], o));
	/* a fixed T given alone turns timeout-auto off ("timeout 5ms") */
	if (a[ELEC_ATTR_TIMEOUT_NS] && !a[ELEC_ATTR_TIMEOUT_AUTO])
		cfg->timeout_auto = false;
}

/*
 * Refuse an option the algorithm does not take, whatever its value (the
 * core refuses only values other than the default), with the option's
 * message on its attribute. Return: 0 or -EINVAL.
 */
static int elec_nl_options_apply(struct genl_info *info, u8 algo,
				 const char **why)
{
	int o;

	for (o = 0; o < ELEC_OPT_COUNT; o++) {
		struct nlattr *a = info->attrs[elec_opts[o].attr];

		if (a && !elec_opt_applies(o, algo)) {
			*why = elec_opt_not_here[o];
			elec_nl_err(info, a, *why);
			return -EINVAL;
		}
	}
	return 0;
}

/*
 * The instance a request names, with an extack message when there is
 * none. Context: holding @en->lock or rcu_read_lock().
 */
static struct elec_instance *elec_nl_instance(struct elec_net *en,
					      struct genl_info *info)
{
	struct nlattr *a_ifindex = info->attrs[ELEC_ATTR_IFINDEX];
	struct nlattr *a_group = info->attrs[ELEC_ATTR_GROUP];
	int ifindex = nla_get_u32(a_ifindex);
	struct elec_instance *inst;
	bool dev_exists;

	inst = elec_net_find(en, ifindex, nla_get_u16(a_group));
	if (inst)
		return inst;

	rcu_read_lock();
	dev_exists = !!dev_get_by_index_rcu(en->net, ifindex);
	rcu_read_unlock();
	if (!dev_exists) {
		NL_SET_ERR_MSG_ATTR(info->extack, a_ifindex, "unknown device");
		return ERR_PTR(-ENODEV);
	}
	NL_SET_ERR_MSG_ATTR(info->extack, a_group,
			    "unknown group on this device");
	return ERR_PTR(-ENOENT);
}

static size_t elec_nl_ids_size(void)
{
	return nla_total_size(sizeof(u32))	/* IFINDEX */
	       + nla_total_size(IFNAMSIZ)	/* IFNAME */
	       + nla_total_size(sizeof(u16))	/* GROUP */
	       + nla_total_size(sizeof(u32))	/* NODE_ID */
	       + nla_total_size(sizeof(u8));	/* ALGO */
}

static int elec_nl_put_ids(struct sk_buff *skb, const struct elec_snapshot *s)
{
	if (nla_put_u32(skb, ELEC_ATTR_IFINDEX, s->ifindex) ||
	    nla_put_string(skb, ELEC_ATTR_IFNAME, s->ifname) ||
	    nla_put_u16(skb, ELEC_ATTR_GROUP, s->group) ||
	    nla_put_u32(skb, ELEC_ATTR_NODE_ID, s->cfg.self_id) ||
	    nla_put_u8(skb, ELEC_ATTR_ALGO, s->cfg.algo))
		return -EMSGSIZE;
	return 0;
}

/* ---- GROUP_GET / STATS_GET replies -------------------------------------- */

/* the options' attributes in a GROUP_GET reply, at most */
static size_t elec_nl_options_size(void)
{
	size_t n = 0;
	int o;

	for (o = 0; o < ELEC_OPT_COUNT; o++)
		n += elec_opt_width(o) == sizeof(u64) ?
		     nla_total_size_64bit(sizeof(u64)) :
		     nla_total_size(elec_opt_width(o));
	return n;
}

static size_t elec_nl_group_size(u32 n_peers)
{
	size_t peer = nla_total_size(0)			/* PEER nest */
		      + nla_total_size(sizeof(u32))	/* PEER_ID */
		      + nla_total_size(ETH_ALEN)	/* PEER_LLADDR */
		      + nla_total_size(sizeof(u8))	/* PEER_ALIVE */
		      + nla_total_size(sizeof(u32))	/* PEER_POS */
		      + ELEC_PEER_INFO_MAX *		/* the algorithm's, */
			nla_total_size_64bit(sizeof(u64)) /* at most */
		      + nla_total_size_64bit(sizeof(u64)) /* PEER_HEARD_AGO_NS */
		      + nla_total_size(ETH_ALEN)	/* PEER_SEEN_LLADDR */
		      + nla_total_size_64bit(sizeof(u64)) /* PEER_DETECT_WINDOW_NS */
		      + nla_total_size_64bit(sizeof(u64)); /* PEER_RTT_NS */

	return elec_nl_ids_size()
	       + nla_total_size(sizeof(u32))		/* MTU */
	       + nla_total_size(ETH_ALEN)		/* LLADDR */
	       + nla_total_size(sizeof(u8))		/* ROLE */
	       + nla_total_size(sizeof(u32))		/* LEADER */
	       + nla_total_size_64bit(sizeof(u64))	/* TERM */
	       + nla_total_size(sizeof(u8))		/* PARTICIPANT */
	       + nla_total_size(sizeof(u8))		/* ADMIN_UP */
	       + nla_total_size(sizeof(u8))		/* AUTH */
	       + nla_total_size(sizeof(u8))		/* AUTH_NEXT */
	       + nla_total_size_64bit(sizeof(u64))	/* SEQ */
	       + elec_nl_options_size()
	       + ELEC_INFO_MAX *			/* the algorithm's, */
		 nla_total_size_64bit(sizeof(u64))	/* at most */
	       + nla_total_size(0)			/* PEERS nest */
	       + n_peers * peer;
}

/*
 * Every option GROUP_GET reports for the algorithm (elec_opt_reported()),
 * at the value it has in effect (elec_opt_report()).
 */
static int elec_nl_put_options(struct sk_buff *skb,
			       const struct elec_config *cfg)
{
	int o, err;

	for (o = 0; o < ELEC_OPT_COUNT; o++) {
		u16 attr = elec_opts[o].attr;
		u64 v = elec_opt_report(cfg, o);

		if (!elec_opt_reported(o, cfg->algo))
			continue;
		switch (elec_opt_width(o)) {
		case sizeof(u64):
			err = nla_put_u64_64bit(skb, attr, v, ELEC_ATTR_PAD);
			break;
		case sizeof(u32):
			err = nla_put_u32(skb, attr, (u32)v);
			break;
		default:
			err = nla_put_u8(skb, attr, (u8)v);
			break;
		}
		if (err)
			return err;
	}
	return 0;
}

/* an algorithm's private state (&elec_algo_ops.info, .peer_info) */
static int elec_nl_put_info(struct sk_buff *skb,
			    const struct elec_info *info, u32 n)
{
	int err = 0;
	u32 i;

	for (i = 0; i < n && !err; i++) {
		switch (info[i].width) {
		case sizeof(u64):
			err = nla_put_u64_64bit(skb, info[i].attr,
						info[i].value, ELEC_ATTR_PAD);
			break;
		case sizeof(u32):
			err = nla_put_u32(skb, info[i].attr, (u32)info[i].value);
			break;
		default:
			err = nla_put_u8(skb, info[i].attr, (u8)info[i].value);
			break;
		}
	}
	return err;
}

static int elec_nl_fill_group(struct sk_buff *skb,
			      const struct elec_snapshot *s, u32 portid,
			      u32 seq, int flags)
{
	struct elec_info info[ELEC_PEER_INFO_MAX];
	struct nlattr *peers, *peer;
	void *hdr;
	u32 i;

	hdr = genlmsg_put(skb, portid, seq, &elec_genl_family, flags,
			  ELEC_CMD_GROUP_GET);
	if (!hdr)
		return -EMSGSIZE;

	if (elec_nl_put_ids(skb, s) ||
	    nla_put_u32(skb, ELEC_ATTR_MTU, s->mtu) ||
	    nla_put(skb, ELEC_ATTR_LLADDR, ETH_ALEN, s->lladdr) ||
	    nla_put_u8(skb, ELEC_ATTR_ROLE, s->role) ||
	    nla_put_u32(skb, ELEC_ATTR_LEADER, s->leader) ||
	    nla_put_u64_64bit(skb, ELEC_ATTR_TERM, s->term, ELEC_ATTR_PAD) ||
	    nla_put_u8(skb, ELEC_ATTR_PARTICIPANT, s->participant) ||
	    nla_put_u8(skb, ELEC_ATTR_ADMIN_UP, s->admin_up) ||
	    nla_put_u8(skb, ELEC_ATTR_AUTH, s->auth) ||
	    nla_put_u8(skb, ELEC_ATTR_AUTH_NEXT, s->auth_next) ||
	    nla_put_u64_64bit(skb, ELEC_ATTR_SEQ, s->ev_seq, ELEC_ATTR_PAD) ||
	    elec_nl_put_options(skb, &s->cfg))
		goto cancel;
	if (elec_nl_put_info(skb, s->info, s->n_info))
		goto cancel;

	peers = nla_nest_start(skb, ELEC_ATTR_PEERS);
	if (!peers)
		goto cancel;
	for (i = 0; i < s->n_peers; i++) {
		const struct elec_peer *p = &s->peers[i];

		peer = nla_nest_start(skb, ELEC_ATTR_PEER);
		if (!peer ||
		    nla_put_u32(skb, ELEC_ATTR_PEER_ID, p->id) ||
		    nla_put(skb, ELEC_ATTR_PEER_LLADDR, ETH_ALEN, p->lladdr) ||
		    nla_put_u8(skb, ELEC_ATTR_PEER_ALIVE, !!p->alive) ||
		    nla_put_u32(skb, ELEC_ATTR_PEER_POS, elec_peer_pos(p)) ||
		    (s->ops->peer_info &&
		     elec_nl_put_info(skb, info,
				      min_t(u32, s->ops->peer_info(p, info),
					    ELEC_PEER_INFO_MAX))) ||
		    (p->heard_ns &&
		     nla_put_u64_64bit(skb, ELEC_ATTR_PEER_HEARD_AGO_NS,
				       s->now_ns > p->heard_ns ?
				       s->now_ns - p->heard_ns : 0,
				       ELEC_ATTR_PAD)) ||
		    (!is_zero_ether_addr(p->seen_lladdr) &&
		     nla_put(skb, ELEC_ATTR_PEER_SEEN_LLADDR,
			     ETH_ALEN, p->seen_lladdr)) ||
		    nla_put_u64_64bit(skb, ELEC_ATTR_PEER_DETECT_WINDOW_NS,
				      s->window_ns[i], ELEC_ATTR_PAD) ||
		    (s->rtt_ns[i] &&
		     nla_put_u64_64bit(skb, ELEC_ATTR_PEER_RTT_NS, s->rtt_ns[i],
				       ELEC_ATTR_PAD)))
			goto cancel;
		nla_nest_end(skb, peer);
	}
	nla_nest_end(skb, peers);

	genlmsg_end(skb, hdr);
	return 0;

cancel:
	genlmsg_cancel(skb, hdr);
	return -EMSGSIZE;
}

static size_t elec_nl_stats_size(void)
{
	return elec_nl_ids_size()
	       + 2 * nla_total_size(sizeof(u8))		/* AUTH, QUORUM */
	       + 2 * nla_total_size(0)			/* TX, RX nests */
	       + 2 * ELEC_MSG_MAX * nla_total_size_64bit(sizeof(u64))
	       + nla_total_size(0)			/* DROPS nest */
	       + ELEC_DROP_MAX * nla_total_size_64bit(sizeof(u64))
	       + nla_total_size(0)			/* TX_DROPS nest */
	       + ELEC_TX_DROP_MAX * nla_total_size_64bit(sizeof(u64))
	       /* TX_ERRORS and each of counters-list.h */
	       + (1 + ELEC_CTR_COUNT) * nla_total_size_64bit(sizeof(u64))
	       + 2 * nla_total_size(0)			/* TIMER_LATE nests */
	       + (ELECTION_TIMER_LATE_BUCKETS + 2) *
		 nla_total_size_64bit(sizeof(u64));	/* buckets, max, count */
}

/* The timer lateness histogram: TIMER_LATE { BUCKETS { 1..N }, MAX, COUNT } */
static int elec_nl_put_late(struct sk_buff *skb,
			    const struct elec_late_hist *h)
{
	struct nlattr *nest, *buckets;
	int i;

	nest = nla_nest_start(skb, ELEC_ATTR_TIMER_LATE);
	if (!nest)
		return -EMSGSIZE;
	buckets = nla_nest_start(skb, ELEC_ATTR_TIMER_LATE_BUCKETS);
	if (!buckets)
		return -EMSGSIZE;
	for (i = 0; i < ELECTION_TIMER_LATE_BUCKETS; i++)
		if (nla_put_u64_64bit(skb, i + 1, h->buckets[i],
				      ELEC_ATTR_PAD))
			return -EMSGSIZE;
	nla_nest_end(skb, buckets);
	if (nla_put_u64_64bit(skb, ELEC_ATTR_TIMER_LATE_MAX_NS, h->max_ns,
			      ELEC_ATTR_PAD) ||
	    nla_put_u64_64bit(skb, ELEC_ATTR_TIMER_LATE_COUNT, h->count,
			      ELEC_ATTR_PAD))
		return -EMSGSIZE;
	nla_nest_end(skb, nest);
	return 0;
}

/* A nest of u64 counters, attribute type = index, 1..@max. */
static int elec_nl_put_counters(struct sk_buff *skb, int type,
				const u64 *v, int max)
{
	struct nlattr *nest;
	int i;

	nest = nla_nest_start(skb, type);
	if (!nest)
		return -EMSGSIZE;
	for (i = 1; i <= max; i++)
		if (nla_put_u64_64bit(skb, i, v[i], ELEC_ATTR_PAD))
			return -EMSGSIZE;
	nla_nest_end(skb, nest);
	return 0;
}

/* each of counters-list.h */
static int elec_nl_put_ctrs(struct sk_buff *skb, const struct elec_stats *st)
{
	int i;

	for (i = 0; i < ELEC_CTR_COUNT; i++)
		if (nla_put_u64_64bit(skb, elec_ctrs[i].attr,
				      elec_ctr_get(st, i), ELEC_ATTR_PAD))
			return -EMSGSIZE;
	return 0;
}

static int elec_nl_fill_stats(struct sk_buff *skb,
			      const struct elec_snapshot *s, u32 portid,
			      u32 seq, int flags)
{
	const struct elec_stats *st = &s->stats;
	void *hdr;

	hdr = genlmsg_put(skb, portid, seq, &elec_genl_family, flags,
			  ELEC_CMD_STATS_GET);
	if (!hdr)
		return -EMSGSIZE;

	/* AUTH and QUORUM: which counters can move (electionctl stats) */
	if (elec_nl_put_ids(skb, s) ||
	    nla_put_u8(skb, ELEC_ATTR_AUTH, s->auth) ||
	    nla_put_u8(skb, ELEC_ATTR_QUORUM, s->cfg.quorum) ||
	    elec_nl_put_counters(skb, ELEC_ATTR_TX, st->tx, ELEC_MSG_MAX) ||
	    elec_nl_put_counters(skb, ELEC_ATTR_RX, st->rx, ELEC_MSG_MAX) ||
	    elec_nl_put_counters(skb, ELEC_ATTR_DROPS, st->drops,
				 ELEC_DROP_MAX) ||
	    elec_nl_put_ctrs(skb, st) ||
	    nla_put_u64_64bit(skb, ELEC_ATTR_TX_ERRORS, s->tx_errors,
			      ELEC_ATTR_PAD) ||
	    elec_nl_put_counters(skb, ELEC_ATTR_TX_DROPS, s->tx_drops,
				 ELEC_TX_DROP_MAX) ||
	    elec_nl_put_late(skb, &s->late)) {
		genlmsg_cancel(skb, hdr);
		return -EMSGSIZE;
	}

	genlmsg_end(skb, hdr);
	return 0;
}

/* doit of GROUP_GET (@stats false) and STATS_GET (@stats true) */
static int elec_nl_get_doit(struct genl_info *info, bool stats)
{
	struct elec_net *en = elec_net(genl_info_net(info));
	struct elec_instance *inst;
	struct elec_snapshot *s;
	struct sk_buff *msg;
	size_t size;
	int err;

	if (elec_nl_bad_version(info->nlhdr, info->extack))
		return -EOPNOTSUPP;
	if (elec_nl_missing_key(info))
		return -EINVAL;

	s = kvmalloc(sizeof(*s), GFP_KERNEL);
	if (!s)
		return -ENOMEM;

	/* like the dumps, under RCU: unprivileged reads never wait on RTNL */
	rcu_read_lock();
	inst = elec_nl_instance(en, info);
	if (IS_ERR(inst))
		err = PTR_ERR(inst);
	else
		err = elec_inst_snapshot(inst, s, !stats) ? 0 : -ENOENT;
	rcu_read_unlock();
	if (err)
		goto out;

	size = stats ? elec_nl_stats_size() : elec_nl_group_size(s->n_peers);
	msg = genlmsg_new(size, GFP_KERNEL);
	if (!msg) {
		err = -ENOMEM;
		goto out;
	}
	if (stats)
		err = elec_nl_fill_stats(msg, s, info->snd_portid,
					 info->snd_seq, 0);
	else
		err = elec_nl_fill_group(msg, s, info->snd_portid,
					 info->snd_seq, 0);
	if (err) {
		nlmsg_free(msg);
		goto out;
	}
	err = genlmsg_reply(msg, info);
out:
	kvfree(s);
	return err;
}

/*
 * dumpit of GROUP_GET and STATS_GET: every instance of the namespace in
 * (ifindex, group) order, filtered by IFINDEX and GROUP when given.
 * cb->args[0..1] hold the key at which the next call resumes. Each call
 * fills one buffer under RCU (no lock is held between calls), so its work
 * is bounded by the buffer whatever the number of instances: an instance
 * costs one lookup. With a GROUP filter a device without that group
 * costs one lookup too, so such a call is O(devices with instances).
 */
static int elec_nl_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb,
			      bool stats)
{
	struct elec_net *en = elec_net(sock_net(skb->sk));
	struct nlattr **attrs = elec_dump_attrs(cb);
	u32 portid = NETLINK_CB(cb->skb).portid;
	u32 seq = cb->nlh->nlmsg_seq;
	unsigned long ifindex = cb->args[0];
	unsigned long group = cb->args[1];
	struct elec_instance *inst;
	struct elec_snapshot *s;
	int f_ifindex = 0;
	int n = 0;
	int err = 0;
	u16 f_group = 0;

	/* here, not in .start: 6.1 gives .start no extack for the message */
	if (elec_nl_bad_version(cb->nlh, cb->extack))
		return -EOPNOTSUPP;
	if (attrs && attrs[ELEC_ATTR_IFINDEX])
		f_ifindex = nla_get_u32(attrs[ELEC_ATTR_IFINDEX]);
	if (attrs && attrs[ELEC_ATTR_GROUP])
		f_group = nla_get_u16(attrs[ELEC_ATTR_GROUP]);

	s = kvmalloc(sizeof(*s), GFP_KERNEL);
	if (!s)
		return -ENOMEM;

	rcu_read_lock();
	while ((inst = elec_net_next(en, &ifindex, &group, f_ifindex,
				     f_group))) {
		if (elec_inst_snapshot(inst, s, !stats)) {
			if (stats)
				err = elec_nl_fill_stats(skb, s, portid, seq,
							 NLM_F_MULTI);
			else
				err = elec_nl_fill_group(skb, s, portid, seq,
							 NLM_F_MULTI);
			if (err)
				break;	/* full: resume here next time */
			n++;
		}
		group++;	/* the next key */
	}
	rcu_read_unlock();
	kvfree(s);
	cb->args[0] = ifindex;
	cb->args[1] = group;

	/* a single instance that does not fit an empty buffer is an error */
	if (err && !n)
		return err;
	return skb->len;
}

/* ---- command handlers --------------------------------------------------- */

/**
 * enum elec_nl_priv - how a request that changes state was authorised.
 * @ELEC_NL_DENIED: refused (an extack message is set)
 * @ELEC_NL_ADMIN: CAP_NET_ADMIN in the initial user namespace
 * @ELEC_NL_USERNS: only CAP_NET_ADMIN over the network namespace's own user
 *	namespace, with the module parameter userns_admin set: bounded by
 *	userns_max_instances and userns_min_interval_us
 */
enum elec_nl_priv {
	ELEC_NL_DENIED,
	ELEC_NL_ADMIN,
	ELEC_NL_USERNS,
};

/*
 * The privilege check of every command that changes state, done here
 * rather than with GENL_ADMIN_PERM so that the refusal carries an extack
 * message like every other one. The parameters are read at each request.
 */
static enum elec_nl_priv elec_nl_admin(struct sk_buff *skb,
				       struct genl_info *info)
{
	if (netlink_capable(skb, CAP_NET_ADMIN))
		return ELEC_NL_ADMIN;
	if (!READ_ONCE(elec_userns_admin)) {
		NL_SET_ERR_MSG(info->extack,
			       "CAP_NET_ADMIN is required in the initial user namespace (module parameter userns_admin=1 accepts it over this network namespace)");
		return ELEC_NL_DENIED;
	}
	if (netlink_ns_capable(skb, genl_info_net(info)->user_ns,
			       CAP_NET_ADMIN))
		return ELEC_NL_USERNS;
	NL_SET_ERR_MSG(info->extack,
		       "CAP_NET_ADMIN is required over this network namespace");
	return ELEC_NL_DENIED;
}

/*
 * userns_min_interval_us for ELEC_NL_USERNS callers: hb-interval, timeout
 * and coord-timeout must not be shorter. @cfg: the configuration a
 * GROUP_NEW would create (every duration checked, defaults included), or
 * NULL for GROUP_SET (the durations it gives). True, with an extack
 * message, when one is shorter.
 */
static bool elec_nl_below_floor(struct genl_info *info,
				const struct elec_config *cfg)
{
	u64 floor = (u64)READ_ONCE(elec_userns_min_interval_us) *
		    NSEC_PER_USEC;
	int o;

	for (o = 0; o < ELEC_OPT_COUNT; o++) {
		struct nlattr *a = info->attrs[elec_opts[o].attr];
		u64 v;

		if (!(elec_opts[o].flags & ELEC_OPTF_FLOOR))
			continue;
		if (cfg)
			v = elec_opt_report(cfg, o);
		else if (a)
			v = elec_nl_opt_value(a, o);
		else
			continue;
		/* search-interval 0: hb-interval x hb-miss, above the floor */
		if (!v && (elec_opts[o].flags & ELEC_OPTF_ZERO))
			continue;
		if (v < floor) {
			elec_nl_err(info, a, elec_opt_floor[o]);
			return true;
		}
	}
	return false;
}

/*
 * The key change a GROUP_NEW or GROUP_SET asks for, copied out of the
 * request and prepared (elec_key_req_prepare()); the caller releases it.
 */
static int elec_nl_key_req(struct genl_info *info, struct elec_key_req *kr,
			   const char **why)
{
	struct nlattr **a = info->attrs;
	int err;

	memset(kr, 0, sizeof(*kr));
	if (a[ELEC_ATTR_KEY] && a[ELEC_ATTR_KEY_NONE]) {
		*why = "a key and key-none together";
		elec_nl_err(info, a[ELEC_ATTR_KEY_NONE], *why);
		return -EINVAL;
	}
	if (a[ELEC_ATTR_KEY_NEXT] && a[ELEC_ATTR_KEY_NEXT_NONE]) {
		*why = "a second key and key-next-none together";
		elec_nl_err(info, a[ELEC_ATTR_KEY_NEXT_NONE], *why);
		return -EINVAL;
	}
	if (a[ELEC_ATTR_KEY_NEXT] && a[ELEC_ATTR_KEY_NONE]) {
		*why = "a second key and key-none together (key-none removes both keys)";
		elec_nl_err(info, a[ELEC_ATTR_KEY_NEXT], *why);
		return -EINVAL;
	}
	if (a[ELEC_ATTR_KEY]) {
		kr->set = true;
		nla_memcpy(kr->key, a[ELEC_ATTR_KEY], sizeof(kr->key));
		if (!memchr_inv(kr->key, 0, sizeof(kr->key))) {
			*why = "an all-zero key is refused";
			elec_nl_err(info, a[ELEC_ATTR_KEY], *why);
			return -EINVAL;
		}
	}
	if (a[ELEC_ATTR_KEY_NEXT]) {
		kr->next_set = true;
		nla_memcpy(kr->next, a[ELEC_ATTR_KEY_NEXT], sizeof(kr->next));
		if (!memchr_inv(kr->next, 0, sizeof(kr->next))) {
			*why = "an all-zero key is refused";
			elec_nl_err(info, a[ELEC_ATTR_KEY_NEXT], *why);
			elec_key_req_release(kr);
			return -EINVAL;
		}
	}
	kr->clear = !!a[ELEC_ATTR_KEY_NONE];
	kr->next_clear = !!a[ELEC_ATTR_KEY_NEXT_NONE];
	err = elec_key_req_prepare(kr);
	if (err) {
		*why = "no memory for the key's counters";
		elec_nl_err(info, NULL, *why);
		elec_key_req_release(kr);
	}
	return err;
}

static int elec_nl_group_new(struct sk_buff *skb, struct genl_info *info)
{
	struct net *net = genl_info_net(info);
	struct elec_net *en = elec_net(net);
	struct nlattr **a = info->attrs;
	struct elec_config cfg = {};
	struct elec_instance *inst;
	struct elec_key_req kr;
	struct net_device *dev;
	enum elec_nl_priv priv;
	const char *why = NULL;
	int ifindex;
	int err;

	if (elec_nl_bad_version(info->nlhdr, info->extack))
		return -EOPNOTSUPP;
	priv = elec_nl_admin(skb, info);
	if (priv == ELEC_NL_DENIED)
		return -EPERM;
	if (elec_nl_missing(info, ELEC_ATTR_IFINDEX) ||
	    elec_nl_missing(info, ELEC_ATTR_GROUP) ||
	    elec_nl_missing(info, ELEC_ATTR_NODE_ID) ||
	    elec_nl_missing(info, ELEC_ATTR_ALGO))
		return -EINVAL;

	ifindex = nla_get_u32(a[ELEC_ATTR_IFINDEX]);
	cfg.self_id = nla_get_u32(a[ELEC_ATTR_NODE_ID]);
	cfg.group = nla_get_u16(a[ELEC_ATTR_GROUP]);
	cfg.algo = nla_get_u8(a[ELEC_ATTR_ALGO]);
	elec_config_defaults(&cfg);
	elec_nl_get_options(a, &cfg);

	if (!elec_algo_find(cfg.algo)) {
		NL_SET_ERR_MSG_ATTR(info->extack, a[ELEC_ATTR_ALGO],
				    "unsupported election algorithm");
		return -EOPNOTSUPP;
	}
	err = elec_nl_options_apply(info, cfg.algo, &why);
	if (err)
		return err;
	err = elec_config_check(&cfg, &why);
	if (err) {
		elec_nl_err(info, NULL, why ? why : "invalid configuration");
		return err;
	}
	if (priv == ELEC_NL_USERNS && elec_nl_below_floor(info, &cfg))
		return -EINVAL;
	err = elec_nl_key_req(info, &kr, &why);
	if (err)
		return err;

	/*
	 * RTNL: the device's type, state, name and address are read and the
	 * instance published before any NETDEV event can run; every later
	 * event finds the instance (lock order RTNL -> en->lock, as in the
	 * notifier).
	 */
	rtnl_lock();
	mutex_lock(&en->lock);
	dev = __dev_get_by_index(net, ifindex);
	if (!dev) {
		NL_SET_ERR_MSG_ATTR(info->extack, a[ELEC_ATTR_IFINDEX],
				    "unknown device");
		err = -ENODEV;
		goto unlock;
	}
	if (dev->type != ARPHRD_ETHER || dev->addr_len != ETH_ALEN) {
		NL_SET_ERR_MSG_ATTR(info->extack, a[ELEC_ATTR_IFINDEX],
				    "device is not an Ethernet device");
		err = -EOPNOTSUPP;
		goto unlock;
	}
	if (dev->reg_state != NETREG_REGISTERED) {
		NL_SET_ERR_MSG_ATTR(info->extack, a[ELEC_ATTR_IFINDEX],
				    "device is being unregistered");
		err = -ENODEV;
		goto unlock;
	}
	if (elec_config_max_frame(&cfg, 1) +
	    (kr.set ? ELECTION_AUTH_LEN : 0) > dev->mtu) {
		NL_SET_ERR_MSG_ATTR(info->extack, a[ELEC_ATTR_IFINDEX],
				    "device MTU too small for the algorithm's largest frame");
		err = -EMSGSIZE;
		goto unlock;
	}
	if (elec_net_find(en, ifindex, cfg.group)) {
		NL_SET_ERR_MSG_ATTR(info->extack, a[ELEC_ATTR_GROUP],
				    "group already exists on this device");
		err = -EEXIST;
		goto unlock;
	}
	if (priv == ELEC_NL_USERNS &&
	    en->n_instances >= READ_ONCE(elec_userns_max_instances)) {
		NL_SET_ERR_MSG(info->extack,
			       "this network namespace has the most instances the module parameter userns_max_instances allows without CAP_NET_ADMIN in the initial user namespace");
		err = -ENOSPC;
		goto unlock;
	}
	/*
	 * One timer worker and its time budget serve every namespace: a
	 * tenant that makes namespaces of its own is bounded by a count over
	 * all of them, taken here and given back when the instance is freed.
	 */
	if (priv == ELEC_NL_USERNS &&
	    atomic_inc_return(&elec_userns_total) >
	    READ_ONCE(elec_userns_max_total)) {
		atomic_dec(&elec_userns_total);
		NL_SET_ERR_MSG(info->extack,
			       "the network namespaces without CAP_NET_ADMIN in the initial user namespace have the most instances the module parameter userns_max_total allows");
		err = -ENOSPC;
		goto unlock;
	}
	inst = elec_inst_create(en, dev, &cfg);
	if (IS_ERR(inst)) {
		if (priv == ELEC_NL_USERNS)
			atomic_dec(&elec_userns_total);
		NL_SET_ERR_MSG(info->extack, "cannot create the instance");
		err = PTR_ERR(inst);
		goto unlock;
	}
	/* counted from now on: elec_inst_release() gives it back */
	inst->userns = priv == ELEC_NL_USERNS;
	/* not published yet: nothing but this request sees it */
	err = elec_inst_set_config(inst, NULL, &kr, &why);
	if (err) {
		elec_nl_err(info, a[kr.bad_next ? ELEC_ATTR_KEY_NEXT :
				   ELEC_ATTR_KEY], why);
		elec_inst_free(inst);
		goto unlock;
	}
	err = elec_inst_publish(inst);
	if (err)
		NL_SET_ERR_MSG(info->extack, "cannot create the instance");
unlock:
	mutex_unlock(&en->lock);
	rtnl_unlock();
	elec_key_req_release(&kr);
	return err;
}

static int elec_nl_set_config(struct genl_info *info,
			      struct elec_instance *inst, struct nlattr **a,
			      const char **why)
{
	struct elec_key_req kr;
	struct elec_config cfg;
	int err;

	/* the given options over the instance's: a whole configuration */
	elec_inst_config(inst, &cfg);
	err = elec_nl_options_apply(info, cfg.algo, why);
	if (err)
		return err;
	elec_nl_get_options(a, &cfg);
	err = elec_nl_key_req(info, &kr, why);
	if (err)
		return err;
	err = elec_inst_set_config(inst, &cfg, &kr, why);
	if (err == -EMSGSIZE)
		elec_nl_err(info, a[ELEC_ATTR_KEY], *why);
	else if (kr.bad_next)
		elec_nl_err(info, a[ELEC_ATTR_KEY_NEXT], *why);
	elec_key_req_release(&kr);
	return err;
}

/*
 * The doit of every command that changes one named instance: permission,
 * required attributes, the instance, then the action by command, under the
 * namespace mutex; a refusal sets an extack message and changes nothing.
 */
static int elec_nl_instance_cmd(struct sk_buff *skb, struct genl_info *info)
{
	struct elec_net *en = elec_net(genl_info_net(info));
	u8 cmd = info->genlhdr->cmd;
	bool peer_cmd = cmd == ELEC_CMD_PEER_ADD || cmd == ELEC_CMD_PEER_DEL ||
			cmd == ELEC_CMD_PEER_RESET;
	struct nlattr **a = info->attrs;
	struct nlattr *bad = NULL;
	struct elec_instance *inst;
	enum elec_nl_priv priv;
	const char *why = NULL;
	int err = 0;

	if (elec_nl_bad_version(info->nlhdr, info->extack))
		return -EOPNOTSUPP;
	priv = elec_nl_admin(skb, info);
	if (priv == ELEC_NL_DENIED)
		return -EPERM;
	if (elec_nl_missing_key(info) ||
	    (peer_cmd && elec_nl_missing(info, ELEC_ATTR_PEER_ID)) ||
	    (cmd == ELEC_CMD_PEER_ADD &&
	     elec_nl_missing(info, ELEC_ATTR_PEER_LLADDR)))
		return -EINVAL;
	if (cmd == ELEC_CMD_PEER_ADD &&
	    !is_valid_ether_addr(nla_data(a[ELEC_ATTR_PEER_LLADDR]))) {
		NL_SET_ERR_MSG_ATTR(info->extack, a[ELEC_ATTR_PEER_LLADDR],
				    "peer lladdr must be a unicast, non-zero Ethernet address");
		return -EINVAL;
	}
	if (cmd == ELEC_CMD_GROUP_SET && priv == ELEC_NL_USERNS &&
	    elec_nl_below_floor(info, NULL))
		return -EINVAL;

	mutex_lock(&en->lock);
	inst = elec_nl_instance(en, info);
	if (IS_ERR(inst)) {
		err = PTR_ERR(inst);
		goto unlock;
	}
	switch (cmd) {
	case ELEC_CMD_GROUP_DEL: {
		struct elec_dev *edev = inst->edev;

		/* planned: a leader resigns */
		elec_inst_destroy(inst, true);
		elec_net_dev_release(en, edev);
		break;
	}
	case ELEC_CMD_GROUP_START:
		elec_inst_start(inst);
		break;
	case ELEC_CMD_GROUP_STOP:
		elec_inst_stop(inst);
		break;
	case ELEC_CMD_GROUP_ELECT:
		err = elec_inst_elect(inst, &why);
		break;
	case ELEC_CMD_GROUP_SET:
		err = elec_nl_set_config(info, inst, a, &why);
		break;
	case ELEC_CMD_PEER_ADD:
		err = elec_inst_peer_add(inst,
					 nla_get_u32(a[ELEC_ATTR_PEER_ID]),
					 nla_data(a[ELEC_ATTR_PEER_LLADDR]),
					 a[ELEC_ATTR_PEER_POS] ?
					 nla_get_u32(a[ELEC_ATTR_PEER_POS]) : 0,
					 &why);
		if (err != -ENOSPC)
			bad = a[ELEC_ATTR_PEER_ID];
		break;
	case ELEC_CMD_PEER_DEL:
		err = elec_inst_peer_del(inst,
					 nla_get_u32(a[ELEC_ATTR_PEER_ID]),
					 &why);
		bad = a[ELEC_ATTR_PEER_ID];
		break;
	case ELEC_CMD_PEER_RESET:
		err = elec_inst_peer_reset(inst,
					   nla_get_u32(a[ELEC_ATTR_PEER_ID]),
					   &why);
		bad = a[ELEC_ATTR_PEER_ID];
		/* done, with a warning: the group has no key */
		if (!err && why)
			elec_nl_err(info, NULL, why);
		break;
	default:
		err = -EOPNOTSUPP;
		break;
	}
	if (err)
		elec_nl_err(info, bad, why ? why : "request refused");
unlock:
	mutex_unlock(&en->lock);
	return err;
}

static int elec_nl_group_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	return elec_nl_get_doit(info, false);
}

/* dump start: the largest reply must fit one dump buffer */
static int elec_nl_group_get_start(struct netlink_callback *cb)
{
	size_t size = elec_nl_group_size(ELEC_MAX_PEERS);

	cb->min_dump_alloc = nlmsg_total_size(genlmsg_total_size(size));
	return 0;
}

static int elec_nl_group_get_dumpit(struct sk_buff *skb,
				    struct netlink_callback *cb)
{
	return elec_nl_get_dumpit(skb, cb, false);
}

static int elec_nl_stats_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	return elec_nl_get_doit(info, true);
}

static int elec_nl_stats_get_dumpit(struct sk_buff *skb,
				    struct netlink_callback *cb)
{
	return elec_nl_get_dumpit(skb, cb, true);
}

/* ---- ALGO_GET: the algorithms, their message types and options ------- */

static const struct nla_policy elec_policy_algo[ELEC_ATTR_MAX + 1] = {
	[ELEC_ATTR_ALGO] = NLA_POLICY_RANGE(NLA_U8, ELEC_ALGO_BULLY,
					    ELEC_ALGO_MAX),
};

static size_t elec_nl_algo_size(const struct elec_algo_ops *ops)
{
	return nla_total_size(sizeof(u8))		/* ALGO */
	       + nla_total_size(strlen(ops->name) + 1)	/* ALGO_NAME */
	       + nla_total_size(sizeof(u32))		/* ALGO_MSGS */
	       + nla_total_size(sizeof(u32))		/* OPTS_HASH */
	       + nla_total_size(0)			/* ALGO_OPTS */
	       + ELEC_OPT_COUNT * nla_total_size(sizeof(u16));
}

static int elec_nl_fill_algo(struct sk_buff *skb,
			     const struct elec_algo_ops *ops, u32 portid,
			     u32 seq, int flags)
{
	struct nlattr *opts;
	void *hdr;
	int o;

	hdr = genlmsg_put(skb, portid, seq, &elec_genl_family, flags,
			  ELEC_CMD_ALGO_GET);
	if (!hdr)
		return -EMSGSIZE;
	if (nla_put_u8(skb, ELEC_ATTR_ALGO, ops->algo) ||
	    nla_put_string(skb, ELEC_ATTR_ALGO_NAME, ops->name) ||
	    nla_put_u32(skb, ELEC_ATTR_ALGO_MSGS, ops->msgs) ||
	    nla_put_u32(skb, ELEC_ATTR_OPTS_HASH, elec_opt_list_hash()))
		goto cancel;
	opts = nla_nest_start(skb, ELEC_ATTR_ALGO_OPTS);
	if (!opts)
		goto cancel;
	for (o = 0; o < ELEC_OPT_COUNT; o++)
		if (elec_opt_applies(o, ops->algo) &&
		    nla_put_u16(skb, ELEC_ATTR_ALGO_OPT, elec_opts[o].attr))
			goto cancel;
	nla_nest_end(skb, opts);
	genlmsg_end(skb, hdr);
	return 0;
cancel:
	genlmsg_cancel(skb, hdr);
	return -EMSGSIZE;
}

static int elec_nl_algo_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	const struct elec_algo_ops *ops;
	struct sk_buff *msg;
	int err;

	if (elec_nl_bad_version(info->nlhdr, info->extack))
		return -EOPNOTSUPP;
	if (elec_nl_missing(info, ELEC_ATTR_ALGO))
		return -EINVAL;
	ops = elec_algo_find(nla_get_u8(info->attrs[ELEC_ATTR_ALGO]));
	if (!ops) {
		NL_SET_ERR_MSG_ATTR(info->extack, info->attrs[ELEC_ATTR_ALGO],
				    "unsupported election algorithm");
		return -EOPNOTSUPP;
	}
	msg = genlmsg_new(elec_nl_algo_size(ops), GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	err = elec_nl_fill_algo(msg, ops, info->snd_portid, info->snd_seq, 0);
	if (err) {
		nlmsg_free(msg);
		return err;
	}
	return genlmsg_reply(msg, info);
}

/* cb->args[0]: the next algorithm number to report */
static int elec_nl_algo_get_dumpit(struct sk_buff *skb,
				   struct netlink_callback *cb)
{
	long a = cb->args[0] ? cb->args[0] : ELEC_ALGO_BULLY;
	int err;

	if (elec_nl_bad_version(cb->nlh, cb->extack))
		return -EOPNOTSUPP;
	for (; a <= ELEC_ALGO_MAX; a++) {
		const struct elec_algo_ops *ops = elec_algo_find((u8)a);

		if (!ops)
			continue;
		err = elec_nl_fill_algo(skb, ops, NETLINK_CB(cb->skb).portid,
					cb->nlh->nlmsg_seq, NLM_F_MULTI);
		/* one algorithm always fits an empty buffer */
		if (err && !skb->len)
			return err;
		if (err)
			break;
	}
	cb->args[0] = a;
	return skb->len;
}

/* module-wide counters: CAP_NET_ADMIN in the initial user namespace only */
static int elec_nl_module_get(struct sk_buff *skb, struct genl_info *info)
{
	struct sk_buff *msg;
	void *hdr;

	if (elec_nl_bad_version(info->nlhdr, info->extack))
		return -EOPNOTSUPP;
	if (!netlink_capable(skb, CAP_NET_ADMIN)) {
		NL_SET_ERR_MSG(info->extack,
			       "module-wide counters need CAP_NET_ADMIN in the initial user namespace");
		return -EPERM;
	}

	msg = genlmsg_new(5 * nla_total_size_64bit(sizeof(u64)), GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	hdr = genlmsg_put_reply(msg, info, &elec_genl_family, 0,
				ELEC_CMD_MODULE_GET);
	if (!hdr ||
	    nla_put_u64_64bit(msg, ELEC_ATTR_LIVE_INSTANCES,
			      atomic_long_read(&elec_live_instances),
			      ELEC_ATTR_PAD) ||
	    nla_put_u64_64bit(msg, ELEC_ATTR_LIVE_PEERS,
			      atomic_long_read(&elec_live_peers),
			      ELEC_ATTR_PAD) ||
	    nla_put_u64_64bit(msg, ELEC_ATTR_LIVE_SKBS,
			      atomic_long_read(&elec_live_skbs),
			      ELEC_ATTR_PAD) ||
	    nla_put_u64_64bit(msg, ELEC_ATTR_TIMER_THROTTLED,
			      atomic64_read(&elec_timer_throttled),
			      ELEC_ATTR_PAD) ||
	    nla_put_u64_64bit(msg, ELEC_ATTR_TIMER_THROTTLED_NS,
			      atomic64_read(&elec_timer_throttled_ns),
			      ELEC_ATTR_PAD)) {
		nlmsg_free(msg);
		return -EMSGSIZE;
	}
	genlmsg_end(msg, hdr);
	return genlmsg_reply(msg, info);
}

static const struct genl_ops elec_genl_ops[] = {
	{
		.cmd = ELEC_CMD_GROUP_NEW,
		.doit = elec_nl_group_new,
		.policy = elec_policy_group_new,
		.maxattr = ELEC_ATTR_MAX,
	},
	{
		.cmd = ELEC_CMD_GROUP_DEL,
		.doit = elec_nl_instance_cmd,
		.policy = elec_policy_instance,
		.maxattr = ELEC_ATTR_MAX,
	},
	{
		.cmd = ELEC_CMD_GROUP_SET,
		.doit = elec_nl_instance_cmd,
		.policy = elec_policy_group_set,
		.maxattr = ELEC_ATTR_MAX,
	},
	{
		.cmd = ELEC_CMD_GROUP_START,
		.doit = elec_nl_instance_cmd,
		.policy = elec_policy_instance,
		.maxattr = ELEC_ATTR_MAX,
	},
	{
		.cmd = ELEC_CMD_GROUP_STOP,
		.doit = elec_nl_instance_cmd,
		.policy = elec_policy_instance,
		.maxattr = ELEC_ATTR_MAX,
	},
	{
		.cmd = ELEC_CMD_GROUP_ELECT,
		.doit = elec_nl_instance_cmd,
		.policy = elec_policy_instance,
		.maxattr = ELEC_ATTR_MAX,
	},
	{
		.cmd = ELEC_CMD_PEER_ADD,
		.doit = elec_nl_instance_cmd,
		.policy = elec_policy_peer_add,
		.maxattr = ELEC_ATTR_MAX,
	},
	{
		.cmd = ELEC_CMD_PEER_DEL,
		.doit = elec_nl_instance_cmd,
		.policy = elec_policy_peer_del,
		.maxattr = ELEC_ATTR_MAX,
	},
	{
		.cmd = ELEC_CMD_GROUP_GET,
		.doit = elec_nl_group_get_doit,
		.start = elec_nl_group_get_start,
		.dumpit = elec_nl_group_get_dumpit,
		.policy = elec_policy_instance,
		.maxattr = ELEC_ATTR_MAX,
	},
	{
		.cmd = ELEC_CMD_STATS_GET,
		.doit = elec_nl_stats_get_doit,
		.dumpit = elec_nl_stats_get_dumpit,
		.policy = elec_policy_instance,
		.maxattr = ELEC_ATTR_MAX,
	},
	{
		/* no policy: every attribute is refused */
		.cmd = ELEC_CMD_MODULE_GET,
		.doit = elec_nl_module_get,
	},
	{
		.cmd = ELEC_CMD_ALGO_GET,
		.doit = elec_nl_algo_get_doit,
		.dumpit = elec_nl_algo_get_dumpit,
		.policy = elec_policy_algo,
		.maxattr = ELEC_ATTR_MAX,
	},
	{
		.cmd = ELEC_CMD_PEER_RESET,
		.doit = elec_nl_instance_cmd,
		/* it names a peer as PEER_DEL does */
		.policy = elec_policy_peer_del,
		.maxattr = ELEC_ATTR_MAX,
	},
};

static const struct genl_multicast_group elec_genl_mcgrps[] = {
	[ELEC_MCGRP_EVENTS] = { .name = ELECTION_GENL_MCGRP_EVENTS },
};

static struct genl_family elec_genl_family __ro_after_init = {
	.name = ELECTION_GENL_NAME,
	.version = ELECTION_GENL_VERSION,
	.netnsok = true,
	.parallel_ops = true,
	.module = THIS_MODULE,
	.ops = elec_genl_ops,
	.n_ops = ARRAY_SIZE(elec_genl_ops),
	.mcgrps = elec_genl_mcgrps,
	.n_mcgrps = ARRAY_SIZE(elec_genl_mcgrps),
	/* 0: strict header and attribute validation for every command */
	.resv_start_op = 0,
};

/**
 * elec_nl_init() - register the generic netlink family.
 *
 * Return: 0 or a negative errno.
 */
int elec_nl_init(void)
{
	int err;

	err = genl_register_family(&elec_genl_family);
	if (err)
		return err;
	elec_event_init(&elec_genl_family);
	return 0;
}

/**
 * elec_nl_exit() - unregister the family; no event is multicast after.
 *
 * Requests in progress finish first (genl_unregister_family() waits).
 */
void elec_nl_exit(void)
{
	elec_event_exit();
	genl_unregister_family(&elec_genl_family);
}
