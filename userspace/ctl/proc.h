/* SPDX-License-Identifier: GPL-2.0 */
/*
 * proc.h - what the supervised loops (monitor, track) share: the clock,
 * SIGTERM and SIGINT through a pipe, and the children they run.
 */
#ifndef ELECTIONCTL_PROC_H
#define ELECTIONCTL_PROC_H

#include <stdint.h>
#include <sys/types.h>

/* without pidfds (kernels before 5.3): how often to look for a child */
#define ELEC_CHILD_POLL_MS	20

/* CLOCK_MONOTONIC, ns */
uint64_t elec_mono_ns(void);

/*
 * Catch SIGTERM and SIGINT (unless ignored when the process started):
 * the handler writes each one's number into a pipe (O_CLOEXEC,
 * non-blocking), whose read end elec_sig_fd() gives for poll(). A child
 * between fork and exec writes nothing. Returns 0 or an exit status.
 */
int elec_sig_catch(void);
/* the pipe's read end, -1 before elec_sig_catch() */
int elec_sig_fd(void);
/* Read the pipe: how many signals arrived in all. */
int elec_sig_count(void);
/* the last one that arrived (0: none yet) */
int elec_sig_last(void);

/* setenv(@name, the formatted value), in a child before exec */
void elec_setenvf(const char *name, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* a pidfd of @pid (O_CLOEXEC), -1 when the kernel has none */
int elec_pidfd_open(pid_t pid);

/*
 * Fork and run @argv (execvp, no shell) with /dev/null as its standard
 * input; in the child @setup (when not NULL) runs first, with @arg (to
 * set the environment, a process group). stdout and stderr are flushed
 * before. A command that cannot run prints "Error: cannot run ..." and
 * exits 127. Returns the child's pid, or -1 (errno set) when fork failed.
 */
pid_t elec_spawn(char **argv, void (*setup)(void *arg), void *arg);

#endif /* ELECTIONCTL_PROC_H */
