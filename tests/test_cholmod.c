// SPDX-License-Identifier: MIT
// CHOLMOD backend: SPD systems solved to round-off and refactored, an indefinite matrix reported
// as recoverable with its pivot, an unsymmetric one refused; a mass-spring lattice stepped by
// generalized-alpha and solved statically with cholmod gives klu's results; models with joints,
// rotations or moving dampers are refused with the reason.
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "solver/linsol.h"
#include "src/model/data_impl.h"
#include "src/model/options.h"
#include "tests/support/models.h"
#include "tests/test_macros.h"

// n x n symmetric sparse CSC matrix, diagonally dominant (SPD), full pattern stored
static void make_spd(int n, unsigned seed, int** Ap, int** Ai, double** Ax) {
  srand(seed);
  double* A = calloc((size_t)n * (size_t)n, sizeof(double));
  for (int c = 0; c < n; c++) {
    for (int r = c + 1; r < n; r++) {
      if ((r * 7 + c * 3) % 4 == 0) {
        A[r + n * c] = A[c + n * r] = 2.0 * rand() / RAND_MAX - 1;
      }
    }
  }
  for (int c = 0; c < n; c++) {
    double s = 0;
    for (int r = 0; r < n; r++) {
      s += fabs(A[r + n * c]);
    }
    A[c + n * c] = 1 + s;
  }
  *Ap = calloc((size_t)n + 1, sizeof(int));
  *Ai = calloc((size_t)n * (size_t)n, sizeof(int));
  *Ax = calloc((size_t)n * (size_t)n, sizeof(double));
  int p = 0;
  for (int c = 0; c < n; c++) {
    (*Ap)[c] = p;
    for (int r = 0; r < n; r++) {
      if (A[r + n * c] != 0) {
        (*Ai)[p] = r;
        (*Ax)[p++] = A[r + n * c];
      }
    }
  }
  (*Ap)[n] = p;
  free(A);
}


static int find(const int* Ap, const int* Ai, int r, int c) {
  for (int p = Ap[c]; p < Ap[c + 1]; p++) {
    if (Ai[p] == r) {
      return p;
    }
  }
  return -1;
}


static void linsol_level(rdContext* ctx) {
  const int n = 30;
  for (unsigned seed = 1; seed <= 3; seed++) {
    int *Ap, *Ai;
    double* Ax;
    make_spd(n, seed, &Ap, &Ai, &Ax);
    rdLinSol* s = NULL;
    CHECK(rd_linsolCreate(ctx, RD_LINSOL_CHOLMOD, n, Ap, Ai, &s) == RD_OK);
    double x[30], b[30];
    for (int pass = 0; pass < 2; pass++) {
      if (pass) {  // new values, same pattern, still symmetric
        for (int c = 0; c < n; c++) {
          for (int p = Ap[c]; p < Ap[c + 1]; p++) {
            Ax[p] *= 1 + 0.1 * sin(Ai[p] + c);
          }
        }
      }
      for (int k = 0; k < n; k++) {
        x[k] = cos(k + seed);
      }
      memset(b, 0, sizeof(b));
      for (int c = 0; c < n; c++) {
        for (int p = Ap[c]; p < Ap[c + 1]; p++) {
          b[Ai[p]] += Ax[p] * x[c];
        }
      }
      CHECK(rd_linsolFactor(s, Ax) == RD_OK);
      CHECK(s->rcond > 1e-3);
      CHECK(rd_linsolSolve(s, b) == RD_OK);
      double e = 0;
      for (int k = 0; k < n; k++) {
        e = fmax(e, fabs(b[k] - x[k]));
      }
      CHECK_MSG(e < 1e-13, "cholmod seed %u pass %d: error %.3e", seed, pass, e);
    }
    // indefinite: a strongly negative diagonal -> recoverable, with a pivot column
    int p5 = find(Ap, Ai, 5, 5);
    double keep = Ax[p5];
    Ax[p5] = -100;
    int st = rd_linsolFactor(s, Ax);
    CHECK_MSG(st == RD_RECOVER_SINGULAR, "indefinite matrix gives %d", st);
    CHECK(s->singular_col >= 0 && s->singular_col < n);
    CHECK(rd_linsolSolve(s, b) == RD_ERR_STATE);
    Ax[p5] = keep;
    // unsymmetric values -> refused, naming the entry
    int p = find(Ap, Ai, 3, 7) >= 0 ? find(Ap, Ai, 3, 7) : find(Ap, Ai, 0, 1);
    if (p >= 0) {
      Ax[p] += 0.5;
      st = rd_linsolFactor(s, Ax);
      CHECK_MSG(st == RD_ERR_UNSUPPORTED, "unsymmetric matrix gives %d", st);
      CHECK(strstr(rd_lastError(ctx), "symmetric") != NULL);
      Ax[p] -= 0.5;
    }
    CHECK(rd_linsolFactor(s, Ax) == RD_OK);
    rd_linsolDestroy(&s);
    free(Ap);
    free(Ai);
    free(Ax);
  }
}


// lattice run with a backend: final positions and velocities, Newton iterations
static int lattice_run(const char* method, const char* linsol, double c, double* out, long* iters,
                       char* err, int errsize) {
  rdContext* ctx = NULL;
  rd_createContext(&ctx, NULL);
  rdSpec* s = model_lattice(ctx, 4, 3, 3, 0.3, c);
  rds_setOption(s, "solver.method", method);
  rds_setOption(s, "solver.linear_solver", linsol);
  rds_setOptionReal(s, "solver.time_step", 1e-2);
  rds_setOptionReal(s, "solver.atol", 1e-12);
  rds_setOptionReal(s, "solver.rtol", 1e-10);
  rdModel* m = NULL;
  rdData* d = NULL;
  int st = model_make(s, &m, &d);
  if (st == RD_OK) {
    st = rd_advance(m, d, 0.5, NULL, NULL);
  }
  if (st == RD_OK) {
    for (int i = 0; i < m->nnode; i++) {
      double x[3], v[3];
      rd_getNodeState(m, d, i, x, NULL, v, NULL, NULL);
      memcpy(out + 6 * i, x, sizeof(x));
      memcpy(out + 6 * i + 3, v, sizeof(v));
    }
    *iters = d->stats.newton_iterations;
  }
  snprintf(err, (size_t)errsize, "%s", st == RD_OK ? "" : rd_lastError(ctx));
  rd_destroyData(&d);
  rd_destroyModel(&m);
  rd_destroyContext(&ctx);
  return st;
}


static void model_level(void) {
  enum { NN = 36 };
  double ref[6 * NN], x[6 * NN];
  long it_ref = 0, it = 0;
  char err[1024];
  const char* methods[2] = {"generalized_alpha", "static"};
  for (int k = 0; k < 2; k++) {
    CHECK(lattice_run(methods[k], "klu", 0, ref, &it_ref, err, sizeof(err)) == RD_OK);
    int st = lattice_run(methods[k], "cholmod", 0, x, &it, err, sizeof(err));
    CHECK_MSG(st == RD_OK, "%s with cholmod: %s", methods[k], err);
    double e = 0, scale = 0;
    for (int i = 0; i < 6 * NN; i++) {
      e = fmax(e, fabs(x[i] - ref[i]));
      scale = fmax(scale, fabs(ref[i]));
    }
    printf("lattice %s: cholmod vs klu max difference %.3e (scale %.3g), iterations %ld vs %ld\n",
           methods[k], e, scale, it, it_ref);
    CHECK(e < 1e-11 * scale);
    CHECK(it == it_ref);
  }
  // the static lattice really deflects under gravity (the comparison is not of two rest states)
  CHECK(ref[2] < -1e-3);
  // a damper moving transversely makes the tangent unsymmetric: refused, naming the nodes
  int st = lattice_run("generalized_alpha", "cholmod", 5, x, &it, err, sizeof(err));
  printf("damped lattice with cholmod: %s\n", err);
  CHECK(st == RD_ERR_UNSUPPORTED);
  CHECK(strstr(err, "symmetric") != NULL && strstr(err, "node 'n") != NULL);
  // ... which klu solves
  CHECK(lattice_run("generalized_alpha", "klu", 5, x, &it, err, sizeof(err)) == RD_OK);
}


// what solver.linear_solver = auto picks
static int chosen(rdSpec* s) {
  rdModel* m = NULL;
  int kind = -1;
  if (rd_compile(s, &m) == RD_OK) {
    kind = rd_linsolChoose(m, RD_LINSOL_AUTO);
  }
  rd_destroySpec(&s);
  rd_destroyModel(&m);
  return kind;
}


static void auto_choice(void) {
  rdContext* ctx = NULL;
  rd_createContext(&ctx, NULL);
  CHECK(chosen(model_lattice(ctx, 7, 7, 7, 0.3, 0)) == RD_LINSOL_CHOLMOD);  // 1029 unknowns
  CHECK(chosen(model_lattice(ctx, 4, 3, 3, 0.3, 0)) == RD_LINSOL_KLU);      // 108: too small
  CHECK(chosen(model_lattice(ctx, 3, 3, 2, 0.3, 0)) == RD_LINSOL_DENSE);    // 54: the own LU
  CHECK(chosen(model_lattice(ctx, 5, 3, 2, 0.3, 0)) == RD_LINSOL_KLU);      // 90
  // dampers: not symmetric; KLU on a small mesh, UMFPACK once the fill is mesh-like
  CHECK(chosen(model_lattice(ctx, 5, 5, 5, 0.3, 5)) == RD_LINSOL_KLU);          // 375 unknowns
  CHECK(chosen(model_lattice(ctx, 7, 7, 7, 0.3, 5)) == RD_LINSOL_UMFPACK);      // 1029
  CHECK(chosen(model_heavyTopAlpha(ctx, 0.9, 1e-3, NULL)) == RD_LINSOL_DENSE);  // 9 unknowns
  CHECK(chosen(model_chain(ctx, 2000, 0)) == RD_LINSOL_KLU);                    // 22000, banded
  rdSpec* s = model_lattice(ctx, 7, 7, 7, 0.3, 0);
  rds_setOption(s, "solver.linear_solver", "umfpack");
  rdModel* m = NULL;
  CHECK(rd_compile(s, &m) == RD_OK);
  CHECK(rd_linsolChoose(m, m->opt.linear_solver) == RD_LINSOL_UMFPACK);  // an explicit choice
  rdModelInfo info;
  CHECK(rd_modelInfo(m, &info) == RD_OK && !strcmp(info.linear_solver, "umfpack"));
  rd_destroySpec(&s);
  rd_destroyModel(&m);
  // what auto resolved to is in the model info (and in summary.json, rodrigues check)
  s = model_lattice(ctx, 7, 7, 7, 0.3, 0);
  CHECK(rd_compile(s, &m) == RD_OK);
  CHECK(rd_modelInfo(m, &info) == RD_OK && !strcmp(info.linear_solver, "cholmod"));
  rd_destroySpec(&s);
  rd_destroyModel(&m);
  rd_destroyContext(&ctx);
}


static void refusals(void) {
  rdContext* ctx = NULL;
  rd_createContext(&ctx, NULL);
  // joints: Lagrange multipliers
  rdSpec* s = model_heavyTopAlpha(ctx, 0.9, 1e-3, "cholmod");
  rdModel* m = NULL;
  rdData* d = NULL;
  CHECK(rd_compile(s, &m) == RD_OK);
  rd_destroySpec(&s);
  CHECK(rd_createData(m, &d) == RD_ERR_UNSUPPORTED);
  printf("heavy top: %s\n", rd_lastError(ctx));
  CHECK(strstr(rd_lastError(ctx), "saddle-point") != NULL);
  rd_destroyModel(&m);
  // a rotating node, no joints
  rd_createSpec(ctx, &s);
  rdNodeDef n = rd_defaultNodeDef();
  n.name = "spinner";
  n.angular_velocity[2] = 3;
  model_addRigidBody(s, &n, "body", 1, (double[3]){1, 1, 2}, NULL);
  rds_setOption(s, "solver.linear_solver", "cholmod");
  CHECK(rd_compile(s, &m) == RD_OK);
  rd_destroySpec(&s);
  CHECK(rd_createData(m, &d) == RD_ERR_UNSUPPORTED);
  printf("rigid node: %s\n", rd_lastError(ctx));
  CHECK(strstr(rd_lastError(ctx), "'spinner' rotates") != NULL);
  rd_destroyModel(&m);
  rd_destroyContext(&ctx);
}


int main(int argc, char** argv) {
  TEST_INIT(argc, argv);
  rdContext* ctx = NULL;
  rd_createContext(&ctx, NULL);
  TEST_CASE(linsol_level(ctx));
  rd_destroyContext(&ctx);
  TEST_CASE(model_level());
  TEST_CASE(auto_choice());
  TEST_CASE(refusals());
  return TEST_SUMMARY();
}
