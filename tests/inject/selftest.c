// SPDX-License-Identifier: GPL-2.0
/*
 * elec-inject: selftest: SipHash vectors, the generators against the model, pcap.
 */
#include "elec-inject.h"

/* --- selftest --- */

/*
 * SipHash-2-4 of the reference implementation's vectors: key 00..0f,
 * messages 00, 00 01, ..., 00..3e (lengths 0..63), the output bytes as it
 * emits them. The paper's example (Appendix A) is length 15:
 * a129ca6149be45e5.
 */
static const char *const sip_vectors[64] = {
	"310e0edd47db6f72", "fd67dc93c539f874", "5a4fa9d909806c0d",
	"2d7efbd796666785", "b7877127e09427cf", "8da699cd64557618",
	"cee3fe586e46c9cb", "37d1018bf50002ab", "6224939a79f5f593",
	"b0e4a90bdf82009e", "f3b9dd94c5bb5d7a", "a7ad6b22462fb3f4",
	"fbe50e86bc8f1e75", "903d84c02756ea14", "eef27a8e90ca23f7",
	"e545be4961ca29a1", "db9bc2577fcc2a3f", "9447be2cf5e99a69",
	"9cd38d96f0b3c14b", "bd6179a71dc96dbb", "98eea21af25cd6be",
	"c7673b2eb0cbf2d0", "883ea3e395675393", "c8ce5ccd8c030ca8",
	"94af49f6c650adb8", "eab8858ade92e1bc", "f315bb5bb835d817",
	"adcf6b0763612e2f", "a5c91da7acaa4dde", "716595876650a2a6",
	"28ef495c53a387ad", "42c341d8fa92d832", "ce7cf2722f512771",
	"e37859f94623f3a7", "381205bb1ab0e012", "ae97a10fd434e015",
	"b4a31508beff4d31", "81396229f0907902", "4d0cf49ee5d4dcca",
	"5c73336a76d8bf9a", "d0a704536ba93e0e", "925958fcd6420cad",
	"a915c29bc8067318", "952b79f3bc0aa6d4", "f21df2e41d4535f9",
	"87577519048f53a9", "10a56cf5dfcd9adb", "eb75095ccd986cd0",
	"51a9cb9ecba312e6", "96afadfc2ce666c7", "72fe52975a4364ee",
	"5a1645b276d592a1", "b274cb8ebf87870a", "6f9bb4203de7b381",
	"eaecb2a30b22a87f", "9924a43cc1315724", "bd838d3aafbf8db7",
	"0b1a2a3265d51aea", "135079a3231ce660", "932b2846e4d70666",
	"e1915f5cb1eca46c", "f325965ca16d629f", "575ff28e60381be5",
	"724506eb4c328a95",
};

static unsigned int st_pass, st_fail;

static void st_check(bool ok, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void st_check(bool ok, const char *fmt, ...)
{
	va_list ap;

	if (ok) {
		st_pass++;
		if (opt_quiet)
			return;
		printf("ok - ");
	} else {
		st_fail++;
		printf("FAIL - ");
	}
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

/* a valid bully coordinator naming node @n, from its id and MAC, to all */
static void claim_from(struct frame *g, const struct node *n)
{
	build_valid(g, ELEC_ALGO_BULLY, ELEC_MSG_COORDINATOR, 1);
	put32(body_of(g) + O_SRC, n->id);
	put32(body_of(g) + O_DST, 0);
	memcpy(g->b, "\xff\xff\xff\xff\xff\xff", 6);
	memcpy(g->b + 6, n->mac, 6);
}

int cmd_selftest(struct args *a)
{
	uint8_t key[16], msg[64], outb[8];
	char hex[17];
	unsigned int i, j, bad, algo, t;
	struct frame f;
	enum cat c;

	if (more(a))
		die("unexpected '%s'", a->argv[a->i]);
	for (i = 0; i < 16; i++)
		key[i] = (uint8_t)i;
	for (i = 0; i < 64; i++)
		msg[i] = (uint8_t)i;
	bad = 0;
	for (i = 0; i < 64; i++) {
		siphash24_bytes(key, msg, i, outb);
		for (j = 0; j < 8; j++)
			snprintf(hex + 2 * j, 3, "%02x", outb[j]);
		if (strcmp(hex, sip_vectors[i])) {
			bad++;
			printf("# siphash length %u: %s, expected %s\n", i, hex,
			       sip_vectors[i]);
		}
	}
	st_check(!bad, "SipHash-2-4: the reference implementation's 64 vectors");
	st_check(siphash24(key, msg, 15) == 0xa129ca6149be45e5ULL,
		 "SipHash-2-4: the paper's example (Appendix A) a129ca6149be45e5");

	/* the generators against the model of the wire format */
	memset(gen.dst_mac, 0xff, 6);
	memcpy(gen.src_mac, "\x02\x00\x00\x00\x00\x01", 6);
	gen.ethertype = ELECTION_ETHERTYPE;
	gen.groups[0] = 1;
	gen.n_groups = 1;
	rng_state = 1;
	bad = 0;
	for (algo = 1; algo <= N_ALGOS; algo++) {
		for (i = 0; i < sizeof(algo_types[0]) && algo_types[algo][i]; i++) {
			t = algo_types[algo][i];
			for (j = 0; j < 2000; j++) {
				struct hdr h;

				build_valid(&f, (uint8_t)algo, (uint8_t)t, 1);
				if (!body_decodes(body_of(&f), f.len - ETH_HDR, &h))
					bad++;
			}
		}
	}
	st_check(!bad, "valid frames of every algorithm and type decode (%u failed)",
		 bad);
	/* build_cat() aborts on a frame of the wrong verdict */
	parse_algos("all");
	for (c = 0; c < C_MUTATED; c++)
		for (j = 0; j < 5000; j++)
			build_cat(&f, c);
	st_check(true, "every category's frames decode as meant (%d categories x 5000)",
		 (int)C_MUTATED);
	{
		uint64_t s1, s2;

		rng_state = 42;
		build_cat(&f, C_MUTATED);
		s1 = rnd64();
		rng_state = 42;
		build_cat(&f, C_MUTATED);
		s2 = rnd64();
		st_check(s1 == s2, "the generator is deterministic for a seed");
	}
	/* examples from protocol.rst */
	{
		static const uint8_t hb[HDR] = { 1, 4, 1, 1, 0, 1, 0, 0, 0, 0, 0, 42,
						 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 7 };
		uint8_t b[HDR + 8 + TRAILER];
		struct hdr h;

		st_check(body_decodes(hb, HDR, &h) && h.src == 42 && h.term == 7,
			 "a bully heartbeat flagged LEAVING decodes");
		memcpy(b, hb, HDR);
		b[O_TYPE] = ELEC_MSG_ELECTION;
		st_check(!body_decodes(b, HDR, &h), "LEAVING on an election is malformed");
		b[O_FLAGS] = FLAG_AUTH;
		memset(b + HDR, 0, TRAILER);
		st_check(body_verdict(b, HDR + TRAILER, &h) == V_OK,
			 "AUTH on an election with its 16-byte trailer decodes");
		st_check(body_verdict(b, HDR + TRAILER - 1, &h) == V_AUTH_SHORT,
			 "... with 15 trailer bytes: auth_truncated");
		b[O_FLAGS] = FLAG_AUTH | 0x04;
		st_check(body_verdict(b, HDR + TRAILER, &h) == V_MALFORMED,
			 "AUTH with another unknown bit: malformed");
		b[O_FLAGS] = FLAG_AUTH;
		put16(b + O_PLEN, 1);
		st_check(body_verdict(b, HDR + 1, &h) == V_AUTH_SHORT,
			 "AUTH, a bad payload, no trailer: auth_truncated first");
		b[O_FLAGS] = 0;
		b[O_ALGO] = ELEC_ALGO_RING;
		b[O_TYPE] = ELEC_MSG_COORDINATOR;
		put16(b + O_PLEN, 8);
		put32(b + HDR, 1);
		put32(b + HDR + 4, 0);
		st_check(!body_decodes(b, HDR + 8, &h), "a ring coordinator naming 0 is malformed");
		put32(b + HDR + 4, 5);
		st_check(body_decodes(b, HDR + 8, &h), "a ring coordinator naming 5 decodes");
		st_check(!body_decodes(b, HDR + 7, &h), "... and not when cut by one byte");
		b[O_ALGO] = ELEC_ALGO_INVITATION;
		b[O_TYPE] = ELEC_MSG_READY;
		put16(b + O_PLEN, 8);
		memset(b + HDR, 0, 8);
		st_check(body_decodes(b, HDR + 8, &h), "an empty invitation ready decodes");
	}
	/* predictions */
	{
		struct frame g;
		struct node n1 = { 1, { 2, 0, 0, 0, 0, 1 }, true };
		struct node n2 = { 2, { 2, 0, 0, 0, 0, 2 }, true };

		model.nodes[0] = n1;
		model.nodes[1] = n2;
		model.n_nodes = 2;
		memset(&model.groups[0], 0, sizeof(model.groups[0]));
		model.groups[0].id = 1;
		model.groups[0].algo = ELEC_ALGO_BULLY;
		model.n_groups = 1;
		memcpy(gen.src_mac, "\x02\x00\x00\x00\x00\x63", 6);
		build_valid(&g, ELEC_ALGO_BULLY, ELEC_MSG_COORDINATOR, 1);
		put32(body_of(&g) + O_SRC, 1);
		put32(body_of(&g) + O_DST, 0);
		pad(&g);
		st_check(predict(g.b, g.len, ELECTION_ETHERTYPE, &n2) ==
			 ELEC_DROP_WRONG_LLADDR &&
			 predict(g.b, g.len, ELECTION_ETHERTYPE, &n1) ==
			 ELEC_DROP_UNKNOWN_PEER,
			 "a claim from 1 at another MAC: wrong_lladdr at 2, unknown_peer at 1");
		memcpy(g.b + 6, n1.mac, 6);
		st_check(predict(g.b, g.len, ELECTION_ETHERTYPE, &n2) == R_ACCEPT,
			 "... accepted from 1's MAC");
		put32(body_of(&g) + O_DST, 1);
		st_check(predict(g.b, g.len, ELECTION_ETHERTYPE, &n2) ==
			 ELEC_DROP_WRONG_DST, "... wrong_dst when sent to id 1");
		memcpy(g.b, n1.mac, 6);
		st_check(predict(g.b, g.len, ELECTION_ETHERTYPE, &n2) == R_NONE,
			 "... not received by 2 when sent to 1's MAC");
		put16(body_of(&g) + O_GROUP, 2);
		st_check(predict(g.b, g.len, ELECTION_ETHERTYPE, &n1) ==
			 ELEC_DROP_WRONG_GROUP, "... wrong_group for group 2");
		/* authentication */
		claim_from(&g, &n1);
		sign(&g, key, next_counter(0));
		st_check(predict(g.b, g.len, ELECTION_ETHERTYPE, &n2) ==
			 ELEC_DROP_AUTH_UNEXPECTED,
			 "a signed frame from 1's MAC to a group without a key: auth_unexpected");
		model.groups[0].keyed = true;
		memcpy(model.groups[0].key, key, 16);
		st_check(predict(g.b, g.len, ELECTION_ETHERTYPE, &n2) == R_ACCEPT,
			 "... to a group with that key, its counter the clock now: accepted (counters permitting)");
		model.groups[0].stopped = true;
		g.b[g.len - 1] ^= 1;
		st_check(predict(g.b, g.len, ELECTION_ETHERTYPE, &n2) ==
			 ELEC_DROP_STOPPED,
			 "... its MAC altered, the group stopped: stopped (the MAC comes last)");
		model.groups[0].stopped = false;
		st_check(predict(g.b, g.len, ELECTION_ETHERTYPE, &n2) ==
			 ELEC_DROP_AUTH_BAD,
			 "... the group running: auth_bad");
		g.b[g.len - 1] ^= 1;
		memcpy(g.b + 6, "\x02\x00\x00\x00\x00\x63", 6);
		st_check(predict(g.b, g.len, ELECTION_ETHERTYPE, &n2) ==
			 ELEC_DROP_WRONG_LLADDR, "... from another MAC: wrong_lladdr");
		claim_from(&g, &n1);
		st_check(predict(g.b, g.len, ELECTION_ETHERTYPE, &n2) ==
			 ELEC_DROP_AUTH_MISSING,
			 "an unsigned frame from 1's MAC to a keyed group: auth_missing");
		sign(&g, key, 5);
		g.b[g.len - 1] ^= 1;
		st_check(predict(g.b, g.len, ELECTION_ETHERTYPE, &n2) ==
			 ELEC_DROP_AUTH_CLOCK,
			 "... signed with counter 5 (1970), its MAC altered: auth_clock before the MAC");
		/*
		 * flip: a counter 2^33 ns (8.6 s) from the clock, one bit
		 * away from it; no flip may bring it there
		 */
		{
			struct frame o = g, fl;
			size_t co = g.len - TRAILER - ETH_HDR;
			uint64_t ctr, old = (wall_ns() &
					   ~ELECTION_AUTH_SEQ_MASK) ^ (1ULL << 33);
			unsigned int near = 0, moved = 0;

			o.len -= TRAILER;
			sign(&o, key, old | 7);
			rng_state = 1;
			for (i = 0; i < 4000; i++) {
				fl = o;
				flip_bits(&fl, 1);
				if (counter_near_now(fl.b, fl.len, &ctr))
					near++;
				else if (get64(body_of(&fl) + co) != (old | 7))
					moved++;
			}
			st_check(!near && moved,
				 "flip: of 4000 single-bit flips of a frame whose counter is one bit from the clock now, none brings it near the clock (%u), %u change it elsewhere",
				 near, moved);
		}
		model.n_nodes = 0;
		model.n_groups = 0;
	}
	/* pcap round trip */
	{
		char path[] = "/tmp/elec-inject-selftest-XXXXXX";
		int fd = mkstemp(path);
		FILE *fo;
		struct pcap_in in;
		struct frame g;
		bool ok = true;

		if (fd < 0)
			die_errno("mkstemp");
		fo = fdopen(fd, "wb");
		if (!fo)
			die_errno("fdopen");
		pcap_write_header(fo);
		rng_state = 7;
		for (i = 0; i < 10; i++) {
			build_cat(&f, (enum cat)(i % C_MUTATED));
			pcap_write(fo, f.b, f.len);
		}
		fclose(fo);
		pcap_open_in(&in, path);
		rng_state = 7;
		for (i = 0; i < 10; i++) {
			build_cat(&f, (enum cat)(i % C_MUTATED));
			if (!pcap_next(&in, &g, NULL) || g.len != f.len ||
			    memcmp(g.b, f.b, f.len))
				ok = false;
		}
		if (pcap_next(&in, &g, NULL))
			ok = false;
		fclose(in.f);
		unlink(path);
		st_check(ok, "pcap write and read back (10 frames)");
	}
	printf("selftest: %u passed, %u failed\n", st_pass, st_fail);
	return st_fail ? 1 : 0;
}
