/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tests/compat: what every stub kernel header shares. The stubs are just
 * enough kernel API for module/compat.h and probe.c to compile in user
 * space; each API a stub offers records its name with stub_call(), so
 * probe.c can print which one compat.h used.
 */
#ifndef _ELEC_STUB_H
#define _ELEC_STUB_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>

void stub_call(const char *what);

enum hrtimer_mode { HRTIMER_MODE_REL_SOFT = 0x06 };
enum hrtimer_restart { HRTIMER_NORESTART, HRTIMER_RESTART };
struct hrtimer {
	enum hrtimer_restart (*function)(struct hrtimer *timer);
	clockid_t clock;
	enum hrtimer_mode mode;
};

struct nlattr {
	uint16_t nla_len;
	uint16_t nla_type;
};

struct netlink_callback {
	void *data;
};

struct task_struct {
	int started;
};

struct kthread_worker {
	struct task_struct *task;
};

struct kthread_worker *stub_worker(int started, const char *name);

#endif
