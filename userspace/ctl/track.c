// SPDX-License-Identifier: GPL-2.0
/*
 * track.c - "electionctl [-j] track dev IF group G [interface IF2]...
 * [interval DUR] [fall N] [rise N] [exec CMD [ARG...]]": health tracking,
 * as keepalived's track_interface and track_script. A foreground loop
 * that keeps the group's standby-tracked (runtime state: showconf does
 * not write it, syncconf leaves it) at its decision:
 *
 * - on at once when a tracked interface is down (not IFF_UP, or no
 *   carrier: IFF_RUNNING clear; a name that does not exist is down),
 *   learnt from rtnetlink's link notifications as they come (a flap over
 *   before it is read counts), and read again every interval;
 * - on after CMD failed @fall times in a row (a non-zero exit, a signal,
 *   a fork that failed; one still running at the next interval is killed
 *   with its process group and counts as failed);
 * - off after @rise successes in a row: CMD exited 0 (without exec, an
 *   interval passed) with every tracked interface up from its start to
 *   its end.
 *
 * The decision starts at the kernel's value (a restart does not flap)
 * and the first check runs at once; elec_track_step() is the whole
 * decision, a pure function (userspace/tests/track-test). Every interval
 * the kernel's value is read and set again when it differs (the module
 * reloaded, the group created again, a "group set" by hand); a missing
 * device, group or family is reported once and retried, never fatal, and
 * after its first request the module is never loaded by it (nl.c's
 * elec_nl_family_lookup()). A
 * line per decision change on stdout (JSON Lines with -j), errors and
 * warnings on stderr. SIGTERM or SIGINT: the running check is killed,
 * and track exits 0, leaving standby-tracked as it is.
 *
 * CMD runs with /dev/null as stdin, in a process group of its own, with
 * ELECTION_DEV, ELECTION_GROUP and ELECTION_STANDBY_TRACKED (on|off: the
 * decision before it) in its environment; one at a time.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <net/if.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <linux/rtnetlink.h>

#include "json.h"
#include "nl.h"
#include "proc.h"

#define TRACK_IFS_MAX		32
#define TRACK_INTERVAL_NS	1000000000ULL
#define TRACK_INTERVAL_MIN_NS	10000000ULL
#define TRACK_INTERVAL_MAX_NS	60000000000ULL
#define TRACK_FALL		1
#define TRACK_RISE		1
#define TRACK_COUNT_MAX		1000

/* one observation of the group's health (elec_track_step()) */
enum elec_track_obs {
	ELEC_TRACK_OK,		/* the check passed, every interface up */
	ELEC_TRACK_FAIL,	/* the check failed */
	ELEC_TRACK_LINK_DOWN,	/* a tracked interface is down */
};

/**
 * struct elec_track_dec - the decision.
 * @standby: standby-tracked on
 * @fails: checks failed in a row (at most fall)
 * @oks: successes in a row (at most rise)
 */
struct elec_track_dec {
	bool standby;
	unsigned int fails;
	unsigned int oks;
};

/**
 * struct elec_track - the tracker.
 * @inst: dev and group (ELEC_KWB_INSTANCE)
 * @ifs: the tracked interfaces' names (argv's words)
 * @n_ifs: entries used in @ifs
 * @interval_ns: the period of the checks and of the kernel's reading
 * @fall: failures in a row that set standby-tracked
 * @rise: successes in a row that clear it
 * @exec_argv: the check, NULL for none
 * @dec: the decision
 * @started: the kernel was asked once (the first time loads the module)
 * @known: the last exchange with the kernel succeeded
 * @kernel: the value it has then
 * @child: the running check, 0 for none
 * @pidfd: pidfd of @child, -1 when none or unsupported
 * @killed: @child ran past its interval and was killed
 * @start_pending: start a check as soon as the killed one is reaped
 * @next_ns: CLOCK_MONOTONIC time of the next interval
 * @rtnl: rtnetlink socket (link notifications, SIOCGIFFLAGS), -1 for none
 * @was_down: a tracked interface found down (read, or a notification)
 *	since the last interval began, or the check started: that interval
 *	or check is no success even if the link is back (NULL: none)
 * @err: the last failure reported (each is reported once)
 * @get: read the kernel's standby-tracked; NULL for netlink (tests set
 *	another)
 * @set: set it; NULL for netlink
 */
struct elec_track {
	struct elec_args inst;
	const char *ifs[TRACK_IFS_MAX];
	unsigned int n_ifs;
	uint64_t interval_ns;
	unsigned int fall;
	unsigned int rise;
	char **exec_argv;
	struct elec_track_dec dec;
	bool started;
	bool known;
	bool kernel;
	pid_t child;
	int pidfd;
	bool killed;
	bool start_pending;
	uint64_t next_ns;
	int rtnl;
	const char *was_down;
	char err[256];
	int (*get)(struct elec_ctx *ctx, struct elec_track *t, bool *on);
	int (*set)(struct elec_ctx *ctx, struct elec_track *t, bool on);
};

/*
 * Apply one observation to @d: a link down sets standby at once; @fall
 * failures in a row set it; @rise successes in a row clear it. Returns
 * true when d->standby changed.
 */
static bool elec_track_step(struct elec_track_dec *d, enum elec_track_obs obs,
			    unsigned int fall, unsigned int rise)
{
	bool was = d->standby;

	switch (obs) {
	case ELEC_TRACK_LINK_DOWN:
		d->oks = 0;
		d->standby = true;
		break;
	case ELEC_TRACK_FAIL:
		d->oks = 0;
		if (d->fails < fall)
			d->fails++;
		if (d->fails >= fall)
			d->standby = true;
		break;
	case ELEC_TRACK_OK:
		d->fails = 0;
		if (d->oks < rise)
			d->oks++;
		if (d->oks >= rise)
			d->standby = false;
		break;
	}
	return d->standby != was;
}

/* ---- output ------------------------------------------------------------- */

/* why the decision is what it is */
enum track_why {
	TRACK_WHY_START,
	TRACK_WHY_LINK,
	TRACK_WHY_CHECK,
	TRACK_WHY_RECOVERED,
};

static const char *const track_why_names[] = {
	[TRACK_WHY_START] = "start",
	[TRACK_WHY_LINK] = "interface_down",
	[TRACK_WHY_CHECK] = "check_failed",
	[TRACK_WHY_RECOVERED] = "recovered",
};

/*
 * A line for the decision: @what is the interface (TRACK_WHY_LINK) or
 * the last check's result (TRACK_WHY_CHECK: "exit 1", "signal 9",
 * "timeout", "fork failed").
 */
static int track_print(const struct elec_ctx *ctx, const struct elec_track *t,
		       enum track_why why, const char *what)
{
	const struct elec_track_dec *d = &t->dec;
	struct elec_json j;

	if (ctx->json) {
		elec_json_init(&j, stdout);
		elec_json_obj_begin(&j, NULL);
		elec_json_str(&j, "dev", t->inst.dev);
		elec_json_u64(&j, "group", t->inst.group);
		elec_json_bool(&j, "standby_tracked", d->standby);
		elec_json_str(&j, "reason", track_why_names[why]);
		switch (why) {
		case TRACK_WHY_START:
			elec_json_bool(&j, "kernel", t->known);
			break;
		case TRACK_WHY_LINK:
			elec_json_str(&j, "interface", what);
			break;
		case TRACK_WHY_CHECK:
			elec_json_u64(&j, "fails", d->fails);
			elec_json_str(&j, "result", what);
			break;
		case TRACK_WHY_RECOVERED:
			elec_json_u64(&j, "successes", d->oks);
			break;
		}
		elec_json_obj_end(&j);
		putchar('\n');
	} else {
		printf("dev %s group %u standby-tracked %s: ", t->inst.dev,
		       t->inst.group, d->standby ? "on" : "off");
		if (why == TRACK_WHY_START)
			puts(t->known ? "start, as the kernel has it" :
			     "start, the group not readable (taken as off)");
		else if (why == TRACK_WHY_LINK)
			printf("interface %s down\n", what);
		else if (why == TRACK_WHY_CHECK)
			printf("check failed %u in a row (%s)\n", d->fails, what);
		else
			printf("healthy %u in a row\n", d->oks);
	}
	if (fflush(stdout) || ferror(stdout))
		return elec_fail("cannot write the output: %s", strerror(errno));
	return 0;
}

/*
 * A failure on the kernel's side (@msg, the message elec_fail() gave):
 * reported once, until another one or a success.
 */
static void track_report(struct elec_track *t, const char *msg)
{
	if (!strcmp(t->err, msg))
		return;
	snprintf(t->err, sizeof(t->err), "%s", msg);
	fprintf(stderr, "Error: %s (dev %s group %u: retrying every interval)\n",
		msg, t->inst.dev, t->inst.group);
}

/* ---- the kernel --------------------------------------------------------- */

/*
 * The session, opened when needed: the first time as every command opens
 * it (a request loads an installed module), later only when the family
 * is registered (an administrator's rmmod is not undone by a tracker).
 */
static int track_session(struct elec_ctx *ctx, bool first)
{
	int id;

	if (ctx->family)
		return 0;
	if (first) {
		if (elec_nl_open(ctx))
			return ELEC_EXIT_FAIL;
	} else {
		id = elec_nl_family_lookup(0, NULL);
		if (id < 0)
			return elec_fail("cannot read the generic netlink families");
		if (!id)
			return elec_fail("generic netlink family \"%s\" not registered (is election.ko loaded?)",
					 ELECTION_GENL_NAME);
		if (elec_nl_connect(ctx))
			return ELEC_EXIT_FAIL;
		ctx->family = id;
	}
	/* the checks must not hold the socket */
	(void)fcntl(nl_socket_get_fd(ctx->sk), F_SETFD, FD_CLOEXEC);
	return 0;
}

/* the device again by its name (it may have been created again) */
static int track_resolve(struct elec_track *t)
{
	unsigned int idx = if_nametoindex(t->inst.dev);

	if (!idx)
		return elec_fail("device \"%s\" not found", t->inst.dev);
	t->inst.ifindex = idx;
	return 0;
}

static int track_get_cb(struct nlattr **tb, void *arg)
{
	int *v = arg;

	if (tb[ELEC_ATTR_STANDBY_TRACKED])
		*v = nla_get_u8(tb[ELEC_ATTR_STANDBY_TRACKED]);
	return 0;
}

static int track_nl_get(struct elec_ctx *ctx, struct elec_track *t, bool *on)
{
	struct nl_msg *msg;
	int v = -1, ret;

	msg = elec_nl_msg(ctx, ELEC_CMD_GROUP_GET, false);
	if (!msg)
		return ELEC_EXIT_FAIL;
	ret = elec_nl_put_args(msg, &t->inst, ELEC_ATTR_NODE_ID);
	if (ret) {
		elec_nl_msg_free(msg);
		return ret;
	}
	ret = elec_nl_transact(ctx, msg, track_get_cb, &v);
	if (ret)
		return ret;
	if (v < 0)
		return elec_fail("the module reports no standby-tracked (an older module?)");
	*on = v;
	return 0;
}

static int track_nl_set(struct elec_ctx *ctx, struct elec_track *t, bool on)
{
	struct elec_args a = t->inst;
	struct nl_msg *msg;
	int ret;

	a.seen |= ELEC_KWB_OPT(ELEC_OPT_STANDBY_TRACKED);
	a.opt[ELEC_OPT_STANDBY_TRACKED] = on;
	msg = elec_nl_msg(ctx, ELEC_CMD_GROUP_SET, false);
	if (!msg)
		return ELEC_EXIT_FAIL;
	ret = elec_nl_put_args(msg, &a, ELEC_ATTR_NODE_ID);
	if (ret) {
		elec_nl_msg_free(msg);
		return ret;
	}
	return elec_nl_transact(ctx, msg, NULL, NULL);
}

/*
 * The kernel's value against the decision: read it, and set the decision
 * when it differs (not the first time: the decision starts at it); @push
 * (the decision changed): set it without reading. A failure is reported
 * once (track_report()) and closes the session, so that the next attempt
 * finds the family again. Returns 0, or 1 after a failure.
 */
static int track_sync(struct elec_ctx *ctx, struct elec_track *t, bool push)
{
	char msg[sizeof(t->err)] = "";
	bool first = !t->started, on = t->dec.standby;
	int ret = 0;

	t->started = true;
	elec_err_capture = msg;
	elec_err_capture_size = sizeof(msg);
	if (!t->get) {
		ret = track_resolve(t);
		ret = ret ?: track_session(ctx, first);
	}
	if (!ret && !push)
		ret = t->get ? t->get(ctx, t, &on) : track_nl_get(ctx, t, &on);
	if (!ret && t->err[0]) {
		fprintf(stderr, "Note: dev %s group %u answers again\n",
			t->inst.dev, t->inst.group);
		t->err[0] = '\0';
	}
	if (!ret && !first && (push || on != t->dec.standby)) {
		if (!push)
			fprintf(stderr, "Warning: dev %s group %u: standby-tracked %s in the kernel, the tracker's is %s: set again\n",
				t->inst.dev, t->inst.group, on ? "on" : "off",
				t->dec.standby ? "on" : "off");
		on = t->dec.standby;
		ret = t->set ? t->set(ctx, t, on) : track_nl_set(ctx, t, on);
	}
	elec_err_capture = NULL;
	if (ret) {
		if (!t->get)
			elec_nl_close(ctx);
		track_report(t, msg[0] ? msg : "unknown error");
		return 1;
	}
	t->known = true;
	t->kernel = on;
	return 0;
}

/* ---- interfaces ---------------------------------------------------------- */

/* the first tracked interface that is down, NULL when every one is up */
static const char *track_link_down(const struct elec_track *t)
{
	struct ifreq ifr;
	unsigned int i;

	for (i = 0; i < t->n_ifs; i++) {
		memset(&ifr, 0, sizeof(ifr));
		snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", t->ifs[i]);
		if (t->rtnl < 0 || ioctl(t->rtnl, SIOCGIFFLAGS, &ifr) < 0 ||
		    !(ifr.ifr_flags & IFF_UP) || !(ifr.ifr_flags & IFF_RUNNING))
			return t->ifs[i];
	}
	return NULL;
}

/* an rtnetlink socket in RTMGRP_LINK (notifications), -1 when none */
static int track_rtnl_open(void)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK,
				  .nl_groups = RTMGRP_LINK };
	int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC | SOCK_NONBLOCK,
			NETLINK_ROUTE);

	if (fd < 0)
		return -1;
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)))
		fputs("Warning: cannot join rtnetlink's link group: interfaces are read every interval only\n",
		      stderr);
	return fd;
}

/* the tracked name @name, or NULL */
static const char *track_if_find(const struct elec_track *t, const char *name)
{
	unsigned int i;

	for (i = 0; i < t->n_ifs; i++)
		if (!strcmp(t->ifs[i], name))
			return t->ifs[i];
	return NULL;
}

/*
 * One rtnetlink message: a tracked interface reported without IFF_UP or
 * IFF_RUNNING, or deleted, is recorded in @t->was_down (a flap that is
 * over before the interfaces are read again still counts).
 */
static void track_rtnl_msg(struct elec_track *t, const struct nlmsghdr *h)
{
	const struct ifinfomsg *ifi = NLMSG_DATA(h);
	const struct rtattr *rta;
	const char *name;
	int len;

	if ((h->nlmsg_type != RTM_NEWLINK && h->nlmsg_type != RTM_DELLINK) ||
	    h->nlmsg_len < NLMSG_LENGTH(sizeof(*ifi)))
		return;
	len = (int)(h->nlmsg_len - NLMSG_LENGTH(sizeof(*ifi)));
	for (rta = IFLA_RTA(ifi); RTA_OK(rta, len); rta = RTA_NEXT(rta, len)) {
		if (rta->rta_type != IFLA_IFNAME ||
		    RTA_PAYLOAD(rta) < 1 || RTA_PAYLOAD(rta) > IF_NAMESIZE ||
		    ((const char *)RTA_DATA(rta))[RTA_PAYLOAD(rta) - 1])
			continue;
		name = track_if_find(t, RTA_DATA(rta));
		if (name && (h->nlmsg_type == RTM_DELLINK ||
			     !(ifi->ifi_flags & IFF_UP) ||
			     !(ifi->ifi_flags & IFF_RUNNING)))
			t->was_down = name;
	}
}

/* Read what the link notifications queued (an overflow: read them all). */
static void track_rtnl_drain(struct elec_track *t)
{
	char buf[8192] __attribute__((aligned(NLMSG_ALIGNTO)));
	const struct nlmsghdr *h;
	ssize_t n;
	int len;

	for (;;) {
		n = recv(t->rtnl, buf, sizeof(buf), MSG_DONTWAIT);
		if (n < 0 && (errno == EINTR || errno == ENOBUFS))
			continue;
		if (n <= 0)
			break;
		len = (int)n;
		for (h = (const struct nlmsghdr *)buf; NLMSG_OK(h, len);
		     h = NLMSG_NEXT(h, len))
			track_rtnl_msg(t, h);
	}
}

/*
 * Apply one observation; on a change print it and set the kernel's
 * value at once (a failure is retried at the next interval).
 */
static int track_observe(struct elec_ctx *ctx, struct elec_track *t,
			 enum elec_track_obs obs, const char *what)
{
	enum track_why why;
	int ret;

	if (!elec_track_step(&t->dec, obs, t->fall, t->rise))
		return 0;
	why = obs == ELEC_TRACK_LINK_DOWN ? TRACK_WHY_LINK :
	      obs == ELEC_TRACK_FAIL ? TRACK_WHY_CHECK : TRACK_WHY_RECOVERED;
	ret = track_print(ctx, t, why, what);
	if (!ret)
		track_sync(ctx, t, true);
	return ret;
}

/*
 * a tracked interface down, now or since the notifications last read:
 * standby-tracked on at once
 */
static int track_links(struct elec_ctx *ctx, struct elec_track *t)
{
	const char *down = track_link_down(t);

	if (down)
		t->was_down = down;
	return t->was_down ? track_observe(ctx, t, ELEC_TRACK_LINK_DOWN,
					   t->was_down) : 0;
}

/* ---- the check ---------------------------------------------------------- */

/* In the child, before CMD: a process group of its own, the environment. */
static void track_child_env(void *arg)
{
	const struct elec_track *t = arg;

	setpgid(0, 0);
	elec_setenvf("ELECTION_DEV", "%s", t->inst.dev);
	elec_setenvf("ELECTION_GROUP", "%u", t->inst.group);
	elec_setenvf("ELECTION_STANDBY_TRACKED", "%s",
		     t->dec.standby ? "on" : "off");
}

static int track_start(struct elec_ctx *ctx, struct elec_track *t)
{
	pid_t pid = elec_spawn(t->exec_argv, track_child_env, t);

	t->start_pending = false;
	if (pid < 0) {
		fprintf(stderr, "Warning: cannot run the check: fork: %s\n",
			strerror(errno));
		return track_observe(ctx, t, ELEC_TRACK_FAIL, "fork failed");
	}
	/* here too: the group exists before the parent may signal it */
	setpgid(pid, pid);
	/* a success needs the links up from here to its end */
	t->was_down = NULL;
	t->child = pid;
	t->pidfd = elec_pidfd_open(pid);
	t->killed = false;
	return 0;
}

/* the whole process group of the check */
static void track_kill(struct elec_track *t)
{
	if (kill(-t->child, SIGKILL))
		kill(t->child, SIGKILL);
	t->killed = true;
}

/* The check ended (or may have, without a pidfd: @block false). */
static int track_reap(struct elec_ctx *ctx, struct elec_track *t, bool block)
{
	char what[32];
	const char *down;
	int st = 0;
	pid_t r;

	do {
		r = waitpid(t->child, &st, block ? 0 : WNOHANG);
	} while (r < 0 && errno == EINTR);
	if (r == 0)
		return 0;
	if (t->pidfd >= 0)
		close(t->pidfd);
	t->pidfd = -1;
	t->child = 0;
	if (!t->killed) {
		down = track_link_down(t) ?: t->was_down;
		if (r > 0 && WIFEXITED(st) && !WEXITSTATUS(st)) {
			if (down)
				return track_observe(ctx, t,
						     ELEC_TRACK_LINK_DOWN, down);
			return track_observe(ctx, t, ELEC_TRACK_OK, NULL);
		}
		if (r > 0 && WIFSIGNALED(st))
			snprintf(what, sizeof(what), "signal %d",
				 WTERMSIG(st));
		else
			snprintf(what, sizeof(what), "exit %d",
				 r > 0 ? WEXITSTATUS(st) : -1);
		return track_observe(ctx, t, ELEC_TRACK_FAIL, what);
	}
	return t->start_pending ? track_start(ctx, t) : 0;
}

/*
 * An interval: the kernel's value read (and set again); then the check:
 * started, or, still running since the last interval, killed (a failure;
 * the next one starts once it is reaped), or, killed and still not
 * reaped, one more failure. Without exec, the interfaces are the check.
 */
static int track_tick(struct elec_ctx *ctx, struct elec_track *t)
{
	const char *down;
	int ret;

	/* a check that ended just now is no timeout */
	if (t->child && !t->killed) {
		ret = track_reap(ctx, t, false);
		if (ret)
			return ret;
	}
	down = track_link_down(t) ?: t->was_down;
	track_sync(ctx, t, false);
	if (!t->exec_argv) {
		/* an interval with every interface up is a success */
		t->was_down = NULL;
		return down ? track_observe(ctx, t, ELEC_TRACK_LINK_DOWN, down) :
			      track_observe(ctx, t, ELEC_TRACK_OK, NULL);
	}
	if (down) {
		ret = track_observe(ctx, t, ELEC_TRACK_LINK_DOWN, down);
		if (ret)
			return ret;
	}
	if (!t->child)
		return track_start(ctx, t);
	/* still running: killed; killed and still there: failed again */
	if (!t->killed) {
		fprintf(stderr, "Warning: check \"%s\" still running after %" PRIu64 " ms: killed\n",
			t->exec_argv[0], t->interval_ns / 1000000);
		track_kill(t);
	}
	t->start_pending = true;
	return track_observe(ctx, t, ELEC_TRACK_FAIL, "timeout");
}

/* SIGTERM, SIGINT, an error: no check left behind, running or a zombie */
static void track_end(struct elec_track *t)
{
	if (t->child) {
		if (!t->killed)
			track_kill(t);
		while (waitpid(t->child, NULL, 0) < 0 && errno == EINTR)
			;
		t->child = 0;
	}
	if (t->pidfd >= 0)
		close(t->pidfd);
	t->pidfd = -1;
	if (t->rtnl >= 0)
		close(t->rtnl);
	t->rtnl = -1;
}

/* ms until @end from @now, rounded up */
static int track_ms(uint64_t now, uint64_t end)
{
	return now >= end ? 0 : (int)((end - now + 999999) / 1000000);
}

static int track_loop(struct elec_ctx *ctx, struct elec_track *t)
{
	int ret = 0;

	/* the decision starts at the kernel's value */
	track_sync(ctx, t, false);
	t->dec.standby = t->known && t->kernel;
	ret = track_print(ctx, t, TRACK_WHY_START, NULL);
	ret = ret ?: track_links(ctx, t);
	t->next_ns = elec_mono_ns();
	while (!ret && !elec_sig_count()) {
		struct pollfd p[3] = {
			{ .fd = t->rtnl, .events = POLLIN },
			{ .fd = t->child ? t->pidfd : -1, .events = POLLIN },
			{ .fd = elec_sig_fd(), .events = POLLIN },
		};
		uint64_t now = elec_mono_ns();
		int timeout, r;

		if (now >= t->next_ns) {
			/* a fixed cadence; after a long stall, from now */
			t->next_ns += t->interval_ns;
			if (t->next_ns <= now)
				t->next_ns = now + t->interval_ns;
			ret = track_tick(ctx, t);
			continue;
		}
		timeout = track_ms(now, t->next_ns);
		if (t->child && t->pidfd < 0 && timeout > ELEC_CHILD_POLL_MS)
			timeout = ELEC_CHILD_POLL_MS;
		r = poll(p, ARRAY_SIZE(p), timeout);
		if (r < 0 && errno != EINTR) {
			ret = elec_fail("poll: %s", strerror(errno));
			break;
		}
		if (r > 0 && p[0].revents) {
			track_rtnl_drain(t);
			ret = track_links(ctx, t);
		}
		if (!ret && t->child &&
		    (t->pidfd < 0 || (r > 0 && p[1].revents)))
			ret = track_reap(ctx, t, t->pidfd >= 0);
	}
	track_end(t);
	return ret;
}

/* ---- the command line ---------------------------------------------------- */

/* dry run: what would be tracked */
static void track_dry(const struct elec_track *t)
{
	struct elec_json j;
	unsigned int i;
	char **a;

	elec_json_init(&j, stdout);
	elec_json_obj_begin(&j, NULL);
	elec_json_str(&j, "family", ELECTION_GENL_NAME);
	elec_json_str(&j, "cmd", "track");
	elec_json_u64(&j, "ifindex", t->inst.ifindex);
	elec_json_u64(&j, "group", t->inst.group);
	elec_json_arr_begin(&j, "interfaces");
	for (i = 0; i < t->n_ifs; i++)
		elec_json_str(&j, NULL, t->ifs[i]);
	elec_json_arr_end(&j);
	elec_json_u64(&j, "interval_ns", t->interval_ns);
	elec_json_u64(&j, "fall", t->fall);
	elec_json_u64(&j, "rise", t->rise);
	if (t->exec_argv) {
		elec_json_arr_begin(&j, "exec");
		for (a = t->exec_argv; *a; a++)
			elec_json_str(&j, NULL, *a);
		elec_json_arr_end(&j);
	} else {
		elec_json_null(&j, "exec");
	}
	elec_json_obj_end(&j);
	putchar('\n');
}

enum {
	TKW_DEV,
	TKW_GROUP,
	TKW_INTERFACE,
	TKW_INTERVAL,
	TKW_FALL,
	TKW_RISE,
	TKW_EXEC,
};

static const char *const track_kws[] = {
	[TKW_DEV] = "dev", [TKW_GROUP] = "group",
	[TKW_INTERFACE] = "interface", [TKW_INTERVAL] = "interval",
	[TKW_FALL] = "fall", [TKW_RISE] = "rise", [TKW_EXEC] = "exec",
};

/*
 * interface IF2: named once; one that does not exist (yet: a USB NIC, a
 * VLAN created later) is down until it does, with a warning
 */
static int track_add_if(struct elec_track *t, const char *s)
{
	if (!*s || strlen(s) >= IF_NAMESIZE)
		return elec_err("invalid interface \"%s\": %s", s,
				*s ? "device name too long" :
				     "empty device name");
	if (track_if_find(t, s))
		return elec_err("interface \"%s\" given twice", s);
	if (t->n_ifs == TRACK_IFS_MAX)
		return elec_err("at most %d interfaces", TRACK_IFS_MAX);
	if (!if_nametoindex(s))
		fprintf(stderr, "Warning: interface \"%s\": no such device (yet): down until it exists\n",
			s);
	t->ifs[t->n_ifs++] = s;
	return 0;
}

/* interval, fall, rise: the value of keyword @k */
static int track_value(struct elec_track *t, int k, const char *kw,
		       const char *s)
{
	const char *why;
	uint64_t v = 0;

	if (k == TKW_INTERVAL) {
		why = elec_parse_dur(s, true, &v);
		if (!why && (v < TRACK_INTERVAL_MIN_NS || v > TRACK_INTERVAL_MAX_NS))
			why = "out of range: an interval is 10ms..60s";
		if (!why)
			t->interval_ns = v;
	} else {
		why = elec_parse_uint(s, 1, TRACK_COUNT_MAX, &v);
		if (!why && k == TKW_FALL)
			t->fall = (unsigned int)v;
		else if (!why)
			t->rise = (unsigned int)v;
	}
	return why ? elec_err("invalid %s \"%s\": %s", kw, s, why) : 0;
}

/*
 * The command line into @t: KEYWORD VALUE pairs ("interface" may repeat),
 * then "exec" and the rest. Returns 0 or ELEC_EXIT_USAGE.
 */
static int track_parse(const struct elec_ctx *ctx, struct elec_track *t,
		       int argc, char **argv)
{
	char *kv[4];
	const char *dev = NULL;
	unsigned int seen = 0, need = ELEC_KWB_INSTANCE;
	int i = 0, nkw = 0, k, ret;

	t->interval_ns = TRACK_INTERVAL_NS;
	t->fall = TRACK_FALL;
	t->rise = TRACK_RISE;
	for (; i < argc; i += 2) {
		k = elec_lookup(argv[i], track_kws, NULL, ARRAY_SIZE(track_kws));
		if (k == ELEC_LOOKUP_AMBIGUOUS)
			return elec_err("ambiguous keyword \"%s\" for \"track\": %s",
					argv[i],
					elec_lookup_candidates(argv[i], track_kws,
							       ARRAY_SIZE(track_kws)));
		if (k < 0)
			return elec_err("unknown keyword \"%s\" for \"track\" (dev, group, interface, interval, fall, rise, exec)",
					argv[i]);
		if (k == TKW_EXEC)
			break;
		if (i + 1 >= argc)
			return elec_err("keyword \"%s\" needs a value", argv[i]);
		if (k != TKW_INTERFACE && (seen & (1u << k)))
			return elec_err("duplicate keyword \"%s\"", track_kws[k]);
		seen |= 1u << k;
		if (k == TKW_DEV && *argv[i + 1] &&
		    strlen(argv[i + 1]) < IF_NAMESIZE &&
		    !if_nametoindex(argv[i + 1])) {
			/* not there (yet): resolved again every interval */
			dev = argv[i + 1];
			need &= ~ELEC_KWB(ELEC_KW_DEV);
		} else if (k == TKW_DEV || k == TKW_GROUP) {
			/* each once (checked above): kv holds two pairs */
			kv[nkw++] = argv[i];
			kv[nkw++] = argv[i + 1];
		} else if (k == TKW_INTERFACE) {
			if (track_add_if(t, argv[i + 1]))
				return ELEC_EXIT_USAGE;
		} else if (track_value(t, k, argv[i], argv[i + 1])) {
			return ELEC_EXIT_USAGE;
		}
	}
	if (i < argc && (i + 1 >= argc || !*argv[i + 1]))
		return elec_err("\"exec\" needs a command");
	if (i < argc)
		t->exec_argv = argv + i + 1;
	ret = elec_parse_args(ctx, "track", nkw, kv, ELEC_KWB_INSTANCE, need,
			      &t->inst);
	if (ret)
		return ret;
	if (dev) {
		fprintf(stderr, "Warning: dev \"%s\": no such device (yet): retried every interval\n",
			dev);
		snprintf(t->inst.dev, sizeof(t->inst.dev), "%s", dev);
		t->inst.seen |= ELEC_KWB(ELEC_KW_DEV);
	}
	return 0;
}

int elec_cmd_track(struct elec_ctx *ctx, int argc, char **argv)
{
	struct elec_track *t = calloc(1, sizeof(*t));
	int ret;

	if (!t)
		return elec_fail("out of memory");
	t->pidfd = -1;
	t->rtnl = -1;
	ret = track_parse(ctx, t, argc, argv);
	if (ret)
		goto out;
	if (ctx->dry_run) {
		track_dry(t);
		goto out;
	}
	/* link notifications: only with interfaces to track */
	t->rtnl = t->n_ifs ? track_rtnl_open() : -1;
	if (t->rtnl < 0 && t->n_ifs) {
		ret = elec_fail("cannot open an rtnetlink socket: %s",
				strerror(errno));
		goto out;
	}
	ret = elec_sig_catch();
	if (!ret)
		ret = track_loop(ctx, t);
out:
	track_end(t);
	free(t);
	return ret;
}
