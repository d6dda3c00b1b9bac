// SPDX-License-Identifier: GPL-2.0
/*
 * Garcia-Molina's Invitation algorithm, algorithm "invitation", as a
 * sans-IO state machine (the lecture text 004, "The Invitation
 * Algorithm"; the message names are those of Garcia-Molina's 1982 paper).
 *
 * From the text:
 * - Every functioning node is in exactly one group, led by one
 *   coordinator; groups are numbered (sequence number, coordinator id),
 *   the sequence growing each time the node forms a group, so a number is
 *   never reused.
 * - A node whose coordinator fails, or that starts, forms a group of its
 *   own and looks for others.
 * - Coordinators periodically ask every node whether it is a coordinator
 *   (ARE_YOU_COORD) and ignore nodes silent past a timeout.
 * - One coordinator merges those it found: it takes a new sequence
 *   number, invites them (INVITE; they relay it to their members), those
 *   that accept (ACCEPT) move into the new group with their members, and
 *   the coordinator tells every member the group number and membership
 *   (READY).
 *
 * Where the text leaves a choice (Documentation/protocol.rst, "The
 * Invitation algorithm", gives the reasons):
 * - Priority: a coordinator merges only coordinators with lower ids, and
 *   merges nothing in a search that found a higher one (it waits to be
 *   invited). The coordinator of a group is therefore its highest id, and
 *   after a partition heals the highest coordinator of the component
 *   merges every other group in one round: no merge delay is needed.
 * - A coordinator that hears a lower coordinator of another group (its
 *   ARE_YOU_COORD or its HEARTBEAT) searches at once (the text's "receiving
 *   the query prompts the higher-level coordinator"), rate limited like the
 *   elections that frames start; one that hears a higher coordinator
 *   during its search merges nothing in it.
 * - Members check their coordinator by its heartbeats (one broadcast per
 *   hb-interval instead of an AreYouThere per member): silence for
 *   hb-interval x hb-miss, or a LEAVING heartbeat, makes a member form its
 *   own group. The coordinator learns its members' liveness from their
 *   answers to its searches: a member that misses hb-miss searches in a
 *   row leaves the membership.
 * - The merging coordinator and its own members keep running during the
 *   merge (their coordinator does not change); the invited groups halt:
 *   a node that accepts has no leader until READY comes, or forms its own
 *   group when READY does not come within coord-timeout or leaves it out,
 *   or the new coordinator leaves (its LEAVING heartbeat).
 * - An invitation is accepted only in the normal states (coordinator or
 *   member), only when it names the local node's coordinator, a higher new
 *   coordinator and a newer sequence number, and comes from that new
 *   coordinator (or, to a member, from its own coordinator's relay); the
 *   first such invitation wins, later ones are ignored. The accepting node
 *   waits coord-timeout for READY, at least 2 T.
 *
 * - Standby (our addition): a node in standby never coordinates. Where
 *   it would form a group it is between groups (no leader) instead, and
 *   answers a search as the asker's member, so that the asker's READY
 *   takes it in; a coordinator entering standby resigns, dissolving its
 *   group; leaving standby, it forms a group as a recovered node does.
 *
 * - The windows adapt (our addition): a late (or lost) answer doubles the
 *   reply and accept windows, up to T << ELEC_INV_WIN_SHIFT_MAX, and
 *   windows answered early shrink them again; the INVITE states the
 *   accept window, and the acceptors wait two of them for READY. While
 *   widened, lone coordinators send no heartbeats and searches back off.
 *
 * Timers: HEARTBEAT (coordinator), DETECT (member), SEARCH (coordinator:
 * the search period), REPLY (the search's reply window, T or widened),
 * ACCEPT (the merging coordinator's accept window, the same; an accepting
 * node's wait for READY, coord-timeout, at least two accept windows).
 */
#include "invitation.h"
#include "rtt.h"

static const char *const inv_timer_names[ELEC_TIMER_COUNT] = {
	[ELEC_INV_TIMER_SEARCH] = "search",
	[ELEC_INV_TIMER_REPLY] = "reply",
	[ELEC_INV_TIMER_ACCEPT] = "accept",
};

/*
 * the reply and accept windows: T (with timeout-auto, the largest RTO of
 * the peers measured: rtt.c), widened by late answers
 */
static u64 inv_win_ns(const struct elec_core *c)
{
	return elec_rtt_timeout_ns(c, NULL) << c->inv.win_shift;
}

/*
 * The search period: search-interval, but one search at a time (T); while
 * the windows are widened (answers came late: the network is slow or
 * loaded), at least two windows, so that a node's searches, which load
 * the network with one answer from every node, back off with the window.
 */
static u64 inv_search_ns(const struct elec_core *c)
{
	u64 ns = c->cfg.search_interval_ns ? c->cfg.search_interval_ns :
		 elec_detect_ns(c);
	u64 min = c->inv.win_shift ? 2 * inv_win_ns(c) :
		  elec_rtt_timeout_ns(c, NULL);

	return ns < min ? min : ns;
}

/*
 * A member's watch of its coordinator (elec_core_watch()): the detection
 * window; while the windows are widened (a slow or loaded network, whose
 * timers and frames run late alike), at least two windows: the watch is
 * longer by what this returns.
 */
static u64 inv_watch_extra_ns(const struct elec_core *c)
{
	u64 ns = elec_detect_ns(c);

	if (c->inv.win_shift && ns < 2 * inv_win_ns(c))
		return 2 * inv_win_ns(c) - ns;
	return 0;
}

/* a frame of the coordinator's own: watch it anew */
static void inv_heard(struct elec_core *c, u64 now)
{
	elec_core_heard(c, now);
	elec_core_watch(c, now, inv_watch_extra_ns(c), now);
}

/*
 * How long a node that accepted an invitation waits for READY:
 * coord-timeout, but never less than two accept windows of the merging
 * coordinator (T << @shift, the shift its INVITE states; with timeout-auto
 * its T, measured there, is taken at its most: elec_rtt_ceiling_ns()),
 * since it sends
 * READY only when its accept window is over; a shorter wait would give
 * up on every merge.
 */
static u64 inv_ready_wait_ns(const struct elec_core *c, u8 shift)
{
	u64 ns = elec_config_coord_timeout(&c->cfg);
	/* timeout-auto: the coordinator's T is at most the ceiling */
	u64 t = c->cfg.timeout_auto ? elec_rtt_ceiling_ns(&c->cfg) :
		c->cfg.timeout_ns;
	u64 min = 2 * (t << shift);

	return ns < min ? min : ns;
}

/*
 * An answer (AYC_REPLY or ACCEPT) came after its window closed: both
 * windows double, up to T << ELEC_INV_WIN_SHIFT_MAX, as the ring's hop
 * timeout does (ring_ack_adapt()). The caller counts one per window.
 */
static void inv_win_late(struct elec_core *c)
{
	c->inv.win_fast = 0;
	if (c->inv.win_shift < ELEC_INV_WIN_SHIFT_MAX)
		c->inv.win_shift++;
}

/*
 * A window closed: if its last answer came within a quarter of it (half
 * of the next lower setting; a window without answers counts too),
 * ELEC_INV_WIN_DECAY such windows in a row halve the windows again. A
 * late answer to this window, if one still comes, undoes the count.
 */
static void inv_win_closed(struct elec_core *c)
{
	if (!c->inv.win_shift ||
	    c->inv.last_ans_ns - c->inv.win_ns >= inv_win_ns(c) / 4) {
		c->inv.win_fast = 0;
		return;
	}
	if (++c->inv.win_fast >= ELEC_INV_WIN_DECAY) {
		c->inv.win_fast = 0;
		c->inv.win_shift--;
	}
}

/*
 * A search's window closed: the peers that answered the last search in
 * time, not this one, and were heard from during its window (so neither
 * crashed nor cut off: their answers were lost, or our search to them).
 * Several of them (at least two, and an eighth of the last search's
 * answers) widen the windows as a late answer does: a loaded network
 * drops frames before it delays them, and the searches and heartbeats
 * back off.
 */
static void inv_win_count_lost(struct elec_core *c)
{
	u32 i, last = 0, lost = 0;

	for (i = 0; i < c->n_peers; i++) {
		struct elec_peer *p = &c->peers[i];

		if (p->flags & ELEC_INV_PEER_ANSWERED_LAST) {
			last++;
			if (!(p->flags & ELEC_INV_PEER_ANSWERED) &&
			    p->heard_ns >= c->inv.win_ns)
				lost++;
		}
		p->flags &= ~ELEC_INV_PEER_ANSWERED_LAST;
		if (p->flags & ELEC_INV_PEER_ANSWERED)
			p->flags |= ELEC_INV_PEER_ANSWERED_LAST;
		p->flags &= ~ELEC_INV_PEER_ANSWERED;
	}
	if (lost >= 2 && lost >= last / 8 && !c->inv.late_reply) {
		c->inv.late_reply = true;
		inv_win_late(c);
	}
}

/* a window (a search's or a merge's) opens now */
static void inv_win_open(struct elec_core *c, u64 now)
{
	c->inv.win_ns = now;
	c->inv.last_ans_ns = now;
}

/*
 * Whether a coordinator heartbeats now: always while it has members
 * (they watch the heartbeats) or its windows are at T. A coordinator
 * alone whose windows are widened (answers came late: a slow or loaded
 * network) sends none: its searches (at least one per two windows) tell
 * the other coordinators that it is there, as a heartbeat would, and N
 * such coordinators heartbeating are most of a loaded network's frames
 * (N x (N - 1) deliveries per hb-interval).
 */
static bool inv_heartbeats(const struct elec_core *c)
{
	u32 i;

	if (!c->inv.win_shift)
		return true;
	for (i = 0; i < c->n_peers; i++)
		if (c->peers[i].flags & ELEC_INV_PEER_MEMBER)
			return true;
	return false;
}

static void inv_clear_flags(struct elec_core *c, u8 flags)
{
	u32 i;

	for (i = 0; i < c->n_peers; i++)
		c->peers[i].flags &= ~flags;
}

static void inv_cancel_all(struct elec_core *c, u64 now)
{
	int t;

	for (t = 0; t < ELEC_TIMER_COUNT; t++)
		elec_core_cancel(c, t, now);
}

/* the local node's group becomes (@seq, @coord) */
static void inv_set_group(struct elec_core *c, u64 seq, u32 coord, u64 now)
{
	c->inv.seq = seq;
	c->inv.coord = coord;
	elec_core_set_leader(c, coord, seq, now);
}

/* an id list: the peers flagged @flag (MEMBER for READY, FOUND for INVITE) */
static u16 inv_put_ids(struct elec_core *c, u8 *p, u8 flag)
{
	u16 n = 0;
	u32 i;

	for (i = 0; i < c->n_peers && n < ELECTION_INV_MAX_IDS; i++)
		if (c->peers[i].flags & flag)
			elec_put32(p + 4 * n++, c->peers[i].id);
	return n;
}

/* READY: the group number (term, sender) and its members */
static void inv_send_ready(struct elec_core *c, u64 now)
{
	u8 *pl = c->inv.buf;
	u16 n = inv_put_ids(c, pl + ELECTION_INV_READY_HDR_LEN,
			    ELEC_INV_PEER_MEMBER);

	pl[0] = n >> 8;
	pl[1] = n;
	pl[2] = 0;
	pl[3] = 0;
	elec_put32(pl + 4, ++c->inv.mver);
	c->inv.dirty = false;
	elec_core_send(c, ELEC_MSG_READY, 0, c->inv.seq, pl,
		       ELECTION_INV_READY_HDR_LEN + 4 * n, now);
}

/*
 * INVITE into the group (@seq, @coord) for the groups whose coordinators
 * are the @n ids already in c->inv.buf after the header; @shift: the new
 * coordinator's accept window is T << @shift (0 when it is T: the byte
 * was reserved before the windows adapted)
 */
static void inv_send_invite(struct elec_core *c, u64 seq, u32 coord, u16 n,
			    u8 shift, u64 now)
{
	u8 *pl = c->inv.buf;

	elec_put32(pl, coord);
	pl[4] = n >> 8;
	pl[5] = n;
	pl[6] = shift;
	pl[7] = 0;
	elec_core_send(c, ELEC_MSG_INVITE, 0, seq, pl,
		       ELECTION_INV_INVITE_HDR_LEN + 4 * n, now);
}

/* a coordinator's search: ask everyone, collect the answers for T */
static void inv_search(struct elec_core *c, u64 now)
{
	if (c->phase != ELEC_INV_COORD || c->inv.searching)
		return;
	c->inv.searching = true;
	c->inv.found_higher = false;
	c->inv.found_lower = 0;
	c->inv.found_seq = 0;
	c->inv.late_reply = false;
	inv_win_open(c, now);
	inv_clear_flags(c, ELEC_INV_PEER_FOUND | ELEC_INV_PEER_REPLIED);
	elec_core_send(c, ELEC_MSG_ARE_YOU_COORD, 0, c->inv.seq, NULL, 0, now);
	elec_core_arm_in(c, ELEC_INV_TIMER_REPLY, inv_win_ns(c), now);
	elec_core_arm_in(c, ELEC_INV_TIMER_SEARCH, inv_search_ns(c), now);
}

/* out of the search, merge or invitation under way: no timer runs */
static void inv_leave(struct elec_core *c, u64 now)
{
	inv_cancel_all(c, now);
	c->inv.searching = false;
	c->inv.dirty = false;
	c->inv.pend_seq = 0;
	c->inv.pend_coord = 0;
	c->participant = false;
}

/*
 * Form a group of its own: a new sequence number, the local node its
 * only member and coordinator; then look for other groups. A node in
 * standby never coordinates: it is between groups instead (member of
 * none, coordinator 0, no leader, no timer) until a coordinator's search
 * finds it (inv_rx_ayc()) and its READY lists it (inv_rx_ready()).
 */
static void inv_form_group(struct elec_core *c, u64 now)
{
	inv_leave(c, now);
	inv_clear_flags(c, ELEC_INV_PEER_MEMBER | ELEC_INV_PEER_FOUND |
			ELEC_INV_PEER_REPLIED | ELEC_INV_PEER_ACCEPTED |
			ELEC_INV_PEER_ANSWERED | ELEC_INV_PEER_ANSWERED_LAST);
	if (elec_core_standby(c)) {
		/*
		 * group number (0, 0): a coordinator that still counts it
		 * a member (it was, and left) sees an old number in its
		 * answer and lists it in a READY again
		 */
		c->phase = ELEC_INV_MEMBER;
		c->role = ELEC_ROLE_FOLLOWER;
		c->inv.seq = 0;
		c->inv.coord = 0;
		elec_core_set_leader(c, 0, c->term, now);
		return;
	}
	c->stats.elections++;
	elec_core_event(c, ELEC_EVENT_ELECTION_STARTED, 0, now);
	c->phase = ELEC_INV_COORD;
	c->role = ELEC_ROLE_LEADER;
	inv_set_group(c, elec_core_term_next(c), c->cfg.self_id, now);
	c->leader_rx_ns = now;
	elec_core_lead(c, c->inv.seq, inv_heartbeats(c), now);
	inv_search(c, now);
}

/* join the group (@seq, @coord) whose READY listed the local node */
static void inv_join(struct elec_core *c, u64 seq, u32 coord, u64 now)
{
	inv_leave(c, now);
	c->phase = ELEC_INV_MEMBER;
	c->role = ELEC_ROLE_FOLLOWER;
	inv_set_group(c, seq, coord, now);
	elec_core_heard(c, now);
	elec_core_peer_set_alive(c, elec_core_peer_find(c, coord), true, now);
	elec_core_watch(c, now, inv_watch_extra_ns(c), now);
}

/* the merge: invite every lower coordinator found, at a new number */
static void inv_merge(struct elec_core *c, u64 now)
{
	u16 n = inv_put_ids(c, c->inv.buf + ELECTION_INV_INVITE_HDR_LEN,
			    ELEC_INV_PEER_FOUND);

	if (c->inv.found_seq > c->max_term)
		c->max_term = c->inv.found_seq;
	c->inv.pend_seq = elec_core_term_next(c);
	c->inv.merge_seq = c->inv.pend_seq;
	c->inv.late_accept = false;
	inv_win_open(c, now);
	c->phase = ELEC_INV_MERGING;
	c->stats.elections++;
	elec_core_event(c, ELEC_EVENT_ELECTION_STARTED, 0, now);
	inv_clear_flags(c, ELEC_INV_PEER_ACCEPTED);
	inv_send_invite(c, c->inv.pend_seq, c->cfg.self_id, n,
			c->inv.win_shift, now);
	elec_core_arm_in(c, ELEC_INV_TIMER_ACCEPT, inv_win_ns(c), now);
}

/* the accept window is over: the new group is the old one and the acceptors */
static void inv_merge_done(struct elec_core *c, u64 now)
{
	u32 i, accepted = 0;

	inv_win_closed(c);
	for (i = 0; i < c->n_peers; i++) {
		struct elec_peer *p = &c->peers[i];

		if (!(p->flags & ELEC_INV_PEER_ACCEPTED))
			continue;
		p->flags &= ~ELEC_INV_PEER_ACCEPTED;
		p->flags |= ELEC_INV_PEER_MEMBER;
		p->misses = 0;
		accepted++;
	}
	c->phase = ELEC_INV_COORD;
	if (accepted) {
		inv_set_group(c, c->inv.pend_seq, c->cfg.self_id, now);
		inv_send_ready(c, now);
	} else if (c->inv.dirty) {
		inv_send_ready(c, now);
	}
	c->inv.pend_seq = 0;
}

/* the search's reply window is over: membership, then merge or wait */
static void inv_search_done(struct elec_core *c, u64 now)
{
	u32 i;

	c->inv.searching = false;
	inv_win_closed(c);
	inv_win_count_lost(c);
	for (i = 0; i < c->n_peers; i++) {
		struct elec_peer *p = &c->peers[i];

		if (!(p->flags & ELEC_INV_PEER_MEMBER))
			continue;
		if (p->flags & ELEC_INV_PEER_REPLIED) {
			p->misses = 0;
			continue;
		}
		if (p->misses < 0xffff)
			p->misses++;
		if (p->misses >= c->cfg.hb_miss) {
			p->flags &= ~ELEC_INV_PEER_MEMBER;
			elec_core_peer_set_alive(c, p, false, now);
			c->inv.dirty = true;
		}
	}
	/*
	 * Widened windows: a search that found (or heard) a higher
	 * coordinator doubles this node's search period, up to
	 * ELEC_INV_WIN_SHIFT_MAX times, and stops its prompted searches: the
	 * higher one will invite it, and N coordinators searching at once
	 * are N x (N - 1) answers. The highest coordinator keeps searching.
	 */
	if (c->inv.win_shift && c->inv.found_higher) {
		if (c->inv.quiet < ELEC_INV_WIN_SHIFT_MAX)
			c->inv.quiet++;
		u64 period = inv_search_ns(c) << c->inv.quiet;

		elec_core_arm(c, ELEC_INV_TIMER_SEARCH, c->inv.win_ns + period,
			      now);
	} else {
		c->inv.quiet = 0;
	}
	if (c->inv.found_lower && !c->inv.found_higher)
		inv_merge(c, now);
	else if (c->inv.dirty)
		inv_send_ready(c, now);
}

static void inv_start(struct elec_core *c, u64 now)
{
	/* the windows start at T, as the ring's hop timeout does */
	c->inv.win_shift = 0;
	c->inv.win_fast = 0;
	c->inv.quiet = 0;
	c->inv.merge_seq = 0;
	inv_form_group(c, now);
	/*
	 * A group of its own is no leader learned: until the first frame
	 * from a peer, take any number (a reloaded node joins a group whose
	 * numbers grew beyond ELECTION_TERM_MAX_AHEAD); inv_rx() ends it.
	 */
	c->learning = true;
}

static void inv_stop(struct elec_core *c, u64 now)
{
	(void)now;
	inv_clear_flags(c, ELEC_INV_PEER_MEMBER | ELEC_INV_PEER_FOUND |
			ELEC_INV_PEER_REPLIED | ELEC_INV_PEER_ACCEPTED |
			ELEC_INV_PEER_ANSWERED | ELEC_INV_PEER_ANSWERED_LAST);
	c->inv.searching = false;
	c->inv.dirty = false;
	c->inv.pend_seq = 0;
	c->inv.pend_coord = 0;
}

/*
 * The administrator's "elect": a coordinator searches now; a member
 * leaves its group and forms its own, as when its coordinator fails.
 */
static void inv_elect(struct elec_core *c, u64 now)
{
	if (c->phase == ELEC_INV_COORD)
		inv_search(c, now);
	else if (c->phase == ELEC_INV_MEMBER)
		inv_form_group(c, now);
}

/* a member's coordinator was silent for the watch: on its own again */
static void inv_silent(struct elec_core *c, u64 now)
{
	if (c->phase != ELEC_INV_MEMBER)
		return;
	elec_detect_suspect(c);
	elec_core_peer_set_alive(c, elec_core_peer_find(c, c->leader), false,
				 now);
	inv_form_group(c, now);
}

static void inv_timer(struct elec_core *c, enum elec_timer_id id, u64 now)
{
	switch (id) {
	case ELEC_TIMER_HEARTBEAT:
		if (c->phase == ELEC_INV_COORD || c->phase == ELEC_INV_MERGING)
			elec_core_lead(c, c->inv.seq, inv_heartbeats(c), now);
		break;
	case ELEC_INV_TIMER_SEARCH:
		if (c->phase == ELEC_INV_COORD && !c->inv.searching)
			inv_search(c, now);
		else if (c->phase == ELEC_INV_COORD ||
			 c->phase == ELEC_INV_MERGING)
			/* a search (or merge) is under way: the next period */
			elec_core_arm_in(c, ELEC_INV_TIMER_SEARCH,
					 inv_search_ns(c), now);
		break;
	case ELEC_INV_TIMER_REPLY:
		if (c->phase == ELEC_INV_COORD && c->inv.searching)
			inv_search_done(c, now);
		break;
	case ELEC_INV_TIMER_ACCEPT:
		if (c->phase == ELEC_INV_MERGING)
			inv_merge_done(c, now);
		else if (c->phase == ELEC_INV_ACCEPTED)
			inv_form_group(c, now);	/* no READY came */
		break;
	default:
		break;
	}
}

/*
 * A coordinator of another group was heard (its search or heartbeat): a
 * lower one makes a coordinator search at once; a higher one heard during
 * a search keeps it from merging (the higher one will).
 */
static void inv_heard_coord(struct elec_core *c, u32 id, u64 seq, u64 now)
{
	if (c->phase != ELEC_INV_COORD ||
	    (id == c->inv.coord && seq == c->inv.seq))
		return;
	if (id > c->cfg.self_id) {
		if (c->inv.searching)
			c->inv.found_higher = true;
		return;
	}
	/*
	 * Widened windows: the network is slow or loaded, and a search
	 * costs an answer from every node; the prompt waits until two
	 * windows after the last one opened (the search period's floor),
	 * and a node whose last search found a higher coordinator waits
	 * for its period (the higher one invites it).
	 */
	if (c->inv.win_shift &&
	    (c->inv.quiet || now - c->inv.win_ns < 2 * inv_win_ns(c)))
		return;
	if (!c->inv.searching && elec_core_rx_may_elect(c, now))
		inv_search(c, now);
}

static void inv_rx_ayc(struct elec_core *c, const struct elec_msg *msg,
		       u64 now)
{
	u8 pl[ELECTION_INV_REPLY_LEN];
	u32 coord = c->phase == ELEC_INV_ACCEPTED ? 0 : c->inv.coord;

	/*
	 * A node in standby between groups (coordinator 0) answers as the
	 * asker's member, never as a coordinator: the asker lists it in its
	 * next READY, which it joins
	 */
	if (c->phase == ELEC_INV_MEMBER && !coord)
		coord = msg->src;
	elec_put32(pl, coord);
	elec_put32(pl + 4, c->inv.mver);
	elec_core_send(c, ELEC_MSG_AYC_REPLY, msg->src, c->inv.seq, pl,
		       sizeof(pl), now);
	if (c->phase == ELEC_INV_MEMBER && msg->src == c->leader &&
	    msg->term == c->inv.seq) {
		inv_heard(c, now);
	}
	inv_heard_coord(c, msg->src, msg->term, now);
}

static void inv_rx_reply(struct elec_core *c, const struct elec_msg *msg,
			 u64 now)
{
	struct elec_peer *p = elec_core_peer_find(c, msg->src);
	u32 coord = elec_get32(msg->payload);

	if (c->phase != ELEC_INV_COORD && c->phase != ELEC_INV_MERGING)
		return;
	/*
	 * Every AYC_REPLY answers a search; outside a window it is late:
	 * the first one of a search widens the windows
	 */
	if (c->inv.searching) {
		c->inv.last_ans_ns = now;
		p->flags |= ELEC_INV_PEER_ANSWERED;
	} else if (!c->inv.late_reply) {
		c->inv.late_reply = true;
		inv_win_late(c);
	}
	if (coord == c->cfg.self_id) {
		/*
		 * One of ours, or one we dropped that still follows us, or
		 * one that missed the last READY (an older number or
		 * version): it is (again) a member and hears the membership.
		 */
		if (c->inv.searching)
			p->flags |= ELEC_INV_PEER_REPLIED;
		p->misses = 0;
		if (!(p->flags & ELEC_INV_PEER_MEMBER) ||
		    msg->term != c->inv.seq ||
		    elec_get32(msg->payload + 4) != c->inv.mver) {
			/*
			 * READY when the search's window (or the merge)
			 * ends: one per search, however many answers came
			 * (an answer outside a window, late or unasked,
			 * waits for the next one: no READY per frame)
			 */
			p->flags |= ELEC_INV_PEER_MEMBER;
			c->inv.dirty = true;
		}
		return;
	}
	if (coord && p->flags & ELEC_INV_PEER_MEMBER) {
		/*
		 * A member that now answers for another group has left. One
		 * between groups (0) may be joining this one (its AYC_REPLY
		 * overtook the READY): no answer this search, no more.
		 */
		p->flags &= ~ELEC_INV_PEER_MEMBER;
		c->inv.dirty = true;
	}
	if (!c->inv.searching || coord != msg->src ||
	    (p->flags & ELEC_INV_PEER_FOUND))
		return;	/* a member of another group, late, or twice */
	if (msg->src > c->cfg.self_id) {
		c->inv.found_higher = true;
		return;
	}
	p->flags |= ELEC_INV_PEER_FOUND;
	c->inv.found_lower++;
	if (msg->term > c->inv.found_seq)
		c->inv.found_seq = msg->term;
}

static bool inv_ids_have(const u8 *ids, u16 n, u32 id)
{
	u16 i;

	for (i = 0; i < n; i++)
		if (elec_get32(ids + 4 * i) == id)
			return true;
	return false;
}

static void inv_rx_invite(struct elec_core *c, const struct elec_msg *msg,
			  u64 now)
{
	const u8 *pl = msg->payload;
	u32 coord = elec_get32(pl);
	u16 n = elec_get16(pl + 4);
	const u8 *ids = pl + ELECTION_INV_INVITE_HDR_LEN;
	u32 mine = c->inv.coord;

	if (c->phase != ELEC_INV_COORD && c->phase != ELEC_INV_MEMBER)
		return;	/* merging, or committed to an invitation already */
	/*
	 * From the new coordinator itself, or relayed to a member by its
	 * own coordinator: no other peer moves a node out of its group
	 */
	if (msg->src != coord &&
	    (c->phase != ELEC_INV_MEMBER || msg->src != mine))
		return;
	if (!inv_ids_have(ids, n, mine) || coord <= mine ||
	    msg->term <= c->inv.seq || !elec_core_peer_find(c, coord))
		return;
	elec_core_send(c, ELEC_MSG_ACCEPT, coord, msg->term, NULL, 0, now);
	if (c->phase == ELEC_INV_COORD) {
		/*
		 * relay to the members: they move with their coordinator
		 * (and wait for READY as long as the new coordinator said)
		 */
		elec_put32(c->inv.buf + ELECTION_INV_INVITE_HDR_LEN,
			   c->cfg.self_id);
		inv_send_invite(c, msg->term, coord, 1, pl[6], now);
	}
	inv_cancel_all(c, now);
	c->inv.searching = false;
	c->inv.pend_seq = msg->term;
	c->inv.pend_coord = coord;
	c->phase = ELEC_INV_ACCEPTED;
	c->role = ELEC_ROLE_CANDIDATE;
	c->participant = true;
	/* the new group's windows, as its coordinator measured them */
	if (pl[6] > c->inv.win_shift) {
		c->inv.win_shift = pl[6];
		c->inv.win_fast = 0;
	}
	elec_core_set_leader(c, 0, c->term, now);
	elec_core_arm_in(c, ELEC_INV_TIMER_ACCEPT, inv_ready_wait_ns(c, pl[6]),
			 now);
}

static void inv_rx_accept(struct elec_core *c, const struct elec_msg *msg,
			  u64 now)
{
	struct elec_peer *p = elec_core_peer_find(c, msg->src);

	if (c->phase == ELEC_INV_MERGING && msg->term == c->inv.pend_seq) {
		p->flags |= ELEC_INV_PEER_ACCEPTED;
		c->inv.last_ans_ns = now;
	} else if (c->inv.merge_seq && msg->term == c->inv.merge_seq &&
		   !c->inv.late_accept) {
		/* the last merge's accept window closed before it came */
		c->inv.late_accept = true;
		inv_win_late(c);
	}
}

/* READY from @msg->src: adopt its membership list */
static void inv_take_members(struct elec_core *c, const struct elec_msg *msg)
{
	const u8 *ids = msg->payload + ELECTION_INV_READY_HDR_LEN;
	u16 n = elec_get16(msg->payload), j = 0;
	u32 i;

	c->inv.mver = elec_get32(msg->payload + 4);
	/* both ascending (the peer table; the codec checked the ids) */
	for (i = 0; i < c->n_peers; i++) {
		struct elec_peer *p = &c->peers[i];

		while (j < n && elec_get32(ids + 4 * j) < p->id)
			j++;
		if (p->id == msg->src ||
		    (j < n && elec_get32(ids + 4 * j) == p->id))
			p->flags |= ELEC_INV_PEER_MEMBER;
		else
			p->flags &= ~ELEC_INV_PEER_MEMBER;
	}
}

static void inv_rx_ready(struct elec_core *c, const struct elec_msg *msg,
			 u64 now)
{
	const u8 *ids = msg->payload + ELECTION_INV_READY_HDR_LEN;
	bool listed = inv_ids_have(ids, elec_get16(msg->payload),
				   c->cfg.self_id);
	bool pending = c->phase == ELEC_INV_ACCEPTED &&
		       msg->src == c->inv.pend_coord &&
		       msg->term == c->inv.pend_seq;

	/*
	 * In standby, a member (or a node between groups: coordinator 0)
	 * listed by a higher coordinator joins it: the group of a search it
	 * answered between groups (inv_rx_ayc()), which took its answer for
	 * a member's; or it joined a lower group whose merge into that one
	 * it missed (the relayed INVITE came before the lower READY).
	 */
	if (pending || (listed && c->phase == ELEC_INV_MEMBER &&
			elec_core_standby(c) && msg->src > c->inv.coord)) {
		if (!listed) {
			inv_form_group(c, now);
			return;
		}
		inv_join(c, msg->term, msg->src, now);
		inv_take_members(c, msg);
		return;
	}
	if (c->phase != ELEC_INV_MEMBER || msg->src != c->leader ||
	    msg->term < c->inv.seq)
		return;
	if (!listed) {
		inv_form_group(c, now);	/* left out: on its own again */
		return;
	}
	if (msg->term > c->inv.seq)
		inv_set_group(c, msg->term, msg->src, now);
	inv_take_members(c, msg);
	inv_heard(c, now);
}

static void inv_rx_heartbeat(struct elec_core *c, const struct elec_msg *msg,
			     u64 now)
{
	if (c->phase == ELEC_INV_MEMBER && msg->src == c->leader &&
	    msg->term >= c->inv.seq) {
		if (msg->flags & ELECTION_FLAG_LEAVING) {
			elec_core_peer_set_alive(c,
						 elec_core_peer_find(c, msg->src),
						 false, now);
			inv_form_group(c, now);
			return;
		}
		if (msg->term > c->inv.seq)
			inv_set_group(c, msg->term, msg->src, now);
		inv_heard(c, now);
		return;
	}
	if (!(msg->flags & ELECTION_FLAG_LEAVING)) {
		inv_heard_coord(c, msg->src, msg->term, now);
	} else if (c->phase == ELEC_INV_ACCEPTED &&
		   msg->src == c->inv.pend_coord) {
		/* the merging coordinator left: no READY will come */
		inv_form_group(c, now);
	}
}

static void inv_rx(struct elec_core *c, const struct elec_msg *msg, u64 now)
{
	if (msg->term > c->max_term)
		c->max_term = msg->term;
	c->learning = false;	/* the group's numbers are known now */
	if (msg->type != ELEC_MSG_HEARTBEAT || !(msg->flags &
						 ELECTION_FLAG_LEAVING))
		elec_core_peer_set_alive(c, elec_core_peer_find(c, msg->src),
					 true, now);

	switch (msg->type) {
	case ELEC_MSG_ARE_YOU_COORD:
		inv_rx_ayc(c, msg, now);
		break;
	case ELEC_MSG_AYC_REPLY:
		inv_rx_reply(c, msg, now);
		break;
	case ELEC_MSG_INVITE:
		inv_rx_invite(c, msg, now);
		break;
	case ELEC_MSG_ACCEPT:
		inv_rx_accept(c, msg, now);
		break;
	case ELEC_MSG_READY:
		inv_rx_ready(c, msg, now);
		break;
	case ELEC_MSG_HEARTBEAT:
		inv_rx_heartbeat(c, msg, now);
		break;
	default:
		break;
	}
}

/*
 * A peer leaves the table: it leaves the membership; a node whose
 * coordinator (or the one whose READY it waits for) is removed forms its
 * own group.
 */
static void inv_peer_removed(struct elec_core *c, struct elec_peer *peer,
			     u64 now)
{
	if (!c->running)
		return;
	if ((c->phase == ELEC_INV_MEMBER && peer->id == c->leader) ||
	    (c->phase == ELEC_INV_ACCEPTED && peer->id == c->inv.pend_coord)) {
		peer->flags = 0;
		inv_form_group(c, now);
		return;
	}
	/* a coordinator the current search found: not to be invited */
	if (peer->flags & ELEC_INV_PEER_FOUND && c->inv.found_lower)
		c->inv.found_lower--;
	if (peer->flags & ELEC_INV_PEER_MEMBER && c->phase == ELEC_INV_COORD) {
		peer->flags = 0;
		inv_send_ready(c, now);
	} else if (peer->flags & ELEC_INV_PEER_MEMBER &&
		   c->phase == ELEC_INV_MERGING) {
		c->inv.dirty = true;	/* READY when the merge ends */
	}
	peer->flags = 0;
}

/*
 * Standby on: a coordinator (it has resigned: elec_core_standby_sync()
 * sent the LEAVING heartbeat on which its members, and the nodes that
 * accepted its merge, leave) dissolves its group and is between
 * groups (inv_form_group()); a member stays in its group, a node that
 * accepted an invitation still joins. Standby off: a node between
 * groups, or in (or joining) the group of a lower coordinator, forms its
 * own group as a recovered node does; the priority rule then merges the
 * lower groups into it, or it into a higher one.
 */
static void inv_standby(struct elec_core *c, u64 now)
{
	u32 coord = c->phase == ELEC_INV_ACCEPTED ? c->inv.pend_coord :
		    c->inv.coord;

	if (elec_core_standby(c) ? coord == c->cfg.self_id :
	    coord < c->cfg.self_id)
		inv_form_group(c, now);
}

/* strictly ascending non-zero be32 ids */
static bool inv_ids_ok(const u8 *ids, u16 n)
{
	u32 prev = 0;
	u16 i;

	for (i = 0; i < n; i++) {
		u32 id = elec_get32(ids + 4 * i);

		if (id <= prev)
			return false;
		prev = id;
	}
	return true;
}

static bool inv_payload_ok(u8 type, const u8 *payload, u16 len)
{
	u16 n;

	switch (type) {
	case ELEC_MSG_HEARTBEAT:
	case ELEC_MSG_ARE_YOU_COORD:
	case ELEC_MSG_ACCEPT:
		return len == 0;
	case ELEC_MSG_AYC_REPLY:
		return len == ELECTION_INV_REPLY_LEN;
	case ELEC_MSG_INVITE:
		/* payload[6]: the accept window's shift */
		if (len < ELECTION_INV_INVITE_HDR_LEN || !elec_get32(payload) ||
		    payload[6] > ELEC_INV_WIN_SHIFT_MAX || payload[7])
			return false;
		n = elec_get16(payload + 4);
		return n >= 1 && n <= ELECTION_INV_MAX_IDS &&
		       len == ELECTION_INV_INVITE_HDR_LEN + 4 * n &&
		       inv_ids_ok(payload + ELECTION_INV_INVITE_HDR_LEN, n);
	case ELEC_MSG_READY:
		if (len < ELECTION_INV_READY_HDR_LEN || payload[2] ||
		    payload[3])
			return false;
		n = elec_get16(payload);
		return n <= ELECTION_INV_MAX_IDS &&
		       len == ELECTION_INV_READY_HDR_LEN + 4 * n &&
		       inv_ids_ok(payload + ELECTION_INV_READY_HDR_LEN, n);
	default:
		return false;
	}
}

static u32 inv_max_payload(u32 n_nodes)
{
	u32 ids = n_nodes > 1 ? n_nodes - 1 : 1;

	if (ids > ELECTION_INV_MAX_IDS)
		ids = ELECTION_INV_MAX_IDS;
	return ELECTION_INV_INVITE_HDR_LEN + 4 * ids;
}

/* a new timeout: the reply and accept windows are T again */
static void inv_config_changed(struct elec_core *c,
			       const struct elec_config *cfg)
{
	if (cfg->timeout_ns == c->cfg.timeout_ns &&
	    cfg->timeout_auto == c->cfg.timeout_auto)
		return;
	c->inv.win_shift = 0;
	c->inv.win_fast = 0;
}

/* GROUP_GET: the group number the node is in */
static u32 inv_info(const struct elec_core *c, struct elec_info *info)
{
	info[0].attr = ELEC_ATTR_INV_SEQ;
	info[0].width = sizeof(u64);
	info[0].value = c->inv.seq;
	info[1].attr = ELEC_ATTR_INV_COORDINATOR;
	info[1].width = sizeof(u32);
	info[1].value = c->inv.coord;
	return 2;
}

/* GROUP_GET: whether the peer is in the local node's group */
static u32 inv_peer_info(const struct elec_peer *p, struct elec_info *info)
{
	info[0].attr = ELEC_ATTR_PEER_MEMBER;
	info[0].width = sizeof(u8);
	info[0].value = !!(p->flags & ELEC_INV_PEER_MEMBER);
	return 1;
}

/* the invitation table, registered in core.c's elec_algos[] */
const struct elec_algo_ops elec_invitation_ops = {
	.algo		= ELEC_ALGO_INVITATION,
	.name		= "invitation",
	.msgs		= ELEC_MSGS_INVITATION,
	.rtt_asks	= ELEC_RTT_ASKS_INVITATION,
	.rtt_replies	= ELEC_RTT_REPLIES_INVITATION,
	.options	= ELEC_OPT_BIT(ELEC_OPT_SEARCH_INTERVAL),
	.start		= inv_start,
	.stop		= inv_stop,
	.elect		= inv_elect,
	.rx		= inv_rx,
	.timer		= inv_timer,
	.silent		= inv_silent,
	.peer_removed	= inv_peer_removed,
	.config_changed	= inv_config_changed,
	.info		= inv_info,
	.peer_info	= inv_peer_info,
	.standby	= inv_standby,
	.payload_ok	= inv_payload_ok,
	.max_payload	= inv_max_payload,
	.timer_names	= inv_timer_names,
	.wait_timers	= ELEC_INV_WAIT_TIMERS,
};
