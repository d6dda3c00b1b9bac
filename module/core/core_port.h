/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one portability header of the sans-IO protocol core.
 *
 * The core's .c files include only this header and core.h. In the kernel
 * (election.ko and KUnit) it maps to the kernel's own types; in userspace
 * (electsim, the core unit tests, fuzzers) to the C library's.
 */
#ifndef _ELEC_CORE_PORT_H
#define _ELEC_CORE_PORT_H

#ifdef __KERNEL__
#include <linux/build_bug.h>
#include <linux/types.h>
#include <linux/errno.h>
#include <linux/string.h>
#include <linux/stddef.h>
#else
#include <assert.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>
#include <errno.h>
#include <linux/types.h>

typedef __u8 u8;
typedef __u16 u16;
typedef __u32 u32;
typedef __u64 u64;
#ifndef U16_MAX
#define U16_MAX ((u16)~0U)
#endif
#ifndef U32_MAX
#define U32_MAX ((u32)~0U)
#endif
#ifndef U64_MAX
#define U64_MAX ((u64)~0ULL)
#endif
#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a)		(sizeof(a) / sizeof((a)[0]))
#endif

#endif /* __KERNEL__ */

#include <linux/election.h>

#endif /* _ELEC_CORE_PORT_H */
