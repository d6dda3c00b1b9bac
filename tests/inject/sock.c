// SPDX-License-Identifier: GPL-2.0
/*
 * elec-inject: AF_PACKET sockets (capture's, and the sending commands'),
 * and the sending commands' output: a socket or pcap:FILE, in batches,
 * paced, at a rate.
 */
#include "elec-inject.h"

/*
 * A packet socket bound to @dev for @proto (network order; 0: a socket
 * that receives nothing, ETH_P_ALL: every frame), its index in *@ifindex.
 */
int packet_socket(const char *dev, uint16_t proto, int *ifindex)
{
	struct sockaddr_ll sll;
	int fd;

	*ifindex = (int)if_nametoindex(dev);
	if (!*ifindex)
		die("no device '%s'", dev);
	fd = socket(AF_PACKET, SOCK_RAW, proto);
	if (fd < 0)
		die_errno("socket(AF_PACKET) (root or CAP_NET_RAW needed)");
	memset(&sll, 0, sizeof(sll));
	sll.sll_family = AF_PACKET;
	sll.sll_protocol = proto;
	sll.sll_ifindex = *ifindex;
	if (bind(fd, (struct sockaddr *)&sll, sizeof(sll)) < 0)
		die_errno("bind to %s", dev);
	return fd;
}

/* ------------------------------------------------------------------ */
/* sending                                                             */

struct out out;

static void own_mac_of(int fd, const char *dev, uint8_t mac[6])
{
	struct ifreq ifr;

	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", dev);
	if (ioctl(fd, SIOCGIFHWADDR, &ifr) < 0)
		die_errno("%s: SIOCGIFHWADDR", dev);
	memcpy(mac, ifr.ifr_hwaddr.sa_data, 6);
}

/* "pcap:FILE" writes the frames to a file instead of sending them */
static bool is_pcap_dev(const char *dev)
{
	return !strncmp(dev, "pcap:", 5);
}

void out_open(const char *dev)
{
	out.dev = dev;
	out.fd = -1;
	out.backlog_fd = -1;
	if (is_pcap_dev(dev)) {
		if (!dev[5])
			die("pcap: needs a file name (pcap:FILE)");
		out.pcap = pcap_create(dev + 5);
		/* a locally administered address for "own" */
		memcpy(out.own_mac, "\x02\x00\x00\x00\x00\x01", 6);
	} else {
		if (strlen(dev) >= IFNAMSIZ)
			die("device name '%s' too long", dev);
		/* protocol 0: this socket receives nothing */
		out.fd = packet_socket(dev, 0, &out.ifindex);
		own_mac_of(out.fd, dev, out.own_mac);
		if (out.pace) {
			out.backlog_fd = open("/proc/net/softnet_stat", O_RDONLY);
			if (out.backlog_fd < 0)
				info("%s: /proc/net/softnet_stat: %s: not pacing\n",
				     cmd_name, strerror(errno));
		}
	}
	out.bufs = calloc(BATCH_MAX, FRAME_MAX);
	if (!out.bufs)
		die("out of memory");
	if (!out.batch)
		out.batch = 32;
	out.t0 = now_s();
}

/*
 * Frames queued in the kernel's per-CPU backlogs (the 12th column of
 * /proc/net/softnet_stat, summed over CPUs), or 0 when unknown.
 */
static uint32_t backlog_len(void)
{
	char buf[8192];
	unsigned int col[13];
	uint32_t sum = 0;
	ssize_t n;
	char *line, *save = NULL;

	if (out.backlog_fd < 0)
		return 0;
	n = pread(out.backlog_fd, buf, sizeof(buf) - 1, 0);
	if (n <= 0)
		return 0;
	buf[n] = 0;
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (sscanf(line, "%x %x %x %x %x %x %x %x %x %x %x %x %x",
			   &col[0], &col[1], &col[2], &col[3], &col[4], &col[5],
			   &col[6], &col[7], &col[8], &col[9], &col[10],
			   &col[11], &col[12]) >= 12)
			sum += col[11];
	}
	return sum;
}

/*
 * Pacing: a frame the bridge floods to every port is queued once per port
 * in the sending CPU's backlog; when softirq processing falls behind
 * (ksoftirqd), a burst overflows the backlog (netdev_max_backlog) and
 * frames are dropped before they reach the module, uncounted. So after
 * each batch wait until the backlog has drained.
 */
static void pace_wait(void)
{
	double t0 = now_s();
	uint32_t q;

	for (;;) {
		q = backlog_len();
		if (q > out.backlog_max)
			out.backlog_max = q;
		if (q <= 16)
			return;
		out.pace_waits++;
		if (now_s() - t0 > 10) {
			info("%s: backlog still %u frames after 10 s; going on\n",
			     cmd_name, q);
			return;
		}
		sleep_us(50);
	}
}

static void out_flush(void)
{
	unsigned int done = 0, i;
	int n;

	if (!out.queued)
		return;
	if (out.pcap) {
		for (i = 0; i < out.queued; i++) {
			pcap_write(out.pcap, out.bufs[i], out.iov[i].iov_len);
			out.bytes += out.iov[i].iov_len;
		}
		out.sent += out.queued;
		out.queued = 0;
		return;
	}
	while (done < out.queued) {
		n = sendmmsg(out.fd, out.msgs + done, out.queued - done, 0);
		if (n < 0) {
			if (errno == ENOBUFS || errno == EAGAIN ||
			    errno == EINTR) {
				/* the first hop's queue is full: try again */
				out.retries++;
				sleep_us(200);
				continue;
			}
			die_errno("sending on %s (frame of %zu bytes)", out.dev,
				  out.iov[done].iov_len);
		}
		for (i = done; i < done + (unsigned int)n; i++)
			out.bytes += out.iov[i].iov_len;
		done += (unsigned int)n;
	}
	out.sent += out.queued;
	out.queued = 0;
	if (out.pace)
		pace_wait();
	if (out.rate > 0) {
		double due = out.t0 + out.sent / out.rate, t = now_s();

		if (due > t)
			sleep_us((unsigned int)((due - t) * 1e6));
	}
}

void out_put(const uint8_t *b, size_t len)
{
	unsigned int i = out.queued;

	memcpy(out.bufs[i], b, len);
	out.iov[i].iov_base = out.bufs[i];
	out.iov[i].iov_len = len;
	memset(&out.msgs[i], 0, sizeof(out.msgs[i]));
	out.msgs[i].msg_hdr.msg_iov = &out.iov[i];
	out.msgs[i].msg_hdr.msg_iovlen = 1;
	out.queued++;
	if (out.queued >= out.batch)
		out_flush();
}

void out_close(void)
{
	out_flush();
	out.t_end = now_s();
	if (out.pcap && fclose(out.pcap))
		die_errno("%s", out.dev + 5);
	if (out.fd >= 0)
		close(out.fd);
	if (out.backlog_fd >= 0)
		close(out.backlog_fd);
	free(out.bufs);
}
