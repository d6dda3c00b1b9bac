// SPDX-License-Identifier: GPL-2.0
/*
 * monitor.c - "electionctl [-j] [-t | -ts] monitor [dev IF] [group G]
 * [EVENT...] [exit-on-reload] [hook-timeout DUR] [exec CMD [ARG...]]":
 * print the "events" multicast group, one line per event, flushed per
 * line; optionally run CMD on each role change.
 *
 * Snapshot: after joining the group, the monitor dumps every instance and
 * prints one "snapshot" event each (its role, leader and term then, and
 * SEQ, the namespace's last event number at that moment). Events of that
 * instance up to that SEQ are already reflected in it and not printed, so
 * "show" then "monitor" has no race: nothing is missed, nothing repeated.
 *
 * Filters: dev and group select the instances whose events are printed;
 * EVENT words (the event names: election_started, leader_changed, peer_up,
 * peer_down, stopped) the events, as "ip monitor link" does: the others
 * are neither printed nor run the hook. Every event still counts for the
 * lost-event logic; snapshot, gap, exec_dropped, family_gone and
 * family_back lines are always printed. Each event carries the role,
 * leader and term its protocol step left (the module writes the same
 * values into every event of one step), so a line never mixes the state
 * before the step with the state after it.
 *
 * Lost events: the kernel numbers events per network namespace (+1 each).
 * A jump from seq S to S+k+1 prints a gap of k. When the socket reports
 * ENOBUFS (its buffer overflowed), the count is taken from the next seq
 * jump; if no event arrives within GAP_WAIT_MS after the queued ones are
 * read, the gap is printed with lost -1 (unknown) and numbering restarts
 * from the next event. Each loss is reported once.
 *
 * Timestamps (-t, -ts): the event's wall-clock time, from its kernel
 * timestamp (CLOCK_MONOTONIC) and the offset between the two clocks, read
 * for each event (realtime between two monotonic reads, the closest pair
 * of three: a preemption between two reads is no step) but taken only
 * when it moved by more than WALL_STEP_NS
 * (a step of the wall clock; otherwise it moves only by the time between
 * the two reads): events of one kernel timestamp print one time, and a
 * time is never before the last one printed for an earlier timestamp
 * (after a step back, times stay until the timestamps catch up). -t
 * prints "Timestamp: <date> <usec> usec" on a line before each event, as
 * "ip -t monitor"; -ts prefixes the line with
 * "[YYYY-MM-DDTHH:MM:SS.uuuuuu]"; with -j either adds a "time" key.
 *
 * Hooks (exec): CMD runs (execvp, no shell) for the snapshot of each
 * matching instance and for every event whose role differs from the last
 * one of its instance, with ELECTION_EVENT, ELECTION_DEV, ELECTION_GROUP,
 * ELECTION_ID, ELECTION_LEADER ("none" or an id), ELECTION_TERM,
 * ELECTION_ROLE, ELECTION_PREV_ROLE ("none" for a snapshot), ELECTION_SEQ
 * and ELECTION_TS_NS in its environment and /dev/null as stdin. One runs
 * at a time, in event order; the monitor keeps reading events meanwhile.
 * A change of an instance whose earlier change still waits replaces it
 * (the hook then sees the older ELECTION_PREV_ROLE, the one it last ran
 * with; a change back to that role cancels both); with HOOK_QUEUE changes
 * of distinct instances waiting, the oldest is dropped. Either way the
 * latest state of every instance runs; the changes not run are counted
 * and the count is printed as an "exec_dropped" event when a hook ends. A
 * hook that runs longer than hook-timeout (default 30 s) gets SIGTERM,
 * one second later SIGKILL, and a warning. The instances last seen
 * stopped are forgotten when the table of instances fills up (it does not
 * grow with devices and groups that came and went): one created again
 * then runs the hook with ELECTION_PREV_ROLE none.
 *
 * The module's reload (rmmod, insmod: a DKMS upgrade): the socket also
 * joins nlctrl's "notify" group. DELFAMILY of "election" prints
 * family_gone; the module took every instance with it, without a
 * "stopped" event, so each instance the hook last saw in a role other
 * than stopped runs it as ELECTION_EVENT family_gone, ELECTION_ROLE
 * stopped, ELECTION_LEADER none (the last term; ELECTION_SEQ the last
 * event number). NEWFAMILY (or its NEWMCAST_GRP) gives the new family id
 * and events group id: family_back, the group joined (the old membership
 * went with the old family), the seq and gap logic reset (the new module
 * numbers from 1) and the snapshot taken again, which runs the hook for
 * every instance not stopped. With exit-on-reload the monitor exits 2
 * after family_gone, once no hook runs or waits. Started without the
 * module, monitor's first request loads it (the family's alias), or it
 * fails (exit 2: family not found); it does not wait. When the socket
 * overflowed and no event follows (a gap of unknown size), the
 * notifications may be lost too: a dump of the families tells whether
 * the family went or came back under another id.
 *
 * Stopping: on SIGTERM or SIGINT (unless ignored at the start) the
 * monitor stops waiting, reads what is queued on its socket until it has
 * been quiet DRAIN_QUIET_MS (at most DRAIN_MAX_MS) and handles it as ever
 * (printed, hooks queued), then only waits for the hooks: each runs to its
 * end (within hook-timeout) and the monitor exits 0 (2 after
 * exit-on-reload saw the module go). systemd stops
 * election-monitor@.service right after election@.service's ExecStopPost
 * deleted the groups; "group del" returns after the kernel sent the
 * "stopped" events (or, when another context was delivering the
 * namespace's events, a moment later), so the hook still learns of them
 * (vip-hook lets the address go). The
 * unit's KillMode=mixed signals the monitor alone, not a running hook. A
 * second SIGTERM or SIGINT meanwhile kills the running hook (SIGKILL) and
 * the monitor dies of that signal at once. A hook that got SIGKILL is
 * waited for on its pidfd (without one, every ELEC_CHILD_POLL_MS),
 * however long it takes to end.
 *
 * The receive buffer is raised to 4 MiB (SO_RCVBUFFORCE when permitted,
 * else SO_RCVBUF up to the sysctl limit); ELECTIONCTL_RCVBUF=<bytes> sets
 * another size (tests use a small one to provoke ENOBUFS).
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <net/if.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <signal.h>
#include <time.h>
#include <unistd.h>

#include <linux/genetlink.h>
#include <netlink/genl/ctrl.h>
#include <netlink/socket.h>

#include "json.h"
#include "nl.h"
#include "proc.h"
#include "query.h"

#define MON_RCVBUF	(4 << 20)
#define MON_BUFSIZE	65536
#define GAP_WAIT_MS	250
/* stopping: read events until the socket is quiet this long, at most... */
#define DRAIN_QUIET_MS	50
#define DRAIN_MAX_MS	500
#define HOOK_QUEUE	64
#define HOOK_TIMEOUT_NS	(30 * 1000000000ULL)
#define HOOK_KILL_NS	1000000000ULL
/* a change of the offset between the clocks above this is a clock step */
#define WALL_STEP_NS	1000000LL

/**
 * struct elec_ev - one event (or snapshot) as the printers and hooks see it.
 * @name: event name ("snapshot" for one)
 * @ts_ns: kernel timestamp (CLOCK_MONOTONIC), valid with @has_ts
 * @seq: sequence number, valid with @has_seq
 * @ifname: device name, "" when unknown
 * @ifindex: device index
 * @group: group id
 * @id: local node id
 * @peer: peer id, valid with @has_peer
 * @leader: leader id, 0 = none
 * @term: term
 * @role: enum elec_role, valid with @has_role
 */
struct elec_ev {
	const char *name;
	bool has_ts, has_seq, has_peer, has_role;
	uint64_t ts_ns;
	uint64_t seq;
	char ifname[IF_NAMESIZE];
	uint32_t ifindex;
	uint16_t group;
	uint32_t id;
	uint32_t peer;
	uint32_t leader;
	uint64_t term;
	uint8_t role;
};

/**
 * struct elec_mon_inst - what the monitor knows of one instance.
 * @ifindex: device
 * @group: group id
 * @snap_seq: its events up to this SEQ are reflected in its snapshot
 * @role: last role seen (enum elec_role), -1 before any
 * @last: the last event or snapshot printed of it (valid when @role >= 0)
 */
struct elec_mon_inst {
	uint32_t ifindex;
	uint16_t group;
	uint64_t snap_seq;
	int role;
	struct elec_ev last;
};

/**
 * struct elec_hook_job - one role change for the hook.
 * @ev: the event
 * @prev_role: the role before it, -1 for none (a snapshot)
 */
struct elec_hook_job {
	struct elec_ev ev;
	int prev_role;
};

/**
 * struct elec_mon - monitor state.
 * @have_seq: @last_seq holds the seq of the last event handled
 * @last_seq: seq of the last event handled
 * @overflow: ENOBUFS seen, count not yet known
 * @quiet_from: CLOCK_MONOTONIC ns of the last read while @overflow
 * @filter: dev and group to print (ELEC_KWB bits in @filter.seen)
 * @insts: instances seen (snapshot or event)
 * @n_insts: entries used in @insts
 * @cap_insts: entries allocated
 * @exec_argv: the hook's argument vector, NULL for none
 * @jobs: waiting and running role changes, a ring from @job_head
 * @job_head: index of the oldest (the running one, when @child)
 * @n_jobs: entries used
 * @dropped: changes dropped since the last report
 * @child: the running hook, 0 for none
 * @pidfd: pidfd of @child, -1 when none or unsupported
 * @hook_timeout_ns: how long a hook may run
 * @deadline_ns: CLOCK_MONOTONIC time of the running hook's next signal
 * @killed: signals sent to it: 0, 1 (SIGTERM) or 2 (SIGKILL)
 * @types: the event types to print (bit 1 << enum elec_event), 0 for all
 * @exit_on_reload: exit 2 (once the hooks ran) when the module goes
 * @gone: the family is unregistered (the module unloaded) until it is back
 * @exiting: exit 2 once no hook runs or waits
 * @draining: SIGTERM or SIGINT came: the queued events were read, exit 0
 *	once no hook runs or waits
 * @new_family: while @gone, the family id of a NEWFAMILY whose events
 *	group was not named yet, else 0
 * @rejoin: after the module's reload, join group @grp and take the
 *	snapshot; NULL for mon_rejoin() (tests set another)
 * @clock_off: the offset between CLOCK_REALTIME and CLOCK_MONOTONIC (ns);
 *	NULL for the clocks' (tests set another)
 * @have_off: @off_ns holds the offset the wall-clock times use
 * @off_ns: that offset
 * @have_wall: @last_ts and @last_wall are set
 * @last_ts: the kernel timestamp of the last wall-clock time printed
 * @last_wall: that time, ns since the epoch
 */
struct elec_mon {
	bool have_seq;
	uint64_t last_seq;
	bool overflow;
	uint64_t quiet_from;
	struct elec_args filter;
	struct elec_mon_inst *insts;
	size_t n_insts, cap_insts;
	char **exec_argv;
	struct elec_hook_job jobs[HOOK_QUEUE];
	unsigned int job_head, n_jobs;
	uint64_t dropped;
	pid_t child;
	int pidfd;
	uint64_t hook_timeout_ns;
	uint64_t deadline_ns;
	int killed;
	uint32_t types;
	bool exit_on_reload;
	bool gone;
	bool exiting;
	bool draining;
	uint32_t new_family;
	int (*rejoin)(struct elec_ctx *ctx, struct elec_mon *m, uint32_t grp);
	int64_t (*clock_off)(void);
	bool have_off;
	int64_t off_ns;
	bool have_wall;
	uint64_t last_ts;
	int64_t last_wall;
};

static int flush_line(void)
{
	if (fflush(stdout) || ferror(stdout))
		return elec_fail("cannot write the output: %s", strerror(errno));
	return 0;
}

static int64_t ts_ns(const struct timespec *t)
{
	return (int64_t)t->tv_sec * 1000000000LL + t->tv_nsec;
}

/*
 * CLOCK_REALTIME - CLOCK_MONOTONIC from @n reads, each of monotonic,
 * realtime, monotonic (@t[i][0], [1], [2]): of the one whose monotonic
 * pair is the closest, against their midpoint. A preemption between two
 * reads (likely in a busy guest) widens that read's pair only; its offset
 * would be off by as much and look like a step of the wall clock.
 */
static int64_t offset_of(const struct timespec (*t)[3], unsigned int n)
{
	int64_t best = 0, best_w = -1, w;
	unsigned int i;

	for (i = 0; i < n; i++) {
		w = ts_ns(&t[i][2]) - ts_ns(&t[i][0]);
		if (best_w >= 0 && w >= best_w)
			continue;
		best_w = w;
		best = ts_ns(&t[i][1]) - (ts_ns(&t[i][0]) + w / 2);
	}
	return best;
}

/* CLOCK_REALTIME - CLOCK_MONOTONIC now, ns: of three reads, the tightest */
static int64_t clock_offset(void)
{
	struct timespec t[3][3];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(t); i++) {
		clock_gettime(CLOCK_MONOTONIC, &t[i][0]);
		clock_gettime(CLOCK_REALTIME, &t[i][1]);
		clock_gettime(CLOCK_MONOTONIC, &t[i][2]);
	}
	return offset_of((const struct timespec (*)[3])t, ARRAY_SIZE(t));
}

/*
 * The wall-clock time of kernel timestamp @ts_ns (CLOCK_MONOTONIC). The
 * offset between the clocks, read now, differs from the last one by the
 * time between its two reads (and only a clock step moves it further:
 * NTP slews both clocks alike): the last one is kept unless the clock
 * stepped, so that events of one timestamp print one time. After a step
 * back, a time is never before the last one printed for an earlier or
 * equal timestamp: nondecreasing timestamps print nondecreasing times.
 */
static struct timespec wall_of(struct elec_mon *m, uint64_t ts_ns)
{
	int64_t off = m->clock_off ? m->clock_off() : clock_offset(), ns;
	struct timespec out;

	if (!m->have_off || off - m->off_ns > WALL_STEP_NS ||
	    m->off_ns - off > WALL_STEP_NS)
		m->off_ns = off;
	m->have_off = true;
	ns = (int64_t)ts_ns + m->off_ns;
	if (ns < 0)
		ns = 0;
	if (m->have_wall && ts_ns >= m->last_ts && ns < m->last_wall)
		ns = m->last_wall;
	m->have_wall = true;
	m->last_ts = ts_ns;
	m->last_wall = ns;
	out.tv_sec = (time_t)(ns / 1000000000LL);
	out.tv_nsec = (long)(ns % 1000000000LL);
	return out;
}

/* "2026-11-27T01:25:50.123456" (local time; @tz: then "+0000") */
static void fmt_iso(char *buf, size_t size, const struct timespec *t,
		    bool tz)
{
	struct tm tm;
	size_t n;

	localtime_r(&t->tv_sec, &tm);
	n = strftime(buf, size, "%Y-%m-%dT%H:%M:%S", &tm);
	n += (size_t)snprintf(buf + n, size - n, ".%06ld", t->tv_nsec / 1000);
	if (tz && n < size)
		strftime(buf + n, size - n, "%z", &tm);
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

static int print_dropped(const struct elec_ctx *ctx, struct elec_mon *m)
{
	struct elec_json j;

	if (!m->dropped)
		return 0;
	if (ctx->json) {
		elec_json_init(&j, stdout);
		elec_json_obj_begin(&j, NULL);
		elec_json_str(&j, "event", "exec_dropped");
		elec_json_u64(&j, "dropped", m->dropped);
		elec_json_obj_end(&j);
		putchar('\n');
	} else {
		printf("exec_dropped: %" PRIu64
		       " role changes not run (superseded, or the hook's queue was full)\n",
		       m->dropped);
	}
	m->dropped = 0;
	return flush_line();
}

static const char *role_name(int role, char *buf, size_t size)
{
	if (role < 0)
		return "none";
	return elec_enum_str(elec_role_name, (unsigned int)role, "role", buf,
			     size);
}

static void event_json(const struct elec_ctx *ctx, struct elec_mon *m,
		       const struct elec_ev *e)
{
	struct elec_json j;
	char buf[64];

	elec_json_init(&j, stdout);
	elec_json_obj_begin(&j, NULL);
	if (ctx->timestamp) {
		struct timespec t = wall_of(m, e->ts_ns);

		fmt_iso(buf, sizeof(buf), &t, true);
		elec_json_str(&j, "time", buf);
	}
	if (e->has_ts)
		elec_json_u64(&j, "ts_ns", e->ts_ns);
	else
		elec_json_null(&j, "ts_ns");
	if (e->has_seq)
		elec_json_u64(&j, "seq", e->seq);
	else
		elec_json_null(&j, "seq");
	elec_json_str(&j, "event", e->name);
	if (e->ifname[0])
		elec_json_str(&j, "ifname", e->ifname);
	else
		elec_json_null(&j, "ifname");
	elec_json_u64(&j, "ifindex", e->ifindex);
	elec_json_u64(&j, "group", e->group);
	elec_json_u64(&j, "id", e->id);
	if (e->has_peer)
		elec_json_u64(&j, "peer", e->peer);
	else
		elec_json_null(&j, "peer");
	if (e->leader)
		elec_json_u64(&j, "leader", e->leader);
	else
		elec_json_null(&j, "leader");
	elec_json_u64(&j, "term", e->term);
	/* null from a kernel that does not report it */
	if (e->has_role)
		elec_json_str(&j, "role", role_name(e->role, buf, sizeof(buf)));
	else
		elec_json_null(&j, "role");
	elec_json_obj_end(&j);
	putchar('\n');
}

static void event_text(const struct elec_ctx *ctx, struct elec_mon *m,
		       const struct elec_ev *e)
{
	char buf[64];

	if (ctx->timestamp) {
		struct timespec t = wall_of(m, e->ts_ns);

		if (ctx->timestamp == ELEC_TS_SHORT) {
			fmt_iso(buf, sizeof(buf), &t, false);
			printf("[%s] ", buf);
		} else {
			struct tm tm;

			localtime_r(&t.tv_sec, &tm);
			strftime(buf, sizeof(buf), "%a %b %e %H:%M:%S %Y", &tm);
			printf("Timestamp: %s %06ld usec\n", buf,
			       t.tv_nsec / 1000);
		}
	}
	printf("[%" PRIu64 ".%09" PRIu64 "] seq %" PRIu64 " %s dev %s group %u"
	       " id %" PRIu32,
	       e->ts_ns / UINT64_C(1000000000), e->ts_ns % UINT64_C(1000000000),
	       e->seq, e->name, e->ifname[0] ? e->ifname : "?", e->group,
	       e->id);
	if (e->has_peer)
		printf(" peer %" PRIu32, e->peer);
	if (e->leader)
		printf(" leader %" PRIu32, e->leader);
	else
		fputs(" leader none", stdout);
	printf(" term %" PRIu64, e->term);
	if (e->has_role)
		printf(" role %s", role_name(e->role, buf, sizeof(buf)));
	putchar('\n');
}

/* An event (or a GROUP_GET reply) as an elec_ev. */
static void ev_from(struct elec_ev *e, struct nlattr **tb, const char *name)
{
	char ifbuf[IF_NAMESIZE];
	const char *ifname = elec_reply_ifname(tb, ifbuf);

	memset(e, 0, sizeof(*e));
	e->name = name;
	e->has_ts = tb[ELEC_ATTR_TIMESTAMP_NS];
	e->ts_ns = elec_nla_u64(tb, ELEC_ATTR_TIMESTAMP_NS, 0);
	e->has_seq = tb[ELEC_ATTR_SEQ];
	e->seq = elec_nla_u64(tb, ELEC_ATTR_SEQ, 0);
	snprintf(e->ifname, sizeof(e->ifname), "%s", ifname ? ifname : "");
	e->ifindex = (uint32_t)elec_nla_u64(tb, ELEC_ATTR_IFINDEX, 0);
	e->group = (uint16_t)elec_nla_u64(tb, ELEC_ATTR_GROUP, 0);
	e->id = (uint32_t)elec_nla_u64(tb, ELEC_ATTR_NODE_ID, 0);
	e->peer = (uint32_t)elec_nla_u64(tb, ELEC_ATTR_PEER_ID, 0);
	e->leader = (uint32_t)elec_nla_u64(tb, ELEC_ATTR_LEADER, 0);
	e->term = elec_nla_u64(tb, ELEC_ATTR_TERM, 0);
	e->has_role = tb[ELEC_ATTR_ROLE];
	e->role = (uint8_t)elec_nla_u64(tb, ELEC_ATTR_ROLE, 0);
}

/*
 * The table is full: forget the instances last seen stopped (or never in
 * a role), so that it does not grow with every device and group that
 * came and went. One created again runs the hook with ELECTION_PREV_ROLE
 * none instead of stopped.
 */
static void mon_inst_compact(struct elec_mon *m)
{
	size_t i, n = 0;

	for (i = 0; i < m->n_insts; i++) {
		const struct elec_mon_inst *in = &m->insts[i];

		if ((in->role < 0 || in->role == ELEC_ROLE_STOPPED) &&
		    !in->snap_seq)
			continue;
		if (n != i)
			m->insts[n] = *in;
		n++;
	}
	m->n_insts = n;
}

/*
 * The instance's entry, added when new; NULL when out of memory. Adding
 * one may move the others (a pointer to one is valid until the next call).
 */
static struct elec_mon_inst *mon_inst(struct elec_mon *m, uint32_t ifindex,
				      uint16_t group)
{
	struct elec_mon_inst *n;
	size_t i;

	for (i = 0; i < m->n_insts; i++)
		if (m->insts[i].ifindex == ifindex &&
		    m->insts[i].group == group)
			return &m->insts[i];
	if (m->n_insts == m->cap_insts)
		mon_inst_compact(m);
	if (m->n_insts == m->cap_insts) {
		size_t cap = m->cap_insts ? 2 * m->cap_insts : 16;

		n = realloc(m->insts, cap * sizeof(*n));
		if (!n)
			return NULL;
		m->insts = n;
		m->cap_insts = cap;
	}
	n = &m->insts[m->n_insts++];
	n->ifindex = ifindex;
	n->group = group;
	n->snap_seq = 0;
	n->role = -1;
	return n;
}

static bool mon_match(const struct elec_mon *m, const struct elec_ev *e)
{
	const struct elec_args *f = &m->filter;

	if ((f->seen & ELEC_KWB(ELEC_KW_DEV)) && e->ifindex != f->ifindex)
		return false;
	if ((f->seen & ELEC_KWB(ELEC_KW_GROUP)) && e->group != f->group)
		return false;
	return true;
}

/* ---- hooks -------------------------------------------------------------- */

/* In the child, before CMD: the environment of the job (@arg). */
static void hook_env(void *arg)
{
	const struct elec_hook_job *jb = arg;
	const struct elec_ev *e = &jb->ev;
	char buf[32];

	elec_setenvf("ELECTION_EVENT", "%s", e->name);
	elec_setenvf("ELECTION_DEV", "%s", e->ifname);
	elec_setenvf("ELECTION_GROUP", "%u", e->group);
	elec_setenvf("ELECTION_ID", "%" PRIu32, e->id);
	if (e->leader)
		elec_setenvf("ELECTION_LEADER", "%" PRIu32, e->leader);
	else
		elec_setenvf("ELECTION_LEADER", "none");
	elec_setenvf("ELECTION_TERM", "%" PRIu64, e->term);
	elec_setenvf("ELECTION_ROLE", "%s",
		     role_name(e->has_role ? e->role : -1, buf, sizeof(buf)));
	elec_setenvf("ELECTION_PREV_ROLE", "%s",
		     role_name(jb->prev_role, buf, sizeof(buf)));
	elec_setenvf("ELECTION_SEQ", "%" PRIu64, e->seq);
	elec_setenvf("ELECTION_TS_NS", "%" PRIu64, e->ts_ns);
}

/* Start the oldest waiting job. */
static int hook_start(struct elec_mon *m)
{
	pid_t pid = elec_spawn(m->exec_argv, hook_env, &m->jobs[m->job_head]);

	if (pid < 0)
		return elec_fail("cannot run the hook: fork: %s",
				 strerror(errno));
	m->child = pid;
	m->pidfd = elec_pidfd_open(pid);
	m->killed = 0;
	m->deadline_ns = elec_mono_ns() + m->hook_timeout_ns;
	return 0;
}

/*
 * How long the loop may wait for the running hook, in ms (-1: no limit):
 * until its next signal is due. After SIGKILL there is none: it ends when
 * it ends (a child in D state may take long), and its pidfd tells; without
 * a pidfd, waitpid() is asked every ELEC_CHILD_POLL_MS.
 */
static int hook_wait_ms(const struct elec_mon *m, uint64_t now)
{
	int left;

	if (!m->child)
		return -1;
	if (m->killed > 1)
		left = -1;
	else if (now >= m->deadline_ns)
		left = 0;
	else
		left = (int)((m->deadline_ns - now) / 1000000 + 1);
	if (m->pidfd < 0 && (left < 0 || left > ELEC_CHILD_POLL_MS))
		left = ELEC_CHILD_POLL_MS;
	return left;
}

/* The running hook is past its deadline: SIGTERM, then SIGKILL. */
static void hook_overdue(struct elec_mon *m)
{
	if (!m->child || elec_mono_ns() < m->deadline_ns || m->killed > 1)
		return;
	if (!m->killed)
		fprintf(stderr, "Warning: hook \"%s\" still running after %" PRIu64
			" ms (seq %" PRIu64 "): killed\n", m->exec_argv[0],
			m->hook_timeout_ns / 1000000,
			m->jobs[m->job_head].ev.seq);
	kill(m->child, m->killed ? SIGKILL : SIGTERM);
	m->killed++;
	m->deadline_ns = elec_mono_ns() + HOOK_KILL_NS;
}

/* The running hook ended (or may have, without a pidfd: @block false). */
static int hook_reap(const struct elec_ctx *ctx, struct elec_mon *m,
		     bool block)
{
	uint64_t seq = m->jobs[m->job_head].ev.seq;
	int st = 0, ret;
	pid_t r;

	if (!m->child)
		return 0;
	do {
		r = waitpid(m->child, &st, block ? 0 : WNOHANG);
	} while (r < 0 && errno == EINTR);
	if (r == 0)
		return 0;
	if (r > 0 && WIFEXITED(st) && WEXITSTATUS(st))
		fprintf(stderr, "Warning: hook \"%s\" exited with status %d (seq %" PRIu64 ")\n",
			m->exec_argv[0], WEXITSTATUS(st), seq);
	else if (r > 0 && WIFSIGNALED(st))
		fprintf(stderr, "Warning: hook \"%s\" killed by signal %d (seq %" PRIu64 ")\n",
			m->exec_argv[0], WTERMSIG(st), seq);
	if (m->pidfd >= 0)
		close(m->pidfd);
	m->pidfd = -1;
	m->child = 0;
	m->job_head = (m->job_head + 1) % HOOK_QUEUE;
	m->n_jobs--;
	ret = print_dropped(ctx, m);
	if (ret)
		return ret;
	return m->n_jobs ? hook_start(m) : 0;
}

/* Remove the waiting job at position @k (0 = the ring's head). */
static void hook_remove(struct elec_mon *m, unsigned int k)
{
	for (; k + 1 < m->n_jobs; k++)
		m->jobs[(m->job_head + k) % HOOK_QUEUE] =
			m->jobs[(m->job_head + k + 1) % HOOK_QUEUE];
	m->n_jobs--;
}

/* Queue a role change (@prev: the role before). */
static int hook_queue(const struct elec_ctx *ctx, struct elec_mon *m,
		      const struct elec_ev *e, int prev)
{
	struct elec_hook_job *jb;
	unsigned int k;

	/* a waiting change of the same instance: this one replaces it */
	for (k = m->child ? 1 : 0; k < m->n_jobs; k++) {
		jb = &m->jobs[(m->job_head + k) % HOOK_QUEUE];
		if (jb->ev.ifindex != e->ifindex || jb->ev.group != e->group)
			continue;
		m->dropped++;
		if (jb->prev_role == (e->has_role ? e->role : -1)) {
			/* back to what the hook last saw: nothing to run */
			hook_remove(m, k);
			m->dropped++;
			return 0;
		}
		jb->ev = *e;	/* jb->prev_role: what the hook last saw */
		return 0;
	}
	if (m->n_jobs == HOOK_QUEUE) {
		/* drop the oldest waiting one (not the running one) */
		hook_remove(m, m->child ? 1 : 0);
		m->dropped++;
	}
	jb = &m->jobs[(m->job_head + m->n_jobs) % HOOK_QUEUE];
	jb->ev = *e;
	jb->prev_role = prev;
	m->n_jobs++;
	if (m->child || ctx->dry_run)
		return 0;
	return hook_start(m);
}

/* ---- events ------------------------------------------------------------- */

/* Print an event or snapshot of a matching instance; track its role. */
static int print_event(const struct elec_ctx *ctx, struct elec_mon *m,
		       const struct elec_ev *e, struct elec_mon_inst *in)
{
	int prev = in ? in->role : -1, ret;

	if (ctx->json)
		event_json(ctx, m, e);
	else
		event_text(ctx, m, e);
	ret = flush_line();
	if (ret || !e->has_role)
		return ret;
	if (in) {
		in->role = e->role;
		in->last = *e;
	}
	if (m->exec_argv && (!in || in->role != prev))
		return hook_queue(ctx, m, e, prev);
	return 0;
}

static int handle_event(const struct elec_ctx *ctx, struct elec_mon *m,
			struct nlattr **tb)
{
	unsigned int type = (unsigned int)elec_nla_u64(tb, ELEC_ATTR_EVENT, 0);
	char buf[32];
	struct elec_mon_inst *in;
	struct elec_ev e;
	int ret;

	ev_from(&e, tb, elec_enum_str(elec_event_name, type, "event", buf,
				      sizeof(buf)));
	e.has_peer = type == ELEC_EVENT_PEER_UP || type == ELEC_EVENT_PEER_DOWN;
	if (e.has_seq) {
		if (m->have_seq && e.seq > m->last_seq + 1) {
			ret = print_gap(ctx, (int64_t)(e.seq - m->last_seq - 1));
			if (ret)
				return ret;
			m->overflow = false;
		}
		/* a seq at or below the last one (module reloaded): restart */
		m->last_seq = e.seq;
		m->have_seq = true;
	}
	if (!mon_match(m, &e))
		return 0;
	in = mon_inst(m, e.ifindex, e.group);
	if (in && in->snap_seq) {
		/* reflected in the snapshot already */
		if (e.has_seq && e.seq <= in->snap_seq)
			return 0;
		in->snap_seq = 0;
	}
	/* the event words: the others counted above, not printed, no hook */
	if (m->types && (type >= 32 || !(m->types & (1U << type))))
		return 0;
	return print_event(ctx, m, &e, in);
}

/* ---- the module's unloading and loading --------------------------------- */

static int print_family(const struct elec_ctx *ctx, bool back)
{
	struct elec_json j;

	if (ctx->json) {
		elec_json_init(&j, stdout);
		elec_json_obj_begin(&j, NULL);
		elec_json_str(&j, "event", back ? "family_back" : "family_gone");
		elec_json_str(&j, "family", ELECTION_GENL_NAME);
		elec_json_obj_end(&j);
		putchar('\n');
	} else if (back) {
		puts("family_back: generic netlink family \"" ELECTION_GENL_NAME
		     "\" registered again (election.ko loaded)");
	} else {
		puts("family_gone: generic netlink family \"" ELECTION_GENL_NAME
		     "\" unregistered (election.ko unloaded): every instance stopped");
	}
	return flush_line();
}

/*
 * The family was unregistered: the module is gone, and every instance
 * with it (it reports no "stopped" event as it goes). Each instance the
 * hook last saw in another role runs the hook as "family_gone", role
 * stopped, leader none; the event numbering of the next module starts
 * afresh. With exit-on-reload the monitor exits once the hooks ran.
 */
static int mon_family_gone(const struct elec_ctx *ctx, struct elec_mon *m)
{
	uint64_t now = elec_mono_ns();
	size_t i;
	int ret;

	m->gone = true;
	m->new_family = 0;
	m->exiting = m->exit_on_reload;
	ret = print_family(ctx, false);
	for (i = 0; !ret && i < m->n_insts; i++) {
		struct elec_mon_inst *in = &m->insts[i];
		struct elec_ev e;
		int prev = in->role;

		in->snap_seq = 0;
		if (prev < 0 || prev == ELEC_ROLE_STOPPED)
			continue;
		e = in->last;
		e.name = "family_gone";
		e.has_ts = true;
		e.ts_ns = now;
		e.has_seq = true;
		e.seq = m->have_seq ? m->last_seq : 0;
		e.has_peer = false;
		e.leader = 0;
		e.has_role = true;
		e.role = ELEC_ROLE_STOPPED;
		in->role = ELEC_ROLE_STOPPED;
		in->last = e;
		if (m->exec_argv)
			ret = hook_queue(ctx, m, &e, prev);
	}
	/* a pending overflow stays: it may have taken NEWFAMILY too */
	m->have_seq = false;
	return ret;
}

static int mon_snapshot(struct elec_ctx *ctx, struct elec_mon *m);

/*
 * Join the new family's events group @grp (the membership went with the
 * old family), then take a snapshot as at the start: it runs the hook for
 * every instance whose role is not the one the hook last saw.
 */
static int mon_rejoin(struct elec_ctx *ctx, struct elec_mon *m, uint32_t grp)
{
	int err = nl_socket_add_membership(ctx->sk, (int)grp);

	if (err < 0)
		return elec_fail("cannot join multicast group \"%s\": %s",
				 ELECTION_GENL_MCGRP_EVENTS, nl_geterror(err));
	return mon_snapshot(ctx, m);
}

/* The family is registered again as @family, its events group @grp. */
static int mon_family_back(struct elec_ctx *ctx, struct elec_mon *m,
			   uint32_t family, uint32_t grp)
{
	int ret;

	m->new_family = 0;
	if (m->exiting || m->draining)
		return 0;
	ctx->family = (int)family;
	m->gone = false;
	m->have_seq = false;
	m->overflow = false;
	ret = print_family(ctx, true);
	if (ret)
		return ret;
	return m->rejoin ? m->rejoin(ctx, m, grp) : mon_rejoin(ctx, m, grp);
}

/* the id of the events group in a CTRL_ATTR_MCAST_GROUPS nest, or 0 */
static uint32_t ctrl_events_grp(struct nlattr *groups)
{
	static struct nla_policy pol[CTRL_ATTR_MCAST_GRP_MAX + 1] = {
		[CTRL_ATTR_MCAST_GRP_NAME] = { .type = NLA_STRING },
		[CTRL_ATTR_MCAST_GRP_ID] = { .type = NLA_U32 },
	};
	struct nlattr *g;
	int rem;

	if (!groups)
		return 0;
	nla_for_each_nested(g, groups, rem) {
		struct nlattr *tb[CTRL_ATTR_MCAST_GRP_MAX + 1];

		if (nla_parse_nested(tb, CTRL_ATTR_MCAST_GRP_MAX, g, pol) < 0 ||
		    !tb[CTRL_ATTR_MCAST_GRP_NAME] || !tb[CTRL_ATTR_MCAST_GRP_ID])
			continue;
		if (!strcmp(nla_get_string(tb[CTRL_ATTR_MCAST_GRP_NAME]),
			    ELECTION_GENL_MCGRP_EVENTS))
			return nla_get_u32(tb[CTRL_ATTR_MCAST_GRP_ID]);
	}
	return 0;
}

/*
 * A notification of nlctrl's "notify" group: families and their groups
 * come and go. Ours goes with rmmod (DELFAMILY) and comes back, under a
 * new id, with the next insmod (NEWFAMILY, naming its groups, then
 * NEWMCAST_GRP for each).
 */
static int handle_ctrl(struct elec_ctx *ctx, struct elec_mon *m,
		       struct nlmsghdr *nlh)
{
	static struct nla_policy pol[CTRL_ATTR_MAX + 1] = {
		[CTRL_ATTR_FAMILY_ID] = { .type = NLA_U16 },
		[CTRL_ATTR_FAMILY_NAME] = { .type = NLA_STRING },
		[CTRL_ATTR_MCAST_GROUPS] = { .type = NLA_NESTED },
	};
	struct nlattr *tb[CTRL_ATTR_MAX + 1];
	uint32_t family, grp;
	uint8_t cmd;
	int ret;

	if (!genlmsg_valid_hdr(nlh, 0) ||
	    genlmsg_parse(nlh, 0, tb, CTRL_ATTR_MAX, pol) < 0 ||
	    !tb[CTRL_ATTR_FAMILY_NAME] || !tb[CTRL_ATTR_FAMILY_ID] ||
	    strcmp(nla_get_string(tb[CTRL_ATTR_FAMILY_NAME]),
		   ELECTION_GENL_NAME))
		return 0;
	cmd = genlmsg_hdr(nlh)->cmd;
	family = nla_get_u16(tb[CTRL_ATTR_FAMILY_ID]);
	switch (cmd) {
	case CTRL_CMD_DELFAMILY:
		if (m->gone || family != (uint32_t)ctx->family)
			return 0;
		return mon_family_gone(ctx, m);
	case CTRL_CMD_NEWFAMILY:
		if (!m->gone && family == (uint32_t)ctx->family)
			return 0;
		if (!m->gone) {
			/* its DELFAMILY was lost (the socket overflowed) */
			ret = mon_family_gone(ctx, m);
			if (ret)
				return ret;
		}
		grp = ctrl_events_grp(tb[CTRL_ATTR_MCAST_GROUPS]);
		if (!grp) {
			m->new_family = family;	/* its NEWMCAST_GRP follows */
			return 0;
		}
		return mon_family_back(ctx, m, family, grp);
	case CTRL_CMD_NEWMCAST_GRP:
		grp = ctrl_events_grp(tb[CTRL_ATTR_MCAST_GROUPS]);
		if (!m->gone || family != m->new_family || !grp)
			return 0;
		return mon_family_back(ctx, m, family, grp);
	}
	return 0;
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

		if (nlh->nlmsg_type == GENL_ID_CTRL) {
			ret = handle_ctrl(ctx, m, nlh);
			if (ret)
				return ret;
			continue;
		}
		if (m->gone || nlh->nlmsg_type != ctx->family)
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
	m->quiet_from = elec_mono_ns();
	return 0;
}

/* No event for GAP_WAIT_MS while an overflow is pending. */
static int mon_quiet(const struct elec_ctx *ctx, struct elec_mon *m)
{
	m->overflow = false;
	m->have_seq = false;
	return print_gap(ctx, -1);
}

/*
 * After events were lost (the count unknown): nlctrl's notifications of a
 * reload may have been lost with them. Ask whether the family is there,
 * and under which id, in a dump of every family (a request for it by
 * name would load the module the administrator just unloaded).
 */
static int mon_check_family(struct elec_ctx *ctx, struct elec_mon *m)
{
	/* (the group asked for only when the family is new to it) */
	int grp, id = elec_nl_family_lookup(m->gone ? 0 : ctx->family, &grp);
	int ret;

	if (id < 0) {
		fprintf(stderr, "Warning: cannot read the generic netlink families\n");
		return 0;
	}
	if (!m->gone && id == ctx->family)
		return 0;
	if (!m->gone) {
		ret = mon_family_gone(ctx, m);
		if (ret || !id)
			return ret;
	}
	if (id && grp > 0)
		return mon_family_back(ctx, m, (uint32_t)id, (uint32_t)grp);
	return 0;
}

/* ---- snapshot ----------------------------------------------------------- */

/**
 * struct elec_snap - the snapshot's replies, printed once the dump is whole
 * (an interrupted dump is read again).
 * @evs: one per instance
 * @n: entries used
 * @cap: entries allocated
 * @oom: an allocation failed
 */
struct elec_snap {
	struct elec_ev *evs;
	size_t n, cap;
	bool oom;
};

static int snap_cb(struct nlattr **tb, void *arg)
{
	struct elec_snap *s = arg;

	if (s->n == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 16;
		struct elec_ev *n = realloc(s->evs, cap * sizeof(*n));

		if (!n) {
			s->oom = true;
			return 0;
		}
		s->evs = n;
		s->cap = cap;
	}
	ev_from(&s->evs[s->n++], tb, "snapshot");
	return 0;
}

/* Print one "snapshot" event per matching instance. */
static int mon_snapshot(struct elec_ctx *ctx, struct elec_mon *m)
{
	struct elec_snap s = { 0 };
	struct timespec now;
	int attempt, ret = ELEC_EXIT_FAIL;
	size_t i;

	/*
	 * a socket of its own: the events that arrive meanwhile wait in the
	 * monitor's socket, and a dump on a socket in the group would see
	 * them among its replies
	 */
	struct elec_ctx dc = *ctx;

	dc.sk = NULL;
	dc.family = 0;
	for (attempt = 0; attempt < 3; attempt++) {
		struct nl_msg *msg = elec_nl_msg(&dc, ELEC_CMD_GROUP_GET, true);

		if (!msg) {
			ret = ELEC_EXIT_FAIL;
			break;
		}
		s.n = 0;
		s.oom = false;
		ret = elec_nl_transact(&dc, msg, snap_cb, &s);
		if (ret != ELEC_NL_DUMP_INTR)
			break;
	}
	elec_nl_close(&dc);
	if (ret == ELEC_NL_DUMP_INTR)
		ret = elec_fail("the dump was interrupted by changes 3 times; try again");
	if (!ret && s.oom)
		ret = elec_fail("out of memory");
	/* a snapshot's time: now, on the kernel's clock */
	clock_gettime(CLOCK_MONOTONIC, &now);
	for (i = 0; !ret && i < s.n; i++) {
		struct elec_ev *e = &s.evs[i];
		struct elec_mon_inst *in;

		if (!mon_match(m, e))
			continue;
		in = mon_inst(m, e->ifindex, e->group);
		if (!in) {
			ret = elec_fail("out of memory");
			break;
		}
		in->snap_seq = e->seq;
		e->has_ts = true;
		e->ts_ns = (uint64_t)now.tv_sec * 1000000000ULL +
			   (uint64_t)now.tv_nsec;
		ret = print_event(ctx, m, e, in);
	}
	free(s.evs);
	return ret;
}

/* ---- SIGTERM and SIGINT -------------------------------------------------- */

/*
 * A second SIGTERM or SIGINT while draining: kill the running hook and
 * die of the signal, as without a handler.
 */
static void mon_abort(struct elec_mon *m)
{
	int sig = elec_sig_last();
	sigset_t set;

	if (m->child) {
		fprintf(stderr, "Warning: signal %d again: hook \"%s\" killed (seq %" PRIu64 ")\n",
			sig, m->exec_argv[0], m->jobs[m->job_head].ev.seq);
		kill(m->child, SIGKILL);
	}
	fflush(stdout);
	signal(sig, SIG_DFL);
	sigemptyset(&set);
	sigaddset(&set, sig);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	raise(sig);
}

/* ---- the loop ----------------------------------------------------------- */

/*
 * Read one datagram, if one is queued, and handle it. Sets *@empty when
 * none was. Returns 0 or an exit status.
 */
static int mon_read(struct elec_ctx *ctx, struct elec_mon *m, int fd,
		    struct msghdr *mh, bool *empty)
{
	struct sockaddr_nl *sa = mh->msg_name;
	ssize_t n;
	int ret;

	*empty = false;
	memset(sa, 0, sizeof(*sa));
	mh->msg_namelen = sizeof(*sa);
	n = recvmsg(fd, mh, MSG_DONTWAIT);
	if (n < 0) {
		if (errno == EINTR)
			return 0;
		if (errno == EAGAIN) {
			*empty = true;
			return 0;
		}
		if (errno != ENOBUFS)
			return elec_fail("receiving events: %s",
					 strerror(errno));
		return mon_overflow(m);
	}
	if (mh->msg_flags & MSG_TRUNC) {
		fprintf(stderr, "Warning: oversized message skipped\n");
		return 0;
	}
	if (sa->nl_pid != 0)	/* only the kernel sends events */
		return 0;
	ret = handle_datagram(ctx, m, mh->msg_iov->iov_base, (int)n);
	if (ret)
		return ret;
	if (m->overflow)
		m->quiet_from = elec_mono_ns();
	return 0;
}

/*
 * The first SIGTERM or SIGINT: read the events already queued (those of
 * groups just deleted: the kernel sends their "stopped" events before
 * "group del" returns, unless another context is delivering the
 * namespace's events at that moment, which then sends them a moment
 * later: so read until the socket has been quiet DRAIN_QUIET_MS, for at
 * most DRAIN_MAX_MS) and handle them as ever; from then on, only wait for
 * the hooks. A loss among them is reported at once (count unknown).
 * Returns 0 or an exit status.
 */
static int mon_drain(struct elec_ctx *ctx, struct elec_mon *m, int fd,
		     struct msghdr *mh)
{
	uint64_t end = elec_mono_ns() + DRAIN_MAX_MS * 1000000ULL, now;
	bool empty = false;
	int ret = 0;

	m->draining = true;
	for (;;) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		int wait_ms;

		while (!ret && !empty && elec_sig_count() < 2)
			ret = mon_read(ctx, m, fd, mh, &empty);
		now = elec_mono_ns();
		if (ret || elec_sig_count() >= 2 || now >= end)
			break;
		wait_ms = (int)((end - now) / 1000000) + 1;
		if (wait_ms > DRAIN_QUIET_MS)
			wait_ms = DRAIN_QUIET_MS;
		/* quiet for that long (or a second signal): done */
		if (poll(&p, 1, wait_ms) <= 0)
			break;
		empty = false;
	}
	if (!ret && m->overflow)
		ret = mon_quiet(ctx, m);
	return ret;
}

static int monitor_loop(struct elec_ctx *ctx, struct elec_mon *m, int fd,
			void *buf)
{
	struct sockaddr_nl sa;
	struct iovec iov = { .iov_base = buf, .iov_len = MON_BUFSIZE };
	struct msghdr mh = {
		.msg_name = &sa, .msg_namelen = sizeof(sa),
		.msg_iov = &iov, .msg_iovlen = 1,
	};
	bool empty;
	int ret;

	for (;;) {
		struct pollfd p[3] = {
			{ .fd = m->draining ? -1 : fd, .events = POLLIN },
			{ .fd = m->child ? m->pidfd : -1, .events = POLLIN },
			{ .fd = elec_sig_fd(), .events = POLLIN },
		};
		int timeout = -1, r;

		if (elec_sig_count() > 1) {
			mon_abort(m);
			return ELEC_EXIT_FAIL;
		}
		if (elec_sig_count() && !m->draining) {
			ret = mon_drain(ctx, m, fd, &mh);
			if (ret)
				return ret;
			continue;
		}
		/* exit-on-reload: the module went, and the hooks ran */
		if (m->exiting && !m->n_jobs)
			return ELEC_EXIT_FAIL;
		/* stopping (SIGTERM, SIGINT), and the hooks ran */
		if (m->draining && !m->n_jobs)
			return 0;
		/* the nearest of: a pending gap, the child's deadline, its poll */
		if (m->overflow) {
			uint64_t end = m->quiet_from + GAP_WAIT_MS * 1000000ULL;
			uint64_t now = elec_mono_ns();

			timeout = now >= end ? 0 : (int)((end - now) / 1000000 + 1);
		}
		if (m->child) {
			int left = hook_wait_ms(m, elec_mono_ns());

			if (left >= 0 && (timeout < 0 || left < timeout))
				timeout = left;
		}
		r = poll(p, ARRAY_SIZE(p), timeout);
		if (r < 0 && errno != EINTR)
			return elec_fail("poll: %s", strerror(errno));
		if (m->child && (m->pidfd < 0 || (r > 0 && p[1].revents))) {
			ret = hook_reap(ctx, m, m->pidfd >= 0);
			if (ret)
				return ret;
		}
		hook_overdue(m);
		if (m->overflow && !(r > 0 && p[0].revents) &&
		    elec_mono_ns() >= m->quiet_from + GAP_WAIT_MS * 1000000ULL) {
			ret = mon_quiet(ctx, m);
			if (!ret)
				ret = mon_check_family(ctx, m);
			if (ret)
				return ret;
		}
		if (r <= 0 || !p[0].revents)
			continue;
		ret = mon_read(ctx, m, fd, &mh, &empty);
		if (ret)
			return ret;
	}
}

/* dry run: what would be joined, filtered and run */
static void monitor_dry(const struct elec_mon *m)
{
	struct elec_json j;
	char **a;

	elec_json_init(&j, stdout);
	elec_json_obj_begin(&j, NULL);
	elec_json_str(&j, "family", ELECTION_GENL_NAME);
	elec_json_str(&j, "mcgrp", ELECTION_GENL_MCGRP_EVENTS);
	elec_json_str(&j, "cmd", "monitor");
	if (m->filter.seen & ELEC_KWB(ELEC_KW_DEV))
		elec_json_u64(&j, "ifindex", m->filter.ifindex);
	if (m->filter.seen & ELEC_KWB(ELEC_KW_GROUP))
		elec_json_u64(&j, "group", m->filter.group);
	if (m->types) {
		unsigned int t;

		elec_json_arr_begin(&j, "events");
		for (t = 1; t <= ELEC_EVENT_MAX; t++)
			if (m->types & (1U << t))
				elec_json_str(&j, NULL, elec_event_name(t));
		elec_json_arr_end(&j);
	}
	if (m->exit_on_reload)
		elec_json_bool(&j, "exit_on_reload", true);
	if (m->exec_argv) {
		elec_json_arr_begin(&j, "exec");
		for (a = m->exec_argv; *a; a++)
			elec_json_str(&j, NULL, *a);
		elec_json_arr_end(&j);
	}
	elec_json_obj_end(&j);
	putchar('\n');
}

/*
 * The words that are no keyword with a value: exit-on-reload and the
 * event names (entry = enum elec_event). Each is taken exactly or by a
 * prefix that abbreviates no keyword of monitor's ("e" stays "exec").
 */
static int monitor_word(const char *s, const char *const *kws, size_t nkws)
{
	const char *words[ELEC_EVENT_MAX + 1];
	unsigned int t;

	words[0] = "exit-on-reload";
	for (t = 1; t <= ELEC_EVENT_MAX; t++)
		words[t] = elec_event_name(t);
	if (elec_lookup(s, kws, NULL, nkws) != -1)
		return -1;
	return elec_lookup(s, words, NULL, ARRAY_SIZE(words));
}

/* "Error: ..." for a word that is neither a keyword nor one of the words */
static int monitor_bad_word(const char *s)
{
	char names[256];
	unsigned int t;
	size_t off;

	off = (size_t)snprintf(names, sizeof(names), "%s",
			       "dev, group, hook-timeout, exit-on-reload, exec, or an event: ");
	for (t = 1; t <= ELEC_EVENT_MAX && off < sizeof(names); t++)
		off += (size_t)snprintf(names + off, sizeof(names) - off, "%s%s",
					t > 1 ? (t < ELEC_EVENT_MAX ? ", " : " or ") : "",
					elec_event_name(t));
	return elec_err("unknown word \"%s\" for monitor: %s", s, names);
}

int elec_cmd_monitor(struct elec_ctx *ctx, int argc, char **argv)
{
	static const char *const kws[] = { "dev", "group", "hook-timeout",
					   "exec" };
	struct elec_mon *m;
	char **kv = NULL;
	int i = 0, nkw = 0, ret, fd, w, notify;
	void *buf;

	m = calloc(1, sizeof(*m));
	kv = calloc((size_t)argc + 1, sizeof(*kv));
	if (!m || !kv) {
		ret = elec_fail("out of memory");
		goto out;
	}
	m->pidfd = -1;
	/* KEYWORD VALUE pairs and words, then "exec" and the rest */
	while (i < argc &&
	       elec_lookup(argv[i], kws, NULL, ARRAY_SIZE(kws)) != 3) {
		w = monitor_word(argv[i], kws, ARRAY_SIZE(kws));
		if (w == 0) {
			m->exit_on_reload = true;
			i++;
		} else if (w > 0) {
			m->types |= 1U << w;
			i++;
		} else if (elec_lookup(argv[i], kws, NULL, ARRAY_SIZE(kws)) < 0) {
			ret = monitor_bad_word(argv[i]);
			goto out;
		} else {
			kv[nkw++] = argv[i++];
			if (i < argc)
				kv[nkw++] = argv[i++];
		}
	}
	if (i < argc && i + 1 >= argc) {
		ret = elec_err("\"exec\" needs a command");
		goto out;
	}
	ret = elec_parse_args(ctx, "monitor", nkw, kv,
			      ELEC_KWB_INSTANCE | ELEC_KWB(ELEC_KW_HOOK_TIMEOUT), 0,
			      &m->filter);
	if (ret)
		goto out;
	m->hook_timeout_ns = m->filter.seen & ELEC_KWB(ELEC_KW_HOOK_TIMEOUT) ?
			     m->filter.hook_timeout_ns : HOOK_TIMEOUT_NS;
	if (i < argc)
		m->exec_argv = argv + i + 1;
	if (ctx->dry_run) {
		monitor_dry(m);
		goto out;
	}
	/*
	 * nlctrl's notifications (the module's unloading and loading): the
	 * group resolved before the socket joins any, so that no multicast
	 * message comes between the request and its reply
	 */
	ret = elec_nl_open(ctx);
	if (ret)
		goto out;
	notify = genl_ctrl_resolve_grp(ctx->sk, "nlctrl",
				       "notify");
	ret = elec_nl_join_events(ctx);
	if (ret)
		goto out;
	if (notify < 0 || nl_socket_add_membership(ctx->sk, notify) < 0)
		fputs("Warning: cannot join nlctrl's \"notify\" group: reloads go unnoticed\n",
		      stderr);
	fd = nl_socket_get_fd(ctx->sk);
	/* the hooks must not hold the socket */
	(void)fcntl(fd, F_SETFD, FD_CLOEXEC);
	set_rcvbuf(fd);
	/* from here on a signal drains the socket (poll's EINTR handled) */
	ret = elec_sig_catch();
	if (ret)
		goto out;
	/* joined first: an event after the snapshot is never missed */
	ret = mon_snapshot(ctx, m);
	if (ret)
		goto out;
	buf = malloc(MON_BUFSIZE);
	if (!buf) {
		ret = elec_fail("out of memory");
		goto out;
	}
	ret = monitor_loop(ctx, m, fd, buf);
	free(buf);
out:
	free(kv);
	if (m)
		free(m->insts);
	free(m);
	return ret;
}
