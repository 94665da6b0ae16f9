// SPDX-License-Identifier: MIT
// NetCDF output: what is written reads back through the netCDF library; an aborted file is
// removed; misuse is refused.
#include <netcdf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rodrigues/rodrigues.h"
#include "tests/support/models.h"
#include "tests/test_macros.h"

static rdModel* build(rdContext* ctx) {
  rdSpec* s = NULL;
  rd_createSpec(ctx, &s);
  rdNodeDef n = rd_defaultNodeDef();
  n.name = "spinner";
  n.angular_velocity[0] = 0.4;
  n.angular_velocity[1] = 1.0;
  n.angular_velocity[2] = 0.1;
  model_addRigidBody(s, &n, "body", 1, (double[3]){0.9144, 1.098, 1.66}, NULL);
  rds_setOption(s, "solver.method", "nmb");
  rds_setOption(s, "solver.time_step", "0.01");
  rdModel* m = NULL;
  CHECK(rd_compile(s, &m) == RD_OK);
  rd_destroySpec(&s);
  return m;
}


// a body hanging at rest below a spherical joint: the reaction carries its weight
static void test_reactions(rdContext* ctx, const char* path) {
  rdSpec* s = NULL;
  rd_createSpec(ctx, &s);
  rdNodeDef n = rd_defaultNodeDef();
  n.name = "bob";
  n.position[2] = -1;
  int node = model_addRigidBody(s, &n, "body", 3, (double[3]){0.1, 0.1, 0.1}, NULL);
  rdJointDef j = rd_defaultJointDef();
  j.name = "hinge";
  j.type = RD_JOINT_SPHERICAL;
  j.node[0] = node;
  rds_addJoint(s, &j);
  rds_setGravity(s, (double[3]){0, 0, -9.81});
  rds_setOption(s, "solver.time_step", "0.01");
  rdModel* m = NULL;
  CHECK(rd_compile(s, &m) == RD_OK);
  rd_destroySpec(&s);
  rdData* d = NULL;
  CHECK(rd_createData(m, &d) == RD_OK && rd_initialize(m, d) == RD_OK);
  rdNetcdf* nc = NULL;
  CHECK(rd_createNetcdf(m, path, &nc) == RD_OK);
  CHECK(rd_writeNetcdf(nc, m, d) == RD_OK);
  CHECK(rd_step(m, d, 0) == RD_OK);
  CHECK(rd_writeNetcdf(nc, m, d) == RD_OK);
  CHECK(rd_closeNetcdf(&nc, 1) == RD_OK);
  int id, var;
  double f[3], mom[3];
  size_t start[3] = {1, 0, 0}, count[3] = {1, 1, 3};
  CHECK(nc_open(path, NC_NOWRITE, &id) == NC_NOERR);
  CHECK(nc_inq_varid(id, "reaction_force", &var) == NC_NOERR);
  CHECK(nc_get_vara_double(id, var, start, count, f) == NC_NOERR);
  CHECK(nc_inq_varid(id, "reaction_moment", &var) == NC_NOERR);
  CHECK(nc_get_vara_double(id, var, start, count, mom) == NC_NOERR);
  CHECK_NEAR(f[0], 0, 1e-9);
  CHECK_NEAR(f[2], 3 * 9.81, 1e-9);
  CHECK_NEAR(mom[0], 0, 1e-9);
  char* name = NULL;
  size_t at = 0;
  CHECK(nc_inq_varid(id, "joint", &var) == NC_NOERR);
  CHECK(nc_get_var1_string(id, var, &at, &name) == NC_NOERR && name && !strcmp(name, "hinge"));
  nc_free_string(1, &name);
  nc_close(id);
  remove(path);
  rd_destroyData(&d);
  rd_destroyModel(&m);
}


// 11 records written read back through the netCDF library; an aborted file removed; misuse
static void test_write_read(rdContext* ctx, const char* path) {
  rdModel* m = build(ctx);
  rdData* d = NULL;
  CHECK(rd_createData(m, &d) == RD_OK);
  CHECK(rd_initialize(m, d) == RD_OK);
  char partial[300];
  snprintf(partial, sizeof(partial), "%s.partial", path);

  // write 11 records, keep what was written for comparison
  rdNetcdf* nc = NULL;
  CHECK(rd_createNetcdf(m, path, &nc) == RD_OK);
  CHECK(access(partial, F_OK) == 0 && access(path, F_OK) != 0);
  double q_last[4], w_last[3], ke_last = 0;
  for (int i = 0; i <= 10; i++) {
    if (i) {
      CHECK(rd_step(m, d, 0) == RD_OK);
    }
    CHECK(rd_writeNetcdf(nc, m, d) == RD_OK);
  }
  rd_getNodeState(m, d, 0, NULL, q_last, NULL, w_last, NULL);
  rd_getEnergy(m, d, &ke_last, NULL);
  CHECK(rd_closeNetcdf(&nc, 1) == RD_OK && nc == NULL);
  CHECK(access(path, F_OK) == 0 && access(partial, F_OK) != 0);

  // read back
  int id, dim, var;
  size_t len = 0;
  CHECK(nc_open(path, NC_NOWRITE, &id) == NC_NOERR);
  CHECK(nc_inq_dimid(id, "time", &dim) == NC_NOERR && nc_inq_dimlen(id, dim, &len) == NC_NOERR);
  CHECK(len == 11);
  double t[11];
  CHECK(nc_inq_varid(id, "time", &var) == NC_NOERR && nc_get_var_double(id, var, t) == NC_NOERR);
  CHECK(t[0] == 0 && t[10] == rd_time(d));
  size_t start[3] = {10, 0, 0}, count[3] = {1, 1, 4};
  double q[4], w[3], ke;
  CHECK(nc_inq_varid(id, "orientation", &var) == NC_NOERR);
  CHECK(nc_get_vara_double(id, var, start, count, q) == NC_NOERR);
  CHECK(!memcmp(q, q_last, sizeof(q)));
  count[2] = 3;
  CHECK(nc_inq_varid(id, "angular_velocity", &var) == NC_NOERR);
  CHECK(nc_get_vara_double(id, var, start, count, w) == NC_NOERR);
  CHECK(!memcmp(w, w_last, sizeof(w)));
  size_t i10 = 10;
  CHECK(nc_inq_varid(id, "kinetic_energy", &var) == NC_NOERR);
  CHECK(nc_get_var1_double(id, var, &i10, &ke) == NC_NOERR && ke == ke_last);
  // the node names label the node dimension; CF-1.8, momenta, compression
  char* name = NULL;
  size_t at = 0;
  CHECK(nc_inq_varid(id, "node", &var) == NC_NOERR);
  CHECK(nc_get_var1_string(id, var, &at, &name) == NC_NOERR && name && !strcmp(name, "spinner"));
  nc_free_string(1, &name);
  char conv[16] = "";
  CHECK(nc_get_att_text(id, NC_GLOBAL, "Conventions", conv) == NC_NOERR && !strcmp(conv, "CF-1.8"));
  double p[3], L[3], p_last[3], L_last[3];
  size_t c3[2] = {1, 3}, s10[2] = {10, 0};
  rd_getMomentum(m, d, p_last, L_last);
  CHECK(nc_inq_varid(id, "momentum", &var) == NC_NOERR);
  CHECK(nc_get_vara_double(id, var, s10, c3, p) == NC_NOERR && !memcmp(p, p_last, sizeof(p)));
  CHECK(nc_inq_varid(id, "angular_momentum", &var) == NC_NOERR);
  CHECK(nc_get_vara_double(id, var, s10, c3, L) == NC_NOERR && !memcmp(L, L_last, sizeof(L)));
  int shuffle = 0, deflate = 0, level = 0;
  CHECK(nc_inq_varid(id, "position", &var) == NC_NOERR);
  CHECK(nc_inq_var_deflate(id, var, &shuffle, &deflate, &level) == NC_NOERR);
  CHECK(shuffle == 1 && deflate == 1 && level == 4);  // output.netcdf_deflate's default
  nc_close(id);

  // an aborted file leaves nothing behind; errors are reported, not crashes
  remove(path);
  CHECK(rd_createNetcdf(m, path, &nc) == RD_OK);
  CHECK(rd_writeNetcdf(nc, m, d) == RD_OK);
  CHECK(rd_closeNetcdf(&nc, 0) == RD_OK);
  CHECK(access(path, F_OK) != 0 && access(partial, F_OK) != 0);
  CHECK(rd_createNetcdf(m, "/nonexistent/dir/x.nc", &nc) == RD_ERR_IO && nc == NULL);
  CHECK(strstr(rd_lastError(ctx), "NetCDF") != NULL);
  CHECK(rd_createNetcdf(m, NULL, &nc) == RD_ERR_ARG);
  CHECK(rd_writeNetcdf(NULL, m, d) == RD_ERR_HANDLE);
  CHECK(rd_closeNetcdf(NULL, 1) == RD_OK);
  rd_destroyData(&d);
  rd_destroyModel(&m);
}


int main(int argc, char** argv) {
  TEST_INIT(argc, argv);
  rdContext* ctx;
  rd_createContext(&ctx, NULL);
  char dir[] = "/tmp/rd_nc_XXXXXX";
  CHECK(mkdtemp(dir) != NULL);
  char path[256];
  snprintf(path, sizeof(path), "%s/run.nc", dir);
  TEST_CASE(test_write_read(ctx, path));
  TEST_CASE(test_reactions(ctx, path));
  rmdir(dir);
  rd_destroyContext(&ctx);
  return TEST_SUMMARY();
}
