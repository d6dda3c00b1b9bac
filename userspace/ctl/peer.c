// SPDX-License-Identifier: GPL-2.0
/*
 * peer.c - "electionctl peer ...": add and remove an instance's peers.
 * Neither starts an election (removing the leader does, through the
 * failure detector).
 */
#include <string.h>

#include "nl.h"

#define PEER_KWB	(ELEC_KWB_INSTANCE | ELEC_KWB(ELEC_KW_ID))

int elec_cmd_peer(struct elec_ctx *ctx, int argc, char **argv)
{
	if (argc < 1)
		return elec_err("\"peer\" needs a subcommand: add, del");
	if (!strcmp(argv[0], "help") && argc == 1) {
		elec_usage_peer(stdout);
		return ELEC_EXIT_OK;
	}
	if (!strcmp(argv[0], "add"))
		return elec_nl_simple(ctx, "peer add", ELEC_CMD_PEER_ADD,
				      argc - 1, argv + 1,
				      PEER_KWB | ELEC_KWB(ELEC_KW_LLADDR) |
				      ELEC_KWB(ELEC_KW_POS),
				      PEER_KWB | ELEC_KWB(ELEC_KW_LLADDR),
				      ELEC_ATTR_PEER_ID);
	if (!strcmp(argv[0], "del"))
		return elec_nl_simple(ctx, "peer del", ELEC_CMD_PEER_DEL,
				      argc - 1, argv + 1, PEER_KWB, PEER_KWB,
				      ELEC_ATTR_PEER_ID);
	return elec_err("unknown subcommand \"%s\" for \"peer\" (add, del)",
			argv[0]);
}
