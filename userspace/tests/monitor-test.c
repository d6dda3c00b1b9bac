// SPDX-License-Identifier: GPL-2.0
/*
 * monitor-test.c - drive electionctl's event printer and lost-event logic
 * (ctl/monitor.c, included so its static functions can be called) with
 * events built in memory; no kernel needed. test_cli.py checks the output.
 *
 * Usage: monitor-test json|text
 *        monitor-test filter json|text: filters, snapshot, roles
 *        monitor-test hooks FILE: role changes run a hook (it appends its
 *	environment to FILE); the queue's overflow
 */
#include "../ctl/monitor.c"

#define FAMILY	42

struct ev {
	uint8_t type;
	uint64_t seq;
	uint32_t peer;
	uint32_t leader;
	bool bad_seq;	/* SEQ as a u32: fails the reply policy */
	int role;	/* ROLE + 1; 0: no ROLE attribute */
	uint16_t group;	/* 0: 7 */
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
	    nla_put_u16(msg, ELEC_ATTR_GROUP, e->group ? e->group : 7) ||
	    (e->role && nla_put_u8(msg, ELEC_ATTR_ROLE,
				   (uint8_t)(e->role - 1))) ||
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
	struct ev e = { type, seq, peer, leader, false, 0, 0 };

	datagram(ctx, m, &e, 1, false);
}

/* an event with a role (ELEC_ROLE_*) and a group */
static void role_ev(struct elec_ctx *ctx, struct elec_mon *m, uint8_t type,
		    uint64_t seq, uint32_t leader, int role, uint16_t group)
{
	struct ev e = { type, seq, 0, leader, false, role + 1, group };

	datagram(ctx, m, &e, 1, false);
}

/*
 * Filters (group 7 only), a snapshot with SEQ 5 (its events up to 5 are
 * not printed), roles in the output.
 */
static int filter_test(struct elec_ctx *ctx)
{
	struct elec_mon m = { .pidfd = -1 };
	struct elec_mon_inst *in;

	m.filter.seen = ELEC_KWB(ELEC_KW_GROUP);
	m.filter.group = 7;
	in = mon_inst(&m, 1, 7);
	if (!in)
		return 1;
	in->snap_seq = 5;
	in->role = ELEC_ROLE_FOLLOWER;
	role_ev(ctx, &m, ELEC_EVENT_LEADER_CHANGED, 4, 5, ELEC_ROLE_FOLLOWER, 7);
	role_ev(ctx, &m, ELEC_EVENT_LEADER_CHANGED, 5, 5, ELEC_ROLE_FOLLOWER, 7);
	role_ev(ctx, &m, ELEC_EVENT_LEADER_CHANGED, 6, 6, ELEC_ROLE_FOLLOWER, 8);
	role_ev(ctx, &m, ELEC_EVENT_LEADER_CHANGED, 7, 5, ELEC_ROLE_LEADER, 7);
	role_ev(ctx, &m, ELEC_EVENT_STOPPED, 9, 0, ELEC_ROLE_STOPPED, 8);
	role_ev(ctx, &m, ELEC_EVENT_STOPPED, 10, 0, ELEC_ROLE_STOPPED, 7);
	free(m.insts);
	return 0;
}

/* wait for the running hook and any that follow */
static int drain(struct elec_ctx *ctx, struct elec_mon *m)
{
	while (m->child)
		if (hook_reap(ctx, m, true))
			return 1;
	return 0;
}

/*
 * Role changes run the hook, one at a time, in order; a change of leader
 * without a change of role does not. Then, nothing running: a change of
 * an instance whose change waits replaces it, a change back cancels it;
 * changes of 70 instances overflow the 64 places (the oldest dropped).
 * Last, a hook that outlives hook-timeout is killed.
 */
static int hooks_test(struct elec_ctx *ctx, const char *file)
{
	static struct elec_mon m = { .pidfd = -1,
				     .hook_timeout_ns = HOOK_TIMEOUT_NS };
	static struct elec_mon slow = { .pidfd = -1,
					.hook_timeout_ns = 200000000ULL };
	char script[512];
	char *args[] = { "/bin/sh", "-c", script, NULL };
	char *sleeper[] = { "sleep", "5", NULL };
	uint64_t t0;
	int i;

	snprintf(script, sizeof(script),
		 "echo \"$ELECTION_EVENT $ELECTION_DEV $ELECTION_GROUP "
		 "$ELECTION_ID $ELECTION_LEADER $ELECTION_TERM $ELECTION_ROLE "
		 "$ELECTION_PREV_ROLE $ELECTION_SEQ\" >> '%s'; sleep 0.05",
		 file);
	m.exec_argv = args;
	role_ev(ctx, &m, ELEC_EVENT_LEADER_CHANGED, 1, 0, ELEC_ROLE_FOLLOWER, 7);
	role_ev(ctx, &m, ELEC_EVENT_LEADER_CHANGED, 2, 9, ELEC_ROLE_FOLLOWER, 7);
	if (drain(ctx, &m))
		return 1;
	role_ev(ctx, &m, ELEC_EVENT_ELECTION_STARTED, 3, 0, ELEC_ROLE_CANDIDATE,
		7);
	if (drain(ctx, &m))
		return 1;
	role_ev(ctx, &m, ELEC_EVENT_LEADER_CHANGED, 4, 5, ELEC_ROLE_LEADER, 7);
	role_ev(ctx, &m, ELEC_EVENT_PEER_UP, 5, 5, ELEC_ROLE_LEADER, 7);
	if (drain(ctx, &m))
		return 1;
	role_ev(ctx, &m, ELEC_EVENT_STOPPED, 6, 0, ELEC_ROLE_STOPPED, 7);
	if (drain(ctx, &m))
		return 1;
	printf("ran, dropped %llu\n", (unsigned long long)m.dropped);
	m.dropped = 0;
	/* nothing runs from here on (dry run): every change waits */
	ctx->dry_run = true;
	role_ev(ctx, &m, ELEC_EVENT_LEADER_CHANGED, 7, 5, ELEC_ROLE_FOLLOWER, 7);
	role_ev(ctx, &m, ELEC_EVENT_LEADER_CHANGED, 8, 5, ELEC_ROLE_LEADER, 7);
	printf("replaced: queued %u role %u prev %d seq %llu dropped %llu\n",
	       m.n_jobs, m.jobs[m.job_head].ev.role,
	       m.jobs[m.job_head].prev_role,
	       (unsigned long long)m.jobs[m.job_head].ev.seq,
	       (unsigned long long)m.dropped);
	role_ev(ctx, &m, ELEC_EVENT_STOPPED, 9, 0, ELEC_ROLE_STOPPED, 7);
	printf("cancelled: queued %u dropped %llu\n", m.n_jobs,
	       (unsigned long long)m.dropped);
	m.dropped = 0;
	for (i = 0; i < 70; i++)
		role_ev(ctx, &m, ELEC_EVENT_LEADER_CHANGED, 10 + i, 5,
			ELEC_ROLE_LEADER, (uint16_t)(100 + i));
	printf("queued %u dropped %llu last-seq %llu first-seq %llu\n",
	       m.n_jobs, (unsigned long long)m.dropped,
	       (unsigned long long)m.jobs[(m.job_head + m.n_jobs - 1) %
					  HOOK_QUEUE].ev.seq,
	       (unsigned long long)m.jobs[m.job_head].ev.seq);
	if (print_dropped(ctx, &m))
		return 1;
	free(m.insts);
	/* a hook that hangs */
	ctx->dry_run = false;
	slow.exec_argv = sleeper;
	t0 = mono_ns();
	role_ev(ctx, &slow, ELEC_EVENT_LEADER_CHANGED, 1, 5, ELEC_ROLE_LEADER, 7);
	while (slow.child && mono_ns() - t0 < 4000000000ULL) {
		usleep(10000);
		hook_overdue(&slow);
		if (hook_reap(ctx, &slow, false))
			return 1;
	}
	printf("timeout: %s after %llu ms\n", slow.child ? "still running" :
	       "killed", (unsigned long long)((mono_ns() - t0) / 1000000));
	free(slow.insts);
	return 0;
}

int main(int argc, char **argv)
{
	struct elec_ctx ctx = { .family = FAMILY };
	struct elec_mon m = { 0 };
	const struct ev two[] = {
		{ ELEC_EVENT_PEER_UP, 4, 9, 5, false, 0, 0 },
		{ ELEC_EVENT_PEER_DOWN, 6, 9, 5, false, 0, 0 },
	};
	const struct ev bad = { ELEC_EVENT_STOPPED, 7, 0, 0, true, 0, 0 };

	if (argc == 3 && !strcmp(argv[1], "filter")) {
		ctx.json = !strcmp(argv[2], "json");
		return filter_test(&ctx);
	}
	if (argc == 3 && !strcmp(argv[1], "hooks"))
		return hooks_test(&ctx, argv[2]);
	if (argc != 2)
		return 2;
	ctx.json = !strcmp(argv[1], "json");
	m.pidfd = -1;

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
	free(m.insts);
	memset(&m, 0, sizeof(m));
	m.pidfd = -1;
	if (mon_overflow(&m))
		return 1;
	one(&ctx, &m, ELEC_EVENT_ELECTION_STARTED, 1, 0, 0);	/* queued */
	one(&ctx, &m, ELEC_EVENT_LEADER_CHANGED, 3, 0, 5);	/* gap 1 */
	one(&ctx, &m, ELEC_EVENT_LEADER_CHANGED, 2, 0, 5);	/* reload */
	one(&ctx, &m, ELEC_EVENT_LEADER_CHANGED, 3, 0, 5);
	datagram(&ctx, &m, two, 2, true);		/* 4, gap 1, 6 */
	datagram(&ctx, &m, &bad, 1, false);		/* skipped */
	one(&ctx, &m, 99, 8, 0, 5);			/* gap 1, event_99 */
	free(m.insts);
	return 0;
}
