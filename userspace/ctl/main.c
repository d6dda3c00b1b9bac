// SPDX-License-Identifier: GPL-2.0
/*
 * main.c - electionctl: configure and watch the election.ko module.
 *
 * Global options come before the command; commands and keywords follow the
 * iproute2 style (see usage()). Hidden options for tests:
 *   --dry-run (or ELECTIONCTL_DRY_RUN=1 in the environment): parse, then
 *	print the request as JSON instead of sending it;
 *   --unchecked: skip range and required-keyword checks (syntax is still
 *	enforced), so tests can make the kernel refuse requests.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "electionctl.h"
#include "nl.h"

void elec_usage_group(FILE *f)
{
	fputs("electionctl group add dev IF group G id ID algo ALGO [ pos P ]\n"
	      "                      [ suppress { on | off } ] [TIMING] [BULLY]\n"
	      "                      [ search-interval { DUR | 0 } ]\n"
	      "electionctl group set dev IF group G [TIMING] [BULLY]\n"
	      "                      [ search-interval { DUR | 0 } ]\n"
	      "electionctl group del dev IF group G\n"
	      "electionctl group { start | stop | elect } dev IF group G\n",
	      f);
}

void elec_usage_peer(FILE *f)
{
	fputs("electionctl peer add dev IF group G id ID lladdr MAC [ pos P ]\n"
	      "electionctl peer del dev IF group G id ID\n", f);
}

static void usage(FILE *f)
{
	fputs("Usage: electionctl [ OPTIONS ] COMMAND\n"
	      "\n", f);
	elec_usage_group(f);
	elec_usage_peer(f);
	fputs("electionctl [-j] show [ dev IF ] [ group G ]\n"
	      "electionctl [-j] stats [ dev IF ] [ group G ]\n"
	      "electionctl [-j] monitor\n"
	      "electionctl [-j] module\n"
	      "electionctl help\n"
	      "\n"
	      "OPTIONS := { -j[son] | -h[elp] | -V[ersion] }\n"
	      "TIMING  := [ hb-interval DUR ] [ hb-miss N ] [ timeout DUR ]\n"
	      "           [ coord-timeout DUR ]\n"
	      "BULLY   := [ ask-suspect { on | off } ] [ preempt { on | off } ]\n"
	      "           [ preempt-delay { DUR | 0 } ] [ quorum { on | off } ]\n"
	      "           (the Bully algorithms: bully, min-bully, enh-bully)\n"
	      "ALGO    := { bully | ring | ring-all | ring-list | min-bully | enh-bully |\n"
	      "            invitation }\n"
	      "P       := 1..4294967295: ring position (default: the id); the\n"
	      "           ring order is ascending (P, id), wrapping around\n"
	      "DUR     := an integer followed by us, ms or s, from 100us to 60s\n"
	      "ID      := 1..4294967295    G := 1..65535    N := 1..1000\n"
	      "MAC     := aa:bb:cc:dd:ee:ff (unicast)\n"
	      "\n"
	      "bully: the highest id wins; min-bully: the lowest id wins\n"
	      "(Kabashi, Zeqiri and Zabeli); enh-bully: the highest id wins,\n"
	      "the upper half of the ids are asked first (Murshed and Allen).\n"
	      "suppress (algo ring only): on (default) is Chang and Roberts'\n"
	      "participant flag; off forwards the higher id without it.\n"
	      "ask-suspect on (default): an election also asks the leader whose\n"
	      "silence started it; preempt on (default): a better id (higher;\n"
	      "min-bully: lower) that joins takes over, after preempt-delay\n"
	      "(default 0); off: it follows. quorum on (default off): no leader\n"
	      "without a majority of the configured nodes (itself included)\n"
	      "naming it, so a partition's minority side has none; every node\n"
	      "then sends an ALIVE each hb-interval; set it on every node;\n"
	      "needs hb-interval x (hb-miss - 2) above 1.5 x timeout and a\n"
	      "stopped group to change.\n"
	      "invitation (Garcia-Molina): one group per side of a partition,\n"
	      "merged under the highest coordinator when it heals; each\n"
	      "coordinator searches every search-interval (default 0:\n"
	      "hb-interval x hb-miss).\n"
	      "\n"
	      "show and stats read one instance when dev and group are both\n"
	      "given, else every instance (filtered by the one given).\n"
	      "monitor prints events until interrupted; a line with event\n"
	      "\"gap\" reports lost events (lost = -1 when the count is unknown).\n"
	      "module prints the module-wide leak counters.\n"
	      "\n"
	      "Exit status: 0 on success; 1 on any error (invalid arguments,\n"
	      "usage error, request refused by the kernel, netlink failure).\n"
	      "Errors are printed to stderr as \"Error: <message>\", with the\n"
	      "kernel's extended ack message when it gave one.\n", f);
}

static const struct {
	const char *name;
	int (*fn)(struct elec_ctx *ctx, int argc, char **argv);
} commands[] = {
	{ "group", elec_cmd_group },
	{ "peer", elec_cmd_peer },
	{ "show", elec_cmd_show },
	{ "stats", elec_cmd_stats },
	{ "monitor", elec_cmd_monitor },
	{ "module", elec_cmd_module },
};

int main(int argc, char **argv)
{
	struct elec_ctx ctx = { 0 };
	const char *env = getenv("ELECTIONCTL_DRY_RUN");
	size_t i;
	int ret;

	if (env && !strcmp(env, "1"))
		ctx.dry_run = true;

	argc--;
	argv++;
	while (argc > 0 && argv[0][0] == '-') {
		const char *o = argv[0];

		if (!strcmp(o, "-j") || !strcmp(o, "-json") ||
		    !strcmp(o, "--json")) {
			ctx.json = true;
		} else if (!strcmp(o, "-h") || !strcmp(o, "-help") ||
			   !strcmp(o, "--help")) {
			usage(stdout);
			return ELEC_EXIT_OK;
		} else if (!strcmp(o, "-V") || !strcmp(o, "-Version") ||
			   !strcmp(o, "--version")) {
			printf("electionctl %s (genetlink family %s version %d)\n",
			       ELECTIONCTL_VERSION, ELECTION_GENL_NAME,
			       ELECTION_GENL_VERSION);
			return ELEC_EXIT_OK;
		} else if (!strcmp(o, "--dry-run")) {
			ctx.dry_run = true;
		} else if (!strcmp(o, "--unchecked")) {
			ctx.unchecked = true;
		} else {
			elec_err("unknown option \"%s\" (try \"electionctl help\")",
				 o);
			return ELEC_EXIT_FAIL;
		}
		argc--;
		argv++;
	}
	if (argc < 1) {
		usage(stderr);
		return ELEC_EXIT_FAIL;
	}
	if (!strcmp(argv[0], "help")) {
		if (argc > 1) {
			elec_err("unexpected argument \"%s\" after \"help\"",
				 argv[1]);
			return ELEC_EXIT_FAIL;
		}
		usage(stdout);
		return ELEC_EXIT_OK;
	}
	for (i = 0; i < ARRAY_SIZE(commands); i++) {
		if (strcmp(argv[0], commands[i].name))
			continue;
		ret = commands[i].fn(&ctx, argc - 1, argv + 1);
		elec_nl_close(&ctx);
		if (fflush(stdout) || ferror(stdout)) {
			/* e.g. a full disk: do not report success */
			if (!ret)
				ret = elec_err("cannot write the output");
		}
		return ret;
	}
	elec_err("unknown command \"%s\" (try \"electionctl help\")",
		 argv[0]);
	return ELEC_EXIT_FAIL;
}
