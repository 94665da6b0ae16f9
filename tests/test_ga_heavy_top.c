// SPDX-License-Identifier: MIT
// Heavy top (docs/benchmarks.md A6) with the generalized-alpha stepper: exact consistent initial
// accelerations, observed order 2 at t = 2 against the converged reference (index 3 and the
// stabilized index-2 formulation, which also runs rho_inf = 1; the spatial and the body
// rotation frame), and Kynema's state and error at its setting. (The finite-difference checks of
// the stabilized iteration-matrix blocks are in test_ga_tangent.c.)
// Usage: test_ga_heavy_top [--full]   (--full: index 3 also at 4e-3, at rho_inf = 1 from 4e-3 and
// in the body form)
#include <math.h>
#include <string.h>

#include "src/model/data_impl.h"
#include "tests/support/models.h"
#include "tests/test_macros.h"

static const double uref[3] = {-0.1504168227454677, -1.7241655916366287, -0.6730222695607069};
static const double qref[4] = {0.1229471350418663, -0.4910798925503638, 0.3504300303436659,
                               -0.787986887550204};

// the multipliers' period-2 part |lambda_n - (lambda_{n-1} + lambda_{n+1}) / 2|, largest over
// the components and the steps after t = 1.5 (the step callback keeps the last two steps')
typedef struct {
  double l1[3], l2[3], amp;
  long n;
} Period2;


static int track_period2(const rdModel* m, const rdData* d, void* user) {
  (void)m;
  Period2* p = user;
  const double* l = d->s.lambda;
  for (int k = 0; k < 3; k++) {
    if (p->n >= 2 && rd_time(d) > 1.5) {
      p->amp = fmax(p->amp, fabs(p->l1[k] - 0.5 * (p->l2[k] + l[k])));
    }
    p->l2[k] = p->l1[k];
    p->l1[k] = l[k];
  }
  p->n++;
  return 0;
}


// errors in u and q at t = 2 (huge if the run failed) with formulation form and rotation frame;
// p2 (may be NULL): the multipliers' period-2 amplitude over t = 1.5 ... 2
static void run_p2(double rho, double h, const char* form, const char* frame, double* eu,
                   double* eq, double* p2) {
  rdContext* ctx = NULL;
  rd_createContext(&ctx, NULL);
  rdModel* m;
  rdData* d;
  *eu = *eq = 1e30;
  rdSpec* s = model_heavyTopAlpha(ctx, rho, h, NULL);
  rds_setOption(s, "solver.formulation", form);
  rds_setOption(s, "solver.rotation_frame", frame);
  Period2 period2 = {.amp = 0};
  if (model_make(s, &m, &d) == 0 &&
      rd_setStepCallback(d, p2 ? track_period2 : NULL, &period2) == 0 &&
      rd_advance(m, d, 2.0, NULL, NULL) == RD_OK) {
    double x[3], q[4];
    rd_getNodeState(m, d, 0, x, q, NULL, NULL, NULL);
    x[1] -= 1;
    double dot = 0;
    for (int k = 0; k < 4; k++) {
      dot += q[k] * qref[k];
    }
    *eu = *eq = 0;
    for (int k = 0; k < 3; k++) {
      *eu = fmax(*eu, fabs(x[k] - uref[k]));
    }
    for (int k = 0; k < 4; k++) {
      *eq = fmax(*eq, fabs((dot < 0 ? -q[k] : q[k]) - qref[k]));
    }
  } else {
    printf("  rho %g h %g %s %s: %s\n", rho, h, form, frame, rd_lastError(ctx));
  }
  if (p2) {
    *p2 = period2.amp;
  }
  rd_destroyData(&d);
  rd_destroyModel(&m);
  rd_destroyContext(&ctx);
}


static void run(double rho, double h, const char* form, const char* frame, double* eu, double* eq) {
  run_p2(rho, h, form, frame, eu, eq, NULL);
}


static void initial_accelerations(const char* linsol) {
  rdContext* ctx = NULL;
  rd_createContext(&ctx, NULL);
  rdModel* m;
  rdData* d;
  int st = model_make(model_heavyTopAlpha(ctx, 0.9, 2e-3, linsol), &m, &d);
  CHECK(st == 0);
  if (st == 0) {
    // body angular acceleration; COM (= node) acceleration
    CHECK_NEAR(d->s.vd[3], 661.3461692307692, 1e-10);
    CHECK_NEAR(d->s.vd[4], 0, 1e-12);
    CHECK_NEAR(d->s.vd[5], 0, 1e-12);
    CHECK_NEAR(d->s.vd[0], 0, 1e-12);
    CHECK_NEAR(d->s.vd[1], -21.3017325444, 1e-9);
    CHECK_NEAR(d->s.vd[2], -30.960830769230824, 1e-11);
    CHECK_NEAR(d->s.a[3], d->s.vd[3], 0);
  }
  rd_destroyData(&d);
  rd_destroyModel(&m);
  rd_destroyContext(&ctx);
}


static const double rhos[4] = {0, 0.5, 0.9, 1};


// index-3 errors at h = 1.25e-4 per frame (0 body, 1 spatial) and rho_inf, for the comparison
static double finest[2][4];


// index 3, rho_inf 0, 0.5, 0.9: order 2 in u and q (full: also at 4e-3; rho_inf = 1: below).
// Body form: from the two finest steps. Spatial form: order 2 +- 0.15 at every halving from 2e-3
// (measured 1.99-2.10), errors below 5e-5 at h = 1.25e-4 (3.8e-5 ... 4.5e-5) and at least 3 times
// smaller than the body form's (4.8-12 times)
static void index3_orders(int full, const char* frame) {
  int nrho = 3, sp = !strcmp(frame, "spatial");
  double h0 = full ? 4e-3 : 2e-3;
  int nh = full ? 6 : 5;
  for (int r = 0; r < nrho; r++) {
    double eu[8], eq[8];
    printf("%s, rho_inf = %g\n", frame, rhos[r]);
    for (int i = 0; i < nh; i++) {
      double h = h0 / (1 << i);
      double p2;
      run_p2(rhos[r], h, "index3", frame, &eu[i], &eq[i], &p2);
      printf("  h %.4e  |u - u_ref| %.3e  |q - q_ref| %.3e", h, eu[i], eq[i]);
      if (i > 0) {
        double pu = log2(eu[i - 1] / eu[i]), pq = log2(eq[i - 1] / eq[i]);
        printf("  order %.2f %.2f", pu, pq);
        if (sp && h < 1.5e-3) {
          CHECK_MSG(fabs(pu - 2) < 0.15 && fabs(pq - 2) < 0.15,
                    "spatial rho_inf %g h %g: orders %.2f %.2f", rhos[r], h, pu, pq);
        }
      }
      printf("  period-2 amplitude of lambda %.2e\n", p2);
      // the second difference of the smooth multipliers, O(h^2): at most 0.13 N
      if (sp && h < 3e-3) {
        CHECK_MSG(p2 < 1, "spatial rho_inf %g h %g: period-2 amplitude %.3e", rhos[r], h, p2);
      }
    }
    // the two finest steps: second order
    double pu = log2(eu[nh - 2] / eu[nh - 1]), pq = log2(eq[nh - 2] / eq[nh - 1]);
    CHECK_MSG(pu > 1.8 && pu < 2.3, "rho_inf %g: order in position %.2f", rhos[r], pu);
    CHECK_MSG(pq > 1.8 && pq < 2.3, "rho_inf %g: order in rotation %.2f", rhos[r], pq);
    CHECK_MSG(eu[nh - 1] < (sp ? 5e-5 : 3e-3), "%s rho_inf %g: error %.3e", frame, rhos[r],
              eu[nh - 1]);
    finest[sp][r] = eu[nh - 1];
    if (sp && finest[0][r] > 0) {
      printf("  body / spatial at h = %.4e: %.2f\n", h0 / (1 << (nh - 1)),
             finest[0][r] / eu[nh - 1]);
      CHECK_MSG(eu[nh - 1] * 3 < finest[0][r], "rho_inf %g: spatial %.3e, body %.3e", rhos[r],
                eu[nh - 1], finest[0][r]);
    }
  }
}


// index 3 at rho_inf = 1 (alpha_m = alpha_f = gamma = 1/2, beta = 1/4: the trapezoidal rule).
// The multipliers' period-2 mode is undamped there (the weak instability of index-3 trapezoidal
// stepping, docs/generalized_alpha.md): every step feeds it, and its amplitude grows with t at a
// rate that does not depend on h (1.4e7 ... 1.5e7 N over t = 1.5 ... 2 at every h from 2.5e-4 to
// 1.6e-5, against a physical |lambda| of about 300 N and at most 0.13 N at rho_inf < 1: the
// second difference of the smooth multipliers), so the multipliers do not converge. Positions and
// rotations do, since the mode's force alternates in sign and cancels over two steps up to
// O(h^2) times its amplitude, once h is small. Spatial form, measured: Newton fails at h = 4e-3;
// e_u 0.30, 2.2e-3, 3.2e-4, 1.3e-4 at 2e-3 ... 2.5e-4 (no order); then orders 1.86, 1.97, 1.99,
// 2.00 in u and 2.60, 2.20, 2.05, 2.01 in q at the halvings to 1.25e-4 ... 1.5625e-5. Asserted:
// order 2 +- 0.15 in u from h = 1.25e-4 on, in q from 6.25e-5 on; e_u below 7e-7 at 1.5625e-5
// (5.9e-7); the period-2 amplitude above 1e5 N at every h. The body form runs to t = 2 at every
// h but ends 0.24 ... 1.7 from the reference, its period-2 amplitude 6e9 ... 5e15 N (--full only).
static void index3_rho1(int full, const char* frame) {
  int sp = !strcmp(frame, "spatial");
  if (!sp && !full) {
    return;
  }
  int nh = full ? 9 : 5;
  double h0 = full ? 4e-3 : 2.5e-4, eu[11], eq[11], p2[11];
  printf("%s, rho_inf = 1\n", frame);
  for (int i = 0; i < nh; i++) {
    double h = h0 / (1 << i);
    run_p2(1, h, "index3", frame, &eu[i], &eq[i], &p2[i]);
    printf("  h %.4e  |u - u_ref| %.3e  |q - q_ref| %.3e", h, eu[i], eq[i]);
    if (i > 0) {
      double pu = log2(eu[i - 1] / eu[i]), pq = log2(eq[i - 1] / eq[i]);
      printf("  order %.2f %.2f", pu, pq);
      if (sp && h < 0.9e-4) {
        CHECK_MSG(fabs(pu - 2) < 0.15, "rho_inf 1 h %g: order in position %.2f", h, pu);
      }
      if (sp && h < 0.45e-4) {
        CHECK_MSG(fabs(pq - 2) < 0.15, "rho_inf 1 h %g: order in rotation %.2f", h, pq);
      }
    }
    printf("  period-2 amplitude of lambda %.2e\n", p2[i]);
    if (sp && eu[i] < 1e29) {
      CHECK_MSG(p2[i] > 1e5, "rho_inf 1 h %g: period-2 amplitude %.3e", h, p2[i]);
    }
  }
  if (sp) {
    CHECK_MSG(eu[nh - 1] < 7e-7, "rho_inf 1: error %.3e at h = 1.5625e-5", eu[nh - 1]);
  }
}


// stabilized index 2: rho_inf = 1 too, and h = 4e-3 (index 3 fails there at 0.9 and 1).
// Body form: order 2 +- 0.15 in u and q for every halving at rho_inf >= 0.9, from h = 2e-3 on
// at 0.5 (2.21 in q from 4e-3). rho_inf = 0 is still pre-asymptotic at these steps (2.31 in u
// at 1.25e-4, 2.08 two halvings later), so only its finest rotation order is held to 2 +- 0.15.
// Spatial form: 1.80-1.82 in u for the first halving at every rho_inf, then 1.91-2.07: order
// 2 +- 0.15 from h = 2e-3 on (rho_inf = 0: 1.37, 1.76 in q for the first two halvings, then
// 1.89-1.98: from h = 1e-3 on).
static void stabilized_orders(const char* frame) {
  int sp = !strcmp(frame, "spatial");
  for (int r = 0; r < 4; r++) {
    double eu[6], eq[6];
    printf("stabilized, %s, rho_inf = %g\n", frame, rhos[r]);
    for (int i = 0; i < 6; i++) {
      double h = 4e-3 / (1 << i);
      run(rhos[r], h, "stabilized", frame, &eu[i], &eq[i]);
      printf("  h %.4e  |u - u_ref| %.3e  |q - q_ref| %.3e", h, eu[i], eq[i]);
      if (i > 0) {
        double pu = log2(eu[i - 1] / eu[i]), pq = log2(eq[i - 1] / eq[i]);
        printf("  order %.2f %.2f", pu, pq);
        if (sp ? i >= (rhos[r] > 0 ? 2 : 3) : rhos[r] >= 0.9 || (rhos[r] > 0 && i >= 2)) {
          CHECK_MSG(fabs(pu - 2) < 0.15 && fabs(pq - 2) < 0.15,
                    "stabilized %s rho_inf %g h %g: orders %.2f %.2f", frame, rhos[r], h, pu, pq);
        } else if (i == 5) {
          CHECK_MSG(pu > 1.85 && pu < 2.4 && fabs(pq - 2) < 0.15,
                    "stabilized rho_inf 0: orders %.2f %.2f", pu, pq);
        }
      }
      printf("\n");
    }
    // body form: better than index 3 (measured 2.0-5.1 times smaller at h = 1.25e-4); spatial:
    // 7.6e-5 ... 7.9e-5 in u, 4.5e-5 ... 6.3e-5 in q (twice the spatial index-3 error)
    if (sp) {
      CHECK_MSG(eu[5] < 8.5e-5 && eq[5] < 7e-5, "stabilized spatial rho_inf %g: errors %.3e %.3e",
                rhos[r], eu[5], eq[5]);
    } else {
      CHECK_MSG(eu[5] < 1e-4 * (rhos[r] > 0 ? 1 : 1.2) && eq[5] < 3e-4,
                "stabilized rho_inf %g: errors %.3e %.3e", rhos[r], eu[5], eq[5]);
    }
  }
}


// Kynema at its setting (h = 2e-4, rho_inf = 0.9, consistent start), the same method (index 3,
// spatial form): its centre of mass at t = 2 (bench/peers/data/heavy_top/kynema_t2_rho0.9.txt,
// atol 1e-7, rtol 1e-6) and its error against u_ref, 9.603762109e-5
static void kynema_setting(void) {
  static const double uk[3] = {-0.15032078512437494, -1.7241053588677764 + 1, -0.67310852826166556};
  rdContext* ctx = NULL;
  rd_createContext(&ctx, NULL);
  rdModel* m;
  rdData* d;
  int st = model_make(model_heavyTopAlpha(ctx, 0.9, 2e-4, NULL), &m, &d);
  CHECK(st == 0);
  if (st == 0 && rd_advance(m, d, 2.0, NULL, NULL) == RD_OK) {
    double x[3], dk = 0, e = 0, ek = 0;
    rd_getNodeState(m, d, 0, x, NULL, NULL, NULL, NULL);
    for (int k = 0; k < 3; k++) {
      dk = fmax(dk, fabs(x[k] - uk[k]));
      e = fmax(e, fabs(x[k] - (uref[k] + (k == 1))));
      ek = fmax(ek, fabs(uk[k] - (uref[k] + (k == 1))));
    }
    printf("h = 2e-4, rho_inf = 0.9: error %.10e (Kynema %.10e), from Kynema's state %.2e\n", e, ek,
           dk);
    CHECK_MSG(dk < 1e-9, "%.3e from Kynema's state", dk);
    CHECK_MSG(e <= ek + 1e-11, "error %.10e, Kynema's %.10e", e, ek);
  }
  rd_destroyData(&d);
  rd_destroyModel(&m);
  rd_destroyContext(&ctx);
}


int main(int argc, char** argv) {
  TEST_INIT(argc, argv);
  int full = argc > 1 && !strcmp(argv[1], "--full");
  TEST_CASE(initial_accelerations("klu"));
  TEST_CASE(initial_accelerations("umfpack"));
  TEST_CASE(initial_accelerations("dense"));
  TEST_CASE(index3_orders(full, "body"));
  TEST_CASE(index3_rho1(full, "body"));
  TEST_CASE(stabilized_orders("body"));
  TEST_CASE(index3_orders(full, "spatial"));
  TEST_CASE(index3_rho1(full, "spatial"));
  TEST_CASE(stabilized_orders("spatial"));
  TEST_CASE(kynema_setting());
  return TEST_SUMMARY();
}
