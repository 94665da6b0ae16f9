// SPDX-License-Identifier: MIT
// Mechanisms from input/: the planar double pendulum against RK4 in its two joint angles
// (order 2 at t = 1), constraint violation at the Newton tolerance, and its energy.
//
// usage: test_mechanisms DECK_DIR
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "rodrigues/rodrigues.h"
#include "test_macros.h"

static const char* deck_dir = "input";

// rods: m = 1, L = 1, I = m L^2 / 12 about the centre; angles phi from the downward vertical,
// centre of rod 1 at (L/2)(sin phi1, -cos phi1) in (x, z)
#define G 9.81

static void rhs(const double y[4], double f[4]) {
  double p1 = y[0], p2 = y[1], w1 = y[2], w2 = y[3];
  double I = 1.0 / 12, d = p1 - p2;
  double M11 = 0.25 + I + 1, M22 = 0.25 + I, M12 = 0.5 * cos(d);
  double b1 = -0.5 * sin(d) * w2 * w2 - 1.5 * G * sin(p1);
  double b2 = 0.5 * sin(d) * w1 * w1 - 0.5 * G * sin(p2);
  double det = M11 * M22 - M12 * M12;
  f[0] = w1;
  f[1] = w2;
  f[2] = (M22 * b1 - M12 * b2) / det;
  f[3] = (M11 * b2 - M12 * b1) / det;
}


// classical RK4 to t with n steps from phi = (1, 0.5) at rest; centres of mass (x1, z1, x2, z2)
static void reference(double t, int n, double c[4]) {
  double y[4] = {1, 0.5, 0, 0}, k[4][4], z[4], h = t / n;
  for (int s = 0; s < n; s++) {
    rhs(y, k[0]);
    for (int i = 0; i < 4; i++) z[i] = y[i] + 0.5 * h * k[0][i];
    rhs(z, k[1]);
    for (int i = 0; i < 4; i++) z[i] = y[i] + 0.5 * h * k[1][i];
    rhs(z, k[2]);
    for (int i = 0; i < 4; i++) z[i] = y[i] + h * k[2][i];
    rhs(z, k[3]);
    for (int i = 0; i < 4; i++) y[i] += h / 6 * (k[0][i] + 2 * k[1][i] + 2 * k[2][i] + k[3][i]);
  }
  c[0] = 0.5 * sin(y[0]);
  c[1] = -0.5 * cos(y[0]);
  c[2] = sin(y[0]) + 0.5 * sin(y[1]);
  c[3] = -cos(y[0]) - 0.5 * cos(y[1]);
}


static int open_deck(rdContext* ctx, const char* name, const char* const* set, int nset,
                     rdModel** m, rdData** d) {
  char path[1024];
  snprintf(path, sizeof(path), "%s/%s", deck_dir, name);
  rdSpec* s = NULL;
  *m = NULL;
  *d = NULL;
  int st = rd_readDeck(ctx, path, set, nset, &s);
  if (!st) {
    st = rd_compile(s, m);
  }
  rd_destroySpec(&s);
  if (!st) {
    st = rd_createData(*m, d);
  }
  if (!st) {
    st = rd_initialize(*m, *d);
  }
  if (st) {
    printf("%s: %s\n", name, rd_lastError(ctx));
  }
  return st;
}


// point (body) of node i in the global frame
static void point(const rdModel* m, const rdData* d, int i, double zb, double p[3]) {
  double x[3], q[4];
  rd_getNodeState(m, d, i, x, q, NULL, NULL, NULL);
  double v[3] = {0, 0, zb}, r[3];
  rdu_quatRotate(r, q, v);
  for (int k = 0; k < 3; k++) {
    p[k] = x[k] + r[k];
  }
}


// largest violation of the two hinges (positions, m) and of the planar motion
static double violation(const rdModel* m, const rdData* d) {
  double a[3], b[3], c[3], e = 0;
  point(m, d, 0, 0.5, a);  // top of rod 1: the origin
  point(m, d, 0, -0.5, b);
  point(m, d, 1, 0.5, c);  // top of rod 2: bottom of rod 1
  for (int k = 0; k < 3; k++) {
    e = fmax(e, fabs(a[k]));
    e = fmax(e, fabs(b[k] - c[k]));
  }
  return e;
}


// run the deck to t = 1 with step h; error of the centres of mass against RK4
static double pendulum_error(rdContext* ctx, const char* h, double* viol) {
  const char* set[] = {h, "solver.final_time=1"};
  rdModel* m;
  rdData* d;
  double err = 1e30;
  *viol = 0;
  if (open_deck(ctx, "double_pendulum.yaml", set, 2, &m, &d) == 0) {
    int st = RD_OK;
    while (st == RD_OK && rd_time(d) < 1 - 1e-12) {
      st = rd_step(m, d, 0);
      *viol = fmax(*viol, violation(m, d));
    }
    CHECK(st == RD_OK);
    double ref[4], x1[3], x2[3];
    reference(1, 100000, ref);
    rd_getNodeState(m, d, 0, x1, NULL, NULL, NULL, NULL);
    rd_getNodeState(m, d, 1, x2, NULL, NULL, NULL, NULL);
    err = fmax(fmax(fabs(x1[0] - ref[0]), fabs(x1[2] - ref[1])),
               fmax(fabs(x2[0] - ref[2]), fabs(x2[2] - ref[3])));
    err = fmax(err, fmax(fabs(x1[1]), fabs(x2[1])));
  }
  rd_destroyData(&d);
  rd_destroyModel(&m);
  return err;
}


static void double_pendulum(rdContext* ctx) {
  // the reference is converged far below the errors measured
  double r1[4], r2[4];
  reference(1, 100000, r1);
  reference(1, 50000, r2);
  double rerr = 0;
  for (int k = 0; k < 4; k++) {
    rerr = fmax(rerr, fabs(r1[k] - r2[k]));
  }
  CHECK(rerr < 1e-12);
  const char* hs[3] = {"solver.time_step=4e-3", "solver.time_step=2e-3",
                       "solver.time_step=1e-3"};
  double e[3], viol[3];
  for (int i = 0; i < 3; i++) {
    e[i] = pendulum_error(ctx, hs[i], &viol[i]);
    printf("double pendulum %s: error at t = 1 %.3e, largest hinge violation %.2e\n", hs[i],
           e[i], viol[i]);
    CHECK(viol[i] < 1e-9);
  }
  for (int i = 0; i < 2; i++) {
    double p = log2(e[i] / e[i + 1]);
    printf("observed order %.3f\n", p);
    CHECK_MSG(p > 1.85 && p < 2.15, "order %.3f", p);
  }
  CHECK(e[2] < 1e-3);
}


// relative energy change over 2 s, its range [lo, hi] and its final value. The double pendulum
// has no period to sample at: at rho_inf = 0.9 the energy may rise by the O(h^2) oscillation
// of the scheme but ends below its start; the stabilized rho_inf = 1 keeps it bounded
static void energy(rdContext* ctx, const char* const* set, int nset, double* lo, double* hi,
                   double* end) {
  rdModel* m;
  rdData* d;
  *lo = 1e30;
  *hi = -1e30;
  if (open_deck(ctx, "double_pendulum.yaml", set, nset, &m, &d) == 0) {
    double ke, pe;
    rd_getEnergy(m, d, &ke, &pe);
    double e0 = ke + pe;
    int st = RD_OK;
    while (st == RD_OK && rd_time(d) < 2 - 1e-12) {
      st = rd_step(m, d, 0);
      rd_getEnergy(m, d, &ke, &pe);
      double rel = (ke + pe - e0) / fabs(e0);
      *lo = fmin(*lo, rel);
      *hi = fmax(*hi, rel);
      *end = rel;
    }
    CHECK(st == RD_OK);
  }
  rd_destroyData(&d);
  rd_destroyModel(&m);
}


int main(int argc, char** argv) {
  if (argc > 1) {
    deck_dir = argv[1];
  }
  rdContext* ctx = NULL;
  rd_createContext(&ctx, NULL);
  double_pendulum(ctx);
  double lo, hi, end = 0;
  const char* damped[] = {"solver.rho_inf=0.9"};
  energy(ctx, damped, 1, &lo, &hi, &end);
  printf("double pendulum rho 0.9: relative energy change in [%.3e, %.3e], %.3e at t = 2\n", lo,
         hi, end);
  CHECK(hi < 1e-6);
  CHECK(end < 0 && lo > -1e-4);
  const char* cons[] = {"solver.rho_inf=1", "solver.formulation=stabilized"};
  energy(ctx, cons, 2, &lo, &hi, &end);
  printf("double pendulum rho 1 (stabilized): relative energy change in [%.3e, %.3e]\n", lo, hi);
  CHECK(fmax(-lo, hi) < 1e-5);
  rd_destroyContext(&ctx);
  return TEST_SUMMARY();
}
