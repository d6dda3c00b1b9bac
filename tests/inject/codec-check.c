// SPDX-License-Identifier: GPL-2.0
/*
 * codec-check: decode every frame of a pcap file as election.ko's receive
 * path does (module/rx.c: shorter than the header, a declared payload
 * length above ELECTION_MAX_PAYLOAD, then the core's elec_codec_decode()
 * on at most header + payload_len bytes, + the trailer's with the AUTH
 * flag) and print one line per frame: its index and "ok",
 * "auth_truncated" or "malformed: <reason>". Frames of another EtherType
 * print "other".
 *
 * tests/inject/test_inject.py compares these verdicts with elec-inject's
 * own model of the wire format (written from Documentation/protocol.rst),
 * frame by frame: the differential check of the two, without a kernel.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"

static uint32_t sw(uint32_t v, int swap)
{
	return swap ? __builtin_bswap32(v) : v;
}

int main(int argc, char **argv)
{
	static uint8_t buf[65536];
	uint32_t h[6], r[4], len;
	unsigned long i = 0;
	int swap;
	FILE *f;

	if (argc != 2) {
		fprintf(stderr, "usage: codec-check FILE.pcap\n");
		return 1;
	}
	f = fopen(argv[1], "rb");
	if (!f) {
		perror(argv[1]);
		return 1;
	}
	if (fread(h, sizeof(h), 1, f) != 1 ||
	    (h[0] != 0xa1b2c3d4u && h[0] != 0xd4c3b2a1u)) {
		fprintf(stderr, "%s: not a pcap file\n", argv[1]);
		return 1;
	}
	swap = h[0] == 0xd4c3b2a1u;
	while (fread(r, sizeof(r), 1, f) == 1) {
		enum elec_decode_result res;
		struct elec_msg msg;
		size_t blen, dlen;
		uint16_t plen;

		len = sw(r[2], swap);
		if (len > sizeof(buf) || (len && fread(buf, len, 1, f) != 1)) {
			fprintf(stderr, "%s: frame %lu truncated\n", argv[1], i);
			return 1;
		}
		if (len < 14 || buf[12] != ELECTION_ETHERTYPE >> 8 ||
		    buf[13] != (ELECTION_ETHERTYPE & 0xff)) {
			printf("%lu other\n", i++);
			continue;
		}
		blen = len - 14;
		if (blen < ELECTION_HDR_LEN) {
			printf("%lu malformed: %s\n", i++,
			       elec_decode_reason(ELEC_DECODE_SHORT));
			continue;
		}
		plen = (uint16_t)(buf[14 + 6] << 8 | buf[14 + 7]);
		if (plen > ELECTION_MAX_PAYLOAD) {
			printf("%lu malformed: %s\n", i++,
			       elec_decode_reason(ELEC_DECODE_LENGTH));
			continue;
		}
		dlen = (size_t)ELECTION_HDR_LEN + plen;
		if (buf[14 + 3] & ELECTION_FLAG_AUTH)
			dlen += ELECTION_AUTH_LEN;
		if (dlen > blen)
			dlen = blen;
		res = elec_codec_decode(buf + 14, dlen, &msg);
		if (res == ELEC_DECODE_OK)
			printf("%lu ok\n", i++);
		else if (res == ELEC_DECODE_AUTH_SHORT)
			printf("%lu auth_truncated\n", i++);
		else
			printf("%lu malformed: %s\n", i++, elec_decode_reason(res));
	}
	fclose(f);
	return 0;
}
