// SPDX-License-Identifier: GPL-2.0
/*
 * What the three ring elections share: the ring order, acknowledged hops,
 * election runs, the coordinator's heartbeats and the failure detector.
 *
 * The texts assume a ring without failures (Chang and Roberts; the all-ids
 * ring) or one that skips failed nodes (the list ring). Ours must not hang
 * on a real network, so (our additions, Documentation/protocol.rst):
 *
 * - Ring order is ascending (position, id); a node's successor is the next
 *   peer in that order that it has not declared failed, wrapping.
 * - Hops are acknowledged. A node passes on one ring message at a time
 *   (stop and wait, which keeps its outgoing messages in order, as the
 *   texts' FIFO channels do): it waits the hop timeout (T, more after
 *   late ACKs: below) for the ACK; when none comes, the successor is
 *   declared failed and the message goes to the next position, counted
 *   as a retry. A message's owner (the node it must return to) is tried
 *   even when declared failed, since it may be back;
 *   when the owner does not acknowledge, the message ends there: an
 *   ELECTION makes this node begin a new run, a COORDINATOR has reached
 *   every node already.
 * - The hop timeout adapts. An ACK that arrives after its hop timed out
 *   (the successor was slow, not gone: a loaded host, a burst of ring
 *   traffic) doubles it, up to 8 T; sixteen on-time ACKs in a row, each
 *   within a quarter of it, halve it. Only ACKs move it, so it stays
 *   raised between elections; a start or a new T resets it to T. Without
 *   this a hop delay above T turns every hop into a skip and a retry, and
 *   the retries add to the load that delays the hops: a storm.
 * - Runs: ELECTION frames carry the run (a term) their initiator began;
 *   a frame of an older run is stale and dropped, a newer one resets the
 *   participant flag. A node beginning a run takes max_term + 1.
 * - A participant that hears nothing of its run for the round timeout
 *   (coord-timeout + 2 * nodes * hop timeout) begins a new run.
 * - The leader broadcasts heartbeats; hb_miss silent intervals make a
 *   follower begin an election, unless it takes part in one. The winner
 *   announces max_term + 1; a COORDINATOR or heartbeat is accepted when
 *   (term, leader) is at least the current one, as in Bully. A node that
 *   accepts a leader with a lower id than its own begins an election.
 * - A node that starts learns the leader from heartbeats for
 *   hb_interval * hb_miss, then elects unless it learnt a higher leader.
 * - A predecessor that declared a live node failed would skip it for
 *   good (the node sends only to its successor). A node greets (one
 *   broadcast ACK of hop 0) when it starts, and again, once per term,
 *   when no ELECTION or COORDINATOR of its leader's term reached it
 *   within a round of accepting the leader. A greeting from the
 *   successor while a hop to it is in flight makes the hop timeout send
 *   the frame to it again (once per destination) instead of declaring it
 *   failed; when that successor is the ELECTION's owner, the node begins
 *   a new run instead. A node that starts again counts every peer alive
 *   again and forgets the terms in which the ring reached it.
 * - Standby: a node in standby passes ring messages on and follows, but
 *   begins no run and takes no outcome that names itself
 *   (elec_ring_stand_aside(), elec_ring_may_lead(); the algorithms keep
 *   its id out of their messages). A leader entering standby steps down
 *   and, as its followers count it failed, greets once they have.
 */
#include "ring.h"
#include "rtt.h"

/*
 * A queued ring message: this header, then @len payload bytes, hop first.
 * @retry: ELEC_RING_REC_RETRY once it was sent and not acknowledged (its
 * next transmission counts as a retry), with ELEC_RING_REC_RESENT once it
 * was sent again to a successor that greeted (at most once per
 * destination: cleared when the message moves on to the next node).
 */
struct elec_ring_rec {
	u64 term;
	u32 owner;
	u16 len;
	u8 type;
	u8 retry;
};

#define ELEC_RING_REC_RETRY	0x1
#define ELEC_RING_REC_RESENT	0x2

#define ELEC_RING_REC_SIZE(len) \
	(sizeof(struct elec_ring_rec) + (((u32)(len) + 7) & ~7U))

const char *const elec_ring_timer_names[ELEC_TIMER_COUNT] = {
	[ELEC_RING_TIMER_ACK] = "ack",
	[ELEC_RING_TIMER_ROUND] = "round",
};

static const struct elec_ring_algo *ring_algo(const struct elec_core *c)
{
	return (const struct elec_ring_algo *)((const char *)c->ops -
		offsetof(struct elec_ring_algo, ops));
}

/*
 * The hop timeout: T (with timeout-auto, the RTO of the hop's receiver,
 * or of the slowest peer measured when no hop is out: rtt.c), or more
 * after late ACKs (ring_rx_ack())
 */
static u64 ring_ack_ns(const struct elec_core *c)
{
	const struct elec_peer *to = NULL;

	if (c->ring.dst)
		to = elec_core_peer_find((struct elec_core *)c, c->ring.dst);
	return elec_rtt_timeout_ns(c, to) << c->ring.ack_shift;
}

/* how long a participant waits for news of its run */
static u64 ring_round_ns(const struct elec_core *c)
{
	u64 nodes = (u64)c->n_peers + 1;
	u64 hop = ring_ack_ns(c);

	/*
	 * the other nodes' hop waits: with timeout-auto each measures its
	 * own, up to the ceiling (rtt.c)
	 */
	if (c->cfg.timeout_auto)
		hop = elec_rtt_ceiling_ns(&c->cfg) << c->ring.ack_shift;
	return elec_config_coord_timeout(&c->cfg) + 2 * nodes * hop;
}

/**
 * elec_ring_known() - whether an id is the local node or a peer.
 * @c: the instance
 * @id: node id
 *
 * Return: true when @id may appear in a ring payload.
 */
bool elec_ring_known(struct elec_core *c, u32 id)
{
	return id && (id == c->cfg.self_id || elec_core_peer_find(c, id));
}

static bool ring_key_lt(u32 pos_a, u32 id_a, u32 pos_b, u32 id_b)
{
	return pos_a < pos_b || (pos_a == pos_b && id_a < id_b);
}

/*
 * Whether peer @p may be sent a ring message: it is alive or it is
 * @owner (the owner is tried even when declared failed).
 */
static bool ring_candidate(const struct elec_peer *p, u32 owner)
{
	return p->alive || p->id == owner;
}

/*
 * ring_target() when the table's id order is its ring order: the first
 * candidate at or after the local node's place, else the first one from
 * the start. O(1) with dense ids and positions that follow them (else a
 * binary search, O(log n)), plus the failed peers skipped.
 */
static struct elec_peer *ring_target_ordered(struct elec_core *c, u32 owner)
{
	u32 spos = elec_self_pos(&c->cfg), sid = c->cfg.self_id;
	u32 lo, hi = c->n_peers, i;

	/*
	 * The local node's place by id (O(1) for dense ids) is its place in
	 * ring order too when its own position follows the ids like the
	 * peers': checked on the two neighbours, else searched for.
	 */
	lo = elec_core_peer_index(c, sid);
	if ((!lo || ring_key_lt(elec_peer_pos(&c->peers[lo - 1]),
				c->peers[lo - 1].id, spos, sid)) &&
	    (lo == hi || ring_key_lt(spos, sid, elec_peer_pos(&c->peers[lo]),
				     c->peers[lo].id)))
		hi = lo;
	else
		lo = 0;
	while (lo < hi) {
		u32 mid = lo + (hi - lo) / 2;
		struct elec_peer *p = &c->peers[mid];

		if (ring_key_lt(elec_peer_pos(p), p->id, spos, sid))
			lo = mid + 1;
		else
			hi = mid;
	}
	for (i = lo; i < c->n_peers; i++)
		if (ring_candidate(&c->peers[i], owner))
			return &c->peers[i];
	for (i = 0; i < lo; i++)
		if (ring_candidate(&c->peers[i], owner))
			return &c->peers[i];
	return NULL;
}

/*
 * The next node in ring order after this one that is alive or is @owner
 * (the owner is tried even when declared failed); NULL when there is none.
 */
static struct elec_peer *ring_target(struct elec_core *c, u32 owner)
{
	u32 spos = elec_self_pos(&c->cfg), sid = c->cfg.self_id;
	struct elec_peer *after = NULL, *first = NULL;
	u32 i;

	if (!c->peers_unordered)
		return ring_target_ordered(c, owner);
	for (i = 0; i < c->n_peers; i++) {
		struct elec_peer *p = &c->peers[i];
		u32 pos = elec_peer_pos(p);

		if (!ring_candidate(p, owner))
			continue;
		if (ring_key_lt(spos, sid, pos, p->id) &&
		    (!after || ring_key_lt(pos, p->id, elec_peer_pos(after),
					   after->id)))
			after = p;
		if (!first || ring_key_lt(pos, p->id, elec_peer_pos(first),
					  first->id))
			first = p;
	}
	return after ? after : first;
}

static struct elec_ring_rec *ring_head(struct elec_core *c)
{
	return c->ring.q_len ? (struct elec_ring_rec *)c->ring.q : NULL;
}

static void ring_pop(struct elec_core *c)
{
	struct elec_ring_rec *rec = ring_head(c);
	u32 size;

	if (!rec)
		return;
	size = ELEC_RING_REC_SIZE(rec->len);
	memmove(c->ring.q, c->ring.q + size, c->ring.q_len - size);
	c->ring.q_len -= size;
}

static void ring_clear(struct elec_core *c, u64 now)
{
	c->ring.q_len = 0;
	c->ring.dst = 0;
	c->ring.dst_greeted = false;
	elec_core_cancel(c, ELEC_RING_TIMER_ACK, now);
}

/**
 * elec_ring_put() - queue a ring message to pass on.
 * @c: the instance
 * @type: ELEC_MSG_ELECTION or ELEC_MSG_COORDINATOR
 * @term: the term its header carries
 * @owner: the node it returns to (tried even if declared failed)
 * @len: payload bytes after the hop number
 *
 * The caller fills in the payload and then calls elec_ring_flush().
 *
 * Return: where to write @len payload bytes, or NULL when the queue is
 * full (counted as ELEC_DROP_QUEUE_FULL).
 */
u8 *elec_ring_put(struct elec_core *c, u8 type, u64 term, u32 owner,
		  u16 len)
{
	u32 total = (u32)len + ELECTION_RING_HOP_LEN;
	u32 need = ELEC_RING_REC_SIZE(total);
	struct elec_ring_rec *rec;

	if (!c->ring.q || total > ELECTION_MAX_PAYLOAD ||
	    need > c->ring.q_cap - c->ring.q_len) {
		elec_core_drop(c, ELEC_DROP_QUEUE_FULL);
		return NULL;
	}
	rec = (struct elec_ring_rec *)(c->ring.q + c->ring.q_len);
	memset(rec, 0, need);
	rec->term = term;
	rec->owner = owner;
	rec->len = (u16)total;
	rec->type = type;
	c->ring.q_len += need;
	return (u8 *)(rec + 1) + ELECTION_RING_HOP_LEN;
}

/**
 * elec_ring_stand_aside() - a node in standby ends its part in the run.
 * @c: the instance
 * @now: current time, ns
 *
 * Where the node would begin a run for itself or take a run's outcome as
 * the leader: it takes part in no run (no round timer) and is no
 * candidate. The other nodes elect: a run's participants begin a new one
 * when it ends nowhere (their round timers), the followers of a silent
 * leader when their detectors fire.
 */
void elec_ring_stand_aside(struct elec_core *c, u64 now)
{
	c->participant = false;
	elec_core_cancel(c, ELEC_RING_TIMER_ROUND, now);
	if (c->phase != ELEC_RING_LEADING)
		c->role = ELEC_ROLE_FOLLOWER;
}

/**
 * elec_ring_may_lead() - whether the local node may take an elected id.
 * @c: the instance
 * @leader: the id a run elected, or that an announcement names
 *
 * Return: false when @leader is the local node and it is in standby: it
 * never leads, so the run's outcome ends there (elec_ring_stand_aside()).
 */
bool elec_ring_may_lead(const struct elec_core *c, u32 leader)
{
	return leader != c->cfg.self_id || !elec_core_standby(c);
}

/*
 * No other node is alive: the local node is the only one left. A leader
 * stays one, but its part in the run is over as well; so is a node in
 * standby's, which never leads.
 */
static void ring_alone(struct elec_core *c, u64 now)
{
	ring_clear(c, now);
	if (c->phase == ELEC_RING_LEADING ||
	    !elec_ring_may_lead(c, c->cfg.self_id)) {
		elec_ring_stand_aside(c, now);
		return;
	}
	elec_ring_accept(c, c->cfg.self_id, elec_core_term_next(c), now);
}

/**
 * elec_ring_flush() - send the head of the queue unless one is in flight.
 * @c: the instance
 * @now: current time, ns
 */
void elec_ring_flush(struct elec_core *c, u64 now)
{
	struct elec_ring_rec *rec = ring_head(c);
	struct elec_peer *to;
	u8 *payload;

	if (!rec || c->ring.dst)
		return;
	to = ring_target(c, rec->owner);
	if (!to) {
		ring_alone(c, now);
		return;
	}
	payload = (u8 *)(rec + 1);
	if (!++c->ring.hop)
		c->ring.hop = 1;
	elec_ring_put32(payload, c->ring.hop);
	c->ring.dst = to->id;
	c->ring.dst_greeted = false;
	c->ring.sent_ns = now;
	elec_core_send_as(c, rec->type, rec->retry ? ELEC_MSG_RETRY : rec->type,
			  to->id, rec->term, payload, rec->len, now);
	elec_core_arm_in(c, ELEC_RING_TIMER_ACK, ring_ack_ns(c), now);
}

static void ring_new_run(struct elec_core *c, u64 run)
{
	const struct elec_ring_algo *ra = ring_algo(c);

	c->ring.run = run;
	c->participant = false;
	if (ra->new_run)
		ra->new_run(c);
}

/**
 * elec_ring_participate() - the local node takes part in the current run.
 * @c: the instance
 * @now: current time, ns
 *
 * Sets the participant flag and (re)arms the round timer; a node that is
 * not the leader (nor in standby) reports itself as a candidate.
 */
void elec_ring_participate(struct elec_core *c, u64 now)
{
	c->participant = true;
	if (c->phase != ELEC_RING_LEADING && !elec_core_standby(c))
		c->role = ELEC_ROLE_CANDIDATE;
	elec_core_arm_in(c, ELEC_RING_TIMER_ROUND, ring_round_ns(c), now);
}

/**
 * elec_ring_begin() - begin a new election run.
 * @c: the instance
 * @force: begin even while taking part in a run (administrator, round
 *	timeout, the run's owner failed); otherwise a participant does nothing
 * @now: current time, ns
 *
 * A node in standby begins none: it stands aside (elec_ring_stand_aside()).
 */
void elec_ring_begin(struct elec_core *c, bool force, u64 now)
{
	if (c->participant && !force)
		return;
	/* in standby: no run of its own (it could elect the local node) */
	if (elec_core_standby(c)) {
		elec_ring_stand_aside(c, now);
		return;
	}
	ring_new_run(c, elec_core_term_next(c));
	c->stats.elections++;
	elec_ring_participate(c, now);
	elec_core_event(c, ELEC_EVENT_ELECTION_STARTED, 0, now);
	ring_algo(c)->begin(c, now);
	elec_ring_flush(c, now);
}

/**
 * elec_ring_stale() - whether an announced leader is older than ours.
 * @c: the instance
 * @leader: announced leader id
 * @term: its term
 *
 * Return: true, counting ELEC_DROP_STALE_TERM, when (@term, @leader) is
 * below the current (term, leader).
 */
bool elec_ring_stale(struct elec_core *c, u32 leader, u64 term)
{
	if (term > c->term || (term == c->term && leader >= c->leader))
		return false;
	elec_core_drop(c, ELEC_DROP_STALE_TERM);
	return true;
}

/*
 * Greet every peer: an ACK of hop number 0, which acknowledges nothing
 * (hop numbers start at 1) but, like every frame, declares its sender
 * alive at each receiver. One broadcast frame.
 */
static void ring_greet(struct elec_core *c, u64 now)
{
	static const u8 hello[ELECTION_RING_HOP_LEN];

	if (c->n_peers)
		elec_core_send(c, ELEC_MSG_ACK, 0, c->max_term, hello,
			       sizeof(hello), now);
}

/*
 * A node that stepped down entering standby greets once its followers
 * count it failed: when it accepts the next leader (they found it silent
 * before they elected), or when its window expires without one
 * (ring_standby_wait()).
 */
static void ring_greet_resigned(struct elec_core *c, u64 now)
{
	if (!c->ring.resigned)
		return;
	c->ring.resigned = false;
	ring_greet(c, now);
}

/**
 * elec_ring_accept() - take an announced leader (not stale).
 * @c: the instance
 * @leader: leader id (the local node or a peer)
 * @term: its term
 * @now: current time, ns
 *
 * Ends the local node's part in the run, unless it takes part in a newer
 * run than the one that announced @leader (@term below the run): that
 * run's outcome is still to come. The leader sends heartbeats; a
 * follower watches them and, when the leader's id is below its own,
 * begins an election (unless it takes part in one).
 */
void elec_ring_accept(struct elec_core *c, u32 leader, u64 term, u64 now)
{
	bool newer = c->participant && term < c->ring.run;
	u32 self = c->cfg.self_id;

	if (leader != c->leader || term != c->term)
		c->ring.accept_ns = now;
	elec_core_set_leader(c, leader, term, now);
	if (!newer) {
		c->participant = false;
		elec_core_cancel(c, ELEC_RING_TIMER_ROUND, now);
	}
	if (leader == self) {
		c->role = ELEC_ROLE_LEADER;
		if (c->phase == ELEC_RING_LEADING)
			return;
		c->phase = ELEC_RING_LEADING;
		elec_core_cancel(c, ELEC_TIMER_DETECT, now);
		/*
		 * A first heartbeat at once: the announcement reaches the
		 * other nodes one hop at a time, the old leader (if it still
		 * leads) possibly last; the broadcast makes it step down
		 * within one delivery instead.
		 */
		elec_core_lead(c, c->term, true, now);
		return;
	}
	c->role = newer && !elec_core_standby(c) ? ELEC_ROLE_CANDIDATE :
		  ELEC_ROLE_FOLLOWER;
	c->phase = ELEC_RING_FOLLOWING;
	ring_greet_resigned(c, now);
	elec_core_cancel(c, ELEC_TIMER_HEARTBEAT, now);
	/*
	 * The leader sends no heartbeat before the announcement reaches it
	 * (the all-ids and list rings announce from the initiator, which
	 * may be up to a round of hops before the leader): the first window
	 * is a round timeout longer.
	 */
	elec_core_watch(c, now, ring_round_ns(c), now);
	/* a received announcement: rate limited (the heartbeat asks again) */
	if (leader < self && !c->participant && elec_core_rx_may_elect(c, now))
		elec_ring_begin(c, false, now);
}

/**
 * elec_ring_start() - ops->start of the ring algorithms: greet, then learn.
 * @c: the instance
 * @now: current time, ns
 *
 * A node on a ring sends only to its successor, so a predecessor that
 * declared it failed (it was down, or stalled past T) would never hear
 * from it again and would skip it for good. A started node therefore
 * greets its peers with an ACK of hop number 0, which acknowledges
 * nothing (hop numbers start at 1) but declares it alive again: one
 * broadcast frame, not one per peer (a ring of N nodes that starts sends
 * N frames, not N x (N - 1)). What the node knew before a stop is
 * forgotten: every peer counts as alive again (a peer_up event for each
 * one declared failed), and counted_term is reset, so that the node
 * greets again a round after it learns the leader unless a ring frame
 * reaches it.
 */
void elec_ring_start(struct elec_core *c, u64 now)
{
	u32 i;

	ring_clear(c, now);
	/*
	 * What the node knew before it stopped is stale: every peer is a
	 * candidate again (as when it was added), and the ring must reach
	 * this node again before it stops greeting when skipped.
	 */
	for (i = 0; i < c->n_peers; i++)
		elec_core_peer_set_alive(c, &c->peers[i], true, now);
	c->ring.counted_term = 0;
	c->ring.resigned = false;
	ring_new_run(c, c->ring.run);
	c->ring.ack_shift = 0;
	c->ring.ack_fast = 0;
	c->ring.late_dst = 0;
	c->role = ELEC_ROLE_FOLLOWER;
	c->phase = ELEC_RING_LEARNING;
	ring_greet(c, now);
	elec_core_watch(c, now, 0, now);
}

/**
 * elec_ring_stop() - ops->stop of the ring algorithms: forget the queue.
 * @c: the instance
 * @now: current time, ns
 */
void elec_ring_stop(struct elec_core *c, u64 now)
{
	ring_clear(c, now);
	c->phase = ELEC_RING_IDLE;
}

/**
 * elec_ring_elect() - ops->elect of the ring algorithms: a new run now.
 * @c: the instance
 * @now: current time, ns
 */
void elec_ring_elect(struct elec_core *c, u64 now)
{
	elec_ring_begin(c, true, now);
}

/**
 * elec_ring_standby() - ops->standby of the ring algorithms.
 * @c: the instance
 * @now: current time, ns
 *
 * Entering standby: a leader (which has resigned already) steps down to
 * follow nobody and watches for its successor's announcement (and greets
 * when that window expires without one: ring_standby_wait()); any node
 * stands aside from the run it takes part in. Leaving it: a node that
 * follows nobody or a leader with a lower id than its own begins a run,
 * as one that accepts such a leader does; a learning node elects when
 * its learning ends.
 */
void elec_ring_standby(struct elec_core *c, u64 now)
{
	if (elec_core_standby(c)) {
		if (c->phase == ELEC_RING_LEADING) {
			c->phase = ELEC_RING_FOLLOWING;
			elec_core_cancel(c, ELEC_TIMER_HEARTBEAT, now);
			elec_core_set_leader(c, 0, c->term, now);
			/*
			 * silent from now on: its followers count it failed,
			 * so it greets once they have (ring_greet_resigned())
			 */
			c->ring.resigned = true;
			c->ring.counted_term = 0;
			elec_core_watch(c, now, ring_round_ns(c), now);
		}
		elec_ring_stand_aside(c, now);
		return;
	}
	if (c->phase == ELEC_RING_FOLLOWING &&
	    (!c->leader || c->leader < c->cfg.self_id))
		elec_ring_begin(c, true, now);
}

static void ring_ack_expired(struct elec_core *c, u64 now)
{
	struct elec_ring_rec *rec = ring_head(c);
	u32 dst = c->ring.dst;

	if (!rec || !dst)
		return;
	c->ring.dst = 0;
	c->ring.late_dst = dst;
	c->ring.late_hop = elec_ring_get32((u8 *)(rec + 1));
	c->ring.late_sent_ns = c->ring.sent_ns;
	c->ring.ack_fast = 0;
	if (c->ring.dst_greeted && !(rec->retry & ELEC_RING_REC_RESENT)) {
		/*
		 * @dst started after the frame was sent (its greeting came
		 * while the hop was in flight): it was dropped there, so
		 * @dst is sent it again, as a retry, instead of being
		 * declared failed. Waiting for the timeout rather than
		 * resending at the greeting keeps a frame that did reach it
		 * (sent while it started) from arriving twice. Once per
		 * destination: a node that greets and never acknowledges (it
		 * restarts again and again) is declared failed the next time.
		 */
		if (dst == rec->owner && rec->type == ELEC_MSG_ELECTION) {
			/*
			 * The run's owner greeted: most likely it restarted
			 * and takes part in no run, so it would swallow its
			 * own ELECTION. Begin a new run instead. (A skipped
			 * owner greets too; if the frame did reach it and
			 * only the ACK is late, its run completes as well
			 * and this one costs a term: it still ends.)
			 */
			ring_pop(c);
			elec_ring_begin(c, true, now);
			elec_ring_flush(c, now);
			return;
		}
		rec->retry |= ELEC_RING_REC_RETRY | ELEC_RING_REC_RESENT;
		elec_ring_flush(c, now);
		return;
	}
	elec_core_peer_set_alive(c, elec_core_peer_find(c, dst), false, now);
	if (dst == rec->owner) {
		/* the owner is gone: this message can never end its round */
		bool election = rec->type == ELEC_MSG_ELECTION;

		ring_pop(c);
		if (election)
			elec_ring_begin(c, true, now);
		elec_ring_flush(c, now);
		return;
	}
	/* a new destination: it may be resent to once as well */
	rec->retry = ELEC_RING_REC_RETRY;
	elec_ring_flush(c, now);
}

/*
 * In standby the node begins no run: it waits for the others' (there may
 * be none for long: every live node in standby). No leader's heartbeats
 * make it greet meanwhile, so a predecessor that declared it failed would
 * skip it for good: it greets when it led and stepped down (silent since:
 * its followers' detectors count it failed), or unless it knows the ring
 * counts it in this term (a ring frame of the term reached it, or it is
 * learning: it greeted when it started).
 */
static void ring_standby_wait(struct elec_core *c, u64 now)
{
	if (c->phase == ELEC_RING_FOLLOWING &&
	    c->ring.counted_term != c->term)
		c->ring.resigned = true;
	ring_greet_resigned(c, now);
	c->ring.counted_term = c->term;
	c->phase = ELEC_RING_FOLLOWING;
	elec_ring_stand_aside(c, now);
}

static void ring_detect_expired(struct elec_core *c, u64 now)
{
	if (c->phase != ELEC_RING_LEARNING &&
	    c->phase != ELEC_RING_FOLLOWING)
		return;
	if (c->phase == ELEC_RING_FOLLOWING && c->leader) {
		elec_core_peer_set_alive(c, elec_core_peer_find(c, c->leader),
					 false, now);
		elec_core_set_leader(c, 0, c->term, now);
	}
	if (elec_core_standby(c)) {
		ring_standby_wait(c, now);
		return;
	}
	c->phase = ELEC_RING_FOLLOWING;
	elec_ring_begin(c, false, now);
}

/**
 * elec_ring_silent() - ops->silent of the ring algorithms: the leader
 *	was silent for the detection window, or learning is over.
 * @c: the instance
 * @now: current time, ns
 */
void elec_ring_silent(struct elec_core *c, u64 now)
{
	/*
	 * A newer run than the leader's term reached this node: the run
	 * settles the leadership, and its round timer watches it. The
	 * leader's silence proves nothing about the peer: it may have
	 * restarted and begun that very run (a learning node sends no
	 * heartbeat), and a peer declared failed is skipped for good. The
	 * node follows nobody meanwhile and watches another window (a
	 * resignation is no silence: ring_rx_heartbeat() calls
	 * ring_detect_expired() itself).
	 */
	if (c->participant && c->ring.run > c->term &&
	    c->phase == ELEC_RING_FOLLOWING) {
		if (c->leader)
			elec_core_set_leader(c, 0, c->term, now);
		elec_core_watch(c, now, 0, now);
		return;
	}
	if (c->phase == ELEC_RING_FOLLOWING)
		elec_detect_suspect(c);
	ring_detect_expired(c, now);
}

/**
 * elec_ring_set_queue() - ops->set_queue of the ring algorithms.
 * @c: the instance, initialised, not running
 * @buf: the queue memory (see elec_core_set_queue()), or NULL: none
 * @cap: its size in bytes
 */
void elec_ring_set_queue(struct elec_core *c, void *buf, u32 cap)
{
	c->ring.q = buf;
	c->ring.q_cap = buf ? cap : 0;
	c->ring.q_len = 0;
	c->ring.dst = 0;
}

/**
 * elec_ring_config_changed() - ops->config_changed of the ring algorithms.
 * @c: the instance
 * @cfg: its new configuration
 *
 * A new timeout resets the hop timeout to it: no adaptation is carried
 * over from the old one.
 */
void elec_ring_config_changed(struct elec_core *c,
			      const struct elec_config *cfg)
{
	if (cfg->timeout_ns == c->cfg.timeout_ns &&
	    cfg->timeout_auto == c->cfg.timeout_auto)
		return;
	c->ring.ack_shift = 0;
	c->ring.ack_fast = 0;
}

/**
 * elec_algo_is_ring() - whether an algorithm passes messages around a ring.
 * @algo: enum elec_algo value
 *
 * Return: true for the ring family (the algorithms whose receive op is
 * ring.c's), which use peer positions, hop acknowledgments and the ring
 * queue.
 */
bool elec_algo_is_ring(u8 algo)
{
	const struct elec_algo_ops *ops = elec_algo_find(algo);

	return ops && ops->rx == elec_ring_rx;
}

/**
 * elec_ring_timer() - ops->timer of the ring algorithms.
 * @c: the instance
 * @id: the timer that expired
 * @now: current time, ns
 */
void elec_ring_timer(struct elec_core *c, enum elec_timer_id id, u64 now)
{
	switch (id) {
	case ELEC_TIMER_HEARTBEAT:
		if (c->phase == ELEC_RING_LEADING)
			elec_core_lead(c, c->term, true, now);
		break;
	case ELEC_RING_TIMER_ACK:
		ring_ack_expired(c, now);
		break;
	case ELEC_RING_TIMER_ROUND:
		if (c->participant)
			elec_ring_begin(c, true, now);
		break;
	default:
		break;
	}
}

/*
 * Adapt the hop timeout to an ACK: one that comes after its hop timed out
 * doubles it; ELEC_RING_ACK_DECAY on-time ones in a row, each within a
 * quarter of it (half of the next lower setting), halve it.
 */
static void ring_ack_adapt(struct elec_core *c, bool late, u64 now)
{
	struct elec_ring *r = &c->ring;

	if (late) {
		r->late_dst = 0;
		r->ack_fast = 0;
		if (r->ack_shift < ELEC_RING_ACK_SHIFT_MAX)
			r->ack_shift++;
		return;
	}
	if (!r->ack_shift || now - r->sent_ns >= ring_ack_ns(c) / 4) {
		r->ack_fast = 0;
		return;
	}
	if (++r->ack_fast >= ELEC_RING_ACK_DECAY) {
		r->ack_fast = 0;
		r->ack_shift--;
	}
}

static void ring_rx_ack(struct elec_core *c, const struct elec_msg *msg,
			u64 now)
{
	struct elec_ring_rec *rec = ring_head(c);
	u32 hop = elec_ring_get32(msg->payload);

	if (!hop) {
		/* a greeting: its sender (re)started */
		if (rec && msg->src == c->ring.dst)
			c->ring.dst_greeted = true;
		return;
	}
	if (msg->src == c->ring.late_dst && hop == c->ring.late_hop) {
		/* exact too: the RTO grows with a link that slowed */
		elec_rtt_sample(c, elec_core_peer_find(c, msg->src),
				now - c->ring.late_sent_ns);
		ring_ack_adapt(c, true, now);
	}
	if (!rec || msg->src != c->ring.dst ||
	    hop != elec_ring_get32((u8 *)(rec + 1)))
		return;
	/* the ACK of this very transmission: an exact round trip */
	elec_rtt_sample(c, elec_core_peer_find(c, msg->src),
			now - c->ring.sent_ns);
	ring_ack_adapt(c, false, now);
	ring_pop(c);
	c->ring.dst = 0;
	elec_core_cancel(c, ELEC_RING_TIMER_ACK, now);
	elec_ring_flush(c, now);
}

static void ring_rx_heartbeat(struct elec_core *c, const struct elec_msg *msg,
			      u64 now)
{
	if (msg->flags & ELECTION_FLAG_LEAVING) {
		/*
		 * The leader resigned: elect now, as if its heartbeats had
		 * stopped; it is marked failed so the ring skips it at once
		 * instead of after an ack timeout.
		 */
		if (msg->src == c->leader && msg->term == c->term &&
		    c->phase == ELEC_RING_FOLLOWING)
			ring_detect_expired(c, now);
		return;
	}
	if (elec_ring_stale(c, msg->src, msg->term))
		return;
	if (msg->term == c->term && msg->src == c->leader &&
	    c->phase == ELEC_RING_FOLLOWING) {
		elec_core_heard(c, now);
		elec_core_watch(c, now, 0, now);
		/*
		 * A round since this node accepted the leader and no ring
		 * frame of the term has reached it: its predecessor skipped
		 * it (declared it failed) and, since it sends nothing to
		 * the predecessor, would skip it for good. Greet, once per
		 * term.
		 */
		if (c->ring.counted_term != c->term &&
		    now - c->ring.accept_ns >= ring_round_ns(c)) {
			c->ring.counted_term = c->term;
			ring_greet(c, now);
		}
		/* following a lower leader: only after a rate-limit refusal */
		if (msg->src < c->cfg.self_id && !c->participant &&
		    elec_core_rx_may_elect(c, now))
			elec_ring_begin(c, false, now);
		return;
	}
	elec_ring_accept(c, msg->src, msg->term, now);
}

/**
 * elec_ring_rx() - ops->rx of the ring algorithms.
 * @c: the instance
 * @msg: a message that passed the core's checks and the payload check
 * @now: current time, ns
 *
 * Every frame marks its sender alive. An ELECTION or COORDINATOR is
 * acknowledged at once, then handed to the algorithm (an ELECTION only if
 * it belongs to the current run or a newer one).
 */
void elec_ring_rx(struct elec_core *c, const struct elec_msg *msg, u64 now)
{
	const struct elec_ring_algo *ra = ring_algo(c);
	const u8 *body;
	u16 len;

	if (msg->term > c->max_term)
		c->max_term = msg->term;
	elec_core_peer_set_alive(c, elec_core_peer_find(c, msg->src), true,
				 now);

	switch (msg->type) {
	case ELEC_MSG_ACK:
		ring_rx_ack(c, msg, now);
		return;
	case ELEC_MSG_HEARTBEAT:
		ring_rx_heartbeat(c, msg, now);
		return;
	case ELEC_MSG_ELECTION:
	case ELEC_MSG_COORDINATOR:
		break;
	default:
		return;
	}

	elec_core_send(c, ELEC_MSG_ACK, msg->src, c->max_term, msg->payload,
		       ELECTION_RING_HOP_LEN, now);
	body = msg->payload + ELECTION_RING_HOP_LEN;
	len = msg->payload_len - ELECTION_RING_HOP_LEN;
	if (msg->type == ELEC_MSG_COORDINATOR) {
		ra->coordinator(c, msg, body, len, now);
	} else if (msg->term < c->ring.run) {
		elec_core_drop(c, ELEC_DROP_STALE_TERM);
	} else {
		if (msg->term > c->ring.run)
			ring_new_run(c, msg->term);
		else if (c->participant)
			elec_core_arm_in(c, ELEC_RING_TIMER_ROUND, ring_round_ns(c),
					 now);
		ra->election(c, msg, body, len, now);
	}
	/* the ring reached this node (and the ACK revives it at the sender) */
	c->ring.counted_term = c->term;
	elec_ring_flush(c, now);
}

/**
 * elec_ring_payload_check() - payload_ok of a ring algorithm.
 * @ra: the algorithm
 * @type: message type
 * @payload: the payload
 * @len: its length
 *
 * HEARTBEAT is empty, ACK is the 4-byte hop number, ELECTION and
 * COORDINATOR are the hop number and a body the algorithm checks; other
 * types are not ring messages.
 *
 * Return: whether the payload is valid.
 */
bool elec_ring_payload_check(const struct elec_ring_algo *ra, u8 type,
			     const u8 *payload, u16 len)
{
	switch (type) {
	case ELEC_MSG_HEARTBEAT:
		return len == 0;
	case ELEC_MSG_ACK:
		return len == ELECTION_RING_HOP_LEN;
	case ELEC_MSG_ELECTION:
	case ELEC_MSG_COORDINATOR:
		return len >= ELECTION_RING_HOP_LEN &&
		       ra->body_ok(type, payload + ELECTION_RING_HOP_LEN,
				   len - ELECTION_RING_HOP_LEN);
	default:
		return false;
	}
}
