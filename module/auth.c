// SPDX-License-Identifier: GPL-2.0
/*
 * election.ko: the MAC of authenticated frames.
 *
 * A group with a key sends every frame with the authentication trailer
 * (uapi/linux/election.h): a counter the core chooses, then the MAC,
 * SipHash-2-4 keyed with the group's 16 bytes over the header, the payload
 * and the counter. SipHash is the kernel's lib/siphash.c: no allocation,
 * no crypto API transform, usable under the instance's spinlock in softirq
 * and cheap per frame (Documentation/protocol.rst, "Authentication",
 * gives the measured cost against HMAC-SHA256). Its 64-bit tag makes a
 * forgery succeed with probability 2^-64 per try; every failed try is
 * counted (ELEC_DROP_AUTH_BAD).
 *
 * The key is read from the group's netlink request and kept in the
 * instance only; it is wiped when it is replaced or removed and when the
 * instance is freed. No reply, event, trace or log line carries it.
 */
#include <linux/siphash.h>

#include "compat.h"
#include "auth.h"
#include "core.h"

/**
 * elec_auth_key_import() - the SipHash key of a group key's bytes.
 * @key: where to store it
 * @raw: ELECTION_KEY_LEN bytes, as the administrator gave them
 *
 * The reference implementation reads its key as two little-endian
 * 64-bit words: so does this, so that other implementations (the test
 * injector, a dissector) agree on the MAC.
 */
void elec_auth_key_import(siphash_key_t *key, const u8 *raw)
{
	key->key[0] = get_unaligned_le64(raw);
	key->key[1] = get_unaligned_le64(raw + 8);
}

/**
 * elec_auth_sign() - write the MAC of an encoded frame.
 * @key: the group's key
 * @frame: our header, payload and trailer (elec_codec_encode() with
 *	ELECTION_FLAG_AUTH), ELECTION_AUTH_MAC_LEN zero bytes last
 * @len: its length, trailer included
 */
void elec_auth_sign(const siphash_key_t *key, u8 *frame, size_t len)
{
	size_t n = len - ELECTION_AUTH_MAC_LEN;

	put_unaligned_le64(siphash(frame, n, key), frame + n);
}

/**
 * elec_auth_verify() - check the MAC of a received frame.
 * @key: the group's key
 * @frame: our header onwards
 * @len: header, payload and trailer length (the decoder checked that the
 *	frame holds that many bytes)
 *
 * Return: true when the trailer's MAC is the key's for the bytes before it.
 */
bool elec_auth_verify(const siphash_key_t *key, const u8 *frame, size_t len)
{
	size_t n = len - ELECTION_AUTH_MAC_LEN;
	u8 mac[ELECTION_AUTH_MAC_LEN];

	put_unaligned_le64(siphash(frame, n, key), mac);
	return !crypto_memneq(mac, frame + n, ELECTION_AUTH_MAC_LEN);
}
