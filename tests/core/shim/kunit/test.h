/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A small userspace stand-in for <kunit/test.h>: just what the suites in
 * kunit/ use, so the very same test files run in a plain C program (and
 * under valgrind and the sanitizers) as well as in KUnit.
 *
 * Expectations record a failure and go on; assertions also abort the test
 * case (longjmp back to the runner). Memory from kunit_kzalloc() is freed
 * when the case ends. Suites register themselves from a constructor.
 */
#ifndef ELEC_KUNIT_SHIM_H
#define ELEC_KUNIT_SHIM_H

#include <setjmp.h>
#include <stddef.h>
#include <string.h>

#define GFP_KERNEL		0
#define MODULE_LICENSE(x)
#define MODULE_DESCRIPTION(x)
#define ARRAY_SIZE(a)		(sizeof(a) / sizeof((a)[0]))
#define sizeof_field(TYPE, MEMBER)	sizeof((((TYPE *)0)->MEMBER))
#define container_of(ptr, type, member) \
	((type *)((char *)(ptr) - offsetof(type, member)))

struct shim_alloc;

struct kunit {
	const char *name;
	int failed;
	int can_abort;
	jmp_buf abort;
	struct shim_alloc *allocs;
};

struct kunit_case {
	void (*run_case)(struct kunit *test);
	const char *name;
};

struct kunit_suite {
	const char *name;
	struct kunit_case *test_cases;
};

#define KUNIT_CASE(fn)	{ .run_case = fn, .name = #fn }

void shim_register(struct kunit_suite *const *suites);
void *kunit_kzalloc(struct kunit *test, size_t size, int gfp);
void shim_fail(struct kunit *test, int is_assert, const char *file, int line,
	       const char *what, const char *fmt, ...);
void shim_fail_vals(struct kunit *test, int is_assert, const char *file,
		    int line, const char *what, __int128 l, __int128 r,
		    const char *fmt, ...);
extern unsigned long shim_checks;

#define SHIM_CAT2(a, b)	a##b
#define SHIM_CAT(a, b)	SHIM_CAT2(a, b)

#define kunit_test_suites(...)						\
	static struct kunit_suite *const SHIM_CAT(shim_suites_, __LINE__)[] = \
		{ __VA_ARGS__, NULL };					\
	__attribute__((constructor)) static void			\
	SHIM_CAT(shim_register_, __LINE__)(void)			\
	{								\
		shim_register(SHIM_CAT(shim_suites_, __LINE__));	\
	}

#define kunit_test_suite(s)	kunit_test_suites(&(s))

/* integer comparisons: exact for every mix of signed and 64-bit types */
#define SHIM_BIN(test, as, l, op, r, ...) do {				\
	__int128 shim_l_ = (__int128)(l), shim_r_ = (__int128)(r);	\
	shim_checks++;							\
	if (!(shim_l_ op shim_r_))					\
		shim_fail_vals(test, as, __FILE__, __LINE__,		\
			       #l " " #op " " #r, shim_l_, shim_r_,	\
			       __VA_ARGS__);				\
} while (0)

#define SHIM_COND(test, as, cond, what, ...) do {			\
	shim_checks++;							\
	if (!(cond))							\
		shim_fail(test, as, __FILE__, __LINE__, what, __VA_ARGS__); \
} while (0)

#define SHIM_STR(test, as, a, b, eq, ...) do {				\
	const char *shim_a_ = (a), *shim_b_ = (b);			\
	int shim_same_ = shim_a_ && shim_b_ && !strcmp(shim_a_, shim_b_); \
	SHIM_COND(test, as, shim_same_ == (eq),				\
		  (eq) ? #a " == " #b : #a " != " #b, __VA_ARGS__);	\
} while (0)

#define KUNIT_EXPECT_EQ_MSG(t, l, r, ...)	SHIM_BIN(t, 0, l, ==, r, __VA_ARGS__)
#define KUNIT_EXPECT_NE_MSG(t, l, r, ...)	SHIM_BIN(t, 0, l, !=, r, __VA_ARGS__)
#define KUNIT_EXPECT_LT_MSG(t, l, r, ...)	SHIM_BIN(t, 0, l, <, r, __VA_ARGS__)
#define KUNIT_EXPECT_LE_MSG(t, l, r, ...)	SHIM_BIN(t, 0, l, <=, r, __VA_ARGS__)
#define KUNIT_EXPECT_GT_MSG(t, l, r, ...)	SHIM_BIN(t, 0, l, >, r, __VA_ARGS__)
#define KUNIT_EXPECT_GE_MSG(t, l, r, ...)	SHIM_BIN(t, 0, l, >=, r, __VA_ARGS__)
#define KUNIT_ASSERT_EQ_MSG(t, l, r, ...)	SHIM_BIN(t, 1, l, ==, r, __VA_ARGS__)
#define KUNIT_ASSERT_NE_MSG(t, l, r, ...)	SHIM_BIN(t, 1, l, !=, r, __VA_ARGS__)
#define KUNIT_ASSERT_LT_MSG(t, l, r, ...)	SHIM_BIN(t, 1, l, <, r, __VA_ARGS__)
#define KUNIT_ASSERT_LE_MSG(t, l, r, ...)	SHIM_BIN(t, 1, l, <=, r, __VA_ARGS__)
#define KUNIT_ASSERT_GT_MSG(t, l, r, ...)	SHIM_BIN(t, 1, l, >, r, __VA_ARGS__)
#define KUNIT_ASSERT_GE_MSG(t, l, r, ...)	SHIM_BIN(t, 1, l, >=, r, __VA_ARGS__)

#define KUNIT_EXPECT_EQ(t, l, r)	KUNIT_EXPECT_EQ_MSG(t, l, r, NULL)
#define KUNIT_EXPECT_NE(t, l, r)	KUNIT_EXPECT_NE_MSG(t, l, r, NULL)
#define KUNIT_EXPECT_LT(t, l, r)	KUNIT_EXPECT_LT_MSG(t, l, r, NULL)
#define KUNIT_EXPECT_LE(t, l, r)	KUNIT_EXPECT_LE_MSG(t, l, r, NULL)
#define KUNIT_EXPECT_GT(t, l, r)	KUNIT_EXPECT_GT_MSG(t, l, r, NULL)
#define KUNIT_EXPECT_GE(t, l, r)	KUNIT_EXPECT_GE_MSG(t, l, r, NULL)
#define KUNIT_ASSERT_EQ(t, l, r)	KUNIT_ASSERT_EQ_MSG(t, l, r, NULL)
#define KUNIT_ASSERT_NE(t, l, r)	KUNIT_ASSERT_NE_MSG(t, l, r, NULL)
#define KUNIT_ASSERT_LT(t, l, r)	KUNIT_ASSERT_LT_MSG(t, l, r, NULL)
#define KUNIT_ASSERT_LE(t, l, r)	KUNIT_ASSERT_LE_MSG(t, l, r, NULL)
#define KUNIT_ASSERT_GT(t, l, r)	KUNIT_ASSERT_GT_MSG(t, l, r, NULL)
#define KUNIT_ASSERT_GE(t, l, r)	KUNIT_ASSERT_GE_MSG(t, l, r, NULL)

#define KUNIT_EXPECT_TRUE_MSG(t, c, ...)	\
	SHIM_COND(t, 0, !!(c), #c, __VA_ARGS__)
#define KUNIT_EXPECT_FALSE_MSG(t, c, ...)	\
	SHIM_COND(t, 0, !(c), "!(" #c ")", __VA_ARGS__)
#define KUNIT_ASSERT_TRUE_MSG(t, c, ...)	\
	SHIM_COND(t, 1, !!(c), #c, __VA_ARGS__)
#define KUNIT_ASSERT_FALSE_MSG(t, c, ...)	\
	SHIM_COND(t, 1, !(c), "!(" #c ")", __VA_ARGS__)
#define KUNIT_EXPECT_TRUE(t, c)		KUNIT_EXPECT_TRUE_MSG(t, c, NULL)
#define KUNIT_EXPECT_FALSE(t, c)	KUNIT_EXPECT_FALSE_MSG(t, c, NULL)
#define KUNIT_ASSERT_TRUE(t, c)		KUNIT_ASSERT_TRUE_MSG(t, c, NULL)
#define KUNIT_ASSERT_FALSE(t, c)	KUNIT_ASSERT_FALSE_MSG(t, c, NULL)

#define KUNIT_EXPECT_NULL(t, p)		\
	SHIM_COND(t, 0, (const void *)(p) == NULL, #p " == NULL", NULL)
#define KUNIT_EXPECT_NOT_NULL(t, p)	\
	SHIM_COND(t, 0, (const void *)(p) != NULL, #p " != NULL", NULL)
#define KUNIT_EXPECT_NOT_NULL_MSG(t, p, ...)	\
	SHIM_COND(t, 0, (const void *)(p) != NULL, #p " != NULL", __VA_ARGS__)
#define KUNIT_ASSERT_NULL(t, p)		\
	SHIM_COND(t, 1, (const void *)(p) == NULL, #p " == NULL", NULL)
#define KUNIT_ASSERT_NOT_NULL(t, p)	\
	SHIM_COND(t, 1, (const void *)(p) != NULL, #p " != NULL", NULL)
#define KUNIT_EXPECT_PTR_EQ(t, a, b)	\
	SHIM_COND(t, 0, (const void *)(a) == (const void *)(b),	\
		  #a " == " #b, NULL)
#define KUNIT_EXPECT_PTR_NE(t, a, b)	\
	SHIM_COND(t, 0, (const void *)(a) != (const void *)(b),	\
		  #a " != " #b, NULL)

#define KUNIT_EXPECT_STREQ(t, a, b)	SHIM_STR(t, 0, a, b, 1, NULL)
#define KUNIT_EXPECT_STRNEQ(t, a, b)	SHIM_STR(t, 0, a, b, 0, NULL)
#define KUNIT_ASSERT_STREQ(t, a, b)	SHIM_STR(t, 1, a, b, 1, NULL)

#define KUNIT_FAIL(t, ...)	\
	shim_fail(t, 0, __FILE__, __LINE__, "KUNIT_FAIL", __VA_ARGS__)

#endif /* ELEC_KUNIT_SHIM_H */
