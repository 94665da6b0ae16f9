// SPDX-License-Identifier: MIT
// User elements: residual and matrices of a host callback on a node set, in the library's
// conventions (moment rows in the body frame, increments dTheta, W, dW/dt).
#include "elements/user_element.h"

#include <string.h>

#include "elements/coupling.h"
#include "rodrigues/liegroup.h"
#include "src/core/core.h"
#include "src/math/vec3.h"

int rd_userElemEval(const rdModel* m, rdData* d, int e, double t, const double* q, const double* v,
                    const double* vd, int jac, double** r, double** K, double** C, double** M) {
  const rdUserElementDef* u = &m->user[e];
  int n = u->nnode, N = 6 * n;
  double* pose = d->cbuf;
  double* vel = pose + 7 * n;
  double* acc = vel + 6 * n;
  double* res = acc + 6 * n;
  size_t nj = 6 * (size_t)m->jac_maxnode;
  double* Kx = rd_hostMatrices(m, d);
  double* Cx = Kx + nj * nj;
  double* Mx = Cx + nj * nj;
  size_t NN = (size_t)N * (size_t)N;
  rd_hostGather(n, u->nodes, q, v, vd, pose, vel, acc);
  memset(res, 0, (size_t)N * sizeof(double));
  if (jac) {
    memset(Kx, 0, NN * sizeof(double));
    memset(Cx, 0, NN * sizeof(double));
    memset(Mx, 0, NN * sizeof(double));
  }
  int st = u->callback(t, n, u->nodes, pose, vel, acc, res, jac ? Kx : NULL, jac ? Cx : NULL,
                       jac ? Mx : NULL, u->user);
  st = rd_hostStatus(m, st, "user element", u->name, t);
  if (st != RD_OK) {
    return st;
  }
  if (!rd_hostFinite(res, (size_t)N) ||
      (jac && (!rd_hostFinite(Kx, NN) || !rd_hostFinite(Cx, NN) || !rd_hostFinite(Mx, NN)))) {
    return RD_ERROR(m->ctx, RD_RECOVER_NONFINITE,
                    "user element '%s' returned non-finite values at t = %.17g", u->name, t);
  }
  if (jac) {
    rd_hostToLibrary(m, n, u->nodes, q, v, vd, Kx, Cx, Mx);
  }
  // moment rows to the body frame; K gets d(R^T m)/dTheta = (R^T m)~ on its own rotation
  for (int k = 0; k < n; k++) {
    int node = u->nodes[k];
    if (m->node_kind[node] != RD_NODE_RIGID) {
      continue;
    }
    double mb[3];
    rdu_quatRotateInv(mb, q + 7 * node + 3, res + 6 * k + 3);
    v3_copy(res + 6 * k + 3, mb);
    if (jac) {
      double* a = Kx + (size_t)(6 * k + 3) * (size_t)N + 6 * k + 3;
      a[1] -= mb[2];
      a[2] += mb[1];
      a[N] += mb[2];
      a[N + 2] -= mb[0];
      a[2 * N] -= mb[1];
      a[2 * N + 1] += mb[0];
    }
  }
  *r = res;
  if (jac) {
    *K = Kx;
    *C = Cx;
    *M = Mx;
  }
  return RD_OK;
}
