// SPDX-License-Identifier: MIT
// Host coupling: Jacobians of host load callbacks and user elements, converted from the host's
// global conventions (dtheta, w, dw/dt spatial) to the library's (dTheta, W, dW/dt body).
#include <math.h>
#include <string.h>

#include "src/core/core.h"
#include "src/model/data_impl.h"
#include "rodrigues/liegroup.h"
#include "src/math/blk.h"

// gather the states of nodes[0..n-1]: pose (7), velocity and angular velocity (global) and,
// if vd is not NULL, acceleration and angular acceleration (global: dw/dt = R dW/dt)
static void gather(int n, const int* nodes, const double* q, const double* v, const double* vd,
                   double* pose, double* vel, double* acc) {
  for (int k = 0; k < n; k++) {
    int node = nodes[k];
    memcpy(pose + 7 * k, q + 7 * node, 7 * sizeof(double));
    v3_copy(vel + 6 * k, v + 6 * node);
    rdu_quatRotate(vel + 6 * k + 3, q + 7 * node + 3, v + 6 * node + 3);
    if (vd) {
      v3_copy(acc + 6 * k, vd + 6 * node);
      rdu_quatRotate(acc + 6 * k + 3, q + 7 * node + 3, vd + 6 * node + 3);
    }
  }
}


// A[:, c0..] += s X[:, c0..] B (both N x N)
static void cols_addmul(double* A, const double* X, int N, int c0, const double B[9], double s) {
  for (int i = 0; i < N; i++) {
    double* a = A + (size_t)i * (size_t)N + c0;
    const double* x = X + (size_t)i * (size_t)N + c0;
    for (int j = 0; j < 3; j++) {
      a[j] += s * (x[0] * B[j] + x[1] * B[3 + j] + x[2] * B[6 + j]);
    }
  }
}


// convert the matrices of one node set from global to library increments. Columns of rigid
// node l: dtheta = R dTheta, w = R W with dw/dTheta = -R W~ at fixed W, dw/dt = R dW/dt with
// d(dw/dt)/dTheta = -R (dW/dt)~. Rows of rigid node k: moment rows times R^T. K, C, M may be
// NULL (then left out); C and M are read for K's rotation columns before they are converted.
static void convert(const rdModel* m, int n, const int* nodes, const double* q, const double* v,
                    const double* vd, double* K, double* C, double* M) {
  int N = 6 * n;
  for (int l = 0; l < n; l++) {
    int node = nodes[l];
    if (m->node_kind[node] != RD_NODE_RIGID) {
      continue;
    }
    double R[9], P[9];
    rdu_quatToMat(R, q + 7 * node + 3);
    int c0 = 6 * l + 3;
    if (K) {
      blk_colsMul(K, N, c0, R);
      if (C) {
        blk_mulSkew(P, R, v + 6 * node + 3);
        cols_addmul(K, C, N, c0, P, -1);
      }
      if (M && vd) {
        blk_mulSkew(P, R, vd + 6 * node + 3);
        cols_addmul(K, M, N, c0, P, -1);
      }
    }
    if (C) {
      blk_colsMul(C, N, c0, R);
    }
    if (M) {
      blk_colsMul(M, N, c0, R);
    }
  }
  for (int k = 0; k < n; k++) {
    int node = nodes[k];
    if (m->node_kind[node] != RD_NODE_RIGID) {
      continue;
    }
    double R[9];
    rdu_quatToMat(R, q + 7 * node + 3);
    double* X[3] = {K, C, M};
    for (int a = 0; a < 3; a++) {
      if (X[a]) {
        blk_rowsTmul(X[a], N, 6 * k + 3, R);
      }
    }
  }
}


static int all_finite(const double* x, size_t n) {
  double z = 0;
  for (size_t i = 0; i < n; i++) {
    z += x[i] * 0.0;
  }
  return z == 0;
}


// status of a host callback: RD_OK, or the error raised for it
static int callback_status(const rdModel* m, int st, const char* what, const char* name,
                           double t) {
  if (st > 0) {
    return RD_ERROR(m->ctx, RD_RECOVER_CALLBACK, "%s '%s' asked for a smaller step at t = %.17g",
                    what, name, t);
  }
  if (st < 0) {
    return RD_ERROR(m->ctx, RD_ERR_CALLBACK, "%s '%s' failed at t = %.17g (status %d)", what,
                    name, t, st);
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
  double* A = d->cbuf + 25 * (size_t)(m->callback_maxnode > m->user_maxnode
                                          ? m->callback_maxnode
                                          : m->user_maxnode);
  double* B = A + nj * nj;
  size_t NN = (size_t)N * (size_t)N;
  gather(n, c->nodes, q, v, NULL, pose, vel, NULL);
  memset(A, 0, NN * sizeof(double));
  memset(B, 0, NN * sizeof(double));
  int st = callback_status(m, c->jacobian(t, n, c->nodes, pose, vel, A, B, c->user),
                           "load callback Jacobian", c->name, t);
  if (st != RD_OK) {
    return st;
  }
  if (!all_finite(A, NN) || !all_finite(B, NN)) {
    return RD_ERROR(m->ctx, RD_RECOVER_NONFINITE,
                    "load callback '%s' returned a non-finite Jacobian at t = %.17g", c->name, t);
  }
  convert(m, n, c->nodes, q, v, NULL, A, B, NULL);
  for (size_t k = 0; k < NN; k++) {
    A[k] = -A[k];
    B[k] = -B[k];
  }
  *K = A;
  *C = B;
  return RD_OK;
}


int rd_userElemEval(const rdModel* m, rdData* d, int e, double t, const double* q,
                    const double* v, const double* vd, int jac, double** r, double** K,
                    double** C, double** M) {
  const rdUserElementDef* u = &m->user[e];
  int n = u->nnode, N = 6 * n;
  double* pose = d->cbuf;
  double* vel = pose + 7 * n;
  double* acc = vel + 6 * n;
  double* res = acc + 6 * n;
  size_t nj = 6 * (size_t)m->jac_maxnode;
  double* Kx = d->cbuf + 25 * (size_t)(m->callback_maxnode > m->user_maxnode
                                           ? m->callback_maxnode
                                           : m->user_maxnode);
  double* Cx = Kx + nj * nj;
  double* Mx = Cx + nj * nj;
  size_t NN = (size_t)N * (size_t)N;
  gather(n, u->nodes, q, v, vd, pose, vel, acc);
  memset(res, 0, (size_t)N * sizeof(double));
  if (jac) {
    memset(Kx, 0, NN * sizeof(double));
    memset(Cx, 0, NN * sizeof(double));
    memset(Mx, 0, NN * sizeof(double));
  }
  int st = u->callback(t, n, u->nodes, pose, vel, acc, res, jac ? Kx : NULL, jac ? Cx : NULL,
                       jac ? Mx : NULL, u->user);
  st = callback_status(m, st, "user element", u->name, t);
  if (st != RD_OK) {
    return st;
  }
  if (!all_finite(res, (size_t)N) ||
      (jac && (!all_finite(Kx, NN) || !all_finite(Cx, NN) || !all_finite(Mx, NN)))) {
    return RD_ERROR(m->ctx, RD_RECOVER_NONFINITE,
                    "user element '%s' returned non-finite values at t = %.17g", u->name, t);
  }
  if (jac) {
    convert(m, n, u->nodes, q, v, vd, Kx, Cx, Mx);
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
