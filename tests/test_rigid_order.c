// SPDX-License-Identifier: MIT
// Rigid steppers: observed orders of convergence on the Lagrangian tops.
//
// The fast and slow Lagrangian tops of Krysl & Endres 2005 §3.4-3.5 (the paper:
// tests/support/rigid_models.h) against an independent Dormand-Prince reference, and NMB == NMS
// to round-off.
//
// Final time 1 for both tops, and the paper's t = 10 for the fast top with the second-order
// methods only (at t = 10 the first-order LIEMID[E1]/[E2] errors pass through a phase where
// they partly cancel, so their observed order wanders); steps h0/2, h0/4, h0/8 with h0 = 1e-3
// (fast) and 1e-2 (slow); the order is taken from the two smallest steps.
// Error: |R - R_ref|_2 + |Pi - Pi_ref| / |Pi0|.
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "rodrigues/rodrigues.h"
#include "tests/support/models.h"
#include "tests/support/rigid_ref.h"
#include "tests/test_macros.h"

typedef struct {
  const char* name;
  double psi0[3], W0[3];
  double tend, h0;
  int second_order_only;
} topCase;

static const topCase tops[] = {
    {"fast top", {0.3, 0, 0}, {0, 0, 50}, 1.0, 1e-3, 0},
    {"slow top", {0.05, 0, 0}, {0, 0, 5}, 1.0, 1e-2, 0},
    {"fast top t=10", {0.3, 0, 0}, {0, 0, 50}, 10.0, 1e-3, 1},
};

typedef struct {
  const char* method;
  double order;
} methodCase;

static const methodCase methods[] = {
    {"nmb", 2}, {"nms", 2},    {"liemid_ea", 2}, {"liemid_i", 2},  {"sw", 2},
    {"akw", 2}, {"hstagm", 2}, {"liemid_e1", 1}, {"liemid_e2", 1},
};

#define NMETHOD ((int)(sizeof(methods) / sizeof(methods[0])))


// reference state at tend: DP5 with rtol 1e-13, checked against rtol 1e-12
static void reference(const topCase* tc, double y[7]) {
  refProblem p = {{5, 5, 1}, ref_topTorque, NULL};
  double y2[7];
  ref_rotvecToQuat(y, tc->psi0);
  memcpy(y + 4, tc->W0, 3 * sizeof(double));
  memcpy(y2, y, sizeof(y2));
  ref_integrate(&p, 0, tc->tend, y, 1e-13);
  ref_integrate(&p, 0, tc->tend, y2, 1e-12);
  double e = ref_attitudeError(y, y2) + ref_momentumError(p.J, y + 4, y2 + 4) / (5 * tc->W0[2]);
  CHECK_MSG(e < 1e-10, "%s: reference not converged (%.2e between rtol 1e-12 and 1e-13)", tc->name,
            e);
}


static double error_of(rdContext* ctx, const topCase* tc, const char* method, double h,
                       const double yref[7]) {
  rdModel* m = model_lagrangeTop(ctx, method, h, tc->psi0, tc->W0);
  double q[4], W[3];
  int st = m ? ref_run(m, tc->tend, q, W, NULL) : RD_ERR_MODEL;
  rd_destroyModel(&m);
  CHECK_MSG(st == RD_OK, "%s, %s, h = %g: %s", tc->name, method, h, rd_lastError(ctx));
  if (st != RD_OK) {
    return NAN;
  }
  double J[3] = {5, 5, 1};
  return ref_attitudeError(q, yref) + ref_momentumError(J, W, yref + 4) / (5 * tc->W0[2]);
}


static void test_orders(rdContext* ctx, const topCase* tc) {
  double yref[7];
  reference(tc, yref);
  for (int k = 0; k < NMETHOD; k++) {
    if (tc->second_order_only && methods[k].order != 2) {
      continue;
    }
    double e[3];
    for (int j = 0; j < 3; j++) {
      e[j] = error_of(ctx, tc, methods[k].method, tc->h0 / (2 << j), yref);
    }
    double p1 = log2(e[0] / e[1]), p2 = log2(e[1] / e[2]);
    printf("# %-13s %-10s errors %.3e %.3e %.3e  orders %.3f %.3f\n", tc->name, methods[k].method,
           e[0], e[1], e[2], p1, p2);
    CHECK_MSG(fabs(p2 - methods[k].order) <= 0.15, "%s, %s: observed order %.3f, expected %g",
              tc->name, methods[k].method, p2, methods[k].order);
  }
}


// NMB and NMS are the same algorithm written in two frames
static void test_nmb_nms(rdContext* ctx) {
  const topCase* tc = &tops[0];
  double qa[4], qb[4], Wa[3], Wb[3];
  rdModel* a = model_lagrangeTop(ctx, "nmb", 1e-3, tc->psi0, tc->W0);
  rdModel* b = model_lagrangeTop(ctx, "nms", 1e-3, tc->psi0, tc->W0);
  CHECK(ref_run(a, 1.0, qa, Wa, NULL) == RD_OK);
  CHECK(ref_run(b, 1.0, qb, Wb, NULL) == RD_OK);
  double J[3] = {5, 5, 1};
  double dq = ref_attitudeError(qa, qb), dW = ref_momentumError(J, Wa, Wb) / 250;
  printf("# nmb vs nms after 1000 steps of the fast top: attitude %.2e, momentum %.2e\n", dq, dW);
  CHECK_MSG(dq < 1e-12 && dW < 1e-12, "nmb and nms differ by %.2e (attitude), %.2e (momentum)", dq,
            dW);
  rd_destroyModel(&a);
  rd_destroyModel(&b);
  // large steps: the same to round-off, and no inner Newton failure (no rejected step) in
  // either frame (the spatial gyroscopic term w x i w cancels: its round-off floor once lay
  // above the residual tolerance)
  const double hs[2] = {0.1, 0.05};
  for (int k = 0; k < 2; k++) {
    rdStats sa, sb;
    a = model_lagrangeTop(ctx, "nmb", hs[k], tc->psi0, tc->W0);
    b = model_lagrangeTop(ctx, "nms", hs[k], tc->psi0, tc->W0);
    CHECK(ref_run(a, 100 * hs[k], qa, Wa, &sa) == RD_OK);
    CHECK(ref_run(b, 100 * hs[k], qb, Wb, &sb) == RD_OK);
    dq = ref_attitudeError(qa, qb);
    dW = ref_momentumError(J, Wa, Wb) / 250;
    printf("# nmb vs nms after 100 steps of %g: attitude %.2e, momentum %.2e, rejected %ld %ld\n",
           hs[k], dq, dW, sa.rejected_steps, sb.rejected_steps);
    CHECK_MSG(dq < 1e-12 && dW < 1e-12, "h = %g: nmb and nms differ by %.2e, %.2e", hs[k], dq, dW);
    CHECK_MSG(
        sa.steps == 100 && sa.rejected_steps == 0 && sb.steps == 100 && sb.rejected_steps == 0,
        "h = %g: steps %ld, %ld, rejected %ld, %ld", hs[k], sa.steps, sb.steps, sa.rejected_steps,
        sb.rejected_steps);
    rd_destroyModel(&a);
    rd_destroyModel(&b);
  }
}


int main(int argc, char** argv) {
  TEST_INIT(argc, argv);
  rdContext* ctx = NULL;
  rd_createContext(&ctx, NULL);
  for (int i = 0; i < 3; i++) {
    TEST_CASE(test_orders(ctx, &tops[i]));
  }
  TEST_CASE(test_nmb_nms(ctx));
  rd_destroyContext(&ctx);
  return TEST_SUMMARY();
}
