/* SPDX-License-Identifier: GPL-2.0 */
/*
 * nl.h - the libnl-genl-3 session of electionctl.
 */
#ifndef ELECTIONCTL_NL_H
#define ELECTIONCTL_NL_H

#include <netlink/attr.h>
#include <netlink/genl/genl.h>
#include <netlink/msg.h>

#include "electionctl.h"
#include "parse.h"

/* elec_nl_transact() result: a dump was interrupted; nothing printed. */
#define ELEC_NL_DUMP_INTR	100

/* Attribute policy of every reply and event (validates the kernel's data). */
extern struct nla_policy elec_nl_policy[ELEC_ATTR_MAX + 1];

/*
 * Called for each reply message with its attributes parsed with
 * elec_nl_policy. Returns 0, or an exit status (after printing an error) to
 * stop.
 */
typedef int (*elec_reply_fn)(struct nlattr **tb, void *arg);

/* Open the socket with extended acks enabled. Returns 0 or ELEC_EXIT_FAIL. */
int elec_nl_connect(struct elec_ctx *ctx);
/* Connect and resolve the family (once). Returns 0 or exit status. */
int elec_nl_open(struct elec_ctx *ctx);
void elec_nl_close(struct elec_ctx *ctx);

/*
 * A new request for @cmd (NLM_F_DUMP when @dump). Opens the session unless
 * in dry-run mode. Returns NULL after printing an error.
 */
struct nl_msg *elec_nl_msg(struct elec_ctx *ctx, uint8_t cmd, bool dump);

/*
 * Put the attributes of every keyword in @a->seen; the "id" keyword becomes
 * @id_attr (ELEC_ATTR_NODE_ID or ELEC_ATTR_PEER_ID), and "pos" the matching
 * ELEC_ATTR_POS or ELEC_ATTR_PEER_POS. Returns 0 or exit status.
 */
int elec_nl_put_args(struct nl_msg *msg, const struct elec_args *a,
		     int id_attr);

/* Free @msg, first wiping the key attribute it may hold. */
void elec_nl_msg_free(struct nl_msg *msg);

/*
 * Send @msg (always consumed) and read replies until the ack, the end of
 * the dump or an error. Kernel errors print "Error: <extack message>" (or
 * strerror when the kernel gave none). In dry-run mode, print the request
 * as JSON instead. Returns 0, ELEC_NL_DUMP_INTR or ELEC_EXIT_FAIL.
 */
int elec_nl_transact(struct elec_ctx *ctx, struct nl_msg *msg,
		     elec_reply_fn fn, void *arg);

/*
 * A request without a reply: parse the keywords of argv (@allowed,
 * @required; @what names the command in messages), put them ("id" as
 * @id_attr) and send @cmd. Returns an exit status.
 */
int elec_nl_simple(struct elec_ctx *ctx, const char *what, uint8_t cmd,
		   int argc, char **argv, unsigned int allowed,
		   unsigned int required, int id_attr);

/*
 * The family's id from a dump of every generic netlink family (a request
 * for it by name would load the module): 0 when it is not registered
 * (the module unloaded), -1 when the families cannot be read. @grp, when
 * not NULL: the id of its "events" group, asked for only when the family
 * is registered under another id than @known (a request by name, which
 * loads the module if it went in between), 0 when unknown or not asked.
 */
int elec_nl_family_lookup(int known, int *grp);

/* Join the "events" multicast group. Returns 0 or exit status. */
int elec_nl_join_events(struct elec_ctx *ctx);

/*
 * Parse a message of our family into @tb. Returns 0, or -1 when it is not
 * ours or fails validation. @cmd receives the genl command.
 */
int elec_nl_parse(const struct elec_ctx *ctx, struct nlmsghdr *nlh,
		  struct nlattr **tb, uint8_t *cmd);

/* Attribute helpers: the value, or @def when the attribute is absent. */
uint64_t elec_nla_u64(struct nlattr **tb, int type, uint64_t def);

#endif /* ELECTIONCTL_NL_H */
