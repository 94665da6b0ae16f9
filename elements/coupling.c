// SPDX-License-Identifier: MIT
// Host coupling conventions, shared by host load callbacks and user elements: node states
// gathered for the host (velocities global), the host's matrices converted from its global
// increments (dtheta, w, dw/dt spatial) to the library's (dTheta, W, dW/dt body), the statuses
// of its callbacks.
#include "elements/coupling.h"

#include <math.h>
#include <string.h>

#include "rodrigues/liegroup.h"
#include "src/core/core.h"
#include "src/math/blk.h"

void rd_hostGather(int n, const int* nodes, const double* q, const double* v, const double* vd,
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


void rd_hostToLibrary(const rdModel* m, int n, const int* nodes, const double* q, const double* v,
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


int rd_hostFinite(const double* x, size_t n) {
  double z = 0;
  for (size_t i = 0; i < n; i++) {
    z += x[i] * 0.0;
  }
  return z == 0;
}


double* rd_hostMatrices(const rdModel* m, rdData* d) {
  int n = m->callback_maxnode > m->user_maxnode ? m->callback_maxnode : m->user_maxnode;
  return d->cbuf + 25 * (size_t)n;
}


int rd_hostStatus(const rdModel* m, int st, const char* what, const char* name, double t) {
  if (st > 0) {
    return RD_ERROR(m->ctx, RD_RECOVER_CALLBACK, "%s '%s' asked for a smaller step at t = %.17g",
                    what, name, t);
  }
  if (st < 0) {
    return RD_ERROR(m->ctx, RD_ERR_CALLBACK, "%s '%s' failed at t = %.17g (status %d)", what, name,
                    t, st);
  }
  return RD_OK;
}
