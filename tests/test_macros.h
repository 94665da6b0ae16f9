// SPDX-License-Identifier: MIT
// Minimal test harness: CHECK / CHECK_NEAR record failures; TEST_SUMMARY prints
// "N passed, M failed" and yields the exit status.
#ifndef RD_TEST_MACROS_H
#define RD_TEST_MACROS_H

#include <math.h>
#include <stdio.h>

static int test_passed_ = 0;
static int test_failed_ = 0;

#define CHECK(cond)                                                   \
  do {                                                                \
    if (cond) {                                                       \
      test_passed_++;                                                 \
    } else {                                                          \
      test_failed_++;                                                 \
      printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond);          \
    }                                                                 \
  } while (0)

#define CHECK_MSG(cond, ...)                                          \
  do {                                                                \
    if (cond) {                                                       \
      test_passed_++;                                                 \
    } else {                                                          \
      test_failed_++;                                                 \
      printf("FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond);          \
      printf(__VA_ARGS__);                                            \
      printf("\n");                                                   \
    }                                                                 \
  } while (0)

#define CHECK_NEAR(a, b, tol)                                                          \
  do {                                                                                 \
    double a_ = (a), b_ = (b);                                                         \
    if (fabs(a_ - b_) <= (tol)) {                                                      \
      test_passed_++;                                                                  \
    } else {                                                                           \
      test_failed_++;                                                                  \
      printf("FAIL %s:%d: |%s - %s| = %.3e > %.3e (%.17g vs %.17g)\n", __FILE__,      \
             __LINE__, #a, #b, fabs(a_ - b_), (double)(tol), a_, b_);                  \
    }                                                                                  \
  } while (0)

#define TEST_SUMMARY()                                              \
  (printf("%d passed, %d failed\n", test_passed_, test_failed_),    \
   test_failed_ ? 1 : 0)

#endif  // RD_TEST_MACROS_H
