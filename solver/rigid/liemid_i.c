// SPDX-License-Identifier: MIT
// LIEMID[I]: implicit midpoint Lie (Krysl, "Explicit Newmark algorithm for rotational
// dynamics", §3), the torque at the midpoint.
#include <string.h>

#include "rodrigues/liegroup.h"
#include "solver/rigid/rigid_implicit.h"
#include "src/core/core.h"
#include "src/math/vec3.h"

// J psi / h = exp(-psi/2) (Pi_n + h/2 R_n^T t(R_n exp(psi/2), t_n + h/2)), then
// R_{n+1} = R_n exp(psi), Pi_{n+1} = exp(-psi) (Pi_n + h R_n^T t_{n+1/2})
static void attitude(const rgScratch* sc, const double x[3], double q[4]) {
  double half[3];
  v3_scale(half, x, 0.5);
  rg_rotateRight(q, sc->q0, half);
}


static void impulse(const rgScratch* sc, double h, double bv[3]) {
  v3_copy(bv, sc->P0);
  v3_axpy(bv, 0.5 * h, sc->g);
}


static void residual(const rgBody* b, const rgScratch* sc, double h, double r[3], double* scale) {
  double bv[3], half[3], Eb[3], Jx[3];
  impulse(sc, h, bv);
  v3_scale(half, sc->x, -0.5);
  rg_expRotate(Eb, half, bv);
  m3_mulv(Jx, b->J, sc->x);
  v3_scale(Jx, Jx, 1 / h);
  v3_sub(r, Jx, Eb);
  *scale = v3_norm(Jx) + v3_norm(sc->P0) + 0.5 * h * v3_norm(sc->g);
}


// K = J/h - 1/2 E skew(b) T(-psi/2) - h/2 E dg, E = exp(-psi/2)
static void jacobian(const rgBody* b, const rgScratch* sc, double h, double K[9]) {
  double bv[3], half[3], E[9], T[9], Sb[9], M[9], G[9], EG[9];
  impulse(sc, h, bv);
  v3_scale(half, sc->x, -0.5);
  rdu_expSO3(E, half);
  rdu_tangentSO3(T, half);
  m3_skew(Sb, bv);
  m3_mul(M, Sb, T);
  for (int k = 0; k < 9; k++) {
    G[k] = 0.5 * M[k] + 0.5 * h * sc->dg[k];
  }
  m3_mul(EG, E, G);
  for (int k = 0; k < 9; k++) {
    K[k] = b->J[k] / h - EG[k];
  }
}


static const rgImplicit liemid_i = {"the incremental rotation vector", 0, attitude, residual,
                                    jacobian};


RG_STEP int rg_stepLiemidI(const rdModel* m, rdData* d, rgView* v, double h) {
  int iters = 0;
  int st = rg_implicitSolve(m, d, v, &liemid_i, h, &iters);
  if (st != RD_OK) {
    return st;
  }
  for (int i = 0; i < v->nb; i++) {
    const rgBody* b = &v->body[i];
    rgScratch* sc = &v->sc[i];
    double P[3], mx[3];
    v3_copy(P, sc->P0);
    v3_axpy(P, h, sc->g);
    v3_scale(mx, sc->x, -1);
    rg_expRotate(P, mx, P);
    m3_mulv(sc->b, b->Jinv, P);
    rg_rotateRight(sc->q, sc->q0, sc->x);
  }
  return rg_implicitFinish(m, d, v, h, iters);
}


static int liemid_i_step(const rdModel* m, rdData* d, double h) {
  return rg_stepLiemidI(m, d, rg_view(m, d), h);
}

const rdStepper rd_stepperLiemidI = {
    .method = RD_METHOD_LIEMID_I,
    .check = rg_check,
    .memory_size = rg_memorySize,
    .work_size = rg_workSize,
    .initialize = rg_initialize,
    .step = liemid_i_step,
};
