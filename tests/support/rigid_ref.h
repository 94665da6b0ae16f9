// SPDX-License-Identifier: MIT
// Solver-independent references for the rigid-body tests and benchmarks (header-only): an
// adaptive Dormand-Prince 5(4) integrator of the rigid-body equations on quaternions, the errors
// between two states, and a run of a library model to compare with them.
#ifndef RD_TEST_RIGID_REF_H
#define RD_TEST_RIGID_REF_H

#include <math.h>
#include <string.h>

#include "rodrigues/rodrigues.h"
#include "tests/support/dopri_tableau.h"

// ---------------------------------------------------------------------------------------------
// the reference ODE: y = (q[4], W[3]); q' = q (0, W)/2, J W' = R^T t(t, R) - W x J W, with J
// the diagonal inertia about the rotation point and t the spatial torque about it

typedef void (*refTorque)(double t, const double R[9], double tau[3], const void* par);

typedef struct refProblem_ {
  double J[3];
  refTorque torque;  // NULL: torque-free
  const void* par;
} refProblem;

static inline void ref_quatToMat(double R[9], const double q[4]) {
  double s = 2.0 / (q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
  double w = q[0], x = q[1], y = q[2], z = q[3];
  R[0] = 1 - s * (y * y + z * z);
  R[1] = s * (x * y - w * z);
  R[2] = s * (x * z + w * y);
  R[3] = s * (x * y + w * z);
  R[4] = 1 - s * (x * x + z * z);
  R[5] = s * (y * z - w * x);
  R[6] = s * (x * z - w * y);
  R[7] = s * (y * z + w * x);
  R[8] = 1 - s * (x * x + y * y);
}

static inline void ref_rhs(const refProblem* p, double t, const double y[7], double dy[7]) {
  const double* q = y;
  const double* W = y + 4;
  dy[0] = 0.5 * (-q[1] * W[0] - q[2] * W[1] - q[3] * W[2]);
  dy[1] = 0.5 * (q[0] * W[0] + q[2] * W[2] - q[3] * W[1]);
  dy[2] = 0.5 * (q[0] * W[1] + q[3] * W[0] - q[1] * W[2]);
  dy[3] = 0.5 * (q[0] * W[2] + q[1] * W[1] - q[2] * W[0]);
  double T[3] = {0, 0, 0};
  if (p->torque) {
    double R[9], tau[3];
    ref_quatToMat(R, q);
    p->torque(t, R, tau, p->par);
    for (int i = 0; i < 3; i++) {
      T[i] = R[i] * tau[0] + R[3 + i] * tau[1] + R[6 + i] * tau[2];
    }
  }
  double P[3] = {p->J[0] * W[0], p->J[1] * W[1], p->J[2] * W[2]};
  dy[4] = (T[0] - (W[1] * P[2] - W[2] * P[1])) / p->J[0];
  dy[5] = (T[1] - (W[2] * P[0] - W[0] * P[2])) / p->J[1];
  dy[6] = (T[2] - (W[0] * P[1] - W[1] * P[0])) / p->J[2];
}

// Dormand-Prince 5(4) with error control (rtol, atol = rtol * 1e-3), local extrapolation, the
// quaternion renormalized after each step; integrates y from t0 to t1. Returns the step count.
static inline long ref_integrate(const refProblem* p, double t0, double t1, double y[7],
                                 double rtol) {
  const double* c = rd_dp_c;
  const double(*a)[6] = rd_dp_a;
  const double* e = rd_dp_e;
  double t = t0, h = 1e-4 * (t1 - t0 > 0 ? 1 : 0);
  long steps = 0;
  double k[7][7];
  ref_rhs(p, t, y, k[0]);
  while (t < t1) {
    if (t + h > t1) {
      h = t1 - t;
    }
    double ys[7], yn[7];
    for (int s = 1; s < 7; s++) {
      for (int i = 0; i < 7; i++) {
        double sum = 0;
        for (int j = 0; j < s; j++) {
          sum += a[s][j] * k[j][i];
        }
        ys[i] = y[i] + h * sum;
      }
      ref_rhs(p, t + c[s] * h, ys, k[s]);
    }
    memcpy(yn, ys, sizeof(yn));  // stage 7 is the 5th-order solution (FSAL)
    double err = 0;
    for (int i = 0; i < 7; i++) {
      double sum = 0;
      for (int s = 0; s < 7; s++) {
        sum += e[s] * k[s][i];
      }
      double sc = rtol * 1e-3 + rtol * fmax(fabs(y[i]), fabs(yn[i]));
      err = fmax(err, fabs(h * sum) / sc);
    }
    if (err <= 1) {
      t = t1 - t < 1e-15 * fabs(t1) ? t1 : t + h;
      double nq = sqrt(yn[0] * yn[0] + yn[1] * yn[1] + yn[2] * yn[2] + yn[3] * yn[3]);
      for (int i = 0; i < 4; i++) {
        yn[i] /= nq;
      }
      memcpy(y, yn, sizeof(yn));
      ref_rhs(p, t, y, k[0]);
      steps++;
    }
    double fac = err > 0 ? 0.9 * pow(err, -0.2) : 5;
    h *= fmin(5, fmax(0.2, fac));
  }
  return steps;
}

// ---------------------------------------------------------------------------------------------
// errors between states

// spectral norm of R(qa) - R(qb) = 2 sin(theta/2), theta the relative rotation angle, for
// quaternions of any norm; from the vector part of conj(qb) qa (no cancellation for small angles)
static inline double ref_attitudeError(const double qa[4], const double qb[4]) {
  double na = sqrt(qa[0] * qa[0] + qa[1] * qa[1] + qa[2] * qa[2] + qa[3] * qa[3]);
  double nb = sqrt(qb[0] * qb[0] + qb[1] * qb[1] + qb[2] * qb[2] + qb[3] * qb[3]);
  const double *a = qa, *b = qb;
  double x = b[0] * a[1] - b[1] * a[0] - (b[2] * a[3] - b[3] * a[2]);
  double y = b[0] * a[2] - b[2] * a[0] - (b[3] * a[1] - b[1] * a[3]);
  double z = b[0] * a[3] - b[3] * a[0] - (b[1] * a[2] - b[2] * a[1]);
  // sin(theta/2) = |v| for theta in [0, pi] (q and -q are the same rotation)
  double v = sqrt(x * x + y * y + z * z) / (na * nb);
  return 2.0 * (v < 1.0 ? v : 1.0);
}


// |J Wa - J Wb|
static inline double ref_momentumError(const double J[3], const double Wa[3], const double Wb[3]) {
  double s = 0;
  for (int i = 0; i < 3; i++) {
    double d = J[i] * (Wa[i] - Wb[i]);
    s += d * d;
  }
  return sqrt(s);
}

// quaternion of a rotation vector
static inline void ref_rotvecToQuat(double q[4], const double psi[3]) {
  double a = sqrt(psi[0] * psi[0] + psi[1] * psi[1] + psi[2] * psi[2]);
  double s = a > 0 ? sin(0.5 * a) / a : 0.5;
  q[0] = cos(0.5 * a);
  q[1] = s * psi[0];
  q[2] = s * psi[1];
  q[3] = s * psi[2];
}

// ---------------------------------------------------------------------------------------------
// the Lagrangian top and runs of library models

// the spatial torque -20 R(:,3) x e3 = (-20 R23, 20 R13, 0) of the Lagrangian top of Krysl &
// Endres (2005) §3.4-3.5 (m g l = 20; model_lagrangeTop in tests/support/models.h)
static inline void ref_topTorque(double t, const double R[9], double tau[3], const void* par) {
  (void)t;
  (void)par;
  tau[0] = -20.0 * R[5];
  tau[1] = 20.0 * R[2];
  tau[2] = 0.0;
}

// run a model from its initial state to tend; quaternion and body angular velocity of node 0,
// and the statistics. Returns the status of the first failing call.
static inline int ref_run(const rdModel* m, double tend, double q[4], double W[3], rdStats* st) {
  rdData* d = NULL;
  int s = rd_createData(m, &d);
  s = s ? s : rd_initialize(m, d);
  s = s ? s : rd_advance(m, d, tend, NULL, NULL);
  if (s == RD_OK) {
    rd_getNodeState(m, d, 0, NULL, q, NULL, NULL, W);
    if (st) {
      rd_getStats(d, st);
    }
  }
  rd_destroyData(&d);
  return s;
}

#endif  // RD_TEST_RIGID_REF_H
