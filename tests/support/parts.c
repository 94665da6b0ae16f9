// SPDX-License-Identifier: MIT
// Parts of the test models: a rigid body on its node, a pivot, a clamp, a ramp, a spring-mass.
#include <string.h>

#include "tests/support/models.h"

int model_addRigidBody(rdSpec* s, const rdNodeDef* n, const char* body, double mass,
                       const double inertia[3], const double com[3]) {
  int node = rds_addNode(s, n);
  if (node < 0) {
    return node;
  }
  rdRigidBodyDef b = rd_defaultRigidBodyDef();
  b.name = body;
  b.node = node;
  b.mass = mass;
  b.inertia[0] = inertia[0];
  b.inertia[4] = inertia[1];
  b.inertia[8] = inertia[2];
  if (com) {
    memcpy(b.com, com, sizeof(b.com));
  }
  int st = rds_addRigidBody(s, &b);
  return st < 0 ? st : node;
}


int model_addPivot(rdSpec* s, int node) {
  rdJointDef j = rd_defaultJointDef();
  j.name = "pivot";
  j.type = RD_JOINT_SPHERICAL;
  j.node[0] = node;
  j.node[1] = RD_GROUND;
  return rds_addJoint(s, &j);
}


int model_addClamp(rdSpec* s, int node) {
  rdJointDef j = rd_defaultJointDef();
  j.name = "root";
  j.type = RD_JOINT_FIXED;
  j.node[0] = node;
  return rds_addJoint(s, &j);
}


int model_addRamp(rdSpec* s) {
  static const double t[2] = {0, 1}, y[2] = {0, 1};
  rdTimeFnDef f = rd_defaultTimeFnDef();
  f.name = "ramp";
  f.type = RD_TIMEFN_LINEAR;
  f.npoint = 2;
  f.t = t;
  f.y = y;
  return rds_addTimeFn(s, &f);
}


int model_addExpression(rdSpec* s, const char* name, const char* expression) {
  rdTimeFnDef f = rd_defaultTimeFnDef();
  f.name = name;
  f.type = RD_TIMEFN_EXPRESSION;
  f.expression = expression;
  return rds_addTimeFn(s, &f);
}


int model_addSpringMass(rdSpec* s, double x0, double v0, double k1, double k3) {
  rdNodeDef n = rd_defaultNodeDef();
  n.name = "p";
  n.kind = RD_NODE_POINT;
  n.position[0] = x0;
  n.velocity[0] = v0;
  int node = rds_addNode(s, &n);
  if (node < 0) {
    return node;
  }
  rdPointMassDef pm = rd_defaultPointMassDef();
  pm.name = "pm";
  pm.node = node;
  pm.mass = 1;
  int st = rds_addPointMass(s, &pm);
  if (st < 0) {
    return st;
  }
  rdSpringDef sp = rd_defaultSpringDef();
  sp.name = "k";
  sp.node[0] = node;
  sp.node[1] = RD_GROUND;
  sp.stiffness[0] = k1;
  sp.stiffness[2] = k3;
  sp.rest_length = 0;
  st = rds_addSpring(s, &sp);
  return st < 0 ? st : node;
}
