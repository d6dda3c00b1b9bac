/* SPDX-License-Identifier: GPL-2.0 */
/*
 * query.h - shared code of the read commands (show, stats).
 */
#ifndef ELECTIONCTL_QUERY_H
#define ELECTIONCTL_QUERY_H

#include <stdio.h>

#include "json.h"
#include "nl.h"

/*
 * Print one reply: as a JSON array element into @j when ctx->json, else as
 * text lines into @out. @filter holds the command's keywords (peer show
 * filters the peers by its "id").
 */
typedef void (*elec_print_fn)(const struct elec_ctx *ctx, FILE *out,
			      struct elec_json *j, struct nlattr **tb,
			      const struct elec_args *filter);

/*
 * Run "<what> [dev IF] [group G]": with both filters a doit of @cmd, else a
 * dump of @cmd (filter attributes sent and also applied here). Output is
 * buffered and printed only when the request succeeds; an interrupted dump
 * is retried. Returns an exit status.
 */
int elec_query(struct elec_ctx *ctx, const char *what, uint8_t cmd,
	       int argc, char **argv, elec_print_fn print);
/*
 * The same with more keywords than dev and group (@allowed): those are
 * not sent, only passed to @print.
 */
int elec_query_kw(struct elec_ctx *ctx, const char *what, uint8_t cmd,
		  unsigned int allowed, int argc, char **argv,
		  elec_print_fn print);

/* Output helpers shared by the printers. */
void elec_json_attr_u64(struct elec_json *j, const char *key,
			struct nlattr **tb, int type);
const char *elec_reply_ifname(struct nlattr **tb, char *buf);
/* Name from @name_fn, or "<prefix>_<v>" in @buf for values it does not know. */
const char *elec_enum_str(const char *(*name_fn)(unsigned int), unsigned int v,
			  const char *prefix, char *buf, size_t size);
struct elec_config;
/*
 * The configuration a GROUP_GET reply describes (showconf.c): the
 * defaults, then each option the reply has, at the value it reports.
 */
void elec_reply_config(struct nlattr **tb, struct elec_config *cfg);

/* The keys that name an instance: ifname, ifindex, group, id, algo. */
void elec_json_instance(struct elec_json *j, struct nlattr **tb);

#endif /* ELECTIONCTL_QUERY_H */
