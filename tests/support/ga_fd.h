// SPDX-License-Identifier: MIT
// Finite-difference check of the assembled iteration matrix against the residual, through the
// generalized-alpha update map x -> (q_n o exp(psi + x), v + g' x, vd + b' x, lam + mu).
#ifndef RD_GA_FD_H
#define RD_GA_FD_H

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rodrigues/liegroup.h"
#include "solver/assemble.h"
#include "solver/pattern.h"
#include "src/model/data_impl.h"

// configuration q (nnode x 7) = qn o exp(psi + dx) for the DOF increment dx
static void gafd_config(const rdModel* m, const double* qn, const double* psi, const double* dx,
                        double* q) {
  for (int i = 0; i < m->nnode; i++) {
    const double* dxi = dx + m->node_dof[i];
    for (int k = 0; k < 3; k++) {
      q[7 * i + k] = qn[7 * i + k] + dxi[k];
    }
    if (m->node_kind[i] != RD_NODE_RIGID) {
      memcpy(q + 7 * i + 3, qn + 7 * i + 3, 4 * sizeof(double));
      continue;
    }
    double p[3], e[4], r[4];
    for (int k = 0; k < 3; k++) {
      p[k] = psi[3 * i + k] + dxi[3 + k];
    }
    rdu_rotvecToQuat(e, p);
    rdu_quatMul(r, qn + 7 * i + 3, e);
    rdu_quatNormalize(q + 7 * i + 3, r);
  }
}


// residual at increment (dx, mu) from the base state
static void gafd_res(const rdModel* m, rdData* d, double t, const double* qn, const double* psi,
                     const double* v0, const double* vd0, const double* lam0, double bp, double gp,
                     const double* x, double* r) {
  int nn = m->nnode;
  double* q = malloc(sizeof(double) * 7 * (size_t)nn);
  double* v = malloc(sizeof(double) * 6 * (size_t)nn);
  double* vd = malloc(sizeof(double) * 6 * (size_t)nn);
  double* lam = malloc(sizeof(double) * ((size_t)m->nconstraint + 1));
  gafd_config(m, qn, psi, x, q);
  memcpy(v, v0, sizeof(double) * 6 * (size_t)nn);
  memcpy(vd, vd0, sizeof(double) * 6 * (size_t)nn);
  for (int i = 0; i < nn; i++) {
    int n = m->node_kind[i] == RD_NODE_RIGID ? 6 : 3;
    for (int k = 0; k < n; k++) {
      v[6 * i + k] += gp * x[m->node_dof[i] + k];
      vd[6 * i + k] += bp * x[m->node_dof[i] + k];
    }
  }
  for (int k = 0; k < m->nconstraint; k++) {
    lam[k] = lam0[k] + x[m->ndof + k];
  }
  rdAsmCoef c = {0, 0, 0, NULL};
  rd_assemble(m, d, t, q, v, vd, lam, &c, r, NULL, NULL);
  free(q);
  free(v);
  free(vd);
  free(lam);
}


// largest relative mismatch between the assembled matrix and central differences of the
// residual at a random base state; also prints the worst entry when verbose
static double gafd_check(const rdModel* m, rdData* d, double t, double bp, double gp, unsigned seed,
                         int verbose) {
  int nn = m->nnode, N = m->ndof + m->nconstraint;
  srand(seed);
  double* qn = malloc(sizeof(double) * 7 * (size_t)nn);
  double* psi = calloc(3 * (size_t)nn, sizeof(double));
  double* v = malloc(sizeof(double) * 6 * (size_t)nn);
  double* vd = malloc(sizeof(double) * 6 * (size_t)nn);
  double* lam = calloc((size_t)m->nconstraint + 1, sizeof(double));
  double* x = calloc((size_t)N, sizeof(double));
  double* rp = malloc(sizeof(double) * (size_t)N);
  double* rm = malloc(sizeof(double) * (size_t)N);
  double* A = calloc((size_t)N * (size_t)N, sizeof(double));
  double* Ax = calloc((size_t)m->pattern->nnz, sizeof(double));
#define RND() (2.0 * rand() / RAND_MAX - 1)
  memcpy(qn, d->s.q, sizeof(double) * 7 * (size_t)nn);
  for (int i = 0; i < nn; i++) {
    for (int k = 0; k < 3; k++) {
      qn[7 * i + k] += 0.1 * RND();
      if (m->node_kind[i] == RD_NODE_RIGID) {
        psi[3 * i + k] = 0.7 * RND();
      }
    }
    for (int k = 0; k < 6; k++) {
      v[6 * i + k] = RND();
      vd[6 * i + k] = RND();
    }
  }
  for (int k = 0; k < m->nconstraint; k++) {
    lam[k] = 3 * RND();
  }
  // assembled: [b' M + g' C + (K + K^Phi) T, B^T; B T, 0] at the base state
  double* q = malloc(sizeof(double) * 7 * (size_t)nn);
  gafd_config(m, qn, psi, x, q);
  rdAsmCoef c = {bp, gp, 1, psi};
  rd_assemble(m, d, t, q, v, vd, lam, &c, rp, NULL, Ax);
  const rdPattern* P = m->pattern;
  for (int col = 0; col < N; col++) {
    for (int p = P->Ap[col]; p < P->Ap[col + 1]; p++) {
      A[(size_t)P->Ai[p] * (size_t)N + (size_t)col] = Ax[p];
    }
  }
  double worst = 0, scale = 0;
  for (int k = 0; k < N * N; k++) {
    scale = fmax(scale, fabs(A[k]));
  }
  int wi = -1, wj = -1;
  double wa = 0, wf = 0;
  double eps = 1e-6;
  for (int j = 0; j < N; j++) {
    x[j] = eps;
    gafd_res(m, d, t, qn, psi, v, vd, lam, bp, gp, x, rp);
    x[j] = -eps;
    gafd_res(m, d, t, qn, psi, v, vd, lam, bp, gp, x, rm);
    x[j] = 0;
    for (int i = 0; i < N; i++) {
      double fd = (rp[i] - rm[i]) / (2 * eps);
      double e = fabs(fd - A[(size_t)i * (size_t)N + (size_t)j]) / (scale > 0 ? scale : 1);
      if (e > worst) {
        worst = e;
        wi = i;
        wj = j;
        wa = A[(size_t)i * (size_t)N + (size_t)j];
        wf = fd;
      }
    }
  }
  if (verbose && worst > 1e-7) {
    char a[128], b[128];
    rd_unknownName(m, wi, a, sizeof(a));
    rd_unknownName(m, wj, b, sizeof(b));
    printf("  worst entry: row %s, column %s: assembled %.10g, differences %.10g\n", a, b, wa, wf);
  }
  free(qn);
  free(psi);
  free(v);
  free(vd);
  free(lam);
  free(x);
  free(rp);
  free(rm);
  free(A);
  free(Ax);
  free(q);
  return worst;
}

#endif  // RD_GA_FD_H
