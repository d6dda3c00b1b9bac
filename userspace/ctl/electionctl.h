/* SPDX-License-Identifier: GPL-2.0 */
/*
 * electionctl.h - shared declarations of the electionctl tool.
 */
#ifndef ELECTIONCTL_H
#define ELECTIONCTL_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <linux/election.h>

#include "names.h"

/* VERSION at the top of the tree, passed by the Makefile */
#ifndef ELECTION_VERSION
#error "ELECTION_VERSION is not defined (build with userspace/Makefile)"
#endif
#define ELECTIONCTL_VERSION	ELECTION_VERSION

#define ARRAY_SIZE(a)		(sizeof(a) / sizeof((a)[0]))

/*
 * Exit statuses, as iproute2's (documented in `electionctl help` and
 * electionctl(8)): 0 success; 1 usage or invalid arguments, nothing was
 * sent; 2 the kernel refused the request or netlink (or the output) failed.
 */
#define ELEC_EXIT_OK		0
#define ELEC_EXIT_USAGE		1
#define ELEC_EXIT_FAIL		2

struct nl_sock;

/* elec_ctx.timestamp: -t (as "ip -t monitor"), -ts (one-line, short) */
#define ELEC_TS_LONG		1
#define ELEC_TS_SHORT		2

/**
 * struct elec_ctx - global options and the netlink session.
 * @json: -j: print JSON
 * @timestamp: monitor: 0, ELEC_TS_LONG (-t) or ELEC_TS_SHORT (-ts)
 * @dry_run: --dry-run / ELECTIONCTL_DRY_RUN=1: print the request, send nothing
 * @check_only: with @dry_run: print nothing either (a batch's validation)
 * @stats: -s given this many times without -batch (with -batch, -s is
 *	-start): stats prints every counter at 2
 * @details: -d: stats prints every counter
 * @unchecked: --unchecked: skip range and required-keyword checks, so tests
 *	can send requests the kernel must refuse
 * @sk: generic netlink socket, NULL until the first request
 * @family: resolved id of the "election" family (0 in dry-run mode)
 */
struct elec_ctx {
	bool json;
	int timestamp;
	bool dry_run;
	bool check_only;
	int stats;
	bool details;
	bool unchecked;
	struct nl_sock *sk;
	int family;
};

/* Print "Error: ..." to stderr. Returns ELEC_EXIT_USAGE: for errors in
 * the arguments, found before anything is sent.
 */
int elec_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The same message; returns ELEC_EXIT_FAIL: the kernel refused, netlink
 * failed, memory or the output failed.
 */
int elec_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* When set (a batch's "FILE:LINE: "), printed after "Error: ". */
extern const char *elec_err_where;
/*
 * When set, the message goes there (elec_err_capture_size bytes, without
 * "Error: ") instead of stderr: a loop that retries (track) reports each
 * distinct failure once.
 */
extern char *elec_err_capture;
extern size_t elec_err_capture_size;

/* a group a batch's "group add" line names */
struct elec_batch_group {
	char dev[16];
	uint16_t group;
};

/* what a batch line is (elec_batch_ops.line_kind) */
enum elec_line_kind {
	ELEC_LINE_OTHER,
	ELEC_LINE_GROUP_ADD,
	ELEC_LINE_GROUP_SET,
	ELEC_LINE_GROUP_START,
	ELEC_LINE_GROUP_OTHER,	/* del, stop, elect, show */
	ELEC_LINE_PEER_ADD,
};

/**
 * struct elec_batch_ops - what -batch needs from the command table.
 * @run: run one line's command (argv[0] names it); returns an exit status
 * @line_kind: what the line is, read as its command's parser reads the
 *	words; for a group or peer line that names both, its dev and group
 *	in @g (else @g->group is 0)
 */
struct elec_batch_ops {
	int (*run)(struct elec_ctx *ctx, int argc, char **argv);
	enum elec_line_kind (*line_kind)(int argc, char **argv,
					 struct elec_batch_group *g);
};

#define ELEC_BATCH_FORCE	1	/* -force: run every line */
#define ELEC_BATCH_START	2	/* -start: then start the groups added */
#define ELEC_BATCH_UNDO		4	/* -undo: delete the groups it adds */
#define ELEC_BATCH_CHECK	8	/* -check: validate every line, run none */

/*
 * A batch's validation pass: elec_check_only is set between
 * elec_check_begin() and elec_check_end(); genkey notes the files it
 * would create (elec_check_note_created(), -1 when out of memory), and
 * key-file takes them as created.
 */
extern bool elec_check_only;
void elec_check_begin(void);
void elec_check_end(void);
int elec_check_note_created(const char *path);

/*
 * -batch FILE ("-": stdin): validate every line (unless ELEC_BATCH_FORCE),
 * then run each line's command, stopping at the first failure unless
 * ELEC_BATCH_FORCE. Returns the highest exit status.
 */
int elec_batch(struct elec_ctx *ctx, const char *file, unsigned int flags,
	       const struct elec_batch_ops *ops);

/*
 * Read FILE ("-": stdin) and validate every line as -check does; when all
 * are valid, call @fn for each line with words, elec_err_where set to
 * "FILE:LINE: ", stopping at the first non-zero status. Returns the
 * highest exit status.
 */
int elec_batch_each(struct elec_ctx *ctx, const char *file,
		    const struct elec_batch_ops *ops,
		    int (*fn)(void *arg, int argc, char **argv), void *arg);

/* syncconf FILE [ dry-run ] (syncconf.c) */
int elec_syncconf(struct elec_ctx *ctx, int argc, char **argv,
		  const struct elec_batch_ops *ops);

/*
 * Name tables indexed by the uapi enums; NULL for unnamed values. The
 * algorithms', message types', roles', drops' and events' are
 * module/core/names.h's (names-list.h).
 */
const char *elec_attr_name(unsigned int attr);
const char *elec_cmd_name(unsigned int cmd);

/* Format @ns as the largest exact unit (s, ms, us, else ns). */
void elec_fmt_dur(char *buf, unsigned long size, uint64_t ns);
/* Format a 6-byte Ethernet address as aa:bb:cc:dd:ee:ff. */
void elec_fmt_mac(char *buf, unsigned long size, const uint8_t *mac);

/* Commands: each returns an exit status. argv[0] is the first word after
 * the command name.
 */
int elec_cmd_group(struct elec_ctx *ctx, int argc, char **argv);
int elec_cmd_peer(struct elec_ctx *ctx, int argc, char **argv);
int elec_cmd_show(struct elec_ctx *ctx, int argc, char **argv);
int elec_cmd_is_leader(struct elec_ctx *ctx, int argc, char **argv);
int elec_cmd_stats(struct elec_ctx *ctx, int argc, char **argv);
int elec_cmd_monitor(struct elec_ctx *ctx, int argc, char **argv);
int elec_cmd_module(struct elec_ctx *ctx, int argc, char **argv);
int elec_cmd_algo(struct elec_ctx *ctx, int argc, char **argv);
int elec_cmd_group_show(struct elec_ctx *ctx, int argc, char **argv);
int elec_cmd_peer_show(struct elec_ctx *ctx, int argc, char **argv);
int elec_cmd_showconf(struct elec_ctx *ctx, int argc, char **argv);
int elec_cmd_genkey(struct elec_ctx *ctx, int argc, char **argv);
int elec_cmd_track(struct elec_ctx *ctx, int argc, char **argv);

/* showconf.c: an option's value as its keyword takes it ("20ms", "on") */
void elec_opt_fmt(int o, uint64_t v, char *buf, size_t size);

void elec_usage_group(FILE *f);
void elec_usage_peer(FILE *f);

#endif /* ELECTIONCTL_H */
