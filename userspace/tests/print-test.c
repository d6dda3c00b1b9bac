// SPDX-License-Identifier: GPL-2.0
/*
 * print-test.c - feed electionctl's show/stats printers and the dump filter
 * (ctl/show.c, ctl/stats.c, ctl/query.c, included for their static
 * functions) with replies built in memory; no kernel needed. test_cli.py
 * checks the output.
 *
 * Usage: print-test json|text|text-all|showconf [keydir DIR] (text-all: as -d)
 */
#include "../ctl/query.c"
#include "../ctl/show.c"
#include "../ctl/stats.c"
#include "../ctl/showconf.c"

#define FAMILY	42

static struct nl_msg *reply_new(uint8_t cmd, uint32_t ifindex, uint16_t group,
				uint8_t algo)
{
	struct nl_msg *msg = nlmsg_alloc();

	if (!msg || !genlmsg_put(msg, 0, 0, FAMILY, 0, 0, cmd, 1) ||
	    nla_put_u32(msg, ELEC_ATTR_IFINDEX, ifindex) ||
	    nla_put_string(msg, ELEC_ATTR_IFNAME, "eth\\1") ||
	    nla_put_u16(msg, ELEC_ATTR_GROUP, group) ||
	    nla_put_u32(msg, ELEC_ATTR_NODE_ID, 4000000000U) ||
	    nla_put_u8(msg, ELEC_ATTR_ALGO, algo))
		abort();
	return msg;
}

/* @pos 0: no PEER_POS attribute (a kernel without ring positions) */
static void put_peer(struct nl_msg *msg, uint32_t id, uint8_t last,
		     int alive, uint32_t pos)
{
	const uint8_t mac[6] = { 0x02, 0, 0, 0xab, 0xcd, last };
	struct nlattr *p = nla_nest_start(msg, ELEC_ATTR_PEER);

	if (!p || nla_put_u32(msg, ELEC_ATTR_PEER_ID, id) ||
	    nla_put(msg, ELEC_ATTR_PEER_LLADDR, 6, mac) ||
	    (alive >= 0 && nla_put_u8(msg, ELEC_ATTR_PEER_ALIVE,
				      (uint8_t)alive)) ||
	    (pos && nla_put_u32(msg, ELEC_ATTR_PEER_POS, pos)))
		abort();
	nla_nest_end(msg, p);
}

/* bully: no POS attributes (an older kernel) */
static struct nl_msg *group_reply(uint32_t leader)
{
	struct nl_msg *msg = reply_new(ELEC_CMD_GROUP_GET, 3, 7,
				       ELEC_ALGO_BULLY);
	struct nlattr *peers;

	if (nla_put_u8(msg, ELEC_ATTR_ROLE, leader ? ELEC_ROLE_FOLLOWER :
						      ELEC_ROLE_CANDIDATE) ||
	    nla_put_u32(msg, ELEC_ATTR_LEADER, leader) ||
	    nla_put_u64(msg, ELEC_ATTR_TERM, 12) ||
	    nla_put_u8(msg, ELEC_ATTR_PARTICIPANT, !leader) ||
	    nla_put_u64(msg, ELEC_ATTR_HB_INTERVAL_NS, 20000000) ||
	    nla_put_u32(msg, ELEC_ATTR_HB_MISS, 3) ||
	    nla_put_u64(msg, ELEC_ATTR_TIMEOUT_NS, 100000) ||
	    nla_put_u64(msg, ELEC_ATTR_COORD_TIMEOUT_NS, 60000000000ULL))
		abort();
	peers = nla_nest_start(msg, ELEC_ATTR_PEERS);
	if (!peers)
		abort();
	put_peer(msg, 1, 0x01, 1, 0);
	put_peer(msg, 9, 0x09, 0, 0);
	put_peer(msg, 11, 0x0b, -1, 0);	/* no ALIVE attribute */
	nla_nest_end(msg, peers);
	return msg;
}

/*
 * bully, a key set and a second key (AUTH 1, AUTH_NEXT 1: a key rotation
 * under way), in tracked standby only (track's, which showconf leaves
 * out): peer 1 heard 12.345678 ms ago from its configured address,
 * peer 3 17.456789012 s ago (no other attribute but the window),
 * peer 2 never heard, its frames coming from another address (a mistyped
 * lladdr)
 */
static struct nl_msg *heard_reply(void)
{
	const uint8_t same[6] = { 0x02, 0, 0, 0xab, 0xcd, 0x01 };
	const uint8_t other[6] = { 0x52, 0x54, 0, 0x12, 0x34, 0x56 };
	struct nl_msg *msg = reply_new(ELEC_CMD_GROUP_GET, 3, 12,
				       ELEC_ALGO_BULLY);
	struct nlattr *peers, *p;

	if (nla_put_u8(msg, ELEC_ATTR_ROLE, ELEC_ROLE_LEADER) ||
	    nla_put_u8(msg, ELEC_ATTR_ADMIN_UP, 1) ||
	    nla_put_u8(msg, ELEC_ATTR_AUTH, 1) ||
	    nla_put_u8(msg, ELEC_ATTR_AUTH_NEXT, 1) ||
	    nla_put_u32(msg, ELEC_ATTR_LEADER, 4000000000U) ||
	    nla_put_u64(msg, ELEC_ATTR_TERM, 2) ||
	    nla_put_u8(msg, ELEC_ATTR_DETECTOR, ELECTION_DETECTOR_ADAPTIVE) ||
	    nla_put_u64(msg, ELEC_ATTR_DETECTOR_MARGIN_NS, 1000000) ||
	    nla_put_u64(msg, ELEC_ATTR_DETECTOR_MAX_NS, 30000000) ||
	    nla_put_u8(msg, ELEC_ATTR_TIMEOUT_AUTO, 1) ||
	    nla_put_u8(msg, ELEC_ATTR_STANDBY, 0) ||
	    nla_put_u8(msg, ELEC_ATTR_STANDBY_TRACKED, 1))
		abort();
	peers = nla_nest_start(msg, ELEC_ATTR_PEERS);
	p = nla_nest_start(msg, ELEC_ATTR_PEER);
	if (!peers || !p || nla_put_u32(msg, ELEC_ATTR_PEER_ID, 1) ||
	    nla_put(msg, ELEC_ATTR_PEER_LLADDR, 6, same) ||
	    nla_put_u8(msg, ELEC_ATTR_PEER_ALIVE, 1) ||
	    nla_put_u64(msg, ELEC_ATTR_PEER_HEARD_AGO_NS, 12345678) ||
	    nla_put(msg, ELEC_ATTR_PEER_SEEN_LLADDR, 6, same) ||
	    nla_put_u64(msg, ELEC_ATTR_PEER_DETECT_WINDOW_NS, 2500000) ||
	    nla_put_u64(msg, ELEC_ATTR_PEER_RTT_NS, 150000))
		abort();
	nla_nest_end(msg, p);
	p = nla_nest_start(msg, ELEC_ATTR_PEER);
	if (!p || nla_put_u32(msg, ELEC_ATTR_PEER_ID, 2) ||
	    nla_put(msg, ELEC_ATTR_PEER_LLADDR, 6, same) ||
	    /* never heard: the algorithms count it up (PEER_ALIVE 1) */
	    nla_put_u8(msg, ELEC_ATTR_PEER_ALIVE, 1) ||
	    nla_put(msg, ELEC_ATTR_PEER_SEEN_LLADDR, 6, other) ||
	    nla_put_u64(msg, ELEC_ATTR_PEER_DETECT_WINDOW_NS, 60000000))
		abort();
	nla_nest_end(msg, p);
	p = nla_nest_start(msg, ELEC_ATTR_PEER);
	if (!p || nla_put_u32(msg, ELEC_ATTR_PEER_ID, 3) ||
	    nla_put(msg, ELEC_ATTR_PEER_LLADDR, 6, same) ||
	    nla_put_u8(msg, ELEC_ATTR_PEER_ALIVE, 1) ||
	    nla_put_u64(msg, ELEC_ATTR_PEER_HEARD_AGO_NS, 17456789012ULL) ||
	    nla_put_u64(msg, ELEC_ATTR_PEER_DETECT_WINDOW_NS, 60000000))
		abort();
	nla_nest_end(msg, p);
	nla_nest_end(msg, peers);
	return msg;
}

/*
 * bully with the options off and a preempt delay, no key (a newer
 * kernel), in standby both ways (admin and tracked)
 */
static struct nl_msg *bully_opts_reply(void)
{
	struct nl_msg *msg = reply_new(ELEC_CMD_GROUP_GET, 3, 8,
				       ELEC_ALGO_BULLY);

	if (nla_put_u8(msg, ELEC_ATTR_ROLE, ELEC_ROLE_LEADER) ||
	    nla_put_u32(msg, ELEC_ATTR_LEADER, 4000000000U) ||
	    nla_put_u64(msg, ELEC_ATTR_TERM, 1) ||
	    nla_put_u8(msg, ELEC_ATTR_PARTICIPANT, 0) ||
	    nla_put_u64(msg, ELEC_ATTR_HB_INTERVAL_NS, 1000000000) ||
	    nla_put_u32(msg, ELEC_ATTR_HB_MISS, 3) ||
	    nla_put_u64(msg, ELEC_ATTR_TIMEOUT_NS, 10000000) ||
	    nla_put_u64(msg, ELEC_ATTR_COORD_TIMEOUT_NS, 40000000) ||
	    nla_put_u32(msg, ELEC_ATTR_POS, 4000000000U) ||
	    nla_put_u8(msg, ELEC_ATTR_ASK_SUSPECT, 0) ||
	    nla_put_u8(msg, ELEC_ATTR_PREEMPT, 0) ||
	    nla_put_u64(msg, ELEC_ATTR_PREEMPT_DELAY_NS, 250000000) ||
	    nla_put_u8(msg, ELEC_ATTR_QUORUM, 1) ||
	    nla_put_u8(msg, ELEC_ATTR_STANDBY, 1) ||
	    nla_put_u8(msg, ELEC_ATTR_STANDBY_TRACKED, 1) ||
	    nla_put_u8(msg, ELEC_ATTR_AUTH, 0) ||
	    nla_put_u8(msg, ELEC_ATTR_AUTH_NEXT, 0) ||
	    !nla_nest_start(msg, ELEC_ATTR_PEERS))
		abort();
	return msg;
}

/*
 * a ring algorithm: POS, PEER_POS, and SUPPRESS unless @suppress < 0; the
 * device's MTU and address
 */
static struct nl_msg *ring_reply(uint8_t algo, int suppress)
{
	static const uint8_t own[6] = { 0x02, 0xe1, 0, 0, 0, 0x2a };
	struct nl_msg *msg = reply_new(ELEC_CMD_GROUP_GET, 3, 9, algo);
	struct nlattr *peers;

	if (nla_put_u8(msg, ELEC_ATTR_ROLE, ELEC_ROLE_LEADER) ||
	    nla_put_u32(msg, ELEC_ATTR_LEADER, 4000000000U) ||
	    nla_put_u64(msg, ELEC_ATTR_TERM, 3) ||
	    nla_put_u8(msg, ELEC_ATTR_PARTICIPANT, 0) ||
	    nla_put_u64(msg, ELEC_ATTR_HB_INTERVAL_NS, 100000000) ||
	    nla_put_u32(msg, ELEC_ATTR_HB_MISS, 5) ||
	    nla_put_u64(msg, ELEC_ATTR_TIMEOUT_NS, 100000000) ||
	    nla_put_u64(msg, ELEC_ATTR_COORD_TIMEOUT_NS, 400000000) ||
	    nla_put_u32(msg, ELEC_ATTR_POS, 2) ||
	    (suppress >= 0 &&
	     nla_put_u8(msg, ELEC_ATTR_SUPPRESS, (uint8_t)suppress)) ||
	    /* the rings report the Bully options' defaults */
	    nla_put_u8(msg, ELEC_ATTR_ASK_SUSPECT, 1) ||
	    nla_put_u8(msg, ELEC_ATTR_PREEMPT, 1) ||
	    nla_put_u64(msg, ELEC_ATTR_PREEMPT_DELAY_NS, 0) ||
	    nla_put_u8(msg, ELEC_ATTR_QUORUM, 0) ||
	    nla_put_u32(msg, ELEC_ATTR_MTU, 1500) ||
	    nla_put(msg, ELEC_ATTR_LLADDR, sizeof(own), own))
		abort();
	peers = nla_nest_start(msg, ELEC_ATTR_PEERS);
	if (!peers)
		abort();
	put_peer(msg, 1, 0x01, 1, 4294967295U);
	put_peer(msg, 9, 0x09, 1, 1);
	nla_nest_end(msg, peers);
	return msg;
}

/*
 * the Bully variants (and @algo 8, an algorithm this electionctl does not
 * know) as the kernel reports them: every attribute but SUPPRESS; the
 * options ask-suspect off, preempt on with a 5 ms delay
 */
static struct nl_msg *variant_reply(uint8_t algo, uint32_t leader)
{
	static const uint8_t own[6] = { 0x02, 0xe1, 0, 0, 0, 0x05 };
	struct nl_msg *msg = reply_new(ELEC_CMD_GROUP_GET, 3, 10, algo);
	struct nlattr *peers;

	if (nla_put_u32(msg, ELEC_ATTR_MTU, 9000) ||
	    nla_put(msg, ELEC_ATTR_LLADDR, sizeof(own), own) ||
	    nla_put_u8(msg, ELEC_ATTR_ROLE, ELEC_ROLE_FOLLOWER) ||
	    nla_put_u32(msg, ELEC_ATTR_LEADER, leader) ||
	    nla_put_u64(msg, ELEC_ATTR_TERM, 4) ||
	    nla_put_u8(msg, ELEC_ATTR_PARTICIPANT, 0) ||
	    nla_put_u64(msg, ELEC_ATTR_HB_INTERVAL_NS, 20000000) ||
	    nla_put_u32(msg, ELEC_ATTR_HB_MISS, 3) ||
	    nla_put_u64(msg, ELEC_ATTR_TIMEOUT_NS, 10000000) ||
	    nla_put_u64(msg, ELEC_ATTR_COORD_TIMEOUT_NS, 40000000) ||
	    nla_put_u32(msg, ELEC_ATTR_POS, 4000000000U) ||
	    nla_put_u8(msg, ELEC_ATTR_ASK_SUSPECT, 0) ||
	    nla_put_u8(msg, ELEC_ATTR_PREEMPT, 1) ||
	    nla_put_u64(msg, ELEC_ATTR_PREEMPT_DELAY_NS, 5000000) ||
	    nla_put_u8(msg, ELEC_ATTR_QUORUM, 0))
		abort();
	peers = nla_nest_start(msg, ELEC_ATTR_PEERS);
	if (!peers)
		abort();
	put_peer(msg, 1, 0x01, 1, 1);
	put_peer(msg, 2, 0x02, 0, 2);
	nla_nest_end(msg, peers);
	return msg;
}

/*
 * invitation: no Bully options; the search period, the group number
 * (@seq, @coord: the local node 4000000000 is a member of 9's group with
 * peer 3; peer 12 is not a member) or, @coord 0, between groups
 */
static struct nl_msg *inv_reply(uint32_t coord, uint64_t seq)
{
	struct nl_msg *msg = reply_new(ELEC_CMD_GROUP_GET, 3, 11,
				       ELEC_ALGO_INVITATION);
	struct nlattr *peers, *p;
	static const uint32_t ids[] = { 3, 9, 12 };
	size_t i;

	if (nla_put_u8(msg, ELEC_ATTR_ROLE, coord ? ELEC_ROLE_FOLLOWER :
						     ELEC_ROLE_CANDIDATE) ||
	    nla_put_u32(msg, ELEC_ATTR_LEADER, coord) ||
	    nla_put_u64(msg, ELEC_ATTR_TERM, seq) ||
	    nla_put_u8(msg, ELEC_ATTR_PARTICIPANT, !coord) ||
	    nla_put_u64(msg, ELEC_ATTR_HB_INTERVAL_NS, 20000000) ||
	    nla_put_u32(msg, ELEC_ATTR_HB_MISS, 3) ||
	    nla_put_u64(msg, ELEC_ATTR_TIMEOUT_NS, 10000000) ||
	    nla_put_u64(msg, ELEC_ATTR_COORD_TIMEOUT_NS, 40000000) ||
	    nla_put_u32(msg, ELEC_ATTR_POS, 4000000000U) ||
	    nla_put_u8(msg, ELEC_ATTR_ASK_SUSPECT, 1) ||
	    nla_put_u8(msg, ELEC_ATTR_PREEMPT, 1) ||
	    nla_put_u64(msg, ELEC_ATTR_PREEMPT_DELAY_NS, 0) ||
	    nla_put_u8(msg, ELEC_ATTR_QUORUM, 0) ||
	    nla_put_u64(msg, ELEC_ATTR_SEARCH_INTERVAL_NS, 60000000) ||
	    nla_put_u64(msg, ELEC_ATTR_INV_SEQ, seq) ||
	    nla_put_u32(msg, ELEC_ATTR_INV_COORDINATOR, coord))
		abort();
	peers = nla_nest_start(msg, ELEC_ATTR_PEERS);
	if (!peers)
		abort();
	for (i = 0; i < sizeof(ids) / sizeof(ids[0]); i++) {
		p = nla_nest_start(msg, ELEC_ATTR_PEER);
		if (!p || nla_put_u32(msg, ELEC_ATTR_PEER_ID, ids[i]) ||
		    nla_put_u8(msg, ELEC_ATTR_PEER_ALIVE, 1) ||
		    nla_put_u32(msg, ELEC_ATTR_PEER_POS, ids[i]) ||
		    nla_put_u8(msg, ELEC_ATTR_PEER_MEMBER,
			       coord && ids[i] != 12))
			abort();
		nla_nest_end(msg, p);
	}
	nla_nest_end(msg, peers);
	return msg;
}

/*
 * min-bully or enh-bully counters: QUERY and CID in both nests, ALIVE and
 * type 15 (newer than this electionctl) in RX only; no TX_DROPS, no
 * TIMER_LATE, no QUORUM_LOST, no DETECT_DEFERRED
 */
static struct nl_msg *variant_stats_reply(uint8_t algo)
{
	struct nl_msg *msg = reply_new(ELEC_CMD_STATS_GET, 3, 10, algo);
	struct nlattr *n;

	n = nla_nest_start(msg, ELEC_ATTR_TX);
	if (!n || nla_put_u64(msg, ELEC_MSG_ELECTION, 1) ||
	    nla_put_u64(msg, ELEC_MSG_COORDINATOR, 2) ||
	    nla_put_u64(msg, ELEC_MSG_HEARTBEAT, 40) ||
	    nla_put_u64(msg, ELEC_MSG_QUERY, 3) ||
	    nla_put_u64(msg, ELEC_MSG_CID, 4))
		abort();
	nla_nest_end(msg, n);
	n = nla_nest_start(msg, ELEC_ATTR_RX);
	if (!n || nla_put_u64(msg, ELEC_MSG_ANSWER, 1) ||
	    nla_put_u64(msg, ELEC_MSG_QUERY, 5) ||
	    nla_put_u64(msg, ELEC_MSG_CID, 6) ||
	    nla_put_u64(msg, ELEC_MSG_ALIVE, 9) ||
	    nla_put_u64(msg, 15, 7))		/* a newer type */
		abort();
	nla_nest_end(msg, n);
	n = nla_nest_start(msg, ELEC_ATTR_DROPS);
	if (!n || nla_put_u64(msg, ELEC_DROP_MALFORMED, 2))
		abort();
	nla_nest_end(msg, n);
	if (nla_put_u64(msg, ELEC_ATTR_ELECTIONS, 1) ||
	    nla_put_u64(msg, ELEC_ATTR_LEADER_CHANGES, 1) ||
	    nla_put_u64(msg, ELEC_ATTR_TX_ERRORS, 0) ||
	    nla_put_u64(msg, ELEC_ATTR_ELECTIONS_LIMITED, 0))
		abort();
	return msg;
}

/*
 * @algo's counters in a group without a key, quorum off (AUTH 0, QUORUM
 * 0): election 3 and heartbeat 5 sent, wrong_lladdr 1 and auth_unexpected
 * 2 (a keyed peer) dropped, every other counter 0
 */
static struct nl_msg *keyless_stats_reply(uint8_t algo)
{
	struct nl_msg *msg = reply_new(ELEC_CMD_STATS_GET, 3, 20 + algo, algo);
	struct nlattr *n;
	int t;

	if (nla_put_u8(msg, ELEC_ATTR_AUTH, 0) ||
	    nla_put_u8(msg, ELEC_ATTR_QUORUM, 0))
		abort();
	n = nla_nest_start(msg, ELEC_ATTR_TX);
	for (t = 1; n && t <= ELEC_MSG_MAX; t++)
		if (nla_put_u64(msg, t, t == ELEC_MSG_ELECTION ? 3 :
				t == ELEC_MSG_HEARTBEAT ? 5 : 0))
			abort();
	nla_nest_end(msg, n);
	n = nla_nest_start(msg, ELEC_ATTR_RX);
	for (t = 1; n && t <= ELEC_MSG_MAX; t++)
		if (nla_put_u64(msg, t, 0))
			abort();
	nla_nest_end(msg, n);
	n = nla_nest_start(msg, ELEC_ATTR_DROPS);
	for (t = 1; n && t <= ELEC_DROP_MAX; t++)
		if (nla_put_u64(msg, t, t == ELEC_DROP_WRONG_LLADDR ? 1 :
				t == ELEC_DROP_AUTH_UNEXPECTED ? 2 : 0))
			abort();
	nla_nest_end(msg, n);
	return msg;
}

/* @with_late: the timer lateness histogram (a newer kernel) */
static struct nl_msg *stats_reply(bool with_late)
{
	struct nl_msg *msg = reply_new(ELEC_CMD_STATS_GET, 3, 7,
				       ELEC_ALGO_BULLY);
	struct nlattr *n;

	n = nla_nest_start(msg, ELEC_ATTR_TX);
	if (!n || nla_put_u64(msg, ELEC_MSG_ELECTION, 2) ||
	    nla_put(msg, ELEC_ATTR_PAD, 0, NULL) ||	/* padding: skipped */
	    nla_put_u64(msg, ELEC_MSG_HEARTBEAT, 18446744073709551615ULL) ||
	    nla_put_u64(msg, ELEC_MSG_ACK, 7) ||
	    nla_put_u64(msg, ELEC_MSG_RETRY, 3) ||
	    nla_put_u64(msg, 15, 5))		/* a newer type */
		abort();
	nla_nest_end(msg, n);
	/* no RX nest at all: every type prints 0 */
	n = nla_nest_start(msg, ELEC_ATTR_DROPS);
	if (!n || nla_put_u64(msg, ELEC_DROP_STALE_TERM, 4) ||
	    nla_put_u64(msg, ELEC_DROP_STOPPED, 1) ||
	    nla_put_u64(msg, ELEC_DROP_QUEUE_FULL, 8) ||
	    nla_put_u64(msg, ELEC_DROP_AUTH_BAD, 6) ||
	    nla_put_u64(msg, ELEC_DROP_AUTH_REPLAY, 2))
		abort();
	nla_nest_end(msg, n);
	if (nla_put_u64(msg, ELEC_ATTR_ELECTIONS, 6) ||
	    nla_put_u64(msg, ELEC_ATTR_LEADER_CHANGES, 2) ||
	    nla_put_u64(msg, ELEC_ATTR_TX_ERRORS, 1) ||
	    nla_put_u64(msg, ELEC_ATTR_ELECTIONS_LIMITED, 3) ||
	    nla_put_u64(msg, ELEC_ATTR_QUORUM_LOST, 2) ||
	    nla_put_u64(msg, ELEC_ATTR_DETECT_DEFERRED, 4) ||
	    nla_put_u64(msg, ELEC_ATTR_SUSPICIONS, 9) ||
	    nla_put_u64(msg, ELEC_ATTR_FALSE_SUSPICIONS, 3))
		abort();
	n = nla_nest_start(msg, ELEC_ATTR_TX_DROPS);
	if (!n || nla_put_u64(msg, ELEC_TX_DROP_MTU, 1))
		abort();
	nla_nest_end(msg, n);
	if (with_late) {
		struct nlattr *late = nla_nest_start(msg, ELEC_ATTR_TIMER_LATE);

		/* buckets 0 (< 1us), 3 ([4, 8) us), 21 (the rest); 2 absent */
		n = nla_nest_start(msg, ELEC_ATTR_TIMER_LATE_BUCKETS);
		if (!late || !n || nla_put_u64(msg, 1, 5) ||
		    nla_put_u64(msg, 4, 7) ||
		    nla_put_u64(msg, ELECTION_TIMER_LATE_BUCKETS, 1))
			abort();
		nla_nest_end(msg, n);
		if (nla_put_u64(msg, ELEC_ATTR_TIMER_LATE_MAX_NS, 2000000000) ||
		    nla_put_u64(msg, ELEC_ATTR_TIMER_LATE_COUNT, 13))
			abort();
		nla_nest_end(msg, late);
	}
	return msg;
}

static void feed(struct elec_query *q, struct nl_msg *msg)
{
	struct nlattr *tb[ELEC_ATTR_MAX + 1];

	if (elec_nl_parse(q->ctx, nlmsg_hdr(msg), tb, NULL))
		abort();
	query_cb(tb, q);
	nlmsg_free(msg);
}

int main(int argc, char **argv)
{
	struct elec_ctx ctx = { .family = FAMILY };
	struct elec_args none = { 0 }, other_dev = { 0 }, other_group = { 0 };
	struct elec_json j;
	struct elec_query q = { .ctx = &ctx, .out = stdout, .j = &j };

	if (argc == 4 && !strcmp(argv[1], "showconf") &&
	    !strcmp(argv[2], "keydir"))
		showconf_keydir = argv[3];
	else if (argc != 2)
		return 2;
	ctx.json = !strcmp(argv[1], "json");
	ctx.details = !strcmp(argv[1], "text-all");	/* -d */
	if (!strcmp(argv[1], "showconf")) {
		q.print = showconf_print;
		q.filter = &none;
		feed(&q, group_reply(0));
		feed(&q, bully_opts_reply());
		feed(&q, ring_reply(ELEC_ALGO_RING, 0));
		feed(&q, variant_reply(ELEC_ALGO_MIN_BULLY, 1));
		feed(&q, inv_reply(9, 5));
		feed(&q, heard_reply());
		return 0;
	}
	other_dev.seen = ELEC_KWB(ELEC_KW_DEV);
	other_dev.ifindex = 4;
	other_group.seen = ELEC_KWB(ELEC_KW_GROUP);
	other_group.group = 8;

	/* line 1: show, two instances (filtered ones must not appear) */
	elec_json_init(&j, stdout);
	q.print = show_print;
	if (ctx.json)
		elec_json_arr_begin(&j, NULL);
	q.filter = &none;
	feed(&q, group_reply(0));
	q.filter = &other_dev;
	feed(&q, group_reply(5));
	q.filter = &other_group;
	feed(&q, group_reply(5));
	q.filter = &none;
	feed(&q, group_reply(4000000001U));
	feed(&q, bully_opts_reply());
	feed(&q, ring_reply(ELEC_ALGO_RING, 0));
	feed(&q, ring_reply(ELEC_ALGO_RING, 1));
	feed(&q, ring_reply(ELEC_ALGO_RING_LIST, -1));
	feed(&q, variant_reply(ELEC_ALGO_MIN_BULLY, 1));
	feed(&q, variant_reply(ELEC_ALGO_ENH_BULLY, 4000000000U));
	feed(&q, variant_reply(8, 0));	/* a newer algorithm */
	feed(&q, inv_reply(9, 5));	/* a member of 9's group */
	feed(&q, inv_reply(0, 0));	/* between groups, no member */
	feed(&q, heard_reply());
	if (ctx.json) {
		elec_json_arr_end(&j);
		putchar('\n');
	}
	/* line 2: stats */
	elec_json_init(&j, stdout);
	q.print = stats_print;
	if (ctx.json)
		elec_json_arr_begin(&j, NULL);
	feed(&q, stats_reply(false));
	feed(&q, stats_reply(true));
	feed(&q, variant_stats_reply(ELEC_ALGO_MIN_BULLY));
	feed(&q, variant_stats_reply(ELEC_ALGO_ENH_BULLY));
	feed(&q, keyless_stats_reply(ELEC_ALGO_BULLY));
	feed(&q, keyless_stats_reply(ELEC_ALGO_RING));
	feed(&q, keyless_stats_reply(ELEC_ALGO_INVITATION));
	if (ctx.json) {
		elec_json_arr_end(&j);
		putchar('\n');
	}
	/* line 3: peer show; line 4: peer show id 2 */
	for (int pass = 0; pass < 2; pass++) {
		struct elec_args id2 = { .seen = ELEC_KWB(ELEC_KW_ID), .id = 2 };

		elec_json_init(&j, stdout);
		q.print = peer_show_print;
		q.filter = pass ? &id2 : &none;
		if (ctx.json)
			elec_json_arr_begin(&j, NULL);
		feed(&q, group_reply(0));
		feed(&q, heard_reply());
		if (ctx.json) {
			elec_json_arr_end(&j);
			putchar('\n');
		}
	}
	return 0;
}
