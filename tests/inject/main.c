// SPDX-License-Identifier: GPL-2.0
/*
 * elec-inject: a raw-socket frame injector for election.ko's tests.
 *
 * It captures frames of the module's EtherType into a pcap file, replays
 * them, forges frames of any type (with a valid, random or no SipHash-2-4
 * authentication trailer), flips bits of captured frames, and sends
 * random and mutated frames by the million. Every sending command can
 * predict, from a description of the receiving nodes (their ids, MACs
 * and groups), the drop reason each node counts for each frame, following
 * Documentation/protocol.rst ("Wire format", "Receive checks") and not
 * the module's code: a test compares the prediction with the nodes'
 * counters, and a difference is a bug in one or the other.
 *
 * Plain C, no library beyond libc. Run "elec-inject help" for the usage;
 * tests/inject/README describes the commands, the categories and the
 * output. This file: the command line (options, the command table),
 * errors and progress; elec-inject.h lists the others.
 */
#include "elec-inject.h"

/* ------------------------------------------------------------------ */
/* errors and output                                                   */

const char *prog = "elec-inject";
const char *cmd_name = "";
bool opt_json;
bool opt_quiet;

void die(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: %s%s", prog, cmd_name, *cmd_name ? ": " : "");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

void die_errno(const char *fmt, ...)
{
	int e = errno;
	va_list ap;

	fprintf(stderr, "%s: %s%s", prog, cmd_name, *cmd_name ? ": " : "");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, ": %s\n", strerror(e));
	exit(1);
}

void info(const char *fmt, ...)
{
	va_list ap;

	if (opt_quiet)
		return;
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fflush(stderr);
}

double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

void sleep_us(unsigned int us)
{
	struct timespec ts = { us / 1000000, (long)(us % 1000000) * 1000 };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/* ------------------------------------------------------------------ */
/* commands                                                            */

static void usage(FILE *f)
{
	fprintf(f,
"usage: elec-inject [-j] [-q] COMMAND ...\n"
"  selftest\n"
"  capture DEV FILE [count N] [timeout S] [dir in|out|both] [ethertype E]\n"
"  list FILE [nodes ID[@MAC],...] [groups G:ALGO[:stopped],...] [ethertype E]\n"
"  replay DEV FILE [count N] [src-mac keep|own|MAC] [dst-mac MAC] [SEND]\n"
"  forge DEV [TYPE] group G id ID term T [type TYPE] [algo A] [dst D]\n"
"        [count N] [term-step K] [flags F] [leaving] [payload auto|none|HEX]\n"
"        [plen N] [key-file F] [mac good|random|zero|none] [counter C|now]\n"
"        [trailer-cut N] [src-mac own|MAC] [dst-mac MAC] [SEND]\n"
"  flip DEV FILE [count N] [seed S] [bits K] [src-mac keep|own|MAC] [SEND]\n"
"  fuzz DEV count N [seed S] [algo A|all] [mode mixed|random|mutate]\n"
"        [group G]... [src-mac own|MAC] [dst-mac MAC] [SEND]\n"
"SEND: [nodes ID[@MAC],...] [groups G:ALGO[:stopped],...] [absent-group G]\n"
"      [batch B] [pace on|off] [rate R] [ethertype E]\n"
"DEV is a network device, or pcap:FILE to write the frames to a file.\n"
"-j prints a JSON report, -q no progress. tests/inject/README has the rest.\n");
}

int main(int argc, char **argv)
{
	struct args a = { argc, argv, 1 };
	const char *cmd;

	while (more(&a) && argv[a.i][0] == '-') {
		const char *o = next_word(&a);

		if (!strcmp(o, "-j") || !strcmp(o, "--json")) {
			opt_json = true;
		} else if (!strcmp(o, "-q") || !strcmp(o, "--quiet")) {
			opt_quiet = true;
		} else if (!strcmp(o, "-h") || !strcmp(o, "--help")) {
			usage(stdout);
			return 0;
		} else {
			fprintf(stderr, "%s: unknown option '%s'\n", prog, o);
			usage(stderr);
			return 1;
		}
	}
	if (!more(&a)) {
		usage(stderr);
		return 1;
	}
	cmd = next_word(&a);
	cmd_name = cmd;
	if (!strcmp(cmd, "help")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(cmd, "selftest"))
		return cmd_selftest(&a);
	if (!strcmp(cmd, "capture"))
		return cmd_capture(&a);
	if (!strcmp(cmd, "list"))
		return cmd_list(&a);
	if (!strcmp(cmd, "replay"))
		return cmd_replay_flip(&a, false);
	if (!strcmp(cmd, "flip"))
		return cmd_replay_flip(&a, true);
	if (!strcmp(cmd, "forge"))
		return cmd_forge(&a);
	if (!strcmp(cmd, "fuzz"))
		return cmd_fuzz(&a);
	cmd_name = "";
	die("unknown command '%s' (elec-inject help)", cmd);
}
