// SPDX-License-Identifier: MIT
// Beam energies and momenta (rd_getEnergy, rd_getMomentum): a rigidly rotating beam against
// the equivalent rigid body, a statically loaded cantilever's strain energy against the work
// 1/2 P.u, and energy conservation of a free vibration with generalized-alpha, rho_inf = 1.
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "elements/beam.h"
#include "rodrigues/liegroup.h"
#include "rodrigues/rodrigues.h"
#include "src/model/spec_impl.h"
#include "tests/support/models.h"
#include "tests/test_macros.h"

#define PI 3.14159265358979323846

static void cross(double c[3], const double a[3], const double b[3]) {
  c[0] = a[1] * b[2] - a[2] * b[1];
  c[1] = a[2] * b[0] - a[0] * b[2];
  c[2] = a[0] * b[1] - a[1] * b[0];
}


// n nodes at the GLL points of [0, L] along x, rotated by the quaternion Q about the origin,
// moving rigidly with angular velocity w (global) about the origin when w != NULL, or with the
// transverse velocity field vz(x) = V sin(pi x / L) along z; one n-node beam over them
static void beam_spec(rdSpec* s, int n, double L, const double K[36], const double M[36],
                      const double Q[4], const double* w, double V, int* nodes) {
  double xi[RD_BEAM_MAX_NODES];
  rd_gaussLobatto(n, xi);
  for (int k = 0; k < n; k++) {
    char name[32];
    snprintf(name, sizeof(name), "n%d", k);
    rdNodeDef nd = rd_defaultNodeDef();
    nd.name = name;
    double x0[3] = {0.5 * L * (xi[k] + 1), 0, 0};
    rdu_quatRotate(nd.position, Q, x0);
    memcpy(nd.orientation, Q, 4 * sizeof(double));
    if (w) {
      cross(nd.velocity, w, nd.position);
      memcpy(nd.angular_velocity, w, 3 * sizeof(double));
    } else {
      nd.velocity[2] = V * sin(PI * x0[0] / L);
      nd.angular_velocity[1] = -V * PI / L * cos(PI * x0[0] / L);
    }
    nodes[k] = rds_addNode(s, &nd);
  }
  double st = 0;
  rdBeamDef b = rd_defaultBeamDef();
  b.name = "beam";
  b.nnode = n;
  b.nodes = nodes;
  b.nstation = 1;
  b.station = &st;
  b.stiffness = K;
  b.mass = M;
  CHECK(rds_addBeam(s, &b) == 0);
}


// ---------------------------------------------------------------------------------------------
// a free beam rotating rigidly about the origin (one of its ends): kinetic energy
// 1/2 w^T J_O w, momentum m_tot w x c_tot and angular momentum J_O w of the equivalent rigid
// body, from the section mass [m I, -m skew(c); m skew(c), J] (J about the reference line)

static void test_rigid_rotation(void) {
  rdContext* ctx = NULL;
  rd_createContext(&ctx, NULL);
  rdSpec* s = NULL;
  rd_createSpec(ctx, &s);
  double L = 3, m = 2.5, c[3] = {0.1, 0.05, -0.08};
  double Jc[9] = {0.4, 0.01, -0.02, 0.01, 0.3, 0.03, -0.02, 0.03, 0.2}, J[9];
  double cc = c[0] * c[0] + c[1] * c[1] + c[2] * c[2];
  for (int i = 0; i < 3; i++) {
    for (int j = 0; j < 3; j++) {
      J[3 * i + j] = Jc[3 * i + j] + m * ((i == j ? cc : 0) - c[i] * c[j]);
    }
  }
  double M[36] = {0}, K[36];
  double S[9] = {0, -c[2], c[1], c[2], 0, -c[0], -c[1], c[0], 0};
  for (int i = 0; i < 3; i++) {
    M[7 * i] = m;
    for (int j = 0; j < 3; j++) {
      M[6 * i + 3 + j] = -m * S[3 * i + j];
      M[6 * (3 + i) + j] = m * S[3 * i + j];
      M[6 * (3 + i) + 3 + j] = J[3 * i + j];
    }
  }
  model_diag6(K, model_b1Stiffness);
  double Q[4] = {cos(0.6), sin(0.6) * 0.48, sin(0.6) * 0.6, sin(0.6) * 0.64};
  double w[3] = {0.7, -1.3, 2.1};
  int nodes[RD_BEAM_MAX_NODES];
  beam_spec(s, 4, L, K, M, Q, w, 0, nodes);
  rdModel* mdl = NULL;
  rdData* d = NULL;
  CHECK_MSG(rd_compile(s, &mdl) == RD_OK, "%s", rd_lastError(ctx));
  CHECK_MSG(mdl && rd_createData(mdl, &d) == RD_OK, "%s", rd_lastError(ctx));
  if (d) {
    CHECK_MSG(rd_initialize(mdl, d) == RD_OK, "%s", rd_lastError(ctx));
    // J_O in the reference frame: L J + m L^3/3 (I - e1 e1^T) + m L^2/2 (2 c_x I - e1 c^T - c e1^T)
    double JO[9];
    for (int i = 0; i < 3; i++) {
      for (int j = 0; j < 3; j++) {
        double e1e1 = (i == 0 && j == 0) ? 1 : 0;
        double ec = (i == 0 ? c[j] : 0) + (j == 0 ? c[i] : 0);
        JO[3 * i + j] = L * J[3 * i + j] + m * L * L * L / 3 * ((i == j) - e1e1) +
                        m * L * L / 2 * (2 * c[0] * (i == j) - ec);
      }
    }
    double wb[3], Jw[3] = {0}, Lex[3], ctot[3], pex[3], cb[3] = {L / 2 + c[0], c[1], c[2]};
    rdu_quatRotateInv(wb, Q, w);
    for (int i = 0; i < 3; i++) {
      for (int j = 0; j < 3; j++) {
        Jw[i] += JO[3 * i + j] * wb[j];
      }
    }
    double ke_ex = 0.5 * (wb[0] * Jw[0] + wb[1] * Jw[1] + wb[2] * Jw[2]);
    rdu_quatRotate(Lex, Q, Jw);
    rdu_quatRotate(ctot, Q, cb);
    cross(pex, w, ctot);
    for (int i = 0; i < 3; i++) {
      pex[i] *= m * L;
    }
    double ke = 0, pe = 0, p[3], Lm[3];
    CHECK(rd_getEnergy(mdl, d, &ke, &pe) == RD_OK);
    CHECK(rd_getMomentum(mdl, d, p, Lm) == RD_OK);
    double ep = 0, eL = 0;
    for (int i = 0; i < 3; i++) {
      ep = fmax(ep, fabs(p[i] - pex[i]));
      eL = fmax(eL, fabs(Lm[i] - Lex[i]));
    }
    printf(
        "  rigid rotation: kinetic %.15g, exact %.15g, relative %.2e; strain %.2e; "
        "momentum error %.2e, angular %.2e\n",
        ke, ke_ex, fabs(ke - ke_ex) / ke_ex, pe, ep, eL);
    CHECK_NEAR(ke / ke_ex, 1, 1e-12);
    CHECK(fabs(pe) < 1e-18 * model_b1Stiffness[0] * L || fabs(pe) < 1e-12);
    CHECK(ep < 1e-12 * m * L * L);
    CHECK(eL < 1e-12 * m * L * L * L);
  }
  rd_destroyData(&d);
  rd_destroyModel(&mdl);
  rd_destroySpec(&s);
  rd_destroyContext(&ctx);
}


// ---------------------------------------------------------------------------------------------
// static cantilever under a small transverse tip force: strain energy = 1/2 P.u_tip (linear
// regime; an axial force would change the bending stiffness at first order in P L^2 / EI)

static void test_static_work(void) {
  rdContext* ctx = NULL;
  rd_createContext(&ctx, NULL);
  rdSpec* s = NULL;
  rd_createSpec(ctx, &s);
  rds_setOption(s, "solver.method", "static");
  rds_setOptionReal(s, "solver.time_step", 1);
  rds_setOptionReal(s, "solver.final_time", 1);
  rds_setOptionReal(s, "solver.atol", 1e-15);
  rds_setOptionReal(s, "solver.rtol", 1e-15);
  double K[36], M[36];
  const double ones[6] = {1, 1, 1, 1, 1, 1};
  model_diag6(K, model_b1Stiffness);
  model_diag6(M, ones);
  double Q[4] = {1, 0, 0, 0};
  int nodes[RD_BEAM_MAX_NODES], n = 6;
  beam_spec(s, n, 10, K, M, Q, NULL, 0, nodes);  // V = 0: at rest
  CHECK(model_addClamp(s, nodes[0]) == 0);
  rdLoadDef l = rd_defaultLoadDef();
  l.name = "tip";
  l.node = nodes[n - 1];
  l.kind = RD_LOAD_FORCE;
  double P[3] = {0, 0.004, 0.01};
  memcpy(l.value, P, sizeof(P));
  CHECK(rds_addLoad(s, &l) >= 0);
  rdModel* m = NULL;
  rdData* d = NULL;
  CHECK_MSG(rd_compile(s, &m) == RD_OK, "%s", rd_lastError(ctx));
  CHECK_MSG(m && rd_createData(m, &d) == RD_OK, "%s", rd_lastError(ctx));
  if (d) {
    CHECK_MSG(rd_initialize(m, d) == RD_OK, "%s", rd_lastError(ctx));
    CHECK_MSG(rd_step(m, d, 1) == RD_OK, "%s", rd_lastError(ctx));
    double x[3], ke = 0, pe = 0;
    rd_getNodeState(m, d, nodes[n - 1], x, NULL, NULL, NULL, NULL);
    x[0] -= 10;
    double work = 0.5 * (P[0] * x[0] + P[1] * x[1] + P[2] * x[2]);
    CHECK(rd_getEnergy(m, d, &ke, &pe) == RD_OK);
    double rel = fabs(pe - work) / work;
    printf(
        "  static cantilever: tip u (%.3e, %.3e, %.3e), strain energy %.15g, 1/2 P.u "
        "%.15g, relative %.2e\n",
        x[0], x[1], x[2], pe, work, rel);
    CHECK_MSG(rel < 1e-8, "relative %.3g", rel);
  }
  rd_destroyData(&d);
  rd_destroyModel(&m);
  rd_destroySpec(&s);
  rd_destroyContext(&ctx);
}


// ---------------------------------------------------------------------------------------------
// free-free beam in free vibration (initial transverse velocity), generalized-alpha with
// rho_inf = 1: the total energy drifts by O(h^2); linear and angular momentum are conserved

static double vibration_drift(double h, double tend, double* e0, double* dp) {
  rdContext* ctx = NULL;
  rd_createContext(&ctx, NULL);
  rdSpec* s = NULL;
  rd_createSpec(ctx, &s);
  rds_setOption(s, "solver.method", "generalized_alpha");
  rds_setOptionReal(s, "solver.time_step", h);
  rds_setOptionReal(s, "solver.final_time", tend);
  rds_setOptionReal(s, "solver.rho_inf", 1);
  rds_setOptionReal(s, "solver.atol", 1e-12);
  rds_setOptionReal(s, "solver.rtol", 1e-12);
  double K[36], M[36];
  const double mass[6] = {1, 1, 1, 0.2, 0.1, 0.1};
  model_diag6(K, model_b1Stiffness);
  model_diag6(M, mass);
  double Q[4] = {1, 0, 0, 0};
  int nodes[RD_BEAM_MAX_NODES];
  beam_spec(s, 5, 10, K, M, Q, NULL, 20, nodes);
  rdModel* m = NULL;
  rdData* d = NULL;
  double drift = -1;
  CHECK_MSG(rd_compile(s, &m) == RD_OK, "%s", rd_lastError(ctx));
  CHECK_MSG(m && rd_createData(m, &d) == RD_OK, "%s", rd_lastError(ctx));
  if (d) {
    CHECK_MSG(rd_initialize(m, d) == RD_OK, "%s", rd_lastError(ctx));
    double ke, pe, p0[3], L0[3];
    rd_getEnergy(m, d, &ke, &pe);
    rd_getMomentum(m, d, p0, L0);
    *e0 = ke + pe;
    drift = 0;
    *dp = 0;
    int nstep = (int)lround(tend / h);
    for (int k = 0; k < nstep; k++) {
      int st = rd_step(m, d, h);
      CHECK_MSG(st == RD_OK, "%s", rd_lastError(ctx));
      if (st != RD_OK) {
        break;
      }
      double p[3], Lm[3];
      rd_getEnergy(m, d, &ke, &pe);
      rd_getMomentum(m, d, p, Lm);
      drift = fmax(drift, fabs(ke + pe - *e0));
      for (int i = 0; i < 3; i++) {
        *dp = fmax(*dp, fmax(fabs(p[i] - p0[i]), fabs(Lm[i] - L0[i])));
      }
    }
  }
  rd_destroyData(&d);
  rd_destroyModel(&m);
  rd_destroySpec(&s);
  rd_destroyContext(&ctx);
  return drift;
}


static void test_free_vibration(void) {
  double e0 = 0, dp1 = 0, dp2 = 0, dp3 = 0;
  double d1 = vibration_drift(2e-3, 0.2, &e0, &dp1);
  double d2 = vibration_drift(1e-3, 0.2, &e0, &dp2);
  double d3 = vibration_drift(5e-4, 0.2, &e0, &dp3);
  printf(
      "  free vibration: E0 = %.10g; largest |E - E0| / E0 over t <= 0.2: h = 2e-3 %.3e, "
      "1e-3 %.3e, 5e-4 %.3e (ratios %.2f, %.2f); momentum drift %.1e %.1e %.1e\n",
      e0, d1 / e0, d2 / e0, d3 / e0, d1 / d2, d2 / d3, dp1, dp2, dp3);
  CHECK(d1 >= 0 && d2 >= 0 && d3 >= 0);
  CHECK_MSG(d2 / e0 < 1e-2, "drift %.3g", d2 / e0);
  // O(h^2): halving h divides the drift by about 4
  CHECK_MSG(d2 / d3 > 3 && d2 / d3 < 5.5, "ratio %.3g", d2 / d3);
  CHECK_MSG(dp3 < 1e-6 * e0, "momentum drift %.3g", dp3);
}


int main(int argc, char** argv) {
  TEST_INIT(argc, argv);
  TEST_CASE(test_rigid_rotation());
  TEST_CASE(test_static_work());
  TEST_CASE(test_free_vibration());
  return TEST_SUMMARY();
}
