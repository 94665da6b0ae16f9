// SPDX-License-Identifier: MIT
// Generalized-alpha against exact answers (docs/benchmarks.md A7): constant force and torque on a
// free mass, spring-mass, torque-free precession; energy behaviour; joint reactions; step
// cutting.
#include <math.h>
#include <string.h>

#include "src/model/data_impl.h"
#include "tests/support/models.h"
#include "tests/test_macros.h"

static rdSpec* spec(rdContext* ctx, double rho, double h) {
  rdSpec* s = NULL;
  rd_createSpec(ctx, &s);
  rds_setOption(s, "solver.method", "generalized_alpha");
  rds_setOptionReal(s, "solver.rho_inf", rho);
  rds_setOptionReal(s, "solver.time_step", h);
  rds_setOptionReal(s, "solver.atol", 1e-12);
  rds_setOptionReal(s, "solver.rtol", 1e-10);
  return s;
}


static int rigid_node(rdSpec* s, const char* name, const double W[3], double m, const double J[3]) {
  rdNodeDef n = rd_defaultNodeDef();
  n.name = name;
  n.angular_velocity_frame = RD_FRAME_BODY;
  for (int k = 0; k < 3; k++) {
    n.angular_velocity[k] = W[k];
  }
  return model_addRigidBody(s, &n, name, m, J, NULL);
}


// A7.2: F = (5,0,0), torque (0,3,0) on m = 1, J = I from rest; v(1) = 5, w_y(1) = 3
static void free_mass(void) {
  rdContext* ctx = NULL;
  rd_createContext(&ctx, NULL);
  rdSpec* s = spec(ctx, 0, 1e-3);
  const double zero[3] = {0, 0, 0}, one[3] = {1, 1, 1};
  int node = rigid_node(s, "mass", zero, 1, one);
  rdLoadDef l = rd_defaultLoadDef();
  l.name = "f";
  l.node = node;
  l.value[0] = 5;
  rds_addLoad(s, &l);
  l.name = "m";
  l.kind = RD_LOAD_MOMENT;
  l.value[0] = 0;
  l.value[1] = 3;
  rds_addLoad(s, &l);
  rdModel* m;
  rdData* d;
  CHECK(model_make(s, &m, &d) == 0);
  CHECK(rd_advance(m, d, 1.0, NULL, NULL) == RD_OK);
  double v[3], w[3], x[3];
  rd_getNodeState(m, d, 0, x, NULL, v, w, NULL);
  printf("free mass: v(1) = %.17g, w_y(1) = %.17g, x(1) = %.17g\n", v[0], w[1], x[0]);
  CHECK_NEAR(v[0], 5, 1e-12);
  CHECK_NEAR(w[1], 3, 1e-12);
  CHECK_NEAR(x[0], 2.5, 1e-12);  // constant acceleration: exact for any second-order scheme
  rd_destroyData(&d);
  rd_destroyModel(&m);
  rd_destroyContext(&ctx);
}


// the same force from rest with solver.initial_acceleration = zero (Kynema's start): the
// scheme's own recurrence for m vd = F, written out here, from a_0 = vd_0 = 0: every step
// vd_{n+1} = F/m, (1 - am) a_{n+1} = (1 - af) vd_{n+1} + af vd_n - am a_n,
// v_{n+1} = v_n + h ((1 - gamma) a_n + gamma a_{n+1}), x_{n+1} = x_n + h v_n + h^2 ((1/2 - beta)
// a_n + beta a_{n+1})
static void free_mass_from_rest(double rho) {
  rdContext* ctx = NULL;
  rd_createContext(&ctx, NULL);
  double h = 0.01;
  rdSpec* s = spec(ctx, rho, h);
  rds_setOption(s, "solver.initial_acceleration", "zero");
  const double zero[3] = {0, 0, 0}, one[3] = {1, 1, 1};
  int node = rigid_node(s, "mass", zero, 2, one);
  rdLoadDef l = rd_defaultLoadDef();
  l.name = "f";
  l.node = node;
  l.value[0] = 5;
  rds_addLoad(s, &l);
  rdModel* m;
  rdData* d;
  CHECK(model_make(s, &m, &d) == 0);
  CHECK(d->s.vd[0] == 0 && d->s.a[0] == 0);  // the consistent start has F/m
  double x[3], v[3];
  CHECK(rd_advance(m, d, 1.0, NULL, NULL) == RD_OK);
  rd_getNodeState(m, d, 0, x, NULL, v, NULL, NULL);
  double am = (2 * rho - 1) / (rho + 1), af = rho / (rho + 1), g = 0.5 + af - am;
  double b = 0.25 * (g + 0.5) * (g + 0.5);
  double xr = 0, vr = 0, ar = 0, vdr = 0;
  for (int n = 0; n < 100; n++) {
    double vd1 = 5.0 / 2, a1 = ((1 - af) * vd1 + af * vdr - am * ar) / (1 - am);
    xr += h * vr + h * h * ((0.5 - b) * ar + b * a1);
    vr += h * ((1 - g) * ar + g * a1);
    ar = a1;
    vdr = vd1;
  }
  printf(
      "free mass from rest, rho_inf %g: v(1) = %.17g (recurrence %.17g; F (t - h/2) / m "
      "2.4875, consistent start 2.5), x(1) = %.17g (%.17g)\n",
      rho, v[0], vr, x[0], xr);
  CHECK_NEAR(v[0], vr, 1e-12);
  CHECK_NEAR(x[0], xr, 1e-12);
  CHECK(fabs(v[0] - 2.5) > 1e-4);  // the start shows
  rd_destroyData(&d);
  rd_destroyModel(&m);
  rd_destroyContext(&ctx);
}


// A7.3: m = 1, k = 10, l0 = 0, x(0) = 2 at rest; x(t) = 2 cos(w t), nstep steps per period T.
// Runs `periods` periods; returns |x(T/4)| (at the zero crossing, where the phase error shows;
// at t = T the velocity vanishes and the error is third order). drift: largest relative energy
// change; monotone: the energy at t = kT never grows.
static double spring_mass(double rho, int nstep, int periods, double* drift, int* monotone) {
  rdContext* ctx = NULL;
  rd_createContext(&ctx, NULL);
  double T = 2 * 3.14159265358979323846 / sqrt(10.0);
  rdSpec* s = spec(ctx, rho, T / nstep);
  model_addSpringMass(s, 2, 0, 10, 0);
  rdModel* m;
  rdData* d;
  double err = 1e30;
  if (model_make(s, &m, &d) == 0) {
    double ke, pe, e0;
    rd_getEnergy(m, d, &ke, &pe);
    e0 = ke + pe;
    *drift = 0;
    *monotone = 1;
    double prev = e0;
    for (int i = 1; i <= nstep * periods; i++) {
      if (rd_step(m, d, 0) != RD_OK) {
        break;
      }
      if (i == nstep / 4) {
        err = fabs(d->s.q[0]);
      }
      rd_getEnergy(m, d, &ke, &pe);
      *drift = fmax(*drift, fabs(ke + pe - e0) / e0);
      if (i % nstep == 0) {
        if (ke + pe > prev * (1 + 1e-13)) {
          *monotone = 0;
        }
        prev = ke + pe;
      }
    }
  }
  rd_destroyData(&d);
  rd_destroyModel(&m);
  rd_destroyContext(&ctx);
  return err;
}


// A7.1: J = diag(1,1,0.5), W0 = (0.5,0.5,1), t = 5: exact regular precession
static double precession(double rho, double h, int nstep, double* drift) {
  rdContext* ctx = NULL;
  rd_createContext(&ctx, NULL);
  rdSpec* s = spec(ctx, rho, h);
  const double W[3] = {0.5, 0.5, 1}, J[3] = {1, 1, 0.5};
  rigid_node(s, "top", W, 1, J);
  rdModel* m;
  rdData* d;
  double err = 1e30;
  static const double qex[4] = {0.6305141458389, -0.6048049849402, 0.3031242390573,
                                0.3804977500385};
  if (model_make(s, &m, &d) == 0) {
    double ke0, ke;
    rd_getEnergy(m, d, &ke0, NULL);
    *drift = 0;
    for (int i = 0; i < nstep; i++) {
      if (rd_step(m, d, 0) != RD_OK) {
        break;
      }
      rd_getEnergy(m, d, &ke, NULL);
      *drift = fmax(*drift, fabs(ke - ke0) / ke0);
    }
    const double* q = d->s.q + 3;
    double dot = q[0] * qex[0] + q[1] * qex[1] + q[2] * qex[2] + q[3] * qex[3];
    err = 0;
    for (int k = 0; k < 4; k++) {
      err = fmax(err, fabs((dot < 0 ? -q[k] : q[k]) - qex[k]));
    }
  }
  rd_destroyData(&d);
  rd_destroyModel(&m);
  rd_destroyContext(&ctx);
  return err;
}


// heavy top reactions at t0: the pivot force is m (a - g)
static void reactions(void) {
  rdContext* ctx = NULL;
  rd_createContext(&ctx, NULL);
  rdModel* m;
  rdData* d;
  CHECK(model_make(model_heavyTopAlpha(ctx, 0.9, 1e-3, NULL), &m, &d) == 0);
  double f[3], mo[3];
  CHECK(rd_getJointReaction(m, d, 0, f, mo) == RD_OK);
  CHECK_NEAR(f[0], 0, 1e-9);
  CHECK_NEAR(f[1], 15 * -21.3017325444, 1e-7);
  CHECK_NEAR(f[2], 15 * (-30.960830769230824 + 9.81), 1e-9);
  // the moment about the node is the arm (pivot - node) x force
  double arm[3] = {0, -1, 0}, mx[3];
  mx[0] = arm[1] * f[2] - arm[2] * f[1];
  mx[1] = arm[2] * f[0] - arm[0] * f[2];
  mx[2] = arm[0] * f[1] - arm[1] * f[0];
  for (int k = 0; k < 3; k++) {
    CHECK_NEAR(mo[k], mx[k], 1e-9);
  }
  CHECK(rd_getJointReaction(m, d, 5, f, mo) == RD_ERR_ARG);
  rd_destroyData(&d);
  rd_destroyModel(&m);
  rd_destroyContext(&ctx);
}


// step cutting: max_iter too small for the big step, enough for halves (h = 2e-2: the
// multiplier norm scaled by beta h^2 lets 4e-3 converge in 3 iterations, and full Newton's
// estimate stop 1e-2 as well)
static void cutting(void) {
  rdContext* ctx = NULL;
  rd_createContext(&ctx, NULL);
  rdSpec* s = model_heavyTopAlpha(ctx, 0.5, 2e-2, NULL);
  rds_setOptionReal(s, "solver.max_iter", 3);
  rdModel* m;
  rdData* d;
  CHECK(model_make(s, &m, &d) == 0);
  int st = rd_advance(m, d, 0.2, NULL, NULL);
  rdStats stats;
  rd_getStats(d, &stats);
  printf("step cutting: status %d, %ld steps, %ld rejected, smallest step %g\n", st, stats.steps,
         stats.rejected_steps, stats.min_step);
  CHECK(st == RD_OK);
  CHECK(stats.rejected_steps > 0);
  CHECK(stats.min_step < 2e-2);
  CHECK_NEAR(rd_time(d), 0.2, 1e-12);
  rd_destroyData(&d);
  rd_destroyModel(&m);
  // and a step that can never converge is reported with its cause
  s = model_heavyTopAlpha(ctx, 0.5, 4e-3, NULL);
  rds_setOptionReal(s, "solver.max_iter", 1);
  rds_setOptionReal(s, "solver.max_step_cuts", 2);
  CHECK(model_make(s, &m, &d) == 0);
  st = rd_step(m, d, 0);
  printf("no convergence: %s\n", rd_lastError(ctx));
  CHECK(st < 0);
  CHECK(strstr(rd_lastError(ctx), "Newton did not converge") != NULL);
  CHECK(strstr(rd_lastError(ctx), "step cuts") != NULL);
  rd_destroyData(&d);
  rd_destroyModel(&m);
  rd_destroyContext(&ctx);
}


// A7.3: second order in the phase; no energy drift at rho_inf = 1 (linear and conservative),
// a monotone loss below
static void test_spring_mass(void) {
  double drift, e[4];
  int mono;
  for (int i = 0; i < 4; i++) {
    e[i] = spring_mass(0, 256 << i, 1, &drift, &mono);
    printf("spring-mass rho 0, h = T/%d: |x(T/4)| = %.3e\n", 256 << i, e[i]);
  }
  for (int i = 1; i < 4; i++) {
    double p = log2(e[i - 1] / e[i]);
    CHECK_MSG(p > 1.9 && p < 2.1, "spring-mass order %.2f", p);
  }
  // rho = 1: linear and conservative -> no energy drift; rho < 1 dissipates monotonically
  spring_mass(1, 1000, 10, &drift, &mono);
  printf("spring-mass rho 1, 1e4 steps: energy drift %.3e\n", drift);
  CHECK(drift < 1e-10);
  for (double rho = 0; rho < 0.95; rho += 0.45) {
    spring_mass(rho, 200, 10, &drift, &mono);
    printf("spring-mass rho %g, h = T/200: energy loss %.3e over 10 periods, monotone %d\n", rho,
           drift, mono);
    CHECK(mono);
    CHECK(drift > 0);
  }
}


// A7.1: second order, kinetic energy kept over 1e4 steps
static void test_precession(void) {
  double drift;
  double p1 = precession(1, 0.01, 500, &drift);
  double p2 = precession(1, 0.005, 1000, &drift);
  printf("precession rho 1: error %.3e (h 0.01), %.3e (h 0.005), order %.2f\n", p1, p2,
         log2(p1 / p2));
  CHECK(p1 < 3e-3);
  CHECK_MSG(log2(p1 / p2) > 1.9 && log2(p1 / p2) < 2.1, "precession order %.2f", log2(p1 / p2));
  precession(1, 0.01, 10000, &drift);
  printf("precession rho 1, 1e4 steps: kinetic energy drift %.3e\n", drift);
  CHECK(drift < 1e-6);
}


int main(int argc, char** argv) {
  TEST_INIT(argc, argv);
  TEST_CASE(free_mass());
  TEST_CASE(free_mass_from_rest(0));
  TEST_CASE(free_mass_from_rest(0.9));
  TEST_CASE(test_spring_mass());
  TEST_CASE(test_precession());
  TEST_CASE(reactions());
  TEST_CASE(cutting());
  return TEST_SUMMARY();
}
