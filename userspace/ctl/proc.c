// SPDX-License-Identifier: GPL-2.0
/*
 * proc.c - the clock, SIGTERM and SIGINT through a pipe, and children: what
 * monitor's hooks and track's checks share.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "electionctl.h"
#include "proc.h"

uint64_t elec_mono_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000ULL + (uint64_t)t.tv_nsec;
}

/* the handler writes each signal's number there (a byte); the loop reads */
static int sig_pipe[2] = { -1, -1 };
/* how many the loop read, and the last one */
static int sig_n, sig_last;
/* our own pid: a child, between fork and exec, writes nothing */
static pid_t sig_pid;

static void on_signal(int sig)
{
	unsigned char c = (unsigned char)sig;
	int err = errno;

	if (sig_pipe[1] >= 0 && getpid() == sig_pid)
		(void)!write(sig_pipe[1], &c, 1);
	errno = err;
}

int elec_sig_catch(void)
{
	static const int sigs[] = { SIGTERM, SIGINT };
	struct sigaction sa = { .sa_handler = on_signal,
				.sa_flags = SA_RESTART }, old;
	unsigned int i;

	sig_pid = getpid();
	if (sig_pipe[0] < 0 && pipe2(sig_pipe, O_CLOEXEC | O_NONBLOCK))
		return elec_fail("pipe: %s", strerror(errno));
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < ARRAY_SIZE(sigs); i++)
		sigaddset(&sa.sa_mask, sigs[i]);
	for (i = 0; i < ARRAY_SIZE(sigs); i++) {
		if (sigaction(sigs[i], NULL, &old) || old.sa_handler == SIG_IGN)
			continue;
		if (sigaction(sigs[i], &sa, NULL))
			return elec_fail("sigaction: %s", strerror(errno));
	}
	/*
	 * children are waited for: a SIGCHLD ignored (or SA_NOCLDWAIT) by
	 * whoever started us survives exec, and would reap them unseen
	 */
	sa.sa_handler = SIG_DFL;
	sa.sa_flags = 0;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGCHLD, &sa, NULL))
		return elec_fail("sigaction: %s", strerror(errno));
	return 0;
}

int elec_sig_fd(void)
{
	return sig_pipe[0];
}

int elec_sig_count(void)
{
	unsigned char c;

	while (sig_pipe[0] >= 0 && read(sig_pipe[0], &c, 1) == 1) {
		sig_n++;
		sig_last = c;
	}
	return sig_n;
}

int elec_sig_last(void)
{
	return sig_last;
}

void elec_setenvf(const char *name, const char *fmt, ...)
{
	char buf[128];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	setenv(name, buf, 1);
}

int elec_pidfd_open(pid_t pid)
{
#ifdef SYS_pidfd_open
	return (int)syscall(SYS_pidfd_open, pid, 0);
#else
	(void)pid;
	errno = ENOSYS;
	return -1;
#endif
}

pid_t elec_spawn(char **argv, void (*setup)(void *arg), void *arg)
{
	pid_t pid;
	int fd;

	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid)
		return pid;
	fd = open("/dev/null", O_RDONLY);
	if (fd >= 0 && fd != STDIN_FILENO) {
		dup2(fd, STDIN_FILENO);
		close(fd);
	}
	if (setup)
		setup(arg);
	execvp(argv[0], argv);
	fprintf(stderr, "Error: cannot run \"%s\": %s\n", argv[0],
		strerror(errno));
	_exit(127);
}
