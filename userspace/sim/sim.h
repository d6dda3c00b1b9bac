/* SPDX-License-Identifier: GPL-2.0 */
/*
 * electsim: a single-threaded, deterministic discrete-event simulator that
 * runs the unchanged protocol core (module/core/) on a virtual clock.
 *
 * Every input to a node is an event with a key (time ns, sequence number):
 * the sequence number is taken when the event is scheduled, so events at
 * the same time run in the order they were scheduled and a run is a pure
 * function of its arguments and seed.
 */
#ifndef _ELECTSIM_SIM_H
#define _ELECTSIM_SIM_H

#include <stdio.h>
#include "ring.h"

/* CLOCK_MONOTONIC in ns: --timing only (never inside a simulated run) */
u64 sim_wall_ns(void);

/* ---- PRNG (net.c): splitmix64, our own, seeded per run ---------------- */
struct rng {
	u64 s;
};
void rng_seed(struct rng *r, u64 seed);
u64 rng_next(struct rng *r);
/* uniform in [lo, hi] */
u64 rng_range(struct rng *r, u64 lo, u64 hi);
/* uniform in [0, 1) */
double rng_unit(struct rng *r);

/* ---- events ----------------------------------------------------------- */
enum ev_kind {
	EV_MSG,		/* type = message type, term, src id, dst index */
	EV_TIMER,	/* type = timer id, term = armed expiry, dst index */
	EV_PMSG,	/* as EV_MSG, with a payload: src = its pool handle
			 * (the pool slot holds the src id)
			 */
	EV_ZMSG,	/* as EV_MSG, with a payload of ELECTION_RING_HOP_LEN
			 * zero bytes (the rings' greeting: an ACK of hop 0,
			 * N - 1 per started node); no pool slot
			 */
	EV_CRASH,	/* dst index; this and the kinds below are faults */
	EV_RECOVER,	/* dst index */
	EV_SPLIT,	/* partition: term seeds each node's side; src > 0:
			 * schedule item src - 1 gives the sides
			 */
	EV_HEAL,	/* the partition ends */
	EV_STANDBY,	/* dst index: tracked standby, on when type is 1,
			 * off when 0 (elec_core_standby_sync())
			 */
};

/*
 * 32 bytes: an in-flight message is (time, seq, dst index, src id, type,
 * term); the struct elec_msg is rebuilt at delivery. A message with a
 * payload (the ring algorithms') is an EV_PMSG: its src field is a handle
 * into the payload pool, whose slot holds the src id and the bytes, so
 * payload-less messages (Bully, heartbeats) cost nothing extra.
 * key = seq << 16 | kind << 8 | type; seq is unique, so ordering by
 * (time, key) is ordering by (time, seq).
 */
struct ev {
	u64 time;
	u64 key;
	u64 term;
	u32 dst;
	u32 src;
};

_Static_assert(sizeof(struct ev) == 32, "an in-flight event is 32 bytes");

#define EV_KIND(e)	((u8)((e)->key >> 8))
#define EV_TYPE(e)	((u8)(e)->key)
/*
 * a message's type byte: the message type, EV_LEAVING added for a frame
 * flagged ELECTION_FLAG_LEAVING (a leader's resignation)
 */
#define EV_LEAVING	0x80
#define EV_MTYPE(e)	((u8)(EV_TYPE(e) & ~EV_LEAVING))
#define EV_MSG_TYPE(m)	((u8)((m)->type | ((m)->flags & \
			      ELECTION_FLAG_LEAVING ? EV_LEAVING : 0)))
#define EV_SEQ_SHIFT	16

/*
 * --auth on: the nodes' wall clocks at time 0 (node index i: + i * 100003,
 * 0.1 ms apart: 10,000 nodes within 1 s, inside the default auth-window)
 */
#define SIM_WALL_NS	1700000000000000000ULL

/*
 * In the queue's FIFO lanes (sim.c) an entry may stand for a run of
 * events, all with the same time, kind, type and term and consecutive
 * sequence numbers: dst holds the first node index in its low
 * EV_RUN_SHIFT bits, how many more events follow in the next bits, and
 * in its top bit how they go on: each to the next node index, the source
 * the same (a node's frames to its peers in turn), or (EV_RUN_SRC) each
 * from the next source id, to the same node (the answers of many nodes to
 * one). Node indices stay below SIM_MAX_NODES. An event taken off the
 * queue is always one.
 */
#define EV_RUN_SHIFT	20
#define SIM_MAX_NODES	(1U << EV_RUN_SHIFT)
#define EV_RUN_SRC	(1U << 31)
#define EV_RUN_MAX	((1U << (31 - EV_RUN_SHIFT)) - 1)
#define EV_DST(e)	((e)->dst & (SIM_MAX_NODES - 1))
#define EV_RUN(e)	(((e)->dst & ~EV_RUN_SRC) >> EV_RUN_SHIFT)

/* ---- payloads of in-flight messages (pool.c) -------------------------- */
/*
 * Size classes of 16 << k payload bytes, k = 0..POOL_CLASSES-1 (the last
 * holds ELECTION_MAX_PAYLOAD); a handle is class << POOL_IDX_BITS | slot.
 * Slots are reused through a free list; a class grows by doubling, so a
 * slot pointer is valid only until the next pool_alloc().
 */
#define POOL_CLASSES	8
#define POOL_IDX_BITS	27

struct pool_class {
	u8 *buf;		/* cap slots of (8 + 16 << k) bytes */
	u32 cap, used;		/* slots allocated, slots handed out */
	u32 free_head;		/* 1 + index of a free slot, 0 = none */
};

struct pool {
	struct pool_class cls[POOL_CLASSES];
	u64 live;		/* slots handed out and not freed */
};

/* slot: u32 src, u16 len, u16 unused, then 16 << k payload bytes */
#define POOL_SLOT_HDR	8

u32 pool_alloc(struct pool *pl, u32 src, const u8 *data, u16 len);
/* the slot of @handle (src id, length, payload): valid until the next
 * pool_alloc(), for a look ahead
 */
static inline const u8 *pool_slot(const struct pool *pl, u32 handle)
{
	u32 k = handle >> POOL_IDX_BITS;

	return pl->cls[k].buf + (size_t)(handle & ((1U << POOL_IDX_BITS) - 1)) *
	       (POOL_SLOT_HDR + (16U << k));
}
/* copies the payload to @out (ELECTION_MAX_PAYLOAD bytes), frees the slot */
u16 pool_take(struct pool *pl, u32 handle, u32 *src, u8 *out);
void pool_free_all(struct pool *pl);

/* ---- network model (net.c) ------------------------------------------- */
/* last delivery time per directed link, for FIFO links (ring algorithms) */
struct link_slot {
	u64 key;		/* (src idx << 32 | dst idx) + 1, 0: empty */
	u64 last;		/* latest delivery scheduled on the link */
};

struct net {
	u64 lat_lo, lat_hi;	/* ns; equal: fixed latency */
	double loss;		/* probability a frame is lost */
	u8 *side;		/* per node index: partition side, NULL = none */
	struct rng rng;
	int fifo;		/* links deliver in order (ring algorithms) */
	struct link_slot *links;	/* open addressing, power of 2 */
	size_t links_cap, links_used;
};

/* ---- nodes and the simulator (sim.c) --------------------------------- */
struct sim;

/*
 * What a delivery reads of its node first, in the node's first cache line;
 * the core from the next one (nodes are 64-byte aligned): at N = 10,000
 * nearly every delivery goes to a node not in the cache, and each line
 * it touches costs.
 */
struct node {
	struct sim *sim;
	u32 id;
	u32 idx;
	u8 up;		/* not crashed */
	u8 passive;	/* DETECT suppressed until a message reaches it */
	u8 busy;	/* counted in sim->busy */
	u8 lead;	/* up and in the leader role: counted in n_lead */
	u8 seen_role;	/* role and leader after the last core call */
	u8 seen_phase;	/* invitation, as seen_members below */
	u32 seen_leader;
	u64 seen_term;
	u64 seen_retry;	/* core's tx retry count at the last send */
	struct elec_peer *peers;
	struct elec_core core __attribute__((aligned(64)));
	/* invitation: membership and group at the last core call, and the
	 * last group number the node formed (its sequence number)
	 */
	u32 seen_members;
	u64 seen_detect;
	u64 formed_seq;
};

/* ---- scripted fault schedules (schedule.c) ----------------------------- */
enum sched_op {
	SCHED_SPLIT,
	SCHED_HEAL,
	SCHED_CRASH,
	SCHED_RECOVER,
	SCHED_STANDBY,
	SCHED_ACTIVE,
	SCHED_OP_COUNT
};

struct sched_item {
	u64 at_ns;		/* after the trigger */
	u32 order;		/* its place in the text (ties keep it) */
	u32 id;			/* crash, recover */
	u8 op;
	char *mask;		/* split: hex digits, most significant first */
};

struct schedule {
	struct sched_item *items;	/* sorted by time */
	u32 n;
	char *text;		/* the canonical form (replay commands) */
};

/* --schedule TEXT: NULL and a message in @err when it does not parse */
struct schedule *sched_parse(const char *text, char *err, size_t cap);
void sched_free(struct schedule *sc);
char *sched_format(const struct schedule *sc);
/* whether it runs on these @n ids as written (-1 and a message if not) */
int sched_check(const struct schedule *sc, const u32 *ids, u32 n,
		char *err, size_t cap);
/* the fewest nodes (ids 1..N) it names */
u32 sched_min_nodes(const struct schedule *sc);
int sched_mask_bit(const char *mask, u32 bit);
/* whether it splits the network */
int sched_splits(const struct schedule *sc);
/* the first id that returns less than @gap_ns after its crash */
int sched_fast_return(const struct schedule *sc, u64 gap_ns, u32 *id,
		      u64 *after_ns);

struct sim_params {
	const struct elec_algo_ops *ops;
	u32 n;
	u32 *ids;		/* n ids, in the given (ring) order */
	int scenario;		/* enum scenario */
	int initiator_all;
	u32 initiator;		/* id, when !initiator_all */
	/*
	 * every option of options-list.h (--hb-interval, --suppress, ...;
	 * self_id, group and algo are unused: each node has its own)
	 */
	struct elec_config cfg;
	int auth;		/* --auth on: every node has a group key */
	u64 seed;
	u64 lat_lo, lat_hi;
	int lat_set;
	double loss;
	int json, trace;
	const char *timeline;	/* --timeline FILE: Chrome trace JSON */
	int partitions;		/* random: may partition the network */
	int fast_recover;	/* random: a crashed node may come back
				 * before the others detected its crash
				 */
	int observe;		/* --check: watch a window after quiescence */
	u64 duration_ns;	/* soak: how long to run, 0 = 10 s */
	const u32 *absent;	/* --absent: configured ids that never start */
	u32 n_absent;
	/*
	 * the options of options-list.h with ELEC_OPTF_SIM_IDS (--standby
	 * LIST, --standby-tracked LIST): the ids that have them on
	 */
	const u32 *opt_ids[ELEC_OPT_COUNT];
	u32 n_opt_ids[ELEC_OPT_COUNT];
	int standby_faults;	/* --standby-faults: random standby sets
				 * and standby changes in random schedules
				 */
	int timing;		/* --timing: each run's phases' wall time */
	/* --schedule: the faults of the random scenario, as scripted */
	const struct schedule *schedule;
	int generator;		/* --generator: enum sim_gen */
	u64 rx_cost_ns;		/* --rx-cost: every frame delivered takes
				 * this long of one CPU that all nodes share
				 */
	double jitter_p;	/* --jitter P:MAX: a fraction P of the frames
				 * and of the timer expiries is late by up to
				 * jitter_max_ns
				 */
	u64 jitter_max_ns;
};

struct run_result {
	u32 leader;		/* common leader if agreed, else 0 */
	int agreed;		/* every live node holds the same leader */
	int stable;		/* quiescent before the bound */
	int e1_ok;		/* agreed on the best live id */
	u32 highest_live;	/* the highest live id, whatever the algorithm */
	u32 best_live;		/* the live id the algorithm must elect: the
				 * highest, the lowest for min-bully
				 */
	u32 live;
	u64 by_type[ELEC_MSG_MAX + 1];
	u64 messages;		/* all but heartbeats */
	/* a frame once per recipient it is addressed to (a broadcast: the
	 * sender's configured peers), counted when sent
	 */
	u64 deliveries_by_type[ELEC_MSG_MAX + 1];
	u64 deliveries;		/* all but heartbeats */
	u64 queue_full;		/* ring messages dropped: queue full */
	u32 ring_skipped;	/* ring: live nodes that their live
				 * predecessor counts as failed (it would
				 * skip them in the next run)
				 */
	u32 queue_max;		/* most ring queue bytes any node used */
	u64 elapsed_ns;		/* trigger to the last decision */
	u64 end_ns;
	u64 events;
	u64 bound_ns;		/* E2 deadline (absolute), 0 = none */
	u64 last_fault_ns;
	int changed_after;	/* observe: state or traffic changed */
	u64 auth_replay;	/* --auth on: frames the nodes dropped as
				 * replays (received out of order)
				 */
	u64 auth_clock;		/* --auth on: frames dropped as outside
				 * the receiver's auth-window */
	u64 dual_ns;		/* time with two or more live leaders */
	u64 dual_max_ns;	/* the longest such interval */
	u64 terms;		/* highest term now minus before the fault */
	u64 leader_changes;	/* sum of the nodes' counters, from the trigger */
	u64 elections;		/* sum of the nodes' election runs, likewise */
	/* invitation: connected components of live nodes at the end, and
	 * group numbers formed twice (must be 0)
	 */
	u32 components;
	u64 reused;
};

#define SIM_LANES 4
/* the nodes are set up on up to this many threads, from this many nodes */
#define SIM_INIT_THREADS 4
#define SIM_INIT_PARALLEL_MIN 1000
/* and the rings' greetings in batches of this many deliveries (sim.c) */
#define SIM_GREET_PARALLEL_MIN (1U << 19)
/* up to this many runs of greetings are merged without a plan (sim.c) */
#define SIM_GREET_FEW 8

/*
 * --auth on: a frame's counter, the one its sender's core wrote, kept by
 * the sequence number of each of its deliveries (a 32-byte event has no
 * room for it): SIM_AUTH_SENT entries, indexed by the number's low bits
 */
#define SIM_AUTH_SENT	(1U << 20)
struct sim_auth_sent {
	u64 seq;
	u64 ctr;
};

struct sim {
	const struct sim_params *p;
	u32 n;
	struct node *nodes;	/* mmap, nodes_len bytes */
	size_t nodes_len;
	struct elec_peer_est *est;	/* --detector adaptive, --timeout-auto:
					 * the nodes' estimates, N - 1 each */
	struct elec_auth_peer *auth_rx;	/* --auth on: the nodes' per-peer
					 * replay state, n - 1 each */
	struct sim_auth_sent *auth_sent;	/* --auth on: the counter of
						 * each frame in flight, by
						 * sequence number */
	u64 *alive_sent;	/* quorum on: [src idx * n + dst idx], when the
				 * last ALIVE on that link was sent and not
				 * lost (it arrives, or is in flight) */
	u64 *hb_sent;		/* the same for HEARTBEAT */
	u64 *hb_due;		/* quorum on: [src idx * n + dst idx], the
				 * latest arrival of a HEARTBEAT sent */
	u64 *hb_due_term;	/* the term that HEARTBEAT carries */
	u32 *by_id;		/* node indices sorted by id */
	u32 *ids;		/* the ids sorted: ids[k] = nodes[by_id[k]].id */
	u32 id_lo;		/* the lowest id */
	struct elec_config cfg;	/* the nodes' configuration, less their
				 * ids and positions (sim_init) */
	struct elec_peer *peer_mem;	/* every node's peer table (mmap) */
	size_t peer_mem_len;
	u64 now;
	u64 seq;
	/* binary heap */
	struct ev *heap;
	size_t hn, hcap;
	/* FIFO lanes of events scheduled in key order (see sim.c) */
	struct lane {
		struct ev *buf;
		size_t head, count, cap;	/* cap: a power of 2 */
	} lane[SIM_LANES];
	struct lane *last_lane;	/* the lane of the last event, or NULL */
	/*
	 * the head of last_lane is the rest of the run the last event came
	 * from: its next event is the queue's first (sim_pop)
	 */
	int in_run;
	struct lane *push_lane;	/* the lane the last event pushed went to */
	/*
	 * Rings' greetings taken from the queue at this instant and not yet
	 * delivered: runs of consecutive events from one source to
	 * consecutive node indices (sim_run, sim_greet_flush)
	 */
	struct greet_run {
		u64 key;	/* the first event's key */
		u64 term;
		u32 src;	/* the source id */
		u32 dst0;	/* the first node index */
		u32 len;
	} *greet;
	size_t greet_n, greet_cap;
	struct net net;
	struct pool pool;	/* payloads of in-flight messages */
	u8 *qmem;		/* ring queues: q_cap bytes per node */
	size_t qmem_len;
	u32 q_cap;
	u32 q_max;		/* high-water mark of any node's ring queue */
	u64 qfull0;		/* queue_full drops when counting started */
	int ring;		/* a ring algorithm */
	struct rng srng;	/* scenario randomness */
	/* accounting */
	int counting;
	u64 tx[ELEC_MSG_MAX + 1];
	u64 dtx[ELEC_MSG_MAX + 1];	/* deliveries, as tx */
	u64 inflight;		/* election traffic in flight (no heartbeats) */
	u64 pending_faults;
	u32 busy;
	u32 live;
	int dirty;
	u64 t_trigger;
	u64 t_decide;
	u64 events;
	FILE *trace;		/* the trace (stdout; stderr with --json;
				 * /dev/null when only the timeline is on) */
	FILE *timeline;		/* --timeline: trace-event JSON, or NULL */
	u64 tl_events;		/* events written to it */
	u32 *tl_span;		/* per node index: the open span's leader
				 * + 1 (0: none; TL_DOWN: down) */
	int trace_null;		/* @trace is /dev/null (ours to close) */
	int no_stop;		/* run to the deadline, ignore stability */
	/* live nodes in the leader role, and the time two or more did */
	u32 n_lead;
	u64 dual_since;		/* start of the current interval, or 0 */
	u64 dual_ns, dual_max_ns;
	u64 term0;		/* highest term when counting started */
	int inv;		/* the invitation algorithm */
	u64 reused;		/* invitation: group numbers formed twice */
	u64 lc0, el0;		/* leader changes, elections then */
	u64 wall_counting;	/* --timing: wall clock (ns) at the trigger */
	u64 cpu_free;		/* --rx-cost: when the shared CPU is free */
};

int ids_has(const u32 *ids, u32 n, u32 id);
int sim_init(struct sim *s, const struct sim_params *p);
void sim_free(struct sim *s);
struct node *sim_node_by_id(struct sim *s, u32 id);
/*
 * The best node in the algorithm's winner order (elec_algo_better():
 * the highest id, the lowest for min-bully); @live_only: among the live.
 */
struct node *sim_best(struct sim *s, int live_only);
struct node *sim_best_cand(struct sim *s);
int sim_node_standby(const struct node *nd);
void sim_standby(struct sim *s, struct node *nd, int on);
void sim_push(struct sim *s, u64 time, u8 kind, u8 type, u32 dst, u32 src,
	      u64 term);
/* sim_push() to node indices @a .. @b - 1 in turn, in one go */
void sim_push_range(struct sim *s, u64 time, u8 kind, u8 type, u32 a, u32 b,
		    u32 src, u64 term);
/* run events until stable with no pending faults, or until @deadline */
void sim_run(struct sim *s, u64 deadline);
int sim_stable(struct sim *s);
/*
 * A frame of @type is background traffic, not counted in a run's
 * messages: heartbeats and (quorum on) ALIVE beacons; for invitation also
 * the searches and their answers. (In flight, every frame but a
 * heartbeat or a beacon still holds off quiescence: an answer can start a
 * merge.)
 */
int sim_background(const struct sim *s, u8 type);
/* invitation: each component of live nodes is one group, @comps of them */
int sim_inv_grouped(struct sim *s, u32 *comps);
void sim_crash(struct sim *s, struct node *nd);
void sim_recover(struct sim *s, struct node *nd);
void sim_start_counting(struct sim *s);
void sim_result(struct sim *s, struct run_result *r);
/* call the core on @nd, keeping the busy count */
void sim_node_begin(struct node *nd);
void sim_node_end(struct node *nd);

/* net.c */
void net_init(struct net *n, const struct sim_params *p, u32 nodes);
void net_free(struct net *n);
void net_send(struct sim *s, const struct elec_msg *m, u32 src_idx,
	      u32 dst_idx);
/* every node index but @src_idx, in turn, as many net_send() */
void net_broadcast(struct sim *s, const struct elec_msg *m, u32 src_idx);
void net_split(struct sim *s, u64 salt);
/* side 1: the ids whose bit (id - 1) is set in @mask (schedule.c) */
void net_split_mask(struct sim *s, const char *mask);
void net_heal(struct sim *s);
void net_split_halves(struct sim *s);

/* scenario.c */
enum scenario {
	SC_ELECT,
	SC_BOOT,
	SC_CRASH_LEADER,
	SC_RECOVER,
	SC_RANDOM,
	SC_SOAK,
	SC_JOIN,
	SC_HEAL,
	SC_COUNT
};
extern const char *const scenario_names[SC_COUNT];
/*
 * --generator: how the random scenario (and --check) draws its faults:
 * random (the default), focused (inside the election after a detection),
 * harsh (more faults, returns as soon as allowed, splits for every
 * algorithm)
 */
enum sim_gen {
	GEN_RANDOM,
	GEN_FOCUSED,
	GEN_HARSH,
	GEN_COUNT
};
extern const char *const generator_names[GEN_COUNT];
int scenario_run(const struct sim_params *p, struct run_result *r);
/* the least time from a crash to the return of the node within the
 * assumptions (the random scenario's schedules keep it)
 */
u64 scenario_return_gap(const struct sim_params *p);

/* schedule.c: the schedule's faults, from now; the last one's time */
void sched_push(struct sim *s, const struct schedule *sc, u64 *last_fault);

/* out.c */
/* Format @ns as a duration ("12.345ms", "0s") into @buf. */
const char *out_dur(char *buf, size_t cap, u64 ns);
/* --timeline: open the file, and close it with every span ended */
int out_timeline_open(struct sim *s, const char *path);
void out_timeline_close(struct sim *s);
void out_trace(struct sim *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
const char *out_msg_name(u8 type);
/* " hop=.. id=.." for a ring payload, "" for an empty one */
void out_payload(char *buf, size_t cap, u8 algo, u8 type, const u8 *pl,
		 u16 len);
void out_result(const struct sim_params *p, const struct run_result *r);

/* check.c */
int check_main(const struct sim_params *base, u32 n_lo, u32 n_hi,
	       u64 seeds);

/* main.c: the command line that reproduces @p (for replay hints) */
void main_print_command(FILE *f, const struct sim_params *p);

#endif /* _ELECTSIM_SIM_H */
