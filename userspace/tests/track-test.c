// SPDX-License-Identifier: GPL-2.0
/*
 * track-test.c - electionctl track's decision (ctl/track.c, included so
 * its static functions can be called) and its loop against a kernel
 * modelled here; no module needed. test_cli.py checks the output.
 *
 * Usage:
 *   track-test steps FALL RISE INIT OBS
 *	elec_track_step() from standby INIT (0 or 1) for each character of
 *	OBS (o: a success, f: a failure, d: an interface down); a line per
 *	step: "OBS STANDBY FAILS OKS CHANGED"
 *   track-test loop [-j] INTERVAL_MS FALL RISE TICKS KERNEL MISSING
 *		[if NAME]... [exec CMD [ARG...]]
 *	track_loop() with a kernel whose standby-tracked starts at KERNEL
 *	(0 or 1) and whose group is missing for the first MISSING reads;
 *	the kernel's sets print "kernel: set on|off"; SIGTERM comes with
 *	read TICKS + 1 (the first is at the start). Then "loop RET", and
 *	"children none" when no child is left (running or a zombie),
 *	"fds same" when no descriptor is left open.
 */
#include <dirent.h>

#include "../ctl/track.c"

static bool kernel_on;
static unsigned int kernel_reads, kernel_missing, kernel_ticks;

static int fake_get(struct elec_ctx *ctx, struct elec_track *t, bool *on)
{
	(void)ctx;
	(void)t;
	if (++kernel_reads == kernel_ticks + 1)
		raise(SIGTERM);
	if (kernel_reads <= kernel_missing)
		return elec_fail("no such group");
	*on = kernel_on;
	return 0;
}

static int fake_set(struct elec_ctx *ctx, struct elec_track *t, bool on)
{
	(void)ctx;
	(void)t;
	kernel_on = on;
	printf("kernel: set %s\n", on ? "on" : "off");
	return 0;
}

static unsigned int count_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	unsigned int n = 0;

	if (!d)
		return 0;
	while (readdir(d))
		n++;
	closedir(d);
	return n;
}

static int steps(char **argv)
{
	struct elec_track_dec d = { .standby = argv[2][0] == '1' };
	unsigned int fall = (unsigned int)atoi(argv[0]);
	unsigned int rise = (unsigned int)atoi(argv[1]);
	const char *o;
	bool changed;

	for (o = argv[3]; *o; o++) {
		changed = elec_track_step(&d, *o == 'o' ? ELEC_TRACK_OK :
					  *o == 'f' ? ELEC_TRACK_FAIL :
					  ELEC_TRACK_LINK_DOWN, fall, rise);
		printf("%c %d %u %u %d\n", *o, d.standby, d.fails, d.oks,
		       changed);
	}
	return 0;
}

static int loop(int argc, char **argv)
{
	struct elec_ctx ctx = { 0 };
	struct elec_track t = { .pidfd = -1, .get = fake_get,
				.set = fake_set };
	unsigned int before;
	int i = 0, ret;

	if (argc > 0 && !strcmp(argv[0], "-j")) {
		ctx.json = true;
		i++;
	}
	if (argc - i < 6)
		return 2;
	strcpy(t.inst.dev, "eth0");
	t.inst.group = 7;
	t.interval_ns = (uint64_t)atoi(argv[i]) * 1000000;
	t.fall = (unsigned int)atoi(argv[i + 1]);
	t.rise = (unsigned int)atoi(argv[i + 2]);
	kernel_ticks = (unsigned int)atoi(argv[i + 3]);
	kernel_on = argv[i + 4][0] == '1';
	kernel_missing = (unsigned int)atoi(argv[i + 5]);
	for (i += 6; i + 1 < argc && !strcmp(argv[i], "if"); i += 2)
		t.ifs[t.n_ifs++] = argv[i + 1];
	if (i + 1 < argc && !strcmp(argv[i], "exec"))
		t.exec_argv = argv + i + 1;
	before = count_fds();
	t.rtnl = track_rtnl_open();
	if (elec_sig_catch())
		return 2;
	ret = track_loop(&ctx, &t);
	printf("loop %d\n", ret);
	if (waitpid(-1, NULL, WNOHANG) < 0 && errno == ECHILD)
		puts("children none");
	/* the signal pipe stays, as in electionctl */
	if (count_fds() == before + 2)
		puts("fds same");
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 6 && !strcmp(argv[1], "steps"))
		return steps(argv + 2);
	if (argc >= 2 && !strcmp(argv[1], "loop"))
		return loop(argc - 2, argv + 2);
	return 2;
}
