// SPDX-License-Identifier: MIT
// The ground frame of a prescribed motion kept by the data between evaluations at the same t
// (rdMotionFrame, rd_jointEvalKept): the same joint outputs to the bit as an evaluation without
// it, whatever the order of the times; none for motions given by callbacks.
#include <math.h>
#include <string.h>

#include "constraints/constraint.h"
#include "rodrigues/rodrigues.h"
#include "src/model/data_impl.h"
#include "tests/support/models.h"
#include "tests/test_macros.h"

// a rigid body held by a prescribed motion: translations and rotations from expressions and a
// piecewise-linear function, or (callback) one component from a callback counting its calls
static int calls;


static int counted(double t, double* value, double dvalue[2], void* user) {
  (void)dvalue;
  (void)user;
  calls++;
  *value = 0.2 * t * t;
  return 0;
}


static rdModel* held_body(rdContext* ctx, int callback) {
  rdSpec* s = NULL;
  rd_createSpec(ctx, &s);
  rdNodeDef n = rd_defaultNodeDef();
  n.name = "a";
  n.position[0] = 0.3;
  n.orientation[0] = 0.9;
  n.orientation[1] = 0.1;
  n.orientation[2] = -0.3;
  n.orientation[3] = 0.2;
  double nq = sqrt(0.81 + 0.01 + 0.09 + 0.04);
  for (int k = 0; k < 4; k++) {
    n.orientation[k] /= nq;
  }
  int a = model_addRigidBody(s, &n, "b", 2, (double[3]){0.3, 0.4, 0.5}, NULL);
  rdJointDef j = rd_defaultJointDef();
  j.name = "held";
  j.type = RD_JOINT_PRESCRIBED;
  j.node[0] = a;
  j.node[1] = RD_GROUND;
  const char* ex[4] = {"0.1*sin(3*t)", "t*t", "0.3*t", "-0.2*cos(t)"};
  int slot[4] = {0, 2, 3, 5};
  for (int k = 0; k < 4; k++) {
    char name[8] = "f0";
    name[1] = (char)('0' + k);
    j.motion_fn[slot[k]] = model_addExpression(s, name, ex[k]);
  }
  rdTimeFnDef f = rd_defaultTimeFnDef();
  double ts[3] = {0, 0.5, 2}, ys[3] = {0, 0.1, -0.3};
  f.name = "ry";
  if (callback) {
    f.type = RD_TIMEFN_CALLBACK;
    f.callback = counted;
  } else {
    f.type = RD_TIMEFN_LINEAR;
    f.npoint = 3;
    f.t = ts;
    f.y = ys;
  }
  j.motion_fn[4] = rds_addTimeFn(s, &f);
  rds_addJoint(s, &j);
  rdModel* m = NULL;
  CHECK(rd_compile(s, &m) == RD_OK);
  rd_destroySpec(&s);
  return m;
}


static int same_eval(const rdJointEval* a, const rdJointEval* b) {
  return a->n == b->n && a->nrow == b->nrow && !memcmp(a->phi, b->phi, sizeof(a->phi)) &&
         !memcmp(a->B, b->B, sizeof(a->B)) && !memcmp(a->gamma, b->gamma, sizeof(a->gamma)) &&
         !memcmp(a->r, b->r, sizeof(a->r)) && !memcmp(a->K, b->K, sizeof(a->K));
}


// times out of order and repeated, a moved state at a repeated time: every output equals the
// evaluation without the kept frame, bit for bit
static void test_kept_frame(rdContext* ctx) {
  rdModel* m = held_body(ctx, 0);
  rdData* d = NULL;
  CHECK(rd_createData(m, &d) == RD_OK);
  rdMotionFrame* fr = rd_dataMotionFrame(d, 0);
  CHECK(fr != NULL && isnan(fr->t));
  double q[7], v[6], lam[6] = {0.3, -1.2, 0.7, 2.1, -0.4, 0.9};
  memcpy(q, d->s.q, sizeof(q));
  memcpy(v, d->s.v, sizeof(v));
  const double ts[] = {0.3, 0.7, 0.3, 0.3, 1.1, 0.7, 0.3 + 1e-15, 0.3};
  for (size_t i = 0; i < sizeof(ts) / sizeof(ts[0]); i++) {
    q[0] += 0.01 * (double)i;
    v[4] -= 0.02 * (double)i;
    rdJointEval kept, plain;
    CHECK(rd_jointEvalKept(m, 0, ts[i], q, v, lam, fr, &kept) == RD_OK);
    CHECK(rd_jointEval(m, 0, ts[i], q, v, lam, &plain) == RD_OK);
    CHECK_MSG(same_eval(&kept, &plain), "t = %.17g (evaluation %zu)", ts[i], i);
    CHECK(fr->t == ts[i]);
  }
  // a reset forgets the frame
  CHECK(rd_resetData(m, d) == RD_OK && isnan(rd_dataMotionFrame(d, 0)->t));
  rd_destroyData(&d);
  rd_destroyModel(&m);
}


// a motion with a callback: no kept frame, the callback runs at every evaluation
static void test_callback_not_kept(rdContext* ctx) {
  rdModel* m = held_body(ctx, 1);
  rdData* d = NULL;
  CHECK(rd_createData(m, &d) == RD_OK);
  CHECK(rd_dataMotionFrame(d, 0) == NULL);
  rdJointEval ev;
  calls = 0;
  for (int i = 0; i < 3; i++) {
    CHECK(rd_jointEvalKept(m, 0, 0.4, d->s.q, d->s.v, NULL, rd_dataMotionFrame(d, 0), &ev) ==
          RD_OK);
  }
  // three values per evaluation (the central differences of rd_timeFnDerivs)
  CHECK_MSG(calls == 9, "%d calls", calls);
  rd_destroyData(&d);
  rd_destroyModel(&m);
}


int main(int argc, char** argv) {
  TEST_INIT(argc, argv);
  rdContext* ctx = NULL;
  rd_createContext(&ctx, NULL);
  TEST_CASE(test_kept_frame(ctx));
  TEST_CASE(test_callback_not_kept(ctx));
  rd_destroyContext(&ctx);
  return TEST_SUMMARY();
}
