// SPDX-License-Identifier: MIT
// Shared by the benchmark programs: the phases of one Newton iteration of an implicit stepper
// (assembly, factorization, solve) timed in isolation at a data's state. Uses the internal headers
// (the phases are not part of the public API).
#ifndef RD_BENCH_PHASES_H
#define RD_BENCH_PHASES_H

#include "bench_clock.h"
#include "rodrigues/rodrigues.h"

// median microseconds of one call of each phase, at the data's current state and with the
// model's linear solver: rd_assemble of the residual and the matrix (cM = 1, cC = 1e-3,
// cK = 1e-6, zero rotation increments), rd_linsolFactor on a solver of the bench's own that was
// factored once (so KLU refactors, as in a step) and rd_linsolSolve. `samples` samples, each
// averaging several calls for small systems.
typedef struct {
  double assemble, factor, solve;
} benchPhases;

void bench_phases(const rdModel* m, rdData* d, int samples, benchPhases* out);

// the clock of bench_phases: 0 wall (monotonic, the default), 1 the process's CPU time (for a
// machine shared with other jobs; single-threaded runs only)
void bench_setPhaseClock(int cpu);

#endif  // RD_BENCH_PHASES_H
