// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target "core": one instance of the protocol core
 * (the .c files of module/core, compiled unchanged), of any of the seven algorithms,
 * configured and driven by the input (format: fuzz_input.h): frames
 * through the codec, timer expiries, time, start/stop/elect/resign, peers
 * added and deleted, configuration changes, a group key set, changed or
 * removed.
 *
 * Every action the core emits and the state after every input are checked
 * (fz_fail() traps, which libFuzzer reports as a crash):
 *  - each SEND is a valid frame of the instance: it encodes, decodes back
 *    to the same fields, fits elec_core_max_frame() for the most peers
 *    the group had, goes to 0 or a configured peer (module/tx.c WARNs
 *    on any other unicast), carries ELECTION_FLAG_LEAVING only on a
 *    HEARTBEAT and ELECTION_FLAG_AUTH exactly when the group has a key,
 *    with a counter above the last one sent;
 *  - authentication: a frame is refused as a replay exactly when its
 *    counter is not above the last accepted from its sender, and the
 *    per-peer counters stay with their peers through adds and deletes;
 *  - timer ids are valid, a cancel names an armed timer, and the armed
 *    set the actions describe is the core's own (timer_expires);
 *  - events are valid, a peer event names a configured peer, a new leader
 *    is 0, the local id or a configured peer, an event's leader and term
 *    are the instance's, every action carries the input's time;
 *  - a stopped instance emits nothing (start aside); a stop emits only
 *    timer cancels and then ELEC_EVENT_STOPPED, and leaves no timer armed,
 *    role stopped, leader none; the no-ops the core documents (start when
 *    running, an unarmed or early timer, resign when not leading, peer
 *    add, set_config) emit nothing; a resign changes no state;
 *  - role leader means leader = the local id; the peer table stays sorted
 *    with valid ids; a refused set_config changes nothing;
 *  - counters never go down; tx grows by the frames sent; rx by at most
 *    one per received frame, by none for other inputs, and a received
 *    frame is counted in rx or in drops; max_term is at least term (both
 *    may go down: the far-behind rule of bully.c gives a poisoned term
 *    up); the ring queue stays within its capacity;
 *  - a timer that keeps re-arming at or before the current time (a
 *    livelock of the embedder's timer loop) is a failure too.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include "core.h"
#include "ring.h"
#include "detect.h"
#include "rtt.h"
#include "fuzz_input.h"

#define FZ_MAX_FIRES		1024	/* timer expiries per input */
#define FZ_ADVANCE_FIRES	256	/* per time advance */
#define FZ_SAME_TIME_FIRES	64	/* expiries in a row at one instant */

static int fz_trace = -1;	/* FUZZ_TRACE=1: every input and action to stderr */

struct fz_in {
	const u8 *p;
	size_t left;
};

static u8 in_u8(struct fz_in *in)
{
	if (!in->left)
		return 0;
	in->left--;
	return *in->p++;
}

static u16 in_be16(struct fz_in *in)
{
	u16 v = in_u8(in);

	return (u16)(v << 8 | in_u8(in));
}

static u32 in_be32(struct fz_in *in)
{
	u32 v = 0;
	int i;

	for (i = 0; i < 4; i++)
		v = v << 8 | in_u8(in);
	return v;
}

static u64 in_be64(struct fz_in *in)
{
	u64 v = in_be32(in);

	return v << 32 | in_be32(in);
}

static u64 in_varint(struct fz_in *in)
{
	u64 v = 0;
	int shift;

	for (shift = 0; shift < 64; shift += 7) {
		u8 b = in_u8(in);

		v |= (u64)(b & 0x7f) << shift;
		if (!(b & 0x80))
			break;
	}
	return v;
}

enum fz_call {
	FZ_CALL_OTHER,
	FZ_CALL_START,
	FZ_CALL_STOP,
	FZ_CALL_RX,
	FZ_CALL_NOOP,	/* documented to emit nothing */
};

/*
 * The model of what a keyed receiver remembers of one sender, written from
 * the rule (Documentation/protocol.rst, "Authentication"), not from
 * core.c's map: the highest counter accepted since the key was set, its
 * frame number counted on without wrapping (from the counter's low bits,
 * afresh at each new count), and every frame number accepted within
 * ELEC_AUTH_MAP_BITS of it. A counter not above the highest is refused as
 * a replay when it is the highest, ELEC_AUTH_REORDER or more frame
 * numbers behind it, behind it by a frame number accepted before, or
 * behind the first frame of a new count (one above the highest whose
 * frame number is not ahead of it by less than 2^19; not the first frame
 * taken from the peer, which starts an empty map).
 */
#define FZ_AM_KEEP	(ELEC_AUTH_MAP_BITS + 64)
struct fz_auth_model {
	u64 top;		/* 0: none */
	u64 topn;		/* its frame number, unwrapped */
	u64 base;		/* the new count's first: all below taken */
	u64 acc[FZ_AM_KEEP];	/* frame numbers accepted, unwrapped */
	u32 n;
	u64 recent[8];		/* the last counters accepted (inputs) */
	u32 n_recent;
};

static struct fz_auth_model fz_models[64];

struct fz {
	struct elec_core c;
	struct elec_peer peers[FZ_MAX_PEERS];
	u64 qmem[ELEC_RING_QUEUE_BYTES / 8];
	u64 now;
	/* the armed timers as the actions describe them */
	u64 armed[ELEC_TIMER_COUNT];
	u32 max_n_peers;	/* the most peers the group had */
	u32 ghost;		/* an id that was a peer and was deleted */
	u32 deleted[64];	/* the ids deleted so far (the first 64) */
	u32 n_deleted;
	/* the current call */
	enum fz_call call;
	bool was_running;
	u32 n_actions;
	u32 n_sends;
	bool stopped_event;
	/* the last frame the core sent */
	u8 sent[ELECTION_HDR_LEN + ELECTION_MAX_PAYLOAD];
	u16 sent_len;
	u64 sent_term;
	u32 fires;
	struct elec_stats stats;
	u32 leader;
	/* authentication: the replay state the core keeps, and its model */
	struct elec_auth_peer auth_rx[FZ_MAX_PEERS];
	/* the estimates' memory (elec_core_set_est()) */
	struct elec_peer_est est[FZ_MAX_PEERS];
	u32 model_id[64];	/* the ids of fz_models[] */
	u32 n_model;
	u64 wall_off;		/* the wall clock at the key's setting - now */
	bool bad_mac;		/* the frame being received fails its MAC */
	u32 verified;		/* MAC checks the core asked for */
	bool tx_ctr_sent;	/* a frame with a counter was sent */
	u64 tx_ctr;		/* its counter */
};

#define fz_fail(f, ...) do {						\
	fprintf(stderr, "fuzz_core: %s:%d: ", __FILE__, __LINE__);	\
	fprintf(stderr, __VA_ARGS__);					\
	fprintf(stderr, " (algo %u, now %llu)\n", (f)->c.cfg.algo,	\
		(unsigned long long)(f)->now);				\
	__builtin_trap();						\
} while (0)

#define fz_check(f, cond, ...) do {					\
	if (!(cond))							\
		fz_fail(f, "check failed: " #cond ": " __VA_ARGS__);	\
} while (0)

/*
 * Known core bugs (reproducers in crashes/core/): tolerated so that the
 * fuzzer goes on looking for others, unless the environment names them:
 * FUZZ_STRICT=all, or a comma-separated list of names, makes them failures
 * again. None is tolerated today; the last, far-behind-keeps-term, is
 * fixed (bully.c, elec_bully_announced()).
 */
static __attribute__((unused)) bool fz_known_bug(struct fz *f, bool cond, const char *name)
{
	static const char *strict;
	static bool init;

	(void)f;
	if (!init) {
		strict = getenv("FUZZ_STRICT");
		init = true;
	}
	if (!cond)
		return false;
	if (strict && (!strcmp(strict, "all") || strstr(strict, name)))
		return false;
	if (fz_trace > 0)
		fprintf(stderr, "fuzz_core: known bug %s tolerated\n", name);
	return true;
}

/* the last counter the model says the core accepted from @id */
static struct fz_auth_model *fz_model(struct fz *f, u32 id)
{
	u32 i;

	for (i = 0; i < f->n_model; i++)
		if (f->model_id[i] == id)
			return &fz_models[i];
	if (f->n_model == 64)
		abort();	/* more ids than the input can name */
	f->model_id[f->n_model] = id;
	memset(&fz_models[f->n_model], 0, sizeof(fz_models[0]));
	return &fz_models[f->n_model++];
}

/* whether the model refuses @ctr as a replay */
static bool fz_model_seen(const struct fz_auth_model *am, u64 ctr)
{
	u64 back, n;
	u32 i;

	if (!am->top || ctr > am->top)
		return false;
	if (ctr == am->top)
		return true;
	back = (am->top - ctr) & ELECTION_AUTH_SEQ_MASK;
	if (!back || back >= ELEC_AUTH_REORDER)
		return true;
	n = am->topn - back;
	if (n < am->base)
		return true;
	for (i = 0; i < am->n; i++)
		if (am->acc[i] == n)
			return true;
	return false;
}

static void fz_model_accept(struct fz_auth_model *am, u64 ctr)
{
	u64 fwd = (ctr - am->top) & ELECTION_AUTH_SEQ_MASK;
	u32 i, j;

	if (am->top && ctr < am->top) {
		am->acc[am->n++] = am->topn -
				   ((am->top - ctr) & ELECTION_AUTH_SEQ_MASK);
	} else {
		if (!am->top || !fwd || fwd > ELECTION_AUTH_SEQ_MASK / 2) {
			/* the first, or a new count: all behind it taken */
			am->n = 0;
			am->topn = (1ULL << 40) + (ctr & ELECTION_AUTH_SEQ_MASK);
			am->base = am->top ? am->topn : 0;
		} else {
			am->topn += fwd;
		}
		am->top = ctr;
		am->acc[am->n++] = am->topn;
		/* what is a map's width behind can never be asked again */
		for (i = j = 0; i < am->n; i++)
			if (am->topn - am->acc[i] < ELEC_AUTH_MAP_BITS)
				am->acc[j++] = am->acc[i];
		am->n = j;
	}
	if (am->n == FZ_AM_KEEP)
		abort();	/* cannot be: at most one per frame number */
	am->recent[am->n_recent++ % 8] = ctr;
}

/* an accepted counter for the inputs to repeat (the highest when @b is 0) */
static u64 fz_model_recent(const struct fz_auth_model *am, u8 b)
{
	u32 n = am->n_recent < 8 ? am->n_recent : 8;

	if (!b || !n)
		return am->top;
	return am->recent[b % n];
}

/* the receiver's wall clock, as the key's setting gave it */
static u64 fz_wall_now(const struct fz *f)
{
	return f->now + f->wall_off;
}

static bool fz_in_window(const struct fz *f, u64 ctr)
{
	u64 wall = fz_wall_now(f), win = elec_config_auth_window(&f->c.cfg);

	/* the counter's clock part: its low bits are the frame number */
	ctr &= ~ELECTION_AUTH_SEQ_MASK;
	return ctr > wall ? ctr - wall <= win : wall - ctr <= win;
}

static bool fz_is_peer(struct fz *f, u32 id)
{
	return elec_core_peer_find(&f->c, id) != NULL;
}


/*
 * 0, the local id or a configured peer (a run that a deleted peer had
 * answered named it once: "deleted-peer-named", fixed, its reproducer
 * kept in crashes/).
 */
static bool fz_valid_leader(struct fz *f, u32 id)
{
	return !id || id == f->c.cfg.self_id || fz_is_peer(f, id);
}

static void fz_check_send(struct fz *f, const struct elec_msg *m)
{
	struct elec_core *c = &f->c;
	u8 buf[ELECTION_HDR_LEN + ELECTION_MAX_PAYLOAD + 8];
	u32 max = elec_core_max_frame(c, f->max_n_peers + 1);
	struct elec_msg d;
	size_t len;
	int r;

	fz_check(f, m->src == c->cfg.self_id, "src %u", m->src);
	fz_check(f, m->group == c->cfg.group, "group %u", m->group);
	fz_check(f, m->algo == c->cfg.algo, "algo %u", m->algo);
	fz_check(f, m->type > ELEC_MSG_UNSPEC && m->type <= ELEC_MSG_MAX &&
		 m->type != ELEC_MSG_RETRY, "type %u", m->type);
	fz_check(f, !(m->flags & ~ELECTION_FLAG_AUTH) ||
		 ((m->flags & ~ELECTION_FLAG_AUTH) == ELECTION_FLAG_LEAVING &&
		  m->type == ELEC_MSG_HEARTBEAT),
		 "flags %#x on type %u", m->flags, m->type);
	fz_check(f, !(m->flags & ELECTION_FLAG_AUTH) == !c->auth.rx,
		 "flags %#x, key %s", m->flags, c->auth.rx ? "set" : "none");
	if (m->flags & ELECTION_FLAG_AUTH) {
		/*
		 * the counter never goes back, and repeats only at the top;
		 * but for a last one whose clock part is more than the window
		 * ahead of the wall clock (refused everywhere): then the wall
		 * clock itself, the frame numbers going on
		 */
		u64 wall = fz_wall_now(f) & ~ELECTION_AUTH_SEQ_MASK;
		u64 win = elec_config_auth_window(&c->cfg);
		u64 seq = (f->tx_ctr + 1) & ELECTION_AUTH_SEQ_MASK;

		/* the frame number: one more each frame */
		fz_check(f, !f->tx_ctr_sent || m->auth_ctr == U64_MAX ||
			 (m->auth_ctr & ELECTION_AUTH_SEQ_MASK) == seq,
			 "frame number %llu after %llu",
			 (unsigned long long)(m->auth_ctr &
					      ELECTION_AUTH_SEQ_MASK),
			 (unsigned long long)(f->tx_ctr &
					      ELECTION_AUTH_SEQ_MASK));
		/* the clock part: the wall clock's tick, or the last one's */
		fz_check(f, !f->tx_ctr_sent || m->auth_ctr == U64_MAX ||
			 (m->auth_ctr & ~ELECTION_AUTH_SEQ_MASK) == wall ||
			 (m->auth_ctr & ~ELECTION_AUTH_SEQ_MASK) ==
			 (f->tx_ctr & ~ELECTION_AUTH_SEQ_MASK) +
			 (seq ? 0 : ELECTION_AUTH_SEQ_MASK + 1),
			 "clock part %llu after %llu (wall %llu)",
			 (unsigned long long)m->auth_ctr,
			 (unsigned long long)f->tx_ctr,
			 (unsigned long long)wall);
		fz_check(f, !f->tx_ctr_sent || m->auth_ctr > f->tx_ctr ||
			 (m->auth_ctr == U64_MAX && f->tx_ctr == U64_MAX) ||
			 (m->auth_ctr == (wall | seq) &&
			  wall <= U64_MAX - win &&
			  (f->tx_ctr & ~ELECTION_AUTH_SEQ_MASK) > wall + win),
			 "counter %llu after %llu (wall %llu)",
			 (unsigned long long)m->auth_ctr,
			 (unsigned long long)f->tx_ctr,
			 (unsigned long long)wall);
		f->tx_ctr_sent = true;
		f->tx_ctr = m->auth_ctr;
	}
	/* module/tx.c WARNs on a unicast to an id outside the peer table */
	fz_check(f, !m->dst || fz_is_peer(f, m->dst),
		 "type %u to %u, not a peer", m->type, m->dst);
	fz_check(f, m->dst != c->cfg.self_id, "type %u to itself", m->type);
	fz_check(f, !m->payload_len || m->payload, "payload NULL");
	fz_check(f, m->payload_len <= ELECTION_MAX_PAYLOAD, "payload_len %u",
		 m->payload_len);

	len = elec_codec_encode(m, buf, sizeof(buf));
	fz_check(f, len == (size_t)ELECTION_HDR_LEN + m->payload_len +
		 (m->flags & ELECTION_FLAG_AUTH ? ELECTION_AUTH_LEN : 0),
		 "encoded %zu bytes, type %u payload %u", len, m->type,
		 m->payload_len);
	fz_check(f, len <= max, "type %u: %zu bytes, max_frame %u (%u peers)",
		 m->type, len, max, f->max_n_peers);
	memcpy(f->sent, buf, len);
	f->sent_len = (u16)len;
	f->sent_term = m->term;

	/* an ALIVE naming a leader at term 0 was "alive-term0", fixed */
	r = elec_codec_decode(buf, len, &d);
	fz_check(f, r == ELEC_DECODE_OK, "type %u payload %u: sent frame decodes as %s",
		 m->type, m->payload_len, elec_decode_reason(r));
	fz_check(f, d.type == m->type && d.algo == m->algo &&
		 d.flags == m->flags && d.group == m->group &&
		 d.payload_len == m->payload_len && d.src == m->src &&
		 d.dst == m->dst && d.term == m->term &&
		 (!(m->flags & ELECTION_FLAG_AUTH) || d.auth_ctr == m->auth_ctr),
		 "round trip");
	fz_check(f, !m->payload_len ||
		 !memcmp(d.payload, m->payload, m->payload_len), "payload");
}

static void fz_trace_action(const struct fz *f, const struct elec_action *a);

/* the embedder's MAC check (elec_sink.verify): FZ_LL_BADMAC fails it */
static bool fz_verify(void *ctx, const struct elec_msg *msg)
{
	struct fz *f = ctx;

	f->verified++;
	fz_check(f, msg->flags & ELECTION_FLAG_AUTH && f->c.auth.rx,
		 "MAC asked of flags %#x, key %s", msg->flags,
		 f->c.auth.rx ? "set" : "none");
	return !f->bad_mac;
}

static void fz_emit(void *ctx, const struct elec_action *act)
{
	struct fz *f = ctx;
	struct elec_core *c = &f->c;

	f->n_actions++;
	if (fz_trace > 0)
		fz_trace_action(f, act);
	fz_check(f, act->now_ns == f->now, "action at %llu",
		 (unsigned long long)act->now_ns);
	fz_check(f, f->call != FZ_CALL_NOOP, "action %d from a no-op input",
		 act->kind);
	fz_check(f, f->was_running || f->call == FZ_CALL_START,
		 "action %d while stopped", act->kind);
	fz_check(f, !f->stopped_event, "action %d after STOPPED", act->kind);
	if (f->call == FZ_CALL_STOP)
		fz_check(f, act->kind == ELEC_ACT_TIMER_CANCEL ||
			 (act->kind == ELEC_ACT_EVENT &&
			  act->event.type == ELEC_EVENT_STOPPED),
			 "action %d in a stop", act->kind);

	switch (act->kind) {
	case ELEC_ACT_SEND:
		f->n_sends++;
		fz_check_send(f, &act->msg);
		break;
	case ELEC_ACT_TIMER_ARM:
		fz_check(f, act->timer.id < ELEC_TIMER_COUNT, "arm id %u",
			 act->timer.id);
		fz_check(f, act->timer.expires_ns, "armed at 0");
		fz_check(f, c->running, "arm while not running");
		fz_check(f, elec_timer_name(c->ops, act->timer.id), "timer name");
		f->armed[act->timer.id] = act->timer.expires_ns;
		break;
	case ELEC_ACT_TIMER_CANCEL:
		fz_check(f, act->timer.id < ELEC_TIMER_COUNT, "cancel id %u",
			 act->timer.id);
		fz_check(f, f->armed[act->timer.id], "cancel of unarmed %u",
			 act->timer.id);
		f->armed[act->timer.id] = 0;
		break;
	case ELEC_ACT_EVENT:
		fz_check(f, act->event.type > ELEC_EVENT_UNSPEC &&
			 act->event.type <= ELEC_EVENT_MAX, "event %u",
			 act->event.type);
		fz_check(f, act->event.leader == c->leader &&
			 act->event.term == c->term, "event %u: leader %u term %llu",
			 act->event.type, act->event.leader,
			 (unsigned long long)act->event.term);
		if (act->event.type == ELEC_EVENT_PEER_UP ||
		    act->event.type == ELEC_EVENT_PEER_DOWN)
			fz_check(f, fz_is_peer(f, act->event.peer),
				 "peer event %u for %u", act->event.type,
				 act->event.peer);
		else
			fz_check(f, !act->event.peer, "event %u peer %u",
				 act->event.type, act->event.peer);
		if (act->event.type == ELEC_EVENT_LEADER_CHANGED)
			fz_check(f, fz_valid_leader(f, act->event.leader),
				 "leader %u", act->event.leader);
		if (act->event.type == ELEC_EVENT_STOPPED) {
			fz_check(f, f->call == FZ_CALL_STOP, "STOPPED event");
			fz_check(f, !act->event.leader, "stopped with leader");
			f->stopped_event = true;
		}
		break;
	default:
		fz_fail(f, "action kind %d", act->kind);
	}
}

static u64 fz_sum(const u64 *v, size_t n)
{
	u64 s = 0;
	size_t i;

	for (i = 0; i < n; i++)
		s += v[i];
	return s;
}

static void fz_begin(struct fz *f, enum fz_call call)
{
	f->call = call;
	f->was_running = f->c.running;
	f->n_actions = 0;
	f->n_sends = 0;
	f->stopped_event = false;
	f->stats = f->c.stats;
	f->leader = f->c.leader;
}

/* the state after an input */
static void fz_end(struct fz *f)
{
	struct elec_core *c = &f->c;
	const u64 *now_s = (const u64 *)&c->stats;
	const u64 *old_s = (const u64 *)&f->stats;
	size_t i, n_s = sizeof(c->stats) / sizeof(u64);
	u64 rx;
	u32 k;

	for (k = 0; k < ELEC_TIMER_COUNT; k++)
		fz_check(f, f->armed[k] == c->timer_expires[k],
			 "timer %u: actions say %llu, core %llu", k,
			 (unsigned long long)f->armed[k],
			 (unsigned long long)c->timer_expires[k]);
	if (c->running) {
		fz_check(f, c->role != ELEC_ROLE_STOPPED, "running, role stopped");
		fz_check(f, c->role <= ELEC_ROLE_MAX, "role %u", c->role);
	} else {
		fz_check(f, c->role == ELEC_ROLE_STOPPED && !c->leader,
			 "stopped: role %u leader %u", c->role, c->leader);
		for (k = 0; k < ELEC_TIMER_COUNT; k++)
			fz_check(f, !c->timer_expires[k], "stopped, timer %u armed", k);
	}
	if (f->call == FZ_CALL_STOP && f->was_running)
		fz_check(f, f->stopped_event, "stop without STOPPED");
	if (c->role == ELEC_ROLE_LEADER)
		fz_check(f, c->leader == c->cfg.self_id, "role leader, leader %u",
			 c->leader);
	/* standby: never the leader (protocol.rst, "Standby") */
	if (c->running && c->standby)
		fz_check(f, c->role != ELEC_ROLE_LEADER &&
			 c->leader != c->cfg.self_id,
			 "in standby, role %u leader %u", c->role, c->leader);
	if (c->leader != f->leader)
		fz_check(f, fz_valid_leader(f, c->leader), "leader %u", c->leader);

	fz_check(f, c->n_peers <= c->max_peers, "n_peers %u", c->n_peers);
	for (k = 0; k < c->n_peers; k++) {
		fz_check(f, c->peers[k].id && c->peers[k].id != c->cfg.self_id,
			 "peer id %u", c->peers[k].id);
		fz_check(f, !k || c->peers[k - 1].id < c->peers[k].id,
			 "peer table unsorted");
	}
	if (elec_algo_is_ring(c->cfg.algo))
		fz_check(f, c->ring.q_len <= c->ring.q_cap, "ring queue %u of %u",
			 c->ring.q_len, c->ring.q_cap);
	/*
	 * the replay state stays parallel to the peer table through adds and
	 * dels, and is the model's: the highest, and every frame number
	 * behind it that a frame could still be refused for
	 */
	fz_check(f, !c->auth.rx || c->auth.rx == f->auth_rx,
		 "auth rx array moved");
	for (k = 0; c->auth.rx && k < c->n_peers; k++) {
		const struct elec_auth_peer *ap = &c->auth.rx[k];
		const struct fz_auth_model *am = fz_model(f, c->peers[k].id);
		bool taken[ELEC_AUTH_REORDER];
		u64 back;
		u32 j;

		fz_check(f, ap->top == am->top,
			 "peer %u: highest %llu, model %llu", c->peers[k].id,
			 (unsigned long long)ap->top,
			 (unsigned long long)am->top);
		if (!am->top)
			continue;
		for (back = 0; back < ELEC_AUTH_REORDER; back++)
			taken[back] = am->topn - back < am->base;
		for (j = 0; j < am->n; j++)
			if (am->topn - am->acc[j] < ELEC_AUTH_REORDER)
				taken[am->topn - am->acc[j]] = true;
		for (back = 1; back < ELEC_AUTH_REORDER && back < am->top;
		     back++) {
			u64 n = (am->top - back) & (ELEC_AUTH_MAP_BITS - 1);
			bool bit = (ap->map[n / 64] >> (n % 64)) & 1;

			fz_check(f, bit == taken[back],
				 "peer %u: frame %llu behind, map %d, model %d",
				 c->peers[k].id, (unsigned long long)back, bit,
				 taken[back]);
		}
	}

	/* the estimates: the embedder's memory; every window and T in range */
	fz_check(f, !c->est || c->est == f->est, "est array moved");
	for (k = 0; k < c->n_peers; k++) {
		const struct elec_peer_est *e = elec_core_est(c, &c->peers[k]);
		u64 w = elec_detect_peer_ns(&c->cfg, e);
		u64 t = elec_rtt_timeout_ns(c, &c->peers[k]);

		fz_check(f, w >= elec_detect_min_ns(&c->cfg) &&
			 w <= elec_detect_max_ns(&c->cfg),
			 "peer %u: window %llu outside [%llu, %llu]",
			 c->peers[k].id, (unsigned long long)w,
			 (unsigned long long)elec_detect_min_ns(&c->cfg),
			 (unsigned long long)elec_detect_max_ns(&c->cfg));
		fz_check(f, t == c->cfg.timeout_ns ||
			 (c->cfg.timeout_auto && t >= ELECTION_DUR_MIN_NS &&
			  t <= elec_rtt_ceiling_ns(&c->cfg)),
			 "peer %u: T %llu", c->peers[k].id,
			 (unsigned long long)t);
	}

	for (i = 0; i < n_s; i++)
		fz_check(f, now_s[i] >= old_s[i], "counter %zu went down", i);
	fz_check(f, fz_sum(c->stats.tx, ELEC_MSG_MAX + 1) -
		 fz_sum(f->stats.tx, ELEC_MSG_MAX + 1) == f->n_sends,
		 "tx counted %llu, sent %u",
		 (unsigned long long)(fz_sum(c->stats.tx, ELEC_MSG_MAX + 1) -
				      fz_sum(f->stats.tx, ELEC_MSG_MAX + 1)),
		 f->n_sends);
	rx = fz_sum(c->stats.rx, ELEC_MSG_MAX + 1) -
	     fz_sum(f->stats.rx, ELEC_MSG_MAX + 1);
	fz_check(f, rx <= (f->call == FZ_CALL_RX ? 1 : 0), "rx grew by %llu",
		 (unsigned long long)rx);
	if (f->call == FZ_CALL_RX && !rx)
		fz_check(f, fz_sum(c->stats.drops, ELEC_DROP_MAX + 1) >
			 fz_sum(f->stats.drops, ELEC_DROP_MAX + 1),
			 "a frame neither received nor dropped");
	fz_check(f, c->max_term >= c->term, "max_term %llu < term %llu",
		 (unsigned long long)c->max_term,
		 (unsigned long long)c->term);
	f->call = FZ_CALL_OTHER;
}

/*
 * elec_core_timer(): an expiry the core takes (running, armed, due)
 * unarms the timer without a cancel action; any other is a no-op
 */
static void fz_timer(struct fz *f, u8 id)
{
	struct elec_core *c = &f->c;
	bool takes = id < ELEC_TIMER_COUNT && c->running &&
		     c->timer_expires[id] && f->now >= c->timer_expires[id];

	fz_begin(f, takes ? FZ_CALL_OTHER : FZ_CALL_NOOP);
	if (takes)
		f->armed[id] = 0;
	elec_core_timer(c, id, f->now);
	fz_end(f);
}

/* fire timer @id at @now (now >= its expiry) */
static void fz_fire(struct fz *f, u32 id)
{
	fz_timer(f, id);
	f->fires++;
}

/* the earliest armed timer, ELEC_TIMER_COUNT if none */
static u32 fz_next_timer(struct fz *f)
{
	u32 k, best = ELEC_TIMER_COUNT;

	for (k = 0; k < ELEC_TIMER_COUNT; k++)
		if (f->c.timer_expires[k] &&
		    (best == ELEC_TIMER_COUNT ||
		     f->c.timer_expires[k] < f->c.timer_expires[best]))
			best = k;
	return best;
}

/* time moves to @to; armed timers fire at their expiry on the way */
static void fz_advance(struct fz *f, u64 to)
{
	u32 fired = 0, same = 0;
	u64 last = f->now;

	while (fired < FZ_ADVANCE_FIRES && f->fires < FZ_MAX_FIRES) {
		u32 k = fz_next_timer(f);
		u64 at;

		if (k == ELEC_TIMER_COUNT || f->c.timer_expires[k] > to)
			break;
		at = f->c.timer_expires[k];
		if (at > f->now)
			f->now = at;
		same = f->now == last ? same + 1 : 0;
		last = f->now;
		if (same > FZ_SAME_TIME_FIRES)
			fz_fail(f, "timer %u re-armed at or before now %d times",
				k, same);
		fz_fire(f, k);
		fired++;
	}
	if (to > f->now)
		f->now = to;
}

static u64 fz_add(u64 a, u64 b)
{
	return a + b < a ? U64_MAX : a + b;
}

/*
 * The counter and MAC rules: a keyed frame that reaches them is refused
 * (ELEC_DROP_AUTH_CLOCK) exactly when its counter is more than auth-window
 * from the receiver's wall clock, then (ELEC_DROP_AUTH_REPLAY) exactly when
 * the model has it as accepted before, then (ELEC_DROP_AUTH_BAD) when its
 * MAC fails; its MAC is checked only when the counter passed (once), or
 * to tell a wrong address's origin; only a frame that passes all is
 * recorded.
 */
static void fz_rx_auth(struct fz *f, const struct elec_msg *m, bool keyed)
{
	const struct elec_stats *s = &f->c.stats, *s0 = &f->stats;
	u64 clock = s->drops[ELEC_DROP_AUTH_CLOCK] -
		    s0->drops[ELEC_DROP_AUTH_CLOCK];
	u64 replays = s->drops[ELEC_DROP_AUTH_REPLAY] -
		      s0->drops[ELEC_DROP_AUTH_REPLAY];
	u64 bad = s->drops[ELEC_DROP_AUTH_BAD] - s0->drops[ELEC_DROP_AUTH_BAD];
	u64 lladdr = s->drops[ELEC_DROP_WRONG_LLADDR] -
		     s0->drops[ELEC_DROP_WRONG_LLADDR];
	/* taken, or refused by a check after the MAC: recorded */
	bool passed = fz_sum(s->rx, ELEC_MSG_MAX + 1) !=
		      fz_sum(s0->rx, ELEC_MSG_MAX + 1) ||
		      s->drops[ELEC_DROP_TERM_TOO_FAR] !=
		      s0->drops[ELEC_DROP_TERM_TOO_FAR] ||
		      s->drops[ELEC_DROP_MALFORMED] !=
		      s0->drops[ELEC_DROP_MALFORMED];
	struct fz_auth_model *am;

	if (!keyed || !(m->flags & ELECTION_FLAG_AUTH)) {
		fz_check(f, !clock && !replays && !bad && !f->verified,
			 "counter or MAC drops (%llu %llu %llu), %u MACs, without a trailer and a key",
			 (unsigned long long)clock, (unsigned long long)replays,
			 (unsigned long long)bad, f->verified);
		return;
	}
	am = fz_model(f, m->src);
	fz_check(f, f->verified <= 1, "%u MACs for one frame", f->verified);
	if (clock) {
		fz_check(f, clock == 1 && !fz_in_window(f, m->auth_ctr) &&
			 !f->verified,
			 "counter %llu, wall %llu: auth_clock, %u MACs",
			 (unsigned long long)m->auth_ctr,
			 (unsigned long long)fz_wall_now(f), f->verified);
	} else if (replays) {
		fz_check(f, replays == 1 && fz_in_window(f, m->auth_ctr) &&
			 fz_model_seen(am, m->auth_ctr) && !f->verified,
			 "counter %llu: auth_replay, model seen %d, %u MACs",
			 (unsigned long long)m->auth_ctr,
			 fz_model_seen(am, m->auth_ctr), f->verified);
	} else if (bad) {
		fz_check(f, bad == 1 && f->bad_mac && f->verified == 1 &&
			 fz_in_window(f, m->auth_ctr) &&
			 !fz_model_seen(am, m->auth_ctr),
			 "counter %llu: auth_bad, %u MACs",
			 (unsigned long long)m->auth_ctr, f->verified);
	} else if (passed) {
		fz_check(f, fz_in_window(f, m->auth_ctr) &&
			 !fz_model_seen(am, m->auth_ctr) && !f->bad_mac &&
			 f->verified == 1,
			 "counter %llu, wall %llu: taken, model seen %d, %u MACs",
			 (unsigned long long)m->auth_ctr,
			 (unsigned long long)fz_wall_now(f),
			 fz_model_seen(am, m->auth_ctr), f->verified);
		fz_model_accept(am, m->auth_ctr);
	} else {
		/* an earlier check refused it: no MAC, but for an address */
		fz_check(f, !f->verified || lladdr,
			 "a MAC for a frame refused before the counter");
	}
}

static void fz_rx_bytes(struct fz *f, const u8 *buf, size_t len, u8 ll_mode)
{
	enum elec_decode_result r;
	bool keyed;
	struct elec_msg m;
	u8 ll[ELEC_LLADDR_LEN];

	r = elec_codec_decode(buf, len, &m);
	if (r != ELEC_DECODE_OK) {
		/* the embedder counts it as malformed or truncated */
		fz_check(f, r < ELEC_DECODE_COUNT && elec_decode_reason(r),
			 "decode result %d", r);
		return;
	}
	f->bad_mac = (ll_mode & 3) == FZ_LL_BADMAC;
	f->verified = 0;
	switch (ll_mode & 3) {
	case FZ_LL_NONE:
		m.src_lladdr = NULL;
		break;
	case FZ_LL_WRONG:
		fz_lladdr(m.src ^ 0x80, ll);
		m.src_lladdr = ll;
		break;
	default:
		fz_lladdr(m.src, ll);
		m.src_lladdr = ll;
		break;
	}
	if (fz_trace > 0)
		fprintf(stderr, "%llu: rx type %u src %u dst %u term %llu flags %#x len %u%s\n",
			(unsigned long long)f->now, m.type, m.src, m.dst,
			(unsigned long long)m.term, m.flags, m.payload_len,
			m.src_lladdr ? "" : " (no lladdr)");
	keyed = f->c.auth.rx;
	fz_begin(f, FZ_CALL_RX);
	elec_core_rx(&f->c, &m, f->now);
	fz_rx_auth(f, &m, keyed);
	fz_end(f);
}

static u32 fz_sent_word(struct fz *f, u32 i)
{
	u32 off = ELECTION_HDR_LEN + 4 * i;

	if (off + 4 > f->sent_len)
		return 0;
	return elec_get32(f->sent + off);
}

static void fz_op_frame(struct fz *f, struct fz_in *in)
{
	struct elec_core *c = &f->c;
	u8 sel = in_u8(in), type = in_u8(in), bits = in_u8(in);
	u8 tsel = in_u8(in), words, extra, i;
	u8 payload[ELECTION_MAX_PAYLOAD];
	u8 buf[ELECTION_HDR_LEN + ELECTION_MAX_PAYLOAD + ELECTION_AUTH_LEN];
	struct elec_msg m;
	u16 len = 0;
	size_t n;
	u32 src;

	if (sel % (c->n_peers + 2) < c->n_peers)
		src = c->peers[sel % (c->n_peers + 2)].id;
	else if (sel % (c->n_peers + 2) == c->n_peers)
		src = c->cfg.self_id;
	else
		src = f->ghost ? f->ghost : 0x7777;

	memset(&m, 0, sizeof(m));
	m.type = type;
	m.algo = c->cfg.algo;
	if (bits & FZ_FB_WRONG_ALGO)
		m.algo = 1 + m.algo % ELEC_ALGO_MAX;
	m.group = c->cfg.group;
	if (bits & FZ_FB_WRONG_GROUP)
		m.group++;
	m.src = src;
	switch (bits & FZ_FB_DST_MASK) {
	case 1:
		m.dst = 0;
		break;
	case 2:
		m.dst = c->n_peers ? c->peers[(sel + 1) % c->n_peers].id : 1;
		break;
	default:
		m.dst = c->cfg.self_id;
		break;
	}
	m.flags = bits & FZ_FB_LEAVING ? ELECTION_FLAG_LEAVING : 0;

	switch (tsel & 15) {
	case FZ_TERM_CUR:
		m.term = c->term;
		break;
	case FZ_TERM_CUR_NEXT:
		m.term = fz_add(c->term, 1);
		break;
	case FZ_TERM_MAX:
		m.term = c->max_term;
		break;
	case FZ_TERM_MAX_NEXT:
		m.term = fz_add(c->max_term, 1);
		break;
	case FZ_TERM_SENT:
		m.term = f->sent_term;
		break;
	case FZ_TERM_ZERO:
		m.term = 0;
		break;
	case FZ_TERM_RAW:
		m.term = in_be64(in);
		break;
	case FZ_TERM_TOO_FAR:
		m.term = fz_add(c->max_term, ELECTION_TERM_MAX_AHEAD + 1);
		break;
	case FZ_TERM_TOP:
		m.term = U64_MAX;
		break;
	case FZ_TERM_CUR_PREV:
		m.term = c->term ? c->term - 1 : 0;
		break;
	case FZ_TERM_MAX_PLUS:
		m.term = fz_add(c->max_term, in_u8(in));
		break;
	default:
		m.term = c->term;
		break;
	}

	words = in_u8(in) % 64;
	for (i = 0; i < words; i++) {
		u8 w = in_u8(in);
		u32 v;

		if (w < 0x40) {
			u32 k = w % (c->n_peers + 1);

			v = k < c->n_peers ? c->peers[k].id : c->cfg.self_id;
		} else if (w < 0x60) {
			v = w - 0x40;
		} else if (w < 0x80) {
			v = (u32)(w - 0x60) << 16;
		} else if (w < 0x90) {
			v = fz_sent_word(f, w & 15);
		} else if (w < 0xa0) {
			v = fz_sent_word(f, w & 15) + 1;
		} else {
			v = in_be32(in);
		}
		elec_put32(payload + len, v);
		len += 4;
	}
	extra = in_u8(in);
	for (i = 0; i < (extra & 3); i++)
		payload[len++] = in_u8(in);
	if (bits & FZ_FB_AUTH)
		m.flags |= ELECTION_FLAG_AUTH;
	if (tsel & FZ_TS_RAW_FLAGS)
		m.flags = in_u8(in);
	if (m.flags & ELECTION_FLAG_AUTH) {
		const struct fz_auth_model *am = fz_model(f, src);
		u64 top = am->top;
		u64 win = elec_config_auth_window(&c->cfg);
		u8 b;

		switch (in_u8(in) % FZ_CTR_COUNT) {
		case FZ_CTR_NEXT:
			m.auth_ctr = fz_add(top, 1);
			if (!fz_in_window(f, m.auth_ctr))
				m.auth_ctr = fz_wall_now(f);
			break;
		case FZ_CTR_SAME:
			b = in_u8(in);
			m.auth_ctr = top ? fz_model_recent(am, b) :
				     fz_wall_now(f);
			break;
		case FZ_CTR_ZERO:
			m.auth_ctr = 0;
			break;
		case FZ_CTR_TOP:
			m.auth_ctr = U64_MAX;
			break;
		case FZ_CTR_RAW:
			m.auth_ctr = in_be64(in);
			break;
		case FZ_CTR_BELOW:
			/* behind an accepted one, often by more than the map */
			b = in_u8(in);
			m.auth_ctr = top ? fz_model_recent(am, b & 7) :
				     fz_wall_now(f);
			m.auth_ctr -= m.auth_ctr > 8ULL * b ? 1U + 8ULL * b : 0;
			break;
		case FZ_CTR_AHEAD:
			b = in_u8(in);
			m.auth_ctr = fz_add(top ? top : fz_wall_now(f),
					    1 + 8ULL * b);
			break;
		case FZ_CTR_WRAP:
			b = in_u8(in);
			m.auth_ctr = ((top ? top : fz_wall_now(f)) &
				      ~ELECTION_AUTH_SEQ_MASK) |
				     (ELECTION_AUTH_SEQ_MASK - b);
			break;
		case FZ_CTR_EDGE:
			b = in_u8(in);
			m.auth_ctr = b & 2 ? fz_add(fz_wall_now(f), win) :
				     fz_wall_now(f) - win;
			m.auth_ctr += b & 1 ? 1 : -1;
			break;
		default:
			m.auth_ctr = fz_add(top, 1ULL << 40);
			break;
		}
	}
	m.payload_len = len;
	m.payload = len ? payload : NULL;

	n = elec_codec_encode(&m, buf, sizeof(buf));
	if (!n)
		fz_fail(f, "encode of a %u-byte payload", len);
	fz_rx_bytes(f, buf, n, bits >> FZ_FB_LL_SHIFT);
}

static void fz_op_raw(struct fz *f, struct fz_in *in)
{
	u8 buf[FZ_RAW_MAX];
	size_t len = in_u8(in), i;
	u8 *heap;

	if (len == 255)
		len = in_be16(in);
	if (len > FZ_RAW_MAX)
		len = FZ_RAW_MAX;
	if (len > in->left)
		len = in->left;
	for (i = 0; i < len; i++)
		buf[i] = in_u8(in);
	/* an exact-size copy: ASan sees any read past the frame */
	heap = malloc(len ? len : 1);
	if (!heap)
		abort();
	memcpy(heap, buf, len);
	fz_rx_bytes(f, heap, len, in_u8(in));
	free(heap);
}

static void fz_set_est(struct fz *f, bool give);

static void fz_op_set_config(struct fz *f, struct fz_in *in)
{
	struct elec_core *c = &f->c;
	struct elec_config cfg = c->cfg, old = c->cfg;
	u8 knob = in_u8(in) % FZ_KNOB_COUNT, v = in_u8(in);
	const char *why = NULL;
	int err;

	switch (knob) {
	case FZ_KNOB_HB_INTERVAL:
		cfg.hb_interval_ns = fz_dur(v);
		break;
	case FZ_KNOB_TIMEOUT:
		cfg.timeout_ns = fz_dur(v);
		break;
	case FZ_KNOB_HB_MISS:
		cfg.hb_miss = fz_hb_miss(v);
		break;
	case FZ_KNOB_COORD_TIMEOUT:
		cfg.coord_timeout_ns = fz_opt_dur(v);
		break;
	case FZ_KNOB_PREEMPT_DELAY:
		cfg.preempt_delay_ns = fz_opt_dur(v);
		break;
	case FZ_KNOB_SEARCH:
		cfg.search_interval_ns = fz_opt_dur(v);
		break;
	case FZ_KNOB_OPTS:
		cfg.quorum = v & FZ_OPT_QUORUM;
		cfg.suppress_off = v & FZ_OPT_SUPPRESS_OFF;
		cfg.ask_suspect_off = v & FZ_OPT_ASK_SUSPECT_OFF;
		cfg.preempt_off = v & FZ_OPT_PREEMPT_OFF;
		cfg.detector = v & FZ_OPT_ADAPTIVE ?
			       ELECTION_DETECTOR_ADAPTIVE :
			       ELECTION_DETECTOR_FIXED;
		cfg.timeout_auto = v & FZ_OPT_TIMEOUT_AUTO;
		cfg.standby_tracked = v & FZ_OPT_STANDBY;
		break;
	case FZ_KNOB_DETECTOR_MARGIN:
		cfg.detector_margin_ns = fz_opt_dur(v);
		break;
	case FZ_KNOB_DETECTOR_MAX:
		cfg.detector_max_ns = fz_opt_dur(v);
		break;
	default:
		switch (v & 3) {
		case 0:
			cfg.self_id++;
			break;
		case 1:
			cfg.group++;
			break;
		case 2:
			cfg.algo = 1 + cfg.algo % ELEC_ALGO_MAX;
			break;
		default:
			cfg.self_pos++;
			break;
		}
		break;
	}
	fz_begin(f, FZ_CALL_NOOP);
	err = elec_core_set_config(c, &cfg, &why);
	fz_end(f);
	if (err) {
		fz_check(f, why && *why, "refusal without a reason");
		fz_check(f, !memcmp(&c->cfg, &old, sizeof(old)),
			 "a refused set_config changed the configuration");
	} else {
		fz_check(f, knob != FZ_KNOB_IMMUTABLE, "an id change accepted");
		fz_check(f, !elec_config_check(&cfg, NULL), "invalid accepted");
		fz_check(f, !memcmp(&c->cfg, &cfg, sizeof(cfg)),
			 "set_config stored another configuration");
		/* the kernel's group set: the memory when first needed */
		if (elec_config_needs_est(&cfg) && !c->est)
			fz_set_est(f, true);
		/* then standby, as the kernel's group set applies it */
		fz_begin(f, c->running &&
			 c->standby != (cfg.standby || cfg.standby_tracked) ?
			 FZ_CALL_OTHER : FZ_CALL_NOOP);
		elec_core_standby_sync(c, f->now);
		fz_end(f);
		fz_check(f, !c->running ||
			 c->standby == (cfg.standby || cfg.standby_tracked),
			 "standby not in effect after standby_sync");
	}
}

/* the estimates' memory given (zeroed) or taken away */
static void fz_set_est(struct fz *f, bool give)
{
	if (give)
		memset(f->est, 0, sizeof(f->est));
	fz_begin(f, FZ_CALL_NOOP);
	elec_core_set_est(&f->c, give ? f->est : NULL);
	fz_end(f);
}

/* a key set (@b != 0), changed or removed: every accepted counter forgotten */
static void fz_set_auth(struct fz *f, u8 b)
{
	u32 i;

	for (i = 0; i < f->n_model; i++)
		memset(&fz_models[i], 0, sizeof(fz_models[i]));
	f->wall_off = fz_wall(b, f->now) - f->now;
	fz_begin(f, FZ_CALL_NOOP);
	elec_core_set_auth(&f->c, b ? f->auth_rx : NULL,
			   fz_wall(b, f->now), f->now);
	fz_end(f);
	fz_check(f, f->c.auth.rx == (b ? f->auth_rx : NULL), "key not set");
}

static void fz_op(struct fz *f, struct fz_in *in)
{
	struct elec_core *c = &f->c;
	u8 op = in_u8(in) % FZ_OP_COUNT;
	u64 d;

	if (fz_trace > 0)
		fprintf(stderr, "%llu: op %u (running %d role %u leader %u term %llu max_term %llu)\n",
			(unsigned long long)f->now, op, c->running, c->role,
			c->leader, (unsigned long long)c->term,
			(unsigned long long)c->max_term);

	switch (op) {
	case FZ_OP_FRAME:
		fz_op_frame(f, in);
		break;
	case FZ_OP_RAW:
		fz_op_raw(f, in);
		break;
	case FZ_OP_ADVANCE:
		d = in_varint(in);
		fz_advance(f, fz_add(f->now, d > FZ_ADVANCE_MAX ?
					     FZ_ADVANCE_MAX : d));
		break;
	case FZ_OP_STEP: {
		u8 n = in_u8(in);

		fz_advance(f, fz_add(f->now, n * fz_unit(in_u8(in))));
		break;
	}
	case FZ_OP_FIRE_NEXT: {
		u32 k = fz_next_timer(f);

		if (k < ELEC_TIMER_COUNT)
			fz_advance(f, c->timer_expires[k]);
		break;
	}
	case FZ_OP_TIMER:
		fz_timer(f, in_u8(in));
		break;
	case FZ_OP_SKIP: {
		u8 n = in_u8(in);

		f->now = fz_add(f->now, n * fz_unit(in_u8(in)));
		break;
	}
	case FZ_OP_START:
		fz_begin(f, c->running ? FZ_CALL_NOOP : FZ_CALL_START);
		elec_core_start(c, f->now);
		fz_end(f);
		fz_check(f, c->running, "not running after start");
		break;
	case FZ_OP_STOP:
		fz_begin(f, c->running ? FZ_CALL_STOP : FZ_CALL_NOOP);
		elec_core_stop(c, f->now);
		fz_end(f);
		break;
	case FZ_OP_ELECT:
		fz_begin(f, c->running ? FZ_CALL_OTHER : FZ_CALL_NOOP);
		elec_core_elect(c, f->now);
		fz_end(f);
		break;
	case FZ_OP_RESIGN: {
		static struct elec_core before;
		static struct elec_peer peers[FZ_MAX_PEERS];
		bool leads = c->running && c->role == ELEC_ROLE_LEADER &&
			     c->leader == c->cfg.self_id;

		before = *c;
		memcpy(peers, f->peers, sizeof(peers));
		fz_begin(f, leads ? FZ_CALL_OTHER : FZ_CALL_NOOP);
		elec_core_resign(c, f->now);
		fz_end(f);
		fz_check(f, f->n_sends == (leads ? 1 : 0), "resign sent %u",
			 f->n_sends);
		before.stats = c->stats;
		before.auth.tx_ctr = c->auth.tx_ctr;
		fz_check(f, !memcmp(&before, c, sizeof(before)) &&
			 !memcmp(peers, f->peers, sizeof(peers)),
			 "resign changed the state");
		break;
	}
	case FZ_OP_RESTART:
		fz_begin(f, c->running ? FZ_CALL_STOP : FZ_CALL_NOOP);
		elec_core_stop(c, f->now);
		fz_end(f);
		fz_begin(f, FZ_CALL_START);
		elec_core_start(c, f->now);
		fz_end(f);
		break;
	case FZ_OP_PEER_ADD: {
		u32 id = fz_id(in_u8(in));
		u8 pos = in_u8(in);
		u8 ll[ELEC_LLADDR_LEN];
		bool dup = fz_is_peer(f, id);
		u32 n = c->n_peers;
		int err;

		fz_lladdr(id, ll);
		fz_begin(f, FZ_CALL_NOOP);
		if (elec_algo_is_ring(c->cfg.algo))
			err = elec_core_peer_add_pos(c, id, ll, pos);
		else
			err = elec_core_peer_add(c, id, ll);
		fz_end(f);
		if (!id || id == c->cfg.self_id)
			fz_check(f, err == -EINVAL, "add of id %u: %d", id, err);
		else if (dup)
			fz_check(f, err == -EEXIST, "add of a peer: %d", err);
		else if (n == c->max_peers)
			fz_check(f, err == -ENOSPC, "add to a full table: %d", err);
		else
			fz_check(f, !err && c->n_peers == n + 1 && fz_is_peer(f, id),
				 "add of %u: %d", id, err);
		if (c->n_peers > f->max_n_peers)
			f->max_n_peers = c->n_peers;
		break;
	}
	case FZ_OP_PEER_DEL: {
		u8 b = in_u8(in);
		u32 id = b < 0x80 && c->n_peers ? c->peers[b % c->n_peers].id :
			 fz_id(b);
		bool was = fz_is_peer(f, id);
		int err;

		/* invitation re-forms its group when its coordinator goes */
		fz_begin(f, c->running ? FZ_CALL_OTHER : FZ_CALL_NOOP);
		err = elec_core_peer_del(c, id, f->now);
		fz_end(f);
		fz_check(f, was ? !err : err == -ENOENT, "del of %u: %d", id, err);
		fz_check(f, !fz_is_peer(f, id), "%u still a peer", id);
		if (was) {
			/* a new peer of that id starts afresh */
			memset(fz_model(f, id), 0, sizeof(struct fz_auth_model));
			f->ghost = id;
			if (f->n_deleted < 64)
				f->deleted[f->n_deleted++] = id;
		}
		break;
	}
	case FZ_OP_SET_CONFIG:
		fz_op_set_config(f, in);
		break;
	case FZ_OP_EST:
		fz_set_est(f, in_u8(in) & 1);
		break;
	case FZ_OP_AUTH:
		fz_set_auth(f, in_u8(in));
		break;
	}
}

static struct fz fz_state;

static void fz_trace_action(const struct fz *f, const struct elec_action *a)
{
	switch (a->kind) {
	case ELEC_ACT_SEND:
		fprintf(stderr, "  send type %u dst %u term %llu flags %#x len %u\n",
			a->msg.type, a->msg.dst,
			(unsigned long long)a->msg.term, a->msg.flags,
			a->msg.payload_len);
		break;
	case ELEC_ACT_TIMER_ARM:
		fprintf(stderr, "  arm %u at +%lld\n", a->timer.id,
			(long long)(a->timer.expires_ns - f->now));
		break;
	case ELEC_ACT_TIMER_CANCEL:
		fprintf(stderr, "  cancel %u\n", a->timer.id);
		break;
	default:
		fprintf(stderr, "  event %u peer %u leader %u term %llu\n",
			a->event.type, a->event.peer, a->event.leader,
			(unsigned long long)a->event.term);
		break;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz_in in = { data, size };
	struct fz *f = &fz_state;
	struct elec_config cfg;
	struct elec_sink sink = {
		.emit = fz_emit, .verify = fz_verify, .ctx = f
	};
	u8 opts, n, i;

	if (fz_trace < 0)
		fz_trace = getenv("FUZZ_TRACE") && atoi(getenv("FUZZ_TRACE"));
	memset(f, 0, sizeof(*f));
	f->now = 1000000000ULL;

	memset(&cfg, 0, sizeof(cfg));
	cfg.group = 1;
	cfg.algo = 1 + in_u8(&in) % ELEC_ALGO_MAX;
	opts = in_u8(&in);
	cfg.quorum = opts & FZ_OPT_QUORUM;
	cfg.suppress_off = opts & FZ_OPT_SUPPRESS_OFF;
	cfg.ask_suspect_off = opts & FZ_OPT_ASK_SUSPECT_OFF;
	cfg.preempt_off = opts & FZ_OPT_PREEMPT_OFF;
	cfg.detector = opts & FZ_OPT_ADAPTIVE ? ELECTION_DETECTOR_ADAPTIVE :
						ELECTION_DETECTOR_FIXED;
	cfg.timeout_auto = opts & FZ_OPT_TIMEOUT_AUTO;
	cfg.hb_interval_ns = fz_dur(in_u8(&in));
	cfg.timeout_ns = fz_dur(in_u8(&in));
	cfg.hb_miss = fz_hb_miss(in_u8(&in));
	cfg.coord_timeout_ns = fz_opt_dur(in_u8(&in));
	cfg.preempt_delay_ns = fz_opt_dur(in_u8(&in));
	cfg.search_interval_ns = fz_opt_dur(in_u8(&in));
	cfg.self_id = fz_id(in_u8(&in));
	cfg.self_pos = in_u8(&in);
	if (!elec_algo_is_ring(cfg.algo))
		cfg.self_pos = 0;

	if (elec_config_check(&cfg, NULL)) {
		if (!elec_core_init(&f->c, &cfg, f->peers, FZ_MAX_PEERS, &sink))
			fz_fail(f, "init took a configuration the check refused");
		return 0;
	}
	if (elec_core_init(&f->c, &cfg, f->peers, FZ_MAX_PEERS, &sink))
		fz_fail(f, "init refused a valid configuration");
	fz_check(f, elec_algo_find_name(f->c.ops->name) == f->c.ops,
		 "algorithm %s by name", f->c.ops->name);
	/* the kernel's group add: the estimates' memory when needed */
	if (elec_config_needs_est(&cfg))
		elec_core_set_est(&f->c, f->est);
	if (elec_algo_is_ring(cfg.algo)) {
		u32 cap = fz_queue_cap(in_u8(&in));

		elec_core_set_queue(&f->c, cap ? f->qmem : NULL, cap);
	} else {
		in_u8(&in);
	}
	n = in_u8(&in) % (FZ_HDR_PEERS + 1);
	for (i = 0; i < n; i++) {
		u32 id = fz_id(in_u8(&in));
		u8 pos = in_u8(&in);
		u8 ll[ELEC_LLADDR_LEN];

		fz_lladdr(id, ll);
		elec_core_peer_add_pos(&f->c, id, ll,
				       elec_algo_is_ring(cfg.algo) ? pos : 0);
	}
	f->max_n_peers = f->c.n_peers;
	if (opts & FZ_OPT_AUTH)
		fz_set_auth(f, 4);	/* fz_wall(): the core clock */
	if (fz_trace > 0)
		fprintf(stderr, "algo %u self %u peers %u quorum %d hb %llu miss %u T %llu\n",
			cfg.algo, cfg.self_id, f->c.n_peers, cfg.quorum,
			(unsigned long long)cfg.hb_interval_ns, cfg.hb_miss,
			(unsigned long long)cfg.timeout_ns);

	while (in.left)
		fz_op(f, &in);
	return 0;
}
