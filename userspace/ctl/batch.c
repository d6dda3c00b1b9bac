// SPDX-License-Identifier: GPL-2.0
/*
 * batch.c - "electionctl [-force] -batch FILE": one command per line, as
 * on the command line without "electionctl" and without options (those of
 * the command line apply to every line). FILE "-" is stdin.
 *
 * Lines: words separated by blanks; a word starting with '#' starts a
 * comment to the end of the line; "..." groups blanks into a word (\" and
 * \\ inside), '...' too (no escapes). Empty and comment-only lines are
 * skipped. Errors are prefixed with "FILE:LINE: ". The whole file is
 * read first (stdin too: nothing runs before its end), every line is
 * validated (elec_batch()), and then the first line the kernel refuses
 * stops the batch, unless -force (no validation): then every line runs and
 * the exit status is the highest of the failed lines'. "monitor" and
 * "is-leader" are refused in a batch (the one never returns, the other
 * answers with its status).
 *
 * -start: a file with "group start" lines starts the groups those lines
 * start, and no others (showconf writes one per running group); a file
 * without any (hand-written) has every group a "group add" line created
 * started after the lines (starting a running group changes nothing).
 * -undo: run no line; delete
 * every group a "group add" line names that exists, the last first (what
 * election@.service's stop does; a group already gone is no error).
 */
#include <errno.h>
#include <inttypes.h>
#include <net/if.h>
#include <stdlib.h>
#include <string.h>

#include "electionctl.h"
#include "nl.h"

#define BATCH_MAX_WORDS	128

/**
 * struct batch_groups - the groups "group add" lines name, in file order.
 * @g: entries
 * @n: entries used
 * @cap: entries allocated
 */
struct batch_groups {
	struct elec_batch_group *g;
	size_t n, cap;
};

static int note_group(struct batch_groups *bg, const struct elec_batch_group *g)
{
	if (bg->n == bg->cap) {
		size_t cap = bg->cap ? 2 * bg->cap : 16;
		struct elec_batch_group *n = realloc(bg->g, cap * sizeof(*n));

		if (!n)
			return elec_fail("out of memory");
		bg->g = n;
		bg->cap = cap;
	}
	bg->g[bg->n++] = *g;
	return 0;
}

/* the instances that exist now (undo deletes only those) */
static int exists_cb(struct nlattr **tb, void *arg)
{
	struct batch_groups *bg = arg;
	struct elec_batch_group g = { 0 };

	if (!tb[ELEC_ATTR_IFNAME] || !tb[ELEC_ATTR_GROUP])
		return 0;
	snprintf(g.dev, sizeof(g.dev), "%s",
		 nla_get_string(tb[ELEC_ATTR_IFNAME]));
	g.group = nla_get_u16(tb[ELEC_ATTR_GROUP]);
	return note_group(bg, &g);
}

static bool has_group(const struct batch_groups *bg,
		      const struct elec_batch_group *g)
{
	size_t i;

	for (i = 0; i < bg->n; i++)
		if (bg->g[i].group == g->group && !strcmp(bg->g[i].dev, g->dev))
			return true;
	return false;
}

/* "group VERB dev D group G", errors prefixed with "FILE: VERB: " */
static int group_cmd(struct elec_ctx *ctx, const char *name, const char *verb,
		     const struct elec_batch_group *g)
{
	char gbuf[8], where[300], dev[IF_NAMESIZE];
	char *argv[] = { (char *)verb, "dev", dev, "group", gbuf, NULL };
	int ret;

	snprintf(dev, sizeof(dev), "%s", g->dev);
	snprintf(gbuf, sizeof(gbuf), "%u", g->group);
	snprintf(where, sizeof(where), "%s: %s dev %s group %u: ", name, verb,
		 g->dev, g->group);
	elec_err_where = where;
	ret = elec_cmd_group(ctx, 5, argv);
	elec_err_where = NULL;
	return ret;
}

static int undo(struct elec_ctx *ctx, const char *name,
		const struct batch_groups *bg)
{
	struct batch_groups now = { 0 };
	struct nl_msg *msg;
	int ret = 0, r;
	size_t i;

	if (ctx->dry_run) {
		now = *bg;	/* print every request */
	} else {
		msg = elec_nl_msg(ctx, ELEC_CMD_GROUP_GET, true);
		if (!msg)
			return ELEC_EXIT_FAIL;
		ret = elec_nl_transact(ctx, msg, exists_cb, &now);
		if (ret == ELEC_NL_DUMP_INTR)
			ret = elec_fail("the dump was interrupted; try again");
	}
	for (i = bg->n; !ret && i-- > 0;) {
		if (!has_group(&now, &bg->g[i]))
			continue;
		r = group_cmd(ctx, name, "del", &bg->g[i]);
		if (r > ret)
			ret = r;
	}
	if (!ctx->dry_run)
		free(now.g);
	return ret;
}

/*
 * Split @line in place into @argv. Returns the word count, or -1 with
 * @why set.
 */
static int split_line(char *line, char **argv, const char **why)
{
	char *r = line, *w;
	int argc = 0;

	for (;;) {
		while (*r == ' ' || *r == '\t' || *r == '\r' || *r == '\n')
			r++;
		if (!*r || *r == '#')
			return argc;
		if (argc == BATCH_MAX_WORDS) {
			*why = "too many words on the line";
			return -1;
		}
		argv[argc++] = w = r;
		while (*r && *r != ' ' && *r != '\t' && *r != '\r' &&
		       *r != '\n') {
			char q = *r;

			if (q != '"' && q != '\'') {
				*w++ = *r++;
				continue;
			}
			r++;
			while (*r && *r != q) {
				if (q == '"' && *r == '\\' &&
				    (r[1] == '"' || r[1] == '\\'))
					r++;
				*w++ = *r++;
			}
			if (!*r) {
				*why = "unterminated quote";
				return -1;
			}
			r++;
		}
		if (*r)
			r++;
		*w = '\0';
	}
}

/**
 * struct batch_lines - the file's lines, read before any runs.
 * @line: each line as read (with its newline)
 * @len: its length (a NUL byte inside makes strlen() shorter)
 * @n: lines
 * @cap: lines allocated
 */
struct batch_lines {
	char **line;
	size_t *len;
	size_t n, cap;
};

static void free_lines(struct batch_lines *bl)
{
	size_t i;

	for (i = 0; i < bl->n; i++)
		free(bl->line[i]);
	free(bl->line);
	free(bl->len);
}

/* every line of @f, or an exit status */
static int read_lines(FILE *f, const char *name, struct batch_lines *bl)
{
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;

	while ((len = getline(&line, &cap, f)) >= 0) {
		if (bl->n == bl->cap) {
			size_t c = bl->cap ? 2 * bl->cap : 64;
			char **l = realloc(bl->line, c * sizeof(*l));
			size_t *n;

			if (l)
				bl->line = l;
			n = l ? realloc(bl->len, c * sizeof(*n)) : NULL;
			if (!n) {
				free(line);
				return elec_fail("out of memory");
			}
			bl->len = n;
			bl->cap = c;
		}
		bl->line[bl->n] = line;
		bl->len[bl->n++] = (size_t)len;
		line = NULL;
		cap = 0;
	}
	free(line);
	if (ferror(f))
		return elec_fail("reading batch file \"%s\": %s", name,
				 strerror(errno));
	return 0;
}

/* the name errors give @file ("-": standard input) */
static const char *batch_name(const char *file)
{
	return strcmp(file, "-") ? file : "<stdin>";
}

/* every line of @file ("-": standard input), or an exit status */
static int load_lines(const char *file, struct batch_lines *bl)
{
	FILE *f = strcmp(file, "-") ? fopen(file, "r") : stdin;
	int worst;

	if (!f)
		return elec_err("cannot open batch file \"%s\": %s", file,
				strerror(errno));
	worst = read_lines(f, batch_name(file), bl);
	if (f != stdin)
		fclose(f);
	return worst;
}

/*
 * One pass over the lines: run each (@ctx: for real, or a validation that
 * sends and prints nothing), noting the groups "group add" lines create
 * in @bg when given. Stops at the first failure when @stop. Returns the
 * highest exit status.
 */
static int run_lines(struct elec_ctx *ctx, const char *name,
		     const struct batch_lines *bl, bool stop, bool run,
		     struct batch_groups *bg, bool *starts,
		     const struct elec_batch_ops *ops)
{
	char *argv[BATCH_MAX_WORDS], *line;
	int worst = 0;
	size_t i;

	for (i = 0; i < bl->n; i++) {
		const char *why = NULL;
		char where[256];
		int argc, ret = 0;

		snprintf(where, sizeof(where), "%s:%zu: ", name, i + 1);
		elec_err_where = where;
		line = strdup(bl->line[i]);
		if (!line) {
			ret = elec_fail("out of memory");
			argc = 0;
		} else if (strlen(line) != bl->len[i]) {
			argc = -1;
			why = "NUL byte in the line";
		} else {
			argc = split_line(line, argv, &why);
		}
		if (argc < 0) {
			ret = elec_err("%s", why);
		} else if (argc > 0) {
			struct elec_batch_group g;

			if (run)
				ret = ops->run(ctx, argc, argv);
			if (!ret && bg &&
			    ops->line_kind(argc, argv, &g) == ELEC_LINE_GROUP_ADD)
				ret = note_group(bg, &g);
			/* the file says which groups run, whatever its lines did */
			if (starts && run &&
			    ops->line_kind(argc, argv, &g) ==
			    ELEC_LINE_GROUP_START)
				*starts = true;
		}
		free(line);
		elec_err_where = NULL;
		if (ret > worst)
			worst = ret;
		if (ret && stop)
			break;
	}
	return worst;
}

/*
 * Without -force, every line is validated first (parsed as its command
 * parses it, key files read, nothing sent or printed), and a file with
 * any invalid line applies none; -check stops there. What only the kernel
 * can refuse (a group that exists, a peer that does not) still shows when
 * the lines run.
 */
int elec_batch(struct elec_ctx *ctx, const char *file, unsigned int flags,
	       const struct elec_batch_ops *ops)
{
	struct batch_groups bg = { 0 };
	struct batch_lines bl = { 0 };
	bool force = flags & ELEC_BATCH_FORCE, starts = false;
	const char *name = batch_name(file);
	int worst;

	worst = load_lines(file, &bl);
	if (worst) {
		free_lines(&bl);
		return worst;
	}
	if (!force && !(flags & ELEC_BATCH_UNDO)) {
		struct elec_ctx check = *ctx;

		check.dry_run = true;
		check.check_only = true;
		elec_check_begin();
		worst = run_lines(&check, name, &bl, false, true, NULL, NULL,
				  ops);
		elec_check_end();
		if (worst || (flags & ELEC_BATCH_CHECK)) {
			free_lines(&bl);
			return worst;
		}
	}
	/* -undo reads every line: what it can delete, it deletes */
	worst = run_lines(ctx, name, &bl, !force && !(flags & ELEC_BATCH_UNDO),
			  !(flags & ELEC_BATCH_UNDO),
			  (flags & (ELEC_BATCH_UNDO | ELEC_BATCH_START)) ? &bg :
									  NULL,
			  &starts, ops);
	free_lines(&bl);
	if (flags & ELEC_BATCH_UNDO) {
		int r = undo(ctx, name, &bg);

		if (r > worst)
			worst = r;
	} else if ((flags & ELEC_BATCH_START) && !starts &&
		   (!worst || force)) {
		size_t i;

		for (i = 0; i < bg.n && (!worst || force); i++) {
			int r = group_cmd(ctx, name, "start", &bg.g[i]);

			if (r > worst)
				worst = r;
		}
	}
	free(bg.g);
	return worst;
}

/* the lines of a validated file, each to a callback (syncconf) */
int elec_batch_each(struct elec_ctx *ctx, const char *file,
		    const struct elec_batch_ops *ops,
		    int (*fn)(void *arg, int argc, char **argv), void *arg)
{
	struct batch_lines bl = { 0 };
	const char *name = batch_name(file);
	struct elec_ctx check = *ctx;
	char *argv[BATCH_MAX_WORDS];
	int worst, argc;
	size_t i;

	worst = load_lines(file, &bl);
	if (!worst) {
		check.dry_run = true;
		check.check_only = true;
		elec_check_begin();
		worst = run_lines(&check, name, &bl, false, true, NULL, NULL,
				  ops);
		elec_check_end();
	}
	for (i = 0; !worst && i < bl.n; i++) {
		char where[256], *line = bl.line[i];
		const char *why = NULL;

		snprintf(where, sizeof(where), "%s:%zu: ", name, i + 1);
		elec_err_where = where;
		/* valid: it splits */
		argc = split_line(line, argv, &why);
		if (argc > 0)
			worst = fn(arg, argc, argv);
		elec_err_where = NULL;
	}
	free_lines(&bl);
	return worst;
}
