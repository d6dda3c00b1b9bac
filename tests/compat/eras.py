#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""tests/compat/eras.py OUT: write one stub kernel tree per API era under
OUT/<era>/include/..., each with the headers module/compat.h includes,
shaped as that era's kernel has them (the text module/compat.mk greps for
included), and OUT/<era>/expect: the APIs a module built there must use,
one per line, as probe.c prints them.

The eras are the kernels where an API that election.ko uses changed after
Debian 12's 6.1 (Documentation/admin-guide.rst, "Kernel versions"); "next"
is a change proposed upstream but not released.
"""

import os
import sys

# era name -> comparable number (next: after every release)
ERAS = {"6.1": 601, "6.6": 606, "6.10": 610, "6.12": 612, "6.13": 613,
        "6.14": 614, "6.15": 615, "next": 9999}
NOFLAGS = 9999          # the kthread worker API without its flags argument


def hrtimer_h(v):
    out = ['#include "elec-stub.h"']
    if v < 615:         # hrtimer_init() is gone in 6.15
        out.append("""static inline void hrtimer_init(struct hrtimer *timer, clockid_t clock,
				enum hrtimer_mode mode)
{
	timer->clock = clock;
	timer->mode = mode;
	stub_call("hrtimer_init");
}""")
    if v >= 613:
        out.append("""static inline void hrtimer_setup(struct hrtimer *timer,
				 enum hrtimer_restart (*function)(struct hrtimer *),
				 clockid_t clock, enum hrtimer_mode mode)
{
	timer->function = function;
	timer->clock = clock;
	timer->mode = mode;
	stub_call("hrtimer_setup");
}""")
    return out


def genetlink_h(v):
    out = ['#include "elec-stub.h"']
    if v < 606:
        out.append("""struct genl_dumpit_info {
	const void *family;
	struct nlattr **attrs;
};

static inline const struct genl_dumpit_info *
genl_dumpit_info(struct netlink_callback *cb)
{
	stub_call("genl_dumpit_info");
	return cb->data;
}""")
    else:
        out.append("""struct genl_info {
	struct nlattr **attrs;
};

struct genl_dumpit_info {
	struct genl_info info;
};

static inline const struct genl_dumpit_info *
genl_dumpit_info(struct netlink_callback *cb)
{
	return cb->data;
}

static inline const struct genl_info *
genl_info_dump(struct netlink_callback *cb)
{
	stub_call("genl_info_dump");
	return &genl_dumpit_info(cb)->info;
}""")
    out.append("""static inline struct netlink_callback *stub_dump_cb(struct nlattr **attrs)
{
	static struct genl_dumpit_info info;
	static struct netlink_callback cb = { .data = &info };
""" + ("	info.attrs = attrs;" if v < 606 else "	info.info.attrs = attrs;") + """
	return &cb;
}""")
    return out


def stage6_h(v):
    out = ['#include "elec-stub.h"']
    if v >= 610:
        out.append('#define __assign_str(dst) stub_call("1 argument")')
    else:
        out.append('#define __assign_str(dst, src) ((void)(src), stub_call("2 arguments"))')
    return out


def kthread_h(v):
    out = ['#include "elec-stub.h"']
    if v < 614:
        # kthread_create_worker() creates and starts the thread
        out.append("""#define kthread_create_worker(flags, namefmt, ...) \\
	(stub_call("kthread_create_worker"), stub_worker(1, namefmt))""")
    elif v < NOFLAGS:
        out.append("""#define kthread_create_worker(flags, namefmt, ...) \\
	(stub_call("kthread_create_worker"), stub_worker(0, namefmt))
#define kthread_run_worker(flags, namefmt, ...) \\
	(stub_call("kthread_run_worker"), stub_worker(1, namefmt))""")
    else:
        out.append("""#define kthread_create_worker(namefmt, ...) \\
	(stub_call("kthread_create_worker"), stub_worker(0, namefmt))
#define kthread_run_worker(namefmt, ...) \\
	(stub_call("kthread_run_worker"), stub_worker(1, namefmt))""")
    return out


def unaligned(which):
    return ['#include "elec-stub.h"', """static inline uint32_t get_unaligned_be32(const void *p)
{
	const uint8_t *b = p;

	stub_call("%s");
	return (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3];
}""" % which]


def memneq(which):
    return ['#include "elec-stub.h"', """static inline int crypto_memneq(const void *a, const void *b, size_t n)
{
	const uint8_t *x = a, *y = b;
	uint8_t d = 0;

	stub_call("%s");
	while (n--)
		d |= *x++ ^ *y++;
	return d != 0;
}""" % which]


def files(v):
    f = {"include/linux/hrtimer.h": hrtimer_h(v),
         "include/net/genetlink.h": genetlink_h(v),
         "include/linux/netlink.h": ['#include "elec-stub.h"'],
         "include/trace/stages/stage6_event_callback.h": stage6_h(v),
         "include/linux/kthread.h": kthread_h(v)}
    if v >= 612:
        f["include/linux/unaligned.h"] = unaligned("linux/unaligned.h")
    if v < 613:         # (6.12 keeps both; 6.13 drops the asm one)
        f["include/asm/unaligned.h"] = unaligned("asm/unaligned.h")
    if v >= 606:        # crypto_memneq() moved; algapi.h no longer has it
        f["include/crypto/utils.h"] = memneq("crypto/utils.h")
        f["include/crypto/algapi.h"] = ['#include "elec-stub.h"']
    else:
        f["include/crypto/algapi.h"] = memneq("crypto/algapi.h")
    return f


def expect(v):
    return ["hrtimer: " + ("hrtimer_setup" if v >= 613 else "hrtimer_init"),
            "dump: " + ("genl_info_dump" if v >= 606 else "genl_dumpit_info"),
            "worker: " + ("kthread_run_worker" if v >= 614 else "kthread_create_worker"),
            "assign_str: " + ("1 argument" if v >= 610 else "2 arguments"),
            "unaligned: " + ("linux/unaligned.h" if v >= 612 else "asm/unaligned.h"),
            "memneq: " + ("crypto/utils.h" if v >= 606 else "crypto/algapi.h")]


def main():
    out = sys.argv[1]
    for era, v in ERAS.items():
        for path, parts in files(v).items():
            p = os.path.join(out, era, path)
            os.makedirs(os.path.dirname(p), exist_ok=True)
            guard = "_STUB_" + "".join(c if c.isalnum() else "_" for c in path.upper())
            with open(p, "w") as fh:
                fh.write("/* stub: kernel %s */\n#ifndef %s\n#define %s\n\n%s\n\n#endif\n" % (
                    era, guard, guard, "\n\n".join(parts)))
        with open(os.path.join(out, era, "expect"), "w") as fh:
            fh.write("\n".join(expect(v)) + "\n")
    print(" ".join(ERAS))


if __name__ == "__main__":
    main()
