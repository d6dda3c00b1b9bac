// SPDX-License-Identifier: GPL-2.0
/*
 * elec-inject: the sending commands: replay, flip, forge, fuzz, and their report.
 */
#include "elec-inject.h"

/* ------------------------------------------------------------------ */
/* reports                                                             */

static void json_counts(const uint64_t *v, bool skip_zero)
{
	bool first = true;
	int r;

	putchar('{');
	for (r = 1; r < N_REASONS; r++) {
		if (skip_zero && !v[r])
			continue;
		printf("%s\"%s\": %" PRIu64, first ? "" : ", ", reason_name(r),
		       v[r]);
		first = false;
	}
	putchar('}');
}

/* the report of a sending command; @seed: the seed it printed, or NULL */
static void report(const char *what, const uint64_t *cats, const uint64_t *seed)
{
	double dt = out.t_end - out.t0;
	FILE *tf = stdout;
	unsigned int i;
	int c, r;
	bool first;

	if (opt_json) {
		printf("{\"command\": \"%s\", \"dev\": \"%s\", \"sent\": %" PRIu64
		       ", \"bytes\": %" PRIu64 ", \"seconds\": %.3f, \"rate\": %.0f"
		       ", \"retries\": %" PRIu64 ", \"pace_waits\": %" PRIu64
		       ", \"backlog_max\": %u",
		       what, out.dev, out.sent, out.bytes, dt,
		       dt > 0 ? out.sent / dt : 0.0, out.retries,
		       out.pace_waits, out.backlog_max);
		if (seed)
			printf(", \"seed\": %" PRIu64, *seed);
		printf(", \"categories\": {");
		first = true;
		for (c = 0; c < N_CATS; c++) {
			if (!cats[c])
				continue;
			printf("%s\"%s\": %" PRIu64, first ? "" : ", ",
			       cat_names[c], cats[c]);
			first = false;
		}
		putchar('}');
		if (model.per_node) {
			printf(", \"expect\": {\"total\": ");
			json_counts(model.total, false);
			printf(", \"nodes\": {");
			for (i = 0; i < model.n_nodes; i++) {
				printf("%s\"%u\": ", i ? ", " : "",
				       model.nodes[i].id);
				json_counts(model.per_node[i], false);
			}
			printf("}, \"categories\": {");
			first = true;
			for (c = 0; c < N_CATS; c++) {
				if (!cats[c])
					continue;
				printf("%s\"%s\": ", first ? "" : ", ",
				       cat_names[c]);
				json_counts(model.per_cat[c], true);
				first = false;
			}
			printf("}}");
		}
		printf("}\n");
		fflush(stdout);
		/* the text on stderr, unless -q */
		if (opt_quiet)
			return;
		tf = stderr;
	}
	fprintf(tf, "%s: sent %" PRIu64 " frames (%" PRIu64 " bytes) on %s in %.2f s"
		" (%.0f frames/s), %" PRIu64 " retries, %" PRIu64
		" pace waits, backlog max %u\n", what, out.sent, out.bytes,
		out.dev, dt, dt > 0 ? out.sent / dt : 0.0, out.retries,
		out.pace_waits, out.backlog_max);
	fprintf(tf, "  categories:");
	for (c = 0; c < N_CATS; c++)
		if (cats[c])
			fprintf(tf, " %s %" PRIu64, cat_names[c], cats[c]);
	fputc('\n', tf);
	if (!model.per_node)
		return;
	fprintf(tf, "  predicted at the %u nodes, summed:", model.n_nodes);
	for (r = 1; r < N_REASONS; r++)
		if (model.total[r])
			fprintf(tf, " %s %" PRIu64, reason_name(r), model.total[r]);
	fputc('\n', tf);
}

/* ------------------------------------------------------------------ */
/* what every sending command does                                     */

/* DEV, then the defaults of a sending command */
static const char *send_dev(struct args *a, const char *missing)
{
	const char *dev = need_word(a, missing);

	gen.ethertype = ELECTION_ETHERTYPE;
	out.pace = true;
	return dev;
}

/* the output opened; src-mac own is DEV's MAC, known once it is open */
static void send_open(const char *dev, enum src_mode sm)
{
	out_open(dev);
	if (sm == SRC_OWN)
		memcpy(gen.src_mac, out.own_mac, 6);
}

/* a frame of category @c counted, predicted at every node, and queued */
static void send_frame(const struct frame *f, enum cat c, uint64_t *cats)
{
	cats[c]++;
	account(f->b, f->len, gen.ethertype, c);
	out_put(f->b, f->len);
}

/* the rest sent, then the report (@seed: NULL, or the seed to print) */
static void send_close(const char *what, const uint64_t *cats,
		       const uint64_t *seed)
{
	out_close();
	report(what, cats, seed);
}

/* --- replay, flip --- */

int cmd_replay_flip(struct args *a, bool flip)
{
	struct common c = { 0 };
	uint64_t count = 0, cats[N_CATS] = { 0 }, seed = 1, bits = 0;
	bool seen_count = false, seen_seed = false, seen_bits = false;
	enum cat ct = flip ? C_FLIPPED : C_REPLAYED;
	struct frame *frames, f;
	const char *dev, *path;
	enum src_mode sm;
	size_t n_frames;
	uint64_t i;

	dev = send_dev(a, "needs DEV FILE");
	path = need_word(a, "needs FILE after DEV");
	while (more(a)) {
		const char *kw = next_word(a);

		if (num_opt(a, kw, "count", &seen_count, &count, 1, UINT64_MAX) ||
		    (flip && num_opt(a, kw, "seed", &seen_seed, &seed, 0,
				     UINT64_MAX)) ||
		    (flip && num_opt(a, kw, "bits", &seen_bits, &bits, 1, 64)))
			continue;
		if (!common_opt(a, kw, &c))
			die("unknown or repeated keyword '%s'", kw);
	}
	sm = src_mode_of(c.src_mac, true);
	/* the frames keep their destination unless dst-mac is given */
	common_finish(&c);
	rng_state = seed;
	frames = pcap_load(path, gen.ethertype, &n_frames);
	if (!count)
		count = n_frames;	/* each frame once */
	send_open(dev, sm);
	for (i = 0; i < count; i++) {
		f = frames[i % n_frames];
		if (sm != SRC_KEEP)
			memcpy(f.b + 6, gen.src_mac, 6);
		if (c.dst_mac)
			memcpy(f.b, gen.dst_mac, 6);
		if (flip && f.len > ETH_HDR)
			flip_bits(&f, (unsigned int)bits);
		send_frame(&f, ct, cats);
	}
	free(frames);
	send_close(flip ? "flip" : "replay", cats, flip ? &seed : NULL);
	return 0;
}

/* --- forge --- */


/* a valid payload naming @id where the type names a coordinator */
static unsigned int forge_payload(uint8_t algo, uint8_t type, uint32_t id,
				  uint64_t term, uint8_t *p)
{
	if (type == ELEC_MSG_ALIVE) {
		put32(p, id);
		put64(p + 4, id ? (term ? term : 1) : 0);
		return 12;
	}
	switch (algo) {
	case ELEC_ALGO_RING:
	case ELEC_ALGO_RING_ALL:
	case ELEC_ALGO_RING_LIST:
		if (type == ELEC_MSG_HEARTBEAT)
			return 0;
		put32(p, 1);
		if (type == ELEC_MSG_ACK)
			return 4;
		if (algo == ELEC_ALGO_RING) {
			put32(p + 4, id);
			return 8;
		}
		if (algo == ELEC_ALGO_RING_ALL) {
			put32(p + 4, id);
			if (type == ELEC_MSG_ELECTION)
				return 8;
			put32(p + 8, id);
			return 12;
		}
		put16(p + 4, 1);
		put16(p + 6, 0);
		put32(p + 8, id);
		return 12;
	case ELEC_ALGO_MIN_BULLY:
		if (type == ELEC_MSG_COORDINATOR) {
			put32(p, id);
			return 4;
		}
		return 0;
	case ELEC_ALGO_ENH_BULLY:
		if (type == ELEC_MSG_ELECTION) {
			put32(p, 0);
			return 4;
		}
		if (type == ELEC_MSG_COORDINATOR || type == ELEC_MSG_CID) {
			put32(p, id);
			put16(p + 4, 1);
			put16(p + 6, 0);
			put32(p + 8, id);
			return 12;
		}
		return 0;
	case ELEC_ALGO_INVITATION:
		switch (type) {
		case ELEC_MSG_AYC_REPLY:
			put32(p, id);
			put32(p + 4, 1);
			return 8;
		case ELEC_MSG_INVITE:
			put32(p, id);
			put16(p + 4, 1);
			put16(p + 6, 0);
			put32(p + 8, id);
			return 12;
		case ELEC_MSG_READY:
			memset(p, 0, 8);
			put32(p + 4, 1);
			return 8;
		default:
			return 0;
		}
	default:
		return 0;
	}
}

int cmd_forge(struct args *a)
{
	struct common c = { 0 };
	struct hdr h = { 0 };
	uint8_t payload[MAX_BODY], key[16];
	uint64_t count = 1, term_step = 0, counter = 0, cats[N_CATS] = { 0 };
	bool have_counter = false;
	unsigned int plen = 0, cut = 0;
	int plen_set = -1;
	const char *dev, *payload_s = "auto", *key_file = NULL, *mac_s = NULL;
	bool have_group = false, have_id = false, have_term = false;
	bool seen[16] = { 0 };
	enum src_mode sm;
	struct frame f;
	uint64_t i;

	dev = send_dev(a, "needs DEV");
	h.version = ELECTION_WIRE_VERSION;
	h.type = ELEC_MSG_COORDINATOR;
	h.algo = ELEC_ALGO_BULLY;
	if (more(a) && is_type_word(a->argv[a->i])) {
		h.type = parse_type(next_word(a));
		seen[0] = true;
	}
#define ONCE(k) do { if (seen[k]) die("'%s' given twice", kw); seen[k] = true; } while (0)
	while (more(a)) {
		const char *kw = next_word(a);

		if (!strcmp(kw, "type")) {
			ONCE(0);
			h.type = parse_type(value_of(a, kw));
		} else if (!strcmp(kw, "group")) {
			ONCE(1);
			have_group = true;
			h.group = (uint16_t)parse_num(value_of(a, kw), kw, 0, 0xffff);
		} else if (!strcmp(kw, "id")) {
			ONCE(2);
			have_id = true;
			h.src = (uint32_t)parse_num(value_of(a, kw), kw, 0, UINT32_MAX);
		} else if (!strcmp(kw, "term")) {
			ONCE(3);
			have_term = true;
			h.term = parse_num(value_of(a, kw), kw, 0, UINT64_MAX);
		} else if (!strcmp(kw, "algo")) {
			ONCE(4);
			h.algo = parse_algo(value_of(a, kw));
		} else if (!strcmp(kw, "dst")) {
			ONCE(5);
			h.dst = (uint32_t)parse_num(value_of(a, kw), kw, 0, UINT32_MAX);
		} else if (!strcmp(kw, "count")) {
			ONCE(6);
			count = parse_num(value_of(a, kw), kw, 1, UINT64_MAX);
		} else if (!strcmp(kw, "term-step")) {
			ONCE(7);
			term_step = parse_num(value_of(a, kw), kw, 0, UINT64_MAX);
		} else if (!strcmp(kw, "flags")) {
			ONCE(8);
			h.flags |= (uint8_t)parse_num(value_of(a, kw), kw, 0, 255);
		} else if (!strcmp(kw, "leaving")) {
			ONCE(9);
			h.flags |= FLAG_LEAVING;
		} else if (!strcmp(kw, "payload")) {
			ONCE(10);
			payload_s = value_of(a, kw);
		} else if (!strcmp(kw, "plen")) {
			ONCE(11);
			plen_set = (int)parse_num(value_of(a, kw), kw, 0, 0xffff);
		} else if (!strcmp(kw, "key-file")) {
			ONCE(12);
			key_file = value_of(a, kw);
		} else if (!strcmp(kw, "mac")) {
			ONCE(13);
			mac_s = value_of(a, kw);
			if (strcmp(mac_s, "good") && strcmp(mac_s, "random") &&
			    strcmp(mac_s, "zero") && strcmp(mac_s, "none"))
				die("mac: good, random, zero or none, not '%s'", mac_s);
		} else if (!strcmp(kw, "counter")) {
			const char *v = value_of(a, kw);

			ONCE(14);
			/* "now" (the default): the wall clock, as a node's */
			have_counter = strcmp(v, "now");
			if (have_counter)
				counter = parse_num(v, kw, 0, UINT64_MAX);
		} else if (!strcmp(kw, "trailer-cut")) {
			ONCE(15);
			cut = (unsigned int)parse_num(value_of(a, kw), kw, 0, TRAILER);
		} else if (!common_opt(a, kw, &c)) {
			die("unknown keyword '%s'", kw);
		}
	}
#undef ONCE
	if (!have_group || !have_id || !have_term)
		die("needs group G, id ID and term T");
	if (!mac_s)
		mac_s = key_file ? "good" : "none";
	if (!strcmp(mac_s, "good") && !key_file)
		die("mac good needs a key-file");
	if (key_file && !strcmp(mac_s, "none"))
		die("key-file with 'mac none' makes no trailer: drop one of them");
	if (cut && !strcmp(mac_s, "none"))
		die("trailer-cut needs a trailer (key-file or mac random|zero)");
	if (key_file)
		read_key(key_file, key);
	if (!strcmp(payload_s, "auto")) {
		plen = forge_payload(h.algo, h.type, h.src, h.term, payload);
	} else if (!strcmp(payload_s, "none")) {
		plen = 0;
	} else {
		size_t n = strlen(payload_s), j;

		if (n % 2 || n / 2 > MAX_BODY - HDR)
			die("payload: an even number of hex digits, at most %d bytes",
			    MAX_BODY - HDR);
		for (j = 0; j < n; j += 2) {
			char hx[3] = { payload_s[j], payload_s[j + 1], 0 };

			if (!strchr("0123456789abcdefABCDEF", hx[0]) ||
			    !strchr("0123456789abcdefABCDEF", hx[1]))
				die("payload: '%s' is not hex", payload_s);
			payload[j / 2] = (uint8_t)strtoul(hx, NULL, 16);
		}
		plen = (unsigned int)(n / 2);
	}
	sm = src_mode_of(c.src_mac, false);
	common_finish(&c);
	send_open(dev, sm);
	if (strcmp(mac_s, "none"))
		h.flags |= FLAG_AUTH;
	h.plen = (uint16_t)(plen_set >= 0 ? (unsigned int)plen_set : plen);
	if (HDR + plen + TRAILER > MAX_BODY)
		die("the frame would exceed %d bytes", MAX_BODY);
	/*
	 * "now": from the next tick of the clock, so that the first forged
	 * counter is above every counter a node sent before it: a forgery
	 * from a configured peer reaches the MAC check whatever that peer's
	 * frame numbers are (Documentation/protocol.rst)
	 */
	if (!have_counter)
		counter = (wall_ns() & ~ELECTION_AUTH_SEQ_MASK) +
			  ELECTION_AUTH_SEQ_MASK + 1;
	for (i = 0; i < count; i++) {
		uint8_t *b = body_of(&f);
		size_t blen = HDR + plen;
		uint64_t ctr = counter + i;

		/*
		 * "now": each frame's counter as a node makes it: the wall
		 * clock when it is made and the next frame number
		 * (Documentation/protocol.rst), above the last one
		 */
		if (!have_counter) {
			ctr = next_counter(counter);
			counter = ctr;
		}
		eth_header(&f);
		hdr_write(b, &h);
		memcpy(b + HDR, payload, plen);
		if (h.flags & FLAG_AUTH) {
			put64(b + blen, ctr);
			if (!strcmp(mac_s, "good"))
				siphash24_bytes(key, b, blen + 8, b + blen + 8);
			else if (!strcmp(mac_s, "zero"))
				memset(b + blen + 8, 0, 8);
			else
				rnd_bytes(b + blen + 8, 8);
			blen += TRAILER - cut;
		}
		f.len = ETH_HDR + blen;
		/* a cut trailer stays cut: padding would be read as the trailer */
		if (!cut)
			pad(&f);
		send_frame(&f, C_FORGED, cats);
		h.term += term_step;
	}
	send_close("forge", cats, NULL);
	return 0;
}

/* --- fuzz --- */

int cmd_fuzz(struct args *a)
{
	struct common c = { 0 };
	uint64_t count = 0, seed = 1, cats[N_CATS] = { 0 }, i;
	enum cat pool[N_CATS];
	unsigned int n_pool = 0;
	bool seen_count = false, seen_seed = false, seen_algo = false;
	bool seen_mode = false;
	const char *dev, *mode = "mixed";
	enum src_mode sm;
	struct frame f;
	double last;
	int k;

	dev = send_dev(a, "needs DEV");
	while (more(a)) {
		const char *kw = next_word(a);

		if (num_opt(a, kw, "count", &seen_count, &count, 1, UINT64_MAX) ||
		    num_opt(a, kw, "seed", &seen_seed, &seed, 0, UINT64_MAX))
			continue;
		if (!strcmp(kw, "algo") && !seen_algo) {
			seen_algo = true;
			parse_algos(value_of(a, kw));
		} else if (!strcmp(kw, "mode") && !seen_mode) {
			seen_mode = true;
			mode = value_of(a, kw);
			if (strcmp(mode, "mixed") && strcmp(mode, "random") &&
			    strcmp(mode, "mutate"))
				die("mode: mixed, random or mutate, not '%s'", mode);
		} else if (!strcmp(kw, "group")) {
			add_target_group((uint16_t)parse_num(value_of(a, kw), kw,
							     1, 0xffff));
		} else if (!common_opt(a, kw, &c)) {
			die("unknown or repeated keyword '%s'", kw);
		}
	}
	if (!seen_count)
		die("needs 'count N'");
	if (!seen_algo)
		parse_algos("all");
	if (!gen.n_groups)
		gen.groups[gen.n_groups++] = 1;
	sm = src_mode_of(c.src_mac, false);
	common_finish(&c);
	if (!strcmp(mode, "random")) {
		pool[n_pool++] = C_RANDOM;
	} else if (!strcmp(mode, "mutate")) {
		pool[n_pool++] = C_MUTATED;
	} else {
		bool stopped = false, keyed = false;
		unsigned int j;

		for (j = 0; j < model.n_groups; j++) {
			stopped |= model.groups[j].stopped;
			keyed |= model.groups[j].keyed;
		}
		for (k = 0; k <= C_RANDOM; k++)
			if ((k != C_STOPPED || stopped) &&
			    (k != C_AUTH_SIGNED || keyed))
				pool[n_pool++] = (enum cat)k;
	}
	send_open(dev, sm);
	rng_state = seed;
	last = out.t0;
	for (i = 0; i < count; i++) {
		enum cat ct = pool[rnd(n_pool)];

		build_cat(&f, ct);
		send_frame(&f, ct, cats);
		if (!opt_quiet && (i & 0xffff) == 0xffff) {
			double t = now_s();

			if (t - last >= 10) {
				last = t;
				info("fuzz: %" PRIu64 " of %" PRIu64 " frames, %.0f s\n",
				     i + 1, count, t - out.t0);
			}
		}
	}
	send_close("fuzz", cats, &seed);
	return 0;
}
