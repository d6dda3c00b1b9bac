// SPDX-License-Identifier: GPL-2.0
/*
 * monitor-test.c - drive electionctl's event printer and lost-event logic
 * (ctl/monitor.c, included so its static functions can be called) with
 * events built in memory; no kernel needed. test_cli.py checks the output.
 *
 * Usage: monitor-test json|text
 */
#include "../ctl/monitor.c"

#define FAMILY	42

struct ev {
	uint8_t type;
	uint64_t seq;
	uint32_t peer;
	uint32_t leader;
	bool bad_seq;	/* SEQ as a u32: fails the reply policy */
};

static void put_event(struct nl_msg *msg, const struct ev *e)
{
	struct nlmsghdr *nlh;
	void *hdr;

	nlh = nlmsg_put(msg, 0, 0, FAMILY, 0, 0);
	if (!nlh)
		abort();
	hdr = nlmsg_reserve(msg, GENL_HDRLEN, NLMSG_ALIGNTO);
	if (!hdr)
		abort();
	memset(hdr, 0, GENL_HDRLEN);
	((struct genlmsghdr *)hdr)->cmd = ELEC_CMD_EVENT;
	((struct genlmsghdr *)hdr)->version = ELECTION_GENL_VERSION;
	if (nla_put_u8(msg, ELEC_ATTR_EVENT, e->type) ||
	    nla_put_u64(msg, ELEC_ATTR_TIMESTAMP_NS, 1234567890123ULL) ||
	    (e->bad_seq ? nla_put_u32(msg, ELEC_ATTR_SEQ, (uint32_t)e->seq) :
			  nla_put_u64(msg, ELEC_ATTR_SEQ, e->seq)) ||
	    nla_put_u32(msg, ELEC_ATTR_IFINDEX, 1) ||
	    nla_put_string(msg, ELEC_ATTR_IFNAME, "veth\"0") ||
	    nla_put_u16(msg, ELEC_ATTR_GROUP, 7) ||
	    nla_put_u32(msg, ELEC_ATTR_NODE_ID, 5) ||
	    nla_put_u32(msg, ELEC_ATTR_LEADER, e->leader) ||
	    nla_put_u64(msg, ELEC_ATTR_TERM, 3) ||
	    (e->peer && nla_put_u32(msg, ELEC_ATTR_PEER_ID, e->peer)))
		abort();
}

/* Several events in one datagram (plus a foreign message when @foreign). */
static void datagram(struct elec_ctx *ctx, struct elec_mon *m,
		     const struct ev *evs, int n, bool foreign)
{
	char buf[4096] __attribute__((aligned(8)));
	int len = 0, i;

	for (i = 0; i < n; i++) {
		struct nl_msg *msg = nlmsg_alloc();

		if (!msg)
			abort();
		put_event(msg, &evs[i]);
		if (foreign && i == 1) {
			struct nlmsghdr *f = (void *)(buf + len);

			f->nlmsg_len = NLMSG_HDRLEN;
			f->nlmsg_type = FAMILY + 1;
			len += NLMSG_HDRLEN;
		}
		memcpy(buf + len, nlmsg_hdr(msg), nlmsg_hdr(msg)->nlmsg_len);
		len += NLMSG_ALIGN(nlmsg_hdr(msg)->nlmsg_len);
		nlmsg_free(msg);
	}
	if (handle_datagram(ctx, m, buf, len))
		exit(1);
}

static void one(struct elec_ctx *ctx, struct elec_mon *m, uint8_t type,
		uint64_t seq, uint32_t peer, uint32_t leader)
{
	struct ev e = { type, seq, peer, leader, false };

	datagram(ctx, m, &e, 1, false);
}

int main(int argc, char **argv)
{
	struct elec_ctx ctx = { .family = FAMILY };
	struct elec_mon m = { 0 };
	const struct ev two[] = {
		{ ELEC_EVENT_PEER_UP, 4, 9, 5, false },
		{ ELEC_EVENT_PEER_DOWN, 6, 9, 5, false },
	};
	const struct ev bad = { ELEC_EVENT_STOPPED, 7, 0, 0, true };

	if (argc != 2)
		return 2;
	ctx.json = !strcmp(argv[1], "json");

	one(&ctx, &m, ELEC_EVENT_LEADER_CHANGED, 5, 0, 5);
	one(&ctx, &m, ELEC_EVENT_ELECTION_STARTED, 6, 0, 0);
	one(&ctx, &m, ELEC_EVENT_PEER_DOWN, 9, 3, 0);	/* gap 2 */
	if (mon_overflow(&m))				/* pending */
		return 1;
	one(&ctx, &m, ELEC_EVENT_PEER_UP, 10, 3, 0);	/* queued, no gap */
	one(&ctx, &m, ELEC_EVENT_STOPPED, 14, 0, 0);	/* gap 3 */
	if (mon_overflow(&m) || mon_quiet(&ctx, &m))	/* gap -1 */
		return 1;
	one(&ctx, &m, ELEC_EVENT_LEADER_CHANGED, 20, 0, 7);	/* no gap */

	/* overflow before any event: the queued events give the baseline */
	memset(&m, 0, sizeof(m));
	if (mon_overflow(&m))
		return 1;
	one(&ctx, &m, ELEC_EVENT_ELECTION_STARTED, 1, 0, 0);	/* queued */
	one(&ctx, &m, ELEC_EVENT_LEADER_CHANGED, 3, 0, 5);	/* gap 1 */
	one(&ctx, &m, ELEC_EVENT_LEADER_CHANGED, 2, 0, 5);	/* reload */
	one(&ctx, &m, ELEC_EVENT_LEADER_CHANGED, 3, 0, 5);
	datagram(&ctx, &m, two, 2, true);		/* 4, gap 1, 6 */
	datagram(&ctx, &m, &bad, 1, false);		/* skipped */
	one(&ctx, &m, 99, 8, 0, 5);			/* gap 1, event_99 */
	return 0;
}
