// SPDX-License-Identifier: GPL-2.0
/*
 * Userspace runner for the protocol core's tests: the KUnit suites in
 * kunit/ (through the shim in shim/kunit/test.h) plus the userspace-only
 * suites of this directory. Prints one line per failed check, one line per
 * suite, and finally "N passed, M failed" (test cases); exits 1 if any
 * case failed.
 *
 * Usage: core-tests [-v] [SUITE_OR_CASE_SUBSTRING]
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <kunit/test.h>

#define SHIM_MAX_GROUPS 32

struct shim_alloc {
	struct shim_alloc *next;
	/* the caller's memory follows, max-aligned */
	long double pad[];
};

static struct kunit_suite *const *shim_groups[SHIM_MAX_GROUPS];
static int shim_n_groups;
static int shim_verbose;
static int shim_quiet;
unsigned long shim_checks;

void shim_register(struct kunit_suite *const *suites)
{
	if (shim_n_groups >= SHIM_MAX_GROUPS) {
		fprintf(stderr, "too many kunit_test_suites()\n");
		exit(2);
	}
	shim_groups[shim_n_groups++] = suites;
}

void *kunit_kzalloc(struct kunit *test, size_t size, int gfp)
{
	struct shim_alloc *a = calloc(1, sizeof(*a) + size);

	(void)gfp;
	if (!a)
		return NULL;
	a->next = test->allocs;
	test->allocs = a;
	return a->pad;
}

static void shim_free_all(struct kunit *test)
{
	while (test->allocs) {
		struct shim_alloc *a = test->allocs;

		test->allocs = a->next;
		free(a);
	}
}

static void shim_vmsg(const char *fmt, va_list ap)
{
	if (!fmt)
		return;
	fputs(" (", stdout);
	vprintf(fmt, ap);
	fputs(")", stdout);
}

static void shim_abort(struct kunit *test, int is_assert)
{
	test->failed = 1;
	if (is_assert && test->can_abort)
		longjmp(test->abort, 1);
}

void shim_fail(struct kunit *test, int is_assert, const char *file, int line,
	       const char *what, const char *fmt, ...)
{
	va_list ap;

	if (!shim_quiet) {
		printf("    FAIL %s: %s:%d: %s", test->name, file, line, what);
		va_start(ap, fmt);
		shim_vmsg(fmt, ap);
		va_end(ap);
		putchar('\n');
	}
	shim_abort(test, is_assert);
}

static void shim_print_val(__int128 v)
{
	if (v < 0)
		printf("%lld", (long long)v);
	else
		printf("%llu", (unsigned long long)v);
}

void shim_fail_vals(struct kunit *test, int is_assert, const char *file,
		    int line, const char *what, __int128 l, __int128 r,
		    const char *fmt, ...)
{
	va_list ap;

	if (!shim_quiet) {
		printf("    FAIL %s: %s:%d: expected %s, got ", test->name,
		       file, line, what);
		shim_print_val(l);
		fputs(" vs ", stdout);
		shim_print_val(r);
		va_start(ap, fmt);
		shim_vmsg(fmt, ap);
		va_end(ap);
		putchar('\n');
	}
	shim_abort(test, is_assert);
}

/* runs one case; returns 1 if it passed */
static int shim_run_case(struct kunit_case *c)
{
	/* volatile: survives the longjmp of a failed assertion */
	struct kunit *volatile test = calloc(1, sizeof(*test));
	int ok;

	if (!test) {
		fprintf(stderr, "out of memory\n");
		exit(2);
	}
	test->name = c->name;
	test->can_abort = 1;
	if (!setjmp(test->abort))
		c->run_case(test);
	ok = !test->failed;
	shim_free_all(test);
	free(test);
	return ok;
}

/* ---- self-test of the shim: a failing check must fail its case ------- */

static void shim_demo_fail_expect(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, 1 + 1, 3);
}

static void shim_demo_fail_assert(struct kunit *test)
{
	KUNIT_ASSERT_TRUE(test, 0);
	KUNIT_FAIL(test, "not reached");	/* the assertion aborted */
}

static void shim_demo_u64(struct kunit *test)
{
	/* 2^64 - 1 must not compare equal to -1 */
	KUNIT_EXPECT_EQ(test, (unsigned long long)~0ULL, -1);
}

static void shim_demo_pass(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, (unsigned long long)~0ULL, ~0ULL);
	KUNIT_EXPECT_STREQ(test, "a", "a");
}

static void shim_self_test(struct kunit *test)
{
	struct kunit_case bad[] = {
		KUNIT_CASE(shim_demo_fail_expect),
		KUNIT_CASE(shim_demo_fail_assert),
		KUNIT_CASE(shim_demo_u64),
	};
	struct kunit_case good = KUNIT_CASE(shim_demo_pass);
	size_t i;
	int ok;

	shim_quiet = 1;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		ok = shim_run_case(&bad[i]);
		KUNIT_EXPECT_EQ_MSG(test, ok, 0, "%s", bad[i].name);
	}
	ok = shim_run_case(&good);
	shim_quiet = 0;
	KUNIT_EXPECT_EQ(test, ok, 1);
}

static struct kunit_case shim_cases[] = {
	KUNIT_CASE(shim_self_test),
	{}
};

static struct kunit_suite shim_suite = {
	.name = "shim",
	.test_cases = shim_cases,
};

kunit_test_suites(&shim_suite);

/* ---- main ------------------------------------------------------------ */

static int shim_selected(const char *suite, const char *name,
			 const char *filter)
{
	return !filter || strstr(suite, filter) || strstr(name, filter);
}

int main(int argc, char **argv)
{
	const char *filter = NULL;
	unsigned long passed = 0, failed = 0;
	int g, i, arg;

	setvbuf(stdout, NULL, _IOLBF, 0);
	for (arg = 1; arg < argc; arg++) {
		if (!strcmp(argv[arg], "-v"))
			shim_verbose = 1;
		else
			filter = argv[arg];
	}
	for (g = 0; g < shim_n_groups; g++) {
		struct kunit_suite *const *s;

		for (s = shim_groups[g]; *s; s++) {
			unsigned long sp = 0, sf = 0;
			struct kunit_case *c;

			for (c = (*s)->test_cases; c->run_case; c++) {
				if (!shim_selected((*s)->name, c->name, filter))
					continue;
				if (shim_run_case(c)) {
					sp++;
					if (shim_verbose)
						printf("  ok %s.%s\n",
						       (*s)->name, c->name);
				} else {
					sf++;
					printf("  not ok %s.%s\n",
					       (*s)->name, c->name);
				}
			}
			if (sp + sf)
				printf("suite %s: %lu passed, %lu failed\n",
				       (*s)->name, sp, sf);
			passed += sp;
			failed += sf;
		}
	}
	i = failed || !passed;
	printf("%lu checks evaluated\n", shim_checks);
	printf("%lu passed, %lu failed\n", passed, failed);
	return i;
}
