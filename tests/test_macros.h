// SPDX-License-Identifier: MIT
// The harness of every test program (header-only: one program is one translation unit).
//
//   CHECK(cond)                         CHECK_MSG(cond, fmt, ...)
//   CHECK_NEAR(a, b, tol)               CHECK_NEAR_MSG(a, b, tol, fmt, ...)    |a - b| <= tol
//   CHECK_REL(a, b, rtol)               CHECK_REL_MSG(a, b, rtol, fmt, ...)    |a - b| <= rtol |b|
//   test_close(a, b, rtol, atol)        |a - b| <= atol + rtol |b|, for compound conditions
//   TEST_INIT(argc, argv)               takes the harness's options out of argv (exit 2: bad)
//   TEST_CASE(fn(args))                 runs fn(args) unless the command line names other cases
//   TEST_SUMMARY()                      prints "N passed, M failed"; the exit status, 0 if none
//
// A failed check prints "FAIL file:line (case): expression: message" and, for the comparisons,
// both values and the difference; a NaN never passes. Options of every program (after
// TEST_INIT): `--case NAME` (repeatable) runs only the cases of that function name, with or
// without its "test_" prefix; a name that matches no case is a failure. Code outside TEST_CASE
// always runs.
#ifndef RD_TEST_MACROS_H
#define RD_TEST_MACROS_H

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__GNUC__)
#define TEST_PRINTF_(f, a) __attribute__((format(printf, f, a)))
#else
#define TEST_PRINTF_(f, a)
#endif

enum { TEST_MAX_SELECTED_ = 32 };

static int test_passed_ = 0;
static int test_failed_ = 0;
static const char* test_case_ = NULL;  // the case running, for the FAIL lines
static const char* test_selected_[TEST_MAX_SELECTED_];
static int test_selected_ran_[TEST_MAX_SELECTED_];
static int test_nselected_ = 0;


// counts a check; on failure prints its place, the case and the expression (no newline)
static inline int test_record_(int ok, const char* file, int line, const char* expr) {
  if (ok) {
    test_passed_++;
    return 1;
  }
  test_failed_++;
  printf("FAIL %s:%d", file, line);
  if (test_case_) {
    printf(" (%s)", test_case_);
  }
  printf(": %s", expr);
  return 0;
}


static inline void test_check_(int ok, const char* file, int line, const char* expr) {
  if (!test_record_(ok, file, line, expr)) {
    printf("\n");
  }
}


TEST_PRINTF_(5, 6)
static inline void test_checkf_(int ok, const char* file, int line, const char* expr,
                                const char* fmt, ...) {
  if (!test_record_(ok, file, line, expr)) {
    va_list ap;
    va_start(ap, fmt);
    printf(": ");
    vprintf(fmt, ap);
    va_end(ap);
    printf("\n");
  }
}


// |a - b| <= bound, the bound absolute (rel = 0) or relative to |b| (rel = 1); fmt may be NULL
static inline void test_near_(double a, double b, double tol, int rel, const char* file, int line,
                              const char* expr, const char* fmt, va_list* ap) {
  double bound = rel ? tol * fabs(b) : tol, err = fabs(a - b);
  if (!test_record_(err <= bound, file, line, expr)) {
    printf(": %.17g vs %.17g, difference %.3e > %.3e", a, b, err, bound);
    if (fmt) {
      printf(": ");
      vprintf(fmt, *ap);
    }
    printf("\n");
  }
}


static inline void test_checkNear_(double a, double b, double tol, int rel, const char* file,
                                   int line, const char* expr) {
  test_near_(a, b, tol, rel, file, line, expr, NULL, NULL);
}


TEST_PRINTF_(8, 9)
static inline void test_checkNearf_(double a, double b, double tol, int rel, const char* file,
                                    int line, const char* expr, const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  test_near_(a, b, tol, rel, file, line, expr, fmt, &ap);
  va_end(ap);
}


// |a - b| <= atol + rtol |b| (false for a NaN)
static inline int test_close(double a, double b, double rtol, double atol) {
  return fabs(a - b) <= atol + rtol * fabs(b);
}


#define CHECK(cond) test_check_((cond) ? 1 : 0, __FILE__, __LINE__, #cond)
#define CHECK_MSG(cond, ...) test_checkf_((cond) ? 1 : 0, __FILE__, __LINE__, #cond, __VA_ARGS__)
#define CHECK_NEAR(a, b, tol) \
  test_checkNear_((a), (b), (tol), 0, __FILE__, __LINE__, "|" #a " - " #b "| <= " #tol)
#define CHECK_NEAR_MSG(a, b, tol, ...)                                                   \
  test_checkNearf_((a), (b), (tol), 0, __FILE__, __LINE__, "|" #a " - " #b "| <= " #tol, \
                   __VA_ARGS__)
#define CHECK_REL(a, b, rtol)                              \
  test_checkNear_((a), (b), (rtol), 1, __FILE__, __LINE__, \
                  "|" #a " - " #b "| <= " #rtol " |" #b "|")
#define CHECK_REL_MSG(a, b, rtol, ...)                      \
  test_checkNearf_((a), (b), (rtol), 1, __FILE__, __LINE__, \
                   "|" #a " - " #b "| <= " #rtol " |" #b "|", __VA_ARGS__)


// removes --case NAME and --case=NAME from argv (argc updated); exits with status 2 on a bad
// option
static inline void test_init_(int* argc, char** argv) {
  int k = 1;
  for (int i = 1; i < *argc; i++) {
    const char* name = NULL;
    if (!strcmp(argv[i], "--case") && i + 1 < *argc) {
      name = argv[++i];
    } else if (!strncmp(argv[i], "--case=", 7)) {
      name = argv[i] + 7;
    } else if (!strcmp(argv[i], "--case")) {
      printf("--case needs a name\n");
      exit(2);
    } else {
      argv[k++] = argv[i];
      continue;
    }
    if (test_nselected_ == TEST_MAX_SELECTED_) {
      printf("more than %d cases named\n", TEST_MAX_SELECTED_);
      exit(2);
    }
    test_selected_[test_nselected_++] = name;
  }
  *argc = k;
  argv[k] = NULL;
}


// whether the case called as `call` (its source text) runs; sets the current case name
static inline int test_begin_(const char* call) {
  static char name[128];
  size_t n = strcspn(call, "( ");
  snprintf(name, sizeof(name), "%.*s", (int)n, call);
  test_case_ = name;
  if (!test_nselected_) {
    return 1;
  }
  int run = 0;
  for (int i = 0; i < test_nselected_; i++) {
    const char* s = test_selected_[i];
    if (!strcmp(s, name) || (!strncmp(name, "test_", 5) && !strcmp(s, name + 5))) {
      test_selected_ran_[i] = run = 1;
    }
  }
  return run;
}


// every named case must have run
static inline int test_summary_(void) {
  for (int i = 0; i < test_nselected_; i++) {
    if (!test_selected_ran_[i]) {
      printf("FAIL: no case named '%s'\n", test_selected_[i]);
      test_failed_++;
    }
  }
  printf("%d passed, %d failed\n", test_passed_, test_failed_);
  return test_failed_ ? 1 : 0;
}


#define TEST_INIT(argc, argv) test_init_(&(argc), (argv))
#define TEST_CASE(call)       \
  do {                        \
    if (test_begin_(#call)) { \
      call;                   \
    }                         \
    test_case_ = NULL;        \
  } while (0)
#define TEST_SUMMARY() test_summary_()

#endif  // RD_TEST_MACROS_H
