/* SPDX-License-Identifier: GPL-2.0 */
/*
 * election.ko: the one header for differences between kernel versions.
 *
 * Features are probed, not versions: module/compat.mk (included by
 * module/Kbuild) greps the kernel's headers and defines ELEC_HAVE_*
 * (stable kernels backport APIs; sparse lacks __has_include(), so moved
 * headers are probed there too). The module is written for the oldest
 * supported API (Debian 12's 6.1) and maps newer ones here. tests/compat
 * builds this header against stub headers of each API era and checks the
 * branch taken; Documentation/admin-guide.rst lists the changes with the
 * first kernel of each.
 *
 * Differences that need nothing here:
 *  - genl_split_ops (6.2): we register struct genl_ops with per-op
 *    .policy/.maxattr, which 6.1 requires and newer kernels still accept.
 *  - from_timer() / timer_container_of() (6.16): we use no timer_list;
 *    hrtimer callbacks use container_of().
 *  - netdev_hold()/netdev_put() with a netdevice_tracker (6.0, renamed
 *    from dev_hold_track()): 6.1 has them.
 */
#ifndef _ELEC_COMPAT_H
#define _ELEC_COMPAT_H

#include <linux/hrtimer.h>
#include <linux/kthread.h>
#include <linux/netlink.h>
#include <net/genetlink.h>

/* crypto_memneq() moved from <crypto/algapi.h> to <crypto/utils.h>. */
#ifdef ELEC_HAVE_CRYPTO_UTILS_H
#include <crypto/utils.h>
#else
#include <crypto/algapi.h>
#endif

/*
 * In a tracepoint's TP_fast_assign(): __assign_str() takes only the field
 * since 6.10 (the source is the one __string() names).
 */
#ifdef ELEC_HAVE_ASSIGN_STR_1
#define elec_assign_str(dst, src)	__assign_str(dst)
#else
#define elec_assign_str(dst, src)	__assign_str(dst, src)
#endif

/* <asm/unaligned.h> moved to <linux/unaligned.h> in 6.12. */
#ifdef ELEC_HAVE_LINUX_UNALIGNED_H
#include <linux/unaligned.h>
#else
#include <asm/unaligned.h>
#endif

/**
 * elec_hrtimer_setup() - initialise an hrtimer and set its callback.
 * @timer: the timer
 * @fn: its callback
 * @clock: clock id
 * @mode: timer mode
 *
 * hrtimer_setup() (6.13) replaced hrtimer_init() followed by setting
 * ->function; hrtimer_init() was removed in 6.15.
 */
static inline void
elec_hrtimer_setup(struct hrtimer *timer,
		   enum hrtimer_restart (*fn)(struct hrtimer *),
		   clockid_t clock, enum hrtimer_mode mode)
{
#ifdef ELEC_HAVE_HRTIMER_SETUP
	hrtimer_setup(timer, fn, clock, mode);
#else
	hrtimer_init(timer, clock, mode);
	timer->function = fn;
#endif
}

/**
 * elec_dump_attrs() - the parsed request attributes of a dump.
 * @cb: netlink dump callback
 *
 * Newer kernels embed a struct genl_info in struct genl_dumpit_info and
 * read it with genl_info_dump(); 6.1 keeps the attribute table directly.
 *
 * Return: the attribute table (entries may be NULL), or NULL.
 */
static inline struct nlattr **elec_dump_attrs(struct netlink_callback *cb)
{
#ifdef ELEC_HAVE_GENL_INFO_DUMP
	return genl_info_dump(cb)->attrs;
#else
	return genl_dumpit_info(cb)->attrs;
#endif
}

/*
 * elec_kthread_run_worker(name): a kthread worker whose thread is started.
 * 6.14 added kthread_run_worker() and made kthread_create_worker() leave
 * the thread stopped until the first work is queued; a later kernel drops
 * the flags argument of both.
 */
#if defined(ELEC_HAVE_KTHREAD_WORKER_NOFLAGS)
#define elec_kthread_run_worker(name)	kthread_run_worker(name)
#elif defined(ELEC_HAVE_KTHREAD_RUN_WORKER)
#define elec_kthread_run_worker(name)	kthread_run_worker(0, name)
#else
#define elec_kthread_run_worker(name)	kthread_create_worker(0, name)
#endif

#endif /* _ELEC_COMPAT_H */
