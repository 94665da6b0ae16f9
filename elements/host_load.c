// SPDX-License-Identifier: MIT
// Host load callbacks: the forces and moments a host computes for a node set, and their
// Jacobians in the library's conventions.
#include <math.h>
#include <string.h>

#include "elements/coupling.h"
#include "elements/loads.h"
#include "src/core/core.h"

int rd_hostLoads(const rdModel* m, rdData* d, int i, double t, const double* q, const double* v,
                 double* f) {
  const rdLoadCallbackDef* c = &m->callback[i];
  int n = c->nnode;
  double* pose = d->cbuf;
  double* vel = pose + 7 * n;
  double* load = vel + 6 * n;
  rd_hostGather(n, c->nodes, q, v, NULL, pose, vel, NULL);
  memset(load, 0, 6 * (size_t)n * sizeof(double));
  int st = rd_hostStatus(m, c->callback(t, n, c->nodes, pose, vel, load, c->user), "load callback",
                         c->name, t);
  if (st != RD_OK) {
    return st;
  }
  for (int k = 0; k < n; k++) {
    for (int j = 0; j < 6; j++) {
      if (!isfinite(load[6 * k + j])) {
        return RD_ERROR(m->ctx, RD_RECOVER_NONFINITE,
                        "load callback '%s' returned a non-finite load on node '%s' at t = %.17g",
                        c->name, m->node_name[c->nodes[k]], t);
      }
      f[6 * c->nodes[k] + j] += load[6 * k + j];
    }
  }
  return RD_OK;
}


int rd_hostLoadJacobian(const rdModel* m, rdData* d, int i, double t, const double* q,
                        const double* v, double** K, double** C) {
  const rdLoadCallbackDef* c = &m->callback[i];
  int n = c->nnode, N = 6 * n;
  double* pose = d->cbuf;
  double* vel = pose + 7 * n;
  size_t nj = 6 * (size_t)m->jac_maxnode;
  double* A = rd_hostMatrices(m, d);
  double* B = A + nj * nj;
  size_t NN = (size_t)N * (size_t)N;
  rd_hostGather(n, c->nodes, q, v, NULL, pose, vel, NULL);
  memset(A, 0, NN * sizeof(double));
  memset(B, 0, NN * sizeof(double));
  int st = rd_hostStatus(m, c->jacobian(t, n, c->nodes, pose, vel, A, B, c->user),
                         "load callback Jacobian", c->name, t);
  if (st != RD_OK) {
    return st;
  }
  if (!rd_hostFinite(A, NN) || !rd_hostFinite(B, NN)) {
    return RD_ERROR(m->ctx, RD_RECOVER_NONFINITE,
                    "load callback '%s' returned a non-finite Jacobian at t = %.17g", c->name, t);
  }
  rd_hostToLibrary(m, n, c->nodes, q, v, NULL, A, B, NULL);
  for (size_t k = 0; k < NN; k++) {
    A[k] = -A[k];
    B[k] = -B[k];
  }
  *K = A;
  *C = B;
  return RD_OK;
}
