// SPDX-License-Identifier: MIT
// Tops and a free body: the heavy top of docs/benchmarks.md A6, the Lagrangian top of Krysl &
// Endres 2005.
#include <string.h>

#include "tests/support/models.h"
#include "tests/support/rigid_ref.h"

rdSpec* model_heavyTop(rdContext* ctx, int node_at_pivot) {
  rdSpec* s = NULL;
  if (rd_createSpec(ctx, &s)) {
    return NULL;
  }
  rdNodeDef n = rd_defaultNodeDef();
  n.name = "top";
  n.angular_velocity[1] = 150;
  n.angular_velocity[2] = -4.61538;
  n.angular_velocity_frame = RD_FRAME_BODY;
  if (!node_at_pivot) {
    n.position[1] = 1;
    n.velocity[0] = 4.61538;
  }
  const double J[3] = {0.234375, 0.46875, 0.234375}, X[3] = {0, 1, 0};
  int node = model_addRigidBody(s, &n, "body", 15, J, node_at_pivot ? X : NULL);
  model_addPivot(s, node);
  rds_setGravity(s, (double[3]){0, 0, -9.81});
  return s;
}


rdSpec* model_heavyTopAlpha(rdContext* ctx, double rho, double h, const char* linsol) {
  rdSpec* s = model_heavyTop(ctx, 0);
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


rdModel* model_lagrangeTop(rdContext* ctx, const char* method, double h, const double psi0[3],
                           const double W0[3]) {
  return model_compile(model_lagrangeTopSpec(ctx, method, h, psi0, W0));
}


rdSpec* model_lagrangeTopSpec(rdContext* ctx, const char* method, double h, const double psi0[3],
                              const double W0[3]) {
  rdSpec* s = NULL;
  if (rd_createSpec(ctx, &s) != RD_OK) {
    return NULL;
  }
  rdNodeDef n = rd_defaultNodeDef();
  n.name = "top";
  ref_rotvecToQuat(n.orientation, psi0);
  memcpy(n.angular_velocity, W0, 3 * sizeof(double));
  n.angular_velocity_frame = RD_FRAME_BODY;
  const double J[3] = {4, 4, 1}, com[3] = {0, 0, 1};
  int node = model_addRigidBody(s, &n, "body", 1, J, com);
  model_addPivot(s, node);
  rds_setGravity(s, (double[3]){0, 0, -20});
  rds_setOption(s, "solver.method", method);
  rds_setOptionReal(s, "solver.time_step", h);
  return s;
}


rdModel* model_freeBody(rdContext* ctx, const char* method, double h, const double J[3],
                        const double W0[3]) {
  return model_compile(model_freeBodySpec(ctx, method, h, J, W0));
}


rdSpec* model_freeBodySpec(rdContext* ctx, const char* method, double h, const double J[3],
                           const double W0[3]) {
  rdSpec* s = NULL;
  if (rd_createSpec(ctx, &s) != RD_OK) {
    return NULL;
  }
  rdNodeDef n = rd_defaultNodeDef();
  n.name = "body";
  memcpy(n.angular_velocity, W0, 3 * sizeof(double));
  n.angular_velocity_frame = RD_FRAME_BODY;
  model_addRigidBody(s, &n, "body", 1, J, NULL);
  rds_setOption(s, "solver.method", method);
  rds_setOptionReal(s, "solver.time_step", h);
  return s;
}
