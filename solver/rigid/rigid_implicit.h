// SPDX-License-Identifier: MIT
// Newton driver of the implicit rigid steppers (LIEMID[I], AKW).
#ifndef RD_RIGID_IMPLICIT_H
#define RD_RIGID_IMPLICIT_H

#include "solver/rigid/rigid.h"

// an implicit midpoint-type method: per body an unknown x (scratch x), the attitude where the
// torque is evaluated, the torque term g = R^T tau in the frame of that attitude (frame_is_mid)
// or of the start attitude q0, the residual r(x, g) and its Jacobian with dg = dg/dx (scratch)
typedef struct rgImplicit_ {
  const char* what;  // the unknown, for messages
  int frame_is_mid;
  void (*attitude)(const rgScratch* sc, const double x[3], double q[4]);
  void (*residual)(const rgBody* b, const rgScratch* sc, double h, double r[3], double* scale);
  void (*jacobian)(const rgBody* b, const rgScratch* sc, double h, double K[9]);
} rgImplicit;

// solve for every body's x at the midpoint time t + h/2: scratch q0, W0, P0 get the state at t,
// x the explicit Newmark guess; on success scratch g, tau and f hold the torque term, spatial
// torque and force at the solution; on failure *iters is added to the statistics
int rg_implicitSolve(const rdModel* m, rdData* d, rgView* v, const rgImplicit* im, double h,
                     int* iters);

// finish the step once each body's end attitude is in scratch q and its body angular velocity
// in scratch b: midpoint translation with the force of the solution, loads at the end for the
// accelerations, node states
int rg_implicitFinish(const rdModel* m, rdData* d, rgView* v, double h, int iters);

#endif  // RD_RIGID_IMPLICIT_H
