// SPDX-License-Identifier: GPL-2.0
/*
 * nl-test.c - exercise electionctl's netlink session (ctl/nl.c) against a
 * family every kernel has, "nlctrl", so the request/ack/dump/extack code
 * runs for real without election.ko:
 *
 *   nl-test doit     GETFAMILY nlctrl: one reply, then the ack
 *   nl-test dump     GETFAMILY dump: several replies, then NLMSG_DONE;
 *                    then a doit on the same socket (sequence numbers)
 *   nl-test extack   a request with a malformed attribute: the kernel's
 *                    extack message must be printed as "Error: ..."
 *   nl-test extack-uncapped   the same without NETLINK_CAP_ACK (the error
 *                    message then echoes the request before the TLVs)
 *   nl-test missing  NETDEV_CMD_DEV_GET without its ifindex (family "netdev",
 *                    Linux 6.2+; exit 77 when absent): the kernel reports
 *                    only the missing attribute's type, printed by name
 *   nl-test enoent   GETFAMILY of a family that does not exist: an error
 *
 * The reply policy is cleared first (nlctrl's attributes are not ours).
 * Output: one line per reply ("family NAME ID"), errors on stderr, exit
 * status as electionctl's.
 */
#include <string.h>
#include <sys/socket.h>

#include <linux/genetlink.h>

#include <netlink/genl/ctrl.h>
#include <netlink/socket.h>

#include "nl.h"

#ifndef SOL_NETLINK
#define SOL_NETLINK 270
#endif

static int reply_cb(struct nlattr **tb, void *arg)
{
	int *n = arg;

	(*n)++;
	if (tb[CTRL_ATTR_FAMILY_NAME] && tb[CTRL_ATTR_FAMILY_ID])
		printf("family %s %u\n",
		       (char *)nla_data(tb[CTRL_ATTR_FAMILY_NAME]),
		       nla_get_u16(tb[CTRL_ATTR_FAMILY_ID]));
	return 0;
}

static int getfamily(struct elec_ctx *ctx, bool dump, const char *name,
		     bool bad_attr, int *n)
{
	struct nl_msg *msg = elec_nl_msg(ctx, CTRL_CMD_GETFAMILY, dump);

	if (!msg)
		return 1;
	if (name && nla_put_string(msg, CTRL_ATTR_FAMILY_NAME, name) < 0)
		return 1;
	/* CTRL_ATTR_FAMILY_ID is a u16: a 1-byte attribute fails validation */
	if (bad_attr && nla_put_u8(msg, CTRL_ATTR_FAMILY_ID, 1) < 0)
		return 1;
	return elec_nl_transact(ctx, msg, reply_cb, n);
}

int main(int argc, char **argv)
{
	struct elec_ctx ctx = { 0 };
	int n = 0, ret;

	if (argc != 2)
		return 2;
	memset(elec_nl_policy, 0, sizeof(elec_nl_policy));
	if (elec_nl_connect(&ctx))
		return 1;
	ctx.family = GENL_ID_CTRL;

	if (!strcmp(argv[1], "doit")) {
		ret = getfamily(&ctx, false, "nlctrl", false, &n);
		printf("replies %d\n", n);
	} else if (!strcmp(argv[1], "dump")) {
		ret = getfamily(&ctx, true, NULL, false, &n);
		printf("replies %d\n", n);
		if (!ret) {
			n = 0;
			ret = getfamily(&ctx, false, "nlctrl", false, &n);
			printf("replies %d\n", n);
		}
	} else if (!strcmp(argv[1], "extack")) {
		ret = getfamily(&ctx, false, "nlctrl", true, &n);
	} else if (!strcmp(argv[1], "extack-uncapped")) {
		int zero = 0;

		if (setsockopt(nl_socket_get_fd(ctx.sk), SOL_NETLINK,
			       NETLINK_CAP_ACK, &zero, sizeof(zero)))
			return 2;
		ret = getfamily(&ctx, false, "nlctrl", true, &n);
	} else if (!strcmp(argv[1], "missing")) {
		struct nl_msg *msg;
		int fam = genl_ctrl_resolve(ctx.sk, "netdev");

		if (fam < 0) {
			elec_nl_close(&ctx);
			return 77;
		}
		ctx.family = fam;
		msg = elec_nl_msg(&ctx, 1 /* NETDEV_CMD_DEV_GET */, false);
		if (!msg)
			return 1;
		ret = elec_nl_transact(&ctx, msg, reply_cb, &n);
	} else if (!strcmp(argv[1], "enoent")) {
		ret = getfamily(&ctx, false, "nosuchfam", false, &n);
	} else {
		ret = 2;
	}
	elec_nl_close(&ctx);
	return ret;
}
