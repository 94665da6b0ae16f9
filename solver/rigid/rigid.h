// SPDX-License-Identifier: MIT
// Krysl's rigid-body time steppers (NMB, NMS, LIEMID family, SW, HSTAGM, AKW): the body table
// extracted from the model, the per-body state memory, shared kernels and the ops tables.
#ifndef RD_RIGID_H
#define RD_RIGID_H

#include <math.h>

#include "solver/stepper.h"

// the hot kernels of a step are inlined even where the compiler would rather not (one call per
// step each, but their arguments and results then stay in registers)
#if defined(__GNUC__)
#define RG_HOT static inline __attribute__((always_inline))
#else
#define RG_HOT static inline
#endif

// a method's step on a view: one copy, called by the method's ops table and by mixed stepping
// (not inlined into the ops table's wrapper, so that the compiler's inlining inside it stays
// what it was when the step was the ops table's function itself)
#if defined(__GNUC__)
#define RG_STEP __attribute__((noinline))
#else
#define RG_STEP
#endif

// one rigid body as the rigid steppers see it: it rotates about a point (the fixed pivot of a
// spherical joint to ground, or its centre of mass if free); the node rides along at x = xr + R r
typedef struct rgBody_ {
  int node;    // node carrying the body
  int elem;    // its rigid_body element
  int pinned;  // 1: spherical joint to ground at p; 0: free body
  int moving;  // pinned to a node of the flexible part (mixed stepping): p moves, and the view's
               // loads hook sets mg = m (g - p'') at every evaluation
  int rzero;   // r == 0: the node is the rotation point (no lever arm to rotate)
  int diag;    // J is diagonal in the body frame (the principal-axes kernels apply)
  int czero;   // c == 0 or no gravity: the weight has no moment about the rotation point
  double mass;
  double J[9];     // inertia about the rotation point, body frame
  double Jinv[9];  // its inverse
  double p[3];     // pinned: the fixed point (global)
  double r[3];     // body-frame vector from the rotation point to the node
  double c[3];     // body-frame vector from the rotation point to the centre of mass
  double mg[3];    // weight m g (global)
  double jr2;      // diag: (smallest / largest principal inertia)^2
} rgBody;

// per-body stepper memory, kept in the state (saved, restored, checkpointed with it)
typedef struct rgMem_ {
  double tau[3];    // spatial torque about the rotation point at the current state (kept
                    // current by the methods that use it: nms, sw, hstagm, liemid_i, akw)
  double T[3];      // the same in the body frame (kept current by nmb, liemid_e1/e2/ea)
  double f[3];      // total applied force (global) at the current state
  double xr[3];     // rotation point: position (free: centre of mass; pinned: p)
  double vr[3];     // its velocity (pinned: 0)
  double ar[3];     // its acceleration (pinned: 0)
  double w[3];      // nms: spatial angular velocity
  double al[3];     // nms: spatial angular acceleration
  double qh[4];     // hstagm: attitude at the half step ahead
  double Wh[3];     // hstagm: body angular velocity at the half step ahead
  double hh;        // hstagm: step size the half-step state was made for (0: none yet)
  double Ki[2][9];  // liemid_e*: inverse Newton tangent of each substep's rotation-vector
                    // equation, kept from an earlier step (modified Newton; rg_rotvecNewton)
  double hK[2];     // the substep size it was made for (0: none)
} rgMem;

// per-body scratch of one step (work)
typedef struct rgScratch_ {
  double q0[4];   // attitude at the start of the step
  double W0[3];   // body angular velocity at the start
  double P0[3];   // body angular momentum J W0 at the start
  double x[3];    // Newton unknown
  double res[3];  // residual
  double scale;   // residual scale
  double b[3];    // method-dependent vector
  double g[3];    // torque term at the iterate
  double dg[9];   // its finite-difference Jacobian (columns)
  double q[4];    // trial attitude
  double tau[3];  // spatial torque at the last evaluation (rg_loads)
  double T[3];    // body-frame torque at the last evaluation (rg_loadsBody)
  double f[3];    // force at the last evaluation
  // the end-of-step values of an atomic step, committed by rg_commit
  double xr[3], vr[3], ar[3];  // rotation point
  double W[3], A[3];           // body angular velocity and acceleration
  double w[3], al[3];          // nms: spatial angular velocity and acceleration
  double Ki[2][9], hK[2];      // liemid_e*: new inverse tangents (if knew), for the memory
  int knew[2];
} rgScratch;

// per node: the rigid_body element on it and the spherical joint pinning it to the ground
typedef struct rgNodeMap_ {
  int elem;
  int pin;
} rgNodeMap;

// views of the workspace and memory of a rigid stepper; lives at the start of the workspace and
// is filled once per rdData (the body table depends on the model only)
typedef struct rgView_ {
  int built;
  int nb;
  int others;     // the model has loads besides gravity (nodal loads, host callbacks, torque
                  // laws): rd_evalLoadsNoGravity is called and the trial array v->q is kept
                  // complete; else (and without rd_setNodeLoad) only the weights act
  rgBody* body;   // nb
  rgMem* mem;     // nb (in d->s.memory)
  rgScratch* sc;  // nb
  double* q;      // nnode x 7: trial configuration
  const char* method;
  // mixed stepping (solver/mixed.c): the loads of the generic path come from this hook instead
  // of rd_evalLoadsNoGravity (into d->force, for the configuration q at time t), with `ext` its
  // data; NULL for the stand-alone steppers
  int (*loads)(const rdModel* m, rdData* d, struct rgView_* v, double t, const double* q);
  void* ext;
} rgView;

// which models the rigid steppers accept (rigid_check.c)
int rg_check(const rdModel* m);
// fill map (nnode entries): first body and first ground pivot of each node, -1 if none
void rg_mapNodes(const rdModel* m, rgNodeMap* map);

// sizes, setup (rigid_system.c)
size_t rg_memorySize(const rdModel* m);
size_t rg_workSize(const rdModel* m);
// bytes of a view of nb bodies in a model of nn nodes (the view, its body table and scratch, the
// trial configuration: 64-byte aligned pieces), and the view carved from p (its arrays set, its
// bodies not)
size_t rg_viewBytes(int nb, int nn);
rgView* rg_viewCarve(void* p, int nb, int nn);
// the views of d; builds the body table on first use
rgView* rg_viewBuild(const rdModel* m, rdData* d);
// fill a carved view with the bodies of subsystem k of a mixed model (their memory in mem), for
// the subsystem's method; the loads hook is left to the caller
void rg_viewSubsystem(const rdModel* m, int k, rgView* v, rgMem* mem);
static inline rgView* rg_view(const rdModel* m, rdData* d) {
  rgView* v = d->work;
  if (!v->built) {
    return rg_viewBuild(m, d);
  }
  v->mem = d->s.memory;
  return v;
}
int rg_initialize(const rdModel* m, rdData* d);
// the same for the bodies of view v (mixed stepping: a subsystem)
int rg_initializeView(const rdModel* m, rdData* d, rgView* v);
// the loads of view v at the state's time afresh (mixed stepping: when what they read of the
// rest of the model has changed since they were evaluated), and what `method` derives from them
// for its next step: the memory's torque and force, the accelerations of nmb and nms (state,
// rotation point; nms's spatial ones); the rest of the memory is kept (hstagm's half states
// among it)
int rg_reloadView(const rdModel* m, rdData* d, rgView* v, int method);

// one step of size h from d->s.t of the bodies of view v, by the method `method` (a subsystem
// of mixed stepping; the stand-alone steppers step the whole model's view the same way)
typedef int (*rgStep)(const rdModel* m, rdData* d, rgView* v, double h);
int rg_stepNmb(const rdModel* m, rdData* d, rgView* v, double h);
int rg_stepNms(const rdModel* m, rdData* d, rgView* v, double h);
int rg_stepLiemidE1(const rdModel* m, rdData* d, rgView* v, double h);
int rg_stepLiemidE2(const rdModel* m, rdData* d, rgView* v, double h);
int rg_stepLiemidEa(const rdModel* m, rdData* d, rgView* v, double h);
int rg_stepLiemidI(const rdModel* m, rdData* d, rgView* v, double h);
int rg_stepSw(const rdModel* m, rdData* d, rgView* v, double h);
int rg_stepHstagm(const rdModel* m, rdData* d, rgView* v, double h);
int rg_stepAkw(const rdModel* m, rdData* d, rgView* v, double h);
// the step of a rigid-body method (NULL for another method)
rgStep rg_stepFor(int method);

// 1 if the loads of this step need the generic path (rd_evalLoadsNoGravity over the whole
// configuration array): the model has other loads than gravity, or the host holds node loads
static inline int rg_generic(const rgView* v, const rdData* d) {
  return v->others | d->hostload_set;
}

// loads at time t for configuration q (nnode x 7; with !rg_generic only the attitudes of the
// body nodes are read): per body the torque about its rotation point and the total force, into
// mem (mem_out = 1) or scratch (0). rg_loads gives the spatial torque (tau), rg_loadsBody the
// body-frame torque R^T tau (T) at the body's attitude in q. One load evaluation.
int rg_loads(const rdModel* m, rdData* d, rgView* v, double t, const double* q, int mem_out);
int rg_loadsBody(const rdModel* m, rdData* d, rgView* v, double t, const double* q, int mem_out);

// body angular acceleration from the Euler equations: J A = T - W x J W, T = R^T tau
void rg_eulerAccel(const rgBody* b, const double q[4], const double W[3], const double tau[3],
                   double A[3]);

// right update q' = q exp(psi) (body increment), left update q' = exp(psi) q (spatial)
void rg_rotateRight(double out[4], const double q[4], const double psi[3]);
void rg_rotateLeft(double out[4], const double q[4], const double psi[3]);
// out = exp(skew(psi)) a
void rg_expRotate(double out[3], const double psi[3], const double a[3]);

// atomic steps (nmb, nms, liemid_e1/e2/ea): the trial configuration v->q starts as the state's
// (copied only when the generic load path reads it: rg_generic); the step fills the scratch
// (q, W, A, xr, vr, ar, f, the torque: T for frame RG_BODY, tau for RG_SPATIAL and RG_NMS, and
// w, al for RG_NMS) and rg_commit checks every number of it and only then writes the memory
// and the node states
enum { RG_BODY, RG_SPATIAL, RG_NMS };
void rg_trialBegin(const rdModel* m, const rdData* d, rgView* v);
// rg_commit: rigid_kernels.h

// inner Newton solves (rigid_newton.c); each returns RD_OK or RD_RECOVER_NEWTON (raised with
// the method, body, time and residual) and adds its iterations to *iters
// J A - T + W x J W = 0 with W = Wp + h/2 A (NMS: in the spatial frame, J = R J_body R^T)
int rg_solveAccel(const rdModel* m, const rgView* v, int ib, double t, const double J[9],
                  const double T[3], const double Wp[3], double h, double A[3], int* iters);
// the inverse tangent of the LIEMID equation J psi / h = exp(-psi/2) b at psi, with Jh = J/h,
// e = exp(-psi/2) b and the coefficients s1, s2 of rg_rotCoef at y = |psi|^2/4 (rigid_newton.c);
// -1 if the tangent is singular
int rg_rotvecTangent(double Ki[9], const double Jh[9], const double psi[3], const double e[3],
                     double s1, double s2, double y);
// raise the failure of a Newton solve
int rg_newtonFail(const rdModel* m, const rgView* v, int ib, double t, const char* what, double res,
                  double scale, int iters);

// finish a step's bookkeeping: Newton iterations of the step
static inline void rg_countIterations(rdData* d, int iters) {
  d->stats.newton_iterations += iters;
  d->stats.last_newton_iterations = iters;
}

extern const rdStepper rd_stepperNmb;
extern const rdStepper rd_stepperNms;
extern const rdStepper rd_stepperLiemidE1;
extern const rdStepper rd_stepperLiemidE2;
extern const rdStepper rd_stepperLiemidEa;
extern const rdStepper rd_stepperLiemidI;
extern const rdStepper rd_stepperSw;
extern const rdStepper rd_stepperHstagm;
extern const rdStepper rd_stepperAkw;

#endif  // RD_RIGID_H
