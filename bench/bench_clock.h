// SPDX-License-Identifier: MIT
// Shared by the benchmark programs: the two clocks and medians (libc only, no library internals).
#ifndef RD_BENCH_CLOCK_H
#define RD_BENCH_CLOCK_H

// monotonic clock, seconds
double bench_now(void);

// the process's CPU time, seconds (for a machine shared with other jobs; single-threaded runs)
double bench_cpu(void);

// median of v (n >= 1; v is sorted in place)
double bench_median(double* v, int n);

#endif  // RD_BENCH_CLOCK_H
