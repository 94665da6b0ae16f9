// SPDX-License-Identifier: MIT
// Rigid steppers and the model: checks, initialization, evaluations, Newton failures.
//
// What check() rejects (with clear messages), consistent initial
// accelerations (heavy top A6 of docs/benchmarks.md), the node placed off the pivot, torque
// evaluations per step, Newton iteration counts, and a failing inner Newton that must surface
// as an error naming the method, the body and the time.
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "rodrigues/rodrigues.h"
#include "src/model/data_impl.h"
#include "tests/support/models.h"
#include "tests/support/rigid_models.h"
#include "tests/support/rigid_ref.h"
#include "tests/test_macros.h"

static const char* const all_methods[] = {"nmb",      "nms", "liemid_e1", "liemid_e2", "liemid_ea",
                                          "liemid_i", "sw",  "hstagm",    "akw"};
#define NALL ((int)(sizeof(all_methods) / sizeof(all_methods[0])))


// heavy top of Bruls-Cardona-Arnold (A6): node at the centre of mass X = (0, 1, 0) or at the
// pivot (then com = X and the inertia moved to the pivot by the library)
static rdModel* build_heavy_top(rdContext* ctx, const char* method, int node_at_pivot) {
  rdSpec* s = model_heavyTop(ctx, node_at_pivot);
  rds_setOption(s, "solver.method", method);
  rds_setOption(s, "solver.time_step", "1e-4");
  return model_compile(s);
}


// consistent initial accelerations (docs/benchmarks.md A6, EXACT): body angular acceleration
// (661.3461692307692, 0, 0), centre-of-mass acceleration (0, -21.3017325444, -30.9608307692308)
static void test_initial_accelerations(rdContext* ctx) {
  for (int k = 0; k < NALL; k++) {
    rdModel* m = build_heavy_top(ctx, all_methods[k], 0);
    rdData* d = NULL;
    CHECK(rd_createData(m, &d) == RD_OK);
    CHECK(rd_initialize(m, d) == RD_OK);
    const double* a = d->s.vd;
    CHECK_NEAR(a[3], 661.3461692307692, 1e-9);
    CHECK_NEAR(a[4], 0, 1e-9);
    CHECK_NEAR(a[5], 0, 1e-9);
    CHECK_NEAR(a[0], 0, 1e-9);
    CHECK_NEAR(a[1], -21.3017325444, 1e-9);
    CHECK_NEAR(a[2], -30.960830769230824, 1e-9);
    rd_destroyData(&d);
    rd_destroyModel(&m);
  }
}


// the same top with its node at the pivot or at the centre of mass moves the same way
static void test_node_placement(rdContext* ctx) {
  const char* methods[] = {"nmb", "liemid_ea", "akw"};
  for (int k = 0; k < 3; k++) {
    rdModel* a = build_heavy_top(ctx, methods[k], 0);
    rdModel* b = build_heavy_top(ctx, methods[k], 1);
    double qa[4], qb[4], Wa[3], Wb[3];
    CHECK(ref_run(a, 0.05, qa, Wa, NULL) == RD_OK);
    CHECK(ref_run(b, 0.05, qb, Wb, NULL) == RD_OK);
    double J[3] = {15.234375, 0.46875, 15.234375};
    double e = ref_attitudeError(qa, qb) + ref_momentumError(J, Wa, Wb) / 70.3;
    CHECK_MSG(e < 1e-11, "%s: node at the centre of mass vs at the pivot differ by %.2e",
              methods[k], e);
    rd_destroyModel(&a);
    rd_destroyModel(&b);
  }
}


// evaluations per step: 1 for the explicit methods, 2 for HSTAGM (its half-step sequence);
// Newton iterations are counted
static void test_evaluations(rdContext* ctx) {
  double psi0[3] = {0.3, 0, 0}, W0[3] = {0, 0, 50};
  for (int k = 0; k < NALL; k++) {
    const char* meth = all_methods[k];
    rdModel* m = model_lagrangeTop(ctx, meth, 1e-3, psi0, W0);
    rdData* d = NULL;
    CHECK(rd_createData(m, &d) == RD_OK);
    CHECK(rd_initialize(m, d) == RD_OK);
    rdStats s0, s1;
    rd_getStats(d, &s0);
    CHECK(rd_step(m, d, 0) == RD_OK);  // hstagm starts its half steps here (one more eval)
    rd_getStats(d, &s1);
    long first = s1.load_evaluations - s0.load_evaluations;
    CHECK(rd_advance(m, d, 0.1, NULL, NULL) == RD_OK);
    rdStats s2;
    rd_getStats(d, &s2);
    double nsteps = (double)(s2.steps - s1.steps);
    double per = (double)(s2.load_evaluations - s1.load_evaluations) / nsteps;
    double newton = (double)(s2.newton_iterations - s1.newton_iterations) / nsteps;
    printf(
        "# %-10s torque evaluations per step %.2f (first step %ld), Newton iterations per "
        "step %.2f\n",
        meth, per, first, newton);
    int implicit = !strcmp(meth, "liemid_i") || !strcmp(meth, "akw");
    if (!strcmp(meth, "hstagm")) {
      CHECK_MSG(per == 2 && first == 3, "hstagm: %.2f evaluations per step, %ld in the first", per,
                first);
    } else if (!implicit) {
      CHECK_MSG(per == 1 && first == 1, "%s: %.2f evaluations per step, %ld in the first", meth,
                per, first);
    }
    int newton_methods = strcmp(meth, "sw") && strcmp(meth, "hstagm");
    if (newton_methods) {
      CHECK_MSG(s2.newton_iterations > s1.newton_iterations && s2.last_newton_iterations >= 1,
                "%s: Newton iterations not counted", meth);
    }
    rd_destroyData(&d);
    rd_destroyModel(&m);
  }
}


// an unsymmetric fast top (a symmetric one spinning about its axis makes the inner equations
// nearly linear) with extra options "key=value"
static rdModel* build_top_opts(rdContext* ctx, const char* method, const char* const* opts,
                               int nopt) {
  rdSpec* s = NULL;
  rd_createSpec(ctx, &s);
  rdNodeDef n = rd_defaultNodeDef();
  n.name = "top";
  ref_rotvecToQuat(n.orientation, (double[3]){0.3, 0.1, 0});
  n.angular_velocity[0] = 1;
  n.angular_velocity[1] = -2;
  n.angular_velocity[2] = 50;
  n.angular_velocity_frame = RD_FRAME_BODY;
  int node = model_addRigidBody(s, &n, "spinner", 1, (double[3]){3, 4, 1}, (double[3]){0, 0, 1});
  model_addPivot(s, node);
  rds_setGravity(s, (double[3]){0, 0, -20});
  rds_setOption(s, "solver.method", method);
  for (int i = 0; i < nopt; i++) {
    char key[64];
    const char* eq = strchr(opts[i], '=');
    snprintf(key, sizeof(key), "%.*s", (int)(eq - opts[i]), opts[i]);
    rds_setOption(s, key, eq + 1);
  }
  return model_compile(s);
}


// one step that must fail: error status, a message naming the method, the body, the time and
// the residual, the state restored, the cut attempts counted
static void expect_failure(rdContext* ctx, const char* method, const char* const* opts, int nopt,
                           long attempts, const char* extra) {
  rdModel* m = build_top_opts(ctx, method, opts, nopt);
  rdData* d = NULL;
  CHECK(rd_createData(m, &d) == RD_OK);
  CHECK(rd_initialize(m, d) == RD_OK);
  int st = rd_step(m, d, 0);
  const char* msg = rd_lastError(ctx);
  CHECK_MSG(st == RD_ERR_NUMERIC, "%s (%s): rd_step returned %d", method, opts[1], st);
  CHECK_MSG(st != RD_OK && strstr(msg, method) && strstr(msg, "Newton") &&
                strstr(msg, "'spinner'") && strstr(msg, "residual") && strstr(msg, "t = 0") &&
                strstr(msg, extra),
            "%s (%s): unclear message '%s'", method, opts[1], msg);
  CHECK(rd_time(d) == 0);
  rdStats stats;
  rd_getStats(d, &stats);
  CHECK_MSG(stats.rejected_steps == attempts && stats.steps == 0, "%s: %ld rejected, %ld steps",
            method, stats.rejected_steps, stats.steps);
  rd_destroyData(&d);
  rd_destroyModel(&m);
}


// inner Newton failures surface as errors, never as a silent answer: one iteration cannot
// solve the inner equations of a 2.5 rad step, nor of its halves and quarters
static void test_newton_failure(rdContext* ctx) {
  const char* methods[] = {"nmb", "nms", "liemid_e1", "liemid_e2", "liemid_ea", "liemid_i", "akw"};
  const char* no_cut[] = {"solver.rigid_max_iter=1", "solver.max_step_cuts=0",
                          "solver.time_step=0.05"};
  const char* cuts[] = {"solver.rigid_max_iter=1", "solver.max_step_cuts=2",
                        "solver.time_step=0.05"};
  for (int k = 0; k < 7; k++) {
    expect_failure(ctx, methods[k], no_cut, 3, 1, "after 0 step cuts");
    expect_failure(ctx, methods[k], cuts, 3, 3, "after 2 step cuts");
  }
}


// a model with one extra object of the given kind added to a free body
static int check_rejects(rdContext* ctx, const char* method, int what, const char* expect) {
  rdSpec* s = NULL;
  rd_createSpec(ctx, &s);
  rdNodeDef n = rd_defaultNodeDef();
  n.name = "a";
  int a = rds_addNode(s, &n);
  n.name = "b";
  n.position[0] = 1;
  int bnode = rds_addNode(s, &n);
  rdRigidBodyDef b = rd_defaultRigidBodyDef();
  b.name = "body_a";
  b.node = a;
  b.mass = 1;
  b.inertia[0] = b.inertia[4] = b.inertia[8] = 1;
  rds_addRigidBody(s, &b);
  if (what != 4) {
    b.name = "body_b";
    b.node = bnode;
    rds_addRigidBody(s, &b);
  }
  if (what == 0) {
    rdSpringDef sp = rd_defaultSpringDef();
    sp.name = "coil";
    sp.node[0] = a;
    sp.node[1] = bnode;
    sp.stiffness[0] = 10;
    rds_addSpring(s, &sp);
  } else if (what == 1) {
    rdJointDef j = rd_defaultJointDef();
    j.name = "hinge";
    j.type = RD_JOINT_REVOLUTE;
    j.node[0] = a;
    j.axis[2] = 1;
    rds_addJoint(s, &j);
  } else if (what == 2) {
    rdJointDef j = rd_defaultJointDef();
    j.name = "ball";
    j.type = RD_JOINT_SPHERICAL;
    j.node[0] = a;
    j.node[1] = bnode;
    rds_addJoint(s, &j);
  } else if (what == 3) {
    rdPointMassDef pm = rd_defaultPointMassDef();
    pm.name = "lump";
    pm.node = a;
    pm.mass = 1;
    rds_addPointMass(s, &pm);
  } else if (what == 4) {
    rdLoadDef l = rd_defaultLoadDef();
    l.name = "push";
    l.node = bnode;
    l.value[0] = 1;
    rds_addLoad(s, &l);
  } else if (what == 5) {
    b.name = "body_c";
    b.node = a;
    rds_addRigidBody(s, &b);
  }
  rds_setOption(s, "solver.method", method);
  rdModel* m = NULL;
  int st = rd_compile(s, &m);
  rd_destroySpec(&s);
  if (st != RD_OK) {
    printf("compile failed: %s\n", rd_lastError(ctx));
    return 0;
  }
  rdData* d = NULL;
  st = rd_createData(m, &d);
  const char* msg = rd_lastError(ctx);
  int ok = st == RD_ERR_UNSUPPORTED && d == NULL && strstr(msg, expect) && strstr(msg, method);
  if (!ok) {
    printf("# %s, case %d: status %d, message '%s'\n", method, what, st, msg);
  }
  rd_destroyData(&d);
  rd_destroyModel(&m);
  return ok;
}


static void test_check(rdContext* ctx) {
  for (int k = 0; k < NALL; k++) {
    const char* meth = all_methods[k];
    CHECK_MSG(check_rejects(ctx, meth, 0, "element 'coil' is a spring"), "%s: spring", meth);
    CHECK_MSG(check_rejects(ctx, meth, 1, "joint 'hinge': it is a revolute joint"), "%s: revolute",
              meth);
    CHECK_MSG(check_rejects(ctx, meth, 2, "spherical joint between two nodes"),
              "%s: body-body joint", meth);
    CHECK_MSG(check_rejects(ctx, meth, 3, "'lump' is a point mass"), "%s: point mass", meth);
    CHECK_MSG(check_rejects(ctx, meth, 4, "which carries no rigid body"),
              "%s: load on a massless node", meth);
    CHECK_MSG(check_rejects(ctx, meth, 5, "share node 'a'"), "%s: two bodies on a node", meth);
  }
}


// HSTAGM restarts its half-step state when the step size changes; a run with uneven steps
// still converges to the same answer
static void test_uneven_steps(rdContext* ctx) {
  double psi0[3] = {0.3, 0, 0}, W0[3] = {0, 0, 50};
  for (int k = 0; k < NALL; k++) {
    rdModel* m = model_lagrangeTop(ctx, all_methods[k], 1e-3, psi0, W0);
    rdData* d = NULL;
    CHECK(rd_createData(m, &d) == RD_OK);
    CHECK(rd_initialize(m, d) == RD_OK);
    int st = RD_OK;
    for (int i = 0; i < 200 && st == RD_OK; i++) {
      st = rd_step(m, d, i % 3 ? 1e-3 : 5e-4);
    }
    CHECK(st == RD_OK);
    double q[4], W[3];
    rd_getNodeState(m, d, 0, NULL, q, NULL, NULL, W);
    refProblem p = {{5, 5, 1}, ref_topTorque, NULL};
    double y[7];
    ref_rotvecToQuat(y, psi0);
    memcpy(y + 4, W0, sizeof(W0));
    ref_integrate(&p, 0, rd_time(d), y, 1e-12);
    double e = ref_attitudeError(q, y) + ref_momentumError(p.J, W, y + 4) / 250;
    double tol = strstr(all_methods[k], "_e1") || strstr(all_methods[k], "_e2") ? 1e-3
                 : !strcmp(all_methods[k], "akw")                               ? 2e-3
                                                                                : 1e-4;
    CHECK_MSG(e < tol, "%s with uneven steps: error %.2e", all_methods[k], e);
    rd_destroyData(&d);
    rd_destroyModel(&m);
  }
}


// two independent bodies in one model (a pinned top and a free body, plus a massless node at
// rest) move as they do alone
static void add_top(rdSpec* s, const char* name, double x) {
  rdNodeDef n = rd_defaultNodeDef();
  n.name = name;
  n.position[0] = x;
  ref_rotvecToQuat(n.orientation, (double[3]){0.3, 0, 0});
  n.angular_velocity[2] = 50;
  n.angular_velocity_frame = RD_FRAME_BODY;
  int node = model_addRigidBody(s, &n, name, 1, (double[3]){4, 4, 1}, (double[3]){0, 0, 1});
  rdJointDef j = rd_defaultJointDef();
  j.name = name;
  j.type = RD_JOINT_SPHERICAL;
  j.node[0] = node;
  j.node[1] = RD_GROUND;
  j.point[0] = x;
  rds_addJoint(s, &j);
}


static void add_free(rdSpec* s, const char* name) {
  rdNodeDef n = rd_defaultNodeDef();
  n.name = name;
  n.angular_velocity[0] = 0.45549;
  n.angular_velocity[1] = 0.82623;
  n.angular_velocity[2] = 0.03476;
  n.angular_velocity_frame = RD_FRAME_BODY;
  n.velocity[2] = 3;
  model_addRigidBody(s, &n, name, 2, (double[3]){0.9144, 1.098, 1.66}, (double[3]){0, 0.25, 0});
}


static rdModel* build_pair(rdContext* ctx, const char* method, int which) {
  rdSpec* s = NULL;
  rd_createSpec(ctx, &s);
  if (which == 2) {
    rdNodeDef n = rd_defaultNodeDef();
    n.name = "marker";
    n.kind = RD_NODE_POINT;
    rds_addNode(s, &n);
  }
  if (which != 1) {
    add_free(s, "free");
  }
  if (which != 0) {
    add_top(s, "top", 2);
  }
  rds_setGravity(s, (double[3]){0, 0, -20});
  rds_setOption(s, "solver.method", method);
  rds_setOption(s, "solver.time_step", "1e-3");
  return model_compile(s);
}


static void node_state(const rdModel* m, const char* name, double t, double out[13]) {
  rdData* d = NULL;
  CHECK(rd_createData(m, &d) == RD_OK);
  CHECK(rd_initialize(m, d) == RD_OK);
  CHECK(rd_advance(m, d, t, NULL, NULL) == RD_OK);
  rd_getNodeState(m, d, rd_findNode(m, name), out, out + 3, out + 7, out + 10, NULL);
  rd_destroyData(&d);
}


static void test_two_bodies(rdContext* ctx) {
  for (int k = 0; k < NALL; k++) {
    rdModel* alone_free = build_pair(ctx, all_methods[k], 0);
    rdModel* alone_top = build_pair(ctx, all_methods[k], 1);
    rdModel* both = build_pair(ctx, all_methods[k], 2);
    double a[13], b[13], c[13], e[13];
    node_state(alone_free, "free", 0.2, a);
    node_state(alone_top, "top", 0.2, b);
    node_state(both, "free", 0.2, c);
    node_state(both, "top", 0.2, e);
    double dmax = 0;
    for (int i = 0; i < 13; i++) {
      dmax = fmax(dmax, fmax(fabs(a[i] - c[i]), fabs(b[i] - e[i]) / 50));
    }
    CHECK_MSG(dmax < 1e-12, "%s: bodies in one model differ from alone by %.2e", all_methods[k],
              dmax);
    rdData* d = NULL;
    CHECK(rd_createData(both, &d) == RD_OK);
    CHECK(rd_initialize(both, d) == RD_OK);
    CHECK(rd_advance(both, d, 0.01, NULL, NULL) == RD_OK);
    double x[3], q[4];
    rd_getNodeState(both, d, 0, x, q, NULL, NULL, NULL);
    CHECK(x[0] == 0 && x[1] == 0 && x[2] == 0 && q[0] == 1);
    rd_destroyData(&d);
    rd_destroyModel(&alone_free);
    rd_destroyModel(&alone_top);
    rd_destroyModel(&both);
  }
}


// ---------------------------------------------------------------------------------------------
// the same pinned top driven through every load path of the rigid steppers: the weight from
// their body table (no rd_evalLoads), a formula torque law, a torque callback, the weight with
// host-held node loads (rd_setNodeLoad: the generic path), and, with the node at the centre of
// mass, a nodal dead force m g (the generic path's lever arm R r x F) or the weight. The centre
// of mass c, pivot -> com, is on a body axis (diagonal inertia about the pivot: the
// principal-axes kernels) or off the axes (a full inertia: the general kernels).

enum {
  PATH_WEIGHT,
  PATH_FORMULA,
  PATH_CALLBACK,
  PATH_HOSTLOAD,
  PATH_NODAL_FORCE,
  PATH_WEIGHT_AT_COM,
  PATH_COUNT
};
static const char* const path_name[PATH_COUNT] = {"weight",
                                                  "formula torque law",
                                                  "torque callback",
                                                  "weight + rd_setNodeLoad",
                                                  "nodal force at the com",
                                                  "weight, node at com"};
static const double PMASS = 15, PG = 9.81;

typedef struct {
  double c[3];
} pathUser;

// spatial torque about the pivot of the weight: (R c) x (0, 0, -m g)
static int weight_torque(double t, const double R[9], double torque[3], void* user) {
  (void)t;
  const double* c = ((const pathUser*)user)->c;
  double a0 = R[0] * c[0] + R[1] * c[1] + R[2] * c[2];
  double a1 = R[3] * c[0] + R[4] * c[1] + R[5] * c[2];
  torque[0] = -PMASS * PG * a1;
  torque[1] = PMASS * PG * a0;
  torque[2] = 0;
  return 0;
}

static rdModel* build_path(rdContext* ctx, const char* method, int path, const double c[3],
                           pathUser* user) {
  rdSpec* s = NULL;
  rd_createSpec(ctx, &s);
  int at_com = path == PATH_NODAL_FORCE || path == PATH_WEIGHT_AT_COM;
  rdNodeDef n = rd_defaultNodeDef();
  n.name = "top";
  n.angular_velocity[0] = 3;
  n.angular_velocity[1] = 40;
  n.angular_velocity[2] = -4;
  n.angular_velocity_frame = RD_FRAME_BODY;
  rdu_rotvecToQuat(n.orientation, (double[3]){0.2, -0.1, 0.05});
  if (at_com) {
    // x = R0 c; v = R0 (W x c)
    double Wc[3] = {n.angular_velocity[1] * c[2] - n.angular_velocity[2] * c[1],
                    n.angular_velocity[2] * c[0] - n.angular_velocity[0] * c[2],
                    n.angular_velocity[0] * c[1] - n.angular_velocity[1] * c[0]};
    rdu_quatRotate(n.position, n.orientation, c);
    rdu_quatRotate(n.velocity, n.orientation, Wc);
  }
  const double J[3] = {0.3, 0.5, 0.2};
  int node = model_addRigidBody(s, &n, "body", PMASS, J, at_com ? NULL : c);
  model_addPivot(s, node);
  if (path == PATH_WEIGHT || path == PATH_HOSTLOAD || path == PATH_WEIGHT_AT_COM) {
    rds_setGravity(s, (double[3]){0, 0, -PG});
  }
  char fx[160], fy[160];
  snprintf(fx, sizeof(fx), "%.17g*(r21*%.17g + r22*%.17g + r23*%.17g)", -PMASS * PG, c[0], c[1],
           c[2]);
  snprintf(fy, sizeof(fy), "%.17g*(r11*%.17g + r12*%.17g + r13*%.17g)", PMASS * PG, c[0], c[1],
           c[2]);
  rdTorqueLawDef tl = rd_defaultTorqueLawDef();
  tl.name = "weight";
  tl.node = node;
  if (path == PATH_FORMULA) {
    tl.type = RD_TORQUE_EXPRESSION;
    tl.expression[0] = fx;
    tl.expression[1] = fy;
    tl.expression[2] = "0";
    CHECK(rds_addTorqueLaw(s, &tl) >= 0);
  } else if (path == PATH_CALLBACK) {
    memcpy(user->c, c, sizeof(user->c));
    tl.type = RD_TORQUE_CALLBACK;
    tl.callback = weight_torque;
    tl.user = user;
    CHECK(rds_addTorqueLaw(s, &tl) >= 0);
  } else if (path == PATH_NODAL_FORCE) {
    rdLoadDef l = rd_defaultLoadDef();
    l.name = "weight";
    l.node = node;
    l.kind = RD_LOAD_FORCE;
    l.value[2] = -PMASS * PG;
    CHECK(rds_addLoad(s, &l) >= 0);
  }
  rds_setOption(s, "solver.method", method);
  rds_setOption(s, "solver.time_step", "1e-3");
  return model_compile(s);
}


static void test_load_paths(rdContext* ctx) {
  const double axis[3] = {0, 0, 0.4}, off[3] = {0.12, -0.25, 0.3};
  for (int g = 0; g < 2; g++) {
    const double* c = g ? off : axis;
    for (int k = 0; k < NALL; k++) {
      double q0[4] = {1, 0, 0, 0}, W0[3] = {0, 0, 0}, worst = 0;
      int wpath = 0;
      for (int p = 0; p < PATH_COUNT; p++) {
        pathUser user;
        rdModel* m = build_path(ctx, all_methods[k], p, c, &user);
        rdData* d = NULL;
        CHECK(rd_createData(m, &d) == RD_OK);
        CHECK(rd_initialize(m, d) == RD_OK);
        if (p == PATH_HOSTLOAD) {
          CHECK(rd_setNodeLoad(m, d, 0, (double[3]){0, 0, 0}, (double[3]){0, 0, 0}) == RD_OK);
        }
        CHECK(rd_advance(m, d, 0.2, NULL, NULL) == RD_OK);
        double q[4], W[3];
        rd_getNodeState(m, d, 0, NULL, q, NULL, NULL, W);
        if (p == 0) {
          memcpy(q0, q, sizeof(q0));
          memcpy(W0, W, sizeof(W0));
        } else {
          double J[3] = {1, 1, 1};
          double e = ref_attitudeError(q0, q) + ref_momentumError(J, W0, W) / 40;
          if (e > worst) {
            worst = e;
            wpath = p;
          }
        }
        rd_destroyData(&d);
        rd_destroyModel(&m);
      }
      printf("# load paths, %s inertia, %-10s largest difference to the weight path %.1e (%s)\n",
             g ? "full" : "diagonal", all_methods[k], worst, path_name[wpath]);
      CHECK_MSG(worst < 1e-11, "%s, %s inertia: the %s path differs from the weight path by %.2e",
                all_methods[k], g ? "full" : "diagonal", path_name[wpath], worst);
    }
  }
}


// Coulomb wall (Krysl & Endres §3.6) as the built-in law and as a callback of the same formula
// (the independent copy of tests/support/rigid_models.h)
static int coulomb_cb(double t, const double R[9], double torque[3], void* user) {
  (void)user;
  rigid_torque_coulomb(t, R, torque, NULL);
  return 0;
}

static void test_coulomb_paths(rdContext* ctx) {
  for (int k = 0; k < NALL; k++) {
    double q[2][4], W[2][3];
    for (int v = 0; v < 2; v++) {
      rdSpec* s = NULL;
      rd_createSpec(ctx, &s);
      rdNodeDef n = rd_defaultNodeDef();
      n.name = "body";
      n.angular_velocity[0] = 1;
      n.angular_velocity[1] = 2.0 / 3;
      n.angular_velocity[2] = 4.0 / 9;
      n.angular_velocity_frame = RD_FRAME_BODY;
      int node = model_addRigidBody(s, &n, "body", 1, (double[3]){2, 3, 4.5}, NULL);
      rdTorqueLawDef tl = rd_defaultTorqueLawDef();
      tl.name = "wall";
      tl.node = node;
      tl.type = v ? RD_TORQUE_CALLBACK : RD_TORQUE_COULOMB_WALL;
      tl.param[0] = 1.1;
      tl.param[1] = 0.01;
      tl.callback = coulomb_cb;
      rds_addTorqueLaw(s, &tl);
      rds_setOption(s, "solver.method", all_methods[k]);
      rds_setOption(s, "solver.time_step", "0.01");
      rdModel* m = NULL;
      CHECK(rd_compile(s, &m) == RD_OK);
      rd_destroySpec(&s);
      CHECK(ref_run(m, 2, q[v], W[v], NULL) == RD_OK);
      rd_destroyModel(&m);
    }
    double J[3] = {2, 3, 4.5};
    double e = ref_attitudeError(q[0], q[1]) + ref_momentumError(J, W[0], W[1]) / 3.5;
    CHECK_MSG(e < 1e-12, "%s: coulomb_wall law and its callback differ by %.2e", all_methods[k], e);
  }
}


int main(int argc, char** argv) {
  TEST_INIT(argc, argv);
  rdContext* ctx = NULL;
  rd_createContext(&ctx, NULL);
  TEST_CASE(test_initial_accelerations(ctx));
  TEST_CASE(test_node_placement(ctx));
  TEST_CASE(test_evaluations(ctx));
  TEST_CASE(test_newton_failure(ctx));
  TEST_CASE(test_check(ctx));
  TEST_CASE(test_uneven_steps(ctx));
  TEST_CASE(test_two_bodies(ctx));
  TEST_CASE(test_load_paths(ctx));
  TEST_CASE(test_coulomb_paths(ctx));
  rd_destroyContext(&ctx);
  return TEST_SUMMARY();
}
