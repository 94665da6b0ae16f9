// SPDX-License-Identifier: MIT
// Linear-solver backends on a symmetric positive definite model: a mass-spring lattice
// (tests/support/lattice.c) stepped by generalized-alpha, for klu, umfpack and cholmod.
//
// usage: ga_lattice [--repeat R] [--nmax N] [--damping C]
//
// Cubes of n x n x n point masses (3 n^3 unknowns, n = 4 ... 32 up to --nmax; klu up to 16), h =
// 1e-2, rho_inf = 0.9, default tolerances, 20 steps after initialization (more below 4000
// unknowns); median wall time per step over R runs (default 3), Newton iterations and
// factorizations per step (rdStats), and each backend's time relative to klu's of the same size,
// measured in the same run. --damping C puts dampers (N s/m) on the edge springs: the matrix is
// then unsymmetric (cholmod refuses it) and the sizes run are n = 5, 6, 7, 8, 10 (klu against
// umfpack, the case of auto's fill test).
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tests/support/models.h"

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}


static int cmp(const void* a, const void* b) {
  double x = *(const double*)a, y = *(const double*)b;
  return (x > y) - (x < y);
}


// one run: seconds per step, stats; 0 on success
static double g_damping = 0;


static int run(int n, const char* linsol, int nsteps, double* per_step, rdStats* st) {
  rdContext* ctx = NULL;
  rd_createContext(&ctx, NULL);
  rdSpec* s = model_lattice(ctx, n, n, n, 0.3, g_damping);
  rds_setOption(s, "solver.method", "generalized_alpha");
  rds_setOption(s, "solver.linear_solver", linsol);
  rds_setOptionReal(s, "solver.time_step", 1e-2);
  rdModel* m = NULL;
  rdData* d = NULL;
  int err = model_make(s, &m, &d);
  double t0 = now();
  for (int k = 0; !err && k < nsteps; k++) {
    err = rd_step(m, d, 1e-2);
  }
  *per_step = (now() - t0) / nsteps;
  if (err) {
    fprintf(stderr, "n = %d, %s: %s\n", n, linsol, rd_lastError(ctx));
  } else {
    rd_getStats(d, st);
  }
  rd_destroyData(&d);
  rd_destroyModel(&m);
  rd_destroyContext(&ctx);
  return err;
}


int main(int argc, char** argv) {
  int repeat = 3, nmax = 32;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--repeat") && i + 1 < argc) {
      repeat = atoi(argv[++i]);
    } else if (!strcmp(argv[i], "--nmax") && i + 1 < argc) {
      nmax = atoi(argv[++i]);
    } else if (!strcmp(argv[i], "--damping") && i + 1 < argc) {
      g_damping = atof(argv[++i]);
    } else {
      fprintf(stderr, "usage: ga_lattice [--repeat R] [--nmax N] [--damping C]\n");
      return 2;
    }
  }
  if (repeat < 1 || repeat > 99) {
    repeat = 3;
  }
  const int sizes_spd[] = {4, 5, 6, 8, 12, 16, 24, 32}, sizes_damped[] = {5, 6, 7, 8, 10};
  const int* sizes = g_damping > 0 ? sizes_damped : sizes_spd;
  size_t nsizes = g_damping > 0 ? 5 : 8;
  int nback = g_damping > 0 ? 2 : 3;
  const char* backends[] = {"klu", "umfpack", "cholmod"};
  printf("| n | unknowns | backend | ms/step | it/step | fa/step | / klu |\n");
  printf("| --- | --- | --- | --- | --- | --- | --- |\n");
  for (size_t si = 0; si < nsizes && sizes[si] <= nmax; si++) {
    int n = sizes[si];
    int nsteps = 3 * n * n * n < 4000 ? 80000 / (3 * n * n * n) : 20;  // >= ~50 ms a run
    double klu_ms = 0;                                                 // 0: not run at this size
    for (int b = 0; b < nback; b++) {
      if (b == 0 && n > 16) {
        printf("| %d | %d | klu | not run above n = 16 (too slow) | | | |\n", n, 3 * n * n * n);
        continue;
      }
      double t[99];
      rdStats st = {0};
      for (int r = 0; r < repeat; r++) {
        if (run(n, backends[b], nsteps, &t[r], &st)) {
          return 1;
        }
      }
      qsort(t, (size_t)repeat, sizeof(double), cmp);
      double ms = 1e3 * t[repeat / 2];
      if (b == 0) {
        klu_ms = ms;
      }
      char ratio[32] = "-";
      if (klu_ms > 0) {
        snprintf(ratio, sizeof(ratio), "%.2f", ms / klu_ms);
      }
      printf("| %d | %d | %s | %.3f | %.2f | %.2f | %s |\n", n, 3 * n * n * n, backends[b], ms,
             (double)st.newton_iterations / (double)st.steps,
             (double)st.factorizations / (double)st.steps, ratio);
      fflush(stdout);
    }
  }
  return 0;
}
