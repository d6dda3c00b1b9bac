// SPDX-License-Identifier: GPL-2.0
/*
 * The wire codec: the fixed 24-byte header described in
 * uapi/linux/election.h, in network byte order, read and written byte by
 * byte (no alignment or endianness assumptions), and the payload check of
 * the frame's algorithm.
 */
#include "core.h"

#define ELEC_OFF_VERSION	0
#define ELEC_OFF_TYPE		1
#define ELEC_OFF_ALGO		2
#define ELEC_OFF_FLAGS		3
#define ELEC_OFF_GROUP		4
#define ELEC_OFF_PAYLOAD_LEN	6
#define ELEC_OFF_SRC		8
#define ELEC_OFF_DST		12
#define ELEC_OFF_TERM		16

/**
 * elec_codec_decode() - decode and validate a frame (after the Ethernet
 * header).
 * @buf: the bytes
 * @len: how many; trailing bytes after the payload (padding) are ignored
 * @msg: filled in on success only; msg->payload points into @buf
 *
 * Checks, in this order: the length covers the header, version, message
 * type, algorithm (known and complete), flags (ELECTION_FLAG_LEAVING on a
 * HEARTBEAT, ELECTION_FLAG_AUTH on any type, nothing else), group id and
 * source id non-zero, payload length within ELECTION_MAX_PAYLOAD and the
 * frame, the frame's room for the authentication trailer when the flag
 * says it has one, and the payload as the algorithm's payload_ok() sees
 * it (an algorithm without one takes only empty payloads). The trailer's
 * counter goes to msg->auth_ctr; its MAC is the embedder's to check.
 *
 * Return: ELEC_DECODE_OK, or the first check that failed. For
 * ELEC_DECODE_AUTH_SHORT @msg is filled in too (the frame's group names
 * the instance that counts it).
 */
enum elec_decode_result elec_codec_decode(const u8 *buf, size_t len,
					  struct elec_msg *msg)
{
	const struct elec_algo_ops *ops;
	struct elec_msg m;

	if (!buf || len < ELECTION_HDR_LEN)
		return ELEC_DECODE_SHORT;
	if (buf[ELEC_OFF_VERSION] != ELECTION_WIRE_VERSION)
		return ELEC_DECODE_VERSION;

	memset(&m, 0, sizeof(m));
	m.type = buf[ELEC_OFF_TYPE];
	m.algo = buf[ELEC_OFF_ALGO];
	m.flags = buf[ELEC_OFF_FLAGS];
	m.group = elec_get16(buf + ELEC_OFF_GROUP);
	m.payload_len = elec_get16(buf + ELEC_OFF_PAYLOAD_LEN);
	m.src = elec_get32(buf + ELEC_OFF_SRC);
	m.dst = elec_get32(buf + ELEC_OFF_DST);
	m.term = elec_get64(buf + ELEC_OFF_TERM);

	/* RETRY is a counter slot, never a frame's type */
	if (m.type == ELEC_MSG_UNSPEC || m.type > ELEC_MSG_MAX ||
	    m.type == ELEC_MSG_RETRY)
		return ELEC_DECODE_TYPE;
	ops = elec_algo_find(m.algo);
	if (!ops)
		return ELEC_DECODE_ALGO;
	if (m.flags & ~(ELECTION_FLAG_LEAVING | ELECTION_FLAG_AUTH) ||
	    (m.flags & ELECTION_FLAG_LEAVING && m.type != ELEC_MSG_HEARTBEAT))
		return ELEC_DECODE_FLAGS;
	if (!m.group)
		return ELEC_DECODE_GROUP;
	if (!m.src)
		return ELEC_DECODE_SRC;
	if (m.payload_len > ELECTION_MAX_PAYLOAD ||
	    m.payload_len > len - ELECTION_HDR_LEN)
		return ELEC_DECODE_LENGTH;
	m.payload = m.payload_len ? buf + ELECTION_HDR_LEN : NULL;
	if (m.flags & ELECTION_FLAG_AUTH) {
		if (len - ELECTION_HDR_LEN - m.payload_len < ELECTION_AUTH_LEN) {
			m.payload = NULL;
			if (msg)
				*msg = m;
			return ELEC_DECODE_AUTH_SHORT;
		}
		m.auth_ctr = elec_get64(buf + ELECTION_HDR_LEN + m.payload_len);
	}
	if (ops->payload_ok ? !ops->payload_ok(m.type, m.payload, m.payload_len)
			    : m.payload_len != 0)
		return ELEC_DECODE_PAYLOAD;

	if (msg)
		*msg = m;
	return ELEC_DECODE_OK;
}

/**
 * elec_codec_encode() - write a message's header and payload.
 * @msg: the message; its fields are written as they are (the core only
 *	builds valid ones)
 * @buf: where to write
 * @cap: room at @buf
 *
 * With ELECTION_FLAG_AUTH in msg->flags the authentication trailer
 * follows the payload: msg->auth_ctr, then ELECTION_AUTH_MAC_LEN zero
 * bytes where the embedder writes the MAC (the frame's last bytes).
 *
 * Return: bytes written (ELECTION_HDR_LEN + payload length, plus
 * ELECTION_AUTH_LEN with the trailer), or 0 when @cap is too small, the
 * payload is longer than ELECTION_MAX_PAYLOAD, or a non-empty payload has
 * no bytes.
 */
size_t elec_codec_encode(const struct elec_msg *msg, u8 *buf, size_t cap)
{
	size_t need;

	if (!msg || !buf || msg->payload_len > ELECTION_MAX_PAYLOAD)
		return 0;
	if (msg->payload_len && !msg->payload)
		return 0;
	need = ELECTION_HDR_LEN + (size_t)msg->payload_len;
	if (msg->flags & ELECTION_FLAG_AUTH)
		need += ELECTION_AUTH_LEN;
	if (cap < need)
		return 0;

	buf[ELEC_OFF_VERSION] = ELECTION_WIRE_VERSION;
	buf[ELEC_OFF_TYPE] = msg->type;
	buf[ELEC_OFF_ALGO] = msg->algo;
	buf[ELEC_OFF_FLAGS] = msg->flags;
	elec_put16(buf + ELEC_OFF_GROUP, msg->group);
	elec_put16(buf + ELEC_OFF_PAYLOAD_LEN, msg->payload_len);
	elec_put32(buf + ELEC_OFF_SRC, msg->src);
	elec_put32(buf + ELEC_OFF_DST, msg->dst);
	elec_put64(buf + ELEC_OFF_TERM, msg->term);
	if (msg->payload_len)
		memcpy(buf + ELECTION_HDR_LEN, msg->payload, msg->payload_len);
	if (msg->flags & ELECTION_FLAG_AUTH) {
		u8 *t = buf + ELECTION_HDR_LEN + msg->payload_len;

		elec_put64(t, msg->auth_ctr);
		memset(t + 8, 0, ELECTION_AUTH_MAC_LEN);
	}
	return need;
}

/**
 * elec_decode_reason() - describe a decode result.
 * @r: the result
 *
 * Return: a short constant string (for logs and tests).
 */
const char *elec_decode_reason(enum elec_decode_result r)
{
	switch (r) {
	case ELEC_DECODE_OK:
		return "ok";
	case ELEC_DECODE_SHORT:
		return "frame shorter than the header";
	case ELEC_DECODE_VERSION:
		return "unknown wire version";
	case ELEC_DECODE_TYPE:
		return "unknown message type";
	case ELEC_DECODE_ALGO:
		return "unknown algorithm";
	case ELEC_DECODE_FLAGS:
		return "unknown or misplaced header flags";
	case ELEC_DECODE_GROUP:
		return "group id 0";
	case ELEC_DECODE_SRC:
		return "source id 0";
	case ELEC_DECODE_LENGTH:
		return "payload length beyond the frame or the maximum";
	case ELEC_DECODE_PAYLOAD:
		return "payload invalid for the message type";
	case ELEC_DECODE_AUTH_SHORT:
		return "authentication trailer cut short";
	default:
		return "unknown decode result";
	}
}
