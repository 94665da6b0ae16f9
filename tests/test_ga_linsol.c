// SPDX-License-Identifier: MIT
// Linear-solver conformance: the same systems through KLU, UMFPACK and dense LU (refactor,
// singular detection with the column), KLU's stale-pivot check, and the heavy top
// stepped identically with every backend and with modified Newton.
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "solver/linsol.h"
#include "src/model/data_impl.h"
#include "src/model/options.h"
#include "tests/support/models.h"
#include "tests/test_macros.h"

// n x n saddle-point-like CSC test matrix: unsymmetric block [A B^T; B 0] with nb multipliers
static void make(int n, int nb, unsigned seed, int** Ap, int** Ai, double** Ax) {
  srand(seed);
  int na = n - nb;
  *Ap = calloc((size_t)n + 1, sizeof(int));
  *Ai = calloc((size_t)n * (size_t)n, sizeof(int));
  *Ax = calloc((size_t)n * (size_t)n, sizeof(double));
  int p = 0;
  for (int c = 0; c < n; c++) {
    (*Ap)[c] = p;
    for (int r = 0; r < n; r++) {
      int in_a = r < na && c < na;
      int in_zero = r >= na && c >= na;
      if (in_zero || (in_a && r != c && (r + 2 * c) % 3 == 0)) {
        continue;  // zero multiplier block and some sparsity in A
      }
      if (!in_a && (r + c) % 2) {
        continue;
      }
      (*Ai)[p] = r;
      double v = 2.0 * rand() / RAND_MAX - 1;
      (*Ax)[p++] = in_a && r == c ? 10 + v : v;
    }
    if (c >= na) {
      // every multiplier column couples at least one dof row
      int has = 0;
      for (int q = (*Ap)[c]; q < p; q++) {
        has |= (*Ai)[q] < na;
      }
      if (!has) {
        (*Ai)[p] = c - na;
        (*Ax)[p++] = 1;
      }
    }
  }
  (*Ap)[n] = p;
}


static void matvec(int n, const int* Ap, const int* Ai, const double* Ax, const double* x,
                   double* y) {
  memset(y, 0, (size_t)n * sizeof(double));
  for (int c = 0; c < n; c++) {
    for (int p = Ap[c]; p < Ap[c + 1]; p++) {
      y[Ai[p]] += Ax[p] * x[c];
    }
  }
}


// n unknowns, nb of them multipliers (n <= 80)
static void conformance(rdContext* ctx, int kind, const char* name, int n, int nb) {
  for (unsigned seed = 1; seed <= 3; seed++) {
    int *Ap, *Ai;
    double* Ax;
    make(n, nb, seed, &Ap, &Ai, &Ax);
    rdLinSol* s = NULL;
    CHECK(rd_linsolCreate(ctx, kind, n, Ap, Ai, &s) == RD_OK);
    double x[80], b[80], y[80];
    for (int pass = 0; pass < 2; pass++) {
      // second pass: new values, same pattern (KLU refactors)
      if (pass) {
        for (int p = 0; p < Ap[n]; p++) {
          Ax[p] *= 1 + 0.1 * sin(p);
        }
      }
      for (int k = 0; k < n; k++) {
        x[k] = sin(k + seed);
      }
      matvec(n, Ap, Ai, Ax, x, b);
      CHECK(rd_linsolFactor(s, Ax) == RD_OK);
      CHECK(rd_linsolSolve(s, b) == RD_OK);
      double e = 0;
      for (int k = 0; k < n; k++) {
        e = fmax(e, fabs(b[k] - x[k]));
      }
      CHECK_MSG(e < 1e-12, "%s seed %u pass %d: error %.3e", name, seed, pass, e);
    }
    // singular: a multiplier column equal to another one
    int c1 = n - 1, c2 = n - 2;
    int len = Ap[c1 + 1] - Ap[c1];
    if (len == Ap[c2 + 1] - Ap[c2] &&
        !memcmp(Ai + Ap[c1], Ai + Ap[c2], (size_t)len * sizeof(int))) {
      memcpy(Ax + Ap[c1], Ax + Ap[c2], (size_t)len * sizeof(double));
      int st = rd_linsolFactor(s, Ax);
      CHECK_MSG(st == RD_RECOVER_SINGULAR, "%s: singular matrix gives %d", name, st);
      CHECK_MSG(s->singular_col == c1 || s->singular_col == c2, "%s: singular column %d", name,
                s->singular_col);
    }
    (void)y;
    rd_linsolDestroy(&s);
    CHECK(s == NULL);
    free(Ap);
    free(Ai);
    free(Ax);
  }
}


// the dense backend's condition when the pivot ratio is small (own LU: a 1-norm estimate of
// A^-1, Hager-Higham): a full n x n matrix with row i scaled by 10^(-i/2), pivot ratio ~1e-10,
// against the exact 1 / (|A|_1 |A^-1|_1) from the columns of A^-1. The estimate of |A^-1|_1 is
// a lower bound, so the rcond is at least the exact one; it must be within 3x of it
static void dense_condition(rdContext* ctx) {
  enum { N = 20 };
  int Ap[N + 1], Ai[N * N];
  double Ax[N * N], Ainv[N * N];
  srand(7);
  for (int c = 0; c <= N; c++) {
    Ap[c] = c * N;
  }
  for (int c = 0; c < N; c++) {
    for (int r = 0; r < N; r++) {
      Ai[c * N + r] = r;
      Ax[c * N + r] = ((r == c ? 4 : 0) + 2.0 * rand() / RAND_MAX - 1) * pow(10, -0.5 * r);
    }
  }
  rdLinSol* s = NULL;
  CHECK(rd_linsolCreate(ctx, RD_LINSOL_DENSE, N, Ap, Ai, &s) == RD_OK);
  CHECK(rd_linsolFactor(s, Ax) == RD_OK);
  double anorm = 0, inorm = 0;
  for (int c = 0; c < N; c++) {
    double* col = Ainv + c * N;
    memset(col, 0, N * sizeof(double));
    col[c] = 1;
    CHECK(rd_linsolSolve(s, col) == RD_OK);
    double a = 0, b = 0;
    for (int r = 0; r < N; r++) {
      a += fabs(Ax[c * N + r]);
      b += fabs(col[r]);
    }
    anorm = fmax(anorm, a);
    inorm = fmax(inorm, b);
  }
  double exact = 1 / (anorm * inorm);
  printf("dense condition: estimate %.4e, exact %.4e\n", s->rcond, exact);
  CHECK(exact < 1e-8);  // (the pivot ratio is below 1e-8 there: the estimate is taken)
  CHECK_MSG(s->rcond >= exact * (1 - 1e-10) && s->rcond <= 3 * exact, "%.4e vs %.4e", s->rcond,
            exact);
  rd_linsolDestroy(&s);
}


// KLU refactorization with a pivot order gone bad: factor A1 = [1 1; 1 1+1] (diagonal pivots),
// then refactor A2 = [d 1; 1 1] with d = 1e-9, whose old diagonal pivot d grows U(2,2) to
// -1e9. The pivot ratio is tiny but the condition estimate through the same factors looks fine,
// so the refactorization is accepted; its solve would be off by ~1e-7. The residual check of
// the first solve must catch it and factor afresh (solution to round-off).
static void klu_stale_pivots(rdContext* ctx) {
  int Ap[3] = {0, 2, 4}, Ai[4] = {0, 1, 0, 1};
  double A1[4] = {1, 1, 1, 2}, A2[4] = {1e-9, 1, 1, 1};
  rdLinSol* s = NULL;
  CHECK(rd_linsolCreate(ctx, RD_LINSOL_KLU, 2, Ap, Ai, &s) == RD_OK);
  CHECK(rd_linsolFactor(s, A1) == RD_OK);
  CHECK(s->nfactor == 1);
  CHECK(rd_linsolFactor(s, A2) == RD_OK);
  long refactors = s->nrefactor, fulls = s->nfactor;
  double x[2] = {1, -2}, b[2] = {1e-9 * x[0] + x[1], x[0] + x[1]};
  CHECK(rd_linsolSolve(s, b) == RD_OK);
  double e = fmax(fabs(b[0] - x[0]), fabs(b[1] - x[1]));
  printf("klu stale pivots: refactorizations %ld, full %ld -> %ld, rejected %ld, error %.3e\n",
         refactors, fulls, s->nfactor, s->nrefactor_rejected, e);
  CHECK(refactors == 1);              // the refactorization itself was accepted ...
  CHECK(s->nrefactor_rejected == 1);  // ... and its solve found inaccurate
  CHECK(s->nfactor == fulls + 1);     // factored afresh
  CHECK_MSG(e < 1e-15, "error %.3e", e);
  // the next solve uses the fresh factors, unchecked
  double b2[2] = {1, 1};
  CHECK(rd_linsolSolve(s, b2) == RD_OK);
  CHECK(fabs(1e-9 * b2[0] + b2[1] - 1) < 1e-15 && fabs(b2[0] + b2[1] - 1) < 1e-15);
  rd_linsolDestroy(&s);
}


// heavy top for 0.2 s with a backend; returns the final state in out (7 + 6)
static void top(const char* linsol, int modified, double out[13], long* nfact) {
  rdContext* ctx = NULL;
  rd_createContext(&ctx, NULL);
  rdSpec* s = model_heavyTopAlpha(ctx, 0.9, 1e-3, linsol);
  if (modified) {
    rds_setOption(s, "solver.modified_newton", "true");
  }
  rdModel* m;
  rdData* d;
  CHECK(model_make(s, &m, &d) == 0);
  CHECK(rd_advance(m, d, 0.2, NULL, NULL) == RD_OK);
  memcpy(out, d->s.q, 7 * sizeof(double));
  memcpy(out + 7, d->s.v, 6 * sizeof(double));
  *nfact = d->stats.factorizations;
  rd_destroyData(&d);
  rd_destroyModel(&m);
  rd_destroyContext(&ctx);
}


// the same trajectory with every backend; modified Newton saves factorizations
static void same_trajectory(void) {
  double ref[13], x[13];
  long nf_ref, nf;
  top("klu", 0, ref, &nf_ref);
  const char* names[3] = {"umfpack", "dense", "auto"};
  for (int k = 0; k < 3; k++) {
    top(names[k], 0, x, &nf);
    double e = 0;
    for (int i = 0; i < 13; i++) {
      e = fmax(e, fabs(x[i] - ref[i]) / (1 + fabs(ref[i])));
    }
    CHECK_MSG(e < 1e-10, "%s vs klu: %.3e", names[k], e);
  }
  top("klu", 1, x, &nf);
  double eq = 0, ev = 0;
  for (int i = 0; i < 13; i++) {
    double e = fabs(x[i] - ref[i]) / (1 + fabs(ref[i]));
    if (i < 7) {
      eq = fmax(eq, e);
    } else {
      ev = fmax(ev, e);
    }
  }
  printf("modified Newton: %ld factorizations (full Newton %ld), difference %.3e (q), %.3e (v)\n",
         nf, nf_ref, eq, ev);
  CHECK(nf < nf_ref);
  // modified Newton stops within the Newton tolerance (atol 1e-10 here), full Newton far inside
  // it: after n = 200 steps the positions differ by up to n atol = 2e-8 (measured 2.5e-8, spatial
  // form), the velocities by gamma / (beta h) = 2000 times that, 4e-5 (measured 1.8e-6 in the
  // body z angular velocity, spatial form; 3.1e-7 body form). test_ga_modified.c checks it in
  // units of the tolerance
  CHECK_MSG(eq < 1e-7 && ev < 4e-5, "%.3e (q), %.3e (v)", eq, ev);
}


int main(int argc, char** argv) {
  TEST_INIT(argc, argv);
  rdContext* ctx = NULL;
  rd_createContext(&ctx, NULL);
  TEST_CASE(conformance(ctx, RD_LINSOL_KLU, "klu", 12, 3));
  TEST_CASE(conformance(ctx, RD_LINSOL_UMFPACK, "umfpack", 12, 3));
  TEST_CASE(conformance(ctx, RD_LINSOL_DENSE, "dense", 12, 3));
  // the dense backend's two LUs: its own up to RD_LINSOL_DENSE_OWN_MAX unknowns, LAPACK's above
  TEST_CASE(conformance(ctx, RD_LINSOL_DENSE, "dense (own LU)", RD_LINSOL_DENSE_OWN_MAX, 8));
  // sizes that leave the own LU's last panel of four columns narrower, and padding lanes
  TEST_CASE(conformance(ctx, RD_LINSOL_DENSE, "dense (own LU, 5)", 5, 2));
  TEST_CASE(conformance(ctx, RD_LINSOL_DENSE, "dense (own LU, 37)", 37, 6));
  TEST_CASE(
      conformance(ctx, RD_LINSOL_DENSE, "dense (own LU, 63)", RD_LINSOL_DENSE_OWN_MAX - 1, 7));
  TEST_CASE(conformance(ctx, RD_LINSOL_DENSE, "dense (LAPACK)", RD_LINSOL_DENSE_OWN_MAX + 1, 8));
  TEST_CASE(klu_stale_pivots(ctx));
  TEST_CASE(dense_condition(ctx));
  // (cholmod on a model with joints is refused: tests/test_cholmod.c)
  rd_destroyContext(&ctx);
  TEST_CASE(same_trajectory());
  return TEST_SUMMARY();
}
