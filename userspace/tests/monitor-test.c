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
 *        monitor-test types json: event words (leader_changed stopped)
 *        monitor-test ts: -ts times of nondecreasing kernel timestamps
 *	while the offset between the clocks jitters and steps
 *        monitor-test reload json|text FILE: the module unloaded and
 *	loaded again (nlctrl's notifications), hooks as in "hooks"
 *        monitor-test term FILE: SIGTERM with events queued on the socket:
 *	they are read, their hooks run to the end, the loop returns 0
 *        monitor-test term-again FILE: the same, and the hook sends a
 *	second SIGTERM: it is killed, the process dies of the signal
 *        monitor-test hookwait: how long the loop waits for a hook
 *        monitor-test insts: instances that came and went are forgotten
 *        monitor-test clockoff: the offset between the clocks from reads
 *	of which one was preempted
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
	uint64_t ts;	/* 0: 1234567890123 */
};

/* the family id of the events put_event() builds */
static uint16_t ev_family = FAMILY;

static void put_event(struct nl_msg *msg, const struct ev *e)
{
	struct nlmsghdr *nlh;
	void *hdr;

	nlh = nlmsg_put(msg, 0, 0, ev_family, 0, 0);
	if (!nlh)
		abort();
	hdr = nlmsg_reserve(msg, GENL_HDRLEN, NLMSG_ALIGNTO);
	if (!hdr)
		abort();
	memset(hdr, 0, GENL_HDRLEN);
	((struct genlmsghdr *)hdr)->cmd = ELEC_CMD_EVENT;
	((struct genlmsghdr *)hdr)->version = ELECTION_GENL_VERSION;
	if (nla_put_u8(msg, ELEC_ATTR_EVENT, e->type) ||
	    nla_put_u64(msg, ELEC_ATTR_TIMESTAMP_NS,
			e->ts ? e->ts : 1234567890123ULL) ||
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
	struct ev e = { type, seq, peer, leader, false, 0, 0, 0 };

	datagram(ctx, m, &e, 1, false);
}

/* an event with a role (ELEC_ROLE_*) and a group */
static void role_ev(struct elec_ctx *ctx, struct elec_mon *m, uint8_t type,
		    uint64_t seq, uint32_t leader, int role, uint16_t group)
{
	struct ev e = { type, seq, 0, leader, false, role + 1, group, 0 };

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
	t0 = elec_mono_ns();
	role_ev(ctx, &slow, ELEC_EVENT_LEADER_CHANGED, 1, 5, ELEC_ROLE_LEADER, 7);
	while (slow.child && elec_mono_ns() - t0 < 4000000000ULL) {
		usleep(10000);
		hook_overdue(&slow);
		if (hook_reap(ctx, &slow, false))
			return 1;
	}
	printf("timeout: %s after %llu ms\n", slow.child ? "still running" :
	       "killed", (unsigned long long)((elec_mono_ns() - t0) / 1000000));
	free(slow.insts);
	return 0;
}

/*
 * Event words leader_changed and stopped: the others are not printed but
 * still count for the gaps (seq 4 is lost, 2 and 3 are not).
 */
static int types_test(struct elec_ctx *ctx)
{
	struct elec_mon m = { .pidfd = -1 };

	m.types = 1U << ELEC_EVENT_LEADER_CHANGED | 1U << ELEC_EVENT_STOPPED;
	role_ev(ctx, &m, ELEC_EVENT_LEADER_CHANGED, 1, 5, ELEC_ROLE_LEADER, 7);
	one(ctx, &m, ELEC_EVENT_PEER_DOWN, 2, 3, 5);
	one(ctx, &m, ELEC_EVENT_ELECTION_STARTED, 3, 0, 5);
	one(ctx, &m, ELEC_EVENT_LEADER_CHANGED, 5, 0, 9);
	one(ctx, &m, ELEC_EVENT_PEER_UP, 6, 3, 9);
	role_ev(ctx, &m, ELEC_EVENT_STOPPED, 7, 0, ELEC_ROLE_STOPPED, 7);
	free(m.insts);
	return 0;
}

/* ts_test's offsets between the clocks, one per event */
static const int64_t ts_offs[] = {
	1799998765432209877LL + 1500,		/* 1800000000.000101500 */
	1799998765432209877LL,			/* jitter: 1.5 us less */
	1799998765432209877LL + 200,
	1799998765432209877LL + 5000000000LL,	/* a step forward, 5 s */
	1799998765432209877LL - 10000000000LL,	/* a step back, 10 s */
	1799998765432209877LL - 10000000000LL,
};

static unsigned int ts_n;

static int64_t ts_off(void)
{
	return ts_offs[ts_n < ARRAY_SIZE(ts_offs) ? ts_n++ : ts_n - 1];
}

/*
 * -ts: two events of one kernel timestamp while the offset between the
 * clocks jitters print one time; a clock step forward is followed; after
 * a step back, times stay at the last one until the kernel's catch up.
 */
static int ts_test(struct elec_ctx *ctx)
{
	static const uint64_t ts[] = { 0, 0, 1234568890123ULL,
				       1234569890123ULL, 1234570890123ULL,
				       1234571890123ULL };
	struct elec_mon m = { .pidfd = -1, .clock_off = ts_off };
	unsigned int i;

	ctx->timestamp = ELEC_TS_SHORT;
	for (i = 0; i < ARRAY_SIZE(ts); i++) {
		struct ev e = { ELEC_EVENT_LEADER_CHANGED, i + 1, 0, 5, false,
				0, 0, ts[i] };

		datagram(ctx, &m, &e, 1, false);
	}
	free(m.insts);
	return 0;
}

/* A notification of nlctrl: @cmd for @name, id @id, with group @grp (0: none). */
static void ctrl_msg(struct elec_ctx *ctx, struct elec_mon *m, uint8_t cmd,
		     const char *name, uint16_t id, uint32_t grp)
{
	struct nl_msg *msg = nlmsg_alloc();
	struct nlattr *groups, *g;
	struct nlmsghdr *nlh;
	void *hdr;

	if (!msg)
		abort();
	nlh = nlmsg_put(msg, 0, 0, GENL_ID_CTRL, 0, 0);
	hdr = nlmsg_reserve(msg, GENL_HDRLEN, NLMSG_ALIGNTO);
	if (!nlh || !hdr)
		abort();
	memset(hdr, 0, GENL_HDRLEN);
	((struct genlmsghdr *)hdr)->cmd = cmd;
	((struct genlmsghdr *)hdr)->version = 2;
	if (nla_put_string(msg, CTRL_ATTR_FAMILY_NAME, name) ||
	    nla_put_u16(msg, CTRL_ATTR_FAMILY_ID, id))
		abort();
	if (grp) {
		groups = nla_nest_start(msg, CTRL_ATTR_MCAST_GROUPS);
		g = nla_nest_start(msg, 1);
		if (!groups || !g ||
		    nla_put_u32(msg, CTRL_ATTR_MCAST_GRP_ID, grp) ||
		    nla_put_string(msg, CTRL_ATTR_MCAST_GRP_NAME, "events"))
			abort();
		nla_nest_end(msg, g);
		nla_nest_end(msg, groups);
	}
	if (handle_datagram(ctx, m, nlmsg_hdr(msg), (int)nlmsg_hdr(msg)->nlmsg_len))
		exit(1);
	nlmsg_free(msg);
}

/* instead of joining the group and taking a snapshot */
static int rejoin_stub(struct elec_ctx *ctx, struct elec_mon *m, uint32_t grp)
{
	(void)m;
	printf("rejoin: family %d group %u\n", ctx->family, grp);
	return 0;
}

/*
 * The module unloaded (DELFAMILY) and loaded again under another id
 * (NEWFAMILY without groups, then NEWMCAST_GRP): family_gone, a hook run
 * as stopped per instance, the old family's events ignored, family_back,
 * the new family's events, their numbering from 1 without a gap line;
 * another family's notifications ignored. Then exit-on-reload.
 */
static int reload_test(struct elec_ctx *ctx, const char *file)
{
	static struct elec_mon m = { .pidfd = -1,
				     .hook_timeout_ns = HOOK_TIMEOUT_NS,
				     .rejoin = rejoin_stub };
	char script[512];
	char *args[] = { "/bin/sh", "-c", script, NULL };

	snprintf(script, sizeof(script),
		 "echo \"$ELECTION_EVENT $ELECTION_GROUP $ELECTION_LEADER "
		 "$ELECTION_TERM $ELECTION_ROLE $ELECTION_PREV_ROLE "
		 "$ELECTION_SEQ\" >> '%s'", file);
	m.exec_argv = args;
	role_ev(ctx, &m, ELEC_EVENT_LEADER_CHANGED, 1, 5, ELEC_ROLE_LEADER, 7);
	role_ev(ctx, &m, ELEC_EVENT_PEER_UP, 2, 9, ELEC_ROLE_FOLLOWER, 8);
	if (drain(ctx, &m))
		return 1;
	ctrl_msg(ctx, &m, CTRL_CMD_NEWFAMILY, "other", 50, 3);
	ctrl_msg(ctx, &m, CTRL_CMD_DELFAMILY, "other", 50, 0);
	ctrl_msg(ctx, &m, CTRL_CMD_DELFAMILY, ELECTION_GENL_NAME, FAMILY, 0);
	if (drain(ctx, &m))
		return 1;
	/* an event of the old family: none comes, none is taken */
	role_ev(ctx, &m, ELEC_EVENT_LEADER_CHANGED, 3, 5, ELEC_ROLE_LEADER, 7);
	ctrl_msg(ctx, &m, CTRL_CMD_NEWFAMILY, ELECTION_GENL_NAME, FAMILY + 1, 0);
	ctrl_msg(ctx, &m, CTRL_CMD_NEWMCAST_GRP, ELECTION_GENL_NAME,
		 FAMILY + 1, 9);
	ev_family = FAMILY + 1;
	role_ev(ctx, &m, ELEC_EVENT_LEADER_CHANGED, 1, 5, ELEC_ROLE_LEADER, 7);
	role_ev(ctx, &m, ELEC_EVENT_PEER_UP, 3, 5, ELEC_ROLE_LEADER, 7);
	if (drain(ctx, &m))
		return 1;
	m.exit_on_reload = true;
	ctrl_msg(ctx, &m, CTRL_CMD_DELFAMILY, ELECTION_GENL_NAME, FAMILY + 1, 0);
	ctrl_msg(ctx, &m, CTRL_CMD_NEWFAMILY, ELECTION_GENL_NAME, FAMILY + 2, 9);
	printf("exiting %d jobs %u family %d\n", m.exiting, m.n_jobs,
	       ctx->family);
	if (drain(ctx, &m))
		return 1;
	free(m.insts);
	return 0;
}

/* send an event with a role to @fd, as the kernel would queue it */
static void queue_ev(int fd, uint8_t type, uint64_t seq, uint32_t leader,
		     int role)
{
	struct ev e = { type, seq, 0, leader, false, role + 1, 7, 0 };
	struct nl_msg *msg = nlmsg_alloc();

	if (!msg)
		abort();
	put_event(msg, &e);
	if (send(fd, nlmsg_hdr(msg), nlmsg_hdr(msg)->nlmsg_len, 0) < 0)
		abort();
	nlmsg_free(msg);
}

/*
 * SIGTERM arrives with two events queued on the monitor's socket (the
 * last a "stopped": what "group del" queues just before systemd stops
 * the monitor): the loop reads both, prints them, runs both hooks to the
 * end (one at a time) and returns 0. @again: the first hook sends a
 * second SIGTERM; the monitor kills it and dies of the signal.
 */
static int term_test(struct elec_ctx *ctx, const char *file, bool again)
{
	static struct elec_mon m = { .pidfd = -1,
				     .hook_timeout_ns = HOOK_TIMEOUT_NS };
	char script[512];
	char *args[] = { "/bin/sh", "-c", script, NULL };
	void *buf = malloc(MON_BUFSIZE);
	int sv[2], ret;

	snprintf(script, sizeof(script),
		 "echo \"start $ELECTION_EVENT $ELECTION_ROLE "
		 "$ELECTION_PREV_ROLE\" >> '%s'; %s sleep 0.2; "
		 "echo \"end $ELECTION_EVENT\" >> '%s'", file,
		 again ? "kill -TERM $PPID;" : "", file);
	m.exec_argv = args;
	if (!buf || socketpair(AF_UNIX, SOCK_DGRAM, 0, sv))
		return 1;
	queue_ev(sv[1], ELEC_EVENT_LEADER_CHANGED, 1, 5, ELEC_ROLE_LEADER);
	queue_ev(sv[1], ELEC_EVENT_STOPPED, 2, 0, ELEC_ROLE_STOPPED);
	if (elec_sig_catch())
		return 1;
	raise(SIGTERM);
	printf("caught\n");
	fflush(stdout);
	ret = monitor_loop(ctx, &m, sv[0], buf);
	printf("loop %d jobs %u child %d\n", ret, m.n_jobs, m.child != 0);
	free(buf);
	free(m.insts);
	return 0;
}

/* hook_wait_ms(): until the next signal; after SIGKILL, until it ends */
static int hookwait_test(void)
{
	struct elec_mon m = { .pidfd = -1 };
	const uint64_t now = 1000000000000ULL;
	static const char *const what[] = { "5 s left", "overdue",
					    "SIGTERM sent, 5 s left",
					    "SIGKILL sent", "none" };
	unsigned int i;
	int with, without;

	for (i = 0; i < ARRAY_SIZE(what); i++) {
		m.child = i < 4 ? 1 : 0;
		m.killed = i < 2 ? 0 : i - 1;
		m.deadline_ns = i == 1 ? now - 1 : now + 5000000000ULL;
		if (i == 3)
			m.deadline_ns = now - 1;
		m.pidfd = 99;
		with = hook_wait_ms(&m, now);
		m.pidfd = -1;
		without = hook_wait_ms(&m, now);
		printf("%s: pidfd %d, none %d\n", what[i], with, without);
	}
	return 0;
}

/*
 * Group 1 leads; groups 100-114 lead, then stop: the table's 16 places
 * are full. Group 115 comes: the stopped ones are forgotten, not the
 * leader; the table does not grow.
 */
static int insts_test(struct elec_ctx *ctx)
{
	struct elec_mon m = { .pidfd = -1 };
	uint64_t seq = 1;
	uint16_t g;

	role_ev(ctx, &m, ELEC_EVENT_LEADER_CHANGED, seq++, 5, ELEC_ROLE_LEADER, 1);
	for (g = 100; g < 115; g++) {
		role_ev(ctx, &m, ELEC_EVENT_LEADER_CHANGED, seq++, 5,
			ELEC_ROLE_LEADER, g);
		role_ev(ctx, &m, ELEC_EVENT_STOPPED, seq++, 0, ELEC_ROLE_STOPPED,
			g);
	}
	printf("full: %zu of %zu\n", m.n_insts, m.cap_insts);
	role_ev(ctx, &m, ELEC_EVENT_LEADER_CHANGED, seq++, 5, ELEC_ROLE_LEADER,
		115);
	printf("after: %zu of %zu, group %u role %d, group %u role %d\n",
	       m.n_insts, m.cap_insts, m.insts[0].group, m.insts[0].role,
	       m.insts[m.n_insts - 1].group, m.insts[m.n_insts - 1].role);
	free(m.insts);
	return 0;
}

/*
 * Three reads of monotonic, realtime, monotonic; the offset is 1000 s.
 * The first preempted for 5 ms after its monotonic read, the second for
 * 3 ms after its realtime read: the third (3 us between its monotonic
 * reads) gives the offset, within 2 us.
 */
static int clockoff_test(void)
{
	static const struct timespec t[3][3] = {
		{ { 10, 0 }, { 1010, 5001000 }, { 10, 5002000 } },
		{ { 10, 6000000 }, { 1010, 6001000 }, { 10, 9002000 } },
		{ { 10, 10000000 }, { 1010, 10001000 }, { 10, 10003000 } },
	};

	printf("offset %lld, one read %lld\n", (long long)offset_of(t, 3),
	       (long long)offset_of(t, 1));
	return 0;
}

int main(int argc, char **argv)
{
	struct elec_ctx ctx = { .family = FAMILY };
	struct elec_mon m = { 0 };
	const struct ev two[] = {
		{ ELEC_EVENT_PEER_UP, 4, 9, 5, false, 0, 0, 0 },
		{ ELEC_EVENT_PEER_DOWN, 6, 9, 5, false, 0, 0, 0 },
	};
	const struct ev bad = { ELEC_EVENT_STOPPED, 7, 0, 0, true, 0, 0, 0 };

	if (argc == 3 && !strcmp(argv[1], "filter")) {
		ctx.json = !strcmp(argv[2], "json");
		return filter_test(&ctx);
	}
	if (argc == 3 && !strcmp(argv[1], "hooks"))
		return hooks_test(&ctx, argv[2]);
	if (argc == 3 && !strcmp(argv[1], "types")) {
		ctx.json = !strcmp(argv[2], "json");
		return types_test(&ctx);
	}
	if (argc == 2 && !strcmp(argv[1], "ts"))
		return ts_test(&ctx);
	if (argc == 4 && !strcmp(argv[1], "reload")) {
		ctx.json = !strcmp(argv[2], "json");
		return reload_test(&ctx, argv[3]);
	}
	if (argc == 3 && !strcmp(argv[1], "term"))
		return term_test(&ctx, argv[2], false);
	if (argc == 3 && !strcmp(argv[1], "term-again"))
		return term_test(&ctx, argv[2], true);
	if (argc == 2 && !strcmp(argv[1], "hookwait"))
		return hookwait_test();
	if (argc == 2 && !strcmp(argv[1], "insts"))
		return insts_test(&ctx);
	if (argc == 2 && !strcmp(argv[1], "clockoff"))
		return clockoff_test();
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
