// SPDX-License-Identifier: MIT
// Modified Newton (solver.modified_newton) keeps the factorization across Newton iterations and
// steps: the same solution as full Newton to the Newton tolerance, with far fewer
// factorizations; a new step size refactors. Heavy top (every backend, index 3 and stabilized)
// and a revolute chain.
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "src/model/data_impl.h"
#include "tests/support/models.h"
#include "tests/test_macros.h"

// a chain of n unit rods hanging along -z, revolute joints about y, swinging at 0.5 rad/s
static rdSpec* chain_spec(rdContext* ctx, int n, double h) {
  rdSpec* s = model_chain(ctx, n, 0);
  rds_setOption(s, "solver.method", "generalized_alpha");
  rds_setOptionReal(s, "solver.rho_inf", 0.9);
  rds_setOptionReal(s, "solver.time_step", h);
  return s;
}


// the default Newton tolerances
#define ATOL 1e-8
#define RTOL 1e-6


typedef struct {
  const char* model;  // "top" or "chain"
  const char* linsol;
  const char* formulation;
  int modified;
  double tol_scale;  // atol and rtol times this (1: the model's)
} runSpec;


// run to tend; the final node states (13 per node) into x, the statistics into st
static int run(const runSpec* r, double tend, double* x, int nx, rdStats* st) {
  rdContext* ctx = NULL;
  rd_createContext(&ctx, NULL);
  int top = !strcmp(r->model, "top");
  rdSpec* s = top ? model_heavyTopAlpha(ctx, 0.9, 2e-4, r->linsol) : chain_spec(ctx, 20, 1e-3);
  if (!top && r->linsol) {
    rds_setOption(s, "solver.linear_solver", r->linsol);
  }
  rds_setOptionReal(s, "solver.atol", ATOL * r->tol_scale);
  rds_setOptionReal(s, "solver.rtol", RTOL * r->tol_scale);
  rds_setOptionReal(s, "solver.max_iter", 30);
  rds_setOption(s, "solver.formulation", r->formulation);
  rds_setOption(s, "solver.modified_newton", r->modified ? "true" : "false");
  rdModel* m = NULL;
  rdData* d = NULL;
  int ok = model_make(s, &m, &d) == 0 && rd_advance(m, d, tend, NULL, NULL) == RD_OK;
  if (!ok) {
    printf("%s/%s: %s\n", r->model, r->linsol, rd_lastError(ctx));
  } else {
    for (int i = 0; i < m->nnode && 13 * (i + 1) <= nx; i++) {
      memcpy(x + 13 * i, d->s.q + 7 * i, 7 * sizeof(double));
      memcpy(x + 13 * i + 7, d->s.v + 6 * i, 6 * sizeof(double));
    }
    rd_getStats(d, st);
  }
  rd_destroyData(&d);
  rd_destroyModel(&m);
  rd_destroyContext(&ctx);
  return ok;
}


// largest difference of the positions (part = 0: q, 7 per node) or velocities (part = 1: 6 per
// node) in units of the Newton tolerance atol + rtol |x|
static double diff(const double* a, const double* b, int nnode, int part) {
  double e = 0;
  for (int i = 0; i < nnode; i++) {
    for (int k = part ? 7 : 0; k < (part ? 13 : 7); k++) {
      double x = b[13 * i + k];
      e = fmax(e, fabs(a[13 * i + k] - x) / (ATOL + RTOL * fabs(x)));
    }
  }
  return e;
}


// full Newton, modified Newton and a reference at 1e-4 times the tolerances; h the step
static void compare(const char* model, const char* linsol, const char* formulation, double tend,
                    int nnode, double h) {
  enum { NX = 13 * 20 };
  double ref[NX] = {0}, full[NX] = {0}, mod[NX] = {0};
  rdStats sr, sf, sm;
  runSpec r = {model, linsol, formulation, 0, 1e-4};
  CHECK(run(&r, tend, ref, NX, &sr));
  r.tol_scale = 1;
  CHECK(run(&r, tend, full, NX, &sf));
  r.modified = 1;
  CHECK(run(&r, tend, mod, NX, &sm));
  // main-matrix factorizations (the stabilized formulation also factors its correction matrix
  // once per iteration)
  int stab = !strcmp(formulation, "stabilized");
  long ff = sf.factorizations - (stab ? sf.newton_iterations : 0);
  long fm = sm.factorizations - (stab ? sm.newton_iterations : 0);
  double spf = (double)sf.steps, spm = (double)sm.steps;
  double qf = diff(full, ref, nnode, 0), qm = diff(mod, ref, nnode, 0);
  double vf = diff(full, ref, nnode, 1), vm = diff(mod, ref, nnode, 1);
  printf(
      "%-5s %-7s %-10s full: %.2f it/step %.3f fact/step | modified: %.2f it/step %.3f "
      "fact/step | error/tol q %.2g %.2g, v h %.2g %.2g\n",
      model, linsol, formulation, (double)sf.newton_iterations / spf, (double)ff / spf,
      (double)sm.newton_iterations / spm, (double)fm / spm, qf, qm, vf * h, vm * h);
  CHECK(sm.steps == sf.steps);
  // the factorization is kept across steps: far fewer than one per step
  CHECK_MSG(fm * 4 < ff, "%s %s %s: %ld vs %ld factorizations", model, linsol, formulation, fm, ff);
  // the same solution to the Newton tolerance. Full Newton converges quadratically and lands
  // far inside it; modified Newton stops within it, so after n steps the positions may differ
  // by up to n tolerances (required: a tenth of that). The norm measures the increments of the
  // configuration, so velocities carry that error times gamma / (beta h): v h within one
  CHECK_MSG(qm <= 0.1 * spm && vm * h <= 1, "%s %s %s: error %.3g (q), %.3g (v h) tolerances",
            model, linsol, formulation, qm, vm * h);
}


// a new step size refactors: a step at h / 2 after steps that kept the factorization
static void test_new_h(void) {
  rdContext* ctx = NULL;
  rd_createContext(&ctx, NULL);
  rdSpec* s = model_heavyTopAlpha(ctx, 0.9, 2e-4, "klu");
  rds_setOption(s, "solver.modified_newton", "true");
  rds_setOptionReal(s, "solver.atol", ATOL);
  rds_setOptionReal(s, "solver.rtol", RTOL);
  rdModel* m = NULL;
  rdData* d = NULL;
  CHECK(model_make(s, &m, &d) == 0);
  // at a constant h most steps keep the factorization
  long f0 = d->stats.factorizations;
  for (int k = 0; k < 50; k++) {
    CHECK(rd_step(m, d, 0) == RD_OK);
  }
  long f1 = d->stats.factorizations;
  // alternating h: every step refactors
  int every = 1;
  for (int k = 0; k < 10; k++) {
    long f = d->stats.factorizations;
    CHECK(rd_step(m, d, k % 2 ? 2e-4 : 1e-4) == RD_OK);
    every &= d->stats.factorizations > f;
  }
  printf("factorizations: %ld in 50 steps at h, %ld in 10 steps alternating h and h / 2\n", f1 - f0,
         d->stats.factorizations - f1);
  CHECK(f1 - f0 < 25);
  CHECK(every);
  // rd_initialize refactors too
  CHECK(rd_initialize(m, d) == RD_OK);
  long f3 = d->stats.factorizations;
  CHECK(rd_step(m, d, 0) == RD_OK);
  CHECK(d->stats.factorizations > f3);
  rd_destroyData(&d);
  rd_destroyModel(&m);
  rd_destroyContext(&ctx);
}


int main(int argc, char** argv) {
  TEST_INIT(argc, argv);
  const char* linsol[] = {"klu", "umfpack", "dense"};
  for (int k = 0; k < 3; k++) {
    TEST_CASE(compare("top", linsol[k], "index3", 0.1, 1, 2e-4));
  }
  TEST_CASE(compare("top", "klu", "stabilized", 0.1, 1, 2e-4));
  TEST_CASE(compare("chain", "klu", "index3", 0.5, 20, 1e-3));
  TEST_CASE(compare("chain", "klu", "stabilized", 0.5, 20, 1e-3));
  TEST_CASE(test_new_h());
  return TEST_SUMMARY();
}
