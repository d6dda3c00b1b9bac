// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the wire codec (module/core/codec.c): round trips of every
 * message type and of extreme field values, the byte layout of the header,
 * and every malformed case rejected with its reason.
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

kunit_test_suites(&elec_codec_suite);
