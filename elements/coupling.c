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
#include "src/math/vec3.h"

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


// 3 columns c0.. of the N-row matrix A, times B (3x3): A[:, c0..c0+2] = A[:, c0..] B
static void cols_mul(double* A, int N, int c0, const double B[9]) {
  for (int i = 0; i < N; i++) {
    double* a = A + (size_t)i * (size_t)N + c0;
    double t0 = a[0], t1 = a[1], t2 = a[2];
    a[0] = t0 * B[0] + t1 * B[3] + t2 * B[6];
    a[1] = t0 * B[1] + t1 * B[4] + t2 * B[7];
    a[2] = t0 * B[2] + t1 * B[5] + t2 * B[8];
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


// rows r0..r0+2 of the N-column matrix A: A[r0.., :] = R^T A[r0.., :]
static void rows_tmul(double* A, int N, int r0, const double R[9]) {
  double* a0 = A + (size_t)r0 * (size_t)N;
  double* a1 = a0 + N;
  double* a2 = a1 + N;
  for (int j = 0; j < N; j++) {
    double t0 = a0[j], t1 = a1[j], t2 = a2[j];
    a0[j] = R[0] * t0 + R[3] * t1 + R[6] * t2;
    a1[j] = R[1] * t0 + R[4] * t1 + R[7] * t2;
    a2[j] = R[2] * t0 + R[5] * t1 + R[8] * t2;
  }
}


// P = R skew(w)
static void r_skew(double P[9], const double R[9], const double w[3]) {
  double S[9] = {0, -w[2], w[1], w[2], 0, -w[0], -w[1], w[0], 0};
  m3_mul(P, R, S);
}


void rd_hostToLibrary(const rdModel* m, int n, const int* nodes, const double* q,
                      const double* v, const double* vd, double* K, double* C, double* M) {
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
      cols_mul(K, N, c0, R);
      if (C) {
        r_skew(P, R, v + 6 * node + 3);
        cols_addmul(K, C, N, c0, P, -1);
      }
      if (M && vd) {
        r_skew(P, R, vd + 6 * node + 3);
        cols_addmul(K, M, N, c0, P, -1);
      }
    }
    if (C) {
      cols_mul(C, N, c0, R);
    }
    if (M) {
      cols_mul(M, N, c0, R);
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
        rows_tmul(X[a], N, 6 * k + 3, R);
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
    return RD_ERROR(m->ctx, RD_ERR_CALLBACK, "%s '%s' failed at t = %.17g (status %d)", what,
                    name, t, st);
  }
  return RD_OK;
}
