/*
 * A minimal unit-test harness: each test is a function; CHECK* record
 * failures with file:line and the failing expression; RUN_TEST runs one test
 * and counts it as passed when none of its checks failed. check_summary()
 * prints "N passed, N failed" and returns the process exit status.
 */
#ifndef CHECK_H
#define CHECK_H

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

static int check_tests_passed, check_tests_failed, check_failures_in_test;

#define CHECK(cond)                                                             \
	do {                                                                    \
		if (!(cond)) {                                                  \
			check_failures_in_test++;                               \
			fprintf(stderr, "%s:%d: CHECK(%s) failed\n", __FILE__,   \
			        __LINE__, #cond);                               \
		}                                                               \
	} while (0)

#define CHECK_EQ(want, got)                                                     \
	do {                                                                    \
		long long w_ = (long long)(want), g_ = (long long)(got);        \
		if (w_ != g_) {                                                 \
			check_failures_in_test++;                               \
			fprintf(stderr, "%s:%d: %s == %s: want %lld, got %lld\n", \
			        __FILE__, __LINE__, #want, #got, w_, g_);       \
		}                                                               \
	} while (0)

#define CHECK_STR(want, got)                                                    \
	do {                                                                    \
		const char *w_ = (want), *g_ = (got);                           \
		if (!g_ || strcmp(w_, g_) != 0) {                               \
			check_failures_in_test++;                               \
			fprintf(stderr, "%s:%d: %s:\n  want \"%s\"\n  got  \"%s\"\n", \
			        __FILE__, __LINE__, #got, w_, g_ ? g_ : "(null)"); \
		}                                                               \
	} while (0)

#define RUN_TEST(fn)                                                            \
	do {                                                                    \
		check_failures_in_test = 0;                                     \
		fn();                                                           \
		if (check_failures_in_test) {                                   \
			check_tests_failed++;                                   \
			fprintf(stderr, "FAIL: %s (%d checks failed)\n", #fn,    \
			        check_failures_in_test);                        \
		} else {                                                        \
			check_tests_passed++;                                   \
		}                                                               \
	} while (0)

static inline int
check_summary(void)
{
	printf("%d passed, %d failed\n", check_tests_passed, check_tests_failed);
	return check_tests_failed ? 1 : 0;
}

#endif
