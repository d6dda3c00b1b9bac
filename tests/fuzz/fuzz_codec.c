// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target "codec": elec_codec_decode() on arbitrary bytes (the
 * bytes after the Ethernet header, exactly as long as the input, so ASan
 * sees any read past the frame). The result must be a defined one; a frame
 * that decodes must be a valid message (known type and algorithm, allowed
 * flags, non-zero group and source, the payload and the authentication
 * trailer within the frame), encode again to the same bytes and length
 * (the trailer's MAC bytes zeroed: the embedder writes them), and decode
 * from those to the same fields. The same frame cut short by one byte must
 * fail for its length or its trailer. A frame whose trailer is cut short
 * still names its fields. fuzz_fail() traps: libFuzzer reports a crash.
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
	       a->auth_ctr == b->auth_ctr &&
	       (!a->payload_len ||
		!memcmp(a->payload, b->payload, a->payload_len));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	u8 out[ELECTION_HDR_LEN + ELECTION_MAX_PAYLOAD + ELECTION_AUTH_LEN];
	struct elec_msg m, again;
	enum elec_decode_result r, r2;
	size_t n, body;
	bool auth;

	memset(&m, 0, sizeof(m));
	r = elec_codec_decode(data, size, &m);
	fuzz_check(r < ELEC_DECODE_COUNT, "result %d", r);
	fuzz_check(elec_decode_reason(r) && elec_decode_reason(r)[0], "reason");
	fuzz_check((r == ELEC_DECODE_SHORT) == (size < ELECTION_HDR_LEN),
		   "%s for %zu bytes", elec_decode_reason(r), size);
	if (r == ELEC_DECODE_AUTH_SHORT) {
		/* the fields name the instance that counts the drop */
		fuzz_check(m.flags & ELECTION_FLAG_AUTH && m.group && m.src &&
			   !m.payload, "trailer cut short: fields");
		fuzz_check(ELECTION_HDR_LEN + (size_t)m.payload_len <= size &&
			   size < ELECTION_HDR_LEN + (size_t)m.payload_len +
			   ELECTION_AUTH_LEN, "trailer cut short: %zu bytes", size);
		return 0;
	}
	if (r != ELEC_DECODE_OK)
		return 0;

	fuzz_check(m.type > ELEC_MSG_UNSPEC && m.type <= ELEC_MSG_MAX &&
		   m.type != ELEC_MSG_RETRY, "type %u", m.type);
	fuzz_check(elec_algo_find(m.algo), "algo %u", m.algo);
	auth = m.flags & ELECTION_FLAG_AUTH;
	fuzz_check(!(m.flags & ~ELECTION_FLAG_AUTH) ||
		   ((m.flags & ~ELECTION_FLAG_AUTH) == ELECTION_FLAG_LEAVING &&
		    m.type == ELEC_MSG_HEARTBEAT), "flags %#x", m.flags);
	fuzz_check(m.group && m.src, "group %u src %u", m.group, m.src);
	body = ELECTION_HDR_LEN + (size_t)m.payload_len;
	fuzz_check(m.payload_len <= ELECTION_MAX_PAYLOAD &&
		   body + (auth ? ELECTION_AUTH_LEN : 0) <= size,
		   "payload_len %u in %zu bytes", m.payload_len, size);
	fuzz_check(!auth || m.auth_ctr == elec_get64(data + body),
		   "trailer counter");
	fuzz_check(m.payload_len ? m.payload == data + ELECTION_HDR_LEN :
		   !m.payload, "payload pointer");
	fuzz_check(!m.src_lladdr, "src_lladdr set by the codec");

	n = elec_codec_encode(&m, out, sizeof(out));
	fuzz_check(n == body + (auth ? ELECTION_AUTH_LEN : 0),
		   "encoded %zu bytes", n);
	/* all but the MAC, which the encoder leaves zero for the embedder */
	fuzz_check(!memcmp(out, data, auth ? body + 8 : n),
		   "re-encoded bytes differ");
	fuzz_check(!auth || !memcmp(out + body + 8, "\0\0\0\0\0\0\0\0", 8),
		   "MAC bytes not zeroed");
	fuzz_check(!elec_codec_encode(&m, out, n - 1), "encode into %zu bytes",
		   n - 1);
	/* what the encoder refuses: a payload too long, or without bytes */
	again = m;
	again.payload_len = ELECTION_MAX_PAYLOAD + 1;
	fuzz_check(!elec_codec_encode(&again, out, sizeof(out)), "long payload");
	again.payload_len = m.payload_len ? m.payload_len : 1;
	again.payload = NULL;
	fuzz_check(!elec_codec_encode(&again, out, sizeof(out)), "NULL payload");

	n = elec_codec_encode(&m, out, sizeof(out));
	r2 = elec_codec_decode(out, n, &again);
	fuzz_check(r2 == ELEC_DECODE_OK, "re-encoded frame: %s",
		   elec_decode_reason(r2));
	fuzz_check(same_msg(&m, &again), "round trip changed a field");

	/* the frame cut short: the payload or the trailer no longer fits */
	r2 = elec_codec_decode(data, n - 1, &again);
	fuzz_check(r2 == (auth ? ELEC_DECODE_AUTH_SHORT :
			  n - 1 < ELECTION_HDR_LEN ? ELEC_DECODE_SHORT :
			  ELEC_DECODE_LENGTH), "cut short: %s",
		   elec_decode_reason(r2));
	return 0;
}
