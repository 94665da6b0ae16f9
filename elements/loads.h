// SPDX-License-Identifier: MIT
// Applied loads (elements/loads.c), host load callbacks (elements/host_load.c), torque laws
// (elements/torque_law.c).
#ifndef RD_LOADS_H
#define RD_LOADS_H

#include "src/model/data_impl.h"

// applied loads at time t for configuration q (nnode x 7) and velocities v (nnode x 6):
// f (nnode x 6) receives force (global) and moment (global) at each node, from gravity on
// bodies and masses, nodal loads, host load callbacks, loads held by the host (rd_setNodeLoad)
// and torque laws; with d->load_skip, not the loads that act on skipped nodes only. Counts one
// load evaluation.
int rd_evalLoads(const rdModel* m, rdData* d, double t, const double* q, const double* v,
                 double* f);

// rd_evalLoads without the weights of bodies and point masses (the rigid steppers add those
// from their own body table). Counts one load evaluation.
int rd_evalLoadsNoGravity(const rdModel* m, rdData* d, double t, const double* q, const double* v,
                          double* f);

// 1 if d->load_skip leaves out every one of nodes[0..n)
static inline int rd_loadSkipped(const rdData* d, const int* nodes, int n) {
  if (!d->load_skip) {
    return 0;
  }
  for (int k = 0; k < n; k++) {
    if (!d->load_skip[nodes[k]]) {
      return 0;
    }
  }
  return 1;
}

// host load callback i at (t, q, v): its forces and moments (global) added to f (nnode x 6).
// RD_OK, a callback status or RD_RECOVER_NONFINITE.
int rd_hostLoads(const rdModel* m, rdData* d, int i, double t, const double* q, const double* v,
                 double* f);

// Jacobian of host load callback i at (t, q, v), converted to the library's increments (local
// layout 6 per node of the callback's set, N = 6 nnode, row-major N x N): K = -d f^/d(dx, dTheta)
// and C = -d f^/d(v, W) with f^ = (F, R^T M) per node, the dead-moment term -(R^T M)~ left out
// (the load stiffness has it). *K and *C point into d->cbuf. RD_OK or a callback status.
int rd_hostLoadJacobian(const rdModel* m, rdData* d, int i, double t, const double* q,
                        const double* v, double** K, double** C);

// torque of torque law i at (t, q, v) on its node, global frame (q nnode x 7, v nnode x 6; the
// formulas read the node's angular velocity). RD_OK or a callback status.
int rd_torqueLawEval(const rdModel* m, int i, double t, const double* q, const double* v,
                     double torque[3]);

// potential energy of the torque laws that derive from a potential (coulomb wall)
double rd_torqueLawPotential(const rdModel* m, const double* q);

#endif  // RD_LOADS_H
