# SPDX-License-Identifier: GPL-2.0
#
# Kernel API probes for module/compat.h, included by module/Kbuild (and by
# tests/compat/flags.mk, which runs them against stub headers of each API
# era). Each greps the headers of the kernel we build against, $(srctree),
# for a feature rather than comparing versions (stable kernels backport,
# distributions patch), and adds -DELEC_HAVE_<feature> to ccflags-y.
# Documentation/admin-guide.rst ("Kernel versions") lists them with the
# first kernel of each change.

# $(call elec_probe,REGEX,HEADER,MACRO)
elec_probe = $(shell grep -qsE '$(1)' $(srctree)/$(2) && echo -D$(3))
# a literal "(" in a REGEX (make would count a bare one as a parenthesis)
elec_lparen := [(]
# $(call elec_probe_file,HEADER,MACRO)
elec_probe_file = $(if $(wildcard $(srctree)/$(1)),-D$(2))

# 6.13: hrtimer_setup(); hrtimer_init() is gone in 6.15
ccflags-y += $(call elec_probe,\bhrtimer_setup\b,include/linux/hrtimer.h,ELEC_HAVE_HRTIMER_SETUP)
# 6.6: a dump's request is a struct genl_info (genl_info_dump())
ccflags-y += $(call elec_probe,\bgenl_info_dump\b,include/net/genetlink.h,ELEC_HAVE_GENL_INFO_DUMP)
# 6.10: __assign_str(dst), the source named by __string() only
ccflags-y += $(call elec_probe,define __assign_str\(dst\),include/trace/stages/stage6_event_callback.h,ELEC_HAVE_ASSIGN_STR_1)
# 6.12: <linux/unaligned.h> (was <asm/unaligned.h>)
ccflags-y += $(call elec_probe_file,include/linux/unaligned.h,ELEC_HAVE_LINUX_UNALIGNED_H)
# 6.14: kthread_run_worker(); kthread_create_worker() no longer starts it
ccflags-y += $(call elec_probe,define kthread_run_worker$(elec_lparen),include/linux/kthread.h,ELEC_HAVE_KTHREAD_RUN_WORKER)
# later (proposed 2026): the worker API loses its flags argument
ccflags-y += $(call elec_probe,define kthread_run_worker$(elec_lparen)namefmt,include/linux/kthread.h,ELEC_HAVE_KTHREAD_WORKER_NOFLAGS)
# after 6.1: crypto_memneq() in <crypto/utils.h> (was <crypto/algapi.h>)
ccflags-y += $(call elec_probe_file,include/crypto/utils.h,ELEC_HAVE_CRYPTO_UTILS_H)
