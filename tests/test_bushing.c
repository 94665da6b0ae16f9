// SPDX-License-Identifier: MIT
// Six-DOF bushing: residual and tangent against finite differences, an exact large rotation
// under a moment ramp (static), its potential energy, and its energy in dynamics.
#include <math.h>
#include <string.h>

#include "tests/support/ga_fd.h"
#include "tests/support/models.h"
#include "tests/test_macros.h"

static int node(rdSpec* s, const char* name, double x, double rx) {
  rdNodeDef n = rd_defaultNodeDef();
  n.name = name;
  n.position[0] = x;
  n.position[2] = 0.3 * x;
  // a non-trivial initial orientation: the reference must make d = 0 there
  double c = cos(rx / 2), sn = sin(rx / 2);
  n.orientation[0] = c;
  n.orientation[1] = sn * 0.6;
  n.orientation[3] = sn * 0.8;
  return model_addRigidBody(s, &n, name, 2, (double[3]){0.4, 0.7, 0.9}, (double[3]){0, 0.1, 0});
}


// a full symmetric positive definite 6x6 stiffness and damping
static void bushing(rdSpec* s, int n0, int n1, double k, double c, const double* K) {
  rdBushingDef b = rd_defaultBushingDef();
  b.name = n1 >= 0 ? "bush" : "bush_ground";
  b.node[0] = n0;
  b.node[1] = n1;
  for (int i = 0; i < 6; i++) {
    for (int j = 0; j < 6; j++) {
      double off = K ? 0 : 0.1 * k / (1 + i + j);
      b.stiffness[6 * i + j] = (i == j ? k * (1 + 0.2 * i) : off);
      b.damping[6 * i + j] = (i == j ? c * (1 + 0.1 * i) : 0.1 * c / (1 + i + j));
    }
  }
  if (K) {
    memcpy(b.stiffness, K, sizeof(b.stiffness));
  }
  rds_addBushing(s, &b);
}


static void fd(int ground) {
  rdContext* ctx = NULL;
  rd_createContext(&ctx, NULL);
  rdSpec* s = NULL;
  rd_createSpec(ctx, &s);
  rds_setOption(s, "solver.method", "generalized_alpha");
  int a = node(s, "a", 0, 0.4);
  int b = ground ? RD_GROUND : node(s, "b", 1, -0.7);
  bushing(s, a, b, 50, 3, NULL);
  rdModel* m = NULL;
  rdData* d = NULL;
  CHECK(rd_compile(s, &m) == RD_OK);
  rd_destroySpec(&s);
  CHECK(m && rd_createData(m, &d) == RD_OK);
  for (unsigned seed = 1; d && seed <= 6; seed++) {
    gafd_spatial = seed > 3;  // the body, then the spatial form
    double e1 = gafd_check(m, d, 0.37, 2.0, 3.0, seed, 1);
    double e2 = gafd_check(m, d, 0.37, 5.0, 0.7, seed + 10, 1);
    printf("bushing%s (%s form): FD mismatch %.2e / %.2e\n", ground ? " to ground" : "",
           gafd_spatial ? "spatial" : "body", e1, e2);
    CHECK(e1 < 1e-7 && e2 < 1e-7);
  }
  gafd_spatial = 0;
  // d = 0 in the initial configuration: no force, no energy
  double ke, pe;
  CHECK(rd_getEnergy(m, d, &ke, &pe) == RD_OK);
  CHECK_NEAR(pe, 0, 1e-15);
  rd_destroyData(&d);
  rd_destroyModel(&m);
  rd_destroyContext(&ctx);
}


// a body on a bushing to the ground, isotropic rotational stiffness k, under the dead moment
// M t n (t up to 1): it turns by M t / k about n -- 2.5 rad at the end -- and stores k theta^2/2
static void torsion(void) {
  rdContext* ctx = NULL;
  rd_createContext(&ctx, NULL);
  rdSpec* s = NULL;
  rd_createSpec(ctx, &s);
  rds_setOption(s, "solver.method", "static");
  rds_setOptionReal(s, "solver.time_step", 0.125);
  rds_setOptionReal(s, "solver.atol", 1e-12);
  rds_setOptionReal(s, "solver.rtol", 1e-10);
  int fn = model_addRamp(s);
  int a = node(s, "a", 0, 0.4);
  double k = 40, K[36] = {0};
  for (int i = 0; i < 3; i++) {
    K[7 * i] = 1000;
    K[7 * (3 + i)] = k;
  }
  bushing(s, a, RD_GROUND, 0, 0, K);
  const double n[3] = {1.0 / 3, 2.0 / 3, 2.0 / 3};
  rdLoadDef l = rd_defaultLoadDef();
  l.name = "M";
  l.node = a;
  l.kind = RD_LOAD_MOMENT;
  for (int i = 0; i < 3; i++) {
    l.value[i] = 2.5 * k * n[i];
  }
  l.timefn = fn;
  rds_addLoad(s, &l);
  rdModel* m;
  rdData* d;
  CHECK(model_make(s, &m, &d) == 0);
  double worst = 0, q0[4];
  rd_getNodeState(m, d, 0, NULL, q0, NULL, NULL, NULL);
  for (int i = 1; i <= 8 && d; i++) {
    CHECK(rd_step(m, d, 0) == RD_OK);
    double q[4], c[4], r[4], psi[3], R[9];
    rd_getNodeState(m, d, 0, NULL, q, NULL, NULL, NULL);
    rdu_quatConj(c, q0);
    rdu_quatMul(r, q, c);  // R R0^T: the rotation in the global frame
    rdu_quatToMat(R, r);
    rdu_logSO3(psi, R);
    for (int j = 0; j < 3; j++) {
      worst = fmax(worst, fabs(psi[j] - 2.5 * rd_time(d) * n[j]));
    }
  }
  double ke, pe;
  rd_getEnergy(m, d, &ke, &pe);
  printf("bushing torsion to 2.5 rad: largest rotation error %.3e, energy %.12g (exact %.12g)\n",
         worst, pe, 0.5 * k * 2.5 * 2.5);
  CHECK(worst < 1e-10);
  CHECK_NEAR(pe, 0.5 * k * 2.5 * 2.5, 1e-9);
  rd_destroyData(&d);
  rd_destroyModel(&m);
  rd_destroyContext(&ctx);
}


// two free bodies on a bushing, spinning and vibrating, no joints: energy stays at its start
// with rho_inf = 1 and no damping; with damping it only falls
static void dynamics(double c, double* drift, int* monotone) {
  rdContext* ctx = NULL;
  rd_createContext(&ctx, NULL);
  rdSpec* s = NULL;
  rd_createSpec(ctx, &s);
  rds_setOption(s, "solver.method", "generalized_alpha");
  rds_setOptionReal(s, "solver.rho_inf", 1);
  rds_setOptionReal(s, "solver.time_step", 1e-3);
  rds_setOptionReal(s, "solver.atol", 1e-12);
  rds_setOptionReal(s, "solver.rtol", 1e-10);
  int a = node(s, "a", 0, 0.4);
  rdNodeDef nb = rd_defaultNodeDef();
  nb.name = "b";
  nb.position[0] = 1;
  nb.position[2] = 0.3;
  nb.velocity[1] = 0.5;
  nb.angular_velocity[0] = 2;
  nb.angular_velocity[2] = -1;
  int b = model_addRigidBody(s, &nb, "b", 1, (double[3]){0.2, 0.2, 0.2}, NULL);
  bushing(s, a, b, 30, c, NULL);
  rdModel* m;
  rdData* d;
  CHECK(model_make(s, &m, &d) == 0);
  double ke, pe;
  rd_getEnergy(m, d, &ke, &pe);
  double e0 = ke + pe, prev = e0;
  *drift = 0;
  *monotone = 1;
  for (int i = 1; i <= 2000 && d; i++) {
    if (rd_step(m, d, 0) != RD_OK) {
      CHECK(0);
      break;
    }
    rd_getEnergy(m, d, &ke, &pe);
    *drift = fmax(*drift, fabs(ke + pe - e0) / e0);
    if (i % 100 == 0) {
      *monotone &= ke + pe <= prev * (1 + 1e-12);
      prev = ke + pe;
    }
  }
  rd_destroyData(&d);
  rd_destroyModel(&m);
  rd_destroyContext(&ctx);
}


// energy kept without damping (rho_inf = 1), falling with it
static void test_energy(void) {
  double drift;
  int mono;
  dynamics(0, &drift, &mono);
  printf("bushing dynamics, no damping, rho 1: largest relative energy change %.3e\n", drift);
  CHECK(drift < 1e-3);
  dynamics(2, &drift, &mono);
  printf("bushing dynamics, damped: energy falls monotonically %d, by %.3e\n", mono, drift);
  CHECK(mono);
  CHECK(drift > 1e-3);
}


int main(int argc, char** argv) {
  TEST_INIT(argc, argv);
  TEST_CASE(fd(0));
  TEST_CASE(fd(1));
  TEST_CASE(torsion());
  TEST_CASE(test_energy());
  return TEST_SUMMARY();
}
