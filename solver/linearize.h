// SPDX-License-Identifier: MIT
// Linearization of the equations of motion at an operating point (docs/modal.md): the mass,
// damping (with gyroscopic) and stiffness matrices on the tangent space of the configuration,
// in the inertial frame or in a frame spinning at a constant rate, the constraint Jacobian, and
// the steady state of a spinning model.
#ifndef RD_LINEARIZE_H
#define RD_LINEARIZE_H

#include "solver/csc.h"
#include "src/model/data_impl.h"

// the frame the perturbations are measured in: it turns at the angular velocity omega (global,
// rad/s) about the point center; omega = 0 is the inertial frame
typedef struct rdLinFrame_ {
  double omega[3];
  double center[3];
} rdLinFrame;

// the rates of the rigid rotation of frame f at the configuration q (nnode x 7): v (nnode x 6)
// = (omega x (x - c), R^T omega) and vd = (omega x (omega x (x - c)), 0); point nodes get only
// their translation
void rd_linFrameRates(const rdModel* m, const rdLinFrame* f, const double* q, double* v,
                      double* vd);

// The linearized equations at the state (t, q, v, vd, lam), perturbations y measured in frame
// f (translations in the frame's axes, which are the global ones at t, rotations in the body
// frame): M y'' + D y' + K y + B^T mu = 0, B y = 0, with (docs/modal.md)
//   M = dr/dvd,  D = dr/dv + M Gc,  K = dr/dq + (dr/dv) Gv + M Ga,
//   Gv = diag(omega~, W~), Gc = diag(2 omega~, W~), Ga = diag(omega~ omega~, Wd~) per node.
// dr/dq includes the joints' K^Phi at lam and the load stiffness, as in the time stepper.
// M, D, K: ndof x ndof, B: nconstraint x ndof (allocated here; free with rd_cscFree). If r is
// not NULL it receives the residual (ndof + nconstraint) at the state. RD_OK or a status of the
// assembly.
int rd_linMatrices(const rdModel* m, rdData* d, double t, const double* q, const double* v,
                   const double* vd, const double* lam, const rdLinFrame* f, double* r, rdCsc* M,
                   rdCsc* D, rdCsc* K, rdCsc* B);

// The steady state in frame f at time t: Newton on the residual with v, vd the rates of the
// frame's rotation (rd_linFrameRates) and phi = 0, for the configuration q (nnode x 7) and the
// multipliers lam (nconstraint), both updated in place; with omega = 0 it is the static
// equilibrium (inertia, damping and the loads at t). When the full rate does not converge the
// rate is ramped up in 2, 4, ..., 16 stages. *iterations (may be NULL) receives the Newton
// iterations. RD_OK, RD_ERR_NUMERIC (no convergence, singular matrix: the message says where)
// or a status of the assembly.
int rd_linSteady(const rdModel* m, rdData* d, double t, const rdLinFrame* f, double* q, double* lam,
                 int* iterations);

#endif  // RD_LINEARIZE_H
