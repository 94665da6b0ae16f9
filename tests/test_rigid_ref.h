// SPDX-License-Identifier: MIT
// Solver-independent references for the rigid-stepper tests: an adaptive Dormand-Prince 5(4)
// integrator of the rigid-body equations on quaternions, the Jacobi-elliptic solution of the
// torque-free body, and the models of Krysl & Endres 2005 §3 built through the C API.
#ifndef RD_TEST_RIGID_REF_H
#define RD_TEST_RIGID_REF_H

#include <gsl/gsl_sf_ellint.h>
#include <gsl/gsl_sf_elljac.h>
#include <gsl/gsl_errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "dopri_tableau.h"
#include "rodrigues/rodrigues.h"

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
// torque-free body, J1 < J2 < J3, M^2 < 2 E J2 (rotation about the axis of least inertia):
// W1 = B1 dn(u), W2 = B2 sn(u), W3 = B3 cn(u), u = lambda t + u0 (amplitudes from the energy and
// momentum, lambda and k from the Euler equations, u0 from the initial W)
typedef struct refElliptic_ {
  double B[3], lambda, m, u0;
} refElliptic;

static inline int ref_ellipticInit(refElliptic* el, const double J[3], const double W0[3]) {
  double E2 = J[0] * W0[0] * W0[0] + J[1] * W0[1] * W0[1] + J[2] * W0[2] * W0[2];
  double M2 = 0;
  for (int i = 0; i < 3; i++) {
    M2 += J[i] * J[i] * W0[i] * W0[i];
  }
  if (!(J[0] < J[1] && J[1] < J[2] && M2 < E2 * J[1])) {
    return -1;
  }
  // at sn = 0: J1 B1^2 + J3 B3^2 = 2E, J1^2 B1^2 + J3^2 B3^2 = M^2
  double B1s = (M2 - J[2] * E2) / (J[0] * (J[0] - J[2]));
  double B3s = (M2 - J[0] * E2) / (J[2] * (J[2] - J[0]));
  double B2s = (J[2] - J[0]) * J[2] * B3s / ((J[1] - J[0]) * J[1]);
  el->B[0] = sqrt(B1s) * (W0[0] < 0 ? -1 : 1);
  el->B[1] = sqrt(B2s);
  el->B[2] = sqrt(B3s);
  // J2 W2' = (J3 - J1) W3 W1 -> lambda; J1 W1' = (J2 - J3) W2 W3 -> k^2
  el->lambda = (J[2] - J[0]) * el->B[0] * el->B[2] / (J[1] * el->B[1]);
  el->m = (J[2] - J[1]) * el->B[1] * el->B[2] / (J[0] * el->B[0] * el->lambda);
  double am = atan2(W0[1] / el->B[1], W0[2] / el->B[2]);
  if (fabs(am) >= 2 * atan(1.0)) {
    return -1;  // not needed for the paper's data
  }
  el->u0 = gsl_sf_ellint_F(am, sqrt(el->m), GSL_PREC_DOUBLE);
  return 0;
}

static inline void ref_ellipticOmega(const refElliptic* el, double t, double W[3]) {
  double sn, cn, dn;
  gsl_sf_elljac_e(el->lambda * t + el->u0, el->m, &sn, &cn, &dn);
  W[0] = el->B[0] * dn;
  W[1] = el->B[1] * sn;
  W[2] = el->B[2] * cn;
}

// ---------------------------------------------------------------------------------------------
// errors between states

// spectral norm of R(qa) - R(qb) = 2 sin(theta/2), theta the relative rotation angle
static inline double ref_attitudeError(const double qa[4], const double qb[4]) {
  const double *a = qa, *b = qb;
  double x = b[0] * a[1] - b[1] * a[0] - (b[2] * a[3] - b[3] * a[2]);
  double y = b[0] * a[2] - b[2] * a[0] - (b[3] * a[1] - b[1] * a[3]);
  double z = b[0] * a[3] - b[3] * a[0] - (b[1] * a[2] - b[2] * a[1]);
  double v = sqrt(x * x + y * y + z * z);
  return 2.0 * (v < 1.0 ? v : 1.0);
}

// |J Wa - J Wb|
static inline double ref_momentumError(const double J[3], const double Wa[3],
                                       const double Wb[3]) {
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
// models through the C API

// heavy symmetric top of Krysl & Endres 2005 §3.4-3.5: pivot at the origin, node at the pivot,
// centre of mass at body (0, 0, 1), m = 1, g = 20 (so m g l = 20), inertia about the centre of mass
// diag(4, 4, 1) = diag(5, 5, 1) about the pivot; the spatial torque is -20 R(:,3) x e3
static inline void ref_topTorque(double t, const double R[9], double tau[3], const void* par) {
  (void)t;
  (void)par;
  tau[0] = -20.0 * R[5];
  tau[1] = 20.0 * R[2];
  tau[2] = 0.0;
}

// a spherical joint "pivot" from node to the ground at the origin
static inline void ref_addPivot(rdSpec* s, int node) {
  rdJointDef j = rd_defaultJointDef();
  j.name = "pivot";
  j.type = RD_JOINT_SPHERICAL;
  j.node[0] = node;
  j.node[1] = RD_GROUND;
  rds_addJoint(s, &j);
}


static inline rdModel* ref_buildTop(rdContext* ctx, const char* method, double h,
                                    const double psi0[3], const double W0[3]) {
  rdSpec* s = NULL;
  if (rd_createSpec(ctx, &s) != RD_OK) {
    return NULL;
  }
  rdNodeDef n = rd_defaultNodeDef();
  n.name = "top";
  ref_rotvecToQuat(n.orientation, psi0);
  memcpy(n.angular_velocity, W0, 3 * sizeof(double));
  n.angular_velocity_frame = RD_FRAME_BODY;
  int node = rds_addNode(s, &n);
  rdRigidBodyDef b = rd_defaultRigidBodyDef();
  b.name = "body";
  b.node = node;
  b.mass = 1;
  b.inertia[0] = b.inertia[4] = 4;
  b.inertia[8] = 1;
  b.com[2] = 1;
  rds_addRigidBody(s, &b);
  ref_addPivot(s, node);
  rds_setGravity(s, (double[3]){0, 0, -20});
  rds_setOption(s, "solver.method", method);
  rds_setOptionReal(s, "solver.time_step", h);
  rdModel* m = NULL;
  if (rd_compile(s, &m) != RD_OK) {
    printf("compile failed: %s\n", rd_lastError(ctx));
  }
  rd_destroySpec(&s);
  return m;
}

// free body with its node at the centre of mass, inertia diag(J), mass 1, no gravity
static inline rdModel* ref_buildFree(rdContext* ctx, const char* method, double h,
                                     const double J[3], const double W0[3]) {
  rdSpec* s = NULL;
  if (rd_createSpec(ctx, &s) != RD_OK) {
    return NULL;
  }
  rdNodeDef n = rd_defaultNodeDef();
  n.name = "body";
  memcpy(n.angular_velocity, W0, 3 * sizeof(double));
  n.angular_velocity_frame = RD_FRAME_BODY;
  int node = rds_addNode(s, &n);
  rdRigidBodyDef b = rd_defaultRigidBodyDef();
  b.name = "body";
  b.node = node;
  b.mass = 1;
  b.inertia[0] = J[0];
  b.inertia[4] = J[1];
  b.inertia[8] = J[2];
  rds_addRigidBody(s, &b);
  rds_setOption(s, "solver.method", method);
  rds_setOptionReal(s, "solver.time_step", h);
  rdModel* m = NULL;
  if (rd_compile(s, &m) != RD_OK) {
    printf("compile failed: %s\n", rd_lastError(ctx));
  }
  rd_destroySpec(&s);
  return m;
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
