// SPDX-License-Identifier: MIT
// Rigid steppers on free bodies: exact solutions, conservation, energy, translation.
//
// The McLachlan-Zanna body of Krysl & Endres 2005 §3.1 (the paper:
// tests/support/rigid_models.h) against its Jacobi-elliptic solution, conservation of the
// spatial angular momentum by the LIEMID methods, NMB's bounded energy error over 10^4 steps,
// the book toss momentum pi(t) = pi(0) + t tau at every step under a constant torque, and the
// translation of the centre of mass under a constant force.
#include <gsl/gsl_sf_ellint.h>
#include <gsl/gsl_sf_elljac.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "rodrigues/rodrigues.h"
#include "tests/support/models.h"
#include "tests/support/rigid_ref.h"
#include "tests/test_macros.h"

static const double JFREE[3] = {0.9144, 1.098, 1.66};
static const double WFREE[3] = {0.45549, 0.82623, 0.03476};

static const char* const all_methods[] = {"nmb",      "nms", "liemid_e1", "liemid_e2", "liemid_ea",
                                          "liemid_i", "sw",  "hstagm",    "akw"};
#define NALL ((int)(sizeof(all_methods) / sizeof(all_methods[0])))


// torque-free body, J1 < J2 < J3, M^2 < 2 E J2 (rotation about the axis of least inertia):
// W1 = B1 dn(u), W2 = B2 sn(u), W3 = B3 cn(u), u = lambda t + u0 (amplitudes from the energy and
// momentum, lambda and k from the Euler equations, u0 from the initial W)
typedef struct refElliptic_ {
  double B[3], lambda, m, u0;
} refElliptic;

static inline int ref_ellipticInit(refElliptic* el, const double J[3], const double W0[3]) {
  double E2 = J[0] * W0[0] * W0[0] + J[1] * W0[1] * W0[1] + J[2] * W0[2] * W0[2];
  double M2 = 0;
  for (int i = 0; i < 3; i++) {
    M2 += J[i] * J[i] * W0[i] * W0[i];
  }
  if (!(J[0] < J[1] && J[1] < J[2] && M2 < E2 * J[1])) {
    return -1;
  }
  // at sn = 0: J1 B1^2 + J3 B3^2 = 2E, J1^2 B1^2 + J3^2 B3^2 = M^2
  double B1s = (M2 - J[2] * E2) / (J[0] * (J[0] - J[2]));
  double B3s = (M2 - J[0] * E2) / (J[2] * (J[2] - J[0]));
  double B2s = (J[2] - J[0]) * J[2] * B3s / ((J[1] - J[0]) * J[1]);
  el->B[0] = sqrt(B1s) * (W0[0] < 0 ? -1 : 1);
  el->B[1] = sqrt(B2s);
  el->B[2] = sqrt(B3s);
  // J2 W2' = (J3 - J1) W3 W1 -> lambda; J1 W1' = (J2 - J3) W2 W3 -> k^2
  el->lambda = (J[2] - J[0]) * el->B[0] * el->B[2] / (J[1] * el->B[1]);
  el->m = (J[2] - J[1]) * el->B[1] * el->B[2] / (J[0] * el->B[0] * el->lambda);
  double am = atan2(W0[1] / el->B[1], W0[2] / el->B[2]);
  if (fabs(am) >= 2 * atan(1.0)) {
    return -1;  // not needed for the data of Krysl & Endres
  }
  el->u0 = gsl_sf_ellint_F(am, sqrt(el->m), GSL_PREC_DOUBLE);
  return 0;
}

static inline void ref_ellipticOmega(const refElliptic* el, double t, double W[3]) {
  double sn, cn, dn;
  gsl_sf_elljac_e(el->lambda * t + el->u0, el->m, &sn, &cn, &dn);
  W[0] = el->B[0] * dn;
  W[1] = el->B[1] * sn;
  W[2] = el->B[2] * cn;
}


// the elliptic solution and the Dormand-Prince reference agree (two independent references)
static void test_references(void) {
  refElliptic el;
  CHECK(ref_ellipticInit(&el, JFREE, WFREE) == 0);
  double W[3];
  ref_ellipticOmega(&el, 0, W);
  for (int i = 0; i < 3; i++) {
    CHECK_NEAR(W[i], WFREE[i], 1e-14);
  }
  refProblem p = {{JFREE[0], JFREE[1], JFREE[2]}, NULL, NULL};
  double y[7] = {1, 0, 0, 0, WFREE[0], WFREE[1], WFREE[2]};
  double t = 0;
  for (int k = 0; k < 4; k++) {
    double t1 = k < 3 ? 10.0 * (k + 1) : 100.0;
    ref_integrate(&p, t, t1, y, 1e-13);
    t = t1;
    ref_ellipticOmega(&el, t, W);
    double e = ref_momentumError(JFREE, W, y + 4);
    CHECK_MSG(e < 1e-10, "elliptic and Dormand-Prince free body differ by %.2e at t = %g", e, t);
  }
}


// second order against the elliptic solution (body momentum at t = 10)
static void test_free_body_order(rdContext* ctx) {
  refElliptic el;
  ref_ellipticInit(&el, JFREE, WFREE);
  double Wref[3];
  ref_ellipticOmega(&el, 10, Wref);
  const char* methods[] = {"nmb", "liemid_ea", "akw"};
  for (int k = 0; k < 3; k++) {
    double e[2];
    for (int j = 0; j < 2; j++) {
      rdModel* m = model_freeBody(ctx, methods[k], 0.02 / (1 << j), JFREE, WFREE);
      double q[4], W[3];
      CHECK(ref_run(m, 10, q, W, NULL) == RD_OK);
      e[j] = ref_momentumError(JFREE, W, Wref);
      rd_destroyModel(&m);
    }
    double p = log2(e[0] / e[1]);
    printf("# free body %-10s |Pi - Pi_exact| %.3e %.3e order %.3f\n", methods[k], e[0], e[1], p);
    CHECK_MSG(fabs(p - 2) <= 0.15, "free body, %s: order %.3f against the elliptic solution",
              methods[k], p);
  }
}


typedef struct {
  double L0[3];
  double max_dL;
  double E0;
  long n, nstep;
  double max_dE[3];  // max |E - E0| over the first, middle and last third of the run
} watch;

static int observe(const rdModel* m, const rdData* d, void* user) {
  watch* w = user;
  double L[3], ke, pe;
  rd_getMomentum(m, d, NULL, L);
  rd_getEnergy(m, d, &ke, &pe);
  double dL = sqrt((L[0] - w->L0[0]) * (L[0] - w->L0[0]) + (L[1] - w->L0[1]) * (L[1] - w->L0[1]) +
                   (L[2] - w->L0[2]) * (L[2] - w->L0[2]));
  w->max_dL = fmax(w->max_dL, dL);
  int third = (int)(3 * w->n / (w->nstep + 1));
  w->max_dE[third] = fmax(w->max_dE[third], fabs(ke + pe - w->E0));
  w->n++;
  return 0;
}


static void run_watch(rdContext* ctx, const char* method, double h, long nstep, watch* w) {
  rdModel* m = model_freeBody(ctx, method, h, JFREE, WFREE);
  rdData* d = NULL;
  CHECK(rd_createData(m, &d) == RD_OK);
  CHECK(rd_initialize(m, d) == RD_OK);
  memset(w, 0, sizeof(*w));
  double ke, pe;
  rd_getMomentum(m, d, NULL, w->L0);
  rd_getEnergy(m, d, &ke, &pe);
  w->E0 = ke + pe;
  w->nstep = nstep;
  CHECK(rd_advance(m, d, h * (double)nstep, observe, w) == RD_OK);
  rd_destroyData(&d);
  rd_destroyModel(&m);
}


// torque-free LIEMID methods conserve pi = R J W exactly (to round-off), even at huge steps
static void test_liemid_momentum(rdContext* ctx) {
  const char* methods[] = {"liemid_e1", "liemid_e2", "liemid_ea", "liemid_i"};
  for (int k = 0; k < 4; k++) {
    watch w;
    run_watch(ctx, methods[k], 0.5, 2000, &w);
    double L0 = sqrt(w.L0[0] * w.L0[0] + w.L0[1] * w.L0[1] + w.L0[2] * w.L0[2]);
    printf("# free body %-10s h = 0.5, 2000 steps: max |pi - pi0| / |pi0| = %.2e\n", methods[k],
           w.max_dL / L0);
    CHECK_MSG(w.max_dL <= 1e-13 * L0, "%s: spatial angular momentum drifts by %.2e (relative)",
              methods[k], w.max_dL / L0);
  }
}


// NMB: energy error bounded, no drift over 10^4 steps (Krysl & Endres, figure 1: steps up to 4)
static void test_nmb_energy(rdContext* ctx) {
  watch w;
  run_watch(ctx, "nmb", 0.5, 10000, &w);
  double first = w.max_dE[0], last = w.max_dE[2];
  printf(
      "# free body nmb h = 0.5, 10^4 steps: max |E - E0| / E0 first third %.3e, last third "
      "%.3e\n",
      first / w.E0, last / w.E0);
  CHECK_MSG(last <= 1.2 * first, "nmb energy error grows: %.3e (first third) -> %.3e (last)", first,
            last);
  CHECK_MSG(last <= 0.05 * w.E0, "nmb energy error %.3e of E0", last / w.E0);
}


// book toss under the constant spatial torque tau = (20, 0, 0) (Krysl & Endres §3.2, before the
// disturbance), here with an initial tumble so that pi(0) != 0 and the body turns about every
// axis: pi(t) = pi(0) + t tau exactly, at every step, for the momentum-conserving methods
static rdModel* build_book(rdContext* ctx, const char* method) {
  rdSpec* s = NULL;
  rd_createSpec(ctx, &s);
  rdNodeDef n = rd_defaultNodeDef();
  n.name = "book";
  n.angular_velocity[0] = 0.3;
  n.angular_velocity[1] = 2;
  n.angular_velocity[2] = -0.5;
  n.angular_velocity_frame = RD_FRAME_BODY;
  int node = model_addRigidBody(s, &n, "book", 1, (double[3]){5, 10, 1}, NULL);
  rdLoadDef l = rd_defaultLoadDef();
  l.name = "spin";
  l.node = node;
  l.kind = RD_LOAD_MOMENT;
  l.value[0] = 20;
  rds_addLoad(s, &l);
  rds_setOption(s, "solver.method", method);
  rds_setOption(s, "solver.time_step", "0.05");
  rdModel* m = NULL;
  rd_compile(s, &m);
  rd_destroySpec(&s);
  return m;
}

typedef struct {
  double pi0[3];
  double max_dev;  // max over the steps of |pi(t) - pi(0) - t tau| / (|pi(0)| + t |tau|)
} bookWatch;

static int book_observe(const rdModel* m, const rdData* d, void* user) {
  bookWatch* w = user;
  double L[3], t = rd_time(d);
  rd_getMomentum(m, d, NULL, L);
  double e[3] = {L[0] - w->pi0[0] - 20 * t, L[1] - w->pi0[1], L[2] - w->pi0[2]};
  double dev =
      sqrt(e[0] * e[0] + e[1] * e[1] + e[2] * e[2]) /
      (sqrt(w->pi0[0] * w->pi0[0] + w->pi0[1] * w->pi0[1] + w->pi0[2] * w->pi0[2]) + 20 * t);
  w->max_dev = fmax(w->max_dev, dev);
  return 0;
}

static void test_book_toss(rdContext* ctx) {
  const char* methods[] = {"liemid_e1", "liemid_e2", "liemid_ea", "liemid_i", "sw",
                           "hstagm",    "nmb",       "nms",       "akw"};
  for (int k = 0; k < 9; k++) {
    int conserving = k < 6;
    rdModel* m = build_book(ctx, methods[k]);
    rdData* d = NULL;
    CHECK(rd_createData(m, &d) == RD_OK);
    CHECK(rd_initialize(m, d) == RD_OK);
    bookWatch w = {{0, 0, 0}, 0};
    rd_getMomentum(m, d, NULL, w.pi0);
    CHECK(rd_advance(m, d, 2.0, book_observe, &w) == RD_OK);
    printf(
        "# book toss %-10s 40 steps of 0.05: max |pi(t) - pi(0) - t tau| / (|pi(0)| + t |tau|) "
        "= %.1e\n",
        methods[k], w.max_dev);
    if (conserving) {
      CHECK_MSG(w.max_dev < 1e-14, "book toss, %s: pi(t) - pi(0) - t tau reaches %.2e (relative)",
                methods[k], w.max_dev);
    }
    rd_destroyData(&d);
    rd_destroyModel(&m);
  }
}


// the centre of mass under a constant force F: v = v0 + F t / m for every method, and
// x = x0 + v0 t + F t^2 / 2m for the second-order ones; the node sits off the centre of mass
static void test_translation(rdContext* ctx) {
  for (int k = 0; k < NALL; k++) {
    rdSpec* s = NULL;
    rd_createSpec(ctx, &s);
    rdNodeDef n = rd_defaultNodeDef();
    n.name = "body";
    n.position[0] = 1;
    n.velocity[1] = 2;
    n.angular_velocity[2] = 3;
    model_addRigidBody(s, &n, "body", 2, (double[3]){1, 2, 3}, (double[3]){0.5, 0, 0});
    rds_setGravity(s, (double[3]){0, 0, -9.81});
    rds_setOption(s, "solver.method", all_methods[k]);
    rds_setOption(s, "solver.time_step", "0.01");
    rdModel* m = NULL;
    CHECK(rd_compile(s, &m) == RD_OK);
    rd_destroySpec(&s);
    rdData* d = NULL;
    CHECK(rd_createData(m, &d) == RD_OK);
    CHECK(rd_initialize(m, d) == RD_OK);
    // centre of mass at t = 0: node + R c, velocity v + w x R c (w = (0, 0, 3), R = I)
    double xc0[3] = {1.5, 0, 0}, vc0[3] = {0, 2 + 1.5, 0};
    CHECK(rd_advance(m, d, 1.0, NULL, NULL) == RD_OK);
    double x[3], q[4], v[3], w[3], Rc[3], vc[3], xc[3];
    rd_getNodeState(m, d, 0, x, q, v, w, NULL);
    double R[9];
    ref_quatToMat(R, q);
    for (int i = 0; i < 3; i++) {
      Rc[i] = 0.5 * R[3 * i];
      xc[i] = x[i] + Rc[i];
    }
    vc[0] = v[0] + w[1] * Rc[2] - w[2] * Rc[1];
    vc[1] = v[1] + w[2] * Rc[0] - w[0] * Rc[2];
    vc[2] = v[2] + w[0] * Rc[1] - w[1] * Rc[0];
    double ev = fabs(vc[0] - vc0[0]) + fabs(vc[1] - vc0[1]) + fabs(vc[2] + 9.81);
    CHECK_MSG(ev < 1e-12, "%s: centre-of-mass velocity error %.2e", all_methods[k], ev);
    int first_order = !strcmp(all_methods[k], "liemid_e1") || !strcmp(all_methods[k], "liemid_e2");
    double ex = fabs(xc[0] - xc0[0]) + fabs(xc[1] - vc0[1]) + fabs(xc[2] + 0.5 * 9.81);
    double tol = first_order ? 0.5 * 9.81 * 0.01 * 1.0001 : 1e-12;
    CHECK_MSG(ex < tol, "%s: centre-of-mass position error %.2e", all_methods[k], ex);
    rd_destroyData(&d);
    rd_destroyModel(&m);
  }
}


int main(int argc, char** argv) {
  TEST_INIT(argc, argv);
  rdContext* ctx = NULL;
  rd_createContext(&ctx, NULL);
  TEST_CASE(test_references());
  TEST_CASE(test_free_body_order(ctx));
  TEST_CASE(test_liemid_momentum(ctx));
  TEST_CASE(test_nmb_energy(ctx));
  TEST_CASE(test_book_toss(ctx));
  TEST_CASE(test_translation(ctx));
  rd_destroyContext(&ctx);
  return TEST_SUMMARY();
}
