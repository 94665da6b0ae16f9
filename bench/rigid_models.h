// SPDX-License-Identifier: MIT
// Seed 003 §3 rigid-body problems as plain ODEs for independent integrators (GSL, RK4 loops).
//
// The data here duplicate input/rigid/*.yaml on purpose: the reference must not go through the
// library's model. Keep both in sync; rigid_reference --deck FILE checks the initial state,
// body momentum, kinetic energy and final time of a deck against these tables.
//
// State y[7] = (qw, qx, qy, qz, Omega_x, Omega_y, Omega_z): body->spatial unit quaternion and
// body (convected) angular velocity; J is the (diagonal) inertia about the fixed point, body
// frame; the torque is given in the spatial frame as a function of t and R.
#ifndef RD_BENCH_RIGID_MODELS_H
#define RD_BENCH_RIGID_MODELS_H

#include <math.h>
#include <string.h>

#include "tests/test_rigid_ref.h"  // ref_quatToMat: the rotation matrix of q/|q|

typedef void (*rigidTorqueFn)(double t, const double R[9], double tau[3]);
typedef double (*rigidPotentialFn)(const double R[9]);

typedef struct rigidModel_ {
  const char* name;     // deck base name: input/rigid/<name>.yaml
  double J[3];          // diagonal inertia about the fixed point (body frame)
  double psi0[3];       // initial rotation vector, R0 = exp(skew(psi0))
  double omega0[3];     // initial body angular velocity (R0 = I: also the spatial one)
  double tend;          // final time of the paper's convergence study
  rigidTorqueFn torque;  // spatial torque, NULL for none
  rigidPotentialFn potential;  // its potential, to check a deck's energy (NULL: not checked)
} rigidModel;

// heavy symmetric top, Krysl & Endres 2005 §3.4-3.5: t = -20 R(:,3) x e3 (m g l = 20)
static inline void rigid_torque_top(double t, const double R[9], double tau[3]) {
  (void)t;
  // R(:,3) x e3 = (R23, -R13, 0)
  tau[0] = -20.0 * R[5];
  tau[1] = 20.0 * R[2];
  tau[2] = 0.0;
}

static inline double rigid_potential_top(const double R[9]) {
  return 20.0 * R[8];
}

static inline double rigid_potential_none(const double R[9]) {
  (void)R;
  return 0.0;
}

// Coulomb potential with a soft wall, Krysl & Endres 2005 §3.6 (a = 1.1, c = 0.01)
static inline void rigid_torque_coulomb(double t, const double R[9], double tau[3]) {
  (void)t;
  double s = 1.1 + R[8];
  double f = -1.0 / (s * s) + 0.01 * pow(s, -11.0);
  tau[0] = -f * R[5];
  tau[1] = f * R[2];
  tau[2] = 0.0;
}

static const rigidModel rigid_models[] = {
    // McLachlan & Zanna free body, Krysl & Endres 2005 §3.1: R(100) reference of figures 4, 5
    {"free_body", {0.9144, 1.098, 1.66}, {0, 0, 0}, {0.45549, 0.82623, 0.03476}, 100.0, NULL,
     rigid_potential_none},
    // fast Lagrangian top, Krysl & Endres 2005 §3.4 (Psi0 = (0.3, 0, 0) as there), figure 10
    {"fast_top", {5, 5, 1}, {0.3, 0, 0}, {0, 0, 50}, 10.0, rigid_torque_top, rigid_potential_top},
    // slow Lagrangian top, Krysl & Endres 2005 §3.5, figure 11 (no final time given: 10 as §3.4)
    {"slow_top", {5, 5, 1}, {0.05, 0, 0}, {0, 0, 5}, 10.0, rigid_torque_top, rigid_potential_top},
    // Coulomb potential with soft wall, Krysl & Endres 2005 §3.6, figure 13: pi0 = (2, 2, 2)
    {"coulomb_wall", {2, 3, 4.5}, {0, 0, 0}, {1.0, 2.0 / 3.0, 4.0 / 9.0}, 10.0,
     rigid_torque_coulomb, NULL},
};

#define RIGID_NMODEL ((int)(sizeof(rigid_models) / sizeof(rigid_models[0])))

static inline const rigidModel* rigid_findModel(const char* name) {
  for (int i = 0; i < RIGID_NMODEL; i++) {
    if (!strcmp(rigid_models[i].name, name)) {
      return rigid_models + i;
    }
  }
  return NULL;
}


// initial state y[7] of a model
static inline void rigid_initialState(const rigidModel* m, double y[7]) {
  double a = sqrt(m->psi0[0] * m->psi0[0] + m->psi0[1] * m->psi0[1] + m->psi0[2] * m->psi0[2]);
  double c = cos(0.5 * a), s = a > 0 ? sin(0.5 * a) / a : 0.5;
  y[0] = c;
  y[1] = s * m->psi0[0];
  y[2] = s * m->psi0[1];
  y[3] = s * m->psi0[2];
  y[4] = m->omega0[0];
  y[5] = m->omega0[1];
  y[6] = m->omega0[2];
}

// dy/dt: qdot = q (0, Omega) / 2, J Omegadot = R^T tau - Omega x J Omega
static inline void rigid_rhs(const rigidModel* m, double t, const double y[7], double dy[7]) {
  const double* q = y;
  const double* W = y + 4;
  dy[0] = 0.5 * (-q[1] * W[0] - q[2] * W[1] - q[3] * W[2]);
  dy[1] = 0.5 * (q[0] * W[0] + q[2] * W[2] - q[3] * W[1]);
  dy[2] = 0.5 * (q[0] * W[1] + q[3] * W[0] - q[1] * W[2]);
  dy[3] = 0.5 * (q[0] * W[2] + q[1] * W[1] - q[2] * W[0]);
  double T[3] = {0, 0, 0};
  if (m->torque) {
    double R[9], tau[3];
    ref_quatToMat(R, q);
    m->torque(t, R, tau);
    for (int i = 0; i < 3; i++) {
      T[i] = R[i] * tau[0] + R[3 + i] * tau[1] + R[6 + i] * tau[2];
    }
  }
  const double* J = m->J;
  double P[3] = {J[0] * W[0], J[1] * W[1], J[2] * W[2]};
  dy[4] = (T[0] - (W[1] * P[2] - W[2] * P[1])) / J[0];
  dy[5] = (T[1] - (W[2] * P[0] - W[0] * P[2])) / J[1];
  dy[6] = (T[2] - (W[0] * P[1] - W[1] * P[0])) / J[2];
}

// spectral norm of (R(qa) - R(qb)) for unit quaternions: 2 sin(theta/2) of the relative
// rotation, computed from the vector part of conj(qb) qa (no cancellation for small angles)
static inline double rigid_attitudeError(const double qa[4], const double qb[4]) {
  double na = sqrt(qa[0] * qa[0] + qa[1] * qa[1] + qa[2] * qa[2] + qa[3] * qa[3]);
  double nb = sqrt(qb[0] * qb[0] + qb[1] * qb[1] + qb[2] * qb[2] + qb[3] * qb[3]);
  const double *a = qa, *b = qb;
  // vector part of conj(b) * a
  double x = b[0] * a[1] - b[1] * a[0] - (b[2] * a[3] - b[3] * a[2]);
  double y = b[0] * a[2] - b[2] * a[0] - (b[3] * a[1] - b[1] * a[3]);
  double z = b[0] * a[3] - b[3] * a[0] - (b[1] * a[2] - b[2] * a[1]);
  // sin(theta/2) = |v| for theta in [0, pi] (q and -q are the same rotation)
  double v = sqrt(x * x + y * y + z * z) / (na * nb);
  return 2.0 * (v < 1.0 ? v : 1.0);
}

// |J Omega_a - J Omega_b|
static inline double rigid_momentumError(const rigidModel* m, const double Wa[3],
                                         const double Wb[3]) {
  double s = 0;
  for (int i = 0; i < 3; i++) {
    double d = m->J[i] * (Wa[i] - Wb[i]);
    s += d * d;
  }
  return sqrt(s);
}

#endif  // RD_BENCH_RIGID_MODELS_H
