// SPDX-License-Identifier: GPL-2.0
/*
 * The sans-IO protocol core: algorithm registry, configuration checks,
 * instance life cycle, the peer table, the generic receive checks and the
 * helpers that algorithms use to emit actions (the timer input is
 * timers.c's).
 *
 * Nothing here allocates, sleeps or locks: the embedder owns the memory and
 * serialises the calls on one instance (see core.h).
 */
#include "bully.h"
#include "invitation.h"
#include "ring.h"
#include "rtt.h"

static void elec_core_emit_msg(struct elec_core *c, u8 type, u8 counted,
			       u8 flags, u32 dst, u64 term, const u8 *payload,
			       u16 len, u64 now);

/* every algorithm, NULL-terminated */
static const struct elec_algo_ops *const elec_algos[] = {
	&elec_bully.ops,
	&elec_ring_cr.ops,
	&elec_ring_all.ops,
	&elec_ring_list.ops,
	&elec_min_bully.ops,
	&elec_enh_bully.ops,
	&elec_invitation_ops,
	NULL
};

/**
 * elec_algo_ops_valid() - whether an algorithm table is complete.
 * @ops: the table
 *
 * Return: true when @ops names a valid algorithm number and a name and has
 * every required op (see struct elec_algo_ops).
 */
bool elec_algo_ops_valid(const struct elec_algo_ops *ops)
{
	if (!ops || !ops->name || !ops->name[0])
		return false;
	if (!ops->algo || ops->algo > ELEC_ALGO_MAX)
		return false;
	return ops->start && ops->stop && ops->elect && ops->rx && ops->timer &&
	       ops->silent && ops->standby;
}

/**
 * elec_algo_find() - look up an algorithm by number.
 * @algo: enum elec_algo value
 *
 * Return: the algorithm's complete ops table, or NULL when the number is
 * unknown or its table is incomplete.
 */
const struct elec_algo_ops *elec_algo_find(u8 algo)
{
	size_t i;

	for (i = 0; elec_algos[i]; i++) {
		const struct elec_algo_ops *ops = elec_algos[i];

		if (ops->algo == algo)
			return elec_algo_ops_valid(ops) ? ops : NULL;
	}
	return NULL;
}

/**
 * elec_algo_find_name() - look up an algorithm by name.
 * @name: name as electionctl spells it, e.g. "bully"; may be NULL
 *
 * Return: the algorithm's complete ops table, or NULL when the name is
 * unknown or its table is incomplete.
 */
const struct elec_algo_ops *elec_algo_find_name(const char *name)
{
	size_t i;

	if (!name)
		return NULL;
	for (i = 0; elec_algos[i]; i++) {
		const struct elec_algo_ops *ops = elec_algos[i];

		if (ops->name && !strcmp(ops->name, name))
			return elec_algo_ops_valid(ops) ? ops : NULL;
	}
	return NULL;
}

/**
 * elec_algo_better() - whether one node id beats another in an election.
 * @ops: the algorithm
 * @a: a node id
 * @b: another node id, or 0 (none: every id beats it)
 *
 * Return: true when @a is non-zero and the algorithm prefers @a to @b as
 * its leader: the lower id for an algorithm whose @lowest_wins is set,
 * else the higher.
 */
bool elec_algo_better(const struct elec_algo_ops *ops, u32 a, u32 b)
{
	if (!a)
		return false;
	if (!b)
		return true;
	return ops->lowest_wins ? a < b : a > b;
}

/*
 * quorum on: the lease, hb-interval x (hb-miss - 1) - T, must outlast one
 * beacon period and its jitter, hb-interval + T / 2 (quorum.h)
 */
static bool elec_quorum_timing_ok(const struct elec_config *cfg)
{
	return cfg->hb_miss >= 3 &&
	       2 * cfg->hb_interval_ns * (cfg->hb_miss - 2) >
	       3 * cfg->timeout_ns;
}

/* the timing rules between options, once each is in its range */
static const char *elec_config_check_timing(const struct elec_config *cfg)
{
	if (cfg->quorum && !elec_quorum_timing_ok(cfg))
		return "quorum needs hb-interval x (hb-miss - 2) above 1.5 x timeout";
	if (cfg->detector_max_ns &&
	    cfg->detector_max_ns / ELECTION_DETECTOR_FLOOR_MISS <
	    cfg->hb_interval_ns)
		return "detector-max may not be below 2 x hb-interval";
	return NULL;
}

/**
 * elec_config_check() - validate a configuration.
 * @cfg: the configuration
 * @why: if not NULL, set to a human-readable reason on failure (suitable
 *	for a netlink extack message); untouched on success
 *
 * Checks the node and group ids (0 is reserved), the algorithm, every
 * option of options-list.h (elec_config_check_options(): its range, and
 * its default where the algorithm does not take it), that quorum's
 * lease outlasts a beacon period, and that detector-max is no shorter
 * than the adaptive detector's floor (two heartbeat intervals).
 *
 * Return: 0 if valid, -EINVAL otherwise.
 */
int elec_config_check(const struct elec_config *cfg, const char **why)
{
	const char *reason = NULL;

	if (!cfg)
		reason = "missing configuration";
	else if (!cfg->self_id)
		reason = "node id 0 is reserved";
	else if (!cfg->group)
		reason = "group id 0 is reserved";
	else if (!elec_algo_find(cfg->algo))
		reason = "unknown algorithm";
	else if (!elec_config_check_options(cfg, &reason))
		reason = elec_config_check_timing(cfg);

	if (!reason)
		return 0;
	if (why)
		*why = reason;
	return -EINVAL;
}

/**
 * elec_config_coord_timeout() - the effective coord-timeout.
 * @cfg: a configuration
 *
 * Return: @cfg->coord_timeout_ns if set, else ELECTION_DEF_COORD_TIMEOUT_MULT
 * times @cfg->timeout_ns, at most ELECTION_DUR_MAX_NS.
 */
u64 elec_config_coord_timeout(const struct elec_config *cfg)
{
	u64 ns;

	if (cfg->coord_timeout_ns)
		return cfg->coord_timeout_ns;
	ns = cfg->timeout_ns * ELECTION_DEF_COORD_TIMEOUT_MULT;
	return ns > ELECTION_DUR_MAX_NS ? ELECTION_DUR_MAX_NS : ns;
}

/**
 * elec_core_init() - initialise a stopped instance.
 * @c: the instance (any content; fully overwritten on success)
 * @cfg: its configuration, copied
 * @peer_buf: embedder-owned array of @max_peers peers, used as the table
 * @max_peers: capacity of @peer_buf
 * @sink: where actions go, copied; @sink->emit must be set
 *
 * Return: 0, or -EINVAL for an invalid configuration, a NULL sink or a
 * missing peer array (@c is then left untouched).
 */
int elec_core_init(struct elec_core *c, const struct elec_config *cfg,
		   struct elec_peer *peer_buf, u32 max_peers,
		   const struct elec_sink *sink)
{
	if (!c || elec_config_check(cfg, NULL))
		return -EINVAL;
	if (!sink || !sink->emit || (max_peers && !peer_buf))
		return -EINVAL;

	memset(c, 0, sizeof(*c));
	c->cfg = *cfg;
	c->ops = elec_algo_find(cfg->algo);
	c->sink = *sink;
	c->peers = peer_buf;
	c->max_peers = max_peers;
	c->role = ELEC_ROLE_STOPPED;
	return 0;
}

/**
 * elec_core_set_queue() - give an instance its queue memory.
 * @c: the instance, initialised, not running
 * @buf: embedder-owned memory, 8-byte aligned, for as long as @c lives
 * @cap: its size in bytes (the algorithm's &elec_algo_ops.queue_bytes in
 *	the kernel)
 *
 * The ring algorithms keep each message they must pass on here until the
 * successor acknowledges it; without a queue (or when it is full) a ring
 * message that must be passed on is dropped and counted. An algorithm
 * without a queue (no &elec_algo_ops.set_queue) ignores the call.
 */
void elec_core_set_queue(struct elec_core *c, void *buf, u32 cap)
{
	if (c->ops->set_queue)
		c->ops->set_queue(c, buf, cap);
}

/*
 * Forget every peer's history of heartbeat arrivals (the adaptive
 * detector's estimates, detect_adaptive.c): after a change of the
 * heartbeat timing or the detector (a new interval makes the old gaps
 * wrong), or a start, each starts again from the next arrivals.
 */
static void elec_core_forget_arrivals(struct elec_core *c)
{
	u32 i;

	for (i = 0; c->est && i < c->n_peers; i++) {
		c->est[i].hb_rx_ns = 0;
		c->est[i].gap_ns = 0;
		c->est[i].gap_dev_ns = 0;
	}
}

/* a start: no request of the last run is outstanding, no arrival recent */
static void elec_core_forget_outstanding(struct elec_core *c)
{
	u32 i;

	elec_core_forget_arrivals(c);
	for (i = 0; c->est && i < c->n_peers; i++) {
		c->est[i].req_tx_ns = 0;
		c->est[i].req_n = 0;
		c->est[i].req_amb = 0;
	}
}

/*
 * Forget every peer's round trips: measuring resumes after a time
 * without (a configuration that needed no estimates), when what was
 * measured before may be long out of date.
 */
static void elec_core_forget_rtt(struct elec_core *c)
{
	u32 i;

	elec_core_forget_outstanding(c);
	for (i = 0; c->est && i < c->n_peers; i++) {
		c->est[i].srtt_ns = 0;
		c->est[i].rttvar_ns = 0;
	}
}

/**
 * elec_config_needs_est() - whether a configuration estimates its peers.
 * @cfg: the configuration
 *
 * Return: true with the adaptive detector or timeout-auto on: the
 * embedder then gives the instance the memory (elec_core_set_est()).
 */
bool elec_config_needs_est(const struct elec_config *cfg)
{
	return cfg->detector == ELECTION_DETECTOR_ADAPTIVE || cfg->timeout_auto;
}

/**
 * elec_core_set_est() - give an instance the memory of its estimates.
 * @c: the instance, initialised
 * @est: embedder-owned, zeroed, @c->max_peers entries, for as long as @c
 *	lives (or until replaced); NULL to go without
 *
 * The entries follow the peer table from then on (peer add and delete
 * move them with the peers); those of the peers already there start
 * empty.
 */
void elec_core_set_est(struct elec_core *c, struct elec_peer_est *est)
{
	c->est = est;
}

/**
 * elec_core_est() - a peer's estimates.
 * @c: the instance
 * @p: a peer of its table, or NULL
 *
 * Return: its entry, or NULL without @p or without estimates.
 */
struct elec_peer_est *elec_core_est(const struct elec_core *c,
				    const struct elec_peer *p)
{
	if (!c->est || !p)
		return NULL;
	return &c->est[p - c->peers];
}

/**
 * elec_core_set_config() - change the timing parameters of an instance.
 * @c: the instance
 * @cfg: the new configuration; node id, group, algorithm, position and
 *	the suppress option must equal the current ones
 * @why: if not NULL, set to a human-readable reason on failure
 *
 * The new values apply from the next time a timer is armed or the option
 * is consulted; timers already armed keep their expiry. A new
 * heartbeat timing or detector makes the adaptive detector forget the
 * arrivals it estimated windows from, and the algorithm forgets what it
 * adapted to the old values
 * (&elec_algo_ops.config_changed: a new timeout resets the rings' hop
 * timeout, the Bully algorithms' wait for answers and the Invitation
 * algorithm's reply and accept windows to it). Nothing is emitted.
 *
 * Return: 0, or -EINVAL (the instance is then unchanged).
 */
int elec_core_set_config(struct elec_core *c, const struct elec_config *cfg,
			 const char **why)
{
	int err = elec_config_check(cfg, why);
	int o;

	if (err)
		return err;
	if (cfg->self_id != c->cfg.self_id || cfg->group != c->cfg.group ||
	    cfg->algo != c->cfg.algo) {
		if (why)
			*why = "node id, group and algorithm cannot be changed";
		return -EINVAL;
	}
	/* the options group add sets once (ELEC_OPTF_SET not given) */
	for (o = 0; o < ELEC_OPT_COUNT; o++) {
		if (elec_opts[o].flags & ELEC_OPTF_SET ||
		    elec_opt_get(cfg, o) == elec_opt_get(&c->cfg, o))
			continue;
		if (why)
			*why = elec_opt_fixed[o];
		return -EINVAL;
	}
	if (cfg->quorum != c->cfg.quorum && c->running) {
		if (why)
			*why = "quorum can be changed only while the group is stopped";
		return -EBUSY;
	}
	if (c->ops->config_changed)
		c->ops->config_changed(c, cfg);
	if (elec_config_needs_est(cfg) && !elec_config_needs_est(&c->cfg))
		elec_core_forget_rtt(c);
	if (cfg->hb_interval_ns != c->cfg.hb_interval_ns ||
	    cfg->hb_miss != c->cfg.hb_miss || cfg->detector != c->cfg.detector ||
	    cfg->detector_margin_ns != c->cfg.detector_margin_ns ||
	    cfg->detector_max_ns != c->cfg.detector_max_ns)
		elec_core_forget_arrivals(c);
	c->cfg = *cfg;
	return 0;
}

/**
 * elec_core_start() - start an instance: learn, then elect.
 * @c: the instance
 * @now: current time, ns
 *
 * Does nothing if the instance is already running.
 */
void elec_core_start(struct elec_core *c, u64 now)
{
	if (c->running)
		return;
	c->running = true;
	c->learning = true;
	c->standby = c->cfg.standby || c->cfg.standby_tracked;
	c->participant = false;
	c->leader = 0;
	c->suspect = 0;
	elec_core_forget_outstanding(c);
	c->ops->start(c, now);
}

/**
 * elec_core_stop() - stop an instance.
 * @c: the instance
 * @now: current time, ns
 *
 * Lets the algorithm clean up, cancels every armed timer, sets role
 * stopped and leader none, and reports ELEC_EVENT_STOPPED. Term, peers and
 * counters are kept. Does nothing if the instance is not running.
 */
void elec_core_stop(struct elec_core *c, u64 now)
{
	int id;

	if (!c->running)
		return;
	c->ops->stop(c, now);
	for (id = 0; id < ELEC_TIMER_COUNT; id++)
		elec_core_cancel(c, id, now);
	c->running = false;
	c->role = ELEC_ROLE_STOPPED;
	c->phase = 0;
	c->leader = 0;
	c->suspect = 0;
	c->participant = false;
	elec_core_event(c, ELEC_EVENT_STOPPED, 0, now);
}

/**
 * elec_core_resign() - a leader stops on purpose: tell its followers.
 * @c: the instance
 * @now: current time, ns
 *
 * When the local node leads, broadcasts a HEARTBEAT flagged
 * ELECTION_FLAG_LEAVING at its term, so the followers elect a successor at
 * once instead of waiting out the detection window. Changes no state: the
 * embedder calls elec_core_stop() next. Does nothing on a node that is
 * not running or not the leader. A crash sends nothing: only planned
 * stops call this.
 */
void elec_core_resign(struct elec_core *c, u64 now)
{
	if (!c->running || c->role != ELEC_ROLE_LEADER ||
	    c->leader != c->cfg.self_id)
		return;
	elec_core_emit_msg(c, ELEC_MSG_HEARTBEAT, ELEC_MSG_HEARTBEAT,
			   ELECTION_FLAG_LEAVING, 0, c->term, NULL, 0, now);
}

/**
 * elec_core_standby_sync() - apply the configuration's standby.
 * @c: the instance
 * @now: current time, ns
 *
 * Call after elec_core_set_config(), which changes no state: when admin
 * or tracked standby (either one) now differs from the standby in effect
 * on a running instance, the node enters or leaves standby. A leader
 * entering standby resigns at once, as a planned stop does
 * (elec_core_resign(): its followers elect a successor without waiting
 * out the detection window), then follows nobody; the algorithm leaves
 * any candidacy of its own (&elec_algo_ops.standby). A node leaving
 * standby becomes a candidate again: it elects when it follows nobody,
 * and takes over from a worse leader as preemption allows. A stopped
 * instance takes standby from its configuration when it starts.
 */
void elec_core_standby_sync(struct elec_core *c, u64 now)
{
	bool on = c->cfg.standby || c->cfg.standby_tracked;

	if (!c->running || on == c->standby)
		return;
	c->standby = on;
	if (on && c->role == ELEC_ROLE_LEADER && c->leader == c->cfg.self_id)
		elec_core_resign(c, now);
	c->ops->standby(c, now);
}

/**
 * elec_core_elect() - the administrator asks for an election now.
 * @c: the instance
 * @now: current time, ns
 *
 * Does nothing if the instance is not running.
 */
void elec_core_elect(struct elec_core *c, u64 now)
{
	if (c->running)
		c->ops->elect(c, now);
}

/*
 * Index of the first peer whose id is >= @id (binary search over the
 * sorted table); c->n_peers if there is none. Ids are usually dense (1..N
 * with the local one missing), so the index @id has then is tried first:
 * when it holds @id, or @id falls between it and the one before (the
 * local id, an add at the end), that is the answer the search would give,
 * in O(1).
 */
static u32 elec_peer_lower_bound(const struct elec_core *c, u32 id)
{
	const struct elec_peer *t = c->peers;
	u32 lo = 0, hi = c->n_peers, self = c->cfg.self_id;
	u32 g = id - c->peer_id_lo;

	if (id > self && self > c->peer_id_lo)
		g--;
	if (g < hi && t[g].id == id)
		return g;
	if (g > hi)
		g = hi;
	if ((!g || t[g - 1].id < id) && (g == hi || t[g].id >= id))
		return g;

	while (lo < hi) {
		u32 mid = lo + (hi - lo) / 2;

		if (t[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* ring order (position, id): @a before @b */
static bool elec_peer_ring_lt(const struct elec_peer *a,
			      const struct elec_peer *b)
{
	u32 pa = elec_peer_pos(a), pb = elec_peer_pos(b);

	return pa < pb || (pa == pb && a->id < b->id);
}

/* 1 when peers @i and @i + 1 (both in the table) are out of ring order */
static u32 elec_peer_pair_unordered(const struct elec_core *c, u32 i)
{
	return elec_peer_ring_lt(&c->peers[i + 1], &c->peers[i]);
}

/**
 * elec_core_peer_index() - where an id is or would be in the peer table.
 * @c: the instance
 * @id: node id
 *
 * Return: the index of the first peer whose id is not below @id
 * (@c->n_peers when there is none): O(1) for dense ids.
 */
u32 elec_core_peer_index(const struct elec_core *c, u32 id)
{
	return elec_peer_lower_bound(c, id);
}

/**
 * elec_core_peer_find() - look up a peer by id.
 * @c: the instance
 * @id: node id
 *
 * Return: the peer, or NULL. The pointer is valid until the next peer add
 * or delete.
 */
struct elec_peer *elec_core_peer_find(struct elec_core *c, u32 id)
{
	u32 i = elec_peer_lower_bound(c, id);

	if (i < c->n_peers && c->peers[i].id == id)
		return &c->peers[i];
	return NULL;
}

/**
 * elec_core_peer_add() - add a peer to the table (kept sorted by id).
 * @c: the instance
 * @id: node id of the peer
 * @lladdr: its link-layer address (copied), or NULL for all zeroes
 *
 * The peer starts alive. Never starts an election and emits nothing.
 *
 * Return: 0; -EINVAL for id 0 or the local id; -EEXIST if the id is
 * already a peer; -ENOSPC if the table is full.
 */
int elec_core_peer_add(struct elec_core *c, u32 id,
		       const u8 lladdr[ELEC_LLADDR_LEN])
{
	return elec_core_peer_add_pos(c, id, lladdr, 0);
}

/**
 * elec_core_peer_add_pos() - add a peer with a ring position.
 * @c: the instance
 * @id: node id of the peer
 * @lladdr: its link-layer address (copied), or NULL for all zeroes
 * @pos: its ring position; 0 means its id
 *
 * As elec_core_peer_add(); the ring order is ascending (position, id).
 *
 * Return: as elec_core_peer_add().
 */
int elec_core_peer_add_pos(struct elec_core *c, u32 id,
			   const u8 lladdr[ELEC_LLADDR_LEN], u32 pos)
{
	struct elec_peer *p;
	u32 i;

	if (!id || id == c->cfg.self_id)
		return -EINVAL;
	i = elec_peer_lower_bound(c, id);
	if (i < c->n_peers && c->peers[i].id == id)
		return -EEXIST;
	if (c->n_peers >= c->max_peers)
		return -ENOSPC;

	/* the pair the new peer splits is one no more */
	if (i && i < c->n_peers)
		c->peers_unordered -= elec_peer_pair_unordered(c, i - 1);
	memmove(&c->peers[i + 1], &c->peers[i],
		(c->n_peers - i) * sizeof(c->peers[0]));
	if (c->est) {
		memmove(&c->est[i + 1], &c->est[i],
			(c->n_peers - i) * sizeof(c->est[0]));
		memset(&c->est[i], 0, sizeof(c->est[0]));
	}
	if (c->auth.rx) {
		memmove(&c->auth.rx[i + 1], &c->auth.rx[i],
			(c->n_peers - i) * sizeof(c->auth.rx[0]));
		memset(&c->auth.rx[i], 0, sizeof(c->auth.rx[0]));
	}
	c->n_peers++;
	p = &c->peers[i];
	memset(p, 0, sizeof(*p));
	p->id = id;
	p->pos = pos;
	if (lladdr)
		memcpy(p->lladdr, lladdr, ELEC_LLADDR_LEN);
	p->alive = 1;
	if (i)
		c->peers_unordered += elec_peer_pair_unordered(c, i - 1);
	if (i + 1 < c->n_peers)
		c->peers_unordered += elec_peer_pair_unordered(c, i);
	c->peer_id_lo = c->peers[0].id;
	return 0;
}

/**
 * elec_core_peer_del() - remove a peer from the table.
 * @c: the instance
 * @id: node id of the peer
 * @now: current time, ns
 *
 * Calls the algorithm's @peer_removed first, if any. Never starts an
 * election: if the peer was the leader, its frames now count as unknown
 * peer drops and the failure detector takes it from there.
 *
 * Return: 0, or -ENOENT if @id is not a peer.
 */
int elec_core_peer_del(struct elec_core *c, u32 id, u64 now)
{
	u32 i = elec_peer_lower_bound(c, id);

	if (i >= c->n_peers || c->peers[i].id != id)
		return -ENOENT;
	if (c->ops->peer_removed)
		c->ops->peer_removed(c, &c->peers[i], now);
	if (i)
		c->peers_unordered -= elec_peer_pair_unordered(c, i - 1);
	if (i + 1 < c->n_peers)
		c->peers_unordered -= elec_peer_pair_unordered(c, i);
	memmove(&c->peers[i], &c->peers[i + 1],
		(c->n_peers - i - 1) * sizeof(c->peers[0]));
	if (c->auth.rx)
		memmove(&c->auth.rx[i], &c->auth.rx[i + 1],
			(c->n_peers - i - 1) * sizeof(c->auth.rx[0]));
	if (c->est)
		memmove(&c->est[i], &c->est[i + 1],
			(c->n_peers - i - 1) * sizeof(c->est[0]));
	c->n_peers--;
	/* its neighbours are a pair now */
	if (i && i < c->n_peers)
		c->peers_unordered += elec_peer_pair_unordered(c, i - 1);
	c->peer_id_lo = c->n_peers ? c->peers[0].id : 0;
	return 0;
}

/**
 * elec_config_max_frame() - the largest frame a group sends.
 * @cfg: the instance's configuration
 * @n_nodes: nodes in the group, the local one included
 *
 * Return: bytes after the Ethernet header (our header and the largest
 * payload of the algorithm in a group of @n_nodes, ALIVE's with quorum
 * on); 0 for an unknown algorithm.
 */
u32 elec_config_max_frame(const struct elec_config *cfg, u32 n_nodes)
{
	const struct elec_algo_ops *ops = elec_algo_find(cfg->algo);
	u32 pl;

	if (!ops)
		return 0;
	pl = ops->max_payload ? ops->max_payload(n_nodes) : 0;
	/* quorum on: the Bully algorithms' ALIVE too */
	if (cfg->quorum && pl < ELECTION_ALIVE_LEN)
		pl = ELECTION_ALIVE_LEN;
	return ELECTION_HDR_LEN + pl;
}

/**
 * elec_core_max_frame() - the largest frame an instance sends.
 * @c: the instance
 * @n_nodes: nodes in the group, the local one included
 *
 * Return: elec_config_max_frame(), plus ELECTION_AUTH_LEN when the group
 * has a key.
 */
u32 elec_core_max_frame(const struct elec_core *c, u32 n_nodes)
{
	u32 len = elec_config_max_frame(&c->cfg, n_nodes);

	return len && c->auth.rx ? len + ELECTION_AUTH_LEN : len;
}

/**
 * elec_core_set_auth() - turn frame authentication on or off.
 * @c: the instance
 * @rx: embedder-owned array of c->max_peers entries for as long as
 *	authentication stays on (cleared here), or NULL to turn it off
 * @wall_ns: the embedder's wall clock now (CLOCK_REALTIME in the kernel),
 *	in ns; the counters of the frames sent follow it, and those received
 *	are judged against it
 * @now: current time, ns (the core's clock)
 *
 * Called when the group's key is set, changed or removed. A new key
 * starts with no counter heard from any peer: each peer's frames within
 * auth-window of the wall clock are accepted once each. The counter of
 * the frames sent never goes back, whatever the key. Not called when the
 * embedder promotes its second key (elec_auth_key_plan()): the replay
 * state is per peer, whatever the key, and stays.
 */
void elec_core_set_auth(struct elec_core *c, struct elec_auth_peer *rx,
			u64 wall_ns, u64 now)
{
	c->auth.rx = rx;
	if (!rx)
		return;
	memset(rx, 0, c->max_peers * sizeof(rx[0]));
	elec_core_set_wall(c, wall_ns, now);
}

/**
 * elec_core_set_wall() - the embedder's wall clock now.
 * @c: the instance
 * @wall_ns: its wall clock (CLOCK_REALTIME), ns
 * @now: current time, ns (the core's clock)
 *
 * The wall clock may step (settimeofday, an NTP step) while the core's
 * does not: an embedder with a key says what it reads before each frame
 * it hands in, so that counters are judged, and sent, on the clock the
 * other nodes keep.
 */
void elec_core_set_wall(struct elec_core *c, u64 wall_ns, u64 now)
{
	c->auth.clock_off = wall_ns - now;	/* wraps as it must */
}

/**
 * elec_auth_next_ctr() - the counter of the next authenticated frame.
 * @c: the instance, authentication on
 * @now: current time, ns
 *
 * The counter is the wall clock (the core's clock plus the offset the
 * embedder last gave: elec_core_set_auth(), elec_core_set_wall()) with
 * its low ELECTION_AUTH_SEQ_BITS replaced by the frame number, one more
 * than the last frame's (modulo 2^ELECTION_AUTH_SEQ_BITS), so that
 * receivers can keep a bitmap of the frame numbers they took. The clock
 * part never goes back, and moves one tick on when the frame number
 * wraps within a tick, so that every counter is above the last; U64_MAX
 * stays (receivers then drop the frames as auth_clock). A clock part more
 * than auth-window ahead of the wall clock (the clock was ahead, and was
 * set right) is let go of: every receiver with a right clock refused
 * those frames (auth_clock) and recorded none of them, so none is taken
 * twice, and without this the node's frames would be refused for as long
 * as its clock had been ahead.
 *
 * Return: the counter.
 */
u64 elec_auth_next_ctr(struct elec_core *c, u64 now)
{
	u64 wall = (now + c->auth.clock_off) & ~ELECTION_AUTH_SEQ_MASK;
	u64 win = elec_config_auth_window(&c->cfg);
	u64 last = c->auth.tx_ctr, t = last & ~ELECTION_AUTH_SEQ_MASK;
	u64 seq = (last + 1) & ELECTION_AUTH_SEQ_MASK;

	if (wall > t || (wall <= U64_MAX - win && t > wall + win)) {
		t = wall;
	} else if (last == U64_MAX) {
		return last;
	} else if (!seq) {
		/* not the top tick: its last counter would be U64_MAX */
		t += ELECTION_AUTH_SEQ_MASK + 1;
	}
	c->auth.tx_ctr = t | seq;
	return c->auth.tx_ctr;
}

/**
 * elec_core_auth_forget() - forget what was accepted from one peer.
 * @c: the instance
 * @id: node id of the peer
 *
 * Clears the peer's replay state (struct elec_auth_peer: its highest
 * counter and the frame numbers taken), as a new key would, for that peer
 * only: its frames within auth-window of the wall clock are taken again,
 * each once. For an administrator who must recover at once from a peer's
 * clock that stepped back (its frames refused as auth_replay until its
 * clock passes the counters remembered). The other peers' state is
 * untouched.
 *
 * Return: 0 (also without a key: nothing to forget), or -ENOENT when @id
 * is not a peer.
 */
int elec_core_auth_forget(struct elec_core *c, u32 id)
{
	struct elec_peer *p = elec_core_peer_find(c, id);

	if (!p)
		return -ENOENT;
	if (c->auth.rx)
		memset(&c->auth.rx[p - c->peers], 0, sizeof(c->auth.rx[0]));
	return 0;
}

/* two keys given as bytes: the same key */
static bool elec_key_eq(const void *a, const void *b)
{
	return a && b && !memcmp(a, b, ELECTION_KEY_LEN);
}

/* the key that source @src of @kc names, NULL for none */
static const void *elec_key_of(const struct elec_key_change *kc, u8 src)
{
	switch (src) {
	case ELEC_KEY_SRC_CUR:
		return kc->cur;
	case ELEC_KEY_SRC_NEXT:
		return kc->next;
	case ELEC_KEY_SRC_KEY:
		return kc->key;
	case ELEC_KEY_SRC_KEY_NEXT:
		return kc->key_next;
	default:
		return NULL;
	}
}

/**
 * elec_auth_key_plan() - what a request's key attributes do to an
 *	instance's keys.
 * @kc: the instance's keys and the request's
 * @plan: where the keys come from afterwards, and whether the replay
 *	state starts (the group had no key)
 * @why: set to a message when refused
 *
 * The key first: KEY_NONE removes both keys. A KEY equal to the key the
 * instance has changes nothing; one equal to its second key promotes it
 * (it becomes the key, the old key the second one, so that nodes that
 * have not switched yet are still heard); any other KEY replaces the key
 * and drops the second key. The replay state is per peer, whatever the
 * key: it starts when the group gets its first key and stays through
 * every change of key (a state started afresh would take again what was
 * recorded within auth-window under a key still accepted). Then the
 * second key: KEY_NEXT_NONE drops it, KEY_NEXT sets it, which needs a key
 * (the one the instance keeps, or the request's) other than it. Every
 * decision is made before anything changes: the embedder applies the
 * plan, or nothing on refusal.
 *
 * Return: 0, or -EINVAL (a second key without a key, equal to the key,
 * or contradictory attributes).
 */
int elec_auth_key_plan(const struct elec_key_change *kc,
		       struct elec_key_plan *plan, const char **why)
{
	memset(plan, 0, sizeof(*plan));
	plan->cur = kc->cur ? ELEC_KEY_SRC_CUR : ELEC_KEY_SRC_NONE;
	plan->next = kc->cur && kc->next ? ELEC_KEY_SRC_NEXT :
		     ELEC_KEY_SRC_NONE;
	if ((kc->key && kc->key_none) ||
	    (kc->key_next && (kc->key_next_none || kc->key_none))) {
		plan->bad_next = !(kc->key && kc->key_none);
		*why = plan->bad_next ?
		       "a second key with key-none or key-next-none" :
		       "a key and key-none together";
		return -EINVAL;
	}
	if (kc->key_none) {
		plan->cur = ELEC_KEY_SRC_NONE;
		plan->next = ELEC_KEY_SRC_NONE;
	} else if (kc->key && elec_key_eq(kc->key, kc->cur)) {
		/* the key it has (a batch run again): nothing changes */
	} else if (kc->key && plan->next == ELEC_KEY_SRC_NEXT &&
		   elec_key_eq(kc->key, kc->next)) {
		plan->cur = ELEC_KEY_SRC_NEXT;
		plan->next = ELEC_KEY_SRC_CUR;
	} else if (kc->key) {
		plan->cur = ELEC_KEY_SRC_KEY;
		plan->next = ELEC_KEY_SRC_NONE;
		/*
		 * the replay state is per peer, whatever the key: it starts
		 * only when the group gets its first key, never on a change
		 * (a fresh state would take again, under a key still
		 * accepted, what was recorded within the window)
		 */
		plan->fresh = !kc->cur;
	}
	if (kc->key_next_none) {
		plan->next = ELEC_KEY_SRC_NONE;
	} else if (kc->key_next) {
		plan->bad_next = true;
		if (plan->cur == ELEC_KEY_SRC_NONE) {
			*why = "a second key needs a key (in the same request, or set before)";
			return -EINVAL;
		}
		if (elec_key_eq(kc->key_next, elec_key_of(kc, plan->cur))) {
			*why = "the second key is the group's key";
			return -EINVAL;
		}
		plan->bad_next = false;
		plan->next = ELEC_KEY_SRC_KEY_NEXT;
	}
	return 0;
}

/**
 * elec_core_drop() - count a dropped frame.
 * @c: the instance
 * @reason: enum elec_drop; out-of-range values are ignored
 */
void elec_core_drop(struct elec_core *c, enum elec_drop reason)
{
	if (reason > ELEC_DROP_UNSPEC && reason <= ELEC_DROP_MAX)
		c->stats.drops[reason]++;
}

/* the bit of the frame number in @ctr, in word *@word of a peer's map */
static u64 elec_auth_bit(u64 ctr, u32 *word)
{
	u32 n = (u32)(ctr & (ELEC_AUTH_MAP_BITS - 1));

	*word = n >> 6;
	return 1ULL << (n & 63);
}

/*
 * The counter rule, before the MAC (nothing recorded): the counter's
 * clock within auth-window of the receiver's wall clock
 * (ELEC_DROP_AUTH_CLOCK); then above the highest counter accepted from
 * the peer, or below it by fewer than ELEC_AUTH_REORDER frame numbers and
 * with a frame number not taken (ELEC_DROP_AUTH_REPLAY).
 */
static enum elec_drop elec_auth_check(const struct elec_core *c,
				      const struct elec_peer *p, u64 ctr,
				      u64 now)
{
	const struct elec_auth_peer *ap = &c->auth.rx[p - c->peers];
	u64 wall = now + c->auth.clock_off;
	u64 win = elec_config_auth_window(&c->cfg);
	u64 t = ctr & ~ELECTION_AUTH_SEQ_MASK, back, bit;
	u32 w;

	if (t > wall ? t - wall > win : wall - t > win)
		return ELEC_DROP_AUTH_CLOCK;
	if (!ap->top || ctr > ap->top)
		return ELEC_DROP_UNSPEC;
	back = (ap->top - ctr) & ELECTION_AUTH_SEQ_MASK;
	if (!back || back >= ELEC_AUTH_REORDER)
		return ELEC_DROP_AUTH_REPLAY;
	bit = elec_auth_bit(ctr, &w);
	return ap->map[w] & bit ? ELEC_DROP_AUTH_REPLAY : ELEC_DROP_UNSPEC;
}

/*
 * A counter accepted (its MAC held): its frame number is marked taken. A
 * counter above the highest moves the highest up, clearing the words of
 * the map it moves into. The first one starts an empty map. One whose
 * frame number is not ahead of the highest's (by less than half the
 * numbers: the sender restarted, and counts from 1 again) begins a new
 * count: every frame number behind it counts as taken, so that a frame of
 * the sender's earlier life, taken before, is not taken again where its
 * frame number falls behind the new highest; a frame of the new life
 * overtaken by that first one is lost with them.
 */
static void elec_auth_record(struct elec_core *c, const struct elec_peer *p,
			     u64 ctr)
{
	struct elec_auth_peer *ap = &c->auth.rx[p - c->peers];
	u64 fwd, w, w1, bit;
	u32 k;

	if (ap->top && ctr < ap->top) {
		bit = elec_auth_bit(ctr, &k);
		ap->map[k] |= bit;
		return;
	}
	fwd = (ctr - ap->top) & ELECTION_AUTH_SEQ_MASK;
	if (!ap->top) {
		memset(ap->map, 0, sizeof(ap->map));
	} else if (!fwd || fwd > ELECTION_AUTH_SEQ_MASK / 2) {
		/* all taken, but the numbers after @ctr in its own word */
		memset(ap->map, 0xff, sizeof(ap->map));
		bit = elec_auth_bit(ctr, &k);
		ap->map[k] = bit | (bit - 1);
	} else {
		w = (ap->top & ELECTION_AUTH_SEQ_MASK) >> 6;
		w1 = ((ap->top & ELECTION_AUTH_SEQ_MASK) + fwd) >> 6;
		if (w1 - w > ELEC_AUTH_MAP_WORDS)
			w1 = w + ELEC_AUTH_MAP_WORDS;
		while (w++ < w1)
			ap->map[w & (ELEC_AUTH_MAP_WORDS - 1)] = 0;
	}
	ap->top = ctr;
	bit = elec_auth_bit(ctr, &k);
	ap->map[k] |= bit;
}

/* the embedder's MAC check (elec_sink.verify); none: every MAC holds */
static bool elec_auth_mac_ok(struct elec_core *c, const struct elec_msg *msg)
{
	return !c->sink.verify || c->sink.verify(c->sink.ctx, msg);
}

/*
 * Whether a frame of configured peer @p, dropped as wrong_lladdr, tells
 * where @p's frames come from ("show"'s seen-lladdr, a mistyped lladdr's
 * symptom): in a group without a key any frame does; in a keyed group
 * only an authentic and fresh one (its counter within the window and not
 * taken before, then its MAC), so that a recording played from another
 * address cannot point the administrator at it. Nothing is recorded: the
 * frame stays dropped. An address already reported costs no MAC.
 */
static bool elec_core_seen_from(struct elec_core *c, const struct elec_peer *p,
				const struct elec_msg *msg, bool keyed, u64 now)
{
	if (!c->auth.rx)
		return true;
	if (!keyed || !memcmp(p->seen_lladdr, msg->src_lladdr, ELEC_LLADDR_LEN))
		return false;
	return elec_auth_check(c, p, msg->auth_ctr, now) == ELEC_DROP_UNSPEC &&
	       elec_auth_mac_ok(c, msg);
}

/* the receive checks after the MAC: the type, the term's distance */
static enum elec_drop elec_core_rx_late_check(const struct elec_core *c,
					      const struct elec_msg *msg)
{
	u64 far = c->max_term + ELECTION_TERM_MAX_AHEAD;

	if (far < c->max_term)
		far = U64_MAX;	/* saturate: nothing is too far up there */
	if (msg->type == ELEC_MSG_UNSPEC || msg->type > ELEC_MSG_MAX ||
	    msg->type == ELEC_MSG_RETRY)
		return ELEC_DROP_MALFORMED;
	if (!c->learning && msg->term > far)
		return ELEC_DROP_TERM_TOO_FAR;
	return ELEC_DROP_UNSPEC;
}

/**
 * elec_core_rx() - a decoded message arrived.
 * @c: the instance
 * @msg: the message (from elec_codec_decode())
 * @now: current time, ns
 *
 * Applies the generic checks in this order and counts the first that fails
 * as a drop: instance stopped (ELEC_DROP_STOPPED), other group
 * (ELEC_DROP_WRONG_GROUP), other algorithm (ELEC_DROP_WRONG_ALGO), unicast
 * to another node id (ELEC_DROP_WRONG_DST), source not a peer or the local
 * id (ELEC_DROP_UNKNOWN_PEER), link-layer source other than the peer's
 * configured address when @msg carries one (ELEC_DROP_WRONG_LLADDR),
 * the authentication trailer absent while the group has a key
 * (ELEC_DROP_AUTH_MISSING) or present while it has none
 * (ELEC_DROP_AUTH_UNEXPECTED); then, with a key, the counter: more than
 * auth-window from the wall clock (ELEC_DROP_AUTH_CLOCK), its frame number
 * ELEC_AUTH_REORDER or more behind the peer's highest or taken before
 * (ELEC_DROP_AUTH_REPLAY); then the MAC,
 * through &elec_sink.verify (ELEC_DROP_AUTH_BAD); then message type out of
 * range (ELEC_DROP_MALFORMED), term more than ELECTION_TERM_MAX_AHEAD
 * above max_term unless the node is learning (ELEC_DROP_TERM_TOO_FAR).
 * Every check before the MAC costs a few comparisons and depends on no
 * protocol state, so a flood of forged frames costs a MAC each only when
 * it names a configured peer, from its address, with a counter within the
 * window not taken before (a wrong_lladdr frame with such a counter may
 * cost one too: elec_core_seen_from()). A counter is recorded once its
 * MAC held, whatever comes next. Otherwise counts the frame in stats.rx
 * and hands it to the algorithm.
 */
void elec_core_rx(struct elec_core *c, const struct elec_msg *msg, u64 now)
{
	enum elec_drop drop = ELEC_DROP_UNSPEC;
	struct elec_peer *p = NULL;
	bool keyed = c->auth.rx && msg->flags & ELECTION_FLAG_AUTH;

	if (msg->src != c->cfg.self_id)
		p = elec_core_peer_find(c, msg->src);

	if (!c->running)
		drop = ELEC_DROP_STOPPED;
	else if (msg->group != c->cfg.group)
		drop = ELEC_DROP_WRONG_GROUP;
	else if (msg->algo != c->cfg.algo)
		drop = ELEC_DROP_WRONG_ALGO;
	else if (msg->dst && msg->dst != c->cfg.self_id)
		drop = ELEC_DROP_WRONG_DST;
	else if (!p)
		drop = ELEC_DROP_UNKNOWN_PEER;
	else if (msg->src_lladdr &&
		 memcmp(msg->src_lladdr, p->lladdr, ELEC_LLADDR_LEN))
		drop = ELEC_DROP_WRONG_LLADDR;
	else if (c->auth.rx && !(msg->flags & ELECTION_FLAG_AUTH))
		drop = ELEC_DROP_AUTH_MISSING;
	else if (!c->auth.rx && msg->flags & ELECTION_FLAG_AUTH)
		drop = ELEC_DROP_AUTH_UNEXPECTED;
	else if (keyed)
		drop = elec_auth_check(c, p, msg->auth_ctr, now);
	if (drop == ELEC_DROP_UNSPEC && keyed) {
		if (elec_auth_mac_ok(c, msg))
			elec_auth_record(c, p, msg->auth_ctr);
		else
			drop = ELEC_DROP_AUTH_BAD;
	}
	/* what depends on the message and the protocol's state: last */
	if (drop == ELEC_DROP_UNSPEC)
		drop = elec_core_rx_late_check(c, msg);

	if (p && msg->src_lladdr &&
	    (drop == ELEC_DROP_UNSPEC ||
	     (drop == ELEC_DROP_WRONG_LLADDR &&
	      elec_core_seen_from(c, p, msg, keyed, now))))
		memcpy(p->seen_lladdr, msg->src_lladdr, ELEC_LLADDR_LEN);
	if (drop != ELEC_DROP_UNSPEC) {
		elec_core_drop(c, drop);
		return;
	}
	c->stats.rx[msg->type]++;
	p->heard_ns = now;
	elec_rtt_replied(c, p, msg->type, now);
	if (msg->type == ELEC_MSG_HEARTBEAT)
		elec_core_suspect_heard(c, msg->src, msg->term);
	c->ops->rx(c, msg, now);
}

static void elec_emit(struct elec_core *c, struct elec_action *act, u64 now)
{
	act->now_ns = now;
	c->sink.emit(c->sink.ctx, act);
}

/* every frame the core sends: header fields, count (as @counted), emit */
static void elec_core_emit_msg(struct elec_core *c, u8 type, u8 counted,
			       u8 flags, u32 dst, u64 term, const u8 *payload,
			       u16 len, u64 now)
{
	struct elec_action act;

	memset(&act, 0, sizeof(act));
	act.kind = ELEC_ACT_SEND;
	act.msg.type = type;
	act.msg.algo = c->cfg.algo;
	act.msg.flags = flags;
	act.msg.group = c->cfg.group;
	act.msg.payload_len = len;
	act.msg.src = c->cfg.self_id;
	act.msg.dst = dst;
	act.msg.term = term;
	act.msg.payload = len ? payload : NULL;
	if (c->auth.rx) {
		act.msg.flags |= ELECTION_FLAG_AUTH;
		act.msg.auth_ctr = elec_auth_next_ctr(c, now);
	}
	if (counted <= ELEC_MSG_MAX)
		c->stats.tx[counted]++;
	elec_rtt_sent(c, type, dst, now);
	elec_emit(c, &act, now);
}

/**
 * elec_core_send() - emit a message and count it.
 * @c: the instance
 * @type: enum elec_msg_type
 * @dst: receiver's node id, 0 to broadcast
 * @term: term carried in the header
 * @payload: payload bytes, valid during the call
 * @len: payload length
 * @now: current time, ns
 *
 * Fills in the header fields of the local instance (algorithm, group,
 * source) and counts one frame in stats.tx, broadcast or not.
 */
void elec_core_send(struct elec_core *c, u8 type, u32 dst, u64 term,
		    const u8 *payload, u16 len, u64 now)
{
	elec_core_send_as(c, type, type, dst, term, payload, len, now);
}

/**
 * elec_core_send_as() - emit a message, counted under another type.
 * @c: the instance
 * @type: enum elec_msg_type, as sent
 * @counted: the stats.tx slot it is counted in (ELEC_MSG_RETRY for a ring
 *	message re-sent to the next position)
 * @dst: receiver's node id, 0 to broadcast
 * @term: term carried in the header
 * @payload: payload bytes, valid during the call
 * @len: payload length
 * @now: current time, ns
 */
void elec_core_send_as(struct elec_core *c, u8 type, u8 counted, u32 dst,
		       u64 term, const u8 *payload, u16 len, u64 now)
{
	elec_core_emit_msg(c, type, counted, 0, dst, term, payload, len, now);
}

/**
 * elec_core_arm() - arm (or re-arm) a timer.
 * @c: the instance
 * @id: which timer
 * @expires: absolute expiry, ns (0 is stored as 1: 0 means unarmed)
 * @now: current time, ns
 *
 * ELEC_TIMER_DETECT in the extra window of a late expiry
 * (elec_detect_defer()) is only moved later, never earlier.
 */
void elec_core_arm(struct elec_core *c, enum elec_timer_id id, u64 expires,
		   u64 now)
{
	struct elec_action act;

	if ((unsigned int)id >= ELEC_TIMER_COUNT)
		return;
	if (!expires)
		expires = 1;
	if (id == ELEC_TIMER_DETECT) {
		/*
		 * In the extra window that a late expiry was granted
		 * (elec_detect_defer()) only a later expiry replaces
		 * it: news of the leader from a third node, which runs from
		 * the leader's own last frame, does not cut it short.
		 */
		if (c->detect_deferred && c->timer_expires[id] &&
		    expires < c->timer_expires[id])
			return;
		c->detect_deferred = false;
	}
	c->timer_expires[id] = expires;
	memset(&act, 0, sizeof(act));
	act.kind = ELEC_ACT_TIMER_ARM;
	act.timer.id = id;
	act.timer.expires_ns = expires;
	elec_emit(c, &act, now);
}

/**
 * elec_core_arm_in() - arm (or re-arm) a timer relative to now.
 * @c: the instance
 * @id: which timer
 * @delay: ns from @now; an expiry past U64_MAX saturates
 * @now: current time, ns
 */
void elec_core_arm_in(struct elec_core *c, enum elec_timer_id id, u64 delay,
		      u64 now)
{
	u64 expires = now + delay;

	if (expires < now)
		expires = U64_MAX;
	elec_core_arm(c, id, expires, now);
}

/**
 * elec_core_cancel() - cancel a timer.
 * @c: the instance
 * @id: which timer
 * @now: current time, ns
 *
 * Emits ELEC_ACT_TIMER_CANCEL only if the timer is armed.
 */
void elec_core_cancel(struct elec_core *c, enum elec_timer_id id, u64 now)
{
	struct elec_action act;

	if ((unsigned int)id >= ELEC_TIMER_COUNT || !c->timer_expires[id])
		return;
	if (id == ELEC_TIMER_DETECT)
		c->detect_deferred = false;
	c->timer_expires[id] = 0;
	memset(&act, 0, sizeof(act));
	act.kind = ELEC_ACT_TIMER_CANCEL;
	act.timer.id = id;
	elec_emit(c, &act, now);
}

/**
 * elec_core_event() - report an event.
 * @c: the instance
 * @type: enum elec_event
 * @peer: the peer for ELEC_EVENT_PEER_UP / _DOWN, else 0
 * @now: current time, ns
 *
 * The event carries the current leader and term.
 */
void elec_core_event(struct elec_core *c, u8 type, u32 peer, u64 now)
{
	struct elec_action act;

	memset(&act, 0, sizeof(act));
	act.kind = ELEC_ACT_EVENT;
	act.event.type = type;
	act.event.peer = peer;
	act.event.leader = c->leader;
	act.event.term = c->term;
	elec_emit(c, &act, now);
}

/**
 * elec_core_set_leader() - set the elected leader and its term.
 * @c: the instance
 * @leader: leader id, 0 for none
 * @term: its term
 * @now: current time, ns
 *
 * Raises max_term to @term if needed. When the leader id changes, reports
 * ELEC_EVENT_LEADER_CHANGED, and counts a leader change when the new value
 * is a leader other than the last one held (none, then the same leader
 * again, is not counted). A change of term alone is silent.
 */
void elec_core_set_leader(struct elec_core *c, u32 leader, u64 term,
			  u64 now)
{
	bool changed = leader != c->leader;

	if (leader)
		c->learning = false;
	c->leader = leader;
	c->term = term;
	if (term > c->max_term)
		c->max_term = term;
	if (!changed)
		return;
	if (leader && leader != c->cfg.self_id && c->suspect) {
		/*
		 * the suspect kept its role, or another took it (the local
		 * node taking it decides nothing: the suspect may still be
		 * heard, or take it back)
		 */
		if (leader == c->suspect)
			c->stats.false_suspicions++;
		c->suspect = 0;
	}
	if (leader && leader != c->last_leader) {
		struct elec_peer_est *e;

		e = elec_core_est(c, elec_core_peer_find(c, leader));
		c->stats.leader_changes++;
		/* its arrivals start afresh: no gap since it last led */
		if (e)
			e->hb_rx_ns = 0;
	}
	if (leader)
		c->last_leader = leader;
	elec_core_event(c, ELEC_EVENT_LEADER_CHANGED, 0, now);
}

/**
 * elec_core_suspect_heard() - a frame of a leader's own, from @id at @term.
 * @c: the instance
 * @id: the sender
 * @term: the term it carries
 *
 * The failure detector's last suspect (elec_detect_suspect()) heard at
 * the term it was suspected in: it was alive, the suspicion a mistake
 * (stats.false_suspicions). Every HEARTBEAT that passes the receive
 * checks comes here, and every frame elec_core_heard() records.
 */
void elec_core_suspect_heard(struct elec_core *c, u32 id, u64 term)
{
	if (!c->suspect || id != c->suspect || term != c->suspect_term)
		return;
	c->stats.false_suspicions++;
	c->suspect = 0;
}

/**
 * elec_core_peer_set_alive() - record whether a peer is alive.
 * @c: the instance
 * @p: the peer (from the table)
 * @alive: true when heard from, false when declared failed
 * @now: current time, ns
 *
 * Reports ELEC_EVENT_PEER_UP or ELEC_EVENT_PEER_DOWN when the value changes;
 * does nothing otherwise.
 */
void elec_core_peer_set_alive(struct elec_core *c, struct elec_peer *p,
			      bool alive, u64 now)
{
	if (!p || !!p->alive == alive)
		return;
	p->alive = alive;
	elec_core_event(c, alive ? ELEC_EVENT_PEER_UP : ELEC_EVENT_PEER_DOWN,
			p->id, now);
}

/**
 * elec_core_term_next() - take the next term for an announcement or run.
 * @c: the instance
 *
 * Raises max_term by one and returns it; at U64_MAX it stays there
 * (terms saturate, they never wrap to 0, which every node would refuse
 * as stale).
 *
 * Return: the new max_term.
 */
u64 elec_core_term_next(struct elec_core *c)
{
	if (c->max_term != U64_MAX)
		c->max_term++;
	return c->max_term;
}

/**
 * elec_core_rx_may_elect() - whether a received frame may start an election.
 * @c: the instance
 * @now: current time, ns
 *
 * A frame that makes a node begin an election makes it send up to one
 * frame per peer, so elections started by received frames are rate
 * limited (timers and the administrator are not): ELECTION_RX_ELECT_BURST
 * in a burst, then one per coord-timeout (a generic cell rate algorithm
 * on @c->elect_tat). A refusal is counted in stats.elections_limited.
 *
 * Return: true when the election may begin (the allowance is taken).
 */
bool elec_core_rx_may_elect(struct elec_core *c, u64 now)
{
	u64 period = elec_config_coord_timeout(&c->cfg);
	u64 slack = period * (ELECTION_RX_ELECT_BURST - 1);
	u64 tat = c->elect_tat > now ? c->elect_tat : now;

	if (tat - now > slack) {
		c->stats.elections_limited++;
		return false;
	}
	c->elect_tat = tat + period;
	return true;
}
