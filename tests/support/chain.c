// SPDX-License-Identifier: MIT
// A chain of rigid rods joined by revolutes (tests of generalized-alpha, bench/ga_chain.c).
#include <math.h>
#include <stdio.h>

#include "tests/support/models.h"

rdSpec* model_chain(rdContext* ctx, int N, int horizontal) {
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
    char body[32];
    snprintf(body, sizeof(body), "b%d", i);
    const double J[3] = {1.0 / 12, 1.0 / 12, 1e-3};
    int node = model_addRigidBody(s, &n, body, 1, J, NULL);
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
  rds_setGravity(s, (double[3]){0, 0, -9.81});
  return s;
}
