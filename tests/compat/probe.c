// SPDX-License-Identifier: GPL-2.0
/*
 * tests/compat/probe.c: module/compat.h built against one era's stub
 * headers (tests/compat/eras.py) with the ELEC_HAVE_* flags that
 * module/compat.mk probes from them. Prints, one per line, the API each
 * compat.h helper used; tests/compat/run compares that with the era's
 * expect file. A helper that picks an API the era lacks does not compile.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compat.h"
#include <trace/stages/stage6_event_callback.h>

static const char *last;

void stub_call(const char *what)
{
	last = what;
}

static struct task_struct task;
static struct kthread_worker worker = { .task = &task };
static const char *worker_name;

struct kthread_worker *stub_worker(int started, const char *name)
{
	task.started = started;
	worker_name = name;
	return &worker;
}

static enum hrtimer_restart fire(struct hrtimer *timer)
{
	(void)timer;
	return HRTIMER_NORESTART;
}

int main(void)
{
	static const unsigned char be[] = { 0x12, 0x34, 0x56, 0x78 };
	struct hrtimer timer = { 0 };
	struct nlattr *attrs[2] = { 0 };
	struct kthread_worker *w;
	int bad = 0;

	elec_hrtimer_setup(&timer, fire, CLOCK_MONOTONIC, HRTIMER_MODE_REL_SOFT);
	printf("hrtimer: %s\n", last);
	if (timer.function != fire || timer.clock != CLOCK_MONOTONIC ||
	    timer.mode != HRTIMER_MODE_REL_SOFT)
		bad = printf("hrtimer: callback, clock or mode not set\n");

	if (elec_dump_attrs(stub_dump_cb(attrs)) != attrs)
		bad = printf("dump: not the request's attributes\n");
	printf("dump: %s\n", last);

	w = elec_kthread_run_worker("election-timer");
	printf("worker: %s\n", last);
	if (!w->task->started || !worker_name || strcmp(worker_name, "election-timer"))
		bad = printf("worker: not started, or not named election-timer\n");

	elec_assign_str(dev, "eth0");
	printf("assign_str: %s\n", last);

	if (get_unaligned_be32(be) != 0x12345678)
		bad = printf("unaligned: wrong value\n");
	printf("unaligned: %s\n", last);

	if (crypto_memneq(be, be, 4) || !crypto_memneq(be, be + 1, 3))
		bad = printf("memneq: wrong result\n");
	printf("memneq: %s\n", last);
	return bad ? 1 : 0;
}
