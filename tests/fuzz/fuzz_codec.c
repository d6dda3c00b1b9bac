// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target "codec": elec_codec_decode() on arbitrary bytes (the
 * bytes after the Ethernet header, exactly as long as the input, so ASan
 * sees any read past the frame). The result must be a defined one; a frame
 * that decodes must be a valid message (known type and algorithm, allowed
 * flags, non-zero group and source, the payload within the frame), encode
 * again to the same bytes and length, and decode from those to the same
 * fields. The same frame cut short by one byte must decode too, or fail
 * for its length. fuzz_fail() traps: libFuzzer reports a crash.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include "core.h"

#define fuzz_fail(...) do {						\
	fprintf(stderr, "fuzz_codec: %s:%d: ", __FILE__, __LINE__);	\
	fprintf(stderr, __VA_ARGS__);					\
	fputc('\n', stderr);						\
	__builtin_trap();						\
} while (0)

#define fuzz_check(cond, ...) do {					\
	if (!(cond))							\
		fuzz_fail("check failed: " #cond ": " __VA_ARGS__);	\
} while (0)

static bool same_msg(const struct elec_msg *a, const struct elec_msg *b)
{
	return a->type == b->type && a->algo == b->algo &&
	       a->flags == b->flags && a->group == b->group &&
	       a->payload_len == b->payload_len && a->src == b->src &&
	       a->dst == b->dst && a->term == b->term &&
	       (!a->payload_len ||
		!memcmp(a->payload, b->payload, a->payload_len));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	u8 out[ELECTION_HDR_LEN + ELECTION_MAX_PAYLOAD];
	struct elec_msg m, again;
	enum elec_decode_result r, r2;
	size_t n;

	r = elec_codec_decode(data, size, &m);
	fuzz_check(r < ELEC_DECODE_COUNT, "result %d", r);
	fuzz_check(elec_decode_reason(r) && elec_decode_reason(r)[0], "reason");
	fuzz_check((r == ELEC_DECODE_SHORT) == (size < ELECTION_HDR_LEN),
		   "%s for %zu bytes", elec_decode_reason(r), size);
	if (r != ELEC_DECODE_OK)
		return 0;

	fuzz_check(m.type > ELEC_MSG_UNSPEC && m.type <= ELEC_MSG_MAX &&
		   m.type != ELEC_MSG_RETRY, "type %u", m.type);
	fuzz_check(elec_algo_find(m.algo), "algo %u", m.algo);
	fuzz_check(!m.flags || (m.flags == ELECTION_FLAG_LEAVING &&
				m.type == ELEC_MSG_HEARTBEAT), "flags %#x", m.flags);
	fuzz_check(m.group && m.src, "group %u src %u", m.group, m.src);
	fuzz_check(m.payload_len <= ELECTION_MAX_PAYLOAD &&
		   ELECTION_HDR_LEN + (size_t)m.payload_len <= size,
		   "payload_len %u in %zu bytes", m.payload_len, size);
	fuzz_check(m.payload_len ? m.payload == data + ELECTION_HDR_LEN :
		   !m.payload, "payload pointer");
	fuzz_check(!m.src_lladdr, "src_lladdr set by the codec");

	n = elec_codec_encode(&m, out, sizeof(out));
	fuzz_check(n == ELECTION_HDR_LEN + (size_t)m.payload_len,
		   "encoded %zu bytes", n);
	fuzz_check(!memcmp(out, data, n), "re-encoded bytes differ");
	fuzz_check(!elec_codec_encode(&m, out, n - 1), "encode into %zu bytes",
		   n - 1);
	r2 = elec_codec_decode(out, n, &again);
	fuzz_check(r2 == ELEC_DECODE_OK, "re-encoded frame: %s",
		   elec_decode_reason(r2));
	fuzz_check(same_msg(&m, &again), "round trip changed a field");

	/* the frame cut short: the payload no longer fits */
	r2 = elec_codec_decode(data, n - 1, &again);
	fuzz_check(r2 == (n - 1 < ELECTION_HDR_LEN ? ELEC_DECODE_SHORT :
			  ELEC_DECODE_LENGTH), "cut short: %s",
		   elec_decode_reason(r2));
	return 0;
}
