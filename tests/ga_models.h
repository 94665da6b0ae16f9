// SPDX-License-Identifier: MIT
// Small models shared by the generalized-alpha tests (header-only, static functions).
#ifndef RD_GA_MODELS_H
#define RD_GA_MODELS_H

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "rodrigues/rodrigues.h"

// docs/benchmarks.md A6: heavy top, node at the COM (0,1,0), spherical joint to ground at 0; the
// model only (no solver options; also used by bench/ga_chain.c)
static inline rdSpec* ga_heavyTopModel(rdContext* ctx) {
  rdSpec* s = NULL;
  if (rd_createSpec(ctx, &s)) {
    return NULL;
  }
  rdNodeDef n = rd_defaultNodeDef();
  n.name = "top";
  n.position[1] = 1;
  n.velocity[0] = 4.61538;
  n.angular_velocity[1] = 150;
  n.angular_velocity[2] = -4.61538;
  n.angular_velocity_frame = RD_FRAME_BODY;
  int node = rds_addNode(s, &n);
  rdRigidBodyDef b = rd_defaultRigidBodyDef();
  b.name = "body";
  b.node = node;
  b.mass = 15;
  b.inertia[0] = 0.234375;
  b.inertia[4] = 0.46875;
  b.inertia[8] = 0.234375;
  rds_addRigidBody(s, &b);
  rdJointDef j = rd_defaultJointDef();
  j.name = "pivot";
  j.type = RD_JOINT_SPHERICAL;
  j.node[0] = node;
  j.node[1] = RD_GROUND;
  rds_addJoint(s, &j);
  double g[3] = {0, 0, -9.81};
  rds_setGravity(s, g);
  return s;
}


// the heavy top with the generalized-alpha options of the tests
static inline rdSpec* ga_heavyTopSpec(rdContext* ctx, double rho, double h, const char* linsol) {
  rdSpec* s = ga_heavyTopModel(ctx);
  if (!s) {
    return NULL;
  }
  rds_setOption(s, "solver.method", "generalized_alpha");
  rds_setOptionReal(s, "solver.rho_inf", rho);
  rds_setOptionReal(s, "solver.time_step", h);
  rds_setOptionReal(s, "solver.atol", 1e-10);
  rds_setOptionReal(s, "solver.rtol", 1e-8);
  rds_setOptionReal(s, "solver.max_iter", 30);
  if (linsol) {
    rds_setOption(s, "solver.linear_solver", linsol);
  }
  return s;
}


// N unit rods (m = 1, I = diag(1/12, 1/12, 1e-3) about the centre) joined by revolutes about y
// at their ends, the first to the ground; gravity -9.81 z. Hanging along -z (node i at
// (0, 0, -(i + 1/2)), joint i at (0, 0, -i)) and turning as a rigid body at 0.5 rad/s about y,
// or (horizontal) lying along +x at rest. The model only (also used by bench/ga_chain.c).
static inline rdSpec* ga_chainModel(rdContext* ctx, int N, int horizontal) {
  rdSpec* s = NULL;
  if (rd_createSpec(ctx, &s)) {
    return NULL;
  }
  char name[32];
  const double w = 0.5;
  for (int i = 0; i < N; i++) {
    rdNodeDef n = rd_defaultNodeDef();
    snprintf(name, sizeof(name), "n%d", i);
    n.name = name;
    if (horizontal) {
      // body z (the rod axis) turned onto x by pi/2 about y
      n.position[0] = i + 0.5;
      n.orientation[0] = n.orientation[2] = sqrt(0.5);
    } else {
      n.position[2] = -(i + 0.5);
      n.velocity[0] = -w * (i + 0.5);  // w e_y x (0, 0, -s) = (-w s, 0, 0)
      n.angular_velocity[1] = w;
    }
    int node = rds_addNode(s, &n);
    rdRigidBodyDef body = rd_defaultRigidBodyDef();
    snprintf(name, sizeof(name), "b%d", i);
    body.name = name;
    body.node = node;
    body.mass = 1;
    body.inertia[0] = body.inertia[4] = 1.0 / 12;
    body.inertia[8] = 1e-3;
    rds_addRigidBody(s, &body);
    rdJointDef j = rd_defaultJointDef();
    snprintf(name, sizeof(name), "j%d", i);
    j.name = name;
    j.type = RD_JOINT_REVOLUTE;
    j.node[0] = node;
    j.node[1] = i > 0 ? node - 1 : RD_GROUND;
    j.point[horizontal ? 0 : 2] = horizontal ? i : -i;
    j.axis[1] = 1;
    rds_addJoint(s, &j);
  }
  double g[3] = {0, 0, -9.81};
  rds_setGravity(s, g);
  return s;
}


// compile a spec (destroyed here) and create + initialize data; 0 on success
static inline int ga_make(rdSpec* s, rdModel** m, rdData** d) {
  *m = NULL;
  *d = NULL;
  if (!s) {
    return -1;
  }
  int st = rd_compile(s, m);
  rdContext* ctx = rds_context(s);
  rd_destroySpec(&s);
  if (st) {
    printf("compile: %s\n", rd_lastError(ctx));
    return st;
  }
  st = rd_createData(*m, d);
  if (st) {
    printf("createData: %s\n", rd_lastError(ctx));
    return st;
  }
  st = rd_initialize(*m, *d);
  if (st) {
    printf("initialize: %s\n", rd_lastError(ctx));
  }
  return st;
}

#endif  // RD_GA_MODELS_H
