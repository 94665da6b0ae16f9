// SPDX-License-Identifier: MIT
// Clocks and medians for the benchmark programs (bench_clock.h).
#include "bench_clock.h"

#include <stdlib.h>
#include <time.h>

static double seconds(clockid_t clock) {
  struct timespec ts;
  clock_gettime(clock, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}


double bench_now(void) {
  return seconds(CLOCK_MONOTONIC);
}


double bench_cpu(void) {
  return seconds(CLOCK_PROCESS_CPUTIME_ID);
}


static int dcmp(const void* a, const void* b) {
  double x = *(const double*)a, y = *(const double*)b;
  return (x > y) - (x < y);
}


double bench_median(double* v, int n) {
  qsort(v, (size_t)n, sizeof(double), dcmp);
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}
