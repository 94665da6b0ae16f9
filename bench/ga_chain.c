// SPDX-License-Identifier: MIT
// Cost of generalized-alpha per step and per Newton iteration: heavy top and revolute chains.
//
// usage: ga_chain [--repeat R] [--nmax N] [--atol A] [--rtol R] [--top-only] [--chain-only]
//                 [--horizontal] [--solver NAME] [--nmin N] [--newton full|modified]
//
// 1. Heavy top (docs/benchmarks.md A6), dt = 2e-4, rho_inf = 0.9, t = 0 ... 2 (10^4 steps), for
//    klu (full and modified Newton), umfpack and dense: median microseconds per step over R
//    runs (default 5), Newton iterations and factorizations per step (rdStats).
// 2. A chain of N rigid bodies (unit rods) joined by revolute joints (axis y), the first to the
//    ground, hanging and set swinging (see chain()), h = 1e-3, for N = 10, 100, 1000, 3000,
//    10^4 (default --nmax), 3 10^4 and 10^5 (up to --nmax) with the same backends (dense only for N
//    <= 100): microseconds per step and per step and body, and the ratios of the cost per body to
//    that of N = 10 (linear growth: ratios near 1). --horizontal: the chain is released at rest
//    from the horizontal instead (N = 10, 30, 100, 1000, 10^4), the case where the multipliers far
//    from the pin are near zero while those at the pin are large (a test of the Newton norm).
//    --solver NAME: only that backend's rows; --newton: only full or modified Newton; --nmin:
//    chains from N on.
// 3. For each case, the phases of one Newton iteration timed in isolation at the final state
//    (median of repeated calls): assembly of the residual and matrix (rd_assemble), numeric
//    factorization (rd_linsolFactor: a KLU refactor once a factorization exists) and solve
//    (rd_linsolSolve). "accounted" compares iterations x (assembly + solve) + factorizations x
//    factor with the measured cost of a step. "rcond" is the smallest reciprocal condition
//    estimate of the run (rdStats.min_rcond; for KLU and UMFPACK the pivot ratio).
// Uses the internal headers for the phase timings only; the steps go through rd_step.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_phases.h"
#include "rodrigues/rodrigues.h"
#include "solver/pattern.h"
#include "src/model/data_impl.h"
#include "tests/support/models.h"

typedef struct {
  const char* linsol;
  int modified;
} backend;


static double g_atol = 0, g_rtol = 0;  // 0: the library's defaults


static void common_options(rdSpec* s, double h, const backend* b) {
  if (g_atol > 0) {
    rds_setOptionReal(s, "solver.atol", g_atol);
  }
  if (g_rtol > 0) {
    rds_setOptionReal(s, "solver.rtol", g_rtol);
  }
  rds_setOption(s, "solver.method", "generalized_alpha");
  rds_setOptionReal(s, "solver.rho_inf", 0.9);
  rds_setOptionReal(s, "solver.time_step", h);
  rds_setOption(s, "solver.linear_solver", b->linsol);
  rds_setOption(s, "solver.modified_newton", b->modified ? "true" : "false");
}


// docs/benchmarks.md A6 (tests/ga_models.h) with the bench's options
static rdSpec* heavy_top(rdContext* ctx, const backend* b) {
  rdSpec* s = model_heavyTop(ctx, 0);
  if (s) {
    common_options(s, 2e-4, b);
  }
  return s;
}


// The chain of tests/ga_models.h: N unit rods hanging along -z, revolutes about y; the straight
// chain starts turning as a rigid body at 0.5 rad/s about y, and bends from there. (A chain
// released from the horizontal is a poor benchmark: far from the pin it falls almost freely, its
// multipliers are near zero, and Newton stalls on the round-off of lambda = solution /
// (beta h^2) against atol -- unless the norm measures multipliers against a model-wide force
// scale, see docs/generalized_alpha.md; --horizontal runs that case.)
static int g_horizontal = 0;


static rdSpec* chain(rdContext* ctx, int N, const backend* b) {
  rdSpec* s = model_chain(ctx, N, g_horizontal);
  if (s) {
    common_options(s, 1e-3, b);
  }
  return s;
}


typedef struct {
  double us_step;              // median microseconds per step
  double iters, facts;         // per step
  double t_asm, t_fac, t_sol;  // microseconds per call
  double rcond;                // smallest reciprocal condition estimate of the run
  int n, nnz;
  int ok;
} result;


static void phases(const rdModel* m, rdData* d, result* r) {
  benchPhases ph;
  bench_phases(m, d, 15, &ph);
  r->t_asm = ph.assemble;
  r->t_fac = ph.factor;
  r->t_sol = ph.solve;
}


// nstep steps of the model built by `make`, repeated; medians
static result run(rdContext* ctx, rdSpec* (*make)(rdContext*, int, const backend*), int N,
                  const backend* b, int nstep, int repeat) {
  result r;
  memset(&r, 0, sizeof(r));
  double* t = malloc(sizeof(double) * (size_t)repeat);
  for (int k = 0; k < repeat; k++) {
    rdSpec* s = make(ctx, N, b);
    rdModel* m = NULL;
    rdData* d = NULL;
    if (model_make(s, &m, &d)) {
      printf("# setup failed: %s\n", rd_lastError(ctx));
      rd_destroyData(&d);
      rd_destroyModel(&m);
      free(t);
      return r;
    }
    double t0 = bench_now();
    int st = RD_OK;
    for (int i = 0; i < nstep && st == RD_OK; i++) {
      st = rd_step(m, d, 0);
    }
    t[k] = bench_now() - t0;
    if (st != RD_OK) {
      printf("# step failed: %s\n", rd_lastError(ctx));
      rd_destroyData(&d);
      rd_destroyModel(&m);
      free(t);
      return r;
    }
    if (k == repeat - 1) {
      rdStats stats;
      rd_getStats(d, &stats);
      r.iters = (double)stats.newton_iterations / (double)stats.steps;
      r.facts = (double)stats.factorizations / (double)stats.steps;
      r.rcond = stats.min_rcond;
      r.n = m->pattern->n;
      r.nnz = m->pattern->nnz;
      phases(m, d, &r);
    }
    rd_destroyData(&d);
    rd_destroyModel(&m);
  }
  r.us_step = 1e6 * bench_median(t, repeat) / nstep;
  r.ok = 1;
  free(t);
  return r;
}


static rdSpec* top_maker(rdContext* ctx, int N, const backend* b) {
  (void)N;
  return heavy_top(ctx, b);
}


static void print_row(const char* model, int N, const backend* b, const result* r) {
  if (!r->ok) {
    printf("%-10s %6d %-8s %-8s failed\n", model, N, b->linsol, b->modified ? "modified" : "full");
    return;
  }
  double acc = r->iters * (r->t_asm + r->t_sol) + r->facts * r->t_fac;
  printf(
      "%-10s %6d %-8s %-8s %7d %8d %11.2f %10.3f %6.2f %6.2f %10.2f %10.2f %10.2f %8.0f%% %9.1e\n",
      model, N, b->linsol, b->modified ? "modified" : "full", r->n, r->nnz, r->us_step,
      r->us_step / N, r->iters, r->facts, r->t_asm, r->t_fac, r->t_sol, 100 * acc / r->us_step,
      r->rcond);
}


static void header(void) {
  printf("%-10s %6s %-8s %-8s %7s %8s %11s %10s %6s %6s %10s %10s %10s %9s %9s\n", "model", "N",
         "solver", "newton", "n", "nnz", "us/step", "us/step/N", "it/st", "fa/st", "asm us",
         "factor us", "solve us", "accounted", "rcond");
}


int main(int argc, char** argv) {
  int repeat = 5, nmin = 0, nmax = 10000, do_top = 1, do_chain = 1, newton = -1;
  const char* only = NULL;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--repeat") && i + 1 < argc) {
      repeat = atoi(argv[++i]);
    } else if (!strcmp(argv[i], "--nmax") && i + 1 < argc) {
      nmax = atoi(argv[++i]);
    } else if (!strcmp(argv[i], "--nmin") && i + 1 < argc) {
      nmin = atoi(argv[++i]);
    } else if (!strcmp(argv[i], "--newton") && i + 1 < argc) {
      i++;
      newton = !strcmp(argv[i], "full") ? 0 : !strcmp(argv[i], "modified") ? 1 : -2;
    } else if (!strcmp(argv[i], "--atol") && i + 1 < argc) {
      g_atol = atof(argv[++i]);
    } else if (!strcmp(argv[i], "--rtol") && i + 1 < argc) {
      g_rtol = atof(argv[++i]);
    } else if (!strcmp(argv[i], "--top-only")) {
      do_chain = 0;
    } else if (!strcmp(argv[i], "--chain-only")) {
      do_top = 0;
    } else if (!strcmp(argv[i], "--horizontal")) {
      g_horizontal = 1;
    } else if (!strcmp(argv[i], "--solver") && i + 1 < argc) {
      only = argv[++i];
    } else {
      newton = -2;
    }
  }
  if (newton == -2) {
    fprintf(stderr,
            "usage: ga_chain [--repeat R] [--nmin N] [--nmax N] [--atol A] [--rtol R] "
            "[--top-only] [--chain-only] [--horizontal] [--solver NAME] "
            "[--newton full|modified]\n");
    return 2;
  }
  if (repeat < 1) {
    repeat = 1;
  }
  setvbuf(stdout, NULL, _IOLBF, 0);  // rows as they come, also into a file
  rdContext* ctx = NULL;
  if (rd_createContext(&ctx, NULL)) {
    return 1;
  }
  static const backend backends[] = {{"klu", 0},     {"klu", 1},   {"umfpack", 0},
                                     {"umfpack", 1}, {"dense", 0}, {"dense", 1}};
  int nb = (int)(sizeof(backends) / sizeof(backends[0]));
  header();
  if (do_top) {
    for (int k = 0; k < nb; k++) {
      if (only && strcmp(only, backends[k].linsol)) {
        continue;
      }
      result r = run(ctx, top_maker, 1, &backends[k], 10000, repeat);
      print_row("heavy_top", 1, &backends[k], &r);
    }
  }
  if (do_chain) {
    static const int sizes[] = {10, 100, 1000, 3000, 10000, 30000, 100000},
                     hsizes[] = {10, 30, 100, 1000, 10000};
    const int* sz = g_horizontal ? hsizes : sizes;
    int nsz = g_horizontal ? 5 : 7;
    for (int k = 0; k < nb; k++) {
      if ((only && strcmp(only, backends[k].linsol)) ||
          (newton >= 0 && newton != backends[k].modified)) {
        continue;
      }
      double base = 0;
      for (int i = 0; i < nsz && sz[i] <= nmax; i++) {
        int N = sz[i];
        if (N < nmin || (!strcmp(backends[k].linsol, "dense") && N > 100)) {
          continue;
        }
        // about the same work per size: fewer steps for long chains
        int nstep = N <= 10 ? 2000 : N <= 100 ? 400 : N <= 1000 ? 40 : N <= 10000 ? 8 : 4;
        int rep = N >= 10000 ? (repeat < 3 ? repeat : 3) : repeat;
        result r = run(ctx, chain, N, &backends[k], nstep, rep);
        print_row("chain", N, &backends[k], &r);
        if (r.ok && N == 10) {
          base = r.us_step / N;
        }
        if (r.ok && base > 0 && N > 10) {
          printf("#   cost per body, N = %d vs N = 10: %.2f\n", N, r.us_step / N / base);
        }
      }
    }
  }
  rd_destroyContext(&ctx);
  return 0;
}
