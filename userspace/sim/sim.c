// SPDX-License-Identifier: GPL-2.0
/*
 * The event loop: virtual clock, event queue, nodes, the core's sink.
 *
 * The queue is a binary heap keyed by (time, seq) plus a few FIFO lanes as
 * a fast path: an event whose key is not below a lane's last key is
 * appended to that lane instead (with a fixed latency nearly every message
 * and timer is), and the next event is the smallest of the heads. The
 * order is exactly the (time, seq) order either way.
 */
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "sim.h"
#include "bully.h"
#include "invitation.h"

static int ev_less(const struct ev *a, const struct ev *b)
{
	if (a->time != b->time)
		return a->time < b->time;
	return a->key < b->key;
}

static void *xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n);

	if (!q) {
		fprintf(stderr, "electsim: out of memory\n");
		exit(3);
	}
	return q;
}

static void heap_push(struct sim *s, const struct ev *e)
{
	size_t i;

	if (s->hn == s->hcap) {
		s->hcap = s->hcap ? s->hcap * 2 : 1024;
		s->heap = xrealloc(s->heap, s->hcap * sizeof(*s->heap));
	}
	i = s->hn++;
	while (i) {
		size_t up = (i - 1) / 2;

		if (!ev_less(e, &s->heap[up]))
			break;
		s->heap[i] = s->heap[up];
		i = up;
	}
	s->heap[i] = *e;
}

static void heap_pop(struct sim *s, struct ev *out)
{
	struct ev last;
	size_t i = 0, n;

	*out = s->heap[0];
	last = s->heap[--s->hn];
	n = s->hn;
	for (;;) {
		size_t c = 2 * i + 1;

		if (c >= n)
			break;
		if (c + 1 < n && ev_less(&s->heap[c + 1], &s->heap[c]))
			c++;
		if (!ev_less(&s->heap[c], &last))
			break;
		s->heap[i] = s->heap[c];
		i = c;
	}
	if (n)
		s->heap[i] = last;
}

static struct ev *lane_at(struct lane *l, size_t k)
{
	return &l->buf[(l->head + k) & (l->cap - 1)];
}

/*
 * Doubles a full lane in place (realloc: a large block is remapped, not
 * copied); the entries before the head, which wrapped to the start of
 * the buffer, move up behind the old end.
 */
static void lane_grow(struct lane *l)
{
	size_t ocap = l->cap, ncap = ocap ? ocap * 2 : 1024;

	l->buf = xrealloc(l->buf, ncap * sizeof(*l->buf));
	if (l->head)
		memcpy(l->buf + ocap, l->buf, l->head * sizeof(*l->buf));
	l->cap = ncap;
}

/* the key of the last event a lane entry stands for */
static u64 ev_run_last_key(const struct ev *e)
{
	return e->key + ((u64)EV_RUN(e) << EV_SEQ_SHIFT);
}

/* a run may extend over messages without a payload and timers */
static int ev_kind_runs(u8 kind)
{
	return kind == EV_MSG || kind == EV_ZMSG || kind == EV_TIMER;
}

/*
 * The event k places after the first one of entry @e (k <= its run): its
 * node index and source
 */
static void ev_run_at(const struct ev *e, u32 k, u32 *dst, u32 *src)
{
	int by_src = !!(e->dst & EV_RUN_SRC);

	*dst = EV_DST(e) + (by_src ? 0 : k);
	*src = e->src + (by_src ? k : 0);
}

/*
 * Whether an event to node index @dst from @src (all else matching)
 * continues the run of entry @t: then @t takes it.
 */
static int ev_run_extend(struct ev *t, u32 dst, u32 src)
{
	u32 run = EV_RUN(t), ndst, nsrc;

	if (!run) {
		/* a single event: the second one says how the run goes on */
		if (dst == EV_DST(t) + 1 && src == t->src)
			t->dst += 1U << EV_RUN_SHIFT;
		else if (dst == EV_DST(t) && src == t->src + 1)
			t->dst += EV_RUN_SRC | 1U << EV_RUN_SHIFT;
		else
			return 0;
		return 1;
	}
	ev_run_at(t, run + 1, &ndst, &nsrc);
	if (dst != ndst || src != nsrc)
		return 0;
	t->dst += 1U << EV_RUN_SHIFT;
	return 1;
}

/*
 * Whether the event (@time, @key, @term, to @dst from @src) continues the
 * run of lane @l's last entry, the entry then taking it
 */
static int lane_tail_takes(struct lane *l, u64 time, u64 key, u64 term,
			   u32 dst, u32 src)
{
	struct ev *t = lane_at(l, l->count - 1);

	return time == t->time && ev_kind_runs((u8)(key >> 8)) &&
	       key == ev_run_last_key(t) + (1ULL << EV_SEQ_SHIFT) &&
	       (u16)key == (u16)t->key && term == t->term &&
	       EV_RUN(t) < EV_RUN_MAX && ev_run_extend(t, dst, src);
}

void sim_push(struct sim *s, u64 time, u8 kind, u8 type, u32 dst, u32 src,
	      u64 term)
{
	struct ev e;
	int i;

	if (s->seq >= (1ULL << 48)) {
		fprintf(stderr, "electsim: event sequence overflow\n");
		exit(3);
	}
	e.time = time;
	e.key = s->seq++ << EV_SEQ_SHIFT | (u64)kind << 8 | type;
	e.term = term;
	e.dst = dst;
	e.src = src;
	if (kind >= EV_CRASH)
		s->pending_faults++;
	/*
	 * The event after the last one pushed, continuing its run (a node's
	 * frames to its peers in turn): the entry takes it, whatever lane it
	 * is in. The lanes stay sorted, and which lane holds an event never
	 * changes the order events are taken in (sim_pop takes the least
	 * key of all): the search below is for the other events.
	 */
	if (s->push_lane && s->push_lane->count &&
	    lane_tail_takes(s->push_lane, time, e.key, term, dst, src))
		return;
	/*
	 * First lane whose last event is not after this one: the lanes stay
	 * sorted. With a fixed latency and fixed timeouts (one lane for
	 * messages, one per timeout) nearly nothing reaches the heap. An
	 * event that continues the lane's last entry (same time, kind, type,
	 * term and source, the next sequence number, the next node index)
	 * makes that entry a run one longer instead of taking a slot: a
	 * node's frames to every peer in turn (Bully's ELECTION to the
	 * higher ids, the rings' greetings, heartbeats) cost one entry per
	 * EV_RUN_MAX + 1 of them, not one each.
	 */
	for (i = 0; i < SIM_LANES; i++) {
		struct lane *l = &s->lane[i];

		if (l->count) {
			struct ev *t = lane_at(l, l->count - 1);
			u64 last = ev_run_last_key(t);

			if (time < t->time || (time == t->time && e.key < last))
				continue;
			if (lane_tail_takes(l, time, e.key, term, dst, src)) {
				s->push_lane = l;
				return;
			}
		}
		if (l->count == l->cap)
			lane_grow(l);
		*lane_at(l, l->count++) = e;
		s->push_lane = l;
		return;
	}
	s->push_lane = NULL;
	heap_push(s, &e);
}

void sim_push_range(struct sim *s, u64 time, u8 kind, u8 type, u32 a, u32 b,
		    u32 src, u64 term)
{
	while (a < b) {
		struct lane *l;
		struct ev *t;
		u32 k;

		sim_push(s, time, kind, type, a++, src, term);
		l = s->push_lane;
		if (!l || !ev_kind_runs(kind))
			continue;
		/*
		 * The entry that took it goes on to the next node indices,
		 * as the pushes one by one would make it: the next sequence
		 * numbers, at most EV_RUN_MAX more
		 */
		t = lane_at(l, l->count - 1);
		if (t->src != src || EV_DST(t) + EV_RUN(t) != a - 1 ||
		    (EV_RUN(t) && (t->dst & EV_RUN_SRC)))
			continue;
		k = EV_RUN_MAX - EV_RUN(t);
		if (k > b - a)
			k = b - a;
		if (s->seq + k >= (1ULL << 48))
			continue;
		t->dst += k << EV_RUN_SHIFT;
		s->seq += k;
		a += k;
	}
}

static int sim_pop(struct sim *s, struct ev *out)
{
	const struct ev *best = s->hn ? &s->heap[0] : NULL;
	struct lane *bl = NULL;
	int i;

	/*
	 * The rest of a run: its next event has the same time and the next
	 * sequence number, so no event can come before it (every event with
	 * a smaller key was taken first; the ones pushed since have larger
	 * keys).
	 */
	if (s->in_run) {
		bl = s->last_lane;
		best = lane_at(bl, 0);
		goto take;
	}
	for (i = 0; i < SIM_LANES; i++) {
		struct lane *l = &s->lane[i];

		if (l->count && (!best || ev_less(lane_at(l, 0), best))) {
			best = lane_at(l, 0);
			bl = l;
		}
	}
	if (!best)
		return 0;
take:
	s->last_lane = bl;
	s->in_run = 0;
	if (bl) {
		struct ev *h = lane_at(bl, 0);
		u32 run = EV_RUN(h);

		*out = *h;
		out->dst = EV_DST(h);
		if (run) {
			/* the entry stands for the run's next event now */
			u32 dst, src;

			s->in_run = 1;
			ev_run_at(h, 1, &dst, &src);
			h->key += 1ULL << EV_SEQ_SHIFT;
			h->dst = dst | (run > 1 ? h->dst & EV_RUN_SRC : 0) |
				 (run - 1) << EV_RUN_SHIFT;
			h->src = src;
			return 1;
		}
		bl->head = (bl->head + 1) & (bl->cap - 1);
		bl->count--;
		return 1;
	}
	heap_pop(s, out);
	return 1;
}

static u64 sim_peek_time(struct sim *s)
{
	u64 t = ~0ULL;
	int i;

	if (s->in_run)
		return s->now;	/* the rest of a run: now (sim_pop) */
	for (i = 0; i < SIM_LANES; i++)
		if (s->lane[i].count && lane_at(&s->lane[i], 0)->time < t)
			t = lane_at(&s->lane[i], 0)->time;
	if (s->hn && s->heap[0].time < t)
		t = s->heap[0].time;
	return t;
}

/*
 * The index of the node with @id, or s->n if none. The ids in ascending
 * order (s->ids, beside s->by_id) are a small array that stays in the
 * cache: a look-up reads no node.
 */
static u32 sim_idx_by_id(const struct sim *s, u32 id)
{
	u32 lo = 0, hi = s->n, guess;

	/* contiguous ids (the default 1..N): the rank is id - lowest */
	guess = id - s->id_lo;
	if (guess < s->n && s->ids[guess] == id)
		return s->by_id[guess];

	while (lo < hi) {
		u32 mid = lo + (hi - lo) / 2;

		if (s->ids[mid] < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < s->n && s->ids[lo] == id)
		return s->by_id[lo];
	return s->n;
}

struct node *sim_node_by_id(struct sim *s, u32 id)
{
	u32 i = sim_idx_by_id(s, id);

	return i < s->n ? &s->nodes[i] : NULL;
}

struct node *sim_best(struct sim *s, int live_only)
{
	int low = s->p->ops->lowest_wins;
	u32 k;

	/* by_id is ascending: walk it from the best end */
	for (k = 0; k < s->n; k++) {
		struct node *nd = &s->nodes[s->by_id[low ? k : s->n - 1 - k]];

		if (!live_only || nd->up)
			return nd;
	}
	return NULL;
}

/* the node is in standby (admin or tracked): it never leads */
int sim_node_standby(const struct node *nd)
{
	return nd->core.cfg.standby || nd->core.cfg.standby_tracked;
}

/*
 * The best live node that may lead (not in standby): the one the
 * algorithm must elect; NULL when every live node is in standby (then no
 * node may lead).
 */
struct node *sim_best_cand(struct sim *s)
{
	int low = s->p->ops->lowest_wins;
	u32 k;

	for (k = 0; k < s->n; k++) {
		struct node *nd = &s->nodes[s->by_id[low ? k : s->n - 1 - k]];

		if (nd->up && !sim_node_standby(nd))
			return nd;
	}
	return NULL;
}

/*
 * Tracked standby of a node on or off, as electionctl track does (GROUP_SET
 * standby-tracked, then elec_core_standby_sync()); a node that is down
 * takes it when it starts again.
 */
void sim_standby(struct sim *s, struct node *nd, int on)
{
	struct elec_config cfg = nd->core.cfg;

	if (s->trace)
		out_trace(s, "%u standby %s", nd->id, on ? "on" : "off");
	cfg.standby_tracked = on;
	if (elec_core_set_config(&nd->core, &cfg, NULL)) {
		fprintf(stderr, "electsim: standby refused\n");
		exit(3);
	}
	if (!nd->up)
		return;
	elec_core_standby_sync(&nd->core, s->now);
	sim_node_end(nd);
	s->dirty = 1;
}

/*
 * The node is taking part in an election or has no leader yet
 * (invitation: it merges, or its search found a group to merge or owes a
 * READY, or it accepted an invitation). Ring
 * algorithms also: it is a participant of a run (a leader can be one,
 * with its role still leader), or it still has a ring message to pass on
 * (its successor may not have acknowledged it yet, the retry is to come).
 */
static int node_busy(const struct node *nd)
{
	const struct elec_core *c = &nd->core;

	if (!nd->up || !c->running)
		return 0;
	/*
	 * (a search whose window saw the membership change, a member that
	 * answered for another group, say, owes a READY when it ends)
	 */
	if (nd->sim->inv)
		return c->phase == ELEC_INV_MERGING ||
		       c->phase == ELEC_INV_ACCEPTED ||
		       (c->inv.searching &&
			(c->inv.found_lower || c->inv.dirty));
	/* quorum on, no majority heard: waiting, not electing */
	if (nd->sim->p->cfg.quorum && !c->leader &&
	    c->phase == ELEC_BULLY_FOLLOWING &&
	    !elec_quorum_may_run(c, nd->sim->now))
		return 0;
	/*
	 * A ring follower that no ring frame of its leader's term reached
	 * greets a round after it accepted the leader (ring.c): a frame
	 * still to come.
	 */
	/*
	 * (a node in standby without a leader waits for one: it is busy
	 * only with a run; sim_stable() wants a leader of it all the same
	 * when any live node may lead)
	 */
	return c->role == ELEC_ROLE_CANDIDATE ||
	       (!c->leader && c->role != ELEC_ROLE_LEADER &&
		!sim_node_standby(nd)) ||
	       (!nd->sim->ring && c->timer_expires[ELEC_BULLY_TIMER_PREEMPT]) ||
	       (nd->sim->ring && (c->participant || c->ring.q_len ||
				  /* a greeting owed after stepping down */
				  (c->ring.resigned &&
				   c->timer_expires[ELEC_TIMER_DETECT]) ||
				  (c->phase == ELEC_RING_FOLLOWING &&
				   c->ring.counted_term != c->term)));
}

void sim_node_begin(struct node *nd)
{
	(void)nd;
}

/*
 * Two or more live nodes in the leader role: the time it lasts is summed
 * (and its longest stretch kept) once counting started, i.e. from the
 * fault on.
 */
static void sim_dual_set(struct sim *s, struct node *nd, u8 lead)
{
	if (lead == nd->lead)
		return;
	nd->lead = lead;
	if (lead) {
		if (++s->n_lead == 2)
			s->dual_since = s->now;
		return;
	}
	if (s->n_lead-- == 2 && s->counting) {
		u64 d = s->now - s->dual_since;

		s->dual_ns += d;
		if (d > s->dual_max_ns)
			s->dual_max_ns = d;
	}
}

/* the totals, an interval still open counted up to now */
static void sim_dual_now(const struct sim *s, u64 *total, u64 *max)
{
	*total = s->dual_ns;
	*max = s->dual_max_ns;
	if (s->n_lead >= 2 && s->counting) {
		u64 d = s->now - s->dual_since;

		*total += d;
		if (d > *max)
			*max = d;
	}
}

static u64 sim_max_term(const struct sim *s)
{
	u64 t = 0;
	u32 i;

	for (i = 0; i < s->n; i++)
		if (s->nodes[i].core.term > t)
			t = s->nodes[i].core.term;
	return t;
}

/* the peers @nd counts as members of its group, as a count and a sum */
static u32 inv_members(const struct node *nd)
{
	u32 i, sig = 0;

	for (i = 0; i < nd->core.n_peers; i++)
		if (nd->core.peers[i].flags & ELEC_INV_PEER_MEMBER)
			sig += 0x10001U + nd->core.peers[i].id * 2654435761U;
	return sig;
}

/*
 * Invitation: a change of membership or state is a change to re-check
 * quiescence on; a group the node formed must have a sequence number
 * above every one it formed before (a group number is never reused).
 */
static void sim_inv_node_end(struct sim *s, struct node *nd)
{
	const struct elec_core *c = &nd->core;
	u32 members = inv_members(nd);

	if (members != nd->seen_members || c->phase != nd->seen_phase ||
	    c->timer_expires[ELEC_TIMER_DETECT] != nd->seen_detect) {
		nd->seen_members = members;
		nd->seen_phase = c->phase;
		nd->seen_detect = c->timer_expires[ELEC_TIMER_DETECT];
		s->dirty = 1;
	}
	if (c->inv.coord != nd->id || c->inv.seq == nd->formed_seq)
		return;
	if (c->inv.seq < nd->formed_seq) {
		s->reused++;
		if (s->trace)
			out_trace(s, "%u group (%llu, %u) formed again",
				  nd->id, (unsigned long long)c->inv.seq,
				  nd->id);
	}
	nd->formed_seq = c->inv.seq;
}

void sim_node_end(struct node *nd)
{
	struct sim *s = nd->sim;
	u8 b = node_busy(nd);

	if (nd->core.ring.q_len > s->q_max)
		s->q_max = nd->core.ring.q_len;
	sim_dual_set(s, nd, nd->up && nd->core.role == ELEC_ROLE_LEADER);
	if (b != nd->busy) {
		if (b)
			s->busy++;
		else
			s->busy--;
		nd->busy = b;
		s->dirty = 1;
	}
	if (s->inv)
		sim_inv_node_end(s, nd);
	/*
	 * Quorum on: a waiting node's chance to run, or a leader's lease,
	 * changes with every frame heard and every timer: judge again.
	 */
	if (s->p->cfg.quorum)
		s->dirty = 1;
	if (nd->core.leader != nd->seen_leader ||
	    nd->core.term != nd->seen_term ||
	    nd->core.role != nd->seen_role) {
		/* a decision: a new (leader, term) adopted */
		if (nd->core.leader && (nd->core.leader != nd->seen_leader ||
					nd->core.term != nd->seen_term)) {
			s->t_decide = s->now;
			if (s->trace)
				out_trace(s, "%u decide leader=%u term=%llu",
					  nd->id, nd->core.leader,
					  (unsigned long long)nd->core.term);
		}
		nd->seen_leader = nd->core.leader;
		nd->seen_term = nd->core.term;
		nd->seen_role = nd->core.role;
		s->dirty = 1;
	}
}

static void sim_emit(void *ctx, const struct elec_action *act)
{
	struct node *nd = ctx;
	struct sim *s = nd->sim;
	u64 seq0;

	switch (act->kind) {
	case ELEC_ACT_SEND: {
		const struct elec_msg *m = &act->msg;
		u8 counted = m->type;

		/* a ring message re-sent to the next position: a retry */
		if (s->ring &&
		    nd->core.stats.tx[ELEC_MSG_RETRY] != nd->seen_retry) {
			nd->seen_retry = nd->core.stats.tx[ELEC_MSG_RETRY];
			counted = ELEC_MSG_RETRY;
		}
		if (s->counting && counted <= ELEC_MSG_MAX) {
			s->tx[counted]++;
			/* once per addressee: a broadcast, every peer */
			s->dtx[counted] += m->dst ? 1 : nd->core.n_peers;
		}
		if (s->trace) {
			char pl[160];

			out_payload(pl, sizeof(pl), m->algo, m->type,
				    m->payload, m->payload_len);
			out_trace(s, "%u send %s dst=%u term=%llu%s%s%s",
				  nd->id, out_msg_name(counted), m->dst,
				  (unsigned long long)m->term,
				  counted != m->type ? " as=" : "",
				  counted != m->type ?
				  out_msg_name(m->type) : "", pl);
		}
		seq0 = s->seq;
		if (m->dst) {
			/* its index, without reading the node (not cached) */
			u32 di = sim_idx_by_id(s, m->dst);

			if (di < s->n)
				net_send(s, m, nd->idx, di);
		} else {
			net_broadcast(s, m, nd->idx);
		}
		/* --auth on: each delivery's counter, the frame's */
		for (; s->auth_sent && seq0 < s->seq; seq0++) {
			struct sim_auth_sent *a =
				&s->auth_sent[seq0 & (SIM_AUTH_SENT - 1)];

			a->seq = seq0;
			a->ctr = m->auth_ctr;
		}
		break;
	}
	case ELEC_ACT_TIMER_ARM:
		sim_push(s, act->timer.expires_ns, EV_TIMER, act->timer.id,
			 nd->idx, 0, act->timer.expires_ns);
		break;
	case ELEC_ACT_TIMER_CANCEL:
		/* the core's timer_expires makes the queued event stale */
		break;
	case ELEC_ACT_EVENT:
		if (s->trace) {
			static const char *const names[] = {
				"?", "election-started", "leader-changed",
				"peer-up", "peer-down", "stopped"
			};
			u8 t = act->event.type;

			out_trace(s, "%u event %s peer=%u leader=%u", nd->id,
				  t <= ELEC_EVENT_MAX ? names[t] : "?",
				  act->event.peer, act->event.leader);
		}
		break;
	}
}

static int cmp_idx_by_id(const void *a, const void *b, void *arg)
{
	const struct node *nodes = arg;
	u32 x = nodes[*(const u32 *)a].id, y = nodes[*(const u32 *)b].id;

	return x < y ? -1 : x > y;
}

/*
 * Ring queue bytes per node: room for 4N + 16 of the algorithm's largest
 * records, at most 4096 (a queued record is a 16-byte header and the
 * payload rounded up to 8 bytes). A node queues at most one ELECTION per
 * originator and one COORDINATOR per announcer in a run, so this holds two
 * overlapping runs with every node initiating (measured depths are far
 * smaller: a full queue is counted, and fails --check). The memory is one
 * anonymous mapping: a queue touches only the pages it fills.
 */
static u32 ring_queue_cap(const struct sim_params *p)
{
	u64 body, cap, recs = 4 * (u64)p->n + 16;

	switch (p->ops->algo) {
	case ELEC_ALGO_RING_LIST:
		body = 4 + 4 + 4 * (u64)p->n;
		break;
	case ELEC_ALGO_RING_ALL:
		body = 4 + 8;
		break;
	default:
		body = 4 + 4;
		break;
	}
	if (recs > 4096)
		recs = 4096;
	cap = (16 + ((body + 7) & ~7ULL)) * recs;
	if (cap < ELEC_RING_QUEUE_BYTES)
		cap = ELEC_RING_QUEUE_BYTES;
	return (u32)cap;
}

/* faults in (zeroed) the pages of [@p, @p + @len): 0, or -1 */
static int sim_populate(void *p, size_t len)
{
#ifdef MADV_POPULATE_WRITE
	if (madvise(p, len, MADV_POPULATE_WRITE) && errno != EINVAL)
		return -1;
#endif
	(void)p;
	(void)len;
	return 0;
}

/*
 * Zeroed memory for a large array every page of which is used (the nodes,
 * their peer tables: 4.8 GB at N = 10,000), or NULL. Backed by transparent
 * huge pages where the kernel has them: each delivery at large N goes to
 * another node, and with 4 KiB pages nearly each one missed the TLB too
 * (a third of the time of the rings' greetings at N = 8,000). With
 * @populate, populated at once rather than one page fault at a time
 * (the peer tables: by the threads that set the nodes up, each its part,
 * sim_init_nodes()); memory the machine lacks fails there, not later
 * (kernels before 5.14 without MADV_POPULATE_WRITE fault the pages in as
 * they are used).
 */
static void *sim_map(size_t len, int populate)
{
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return NULL;
#ifdef MADV_HUGEPAGE
	if (len >= (2U << 20))
		madvise(p, len, MADV_HUGEPAGE);
#endif
	if (populate && sim_populate(p, len)) {
		munmap(p, len);
		return NULL;
	}
	return p;
}

/**
 * ids_has() - whether @id is one of the @n ids of @ids
 * @ids: the list
 * @n: its length
 * @id: the id looked for
 *
 * Return: 1 if it is, else 0.
 */
int ids_has(const u32 *ids, u32 n, u32 id)
{
	u32 k;

	for (k = 0; k < n; k++)
		if (ids[k] == id)
			return 1;
	return 0;
}

/* the nodes index @lo to @hi - 1: their cores, queues, keys, peer tables */
struct sim_init_part {
	struct sim *s;
	u32 lo, hi;
	int err;
	int started;	/* on a thread of its own */
	pthread_t thread;
};

static void *sim_init_nodes(void *arg)
{
	struct sim_init_part *part = arg;
	struct sim *s = part->s;
	const struct sim_params *p = s->p;
	struct elec_config cfg = s->cfg;
	u32 i, k, np = p->n - 1;
	int o;

	/* this part's peer tables, populated by this thread (2 MB aligned) */
	if (s->peer_mem_len) {
		size_t a = (size_t)np * part->lo * sizeof(struct elec_peer);
		size_t b = (size_t)np * part->hi * sizeof(struct elec_peer);

		a &= ~(((size_t)2 << 20) - 1);
		if (part->hi < p->n)
			b &= ~(((size_t)2 << 20) - 1);
		else
			b = s->peer_mem_len;
		if (b > a && sim_populate((char *)s->peer_mem + a, b - a)) {
			part->err = -1;
			return NULL;
		}
	}
	for (i = part->lo; i < part->hi; i++) {
		struct node *nd = &s->nodes[i];
		struct elec_sink sink = { .emit = sim_emit, .ctx = nd };

		nd->sim = s;
		nd->idx = i;
		nd->up = 1;
		cfg.self_id = nd->id;
		/* --standby LIST, --standby-tracked LIST */
		for (o = 0; o < ELEC_OPT_COUNT; o++)
			if (elec_opts[o].flags & ELEC_OPTF_SIM_IDS)
				elec_opt_set(&cfg, o,
					     ids_has(s->p->opt_ids[o],
						    s->p->n_opt_ids[o], nd->id));
		/* ring order = the order of the ids: node k is at k + 1 */
		if (s->ring)
			cfg.self_pos = i + 1;
		nd->peers = np ? s->peer_mem + (size_t)np * i : NULL;
		if (elec_core_init(&nd->core, &cfg, nd->peers, np, &sink))
			goto fail;
		if (s->ring)
			elec_core_set_queue(&nd->core,
					    s->qmem + (size_t)s->q_cap * i,
					    s->q_cap);
		/*
		 * a key: counters on every frame sent, the replay rule on
		 * every frame received; each node's wall clock its own
		 */
		if (s->auth_rx)
			elec_core_set_auth(&nd->core,
					   s->auth_rx + (size_t)np * i,
					   SIM_WALL_NS + (u64)i * 100003ULL, 0);
		/* the estimates, for a configuration that uses them */
		if (s->est)
			elec_core_set_est(&nd->core, s->est + (size_t)np * i);
		/* ascending order: every add appends */
		for (k = 0; k < p->n; k++) {
			u32 pi = s->by_id[k], id = s->nodes[pi].id;

			if (id == nd->id)
				continue;
			if (s->ring ? elec_core_peer_add_pos(&nd->core, id,
							    NULL, pi + 1) :
			    elec_core_peer_add(&nd->core, id, NULL))
				goto fail;
		}
	}
	return NULL;
fail:
	part->err = -1;
	return NULL;
}

/*
 * Every node's set-up is its own memory alone (its core, queue, counters
 * and peer table), so at large N the nodes are set up in parts on
 * several threads: the 4.8 GB of peer tables at N = 10,000 are written
 * for the first time there, which on a virtual machine whose host backs
 * memory on first touch (0.6 GB/s here) is most of the set-up, and
 * which goes about twice as fast on two CPUs. The result does not depend
 * on the threads: the same nodes in the same state.
 */
static int sim_init_all(struct sim *s)
{
	struct sim_init_part part[SIM_INIT_THREADS];
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	u32 n = s->n, parts = 1, i;
	int err = 0;

	if (n >= SIM_INIT_PARALLEL_MIN && cpus > 1)
		parts = cpus < SIM_INIT_THREADS ? (u32)cpus : SIM_INIT_THREADS;
	for (i = 0; i < parts; i++) {
		part[i].s = s;
		part[i].lo = (u32)((u64)n * i / parts);
		part[i].hi = (u32)((u64)n * (i + 1) / parts);
		part[i].err = 0;
		part[i].started = 0;
	}
	/* parts without a thread (none could be made) are done here */
	for (i = 1; i < parts; i++)
		part[i].started = !pthread_create(&part[i].thread, NULL,
						  sim_init_nodes, &part[i]);
	sim_init_nodes(&part[0]);
	for (i = 1; i < parts; i++) {
		if (part[i].started)
			pthread_join(part[i].thread, NULL);
		else
			sim_init_nodes(&part[i]);
	}
	for (i = 0; i < parts; i++)
		err |= part[i].err;
	return err;
}

int sim_init(struct sim *s, const struct sim_params *p)
{
	struct elec_config cfg;
	u32 i;

	memset(s, 0, sizeof(*s));
	s->p = p;
	s->n = p->n;
	s->nodes_len = (size_t)p->n * sizeof(*s->nodes);
	s->nodes = sim_map(s->nodes_len, 1);
	if (p->cfg.quorum) {
		s->alive_sent = calloc((size_t)p->n * p->n,
				       sizeof(*s->alive_sent));
		s->hb_sent = calloc((size_t)p->n * p->n,
				    sizeof(*s->hb_sent));
		s->hb_due = calloc((size_t)p->n * p->n,
				   sizeof(*s->hb_due));
		s->hb_due_term = calloc((size_t)p->n * p->n,
					sizeof(*s->hb_due_term));
		if (!s->alive_sent || !s->hb_sent || !s->hb_due ||
		    !s->hb_due_term)
			return -1;
	}
	s->by_id = calloc(p->n, sizeof(*s->by_id));
	s->ids = calloc(p->n, sizeof(*s->ids));
	if (!s->nodes || !s->by_id || !s->ids)
		return -1;
	for (i = 0; i < p->n; i++) {
		s->nodes[i].id = p->ids[i];
		s->by_id[i] = i;
	}
	qsort_r(s->by_id, p->n, sizeof(u32), cmp_idx_by_id, s->nodes);
	for (i = 0; i < p->n; i++)
		s->ids[i] = s->nodes[s->by_id[i]].id;
	s->id_lo = s->ids[0];

	/* every option as given; suppress only where it applies */
	cfg = p->cfg;
	cfg.suppress_off = false;
	cfg.group = 1;
	cfg.algo = p->ops->algo;
	s->ring = elec_algo_is_ring(p->ops->algo);
	s->inv = p->ops->algo == ELEC_ALGO_INVITATION;
	if (s->ring) {
		cfg.suppress_off = p->cfg.suppress_off;
		s->q_cap = ring_queue_cap(p);
		s->qmem_len = (size_t)s->q_cap * p->n;
		s->qmem = mmap(NULL, s->qmem_len, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
			       -1, 0);
		if (s->qmem == MAP_FAILED) {
			s->qmem = NULL;
			return -1;
		}
	}
	/* every node's peer table, N - 1 entries each (4.8 GB at N = 10,000) */
	s->peer_mem_len = (size_t)p->n * (p->n - 1) * sizeof(struct elec_peer);
	if (s->peer_mem_len) {
		s->peer_mem = sim_map(s->peer_mem_len, 0);
		if (!s->peer_mem)
			return -1;
	}
	if (p->auth && p->n > 1) {
		s->auth_rx = calloc((size_t)p->n * (p->n - 1),
				    sizeof(*s->auth_rx));
		s->auth_sent = calloc(SIM_AUTH_SENT, sizeof(*s->auth_sent));
		if (!s->auth_rx || !s->auth_sent)
			return -1;
	}
	/* the peers' estimates, only for a configuration that uses them */
	if (elec_config_needs_est(&cfg) && p->n > 1) {
		s->est = calloc((size_t)p->n * (p->n - 1), sizeof(*s->est));
		if (!s->est)
			return -1;
	}
	s->cfg = cfg;
	if (sim_init_all(s))
		return -1;
	s->live = p->n;
	net_init(&s->net, p, p->n);
	rng_seed(&s->srng, p->seed ^ 0x5ce7a410c0ffee11ULL);
	/* with --json the trace goes to stderr: stdout stays JSON Lines */
	s->trace = p->trace ? (p->json ? stderr : stdout) : NULL;
	if (p->timeline && out_timeline_open(s, p->timeline))
		return -1;
	return 0;
}

void sim_free(struct sim *s)
{
	u32 i;

	out_timeline_close(s);
	if (s->peer_mem)
		munmap(s->peer_mem, s->peer_mem_len);
	if (s->nodes)
		munmap(s->nodes, s->nodes_len);
	free(s->alive_sent);
	free(s->auth_rx);
	free(s->auth_sent);
	free(s->est);
	free(s->hb_sent);
	free(s->hb_due);
	free(s->hb_due_term);
	free(s->by_id);
	free(s->ids);
	free(s->heap);
	free(s->greet);
	for (i = 0; i < SIM_LANES; i++)
		free(s->lane[i].buf);
	net_free(&s->net);
	pool_free_all(&s->pool);
	if (s->qmem)
		munmap(s->qmem, s->qmem_len);
}

u64 sim_wall_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (u64)ts.tv_sec * 1000000000ULL + (u64)ts.tv_nsec;
}

void sim_start_counting(struct sim *s)
{
	u32 i;

	if (s->p->timing)
		s->wall_counting = sim_wall_ns();
	memset(s->tx, 0, sizeof(s->tx));
	memset(s->dtx, 0, sizeof(s->dtx));
	s->qfull0 = 0;
	for (i = 0; i < s->n; i++)
		s->qfull0 += s->nodes[i].core.stats.drops[ELEC_DROP_QUEUE_FULL];
	s->q_max = 0;
	s->counting = 1;
	s->dual_ns = 0;
	s->dual_max_ns = 0;
	if (s->n_lead >= 2)
		s->dual_since = s->now;
	s->term0 = sim_max_term(s);
	s->lc0 = 0;
	s->el0 = 0;
	for (i = 0; i < s->n; i++) {
		s->lc0 += s->nodes[i].core.stats.leader_changes;
		s->el0 += s->nodes[i].core.stats.elections;
	}
	s->t_trigger = s->now;
	s->t_decide = s->now;
	s->events = 0;
}

void sim_crash(struct sim *s, struct node *nd)
{
	if (!nd->up)
		return;
	if (s->trace)
		out_trace(s, "%u crash", nd->id);
	nd->up = 0;
	s->live--;
	sim_dual_set(s, nd, 0);
	if (nd->busy) {
		nd->busy = 0;
		s->busy--;
	}
	s->dirty = 1;
}

void sim_recover(struct sim *s, struct node *nd)
{
	if (nd->up)
		return;
	if (s->trace)
		out_trace(s, "%u recover", nd->id);
	nd->up = 1;
	nd->passive = 0;
	s->live++;
	/* a crash loses the running state: stop (silent), then start */
	elec_core_stop(&nd->core, s->now);
	elec_core_start(&nd->core, s->now);
	sim_node_end(nd);
}

/*
 * Quiescent: no election traffic in flight, nobody in an election or
 * without a leader, and every live node follows the same live leader,
 * which leads. Ring algorithms: with the leader's current term, too (a
 * node the ring skipped, e.g. back from a crash its predecessor saw,
 * learns a re-elected leader's term only from its heartbeats, and until
 * then its failure detector still times the old one).
 */
int sim_background(const struct sim *s, u8 type)
{
	return type == ELEC_MSG_HEARTBEAT || type == ELEC_MSG_ALIVE ||
	       (s->inv && (type == ELEC_MSG_ARE_YOU_COORD ||
			   type == ELEC_MSG_AYC_REPLY));
}

/* the component of node index @i: its partition side (0 without one) */
static u8 sim_side(const struct sim *s, u32 i)
{
	return s->net.side ? s->net.side[i] : 0;
}

/*
 * How long after its timer a heartbeat may arrive: the largest latency,
 * and with --jitter the timer's and the frame's lateness, each up to the
 * bound.
 */
static u64 sim_hb_late_max(const struct sim *s)
{
	return s->net.lat_hi +
	       (s->p->jitter_p > 0 ? 2 * s->p->jitter_max_ns : 0);
}

/*
 * Invitation: every connected component of live nodes (a partition side)
 * is one group: every node in it has the group number of the component's
 * highest id not in standby, which coordinates, and counts exactly the
 * component's live nodes as members (the members: from the coordinator's
 * latest READY, its version); the others (standby ones too) are members;
 * nobody is between groups. A component whose live nodes are all in
 * standby has no group: every node in it is between groups, no leader.
 */
int sim_inv_grouped(struct sim *s, u32 *comps)
{
	u32 i, k, n_comps = 0;
	u8 side;

	for (side = 0; side < 2; side++) {
		struct node *top = NULL;

		for (k = s->n; k-- > 0;) {
			struct node *nd = &s->nodes[s->by_id[k]];

			if (nd->up && sim_side(s, nd->idx) == side) {
				if (!top)
					n_comps++;
				top = nd;
				if (!sim_node_standby(nd))
					break;
			}
		}
		if (top && sim_node_standby(top))
			top = NULL;
		for (i = 0; i < s->n; i++) {
			struct node *nd = &s->nodes[i];
			const struct elec_core *c = &nd->core;

			if (!nd->up || sim_side(s, i) != side)
				continue;
			if (!top) {
				if (c->inv.coord || c->leader ||
				    c->phase != ELEC_INV_MEMBER)
					return 0;
				continue;
			}
			if (c->inv.coord != top->id ||
			    c->inv.seq != top->core.inv.seq ||
			    (nd != top && c->inv.mver != top->core.inv.mver) ||
			    c->leader != top->id ||
			    c->phase != (nd == top ? ELEC_INV_COORD :
					 ELEC_INV_MEMBER))
				return 0;
			/*
			 * A member whose window would run out before the
			 * coordinator's next heartbeat arrives (it missed
			 * some across a partition just healed) is about to
			 * leave: not quiescent yet.
			 */
			if (nd != top &&
			    c->timer_expires[ELEC_TIMER_DETECT] <=
			    top->core.timer_expires[ELEC_TIMER_HEARTBEAT] +
			    sim_hb_late_max(s))
				return 0;
			/* its members: exactly the live nodes of its side */
			for (k = 0; k < c->n_peers; k++) {
				const struct elec_peer *pe = &c->peers[k];
				struct node *o = sim_node_by_id(s, pe->id);
				int want = o && o->up &&
					   sim_side(s, o->idx) == side;

				if (!!(pe->flags & ELEC_INV_PEER_MEMBER) !=
				    want)
					return 0;
				/*
				 * A member one missed search away from
				 * being dropped (its answers lost across a
				 * partition just healed: the window open
				 * now may miss it too) is about to leave:
				 * not quiescent yet.
				 */
				if (nd == top && want &&
				    pe->misses + 1U >= c->cfg.hb_miss)
					return 0;
			}
		}
	}
	if (comps)
		*comps = n_comps;
	return 1;
}

/*
 * Quorum on: whether @nd will hear a majority within the lease at @t
 * (elec_quorum_may_run()), the live nodes of its side heard by then
 * (they beacon each hb-interval) and the ALIVE in flight to it counted.
 */
static int sim_quorum_may_run(struct sim *s, struct node *nd, u64 t)
{
	const struct elec_core *c = &nd->core;
	u64 lease = elec_quorum_lease_ns(c);
	u32 k, heard = 0;

	for (k = 0; k < c->n_peers; k++) {
		struct node *o = sim_node_by_id(s, c->peers[k].id);
		u64 h = c->peers[k].heard_ns;

		/* an ALIVE in flight (its sender may have crashed since) */
		if (o && s->alive_sent[(u64)o->idx * s->n + nd->idx] > h)
			h = s->alive_sent[(u64)o->idx * s->n + nd->idx] +
			    s->net.lat_hi;
		if ((o && o->up && sim_side(s, o->idx) == sim_side(s, nd->idx)) ||
		    (h && h + lease > t))
			heard++;
	}
	return heard >= (c->n_peers + 1) / 2;
}

/*
 * Quorum on: whether a heartbeat is still in flight to @nd from another
 * node than @except: one was sent to it (not lost) and arrives after now
 * (frames overtake one another with a latency range: a later frame heard
 * from the sender does not mean this one arrived).
 */
static int sim_hb_in_flight(struct sim *s, struct node *nd, u32 except)
{
	const struct elec_core *c = &nd->core;
	u32 k;

	for (k = 0; k < c->n_peers; k++) {
		struct node *o = sim_node_by_id(s, c->peers[k].id);

		if (!o || o->id == except)
			continue;
		if (s->hb_due[(u64)o->idx * s->n + nd->idx] > s->now)
			return 1;
	}
	return 0;
}

/*
 * Quorum on: per partition side, a side with a majority of the configured
 * nodes up follows one leader of its own (the best live id of the side,
 * preempt on), which holds the leader role; on any other side no node
 * leads, claims or follows a leader.
 */
static int sim_quorum_ok(struct sim *s)
{
	u8 side;
	u32 i;

	for (side = 0; side < 2; side++) {
		struct node *best = NULL, *ln = NULL;
		u32 live = 0, leader = 0;

		for (i = 0; i < s->n; i++) {
			struct node *nd = &s->nodes[i];

			if (!nd->up || sim_side(s, i) != side)
				continue;
			live++;
			/* (a node in standby may not lead) */
			if (!sim_node_standby(nd) &&
			    (!best || elec_algo_better(s->p->ops, nd->id,
						       best->id)))
				best = nd;
		}
		if (!live)
			continue;
		for (i = 0; i < s->n; i++) {
			struct node *nd = &s->nodes[i];

			if (!nd->up || sim_side(s, i) != side)
				continue;
			/* no majority, or every node of it in standby */
			if (2 * live <= s->n || !best) {
				u64 d = nd->core.timer_expires[ELEC_TIMER_DETECT];

				if (nd->core.leader ||
				    nd->core.role == ELEC_ROLE_LEADER)
					return 0;
				/*
				 * Frames of nodes gone from its side (crashed,
				 * or across the split) still count as heard
				 * for a lease: a run its detector begins by
				 * then is to come (a futile one).
				 */
				if (best && d && sim_quorum_may_run(s, nd, d))
					return 0;
				/*
				 * A heartbeat in flight to it (its sender may
				 * have crashed since): it will follow that
				 * leader, and a better node bully it.
				 */
				if (sim_hb_in_flight(s, nd, 0))
					return 0;
				continue;
			}
			if (!nd->core.leader ||
			    (leader && nd->core.leader != leader))
				return 0;
			/*
			 * A heartbeat of another node in flight to it (a
			 * claimant from across a split just healed, newer
			 * than its leader, that may have crashed since): it
			 * may follow that one.
			 */
			if (sim_hb_in_flight(s, nd, nd->core.leader))
				return 0;
			leader = nd->core.leader;
		}
		if (2 * live <= s->n || !best)
			continue;
		ln = sim_node_by_id(s, leader);
		if (!ln || !ln->up || sim_side(s, ln->idx) != side ||
		    ln->core.role != ELEC_ROLE_LEADER ||
		    (!s->p->cfg.preempt_off && ln != best))
			return 0;
		/*
		 * A leader that may not count itself yet (it started, or
		 * named another leader, a promise window ago or less) may
		 * lose its majority when a peer's naming runs out before
		 * it can: judged once it counts.
		 */
		if (elec_quorum_self_bound(&ln->core) > s->now)
			return 0;
		/*
		 * The leader holds a naming of every other node of its side
		 * (or one is in flight to it), and the next one comes before
		 * it runs out: else (a promise binding the node elsewhere,
		 * namings lost across a partition just healed) the leader
		 * may be about to step down.
		 */
		for (i = 0; i < s->n; i++) {
			struct node *nd = &s->nodes[i];
			const struct elec_quorum *q = &nd->core.bully.q;

			const struct elec_peer *pe, *ln_pe;
			u64 last, next, heard, hb;

			if (!nd->up || nd == ln || sim_side(s, i) != side)
				continue;
			/*
			 * A follower whose window runs out before the
			 * leader's next heartbeat arrives (a third party
			 * named the leader again, which does not restart
			 * it) is about to suspect it: not quiescent yet.
			 * Judged against the leader's next heartbeat, late by
			 * the largest latency and jitter; with the adaptive
			 * detector, whose window may be shorter than two
			 * intervals and that, against the one in flight to it
			 * if there is one (its arrival is scheduled) and the
			 * follower will take it: a heartbeat sent before the
			 * leader learnt the follower's term is stale there
			 * and re-arms nothing (enh-bully quorum partitions,
			 * seed 748078426).
			 */
			hb = ln->core.timer_expires[ELEC_TIMER_HEARTBEAT] +
			     sim_hb_late_max(s);
			if (nd->core.cfg.detector == ELECTION_DETECTOR_ADAPTIVE &&
			    s->hb_due[(u64)ln->idx * s->n + i] > s->now &&
			    s->hb_due_term[(u64)ln->idx * s->n + i] >=
			    nd->core.term)
				hb = s->hb_due[(u64)ln->idx * s->n + i];
			if (nd->core.timer_expires[ELEC_TIMER_DETECT] <= hb)
				return 0;
			/*
			 * A follower at a newer term than the leader's (a
			 * third party's announcement the leader missed
			 * across a split) drops its heartbeats as stale.
			 */
			if (nd->core.term != ln->core.term)
				return 0;
			/* its latest naming the leader has, or one in flight */
			next = nd->core.timer_expires[ELEC_BULLY_TIMER_ALIVE];
			ln_pe = elec_core_peer_find(&nd->core, ln->id);
			pe = elec_core_peer_find(&ln->core, nd->id);
			last = pe ? pe->support_ns : 0;
			if (q->named == ln->id && q->named_ns > last &&
			    s->alive_sent[(u64)i * s->n + ln->idx] ==
			    q->named_ns) {
				/*
				 * A naming in flight counts from its arrival
				 * (up to the largest latency away): the one
				 * the leader holds must last until then, else
				 * its majority may lapse in between.
				 */
				if (!last || last + elec_quorum_lease_ns(&ln->core) <=
				    q->named_ns + s->net.lat_hi)
					return 0;
				last = q->named_ns;
			}
			if (q->named != ln->id ||
			    !last || last + elec_quorum_lease_ns(&nd->core) <=
			    next + s->net.lat_hi)
				return 0;
			/*
			 * ... and it will still name the leader then: it
			 * heard it lately enough, or hears its heartbeat
			 * before (a heartbeat lost across a partition just
			 * healed leaves a gap).
			 */
			heard = nd->core.leader_rx_ns;
			if (ln_pe && ln_pe->heard_ns > heard)
				heard = ln_pe->heard_ns;
			hb = ln->core.timer_expires[ELEC_TIMER_HEARTBEAT];
			if (s->hb_sent[(u64)ln->idx * s->n + i] > heard)
				hb = s->hb_sent[(u64)ln->idx * s->n + i];
			if (heard + elec_quorum_fresh_ns(&nd->core) < next &&
			    hb + s->net.lat_hi >= next)
				return 0;
		}
	}
	return 1;
}

/* no live node leads, claims or follows a leader */
static int sim_none_leads(struct sim *s)
{
	u32 i;

	for (i = 0; i < s->n; i++) {
		const struct elec_core *c = &s->nodes[i].core;

		if (s->nodes[i].up &&
		    (c->leader || c->role == ELEC_ROLE_LEADER ||
		     c->role == ELEC_ROLE_CANDIDATE))
			return 0;
	}
	return 1;
}

int sim_stable(struct sim *s)
{
	u32 i, leader = 0;
	struct node *ln;

	if (s->inflight || s->busy)
		return 0;
	if (s->inv)
		return sim_inv_grouped(s, NULL);
	if (s->p->cfg.quorum)
		return sim_quorum_ok(s);
	/* every live node in standby: none leads, none follows */
	if (!sim_best_cand(s))
		return sim_none_leads(s);
	for (i = 0; i < s->n; i++) {
		struct node *nd = &s->nodes[i];

		if (!nd->up)
			continue;
		/* every live node follows a leader, the same one */
		if (!nd->core.leader)
			return 0;
		if (!leader)
			leader = nd->core.leader;
		else if (nd->core.leader != leader)
			return 0;
	}
	ln = leader ? sim_node_by_id(s, leader) : NULL;
	if (!ln || !ln->up || ln->core.role != ELEC_ROLE_LEADER ||
	    sim_node_standby(ln))
		return 0;
	if (s->ring)
		for (i = 0; i < s->n; i++)
			if (s->nodes[i].up &&
			    s->nodes[i].core.term != ln->core.term)
				return 0;
	return 1;
}

/* the frame @e to its node (sim_deliver() without the in-flight count) */
static void sim_deliver_frame(struct sim *s, const struct ev *e)
{
	struct node *nd = &s->nodes[e->dst];
	u8 payload[ELECTION_MAX_PAYLOAD];
	struct elec_msg m;

	memset(&m, 0, sizeof(m));
	m.type = EV_MTYPE(e);
	if (EV_TYPE(e) & EV_LEAVING)
		m.flags = ELECTION_FLAG_LEAVING;
	m.algo = nd->core.cfg.algo;
	m.group = nd->core.cfg.group;
	m.src = e->src;
	if (EV_KIND(e) == EV_PMSG) {
		/* copied out: the core's sends may grow (move) the pool */
		m.payload_len = pool_take(&s->pool, e->src, &m.src, payload);
		m.payload = payload;
	} else if (EV_KIND(e) == EV_ZMSG) {
		memset(payload, 0, ELECTION_RING_HOP_LEN);
		m.payload_len = ELECTION_RING_HOP_LEN;
		m.payload = payload;
	}
	m.dst = m.type == ELEC_MSG_HEARTBEAT ? 0 : nd->id;
	m.term = e->term;
	/*
	 * --auth on: the frame's counter, the one the sender's core wrote
	 * (elec_auth_next_ctr()), kept by the delivery's sequence number
	 */
	if (s->auth_sent) {
		u64 seq = e->key >> EV_SEQ_SHIFT;
		const struct sim_auth_sent *a =
			&s->auth_sent[seq & (SIM_AUTH_SENT - 1)];

		if (a->seq != seq) {
			fprintf(stderr, "electsim: --auth: more than %u events "
				"between a frame's sending and its delivery\n",
				SIM_AUTH_SENT);
			exit(3);
		}
		m.flags |= ELECTION_FLAG_AUTH;
		m.auth_ctr = a->ctr;
	}
	if (!nd->up) {
		if (s->trace)
			out_trace(s, "%u lost %s src=%u (down)", nd->id,
				  out_msg_name(m.type), m.src);
		return;
	}
	nd->passive = 0;
	if (s->trace) {
		char pl[160];

		out_payload(pl, sizeof(pl), m.algo, m.type, m.payload,
			    m.payload_len);
		out_trace(s, "%u recv %s src=%u term=%llu%s%s", nd->id,
			  out_msg_name(m.type), m.src,
			  (unsigned long long)m.term, pl,
			  m.flags & ELECTION_FLAG_LEAVING ? " leaving" : "");
	}
	elec_core_rx(&nd->core, &m, s->now);
	sim_node_end(nd);
}

static void sim_deliver(struct sim *s, const struct ev *e)
{
	if (EV_MTYPE(e) != ELEC_MSG_HEARTBEAT && EV_MTYPE(e) != ELEC_MSG_ALIVE)
		s->inflight--;
	sim_deliver_frame(s, e);
}

static void sim_timer(struct sim *s, const struct ev *e)
{
	struct node *nd = &s->nodes[e->dst];
	u8 id = EV_TYPE(e);

	if (!nd->up || id >= ELEC_TIMER_COUNT ||
	    nd->core.timer_expires[id] != e->term)
		return;	/* crashed, cancelled or re-armed: stale */
	/*
	 * --jitter: this expiry runs late (once: a late one has a time
	 * past its armed expiry); the core sees how late
	 */
	if (s->p->jitter_p > 0 && e->time == e->term &&
	    rng_unit(&s->net.rng) < s->p->jitter_p) {
		sim_push(s, e->time + rng_range(&s->net.rng, 1,
						s->p->jitter_max_ns),
			 EV_TIMER, id, e->dst, 0, e->term);
		return;
	}
	if (nd->passive && id == ELEC_TIMER_DETECT) {
		if (s->trace)
			out_trace(s, "%u timer detect suppressed (passive)",
				  nd->id);
		return;
	}
	if (s->trace)
		out_trace(s, "%u timer %s", nd->id,
			  elec_timer_name(nd->core.ops, id));
	elec_core_timer(&nd->core, id, s->now);
	sim_node_end(nd);
}

#define PF_AHEAD 8

/* the event @ahead places behind the head of lane @l: 0 if none */
static inline const struct ev *lane_ahead(struct lane *l, u32 ahead,
					  u32 *dst, u32 *src)
{
	size_t k;

	for (k = 0; k < l->count && k <= ahead; k++) {
		const struct ev *e = lane_at(l, k);
		u32 run = EV_RUN(e) + 1;

		if (ahead < run) {
			ev_run_at(e, ahead, dst, src);
			return e;
		}
		ahead -= run;
	}
	return NULL;
}

/* the entry of @id in the peer table of node index @dst, roughly */
static inline __attribute__((always_inline)) void
prefetch_peer(const struct sim *s, u32 dst, u32 id)
{
	const struct elec_peer *t = s->peer_mem + (size_t)(s->n - 1) * dst;
	u32 g = id - s->id_lo;

	/*
	 * with ids 1..N in order (node index = rank), the entry of @id: its
	 * rank, less one above the node's own
	 */
	if (g > dst)
		g--;
	if (g < s->n - 1) {
		__builtin_prefetch(&t[g]);
		__builtin_prefetch(&t[g].heard_ns);
	}
}

/*
 * The rings' greetings (an ACK of hop number 0: elec_ring_start()) are
 * the only frames whose delivery never makes the receiver send a frame
 * or arm a timer: hop numbers start at 1, so the ACK acknowledges
 * nothing (ring_rx_ack()), and the rest is the receiver's own state (the
 * sender alive, max_term, counters). A ring of N nodes that starts at
 * one instant has N x (N - 1) of them arriving at one later instant, in
 * the order of their keys: one sender's to every node, then the next
 * sender's. Taken in that order each delivery reads another node's state
 * and peer table (at N = 10,000: 18.5 MB of nodes, 4.8 GB of tables),
 * nearly every one a cache miss. Without a trace (whose lines would come
 * in another order), the greetings taken at one instant are kept as runs
 * and delivered when that instant's last one has been taken, receiver by
 * receiver: every node gets the same frames in the same order as before,
 * no event is pushed in between (checked: the sequence number does not
 * move), so the run is the same, only faster.
 */
static int sim_greet_defers(const struct sim *s, const struct ev *e)
{
	/*
	 * with a random latency the greetings arrive at instants of their
	 * own: nothing to gain (and the deliveries' prefetch to lose)
	 */
	return s->ring && !s->trace && EV_KIND(e) == EV_ZMSG &&
	       EV_TYPE(e) == ELEC_MSG_ACK &&
	       s->net.lat_lo == s->net.lat_hi;
}

/*
 * The events a few places behind the head of the lane the last one came
 * from are most likely due soon: what they will read is fetched into the
 * cache while the events before them run. At N = 10,000 nearly every
 * delivery goes to another node, whose state is not in the cache. The
 * event PF_AHEAD places on: its node's state, and the entry of its sender
 * in the node's peer table (a payload's slot in the pool, for the sender
 * and the id at the start of the ring payloads, which the event half as
 * far on takes from there). Only hints: the order of events and
 * everything they do are unchanged. (Inlined by force: a function of
 * prefetches alone counts as pure, and GCC drops calls of pure functions
 * whose result is unused.)
 */
static inline __attribute__((always_inline)) void
sim_prefetch(struct sim *s, struct lane *l)
{
	const struct ev *e;
	u32 dst, src;
	const char *c;

	e = lane_ahead(l, PF_AHEAD, &dst, &src);
	if (!e || sim_greet_defers(s, e))
		return;
	c = (const char *)&s->nodes[dst].core;
	__builtin_prefetch(&s->nodes[dst]);
	__builtin_prefetch(c);
	__builtin_prefetch(c + 64);
	__builtin_prefetch(c + 128);
	__builtin_prefetch(c + 192);
	__builtin_prefetch(&s->nodes[dst].core.stats.rx[EV_MTYPE(e)]);
	if (!s->peer_mem || EV_KIND(e) == EV_TIMER)
		return;
	if (EV_KIND(e) != EV_PMSG) {
		prefetch_peer(s, dst, src);
		return;
	}
	__builtin_prefetch(pool_slot(&s->pool, src));
	__builtin_prefetch(pool_slot(&s->pool, src) + POOL_SLOT_HDR + 8);
	e = lane_ahead(l, PF_AHEAD / 2, &dst, &src);
	if (e && EV_KIND(e) == EV_PMSG) {
		const u8 *slot = pool_slot(&s->pool, src);
		u32 from, id;
		u16 len;

		memcpy(&from, slot, sizeof(from));
		memcpy(&len, slot + 4, sizeof(len));
		prefetch_peer(s, dst, from);
		if (len >= ELECTION_RING_HOP_LEN + 4) {
			id = elec_get32(slot + POOL_SLOT_HDR +
					ELECTION_RING_HOP_LEN);
			prefetch_peer(s, dst, id);
		}
	}
}

/* greetings (@key: the first one's) to node indices @dst0 on, @len of them */
static void sim_greet_defer(struct sim *s, u64 key, u64 term, u32 src,
			    u32 dst0, u32 len)
{
	struct greet_run *g = s->greet_n ? &s->greet[s->greet_n - 1] : NULL;

	if (g && g->src == src && g->term == term &&
	    dst0 == g->dst0 + g->len &&
	    key == g->key + ((u64)g->len << EV_SEQ_SHIFT)) {
		g->len += len;
		return;
	}
	if (s->greet_n == s->greet_cap) {
		s->greet_cap = s->greet_cap ? 2 * s->greet_cap : 256;
		s->greet = xrealloc(s->greet,
				    s->greet_cap * sizeof(*s->greet));
	}
	g = &s->greet[s->greet_n++];
	g->key = key;
	g->term = term;
	g->src = src;
	g->dst0 = dst0;
	g->len = len;
}

/*
 * The greeting @e was taken from the queue: keep it, and the rest of its
 * run at once (the lane entry's next events, to the next node indices)
 */
static void sim_greet_take(struct sim *s, const struct ev *e)
{
	sim_greet_defer(s, e->key, e->term, e->src, e->dst, 1);
	if (s->in_run) {
		struct lane *l = s->last_lane;
		struct ev *h = lane_at(l, 0);
		u32 rest = EV_RUN(h) + 1;

		if (h->dst & EV_RUN_SRC)
			return;	/* by source: one at a time */
		sim_greet_defer(s, h->key, h->term, h->src, EV_DST(h), rest);
		s->events += rest;
		l->head = (l->head + 1) & (l->cap - 1);
		l->count--;
		s->in_run = 0;
	}
}

#define GREET_NIL ((u32)-1)

/*
 * The kept greetings, arranged for delivery receiver by receiver (built
 * by sim_greet_flush): the node indices @lo to @hi - 1 they go to, and
 * the runs that begin at each of them, in key order: @start[d - @lo] to
 * @start[d - @lo + 1] - 1 index @order.
 */
struct sim_greet_plan {
	u32 lo, hi;
	u32 *start;	/* hi - lo + 1 */
	u32 *order;	/* one per run */
};

struct sim_greet_part {
	struct sim *s;
	const struct sim_greet_plan *plan;
	u32 lo, hi;	/* the receivers of this part */
	u64 n;		/* greetings delivered */
	u32 *next;	/* the runs active at a receiver: a list in key order */
	int started;
	pthread_t thread;
};

/*
 * The greetings to the receivers of @part, each receiver's in key order:
 * a sweep over the receivers with the runs that cover the current one in
 * a list kept in key order (runs join it where they begin, merged in, and
 * leave it after their last receiver), so the cost is the deliveries plus
 * the runs plus the receivers, however the runs are cut.
 */
static void *sim_greet_part_run(void *arg)
{
	struct sim_greet_part *part = arg;
	const struct sim_greet_plan *plan = part->plan;
	struct sim *s = part->s;
	u32 *next = part->next, head = GREET_NIL, *pp, r, d;
	struct ev e;
	size_t i;

	/* the runs begun before this part that reach into it */
	pp = &head;
	for (i = 0; i < s->greet_n; i++) {
		const struct greet_run *g = &s->greet[i];

		if (g->dst0 < part->lo && g->dst0 + g->len > part->lo) {
			*pp = (u32)i;
			pp = &next[i];
		}
	}
	*pp = GREET_NIL;

	e.time = s->now;
	for (d = part->lo; d < part->hi; d++) {
		u32 b = plan->start[d - plan->lo], bend, prev;

		if (head == GREET_NIL) {
			/* nothing until the next receiver a run begins at */
			if (b == plan->start[part->hi - plan->lo])
				break;
			d = s->greet[plan->order[b]].dst0;
		}
		bend = plan->start[d - plan->lo + 1];

		/* the runs that begin here join the list, in key order */
		pp = &head;
		for (; b < bend; b++) {
			r = plan->order[b];
			while (*pp != GREET_NIL && *pp < r)
				pp = &next[*pp];
			next[r] = *pp;
			*pp = r;
			pp = &next[r];
		}
		if (head == GREET_NIL)
			continue;
		if (d + 1 < part->hi) {
			const char *c = (const char *)&s->nodes[d + 1].core;

			__builtin_prefetch(c);
			__builtin_prefetch(c + 64);
			__builtin_prefetch(c + 128);
			__builtin_prefetch(c + 192);
		}
		prev = GREET_NIL;
		for (r = head; r != GREET_NIL; r = next[r]) {
			const struct greet_run *g = &s->greet[r];

			e.key = g->key + ((u64)(d - g->dst0) << EV_SEQ_SHIFT);
			e.term = g->term;
			e.dst = d;
			e.src = g->src;
			sim_deliver_frame(s, &e);
			part->n++;
			if (d + 1 == g->dst0 + g->len) {
				/* its last receiver: it leaves the list */
				if (prev == GREET_NIL)
					head = next[r];
				else
					next[prev] = next[r];
			} else {
				prev = r;
			}
		}
	}
	return NULL;
}

/* what a greeting's delivery must leave alone (checked after them) */
struct sim_greet_mark {
	u64 seq, t_decide, inflight;
	u32 busy, n_lead, q_max;
};

static void sim_greet_mark(const struct sim *s, struct sim_greet_mark *m)
{
	memset(m, 0, sizeof(*m));
	m->seq = s->seq;
	m->t_decide = s->t_decide;
	m->inflight = s->inflight;
	m->busy = s->busy;
	m->n_lead = s->n_lead;
	m->q_max = s->q_max;
}

static void *sim_greet_alloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size);

	if (!p) {
		fprintf(stderr, "electsim: out of memory\n");
		exit(3);
	}
	return p;
}

/*
 * A few runs (random latency puts nearly every greeting at an instant of
 * its own): merged by receiver, the lowest key first among equal ones,
 * without the plan's arrays, whose size is the span of receivers.
 */
static void sim_greet_few(struct sim *s)
{
	u32 at[SIM_GREET_FEW], i, best;
	u64 seq = s->seq;
	struct ev e;

	memset(at, 0, sizeof(at));
	e.time = s->now;
	for (;;) {
		best = GREET_NIL;
		for (i = 0; i < s->greet_n; i++) {
			const struct greet_run *g = &s->greet[i];

			if (at[i] < g->len && (best == GREET_NIL ||
					       g->dst0 + at[i] <
					       s->greet[best].dst0 + at[best]))
				best = i;
		}
		if (best == GREET_NIL)
			break;
		e.key = s->greet[best].key +
			((u64)at[best] << EV_SEQ_SHIFT);
		e.term = s->greet[best].term;
		e.src = s->greet[best].src;
		e.dst = s->greet[best].dst0 + at[best]++;
		sim_deliver(s, &e);
	}
	s->greet_n = 0;
	if (s->seq != seq) {
		fprintf(stderr, "electsim: internal error: a greeting's delivery queued an event\n");
		exit(3);
	}
}

/*
 * Delivers the kept greetings, receiver by receiver. A greeting's
 * delivery changes the receiving node alone (see above), so a large batch
 * (at N = 10,000: 10^8 of them) is split between threads by receiver,
 * each node's frames still in their order: the same state as one thread
 * makes. The one thing the simulator keeps for all nodes that a delivery
 * may still move is the queue's high-water mark (sim_node_end() raises
 * it to a receiver's queue length, which a greeting leaves as it is, so
 * a mark reset when counting started may lag): it is raised here first,
 * to each receiver's, as the deliveries would. Then what it keeps for
 * all nodes (the queue's sequence number and high-water mark, the counts
 * of busy and leading nodes, the time of the last decision, the frames
 * in flight) must not move: checked, an internal error otherwise.
 */
static void sim_greet_flush(struct sim *s)
{
	struct sim_greet_part part[SIM_INIT_THREADS];
	struct sim_greet_mark before, after;
	struct sim_greet_plan plan;
	u64 total = 0, n = 0;
	u32 parts = 1, i, range, d;
	int32_t *cover;
	int32_t c = 0;
	size_t r;

	if (s->greet_n <= SIM_GREET_FEW) {
		sim_greet_few(s);
		return;
	}
	plan.lo = s->n;
	plan.hi = 0;
	for (r = 0; r < s->greet_n; r++) {
		const struct greet_run *g = &s->greet[r];

		total += g->len;
		if (g->dst0 < plan.lo)
			plan.lo = g->dst0;
		if (g->dst0 + g->len > plan.hi)
			plan.hi = g->dst0 + g->len;
	}
	range = plan.hi - plan.lo;
	/* the runs by the receiver they begin at (a counting sort) */
	plan.start = sim_greet_alloc((size_t)range + 1, sizeof(u32));
	plan.order = sim_greet_alloc(s->greet_n, sizeof(u32));
	cover = sim_greet_alloc((size_t)range + 1, sizeof(*cover));
	for (r = 0; r < s->greet_n; r++) {
		const struct greet_run *g = &s->greet[r];

		plan.start[g->dst0 - plan.lo + 1]++;
		cover[g->dst0 - plan.lo]++;
		cover[g->dst0 + g->len - plan.lo]--;
	}
	for (d = 0; d < range; d++)
		plan.start[d + 1] += plan.start[d];
	for (r = 0; r < s->greet_n; r++) {
		u32 k = s->greet[r].dst0 - plan.lo;

		plan.order[plan.start[k]++] = (u32)r;
	}
	for (d = range; d > 0; d--)
		plan.start[d] = plan.start[d - 1];
	plan.start[0] = 0;
	/* the high-water mark, as the deliveries to live receivers raise it */
	for (d = 0; d < range; d++) {
		const struct node *nd = &s->nodes[plan.lo + d];

		c += cover[d];
		if (c > 0 && nd->up && nd->core.ring.q_len > s->q_max)
			s->q_max = nd->core.ring.q_len;
	}
	free(cover);

	if (total >= SIM_GREET_PARALLEL_MIN) {
		long cpus = sysconf(_SC_NPROCESSORS_ONLN);

		if (cpus > 1)
			parts = cpus < SIM_INIT_THREADS ? (u32)cpus :
			       SIM_INIT_THREADS;
	}
	sim_greet_mark(s, &before);
	for (i = 0; i < parts; i++) {
		part[i].s = s;
		part[i].plan = &plan;
		part[i].lo = plan.lo + (u32)((u64)range * i / parts);
		part[i].hi = plan.lo + (u32)((u64)range * (i + 1) / parts);
		part[i].n = 0;
		part[i].next = sim_greet_alloc(s->greet_n, sizeof(u32));
		part[i].started = i && !pthread_create(&part[i].thread, NULL,
						       sim_greet_part_run,
						       &part[i]);
	}
	sim_greet_part_run(&part[0]);
	for (i = 1; i < parts; i++) {
		if (part[i].started)
			pthread_join(part[i].thread, NULL);
		else
			sim_greet_part_run(&part[i]);
	}
	for (i = 0; i < parts; i++) {
		n += part[i].n;
		free(part[i].next);
	}
	free(plan.start);
	free(plan.order);
	s->greet_n = 0;
	sim_greet_mark(s, &after);
	if (n != total || memcmp(&before, &after, sizeof(before))) {
		fprintf(stderr, "electsim: internal error: a greeting's delivery changed more than its node (delivered %llu of %llu; sequence %llu -> %llu, queue high-water %u -> %u, busy %u -> %u, leading %u -> %u)\n",
			(unsigned long long)n, (unsigned long long)total,
			(unsigned long long)before.seq,
			(unsigned long long)after.seq, before.q_max,
			after.q_max, before.busy, after.busy, before.n_lead,
			after.n_lead);
		exit(3);
	}
	s->inflight -= n;
}

void sim_run(struct sim *s, u64 deadline)
{
	struct ev e;

	for (;;) {
		/* the instant's greetings, once it has no more events */
		if (s->greet_n && sim_peek_time(s) != s->now)
			sim_greet_flush(s);
		/*
		 * Quiescence is judged between instants: not while more
		 * events (a timer armed for now) are due at this one.
		 */
		if (!s->no_stop && !s->pending_faults && s->dirty &&
		    !s->inflight &&
		    !s->busy && sim_peek_time(s) > s->now) {
			s->dirty = 0;
			if (sim_stable(s))
				return;
		}
		if (sim_peek_time(s) > deadline || !sim_pop(s, &e))
			break;
		if (s->last_lane)
			sim_prefetch(s, s->last_lane);
		s->now = e.time;
		s->events++;
		/*
		 * --rx-cost: a timer that waits for a frame steps after the
		 * frames that came before its expiry (the module hands its
		 * step to the hrtimer softirq, after the receive softirq:
		 * timer_waits_soft), taking no turn itself
		 */
		if (s->p->rx_cost_ns && EV_KIND(&e) == EV_TIMER &&
		    s->cpu_free > e.time &&
		    elec_timer_awaits_rx(s->p->ops, EV_TYPE(&e))) {
			sim_push(s, s->cpu_free, EV_KIND(&e), EV_TYPE(&e),
				 EV_DST(&e), e.src, e.term);
			continue;
		}
		if (s->p->rx_cost_ns && EV_KIND(&e) <= EV_ZMSG &&
		    EV_KIND(&e) != EV_TIMER) {
			/*
			 * --rx-cost: frames take turns on one CPU, in the
			 * order they arrive; a frame that finds it busy
			 * waits (the other timers do not: the module's timer
			 * worker preempts the receive softirq)
			 */
			/*
			 * (the frame waits with a new sequence number: the
			 * order of frames that wait is their arrival order,
			 * which is why --auth on is refused with it; a frame
			 * to a node that is down takes its turn too)
			 */
			if (s->cpu_free > e.time) {
				sim_push(s, s->cpu_free, EV_KIND(&e), EV_TYPE(&e),
					 EV_DST(&e), e.src, e.term);
				continue;
			}
			s->cpu_free = e.time + s->p->rx_cost_ns;
		}
		if (sim_greet_defers(s, &e)) {
			sim_greet_take(s, &e);
			continue;
		}
		if (s->greet_n)
			sim_greet_flush(s);
		switch (EV_KIND(&e)) {
		case EV_MSG:
		case EV_PMSG:
		case EV_ZMSG:
			sim_deliver(s, &e);
			break;
		case EV_TIMER:
			sim_timer(s, &e);
			break;
		case EV_CRASH:
			s->pending_faults--;
			sim_crash(s, &s->nodes[e.dst]);
			break;
		case EV_RECOVER:
			s->pending_faults--;
			sim_recover(s, &s->nodes[e.dst]);
			break;
		case EV_SPLIT:
			s->pending_faults--;
			if (e.src)	/* scripted: item src - 1's mask */
				net_split_mask(s, s->p->schedule->items[e.src - 1].mask);
			else
				net_split(s, e.term);
			s->dirty = 1;
			break;
		case EV_HEAL:
			s->pending_faults--;
			net_heal(s);
			s->dirty = 1;
			break;
		case EV_STANDBY:
			s->pending_faults--;
			sim_standby(s, &s->nodes[e.dst], EV_TYPE(&e));
			break;
		}
	}
	if (s->greet_n)
		sim_greet_flush(s);
}

struct sim_ring_key {
	u32 pos, id, idx;
};

static int sim_ring_key_cmp(const void *a, const void *b)
{
	const struct sim_ring_key *x = a, *y = b;

	if (x->pos != y->pos)
		return x->pos < y->pos ? -1 : 1;
	return x->id < y->id ? -1 : x->id > y->id;
}

/*
 * Ring: the live nodes that their predecessor among the live nodes of
 * their side counts as failed. The next run would skip them (ring.c
 * revives a peer only on a frame from it).
 */
static u32 sim_ring_skipped(struct sim *s)
{
	struct sim_ring_key *k = calloc(s->n ? s->n : 1, sizeof(*k));
	u32 i, j, m, skipped = 0;
	u8 side;

	if (!k) {
		fprintf(stderr, "electsim: out of memory\n");
		exit(3);
	}
	for (side = 0; side < 2; side++) {
		for (i = 0, m = 0; i < s->n; i++) {
			struct node *nd = &s->nodes[i];

			if (!nd->up || !nd->core.running ||
			    sim_side(s, i) != side)
				continue;
			k[m].pos = elec_self_pos(&nd->core.cfg);
			k[m].id = nd->id;
			k[m++].idx = i;
		}
		if (m < 2)
			continue;
		qsort(k, m, sizeof(*k), sim_ring_key_cmp);
		for (i = 0; i < m; i++) {
			struct node *pr = &s->nodes[k[i].idx];
			const struct elec_peer *pe;

			j = i + 1 < m ? i + 1 : 0;
			pe = elec_core_peer_find(&pr->core, k[j].id);
			if (pe && !pe->alive)
				skipped++;
		}
	}
	free(k);
	return skipped;
}

void sim_result(struct sim *s, struct run_result *r)
{
	struct node *best;
	u32 i, leader = 0;
	int agreed = 1, t;

	memset(r, 0, sizeof(*r));
	for (i = 0; i < s->n; i++) {
		struct node *nd = &s->nodes[i];

		if (!nd->up)
			continue;
		r->live++;
		if (nd->id > r->highest_live)
			r->highest_live = nd->id;
		if (r->live == 1)
			leader = nd->core.leader;
		else if (nd->core.leader != leader)
			agreed = 0;
	}
	r->agreed = agreed && r->live;
	r->leader = r->agreed ? leader : 0;
	r->stable = sim_stable(s);
	/* the best live node that may lead: 0 when all are in standby */
	best = sim_best_cand(s);
	r->best_live = best ? best->id : 0;
	r->reused = s->reused;
	if (s->inv) {
		/* per component: one group under its highest id */
		r->e1_ok = sim_inv_grouped(s, &r->components) && !s->reused;
		if (r->components > 1)
			r->agreed = r->e1_ok;
	} else if (s->p->cfg.quorum) {
		/* per side: a majority's leader, or none */
		r->e1_ok = sim_quorum_ok(s);
	} else if (s->p->cfg.preempt_off) {
		/* every node follows the same live leader, whichever */
		struct node *ln = r->leader ? sim_node_by_id(s, r->leader) :
				  NULL;

		r->e1_ok = r->agreed && ((ln && ln->up &&
					   ln->core.role == ELEC_ROLE_LEADER &&
					   !sim_node_standby(ln)) ||
					  (!best && sim_none_leads(s)));
	} else {
		r->e1_ok = r->agreed && r->leader == r->best_live &&
			   (best || sim_none_leads(s));
	}
	sim_dual_now(s, &r->dual_ns, &r->dual_max_ns);
	r->terms = sim_max_term(s) - s->term0;
	for (i = 0; i < s->n; i++) {
		r->leader_changes += s->nodes[i].core.stats.leader_changes;
		r->elections += s->nodes[i].core.stats.elections;
		r->auth_replay +=
			s->nodes[i].core.stats.drops[ELEC_DROP_AUTH_REPLAY];
		r->auth_clock +=
			s->nodes[i].core.stats.drops[ELEC_DROP_AUTH_CLOCK];
	}
	r->leader_changes -= s->lc0;
	r->elections -= s->el0;
	for (t = 0; t <= ELEC_MSG_MAX; t++) {
		r->by_type[t] = s->tx[t];
		r->deliveries_by_type[t] = s->dtx[t];
		if (!sim_background(s, (u8)t)) {
			r->messages += s->tx[t];
			r->deliveries += s->dtx[t];
		}
	}
	for (i = 0; i < s->n; i++)
		r->queue_full +=
			s->nodes[i].core.stats.drops[ELEC_DROP_QUEUE_FULL];
	r->queue_full -= s->qfull0;
	if (s->ring)
		r->ring_skipped = sim_ring_skipped(s);
	r->queue_max = s->q_max;
	r->elapsed_ns = s->t_decide - s->t_trigger;
	r->end_ns = s->now;
	r->events = s->events;
}
