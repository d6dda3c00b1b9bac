// SPDX-License-Identifier: GPL-2.0
/*
 * Userspace-only suite: randomized codec checks, too long for KUnit.
 * Deterministic (fixed xorshift seed).
 *  - random byte strings: decode never reads past the buffer (run under
 *    valgrind / ASan), returns a defined result, and whatever decodes
 *    re-encodes to the same bytes;
 *  - random valid messages: encode then decode gives the same message.
 */
#include <kunit/test.h>
#include <stdlib.h>
#include "core.h"

#define FZ_ROUNDS	200000

static u32 fz_rand(u32 *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 17;
	*s ^= *s << 5;
	return *s;
}

static void fz_random_bytes(struct kunit *test)
{
	u32 seed = 0x9e3779b9, i, j;
	unsigned long seen[ELEC_DECODE_COUNT] = { 0 };

	for (i = 0; i < FZ_ROUNDS; i++) {
		size_t len = fz_rand(&seed) % 48;
		/* exact-size heap buffer: any overread is caught */
		u8 *buf = malloc(len ? len : 1);
		u8 out[2048];
		struct elec_msg m;
		enum elec_decode_result r;

		KUNIT_ASSERT_NOT_NULL(test, buf);
		for (j = 0; j < len; j++)
			buf[j] = fz_rand(&seed);
		/* bias towards frames that get past the first checks */
		if (len > 3 && (fz_rand(&seed) & 1)) {
			buf[0] = ELECTION_WIRE_VERSION;
			buf[1] = 1 + fz_rand(&seed) % ELEC_MSG_MAX;
			buf[2] = ELEC_ALGO_BULLY;
			buf[3] = (fz_rand(&seed) % 8) ? 0 : buf[3];
		}
		if (len > 11 && !(fz_rand(&seed) % 8))
			memset(buf + 4 + (fz_rand(&seed) & 1) * 4, 0,
			       (fz_rand(&seed) & 1) ? 2 : 4);
		if (len > 7 && (fz_rand(&seed) & 1)) {
			buf[6] = 0;
			buf[7] = (fz_rand(&seed) % 4) ? 0 : buf[7] % 30;
		}
		r = elec_codec_decode(buf, len, &m);
		KUNIT_ASSERT_LT(test, r, ELEC_DECODE_COUNT);
		if (r < ELEC_DECODE_COUNT)
			seen[r]++;
		if (r == ELEC_DECODE_OK) {
			/* the trailer's MAC is the embedder's: not compared */
			size_t t = m.flags & ELECTION_FLAG_AUTH ? 8 : 0;

			KUNIT_ASSERT_EQ(test, elec_codec_encode(&m, out,
								sizeof(out)),
					(size_t)ELECTION_HDR_LEN +
					m.payload_len + 2 * t);
			KUNIT_ASSERT_EQ(test, memcmp(out, buf,
						     ELECTION_HDR_LEN +
						     m.payload_len + t), 0);
		}
		free(buf);
	}
	/* every outcome was reached */
	for (j = 0; j < ELEC_DECODE_COUNT; j++)
		KUNIT_EXPECT_GT_MSG(test, seen[j], 0, "%s",
				    elec_decode_reason(j));
}

static void fz_round_trip(struct kunit *test)
{
	u32 seed = 12345, i;
	u8 buf[ELECTION_HDR_LEN];
	struct elec_msg in, out;

	for (i = 0; i < FZ_ROUNDS; i++) {
		memset(&in, 0, sizeof(in));
		in.type = 1 + fz_rand(&seed) % ELEC_MSG_HEARTBEAT;
		in.algo = ELEC_ALGO_BULLY;
		in.group = 1 + fz_rand(&seed) % 0xffff;
		in.src = fz_rand(&seed) | 1;
		in.dst = (fz_rand(&seed) & 1) ? 0 : fz_rand(&seed);
		in.term = ((u64)fz_rand(&seed) << 32) | fz_rand(&seed);
		KUNIT_ASSERT_EQ(test, elec_codec_encode(&in, buf, sizeof(buf)),
				sizeof(buf));
		KUNIT_ASSERT_EQ(test, elec_codec_decode(buf, sizeof(buf), &out),
				ELEC_DECODE_OK);
		KUNIT_ASSERT_EQ(test, memcmp(&in, &out, sizeof(in)), 0);
	}
}

static struct kunit_case fz_cases[] = {
	KUNIT_CASE(fz_random_bytes),
	KUNIT_CASE(fz_round_trip),
	{}
};

static struct kunit_suite fz_suite = {
	.name = "codec_fuzz",
	.test_cases = fz_cases,
};

kunit_test_suites(&fz_suite);
