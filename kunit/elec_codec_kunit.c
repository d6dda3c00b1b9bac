// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the wire codec (module/core/codec.c).
 *
 * Two suites:
 *  - elec_codec: round trips of every message type and of extreme field
 *    values, the byte layout of the header, every malformed case rejected
 *    with its reason, and the one header flag (ELECTION_FLAG_LEAVING, on a
 *    HEARTBEAT only).
 *  - elec_codec_ring: the ring algorithms' payloads as the decoder checks
 *    them: ACK exactly the 4-byte hop number, ring ELECTION and
 *    COORDINATOR {hop, id}, ring-all COORDINATOR {hop, leader, origin},
 *    ring-list {hop, count, 0, ids} with count and length agreeing and
 *    1..ELECTION_RING_LIST_MAX_IDS ids; the RETRY counter type never on
 *    the wire; ACK not a Bully message.
 *  - elec_codec_types: which message types each algorithm takes on the
 *    wire, generically (the variants' payloads are tested in their own
 *    suites): QUERY and CID only with min-bully and enh-bully (the others
 *    refuse them as an invalid payload, whatever the bytes), type 9 and
 *    RETRY with none, the LEAVING flag on a HEARTBEAT only, whatever the
 *    algorithm.
 *
 * The file also compiles in userspace against the KUnit shim in
 * tests/core/shim, so `make -C tests/core check` runs the same cases.
 */
#include <kunit/test.h>
#include "core.h"

#define TC_BUF_LEN	(ELECTION_HDR_LEN + ELECTION_MAX_PAYLOAD + 8)

static void tc_msg(struct elec_msg *m, u8 type)
{
	memset(m, 0, sizeof(*m));
	m->type = type;
	m->algo = ELEC_ALGO_BULLY;
	m->group = 0x1234;
	m->src = 0x01020304;
	m->dst = 0xa0b0c0d0;
	m->term = 0x1122334455667788ULL;
}

static void tc_round_trip_types(struct kunit *test)
{
	u8 buf[ELECTION_HDR_LEN];
	struct elec_msg in, out;
	u8 type;

	/* the types a Bully frame may carry */
	for (type = 1; type <= ELEC_MSG_HEARTBEAT; type++) {
		tc_msg(&in, type);
		KUNIT_ASSERT_EQ(test, elec_codec_encode(&in, buf, sizeof(buf)),
				(size_t)ELECTION_HDR_LEN);
		memset(&out, 0xa5, sizeof(out));
		KUNIT_ASSERT_EQ(test, elec_codec_decode(buf, sizeof(buf), &out),
				ELEC_DECODE_OK);
		KUNIT_EXPECT_EQ(test, out.type, type);
		KUNIT_EXPECT_EQ(test, out.algo, in.algo);
		KUNIT_EXPECT_EQ(test, out.flags, 0);
		KUNIT_EXPECT_EQ(test, out.group, in.group);
		KUNIT_EXPECT_EQ(test, out.payload_len, 0);
		KUNIT_EXPECT_EQ(test, out.src, in.src);
		KUNIT_EXPECT_EQ(test, out.dst, in.dst);
		KUNIT_EXPECT_EQ(test, out.term, in.term);
		KUNIT_EXPECT_NULL(test, out.payload);
	}
}

static void tc_round_trip_extremes(struct kunit *test)
{
	static const u64 terms[] = { 0, 1, 0xffffffffULL, 0x100000000ULL,
				     ~0ULL };
	u8 buf[ELECTION_HDR_LEN + 16];
	struct elec_msg in, out;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(terms); i++) {
		tc_msg(&in, ELEC_MSG_HEARTBEAT);
		in.group = i & 1 ? 1 : 0xffff;
		in.src = i & 1 ? 0xffffffff : 1;
		in.dst = i & 1 ? 0 : 0xffffffff;
		in.term = terms[i];
		KUNIT_ASSERT_EQ(test, elec_codec_encode(&in, buf, sizeof(buf)),
				(size_t)ELECTION_HDR_LEN);
		/* trailing bytes (Ethernet padding) are ignored */
		KUNIT_ASSERT_EQ(test, elec_codec_decode(buf, sizeof(buf), &out),
				ELEC_DECODE_OK);
		KUNIT_EXPECT_EQ(test, out.group, in.group);
		KUNIT_EXPECT_EQ(test, out.src, in.src);
		KUNIT_EXPECT_EQ(test, out.dst, in.dst);
		KUNIT_EXPECT_EQ(test, out.term, in.term);
	}
}

static void tc_layout(struct kunit *test)
{
	static const u8 want[ELECTION_HDR_LEN] = {
		ELECTION_WIRE_VERSION, ELEC_MSG_COORDINATOR, ELEC_ALGO_BULLY, 0,
		0x12, 0x34, 0x00, 0x00,
		0x01, 0x02, 0x03, 0x04,
		0xa0, 0xb0, 0xc0, 0xd0,
		0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88,
	};
	u8 buf[ELECTION_HDR_LEN];
	struct elec_msg in;
	size_t i;

	tc_msg(&in, ELEC_MSG_COORDINATOR);
	KUNIT_ASSERT_EQ(test, elec_codec_encode(&in, buf, sizeof(buf)),
			sizeof(buf));
	for (i = 0; i < sizeof(want); i++)
		KUNIT_EXPECT_EQ_MSG(test, buf[i], want[i], "byte %zu", i);
}

static void tc_encode_limits(struct kunit *test)
{
	static const u8 pl[4] = { 1, 2, 3, 4 };
	u8 buf[ELECTION_HDR_LEN + 4];
	struct elec_msg in;

	tc_msg(&in, ELEC_MSG_ELECTION);
	KUNIT_EXPECT_EQ(test, elec_codec_encode(&in, buf, ELECTION_HDR_LEN - 1),
			(size_t)0);
	KUNIT_EXPECT_EQ(test, elec_codec_encode(NULL, buf, sizeof(buf)),
			(size_t)0);
	KUNIT_EXPECT_EQ(test, elec_codec_encode(&in, NULL, sizeof(buf)),
			(size_t)0);
	in.payload_len = 4;
	KUNIT_EXPECT_EQ(test, elec_codec_encode(&in, buf, sizeof(buf)),
			(size_t)0);	/* payload bytes missing */
	in.payload = pl;
	KUNIT_EXPECT_EQ(test, elec_codec_encode(&in, buf, sizeof(buf) - 1),
			(size_t)0);
	KUNIT_EXPECT_EQ(test, elec_codec_encode(&in, buf, sizeof(buf)),
			sizeof(buf));
	KUNIT_EXPECT_EQ(test, buf[7], 4);
	KUNIT_EXPECT_EQ(test, buf[ELECTION_HDR_LEN + 3], 4);
	in.payload_len = ELECTION_MAX_PAYLOAD + 1;
	KUNIT_EXPECT_EQ(test, elec_codec_encode(&in, buf, sizeof(buf)),
			(size_t)0);
}

/* A valid frame, then one field patched: the decoder names the field. */
struct tc_bad {
	const char *name;
	size_t off;
	u8 val;
	size_t len;	/* 0: the full buffer */
	enum elec_decode_result want;
};

static const struct tc_bad tc_bad_cases[] = {
	{ "version 0", 0, 0, 0, ELEC_DECODE_VERSION },
	{ "version 2", 0, 2, 0, ELEC_DECODE_VERSION },
	{ "version 255", 0, 255, 0, ELEC_DECODE_VERSION },
	{ "type 0", 1, 0, 0, ELEC_DECODE_TYPE },
	{ "type max+1", 1, ELEC_MSG_MAX + 1, 0, ELEC_DECODE_TYPE },
	{ "type 255", 1, 255, 0, ELEC_DECODE_TYPE },
	{ "algo 0", 2, 0, 0, ELEC_DECODE_ALGO },
	{ "algo max+1", 2, ELEC_ALGO_MAX + 1, 0, ELEC_DECODE_ALGO },
	{ "algo 255", 2, 255, 0, ELEC_DECODE_ALGO },
	{ "flags 1", 3, 1, 0, ELEC_DECODE_FLAGS },
	{ "flags 0x80", 3, 0x80, 0, ELEC_DECODE_FLAGS },
	{ "payload 1 byte", 7, 1, 0, ELEC_DECODE_PAYLOAD },
	{ "payload len beyond frame", 7, 200, 0, ELEC_DECODE_LENGTH },
	{ "payload len > max", 6, 0xff, 0, ELEC_DECODE_LENGTH },
	{ "empty", 0, ELECTION_WIRE_VERSION, 1, ELEC_DECODE_SHORT },
	{ "23 bytes", 0, ELECTION_WIRE_VERSION, ELECTION_HDR_LEN - 1,
	  ELEC_DECODE_SHORT },
};

static void tc_fill_valid(u8 *buf, size_t len)
{
	struct elec_msg in;

	memset(buf, 0, len);
	tc_msg(&in, ELEC_MSG_ANSWER);
	elec_codec_encode(&in, buf, len);
}

static void tc_malformed(struct kunit *test)
{
	u8 buf[ELECTION_HDR_LEN + 64];
	struct elec_msg out, before;
	size_t i, len;

	for (i = 0; i < ARRAY_SIZE(tc_bad_cases); i++) {
		const struct tc_bad *b = &tc_bad_cases[i];

		tc_fill_valid(buf, sizeof(buf));
		buf[b->off] = b->val;
		len = b->len ? b->len - 1 : sizeof(buf);
		memset(&out, 0x5a, sizeof(out));
		before = out;
		KUNIT_EXPECT_EQ_MSG(test, elec_codec_decode(buf, len, &out),
				    b->want, "case %s", b->name);
		/* a rejected frame leaves the output untouched */
		KUNIT_EXPECT_EQ_MSG(test, memcmp(&out, &before, sizeof(out)), 0,
				    "case %s", b->name);
	}
}

/*
 * ELECTION_FLAG_LEAVING: accepted on a HEARTBEAT (and kept), refused on
 * every other type; every other flag bit refused.
 */
static void tc_leaving_flag(struct kunit *test)
{
	u8 buf[ELECTION_HDR_LEN];
	struct elec_msg in, out;
	u8 type;
	u32 bit;

	tc_msg(&in, ELEC_MSG_HEARTBEAT);
	in.flags = ELECTION_FLAG_LEAVING;
	KUNIT_ASSERT_EQ(test, elec_codec_encode(&in, buf, sizeof(buf)),
			(size_t)ELECTION_HDR_LEN);
	KUNIT_EXPECT_EQ(test, buf[3], ELECTION_FLAG_LEAVING);
	memset(&out, 0, sizeof(out));
	KUNIT_ASSERT_EQ(test, elec_codec_decode(buf, sizeof(buf), &out),
			ELEC_DECODE_OK);
	KUNIT_EXPECT_EQ(test, out.flags, ELECTION_FLAG_LEAVING);
	KUNIT_EXPECT_EQ(test, out.type, ELEC_MSG_HEARTBEAT);

	for (type = 1; type < ELEC_MSG_HEARTBEAT; type++) {
		buf[1] = type;
		KUNIT_EXPECT_EQ_MSG(test,
				    elec_codec_decode(buf, sizeof(buf), &out),
				    ELEC_DECODE_FLAGS, "type %u", type);
	}
	/* a ring ACK (its payload would be checked later) */
	buf[1] = ELEC_MSG_ACK;
	buf[2] = ELEC_ALGO_RING;
	KUNIT_EXPECT_EQ(test, elec_codec_decode(buf, sizeof(buf), &out),
			ELEC_DECODE_FLAGS);
	/* a ring HEARTBEAT may carry it too */
	buf[1] = ELEC_MSG_HEARTBEAT;
	KUNIT_EXPECT_EQ(test, elec_codec_decode(buf, sizeof(buf), &out),
			ELEC_DECODE_OK);
	buf[2] = ELEC_ALGO_BULLY;
	for (bit = 1; bit < 8; bit++) {
		if (1U << bit == ELECTION_FLAG_AUTH)
			continue;	/* elec_auth_kunit.c */
		buf[3] = 1U << bit;
		KUNIT_EXPECT_EQ_MSG(test,
				    elec_codec_decode(buf, sizeof(buf), &out),
				    ELEC_DECODE_FLAGS, "flag 0x%x", 1U << bit);
		buf[3] |= ELECTION_FLAG_LEAVING;
		KUNIT_EXPECT_EQ_MSG(test,
				    elec_codec_decode(buf, sizeof(buf), &out),
				    ELEC_DECODE_FLAGS, "flag 0x%x",
				    (1U << bit) | ELECTION_FLAG_LEAVING);
	}
	KUNIT_EXPECT_STREQ(test, elec_decode_reason(ELEC_DECODE_FLAGS),
			   "unknown or misplaced header flags");
}

static void tc_zero_ids(struct kunit *test)
{
	u8 buf[ELECTION_HDR_LEN];
	struct elec_msg in, out;

	tc_msg(&in, ELEC_MSG_HEARTBEAT);
	in.group = 0;
	elec_codec_encode(&in, buf, sizeof(buf));
	KUNIT_EXPECT_EQ(test, elec_codec_decode(buf, sizeof(buf), &out),
			ELEC_DECODE_GROUP);

	tc_msg(&in, ELEC_MSG_HEARTBEAT);
	in.src = 0;
	elec_codec_encode(&in, buf, sizeof(buf));
	KUNIT_EXPECT_EQ(test, elec_codec_decode(buf, sizeof(buf), &out),
			ELEC_DECODE_SRC);

	/* dst 0 is a broadcast, and valid */
	tc_msg(&in, ELEC_MSG_HEARTBEAT);
	in.dst = 0;
	elec_codec_encode(&in, buf, sizeof(buf));
	KUNIT_EXPECT_EQ(test, elec_codec_decode(buf, sizeof(buf), &out),
			ELEC_DECODE_OK);
	KUNIT_EXPECT_EQ(test, out.dst, 0);
}

static void tc_short_and_null(struct kunit *test)
{
	u8 buf[ELECTION_HDR_LEN];
	struct elec_msg out;
	size_t len;

	tc_fill_valid(buf, sizeof(buf));
	for (len = 0; len < ELECTION_HDR_LEN; len++)
		KUNIT_EXPECT_EQ_MSG(test, elec_codec_decode(buf, len, &out),
				    ELEC_DECODE_SHORT, "len %zu", len);
	KUNIT_EXPECT_EQ(test, elec_codec_decode(NULL, 100, &out),
			ELEC_DECODE_SHORT);
	/* a NULL output only validates */
	KUNIT_EXPECT_EQ(test, elec_codec_decode(buf, sizeof(buf), NULL),
			ELEC_DECODE_OK);
}

static void tc_payload_length(struct kunit *test)
{
	static const u8 pl[3] = { 9, 8, 7 };
	u8 buf[ELECTION_HDR_LEN + 3];
	struct elec_msg in, out;

	/* well-formed length, but Bully takes no payload */
	tc_msg(&in, ELEC_MSG_ELECTION);
	in.payload = pl;
	in.payload_len = sizeof(pl);
	KUNIT_ASSERT_EQ(test, elec_codec_encode(&in, buf, sizeof(buf)),
			sizeof(buf));
	KUNIT_EXPECT_EQ(test, elec_codec_decode(buf, sizeof(buf), &out),
			ELEC_DECODE_PAYLOAD);
	/* one byte missing: the length is checked before the payload */
	KUNIT_EXPECT_EQ(test, elec_codec_decode(buf, sizeof(buf) - 1, &out),
			ELEC_DECODE_LENGTH);
}

static void tc_max_payload(struct kunit *test)
{
	u8 *buf = kunit_kzalloc(test, TC_BUF_LEN, GFP_KERNEL);
	u8 *pl = kunit_kzalloc(test, ELECTION_MAX_PAYLOAD, GFP_KERNEL);
	struct elec_msg in, out;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	KUNIT_ASSERT_NOT_NULL(test, pl);
	tc_msg(&in, ELEC_MSG_COORDINATOR);
	in.payload = pl;
	in.payload_len = ELECTION_MAX_PAYLOAD;
	KUNIT_ASSERT_EQ(test, elec_codec_encode(&in, buf, TC_BUF_LEN),
			(size_t)(ELECTION_HDR_LEN + ELECTION_MAX_PAYLOAD));
	/* the largest length is well-formed; Bully then refuses the bytes */
	KUNIT_EXPECT_EQ(test, elec_codec_decode(buf, TC_BUF_LEN, &out),
			ELEC_DECODE_PAYLOAD);
	/* one more byte than the maximum, though the frame holds it */
	buf[6] = (ELECTION_MAX_PAYLOAD + 1) >> 8;
	buf[7] = (ELECTION_MAX_PAYLOAD + 1) & 0xff;
	KUNIT_EXPECT_EQ(test, elec_codec_decode(buf, TC_BUF_LEN, &out),
			ELEC_DECODE_LENGTH);
}

static void tc_first_failure_wins(struct kunit *test)
{
	u8 buf[ELECTION_HDR_LEN];
	struct elec_msg out;

	/* every field bad: the version is checked first, then the type... */
	memset(buf, 0, sizeof(buf));
	KUNIT_EXPECT_EQ(test, elec_codec_decode(buf, sizeof(buf), &out),
			ELEC_DECODE_VERSION);
	buf[0] = ELECTION_WIRE_VERSION;
	KUNIT_EXPECT_EQ(test, elec_codec_decode(buf, sizeof(buf), &out),
			ELEC_DECODE_TYPE);
	buf[1] = ELEC_MSG_ELECTION;
	KUNIT_EXPECT_EQ(test, elec_codec_decode(buf, sizeof(buf), &out),
			ELEC_DECODE_ALGO);
	buf[2] = ELEC_ALGO_BULLY;
	buf[3] = 1;
	KUNIT_EXPECT_EQ(test, elec_codec_decode(buf, sizeof(buf), &out),
			ELEC_DECODE_FLAGS);
	buf[3] = 0;
	KUNIT_EXPECT_EQ(test, elec_codec_decode(buf, sizeof(buf), &out),
			ELEC_DECODE_GROUP);
	buf[5] = 1;
	KUNIT_EXPECT_EQ(test, elec_codec_decode(buf, sizeof(buf), &out),
			ELEC_DECODE_SRC);
	buf[11] = 1;
	buf[7] = 1;
	KUNIT_EXPECT_EQ(test, elec_codec_decode(buf, sizeof(buf), &out),
			ELEC_DECODE_LENGTH);
	buf[7] = 0;
	KUNIT_EXPECT_EQ(test, elec_codec_decode(buf, sizeof(buf), &out),
			ELEC_DECODE_OK);
	KUNIT_EXPECT_EQ(test, out.group, 1);
	KUNIT_EXPECT_EQ(test, out.src, 1);
	KUNIT_EXPECT_EQ(test, out.dst, 0);
	KUNIT_EXPECT_EQ(test, out.term, 0);
}

static void tc_reasons(struct kunit *test)
{
	int r, s;

	KUNIT_EXPECT_STREQ(test, elec_decode_reason(ELEC_DECODE_OK), "ok");
	for (r = 0; r < ELEC_DECODE_COUNT; r++) {
		const char *a = elec_decode_reason(r);

		KUNIT_ASSERT_NOT_NULL(test, a);
		KUNIT_EXPECT_GT(test, strlen(a), (size_t)0);
		KUNIT_EXPECT_STRNEQ(test, a, "unknown decode result");
		for (s = 0; s < r; s++)
			KUNIT_EXPECT_STRNEQ(test, a, elec_decode_reason(s));
	}
	KUNIT_EXPECT_STREQ(test, elec_decode_reason(ELEC_DECODE_COUNT),
			   "unknown decode result");
}

static struct kunit_case elec_codec_cases[] = {
	KUNIT_CASE(tc_round_trip_types),
	KUNIT_CASE(tc_round_trip_extremes),
	KUNIT_CASE(tc_layout),
	KUNIT_CASE(tc_encode_limits),
	KUNIT_CASE(tc_malformed),
	KUNIT_CASE(tc_leaving_flag),
	KUNIT_CASE(tc_zero_ids),
	KUNIT_CASE(tc_short_and_null),
	KUNIT_CASE(tc_payload_length),
	KUNIT_CASE(tc_max_payload),
	KUNIT_CASE(tc_first_failure_wins),
	KUNIT_CASE(tc_reasons),
	{}
};

static struct kunit_suite elec_codec_suite = {
	.name = "elec_codec",
	.test_cases = elec_codec_cases,
};

/* ---- elec_codec_ring: the ring algorithms' payloads ------------------ */

static const u8 tcr_ring_algos[] = {
	ELEC_ALGO_RING, ELEC_ALGO_RING_ALL, ELEC_ALGO_RING_LIST
};

/* a frame of @algo and @type with @len payload bytes at @pl, decoded */
static enum elec_decode_result tcr_decode(struct kunit *test, u8 algo, u8 type,
					  const u8 *pl, u16 len)
{
	u8 *buf = kunit_kzalloc(test, TC_BUF_LEN, GFP_KERNEL);
	enum elec_decode_result r;
	struct elec_msg in, out;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	tc_msg(&in, type);
	in.algo = algo;
	in.payload = pl;
	in.payload_len = len;
	KUNIT_ASSERT_EQ(test, elec_codec_encode(&in, buf, TC_BUF_LEN),
			(size_t)(ELECTION_HDR_LEN + len));
	r = elec_codec_decode(buf, ELECTION_HDR_LEN + len, &out);
	if (r == ELEC_DECODE_OK) {
		KUNIT_EXPECT_EQ(test, out.type, type);
		KUNIT_EXPECT_EQ(test, out.algo, algo);
		KUNIT_EXPECT_EQ(test, out.payload_len, len);
		if (len)
			KUNIT_EXPECT_EQ(test, memcmp(out.payload, pl, len), 0);
	}
	return r;
}

/* The ACK is the 4-byte hop number, nothing else. */
static void tcr_ack(struct kunit *test)
{
	static const u16 bad[] = { 0, 1, 3, 5, 8 };
	u8 pl[8] = { 0, 0, 0, 42, 0, 0, 0, 1 };
	size_t i, j;

	for (i = 0; i < ARRAY_SIZE(tcr_ring_algos); i++) {
		u8 algo = tcr_ring_algos[i];

		KUNIT_EXPECT_EQ_MSG(test, tcr_decode(test, algo, ELEC_MSG_ACK,
						     pl, 4),
				    ELEC_DECODE_OK, "algo %u", algo);
		for (j = 0; j < ARRAY_SIZE(bad); j++)
			KUNIT_EXPECT_EQ_MSG(test,
					    tcr_decode(test, algo, ELEC_MSG_ACK,
						       pl, bad[j]),
					    ELEC_DECODE_PAYLOAD,
					    "algo %u len %u", algo, bad[j]);
	}
}

/* ring (Chang-Roberts): ELECTION {hop, id}, COORDINATOR {hop, leader} */
static void tcr_cr(struct kunit *test)
{
	static const u8 types[] = { ELEC_MSG_ELECTION, ELEC_MSG_COORDINATOR };
	static const u16 bad[] = { 0, 4, 7, 9, 12 };
	u8 pl[12];
	size_t i, j;

	memset(pl, 0, sizeof(pl));
	for (i = 0; i < ARRAY_SIZE(types); i++) {
		elec_put32(pl, 7);
		elec_put32(pl + 4, 0xfffffffe);
		KUNIT_EXPECT_EQ(test, tcr_decode(test, ELEC_ALGO_RING, types[i],
						 pl, 8), ELEC_DECODE_OK);
		for (j = 0; j < ARRAY_SIZE(bad); j++)
			KUNIT_EXPECT_EQ_MSG(test,
					    tcr_decode(test, ELEC_ALGO_RING,
						       types[i], pl, bad[j]),
					    ELEC_DECODE_PAYLOAD,
					    "type %u len %u", types[i], bad[j]);
		/* id 0 is no node */
		elec_put32(pl + 4, 0);
		KUNIT_EXPECT_EQ(test, tcr_decode(test, ELEC_ALGO_RING, types[i],
						 pl, 8), ELEC_DECODE_PAYLOAD);
	}
}

/* ring-all: ELECTION {hop, origin}, COORDINATOR {hop, leader, origin} */
static void tcr_all(struct kunit *test)
{
	const u8 algo = ELEC_ALGO_RING_ALL;
	u8 pl[16];

	memset(pl, 0, sizeof(pl));
	elec_put32(pl, 1);
	elec_put32(pl + 4, 9);
	elec_put32(pl + 8, 4);
	KUNIT_EXPECT_EQ(test, tcr_decode(test, algo, ELEC_MSG_ELECTION, pl, 8),
			ELEC_DECODE_OK);
	KUNIT_EXPECT_EQ(test, tcr_decode(test, algo, ELEC_MSG_ELECTION, pl,
					 12), ELEC_DECODE_PAYLOAD);
	KUNIT_EXPECT_EQ(test, tcr_decode(test, algo, ELEC_MSG_ELECTION, pl, 4),
			ELEC_DECODE_PAYLOAD);
	KUNIT_EXPECT_EQ(test, tcr_decode(test, algo, ELEC_MSG_COORDINATOR, pl,
					 12), ELEC_DECODE_OK);
	KUNIT_EXPECT_EQ(test, tcr_decode(test, algo, ELEC_MSG_COORDINATOR, pl,
					 8), ELEC_DECODE_PAYLOAD);
	KUNIT_EXPECT_EQ(test, tcr_decode(test, algo, ELEC_MSG_COORDINATOR, pl,
					 16), ELEC_DECODE_PAYLOAD);
	/* a zero origin, or a zero leader */
	elec_put32(pl + 8, 0);
	KUNIT_EXPECT_EQ(test, tcr_decode(test, algo, ELEC_MSG_COORDINATOR, pl,
					 12), ELEC_DECODE_PAYLOAD);
	elec_put32(pl + 8, 4);
	elec_put32(pl + 4, 0);
	KUNIT_EXPECT_EQ(test, tcr_decode(test, algo, ELEC_MSG_COORDINATOR, pl,
					 12), ELEC_DECODE_PAYLOAD);
	KUNIT_EXPECT_EQ(test, tcr_decode(test, algo, ELEC_MSG_ELECTION, pl, 8),
			ELEC_DECODE_PAYLOAD);
}

/* fills a list payload: hop, count, reserved 0, @n ids */
static void tcr_list(u8 *pl, u16 count, u32 n)
{
	u32 i;

	elec_put32(pl, 3);
	pl[4] = (u8)(count >> 8);
	pl[5] = (u8)count;
	pl[6] = 0;
	pl[7] = 0;
	for (i = 0; i < n; i++)
		elec_put32(pl + 8 + 4 * i, i + 1);
}

/* ring-list: {hop, be16 count, be16 0, be32 ids[count]}, 1..MAX ids */
static void tcr_list_payloads(struct kunit *test)
{
	static const u8 types[] = { ELEC_MSG_ELECTION, ELEC_MSG_COORDINATOR };
	const u32 max = ELECTION_RING_LIST_MAX_IDS;
	const u8 algo = ELEC_ALGO_RING_LIST;
	u8 *pl = kunit_kzalloc(test, ELECTION_MAX_PAYLOAD, GFP_KERNEL);
	size_t i;
	u8 t;

	KUNIT_ASSERT_NOT_NULL(test, pl);
	/* the largest list fills the largest payload exactly */
	KUNIT_EXPECT_EQ(test, 8 + 4 * max, ELECTION_MAX_PAYLOAD);
	KUNIT_EXPECT_GE(test, max, ELECTION_MAX_NODES);
	for (i = 0; i < ARRAY_SIZE(types); i++) {
		t = types[i];
		tcr_list(pl, 1, 1);
		KUNIT_EXPECT_EQ(test, tcr_decode(test, algo, t, pl, 12),
				ELEC_DECODE_OK);
		tcr_list(pl, 3, 3);
		KUNIT_EXPECT_EQ(test, tcr_decode(test, algo, t, pl, 20),
				ELEC_DECODE_OK);
		/* count and length disagree */
		KUNIT_EXPECT_EQ(test, tcr_decode(test, algo, t, pl, 16),
				ELEC_DECODE_PAYLOAD);
		KUNIT_EXPECT_EQ(test, tcr_decode(test, algo, t, pl, 24),
				ELEC_DECODE_PAYLOAD);
		KUNIT_EXPECT_EQ(test, tcr_decode(test, algo, t, pl, 21),
				ELEC_DECODE_PAYLOAD);
		tcr_list(pl, 2, 3);
		KUNIT_EXPECT_EQ(test, tcr_decode(test, algo, t, pl, 20),
				ELEC_DECODE_PAYLOAD);
		/* no ids, or not even the count */
		tcr_list(pl, 0, 1);
		KUNIT_EXPECT_EQ(test, tcr_decode(test, algo, t, pl, 8),
				ELEC_DECODE_PAYLOAD);
		KUNIT_EXPECT_EQ(test, tcr_decode(test, algo, t, pl, 12),
				ELEC_DECODE_PAYLOAD);
		tcr_list(pl, 1, 1);
		KUNIT_EXPECT_EQ(test, tcr_decode(test, algo, t, pl, 8),
				ELEC_DECODE_PAYLOAD);
		KUNIT_EXPECT_EQ(test, tcr_decode(test, algo, t, pl, 4),
				ELEC_DECODE_PAYLOAD);
		/* reserved bytes */
		pl[6] = 1;
		KUNIT_EXPECT_EQ(test, tcr_decode(test, algo, t, pl, 12),
				ELEC_DECODE_PAYLOAD);
		pl[6] = 0;
		pl[7] = 0x80;
		KUNIT_EXPECT_EQ(test, tcr_decode(test, algo, t, pl, 12),
				ELEC_DECODE_PAYLOAD);
		/* the most ids, and one more than that */
		tcr_list(pl, max, max);
		KUNIT_EXPECT_EQ(test, tcr_decode(test, algo, t, pl,
						 ELECTION_MAX_PAYLOAD),
				ELEC_DECODE_OK);
		tcr_list(pl, max + 1, max);
		KUNIT_EXPECT_EQ(test, tcr_decode(test, algo, t, pl,
						 ELECTION_MAX_PAYLOAD),
				ELEC_DECODE_PAYLOAD);
		tcr_list(pl, 0xffff, max);
		KUNIT_EXPECT_EQ(test, tcr_decode(test, algo, t, pl,
						 ELECTION_MAX_PAYLOAD),
				ELEC_DECODE_PAYLOAD);
	}
}

/* Heartbeats are empty; ANSWER is not a ring message. */
static void tcr_other_types(struct kunit *test)
{
	static const u8 pl[4] = { 0, 0, 0, 1 };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(tcr_ring_algos); i++) {
		u8 algo = tcr_ring_algos[i];

		KUNIT_EXPECT_EQ_MSG(test, tcr_decode(test, algo,
						     ELEC_MSG_HEARTBEAT, pl, 0),
				    ELEC_DECODE_OK, "algo %u", algo);
		KUNIT_EXPECT_EQ_MSG(test, tcr_decode(test, algo,
						     ELEC_MSG_HEARTBEAT, pl, 4),
				    ELEC_DECODE_PAYLOAD, "algo %u", algo);
		KUNIT_EXPECT_EQ_MSG(test, tcr_decode(test, algo,
						     ELEC_MSG_ANSWER, pl, 0),
				    ELEC_DECODE_PAYLOAD, "algo %u", algo);
		KUNIT_EXPECT_EQ_MSG(test, tcr_decode(test, algo,
						     ELEC_MSG_ANSWER, pl, 4),
				    ELEC_DECODE_PAYLOAD, "algo %u", algo);
		/* a ring ELECTION is never empty */
		KUNIT_EXPECT_EQ_MSG(test, tcr_decode(test, algo,
						     ELEC_MSG_ELECTION, pl, 0),
				    ELEC_DECODE_PAYLOAD, "algo %u", algo);
	}
}

/* RETRY counts resends; it is never a frame's type, for any algorithm. */
static void tcr_retry_not_on_wire(struct kunit *test)
{
	u8 pl[8] = { 0, 0, 0, 1, 0, 0, 0, 2 };
	u8 algo;

	for (algo = 1; algo <= ELEC_ALGO_MAX; algo++) {
		KUNIT_EXPECT_EQ_MSG(test, tcr_decode(test, algo,
						     ELEC_MSG_RETRY, pl, 0),
				    ELEC_DECODE_TYPE, "algo %u", algo);
		KUNIT_EXPECT_EQ_MSG(test, tcr_decode(test, algo,
						     ELEC_MSG_RETRY, pl, 4),
				    ELEC_DECODE_TYPE, "algo %u", algo);
		KUNIT_EXPECT_EQ_MSG(test, tcr_decode(test, algo,
						     ELEC_MSG_RETRY, pl, 8),
				    ELEC_DECODE_TYPE, "algo %u", algo);
	}
}

/* ACK is a ring message: a Bully frame of type ACK is refused. */
static void tcr_bully_ack(struct kunit *test)
{
	static const u8 pl[4] = { 0, 0, 0, 1 };

	KUNIT_EXPECT_EQ(test, tcr_decode(test, ELEC_ALGO_BULLY, ELEC_MSG_ACK,
					 pl, 0), ELEC_DECODE_PAYLOAD);
	KUNIT_EXPECT_EQ(test, tcr_decode(test, ELEC_ALGO_BULLY, ELEC_MSG_ACK,
					 pl, 4), ELEC_DECODE_PAYLOAD);
	/* and a Bully ELECTION with a ring payload */
	KUNIT_EXPECT_EQ(test, tcr_decode(test, ELEC_ALGO_BULLY,
					 ELEC_MSG_ELECTION, pl, 4),
			ELEC_DECODE_PAYLOAD);
}

static struct kunit_case elec_codec_ring_cases[] = {
	KUNIT_CASE(tcr_ack),
	KUNIT_CASE(tcr_cr),
	KUNIT_CASE(tcr_all),
	KUNIT_CASE(tcr_list_payloads),
	KUNIT_CASE(tcr_other_types),
	KUNIT_CASE(tcr_retry_not_on_wire),
	KUNIT_CASE(tcr_bully_ack),
	{}
};

static struct kunit_suite elec_codec_ring_suite = {
	.name = "elec_codec_ring",
	.test_cases = elec_codec_ring_cases,
};

/* ---- elec_codec_types: the message types each algorithm takes ------- */

/* the smallest valid payload of @type for @algo, as protocol.rst gives it */
static u16 tct_payload(u8 algo, u8 type, u8 *pl)
{
	if (algo == ELEC_ALGO_ENH_BULLY && type == ELEC_MSG_CID) {
		/* coordinator 5, one candidate, 5 */
		memset(pl, 0, ELECTION_ENH_SET_HDR_LEN + 4);
		elec_put32(pl, 5);
		pl[5] = 1;
		elec_put32(pl + ELECTION_ENH_SET_HDR_LEN, 5);
		return ELECTION_ENH_SET_HDR_LEN + 4;
	}
	return 0;
}

static bool tct_is_variant(u8 algo)
{
	return algo == ELEC_ALGO_MIN_BULLY || algo == ELEC_ALGO_ENH_BULLY;
}

/*
 * QUERY and CID: valid only with min-bully and enh-bully; bully and the
 * rings refuse them as a payload invalid for the type, with no payload,
 * with a coordinator id, and with enh-bully's CID payload.
 */
static void tct_query_cid(struct kunit *test)
{
	static const u8 types[] = { ELEC_MSG_QUERY, ELEC_MSG_CID };
	u8 pl[ELECTION_ENH_SET_HDR_LEN + 4], set[ELECTION_ENH_SET_HDR_LEN + 4];
	u16 set_len = tct_payload(ELEC_ALGO_ENH_BULLY, ELEC_MSG_CID, set);
	size_t i;
	u8 algo;

	/* the loops below cover both variants */
	KUNIT_EXPECT_GE(test, ELEC_ALGO_MAX, ELEC_ALGO_ENH_BULLY);
	KUNIT_EXPECT_EQ(test, ELEC_MSG_QUERY, 7);
	KUNIT_EXPECT_EQ(test, ELEC_MSG_CID, 8);
	for (algo = 1; algo <= ELEC_ALGO_MAX; algo++) {
		for (i = 0; i < ARRAY_SIZE(types); i++) {
			u8 t = types[i];
			u16 len = tct_payload(algo, t, pl);

			if (tct_is_variant(algo)) {
				KUNIT_EXPECT_EQ_MSG(test,
						    tcr_decode(test, algo, t,
							       pl, len),
						    ELEC_DECODE_OK,
						    "algo %u type %u", algo, t);
				continue;
			}
			KUNIT_EXPECT_EQ_MSG(test,
					    tcr_decode(test, algo, t, pl, 0),
					    ELEC_DECODE_PAYLOAD,
					    "algo %u type %u empty", algo, t);
			elec_put32(pl, 5);
			KUNIT_EXPECT_EQ_MSG(test,
					    tcr_decode(test, algo, t, pl,
						       ELECTION_COORD_LEN),
					    ELEC_DECODE_PAYLOAD,
					    "algo %u type %u id", algo, t);
			KUNIT_EXPECT_EQ_MSG(test,
					    tcr_decode(test, algo, t, set,
						       set_len),
					    ELEC_DECODE_PAYLOAD,
					    "algo %u type %u set", algo, t);
		}
	}
	KUNIT_EXPECT_STREQ(test, elec_decode_reason(ELEC_DECODE_PAYLOAD),
			   "payload invalid for the message type");
}

/*
 * Type 15, the first after ALIVE, and RETRY (a counter) are no frame's type,
 * for any algorithm and any payload: refused before the algorithm is
 * looked at.
 */
static void tct_unknown_types(struct kunit *test)
{
	u8 pl[ELECTION_ENH_SET_HDR_LEN + 4];
	u16 set_len = tct_payload(ELEC_ALGO_ENH_BULLY, ELEC_MSG_CID, pl);
	u8 buf[ELECTION_HDR_LEN];
	struct elec_msg out;
	u8 algo;

	KUNIT_EXPECT_EQ(test, ELEC_MSG_MAX, 14);
	for (algo = 1; algo <= ELEC_ALGO_MAX; algo++) {
		KUNIT_EXPECT_EQ_MSG(test, tcr_decode(test, algo, ELEC_MSG_MAX + 1, pl, 0),
				    ELEC_DECODE_TYPE, "algo %u", algo);
		KUNIT_EXPECT_EQ_MSG(test, tcr_decode(test, algo, ELEC_MSG_MAX + 1, pl,
						     set_len),
				    ELEC_DECODE_TYPE, "algo %u", algo);
		KUNIT_EXPECT_EQ_MSG(test, tcr_decode(test, algo,
						     ELEC_MSG_RETRY, pl,
						     set_len),
				    ELEC_DECODE_TYPE, "algo %u", algo);
	}
	/* the type is checked before the algorithm */
	tc_fill_valid(buf, sizeof(buf));
	buf[1] = ELEC_MSG_MAX + 1;
	buf[2] = ELEC_ALGO_MAX + 1;
	KUNIT_EXPECT_EQ(test, elec_codec_decode(buf, sizeof(buf), &out),
			ELEC_DECODE_TYPE);
	buf[1] = ELEC_MSG_QUERY;
	KUNIT_EXPECT_EQ(test, elec_codec_decode(buf, sizeof(buf), &out),
			ELEC_DECODE_ALGO);
}

/*
 * ELECTION_FLAG_LEAVING on a HEARTBEAT of every algorithm; on any other
 * type (QUERY and CID included) refused as a flag error, before the
 * payload is looked at.
 */
static void tct_leaving_every_algo(struct kunit *test)
{
	u8 buf[ELECTION_HDR_LEN];
	struct elec_msg in, out;
	u8 algo, type;

	for (algo = 1; algo <= ELEC_ALGO_MAX; algo++) {
		tc_msg(&in, ELEC_MSG_HEARTBEAT);
		in.algo = algo;
		in.flags = ELECTION_FLAG_LEAVING;
		KUNIT_ASSERT_EQ(test, elec_codec_encode(&in, buf, sizeof(buf)),
				(size_t)ELECTION_HDR_LEN);
		memset(&out, 0, sizeof(out));
		KUNIT_EXPECT_EQ_MSG(test,
				    elec_codec_decode(buf, sizeof(buf), &out),
				    ELEC_DECODE_OK, "algo %u", algo);
		KUNIT_EXPECT_EQ_MSG(test, out.flags, ELECTION_FLAG_LEAVING,
				    "algo %u", algo);
		for (type = 1; type <= ELEC_MSG_MAX; type++) {
			if (type == ELEC_MSG_HEARTBEAT ||
			    type == ELEC_MSG_RETRY)
				continue;
			buf[1] = type;
			KUNIT_EXPECT_EQ_MSG(test,
					    elec_codec_decode(buf, sizeof(buf),
							      &out),
					    ELEC_DECODE_FLAGS,
					    "algo %u type %u", algo, type);
		}
	}
}

static struct kunit_case elec_codec_types_cases[] = {
	KUNIT_CASE(tct_query_cid),
	KUNIT_CASE(tct_unknown_types),
	KUNIT_CASE(tct_leaving_every_algo),
	{}
};

static struct kunit_suite elec_codec_types_suite = {
	.name = "elec_codec_types",
	.test_cases = elec_codec_types_cases,
};

kunit_test_suites(&elec_codec_suite, &elec_codec_ring_suite,
		  &elec_codec_types_suite);
