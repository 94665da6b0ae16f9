// SPDX-License-Identifier: MIT
// Exact restart: a run resumed from a checkpoint matches the uninterrupted run bit for bit, for
// every method that can integrate the model, also with adaptive steps (whose uninterrupted run
// stops at the checkpoint's time too: the last step lands there); bad checkpoints are refused
// without harm.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rodrigues/rodrigues.h"
#include "tests/support/checkpoint_file.h"
#include "tests/support/models.h"
#include "tests/test_macros.h"

// heavy symmetric top pinned at the origin (gravity), with a time-varying moment on top if
// nudge (without it only the weight acts: the rigid steppers' path without rd_evalLoads, whose
// LIEMID solves keep their Newton tangent in the stepper memory);
// modified (a linear solver name, NULL for none): solver.modified_newton = true with that
// solver (generalized-alpha keeps its factorization across steps; the checkpoint carries it)
static rdModel* build(rdContext* ctx, const char* method, int extra_node, const char* modified,
                      int nudge, int adaptive) {
  rdSpec* s = NULL;
  rd_createSpec(ctx, &s);
  rdNodeDef n = rd_defaultNodeDef();
  n.name = "top";
  n.angular_velocity[2] = 20;
  n.angular_velocity_frame = RD_FRAME_BODY;
  rdu_rotvecToQuat(n.orientation, (double[3]){0.3, 0, 0});
  int node = model_addRigidBody(s, &n, "body", 2, (double[3]){3, 3, 1}, (double[3]){0, 0, 1});
  if (extra_node) {
    n.name = "other";
    rds_addNode(s, &n);
  }
  model_addPivot(s, node);
  rdTimeFnDef f = rd_defaultTimeFnDef();
  f.name = "wave";
  f.type = RD_TIMEFN_EXPRESSION;
  f.expression = "sin(3*t)";
  int fn = rds_addTimeFn(s, &f);
  rdLoadDef l = rd_defaultLoadDef();
  l.name = "nudge";
  l.node = node;
  l.kind = RD_LOAD_MOMENT;
  l.value[0] = 0.5;
  l.timefn = fn;
  if (nudge) {
    rds_addLoad(s, &l);
  }
  rds_setGravity(s, (double[3]){0, 0, -10});
  rds_setOption(s, "solver.method", method);
  rds_setOption(s, "solver.time_step", "0.01");
  if (modified) {
    rds_setOption(s, "solver.modified_newton", "true");
    rds_setOption(s, "solver.linear_solver", modified);
  }
  if (adaptive) {
    rds_setOption(s, "solver.adaptive", "true");
    rds_setOption(s, "solver.tolerance", "1e-4");
  }
  return model_compile(s);
}


// bitwise comparison of every node state
static int same_state(const rdModel* m, const rdData* a, const rdData* b) {
  rdModelInfo info;
  rd_modelInfo(m, &info);
  if (memcmp(&(double){rd_time(a)}, &(double){rd_time(b)}, sizeof(double))) {
    return 0;
  }
  for (int i = 0; i < info.nnode; i++) {
    double xa[16], xb[16];
    rd_getNodeState(m, a, i, xa, xa + 3, xa + 7, xa + 10, xa + 13);
    rd_getNodeState(m, b, i, xb, xb + 3, xb + 7, xb + 10, xb + 13);
    if (memcmp(xa, xb, sizeof(xa))) {
      return 0;
    }
  }
  return 1;
}


static void test_method(rdContext* ctx, const char* method, const char* modified, int nudge,
                        int adaptive, const char* path, int* tested, const char** first_ok) {
  rdModel* m = build(ctx, method, 0, modified, nudge, adaptive);
  rdData *full = NULL, *first = NULL, *resumed = NULL;
  if (!m || rd_createData(m, &full) != RD_OK) {
    rd_destroyModel(&m);
    return;  // method not available for this model
  }
  if (!(*tested)++) {
    *first_ok = method;
  }
  rd_createData(m, &first);
  rd_createData(m, &resumed);
  CHECK(rd_initialize(m, full) == RD_OK);
  CHECK(!adaptive || rd_advance(m, full, 0.37, NULL, NULL) == RD_OK);
  CHECK(rd_advance(m, full, 1.0, NULL, NULL) == RD_OK);
  // interrupted run: to 0.37, checkpoint, resume in fresh data, continue to 1
  CHECK(rd_initialize(m, first) == RD_OK);
  CHECK(rd_advance(m, first, 0.37, NULL, NULL) == RD_OK);
  CHECK(rd_writeCheckpoint(m, first, path) == RD_OK);
  CHECK(rd_readCheckpoint(m, resumed, path) == RD_OK);
  CHECK(rd_isInitialized(resumed));
  CHECK(rd_advance(m, resumed, 1.0, NULL, NULL) == RD_OK);
  CHECK_MSG(same_state(m, full, resumed), "method %s%s%s%s%s: resumed run differs", method,
            modified ? ", modified Newton with " : "", modified ? modified : "",
            nudge ? "" : ", weight only", adaptive ? ", adaptive" : "");
  rdStats a, b;
  rd_getStats(full, &a);
  rd_getStats(resumed, &b);
  CHECK(a.steps == b.steps && a.load_evaluations == b.load_evaluations);
  CHECK(a.newton_iterations == b.newton_iterations);
  CHECK(a.error_estimate == b.error_estimate && a.error_rejections == b.error_rejections);
  if (adaptive) {
    printf("%s adaptive: %ld steps (%ld rejected), h from %.3g to %.3g\n", method, a.steps,
           a.error_rejections, a.min_step, a.max_step);
    CHECK(a.min_step < a.max_step);  // the step did adapt
  }
  rd_destroyData(&full);
  rd_destroyData(&first);
  rd_destroyData(&resumed);
  rd_destroyModel(&m);
}


// loads held by rd_setNodeLoad and the redundancy counts travel in the checkpoint: a host
// that resumes without setting its loads again continues the same run bit for bit
static void test_held_loads(rdContext* ctx, const char* path) {
  rdModel* m = build(ctx, "generalized_alpha", 0, NULL, 0, 0);
  rdData *full = NULL, *first = NULL, *resumed = NULL;
  CHECK(rd_createData(m, &full) == RD_OK);
  rd_createData(m, &first);
  rd_createData(m, &resumed);
  const double f[3] = {0.3, -0.2, 0.1}, mo[3] = {0, 0.4, 0};
  CHECK(rd_initialize(m, full) == RD_OK);
  CHECK(rd_setNodeLoad(m, full, 0, f, mo) == RD_OK);
  CHECK(rd_advance(m, full, 0.5, NULL, NULL) == RD_OK);
  CHECK(rd_initialize(m, first) == RD_OK);
  CHECK(rd_setNodeLoad(m, first, 0, f, mo) == RD_OK);
  CHECK(rd_advance(m, first, 0.21, NULL, NULL) == RD_OK);
  CHECK(rd_writeCheckpoint(m, first, path) == RD_OK);
  CHECK(rd_readCheckpoint(m, resumed, path) == RD_OK);  // no rd_setNodeLoad here
  CHECK(rd_advance(m, resumed, 0.5, NULL, NULL) == RD_OK);
  CHECK_MSG(same_state(m, full, resumed), "held loads: the resumed run differs");
  rd_destroyData(&full);
  rd_destroyData(&first);
  rd_destroyData(&resumed);
  rd_destroyModel(&m);
}


static void test_bad_files(rdContext* ctx, const char* method, const char* path) {
  rdModel* m = build(ctx, method, 0, NULL, 1, 0);
  rdModel* other = build(ctx, method, 1, NULL, 1, 0);
  rdData *d = NULL, *e = NULL;
  if (rd_createData(m, &d) != RD_OK || rd_createData(other, &e) != RD_OK) {
    rd_destroyData(&d);
    rd_destroyModel(&m);
    rd_destroyModel(&other);
    return;
  }
  rd_initialize(m, d);
  rd_advance(m, d, 0.1, NULL, NULL);
  CHECK(rd_writeCheckpoint(m, d, path) == RD_OK);
  // another model's data is refused
  CHECK(rd_readCheckpoint(other, e, path) == RD_ERR_ARG);
  CHECK(strstr(rd_lastError(ctx), "another model") != NULL);
  // missing, truncated, corrupt
  CHECK(rd_readCheckpoint(m, d, "/nonexistent/dir/ckpt") == RD_ERR_IO);
  FILE* f = fopen(path, "rb");
  char buf[1 << 16];
  size_t n = fread(buf, 1, sizeof(buf), f);
  fclose(f);
  f = fopen(path, "wb");
  fwrite(buf, 1, n - 5, f);
  fclose(f);
  double t = rd_time(d);
  CHECK(rd_readCheckpoint(m, d, path) == RD_ERR_IO);
  CHECK(rd_time(d) == t);
  buf[n - 3] ^= 0x40;
  f = fopen(path, "wb");
  fwrite(buf, 1, n, f);
  fclose(f);
  CHECK(rd_readCheckpoint(m, d, path) == RD_ERR_IO);
  CHECK(strstr(rd_lastError(ctx), "corrupt") != NULL);
  // not writable
  CHECK(rd_writeCheckpoint(m, d, "/nonexistent/dir/ckpt") == RD_ERR_IO);
  rd_destroyData(&d);
  rd_destroyData(&e);
  rd_destroyModel(&m);
  rd_destroyModel(&other);
}


// a pendulum whose every value can be changed: what a checkpoint's fingerprint must notice
typedef struct {
  double mass, gravity, joint_x, start_x, time_step;
} variant;


static rdModel* build_variant(rdContext* ctx, variant v) {
  rdSpec* s = NULL;
  rd_createSpec(ctx, &s);
  rdNodeDef n = rd_defaultNodeDef();
  n.name = "bob";
  n.position[0] = v.start_x;
  n.position[2] = -1;
  int node = model_addRigidBody(s, &n, "body", v.mass, (double[3]){1, 1, 1}, NULL);
  rdJointDef j = rd_defaultJointDef();
  j.name = "pin";
  j.type = RD_JOINT_SPHERICAL;
  j.node[0] = node;
  j.node[1] = RD_GROUND;
  j.point[0] = v.joint_x;
  rds_addJoint(s, &j);
  rds_setGravity(s, (double[3]){0, 0, -v.gravity});
  char dt[32];
  snprintf(dt, sizeof(dt), "%.17g", v.time_step);
  rds_setOption(s, "solver.time_step", dt);
  return model_compile(s);
}


// finding 10 of issue 16: every value that changes the motion is in the fingerprint; resuming
// another model is refused with what differs, accepted only when asked for
static void test_fingerprint(rdContext* ctx, const char* path) {
  const variant base = {2, 9.81, 0, 0, 0.01};
  rdModel* m = build_variant(ctx, base);
  rdData* d = NULL;
  CHECK(m && rd_createData(m, &d) == RD_OK);
  CHECK(rd_initialize(m, d) == RD_OK);
  CHECK(rd_advance(m, d, 0.1, NULL, NULL) == RD_OK);
  CHECK(rd_writeCheckpoint(m, d, path) == RD_OK);
  struct {
    variant v;
    const char* differs;
  } cases[] = {
      {{3, 9.81, 0, 0, 0.01}, "element 'body' differs"},
      {{2, 9.80, 0, 0, 0.01}, "gravity differs"},
      {{2, 9.81, 0.1, 0, 0.01}, "joint 'pin' differs"},
      {{2, 9.81, 0, 0.1, 0.01}, "node 'bob' differs"},
      {{2, 9.81, 0, 0, 0.005}, "option solver.time_step is 0.01 in the checkpoint, 0.005"},
  };
  for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
    rdModel* other = build_variant(ctx, cases[k].v);
    rdData* e = NULL;
    CHECK(other && rd_createData(other, &e) == RD_OK);
    CHECK(rd_readCheckpoint(other, e, path) == RD_ERR_ARG);
    CHECK_MSG(strstr(rd_lastError(ctx), cases[k].differs) != NULL, "case %zu: %s", k,
              rd_lastError(ctx));
    CHECK(!rd_isInitialized(e));
    // a deliberate change is accepted when asked for
    CHECK(rd_readCheckpointFlags(other, e, path, RD_CHECKPOINT_ACCEPT_CHANGES) == RD_OK);
    CHECK(rd_isInitialized(e) && rd_time(e) == rd_time(d));
    rd_destroyData(&e);
    rd_destroyModel(&other);
  }
  CHECK(rd_readCheckpointFlags(m, d, path, 4) == RD_ERR_ARG);
  rd_destroyData(&d);
  rd_destroyModel(&m);
}


// finding 10: the checksum covers the header (a time of NaN or -5 written into it is refused),
// and a header sealed with impossible values is refused too
static void test_header(rdContext* ctx, const char* path) {
  rdModel* m = build_variant(ctx, (variant){2, 9.81, 0, 0, 0.01});
  rdData* d = NULL;
  CHECK(m && rd_createData(m, &d) == RD_OK);
  CHECK(rd_initialize(m, d) == RD_OK);
  CHECK(rd_advance(m, d, 0.1, NULL, NULL) == RD_OK);
  const long t_at = 48;  // offset of the time in the header (version 9)
  double values[2] = {NAN, -5};
  for (int k = 0; k < 2; k++) {
    CHECK(rd_writeCheckpoint(m, d, path) == RD_OK);
    CHECK(ckpt_patchFile(path, t_at, &values[k], sizeof(double), 0));
    rdData* e = NULL;
    rd_createData(m, &e);
    CHECK(rd_readCheckpoint(m, e, path) == RD_ERR_IO);
    CHECK(strstr(rd_lastError(ctx), "corrupt (checksum)") != NULL);
    CHECK(!rd_isInitialized(e));
    rd_destroyData(&e);
  }
  // sealed again: the checksum passes, the value does not
  CHECK(rd_writeCheckpoint(m, d, path) == RD_OK);
  CHECK(ckpt_patchFile(path, t_at, &(double){NAN}, sizeof(double), 1));
  CHECK(rd_readCheckpoint(m, d, path) == RD_ERR_IO);
  CHECK(strstr(rd_lastError(ctx), "its time is not finite") != NULL);
  // and the time written back bit for bit is the data's
  CHECK(rd_writeCheckpoint(m, d, path) == RD_OK);
  double t = rd_time(d);
  CHECK(ckpt_patchFile(path, t_at, &t, sizeof(t), 1));
  CHECK(rd_readCheckpoint(m, d, path) == RD_OK && rd_time(d) == t);
  rd_destroyData(&d);
  rd_destroyModel(&m);
}


int main(int argc, char** argv) {
  TEST_INIT(argc, argv);
  rdContext* ctx;
  rd_createContext(&ctx, NULL);
  char path[] = "/tmp/rd_ckpt_XXXXXX";
  int fd = mkstemp(path);
  CHECK(fd >= 0);
  int tested = 0;
  const char* first_ok = NULL;
  for (int nudge = 1; nudge >= 0; nudge--) {
    for (int k = 0; k < RD_METHOD_COUNT; k++) {
      if (k != RD_METHOD_STATIC) {
        TEST_CASE(test_method(ctx, rd_methodName(k), NULL, nudge, 0, path, &tested, &first_ok));
      }
    }
  }
  // adaptive steps: the controller's state travels in the checkpoint
  for (int k = 0; k < RD_METHOD_COUNT; k++) {
    if (k != RD_METHOD_STATIC) {
      TEST_CASE(test_method(ctx, rd_methodName(k), NULL, 1, 1, path, &tested, &first_ok));
    }
  }
  // the factorization kept across steps by modified Newton, with every linear solver
  const char* linsol[] = {"klu", "umfpack", "dense"};
  for (int k = 0; k < 3; k++) {
    TEST_CASE(test_method(ctx, "generalized_alpha", linsol[k], 1, 0, path, &tested, &first_ok));
  }
  TEST_CASE(test_held_loads(ctx, path));
  printf("restart checked for %d methods\n", tested);
  CHECK(tested >= 1);
  if (first_ok) {
    TEST_CASE(test_bad_files(ctx, first_ok, path));
  }
  TEST_CASE(test_fingerprint(ctx, path));
  TEST_CASE(test_header(ctx, path));
  remove(path);
  rd_destroyContext(&ctx);
  return TEST_SUMMARY();
}
