// SPDX-License-Identifier: MIT
// Heavy top (benchmarks.md A6) with the generalized-alpha stepper: exact consistent initial
// accelerations, and observed order 2 at t = 2 against the converged reference.
// Usage: test_ga_heavy_top [--full]   (--full: steps 4e-3 ... 1.25e-4 and rho_inf = 1 too)
#include <math.h>
#include <string.h>

#include "data_impl.h"
#include "ga_models.h"
#include "test_macros.h"

static const double uref[3] = {-0.1504168227454677, -1.7241655916366287, -0.6730222695607069};
static const double qref[4] = {0.1229471350418663, -0.4910798925503638, 0.3504300303436659,
                               -0.787986887550204};

// errors in u and q at t = 2 (huge if the run failed)
static void run(double rho, double h, double* eu, double* eq) {
  rdContext* ctx = NULL;
  rd_createContext(&ctx, NULL);
  rdModel* m;
  rdData* d;
  *eu = *eq = 1e30;
  if (ga_make(ga_heavyTopSpec(ctx, rho, h, NULL), &m, &d) == 0 &&
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
    printf("  rho %g h %g: %s\n", rho, h, rd_lastError(ctx));
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
  int st = ga_make(ga_heavyTopSpec(ctx, 0.9, 2e-3, linsol), &m, &d);
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


int main(int argc, char** argv) {
  int full = argc > 1 && !strcmp(argv[1], "--full");
  initial_accelerations("klu");
  initial_accelerations("umfpack");
  initial_accelerations("dense");
  double rhos[4] = {0, 0.5, 0.9, 1};
  int nrho = full ? 4 : 3;
  double h0 = full ? 4e-3 : 2e-3;
  int nh = full ? 6 : 5;
  for (int r = 0; r < nrho; r++) {
    double eu[8], eq[8];
    printf("rho_inf = %g\n", rhos[r]);
    for (int i = 0; i < nh; i++) {
      double h = h0 / (1 << i);
      run(rhos[r], h, &eu[i], &eq[i]);
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
  return TEST_SUMMARY();
}
