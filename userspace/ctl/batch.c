// SPDX-License-Identifier: GPL-2.0
/*
 * batch.c - "electionctl [-force] -batch FILE": one command per line, as
 * on the command line without "electionctl" and without options (those of
 * the command line apply to every line). FILE "-" is stdin.
 *
 * Lines: words separated by blanks; a word starting with '#' starts a
 * comment to the end of the line; "..." groups blanks into a word (\" and
 * \\ inside), '...' too (no escapes). Empty and comment-only lines are
 * skipped. Errors are prefixed with "FILE:LINE: ". The first failing line
 * stops the batch, unless -force: then every line runs and the exit status
 * is the highest of the failed lines'. "monitor" is refused in a batch (it
 * never returns).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "electionctl.h"
#include "nl.h"

#define BATCH_MAX_WORDS	128

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

int elec_batch(struct elec_ctx *ctx, const char *file, bool force,
	       elec_batch_run_fn run)
{
	FILE *f = strcmp(file, "-") ? fopen(file, "r") : stdin;
	const char *name = f == stdin ? "<stdin>" : file;
	char *line = NULL, *argv[BATCH_MAX_WORDS];
	size_t cap = 0;
	unsigned long lineno = 0;
	int worst = 0;

	if (!f)
		return elec_err("cannot open batch file \"%s\": %s", file,
				strerror(errno));
	for (;;) {
		ssize_t len = getline(&line, &cap, f);
		const char *why = NULL;
		char where[256];
		int argc, ret = 0;

		if (len < 0)
			break;
		lineno++;
		snprintf(where, sizeof(where), "%s:%lu: ", name, lineno);
		elec_err_where = where;
		if (strlen(line) != (size_t)len) {
			argc = -1;
			why = "NUL byte in the line";
		} else {
			argc = split_line(line, argv, &why);
		}
		if (argc < 0)
			ret = elec_err("%s", why);
		else if (argc > 0)
			ret = run(ctx, argc, argv);
		elec_err_where = NULL;
		if (ret > worst)
			worst = ret;
		if (ret && !force)
			break;
	}
	if (ferror(f) && !worst)
		worst = elec_fail("reading batch file \"%s\": %s", name,
				  strerror(errno));
	free(line);
	if (f != stdin)
		fclose(f);
	return worst;
}
