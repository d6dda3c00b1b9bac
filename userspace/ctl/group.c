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
	{ "add", "group add", ELEC_CMD_GROUP_NEW,
	  ELEC_KWB_INSTANCE | ELEC_KWB(ELEC_KW_ID) | ELEC_KWB(ELEC_KW_ALGO) |
	  ELEC_KWB(ELEC_KW_POS) | ELEC_KWB(ELEC_KW_SUPPRESS) | ELEC_KWB_TIMING |
	  ELEC_KWB_OPTIONS,
	  ELEC_KWB_INSTANCE | ELEC_KWB(ELEC_KW_ID) | ELEC_KWB(ELEC_KW_ALGO) },
	{ "set", "group set", ELEC_CMD_GROUP_SET,
	  ELEC_KWB_INSTANCE | ELEC_KWB_TIMING | ELEC_KWB_OPTIONS,
	  ELEC_KWB_INSTANCE },
	{ "del", "group del", ELEC_CMD_GROUP_DEL,
	  ELEC_KWB_INSTANCE, ELEC_KWB_INSTANCE },
	{ "start", "group start", ELEC_CMD_GROUP_START,
	  ELEC_KWB_INSTANCE, ELEC_KWB_INSTANCE },
	{ "stop", "group stop", ELEC_CMD_GROUP_STOP,
	  ELEC_KWB_INSTANCE, ELEC_KWB_INSTANCE },
	{ "elect", "group elect", ELEC_CMD_GROUP_ELECT,
	  ELEC_KWB_INSTANCE, ELEC_KWB_INSTANCE },
};

int elec_cmd_group(struct elec_ctx *ctx, int argc, char **argv)
{
	size_t i;

	if (argc < 1)
		return elec_err("\"group\" needs a subcommand: add, set, del, start, stop, elect");
	if (!strcmp(argv[0], "help") && argc == 1) {
		elec_usage_group(stdout);
		return ELEC_EXIT_OK;
	}
	for (i = 0; i < ARRAY_SIZE(group_cmds); i++)
		if (!strcmp(argv[0], group_cmds[i].name))
			return elec_nl_simple(ctx, group_cmds[i].what,
					      group_cmds[i].cmd,
					      argc - 1, argv + 1,
					      group_cmds[i].allowed,
					      group_cmds[i].required,
					      ELEC_ATTR_NODE_ID);
	return elec_err("unknown subcommand \"%s\" for \"group\" (add, set, del, start, stop, elect)",
			argv[0]);
}
