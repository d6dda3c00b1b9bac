// SPDX-License-Identifier: GPL-2.0
/*
 * peer.c - "electionctl peer ...": add and remove an instance's peers, and
 * forget a peer's authentication counters (peer reset). None starts an
 * election (removing the leader does, through the failure detector).
 */
#include <string.h>

#include "nl.h"

#define PEER_KWB	(ELEC_KWB_INSTANCE | ELEC_KWB(ELEC_KW_ID))

enum peer_subcmd { PEER_ADD, PEER_DEL, PEER_RESET, PEER_SHOW };

static const char *const peer_names[] = {
	"add", "del", "delete", "reset", "show",
};
static const int peer_ids[] = {
	PEER_ADD, PEER_DEL, PEER_DEL, PEER_RESET, PEER_SHOW,
};

#define PEER_SUBCMDS	"add, del, delete, reset, show"

int elec_cmd_peer(struct elec_ctx *ctx, int argc, char **argv)
{
	int c;

	/* no subcommand: show (as ip link, wg) */
	if (argc < 1)
		return elec_cmd_peer_show(ctx, 0, argv);
	c = elec_lookup(argv[0], peer_names, peer_ids, ARRAY_SIZE(peer_names));
	switch (c) {
	case PEER_ADD:
		return elec_nl_simple(ctx, "peer add", ELEC_CMD_PEER_ADD,
				      argc - 1, argv + 1, ELEC_KWB_PEER_ADD,
				      PEER_KWB | ELEC_KWB(ELEC_KW_LLADDR),
				      ELEC_ATTR_PEER_ID);
	case PEER_DEL:
		return elec_nl_simple(ctx, "peer del", ELEC_CMD_PEER_DEL,
				      argc - 1, argv + 1, PEER_KWB, PEER_KWB,
				      ELEC_ATTR_PEER_ID);
	case PEER_RESET:
		return elec_nl_simple(ctx, "peer reset", ELEC_CMD_PEER_RESET,
				      argc - 1, argv + 1, PEER_KWB, PEER_KWB,
				      ELEC_ATTR_PEER_ID);
	case PEER_SHOW:
		return elec_cmd_peer_show(ctx, argc - 1, argv + 1);
	case ELEC_LOOKUP_AMBIGUOUS:
		return elec_err("ambiguous subcommand \"%s\" for \"peer\": %s",
				argv[0],
				elec_lookup_candidates(argv[0], peer_names,
						       ARRAY_SIZE(peer_names)));
	}
	return elec_err("unknown subcommand \"%s\" for \"peer\" (" PEER_SUBCMDS ")",
			argv[0]);
}
