// SPDX-License-Identifier: MIT
// AKW: the implicit midpoint rule of Austin, Krishnaprasad & Wang for the rigid body.
//
// J Comp Phys 107, 1993: the midpoint rule for the body-frame Euler equation, with the attitude
// reconstructed by the Cayley map.
#include <math.h>
#include <string.h>

#include "rodrigues/liegroup.h"
#include "solver/rigid/rigid_implicit.h"
#include "src/core/core.h"
#include "src/math/vec3.h"

// Pi_{n+1} = Pi_n + h (Pibar x Wbar + Tbar), Pibar = (Pi_n + Pi_{n+1})/2, Wbar = J^-1 Pibar,
// R_{n+1} = R_n cay(h Wbar) (the midpoint rule for R' = R skew(W)). The unknown is
// w = h Wbar; Tbar is the body torque at the attitude midway along the Cayley rotation (the
// rotation part of (R_n + R_{n+1})/2), at t_n + h/2.

// atan(|w|/2) / |w|: the Cayley rotation by w turns by 2 atan(|w|/2) about w
static double half_angle_ratio(const double w[3]) {
  double n = v3_norm(w);
  return n > 1e-4 ? atan(0.5 * n) / n : 0.5 * (1 - n * n / 12);
}


static void attitude(const rgScratch* sc, const double x[3], double q[4]) {
  double phi[3];
  v3_scale(phi, x, half_angle_ratio(x));
  rg_rotateRight(q, sc->q0, phi);
}


// r = J w/h - Pi_n - (J w x w)/(2h) - h/2 Tbar
static void residual(const rgBody* b, const rgScratch* sc, double h, double r[3], double* scale) {
  double Jw[3], gyro[3];
  m3_mulv(Jw, b->J, sc->x);
  v3_cross(gyro, Jw, sc->x);
  v3_scale(r, Jw, 1 / h);
  v3_sub(r, r, sc->P0);
  v3_axpy(r, -0.5 / h, gyro);
  v3_axpy(r, -0.5 * h, sc->g);
  *scale = v3_norm(Jw) / h + v3_norm(sc->P0) + 0.5 / h * v3_norm(gyro) + 0.5 * h * v3_norm(sc->g);
}


// K = J/h - (skew(J w) - skew(w) J)/(2h) - h/2 dg
static void jacobian(const rgBody* b, const rgScratch* sc, double h, double K[9]) {
  double Jw[3], SJw[9], Sw[9], SwJ[9];
  m3_mulv(Jw, b->J, sc->x);
  m3_skew(SJw, Jw);
  m3_skew(Sw, sc->x);
  m3_mul(SwJ, Sw, b->J);
  for (int k = 0; k < 9; k++) {
    K[k] = b->J[k] / h - 0.5 / h * (SJw[k] - SwJ[k]) - 0.5 * h * sc->dg[k];
  }
}


static const rgImplicit akw = {"the midpoint angular velocity", 1, attitude, residual, jacobian};


RG_STEP int rg_stepAkw(const rdModel* m, rdData* d, rgView* v, double h) {
  int iters = 0;
  int st = rg_implicitSolve(m, d, v, &akw, h, &iters);
  if (st != RD_OK) {
    return st;
  }
  for (int i = 0; i < v->nb; i++) {
    const rgBody* b = &v->body[i];
    rgScratch* sc = &v->sc[i];
    double P[3], psi[3];
    // Pi_{n+1} = 2 Pibar - Pi_n
    m3_mulv(P, b->J, sc->x);
    v3_scale(P, P, 2 / h);
    v3_sub(P, P, sc->P0);
    m3_mulv(sc->b, b->Jinv, P);
    v3_scale(psi, sc->x, 2 * half_angle_ratio(sc->x));
    rg_rotateRight(sc->q, sc->q0, psi);
  }
  return rg_implicitFinish(m, d, v, h, iters);
}


static int akw_step(const rdModel* m, rdData* d, double h) {
  return rg_stepAkw(m, d, rg_view(m, d), h);
}

const rdStepper rd_stepperAkw = {
    .method = RD_METHOD_AKW,
    .check = rg_check,
    .memory_size = rg_memorySize,
    .work_size = rg_workSize,
    .initialize = rg_initialize,
    .step = akw_step,
};
