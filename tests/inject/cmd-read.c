// SPDX-License-Identifier: GPL-2.0
/*
 * elec-inject: the commands that read frames: capture, list.
 */
#include "elec-inject.h"

/* --- capture --- */

static volatile sig_atomic_t capture_stop;

static void on_stop_signal(int sig)
{
	(void)sig;
	capture_stop = 1;
}

int cmd_capture(struct args *a)
{
	const char *dev, *path;
	uint64_t count = 0, n = 0, seen = 0;
	double timeout = 0, t0;
	int dir = 0;	/* 0 both, 1 in, 2 out */
	bool seen_count = false, seen_timeout = false, seen_dir = false;
	bool seen_et = false;
	struct sockaddr_ll sll;
	socklen_t sl;
	uint8_t buf[65536];
	struct pollfd pfd;
	FILE *f;
	int fd, ifindex;
	ssize_t len;

	dev = need_word(a, "needs DEV FILE");
	path = need_word(a, "needs FILE after DEV");
	gen.ethertype = ELECTION_ETHERTYPE;
	while (more(a)) {
		const char *kw = next_word(a);

		if (num_opt(a, kw, "count", &seen_count, &count, 1, UINT64_MAX))
			continue;
		if (!strcmp(kw, "timeout") && !seen_timeout) {
			seen_timeout = true;
			timeout = parse_seconds(value_of(a, kw), kw);
		} else if (!strcmp(kw, "dir") && !seen_dir) {
			const char *v = value_of(a, kw);

			seen_dir = true;
			if (!strcmp(v, "both"))
				dir = 0;
			else if (!strcmp(v, "in"))
				dir = 1;
			else if (!strcmp(v, "out"))
				dir = 2;
			else
				die("dir: in, out or both, not '%s'", v);
		} else if (!strcmp(kw, "ethertype") && !seen_et) {
			seen_et = true;
			gen.ethertype = (uint16_t)parse_num(value_of(a, kw), kw,
							    0x600, 0xffff);
		} else {
			die("unknown or repeated keyword '%s'", kw);
		}
	}
	if (!count && !timeout)
		die("needs 'count N' or 'timeout S' (or both; SIGINT or SIGTERM also end it)");
	fd = packet_socket(dev, htons(ETH_P_ALL), &ifindex);
	f = pcap_create(path);
	fflush(f);
	/* SIGINT, SIGTERM end the capture (no SA_RESTART: poll returns) */
	{
		struct sigaction sa;

		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = on_stop_signal;
		sigaction(SIGINT, &sa, NULL);
		sigaction(SIGTERM, &sa, NULL);
	}
	info("capture: listening on %s\n", dev);
	t0 = now_s();
	pfd.fd = fd;
	pfd.events = POLLIN;
	while ((!count || n < count) && !capture_stop) {
		int wait_ms = -1, pr;

		if (timeout) {
			double left = t0 + timeout - now_s();

			if (left <= 0)
				break;
			wait_ms = (int)(left * 1000) + 1;
		}
		pr = poll(&pfd, 1, wait_ms);
		if (pr < 0) {
			if (errno == EINTR)
				continue;
			die_errno("poll");
		}
		if (!pr)
			continue;
		sl = sizeof(sll);
		len = recvfrom(fd, buf, sizeof(buf), 0, (struct sockaddr *)&sll,
			       &sl);
		if (len < 0) {
			if (errno == EINTR)
				continue;
			die_errno("recvfrom");
		}
		seen++;
		if (len < ETH_HDR || get16(buf + 12) != gen.ethertype)
			continue;
		if (dir == 1 && sll.sll_pkttype == PACKET_OUTGOING)
			continue;
		if (dir == 2 && sll.sll_pkttype != PACKET_OUTGOING)
			continue;
		if (len > FRAME_MAX)
			len = FRAME_MAX;
		pcap_write(f, buf, (size_t)len);
		fflush(f);
		n++;
	}
	if (fclose(f))
		die_errno("%s", path);
	close(fd);
	if (opt_json)
		printf("{\"command\": \"capture\", \"dev\": \"%s\", \"file\": \"%s\", \"frames\": %" PRIu64
		       ", \"seen\": %" PRIu64 ", \"seconds\": %.3f}\n", dev, path, n,
		       seen, now_s() - t0);
	else
		printf("capture: %" PRIu64 " frames of ethertype 0x%04x on %s into %s (%" PRIu64
		       " frames seen) in %.2f s\n", n, gen.ethertype, dev, path,
		       seen, now_s() - t0);
	return 0;
}

/* --- list --- */

static void mac_str(const uint8_t *m, char *s)
{
	sprintf(s, "%02x:%02x:%02x:%02x:%02x:%02x", m[0], m[1], m[2], m[3],
		m[4], m[5]);
}

int cmd_list(struct args *a)
{
	struct common c = { 0 };
	struct pcap_in in;
	struct frame f;
	const char *path;
	char d[18], s[18];
	unsigned long i = 0;
	enum verdict v;
	struct hdr h;
	double ts;

	path = need_word(a, "needs FILE");
	gen.ethertype = ELECTION_ETHERTYPE;
	while (more(a)) {
		const char *kw = next_word(a);

		if (!common_opt(a, kw, &c) || c.src_mac || c.dst_mac ||
			 c.seen_batch || c.seen_pace || c.seen_rate ||
			 c.seen_absent)
			die("unknown keyword '%s'", kw);
	}
	common_finish(&c);
	pcap_open_in(&in, path);
	if (opt_json)
		printf("[");
	while (pcap_next(&in, &f, &ts)) {
		bool ok, ours = f.len >= ETH_HDR &&
				get16(f.b + 12) == gen.ethertype;
		size_t blen = f.len >= ETH_HDR ? f.len - ETH_HDR : 0;
		unsigned int k;

		memset(&h, 0, sizeof(h));
		v = ours ? body_verdict(f.b + ETH_HDR, blen, &h) : V_MALFORMED;
		ok = ours && v == V_OK;
		if (ours && !ok && blen >= HDR)
			hdr_read(f.b + ETH_HDR, &h);
		if (f.len >= ETH_HDR) {
			mac_str(f.b, d);
			mac_str(f.b + 6, s);
		} else {
			strcpy(d, "-");
			strcpy(s, "-");
		}
		if (opt_json) {
			printf("%s\n{\"index\": %lu, \"ts\": %.6f, \"len\": %zu, \"dst_mac\": \"%s\", \"src_mac\": \"%s\", \"ours\": %s, \"decodes\": %s, \"verdict\": \"%s\"",
			       i ? "," : "", i, ts, f.len, d, s,
			       ours ? "true" : "false", ok ? "true" : "false",
			       ours ? verdict_names[v] : "other");
			if (ours && blen >= HDR)
				printf(", \"version\": %u, \"type\": %u, \"algo\": %u, \"flags\": %u, \"group\": %u, \"payload_len\": %u, \"src\": %u, \"dst\": %u, \"term\": %" PRIu64,
				       h.version, h.type, h.algo, h.flags, h.group,
				       h.plen, h.src, h.dst, h.term);
			if (model.per_node) {
				printf(", \"expect\": {");
				for (k = 0; k < model.n_nodes; k++)
					printf("%s\"%u\": \"%s\"", k ? ", " : "",
					       model.nodes[k].id,
					       reason_name(predict(f.b, f.len, gen.ethertype,
								   &model.nodes[k])));
				putchar('}');
			}
			putchar('}');
		} else {
			printf("%5lu %s > %s len %4zu", i, s, d, f.len);
			if (!ours)
				printf(" ethertype 0x%04x\n", f.len >= ETH_HDR ?
				       get16(f.b + 12) : 0);
			else if (blen < HDR)
				printf(" runt (%zu bytes)\n", blen);
			else
				printf(" v%u %s %s flags 0x%02x group %u plen %u %u > %u term %" PRIu64 "%s\n",
				       h.version,
				       h.type < N_TYPES && type_names[h.type] ?
				       type_names[h.type] : "?",
				       h.algo >= 1 && h.algo <= N_ALGOS ?
				       algo_names[h.algo] : "?",
				       h.flags, h.group, h.plen, h.src, h.dst,
				       h.term, ok ? "" : v == V_AUTH_SHORT ?
				       " AUTH-TRUNCATED" : " MALFORMED");
		}
		i++;
	}
	if (opt_json)
		printf("\n]\n");
	fclose(in.f);
	return 0;
}
