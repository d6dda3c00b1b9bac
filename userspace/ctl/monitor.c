// SPDX-License-Identifier: GPL-2.0
/*
 * monitor.c - "electionctl [-j] monitor": print the "events" multicast
 * group, one line per event, flushed per line.
 *
 * Lost events: the kernel numbers events per network namespace (+1 each).
 * A jump from seq S to S+k+1 prints a gap of k. When the socket reports
 * ENOBUFS (its buffer overflowed), the count is taken from the next seq
 * jump; if no event arrives within GAP_WAIT_MS after the queued ones are
 * read, the gap is printed with lost -1 (unknown) and numbering restarts
 * from the next event. Each loss is reported once.
 *
 * The receive buffer is raised to 4 MiB (SO_RCVBUFFORCE when permitted,
 * else SO_RCVBUF up to the sysctl limit); ELECTIONCTL_RCVBUF=<bytes> sets
 * another size (tests use a small one to provoke ENOBUFS).
 */
#include <errno.h>
#include <inttypes.h>
#include <net/if.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include <netlink/socket.h>

#include "json.h"
#include "nl.h"
#include "query.h"

#define MON_RCVBUF	(4 << 20)
#define MON_BUFSIZE	65536
#define GAP_WAIT_MS	250

/**
 * struct elec_mon - lost-event tracking.
 * @have_seq: @last_seq holds the seq of the last event printed
 * @last_seq: seq of the last event printed
 * @overflow: ENOBUFS seen, count not yet known
 */
struct elec_mon {
	bool have_seq;
	uint64_t last_seq;
	bool overflow;
};

static int flush_line(void)
{
	if (fflush(stdout) || ferror(stdout))
		return elec_fail("cannot write the output: %s", strerror(errno));
	return 0;
}

static int print_gap(const struct elec_ctx *ctx, int64_t lost)
{
	struct elec_json j;

	if (ctx->json) {
		elec_json_init(&j, stdout);
		elec_json_obj_begin(&j, NULL);
		elec_json_str(&j, "event", "gap");
		elec_json_i64(&j, "lost", lost);
		elec_json_obj_end(&j);
		putchar('\n');
	} else if (lost < 0) {
		puts("gap: events lost (count unknown)");
	} else {
		printf("gap: %" PRId64 " events lost\n", lost);
	}
	return flush_line();
}

static void event_json(struct nlattr **tb, const char *ev, bool peer_ev)
{
	char ifbuf[IF_NAMESIZE];
	const char *ifname = elec_reply_ifname(tb, ifbuf);
	struct elec_json j;

	elec_json_init(&j, stdout);
	elec_json_obj_begin(&j, NULL);
	elec_json_attr_u64(&j, "ts_ns", tb, ELEC_ATTR_TIMESTAMP_NS);
	elec_json_attr_u64(&j, "seq", tb, ELEC_ATTR_SEQ);
	elec_json_str(&j, "event", ev);
	if (ifname)
		elec_json_str(&j, "ifname", ifname);
	else
		elec_json_null(&j, "ifname");
	elec_json_attr_u64(&j, "ifindex", tb, ELEC_ATTR_IFINDEX);
	elec_json_attr_u64(&j, "group", tb, ELEC_ATTR_GROUP);
	elec_json_attr_u64(&j, "id", tb, ELEC_ATTR_NODE_ID);
	if (peer_ev)
		elec_json_attr_u64(&j, "peer", tb, ELEC_ATTR_PEER_ID);
	else
		elec_json_null(&j, "peer");
	if (elec_nla_u64(tb, ELEC_ATTR_LEADER, 0))
		elec_json_attr_u64(&j, "leader", tb, ELEC_ATTR_LEADER);
	else
		elec_json_null(&j, "leader");
	elec_json_attr_u64(&j, "term", tb, ELEC_ATTR_TERM);
	elec_json_obj_end(&j);
	putchar('\n');
}

static void event_text(struct nlattr **tb, const char *ev, bool peer_ev)
{
	char ifbuf[IF_NAMESIZE];
	const char *ifname = elec_reply_ifname(tb, ifbuf);
	uint64_t ts = elec_nla_u64(tb, ELEC_ATTR_TIMESTAMP_NS, 0);
	uint64_t leader = elec_nla_u64(tb, ELEC_ATTR_LEADER, 0);

	printf("[%" PRIu64 ".%09" PRIu64 "] seq %" PRIu64 " %s dev %s group %"
	       PRIu64 " id %" PRIu64,
	       ts / UINT64_C(1000000000), ts % UINT64_C(1000000000),
	       elec_nla_u64(tb, ELEC_ATTR_SEQ, 0), ev, ifname ? ifname : "?",
	       elec_nla_u64(tb, ELEC_ATTR_GROUP, 0),
	       elec_nla_u64(tb, ELEC_ATTR_NODE_ID, 0));
	if (peer_ev)
		printf(" peer %" PRIu64, elec_nla_u64(tb, ELEC_ATTR_PEER_ID, 0));
	if (leader)
		printf(" leader %" PRIu64, leader);
	else
		fputs(" leader none", stdout);
	printf(" term %" PRIu64 "\n", elec_nla_u64(tb, ELEC_ATTR_TERM, 0));
}

static int handle_event(const struct elec_ctx *ctx, struct elec_mon *m,
			struct nlattr **tb)
{
	unsigned int type = (unsigned int)elec_nla_u64(tb, ELEC_ATTR_EVENT, 0);
	bool peer_ev = type == ELEC_EVENT_PEER_UP || type == ELEC_EVENT_PEER_DOWN;
	char buf[32];
	const char *ev = elec_enum_str(elec_event_name, type, "event", buf,
				       sizeof(buf));
	int ret;

	if (tb[ELEC_ATTR_SEQ]) {
		uint64_t seq = nla_get_u64(tb[ELEC_ATTR_SEQ]);

		if (m->have_seq && seq > m->last_seq + 1) {
			ret = print_gap(ctx, (int64_t)(seq - m->last_seq - 1));
			if (ret)
				return ret;
			m->overflow = false;
		}
		/* a seq at or below the last one (module reloaded): restart */
		m->last_seq = seq;
		m->have_seq = true;
	}
	if (ctx->json)
		event_json(tb, ev, peer_ev);
	else
		event_text(tb, ev, peer_ev);
	return flush_line();
}

static void set_rcvbuf(int fd)
{
	const char *env = getenv("ELECTIONCTL_RCVBUF");
	int size = MON_RCVBUF;
	uint64_t v;

	if (env) {
		if (elec_parse_uint(env, 1, 1 << 30, &v))
			fprintf(stderr, "Warning: ignoring ELECTIONCTL_RCVBUF=\"%s\"\n",
				env);
		else
			size = (int)v;
	}
	if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &size, sizeof(size)))
		(void)setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size,
				 sizeof(size));
}

/* Handle every message of one datagram. Returns 0 or an exit status. */
static int handle_datagram(struct elec_ctx *ctx, struct elec_mon *m,
			   void *buf, int len)
{
	struct nlmsghdr *nlh;
	int ret;

	for (nlh = buf; nlmsg_ok(nlh, len); nlh = nlmsg_next(nlh, &len)) {
		struct nlattr *tb[ELEC_ATTR_MAX + 1];
		uint8_t cmd;

		if (nlh->nlmsg_type != ctx->family)
			continue;
		if (elec_nl_parse(ctx, nlh, tb, &cmd) || !tb[ELEC_ATTR_EVENT]) {
			fprintf(stderr, "Warning: malformed event skipped\n");
			continue;
		}
		if (cmd != ELEC_CMD_EVENT)
			continue;
		ret = handle_event(ctx, m, tb);
		if (ret)
			return ret;
	}
	return 0;
}

/*
 * recvmsg() failed with ENOBUFS: events were lost. The socket still holds
 * the events queued before the loss; the first seq jump after them tells
 * how many were lost (the first event after subscribing always fits the
 * queue, so even without an earlier baseline a jump shows the loss).
 */
static int mon_overflow(struct elec_mon *m)
{
	m->overflow = true;
	return 0;
}

/* No event for GAP_WAIT_MS while an overflow is pending. */
static int mon_quiet(const struct elec_ctx *ctx, struct elec_mon *m)
{
	m->overflow = false;
	m->have_seq = false;
	return print_gap(ctx, -1);
}

static int monitor_loop(struct elec_ctx *ctx, int fd, void *buf)
{
	struct elec_mon m = { 0 };
	struct sockaddr_nl sa;
	struct iovec iov = { .iov_base = buf, .iov_len = MON_BUFSIZE };
	struct msghdr mh = {
		.msg_name = &sa, .msg_namelen = sizeof(sa),
		.msg_iov = &iov, .msg_iovlen = 1,
	};
	ssize_t n;
	int ret;

	for (;;) {
		if (m.overflow) {
			struct pollfd p = { .fd = fd, .events = POLLIN };
			int r = poll(&p, 1, GAP_WAIT_MS);

			if (r < 0 && errno != EINTR)
				return elec_fail("poll: %s", strerror(errno));
			if (r == 0) {
				ret = mon_quiet(ctx, &m);
				if (ret)
					return ret;
			}
			if (r <= 0)
				continue;
		}
		mh.msg_namelen = sizeof(sa);
		n = recvmsg(fd, &mh, 0);
		if (n < 0) {
			if (errno == EINTR || errno == EAGAIN)
				continue;
			if (errno != ENOBUFS)
				return elec_fail("receiving events: %s",
						 strerror(errno));
			ret = mon_overflow(&m);
			if (ret)
				return ret;
			continue;
		}
		if (mh.msg_flags & MSG_TRUNC) {
			fprintf(stderr, "Warning: oversized message skipped\n");
			continue;
		}
		if (sa.nl_pid != 0)	/* only the kernel sends events */
			continue;
		ret = handle_datagram(ctx, &m, buf, (int)n);
		if (ret)
			return ret;
	}
}

int elec_cmd_monitor(struct elec_ctx *ctx, int argc, char **argv)
{
	void *buf;
	int ret;

	if (argc > 0)
		return elec_err("unexpected argument \"%s\" for \"monitor\"",
				argv[0]);
	if (ctx->dry_run) {
		struct elec_json j;

		elec_json_init(&j, stdout);
		elec_json_obj_begin(&j, NULL);
		elec_json_str(&j, "family", ELECTION_GENL_NAME);
		elec_json_str(&j, "mcgrp", ELECTION_GENL_MCGRP_EVENTS);
		elec_json_str(&j, "cmd", "monitor");
		elec_json_obj_end(&j);
		putchar('\n');
		return 0;
	}
	if (elec_nl_join_events(ctx))
		return ELEC_EXIT_FAIL;
	set_rcvbuf(nl_socket_get_fd(ctx->sk));
	buf = malloc(MON_BUFSIZE);
	if (!buf)
		return elec_fail("out of memory");
	ret = monitor_loop(ctx, nl_socket_get_fd(ctx->sk), buf);
	free(buf);
	return ret;
}
