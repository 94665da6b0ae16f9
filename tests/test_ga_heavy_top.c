// SPDX-License-Identifier: MIT
// Heavy top (docs/benchmarks.md A6) with the generalized-alpha stepper: exact consistent initial
// accelerations, observed order 2 at t = 2 against the converged reference (index 3 and the
// stabilized index-2 formulation, which also runs rho_inf = 1). (The finite-difference checks of
// the stabilized iteration-matrix blocks are in test_ga_tangent.c.)
// Usage: test_ga_heavy_top [--full]   (--full: index 3 also at 4e-3 and rho_inf = 1)
#include <math.h>
#include <string.h>

#include "src/model/data_impl.h"
#include "tests/support/models.h"
#include "tests/test_macros.h"

static const double uref[3] = {-0.1504168227454677, -1.7241655916366287, -0.6730222695607069};
static const double qref[4] = {0.1229471350418663, -0.4910798925503638, 0.3504300303436659,
                               -0.787986887550204};

// errors in u and q at t = 2 (huge if the run failed)
static void run(double rho, double h, const char* form, double* eu, double* eq) {
  rdContext* ctx = NULL;
  rd_createContext(&ctx, NULL);
  rdModel* m;
  rdData* d;
  *eu = *eq = 1e30;
  rdSpec* s = model_heavyTopAlpha(ctx, rho, h, NULL);
  rds_setOption(s, "solver.formulation", form);
  if (model_make(s, &m, &d) == 0 && rd_advance(m, d, 2.0, NULL, NULL) == RD_OK) {
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
    printf("  rho %g h %g %s: %s\n", rho, h, form, rd_lastError(ctx));
  }
  rd_destroyData(&d);
  rd_destroyModel(&m);
  rd_destroyContext(&ctx);
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


// index 3: order 2 in u and q from the two finest steps (full: also at 4e-3 and rho_inf = 1)
static void index3_orders(int full) {
  int nrho = full ? 4 : 3;
  double h0 = full ? 4e-3 : 2e-3;
  int nh = full ? 6 : 5;
  for (int r = 0; r < nrho; r++) {
    double eu[8], eq[8];
    printf("rho_inf = %g\n", rhos[r]);
    for (int i = 0; i < nh; i++) {
      double h = h0 / (1 << i);
      run(rhos[r], h, "index3", &eu[i], &eq[i]);
      if (i == 0) {
        printf("  h %.4e  |u - u_ref| %.3e  |q - q_ref| %.3e\n", h, eu[i], eq[i]);
      } else {
        printf("  h %.4e  |u - u_ref| %.3e  |q - q_ref| %.3e  order %.2f %.2f\n", h, eu[i], eq[i],
               log2(eu[i - 1] / eu[i]), log2(eq[i - 1] / eq[i]));
      }
    }
    // the two finest steps: second order
    double pu = log2(eu[nh - 2] / eu[nh - 1]), pq = log2(eq[nh - 2] / eq[nh - 1]);
    CHECK_MSG(pu > 1.8 && pu < 2.3, "rho_inf %g: order in position %.2f", rhos[r], pu);
    CHECK_MSG(pq > 1.8 && pq < 2.3, "rho_inf %g: order in rotation %.2f", rhos[r], pq);
    CHECK_MSG(eu[nh - 1] < 3e-3, "rho_inf %g: error %.3e", rhos[r], eu[nh - 1]);
  }
}


// stabilized index 2: rho_inf = 1 too, and h = 4e-3 (index 3 fails there at 0.9 and 1);
// order 2 +- 0.15 in u and q for every halving at rho_inf >= 0.9, from h = 2e-3 on at 0.5
// (2.21 in q from 4e-3). rho_inf = 0 is still pre-asymptotic at these steps (2.31 in u at
// 1.25e-4, 2.08 two halvings later), so only its finest rotation order is held to 2 +- 0.15.
static void stabilized_orders(void) {
  for (int r = 0; r < 4; r++) {
    double eu[6], eq[6];
    printf("stabilized, rho_inf = %g\n", rhos[r]);
    for (int i = 0; i < 6; i++) {
      double h = 4e-3 / (1 << i);
      run(rhos[r], h, "stabilized", &eu[i], &eq[i]);
      printf("  h %.4e  |u - u_ref| %.3e  |q - q_ref| %.3e", h, eu[i], eq[i]);
      if (i > 0) {
        double pu = log2(eu[i - 1] / eu[i]), pq = log2(eq[i - 1] / eq[i]);
        printf("  order %.2f %.2f", pu, pq);
        if (rhos[r] >= 0.9 || (rhos[r] > 0 && i >= 2)) {
          CHECK_MSG(fabs(pu - 2) < 0.15 && fabs(pq - 2) < 0.15,
                    "stabilized rho_inf %g h %g: orders %.2f %.2f", rhos[r], h, pu, pq);
        } else if (i == 5) {
          CHECK_MSG(pu > 1.85 && pu < 2.4 && fabs(pq - 2) < 0.15,
                    "stabilized rho_inf 0: orders %.2f %.2f", pu, pq);
        }
      }
      printf("\n");
    }
    // better than index 3 (measured 2.0-5.1 times smaller at h = 1.25e-4)
    CHECK_MSG(eu[5] < 1e-4 * (rhos[r] > 0 ? 1 : 1.2) && eq[5] < 3e-4,
              "stabilized rho_inf %g: errors %.3e %.3e", rhos[r], eu[5], eq[5]);
  }
}


int main(int argc, char** argv) {
  TEST_INIT(argc, argv);
  int full = argc > 1 && !strcmp(argv[1], "--full");
  TEST_CASE(initial_accelerations("klu"));
  TEST_CASE(initial_accelerations("umfpack"));
  TEST_CASE(initial_accelerations("dense"));
  TEST_CASE(index3_orders(full));
  TEST_CASE(stabilized_orders());
  return TEST_SUMMARY();
}
