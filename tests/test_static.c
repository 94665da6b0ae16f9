// SPDX-License-Identifier: MIT
// Static analysis against exact equilibria: spring-mass, a pendulum held by a joint torque, a
// large rotation on a torsional bushing, load-increment cutting; the culprit of a singular
// stiffness matrix (a free beam); body loads growing with the load factor: a cantilever under its
// own weight against the closed form (small deflection) and the plane Reissner elastica computed
// here (large deflection).
#include <math.h>
#include <string.h>

#include "src/model/data_impl.h"
#include "tests/support/models.h"
#include "tests/test_macros.h"

static rdSpec* spec(rdContext* ctx, double h, int load_steps) {
  rdSpec* s = NULL;
  rd_createSpec(ctx, &s);
  rds_setOption(s, "solver.method", "static");
  rds_setOptionReal(s, "solver.time_step", h);
  rds_setOptionReal(s, "solver.load_steps", load_steps);
  rds_setOptionReal(s, "solver.atol", 1e-12);
  rds_setOptionReal(s, "solver.rtol", 1e-10);
  return s;
}


// a point node on a zero-length spring (tension k1 e + k3 e^3) under a ramped force F t:
// linear (k3 = 0) x = F t / k1 in one Newton iteration; cubic: k1 e + k3 e^3 = |F| t
static void spring_mass(double k3) {
  rdContext* ctx = NULL;
  rd_createContext(&ctx, NULL);
  rdSpec* s = spec(ctx, 0.25, 1);
  int f = model_addRamp(s);
  model_addSpringMass(s, 0, 3, 10, k3);  // the velocity 3 is ignored: a static state is at rest
  const double F[3] = {5, 2, -1};
  rdLoadDef l = rd_defaultLoadDef();
  l.name = "F";
  l.node = 0;
  memcpy(l.value, F, sizeof(F));
  l.timefn = f;
  rds_addLoad(s, &l);
  rdModel* m;
  rdData* d;
  CHECK(model_make(s, &m, &d) == 0);
  double Fn = sqrt(F[0] * F[0] + F[1] * F[1] + F[2] * F[2]), worst = 0;
  for (int k = 1; k <= 4 && d; k++) {
    CHECK(rd_step(m, d, 0) == RD_OK);
    double x[3], v[3];
    rd_getNodeState(m, d, 0, x, NULL, v, NULL, NULL);
    // exact stretch e: k1 e + k3 e^3 = |F| t (Newton on the scalar cubic)
    double t = 0.25 * k, e = Fn * t / 10;
    for (int it = 0; it < 60; it++) {
      e -= (10 * e + k3 * e * e * e - Fn * t) / (10 + 3 * k3 * e * e);
    }
    for (int i = 0; i < 3; i++) {
      worst = fmax(worst, fabs(x[i] - e * F[i] / Fn));
      CHECK(v[i] == 0);
    }
    if (k3 == 0) {
      CHECK(d->stats.last_newton_iterations <= 2);
    }
  }
  printf("spring-mass k3 = %g: largest error %.3e\n", k3, worst);
  CHECK(worst < 1e-12);
  rd_destroyData(&d);
  rd_destroyModel(&m);
  rd_destroyContext(&ctx);
}


// a body hanging from a revolute joint (axis y at the origin, COM at (0, 0, -L) in the body)
// turned by the joint torque tau t^2 against gravity, which grows with the load factor t (the
// final time 1): m g t L sin(theta) = -tau t^2
static rdSpec* pendulum(rdContext* ctx, double h, int load_steps, double tau) {
  rdSpec* s = spec(ctx, h, load_steps);
  rdTimeFnDef fd = rd_defaultTimeFnDef();
  fd.name = "t2";
  fd.type = RD_TIMEFN_EXPRESSION;
  fd.expression = "t*t";
  int f = rds_addTimeFn(s, &fd);
  rdNodeDef n = rd_defaultNodeDef();
  n.name = "arm";
  int node =
      model_addRigidBody(s, &n, "arm", 2, (double[3]){0.1, 0.1, 0.1}, (double[3]){0, 0, -0.5});
  rdJointDef j = rd_defaultJointDef();
  j.name = "hinge";
  j.type = RD_JOINT_REVOLUTE;
  j.node[0] = node;
  j.axis[1] = 1;
  j.torque = tau;
  j.torque_fn = f;
  rds_addJoint(s, &j);
  double g[3] = {0, 0, -9.81};
  rds_setGravity(s, g);
  return s;
}


static double angle_y(const rdModel* m, const rdData* d) {
  double q[4];
  rd_getNodeState(m, d, 0, NULL, q, NULL, NULL, NULL);
  return 2 * atan2(q[2], q[0]);
}


static void hanging(void) {
  rdContext* ctx = NULL;
  rd_createContext(&ctx, NULL);
  double mgL = 2 * 9.81 * 0.5, tau = -0.95 * mgL;
  rdModel* m;
  rdData* d;
  CHECK(model_make(pendulum(ctx, 0.1, 1, tau), &m, &d) == 0);
  double worst = 0;
  for (int k = 1; k <= 10 && d; k++) {
    CHECK(rd_step(m, d, 0) == RD_OK);
    double t = rd_time(d);
    worst = fmax(worst, fabs(angle_y(m, d) - asin(0.95 * t)));
  }
  // the joint carries the weight
  double f[3], mo[3];
  CHECK(rd_getJointReaction(m, d, 0, f, mo) == RD_OK);
  rdStats st;
  rd_getStats(d, &st);
  printf(
      "pendulum: theta(1) = %.15f (exact %.15f), largest error %.3e, reaction z %.12g, "
      "%.2f Newton iterations per step\n",
      angle_y(m, d), asin(0.95), worst, f[2], (double)st.newton_iterations / (double)st.steps);
  CHECK(worst < 1e-10);
  CHECK_NEAR(fabs(f[2]), 2 * 9.81, 1e-8);
  rd_destroyData(&d);
  rd_destroyModel(&m);
  rd_destroyContext(&ctx);
}


// one big load step that Newton cannot take in 5 iterations: rd_step cuts it and still ends at
// t = 1 on the exact equilibrium; with no cuts allowed the failure names the cause
static void cutting(void) {
  rdContext* ctx = NULL;
  rd_createContext(&ctx, NULL);
  double mgL = 2 * 9.81 * 0.5;
  rdSpec* s = pendulum(ctx, 1, 1, -0.95 * mgL);
  rds_setOptionReal(s, "solver.max_iter", 5);
  rdModel* m;
  rdData* d;
  CHECK(model_make(s, &m, &d) == 0);
  int st = rd_step(m, d, 0);
  rdStats stats;
  rd_getStats(d, &stats);
  printf("cutting: status %d, %ld increments, %ld rejected, smallest %g, theta %.15f\n", st,
         stats.steps, stats.rejected_steps, stats.min_step, angle_y(m, d));
  CHECK(st == RD_OK);
  CHECK(stats.rejected_steps > 0);
  CHECK(stats.min_step < 1);
  CHECK_NEAR(rd_time(d), 1, 1e-15);
  CHECK_NEAR(angle_y(m, d), asin(0.95), 1e-10);
  rd_destroyData(&d);
  rd_destroyModel(&m);
  s = pendulum(ctx, 1, 1, -0.95 * mgL);
  rds_setOptionReal(s, "solver.max_iter", 5);
  rds_setOptionReal(s, "solver.max_step_cuts", 0);
  CHECK(model_make(s, &m, &d) == 0);
  st = rd_step(m, d, 0);
  printf("no cuts: %s\n", rd_lastError(ctx));
  CHECK(st < 0);
  CHECK(strstr(rd_lastError(ctx), "static: Newton") != NULL);
  rd_destroyData(&d);
  rd_destroyModel(&m);
  // load_steps = 8 takes the same load without a cut
  s = pendulum(ctx, 1, 8, -0.95 * mgL);
  rds_setOptionReal(s, "solver.max_iter", 6);
  CHECK(model_make(s, &m, &d) == 0);
  CHECK(rd_step(m, d, 0) == RD_OK);
  rd_getStats(d, &stats);
  CHECK(stats.rejected_steps == 0);
  CHECK_NEAR(angle_y(m, d), asin(0.95), 1e-10);
  rd_destroyData(&d);
  rd_destroyModel(&m);
  rd_destroyContext(&ctx);
}


// a revolute with a prescribed angle f(t) = t (rotation of node 1, the ground, relative to
// node 0): the arm ends at -f(t) about y, statically and dynamically (with rate -f')
static void driven(void) {
  rdContext* ctx = NULL;
  rd_createContext(&ctx, NULL);
  for (int dyn = 0; dyn < 2; dyn++) {
    rdSpec* s = spec(ctx, dyn ? 1e-3 : 0.1, 1);
    rdJointDef j = rd_defaultJointDef();
    j.name = "drive";
    j.type = RD_JOINT_REVOLUTE;
    j.node[0] = 0;
    j.axis[1] = 1;
    j.angle_fn = model_addRamp(s);
    rdNodeDef n = rd_defaultNodeDef();
    n.name = "arm";
    model_addRigidBody(s, &n, "arm", 2, (double[3]){0.1, 0.1, 0.1}, (double[3]){0, 0, -0.5});
    rds_addJoint(s, &j);
    double g[3] = {0, 0, -9.81};
    rds_setGravity(s, g);
    if (dyn) {
      rds_setOption(s, "solver.method", "generalized_alpha");
    }
    rdModel* m;
    rdData* d;
    CHECK(model_make(s, &m, &d) == 0);
    CHECK(m->joint[0].nrow == 6);
    CHECK(rd_advance(m, d, 1.0, NULL, NULL) == RD_OK);
    double W[3];
    rd_getNodeState(m, d, 0, NULL, NULL, NULL, NULL, W);
    printf("prescribed revolute angle (%s): theta(1) = %.15f, W_y = %.15f\n",
           dyn ? "generalized_alpha" : "static", angle_y(m, d), W[1]);
    CHECK_NEAR(angle_y(m, d), -1, 1e-10);
    if (dyn) {
      CHECK_NEAR(W[1], -1, 1e-8);
    }
    rd_destroyData(&d);
    rd_destroyModel(&m);
  }
  rd_destroyContext(&ctx);
}


// a free beam (no support) under a tip force: its stiffness matrix has the six rigid motions
// in its null space. Round-off may leave no exact zero pivot, so that the factorization
// succeeds with rcond far below 1e-14 (the dense LU here), or give one (KLU and UMFPACK with the
// round-off of the FMA kernel): either way the message names an unknown, the smallest pivot's
// or the zero pivot's (it said "the solver did not say where" before issue 15)
static void free_beam(void) {
  static const char* solvers[] = {"klu", "umfpack", "dense"};
  rdContext* ctx = NULL;
  rd_createContext(&ctx, NULL);
  for (int k = 0; k < 3; k++) {
    rdSpec* s = spec(ctx, 1, 1);
    rds_setOption(s, "solver.linear_solver", solvers[k]);
    rds_setOptionReal(s, "solver.max_step_cuts", 0);
    double K[36], M[36];
    model_diag6(K, (double[6]){1e6, 1e5, 1e5, 1e3, 1e4, 1e4});
    model_diag6(M, (double[6]){1, 1, 1, 0.02, 0.01, 0.01});
    int nodes[5];
    CHECK(model_addGllBeams(s, 1, 5, 10, K, M, "blade", nodes) == 0);
    rdLoadDef f = rd_defaultLoadDef();
    f.name = "tip";
    f.node = nodes[4];
    f.value[2] = 10;
    rds_addLoad(s, &f);
    rdModel* m = NULL;
    rdData* d = NULL;
    int st = model_make(s, &m, &d);
    st = st ? st : rd_step(m, d, 0);
    const char* e = rd_lastError(ctx);
    printf("free beam, %s: %s\n", solvers[k], e);
    CHECK_MSG(st == RD_ERR_NUMERIC, "%s: status %d", solvers[k], st);
    int nearly = strstr(e, "nearly singular stiffness matrix (reciprocal condition ") &&
                 strstr(e, "its smallest pivot at node 'n");
    int zero = strstr(e, "singular stiffness matrix at node 'n") != NULL;
    CHECK_MSG((nearly || zero) && (strstr(e, " translation ") || strstr(e, " rotation ")), "%s: %s",
              solvers[k], e);
    CHECK_MSG(k != 2 || nearly, "dense: %s", e);  // no zero pivot in the dense LU
    rd_destroyData(&d);
    rd_destroyModel(&m);
  }
  rd_destroyContext(&ctx);
}


// the plane Reissner elastica of a cantilever along z under a dead load q per length along x:
// EI theta'' = -q (L - s) z', r' = (1 + N/EA) t + (V/GA) n with t = (sin theta, cos theta),
// n = (cos theta, -sin theta) in (x, z), N = F.t, V = F.n, F = q (L - s) e_x; theta(0) = 0 and
// theta'(L) = 0 by shooting on theta'(0) (bisection), RK4 with n steps; the tip in x, z
static void elastica(double q, double EI, double EA, double GA, double L, int n, double* x,
                     double* z) {
  double lo = 0, hi = 2 * q * L * L / EI, y[4] = {0};
  for (int it = 0; it < 200; it++) {
    double k0 = 0.5 * (lo + hi), hs = L / n;
    double st[4] = {0, k0, 0, 0};  // theta, theta', x, z
    for (int i = 0; i < n; i++) {
      double k[4][4], w[4];
      for (int c = 0; c < 4; c++) {
        static const double a[4] = {0, 0.5, 0.5, 1};
        double sc = hs * i + a[c] * hs;
        for (int j = 0; j < 4; j++) {
          w[j] = st[j] + (c ? a[c] * hs * k[c - 1][j] : 0);
        }
        double F = q * (L - sc), sn = sin(w[0]), cs = cos(w[0]);
        double eps = F * sn / EA, gam = F * cs / GA;
        double xp = (1 + eps) * sn + gam * cs, zp = (1 + eps) * cs - gam * sn;
        k[c][0] = w[1];
        k[c][1] = -q * (L - sc) * zp / EI;
        k[c][2] = xp;
        k[c][3] = zp;
      }
      for (int j = 0; j < 4; j++) {
        st[j] += hs / 6 * (k[0][j] + 2 * k[1][j] + 2 * k[2][j] + k[3][j]);
      }
    }
    if (st[1] > 0) {
      hi = k0;
    } else {
      lo = k0;
    }
    memcpy(y, st, sizeof(y));
  }
  *x = y[2];
  *z = y[3];
}


// the tip of input/beam/self_weight.yaml with overrides, at the end of every static step
typedef struct {
  int n;
  double t[8], x[8], z[8];
} tipRows;

static int tip_row(const rdModel* m, const rdData* d, void* user) {
  tipRows* r = user;
  double x[3];
  rd_getNodeState(m, d, rd_findNode(m, "beam_24"), x, NULL, NULL, NULL, NULL);
  if (r->n < 8) {
    r->t[r->n] = rd_time(d);
    r->x[r->n] = x[0];
    r->z[r->n++] = x[2];
  }
  return 0;
}


static int self_weight_run(rdContext* ctx, const char* const* set, int nset, tipRows* rows,
                           rdStats* stats) {
  rdModel* m = NULL;
  rdData* d = NULL;
  memset(rows, 0, sizeof(*rows));
  int st = model_openDeck(ctx, "input/beam/self_weight.yaml", set, nset, &m, &d);
  if (st == RD_OK) {
    st = rd_advance(m, d, 1.0, tip_row, rows);
    rd_getStats(d, stats);
    if (st != RD_OK) {
      printf("self weight: %s\n", rd_lastError(ctx));
    }
  }
  rd_destroyData(&d);
  rd_destroyModel(&m);
  return st;
}


// a cantilever under its own weight (input/beam/self_weight.yaml: one 25-node element, L = 1,
// EI = 1, EA = GA = 1e7,
// q = 10.197 * 9.806 N/m along x): gravity grows with the load factor, so the static steps of a
// run end on the equilibria at the loads t q, and cutting a load step reduces the load. The
// element is p-converged: 7.6e-11 from the elastica at full load (9 nodes: 7.8e-3; 17: 1.6e-6)
static void self_weight(void) {
  rdContext* ctx = NULL;
  rd_createContext(&ctx, NULL);
  const double q = 10.197 * 9.806, EI = 1, EA = 1e7, GA = 1e7, L = 1;
  double x4, z4, x8, z8;
  elastica(q, EI, EA, GA, L, 4000, &x4, &z4);
  elastica(q, EI, EA, GA, L, 8000, &x8, &z8);
  printf("self weight: elastica tip (%.12f, %.12f), RK4 4000 vs 8000 steps %.1e\n", x8, z8,
         fmax(fabs(x4 - x8), fabs(z4 - z8)));
  // four static steps of a quarter of the load each, load_steps 10 (the deck's)
  const char* quarter[] = {"solver.time_step=0.25"};
  tipRows r;
  rdStats s;
  CHECK(self_weight_run(ctx, quarter, 1, &r, &s) == RD_OK);
  CHECK(r.n == 4 && s.rejected_steps == 0);
  double worst = 0;
  for (int k = 0; k < r.n; k++) {
    double xe, ze;
    elastica(q * r.t[k], EI, EA, GA, L, 8000, &xe, &ze);
    double e = fmax(fabs(r.x[k] - xe), fabs(r.z[k] - ze));
    printf("  load factor %.2f: tip (%.12f, %.12f), elastica (%.12f, %.12f), %.2e\n", r.t[k],
           r.x[k], r.z[k], xe, ze, e);
    worst = fmax(worst, e);
  }
  CHECK_MSG(worst < 1e-9, "largest difference from the elastica %.3e", worst);
  // the whole load in one increment: Newton diverges, the cut steps (smaller loads) converge and
  // reach the same equilibrium
  const char* one[] = {"solver.load_steps=1"};
  CHECK(self_weight_run(ctx, one, 1, &r, &s) == RD_OK);
  printf("  load_steps 1: %ld steps, %ld rejected, tip (%.12f, %.12f)\n", s.steps, s.rejected_steps,
         r.x[0], r.z[0]);
  CHECK(s.rejected_steps > 0 && r.n == 1);
  CHECK(fabs(r.x[0] - x8) < 1e-9 && fabs(r.z[0] - z8) < 1e-9);
  // small deflection (q / 1e4): Timoshenko, w = q L^4 / (8 EI) + q L^2 / (2 GA), to the
  // geometric nonlinearity (w / L)^2 ~ 1e-6 relative
  const char* small[] = {"gravity=[9.806e-4, 0, 0]"};
  CHECK(self_weight_run(ctx, small, 1, &r, &s) == RD_OK);
  double qs = q * 1e-4, w = qs * L * L * L * L / (8 * EI) + qs * L * L / (2 * GA);
  printf("  small deflection: tip x %.12e, closed form %.12e, relative %.2e\n", r.x[0], w,
         fabs(r.x[0] / w - 1));
  CHECK(fabs(r.x[0] / w - 1) < 1e-5);
  rd_destroyContext(&ctx);
}


int main(int argc, char** argv) {
  TEST_INIT(argc, argv);
  TEST_CASE(spring_mass(0));
  TEST_CASE(spring_mass(40));
  TEST_CASE(hanging());
  TEST_CASE(cutting());
  TEST_CASE(driven());
  TEST_CASE(free_beam());
  TEST_CASE(self_weight());
  return TEST_SUMMARY();
}
