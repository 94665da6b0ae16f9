// SPDX-License-Identifier: MIT
// Redundant constraint equations (solver/redundant.c) on small cases:
// - two spherical joints at the heavy top's pivot: 3 of 6 equations redundant; removed, the run
//   is the single-joint run to round-off and the second joint carries no reaction; error mode
//   names both joints;
// - a planar four-bar modelled in 3D with four revolutes (20 equations, rank 17): the 3
//   out-of-plane redundancies found, named in error mode; removed, the motion equals that of
//   the non-redundant model (revolute, spherical, universal, revolute) within the tolerance;
// - the same four-bar driven by a prescribed crank angle, solved by the static method, against
//   the closed-form position of the rocker;
// - models without loops or without redundancy, rd_copyData, the option's validation;
// - an allocator failing at every call of compile, createData and initialize of a loop model.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/support/fail_alloc.h"
#include "tests/support/models.h"
#include "tests/test_macros.h"

// ---------------------------------------------------------------------------------------------
// heavy top with a second pivot

static void double_pivot(void) {
  rdContext* ctx = NULL;
  rd_createContext(&ctx, NULL);
  rdModel *m1, *m2;
  rdData *d1, *d2;
  CHECK(model_make(model_heavyTopAlpha(ctx, 0.9, 1e-3, NULL), &m1, &d1) == 0);
  rdSpec* s = model_heavyTopAlpha(ctx, 0.9, 1e-3, NULL);
  rdJointDef j = rd_defaultJointDef();
  j.name = "second_pivot";
  j.type = RD_JOINT_SPHERICAL;
  j.node[0] = 0;
  rds_addJoint(s, &j);
  CHECK(model_make(s, &m2, &d2) == 0);
  int joint[8], eq[8];
  int n = rd_getRedundantConstraints(m2, d2, joint, eq, 8);
  CHECK(n == 3);
  for (int k = 0; k < n && k < 8; k++) {
    CHECK(joint[k] == 1 && eq[k] == k);  // the joint defined last
  }
  CHECK(rd_getRedundantConstraints(m1, d1, joint, eq, 8) == 0);
  rdStats st;
  rd_getStats(d2, &st);
  CHECK(st.redundant_constraints == 3 && st.unchecked_constraints == 0);
  double diff = 0, fdiff = 0;
  for (int i = 0; i < 200; i++) {
    CHECK(rd_step(m1, d1, 0) == RD_OK);
    CHECK(rd_step(m2, d2, 0) == RD_OK);
  }
  double x1[3], q1[4], x2[3], q2[4], f0[3], f1[3], f[3];
  rd_getNodeState(m1, d1, 0, x1, q1, NULL, NULL, NULL);
  rd_getNodeState(m2, d2, 0, x2, q2, NULL, NULL, NULL);
  rd_getJointReaction(m1, d1, 0, f, NULL);
  rd_getJointReaction(m2, d2, 0, f0, NULL);
  rd_getJointReaction(m2, d2, 1, f1, NULL);
  for (int k = 0; k < 3; k++) {
    diff = fmax(diff, fmax(fabs(x1[k] - x2[k]), fabs(q1[k] - q2[k])));
    fdiff = fmax(fdiff, fabs(f[k] - f0[k]));
    CHECK(f1[k] == 0);
  }
  printf(
      "heavy top with two pivots: 3 equations removed; after 200 steps it differs from one "
      "pivot by %.2e (position, quaternion) and %.2e N (pivot reaction, |f| = %.0f N)\n",
      diff, fdiff, sqrt(f[0] * f[0] + f[1] * f[1] + f[2] * f[2]));
  CHECK(diff < 1e-12);
  CHECK(fdiff < 1e-4);  // the multipliers' Newton tolerance is about 5e-3 N here
  // a copy carries the removed equations
  rdData* d3 = NULL;
  CHECK(rd_createData(m2, &d3) == RD_OK);
  CHECK(rd_getRedundantConstraints(m2, d3, NULL, NULL, 0) == 0);
  CHECK(rd_copyData(d3, d2) == RD_OK);
  CHECK(rd_getRedundantConstraints(m2, d3, NULL, NULL, 0) == 3);
  CHECK(rd_getRedundantConstraints(m2, d3, NULL, NULL, -1) == RD_ERR_ARG);
  CHECK(rd_getRedundantConstraints(m1, d3, NULL, NULL, 0) == RD_ERR_ARG);
  rd_destroyData(&d3);
  // ... and so does a checkpoint, with the counts of rdStats
  char path[] = "/tmp/rd_redundant_XXXXXX";
  int fd = mkstemp(path);
  CHECK(fd >= 0);
  CHECK(rd_writeCheckpoint(m2, d2, path) == RD_OK);
  CHECK(rd_createData(m2, &d3) == RD_OK);
  CHECK(rd_readCheckpoint(m2, d3, path) == RD_OK);
  rdStats st3;
  rd_getStats(d3, &st3);
  CHECK(rd_getRedundantConstraints(m2, d3, NULL, NULL, 0) == 3);
  CHECK(st3.redundant_constraints == 3 && st3.unchecked_constraints == 0);
  remove(path);
  if (fd >= 0) {
    close(fd);
  }
  rd_destroyData(&d3);
  rd_destroyData(&d1);
  rd_destroyData(&d2);
  rd_destroyModel(&m1);
  rd_destroyModel(&m2);
  rd_destroyContext(&ctx);
}


// error mode: the message names both joints
static void double_pivot_error(void) {
  rdContext* ctx = NULL;
  rd_createContext(&ctx, NULL);
  rdSpec* s = model_heavyTopAlpha(ctx, 0.9, 1e-3, NULL);
  rds_setOption(s, "solver.redundant_constraints", "error");
  rdJointDef j = rd_defaultJointDef();
  j.name = "second_pivot";
  j.type = RD_JOINT_SPHERICAL;
  j.node[0] = 0;
  rds_addJoint(s, &j);
  rdModel* m;
  rdData* d;
  int st = model_make(s, &m, &d);
  const char* msg = rd_lastError(ctx);
  printf("redundant joints: %s\n", msg);
  CHECK(st < 0);
  CHECK(strstr(msg, "pivot") != NULL && strstr(msg, "second_pivot") != NULL);
  CHECK(strstr(msg, "redundant") != NULL);
  rd_destroyData(&d);
  rd_destroyModel(&m);
  rd_destroyContext(&ctx);
}


// ---------------------------------------------------------------------------------------------
// four-bar in the x-z plane: ground O = (0,0,0), Q = (2,0,0); crank OA = 1, coupler AB = 2,
// rocker QB = 2; axes along y; uniform rods (m = 1) with their nodes at the centres

#define LA 1.0
#define LB 2.0
#define LC 2.0
#define LD 2.0

// B from A: the intersection of |B - A| = LB and |B - Q| = LC above the line A-Q
static void coupler_point(const double A[3], double B[3]) {
  double Q[3] = {LD, 0, 0};
  double dx = Q[0] - A[0], dz = Q[2] - A[2], d = sqrt(dx * dx + dz * dz);
  double a = (LB * LB - LC * LC + d * d) / (2 * d), h = sqrt(LB * LB - a * a);
  double ex = dx / d, ez = dz / d;
  B[0] = A[0] + a * ex + h * ez;  // rotate the direction A -> Q by +90 deg in x-z towards +z
  B[1] = 0;
  B[2] = A[2] + a * ez - h * ex;
  if (B[2] < A[2] + a * ez) {  // take the upper branch
    B[0] = A[0] + a * ex - h * ez;
    B[2] = A[2] + a * ez + h * ex;
  }
}


// a rod from p to q: node at the centre, uniform thin-rod inertia (plus a small axial one)
static int add_rod(rdSpec* s, const char* name, const double p[3], const double q[3]) {
  rdNodeDef n = rd_defaultNodeDef();
  n.name = name;
  double u[3], L = 0;
  for (int k = 0; k < 3; k++) {
    n.position[k] = 0.5 * (p[k] + q[k]);
    u[k] = q[k] - p[k];
    L += u[k] * u[k];
  }
  L = sqrt(L);
  int node = rds_addNode(s, &n);
  rdRigidBodyDef b = rd_defaultRigidBodyDef();
  b.name = name;
  b.node = node;
  b.mass = 1;
  for (int i = 0; i < 3; i++) {
    for (int k = 0; k < 3; k++) {
      b.inertia[3 * i + k] = L * L / 12 * ((i == k) - u[i] * u[k] / (L * L)) + 1e-3 * (i == k);
    }
  }
  rds_addRigidBody(s, &b);
  return node;
}


static void add_joint(rdSpec* s, const char* name, rdJointType type, int a, int b,
                      const double p[3], const double axis[3], const double axis2[3]) {
  rdJointDef j = rd_defaultJointDef();
  j.name = name;
  j.type = type;
  j.node[0] = a;
  j.node[1] = b;
  memcpy(j.point, p, sizeof(j.point));
  if (axis) {
    memcpy(j.axis, axis, sizeof(j.axis));
  }
  if (axis2) {
    memcpy(j.axis2, axis2, sizeof(j.axis2));
  }
  rds_addJoint(s, &j);
}


// redundant: four revolutes; otherwise revolute, spherical, universal, revolute. With drive,
// the crank's revolute prescribes the angle of the ground relative to the crank, 0.5 t rad
static rdSpec* fourbar(rdContext* ctx, int redundant, int drive, const char* method) {
  rdSpec* s = NULL;
  rd_createSpec(ctx, &s);
  double O[3] = {0, 0, 0}, A[3] = {0, 0, LA}, B[3], Q[3] = {LD, 0, 0}, y[3] = {0, 1, 0};
  coupler_point(A, B);
  int crank = add_rod(s, "crank", O, A);
  int coupler = add_rod(s, "coupler", A, B);
  int rocker = add_rod(s, "rocker", Q, B);
  rdJointDef j = rd_defaultJointDef();
  j.name = "O";
  j.type = RD_JOINT_REVOLUTE;
  j.node[0] = crank;
  memcpy(j.axis, y, sizeof(y));
  if (drive) {
    rdTimeFnDef f = rd_defaultTimeFnDef();
    f.name = "angle";
    f.type = RD_TIMEFN_EXPRESSION;
    f.expression = "0.5 * t";
    j.angle_fn = rds_addTimeFn(s, &f);
  }
  rds_addJoint(s, &j);
  if (redundant) {
    add_joint(s, "A", RD_JOINT_REVOLUTE, coupler, crank, A, y, NULL);
    add_joint(s, "B", RD_JOINT_REVOLUTE, rocker, coupler, B, y, NULL);
  } else {
    // universal at B: y fixed in the rocker, the coupler's in-plane normal fixed in the coupler
    double n[3] = {B[2] - A[2], 0, -(B[0] - A[0])};
    add_joint(s, "A", RD_JOINT_SPHERICAL, coupler, crank, A, NULL, NULL);
    add_joint(s, "B", RD_JOINT_UNIVERSAL, rocker, coupler, B, y, n);
  }
  add_joint(s, "Q", RD_JOINT_REVOLUTE, rocker, RD_GROUND, Q, y, NULL);
  double g[3] = {0, 0, -9.81};
  rds_setGravity(s, g);
  rds_setOption(s, "solver.method", method);
  rds_setOptionReal(s, "solver.time_step", drive ? 0.1 : 1e-3);
  rds_setOptionReal(s, "solver.atol", 1e-11);
  rds_setOptionReal(s, "solver.rtol", 1e-9);
  return s;
}


static void fourbar_cases(void) {
  rdContext* ctx = NULL;
  rd_createContext(&ctx, NULL);
  // error mode: the message names the loop, the rank and the dependent equations
  rdSpec* s = fourbar(ctx, 1, 0, "generalized_alpha");
  rds_setOption(s, "solver.redundant_constraints", "error");
  rdModel* m;
  rdData* d;
  int st = model_make(s, &m, &d);
  const char* msg = rd_lastError(ctx);
  CHECK(st == RD_ERR_MODEL);
  CHECK(strstr(msg, "the loop of joints 'O', 'A', 'B', 'Q' has 20 equations of rank 17") != NULL);
  CHECK(strstr(msg, "redundant_constraints = remove") != NULL);
  rd_destroyData(&d);
  rd_destroyModel(&m);
  // the same with the static method, at rd_initialize
  s = fourbar(ctx, 1, 1, "static");
  rds_setOption(s, "solver.redundant_constraints", "error");
  CHECK(model_make(s, &m, &d) == RD_ERR_MODEL);
  rd_destroyData(&d);
  rd_destroyModel(&m);

  // removed: the same motion as the non-redundant model
  rdModel *mr, *mn;
  rdData *dr, *dn;
  CHECK(model_make(fourbar(ctx, 1, 0, "generalized_alpha"), &mr, &dr) == 0);
  CHECK(model_make(fourbar(ctx, 0, 0, "generalized_alpha"), &mn, &dn) == 0);
  int joint[8], eq[8];
  int n = rd_getRedundantConstraints(mr, dr, joint, eq, 8);
  printf("four-bar, four revolutes: %d equations removed:", n);
  for (int k = 0; k < n && k < 8; k++) {
    printf(" joint '%s' equation %d", rd_jointName(mr, joint[k]), eq[k] + 1);
  }
  printf("\n");
  CHECK(n == 3);
  CHECK(rd_getRedundantConstraints(mn, dn, NULL, NULL, 0) == 0);
  CHECK(rd_advance(mr, dr, 1, NULL, NULL) == RD_OK);
  CHECK(rd_advance(mn, dn, 1, NULL, NULL) == RD_OK);
  double diff = 0, moved = 0;
  for (int i = 0; i < 3; i++) {
    double xr[3], xn[3], qr[4], qn[4];
    rd_getNodeState(mr, dr, i, xr, qr, NULL, NULL, NULL);
    rd_getNodeState(mn, dn, i, xn, qn, NULL, NULL, NULL);
    for (int k = 0; k < 3; k++) {
      diff = fmax(diff, fmax(fabs(xr[k] - xn[k]), fabs(qr[k] - qn[k])));
    }
    moved = fmax(moved, fabs(qr[2]));
  }
  printf(
      "four-bar at t = 1: redundant and non-redundant models differ by %.2e (positions, "
      "quaternions; a link turned by %.2f rad)\n",
      diff, 2 * asin(moved));
  CHECK(moved > 0.1);
  CHECK(diff < 1e-8);
  rd_destroyData(&dr);
  rd_destroyData(&dn);
  rd_destroyModel(&mr);
  rd_destroyModel(&mn);

  // static, crank driven: the rocker pin against the closed form, with 3 equations removed
  CHECK(model_make(fourbar(ctx, 1, 1, "static"), &m, &d) == 0);
  CHECK(rd_getRedundantConstraints(m, d, NULL, NULL, 0) == 3);
  double worst = 0;
  for (int k = 0; k < 10; k++) {
    CHECK(rd_step(m, d, 0) == RD_OK);
    double xc[3], qc[4], xk[3], qk[4], A[3], B[3], Bc[3], r[3];
    rd_getNodeState(m, d, 0, xc, qc, NULL, NULL, NULL);
    rd_getNodeState(m, d, 2, xk, qk, NULL, NULL, NULL);
    for (int c = 0; c < 3; c++) {
      A[c] = 2 * xc[c];  // the crank's centre is at A / 2
    }
    coupler_point(A, Bc);
    // B as the rocker's far end: centre + R (B0 - centre0)
    double B0[3];
    coupler_point((double[3]){0, 0, LA}, B0);
    double arm[3] = {0.5 * (B0[0] - LD), 0, 0.5 * B0[2]};
    rdu_quatRotate(r, qk, arm);
    for (int c = 0; c < 3; c++) {
      B[c] = xk[c] + r[c];
      worst = fmax(worst, fabs(B[c] - Bc[c]));
    }
    double crank = atan2(A[0], A[2]);
    CHECK_NEAR(fabs(crank), 0.05 * (k + 1), 1e-9);
  }
  printf(
      "static four-bar, crank driven to 0.5 rad in 10 load steps: rocker pin within %.2e of "
      "the closed form\n",
      worst);
  CHECK(worst < 1e-9);
  rd_destroyData(&d);
  rd_destroyModel(&m);
  rd_destroyContext(&ctx);
}


// no loops: nothing to check, no memory; a loop without redundancy passes the error mode
static void no_redundancy(void) {
  rdContext* ctx = NULL;
  rd_createContext(&ctx, NULL);
  rdModel* m;
  rdData* d;
  rdSpec* s = model_heavyTopAlpha(ctx, 0.9, 1e-3, NULL);
  rds_setOption(s, "solver.redundant_constraints", "error");
  CHECK(model_make(s, &m, &d) == 0);
  CHECK(rd_getRedundantConstraints(m, d, NULL, NULL, 0) == 0);
  rd_destroyData(&d);
  rd_destroyModel(&m);
  s = fourbar(ctx, 0, 0, "generalized_alpha");
  rds_setOption(s, "solver.redundant_constraints", "error");
  CHECK(model_make(s, &m, &d) == 0);
  rdStats st;
  rd_getStats(d, &st);
  CHECK(st.redundant_constraints == 0);
  rd_destroyData(&d);
  rd_destroyModel(&m);
  // the option's values and the tolerance's range
  rd_createSpec(ctx, &s);
  CHECK(rds_setOption(s, "solver.redundant_constraints", "remov") == RD_ERR_ARG);
  CHECK(strstr(rd_lastError(ctx), "did you mean 'remove'") != NULL);
  CHECK(rds_setOption(s, "solver.redundant_tolerance", "0") == RD_ERR_ARG);
  CHECK(rds_setOption(s, "solver.redundant_tolerance", "1e-6") == RD_OK);
  rd_destroySpec(&s);
  rd_destroyContext(&ctx);
}


// the loop paths (rd_redundantLoops, rd_redundantAttach) with every allocation failing in turn:
// RD_ERR_NOMEM and no leak, until the path completes
static void alloc_failures(void) {
  long n = 0;
  int bad = 0;
  for (; n < 100000; n++) {
    failAlloc fa = {0, -1, 0};
    rdAllocator a = {fa_malloc, fa_free, &fa};
    rdContext* ctx = NULL;
    rdModel* m = NULL;
    rdData* d = NULL;
    int st = rd_createContext(&ctx, &a);
    rdSpec* s = st ? NULL : fourbar(ctx, 1, 0, "generalized_alpha");
    fa.fail_at = fa.calls + n;  // the spec is built; fail from compile on
    st = st ? st : rd_compile(s, &m);
    rd_destroySpec(&s);
    st = st ? st : rd_createData(m, &d);
    st = st ? st : rd_initialize(m, d);
    int removed = st ? 0 : rd_getRedundantConstraints(m, d, NULL, NULL, 0);
    rd_destroyData(&d);
    rd_destroyModel(&m);
    rd_destroyContext(&ctx);
    if (st == RD_OK && fa.calls <= fa.fail_at) {
      CHECK(removed == 3 && fa.live == 0);
      break;  // no allocation left to fail
    }
    if ((st != RD_OK && st != RD_ERR_NOMEM) || fa.live != 0) {
      printf("allocation %ld failing: status %s, %ld blocks left\n", n, rd_statusName(st), fa.live);
      bad++;
    }
  }
  printf(
      "four-bar compile, createData, initialize: %ld allocations, each failing in turn gave "
      "RD_ERR_NOMEM with no leak (%d bad)\n",
      n, bad);
  CHECK(n > 10 && n < 100000);
  CHECK(bad == 0);
}


// ---------------------------------------------------------------------------------------------
// conflicting constraints: a body held by two prescribed-motion joints; the second (removed as
// redundant) agrees with the first, or prescribes x = 0.01 t, which the first forbids

static rdSpec* two_drivers(rdContext* ctx, const char* second_x) {
  rdSpec* s = model_heavyTopAlpha(ctx, 0.9, 1e-3, NULL);
  rdJointDef j = rd_defaultJointDef();
  j.name = "hold";
  j.type = RD_JOINT_PRESCRIBED;
  j.node[0] = 0;
  rds_addJoint(s, &j);
  j.name = "drive";
  if (second_x) {
    rdTimeFnDef f = rd_defaultTimeFnDef();
    f.name = "x";
    f.type = RD_TIMEFN_EXPRESSION;
    f.expression = second_x;
    j.motion_fn[0] = rds_addTimeFn(s, &f);
  }
  rds_addJoint(s, &j);
  return s;
}


static void conflicts(void) {
  rdContext* ctx = NULL;
  rd_createContext(&ctx, NULL);
  rdModel* m;
  rdData* d;
  // consistent: the drive's 6 equations (and the pivot's 3) depend on hold's; 20 steps run
  CHECK(model_make(two_drivers(ctx, NULL), &m, &d) == 0);
  int joint[16], eq[16];
  int n = rd_getRedundantConstraints(m, d, joint, eq, 16);
  printf("two prescribed joints that agree: %d equations removed\n", n);
  CHECK(n == 9);
  int st = RD_OK;
  for (int i = 0; i < 20 && st == RD_OK; i++) {
    st = rd_step(m, d, 0);
  }
  CHECK(st == RD_OK);
  rd_destroyData(&d);
  rd_destroyModel(&m);
  // conflicting: refused at the first step whose start violates a removed equation
  CHECK(model_make(two_drivers(ctx, "0.01 * t"), &m, &d) == 0);
  st = RD_OK;
  int steps = 0;
  for (; steps < 20 && st == RD_OK; steps++) {
    st = rd_step(m, d, 0);
  }
  printf("two prescribed joints in conflict: step %d: %s\n", steps, rd_lastError(ctx));
  CHECK(st == RD_ERR_MODEL);
  CHECK(strstr(rd_lastError(ctx), "conflicting constraints") != NULL);
  CHECK(strstr(rd_lastError(ctx), "joint 'drive'") != NULL);
  rd_destroyData(&d);
  rd_destroyModel(&m);
  rd_destroyContext(&ctx);
}


int main(int argc, char** argv) {
  TEST_INIT(argc, argv);
  TEST_CASE(alloc_failures());
  TEST_CASE(double_pivot());
  TEST_CASE(double_pivot_error());
  TEST_CASE(conflicts());
  TEST_CASE(fourbar_cases());
  TEST_CASE(no_redundancy());
  return TEST_SUMMARY();
}
