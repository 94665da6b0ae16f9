// SPDX-License-Identifier: MIT
// Phase timings of a Newton iteration for the benchmark programs (bench_phases.h).
#include "bench_phases.h"

#include <stdlib.h>
#include <string.h>

#include "solver/assemble.h"
#include "solver/linsol.h"
#include "solver/pattern.h"
#include "src/model/data_impl.h"

static int g_cpu_clock = 0;


void bench_setPhaseClock(int cpu) {
  g_cpu_clock = cpu;
}


// the clock of the phases, seconds
static double phase_now(void) {
  return g_cpu_clock ? bench_cpu() : bench_now();
}


void bench_phases(const rdModel* m, rdData* d, int samples, benchPhases* out) {
  memset(out, 0, sizeof(*out));
  int N = m->ndof + m->nconstraint;
  double* res = malloc(sizeof(double) * (size_t)N);
  double* rhs = malloc(sizeof(double) * (size_t)N);
  double* Ax = malloc(sizeof(double) * (size_t)m->pattern->nnz);
  double* psi = calloc(3 * (size_t)m->nnode, sizeof(double));
  double* ta = malloc(3 * sizeof(double) * (size_t)samples);
  rdAsmCoef c = {.cM = 1, .cC = 1e-3, .cK = 1e-6, .psi = psi};
  // a solver of our own on the model's pattern (the data's belongs to the stepper), factored
  // once, so that the timed calls are what a step does: refactorizations
  rdLinSol* ls = NULL;
  if (!res || !rhs || !Ax || !psi || !ta ||
      rd_linsolCreate(m->ctx, m->opt.linear_solver, N, m->pattern->Ap, m->pattern->Ai, &ls)) {
    goto done;
  }
  double* tf = ta + samples;
  double* ts = tf + samples;
  rd_assemble(m, d, d->s.t, d->s.q, d->s.v, d->s.vd, d->s.lambda, &c, res, NULL, Ax);
  rd_linsolFactor(ls, Ax);
  int reps = N < 2000 ? 20 : 1;  // calls per sample for the small systems
  for (int k = 0; k < samples; k++) {
    double t0 = phase_now();
    for (int i = 0; i < reps; i++) {
      rd_assemble(m, d, d->s.t, d->s.q, d->s.v, d->s.vd, d->s.lambda, &c, res, NULL, Ax);
    }
    double t1 = phase_now();
    for (int i = 0; i < reps; i++) {
      rd_linsolFactor(ls, Ax);
    }
    double t2 = phase_now();
    for (int i = 0; i < reps; i++) {
      memcpy(rhs, res, sizeof(double) * (size_t)N);
      rd_linsolSolve(ls, rhs);
    }
    double t3 = phase_now();
    ta[k] = 1e6 * (t1 - t0) / reps;
    tf[k] = 1e6 * (t2 - t1) / reps;
    ts[k] = 1e6 * (t3 - t2) / reps;
  }
  out->assemble = bench_median(ta, samples);
  out->factor = bench_median(tf, samples);
  out->solve = bench_median(ts, samples);
done:
  rd_linsolDestroy(&ls);
  free(res);
  free(rhs);
  free(Ax);
  free(psi);
  free(ta);
}
