// SPDX-License-Identifier: GPL-2.0
/*
 * genkey.c - "electionctl genkey [ FILE ]": a new group key, 16 random
 * bytes from getrandom(2), written as the 32 hex digits and newline that
 * key-file reads. To standard output (as wg genkey: "umask 077;
 * electionctl genkey > g7.key"; a warning when that is a file others may
 * read), or to FILE, created with mode 0600 and never over an existing
 * file. The key is wiped from memory once written.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include "electionctl.h"

/* 16 random bytes, never all zero (key-file refuses that key) */
static int genkey_random(uint8_t key[ELECTION_KEY_LEN])
{
	size_t i;

	for (;;) {
		ssize_t n = getrandom(key, ELECTION_KEY_LEN, 0);

		if (n < 0 && errno == EINTR)
			continue;
		if (n != ELECTION_KEY_LEN)
			return -1;
		for (i = 0; i < ELECTION_KEY_LEN; i++)
			if (key[i])
				return 0;
	}
}

static int genkey_write(int fd, const uint8_t key[ELECTION_KEY_LEN])
{
	static const char hex[] = "0123456789abcdef";
	char line[2 * ELECTION_KEY_LEN + 1];
	size_t i, off = 0;
	int ret = 0;

	for (i = 0; i < ELECTION_KEY_LEN; i++) {
		line[2 * i] = hex[key[i] >> 4];
		line[2 * i + 1] = hex[key[i] & 15];
	}
	line[2 * ELECTION_KEY_LEN] = '\n';
	while (off < sizeof(line)) {
		ssize_t n = write(fd, line + off, sizeof(line) - off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			ret = -1;
			break;
		}
		off += (size_t)n;
	}
	explicit_bzero(line, sizeof(line));
	return ret;
}

int elec_cmd_genkey(struct elec_ctx *ctx, int argc, char **argv)
{
	uint8_t key[ELECTION_KEY_LEN];
	struct stat st;
	int fd = STDOUT_FILENO, ret;

	if (argc > 1)
		return elec_err("unexpected argument \"%s\" after the file name",
				argv[1]);
	if (argc == 1 && !*argv[0])
		return elec_err("empty file name");
	/*
	 * a batch's validation: nothing written; the file must not exist,
	 * and a later key-file line may name it
	 */
	if (ctx->check_only) {
		if (argc == 1 && !access(argv[0], F_OK))
			return elec_err("\"%s\": cannot create: %s", argv[0],
					strerror(EEXIST));
		if (argc == 1 && elec_check_note_created(argv[0]))
			return elec_fail("out of memory");
		return ELEC_EXIT_OK;
	}
	if (genkey_random(key))
		return elec_fail("cannot get random bytes: %s", strerror(errno));
	if (argc == 1) {
		fd = open(argv[0], O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC |
			  O_NOCTTY, 0600);
		if (fd < 0) {
			explicit_bzero(key, sizeof(key));
			return elec_fail("\"%s\": cannot create: %s", argv[0],
					 strerror(errno));
		}
	} else if (!fstat(fd, &st) && S_ISREG(st.st_mode) &&
		   (st.st_mode & 077)) {
		fputs("Warning: writing the key to a file that group or others "
		      "may read or write (umask 077 first)\n", stderr);
	}
	ret = genkey_write(fd, key);
	explicit_bzero(key, sizeof(key));
	if (argc == 1 && close(fd) && !ret)
		ret = -1;
	if (ret)
		return elec_fail("cannot write the key: %s", strerror(errno));
	return ELEC_EXIT_OK;
}
