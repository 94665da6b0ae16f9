// SPDX-License-Identifier: MIT
// Krysl's rigid-body time steppers (NMB, NMS, LIEMID family, SW, HSTAGM, AKW): the body table
// extracted from the model, the per-body state memory, shared kernels and the ops tables.
#ifndef RD_RIGID_H
#define RD_RIGID_H

#include <math.h>

#include "stepper.h"

// one rigid body as the rigid steppers see it: it rotates about a point (the fixed pivot of a
// spherical joint to ground, or its centre of mass if free); the node rides along at x = xr + R r
typedef struct rgBody_ {
  int node;         // node carrying the body
  int elem;         // its rigid_body element
  int pinned;       // 1: spherical joint to ground at p; 0: free body
  double mass;
  double J[9];      // inertia about the rotation point, body frame
  double Jinv[9];   // its inverse
  double p[3];      // pinned: the fixed point (global)
  double r[3];      // body-frame vector from the rotation point to the node
  int rzero;        // r == 0: the node is the rotation point (no lever arm to rotate)
} rgBody;

// per-body stepper memory, kept in the state (saved, restored, checkpointed with it)
typedef struct rgMem_ {
  double tau[3];    // spatial torque about the rotation point at the current state
  double f[3];      // total applied force (global) at the current state
  double xr[3];     // rotation point: position (free: centre of mass; pinned: p)
  double vr[3];     // its velocity (pinned: 0)
  double ar[3];     // its acceleration (pinned: 0)
  double w[3];      // nms: spatial angular velocity
  double al[3];     // nms: spatial angular acceleration
  double qh[4];     // hstagm: attitude at the half step ahead
  double Wh[3];     // hstagm: body angular velocity at the half step ahead
  double hh;        // hstagm: step size the half-step state was made for (0: none yet)
} rgMem;

// per-body scratch of one step (work)
typedef struct rgScratch_ {
  double q0[4];     // attitude at the start of the step
  double W0[3];     // body angular velocity at the start
  double P0[3];     // body angular momentum J W0 at the start
  double x[3];      // Newton unknown
  double res[3];    // residual
  double scale;     // residual scale
  double b[3];      // method-dependent vector
  double g[3];      // torque term at the iterate
  double dg[9];     // its finite-difference Jacobian (columns)
  double q[4];      // trial attitude
  double tau[3];    // spatial torque at the last evaluation
  double f[3];      // force at the last evaluation
  // the end-of-step values of an atomic step, committed by rg_commit
  double xr[3], vr[3], ar[3];  // rotation point
  double W[3], A[3];           // body angular velocity and acceleration
  double w[3], al[3];          // nms: spatial angular velocity and acceleration
} rgScratch;

// per node: the rigid_body element on it and the spherical joint pinning it to the ground
typedef struct rgNodeMap_ {
  int elem;
  int pin;
} rgNodeMap;

// views of the workspace and memory of a rigid stepper
typedef struct rgView_ {
  int nb;
  rgBody* body;     // nb
  rgMem* mem;       // nb (in d->s.memory)
  rgScratch* sc;    // nb
  double* q;        // nnode x 7: trial configuration
  const char* method;
} rgView;

// which models the rigid steppers accept (rigid_check.c)
int rg_check(const rdModel* m);
// fill map (nnode entries): first body and first ground pivot of each node, -1 if none
void rg_mapNodes(const rdModel* m, rgNodeMap* map);

// sizes, setup (rigid_system.c)
size_t rg_memorySize(const rdModel* m);
size_t rg_workSize(const rdModel* m);
// the views of d; builds the body table on first use
void rg_view(const rdModel* m, rdData* d, rgView* v);
int rg_initialize(const rdModel* m, rdData* d);

// loads at time t for configuration q (nnode x 7): per body the spatial torque about its
// rotation point and the total force, into mem (mem_out = 1) or scratch (0)
int rg_loads(const rdModel* m, rdData* d, rgView* v, double t, const double* q, int mem_out);

// node state (s.q, s.v, s.vd) of body b from its attitude, body angular velocity and
// acceleration, and the rotation point's motion in mem
void rg_writeNode(const rgBody* b, const rgMem* mem, rdState* s, const double q[4],
                  const double W[3], const double A[3]);

// node position of body b in the configuration array q (nnode x 7) for attitude qb, with the
// rotation point at xr
void rg_placeNode(const rgBody* b, double* q, const double qb[4], const double xr[3]);

// body angular acceleration from the Euler equations: J A = T - W x J W, T = R^T tau
void rg_eulerAccel(const rgBody* b, const double q[4], const double W[3], const double tau[3],
                   double A[3]);

// translation of free bodies
void rg_translate(const rgBody* b, rgMem* mem, double dt, const double vel[3]);
void rg_kick(const rgBody* b, rgMem* mem, double dt, const double f[3]);

// right update q' = q exp(psi) (body increment), left update q' = exp(psi) q (spatial)
void rg_rotateRight(double out[4], const double q[4], const double psi[3]);
void rg_rotateLeft(double out[4], const double q[4], const double psi[3]);
// out = a b / |a b| (quaternions)
void rg_mulNormalize(double out[4], const double a[4], const double b[4]);
// out = exp(skew(psi)) a
void rg_expRotate(double out[3], const double psi[3], const double a[3]);

// atomic steps (nmb, nms, liemid_e1/e2/ea): the trial configuration v->q starts as the state's;
// the step fills the scratch (q, W, A, xr, vr, ar, tau, f, and w, al for nms) and rg_commit
// checks every number of it and only then writes the memory and the node states
void rg_trialBegin(const rdModel* m, const rdData* d, rgView* v);
int rg_commit(const rdModel* m, rdData* d, rgView* v, double t, int spatial);

// out = R(q) a and R(q)^T a for a unit quaternion q (inline: the steppers' hot path)
static inline void rg_qrot(double out[3], const double q[4], const double a[3]) {
  double w = q[0], x = q[1], y = q[2], z = q[3];
  double t0 = 2.0 * (y * a[2] - z * a[1]), t1 = 2.0 * (z * a[0] - x * a[2]),
         t2 = 2.0 * (x * a[1] - y * a[0]);
  double r0 = a[0] + w * t0 + y * t2 - z * t1;
  double r1 = a[1] + w * t1 + z * t0 - x * t2;
  double r2 = a[2] + w * t2 + x * t1 - y * t0;
  out[0] = r0, out[1] = r1, out[2] = r2;
}

static inline void rg_qrotInv(double out[3], const double q[4], const double a[3]) {
  double qc[4] = {q[0], -q[1], -q[2], -q[3]};
  rg_qrot(out, qc, a);
}

// sin and cos of half the angle of psi, and sin(|psi|/2) / |psi| (1/2 at psi = 0): the
// quaternion of exp(psi) is (c, k psi)
static inline double rg_halfAngle(const double psi[3], double* s, double* c) {
  double phi = sqrt(psi[0] * psi[0] + psi[1] * psi[1] + psi[2] * psi[2]);
  double x = 0.5 * phi;
  *s = sin(x);
  *c = cos(x);
  return phi > 0 ? *s / phi : 0.5;
}

// inner Newton solves (rigid_newton.c); each returns RD_OK or RD_RECOVER_NEWTON (raised with
// the method, body, time and residual) and adds its iterations to *iters
// J A - T + W x J W = 0 with W = Wp + h/2 A (NMB in the body frame, NMS in the spatial frame)
int rg_solveAccel(const rdModel* m, const rgView* v, int ib, double t, const double J[9],
                  const double T[3], const double Wp[3], double h, double A[3], int* iters);
// J psi / h = exp(-psi/2) b (explicit midpoint Lie, LIEMID[E1], [E2], [EA])
// On success also eb = exp(-psi) b and dq = the quaternion of exp(psi), from the last residual
int rg_solveRotvec(const rdModel* m, const rgView* v, int ib, double t, const double J[9],
                   const double b[3], double h, double psi[3], double eb[3], double dq[4],
                   int* iters);
// raise the failure of a Newton solve
int rg_newtonFail(const rdModel* m, const rgView* v, int ib, double t, const char* what,
                  double res, double scale, int iters);

// x = A^-1 b for a general 3x3 matrix; -1 if A is (numerically) singular
int rg_solve3(double x[3], const double A[9], const double b[3]);

// finish a step's bookkeeping: Newton iterations of the step
void rg_countIterations(rdData* d, int iters);

extern const rdStepper rd_stepper_nmb;
extern const rdStepper rd_stepper_nms;
extern const rdStepper rd_stepper_liemid_e1;
extern const rdStepper rd_stepper_liemid_e2;
extern const rdStepper rd_stepper_liemid_ea;
extern const rdStepper rd_stepper_liemid_i;
extern const rdStepper rd_stepper_sw;
extern const rdStepper rd_stepper_hstagm;
extern const rdStepper rd_stepper_akw;

#endif  // RD_RIGID_H
