// SPDX-License-Identifier: GPL-2.0
/*
 * elec-inject: SipHash-2-4, the authentication trailer's MAC, and the key files.
 */
#include "elec-inject.h"

/* ------------------------------------------------------------------ */
/* SipHash-2-4 (Aumasson and Bernstein, "SipHash: a fast short-input   */
/* PRF", 2012), written from the paper                                 */

static uint64_t rotl64(uint64_t x, unsigned int b)
{
	return (x << b) | (x >> (64 - b));
}

static uint64_t le64(const uint8_t *p)
{
	uint64_t v = 0;
	int i;

	for (i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

#define SIPROUND(v0, v1, v2, v3) do {					\
	v0 += v1; v1 = rotl64(v1, 13); v1 ^= v0; v0 = rotl64(v0, 32);	\
	v2 += v3; v3 = rotl64(v3, 16); v3 ^= v2;			\
	v0 += v3; v3 = rotl64(v3, 21); v3 ^= v0;			\
	v2 += v1; v1 = rotl64(v1, 17); v1 ^= v2; v2 = rotl64(v2, 32);	\
} while (0)

/* SipHash-2-4 of in[0..len) under the 16-byte key; the 64-bit result */
uint64_t siphash24(const uint8_t key[16], const uint8_t *in, size_t len)
{
	uint64_t k0 = le64(key), k1 = le64(key + 8);
	uint64_t v0 = k0 ^ 0x736f6d6570736575ULL;
	uint64_t v1 = k1 ^ 0x646f72616e646f6dULL;
	uint64_t v2 = k0 ^ 0x6c7967656e657261ULL;
	uint64_t v3 = k1 ^ 0x7465646279746573ULL;
	uint64_t m, b = (uint64_t)len << 56;
	size_t i, tail = len & 7;

	for (i = 0; i + 8 <= len; i += 8) {
		m = le64(in + i);
		v3 ^= m;
		SIPROUND(v0, v1, v2, v3);
		SIPROUND(v0, v1, v2, v3);
		v0 ^= m;
	}
	for (i = 0; i < tail; i++)
		b |= (uint64_t)in[len - tail + i] << (8 * i);
	v3 ^= b;
	SIPROUND(v0, v1, v2, v3);
	SIPROUND(v0, v1, v2, v3);
	v0 ^= b;
	v2 ^= 0xff;
	SIPROUND(v0, v1, v2, v3);
	SIPROUND(v0, v1, v2, v3);
	SIPROUND(v0, v1, v2, v3);
	SIPROUND(v0, v1, v2, v3);
	return v0 ^ v1 ^ v2 ^ v3;
}

/* the 8 output bytes as the reference implementation emits them */
void siphash24_bytes(const uint8_t key[16], const uint8_t *in,
		     size_t len, uint8_t mac[8])
{
	uint64_t h = siphash24(key, in, len);
	int i;

	for (i = 0; i < 8; i++)
		mac[i] = (uint8_t)(h >> (8 * i));
}

size_t read_key(const char *path, uint8_t key[16])
{
	uint8_t buf[80];
	size_t n, i, k = 0;
	FILE *f = fopen(path, "rb");

	if (!f)
		die_errno("key-file %s", path);
	n = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	if (n == 16) {
		memcpy(key, buf, 16);
		return 16;
	}
	/* 32 hex digits, surrounding white space allowed */
	for (i = 0; i < n; i++) {
		unsigned int d;

		if (buf[i] == ' ' || buf[i] == '\n' || buf[i] == '\t' ||
		    buf[i] == '\r')
			continue;
		if (buf[i] >= '0' && buf[i] <= '9')
			d = buf[i] - '0';
		else if (buf[i] >= 'a' && buf[i] <= 'f')
			d = buf[i] - 'a' + 10;
		else if (buf[i] >= 'A' && buf[i] <= 'F')
			d = buf[i] - 'A' + 10;
		else
			die("key-file %s: neither 16 bytes nor 32 hex digits", path);
		if (k >= 32)
			die("key-file %s: more than 32 hex digits", path);
		if (k % 2 == 0)
			key[k / 2] = (uint8_t)(d << 4);
		else
			key[k / 2] |= (uint8_t)d;
		k++;
	}
	if (k != 32)
		die("key-file %s: neither 16 bytes nor 32 hex digits", path);
	return 16;
}
