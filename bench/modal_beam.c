// SPDX-License-Identifier: MIT
// Cost of modal analysis on beams: the linearization and the lowest modes of cantilevers from
// 10^3 to 10^5 degrees of freedom, ARPACK with shift-invert against the dense LAPACK solvers.
//
// usage: modal_beam [--quick] [--max-dofs N] [--count M] [--repeat R]
//
// Cantilevers of E elements of 5 nodes (order 4) along x, L = 10, the composite section of
// docs/benchmarks.md B3, clamped at x = 0, at rest: about 10^3, 10^4 and 10^5 degrees of freedom
// (--max-dofs, default 10^5). For each: the seconds (CPU of this process, median of R runs,
// default 3; 1 at 10^5) of rd_linearize (three assemblies, the null space, the reduced
// matrices), of rd_computeModes with ARPACK (the first M modes, default 20: shift-invert on the
// sparse factorization, symmetric problem, CHOLMOD) and, up to 2000 reduced unknowns, with the
// dense solver (LAPACK dsygvd, shift-inverted); ARPACK's restarts and operator applications;
// the first frequency and the largest relative difference between the two solvers.
// --quick: up to 10^3 degrees of freedom, one run (meson test modal_beam, suite bench).
// Exits 1 if a computation fails or the solvers disagree beyond 1e-8.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_clock.h"
#include "rodrigues/rodrigues.h"
#include "tests/support/models.h"


// the cantilever of E elements, compiled and initialized
static int build(rdContext* ctx, int E, rdModel** m, rdData** d) {
  double M[36];
  model_diag6(M, model_b3Mass);
  return model_make(model_cantilever(ctx, E, 5, 10, model_b3Stiffness, M), m, d);
}


// one run: the times of the linearization and of the modes with `solver`; frequencies into f
static int run(rdModel* m, rdData* d, int solver, int count, double* t_lin, double* t_modes,
               double* f, rdModesInfo* info) {
  double t0 = bench_cpu();
  rdLinearization* lin = NULL;
  int st = rd_linearize(m, d, NULL, &lin);
  double t1 = bench_cpu();
  rdModes* md = NULL;
  if (st == RD_OK) {
    rdModalDef def = rd_defaultModalDef();
    def.count = count;
    def.solver = solver;
    st = rd_computeModes(lin, &def, &md);
  }
  double t2 = bench_cpu();
  *t_lin = t1 - t0;
  *t_modes = t2 - t1;
  for (int k = 0; st == RD_OK && k < rd_modeCount(md); k++) {
    rdModeInfo i;
    rd_getMode(md, k, &i);
    f[k] = i.natural_hz;
  }
  if (st == RD_OK) {
    rd_getModesInfo(md, info);
  }
  rd_destroyModes(&md);
  rd_destroyLinearization(&lin);
  return st;
}


int main(int argc, char** argv) {
  int quick = 0, count = 20, repeat = 3;
  long max_dofs = 100000;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--quick")) {
      quick = 1;
    } else if (!strcmp(argv[i], "--max-dofs") && i + 1 < argc) {
      max_dofs = atol(argv[++i]);
    } else if (!strcmp(argv[i], "--count") && i + 1 < argc) {
      count = atoi(argv[++i]);
    } else if (!strcmp(argv[i], "--repeat") && i + 1 < argc) {
      repeat = atoi(argv[++i]);
    } else {
      fprintf(stderr, "usage: modal_beam [--quick] [--max-dofs N] [--count M] [--repeat R]\n");
      return 2;
    }
  }
  if (quick) {
    max_dofs = 1000;
    repeat = 1;
  }
  rdContext* ctx = NULL;
  rd_createContext(&ctx, NULL);
  int failures = 0;
  printf(
      "cantilevers of 5-node elements, B3 section, the first %d modes; CPU seconds, median "
      "of %d runs\n",
      count, repeat);
  printf("%8s %8s %10s %10s %8s %8s %10s %12s %10s\n", "dofs", "reduced", "linearize", "arpack",
         "restarts", "ops", "dense", "f1 (Hz)", "|arpack-dense|");
  static const long sizes[3] = {1000, 10000, 100000};
  for (int s = 0; s < 3 && sizes[s] <= max_dofs; s++) {
    int E = (int)((sizes[s] / 6 - 1) / 4);
    rdModel* m = NULL;
    rdData* d = NULL;
    if (build(ctx, E, &m, &d) != 0) {
      failures++;
      continue;
    }
    rdModelInfo mi;
    rd_modelInfo(m, &mi);
    int nrep = sizes[s] >= 100000 ? 1 : repeat, dense = mi.ndof - 6 <= 2000;
    double tl[16], ta[16], td[16], tmp;
    double* fa = calloc((size_t)count, sizeof(double));
    double* fd = calloc((size_t)count, sizeof(double));
    rdModesInfo ia, id;
    for (int r = 0; r < nrep; r++) {
      // interleaved: ARPACK, then dense, in each round
      if (run(m, d, RD_EIGEN_ARPACK, count, &tl[r], &ta[r], fa, &ia) != RD_OK) {
        printf("ARPACK: %s\n", rd_lastError(ctx));
        failures++;
        break;
      }
      if (dense && run(m, d, RD_EIGEN_DENSE, count, &tmp, &td[r], fd, &id) != RD_OK) {
        printf("dense: %s\n", rd_lastError(ctx));
        failures++;
        break;
      }
    }
    double diff = 0;
    for (int k = 0; dense && k < count; k++) {
      diff = fmax(diff, fabs(fa[k] / fd[k] - 1));
    }
    failures += dense && !(diff < 1e-8);
    char dcol[32] = "-", ecol[32] = "-";
    if (dense) {
      snprintf(dcol, sizeof(dcol), "%.3f", bench_median(td, nrep));
      snprintf(ecol, sizeof(ecol), "%.1e", diff);
    }
    printf("%8d %8d %10.3f %10.3f %8d %8d %10s %12.6f %10s\n", mi.ndof, mi.ndof - 6,
           bench_median(tl, nrep), bench_median(ta, nrep), ia.restarts, ia.products, dcol, fa[0],
           ecol);
    free(fa);
    free(fd);
    rd_destroyData(&d);
    rd_destroyModel(&m);
  }
  rd_destroyContext(&ctx);
  return failures ? 1 : 0;
}
