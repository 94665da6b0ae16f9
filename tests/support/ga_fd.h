// SPDX-License-Identifier: MIT
// Finite-difference check of the assembled iteration matrix against the residual, through the
// generalized-alpha update map x -> (q_n o exp(psi + x), v + g' x, vd + b' x, lam + mu), in
// the body form (R_n exp(psi + x), body rates) or the spatial one (gafd_spatial = 1: spatial
// rates, exp(psi + R0 x) R_n with x in body components at the base R0 = exp(psi) R_n, and the
// rates moved by R0 x).
#ifndef RD_GA_FD_H
#define RD_GA_FD_H

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rodrigues/liegroup.h"
#include "solver/assemble.h"
#include "solver/pattern.h"
#include "src/model/data_impl.h"

// 1: the checks below use the spatial form (solver.rotation_frame = spatial)
static int gafd_spatial = 0;

// the increment of the update for the DOF increment dx, 6 per node: dx itself, or in the
// spatial form with rotation parts R0 dx (R0 = exp(psi) R_n, the base configuration)
static void gafd_increment(const rdModel* m, const double* qn, const double* psi, const double* dx,
                           double* out) {
  for (int i = 0; i < m->nnode; i++) {
    const double* dxi = dx + m->node_dof[i];
    int rigid = m->node_kind[i] == RD_NODE_RIGID;
    for (int k = 0; k < 6; k++) {
      out[6 * i + k] = k < 3 || rigid ? dxi[k] : 0;
    }
    if (rigid && gafd_spatial) {
      double e[4], r0[4];
      rdu_rotvecToQuat(e, psi + 3 * i);
      rdu_quatMul(r0, e, qn + 7 * i + 3);
      rdu_quatRotate(out + 6 * i + 3, r0, dxi + 3);
    }
  }
}


// configuration q (nnode x 7) = qn o exp(psi + dx) for the DOF increment dx
static void gafd_config(const rdModel* m, const double* qn, const double* psi, const double* dx,
                        double* q) {
  double* inc = malloc(sizeof(double) * 6 * (size_t)m->nnode);
  gafd_increment(m, qn, psi, dx, inc);
  for (int i = 0; i < m->nnode; i++) {
    const double* dxi = inc + 6 * i;
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
    if (gafd_spatial) {
      rdu_quatMul(r, e, qn + 7 * i + 3);
    } else {
      rdu_quatMul(r, qn + 7 * i + 3, e);
    }
    rdu_quatNormalize(q + 7 * i + 3, r);
  }
  free(inc);
}


// the rates the assembly reads (body) from the rates of the form (spatial: R^T x at q), into
// out; map (nnode x RD_ASM_SPATIAL, spatial form only) receives the assembly's node data with
// the tangent operators of psi (may be NULL); returns the map for rdAsmCoef.spatial (NULL in
// the body form)
static const double* gafd_body(const rdModel* m, const double* q, const double* v, const double* vd,
                               const double* psi, double* vb, double* vdb, double* map) {
  size_t n6 = 6 * (size_t)m->nnode;
  memcpy(vb, v, sizeof(double) * n6);
  memcpy(vdb, vd, sizeof(double) * n6);
  if (!gafd_spatial) {
    return NULL;
  }
  for (int i = 0; i < m->nnode; i++) {
    if (m->node_kind[i] == RD_NODE_RIGID) {
      rdu_quatRotateInv(vb + 6 * i + 3, q + 7 * i + 3, v + 6 * i + 3);
      rdu_quatRotateInv(vdb + 6 * i + 3, q + 7 * i + 3, vd + 6 * i + 3);
    }
  }
  rd_assembleSpatialMaps(m, q, vb, vdb, psi, map);
  return map;
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
  double* vb = malloc(sizeof(double) * 6 * (size_t)nn);
  double* vdb = malloc(sizeof(double) * 6 * (size_t)nn);
  double* map = malloc(sizeof(double) * RD_ASM_SPATIAL * (size_t)nn);
  gafd_config(m, qn, psi, x, q);
  gafd_increment(m, qn, psi, x, vb);
  memcpy(v, v0, sizeof(double) * 6 * (size_t)nn);
  memcpy(vd, vd0, sizeof(double) * 6 * (size_t)nn);
  for (int k = 0; k < 6 * nn; k++) {
    v[k] += gp * vb[k];
    vd[k] += bp * vb[k];
  }
  for (int k = 0; k < m->nconstraint; k++) {
    lam[k] = lam0[k] + x[m->ndof + k];
  }
  gafd_body(m, q, v, vd, NULL, vb, vdb, map);
  rdAsmCoef c = {0, 0, 0, NULL, NULL};
  rd_assemble(m, d, t, q, vb, vdb, lam, &c, r, NULL, NULL);
  free(q);
  free(v);
  free(vd);
  free(lam);
  free(vb);
  free(vdb);
  free(map);
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
  double* vb = malloc(sizeof(double) * 6 * (size_t)nn);
  double* vdb = malloc(sizeof(double) * 6 * (size_t)nn);
  double* map = malloc(sizeof(double) * RD_ASM_SPATIAL * (size_t)nn);
  gafd_config(m, qn, psi, x, q);
  rdAsmCoef c = {bp, gp, 1, psi, gafd_body(m, q, v, vd, psi, vb, vdb, map)};
  rd_assemble(m, d, t, q, vb, vdb, lam, &c, rp, NULL, Ax);
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
  free(vb);
  free(vdb);
  free(map);
  return worst;
}

#endif  // RD_GA_FD_H
