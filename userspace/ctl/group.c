// SPDX-License-Identifier: GPL-2.0
/*
 * group.c - "electionctl group ...": create, change, delete, start, stop an
 * instance (device, group) and make it elect now.
 */
#include <string.h>

#include "nl.h"

static const struct {
	const char *name;
	const char *what;
	uint8_t cmd;
	unsigned int allowed;
	unsigned int required;
} group_cmds[] = {
	{ "add", "group add", ELEC_CMD_GROUP_NEW, ELEC_KWB_GROUP_ADD,
	  ELEC_KWB_INSTANCE | ELEC_KWB(ELEC_KW_ID) | ELEC_KWB(ELEC_KW_ALGO) },
	{ "set", "group set", ELEC_CMD_GROUP_SET, ELEC_KWB_GROUP_SET,
	  ELEC_KWB_INSTANCE },
	{ "del", "group del", ELEC_CMD_GROUP_DEL,
	  ELEC_KWB_INSTANCE, ELEC_KWB_INSTANCE },
	{ "delete", "group delete", ELEC_CMD_GROUP_DEL,
	  ELEC_KWB_INSTANCE, ELEC_KWB_INSTANCE },
	{ "start", "group start", ELEC_CMD_GROUP_START,
	  ELEC_KWB_INSTANCE, ELEC_KWB_INSTANCE },
	{ "stop", "group stop", ELEC_CMD_GROUP_STOP,
	  ELEC_KWB_INSTANCE, ELEC_KWB_INSTANCE },
	{ "elect", "group elect", ELEC_CMD_GROUP_ELECT,
	  ELEC_KWB_INSTANCE, ELEC_KWB_INSTANCE },
	/* a read: handled apart */
	{ "show", "group show", ELEC_CMD_GROUP_GET, 0, 0 },
};

#define GROUP_SUBCMDS	"add, set, del, delete, start, stop, elect, show"

int elec_cmd_group(struct elec_ctx *ctx, int argc, char **argv)
{
	const char *names[ARRAY_SIZE(group_cmds)];
	int ids[ARRAY_SIZE(group_cmds)];
	size_t i;
	int c;

	/* no subcommand: show (as ip link, wg) */
	if (argc < 1)
		return elec_cmd_group_show(ctx, 0, argv);
	for (i = 0; i < ARRAY_SIZE(group_cmds); i++) {
		names[i] = group_cmds[i].name;
		/* del and delete are one: their prefix "d" is not ambiguous */
		ids[i] = group_cmds[i].cmd;
	}
	c = elec_lookup(argv[0], names, ids, ARRAY_SIZE(group_cmds));
	if (c == ELEC_LOOKUP_AMBIGUOUS)
		return elec_err("ambiguous subcommand \"%s\" for \"group\": %s",
				argv[0],
				elec_lookup_candidates(argv[0], names,
						       ARRAY_SIZE(group_cmds)));
	if (c == ELEC_CMD_GROUP_GET)
		return elec_cmd_group_show(ctx, argc - 1, argv + 1);
	for (i = 0; c >= 0 && i < ARRAY_SIZE(group_cmds); i++)
		if (group_cmds[i].cmd == c)
			return elec_nl_simple(ctx, group_cmds[i].what,
					      group_cmds[i].cmd,
					      argc - 1, argv + 1,
					      group_cmds[i].allowed,
					      group_cmds[i].required,
					      ELEC_ATTR_NODE_ID);
	return elec_err("unknown subcommand \"%s\" for \"group\" (" GROUP_SUBCMDS ")",
			argv[0]);
}
