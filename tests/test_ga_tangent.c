// SPDX-License-Identifier: MIT
// Finite-difference checks of every element tangent, load stiffness, joint Jacobian B and K^Phi
// through the assembled generalized-alpha iteration matrix (perturbations on the Lie group).
#include "ga_fd.h"
#include "rodrigues/rodrigues.h"
#include "test_macros.h"

static rdSpec* base(rdContext* ctx, int kindA, int kindB) {
  rdSpec* s = NULL;
  rd_createSpec(ctx, &s);
  rdNodeDef n = rd_defaultNodeDef();
  n.name = "a";
  n.kind = kindA;
  n.position[0] = 0.3;
  n.position[1] = 0.1;
  n.position[2] = -0.2;
  if (kindA == RD_NODE_RIGID) {
    double q[4] = {0.9, 0.1, -0.3, 0.2}, nq = 0;
    for (int k = 0; k < 4; k++) nq += q[k] * q[k];
    for (int k = 0; k < 4; k++) n.orientation[k] = q[k] / sqrt(nq);
  }
  rds_addNode(s, &n);
  n = rd_defaultNodeDef();
  n.name = "b";
  n.kind = kindB;
  n.position[0] = 1;
  n.position[1] = 0.5;
  n.position[2] = 0.2;
  if (kindB == RD_NODE_RIGID) {
    double q[4] = {0.7, -0.2, 0.5, 0.4}, nq = 0;
    for (int k = 0; k < 4; k++) nq += q[k] * q[k];
    for (int k = 0; k < 4; k++) n.orientation[k] = q[k] / sqrt(nq);
  }
  rds_addNode(s, &n);
  double g[3] = {0.3, -1, -9.81};
  rds_setGravity(s, g);
  return s;
}


static void body(rdSpec* s, const char* name, int node, double cx) {
  rdRigidBodyDef b = rd_defaultRigidBodyDef();
  b.name = name;
  b.node = node;
  b.mass = 2.5;
  double J[9] = {0.4, 0.05, -0.02, 0.05, 0.7, 0.03, -0.02, 0.03, 0.9};
  for (int k = 0; k < 9; k++) b.inertia[k] = J[k];
  b.com[0] = cx;
  b.com[1] = -0.2;
  b.com[2] = 0.15;
  rds_addRigidBody(s, &b);
}


// compile, make data, check the matrix at three random states and two coefficient pairs
static void check(rdSpec* s, const char* what) {
  rdContext* ctx = rds_context(s);
  rdModel* m = NULL;
  rdData* d = NULL;
  int st = rd_compile(s, &m);
  rd_destroySpec(&s);
  if (st) {
    printf("%s: compile failed: %s\n", what, rd_lastError(ctx));
    CHECK(0);
    return;
  }
  st = rd_createData(m, &d);
  CHECK_MSG(st == 0, "%s: %s", what, rd_lastError(ctx));
  if (!st) {
    for (unsigned seed = 1; seed <= 3; seed++) {
      double e1 = gafd_check(m, d, 0.37, 2.0, 3.0, seed, 1);
      double e2 = gafd_check(m, d, 0.37, 5.0, 0.7, seed + 10, 1);
      CHECK_MSG(e1 < 1e-7 && e2 < 1e-7, "%s: relative mismatch %.3e / %.3e", what, e1, e2);
    }
  }
  rd_destroyData(&d);
  rd_destroyModel(&m);
}


static rdJointDef joint(int type, int n0, int n1) {
  rdJointDef j = rd_defaultJointDef();
  j.name = "j";
  j.type = type;
  j.node[0] = n0;
  j.node[1] = n1;
  j.point[0] = 0.6;
  j.point[1] = 0.2;
  j.point[2] = 0.1;
  j.axis[0] = 0.2;
  j.axis[1] = 0.9;
  j.axis[2] = -0.3;
  // axis2 normal to axis
  j.axis2[0] = 0.9;
  j.axis2[1] = -0.2;
  j.axis2[2] = 0;
  return j;
}


static int timefn(rdSpec* s, const char* name, const char* expr) {
  rdTimeFnDef f = rd_defaultTimeFnDef();
  f.name = name;
  f.type = RD_TIMEFN_EXPRESSION;
  f.expression = expr;
  return rds_addTimeFn(s, &f);
}


int main(void) {
  rdContext* ctx = NULL;
  rd_createContext(&ctx, NULL);
  // rigid body with a COM offset, gravity, dead and follower forces and moments
  {
    rdSpec* s = base(ctx, RD_NODE_RIGID, RD_NODE_RIGID);
    body(s, "ba", 0, 0.3);
    body(s, "bb", 1, -0.1);
    const char* names[4] = {"f_dead", "m_dead", "f_follow", "m_follow"};
    for (int k = 0; k < 4; k++) {
      rdLoadDef l = rd_defaultLoadDef();
      l.name = names[k];
      l.node = 0;
      l.kind = k % 2 ? RD_LOAD_MOMENT : RD_LOAD_FORCE;
      l.frame = k < 2 ? RD_FRAME_GLOBAL : RD_FRAME_BODY;
      l.value[0] = 1 + k;
      l.value[1] = -2;
      l.value[2] = 0.5 * k;
      rds_addLoad(s, &l);
    }
    check(s, "rigid body + loads");
  }
  // point mass and springs (two point nodes; rigid node to a ground anchor)
  {
    rdSpec* s = base(ctx, RD_NODE_POINT, RD_NODE_POINT);
    rdPointMassDef p = rd_defaultPointMassDef();
    p.name = "pm";
    p.node = 0;
    p.mass = 1.5;
    rds_addPointMass(s, &p);
    rdSpringDef sp = rd_defaultSpringDef();
    sp.name = "sp";
    sp.node[0] = 0;
    sp.node[1] = 1;
    sp.stiffness[0] = 10;
    sp.stiffness[1] = 3;
    sp.stiffness[2] = 7;
    sp.damping = 0.8;
    sp.rest_length = 0.5;
    rds_addSpring(s, &sp);
    check(s, "point mass + spring");
  }
  {
    rdSpec* s = base(ctx, RD_NODE_RIGID, RD_NODE_RIGID);
    rdSpringDef sp = rd_defaultSpringDef();
    sp.name = "sp";
    sp.node[0] = 1;
    sp.node[1] = RD_GROUND;
    sp.anchor[2] = 1;
    sp.stiffness[0] = 4;
    sp.stiffness[2] = 2;
    sp.damping = 0.3;
    rds_addSpring(s, &sp);
    check(s, "spring to ground");
  }
  // every joint type
  struct {
    int type, n0, n1, ka, kb;
    const char* name;
  } cases[] = {
      {RD_JOINT_FIXED, 0, RD_GROUND, RD_NODE_RIGID, RD_NODE_RIGID, "fixed"},
      {RD_JOINT_FIXED, 0, RD_GROUND, RD_NODE_POINT, RD_NODE_RIGID, "fixed (point node)"},
      {RD_JOINT_RIGID, 0, 1, RD_NODE_RIGID, RD_NODE_RIGID, "rigid"},
      {RD_JOINT_RIGID, 0, RD_GROUND, RD_NODE_RIGID, RD_NODE_RIGID, "rigid to ground"},
      {RD_JOINT_SPHERICAL, 0, 1, RD_NODE_RIGID, RD_NODE_RIGID, "spherical"},
      {RD_JOINT_SPHERICAL, 0, 1, RD_NODE_POINT, RD_NODE_RIGID, "spherical (point node)"},
      {RD_JOINT_SPHERICAL, 0, RD_GROUND, RD_NODE_RIGID, RD_NODE_RIGID, "spherical to ground"},
      {RD_JOINT_REVOLUTE, 0, 1, RD_NODE_RIGID, RD_NODE_RIGID, "revolute"},
      {RD_JOINT_REVOLUTE, 0, RD_GROUND, RD_NODE_RIGID, RD_NODE_RIGID, "revolute to ground"},
      {RD_JOINT_REVOLUTE, 0, 1, RD_NODE_RIGID, RD_NODE_RIGID, "revolute, prescribed angle"},
      {RD_JOINT_REVOLUTE, 0, RD_GROUND, RD_NODE_RIGID, RD_NODE_RIGID,
       "revolute to ground, prescribed angle"},
      {RD_JOINT_UNIVERSAL, 0, 1, RD_NODE_RIGID, RD_NODE_RIGID, "universal"},
      {RD_JOINT_PRISMATIC, 0, 1, RD_NODE_RIGID, RD_NODE_RIGID, "prismatic"},
      {RD_JOINT_CYLINDRICAL, 0, 1, RD_NODE_RIGID, RD_NODE_RIGID, "cylindrical"},
      {RD_JOINT_CYLINDRICAL, 0, RD_GROUND, RD_NODE_RIGID, RD_NODE_RIGID, "cylindrical to ground"},
      {RD_JOINT_PLANAR, 0, 1, RD_NODE_RIGID, RD_NODE_RIGID, "planar"},
      {RD_JOINT_PRESCRIBED, 0, RD_GROUND, RD_NODE_RIGID, RD_NODE_RIGID, "prescribed"},
      {RD_JOINT_PRESCRIBED, 0, RD_GROUND, RD_NODE_POINT, RD_NODE_RIGID, "prescribed (point)"},
      // node[1] given through the C API: ignored, the node is held to the moving ground
      {RD_JOINT_PRESCRIBED, 0, 1, RD_NODE_RIGID, RD_NODE_RIGID, "prescribed, node[1] ignored"},
      {RD_JOINT_FIXED, 0, 1, RD_NODE_RIGID, RD_NODE_RIGID, "fixed, node[1] ignored"},
      {RD_JOINT_ROTATION_CONTROL, 0, 1, RD_NODE_RIGID, RD_NODE_RIGID, "rotation control"},
  };
  for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
    rdSpec* s = base(ctx, cases[c].ka, cases[c].kb);
    rdJointDef j = joint(cases[c].type, cases[c].n0, cases[c].n1);
    if (cases[c].type == RD_JOINT_REVOLUTE) {
      j.torque = 2.5;
      j.torque_fn = timefn(s, "tq", "1 + t");
    }
    if (cases[c].type == RD_JOINT_PRESCRIBED) {
      j.motion_fn[0] = timefn(s, "ux", "0.1*sin(t)");
      j.motion_fn[2] = timefn(s, "uz", "t*t");
      j.motion_fn[3] = timefn(s, "rx", "0.3*t");
      j.motion_fn[5] = timefn(s, "rz", "-0.2*cos(t)");
    }
    if (cases[c].type == RD_JOINT_ROTATION_CONTROL || strstr(cases[c].name, "angle")) {
      j.angle_fn = timefn(s, "th", "0.5*t + 0.2");
    }
    rds_addJoint(s, &j);
    check(s, cases[c].name);
  }
  rd_destroyContext(&ctx);
  return TEST_SUMMARY();
}
