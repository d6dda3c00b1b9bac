/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The input format of the core fuzz target (fuzz_core.c), shared with the
 * seed generator (seedgen.c), which writes inputs in it.
 *
 * An input is a header that configures one instance, then a sequence of
 * operations, each an opcode byte (taken modulo FZ_OP_COUNT) and its
 * arguments. A missing byte reads as 0, so every byte string is an input.
 *
 * Header (FZ_HDR_LEN bytes, then the peers):
 *	0  algorithm: 1 + b % ELEC_ALGO_MAX
 *	1  option bits: FZ_OPT_*
 *	2  hb-interval: fz_dur(b)
 *	3  timeout: fz_dur(b)
 *	4  hb-miss: fz_hb_miss(b)
 *	5  coord-timeout: fz_opt_dur(b) (0: the default)
 *	6  preempt-delay: fz_opt_dur(b)
 *	7  search-interval: fz_opt_dur(b)
 *	8  local node id: fz_id(b)
 *	9  local ring position (rings only; 0: the id)
 *	10 ring queue: fz_queue_cap(b) bytes (rings only)
 *	11 peers: b % (FZ_HDR_PEERS + 1), then 2 bytes each: id (fz_id),
 *	   ring position (rings only)
 *
 * A configuration that elec_config_check() refuses ends the input there.
 */
#ifndef _ELEC_FUZZ_INPUT_H
#define _ELEC_FUZZ_INPUT_H

#include "core.h"

#define FZ_HDR_LEN		12
#define FZ_HDR_PEERS		8	/* peers the header may configure */
#define FZ_MAX_PEERS		16	/* capacity of the peer table */

#define FZ_OPT_QUORUM		0x01
#define FZ_OPT_SUPPRESS_OFF	0x02
#define FZ_OPT_ASK_SUSPECT_OFF	0x04
#define FZ_OPT_PREEMPT_OFF	0x08
#define FZ_OPT_AUTH		0x10	/* a key from the start (fz_wall(0)) */
#define FZ_OPT_ADAPTIVE		0x20	/* detector adaptive */
#define FZ_OPT_TIMEOUT_AUTO	0x40	/* timeout-auto on */
#define FZ_OPT_STANDBY		0x80	/* FZ_KNOB_OPTS: standby-tracked on */

/*
 * Operations. Arguments, in order (all bytes unless said otherwise):
 *
 * FZ_OP_FRAME: a frame built from fields: sender (b % (n_peers + 2): a
 *	peer, the local id, or a deleted id), type (raw), bits (FZ_FB_*),
 *	term (FZ_TERM_* in the low nibble; FZ_TS_RAW_FLAGS), payload words
 *	(count % 64, then count word selectors, below), then a byte: low 2
 *	bits raw extra payload bytes that follow; with FZ_TS_RAW_FLAGS a
 *	flags byte; with ELECTION_FLAG_AUTH in the flags, a counter
 *	selector (FZ_CTR_*) and, for SAME, BELOW, EDGE, AHEAD and WRAP, a
 *	byte b;
 *	encoded, then decoded and received as a real frame is (the MAC
 *	holds, the embedder's check of it, but with FZ_LL_BADMAC)
 * FZ_OP_RAW: a frame's bytes as they are: length (b; 255: a big-endian
 *	u16 follows, at most FZ_RAW_MAX), the bytes, lladdr mode (FZ_LL_*);
 *	decoded, and received when the decoder accepts it
 * FZ_OP_ADVANCE: time moves on by a LEB128 varint of ns (at most
 *	FZ_ADVANCE_MAX), firing each armed timer at its expiry on the way
 * FZ_OP_STEP: the same with count * fz_unit(b): count, unit
 * FZ_OP_FIRE_NEXT: time moves to the earliest armed expiry, which fires
 * FZ_OP_TIMER: elec_core_timer() with an arbitrary id (raw byte) now:
 *	expired, early, unarmed or unknown
 * FZ_OP_SKIP: time moves on by count * fz_unit(b) without firing a timer
 *	(they fire late, as after a stalled softirq): count, unit
 * FZ_OP_START, FZ_OP_STOP, FZ_OP_ELECT: no argument
 * FZ_OP_RESIGN: no argument (elec_core_resign() alone)
 * FZ_OP_RESTART: stop then start (a crash and reboot)
 * FZ_OP_PEER_ADD: id (fz_id), ring position
 * FZ_OP_PEER_DEL: selector: b < 0x80 the peer at index b % n_peers,
 *	else the id fz_id(b)
 * FZ_OP_SET_CONFIG: knob (FZ_KNOB_*, b % FZ_KNOB_COUNT), value byte
 * FZ_OP_AUTH: b: 0 the key removed (elec_core_set_auth(NULL)), else a key
 *	set or changed with the wall clock fz_wall(b)
 * FZ_OP_EST: b: even, the estimates' memory taken away
 *	(elec_core_set_est(NULL)); odd, zeroed memory given (again), whatever
 *	the configuration (the embedder gives it when
 *	elec_config_needs_est(), at init and at set_config, as the kernel
 *	does; this op also gives and takes it at any other time)
 */
enum fz_op {
	FZ_OP_FRAME,
	FZ_OP_RAW,
	FZ_OP_ADVANCE,
	FZ_OP_STEP,
	FZ_OP_FIRE_NEXT,
	FZ_OP_TIMER,
	FZ_OP_SKIP,
	FZ_OP_START,
	FZ_OP_STOP,
	FZ_OP_ELECT,
	FZ_OP_RESIGN,
	FZ_OP_RESTART,
	FZ_OP_PEER_ADD,
	FZ_OP_PEER_DEL,
	FZ_OP_SET_CONFIG,
	FZ_OP_AUTH,
	FZ_OP_EST,
	FZ_OP_COUNT
};

#define FZ_RAW_MAX		1600
#define FZ_ADVANCE_MAX		120000000000ULL	/* 120 s */

/* FZ_OP_FRAME bits */
#define FZ_FB_DST_MASK		0x03	/* 0, 3: the local id; 1: broadcast; 2: another peer */
#define FZ_FB_LEAVING		0x04	/* ELECTION_FLAG_LEAVING */
#define FZ_FB_WRONG_GROUP	0x08
#define FZ_FB_WRONG_ALGO	0x10
#define FZ_FB_LL_SHIFT		5	/* 2 bits: FZ_LL_* */
#define FZ_FB_AUTH		0x80	/* ELECTION_FLAG_AUTH */

/* FZ_OP_FRAME term selector byte: the high bits */
#define FZ_TS_RAW_FLAGS		0x10	/* a flags byte follows the payload bytes */

/* FZ_OP_FRAME authentication counter selectors (b % FZ_CTR_COUNT) */
enum fz_ctr {
	FZ_CTR_NEXT,		/* one above the highest accepted from the
				 * sender, or the wall clock when that is
				 * not within the window */
	FZ_CTR_SAME,		/* one accepted (a replay: b % 8 picks one
				 * of the last 8, 0 the highest) */
	FZ_CTR_ZERO,
	FZ_CTR_TOP,		/* U64_MAX */
	FZ_CTR_RAW,		/* 8 bytes follow, big-endian */
	FZ_CTR_JUMP,		/* the highest accepted + 2^40 */
	FZ_CTR_BELOW,		/* below one of the last 8 accepted (b & 7)
				 * by 1 + 8 x b (reordered, or too far) */
	FZ_CTR_EDGE,		/* the wall clock -/+ the window -/+ 1 (b & 3) */
	FZ_CTR_AHEAD,		/* the highest accepted + 1 + 8 x b (frames
				 * lost: the map moves by up to 32 words) */
	FZ_CTR_WRAP,		/* the highest's clock part with a frame
				 * number b below 2^20 (the wrap, or a
				 * restart counting from below) */
	FZ_CTR_COUNT
};

/* lladdr modes */
#define FZ_LL_PEER		0	/* the configured peer's address */
#define FZ_LL_NONE		1	/* NULL: not known to the embedder */
#define FZ_LL_WRONG		2	/* another address */
#define FZ_LL_BADMAC		3	/* the peer's address, the MAC fails */

/* FZ_OP_FRAME term selectors */
enum fz_term {
	FZ_TERM_CUR,		/* c->term */
	FZ_TERM_CUR_NEXT,	/* c->term + 1 */
	FZ_TERM_MAX,		/* c->max_term */
	FZ_TERM_MAX_NEXT,	/* c->max_term + 1 */
	FZ_TERM_SENT,		/* the term of the last frame the core sent */
	FZ_TERM_ZERO,
	FZ_TERM_RAW,		/* 8 bytes follow, big-endian */
	FZ_TERM_TOO_FAR,	/* c->max_term + ELECTION_TERM_MAX_AHEAD + 1 */
	FZ_TERM_TOP,		/* U64_MAX */
	FZ_TERM_CUR_PREV,	/* c->term - 1 */
	FZ_TERM_MAX_PLUS,	/* c->max_term + a byte that follows */
};

/*
 * FZ_OP_FRAME payload word selectors (each gives 4 payload bytes,
 * big-endian):
 *	0x00..0x3f: a node id: the peer at index b % (n_peers + 1), the
 *		    local id for index n_peers
 *	0x40..0x5f: b - 0x40 (a count or a version)
 *	0x60..0x7f: (b - 0x60) << 16 (a be16 count and 2 zero bytes)
 *	0x80..0x8f: word b & 15 of the last payload the core sent (a hop
 *		    number to acknowledge, an id list to answer)
 *	0x90..0x9f: that word + 1
 *	0xa0..0xff: 4 raw bytes follow
 */

/* FZ_OP_SET_CONFIG knobs */
enum fz_knob {
	FZ_KNOB_HB_INTERVAL,	/* fz_dur(value) */
	FZ_KNOB_TIMEOUT,	/* fz_dur(value) */
	FZ_KNOB_HB_MISS,	/* fz_hb_miss(value) */
	FZ_KNOB_COORD_TIMEOUT,	/* fz_opt_dur(value) */
	FZ_KNOB_PREEMPT_DELAY,	/* fz_opt_dur(value) */
	FZ_KNOB_SEARCH,		/* fz_opt_dur(value) */
	FZ_KNOB_OPTS,		/* value: FZ_OPT_* bits */
	FZ_KNOB_DETECTOR_MARGIN, /* fz_opt_dur(value) */
	FZ_KNOB_DETECTOR_MAX,	/* fz_opt_dur(value) */
	FZ_KNOB_IMMUTABLE,	/* a change of id, group, algo, pos (refused) */
	FZ_KNOB_COUNT
};

/* durations: the range's ends, values between, and both neighbours out */
static const u64 fz_durs[16] = {
	100000ULL, 200000ULL, 500000ULL, 1000000ULL,
	2000000ULL, 5000000ULL, 10000000ULL, 20000000ULL,
	50000000ULL, 100000000ULL, 1000000000ULL, 10000000000ULL,
	ELECTION_DUR_MAX_NS, ELECTION_DUR_MAX_NS + 1, ELECTION_DUR_MIN_NS - 1,
	3000000ULL,
};

static inline u64 fz_dur(u8 b)
{
	return fz_durs[b & 15];
}

/* 0 is "not set" (the default), else a duration */
static inline u64 fz_opt_dur(u8 b)
{
	return b ? fz_durs[(b - 1) & 15] : 0;
}

static inline u32 fz_hb_miss(u8 b)
{
	if (b == 0xff)
		return ELECTION_HB_MISS_MAX;
	if (b == 0xfe)
		return ELECTION_HB_MISS_MAX + 1;
	return 1 + b % 16;
}

/* node ids: small ones, 0, and the top of the range (0xf0..0xff) */
static inline u32 fz_id(u8 b)
{
	return b >= 0xf0 ? U32_MAX - (0xffu - b) : b;
}

/* the inverse, for the ids fz_id() can give */
static inline u8 fz_id_byte(u32 id)
{
	return id >= U32_MAX - 15 ? (u8)(0xff - (U32_MAX - id)) : (u8)id;
}

static inline u32 fz_queue_cap(u8 b)
{
	switch (b & 3) {
	case 0:
		return ELEC_RING_QUEUE_BYTES;
	case 1:
		return 0;	/* no queue */
	case 2:
		return 64;	/* room for almost nothing */
	default:
		return 1024;
	}
}

static const u64 fz_units[8] = {
	1000ULL, 100000ULL, 1000000ULL, 10000000ULL,
	100000000ULL, 1000000000ULL, 1ULL, 20000000ULL,
};

static inline u64 fz_unit(u8 b)
{
	return fz_units[b & 7];
}

/*
 * the wall clock at a key change: the core clock itself, a real date, 0
 * (behind the core clock: the offset wraps), the top of the range
 */
static inline u64 fz_wall(u8 b, u64 now)
{
	switch (b & 3) {
	case 0:
		return now;
	case 1:
		return 1795000000000000000ULL;	/* 2026-11-18 */
	case 2:
		return 0;
	default:
		return U64_MAX - 1000000000ULL;
	}
}

/* the link-layer address the harness gives the peer @id */
static inline void fz_lladdr(u32 id, u8 ll[ELEC_LLADDR_LEN])
{
	ll[0] = 0x02;
	ll[1] = 0x00;
	elec_put32(ll + 2, id);
}

#endif /* _ELEC_FUZZ_INPUT_H */
